/*
 * test_odbc_setpos.c - positioned writes of a static cursor (issue 26,
 * acceptance 3) through the driver manager, on copies of public
 * fixtures: an editor's session (SQLSetPos SQL_UPDATE of one column,
 * SQL_DELETE, SQLBulkOperations SQL_ADD) leaves the same file content
 * (jetcheck dump) as the equivalent UPDATE, DELETE and INSERT statements
 * on another copy, and jetcheck verify finds 0 problems in both; the
 * cursor's side (row status array, holes, added rows by bookmark,
 * SQL_ATTR_ROW_OPERATION_PTR, SQL_COLUMN_IGNORE, data at execution);
 * optimistic concurrency (01001); what SQLGetInfo and SQL_ATTR_CONCURRENCY
 * answer; refusals (read-only DSN, Access 97 file, a join, a read-only
 * cursor) leave the file byte for byte unchanged.
 *
 * bulk.accdb (200,000 rows, id the primary key): a key changed through
 * the cursor, as a statement changes it.
 *
 * testV2003.mdb / testV2010.accdb Table1: A Text(50) primary key,
 * B Text(100) indexed, C Byte, D Integer, E Long, F Double, G Date,
 * H Currency, I Yes/No; rows 'abcdefg' and 'a'.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "odbcwrite.h"

#define MDB "jackcess/V2003/testV2003.mdb"
#define ACCDB "jackcess/V2010/testV2010.accdb"

static SQLHENV env;
static SQLHDBC dbc;

static void connect_to(const char *path, const char *extra)
{
    odbct_connect_file(&env, &dbc, path, extra);
}

static SQLHSTMT new_stmt(void)
{
    return odbct_stmt(dbc);
}

static void exec_ok(const char *sql)
{
    SQLFreeHandle(SQL_HANDLE_STMT, odbct_exec(dbc, sql));
}

/* The first column of the first row of sql as text ("" for NULL). */
static void scalar(const char *sql, char *out, size_t cap)
{
    SQLHSTMT st = new_stmt();
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, out,
                                             (SQLLEN)cap, &ind));
    if (ind == SQL_NULL_DATA)
        out[0] = '\0';
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A static, updatable cursor over Table1 with columns A, B, C, E bound
 * (rowset size 1 unless n). */
typedef struct edit {
    SQLHSTMT st;
    char a[3][64], b[3][128];
    SQLLEN ai[3], bi[3];
    SQLCHAR c[3];
    SQLLEN ci[3];
    SQLINTEGER e[3];
    SQLLEN ei[3];
    SQLUSMALLINT status[3];
    SQLULEN fetched;
} edit;

static void edit_open_bm(edit *ed, const char *sql, SQLULEN n, bool bm)
{
    memset(ed, 0, sizeof *ed);
    ed->st = new_stmt();
    SQLHSTMT st = ed->st;
    if (bm)
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
                 SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
             (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY,
             (SQLPOINTER)SQL_CONCUR_VALUES, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)(uintptr_t)n, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR,
             ed->status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_ROWS_FETCHED_PTR, &ed->fetched, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    SQLBindCol(st, 1, SQL_C_CHAR, ed->a, sizeof ed->a[0], ed->ai);
    SQLBindCol(st, 2, SQL_C_CHAR, ed->b, sizeof ed->b[0], ed->bi);
    SQLBindCol(st, 3, SQL_C_UTINYINT, ed->c, 0, ed->ci);
    SQLBindCol(st, 4, SQL_C_SLONG, ed->e, 0, ed->ei);
}

static void edit_open(edit *ed, const char *sql, SQLULEN n)
{
    edit_open_bm(ed, sql, n, false);
}

/* Fetch by absolute row number k: 1 row (rowset size 1). */
static void edit_fetch(edit *ed, SQLLEN k)
{
    ODBCT_OK(SQL_HANDLE_STMT, ed->st, SQLFetchScroll(ed->st,
             SQL_FETCH_ABSOLUTE, k));
}

