#!/usr/bin/python3
"""engine_queries.py - joins, grouping, subqueries and UNION over Northwind and
ASampleDatabase, each checked against rows computed here in Python from
the fixtures' expected JSON (../shared/fixtures/expected), never from the
driver; perf.accdb's from its dump and the facts its README states.

Every case is an SQL statement and a Python function over the tables
(lists of {column: value} dicts, values as the expected JSON renders them)
that returns the expected rows. The statements run through unixODBC with
odbc_dump.py query and are judged by odbc_dump.py compare (as a multiset
unless `ordered` names ORDER BY columns; MONEY columns by value).

Exit status (automake): 0 when all pass, 1 otherwise, 77 (skip) without
../shared or pyodbc.
"""

import collections
import decimal
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from harness import locate, skip, write_ini

D = decimal.Decimal


def money(v):
    """A MONEY value as the dump renders it (4 decimals)."""
    return str(D(v).quantize(D('0.0001'), rounding=decimal.ROUND_HALF_EVEN))


def fixture_path(shared, rel):
    """The database file of rel: bulk/... under fixtures/, the public
    fixtures under fixtures/public/."""
    if rel.startswith('bulk/'):
        return os.path.join(shared, 'fixtures', rel)
    return os.path.join(shared, 'fixtures', 'public', rel)


def load(shared, rel):
    exp = (os.path.join(shared, 'fixtures', rel + '.json') if rel.startswith('bulk/')
           else os.path.join(shared, 'fixtures', 'expected', rel + '.json'))
    with open(exp, encoding='utf-8') as f:
        doc = json.load(f)
    tables = {}
    for t in doc['tables']:
        names = [c['name'] for c in t['columns']]
        tables[t['name']] = [dict(zip(names, r)) for r in t.get('rows', [])]
    return tables


def fold(s):
    return s.lower() if isinstance(s, str) else s


def group(rows, key):
    g = collections.OrderedDict()
    for r in rows:
        g.setdefault(key(r), []).append(r)
    return g


def join(a, b, on):
    return [(x, y) for x in a for y in b if on(x, y)]


def left(a, b, on):
    out = []
    for x in a:
        m = [y for y in b if on(x, y)]
        out.extend((x, y) for y in m) if m else out.append((x, None))
    return out


def pad(s):
    """Text as Jet compares it: case aside, trailing spaces aside."""
    return fold(s.rstrip(' ')) if isinstance(s, str) else s


def eq(x, y):
    """SQL '=' on text: case-insensitive, trailing spaces ignored (Jet
    compares text as if padded with spaces: Allen Browne, "Trailing spaces
    give inconsistent query results"); NULL never equal."""
    if x is None or y is None:
        return False
    return pad(x) == pad(y)


NW = 'mdbtestdata/nwind.mdb'
AS = 'mdbtestdata/ASampleDatabase.accdb'
PERF = 'bulk/perf.accdb'

# (file, sql, columns, rows(T), options)
CASES = []


def case(rel, sql, cols, fn, ordered=None, decimal_cols=()):
    CASES.append((rel, sql, cols, fn, ordered, decimal_cols))


# ---------------------------------------------------------------- joins
case(NW, 'SELECT o.OrderID, c.CompanyName FROM Orders o INNER JOIN Customers c '
         'ON o.CustomerID = c.CustomerID WHERE o.EmployeeID = 5',
     ['OrderID', 'CompanyName'],
     lambda T: [[o['OrderID'], c['CompanyName']] for o, c in
                join(T['Orders'], T['Customers'], lambda o, c: eq(o['CustomerID'], c['CustomerID']))
                if o['EmployeeID'] == 5])
case(NW, 'SELECT Orders.OrderID, Customers.CompanyName FROM Customers INNER JOIN Orders '
         'ON Customers.CustomerID = Orders.CustomerID WHERE Orders.ShipVia = 3 AND Orders.EmployeeID = 4',
     ['OrderID', 'CompanyName'],
     lambda T: [[o['OrderID'], c['CompanyName']] for o, c in
                join(T['Orders'], T['Customers'], lambda o, c: eq(o['CustomerID'], c['CustomerID']))
                if o['ShipVia'] == 3 and o['EmployeeID'] == 4])
case(NW, 'SELECT COUNT(*) AS n FROM Orders o, [Order Details] d WHERE o.OrderID = d.OrderID',
     ['n'], lambda T: [[len(T['Order Details'])]])
case(NW, 'SELECT d.OrderID, p.ProductName, d.Quantity FROM [Order Details] d INNER JOIN Products p '
         'ON d.ProductID = p.ProductID WHERE d.OrderID < 10260',
     ['OrderID', 'ProductName', 'Quantity'],
     lambda T: [[d['OrderID'], p['ProductName'], d['Quantity']] for d, p in
                join(T['Order Details'], T['Products'], lambda d, p: d['ProductID'] == p['ProductID'])
                if d['OrderID'] < 10260])
case(NW, 'SELECT o.OrderID, e.LastName, s.CompanyName FROM (Orders o INNER JOIN Employees e '
         'ON o.EmployeeID = e.EmployeeID) INNER JOIN Shippers s ON o.ShipVia = s.ShipperID '
         'WHERE o.OrderID BETWEEN 10300 AND 10330',
     ['OrderID', 'LastName', 'CompanyName'],
     lambda T: [[o['OrderID'], e['LastName'], s['CompanyName']] for o in T['Orders']
                for e in T['Employees'] for s in T['Shippers']
                if o['EmployeeID'] == e['EmployeeID'] and o['ShipVia'] == s['ShipperID']
                and 10300 <= o['OrderID'] <= 10330])
case(NW, 'SELECT p.ProductName, c.CategoryName, s.CompanyName FROM (Products p INNER JOIN Categories c '
         'ON p.CategoryID = c.CategoryID) INNER JOIN Suppliers s ON p.SupplierID = s.SupplierID',
     ['ProductName', 'CategoryName', 'CompanyName'],
     lambda T: [[p['ProductName'], c['CategoryName'], s['CompanyName']] for p in T['Products']
                for c in T['Categories'] for s in T['Suppliers']
                if p['CategoryID'] == c['CategoryID'] and p['SupplierID'] == s['SupplierID']])
case(NW, 'SELECT c.CustomerID, o.OrderID FROM Customers c LEFT JOIN Orders o '
         'ON c.CustomerID = o.CustomerID WHERE o.OrderID IS NULL',
     ['CustomerID', 'OrderID'],
     lambda T: [[c['CustomerID'], None] for c, o in
                left(T['Customers'], T['Orders'], lambda c, o: eq(c['CustomerID'], o['CustomerID']))
                if o is None])
case(NW, 'SELECT c.CustomerID, o.OrderID FROM Orders o RIGHT OUTER JOIN Customers c '
         'ON c.CustomerID = o.CustomerID WHERE c.Country = \'Spain\'',
     ['CustomerID', 'OrderID'],
     lambda T: [[c['CustomerID'], o['OrderID'] if o else None] for c, o in
                left(T['Customers'], T['Orders'], lambda c, o: eq(c['CustomerID'], o['CustomerID']))
                if c['Country'] == 'Spain'])
