/*
 * test_pager.c - the pager: write transactions, commit, rollback, the
 * rollback journal, hot-journal recovery (and a quiet read's skipping
 * it), read-only refusals, locks
 * between processes, codec round trips, injected I/O faults, and the
 * crash test (a writer SIGKILLed at random points of multi-page commits).
 *
 * Transactions rewrite real data pages of copies of public fixtures in a
 * way that keeps them valid: a generation number stamped into each page's
 * free space (between the row offset table and the rows, bytes no reader
 * looks at), plus one new page appended per transaction holding the same
 * generation. After any crash or fault the file must hold exactly one
 * generation: every stamped page and the page count agree, every page is
 * byte-for-byte the original with that stamp, and every table still reads.
 *
 * JET_CRASH_POINTS sets how many kill points the crash test runs (default
 * 200; e.g. 5000 for a long run). With the shared folder's jetcheck (and a
 * java) the crash test ends with `jetcheck verify` on the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "internal.h"
#include "os.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

#define MAX_STAMPED 8

static bool journal_exists(const char *path)
{
    char j[1100];
    snprintf(j, sizeof j, "%s-journal", path);
    return access(j, F_OK) == 0;
}

/* Is the journal absent, or cleared (its header zero: never hot)? A
 * connection keeps its journal open between transactions, cleared at
 * each commit, until it closes. */
static bool journal_cleared(const char *path)
{
    char j[1100];
    uint8_t h[36] = { 0 }, zero[36] = { 0 };
    FILE *f;
    size_t got;
    snprintf(j, sizeof j, "%s-journal", path);
    if (!(f = fopen(j, "rb")))
        return true;
    got = fread(h, 1, sizeof h, f);
    fclose(f);
    return got == sizeof h && memcmp(h, zero, sizeof h) == 0;
}

static uint8_t *file_bytes(const char *path, size_t *len)
{
    uint8_t *b = jet_test_slurp(path, len);
    ck_assert_ptr_nonnull(b);
    return b;
}

/* ----------------------------------------------------- the stamped pages */

/* What a test transaction changes: up to MAX_STAMPED data pages, each
 * with the offset of a 4-byte stamp inside its free space. */
typedef struct plan {
    uint32_t ps;
    uint32_t orig_count;
    uint32_t n;
    uint32_t pgno[MAX_STAMPED];
    uint32_t at[MAX_STAMPED];
    uint8_t *orig;              /* the original file */
    size_t orig_len;
} plan;

/* Data pages (type 1) with at least 32 free bytes, from the decoded
 * cache of db. */
static void make_plan(plan *pl, jet_db *db, const char *path)
{
    uint32_t count = jet_pagefile_page_count(db->pf);
    const jet_format *fmt = db->fmt;
    memset(pl, 0, sizeof *pl);
    pl->ps = db->page_size;
    pl->orig_count = count;
    for (uint32_t pg = 1; pg < count && pl->n < MAX_STAMPED; pg++) {
        const uint8_t *p;
        uint16_t nrows, free_len;
        uint32_t start;
        ck_assert_int_eq(jet_page_pin(db->pf, pg, &p, NULL), JET_OK);
        if (p[0] == 0x01) {
            nrows = jet_get_u16(p + fmt->data_nrows);
            free_len = jet_get_u16(p + 2);
            start = fmt->data_nrows + 2 + 2u * nrows;
            if (free_len >= 32 && start + free_len <= pl->ps) {
                pl->pgno[pl->n] = pg;
                pl->at[pl->n] = (start + free_len / 2) & ~3u;
                pl->n++;
            }
        }
        jet_page_unpin(db->pf, p);
    }
    ck_assert_uint_ge(pl->n, 2);
    pl->orig = file_bytes(path, &pl->orig_len);
    ck_assert_uint_eq(pl->orig_len % pl->ps, 0);
}

/* One transaction: stamp generation gen into every planned page and
 * append a page holding gen. Returns the first failing rc. */
static jet_rc run_tx(jet_pagefile *pf, const plan *pl, uint32_t gen,
                     jet_error *err)
{
    jet_rc rc = jet_pager_begin(pf, err);
    uint32_t newpg;
    uint8_t *p;

    if (rc != JET_OK)
        return rc;
    for (uint32_t i = 0; i < pl->n; i++) {
        rc = jet_page_write(pf, pl->pgno[i], &p, err);
        if (rc != JET_OK)
            goto fail;
        memcpy(p + pl->at[i], &gen, 4);
        jet_page_unpin(pf, p);
    }
    rc = jet_page_alloc(pf, &newpg, &p, err);
    if (rc != JET_OK)
        goto fail;
    memcpy(p + 8, &gen, 4);
    jet_page_unpin(pf, p);
    return jet_pager_commit(pf, err);
fail:
    (void)jet_pager_rollback(pf, NULL);
    return rc;
}

/* The file as generation gen must be: bytes of the original with gen
 * stamped (gen 0: no stamp) and pages 1..gen appended. */
