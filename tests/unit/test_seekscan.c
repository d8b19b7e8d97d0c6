/*
 * test_seekscan.c - property test "seek = scan" through the query engine.
 *
 * For every index of every ../shared fixture (skipped when absent) and of
 * a file generated here with core/newfile.c (ascending and descending
 * indexes on every key type the writer writes, values at each type's edges:
 * negative, zero, day 0 with times, dates before 1899, NULLs; text keys in
 * General sort order with case, accent and punctuation variants, .mdb and
 * .accdb: Legacy and 2010+ orders), and for
 * keys taken from the index's first column (existing values, values
 * between them, values beyond both ends, and for dates the neighbours of
 * a value to the millisecond and its other day-0 representation):
 *
 *   col = k, col < k, col <= k, col > k, col >= k, col BETWEEN a AND b,
 *   col IN (a, b, c), and col LIKE 'prefix*' on text
 *
 * must return the same multiset of rows through the seekable form
 * (`WHERE cond`, which the planner may answer with an index seek) as
 * through a form that cannot seek (`WHERE (cond OR 1=0)`, a scan). Keys
 * go in as parameters of the index column's own type, so every stored
 * value can be a key exactly. Each statement is prepared once per
 * (index, operator) and run once per key; the case count and how many of
 * them used a SEEK plan are printed.
 *
 * A row is compared by its key column value and the values of up to 3
 * other columns (hashed), so a seek returning the wrong row of an equal
 * key is caught too.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "../fixture_walk.h"
#include "../shared_dir.h"
#include "jet.h"
#include "../../driver/sql/engine.h"
#include "newfile.h"

#define MAX_KEYS 16         /* existing values sampled per index */

static long n_cases, n_seek_cases, n_indexes, n_desc, n_files;
static long type_cases[32];
static long op_cases[8];

/* ------------------------------------------------------------ rows */

typedef struct rowset {
    uint64_t *h;
    size_t n, cap;
} rowset;

static void rs_add(rowset *r, uint64_t h)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->h = realloc(r->h, r->cap * sizeof *r->h);
        if (!r->h)
            abort();
    }
    r->h[r->n++] = h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Hash of one value (type, null flag, payload). */
static uint64_t hash_value(uint64_t h, const jet_value *v)
{
    h = fnv(h, &v->type, sizeof v->type);
    h = fnv(h, &v->is_null, 1);
    if (v->is_null)
        return h;
    switch (v->type) {
    case JET_T_BOOL: return fnv(h, &v->u.b, 1);
    case JET_T_FLOAT: return fnv(h, &v->u.f, 4);
    case JET_T_DOUBLE: case JET_T_DATETIME: return fnv(h, &v->u.d, 8);
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX: return fnv(h, &v->u.i, 8);
    case JET_T_MONEY: return fnv(h, &v->u.money, 8);
    case JET_T_GUID: return fnv(h, v->u.guid, 16);
    case JET_T_NUMERIC: return fnv(h, &v->u.num, sizeof v->u.num);
    default:
        return v->data ? fnv(h, v->data, v->len) : h;
    }
}

/* Run st with params; the sorted row hashes into out. *seek: plan used
 * an index seek. Returns false when the run failed (message printed). */
static bool run(sql_stmt *st, const jet_value *params, rowset *out)
{
    sql_cursor *cur;
    sql_error err;
    int rc;
    out->n = 0;
    if (sql_cursor_open(&cur, st, params, NULL, &err) != 0) {
        fprintf(stderr, "open: %s %s\n", err.sqlstate, err.msg);
        return false;
    }
    while ((rc = sql_cursor_next(cur)) == JET_OK) {
        uint64_t h = 1469598103934665603ull;
        if (rc != JET_OK)
            break;
        for (size_t c = 0; c < sql_stmt_ncols(st); c++) {
            jet_value v;
            /* no ck_assert in hot loops: each one is a message to the
             * Check runner */
            if (sql_cursor_value(cur, c, &v) != JET_OK) {
                rc = -1;
                break;
            }
            h = hash_value(h, &v);
        }
        rs_add(out, h);
    }
    if (rc != JET_DONE)
        fprintf(stderr, "next: %s\n", sql_cursor_error(cur)->msg);
    sql_cursor_close(cur);
    if (rc != JET_DONE)
        return false;
    if (out->n)
        qsort(out->h, out->n, sizeof *out->h, cmp_u64);
    return true;
}

/* ------------------------------------------------------------ keys */

/* Distinct non-NULL values of the key column, in a rough value order. */
typedef struct keyset {
    jet_value *v;
    uint8_t (*text)[512];   /* UTF-16LE copies of text keys */
    size_t n, cap;
} keyset;

static void ks_add(keyset *k, const jet_value *v)
{
    if (k->n == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 64;
        k->v = realloc(k->v, k->cap * sizeof *k->v);
        k->text = realloc(k->text, k->cap * sizeof *k->text);
        if (!k->v || !k->text)
            abort();
    }
    k->v[k->n] = *v;
    if (v->type == JET_T_TEXT) {
        size_t len = v->len < 510 ? v->len : 510;
        memcpy(k->text[k->n], v->data, len);
        k->v[k->n].len = len & ~(size_t)1;
        k->v[k->n].data = NULL;     /* fixed up after the last realloc */
    }
    k->n++;
}

