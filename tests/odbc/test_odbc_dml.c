/*
 * test_odbc_dml.c - INSERT, UPDATE and DELETE through the driver manager
 * (issue 25), on copies of public fixtures in the temporary directory:
 * every statement form prepares (no result columns, parameters described
 * as their columns), binding errors (42S02, 42S22, 21S01, 42000),
 * transactions (SQLEndTran on both handle kinds, autocommit, SQLGetInfo's
 * answers), SELECT @@IDENTITY, saved action queries, writes committed and
 * rolled back (seen after a reopen, jetcheck verify), and exact values
 * and atomic parameter arrays on bulk.accdb.
 *
 * Refused writes (read-only files and modes, rules, keys, values) are
 * test_odbc_refuse.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odbcwrite.h"

#define FIXTURE "jackcess/V2003/indexTestV2003.mdb"

static SQLHENV env;
static SQLHDBC dbc;
static char copy_path[1024];

static void connect_to(const char *path, const char *extra)
{
    odbct_connect_file(&env, &dbc, path, extra);
}

static SQLHSTMT new_stmt(void)
{
    return odbct_stmt(dbc);
}

/* Execute sql directly; its return code (the diagnostic stays). */
static SQLRETURN exec_on(SQLHSTMT st, const char *sql)
{
    return SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
}

/* ------------------------------------------------------------ forms */

START_TEST(every_form_prepares)
{
    static const struct { const char *sql; int nparams; } forms[] = {
        { "INSERT INTO Table2 (id, data) VALUES (?, ?)", 2 },
        { "INSERT INTO Table2 VALUES (99, 'x')", 0 },
        { "insert into [Table2] ([data]) select data from Table3 where id "
          "= ?", 1 },
        { "INSERT INTO Table2 (data) (SELECT data FROM Table3)", 0 },
        { "UPDATE Table1 SET otherfk1 = otherfk1 * 2, data = ? WHERE id = "
          "?", 2 },
        { "UPDATE Table1 SET otherfk1 = 0", 0 },
        { "UPDATE Table1 INNER JOIN Table2 ON Table1.otherfk1 = Table2.id "
          "SET Table1.data = Table2.data WHERE Table2.id = ?", 1 },
        { "DELETE FROM Table1 WHERE id = ?", 1 },
        { "DELETE * FROM [Table1] WHERE otherfk1 > ?", 1 },
        { "DELETE Table1.* FROM Table1 INNER JOIN Table2 ON "
          "Table1.otherfk1 = Table2.id WHERE Table2.data = ?", 1 },
        { "DELETE FROM Table3", 0 },
        { "PARAMETERS [which] Long; DELETE FROM Table3 WHERE id = [which]",
          1 },
    };
    connect_to(odbct_copy_fixture(FIXTURE, "forms.mdb", copy_path,
                                  sizeof copy_path), NULL);
    SQLHSTMT st = new_stmt();
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLPrepare(st, (SQLCHAR *)forms[i].sql, SQL_NTS));
        SQLSMALLINT n = -1;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
        ck_assert_msg(n == 0, "%s: %d columns", forms[i].sql, (int)n);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumParams(st, &n));
        ck_assert_msg(n == forms[i].nparams, "%s: %d params", forms[i].sql,
                      (int)n);
    }
    /* a ? giving a column's value is described as that column */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table1 (otherfk1, data) VALUES (?, ?)",
             SQL_NTS));
    SQLSMALLINT type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLDescribeParam(st, 1, &type, NULL, NULL, NULL));
    ck_assert_int_eq(type, SQL_INTEGER);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}
END_TEST

