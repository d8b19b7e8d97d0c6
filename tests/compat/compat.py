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
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from harness import (connstr_for, fixture_paths, load_expected_failures,
                     locate, skip, tally, write_ini)


def compare(tool, expected, actual, res_path, env=None):
    """[(table, passed, text)] that `odbc_dump.py compare` finds between the
    expected and the actual dump (JSON paths), its result written to
    res_path; None when it wrote no result (its output then goes to
    stderr). Also used by tests/windows and tests/iodbc."""
    p = subprocess.run([sys.executable, tool, 'compare', expected, actual,
                        '--json-out', res_path, '-q'], env=env,
                       capture_output=True, text=True)
    if not os.path.exists(res_path):
        sys.stderr.write('compare %s: %s\n' % (actual, (p.stdout + p.stderr)[-500:]))
        return None
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
    return tables


def judge(tool, exp_path, expected, dump, env=None):
    """[(table, passed, text)] of one fixture's dump against its expected
    JSON (exp_path; expected: its contents): compare's tables, plus
    '(no user tables)' when the file has none and '(connect)' when the dump
    records a connection error; a failed '(dump)' or '(compare)' row when
    there is no dump or compare failed."""
    if not os.path.exists(dump):
        return [('(dump)', False, 'no dump written')]
    tables = compare(tool, exp_path, dump, dump + '.result', env)
    if tables is None:
        return [('(compare)', False, 'compare failed')]
    if expected.get('tables') == [] and not tables:
        tables.append(('(no user tables)', True, 'OK'))
    with open(dump, encoding='utf-8') as f:
        actual = json.load(f)
    if 'error' in actual:
        tables.append(('(connect)', False, 'connection error: %s' % actual['error']))
    return tables


def run_one(rel, shared, tmpdir, env):
    """Dump and compare one fixture; returns (rel, [(table, passed, text)], err)."""
    src = os.path.join(shared, 'fixtures', 'public', rel)
    exp_path = os.path.join(shared, 'fixtures', 'expected', rel + '.json')
    with open(exp_path, encoding='utf-8') as f:
        expected = json.load(f)
    dump = os.path.join(tmpdir, rel.replace('/', '__') + '.json')
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    p = subprocess.run([sys.executable, tool, connstr_for(src, expected), '-o', dump,
                        '--timeout', '120'], env=env, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(dump):
        return rel, [], 'dump failed (%d): %s' % (p.returncode, p.stderr.strip()[-500:])
    return rel, judge(tool, exp_path, expected, dump, env), None


def main():
    srcdir, shared, driver = locate()
    if importlib.util.find_spec('pyodbc') is None:
        skip('pyodbc is not importable by %s (Debian package python3-pyodbc)' % sys.executable)
    known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                'expected_failures.txt'))
    rels = fixture_paths(shared, os.environ.get('COMPAT_ONLY', ''))
    with tempfile.TemporaryDirectory(prefix='jetodbc-compat.') as tmpdir:
        env = dict(os.environ, **write_ini(tmpdir, driver))
        jobs = int(os.environ.get('COMPAT_JOBS', '2'))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(lambda r: run_one(r, shared, tmpdir, env), rels))
    verdicts = []
    for rel, tables, err in results:
        if err:
            tables = [('(dump)', False, err)]
        verdicts.extend((rel, name, passed, text) for name, passed, text in tables)
    return tally('compat', verdicts, known, 'expected_failures.txt', len(results))


if __name__ == '__main__':
    sys.exit(main())
