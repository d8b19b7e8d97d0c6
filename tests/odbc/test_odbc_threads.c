/*
 * test_odbc_threads.c - concurrent use through the driver manager with
 * unixODBC's Threading=0 (odbctest.c registers the driver so): the driver
 * manager serialises nothing, so these calls meet in the driver at once.
 *
 * Several threads each run their own statements on one shared connection,
 * on connections of their own (one shared environment), and while the
 * main thread cancels (SQLCancel) a slow query another thread runs on
 * bulk.accdb. Every thread checks that its results hash to what one
 * thread alone read. Run under ThreadSanitizer by .ci/run (run_tsan picks
 * the tests that start threads).
 *
 * SQLCancel targets a statement inside one long driver call, as in
 * test_odbc_timeout: unixODBC's SQLCancel (2.3.11, SQLCancel.c) takes no
 * lock below Threading=3 and clears the statement's error list and moves
 * its state as SQLFreeStmt(SQL_CLOSE) would, so cancelling a statement
 * whose thread is between calls races inside the driver manager itself
 * (TSan sees its free and malloc), whatever the driver does; at
 * Threading=3 it waits for the running call instead.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "../shared_dir.h"

#define NTHREADS 4
#define ROUNDS 3

static const char *const queries[] = {
    "SELECT * FROM Orders",
    "SELECT CustomerID, CompanyName, City FROM Customers ORDER BY CompanyName",
    "SELECT o.OrderID, c.CompanyName, o.Freight FROM Orders o INNER JOIN "
    "Customers c ON o.CustomerID = c.CustomerID WHERE o.Freight > 50",
};
#define NQ (sizeof queries / sizeof queries[0])

/* What one thread alone read: per query, per fetch style. */
static uint64_t expect[NQ][2];

static SQLHENV env;
static SQLHDBC dbc;
static char nwind_cs[1200];     /* odbct_nwind_connstr()'s, copied once */

/* A thread's outcome, checked by the main thread. */
typedef struct worker {
    int id;
    SQLHDBC dbc;            /* shared, or NULL: the worker connects */
    int failures;
    char why[512];
    long canceled;          /* queries that ended with HY008 */
} worker;

/* SQLSTATE and message of st's first record into why (odbct_state's
 * buffers are static: not for threads); whether the state is HY008. */
static bool stmt_canceled(SQLHSTMT st, char *why, size_t whycap)
{
    SQLCHAR state[6] = "", msg[140] = "";
    SQLINTEGER native;
    SQLSMALLINT len;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native,
                                     msg, sizeof msg, &len)))
        state[0] = '\0';
    snprintf(why, whycap, "%s %s", (char *)state, (char *)msg);
    return !strcmp((const char *)state, "HY008");
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* Execute query q on st and hash every value as SQL_C_CHAR: style 0 with
 * SQLGetData, 1 with bound columns and 16-row arrays. Returns 0, 1 when
 * it was canceled (HY008), -1 on any other failure (why filled). */
static int run_query(SQLHSTMT st, size_t q, int style, uint64_t *out,
                     char *why, size_t whycap)
{
    enum { MAXC = 16, ROWS = 16, W = 256 };
    static __thread char vals[MAXC][ROWS][W];
    static __thread SQLLEN inds[MAXC][ROWS];
    SQLSMALLINT nc = 0;
    SQLULEN got = 0;
    uint64_t h = 1469598103934665603ULL;
    SQLRETURN r;

    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    r = SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
                       (SQLPOINTER)(uintptr_t)(style ? ROWS : 1), 0);
    if (SQL_SUCCEEDED(r))
        r = SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &got, 0);
    if (SQL_SUCCEEDED(r))
        r = SQLExecDirect(st, (SQLCHAR *)queries[q], SQL_NTS);
    if (SQL_SUCCEEDED(r))
        r = SQLNumResultCols(st, &nc);
    if (!SQL_SUCCEEDED(r) || nc < 1 || nc > MAXC) {
        char d[160];
        if (stmt_canceled(st, d, sizeof d))
            return 1;
        snprintf(why, whycap, "execute of query %zu: %d %s", q, (int)r, d);
        return -1;
    }
    if (style)
        for (SQLSMALLINT c = 0; c < nc; c++)
            SQLBindCol(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR, vals[c][0], W,
                       inds[c]);
    while ((r = SQLFetch(st)) != SQL_NO_DATA) {
        if (!SQL_SUCCEEDED(r))
            break;
        SQLULEN nrows = style ? got : 1;
        for (SQLULEN i = 0; i < nrows; i++) {
            for (SQLSMALLINT c = 0; c < nc; c++) {
                char *v = vals[c][i];
                SQLLEN *ind = &inds[c][i];
                if (!style) {
                    r = SQLGetData(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR, v,
                                   W, ind);
                    if (!SQL_SUCCEEDED(r))
                        goto failed;
                }
                h = fnv(h, ind, sizeof *ind);
                if (*ind >= 0)
                    h = fnv(h, v, strlen(v));
            }
        }
    }
    if (r == SQL_NO_DATA) {
        SQLFreeStmt(st, SQL_CLOSE);
        *out = h;
        return 0;
    }