/* Rowset row 0 of the cursor: only column B changed, the others
 * SQL_COLUMN_IGNORE. */
static void ignore_but_b(edit *ed, const char *b)
{
    snprintf(ed->b[0], sizeof ed->b[0], "%s", b);
    ed->bi[0] = SQL_NTS;
    ed->ai[0] = ed->ci[0] = ed->ei[0] = SQL_COLUMN_IGNORE;
}

/* The session on path: B of row 'abcdefg' set, row 'a' deleted, a row
 * ('new', 'added', 7, 70000) added. */
static void session_by_cursor(const char *path)
{
    connect_to(path, NULL);
    edit ed;
    edit_open(&ed, "SELECT A, B, C, E FROM Table1", 1);
    for (SQLLEN k = 1; k <= 2; k++) {
        edit_fetch(&ed, k);
        if (!strcmp(ed.a[0], "abcdefg")) {
            ignore_but_b(&ed, "edited by SQLSetPos");
            ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLSetPos(ed.st, 1, SQL_UPDATE,
                                                       SQL_LOCK_NO_CHANGE));
            ck_assert_int_eq(ed.status[0], SQL_ROW_UPDATED);
        }
    }
    for (SQLLEN k = 1; k <= 2; k++) {
        edit_fetch(&ed, k);
        if (!strcmp(ed.a[0], "a")) {
            ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLSetPos(ed.st, 1, SQL_DELETE,
                                                       SQL_LOCK_NO_CHANGE));
            ck_assert_int_eq(ed.status[0], SQL_ROW_DELETED);
        }
    }
    snprintf(ed.a[0], sizeof ed.a[0], "new");
    snprintf(ed.b[0], sizeof ed.b[0], "added");
    ed.ai[0] = ed.bi[0] = SQL_NTS;
    ed.c[0] = 7;
    ed.ci[0] = 0;
    ed.e[0] = 70000;
    ed.ei[0] = 0;
    ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLBulkOperations(ed.st, SQL_ADD));
    ck_assert_int_eq(ed.status[0], SQL_ROW_ADDED);
    SQLFreeHandle(SQL_HANDLE_STMT, ed.st);
    odbct_disconnect(env, dbc);
}

static void session_by_statements(const char *path)
{
    connect_to(path, NULL);
    exec_ok("UPDATE Table1 SET B = 'edited by SQLSetPos' WHERE A = "
            "'abcdefg'");
    exec_ok("DELETE FROM Table1 WHERE A = 'a'");
    exec_ok("INSERT INTO Table1 (A, B, C, E) VALUES ('new', 'added', 7, "
            "70000)");
    odbct_disconnect(env, dbc);
}

static void same_as_statements(const char *rel, const char *ext)
{
    char p1[1024], p2[1024], n1[64], n2[64];
    snprintf(n1, sizeof n1, "bycursor.%s", ext);
    snprintf(n2, sizeof n2, "bystmts.%s", ext);
    odbct_copy_fixture(rel, n1, p1, sizeof p1);
    odbct_copy_fixture(rel, n2, p2, sizeof p2);
    session_by_cursor(p1);
    session_by_statements(p2);
    odbct_verify(p1);
    odbct_verify(p2);
    char *d1 = odbct_dump(p1, NULL), *d2 = odbct_dump(p2, NULL);
    ck_assert_msg(strstr(d1, "\"edited by SQLSetPos\"") &&
                  strstr(d1, "\"new\", \"added\", 7"), "%s", d1);
    ck_assert_msg(!strcmp(d1, d2), "the cursor's file:\n%s\nthe "
                  "statements' file:\n%s", d1, d2);
    free(d1);
    free(d2);
}

START_TEST(edit_session_equals_statements_mdb)
{
    same_as_statements(MDB, "mdb");
}
END_TEST

