"""wine_install.py - jetodbc-install.exe and ConfigDSN under Wine.

Called by wine_compat.py when the installer is built: registers the driver
(`jetodbc-install.exe install`), checks HKLM\\SOFTWARE\\ODBC\\ODBCINST.INI
with `wine reg query`, adds a DSN through SQLConfigDataSource
(`jetodbc-install.exe add-dsn`, i.e. the driver's ConfigDSN without a
window), checks HKCU\\SOFTWARE\\ODBC\\ODBC.INI, opens that DSN with windump
(through Windows' driver manager odbc32.dll if Wine's can load Windows
drivers - Wine 8.0's cannot, it forwards to the host's unixODBC - else by
loading jetodbc.dll directly) and compares Categories with the expected
JSON, then removes the DSN and the driver and checks that the keys are
gone.
"""

import json
import os


def reg_query(wine, env, key):
    p = wine(['reg', 'query', key], env, timeout=120)
    return p.returncode == 0, p.stdout


def dsn_matches(shared, tmpdir, out, compare, detail):
    """(passed, detail): windump's "sql 1" of out against nwind's Categories."""
    if not os.path.exists(out):
        return False, detail
    with open(out, encoding='utf-8') as f:
        doc = json.load(f)
    if 'error' in doc or not doc.get('tables'):
        return False, doc.get('error', 'no result')
    doc['tables'] = [dict(doc['tables'][0], name='Categories')]
    with open(out, 'w', encoding='utf-8') as f:
        json.dump(doc, f)
    exp = os.path.join(tmpdir, 'categories.expected.json')
    with open(os.path.join(shared, 'fixtures', 'expected', 'mdbtestdata',
                           'nwind.mdb.json'), encoding='utf-8') as f:
        full = json.load(f)
    full['tables'] = [t for t in full['tables'] if t['name'] == 'Categories']
    with open(exp, 'w', encoding='utf-8') as f:
        json.dump(full, f)
    tables = compare(os.path.join(shared, 'tools', 'odbc_dump.py'), exp, out,
                     out + '.result')
    return bool(tables) and all(t[1] for t in tables), repr(tables)


