/*
 * test_sql_access.c - Access SQL spellings and semantics of the query
 * engine over nwind (../shared/fixtures/public/mdbtestdata/nwind.mdb):
 *
 *  - long IN lists (hashed at prepare) give the rows of the same list
 *    written as ORs, over text (case, trailing spaces, NULL items),
 *    Currency, integers, doubles and dates, and IN / NOT IN with NULLs;
 *  - a Single's value as text shows 7 significant digits, as Access does;
 *  - Orders!OrderID, [SELECT ...]. AS x, (SELECT ...) UNION (SELECT ...)
 *    and PARAMETERS p Long, q Text(255); SELECT ... .
 *
 * Expected rows are either the standard spelling's rows (IN vs OR, bang
 * vs dot, bracketed vs parenthesised subquery) or written out by hand
 * from nwind's independent dump (../shared/fixtures/expected/mdbtestdata/
 * nwind.mdb.json, read with Python): never this engine's own output of
 * the statement under test. Skipped (77) without ../shared.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/engine.h"
#include "sqltest.h"
#include "unit.h"

#define NWIND "public/mdbtestdata/nwind.mdb"

/* ---------------------------------------------------------- helpers */

static void putf(sqlt_buf *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void putf(sqlt_buf *o, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sqlt_puts(o, buf);
}

static jet_db *db;

static void setup(void)
{
    db = sqlt_open_fixture(NWIND);
}

static void teardown(void)
{
    jet_db_close(db);
    db = NULL;
}

/* A text parameter (UTF-16LE of ASCII s into buf). */
static jet_value text_param(const char *s, uint8_t *buf)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    size_t k = 0;
    for (; *s; s++) {
        buf[k++] = (uint8_t)*s;
        buf[k++] = 0;
    }
    v.type = JET_T_TEXT;
    v.enc = JET_ENC_UCS2;
    v.data = buf;
    v.len = k;
    return v;
}

static jet_value long_param(int64_t i)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_LONG;
    v.u.i = i;
    return v;
}

/* The rows of sql (params: sql_stmt_nparams of them), rendered one per
 * line ('|' between values) in result order; *nrows their number. */
static char *rows_p(const char *sql, const jet_value *params, long *nrows)
{
    sql_stmt *st = NULL;
    sql_error err;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) ==
                  0, "prepare '%.200s': %s %s (at %zu)", sql, err.sqlstate,
                  err.msg, err.position);
    sql_cursor *c = NULL;
    ck_assert_msg(sql_cursor_open(&c, st, params, NULL, &err) == 0,
                  "open '%.200s': %s %s", sql, err.sqlstate, err.msg);
    sqlt_buf o = {0};
    long n = 0;
    size_t ncols = sql_stmt_ncols(st);
    sqlt_puts(&o, "");
    for (;;) {
        int rc = sql_cursor_next(c);
        if (rc == JET_DONE)
            break;
        ck_assert_msg(rc == JET_OK, "next '%.200s': %s %s", sql,
                      sql_cursor_error(c)->sqlstate,
                      sql_cursor_error(c)->msg);
        sqlt_render_row(&o, db, c, ncols);
        sqlt_puts(&o, "\n");
        n++;
    }
    sql_cursor_close(c);
    sql_stmt_free(st);
    if (nrows)
        *nrows = n;
    return o.p;
}

static char *rows(const char *sql, long *nrows)
{
    return rows_p(sql, NULL, nrows);
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of s sorted (a multiset as one string); frees s. */
static char *sorted(char *s)
{
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (char *p = s; *p;) {
        char *e = strchr(p, '\n');
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            ck_assert_ptr_nonnull(v);
        }
        v[n++] = p;
        if (!e)
            break;
        *e = '\0';
        p = e + 1;
    }
    qsort(v, n, sizeof *v, line_cmp);
    sqlt_buf o = {0};
    sqlt_puts(&o, "");
    for (size_t i = 0; i < n; i++) {
        sqlt_puts(&o, v[i]);
        sqlt_puts(&o, "\n");
    }
    free(v);
    free(s);
    return o.p;
}

/* The error of preparing sql (which must fail). */
static sql_error prepare_error(const char *sql)
{
    sql_stmt *st = NULL;
    sql_error err;
    memset(&err, 0, sizeof err);
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) !=
                  0, "'%s' prepared", sql);
    ck_assert_ptr_null(st);
    return err;
}

