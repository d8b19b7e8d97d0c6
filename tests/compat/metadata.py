#!/usr/bin/python3
"""metadata.py - catalog functions against the expected JSON of every fixture.

For each .mdb/.accdb under <shared>/fixtures/public and each table of
<shared>/fixtures/expected/<same path>.json, ask the driver through the
driver manager (pyodbc; a temporary odbcinst.ini naming the freshly built
libjetodbc.so) for SQLColumns, SQLStatistics, SQLPrimaryKeys and
SQLForeignKeys, and compare with the table's `columns` and `indexes`:

  SQLColumns     names and order (ORDINAL_POSITION), TYPE_NAME and DATA_TYPE
                 from the Jackcess type (LONG + auto_number -> COUNTER),
                 COLUMN_SIZE from length/precision, DECIMAL_DIGITS from
                 scale, NULLABLE/IS_NULLABLE from required, and the fixed
                 SQL_DATA_TYPE/SQL_DATETIME_SUB/CHAR_OCTET_LENGTH rules.
  SQLStatistics  one SQL_TABLE_STAT row with CARDINALITY = row count, then
                 every index by name: its columns in order, ASC_OR_DESC and
                 NON_UNIQUE; SQL_INDEX_UNIQUE returns the unique ones only.
  SQLPrimaryKeys the primary-key index: its columns, KEY_SEQ and PK_NAME;
                 SQLSpecialColumns(SQL_BEST_ROWID) the same columns.
  SQLForeignKeys each foreign-key index is one side of a relationship the
                 driver reports (FK columns of an FK-side index, PK columns
                 of a referenced-side index), with PK_NAME the referenced
                 table's primary key.

One verdict per table, and one per file for SQLTables (user tables as
TABLE, linked tables as SYNONYM, TABLE_CAT = the file path). Exit status (automake): 0 when every table passed
or failed only as listed in tests/compat/metadata_expected_failures.txt
(`file | table | cause` lines), 1 otherwise (also when a listed table now
passes), 77 (skip) without ../shared or pyodbc.

Environment: JET_BUILDDIR, JET_SRCDIR (set by Makefile.am), JETODBC_SHARED
(default <srcdir>/../shared), METADATA_ONLY (substring filter on paths),
METADATA_VERBOSE=1 (print every difference, not the first five).
"""

import json
import os
import sys
import tempfile

from harness import (connstr_for, fixture_paths, load_expected_failures,
                     locate, skip, tally, write_ini)

# Jackcess DataType name -> (TYPE_NAME, DATA_TYPE, COLUMN_SIZE, DECIMAL_DIGITS)
# as Microsoft's Access driver reports them (driver/typemap.c). None for a
# size means "computed from the column"; DECIMAL_DIGITS None means NULL.
SQL_BIT, SQL_TINYINT, SQL_SMALLINT, SQL_INTEGER, SQL_BIGINT = -7, -6, 5, 4, -5
SQL_NUMERIC, SQL_REAL, SQL_DOUBLE, SQL_TYPE_TIMESTAMP = 2, 7, 8, 93
SQL_WCHAR, SQL_WVARCHAR, SQL_WLONGVARCHAR = -8, -9, -10
SQL_VARBINARY, SQL_LONGVARBINARY, SQL_GUID = -3, -4, -11
SQL_DATETIME, SQL_CODE_TIMESTAMP = 9, 3
# Memo/OLE: Microsoft's driver says 1073741823; ours reports its MaxLongSize
# connection option, 65535 unless the DSN or connection string says more
LONG_SIZE = 65535