static uint32_t file_generation(const plan *pl, const char *path)
{
    size_t len;
    uint8_t *b = file_bytes(path, &len);
    uint32_t gen = 0, ps = pl->ps;

    ck_assert_uint_eq(len % ps, 0);
    ck_assert_uint_ge(len / ps, pl->orig_count);
    gen = (uint32_t)(len / ps) - pl->orig_count;
    for (uint32_t pg = 0; pg < pl->orig_count; pg++) {
        uint8_t want[4096];
        memcpy(want, pl->orig + (size_t)pg * ps, ps);
        for (uint32_t i = 0; i < pl->n && gen; i++)
            if (pl->pgno[i] == pg)
                memcpy(want + pl->at[i], &gen, 4);  /* raw = plain */
        ck_assert_msg(memcmp(want, b + (size_t)pg * ps, ps) == 0,
                      "page %u is not generation %u's", pg, gen);
    }
    for (uint32_t g = 1; g <= gen; g++) {
        const uint8_t *p = b + (size_t)(pl->orig_count + g - 1) * ps;
        uint32_t v;
        memcpy(&v, p + 8, 4);
        ck_assert_msg(v == g, "appended page %u holds %u", g, v);
    }
    free(b);
    return gen;
}

/* Rows of every user and system table, summed (all must read). */
static size_t count_rows(jet_db *db)
{
    size_t rows = 0;
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_scan *s;
        jet_rc rc;
        if (o->kind != JET_OBJ_TABLE && o->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        if (jet_tdef_load(&t, db, o) != JET_OK)
            continue;
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        while ((rc = jet_scan_next(s)) == JET_OK)
            rows++;
        ck_assert_int_eq(rc, JET_DONE);
        jet_scan_close(s);
    }
    return rows;
}

static const char *plain_mdb(void)
{
    return jet_test_fixture("jackcess/V2003/testV2003.mdb");
}

static const char *plain_accdb(void)
{
    return jet_test_fixture("jackcess/V2010/testV2010.accdb");
}

/* ------------------------------------------------------------- the tests */

START_TEST(pager_commit_lands_whole_and_journal_goes)
{
    const char *src = plain_accdb();
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    size_t rows;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    rows = count_rows(db);
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_OPEN);
    ck_assert_int_eq(run_tx(db->pf, &pl, 1, &err), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_OPEN);
    ck_assert(journal_exists(path) && journal_cleared(path));
    ck_assert_int_eq(run_tx(db->pf, &pl, 2, &err), JET_OK);
    ck_assert_uint_eq(jet_pagefile_page_count(db->pf), pl.orig_count + 2);
    /* the cache and the file agree */
    ck_assert_uint_eq(count_rows(db), rows);
    jet_db_close(db);
    ck_assert(!journal_exists(path));
    ck_assert_uint_eq(file_generation(&pl, path), 2);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_uint_eq(count_rows(db), rows);
    jet_db_close(db);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(pager_rollback_restores_cache_and_file)
{
    const char *src = plain_mdb();
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    uint8_t *p;
    uint32_t newpg;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_WRITER_LOCKED);
    ck_assert_int_eq(jet_page_write(db->pf, pl.pgno[0], &p, &err), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_WRITER_DIRTY);
    ck_assert(journal_exists(path));
    memset(p, 0xEE, pl.ps);
    jet_page_unpin(db->pf, p);
    jet_page_unpin(db->pf, p);      /* unbalanced: must not free it */
    ck_assert_int_eq(jet_page_alloc(db->pf, &newpg, &p, &err), JET_OK);
    ck_assert_uint_eq(newpg, pl.orig_count);
    jet_page_unpin(db->pf, p);
    ck_assert_int_eq(jet_pager_rollback(db->pf, &err), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_OPEN);
    ck_assert(journal_cleared(path));
    ck_assert_uint_eq(jet_pagefile_page_count(db->pf), pl.orig_count);
    {
        const uint8_t *q;
        ck_assert_int_eq(jet_page_pin(db->pf, pl.pgno[0], &q, &err), JET_OK);
        ck_assert_uint_eq(q[0], 0x01);
        jet_page_unpin(db->pf, q);
    }
    jet_db_close(db);
    ck_assert_uint_eq(file_generation(&pl, path), 0);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* A transaction that changes more pages than the cache holds spills them
 * early (journal synced first) and still commits or rolls back whole. */
