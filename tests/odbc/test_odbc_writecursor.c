/*
 * test_odbc_writecursor.c - what the reader assumed that writing breaks
 * (issue 25): a SELECT cursor left open on a table while the same
 * connection's INSERT, UPDATE or DELETE (or a rollback) changes that
 * table goes on where it was, over the table as it is now: it never
 * skips a row that is still there and ahead of it, never returns a row
 * twice, and never returns a value that is neither the row's old one
 * nor its new one; SQLGetData after a write reads the row as it is; a
 * prepared SELECT run again sees the rows written since.
 *
 * On copies of bulk.accdb (200,000 rows, id 1..200000 the primary key,
 * label Text(50)): index cursors (WHERE id BETWEEN, ORDER BY id) whose
 * leaf loses entries or splits under them, and table scans whose page
 * gains, loses or rolls back rows.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "odbctest.h"
#include "../shared_dir.h"

static SQLHENV env;
static SQLHDBC dbc;

#define N 20000             /* the ids the cursors walk: 1..N */

/* labels of ids 1..N as the fixture has them */
static char (*orig)[64];

static void copy_bulk(char *out, size_t cap, const char *name)
{
    char cmd[4096];
    snprintf(out, cap, "%s/%s", odbct_tmpdir(), name);
    snprintf(cmd, sizeof cmd, "cp '%s/bulk/bulk.accdb' '%s' && chmod 0644 "
             "'%s'", odbct_fixture(".."), out, out);
    ck_assert_int_eq(system(cmd), 0);
}

static void verify(const char *path)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">/dev/null", jet_shared_dir(), path);
    ck_assert_msg(system(cmd) == 0, "jetcheck verify %s failed", path);
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

static void exec_ok(const char *sql)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static long scalar(const char *sql)
{
    SQLHSTMT st = new_stmt();
    SQLINTEGER v = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &v, 0,
                                             NULL));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return v;
}

static void open_db(char *path, size_t cap, const char *name)
{
    char cs[2048];
    copy_bulk(path, cap, name);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_connect(&env, &dbc, cs);
}

/* The fixture's labels of ids 1..N, read once. */
static void load_orig(void)
{
    if (orig)
        return;
    char path[1024];
    open_db(path, sizeof path, "orig.accdb");
    orig = calloc(N + 1, sizeof *orig);
    ck_assert_ptr_nonnull(orig);
    SQLHSTMT st = new_stmt();
    SQLINTEGER id;
    char label[64];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)"SELECT id, "
             "label FROM bulk WHERE id BETWEEN 1 AND 20000", SQL_NTS));
    SQLBindCol(st, 1, SQL_C_SLONG, &id, 0, NULL);
    SQLBindCol(st, 2, SQL_C_CHAR, label, sizeof label, &ind);
    long n = 0;
    while (SQLFetch(st) == SQL_SUCCESS) {
        ck_assert(id >= 1 && id <= N);
        snprintf(orig[id], sizeof orig[id], "%s", label);
        n++;
    }
    ck_assert_int_eq(n, N);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    remove(path);
}

/* A cursor's rows: ids and labels as fetched. */
typedef struct walk {
    SQLHSTMT st;
    SQLINTEGER id;
    char label[64];
    SQLLEN ind;
    long n;
    SQLINTEGER *ids;
    char (*labels)[64];
} walk;