START_TEST(edit_session_equals_statements_accdb)
{
    same_as_statements(ACCDB, "accdb");
}
END_TEST

/* The driver's own dump of bulk's rows around the edits: count, sum of
 * ids, and every column of the rows near them. */
static void bulk_dump(const char *path, char *out, size_t cap)
{
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)"SELECT "
             "COUNT(*) & '/' & SUM(id) FROM bulk", SQL_NTS));
    size_t len = 0;
    char v[512];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, v, sizeof v,
                                             &ind));
    len += (size_t)snprintf(out + len, cap - len, "%s\n", v);
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)"SELECT id "
             "& '|' & amount & '|' & label & '|' & created FROM bulk WHERE "
             "id BETWEEN 95 AND 125 OR id > 199999 ORDER BY id", SQL_NTS));
    while (SQLFetch(st) == SQL_SUCCESS) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, v,
                                                 sizeof v, &ind));
        ck_assert(len < cap);
        len += (size_t)snprintf(out + len, cap - len, "%s\n", v);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}

/* On the 200,000 rows of bulk.accdb (id the primary key): a cursor over
 * an index range changes a key (the B-tree entry moves), deletes a row
 * and adds one; the statements do the same on another copy. */
START_TEST(big_table_keys)
{
    char p1[1024], p2[1024];
    odbct_copy_fixture("../bulk/bulk.accdb", "bulk1.accdb", p1, sizeof p1);
    odbct_copy_fixture("../bulk/bulk.accdb", "bulk2.accdb", p2, sizeof p2);
    connect_to(p1, NULL);
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
             (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY,
             (SQLPOINTER)SQL_CONCUR_VALUES, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)"SELECT id, "
             "label FROM bulk WHERE id BETWEEN 100 AND 120", SQL_NTS));
    SQLINTEGER id = 0;
    char label[128];
    SQLLEN idi = 0, li = 0;
    SQLBindCol(st, 1, SQL_C_SLONG, &id, 0, &idi);
    SQLBindCol(st, 2, SQL_C_CHAR, label, sizeof label, &li);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, 6));
    ck_assert_int_eq(id, 105);
    id = 300001;
    li = SQL_COLUMN_IGNORE;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 1, SQL_UPDATE,
                                            SQL_LOCK_NO_CHANGE));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, 11));
    ck_assert_int_eq(id, 110);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 1, SQL_DELETE,
                                            SQL_LOCK_NO_CHANGE));
    id = 300002;
    idi = 0;
    snprintf(label, sizeof label, "added");
    li = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBulkOperations(st, SQL_ADD));
    /* the key written is the one the cursor reads back */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, 6));
    ck_assert_int_eq(id, 300001);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);

    connect_to(p2, NULL);
    exec_ok("UPDATE bulk SET id = 300001 WHERE id = 105");
    exec_ok("DELETE FROM bulk WHERE id = 110");
    exec_ok("INSERT INTO bulk (id, label) VALUES (300002, 'added')");
    odbct_disconnect(env, dbc);

    static char d1[65536], d2[65536];
    bulk_dump(p1, d1, sizeof d1);
    bulk_dump(p2, d2, sizeof d2);
    ck_assert_msg(strstr(d1, "300001|") && strstr(d1, "300002|"), "%s", d1);
    ck_assert_str_eq(d1, d2);
    odbct_verify(p1);
    remove(p2);
    remove(p1);
}
END_TEST

/* A rowset of 2: holes after a delete, SQL_ROW_UPDATED, additions with
 * SQL_ATTR_ROW_OPERATION_PTR, their bookmarks, and SQLGetData after a
 * write. */