static double num_of(const jet_value *v)
{
    switch (v->type) {
    case JET_T_BOOL: return v->u.b ? -1 : 0;
    case JET_T_FLOAT: return v->u.f;
    case JET_T_DOUBLE: case JET_T_DATETIME: return v->u.d;
    case JET_T_MONEY: return (double)v->u.money;
    default: return (double)v->u.i;
    }
}

/* UTF-16LE text compare, ASCII case-insensitive (only for key picking) */
static int cmp_key(const void *a, const void *b)
{
    const jet_value *x = a, *y = b;
    if (x->type == JET_T_TEXT) {
        size_t n = x->len < y->len ? x->len : y->len;
        for (size_t i = 0; i + 1 < n; i += 2) {
            unsigned cx = x->data[i] | x->data[i + 1] << 8;
            unsigned cy = y->data[i] | y->data[i + 1] << 8;
            if (cx < 128) cx = (unsigned)tolower((int)cx);
            if (cy < 128) cy = (unsigned)tolower((int)cy);
            if (cx != cy)
                return cx < cy ? -1 : 1;
        }
        return x->len < y->len ? -1 : x->len > y->len;
    }
    double p = num_of(x), q = num_of(y);
    return p < q ? -1 : p > q;
}

/* A value of column type t holding d (rounded to the type). */
static jet_value make_num(jet_type t, double d)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    switch (t) {
    case JET_T_BOOL: v.u.b = d != 0; break;
    case JET_T_FLOAT: v.u.f = (float)d; break;
    case JET_T_DOUBLE: case JET_T_DATETIME: v.u.d = d; break;
    case JET_T_MONEY: v.u.money = (int64_t)llround(d); break;
    case JET_T_BYTE: v.u.i = d < 0 ? 0 : d > 255 ? 255 : (int64_t)llround(d); break;
    case JET_T_INT: v.u.i = d < -32768 ? -32768 : d > 32767 ? 32767 : (int64_t)llround(d); break;
    default:
        v.u.i = d < -2147483648.0 ? INT32_MIN : d > 2147483647.0 ? INT32_MAX
                : (int64_t)llround(d);
        break;
    }
    return v;
}

static bool seek_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME: case JET_T_TEXT:
        return true;
    default:
        return false;
    }
}

static void add_num(keyset *k, jet_type t, double d)
{
    jet_value v = make_num(t, d);
    ks_add(k, &v);
}

/* The test keys of one index: picks from the distinct values, values
 * between them and beyond both ends. */
static void build_keys(keyset *all, keyset *keys, jet_type t)
{
    size_t n = all->n;
    size_t step = n > MAX_KEYS ? n / MAX_KEYS : 1;
    for (size_t i = 0; i < n; i++)
        all->v[i].data = all->text[i];
    if (n)
        qsort(all->v, n, sizeof *all->v, cmp_key);
    /* (data pointers travel with the values; ks_add copies the text) */
    keys->n = 0;
    if (t == JET_T_TEXT) {
        for (size_t i = 0; i < n; i += step)
            ks_add(keys, &all->v[i]);
        return;
    }
    for (size_t i = 0; i < n; i += step) {
        double a = num_of(&all->v[i]);
        ks_add(keys, &all->v[i]);
        if (i + step < n) {
            double b = num_of(&all->v[i + step]);
            add_num(keys, t, a + (b - a) / 2);
        }
        if (t == JET_T_DATETIME) {
            static const double ms = 1.0 / 86400000.0;
            /* 1 ms either side, and day 0's other sign */
            add_num(keys, t, a + ms);
            add_num(keys, t, a - ms);
            if (a > -1 && a < 1 && a != 0) {
                add_num(keys, t, -a);
            }
        } else if (t != JET_T_BOOL && t != JET_T_FLOAT && t != JET_T_DOUBLE) {
            add_num(keys, t, a + 1);
        }
    }
    if (n) {
        double lo = num_of(&all->v[0]), hi = num_of(&all->v[n - 1]);
        double span = hi - lo + 1;
        add_num(keys, t, lo - span);
        add_num(keys, t, hi + span);
    }
    if (t == JET_T_BOOL) {
        keys->n = 0;
        ks_add(keys, &(jet_value){ .type = JET_T_BOOL, .u.b = true });
        ks_add(keys, &(jet_value){ .type = JET_T_BOOL, .u.b = false });
    }
}

/* ------------------------------------------------------------ cases */

enum { OP_EQ, OP_LT, OP_LE, OP_GT, OP_GE, OP_BETWEEN, OP_IN, OP_LIKE };
static const char *const op_sql[] = {
    "= ?", "< ?", "<= ?", "> ?", ">= ?", "BETWEEN ? AND ?", "IN (?, ?, ?)",
    "LIKE 'p*'"
};

static sql_stmt *prepare(jet_db *db, const char *sql)
{
    sql_stmt *st;
    sql_error err;
    if (sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) != 0) {
        ck_abort_msg("prepare %s: %s %s", sql, err.sqlstate, err.msg);
        return NULL;
    }
    return st;
}

