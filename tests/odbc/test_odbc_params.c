/*
 * test_odbc_params.c - queries through the engine via the driver manager:
 * SQLPrepare/SQLBindParameter/SQLExecute with re-execution, SQLNumParams,
 * SQLDescribeParam, NULL and unbound parameters, C types (integer, char,
 * wide char, timestamp, double), WHERE/ORDER BY/TOP, SQL_ATTR_MAX_ROWS,
 * EXPLAIN plans, and the SQLSTATEs of engine errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
}

static void teardown(void)
{
    odbct_disconnect(env, dbc);
}

static SQLHSTMT prepared(const char *sql)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS));
    return st;
}

/* All rows of column 1 as text joined by ',' into buf; closes the cursor. */
static long col1(SQLHSTMT st, char *buf, size_t cap)
{
    long n = odbct_col1(st, buf, cap);
    SQLCloseCursor(st);
    return n;
}

START_TEST(integer_parameter_reexecutes)
{
    SQLHSTMT st = prepared("SELECT CustomerID FROM Orders WHERE OrderID = ?");
    SQLSMALLINT n = -1, type = 0, digits = -1, nullable = -1;
    SQLULEN size = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumParams(st, &n));
    ck_assert_int_eq(n, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeParam(st, 1, &type, &size,
                                                   &digits, &nullable));
    ck_assert_int_eq(type, SQL_INTEGER);
    SQLINTEGER id = 10248;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, &id, 0, &ind));
    char buf[1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "VINET");
    id = 10249;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "TOMSP");
    ind = SQL_NULL_DATA;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(text_parameters_narrow_and_wide)
{
    SQLHSTMT st = prepared("SELECT CompanyName FROM Customers WHERE "
                           "CustomerID = ?");
    char key[] = "alfki";
    SQLLEN ind = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 5, 0, key, sizeof key, &ind));
    char buf[1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "Alfreds Futterkiste");
    SQLWCHAR wkey[6] = { 'T', 'O', 'M', 'S', 'P', 0 };
    SQLLEN wind = 5 * sizeof(SQLWCHAR);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_WCHAR,
                              SQL_WVARCHAR, 5, 0, wkey, sizeof wkey, &wind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "Toms Spezialitäten");
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = prepared("SELECT COUNT(*) FROM Customers WHERE Country = ? AND "
                  "CompanyName LIKE ?");
    char c1[] = "GERMANY", c2[] = "%e%";
    SQLLEN i1 = SQL_NTS, i2 = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 15, 0, c1, 0, &i1));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 15, 0, c2, 0, &i2));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_int_gt(atoi(buf), 0);
    ck_assert_int_le(atoi(buf), 11);    /* 11 German customers */
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(timestamp_and_double_parameters)
{
    SQLHSTMT st = prepared("SELECT OrderID FROM Orders WHERE OrderDate = ? "
                           "ORDER BY OrderID");
    SQL_TIMESTAMP_STRUCT ts = { 1994, 11, 16, 0, 0, 0, 0 };
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_TYPE_TIMESTAMP,
                              SQL_TYPE_TIMESTAMP, 19, 0, &ts, 0, &ind));
    char buf[1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "10330,10331");
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = prepared("SELECT TOP 3 OrderID FROM Orders WHERE Freight > ? ORDER "
                  "BY Freight DESC");
    double d = 800.5;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_DOUBLE,
                              SQL_DOUBLE, 0, 0, &d, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "10540,10372,11030");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(unbound_parameter_is_07002)
{
    SQLHSTMT st = prepared("SELECT * FROM Orders WHERE OrderID = ? AND "
                           "EmployeeID = ?");
    SQLINTEGER id = 1;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, &id, 0, NULL));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07002");
    ck_assert_int_eq(SQLBindParameter(st, 2, SQL_PARAM_OUTPUT, SQL_C_SLONG,
                                      SQL_INTEGER, 0, 0, &id, 0, NULL),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY105");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(explain_shows_the_plan)
{
    SQLHSTMT st = odbct_exec(dbc, "EXPLAIN SELECT * FROM Orders WHERE "
                                  "OrderID = 10248");
    char buf[1024];
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "SEEK Orders.PrimaryKey (OrderID = 10248) | FILTER");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st = odbct_exec(dbc, "EXPLAIN SELECT TOP 2 OrderID FROM Orders ORDER BY "
                         "OrderID DESC");
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "INDEX Orders.PrimaryKey ORDERED REVERSE | TOP 2");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* a sort feeding TOP n keeps n records (plus ties); its rows are the
     * full sort's first two (max_rows_limits_engine_results) */
    st = odbct_exec(dbc, "EXPLAIN SELECT TOP 2 OrderID FROM Orders ORDER BY "
                         "Freight DESC");
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "SCAN Orders | TOP-N SORT (2) 1 KEY | TOP 2 WITH "
                          "TIES");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st = odbct_exec(dbc, "SELECT TOP 2 OrderID FROM Orders ORDER BY "
                         "Freight DESC");
    ck_assert_int_eq(col1(st, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "10540,10372");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(max_rows_limits_engine_results)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_MAX_ROWS,
                                                 (SQLPOINTER)2, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT OrderID FROM Orders ORDER BY Freight DESC", SQL_NTS));
    char buf[1024];
    ck_assert_int_eq(col1(st, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "10540,10372");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(engine_errors_have_sqlstates)
{
    static const struct {
        const char *sql, *state;
    } bad[] = {
        { "SELECT Nope FROM Orders", "42S22" },
        { "SELECT * FROM Nope", "42S02" },
        { "SELECT * FROM Orders WHERE", "42000" },
        { "SELECT * FROM Orders WHERE OrderID = 'x'", "22018" },
        { "SELECT * FROM Orders GROUP BY ShipName", "42000" },
        { "SELECT * FROM Orders FULL OUTER JOIN Customers ON 1=1", "42000" },
        { "SELECT {oj x} FROM Orders", "HYC00" },
        /* statements that would write reach the engine's DML and DDL
         * executors, which refuse until the write path */
        { "DELETE FROM Orders", "HYC00" },
        { "UPDATE Orders SET Freight = 0", "HYC00" },
        { "INSERT INTO Shippers (CompanyName) VALUES ('x')", "HYC00" },
        { "DROP TABLE Orders", "HYC00" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)bad[i].sql, SQL_NTS),
                         SQL_ERROR);
        ck_assert_msg(!strcmp(odbct_state(SQL_HANDLE_STMT, st),
                              bad[i].state), "%s: %s %s", bad[i].sql,
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

START_TEST(computed_columns_are_described)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT COUNT(*), SUM(Freight) AS total "
                                  "FROM Orders WHERE OrderID < 0");
    SQLCHAR name[64];
    SQLSMALLINT namelen, type, digits, nullable;
    SQLULEN size;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, name, sizeof name,
                                                 &namelen, &type, &size,
                                                 &digits, &nullable));
    ck_assert_str_eq((char *)name, "Expr1000");
    ck_assert_int_eq(type, SQL_INTEGER);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 2, name, sizeof name,
                                                 &namelen, &type, &size,
                                                 &digits, &nullable));
    ck_assert_str_eq((char *)name, "total");
    ck_assert_int_eq(type, SQL_NUMERIC);     /* CURRENCY, as Freight */
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Negative lengths other than SQL_NTS: HY090, SQL_DEFAULT_PARAM 07S01
 * (no procedure default), never an allocation of SIZE_MAX. */
