#!/usr/bin/env python3
"""
layers.py - checks the source tree's shape (issue 24), run by
tests/layers.test from `make check`:

 1. No .c or .h under driver/ or core/ is over MAX_LINES lines, except
    generated tables (and, while a split is pending, the files PENDING
    names, each with its reason).
 2. Each header of the SQL engine (driver/sql/*.h) is included only by
    files that use something it declares, and plan_int.h only by the
    planner's own files. A use the check cannot see (only the members
    of a struct the header defines) is named in a comment on the
    #include line.
 3. Calls between the engine's files go down its layers
        statement -> plan -> parse -> operators -> eval -> values -> base
    (a file may call any file of its own layer or a lower one), read
    from the undefined symbols (`nm`) of the built objects; the only
    calls up are the recursions the language makes inherent (UP_CALLS),
    each named in the opening comment of the file that makes it.

Usage: layers.py SRCDIR [OBJDIR]; without OBJDIR (or objects) check 3 is
skipped. Exit 0 pass, 1 fail.
"""
import glob
import os
import re
import subprocess
import sys

MAX_LINES = 2000
GENERATED = {'core/collate_tables.c'}
# over the limit until their split lands; remove each entry with it
PENDING = {}

LAYERS = [
    ('base', ['lexer', 'spill']),
    ('values', ['values', 'sortkey', 'func_dec']),
    ('eval', ['eval', 'func', 'func_conv', 'func_date', 'func_format',
              'func_math', 'func_text']),
    ('operators', ['exec', 'op_agg', 'op_filter', 'op_join', 'op_scan',
                   'op_sort',
                   'op_subq', 'op_union']),
    ('parse', ['parser', 'exprparse', 'dmlparse', 'ddlparse',
               'savedquery', 'callproc']),
    ('plan', ['plan', 'bind', 'compile', 'rewrite', 'access', 'joinorder',
              'explain', 'textbound']),
    ('statement', ['statement', 'dml', 'dmlvalues', 'ddl', 'rules']),
]
RANK = {f: i for i, (_, fs) in enumerate(LAYERS) for f in fs}
PLANNER = set(dict(LAYERS)['plan'])
# (caller file, callee symbol): the recursions inherent in the language
UP_CALLS = {
    ('eval', 'sql_agg_value'),      # an aggregate read in an expression
    ('eval', 'sql_subq_eval'),      # a subquery evaluated in an expression
    ('eval', 'sql_cursor_value'),   # a derived table's column: its child
    ('eval', 'sql_cursor_error'),   # cursor's output value (and error)
}

failures = []


def fail(msg):
    failures.append(msg)


def strip_c(s):
    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)
    s = re.sub(r'//[^\n]*', ' ', s)
    s = re.sub(r'"(\\.|[^"\\\n])*"', '""', s)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", s)


def declared(path):
    """Identifiers a header declares: functions, macros, types, tags,
    enum constants, variables."""
    s = strip_c(open(path, encoding='utf-8').read())
    ids = set(re.findall(r'^\s*#\s*define\s+(\w+)', s, flags=re.M))
    s = re.sub(r'^\s*#.*$', '', s, flags=re.M)
    ids |= set(re.findall(r'}\s*(\w+)\s*;', s))
    ids |= set(re.findall(r'typedef\s+(?:struct|enum|union)?\s*\w+[\s\*]+'
                          r'(\w+)\s*;', s))
    ids |= set(re.findall(r'typedef[^;]*\(\s*\*\s*(\w+)\s*\)', s))
    ids |= set(re.findall(r'\b(?:struct|union)\s+(\w+)\s*\{', s))
    for body in re.findall(r'\benum\s*\w*\s*\{([^}]*)\}', s):
        ids |= set(re.findall(r'\b([A-Za-z_]\w*)\s*(?:=[^,]*)?(?:,|$)',
                              body.strip()))
    depth = 0
    for line in s.split('\n'):
        if depth == 0:
            m = re.match(r'^(?:static\s+inline\s+|extern\s+)?'
                         r'[A-Za-z_][\w\s\*]*?\b(\w+)\s*(\(|\[)', line)
            if m and not line.lstrip().startswith('typedef'):
                ids.add(m.group(1))
        depth += line.count('{') - line.count('}')
    return ids - {'if', 'while', 'for', 'return', 'sizeof'}


