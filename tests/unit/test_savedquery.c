/*
 * test_savedquery.c - saved-query SQL rebuilt from MSysQueries rows.
 *
 * The rows are written by hand after those of Northwind (nwind.mdb) and
 * Jackcess's queryTest files; the expected texts are what Access shows in
 * its SQL view for those queries (lines joined by "\n").
 */
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <unistd.h>

#include "sql/callproc.h"
#include "sql/savedquery.h"
#include "unit.h"
#include "../shared_dir.h"

#define NONE (-32768)

/* A row: attribute, flag (NONE = NULL), name1, name2, expression. */
static jet_query_row R(int attr, int flag, const char *n1, const char *n2,
                       const char *ex)
{
    jet_query_row r;
    memset(&r, 0, sizeof r);
    r.attribute = (uint8_t)attr;
    r.flag_null = flag == NONE;
    r.flag = (int16_t)(flag == NONE ? 0 : flag);
    r.name1 = n1;
    r.name2 = n2;
    r.expression = ex;
    return r;
}

static jet_object obj;

static jet_query Q(const char *name, int32_t flags, jet_query_row *rows,
                   size_t n)
{
    jet_query q;
    memset(&obj, 0, sizeof obj);
    obj.name = name;
    obj.kind = JET_OBJ_QUERY;
    obj.flags = flags;
    q.obj = &obj;
    q.rows = rows;
    q.nrows = n;
    return q;
}

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

static void expect_text(const jet_query *q, const char *want)
{
    char *got = NULL;
    sql_error err;
    ck_assert_int_eq(sql_saved_text(&got, q, &err), 0);
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(select_with_nested_inner_joins_as_access_writes_them)
{
    jet_query_row rows[] = {
        R(0, NONE, 0, 0, 0), R(1, 1, 0, 0, 0), R(3, 8, 0, 0, 0),
        R(5, NONE, "Orders", 0, 0), R(5, NONE, "Order Details", 0, 0),
        R(5, NONE, "Customers", 0, 0), R(5, NONE, "Employees", 0, 0),
        R(5, NONE, "Products", 0, 0), R(5, NONE, "Shippers", 0, 0),
        R(6, 0, 0, 0, "Orders.ShipName"),
        R(6, 0, "Salesperson", 0, "[FirstName] & \" \" & [LastName]"),
        R(6, 0, "ExtendedPrice", 0,
          "CCur([Order Details].[UnitPrice]*[Quantity]*(1-[Discount])/100)*100"),
        R(7, 1, "Customers", "Orders", "Customers.CustomerID = Orders.CustomerID"),
        R(7, 1, "Employees", "Orders", "Employees.EmployeeID = Orders.EmployeeID"),
        R(7, 1, "Orders", "Order Details", "Orders.OrderID = [Order Details].OrderID"),
        R(7, 1, "Products", "Order Details", "Products.ProductID = [Order Details].ProductID"),
        R(7, 1, "Shippers", "Orders", "Shippers.ShipperID = Orders.ShipVia"),
        R(255, NONE, 0, 0, 0),
    };
    jet_query q = Q("Invoices", 0, rows, NROWS(rows));
    expect_text(&q,
        "SELECT DISTINCTROW Orders.ShipName, [FirstName] & \" \" & [LastName] "
        "AS Salesperson, CCur([Order Details].[UnitPrice]*[Quantity]*"
        "(1-[Discount])/100)*100 AS ExtendedPrice\n"
        "FROM Shippers INNER JOIN (Products INNER JOIN ((Employees INNER JOIN "
        "(Customers INNER JOIN Orders ON Customers.CustomerID = "
        "Orders.CustomerID) ON Employees.EmployeeID = Orders.EmployeeID) "
        "INNER JOIN [Order Details] ON Orders.OrderID = [Order Details]."
        "OrderID) ON Products.ProductID = [Order Details].ProductID) ON "
        "Shippers.ShipperID = Orders.ShipVia;");
    ck_assert_int_eq(sql_saved_kind_of(&q), SQL_SAVED_SELECT);
}
END_TEST

START_TEST(select_with_alias_where_and_order)
{
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0), R(3, 0, 0, 0, 0),
        R(5, NONE, "Products", "Product List", 0),
        R(6, 0, 0, 0, "[Product List].ProductID"),
        R(6, 0, 0, 0, "[Product List].ProductName"),
        R(8, NONE, 0, 0, "((([Product List].Discontinued)=No))"),
        R(11, NONE, 0, 0, "[Product List].ProductName"),
    };
    jet_query q = Q("Current Product List", 0, rows, NROWS(rows));
    expect_text(&q,
        "SELECT [Product List].ProductID, [Product List].ProductName\n"
        "FROM Products AS [Product List]\n"
        "WHERE ((([Product List].Discontinued)=No))\n"
        "ORDER BY [Product List].ProductName;");
    char *sql = NULL;
    size_t *map = NULL, nm = 9;
    sql_error err;
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), 0);
    ck_assert_str_eq(sql,
        "SELECT [Product List].ProductID, [Product List].ProductName\n"
        "FROM [Products] AS [Product List]\n"
        "WHERE ((([Product List].Discontinued)=No))\n"
        "ORDER BY [Product List].ProductName");
    ck_assert_uint_eq(nm, 0);
    ck_assert_ptr_null(map);
    free(sql);
}
END_TEST

