/*
 * test_odbc_locale.c - numbers as text are the C locale's whatever the
 * client's locale: a client that calls setlocale(LC_ALL, "de_DE.UTF-8")
 * (a decimal comma) first, as Qt, LibreOffice and many PHP applications
 * do, still gets "0.5" for SELECT 0.5, Val('2.5') = 2.5, and its text
 * parameters '32.38' read as 32.38 ('32,38' is 22018), as ODBC's number
 * text is always C-locale.
 * Skips (77) with a message when the locale is not installed (CI makes
 * it: localedef -i de_DE -f UTF-8 de_DE.UTF-8 in .ci/run).
 */
#include <locale.h>
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

/* Column 1 of the one row of sql, fetched as SQL_C_CHAR and as
 * SQL_C_WCHAR (ASCII only), into buf; asserts both agree. */
static void text_of(const char *sql, char *buf, size_t cap)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_CHAR, buf, (SQLLEN)cap, &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = odbct_exec(dbc, sql);
    SQLWCHAR w[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_WCHAR, w, sizeof w, &ind));
    char n[64];
    size_t i = 0;
    for (; w[i] && i + 1 < sizeof n; i++)
        n[i] = (char)w[i];
    n[i] = '\0';
    ck_assert_msg(strcmp(n, buf) == 0, "%s: char '%s' wchar '%s'", sql, buf,
                  n);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static double double_of(const char *sql)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    double d = -1;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_DOUBLE, &d, 0, &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return d;
}

START_TEST(the_locale_is_german)
{
    /* the premise: this process's printf writes a decimal comma */
    char buf[16];
    snprintf(buf, sizeof buf, "%.1f", 0.5);
    ck_assert_str_eq(buf, "0,5");
}
END_TEST

START_TEST(literals_as_text)
{
    static const struct {
        const char *sql, *text;
    } cases[] = {
        { "SELECT 0.5", "0.5" },
        { "SELECT 1/4", "0.25" },
        { "SELECT CDbl(0.5)", "0.5" },
        { "SELECT CDbl('0.5')", "0.5" },
        { "SELECT 2.5 * 3", "7.5" },
        { "SELECT 1/3", "0.3333333333333333" },
        { "SELECT 1e300 * 10", "1e+301" },
        { "SELECT CSng(0.1)", "0.1" },
        { "SELECT CStr(0.5)", "0.5" },
        { "SELECT CStr(1/4)", "0.25" },
        { "SELECT 0.5 & ''", "0.5" },
        { "SELECT Val('2.5')", "2.5" },
        { "SELECT Val(' 1 . 25')", "1.25" },
        { "SELECT Format(0.5)", "0.5" },
        { "SELECT Format(1234.5, '#,##0.00')", "1,234.50" },
        { "SELECT Format(0.000123, 'Scientific')", "1.23E-04" },
        { "SELECT Format(2.5, 'Fixed')", "2.50" },
        { "SELECT CCur(2.5)", "2.5000" },
        { "SELECT CDec(2.5)", "2.5" },
        { "SELECT CDec('2.5')", "2.5" },
        { "SELECT Str(2.5)", " 2.5" },
        { "SELECT Round(2.345, 2)", "2.35" },
        { "SELECT TOP 1 Freight FROM Orders ORDER BY OrderID", "32.3800" },
        { "SELECT TOP 1 Discount FROM [Order Details] WHERE Discount > 0 "
          "ORDER BY OrderID, ProductID", "0.15" },
        { "SELECT TOP 1 CStr(Discount) FROM [Order Details] WHERE "
          "Discount > 0 ORDER BY OrderID, ProductID", "0.15" },
        { "SELECT IsNumeric('2.5')", "1" },
        { "SELECT CDbl('1,5')", "15" },
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        text_of(cases[i].sql, buf, sizeof buf);
        ck_assert_msg(strcmp(buf, cases[i].text) == 0, "%s gave '%s', not '%s'",
                      cases[i].sql, buf, cases[i].text);
    }
}
END_TEST

START_TEST(val_reads_a_period)
{
    ck_assert(double_of("SELECT Val('2.5')") == 2.5);
    ck_assert(double_of("SELECT Val('2,5')") == 2);
    ck_assert(double_of("SELECT CDbl('0.25')") == 0.25);
    ck_assert(double_of("SELECT '0.5' + 0") == 0.5);
}
END_TEST

