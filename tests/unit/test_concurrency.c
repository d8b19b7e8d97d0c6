/*
 * test_concurrency.c - read transactions between processes: a reader
 * scanning a table through jet_scan inside jet_db_read_begin/read_end
 * while another process commits changes to many data pages sees wholly
 * the old or wholly the new state, and sees the new one (its cache is
 * dropped when the file changed); two writing processes both succeed,
 * one after the other; read transactions nest, and a connection's open
 * read keeps another's commit waiting; a writer waiting to commit (or
 * committing) keeps new reads out.
 *
 * The writers change values through the pager directly (not the row
 * writer): every non-NULL value of one number column (not indexed) of
 * the table that spans the most data pages is set to the generation
 * number, in place, so the file stays valid (jetcheck verify at the end).
 *
 * A connection sees another's commit whole: rows on the data pages the
 * other added, and AutoNumbers past the other's.
 *
 * Access's lock file (lockfile.c): a record whose user slot byte another
 * process holds (as Access would) refuses jet_db_write_begin with
 * JET_EREADONLY naming the user and machine, and leaves the database and
 * the lock file byte-for-byte unchanged while reading goes on; a record
 * nobody holds (left by a crash) does not block; another jetodbc process
 * (slot and marker bytes held) does not block either; our own record is
 * there while we write and gone (with the file) when we close.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "write.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

#define MAX_CELLS 20000

/* Where the column's values are: page and byte offset of each. */
typedef struct cells {
    char table[256];
    uint16_t col;
    jet_type type;              /* LONG, DOUBLE or MONEY */
    uint32_t n;
    uint32_t pgno[MAX_CELLS];
    uint16_t off[MAX_CELLS];
    uint32_t pages;             /* distinct data pages */
} cells;

static cells the_cells;

/* The non-NULL in-row values of column col of t (LONG, DOUBLE or MONEY)
 * on plain (not overflow) rows; false when the table will not do. */
static bool collect(jet_db *db, const jet_tdef *t, uint16_t col, cells *c)
{
    jet_scan *s;
    jet_cell_loc loc;
    jet_rc rc;
    uint32_t last = 0;
    c->n = c->pages = 0;
    if (jet_scan_open(&s, db, t, NULL) != JET_OK)
        return false;
    jet_scan_cell_loc(s, col, &loc);
    if (loc.kind != JET_CELL_FIXED || loc.width != (t->cols[col].type ==
                                                    JET_T_LONG ? 4 : 8)) {
        jet_scan_close(s);
        return false;
    }
    while ((rc = jet_scan_next(s)) == JET_OK && c->n < MAX_CELLS) {
        const jet_row *r = jet_scan_row(s);
        const uint8_t *p, *page;
        size_t n;
        uint32_t pg;
        uint16_t row;
        if (jet_row_cell(r, &loc, &p, &n) != 1)
            continue;
        ck_assert_int_eq(jet_scan_position(s, &pg, &row), JET_OK);
        ck_assert_int_eq(jet_page_pin(db->pf, pg, &page, NULL), JET_OK);
        jet_page_unpin(db->pf, page);
        if (p < page || p + 8 > page + db->page_size)
            continue;           /* an overflow row on another page */
        c->pgno[c->n] = pg;
        c->off[c->n] = (uint16_t)(p - page);
        c->n++;
        if (pg != last)
            c->pages++;
        last = pg;
    }
    jet_scan_close(s);
    return true;
}

/* The LONG column of a user table with the most data pages. */
static void choose_cells(jet_db *db)
{
    cells *best = &the_cells, *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    best->pages = 0;
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&t, db, o) != JET_OK)
            continue;
        for (uint16_t k = 0; k < t->ncols; k++) {
            bool indexed = false;
            for (uint16_t x = 0; x < t->nindexes; x++)
                for (uint16_t y = 0; y < t->indexes[x].ncols; y++)
                    indexed |= t->indexes[x].cols[y].col == k;
            jet_type ty = t->cols[k].type;
            if ((ty != JET_T_LONG && ty != JET_T_DOUBLE &&
                 ty != JET_T_MONEY) || indexed ||
                (t->cols[k].flags & JET_COL_AUTONUMBER))
                continue;
            if (!collect(db, t, k, c))
                continue;
            if (c->pages > best->pages) {
                snprintf(c->table, sizeof c->table, "%s", o->name);
                c->col = k;
                c->type = ty;
                memcpy(best, c, sizeof *c);
            }
            break;              /* one column per table */
        }
    }
    free(c);
    ck_assert_msg(best->pages >= 3, "no number column over 3+ data pages");
}

