/*
 * test_sql_topn.c - TOP n ... ORDER BY through the top-N sort (exec.c:
 * only the best n records plus ties are kept) answers exactly what the
 * full sort of the same query answers, truncated as Access truncates
 * TOP n: the first n rows, then every further row whose ORDER BY values
 * equal the n-th's (ties), in the full sort's order (ties in reading
 * order).
 *
 * The expected rows never come from the engine's TOP path: each case
 * runs once without TOP (a plain sort: its plan must not say TOP-N) and
 * the test truncates that itself. The first nkeys output columns of each
 * case are its ORDER BY values, which the test compares for ties: equal
 * values as sqlt_render writes them (doubles as %.17g, so equal exactly
 * when the values are; dates to the millisecond, exact for these keys:
 * nwind's dates are whole days), text case-insensitively without
 * trailing spaces (as Access compares; the fixtures' keys are ASCII).
 * Every case runs for many n (1 .. past the row count, around the prune
 * points 64 and 2n), with the default budget and a 1 MiB one (many ties
 * then spill). Also: the
 * plan says TOP-N SORT (n), a big n or PERCENT sorts every row, and a
 * cancelled top-N sort stops with HY008. Skipped (77) without ../shared.
 */
#include "config.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqltest.h"

#define NWIND "public/mdbtestdata/nwind.mdb"
#define BULK "bulk/bulk.accdb"

/* ------------------------------------------------------------ rows */

typedef struct rowset {
    char **row;             /* fields joined by '\x1f' */
    size_t n, cap;
} rowset;

static void rows_free(rowset *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->row[i]);
    free(r->row);
    memset(r, 0, sizeof *r);
}

/* Run sql (budget mib MiB, 0: default) into *out; its plan into plan. */
static void run(jet_db *db, const char *sql, size_t mib, rowset *out,
                char *plan, size_t plan_len)
{
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    sql_cursor_opts o = { .max_memory = mib << 20 };
    memset(out, 0, sizeof *out);
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err)
                  == 0, "%s: %s", sql, err.msg);
    snprintf(plan, plan_len, "%s", sql_stmt_plan_text(st));
    ck_assert_msg(sql_cursor_open(&c, st, NULL, &o, &err) == 0, "%s: %s %s",
                  sql, err.sqlstate, err.msg);
    size_t ncols = sql_stmt_ncols(st);
    sqlt_buf line = { 0 };
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK) {
        line.len = 0;
        sqlt_puts(&line, "");
        for (size_t i = 0; i < ncols; i++) {
            jet_value v;
            ck_assert_int_eq(sql_cursor_value(c, i, &v), 0);
            if (i)
                sqlt_put(&line, "\x1f", 1);
            sqlt_render(&line, db, &v);
        }
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 64;
            out->row = realloc(out->row, out->cap * sizeof *out->row);
            ck_assert_ptr_nonnull(out->row);
        }
        out->row[out->n] = strdup(line.p);
        ck_assert_ptr_nonnull(out->row[out->n]);
        out->n++;
    }
    free(line.p);
    ck_assert_msg(rc == JET_DONE, "%s: %s %s", sql,
                  sql_cursor_error(c)->sqlstate, sql_cursor_error(c)->msg);
    sql_cursor_close(c);
    sql_stmt_free(st);
}

