/*
 * lockfile.c - Access's lock file (.ldb beside a Jet4 .mdb, .laccdb beside
 * an .accdb): join it while writing, and refuse to write while Access or
 * Jet has the database open.
 *
 * THE FORMAT (Microsoft, "Understanding Microsoft Jet Locking", and the
 * Jet Database Engine Programmer's Guide, "Layout of the Locking
 * Information File"): an array of up to 255 records of 64 bytes, one per
 * user slot: 32 bytes of computer name, then 32 bytes of the Jet security
 * account name ("Admin" unless user-level security is used), each NUL
 * padded, in the ANSI code page. A user's presence is a one-byte lock at
 * 10000001h + slot (os.h, JET_OS_USER_SLOT_BASE) that the user's Jet holds
 * while it has the database open; records of users that left stay in the
 * file until overwritten, and the last user to leave deletes the file.
 *
 * WHAT WE DO. At the first write transaction of a connection
 * (jet_lockfile_enter, from jet_db_write_begin) we open or create the
 * lock file, look at every non-empty record, and ask the OS whether its
 * slot's byte on the DATABASE file is locked by another process:
 *   - locked, and its marker byte (JET_OS_USER_MARK_BASE + slot) locked
 *     too: another jetodbc process, which our own locking protocol
 *     (os.c) serialises with us: no refusal;
 *   - locked without the marker: Access/Jet has the database open. We
 *     refuse to write (JET_EREADONLY, naming the user and the machine of
 *     the record) and leave both files untouched; reading goes on;
 *   - not locked, but the same offset of the LOCK FILE is locked by
 *     another process: older Jet versions may lock their slot there (the
 *     white paper does not say which file), so this refuses too;
 *   - not locked anywhere: a record left by a user who quit or crashed.
 *     It does not block, and its slot may be reused.
 * Then we take the first slot nobody holds (its user and marker bytes),
 * write our record (this machine's name, user "Admin" as Jet writes it
 * without security) and keep both until the connection closes
 * (jet_lockfile_leave): then our record is cleared and, when no slot of
 * any record is held any more, the file is removed. Later write
 * transactions of the connection look at the records again (one read of
 * at most 16,320 bytes and one probe per non-empty record).
 *
 * WHAT IT CANNOT SEE. Locks are only as good as the file system shares
 * them: on a local disk and over NFS (lockd) fcntl locks are seen by
 * every client that uses them; a database on an SMB share written by
 * Access on Windows is locked on the Windows server, and a Linux client
 * mounting the share (cifs) sees those locks only if the mount passes
 * byte-range locks through (the default cifs "nobrl" is off, but some
 * servers and "posix locking = no" Samba shares do not map them), and a
 * program working on a copy sees nothing. A record whose holder runs on
 * a machine whose locks we cannot see therefore looks stale, and we
 * would write beside a live Access: on shared folders, open the database
 * in only one program at a time, or read only. Access itself does not
 * know our SHARED/RESERVED bytes (3 GiB up), so Access may write while we
 * read, as it would beside any other Jet client; Access does see our user
 * slot, so it counts us as a user. A directory we cannot create the lock
 * file in (read-only directory) keeps no record: writing still works,
 * after the slot bytes of all 255 users were found free.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "internal.h"
#include "os.h"

#define REC_SIZE 64u
#define NAME_SIZE 32u
#define FILE_MAX (JET_OS_USER_SLOTS * REC_SIZE)     /* 16,320 bytes */

struct jet_lockfile {
    char *path;             /* <name>.ldb / <name>.laccdb */
    unsigned slot;          /* ours */
    bool has_record;        /* our record was written (file exists) */
};

/* The lock file's name: the database's with its extension replaced by
 * .ldb (Jet4) or .laccdb (ACE), as Access names it. */
static char *lock_path(const char *db_path, bool ace)
{
    const char *ext = ace ? ".laccdb" : ".ldb";
    const char *slash = strrchr(db_path, '/');
    const char *bslash = strrchr(db_path, '\\');
    const char *base = slash > bslash ? slash + 1 : bslash ? bslash + 1
                                                           : db_path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - db_path)
                                     : strlen(db_path);
    char *p = jet_malloc(stem + strlen(ext) + 1);
    if (!p)
        return NULL;
    memcpy(p, db_path, stem);
    memcpy(p + stem, ext, strlen(ext) + 1);
    return p;
}

/* Record text (NUL padded, at most NAME_SIZE bytes) as a C string with
 * anything unprintable shown as '?'. */
static void rec_text(char *out, const uint8_t *p)
{
    size_t n = 0;
    while (n < NAME_SIZE && p[n])
        n++;
    for (size_t i = 0; i < n; i++)
        out[i] = p[i] >= 0x20 && p[i] < 0x7F ? (char)p[i] : '?';
    out[n] = '\0';
}

static bool rec_empty(const uint8_t *r)
{
    for (unsigned i = 0; i < REC_SIZE; i++)
        if (r[i])
            return false;
    return true;
}

/* Refuse: another program holds slot i (its record r, may be NULL). */
static jet_rc refuse(jet_db *db, const uint8_t *r)
{
    char machine[NAME_SIZE + 1] = "?", user[NAME_SIZE + 1] = "?";
    if (r) {
        rec_text(machine, r);
        rec_text(user, r + NAME_SIZE);
    }
    return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                    "the database is opened by another program (user %s on "
                    "machine %s); reading works, writing is refused while "
                    "it is open", user, machine);
}

/*
 * Look at the records of the lock file open as fd (len bytes read into
 * buf): JET_OK when no other program's slot is live, else the refusal.
 * When the file could not be opened (fd < 0), every slot byte is probed.
 */