failed:;
    char d[160];
    if (stmt_canceled(st, d, sizeof d)) {
        SQLFreeStmt(st, SQL_CLOSE);
        return 1;
    }
    snprintf(why, whycap, "fetch of query %zu (style %d): %d %s", q, style,
             (int)r, d);
    return -1;
}

/* Each query in each style ROUNDS times on two statements of dbc (so that
 * statements of one connection interleave within the thread too). */
static void *work(void *arg)
{
    worker *w = arg;
    SQLHDBC d = w->dbc;
    SQLHSTMT st[2] = {NULL, NULL};
    if (!d) {
        if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, env, &d)) ||
            !SQL_SUCCEEDED(SQLDriverConnect(d, NULL, (SQLCHAR *)nwind_cs,
                                            SQL_NTS,
                                            NULL, 0, NULL,
                                            SQL_DRIVER_NOPROMPT))) {
            snprintf(w->why, sizeof w->why, "thread %d: connect failed",
                     w->id);
            w->failures++;
            return NULL;
        }
    }
    for (int k = 0; k < 2; k++)
        if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, d, &st[k]))) {
            snprintf(w->why, sizeof w->why, "thread %d: no statement", w->id);
            w->failures++;
            goto out;
        }
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < NQ * 2; i++) {
            size_t q = (i + (size_t)w->id) % NQ;
            int style = (int)((i / NQ + (size_t)w->id + (size_t)round) % 2);
            uint64_t h = 0;
            int rc = run_query(st[i % 2], q, style, &h, w->why, sizeof w->why);
            if (rc == 1) {
                w->canceled++;
            } else if (rc < 0) {
                w->failures++;
            } else if (h != expect[q][style]) {
                snprintf(w->why, sizeof w->why, "thread %d: query %zu style "
                         "%d hashed %016llx, alone %016llx", w->id, q, style,
                         (unsigned long long)h,
                         (unsigned long long)expect[q][style]);
                w->failures++;
            }
        }
    }
out:
    for (int k = 0; k < 2; k++)
        if (st[k])
            SQLFreeHandle(SQL_HANDLE_STMT, st[k]);
    if (!w->dbc) {
        SQLDisconnect(d);
        SQLFreeHandle(SQL_HANDLE_DBC, d);
    }
    return NULL;
}

static void setup(void)
{
    snprintf(nwind_cs, sizeof nwind_cs, "%s", odbct_nwind_connstr());
    odbct_connect(&env, &dbc, nwind_cs);
    SQLHSTMT st;
    ck_assert(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st)));
    for (size_t q = 0; q < NQ; q++)
        for (int style = 0; style < 2; style++) {
            char why[512] = "";
            ck_assert_msg(run_query(st, q, style, &expect[q][style], why,
                                    sizeof why) == 0, "%s", why);
        }
    ck_assert_uint_eq(expect[0][0], expect[0][1]);  /* both styles agree */
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void teardown(void)
{
    odbct_disconnect(env, dbc);
}

static void start_workers(pthread_t *th, worker *w, int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, work, &w[i]), 0);
}

static void join_workers(pthread_t *th, worker *w, int n)
{
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(w[i].failures == 0, "%s", w[i].why);
        ck_assert_int_eq(w[i].canceled, 0);
    }
}