START_TEST(negative_lengths_are_rejected)
{
    static const SQLLEN bad[] = {-4, -6, -7};
    char text[] = "VINET";
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        SQLHSTMT st = prepared("SELECT OrderID FROM Orders "
                               "WHERE CustomerID = ?");
        SQLLEN ind = bad[k];
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                                  SQL_VARCHAR, 5, 0, text, 6, &ind));
        ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY090");
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    SQLHSTMT st = prepared("SELECT OrderID FROM Orders WHERE CustomerID = ?");
    SQLLEN ind = SQL_DEFAULT_PARAM;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 5, 0, text, 6, &ind));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07S01");
    char buf[4096];
    ind = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 5);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* A NUL inside a string parameter with an explicit length is part of the
 * value (char and wide char), not its end. */
START_TEST(nul_in_string_parameter_is_kept)
{
    char buf[256];
    SQLHSTMT st = prepared("SELECT Len(?) FROM Shippers WHERE ShipperID = 1");
    char a[] = {'a', 0, 'b'};
    SQLLEN ind = 3;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 3, 0, a, 3, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "3");
    SQLWCHAR w[] = {'a', 0, 'b'};
    ind = 3 * sizeof(SQLWCHAR);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_WCHAR,
                              SQL_WVARCHAR, 3, 0, w, sizeof w, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "3");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* 'VINET' followed by NUL is not 'VINET' */
    st = prepared("SELECT OrderID FROM Orders WHERE CustomerID = ?");
    SQLWCHAR v[] = {'V', 'I', 'N', 'E', 'T', 0};
    ind = 6 * sizeof(SQLWCHAR);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_WCHAR,
                              SQL_WVARCHAR, 6, 0, v, sizeof v, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(col1(st, buf, sizeof buf), 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Statement and connection attributes the driver cannot honour say so:
 * SQL_ATTR_MAX_LENGTH changed on an open cursor 01S02 (kept; it is
 * honoured otherwise, test_odbc_fetch), SQL_ATTR_CURRENT_CATALOG naming
 * another file HYC00; SQLExecDirect on an open cursor is 24000 as
 * SQLExecute is. */
START_TEST(unhonoured_attributes_and_open_cursor)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH, (SQLPOINTER)10,
                                    0), SQL_SUCCESS);
    SQLULEN v = 99;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_MAX_LENGTH, &v, 0, NULL));
    ck_assert_uint_eq(v, 10);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st,
             (SQLCHAR *)"SELECT ShipperID FROM Shippers", SQL_NTS));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH, (SQLPOINTER)0,
                                    0), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S02");
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_MAX_LENGTH, &v, 0, NULL));
    ck_assert_uint_eq(v, 10);
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT 1 FROM Shippers",
                                   SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "24000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(SQLSetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG,
                                       (SQLPOINTER)"/etc/passwd", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "HYC00");
    char cat[1024];
    SQLINTEGER cl;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetConnectAttr(dbc,
             SQL_ATTR_CURRENT_CATALOG, cat, sizeof cat, &cl));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
             SQL_ATTR_CURRENT_CATALOG, cat, SQL_NTS));
}
END_TEST

