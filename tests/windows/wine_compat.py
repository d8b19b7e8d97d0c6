#!/usr/bin/python3
"""wine_compat.py - the yardstick for jetodbc.dll, run under Wine.

wine.test builds the 64-bit DLL and tests/windows/windump.exe with the
mingw-w64 cross compiler, then runs this script:

1. windump.exe loads jetodbc.dll directly (LoadLibrary, no driver manager)
   and dumps every fixture of <shared>/fixtures/public in one Wine process;
   each dump is judged with `odbc_dump.py compare` against its expected
   JSON, and the verdicts against tests/compat/expected_failures.txt plus
   tests/windows/wine_expected_failures.txt (what Wine cannot do: RC4).
2. tests/windows/queries.sql runs on nwind.mdb under Wine and through the
   Linux build (unixODBC, odbc_dump.py query); the Linux rows are the
   expected side of the compare.
3. The write path through the Windows seams (CreateFile, WriteFile,
   FlushFileBuffers, LockFileEx, the journal and the .ldb/.laccdb lock
   file): the statements of write_cases() run under Wine on a copy of a
   Jet4 .mdb and an ACE .accdb, and through the Linux build on a second
   copy; the same statements must be refused on both sides, `jetcheck
   verify` must find nothing wrong in either file, their `jetcheck dump`s
   must be equal, and no journal may be left beside the Wine copy.
4. With WINE_INSTALLER set, jetodbc-install.exe registers the driver; the
   registry is checked with `wine reg query`, a DSN made with
   SQLConfigDataSource is opened and queried, then both are removed again.

Environment: WINE (the loader), WINEPREFIX (scratch), WIN_DLL, WIN_DUMP,
WIN_INSTALLER (paths on the Unix side), JET_SRCDIR, JET_BUILDDIR,
JETODBC_SHARED.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'compat'))
from harness import (connstr_for, fixture_paths, load_expected_failures,  # noqa: E402
                     locate, tally, write_ini)
from compat import compare, judge  # noqa: E402


def winpath(p):
    """Unix path -> the same file through Wine's Z: drive."""
    return 'Z:' + os.path.abspath(p).replace('/', '\\')


def wine(args, env, timeout=1800):
    cmd = [os.environ.get('WINE', '/usr/lib/wine/wine64')] + args
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def yardstick(srcdir, shared, tmpdir, env, dll, dump_exe):
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    rels = fixture_paths(shared, os.environ.get('COMPAT_ONLY', ''))
    listing = os.path.join(tmpdir, 'fixtures.txt')
    outs = {}
    with open(listing, 'w', encoding='utf-8', newline='\r\n') as f:
        for rel in rels:
            with open(os.path.join(shared, 'fixtures', 'expected', rel + '.json'),
                      encoding='utf-8') as e:
                expected = json.load(e)
            src = os.path.join(shared, 'fixtures', 'public', rel)
            cs = connstr_for(winpath(src), expected).replace('DRIVER={JetODBC};', '')
            out = os.path.join(tmpdir, rel.replace('/', '__') + '.json')
            outs[rel] = (out, expected)
            f.write('%s\t%s\n' % (winpath(out), cs))
    p = wine([winpath(dump_exe), winpath(dll), 'dump', winpath(listing)], env)
    if p.returncode not in (0, 1):
        print('windump failed (%d): %s' % (p.returncode, (p.stdout + p.stderr)[-1000:]))
    known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                'expected_failures.txt'))
    known.update(load_expected_failures(os.path.join(
        srcdir, 'tests', 'windows', 'wine_expected_failures.txt')))
    verdicts = []
    for rel in rels:
        out, expected = outs[rel]
        exp = os.path.join(shared, 'fixtures', 'expected', rel + '.json')
        verdicts.extend((rel, name, passed, text)
                        for name, passed, text in judge(tool, exp, expected, out))
    return tally('wine-yardstick', verdicts, known, 'wine_expected_failures.txt',
                 len(rels))