START_TEST(binding_errors)
{
    static const struct { const char *sql, *state, *part; } bad[] = {
        { "INSERT INTO NoSuchTable VALUES (1)", "42S02", "NoSuchTable" },
        { "INSERT INTO Table2 (NoSuchColumn) VALUES (1)", "42S22",
          "NoSuchColumn" },
        { "INSERT INTO Table2 (id, data) VALUES (1)", "21S01",
          "Number of query values" },
        { "INSERT INTO Table2 (data, data) VALUES (1, 2)", "42000",
          "Duplicate output destination" },
        { "INSERT INTO Table2 VALUES", "42000", "(" },
        { "UPDATE Table1 SET WHERE id = 1", "42000", "after SET" },
        { "UPDATE Table1 SET NoSuch = 1", "42S22", "NoSuch" },
        { "DELETE FROM NoSuchTable", "42S02", "NoSuchTable" },
        { "DELETE Table1", "42000", "FROM" },
        { "DELETE FROM Table1 INNER JOIN Table2 ON Table1.otherfk1 = "
          "Table2.id", "42000", "Specify the table" },
        { "DELETE FROM Table1 WHERE NoSuch = 1", "42S22", "NoSuch" },
    };
    connect_to(odbct_copy_fixture(FIXTURE, "bind.mdb", copy_path,
                                  sizeof copy_path), NULL);
    SQLHSTMT st = new_stmt();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SQLRETURN r = SQLPrepare(st, (SQLCHAR *)bad[i].sql, SQL_NTS);
        ck_assert_msg(r == SQL_ERROR, "%s prepared", bad[i].sql);
        ck_assert_msg(!strcmp(odbct_state(SQL_HANDLE_STMT, st),
                              bad[i].state), "%s: %s %s", bad[i].sql,
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st),
                             bad[i].part), "%s: %s", bad[i].sql,
                      odbct_message(SQL_HANDLE_STMT, st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}
END_TEST

/* ------------------------------------------------------ transactions */

START_TEST(transaction_info_and_end_tran)
{
    connect_to(odbct_copy_fixture(FIXTURE, "txn.mdb", copy_path,
                                  sizeof copy_path), NULL);
    SQLUSMALLINT us = 0;
    SQLUINTEGER ui = 0;
    char yn[8] = "";
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_TXN_CAPABLE, &us, 0,
                                             NULL));
    ck_assert_int_eq(us, SQL_TC_DML);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DEFAULT_TXN_ISOLATION,
                                             &ui, 0, NULL));
    ck_assert_uint_eq(ui, SQL_TXN_SERIALIZABLE);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_TXN_ISOLATION_OPTION,
                                             &ui, 0, NULL));
    ck_assert_uint_eq(ui, SQL_TXN_SERIALIZABLE);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_MULTIPLE_ACTIVE_TXN,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "N");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "N");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_CURSOR_COMMIT_BEHAVIOR,
                                             &us, 0, NULL));
    ck_assert_int_eq(us, SQL_CB_PRESERVE);
    SQLULEN v = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
                                                    &v, 0, NULL));
    ck_assert_uint_eq(v, SQL_AUTOCOMMIT_ON);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    /* nothing written yet: both ends succeed, on both handle kinds */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_COMMIT));
    ODBCT_OK(SQL_HANDLE_ENV, env, SQLEndTran(SQL_HANDLE_ENV, env,
                                             SQL_COMMIT));
    ck_assert_int_eq(SQLEndTran(SQL_HANDLE_DBC, dbc, 42), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "HY012");
    ck_assert_int_eq(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                     (SQLPOINTER)SQL_TXN_READ_COMMITTED, 0),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "01S02");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0));
    odbct_disconnect(env, dbc);
}
END_TEST

/* Column 1 of the first row of sql, as a long. */
static long scalar(const char *sql)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, sql));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLINTEGER v = -1;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &v, 0,
                                             &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return ind == SQL_NULL_DATA ? -1 : (long)v;
}

START_TEST(identity_is_zero_before_any_insert)
{
    connect_to(odbct_copy_fixture(FIXTURE, "ident.mdb", copy_path,
                                  sizeof copy_path), NULL);
    ck_assert_int_eq(scalar("SELECT @@IDENTITY"), 0);
    ck_assert_int_eq(scalar("  select @@identity ;"), 0);
    odbct_disconnect(env, dbc);
}
END_TEST

/* Saved action queries run as their INSERT, UPDATE or DELETE through
 * {call} and EXEC. */