/* A LIKE pattern 'prefix*' from the first units of text key k. */
static jet_value like_key(const jet_value *k, uint8_t *buf, size_t units)
{
    jet_value v = *k;
    size_t n = k->len / 2 < units ? k->len / 2 : units;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned ch = k->data[2 * i] | k->data[2 * i + 1] << 8;
        if (ch == '*' || ch == '?' || ch == '#' || ch == '[' || ch == '%' ||
            ch == '_')
            break;
        buf[o++] = k->data[2 * i];
        buf[o++] = k->data[2 * i + 1];
    }
    buf[o++] = '*';
    buf[o++] = 0;
    v.data = buf;
    v.len = o;
    return v;
}

static void check_index(jet_db *db, const jet_tdef *t, uint16_t ino,
                        const char *file)
{
    const jet_index *ix = &t->indexes[ino];
    const jet_column *col = &t->cols[ix->cols[0].col];
    char sel[512], sql[2400];
    keyset all = { 0 }, keys = { 0 };
    rowset a = { 0 }, b = { 0 };
    sql_stmt *st;
    sql_cursor *cur;
    sql_error err;
    size_t extra = 0;

    if (!seek_type(col->type) || (col->flags & JET_COL_CALCULATED))
        return;
    /* the key column and up to three others identify a row */
    snprintf(sel, sizeof sel, "SELECT [%s]", col->name);
    for (uint16_t c = 0; c < t->ncols && extra < 3; c++) {
        jet_type ct = t->cols[c].type;
        if (c == ix->cols[0].col || ct == JET_T_MEMO || ct == JET_T_OLE ||
            ct == JET_T_COMPLEX || ct > JET_T_BIGINT ||
            (t->cols[c].flags & JET_COL_CALCULATED) || ct == JET_T_UNKNOWN_0D ||
            ct == JET_T_UNKNOWN_0E || ct == JET_T_UNKNOWN_11)
            continue;
        size_t l = strlen(sel);
        snprintf(sel + l, sizeof sel - l, ", [%s]", t->cols[c].name);
        extra++;
    }
    size_t l = strlen(sel);
    snprintf(sel + l, sizeof sel - l, " FROM [%s]", t->name);

    /* distinct values of the key column */
    st = prepare(db, sel);
    ck_assert_int_eq(sql_cursor_open(&cur, st, NULL, NULL, &err), 0);
    int rc;
    jet_value prev = { 0 };
    (void)prev;
    while ((rc = sql_cursor_next(cur)) == JET_OK) {
        jet_value v;
        if (sql_cursor_value(cur, 0, &v) != JET_OK)
            ck_abort_msg("%s %s: value", file, t->name);
        if (v.is_null)
            continue;
        if (v.type == JET_T_TEXT) {
            /* to UTF-16LE through UTF-8 */
            char u8[1024];
            size_t u8len;
            static uint8_t w[512];
            size_t o = 0;
            if (jet_text_to_utf8(db, &v, u8, sizeof u8, &u8len) != JET_OK ||
                u8len >= sizeof u8)
                continue;
            for (size_t i = 0; i < u8len && o + 2 <= 510;) {
                unsigned ch = (uint8_t)u8[i];
                int more = ch < 0x80 ? 0 : ch < 0xE0 ? 1 : ch < 0xF0 ? 2 : 3;
                ch &= more == 0 ? 0x7F : more == 1 ? 0x1F : more == 2 ? 0x0F : 0x07;
                for (int m = 1; m <= more && i + (size_t)m < u8len; m++)
                    ch = ch << 6 | ((uint8_t)u8[i + (size_t)m] & 0x3F);
                i += (size_t)more + 1;
                if (ch > 0xFFFF)
                    ch = 0xFFFD;
                w[o++] = (uint8_t)ch;
                w[o++] = (uint8_t)(ch >> 8);
            }
            v.enc = JET_ENC_UCS2;
            v.data = w;
            v.len = o;
        }
        ks_add(&all, &v);
    }
    ck_assert_int_eq(rc, JET_DONE);
    sql_cursor_close(cur);
    sql_stmt_free(st);
    for (size_t i = 0; i < all.n; i++)
        all.v[i].data = all.text[i];
    build_keys(&all, &keys, col->type);
    for (size_t i = 0; i < keys.n; i++)
        if (keys.v[i].type == JET_T_TEXT)
            keys.v[i].data = keys.text[i];

    /* LIKE 'prefix*' with a literal pattern (a parameter pattern cannot
     * seek): prepared per key */
    for (size_t k = 0; col->type == JET_T_TEXT && k < keys.n; k++) {
        uint8_t lbuf[600];
        char lit[1600];
        jet_value pat = like_key(&keys.v[k], lbuf, 1 + k % 4);
        size_t o = 0;
        sql_stmt *seek, *scan;
        for (size_t i = 0; i + 1 < pat.len && o + 8 < sizeof lit; i += 2) {
            unsigned ch = pat.data[i] | pat.data[i + 1] << 8;
            if (ch == 0)
                break;
            if (ch == '\'')
                lit[o++] = '\'';
            if (ch < 0x80) {
                lit[o++] = (char)ch;
            } else if (ch < 0x800) {
                lit[o++] = (char)(0xC0 | ch >> 6);
                lit[o++] = (char)(0x80 | (ch & 0x3F));
            } else {
                lit[o++] = (char)(0xE0 | ch >> 12);
                lit[o++] = (char)(0x80 | ((ch >> 6) & 0x3F));
                lit[o++] = (char)(0x80 | (ch & 0x3F));
            }
        }
        lit[o] = 0;
        snprintf(sql, sizeof sql, "%s WHERE [%s] LIKE '%s'", sel, col->name,
                 lit);
        seek = prepare(db, sql);
        snprintf(sql, sizeof sql, "%s WHERE ([%s] LIKE '%s' OR 1=0)", sel,
                 col->name, lit);
        scan = prepare(db, sql);
        if (!run(seek, NULL, &a) || !run(scan, NULL, &b))
            ck_abort_msg("%s %s.%s: LIKE failed", file, t->name, ix->name);
        if (a.n != b.n || (a.n && memcmp(a.h, b.h, a.n * 8) != 0))
            ck_abort_msg("%s %s.%s (%s): [%s] LIKE '%s': %zu rows by %s, "
                         "%zu by scan", file, t->name, ix->name,
                         ix->cols[0].ascending ? "asc" : "desc", col->name,
                         lit, a.n, sql_stmt_plan_text(seek), b.n);
        n_cases++;
        n_seek_cases += strncmp(sql_stmt_plan_text(seek), "SEEK", 4) == 0;
        type_cases[col->type & 31]++;
        op_cases[OP_LIKE]++;
        sql_stmt_free(seek);
        sql_stmt_free(scan);
    }

    for (int op = OP_EQ; op < OP_LIKE; op++) {
        sql_stmt *seek, *scan;
        bool is_seek;
        snprintf(sql, sizeof sql, "%s WHERE [%s] %s", sel, col->name,
                 op_sql[op]);
        seek = prepare(db, sql);
        snprintf(sql, sizeof sql, "%s WHERE ([%s] %s OR 1=0)", sel,
                 col->name, op_sql[op]);
        scan = prepare(db, sql);
        ck_assert_msg(strncmp(sql_stmt_plan_text(scan), "SCAN", 4) == 0,
                      "%s", sql_stmt_plan_text(scan));
        is_seek = strncmp(sql_stmt_plan_text(seek), "SEEK", 4) == 0;
        for (size_t k = 0; k < keys.n; k++) {
            jet_value p[3];
            p[0] = keys.v[k];
            p[1] = keys.v[(k + 3) % keys.n];
            p[2] = keys.v[(k + 7) % keys.n];
            if (op == OP_BETWEEN && cmp_key(&p[0], &p[1]) > 0) {
                jet_value x = p[0];
                p[0] = p[1];
                p[1] = x;
            }
            bool ok1 = run(seek, p, &a), ok2 = run(scan, p, &b);
            if (!ok1 || !ok2)
                ck_abort_msg("%s %s.%s: %s failed", file, t->name, ix->name,
                             op_sql[op]);
            if (a.n != b.n || (a.n && memcmp(a.h, b.h, a.n * 8) != 0)) {
                char kt[64] = "";
                if (p[0].type != JET_T_TEXT)
                    snprintf(kt, sizeof kt, "%.17g", num_of(&p[0]));
                ck_abort_msg("%s %s.%s (%s): [%s] %s with key %zu (%s): "
                             "%zu rows by %s, %zu by scan", file, t->name,
                             ix->name, ix->cols[0].ascending ? "asc" : "desc",
                             col->name, op_sql[op], k, kt, a.n,
                             sql_stmt_plan_text(seek), b.n);
            }
            n_cases++;
            n_seek_cases += is_seek;
            type_cases[col->type & 31]++;
            op_cases[op]++;
        }
        sql_stmt_free(seek);
        sql_stmt_free(scan);
    }
    n_indexes++;
    n_desc += !ix->cols[0].ascending;
    free(all.v);
    free(all.text);
    free(keys.v);
    free(keys.text);
    free(a.h);
    free(b.h);
}