/* COUNT(*) of sql with one text parameter bound as sqltype. */
static SQLRETURN count_with(const char *sql, SQLSMALLINT sqltype,
                            const char *text, long *count, char *state)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS));
    SQLLEN ind = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, sqltype,
                              15, 4, (SQLPOINTER)text, 0, &ind));
    SQLRETURN rc = SQLExecute(st);
    *state = '\0';
    if (SQL_SUCCEEDED(rc)) {
        SQLINTEGER n = -1;
        SQLLEN nind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLGetData(st, 1, SQL_C_SLONG, &n, 0, &nind));
        *count = n;
    } else {
        strcpy(state, odbct_state(SQL_HANDLE_STMT, st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

/* The SQL type SQLDescribeParam gives parameter 1 of sql (PHP's
 * odbc_execute binds text with it). */
static SQLSMALLINT described_type(const char *sql)
{
    SQLHSTMT st;
    SQLSMALLINT type = 0, digits = 0, nullable = 0;
    SQLULEN size = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeParam(st, 1, &type, &size,
                                                   &digits, &nullable));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return type;
}

START_TEST(text_parameters_read_a_period)
{
    static const char freight[] =
        "SELECT COUNT(*) FROM Orders WHERE Freight > ?";
    static const char discount[] =
        "SELECT COUNT(*) FROM [Order Details] WHERE Discount = ?";
    static const SQLSMALLINT types[] = { SQL_DECIMAL, SQL_NUMERIC,
                                         SQL_DOUBLE, SQL_FLOAT, SQL_REAL,
                                         SQL_VARCHAR, SQL_WVARCHAR };
    long n = -1;
    char state[8];
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        SQLRETURN rc = count_with(freight, types[i], "32.38", &n, state);
        ck_assert_msg(SQL_SUCCEEDED(rc), "Freight, type %d: %s", types[i],
                      state);
        ck_assert_msg(n == 459, "Freight, type %d: %ld rows", types[i], n);
    }
    /* as PHP's odbc_execute binds: with the described types (Currency
     * and Single) */
    SQLSMALLINT t = described_type(freight);
    ck_assert_int_eq(t, SQL_NUMERIC);
    ck_assert(SQL_SUCCEEDED(count_with(freight, t, "32.38", &n, state)));
    ck_assert_int_eq(n, 459);
    t = described_type(discount);
    ck_assert_int_eq(t, SQL_REAL);
    ck_assert(SQL_SUCCEEDED(count_with(discount, t, "0.15", &n, state)));
    ck_assert_int_eq(n, 157);
    /* declared as a Double or a Decimal, 0.15 is not the Single 0.15 (as
     * the literal in `Discount = 0.15` is not): the same answer as in
     * the C locale */
    SQLHSTMT st = odbct_exec(dbc, "SELECT COUNT(*) FROM [Order Details] "
                                  "WHERE Discount = 0.15");
    char lit[32];
    ck_assert_int_eq(odbct_col1(st, lit, sizeof lit), 1);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (types[i] == SQL_REAL)
            continue;
        SQLRETURN rc = count_with(discount, types[i], "0.15", &n, state);
        ck_assert_msg(SQL_SUCCEEDED(rc), "Discount, type %d: %s", types[i],
                      state);
        ck_assert_msg(n == atol(lit), "Discount, type %d: %ld rows, "
                      "literal %s", types[i], n, lit);
    }
}
END_TEST

START_TEST(decimal_comma_parameter_is_22018)
{
    static const SQLSMALLINT types[] = { SQL_DECIMAL, SQL_NUMERIC,
                                         SQL_DOUBLE, SQL_FLOAT };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        long n = -1;
        char state[8];
        SQLRETURN rc = count_with(
            "SELECT COUNT(*) FROM Orders WHERE Freight > ?", types[i],
            "32,38", &n, state);
        ck_assert_msg(rc == SQL_ERROR, "type %d: rc %d, %ld rows", types[i],
                      (int)rc, n);
        ck_assert_str_eq(state, "22018");
    }
}
END_TEST

START_TEST(text_column_read_as_double)
{
    /* a text value converted by the driver (SQL_C_DOUBLE, SQL_C_FLOAT,
     * SQL_C_NUMERIC of a text column) */
    SQLHSTMT st = odbct_exec(dbc, "SELECT '2.5', '0.125', '7.75'");
    double d = 0;
    float f = 0;
    SQL_NUMERIC_STRUCT num;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_DOUBLE, &d, 0,
                                             &ind));
    ck_assert(d == 2.5);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_FLOAT, &f, 0,
                                             &ind));
    ck_assert(f == 0.125f);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 3, SQL_C_NUMERIC, &num,
                                             sizeof num, &ind));
    /* default scale 0: 7.75 rounds or truncates to 7 or 8, never 775 */
    ck_assert_msg(num.val[0] == 7 || num.val[0] == 8, "numeric %d",
                  num.val[0]);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *locale_suite(void)
{
    Suite *s = suite_create("odbc_locale");
    TCase *tc = tcase_create("de_DE");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, the_locale_is_german);
    tcase_add_test(tc, literals_as_text);
    tcase_add_test(tc, val_reads_a_period);
    tcase_add_test(tc, text_parameters_read_a_period);
    tcase_add_test(tc, decimal_comma_parameter_is_22018);
    tcase_add_test(tc, text_column_read_as_double);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *want = getenv("JET_TEST_LOCALE");
    if (!setlocale(LC_ALL, want ? want : "de_DE.UTF-8")) {
        fprintf(stderr, "test_odbc_locale: SKIP: locale de_DE.UTF-8 is "
                        "not installed (localedef -i de_DE -f UTF-8 "
                        "de_DE.UTF-8)\n");
        return 77;
    }
    int skip = odbct_setup();
    if (skip)
        return skip;
    SRunner *sr = srunner_create(locale_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    odbct_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
