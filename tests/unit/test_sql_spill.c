/*
 * test_sql_spill.c - sorts, groupings and hash joins past the memory
 * budget spill to a temporary file and answer exactly what they answer in
 * memory.
 *
 * Each statement runs twice on the same file: with a 512 MiB budget (in
 * memory) and with 1 MiB (MaxMemory=1: sorted runs and hash partitions
 * on disk). Rows must be equal; in the same order where ORDER BY or
 * DISTINCT fixes it (the whole row order is compared, ties included:
 * the spilled merge keeps the in-memory tie order), as a multiset
 * otherwise (spilled groups come partition by partition). The 1 MiB run
 * must really have spilled. Also: the temporary file never shows in
 * TMPDIR and is closed with the cursor; an unusable TMPDIR or a file
 * size limit (disk full) gives HY000, not a crash.
 */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../shared_dir.h"
#include "sql/cursor.h"
#include "sql/spill.h"
#include "sqltest.h"
#include "unit.h"

/* <shared>/fixtures/bulk/<name>, in a buffer of its own per name */
static const char *bulk_fixture(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/fixtures/bulk/%s", jet_shared_dir(), name);
    return buf;
}
static char bulk_buf[1024], perf_buf[1024];
#define BULK bulk_fixture(bulk_buf, sizeof bulk_buf, "bulk.accdb")
#define PERF bulk_fixture(perf_buf, sizeof perf_buf, "perf.accdb")

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Hash of one value by its type (no padding or unused union bytes). */
static uint64_t value_hash(uint64_t h, const jet_value *v)
{
    h = fnv(h, &v->is_null, 1);
    if (v->is_null)
        return h;
    switch (v->type) {
    case JET_T_BOOL:
        return fnv(h, &v->u.b, sizeof v->u.b);
    case JET_T_FLOAT:
        return fnv(h, &v->u.f, sizeof v->u.f);
    case JET_T_DOUBLE: case JET_T_DATETIME:
        return fnv(h, &v->u.d, sizeof v->u.d);
    case JET_T_NUMERIC:
        h = fnv(h, &v->u.num.scale, 1);
        h = fnv(h, &v->u.num.negative, 1);
        return fnv(h, v->u.num.mag, sizeof v->u.num.mag);
    case JET_T_GUID:
        return fnv(h, v->u.guid, sizeof v->u.guid);
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX: case JET_T_MONEY:
        return fnv(h, &v->u.i, sizeof v->u.i);
    default:
        return v->len ? fnv(h, v->data, v->len) : h;
    }
}

typedef struct result {
    long rows;
    uint64_t ordered;       /* hash of the row sequence */
    uint64_t sum, xored;    /* multiset of row hashes */
    bool spilled;
    unsigned passes;        /* merge passes before the last */
    char state[6];
    char msg[512];
} result;

/* Run sql on db with a budget of mib MiB into *r (rows -1: an error,
 * r->state and r->msg say which); mib 0: small_budget bytes. */
static size_t small_budget = (size_t)1 << 20;

static void run(jet_db *db, const char *sql, size_t mib, result *r)
{
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    sql_cursor_opts o;
    memset(r, 0, sizeof *r);
    memset(&o, 0, sizeof o);
    o.max_memory = mib ? mib << 20 : small_budget;
    r->rows = -1;
    r->ordered = 1469598103934665603ull;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err)
                  == 0, "%s: %s", sql, err.msg);
    if (sql_cursor_open(&c, st, NULL, &o, &err) != 0) {
        snprintf(r->state, sizeof r->state, "%s", err.sqlstate);
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        sql_stmt_free(st);
        return;
    }
    size_t ncols = sql_stmt_ncols(st);
    r->rows = 0;
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK) {
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < ncols; i++) {
            jet_value v;
            int vr = sql_cursor_value(c, i, &v);
            ck_assert_msg(vr == 0, "%s (%zu MiB): column %zu: %d %s %s",
                          sql, mib, i, vr, sql_cursor_error(c)->sqlstate,
                          sql_cursor_error(c)->msg);
            h = value_hash(h, &v);
        }
        r->ordered = fnv(r->ordered, &h, sizeof h);
        r->sum += h;
        r->xored ^= h * 0x9e3779b97f4a7c15ull;
        r->rows++;
    }
    if (rc != JET_DONE) {
        const sql_error *e = sql_cursor_error(c);
        snprintf(r->state, sizeof r->state, "%s", e->sqlstate);
        snprintf(r->msg, sizeof r->msg, "%s", e->msg);
        r->rows = -1;
    }
    r->spilled = c->spill != NULL;
    r->passes = c->merge_passes;
    sql_cursor_close(c);
    sql_stmt_free(st);
}