/* Both statements give the same rows (as multisets); returns the count. */
static long same_rows(const char *a, const char *b)
{
    long na = 0, nb = 0;
    char *ra = sorted(rows(a, &na));
    char *rb = sorted(rows(b, &nb));
    ck_assert_msg(na == nb && !strcmp(ra, rb), "%ld rows of '%.120s...' "
                  "vs %ld of '%.120s...'", na, a, nb, b);
    free(ra);
    free(rb);
    return na;
}

/* --------------------------------------------------------- IN lists */

/* "SELECT <cols> FROM <from> WHERE [NOT] <col> IN (items)" and its OR
 * form, items[0..n) SQL literals. */
static void in_vs_or(const char *cols, const char *from, const char *col,
                     char **items, size_t n, bool negated, long expect)
{
    sqlt_buf in = {0}, orf = {0};
    putf(&in, "SELECT %s FROM %s WHERE %s %sIN (", cols, from, col,
         negated ? "NOT " : "");
    putf(&orf, "SELECT %s FROM %s WHERE %s(", cols, from,
         negated ? "NOT " : "");
    for (size_t i = 0; i < n; i++) {
        sqlt_puts(&in, i ? ", " : "");
        sqlt_puts(&in, items[i]);
        sqlt_puts(&orf, i ? " OR " : "");
        putf(&orf, "%s = ", col);
        sqlt_puts(&orf, items[i]);
    }
    sqlt_puts(&in, ")");
    sqlt_puts(&orf, ")");
    long got = same_rows(in.p, orf.p);
    if (expect >= 0)
        ck_assert_msg(got == expect, "%s IN (%zu items): %ld rows, "
                      "expected %ld", col, n, got, expect);
    free(in.p);
    free(orf.p);
}

/* s as a quoted SQL string ('' doubled), with a trailing space when
 * space; malloc'd. */
static char *quoted(const char *s, bool space)
{
    size_t n = strlen(s) * 2 + 5, k = 0;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    p[k++] = '\'';
    for (; *s; s++) {
        if (*s == '\'')
            p[k++] = '\'';
        p[k++] = *s;
    }
    if (space)
        p[k++] = ' ';
    p[k++] = '\'';
    p[k] = '\0';
    return p;
}