START_TEST(saved_action_queries_run_as_dml)
{
    odbct_copy_fixture("jackcess/V2003/queryTestV2003.mdb", "saved.mdb",
                       copy_path, sizeof copy_path);
    connect_to(copy_path, NULL);
    SQLHSTMT st = new_stmt();
    static const char *const calls[] = {
        "{call DeleteQuery}", "{call [DeleteQuery]()}", "EXEC DeleteQuery",
        "execute [DeleteQuery];",
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)calls[i],
                                                 SQL_NTS));
        SQLSMALLINT cols = -1;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &cols));
        ck_assert_msg(cols == 0, "%s: %d columns", calls[i], (int)cols);
    }
    /* this file's Table1 has no relationships: the core writes it */
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "{call DeleteQuery}"));
    SQLLEN rows = -2;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_ge(rows, 0);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE col1 > "
                            "'blah'"), 0);
    /* the fixture's append query appends two fields to one: Access's
     * "Duplicate output destination" */
    ck_assert_int_eq(SQLPrepare(st, (SQLCHAR *)"{call AppendQuery}",
                                SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    /* make-table queries still do not run */
    ck_assert_int_eq(SQLPrepare(st, (SQLCHAR *)"{call MakeTableQuery}",
                                SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_verify(copy_path);
}
END_TEST

/* ----------------------------------------------------------- writes */

START_TEST(writes_commit_and_roll_back)
{
    /* testV2003's Table1 (A Text primary key, B Text) has no rule the
     * core leaves unenforced */
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "write.mdb", copy_path,
                       sizeof copy_path);
    connect_to(copy_path, NULL);
    long before = scalar("SELECT COUNT(*) FROM Table1");
    ck_assert_int_eq(before, 2);
    SQLHSTMT st = new_stmt();
    SQLLEN rows = -2;
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "INSERT INTO Table1 (A, B) "
             "VALUES ('jet', 'x')"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "UPDATE Table1 SET B = '556' "
                                              "WHERE A > ''"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, before + 1);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "DELETE FROM Table1 WHERE "
                                              "A = 'jet'"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), before);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), before + 1);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    connect_to(copy_path, NULL);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE B = "
                            "'556'"), before + 1);
    odbct_disconnect(env, dbc);
    odbct_verify(copy_path);
}
END_TEST

/* Column 1 of every row of sql, joined by ',' (static). */
static const char *rows_of(const char *sql)
{
    static char buf[1024];
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, sql));
    odbct_col1(st, buf, sizeof buf);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return buf;
}

static void exec_rows(const char *sql, long rows)
{
    odbct_exec_rows(dbc, sql, rows);
}

/* Access's join forms: UPDATE a INNER/LEFT JOIN b ON ... SET ... and
 * DELETE a.* FROM a INNER/LEFT JOIN b ON ..., with aliases, a WHERE on
 * the joined table and a parameter; a row joined to two rows is deleted
 * once; an UPDATE that would set one row from two joined rows is refused
 * (Operation must use an updateable query), as is a DELETE naming two
 * tables (Could not delete from specified tables), and both leave the
 * file as it was. On testV2003's Table1 (A Text key) and Table3 (a AutoNumber, b
 * Text), neither with a rule left unenforced. */
