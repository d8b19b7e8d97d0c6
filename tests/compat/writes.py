#!/usr/bin/python3
"""writes.py - the write battery of issue 25 (acceptance 1): the driver's
writes checked by readers that are not ours.

Copies of public fixtures (Jet4, ACE 2007/2010, the three kinds of
encrypted file) and of files jetgen makes (ACE 2016 and 2019, and the
tables grown to 10,000+ rows) take INSERT, UPDATE and DELETE statements
through unixODBC and pyodbc: AutoNumber inserts, duplicates refused on
primary keys and unique indexes (23000, the file byte for byte unchanged),
updates that move indexed keys, Memo/OLE values longer than a page
(inserted, made shorter, longer and NULL, deleted), deletes by range and
mass deletes after the index B-trees grew to three levels and more.

The expected content is a model kept here: each fixture's expected JSON
(../shared/fixtures/expected, Jackcess's reading of the original file)
with every statement's effect applied in Python. After each batch of
statements, with the connection closed:
  - `jetcheck verify` (Jackcess) reports 0 problems,
  - `jetcheck dump` holds exactly the model's rows (as a multiset per
    table; the dump's row order is the table's page order),
  - mdbtools' `mdb-export` reads every table, with the model's row count
    (Office-encrypted files excepted: mdbtools cannot decrypt them),
  - `jetodbc-setup check FILE` reports 0 problems,
  - no rollback journal is left beside the file.
A page walk of the B-trees (unencrypted files) reports each index's
depth; the grown tables must reach three levels.

Environment: JET_WRITE_BATTERY=long runs five times the rows (50,000 in
the grown tables) and checks after every group of statements;
JET_WRITE_BATTERY_ONLY=TEXT runs only the files whose name holds TEXT.
JET_BUILDDIR, JET_SRCDIR and JETODBC_SHARED come from make check.
Exit status (automake): 0 pass, 1 fail, 77 skip (no ../shared, no
jetcheck, no java, no pyodbc).
"""

import concurrent.futures
import copy
import csv
import datetime
import decimal
import hashlib
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from harness import locate, skip, write_ini

D = decimal.Decimal
LONG = os.environ.get('JET_WRITE_BATTERY', '') == 'long'
ONLY = os.environ.get('JET_WRITE_BATTERY_ONLY', '')
SCALE = 5 if LONG else 1


class Failure(Exception):
    pass


# ------------------------------------------------------------ rendering

def render(ctype, v):
    """A parameter value as `jetcheck dump` renders the stored value
    (../shared/fixtures/expected/INDEX.md)."""
    if v is None:
        return False if ctype == 'BOOLEAN' else None
    if ctype in ('TEXT', 'MEMO'):
        return v
    if ctype in ('LONG', 'INT', 'BYTE'):
        return int(v)
    if ctype == 'BOOLEAN':
        return bool(v)
    if ctype == 'DOUBLE':
        return float(v)
    if ctype == 'FLOAT':
        return struct.unpack('<f', struct.pack('<f', v))[0]
    if ctype == 'MONEY':
        return str(D(v).quantize(D('0.0001')))
    if ctype == 'SHORT_DATE_TIME':
        return v.strftime('%Y-%m-%d %H:%M:%S')
    if ctype in ('OLE', 'BINARY'):
        b = bytes(v)
        if len(b) <= 4096:
            return {'hex': b.hex()}
        return {'sha256': hashlib.sha256(b).hexdigest(), 'length': len(b)}
    raise Failure('no rendering for type %s' % ctype)


def text_eq(a, b):
    """Jet's '=' on text, for the ASCII-and-Latin values compared here:
    case aside, trailing spaces aside; NULL equals nothing."""
    if a is None or b is None:
        return False
    return a.rstrip(' ').casefold() == b.rstrip(' ').casefold()


# ---------------------------------------------------------------- model

class Table:
    """One table of the model: columns and rows as the dump renders them."""

    def __init__(self, doc):
        self.name = doc['name']
        self.columns = doc['columns']
        self.types = {c['name']: c['type'] for c in self.columns}
        self.pos = {c['name']: i for i, c in enumerate(self.columns)}
        self.rows = [list(r) for r in doc.get('rows', [])]
        self.indexes = doc.get('indexes', [])
        self.auto = [c['name'] for c in self.columns if c.get('auto_number')]
        self.next_auto = None   # the exact next AutoNumber, once known
        self.auto_floor = 1     # the least acceptable one
        self.writable = None

    def unique_sets(self):
        """Column-name tuples of the primary key and unique indexes."""
        out = []
        for ix in self.indexes:
            if ix.get('unique') and not ix.get('foreign_key'):
                cols = tuple(c['name'] for c in ix['columns'])
                if cols not in out:
                    out.append(cols)
        return out

    def indexed(self):
        return {c['name'] for ix in self.indexes for c in ix['columns']}

    def get(self, row, col):
        return row[self.pos[col]]

    def values(self, col):
        return [r[self.pos[col]] for r in self.rows]


class Fixture:
    """A copy of one file and its model."""

    def __init__(self, label, path, kind, password=None, doc=None,
                 mdbtools=True):
        self.label = label
        self.path = path
        self.kind = kind
        self.password = password
        self.tables = {}
        for t in (doc or {}).get('tables', []):
            self.tables[t['name']] = Table(t)
        self.mdbtools = mdbtools
        self.batches = 0


# ----------------------------------------------------------- the runner

