/*
 * test_odbc_catalog.c - catalog result sets: SQLTables (special cases,
 * patterns with \ escape, type lists), SQLColumns (18 columns),
 * SQLGetTypeInfo (filtered, SQL_ALL_TYPES, an empty but valid result),
 * SQLStatistics and SQLPrimaryKeys shapes; SQLForeignKeys from
 * MSysRelationships in its three argument forms; empty-string and escape
 * rules of pattern arguments; the SQL_ALL_* enumerations; saved queries
 * as VIEWs and procedures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;
static SQLHSTMT st;

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
}

static void teardown(void)
{
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}

static SQLSMALLINT ncols(void)
{
    SQLSMALLINT n = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    return n;
}

static const char *col_name(SQLUSMALLINT c)
{
    static SQLCHAR name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, c, name, sizeof name,
                                                 NULL, NULL, NULL, NULL, NULL));
    return (const char *)name;
}

/* Fetch all rows, return the count; text of column col of each row is
 * appended to list (comma-separated) when list is not NULL. */
static int fetch_all(SQLUSMALLINT col, char *list, size_t cap)
{
    int n = 0;
    if (list)
        list[0] = '\0';
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        if (list) {
            char buf[256];
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLGetData(st, col, SQL_C_CHAR, buf, sizeof buf, &ind));
            if (ind == SQL_NULL_DATA)
                strcpy(buf, "NULL");
            if (strlen(list) + strlen(buf) + 2 < cap) {
                strcat(list, buf);
                strcat(list, ",");
            }
        }
        n++;
    }
    SQLFreeStmt(st, SQL_CLOSE);
    return n;
}

START_TEST(tables_shape_and_user_tables)
{
    char list[2048];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(ncols(), 5);
    ck_assert_str_eq(col_name(1), "TABLE_CAT");
    ck_assert_str_eq(col_name(3), "TABLE_NAME");
    ck_assert_str_eq(col_name(5), "REMARKS");
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 9);
    ck_assert_str_eq(list, "Categories,Customers,Employees,Order Details,"
                           "Orders,Products,Shippers,Suppliers,Ums\xc3\xa4tze,");
}
END_TEST

START_TEST(tables_type_list_and_system_tables)
{
    char list[4096];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"MSys%", SQL_NTS,
                                            (SQLCHAR *)"'TABLE','SYSTEM TABLE'",
                                            SQL_NTS));
    int n = fetch_all(4, list, sizeof list);
    ck_assert_int_gt(n, 3);
    ck_assert_ptr_null(strstr(list, "TABLE,TABLE"));   /* all SYSTEM TABLE */
}
END_TEST

START_TEST(tables_pattern_escape_underscore)
{
    /* "Order\_Details" matches nothing (the name has a space), while
     * "Order_Details" matches "Order Details" */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Order\\_Details",
                                            SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Order_Details",
                                            SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"orders", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
}
END_TEST

START_TEST(tables_special_cases)
{
    char list[1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)SQL_ALL_CATALOGS,
                                            SQL_NTS, (SQLCHAR *)"", 0,
                                            (SQLCHAR *)"", 0, NULL, 0));
    ck_assert_int_eq(fetch_all(1, list, sizeof list), 1);
    ck_assert_ptr_nonnull(strstr(list, "nwind.mdb"));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", 0,
                                            (SQLCHAR *)SQL_ALL_SCHEMAS,
                                            SQL_NTS, (SQLCHAR *)"", 0, NULL, 0));
    ck_assert_int_eq(fetch_all(2, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", 0,
                                            (SQLCHAR *)"", 0, (SQLCHAR *)"", 0,
                                            (SQLCHAR *)SQL_ALL_TABLE_TYPES,
                                            SQL_NTS));
    ck_assert_int_eq(fetch_all(4, list, sizeof list), 4);
    ck_assert_str_eq(list, "SYNONYM,SYSTEM TABLE,TABLE,VIEW,");
    /* Excel: catalog "%" together with a type list */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"%", SQL_NTS,
                                            NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE,VIEW", SQL_NTS));
    ck_assert_int_ge(fetch_all(3, NULL, 0), 9);
}
END_TEST

