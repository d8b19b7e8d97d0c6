/*
 * os.c - POSIX file access for the core: reads, the pager's writes, and
 * the locking protocol.
 *
 * Only regular files are opened: a FIFO would block open() and read() for
 * ever, a device (/dev/zero) never ends, a directory cannot be read. The
 * path is checked with stat() before open() (so no device is opened at
 * all) and the opened descriptor again with fstat() (the path may have
 * changed in between); O_NONBLOCK keeps that open() from blocking.
 *
 * Writes happen only through the pager (pagefile.c, which owns the fsync
 * order) and only under its locks.
 *
 * LOCKING PROTOCOL (the model is SQLite's os_unix.c unixLock). fcntl
 * byte-range locks on bytes past any Access page (an Access file stops at
 * 2 GiB), so no lock ever covers data:
 *   PENDING byte   LOCK_BASE         write-locked by a writer about to
 *                                    commit: no new reader may start
 *   RESERVED byte  LOCK_BASE + 1     write-locked by the one writer
 *   SHARED range   LOCK_BASE + 2 ... 510 bytes: read-locked by every
 *                                    reader, write-locked by a committer
 * Levels (jet_lock_level):
 *   SHARED     read-lock the SHARED range (fails while a writer commits),
 *              then test PENDING (F_GETLK): write-locked by a writer
 *              waiting to commit, the range is unlocked again and the
 *              reader waits, so a stream of new readers cannot starve a
 *              writer. (SQLite read-locks PENDING around taking the range:
 *              three locking calls where this makes one and a test; a
 *              reader that takes the range just before a writer's PENDING
 *              is an old reader either way, waited for by EXCLUSIVE.)
 *   RESERVED   (from SHARED) write-lock RESERVED: one writer at a time;
 *              readers keep reading the old content meanwhile.
 *   EXCLUSIVE  (from SHARED/RESERVED) write-lock PENDING (the PENDING
 *              level), then write-lock the SHARED range, which succeeds
 *              once every other process's reader has left. Only now is
 *              the database file written.
 *   unlock     to SHARED: read-lock the SHARED range, unlock PENDING and
 *              RESERVED; to NONE: unlock everything.
 * Nothing waits inside this file: a conflict is EBUSY and the pager
 * retries with its busy timeout.
 * fcntl locks belong to a process and an inode, not to a descriptor, and
 * closing ANY descriptor of the file drops ALL the process's locks on it.
 * So the process keeps one record per inode (struct inode, as SQLite's
 * unixInodeInfo), shared by every connection on that file: the process's
 * lock level, how many connections read (nshared) or hold any lock
 * (nlock), and descriptors whose close waits until nlock is 0. Between
 * connections of one process the record arbitrates: a second SHARED is
 * only counted; RESERVED or EXCLUSIVE while another connection of the
 * process holds more than SHARED, or EXCLUSIVE while another reads, is
 * EBUSY.
 * Access's own lock file (.ldb/.laccdb) is a later layer above this one:
 * the pager will take its user slot there when a write transaction
 * begins (as Access does) and refuse writing while another program's
 * slot is live; these byte locks stay the protocol between our own
 * connections and processes. Access and Jet do not know them, and locks
 * do not reach a Windows client over SMB.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif

#include "alloc.h"
#include "lock.h"
#include "jet.h"
#include "os.h"

/* What a non-regular file is, as a phrase for an error message. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

int jet_os_open(int *fd, const char *path, const char **kind)
{
    const char *unused;
    struct stat st;
    int f, fl;

    if (!kind)
        kind = &unused;
    *kind = NULL;
    *fd = -1;
    if (stat(path, &st) != 0)
        return errno ? errno : EIO;
    if (!S_ISREG(st.st_mode)) {
        *kind = kind_of(st.st_mode);
        return JET_OS_NOT_REGULAR;
    }
    do {
        f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
    if (fstat(f, &st) != 0) {
        int e = errno ? errno : EIO;
        (void)close(f);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        (void)close(f);
        *kind = kind_of(st.st_mode);
        return JET_OS_NOT_REGULAR;
    }
    /* regular files ignore O_NONBLOCK; clear it all the same */
    fl = fcntl(f, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        (void)fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
    *fd = f;
    return 0;
}

int jet_os_size(int fd, uint64_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return errno ? errno : EIO;
    if (!S_ISREG(st.st_mode))
        return EINVAL;
    *size = (uint64_t)st.st_size;
    return 0;
}