def queries(srcdir, shared, tmpdir, env, dll, dump_exe, linux_driver):
    """The statements of queries.sql on nwind.mdb: Wine vs the Linux build."""
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    nwind = os.path.join(shared, 'fixtures', 'public', 'mdbtestdata', 'nwind.mdb')
    sqlfile = os.path.join(srcdir, 'tests', 'windows', 'queries.sql')
    with open(sqlfile, encoding='utf-8') as f:
        stmts = [s.strip() for s in f if s.strip()]
    # the statements as a CRLF file Wine's C runtime reads
    wsql = os.path.join(tmpdir, 'queries.sql')
    with open(wsql, 'w', encoding='utf-8', newline='\r\n') as f:
        f.write('\n'.join(stmts) + '\n')
    wout = os.path.join(tmpdir, 'queries.wine.json')
    p = wine([winpath(dump_exe), winpath(dll), 'query', winpath(wout),
              'DBQ=' + winpath(nwind), winpath(wsql)], env)
    if p.returncode != 0 or not os.path.exists(wout):
        print('FAIL  queries: windump query failed (%d): %s'
              % (p.returncode, (p.stdout + p.stderr)[-800:]))
        return 1
    lenv = dict(os.environ, **write_ini(tmpdir, linux_driver))
    lout = os.path.join(tmpdir, 'queries.linux.json')
    args = [sys.executable, tool, 'query', 'DRIVER={JetODBC};DBQ=' + nwind, '-o', lout]
    for s in stmts:
        args += ['--sql', s]
    p = subprocess.run(args, env=lenv, capture_output=True, text=True)
    if not os.path.exists(lout):
        print('FAIL  queries: Linux side failed: %s' % (p.stdout + p.stderr)[-800:])
        return 1
    tables = compare(tool, lout, wout, wout + '.result')
    if tables is None:
        print('FAIL  queries: compare failed')
        return 1
    verdicts = [('queries.sql', name, passed, text) for name, passed, text in tables]
    # text outside the BMP must come back as sent (through 2-byte SQLWCHAR
    # on both sides: unixODBC via pyodbc, Windows via windump)
    with open(lout, encoding='utf-8') as f:
        linux = json.load(f)['tables']
    for i, s in enumerate(stmts):
        lit = s.split("'")[1] if s.count("'") >= 2 else ''
        if any(ord(c) > 0xFFFF for c in lit) and i < len(linux):
            rows = linux[i].get('rows') or [[]]
            ok = bool(rows[0]) and rows[0][0] == lit
            verdicts.append(('queries.sql', 'sql %d outside the BMP (Linux)' % (i + 1),
                             ok, 'got %r' % (rows[0][:1],)))
    return tally('wine-queries', verdicts, {}, '-', 1, what='statements')


def write_cases():
    """(fixture, statements, indexes of the statements to be refused)."""
    jet4 = [
        "INSERT INTO Table1 (A, B, C, D, E, F, G, H, I) VALUES ('wine-1', "
        "'\u0141\u00f3d\u017a', 7, -300, 123456, 2.5, #2026-12-04 10:30:00#, "
        "12.3456, True)",
        "INSERT INTO Table1 (A, B) VALUES ('wine-2', 'Gen\u00e8ve')",
        "UPDATE Table1 SET B = 'Z\u00fcrich', E = E + 1 WHERE A = 'wine-1'",
        "INSERT INTO Table1 (A) VALUES ('wine-2')",
        "DELETE FROM Table1 WHERE A = 'wine-2'",
    ]
    jet4 += ["INSERT INTO Table3 (a, b) VALUES (%d, 'wine row %d %s')"
             % (i * 7919 % 1000, i, 'x' * (i % 25)) for i in range(1, 301)]
    jet4 += ["INSERT INTO Table3 (a, b) VALUES (919, 'a duplicate key')",
             "UPDATE Table3 SET b = b & '!' WHERE a MOD 5 = 0",
             "DELETE FROM Table3 WHERE a MOD 3 = 0"]
    ace = [
        "INSERT INTO [Asset Items] ([Asset No], Make, Model, Cost, Acquired, "
        "Warranty) VALUES ('W-1', 'Wine', 'Caf\u00e9', 1234.5, #2026-01-02#, 3)",
        "UPDATE [Asset Items] SET Cost = Cost * 2 WHERE Warranty > 1",
        "INSERT INTO [Asset Items] ([Asset No]) VALUES ('W-1')",
    ]
    ace += ["INSERT INTO [Asset Items] ([Asset No], Description, Comments, "
            "Cost) VALUES ('W%04d', 'item %d', '%s', %d.25)"
            % (i, i, 'memo %d ' % i + 'd' * (i * 37 % 5000), i)
            for i in range(2, 302)]
    ace += ["DELETE FROM [Asset Items] WHERE Cost > 100 AND Cost < 150"]
    return [('jackcess/V2003/testV2003.mdb', jet4, {3, 305}),
            ('mdbtestdata/ASampleDatabase.accdb', ace, {2})]


def refused(table):
    """Did the statement fail with a SQLSTATE (not merely return no result
    set: 24000 from windump's fetch, a Python error from odbc_dump's)?"""
    m = re.search(r'\[([0-9A-Z]{5})\]', table.get('error') or '')
    return bool(m) and m.group(1) != '24000'