TYPES = {
    'BOOLEAN': ('BIT', SQL_BIT, 1, None),
    'BYTE': ('BYTE', SQL_TINYINT, 3, 0),
    'INT': ('SMALLINT', SQL_SMALLINT, 5, 0),
    'LONG': ('INTEGER', SQL_INTEGER, 10, 0),
    'BIG_INT': ('BIGINT', SQL_BIGINT, 19, 0),
    'MONEY': ('CURRENCY', SQL_NUMERIC, 19, 4),
    'FLOAT': ('REAL', SQL_REAL, 24, None),
    'DOUBLE': ('DOUBLE', SQL_DOUBLE, 53, None),
    'SHORT_DATE_TIME': ('DATETIME', SQL_TYPE_TIMESTAMP, 23, 3),
    'EXT_DATE_TIME': ('DATETIME2', SQL_WVARCHAR, 27, None),
    'TEXT': ('VARCHAR', SQL_WVARCHAR, None, None),
    'MEMO': ('LONGCHAR', SQL_WLONGVARCHAR, LONG_SIZE, None),
    'BINARY': ('VARBINARY', SQL_VARBINARY, None, None),
    'OLE': ('LONGBINARY', SQL_LONGVARBINARY, LONG_SIZE, None),
    'GUID': ('GUID', SQL_GUID, 36, None),
    'NUMERIC': ('DECIMAL', SQL_NUMERIC, None, None),
    'COMPLEX_TYPE': ('INTEGER', SQL_INTEGER, 10, 0),
    'UNSUPPORTED_VARLEN': ('LONGBINARY', SQL_LONGVARBINARY, LONG_SIZE, None),
    'UNSUPPORTED_FIXEDLEN': ('LONGBINARY', SQL_LONGVARBINARY, LONG_SIZE, None),
}
# Fixed-length Text fields (stored in the row's fixed area; CHAR(n) in
# Access's DDL) are CHAR, SQL_WCHAR. The expected JSON has no flag for it:
# these are the fixtures' fixed-length Text columns, by (file name, table,
# column) -- Jackcess's fixedTextTest files exist for this one column.
FIXED_TEXT = {('fixedTextTestV2000.mdb', 'users', 'c_flag_'),
              ('fixedTextTestV2003.mdb', 'users', 'c_flag_'),
              ('fixedTextTestV2007.accdb', 'users', 'c_flag_'),
              ('fixedTextTestV2010.accdb', 'users', 'c_flag_')}
CHAR_OR_BINARY = {SQL_WCHAR, SQL_WVARCHAR, SQL_WLONGVARCHAR, SQL_VARBINARY, SQL_LONGVARBINARY}
RADIX = {SQL_TINYINT: 10, SQL_SMALLINT: 10, SQL_INTEGER: 10, SQL_BIGINT: 10,
         SQL_NUMERIC: 10, SQL_REAL: 2, SQL_DOUBLE: 2}


def escape_pattern(name):
    """A table name as an ODBC search pattern matching only itself."""
    return name.replace('\\', '\\\\').replace('_', '\\_').replace('%', '\\%')


def expected_column(col, jet3):
    """(TYPE_NAME, DATA_TYPE, COLUMN_SIZE, DECIMAL_DIGITS) of a JSON column."""
    jtype = col['type']
    name, dtype, size, digits = TYPES.get(jtype, TYPES['UNSUPPORTED_VARLEN'])
    if jtype == 'LONG' and col.get('auto_number') and not col.get('calculated'):
        name = 'COUNTER'
    if jtype == 'TEXT':
        if col.get('calculated'):
            size = 255          # the result of a calculated Text column
        else:
            size = col['length'] if jet3 else col['length'] // 2
    elif jtype == 'BINARY':
        size = col['length']
    elif jtype == 'NUMERIC':
        size, digits = col['precision'], col['scale']
    return name, dtype, size, digits