START_TEST(columns_has_18_columns_with_types)
{
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Order Details",
                                             SQL_NTS, NULL, 0));
    ck_assert_int_eq(ncols(), 18);
    ck_assert_str_eq(col_name(4), "COLUMN_NAME");
    ck_assert_str_eq(col_name(5), "DATA_TYPE");
    ck_assert_str_eq(col_name(18), "IS_NULLABLE");
    static const char *names[] = {"OrderID", "ProductID", "UnitPrice",
                                  "Quantity", "Discount"};
    static const SQLSMALLINT types[] = {SQL_INTEGER, SQL_INTEGER, SQL_DECIMAL,
                                        SQL_SMALLINT, SQL_REAL};
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        char name[64];
        SQLSMALLINT type;
        SQLINTEGER ord;
        SQLLEN ind;
        ck_assert_int_lt(n, 5);
        SQLGetData(st, 4, SQL_C_CHAR, name, sizeof name, &ind);
        ck_assert_str_eq(name, names[n]);
        SQLGetData(st, 5, SQL_C_SSHORT, &type, 0, &ind);
        if (n != 2)   /* CURRENCY: DECIMAL or NUMERIC as typemap says */
            ck_assert_int_eq(type, types[n]);
        SQLGetData(st, 17, SQL_C_SLONG, &ord, 0, &ind);
        ck_assert_int_eq(ord, n + 1);
        n++;
    }
    ck_assert_int_eq(n, 5);
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Shippers", SQL_NTS,
                                             (SQLCHAR *)"Ph%", SQL_NTS));
    ck_assert_int_eq(fetch_all(4, NULL, 0), 1);
}
END_TEST

static const char *cell(SQLUSMALLINT col);
static int cell_int(SQLUSMALLINT col);

/* Views list their result columns (as SQLDescribeCol gives them), in
 * SELECT order; SQLColumns on every name includes all 20 nwind views and
 * skips the parameter queries (procedures). */
START_TEST(columns_of_views)
{
    char list[4096];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
             (SQLCHAR *)"Ten Most Expensive Products", SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(4, list, sizeof list), 2);
    ck_assert_str_eq(list, "TenMostExpensiveProducts,UnitPrice,");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
             (SQLCHAR *)"Orders Qry", SQL_NTS, (SQLCHAR *)"OrderID", SQL_NTS));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(3), "Orders Qry");
    ck_assert_int_eq(cell_int(5), SQL_INTEGER);
    ck_assert_int_eq(cell_int(17), 1);
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
    /* the same type and size SQLDescribeCol gives for the view */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
             (SQLCHAR *)"Invoices", SQL_NTS, (SQLCHAR *)"ShipName", SQL_NTS));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    int ctype = cell_int(5), csize = cell_int(7);
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st,
             (SQLCHAR *)"SELECT ShipName FROM Invoices", SQL_NTS));
    SQLSMALLINT dtype;
    SQLULEN dsize;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL,
                                                 &dtype, &dsize, NULL, NULL));
    ck_assert_int_eq(ctype, dtype);
    ck_assert_int_eq(csize, (int)dsize);
    SQLFreeStmt(st, SQL_CLOSE);
    /* every table and view: 'Sales by Year' (a procedure) is not there */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             NULL, 0, NULL, 0));
    int views = 0, rows = 0;
    char prev[128] = "";
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        const char *t = cell(3);
        ck_assert_str_ne(t, "Sales by Year");
        if (strcmp(t, prev) != 0) {
            snprintf(prev, sizeof prev, "%s", t);
            if (strcmp(t, "Invoices") == 0 || strcmp(t, "Orders Qry") == 0 ||
                strcmp(t, "Ten Most Expensive Products") == 0 ||
                strcmp(t, "Category Sales for 1995") == 0)
                views++;
        }
        rows++;
    }
    SQLFreeStmt(st, SQL_CLOSE);
    ck_assert_int_eq(views, 4);
    ck_assert_int_gt(rows, 100);
}
END_TEST

/* A view that does not resolve: SQLColumns naming it gives the error
 * SELECT * FROM it gives (a navigator previewing it shows why, not an
 * empty view); a pattern matching it among other objects skips it and
 * lists the others. queryTestV2003.mdb's UnionQuery names a table not in
 * its FROM (Access asks for such names as parameters: 07002),
 * CrosstabQuery has an aggregate in its WHERE (42000);
 * SelectQuery resolves. */
