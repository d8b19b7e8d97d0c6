/*
 * test_odbc_textsize.c - no value is longer than its described size.
 *
 * A computed text column is described as SQL_WVARCHAR with a
 * COLUMN_SIZE that bounds its values (255, Access's Text limit, when no
 * value can be longer), or as SQL_WLONGVARCHAR when no bound is known or
 * it passes 4,000 characters. A client that binds by the described size
 * (RODBC) then never loses the end of a value: `CompanyName & Space(250)
 * & Address` is up to 350 characters. Each case checks SQLDescribeCol,
 * SQLColAttribute and every value's length.
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

/* Describe column 1 of sql; read every row's value (SQL_C_WCHAR) and
 * check it fits COLUMN_SIZE when the type is not a long one. Returns
 * the longest value's length in characters. */
static long check_column(const char *sql, SQLSMALLINT *type, SQLULEN *size)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLSMALLINT digits = 0, nullable = 0, nl = 0;
    SQLCHAR name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, name, sizeof name,
                                                 &nl, type, size, &digits,
                                                 &nullable));
    SQLLEN attr_type = 0, attr_len = 0, attr_octets = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLColAttribute(st, 1, SQL_DESC_TYPE, NULL, 0, NULL,
                             &attr_type));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLColAttribute(st, 1, SQL_DESC_LENGTH, NULL, 0, NULL,
                             &attr_len));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLColAttribute(st, 1, SQL_DESC_OCTET_LENGTH, NULL, 0, NULL,
                             &attr_octets));
    ck_assert_msg(attr_type == *type, "%s: SQL_DESC_TYPE %ld, described %d",
                  sql, (long)attr_type, *type);
    ck_assert_msg((SQLULEN)attr_len == *size, "%s: SQL_DESC_LENGTH %ld, "
                  "COLUMN_SIZE %lu", sql, (long)attr_len,
                  (unsigned long)*size);
    if (*type == SQL_WVARCHAR)
        ck_assert_msg(attr_octets == (SQLLEN)(2 * *size), "%s: octets %ld",
                      sql, (long)attr_octets);
    static SQLWCHAR buf[40000];
    long longest = -1;
    SQLRETURN rc;
    while ((rc = SQLFetch(st)) != SQL_NO_DATA) {
        ck_assert_msg(SQL_SUCCEEDED(rc), "%s: fetch %s %s", sql,
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        SQLLEN ind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_WCHAR, buf,
                                                 sizeof buf, &ind));
        long chars = ind == SQL_NULL_DATA ? 0
                                          : (long)(ind / sizeof(SQLWCHAR));
        if (chars > longest)
            longest = chars;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    if (*type != SQL_WLONGVARCHAR && *type != SQL_LONGVARCHAR)
        ck_assert_msg(longest <= (long)*size, "%s: a value of %ld "
                      "characters, described as %d(%lu)", sql, longest,
                      *type, (unsigned long)*size);
    return longest;
}

START_TEST(concatenation_past_255_is_described_by_its_bound)
{
    SQLSMALLINT type;
    SQLULEN size;
    long n = check_column("SELECT CompanyName & Space(250) & Address "
                          "FROM Customers", &type, &size);
    ck_assert_int_eq(n, 313);   /* the 282 and longer ones */
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_uint_eq(size, 40 + 250 + 60);
    check_column("SELECT CompanyName + Space(250) + Address FROM Customers",
                 &type, &size);
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_uint_eq(size, 350);
    check_column("SELECT {fn CONCAT(CompanyName, Space(250))} "
                 "FROM Customers", &type, &size);
    ck_assert_uint_eq(size, 290);
}
END_TEST