START_TEST(distinctrow_top_n_and_descending_order)
{
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0), R(3, 24, "10", 0, 0),
        R(5, NONE, "Products", 0, 0),
        R(6, 0, "TenMostExpensiveProducts", 0, "Products.ProductName"),
        R(6, 0, 0, 0, "Products.UnitPrice"),
        R(11, NONE, "D", 0, "Products.UnitPrice"),
    };
    jet_query q = Q("Ten Most Expensive Products", 0, rows, NROWS(rows));
    expect_text(&q,
        "SELECT DISTINCTROW TOP 10 Products.ProductName AS "
        "TenMostExpensiveProducts, Products.UnitPrice\n"
        "FROM Products\n"
        "ORDER BY Products.UnitPrice DESC;");
}
END_TEST

START_TEST(top_percent_distinct_and_select_star)
{
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0), R(3, 0x01 | 0x02 | 0x10 | 0x20, "5", 0, 0),
        R(5, NONE, "Table1", 0, 0),
        R(6, 0, 0, 0, "Table1.id"), R(6, 0, "Some.Alias", 0, "Table1.col"),
    };
    jet_query q = Q("q", 0, rows, NROWS(rows));
    expect_text(&q, "SELECT DISTINCT TOP 5 PERCENT Table1.id, Table1.col AS "
                    "[Some.Alias], *\nFROM Table1;");
}
END_TEST

START_TEST(no_column_rows_select_star)
{
    /* ASampleDatabase ~sq_ffrmAssetInventory: Flag 9, no Type row */
    jet_query_row rows[] = {
        R(0, 0, 0, 0, 0), R(3, 9, 0, 0, 0), R(5, NONE, "Asset Items", 0, 0),
        R(255, NONE, 0, 0, 0),
    };
    jet_query q = Q("~sq_ffrmAssetInventory", 3, rows, NROWS(rows));
    expect_text(&q, "SELECT DISTINCTROW *\nFROM [Asset Items];");
}
END_TEST

START_TEST(two_join_rows_between_the_same_tables_and_left_join)
{
    /* Jackcess queryTest SelectQuery */
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0), R(3, 2, 0, 0, 0),
        R(5, NONE, "Table1", 0, 0), R(5, NONE, "Table2", 0, 0),
        R(5, NONE, "Table3", 0, 0),
        R(6, 0, 0, 0, "Table1.*"), R(6, 0, 0, 0, "Table2.col1"),
        R(6, 0, 0, 0, "Table2.col2"), R(6, 0, 0, 0, "Table3.col3"),
        R(7, 2, "Table1", "Table3", "Table1.col1 = Table3.col1"),
        R(7, 1, "Table3", "Table2", "Table3.col1 = Table2.col1"),
        R(7, 1, "Table3", "Table2", "Table3.col1 = Table2.col2"),
        R(8, NONE, 0, 0, "(((Table2.col2)=\"foo\" Or (Table2.col2) In (\"buzz\",\"bazz\")))"),
        R(11, NONE, 0, 0, "Table2.col1"),
    };
    jet_query q = Q("SelectQuery", 0, rows, NROWS(rows));
    expect_text(&q,
        "SELECT DISTINCT Table1.*, Table2.col1, Table2.col2, Table3.col3\n"
        "FROM (Table1 LEFT JOIN Table3 ON Table1.col1 = Table3.col1) INNER "
        "JOIN Table2 ON (Table3.col1 = Table2.col2) AND (Table3.col1 = "
        "Table2.col1)\n"
        "WHERE (((Table2.col2)=\"foo\" Or (Table2.col2) In (\"buzz\",\"bazz\")))\n"
        "ORDER BY Table2.col1;");
}
END_TEST