START_TEST(pager_spill_past_the_cache)
{
    const char *src = plain_accdb();
    jet_open_options o = { .cache_pages = 8 };
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    uint8_t *p;
    uint32_t pg;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
    make_plan(&pl, db, path);
    for (int commit = 0; commit < 2; commit++) {
        ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_OK);
        for (int i = 0; i < 40; i++) {
            ck_assert_int_eq(jet_page_alloc(db->pf, &pg, &p, &err), JET_OK);
            memset(p, i + 1, 16);
            jet_page_unpin(db->pf, p);
        }
        ck_assert_int_eq(jet_page_write(db->pf, pl.pgno[0], &p, &err),
                         JET_OK);
        p[pl.at[0]] ^= 0x5A;
        jet_page_unpin(db->pf, p);
        ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_WRITER_DBMOD);
        if (!commit) {
            ck_assert_int_eq(jet_pager_rollback(db->pf, &err), JET_OK);
            ck_assert_uint_eq(file_generation(&pl, path), 0);
        } else {
            ck_assert_int_eq(jet_pager_commit(db->pf, &err), JET_OK);
        }
    }
    jet_db_close(db);
    {
        size_t len;
        uint8_t *b = file_bytes(path, &len);
        ck_assert_uint_eq(len, (size_t)(pl.orig_count + 40) * pl.ps);
        for (int i = 0; i < 40; i++)
            ck_assert_uint_eq(b[(size_t)(pl.orig_count + i) * pl.ps], i + 1);
        ck_assert_uint_eq(b[(size_t)pl.pgno[0] * pl.ps + pl.at[0]],
                          pl.orig[(size_t)pl.pgno[0] * pl.ps + pl.at[0]] ^
                              0x5A);
        free(b);
    }
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* A child killed after the journal is synced and the database half
 * written leaves a hot journal; the next open rolls it back, a read-only
 * open refuses to read past it. */
START_TEST(pager_hot_journal_rolled_back_at_open)
{
    const char *src = plain_mdb();
    jet_open_options ro = { .read_only = true };
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    pid_t pid;
    int st;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    jet_db_close(db);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        /* die on the third database page write: after the journal sync
         * (writes: the journal header, one per page record, then pages) */
        (void)jet_os_fault_set(JET_OS_FAULT_WRITE, 1 + pl.n + 3, 0, false);
        (void)run_tx(db->pf, &pl, 1, &err);
        _exit(4);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    ck_assert(journal_exists(path));
    /* the file is half written now */
    {
        size_t len;
        uint8_t *b = file_bytes(path, &len);
        ck_assert(len != pl.orig_len || memcmp(b, pl.orig, len) != 0);
        free(b);
    }
    ck_assert_int_eq(jet_db_open(&db, path, &ro, &err), JET_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "unfinished transaction"));
    ck_assert(journal_exists(path));
    /* two processes open it at once: one rolls back, both read */
    {
        pid_t c[2];
        for (int k = 0; k < 2; k++) {
            c[k] = fork();
            ck_assert_int_ge(c[k], 0);
            if (c[k] == 0) {
                if (jet_db_open(&db, path, NULL, &err) != JET_OK)
                    _exit(3);
                _exit(count_rows(db) > 0 ? 0 : 4);
            }
        }
        for (int k = 0; k < 2; k++) {
            ck_assert_int_eq(waitpid(c[k], &st, 0), c[k]);
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                          "opener %d: status %d", k, st);
        }
    }
    ck_assert(!journal_exists(path));
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_uint_gt(count_rows(db), 0);
    jet_db_close(db);
    ck_assert_uint_eq(file_generation(&pl, path), 0);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* A writer killed at its journal sync leaves a hot journal but the
 * database untouched. A read that begins quiet (the file as its cache last
 * saw it, by a stamp taken over 2 s after the file's mtime) does not look
 * for the journal: it reads the file as it is, the journal stays. A write
 * transaction looks all the same and rolls the journal back before its own
 * replaces it (the cache is dropped: the changes count moves), then
 * commits. */
START_TEST(pager_quiet_read_leaves_journal_writer_rolls_back)
{
    const char *src = plain_mdb();
    struct timespec old[2];
    char path[64];
    jet_db *db, *a;
    jet_error err;
    uint64_t changes;
    size_t rows;
    plan pl;
    pid_t pid;
    int st;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    jet_db_close(db);
    /* quiet: last written a minute ago */
    ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &old[0]), 0);
    old[0].tv_sec -= 60;
    old[1] = old[0];
    ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    rows = count_rows(a);
    ck_assert_uint_gt(rows, 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        /* die at the first sync: the journal's, before EXCLUSIVE */
        (void)jet_os_fault_set(JET_OS_FAULT_SYNC, 1, 0, false);
        (void)run_tx(db->pf, &pl, 1, &err);
        _exit(4);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    ck_assert(journal_exists(path) && !journal_cleared(path));
    ck_assert_uint_eq(file_generation(&pl, path), 0);
    changes = jet_pagefile_changes(a->pf);
    ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
    ck_assert_uint_eq(count_rows(a), rows);
    jet_db_read_end(a);
    ck_assert_uint_eq(jet_pagefile_changes(a->pf), changes);
    ck_assert(journal_exists(path) && !journal_cleared(path));
    /* the writer rolls it back first (same bytes: the database was
     * never written), then commits its own */
    ck_assert_int_eq(jet_pager_begin(a->pf, &err), JET_OK);
    ck_assert_uint_gt(jet_pagefile_changes(a->pf), changes);
    ck_assert_int_eq(jet_pager_rollback(a->pf, &err), JET_OK);
    ck_assert(!journal_exists(path) || journal_cleared(path));
    ck_assert_int_eq(run_tx(a->pf, &pl, 1, &err), JET_OK);
    ck_assert_uint_eq(count_rows(a), rows);
    jet_db_close(a);
    ck_assert(!journal_exists(path));
    ck_assert_uint_eq(file_generation(&pl, path), 1);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(pager_read_only_refuses_and_never_writes)
{
    const char *src = plain_accdb();
    const char *jet3 = jet_test_fixture("jackcess/V1997/testV1997.mdb");
    jet_open_options ro = { .read_only = true };
    char path[64];
    jet_db *db;
    jet_error err;
    size_t len;
    uint8_t *before, *after;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    before = file_bytes(path, &len);
    ck_assert_int_eq(jet_db_open(&db, path, &ro, &err), JET_OK);
    ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "read-only"));
    jet_db_close(db);
    /* no write permission: reads, refuses to write, creates nothing */
    ck_assert_int_eq(chmod(path, 0444), 0);
    if (access(path, W_OK) != 0) {      /* not root */
        ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
        ck_assert_uint_gt(count_rows(db), 0);
        ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_EUNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(err.msg, "read-only"));
        jet_db_close(db);
    }
    ck_assert(!journal_exists(path));
    after = file_bytes(path, &len);
    ck_assert(memcmp(before, after, len) == 0);
    free(before);
    free(after);
    jet_test_remove_db(path);
    if (jet3) {
        jet_test_copy_to_temp(path, sizeof path, jet3, "pager");
        ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
        ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_EUNSUPPORTED);
        ck_assert_str_eq(err.msg, "Access 97 files are read-only");
        jet_db_close(db);
        jet_test_remove_db(path);
    }
}
END_TEST

