/*
 * test_tablewrite.c - the table write path (write.h) on copies of public
 * fixtures: statement savepoints of the pager, page allocation with the
 * usage maps, rows inserted (thousands, so pages fill and new ones are
 * allocated), updated (in place and grown into overflow rows) and
 * deleted; the TDEF's row count and AutoNumber; refusals (Required, too
 * long) and savepoint rollbacks that leave the file byte-for-byte
 * unchanged. Every written file is checked through the reader (each
 * row's values against what was written), with `jetcheck verify` (0
 * problems) and `mdb-export` reading each table, when those tools exist.
 *
 * Needs ../shared (or $JETODBC_SHARED): skipped with a message otherwise.
 * Always works on copies in /tmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "internal.h"
#include "write.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

static bool have_shared(void)
{
    if (jet_test_fixture("jackcess/V2007/testV2007.accdb"))
        return true;
    fprintf(stderr, "test_tablewrite: %s/fixtures/public not found: "
            "skipped (set JETODBC_SHARED)\n", jet_shared_dir());
    return false;
}

static jet_db *open_db(const char *path)
{
    jet_db *db = NULL;
    jet_error err;
    jet_open_options o;
    memset(&o, 0, sizeof o);
    o.cache_pages = 64;        /* small: transactions spill */
    jet_rc rc = jet_db_open(&db, path, &o, &err);
    ck_assert_msg(rc == JET_OK, "open %s: %s", path, err.msg);
    return db;
}

/* mdb-export reads table (skipped without mdbtools). */
static void mdb_export(const char *path, const char *table)
{
    char cmd[2300];
    if (system("command -v mdb-export >/dev/null 2>&1") != 0)
        return;
    snprintf(cmd, sizeof cmd, "mdb-export '%s' '%s' >/dev/null 2>&1", path,
             table);
    ck_assert_msg(system(cmd) == 0, "mdb-export %s %s failed", path, table);
}

static const jet_tdef *table(jet_db *db, const char *name)
{
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *t = NULL;
    ck_assert_msg(o != NULL, "no table %s", name);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    return t;
}

/* ------------------------------------------------------- row fingerprints */

static uint32_t fnv(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* One row as text: each column's type and value, '|' between. */
static char *fingerprint(jet_db *db, const jet_tdef *t, const jet_value *v)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    for (uint16_t i = 0; i < t->ncols; i++) {
        char tmp[1200];
        size_t n = 0;
        const jet_value *x = &v[i];
        if (t->cols[i].type == JET_T_BOOL)
            n = (size_t)snprintf(tmp, sizeof tmp, "b%d", x->is_null ? 0 :
                                 x->u.b);
        else if (x->is_null)
            n = (size_t)snprintf(tmp, sizeof tmp, "null");
        else if (x->type == JET_T_TEXT || x->type == JET_T_MEMO) {
            size_t u8 = 0;
            char *big;
            ck_assert_int_eq(jet_text_to_utf8(db, x, NULL, 0, &u8), JET_OK);
            big = malloc(u8 + 1);
            ck_assert_int_eq(jet_text_to_utf8(db, x, big, u8, &u8), JET_OK);
            if (u8 < 200) {
                tmp[0] = 't';
                memcpy(tmp + 1, big, u8);
                n = u8 + 1;
            } else {
                n = (size_t)snprintf(tmp, sizeof tmp, "T%zu:%08x", u8,
                                     fnv(big, u8));
            }
            free(big);
        } else if (x->type == JET_T_OLE || x->type == JET_T_BINARY ||
                   x->type == JET_T_EXT_DATETIME) {
            n = (size_t)snprintf(tmp, sizeof tmp, "x%zu:%08x", x->len,
                                 fnv(x->data, x->len));
        } else {
            const uint8_t *u = (const uint8_t *)&x->u;
            size_t sz = x->type == JET_T_FLOAT ? 4
                      : x->type == JET_T_GUID ? 16
                      : x->type == JET_T_NUMERIC ? 15 : 8;
            n = (size_t)snprintf(tmp, sizeof tmp, "%d:", (int)x->type);
            for (size_t k = 0; k < sz; k++)
                n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%02x", u[k]);
        }
        while (len + n + 2 > cap) {
            cap *= 2;
            s = realloc(s, cap);
            ck_assert_ptr_nonnull(s);
        }
        memcpy(s + len, tmp, n);
        len += n;
        s[len++] = '|';
    }
    s[len] = 0;
    return s;
}

typedef struct fpset {
    char **v;
    size_t n, cap;
} fpset;

