/*
 * test_odbc_paramtext.c - text parameters as the SQL type the client
 * declared, through the driver manager (driver/paramconv.c): PHP and
 * Perl bind numbers as text, so '9007199254740993' bound as SQL_BIGINT
 * must stay that integer (not 2^53 through a double), past BIGINT's
 * range is 22003, a fraction is dropped with 01S07, a non-number is
 * 22018. nwind has no Large Number column: the comparisons are with a
 * BIGINT literal (`? = 9007199254740993`, typed BIGINT) and with a
 * BIGINT computed from a column.
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

/* Rows of sql (COUNT(*) in column 1) with one text parameter bound as
 * C type ctype (SQL_C_CHAR or SQL_C_WCHAR) and SQL type sqltype; the
 * return code, *count, and the SQLSTATE of record 1 in state. */
static SQLRETURN count_with(const char *sql, SQLSMALLINT ctype,
                            SQLSMALLINT sqltype, const char *text,
                            long *count, char *state)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS));
    SQLWCHAR w[64];
    size_t n = strlen(text);
    for (size_t i = 0; i <= n && i < 64; i++)
        w[i] = (SQLWCHAR)(unsigned char)text[i];
    SQLLEN ind = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, ctype, sqltype, 20, 0,
                              ctype == SQL_C_WCHAR ? (SQLPOINTER)w
                                                   : (SQLPOINTER)text,
                              0, &ind));
    SQLRETURN rc = SQLExecute(st);
    strcpy(state, odbct_state(SQL_HANDLE_STMT, st));
    *count = -1;
    if (SQL_SUCCEEDED(rc)) {
        SQLINTEGER c = -1;
        SQLLEN cind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLGetData(st, 1, SQL_C_SLONG, &c, 0, &cind));
        *count = c;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

static const char big_eq[] =
    "SELECT COUNT(*) FROM Shippers WHERE ? = 9007199254740993";
/* 9007199254730000 + OrderID (10248 .. 11077, 10249 the second) */
static const char big_col[] =
    "SELECT COUNT(*) FROM Orders WHERE "
    "{fn CONVERT(OrderID, SQL_BIGINT)} + 9007199254730000 = ?";

START_TEST(bigint_literal_is_described_as_bigint)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)big_eq,
                                             SQL_NTS));
    SQLSMALLINT type = 0, digits = 0, nullable = 0;
    SQLULEN size = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeParam(st, 1, &type, &size,
                                                   &digits, &nullable));
    ck_assert_int_eq(type, SQL_BIGINT);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(bigint_text_stays_exact)
{
    static const SQLSMALLINT ctypes[] = { SQL_C_CHAR, SQL_C_WCHAR };
    for (size_t c = 0; c < 2; c++) {
        long n;
        char state[8];
        ck_assert(SQL_SUCCEEDED(count_with(big_eq, ctypes[c], SQL_BIGINT,
                                           "9007199254740993", &n, state)));
        ck_assert_int_eq(n, 3);
        ck_assert(SQL_SUCCEEDED(count_with(big_eq, ctypes[c], SQL_BIGINT,
                                           "9007199254740992", &n, state)));
        ck_assert_int_eq(n, 0);
        ck_assert(SQL_SUCCEEDED(count_with(big_eq, ctypes[c], SQL_BIGINT,
                                           " +9007199254740993 ", &n,
                                           state)));
        ck_assert_int_eq(n, 3);
        /* the same text as a VARCHAR or DECIMAL: the engine reads it
         * exactly too */
        ck_assert(SQL_SUCCEEDED(count_with(big_eq, ctypes[c], SQL_VARCHAR,
                                           "9007199254740993", &n, state)));
        ck_assert_int_eq(n, 3);
        ck_assert(SQL_SUCCEEDED(count_with(big_eq, ctypes[c], SQL_DECIMAL,
                                           "9007199254740993", &n, state)));
        ck_assert_int_eq(n, 3);
        /* against a BIGINT computed from a column: past 2^53 a double
         * holds even integers only, so ...247 and ...249 would read as
         * ...248 (OrderID 10248) through one */
        static const struct {
            const char *text;
            long rows;
        } col[] = {
            { "9007199254740248", 1 }, { "9007199254740247", 0 },
            { "9007199254740249", 1 }, { "9007199254741077", 1 },
            { "9007199254741078", 0 }, { "9007199254741079", 0 },
        };
        for (size_t k = 0; k < sizeof col / sizeof *col; k++) {
            ck_assert(SQL_SUCCEEDED(count_with(big_col, ctypes[c],
                                               SQL_BIGINT, col[k].text, &n,
                                               state)));
            ck_assert_msg(n == col[k].rows, "%s: %ld rows", col[k].text, n);
        }
    }
}
END_TEST

START_TEST(bigint_text_errors)
{
    long n;
    char state[8];
    SQLRETURN rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT,
                              "9223372036854775808", &n, state);
    ck_assert_int_eq(rc, SQL_ERROR);
    ck_assert_str_eq(state, "22003");
    rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT, "-9223372036854775809",
                    &n, state);
    ck_assert_int_eq(rc, SQL_ERROR);
    ck_assert_str_eq(state, "22003");
    rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT, "1e19", &n, state);
    ck_assert_int_eq(rc, SQL_ERROR);
    ck_assert_str_eq(state, "22003");
    rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT, "12,5", &n, state);
    ck_assert_int_eq(rc, SQL_ERROR);
    ck_assert_str_eq(state, "22018");
    rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT, "0x10", &n, state);
    ck_assert_int_eq(rc, SQL_ERROR);
    ck_assert_str_eq(state, "22018");
    /* a fraction is dropped with a warning, exactly */
    rc = count_with(big_eq, SQL_C_CHAR, SQL_BIGINT, "9007199254740993.75",
                    &n, state);
    ck_assert_int_eq(rc, SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(state, "01S07");
    ck_assert_int_eq(n, 3);
}
END_TEST

START_TEST(integer_types_read_exactly)
{
    long n;
    char state[8];
    static const char sql[] =
        "SELECT COUNT(*) FROM Orders WHERE OrderID = ?";
    ck_assert(SQL_SUCCEEDED(count_with(sql, SQL_C_CHAR, SQL_INTEGER,
                                       "10248", &n, state)));
    ck_assert_int_eq(n, 1);
    ck_assert(SQL_SUCCEEDED(count_with(sql, SQL_C_CHAR, SQL_INTEGER,
                                       "1.0248e4", &n, state)));
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(count_with(sql, SQL_C_CHAR, SQL_INTEGER, "2147483648",
                                &n, state), SQL_ERROR);
    ck_assert_str_eq(state, "22003");
    ck_assert_int_eq(count_with(sql, SQL_C_CHAR, SQL_SMALLINT, "40000",
                                &n, state), SQL_ERROR);
    ck_assert_str_eq(state, "22003");
    ck_assert_int_eq(count_with(sql, SQL_C_CHAR, SQL_INTEGER, "10248.5",
                                &n, state), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(state, "01S07");
    ck_assert_int_eq(n, 1);
}
END_TEST

static Suite *paramtext_suite(void)
{
    Suite *s = suite_create("odbc_paramtext");
    TCase *tc = tcase_create("paramtext");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bigint_literal_is_described_as_bigint);
    tcase_add_test(tc, bigint_text_stays_exact);
    tcase_add_test(tc, bigint_text_errors);
    tcase_add_test(tc, integer_types_read_exactly);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(paramtext_suite)
