/*
 * test_odbc_scroll.c - static (scrollable) cursors through the driver
 * manager: SQLFetchScroll in every orientation with rowsets of 1 and 7
 * rows over nwind Orders and the 200k-row bulk table, each row checked
 * against a forward-only scan of the same query (bookmarks, row numbers,
 * row status and rows-fetched included); the positioning rules' edges
 * (before start, after end, partial rowsets, 01S06); SQLSetPos +
 * SQLGetData on a positioned row (a Memo in pieces); SQLExtendedFetch;
 * the cursor attributes and SQLGetInfo answers that keep a driver
 * manager from loading its cursor library; and the peak memory of a
 * static cursor over bulk (ru_maxrss <= 64 MB).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;

#define MAXCOLS 16
#define CELL 512
#define MAXSET 7

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
}

static void teardown(void)
{
    odbct_disconnect(env, dbc);
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* The hash of one row's cells (text, or NULL). */
static uint64_t cell_hash(uint64_t h, const char *text, SQLLEN ind)
{
    if (ind == SQL_NULL_DATA)
        return fnv(h, "\x01NULL", 5);
    return fnv(fnv(h, text, strlen(text)), "\x1f", 1);
}

/* Every row of sql through a forward-only cursor, as hashes (malloc'ed,
 * *n rows). */
static uint64_t *forward_scan(const char *sql, size_t *n, SQLSMALLINT *ncols)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, ncols));
    ck_assert_int_le(*ncols, MAXCOLS);
    size_t cap = 1024, k = 0;
    uint64_t *h = malloc(cap * sizeof *h);
    char buf[CELL];
    SQLRETURN r;
    while ((r = SQLFetch(st)) == SQL_SUCCESS) {
        if (k == cap)
            h = realloc(h, (cap *= 2) * sizeof *h);
        uint64_t x = 1469598103934665603ull;
        for (SQLUSMALLINT c = 1; c <= *ncols; c++) {
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLGetData(st, c, SQL_C_CHAR, buf, sizeof buf, &ind));
            x = cell_hash(x, buf, ind);
        }
        h[k++] = x;
    }
    ck_assert_int_eq(r, SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    *n = k;
    return h;
}

/* A static cursor with every column bound (column-wise, rowset arrays)
 * and the bookmark column 0. */
typedef struct scroller {
    SQLHSTMT st;
    SQLSMALLINT ncols;
    SQLULEN n;                  /* rowset size */
    char cells[MAXCOLS][MAXSET][CELL];
    SQLLEN ind[MAXCOLS][MAXSET];
    uint32_t bm[MAXSET];
    SQLLEN bm_ind[MAXSET];
    SQLUSMALLINT status[MAXSET + 1];
    SQLULEN fetched;
    const uint64_t *fwd;        /* the forward scan */
    size_t nfwd;
} scroller;

static scroller *scroller_open(const char *sql, SQLULEN n, const uint64_t *fwd,
                               size_t nfwd, SQLSMALLINT ncols)
{
    scroller *s = calloc(1, sizeof *s);
    s->n = n;
    s->fwd = fwd;
    s->nfwd = nfwd;
    s->ncols = ncols;
    s->st = new_stmt();
    SQLHSTMT st = s->st;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                            (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_USE_BOOKMARKS,
                            (SQLPOINTER)SQL_UB_VARIABLE, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)n, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, s->status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &s->fetched, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 0, SQL_C_VARBOOKMARK, s->bm, sizeof s->bm[0],
                        s->bm_ind));
    for (SQLSMALLINT c = 0; c < ncols; c++)
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindCol(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR,
                            s->cells[c], CELL, s->ind[c]));
    return s;
}

static void scroller_close(scroller *s)
{
    SQLFreeHandle(SQL_HANDLE_STMT, s->st);
    free(s);
}

/* Check the rowset just fetched: it starts at row `start` (1-based) and
 * holds the rows the forward scan has there. */