START_TEST(join_forms_update_and_delete)
{
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "join.mdb", copy_path,
                       sizeof copy_path);
    connect_to(copy_path, NULL);
    exec_rows("INSERT INTO Table1 (A, B, E) SELECT 'k1', 'v', 1 FROM Table1 "
              "WHERE A = 'a'", 1);
    exec_rows("INSERT INTO Table1 (A, B, E) VALUES ('k2', 'v', 1)", 1);
    exec_rows("INSERT INTO Table1 (A, B, E) VALUES ('k3', 'v', 1)", 1);
    exec_rows("INSERT INTO Table3 (b) VALUES ('k1')", 1);
    exec_rows("INSERT INTO Table3 (b) VALUES ('k2')", 1);
    exec_rows("INSERT INTO Table3 (b) VALUES ('zz')", 1);
    /* one row of Table3 for each of k1 and k2: a value from the joined
     * row, an unqualified column of the target */
    exec_rows("UPDATE Table1 INNER JOIN Table3 ON Table1.A = Table3.b "
              "SET Table1.B = Table3.b & '!', E = Table3.a * 100", 2);
    ck_assert_str_eq(rows_of("SELECT A & '=' & B & '/' & E FROM Table1 "
                             "ORDER BY A"),
                     "a=b/0,abcdefg=hijklmnop/333333333,k1=k1!/100,"
                     "k2=k2!/200,k3=v/1");
    /* LEFT JOIN: the rows without a partner */
    exec_rows("UPDATE Table1 LEFT JOIN Table3 ON Table1.A = Table3.b "
              "SET Table1.B = 'none' WHERE Table3.b IS NULL", 3);
    ck_assert_str_eq(rows_of("SELECT B FROM Table1 ORDER BY A"),
                     "none,none,k1!,k2!,none");
    /* the other table as the target, a parameter in the WHERE */
    {
        SQLHSTMT st = new_stmt();
        SQLINTEGER e = 200;
        SQLLEN n = -2;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1,
                 SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &e, 0,
                 NULL));
        ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "UPDATE Table3 AS y "
                 "INNER JOIN Table1 AS x ON x.A = y.b SET y.b = x.A & '#' "
                 "WHERE x.E = ?"));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &n));
        ck_assert_int_eq(n, 1);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    ck_assert_str_eq(rows_of("SELECT b FROM Table3 ORDER BY a"),
                     "k1,k2#,zz");
    /* a row of Table1 joined to two rows of Table3: the UPDATE is
     * refused whole, nothing written */
    exec_rows("INSERT INTO Table3 (b) VALUES ('k1')", 1);
    {
        odbct_snap before;
        odbct_disconnect(env, dbc);
        odbct_snap_take(&before, copy_path);
        connect_to(copy_path, NULL);
        SQLHSTMT st = new_stmt();
        ck_assert_int_eq(exec_on(st, "UPDATE Table1 INNER JOIN Table3 ON "
                                     "Table1.A = Table3.b SET Table1.E = "
                                     "Table3.a"), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
        ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                     "Operation must use an updateable "
                                     "query"));
        /* setting fields of both tables is not done yet */
        ck_assert_int_eq(exec_on(st, "UPDATE Table1 INNER JOIN Table3 ON "
                                     "Table1.A = Table3.b SET Table1.B = "
                                     "'x', Table3.b = 'y'"), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
        /* a DELETE naming two tables: Access refuses it (3086) */
        ck_assert_int_eq(exec_on(st, "DELETE Table1.*, Table3.* FROM Table1 "
                                     "INNER JOIN Table3 ON Table1.A = "
                                     "Table3.b"), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
        ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                     "Could not delete from specified "
                                     "tables."));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        odbct_disconnect(env, dbc);
        odbct_snap_same(&before);
        connect_to(copy_path, NULL);
    }
    /* DELETE through the join: k1 joins two rows and goes once */
    exec_rows("DELETE t.* FROM Table1 AS t INNER JOIN Table3 ON t.A = "
              "Table3.b", 1);
    ck_assert_str_eq(rows_of("SELECT A FROM Table1 ORDER BY A"),
                     "a,abcdefg,k2,k3");
    /* orphans of Table3, through a LEFT JOIN: all four now (k1 went) */
    exec_rows("INSERT INTO Table1 (A) VALUES ('zz')", 1);
    exec_rows("DELETE Table3.* FROM Table3 LEFT JOIN Table1 ON Table1.A = "
              "Table3.b WHERE Table1.A IS NULL", 3);
    ck_assert_str_eq(rows_of("SELECT b FROM Table3 ORDER BY a"), "zz");
    /* a WHERE on the joined table */
    exec_rows("DELETE FROM Table1 WHERE A = 'zz'", 1);
    exec_rows("INSERT INTO Table3 (b) VALUES ('k3')", 1);
    exec_rows("DELETE Table1.* FROM Table1 INNER JOIN Table3 ON Table1.A = "
              "Table3.b WHERE Table3.b = 'k2'", 0);
    exec_rows("DELETE Table1.* FROM Table1 INNER JOIN Table3 ON Table1.A = "
              "Table3.b WHERE Table3.b = 'k3'", 1);
    odbct_disconnect(env, dbc);
    connect_to(copy_path, NULL);
    ck_assert_str_eq(rows_of("SELECT A FROM Table1 ORDER BY A"),
                     "a,abcdefg,k2");
    ck_assert_str_eq(rows_of("SELECT b FROM Table3 ORDER BY a"), "zz,k3");
    odbct_disconnect(env, dbc);
    odbct_verify(copy_path);
}
END_TEST