int jet_os_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, (char *)buf + done, n - done,
                          (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *got = done;
            return errno ? errno : EIO;
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

void jet_os_advise_sequential(int fd)
{
#ifdef HAVE_POSIX_FADVISE
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#else
    (void)fd;
#endif
}

/* iovecs per preadv call: far below IOV_MAX (1024 on Linux) */
#define PREADV_BATCH 64

int jet_os_preadv(int fd, uint8_t *const *bufs, size_t nbufs, size_t each,
                  uint64_t off, size_t *got)
{
    size_t total = nbufs * each, done = 0;
    struct iovec iov[PREADV_BATCH];

    while (done < total) {
        size_t first = done / each, skip = done % each, n = 0;
        ssize_t r;
        for (size_t i = first; i < nbufs && n < PREADV_BATCH; i++, n++) {
            iov[n].iov_base = bufs[i] + (i == first ? skip : 0);
            iov[n].iov_len = each - (i == first ? skip : 0);
        }
        r = preadv(fd, iov, (int)n, (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *got = done;
            return errno ? errno : EIO;
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

void jet_os_advise_willneed(int fd, uint64_t off, uint64_t len)
{
#ifdef HAVE_POSIX_FADVISE
    if (len > 0 && off <= (uint64_t)LLONG_MAX && len <= (uint64_t)LLONG_MAX)
        (void)posix_fadvise(fd, (off_t)off, (off_t)len,
                            POSIX_FADV_WILLNEED);
#else
    (void)fd;
    (void)off;
    (void)len;
#endif
}

void jet_os_close(int fd)
{
    if (fd >= 0)
        (void)close(fd);
}

void *jet_os_pages_alloc(size_t n, bool commit)
{
#ifdef MAP_POPULATE
    const int populate = commit ? MAP_POPULATE : 0;
#else
    (void)commit;
    const int populate = 0;     /* macOS: pages fault in on first touch */
#endif
    void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void jet_os_pages_free(void *p, size_t n)
{
    if (p)
        (void)munmap(p, n ? n : 1);
}

void jet_os_prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    long ps = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p, e = a + n;
    if (ps <= 0 || e < a)
        return;
    a = (a + (uintptr_t)ps - 1) & ~((uintptr_t)ps - 1);
    e &= ~((uintptr_t)ps - 1);
    if (a < e)
        (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

/* ------------------------------------------------------------- writing */

int jet_os_open_rw(int *fd, const char *path)
{
    struct stat st;
    int f;

    *fd = -1;
    if (stat(path, &st) != 0)
        return errno ? errno : EIO;
    if (!S_ISREG(st.st_mode))
        return JET_OS_NOT_REGULAR;
    do {
        f = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        (void)close(f);
        return JET_OS_NOT_REGULAR;
    }
    *fd = f;
    return 0;
}

int jet_os_create(int *fd, const char *path, const char *like_path)
{
    struct stat st;
    mode_t mode = 0644;
    int f;

    *fd = -1;
    if (like_path && stat(like_path, &st) == 0)
        mode = st.st_mode & 0777;
    do {
        f = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY,
                 mode);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
    /* the umask may have cut bits the database has: readers of the
     * database must be able to read (and roll back) its journal */
    (void)fchmod(f, mode);
    *fd = f;
    return 0;
}

int jet_os_create_new(int *fd, const char *path)
{
    int f;

    *fd = -1;
    do {
        f = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
                 0666);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
    *fd = f;
    return 0;
}

int jet_os_temp_open(int *fd)
{
    const char *dir = getenv("TMPDIR");
    size_t n;
    char *path;
    int f, e = 0;

    *fd = -1;
    if (!dir || !*dir)
        dir = "/tmp";
    n = strlen(dir) + sizeof "/jetodbc-savepoint-XXXXXX";
    path = jet_malloc(n);
    if (!path)
        return ENOMEM;
    snprintf(path, n, "%s/jetodbc-savepoint-XXXXXX", dir);
    f = mkstemp(path);
    if (f < 0)
        e = errno ? errno : EIO;
    else {
        (void)unlink(path);
        (void)fcntl(f, F_SETFD, FD_CLOEXEC);
    }
    jet_free(path);
    if (e)
        return e;
    *fd = f;
    return 0;
}

int jet_os_pwrite(int fd, const void *buf, size_t n, uint64_t off)
{
    size_t done = 0;
    int f = jet_os_fault_check(JET_OS_FAULT_WRITE);
    if (f == JET_OS_FAULT_KILL) {
        n /= 2;     /* a torn write: half of it reaches the file */
        while (done < n) {
            ssize_t r = pwrite(fd, (const char *)buf + done, n - done,
                               (off_t)(off + done));
            if (r <= 0)
                break;
            done += (size_t)r;
        }
        jet_os_fault_kill();
    }
    if (f)
        return f;
    while (done < n) {
        ssize_t r = pwrite(fd, (const char *)buf + done, n - done,
                           (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return errno ? errno : EIO;
        }
        if (r == 0)
            return EIO;
        done += (size_t)r;
    }
    return 0;
}

int jet_os_pwrite_unhooked(int fd, const void *buf, size_t n, uint64_t off)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = pwrite(fd, (const char *)buf + done, n - done,
                           (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return errno ? errno : EIO;
        }
        if (r == 0)
            return EIO;
        done += (size_t)r;
    }
    return 0;
}

int jet_os_fsync(int fd)
{
    int f = jet_os_fault_check(JET_OS_FAULT_SYNC);
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    if (f)
        return f;
#if defined(__APPLE__) && defined(F_FULLFSYNC)
    /* macOS fsync() stops at the drive's cache; F_FULLFSYNC flushes it */
    if (fcntl(fd, F_FULLFSYNC) == 0)
        return 0;
#endif
    for (;;) {
#if defined(__linux__)
        int r = fdatasync(fd);
#else
        int r = fsync(fd);
#endif
        if (r == 0)
            return 0;
        if (errno != EINTR)
            return errno ? errno : EIO;
    }
}

int jet_os_ftruncate(int fd, uint64_t size)
{
    int f = jet_os_fault_check(JET_OS_FAULT_TRUNCATE);
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    if (f)
        return f;
    while (ftruncate(fd, (off_t)size) != 0)
        if (errno != EINTR)
            return errno ? errno : EIO;
    return 0;
}

int jet_os_unlink(const char *path)
{
    return unlink(path) == 0 ? 0 : (errno ? errno : EIO);
}

int jet_os_sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int d, e = 0, f;

    f = jet_os_fault_check(JET_OS_FAULT_SYNC);
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    if (f)
        return f;
    if (!slash)
        dir = jet_strndup(".", 1);
    else
        dir = jet_strndup(path, slash == path ? 1 : (size_t)(slash - path));
    if (!dir)
        return ENOMEM;
    do {
        d = open(dir, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (d < 0 && errno == EINTR);
    jet_free(dir);
    if (d < 0)
        return errno ? errno : EIO;
    if (fsync(d) != 0 && errno != EINVAL && errno != EBADF)
        e = errno ? errno : EIO;
    (void)close(d);
    return e;
}

bool jet_os_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int jet_os_rename_new(const char *from, const char *to)
{
    if (link(from, to) == 0) {
        (void)unlink(from);
        return 0;
    }
    if (errno == EEXIST)
        return EEXIST;
    if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
        errno != EXDEV && errno != EMLINK)
        return errno ? errno : EIO;
    if (jet_os_exists(to))
        return EEXIST;
    return rename(from, to) == 0 ? 0 : (errno ? errno : EIO);
}

void jet_os_local_time(struct jet_timestamp *out)
{
    struct timespec ts;
    time_t now;
    struct tm tm;
    memset(out, 0, sizeof *out);
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        ts.tv_sec = time(NULL);
        ts.tv_nsec = 0;
    }
    now = ts.tv_sec;
    if (!localtime_r(&now, &tm))
        return;
    out->fraction_ns = (uint32_t)ts.tv_nsec;
    out->year = (int16_t)(tm.tm_year + 1900);
    out->month = (uint8_t)(tm.tm_mon + 1);
    out->day = (uint8_t)tm.tm_mday;
    out->hour = (uint8_t)tm.tm_hour;
    out->minute = (uint8_t)tm.tm_min;
    out->second = (uint8_t)(tm.tm_sec > 59 ? 59 : tm.tm_sec);
}

int jet_os_same_file(int fd, const char *path, bool *out)
{
    struct stat a, b;
    *out = false;
    if (fstat(fd, &a) != 0)
        return errno;
    if (lstat(path, &b) != 0)
        return errno == ENOENT ? 0 : errno;
    *out = a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_nlink > 0;
    return 0;
}

void jet_os_random(void *buf, size_t n)
{
    uint8_t *b = buf;
    size_t got = 0;
    int f;

#ifdef HAVE_GETENTROPY
    /* one system call (getrandom on Linux), at most 256 bytes a call */
    while (got < n) {
        size_t k = n - got > 256 ? 256 : n - got;
        if (getentropy(b + got, k) != 0)
            break;
        got += k;
    }
    if (got == n)
        return;
#endif
    do {
        f = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (f < 0 && errno == EINTR);
    got = 0;
    if (f >= 0) {
        (void)jet_os_pread(f, b, n, 0, &got);
        (void)close(f);
    }
    if (got < n) {
        struct timespec ts;
        uint64_t x;
        (void)clock_gettime(CLOCK_REALTIME, &ts);
        x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
            ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)buf;
        for (size_t i = got; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (uint8_t)x;
        }
    }
}

void jet_os_sleep_ms(unsigned ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int jet_os_stamp_of(int fd, jet_os_stamp *out)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return errno ? errno : EIO;
    out->size = (uint64_t)st.st_size;
    {
        struct timespec now;
        (void)clock_gettime(CLOCK_REALTIME, &now);
        out->taken_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    }
#if defined(__APPLE__)
    out->mtime_ns = (int64_t)st.st_mtimespec.tv_sec * 1000000000 +
                    st.st_mtimespec.tv_nsec;
    out->ctime_ns = (int64_t)st.st_ctimespec.tv_sec * 1000000000 +
                    st.st_ctimespec.tv_nsec;
#else
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
                    st.st_mtim.tv_nsec;
    out->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 +
                    st.st_ctim.tv_nsec;
#endif
    return 0;
}

int jet_os_advance_mtime(int fd, int64_t after_ns, jet_os_stamp *out)
{
    jet_os_stamp st;
    int e = jet_os_stamp_of(fd, &st);
    if (e)
        return e;
    if (st.mtime_ns <= after_ns) {
        /* the owner may name the time: one microsecond later (a file
         * system keeping 100 ns or finer keeps it) */
        int64_t t = after_ns + 1000;
        struct timespec ts[2] = {
            { 0, UTIME_OMIT },
            { (time_t)(t / 1000000000), (long)(t % 1000000000) },
        };
        if (futimens(fd, ts) == 0 && (e = jet_os_stamp_of(fd, &st)) != 0)
            return e;
    }
    /* anyone who may write may set the current time: once the clock has
     * passed after_ns (a coarse clock ticks in 1 to 10 ms) */
    for (unsigned waited = 0; st.mtime_ns <= after_ns; waited++) {
        if (waited > 100)
            return EAGAIN;
        if (waited > 0 || st.taken_ns <= after_ns)
            jet_os_sleep_ms(1);
        if (futimens(fd, NULL) != 0)
            return errno ? errno : EIO;
        if ((e = jet_os_stamp_of(fd, &st)) != 0)
            return e;
    }
    if (out)
        *out = st;
    return 0;
}

/* ------------------------------------------------------------- locking */

/* The lock bytes: past 2 GiB, where no Access page lives; below it only
 * where off_t cannot reach so far (then within the last, never used, 512
 * bytes of the 2 GiB range). */
#define LOCK_BASE (sizeof(off_t) >= 8 ? (off_t)0x80000000LL * 3 / 2 \
                                       : (off_t)0x7FFFFE00L)
#define PENDING_BYTE (LOCK_BASE)
#define RESERVED_BYTE (LOCK_BASE + 1)
#define SHARED_FIRST (LOCK_BASE + 2)
#define SHARED_SIZE 510

/* The process's record of one database file (see the top of this file). */
struct inode {
    dev_t dev;
    ino_t ino;
    unsigned nref;          /* jet_os_lock handles on it */
    unsigned nshared;       /* handles holding SHARED or more */
    unsigned nlock;         /* handles holding any lock */
    jet_lock_level level;   /* the process's lock on the file */
    uint8_t slots[32];      /* Access user slots this process holds */
    int *unused;            /* descriptors to close when nlock is 0 */
    size_t nunused, capunused;
    struct inode *next;
};

struct jet_os_lock {
    struct inode *in;
    int fd, wfd;            /* borrowed; wfd -1 until a write fd is set */
    jet_lock_level level;
    int slot;               /* Access user slot held, -1 none */
};

static jet_mutex_t inodes_lock = JET_MUTEX_INIT;
static struct inode *inodes;

/* fcntl F_SETLK of type over [start, start + len); 0, EBUSY or errno. */
static int set_lock(int fd, short type, off_t start, off_t len)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = len;
    for (;;) {
        if (fcntl(fd, F_SETLK, &fl) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno == EACCES || errno == EAGAIN)
            return EBUSY;
        return errno ? errno : EIO;
    }
}

/* Does another process hold a lock on byte off that conflicts with one
 * of type (F_WRLCK: any lock; F_RDLCK: a write lock)? F_GETLK ignores
 * our own process's locks. 0 or errno. */
static int probe(int fd, short type, off_t off, bool *out)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = off;
    fl.l_len = 1;
    *out = false;
    while (fcntl(fd, F_GETLK, &fl) != 0)
        if (errno != EINTR)
            return errno ? errno : EIO;
    *out = fl.l_type != F_UNLCK;
    return 0;
}

int jet_os_lock_open(jet_os_lock **out, int fd)
{
    struct stat st;
    struct inode *in;
    jet_os_lock *l;

    *out = NULL;
    if (fstat(fd, &st) != 0)
        return errno ? errno : EIO;
    l = jet_calloc(1, sizeof *l);
    if (!l)
        return ENOMEM;
    jet_mutex_lock(&inodes_lock);
    for (in = inodes; in; in = in->next)
        if (in->dev == st.st_dev && in->ino == st.st_ino)
            break;
    if (!in) {
        in = jet_calloc(1, sizeof *in);
        if (!in) {
            jet_mutex_unlock(&inodes_lock);
            jet_free(l);
            return ENOMEM;
        }
        in->dev = st.st_dev;
        in->ino = st.st_ino;
        in->next = inodes;
        inodes = in;
    }
    in->nref++;
    jet_mutex_unlock(&inodes_lock);
    l->in = in;
    l->fd = fd;
    l->wfd = -1;
    l->slot = -1;
    *out = l;
    return 0;
}

void jet_os_lock_set_write_fd(jet_os_lock *l, int wfd)
{
    l->wfd = wfd;
}

jet_lock_level jet_os_lock_level(const jet_os_lock *l)
{
    return l->level;
}

/* The lock itself, inodes_lock held. */
static int lock_locked(jet_os_lock *l, jet_lock_level level)
{
    struct inode *in = l->in;
    bool held = false;
    int e;

    if (l->level >= level)
        return 0;
    /* another connection of this process holds more than we may share */
    if (l->level != in->level &&
        (in->level >= JET_LOCK_PENDING || level > JET_LOCK_SHARED))
        return EBUSY;
    if (level == JET_LOCK_SHARED) {
        if (in->level == JET_LOCK_SHARED || in->level == JET_LOCK_RESERVED) {
            l->level = JET_LOCK_SHARED;
            in->nshared++;
            in->nlock++;
            return 0;
        }
        /* the process holds no lock on the file: take the SHARED range,
         * then give it back if a writer waits to commit (PENDING). Two
         * system calls, the second only a test */
        e = set_lock(l->fd, F_RDLCK, SHARED_FIRST, SHARED_SIZE);
        if (e)
            return e;
        e = probe(l->fd, F_RDLCK, PENDING_BYTE, &held);
        if (e || held) {
            (void)set_lock(l->fd, F_UNLCK, SHARED_FIRST, SHARED_SIZE);
            return e ? e : EBUSY;
        }
        l->level = in->level = JET_LOCK_SHARED;
        in->nshared++;
        in->nlock++;
        return 0;
    }
    /* RESERVED or EXCLUSIVE: from SHARED at least, and with a write fd */
    if (l->level == JET_LOCK_NONE || l->wfd < 0)
        return EINVAL;
    if (level == JET_LOCK_EXCLUSIVE && in->nshared > 1)
        return EBUSY;       /* another connection of the process reads */
    if (level == JET_LOCK_RESERVED) {
        e = set_lock(l->wfd, F_WRLCK, RESERVED_BYTE, 1);
        if (e)
            return e;
        l->level = in->level = JET_LOCK_RESERVED;
        return 0;
    }
    if (l->level < JET_LOCK_PENDING) {
        e = set_lock(l->wfd, F_WRLCK, PENDING_BYTE, 1);
        if (e)
            return e;
        l->level = in->level = JET_LOCK_PENDING;
    }
    e = set_lock(l->wfd, F_WRLCK, SHARED_FIRST, SHARED_SIZE);
    if (e)
        return e;           /* PENDING stays: new readers wait for us */
    l->level = in->level = JET_LOCK_EXCLUSIVE;
    return 0;
}

int jet_os_lock_acquire(jet_os_lock *l, jet_lock_level level)
{
    int e;
    if (level == JET_LOCK_PENDING)
        level = JET_LOCK_EXCLUSIVE;
    jet_mutex_lock(&inodes_lock);
    e = lock_locked(l, level);
    jet_mutex_unlock(&inodes_lock);
    return e;
}

/* Close the record's waiting descriptors (inodes_lock held, nlock 0). */
static void close_unused(struct inode *in)
{
    for (size_t i = 0; i < in->nunused; i++)
        (void)close(in->unused[i]);
    in->nunused = 0;
}

static int unlock_locked(jet_os_lock *l, jet_lock_level level)
{
    struct inode *in = l->in;
    int fd = l->wfd >= 0 ? l->wfd : l->fd, e = 0;

    if (l->level <= level)
        return 0;
    if (l->level > JET_LOCK_SHARED) {
        /* this connection is the process's writer */
        if (level == JET_LOCK_SHARED && l->level == JET_LOCK_EXCLUSIVE)
            e = set_lock(fd, F_RDLCK, SHARED_FIRST, SHARED_SIZE);
        if (set_lock(fd, F_UNLCK, PENDING_BYTE, 2) && !e)
            e = EIO;
        in->level = JET_LOCK_SHARED;
        l->level = JET_LOCK_SHARED;
    }
    if (level == JET_LOCK_NONE) {
        if (--in->nshared == 0) {
            if (set_lock(fd, F_UNLCK, LOCK_BASE, SHARED_SIZE + 2) && !e)
                e = EIO;
            in->level = JET_LOCK_NONE;
        }
        if (--in->nlock == 0)
            close_unused(in);
        l->level = JET_LOCK_NONE;
    }
    return e;
}

int jet_os_lock_release(jet_os_lock *l, jet_lock_level level)
{
    int e;
    jet_mutex_lock(&inodes_lock);
    e = unlock_locked(l, level);
    jet_mutex_unlock(&inodes_lock);
    return e;
}

int jet_os_lock_check_reserved(jet_os_lock *l, bool *out)
{
    int e = 0;

    *out = false;
    jet_mutex_lock(&inodes_lock);
    if (l->in->level >= JET_LOCK_RESERVED)
        *out = true;
    else
        e = probe(l->fd, F_WRLCK, RESERVED_BYTE, out);
    jet_mutex_unlock(&inodes_lock);
    return e;
}

/* ---- Access user slots (os.h). A slot counts as one of the process's
 * locks on the file (nlock), so no descriptor of the file is closed while
 * a connection holds one (that would drop it). */

int jet_os_byte_locked(int fd, uint64_t off, bool *out)
{
    return probe(fd, F_WRLCK, (off_t)off, out);
}

int jet_os_lock_slot_probe(jet_os_lock *l, unsigned slot, int *out)
{
    bool user = false, mark = false;
    int e = 0;

    *out = JET_OS_SLOT_FREE;
    if (slot >= JET_OS_USER_SLOTS)
        return EINVAL;
    jet_mutex_lock(&inodes_lock);
    if (l->in->slots[slot / 8] & (1u << (slot % 8)))
        *out = JET_OS_SLOT_OURS;
    else if ((e = probe(l->fd, F_WRLCK,
                        (off_t)(JET_OS_USER_SLOT_BASE + slot),
                        &user)) == 0 && user &&
             (e = probe(l->fd, F_WRLCK,
                        (off_t)(JET_OS_USER_MARK_BASE + slot),
                        &mark)) == 0)
        *out = mark ? JET_OS_SLOT_JETODBC : JET_OS_SLOT_OTHER;
    jet_mutex_unlock(&inodes_lock);
    return e;
}

int jet_os_lock_slot_take(jet_os_lock *l, unsigned slot)
{
    struct inode *in = l->in;
    int e;

    if (slot >= JET_OS_USER_SLOTS || l->wfd < 0 || l->slot >= 0)
        return EINVAL;
    jet_mutex_lock(&inodes_lock);
    if (in->slots[slot / 8] & (1u << (slot % 8))) {
        jet_mutex_unlock(&inodes_lock);
        return EBUSY;
    }
    e = set_lock(l->wfd, F_WRLCK, (off_t)(JET_OS_USER_SLOT_BASE + slot), 1);
    if (e == 0) {
        e = set_lock(l->wfd, F_WRLCK, (off_t)(JET_OS_USER_MARK_BASE + slot),
                     1);
        if (e)
            (void)set_lock(l->wfd, F_UNLCK,
                           (off_t)(JET_OS_USER_SLOT_BASE + slot), 1);
    }
    if (e == 0) {
        in->slots[slot / 8] |= (uint8_t)(1u << (slot % 8));
        in->nlock++;
        l->slot = (int)slot;
    }
    jet_mutex_unlock(&inodes_lock);
    return e;
}

/* inodes_lock held */
static void slot_drop_locked(jet_os_lock *l)
{
    struct inode *in = l->in;
    unsigned slot;
    int fd = l->wfd >= 0 ? l->wfd : l->fd;

    if (l->slot < 0)
        return;
    slot = (unsigned)l->slot;
    (void)set_lock(fd, F_UNLCK, (off_t)(JET_OS_USER_SLOT_BASE + slot), 1);
    (void)set_lock(fd, F_UNLCK, (off_t)(JET_OS_USER_MARK_BASE + slot), 1);
    in->slots[slot / 8] &= (uint8_t)~(1u << (slot % 8));
    l->slot = -1;
    if (--in->nlock == 0)
        close_unused(in);
}

void jet_os_lock_slot_drop(jet_os_lock *l)
{
    jet_mutex_lock(&inodes_lock);
    slot_drop_locked(l);
    jet_mutex_unlock(&inodes_lock);
}

int jet_os_open_create(int *fd, const char *path, const char *like_path,
                       bool *created)
{
    struct stat st;
    mode_t mode = 0644;
    int f;

    *fd = -1;
    *created = false;
    if (like_path && stat(like_path, &st) == 0)
        mode = st.st_mode & 0666;
    do {
        f = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    } while (f < 0 && errno == EINTR);
    if (f < 0 && errno == ENOENT) {
        do {
            f = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
                     mode);
        } while (f < 0 && errno == EINTR);
        if (f >= 0) {
            *created = true;
            (void)fchmod(f, mode);  /* past the umask: every user of the
                                     * database must be able to join */
        } else if (errno == EEXIST) {
            return jet_os_open_create(fd, path, like_path, created);
        }
    }
    if (f < 0)
        return errno ? errno : EIO;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        (void)close(f);
        return JET_OS_NOT_REGULAR;
    }
    (void)fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK);
    *fd = f;
    return 0;
}