def check_columns(cur, table, exp_cols, jet3, diffs, fname=''):
    rows = cur.columns(table=escape_pattern(table['name'])).fetchall()
    if [r.column_name for r in rows] != [c['name'] for c in exp_cols]:
        diffs.append('SQLColumns names %r, expected %r'
                     % ([r.column_name for r in rows], [c['name'] for c in exp_cols]))
        return
    for i, (r, c) in enumerate(zip(rows, exp_cols)):
        where = 'column %s: ' % c['name']
        tname, dtype, size, digits = expected_column(c, jet3)
        if (fname, table['name'], c['name']) in FIXED_TEXT:
            tname, dtype = 'CHAR', SQL_WCHAR
        nullable = 0 if c.get('required') else 1
        got = {
            'TABLE_NAME': r.table_name, 'TYPE_NAME': r.type_name,
            'DATA_TYPE': r.data_type, 'COLUMN_SIZE': r.column_size,
            'DECIMAL_DIGITS': r.decimal_digits, 'NULLABLE': r.nullable,
            'IS_NULLABLE': r.is_nullable, 'ORDINAL_POSITION': r.ordinal_position,
            'SQL_DATA_TYPE': r.sql_data_type,
            'SQL_DATETIME_SUB': r.sql_datetime_sub,
            'NUM_PREC_RADIX': r.num_prec_radix,
            'CHAR_OCTET_LENGTH': r.char_octet_length,
        }
        want = {
            'TABLE_NAME': table['name'], 'TYPE_NAME': tname, 'DATA_TYPE': dtype,
            'COLUMN_SIZE': size, 'DECIMAL_DIGITS': digits, 'NULLABLE': nullable,
            'IS_NULLABLE': 'YES' if nullable else 'NO', 'ORDINAL_POSITION': i + 1,
            'SQL_DATA_TYPE': SQL_DATETIME if dtype == SQL_TYPE_TIMESTAMP else dtype,
            'SQL_DATETIME_SUB': SQL_CODE_TIMESTAMP if dtype == SQL_TYPE_TIMESTAMP else None,
            'NUM_PREC_RADIX': RADIX.get(dtype),
            'CHAR_OCTET_LENGTH': r.buffer_length if dtype in CHAR_OR_BINARY else None,
        }
        for k in want:
            if got[k] != want[k]:
                diffs.append(where + '%s %r, expected %r (%s)'
                             % (k, got[k], want[k], c['type']))
        if r.buffer_length is None or r.buffer_length <= 0:
            diffs.append(where + 'BUFFER_LENGTH %r' % r.buffer_length)


def index_columns(ix):
    return [(c['name'], 'A' if c['ascending'] else 'D') for c in ix['columns']]


def check_statistics(cur, table, diffs):
    # SQL_ENSURE: CARDINALITY counted, not the TDEF's (possibly stale) count
    rows = cur.statistics(table['name'], unique=False, quick=False).fetchall()
    stat = [r for r in rows if r.type == 0]
    if len(stat) != 1:
        diffs.append('SQLStatistics: %d SQL_TABLE_STAT rows' % len(stat))
    elif stat[0].cardinality != table['row_count']:
        diffs.append('SQLStatistics: CARDINALITY %r, expected row count %r'
                     % (stat[0].cardinality, table['row_count']))
    got = {}
    for r in rows:
        if r.type == 0:
            continue
        if r.table_name != table['name']:
            diffs.append('SQLStatistics: TABLE_NAME %r' % r.table_name)
        got.setdefault(r.index_name, []).append(r)
    want = {ix['name']: ix for ix in table['indexes']}
    if sorted(got) != sorted(want):
        diffs.append('SQLStatistics index names %r, expected %r'
                     % (sorted(got), sorted(want)))
    for name, ix in want.items():
        rs = got.get(name)
        if not rs:
            continue
        cols = [(r.column_name, r.asc_or_desc) for r in rs]
        if cols != index_columns(ix):
            diffs.append('index %s: columns %r, expected %r'
                         % (name, cols, index_columns(ix)))
        if [r.ordinal_position for r in rs] != list(range(1, len(rs) + 1)):
            diffs.append('index %s: ORDINAL_POSITION %r'
                         % (name, [r.ordinal_position for r in rs]))
        non_unique = {r.non_unique for r in rs}
        if non_unique != {0 if ix['unique'] else 1}:
            diffs.append('index %s: NON_UNIQUE %r, expected unique=%r'
                         % (name, non_unique, ix['unique']))
    # ODBC order: NON_UNIQUE, TYPE, INDEX_NAME (then ORDINAL_POSITION)
    keys = [(r.non_unique, r.type, (r.index_name or '').lower())
            for r in rows if r.type != 0]
    if keys != sorted(keys):
        diffs.append('SQLStatistics rows not ordered by NON_UNIQUE, TYPE, INDEX_NAME')
    uniq = cur.statistics(table['name'], unique=True, quick=True).fetchall()
    unames = sorted({r.index_name for r in uniq if r.type != 0})
    wnames = sorted(n for n, ix in want.items() if ix['unique'])
    if unames != wnames:
        diffs.append('SQLStatistics(SQL_INDEX_UNIQUE) %r, expected %r' % (unames, wnames))