START_TEST(cursor_side)
{
    char path[1024], v[256];
    connect_to(odbct_copy_fixture(ACCDB, "side.accdb", path,
                                  sizeof path), NULL);
    edit ed;
    /* (the file's order: 'a', then 'abcdefg') */
    edit_open_bm(&ed, "SELECT A, B, C, E FROM Table1", 2, true);
    SQLHSTMT st = ed.st;
    SQLINTEGER bm[3] = {0, 0, 0};
    SQLLEN bmi[3];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 0, SQL_C_VARBOOKMARK, bm,
                                             sizeof bm[0], bmi));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_FIRST, 0));
    ck_assert_uint_eq(ed.fetched, 2);
    ck_assert_str_eq(ed.a[0], "a");
    ck_assert_str_eq(ed.a[1], "abcdefg");
    /* update row 2's B and E (A and C ignored) */
    snprintf(ed.b[1], sizeof ed.b[1], "second");
    ed.bi[1] = SQL_NTS;
    ed.e[1] = 42;
    ed.ai[1] = ed.ci[1] = SQL_COLUMN_IGNORE;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 2, SQL_UPDATE,
                                            SQL_LOCK_NO_CHANGE));
    ck_assert_int_eq(ed.status[1], SQL_ROW_UPDATED);
    /* SQLGetData reads the row as written */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 2, SQL_POSITION,
                                            SQL_LOCK_NO_CHANGE));
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_CHAR, v, sizeof v,
                                             &ind));
    ck_assert_str_eq(v, "second");
    /* delete row 1: a hole when fetched again */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 1, SQL_DELETE,
                                            SQL_LOCK_NO_CHANGE));
    ck_assert_int_eq(ed.status[0], SQL_ROW_DELETED);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_FIRST, 0));
    ck_assert_int_eq(ed.status[0], SQL_ROW_DELETED);
    ck_assert_int_eq(ed.status[1], SQL_ROW_SUCCESS);
    ck_assert_str_eq(ed.b[1], "second");
    ck_assert_int_eq(ed.e[1], 42);
    /* a second delete of the hole is a conflict, the file unchanged */
    SQLRETURN r = SQLSetPos(st, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01001");
    ck_assert_int_eq(ed.status[0], SQL_ROW_ERROR);
    /* add two rows of three, the middle one ignored */
    SQLUSMALLINT ops[3] = {SQL_ROW_PROCEED, SQL_ROW_IGNORE, SQL_ROW_PROCEED};
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_ROW_OPERATION_PTR, ops, 0));
    const char *names[3] = {"n1", "n2", "n3"};
    for (int i = 0; i < 3; i++) {
        snprintf(ed.a[i], sizeof ed.a[i], "%s", names[i]);
        snprintf(ed.b[i], sizeof ed.b[i], "bulk %d", i);
        ed.ai[i] = ed.bi[i] = SQL_NTS;
        ed.ci[i] = SQL_NULL_DATA;
        ed.e[i] = 100 + i;
        ed.ei[i] = 0;
        ed.status[i] = 9999;
    }
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBulkOperations(st, SQL_ADD));
    ck_assert_int_eq(ed.status[0], SQL_ROW_ADDED);
    ck_assert_int_eq(ed.status[1], 9999);
    ck_assert_int_eq(ed.status[2], SQL_ROW_ADDED);
    SQLLEN count = -5;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &count));
    ck_assert_int_eq(count, 2);
    /* the added rows are the cursor's, found by their bookmarks */
    SQLINTEGER want = bm[2];
    ck_assert_int_eq(want, 4);      /* 2 fetched rows, then n1, n3 */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)1, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_FETCH_BOOKMARK_PTR, &want, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_BOOKMARK, 0));
    ck_assert_str_eq(ed.a[0], "n3");
    ck_assert_str_eq(ed.b[0], "bulk 2");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    scalar("SELECT COUNT(*) FROM Table1", v, sizeof v);
    ck_assert_str_eq(v, "3");
    scalar("SELECT B & '/' & E FROM Table1 WHERE A = 'abcdefg'", v,
           sizeof v);
    ck_assert_str_eq(v, "second/42");
    scalar("SELECT COUNT(*) FROM Table1 WHERE A = 'n2'", v, sizeof v);
    ck_assert_str_eq(v, "0");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* SQLBulkOperations by bookmark: the rows whose bookmarks column 0 of
 * the rowset buffers holds (LibreOffice Base updates rows so). */