def check(shared, tmpdir, env, dll, dump_exe, installer, winpath, wine, compare):
    results = []

    def step(name, ok, detail=''):
        results.append(ok)
        print('%s install: %s%s' % ('ok   ' if ok else 'FAIL ', name,
                                    (': ' + detail.strip()[-600:]) if detail and not ok else ''))

    # the installer registers the DLL beside it: copy both into one folder
    inst_dir = os.path.join(tmpdir, 'x64')
    os.makedirs(inst_dir, exist_ok=True)
    for src in (dll, installer):
        with open(src, 'rb') as f, open(os.path.join(inst_dir, os.path.basename(src)), 'wb') as g:
            g.write(f.read())
    exe = winpath(os.path.join(inst_dir, os.path.basename(installer)))
    drv_key = r'HKLM\SOFTWARE\ODBC\ODBCINST.INI\JetODBC'

    p = wine([exe, 'install'], env)
    step('jetodbc-install.exe install', p.returncode == 0, p.stdout + p.stderr)
    ok, out = reg_query(wine, env, drv_key)
    step('registry: ' + drv_key, ok and 'jetodbc.dll' in out.lower()
         and 'Setup' in out, out)
    ok, out = reg_query(wine, env, r'HKLM\SOFTWARE\ODBC\ODBCINST.INI\ODBC Drivers')
    step(r'registry: ODBC Drivers\JetODBC = Installed', ok and 'JetODBC' in out
         and 'Installed' in out, out)

    nwind = os.path.join(shared, 'fixtures', 'public', 'mdbtestdata', 'nwind.mdb')
    p = wine([exe, 'add-dsn', 'JetNwind', winpath(nwind), '', 'Northwind under Wine'], env)
    step('add-dsn through SQLConfigDataSource (ConfigDSN, no window)',
         p.returncode == 0, p.stdout + p.stderr)
    dsn_key = r'HKCU\SOFTWARE\ODBC\ODBC.INI\JetNwind'
    ok, out = reg_query(wine, env, dsn_key)
    step('registry: ' + dsn_key + ' has DBQ', ok and 'nwind.mdb' in out.lower(), out)

    # the DSN through Windows' driver manager (odbc32.dll) when Wine's can
    # load Windows drivers (Wine 8.0's odbc32 forwards to the host's
    # unixODBC instead), else through the direct-load harness: jetodbc.dll
    # itself then reads the DSN's keys with SQLGetPrivateProfileString
    sqlf = os.path.join(tmpdir, 'dsn.sql')
    with open(sqlf, 'w', newline='\r\n') as f:
        f.write('SELECT * FROM Categories\n')
    verdicts = {}
    for lib, label in (('odbc32.dll', "Windows driver manager (Wine's odbc32.dll)"),
                       (winpath(dll), 'direct load of jetodbc.dll')):
        out = os.path.join(tmpdir, 'dsn.%d.json' % len(verdicts))
        p = wine([winpath(dump_exe), lib, 'query', winpath(out), 'DSN=JetNwind',
                  winpath(sqlf)], env)
        verdicts[label] = dsn_matches(shared, tmpdir, out, compare,
                                      p.stdout + p.stderr)
        if verdicts[label][0]:
            break
    for label, (ok, detail) in verdicts.items():
        print('note install: DSN JetNwind through the %s: %s'
              % (label, 'opened; Categories matches the expected JSON' if ok
                 else 'not usable (%s)' % detail.strip()[-300:]))
    step('DSN made by ConfigDSN opens and reads Categories',
         any(ok for ok, _ in verdicts.values()), repr(verdicts))

    p = wine([exe, 'remove-dsn', 'JetNwind'], env)
    step('remove-dsn', p.returncode == 0, p.stdout + p.stderr)
    ok, out = reg_query(wine, env, dsn_key)
    step('registry: DSN key gone', not ok, out)
    # Microsoft's CREATE_DB / COMPACT_DB keywords through SQLConfigDataSource
    # (ConfigDSN with no DSN): the files are made; over an existing file
    # the request is refused with the installer's message
    made = os.path.join(tmpdir, 'cfg made.accdb')
    packed = os.path.join(tmpdir, 'cfg packed.mdb')
    p = wine([exe, 'config', 'CREATE_DB="%s" ACE16' % winpath(made)], env)
    head = open(made, 'rb').read(32) if os.path.exists(made) else b''
    step('config CREATE_DB makes a new ACE file', p.returncode == 0
         and b'Standard ACE DB' in head, p.stdout + p.stderr)
    jet4 = os.path.join(shared, 'fixtures', 'public', 'jackcess', 'V2003',
                        'testV2003.mdb')
    p = wine([exe, 'config', 'COMPACT_DB="%s" "%s"' % (winpath(jet4),
                                                        winpath(packed))], env)
    head = open(packed, 'rb').read(32) if os.path.exists(packed) else b''
    step('config COMPACT_DB compacts testV2003.mdb', p.returncode == 0
         and b'Standard Jet DB' in head, p.stdout + p.stderr)
    # (Wine's odbccp32 answers a FALSE ConfigDSN with its own "Request
    # Failed", not the driver's message: the refusal and the file count)
    with open(made, 'rb') as f:
        before = f.read()
    p = wine([exe, 'config', 'CREATE_DB="%s"' % winpath(made)], env)
    with open(made, 'rb') as f:
        same = f.read() == before
    step('config CREATE_DB over an existing file is refused, file unchanged',
         p.returncode == 1 and same, p.stdout + p.stderr)

    p = wine([exe, 'uninstall'], env)
    step('jetodbc-install.exe uninstall', p.returncode == 0, p.stdout + p.stderr)
    ok, out = reg_query(wine, env, drv_key)
    step('registry: driver key gone', not ok, out)
    print('wine-install: %d passed, %d failed' % (sum(results), len(results) - sum(results)))
    return 0 if all(results) else 1