/* encode(decode(page)) is the page: rewrite every page of each encrypted
 * fixture unchanged through the pager; the file must not change. */
START_TEST(pager_codecs_write_back_exact_bytes)
{
    static const char *files[] = { "jackcessencrypt/db-enc.mdb",
                                   "jackcessencrypt/db2007-enc.accdb",
                                   "jackcessencrypt/db2007-oldenc.accdb" };
    for (size_t f = 0; f < 3; f++) {
        const char *src = jet_test_fixture(files[f]);
        jet_open_options o = { .password = "Test123" };
        char path[64];
        jet_db *db;
        jet_error err;
        size_t len, len2;
        uint8_t *before, *after;
        uint32_t count;

        if (!src)
            continue;
        jet_test_copy_to_temp(path, sizeof path, src, "pager");
        before = file_bytes(path, &len);
        ck_assert_msg(jet_db_open(&db, path, f ? &o : NULL, &err) == JET_OK,
                      "%s: %s", files[f], err.msg);
        count = jet_pagefile_page_count(db->pf);
        ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_OK);
        for (uint32_t pg = 0; pg < count; pg++) {
            uint8_t *p;
            ck_assert_int_eq(jet_page_write(db->pf, pg, &p, &err), JET_OK);
            jet_page_unpin(db->pf, p);
        }
        ck_assert_int_eq(jet_pager_commit(db->pf, &err), JET_OK);
        ck_assert_uint_gt(count_rows(db), 0);
        jet_db_close(db);
        after = file_bytes(path, &len2);
        ck_assert_uint_eq(len, len2);
        ck_assert_msg(memcmp(before, after, len) == 0, "%s changed",
                      files[f]);
        free(before);
        free(after);
        jet_test_remove_db(path);
    }
}
END_TEST

/* Every hooked operation of a transaction failing in turn (EIO, ENOSPC,
 * and a disk that stays failed): the commit either succeeds and the file
 * is the new generation, or fails and, after reopening, it is the old. */