/* Errors that name the real problem: a cut-short ODBC escape is a syntax
 * error (42000), calling an action query of an Access 97 file (which is
 * read-only) is HYC00 before its arguments are counted, and the message
 * has the right article; saved queries that
 * name what they cannot bind want parameters; errors inside a saved
 * query name it. */
START_TEST(errors_name_the_real_problem)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT {oj", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLHENV e2;
    SQLHDBC d2;
    odbct_connect_path(&e2, &d2, odbct_fixture("jackcess/V1997/queryTestV1997.mdb"));
    ODBCT_OK(SQL_HANDLE_DBC, d2, SQLAllocHandle(SQL_HANDLE_STMT, d2, &st));
    static const char *const calls[] = {"{call UpdateQuery}",
                                        "{call UpdateQuery(1, 2, 3)}",
                                        "{call AppendQuery}"};
    for (size_t k = 0; k < 3; k++) {
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)calls[k], SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    }
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "Access 97 files are read-only "
                                 "('AppendQuery' is an append query)"));
    /* UnionQuery names Table1.col1 ... with no FROM: Access asks for the
     * seven names as parameters, so run without them it is 07002 (as a
     * view and called alike); the same SQL typed in is 42S22 */
    static const char *const unbound[] = {"SELECT * FROM UnionQuery",
                                          "{call UnionQuery}"};
    for (size_t k = 0; k < 2; k++) {
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)unbound[k], SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07002");
        const char *m = odbct_message(SQL_HANDLE_STMT, st);
        ck_assert_msg(strstr(m, "Too few parameters. Expected 7.") &&
                      strstr(m, "'UnionQuery' names [Table1.col1]"), "%s", m);
        ck_assert_msg(!strstr(m, "(at character") == (k == 1), "%s", m);
    }
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT Table1.col1 WHERE "
                                   "Table1.col1 = 'foo'", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42S22");
    /* CrosstabQuery's WHERE holds an aggregate: the message names the
     * query and points at its name, not into the SQL rebuilt from it */
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM "
                                   "CrosstabQuery", SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    ck_assert_str_eq(odbct_message(SQL_HANDLE_STMT, st),
                     "[jetodbc]saved query 'CrosstabQuery': Cannot have "
                     "aggregate function in WHERE clause (at character 15)");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(e2, d2);
}
END_TEST