static void fp_add(fpset *s, char *fp)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        ck_assert_ptr_nonnull(s->v);
    }
    s->v[s->n++] = fp;
}

/* Remove one fingerprint equal to fp (it must be there). */
static void fp_remove(fpset *s, const char *fp)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], fp) == 0) {
            free(s->v[i]);
            s->v[i] = s->v[--s->n];
            return;
        }
    ck_abort_msg("fingerprint not found: %s", fp);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void fp_free(fpset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Every live row of t through the reader. */
static void scan_rows(jet_db *db, const jet_tdef *t, fpset *out)
{
    jet_scan *sc;
    jet_value *v = calloc(t->ncols ? t->ncols : 1, sizeof *v);
    jet_rc rc;
    ck_assert_int_eq(jet_scan_open(&sc, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(sc)) == JET_OK) {
        for (uint16_t i = 0; i < t->ncols; i++)
            ck_assert_int_eq(jet_scan_value(sc, i, &v[i]), JET_OK);
        fp_add(out, fingerprint(db, t, v));
    }
    ck_assert_msg(rc == JET_DONE, "scan: %s", jet_scan_error(sc)->msg);
    jet_scan_close(sc);
    free(v);
}

static void expect_rows(jet_db *db, const jet_tdef *t, fpset *want)
{
    fpset got = { 0 };
    uint32_t count;
    scan_rows(db, t, &got);
    ck_assert_uint_eq(got.n, want->n);
    qsort(got.v, got.n, sizeof *got.v, cmp_str);
    qsort(want->v, want->n, sizeof *want->v, cmp_str);
    for (size_t i = 0; i < got.n; i++)
        ck_assert_msg(strcmp(got.v[i], want->v[i]) == 0,
                      "row %zu: got %s want %s", i, got.v[i], want->v[i]);
    ck_assert_int_eq(jet_table_row_count(db, t, &count), JET_OK);
    ck_assert_uint_eq(count, want->n);
    fp_free(&got);
}

/* ------------------------------------------------------- generated rows */

typedef struct genrow {
    jet_value *v;
    uint16_t text[8][300];
    uint8_t bytes[8][300];
    uint16_t *memo;            /* big MEMO text */
    uint8_t *ole;              /* big OLE bytes */
    const jet_value *tmpl;     /* a stored row, for EXT_DATETIME values */
} genrow;

#define BIG_LONG 12000

static void gen_init(genrow *g, const jet_tdef *t)
{
    memset(g, 0, sizeof *g);
    g->v = calloc(t->ncols ? t->ncols : 1, sizeof *g->v);
    g->memo = malloc(2 * BIG_LONG);
    g->ole = malloc(BIG_LONG);
    ck_assert(g->v && g->memo && g->ole);
}

static void gen_free(genrow *g)
{
    free(g->v);
    free(g->memo);
    free(g->ole);
}

static bool writable_table(const jet_tdef *t, bool has_rows)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *c = &t->cols[i];
        if (c->flags & JET_COL_CALCULATED)
            return false;
        switch (c->type) {
        case JET_T_COMPLEX: case JET_T_UNKNOWN_0D:
        case JET_T_UNKNOWN_0E: case JET_T_UNKNOWN_11:
            return false;
        case JET_T_EXT_DATETIME:
            if (!has_rows)
                return false;
            break;
        case JET_T_TEXT: case JET_T_BINARY:
            if (c->flags & JET_COL_FIXED)
                return false;
            break;
        default:
            break;
        }
    }
    return true;
}

/* Whether column i is a key column of a primary key, unique or required
 * index (generated rows keep such columns non-NULL). */
static bool keyed(const jet_tdef *t, uint16_t i)
{
    for (uint16_t x = 0; x < t->nindexes; x++) {
        const jet_index *ix = &t->indexes[x];
        if (!ix->primary_key && !ix->unique && !ix->required)
            continue;
        for (uint16_t k = 0; k < ix->ncols; k++)
            if (ix->cols[k].col == i)
                return true;
    }
    return false;
}

