/*
 * test_sql_engine.c - the query engine (driver/sql) over ../shared fixtures.
 *
 * Each entry of `cases` is one query over a public fixture, with the
 * expected row count, a 64-bit FNV-1a hash of the rendered rows and the
 * first row in full. The expectations were derived from the fixtures'
 * expected JSON (../shared/fixtures/expected) by a separate script that
 * filters, sorts and aggregates the JSON rows - not from this engine.
 * Rendering: values joined by '|', rows by '\n'; NULL, true/false,
 * integers, MONEY with 4 decimals, doubles as %.17g, dates as
 * "YYYY-MM-DD HH:MM:SS[.mmm]", text as UTF-8, bytes as <bin N>.
 * Skipped (77) without ../shared.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sql/engine.h"
#include "sql/sql_internal.h"       /* sql_parse_statement */
#include "sql/statement.h"          /* sql_executor_of */
#include "sqltest.h"
#include "unit.h"

#define NWIND "public/mdbtestdata/nwind.mdb"
#define ASAMPLE "public/mdbtestdata/ASampleDatabase.accdb"
#define PERF "bulk/perf.accdb"

typedef struct qcase {
    const char *file;       /* under fixtures/ */
    const char *sql;
    const char *params;     /* "i:1|t:abc|f:1.5|n|m:units|d:days", or NULL */
    long nrows;             /* expected rows */
    const char *hash;       /* FNV-1a 64 of the rendered rows, hex */
    const char *first;      /* first row rendered, or NULL when no rows */
} qcase;

/* ---------------------------------------------------------- rendering */

/* Parameters from "i:1|t:abc|...". Text goes as UTF-16LE in bufs. */
static size_t parse_params(const char *spec, jet_value *pv, uint8_t bufs[][256])
{
    size_t n = 0;
    if (!spec)
        return 0;
    const char *s = spec;
    while (*s) {
        const char *e = strchr(s, '|');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char item[256];
        snprintf(item, sizeof item, "%.*s", (int)len, s);
        jet_value *v = &pv[n];
        memset(v, 0, sizeof *v);
        switch (item[0]) {
        case 'i': v->type = JET_T_LONG; v->u.i = atoll(item + 2); break;
        case 'm': v->type = JET_T_MONEY; v->u.money = atoll(item + 2); break;
        case 'f': v->type = JET_T_DOUBLE; v->u.d = atof(item + 2); break;
        case 'd': v->type = JET_T_DATETIME; v->u.d = atof(item + 2); break;
        case 'b': v->type = JET_T_BOOL; v->u.b = item[2] == '1'; break;
        case 'n': v->type = JET_T_LONG; v->is_null = true; break;
        default: {
            /* t: ASCII/UTF-8 of BMP characters only */
            const unsigned char *u = (const unsigned char *)item + 2;
            size_t k = 0;
            while (*u) {
                uint32_t cp = *u++;
                if (cp >= 0xE0) {
                    cp = ((cp & 0x0F) << 12) | ((u[0] & 0x3Fu) << 6) |
                         (u[1] & 0x3Fu);
                    u += 2;
                } else if (cp >= 0xC0) {
                    cp = ((cp & 0x1F) << 6) | (u[0] & 0x3Fu);
                    u++;
                }
                bufs[n][k++] = (uint8_t)(cp & 0xFF);
                bufs[n][k++] = (uint8_t)(cp >> 8);
            }
            v->type = JET_T_TEXT;
            v->enc = JET_ENC_UCS2;
            v->data = bufs[n];
            v->len = k;
            break;
        }
        }
        n++;
        s += len;
        if (*s == '|')
            s++;
    }
    return n;
}

/* Run sql; all rows rendered into o; returns the row count. */
static long run(jet_db *db, const char *sql, const char *pspec, sqlt_buf *o,
                const sql_cursor_opts *opts)
{
    sql_stmt *st = NULL;
    sql_error err;
    int rc = sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err);
    ck_assert_msg(rc == 0, "prepare '%s': %s %s (pos %zu)", sql,
                  err.sqlstate, err.msg, err.position);
    jet_value pv[16];
    uint8_t bufs[16][256];
    size_t np = parse_params(pspec, pv, bufs);
    ck_assert_uint_eq(np, sql_stmt_nparams(st));
    sql_cursor *c = NULL;
    rc = sql_cursor_open(&c, st, np ? pv : NULL, opts, &err);
    ck_assert_msg(rc == 0, "open '%s': %s %s", sql, err.sqlstate, err.msg);
    long n = 0;
    size_t ncols = sql_stmt_ncols(st);
    for (;;) {
        rc = sql_cursor_next(c);
        if (rc == JET_DONE)
            break;
        ck_assert_msg(rc == JET_OK, "next '%s': %s %s", sql,
                      sql_cursor_error(c)->sqlstate,
                      sql_cursor_error(c)->msg);
        if (n)
            sqlt_puts(o, "\n");
        sqlt_render_row(o, db, c, ncols);
        n++;
    }
    sql_cursor_close(c);
    sql_stmt_free(st);
    return n;
}