typedef struct query {
    const char *sql;
    bool ordered;           /* the whole row order is fixed */
} query;

static void compare_spilled(const char *path, const query *qs, size_t n)
{
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
    for (size_t i = 0; i < n; i++) {
        result big, small;
        run(db, qs[i].sql, 512, &big);
        run(db, qs[i].sql, 0, &small);
        ck_assert_msg(big.rows >= 0, "%s: %s %s", qs[i].sql, big.state,
                      big.msg);
        ck_assert_msg(small.rows >= 0, "%s (%zu bytes): %s %s", qs[i].sql,
                      small_budget, small.state, small.msg);
        ck_assert_msg(!big.spilled, "%s: spilled within 512 MiB", qs[i].sql);
        ck_assert_msg(small.spilled, "%s: did not spill within %zu bytes",
                      qs[i].sql, small_budget);
        ck_assert_msg(big.rows == small.rows, "%s: %ld rows in memory, %ld "
                      "spilled", qs[i].sql, big.rows, small.rows);
        ck_assert_msg(big.sum == small.sum && big.xored == small.xored,
                      "%s: spilled rows differ", qs[i].sql);
        if (qs[i].ordered)
            ck_assert_msg(big.ordered == small.ordered, "%s: spilled row "
                          "order differs", qs[i].sql);
    }
    jet_db_close(db);
}

START_TEST(bulk_sorts_and_groupings_spill_to_the_same_rows)
{
    static const query qs[] = {
        { "SELECT * FROM bulk ORDER BY label", true },
        { "SELECT * FROM bulk ORDER BY label DESC, amount", true },
        { "SELECT id, label FROM bulk ORDER BY created DESC", true },
        { "SELECT label, id FROM bulk ORDER BY Len(label), label DESC", true },
        { "SELECT DISTINCT label FROM bulk", true },
        { "SELECT DISTINCT label FROM bulk ORDER BY label DESC", true },
        /* DISTINCT of plain values runs as a grouping (spilled groups);
         * of a nested expression, as a sort of records (spilled runs) */
        { "SELECT DISTINCT Left(label, 6), id MOD 7 FROM bulk", true },
        { "SELECT DISTINCT Left(label, 4) & '', id MOD 7 FROM bulk", true },
        /* past SQL_TOPN_MAX: the full sort, spilled */
        { "SELECT TOP 10000 label, id FROM bulk ORDER BY label", true },
        /* top-N sort whose ties (half the table) pass the budget */
        { "SELECT TOP 3 id, label FROM bulk ORDER BY id MOD 2", true },
        { "SELECT TOP 5 PERCENT label, id FROM bulk ORDER BY label", true },
        { "SELECT label, id FROM bulk ORDER BY label OFFSET 1000 ROWS "
          "FETCH NEXT 5000 ROWS ONLY", true },
        { "SELECT label, COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi "
          "FROM bulk GROUP BY label", false },
        { "SELECT label, COUNT(*), SUM(amount), AVG(amount), StDev(amount), "
          "StDevP(amount), Var(amount), VarP(id), First(id), Last(id), "
          "First(created), Last(amount), MIN(created), MAX(amount), "
          "COUNT(DISTINCT id MOD 3) FROM bulk GROUP BY label", false },
        { "SELECT label AS k, First(label), Last(label), "
          "MIN(label), MAX(label), COUNT(DISTINCT label) FROM bulk "
          "GROUP BY label", false },
        { "SELECT label, COUNT(*) FROM bulk GROUP BY label "
          "HAVING COUNT(*) > 2 ORDER BY COUNT(*) DESC", true },
        { "SELECT id MOD 50000 AS k, label, SUM(id) FROM bulk "
          "GROUP BY id MOD 50000, label ORDER BY 1, 2", true },
        { "SELECT TOP 10 label, COUNT(*) FROM bulk GROUP BY label "
          "ORDER BY COUNT(*) DESC", true },
        { "SELECT label FROM bulk UNION SELECT label & 'x' FROM bulk "
          "ORDER BY 1", true },
    };
    compare_spilled(BULK, qs, sizeof qs / sizeof *qs);
}
END_TEST