START_TEST(columns_of_broken_view_is_its_error)
{
    SQLHENV e2;
    SQLHDBC d2;
    SQLHSTMT s2;
    odbct_connect_path(&e2, &d2, odbct_fixture("jackcess/V2003/queryTestV2003.mdb"));
    ODBCT_OK(SQL_HANDLE_DBC, d2, SQLAllocHandle(SQL_HANDLE_STMT, d2, &s2));
    static const char *const views[][2] = {
        { "UnionQuery", "07002" }, { "CrosstabQuery", "42000" },
    };
    for (size_t i = 0; i < 2; i++) {
        char sql[64], msg[512];
        snprintf(sql, sizeof sql, "SELECT * FROM %s", views[i][0]);
        ck_assert_int_eq(SQLExecDirect(s2, (SQLCHAR *)sql, SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, s2), views[i][1]);
        snprintf(msg, sizeof msg, "%s", odbct_message(SQL_HANDLE_STMT, s2));
        ck_assert_int_eq(SQLColumns(s2, NULL, 0, NULL, 0,
                                    (SQLCHAR *)views[i][0], SQL_NTS, NULL, 0),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, s2), views[i][1]);
        /* the same message, without the position in a SELECT the
         * application did not write */
        const char *cm = odbct_message(SQL_HANDLE_STMT, s2);
        ck_assert_msg(!strncmp(cm, msg, strlen(cm)) &&
                      !strcmp(msg + strlen(cm), " (at character 15)"),
                      "%s\n%s", cm, msg);
        /* a column pattern does not change that */
        ck_assert_int_eq(SQLColumns(s2, NULL, 0, NULL, 0,
                                    (SQLCHAR *)views[i][0], SQL_NTS,
                                    (SQLCHAR *)"col%", SQL_NTS), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, s2), views[i][1]);
    }
    /* the three views by pattern: SelectQuery's six columns, no error */
    ODBCT_OK(SQL_HANDLE_STMT, s2, SQLColumns(s2, NULL, 0, NULL, 0,
             (SQLCHAR *)"%Query", SQL_NTS, NULL, 0));
    int n = 0;
    SQLRETURN r;
    while ((r = SQLFetch(s2)) == SQL_SUCCESS) {
        char t[64];
        SQLLEN ind;
        ODBCT_OK(SQL_HANDLE_STMT, s2, SQLGetData(s2, 3, SQL_C_CHAR, t,
                                                 sizeof t, &ind));
        ck_assert_str_eq(t, "SelectQuery");
        n++;
    }
    ck_assert_int_eq(r, SQL_NO_DATA);
    ck_assert_int_eq(n, 6);
    SQLFreeHandle(SQL_HANDLE_STMT, s2);
    odbct_disconnect(e2, d2);
}
END_TEST

/* A linked table (SYNONYM) lists the linked file's columns; a link that
 * does not resolve is skipped, not an error. */
START_TEST(columns_of_linked_table)
{
    char cmd[2048], connstr[1024];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/'",
             odbct_fixture("jackcess/linkeeTest.accdb"), odbct_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/'",
             odbct_fixture("jackcess/V2007/linkerTestV2007.accdb"),
             odbct_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    SQLHENV e2;
    SQLHDBC d2;
    SQLHSTMT s2;
    snprintf(connstr, sizeof connstr,
             "DRIVER={JetODBC};DBQ=%s/linkerTestV2007.accdb;", odbct_tmpdir());
    odbct_connect(&e2, &d2, connstr);
    ODBCT_OK(SQL_HANDLE_DBC, d2, SQLAllocHandle(SQL_HANDLE_STMT, d2, &s2));
    ODBCT_OK(SQL_HANDLE_STMT, s2, SQLColumns(s2, NULL, 0, NULL, 0,
             (SQLCHAR *)"Table2", SQL_NTS, NULL, 0));
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(s2))) {
        char t[64], c[64];
        SQLLEN ind;
        SQLGetData(s2, 3, SQL_C_CHAR, t, sizeof t, &ind);
        SQLGetData(s2, 4, SQL_C_CHAR, c, sizeof c, &ind);
        ck_assert_str_eq(t, "Table2");
        n++;
    }
    ck_assert_int_ge(n, 2);
    SQLFreeStmt(s2, SQL_CLOSE);
    /* without the linked file: no rows for the link, no error */
    snprintf(cmd, sizeof cmd, "rm '%s/linkeeTest.accdb'", odbct_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    SQLFreeHandle(SQL_HANDLE_STMT, s2);
    odbct_disconnect(e2, d2);
    odbct_connect(&e2, &d2, connstr);
    ODBCT_OK(SQL_HANDLE_DBC, d2, SQLAllocHandle(SQL_HANDLE_STMT, d2, &s2));
    ODBCT_OK(SQL_HANDLE_STMT, s2, SQLColumns(s2, NULL, 0, NULL, 0,
             (SQLCHAR *)"Table2", SQL_NTS, NULL, 0));
    ck_assert_int_eq(SQLFetch(s2), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, s2);
    odbct_disconnect(e2, d2);
}
END_TEST

