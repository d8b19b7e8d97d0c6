/*
 * test_pushdown.c - outer WHERE conditions pushed into derived tables and
 * saved queries (rewrite.c push_down).
 *
 * Every query is run twice: as written (its conditions on a derived
 * table or view go inside, so the view seeks) and in a form the planner
 * cannot rewrite (the view wrapped in, or given, TOP 100000000: a TOP
 * block keeps its rows to itself), and both must give the same rows (as
 * sorted lines: the access path may change their order). Shapes: Power
 * Query's folded steps on the 200k-row bulk (nested levels, parameters,
 * ranges, a function), Northwind's saved queries (DISTINCTROW views
 * joining up to six tables), NULLs, text keys differing in case and
 * trailing spaces, outer joins with the derived table on either side,
 * conditions across two derived tables. The plans of the main shapes
 * must seek. Skipped (77) without ../shared.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/engine.h"
#include "sqltest.h"
#include "unit.h"

#define NWIND "public/mdbtestdata/nwind.mdb"
#define BULK "bulk/bulk.accdb"

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every row of sql (params: its ? values) as sorted lines in *out; the
 * plan into plan (cap bytes) when not NULL. The test fails when sql does
 * not prepare or run. */
static void rows_of(jet_db *db, const char *sql, const jet_value *params,
                    sqlt_buf *out, char *plan, size_t cap)
{
    sql_stmt *st = NULL;
    sql_cursor *c = NULL;
    sql_error err;
    memset(&err, 0, sizeof err);
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err)
                  == 0, "%s: %s", sql, err.msg);
    if (plan)
        snprintf(plan, cap, "%s", sql_stmt_plan_text(st));
    ck_assert_msg(sql_cursor_open(&c, st, params, NULL, &err) == 0, "%s: %s",
                  sql, err.msg);
    size_t ncols = sql_stmt_ncols(st);
    char **lines = NULL;
    size_t n = 0, cap_l = 0;
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK) {
        sqlt_buf row = { 0 };
        sqlt_puts(&row, "");
        sqlt_render_row(&row, db, c, ncols);
        if (n == cap_l) {
            cap_l = cap_l ? 2 * cap_l : 64;
            lines = realloc(lines, cap_l * sizeof *lines);
            ck_assert_ptr_nonnull(lines);
        }
        lines[n++] = row.p;
    }
    ck_assert_msg(rc == JET_DONE, "%s: %s", sql, sql_cursor_error(c)->msg);
    sql_cursor_close(c);
    sql_stmt_free(st);
    if (n)
        qsort(lines, n, sizeof *lines, cmp_line);
    out->len = 0;
    sqlt_puts(out, "");
    for (size_t i = 0; i < n; i++) {
        sqlt_puts(out, lines[i]);
        sqlt_puts(out, "\n");
        free(lines[i]);
    }
    free(lines);
}

/* Run a (rewritable) and b (not) with params; same rows, and at least
 * min_rows of them. a's plan must contain want (when not NULL). Returns
 * the rows. */
static size_t same_rows(jet_db *db, const char *a, const char *b,
                        const jet_value *params, const char *want)
{
    sqlt_buf ra = { 0 }, rb = { 0 };
    char plan[4096], planb[4096];
    rows_of(db, a, params, &ra, plan, sizeof plan);
    rows_of(db, b, params, &rb, planb, sizeof planb);
    ck_assert_msg(strcmp(ra.p, rb.p) == 0, "%s\n  (plan %s)\ngave\n%s\n%s\n"
                  "  (plan %s)\ngave\n%s", a, plan, ra.p, b, planb, rb.p);
    if (want)
        ck_assert_msg(strstr(plan, want) != NULL, "%s: plan %s lacks %s", a,
                      plan, want);
    size_t lines = 0;
    for (const char *p = ra.p; *p; p++)
        lines += *p == '\n';
    free(ra.p);
    free(rb.p);
    return lines;
}