/* Field k of row s: its start, *len its bytes. */
static const char *field(const char *s, size_t k, size_t *len)
{
    for (; k; k--) {
        s = strchr(s, '\x1f');
        ck_assert_ptr_nonnull(s);
        s++;
    }
    const char *e = strchr(s, '\x1f');
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

/* Whether rows a and b have equal ORDER BY values (their first nkeys
 * fields): text case-insensitively, trailing spaces ignored. */
static bool keys_equal(const char *a, const char *b, size_t nkeys)
{
    for (size_t k = 0; k < nkeys; k++) {
        size_t la, lb;
        const char *fa = field(a, k, &la), *fb = field(b, k, &lb);
        while (la && fa[la - 1] == ' ')
            la--;
        while (lb && fb[lb - 1] == ' ')
            lb--;
        if (la != lb)
            return false;
        for (size_t i = 0; i < la; i++)
            if (tolower((unsigned char)fa[i]) != tolower((unsigned char)fb[i]))
                return false;
    }
    return true;
}

/* ------------------------------------------------------------ cases */

typedef struct tcase_q {
    const char *cols;       /* the ORDER BY values first */
    size_t nkeys;
    const char *from;       /* FROM ... [WHERE ...] */
    const char *order;
} tcase_q;

static const size_t ns[] = { 1, 2, 3, 4, 5, 7, 10, 16, 31, 32, 33, 63, 64,
                             65, 100, 127, 128, 129, 200, 500, 829, 830,
                             831, 2000, 2489, 2490, 2491, 5000 };

static void check_cases(const char *file, const tcase_q *qs, size_t nq,
                        size_t max_n)
{
    jet_db *db = sqlt_open_fixture(file);
    char sql[1024], plan[1024], want_plan[64];
    for (size_t q = 0; q < nq; q++) {
        rowset full, top;
        snprintf(sql, sizeof sql, "SELECT %s FROM %s ORDER BY %s",
                 qs[q].cols, qs[q].from, qs[q].order);
        run(db, sql, 0, &full, plan, sizeof plan);
        ck_assert_msg(!strstr(plan, "TOP"), "%s: plan %s", sql, plan);
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            size_t n = ns[i];
            if (n > max_n)
                continue;
            size_t end = n < full.n ? n : full.n;
            while (end > 0 && end < full.n &&
                   keys_equal(full.row[end - 1], full.row[end], qs[q].nkeys))
                end++;
            snprintf(sql, sizeof sql, "SELECT TOP %zu %s FROM %s ORDER BY %s",
                     n, qs[q].cols, qs[q].from, qs[q].order);
            snprintf(want_plan, sizeof want_plan, "TOP-N SORT (%zu)", n);
            for (size_t mib = 0; mib <= 1; mib++) {
                run(db, sql, mib, &top, plan, sizeof plan);
                ck_assert_msg(strstr(plan, want_plan), "%s: plan %s", sql,
                              plan);
                ck_assert_msg(top.n == end, "%s (%zu MiB): %zu rows, want "
                              "%zu (full sort %zu rows)", sql, mib, top.n,
                              end, full.n);
                for (size_t r = 0; r < end; r++)
                    ck_assert_msg(!strcmp(top.row[r], full.row[r]),
                                  "%s (%zu MiB): row %zu is\n  %s\nwant\n  "
                                  "%s", sql, mib, r, top.row[r],
                                  full.row[r]);
                rows_free(&top);
            }
        }
        rows_free(&full);
    }
    jet_db_close(db);
}

START_TEST(top_n_equals_the_full_sort_truncated_with_ties)
{
    static const tcase_q qs[] = {
        /* many NULLs and ties, ascending and descending */
        { "ShipRegion, OrderID", 1, "Orders", "ShipRegion" },
        { "ShipRegion, OrderID", 1, "Orders", "ShipRegion DESC" },
        { "EmployeeID, ShippedDate, OrderID", 2, "Orders",
          "EmployeeID, ShippedDate DESC" },
        { "ShipCountry, Freight, OrderID", 2, "Orders",
          "ShipCountry DESC, Freight" },
        { "EmployeeID, OrderID", 1, "Orders", "EmployeeID DESC" },
        { "OrderID Mod 100, OrderID", 1, "Orders", "OrderID Mod 100 DESC" },
        /* text ties that differ in case */
        { "IIf(OrderID Mod 2 = 0, UCase(ShipCountry), LCase(ShipCountry)), "
          "OrderID", 1, "Orders",
          "IIf(OrderID Mod 2 = 0, UCase(ShipCountry), LCase(ShipCountry))" },
        /* computed keys over a join; a text key */
        { "o.EmployeeID * s.ShipperID, s.CompanyName, o.OrderID, "
          "s.ShipperID", 2, "Orders o, Shippers s",
          "o.EmployeeID * s.ShipperID, s.CompanyName DESC" },
        { "o.Freight + s.ShipperID, o.OrderID, s.ShipperID", 1,
          "Orders o, Shippers s WHERE o.ShipVia <> s.ShipperID",
          "o.Freight + s.ShipperID DESC" },
        { "Year(o.OrderDate), o.ShipCity, o.OrderID", 2,
          "Orders o INNER JOIN Customers c ON o.CustomerID = c.CustomerID",
          "Year(o.OrderDate) DESC, o.ShipCity" },
        /* groups */
        { "COUNT(*), ShipCountry", 1, "Orders GROUP BY ShipCountry",
          "COUNT(*) DESC" },
        { "EmployeeID Mod 3, COUNT(*)", 1, "Orders GROUP BY EmployeeID Mod 3",
          "EmployeeID Mod 3" },
    };
    check_cases(NWIND, qs, sizeof qs / sizeof *qs, (size_t)-1);
}
END_TEST