static void walk_open(walk *w, const char *sql)
{
    memset(w, 0, sizeof *w);
    w->st = new_stmt();
    w->ids = calloc(4 * N, sizeof *w->ids);
    w->labels = calloc(4 * N, sizeof *w->labels);
    ck_assert(w->ids && w->labels);
    ODBCT_OK(SQL_HANDLE_STMT, w->st, SQLExecDirect(w->st, (SQLCHAR *)sql,
                                                   SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, w->st, SQLBindCol(w->st, 1, SQL_C_SLONG,
                                                &w->id, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, w->st, SQLBindCol(w->st, 2, SQL_C_CHAR,
                                                w->label, sizeof w->label,
                                                &w->ind));
}

/* Fetch up to max rows (all when max < 0); the count fetched. */
static long walk_fetch(walk *w, long max)
{
    long got = 0;
    while (max < 0 || got < max) {
        SQLRETURN r = SQLFetch(w->st);
        if (r == SQL_NO_DATA)
            break;
        ck_assert_msg(SQL_SUCCEEDED(r), "fetch after %ld rows: %s %s", w->n,
                      odbct_state(SQL_HANDLE_STMT, w->st),
                      odbct_message(SQL_HANDLE_STMT, w->st));
        ck_assert_int_lt(w->n, 4 * N);
        w->ids[w->n] = w->id;
        snprintf(w->labels[w->n], sizeof w->labels[w->n], "%s",
                 w->ind == SQL_NULL_DATA ? "(null)" : w->label);
        w->n++;
        got++;
    }
    return got;
}

static void walk_close(walk *w)
{
    SQLFreeHandle(SQL_HANDLE_STMT, w->st);
    free(w->ids);
    free(w->labels);
}

/* want(id) for ids 1..N: 0 not expected, 1 expected with its fixture
 * label, 2 expected with label new_label. */
typedef int (*want_fn)(long id);

/* The walk returned each id of 1..N that want() expects exactly once,
 * nothing else, each with its label; ascending when ordered. */
static void check_walk(const walk *w, want_fn want, const char *new_label,
                       bool ordered)
{
    unsigned char *seen = calloc(N + 1, 1);
    ck_assert_ptr_nonnull(seen);
    for (long i = 0; i < w->n; i++) {
        long id = w->ids[i];
        ck_assert_msg(id >= 1 && id <= N, "row %ld: id %ld out of range", i,
                      id);
        ck_assert_msg(!seen[id], "row %ld: id %ld returned twice", i, id);
        seen[id] = 1;
        if (ordered && i > 0)
            ck_assert_msg(w->ids[i - 1] < id, "row %ld: id %ld after %ld", i,
                          id, (long)w->ids[i - 1]);
        int k = want(id);
        ck_assert_msg(k != 0, "row %ld: id %ld was not expected", i, id);
        /* rows fetched before the write have the fixture's label */
        const char *lab = k == 2 ? new_label : orig[id];
        ck_assert_msg(strcmp(w->labels[i], lab) == 0 ||
                      strcmp(w->labels[i], orig[id]) == 0,
                      "row %ld: id %ld label '%s', expected '%s'", i, id,
                      w->labels[i], lab);
    }
    for (long id = 1; id <= N; id++)
        ck_assert_msg(!want(id) || seen[id], "id %ld was skipped", id);
    free(seen);
}

/* ------------------------------------------------- index cursors */

static int want_odd_or_first(long id)
{
    return id <= 5000 || id % 2 ? 1 : 0;
}

/* DELETE of rows ahead of the cursor (entries leave its leaf and the
 * leaves after it): the rest of the walk is every remaining row. */
START_TEST(index_cursor_after_deletes)
{
    static const char *const queries[] = {
        "SELECT id, label FROM bulk WHERE id BETWEEN 1 AND 20000",
        "SELECT id, label FROM bulk WHERE id <= 20000 ORDER BY id",
        "SELECT id, label FROM bulk WHERE id <= 20000 ORDER BY id DESC",
    };
    load_orig();
    for (size_t q = 0; q < sizeof queries / sizeof *queries; q++) {
        char path[1024];
        walk w;
        open_db(path, sizeof path, "del.accdb");
        walk_open(&w, queries[q]);
        ck_assert_int_eq(walk_fetch(&w, 5000), 5000);
        bool desc = q == 2;
        if (desc)
            exec_ok("DELETE FROM bulk WHERE id MOD 2 = 0 AND id <= 15000");
        else
            exec_ok("DELETE FROM bulk WHERE id MOD 2 = 0 AND id > 5000 AND "
                    "id <= 20000");
        walk_fetch(&w, -1);
        if (desc) {
            /* 20000 down to 15001 first, then the odd ones */
            ck_assert_int_eq(w.n, 5000 + 7500);
            for (long i = 0; i < w.n; i++) {
                long want = i < 5000 ? 20000 - i
                                     : 15000 - 1 - 2 * (i - 5000);
                ck_assert_msg(w.ids[i] == want, "%s: row %ld is %ld, not "
                              "%ld", queries[q], i, (long)w.ids[i], want);
                ck_assert_str_eq(w.labels[i], orig[want]);
            }
        } else {
            check_walk(&w, want_odd_or_first, NULL, true);
        }
        walk_close(&w);
        odbct_disconnect(env, dbc);
        verify(path);
    }
}
END_TEST

static int want_all(long id)
{
    return id > 5000 && id % 2 == 0 && id <= 10000 ? 2 : 1;
}

/* Entries inserted around the cursor's position (its leaf splits): the
 * walk goes on in key order and returns the new rows ahead of it. */
START_TEST(index_cursor_after_inserts_split_its_leaf)
{
    char path[1024];
    walk w;
    load_orig();
    open_db(path, sizeof path, "ins.accdb");
    /* room for new keys among the next ones */
    exec_ok("DELETE FROM bulk WHERE id MOD 2 = 0 AND id > 5000 AND "
            "id <= 10000");
    walk_open(&w, "SELECT id, label FROM bulk WHERE id BETWEEN 1 AND 20000");
    ck_assert_int_eq(walk_fetch(&w, 5000), 5000);
    /* the even ids back, with longer labels, and many keys far away */
    exec_ok("INSERT INTO bulk (id, amount, label, created) SELECT id + 1, "
            "amount, 'new row ' & 'with a longer label than most', created "
            "FROM bulk WHERE id > 5000 AND id < 10000");
    exec_ok("INSERT INTO bulk (id, amount, label, created) SELECT id + "
            "1000000, amount, label, created FROM bulk WHERE id <= 30000");
    exec_ok("INSERT INTO bulk (id, amount, label, created) SELECT -id, "
            "amount, label, created FROM bulk WHERE id <= 30000");
    ck_assert_int_eq(walk_fetch(&w, -1), 15000);
    check_walk(&w, want_all, "new row with a longer label than most", true);
    walk_close(&w);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM bulk"), 200000 + 60000);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* ------------------------------------------------- table scans */

static int want_every(long id)
{
    return id >= 1 ? 1 : 0;
}

static int want_odd_updated(long id)
{
    if (id > 5000 && id % 2 == 0)
        return 0;
    return id > 5000 && id % 3 == 0 ? 2 : 1;
}

/* A scan (no index) whose pages lose rows and whose rows grow into
 * overflow rows meanwhile. */
START_TEST(scan_after_delete_and_update)
{
    char path[1024];
    walk w;
    load_orig();
    open_db(path, sizeof path, "scan.accdb");
    walk_open(&w, "SELECT id, label FROM bulk WHERE amount > -1e9 AND "
              "id + 0 <= 20000");
    ck_assert_int_eq(walk_fetch(&w, 5000), 5000);
    exec_ok("DELETE FROM bulk WHERE id MOD 2 = 0 AND id > 5000 AND "
            "id <= 20000");
    exec_ok("UPDATE bulk SET label = 'grown: ' & 'a label of fifty "
            "characters, or nearly' WHERE id MOD 3 = 0 AND id <= 20000");
    walk_fetch(&w, -1);
    check_walk(&w, want_odd_updated, "grown: a label of fifty characters, "
               "or nearly", false);
    walk_close(&w);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* The transaction's writes rolled back under an open scan and an open
 * index cursor: both go on over the rows as they were. */
START_TEST(cursors_after_rollback)
{
    static const char *const queries[] = {
        "SELECT id, label FROM bulk WHERE amount > -1e9 AND id + 0 <= 20000",
        "SELECT id, label FROM bulk WHERE id BETWEEN 1 AND 20000",
    };
    load_orig();
    for (size_t q = 0; q < 2; q++) {
        char path[1024];
        walk w;
        open_db(path, sizeof path, "rb.accdb");
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
                 SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
        walk_open(&w, queries[q]);
        ck_assert_int_eq(walk_fetch(&w, 5000), 5000);
        exec_ok("INSERT INTO bulk (id, amount, label, created) SELECT id + "
                "1000000, amount, label, created FROM bulk WHERE id <= 20000");
        exec_ok("DELETE FROM bulk WHERE id MOD 2 = 0 AND id <= 20000");
        exec_ok("UPDATE bulk SET label = 'rolled back' WHERE id <= 20000");
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                                 SQL_ROLLBACK));
        walk_fetch(&w, -1);
        check_walk(&w, want_every, NULL, q == 1);
        walk_close(&w);
        odbct_disconnect(env, dbc);
        verify(path);
    }
}
END_TEST

/* ------------------------------------------------- SQLGetData */

/* A row fetched, then changed (or deleted) by another statement, then
 * read with SQLGetData: its new value, or its old one, never bytes of
 * another row. */
START_TEST(getdata_after_write)
{
    char path[1024];
    load_orig();
    open_db(path, sizeof path, "gd.accdb");
    static const char *const queries[] = {
        "SELECT id, label FROM bulk WHERE id = 100",
        "SELECT id, label FROM bulk WHERE amount > -1e9 AND id + 0 = 200",
    };
    for (int q = 0; q < 2; q++) {
        long id = q ? 200 : 100;
        char label[64], upd[256];
        SQLLEN ind;
        SQLHSTMT st = new_stmt();
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st,
                 (SQLCHAR *)queries[q], SQL_NTS));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        /* its page changes around it: rows before it shrink, it grows */
        snprintf(upd, sizeof upd, "UPDATE bulk SET label = 'x' WHERE id "
                 "BETWEEN %ld AND %ld", id - 20, id - 1);
        exec_ok(upd);
        snprintf(upd, sizeof upd, "UPDATE bulk SET label = 'changed, and "
                 "longer than it was before' WHERE id = %ld", id);
        exec_ok(upd);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_CHAR, label,
                                                 sizeof label, &ind));
        ck_assert_msg(strcmp(label, "changed, and longer than it was "
                             "before") == 0 || strcmp(label, orig[id]) == 0,
                      "id %ld: '%s'", id, label);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* ------------------------------------------------- prepared statements */

