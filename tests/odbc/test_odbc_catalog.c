/*
 * test_odbc_catalog.c - catalog result sets: SQLTables (special cases,
 * patterns with \ escape, type lists), SQLColumns (18 columns),
 * SQLGetTypeInfo (filtered, SQL_ALL_TYPES, an empty but valid result),
 * SQLStatistics and SQLPrimaryKeys shapes.
 */
#include <stdio.h>
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
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLStatistics(st, NULL, 0, NULL, 0,
                                                (SQLCHAR *)"NoSuchTable",
                                                SQL_NTS, SQL_INDEX_ALL,
                                                SQL_QUICK));
    ck_assert_int_eq(fetch_all(1, NULL, 0), 0);
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
    tcase_add_test(tc, type_info_wvarchar_then_fetch);
    tcase_add_test(tc, statistics_and_primary_keys);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(catalog_suite)