START_TEST(inconsistent_join_types_are_an_error_not_a_crash)
{
    jet_query_row rows[] = {
        R(5, NONE, "A", 0, 0), R(5, NONE, "B", 0, 0),
        R(7, 1, "A", "B", "A.x = B.x"), R(7, 2, "A", "B", "A.y = B.y"),
        R(7, 9, "A", "B", "A.z = B.z"),
    };
    jet_query q = Q("bad", 0, rows, NROWS(rows));
    char *sql = (char *)1;
    sql_error err;
    ck_assert_int_eq(sql_saved_text(&sql, &q, &err), -1);
    ck_assert_ptr_null(sql);
    ck_assert_str_eq(err.sqlstate, "HY000");
    ck_assert(strstr(err.msg, "inconsistent") != NULL);
}
END_TEST

START_TEST(hostile_rows_with_nulls_everywhere)
{
    jet_query_row rows[] = {
        R(1, NONE, 0, 0, 0), R(2, NONE, 0, 0, 0), R(3, 0x10, 0, 0, 0),
        R(5, NONE, 0, 0, 0), R(6, NONE, 0, 0, 0), R(7, 1, 0, 0, 0),
        R(8, NONE, 0, 0, 0), R(9, NONE, 0, 0, 0), R(11, NONE, 0, 0, 0),
        R(7, 1, "x", "y", "x.a = y.a"), R(7, 1, "y", "x", "y.b = x.b"),
    };
    jet_query q = Q("h", 0, rows, NROWS(rows));
    char *sql = NULL;
    sql_error err;
    /* a join row without names is refused; text otherwise never crashes */
    ck_assert_int_eq(sql_saved_text(&sql, &q, &err), -1);
    jet_query q2 = Q("h", 0, rows + 9, 2);
    ck_assert_int_eq(sql_saved_text(&sql, &q2, &err), 0);
    ck_assert_str_eq(sql, "SELECT *\nFROM x INNER JOIN y ON (y.b = x.b) AND "
                          "(x.a = y.a);");
    free(sql);
}
END_TEST

START_TEST(union_keeps_its_text_and_order)
{
    jet_query_row rows[] = {
        R(1, 9, 0, 0, 0), R(3, 3, 0, 0, 0),
        R(5, NONE, 0, "X7YZ_____1", "SELECT City, CompanyName, ContactName, "
          "\"Customers\" AS [Relationship] \r\nFROM Customers\r\n"),
        R(5, NONE, 0, "X7YZ_____2", "SELECT City, CompanyName, ContactName, "
          "\"Suppliers\"\r\nFROM Suppliers"),
        R(11, NONE, 0, 0, "City"), R(11, NONE, 0, 0, "CompanyName"),
    };
    jet_query q = Q("Customers and Suppliers by City", 128, rows, NROWS(rows));
    expect_text(&q,
        "SELECT City, CompanyName, ContactName, \"Customers\" AS "
        "[Relationship] \nFROM Customers\n"
        "UNION SELECT City, CompanyName, ContactName, \"Suppliers\"\n"
        "FROM Suppliers\n"
        "ORDER BY City, CompanyName;");
    ck_assert_int_eq(sql_saved_kind_of(&q), SQL_SAVED_UNION);
    rows[1].flag = 1;   /* without the DISTINCT bit: UNION ALL */
    char *sql = NULL;
    size_t *map = NULL, nm = 0;
    sql_error err;
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), 0);
    ck_assert(strstr(sql, "\nUNION ALL SELECT City") != NULL);
    free(sql);
}
END_TEST