/* Generated from ../shared/fixtures/expected JSON (see the header). */
static const qcase cases[] = {
    { NWIND, "SELECT * FROM Shippers", NULL, 3, "db3c362610ceb15f", "1|Speedy Express|(503) 555-9831" },
    { NWIND, "SELECT ShipperID, CompanyName FROM Shippers", NULL, 3, "297836ee2b77b8d9", "1|Speedy Express" },
    { NWIND, "SELECT s.* FROM Shippers AS s", NULL, 3, "db3c362610ceb15f", "1|Speedy Express|(503) 555-9831" },
    { NWIND, "SELECT CompanyName AS n, ShipperID FROM Shippers s", NULL, 3, "4f7810e3ac2351d1", "Speedy Express|1" },
    { NWIND, "select phone, [companyname] from [shippers];", NULL, 3, "ece52cf4def844cf", "(503) 555-9831|Speedy Express" },
    { NWIND, "SELECT `Phone` FROM `Shippers`", NULL, 3, "b204268168abe433", "(503) 555-9831" },
    { NWIND, "SELECT * FROM Categories", NULL, 8, "3b4279ab5db95e50", "1|Beverages|Soft drinks, coffees, teas, beers, and ales|<bin 10746>" },
    { NWIND, "SELECT OrderID, ProductID, UnitPrice, Quantity, Discount FROM [Order Details]", NULL, 2155, "accc7252dda49d0d", "10248|11|14.0000|12|0" },
    { NWIND, "SELECT * FROM Employees", NULL, 9, "df690a3579a6b81f", NULL },
    { ASAMPLE, "SELECT * FROM [Asset Items]", NULL, 65, "0a4eacf42d0ac8c9", "30050|Computer Hardware|GEO Rocket|220ZX|Computer|Sales|344-667|1997-09-02 00:00:00|1995.5000|12|A|44577|NULL" },
    { PERF, "SELECT * FROM customers", NULL, 1000, "db79aca68407992d", "1|Quinn Nguyen|İzmir" },
    { NWIND, "SELECT COUNT(*) FROM Orders", NULL, 1, "8efd83504ddf3132", "830" },
    { NWIND, "SELECT COUNT(*) FROM [Order Details]", NULL, 1, "86cf8620ea4eb3c4", "2155" },
    { NWIND, "SELECT COUNT(ShipRegion) FROM Orders", NULL, 1, "2f4c3f50178e5f4f", "323" },
    { NWIND, "SELECT COUNT(*) AS n, COUNT(ShippedDate) FROM Orders", NULL, 1, "a9ed56e2307b25f1", "830|809" },
    { NWIND, "SELECT MIN(OrderDate), MAX(OrderDate) FROM Orders", NULL, 1, "42d4dd3be27810a0", "1994-08-04 00:00:00|1996-06-05 00:00:00" },
    { NWIND, "SELECT SUM(Freight) FROM Orders", NULL, 1, "3cee9138f8f426f5", "64942.6900" },
    { NWIND, "SELECT AVG(Freight) FROM Orders", NULL, 1, "61a3906f8791a7c2", "78.2442" },
    { NWIND, "SELECT SUM(Quantity) FROM [Order Details]", NULL, 1, "181622d3f2f1876e", "51317" },
    { NWIND, "SELECT AVG(Quantity) FROM [Order Details]", NULL, 1, "1fe7d827612a3bfc", "23.812993039443157" },
    { NWIND, "SELECT SUM(Discount) FROM [Order Details]", NULL, 1, "64c2d96d2948e86b", "121.04000180587173" },
    { NWIND, "SELECT MIN(CompanyName), MAX(CompanyName) FROM Customers", NULL, 1, "86bcf843ebd97e9d", "Alfreds Futterkiste|Wolski  Zajazd" },
    { NWIND, "SELECT MIN(UnitPrice), MAX(UnitPrice), SUM(UnitsInStock) FROM Products", NULL, 1, "0c379d9a6a072964", "2.5000|263.5000|3119" },
    { NWIND, "SELECT COUNT(*) FROM Orders WHERE EmployeeID = 5", NULL, 1, "9b199d00c5de8f25", "42" },
    { NWIND, "SELECT COUNT(*) FROM Orders WHERE 1=0", NULL, 1, "44bd5bd473cd4929", "0" },
    { NWIND, "SELECT SUM(Freight) FROM Orders WHERE 1=0", NULL, 1, "8eb7f607d0756596", "NULL" },
    { NWIND, "SELECT MAX(ShipRegion) FROM Orders WHERE ShipRegion IS NULL", NULL, 1, "8eb7f607d0756596", "NULL" },
    { NWIND, "SELECT COUNT(*) + 1, SUM(Quantity) * 2 FROM [Order Details]", NULL, 1, "f76b38e77c50c9c5", "2156|102634" },
    { NWIND, "SELECT SUM(UnitPrice * Quantity) FROM [Order Details] WHERE OrderID = 10248", NULL, 1, "ff0ed71944fe4145", "440.0000" },
    { NWIND, "SELECT COUNT(*) FROM Products WHERE Discontinued", NULL, 1, "44bd63d473cd56c1", "8" },
    { NWIND, "SELECT SUM(Discontinued) FROM Products", NULL, 1, "9afb1d00c5c4b816", "-8" },
    { ASAMPLE, "SELECT SUM(Cost), COUNT(*) FROM [Asset Items]", NULL, 1, "d4446ecce5615eab", "98164.5000|65" },
    { PERF, "SELECT COUNT(*) FROM orders", NULL, 1, "29832900b16cb8d6", "10000" },
    { PERF, "SELECT COUNT(city), COUNT(*) FROM customers", NULL, 1, "79dab2d063655299", "977|1000" },
    { NWIND, "SELECT OrderID, CustomerID, Freight FROM Orders WHERE OrderID = 10248", NULL, 1, "ce97ae9203e7990e", "10248|VINET|32.3800" },
    { NWIND, "SELECT OrderID, CustomerID FROM Orders WHERE OrderID = ?", "i:10300", 1, "3d2ae6f8db533cba", "10300|MAGAA" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID IN (10250, 10248, 99999, 10250) ORDER BY OrderID", NULL, 2, "11f5ea5a9844c86e", "10248" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID BETWEEN 10300 AND 10310 ORDER BY OrderID", NULL, 11, "b63a9acd7af0a345", "10300" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID > 11070 ORDER BY OrderID", NULL, 7, "a35b25da949fdd08", "11071" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID >= 11070 AND OrderID < 11075 ORDER BY OrderID", NULL, 5, "2b75d3cdddd48b64", "11070" },
    { NWIND, "SELECT OrderID FROM Orders WHERE 11075 > OrderID AND 11070 <= OrderID ORDER BY OrderID DESC", NULL, 5, "0d1431e51455f14c", "11074" },
    { NWIND, "SELECT OrderID, EmployeeID FROM Orders WHERE EmployeeID = 5", NULL, 42, "98d2cdccd63a920b", "10333|5" },
    { NWIND, "SELECT OrderID FROM Orders WHERE EmployeeID IN (1,2) AND ShipVia = 3 ORDER BY OrderID", NULL, 66, "31cb3810d100c427", "10277" },
    { NWIND, "SELECT OrderID FROM Orders WHERE EmployeeID = ? AND ShipVia = ?", "i:4|i:2", 70, "4045632647d247da", "10342" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID = 10248.5", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID = 10248.0", NULL, 1, "19176300a8613b2c", "10248" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID < -5", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID = ?", "n", 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID = ?", "t:10249", 1, "19176400a8613cdf", "10249" },
    { NWIND, "SELECT * FROM [Order Details] WHERE OrderID = 10248 AND ProductID = 42", NULL, 1, "e5841eb2a85119a6", "10248|42|9.8000|10|0" },
    { NWIND, "SELECT * FROM [Order Details] WHERE OrderID = 10250 ORDER BY ProductID", NULL, 3, "7121b6e922670921", "10250|41|7.7000|10|0" },
    { NWIND, "SELECT ProductID FROM [Order Details] WHERE OrderID = 10250 AND ProductID > 41 ORDER BY ProductID", NULL, 2, "65af91d41ecb4c58", "51" },
    { NWIND, "SELECT OrderID, ProductID FROM [Order Details] WHERE ProductID = 11 ORDER BY OrderID DESC", NULL, 38, "2ac85c2ffcc7d51b", "11073|11" },
    { NWIND, "SELECT ProductName FROM Products WHERE CategoryID IN (?, ?) ORDER BY ProductID", "i:7|i:2", 17, "4d358d33331b885a", "Aniseed Syrup" },
    { NWIND, "SELECT ProductID FROM Products WHERE SupplierID BETWEEN ? AND ? ORDER BY ProductID", "i:3|i:5", 8, "8eb07f7d7ad8a694", "6" },
    { NWIND, "SELECT OrderID, Freight FROM Orders WHERE Freight > 500", NULL, 13, "a66f8a1138f549fb", "10372|890.7800" },
    { NWIND, "SELECT OrderID FROM Orders WHERE Freight = 12.75", NULL, 1, "2062fc00ac201850", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE Freight < 1.5", NULL, 44, "8fa87ca1aeaa5b0a", "10333" },
    { NWIND, "SELECT OrderID FROM Orders WHERE Freight = ?", "m:323800", 1, "19176300a8613b2c", "10248" },
    { NWIND, "SELECT OrderID FROM Orders WHERE Freight >= ? AND Freight <= 1.3", "f:0.2", 33, "5193f92597bb5b03", "10333" },
    { NWIND, "SELECT ProductName, UnitPrice FROM Products WHERE UnitPrice BETWEEN 10 AND 12.5", NULL, 6, "9f9a32804baa8378", "Aniseed Syrup|10.0000" },
    { NWIND, "SELECT OrderID, ProductID FROM [Order Details] WHERE Discount = 0.25", NULL, 154, "b93ccf0edcf7c029", "10260|41" },
    { NWIND, "SELECT OrderID, ProductID FROM [Order Details] WHERE Discount > 0.1 AND Quantity >= 100", NULL, 9, "5c6d0f1ba55861c1", "10398|55" },
    { NWIND, "SELECT ProductName FROM Products WHERE UnitsInStock = 0 OR UnitsOnOrder > 70", NULL, 7, "405cfdb72b5e5c37", "Chef Anton's Gumbo Mix" },
    { NWIND, "SELECT ProductName FROM Products WHERE UnitsInStock < ReorderLevel", NULL, 18, "c79be4613616c6c7", "Chang" },
    { NWIND, "SELECT ProductName FROM Products WHERE Discontinued = TRUE", NULL, 8, "cb88684848826df1", "Chef Anton's Gumbo Mix" },
    { NWIND, "SELECT ProductName FROM Products WHERE Discontinued = -1", NULL, 8, "cb88684848826df1", "Chef Anton's Gumbo Mix" },
    { NWIND, "SELECT ProductName FROM Products WHERE Discontinued = 1", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT COUNT(*) FROM Products WHERE NOT Discontinued", NULL, 1, "9b132600c5d95942", "69" },
    { NWIND, "SELECT ProductName FROM Products WHERE Discontinued = FALSE AND CategoryID = 1", NULL, 11, "9aeefb0f72e5ff22", "Chai" },
    { PERF, "SELECT id, m FROM numeric WHERE m = -922337203685477.5808", NULL, 1, "a2cdff842554afe2", "1|-922337203685477.5808" },
    { PERF, "SELECT id FROM numeric WHERE m > 922337203685477.5806 AND id < 10", NULL, 1, "44bd59d473cd45c3", "2" },
    { PERF, "SELECT id, d FROM numeric WHERE id IN (4, 5, 6, 7) AND d < 1", NULL, 2, "9734dbf05a9e9e98", "4|4.9406564584124654e-324" },
    { PERF, "SELECT id FROM numeric WHERE id <= 5 AND l = -2147483648", NULL, 1, "44bd5ad473cd4776", "1" },
    { PERF, "SELECT id, dt FROM numeric WHERE id <= 5 AND dt < #1900-01-01#", NULL, 3, "0fc0dba310cfc303", "1|0100-01-01 00:00:00" },
    { PERF, "SELECT id FROM numeric WHERE id < 6 AND dt = #2020-02-29 12:34:56#", NULL, 0, "14650fb0739d0383", NULL },
    { PERF, "SELECT id, b FROM numeric WHERE id BETWEEN 1 AND 5 AND b", NULL, 2, "5839961fa493a26d", "2|true" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion IS NULL", NULL, 507, "fa438576e0dd9883", "10331" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion IS NOT NULL AND EmployeeID = 1", NULL, 50, "5ce8bc284e8b0ee6", "10292" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion = NULL", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion <> 'WA'", NULL, 304, "12a58fdcca831914", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE NOT (ShipRegion = 'WA')", NULL, 304, "12a58fdcca831914", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion = 'WA' OR ShipRegion IS NULL", NULL, 526, "6fabdfab27833fc7", "10331" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion NOT IN ('WA', NULL)", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipRegion IN ('WA', NULL)", NULL, 19, "7d139ad7770158db", "10344" },
    { NWIND, "SELECT OrderID FROM Orders WHERE NOT (ShipRegion = 'WA' AND 1 = 0)", NULL, 830, "9f3b666f86f1f8dc", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE (ShipRegion = 'XX') OR (EmployeeID = 9 AND ShipRegion IS NULL)", NULL, 29, "6fc97f2e300ef1a0", "10331" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShippedDate IS NULL", NULL, 21, "6f366b96f7be84b8", "11008" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShippedDate > RequiredDate", NULL, 37, "1a4731d193a4fff9", "10264" },
    { NWIND, "SELECT LastName FROM Employees WHERE ReportsTo IS NULL", NULL, 1, "5a257af6b29ddf79", "Fuller" },
    { NWIND, "SELECT LastName FROM Employees WHERE ReportsTo <> 2", NULL, 3, "8602888ae0de4dfe", "Suyama" },
    { NWIND, "SELECT LastName FROM Employees WHERE NOT ReportsTo IN (2)", NULL, 3, "8602888ae0de4dfe", "Suyama" },
    { NWIND, "SELECT LastName FROM Employees WHERE ReportsTo BETWEEN 1 AND 3 XOR EmployeeID > 5", NULL, 7, "c43f024defef2a00", "Davolio" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipCountry = 'france'", NULL, 77, "0664bb9c58956341", "10331" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipCountry <> 'USA' AND EmployeeID = 2", NULL, 87, "a53d46d54c58d347", "10339" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShipCountry != 'usa' AND EmployeeID = 3", NULL, 106, "26df8e310fb5be18", "10330" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Country IN ('germany', 'FRANCE', 'Uk')", NULL, 29, "a675592ac2fda3d9", "ALFKI" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Country NOT IN ('Germany', 'USA')", NULL, 67, "400234774417b288", "ANATR" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Country = \"Germany\"", NULL, 11, "1154a5069eab0a84", "ALFKI" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE City = 'méxico d.f.'", NULL, 5, "9e4eba1e4e34d68b", "ANATR" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE City = 'mexico d.f.'", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CustomerID > 'W'", NULL, 6, "4563aee270fbfad9", "WANDK" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName BETWEEN 'b' AND 'C' ORDER BY CustomerID", NULL, 7, "cc74e383a171cec6", "BERGS" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CustomerID = ?", "t:alfki", 1, "0932e6719fa46fb0", "ALFKI" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Region = Country", NULL, 0, "14650fb0739d0383", NULL },
    { PERF, "SELECT customer_id, city FROM customers WHERE city = 'zürich'", NULL, 48, "31103f139141bbf0", "14|Zürich" },
    { PERF, "SELECT customer_id FROM customers WHERE city = 'ZÜRICH'", NULL, 48, "79b6368d256c868e", "14" },
    { PERF, "SELECT customer_id FROM customers WHERE city = 'zurich'", NULL, 0, "14650fb0739d0383", NULL },
    { PERF, "SELECT customer_id FROM customers WHERE city = 'МОСКВА'", NULL, 43, "f413e5fe927f4939", "38" },
    { PERF, "SELECT customer_id FROM customers WHERE city = 'izmir'", NULL, 40, "98568ae44fc3174b", "1" },
    { PERF, "SELECT customer_id FROM customers WHERE city = '東京'", NULL, 31, "f715203e03e4359d", "6" },
    { PERF, "SELECT customer_id, name FROM customers WHERE name >= 'Z' AND city IS NULL", NULL, 1, "7dfc5edc8bb73a23", "157|Zoë Ivanova" },
    { PERF, "SELECT customer_id FROM customers WHERE city = ?", "t:MONTRÉAL", 43, "6bf81572a7848601", "7" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE 'A*'", NULL, 4, "13038430964803d5", "Alfreds Futterkiste" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE 'a%'", NULL, 4, "13038430964803d5", "Alfreds Futterkiste" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '*market*'", NULL, 4, "b3c95366d735595c", "Bottom-Dollar Markets" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '%MARKET%'", NULL, 4, "b3c95366d735595c", "Bottom-Dollar Markets" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '?a*'", NULL, 18, "844e3c958d829afb", "Cactus Comidas para llevar" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '_a%s'", NULL, 4, "b61c13a885a14fba", "Hanari Carnes" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '[A-C]*'", NULL, 16, "73928b8aef666afd", "Alfreds Futterkiste" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE '[!A-S]*'", NULL, 14, "830b21892fac1c52", "The Big Cheese" },
    { NWIND, "SELECT CustomerID, PostalCode FROM Customers WHERE PostalCode LIKE '#####'", NULL, 50, "57e84d6d5539313c", "ALFKI|12209" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Phone LIKE '*[0-4]'", NULL, 55, "80bbd6b4d5d7f303", "ALFKI" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName NOT LIKE '*a*'", NULL, 16, "f2ed0750f9ea89d3", "BLONP" },
    /* (a LIKE prefix seeks the CompanyName index: rows in General order) */
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName ALIKE 'B%'", NULL, 7, "720666dbd6a210de", "BSBEV" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName ALIKE 'B*'", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Region LIKE '*'", NULL, 31, "6ca46d09c03c96b5", "BOTTM" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName LIKE ?", "t:*ca*", 13, "5501dfa699d916f8", "CACTU" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName LIKE 'b*' AND CompanyName LIKE '*s'", NULL, 4, "7d66d65404465a5c", "BSBEV" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Address LIKE '*[.]*'", NULL, 39, "37446c6248094689", "ALFKI" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE CompanyName LIKE '*s*s*s*'", NULL, 11, "b33cde171abf72bf", "BLAUS" },
    { PERF, "SELECT customer_id FROM customers WHERE name LIKE '*ø*'", NULL, 86, "f26f821f4314cec4", "18" },
    { PERF, "SELECT customer_id FROM customers WHERE city LIKE 'm%'", NULL, 86, "bb7e54168f573760", "7" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = #1994-11-16#", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = #11/16/1994#", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = {d '1994-11-16'}", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = {ts '1994-11-16 00:00:00'}", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID, OrderDate FROM Orders WHERE OrderDate >= #1/1/1996# AND OrderDate < #2/1/1996# ORDER BY OrderID", NULL, 48, "ba7696b370b06523", "10760|1996-01-01 00:00:00" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate BETWEEN {d '1995-01-01'} AND {d '1995-01-31'} ORDER BY OrderID", NULL, 31, "2fb9712b86887c5d", "10369" },
    { NWIND, "SELECT OrderID FROM Orders WHERE YEAR(OrderDate) = 1995 AND MONTH(OrderDate) = 3", NULL, 33, "0936bfe154128903", "10429" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate > ? ORDER BY OrderID", "d:35186", 84, "a018dfcb2dd2e25f", "10994" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = ?", "t:1994-11-16", 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderDate = '11/16/1994'", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ShippedDate < #11/20/94# ORDER BY OrderID", NULL, 79, "5ceb7300e859fdfa", "10248" },
    { NWIND, "SELECT LastName FROM Employees WHERE BirthDate < #1950-01-01 10:30#", NULL, 2, "6fa6fb8e217ee209", "Davolio" },
    { NWIND, "SELECT LastName FROM Employees WHERE HireDate > {ts '1993-10-17 00:00:00'}", NULL, 3, "4a34c1efacfc2a02", "King" },
    { PERF, "SELECT order_id FROM orders WHERE order_date = #8/6/2015 12:29:00 AM# AND order_id < 6", NULL, 1, "44bd5ad473cd4776", "1" },
    { PERF, "SELECT order_id FROM orders WHERE order_date = #2015-08-06 00:29# AND order_id < 6", NULL, 1, "44bd5ad473cd4776", "1" },
    { NWIND, "SELECT CompanyName FROM Customers ORDER BY CompanyName", NULL, 91, "0d7e38a223be479c", "Alfreds Futterkiste" },
    { NWIND, "SELECT Country, City, CustomerID FROM Customers ORDER BY Country, City DESC", NULL, 91, "46963ffb5a19bdef", "Argentina|Buenos Aires|CACTU" },
    { NWIND, "SELECT CustomerID, Region FROM Customers ORDER BY Region", NULL, 91, "21ac9ae3167d5356", "ALFKI|NULL" },
    { NWIND, "SELECT CustomerID, Region FROM Customers ORDER BY Region DESC", NULL, 91, "1dde2f02444156fa", "SPLIR|WY" },
    { NWIND, "SELECT OrderID FROM Orders ORDER BY OrderID DESC", NULL, 830, "2f8098df00dcf918", "11077" },
    { NWIND, "SELECT OrderID FROM Orders ORDER BY OrderID", NULL, 830, "b892e74a28bd1640", "10248" },
    { NWIND, "SELECT OrderID, Freight FROM Orders ORDER BY Freight DESC", NULL, 830, "3267f5d4251f024b", "10540|1007.6400" },
    { NWIND, "SELECT OrderID, OrderDate FROM Orders ORDER BY OrderDate, OrderID", NULL, 830, "f0280e31130346ea", "10248|1994-08-04 00:00:00" },
    { NWIND, "SELECT OrderID, ShippedDate FROM Orders ORDER BY ShippedDate DESC, OrderID", NULL, 830, "996a319cef299d5d", "11063|1996-06-05 00:00:00" },
    { NWIND, "SELECT ProductName AS pn, UnitPrice FROM Products ORDER BY pn DESC", NULL, 77, "5bcf3ada89da1c84", "Zaanse koeken|9.5000" },
    { NWIND, "SELECT ProductName FROM Products ORDER BY UnitPrice DESC, ProductName", NULL, 77, "95ff2eb53d8f5129", "Côte de Blaye" },
    { NWIND, "SELECT ProductName FROM Products ORDER BY LEN(ProductName), ProductID", NULL, 77, "0a8330a741107aa5", "Chai" },
    { NWIND, "SELECT OrderID, EmployeeID FROM Orders WHERE OrderID < 10260 ORDER BY EmployeeID, OrderID", NULL, 12, "796aa89c21114f24", "10258|1" },
    { NWIND, "SELECT ProductID FROM Products WHERE CategoryID = 2 ORDER BY ProductID DESC", NULL, 12, "8455277386e0fcfc", "77" },
    { NWIND, "SELECT Discontinued, ProductID FROM Products ORDER BY Discontinued, ProductID DESC", NULL, 77, "38088bb8c2a2d597", "true|53" },
    { NWIND, "SELECT OrderID, ProductID, Discount FROM [Order Details] WHERE OrderID < 10300 ORDER BY Discount DESC, OrderID, ProductID", NULL, 140, "65ac49885ca6ec0e", "10260|41|0.25" },
    { PERF, "SELECT name, city FROM customers ORDER BY city, name", NULL, 1000, "e0dc6559dec529ce", "Ben Van der Berg|NULL" },
    { PERF, "SELECT customer_id, name FROM customers ORDER BY name DESC", NULL, 1000, "89de9c59f1b7b4f1", "717|Zoë Yılmaz" },
    { ASAMPLE, "SELECT [Asset No], Cost FROM [Asset Items] ORDER BY Cost DESC, [Asset No]", NULL, 65, "0001ffd3a62c8144", "30071|6799.0000" },
    { ASAMPLE, "SELECT [Asset No], Acquired FROM [Asset Items] ORDER BY Acquired", NULL, 65, "a4b782352005e2fe", "30050|1997-09-02 00:00:00" },
    { NWIND, "SELECT TOP 5 OrderID, Freight FROM Orders ORDER BY Freight DESC", NULL, 5, "f7fd5cd91d9e4ff4", "10540|1007.6400" },
    { NWIND, "SELECT TOP 3 OrderID, EmployeeID FROM Orders ORDER BY EmployeeID", NULL, 123, "01fe3b858cb23465", "10340|1" },
    { NWIND, "SELECT TOP 2 * FROM Orders ORDER BY OrderID", NULL, 2, "aafb0cd3142fd780", "10248|VINET|5|1994-08-04 00:00:00|1994-09-01 00:00:00|1994-08-16 00:00:00|3|32.3800|Vins et alcools Chevalier|59 rue de l'Abbaye|Reims|NULL|51100|France" },
    { NWIND, "SELECT TOP 2 OrderID FROM Orders ORDER BY OrderID DESC", NULL, 2, "d2a30cedc8b72cc0", "11077" },
    { NWIND, "SELECT TOP 5 OrderID FROM Orders", NULL, 5, "0bbf632304b0b4e0", "10330" },
    { NWIND, "SELECT TOP 10 PERCENT OrderID, Freight FROM Orders ORDER BY Freight", NULL, 83, "a6c9fa4056575bdf", "10972|0.0200" },
    { NWIND, "SELECT TOP 50 PERCENT ProductName FROM Products ORDER BY CategoryID", NULL, 47, "dcd10cac51beb3d7", "Chai" },
    { NWIND, "SELECT TOP 1 PERCENT CustomerID FROM Customers", NULL, 1, "0932e6719fa46fb0", "ALFKI" },
    { NWIND, "SELECT TOP 0 * FROM Orders", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT TOP 4 ProductName, UnitPrice FROM Products ORDER BY UnitPrice", NULL, 4, "33f98e5a06477bff", "Geitost|2.5000" },
    { NWIND, "SELECT TOP 1 CustomerID, Region FROM Customers ORDER BY Region", NULL, 60, "3b9bd27a233834f1", "ALFKI|NULL" },
    { NWIND, "SELECT TOP 3 OrderID FROM Orders WHERE EmployeeID = 7 ORDER BY OrderID DESC", NULL, 3, "d659e8fe0b602126", "11074" },
    { NWIND, "SELECT TOP 6 OrderID, OrderDate FROM Orders ORDER BY OrderDate DESC", NULL, 8, "348a06e2ff01a86f", "11074|1996-06-05 00:00:00" },
    { PERF, "SELECT TOP 3 order_id, amount FROM orders ORDER BY order_id DESC", NULL, 3, "0686c3eeeec45187", "10000|2306.4300" },
    { NWIND, "SELECT DISTINCT Country FROM Customers", NULL, 21, "7d864cf87db0975d", "Argentina" },
    { NWIND, "SELECT DISTINCT Country, City FROM Customers ORDER BY Country DESC", NULL, 69, "675360284339834f", "Venezuela|Barquisimeto" },
    { NWIND, "SELECT DISTINCT ShipRegion FROM Orders", NULL, 20, "ad4eccc402a19064", "NULL" },
    { NWIND, "SELECT DISTINCT TOP 3 Country FROM Customers ORDER BY Country", NULL, 3, "18dcafaef7fe7e3a", "Argentina" },
    { NWIND, "SELECT DISTINCT EmployeeID FROM Orders WHERE ShipCountry = 'Brazil'", NULL, 9, "ec831aa2302d291e", "1" },
    { NWIND, "SELECT DISTINCT UCASE(LEFT(CompanyName, 1)) AS l FROM Customers", NULL, 21, "ddca8190bbe42dd0", "A" },
    { PERF, "SELECT DISTINCT city FROM customers ORDER BY city DESC", NULL, 25, "a5ea6ccb5581d6b8", "東京" },
    { NWIND, "SELECT OrderID FROM Orders ORDER BY OrderID LIMIT 5", NULL, 5, "54c8ee05a14c486f", "10248" },
    { NWIND, "SELECT OrderID FROM Orders ORDER BY OrderID LIMIT 5 OFFSET 10", NULL, 5, "a41044fbc869e52c", "10258" },
    { NWIND, "SELECT OrderID FROM Orders ORDER BY OrderID OFFSET 825 ROWS", NULL, 5, "e1ac29af65fe5b71", "11073" },
    { NWIND, "SELECT OrderID, Freight FROM Orders ORDER BY Freight OFFSET 10 ROWS FETCH NEXT 3 ROWS ONLY", NULL, 3, "a3dd7329f4b67fcf", "10586|0.4800" },
    { NWIND, "SELECT OrderID FROM Orders FETCH FIRST 2 ROWS ONLY", NULL, 2, "2d937b9b86b0bcc4", "10330" },
    { NWIND, "SELECT OrderID, EmployeeID FROM Orders ORDER BY EmployeeID LIMIT 3", NULL, 3, "fe826142a0278892", "10340|1" },
    { NWIND, "SELECT CustomerID FROM Customers LIMIT 0", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT CustomerID FROM Customers ORDER BY CustomerID DESC LIMIT 2 OFFSET 89", NULL, 2, "eedd670a851da986", "ANATR" },
    { NWIND, "SELECT CustomerID FROM Customers WHERE Country = 'USA' OFFSET 5 ROWS", NULL, 8, "ee20420fb6ae52a3", "OLDWO" },
    { NWIND, "SELECT UCASE(CompanyName), LCASE(Phone) FROM Shippers", NULL, 3, "cd3dbfa1c5d9a207", "SPEEDY EXPRESS|(503) 555-9831" },
    { NWIND, "SELECT {fn UCASE(CompanyName)}, {fn LENGTH(CompanyName)} FROM Shippers", NULL, 3, "acc607f3cec5abc6", "SPEEDY EXPRESS|14" },
    { NWIND, "SELECT LEFT(CompanyName, 3), RIGHT(CompanyName, 4), MID(CompanyName, 2, 3) FROM Shippers", NULL, 3, "d0e1cd9b96c9a122", "Spe|ress|pee" },
    { NWIND, "SELECT {fn SUBSTRING(CompanyName, 7, 100)}, {fn LEFT(Phone, 5)} FROM Shippers", NULL, 3, "b9497a076bdf9f36", " Express|(503)" },
    { NWIND, "SELECT {fn CONCAT(FirstName, LastName)}, FirstName & ' ' & LastName FROM Employees", NULL, 9, "d13e0f746e1a4e09", "NancyDavolio|Nancy Davolio" },
    { NWIND, "SELECT CustomerID & Region FROM Customers WHERE Country = 'Mexico'", NULL, 5, "9e4eba1e4e34d68b", "ANATR" },
    { NWIND, "SELECT LTRIM('  x '), RTRIM('  x '), TRIM('  x '), LEN('  x ') FROM Shippers WHERE ShipperID = 1", NULL, 1, "70568f3f0eabe183", "x |  x|x|4" },
    { NWIND, "SELECT {fn LOCATE('e', CompanyName)}, INSTR(CompanyName, 'E') FROM Shippers", NULL, 3, "2466211c57eb637d", "3|3" },
    { NWIND, "SELECT OrderID, ROUND(Freight, 1), FLOOR(Freight), CEILING(Freight) FROM Orders WHERE OrderID < 10255 ORDER BY OrderID", NULL, 7, "45b01425aaa0874a", "10248|32.4000|32.0000|33.0000" },
    { NWIND, "SELECT OrderID MOD 7, {fn MOD(OrderID, 5)}, OrderID \\ 1000 FROM Orders WHERE OrderID < 10252 ORDER BY OrderID", NULL, 4, "e92fd11da0d11ecf", "0|3|10" },
    { NWIND, "SELECT Quantity / 2, Quantity * 2 + 1, -Quantity FROM [Order Details] WHERE OrderID = 10248 ORDER BY ProductID", NULL, 3, "8bcfad857dd6e685", "6|25|-12" },
    { NWIND, "SELECT UnitPrice * Quantity, UnitPrice + 1, ABS(-UnitPrice) FROM [Order Details] WHERE OrderID = 10249 ORDER BY ProductID", NULL, 2, "9c57b184ac26d511", "167.4000|19.6000|18.6000" },
    { NWIND, "SELECT YEAR(OrderDate), MONTH(OrderDate), DAY(OrderDate), {fn DAYOFMONTH(OrderDate)} FROM Orders WHERE OrderID = 10330", NULL, 1, "ce630bf752474c48", "1994|11|16|16" },
    { NWIND, "SELECT HOUR(#1/2/2000 13:45:30#), MINUTE(#1/2/2000 13:45:30#), SECOND({t '13:45:30'}) FROM Shippers WHERE ShipperID = 2", NULL, 1, "f1d28b103bbc91b5", "13|45|30" },
    { NWIND, "SELECT SQRT(16), POWER(2, 10), SGN(-3), ABS(-2.5) FROM Shippers WHERE ShipperID = 3", NULL, 1, "22c7dd6a62a4b5fd", "4|1024|-1|2.5" },
    { NWIND, "SELECT 1, 'x', TRUE, NULL, 2.5, #2024-03-01# FROM Shippers", NULL, 3, "e2e79fdf577bf556", "1|x|true|NULL|2.5|2024-03-01 00:00:00" },
    { NWIND, "SELECT ShipperID + 0.5 AS h FROM Shippers ORDER BY h DESC", NULL, 3, "967af476f283aee0", "3.5" },
    { NWIND, "SELECT ProductName FROM Products WHERE LEN(ProductName) > 25", NULL, 9, "b5cd1f427992ff68", "Chef Anton's Cajun Seasoning" },
    { NWIND, "SELECT ProductName FROM Products WHERE UCASE(ProductName) = 'CHAI'", NULL, 1, "7ee8799c9a9d4116", "Chai" },
    { NWIND, "SELECT ProductName FROM Products WHERE UnitPrice * UnitsInStock > 3000", NULL, 5, "9fa8c5a122e4dcb1", "Queso Manchego La Pastora" },
    { NWIND, "SELECT ProductName FROM Products WHERE UnitsInStock + UnitsOnOrder < ReorderLevel", NULL, 2, "e95d2a57d9404744", "Nord-Ost Matjeshering" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID = 10247 + ?", "i:3", 1, "191af100a864624d", "10250" },
    { NWIND, "SELECT ProductName FROM Products WHERE LEFT(ProductName, ?) = ?", "i:2|t:CH", 6, "0b2644517557d307", "Chai" },
    { NWIND, "SELECT CompanyName FROM Customers WHERE CompanyName LIKE 'b' & '*'", NULL, 7, "bdb7ebb7c36280f5", "Berglunds snabbköp" },
    { NWIND, "SELECT ProductID FROM Products WHERE CategoryID IN (SupplierID, 99)", NULL, 6, "138388657692fbe6", "1" },
    { NWIND, "SELECT LastName FROM Employees WHERE YEAR(HireDate) = 1994 ORDER BY HireDate DESC", NULL, 3, "065291daf7b01e78", "Dodsworth" },
    { ASAMPLE, "SELECT [Asset No] FROM [Asset Items] WHERE [Asset Category] = 'computer hardware'", NULL, 24, "e3509047865779e8", "30050" },
    { ASAMPLE, "SELECT [Asset No], Cost FROM [Asset Items] WHERE [Asset No] = '30050'", NULL, 1, "550c75f4ec970fba", "30050|1995.5000" },
    { ASAMPLE, "SELECT TOP 3 Make, Cost FROM [Asset Items] ORDER BY Cost DESC", NULL, 4, "e89163f8e7063940", "Sandly|6799.0000" },
    { ASAMPLE, "SELECT COUNT(*) FROM [Asset Items] WHERE Acquired >= #1/1/1998#", NULL, 1, "9b132e00c5d966da", "61" },
    { ASAMPLE, "SELECT DISTINCT Owner FROM [Asset Items]", NULL, 5, "4565b9de2c3e1f75", "Admin & Accounts" },
    { PERF, "SELECT * FROM orders WHERE order_id <= 5", NULL, 5, "6e9d0c213766d03a", "1|365|2015-08-06 00:29:00|64.6900|returned" },
    { PERF, "SELECT order_id, status FROM orders WHERE order_id BETWEEN 9996 AND 10000", NULL, 5, "81c0e16e78013643", "9996|shipped" },
    { PERF, "SELECT order_id FROM orders WHERE order_id IN (3, 9999, 20000)", NULL, 2, "0f4ec8392f428f3a", "3" },
    { PERF, "SELECT id, i, l FROM numeric WHERE id < 3", NULL, 2, "62c21a1e2e80f658", "1|-32768|-2147483648" },
    { PERF, "SELECT SUM(l) FROM numeric WHERE id <= 5", NULL, 1, "9afb2600c5c4c761", "-1" },
    { PERF, "SELECT SUM(m) FROM numeric WHERE id BETWEEN 3 AND 5", NULL, 1, "841403be0abf8ef5", "0.0000" },
    { PERF, "SELECT MIN(dt), MAX(dt) FROM numeric WHERE id <= 5", NULL, 1, "b7cac527ad3c9b46", "0100-01-01 00:00:00|9999-12-31 23:59:59" },
    { NWIND, "SELECT \"CompanyName\", \"x\" FROM Shippers WHERE ShipperID < 3", NULL, 2, "adab1185c32c6b6b", "CompanyName|x" },
    { NWIND, "SELECT `CompanyName`, \"x\" FROM Shippers WHERE ShipperID < 3", NULL, 2, "ca18f525749632ae", "Speedy Express|x" },
    { NWIND, "SELECT COUNT(*) FROM Orders WHERE ShipCity = \"ShipCity\"", NULL, 1, "44bd5bd473cd4929", "0" },
    { NWIND, "SELECT * FROM Orders WHERE 1=0", NULL, 0, "14650fb0739d0383", NULL },
    { NWIND, "SELECT COUNT(*) FROM Orders WHERE 1 = 0 OR ? = 1", "i:1", 1, "8efd83504ddf3132", "830" },
    { NWIND, "SELECT OrderID FROM Orders WHERE ? IS NULL AND OrderID = 10248", "n", 1, "19176300a8613b2c", "10248" },
    { NWIND, "SELECT OrderID FROM Orders WHERE OrderID IN (?, ?, ?) ORDER BY OrderID DESC", "i:10248|n|i:10250", 2, "4e77ad5aa107bf2e", "10250" },
    { NWIND, "SELECT LastName, FirstName FROM Employees WHERE LastName LIKE ? ORDER BY LastName", "t:[d-f]*", 3, "c1b930766b7a8895", "Davolio|Nancy" },
    { NWIND, "SELECT ProductName, UnitPrice FROM Products ORDER BY 2 DESC, 1", NULL, 77, "18e222e91da92ab2", "Côte de Blaye|263.5000" },
    { NWIND, "SELECT DISTINCT Country FROM Customers ORDER BY 1 DESC", NULL, 21, "8b4f8c6c9e7f84e9", "Venezuela" },
};

static const size_t ncases = sizeof cases / sizeof cases[0];

START_TEST(query_matches_expected_json)
{
    const qcase *q = &cases[_i];
    jet_db *db = sqlt_open_fixture(q->file);
    sqlt_buf o = { NULL, 0, 0 };
    sqlt_puts(&o, "");
    long n = run(db, q->sql, q->params, &o, NULL);
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx",
             (unsigned long long)sqlt_fnv(o.p, o.len));
    if (q->first) {
        size_t fl = strlen(q->first);
        ck_assert_msg(o.len >= fl && memcmp(o.p, q->first, fl) == 0 &&
                      (o.p[fl] == '\n' || o.p[fl] == '\0'),
                      "case %d '%s': first row\n  got  '%.300s'\n  want '%s'",
                      _i, q->sql, o.p, q->first);
    }
    ck_assert_msg(n == q->nrows, "case %d '%s': %ld rows, want %ld\n%.600s",
                  _i, q->sql, n, q->nrows, o.p);
    ck_assert_msg(strcmp(hash, q->hash) == 0, "case %d '%s': rows differ "
                  "(hash %s, want %s)\n%.1500s", _i, q->sql, hash, q->hash,
                  o.p);
    free(o.p);
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------------------ errors */

static void prep_fails(jet_db *db, const char *sql, const char *state,
                       size_t pos, const char *part)
{
    sql_stmt *st = (sql_stmt *)1;
    sql_error err;
    int rc = sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err);
    ck_assert_msg(rc < 0, "'%s' prepared", sql);
    /* an SQL error, told apart from running out of memory (JET_ENOMEM) */
    ck_assert_int_eq(rc, JET_EUNSUPPORTED);
    ck_assert_ptr_null(st);
    ck_assert_msg(!strcmp(err.sqlstate, state), "'%s': %s (%s), want %s",
                  sql, err.sqlstate, err.msg, state);
    if (pos)
        ck_assert_msg(err.position == pos, "'%s': position %zu, want %zu "
                      "(%s)", sql, err.position, pos, err.msg);
    if (part)
        ck_assert_msg(strstr(err.msg, part) != NULL, "'%s': '%s' lacks "
                      "'%s'", sql, err.msg, part);
}

START_TEST(errors_name_state_and_position)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    prep_fails(db, "SELECT * FROM Nope", "42S02", 15, "Nope");
    prep_fails(db, "SELECT Nope FROM Orders", "42S22", 8, "Nope");
    prep_fails(db, "SELECT OrderID FROM Orders WHERE Bogus = 1", "42S22", 34,
               "Bogus");
    prep_fails(db, "SELECT x.OrderID FROM Orders o", "42S22", 8, "x");
    prep_fails(db, "SELECT OrderID FROM Orders ORDER BY Nope", "42S22", 37,
               "Nope");
    prep_fails(db, "SELECT OrderID FROM Orders WHERE", "42000", 33, NULL);
    prep_fails(db, "SELECT OrderID FROM Orders ORDER BY 2", "42000", 37,
               "position");
    prep_fails(db, "SELECT OrderID, COUNT(*) FROM Orders", "42000", 8,
               "aggregate");
    prep_fails(db, "SELECT OrderID FROM Orders WHERE COUNT(*) > 1", "42000",
               34, "aggregate");
    prep_fails(db, "SELECT SUM(MAX(Freight)) FROM Orders", "42000", 12,
               "aggregate");
    /* a grouped query's subquery may read only its grouped columns */
    prep_fails(db, "SELECT c.Country, (SELECT COUNT(*) FROM Orders o WHERE "
               "o.CustomerID = c.CustomerID) FROM Customers c GROUP BY "
               "c.Country", "42000", 71, "CustomerID");
    prep_fails(db, "SELECT OrderID FROM Orders WHERE OrderID = 'abc'",
               "22018", 42, "mismatch");
    prep_fails(db, "SELECT OrderID FROM Orders WHERE OrderDate > 'tomorrow'",
               "22018", 44, "mismatch");
    prep_fails(db, "SELECT SUM(ShipName) FROM Orders", "22018", 8, NULL);
    prep_fails(db, "SELECT OrderID FROM Orders, [Order Details]", "42000",
               8, "more than one table");
    prep_fails(db, "SELECT * FROM Orders o LEFT JOIN Customers c ON "
               "o.CustomerID = c.CustomerID AND e.EmployeeID = 1 INNER JOIN "
               "Employees e ON o.EmployeeID = e.EmployeeID", "42000", 0,
               "JOIN expression not supported");
    prep_fails(db, "SELECT {oj x} FROM Orders", "HYC00", 8, "outer joins");
    prep_fails(db, "SELECT Frob(OrderID) FROM Orders", "42000", 8, "Frob");
    prep_fails(db, "SELECT LEFT(ShipName) FROM Orders", "42000", 8,
               "arguments");
    prep_fails(db, "SELECT DISTINCT ShipName FROM Orders ORDER BY OrderID",
               "42000", 47, "DISTINCT");
    prep_fails(db, "SELECT TOP 5 * FROM Orders LIMIT 3", "42000", 28, "TOP");
    prep_fails(db, "SELECT TOP 101 PERCENT * FROM Orders", "42000", 8,
               "PERCENT");
    prep_fails(db, "SELECT * FROM Orders WHERE OrderDate = #13/45/1999#",
               "42000", 40, "date");
    prep_fails(db, "SELECT * FROM Orders GROUP BY ShipName", "42000", 8,
               "Cannot group on fields selected with '*'");    /* Jet 4 */
    prep_fails(db, "SELECT OrderID FROM Orders GROUP BY ShipName", "42000",
               8, "aggregate");
    prep_fails(db, "SELECT * FROM Orders FULL OUTER JOIN Customers ON 1=1",
               "42000", 22, "FULL OUTER JOIN is not Jet SQL");
    prep_fails(db, "SELECT COUNT(*) FROM Orders ORDER BY OrderID", "42000",
               38, NULL);
    prep_fails(db, "SELECT * FROM Orders WHERE ShipName LIKE 'a' ESCAPE '!'",
               "42000", 46, "after end");
    /* one name per FROM item (Access: a self-join needs an alias), and
     * an IN list holds at least one value (Jet's syntax error) */
    prep_fails(db, "SELECT * FROM Shippers o, Shippers o", "42000", 27,
               "'o' names two tables");
    prep_fails(db, "SELECT * FROM Shippers, Shippers", "42000", 25,
               "'Shippers' names two tables");
    prep_fails(db, "SELECT * FROM Orders AS Shippers INNER JOIN Shippers ON "
               "Shippers.ShipperID = 1", "42000", 45, "Shippers");
    prep_fails(db, "SELECT * FROM (SELECT 1 AS a FROM Shippers) x, (SELECT 2 "
               "AS b FROM Shippers) X", "42000", 48, "names two tables");
    prep_fails(db, "SELECT * FROM Orders WHERE OrderID IN ()", "42000", 40,
               "IN list");
    prep_fails(db, "SELECT * FROM Orders WHERE OrderID NOT IN ()", "42000",
               44, "IN list");
    static const char *const ok[] = {
        "SELECT COUNT(*) FROM Shippers, Shippers s",
        "SELECT COUNT(*) FROM Shippers s, Shippers",
        "SELECT * FROM Shippers WHERE EXISTS (SELECT * FROM Shippers)",
        "SELECT * FROM Shippers o WHERE ShipperID IN (SELECT ShipperID "
        "FROM Shippers o)",
        "SELECT * FROM (SELECT 1 AS a FROM Shippers), (SELECT 2 AS b FROM "
        "Shippers)",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sql_stmt *st = NULL;
        sql_error err;
        ck_assert_msg(sql_stmt_prepare(&st, db, ok[i], strlen(ok[i]), NULL,
                                       &err) == 0, "%s: %s", ok[i], err.msg);
        sql_stmt_free(st);
    }
    jet_db_close(db);
}
END_TEST

START_TEST(runtime_type_mismatch_from_parameter_is_22018)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sql = "SELECT OrderID FROM Orders WHERE Freight > ?";
    sql_stmt *st;
    sql_error err;
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    jet_value p[1];
    uint8_t bufs[1][256];
    parse_params("t:lots", p, bufs);
    sql_cursor *c;
    int rc = sql_cursor_open(&c, st, p, NULL, &err);
    if (rc == 0) {
        rc = sql_cursor_next(c);
        ck_assert_int_lt(rc, 0);
        ck_assert_str_eq(sql_cursor_error(c)->sqlstate, "22018");
        sql_cursor_close(c);
    } else {
        ck_assert_str_eq(err.sqlstate, "22018");
    }
    sql_stmt_free(st);
    jet_db_close(db);
}
END_TEST

/* + beside a text parameter concatenates, in the select list too: the
 * column is typed text (it was a Double, and the text could not be read:
 * 22018 at the fetch). ? + ? is text: text parameters concatenate,
 * numbers add and read back as text. */
START_TEST(text_plus_parameter_is_text)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const struct { const char *sql, *params, *want; } t[] = {
        { "SELECT ContactName + ? + City FROM Customers WHERE CustomerID "
          "= ?", "t:, |t:ALFKI", "Maria Anders, Berlin" },
        { "SELECT ? + CompanyName FROM Customers WHERE CustomerID = ?",
          "t:x |t:ALFKI", "x Alfreds Futterkiste" },
        { "SELECT ? + ? FROM Shippers WHERE ShipperID = 1", "t:a|t:b",
          "ab" },
        { "SELECT ? + ? FROM Shippers WHERE ShipperID = 1", "t:5|t:6",
          "56" },
        { "SELECT ? + ? FROM Shippers WHERE ShipperID = 1", "i:5|i:6",
          "11" },
        { "SELECT ? + NULL FROM Shippers WHERE ShipperID = 1", "t:a",
          "NULL" },
        { "SELECT CompanyName FROM Customers WHERE CompanyName + ? = ?",
          "t: Ltd|t:Alfreds Futterkiste Ltd", "Alfreds Futterkiste" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        sqlt_buf o = { 0 };
        sqlt_puts(&o, "");
        ck_assert_int_eq(run(db, t[i].sql, t[i].params, &o, NULL), 1);
        ck_assert_msg(!strcmp(o.p, t[i].want), "%s: '%s', want '%s'",
                      t[i].sql, o.p, t[i].want);
        free(o.p);
    }
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------------------- plans */

static void plan_is(jet_db *db, const char *sql, const char *want)
{
    sql_stmt *st;
    sql_error err;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) ==
                  0, "%s: %s", sql, err.msg);
    ck_assert_msg(!strcmp(sql_stmt_plan_text(st), want),
                  "'%s'\n  plan '%s'\n  want '%s'", sql,
                  sql_stmt_plan_text(st), want);
    sql_stmt_free(st);
}

START_TEST(plans_choose_seeks_walks_and_scans)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    plan_is(db, "SELECT * FROM Orders WHERE OrderID = ?",
            "SEEK Orders.PrimaryKey (OrderID = ?1) | FILTER");
    plan_is(db, "SELECT * FROM Orders WHERE OrderID IN (3, 1, 2)",
            "SEEK Orders.PrimaryKey (OrderID IN (3, 1, 2)) | FILTER");
    plan_is(db, "SELECT * FROM Orders WHERE OrderID >= 10 AND OrderID < ?",
            "SEEK Orders.PrimaryKey (OrderID >= 10 AND OrderID < ?1) | "
            "FILTER");
    plan_is(db, "SELECT * FROM Orders", "SCAN Orders");
    plan_is(db, "SELECT * FROM Orders WHERE ShipName = 'x'",
            "SCAN Orders | FILTER");
    plan_is(db, "SELECT TOP 5 * FROM Orders ORDER BY OrderID DESC",
            "INDEX Orders.PrimaryKey ORDERED REVERSE | TOP 5");
    plan_is(db, "SELECT * FROM Orders ORDER BY ShipName",
            "SCAN Orders | SORT 1 KEY");
    plan_is(db, "SELECT * FROM [Order Details] WHERE OrderID = 1 AND "
            "ProductID = 2",
            "SEEK Order Details.PrimaryKey (OrderID = 1, ProductID = 2) | "
            "FILTER");
    plan_is(db, "SELECT COUNT(*) FROM Orders WHERE EmployeeID = 3",
            "SEEK Orders.EmployeeID (EmployeeID = 3) | FILTER | AGGREGATE");
    plan_is(db, "SELECT OrderID FROM Orders WHERE EmployeeID = 3 ORDER BY "
            "OrderDate LIMIT 2",
            "SEEK Orders.EmployeeID (EmployeeID = 3) | FILTER | SORT 1 KEY | "
            "LIMIT 2");
    plan_is(db, "SELECT DISTINCT ShipCountry FROM Orders",
            "SCAN Orders | DISTINCT (HASHED) | SORT 1 KEY");
    plan_is(db, "SELECT TOP 10 PERCENT * FROM Orders",
            "SCAN Orders | TOP 10 PERCENT");
    plan_is(db, "SELECT * FROM Orders WHERE OrderDate BETWEEN #1/1/1995# AND "
            "#1/31/1995# ORDER BY OrderDate",
            "SEEK Orders.OrderDate (OrderDate >= #1995-01-01 00:00:00# AND "
            "OrderDate <= #1995-01-31 00:00:00#) ORDERED | FILTER");
    jet_db_close(db);
}
END_TEST

START_TEST(explain_returns_the_plan_as_one_row)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    sqlt_buf o = { NULL, 0, 0 };
    sqlt_puts(&o, "");
    long n = run(db, "EXPLAIN SELECT * FROM Orders WHERE OrderID = 10248",
                 NULL, &o, NULL);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(o.p, "SEEK Orders.PrimaryKey (OrderID = 10248) | "
                     "FILTER");
    free(o.p);
    jet_db_close(db);
}
END_TEST

START_TEST(seek_reads_only_matching_rows_and_top_stops_early)
{
    jet_db *db = sqlt_open_fixture(PERF);
    const char *sql[] = {
        "SELECT * FROM orders WHERE order_id = 7777",
        "SELECT TOP 3 * FROM orders ORDER BY order_id DESC",
        "SELECT order_id FROM orders WHERE order_id BETWEEN 100 AND 109",
        "SELECT * FROM orders WHERE amount < 0",
    };
    uint64_t want_max[] = { 1, 3, 10, 10000 };
    for (int i = 0; i < 4; i++) {
        sql_stmt *st;
        sql_error err;
        ck_assert_int_eq(sql_stmt_prepare(&st, db, sql[i], strlen(sql[i]),
                                          NULL, &err), 0);
        sql_cursor *c;
        ck_assert_int_eq(sql_cursor_open(&c, st, NULL, NULL, &err), 0);
        long n = 0;
        while (sql_cursor_next(c) == JET_OK)
            n++;
        ck_assert_msg(sql_cursor_rows_read(c) <= want_max[i], "'%s' read "
                      "%llu rows", sql[i],
                      (unsigned long long)sql_cursor_rows_read(c));
        ck_assert_int_eq(n, i == 0 ? 1 : i == 1 ? 3 : i == 2 ? 10 : 0);
        sql_cursor_close(c);
        sql_stmt_free(st);
    }
    jet_db_close(db);
}
END_TEST

/* -------------------------------------------------- metadata, options */

START_TEST(constant_false_where_reads_nothing)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sql = "SELECT * FROM Orders WHERE 1=0";
    sql_stmt *st;
    sql_error err;
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    sql_cursor *c;
    ck_assert_int_eq(sql_cursor_open(&c, st, NULL, NULL, &err), 0);
    ck_assert_int_eq(sql_cursor_next(c), JET_DONE);
    ck_assert_uint_eq(sql_cursor_rows_read(c), 0);
    sql_cursor_close(c);
    sql_stmt_free(st);
    /* "ShipName" is text, as Access reads it, even where a column has
     * that name: an expression, named as Access names one */
    sql = "SELECT \"ShipName\" FROM Orders";
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    ck_assert_str_eq(sql_stmt_col(st, 0)->name, "Expr1000");
    ck_assert_ptr_null(sql_stmt_col(st, 0)->column);
    sql_stmt_free(st);
    jet_db_close(db);
}
END_TEST

START_TEST(result_columns_and_parameter_types)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sql = "SELECT OrderID AS id, COUNT(*), SUM(Freight), "
                      "AVG(Freight) AS a, SUM(EmployeeID), MAX(ShipName), "
                      "MIN(OrderDate) FROM Orders WHERE Freight > ? AND "
                      "ShipName LIKE ? AND OrderDate < ?";
    sql_stmt *st;
    sql_error err;
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     JET_EUNSUPPORTED);  /* OrderID outside an aggregate */
    sql = "SELECT COUNT(*), SUM(Freight), AVG(Freight) AS a, "
          "SUM(EmployeeID), MAX(ShipName), MIN(OrderDate), AVG(EmployeeID) "
          "FROM Orders WHERE Freight > ? AND ShipName LIKE ? AND "
          "OrderDate < ? AND ? = EmployeeID";
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    ck_assert_uint_eq(sql_stmt_ncols(st), 7);
    /* SUM of a Long is a Double: Jet sums in floating point */
    const jet_type types[] = { JET_T_LONG, JET_T_MONEY, JET_T_MONEY,
                               JET_T_DOUBLE, JET_T_TEXT, JET_T_DATETIME,
                               JET_T_DOUBLE };
    const char *names[] = { "Expr1000", "Expr1001", "a", "Expr1002",
                            "Expr1003", "Expr1004", "Expr1005" };
    for (size_t i = 0; i < 7; i++) {
        ck_assert_int_eq(sql_stmt_col(st, i)->type, types[i]);
        ck_assert_str_eq(sql_stmt_col(st, i)->name, names[i]);
        ck_assert_ptr_null(sql_stmt_col(st, i)->column);
    }
    ck_assert_uint_eq(sql_stmt_nparams(st), 4);
    ck_assert_int_eq(sql_stmt_param(st, 0)->type, JET_T_MONEY);
    ck_assert_int_eq(sql_stmt_param(st, 1)->type, JET_T_TEXT);
    ck_assert_int_eq(sql_stmt_param(st, 2)->type, JET_T_DATETIME);
    ck_assert_int_eq(sql_stmt_param(st, 3)->type, JET_T_LONG);
    ck_assert_str_eq(sql_stmt_param(st, 3)->column->name, "EmployeeID");
    sql_stmt_free(st);

    sql = "SELECT o.OrderID AS k, ShipName FROM Orders o";
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err),
                     0);
    ck_assert_str_eq(sql_stmt_col(st, 0)->name, "k");
    ck_assert_str_eq(sql_stmt_col(st, 0)->base_column, "OrderID");
    ck_assert_str_eq(sql_stmt_col(st, 0)->base_table, "Orders");
    ck_assert_int_eq(sql_stmt_col(st, 0)->type, JET_T_LONG);
    ck_assert_int_eq(sql_stmt_col(st, 1)->type, JET_T_TEXT);
    ck_assert_uint_eq(sql_stmt_col(st, 1)->length, 40);
    sql_stmt_free(st);
    jet_db_close(db);
}
END_TEST