START_TEST(pager_injected_faults_leave_old_or_new)
{
    const char *src = plain_accdb();
    static const int errs[] = { EIO, ENOSPC };
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    uint32_t gen = 0, cases = 0;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    jet_db_close(db);
    for (int persist = 0; persist < 2; persist++)
        for (size_t k = 0; k < 2; k++)
            for (unsigned nth = 1;; nth++) {
                jet_rc rc;
                unsigned ran;
                ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
                (void)jet_os_fault_set(JET_OS_FAULT_ALL, nth, errs[k],
                                       persist);
                rc = run_tx(db->pf, &pl, gen + 1, &err);
                ran = jet_os_fault_set(0, 0, 0, false);
                jet_db_close(db);
                cases++;
                if (rc == JET_OK)
                    gen++;
                else
                    ck_assert_msg(rc == JET_EIO, "rc %d: %s", rc, err.msg);
                /* reopening recovers whatever a failed rollback left */
                ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
                ck_assert_uint_gt(count_rows(db), 0);
                jet_db_close(db);
                ck_assert(!journal_exists(path));
                ck_assert_uint_eq(file_generation(&pl, path), gen);
                if (ran < nth)
                    break;      /* the fault point lay past the commit */
            }
    ck_assert_uint_gt(cases, 40);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/*
 * The crash test. Each point forks a writer that runs transactions on the
 * file and dies: three points of four by the fault hook's SIGKILL at a
 * random write (torn in half), sync or truncate of one transaction; one
 * in four by the parent's SIGKILL after a random delay while the child
 * commits in a loop. After each, the file must open (hot journal rolled
 * back), be exactly one generation, and read every table.
 */
START_TEST(pager_crash_test_sigkill_at_random_points)
{
    const char *src = plain_accdb();
    const char *env = getenv("JET_CRASH_POINTS");
    unsigned points = env && atoi(env) > 0 ? (unsigned)atoi(env) : 200;
    unsigned hooked_deaths = 0, timed_deaths = 0, survived = 0;
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    size_t rows;
    uint32_t gen = 0;

    if (!src)
        return;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    rows = count_rows(db);
    jet_db_close(db);
    for (unsigned i = 0; i < points; i++) {
        bool timed = i % 4 == 3;
        unsigned nth = 1 + (unsigned)rand() % (4 * pl.n + 12);
        int st;
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            uint32_t g = gen;
            if (jet_db_open(&db, path, NULL, &err) != JET_OK)
                _exit(3);
            if (timed) {
                for (;;)
                    if (run_tx(db->pf, &pl, ++g, &err) != JET_OK)
                        _exit(5);
            }
            (void)jet_os_fault_set(JET_OS_FAULT_ALL, nth, 0, false);
            _exit(run_tx(db->pf, &pl, g + 1, &err) == JET_OK ? 0 : 4);
        }
        if (timed) {
            struct timespec ts = { 0, (long)(rand() % 20000) * 1000L };
            nanosleep(&ts, NULL);
            kill(pid, SIGKILL);
        }
        ck_assert_int_eq(waitpid(pid, &st, 0), pid);
        if (WIFSIGNALED(st)) {
            ck_assert_int_eq(WTERMSIG(st), SIGKILL);
            if (timed)
                timed_deaths++;
            else
                hooked_deaths++;
        } else {
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                          "writer failed: status %d", st);
            survived++;
        }
        ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
        ck_assert_uint_eq(count_rows(db), rows);
        jet_db_close(db);
        ck_assert(!journal_exists(path));
        {
            uint32_t now = file_generation(&pl, path);
            ck_assert_msg(now == gen || now == gen + 1 || timed,
                          "generation %u after %u", now, gen);
            ck_assert_uint_ge(now, gen);
            gen = now;
        }
    }
    fprintf(stderr, "crash test: %u points, %u killed by the hook, %u by "
            "the timer, %u commits survived; %u generations\n", points,
            hooked_deaths, timed_deaths, survived, gen);
    ck_assert_uint_ge(hooked_deaths + timed_deaths, points / 2);
    jet_test_jetcheck_verify(path);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/*
 * Readers in another process never see half a transaction: a writer
 * process commits generations while a reader process reads every stamped
 * page inside read transactions; each read must see one generation. Two
 * writer processes incrementing a counter both succeed, serialised.
 */
START_TEST(pager_concurrent_reader_and_writers)
{
    const char *src = plain_accdb();
    char path[64];
    jet_db *db;
    jet_error err;
    plan pl;
    pid_t w, r, w2;
    int st;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    make_plan(&pl, db, path);
    jet_db_close(db);
    w = fork();
    ck_assert_int_ge(w, 0);
    if (w == 0) {
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        for (uint32_t g = 1; g <= 60; g++)
            if (run_tx(db->pf, &pl, g, &err) != JET_OK)
                _exit(4);
        jet_db_close(db);
        _exit(0);
    }
    r = fork();
    ck_assert_int_ge(r, 0);
    if (r == 0) {
        unsigned reads = 0;
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        time_t deadline = time(NULL) + 120;
        for (;;) {
            uint32_t gen = 0;
            if (jet_pagefile_read_begin(db->pf, &err) != JET_OK)
                _exit(4);
            for (uint32_t i = 0; i < pl.n; i++) {
                const uint8_t *p;
                uint32_t v, o;
                if (jet_page_pin(db->pf, pl.pgno[i], &p, &err) != JET_OK)
                    _exit(5);
                memcpy(&v, p + pl.at[i], 4);
                memcpy(&o, pl.orig + (size_t)pl.pgno[i] * pl.ps + pl.at[i],
                       4);
                if (i == 0)
                    gen = v == o ? 0 : v;
                else if (v != (gen ? gen : o))
                    _exit(6);   /* a mix of two generations */
                jet_page_unpin(db->pf, p);
            }
            jet_pagefile_read_end(db->pf);
            reads++;
            if (gen == 60)
                break;
            if (time(NULL) > deadline)
                _exit(7);
        }
        fprintf(stderr, "reader: %u consistent reads\n", reads);
        jet_db_close(db);
        _exit(0);
    }
    ck_assert_int_eq(waitpid(w, &st, 0), w);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d", st);
    ck_assert_int_eq(waitpid(r, &st, 0), r);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "reader %d", st);
    ck_assert_uint_eq(file_generation(&pl, path), 60);

    /* two writers, each adding 1 to a counter 40 times */
    for (int k = 0; k < 2; k++) {
        pid_t c = fork();
        ck_assert_int_ge(c, 0);
        if (c == 0) {
            if (jet_db_open(&db, path, NULL, &err) != JET_OK)
                _exit(3);
            for (int i = 0; i < 40; i++) {
                uint8_t *p;
                uint32_t v;
                if (jet_pager_begin(db->pf, &err) != JET_OK)
                    _exit(4);
                if (jet_page_write(db->pf, pl.pgno[1], &p, &err) != JET_OK)
                    _exit(5);
                memcpy(&v, p + pl.at[1] + 8, 4);
                v++;
                memcpy(p + pl.at[1] + 8, &v, 4);
                jet_page_unpin(db->pf, p);
                if (jet_pager_commit(db->pf, &err) != JET_OK)
                    _exit(6);
            }
            jet_db_close(db);
            _exit(0);
        }
        if (k == 0)
            w2 = c;
        else
            w = c;
    }
    ck_assert_int_eq(waitpid(w2, &st, 0), w2);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer 1: %d", st);
    ck_assert_int_eq(waitpid(w, &st, 0), w);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer 2: %d", st);
    {
        size_t len;
        uint8_t *b = file_bytes(path, &len);
        uint32_t v, v0;
        memcpy(&v, b + (size_t)pl.pgno[1] * pl.ps + pl.at[1] + 8, 4);
        memcpy(&v0, pl.orig + (size_t)pl.pgno[1] * pl.ps + pl.at[1] + 8, 4);
        ck_assert_uint_eq(v, v0 + 80);
        free(b);
    }
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* Two connections of one process share the process's locks (fcntl locks
 * belong to the process): closing one must not drop the other's, and the
 * second cannot write while the first is. */