/* The cell at p as a number. */
static int64_t get_cell(const uint8_t *p)
{
    if (the_cells.type == JET_T_LONG)
        return (int32_t)jet_get_u32(p);
    if (the_cells.type == JET_T_MONEY)
        return (int64_t)jet_get_u64(p);
    {
        double d;
        uint64_t u = jet_get_u64(p);
        memcpy(&d, &u, 8);
        return (int64_t)d;
    }
}

static void put_cell(uint8_t *p, int64_t v)
{
    if (the_cells.type == JET_T_LONG) {
        jet_put_u32(p, (uint32_t)v);
    } else if (the_cells.type == JET_T_MONEY) {
        jet_put_u64(p, (uint64_t)v);
    } else {
        double d = (double)v;
        uint64_t u;
        memcpy(&u, &d, 8);
        jet_put_u64(p, u);
    }
}

/* One transaction: every cell set to v (add: every cell += v). */
static jet_rc write_cells(jet_db *db, int64_t v, bool add)
{
    const cells *c = &the_cells;
    jet_error err;
    jet_rc rc = jet_pager_begin(db->pf, &err);
    if (rc != JET_OK)
        return rc;
    for (uint32_t i = 0; i < c->n; i++) {
        uint8_t *p;
        rc = jet_page_write(db->pf, c->pgno[i], &p, &err);
        if (rc != JET_OK) {
            (void)jet_pager_rollback(db->pf, NULL);
            return rc;
        }
        put_cell(p + c->off[i], add ? get_cell(p + c->off[i]) + v : v);
        jet_page_unpin(db->pf, p);
    }
    return jet_pager_commit(db->pf, &err);
}

static const jet_tdef *table_of(jet_db *db)
{
    const jet_object *o = jet_catalog_find(db, the_cells.table);
    const jet_tdef *t;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    return t;
}

/* Scan the table inside a read transaction: the value every non-NULL
 * cell holds, or -1 when two differ (a mix of two commits). */
static int64_t scan_state(jet_db *db, const jet_tdef *t, uint32_t *seen)
{
    jet_scan *s;
    jet_rc rc;
    int64_t v = INT64_MIN;
    *seen = 0;
    if (jet_db_read_begin(db) != JET_OK)
        return -2;
    if (jet_scan_open(&s, db, t, NULL) != JET_OK) {
        jet_db_read_end(db);
        return -3;
    }
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value x;
        if (jet_scan_value(s, the_cells.col, &x) != JET_OK) {
            v = -4;
            break;
        }
        if (x.is_null)
            continue;
        (*seen)++;
        int64_t got = the_cells.type == JET_T_LONG ? x.u.i
                    : the_cells.type == JET_T_MONEY ? x.u.money
                    : (int64_t)x.u.d;
        if (v == INT64_MIN)
            v = got;
        else if (v != got) {
            v = -1;
            break;
        }
    }
    jet_scan_close(s);
    jet_db_read_end(db);
    return v;
}

static const char *source(void)
{
    const char *e = getenv("JET_CONC_FIXTURE");
    const char *big = jet_test_fixture("../bulk/perf.accdb");
    /* perf.accdb's table "wide" spans 844 data pages; the public
     * fixtures' largest usable table spans 3 */
    return e ? jet_test_fixture(e) : big ? big
                          : jet_test_fixture("mdbtestdata/ASampleDatabase.accdb");
}

