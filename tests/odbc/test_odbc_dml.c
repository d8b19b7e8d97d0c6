/*
 * test_odbc_dml.c - INSERT, UPDATE and DELETE through the driver manager
 * (issue 25), on copies of public fixtures in the temporary directory:
 * every statement form prepares (no result columns, parameters described
 * as their columns), binding errors (42S02, 42S22, 21S01, 42000), the
 * refusals with their SQLSTATE and message and the file byte-for-byte
 * unchanged (ReadOnly=1, SQL_MODE_READ_ONLY, Access 97, a file without
 * write permission), transactions (SQLEndTran on both handle kinds,
 * autocommit, SQLGetInfo's answers), SELECT @@IDENTITY, and a parameter
 * array refused as a whole.
 *
 * The writes themselves (row counts, commit/rollback seen after a
 * reopen, a failing set of an array leaving nothing, jetcheck verify)
 * run once the core writes rows: until then the core refuses every
 * table (HYC00), and those tests check exactly that refusal and that
 * the file is unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odbctest.h"

#define FIXTURE "jackcess/V2003/indexTestV2003.mdb"

static SQLHENV env;
static SQLHDBC dbc;
static char copy_path[1024];

/* Copy fixture rel to the temporary directory as name; its path. */
static const char *copy_fixture(const char *rel, const char *name,
                                char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", odbct_tmpdir(), name);
    char cmd[4096];
    chmod(out, 0644);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 0644 '%s'",
             odbct_fixture(rel), out, out);
    ck_assert_int_eq(system(cmd), 0);
    return out;
}

static unsigned char *slurp_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The file at path has exactly the bytes in want (and no journal). */
static void assert_unchanged(const char *path, const unsigned char *want,
                             size_t n)
{
    size_t m;
    unsigned char *got = slurp_file(path, &m);
    ck_assert_uint_eq(m, n);
    ck_assert_msg(memcmp(got, want, n) == 0, "%s changed", path);
    free(got);
}

static void connect_to(const char *path, const char *extra)
{
    char cs[2048];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;%s", path,
             extra ? extra : "");
    odbct_connect(&env, &dbc, cs);
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

/* Execute sql directly; its return code (the diagnostic stays). */
static SQLRETURN exec_on(SQLHSTMT st, const char *sql)
{
    return SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
}

/* Whether the core writes rows yet: an INSERT on a scratch copy. */
static int core_writes = -1;
static int writes_supported(void)
{
    if (core_writes >= 0)
        return core_writes;
    char path[1024];
    copy_fixture(FIXTURE, "probe.mdb", path, sizeof path);
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    SQLRETURN r = exec_on(st, "INSERT INTO Table2 (id, data) VALUES "
                              "(12345, 'probe')");
    core_writes = SQL_SUCCEEDED(r);
    if (!core_writes) {
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
        fprintf(stderr, "test_odbc_dml: the core does not write rows yet "
                "(%s); write checks skipped\n",
                odbct_message(SQL_HANDLE_STMT, st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    return core_writes;
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
    connect_to(copy_fixture(FIXTURE, "forms.mdb", copy_path,
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
    connect_to(copy_fixture(FIXTURE, "bind.mdb", copy_path,
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

/* --------------------------------------------------------- refusals */

/* Every DML form on the connection is refused with state and a message
 * containing part; the file stays as it was. */
static void all_refused(const char *path, const char *state,
                        const char *part)
{
    static const char *const writes[] = {
        "INSERT INTO Table2 (id, data) VALUES (7, 'x')",
        "UPDATE Table1 SET data = '1' WHERE id = 1",
        "DELETE FROM Table3 WHERE id = 3",
        "DELETE FROM [Table1]",
    };
    SQLHSTMT st = new_stmt();
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        ck_assert_int_eq(exec_on(st, writes[i]), SQL_ERROR);
        ck_assert_msg(!strcmp(odbct_state(SQL_HANDLE_STMT, st), state),
                      "%s: %s %s", writes[i],
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st), part),
                      "%s: %s", writes[i],
                      odbct_message(SQL_HANDLE_STMT, st));
    }
    /* reading still works */
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "SELECT COUNT(*) FROM "
                                              "Table1"));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    (void)path;
}

START_TEST(read_only_key_refuses)
{
    copy_fixture(FIXTURE, "ro.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
    connect_to(copy_path, "ReadOnly=1;");
    char yn[8] = "";
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "Y");
    all_refused(copy_path, "HY000", "Cannot update. Database or object is "
                "read-only.");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_COMMIT));
    odbct_disconnect(env, dbc);
    assert_unchanged(copy_path, before, n);
    free(before);
}
END_TEST

START_TEST(access_mode_read_only_refuses)
{
    copy_fixture(FIXTURE, "mode.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
    char cs[2048];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", copy_path);
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
             (SQLPOINTER)SQL_MODE_READ_ONLY, 0));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs,
             SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT));
    all_refused(copy_path, "HY000", "Cannot update. Database or object is "
                "read-only.");
    /* a parameter array is refused as a whole */
    SQLHSTMT st = new_stmt();
    SQLUSMALLINT status[3] = { 99, 99, 99 };
    SQLULEN processed = 7;
    SQLCHAR names[3][8] = { "a", "b", "c" };
    SQLLEN lens[3] = { SQL_NTS, SQL_NTS, SQL_NTS };
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
             (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAM_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 40, 0, names, 8, lens));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table2 (data) VALUES (?)", SQL_NTS));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(status[k], SQL_PARAM_UNUSED);
    ck_assert_uint_eq(processed, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    assert_unchanged(copy_path, before, n);
    free(before);
}
END_TEST