START_TEST(type_info_wvarchar_then_fetch)
{
    /* pyodbc's first-connect sequence */
    static const SQLSMALLINT types[] = {SQL_VARCHAR, SQL_WVARCHAR,
                                        SQL_VARBINARY, SQL_TYPE_TIMESTAMP,
                                        SQL_GUID, SQL_INTERVAL_DAY};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, types[i]));
        ck_assert_int_eq(ncols(), 19);
        SQLRETURN r = SQLFetch(st);
        if (SQL_SUCCEEDED(r)) {
            SQLINTEGER size = 0;
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLGetData(st, 3, SQL_C_SLONG, &size, 0, &ind));
            SQLSMALLINT dt;
            SQLGetData(st, 2, SQL_C_SSHORT, &dt, 0, &ind);
            ck_assert_int_eq(dt, types[i]);
        } else {
            ck_assert_int_eq(r, SQL_NO_DATA);
        }
        SQLFreeStmt(st, SQL_CLOSE);
    }
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, SQL_WVARCHAR));
    ck_assert_int_ge(fetch_all(1, NULL, 0), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, SQL_ALL_TYPES));
    ck_assert_int_ge(fetch_all(1, NULL, 0), 8);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, SQL_INTERVAL_DAY));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    /* fixed-length Text (CREATE TABLE ... CHAR(n)) is CHAR, SQL_WCHAR */
    char name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, SQL_WCHAR));
    ck_assert_int_eq(fetch_all(1, name, sizeof name), 1);
    ck_assert_str_eq(name, "CHAR,");
}
END_TEST

/* SEARCHABLE as the Access driver answers: text SQL_SEARCHABLE, MEMO
 * LIKE only, OLE none, the rest every predicate but LIKE; the same from
 * SQLGetTypeInfo and SQL_DESC_SEARCHABLE of a result column. */
START_TEST(type_info_and_columns_searchable)
{
    static const struct { SQLSMALLINT type; SQLSMALLINT pred; } want[] = {
        {SQL_WVARCHAR, SQL_SEARCHABLE}, {SQL_WLONGVARCHAR, SQL_PRED_CHAR},
        {SQL_LONGVARBINARY, SQL_PRED_NONE}, {SQL_INTEGER, SQL_PRED_BASIC},
        {SQL_TYPE_TIMESTAMP, SQL_PRED_BASIC}, {SQL_BIT, SQL_PRED_BASIC},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetTypeInfo(st, want[i].type));
        ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
        SQLSMALLINT pred = -1;
        SQLLEN ind;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLGetData(st, 9, SQL_C_SSHORT, &pred, 0, &ind));
        ck_assert_int_eq(pred, want[i].pred);
        SQLFreeStmt(st, SQL_CLOSE);
    }
    /* CompanyName text, Notes memo, Photo OLE, EmployeeID long */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st,
             (SQLCHAR *)"SELECT LastName, Notes, Photo, EmployeeID "
                        "FROM Employees", SQL_NTS));
    static const SQLLEN cols[] = {SQL_SEARCHABLE, SQL_PRED_CHAR,
                                  SQL_PRED_NONE, SQL_PRED_BASIC};
    for (SQLUSMALLINT c = 1; c <= 4; c++) {
        SQLLEN num = -1;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, c,
                 SQL_DESC_SEARCHABLE, NULL, 0, NULL, &num));
        ck_assert_int_eq(num, cols[c - 1]);
    }
    SQLFreeStmt(st, SQL_CLOSE);
}
END_TEST

START_TEST(statistics_and_primary_keys)
{
    char list[1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLStatistics(st, NULL, 0, NULL, 0,
                                                (SQLCHAR *)"Orders", SQL_NTS,
                                                SQL_INDEX_ALL, SQL_QUICK));
    ck_assert_int_eq(ncols(), 13);
    ck_assert_int_ge(fetch_all(6, NULL, 0), 2);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrimaryKeys(st, NULL, 0, NULL, 0,
                                                 (SQLCHAR *)"Orders", SQL_NTS));
    ck_assert_int_eq(ncols(), 6);
    ck_assert_int_eq(fetch_all(4, list, sizeof list), 1);
    ck_assert_str_eq(list, "OrderID,");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLForeignKeys(st, NULL, 0, NULL, 0,
                                                 (SQLCHAR *)"Orders", SQL_NTS,
                                                 NULL, 0, NULL, 0, NULL, 0));
    ck_assert_int_eq(ncols(), 14);
    fetch_all(1, NULL, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSpecialColumns(st, SQL_BEST_ROWID, NULL,
                                                    0, NULL, 0,
                                                    (SQLCHAR *)"Orders",
                                                    SQL_NTS, SQL_SCOPE_SESSION,
                                                    SQL_NULLABLE));
    ck_assert_int_eq(ncols(), 8);
    ck_assert_int_eq(fetch_all(2, NULL, 0), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLProcedures(st, NULL, 0, NULL, 0, NULL, 0));
    ck_assert_int_eq(ncols(), 8);
    ck_assert_int_eq(fetch_all(1, NULL, 0), 3);   /* the parameter queries */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLStatistics(st, NULL, 0, NULL, 0,
                                                (SQLCHAR *)"NoSuchTable",
                                                SQL_NTS, SQL_INDEX_ALL,
                                                SQL_QUICK));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
}
END_TEST

