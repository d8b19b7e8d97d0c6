/*
 * test_odbc_timeout.c - SQL_ATTR_QUERY_TIMEOUT and SQLCancel through the
 * driver manager, on ../shared/fixtures/bulk/bulk.accdb (200,000 rows).
 *
 * The slow query: a WHERE clause that builds a 3.3 KB string per row
 * (nested CONCAT of the label, upper-cased) and matches it against a LIKE
 * pattern no row meets; it takes about ten seconds to the end (-O2, 2026),
 * so a 1 s timeout must stop it, at a page boundary, with HYT00 and
 * SQLCancel from another thread with HY008. The same for work that reads
 * no table, once the rows are in: sorting (an ORDER BY key compared value
 * by value: text mixed with a number), and passing over groups that
 * HAVING rejects; those loops check the flag every few thousand rows.
 * Joins too: a LEFT JOIN on an inequality that passes over the stored
 * inner rows without reading a page, and DISTINCT over a cross join.
 * Skipped (77) without the file.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "odbctest.h"
#include "../shared_dir.h"

#define BULK bulk_path()

#define C16 "CONCAT(label,label,label,label,label,label,label,label," \
            "label,label,label,label,label,label,label,label)"
#define C256 "CONCAT(" C16 "," C16 "," C16 "," C16 "," C16 "," C16 ","   \
             C16 "," C16 "," C16 "," C16 "," C16 "," C16 "," C16 ","      \
             C16 "," C16 "," C16 ")"
/* no label holds a '~': no row matches, every row costs the full work */
#define SLOW_WHERE " FROM bulk WHERE UCASE(" C256 ") LIKE '*~*'"

/* Sort phase: a key mixing a number (row 1) with long texts, so the sort
 * compares values (two General sort keys per comparison) instead of
 * binary keys: seconds of sorting after a fast read. */
#define SLOW_ORDER " FROM bulk ORDER BY IIf(id = 1, 0, " C16 ")"
/* Group phase: 200,000 groups read fast, then a HAVING no group meets,
 * costly per group (evaluated after all rows are read). */
#define SLOW_HAVING " FROM bulk GROUP BY id, label HAVING UCASE(" \
                    C256 ") LIKE '*~*'"

/* A LEFT JOIN on an inequality no pair meets (amounts are below 10^6):
 * every outer row passes over all 200,000 stored inner rows, hours in
 * all; ORDER BY label makes the execute read the whole join. */
#define SLOW_THETA_JOIN " FROM bulk a LEFT JOIN bulk b ON a.amount < " \
                        "b.amount - 1000000 ORDER BY a.label"
/* A cross join's DISTINCT: 4 * 10^10 pairs to store. */
#define SLOW_CROSS_DISTINCT " FROM bulk a, bulk b"

static SQLHENV env;
static SQLHDBC dbc;

/* <shared>/fixtures/bulk/bulk.accdb (static buffer). */
static const char *bulk_path(void)
{
    static char p[1024];
    snprintf(p, sizeof p, "%s/fixtures/bulk/bulk.accdb", jet_shared_dir());
    return p;
}

static void setup(void)
{
    odbct_connect_path(&env, &dbc, BULK);
}

static void teardown(void)
{
    odbct_disconnect(env, dbc);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

static void set_timeout(SQLHSTMT st, SQLULEN seconds)
{
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT,
                            (SQLPOINTER)(uintptr_t)seconds, 0));
}

/* COUNT(*) of bulk on st: the statement still works after an error. */
static void expect_count_works(SQLHSTMT st)
{
    SQLINTEGER n = 0;
    SQLLEN ind;
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*) FROM bulk",
                           SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_SLONG, &n, 0, &ind));
    ck_assert_int_eq(n, 200000);
    SQLFreeStmt(st, SQL_CLOSE);
}