START_TEST(top_n_over_a_join_of_the_bulk_table)
{
    /* the tester's query shape (F3), smaller; many ties in the second */
    static const tcase_q qs[] = {
        { "a.amount + b.amount, a.id, b.id", 3,
          "bulk a, bulk b WHERE a.id <= 2000 AND b.id <= 10",
          "a.amount + b.amount, a.id, b.id" },
        { "Int(a.amount / 100), a.id, b.id", 1,
          "bulk a, bulk b WHERE a.id <= 2000 AND b.id <= 10",
          "Int(a.amount / 100) DESC" },
        { "Left(a.label, 1), a.id", 1, "bulk a WHERE a.id <= 20000",
          "Left(a.label, 1)" },
    };
    check_cases(BULK, qs, sizeof qs / sizeof *qs, 2000);
}
END_TEST

static void plan_has(jet_db *db, const char *sql, const char *want,
                     bool has)
{
    sql_stmt *st;
    sql_error err;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err)
                  == 0, "%s: %s", sql, err.msg);
    ck_assert_msg(!strstr(sql_stmt_plan_text(st), want) == !has,
                  "%s: plan %s", sql, sql_stmt_plan_text(st));
    sql_stmt_free(st);
}

START_TEST(plans_say_when_the_sort_keeps_n)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    plan_has(db, "SELECT TOP 5 OrderID FROM Orders ORDER BY Freight",
             "SCAN Orders | TOP-N SORT (5) 1 KEY | TOP 5 WITH TIES", true);
    /* DISTINCT of plain values is a grouping: its groups, already
     * distinct, go through the top-N sort */
    plan_has(db, "SELECT DISTINCT TOP 5 ShipCountry FROM Orders ORDER BY "
             "ShipCountry", "DISTINCT (HASHED) | TOP-N SORT (5)", true);
    /* not: a big n, PERCENT, index order, UNION */
    plan_has(db, "SELECT TOP 100000 OrderID FROM Orders ORDER BY Freight",
             "TOP-N", false);
    plan_has(db, "SELECT TOP 5 PERCENT OrderID FROM Orders ORDER BY Freight",
             "TOP-N", false);
    plan_has(db, "SELECT TOP 5 OrderID FROM Orders ORDER BY OrderID",
             "TOP-N", false);
    plan_has(db, "SELECT TOP 5 OrderID FROM Orders UNION SELECT OrderID "
             "FROM Orders ORDER BY 1", "TOP-N", false);
    jet_db_close(db);
}
END_TEST

START_TEST(a_cancelled_top_n_sort_stops)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sql = "SELECT TOP 3 o.OrderID FROM Orders o, [Order Details] "
                      "d ORDER BY o.Freight * d.Quantity";
    atomic_int cancel = 1;
    sql_cursor_opts o = { .cancel = &cancel };
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(sql_stmt_plan_text(st), "TOP-N SORT (3)"));
    /* a core code, mapped by the driver (HY008), not by the engine */
    ck_assert_int_eq(sql_cursor_open(&c, st, NULL, &o, &err),
                     JET_EINTERRUPTED);
    ck_assert_int_eq(err.rc, JET_EINTERRUPTED);
    ck_assert_str_eq(err.sqlstate, "");
    sql_stmt_free(st);
    jet_db_close(db);
}
END_TEST

static Suite *topn_suite(void)
{
    Suite *s = suite_create("sql_topn");
    TCase *tc = tcase_create("topn");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, top_n_equals_the_full_sort_truncated_with_ties);
    tcase_add_test(tc, top_n_over_a_join_of_the_bulk_table);
    tcase_add_test(tc, plans_say_when_the_sort_keeps_n);
    tcase_add_test(tc, a_cancelled_top_n_sort_stops);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    static const char *const needs[] = { BULK, NULL };
    return sqlt_run(topn_suite, needs);
}