/* Text of column col of the current row ("NULL" for NULL; static). */
static const char *cell(SQLUSMALLINT col)
{
    static char buf[512];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, col, SQL_C_CHAR, buf, sizeof buf, &ind));
    if (ind == SQL_NULL_DATA)
        strcpy(buf, "NULL");
    return buf;
}

static int cell_int(SQLUSMALLINT col)
{
    SQLINTEGER v = -999;
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, col, SQL_C_SLONG, &v, 0, &ind));
    return ind == SQL_NULL_DATA ? -999 : (int)v;
}

static SQLRETURN fk(const char *pk, const char *fkt)
{
    return SQLForeignKeys(st, NULL, 0, NULL, 0, (SQLCHAR *)pk,
                          pk ? SQL_NTS : 0, NULL, 0, NULL, 0,
                          (SQLCHAR *)fkt, fkt ? SQL_NTS : 0);
}

START_TEST(foreign_keys_primary_key_side)
{
    /* Orders is referenced by Order Details (cascade deletes) */
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("Orders", NULL));
    ck_assert_int_eq(ncols(), 14);
    ck_assert_str_eq(col_name(1), "PKTABLE_CAT");
    ck_assert_str_eq(col_name(9), "KEY_SEQ");
    ck_assert_str_eq(col_name(14), "DEFERRABILITY");
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_ptr_nonnull(strstr(cell(1), "nwind.mdb"));
    ck_assert_str_eq(cell(2), "NULL");
    ck_assert_str_eq(cell(3), "Orders");
    ck_assert_str_eq(cell(4), "OrderID");
    ck_assert_ptr_nonnull(strstr(cell(5), "nwind.mdb"));
    ck_assert_str_eq(cell(7), "Order Details");
    ck_assert_str_eq(cell(8), "OrderID");
    ck_assert_int_eq(cell_int(9), 1);
    ck_assert_int_eq(cell_int(10), SQL_NO_ACTION);
    ck_assert_int_eq(cell_int(11), SQL_CASCADE);
    ck_assert_str_eq(cell(12), "OrdersOrder Details");
    ck_assert_str_eq(cell(13), "PrimaryKey");
    ck_assert_int_eq(cell_int(14), SQL_NOT_DEFERRABLE);
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
}
END_TEST