START_TEST(parameters_declared_and_bound_as_markers)
{
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0),
        R(2, 8, "Beginning Date", 0, 0), R(2, 8, "Ending Date", 0, 0),
        R(3, 8, 0, 0, 0),
        R(5, NONE, "Orders", 0, 0),
        R(6, 0, 0, 0, "Orders.ShippedDate"),
        R(6, 0, "Note", 0, "\"[Ending Date]\" & 'x'"),
        R(8, NONE, 0, 0, "(((Orders.ShippedDate) Between [Beginning Date] "
          "And [ending date]) AND #1/1/95#<[Beginning Date])"),
    };
    jet_query q = Q("Employee Sales by Country", 0, rows, NROWS(rows));
    expect_text(&q,
        "PARAMETERS [Beginning Date] DateTime, [Ending Date] DateTime;\n"
        "SELECT DISTINCTROW Orders.ShippedDate, \"[Ending Date]\" & 'x' AS "
        "Note\nFROM Orders\n"
        "WHERE (((Orders.ShippedDate) Between [Beginning Date] And "
        "[ending date]) AND #1/1/95#<[Beginning Date]);");
    size_t np = sql_saved_params(&q, NULL);
    ck_assert_uint_eq(np, 2);
    sql_saved_param p[2];
    sql_saved_params(&q, p);
    ck_assert_str_eq(p[1].name, "Ending Date");
    ck_assert_int_eq(p[1].type, JET_T_DATETIME);
    char *sql = NULL;
    size_t *map = NULL, nm = 0;
    sql_error err;
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), 0);
    ck_assert_str_eq(sql,
        "SELECT DISTINCTROW Orders.ShippedDate, \"[Ending Date]\" & 'x' AS "
        "[Note]\nFROM [Orders]\n"
        "WHERE (((Orders.ShippedDate) Between ? And ?) AND #1/1/95#<?)");
    ck_assert_uint_eq(nm, 3);
    ck_assert_uint_eq(map[0], 0);
    ck_assert_uint_eq(map[1], 1);
    ck_assert_uint_eq(map[2], 0);
    free(sql);
    free(map);
}
END_TEST

START_TEST(form_reference_parameters_and_undeclared_forms)
{
    jet_query_row rows[] = {
        R(1, 1, 0, 0, 0),
        R(2, 8, "Forms!Sales by Year Dialog!BeginningDate", 0, 0),
        R(5, NONE, "Orders", 0, 0),
        R(6, 0, "Year", 0, "Format([ShippedDate],\"yyyy\")"),
        R(8, NONE, 0, 0, "(((Orders.ShippedDate) Between [Forms]![Sales by "
          "Year Dialog]![BeginningDate] And [Forms]![Orders]![OrderID]))"),
    };
    jet_query q = Q("Sales by Year", 0, rows, NROWS(rows));
    expect_text(&q,
        "PARAMETERS [Forms!Sales by Year Dialog!BeginningDate] DateTime;\n"
        "SELECT Format([ShippedDate],\"yyyy\") AS Year\nFROM Orders\n"
        "WHERE (((Orders.ShippedDate) Between [Forms]![Sales by Year Dialog]!"
        "[BeginningDate] And [Forms]![Orders]![OrderID]));");
    char *sql = NULL;
    size_t *map = NULL, nm = 0;
    sql_error err;
    /* the second reference is not declared: Access asks for it, a
     * parameter after the declared one */
    sql_saved_param *pl = NULL;
    size_t np = 0;
    ck_assert_int_eq(sql_saved_param_list(&pl, &np, &q, &err), 0);
    ck_assert_uint_eq(np, 2);
    ck_assert(!pl[0].implicit);
    ck_assert_int_eq(pl[0].type, JET_T_DATETIME);
    ck_assert(pl[1].implicit);
    ck_assert_str_eq(pl[1].name, "[Forms]![Orders]![OrderID]");
    sql_saved_free_params(pl, np);
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), 0);
    ck_assert(strstr(sql, "Between ? And ?") != NULL);
    ck_assert_uint_eq(nm, 2);
    ck_assert_uint_eq(map[0], 0);
    ck_assert_uint_eq(map[1], 1);
    free(sql);
    free(map);
    /* the same reference twice is one parameter, also written in */
    rows[4].expression = "[Forms]![Orders]![OrderID] < 3 OR forms!orders!"
                         "orderid > 9";
    const char *args[] = { NULL, "7" };
    ck_assert_int_eq(sql_saved_exec_text_args(&sql, &map, &nm, &q, args,
                                              &err), 0);
    ck_assert(strstr(sql, "WHERE (7) < 3 OR (7) > 9") != NULL);
    ck_assert_uint_eq(nm, 0);
    free(sql);
    free(map);
    ck_assert_int_eq(sql_saved_param_list(&pl, &np, &q, &err), 0);
    ck_assert_uint_eq(np, 2);
    sql_saved_free_params(pl, np);
    rows[4].expression = "Orders.ShippedDate >= [Forms]![Sales by Year "
                         "Dialog]![BeginningDate]";
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), 0);
    ck_assert(strstr(sql, "WHERE Orders.ShippedDate >= ?") != NULL);
    ck_assert_uint_eq(nm, 1);
    free(sql);
    free(map);
}
END_TEST