static void check_rowset(scroller *s, size_t start, const char *what)
{
    size_t want = start + s->n - 1 <= s->nfwd ? s->n : s->nfwd - start + 1;
    ck_assert_msg(s->fetched == want, "%s: %lu rows fetched at %zu, want %zu",
                  what, (unsigned long)s->fetched, start, want);
    for (SQLULEN r = 0; r < s->n; r++) {
        if (r >= want) {
            ck_assert_int_eq(s->status[r], SQL_ROW_NOROW);
            continue;
        }
        ck_assert_int_eq(s->status[r], SQL_ROW_SUCCESS);
        uint64_t x = 1469598103934665603ull;
        for (SQLSMALLINT c = 0; c < s->ncols; c++)
            x = cell_hash(x, s->cells[c][r], s->ind[c][r]);
        ck_assert_msg(x == s->fwd[start - 1 + r], "%s: row %zu differs from "
                      "the forward scan", what, start + r);
        ck_assert_int_eq(s->bm_ind[r], 4);
        ck_assert_uint_eq(s->bm[r], start + r);
    }
    SQLULEN rn = 0;
    ODBCT_OK(SQL_HANDLE_STMT, s->st,
             SQLGetStmtAttr(s->st, SQL_ATTR_ROW_NUMBER, &rn, 0, NULL));
    ck_assert_uint_eq(rn, start);
}

/* FetchScroll expecting the rowset at `start` (0 = SQL_NO_DATA). */
static void scroll_to(scroller *s, SQLSMALLINT o, SQLLEN off, size_t start,
                      SQLRETURN want_ret)
{
    char what[96];
    snprintf(what, sizeof what, "orientation %d offset %ld rowset %lu", o,
             (long)off, (unsigned long)s->n);
    SQLRETURN r = SQLFetchScroll(s->st, o, off);
    if (start == 0) {
        ck_assert_msg(r == SQL_NO_DATA, "%s: returned %d, want NO_DATA (%s)",
                      what, (int)r, odbct_state(SQL_HANDLE_STMT, s->st));
        return;
    }
    ck_assert_msg(r == want_ret, "%s: returned %d, want %d (%s %s)", what,
                  (int)r, (int)want_ret, odbct_state(SQL_HANDLE_STMT, s->st),
                  odbct_message(SQL_HANDLE_STMT, s->st));
    if (want_ret == SQL_SUCCESS_WITH_INFO)
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, s->st), "01S06");
    check_rowset(s, start, what);
}

#define OK_ SQL_SUCCESS

/* Every orientation over a result of N rows (all of them when `every`,
 * else a sample of positions). */