START_TEST(by_bookmark)
{
    char path[1024], v[256];
    connect_to(odbct_copy_fixture(ACCDB, "bybm.accdb", path,
                                  sizeof path), NULL);
    edit ed;
    edit_open_bm(&ed, "SELECT A, B, C, E FROM Table1", 2, true);
    SQLHSTMT st = ed.st;
    SQLINTEGER bm[3] = {0, 0, 0};
    SQLLEN bmi[3];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 0, SQL_C_VARBOOKMARK, bm,
                                             sizeof bm[0], bmi));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetchScroll(st, SQL_FETCH_FIRST, 0));
    ck_assert_int_eq(bm[0], 1);
    ck_assert_int_eq(bm[1], 2);
    ck_assert_str_eq(ed.a[1], "abcdefg");
    /* one row in the buffers: bookmark 2, only B */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)1, 0));
    bm[0] = 2;
    ignore_but_b(&ed, "by bookmark");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBulkOperations(st,
             SQL_UPDATE_BY_BOOKMARK));
    ck_assert_int_eq(ed.status[0], SQL_ROW_UPDATED);
    /* an unknown bookmark: HY111, nothing written */
    bm[0] = 99;
    ck_assert_int_eq(SQLBulkOperations(st, SQL_DELETE_BY_BOOKMARK),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY111");
    ck_assert_int_eq(ed.status[0], SQL_ROW_ERROR);
    bm[0] = 1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBulkOperations(st,
             SQL_DELETE_BY_BOOKMARK));
    ck_assert_int_eq(ed.status[0], SQL_ROW_DELETED);
    ck_assert_int_eq(SQLBulkOperations(st, SQL_FETCH_BY_BOOKMARK),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    scalar("SELECT COUNT(*) FROM Table1", v, sizeof v);
    ck_assert_str_eq(v, "1");
    scalar("SELECT B FROM Table1 WHERE A = 'abcdefg'", v, sizeof v);
    ck_assert_str_eq(v, "by bookmark");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Autocommit off: positioned writes join the connection's transaction;
 * SQLEndTran rolls them back (the file byte for byte as it was) or
 * commits them. */
START_TEST(in_a_transaction)
{
    char path[1024], v[256];
    odbct_copy_fixture(MDB, "txn.mdb", path, sizeof path);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path, NULL);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    for (int commit = 0; commit < 2; commit++) {
        edit ed;
        edit_open(&ed, "SELECT A, B, C, E FROM Table1 WHERE A = 'a'", 1);
        edit_fetch(&ed, 1);
        ignore_but_b(&ed, commit ? "committed" : "rolled back");
        ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLSetPos(ed.st, 1, SQL_UPDATE,
                                                   SQL_LOCK_NO_CHANGE));
        snprintf(ed.a[0], sizeof ed.a[0], "txn%d", commit);
        ed.ai[0] = SQL_NTS;
        ed.bi[0] = ed.ci[0] = ed.ei[0] = SQL_COLUMN_IGNORE;
        ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLBulkOperations(ed.st, SQL_ADD));
        SQLFreeHandle(SQL_HANDLE_STMT, ed.st);
        scalar("SELECT COUNT(*) FROM Table1", v, sizeof v);
        ck_assert_str_eq(v, "3");
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                 commit ? SQL_COMMIT : SQL_ROLLBACK));
        if (!commit)
            odbct_snap_same(&before);
    }
    scalar("SELECT B FROM Table1 WHERE A = 'a'", v, sizeof v);
    ck_assert_str_eq(v, "committed");
    scalar("SELECT COUNT(*) FROM Table1 WHERE A LIKE 'txn*'", v, sizeof v);
    ck_assert_str_eq(v, "1");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* SQL_CONCUR_VALUES: a row changed by another statement since the
 * cursor fetched it is not written (01001, SQL_ROW_ERROR). */