static void check_file(const char *path)
{
    jet_db *db;
    jet_error err;
    const char *only = getenv("SEEKSCAN_ONLY");    /* debugging aid */
    if (only && *only && !strstr(path, only))
        return;
    if (jet_db_open(&db, path, NULL, &err) != JET_OK)
        return;     /* encrypted or not a database: other suites' business */
    for (size_t o = 0; o < jet_catalog_count(db); o++) {
        const jet_object *obj = jet_catalog_at(db, o);
        const jet_tdef *t;
        if (obj->kind != JET_OBJ_TABLE || strncasecmp(obj->name, "MSys", 4) == 0)
            continue;
        if (jet_tdef_load(&t, db, obj) != JET_OK)
            continue;
        for (uint16_t i = 0; i < t->nindexes; i++)
            check_index(db, t, i, path);
    }
    n_files++;
    jet_db_close(db);
}

static void report(const char *what)
{
    static const char *const tn[32] = {
        [JET_T_BOOL] = "bool", [JET_T_BYTE] = "byte", [JET_T_INT] = "int",
        [JET_T_LONG] = "long", [JET_T_MONEY] = "money",
        [JET_T_FLOAT] = "single", [JET_T_DOUBLE] = "double",
        [JET_T_DATETIME] = "datetime", [JET_T_TEXT] = "text"
    };
    fprintf(stderr, "seek=scan %s: %ld files, %ld indexes (%ld descending), "
            "%ld cases (%ld by SEEK plans); per type:", what, n_files,
            n_indexes, n_desc, n_cases, n_seek_cases);
    for (int i = 0; i < 32; i++)
        if (type_cases[i])
            fprintf(stderr, " %s %ld", tn[i] ? tn[i] : "?", type_cases[i]);
    fprintf(stderr, "; per operator:");
    for (int i = 0; i <= OP_LIKE; i++)
        fprintf(stderr, " [%s] %ld", op_sql[i], op_cases[i]);
    fprintf(stderr, "\n");
}