static void scroll_everything(scroller *s, bool every)
{
    size_t N = s->nfwd, n = s->n;
    ck_assert_uint_ge(N, 3 * n);
    /* NEXT from before the start to past the end */
    size_t stride = every ? 1 : 997;
    size_t at = 1;
    scroll_to(s, SQL_FETCH_NEXT, 0, 1, OK_);
    while (at + n <= N) {
        if (!every && at > 20 * n && at + 20 * n < N) {
            /* skip ahead: RELATIVE is NEXT's long step */
            size_t step = (stride / n + 1) * n;
            if (at + step + 20 * n < N) {
                at += step;
                scroll_to(s, SQL_FETCH_RELATIVE, (SQLLEN)step, at, OK_);
                continue;
            }
        }
        at += n;
        scroll_to(s, SQL_FETCH_NEXT, 0, at, OK_);
    }
    scroll_to(s, SQL_FETCH_NEXT, 0, 0, OK_);            /* after end */
    scroll_to(s, SQL_FETCH_NEXT, 0, 0, OK_);
    /* PRIOR from after the end back to before the start */
    at = N >= n ? N - n + 1 : 1;
    scroll_to(s, SQL_FETCH_PRIOR, 0, at, OK_);
    while (at > n) {
        if (!every && at > 20 * n && at < N - 20 * n) {
            size_t step = (stride / n + 1) * n;
            if (at > step + 20 * n) {
                at -= step;
                scroll_to(s, SQL_FETCH_RELATIVE, -(SQLLEN)step, at, OK_);
                continue;
            }
        }
        at -= n;
        scroll_to(s, SQL_FETCH_PRIOR, 0, at, OK_);
    }
    if (at > 1)     /* a partial step back: the first rowset, 01S06 */
        scroll_to(s, SQL_FETCH_PRIOR, 0, 1, SQL_SUCCESS_WITH_INFO);
    scroll_to(s, SQL_FETCH_PRIOR, 0, 0, OK_);           /* before start */
    scroll_to(s, SQL_FETCH_PRIOR, 0, 0, OK_);
    scroll_to(s, SQL_FETCH_NEXT, 0, 1, OK_);
    /* FIRST, LAST */
    scroll_to(s, SQL_FETCH_LAST, 0, N - n + 1, OK_);
    scroll_to(s, SQL_FETCH_FIRST, 0, 1, OK_);
    scroll_to(s, SQL_FETCH_LAST, 0, N - n + 1, OK_);
    scroll_to(s, SQL_FETCH_NEXT, 0, 0, OK_);
    /* ABSOLUTE */
    size_t picks[] = {1, 2, n, n + 1, N / 3, N / 2, N - n, N - 1, N};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        scroll_to(s, SQL_FETCH_ABSOLUTE, (SQLLEN)picks[i], picks[i], OK_);
        scroll_to(s, SQL_FETCH_ABSOLUTE, -(SQLLEN)picks[i],
                  N - picks[i] + 1, OK_);
    }
    for (size_t k = 3; k < N; k += every ? 5 : 7919)
        scroll_to(s, SQL_FETCH_ABSOLUTE, (SQLLEN)k, k, OK_);
    scroll_to(s, SQL_FETCH_ABSOLUTE, 0, 0, OK_);        /* before start */
    scroll_to(s, SQL_FETCH_NEXT, 0, 1, OK_);
    scroll_to(s, SQL_FETCH_ABSOLUTE, (SQLLEN)N + 1, 0, OK_);
    scroll_to(s, SQL_FETCH_PRIOR, 0, N - n + 1, OK_);
    scroll_to(s, SQL_FETCH_ABSOLUTE, -(SQLLEN)N - 1, 0, OK_);
    /* RELATIVE, from a rowset and from either end */
    scroll_to(s, SQL_FETCH_ABSOLUTE, 10, 10, OK_);
    scroll_to(s, SQL_FETCH_RELATIVE, 5, 15, OK_);
    scroll_to(s, SQL_FETCH_RELATIVE, -3, 12, OK_);
    scroll_to(s, SQL_FETCH_RELATIVE, 0, 12, OK_);       /* refresh */
    scroll_to(s, SQL_FETCH_RELATIVE, (SQLLEN)N, 0, OK_);  /* after end */
    scroll_to(s, SQL_FETCH_RELATIVE, -2, N - 1, OK_);   /* as ABSOLUTE -2 */
    scroll_to(s, SQL_FETCH_ABSOLUTE, 2, 2, OK_);
    scroll_to(s, SQL_FETCH_RELATIVE, -1, 1, OK_);
    scroll_to(s, SQL_FETCH_RELATIVE, -1, 0, OK_);       /* before start */
    scroll_to(s, SQL_FETCH_RELATIVE, 4, 4, OK_);        /* as ABSOLUTE 4 */
    if (n > 1)
        scroll_to(s, SQL_FETCH_RELATIVE, -(SQLLEN)n + 1, 1,
                  SQL_SUCCESS_WITH_INFO);
    /* BOOKMARK: the bookmark of some row, then away and back */
    uint32_t bm;
    for (size_t k = 1; k < N; k += every ? 53 : 20011) {
        scroll_to(s, SQL_FETCH_ABSOLUTE, (SQLLEN)k, k, OK_);
        bm = s->bm[s->fetched - 1];
        size_t row = k + s->fetched - 1;
        ODBCT_OK(SQL_HANDLE_STMT, s->st,
                 SQLSetStmtAttr(s->st, SQL_ATTR_FETCH_BOOKMARK_PTR, &bm, 0));
        scroll_to(s, SQL_FETCH_LAST, 0, N - n + 1, OK_);
        scroll_to(s, SQL_FETCH_BOOKMARK, 0, row, OK_);
        scroll_to(s, SQL_FETCH_FIRST, 0, 1, OK_);
        if (row > 1)
            scroll_to(s, SQL_FETCH_BOOKMARK, -1, row - 1, OK_);
        scroll_to(s, SQL_FETCH_BOOKMARK, (SQLLEN)(N - row + 1), 0, OK_);
    }
    ODBCT_OK(SQL_HANDLE_STMT, s->st,
             SQLSetStmtAttr(s->st, SQL_ATTR_FETCH_BOOKMARK_PTR, NULL, 0));
}