case(NW, 'SELECT COUNT(*) AS n FROM {oj Customers c LEFT OUTER JOIN Orders o ON c.CustomerID = o.CustomerID}',
     ['n'], lambda T: [[len(left(T['Customers'], T['Orders'],
                                 lambda c, o: eq(c['CustomerID'], o['CustomerID'])))]])
case(NW, 'SELECT e.LastName, m.LastName AS Boss FROM Employees e LEFT JOIN Employees m '
         'ON e.ReportsTo = m.EmployeeID',
     ['LastName', 'Boss'],
     lambda T: [[e['LastName'], m['LastName'] if m else None] for e, m in
                left(T['Employees'], T['Employees'], lambda e, m: e['ReportsTo'] == m['EmployeeID'])])
case(NW, 'SELECT e.LastName, m.LastName AS Boss FROM Employees e INNER JOIN Employees m '
         'ON e.ReportsTo = m.EmployeeID',
     ['LastName', 'Boss'],
     lambda T: [[e['LastName'], m['LastName']] for e, m in
                join(T['Employees'], T['Employees'], lambda e, m: e['ReportsTo'] == m['EmployeeID'])])
case(NW, 'SELECT a.EmployeeID, b.EmployeeID AS other FROM Employees a, Employees b '
         'WHERE a.City = b.City AND a.EmployeeID < b.EmployeeID',
     ['EmployeeID', 'other'],
     lambda T: [[a['EmployeeID'], b['EmployeeID']] for a in T['Employees'] for b in T['Employees']
                if eq(a['City'], b['City']) and a['EmployeeID'] < b['EmployeeID']])
case(NW, 'SELECT s.ShipperID, e.EmployeeID FROM Shippers s CROSS JOIN Employees e',
     ['ShipperID', 'EmployeeID'],
     lambda T: [[s['ShipperID'], e['EmployeeID']] for s in T['Shippers'] for e in T['Employees']])
case(NW, 'SELECT s.ShipperID, e.EmployeeID FROM Shippers s, Employees e WHERE e.EmployeeID > s.ShipperID * 2',
     ['ShipperID', 'EmployeeID'],
     lambda T: [[s['ShipperID'], e['EmployeeID']] for s in T['Shippers'] for e in T['Employees']
                if e['EmployeeID'] > s['ShipperID'] * 2])
case(NW, 'SELECT [Order Details].OrderID, [Order Details].[UnitPrice] FROM [Order Details] INNER JOIN Products '
         'ON [Order Details].ProductID = Products.ProductID WHERE Products.ProductName = \'Chai\'',
     ['OrderID', 'UnitPrice'],
     lambda T: [[d['OrderID'], d['UnitPrice']] for d, p in
                join(T['Order Details'], T['Products'], lambda d, p: d['ProductID'] == p['ProductID'])
                if p['ProductName'] == 'Chai'], decimal_cols=('UnitPrice',))
case(NW, 'SELECT s.* FROM Shippers s INNER JOIN Orders o ON s.ShipperID = o.ShipVia WHERE o.OrderID = 10250',
     ['ShipperID', 'CompanyName', 'Phone'],
     lambda T: [[s['ShipperID'], s['CompanyName'], s['Phone']] for s in T['Shippers'] for o in T['Orders']
                if s['ShipperID'] == o['ShipVia'] and o['OrderID'] == 10250])
case(NW, 'SELECT o.OrderID FROM Orders o INNER JOIN Employees e ON o.EmployeeID = e.EmployeeID '
         'AND e.LastName = \'Fuller\' WHERE o.ShipCountry = \'Germany\'',
     ['OrderID'],
     lambda T: [[o['OrderID']] for o in T['Orders'] for e in T['Employees']
                if o['EmployeeID'] == e['EmployeeID'] and e['LastName'] == 'Fuller'
                and o['ShipCountry'] == 'Germany'])
case(NW, 'SELECT c.CompanyName, o.OrderID FROM Customers c LEFT JOIN Orders o '
         'ON c.CustomerID = o.CustomerID AND o.EmployeeID = 1 WHERE c.Country = \'Mexico\'',
     ['CompanyName', 'OrderID'],
     lambda T: [[c['CompanyName'], o['OrderID'] if o else None] for c, o in
                left(T['Customers'], T['Orders'],
                     lambda c, o: eq(c['CustomerID'], o['CustomerID']) and o['EmployeeID'] == 1)
                if c['Country'] == 'Mexico'])
case(NW, 'SELECT o.OrderID, d.ProductID FROM Orders o INNER JOIN [Order Details] d ON o.OrderID = d.OrderID '
         'WHERE o.CustomerID = \'ALFKI\' ORDER BY o.OrderID, d.ProductID',
     ['OrderID', 'ProductID'],
     lambda T: sorted([o['OrderID'], d['ProductID']] for o, d in
                      join(T['Orders'], T['Order Details'], lambda o, d: o['OrderID'] == d['OrderID'])
                      if o['CustomerID'] == 'ALFKI'), ordered=['OrderID', 'ProductID'])
case(NW, 'SELECT p.ProductName FROM Products p INNER JOIN Suppliers s ON p.SupplierID = s.SupplierID '
         'WHERE s.Country = \'Japan\' AND p.UnitPrice > 10',
     ['ProductName'],
     lambda T: [[p['ProductName']] for p in T['Products'] for s in T['Suppliers']
                if p['SupplierID'] == s['SupplierID'] and s['Country'] == 'Japan'
                and D(p['UnitPrice']) > 10])