START_TEST(prepared_select_sees_writes)
{
    char path[1024];
    open_db(path, sizeof path, "prep.accdb");
    SQLHSTMT cnt = new_stmt(), one = new_stmt();
    SQLINTEGER n = 0, key = 0;
    char label[64];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, cnt, SQLPrepare(cnt, (SQLCHAR *)"SELECT "
             "COUNT(*) FROM bulk WHERE id > 199990", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, one, SQLPrepare(one, (SQLCHAR *)"SELECT label "
             "FROM bulk WHERE id = ?", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, one, SQLBindParameter(one, 1, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, &key, 0, NULL));
    for (int round = 0; round < 3; round++) {
        ODBCT_OK(SQL_HANDLE_STMT, cnt, SQLExecute(cnt));
        ODBCT_OK(SQL_HANDLE_STMT, cnt, SQLFetch(cnt));
        ODBCT_OK(SQL_HANDLE_STMT, cnt, SQLGetData(cnt, 1, SQL_C_SLONG, &n, 0,
                                                  NULL));
        SQLFreeStmt(cnt, SQL_CLOSE);
        ck_assert_int_eq(n, round == 0 ? 10 : round == 1 ? 10 + 5000 : 10);
        key = 200001;
        ODBCT_OK(SQL_HANDLE_STMT, one, SQLExecute(one));
        SQLRETURN r = SQLFetch(one);
        if (round == 1) {
            ck_assert_int_eq(r, SQL_SUCCESS);
            ODBCT_OK(SQL_HANDLE_STMT, one, SQLGetData(one, 1, SQL_C_CHAR,
                                                      label, sizeof label,
                                                      &ind));
            ck_assert_str_eq(label, "added");
        } else {
            ck_assert_int_eq(r, SQL_NO_DATA);
        }
        SQLFreeStmt(one, SQL_CLOSE);
        if (round == 0)
            exec_ok("INSERT INTO bulk (id, amount, label, created) SELECT "
                    "id + 200000, amount, 'added', created FROM bulk WHERE "
                    "id <= 5000");
        else if (round == 1)
            exec_ok("DELETE FROM bulk WHERE id > 200000");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, cnt);
    SQLFreeHandle(SQL_HANDLE_STMT, one);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

static Suite *writecursor_suite(void)
{
    Suite *s = suite_create("odbc_writecursor");
    TCase *tc = tcase_create("writecursor");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, index_cursor_after_deletes);
    tcase_add_test(tc, index_cursor_after_inserts_split_its_leaf);
    tcase_add_test(tc, scan_after_delete_and_update);
    tcase_add_test(tc, cursors_after_rollback);
    tcase_add_test(tc, getdata_after_write);
    tcase_add_test(tc, prepared_select_sees_writes);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(writecursor_suite)