START_TEST(foreign_keys_foreign_key_side_and_both)
{
    char list[1024];
    /* Orders references Customers, Employees and Shippers: ordered by
     * PKTABLE_NAME */
    ODBCT_OK(SQL_HANDLE_STMT, st, fk(NULL, "orders"));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 3);
    ck_assert_str_eq(list, "Customers,Employees,Shippers,");
    ODBCT_OK(SQL_HANDLE_STMT, st, fk(NULL, "Orders"));
    fetch_all(8, list, sizeof list);
    ck_assert_str_eq(list, "CustomerID,EmployeeID,ShipVia,");
    /* both tables: that one relationship */
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("Shippers", "Orders"));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "ShipperID");
    ck_assert_str_eq(cell(8), "ShipVia");
    ck_assert_str_eq(cell(12), "ShippersOrders");
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("Orders", "Shippers"));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    /* names are ordinary arguments: no patterns */
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("Order%", NULL));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    /* a foreign catalog or a schema names nothing */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLForeignKeys(st, (SQLCHAR *)"/no/such.mdb", SQL_NTS, NULL, 0,
                            (SQLCHAR *)"Orders", SQL_NTS, NULL, 0, NULL, 0,
                            NULL, 0));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    /* "" is a table not given, with "" catalogs and schemas: how PHP's
     * odbc_foreignkeys asks (tester9 F5) */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLForeignKeys(st, (SQLCHAR *)"", SQL_NTS, (SQLCHAR *)"",
                            SQL_NTS, (SQLCHAR *)"Orders", SQL_NTS,
                            (SQLCHAR *)"", SQL_NTS, (SQLCHAR *)"", SQL_NTS,
                            (SQLCHAR *)"", SQL_NTS));
    ck_assert_int_eq(fetch_all(7, list, sizeof list), 1);
    ck_assert_str_eq(list, "Order Details,");
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("", "Orders"));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 3);
    ck_assert_str_eq(list, "Customers,Employees,Shippers,");
    ODBCT_OK(SQL_HANDLE_STMT, st, fk("", ""));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    /* neither table: HY009 */
    ck_assert_int_eq(fk(NULL, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY009");
}
END_TEST

START_TEST(patterns_empty_strings_per_odbc)
{
    char list[2048];
    /* "" table pattern matches only an empty name */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    /* "" schema: objects without a schema - all of them */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, (SQLCHAR *)"", SQL_NTS,
                                            NULL, 0, (SQLCHAR *)"TABLE",
                                            SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 9);
    /* a named schema: none */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, (SQLCHAR *)"dbo",
                                            SQL_NTS, NULL, 0,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    /* "" catalog: the current one, as PHP, Perl DBI and LibreOffice pass
     * it (tester9 F5) */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", SQL_NTS,
                                            NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 9);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"%", SQL_NTS,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 9);
    /* another catalog: none */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"/no/such.mdb",
                                            SQL_NTS, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    /* the catalog as SQLTables reports it */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st,
                                            (SQLCHAR *)odbct_fixture("mdbtestdata/nwind.mdb"),
                                            SQL_NTS, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 9);
    /* SQLColumns: "" column pattern matches nothing; "" catalog is the
     * current one */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Shippers", SQL_NTS,
                                             (SQLCHAR *)"", SQL_NTS));
    ck_assert_int_eq(fetch_all(4, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, (SQLCHAR *)"", SQL_NTS,
                                             NULL, 0, (SQLCHAR *)"Shippers",
                                             SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(4, NULL, 0), 3);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Shippers", SQL_NTS,
                                             NULL, 0));
    ck_assert_int_eq(fetch_all(4, list, sizeof list), 3);
    ck_assert_str_eq(list, "ShipperID,CompanyName,Phone,");
}
END_TEST

START_TEST(patterns_wildcards_and_escapes)
{
    char list[2048];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"ord%", SQL_NTS,
                                            (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 2);
    ck_assert_str_eq(list, "Order Details,Orders,");
    /* escaped % is a literal percent sign: no table has one */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Ord\\%", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    /* _ is one character; \_ only an underscore */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"_rders", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"\\_rders", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    /* a non-ASCII name, UTF-8, as a whole and through _ */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Ums_tze", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 1);
    ck_assert_str_eq(list, "Ums\xc3\xa4tze,");
    /* case-insensitive beyond ASCII, as Access compares names */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"UMS\xc3\x84TZE",
                                            SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
    /* column patterns: "%ID" in Orders */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Orders", SQL_NTS,
                                             (SQLCHAR *)"%ID", SQL_NTS));
    ck_assert_int_eq(fetch_all(4, list, sizeof list), 3);
    ck_assert_str_eq(list, "OrderID,CustomerID,EmployeeID,");
    /* SQL_ATTR_METADATA_ID: arguments are identifiers, _ is literal */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"_rders", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"ORDERS", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
}
END_TEST

START_TEST(tables_enumerations)
{
    char list[4096];
    /* SQL_ALL_CATALOGS: one row, the file path; other columns NULL */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)SQL_ALL_CATALOGS,
                                            SQL_NTS, (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"", SQL_NTS, NULL, 0));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(1), odbct_fixture("mdbtestdata/nwind.mdb"));
    ck_assert_str_eq(cell(2), "NULL");
    ck_assert_str_eq(cell(3), "NULL");
    ck_assert_str_eq(cell(4), "NULL");
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
    /* SQL_ALL_SCHEMAS: no schemas */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)SQL_ALL_SCHEMAS,
                                            SQL_NTS, (SQLCHAR *)"", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(ncols(), 5);
    ck_assert_int_eq(fetch_all(2, NULL, 0), 0);
    /* SQL_ALL_TABLE_TYPES: each type once, TABLE_TYPE only */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)"", SQL_NTS,
                                            (SQLCHAR *)SQL_ALL_TABLE_TYPES,
                                            SQL_NTS));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 4);
    ck_assert_str_eq(list, "NULL,NULL,NULL,NULL,");
    /* Excel: CatalogName = SQL_ALL_CATALOGS with a type list and NULL
     * schema/table is an ordinary search: 9 tables and 19 VIEWs (of 20
     * saved selects, "Invoices Filter" reads a form control: a parameter
     * query) */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, (SQLCHAR *)SQL_ALL_CATALOGS,
                                            SQL_NTS, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"TABLE,VIEW", SQL_NTS));
    ck_assert_int_eq(fetch_all(4, NULL, 0), 28);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"'TABLE', 'VIEW'",
                                            SQL_NTS));
    ck_assert_int_eq(fetch_all(4, NULL, 0), 28);
    /* ordered by TABLE_TYPE, then TABLE_NAME */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"C%", SQL_NTS,
                                            (SQLCHAR *)"VIEW,TABLE", SQL_NTS));
    fetch_all(3, list, sizeof list);
    ck_assert_str_eq(list, "Categories,Customers,Catalog,Category Sales for "
                           "1995,Current Product List,Customers and "
                           "Suppliers by City,");
}
END_TEST