/* Values of row k for t (grow: longer values, for updates that move). */
static void gen_row(const jet_tdef *t, genrow *g, unsigned k, bool grow)
{
    unsigned ti = 0, bi = 0;
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *c = &t->cols[i];
        jet_value *v = &g->v[i];
        memset(v, 0, sizeof *v);
        v->type = c->type;
        if ((c->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID)) ||
            (k % 7 == 3 && !(c->flags & JET_COL_REQUIRED) &&
             c->type != JET_T_BOOL && !keyed(t, i))) {
            v->is_null = true;
            continue;
        }
        switch (c->type) {
        case JET_T_BOOL: v->u.b = k % 2; break;
        case JET_T_BYTE: v->u.i = k % 256; break;
        case JET_T_INT: v->u.i = (int)(k % 30000) - 15000; break;
        case JET_T_LONG: v->u.i = (int64_t)k * 7 - 1000; break;
        case JET_T_BIGINT: v->u.i = (int64_t)k * 1000000007LL; break;
        case JET_T_MONEY: v->u.money = (int64_t)k * 12345; break;
        case JET_T_FLOAT: v->u.f = (float)k * 0.5f; break;
        case JET_T_DOUBLE: v->u.d = k * 1.25; break;
        case JET_T_DATETIME: v->u.d = 40000.0 + k + 0.5; break;
        case JET_T_GUID:
            for (int j = 0; j < 16; j++)
                v->u.guid[j] = (uint8_t)(k * 31 + j + (j == 0 ? k >> 8 : 0));
            break;
        case JET_T_NUMERIC:
            v->u.num.precision = c->precision;
            v->u.num.scale = c->scale;
            v->u.num.negative = k % 2;
            v->u.num.mag[0] = (uint8_t)(c->precision > 1 ? k % 10 : 0);
            break;
        case JET_T_EXT_DATETIME:
            *v = g->tmpl[i];
            break;
        case JET_T_TEXT: {
            char s[300];
            unsigned maxc = c->length / 2;
            int n = snprintf(s, sizeof s, grow ? "grown row %u, text long "
                             "enough to need more room \xe9" : "r%u\xe9", k);
            unsigned units = (unsigned)n < maxc ? (unsigned)n : maxc;
            uint16_t *u = g->text[ti++ & 7];
            for (unsigned j = 0; j < units; j++)
                u[j] = (uint8_t)s[j];
            v->enc = JET_ENC_UCS2;
            v->data = (const uint8_t *)u;
            v->len = 2 * units;
            break;
        }
        case JET_T_MEMO: {
            /* short (inline), one LVAL row, or a chain */
            unsigned units = grow ? 3000 + k % 5 : k % 9 == 0 ? 5000 + k % 7
                           : k % 4 == 0 ? 1500 : 10 + k % 20;
            int n;
            char head[32];
            n = snprintf(head, sizeof head, "m%u ", k);
            for (unsigned j = 0; j < units; j++)
                g->memo[j] = j < (unsigned)n ? (uint8_t)head[j]
                                              : (uint16_t)(j % 3 == 0
                                                               ? 0x3b1
                                                               : 'a' + j % 26);
            v->enc = JET_ENC_UCS2;
            v->data = (const uint8_t *)g->memo;
            v->len = 2 * units;
            break;
        }
        case JET_T_OLE: case JET_T_BINARY: {
            uint8_t *b = c->type == JET_T_OLE ? g->ole : g->bytes[bi++ & 7];
            unsigned n = c->type == JET_T_BINARY
                             ? (c->length < 10 ? c->length : 10)
                             : grow ? 9000 : (k % 5 == 0 ? 4500 : 10);
            for (unsigned j = 0; j < n; j++)
                b[j] = (uint8_t)(k + j * 7);
            v->data = b;
            v->len = n;
            break;
        }
        default:
            v->is_null = true;
            break;
        }
    }
}

/* ---------------------------------------------------------- savepoints */

