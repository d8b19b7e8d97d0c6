/*
 * crashdml.c - the database and the row transactions of the crash and
 * concurrency tests (see crashdml.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crashdml.h"
#include "write.h"
#include "newfile.h"
#include "shared_dir.h"
#include "slurp.h"

/* columns of "items", in the writer's (and the TDEF's) order */
enum { C_ID, C_K, C_CODE, C_GRP, C_AMOUNT, C_GEN, C_NOTE, C_BLOB, C_LABEL,
       NCOLS };
enum { L_ID, L_GEN, L_WHAT, NLOG };

#define NOTE_MAX 6000u
#define BLOB_MAX 9000u

/* The values of one row of "items" as a function of (k, gen). */
typedef struct spec {
    uint32_t k, gen;
    uint16_t code[40];
    size_t code_units;
    int32_t grp;
    double amount;
    bool note_null, blob_null;
    uint16_t note[NOTE_MAX];
    size_t note_units;
    uint8_t blob[BLOB_MAX];
    size_t blob_len;
    uint16_t label[60];
    size_t label_units;
} spec;

static uint32_t mix(uint32_t a, uint32_t b)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

static size_t ascii_units(uint16_t *u, size_t cap, const char *s)
{
    size_t n = 0;
    for (; s[n] && n < cap; n++)
        u[n] = (uint8_t)s[n];
    return n;
}

static void make_spec(spec *s, uint32_t k, uint32_t gen)
{
    uint32_t h = mix(k, gen), h2 = mix(h, 77);
    char buf[80];
    unsigned nc, bc;

    s->k = k;
    s->gen = gen;
    /* code: three letters (case and an accent vary) then the key, so it is
     * unique and lands anywhere in the index */
    buf[0] = (char)('a' + h % 26);
    buf[1] = (char)((h >> 5) % 2 ? 'A' + (h >> 6) % 26 : 'a' + (h >> 6) % 26);
    buf[2] = (char)('a' + (h >> 11) % 26);
    snprintf(buf + 3, sizeof buf - 3, "-%u", k);
    s->code_units = ascii_units(s->code, 39, buf);
    if ((h >> 16) % 5 == 0)
        s->code[1] = 0xE9;      /* é */
    s->grp = (int32_t)((h >> 3) % 40);
    s->amount = (double)(h2 % 2000000) / 100.0 - 5000.0;
    /* note: NULL, inline, one LVAL row, or chains of two and three pages */
    nc = (h >> 20) % 16;
    s->note_null = nc < 5;
    s->note_units = nc < 5 ? 0 : nc < 13 ? 10 + h2 % 40
                  : nc == 13 ? 1500 : nc == 14 ? 3000 : NOTE_MAX;
    for (size_t j = 0; j < s->note_units; j++)
        s->note[j] = (uint16_t)(j % 7 == 0 && nc >= 14 ? 0x3B1 + (j + k) % 20
                                                       : 'a' + (j + h) % 26);
    /* blob: NULL, inline, one LVAL row, chains */
    bc = (h >> 24) % 16;
    s->blob_null = bc < 8;
    s->blob_len = bc < 8 ? 0 : bc < 13 ? 20 + h2 % 30 : bc == 13 ? 3000
                : bc == 14 ? 5000 : BLOB_MAX;
    for (size_t j = 0; j < s->blob_len; j++)
        s->blob[j] = (uint8_t)(mix((uint32_t)j / 4, h) >> ((j % 4) * 8));
    snprintf(buf, sizeof buf, "label of %u at generation %u", k, gen);
    s->label_units = ascii_units(s->label, 60, buf);
}

