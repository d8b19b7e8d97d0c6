#!/usr/bin/python3
"""adhoc.py - the query yardstick: ad-hoc joins, grouping, subqueries and
UNION over Northwind, through unixODBC, against the oracle's rows.

Runs <shared>/fixtures/expected-queries/adhoc/*.json with
<shared>/tools/odbc_dump.py query (a temporary odbcinst.ini naming the
freshly built libjetodbc.so), compares each statement's rows with
odbc_dump.py compare, and checks every verdict against
tests/compat/adhoc_expected_failures.txt ('file | statement | cause').

Exit status (automake): 0 when every statement passed or failed only as
listed, 1 on an unlisted failure, 77
(skip) when ../shared or pyodbc is absent. A listed statement that
passes is only reported (remove its line), so work landing elsewhere
(functions, collation) never breaks this test.
"""

import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from harness import load_expected_failures, locate, skip, tally, write_ini


def main():
    srcdir, shared, driver = locate()
    if importlib.util.find_spec('pyodbc') is None:
        skip('pyodbc is not importable by %s (Debian package python3-pyodbc)' % sys.executable)
    known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                'adhoc_expected_failures.txt'))
    specs = sorted(glob.glob(os.path.join(shared, 'fixtures', 'expected-queries',
                                          'adhoc', '*.json')))
    if not specs:
        skip('no ad-hoc query expectations under %s' % shared)
    tool = os.path.join(shared, 'tools', 'odbc_dump.py')
    py = sys.executable
    verdicts = []
    with tempfile.TemporaryDirectory(prefix='jetodbc-adhoc.') as tmpdir:
        env = dict(os.environ, **write_ini(tmpdir, driver))
        for spec in specs:
            with open(spec, encoding='utf-8') as f:
                expected = json.load(f)
            rel = expected['file']
            db = os.path.join(shared, 'fixtures', 'public', rel)
            out = os.path.join(tmpdir, os.path.basename(spec))
            res = out + '.result'
            p = subprocess.run([py, tool, 'query',
                                'DRIVER={JetODBC};DBQ=' + db + ';', '--from', spec,
                                '-o', out], env=env, capture_output=True, text=True)
            if p.returncode != 0 or not os.path.exists(out):
                verdicts.append((rel, '(query run)', False,
                                 'query failed (%d): %s' % (p.returncode,
                                                            p.stderr.strip()[-500:])))
                continue
            subprocess.run([py, tool, 'compare', spec, out, '--json-out', res, '-q'],
                           env=env, capture_output=True, text=True)
            if not os.path.exists(res):
                verdicts.append((rel, '(compare)', False, 'compare failed'))
                continue
            with open(res, encoding='utf-8') as f:
                result = json.load(f)
            for t in result['tables']:
                text = t.get('verdict', '')
                if t.get('details'):
                    text += '\n        ' + '\n        '.join(t['details'][:3])
                verdicts.append((rel, t['name'], bool(t.get('passed')), text))
    # a listed statement that passes now (e.g. once a function lands) is
    # reported, not failed: other helpers' work must not break this test
    for rel, name, passed, _ in verdicts:
        if passed and (rel, name) in known:
            print('note  %s | %s: passes now; remove it from '
                  'adhoc_expected_failures.txt' % (rel, name))
            del known[(rel, name)]
    return tally('adhoc', verdicts, known, 'adhoc_expected_failures.txt',
                 len(specs), 'statements')


if __name__ == '__main__':
    sys.exit(main())