def check_primary_keys(cur, table, diffs):
    rows = cur.primaryKeys(table['name']).fetchall()
    pks = [ix for ix in table['indexes'] if ix['primary_key']]
    want = [(c['name'], i + 1, pks[0]['name'])
            for i, c in enumerate(pks[0]['columns'])] if pks else []
    got = [(r.column_name, r.key_seq, r.pk_name) for r in rows]
    if got != want:
        diffs.append('SQLPrimaryKeys %r, expected %r' % (got, want))
    if pks:
        # SQLSpecialColumns(SQL_BEST_ROWID): the primary key's columns
        best = [r.column_name for r in cur.rowIdColumns(table['name']).fetchall()]
        if best != [c['name'] for c in pks[0]['columns']]:
            diffs.append('SQLSpecialColumns(SQL_BEST_ROWID) %r, expected %r'
                         % (best, [c['name'] for c in pks[0]['columns']]))
    return pks[0]['name'] if pks else None


def check_foreign_keys(cur, table, pk_names, diffs):
    fk_ixs = [ix for ix in table['indexes'] if ix['foreign_key']]
    as_fk = cur.foreignKeys(foreignTable=table['name']).fetchall()
    as_pk = cur.foreignKeys(table=table['name']).fetchall()
    for r in as_fk:
        if r.fktable_name != table['name']:
            diffs.append('SQLForeignKeys(FK %s): FKTABLE_NAME %r' % (table['name'], r.fktable_name))
    for r in as_pk:
        if r.pktable_name != table['name']:
            diffs.append('SQLForeignKeys(PK %s): PKTABLE_NAME %r' % (table['name'], r.pktable_name))

    def groups(rows, side):
        out = {}
        for r in rows:
            out.setdefault(r.fk_name, []).append(r)
        res = []
        for name, rs in out.items():
            rs.sort(key=lambda r: r.key_seq)
            if [r.key_seq for r in rs] != list(range(1, len(rs) + 1)):
                diffs.append('relationship %s: KEY_SEQ %r' % (name, [r.key_seq for r in rs]))
            cols = [r.fkcolumn_name if side == 'fk' else r.pkcolumn_name for r in rs]
            res.append((name, cols, rs))
        return res

    fk_groups = groups(as_fk, 'fk')
    pk_groups = groups(as_pk, 'pk')
    for _name, _cols, rs in fk_groups + pk_groups:
        r = rs[0]
        want_pk = pk_names.get(r.pktable_name.lower()) if r.pktable_name else None
        if r.pk_name != want_pk:
            diffs.append('relationship %s: PK_NAME %r, expected %r'
                         % (r.fk_name, r.pk_name, want_pk))
        for x in rs:
            if x.update_rule not in (0, 3) or x.delete_rule not in (0, 3):
                diffs.append('relationship %s: rules %r/%r'
                             % (r.fk_name, x.update_rule, x.delete_rule))
    fk_names = {ix['name'] for ix in fk_ixs}
    for name, _cols, _rs in fk_groups:
        if name not in fk_names:
            diffs.append('SQLForeignKeys reports %s, which has no foreign-key index' % name)
    for ix in fk_ixs:
        cols = [c['name'] for c in ix['columns']]
        # An FK-side index carries the relationship's name (FK_NAME); the
        # referenced side gets a generated one (".rC"): match it by columns.
        hit = any(cols == gc and name == ix['name'] for name, gc, _ in fk_groups) \
            or any(cols == gc for _n, gc, _ in pk_groups)
        if not hit:
            diffs.append('foreign-key index %s %r: no relationship in SQLForeignKeys'
                         % (ix['name'], cols))