START_TEST(crosstab_text_and_its_grouping_query)
{
    jet_query_row rows[] = {
        R(1, 6, 0, 0, 0), R(3, 8, 0, 0, 0),
        R(5, NONE, "Orders", 0, 0), R(5, NONE, "Order Details", 0, 0),
        R(5, NONE, "Products", 0, 0),
        R(6, 2, 0, 0, "Products.ProductName"),
        R(6, 2, 0, 0, "Orders.CustomerID"),
        R(6, 1, "Quarters", 0, "\"Qtr \" & DatePart(\"q\",[OrderDate],1,0) In "
          "(\"Qtr 1\",\"Qtr 2\",\"Qtr 3\",\"Qtr 4\")"),
        R(6, 2, "OrderYear", 0, "Year([OrderDate])"),
        R(6, 0, "ProductAmount", 0, "Sum(CCur([Order Details].[UnitPrice]*"
          "[Quantity]*(1-[Discount])/100)*100)"),
        R(7, 1, "Orders", "Order Details", "Orders.OrderID = [Order Details].OrderID"),
        R(7, 1, "Products", "Order Details", "Products.ProductID = [Order Details].ProductID"),
        R(8, NONE, 0, 0, "(((Orders.OrderDate) Between #1/1/95# And #12/31/95#))"),
        R(9, 2, 0, 0, "Products.ProductName"), R(9, 2, 0, 0, "Orders.CustomerID"),
        R(9, 1, 0, 0, "\"Qtr \" & DatePart(\"q\",[OrderDate],1,0)"),
        R(9, 2, 0, 0, "Year([OrderDate])"),
    };
    jet_query q = Q("Quarterly Orders by Product", 16, rows, NROWS(rows));
    expect_text(&q,
        "TRANSFORM Sum(CCur([Order Details].[UnitPrice]*[Quantity]*"
        "(1-[Discount])/100)*100) AS ProductAmount\n"
        "SELECT DISTINCTROW Products.ProductName, Orders.CustomerID, "
        "Year([OrderDate]) AS OrderYear\n"
        "FROM Products INNER JOIN (Orders INNER JOIN [Order Details] ON "
        "Orders.OrderID = [Order Details].OrderID) ON Products.ProductID = "
        "[Order Details].ProductID\n"
        "WHERE (((Orders.OrderDate) Between #1/1/95# And #12/31/95#))\n"
        "GROUP BY Products.ProductName, Orders.CustomerID, Year([OrderDate])\n"
        "PIVOT \"Qtr \" & DatePart(\"q\",[OrderDate],1,0) In (\"Qtr 1\","
        "\"Qtr 2\",\"Qtr 3\",\"Qtr 4\");");
    char *sql = NULL, **fixed = NULL;
    size_t nfixed = 0;
    sql_error err;
    ck_assert_int_eq(sql_saved_crosstab_pivots(&sql, &fixed, &nfixed, &q,
                                               &err), 0);
    ck_assert_ptr_null(sql);
    ck_assert_uint_eq(nfixed, 4);
    ck_assert_str_eq(fixed[0], "\"Qtr 1\"");
    ck_assert_str_eq(fixed[3], "\"Qtr 4\"");
    const char *names[] = {"Qtr 1", "Qtr 2"};
    ck_assert_int_eq(sql_saved_crosstab_select(&sql, &q,
                                               (const char *const *)fixed,
                                               names, 2, &err), 0);
    ck_assert_str_eq(sql,
        "SELECT Products.ProductName, Orders.CustomerID, "
        "Year([OrderDate]) AS [OrderYear], "
        "Sum(IIf((\"Qtr \" & DatePart(\"q\",[OrderDate],1,0)) = \"Qtr 1\", "
        "CCur([Order Details].[UnitPrice]*[Quantity]*(1-[Discount])/100)*100, "
        "Null)) AS [Qtr 1], "
        "Sum(IIf((\"Qtr \" & DatePart(\"q\",[OrderDate],1,0)) = \"Qtr 2\", "
        "CCur([Order Details].[UnitPrice]*[Quantity]*(1-[Discount])/100)*100, "
        "Null)) AS [Qtr 2]\n"
        "FROM [Products] INNER JOIN ([Orders] INNER JOIN [Order Details] ON "
        "Orders.OrderID = [Order Details].OrderID) ON Products.ProductID = "
        "[Order Details].ProductID\n"
        "WHERE (((Orders.OrderDate) Between #1/1/95# And #12/31/95#))\n"
        "GROUP BY Products.ProductName, Orders.CustomerID, Year([OrderDate])\n"
        "ORDER BY Products.ProductName, Orders.CustomerID, Year([OrderDate])");
    free(sql);
    sql_saved_free_list(fixed, nfixed);
    /* without a fixed list, the headings come from a query */
    rows[7].expression = "\"Qtr \" & DatePart(\"q\",[OrderDate],1,0)";
    ck_assert_int_eq(sql_saved_crosstab_pivots(&sql, &fixed, &nfixed, &q,
                                               &err), 0);
    ck_assert_uint_eq(nfixed, 0);
    ck_assert_str_eq(sql,
        "SELECT DISTINCT \"Qtr \" & DatePart(\"q\",[OrderDate],1,0) AS "
        "[Pivot Value]\n"
        "FROM [Products] INNER JOIN ([Orders] INNER JOIN [Order Details] ON "
        "Orders.OrderID = [Order Details].OrderID) ON Products.ProductID = "
        "[Order Details].ProductID\n"
        "WHERE (((Orders.OrderDate) Between #1/1/95# And #12/31/95#))\n"
        "ORDER BY 1");
    free(sql);
    /* a NULL pivot value has its own column; Count(*) counts rows */
    rows[9].expression = "Count(*)";
    const char *lits[] = {NULL};
    const char *nn[] = {"<>"};
    ck_assert_int_eq(sql_saved_crosstab_select(&sql, &q, lits, nn, 1, &err),
                     0);
    ck_assert(strstr(sql, "Count(IIf((\"Qtr \" & DatePart(\"q\",[OrderDate],"
                          "1,0)) Is Null, 1, Null)) AS [<>]\n") != NULL);
    free(sql);
    rows[9].expression = "First([Quantity])";
    ck_assert_int_eq(sql_saved_crosstab_select(&sql, &q, lits, nn, 1, &err),
                     -1);
    ck_assert_str_eq(err.sqlstate, "HYC00");
    /* the crosstab cannot run as a plain SELECT */
    size_t *map = NULL, nm = 0;
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), -1);
    ck_assert_str_eq(err.sqlstate, "HYC00");
}
END_TEST