START_TEST(savepoint_rollback_restores_pages_and_count)
{
    char path[64];
    const char *src;
    jet_db *db;
    jet_savepoint sp0, sp1;
    uint8_t *pg, *orig;
    size_t olen = 0;
    uint32_t count0, n;

    if (!have_shared())
        return;
    src = jet_test_fixture("jackcess/V2007/testV2007.accdb");
    jet_test_copy_to_temp(path, sizeof path, src, "tw");
    orig = jet_test_slurp(path, &olen);
    db = open_db(path);
    count0 = jet_pagefile_page_count(db->pf);
    ck_assert_int_eq(jet_db_savepoint(db, &sp0), JET_EUNSUPPORTED);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp0), JET_OK);
    /* change page 2 and append two pages */
    ck_assert_int_eq(jet_page_write(db->pf, 2, &pg, NULL), JET_OK);
    pg[100] ^= 0x5A;
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_page_alloc(db->pf, &n, &pg, NULL), JET_OK);
    ck_assert_uint_eq(n, count0);
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_db_savepoint(db, &sp1), JET_OK);
    ck_assert_uint_gt(sp1, sp0);
    /* nested: page 2 again, page 3, and the appended page */
    ck_assert_int_eq(jet_page_write(db->pf, 2, &pg, NULL), JET_OK);
    pg[101] ^= 0x33;
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_page_write(db->pf, 3, &pg, NULL), JET_OK);
    pg[50] ^= 0x11;
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_page_write(db->pf, count0, &pg, NULL), JET_OK);
    pg[7] = 9;
    jet_page_unpin(db->pf, pg);
    /* many pages changed: the small cache spills to the file */
    for (uint32_t p = 4; p < count0 && p < 200; p++) {
        ck_assert_int_eq(jet_page_write(db->pf, p, &pg, NULL), JET_OK);
        pg[db->page_size - 1] ^= 0xFF;
        jet_page_unpin(db->pf, pg);
    }
    ck_assert_int_eq(jet_page_alloc(db->pf, &n, &pg, NULL), JET_OK);
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_db_rollback_to(db, sp1), JET_OK);
    ck_assert_uint_eq(jet_pagefile_page_count(db->pf), count0 + 1);
    {
        const uint8_t *p;
        ck_assert_int_eq(jet_page_pin(db->pf, 2, &p, NULL), JET_OK);
        ck_assert_uint_eq(p[100], orig[2 * db->page_size + 100] ^ 0x5A);
        ck_assert_uint_eq(p[101], orig[2 * db->page_size + 101]);
        jet_page_unpin(db->pf, p);
        ck_assert_int_eq(jet_page_pin(db->pf, 3, &p, NULL), JET_OK);
        ck_assert(memcmp(p, orig + 3 * db->page_size, db->page_size) == 0);
        jet_page_unpin(db->pf, p);
        ck_assert_int_eq(jet_page_pin(db->pf, count0, &p, NULL), JET_OK);
        ck_assert_uint_eq(p[7], 0);
        jet_page_unpin(db->pf, p);
    }
    /* sp1 stays valid; rolling back to sp0 undoes the rest */
    ck_assert_int_eq(jet_page_write(db->pf, 5, &pg, NULL), JET_OK);
    pg[9] ^= 1;
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_db_rollback_to(db, sp1), JET_OK);
    ck_assert_int_eq(jet_db_rollback_to(db, sp0), JET_OK);
    ck_assert_uint_eq(jet_pagefile_page_count(db->pf), count0);
    ck_assert_int_eq(jet_db_rollback_to(db, sp1), JET_ENOTFOUND);
    jet_db_release(db, sp0);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    ck_assert_msg(jet_test_same_file(path, orig, olen),
                  "savepoint rollback then commit changed the file");
    free(orig);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(savepoint_release_keeps_changes)
{
    char path[64];
    jet_db *db;
    jet_savepoint sp0, sp1;
    uint8_t *pg, *orig;
    size_t olen = 0;

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path,
                          jet_test_fixture("jackcess/V2007/testV2007.accdb"),
                          "tw");
    orig = jet_test_slurp(path, &olen);
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp0), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp1), JET_OK);
    ck_assert_int_eq(jet_page_write(db->pf, 2, &pg, NULL), JET_OK);
    pg[100] ^= 0x5A;
    jet_page_unpin(db->pf, pg);
    jet_db_release(db, sp1);
    /* the outer savepoint still undoes a change made under the inner */
    ck_assert_int_eq(jet_db_rollback_to(db, sp0), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp1), JET_OK);
    ck_assert_int_eq(jet_page_write(db->pf, 2, &pg, NULL), JET_OK);
    pg[100] ^= 0x5A;
    jet_page_unpin(db->pf, pg);
    jet_db_release(db, sp0);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    ck_assert(!jet_test_same_file(path, orig, olen));
    orig[2 * 4096 + 100] ^= 0x5A;
    ck_assert(jet_test_same_file(path, orig, olen));
    free(orig);
    jet_test_remove_db(path);
}
END_TEST

/* A savepoint per row inside an array's savepoint (driver/dml_exec.c):
 * 20,000 inner savepoints changing the same existing pages, each
 * released, keep one image per page for the outer one (not one per row,
 * which passed the 32 MB image limit at 8,192 rows), and rolling back to
 * the outer one still restores the file. */