void cd_generate(const char *path, bool accdb)
{
    static const jw_coldef cols[NCOLS] = {
        { "id", JW_LONG, 0, 0 }, { "k", JW_LONG, 0, 0 },
        { "code", JW_TEXT, 30, 1 }, { "grp", JW_LONG, 0, 0 },
        { "amount", JW_DOUBLE, 0, 0 }, { "gen", JW_LONG, 0, 0 },
        { "note", JW_MEMO, 0, 1 }, { "blob", JW_OLE, 0, 0 },
        { "label", JW_TEXT, 60, 1 }
    };
    static const jw_idxdef idx[] = {
        { "PrimaryKey", C_ID, 1, 1, 0 }, { "k", C_K, 0, 1, 0 },
        { "code", C_CODE, 0, 1, 0 }, { "grp", C_GRP, 0, 0, 0 },
        { "amount", C_AMOUNT, 0, 0, 1 }
    };
    static const jw_coldef lcols[NLOG] = {
        { "id", JW_LONG, 0, 0 }, { "gen", JW_LONG, 0, 0 },
        { "what", JW_TEXT, 80, 1 }
    };
    static const jw_idxdef lidx[] = {
        { "PrimaryKey", L_ID, 1, 1, 0 }, { "gen", L_GEN, 0, 0, 0 }
    };
    char err[256];
    spec *s = malloc(sizeof *s);
    jw_db *db = jw_create(path, accdb ? JW_FMT_ACE14 : JW_FMT_JET4, err,
                          sizeof err);
    jw_table *t;

    ck_assert_ptr_nonnull(s);
    ck_assert_msg(db != NULL, "%s", err);
    t = jw_table_begin(db, "items", cols, NCOLS, idx, 5);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    ck_assert_int_eq(jw_table_autonumber(t, C_ID), 0);
    for (uint32_t k = 1; k <= CD_ITEMS; k++) {
        jw_value v[NCOLS];
        memset(v, 0, sizeof v);
        make_spec(s, k, 0);
        v[C_ID].i = k;
        v[C_K].i = k;
        v[C_CODE].text = s->code;
        v[C_CODE].units = s->code_units;
        v[C_GRP].i = s->grp;
        v[C_AMOUNT].d = s->amount;
        v[C_GEN].i = 0;
        v[C_NOTE].null = s->note_null;
        v[C_NOTE].text = s->note;
        v[C_NOTE].units = s->note_units;
        v[C_BLOB].null = s->blob_null;
        v[C_BLOB].bytes = s->blob;
        v[C_BLOB].len = s->blob_len;
        v[C_LABEL].text = s->label;
        v[C_LABEL].units = s->label_units;
        ck_assert_msg(jw_table_add_row(t, v) == 0, "%s", jw_error(db));
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    t = jw_table_begin(db, "log", lcols, NLOG, lidx, 2);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    ck_assert_int_eq(jw_table_autonumber(t, L_ID), 0);
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
    free(s);
}

/* ------------------------------------------------------ the transaction */

static const jet_tdef *table_of(jet_db *db, const char *name)
{
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *t = NULL;
    if (!o || jet_tdef_load(&t, db, o) != JET_OK)
        return NULL;
    return t;
}

static void text_val(jet_value *v, jet_type type, const uint16_t *u,
                     size_t n)
{
    memset(v, 0, sizeof *v);
    v->type = type;
    v->enc = JET_ENC_UCS2;
    v->data = (const uint8_t *)u;
    v->len = 2 * n;
}

static void long_val(jet_value *v, int64_t i)
{
    memset(v, 0, sizeof *v);
    v->type = JET_T_LONG;
    v->u.i = i;
}

/* The values of s for "items" (id NULL: AutoNumber, or kept by update). */
static void spec_values(jet_value *v, const spec *s)
{
    memset(&v[C_ID], 0, sizeof v[C_ID]);
    v[C_ID].type = JET_T_LONG;
    v[C_ID].is_null = true;
    long_val(&v[C_K], s->k);
    text_val(&v[C_CODE], JET_T_TEXT, s->code, s->code_units);
    long_val(&v[C_GRP], s->grp);
    memset(&v[C_AMOUNT], 0, sizeof v[C_AMOUNT]);
    v[C_AMOUNT].type = JET_T_DOUBLE;
    v[C_AMOUNT].u.d = s->amount;
    long_val(&v[C_GEN], s->gen);
    text_val(&v[C_NOTE], JET_T_MEMO, s->note, s->note_units);
    v[C_NOTE].is_null = s->note_null;
    memset(&v[C_BLOB], 0, sizeof v[C_BLOB]);
    v[C_BLOB].type = JET_T_OLE;
    v[C_BLOB].is_null = s->blob_null;
    v[C_BLOB].data = s->blob;
    v[C_BLOB].len = s->blob_len;
    text_val(&v[C_LABEL], JET_T_TEXT, s->label, s->label_units);
}

typedef struct live {
    jet_rowid id;
    uint32_t k;
} live;

/* Every live row of items: where it is and its key, in scan order. */
static jet_rc list_rows(jet_db *db, const jet_tdef *t, live **out, size_t *n)
{
    jet_scan *sc;
    jet_rc rc;
    size_t cap = 2048;
    live *v = malloc(cap * sizeof *v);
    *n = 0;
    if (!v)
        return JET_ENOMEM;
    rc = jet_scan_open(&sc, db, t, NULL);
    if (rc != JET_OK) {
        free(v);
        return rc;
    }
    while ((rc = jet_scan_next(sc)) == JET_OK) {
        jet_value x;
        if (*n == cap) {
            live *w = realloc(v, 2 * cap * sizeof *v);
            if (!w) {
                rc = JET_ENOMEM;
                break;
            }
            v = w;
            cap *= 2;
        }
        if ((rc = jet_scan_value(sc, C_K, &x)) != JET_OK ||
            (rc = jet_scan_position(sc, &v[*n].id.pgno, &v[*n].id.row)) !=
                JET_OK)
            break;
        v[*n].k = (uint32_t)x.u.i;
        (*n)++;
    }
    jet_scan_close(sc);
    if (rc != JET_DONE) {
        free(v);
        return rc;
    }
    *out = v;
    return JET_OK;
}

/* One statement: op in a savepoint, released on success. */
#define STMT(call)                                                          \
    do {                                                                    \
        jet_savepoint sp_;                                                  \
        if ((rc = jet_db_savepoint(db, &sp_)) != JET_OK)                    \
            goto fail;                                                      \
        if ((rc = (call)) != JET_OK)                                        \
            goto fail;                                                      \
        jet_db_release(db, sp_);                                            \
    } while (0)

jet_rc cd_tx(jet_db *db, uint32_t g, uint32_t key_base)
{
    const jet_tdef *t, *lt;
    spec *s = malloc(sizeof *s);
    jet_value v[NCOLS], lv[NLOG];
    live *rows = NULL;
    size_t n = 0;
    uint32_t r = mix(g, 12345 + key_base);
    unsigned ndel = 0, nupd = 0, nins;
    uint16_t what[80];
    char wbuf[80];
    jet_rc rc;

    if (!s)
        return JET_ENOMEM;
    if ((rc = jet_db_write_begin(db)) != JET_OK) {
        free(s);
        return rc;
    }
    /* tdefs are loaded inside the transaction: the pager has seen the
     * file as it is now (its page count included) */
    t = table_of(db, "items");
    lt = table_of(db, "log");
    if (!t || !lt) {
        rc = JET_ENOTFOUND;
        goto fail;
    }
    if (key_base == 0) {
        if ((rc = list_rows(db, t, &rows, &n)) != JET_OK)
            goto fail;
        ndel = n > 100 ? 6 + r % 8 : 0;
        nupd = n > 100 ? 8 + (r >> 8) % 10 : 0;
        /* deletes and updates: distinct rows picked by the generation
         * (the last nupd + ndel of a partial shuffle) */
        for (unsigned i = 0; i < ndel + nupd; i++) {
            size_t j = mix(g, i) % (n - i);
            live x = rows[j];
            rows[j] = rows[n - 1 - i];
            rows[n - 1 - i] = x;
        }
        for (unsigned i = 0; i < ndel; i++)
            STMT(jet_table_delete(db, t, rows[n - 1 - i].id));
        for (unsigned i = ndel; i < ndel + nupd; i++) {
            make_spec(s, rows[n - 1 - i].k, g);
            spec_values(v, s);
            STMT(jet_table_update(db, t, rows[n - 1 - i].id, v));
        }
    }
    nins = key_base ? 25 : ndel + (r >> 16) % 5;
    for (unsigned i = 0; i < nins; i++) {
        make_spec(s, key_base ? key_base + g * 100 + i
                              : 1000000 + g * 100 + i, g);
        spec_values(v, s);
        STMT(jet_table_insert(db, t, v, NULL));
    }
    snprintf(wbuf, sizeof wbuf, "generation %u: %u deleted, %u updated, %u "
             "inserted", g, ndel, nupd, nins);
    memset(&lv[L_ID], 0, sizeof lv[L_ID]);
    lv[L_ID].type = JET_T_LONG;
    lv[L_ID].is_null = true;
    long_val(&lv[L_GEN], (int64_t)g + key_base);
    text_val(&lv[L_WHAT], JET_T_TEXT, what, ascii_units(what, 80, wbuf));
    STMT(jet_table_insert(db, lt, lv, NULL));
    free(rows);
    free(s);
    return jet_db_write_commit(db);
fail:
    free(rows);
    free(s);
    (void)jet_db_write_rollback(db);
    return rc;
}

/* ------------------------------------------------------------ checking */

static uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Hash of one value (type, NULL, and its bytes as the reader gives them;
 * text as UTF-8). */
static bool hash_value(jet_db *db, const jet_value *x, uint64_t *h,
                       char **buf, size_t *cap)
{
    uint8_t t = (uint8_t)x->type;
    *h = fnv64(*h, &t, 1);
    if (x->type == JET_T_BOOL) {
        uint8_t b = !x->is_null && x->u.b;
        *h = fnv64(*h, &b, 1);
        return true;
    }
    if (x->is_null) {
        *h = fnv64(*h, "\xffNULL", 5);
        return true;
    }
    switch (x->type) {
    case JET_T_TEXT: case JET_T_MEMO: {
        size_t u8 = 0;
        if (jet_text_to_utf8(db, x, NULL, 0, &u8) != JET_OK)
            return false;
        if (u8 + 1 > *cap) {
            char *nb = realloc(*buf, u8 + 1);
            if (!nb)
                return false;
            *buf = nb;
            *cap = u8 + 1;
        }
        if (jet_text_to_utf8(db, x, *buf, *cap, &u8) != JET_OK)
            return false;
        *h = fnv64(*h, &u8, sizeof u8);
        *h = fnv64(*h, *buf, u8);
        return true;
    }
    case JET_T_OLE: case JET_T_BINARY: case JET_T_EXT_DATETIME:
        *h = fnv64(*h, &x->len, sizeof x->len);
        *h = fnv64(*h, x->data, x->len);
        return true;
    case JET_T_DOUBLE: case JET_T_DATETIME:
        *h = fnv64(*h, &x->u.d, 8);
        return true;
    case JET_T_FLOAT:
        *h = fnv64(*h, &x->u.f, sizeof x->u.f);
        return true;
    case JET_T_MONEY:
        *h = fnv64(*h, &x->u.money, 8);
        return true;
    case JET_T_GUID:
        *h = fnv64(*h, x->u.guid, 16);
        return true;
    default:
        *h = fnv64(*h, &x->u.i, 8);
        return true;
    }
}

uint64_t cd_content_hash(jet_db *db, bool mask_auto, uint64_t *rows,
                         bool *ok)
{
    uint64_t total = 0xCBF29CE484222325ull, nrows = 0;
    char *buf = NULL;
    size_t cap = 0;
    *ok = false;
    if (jet_db_read_begin(db) != JET_OK)
        return 0;
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_scan *sc;
        uint64_t *hs = NULL;
        size_t n = 0, hcap = 0;
        uint32_t count = 0;
        jet_rc rc;
        if (o->kind != JET_OBJ_TABLE)
            continue;
        if (jet_tdef_load(&t, db, o) != JET_OK ||
            jet_scan_open(&sc, db, t, NULL) != JET_OK)
            goto out;
        while ((rc = jet_scan_next(sc)) == JET_OK) {
            uint64_t h = 0xCBF29CE484222325ull;
            for (uint16_t c = 0; c < t->ncols; c++) {
                jet_value x;
                if (mask_auto && (t->cols[c].flags & JET_COL_AUTONUMBER))
                    continue;
                if (jet_scan_value(sc, c, &x) != JET_OK ||
                    !hash_value(db, &x, &h, &buf, &cap)) {
                    rc = JET_ECORRUPT;
                    break;
                }
            }
            if (rc != JET_OK)
                break;
            if (n == hcap) {
                uint64_t *w = realloc(hs, (hcap ? 2 * hcap : 1024) *
                                              sizeof *hs);
                if (!w) {
                    rc = JET_ENOMEM;
                    break;
                }
                hs = w;
                hcap = hcap ? 2 * hcap : 1024;
            }
            hs[n++] = h;
        }
        /* COUNT(*) answers from the TDEF: it must agree */
        if (rc != JET_DONE || jet_table_row_count(db, t, &count) != JET_OK ||
            count != n) {
            fprintf(stderr, "content of %s: rc %d (%s), %zu rows scanned, "
                    "the TDEF counts %u\n", o->name, (int)rc,
                    rc == JET_DONE ? "" : jet_scan_error(sc)->msg, n,
                    (unsigned)count);
            jet_scan_close(sc);
            free(hs);
            goto out;
        }
        jet_scan_close(sc);
        if (n > 0)              /* an empty table has no array */
            qsort(hs, n, sizeof *hs, cmp_u64);
        total = fnv64(total, o->name, strlen(o->name) + 1);
        total = fnv64(total, &n, sizeof n);
        if (n > 0)
            total = fnv64(total, hs, n * sizeof *hs);
        nrows += n;
        free(hs);
    }
    *ok = true;
out:
    jet_db_read_end(db);
    free(buf);
    if (rows)
        *rows = nrows;
    return *ok ? total : 0;
}