static int wait_ok(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

#define GENS 40
#define BASE 1000000

START_TEST(scan_sees_one_commit_or_the_other)
{
    const char *src = source();
    char path[64];
    jet_db *db;
    jet_error err;
    pid_t w, r;
    uint32_t seen;

    if (!src) {
        fprintf(stderr, "fixtures not found: skipped\n");
        return;
    }
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    choose_cells(db);
    fprintf(stderr, "table %s column %u (type %d): %u values on %u data "
            "pages\n", the_cells.table, the_cells.col, (int)the_cells.type,
            the_cells.n, the_cells.pages);
    ck_assert_int_eq(write_cells(db, BASE, false), JET_OK);
    ck_assert_int_eq(scan_state(db, table_of(db), &seen), BASE);
    ck_assert_uint_eq(seen, the_cells.n);
    jet_db_close(db);

    r = fork();
    ck_assert_int_ge(r, 0);
    if (r == 0) {
        unsigned scans = 0, states = 0;
        int64_t last = BASE;
        time_t deadline = time(NULL) + 120;
        const jet_tdef *t;
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        t = table_of(db);
        for (;;) {
            int64_t v = scan_state(db, t, &seen);
            if (v < 0) {
                fprintf(stderr, "scan %u: %lld\n", scans, (long long)v);
                _exit(4);       /* a mix, or an error */
            }
            if (v < last || seen != the_cells.n)
                _exit(5);       /* went back in time, or lost rows */
            if (v != last)
                states++;
            last = v;
            scans++;
            if (v == BASE + GENS)
                break;
            if (time(NULL) > deadline)
                _exit(6);       /* never saw the last commit */
        }
        fprintf(stderr, "reader: %u whole scans, %u states seen\n", scans,
                states);
        jet_db_close(db);
        _exit(0);
    }
    w = fork();
    ck_assert_int_ge(w, 0);
    if (w == 0) {
        if (jet_db_open(&db, path, NULL, &err) != JET_OK)
            _exit(3);
        for (int g = 1; g <= GENS; g++)
            if (write_cells(db, BASE + g, false) != JET_OK)
                _exit(4);
        jet_db_close(db);
        _exit(0);
    }
    ck_assert_int_eq(wait_ok(w), 0);
    ck_assert_int_eq(wait_ok(r), 0);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(scan_state(db, table_of(db), &seen), BASE + GENS);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(two_writing_processes_serialise)
{
    const char *src = source();
    char path[64];
    jet_db *db;
    jet_error err;
    pid_t c[2];
    uint32_t seen;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    choose_cells(db);
    ck_assert_int_eq(write_cells(db, BASE, false), JET_OK);
    jet_db_close(db);
    for (int k = 0; k < 2; k++) {
        c[k] = fork();
        ck_assert_int_ge(c[k], 0);
        if (c[k] == 0) {
            if (jet_db_open(&db, path, NULL, &err) != JET_OK)
                _exit(3);
            for (int i = 0; i < 25; i++) {
                jet_rc rc = write_cells(db, 1, true);
                if (rc != JET_OK) {
                    fprintf(stderr, "writer %d: rc %d\n", k, rc);
                    _exit(4);
                }
            }
            jet_db_close(db);
            _exit(0);
        }
    }
    ck_assert_int_eq(wait_ok(c[0]), 0);
    ck_assert_int_eq(wait_ok(c[1]), 0);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(scan_state(db, table_of(db), &seen), BASE + 50);
    ck_assert_uint_eq(seen, the_cells.n);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}
END_TEST

/* Read transactions nest; an open one keeps another connection's (same
 * process) commit waiting until its busy timeout, and the write lands once
 * the last read ended; a write transaction inside a read keeps the read. */
START_TEST(read_transactions_nest_and_hold_writers)
{
    const char *src = source();
    char path[64];
    jet_db *a, *b;
    jet_error err;
    uint32_t seen;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    choose_cells(a);
    ck_assert_int_eq(jet_db_open(&b, path, NULL, &err), JET_OK);
    jet_pagefile_set_busy_timeout(b->pf, 30);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_OPEN);
    ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
    ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
    ck_assert_uint_eq(jet_pagefile_readers(a->pf), 2);
    jet_db_read_end(a);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_READER);
    ck_assert_int_eq(write_cells(b, 7, false), JET_EBUSY);
    jet_db_read_end(a);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_OPEN);
    jet_db_read_end(a);         /* unbalanced: ignored */
    ck_assert_uint_eq(jet_pagefile_readers(a->pf), 0);
    ck_assert_int_eq(write_cells(b, 7, false), JET_OK);
    ck_assert_int_eq(scan_state(a, table_of(a), &seen), 7);
    /* a write inside a read: the read survives the commit */
    ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
    ck_assert_int_eq(write_cells(a, 8, false), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_READER);
    ck_assert_int_eq(write_cells(b, 9, false), JET_EBUSY);
    /* a read begun inside a write outlives it */
    jet_db_read_end(a);
    ck_assert_int_eq(jet_pager_begin(a->pf, &err), JET_OK);
    ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
    ck_assert_int_eq(jet_pager_commit(a->pf, &err), JET_OK);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_READER);
    jet_db_read_end(a);
    ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_OPEN);
    ck_assert_int_eq(write_cells(b, 9, false), JET_OK);
    ck_assert_int_eq(scan_state(a, table_of(a), &seen), 9);
    jet_db_close(b);
    jet_db_close(a);
    jet_test_remove_db(path);
}
END_TEST