START_TEST(savepoint_per_row_keeps_one_image_per_page)
{
    char path[64];
    jet_db *db;
    jet_savepoint sp0, sp1;
    uint8_t *pg, *orig;
    size_t olen = 0;

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path,
                          jet_test_fixture("jackcess/V2007/testV2007.accdb"),
                          "tw");
    orig = jet_test_slurp(path, &olen);
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp0), JET_OK);
    for (int i = 0; i < 20000; i++) {
        ck_assert_int_eq(jet_db_savepoint(db, &sp1), JET_OK);
        ck_assert_int_eq(jet_page_write(db->pf, 2 + (uint32_t)(i % 3), &pg,
                                        NULL), JET_OK);
        pg[100] ^= 0x5A;
        jet_page_unpin(db->pf, pg);
        jet_db_release(db, sp1);
    }
    ck_assert_int_eq(jet_db_rollback_to(db, sp0), JET_OK);
    jet_db_release(db, sp0);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    ck_assert_msg(jet_test_same_file(path, orig, olen),
                  "rollback to the outer savepoint changed the file");
    free(orig);
    jet_test_remove_db(path);
}
END_TEST

/* ------------------------------------------------------ insert / delete */

typedef struct fixture_table {
    const char *file;
    const char *table;       /* NULL: every writable table without indexes */
} fixture_table;

static const fixture_table files[] = {
    { "jackcess/V2000/overflowTestV2000.mdb", NULL },
    { "jackcess/V2000/queryTestV2000.mdb", NULL },
    { "jackcess/V2003/delTestV2003.mdb", NULL },
    { "jackcess/V2003/testPromotionV2003.mdb", NULL },
    { "jackcess/V2007/overflowTestV2007.accdb", NULL },
    { "jackcess/V2007/fixedNumericTestV2007.accdb", NULL },
    { "jackcess/V2007/testPromotionV2007.accdb", NULL },
    { "jackcess/V2010/queryTestV2010.accdb", NULL },
    { "jackcess/V2010/delTestV2010.accdb", NULL },
    { "jackcess/V2010/overflowTestV2010.accdb", NULL },
};

/* The first stored row of t, copied (EXT_DATETIME bytes kept in own
 * buffers); false when t has none. */
static bool first_row(jet_db *db, const jet_tdef *t, jet_value *out,
                      uint8_t (*keep)[64])
{
    jet_scan *sc;
    bool got = false;
    ck_assert_int_eq(jet_scan_open(&sc, db, t, NULL), JET_OK);
    if (jet_scan_next(sc) == JET_OK) {
        got = true;
        for (uint16_t i = 0; i < t->ncols; i++) {
            if (t->cols[i].type != JET_T_EXT_DATETIME)
                continue;
            ck_assert_int_eq(jet_scan_value(sc, i, &out[i]), JET_OK);
            if (!out[i].is_null) {
                ck_assert_uint_le(out[i].len, 64);
                memcpy(keep[i], out[i].data, out[i].len);
                out[i].data = keep[i];
            }
        }
    }
    jet_scan_close(sc);
    return got;
}