START_TEST(queries_views_and_procedures)
{
    char list[2048];
    /* parameter queries are procedures, not VIEWs */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Sales by Year",
                                            SQL_NTS, NULL, 0));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLProcedures(st, NULL, 0, NULL, 0,
                                                NULL, 0));
    ck_assert_int_eq(ncols(), 8);
    ck_assert_str_eq(col_name(8), "PROCEDURE_TYPE");
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 3);
    ck_assert_str_eq(list, "Employee Sales by Country,Invoices Filter,"
                           "Sales by Year,");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLProcedures(st, NULL, 0, NULL, 0,
                                                (SQLCHAR *)"Sales%", SQL_NTS));
    ck_assert_int_eq(fetch_all(3, NULL, 0), 1);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLProcedureColumns(st, NULL, 0, NULL, 0,
                                 (SQLCHAR *)"Employee Sales by Country",
                                 SQL_NTS, NULL, 0));
    ck_assert_int_eq(ncols(), 19);
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "Beginning Date");
    ck_assert_int_eq(cell_int(5), SQL_PARAM_INPUT);
    ck_assert_int_eq(cell_int(6), SQL_TYPE_TIMESTAMP);
    ck_assert_str_eq(cell(7), "DATETIME");
    ck_assert_int_eq(cell_int(18), 1);
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "Ending Date");
    ck_assert_int_eq(cell_int(18), 2);
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
    /* a form reference the query does not declare is its parameter, as
     * Access prompts for it: a Text value */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLProcedureColumns(st, NULL, 0, NULL, 0,
                                 (SQLCHAR *)"Invoices Filter", SQL_NTS,
                                 NULL, 0));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "[Forms]![Orders]![OrderID]");
    ck_assert_int_eq(cell_int(5), SQL_PARAM_INPUT);
    ck_assert_str_eq(cell(7), "VARCHAR");
    ck_assert_int_eq(cell_int(8), 255);
    ck_assert_int_eq(cell_int(18), 1);
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLTables(st, NULL, 0, NULL, 0,
                                            (SQLCHAR *)"Invoices%", SQL_NTS,
                                            NULL, 0));
    ck_assert_int_eq(fetch_all(3, list, sizeof list), 1);
    ck_assert_str_eq(list, "Invoices,");
}
END_TEST

/* Rows of the statement on st (executed), each row's columns joined by
 * '|', rows sorted and joined by newlines into buf. */
static int rows_text(char *buf, size_t cap)
{
    char rows[64][1024];
    int n = 0;
    SQLSMALLINT nc = ncols();
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        ck_assert_int_lt(n, 64);
        rows[n][0] = '\0';
        for (SQLSMALLINT c = 1; c <= nc; c++) {
            char v[256];
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, (SQLUSMALLINT)c,
                     SQL_C_CHAR, v, sizeof v, &ind));
            size_t l = strlen(rows[n]);
            snprintf(rows[n] + l, sizeof rows[n] - l, "%s|",
                     ind == SQL_NULL_DATA ? "NULL" : v);
        }
        n++;
    }
    SQLFreeStmt(st, SQL_CLOSE);
    qsort(rows, (size_t)n, sizeof rows[0],
          (int (*)(const void *, const void *))strcmp);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        ck_assert_uint_lt(strlen(buf) + strlen(rows[i]) + 2, cap);
        strcat(buf, rows[i]);
        strcat(buf, "\n");
    }
    return n;
}

/*
 * Issue 8: Northwind's "Invoices Filter" (SELECT DISTINCTROW Invoices.*
 * FROM Invoices WHERE Invoices.OrderID = [Forms]![Orders]![OrderID]) runs
 * through {call} with the form control's value bound, giving the rows of
 * the same query written by hand with that value; as a table it answers
 * Microsoft's driver's 07002 "Too few parameters. Expected 1.".
 */