static void scroll_query(const char *sql, bool every)
{
    size_t N;
    SQLSMALLINT ncols;
    uint64_t *fwd = forward_scan(sql, &N, &ncols);
    SQLULEN sizes[] = {1, MAXSET};
    for (int i = 0; i < 2; i++) {
        scroller *s = scroller_open(sql, sizes[i], fwd, N, ncols);
        scroll_everything(s, every);
        scroller_close(s);
    }
    free(fwd);
}

START_TEST(orders_scroll_every_orientation_as_the_forward_scan)
{
    scroll_query("SELECT * FROM Orders", true);
    /* a computed, sorted result: materialised rows rather than a table's */
    scroll_query("SELECT OrderID, Freight * 2 AS f, ShipCity & '!' AS c "
                 "FROM Orders ORDER BY ShipCity, OrderID", true);
}
END_TEST

START_TEST(bulk_scroll_samples_as_the_forward_scan_in_64_mb)
{
    const char *bulk = odbct_fixture("../bulk/bulk.accdb");
    if (access(bulk, R_OK) != 0)
        return;                     /* no bulk fixture: nothing to check */
    odbct_disconnect(env, dbc);
    odbct_connect_path(&env, &dbc, bulk);
    scroll_query("SELECT * FROM bulk", false);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* ru_maxrss is in KiB on Linux */
    printf("static cursor over bulk: peak RSS %ld KiB\n", (long)ru.ru_maxrss);
#ifndef __SANITIZE_ADDRESS__     /* ASan's shadow memory and quarantine */
    ck_assert_msg(ru.ru_maxrss <= 64 * 1024, "peak RSS %ld KiB",
                  (long)ru.ru_maxrss);
#endif
}
END_TEST

/* SQLSetPos on each row of a rowset of Employees, then SQLGetData of its
 * Memo in small pieces: the positioned row's text. */
START_TEST(setpos_then_getdata_reads_the_positioned_rows_memo)
{
    /* the forward scan's Notes, whole */
    char want[9][4096];
    SQLHSTMT st = odbct_exec(dbc, "SELECT EmployeeID, Notes FROM Employees");
    int rows = 0;
    while (SQLFetch(st) == SQL_SUCCESS && rows < 9) {
        SQLLEN ind;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_CHAR, want[rows],
                                                 sizeof want[rows], &ind));
        if (ind == SQL_NULL_DATA)
            strcpy(want[rows], "NULL");
        rows++;
    }
    ck_assert_int_eq(rows, 9);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE,
                            (SQLPOINTER)SQL_SCROLLABLE, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)4, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT EmployeeID, Notes FROM "
                           "Employees", SQL_NTS));
    SQLULEN ct = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL));
    ck_assert_uint_eq(ct, SQL_CURSOR_STATIC);
    SQLLEN starts[] = {6, 1, 3};
    for (int k = 0; k < 3; k++) {
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, starts[k]));
        for (SQLSETPOSIROW r = 4; r >= 1; r--) {
            size_t row = (size_t)starts[k] + r - 1;
            SQLRETURN pr = SQLSetPos(st, r, SQL_POSITION, SQL_LOCK_NO_CHANGE);
            if (row > 9) {
                ck_assert_int_eq(pr, SQL_ERROR);
                ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY107");
                continue;
            }
            ODBCT_OK(SQL_HANDLE_STMT, st, pr);
            SQLULEN rn = 0;
            SQLGetStmtAttr(st, SQL_ATTR_ROW_NUMBER, &rn, 0, NULL);
            ck_assert_uint_eq(rn, row);
            char got[4096] = "", piece[17];
            SQLLEN ind;
            SQLRETURN r2;
            while ((r2 = SQLGetData(st, 2, SQL_C_CHAR, piece, sizeof piece,
                                    &ind)) != SQL_NO_DATA) {
                ck_assert(SQL_SUCCEEDED(r2));
                if (ind == SQL_NULL_DATA) {
                    strcpy(got, "NULL");
                    break;
                }
                strcat(got, piece);
            }
            ck_assert_str_eq(got, want[row - 1]);
            SQLINTEGER id = 0;
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL));
            ck_assert_int_gt(id, 0);
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLSetPos(st, r, SQL_REFRESH, SQL_LOCK_NO_CHANGE));
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Bookmarks through SQLGetData (column 0) with SQL_UB_ON, and the
 * bookmark of one statement's row fetched again after other moves. */