START_TEST(max_rows_and_cancel)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sqls[] = { "SELECT * FROM Orders",
                           "SELECT * FROM Orders ORDER BY ShipName" };
    for (int k = 0; k < 2; k++) {
        sql_cursor_opts o = { .max_rows = 7 };
        sqlt_buf r = { NULL, 0, 0 };
        sqlt_puts(&r, "");
        ck_assert_int_eq(run(db, sqls[k], NULL, &r, &o), 7);
        free(r.p);
    }
    atomic_int cancel = 1;
    sql_cursor_opts o = { .cancel = &cancel };
    sql_stmt *st;
    sql_error err;
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sqls[0], strlen(sqls[0]),
                                      NULL, &err), 0);
    sql_cursor *c;
    ck_assert_int_eq(sql_cursor_open(&c, st, NULL, &o, &err), 0);
    ck_assert_int_eq(sql_cursor_next(c), JET_EINTERRUPTED);
    ck_assert_int_eq(sql_cursor_error(c)->rc, JET_EINTERRUPTED);
    sql_cursor_close(c);
    /* a sorting query is cancelled while it reads */
    sql_stmt_free(st);
    ck_assert_int_eq(sql_stmt_prepare(&st, db, sqls[1], strlen(sqls[1]),
                                      NULL, &err), 0);
    ck_assert_int_eq(sql_cursor_open(&c, st, NULL, &o, &err),
                     JET_EINTERRUPTED);
    ck_assert_int_eq(err.rc, JET_EINTERRUPTED);
    sql_stmt_free(st);
    jet_db_close(db);
}
END_TEST