static void free_items(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

START_TEST(in_list_of_texts_matches_its_or_form)
{
    /* every other customer name, some upper-cased (text compares
     * ignoring case), some with a trailing space (ignored, as by =),
     * NULL items and 3,000 names of no customer */
    long ncust = 0;
    char *names = rows("SELECT CompanyName FROM Customers", &ncust);
    ck_assert_int_eq(ncust, 91);
    size_t cap = 4000, n = 0;
    char **items = calloc(cap, sizeof *items);
    ck_assert_ptr_nonnull(items);
    long want = 0, k = 0;
    for (char *p = names; *p; k++) {
        char *e = strchr(p, '\n');
        *e = '\0';
        if (k % 2 == 0) {
            char up[512];
            snprintf(up, sizeof up, "%s", p);
            if (k % 4 == 0)
                for (char *u = up; *u; u++)
                    if (*u >= 'a' && *u <= 'z')
                        *u = (char)(*u - 32);
            items[n++] = quoted(up, k % 10 == 6);
            want++;
        }
        p = e + 1;
    }
    free(names);
    for (int i = 0; i < 3000; i++) {
        char w[32];
        snprintf(w, sizeof w, "C%d", i);
        items[n++] = quoted(w, false);
    }
    items[n++] = strdup("NULL");
    /* 46 names taken, 9 of them (k = 6, 16, .., 86) with a trailing
     * space, which no name of the dump has: they match all the same */
    in_vs_or("CustomerID", "Customers", "CompanyName", items, n, false,
             want);
    ck_assert_int_eq(want, 46);
    /* NOT IN with a NULL item: never true (NULL or false) */
    in_vs_or("CustomerID", "Customers", "CompanyName", items, n, true, 0);
    /* without the NULL: the others */
    in_vs_or("CustomerID", "Customers", "CompanyName", items, n - 1, true,
             91 - want);
    /* ShipName of Orders: duplicates among the rows, a NULL-free column */
    in_vs_or("OrderID", "Orders", "ShipName", items, n, false, -1);
    /* City: 'Frankfurt a.M. ' is stored with its trailing space */
    char *cities[10];
    const char *cv[] = { "'Frankfurt a.M.'", "'FRANKFURT A.M. '", "'Berlin'",
                         "'berlin '", "'Köln'", "'KÖLN'", "'Aachen'",
                         "'Mannheim'", "NULL", "'London'" };
    for (size_t i = 0; i < 10; i++)
        cities[i] = strdup(cv[i]);
    /* by hand: Frankfurt a.M. (1 customer), Berlin (1), Köln (1), Aachen
     * (1), Mannheim (1), London (6) */
    in_vs_or("CustomerID", "Customers", "City", cities, 10, false, 11);
    for (size_t i = 0; i < 10; i++)
        free(cities[i]);
    free_items(items, n);
}
END_TEST

START_TEST(in_list_of_numbers_and_dates_matches_its_or_form)
{
    size_t cap = 1200, n = 0;
    char **items = calloc(cap, sizeof *items);
    ck_assert_ptr_nonnull(items);
    char w[64];
    /* Currency: integers, decimals exact in 1/10000 and doubles */
    for (int i = 0; i < 1000; i++) {
        snprintf(w, sizeof w, "%d.%02d", i / 4, (i % 4) * 25);
        items[n++] = strdup(w);
    }
    items[n++] = strdup("NULL");
    in_vs_or("OrderID", "Orders", "Freight", items, n, false, -1);
    in_vs_or("OrderID", "Orders", "Freight", items, n - 1, true, -1);
    /* integers against doubles and Currency: EmployeeID IN (1, 2.0, ..) */
    free_items(items, n);
    n = 0;
    items = calloc(cap, sizeof *items);
    const char *ev[] = { "1", "2.0", "3.5", "4", "1e0", "CCur(5)", "-1",
                         "100", "9.99999999999999999", "NULL" };
    for (size_t i = 0; i < 10; i++)
        items[n++] = strdup(ev[i]);
    in_vs_or("OrderID", "Orders", "EmployeeID", items, n, false, -1);
    in_vs_or("OrderID", "Orders", "EmployeeID", items, n - 1, false, -1);
    /* Discount is a Single: 0.25 is exact, 0.1 is not (no row equals
     * the Double 0.1: Jet compares the Single's value) */
    free_items(items, n);
    n = 0;
    items = calloc(cap, sizeof *items);
    const char *dv[] = { "0.25", "0.1", "0", "0.5", "0.75", "1", "2", "3",
                         "CSng(0.05)" };
    for (size_t i = 0; i < 9; i++)
        items[n++] = strdup(dv[i]);
    in_vs_or("OrderID, ProductID", "[Order Details]", "Discount", items, n,
             false, -1);
    /* dates: every day of 1995 (dates compare to the millisecond) */
    free_items(items, n);
    n = 0;
    items = calloc(cap, sizeof *items);
    for (int d = 0; d < 365; d++) {
        int m = 1, day = d + 1;
        static const int ml[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
                                  30, 31 };
        while (day > ml[m - 1]) {
            day -= ml[m - 1];
            m++;
        }
        snprintf(w, sizeof w, "#1995-%02d-%02d#", m, day);
        items[n++] = strdup(w);
    }
    in_vs_or("OrderID", "Orders", "OrderDate", items, n, false, -1);
    /* and the OrderID primary key (an index seek over the list) */
    free_items(items, n);
    n = 0;
    items = calloc(cap, sizeof *items);
    for (int i = 0; i < 1000; i += 3) {
        snprintf(w, sizeof w, "%d", 10000 + i);
        items[n++] = strdup(w);
    }
    /* OrderIDs 10248..11077: the multiples of 3 past 10000 among them */
    long want = 0;
    for (int i = 0; i < 1000; i += 3)
        want += 10000 + i >= 10248 && 10000 + i <= 11077;
    in_vs_or("OrderID", "Orders", "OrderID", items, n, false, want);
    free_items(items, n);
}
END_TEST

/* ---------------------------------------------------- Single as text */

START_TEST(single_as_text_shows_seven_digits)
{
    /* Discount is a Single: 0.15 is stored as 0.1500000059604645 */
    char *r = rows("SELECT CStr(Discount), Discount & '', "
                   "Format(Discount, 'General Number'), "
                   "Format(Discount, '0.000000000') FROM [Order Details] "
                   "WHERE OrderID = 10250 AND ProductID = 51", NULL);
    ck_assert_str_eq(r, "0.15|0.15|0.15|0.150000000\n");
    free(r);
    /* CSng: a Single too (VBA: CStr(CSng(1/3)) is 0.3333333; 1E+07 up
     * and below 1E-05 in scientific form, 7 digits); a Double keeps 15 */
    r = rows("SELECT CStr(CSng(1/3)), CStr(CSng(12345678)), "
             "CStr(CSng(1234567)), CStr(CSng(0.1)), CStr(CSng(-2.5E-7)), "
             "CStr(1/3), CStr(CDbl(CSng(0.1)) * 1)", NULL);
    ck_assert_str_eq(r, "0.3333333|1.234568E+07|1234567|0.1|-2.5E-07|"
                        "0.333333333333333|0.100000001490116\n");
    free(r);
    /* through GROUP BY keys and MIN/MAX, every Discount of nwind (the
     * dump's values: 0, 0.01 .. 0.06, 0.1, 0.15, 0.2, 0.25) */
    r = rows("SELECT Discount & '' FROM [Order Details] GROUP BY Discount "
             "ORDER BY Discount", NULL);
    ck_assert_str_eq(r, "0\n0.01\n0.02\n0.03\n0.04\n0.05\n0.06\n0.1\n0.15\n"
                        "0.2\n0.25\n");
    free(r);
    r = rows("SELECT MAX(Discount) & '', MIN(Discount) & '' FROM "
             "[Order Details] WHERE Discount > 0 AND Discount < 0.2", NULL);
    ck_assert_str_eq(r, "0.15|0.01\n");
    free(r);
    /* the value itself is unchanged: a Single column fetches as a Single
     * (0.15f, shown to 17 digits) */
    r = rows("SELECT Discount FROM [Order Details] WHERE OrderID = 10250 "
             "AND ProductID = 51", NULL);
    ck_assert_str_eq(r, "0.15000000596046448\n");
    free(r);
}
END_TEST

/* ------------------------------------------------- Access spellings */

START_TEST(bang_separates_table_and_column)
{
    /* OrderIDs run 10248..11077 without gaps (dump): 12 below 10260 */
    ck_assert_int_eq(
        same_rows("SELECT Orders!OrderID, c!CompanyName FROM Orders, "
                  "Customers AS c WHERE Orders![OrderID] < 10260 AND "
                  "c!CustomerID = Orders!CustomerID",
                  "SELECT Orders.OrderID, c.CompanyName FROM Orders, "
                  "Customers AS c WHERE Orders.[OrderID] < 10260 AND "
                  "c.CustomerID = Orders.CustomerID"), 12);
    ck_assert_int_eq(same_rows("SELECT Orders!* FROM Orders WHERE "
                               "OrderID = 10248",
                               "SELECT Orders.* FROM Orders WHERE "
                               "OrderID = 10248"), 1);
    char *r = rows("SELECT [Order Details]!Quantity FROM [Order Details] "
                   "WHERE [Order Details]!OrderID = 10248 ORDER BY "
                   "[Order Details]!ProductID", NULL);
    ck_assert_str_eq(r, "12\n10\n5\n");     /* dump: products 11, 42, 72 */
    free(r);
    /* != stays an operator */
    r = rows("SELECT COUNT(*) FROM Orders WHERE Orders!EmployeeID!=5", NULL);
    ck_assert_str_eq(r, "788\n");   /* 830 orders, 42 of employee 5 */
    free(r);
}
END_TEST

START_TEST(bracketed_subquery_with_a_dot_is_a_derived_table)
{
    /* customers with more than 20 orders (dump: ERNSH 30, QUICK 28,
     * SAVEA 31) */
    char *r = rows("SELECT x.CustomerID, x.n FROM [SELECT CustomerID, "
                   "COUNT(*) AS n FROM Orders GROUP BY CustomerID]. AS x "
                   "WHERE x.n > 20 ORDER BY x.CustomerID", NULL);
    ck_assert_str_eq(r, "ERNSH|30\nQUICK|28\nSAVEA|31\n");
    free(r);
    ck_assert_int_eq(
        same_rows("SELECT c.CompanyName, x.n FROM Customers AS c INNER "
                  "JOIN [SELECT CustomerID, COUNT(*) AS n FROM Orders "
                  "WHERE EmployeeID = 5 GROUP BY CustomerID]. x ON "
                  "c.CustomerID = x.CustomerID",
                  "SELECT c.CompanyName, x.n FROM Customers AS c INNER "
                  "JOIN (SELECT CustomerID, COUNT(*) AS n FROM Orders "
                  "WHERE EmployeeID = 5 GROUP BY CustomerID) x ON "
                  "c.CustomerID = x.CustomerID"), 29);
    /* ? markers inside count in text order */
    jet_value pv[2] = { long_param(10249), long_param(10248) };
    r = rows_p("SELECT x.OrderID FROM [SELECT OrderID FROM Orders WHERE "
               "OrderID <= ?]. AS x WHERE x.OrderID >= ?", pv, NULL);
    ck_assert_str_eq(r, "10248\n10249\n");
    free(r);
    /* without the dot the bracket names a table (none here) */
    sql_error e = prepare_error("SELECT * FROM [SELECT * FROM Orders] AS x");
    ck_assert_str_eq(e.sqlstate, "42S02");
    e = prepare_error("SELECT * FROM [SELECT * FROM Nowhere]. AS x");
    ck_assert_str_eq(e.sqlstate, "42S02");
}
END_TEST

START_TEST(parenthesised_union_members)
{
    /* German cities of customers (11, one 'Frankfurt a.M. ' with its
     * trailing space) and suppliers (3), by hand from the dump: 13
     * distinct, in General order */
    const char *want = "Aachen\nBerlin\nBrandenburg\nCunewalde\nCuxhaven\n"
                       "Frankfurt\nFrankfurt a.M. \nKöln\nLeipzig\n"
                       "Mannheim\nMünchen\nMünster\nStuttgart\n";
    char *r = rows("(SELECT City FROM Customers WHERE Country = 'Germany') "
                   "UNION (SELECT City FROM Suppliers WHERE Country = "
                   "'Germany') ORDER BY City", NULL);
    ck_assert_str_eq(r, want);
    free(r);
    r = rows("SELECT City FROM Customers WHERE Country = 'Germany' UNION "
             "((SELECT City FROM Suppliers WHERE Country = 'Germany')) "
             "ORDER BY 1", NULL);
    ck_assert_str_eq(r, want);
    free(r);
    ck_assert_int_eq(same_rows("(SELECT City FROM Customers) UNION ALL "
                               "(SELECT City FROM Suppliers)",
                               "SELECT City FROM Customers UNION ALL "
                               "SELECT City FROM Suppliers"), 91 + 29);
    /* the same inside a derived table, IN and a scalar subquery: rows
     * as the unparenthesised form gives them */
    ck_assert_int_eq(same_rows("SELECT x.City FROM ((SELECT City FROM "
                               "Customers) UNION (SELECT City FROM "
                               "Suppliers)) AS x",
                               "SELECT x.City FROM (SELECT City FROM "
                               "Customers UNION SELECT City FROM "
                               "Suppliers) AS x"), 93);
    ck_assert_int_eq(same_rows("SELECT * FROM (((SELECT City FROM "
                               "Customers)) UNION ALL (SELECT City FROM "
                               "Suppliers) ORDER BY 1) x",
                               "SELECT * FROM (SELECT City FROM Customers "
                               "UNION ALL SELECT City FROM Suppliers ORDER "
                               "BY 1) x"), 91 + 29);
    ck_assert_int_eq(same_rows("SELECT CompanyName FROM Customers WHERE "
                               "City IN ((SELECT City FROM Suppliers WHERE "
                               "Country = 'Germany') UNION (SELECT City "
                               "FROM Employees))",
                               "SELECT CompanyName FROM Customers WHERE "
                               "City IN (SELECT City FROM Suppliers WHERE "
                               "Country = 'Germany' UNION SELECT City "
                               "FROM Employees)"), 9);    /* London 6,
                                Berlin, Seattle, Kirkland */
    r = rows("SELECT ((SELECT COUNT(*) FROM Shippers) UNION (SELECT "
             "COUNT(*) FROM Shippers)) FROM Shippers", NULL);
    ck_assert_str_eq(r, "3\n3\n3\n");
    free(r);
    /* a parenthesised join opened by a derived table stays a join, a
     * parenthesised scalar subquery a value */
    ck_assert_int_eq(same_rows("SELECT * FROM ((SELECT ShipperID FROM "
                               "Shippers) AS a INNER JOIN Shippers b ON "
                               "a.ShipperID = b.ShipperID)",
                               "SELECT a.ShipperID, b.* FROM Shippers a "
                               "INNER JOIN Shippers b ON a.ShipperID = "
                               "b.ShipperID"), 3);
    r = rows("SELECT ((SELECT MAX(ShipperID) FROM Shippers)) + 1 FROM "
             "Shippers WHERE ShipperID = 1", NULL);
    ck_assert_str_eq(r, "4\n");
    free(r);
    sql_error e = prepare_error("(SELECT City FROM Customers");
    ck_assert_str_eq(e.sqlstate, "42000");
    e = prepare_error("SELECT * FROM ((SELECT City FROM Customers) UNION "
                      "(SELECT City FROM Suppliers) x");
    ck_assert_str_eq(e.sqlstate, "42000");
}
END_TEST

START_TEST(parameters_clause_binds_declared_names_in_order)
{
    sql_stmt *st = NULL;
    sql_error err;
    const char *q = "PARAMETERS p Long, [q q] Text(255); SELECT OrderID "
                    "FROM Orders WHERE EmployeeID = p AND CustomerID = "
                    "[q q] OR OrderID = P + 100000";
    ck_assert_int_eq(sql_stmt_prepare(&st, db, q, strlen(q), NULL, &err), 0);
    ck_assert_uint_eq(sql_stmt_nparams(st), 2);
    ck_assert_int_eq(sql_stmt_param(st, 0)->type, JET_T_LONG);
    ck_assert_int_eq(sql_stmt_param(st, 1)->type, JET_T_TEXT);
    sql_stmt_free(st);
    uint8_t b1[64], b2[64];
    /* dump: employee 5's only order of VINET is 10248 */
    jet_value pv[2] = { long_param(5), text_param("VINET", b1) };
    char *r = rows_p(q, pv, NULL);
    ck_assert_str_eq(r, "10248\n");
    free(r);
    /* text given for the Long converts, as Access converts it */
    pv[0] = text_param("5", b2);
    r = rows_p(q, pv, NULL);
    ck_assert_str_eq(r, "10248\n");
    free(r);
    /* a parameter used twice reads one value; ? markers come after the
     * declared ones (dump: orders 10248..10250) */
    jet_value pv2[2] = { long_param(10248), long_param(10251) };
    r = rows_p("PARAMETERS lo Long; SELECT OrderID FROM Orders WHERE "
               "OrderID >= lo AND OrderID < lo + 3 AND OrderID < ? "
               "ORDER BY OrderID", pv2, NULL);
    ck_assert_str_eq(r, "10248\n10249\n10250\n");
    free(r);
    /* employee 5's orders shipped by shipper 2 (dump: 15) */
    jet_value pv3[2] = { long_param(2), long_param(5) };
    long n = 0;
    free(rows_p("PARAMETERS [Ship] Short, Emp Long; SELECT OrderID FROM "
                "Orders WHERE ShipVia = Ship AND EmployeeID = [Emp]", pv3,
                &n));
    ck_assert_int_eq(n, 15);
    /* a declared name wins over a column of that name */
    jet_value pv4[1] = { long_param(10249) };
    r = rows_p("PARAMETERS OrderID Long; SELECT o.OrderID FROM Orders AS o "
               "WHERE o.OrderID = OrderID", pv4, NULL);
    ck_assert_str_eq(r, "10249\n");
    free(r);
    /* a value that does not convert to the declared type: 22018 */
    pv[0] = text_param("five", b2);
    ck_assert_int_eq(sql_stmt_prepare(&st, db, q, strlen(q), NULL, &err), 0);
    sql_cursor *c = NULL;
    ck_assert_int_ne(sql_cursor_open(&c, st, pv, NULL, &err), 0);
    ck_assert_str_eq(err.sqlstate, "22018");
    sql_stmt_free(st);
    sql_error e = prepare_error("PARAMETERS p Long p; SELECT 1");
    ck_assert_str_eq(e.sqlstate, "42000");
    e = prepare_error("PARAMETERS p Gadget; SELECT p");
    ck_assert_str_eq(e.sqlstate, "42000");
    e = prepare_error("PARAMETERS p Long, p Text; SELECT p");
    ck_assert_str_eq(e.sqlstate, "42000");
    e = prepare_error("PARAMETERS p Long SELECT p");
    ck_assert_str_eq(e.sqlstate, "42000");
}
END_TEST

static Suite *sql_access_suite(void)
{
    Suite *s = suite_create("sql_access");
    TCase *tc = tcase_create("nwind");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, in_list_of_texts_matches_its_or_form);
    tcase_add_test(tc, in_list_of_numbers_and_dates_matches_its_or_form);
    tcase_add_test(tc, single_as_text_shows_seven_digits);
    tcase_add_test(tc, bang_separates_table_and_column);
    tcase_add_test(tc, bracketed_subquery_with_a_dot_is_a_derived_table);
    tcase_add_test(tc, parenthesised_union_members);
    tcase_add_test(tc, parameters_clause_binds_declared_names_in_order);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    static const char *const needs[] = { NWIND, NULL };
    return sqlt_run(sql_access_suite, needs);
}