START_TEST(short_text_expressions_stay_255)
{
    static const char *const cases[] = {
        "SELECT UCase(CompanyName) FROM Customers",
        "SELECT CompanyName & ', ' & City FROM Customers",
        "SELECT Left(Address, 10) FROM Customers",
        "SELECT Trim(ContactName) & '' FROM Customers",
        "SELECT Format(OrderDate, 'yyyy-mm-dd') FROM Orders",
        "SELECT Format(OrderDate, 'Long Date') FROM Orders",
        "SELECT Format(Freight, '#,##0.00') FROM Orders",
        "SELECT CStr(Freight) FROM Orders",
        "SELECT IIf(Freight > 10, ShipName, 'cheap') FROM Orders",
        "SELECT Nz(Region, '-') FROM Customers",
        "SELECT Max(CompanyName) FROM Customers",
        "SELECT Mid(CompanyName & Space(300), 2, 20) FROM Customers",
        "SELECT Replace(CompanyName, 'a', 'A') FROM Customers",
        "SELECT String(10, 'x') & Chr(65) FROM Customers",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SQLSMALLINT type;
        SQLULEN size;
        check_column(cases[i], &type, &size);
        ck_assert_msg(type == SQL_WVARCHAR && size == 255, "%s: %d(%lu)",
                      cases[i], type, (unsigned long)size);
    }
}
END_TEST

START_TEST(functions_that_grow_text)
{
    static const struct {
        const char *sql;
        SQLULEN size;           /* 0: long text */
    } cases[] = {
        { "SELECT String(300, 'x') FROM Shippers", 300 },
        { "SELECT Space(256) FROM Shippers", 256 },
        { "SELECT Left(CompanyName & Space(300), 260) FROM Customers", 260 },
        { "SELECT Replace(CompanyName, 'a', String(20, 'b')) FROM Customers",
          40 + 40 * 19 },
        { "SELECT IIf(Country = 'UK', CompanyName & Space(250), Address) "
          "FROM Customers", 290 },
        { "SELECT UCase(CompanyName & Space(250)) FROM Customers", 290 },
        { "SELECT Nz(Region, Space(300)) FROM Customers", 300 },
        { "SELECT Max(CompanyName & Space(250)) FROM Customers", 290 },
        { "SELECT x FROM (SELECT CompanyName & Space(250) & Address AS x "
          "FROM Customers)", 350 },
        { "SELECT (SELECT TOP 1 CompanyName & Space(250) FROM Customers "
          "ORDER BY CustomerID) FROM Shippers", 290 },
        { "SELECT CompanyName & Space(250) FROM Customers UNION ALL "
          "SELECT 'a' FROM Shippers", 290 },
        { "SELECT Space(EmployeeID * 100) FROM Employees", 0 },
        { "SELECT String(5000, 'x') FROM Shippers", 0 },
        { "SELECT UCase(Notes) FROM Employees", 0 },
        { "SELECT LastName & Notes FROM Employees", 0 },
        { "SELECT Format(Freight * 1.5, '0.00') FROM Orders", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SQLSMALLINT type;
        SQLULEN size;
        check_column(cases[i].sql, &type, &size);
        if (cases[i].size == 0) {
            /* long text, or a size that bounds every value */
            ck_assert_msg(type == SQL_WLONGVARCHAR ||
                          (type == SQL_WVARCHAR && size > 255),
                          "%s: %d(%lu)", cases[i].sql, type,
                          (unsigned long)size);
        } else {
            ck_assert_msg(type == SQL_WVARCHAR && size == cases[i].size,
                          "%s: %d(%lu), not %lu", cases[i].sql, type,
                          (unsigned long)size,
                          (unsigned long)cases[i].size);
        }
    }
}
END_TEST

START_TEST(text_parameter_is_long)
{
    /* a text parameter can be any length: `SELECT ? & x` is long text */
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)"SELECT CompanyName & ? FROM "
                        "Customers", SQL_NTS));
    static char text[1001];
    memset(text, 'p', 1000);
    SQLLEN ind = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_WLONGVARCHAR, 1000, 0, text, 0, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    SQLSMALLINT type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, &type,
                                                 NULL, NULL, NULL));
    ck_assert_int_eq(type, SQL_WLONGVARCHAR);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    static SQLWCHAR w[2048];
    SQLLEN n = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_WCHAR, w, sizeof w,
                                             &n));
    ck_assert_int_gt(n / (SQLLEN)sizeof(SQLWCHAR), 1000);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *textsize_suite(void)
{
    Suite *s = suite_create("odbc_textsize");
    TCase *tc = tcase_create("textsize");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, concatenation_past_255_is_described_by_its_bound);
    tcase_add_test(tc, short_text_expressions_stay_255);
    tcase_add_test(tc, functions_that_grow_text);
    tcase_add_test(tc, text_parameter_is_long);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(textsize_suite)