START_TEST(like_modes_choose_wildcards)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *sql = "SELECT COUNT(*) FROM Customers WHERE CompanyName "
                      "LIKE 'A%' OR CompanyName LIKE 'B*'";
    long want[3] = { 0, 0, 0 };
    for (int mode = 0; mode < 3; mode++) {
        sql_prepare_opts po = { .like_mode = (sql_like_mode)mode };
        sql_stmt *st;
        sql_error err;
        ck_assert_int_eq(sql_stmt_prepare(&st, db, sql, strlen(sql), &po,
                                          &err), 0);
        sql_cursor *c;
        ck_assert_int_eq(sql_cursor_open(&c, st, NULL, NULL, &err), 0);
        ck_assert_int_eq(sql_cursor_next(c), JET_OK);
        jet_value v;
        ck_assert_int_eq(sql_cursor_value(c, 0, &v), 0);
        want[mode] = (long)v.u.i;
        sql_cursor_close(c);
        sql_stmt_free(st);
    }
    /* both: A% and B*; access: B* only; ansi: A% only */
    ck_assert_int_eq(want[0], want[1] + want[2]);
    ck_assert_int_gt(want[1], 0);
    ck_assert_int_gt(want[2], 0);
    jet_db_close(db);
}
END_TEST

/* COUNT(*) of a statement, or -1 when prepare or open fails. */
static long count_of(jet_db *db, const char *sql, size_t len)
{
    sql_stmt *st;
    sql_error err;
    sql_cursor *c;
    jet_value v;
    long n = -1;
    if (sql_stmt_prepare(&st, db, sql, len, NULL, &err) != 0)
        return -1;
    if (sql_cursor_open(&c, st, NULL, NULL, &err) == 0) {
        if (sql_cursor_next(c) == JET_OK && sql_cursor_value(c, 0, &v) == 0)
            n = (long)v.u.i;
        sql_cursor_close(c);
    }
    sql_stmt_free(st);
    return n;
}