/* 4,096 parameter markers are fine; 4,097 are refused at SQLPrepare with
 * a 42000 naming the limit (not 07009 at the 4,097th bind). */
START_TEST(parameter_marker_limit_at_prepare)
{
    for (int n = 4096; n <= 4097; n++) {
        size_t cap = 64 + (size_t)n * 3;
        char *sql = malloc(cap);
        ck_assert_ptr_nonnull(sql);
        size_t k = (size_t)snprintf(sql, cap, "SELECT ShipperID FROM "
                                    "Shippers WHERE ShipperID IN (");
        for (int i = 0; i < n; i++)
            k += (size_t)snprintf(sql + k, cap - k, i ? ",?" : "?");
        snprintf(sql + k, cap - k, ")");
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc,
                 SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
        SQLRETURN rc = SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS);
        if (n == 4096) {
            ck_assert_msg(SQL_SUCCEEDED(rc), "%s",
                          odbct_message(SQL_HANDLE_STMT, st));
        } else {
            ck_assert_int_eq(rc, SQL_ERROR);
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
            ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                         "4096"));
        }
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        free(sql);
    }
}
END_TEST

/* Character data is checked against the declared ParameterType (ODBC's
 * C-to-SQL rules): not a number 22018, out of range 22003, no such date
 * 22007; date structs must hold real dates. Good values still run. */