static jet_value long_param(int64_t v)
{
    jet_value p;
    memset(&p, 0, sizeof p);
    p.type = JET_T_LONG;
    p.u.i = v;
    return p;
}

/* A text parameter (UTF-16LE of the ASCII s, in buf of cap units). */
static jet_value text_param(const char *s, uint8_t *buf, size_t cap)
{
    jet_value p;
    memset(&p, 0, sizeof p);
    size_t n = strlen(s);
    ck_assert_uint_le(2 * n, cap);
    for (size_t i = 0; i < n; i++) {
        buf[2 * i] = (uint8_t)s[i];
        buf[2 * i + 1] = 0;
    }
    p.type = JET_T_TEXT;
    p.enc = JET_ENC_UCS2;
    p.data = buf;
    p.len = 2 * n;
    return p;
}

static const int64_t bulk_keys[] = {
    1, 2, 3, 77, 1000, 123456, 199999, 200000, 0, -1, 200001, 2147483647
};

/* Power Query's folded steps over bulk (names quoted with the identifier
 * quote the driver reports, the backtick): derived tables, nested ones, a
 * range, a function on a column, with parameters. */
START_TEST(pq_shapes_on_bulk)
{
    jet_db *db = sqlt_open_fixture(BULK);
    size_t total = 0;
    for (size_t k = 0; k < sizeof bulk_keys / sizeof *bulk_keys; k++) {
        jet_value p[2] = { long_param(bulk_keys[k]),
                           long_param(bulk_keys[k] + 40) };
        total += same_rows(db,
            "select `_`.`id`, `_`.`label` from (select * from "
            "`bulk`) `_` where `_`.`id` = ?",
            "select `_`.`id`, `_`.`label` from (select top "
            "100000000 * from `bulk`) `_` where `_`.`id` = ?",
            p, "SEEK bulk.PrimaryKey (id = ?1)");
        /* three levels of steps, columns renamed on the way */
        total += same_rows(db,
            "select c.k, c.l from (select b.id as k, b.label as l from "
            "(select a.id, a.label from (select * from bulk) a) b) c "
            "where c.k = ?",
            "select c.k, c.l from (select b.id as k, b.label as l from "
            "(select a.id, a.label from (select top 100000000 * from bulk) "
            "a) b) c where c.k = ?",
            p, "SEEK bulk.PrimaryKey (id = ?1)");
        /* a range and a function of a column, both pushed */
        total += same_rows(db,
            "select * from (select id, label, amount from bulk where "
            "amount > 0) t where t.id between ? and ? and "
            "UCase(t.label) >= 'H'",
            "select * from (select top 100000000 id, label, amount from "
            "bulk where amount > 0) t where t.id between ? and ? and "
            "UCase(t.label) >= 'H'",
            p, "SEEK bulk.PrimaryKey (id >= ?1 AND id <= ?2)");
        /* a condition in the subquery's and the outer block's WHERE */
        total += same_rows(db,
            "select * from (select * from (select * from bulk) a where "
            "a.id >= ?) b where b.id < ? + 0",
            "select * from (select * from (select top 100000000 * from "
            "bulk) a where a.id >= ?) b where b.id < ? + 0",
            p, "SEEK bulk.PrimaryKey");
        /* the Power Query merge: correct rows (its $Outer seeks) */
        total += same_rows(db,
            "select `$Outer`.`id`, `$Inner`.`label` from (select "
            "`id` from `bulk` where `id` = ?) `$Outer` inner join "
            "(select `id`, `label` from `bulk`) `$Inner` on "
            "(`$Outer`.`id` = `$Inner`.`id`) where "
            "`$Inner`.`id` < 1000000",
            "select `$Outer`.`id`, `$Inner`.`label` from (select "
            "`id` from `bulk` where `id` = ?) `$Outer` inner join "
            "(select top 100000000 `id`, `label` from `bulk`) "
            "`$Inner` on (`$Outer`.`id` = `$Inner`.`id`) where "
            "`$Inner`.`id` < 1000000",
            p, "INDEX NESTED LOOP JOIN SEEK bulk.PrimaryKey");
        /* Power Query's default merge: a left outer join */
        total += same_rows(db,
            "select `$Outer`.`id`, `$Inner`.`label` from (select "
            "`id` from `bulk` where `id` between ? and ?) `$Outer` "
            "left outer join (select `id`, `label` from `bulk` where "
            "`id` > ?) `$Inner` on (`$Outer`.`id` = "
            "`$Inner`.`id`)",
            "select `$Outer`.`id`, `$Inner`.`label` from (select "
            "`id` from `bulk` where `id` between ? and ?) `$Outer` "
            "left outer join (select top 100000000 `id`, `label` from "
            "`bulk` where `id` > ?) `$Inner` on (`$Outer`.`id` = "
            "`$Inner`.`id`)",
            (jet_value[]){ p[0], p[1], long_param(bulk_keys[k] + 20) },
            NULL);
        total += same_rows(db,
            "select o.id, i.label from (select id from bulk where id "
            "between ? and ?) o left join (select id, label from bulk) i "
            "on o.id = i.id",
            "select o.id, i.label from (select id from bulk where id "
            "between ? and ?) o left join (select top 100000000 id, label "
            "from bulk) i on o.id = i.id",
            p, "LEFT INDEX NESTED LOOP JOIN SEEK bulk.PrimaryKey");
    }
    ck_assert_uint_gt(total, 100);
    jet_db_close(db);
}
END_TEST

