#!/usr/bin/python3
"""compat.py - the yardstick over every public fixture, through unixODBC.

For each .mdb/.accdb under <shared>/fixtures/public, dump it with
<shared>/tools/odbc_dump.py through the driver manager (a temporary
odbcinst.ini naming the freshly built libjetodbc.so), compare with
<shared>/fixtures/expected/<same path>.json, and check the verdict of every
table against tests/compat/expected_failures.txt.

Exit status (automake): 0 when every table passed or failed only as listed,
1 on an unlisted failure (or a listed one that now passes: remove it from
the list), 77 (skip) when ../shared or pyodbc is absent.

Environment: JET_BUILDDIR, JET_SRCDIR (set by Makefile.am), JETODBC_SHARED
(default <srcdir>/../shared), COMPAT_ONLY (substring filter on paths),
COMPAT_JOBS (parallel dumps, default 2).
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def skip(msg):
    print('SKIP: ' + msg)
    sys.exit(SKIP)


def load_expected_failures(path):
    """{(file, table): reason} from 'file | table | reason' lines."""
    known = {}
    if not os.path.exists(path):
        return known
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split('|', 2)]
            if len(parts) != 3:
                raise SystemExit('bad line in %s: %r' % (path, line))
            known[(parts[0], parts[1])] = parts[2]
    return known


def connstr_for(path, expected):
    cs = 'DRIVER={JetODBC};DBQ=' + path + ';'
    pwd = expected.get('password_used')
    if pwd:
        cs += 'PWD={' + pwd.replace('}', '}}') + '};'
    return cs


def run_one(rel, shared, tmpdir, env):
    """Dump and compare one fixture; returns (rel, [(table, passed, text)], err)."""
    src = os.path.join(shared, 'fixtures', 'public', rel)
    exp_path = os.path.join(shared, 'fixtures', 'expected', rel + '.json')
    with open(exp_path, encoding='utf-8') as f:
        expected = json.load(f)
    dump = os.path.join(tmpdir, rel.replace('/', '__') + '.json')
    res_path = dump + '.result'
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    py = sys.executable
    p = subprocess.run([py, tool, connstr_for(src, expected), '-o', dump,
                        '--timeout', '120'], env=env, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(dump):
        return rel, [], 'dump failed (%d): %s' % (p.returncode, p.stderr.strip()[-500:])
    p = subprocess.run([py, tool, 'compare', exp_path, dump, '--json-out', res_path, '-q'],
                       env=env, capture_output=True, text=True)
    if not os.path.exists(res_path):
        return rel, [], 'compare failed: %s' % (p.stdout + p.stderr)[-500:]
    with open(res_path, encoding='utf-8') as f:
        result = json.load(f)
    tables = []
    for t in result['tables']:
        if t.get('skipped'):
            continue
        text = t.get('verdict', '')
        if t.get('details'):
            text += '\n        ' + '\n        '.join(t['details'][:3])
        tables.append((t['name'], bool(t.get('passed')), text))
    if expected.get('tables') == [] and not tables:
        tables.append(('(no user tables)', True, 'OK'))
    with open(dump, encoding='utf-8') as f:
        actual = json.load(f)
    if 'error' in actual:
        tables.append(('(connect)', False, 'connection error: %s' % actual['error']))
    return rel, tables, None


def main():
    srcdir = os.environ.get('JET_SRCDIR') or os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    builddir = os.environ.get('JET_BUILDDIR', srcdir)
    shared = os.environ.get('JETODBC_SHARED') or os.path.join(srcdir, '..', 'shared')
    shared = os.path.abspath(shared)
    if not os.path.isdir(os.path.join(shared, 'fixtures', 'public')):
        skip('shared fixtures not found at %s (set JETODBC_SHARED)' % shared)
    try:
        import pyodbc  # noqa: F401
    except ImportError:
        skip('pyodbc is not importable by %s (Debian package python3-pyodbc)' % sys.executable)
    driver = os.path.join(builddir, '.libs', 'libjetodbc.so')
    if not os.path.exists(driver):
        print('FAIL: driver not built: %s' % driver)
        return 1

    known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                'expected_failures.txt'))
    only = os.environ.get('COMPAT_ONLY', '')
    public = os.path.join(shared, 'fixtures', 'public')
    rels = []
    for root, _dirs, files in os.walk(public):
        for name in files:
            if name.lower().endswith(('.mdb', '.accdb')):
                rel = os.path.relpath(os.path.join(root, name), public)
                if only in rel:
                    rels.append(rel)
    rels.sort()

    with tempfile.TemporaryDirectory(prefix='jetodbc-compat.') as tmpdir:
        with open(os.path.join(tmpdir, 'odbcinst.ini'), 'w') as f:
            f.write('[JetODBC]\nDescription=jetodbc under test\nDriver=%s\n' % driver)
        with open(os.path.join(tmpdir, 'odbc.ini'), 'w') as f:
            f.write('')
        env = dict(os.environ, ODBCSYSINI=tmpdir, ODBCINI=os.path.join(tmpdir, 'odbc.ini'))
        jobs = int(os.environ.get('COMPAT_JOBS', '2'))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(lambda r: run_one(r, shared, tmpdir, env), rels))

    npass = nknown = nfail = nfixed = 0
    for rel, tables, err in results:
        if err:
            tables = [('(dump)', False, err)]
        for name, passed, text in tables:
            reason = known.get((rel, name))
            if passed and reason is None:
                npass += 1
            elif passed:
                nfixed += 1
                print('FIXED %s | %s: passes now; remove it from expected_failures.txt'
                      % (rel, name))
            elif reason is not None:
                nknown += 1
                print('known %s | %s: %s' % (rel, name, reason))
            else:
                nfail += 1
                print('FAIL  %s | %s: %s' % (rel, name, text))
    print('compat: %d files; %d tables pass, %d fail as listed in expected_failures.txt '
          '(counted as skipped), %d newly pass' % (len(results), npass, nknown, nfixed))
    print('compat: %d passed, %d failed, %d skipped' % (npass, nfail + nfixed, nknown))
    return 0 if nfail == 0 and nfixed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
