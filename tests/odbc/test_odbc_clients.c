/*
 * test_odbc_clients.c - what real clients need beyond the basics, through
 * the driver manager on nwind.mdb: data-at-execution parameters
 * (SQLParamData/SQLPutData in pieces, as PHP PDO sends them), SQLSetPos
 * with SQL_POSITION/SQL_REFRESH on a block cursor (node's cursor mode),
 * SQLTablePrivileges/SQLColumnPrivileges (LibreOffice Base), APD/IPD
 * fields through SQLSetDescField (Microsoft's SQL_C_NUMERIC example),
 * HY003 for bad C types, SQLGetFunctions, the MaxLongSize option, the
 * Date/Time width and the TraceFile option.
 */
#include <stdio.h>
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

static SQLHSTMT stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

/* Column 1 of the one row st returns, as text. */
static void one_value(SQLHSTMT st, char *buf, size_t cap)
{
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, buf,
                                             (SQLLEN)cap, &ind));
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLCloseCursor(st);
}

START_TEST(dae_text_in_pieces_and_integer)
{
    SQLHSTMT st = stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT FirstName FROM Employees WHERE LastName = ? AND "
             "EmployeeID > ?", SQL_NTS));
    SQLLEN len1 = SQL_LEN_DATA_AT_EXEC(6), len2 = SQL_DATA_AT_EXEC;
    int tok1 = 1, tok2 = 2;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_WVARCHAR, 20, 0, &tok1, 0, &len1));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 2, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, &tok2, 0, &len2));
    ck_assert_int_eq(SQLExecute(st), SQL_NEED_DATA);
    SQLPOINTER tok = NULL;
    /* SQLPutData before SQLParamData named a parameter: HY010 */
    ck_assert_int_eq(SQLPutData(st, "x", 1), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY010");
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ck_assert_ptr_eq(tok, &tok1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, "Ful", 3));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, "ler", SQL_NTS));
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ck_assert_ptr_eq(tok, &tok2);
    SQLINTEGER one = 1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, &one, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLParamData(st, &tok));
    char v[64];
    one_value(st, v, sizeof v);
    ck_assert_str_eq(v, "Andrew");

    /* again, with a NULL sent at execution: no row */
    ck_assert_int_eq(SQLExecute(st), SQL_NEED_DATA);
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, NULL, SQL_NULL_DATA));
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, &one, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLParamData(st, &tok));
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLCloseCursor(st);

    /* a fixed-size value sent twice: HY019, which ends the sequence */
    ck_assert_int_eq(SQLExecute(st), SQL_NEED_DATA);
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, "Fuller", SQL_NTS));
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, &one, 0));
    ck_assert_int_eq(SQLPutData(st, &one, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY019");

    /* SQLCancel ends the sequence; the statement can run again */
    ck_assert_int_eq(SQLExecute(st), SQL_NEED_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCancel(st));
    len1 = SQL_NTS;
    len2 = 0;
    char name[] = "Fuller";
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_WVARCHAR, 20, 0, name, 0, &len1));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 2, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, &one, 0, &len2));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    one_value(st, v, sizeof v);
    ck_assert_str_eq(v, "Andrew");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(dae_exec_direct_wide)
{
    SQLHSTMT st = stmt();
    SQLLEN len = SQL_DATA_AT_EXEC;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_WCHAR, SQL_WVARCHAR, 20, 0, (SQLPOINTER)7, 0, &len));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT EmployeeID FROM "
                     "Employees WHERE City = ?", SQL_NTS), SQL_NEED_DATA);
    SQLPOINTER tok = NULL;
    ck_assert_int_eq(SQLParamData(st, &tok), SQL_NEED_DATA);
    ck_assert_ptr_eq(tok, (SQLPOINTER)7);
    SQLWCHAR w[] = { 'R', 'e', 'd', 'm', 'o', 'n', 'd', 0 };
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPutData(st, w, SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLParamData(st, &tok));
    char v[16];
    one_value(st, v, sizeof v);
    ck_assert_str_eq(v, "4");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(setpos_block_cursor_getdata)
{
    SQLHSTMT st = stmt();
    SQLULEN fetched = 0;
    SQLUSMALLINT status[4];
    SQLINTEGER ids[4];
    SQLLEN ind[4];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)4, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR,
             &fetched, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR,
             status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT EmployeeID, LastName, Notes FROM Employees ORDER BY "
             "EmployeeID", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, ind));
    char names[3][32] = { "", "", "" };
    int batch = 0;
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        if (r == SQL_NO_DATA)
            break;
        ODBCT_OK(SQL_HANDLE_STMT, st, r);
        for (SQLULEN k = 0; k < fetched; k++) {
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, (SQLSETPOSIROW)k + 1,
                     SQL_POSITION, SQL_LOCK_NO_CHANGE));
            char name[32], notes[8];
            SQLLEN li, ni;
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_CHAR, name,
                                                     sizeof name, &li));
            SQLRETURN g = SQLGetData(st, 3, SQL_C_CHAR, notes, sizeof notes,
                                     &ni);
            ck_assert_int_eq(g, SQL_SUCCESS_WITH_INFO);  /* 01004 */
            if (ids[k] == 2)
                ck_assert_str_eq(notes, "Andrew ");
            if (ids[k] == 1 || ids[k] == 5 || ids[k] == 9)
                snprintf(names[batch], sizeof names[batch], "%s", name);
        }
        /* past the rowset: HY107; row 0 with SQL_POSITION: HY109 */
        ck_assert_int_eq(SQLSetPos(st, fetched + 1, SQL_POSITION,
                                   SQL_LOCK_NO_CHANGE), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY107");
        ck_assert_int_eq(SQLSetPos(st, 0, SQL_POSITION, SQL_LOCK_NO_CHANGE),
                         SQL_ERROR);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 1, SQL_REFRESH,
                                                SQL_LOCK_NO_CHANGE));
        /* a read-only cursor (the default concurrency) writes nothing */
        ck_assert_int_eq(SQLSetPos(st, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY092");
        batch++;
    }
    ck_assert_int_eq(batch, 3);
    ck_assert_str_eq(names[0], "Davolio");
    ck_assert_str_eq(names[1], "Buchanan");
    ck_assert_str_eq(names[2], "Dodsworth");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Node's odbc positions on every row of a rowset whose every column is
 * bound; R's odbc (nanodbc) binds long columns with an indicator only and
 * reads them with SQLGetData after SQLSetPos (tester9 F9). */
START_TEST(setpos_every_column_bound_and_indicator_only)
{
    SQLHSTMT st = stmt();
    SQLULEN fetched = 0;
    SQLINTEGER ids[4];
    SQLLEN ind[4], nind[4];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
             (SQLPOINTER)4, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR,
             &fetched, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT EmployeeID FROM Employees ORDER BY EmployeeID", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, ind));
    int rows = 0;
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        if (r == SQL_NO_DATA)
            break;
        ODBCT_OK(SQL_HANDLE_STMT, st, r);
        for (SQLULEN k = 0; k < fetched; k++, rows++)
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, (SQLSETPOSIROW)k + 1,
                     SQL_POSITION, SQL_LOCK_NO_CHANGE));
        if (fetched > 1) {
            /* those rows' values were not kept: SQLGetData says so */
            SQLINTEGER v;
            SQLLEN vi;
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, 1, SQL_POSITION,
                     SQL_LOCK_NO_CHANGE));
            ck_assert_int_eq(SQLGetData(st, 1, SQL_C_SLONG, &v, 0, &vi),
                             SQL_ERROR);
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
        }
    }
    ck_assert_int_eq(rows, 9);
    SQLCloseCursor(st);
    SQLFreeStmt(st, SQL_UNBIND);
    /* Notes bound with an indicator only: the rowset is kept */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT EmployeeID, Notes FROM Employees ORDER BY EmployeeID",
             SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 2, SQL_C_CHAR, NULL, 0,
                                             nind));
    rows = 0;
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        if (r == SQL_NO_DATA)
            break;
        ODBCT_OK(SQL_HANDLE_STMT, st, r);
        for (SQLULEN k = 0; k < fetched; k++, rows++) {
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetPos(st, (SQLSETPOSIROW)k + 1,
                     SQL_POSITION, SQL_LOCK_NO_CHANGE));
            char notes[8];
            SQLLEN ni;
            ck_assert_int_eq(SQLGetData(st, 2, SQL_C_CHAR, notes,
                                        sizeof notes, &ni),
                             SQL_SUCCESS_WITH_INFO);
            ck_assert_int_eq(ni, nind[k]);
            if (ids[k] == 2)
                ck_assert_str_eq(notes, "Andrew ");
        }
    }
    ck_assert_int_eq(rows, 9);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(privileges_result_sets)
{
    SQLHSTMT st = stmt();
    SQLSMALLINT n;
    char v[256];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTablePrivileges(st, NULL, 0, NULL, 0,
             (SQLCHAR *)"Emp%", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 7);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 3, SQL_C_CHAR, v, sizeof v, &ind));
    ck_assert_str_eq(v, "Employees");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 6, SQL_C_CHAR, v, sizeof v, &ind));
    ck_assert_str_eq(v, "SELECT");
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLCloseCursor(st);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumnPrivileges(st, NULL, 0, NULL, 0,
             (SQLCHAR *)"Employees", SQL_NTS, (SQLCHAR *)"%", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 8);
    int rows = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        rows++;
    ck_assert_int_eq(rows, 17);
    SQLCloseCursor(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(apd_numeric_scale_and_ipd_fields)
{
    SQLHSTMT st = stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT COUNT(*) FROM Products WHERE UnitPrice = ?", SQL_NTS));
    SQL_NUMERIC_STRUCT num;
    memset(&num, 0, sizeof num);
    num.precision = 5;
    num.scale = 0;          /* the APD's scale wins (Microsoft's example) */
    num.sign = 1;
    num.val[0] = 1800 & 0xff;   /* 18.00 = 1800 at scale 2 */
    num.val[1] = 1800 >> 8;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_NUMERIC, SQL_NUMERIC, 5, 2, &num, 0, &ind));
    SQLHDESC apd, ipd;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_PARAM_DESC,
             &apd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_PARAM_DESC,
             &ipd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 1, SQL_DESC_TYPE,
             (SQLPOINTER)SQL_C_NUMERIC, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 1, SQL_DESC_PRECISION,
             (SQLPOINTER)5, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 1, SQL_DESC_SCALE,
             (SQLPOINTER)2, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 1, SQL_DESC_DATA_PTR,
             &num, 0));
    SQLSMALLINT sv = 0;
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLGetDescField(apd, 1, SQL_DESC_SCALE,
             &sv, 0, NULL));
    ck_assert_int_eq(sv, 2);
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLGetDescField(ipd, 1, SQL_DESC_TYPE,
             &sv, 0, NULL));
    ck_assert_int_eq(sv, SQL_NUMERIC);
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLGetDescField(ipd, 1,
             SQL_DESC_PARAMETER_TYPE, &sv, 0, NULL));
    ck_assert_int_eq(sv, SQL_PARAM_INPUT);
    SQLPOINTER p = NULL;
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLGetDescField(apd, 1,
             SQL_DESC_INDICATOR_PTR, &p, 0, NULL));
    ck_assert_ptr_eq(p, &ind);
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLGetDescField(apd, 0, SQL_DESC_COUNT,
             &sv, 0, NULL));
    ck_assert_int_eq(sv, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    char v[16];
    one_value(st, v, sizeof v);
    ck_assert_str_eq(v, "4");   /* four products cost 18.00 */
    /* an IPD record set field by field, then a bad type */
    ck_assert_int_eq(SQLSetDescField(ipd, 1, SQL_DESC_TYPE,
                                     (SQLPOINTER)12345, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ipd), "HY004");
    ck_assert_int_eq(SQLSetDescField(apd, 1, SQL_DESC_TYPE,
                                     (SQLPOINTER)12345, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, apd), "HY003");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(bad_c_types_are_hy003)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT EmployeeID FROM Employees");
    SQLINTEGER v;
    SQLLEN ind;
    ck_assert_int_eq(SQLBindCol(st, 1, SQL_ARD_TYPE, &v, 0, &ind), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY003");
    ck_assert_int_eq(SQLBindCol(st, 1, 9999, &v, 0, &ind), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY003");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(SQLGetData(st, 1, 9999, &v, 0, &ind), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY003");
    SQLCloseCursor(st);
    ck_assert_int_eq(SQLBindParameter(st, 1, SQL_PARAM_INPUT, 9999,
                                      SQL_INTEGER, 0, 0, &v, 0, &ind),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY003");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(get_functions_tell_the_truth)
{
    static const SQLUSMALLINT yes[] = {
        SQL_API_SQLPARAMDATA, SQL_API_SQLPUTDATA, SQL_API_SQLSETPOS,
        SQL_API_SQLTABLEPRIVILEGES, SQL_API_SQLCOLUMNPRIVILEGES,
        SQL_API_SQLGETDESCFIELD, SQL_API_SQLSETDESCFIELD,
    };
    SQLUSMALLINT all[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc,
             SQL_API_ODBC3_ALL_FUNCTIONS, all));
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_msg(SQL_FUNC_EXISTS(all, yes[i]), "function %u",
                      (unsigned)yes[i]);
    SQLUINTEGER pos = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_POS_OPERATIONS, &pos,
                                             sizeof pos, NULL));
    ck_assert_uint_eq(pos, SQL_POS_POSITION | SQL_POS_REFRESH |
                           SQL_POS_UPDATE | SQL_POS_DELETE | SQL_POS_ADD);
}
END_TEST