static void reset(void)
{
    n_cases = n_seek_cases = n_indexes = n_desc = n_files = 0;
    memset(type_cases, 0, sizeof type_cases);
    memset(op_cases, 0, sizeof op_cases);
}

START_TEST(fixtures_seek_equals_scan)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/public", jet_shared_dir());
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "seek=scan: %s absent, fixtures skipped\n", dir);
        return;
    }
    reset();
    jet_fixture_walk(dir, 0, check_file);
    report("fixtures");
    ck_assert_int_ge(n_indexes, 40);
    ck_assert_int_ge(n_cases, 10000);
}
END_TEST


/* ------------------------------------------------------ generated file */

/* Edge values per key type (NULL rows and random values are added). */
static const double edge_byte[] = { 0, 1, 2, 127, 128, 254, 255 };
static const double edge_int[] = { -32768, -32767, -256, -1, 0, 1, 255, 256,
                                   32766, 32767 };
static const double edge_long[] = { -2147483648.0, -2147483647.0, -65536,
                                    -1, 0, 1, 65536, 2147483646.0,
                                    2147483647.0 };
static const double edge_money[] = { -922337203685477.0, -10000, -1, 0, 1,
                                     5000, 10000, 922337203685477.0 };
static const double edge_float[] = { -3.4e38, -1.5, -1, -1e-38, -0.0, 0,
                                     1e-45, 1e-38, 0.5, 1, 1.5, 3.4e38 };
static const double edge_double[] = { -1.7e308, -1e10, -1.5, -1, -5e-324,
                                      -0.0, 0, 5e-324, 2.2250738585072014e-308,
                                      0.1, 1, 1e10, 1.7e308 };
/* dates: day 0 with times stored with either sign, days before
 * 1899-12-30 with times (day - time), far past and future, and values a
 * millisecond apart */
static const double edge_date[] = {
    0, 0.25, -0.25, 0.5, -0.5, 0.000347222222222222, -0.000347222222222222,
    0.99998842592592596, -0.99998842592592596, -1, -1.25, -1.75, -2, -2.5,
    -693593, -657434.5, 1, 1.25, 36475, 36475.5, 36475.5 + 1.0 / 86400000,
    36475.5 - 1.0 / 86400000, 2958465.9999884259, -1.0000115740740741
};

typedef struct gentab {
    const char *name;
    jw_type type;
    const double *edges;
    size_t nedges;
    double lo, hi;          /* random value range */
} gentab;

static const gentab gentabs[] = {
    { "t_bool", JW_BOOL, NULL, 0, 0, 1 },
    { "t_byte", JW_BYTE, edge_byte, 7, 0, 255 },
    { "t_int", JW_INT, edge_int, 10, -32768, 32767 },
    { "t_long", JW_LONG, edge_long, 9, -3000, 3000 },
    { "t_money", JW_MONEY, edge_money, 8, -5e7, 5e7 },
    { "t_single", JW_FLOAT, edge_float, 12, -100, 100 },
    { "t_double", JW_DOUBLE, edge_double, 13, -1e6, 1e6 },
    { "t_date", JW_DATETIME, edge_date, 24, -800, 800 },
    { "t_text", JW_TEXT, NULL, 0, 0, 0 },
};

/* Text keys: words in both cases, accents, apostrophes and hyphens
 * (minor in the Legacy and 2010+ orders), digits, spaces, empty text. */
static const char *const text_words[] = {
    "a", "A", "ab", "AB", "abc", "b", "co-op", "coop", "cop", "Cote",
    "c\xc3\xb4te", "cot\xc3\xa9", "e", "\xc3\xa9", "\xc3\xa8", "E", "f",
    "o'neil", "oneil", "O'Neil", "10", "9", "1 2", "12", "zz", "Zz", "",
    "na\xc3\xafve", "naive", "\xc3\x86on", "aeon", "stra\xc3\x9f" "e",
    "strasse", "x-ray", "xray", "X Ray",
    /* characters outside the collation tables (CJK, Hangul): bounds
     * holding them scan (jet_index_text_range_key) */
    "\xe4\xb8\xad", "\xe4\xb8\xad\xe6\x96\x87", "a\xe4\xb8\xad",
    "\xed\x95\x9c", "Kai", "kaiser", "zz\xed\x95\x9c"
};