# ------------------------------------------------------------- grouping
case(NW, 'SELECT ShipVia, COUNT(*) AS n FROM Orders GROUP BY ShipVia',
     ['ShipVia', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Orders'], lambda r: r['ShipVia']).items()])
case(NW, 'SELECT EmployeeID, COUNT(*) AS n, MIN(OrderDate) AS first, MAX(OrderDate) AS last '
         'FROM Orders GROUP BY EmployeeID ORDER BY EmployeeID',
     ['EmployeeID', 'n', 'first', 'last'],
     lambda T: sorted([k, len(v), min(r['OrderDate'] for r in v), max(r['OrderDate'] for r in v)]
                      for k, v in group(T['Orders'], lambda r: r['EmployeeID']).items()),
     ordered=['EmployeeID'])
case(NW, 'SELECT CategoryID, SUM(UnitsInStock) AS s FROM Products GROUP BY CategoryID',
     ['CategoryID', 's'],
     lambda T: [[k, sum(r['UnitsInStock'] or 0 for r in v)] for k, v in
                group(T['Products'], lambda r: r['CategoryID']).items()])
case(NW, 'SELECT CategoryID, SUM(UnitPrice) AS s FROM Products GROUP BY CategoryID',
     ['CategoryID', 's'],
     lambda T: [[k, money(sum(D(r['UnitPrice']) for r in v))] for k, v in
                group(T['Products'], lambda r: r['CategoryID']).items()], decimal_cols=('s',))
case(NW, 'SELECT OrderID, SUM(Quantity) AS q FROM [Order Details] GROUP BY OrderID HAVING SUM(Quantity) > 200',
     ['OrderID', 'q'],
     lambda T: [[k, sum(r['Quantity'] for r in v)] for k, v in
                group(T['Order Details'], lambda r: r['OrderID']).items()
                if sum(r['Quantity'] for r in v) > 200])
case(NW, 'SELECT Country, COUNT(*) AS n FROM Customers GROUP BY Country HAVING COUNT(*) >= 5 ORDER BY COUNT(*) DESC, Country',
     ['Country', 'n'],
     lambda T: sorted(([k, len(v)] for k, v in group(T['Customers'], lambda r: r['Country']).items()
                       if len(v) >= 5), key=lambda r: (-r[1], r[0])), ordered=['n'])
case(NW, 'SELECT COUNT(*) AS n, COUNT(Region) AS r, COUNT(DISTINCT Country) AS c FROM Customers',
     ['n', 'r', 'c'],
     lambda T: [[len(T['Customers']), sum(1 for r in T['Customers'] if r['Region'] is not None),
                 len({fold(r['Country']) for r in T['Customers'] if r['Country'] is not None})]])
case(NW, 'SELECT Region, COUNT(*) AS n FROM Customers GROUP BY Region',
     ['Region', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Customers'], lambda r: r['Region']).items()])
case(NW, 'SELECT COUNT(*) AS n FROM Orders WHERE OrderID < 0', ['n'], lambda T: [[0]])
case(NW, 'SELECT ShipVia, COUNT(*) AS n FROM Orders WHERE OrderID < 0 GROUP BY ShipVia', ['ShipVia', 'n'],
     lambda T: [])
case(NW, 'SELECT MAX(OrderID) - MIN(OrderID) AS span FROM Orders', ['span'],
     lambda T: [[max(r['OrderID'] for r in T['Orders']) - min(r['OrderID'] for r in T['Orders'])]])
case(NW, 'SELECT c.Country, COUNT(o.OrderID) AS n FROM Customers c LEFT JOIN Orders o '
         'ON c.CustomerID = o.CustomerID GROUP BY c.Country',
     ['Country', 'n'],
     lambda T: [[k, sum(1 for c, o in v if o is not None)] for k, v in
                group(left(T['Customers'], T['Orders'], lambda c, o: eq(c['CustomerID'], o['CustomerID'])),
                      lambda p: p[0]['Country']).items()])
case(NW, 'SELECT e.LastName, COUNT(*) AS n FROM Employees e INNER JOIN Orders o ON e.EmployeeID = o.EmployeeID '
         'GROUP BY e.LastName HAVING COUNT(*) > 100',
     ['LastName', 'n'],
     lambda T: [[k, len(v)] for k, v in
                group(join(T['Employees'], T['Orders'], lambda e, o: e['EmployeeID'] == o['EmployeeID']),
                      lambda p: p[0]['LastName']).items() if len(v) > 100])
case(NW, 'SELECT p.CategoryID, COUNT(*) AS n, SUM(d.Quantity) AS q FROM [Order Details] d '
         'INNER JOIN Products p ON d.ProductID = p.ProductID GROUP BY p.CategoryID',
     ['CategoryID', 'n', 'q'],
     lambda T: [[k, len(v), sum(d['Quantity'] for d, p in v)] for k, v in
                group(join(T['Order Details'], T['Products'], lambda d, p: d['ProductID'] == p['ProductID']),
                      lambda x: x[1]['CategoryID']).items()])
case(NW, 'SELECT YEAR(OrderDate) AS y, COUNT(*) AS n FROM Orders GROUP BY YEAR(OrderDate)',
     ['y', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Orders'], lambda r: int(r['OrderDate'][:4])).items()])
case(NW, 'SELECT ShipVia * 10 AS v, COUNT(*) AS n FROM Orders GROUP BY ShipVia * 10',
     ['v', 'n'],
     lambda T: [[k * 10, len(v)] for k, v in group(T['Orders'], lambda r: r['ShipVia']).items()])
case(NW, 'SELECT First(LastName) AS f, Last(LastName) AS l FROM Employees',
     ['f', 'l'], lambda T: [[T['Employees'][0]['LastName'], T['Employees'][-1]['LastName']]])
case(NW, 'SELECT DISTINCT ShipCountry FROM Orders', ['ShipCountry'],
     lambda T: [[k] for k in {r['ShipCountry'] for r in T['Orders']}])
case(NW, 'SELECT DISTINCTROW c.Country FROM Customers c INNER JOIN Orders o ON c.CustomerID = o.CustomerID',
     ['Country'],
     lambda T: [[k] for k in {c['Country'] for c, o in
                               join(T['Customers'], T['Orders'],
                                    lambda c, o: eq(c['CustomerID'], o['CustomerID']))}])
case(NW, 'SELECT CustomerID, COUNT(*) AS n FROM Orders GROUP BY CustomerID HAVING MIN(Freight) > 20',
     ['CustomerID', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Orders'], lambda r: r['CustomerID']).items()
                if min(D(r['Freight']) for r in v) > 20])

# ----------------------------------------------------------- subqueries
case(NW, 'SELECT CustomerID FROM Customers WHERE CustomerID NOT IN (SELECT CustomerID FROM Orders)',
     ['CustomerID'],
     lambda T: [[c['CustomerID']] for c in T['Customers']
                if not any(eq(c['CustomerID'], o['CustomerID']) for o in T['Orders'])])
case(NW, 'SELECT COUNT(*) AS n FROM Customers c WHERE EXISTS (SELECT * FROM Orders o '
         'WHERE o.CustomerID = c.CustomerID AND o.ShipVia = 2)',
     ['n'],
     lambda T: [[sum(1 for c in T['Customers']
                     if any(eq(o['CustomerID'], c['CustomerID']) and o['ShipVia'] == 2 for o in T['Orders']))]])
case(NW, 'SELECT CustomerID FROM Customers c WHERE NOT EXISTS (SELECT 1 FROM Orders o '
         'WHERE o.CustomerID = c.CustomerID)',
     ['CustomerID'],
     lambda T: [[c['CustomerID']] for c in T['Customers']
                if not any(eq(c['CustomerID'], o['CustomerID']) for o in T['Orders'])])
case(NW, 'SELECT ProductName FROM Products WHERE UnitPrice > (SELECT AVG(UnitPrice) FROM Products) * 2',
     ['ProductName'],
     lambda T: [[p['ProductName']] for p in T['Products']
                if D(p['UnitPrice']) > 2 * sum(D(q['UnitPrice']) for q in T['Products']) / len(T['Products'])])
case(NW, 'SELECT p.ProductName FROM Products p WHERE p.UnitPrice = (SELECT MAX(q.UnitPrice) FROM Products q '
         'WHERE q.CategoryID = p.CategoryID)',
     ['ProductName'],
     lambda T: [[p['ProductName']] for p in T['Products']
                if D(p['UnitPrice']) == max(D(q['UnitPrice']) for q in T['Products']
                                            if q['CategoryID'] == p['CategoryID'])])
case(NW, 'SELECT ProductID, (SELECT CategoryName FROM Categories g WHERE g.CategoryID = p.CategoryID) AS cat '
         'FROM Products p WHERE ProductID <= 10',
     ['ProductID', 'cat'],
     lambda T: [[p['ProductID'], next(g['CategoryName'] for g in T['Categories']
                                      if g['CategoryID'] == p['CategoryID'])]
                for p in T['Products'] if p['ProductID'] <= 10])
case(NW, 'SELECT ProductID FROM Products WHERE UnitPrice >= ALL (SELECT UnitPrice FROM Products)',
     ['ProductID'],
     lambda T: [[p['ProductID']] for p in T['Products']
                if D(p['UnitPrice']) == max(D(q['UnitPrice']) for q in T['Products'])])
case(NW, 'SELECT ProductID FROM Products WHERE UnitPrice < ANY (SELECT UnitPrice FROM Products WHERE CategoryID = 2)',
     ['ProductID'],
     lambda T: [[p['ProductID']] for p in T['Products']
                if D(p['UnitPrice']) < max(D(q['UnitPrice']) for q in T['Products'] if q['CategoryID'] == 2)])
case(NW, 'SELECT ProductID FROM Products WHERE CategoryID = SOME (SELECT CategoryID FROM Categories '
         'WHERE CategoryName LIKE \'C*\')',
     ['ProductID'],
     lambda T: [[p['ProductID']] for p in T['Products']
                if p['CategoryID'] in {c['CategoryID'] for c in T['Categories']
                                       if c['CategoryName'].lower().startswith('c')}])
case(NW, 'SELECT OrderID FROM Orders WHERE EmployeeID IN (SELECT EmployeeID FROM Employees WHERE City = \'London\') '
         'AND ShipVia = 1',
     ['OrderID'],
     lambda T: [[o['OrderID']] for o in T['Orders'] if o['ShipVia'] == 1 and
                o['EmployeeID'] in {e['EmployeeID'] for e in T['Employees'] if e['City'] == 'London'}])
case(NW, 'SELECT t.Country, t.n FROM (SELECT Country, COUNT(*) AS n FROM Customers GROUP BY Country) AS t '
         'WHERE t.n > 8',
     ['Country', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Customers'], lambda r: r['Country']).items() if len(v) > 8])
case(NW, 'SELECT x.OrderID, c.CompanyName FROM (SELECT OrderID, CustomerID FROM Orders WHERE EmployeeID = 9) x '
         'INNER JOIN Customers c ON x.CustomerID = c.CustomerID',
     ['OrderID', 'CompanyName'],
     lambda T: [[o['OrderID'], c['CompanyName']] for o in T['Orders'] for c in T['Customers']
                if o['EmployeeID'] == 9 and eq(o['CustomerID'], c['CustomerID'])])
case(NW, 'SELECT MAX(n) AS m FROM (SELECT CustomerID, COUNT(*) AS n FROM Orders GROUP BY CustomerID) AS g',
     ['m'], lambda T: [[max(len(v) for v in group(T['Orders'], lambda r: r['CustomerID']).values())]])
case(NW, 'SELECT c.CompanyName, (SELECT COUNT(*) FROM Orders o WHERE o.CustomerID = c.CustomerID) AS n '
         'FROM Customers c WHERE c.Country = \'France\'',
     ['CompanyName', 'n'],
     lambda T: [[c['CompanyName'], sum(1 for o in T['Orders'] if eq(o['CustomerID'], c['CustomerID']))]
                for c in T['Customers'] if c['Country'] == 'France'])

# ------------------------- correlated subqueries of a grouped query
# Outside an aggregate, the enclosing block's column is the group's GROUP
# BY value (it was the last row read: one value for every group).
def max_or_none(vals):
    vals = [v for v in vals if v is not None]
    return money(max(vals)) if vals else None


case(NW, "SELECT c.Country, (SELECT MAX(Freight) FROM Orders o WHERE o.ShipCountry = c.Country) AS m "
         "FROM Customers c WHERE c.Country IN ('Germany', 'Mexico', 'UK', 'Sweden') GROUP BY c.Country",
     ['Country', 'm'],
     lambda T: [[k, max_or_none(D(o['Freight']) for o in T['Orders'] if eq(o['ShipCountry'], k))]
                for k in {c['Country'] for c in T['Customers']
                          if c['Country'] in ('Germany', 'Mexico', 'UK', 'Sweden')}],
     decimal_cols=('m',))
case(NW, 'SELECT p.CategoryID, COUNT(*) AS n, (SELECT CategoryName FROM Categories k '
         'WHERE k.CategoryID = p.CategoryID) AS name FROM Products p GROUP BY p.CategoryID',
     ['CategoryID', 'n', 'name'],
     lambda T: [[k, len(v), [c['CategoryName'] for c in T['Categories'] if c['CategoryID'] == k][0]]
                for k, v in group(T['Products'], lambda r: r['CategoryID']).items()])
case(NW, 'SELECT c.Country FROM Customers c GROUP BY c.Country '
         'HAVING (SELECT COUNT(*) FROM Suppliers s WHERE s.Country = c.Country) > 2',
     ['Country'],
     lambda T: [[k] for k in {c['Country'] for c in T['Customers']}
                if sum(1 for s in T['Suppliers'] if eq(s['Country'], k)) > 2])
case(NW, 'SELECT c.Country, (SELECT COUNT(*) FROM Orders o WHERE o.ShipCountry = c.Country AND EXISTS '
         '(SELECT 1 FROM Suppliers s WHERE s.Country = c.Country)) AS n FROM Customers c GROUP BY c.Country',
     ['Country', 'n'],
     lambda T: [[k, sum(1 for o in T['Orders'] if eq(o['ShipCountry'], k))
                 if any(eq(s['Country'], k) for s in T['Suppliers']) else 0]
                for k in {c['Country'] for c in T['Customers']}])
# inside an aggregate the subquery reads each row, as before
case(NW, "SELECT c.Country, SUM((SELECT COUNT(*) FROM Orders o WHERE o.CustomerID = c.CustomerID)) AS n "
         "FROM Customers c GROUP BY c.Country",
     ['Country', 'n'],
     lambda T: [[k, float(sum(sum(1 for o in T['Orders'] if eq(o['CustomerID'], c['CustomerID'])) for c in v))]
                for k, v in group(T['Customers'], lambda r: r['Country']).items()])

# ------------------------------------------- text: trailing spaces aside
# Suppliers 9 holds Country 'Sweden ' (a trailing space), 17 'Sweden':
# Jet's = and its grouping ignore trailing spaces, LIKE does not (Access
# 2000 and later: Allen Browne, "Trailing spaces give inconsistent query
# results"), and StrComp is VBA's (trailing spaces count: test_sql_funcs).
for lit in ('Sweden', 'Sweden   ', 'SWEDEN '):
    case(NW, "SELECT SupplierID FROM Suppliers WHERE Country = '%s'" % lit, ['SupplierID'],
         lambda T, lit=lit: [[r['SupplierID']] for r in T['Suppliers'] if eq(r['Country'], lit)])
# a padded key seeks its unpadded value (EXPLAIN: SEEK Customers.PrimaryKey)
case(NW, "SELECT CustomerID FROM Customers WHERE CustomerID = 'bergs  '", ['CustomerID'],
     lambda T: [[r['CustomerID']] for r in T['Customers'] if eq(r['CustomerID'], 'bergs  ')])
case(NW, "SELECT SupplierID FROM Suppliers WHERE Country LIKE 'Sweden'", ['SupplierID'],
     lambda T: [[r['SupplierID']] for r in T['Suppliers']
                if r['Country'] is not None and r['Country'].lower() == 'sweden'])
case(NW, "SELECT SupplierID FROM Suppliers WHERE Country IN ('Norway', 'Sweden') AND Country >= 'Sweden '",
     ['SupplierID'],
     lambda T: [[r['SupplierID']] for r in T['Suppliers'] if eq(r['Country'], 'Sweden')])
case(NW, 'SELECT c.CustomerID, s.SupplierID FROM Customers c INNER JOIN Suppliers s ON c.Country = s.Country',
     ['CustomerID', 'SupplierID'],
     lambda T: [[c['CustomerID'], s['SupplierID']] for c, s in
                join(T['Customers'], T['Suppliers'], lambda c, s: eq(c['Country'], s['Country']))])
case(NW, 'SELECT COUNT(*) AS n FROM Suppliers GROUP BY Country', ['n'],
     lambda T: [[len(v)] for v in group(T['Suppliers'], lambda r: pad(r['Country'])).values()])
case(NW, 'SELECT COUNT(*) AS n FROM (SELECT DISTINCT Country FROM Suppliers) AS d', ['n'],
     lambda T: [[len({pad(r['Country']) for r in T['Suppliers']})]])

# ----------------------------------------------------------------- UNION
case(NW, 'SELECT City FROM Customers WHERE Country = \'UK\' UNION SELECT City FROM Suppliers WHERE Country = \'UK\'',
     ['City'],
     lambda T: [[k] for k in {r['City'] for r in T['Customers'] + T['Suppliers'] if r['Country'] == 'UK'}])
case(NW, 'SELECT City FROM Customers WHERE Country = \'UK\' UNION ALL SELECT City FROM Suppliers WHERE Country = \'UK\'',
     ['City'],
     lambda T: [[r['City']] for r in T['Customers'] + T['Suppliers'] if r['Country'] == 'UK'])
case(NW, 'SELECT EmployeeID AS id FROM Employees UNION SELECT ShipperID FROM Shippers ORDER BY id DESC',
     ['id'],
     lambda T: [[k] for k in sorted({r['EmployeeID'] for r in T['Employees']} |
                                    {r['ShipperID'] for r in T['Shippers']}, reverse=True)],
     ordered=['id'])
case(NW, 'SELECT OrderID, ShipVia FROM Orders WHERE OrderID < 10255 UNION ALL '
         'SELECT OrderID, ShipVia FROM Orders WHERE OrderID > 11075 ORDER BY 1',
     ['OrderID', 'ShipVia'],
     lambda T: sorted([r['OrderID'], r['ShipVia']] for r in T['Orders']
                      if r['OrderID'] < 10255 or r['OrderID'] > 11075), ordered=['OrderID'])
case(NW, 'SELECT CategoryID FROM Categories UNION SELECT CategoryID FROM Products UNION '
         'SELECT SupplierID FROM Suppliers WHERE SupplierID < 3',
     ['CategoryID'],
     lambda T: [[k] for k in {r['CategoryID'] for r in T['Categories']} |
                {r['SupplierID'] for r in T['Suppliers'] if r['SupplierID'] < 3}])

# -------------------------------------------------------- ASampleDatabase
case(AS, 'SELECT [Asset Category], COUNT(*) AS n FROM [Asset Items] GROUP BY [Asset Category]',
     ['Asset Category', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Asset Items'], lambda r: r['Asset Category']).items()])
case(AS, 'SELECT Owner, SUM(Cost) AS total FROM [Asset Items] GROUP BY Owner',
     ['Owner', 'total'],
     lambda T: [[k, money(sum(D(r['Cost']) for r in v if r['Cost'] is not None))
                 if any(r['Cost'] is not None for r in v) else None]
                for k, v in group(T['Asset Items'], lambda r: r['Owner']).items()],
     decimal_cols=('total',))
case(AS, 'SELECT a.[Asset No], b.[Asset No] AS other FROM [Asset Items] a INNER JOIN [Asset Items] b '
         'ON a.[Serial No] = b.[Serial No] AND a.[Asset No] < b.[Asset No]',
     ['Asset No', 'other'],
     lambda T: [[a['Asset No'], b['Asset No']] for a in T['Asset Items'] for b in T['Asset Items']
                if eq(a['Serial No'], b['Serial No']) and a['Asset No'] < b['Asset No']])
case(AS, 'SELECT Warranty, COUNT(*) AS n, MAX(Acquired) AS latest FROM [Asset Items] GROUP BY Warranty',
     ['Warranty', 'n', 'latest'],
     lambda T: [[k, len(v), max((r['Acquired'] for r in v if r['Acquired']), default=None)]
                for k, v in group(T['Asset Items'], lambda r: r['Warranty']).items()])
case(AS, 'SELECT [Asset No] FROM [Asset Items] WHERE Cost > (SELECT AVG(Cost) FROM [Asset Items])',
     ['Asset No'],
     lambda T: [[r['Asset No']] for r in T['Asset Items'] if r['Cost'] is not None and
                D(r['Cost']) > sum(D(x['Cost']) for x in T['Asset Items'] if x['Cost'] is not None) /
                sum(1 for x in T['Asset Items'] if x['Cost'] is not None)])
case(AS, 'SELECT Make FROM [Asset Items] WHERE Owner = \'Sales\' UNION SELECT Make FROM [Asset Items] '
         'WHERE Warranty = 6',
     ['Make'],
     lambda T: [[k] for k in {fold(r['Make']): r['Make'] for r in T['Asset Items']
                              if r['Owner'] == 'Sales' or r['Warranty'] == 6}.values()])


# ------------------------------------------------------------- more
case(NW, 'SELECT ProductID, AVG(Quantity) AS q FROM [Order Details] GROUP BY ProductID',
     ['ProductID', 'q'],
     lambda T: [[k, sum(r['Quantity'] for r in v) / len(v)] for k, v in
                group(T['Order Details'], lambda r: r['ProductID']).items()])
case(NW, 'SELECT COUNT(*) AS n FROM Employees WHERE EmployeeID NOT IN (SELECT ReportsTo FROM Employees)',
     ['n'], lambda T: [[0]])   # ReportsTo holds a NULL: NOT IN is never true
case(NW, 'SELECT COUNT(*) AS n FROM Employees WHERE EmployeeID NOT IN (SELECT ReportsTo FROM Employees '
         'WHERE ReportsTo IS NOT NULL)',
     ['n'], lambda T: [[sum(1 for e in T['Employees']
                            if e['EmployeeID'] not in {m['ReportsTo'] for m in T['Employees']})]])
case(NW, 'SELECT ShipCountry, COUNT(*) AS n FROM Orders GROUP BY ShipCountry HAVING SUM(Freight) > 1000',
     ['ShipCountry', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Orders'], lambda r: r['ShipCountry']).items()
                if sum(D(r['Freight']) for r in v) > 1000])
case(NW, 'SELECT ShipVia, COUNT(*) AS n FROM Orders GROUP BY ShipVia ORDER BY n DESC',
     ['ShipVia', 'n'],
     lambda T: sorted(([k, len(v)] for k, v in group(T['Orders'], lambda r: r['ShipVia']).items()),
                      key=lambda r: -r[1]), ordered=['n'])
case(NW, 'SELECT COUNT(*) AS n FROM (Customers c LEFT JOIN Orders o ON c.CustomerID = o.CustomerID) '
         'LEFT JOIN Employees e ON o.EmployeeID = e.EmployeeID',
     ['n'], lambda T: [[len(left(T['Customers'], T['Orders'],
                                 lambda c, o: eq(c['CustomerID'], o['CustomerID'])))]])
case(NW, 'SELECT g.CategoryID, g.n, c.CategoryName FROM (SELECT CategoryID, COUNT(*) AS n FROM Products '
         'GROUP BY CategoryID) AS g INNER JOIN Categories c ON g.CategoryID = c.CategoryID WHERE g.n > 10',
     ['CategoryID', 'n', 'CategoryName'],
     lambda T: [[k, len(v), next(c['CategoryName'] for c in T['Categories'] if c['CategoryID'] == k)]
                for k, v in group(T['Products'], lambda r: r['CategoryID']).items() if len(v) > 10])
case(NW, 'SELECT EmployeeID, (SELECT MAX(OrderID) FROM Orders o WHERE o.EmployeeID = e.EmployeeID) AS last '
         'FROM Employees e',
     ['EmployeeID', 'last'],
     lambda T: [[e['EmployeeID'], max(o['OrderID'] for o in T['Orders'] if o['EmployeeID'] == e['EmployeeID'])]
                for e in T['Employees']])
case(NW, 'SELECT EmployeeID, (SELECT OrderID FROM Orders o WHERE o.EmployeeID = e.EmployeeID AND o.OrderID < 0) AS x '
         'FROM Employees e',
     ['EmployeeID', 'x'], lambda T: [[e['EmployeeID'], None] for e in T['Employees']])
case(NW, 'SELECT COUNT(*) AS n FROM Orders WHERE EXISTS (SELECT * FROM Shippers WHERE ShipperID = 2)',
     ['n'], lambda T: [[len(T['Orders'])]])
case(NW, 'SELECT COUNT(*) AS n FROM Orders WHERE NOT EXISTS (SELECT * FROM Shippers WHERE ShipperID = 2)',
     ['n'], lambda T: [[0]])
case(NW, 'SELECT a.EmployeeID, COUNT(*) AS n FROM Employees a INNER JOIN Employees b ON a.EmployeeID = b.ReportsTo '
         'GROUP BY a.EmployeeID',
     ['EmployeeID', 'n'],
     lambda T: [[k, len(v)] for k, v in group(join(T['Employees'], T['Employees'],
                                                  lambda a, b: a['EmployeeID'] == b['ReportsTo']),
                                             lambda p: p[0]['EmployeeID']).items()])
case(NW, 'SELECT o.ShipVia, e.EmployeeID, COUNT(*) AS n FROM Orders o INNER JOIN Employees e '
         'ON o.EmployeeID = e.EmployeeID GROUP BY o.ShipVia, e.EmployeeID',
     ['ShipVia', 'EmployeeID', 'n'],
     lambda T: [[k[0], k[1], len(v)] for k, v in
                group(T['Orders'], lambda r: (r['ShipVia'], r['EmployeeID'])).items()])
case(NW, 'SELECT SUM(d.UnitPrice * d.Quantity) AS total FROM [Order Details] d INNER JOIN Orders o '
         'ON d.OrderID = o.OrderID WHERE o.CustomerID = \'ALFKI\'',
     ['total'],
     lambda T: [[money(sum(D(d['UnitPrice']) * d['Quantity'] for d in T['Order Details'] for o in T['Orders']
                           if d['OrderID'] == o['OrderID'] and o['CustomerID'] == 'ALFKI'))]],
     decimal_cols=('total',))
case(NW, 'SELECT DISTINCT c.Country FROM Customers c WHERE c.CustomerID IN (SELECT CustomerID FROM Orders '
         'WHERE ShipVia = 3 AND EmployeeID = 2)',
     ['Country'],
     lambda T: [[k] for k in {c['Country'] for c in T['Customers']
                              if any(eq(c['CustomerID'], o['CustomerID']) and o['ShipVia'] == 3
                                     and o['EmployeeID'] == 2 for o in T['Orders'])}])
case(AS, 'SELECT Owner, [Asset Category], COUNT(*) AS n FROM [Asset Items] GROUP BY Owner, [Asset Category]',
     ['Owner', 'Asset Category', 'n'],
     lambda T: [[k[0], k[1], len(v)] for k, v in
                group(T['Asset Items'], lambda r: (r['Owner'], r['Asset Category'])).items()])
case(AS, 'SELECT COUNT(*) AS n FROM [Asset Items] a, [Asset Items] b WHERE a.Owner = b.Owner',
     ['n'],
     lambda T: [[sum(1 for a in T['Asset Items'] for b in T['Asset Items'] if eq(a['Owner'], b['Owner']))]])

# ------------------------------------------- LibreOffice Base's generated SQL
# What LibreOffice Base's query designer and table view send through ODBC
# with the identifier quote the driver reports (SQL_IDENTIFIER_QUOTE_CHAR
# "`", as Microsoft's driver): backtick-quoted names, a table alias
# without AS, comma joins with the condition in WHERE inside doubled
# parentheses, {oj ...} for outer joins, spaces inside function calls,
# ASC/DESC, {d}/{ts} escapes, "WHERE 0 = 1" for metadata.
PER_COUNTRY = lambda T, country: [[o['OrderID'], c['CompanyName']] for o, c in
                                  join(T['Orders'], T['Customers'],
                                       lambda o, c: eq(o['CustomerID'], c['CustomerID']))
                                  if country is None or o['ShipCountry'] == country]
case(NW, 'SELECT `Orders`.`OrderID`, `Customers`.`CompanyName` FROM `Orders`, `Customers` '
         'WHERE `Orders`.`CustomerID` = `Customers`.`CustomerID`',
     ['OrderID', 'CompanyName'], lambda T: PER_COUNTRY(T, None))
case(NW, 'SELECT `Orders`.`OrderID`, `Customers`.`CompanyName` FROM `Orders` `Orders`, `Customers` '
         '`Customers` WHERE ( ( `Orders`.`CustomerID` = `Customers`.`CustomerID` ) )',
     ['OrderID', 'CompanyName'], lambda T: PER_COUNTRY(T, None))
case(NW, 'SELECT `Orders`.`OrderID`, `Customers`.`CompanyName` FROM `Orders` AS `Orders`, `Customers` '
         'AS `Customers` WHERE ( `Orders`.`CustomerID` = `Customers`.`CustomerID` AND '
         '`Orders`.`ShipCountry` = \'France\' )',
     ['OrderID', 'CompanyName'], lambda T: PER_COUNTRY(T, 'France'))
case(NW, 'SELECT `Customers`.`CustomerID`, `Orders`.`OrderID` FROM { oj `Customers` LEFT OUTER JOIN '
         '`Orders` ON `Customers`.`CustomerID` = `Orders`.`CustomerID` }',
     ['CustomerID', 'OrderID'],
     lambda T: [[c['CustomerID'], o['OrderID'] if o else None] for c, o in
                left(T['Customers'], T['Orders'], lambda c, o: eq(c['CustomerID'], o['CustomerID']))])
case(NW, 'SELECT `Customers`.`CompanyName` FROM { oj `Customers` `Customers` LEFT OUTER JOIN `Orders` '
         '`Orders` ON `Customers`.`CustomerID` = `Orders`.`CustomerID` } WHERE `Orders`.`OrderID` IS NULL',
     ['CompanyName'],
     lambda T: [[c['CompanyName']] for c, o in
                left(T['Customers'], T['Orders'], lambda c, o: eq(c['CustomerID'], o['CustomerID']))
                if o is None])
case(NW, 'SELECT `o`.`OrderID` AS `ID`, `c`.`CompanyName` AS `Company` FROM `Orders` `o` INNER JOIN '
         '`Customers` `c` ON `o`.`CustomerID` = `c`.`CustomerID` WHERE `o`.`EmployeeID` = 3 '
         'ORDER BY `o`.`OrderDate` ASC, `ID` DESC',
     ['ID', 'Company'],
     lambda T: [[o['OrderID'], c['CompanyName']] for o, c in
                sorted(join(T['Orders'], T['Customers'], lambda o, c: eq(o['CustomerID'], c['CustomerID'])),
                       key=lambda p: (p[0]['OrderDate'], -p[0]['OrderID']))
                if o['EmployeeID'] == 3], ordered=['ID'])
case(NW, 'SELECT COUNT( `Orders`.`OrderID` ) AS `n`, `Orders`.`ShipCountry` FROM `Orders` GROUP BY '
         '`Orders`.`ShipCountry` HAVING ( COUNT( `Orders`.`OrderID` ) > 10 ) ORDER BY `n` DESC',
     ['n', 'ShipCountry'],
     lambda T: sorted(([len(v), k] for k, v in group(T['Orders'], lambda r: r['ShipCountry']).items()
                       if len(v) > 10), key=lambda r: -r[0]), ordered=['n'])
case(NW, 'SELECT `CustomerID`, `CompanyName` FROM `Customers` WHERE ( `Country` = \'Germany\' ) '
         'ORDER BY `CustomerID` ASC',
     ['CustomerID', 'CompanyName'],
     lambda T: sorted([[c['CustomerID'], c['CompanyName']] for c in T['Customers']
                       if c['Country'] == 'Germany']), ordered=['CustomerID'])
case(NW, 'SELECT * FROM `Customers` WHERE 0 = 1',
     ['CustomerID', 'CompanyName', 'ContactName', 'ContactTitle', 'Address', 'City', 'Region',
      'PostalCode', 'Country', 'Phone', 'Fax'], lambda T: [])
case(NW, 'SELECT COUNT(*) FROM `Customers`', ['Expr1000'], lambda T: [[len(T['Customers'])]])
case(NW, 'SELECT `Orders`.`OrderID` FROM `Orders` WHERE `Orders`.`OrderDate` >= {d \'1995-01-01\'} '
         'AND `Orders`.`OrderDate` < {ts \'1995-02-01 00:00:00\'}',
     ['OrderID'],
     lambda T: [[o['OrderID']] for o in T['Orders']
                if o['OrderDate'] and '1995-01-01' <= o['OrderDate'][:10] < '1995-02-01'])
case(NW, 'SELECT `Order Details`.`OrderID`, SUM( `Order Details`.`Quantity` ) AS `Qty` FROM '
         '`Order Details` GROUP BY `Order Details`.`OrderID`',
     ['OrderID', 'Qty'],
     lambda T: [[k, sum(r['Quantity'] for r in v)] for k, v in
                group(T['Order Details'], lambda r: r['OrderID']).items()])
case(NW, 'SELECT `CustomerID` FROM `Customers` WHERE UPPER( `CompanyName` ) LIKE UPPER( \'%market%\' )',
     ['CustomerID'],
     lambda T: [[c['CustomerID']] for c in T['Customers'] if 'market' in c['CompanyName'].lower()])
case(NW, 'SELECT `Products`.`ProductName`, `Categories`.`CategoryName`, `Suppliers`.`CompanyName` FROM '
         '`Products`, `Categories`, `Suppliers` WHERE `Products`.`CategoryID` = `Categories`.`CategoryID` '
         'AND `Products`.`SupplierID` = `Suppliers`.`SupplierID`',
     ['ProductName', 'CategoryName', 'CompanyName'],
     lambda T: [[p['ProductName'], c['CategoryName'], s['CompanyName']] for p in T['Products']
                for c in T['Categories'] for s in T['Suppliers']
                if p['CategoryID'] == c['CategoryID'] and p['SupplierID'] == s['SupplierID']])
case(NW, 'SELECT `CompanyName` FROM `Customers` WHERE `Region` IS NULL AND NOT ( `Country` IN '
         '( \'Germany\', \'France\' ) )',
     ['CompanyName'],
     lambda T: [[c['CompanyName']] for c in T['Customers']
                if c['Region'] is None and c['Country'] not in ('Germany', 'France')])
case(NW, 'SELECT `OrderID`, `CustomerID` FROM `Invoices` WHERE `OrderID` = 10248',
     ['OrderID', 'CustomerID'],
     lambda T: [[d['OrderID'], o['CustomerID']] for d in T['Order Details'] for o in T['Orders']
                if d['OrderID'] == o['OrderID'] == 10248])
case(AS, 'SELECT `Asset Items`.`Owner`, COUNT( * ) AS `n` FROM `Asset Items` `Asset Items` '
         'GROUP BY `Asset Items`.`Owner`',
     ['Owner', 'n'],
     lambda T: [[k, len(v)] for k, v in group(T['Asset Items'], lambda r: r['Owner']).items()])


# ------------------------------------------------------------- perf.accdb
# Its dump has rows for customers and ole only; the other expected values
# are the facts ../shared/fixtures/bulk/README.md states about the
# generated data (counts of NULLs, fixed values of the first ids, ranges).
def perf(sql, cols, row):
    case(PERF, sql, cols, lambda T: [row])


perf('SELECT COUNT(*) AS n FROM orders o INNER JOIN customers c ON o.customer_id = c.customer_id',
     ['n'], [10000])
perf('SELECT COUNT(*) AS n FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id '
     'WHERE c.customer_id IS NULL', ['n'], [0])
perf('SELECT COUNT(*) AS n FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o '
     'WHERE o.customer_id = c.customer_id)', ['n'], [0])
perf('SELECT COUNT(*) AS n FROM customers WHERE customer_id IN (SELECT customer_id FROM orders)',
     ['n'], [1000])
perf('SELECT COUNT(*) AS n FROM (SELECT customer_id FROM orders GROUP BY customer_id) AS g',
     ['n'], [1000])
perf('SELECT COUNT(DISTINCT customer_id) AS n FROM orders', ['n'], [1000])
perf('SELECT COUNT(*) AS n FROM (SELECT DISTINCT status FROM orders) AS s', ['n'], [7])
perf('SELECT MIN(customer_id) AS lo, MAX(customer_id) AS hi FROM orders', ['lo', 'hi'], [1, 1000])
perf("SELECT COUNT(*) AS n FROM orders WHERE status IN ('new', 'paid', 'shipped', 'delivered', "
     "'cancelled', 'returned', 'on_hold')", ['n'], [10000])
perf('SELECT COUNT(*) AS n FROM orders WHERE amount >= 1 AND amount <= 5000.99', ['n'], [10000])
perf('SELECT COUNT(*) AS n FROM orders WHERE Year(order_date) BETWEEN 2015 AND 2025', ['n'], [10000])
perf('SELECT COUNT(*) AS n FROM orders o, customers c WHERE o.customer_id = c.customer_id '
     'AND c.customer_id <= 1000', ['n'], [10000])
case(PERF, 'SELECT SUM(customer_id) AS s FROM customers', ['s'],
     lambda T: [[sum(c['customer_id'] for c in T['customers'])]])
case(PERF, 'SELECT COUNT(*) AS n FROM customers WHERE city IS NULL', ['n'],
     lambda T: [[sum(1 for c in T['customers'] if c['city'] is None)]])
case(PERF, 'SELECT customer_id, name FROM customers WHERE customer_id <= 20 ORDER BY customer_id DESC',
     ['customer_id', 'name'],
     lambda T: [[c['customer_id'], c['name']] for c in
                sorted(T['customers'], key=lambda c: -c['customer_id']) if c['customer_id'] <= 20],
     ordered=['customer_id'])
perf('SELECT COUNT(*) AS n, COUNT(i) AS ni, COUNT(l) AS nl, COUNT(d) AS nd, COUNT(m) AS nm, '
     'COUNT(dt) AS ndt FROM numeric', ['n', 'ni', 'nl', 'nd', 'nm', 'ndt'],
     [25000, 25000 - 507, 25000 - 502, 25000 - 499, 25000 - 492, 25000 - 459])
perf('SELECT COUNT(*) AS n, SUM(b) AS s FROM numeric WHERE b', ['n', 's'], [12515, -12515])
perf('SELECT MAX(d) AS hi, MIN(d) AS lo FROM numeric', ['hi', 'lo'],
     [1.7976931348623157e308, -1.7976931348623157e308])
perf('SELECT MAX(m) AS hi, MIN(m) AS lo FROM numeric', ['hi', 'lo'],
     ['922337203685477.5807', '-922337203685477.5808'])
perf('SELECT d FROM numeric WHERE id = 7', ['d'], [123456789.12345679])
perf('SELECT Year(dt) AS y1 FROM numeric WHERE id = 1', ['y1'], [100])
perf('SELECT Year(dt) AS y2, Month(dt) AS m2, Day(dt) AS d2 FROM numeric WHERE id = 2',
     ['y2', 'm2', 'd2'], [9999, 12, 31])
perf('SELECT COUNT(*) AS n FROM text WHERE t50 IS NULL', ['n'], [1205])
perf("SELECT COUNT(*) AS n FROM text WHERE t255 = ''", ['n'], [244])
perf('SELECT Len(t50) AS a, Len(t100) AS b, Len(t200) AS c, Len(t255) AS d FROM text WHERE id = 1',
     ['a', 'b', 'c', 'd'], [50, 100, 200, 255])
perf('SELECT MAX(Len(t255)) AS n FROM text', ['n'], [255])
perf('SELECT COUNT(*) AS n FROM memo WHERE Len(note) > 2038', ['n'], [317])
perf('SELECT COUNT(*) AS n FROM memo WHERE Len(note) <= 1024', ['n'], [4467])
perf('SELECT SUM(Len(note)) AS s FROM memo WHERE id <= 6', ['s'],
     [500 + 6000 + 1024 + 1025 + 2038 + 2039])
perf('SELECT Len(c03) AS n FROM wide WHERE id = 1', ['n'], [30])
perf('SELECT COUNT(*) AS n FROM ole WHERE id IN (1, 2)', ['n'], [2])


def main():
    srcdir, shared, driver = locate()
    if importlib.util.find_spec('pyodbc') is None:
        skip('pyodbc is not importable by %s' % sys.executable)
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    py = sys.executable
    failed = passed = 0
    with tempfile.TemporaryDirectory(prefix='jetodbc-engine-queries.') as tmpdir:
        env = dict(os.environ, **write_ini(tmpdir, driver))
        for rel in sorted({c[0] for c in CASES}):
            if not os.path.exists(fixture_path(shared, rel)):
                print('skip %s: not found' % fixture_path(shared, rel))
                continue
            T = load(shared, rel)
            doc = {'file': rel, 'tables': []}
            for i, (r, sql, cols, fn, ordered, dec) in enumerate(CASES):
                if r != rel:
                    continue
                rows = fn(T)
                t = {'name': 'q%03d' % i, 'sql': sql,
                     'columns': [{'name': c, 'decimal': c in dec} for c in cols],
                     'row_count': len(rows), 'rows': rows}
                if ordered:
                    t['ordered_by'] = ordered
                doc['tables'].append(t)
            exp = os.path.join(tmpdir, rel.replace('/', '__') + '.exp.json')
            out = exp + '.out.json'
            res = exp + '.res.json'
            with open(exp, 'w', encoding='utf-8') as f:
                json.dump(doc, f)
            db = fixture_path(shared, rel)
            p = subprocess.run([py, tool, 'query', 'DRIVER={JetODBC};DBQ=' + db + ';',
                                '--from', exp, '-o', out], env=env, capture_output=True, text=True)
            if p.returncode != 0 or not os.path.exists(out):
                print('FAIL %s: query run failed: %s' % (rel, p.stderr[-400:]))
                failed += 1
                continue
            subprocess.run([py, tool, 'compare', exp, out, '--json-out', res, '-q'],
                           env=env, capture_output=True, text=True)
            with open(res, encoding='utf-8') as f:
                result = json.load(f)
            sqls = {t['name']: t['sql'] for t in doc['tables']}
            for t in result['tables']:
                if t.get('passed'):
                    passed += 1
                    continue
                failed += 1
                print('FAIL %s %s: %s\n     %s\n     %s' % (rel, t['name'], sqls.get(t['name']),
                                                          t.get('verdict'),
                                                          '\n     '.join(t.get('details', [])[:3])))
    print('engine_queries: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