START_TEST(form_reference_query_called_with_its_value)
{
    static char want[64 * 1024], got[64 * 1024];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT DISTINCTROW Invoices.* FROM Invoices WHERE "
             "Invoices.OrderID = 10250", SQL_NTS));
    int n0 = rows_text(want, sizeof want);
    ck_assert_int_eq(n0, 3);
    SQLINTEGER id = 10250;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)"{call [Invoices Filter](?)}",
                        SQL_NTS));
    SQLSMALLINT np = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumParams(st, &np));
    ck_assert_int_eq(np, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, &id, 0, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(rows_text(got, sizeof got), n0);
    ck_assert_str_eq(got, want);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM "
                                   "[Invoices Filter]", SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07002");
}
END_TEST

START_TEST(statistics_cardinality_and_nullable)
{
    /* SQL_ENSURE counts rows; the PrimaryKey index has one key per row */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLStatistics(st, NULL, 0, NULL, 0,
                                                (SQLCHAR *)"Orders", SQL_NTS,
                                                SQL_INDEX_UNIQUE, SQL_ENSURE));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_int_eq(cell_int(7), SQL_TABLE_STAT);
    ck_assert_int_eq(cell_int(11), 830);
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        ck_assert_int_eq(cell_int(4), SQL_FALSE);      /* unique only */
        if (strcmp(cell(6), "PrimaryKey") == 0)
            ck_assert_int_eq(cell_int(11), 830);
        n++;
    }
    ck_assert_int_ge(n, 1);
    SQLFreeStmt(st, SQL_CLOSE);
    /* Required = Yes -> SQL_NO_NULLS; otherwise nullable */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColumns(st, NULL, 0, NULL, 0,
                                             (SQLCHAR *)"Categories", SQL_NTS,
                                             (SQLCHAR *)"Category%", SQL_NTS));
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "CategoryID");
    ck_assert_str_eq(cell(6), "COUNTER");
    ck_assert_int_eq(cell_int(11), SQL_NULLABLE);
    ck_assert(SQL_SUCCEEDED(SQLFetch(st)));
    ck_assert_str_eq(cell(4), "CategoryName");
    ck_assert_int_eq(cell_int(11), SQL_NO_NULLS);
    ck_assert_str_eq(cell(18), "NO");
    SQLFreeStmt(st, SQL_CLOSE);
    /* the table name is required (not a pattern, never NULL) */
    ck_assert_int_eq(SQLPrimaryKeys(st, NULL, 0, NULL, 0, NULL, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY009");
    ck_assert_int_eq(SQLStatistics(st, NULL, 0, NULL, 0, NULL, 0,
                                   SQL_INDEX_ALL, SQL_QUICK), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY009");
    /* SQL_ROWVER: Access has no row versions */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSpecialColumns(st, SQL_ROWVER, NULL, 0,
                                                    NULL, 0,
                                                    (SQLCHAR *)"Orders",
                                                    SQL_NTS, SQL_SCOPE_SESSION,
                                                    SQL_NULLABLE));
    ck_assert_int_eq(ncols(), 8);
    ck_assert_int_eq(fetch_all(2, NULL, 0), 0);
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("odbc_catalog");
    TCase *tc = tcase_create("catalog");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, tables_shape_and_user_tables);
    tcase_add_test(tc, tables_type_list_and_system_tables);
    tcase_add_test(tc, tables_pattern_escape_underscore);
    tcase_add_test(tc, tables_special_cases);
    tcase_add_test(tc, columns_has_18_columns_with_types);
    tcase_add_test(tc, columns_of_views);
    tcase_add_test(tc, columns_of_broken_view_is_its_error);
    tcase_add_test(tc, columns_of_linked_table);
    tcase_add_test(tc, type_info_wvarchar_then_fetch);
    tcase_add_test(tc, type_info_and_columns_searchable);
    tcase_add_test(tc, statistics_and_primary_keys);
    tcase_add_test(tc, foreign_keys_primary_key_side);
    tcase_add_test(tc, foreign_keys_foreign_key_side_and_both);
    tcase_add_test(tc, patterns_empty_strings_per_odbc);
    tcase_add_test(tc, patterns_wildcards_and_escapes);
    tcase_add_test(tc, tables_enumerations);
    tcase_add_test(tc, queries_views_and_procedures);
    tcase_add_test(tc, form_reference_query_called_with_its_value);
    tcase_add_test(tc, statistics_cardinality_and_nullable);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(catalog_suite)
