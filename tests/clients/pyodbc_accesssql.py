"""pyodbc against nwind.mdb: Access SQL read as Access reads it (issue 28;
doc/sql.md): "..." is text, aliases reused in later fields, and the
smaller differences. Usage: pyodbc_accesssql.py CONNECTION-STRING. Prints
one line per check and exits non-zero on the first wrong value.
"""
import datetime
import decimal
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

# a parameter comes back as the type it is bound with (Access types a
# parameter by its value): SELECT ?, IIf(c, ?, ?), ? + 1
day = datetime.date(2024, 1, 2)
when = datetime.datetime(2024, 1, 2, 3, 4, 5)
for value, want, typ in [
        (5, 5, int), (2.5, 2.5, float),
        (day, datetime.datetime(2024, 1, 2), datetime.datetime),
        (when, when, datetime.datetime),
        (decimal.Decimal('3.14'), decimal.Decimal('3.14'), decimal.Decimal),
        ('abc', 'abc', str), (None, None, str)]:
    got = rows('SELECT ?', value)
    check('SELECT ? of %r' % (value,), (got, cur.description[0][1]),
          ([(want,)], typ))
check('SELECT ? of a Decimal keeps its scale',
      cur.execute('SELECT ?', decimal.Decimal('1.250')).description[0][5], 3)
iif = ('SELECT IIf(EmployeeID > 1, ?, ?) FROM Employees '
       'WHERE EmployeeID IN (1, 2) ORDER BY EmployeeID')
check('IIf(c, ?, ?) of Longs', rows(iif, 10, 20), [(20,), (10,)])
check('IIf(c, ?, ?) of Doubles', rows(iif, 2.5, 1.5), [(1.5,), (2.5,)])
check('IIf(c, ?, ?) of dates', rows(iif, when, datetime.datetime(2025, 6, 7)),
      [(datetime.datetime(2025, 6, 7),), (when,)])
check('IIf(c, ?, ?) of a Long and a Double', rows(iif, 10, 2.5),
      [(2.5,), (10.0,)])
check('IIf(c, ?, ?) of texts', rows(iif, 'a', 'b'), [('b',), ('a',)])
for value, want in [(5, 6), (2.5, 3.5), (day, datetime.datetime(2024, 1, 3)),
                    (decimal.Decimal('1.25'), decimal.Decimal('2.25')),
                    ('5', 6.0)]:
    got = rows('SELECT ? + 1', value)
    check('SELECT ? + 1 of %r' % (value,), (got, type(got[0][0])),
          ([(want,)], type(want)))

# SQL_DECIMAL parameters take the bound scale: digits past it cut off
cur.setinputsizes([(pyodbc.SQL_DECIMAL, 10, 2)])
check("'1.23456' as SQL_DECIMAL(10, 2)", rows('SELECT ?', '1.23456'),
      [(decimal.Decimal('1.23'),)])
cur.setinputsizes([(pyodbc.SQL_NUMERIC, 18, 2)])
check("'104.7668' as SQL_NUMERIC(18, 2)", rows('SELECT ?', '104.7668'),
      [(decimal.Decimal('104.76'),)])
cur.setinputsizes([(pyodbc.SQL_DECIMAL, 10, 2)])
check("Freight > '32.389' as SQL_DECIMAL(10, 2)",
      rows('SELECT COUNT(*) FROM Orders WHERE Freight > ?', '32.389'),
      rows('SELECT COUNT(*) FROM Orders WHERE Freight > 32.38'))
# PHP's false ("") and true ("1") for a Yes/No column, bound as SQL_BIT
for text, want in [('', 69), ('1', 8), ('False', 69)]:
    cur.setinputsizes([(pyodbc.SQL_BIT, 0, 0)])
    check('Discontinued = %r as SQL_BIT' % text,
          rows('SELECT COUNT(*) FROM Products WHERE Discontinued = ?', text),
          [(want,)])
cur.setinputsizes(None)

fixtures = os.path.join(os.environ.get('JETODBC_SHARED', ''), 'fixtures',
                        'public')
# MAX/MIN of a Decimal(18,6) column keep its precision 18
calc = os.path.join(fixtures, 'jackcess', 'V2010', 'calcFieldTestV2010.accdb')
if os.path.exists(calc):
    cn2 = pyodbc.connect('DRIVER={JetODBC};DBQ=%s' % calc)
    c2 = cn2.cursor()
    c2.execute('SELECT MAX(Popularity), MIN(Popularity), SUM(Popularity) '
               'FROM Table1')
    check('MAX/MIN/SUM of Decimal(18,6): precision, scale',
          [(d[4], d[5]) for d in c2.description], [(18, 6), (18, 6), (28, 6)])
    cn2.close()

# external databases in FROM (read-only), when the fixtures are there
v2010 = os.path.join(fixtures, 'jackcess', 'V2010', 'testV2010.accdb')
if os.path.exists(v2010):
    check("FROM Table1 IN 'path'",
          rows("SELECT COUNT(*) FROM Table1 IN '%s'" % v2010), [(2,)])
    check('FROM [;DATABASE=path].Table1',
          rows('SELECT COUNT(*) FROM [;DATABASE=%s].Table1' % v2010), [(2,)])
enc = os.path.join(fixtures, 'jackcessencrypt', 'db2007-enc.accdb')
if os.path.exists(enc):
    check('FROM [MS Access;PWD=...;DATABASE=path].Table1',
          rows('SELECT COUNT(*) FROM [MS Access;PWD=Test123;DATABASE=%s].'
               'Table1' % enc), [(1,)])
cn.close()