/* NULLs (lowest, one group), numbers of every kind, text keys. */
START_TEST(perf_tables_with_nulls_spill_to_the_same_rows)
{
    static const query qs[] = {
        { "SELECT * FROM [numeric] ORDER BY i, l DESC", true },
        { "SELECT * FROM [numeric] ORDER BY d DESC, m", true },
        { "SELECT * FROM [numeric] ORDER BY dt, b, id DESC", true },
        { "SELECT * FROM [text] ORDER BY t50 DESC, t100", true },
        { "SELECT DISTINCT i MOD 100, b, m > 0 FROM [numeric]", true },
        { "SELECT DISTINCT Left(t50, 3), Right(t100, 1) FROM [text] "
          "ORDER BY 2 DESC", true },
        { "SELECT i, COUNT(*), COUNT(l), SUM(id), AVG(m), SUM(m), StDev(d), "
          "VarP(d), First(l), Last(m), First(dt), Last(d), MIN(dt), "
          "MAX(m), COUNT(DISTINCT b) FROM [numeric] GROUP BY i", false },
        { "SELECT t50, COUNT(*), First(t255), Last(t200), MAX(t100) "
          "FROM [text] GROUP BY t50", false },
        { "SELECT i, l MOD 10, COUNT(*), SUM(d) FROM [numeric] "
          "GROUP BY i, l MOD 10 ORDER BY i DESC, 2", true },
    };
    compare_spilled(PERF, qs, sizeof qs / sizeof *qs);
}
END_TEST

/* Files in dir whose name starts with jetodbc-spill. */
static int spill_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, "jetodbc-spill", 13))
            n++;
    closedir(d);
    return n;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d) != NULL)
        n++;
    closedir(d);
    return n;
}

START_TEST(temporary_file_never_left_behind)
{
    char dir[] = "/tmp/jetodbc-spilltest-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("TMPDIR", dir, 1);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, BULK, NULL, &jerr), JET_OK);
    const char *sql = "SELECT * FROM bulk ORDER BY label";
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    sql_cursor_opts o;
    memset(&o, 0, sizeof o);
    o.max_memory = (size_t)1 << 20;
    int fds = open_fds();
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    ck_assert_int_eq(sql_cursor_open(&c, st, NULL, &o, &err), 0);
    ck_assert_ptr_nonnull(c->spill);
    ck_assert_uint_gt(sql_spill_size(c->spill), 1u << 20);
    ck_assert_int_eq(sql_cursor_next(c), JET_OK);
    ck_assert_int_eq(spill_files(dir), 0);      /* unlinked at once */
    sql_cursor_close(c);                        /* before the last row */
    ck_assert_int_eq(spill_files(dir), 0);
    if (fds >= 0)
        ck_assert_int_eq(open_fds(), fds);      /* and closed */
    sql_stmt_free(st);
    jet_db_close(db);
    ck_assert_int_eq(rmdir(dir), 0);
    unsetenv("TMPDIR");
}
END_TEST

START_TEST(unusable_tmpdir_is_hy000_naming_it)
{
    setenv("TMPDIR", "/nonexistent/jetodbc-spill-dir", 1);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, BULK, NULL, &jerr), JET_OK);
    static const char *const sqls[] = {
        "SELECT * FROM bulk ORDER BY label",
        "SELECT label, COUNT(*) FROM bulk GROUP BY label",
    };
    for (size_t i = 0; i < 2; i++) {
        result r;
        run(db, sqls[i], 1, &r);
        ck_assert_int_eq(r.rows, -1);
        ck_assert_str_eq(r.state, "HY000");
        ck_assert_msg(strstr(r.msg, "/nonexistent/jetodbc-spill-dir") &&
                      strstr(r.msg, "TMPDIR"), "%s", r.msg);
    }
    jet_db_close(db);
    unsetenv("TMPDIR");
}
END_TEST

START_TEST(full_disk_is_hy000_not_a_crash)
{
    /* a file size limit: writes past it fail with EFBIG (SIGXFSZ
     * ignored, as a disk that is full fails with ENOSPC) */
    struct rlimit old, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, SIG_IGN);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, BULK, NULL, &jerr), JET_OK);
    lim = old;
    lim.rlim_cur = 256 << 10;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    static const char *const sqls[] = {
        "SELECT * FROM bulk ORDER BY label",
        "SELECT label, COUNT(*) FROM bulk GROUP BY label",
        "SELECT label, COUNT(*) FROM bulk GROUP BY label ORDER BY 2",
    };
    for (size_t i = 0; i < 3; i++) {
        result r;
        run(db, sqls[i], 1, &r);
        ck_assert_int_eq(r.rows, -1);
        ck_assert_str_eq(r.state, "HY000");
        ck_assert_msg(strstr(r.msg, "temporary file"), "%s", r.msg);
    }
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    jet_db_close(db);
}
END_TEST

/* A hash join's build side past the budget is partitioned to the
 * temporary file with its outer rows (grace hash join): INNER and LEFT
 * joins, NULL keys (no match; LEFT keeps the row), duplicate keys on
 * both sides, text and number keys, a join under GROUP BY and ORDER BY.
 * (a.x + 0 = b.x + 0: no index serves the key, so the plan hashes.) */