typedef struct chain_job {
    jet_db *db;
    long and_count, or_count, deep_count;
    long in_count[2], dt_count[2], ex_count[2];  /* 50 levels, 51 */
} chain_job;

/* COUNT(*) of the German customers through `levels` nested IN
 * subqueries (kind 0), derived tables (1) or correlated EXISTS (2). */
static long nested_count(jet_db *db, int kind, int levels)
{
    size_t cap = 256 + (size_t)levels * 128, k = 0;
    char *sql = malloc(cap);
    if (kind == 0) {
        k += (size_t)sprintf(sql + k, "SELECT COUNT(*) FROM Customers");
        for (int i = 0; i < levels; i++)
            k += (size_t)sprintf(sql + k, " WHERE CustomerID IN (SELECT "
                                 "CustomerID FROM Customers");
        k += (size_t)sprintf(sql + k, " WHERE Country = 'Germany'");
        for (int i = 0; i < levels; i++)
            sql[k++] = ')';
    } else if (kind == 1) {
        k += (size_t)sprintf(sql + k, "SELECT COUNT(*) FROM ");
        for (int i = 0; i < levels; i++)
            k += (size_t)sprintf(sql + k, "(SELECT * FROM ");
        k += (size_t)sprintf(sql + k, "Customers WHERE Country = "
                             "'Germany'");
        for (int i = 0; i < levels; i++)
            k += (size_t)sprintf(sql + k, ") t%d", i);
    } else {
        k += (size_t)sprintf(sql + k, "SELECT COUNT(*) FROM Customers c0 "
                             "WHERE");
        for (int i = 1; i <= levels; i++)
            k += (size_t)sprintf(sql + k, " EXISTS (SELECT * FROM "
                                 "Customers c%d WHERE c%d.CustomerID = "
                                 "c%d.CustomerID AND", i, i, i - 1);
        k += (size_t)sprintf(sql + k, " c%d.Country = 'Germany'", levels);
        for (int i = 0; i < levels; i++)
            sql[k++] = ')';
    }
    sql[k] = '\0';
    long n = count_of(db, sql, k);
    free(sql);
    return n;
}