START_TEST(timeout_stops_a_slow_aggregate_at_execute_with_HYT00)
{
    SQLHSTMT st = new_stmt();
    SQLULEN got = 0;
    double t0, dt;
    SQLRETURN r;
    set_timeout(st, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, &got, 0, NULL));
    ck_assert_uint_eq(got, 1);
    t0 = now_s();
    r = SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*)" SLOW_WHERE, SQL_NTS);
    dt = now_s() - t0;
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYT00");
    ck_assert_msg(dt >= 0.9 && dt < 6.0, "stopped after %.2f s", dt);
    set_timeout(st, 0);
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(timeout_stops_a_slow_fetch_of_a_streaming_scan_with_HYT00)
{
    SQLHSTMT st = new_stmt();
    double t0, dt;
    SQLRETURN r;
    set_timeout(st, 1);
    /* streaming: execute returns at once, the first fetch does the work */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT id" SLOW_WHERE, SQL_NTS));
    t0 = now_s();
    r = SQLFetch(st);
    dt = now_s() - t0;
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYT00");
    ck_assert_msg(dt >= 0.9 && dt < 6.0, "stopped after %.2f s", dt);
    set_timeout(st, 0);     /* (a loaded ASan run may need > 1 s) */
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(timeout_zero_or_long_lets_quick_queries_finish)
{
    SQLHSTMT st = new_stmt();
    set_timeout(st, 0);
    expect_count_works(st);
    set_timeout(st, 3600);
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Run sql with a 1 s timeout: HYT00 from the execute or the first fetch,
 * within a few seconds (the whole query takes far longer). */
static void expect_timeout(const char *sql)
{
    SQLHSTMT st = new_stmt();
    double t0, dt;
    SQLRETURN r;
    set_timeout(st, 1);
    t0 = now_s();
    r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (SQL_SUCCEEDED(r))
        r = SQLFetch(st);
    dt = now_s() - t0;
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYT00");
    ck_assert_msg(dt >= 0.9 && dt < 6.0, "stopped after %.2f s", dt);
    set_timeout(st, 0);
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

START_TEST(timeout_stops_a_slow_sort_with_HYT00)
{
    expect_timeout("SELECT id" SLOW_ORDER);
}
END_TEST

START_TEST(timeout_stops_a_slow_pass_over_groups_with_HYT00)
{
    expect_timeout("SELECT id, COUNT(*)" SLOW_HAVING);
}
END_TEST

START_TEST(timeout_stops_a_left_join_on_an_inequality_with_HYT00)
{
    expect_timeout("SELECT a.id, b.id" SLOW_THETA_JOIN);
}
END_TEST

START_TEST(timeout_stops_distinct_over_a_cross_join_with_HYT00)
{
    expect_timeout("SELECT DISTINCT a.amount + b.amount" SLOW_CROSS_DISTINCT);
}
END_TEST

typedef struct canceller {
    SQLHSTMT st;
    SQLRETURN r;
} canceller;

static void *cancel_later(void *arg)
{
    canceller *c = arg;
    usleep(300 * 1000);
    c->r = SQLCancel(c->st);
    return NULL;
}

/* SQLCancel once the rows of SLOW_ORDER are read and sorting runs. */
static void *cancel_sort_later(void *arg)
{
    canceller *c = arg;
    usleep(2000 * 1000);
    c->r = SQLCancel(c->st);
    return NULL;
}

/* Run sql on a new statement while cancel_fn, on another thread, calls
 * SQLCancel: the run fails with HY008 within max_s seconds and the
 * statement runs a COUNT afterwards. timeout: the statement's query
 * timeout in seconds, set first (0: left alone). */
static void expect_cancelled(SQLULEN timeout, void *(*cancel_fn)(void *),
                             const char *sql, double max_s)
{
    SQLHSTMT st = new_stmt();
    canceller c = { st, SQL_ERROR };
    pthread_t th;
    double t0, dt;
    SQLRETURN r;
    if (timeout)
        set_timeout(st, timeout);
    ck_assert_int_eq(pthread_create(&th, NULL, cancel_fn, &c), 0);
    t0 = now_s();
    r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    dt = now_s() - t0;
    pthread_join(th, NULL);
    ck_assert_int_eq(c.r, SQL_SUCCESS);
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY008");
    ck_assert_msg(dt < max_s, "stopped after %.2f s", dt);
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

START_TEST(cancel_from_another_thread_stops_execute_with_HY008)
{
    expect_cancelled(30, cancel_later, "SELECT COUNT(*)" SLOW_WHERE, 6.0);
}
END_TEST

START_TEST(cancel_from_another_thread_stops_a_sort_with_HY008)
{
    expect_cancelled(0, cancel_sort_later, "SELECT id" SLOW_ORDER, 8.0);
}
END_TEST

/* Streaming, each fetch passes over the 200,000 stored inner rows to
 * give one null-extended row: SQLCancel from another thread during the
 * fetch loop stops the fetch it lands in, with HY008. */
START_TEST(cancel_from_another_thread_stops_a_left_join_on_an_inequality)
{
    SQLHSTMT st = new_stmt();
    canceller c = { st, SQL_ERROR };
    pthread_t th;
    double t0, dt;
    SQLRETURN r;
    SQLLEN rows = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT a.id FROM bulk a LEFT JOIN "
                           "bulk b ON a.amount < b.amount - 1000000",
                           SQL_NTS));
    ck_assert_int_eq(pthread_create(&th, NULL, cancel_later, &c), 0);
    t0 = now_s();
    while ((r = SQLFetch(st)) == SQL_SUCCESS && now_s() - t0 < 60)
        rows++;
    dt = now_s() - t0;
    pthread_join(th, NULL);
    ck_assert_int_eq(c.r, SQL_SUCCESS);
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY008");
    ck_assert_msg(dt < 6.0, "stopped after %.2f s (%ld rows)", dt, (long)rows);
    ck_assert_int_lt(rows, 200000);
    expect_count_works(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *timeout_suite(void)
{
    Suite *s = suite_create("odbc_timeout");
    TCase *tc = tcase_create("timeout");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, timeout_stops_a_slow_aggregate_at_execute_with_HYT00);
    tcase_add_test(tc,
                   timeout_stops_a_slow_fetch_of_a_streaming_scan_with_HYT00);
    tcase_add_test(tc, timeout_zero_or_long_lets_quick_queries_finish);
    tcase_add_test(tc, cancel_from_another_thread_stops_execute_with_HY008);
    tcase_add_test(tc, timeout_stops_a_slow_sort_with_HYT00);
    tcase_add_test(tc, timeout_stops_a_slow_pass_over_groups_with_HYT00);
    tcase_add_test(tc, cancel_from_another_thread_stops_a_sort_with_HY008);
    tcase_add_test(tc, timeout_stops_a_left_join_on_an_inequality_with_HYT00);
    tcase_add_test(tc, timeout_stops_distinct_over_a_cross_join_with_HYT00);
    tcase_add_test(tc,
                   cancel_from_another_thread_stops_a_left_join_on_an_inequality);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int skip;
    if (access(BULK, R_OK) != 0) {
        printf("SKIP: %s absent\n", BULK);
        return 77;
    }
    skip = odbct_setup();
    if (skip)
        return skip;
    SRunner *sr = srunner_create(timeout_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    odbct_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
