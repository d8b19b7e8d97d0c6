/*
 * test_odbc_accesssql.c - Access SQL read as Access reads it, through the
 * driver manager over nwind.mdb (issue 28; doc/sql.md has one line per
 * rule): "..." is text, a calculated field may use an earlier field's
 * alias, and the smaller differences found with them.
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

/* Every row of sql as text: columns joined by '|', rows by ',' (NULL as
 * "NULL"), into buf (cap bytes); returns the row count. */
static long rows_of(const char *sql, char *buf, size_t cap)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLSMALLINT ncols = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &ncols));
    long n = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        if (r == SQL_NO_DATA)
            break;
        ck_assert_msg(SQL_SUCCEEDED(r), "fetch: %s %s",
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        for (SQLSMALLINT c = 1; c <= ncols; c++) {
            char v[256];
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, (SQLUSMALLINT)c,
                                                     SQL_C_CHAR, v, sizeof v,
                                                     &ind));
            if (ind == SQL_NULL_DATA)
                snprintf(v, sizeof v, "NULL");
            if (len < cap)
                len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                        c > 1 ? "|" : n ? "," : "", v);
        }
        n++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return n;
}

/* Assert that sql returns exactly want (rows_of's form). */
static void want_rows(const char *sql, const char *want)
{
    char got[4096];
    rows_of(sql, got, sizeof got);
    ck_assert_msg(!strcmp(got, want), "%s: got '%s', want '%s'", sql, got,
                  want);
}

/* "..." delimits text, like '...', even where a column has the name */
START_TEST(double_quotes_are_text)
{
    want_rows("SELECT COUNT(*) FROM Orders WHERE ShipCity = \"ShipCity\"",
              "0");
    want_rows("SELECT COUNT(*) FROM Customers WHERE Country = \"Country\"",
              "0");
    want_rows("SELECT TOP 2 \"City\" FROM Customers ORDER BY CustomerID",
              "City,City");
    want_rows("SELECT COUNT(*) FROM Customers WHERE Country = \"Germany\"",
              "11");
    want_rows("SELECT \"say \"\"hi\"\"\" & 'x'", "say \"hi\"x");
    /* the column's name is Access's Expr1000, not City */
    SQLHSTMT st = odbct_exec(dbc, "SELECT TOP 1 \"City\" FROM Customers");
    SQLCHAR name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, name, sizeof name,
                                                 NULL, NULL, NULL, NULL,
                                                 NULL));
    ck_assert_str_eq((char *)name, "Expr1000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* the identifier quotes still name columns */
    want_rows("SELECT TOP 1 `City`, [Country] FROM Customers "
              "ORDER BY CustomerID", "Berlin|Germany");
}
END_TEST

static Suite *accesssql_suite(void)
{
    Suite *s = suite_create("odbc_accesssql");
    TCase *tc = tcase_create("accesssql");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, double_quotes_are_text);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(accesssql_suite)