START_TEST(optimistic_conflict)
{
    char path[1024], v[256];
    connect_to(odbct_copy_fixture(MDB, "conflict.mdb", path,
                                  sizeof path), NULL);
    edit ed;
    edit_open(&ed, "SELECT A, B, C, E FROM Table1 WHERE A = 'a'", 1);
    edit_fetch(&ed, 1);
    exec_ok("UPDATE Table1 SET E = 5 WHERE A = 'a'");
    ignore_but_b(&ed, "lost update");
    SQLRETURN r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, ed.st), "01001");
    ck_assert_int_eq(ed.status[0], SQL_ROW_ERROR);
    r = SQLSetPos(ed.st, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_SUCCESS_WITH_INFO);
    /* SQL_REFRESH reads it again: then the write goes through */
    ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLSetPos(ed.st, 1, SQL_REFRESH,
                                               SQL_LOCK_NO_CHANGE));
    ck_assert_int_eq(ed.e[0], 5);
    ignore_but_b(&ed, "after refresh");
    r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_SUCCESS);
    SQLFreeHandle(SQL_HANDLE_STMT, ed.st);
    scalar("SELECT B FROM Table1 WHERE A = 'a'", v, sizeof v);
    ck_assert_str_eq(v, "after refresh");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Data at execution: SQL_LEN_DATA_AT_EXEC in a bound column's
 * indicator; SQLParamData names the column's buffer, SQLPutData sends
 * the value in pieces. */
START_TEST(data_at_execution)
{
    char path[1024], v[256];
    connect_to(odbct_copy_fixture(MDB, "dae.mdb", path, sizeof path), NULL);
    edit ed;
    edit_open(&ed, "SELECT A, B, C, E FROM Table1 WHERE A = 'a'", 1);
    edit_fetch(&ed, 1);
    ed.ai[0] = ed.ci[0] = ed.ei[0] = SQL_COLUMN_IGNORE;
    ed.bi[0] = SQL_LEN_DATA_AT_EXEC(0);
    SQLRETURN r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_NEED_DATA);
    /* abandoned (SQLCancel), then asked again */
    ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLCancel(ed.st));
    r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_msg(r == SQL_NEED_DATA, "%d %s %s", (int)r,
                  odbct_state(SQL_HANDLE_STMT, ed.st),
                  odbct_message(SQL_HANDLE_STMT, ed.st));
    SQLPOINTER token = NULL;
    r = SQLParamData(ed.st, &token);
    ck_assert_int_eq(r, SQL_NEED_DATA);
    ck_assert_ptr_eq(token, ed.b[0]);
    ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLPutData(ed.st, "in ", 3));
    ODBCT_OK(SQL_HANDLE_STMT, ed.st, SQLPutData(ed.st, "pieces", SQL_NTS));
    r = SQLParamData(ed.st, &token);
    ck_assert_msg(r == SQL_SUCCESS, "SQLParamData %d: %s %s", (int)r,
                  odbct_state(SQL_HANDLE_STMT, ed.st),
                  odbct_message(SQL_HANDLE_STMT, ed.st));
    ck_assert_int_eq(ed.status[0], SQL_ROW_UPDATED);
    SQLFreeHandle(SQL_HANDLE_STMT, ed.st);
    scalar("SELECT B FROM Table1 WHERE A = 'a'", v, sizeof v);
    ck_assert_str_eq(v, "in pieces");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