void jet_os_machine_name(char *buf, size_t cap)
{
    if (cap == 0)
        return;
    if (gethostname(buf, cap) != 0 || !buf[0])
        snprintf(buf, cap, "localhost");
    buf[cap - 1] = '\0';
}

void jet_os_lock_close(jet_os_lock *l, const int *fds, size_t nfds)
{
    struct inode *in;

    if (!l) {
        for (size_t i = 0; i < nfds; i++)
            jet_os_close(fds[i]);
        return;
    }
    in = l->in;
    jet_mutex_lock(&inodes_lock);
    (void)unlock_locked(l, JET_LOCK_NONE);
    slot_drop_locked(l);
    for (size_t i = 0; i < nfds; i++) {
        if (fds[i] < 0)
            continue;
        if (in->nlock == 0) {
            (void)close(fds[i]);
            continue;
        }
        if (in->nunused == in->capunused) {
            size_t cap = in->capunused ? 2 * in->capunused : 4;
            int *u = jet_realloc(in->unused, cap * sizeof *u);
            if (!u)
                continue;   /* leak it: closing would drop the others'
                             * locks, and a reader could then see half
                             * of another process's commit */
            in->unused = u;
            in->capunused = cap;
        }
        in->unused[in->nunused++] = fds[i];
    }
    if (--in->nref == 0) {
        struct inode **link = &inodes;
        close_unused(in);
        while (*link != in)
            link = &(*link)->next;
        *link = in->next;
        jet_free(in->unused);
        jet_free(in);
    }
    jet_mutex_unlock(&inodes_lock);
    jet_free(l);
}