static const int64_t order_keys[] = {
    10248, 10249, 10250, 10255, 10300, 10333, 10500, 10700, 10900, 11000,
    11077, 10247, 11078, 0, -10248
};

/* Northwind's saved queries filtered on their key, with a parameter: the
 * view's own base table seeks. */
START_TEST(nwind_views_by_key)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const views[] = {
        "Invoices", "Orders Qry", "Order Details Extended"
    };
    size_t total = 0;
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "SELECT * FROM [%s] WHERE OrderID = ?",
                 views[v]);
        snprintf(b, sizeof b, "SELECT * FROM (SELECT TOP 100000000 * FROM "
                 "[%s]) AS v WHERE OrderID = ?", views[v]);
        for (size_t k = 0; k < sizeof order_keys / sizeof *order_keys; k++) {
            jet_value p = long_param(order_keys[k]);
            total += same_rows(db, a, b, &p, "SEEK Order");
        }
    }
    ck_assert_uint_gt(total, 50);
    jet_db_close(db);
}
END_TEST

/* Text keys differing in case and trailing spaces, NULLs, functions on a
 * view's column, and columns a view computes (not pushed). */
START_TEST(nwind_text_null_func)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const conds[] = {
        "CategoryName = 'beverages'", "CategoryName = 'Beverages  '",
        "CategoryName = 'BEVERAGES'", "CategoryName = 'Bev'",
        "CategoryName IN ('condiments ', 'SEAFOOD')",
        "CategoryName LIKE 'c*'", "UCase(ProductName) LIKE 'CH*'",
        "CategoryName >= 'D' AND UnitsInStock > 10",
        "QuantityPerUnit IS NULL", "CategoryName IS NOT NULL",
        "Len(ProductName) > 20"
    };
    size_t total = 0;
    for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "SELECT * FROM [Products by Category] WHERE "
                 "%s", conds[i]);
        snprintf(b, sizeof b, "SELECT * FROM (SELECT TOP 100000000 * FROM "
                 "[Products by Category]) AS v WHERE %s", conds[i]);
        total += same_rows(db, a, b, NULL, i < 3 ?
                           "SEEK Categories.CategoryName" : NULL);
    }
    static const char *const cust[] = {
        "c.CustomerID = 'alfki'", "c.CustomerID = 'ALFKI   '",
        "c.CustomerID = 'ALFK'", "c.Region IS NULL",
        "c.Region IS NOT NULL AND c.Country = 'usa'", "c.Fax = NULL",
        "UCase(c.City) = 'LONDON'", "c.City & '' = 'london '",
        "c.CustomerID LIKE 'B*' OR c.City = 'Paris'",
        "c.Blank IS NULL AND c.CustomerID < 'C'"
    };
    for (size_t i = 0; i < sizeof cust / sizeof *cust; i++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "SELECT * FROM (SELECT *, Null AS Blank FROM "
                 "Customers) c WHERE %s", cust[i]);
        snprintf(b, sizeof b, "SELECT * FROM (SELECT TOP 100000000 *, Null "
                 "AS Blank FROM Customers) c WHERE %s", cust[i]);
        total += same_rows(db, a, b, NULL, i < 3 ?
                           "SEEK Customers.PrimaryKey" : NULL);
    }
    /* a text parameter, in a DISTINCTROW view */
    static const char *const ids[] = {
        "alfki", "ALFKI", "Alfki  ", "BONAP", "bonap ", "ZZZZZ", ""
    };
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        uint8_t buf[64];
        jet_value p = text_param(ids[i], buf, sizeof buf);
        total += same_rows(db, "SELECT * FROM [Orders Qry] WHERE CustomerID "
                           "= ?", "SELECT * FROM (SELECT TOP 100000000 * "
                           "FROM [Orders Qry]) q WHERE CustomerID = ?", &p,
                           NULL);
        total += same_rows(db, "SELECT OrderID, CompanyName FROM [Orders "
                           "Qry] WHERE UCase(CompanyName) = UCase(?) OR "
                           "CustomerID = ?", "SELECT OrderID, CompanyName "
                           "FROM (SELECT TOP 100000000 * FROM [Orders Qry]) "
                           "q WHERE UCase(CompanyName) = UCase(?) OR "
                           "CustomerID = ?", (jet_value[]){ p, p }, NULL);
    }
    ck_assert_uint_gt(total, 100);
    jet_db_close(db);
}
END_TEST