/* UTF-8 (1-3 byte forms) to UTF-16 units; returns the count. */
static size_t utf16_of(uint16_t *u, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        if (c >= 0xE0) {
            c = (c & 0x0F) << 12 | (uint32_t)(p[0] & 0x3F) << 6 | (p[1] & 0x3F);
            p += 2;
        } else if (c >= 0xC0) {
            c = (c & 0x1F) << 6 | (*p++ & 0x3F);
        }
        u[n++] = (uint16_t)c;
    }
    return n;
}

static uint64_t gen_rng = 88172645463325252ull;

static double gen_unit(void)
{
    gen_rng ^= gen_rng << 13;
    gen_rng ^= gen_rng >> 7;
    gen_rng ^= gen_rng << 17;
    return (double)(gen_rng >> 11) / 9007199254740992.0;
}

/* A row's key value: edges (each a few times), NULLs, random values
 * (rounded for integer types, to whole seconds or ms for dates). */
static jw_value gen_value(const gentab *g, int row)
{
    jw_value v;
    double d;
    memset(&v, 0, sizeof v);
    if (g->type != JW_BOOL && row % 17 == 5) {
        v.null = 1;
        return v;
    }
    if (g->type == JW_TEXT) {
        /* a word, sometimes with a number after it (many distinct keys,
         * each word in several rows) */
        static uint16_t u[64];
        size_t nw = sizeof text_words / sizeof text_words[0];
        size_t n = utf16_of(u, text_words[(size_t)(gen_unit() * (double)nw)
                                          % nw]);
        if (row % 2) {
            char num[16];
            int k = snprintf(num, sizeof num, "%d", (int)(gen_unit() * 50));
            for (int i = 0; i < k; i++)
                u[n++] = (uint16_t)num[i];
        }
        v.text = u;
        v.units = n;
        return v;
    }
    if (g->nedges && row % 3 == 0)
        d = g->edges[(row / 3) % g->nedges];
    else
        d = g->lo + (g->hi - g->lo) * gen_unit();
    switch (g->type) {
    case JW_BOOL: v.i = gen_unit() < 0.5; break;
    case JW_FLOAT: v.d = (float)d; break;
    case JW_DOUBLE: v.d = d; break;
    case JW_DATETIME:
        if (!(g->nedges && row % 3 == 0)) {
            /* Jet's own form: day - time before 1899-12-30 */
            double day = floor(d), t = floor((d - day) * 86400) / 86400;
            d = day < 0 ? day - t : day + t;
        }
        v.d = d;
        break;
    default: v.i = (int64_t)llround(d); break;
    }
    return v;
}

/* Write the generated file: one table per key type with ascending and
 * descending indexes on its key column (and an id primary key). */
static void write_generated(const char *path, jw_format fmt)
{
    char err[256];
    jw_db *db = jw_create(path, fmt, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    for (size_t g = 0; g < sizeof gentabs / sizeof gentabs[0]; g++) {
        const gentab *gt = &gentabs[g];
        jw_coldef cols[3] = {
            { "id", JW_LONG, 0, 0 },
            { "v", gt->type, gt->type == JW_TEXT ? 40 : 0, 1 },
            { "n", JW_LONG, 0, 0 }
        };
        jw_idxdef idx[3] = {
            { "pk", 0, 1, 1, 0 }, { "v_asc", 1, 0, 0, 0 },
            { "v_desc", 1, 0, 0, 1 }
        };
        jw_table *t = jw_table_begin(db, gt->name, cols, 3, idx, 3);
        ck_assert_msg(t != NULL, "%s", jw_error(db));
        for (int r = 0; r < 700; r++) {
            jw_value vals[3];
            memset(vals, 0, sizeof vals);
            vals[0].i = r + 1;
            vals[1] = gen_value(gt, r);
            vals[2].i = r % 7;
            ck_assert_msg(jw_table_add_row(t, vals) == 0, "%s", jw_error(db));
        }
        ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    }
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
}

START_TEST(generated_seek_equals_scan)
{
    static const struct { jw_format fmt; const char *ext; } f[] = {
        { JW_FMT_JET4, "mdb" }, { JW_FMT_ACE14, "accdb" }
    };
    char dir[] = "/tmp/seekscanXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    reset();
    for (size_t i = 0; i < 2; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/gen.%s", dir, f[i].ext);
        write_generated(path, f[i].fmt);
        check_file(path);
        unlink(path);
    }
    rmdir(dir);
    report("generated");
    ck_assert_int_ge(n_indexes, 40);
    ck_assert_int_ge(n_desc, 16);
    ck_assert_int_ge(n_cases, 5000);
    ck_assert_int_ge(type_cases[JET_T_TEXT], 200);
}
END_TEST

/* Rows of sql on db (text given as a literal SQL statement). */
static long count_rows(jet_db *db, const char *sql, char *plan, size_t cap)
{
    sql_stmt *st = prepare(db, sql);
    sql_cursor *cur;
    sql_error err;
    long n = 0;
    snprintf(plan, cap, "%s", sql_stmt_plan_text(st));
    ck_assert_int_eq(sql_cursor_open(&cur, st, NULL, NULL, &err), 0);
    while (sql_cursor_next(cur) == JET_OK)
        n++;
    sql_cursor_close(cur);
    sql_stmt_free(st);
    return n;
}

/* issue 10: a descending Date index, and day 0 with times */
START_TEST(date_seeks_descending_and_day_zero)
{
    static const struct { const char *where; long rows; } q[] = {
        { "FROM Table6_desc WHERE data = #1999-11-11#", -1 },
        { "FROM Table6_desc WHERE data IN (#1999-11-11#, #1899-12-30#)", -1 },
        { "FROM Table6 WHERE data >= #1899-12-30 00:00:30#", 10 },
        { "FROM Table6 WHERE data BETWEEN #1899-12-30 00:00:30# AND "
          "#1899-12-30 05:15:07#", 3 },
    };
    char path[1024], sql[512], plan[256], plan2[256];
    jet_db *db;
    jet_error err;
    snprintf(path, sizeof path,
             "%s/fixtures/public/jackcess/V1997/testIndexCodesV1997.mdb",
             jet_shared_dir());
    if (access(path, R_OK) != 0)
        return;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        const char *w = strstr(q[i].where, "WHERE ") + 6;
        snprintf(sql, sizeof sql, "SELECT * %s", q[i].where);
        long seek = count_rows(db, sql, plan, sizeof plan);
        snprintf(sql, sizeof sql, "SELECT * %.*s(%s OR 1=0)",
                 (int)(w - q[i].where), q[i].where, w);
        long scan = count_rows(db, sql, plan2, sizeof plan2);
        ck_assert_msg(strncmp(plan, "SEEK", 4) == 0, "%s", plan);
        ck_assert_msg(seek == scan && seek > 0 &&
                          (q[i].rows < 0 || seek == q[i].rows),
                      "%s: %ld rows by %s, %ld by scan", q[i].where, seek,
                      plan, scan);
    }
    jet_db_close(db);
}
END_TEST