START_TEST(action_and_passthrough_queries_do_not_run_as_views)
{
    jet_query_row pt[] = {
        R(1, 8, "ODBC;", 0, "ALTER TABLE Table4 DROP COLUMN col5;"),
    };
    jet_query q = Q("PassthroughQuery", 112, pt, NROWS(pt));
    expect_text(&q, "ALTER TABLE Table4 DROP COLUMN col5;");
    char *sql = NULL;
    size_t *map = NULL, nm = 0;
    sql_error err;
    ck_assert_int_eq(sql_saved_exec_text(&sql, &map, &nm, &q, &err), -1);
    ck_assert_str_eq(err.sqlstate, "HYC00");
    ck_assert(strstr(err.msg, "pass-through") != NULL);

    jet_query_row mk[] = {
        R(1, 2, "Table4", 0, 0), R(3, 0, 0, 0, 0),
        R(5, NONE, "Table2", 0, 0), R(5, NONE, "Table1", 0, 0),
        R(5, NONE, "Table3", 0, 0),
        R(6, 0, "MaxOfcol1", 0, "Max(Table2.col1)"),
        R(6, 0, 0, 0, "Table2.col2"), R(6, 0, 0, 0, "Table3.col2"),
        R(7, 1, "Table2", "Table1", "Table2.col1 = Table1.col2"),
        R(7, 3, "Table1", "Table3", "Table1.col2 = Table3.col3"),
        R(9, 0, 0, 0, "Table2.col2"), R(9, 0, 0, 0, "Table3.col2"),
        R(10, NONE, 0, 0, "(((Max(Table2.col1))=\"buzz\") AND ((Table2.col2)<>\"blah\"))"),
    };
    q = Q("MakeTableQuery", 80, mk, NROWS(mk));
    expect_text(&q,
        "SELECT Max(Table2.col1) AS MaxOfcol1, Table2.col2, Table3.col2 INTO "
        "Table4\n"
        "FROM (Table2 INNER JOIN Table1 ON Table2.col1 = Table1.col2) RIGHT "
        "JOIN Table3 ON Table1.col2 = Table3.col3\n"
        "GROUP BY Table2.col2, Table3.col2\n"
        "HAVING (((Max(Table2.col1))=\"buzz\") AND ((Table2.col2)<>\"blah\"));");
}
END_TEST