/* Derived tables in joins: outer joins with the derived table on either
 * side (a WHERE on the optional side must also drop NULL-extended rows,
 * so it stays outside), and conditions across two derived tables. */
START_TEST(nwind_joins)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const conds[] = {
        "c.Country = 'Mexico'", "o.EmployeeID = 5", "o.OrderID IS NULL",
        "o.OrderID IS NULL OR o.Freight > 100", "c.CustomerID = 'PARIS'",
        "c.CustomerID = 'alfki ' AND o.OrderID > 10900",
        "o.ShipRegion IS NULL AND c.Region IS NULL",
        "o.CustomerID = c.CustomerID AND c.City = 'Berlin'"
    };
    static const char *const shapes[][2] = {
        { "(SELECT * FROM Customers) c LEFT JOIN (SELECT * FROM Orders) o "
          "ON c.CustomerID = o.CustomerID",
          "(SELECT TOP 100000000 * FROM Customers) c LEFT JOIN (SELECT TOP "
          "100000000 * FROM Orders) o ON c.CustomerID = o.CustomerID" },
        { "(SELECT * FROM Orders) o RIGHT JOIN (SELECT * FROM Customers) c "
          "ON c.CustomerID = o.CustomerID",
          "(SELECT TOP 100000000 * FROM Orders) o RIGHT JOIN (SELECT TOP "
          "100000000 * FROM Customers) c ON c.CustomerID = o.CustomerID" },
        { "[Customers] c LEFT JOIN [Orders Qry] o ON c.CustomerID = "
          "o.CustomerID",
          "[Customers] c LEFT JOIN (SELECT TOP 100000000 * FROM [Orders "
          "Qry]) o ON c.CustomerID = o.CustomerID" },
        { "(SELECT * FROM Customers) c INNER JOIN (SELECT * FROM Orders) o "
          "ON c.CustomerID = o.CustomerID",
          "(SELECT TOP 100000000 * FROM Customers) c INNER JOIN (SELECT TOP "
          "100000000 * FROM Orders) o ON c.CustomerID = o.CustomerID" },
        { "(SELECT * FROM Customers WHERE Country <> 'UK') c LEFT JOIN "
          "(SELECT * FROM Orders WHERE Freight > 50) o ON c.CustomerID = "
          "o.CustomerID",
          "(SELECT TOP 100000000 * FROM Customers WHERE Country <> 'UK') c "
          "LEFT JOIN (SELECT TOP 100000000 * FROM Orders WHERE Freight > "
          "50) o ON c.CustomerID = o.CustomerID" },
        { "(SELECT * FROM Customers) c, (SELECT * FROM Orders) o",
          "(SELECT TOP 100000000 * FROM Customers) c, (SELECT TOP "
          "100000000 * FROM Orders) o" }
    };
    size_t total = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
            if (s == 5 && i < 7)
                continue;       /* a cross join needs the join condition */
            char a[1024], b[1024];
            snprintf(a, sizeof a, "SELECT c.CustomerID, c.Region, "
                     "o.OrderID, o.Freight FROM %s WHERE %s", shapes[s][0],
                     conds[i]);
            snprintf(b, sizeof b, "SELECT c.CustomerID, c.Region, "
                     "o.OrderID, o.Freight FROM %s WHERE %s", shapes[s][1],
                     conds[i]);
            total += same_rows(db, a, b, NULL, NULL);
        }
    ck_assert_uint_gt(total, 100);
    /* the preserved side of a LEFT join seeks on its WHERE condition */
    jet_value p = long_param(10250);
    same_rows(db, "SELECT o.OrderID, d.ProductID FROM (SELECT * FROM Orders) "
              "o LEFT JOIN [Order Details] d ON o.OrderID = d.OrderID WHERE "
              "o.OrderID = ?", "SELECT o.OrderID, d.ProductID FROM (SELECT "
              "TOP 100000000 * FROM Orders) o LEFT JOIN [Order Details] d ON "
              "o.OrderID = d.OrderID WHERE o.OrderID = ?", &p,
              "SEEK Orders.PrimaryKey (OrderID = ?1)");
    jet_db_close(db);
}
END_TEST