/* issue 9: text keys seek (nwind Customers: the CustomerID primary key
 * and the CompanyName index), case-insensitively, also for LIKE 'x*' */
START_TEST(text_seeks_nwind_customers)
{
    static const struct { const char *where; long rows; } q[] = {
        { "CustomerID = 'ALFKI'", 1 },
        { "CustomerID = 'alfki'", 1 },
        { "CustomerID = 'ALFK'", 0 },
        { "CompanyName = 'around the horn'", 1 },
        { "CompanyName LIKE 'A*'", -1 },
        { "CompanyName LIKE 'b%'", -1 },
        { "CustomerID = 'ALFKI' AND Country = 'Germany'", 1 },
    };
    static const char *const files[] = { "mdbtestdata/nwind.mdb",
                                          "jackcess/V2003/northwind.mdb" };
    for (size_t f = 0; f < 1; f++) {
        char path[1024], sql[512], plan[256], plan2[256];
        jet_db *db;
        jet_error err;
        snprintf(path, sizeof path, "%s/fixtures/public/%s",
                 jet_shared_dir(), files[f]);
        if (access(path, R_OK) != 0)
            continue;
        ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
            snprintf(sql, sizeof sql, "SELECT * FROM Customers WHERE %s",
                     q[i].where);
            long seek = count_rows(db, sql, plan, sizeof plan);
            snprintf(sql, sizeof sql,
                     "SELECT * FROM Customers WHERE (%s OR 1=0)", q[i].where);
            long scan = count_rows(db, sql, plan2, sizeof plan2);
            ck_assert_msg(strncmp(plan, "SEEK", 4) == 0, "%s: %s",
                          q[i].where, plan);
            ck_assert_msg(seek == scan && (q[i].rows < 0 || seek == q[i].rows),
                          "%s: %ld rows by %s, %ld by scan", q[i].where, seek,
                          plan, scan);
        }
        jet_db_close(db);
    }
}
END_TEST

/* Rows of sql on a fresh open of path: *n rows, *ids a sum of their ids
 * (column 0) and the pages read. */
static void range_rows(const char *path, const char *sql, long *n,
                       int64_t *ids, uint64_t *pages, char *plan, size_t cap)
{
    jet_db *db;
    jet_error jerr;
    sql_cursor *cur;
    sql_error err;
    jet_read_stats r0, r1;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
    sql_stmt *st = prepare(db, sql);
    snprintf(plan, cap, "%s", sql_stmt_plan_text(st));
    jet_db_read_stats(db, &r0);
    ck_assert_int_eq(sql_cursor_open(&cur, st, NULL, NULL, &err), 0);
    *n = 0;
    *ids = 0;
    while (sql_cursor_next(cur) == JET_OK) {
        jet_value v;
        ck_assert_int_eq(sql_cursor_value(cur, 0, &v), JET_OK);
        *ids += v.u.i;
        (*n)++;
    }
    jet_db_read_stats(db, &r1);
    *pages = r1.pages - r0.pages;
    sql_cursor_close(cur);
    sql_stmt_free(st);
    jet_db_close(db);
}

