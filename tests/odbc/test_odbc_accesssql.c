/*
 * test_odbc_accesssql.c - Access SQL read as Access reads it, through the
 * driver manager over nwind.mdb (issue 28; doc/sql.md has one line per
 * rule): "..." is text, a calculated field may use an earlier field's
 * alias, and the smaller differences found with them.
 */
#include <stdbool.h>
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
 * "NULL"), into buf (cap bytes); returns the row count. Numbers fetched
 * as SQL_C_DOUBLE and written with %.10g when as_double. */
static long rows_as(const char *sql, bool as_double, char *buf, size_t cap)
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
            double d = 0;
            if (as_double) {
                ODBCT_OK(SQL_HANDLE_STMT, st,
                         SQLGetData(st, (SQLUSMALLINT)c, SQL_C_DOUBLE, &d, 0,
                                    &ind));
                snprintf(v, sizeof v, "%.10g", d);
            } else {
                ODBCT_OK(SQL_HANDLE_STMT, st,
                         SQLGetData(st, (SQLUSMALLINT)c, SQL_C_CHAR, v,
                                    sizeof v, &ind));
            }
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

/* Assert that sql returns exactly want (rows_as's form). */
static void want_as(const char *sql, bool as_double, const char *want)
{
    char got[4096];
    rows_as(sql, as_double, got, sizeof got);
    ck_assert_msg(!strcmp(got, want), "%s: got '%s', want '%s'", sql, got,
                  want);
}

static void want_rows(const char *sql, const char *want)
{
    want_as(sql, false, want);
}

static void want_numbers(const char *sql, const char *want)
{
    want_as(sql, true, want);
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

/* a calculated field may use an earlier field's alias; the alias wins
 * over a field of that name in later fields */
START_TEST(alias_reused_in_later_fields)
{
    want_numbers("SELECT TOP 3 UnitPrice*Quantity AS Total, Total*0.1 AS Tax "
                 "FROM [Order Details] ORDER BY OrderID, ProductID",
                 "168|16.8,98|9.8,174|17.4");
    want_numbers("SELECT TOP 1 Orders.OrderID AS Freight, Orders.Freight, "
              "[Freight]*1.1 AS [New Freight] FROM Orders "
              "ORDER BY Orders.OrderID", "10248|32.38|11272.8");
    /* a chain, and an alias never reaches itself or a later one */
    want_rows("SELECT TOP 1 1 AS a, a + 1 AS b, b * 10 AS c, "
              "OrderID + 0 AS OrderID FROM Orders ORDER BY OrderID",
              "1|2|20|10248");
    /* aliases are names of the select list only: WHERE still reads the
     * column */
    want_rows("SELECT COUNT(*) FROM (SELECT OrderID AS Freight FROM Orders "
              "WHERE Freight > 800)", "4");
}
END_TEST

/* Access sorts each grouped branch of a UNION ALL by its GROUP BY */
START_TEST(union_all_grouped_branches_sorted)
{
    SQLHSTMT st = odbct_exec(dbc,
        "SELECT ShipCountry FROM Orders GROUP BY ShipCountry UNION ALL "
        "SELECT ShipCountry FROM Orders WHERE ShipVia = 2 "
        "GROUP BY ShipCountry");
    char prev[64] = "", v[64];
    SQLLEN ind;
    long n = 0, breaks = 0;
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLGetData(st, 1, SQL_C_CHAR, v, sizeof v, &ind));
        if (n && strcmp(prev, v) >= 0)
            breaks++;           /* only where the second branch starts */
        snprintf(prev, sizeof prev, "%s", v);
        n++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(n, 21 + 21);
    ck_assert_int_eq(breaks, 1);
}
END_TEST

/* A correlated subquery over a saved join view: the view's rows are
 * hashed once by the correlated key (EXPLAIN says so), and the rows are
 * those of the per-row form (the key written as two inequalities, which
 * hash nothing). */