static void run_workers(worker *w, int n)
{
    pthread_t th[NTHREADS];
    start_workers(th, w, n);
    join_workers(th, w, n);
}

START_TEST(statements_of_one_connection_in_parallel_threads)
{
    worker w[NTHREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].id = i;
        w[i].dbc = dbc;
    }
    run_workers(w, NTHREADS);
}
END_TEST

START_TEST(connections_of_their_own_in_parallel_threads)
{
    worker w[NTHREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < NTHREADS; i++)
        w[i].id = i;
    run_workers(w, NTHREADS);
}
END_TEST

/* The slow query of test_odbc_timeout: about ten seconds on bulk.accdb
 * (a 3.3 KB string built and matched per row; no row matches). */
#define C16 "CONCAT(label,label,label,label,label,label,label,label," \
            "label,label,label,label,label,label,label,label)"
#define C256 "CONCAT(" C16 "," C16 "," C16 "," C16 "," C16 "," C16 ","   \
             C16 "," C16 "," C16 "," C16 "," C16 "," C16 "," C16 ","      \
             C16 "," C16 "," C16 ")"
#define SLOW "SELECT COUNT(*) FROM bulk WHERE UCASE(" C256 ") LIKE '*~*'"

typedef struct slow_query {
    SQLHDBC dbc;
    SQLHSTMT st;
    int started;            /* atomic: SQLExecDirect is about to run */
    SQLRETURN r;
    char why[200];
} slow_query;

static void *run_slow(void *arg)
{
    slow_query *q = arg;
    __atomic_store_n(&q->started, 1, __ATOMIC_RELEASE);
    q->r = SQLExecDirect(q->st, (SQLCHAR *)SLOW, SQL_NTS);
    if (q->r == SQL_ERROR)
        stmt_canceled(q->st, q->why, sizeof q->why);
    return NULL;
}

START_TEST(sqlcancel_from_another_thread_while_others_fetch)
{
    /* a slow query on a bulk.accdb connection; two threads on the shared
     * nwind connection and two on their own read on meanwhile; the main
     * thread cancels the slow one, which stops with HY008 while the
     * others finish with what one thread alone read */
    char path[1024], cs[1100];
    snprintf(path, sizeof path, "%s/fixtures/bulk/bulk.accdb",
             jet_shared_dir());
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "no %s: cancel case not run\n", path);
        return;
    }
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    slow_query sq;
    memset(&sq, 0, sizeof sq);
    ck_assert(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, env, &sq.dbc)));
    ODBCT_OK(SQL_HANDLE_DBC, sq.dbc,
             SQLDriverConnect(sq.dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0,
                              NULL, SQL_DRIVER_NOPROMPT));
    ck_assert(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, sq.dbc, &sq.st)));

    worker w[NTHREADS];
    pthread_t th[NTHREADS], slow;
    memset(w, 0, sizeof w);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].id = i;
        w[i].dbc = i % 2 ? dbc : NULL;
    }
    ck_assert_int_eq(pthread_create(&slow, NULL, run_slow, &sq), 0);
    start_workers(th, w, NTHREADS);
    while (!__atomic_load_n(&sq.started, __ATOMIC_ACQUIRE))
        usleep(1000);
    usleep(300000);
    ck_assert_int_eq(SQLCancel(sq.st), SQL_SUCCESS);
    pthread_join(slow, NULL);
    join_workers(th, w, NTHREADS);
    ck_assert_msg(sq.r == SQL_ERROR && strncmp(sq.why, "HY008", 5) == 0,
                  "slow query returned %d: %s", (int)sq.r, sq.why);
    SQLFreeHandle(SQL_HANDLE_STMT, sq.st);
    SQLDisconnect(sq.dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, sq.dbc);
}
END_TEST

static Suite *threads_suite(void)
{
    Suite *s = suite_create("odbc_threads");
    TCase *tc = tcase_create("threads");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, statements_of_one_connection_in_parallel_threads);
    tcase_add_test(tc, connections_of_their_own_in_parallel_threads);
    tcase_add_test(tc, sqlcancel_from_another_thread_while_others_fetch);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(threads_suite)