START_TEST(hash_joins_past_the_budget_spill_to_the_same_rows)
{
    static const query bulk[] = {
        { "SELECT a.id, b.id, b.label FROM bulk a INNER JOIN bulk b "
          "ON a.id + 0 = b.id + 0", false },
        { "SELECT a.id, b.amount FROM bulk a LEFT JOIN bulk b "
          "ON a.id + 0 = b.id + 100000", false },
        { "SELECT a.id, b.id FROM bulk a INNER JOIN bulk b "
          "ON a.id MOD 100000 = b.id MOD 100000", false },
        { "SELECT a.label, COUNT(*), MIN(b.id), MAX(b.created) FROM bulk a "
          "INNER JOIN bulk b ON a.id + 0 = b.id + 0 GROUP BY a.label", false },
        { "SELECT a.id, b.label FROM bulk a LEFT JOIN bulk b "
          "ON a.id + 0 = b.id + 0 AND b.amount > 0 ORDER BY a.id", true },
    };
    compare_spilled(BULK, bulk, sizeof bulk / sizeof *bulk);
    /* 64 KiB: perf.accdb's smaller tables spill too, partitions split */
    small_budget = (size_t)64 << 10;
    static const query perf[] = {
        /* i: 507 NULLs, -32768..32767 over 25,000 rows (duplicates) */
        { "SELECT a.id, b.id, b.l FROM [numeric] a LEFT JOIN [numeric] b "
          "ON a.i + 0 = b.i + 0", false },
        { "SELECT a.id, b.id FROM [numeric] a INNER JOIN [numeric] b "
          "ON a.i + 0 = b.i + 0", false },
        { "SELECT a.id, b.id, b.t100 FROM [text] a LEFT JOIN [text] b "
          "ON a.t50 = b.t50 & ''", false },
        { "SELECT o.order_id, c.city FROM orders o LEFT JOIN customers c "
          "ON o.customer_id + 0 = c.customer_id + 0", false },
    };
    compare_spilled(PERF, perf, sizeof perf / sizeof *perf);
    small_budget = (size_t)1 << 20;
}
END_TEST

/* With a tiny budget a sort makes hundreds of runs; they are merged a
 * few at a time (a reader per run holds a block, and the readers stay
 * within a quarter of the budget) in several passes, to the order and
 * rows of the in-memory sort. */
START_TEST(many_runs_merge_in_passes_to_the_same_order)
{
    static const char *const sqls[] = {
        "SELECT * FROM bulk ORDER BY label, amount DESC",
        "SELECT DISTINCT label FROM bulk",
        "SELECT TOP 1000 label, id FROM bulk ORDER BY label DESC",
    };
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, BULK, NULL, &jerr), JET_OK);
    small_budget = (size_t)64 << 10;
    for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
        result big, small;
        run(db, sqls[i], 512, &big);
        run(db, sqls[i], 0, &small);
        ck_assert_msg(small.rows >= 0, "%s: %s %s", sqls[i], small.state,
                      small.msg);
        ck_assert_msg(small.passes > 0, "%s: one merge pass", sqls[i]);
        ck_assert_msg(big.rows == small.rows && big.ordered == small.ordered,
                      "%s: %ld rows in memory, %ld merged in %u passes, or "
                      "another order", sqls[i], big.rows, small.rows,
                      small.passes);
    }
    small_budget = (size_t)1 << 20;
    jet_db_close(db);
}
END_TEST

static Suite *sql_spill_suite(void)
{
    Suite *s = suite_create("sql_spill");
    TCase *tc = tcase_create("spill");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, bulk_sorts_and_groupings_spill_to_the_same_rows);
    tcase_add_test(tc, perf_tables_with_nulls_spill_to_the_same_rows);
    tcase_add_test(tc, temporary_file_never_left_behind);
    tcase_add_test(tc, unusable_tmpdir_is_hy000_naming_it);
    tcase_add_test(tc, full_disk_is_hy000_not_a_crash);
    suite_add_tcase(s, tc);
    TCase *tj = tcase_create("join");
    tcase_set_timeout(tj, 600);
    tcase_add_test(tj, hash_joins_past_the_budget_spill_to_the_same_rows);
    suite_add_tcase(s, tj);
    TCase *tm = tcase_create("merge");
    tcase_set_timeout(tm, 600);
    tcase_add_test(tm, many_runs_merge_in_passes_to_the_same_order);
    suite_add_tcase(s, tm);
    return s;
}

int main(void)
{
    static const char *const needs[] = {
        "bulk/bulk.accdb", "bulk/perf.accdb", NULL
    };
    return sqlt_run(sql_spill_suite, needs);
}