/* What must not be pushed: into grouped, TOP and UNION blocks (the
 * rows differ), and through a computed column. Plans and rows. */
START_TEST(not_pushed)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    sqlt_buf r = { 0 };
    char plan[4096];
    rows_of(db, "SELECT * FROM (SELECT TOP 5 OrderID FROM Orders ORDER BY "
            "OrderID) t WHERE t.OrderID > 10250", NULL, &r, plan,
            sizeof plan);
    ck_assert_str_eq(r.p, "10251\n10252\n");
    ck_assert_ptr_null(strstr(plan, "SEEK"));
    rows_of(db, "SELECT * FROM (SELECT CustomerID, COUNT(*) AS n FROM "
            "Orders GROUP BY CustomerID) t WHERE t.CustomerID = 'ALFKI'",
            NULL, &r, plan, sizeof plan);
    ck_assert_str_eq(r.p, "ALFKI|6\n");
    rows_of(db, "SELECT * FROM (SELECT OrderID FROM Orders WHERE OrderID < "
            "10250 UNION SELECT OrderID FROM Orders WHERE OrderID > 11076) t "
            "WHERE t.OrderID > 10248", NULL, &r, plan, sizeof plan);
    ck_assert_str_eq(r.p, "10249\n11077\n");
    rows_of(db, "SELECT * FROM (SELECT OrderID + 1 AS k FROM Orders) t "
            "WHERE t.k = 10250", NULL, &r, plan, sizeof plan);
    ck_assert_str_eq(r.p, "10250\n");
    free(r.p);
    jet_db_close(db);
}
END_TEST

/* The SQLSTATE sql fails with (prepare, open or a row), "" when it
 * runs to the end. */