class Battery:
    def __init__(self, srcdir, builddir, shared, env, tmp):
        self.srcdir = srcdir
        self.builddir = builddir
        self.shared = shared
        self.env = env
        self.tmp = tmp
        self.jetcheck = os.path.join(shared, 'tools', 'jetcheck', 'jetcheck')
        self.setup = os.path.join(builddir, 'jetodbc-setup')
        self.jetgen = os.path.join(builddir, 'fixtures', 'jetgen')
        self.stmts = 0          # DML statements executed
        self.refused = 0        # of which refused as the test expected
        self.unencodable = []   # refusals: text keys the driver cannot encode
        self.auto_given = []    # AutoNumbers assigned, in order
        self.rows_written = 0   # rows inserted, changed or deleted
        self.checks = {'verify': 0, 'dump': 0, 'mdb-export': 0, 'check': 0,
                       'mdb-export skipped': 0}
        self.verify_rows = 0
        self.fixtures = []
        self.writable = []      # (label, writable, total, refusals)
        self.depth_log = []     # (label, table, index, levels, pages)
        self.rng = random.Random(25)
        self.cn = None
        self.fx = None
        self.uniq = 0

    # ------------------------------------------------------- connection

    def connstr(self, fx):
        cs = 'DRIVER={JetODBC};DBQ=%s;' % fx.path
        if fx.password:
            cs += 'PWD={%s};' % fx.password
        return cs

    def open(self, fx):
        import pyodbc
        self.fx = fx
        self.cn = pyodbc.connect(self.connstr(fx), autocommit=True)

    def close(self):
        if self.cn is not None:
            self.cn.close()
            self.cn = None

    # ------------------------------------------------------- statements

    def run(self, sql, params=(), expect_rows=None):
        """One DML statement that must succeed; its row count must be
        expect_rows when given. Returns the row count, or None when the
        statement was refused because a text key of a row it touches is
        one the driver cannot encode (HYC00, by design: it never writes a
        key the reader would not find); the file must then be unchanged
        and the caller leaves the model as it was."""
        before = file_digest(self.fx.path)
        cur = self.cn.cursor()
        try:
            cur.execute(sql, params)
            n = cur.rowcount
        except Exception as e:
            state = e.args[0] if e.args else ''
            if state == 'HYC00' and 'cannot encode' in str(e):
                if file_digest(self.fx.path) != before:
                    raise Failure('%s: refused %s changed the file'
                                  % (self.fx.label, sql))
                self.stmts += 1
                self.refused += 1
                self.unencodable.append('%s: %s' % (self.fx.label, e.args[1][:160]))
                return None
            raise Failure('%s: %s %r: %s' % (self.fx.label, sql, params[:4], e))
        finally:
            cur.close()
        self.stmts += 1
        if expect_rows is not None and n != expect_rows:
            raise Failure('%s: %s %r: %d rows affected, the model says %d'
                          % (self.fx.label, sql, params[:4], n, expect_rows))
        self.rows_written += max(n, 0)
        return n

    def refuse(self, sql, params, sqlstate, contains=None):
        """One DML statement that must fail with sqlstate and leave the
        file byte for byte unchanged."""
        before = file_digest(self.fx.path)
        cur = self.cn.cursor()
        try:
            cur.execute(sql, params)
        except Exception as e:
            state = e.args[0] if e.args else ''
            msg = str(e)
            if state != sqlstate or (contains and contains not in msg):
                raise Failure('%s: %s: expected %s%s, got %s' % (
                    self.fx.label, sql, sqlstate,
                    ' "%s"' % contains if contains else '', msg))
        else:
            raise Failure('%s: %s %r: succeeded, expected %s'
                          % (self.fx.label, sql, params[:4], sqlstate))
        finally:
            cur.close()
        self.stmts += 1
        self.refused += 1
        if file_digest(self.fx.path) != before:
            raise Failure('%s: refused %s changed the file' % (self.fx.label, sql))

    def identity(self):
        cur = self.cn.cursor()
        v = cur.execute('SELECT @@IDENTITY').fetchone()[0]
        cur.close()
        return v

    # ------------------------------------------------------ model edits

    def fresh(self):
        self.uniq += 1
        return self.uniq

    def gen(self, t, col, n, lv_size=None):
        """A value for column col of table t (n: a number unique in this
        run, used in unique and key columns)."""
        c = next(c for c in t.columns if c['name'] == col)
        ty, r = c['type'], self.rng
        if ty == 'TEXT':
            cap = max(1, c['length'] // 2)
            if len(t.columns) > 20:
                cap = min(cap, 24)   # a row must fit a page
            words = ['alpha', 'Bravo', 'ÉCLAIR', 'straße', 'Øre', 'delta',
                     'über', 'niño', 'x', 'Zulu']
            s = 'w%06d ' % n + ' '.join(r.choice(words) for _ in range(8))
            return s[:cap]
        if ty == 'MEMO':
            size = lv_size if lv_size is not None else r.randrange(10, 200)
            base = 'memo %d: ' % n
            body = ''.join(r.choice('abcdefghij klmnopqrstuvwxyzäöü\n')
                           for _ in range(max(0, size - len(base))))
            return (base + body)[:max(size, 1)]
        if ty == 'OLE':
            size = lv_size if lv_size is not None else r.randrange(1, 300)
            return bytes(r.getrandbits(8) for _ in range(size))
        if ty == 'LONG':
            return 2000000 + n if n else r.randrange(-2**31, 2**31)
        if ty == 'INT':
            return 20000 + n % 10000 if n else r.randrange(-32768, 32768)
        if ty == 'BYTE':
            return r.randrange(0, 256)
        if ty == 'BOOLEAN':
            return r.random() < 0.5
        if ty == 'DOUBLE':
            return round(r.uniform(-1e6, 1e6), 3)
        if ty == 'MONEY':
            return D(r.randrange(-10**8, 10**8)) / 100
        if ty == 'SHORT_DATE_TIME':
            return datetime.datetime(r.randrange(1950, 2040), r.randrange(1, 13),
                                     r.randrange(1, 29), r.randrange(24),
                                     r.randrange(60), r.randrange(60))
        raise Failure('no generator for %s.%s (%s)' % (t.name, col, ty))

    def insert(self, t, values):
        """INSERT one row (values: column -> parameter); the model gets
        the row, AutoNumber columns included."""
        cols = list(values)
        sql = 'INSERT INTO [%s] (%s) VALUES (%s)' % (
            t.name, ', '.join('[%s]' % c for c in cols), ', '.join('?' * len(cols)))
        if self.run(sql, [values[c] for c in cols], expect_rows=1) is None:
            raise Failure('%s: INSERT of a value of ours refused as unencodable'
                          % self.fx.label)
        row = [render(c['type'], values.get(c['name'])) for c in t.columns]
        for a in t.auto:
            if t.types[a] != 'LONG':
                raise Failure('%s.%s: GUID AutoNumber is not modelled' % (t.name, a))
            got = self.identity()
            if t.next_auto is None:
                # first insert (or first after a rollback): the counter may
                # be past the largest value (rows deleted in Access), never
                # below it, nor below a number a rollback gave back
                lo = max([v for v in t.values(a) if v is not None] + [t.auto_floor - 1]) + 1
                if got < lo:
                    raise Failure('%s: AutoNumber %d reuses a value (expected >= %d)'
                                  % (t.name, got, lo))
            elif got != t.next_auto:
                raise Failure('%s: AutoNumber %d, expected %d'
                              % (t.name, got, t.next_auto))
            t.next_auto = got + 1
            self.auto_given.append(got)
            row[t.pos[a]] = got
        t.rows.append(row)

    def where(self, t, row, cols):
        """SQL condition and parameters matching row on cols, and the
        model's predicate for it."""
        parts, params = [], []
        for c in cols:
            v = t.get(row, c)
            if v is None:
                parts.append('[%s] IS NULL' % c)
            else:
                parts.append('[%s] = ?' % c)
                params.append(v)

        def pred(r, cols=tuple(cols), row=list(row)):
            for c in cols:
                a, b = t.get(r, c), t.get(row, c)
                if t.types[c] == 'TEXT':
                    if not ((a is None and b is None) or text_eq(a, b)):
                        return False
                elif a != b:
                    return False
            return True
        return ' AND '.join(parts), params, pred

    def locator(self, t, row):
        """Columns that single out row: a unique index with no NULL in
        row, else every TEXT/LONG/INT column."""
        for cols in t.unique_sets():
            if all(t.get(row, c) is not None and t.types[c] in
                   ('TEXT', 'LONG', 'INT', 'BYTE') for c in cols):
                return cols
        return [c['name'] for c in t.columns
                if c['type'] in ('TEXT', 'LONG', 'INT')]

    def update(self, t, row, changes):
        """UPDATE the row(s) the locator of row finds; model alike."""
        cond, params, pred = self.where(t, row, self.locator(t, row))
        cols = list(changes)
        sql = 'UPDATE [%s] SET %s WHERE %s' % (
            t.name, ', '.join('[%s] = ?' % c for c in cols), cond)
        hits = [r for r in t.rows if pred(r)]
        if self.run(sql, [changes[c] for c in cols] + params,
                    expect_rows=len(hits)) is None:
            return
        for r in hits:
            for c in cols:
                r[t.pos[c]] = render(t.types[c], changes[c])

    def delete(self, t, row):
        cond, params, pred = self.where(t, row, self.locator(t, row))
        hits = [r for r in t.rows if pred(r)]
        if self.run('DELETE FROM [%s] WHERE %s' % (t.name, cond), params,
                    expect_rows=len(hits)) is not None:
            t.rows = [r for r in t.rows if not pred(r)]

    def delete_range(self, t, col, lo, hi):
        """DELETE ... WHERE col BETWEEN lo AND hi (an integer column)."""
        def pred(r):
            v = t.get(r, col)
            return v is not None and lo <= v <= hi
        n = sum(1 for r in t.rows if pred(r))
        if self.run('DELETE FROM [%s] WHERE [%s] BETWEEN ? AND ?' % (t.name, col),
                    (lo, hi), expect_rows=n) is None:
            return 0
        t.rows = [r for r in t.rows if not pred(r)]
        return n

    # --------------------------------------------------------- checking

    def probe(self, fx):
        """Which tables take writes: DELETE ... WHERE 1=0 is refused
        (HYC00) by a table the write path does not write."""
        writable, refusals = 0, []
        for t in fx.tables.values():
            cur = self.cn.cursor()
            try:
                cur.execute('DELETE FROM [%s] WHERE 1=0' % t.name)
                t.writable = True
                writable += 1
            except Exception as e:
                t.writable = False
                refusals.append('%s: %s' % (t.name, e.args[0] if e.args else e))
            finally:
                cur.close()
        self.writable.append((fx.label, writable, len(fx.tables), refusals))

    def tool(self, args):
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=self.env)
        return p.returncode, p.stdout.decode('utf-8', 'replace'), \
            p.stderr.decode('utf-8', 'replace')

    def batch(self, label):
        """End of a batch: close the connection, run the four readers on
        the file, compare the dump with the model, reopen."""
        fx = self.fx
        self.close()
        fx.batches += 1
        where = '%s [batch %d: %s]' % (fx.label, fx.batches, label)
        if os.path.exists(fx.path + '-journal'):
            raise Failure('%s: a journal was left beside the file' % where)
        pw = ['--password', fx.password] if fx.password else []
        with concurrent.futures.ThreadPoolExecutor(3) as ex:
            fv = ex.submit(self.tool, [self.jetcheck, 'verify', fx.path] + pw)
            fd = ex.submit(self.tool, [self.jetcheck, 'dump', fx.path] + pw)
            fc = ex.submit(self.tool, [self.setup, 'check', fx.path] + pw)
            rc, out, err = fv.result()
            last = out.strip().splitlines()[-1] if out.strip() else ''
            if rc != 0 or not last.endswith(' 0 problems'):
                raise Failure('%s: jetcheck verify (exit %d):\n%s%s'
                              % (where, rc, out[-3000:], err[-2000:]))
            self.checks['verify'] += 1
            self.verify_rows += int(last.split(' tables, ')[1].split(' rows')[0])
            rc, out, err = fc.result()
            if rc != 0 or ': 0 problems;' not in out:
                raise Failure('%s: jetodbc-setup check (exit %d):\n%s%s'
                              % (where, rc, out[-3000:], err[-2000:]))
            self.checks['check'] += 1
            rc, out, err = fd.result()
            if rc != 0:
                raise Failure('%s: jetcheck dump (exit %d): %s'
                              % (where, rc, err[-2000:]))
            self.compare(where, fx, json.loads(out))
            self.checks['dump'] += 1
        for t in fx.tables.values():
            if not fx.mdbtools:
                self.checks['mdb-export skipped'] += 1
                continue
            rc, out, err = self.tool(['mdb-export', '-b', 'hex', fx.path, t.name])
            if rc != 0:
                raise Failure('%s: mdb-export %s (exit %d): %s'
                              % (where, t.name, rc, err[-1000:]))
            n = sum(1 for _ in csv.reader(io.StringIO(out))) - 1
            if n != len(t.rows):
                raise Failure('%s: mdb-export %s: %d rows, the model has %d'
                              % (where, t.name, n, len(t.rows)))
            self.checks['mdb-export'] += 1
        print('ok   %-44s %5d rows in %d tables' % (
            where, sum(len(t.rows) for t in fx.tables.values()), len(fx.tables)))
        sys.stdout.flush()
        self.open(fx)

    def compare(self, where, fx, dump):
        got = {t['name']: t for t in dump.get('tables', [])}
        if sorted(got) != sorted(fx.tables):
            raise Failure('%s: dump tables %s, model %s'
                          % (where, sorted(got), sorted(fx.tables)))
        for name, t in fx.tables.items():
            g = got[name]
            if 'error' in g:
                raise Failure('%s: dump cannot read %s: %s' % (where, name, g['error']))
            key = lambda r: json.dumps(r, sort_keys=True, ensure_ascii=False)
            a = sorted(key(r) for r in g['rows'])
            b = sorted(key(r) for r in t.rows)
            if a != b or g['row_count'] != len(t.rows):
                sa, sb = set(a), set(b)
                lines = ['%s: table %s: dump has %d rows, model %d' %
                         (where, name, len(a), len(b))]
                lines += ['  only in the file:  ' + x[:300] for x in sorted(sa - sb)[:5]]
                lines += ['  only in the model: ' + x[:300] for x in sorted(sb - sa)[:5]]
                raise Failure('\n'.join(lines))

    # ----------------------------------------------------- index depths

    def depths(self, t, need=None):
        """Each index of table t: its levels by a walk of the file's pages
        (unencrypted Jet4/ACE files); need: {index: least levels}."""
        with open(self.fx.path, 'rb') as f:
            data = f.read()
        got = index_depths(data, [c['name'] for c in t.columns])
        for name, (levels, per_level) in sorted(got.items()):
            self.depth_log.append((self.fx.label, t.name, name, levels, per_level))
            print('     index %s.%s: %d levels, pages per level %s'
                  % (t.name, name, levels, per_level))
        for name, least in (need or {}).items():
            if got.get(name, (0,))[0] < least:
                raise Failure('%s: index %s.%s has %s levels, the test needs %d'
                              % (self.fx.label, t.name, name,
                                 got.get(name, ('no',))[0], least))