/* The values of row id of t through the reader, as a fingerprint. */
static char *stored_fingerprint(jet_db *db, const jet_tdef *t, jet_rowid id,
                                jet_value *old)
{
    jet_scan *sc;
    char *fp;
    ck_assert_int_eq(jet_scan_open(&sc, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_scan_fetch_row(sc, id.pgno, id.row), JET_OK);
    for (uint16_t i = 0; i < t->ncols; i++)
        ck_assert_int_eq(jet_scan_value(sc, i, &old[i]), JET_OK);
    fp = fingerprint(db, t, old);
    jet_scan_close(sc);
    return fp;
}

/* A child row refused for want of its parent (an enforced relationship:
 * the generated key values seldom name a parent row). */
static bool orphan(jet_db *db, jet_rc rc)
{
    return rc == JET_ECONSTRAINT &&
           strstr(jet_db_error(db)->msg, "a related record is required");
}

typedef struct counts {
    unsigned tables, inserted, updated, deleted, refused;
} counts;

/* Insert nrows rows into t (each its own statement: a duplicate key or
 * a child row without its parent is refused and rolled back to its
 * savepoint), update every 5th (growing
 * every 10th: overflow rows, long values rewritten), delete every 3rd;
 * after each phase the table reads back as expected. */
static void exercise_table(jet_db *db, const jet_tdef *t, unsigned nrows,
                           counts *cnt)
{
    fpset want = { 0 };
    genrow g;
    jet_rowid *ids = calloc(nrows, sizeof *ids);
    bool *live = calloc(nrows, sizeof *live);
    jet_value *tmpl = calloc(t->ncols ? t->ncols : 1, sizeof *tmpl);
    uint8_t (*keep)[64] = calloc(t->ncols ? t->ncols : 1, 64);
    jet_value *old = calloc(t->ncols ? t->ncols : 1, sizeof *old);
    jet_savepoint sp;
    jet_rc rc;

    gen_init(&g, t);
    (void)first_row(db, t, tmpl, keep);
    g.tmpl = tmpl;
    scan_rows(db, t, &want);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < nrows; k++) {
        gen_row(t, &g, k, false);
        ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
        rc = jet_table_insert(db, t, g.v, &ids[k]);
        if (rc == JET_EDUPLICATE || rc == JET_ELIMIT || orphan(db, rc)) {
            ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
            jet_db_release(db, sp);
            cnt->refused++;
            continue;
        }
        ck_assert_msg(rc == JET_OK, "insert %u into %s: %s", k, t->name,
                      jet_db_error(db)->msg);
        jet_db_release(db, sp);
        live[k] = true;
        cnt->inserted++;
        fp_add(&want, fingerprint(db, t, g.v));
    }
    /* the rows are there before the commit, through the reader */
    expect_rows(db, t, &want);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    expect_rows(db, t, &want);

    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < nrows; k += 5) {
        char *ofp;
        if (!live[k])
            continue;
        ofp = stored_fingerprint(db, t, ids[k], old);
        gen_row(t, &g, k + 100000, k % 10 == 0);
        ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
        rc = jet_table_update(db, t, ids[k], g.v);
        if (rc == JET_EDUPLICATE || rc == JET_ELIMIT || orphan(db, rc)) {
            ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
            jet_db_release(db, sp);
            cnt->refused++;
            free(ofp);
            continue;
        }
        ck_assert_msg(rc == JET_OK, "update %u of %s: %s", k, t->name,
                      jet_db_error(db)->msg);
        jet_db_release(db, sp);
        cnt->updated++;
        fp_remove(&want, ofp);
        /* AutoNumbers keep their stored value */
        for (uint16_t i = 0; i < t->ncols; i++)
            if (t->cols[i].flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                g.v[i] = old[i];
        fp_add(&want, fingerprint(db, t, g.v));
        free(ofp);
    }
    for (unsigned k = 1; k < nrows; k += 3) {
        char *ofp;
        if (!live[k])
            continue;
        ofp = stored_fingerprint(db, t, ids[k], old);
        rc = jet_table_delete(db, t, ids[k]);
        ck_assert_msg(rc == JET_OK, "delete %u of %s: %s", k, t->name,
                      jet_db_error(db)->msg);
        ck_assert_int_eq(jet_table_delete(db, t, ids[k]), JET_ENOTFOUND);
        cnt->deleted++;
        fp_remove(&want, ofp);
        free(ofp);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    expect_rows(db, t, &want);
    fp_free(&want);
    gen_free(&g);
    free(old);
    free(keep);
    free(tmpl);
    free(live);
    free(ids);
    cnt->tables++;
}

/* Writable tables of fixture rel (with or without indexes): rows in, some
 * changed and deleted; the file reopened, read back, verified with
 * jetcheck and exported with mdb-export. */
static void exercise_file(const char *rel, bool with_indexes, unsigned rows,
                          counts *cnt)
{
    const char *src = jet_test_fixture(rel);
    char path[64];
    jet_db *db;
    const char *names[64];
    size_t nnames = 0;
    if (!src) {
        fprintf(stderr, "test_tablewrite: %s missing: skipped\n", rel);
        return;
    }
    jet_test_copy_to_temp(path, sizeof path, src, "tw");
    db = open_db(path);
    for (size_t i = 0; i < jet_catalog_count(db) && nnames < 64; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        if (o->kind != JET_OBJ_TABLE)
            continue;
        if (jet_tdef_load(&t, db, o) != JET_OK ||
            (t->nindexes > 0) != with_indexes ||
            !writable_table(t, t->row_count > 0) ||
            jet_table_check_writable(db, t) != JET_OK)
            continue;
        names[nnames++] = o->name;
    }
    for (size_t i = 0; i < nnames; i++)
        exercise_table(db, table(db, names[i]), i == 0 ? rows : rows / 6,
                       cnt);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    db = open_db(path);
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (o->kind == JET_OBJ_TABLE)
            mdb_export(path, o->name);
    }
    jet_db_close(db);
    fprintf(stderr, "test_tablewrite: %s: %zu tables %s indexes written\n",
            rel, nnames, with_indexes ? "with" : "without");
    jet_test_remove_db(path);
}