static void error_of(jet_db *db, const char *sql, char *state, size_t cap)
{
    sql_stmt *st = NULL;
    sql_cursor *c = NULL;
    sql_error err;
    memset(&err, 0, sizeof err);
    state[0] = '\0';
    if (sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) != 0) {
        snprintf(state, cap, "%s", err.sqlstate);
        return;
    }
    if (sql_cursor_open(&c, st, NULL, NULL, &err) != 0) {
        snprintf(state, cap, "%s", err.sqlstate);
    } else {
        int rc;
        while ((rc = sql_cursor_next(c)) == JET_OK)
            ;
        if (rc != JET_DONE)
            snprintf(state, cap, "%s", sql_cursor_error(c)->sqlstate);
        sql_cursor_close(c);
    }
    sql_stmt_free(st);
}

/* A pushed condition that would fail (division by zero, overflow, a
 * conversion) on rows the view's own conditions drop does not fail:
 * the planner may test it before them (here Orders is sought first, and
 * Employees' condition decides later), and only the outer WHERE's test,
 * on the view's rows, may raise. Where the view keeps such a row, the
 * error still comes, as it does without the push. */
START_TEST(pushed_errors_only_where_unpushed)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const outer[] = {
        "10 / (v.EmployeeID - 5) > 1",
        "CInt(v.Freight * 1000) > 5",
        "CLng(v.ShipRegion) = 1 OR v.OrderID > 0",
        "1 / (v.OrderID - 10248) <> 0 AND v.EmployeeID <> 5",
    };
    /* the view keeps no row outer[] fails on: Buchanan is employee 5,
     * whose orders include 10248 (freight 32.38, no region) */
    static const char *const view =
        "SELECT o.OrderID, o.EmployeeID, o.Freight, o.ShipRegion FROM "
        "Orders o INNER JOIN Employees e ON e.EmployeeID = o.EmployeeID "
        "WHERE e.LastName <> 'Buchanan' AND o.Freight < 30 AND "
        "o.ShipRegion IS NULL AND o.OrderID %s";
    static const char *const keys[] = {
        "= 10248", "BETWEEN 10248 AND 10300", "IN (10248, 10249, 10250)",
        "> 0",
    };
    char a[1024], b[1024], inner[512];
    for (size_t i = 0; i < sizeof outer / sizeof outer[0]; i++) {
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            snprintf(inner, sizeof inner, view, keys[k]);
            snprintf(a, sizeof a, "SELECT * FROM (%s) v WHERE %s", inner,
                     outer[i]);
            snprintf(b, sizeof b, "SELECT * FROM (SELECT TOP 100000000 * "
                     "FROM (%s) w) v WHERE %s", inner, outer[i]);
            same_rows(db, a, b, NULL, NULL);
        }
    }
    /* a row of the view that fails: the error comes, pushed or not */
    char sa[8], sb[8];
    error_of(db, "SELECT * FROM (SELECT * FROM Orders o WHERE o.OrderID "
             "BETWEEN 10248 AND 10260) v WHERE 10 / (v.EmployeeID - 5) > 1",
             sa, sizeof sa);
    error_of(db, "SELECT * FROM (SELECT TOP 100000000 * FROM Orders o WHERE "
             "o.OrderID BETWEEN 10248 AND 10260) v WHERE 10 / (v.EmployeeID "
             "- 5) > 1", sb, sizeof sb);
    ck_assert_str_eq(sa, "22012");
    ck_assert_str_eq(sb, "22012");
    jet_db_close(db);
}
END_TEST

/* tmpl with each ~ replaced by top and each ^ by cond, into out (cap
 * bytes). */
static void fill(char *out, size_t cap, const char *tmpl, const char *top,
                 const char *cond)
{
    size_t m = 0;
    for (const char *p = tmpl; *p; p++) {
        const char *put = *p == '~' ? top : *p == '^' ? cond : NULL;
        size_t n = put ? strlen(put) : 1;
        ck_assert_uint_lt(m + n, cap);
        memcpy(out + m, put ? put : p, n);
        m += n;
    }
    out[m] = '\0';
}

/* A condition pushed into a view whose FROM joins a single-table
 * derived table that the view reads as its table (flattened), the
 * derived table's columns in another order than its table's: the
 * pushed copy reads the derived table's column, not the table column of
 * the same number (Power Query's merge of folded steps has this shape).
 * Each against the form whose inner derived table keeps its rows (TOP). */
