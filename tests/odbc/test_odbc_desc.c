/*
 * test_odbc_desc.c - the implicit descriptors through the driver manager:
 * IRD fields mirror SQLColAttribute, ARD fields bind columns.
 */
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;
static SQLHSTMT st;

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
    st = odbct_exec(dbc, "SELECT ShipperID, CompanyName FROM Shippers");
}

static void teardown(void)
{
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}

START_TEST(ird_count_name_and_type)
{
    SQLHDESC ird = NULL;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_ROW_DESC,
                                                 &ird, 0, NULL));
    ck_assert_ptr_nonnull(ird);
    SQLSMALLINT count = 0, type = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 0, SQL_DESC_COUNT,
                                                   &count, 0, NULL));
    ck_assert_int_eq(count, 2);
    char name[64];
    SQLINTEGER len = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2, SQL_DESC_NAME,
                                                   name, sizeof name, &len));
    ck_assert_str_eq(name, "CompanyName");
    ck_assert_int_eq(len, 11);
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2,
                                                   SQL_DESC_CONCISE_TYPE,
                                                   &type, 0, NULL));
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_int_eq(SQLSetDescField(ird, 1, SQL_DESC_TYPE,
                                     (SQLPOINTER)SQL_C_CHAR, 0), SQL_ERROR);
}
END_TEST

START_TEST(ard_fields_bind_a_column)
{
    SQLHDESC ard = NULL;
    SQLINTEGER id = 0;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC,
                                                 &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_TYPE,
                                                   (SQLPOINTER)SQL_C_SLONG, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR,
                                                   &id, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1,
                                                   SQL_DESC_INDICATOR_PTR,
                                                   &ind, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(ind, 4);
    SQLSMALLINT count = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLGetDescField(ard, 0, SQL_DESC_COUNT,
                                                   &count, 0, NULL));
    ck_assert_int_eq(count, 1);
}
END_TEST

static Suite *desc_suite(void)
{
    Suite *s = suite_create("odbc_desc");
    TCase *tc = tcase_create("desc");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, ird_count_name_and_type);
    tcase_add_test(tc, ard_fields_bind_a_column);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(desc_suite)
