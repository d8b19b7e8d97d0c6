"""harness.py - what compat.py and metadata.py share.

Both run the freshly built driver through the unixODBC driver manager over
every file of <shared>/fixtures/public and judge each table against a list
of known failures ('file | table | cause' lines). This module finds the
folders, writes the temporary odbcinst.ini, and prints the tally.

Environment: JET_BUILDDIR, JET_SRCDIR (set by Makefile.am), JETODBC_SHARED
(default <srcdir>/../shared).
"""

import os
import sys

SKIP = 77


def skip(msg):
    """Exit with automake's skip status, saying why."""
    print('SKIP: ' + msg)
    sys.exit(SKIP)


def locate():
    """(srcdir, shared, driver .so path); skips without the fixtures and
    exits 1 when the driver is not built."""
    srcdir = os.environ.get('JET_SRCDIR') or os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    builddir = os.environ.get('JET_BUILDDIR', srcdir)
    shared = os.environ.get('JETODBC_SHARED') or os.path.join(srcdir, '..', 'shared')
    shared = os.path.abspath(shared)
    if not os.path.isdir(os.path.join(shared, 'fixtures', 'public')):
        skip('shared fixtures not found at %s (set JETODBC_SHARED)' % shared)
    driver = os.path.join(builddir, '.libs', 'libjetodbc.so')
    if not os.path.exists(driver):
        print('FAIL: driver not built: %s' % driver)
        sys.exit(1)
    return srcdir, shared, driver


def fixture_paths(shared, only=''):
    """Sorted paths of the .mdb/.accdb files below fixtures/public, relative
    to it, whose path contains only."""
    public = os.path.join(shared, 'fixtures', 'public')
    rels = []
    for root, _dirs, files in os.walk(public):
        for name in files:
            if name.lower().endswith(('.mdb', '.accdb')):
                rel = os.path.relpath(os.path.join(root, name), public)
                if only in rel:
                    rels.append(rel)
    return sorted(rels)


def connstr_for(path, expected):
    """Connection string for the driver under test; PWD from the expected
    dump's password_used."""
    cs = 'DRIVER={JetODBC};DBQ=' + path + ';'
    pwd = expected.get('password_used')
    if pwd:
        cs += 'PWD={' + pwd.replace('}', '}}') + '};'
    return cs


def write_ini(tmpdir, driver):
    """Write odbcinst.ini (driver "JetODBC") and an empty odbc.ini into
    tmpdir; returns the environment entries that point unixODBC there."""
    with open(os.path.join(tmpdir, 'odbcinst.ini'), 'w') as f:
        f.write('[JetODBC]\nDescription=jetodbc under test\nDriver=%s\n'
                'Threading=0\n' % driver)
    with open(os.path.join(tmpdir, 'odbc.ini'), 'w') as f:
        f.write('')
    return {'ODBCSYSINI': tmpdir, 'ODBCINI': os.path.join(tmpdir, 'odbc.ini')}


def load_expected_failures(path):
    """{(file, table): cause} from 'file | table | cause' lines."""
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


def tally(suite, verdicts, known, list_name, nfiles, what='tables'):
    """Print a line per failing, listed or newly passing table, then the
    closing 'N passed, N failed, N skipped' (listed failures count as
    skipped). verdicts: (file, table, passed, detail) tuples. Returns the
    exit status: 1 on an unlisted failure or a listed table that passes."""
    npass = nknown = nfail = nfixed = 0
    for rel, name, passed, detail in verdicts:
        cause = known.get((rel, name))
        if passed and cause is None:
            npass += 1
        elif passed:
            nfixed += 1
            print('FIXED %s | %s: passes now; remove it from %s' % (rel, name, list_name))
        elif cause is not None:
            nknown += 1
            print('known %s | %s: %s' % (rel, name, cause))
        else:
            nfail += 1
            print('FAIL  %s | %s: %s' % (rel, name, detail))
    print('%s: %d files; %d %s pass, %d fail as listed in %s (counted as '
          'skipped), %d newly pass' % (suite, nfiles, npass, what, nknown,
                                       list_name, nfixed))
    print('%s: %d passed, %d failed, %d skipped' % (suite, npass, nfail + nfixed, nknown))
    return 0 if nfail == 0 and nfixed == 0 else 1