/* issue 9: text ranges (< <= > >= BETWEEN) seek on a generated TEXT
 * index of 6,000 keys and give the rows a scan gives. A seek of a few
 * rows reads fewer pages than the scan; a bound holding a character outside the collation
 * tables (CJK, Hangul), or starting with one whose case variants have
 * other codes (k: the Kelvin sign), scans instead (as many pages). */
START_TEST(text_range_seeks_generated)
{
    static const struct { const char *where; int seeks; } q[] = {
        { "code >= 'c0100' AND code < 'c0103'", 1 },
        { "code BETWEEN 'b0500' AND 'b0505'", 1 },
        { "code BETWEEN 'B0500' AND 'B0505'", 1 },
        { "code > 'h0995' AND code < 'i'", 1 },
        { "code <= 'a0003'", 1 },
        { "code < 'A0003 '", 1 },
        { "code >= 'd0998' AND code <= 'e0001'", 1 },
        { "code BETWEEN 'f-0100' AND 'f0104'", 1 },
        { "code > '\xe4\xb8\xad" "0100'", 0 },
        { "code BETWEEN 'a' AND '\xed\x95\x9c'", 0 },
        { "code >= 'k0100' AND code < 'k0200'", 0 },
    };
    static const struct { jw_format fmt; const char *ext; } f[] = {
        { JW_FMT_JET4, "mdb" }, { JW_FMT_ACE14, "accdb" }
    };
    static const char *const first[] = {
        "a", "b", "c", "d", "e", "f", "g", "h", "j", "k", "\xe4\xb8\xad",
        "\xed\x95\x9c"
    };
    char dir[] = "/tmp/seekrangeXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (size_t fi = 0; fi < 2; fi++) {
        char path[256], err[256];
        snprintf(path, sizeof path, "%s/range.%s", dir, f[fi].ext);
        jw_db *db = jw_create(path, f[fi].fmt, err, sizeof err);
        ck_assert_msg(db != NULL, "%s", err);
        jw_coldef cols[3] = { { "id", JW_LONG, 0, 0 },
                              { "code", JW_TEXT, 20, 1 },
                              { "n", JW_LONG, 0, 0 } };
        jw_idxdef idx[2] = { { "pk", 0, 1, 1, 0 }, { "code_asc", 1, 0, 0, 0 } };
        jw_table *t = jw_table_begin(db, "codes", cols, 3, idx, 2);
        ck_assert_msg(t != NULL, "%s", jw_error(db));
        for (int r = 0; r < 6000; r++) {
            char txt[32];
            uint16_t u[32];
            jw_value vals[3];
            memset(vals, 0, sizeof vals);
            /* mixed case and a hyphen now and then (minor differences) */
            snprintf(txt, sizeof txt, "%s%s%04d",
                     first[(size_t)r % (sizeof first / sizeof first[0])],
                     r % 11 == 3 ? "-" : "", (r * 7919) % 1000);
            if (r % 5 == 1 && txt[0] >= 'a' && txt[0] <= 'z')
                txt[0] = (char)(txt[0] - 32);
            vals[0].i = r + 1;
            vals[1].text = u;
            vals[1].units = utf16_of(u, txt);
            vals[2].i = r % 7;
            ck_assert_msg(jw_table_add_row(t, vals) == 0, "%s", jw_error(db));
        }
        ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
        ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
            char sql[512], plan[256], plan2[256];
            long n1, n2;
            int64_t id1, id2;
            uint64_t p1, p2;
            snprintf(sql, sizeof sql, "SELECT id FROM codes WHERE %s",
                     q[i].where);
            range_rows(path, sql, &n1, &id1, &p1, plan, sizeof plan);
            snprintf(sql, sizeof sql, "SELECT id FROM codes WHERE (%s OR 1=0)",
                     q[i].where);
            range_rows(path, sql, &n2, &id2, &p2, plan2, sizeof plan2);
            ck_assert_msg(strncmp(plan, "SEEK", 4) == 0, "%s: %s", q[i].where,
                          plan);
            ck_assert_msg(n1 == n2 && id1 == id2 && n1 > 0,
                          "%s %s: %ld rows (ids %lld) by %s, %ld (ids %lld) "
                          "by scan", f[fi].ext, q[i].where, n1, (long long)id1,
                          plan, n2, (long long)id2);
            if (q[i].seeks)
                ck_assert_msg(p1 * 2 < p2, "%s %s: the seek read %llu pages, "
                              "the scan %llu", f[fi].ext, q[i].where,
                              (unsigned long long)p1, (unsigned long long)p2);
            else
                ck_assert_msg(p1 >= p2, "%s %s: %llu pages, the scan %llu: "
                              "no fallback to a scan?", f[fi].ext, q[i].where,
                              (unsigned long long)p1, (unsigned long long)p2);
        }
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

Suite *seekscan_suite(void);
Suite *seekscan_suite(void)
{
    Suite *s = suite_create("seekscan");
    TCase *tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, date_seeks_descending_and_day_zero);
    tcase_add_test(tc, text_seeks_nwind_customers);
    tcase_add_test(tc, text_range_seeks_generated);
    tcase_add_test(tc, fixtures_seek_equals_scan);
    tcase_add_test(tc, generated_seek_equals_scan);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(seekscan_suite)