def check_lines(src):
    for top in ('driver', 'core'):
        for dirpath, _, files in os.walk(os.path.join(src, top)):
            for name in files:
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, src)
                with open(path, 'rb') as fh:
                    n = fh.read().count(b'\n')
                if n > MAX_LINES and rel not in GENERATED:
                    if rel in PENDING:
                        print('note: %s has %d lines (%s)' %
                              (rel, n, PENDING[rel]))
                    else:
                        fail('%s has %d lines (more than %d)' %
                             (rel, n, MAX_LINES))


def check_includes(src):
    sqldir = os.path.join(src, 'driver', 'sql')
    headers = {os.path.basename(h): h
               for h in glob.glob(os.path.join(sqldir, '*.h'))}
    decl = {h: declared(p) for h, p in headers.items()}
    # engine.h's opaque typedefs (sql_stmt, sql_cursor) are its own
    for h in decl:
        if h != 'engine.h':
            decl[h] -= decl.get('engine.h', set())
    nchecked = 0
    for path in sorted(glob.glob(os.path.join(sqldir, '*.[ch]'))):
        base = os.path.basename(path)
        text = open(path, encoding='utf-8').read()
        ids = set(re.findall(r'\b[A-Za-z_]\w*\b',
                             re.sub(r'^\s*#\s*include.*$', '',
                                    strip_c(text), flags=re.M)))
        for inc, note in re.findall(r'^\s*#\s*include\s+"([^"]+)"'
                                    r'[ \t]*(/\*.*)?$', text, flags=re.M):
            if inc not in decl:
                continue
            nchecked += 1
            if inc == 'plan_int.h' and base[:-2] not in PLANNER \
                    and base != 'plan_int.h':
                fail('driver/sql/%s includes plan_int.h (planner only)'
                     % base)
            # a use the check cannot see (only a struct's members) is
            # named in a comment on the #include line
            if not ids & decl[inc] and not note:
                fail('driver/sql/%s includes %s but uses nothing it '
                     'declares' % (base, inc))
    print('includes: %d engine #include lines checked' % nchecked)


def opening_comment(path):
    text = open(path, encoding='utf-8').read()
    m = re.match(r'\s*(?:#define[^\n]*\n\s*)?/\*(.*?)\*/', text, flags=re.S)
    return m.group(1) if m else ''


def objects(objdir):
    """Engine file -> its object, from libtool's objects (PIC first)."""
    found = {}
    for pat in ('driver/sql/.libs/libjetodbc_la-*.o',
                'driver/sql/libjetodbc_la-*.o'):
        for o in glob.glob(os.path.join(objdir, pat)):
            name = os.path.basename(o)[len('libjetodbc_la-'):-2]
            found.setdefault(name, o)
    return found


def nm_symbols(path):
    out = subprocess.run(['nm', path], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRCVW':
            defined.add(parts[2])
    return defined, undefined


def check_calls(src, objdir):
    objs = objects(objdir)
    engine = {f: o for f, o in objs.items() if f in RANK}
    missing = sorted(set(RANK) - set(objs))
    if missing:
        fail('no object for engine file(s) %s: add them to LAYERS or build'
             % ', '.join(missing))
    unknown = sorted(set(objs) - set(RANK))
    if unknown:
        fail('engine object(s) %s belong to no layer in LAYERS'
             % ', '.join(unknown))
    owner, undef = {}, {}
    for f, o in engine.items():
        d, u = nm_symbols(o)
        for s in d:
            owner[s] = f
        undef[f] = u
    ncalls = 0
    for f in sorted(engine):
        for s in sorted(undef[f]):
            g = owner.get(s)
            if g is None or g == f:
                continue
            ncalls += 1
            if RANK[g] <= RANK[f]:
                continue
            where = '%s.c -> %s (%s.c)' % (f, s, g)
            if (f, s) not in UP_CALLS:
                fail('call up the layers: %s, from %s up to %s' %
                     (where, LAYERS[RANK[f]][0], LAYERS[RANK[g]][0]))
            elif not re.search(r'\b%s\b' % s, opening_comment(
                    os.path.join(src, 'driver', 'sql', f + '.c'))):
                fail('%s is not named in the opening comment of %s.c' %
                     (where, f))
    print('calls: %d symbols between %d engine objects checked' %
          (ncalls, len(engine)))
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    check_lines(src)
    check_includes(src)
    if len(sys.argv) > 2 and objects(sys.argv[2]):
        try:
            check_calls(src, sys.argv[2])
        except (OSError, subprocess.CalledProcessError) as e:
            print('calls: not checked (nm: %s)' % e)
    else:
        print('calls: not checked (no built objects)')
    for f in failures:
        print('FAIL: ' + f)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