START_TEST(getdata_column_0_gives_the_rows_bookmark)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_ON,
                            0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT OrderID FROM Orders "
                           "ORDER BY OrderID", SQL_NTS));
    SQLINTEGER id;
    SQLULEN bm = 0;
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, 100));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 0, SQL_C_BOOKMARK, &bm, sizeof bm, &ind));
    ck_assert_uint_eq(bm, 100);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL));
    SQLINTEGER id100 = id;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_LAST, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_FETCH_BOOKMARK_PTR, &bm, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_BOOKMARK, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL));
    ck_assert_int_eq(id, id100);
    SQLULEN bad = 5000;
    SQLSetStmtAttr(st, SQL_ATTR_FETCH_BOOKMARK_PTR, &bad, 0);
    ck_assert_int_eq(SQLFetchScroll(st, SQL_FETCH_BOOKMARK, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY111");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* bookmarks off: column 0 is no column */
    st = odbct_exec(dbc, "SELECT OrderID FROM Orders");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(SQLGetData(st, 0, SQL_C_BOOKMARK, &bm, sizeof bm, &ind),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07009");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* SQLExtendedFetch (ODBC 2): SQL_ROWSET_SIZE rows, its own count and
 * status arrays, SQL_FETCH_BOOKMARK with the bookmark as offset. */
START_TEST(extended_fetch_scrolls_with_its_own_outputs)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                            (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ROWSET_SIZE, (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT ShipperID FROM Shippers "
                           "ORDER BY ShipperID", SQL_NTS));
    SQLINTEGER ids[5];
    SQLLEN inds[5];
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, inds));
    SQLULEN crow = 99;
    SQLUSMALLINT status[5];
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExtendedFetch(st, SQL_FETCH_ABSOLUTE, 2, &crow, status));
    ck_assert_uint_eq(crow, 2);
    ck_assert_int_eq(ids[0], 2);
    ck_assert_int_eq(ids[1], 3);
    ck_assert_int_eq(status[0], SQL_ROW_SUCCESS);
    ck_assert_int_eq(status[2], SQL_ROW_NOROW);
    /* SQL_REFRESH writes the row into the bound buffers again */
    ids[0] = ids[1] = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 2, SQL_REFRESH,
                                            SQL_LOCK_NO_CHANGE));
    ck_assert_int_eq(ids[0], 0);
    ck_assert_int_eq(ids[1], 3);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 0, SQL_REFRESH,
                                            SQL_LOCK_NO_CHANGE));
    ck_assert_int_eq(ids[0], 2);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExtendedFetch(st, SQL_FETCH_PRIOR, 0, &crow, status));
    ck_assert_uint_eq(crow, 3);
    ck_assert_int_eq(ids[0], 1);
    ck_assert_int_eq(SQLExtendedFetch(st, SQL_FETCH_NEXT, 0, &crow, status),
                     SQL_NO_DATA);
    /* further back than the result's rows but within a rowset: the
     * first rowset, 01S06 */
    ck_assert_int_eq(SQLExtendedFetch(st, SQL_FETCH_ABSOLUTE, -3, &crow,
                                      status), SQL_SUCCESS);
    ck_assert_int_eq(ids[0], 1);
    ck_assert_int_eq(SQLExtendedFetch(st, SQL_FETCH_ABSOLUTE, -4, &crow,
                                      status), SQL_NO_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ROWSET_SIZE, (SQLPOINTER)5, 0));
    ck_assert_int_eq(SQLExtendedFetch(st, SQL_FETCH_ABSOLUTE, -4, &crow,
                                      status), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S06");
    ck_assert_uint_eq(crow, 3);
    ck_assert_int_eq(SQLExtendedFetch(st, SQL_FETCH_ABSOLUTE, -6, &crow,
                                      status), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* The cursor attributes: keyset-driven and dynamic become static (01S02),
 * SQL_ATTR_CURSOR_SCROLLABLE follows the type, concurrency stays
 * read-only; a forward-only cursor refuses PRIOR (HY106). */
START_TEST(cursor_attributes_answer_static)
{
    SQLHSTMT st = new_stmt();
    SQLULEN v = 0;
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                                    (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S02");
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL);
    ck_assert_uint_eq(v, SQL_CURSOR_STATIC);
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE, &v, 0, NULL);
    ck_assert_uint_eq(v, SQL_SCROLLABLE);
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                                    (SQLPOINTER)SQL_CURSOR_DYNAMIC, 0),
                     SQL_SUCCESS_WITH_INFO);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE,
                            (SQLPOINTER)SQL_NONSCROLLABLE, 0));
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL);
    ck_assert_uint_eq(v, SQL_CURSOR_FORWARD_ONLY);
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY,
                                    (SQLPOINTER)SQL_CONCUR_LOCK, 0),
                     SQL_SUCCESS_WITH_INFO);
    SQLGetStmtAttr(st, SQL_ATTR_CONCURRENCY, &v, 0, NULL);
    ck_assert_uint_eq(v, SQL_CONCUR_VALUES);    /* no row locks: 01S02 */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Shippers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_NEXT, 0));
    ck_assert_int_eq(SQLFetchScroll(st, SQL_FETCH_PRIOR, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY106");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* What a driver manager reads to decide on its cursor library. */
START_TEST(getinfo_and_getfunctions_claim_static_cursors)
{
    SQLUINTEGER u = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_SCROLL_OPTIONS, &u, sizeof u, NULL));
    ck_assert_uint_eq(u, SQL_SO_FORWARD_ONLY | SQL_SO_STATIC);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_STATIC_CURSOR_ATTRIBUTES1, &u, sizeof u,
                        NULL));
    ck_assert(u & SQL_CA1_NEXT);
    ck_assert(u & SQL_CA1_ABSOLUTE);
    ck_assert(u & SQL_CA1_RELATIVE);
    ck_assert(u & SQL_CA1_BOOKMARK);
    ck_assert(u & SQL_CA1_POS_POSITION);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_STATIC_CURSOR_ATTRIBUTES2, &u, sizeof u,
                        NULL));
    ck_assert(u & SQL_CA2_READ_ONLY_CONCURRENCY);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_FETCH_DIRECTION, &u, sizeof u, NULL));
    ck_assert(u & SQL_FD_FETCH_PRIOR);
    ck_assert(u & SQL_FD_FETCH_BOOKMARK);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_KEYSET_CURSOR_ATTRIBUTES1, &u, sizeof u,
                        NULL));
    ck_assert_uint_eq(u, 0);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetInfo(dbc, SQL_BOOKMARK_PERSISTENCE, &u, sizeof u, NULL));
    ck_assert(u & SQL_BP_SCROLL);
    SQLUSMALLINT f = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetFunctions(dbc, SQL_API_SQLEXTENDEDFETCH, &f));
    ck_assert_int_eq(f, SQL_TRUE);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetFunctions(dbc, SQL_API_SQLFETCHSCROLL, &f));
    ck_assert_int_eq(f, SQL_TRUE);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc, SQL_API_SQLSETPOS, &f));
    ck_assert_int_eq(f, SQL_TRUE);
}
END_TEST

