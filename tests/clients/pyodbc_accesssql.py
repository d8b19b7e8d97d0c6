"""pyodbc against nwind.mdb: Access SQL read as Access reads it (issue 28;
doc/sql.md): "..." is text, aliases reused in later fields, and the
smaller differences. Usage: pyodbc_accesssql.py CONNECTION-STRING. Prints
one line per check and exits non-zero on the first wrong value.
"""
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
cn.close()