START_TEST(insert_update_delete_index_less_tables)
{
    counts c = { 0 };
    if (!have_shared())
        return;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        exercise_file(files[f].file, false, 3000, &c);
    fprintf(stderr, "test_tablewrite: without indexes: %u tables, %u rows "
            "inserted, %u updated, %u deleted\n", c.tables, c.inserted,
            c.updated, c.deleted);
    ck_assert_uint_gt(c.tables, 10);
}
END_TEST

static const char *const indexed_files[] = {
    "jackcess/V2003/testV2003.mdb",
    "jackcess/V2003/indexTestV2003.mdb",
    "jackcess/V2007/testV2007.accdb",
    "jackcess/V2007/indexTestV2007.accdb",
    "jackcess/V2010/compIndexTestV2010.accdb",
    "jackcess/V2010/bigIndexTestV2010.accdb",
    "jackcess/V2019/extDateTestV2019.accdb",
    "mdbtestdata/ASampleDatabase.accdb",
};

START_TEST(insert_update_delete_indexed_tables)
{
    counts c = { 0 };
    if (!have_shared())
        return;
    for (size_t f = 0; f < sizeof indexed_files / sizeof indexed_files[0];
         f++)
        exercise_file(indexed_files[f], true, 2000, &c);
    fprintf(stderr, "test_tablewrite: with indexes: %u tables, %u rows "
            "inserted, %u updated, %u deleted, %u duplicates refused\n",
            c.tables, c.inserted, c.updated, c.deleted, c.refused);
    ck_assert_uint_gt(c.tables, 6);
}
END_TEST

/* Refusals and a rolled-back statement leave the file byte-for-byte
 * unchanged; AutoNumbers are not handed out twice. */
START_TEST(refusals_leave_the_file_unchanged)
{
    char path[64];
    jet_db *db;
    uint8_t *orig;
    size_t olen = 0;
    const jet_tdef *t = NULL;
    genrow g;
    jet_savepoint sp;
    int req = -1, txt = -1;

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path, jet_test_fixture(
                              "jackcess/V2007/overflowTestV2007.accdb"),
                          "tw");
    orig = jet_test_slurp(path, &olen);
    db = open_db(path);
    for (size_t i = 0; i < jet_catalog_count(db) && !t; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *x;
        if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&x, db, o) != JET_OK ||
            x->nindexes > 0 || !writable_table(x, false))
            continue;
        for (uint16_t c = 0; c < x->ncols; c++)
            if (x->cols[c].type == JET_T_TEXT)
                txt = c;
        if (txt >= 0)
            t = x;
    }
    ck_assert_ptr_nonnull(t);
    gen_init(&g, t);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
    /* text too long */
    gen_row(t, &g, 1, false);
    {
        static uint16_t longtext[300];
        for (int i = 0; i < 300; i++)
            longtext[i] = 'x';
        g.v[txt].is_null = false;
        g.v[txt].enc = JET_ENC_UCS2;
        g.v[txt].data = (const uint8_t *)longtext;
        g.v[txt].len = (size_t)t->cols[txt].length + 2;
        ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_ETOOLONG);
    }
    /* Required: mark a column required in memory (the fixture has none) */
    for (uint16_t c = 0; c < t->ncols; c++)
        if (t->cols[c].type != JET_T_BOOL &&
            !(t->cols[c].flags & JET_COL_AUTONUMBER)) {
            req = c;
            break;
        }
    ck_assert_int_ge(req, 0);
    {
        jet_column *col = (jet_column *)(uintptr_t)&t->cols[req];
        gen_row(t, &g, 2, false);
        g.v[req].is_null = true;
        col->flags |= JET_COL_REQUIRED;
        ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_ECONSTRAINT);
        ck_assert_msg(strstr(jet_db_error(db)->msg, "You must enter a "
                             "value in the '") != NULL, "%s",
                      jet_db_error(db)->msg);
        col->flags &= (uint16_t)~JET_COL_REQUIRED;
    }
    /* a row inserted, then the statement rolled back */
    gen_row(t, &g, 3, false);
    ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_OK);
    ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    ck_assert_msg(jet_test_same_file(path, orig, olen), "a refused or "
                  "rolled-back statement changed the file");
    /* not in a transaction: refused */
    ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_EUNSUPPORTED);
    jet_db_close(db);
    ck_assert(jet_test_same_file(path, orig, olen));
    gen_free(&g);
    free(orig);
    jet_test_remove_db(path);
}
END_TEST