/* 150,000 ANDs and 60,000 ORs over rows, planned and evaluated. */
static void *run_chains(void *arg)
{
    chain_job *j = arg;
    const char *head = "SELECT COUNT(*) FROM Customers WHERE Country = "
                       "'Germany'";
    size_t n = 150000, cap = strlen(head) + n * 32 + 64;
    char *sql = malloc(cap);
    size_t k = (size_t)sprintf(sql, "%s", head);
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(sql + k, " AND Country <> 'x%zu'", i % 10);
    j->and_count = count_of(j->db, sql, k);
    k = (size_t)sprintf(sql, "SELECT COUNT(*) FROM Customers WHERE "
                        "Country = 'Germany'");
    for (size_t i = 0; i < 60000; i++)
        k += (size_t)sprintf(sql + k, " OR Country = 'x%zu'", i % 10);
    j->or_count = count_of(j->db, sql, k);
    /* the deepest tree the parser accepts: 250 operands of + */
    k = (size_t)sprintf(sql, "%s AND 0", head);
    for (size_t i = 1; i < 250; i++)
        k += (size_t)sprintf(sql + k, "+%zu", i % 2);
    k += (size_t)sprintf(sql + k, " = 125");
    j->deep_count = count_of(j->db, sql, k);
    free(sql);
    /* Access's 50 nested levels of queries, planned and run */
    for (int i = 0; i < 2; i++) {
        j->in_count[i] = nested_count(j->db, 0, 50 + i);
        j->dt_count[i] = nested_count(j->db, 1, 50 + i);
        j->ex_count[i] = nested_count(j->db, 2, 50 + i);
    }
    return NULL;
}

START_TEST(long_and_or_chains_run_on_a_small_stack)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *plain = "SELECT COUNT(*) FROM Customers WHERE Country = "
                        "'Germany'";
    long want = count_of(db, plain, strlen(plain));
    ck_assert_int_gt(want, 0);
    chain_job j = { db, -2, -2, -2, { -2, -2 }, { -2, -2 }, { -2, -2 } };
    pthread_attr_t at;
    pthread_t th;
    pthread_attr_init(&at);
    /* 1 MB, as the thread that crashed; ASan frames need the headroom */
    pthread_attr_setstacksize(&at, 1024 * 1024);
    ck_assert_int_eq(pthread_create(&th, &at, run_chains, &j), 0);
    pthread_join(th, NULL);
    pthread_attr_destroy(&at);
    ck_assert_int_eq(j.and_count, want);
    ck_assert_int_eq(j.or_count, want);
    ck_assert_int_eq(j.deep_count, want);
    ck_assert_int_eq(j.in_count[0], want);
    ck_assert_int_eq(j.dt_count[0], want);
    ck_assert_int_eq(j.ex_count[0], want);
    ck_assert_int_eq(j.in_count[1], -1);        /* 51: 42000 */
    ck_assert_int_eq(j.dt_count[1], -1);
    ck_assert_int_eq(j.ex_count[1], -1);
    jet_db_close(db);
}
END_TEST

/* Pages read by one run of sql on db (prepared first: the tdef load is
 * not counted); *rows receives the rows it returned. */
static uint64_t pages_for(jet_db *db, const char *sql, const char *pspec,
                          long *rows, jet_read_stats *io)
{
    sql_stmt *st;
    sql_error err;
    jet_value pv[4];
    uint8_t bufs[4][256];
    size_t np;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) ==
                      0, "%s: %s", sql, err.msg);
    np = parse_params(pspec, pv, bufs);
    *rows = sqlt_drain(st, db, np ? pv : NULL, io, NULL);
    sql_stmt_free(st);
    return io->pages;
}

/* Issue 4 acceptance 2: plans asserted by the pages they read, each on a
 * freshly opened database (cold page cache). */
START_TEST(plans_read_log_pages_for_seeks_and_all_pages_for_scans)
{
    jet_db *db = sqlt_open_fixture(PERF);
    jet_read_stats io;
    long rows;
    uint64_t n, data_pages = sqlt_data_pages(db, "orders");
    jet_db_close(db);

    /* a primary-key seek: root-to-leaf descent plus one data page */
    db = sqlt_open_fixture(PERF);
    n = pages_for(db, "SELECT * FROM orders WHERE order_id = ?", "i:7777",
                  &rows, &io);
    ck_assert_int_eq(rows, 1);
    ck_assert_msg(n <= 8, "PK seek read %llu pages", (unsigned long long)n);
    ck_assert_uint_eq(io.requests, n);      /* no read-ahead for seeks */
    /* the same plan again on a warm cache reads nothing */
    n = pages_for(db, "SELECT * FROM orders WHERE order_id = ?", "i:7777",
                  &rows, &io);
    ck_assert_uint_eq(n, 0);
    jet_db_close(db);

    /* ORDER BY the key with TOP: an index walk that stops early */
    db = sqlt_open_fixture(PERF);
    n = pages_for(db, "SELECT TOP 10 * FROM orders ORDER BY order_id", NULL,
                  &rows, &io);
    ck_assert_int_eq(rows, 10);
    ck_assert_msg(n <= 20, "TOP 10 read %llu pages", (unsigned long long)n);
    jet_db_close(db);

    /* a full scan reads every data page, in large requests */
    db = sqlt_open_fixture(PERF);
    n = pages_for(db, "SELECT * FROM orders WHERE amount < 0", NULL, &rows,
                  &io);
    ck_assert_int_eq(rows, 0);
    ck_assert_msg(n >= data_pages, "scan read %llu of %llu data pages",
                  (unsigned long long)n, (unsigned long long)data_pages);
    ck_assert_msg(io.requests * 8 <= n, "scan: %llu requests for %llu pages",
                  (unsigned long long)io.requests, (unsigned long long)n);
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------------------ joins */

/* Joins: every method against the scan form, the plans by cost and
 * issue 8 acceptance 3 are tested in test_sql_join.c. */

/* Rows read by one run of sql (its subqueries' included). */
static uint64_t rows_read_of(jet_db *db, const char *sql, long *nrows)
{
    sql_stmt *st;
    sql_error err;
    uint64_t n;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) ==
                  0, "%s: %s", sql, err.msg);
    *nrows = sqlt_drain(st, db, NULL, NULL, &n);
    sql_stmt_free(st);
    return n;
}

/* A correlated subquery seeks with the outer row's value as its key: an
 * EXISTS over the primary key reads one entry per outer row, not the
 * table; its count agrees with the join's. */
START_TEST(correlated_subquery_seeks_per_outer_row)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    long n;
    uint64_t r = rows_read_of(db, "SELECT OrderID FROM Orders o WHERE EXISTS "
                              "(SELECT * FROM Employees e WHERE e.EmployeeID "
                              "= o.EmployeeID AND e.City = 'London')", &n);
    const char *jn = "SELECT COUNT(*) FROM Orders o INNER JOIN Employees e ON "
                     "o.EmployeeID = e.EmployeeID WHERE e.City = 'London'";
    ck_assert_int_eq(n, count_of(db, jn, strlen(jn)));
    ck_assert_msg(r <= 830 * 2 + 10, "read %llu rows", (unsigned long long)r);
    r = rows_read_of(db, "SELECT OrderID FROM Orders o WHERE o.OrderID IN "
                     "(SELECT d.OrderID FROM [Order Details] d WHERE "
                     "d.OrderID = o.OrderID AND d.ProductID = 11)", &n);
    ck_assert_int_eq(n, 38);
    ck_assert_msg(r <= 830 + 2155, "read %llu rows", (unsigned long long)r);
    jet_db_close(db);
}
END_TEST

/* Grouping agrees with counting each group by a seek. */
START_TEST(group_by_counts_agree_with_seeks)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    sqlt_buf o = { NULL, 0, 0 };
    sqlt_puts(&o, "");
    long n = run(db, "SELECT EmployeeID, COUNT(*) FROM Orders GROUP BY "
                 "EmployeeID ORDER BY EmployeeID", NULL, &o, NULL);
    ck_assert_int_eq(n, 9);
    char *p = o.p;
    for (long i = 0; i < n; i++) {
        long id = strtol(p, &p, 10), cnt = strtol(p + 1, &p, 10);
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Orders WHERE "
                 "EmployeeID = %ld", id);
        ck_assert_int_eq(count_of(db, sql, strlen(sql)), cnt);
        p += *p == '\n';
    }
    free(o.p);
    jet_db_close(db);
}
END_TEST

