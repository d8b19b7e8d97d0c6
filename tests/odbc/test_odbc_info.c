/*
 * test_odbc_info.c - SQLGetInfo (strings honour BufferLength in bytes with
 * 01004, W variant, unknown InfoType HY096), SQLGetFunctions bitmaps,
 * SQLNativeSql and diagnostics fields.
 */
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

START_TEST(getinfo_string_truncates_with_01004)
{
    char full[256], small[4];
    SQLSMALLINT len = 0, len2 = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DBMS_NAME, full,
                                             sizeof full, &len));
    ck_assert_str_eq(full, "ACCESS");
    ck_assert_int_eq(len, 6);
    ck_assert_int_eq(SQLGetInfo(dbc, SQL_DBMS_NAME, small, sizeof small,
                                &len2), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "01004");
    ck_assert_str_eq(small, "ACC");
    ck_assert_int_eq(len2, 6);
}
END_TEST

START_TEST(getinfo_w_counts_bytes)
{
    SQLWCHAR w[64];
    SQLSMALLINT len = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfoW(dbc, SQL_IDENTIFIER_QUOTE_CHAR,
                                              w, sizeof w, &len));
    ck_assert_int_eq(len, 2);
    ck_assert_uint_eq(w[0], '`');
    ck_assert_uint_eq(w[1], 0);
}
END_TEST

START_TEST(getinfo_numbers_and_unknown)
{
    SQLUSMALLINT us = 0;
    SQLUINTEGER ui = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_TXN_CAPABLE, &us, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_GETDATA_EXTENSIONS, &ui, 0, NULL));
    ck_assert_int_ne(ui & SQL_GD_ANY_ORDER, 0);
    ck_assert_int_eq(SQLGetInfo(dbc, 31999, &ui, 0, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "HY096");
}
END_TEST

START_TEST(getfunctions_reports_exports)
{
    SQLUSMALLINT bits[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    SQLUSMALLINT one = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc,
                                                  SQL_API_ODBC3_ALL_FUNCTIONS,
                                                  bits));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLFETCHSCROLL));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLGETDATA));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLTABLES));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLBINDPARAMETER));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLDESCRIBEPARAM));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc, SQL_API_SQLBINDCOL,
                                                  &one));
    ck_assert_int_eq(one, SQL_TRUE);
}
END_TEST

START_TEST(native_sql_echoes)
{
    char out[64];
    SQLINTEGER len = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLNativeSql(dbc, (SQLCHAR *)"SELECT * FROM t", SQL_NTS,
                          (SQLCHAR *)out, sizeof out, &len));
    ck_assert_str_eq(out, "SELECT * FROM t");
    ck_assert_int_eq(len, 15);
}
END_TEST

START_TEST(diag_fields_of_a_failed_statement)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM zzz", SQL_NTS),
                     SQL_ERROR);
    SQLINTEGER n = 0;
    char state[8];
    SQLSMALLINT len;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetDiagField(SQL_HANDLE_STMT, st, 0,
                                                  SQL_DIAG_NUMBER, &n, 0, NULL));
    ck_assert_int_eq(n, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetDiagField(SQL_HANDLE_STMT, st, 1,
                                                  SQL_DIAG_SQLSTATE, state,
                                                  sizeof state, &len));
    ck_assert_str_eq(state, "42S02");
    ck_assert_int_eq(SQLGetDiagRec(SQL_HANDLE_STMT, st, 2, (SQLCHAR *)state,
                                   NULL, NULL, 0, NULL), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *info_suite(void)
{
    Suite *s = suite_create("odbc_info");
    TCase *tc = tcase_create("info");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, getinfo_string_truncates_with_01004);
    tcase_add_test(tc, getinfo_w_counts_bytes);
    tcase_add_test(tc, getinfo_numbers_and_unknown);
    tcase_add_test(tc, getfunctions_reports_exports);
    tcase_add_test(tc, native_sql_echoes);
    tcase_add_test(tc, diag_fields_of_a_failed_statement);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(info_suite)