/* AutoNumbers handed out and rolled back are never handed out again. */
START_TEST(autonumber_not_reused_after_rollback)
{
    char path[64];
    jet_db *db;
    const jet_tdef *t = NULL;
    int ac = -1;
    genrow g;
    int64_t first, second;

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path,
                          jet_test_fixture("jackcess/V2007/testV2007.accdb"),
                          "tw");
    db = open_db(path);
    for (size_t i = 0; i < jet_catalog_count(db) && !t; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *x;
        if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&x, db, o) != JET_OK ||
            !writable_table(x, false))
            continue;
        for (uint16_t c = 0; c < x->ncols; c++)
            if ((x->cols[c].flags & JET_COL_AUTONUMBER) &&
                x->cols[c].type == JET_T_LONG) {
                ac = c;
                t = x;
            }
    }
    if (!t) {
        fprintf(stderr, "test_tablewrite: no index-less AutoNumber table: "
                "skipped\n");
        jet_db_close(db);
        jet_test_remove_db(path);
        return;
    }
    gen_init(&g, t);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    gen_row(t, &g, 1, false);
    ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_OK);
    first = g.v[ac].u.i;
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    gen_row(t, &g, 2, false);
    ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_OK);
    second = g.v[ac].u.i;
    ck_assert_int_gt(second, first);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    gen_free(&g);
    jet_test_remove_db(path);
}
END_TEST

/* The type byte (0 inline, 1 reference) of t's owned pages map. */
static int owned_map_type(jet_db *db, const jet_tdef *t)
{
    const uint8_t *pg;
    uint32_t ptr;
    uint16_t st, en, fl;
    int type;
    ck_assert_int_eq(jet_page_pin(db->pf, t->pgno, &pg, NULL), JET_OK);
    ptr = jet_get_u32(pg + db->fmt->tdef_owned_pages);
    jet_page_unpin(db->pf, pg);
    ck_assert_int_eq(jet_page_pin(db->pf, ptr >> 8, &pg, NULL), JET_OK);
    ck_assert_int_eq(jet_row_bounds(db->fmt, pg, ptr >> 8,
                                    (uint16_t)(ptr & 0xFF), &st, &en, &fl,
                                    NULL), JET_OK);
    type = pg[st];
    jet_page_unpin(db->pf, pg);
    return type;
}

/* Rows enough that the owned and free-space maps outgrow their inline
 * windows: both become reference maps, and everything still reads. */
START_TEST(inline_usage_maps_are_promoted)
{
    char path[64];
    jet_db *db;
    const jet_tdef *t;
    genrow g;
    fpset want = { 0 };
    unsigned k;

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path, jet_test_fixture(
                              "jackcess/V2010/queryTestV2010.accdb"),
                          "tw");
    db = open_db(path);
    t = table(db, "Table1");
    ck_assert_int_eq(owned_map_type(db, t), 0);
    gen_init(&g, t);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (k = 0; k < 200000 && owned_map_type(db, t) == 0; k++) {
        gen_row(t, &g, k, true);
        ck_assert_msg(jet_table_insert(db, t, g.v, NULL) == JET_OK,
                      "insert %u: %s", k, jet_db_error(db)->msg);
        fp_add(&want, fingerprint(db, t, g.v));
    }
    ck_assert_int_eq(owned_map_type(db, t), 1);
    for (unsigned j = 0; j < 500; j++, k++) {
        gen_row(t, &g, k, true);
        ck_assert_int_eq(jet_table_insert(db, t, g.v, NULL), JET_OK);
        fp_add(&want, fingerprint(db, t, g.v));
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    fprintf(stderr, "test_tablewrite: owned map promoted after %u rows, "
            "%u pages\n", k - 500, jet_pagefile_page_count(db->pf));
    jet_db_close(db);
    db = open_db(path);
    t = table(db, "Table1");
    expect_rows(db, t, &want);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    mdb_export(path, "Table1");
    fp_free(&want);
    gen_free(&g);
    jet_test_remove_db(path);
}
END_TEST

static Suite *tablewrite_suite(void)
{
    Suite *s = suite_create("tablewrite");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, savepoint_rollback_restores_pages_and_count);
    tcase_add_test(tc, savepoint_release_keeps_changes);
    tcase_add_test(tc, savepoint_per_row_keeps_one_image_per_page);
    tcase_add_test(tc, refusals_leave_the_file_unchanged);
    tcase_add_test(tc, autonumber_not_reused_after_rollback);
    tcase_add_test(tc, insert_update_delete_index_less_tables);
    tcase_add_test(tc, inline_usage_maps_are_promoted);
    tcase_add_test(tc, insert_update_delete_indexed_tables);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(tablewrite_suite)
