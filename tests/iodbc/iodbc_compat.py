#!/usr/bin/python3
"""iodbc_compat.py - the yardstick through the iODBC driver manager.

For a `configure --with-iodbc` build (4-byte SQLWCHAR): tests/iodbc/cdump
(tests/windows/windump.c built for Unix) dlopen()s iODBC's libiodbc.so.2,
reads every fixture of <shared>/fixtures/public through the W entry points
and writes the dump JSON; each is judged with `odbc_dump.py compare`
against its expected JSON, with tests/compat/expected_failures.txt as the
known failures (the same yardstick as the unixODBC build). Then:
- statements with text outside the BMP must round-trip through SQLWCHAR
  (UTF-32 here) unchanged;
- `iodbctest` (Debian package iodbc) runs a query on nwind.mdb through a
  DSN and must print its rows.

Environment: JET_BUILDDIR, JET_SRCDIR, JETODBC_SHARED, IODBC_LIB (default
libiodbc.so.2), IODBCTEST (default iodbctest).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'compat'))
from harness import (connstr_for, fixture_paths, load_expected_failures,  # noqa: E402
                     locate, tally)
from compat import judge  # noqa: E402

# (statement, expected rows): SQLExecDirectW in, SQLGetData(SQL_C_WCHAR) out
ROUND_TRIPS = [
    ("SELECT TOP 1 '\U0001F600\U0001D11E' AS s, LEN('\U0001F600\U0001D11E') AS n "
     "FROM Customers", [['\U0001F600\U0001D11E', 4]]),
    ("SELECT CompanyName FROM Customers WHERE CompanyName = "
     "'Antonio Moreno Taquer\u00eda'", [['Antonio Moreno Taquer\u00eda']]),
    ("SELECT TOP 1 'a\U00010348b' AS s FROM Customers", [['a\U00010348b']]),
]


def write_ini(tmpdir, driver, nwind):
    inst = os.path.join(tmpdir, 'odbcinst.ini')
    with open(inst, 'w') as f:
        f.write('[ODBC Drivers]\nJetODBC = Installed\n\n'
                '[JetODBC]\nDriver = %s\n' % driver)
    ini = os.path.join(tmpdir, 'odbc.ini')
    with open(ini, 'w') as f:
        f.write('[ODBC Data Sources]\nnwind = JetODBC\n\n'
                '[nwind]\nDriver = JetODBC\nDBQ = %s\n' % nwind)
    return {'ODBCINSTINI': inst, 'ODBCINI': ini}


def main():
    srcdir, shared, driver = locate()
    builddir = os.environ.get('JET_BUILDDIR', srcdir)
    cdump = os.path.join(builddir, 'tests', 'iodbc', 'cdump')
    if not os.path.exists(cdump):
        print('FAIL: %s not built (make tests/iodbc/cdump)' % cdump)
        return 1
    lib = os.environ.get('IODBC_LIB', 'libiodbc.so.2')
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    nwind = os.path.join(shared, 'fixtures', 'public', 'mdbtestdata', 'nwind.mdb')
    rc = 0
    with tempfile.TemporaryDirectory(prefix='jetodbc-iodbc.') as tmpdir:
        env = dict(os.environ, **write_ini(tmpdir, driver, nwind))
        # 1. the yardstick
        rels = fixture_paths(shared, os.environ.get('COMPAT_ONLY', ''))
        listing = os.path.join(tmpdir, 'fixtures.txt')
        outs = {}
        with open(listing, 'w', encoding='utf-8') as f:
            for rel in rels:
                exp = os.path.join(shared, 'fixtures', 'expected', rel + '.json')
                with open(exp, encoding='utf-8') as e:
                    expected = json.load(e)
                out = os.path.join(tmpdir, rel.replace('/', '__') + '.json')
                outs[rel] = (out, exp, expected)
                cs = connstr_for(os.path.join(shared, 'fixtures', 'public', rel),
                                 expected).replace('{JetODBC}', 'JetODBC')
                f.write('%s\t%s\n' % (out, cs))
        p = subprocess.run([cdump, lib, 'dump', listing], env=env,
                           capture_output=True, text=True, timeout=1800)
        if p.returncode not in (0, 1):
            print('cdump failed (%d): %s' % (p.returncode, (p.stdout + p.stderr)[-800:]))
        known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                    'expected_failures.txt'))
        verdicts = []
        for rel in rels:
            out, exp, expected = outs[rel]
            verdicts.extend((rel, n, ok, text)
                            for n, ok, text in judge(tool, exp, expected, out))
        rc = tally('iodbc-yardstick', verdicts, known, 'expected_failures.txt', len(rels))

        # 2. text outside the BMP through 4-byte SQLWCHAR
        sqlf = os.path.join(tmpdir, 'roundtrip.sql')
        with open(sqlf, 'w', encoding='utf-8') as f:
            f.write('\n'.join(s for s, _ in ROUND_TRIPS) + '\n')
        out = os.path.join(tmpdir, 'roundtrip.json')
        p = subprocess.run([cdump, lib, 'query', out, 'DSN=nwind', sqlf], env=env,
                           capture_output=True, text=True, timeout=300)
        got = []
        if os.path.exists(out):
            with open(out, encoding='utf-8') as f:
                got = json.load(f).get('tables', [])
        for i, (sql, rows) in enumerate(ROUND_TRIPS):
            t = got[i] if i < len(got) else {}
            ok = t.get('rows') == rows
            print('%s iodbc-roundtrip %d: %s' % ('ok  ' if ok else 'FAIL', i + 1,
                                                 'rows as sent' if ok else
                                                 '%r != %r %s' % (t.get('rows'), rows,
                                                                  t.get('error', ''))))
            rc = rc or (0 if ok else 1)

        # 3. iodbctest through the DSN
        iodbctest = os.environ.get('IODBCTEST') or shutil.which('iodbctest')
        if not iodbctest:
            print('FAIL iodbctest: not installed (Debian package iodbc)')
            return 1
        p = subprocess.run([iodbctest, 'DSN=nwind'], env=env, capture_output=True,
                           text=True, timeout=120,
                           input="SELECT CustomerID, City FROM Customers "
                                 "WHERE Country = 'Mexico' ORDER BY CustomerID\nquit\n")
        ok = ('result set 1 returned 5 rows' in p.stdout and 'ANATR' in p.stdout
              and 'M\u00e9xico D.F.' in p.stdout)
        print('%s iodbctest: %s' % ('ok  ' if ok else 'FAIL',
                                    'DSN query printed its 5 rows' if ok
                                    else (p.stdout + p.stderr)[-800:]))
        rc = rc or (0 if ok else 1)
    return rc


if __name__ == '__main__':
    sys.exit(main())