START_TEST(access97_refuses)
{
    copy_fixture("jackcess/V1997/testV1997.mdb", "jet3.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
    connect_to(copy_path, NULL);
    char yn[8] = "";
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "Y");
    SQLHSTMT st = new_stmt();
    ck_assert_int_eq(exec_on(st, "DELETE FROM Table1"), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "Access 97 files are read-only"));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    assert_unchanged(copy_path, before, n);
    free(before);
}
END_TEST

START_TEST(no_permission_says_why)
{
    if (geteuid() == 0) {
        fprintf(stderr, "test_odbc_dml: running as root, a read-only mode "
                "does not stop writes; permission check skipped\n");
        return;
    }
    copy_fixture(FIXTURE, "perm.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
    chmod(copy_path, 0444);
    connect_to(copy_path, NULL);
    SQLHSTMT st = new_stmt();
    ck_assert_int_eq(exec_on(st, "DELETE FROM Table3 WHERE id = 3"),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
    const char *m = odbct_message(SQL_HANDLE_STMT, st);
    ck_assert_msg(strstr(m, "Cannot update. Database or object is "
                         "read-only.") && strchr(m, '('), "%s", m);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    chmod(copy_path, 0644);
    assert_unchanged(copy_path, before, n);
    free(before);
}
END_TEST

/* ------------------------------------------------------ transactions */

START_TEST(transaction_info_and_end_tran)
{
    connect_to(copy_fixture(FIXTURE, "txn.mdb", copy_path,
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
    connect_to(copy_fixture(FIXTURE, "ident.mdb", copy_path,
                            sizeof copy_path), NULL);
    ck_assert_int_eq(scalar("SELECT @@IDENTITY"), 0);
    ck_assert_int_eq(scalar("  select @@identity ;"), 0);
    odbct_disconnect(env, dbc);
}
END_TEST

/* A refused write (the core's refusal today, or a rule's) leaves the file
 * unchanged and answers its state. */
START_TEST(refused_writes_leave_file_unchanged)
{
    int w = writes_supported();
    copy_fixture(FIXTURE, "refuse.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
    connect_to(copy_path, NULL);
    SQLHSTMT st = new_stmt();
    /* too long for data (Text(50)): 22001 before the core */
    ck_assert_int_eq(exec_on(st, "INSERT INTO Table2 (id, data) VALUES "
                                 "(77, '0123456789012345678901234567890123"
                                 "456789012345678901234567890')"),
                     SQL_ERROR);
    if (w)
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22001");
    /* out of range for a Long, and text that is no number */
    ck_assert_int_eq(exec_on(st, "UPDATE Table1 SET otherfk1 = 3000000000"),
                     SQL_ERROR);
    if (w)
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    ck_assert_int_eq(exec_on(st, "UPDATE Table1 SET otherfk1 = 'abc'"),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), w ? "22018"
                                                         : "HYC00");
    /* autocommit off, then a refused write and a rollback */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ck_assert_int_eq(exec_on(st, "DELETE FROM Table1 WHERE id = 1 AND "
                                 "otherfk1 = 'x'"), SQL_ERROR);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    assert_unchanged(copy_path, before, n);
    free(before);
}
END_TEST

/* Saved action queries run as their INSERT, UPDATE or DELETE through
 * {call} and EXEC (refused with the rest until the core writes rows). */
START_TEST(saved_action_queries_run_as_dml)
{
    int w = writes_supported();
    copy_fixture("jackcess/V2003/queryTestV2003.mdb", "saved.mdb", copy_path,
                 sizeof copy_path);
    size_t n;
    unsigned char *before = slurp_file(copy_path, &n);
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
    (void)w;
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
    free(before);
    (void)n;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">/dev/null", JET_SHARED_DIR, copy_path);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ----------------------------------------------------------- writes */

START_TEST(writes_commit_and_roll_back)
{
    if (!writes_supported())
        return;
    copy_fixture(FIXTURE, "write.mdb", copy_path, sizeof copy_path);
    connect_to(copy_path, NULL);
    long before = scalar("SELECT COUNT(*) FROM Table3");
    SQLHSTMT st = new_stmt();
    SQLLEN rows = -2;
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "INSERT INTO Table3 (id, "
             "data) VALUES (1000, 'jet')"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "UPDATE Table3 SET data = "
                                              "'556' WHERE id > -1000000"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_int_eq(rows, before + 1);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, exec_on(st, "DELETE FROM Table3 WHERE "
                                              "id = 1000"));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table3"), before + 1);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    connect_to(copy_path, NULL);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table3 WHERE data = "
                            "'556'"), before + 1);
    odbct_disconnect(env, dbc);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">/dev/null", JET_SHARED_DIR, copy_path);
    ck_assert_int_eq(system(cmd), 0);
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
    copy_fixture("../bulk/bulk.accdb", "bulk.accdb", path, sizeof path);
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
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">/dev/null", JET_SHARED_DIR, path);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *dml_suite(void)
{
    Suite *s = suite_create("odbc_dml");
    TCase *tc = tcase_create("dml");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_form_prepares);
    tcase_add_test(tc, binding_errors);
    tcase_add_test(tc, read_only_key_refuses);
    tcase_add_test(tc, access_mode_read_only_refuses);
    tcase_add_test(tc, access97_refuses);
    tcase_add_test(tc, no_permission_says_why);
    tcase_add_test(tc, transaction_info_and_end_tran);
    tcase_add_test(tc, identity_is_zero_before_any_insert);
    tcase_add_test(tc, refused_writes_leave_file_unchanged);
    tcase_add_test(tc, saved_action_queries_run_as_dml);
    tcase_add_test(tc, writes_commit_and_roll_back);
    tcase_add_test(tc, bulk_values_exact_arrays_atomic);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(dml_suite)
