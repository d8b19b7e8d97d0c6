"""pyodbc against nwind.mdb: Access SQL read as Access reads it (issue 28;
doc/sql.md): "..." is text, aliases reused in later fields, and the
smaller differences. Usage: pyodbc_accesssql.py CONNECTION-STRING. Prints
one line per check and exits non-zero on the first wrong value.
"""
import os
import sys

import pyodbc


def check(what, got, want):
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
        sys.exit(1)
    print(f"ok   {what}")


cn = pyodbc.connect(sys.argv[1], autocommit=False)
cur = cn.cursor()


def rows(sql, *params):
    return [tuple(r) for r in cur.execute(sql, *params).fetchall()]


# "..." is text, even where a column has the name
check('ShipCity = "ShipCity"',
      rows('SELECT COUNT(*) FROM Orders WHERE ShipCity = "ShipCity"'), [(0,)])
check('Country = "Country"',
      rows('SELECT COUNT(*) FROM Customers WHERE Country = "Country"'), [(0,)])
check('TOP 2 "City"', rows('SELECT TOP 2 "City" FROM Customers'),
      [('City',), ('City',)])

# a calculated field may use an earlier field's alias; the alias wins
got = rows('SELECT TOP 3 UnitPrice*Quantity AS Total, Total*0.1 AS Tax '
           'FROM [Order Details] ORDER BY OrderID, ProductID')
check('alias Total reused', [(float(a), round(b, 9)) for a, b in got],
      [(168.0, 16.8), (98.0, 9.8), (174.0, 17.4)])
got = rows('SELECT TOP 1 Orders.OrderID AS Freight, Orders.Freight, '
           '[Freight]*1.1 AS [New Freight] FROM Orders ORDER BY Orders.OrderID')
check('alias Freight wins over the field', round(got[0][2], 9), 11272.8)

# each grouped branch of a UNION ALL comes sorted
got = [r[0] for r in rows('SELECT ShipCountry FROM Orders GROUP BY ShipCountry '
                          'UNION ALL SELECT ShipCountry FROM Orders '
                          'WHERE ShipVia = 2 GROUP BY ShipCountry')]
check('UNION ALL grouped branches sorted',
      (got[:21] == sorted(got[:21]), got[21:] == sorted(got[21:])), (True, True))

# a correlated subquery over a saved join view (hashed once)
plan = rows('EXPLAIN SELECT o.OrderID FROM Orders o WHERE o.Freight > '
            '(SELECT AVG(q.Freight) FROM [Orders Qry] q '
            'WHERE q.CustomerID = o.CustomerID)')[0][0]
check('correlated view hashed once', 'HASHED SUBQUERY q' in plan, True)
check('correlated view rows',
      rows('SELECT COUNT(*) FROM Orders o WHERE o.Freight > (SELECT '
           'AVG(q.Freight) FROM [Orders Qry] q WHERE q.CustomerID = '
           'o.CustomerID)'), [(301,)])

# exact integers through text parameters (as PHP and Perl bind numbers)
check('BIGINT text parameter stays exact',
      rows('SELECT COUNT(*) FROM Shippers WHERE ? = 9007199254740993',
           '9007199254740993'), [(3,)])

# ad-hoc TRANSFORM ... PIVOT, with an IN list and a parameter
cur.execute("TRANSFORM Count(*) SELECT ShipCountry FROM Orders WHERE "
            "ShipCountry < ? GROUP BY ShipCountry PIVOT ShipVia IN (1, 2, 3)",
            'B')
check('TRANSFORM ... PIVOT ... IN columns',
      [d[0] for d in cur.description], ['ShipCountry', '1', '2', '3'])
check('TRANSFORM ... PIVOT ... IN rows',
      [tuple(r) for r in cur.fetchall()],
      [('Argentina', 5, 7, 4), ('Austria', 12, 15, 13)])

# external databases in FROM (read-only), when the fixtures are there
v2010 = os.path.join(os.environ.get('JETODBC_SHARED', ''), 'fixtures',
                     'public', 'jackcess', 'V2010', 'testV2010.accdb')
if os.path.exists(v2010):
    check("FROM Table1 IN 'path'",
          rows("SELECT COUNT(*) FROM Table1 IN '%s'" % v2010), [(2,)])
    check('FROM [;DATABASE=path].Table1',
          rows('SELECT COUNT(*) FROM [;DATABASE=%s].Table1' % v2010), [(2,)])
cn.close()