START_TEST(long_size_option_and_datetime_width)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT Notes, Photo, HireDate FROM "
                                  "Employees");
    SQLULEN size;
    SQLSMALLINT type, digits;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, &type,
                                                 &size, &digits, NULL));
    ck_assert_uint_eq(size, 65535);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 3, NULL, 0, NULL, &type,
                                                 &size, &digits, NULL));
    ck_assert_int_eq(type, SQL_TYPE_TIMESTAMP);
    ck_assert_uint_eq(size, 23);
    ck_assert_int_eq(digits, 3);
    SQLLEN n = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 3, SQL_DESC_PRECISION,
             NULL, 0, NULL, &n));
    ck_assert_int_eq(n, 3);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 3,
             SQL_DESC_DISPLAY_SIZE, NULL, 0, NULL, &n));
    ck_assert_int_eq(n, 23);
    /* the whole Memo still comes back, past the reported size */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    char buf[4];
    SQLLEN ind;
    ck_assert_int_eq(SQLGetData(st, 2, SQL_C_BINARY, buf, sizeof buf, &ind),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_int_eq(ind, 21626);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* MaxLongSize=0: no cap; a bad value is 01S00 and the default */
    SQLHENV e2;
    SQLHDBC d2;
    char cs[4096];
    snprintf(cs, sizeof cs, "%s;MaxLongSize=0", odbct_nwind_connstr());
    odbct_connect(&e2, &d2, cs);
    st = odbct_exec(d2, "SELECT Notes FROM Employees");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, &type,
                                                 &size, &digits, NULL));
    ck_assert_uint_eq(size, 1073741823);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(e2, d2);
    ODBCT_OK(SQL_HANDLE_ENV, env, SQLAllocHandle(SQL_HANDLE_ENV, NULL, &e2));
    SQLSetEnvAttr(e2, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    ODBCT_OK(SQL_HANDLE_ENV, e2, SQLAllocHandle(SQL_HANDLE_DBC, e2, &d2));
    snprintf(cs, sizeof cs, "%s;MaxLongSize=lots", odbct_nwind_connstr());
    ck_assert_int_eq(SQLDriverConnect(d2, NULL, (SQLCHAR *)cs, SQL_NTS, NULL,
                                      0, NULL, SQL_DRIVER_NOPROMPT),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, d2), "01S00");
    odbct_disconnect(e2, d2);
}
END_TEST

