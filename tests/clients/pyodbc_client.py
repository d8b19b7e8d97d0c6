"""pyodbc against nwind.mdb: tables, Employees (Memo and OLE), parameters.

Usage: pyodbc_client.py CONNECTION-STRING. Prints one line per check and
exits non-zero on the first wrong value.
"""
import datetime
import sys

import pyodbc


def check(what, got, want):
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
        sys.exit(1)
    print(f"ok   {what}")


cn = pyodbc.connect(sys.argv[1], autocommit=False)
cur = cn.cursor()
tables = {r.table_name for r in cur.tables(tableType='TABLE')}
check("tables include Employees and Order Details",
      {'Employees', 'Order Details'} <= tables, True)

rows = cur.execute("SELECT * FROM Employees ORDER BY EmployeeID").fetchall()
check("Employees rows", len(rows), 9)
check("row 1 LastName", rows[0].LastName, 'Davolio')
check("row 1 Photo (OLE) length", len(rows[0].Photo), 21626)
check("row 2 Notes (Memo) start", rows[1].Notes[:24], 'Andrew received his BTS ')
check("row 1 HireDate", rows[0].HireDate, datetime.datetime(1992, 5, 1))
desc = {d[0]: d for d in cur.description}
check("HireDate is a datetime column", desc['HireDate'][1], datetime.datetime)

row = cur.execute("SELECT FirstName FROM Employees WHERE LastName = ? "
                  "AND EmployeeID > ?", 'Fuller', 1).fetchone()
check("parameterised query", row.FirstName, 'Andrew')
row = cur.execute("SELECT COUNT(*) FROM Employees WHERE HireDate >= ?",
                  datetime.datetime(1993, 10, 17)).fetchone()
check("datetime parameter", row[0], 5)

# a fraction of a second survives (23, 3): an Orders date plus .123 s
# matches nothing, the exact one matches its rows
exact = cur.execute("SELECT COUNT(*) FROM Orders WHERE OrderDate = ?",
                    datetime.datetime(1994, 11, 16)).fetchone()[0]
plus = cur.execute("SELECT COUNT(*) FROM Orders WHERE OrderDate = ?",
                   datetime.datetime(1994, 11, 16, 0, 0, 0, 123000)).fetchone()[0]
check("datetime parameter keeps its fraction", (exact > 0, plus), (True, 0))
col = [c for c in cur.columns(table='Employees') if c.column_name == 'HireDate'][0]
check("SQLColumns HireDate size/digits", (col.column_size, col.decimal_digits),
      (23, 3))
memo = [c for c in cur.columns(table='Employees') if c.column_name == 'Notes'][0]
check("SQLColumns Notes size (MaxLongSize default)", memo.column_size, 65535)
cn.close()