/* Rows of table name through a scan inside a read transaction. */
static uint32_t scan_rows(jet_db *db, const char *name)
{
    const jet_object *o;
    const jet_tdef *t;
    jet_scan *s;
    jet_rc rc;
    uint32_t n = 0, count;
    ck_assert_int_eq(jet_db_read_begin(db), JET_OK);
    o = jet_catalog_find(db, name);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK)
        n++;
    ck_assert_int_eq(rc, JET_DONE);
    jet_scan_close(s);
    ck_assert_int_eq(jet_table_row_count(db, t, &count), JET_OK);
    ck_assert_uint_eq(count, n);        /* COUNT(*) and the scan agree */
    jet_db_read_end(db);
    return n;
}

/* Insert n rows into Table3 (a: AutoNumber, b: TEXT) in one transaction. */
static jet_rc insert_rows(jet_db *db, unsigned n, unsigned tag)
{
    const jet_object *o;
    const jet_tdef *t;
    jet_rc rc = jet_db_write_begin(db);
    if (rc != JET_OK)
        return rc;
    o = jet_catalog_find(db, "Table3");
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_uint_eq(t->ncols, 2);
    ck_assert(t->cols[0].flags & JET_COL_AUTONUMBER);
    for (unsigned i = 0; i < n && rc == JET_OK; i++) {
        jet_value v[2];
        uint16_t text[40];
        char buf[40];
        int len = snprintf(buf, sizeof buf, "row %u of writer %u", i, tag);
        memset(v, 0, sizeof v);
        v[0].type = JET_T_LONG;
        v[0].is_null = true;
        for (int k = 0; k < len; k++)
            text[k] = (uint8_t)buf[k];
        v[1].type = JET_T_TEXT;
        v[1].enc = JET_ENC_UCS2;
        v[1].data = (const uint8_t *)text;
        v[1].len = 2 * (size_t)len;
        rc = jet_table_insert(db, t, v, NULL);
    }
    if (rc != JET_OK) {
        (void)jet_db_write_rollback(db);
        return rc;
    }
    return jet_db_write_commit(db);
}

/* A connection sees what another committed: rows on data pages the other
 * added (its scans read the owned pages of its first look, and COUNT(*)
 * disagreed with the scan), and its AutoNumbers go on past the other's
 * (they repeated the other's, refused as duplicate keys). Connections of
 * one process and of two processes tell a change by the file's stamp
 * alike, so one process shows it. */
START_TEST(another_connections_commit_is_seen)
{
    const char *src = jet_test_fixture("jackcess/V2010/testV2010.accdb");
    char path[64];
    jet_db *a, *b;
    jet_error err;
    uint32_t n0;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_open(&b, path, NULL, &err), JET_OK);
    n0 = scan_rows(a, "Table3");
    ck_assert_int_eq(insert_rows(a, 10, 1), JET_OK);
    ck_assert_uint_eq(scan_rows(b, "Table3"), n0 + 10);
    ck_assert_int_eq(insert_rows(b, 400, 2), JET_OK);   /* new pages */
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 410);
    ck_assert_int_eq(insert_rows(a, 10, 3), JET_OK);    /* AutoNumbers */
    ck_assert_uint_eq(scan_rows(b, "Table3"), n0 + 420);
    {
        jet_check_stats st;
        ck_assert_int_eq(jet_db_check(a, jet_test_print_problem, NULL, &st), JET_OK);
        ck_assert_uint_eq(st.problems, 0);
    }
    jet_db_close(b);
    jet_db_close(a);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}