START_TEST(pushed_through_a_flattened_join_side)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const shapes[] = {
        /* inner derived table, its TOP-guarded twin */
        "SELECT d.OrderID, d.Freight, d.EmployeeID FROM (SELECT o.OrderID, "
        "o.Freight, o.EmployeeID FROM (SELECT ~ Freight, CustomerID, "
        "EmployeeID, ShipVia, OrderID FROM Orders) o INNER JOIN Customers c "
        "ON o.CustomerID = c.CustomerID) d WHERE ^",
        "SELECT d.OrderID, d.Freight, d.EmployeeID FROM (SELECT o.OrderID, "
        "o.Freight, o.EmployeeID FROM (SELECT ~ ShipVia, OrderID, Freight, "
        "EmployeeID FROM Orders WHERE ShipVia <> 3) o LEFT JOIN Employees e "
        "ON o.EmployeeID = e.EmployeeID) d WHERE ^",
        "SELECT d.OrderID, d.Freight, d.EmployeeID FROM (SELECT o.OrderID, "
        "o.Freight, o.EmployeeID FROM Shippers z, (SELECT ~ EmployeeID, "
        "Freight, OrderID FROM Orders) o WHERE z.ShipperID = 2) d WHERE ^",
        "SELECT `_`.OrderID, `_`.Freight, `_`.EmployeeID FROM (SELECT "
        "`$Outer`.OrderID, `$Outer`.Freight, `$Outer`.EmployeeID, "
        "`$Inner`.CompanyName FROM (SELECT ~ `_`.EmployeeID, `_`.Freight, "
        "`_`.OrderID, `_`.CustomerID FROM Orders `_`) `$Outer` LEFT OUTER "
        "JOIN (SELECT `_`.CustomerID, `_`.CompanyName FROM Customers `_` "
        "WHERE `_`.Country = 'Germany') `$Inner` ON (`$Outer`.CustomerID = "
        "`$Inner`.CustomerID)) `_` WHERE ^",
    };
    /* ~ in a shape stands for the TOP, ^ for the condition, @ in a
     * condition for the outer block's qualifier */
    static const char *const conds[] = {
        "@OrderID = 10248", "@OrderID = 10250", "@OrderID < 10252",
        "@EmployeeID = 5", "@Freight > 800", "@Freight BETWEEN 10 AND 11",
        "@EmployeeID = 5 AND @Freight > 100",
    };
    char a[2048], b[2048], cond[128];
    size_t total = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const char *qual = i == 3 ? "`_`." : "d.";
        for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++) {
            size_t m = 0;
            for (const char *p = conds[k]; *p && m + 8 < sizeof cond; p++) {
                if (*p != '@') {
                    cond[m++] = *p;
                    continue;
                }
                memcpy(cond + m, qual, strlen(qual));
                m += strlen(qual);
            }
            cond[m] = '\0';
            fill(a, sizeof a, shapes[i], "", cond);
            fill(b, sizeof b, shapes[i], "TOP 100000000", cond);
            total += same_rows(db, a, b, NULL, NULL);
        }
    }
    ck_assert_uint_gt(total, 200);
    jet_db_close(db);
}
END_TEST

static Suite *pushdown_suite(void)
{
    Suite *s = suite_create("pushdown");
    TCase *tc = tcase_create("pushdown");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, pq_shapes_on_bulk);
    tcase_add_test(tc, nwind_views_by_key);
    tcase_add_test(tc, nwind_text_null_func);
    tcase_add_test(tc, nwind_joins);
    tcase_add_test(tc, not_pushed);
    tcase_add_test(tc, pushed_errors_only_where_unpushed);
    tcase_add_test(tc, pushed_through_a_flattened_join_side);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    static const char *const needs[] = { NWIND, BULK, NULL };
    return sqlt_run(pushdown_suite, needs);
}