START_TEST(trace_file_logs_without_password)
{
    char path[1024], cs[4096];
    snprintf(path, sizeof path, "%s/trace.log", odbct_tmpdir());
    remove(path);
    snprintf(cs, sizeof cs, "%s;PWD=sekrit99;TraceFile=%s",
             odbct_nwind_connstr(), path);
    SQLHENV e2;
    SQLHDBC d2;
    odbct_connect(&e2, &d2, cs);
    SQLHSTMT st = odbct_exec(d2, "SELECT LastName FROM Employees WHERE "
                                 "EmployeeID = 5");
    while (SQL_SUCCEEDED(SQLFetch(st)))
        ;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(e2, d2);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "connect"));
    ck_assert_ptr_nonnull(strstr(text, "WHERE EmployeeID = 5"));
    ck_assert_ptr_nonnull(strstr(text, "plan"));
    ck_assert_ptr_nonnull(strstr(text, "rows=1"));
    ck_assert_ptr_null(strstr(text, "sekrit99"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("odbc_clients");
    TCase *tc = tcase_create("clients");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dae_text_in_pieces_and_integer);
    tcase_add_test(tc, dae_exec_direct_wide);
    tcase_add_test(tc, setpos_block_cursor_getdata);
    tcase_add_test(tc, setpos_every_column_bound_and_indicator_only);
    tcase_add_test(tc, privileges_result_sets);
    tcase_add_test(tc, apd_numeric_scale_and_ipd_fields);
    tcase_add_test(tc, bad_c_types_are_hy003);
    tcase_add_test(tc, get_functions_tell_the_truth);
    tcase_add_test(tc, long_size_option_and_datetime_width);
    tcase_add_test(tc, trace_file_logs_without_password);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(suite)