/* Open a public fixture, or NULL when ../shared is absent. */
static jet_db *open_fixture(const char *rel)
{
    char path[1024];
    jet_db *db = NULL;
    snprintf(path, sizeof path, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    if (access(path, R_OK) != 0)
        return NULL;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    return db;
}

START_TEST(nwind_rows_read_from_the_file_rebuild_access_text)
{
    jet_db *db = open_fixture("mdbtestdata/nwind.mdb");
    if (!db)
        return;
    const jet_object *o = jet_catalog_find_query(db, "orders qry");
    ck_assert_ptr_nonnull(o);
    const jet_query *q = NULL;
    ck_assert_int_eq(jet_query_load(&q, db, o), JET_OK);
    char *sql = NULL;
    sql_error err;
    ck_assert_int_eq(sql_saved_text(&sql, q, &err), 0);
    /* its rows are split over two pages of MSysQueries: Order sorts them */
    ck_assert_str_eq(sql,
        "SELECT DISTINCTROW Orders.OrderID, Orders.CustomerID, "
        "Orders.EmployeeID, Orders.OrderDate, Orders.RequiredDate, "
        "Orders.ShippedDate, Orders.ShipVia, Orders.Freight, Orders.ShipName, "
        "Orders.ShipAddress, Orders.ShipCity, Orders.ShipRegion, "
        "Orders.ShipPostalCode, Orders.ShipCountry, Customers.CompanyName, "
        "Customers.Address, Customers.City, Customers.Region, "
        "Customers.PostalCode, Customers.Country\n"
        "FROM Customers INNER JOIN Orders ON Customers.CustomerID = "
        "Orders.CustomerID;");
    free(sql);
    /* every query of the file rebuilds; tables are not queries */
    size_t n = jet_catalog_count(db), nq = 0;
    for (size_t i = 0; i < n; i++) {
        const jet_object *e = jet_catalog_at(db, i);
        if (e->kind != JET_OBJ_QUERY) {
            ck_assert_int_eq(jet_query_load(&q, db, e), JET_ENOTFOUND);
            continue;
        }
        ck_assert_int_eq(jet_query_load(&q, db, e), JET_OK);
        ck_assert_uint_gt(q->nrows, 0);
        ck_assert_int_eq(sql_saved_text(&sql, q, &err), 0);
        free(sql);
        nq++;
    }
    ck_assert_uint_eq(nq, 22);   /* 20 views, 2 parameter queries */
    jet_db_close(db);
}
END_TEST

START_TEST(call_of_a_parameter_query_becomes_its_select)
{
    jet_db *db = open_fixture("mdbtestdata/nwind.mdb");
    if (!db)
        return;
    sql_call c;
    sql_error err;
    const char *sql = "{call [Employee Sales by Country](?, ?)}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 1);
    ck_assert(strstr(c.sql, "WHERE (((Orders.ShippedDate) Between ? And ?))")
              != NULL);
    ck_assert(strstr(c.sql, "FROM [Employees] INNER JOIN ([Orders] INNER "
                            "JOIN [Order Subtotals] ON ") != NULL);
    ck_assert_uint_eq(c.nargs, 2);
    ck_assert_uint_eq(c.nmarks, 2);
    ck_assert_uint_eq(c.map[0], 0);
    ck_assert_uint_eq(c.map[1], 1);
    sql_call_free(&c);
    /* a literal argument is written in; the other stays a marker */
    sql = " { ?= CALL \"Employee Sales by Country\" (#1/1/95#, ?) } ";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 1);
    ck_assert(strstr(c.sql, "Between (#1/1/95#) And ?") != NULL);
    ck_assert_uint_eq(c.nargs, 1);
    ck_assert_uint_eq(c.nmarks, 1);
    ck_assert_uint_eq(c.map[0], 0);
    sql_call_free(&c);
    /* form references declared as parameters are parameters too */
    sql = "call [Sales by Year](?,?)";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 1);
    ck_assert(strstr(c.sql, "Is Not Null And (Orders.ShippedDate) Between ? "
                            "And ?") != NULL);
    sql_call_free(&c);
    /* a form reference is a parameter, as Access prompts for it */
    sql = "{call [Invoices Filter](?)}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 1);
    ck_assert(strstr(c.sql, "WHERE (((Invoices.OrderID)=?))") != NULL);
    ck_assert_uint_eq(c.nargs, 1);
    ck_assert_uint_eq(c.nmarks, 1);
    ck_assert_uint_eq(c.map[0], 0);
    sql_call_free(&c);
    /* not calls */
    sql = "SELECT * FROM Orders";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 0);
    sql = "callers";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), 0);
    /* calls that cannot run */
    sql = "{call [Sales by Year](?)}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), -1);
    ck_assert_str_eq(err.sqlstate, "07002");
    ck_assert(strstr(err.msg, "too few") != NULL);
    sql = "{call Nope}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), -1);
    ck_assert_str_eq(err.sqlstate, "42S02");
    sql = "{call Invoices";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), -1);
    ck_assert_str_eq(err.sqlstate, "42000");
    sql = "{call [Invoices Filter]}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), -1);
    ck_assert_str_eq(err.sqlstate, "07002");
    ck_assert(strstr(err.msg, "too few") != NULL);
    sql = "{call [Invoices]('x')}";
    ck_assert_int_eq(sql_call_parse(&c, db, sql, strlen(sql), &err), -1);
    ck_assert(strstr(err.msg, "too many") != NULL);
    jet_db_close(db);
}
END_TEST