def file_digest(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        h.update(f.read())
    return h.hexdigest()


# ----------------------------------------------- a page walk of B-trees

PG = 4096


def u16(b, o):
    return struct.unpack_from('<H', b, o)[0]


def u32(b, o):
    return struct.unpack_from('<I', b, o)[0]


def tdefs(data):
    """Every table definition of the file: (first page, parsed TDEF), its
    pages found by scanning for type 0x02 pages and following their
    next-page links (Jet4/ACE: mdbtools HACKING.md "Table Definition")."""
    npages = len(data) // PG
    for p in range(3, npages):
        pg = data[p * PG:(p + 1) * PG]
        if pg[0] != 0x02 or pg[1] != 0x01:
            continue
        buf = bytearray(pg)
        nxt, seen = u32(pg, 4), 0
        while nxt and nxt < npages and seen < 64:
            q = data[nxt * PG:(nxt + 1) * PG]
            buf += q[8:]
            nxt, seen = u32(q, 4), seen + 1
        try:
            t = parse_tdef(bytes(buf))
        except (struct.error, IndexError, UnicodeDecodeError):
            continue
        if t is not None:
            yield p, t


def parse_tdef(b):
    ncols = u16(b, 45)
    nidx, nreal = u32(b, 47), u32(b, 51)
    if ncols == 0 or ncols > 255 or nreal > 64 or nidx > 64:
        return None
    o = 63 + 12 * nreal
    cols = []
    for _ in range(ncols):
        cols.append({'type': b[o], 'num': u16(b, o + 5)})
        o += 25
    for c in cols:
        n = u16(b, o)
        c['name'] = b[o + 2:o + 2 + n].decode('utf-16-le')
        o += 2 + n
    real = []
    for _ in range(nreal):
        real.append({'root': u32(b, o + 38)})
        o += 52
    logical = []
    for _ in range(nidx):
        logical.append({'real': u32(b, o + 8)})
        o += 28
    for ix in logical:
        n = u16(b, o)
        ix['name'] = b[o + 2:o + 2 + n].decode('utf-16-le')
        o += 2 + n
    return {'cols': cols, 'real': real, 'logical': logical}


def index_depths(data, table_cols):
    """{index name: (levels, pages per level)} for the TDEF whose column
    names are table_cols (a list), by descending from each root."""
    out = {}
    for _p, t in tdefs(data):
        if [c['name'] for c in t['cols']] != table_cols:
            continue
        for ix in t['logical']:
            root = t['real'][ix['real']]['root']
            levels = []
            frontier = [root]
            while frontier and len(levels) < 16:
                levels.append(len(frontier))
                kids = []
                for p in frontier:
                    pg = data[p * PG:(p + 1) * PG]
                    if pg[0] == 0x04:
                        continue
                    if pg[0] != 0x03:
                        raise Failure('page %d in index %s is not an index page'
                                      % (p, ix['name']))
                    kids.extend(node_children(pg))
                frontier = kids
            out[ix['name']] = (len(levels), levels)
        return out
    raise Failure('no TDEF with columns %s' % table_cols)


def node_children(pg):
    """Child page numbers of an index node page (Jet4/ACE): entry ends
    are the bits of the mask at 0x1B, entries start at 0x1E0, and each
    entry ends with its child page number (4 bytes, big-endian); a node
    with two or more children keeps the last one in its tail pointer
    (offset 20) instead (Jackcess IndexPageCache)."""
    start, end = 0x1E0, PG - u16(pg, 2)
    kids, last = [], 0
    for off in range(1, end - start + 1):
        if pg[0x1B + off // 8] & (1 << (off % 8)):
            e = start + off
            kids.append(struct.unpack_from('>I', pg, e - 4)[0])
            last = off
    if last != end - start:
        raise Failure('index node page: entries end at %d, free space says %d'
                      % (last, end - start))
    if u32(pg, 20):
        kids.append(u32(pg, 20))
    return kids


# ------------------------------------------------------------ scenarios

MODELLED = {'TEXT', 'MEMO', 'LONG', 'INT', 'BYTE', 'BOOLEAN', 'DOUBLE',
            'FLOAT', 'MONEY', 'SHORT_DATE_TIME', 'OLE'}


def param_of(t, col, row):
    """The parameter that stores the value the model holds for col."""
    v, ty = t.get(row, col), t.types[col]
    if v is None:
        return None
    if ty == 'MONEY':
        return D(v)
    if ty == 'SHORT_DATE_TIME':
        return datetime.datetime.strptime(v, '%Y-%m-%d %H:%M:%S')
    if ty == 'OLE':
        if 'hex' not in v:
            raise Failure('%s.%s: a long OLE value cannot be copied' % (t.name, col))
        return bytes.fromhex(v['hex'])
    return v


def modelled(t):
    """Whether the model can follow every column of t (GUID and other
    AutoNumbers, NUMERIC and the like are not modelled)."""
    for c in t.columns:
        if c['type'] not in MODELLED or c.get('calculated'):
            return False
        if c.get('auto_number') and c['type'] != 'LONG':
            return False
    return True


def row_values(b, t, big=False, only=None):
    """Values for a new row of t: every column but AutoNumbers; the first
    TEXT/LONG/INT column of each unique index gets a value unused so far;
    other columns are NULL now and then (never Required or unique ones)."""
    uniq_cols = {c for cols in t.unique_sets() for c in cols}
    firsts = set()
    for cols in t.unique_sets():
        for c in cols:
            if t.types[c] in ('TEXT', 'LONG', 'INT'):
                firsts.add(c)
                break
    out = {}
    for c in t.columns:
        name, ty = c['name'], c['type']
        if c.get('auto_number') or (only is not None and name not in only):
            continue
        if name in firsts:
            out[name] = unused(b, t, name)
            continue
        nullable = name not in uniq_cols and not c.get('required') and ty != 'BOOLEAN'
        if nullable and b.rng.random() < 0.15:
            out[name] = None
            continue
        lv = None
        if ty in ('MEMO', 'OLE'):
            lv = b.rng.randrange(5000, 16000) if big else b.rng.randrange(1, 400)
        out[name] = b.gen(t, name, 0, lv)
    return out


def unused(b, t, col):
    """A value for col no row holds (case aside for text)."""
    have = t.values(col)
    while True:
        v = b.gen(t, col, b.fresh())
        if t.types[col] == 'TEXT':
            if not any(text_eq(v, h) for h in have):
                return v
        elif v not in have:
            return v


def insert_rows(b, t, n, big_every=3):
    has_lv = any(c['type'] in ('MEMO', 'OLE') for c in t.columns)
    for i in range(n):
        b.insert(t, row_values(b, t, big=has_lv and i % big_every == 0))


def duplicates(b, t):
    """For each unique index: an INSERT copying an existing row's key,
    and an UPDATE giving one row another's key: both 23000, file
    unchanged."""
    for cols in t.unique_sets():
        rows = [r for r in t.rows if all(t.get(r, c) is not None for c in cols)]
        if not rows:
            continue
        src = b.rng.choice(rows)
        vals = row_values(b, t)
        for c in cols:
            vals[c] = param_of(t, c, src)
        names = list(vals)
        b.refuse('INSERT INTO [%s] (%s) VALUES (%s)' % (
            t.name, ', '.join('[%s]' % c for c in names), ', '.join('?' * len(names))),
            [vals[c] for c in names], '23000', 'duplicate values')
        others = [r for r in rows if r is not src]
        if not others or any(c in t.auto for c in cols):
            continue   # (an AutoNumber is never updated: HY000, below)
        dst = b.rng.choice(others)
        loc = b.locator(t, dst)
        cond, params, _pred = b.where(t, dst, loc)
        b.refuse('UPDATE [%s] SET %s WHERE %s' % (
            t.name, ', '.join('[%s] = ?' % c for c in cols), cond),
            [param_of(t, c, src) for c in cols] + params, '23000',
            'duplicate values')


def update_rows(b, t, n):
    """n UPDATEs of random rows: indexed keys moved (unique ones to unused
    values), other columns changed, Memo/OLE made shorter, longer, NULL."""
    uniq_cols = {c for cols in t.unique_sets() for c in cols}
    for i in range(n):
        if not t.rows:
            return
        row = b.rng.choice(t.rows)
        changes = {}
        for c in t.columns:
            name, ty = c['name'], c['type']
            if c.get('auto_number') or (b.rng.random() < 0.5 and
                                        name not in t.indexed() and
                                        ty not in ('MEMO', 'OLE')):
                continue
            if name in uniq_cols:
                if ty in ('TEXT', 'LONG', 'INT') and b.rng.random() < 0.5:
                    changes[name] = unused(b, t, name)
                continue
            if ty in ('MEMO', 'OLE'):
                step = i % 4
                if step == 0:
                    changes[name] = b.gen(t, name, 0, b.rng.randrange(9000, 20000))
                elif step == 1:
                    changes[name] = b.gen(t, name, 0, b.rng.randrange(1, 60))
                elif step == 2:
                    changes[name] = None
                else:
                    changes[name] = b.gen(t, name, 0, b.rng.randrange(4100, 8000))
                continue
            changes[name] = b.gen(t, name, 0)
        if changes:
            b.update(t, row, changes)


def delete_rows(b, t, n):
    """n rows deleted by key (original rows among them), then a range of
    an integer column."""
    for _ in range(n):
        if not t.rows:
            return
        b.delete(t, b.rng.choice(t.rows))
    ints = [c['name'] for c in t.columns if c['type'] in ('LONG', 'INT')]
    if ints and t.rows:
        col = ints[-1]
        vals = sorted(v for v in t.values(col) if v is not None)
        if len(vals) >= 4:
            lo = vals[len(vals) // 4]
            hi = vals[len(vals) // 4 + max(1, len(vals) // 6)]
            b.delete_range(t, col, lo, hi)


def transaction(b, t):
    """Autocommit off: inserts, updates and a delete rolled back (the file
    byte for byte as before; AutoNumbers given out are not given again),
    then the same kind of work committed."""
    before = file_digest(b.fx.path)
    saved = copy.deepcopy(t.rows)
    given = len(b.auto_given)
    b.cn.autocommit = False
    insert_rows(b, t, 3, big_every=2)
    update_rows(b, t, 2)
    if t.rows:
        b.delete(t, b.rng.choice(t.rows))
    b.cn.rollback()
    t.rows = saved
    if t.auto:
        t.next_auto = None
        t.auto_floor = max(b.auto_given[given:] + [t.auto_floor - 1]) + 1
    if file_digest(b.fx.path) != before:
        raise Failure('%s: a rolled back transaction changed the file' % b.fx.label)
    insert_rows(b, t, 2, big_every=2)
    update_rows(b, t, 1)
    b.cn.commit()
    b.cn.autocommit = True


def array_failure(b, t):
    """A parameter array whose third set duplicates a unique key: 23000,
    none of the array's rows stay, the file unchanged."""
    sets = [cols for cols in t.unique_sets() if not any(c in t.auto for c in cols)]
    if not sets or not t.rows:
        return
    vals = [row_values(b, t) for _ in range(4)]
    src = b.rng.choice([r for r in t.rows
                        if all(t.get(r, c) is not None for c in sets[0])] or [None])
    if src is None:
        return
    for c in sets[0]:
        vals[2][c] = param_of(t, c, src)
    names = list(vals[0])
    sql = 'INSERT INTO [%s] (%s) VALUES (%s)' % (
        t.name, ', '.join('[%s]' % c for c in names), ', '.join('?' * len(names)))
    before = file_digest(b.fx.path)
    cur = b.cn.cursor()
    cur.fast_executemany = True
    try:
        cur.executemany(sql, [tuple(v[c] for c in names) for v in vals])
    except Exception as e:
        if not e.args or e.args[0] != '23000':
            raise Failure('%s: parameter array with a duplicate: %s' % (b.fx.label, e))
    else:
        raise Failure('%s: parameter array with a duplicate succeeded' % b.fx.label)
    finally:
        cur.close()
    b.stmts += 1
    b.refused += 1
    if file_digest(b.fx.path) != before:
        raise Failure('%s: a failed parameter array changed the file' % b.fx.label)
    if t.auto:
        t.next_auto = None   # (numbers the failed sets took are not reused)


def generic(b, fx):
    """Two batches over every writable, modelled table of fx: inserts and
    duplicates; a transaction rolled back and one committed, a parameter
    array refused, updates and deletes."""
    tables = [t for t in fx.tables.values() if t.writable and modelled(t)]
    skipped = [t.name for t in fx.tables.values() if t.writable and not modelled(t)]
    if skipped:
        print('     (writable but not modelled here: %s)' % ', '.join(skipped))
    if not tables:
        raise Failure('%s: no writable table to exercise' % fx.label)
    for t in tables:
        insert_rows(b, t, 6 * SCALE)
        duplicates(b, t)
        if LONG:
            b.batch('inserts into %s' % t.name)
    for t in tables:
        for a in t.auto[:1]:
            b.refuse('UPDATE [%s] SET [%s] = 1' % (t.name, a), (), 'HY000',
                     'not updateable')
    b.batch('inserts, duplicates refused')
    for t in tables:
        transaction(b, t)
        array_failure(b, t)
        update_rows(b, t, 5 * SCALE)
        duplicates(b, t)
        if LONG:
            b.batch('updates of %s' % t.name)
        delete_rows(b, t, 3 * SCALE)
    b.batch('updates, deletes')


def bulk(b, t, rows, chunk=1000):
    """rows (parameter tuples for every column in order) inserted through
    parameter arrays, chunk rows per SQLExecute, in one transaction."""
    cols = [c['name'] for c in t.columns]
    sql = 'INSERT INTO [%s] (%s) VALUES (%s)' % (
        t.name, ', '.join('[%s]' % c for c in cols), ', '.join('?' * len(cols)))
    b.cn.autocommit = False
    cur = b.cn.cursor()
    cur.fast_executemany = True
    for i in range(0, len(rows), chunk):
        part = rows[i:i + chunk]
        try:
            cur.executemany(sql, part)
        except Exception as e:
            b.cn.rollback()
            raise Failure('%s: bulk insert into %s: %s' % (b.fx.label, t.name, e))
        b.stmts += 1
        b.rows_written += len(part)
    b.cn.commit()
    b.cn.autocommit = True
    cur.close()
    for r in rows:
        t.rows.append([render(c['type'], v) for c, v in zip(t.columns, r)])


def keytext(r, n):
    return ''.join(r.choice('abcdefghijklmnopqrstuvwxyz0123456789') for _ in range(n))


def range_update(b, t, col, lo, hi, changes):
    """UPDATE t SET ... WHERE col BETWEEN lo AND hi (an integer column)."""
    hits = [x for x in t.rows if t.get(x, col) is not None and lo <= t.get(x, col) <= hi]
    cols = list(changes)
    if b.run('UPDATE [%s] SET %s WHERE [%s] BETWEEN ? AND ?' % (
            t.name, ', '.join('[%s] = ?' % c for c in cols), col),
            [changes[c] for c in cols] + [lo, hi], expect_rows=len(hits)) is None:
        return 0
    for x in hits:
        for c in cols:
            x[t.pos[c]] = render(t.types[c], changes[c])
    return len(hits)


def grow_ignore_nulls(b, fx):
    """testIndexPropertiesV2010: TableIgnoreNulls2 (text primary key, an
    IgnoreNulls index on (TEXT, LONG)) grown to 10,000+ rows, its B-trees
    to three levels, then keys moved and rows mass-deleted; the other
    tables get the generic batches."""
    generic(b, fx)
    t = fx.tables['TableIgnoreNulls2']
    r, n = b.rng, 10000 * SCALE
    rows = []
    for i in range(n):
        d1 = None if r.random() < 0.1 else keytext(r, 45)
        d2 = None if r.random() < 0.1 else r.randrange(-2**31, 2**31)
        rows.append(('g%06d' % r.randrange(10**6) + keytext(r, 37) + '%06d' % i, d1, d2))
    bulk(b, t, rows)
    b.batch('grown by %d rows' % n)
    b.depths(t, {'PrimaryKey': 3, 'DataIndex': 3})
    # keys moved: the compound key of a range, single rows' primary keys
    range_update(b, t, 'data2', -2**29, 2**29, {'data1': 'moved ' + keytext(r, 30)})
    range_update(b, t, 'data2', 2**29, 2**30, {'data1': None})
    for _ in range(10 * SCALE):
        row = r.choice(t.rows)
        b.update(t, row, {'row': unused(b, t, 'row'), 'data2': r.randrange(100)})
    duplicates(b, t)
    b.batch('keys moved')
    # mass deletes: ranges of the LONG column, then most of the rest
    b.delete_range(t, 'data2', -2**31, -2**30)
    b.delete_range(t, 'data2', 0, 2**31 - 1)
    b.batch('mass deletes')
    b.depths(t)
    hits = [x for x in t.rows if x[0] >= 'g3' and x[0] < 'g9']
    if b.run("DELETE FROM [TableIgnoreNulls2] WHERE [row] >= 'g3' AND [row] < 'g9'",
             expect_rows=len(hits)) is not None:
        t.rows = [x for x in t.rows if not (x[0] >= 'g3' and x[0] < 'g9')]
    insert_rows(b, t, 20)
    b.batch('text range deleted, rows added')


def overflow_rows(b, fx):
    """overflowTestV2010: rows 3 and 5 are overflow rows (their data moved
    to another page by Access). Every original row grown to full columns
    (rows that no longer fit their page move), shrunk again, then two of
    them deleted; the generic batches after."""
    t = fx.tables['Table1']
    originals = [list(r) for r in t.rows]
    cols = [c['name'] for c in t.columns]
    for i, row in enumerate(originals):
        cur = next(x for x in t.rows if x == row)
        b.update(t, cur, {c: ('grown %d %s ' % (i, c) + 'g' * 40)[:50] for c in cols})
    b.batch('every row grown')
    for row in list(t.rows):
        b.update(t, row, {c: (t.get(row, c) or '')[:12] or None for c in cols[:3]})
    for row in list(t.rows)[2:4]:
        b.delete(t, row)
    b.batch('rows shrunk, two deleted')
    generic(b, fx)


def promotion(b, fx):
    """testPromotionV2003: jobDB1 (no index) grown to 15,000 rows, past
    what its inline usage map can list, so the map becomes a reference map
    (type 0x05 pages); ranges then changed, deleted, and rows added into
    the freed pages."""
    t = fx.tables['jobDB1']
    r, n = b.rng, 15000 * SCALE
    rows = [(i, r.randrange(10**6), round(r.uniform(0, 100), 2),
             'job %d ' % i + keytext(r, 40), keytext(r, 20), 'type %d' % (i % 5),
             'dept %d' % (i % 7), None if i % 3 else 'p', 'q', 1.5) for i in range(n)]
    bulk(b, t, rows)
    with open(fx.path, 'rb') as f:
        data = f.read()
    maps = sum(1 for p in range(len(data) // PG) if data[p * PG] == 0x05)
    print('     %d reference usage map page(s) in %d pages' % (maps, len(data) // PG))
    if maps == 0:
        raise Failure('%s: no usage map was promoted to a reference map' % fx.label)
    b.batch('%d rows, usage map promoted' % n)
    range_update(b, t, 'ID', 2000, 2600, {'JobName': 'renamed ' + 'r' * 200})
    b.delete_range(t, 'ID', 5000, 11000)
    insert_rows(b, t, 30)
    b.batch('grown rows, a range deleted, rows added')


def grow_desc(b, fx):
    """compIndexTestV2003: Table1 and its descending LONG index grown by
    10,000 rows, then the generic batches and a mass delete."""
    t = fx.tables['Table1']
    r, n = b.rng, 10000 * SCALE
    rows = [(r.randrange(-10**6, 10**6), keytext(r, 50), None if i % 4 else keytext(r, 20))
            for i in range(n)]
    bulk(b, t, rows)
    b.batch('grown by %d rows' % n)
    b.depths(t)
    generic(b, fx)
    b.delete_range(t, 'CD_AGENTE', -10**6, 5 * 10**5)
    b.batch('mass delete')


def edges(b, t, first_id):
    """Values at the edges: the longest text keys (255 characters, accented:
    longer keys than characters), an empty text key, Memo and OLE values
    of 0 bytes and around one and two pages. Each row is stored, or the
    statement refused (22001, HY000) with the file unchanged; the model
    follows what happened."""
    cases = [('e' * 255, None, None), ('\u00e9' * 255, None, None),
             ('\u00c5\u00df\u00f8' * 85, None, None), ('', '', b''),
             ('edge memo', 'm' * 4060, bytes(4080)), ('edge memo', 'n' * 4061, bytes(4081)),
             ('edge two', '\u00e4' * 8121, bytes(range(256)) * 32),
             ('edge two', 'x' * 8122, bytes(8161))]
    stored = 0
    for i, (text, memo, ole) in enumerate(cases):
        vals = {'id': first_id + i, 'k': i, 't': text, 'm': memo, 'o': ole}
        before = file_digest(b.fx.path)
        names = list(vals)
        cur = b.cn.cursor()
        try:
            cur.execute('INSERT INTO big (%s) VALUES (%s)' % (
                ', '.join(names), ', '.join('?' * len(names))), [vals[c] for c in names])
        except Exception as e:
            state = e.args[0] if e.args else ''
            if state not in ('22001', 'HY000', 'HYC00'):
                raise Failure('%s: edge row %d: %s' % (b.fx.label, i, e))
            if file_digest(b.fx.path) != before:
                raise Failure('%s: refused edge row %d changed the file' % (b.fx.label, i))
            print('     edge row %d refused: %s' % (i, e.args[1][:150]))
            b.refused += 1
        else:
            t.rows.append([render(c['type'], vals[c['name']]) for c in t.columns])
            stored += 1
        finally:
            cur.close()
        b.stmts += 1
    return stored


def cases_stored(t, n):
    """The edge rows (ids n+50...) the table holds."""
    return [x for x in t.rows if n + 50 <= x[0] < n + 100]


def generated_big(b, fx):
    """A jetgen ACE file: table big (LONG primary key, LONG and TEXT
    indexes, MEMO, OLE) grown to 10,000+ rows with 200-character text keys
    (B-trees of three levels and more), Memo/OLE values of several pages
    inserted, changed and deleted, keys moved, then mass deletes and
    inserts into the freed space."""
    t = fx.tables['big']
    r, n = b.rng, 10000 * SCALE
    ids = list(range(1, n + 1))
    r.shuffle(ids)
    rows = [(i, r.randrange(-10**9, 10**9), keytext(r, 200),
             None if i % 7 else 'short memo %d' % i, None) for i in ids]
    bulk(b, t, rows)
    lv = []
    for k in range(12):
        vals = {'id': n + 1 + k, 'k': r.randrange(100), 't': keytext(r, 150),
                'm': b.gen(t, 'm', 0, r.randrange(4100, 30000)),
                'o': b.gen(t, 'o', 0, r.randrange(4100, 30000))}
        b.insert(t, vals)
        lv.append(vals['id'])
    edges(b, t, n + 50)
    duplicates(b, t)
    b.batch('%d rows, 12 with Memo/OLE over a page' % (n + 12))
    b.depths(t, {'idx_big_t': 3})
    # Memo/OLE: longer, shorter, NULL, and back; keys moved
    for step, k in enumerate(lv * 2):
        row = next(x for x in t.rows if x[0] == k)
        size = [60000, 20, None, 9000][step % 4]
        if size is None:
            ch = {'m': None, 'o': None}
        else:
            ch = {'m': b.gen(t, 'm', 0, size), 'o': b.gen(t, 'o', 0, size)}
        b.update(t, row, ch)
    for _ in range(20 * SCALE):
        row = r.choice(t.rows)
        b.update(t, row, {'t': keytext(r, 200), 'k': r.randrange(-10**9, 10**9)})
    range_update(b, t, 'id', 1000, 1999, {'k': 7})
    # rows grown on full pages (overflow rows), and copied by INSERT SELECT
    range_update(b, t, 'id', 3000, 3200, {'m': 'grown ' * 250})
    src = [x for x in t.rows if 2500 <= x[0] <= 2999]
    b.run('INSERT INTO big (id, k, t, m, o) SELECT id + 100000, k, t, m, o '
          'FROM big WHERE id BETWEEN 2500 AND 2999', expect_rows=len(src))
    t.rows += [[x[0] + 100000] + x[1:] for x in src]
    range_update(b, t, 'id', 2000, 2499, {'t': 'same key for five hundred rows'})
    duplicates(b, t)
    b.batch('Memo/OLE resized, keys moved')
    for k in lv[:6]:
        b.delete(t, next(x for x in t.rows if x[0] == k))
    # (one statement may change at most 8,192 existing pages: doc/writing.md)
    for lo in range(1, 3000 * SCALE, 3000 // SCALE):
        b.delete_range(t, 'id', lo, min(lo + 3000 // SCALE, 3000 * SCALE + 1) - 1)
    for lo in range(5000 * SCALE, 9000 * SCALE, 4000 // SCALE):
        b.delete_range(t, 'id', lo, lo + 4000 // SCALE - 1)
    for lo in range(-10**9, 0, 10**9 // SCALE):
        b.delete_range(t, 'k', lo, lo + 10**9 // SCALE - 1)
    # a third of the text index's key range: whole subtrees of its five
    # levels left empty and given back (keys of [0-9a-z] only by now: the
    # accented edge rows go first, their order is not Python's)
    for x in cases_stored(t, n):
        b.delete(t, x)
    for lo, hi in (('0', 'a'), ('a', 'f'), ('f', 'm')):
        hits = [x for x in t.rows if x[2] is not None and lo <= x[2] < hi]
        if b.run('DELETE FROM big WHERE t >= ? AND t < ?', (lo, hi),
                 expect_rows=len(hits)) is not None:
            gone = {x[0] for x in hits}
            t.rows = [x for x in t.rows if x[0] not in gone]
    b.batch('mass deletes')
    b.depths(t)
    more = [(n + 100 + i, r.randrange(100), keytext(r, 200), None,
             bytes(r.getrandbits(8) for _ in range(50))) for i in range(500)]
    bulk(b, t, more, chunk=250)
    for lo in range(1, (n + 1000) * 2, 10000):
        b.delete_range(t, 'id', lo, lo + 9999)
    b.delete_range(t, 'id', 1, 10**9)
    insert_rows(b, t, 5)
    b.batch('emptied, refilled')


# ---------------------------------------------------------------- plan

# (file under fixtures/public, kind, password, scenario, mdbtools reads it)
PUBLIC = [
    ('jackcess/V2000/testIndexPropertiesV2000.mdb', 'Jet4 (Access 2000)', None, generic, True),
    ('jackcess/V2003/test2V2003.mdb', 'Jet4 (Access 2003)', None, generic, True),
    ('jackcess/V2003/testUnicodeCompV2003.mdb', 'Jet4 (Access 2003)', None, generic, True),
    ('jackcess/V2003/delColTestV2003.mdb', 'Jet4 (Access 2003), deleted columns', None,
     generic, True),
    ('jackcess/V2003/testPromotionV2003.mdb', 'Jet4 (Access 2003)', None, promotion, True),
    ('jackcess/V2003/compIndexTestV2003.mdb', 'Jet4 (Access 2003)', None, grow_desc, True),
    ('jackcess/V2007/compIndexTestV2007.accdb', 'ACE12 (Access 2007)', None, generic, True),
    ('jackcess/V2007/testV2007.accdb', 'ACE12 (Access 2007)', None, generic, True),
    ('mdbtestdata/ASampleDatabase.accdb', 'ACE12 (Access 2007)', None, generic, True),
    ('jackcess/V2010/overflowTestV2010.accdb', 'ACE14 (Access 2010)', None, overflow_rows,
     True),
    ('jackcess/V2010/delColTestV2010.accdb', 'ACE14 (Access 2010), deleted columns', None,
     generic, True),
    ('jackcess/V2010/test2V2010.accdb', 'ACE14 (Access 2010)', None, generic, True),
    ('jackcess/V2010/testIndexPropertiesV2010.accdb', 'ACE14 (Access 2010)', None,
     grow_ignore_nulls, True),
    ('jackcessencrypt/db-enc.mdb', 'Jet4, Jet RC4 page encoding', None, generic, True),
    ('jackcessencrypt/db2007-oldenc.accdb', 'ACE12, CryptoAPI RC4 (password)', 'Test123',
     generic, False),
    ('jackcessencrypt/db2007-enc.accdb', 'ACE14, agile AES (password)', 'Test123',
     generic, False),
]

# files the driver must refuse to write: (file, kind, statement, SQLSTATE, text)
REFUSED = [
    ('mdbtestdata/nwind.mdb', 'Jet3 (Access 97)',
     "INSERT INTO Shippers (CompanyName) VALUES ('x')", 'HYC00', 'Access 97'),
    ('jackcess/V2010/complexDataTestV2010.accdb', 'ACE14, attachment added through SQL',
     "INSERT INTO Table1 ([attach-data].FileName, [attach-data].FileData) "
     "VALUES ('a.txt', 0x41) WHERE id = 'row1'", 'HYC00',
     'adding or changing attachments'),
    ('jackcess/V2010/complexDataTestV2010.accdb', 'ACE14, attachment has no Value',
     "INSERT INTO Table1 ([attach-data].Value) VALUES ('x')", '42S22',
     'is an attachment field'),
]

# jetgen files: (name, --format, kind, table spec, scenario)
GENERATED = [
    ('gen2016.accdb', 'ace16', 'ACE16 (Access 2016), jetgen',
     'big:id=long/pk,k=long/idx,t=text255/idx/seq,m=memo,o=ole', generated_big),
    ('gen2019.accdb', 'ace17', 'ACE17 (Access 2019), jetgen',
     'lv:id=long/pk,name=text60/uidx,d=datetime/idx,c=currency,b=bool,'
     'x=double/idx,m=memo,o=ole', generic),
]


def gen_doc(spec):
    """The model of an empty jetgen table: columns and indexes as jetcheck
    names them."""
    name, cols = spec.split(':', 1)
    types = {'long': 'LONG', 'int': 'INT', 'byte': 'BYTE', 'bool': 'BOOLEAN',
             'double': 'DOUBLE', 'single': 'FLOAT', 'currency': 'MONEY',
             'datetime': 'SHORT_DATE_TIME', 'memo': 'MEMO', 'ole': 'OLE'}
    columns, indexes = [], []
    for c in cols.split(','):
        cname, rest = c.split('=')
        parts = rest.split('/')
        ty = parts[0]
        if ty.startswith('text'):
            col = {'name': cname, 'type': 'TEXT', 'length': 2 * int(ty[4:])}
        else:
            col = {'name': cname, 'type': types[ty], 'length': 0}
        columns.append(col)
        flags = parts[1:]
        if 'pk' in flags or 'idx' in flags or 'uidx' in flags:
            indexes.append({'name': 'PrimaryKey' if 'pk' in flags
                            else 'idx_%s_%s' % (name, cname),
                            'columns': [{'name': cname, 'ascending': True}],
                            'unique': 'pk' in flags or 'uidx' in flags,
                            'primary_key': 'pk' in flags})
    return {'tables': [{'name': name, 'columns': columns, 'indexes': indexes,
                        'rows': []}]}


def main():
    srcdir, shared, driver = locate()
    builddir = os.environ.get('JET_BUILDDIR', srcdir)
    jetcheck = os.path.join(shared, 'tools', 'jetcheck', 'jetcheck')
    if not os.access(jetcheck, os.X_OK):
        skip('%s not found (the independent verifier)' % jetcheck)
    try:
        __import__('pyodbc')
    except ImportError:
        skip('%s cannot import pyodbc (Debian package python3-pyodbc)' % sys.executable)
    if shutil.which('mdb-export') is None:
        skip('mdb-export not found (Debian package mdbtools)')
    env = dict(os.environ)
    env.pop('LD_PRELOAD', None)   # java and mdbtools run without sanitizers
    p = subprocess.run([jetcheck, '--version'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        skip('jetcheck cannot run (exit %d): %s' % (
            p.returncode, p.stderr.decode('utf-8', 'replace').strip()[:300]))
    for tool in ('jetodbc-setup', os.path.join('fixtures', 'jetgen')):
        if not os.access(os.path.join(builddir, tool), os.X_OK):
            print('FAIL: %s not built' % tool)
            return 1
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix='jetwrites.')
    rc = 0
    try:
        ini = write_ini(tmp, driver)
        os.environ.update(ini)
        env.update(ini)
        b = Battery(srcdir, builddir, shared, env, tmp)
        rc = run_all(b, shared, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('writes: %.0f s' % (time.time() - t0))
    return rc


def run_all(b, shared, tmp):
    plan = []
    for rel, kind, pw, scenario, mdbtools in PUBLIC:
        with open(os.path.join(shared, 'fixtures', 'expected', rel + '.json'),
                  encoding='utf-8') as f:
            doc = json.load(f)
        dst = os.path.join(tmp, rel.replace('/', '_'))
        shutil.copyfile(os.path.join(shared, 'fixtures', 'public', rel), dst)
        plan.append((Fixture(rel, dst, kind, pw, doc, mdbtools), scenario))
    for name, fmt, kind, spec, scenario in GENERATED:
        dst = os.path.join(tmp, name)
        p = subprocess.run([b.jetgen, '--format', fmt, '--rows', '0', '--table',
                            spec, dst], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=b.env)
        if p.returncode != 0:
            print('FAIL: jetgen %s: %s' % (fmt, p.stdout.decode()))
            return 1
        plan.append((Fixture(name, dst, kind, None, gen_doc(spec)), scenario))
    failed = []
    plan = [(fx, sc) for fx, sc in plan if ONLY in fx.label]
    for fx, scenario in plan:
        b.fixtures.append(fx)
        try:
            b.open(fx)
            b.probe(fx)
            w = b.writable[-1]
            print('---- %s (%s): %d of %d tables writable' % (fx.label, fx.kind, w[1], w[2]))
            for why in w[3]:
                print('     refused: %s' % why)
            b.batch('as copied')
            scenario(b, fx)
        except Failure as e:
            failed.append(fx.label)
            print('FAIL %s' % e)
        except Exception as e:  # a crash of the test itself is a failure too
            failed.append(fx.label)
            print('FAIL %s: %s: %s' % (fx.label, type(e).__name__, e))
        finally:
            b.close()
    for rel, kind, sql, state, text in REFUSED:
        if ONLY not in rel:
            continue
        dst = os.path.join(tmp, rel.replace('/', '_'))
        shutil.copyfile(os.path.join(shared, 'fixtures', 'public', rel), dst)
        fx = Fixture(rel, dst, kind)
        b.fixtures.append(fx)
        try:
            b.open(fx)
            b.refuse(sql, (), state, text)
            print('---- %s (%s): refused as expected (%s)' % (rel, kind, state))
        except Failure as e:
            failed.append(rel)
            print('FAIL %s' % e)
        finally:
            b.close()
    print()
    print('writes: %d DML statements (%d refused as expected), %d rows written, '
          'over %d files' % (b.stmts, b.refused, b.rows_written, len(b.fixtures)))
    for label, w, n, _why in b.writable:
        print('writes:   %-48s %d of %d tables writable' % (label, w, n))
    print('writes: jetcheck verify %d times (0 problems; %d rows read), jetcheck '
          'dump = model %d times, jetodbc-setup check %d times (0 problems), '
          'mdb-export %d tables (%d on Office-encrypted files left to the '
          'others)' % (b.checks['verify'], b.verify_rows, b.checks['dump'],
                       b.checks['check'], b.checks['mdb-export'],
                       b.checks['mdb-export skipped']))
    for why in b.unencodable:
        print('writes:   refused (a text key not encodable): %s' % why)
    deepest = {}
    for label, table, name, levels, _pp in b.depth_log:
        k = (label, table, name)
        deepest[k] = max(deepest.get(k, 0), levels)
    for (label, table, name), levels in sorted(deepest.items()):
        print('writes:   deepest %s %s.%s: %d levels' % (label, table, name, levels))
    if failed:
        print('writes: FAILED on %s' % ', '.join(failed))
        return 1
    print('writes: all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