END_TEST

/* The file's modification time in nanoseconds. */
static int64_t mtime_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* Set the file's modification time (ns). */
static void set_mtime(const char *path, int64_t t)
{
    struct timespec ts[2] = {
        { 0, UTIME_OMIT },
        { (time_t)(t / 1000000000), (long)(t % 1000000000) },
    };
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* A connection's own commits keep its cache: the stamp taken at the end
 * of its commit is trusted although the file changed within the racy
 * window (each autocommit statement read its pages again). Another
 * connection's commit right after is still seen, because every commit
 * moves the file's time past the one its transaction began with - even
 * when the clock has not (here: the file's time set ahead of the clock,
 * as a commit within the same clock tick would leave it). */
START_TEST(own_commits_keep_the_cache_others_are_seen)
{
    const char *src = jet_test_fixture("jackcess/V2010/testV2010.accdb");
    char path[64];
    jet_db *a, *b;
    uint64_t drops, reads;
    uint32_t n0;
    int64_t ahead;
    jet_error err;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_open(&b, path, NULL, &err), JET_OK);
    n0 = scan_rows(a, "Table3");
    ck_assert_int_eq(insert_rows(a, 1, 1), JET_OK);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 1);
    drops = jet_pagefile_drops(a->pf);
    reads = jet_db_pages_read(a);
    for (unsigned i = 0; i < 20; i++)
        ck_assert_int_eq(insert_rows(a, 1, 10 + i), JET_OK);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 21);
    ck_assert_uint_eq(jet_pagefile_drops(a->pf), drops);
    ck_assert_uint_le(jet_db_pages_read(a) - reads, 2);    /* a new page */
    /* b commits at once: a sees it */
    ck_assert_int_eq(insert_rows(b, 1, 40), JET_OK);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 22);
    ck_assert_uint_gt(jet_pagefile_drops(a->pf), drops);
    /* a file time ahead of the clock: the kernel's time for b's write is
     * behind it, and b's commit moves it 1 us past; a, whose commit
     * stamped the time ahead, sees b's */
    ahead = mtime_of(path) + 3600 * 1000000000LL + 123;
    set_mtime(path, ahead);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 22);    /* re-stamps */
    ck_assert_int_eq(insert_rows(a, 1, 41), JET_OK);
    ck_assert_int_eq(mtime_of(path), ahead + 1000);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 23);
    drops = jet_pagefile_drops(a->pf);
    ck_assert_int_eq(insert_rows(b, 1, 42), JET_OK);
    ck_assert_int_eq(mtime_of(path), ahead + 2000);
    ck_assert_uint_eq(scan_rows(a, "Table3"), n0 + 24);
    ck_assert_uint_gt(jet_pagefile_drops(a->pf), drops);
    {
        jet_check_stats st;
        ck_assert_int_eq(jet_db_check(a, jet_test_print_problem, NULL, &st), JET_OK);
        ck_assert_uint_eq(st.problems, 0);
    }
    jet_db_close(b);
    jet_db_close(a);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}
END_TEST

/* jet_os_advance_mtime: nothing when the file's time is already past;
 * else 1 us past the time given. */
START_TEST(advance_mtime_moves_past)
{
    char path[] = "/tmp/jet_mtime_XXXXXX";
    int fd = mkstemp(path);
    jet_os_stamp st;
    int64_t t;
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "x", 1), 1);
    t = mtime_of(path);
    ck_assert_int_eq(jet_os_advance_mtime(fd, t - 5, &st), 0);
    ck_assert_int_eq(st.mtime_ns, t);
    ck_assert_int_eq(mtime_of(path), t);
    ck_assert_int_eq(jet_os_advance_mtime(fd, t + 7777, &st), 0);
    ck_assert_int_eq(st.mtime_ns, t + 7777 + 1000);
    ck_assert_int_eq(mtime_of(path), t + 8777);
    close(fd);
    unlink(path);
}
END_TEST

/* ------------------------------------------------------ the lock file */

/* Copy src to a temporary file ending in ext; path (cap bytes). */
static void copy_with_ext(char *path, size_t cap, const char *src,
                          const char *ext)
{
    size_t len;
    uint8_t *buf = jet_test_slurp(src, &len);
    int fd;
    ck_assert_ptr_nonnull(buf);
    snprintf(path, cap, "/tmp/jet_ldb_XXXXXX%s", ext);
    fd = mkstemps(path, (int)strlen(ext));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
    close(fd);
    free(buf);
}