START_TEST(info_and_concurrency)
{
    connect_to(odbct_fixture(MDB), "ReadOnly=1;");
    SQLUINTEGER a1 = 0, a2 = 0, pos = 0, scc = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc,
             SQL_STATIC_CURSOR_ATTRIBUTES1, &a1, sizeof a1, NULL));
    ck_assert(a1 & SQL_CA1_POS_UPDATE);
    ck_assert(a1 & SQL_CA1_POS_DELETE);
    ck_assert(a1 & SQL_CA1_BULK_ADD);
    ck_assert(a1 & SQL_CA1_BULK_UPDATE_BY_BOOKMARK);
    ck_assert(a1 & SQL_CA1_BULK_DELETE_BY_BOOKMARK);
    ck_assert(!(a1 & SQL_CA1_BULK_FETCH_BY_BOOKMARK));
    ck_assert(!(a1 & SQL_CA1_LOCK_EXCLUSIVE));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc,
             SQL_STATIC_CURSOR_ATTRIBUTES2, &a2, sizeof a2, NULL));
    ck_assert(a2 & SQL_CA2_OPT_VALUES_CONCURRENCY);
    ck_assert(a2 & SQL_CA2_READ_ONLY_CONCURRENCY);
    ck_assert(!(a2 & SQL_CA2_LOCK_CONCURRENCY));
    ck_assert(!(a2 & SQL_CA2_OPT_ROWVER_CONCURRENCY));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_POS_OPERATIONS, &pos,
                                             sizeof pos, NULL));
    ck_assert(pos & SQL_POS_UPDATE && pos & SQL_POS_DELETE &&
              pos & SQL_POS_ADD);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_SCROLL_CONCURRENCY,
                                             &scc, sizeof scc, NULL));
    ck_assert_uint_eq(scc, SQL_SCCO_READ_ONLY | SQL_SCCO_OPT_VALUES);
    SQLUSMALLINT has = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc,
             SQL_API_SQLBULKOPERATIONS, &has));
    ck_assert_int_eq(has, SQL_TRUE);
    SQLHSTMT st = new_stmt();
    static const struct { SQLULEN set, got; SQLRETURN r; } cc[] = {
        { SQL_CONCUR_VALUES, SQL_CONCUR_VALUES, SQL_SUCCESS },
        { SQL_CONCUR_LOCK, SQL_CONCUR_VALUES, SQL_SUCCESS_WITH_INFO },
        { SQL_CONCUR_ROWVER, SQL_CONCUR_VALUES, SQL_SUCCESS_WITH_INFO },
        { SQL_CONCUR_READ_ONLY, SQL_CONCUR_READ_ONLY, SQL_SUCCESS },
    };
    for (size_t i = 0; i < sizeof cc / sizeof cc[0]; i++) {
        SQLRETURN r = SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY,
                                     (SQLPOINTER)cc[i].set, 0);
        ck_assert_int_eq(r, cc[i].r);
        if (r == SQL_SUCCESS_WITH_INFO)
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S02");
        SQLULEN got = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st,
                 SQL_ATTR_CONCURRENCY, &got, 0, NULL));
        ck_assert_uint_eq(got, cc[i].got);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}
END_TEST

/* Every positioned write on the cursor of sql is refused with state and
 * a message containing part; the file stays byte for byte. */
static void refused(const char *rel, const char *name, const char *extra,
                    const char *sql, SQLULEN concurrency, SQLULEN type,
                    const char *state, const char *part)
{
    char path[1024];
    odbct_copy_fixture(rel, name, path, sizeof path);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path, extra);
    SQLHSTMT st = new_stmt();
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)type, 0);
    SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    char b[128] = "";
    SQLLEN bi = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 2, SQL_C_CHAR, b, sizeof b,
                                             &bi));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    snprintf(b, sizeof b, "refused");
    bi = SQL_NTS;
    static const SQLUSMALLINT ops[] = {SQL_UPDATE, SQL_DELETE, SQL_ADD};
    for (int k = 0; k < 4; k++) {
        SQLRETURN r = k < 3 ? SQLSetPos(st, 1, ops[k], SQL_LOCK_NO_CHANGE)
                            : SQLBulkOperations(st, SQL_ADD);
        ck_assert_msg(r == SQL_ERROR, "%s op %d: %d", name, k, (int)r);
        ck_assert_msg(!strcmp(odbct_state(SQL_HANDLE_STMT, st), state),
                      "%s op %d: %s %s", name, k,
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st), part),
                      "%s op %d: %s", name, k,
                      odbct_message(SQL_HANDLE_STMT, st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
}