START_TEST(correlated_view_hashed_once)
{
    static const char q[] =
        "SELECT o.OrderID FROM Orders o WHERE o.Freight > (SELECT "
        "AVG(q.Freight) FROM [Orders Qry] q WHERE q.CustomerID = "
        "o.CustomerID) ORDER BY o.OrderID";
    char plan[4096];
    char sql[512];
    snprintf(sql, sizeof sql, "EXPLAIN %s", q);
    SQLHSTMT st = odbct_exec(dbc, sql);
    odbct_col1(st, plan, sizeof plan);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_msg(strstr(plan, "HASHED SUBQUERY q (q.CustomerID = "
                               "o.CustomerID)"), "plan: %s", plan);
    static char a[16384], b[16384];
    long na = rows_as(q, false, a, sizeof a);
    long nb = rows_as("SELECT o.OrderID FROM Orders o WHERE o.Freight > "
                      "(SELECT AVG(q.Freight) FROM [Orders Qry] q WHERE "
                      "q.CustomerID >= o.CustomerID AND q.CustomerID <= "
                      "o.CustomerID) ORDER BY o.OrderID", false, b, sizeof b);
    ck_assert_int_gt(na, 100);
    ck_assert_int_eq(na, nb);
    ck_assert_str_eq(a, b);
    /* COUNT over no rows is 0 for every outer row, not only the first;
     * a customer without orders has none in the view */
    want_rows("SELECT c.CustomerID, (SELECT COUNT(*) FROM [Orders Qry] q "
              "WHERE q.CustomerID = c.CustomerID) FROM Customers c WHERE "
              "c.CustomerID IN ('ALFKI', 'FISSA', 'PARIS', 'ANATR') "
              "ORDER BY c.CustomerID", "ALFKI|6,ANATR|4,FISSA|0,PARIS|0");
}
END_TEST

/* MAX/MIN of a Decimal(18,6) column keep its precision 18 (SUM may
 * need Decimal's 28) */
START_TEST(max_min_of_decimal_keep_precision)
{
    SQLHENV env2;
    SQLHDBC dbc2;
    odbct_connect_path(&env2, &dbc2,
                       odbct_fixture("jackcess/V2010/calcFieldTestV2010.accdb"));
    SQLHSTMT st = odbct_exec(dbc2, "SELECT MAX(Popularity), "
                             "MIN(Popularity), SUM(Popularity) FROM Table1");
    static const SQLULEN want[] = { 18, 18, 28 };
    for (SQLUSMALLINT c = 1; c <= 3; c++) {
        SQLSMALLINT type = 0, digits = 0;
        SQLULEN size = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, c, NULL, 0, NULL,
                                                     &type, &size, &digits,
                                                     NULL));
        ck_assert_int_eq(type, SQL_NUMERIC);
        ck_assert_uint_eq(size, want[c - 1]);
        ck_assert_int_eq(digits, 6);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env2, dbc2);
}
END_TEST

/* Yes/No compared with text parameters as PHP binds booleans: false as
 * "" and true as "1" (SQL_BIT from SQLDescribeParam) */
START_TEST(php_false_for_yes_no)
{
    static const struct {
        const char *text;
        long rows;
    } cases[] = { { "", 69 }, { "1", 8 }, { "0", 69 }, { "False", 69 } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                 "SELECT COUNT(*) FROM Products WHERE Discontinued = ?",
                 SQL_NTS));
        SQLSMALLINT type = 0, digits = 0, nullable = 0;
        SQLULEN size = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeParam(st, 1, &type, &size,
                                                       &digits, &nullable));
        ck_assert_int_eq(type, SQL_BIT);
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, type,
                                  size, digits, (SQLPOINTER)cases[i].text, 0,
                                  &ind));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
        char got[32];
        odbct_col1(st, got, sizeof got);
        ck_assert_int_eq(atol(got), cases[i].rows);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* Copy file from to to; asserts. */
static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

/* Bytes of file path as an FNV-1a hash (the file unchanged). */
static unsigned long long file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned long long h = 1469598103934665603ULL;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned)c) * 1099511628211ULL;
    fclose(f);
    return h;
}

/* Access's external databases: FROM t IN 'path', [;DATABASE=path].t,
 * [MS Access;PWD=...;DATABASE=...].t, opened read-only; the other
 * file's errors name it */