/* Errors of the multi-table grammar name state and position. */
START_TEST(join_and_subquery_errors)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    prep_fails(db, "SELECT EmployeeID FROM Orders o INNER JOIN Employees e ON "
               "o.EmployeeID = e.EmployeeID", "42000", 8, "more than one");
    prep_fails(db, "SELECT o.Nope FROM Orders o, Employees e", "42S22", 8,
               "Nope");
    prep_fails(db, "SELECT z.OrderID FROM Orders o, Employees e", "42S22", 8,
               "z");
    prep_fails(db, "SELECT * FROM Orders o INNER JOIN Employees e", "42000",
               0, "ON");
    prep_fails(db, "SELECT * FROM Orders WHERE OrderID IN (SELECT OrderID, "
               "ProductID FROM [Order Details])", "42000", 0, "more than one");
    prep_fails(db, "SELECT OrderID FROM Orders UNION SELECT OrderID, "
               "ProductID FROM [Order Details]", "42000", 0, "columns");
    prep_fails(db, "SELECT OrderID FROM Orders UNION SELECT OrderID FROM "
               "[Order Details] ORDER BY Nope", "42000", 0, "UNION");
    prep_fails(db, "SELECT ShipVia, OrderID FROM Orders GROUP BY ShipVia",
               "42000", 17, "OrderID");
    prep_fails(db, "SELECT * FROM Orders o INNER JOIN Employees e ON "
               "COUNT(*) = 1", "42000", 0, "aggregate");
    prep_fails(db, "SELECT * FROM (SELECT * FROM Nope) AS t", "42S02", 0,
               "Nope");
    /* a derived table holding a name twice labels the columns o.OrderID
     * and d.OrderID (Access's rule): the plain name is ambiguous, and
     * the error names the labels; x.[o.OrderID] reads one */
    static const char dup[] = "(SELECT o.OrderID, d.OrderID FROM Orders o "
                              "INNER JOIN [Order Details] d ON o.OrderID = "
                              "d.OrderID) x";
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT x.OrderID FROM %s", dup);
    prep_fails(db, sql, "42000", 8, "ambiguous: 'x' holds it 2 times, "
               "labelled [o.OrderID], [d.OrderID]; name one, e.g. "
               "x.[o.OrderID]");
    snprintf(sql, sizeof sql, "SELECT OrderID FROM %s WHERE x.OrderID > 1",
             dup);
    prep_fails(db, sql, "42000", 8, "[o.OrderID], [d.OrderID]");
    snprintf(sql, sizeof sql, "SELECT y.OrderID FROM %s", dup);
    prep_fails(db, sql, "42S22", 8, "'y' does not name a table");
    /* the * expansion labels them the same way */
    prep_fails(db, "SELECT x.CustomerID FROM (SELECT * FROM Orders o, "
               "Customers c WHERE o.CustomerID = c.CustomerID) x", "42000", 8,
               "[o.CustomerID], [c.CustomerID]");
    /* one such label (carried out of x): 42S22 naming it */
    snprintf(sql, sizeof sql, "SELECT y.OrderID FROM (SELECT x.[o.OrderID] "
             "FROM %s) y", dup);
    prep_fails(db, sql, "42S22", 8, "'y.OrderID' not found: 'y' labels it "
               "[o.OrderID]; write y.[o.OrderID]");
    /* no duplicate, no qualified label: the plain name */
    snprintf(sql, sizeof sql, "SELECT COUNT(x.OrderID) FROM (SELECT "
             "o.OrderID, d.OrderID AS DetailOrder FROM Orders o INNER JOIN "
             "[Order Details] d ON o.OrderID = d.OrderID) x");
    ck_assert_int_eq(count_of(db, sql, strlen(sql)), 2155);
    snprintf(sql, sizeof sql, "SELECT COUNT(x.[d.OrderID]) FROM %s WHERE "
             "x.[o.OrderID] = x.[D.ORDERID]", dup);
    ck_assert_int_eq(count_of(db, sql, strlen(sql)), 2155);
    jet_db_close(db);
}
END_TEST

/* Interrupt check saying stop on its limit-th call. */
typedef struct stop_count {
    unsigned calls, limit;
} stop_count;

static int stop_at(void *ctx)
{
    stop_count *sc = ctx;
    return ++sc->calls >= sc->limit;
}

/* The interrupt callback (SQL_ATTR_QUERY_TIMEOUT, SQLCancel) stops full
 * scans, sorts and seeks at a page boundary with HY008. */
START_TEST(interrupt_callback_stops_scans_sorts_and_seeks)
{
    jet_db *db = sqlt_open_fixture(PERF);
    const char *sqls[] = {
        "SELECT * FROM orders",
        "SELECT * FROM orders ORDER BY amount",
        "SELECT * FROM orders WHERE order_id BETWEEN 10 AND 9000",
    };
    for (int k = 0; k < 3; k++) {
        stop_count sc = { 0, 12 };
        sql_cursor_opts o = { .interrupt = stop_at, .interrupt_ctx = &sc };
        sql_stmt *st;
        sql_error err;
        sql_cursor *c = NULL;
        long n = 0;
        int rc;
        ck_assert_int_eq(sql_stmt_prepare(&st, db, sqls[k], strlen(sqls[k]),
                                          NULL, &err), 0);
        if (sql_cursor_open(&c, st, NULL, &o, &err) != 0) {
            ck_assert_int_eq(k, 1);     /* the sort reads at open */
            ck_assert_str_eq(err.sqlstate, "");     /* the driver maps */
            ck_assert_int_eq(err.rc, JET_EINTERRUPTED);
        } else {
            while ((rc = sql_cursor_next(c)) == JET_OK)
                n++;
            ck_assert_int_eq(rc, JET_EINTERRUPTED);
            ck_assert_int_eq(sql_cursor_error(c)->rc, JET_EINTERRUPTED);
            ck_assert_msg(n > 0 && n < 8000, "'%s': %ld rows", sqls[k], n);
            sql_cursor_close(c);
        }
        ck_assert_uint_eq(sc.calls, 12);
        /* without the check the same statement runs to the end */
        ck_assert_int_eq(sql_cursor_open(&c, st, NULL, NULL, &err), 0);
        n = 0;
        while ((rc = sql_cursor_next(c)) == JET_OK)
            n++;
        ck_assert_int_eq(rc, JET_DONE);
        ck_assert_int_ge(n, 8991);
        sql_cursor_close(c);
        sql_stmt_free(st);
    }
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------ OR chains as IN */

/* Every row of sql rendered (run), as a fresh string the caller frees. */
static char *rows_of(jet_db *db, const char *sql)
{
    sqlt_buf o = { NULL, 0, 0 };
    sqlt_puts(&o, "");
    run(db, sql, NULL, &o, NULL);
    return o.p;
}

/* terms[0..n) joined by sep into buf (the test fails when it is full). */
static void join_terms(char *buf, size_t cap, const char *const *terms,
                       size_t n, const char *sep)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(buf + k, cap - k, "%s(%s)", i ? sep : "", terms[i]);
        ck_assert(w > 0 && (size_t)w < cap - k);
        k += (size_t)w;
    }
}

/* The chain terms[0..n) gives in the select list (TRUE, FALSE and NULL
 * per row), in WHERE and under NOT what the same terms give with a
 * FALSE term between each two, which no fold takes; and the plan of the
 * plain chain says whether it was folded. */
static void chain_agrees(jet_db *db, const char *table, const char *key,
                         const char *const *terms, size_t n, bool folds)
{
    size_t cap = 64 + n * 96;
    char *plain = malloc(cap), *apart = malloc(cap);
    char *sql = malloc(2 * cap + 256);
    join_terms(plain, cap, terms, n, " OR ");
    join_terms(apart, cap, terms, n, " OR (1 = 0) OR ");
    for (int f = 0; f < 3; f++) {
        char *got[2];
        for (int v = 0; v < 2; v++) {
            const char *chain = v ? apart : plain;
            if (f == 0)
                sprintf(sql, "SELECT %s, (%s) FROM %s ORDER BY %s", key,
                        chain, table, key);
            else
                sprintf(sql, "SELECT %s FROM %s WHERE %s(%s) ORDER BY %s",
                        key, table, f == 2 ? "NOT " : "", chain, key);
            got[v] = rows_of(db, sql);
        }
        ck_assert_msg(!strcmp(got[0], got[1]), "form %d of '%.300s': "
                      "folded\n%.600s\nunfolded\n%.600s", f, plain, got[0],
                      got[1]);
        free(got[0]);
        free(got[1]);
    }
    sprintf(sql, "SELECT %s FROM %s WHERE %s", key, table, plain);
    sql_stmt *st;
    sql_error err;
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) ==
                  0, "%s: %s", sql, err.msg);
    ck_assert_msg((strstr(sql_stmt_plan_text(st), "OR AS IN") != NULL) ==
                  folds, "'%.300s': plan '%s'", sql, sql_stmt_plan_text(st));
    sql_stmt_free(st);
    free(plain);
    free(apart);
    free(sql);
}

/* A totals query without ORDER BY gives its groups in the order of its
 * GROUP BY list, as Access does (tester9 F3): the same rows, in the same
 * order, as the query with that list as ORDER BY. */
START_TEST(group_by_without_order_by_is_sorted_by_the_groups)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    static const char *const q[][2] = {
        {"SELECT ShipCountry, COUNT(*) FROM Orders GROUP BY ShipCountry",
         "SELECT ShipCountry, COUNT(*) FROM Orders GROUP BY ShipCountry "
         "ORDER BY ShipCountry"},
        {"SELECT COUNT(*), Sum(Freight) FROM Orders GROUP BY ShipVia, "
         "ShipRegion",
         "SELECT COUNT(*), Sum(Freight) FROM Orders GROUP BY ShipVia, "
         "ShipRegion ORDER BY ShipVia, ShipRegion"},
        {"SELECT Year(OrderDate), Max(OrderID) FROM Orders "
         "GROUP BY Year(OrderDate) HAVING COUNT(*) > 1",
         "SELECT Year(OrderDate), Max(OrderID) FROM Orders "
         "GROUP BY Year(OrderDate) HAVING COUNT(*) > 1 "
         "ORDER BY Year(OrderDate)"},
        {"SELECT * FROM [Category Sales for 1995]",
         "SELECT * FROM [Category Sales for 1995] ORDER BY CategoryName"},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        char *a = rows_of(db, q[i][0]), *b = rows_of(db, q[i][1]);
        ck_assert_msg(strlen(a) > 20 && strcmp(a, b) == 0,
                      "%s:\n%s\nvs ORDER BY:\n%s", q[i][0], a, b);
        free(a);
        free(b);
    }
    /* DISTINCT keeps its own order; an explicit ORDER BY wins */
    char *a = rows_of(db, "SELECT ShipCountry, COUNT(*) FROM Orders GROUP BY "
                          "ShipCountry ORDER BY COUNT(*) DESC, ShipCountry");
    ck_assert_int_eq(strncmp(a, "Germany", 7), 0);
    free(a);
    jet_db_close(db);
}
END_TEST

/* A catalog prefix names the open file however its path is written:
 * other case, '\\', "." and "..", no extension (Microsoft Query's SQL in
 * a workbook; tester9 F4). Another file is 42S02. */
START_TEST(catalog_prefix_names_the_open_file_written_otherwise)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    const char *path = jet_db_path(db);
    char v[4][1200], sql[4900];
    size_t n = strlen(path);
    ck_assert(n > 4 && n < 1000 && strcmp(path + n - 4, ".mdb") == 0);
    const char *slash = strrchr(path, '/');
    ck_assert_ptr_nonnull(slash);
    snprintf(v[0], sizeof v[0], "%.*s", (int)(n - 4), path);    /* no .mdb */
    for (size_t i = 0; i <= n; i++)                          /* upper case */
        v[1][i] = (char)(path[i] >= 'a' && path[i] <= 'z' ? path[i] - 32
                                                          : path[i]);
    snprintf(v[2], sizeof v[2], "%.*s/./x/..%s", (int)(slash - path), path,
             slash);                                         /* . and .. */
    for (size_t i = 0; i <= n; i++)                          /* backslashes */
        v[3][i] = path[i] == '/' ? '\\' : path[i];
    for (size_t i = 0; i < 4; i++) {
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM `%s`.Orders", v[i]);
        sqlt_buf o = { NULL, 0, 0 };
        sqlt_puts(&o, "");
        run(db, sql, NULL, &o, NULL);
        ck_assert_msg(strncmp(o.p, "830", 3) == 0 && strlen(o.p) <= 4,
                      "%s: %s", sql, o.p);
        free(o.p);
    }
    prep_fails(db, "SELECT COUNT(*) FROM `/no/such/nwind`.Orders", "42S02",
               0, "Could not find file");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM `%s/other.mdb`.Orders",
             v[0]);
    prep_fails(db, sql, "42S02", 0, NULL);
    jet_db_close(db);
}
END_TEST