/* A static cursor over a catalog result scrolls too. */
START_TEST(catalog_result_scrolls)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                            (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLColumns(st, NULL, 0, NULL, 0, (SQLCHAR *)"Shippers", SQL_NTS,
                        NULL, 0));
    char name[64];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_LAST, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 4, SQL_C_CHAR, name, sizeof name, &ind));
    ck_assert_str_eq(name, "Phone");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_PRIOR, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 4, SQL_C_CHAR, name, sizeof name, &ind));
    ck_assert_str_eq(name, "CompanyName");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_FIRST, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 4, SQL_C_CHAR, name, sizeof name, &ind));
    ck_assert_str_eq(name, "ShipperID");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *scroll_suite(void)
{
    Suite *su = suite_create("odbc_scroll");
    TCase *tc = tcase_create("scroll");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, orders_scroll_every_orientation_as_the_forward_scan);
    tcase_add_test(tc, bulk_scroll_samples_as_the_forward_scan_in_64_mb);
    tcase_add_test(tc, setpos_then_getdata_reads_the_positioned_rows_memo);
    tcase_add_test(tc, getdata_column_0_gives_the_rows_bookmark);
    tcase_add_test(tc, extended_fetch_scrolls_with_its_own_outputs);
    tcase_add_test(tc, cursor_attributes_answer_static);
    tcase_add_test(tc, getinfo_and_getfunctions_claim_static_cursors);
    tcase_add_test(tc, catalog_result_scrolls);
    suite_add_tcase(su, tc);
    return su;
}

ODBCT_MAIN(scroll_suite)