uint64_t cd_file_hash(const char *path, bool mask_auto)
{
    jet_db *db;
    jet_error err;
    bool ok;
    uint64_t h;
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "open %s: %s",
                  path, err.msg);
    h = cd_content_hash(db, mask_auto, NULL, &ok);
    ck_assert_msg(ok, "reading %s failed", path);
    jet_db_close(db);
    return h;
}

static void print_problem(void *ctx, uint32_t pgno, const char *table,
                          const char *msg)
{
    unsigned *shown = ctx;
    if ((*shown)++ < 10)
        fprintf(stderr, "check: page %u, table %s: %s\n", pgno,
                table ? table : "-", msg);
}

unsigned cd_check(jet_db *db)
{
    jet_check_stats st;
    unsigned shown = 0;
    jet_rc rc = jet_db_check(db, print_problem, &shown, &st);
    if (rc != JET_OK) {
        fprintf(stderr, "check: rc %d\n", (int)rc);
        return 1;
    }
    return st.problems;
}

int cd_jetcheck(const char *path)
{
    char tool[1024], cmd[2400], out[1100];
    snprintf(tool, sizeof tool, "%s/tools/jetcheck/jetcheck",
             jet_shared_dir());
    if (access(tool, X_OK) != 0 ||
        system("command -v java >/dev/null 2>&1") != 0)
        return -1;
    snprintf(out, sizeof out, "%s.jetcheck", path);
    snprintf(cmd, sizeof cmd, "'%s' verify '%s' >'%s' 2>&1", tool, path,
             out);
    if (system(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "head -c 4000 '%s' >&2", out);
        (void)system(cmd);
        unlink(out);
        return 0;
    }
    unlink(out);
    return 1;
}

uint8_t *cd_slurp(const char *path, size_t *len)
{
    return jet_test_slurp(path, len);
}

void cd_put(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(b, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

bool cd_same(const char *path, const uint8_t *b, size_t len)
{
    size_t n;
    uint8_t *x = jet_test_slurp(path, &n);
    bool same = x && n == len && memcmp(x, b, len) == 0;
    free(x);
    return same;
}

unsigned cd_env_count(const char *name, unsigned def)
{
    const char *e = getenv(name);
    return e && atoi(e) > 0 ? (unsigned)atoi(e) : def;
}

bool cd_in_ci(void)
{
    const char *e = getenv("CI");
    return e && *e && strcmp(e, "false") != 0 && strcmp(e, "0") != 0;
}

double cd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