START_TEST(char_values_checked_against_parameter_type)
{
    static const struct {
        const char *val; SQLSMALLINT type; const char *state;
    } cases[] = {
        {"12abc", SQL_INTEGER, "22018"}, {"70000", SQL_SMALLINT, "22003"},
        {"2021-13-01", SQL_TYPE_TIMESTAMP, "22007"},
        {"2021-02-29 10:00:00", SQL_TYPE_TIMESTAMP, "22007"},
        {"10248", SQL_INTEGER, NULL}, {" 12 ", SQL_SMALLINT, NULL},
        {"1996-07-04 00:00:00.000", SQL_TYPE_TIMESTAMP, NULL},
        {"7/4/1996", SQL_TYPE_TIMESTAMP, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        SQLHSTMT st = prepared("SELECT OrderID FROM Orders WHERE "
                               "OrderID = 10248 AND ? IS NOT NULL");
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                                  cases[k].type, 30, 0,
                                  (SQLPOINTER)cases[k].val, 0, &ind));
        SQLRETURN rc = SQLExecute(st);
        if (cases[k].state) {
            ck_assert_msg(rc == SQL_ERROR, "%s accepted", cases[k].val);
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st),
                             cases[k].state);
        } else {
            ck_assert_msg(SQL_SUCCEEDED(rc), "%s: %s", cases[k].val,
                          odbct_message(SQL_HANDLE_STMT, st));
        }
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    SQLHSTMT st = prepared("SELECT OrderID FROM Orders WHERE OrderDate = ?");
    SQL_DATE_STRUCT d = {2021, 2, 30};
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_TYPE_DATE,
                              SQL_TYPE_DATE, 10, 0, &d, 0, &ind));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22007");
    d.year = 1996; d.month = 2; d.day = 29;     /* a leap day */
    char buf[4096];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    col1(st, buf, sizeof buf);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* The value of a parameter is converted to the SQL type it is bound as
 * (ODBC's C-to-SQL rules), whatever its C type: PHP and Perl send every
 * value as text with the type SQLDescribeParam gave (tester9 F1). */
START_TEST(values_take_the_bound_sql_type)
{
    static const struct {
        const char *sql;
        SQLSMALLINT c_type, sql_type;
        const char *text;   /* SQL_C_CHAR value */
        double num;         /* else this, as c_type */
        long rows;          /* -1: an error */
        const char *state;  /* the error, or the warning (01S07) */
    } cases[] = {
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_CHAR, SQL_BIT, "1", 0, 8, NULL},
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_CHAR, SQL_BIT, "-1", 0, 8, NULL},   /* Jet's True */
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_CHAR, SQL_BIT, " 0 ", 0, 69, NULL},
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_CHAR, SQL_BIT, "0.5", 0, 8, "01S07"},
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_CHAR, SQL_BIT, "5", 0, -1, "22003"},
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_SLONG, SQL_BIT, NULL, 1, 8, NULL},
        {"SELECT ProductID FROM Products WHERE Discontinued = ?",
         SQL_C_DOUBLE, SQL_BIT, NULL, 2, -1, "22003"},
        {"SELECT OrderID FROM [Order Details] WHERE Discount = ?",
         SQL_C_CHAR, SQL_REAL, "0.15", 0, 157, NULL},
        {"SELECT OrderID FROM [Order Details] WHERE Discount = ?",
         SQL_C_DOUBLE, SQL_REAL, NULL, 0.15, 157, NULL},
        {"SELECT OrderID FROM [Order Details] WHERE Discount = ?",
         SQL_C_CHAR, SQL_DOUBLE, "0.15", 0, 0, NULL},  /* a Double: not the Single */
        {"SELECT OrderID FROM Orders WHERE OrderID = ?",
         SQL_C_DOUBLE, SQL_INTEGER, NULL, 10248.4, 1, "01S07"},
        {"SELECT OrderID FROM Orders WHERE OrderID = ?",
         SQL_C_CHAR, SQL_INTEGER, "10248.6", 0, 1, "01S07"},
        {"SELECT OrderID FROM Orders WHERE OrderID = ?",
         SQL_C_CHAR, SQL_BIGINT, "10248", 0, 1, NULL},
        {"SELECT OrderID FROM Orders WHERE OrderID = ?",
         SQL_C_DOUBLE, SQL_SMALLINT, NULL, 40000, -1, "22003"},
        {"SELECT OrderID FROM [Order Details] WHERE UnitPrice = ?",
         SQL_C_CHAR, SQL_DECIMAL, "14", 0, 56, NULL},  /* exact, as text */
        {"SELECT ProductID FROM Products WHERE ProductName = ?",
         SQL_C_CHAR, SQL_VARCHAR, "Chai", 0, 1, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        SQLHSTMT st = prepared(cases[k].sql);
        SQLLEN ind = cases[k].text ? SQL_NTS : 0;
        SQLINTEGER l = (SQLINTEGER)cases[k].num;
        double d = cases[k].num;
        SQLPOINTER val = cases[k].text ? (SQLPOINTER)cases[k].text
                       : cases[k].c_type == SQL_C_SLONG ? (SQLPOINTER)&l
                                                        : (SQLPOINTER)&d;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, cases[k].c_type,
                                  cases[k].sql_type, 30, 0, val, 0, &ind));
        SQLRETURN rc = SQLExecute(st);
        if (cases[k].rows < 0) {
            ck_assert_msg(rc == SQL_ERROR, "case %zu accepted", k);
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st),
                             cases[k].state);
        } else {
            ck_assert_msg(SQL_SUCCEEDED(rc), "case %zu: %s", k,
                          odbct_message(SQL_HANDLE_STMT, st));
            if (cases[k].state) {
                ck_assert_int_eq(rc, SQL_SUCCESS_WITH_INFO);
                ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st),
                                 cases[k].state);
            } else {
                ck_assert_int_eq(rc, SQL_SUCCESS);
            }
            char buf[8192];
            ck_assert_int_eq(col1(st, buf, sizeof buf), cases[k].rows);
        }
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* SQLGetCursorName / SQLSetCursorName (ODBC Core; PHP's odbc_cursor). */
START_TEST(cursor_names)
{
    SQLHSTMT a = prepared("SELECT OrderID FROM Orders");
    SQLHSTMT b = prepared("SELECT OrderID FROM Orders");
    SQLCHAR name[80];
    SQLWCHAR wname[80];
    SQLSMALLINT len = -1;
    ODBCT_OK(SQL_HANDLE_STMT, a, SQLGetCursorName(a, name, sizeof name, &len));
    ck_assert_int_eq(strncmp((char *)name, "SQL_CUR", 7), 0);
    ck_assert_int_eq(len, (SQLSMALLINT)strlen((char *)name));
    char first[80];
    snprintf(first, sizeof first, "%s", (char *)name);
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLGetCursorName(b, name, sizeof name, &len));
    ck_assert_str_ne((char *)name, first);      /* one per statement */
    ODBCT_OK(SQL_HANDLE_STMT, a, SQLGetCursorName(a, name, sizeof name, &len));
    ck_assert_str_eq((char *)name, first);      /* and it stays */
    ODBCT_OK(SQL_HANDLE_STMT, a,
             SQLSetCursorName(a, (SQLCHAR *)"orders_cur", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, a,
             SQLGetCursorNameW(a, wname, 80, &len));
    ck_assert_int_eq(len, 10);
    ck_assert_int_eq(wname[0], 'o');
    ck_assert_int_eq(wname[10], 0);
    /* truncated output: 01004, the full length */
    ck_assert_int_eq(SQLGetCursorName(a, name, 4, &len),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, a), "01004");
    ck_assert_str_eq((char *)name, "ord");
    ck_assert_int_eq(len, 10);
    /* the same name on another statement of the connection: 3C000 */
    ck_assert_int_eq(SQLSetCursorName(b, (SQLCHAR *)"ORDERS_CUR", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, b), "3C000");
    /* the generated form and "" are not names an application sets */
    ck_assert_int_eq(SQLSetCursorName(b, (SQLCHAR *)"SQL_CUR9", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, b), "34000");
    ck_assert_int_eq(SQLSetCursorName(b, (SQLCHAR *)"", SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, b), "34000");
    /* not while a cursor is open */
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLExecute(b));
    ck_assert_int_eq(SQLSetCursorName(b, (SQLCHAR *)"x", SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, b), "24000");
    SQLCloseCursor(b);
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLSetCursorName(b, (SQLCHAR *)"x", 1));
    SQLUSMALLINT have = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetFunctions(dbc, SQL_API_SQLGETCURSORNAME, &have));
    ck_assert_int_eq(have, SQL_TRUE);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}
END_TEST

static Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("params");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, integer_parameter_reexecutes);
    tcase_add_test(tc, text_parameters_narrow_and_wide);
    tcase_add_test(tc, timestamp_and_double_parameters);
    tcase_add_test(tc, unbound_parameter_is_07002);
    tcase_add_test(tc, explain_shows_the_plan);
    tcase_add_test(tc, max_rows_limits_engine_results);
    tcase_add_test(tc, engine_errors_have_sqlstates);
    tcase_add_test(tc, computed_columns_are_described);
    tcase_add_test(tc, negative_lengths_are_rejected);
    tcase_add_test(tc, nul_in_string_parameter_is_kept);
    tcase_add_test(tc, unhonoured_attributes_and_open_cursor);
    tcase_add_test(tc, errors_name_the_real_problem);
    tcase_add_test(tc, parameter_marker_limit_at_prepare);
    tcase_add_test(tc, char_values_checked_against_parameter_type);
    tcase_add_test(tc, values_take_the_bound_sql_type);
    tcase_add_test(tc, cursor_names);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(params_suite)