def check_file(pyodbc, rel, shared):
    """[(table, [diff, ...])] for one fixture."""
    exp_path = os.path.join(shared, 'fixtures', 'expected', rel + '.json')
    with open(exp_path, encoding='utf-8') as f:
        expected = json.load(f)
    if expected.get('open_error'):
        return []
    src = os.path.join(shared, 'fixtures', 'public', rel)
    cs = connstr_for(src, expected)
    try:
        cnxn = pyodbc.connect(cs, autocommit=True)
    except pyodbc.Error as e:
        return [('(connect)', ['connect failed: %s' % e])]
    jet3 = expected.get('jackcess_file_format') == 'V1997'
    results = []
    try:
        cur = cnxn.cursor()
        pk_names = {}
        for t in expected['tables']:
            pks = [ix['name'] for ix in t['indexes'] if ix['primary_key']]
            pk_names[t['name'].lower()] = pks[0] if pks else None
        for t in expected['tables']:
            diffs = []
            for fn in (lambda: check_columns(cur, t, t['columns'], jet3, diffs,
                                             os.path.basename(rel)),
                       lambda: check_statistics(cur, t, diffs),
                       lambda: check_primary_keys(cur, t, diffs),
                       lambda: check_foreign_keys(cur, t, pk_names, diffs)):
                try:
                    fn()
                except pyodbc.Error as e:
                    diffs.append('ODBC error: %s' % e)
            results.append((t['name'], diffs))
        # SQLTables: the user tables as TABLE, the linked ones as SYNONYM
        diffs = []
        rows = cur.tables().fetchall()
        for ttype, want in (('TABLE', [t['name'] for t in expected['tables']]),
                            ('SYNONYM', [t['name'] for t in
                                         expected.get('linked_tables') or []])):
            got = sorted((r.table_name for r in rows if r.table_type == ttype
                          and not r.table_name.lower().startswith('msys')),
                         key=str.lower)
            if got != sorted(want, key=str.lower):
                diffs.append('SQLTables %s: %r, expected %r' % (ttype, got, want))
        if any(r.table_cat != src for r in rows):
            diffs.append('SQLTables: TABLE_CAT is not the file path')
        results.append(('(SQLTables)', diffs))
    finally:
        cnxn.close()
    return results


def main():
    srcdir, shared, driver = locate()
    known = load_expected_failures(os.path.join(srcdir, 'tests', 'compat',
                                                'metadata_expected_failures.txt'))
    verbose = os.environ.get('METADATA_VERBOSE') == '1'
    rels = fixture_paths(shared, os.environ.get('METADATA_ONLY', ''))
    with tempfile.TemporaryDirectory(prefix='jetodbc-metadata.') as tmpdir:
        # before the first connect: unixODBC reads these when it allocates
        os.environ.update(write_ini(tmpdir, driver))
        try:
            import pyodbc
        except ImportError:
            skip('pyodbc is not importable by %s (Debian package python3-pyodbc)'
                 % sys.executable)
        pyodbc.pooling = False
        results = [(rel, check_file(pyodbc, rel, shared)) for rel in rels]
    verdicts = []
    for rel, tables in results:
        for name, diffs in tables:
            shown = diffs if verbose else diffs[:5]
            more = len(diffs) - len(shown)
            detail = '\n        ' + '\n        '.join(shown)
            if more:
                detail += '\n        (%d more)' % more
            verdicts.append((rel, name, not diffs, detail))
    return tally('metadata', verdicts, known, 'metadata_expected_failures.txt',
                 len(results), what='checks (a table each, plus SQLTables per file)')


if __name__ == '__main__':
    sys.exit(main())