START_TEST(or_chains_fold_into_in_with_the_same_answers)
{
    jet_db *db = sqlt_open_fixture(NWIND);
    /* text with NULLs: case, trailing spaces, a NULL constant, misses */
    static const char *const region[] = {
        "ShipRegion = 'WA'", "'bc' = ShipRegion", "ShipRegion = NULL",
        "ShipRegion = 'RJ '", "ShipRegion = 'nowhere'",
    };
    chain_agrees(db, "Orders", "OrderID", region, 5, true);
    chain_agrees(db, "Orders", "OrderID", region, 2, true);
    chain_agrees(db, "Orders", "OrderID", region + 2, 1, false);
    /* numbers of mixed kinds against a Long: 2.0, '3' (converted as '='
     * converts it), 4.5, True (-1), NULL; merged with an IN list */
    static const char *const emp[] = {
        "EmployeeID = 2.0", "EmployeeID IN (1, 9)", "'3' = EmployeeID",
        "EmployeeID = 4.5", "EmployeeID = NULL", "EmployeeID = True",
        "EmployeeID = 7", "EmployeeID IN (8)",
    };
    chain_agrees(db, "Orders", "OrderID", emp, 8, true);
    /* Currency, Date and an expression on either side */
    static const char *const misc[] = {
        "Freight = 32.38", "Freight = 11.61", "Freight = '65.83'",
        "Freight = 41.34",
    };
    chain_agrees(db, "Orders", "OrderID", misc, 4, true);
    static const char *const dates[] = {
        "OrderDate = #1994-08-04#", "OrderDate = #1995-05-05#",
        "OrderDate = '1994-08-05'", "OrderDate = NULL",
        "RequiredDate = #1994-09-01#",  /* another operand: not folded */
        "OrderDate = #1994-08-08#",
    };
    chain_agrees(db, "Orders", "OrderID", dates, 6, true);
    static const char *const city[] = {
        "UCase(ShipCity) = 'BERLIN'", "'LONDON' = UCase(ShipCity)",
        "UCase(ShipCity) = 'lyon'", "ShipCity = 'Graz'",
    };
    chain_agrees(db, "Orders", "OrderID", city, 4, true);
    /* terms that do not fold: another operand each time, a non-constant
     * side, the clock */
    static const char *const none[] = {
        "ShipVia = 1", "EmployeeID = 1", "ShipVia = EmployeeID",
        "Now() = #2001-01-01#", "Now() = #2001-01-02#",
    };
    chain_agrees(db, "Orders", "OrderID", none, 5, false);
    /* a hashed chain: every third customer of Orders, lower case, among
     * names no row has, a NULL in the middle */
    char *ids = rows_of(db, "SELECT DISTINCT CustomerID FROM Orders "
                            "ORDER BY CustomerID");
    char **many = calloc(400, sizeof *many);
    size_t n = 0, k = 0;
    for (char *p = strtok(ids, "\n"); p && n < 390; p = strtok(NULL, "\n")) {
        if (k++ % 3)
            continue;
        many[n] = malloc(64);
        for (char *q = p; *q; q++)
            *q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
        snprintf(many[n++], 64, "CustomerID = '%s'", p);
        many[n] = malloc(64);
        snprintf(many[n++], 64, "CustomerID = 'zz%zu'", k);
        if (n == 20) {
            many[n] = malloc(64);
            snprintf(many[n++], 64, "CustomerID = NULL");
        }
    }
    ck_assert_uint_gt(n, 40);
    chain_agrees(db, "Orders", "OrderID", (const char *const *)many, n,
                 true);
    for (size_t i = 0; i < n; i++)
        free(many[i]);
    free(many);
    free(ids);
    /* an index seek over the folded list, and what EXPLAIN says */
    plan_is(db, "SELECT * FROM Orders WHERE (OrderID = 10250) OR "
            "(10248 = OrderID) OR OrderID IN (10300, 1)",
            "SEEK Orders.PrimaryKey (OrderID IN (10250, 10248, 10300, 1)) "
            "| FILTER | OR AS IN (3 TERMS)");
    plan_is(db, "SELECT * FROM Orders WHERE (ShipVia = 1 OR ShipVia = 2) "
            "AND (EmployeeID = 1 OR EmployeeID = 2 OR ShipVia = 3)",
            "SEEK Orders.ShippersOrders (ShipVia IN (1, 2)) | FILTER | "
            "OR AS IN (2 RUNS, 4 TERMS)");
    /* terms on one operand apart from each other stay as written, so
     * errors come in the same order */
    plan_is(db, "SELECT * FROM Orders WHERE EmployeeID = 1 OR ShipVia = 3 "
            "OR EmployeeID = 2", "SCAN Orders | FILTER");
    /* 5,000 and 20,000 text terms: one hash probe per row */
    size_t cap = 64 + 20000 * 32;
    char *sql = malloc(cap);
    for (int r = 0; r < 2; r++) {
        size_t terms = r ? 20000 : 5000;
        k = (size_t)sprintf(sql, "SELECT COUNT(*) FROM Orders WHERE "
                            "(CustomerID = 'vinet')");
        for (size_t i = 0; i < terms; i++)
            k += (size_t)sprintf(sql + k, " OR (CustomerID = 'C%zu')", i);
        ck_assert_int_eq(count_of(db, sql, k), 5);
    }
    free(sql);
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------- statement kinds */

/* Each statement kind goes to its own executor: the parse names the
 * kind, the table gives every kind one executor of that kind, a query
 * runs as before with a row count of -1, and DML and DDL reach their
 * (refusing) executors with the parser's former HYC00. */
START_TEST(statement_kinds_route_to_their_executors)
{
    static const struct { const char *sql; sql_stmt_kind kind; } k[] = {
        { "SELECT 1", SQL_KIND_QUERY },
        { "(SELECT 1)", SQL_KIND_QUERY },
        { "EXPLAIN SELECT 1", SQL_KIND_QUERY },
        { "PARAMETERS a Long; SELECT a", SQL_KIND_QUERY },
        { "INSERT INTO t VALUES (1)", SQL_KIND_DML },
        { " update t set a = 1", SQL_KIND_DML },
        { "DELETE FROM t", SQL_KIND_DML },
        { "CREATE TABLE t (a LONG)", SQL_KIND_DDL },
        { "DROP TABLE t", SQL_KIND_DDL },
        { "ALTER TABLE t ADD b LONG", SQL_KIND_DDL },
        { "SELECT a INTO t2 FROM t", SQL_KIND_DDL },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        sql_parsed p;
        sql_error err;
        ck_assert_int_eq(sql_parse_statement(&p, k[i].sql, strlen(k[i].sql),
                                             &err), 0);
        ck_assert_msg(p.kind == k[i].kind, "'%s': kind %d", k[i].sql,
                      (int)p.kind);
        /* a query, DML's query part (dmlparse.c), DDL's (ddlparse.c) */
        ck_assert_ptr_nonnull(p.query);
        ck_assert_int_eq(p.dml != NULL, k[i].kind == SQL_KIND_DML);
        ck_assert_int_eq(p.ddl != NULL, k[i].kind == SQL_KIND_DDL);
        if (p.query)
            sql_select_free(&p.query->sel);
    }
    for (int kind = SQL_KIND_QUERY; kind <= SQL_KIND_DDL; kind++) {
        const sql_executor *ex = sql_executor_of((sql_stmt_kind)kind);
        ck_assert_ptr_nonnull(ex);
        ck_assert_int_eq(ex->kind, kind);
        ck_assert_ptr_nonnull(ex->prepare);
        ck_assert_ptr_nonnull(ex->execute);
        ck_assert_ptr_nonnull(ex->free);
    }
    ck_assert_ptr_null(sql_executor_of((sql_stmt_kind)0));
    ck_assert_ptr_null(sql_executor_of((sql_stmt_kind)99));

    jet_db *db = sqlt_open_fixture(NWIND);
    sql_statement *s;
    sql_error err;
    const char *q = "SELECT TOP 2 OrderID FROM Orders";
    ck_assert_int_eq(sql_statement_prepare(&s, db, q, strlen(q), NULL, &err),
                     0);
    ck_assert_int_eq(sql_statement_kind(s), SQL_KIND_QUERY);
    ck_assert_ptr_nonnull(sql_statement_query(s));
    ck_assert_uint_eq(sql_stmt_ncols(sql_statement_query(s)), 1);
    ck_assert_int_eq(sql_statement_row_count(s), -1);
    sql_cursor *c;
    ck_assert_int_eq(sql_statement_execute(s, NULL, NULL, &c, &err), 0);
    ck_assert_ptr_nonnull(c);
    int n = 0;
    while (sql_cursor_next(c) == JET_OK)
        n++;
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(sql_statement_row_count(s), -1);  /* a result set */
    sql_cursor_close(c);
    sql_statement_free(s);

    /* DML prepares (dml.c plans its query part; nothing runs here: the
     * fixture is shared) */
    static const char *const dml[] = {
        "DELETE FROM Orders WHERE OrderID = 10248",
        "  UPDATE Orders SET ShipName = ? WHERE OrderID = ?",
        "INSERT INTO Orders (CustomerID, Freight) VALUES ('ALFKI', 1.5)",
        "INSERT INTO Orders (CustomerID) SELECT CustomerID FROM Customers",
        "DELETE Orders.* FROM Orders INNER JOIN Customers ON "
        "Orders.CustomerID = Customers.CustomerID WHERE Customers.Country "
        "= 'Mexico'",
    };
    for (size_t i = 0; i < sizeof dml / sizeof dml[0]; i++) {
        int rc = sql_statement_prepare(&s, db, dml[i], strlen(dml[i]), NULL,
                                       &err);
        ck_assert_msg(rc == 0, "%s: %s %s", dml[i], err.sqlstate, err.msg);
        ck_assert_int_eq(sql_statement_kind(s), SQL_KIND_DML);
        ck_assert_int_eq(sql_statement_row_count(s), -1);
        sql_statement_free(s);
    }
    /* DDL reaches its executor, which refuses it on an Access 97 file
     * (HYC00), leaving no statement */
    q = "ALTER TABLE Orders ALTER COLUMN ShipName TEXT(60)";
    s = (sql_statement *)1;
    ck_assert_int_eq(sql_statement_prepare(&s, db, q, strlen(q), NULL, &err),
                     JET_EUNSUPPORTED);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(err.sqlstate, "HYC00");
    ck_assert_str_eq(err.msg, "not supported: Access 97 files are "
                     "read-only");
    /* what comes before the first word is checked as before */
    ck_assert_int_ne(sql_statement_prepare(&s, db, "DELETE\xff", 7, NULL,
                                           &err), 0);
    ck_assert_str_eq(err.sqlstate, "42000");
    jet_db_close(db);
}
END_TEST

static Suite *sql_engine_suite(void)
{
    Suite *s = suite_create("sql_engine");
    TCase *tc = tcase_create("queries");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, query_matches_expected_json, 0, (int)ncases);
    suite_add_tcase(s, tc);
    tc = tcase_create("engine");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, errors_name_state_and_position);
    tcase_add_test(tc, statement_kinds_route_to_their_executors);
    tcase_add_test(tc, runtime_type_mismatch_from_parameter_is_22018);
    tcase_add_test(tc, text_plus_parameter_is_text);
    tcase_add_test(tc, plans_choose_seeks_walks_and_scans);
    tcase_add_test(tc, explain_returns_the_plan_as_one_row);
    tcase_add_test(tc, seek_reads_only_matching_rows_and_top_stops_early);
    tcase_add_test(tc, constant_false_where_reads_nothing);
    tcase_add_test(tc, result_columns_and_parameter_types);
    tcase_add_test(tc, max_rows_and_cancel);
    tcase_add_test(tc, like_modes_choose_wildcards);
    tcase_add_test(tc, long_and_or_chains_run_on_a_small_stack);
    tcase_add_test(tc, plans_read_log_pages_for_seeks_and_all_pages_for_scans);
    tcase_add_test(tc, interrupt_callback_stops_scans_sorts_and_seeks);
    tcase_add_test(tc, group_by_counts_agree_with_seeks);
    tcase_add_test(tc, correlated_subquery_seeks_per_outer_row);
    tcase_add_test(tc, join_and_subquery_errors);
    tcase_add_test(tc, group_by_without_order_by_is_sorted_by_the_groups);
    tcase_add_test(tc, catalog_prefix_names_the_open_file_written_otherwise);
    suite_add_tcase(s, tc);
    tc = tcase_create("or_fold");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, or_chains_fold_into_in_with_the_same_answers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    static const char *const needs[] = {
        NWIND, PERF, NULL
    };
    return sqlt_run(sql_engine_suite, needs);
}