static jet_rc check_others(jet_db *db, jet_os_lock *l, int fd,
                           const uint8_t *buf, size_t len, bool all)
{
    for (unsigned i = 0; i < JET_OS_USER_SLOTS; i++) {
        const uint8_t *r = (size_t)(i + 1) * REC_SIZE <= len
                               ? buf + (size_t)i * REC_SIZE : NULL;
        int who = JET_OS_SLOT_FREE;
        bool held = false;
        if (!all && (!r || rec_empty(r)))
            continue;
        if (jet_os_lock_slot_probe(l, i, &who) != 0)
            continue;       /* cannot tell: as Access, assume it left */
        if (who == JET_OS_SLOT_OTHER)
            return refuse(db, r);
        /* older Jet versions lock the slot's byte of the lock file
         * itself (the white paper leaves it open which file): a lock
         * there from a program that is not one of ours counts too */
        if (who == JET_OS_SLOT_FREE && fd >= 0 &&
            jet_os_byte_locked(fd, JET_OS_USER_SLOT_BASE + i, &held) == 0 &&
            held)
            return refuse(db, r);
    }
    return JET_OK;
}

/* Read the lock file open as fd into buf (FILE_MAX bytes); its length. */
static size_t read_records(int fd, uint8_t *buf)
{
    size_t got = 0;
    if (jet_os_pread(fd, buf, FILE_MAX, 0, &got) != 0)
        return 0;
    return got;
}

/* Undo a write transaction begun for a write that is refused: nothing
 * was changed yet, so the file stays byte-for-byte as it was. */
static jet_rc refused(jet_db *db, jet_rc rc)
{
    jet_error keep = db->err;
    (void)jet_pager_rollback(db->pf, NULL);
    db->err = keep;
    return rc;
}

jet_rc jet_lockfile_enter(jet_db *db)
{
    jet_os_lock *l = jet_pagefile_os_lock(db->pf);
    jet_lockfile *lf = db->lockfile;
    uint8_t *buf;
    size_t len = 0;
    int fd = -1, e;
    bool created = false;
    jet_rc rc;

    if (!l)
        return JET_OK;      /* no locks on this file system: nothing to
                             * see, nothing to show */
    buf = jet_calloc(1, FILE_MAX);
    if (!buf)
        return refused(db, jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                                    "out of memory"));
    if (!lf) {
        lf = jet_calloc(1, sizeof *lf);
        if (lf)
            lf->path = lock_path(db->path, db->version >= JET_VER_ACE12);
        if (!lf || !lf->path) {
            if (lf)
                jet_free(lf);
            jet_free(buf);
            return refused(db, jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                                        "out of memory"));
        }
        e = jet_os_open_create(&fd, lf->path, db->path, &created);
        if (e == 0)
            len = read_records(fd, buf);
        rc = check_others(db, l, fd, buf, len, fd < 0);
        if (rc == JET_OK) {
            /* the first slot nobody holds */
            unsigned i;
            for (i = 0; i < JET_OS_USER_SLOTS; i++) {
                int who;
                if (jet_os_lock_slot_probe(l, i, &who) == 0 &&
                    who == JET_OS_SLOT_FREE &&
                    jet_os_lock_slot_take(l, i) == 0)
                    break;
            }
            if (i == JET_OS_USER_SLOTS)
                rc = jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                              "the database has 255 users (Jet's limit); "
                              "writing is refused");
            lf->slot = i;
        }
        if (rc == JET_OK && fd >= 0) {
            uint8_t rec[REC_SIZE];
            char machine[256];
            memset(rec, 0, sizeof rec);
            jet_os_machine_name(machine, sizeof machine);
            memcpy(rec, machine, strnlen(machine, NAME_SIZE - 1));
            memcpy(rec + NAME_SIZE, "Admin", 5);
            lf->has_record = jet_os_pwrite_unhooked(
                                 fd, rec, sizeof rec,
                                 (uint64_t)lf->slot * REC_SIZE) == 0;
        }
        if (fd >= 0)
            jet_os_close(fd);
        if (rc != JET_OK) {
            if (created)
                (void)jet_os_unlink(lf->path);  /* ours, and empty */
            jet_free(lf->path);
            jet_free(lf);
            jet_free(buf);
            return refused(db, rc);
        }
        db->lockfile = lf;
        jet_free(buf);
        return JET_OK;
    }
    /* joined already: has Access come since? */
    if (jet_os_open(&fd, lf->path, NULL) == 0)
        len = read_records(fd, buf);
    rc = check_others(db, l, fd, buf, len, false);
    jet_os_close(fd);
    jet_free(buf);
    return rc == JET_OK ? JET_OK : refused(db, rc);
}

void jet_lockfile_leave(jet_db *db)
{
    jet_lockfile *lf = db->lockfile;
    jet_os_lock *l = jet_pagefile_os_lock(db->pf);
    bool last = true;
    int fd = -1;

    if (!lf)
        return;
    db->lockfile = NULL;
    if (l) {
        jet_os_lock_slot_drop(l);
        for (unsigned i = 0; i < JET_OS_USER_SLOTS && last; i++) {
            int who = JET_OS_SLOT_FREE;
            if (jet_os_lock_slot_probe(l, i, &who) != 0 ||
                who != JET_OS_SLOT_FREE)
                last = false;
        }
    }
    if (lf->has_record) {
        if (last) {
            (void)jet_os_unlink(lf->path);
        } else if (jet_os_open_rw(&fd, lf->path) == 0) {
            uint8_t zero[REC_SIZE];
            memset(zero, 0, sizeof zero);
            (void)jet_os_pwrite_unhooked(fd, zero, sizeof zero,
                                         (uint64_t)lf->slot * REC_SIZE);
            jet_os_close(fd);
        }
    }
    jet_free(lf->path);
    jet_free(lf);
}