START_TEST(pager_two_connections_one_process)
{
    const char *src = plain_accdb();
    char path[64];
    jet_db *a, *b;
    jet_error err;
    plan pl;
    uint8_t *p;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    make_plan(&pl, a, path);
    ck_assert_int_eq(jet_db_open(&b, path, NULL, &err), JET_OK);
    jet_pagefile_set_busy_timeout(b->pf, 20);
    ck_assert_int_eq(jet_pager_begin(a->pf, &err), JET_OK);
    ck_assert_int_eq(jet_page_write(a->pf, pl.pgno[0], &p, &err), JET_OK);
    jet_page_unpin(a->pf, p);
    ck_assert_int_eq(jet_pager_begin(b->pf, &err), JET_EBUSY);
    /* b reads (SHARED) while a holds RESERVED; a's commit then waits */
    ck_assert_int_eq(jet_pagefile_read_begin(b->pf, &err), JET_OK);
    jet_pagefile_set_busy_timeout(a->pf, 20);
    ck_assert_int_eq(jet_pager_commit(a->pf, &err), JET_EBUSY);
    ck_assert_uint_eq(file_generation(&pl, path), 0);
    jet_pagefile_read_end(b->pf);
    /* another process cannot see a's RESERVED drop when b closes */
    ck_assert_int_eq(jet_pager_begin(a->pf, &err), JET_OK);
    jet_db_close(b);
    {
        pid_t c = fork();
        int st;
        if (c == 0) {
            jet_db *d;
            if (jet_db_open(&d, path, NULL, &err) != JET_OK)
                _exit(3);
            jet_pagefile_set_busy_timeout(d->pf, 20);
            _exit(jet_pager_begin(d->pf, &err) == JET_EBUSY ? 0 : 4);
        }
        ck_assert_int_eq(waitpid(c, &st, 0), c);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d", st);
    }
    ck_assert_int_eq(jet_pager_rollback(a->pf, &err), JET_OK);
    jet_db_close(a);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* The journal a connection keeps between its transactions (header cleared
 * at each commit, removed at close): a second connection of the process
 * and another process that write in turn each find it cleared, never hot,
 * remove or replace it, and every commit lands; a writer killed right
 * after its commit point leaves a cleared journal that the next opener
 * removes without rolling anything back. */
START_TEST(pager_kept_journal_shared_by_writers_in_turn)
{
    const char *src = plain_accdb();
    char path[64];
    jet_db *a, *b;
    jet_error err;
    plan pl;
    pid_t pid;
    int st;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    make_plan(&pl, a, path);
    ck_assert_int_eq(jet_db_open(&b, path, NULL, &err), JET_OK);
    for (uint32_t gen = 1; gen <= 6; gen++) {
        jet_db *w = gen % 2 ? a : b;
        ck_assert_int_eq(run_tx(w->pf, &pl, gen, &err), JET_OK);
        ck_assert(journal_cleared(path));
        ck_assert_uint_eq(file_generation(&pl, path), gen);
    }
    /* another process writes between a's transactions */
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        jet_db *d;
        if (jet_db_open(&d, path, NULL, &err) != JET_OK)
            _exit(3);
        _exit(run_tx(d->pf, &pl, 7, &err) == JET_OK ? 0 : 4);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d", st);
    ck_assert_uint_eq(file_generation(&pl, path), 7);
    ck_assert_int_eq(run_tx(a->pf, &pl, 8, &err), JET_OK);
    ck_assert_uint_eq(file_generation(&pl, path), 8);
    jet_db_close(b);
    jet_db_close(a);
    ck_assert(!journal_exists(path));
    /* killed right after the commit point: the journal stays, cleared */
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        jet_db *d;
        if (jet_db_open(&d, path, NULL, &err) != JET_OK)
            _exit(3);
        if (run_tx(d->pf, &pl, 9, &err) != JET_OK)
            _exit(4);
        raise(SIGKILL);
        _exit(5);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    ck_assert(journal_exists(path) && journal_cleared(path));
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    ck_assert(!journal_exists(path));
    ck_assert_uint_gt(count_rows(a), 0);
    jet_db_close(a);
    ck_assert_uint_eq(file_generation(&pl, path), 9);
    free(pl.orig);
    jet_test_remove_db(path);
}
END_TEST

/* The decoded bytes of pages 1..count-1 (the cache's view), malloc'd. */
static uint8_t *snapshot(jet_pagefile *pf, uint32_t ps, uint32_t count)
{
    uint8_t *b = malloc((size_t)count * ps);
    ck_assert_ptr_nonnull(b);
    for (uint32_t pg = 1; pg < count; pg++) {
        const uint8_t *p;
        ck_assert_int_eq(jet_page_pin(pf, pg, &p, NULL), JET_OK);
        memcpy(b + (size_t)pg * ps, p, ps);
        jet_page_unpin(pf, p);
    }
    return b;
}

static void same_snapshot(jet_pagefile *pf, uint32_t ps, uint32_t count,
                          const uint8_t *want, const char *what)
{
    uint8_t *now = snapshot(pf, ps, count);
    for (uint32_t pg = 1; pg < count; pg++)
        ck_assert_msg(memcmp(now + (size_t)pg * ps, want + (size_t)pg * ps,
                             ps) == 0, "%s: page %u differs", what, pg);
    free(now);
}

/* Change 8 bytes of every page pg of [1, count) with pg % step == 0. */
static void scribble(jet_pagefile *pf, uint32_t count, uint32_t step,
                     uint8_t gen)
{
    for (uint32_t pg = 1; pg < count; pg++) {
        uint8_t *p;
        if (pg % step)
            continue;
        ck_assert_int_eq(jet_page_write(pf, pg, &p, NULL), JET_OK);
        for (int i = 0; i < 8; i++)
            p[100 + i] = (uint8_t)(pg * 7 + i + gen * 31);
        jet_page_unpin(pf, p);
    }
}

/* Savepoint images past the memory budget go to a temporary file: a
 * statement may change every page; nested savepoints roll back to their
 * exact images (some in memory, most in the file, slots reused after a
 * release), the commit writes what is left, a rollback leaves the file
 * byte for byte; without a usable temporary folder the write past the
 * budget fails cleanly and the statement still rolls back. */
START_TEST(pager_savepoint_images_spill_to_a_temp_file)
{
    const char *src = plain_accdb();
    jet_open_options o = { .cache_pages = 8 };
    char path[64];
    const char *old_tmp = getenv("TMPDIR");
    char *keep_tmp = old_tmp ? strdup(old_tmp) : NULL;
    jet_db *db;
    jet_error err;
    uint8_t *orig, *snap_a, *snap_b, *p, *now;
    size_t len;
    uint32_t ps, count, sp0, sp1, sp2, pg, in_mem, in_file;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "pager");
    orig = file_bytes(path, &len);
    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
    ps = db->page_size;
    count = jet_pagefile_page_count(db->pf);
    ck_assert_uint_ge(count, 20);
    jet_pager_set_savepoint_memory(db->pf, 3u * ps);

    for (int commit = 0; commit < 2; commit++) {
        ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_OK);
        ck_assert_int_eq(jet_page_write(db->pf, 1, &p, &err), JET_OK);
        p[60] ^= 0xA5;      /* before any savepoint: no image */
        jet_page_unpin(db->pf, p);
        snap_a = snapshot(db->pf, ps, count);
        ck_assert_int_eq(jet_pager_savepoint(db->pf, &sp0, &err), JET_OK);
        scribble(db->pf, count, 1, 1);
        for (int i = 0; i < 5; i++) {
            ck_assert_int_eq(jet_page_alloc(db->pf, &pg, &p, &err), JET_OK);
            jet_page_unpin(db->pf, p);
        }
        jet_pager_savepoint_images(db->pf, &in_mem, &in_file);
        ck_assert_uint_eq(in_mem, 3);
        ck_assert_uint_eq(in_mem + in_file, count - 1);
        snap_b = snapshot(db->pf, ps, count);
        ck_assert_int_eq(jet_pager_savepoint(db->pf, &sp1, &err), JET_OK);
        scribble(db->pf, count, 2, 2);
        ck_assert_int_eq(jet_pager_savepoint(db->pf, &sp2, &err), JET_OK);
        scribble(db->pf, count, 3, 3);
        jet_pager_release(db->pf, sp2);     /* sp1 keeps what it needs */
        ck_assert_int_eq(jet_pager_rollback_to(db->pf, sp1, &err), JET_OK);
        same_snapshot(db->pf, ps, count, snap_b, "rolled back to sp1");
        ck_assert_uint_eq(jet_pagefile_page_count(db->pf), count + 5);
        /* more images after the rollback reuse the freed slots */
        scribble(db->pf, count, 1, 4);
        ck_assert_int_eq(jet_pager_rollback_to(db->pf, sp0, &err), JET_OK);
        same_snapshot(db->pf, ps, count, snap_a, "rolled back to sp0");
        ck_assert_uint_eq(jet_pagefile_page_count(db->pf), count);
        scribble(db->pf, count, 5, 5);      /* kept: not rolled back */
        jet_pager_release(db->pf, sp0);
        jet_pager_savepoint_images(db->pf, &in_mem, &in_file);
        ck_assert_uint_eq(in_mem + in_file, 0);
        free(snap_b);
        snap_b = snapshot(db->pf, ps, count);
        if (commit) {
            ck_assert_int_eq(jet_pager_commit(db->pf, &err), JET_OK);
            same_snapshot(db->pf, ps, count, snap_b, "committed");
        } else {
            ck_assert_int_eq(jet_pager_rollback(db->pf, &err), JET_OK);
            now = file_bytes(path, &len);
            ck_assert_msg(len == (size_t)count * ps &&
                          memcmp(now, orig, len) == 0,
                          "a rollback left the file changed");
            free(now);
        }
        free(snap_a);
        free(snap_b);
    }
    jet_db_close(db);
    now = file_bytes(path, &len);
    ck_assert_uint_eq(len, (size_t)count * ps);
    for (pg = 1; pg < count; pg++) {
        const uint8_t *a = orig + (size_t)pg * ps, *b = now + (size_t)pg * ps;
        if (pg % 5 == 0)
            ck_assert_uint_eq(b[100], (uint8_t)(pg * 7 + 5 * 31));
        else if (pg != 1)
            ck_assert_msg(memcmp(a, b, ps) == 0, "page %u changed", pg);
    }
    ck_assert_uint_eq(now[ps + 60], orig[ps + 60] ^ 0xA5);
    free(now);

    /* no temporary folder: the write past the budget fails, the
     * statement rolls back from the images it has */
    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
    jet_pager_set_savepoint_memory(db->pf, 3u * ps);
    orig = (free(orig), file_bytes(path, &len));
    setenv("TMPDIR", "/nonexistent/jetodbc-test", 1);
    ck_assert_int_eq(jet_pager_begin(db->pf, &err), JET_OK);
    ck_assert_int_eq(jet_pager_savepoint(db->pf, &sp0, &err), JET_OK);
    for (pg = 1; pg <= 3; pg++) {
        ck_assert_int_eq(jet_page_write(db->pf, pg, &p, &err), JET_OK);
        p[100] ^= 0xFF;
        jet_page_unpin(db->pf, p);
    }
    ck_assert_int_eq(jet_page_write(db->pf, 4, &p, &err), JET_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "temporary file"));
    ck_assert_int_eq(jet_pager_rollback_to(db->pf, sp0, &err), JET_OK);
    jet_pager_release(db->pf, sp0);
    ck_assert_int_eq(jet_pager_commit(db->pf, &err), JET_OK);
    if (keep_tmp)
        setenv("TMPDIR", keep_tmp, 1);
    else
        unsetenv("TMPDIR");
    free(keep_tmp);
    jet_db_close(db);
    now = file_bytes(path, &len);
    ck_assert_msg(memcmp(now, orig, len) == 0, "the failed statement left "
                  "a change");
    free(now);
    free(orig);
    jet_test_remove_db(path);
}
END_TEST

static Suite *pager_suite(void)
{
    Suite *s = suite_create("pager");
    TCase *tc = tcase_create("pager");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, pager_commit_lands_whole_and_journal_goes);
    tcase_add_test(tc, pager_rollback_restores_cache_and_file);
    tcase_add_test(tc, pager_spill_past_the_cache);
    tcase_add_test(tc, pager_savepoint_images_spill_to_a_temp_file);
    tcase_add_test(tc, pager_hot_journal_rolled_back_at_open);
    tcase_add_test(tc, pager_quiet_read_leaves_journal_writer_rolls_back);
    tcase_add_test(tc, pager_read_only_refuses_and_never_writes);
    tcase_add_test(tc, pager_codecs_write_back_exact_bytes);
    tcase_add_test(tc, pager_injected_faults_leave_old_or_new);
    tcase_add_test(tc, pager_two_connections_one_process);
    tcase_add_test(tc, pager_kept_journal_shared_by_writers_in_turn);
    tcase_add_test(tc, pager_concurrent_reader_and_writers);
    tcase_add_test(tc, pager_crash_test_sigkill_at_random_points);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(pager_suite)