START_TEST(refusals_leave_the_file)
{
    refused(MDB, "ro.mdb", "ReadOnly=1;", "SELECT A, B FROM Table1",
            SQL_CONCUR_VALUES, SQL_CURSOR_STATIC, "HY000",
            "Cannot update. Database or object is read-only.");
    refused("jackcess/V1997/testV1997.mdb", "jet3.mdb", NULL,
            "SELECT A, B FROM Table1", SQL_CONCUR_VALUES, SQL_CURSOR_STATIC,
            "HYC00", "Access 97 files are read-only");
    refused(MDB, "join.mdb", NULL, "SELECT t.A, u.B FROM Table1 t, "
            "Table1 u WHERE t.A = u.A", SQL_CONCUR_VALUES, SQL_CURSOR_STATIC,
            "HY000", "Operation must use an updateable query.");
    refused(ACCDB, "agg.accdb", NULL, "SELECT COUNT(*), MAX(B) FROM Table1",
            SQL_CONCUR_VALUES, SQL_CURSOR_STATIC, "HY000",
            "Operation must use an updateable query.");
    refused(MDB, "readonlycur.mdb", NULL, "SELECT A, B FROM Table1",
            SQL_CONCUR_READ_ONLY, SQL_CURSOR_STATIC, "HY092",
            "SQL_CONCUR_READ_ONLY");
    refused(MDB, "fwd.mdb", NULL, "SELECT A, B FROM Table1",
            SQL_CONCUR_VALUES, SQL_CURSOR_FORWARD_ONLY, "HYC00",
            "static cursor");
}
END_TEST

/* A positioned write the core refuses (a duplicate primary key) gives
 * the statement's SQLSTATE, SQL_ROW_ERROR, and changes nothing. */
START_TEST(refused_by_the_rules)
{
    char path[1024], v[64];
    connect_to(odbct_copy_fixture(ACCDB, "dup.accdb", path,
                                  sizeof path), NULL);
    edit ed;
    edit_open(&ed, "SELECT A, B, C, E FROM Table1 WHERE A = 'a'", 1);
    edit_fetch(&ed, 1);
    snprintf(ed.a[0], sizeof ed.a[0], "abcdefg");
    ed.ai[0] = SQL_NTS;
    ed.bi[0] = ed.ci[0] = ed.ei[0] = SQL_COLUMN_IGNORE;
    SQLRETURN r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, ed.st), "23000");
    ck_assert_int_eq(ed.status[0], SQL_ROW_ERROR);
    /* every column ignored: nothing to write */
    ed.ai[0] = SQL_COLUMN_IGNORE;
    r = SQLSetPos(ed.st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ck_assert_int_eq(r, SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, ed.st), "21S02");
    SQLFreeHandle(SQL_HANDLE_STMT, ed.st);
    scalar("SELECT COUNT(*) FROM Table1 WHERE A = 'a'", v, sizeof v);
    ck_assert_str_eq(v, "1");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("odbc_setpos");
    TCase *tc = tcase_create("setpos");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, edit_session_equals_statements_mdb);
    tcase_add_test(tc, edit_session_equals_statements_accdb);
    tcase_add_test(tc, cursor_side);
    tcase_add_test(tc, big_table_keys);
    tcase_add_test(tc, by_bookmark);
    tcase_add_test(tc, in_a_transaction);
    tcase_add_test(tc, optimistic_conflict);
    tcase_add_test(tc, data_at_execution);
    tcase_add_test(tc, info_and_concurrency);
    tcase_add_test(tc, refusals_leave_the_file);
    tcase_add_test(tc, refused_by_the_rules);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(suite)