/* The lock file's name beside path (extension replaced). */
static void ldb_of(char *out, size_t cap, const char *path, const char *ext)
{
    const char *dot = strrchr(path, '.');
    snprintf(out, cap, "%.*s%s", (int)(dot - path), path, ext);
}

/* A lock file holding one record at slot: machine, user. */
static void write_record(const char *ldb, unsigned slot, const char *machine,
                         const char *user)
{
    uint8_t rec[64];
    int fd = open(ldb, O_RDWR | O_CREAT, 0644);
    ck_assert_int_ge(fd, 0);
    memset(rec, 0, sizeof rec);
    memcpy(rec, machine, strlen(machine));
    memcpy(rec + 32, user, strlen(user));
    ck_assert_int_eq(pwrite(fd, rec, 64, (off_t)slot * 64), 64);
    close(fd);
}

/* Write-lock byte off of path in a child process that keeps it until
 * told (a byte on *ctl); returns the child's pid once the lock is held. */
static pid_t hold_bytes(const char *path, uint64_t off1, uint64_t off2,
                        int *ctl)
{
    int go[2], ready[2];
    char c;
    pid_t pid;
    ck_assert_int_eq(pipe(go), 0);
    ck_assert_int_eq(pipe(ready), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct flock fl;
        int fd = open(path, O_RDWR);
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        fl.l_len = 1;
        fl.l_start = (off_t)off1;
        if (fd < 0 || fcntl(fd, F_SETLK, &fl) != 0)
            _exit(3);
        fl.l_start = (off_t)off2;
        if (off2 && fcntl(fd, F_SETLK, &fl) != 0)
            _exit(4);
        if (write(ready[1], "r", 1) != 1)
            _exit(5);
        if (read(go[0], &c, 1) < 0)
            _exit(6);
        _exit(0);
    }
    close(go[0]);
    close(ready[1]);
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    *ctl = go[1];
    return pid;
}

static void release_bytes(pid_t pid, int ctl)
{
    ck_assert_int_eq(write(ctl, "g", 1), 1);
    close(ctl);
    ck_assert_int_eq(wait_ok(pid), 0);
}

/* Is byte off of path locked (by anyone)? Asked from a child process:
 * F_GETLK does not report the asking process's own locks. */
static bool byte_held(const char *path, uint64_t off)
{
    int st;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct flock fl;
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            _exit(3);
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = (off_t)off;
        fl.l_len = 1;
        if (fcntl(fd, F_GETLK, &fl) != 0)
            _exit(4);
        _exit(fl.l_type != F_UNLCK ? 1 : 0);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) < 2);
    return WEXITSTATUS(st) == 1;
}

static size_t rows_of_all(jet_db *db)
{
    size_t rows = 0;
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_scan *s;
        if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&t, db, o) != JET_OK)
            continue;
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        while (jet_scan_next(s) == JET_OK)
            rows++;
        jet_scan_close(s);
    }
    return rows;
}