static Suite *savedquery_suite(void)
{
    Suite *s = suite_create("savedquery");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, select_with_nested_inner_joins_as_access_writes_them);
    tcase_add_test(tc, select_with_alias_where_and_order);
    tcase_add_test(tc, distinctrow_top_n_and_descending_order);
    tcase_add_test(tc, top_percent_distinct_and_select_star);
    tcase_add_test(tc, no_column_rows_select_star);
    tcase_add_test(tc, two_join_rows_between_the_same_tables_and_left_join);
    tcase_add_test(tc, inconsistent_join_types_are_an_error_not_a_crash);
    tcase_add_test(tc, hostile_rows_with_nulls_everywhere);
    tcase_add_test(tc, union_keeps_its_text_and_order);
    tcase_add_test(tc, parameters_declared_and_bound_as_markers);
    tcase_add_test(tc, form_reference_parameters_and_undeclared_forms);
    tcase_add_test(tc, crosstab_text_and_its_grouping_query);
    tcase_add_test(tc, action_and_passthrough_queries_do_not_run_as_views);
    suite_add_tcase(s, tc);
    tc = tcase_create("fixtures");
    tcase_add_test(tc, nwind_rows_read_from_the_file_rebuild_access_text);
    tcase_add_test(tc, call_of_a_parameter_query_becomes_its_select);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(savedquery_suite)