def writes(shared, tmpdir, env, dll, dump_exe, linux_driver):
    """The write path under Wine against the Linux build (3. above)."""
    import shutil
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    jetcheck = os.path.join(shared, 'tools', 'jetcheck', 'jetcheck')
    if not os.access(jetcheck, os.X_OK) or not shutil.which('java'):
        print('SKIP  wine-writes: no jetcheck or java')
        return 0
    lenv = dict(os.environ, **write_ini(tmpdir, linux_driver))
    verdicts = []
    cases = write_cases()
    for rel, stmts, want_refused in cases:
        src = os.path.join(shared, 'fixtures', 'public', rel)
        base = os.path.basename(rel)
        wdb = os.path.join(tmpdir, 'wine-' + base)
        ldb = os.path.join(tmpdir, 'linux-' + base)
        shutil.copyfile(src, wdb)
        shutil.copyfile(src, ldb)
        wsql = os.path.join(tmpdir, base + '.sql')
        with open(wsql, 'w', encoding='utf-8', newline='\r\n') as f:
            f.write('\n'.join(stmts) + '\n')
        wout = os.path.join(tmpdir, base + '.wine.json')
        p = wine([winpath(dump_exe), winpath(dll), 'query', winpath(wout),
                  'DBQ=' + winpath(wdb), winpath(wsql)], env)
        lout = os.path.join(tmpdir, base + '.linux.json')
        args = [sys.executable, tool, 'query',
                'DRIVER={JetODBC};DBQ=' + ldb, '-o', lout]
        for st in stmts:
            args += ['--sql', st]
        subprocess.run(args, env=lenv, capture_output=True, text=True)
        if not os.path.exists(wout) or not os.path.exists(lout):
            verdicts.append((rel, 'statements ran', False, 'wine rc %d: %s' % (
                p.returncode, (p.stdout + p.stderr)[-600:])))
            continue
        with open(wout, encoding='utf-8') as f:
            wt = json.load(f)['tables']
        with open(lout, encoding='utf-8') as f:
            lt = json.load(f)['tables']
        wr = {i for i, t in enumerate(wt) if refused(t)}
        lr = {i for i, t in enumerate(lt) if refused(t)}
        verdicts.append((rel, 'refusals (%d statements)' % len(stmts),
                         len(wt) == len(stmts) and wr == lr == want_refused,
                         'wine refused %s, Linux %s, expected %s; first: %s' % (
                             sorted(wr), sorted(lr), sorted(want_refused),
                             [wt[i].get('error') for i in sorted(wr)][:2])))
        verdicts.append((rel, 'no journal left (wine)',
                         not os.path.exists(wdb + '-journal'), 'journal left'))
        dumps = []
        for db, side in ((wdb, 'wine'), (ldb, 'linux')):
            v = subprocess.run([jetcheck, 'verify', db], capture_output=True,
                               text=True)
            verdicts.append((rel, 'jetcheck verify (%s)' % side,
                             v.returncode == 0, (v.stdout + v.stderr)[-600:]))
            d = subprocess.run([jetcheck, 'dump', db], capture_output=True,
                               text=True)
            try:
                dumps.append(json.loads(d.stdout)['tables'])
            except (ValueError, KeyError):
                dumps.append(None)
        verdicts.append((rel, 'jetcheck dump equal (wine, linux)',
                         dumps[0] is not None and dumps[0] == dumps[1],
                         'the two files differ'))
    return tally('wine-writes', verdicts, {}, '-', len(cases), what='checks')


def main():
    srcdir, shared, linux_driver = locate()
    dll = os.environ['WIN_DLL']
    dump_exe = os.environ['WIN_DUMP']
    env = dict(os.environ)
    env.setdefault('WINEDEBUG', '-all')
    with tempfile.TemporaryDirectory(prefix='jetodbc-wine.') as tmpdir:
        rc = yardstick(srcdir, shared, tmpdir, env, dll, dump_exe)
        rc = queries(srcdir, shared, tmpdir, env, dll, dump_exe, linux_driver) or rc
        rc = writes(shared, tmpdir, env, dll, dump_exe, linux_driver) or rc
        if os.environ.get('WIN_INSTALLER'):
            import wine_install
            rc = wine_install.check(shared, tmpdir, env, dll, dump_exe,
                                    os.environ['WIN_INSTALLER'], winpath, wine,
                                    compare) or rc
    return rc


if __name__ == '__main__':
    sys.exit(main())