/* Writes on a copy of bulk.accdb (200,000 rows, a Long primary key, a
 * compressed Text column): a Double parameter stored whole (not as the
 * 15 digits of its text), an UPDATE of a row with text, a parameter
 * array whose middle set is a duplicate (none of it stays, the status
 * array says which), a DELETE's row count, and jetcheck after. */
START_TEST(bulk_values_exact_arrays_atomic)
{
    char path[1024];
    odbct_copy_fixture("../bulk/bulk.accdb", "bulk.accdb", path, sizeof path);
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    SQLINTEGER ids[3] = { 300001, 0, 0 };
    SQLDOUBLE am[3] = { 25028.079694916065, 0, 0 };
    SQLCHAR lab[3][16] = { "exact", "", "" };
    SQL_TIMESTAMP_STRUCT ts[3];
    SQLLEN lab_ind[3] = { SQL_NTS, SQL_NTS, SQL_NTS };
    SQLUSMALLINT status[3] = { 99, 99, 99 };
    SQLLEN rows = -2;
    memset(ts, 0, sizeof ts);
    for (int i = 0; i < 3; i++) {
        ts[i].year = 2020;
        ts[i].month = 1;
        ts[i].day = (SQLUSMALLINT)(2 + i);
    }
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)"INSERT INTO "
             "bulk (id, amount, label, created) VALUES (?, ?, ?, ?)",
             SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 2, SQL_PARAM_INPUT,
             SQL_C_DOUBLE, SQL_DOUBLE, 15, 0, am, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 3, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 50, 0, lab, 16, lab_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 4, SQL_PARAM_INPUT,
             SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, 19, 0, ts, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 1);
    SQLFreeStmt(st, SQL_CLOSE);
    {
        SQLHSTMT q = new_stmt();
        SQLDOUBLE got = 0;
        SQLLEN ind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, q, exec_on(q, "SELECT amount FROM bulk "
                                               "WHERE id = 300001"));
        ODBCT_OK(SQL_HANDLE_STMT, q, SQLFetch(q));
        ODBCT_OK(SQL_HANDLE_STMT, q, SQLGetData(q, 1, SQL_C_DOUBLE, &got,
                                                0, &ind));
        ck_assert_msg(got == 25028.079694916065, "stored %.17g", got);
        SQLFreeHandle(SQL_HANDLE_STMT, q);
    }
    /* an array whose middle set repeats id 5: none of it stays */
    ids[0] = 300002; ids[1] = 5; ids[2] = 300003;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
             (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAM_STATUS_PTR, status, 0));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "23000");
    ck_assert_int_eq(status[1], SQL_PARAM_ERROR);
    ck_assert_int_eq(status[2], SQL_PARAM_UNUSED);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM bulk WHERE id IN "
                            "(300002, 300003)"), 0);
    /* UPDATE of a row whose other fields are compressed text */
    st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "UPDATE bulk SET amount = "
                                              "amount + 1 WHERE id = 4"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM bulk WHERE id = 4 AND "
                            "label = 'ace'"), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "DELETE FROM bulk WHERE id "
                                              "BETWEEN 10 AND 19"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 10);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM bulk"), 199991);
    odbct_disconnect(env, dbc);
    connect_to(path, NULL);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM bulk WHERE id > 0"),
                     199991);
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Rows whose indexed text holds characters the sort order cannot encode
 * (Access wrote them; the driver cannot compute their keys) update and
 * delete: their index entries are found by the row pointer. On
 * testUnicodeCompV2003's Table (ID AutoNumber key, Unicode Text indexed),
 * row 5 is Japanese (漢字仮名交じり文), row 4 polytonic Greek. Inserting
 * such a value is still refused (HYC00) and changes nothing. */