START_TEST(lock_file_live_access_user_refuses_writes)
{
    const char *src = jet_test_fixture("jackcess/V2003/testV2003.mdb");
    char path[64], ldb[80];
    uint8_t *db0, *ldb0, *db1, *ldb1;
    size_t n0 = 0, l0 = 0, n1 = 0, l1 = 0;
    jet_db *db;
    jet_error err;
    int ctl;
    pid_t holder;

    if (!src)
        return;
    copy_with_ext(path, sizeof path, src, ".mdb");
    ldb_of(ldb, sizeof ldb, path, ".ldb");
    /* Access on WINPC as bob holds slot 0; a crashed user left slot 1 */
    write_record(ldb, 0, "WINPC", "bob");
    write_record(ldb, 1, "GONE", "crashed");
    holder = hold_bytes(path, JET_OS_USER_SLOT_BASE, 0, &ctl);
    db0 = jet_test_slurp(path, &n0);
    ldb0 = jet_test_slurp(ldb, &l0);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_uint_gt(rows_of_all(db), 0);
    ck_assert_int_eq(jet_db_write_begin(db), JET_EREADONLY);
    ck_assert_msg(strstr(jet_db_error(db)->msg, "opened by another program "
                         "(user bob on machine WINPC); reading works") !=
                  NULL, "%s", jet_db_error(db)->msg);
    ck_assert(!jet_db_in_write(db));
    ck_assert_int_eq(jet_pager_state_of(db->pf), JET_PAGER_OPEN);
    ck_assert_uint_gt(rows_of_all(db), 0);      /* reading still works */
    ck_assert_int_eq(jet_db_write_begin(db), JET_EREADONLY);
    jet_db_close(db);
    db1 = jet_test_slurp(path, &n1);
    ldb1 = jet_test_slurp(ldb, &l1);
    ck_assert(n0 == n1 && memcmp(db0, db1, n0) == 0);
    ck_assert(l0 == l1 && memcmp(ldb0, ldb1, l0) == 0);
    free(db1);
    free(ldb1);

    /* bob quits (his record stays, as Access leaves it): now stale */
    release_bytes(holder, ctl);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    {
        /* our record took the first free slot, and its byte is held */
        char host[256];
        uint8_t *l = jet_test_slurp(ldb, &l1);
        jet_os_machine_name(host, sizeof host);
        ck_assert_uint_ge(l1, 64);
        ck_assert(strncmp((const char *)l, host, 31) == 0);
        ck_assert_str_eq((const char *)l + 32, "Admin");
        ck_assert(memcmp(l + 64, ldb0 + 64, 64) == 0);  /* slot 1 kept */
        free(l);
        ck_assert(byte_held(path, JET_OS_USER_SLOT_BASE));
        ck_assert(byte_held(path, JET_OS_USER_MARK_BASE));
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    /* a second write transaction of the connection keeps the slot */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    ck_assert(byte_held(path, JET_OS_USER_SLOT_BASE));
    jet_db_close(db);
    /* the last user removes the lock file; nothing held any more */
    ck_assert_int_ne(access(ldb, F_OK), 0);
    ck_assert(!byte_held(path, JET_OS_USER_SLOT_BASE));
    db1 = jet_test_slurp(path, &n1);
    ck_assert(n0 == n1 && memcmp(db0, db1, n0) == 0);
    free(db1);
    free(db0);
    free(ldb0);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(lock_file_other_jetodbc_and_access_arriving_later)
{
    const char *src = jet_test_fixture("jackcess/V2010/testV2010.accdb");
    char path[64], ldb[80];
    jet_db *db, *db2;
    jet_error err;
    int ctl, ctl2;
    pid_t other, access_pid;
    size_t len;
    uint8_t *l;

    if (!src)
        return;
    copy_with_ext(path, sizeof path, src, ".accdb");
    ldb_of(ldb, sizeof ldb, path, ".laccdb");
    /* another jetodbc process in slot 0: user and marker bytes */
    write_record(ldb, 0, "LINUXBOX", "Admin");
    other = hold_bytes(path, JET_OS_USER_SLOT_BASE, JET_OS_USER_MARK_BASE,
                       &ctl);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    ck_assert(byte_held(path, JET_OS_USER_SLOT_BASE + 1));  /* ours */
    /* a second connection of this process takes a slot of its own */
    ck_assert_int_eq(jet_db_open(&db2, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db2), JET_OK);
    ck_assert_int_eq(jet_db_write_rollback(db2), JET_OK);
    ck_assert(byte_held(path, JET_OS_USER_SLOT_BASE + 2));
    jet_db_close(db2);
    ck_assert(!byte_held(path, JET_OS_USER_SLOT_BASE + 2));
    ck_assert(byte_held(path, JET_OS_USER_SLOT_BASE + 1));
    /* Access arrives in slot 5 while we are joined: the next write
     * transaction is refused */
    write_record(ldb, 5, "OFFICE", "carol");
    access_pid = hold_bytes(path, JET_OS_USER_SLOT_BASE + 5, 0, &ctl2);
    ck_assert_int_eq(jet_db_write_begin(db), JET_EREADONLY);
    ck_assert_msg(strstr(jet_db_error(db)->msg, "user carol on machine "
                         "OFFICE") != NULL, "%s", jet_db_error(db)->msg);
    release_bytes(access_pid, ctl2);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    /* the other process is still there: the file stays, our record goes */
    l = jet_test_slurp(ldb, &len);
    ck_assert_ptr_nonnull(l);
    ck_assert_uint_ge(len, 128);
    ck_assert_str_eq((const char *)l, "LINUXBOX");
    for (unsigned i = 64; i < 128; i++)
        ck_assert_uint_eq(l[i], 0);
    free(l);
    release_bytes(other, ctl);
    unlink(ldb);
    jet_test_remove_db(path);
}
END_TEST

/* A Jet that locks its slot on the lock file rather than the database
 * is seen too. */
START_TEST(lock_file_slot_locked_on_the_lock_file)
{
    const char *src = jet_test_fixture("jackcess/V2003/testV2003.mdb");
    char path[64], ldb[80];
    jet_db *db;
    jet_error err;
    int ctl;
    pid_t holder;

    if (!src)
        return;
    copy_with_ext(path, sizeof path, src, ".mdb");
    ldb_of(ldb, sizeof ldb, path, ".ldb");
    write_record(ldb, 3, "OLDPC", "dave");
    holder = hold_bytes(ldb, JET_OS_USER_SLOT_BASE + 3, 0, &ctl);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_EREADONLY);
    ck_assert_msg(strstr(jet_db_error(db)->msg, "user dave on machine "
                         "OLDPC") != NULL, "%s", jet_db_error(db)->msg);
    release_bytes(holder, ctl);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    ck_assert_int_ne(access(ldb, F_OK), 0);
    jet_test_remove_db(path);
}
END_TEST

/* os.c's lock bytes (64-bit off_t) */
#define PENDING_BYTE (0x80000000ULL * 3 / 2)
#define SHARED_FIRST (PENDING_BYTE + 2)

/* A reader takes the SHARED range and keeps it only while no writer waits
 * to commit: another process's write lock on PENDING (a writer waiting
 * for old readers) or on the SHARED range (a writer committing) keeps a
 * new read out (JET_EBUSY after the busy timeout), holding nothing. */
START_TEST(waiting_writer_keeps_new_readers_out)
{
    const char *src = source();
    const uint64_t held_by_writer[2] = { PENDING_BYTE, SHARED_FIRST + 7 };
    char path[64];
    jet_db *a;
    jet_error err;
    int ctl;
    pid_t holder;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "conc");
    ck_assert_int_eq(jet_db_open(&a, path, NULL, &err), JET_OK);
    jet_pagefile_set_busy_timeout(a->pf, 20);
    for (int k = 0; k < 2; k++) {
        holder = hold_bytes(path, held_by_writer[k], 0, &ctl);
        ck_assert_int_eq(jet_db_read_begin(a), JET_EBUSY);
        ck_assert_int_eq(jet_pager_state_of(a->pf), JET_PAGER_OPEN);
        ck_assert(!byte_held(path, SHARED_FIRST));
        release_bytes(holder, ctl);
        ck_assert_int_eq(jet_db_read_begin(a), JET_OK);
        ck_assert(byte_held(path, SHARED_FIRST));
        ck_assert(!byte_held(path, PENDING_BYTE));
        jet_db_read_end(a);
        ck_assert(!byte_held(path, SHARED_FIRST));
    }
    jet_db_close(a);
    jet_test_remove_db(path);
}
END_TEST

static Suite *concurrency_suite(void)
{
    Suite *s = suite_create("concurrency");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, scan_sees_one_commit_or_the_other);
    tcase_add_test(tc, two_writing_processes_serialise);
    tcase_add_test(tc, read_transactions_nest_and_hold_writers);
    tcase_add_test(tc, another_connections_commit_is_seen);
    tcase_add_test(tc, own_commits_keep_the_cache_others_are_seen);
    tcase_add_test(tc, advance_mtime_moves_past);
    tcase_add_test(tc, waiting_writer_keeps_new_readers_out);
    suite_add_tcase(s, tc);
    tc = tcase_create("lockfile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lock_file_live_access_user_refuses_writes);
    tcase_add_test(tc, lock_file_other_jetodbc_and_access_arriving_later);
    tcase_add_test(tc, lock_file_slot_locked_on_the_lock_file);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(concurrency_suite)