START_TEST(external_databases_in_from)
{
    char sql[2048];
    const char *v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN '%s'", v2010);
    want_rows(sql, "2");
    v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM [;DATABASE=%s].Table1",
             v2010);
    want_rows(sql, "2");
    v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN \"%s\"",
             v2010);
    want_rows(sql, "2");
    /* a copy of nwind: joined with the open file's Customers, seeking
     * the other file's index; never written */
    char copy[1024];
    snprintf(copy, sizeof copy, "%s/other.mdb", odbct_tmpdir());
    copy_file(odbct_fixture("mdbtestdata/nwind.mdb"), copy);
    unsigned long long before = file_hash(copy);
    snprintf(sql, sizeof sql, "SELECT c.CompanyName, o.OrderID FROM "
             "Customers c INNER JOIN [;DATABASE=%s].Orders o ON "
             "o.CustomerID = c.CustomerID WHERE o.OrderID = 10248", copy);
    want_rows(sql, "Vins et alcools Chevalier|10248");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Orders IN '%s' AS o "
             "WHERE o.CustomerID = 'VINET'", copy);
    want_rows(sql, "5");
    ck_assert(file_hash(copy) == before);
    /* the password form (an ACE file encrypted with Test123) */
    const char *enc = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM [MS Access;PWD=Test123;"
             "DATABASE=%s].Table1", enc);
    want_rows(sql, "1");
    enc = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN '' "
             "[MS Access;PWD=Test123;DATABASE=%s]", enc);
    want_rows(sql, "1");
    /* errors of the other file, as such: no password, a wrong one, no
     * such table, no such file */
    static const struct {
        const char *pre, *post;
        const char *state;
        const char *says;
    } bad[] = {
        { "SELECT * FROM Table1 IN '", "'", "28000", "external database" },
        { "SELECT * FROM [MS Access;PWD=nope;DATABASE=", "].Table1", "28000",
          "wrong database password" },
        { "SELECT * FROM NoSuchTable IN '", "'", "42S02",
          "in the external database" },
        { "SELECT * FROM Table1 IN '", ".missing'", "42S02",
          "Could not find file" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *path = odbct_fixture(i < 2 ? "jackcessencrypt/"
                                         "db2007-enc.accdb"
                                         : "jackcess/V2010/testV2010.accdb");
        snprintf(sql, sizeof sql, "%s%s%s", bad[i].pre, path, bad[i].post);
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), bad[i].state);
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st),
                             bad[i].says), "%s: %s", sql,
                      odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* an ad-hoc TRANSFORM ... PIVOT runs as a saved crosstab: one column
 * per pivot value (found, or the IN list), parameters with an IN list */
START_TEST(adhoc_transform_pivot)
{
    want_rows("TRANSFORM Count(*) AS n SELECT ShipCountry FROM Orders "
              "WHERE ShipCountry < 'B' GROUP BY ShipCountry PIVOT ShipVia",
              "Argentina|5|7|4,Austria|12|15|13");
    SQLHSTMT st = odbct_exec(dbc, "TRANSFORM Sum(Quantity) SELECT ProductID "
                             "FROM [Order Details] WHERE OrderID < 10250 "
                             "GROUP BY ProductID PIVOT OrderID");
    SQLSMALLINT n = 0;
    SQLCHAR name[32];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 3);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 3, name, sizeof name,
                                                 NULL, NULL, NULL, NULL,
                                                 NULL));
    ck_assert_str_eq((char *)name, "10249");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    want_rows("TRANSFORM Count(*) SELECT ShipCountry FROM Orders WHERE "
              "ShipCountry < 'B' GROUP BY ShipCountry PIVOT Year(OrderDate) "
              "IN (1994, 1995, 2000)", "Argentina|0|5|0,Austria|5|19|0");
    /* parameters, ? and declared, with the IN list */
    static const char *const with_params[] = {
        "TRANSFORM Count(*) SELECT ShipCountry FROM Orders WHERE "
        "ShipCountry < ? GROUP BY ShipCountry PIVOT ShipVia IN (1, 2, 3)",
        "PARAMETERS [c] Text; TRANSFORM Count(*) SELECT ShipCountry FROM "
        "Orders WHERE ShipCountry < [c] GROUP BY ShipCountry PIVOT ShipVia "
        "IN (1, 2, 3)",
    };
    for (size_t i = 0; i < 2; i++) {
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                                                 with_params[i], SQL_NTS));
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                                  SQL_VARCHAR, 15, 0, (SQLPOINTER)"B", 0,
                                  &ind));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
        char got[256];
        ck_assert_int_eq(odbct_col1(st, got, sizeof got), 2);
        ck_assert_str_eq(got, "Argentina,Austria");
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

static Suite *accesssql_suite(void)
{
    Suite *s = suite_create("odbc_accesssql");
    TCase *tc = tcase_create("accesssql");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, double_quotes_are_text);
    tcase_add_test(tc, alias_reused_in_later_fields);
    tcase_add_test(tc, union_all_grouped_branches_sorted);
    tcase_add_test(tc, correlated_view_hashed_once);
    tcase_add_test(tc, max_min_of_decimal_keep_precision);
    tcase_add_test(tc, php_false_for_yes_no);
    tcase_add_test(tc, external_databases_in_from);
    tcase_add_test(tc, adhoc_transform_pivot);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(accesssql_suite)