START_TEST(rows_with_unencodable_text_keys_update_and_delete)
{
    odbct_snap before;
    SQLHSTMT st;

    odbct_copy_fixture("jackcess/V2003/testUnicodeCompV2003.mdb",
                       "unicode.mdb", copy_path, sizeof copy_path);
    odbct_snap_take(&before, copy_path);
    connect_to(copy_path, NULL);
    /* a rolled back DELETE and UPDATE leave the file byte for byte */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    exec_rows("DELETE FROM [Table] WHERE ID = 5", 1);
    exec_rows("UPDATE [Table] SET Unicode = Unicode WHERE ID < 7", 5);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM [Table]"), 7);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0));
    /* an INSERT of such a key is refused and changes nothing */
    st = new_stmt();
    ck_assert_int_eq(exec_on(st, "INSERT INTO [Table] (Unicode) VALUES "
                                 "('\xe6\xbc\xa2\xe5\xad\x97')"), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);

    /* committed: the Japanese row's key changes, then it goes; the Greek
     * row goes; the index still seeks every row left */
    connect_to(copy_path, NULL);
    exec_rows("UPDATE [Table] SET Unicode = 'kanji gone' WHERE ID = 5", 1);
    ck_assert_str_eq(rows_of("SELECT ID FROM [Table] WHERE Unicode = "
                             "'kanji gone'"), "5");
    exec_rows("DELETE FROM [Table] WHERE ID = 4", 1);
    exec_rows("DELETE FROM [Table] WHERE ID = 5", 1);
    ck_assert_str_eq(rows_of("SELECT ID FROM [Table] WHERE Unicode >= '' "
                             "ORDER BY ID"), "1,2,3,6,7,8");
    ck_assert_str_eq(rows_of("EXPLAIN SELECT ID FROM [Table] WHERE "
                             "Unicode >= ''"), "SEEK Table.Unicode "
                     "(Unicode >= '') | FILTER");
    odbct_disconnect(env, dbc);
    odbct_verify(copy_path);
}
END_TEST

/* Fixed-length Text (users.c_flag_ of fixedTextTest, one character):
 * written padded with spaces as Access stores it (the empty text reads
 * back as one space), found through its index, too long refused (22001)
 * with the file unchanged; Jet4 and ACE. */
static void fixed_text_on(const char *rel, const char *name)
{
    odbct_snap before;
    SQLHSTMT st;
    odbct_copy_fixture(rel, name, copy_path, sizeof copy_path);
    connect_to(copy_path, NULL);
    exec_rows("INSERT INTO users VALUES (3, 'c', 'p', 's', 'n', 1, 1, 1, "
              "'Y', #2020-01-02#)", 1);
    exec_rows("INSERT INTO users VALUES (4, 'd', 'p', 's', 'n', 1, 1, 1, "
              "'', #2020-01-02#)", 1);
    exec_rows("UPDATE users SET c_flag_ = 'Z' WHERE i_user_id = 1", 1);
    ck_assert_str_eq(rows_of("SELECT i_user_id & '[' & c_flag_ & ']' FROM "
                             "users ORDER BY i_user_id"),
                     "1[Z],2[N],3[Y],4[ ]");
    ck_assert_str_eq(rows_of("SELECT i_user_id FROM users WHERE c_flag_ = "
                             "'Y'"), "3");
    ck_assert_str_eq(rows_of("SELECT i_user_id FROM users WHERE c_flag_ >= "
                             "'N' ORDER BY c_flag_"), "2,3,1");
    odbct_disconnect(env, dbc);
    odbct_snap_take(&before, copy_path);
    connect_to(copy_path, NULL);
    st = new_stmt();
    ck_assert_int_eq(exec_on(st, "UPDATE users SET c_flag_ = 'YY' WHERE "
                                 "i_user_id = 3"), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22001");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
    odbct_verify(copy_path);
}

START_TEST(fixed_length_text_written_padded)
{
    fixed_text_on("jackcess/V2003/fixedTextTestV2003.mdb", "fixed.mdb");
    fixed_text_on("jackcess/V2010/fixedTextTestV2010.accdb", "fixed.accdb");
}
END_TEST

static Suite *dml_suite(void)
{
    Suite *s = suite_create("odbc_dml");
    TCase *tc = tcase_create("dml");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_form_prepares);
    tcase_add_test(tc, binding_errors);
    tcase_add_test(tc, transaction_info_and_end_tran);
    tcase_add_test(tc, identity_is_zero_before_any_insert);
    tcase_add_test(tc, saved_action_queries_run_as_dml);
    tcase_add_test(tc, writes_commit_and_roll_back);
    tcase_add_test(tc, join_forms_update_and_delete);
    tcase_add_test(tc, bulk_values_exact_arrays_atomic);
    tcase_add_test(tc, rows_with_unencodable_text_keys_update_and_delete);
    tcase_add_test(tc, fixed_length_text_written_padded);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(dml_suite)
