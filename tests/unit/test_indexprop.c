/*
 * test_indexprop.c - property test of the write path's index upkeep
 * (issue 25, acceptance 2): random inserts, updates and deletes through
 * core/write.h (random keys, NULLs, accents, case, spaces and punctuation
 * in text keys, empty and 255-character strings, duplicates) on tables of
 * every index kind, and after each batch every index gives exactly the
 * rows a full scan gives.
 *
 * Cases: files made by the project's own writer (core/newfile.c), a
 * Jet4 .mdb (text in General - Legacy) and an ACE 2010 .accdb (General),
 * one table per key type (BYTE, INT, LONG, DOUBLE, SINGLE, CURRENCY,
 * DATETIME, GUID, TEXT): a LONG primary key, a plain ascending index and
 * a unique descending one on two columns of that type; a table of
 * compound indexes (mixed ascending/descending, a unique one, text in the
 * middle) and one whose primary key is compound; and copies of public
 * fixture tables (compound unique text+long, a GUID primary key, a
 * descending index over existing rows). Decimal is not generated (the
 * writer has no NUMERIC column).
 *
 * Each operation's outcome is predicted by a model of the table (its
 * rows, their values and index keys): JET_EDUPLICATE exactly when a
 * unique index or primary key already holds the key (a key of NULLs
 * only excepted), JET_ECONSTRAINT for a NULL in a primary key, JET_OK
 * otherwise; a refused statement is rolled back to its savepoint. Batches
 * run in one transaction (committed, or now and then rolled back whole:
 * the model goes back too) or as autocommit statements. After each batch:
 *   - a full scan gives the model's rows and values, the TDEF row count;
 *   - every physical index, walked forwards and backwards, holds exactly
 *     the (key, row) entries of the scanned rows, in key order;
 *   - seeks (jet_index_seek/set_upper) for many random keys - equality on
 *     every seekable prefix, ranges with each bound kind, text keys and
 *     text prefixes and text ranges - give the rows whose values match
 *     (text seeks may give more, as jet.h says: never fewer);
 *   - jet_db_check finds no problem and `jetcheck verify` reports none;
 *   - a duplicate insert and update on the committed file are refused
 *     and leave it byte-for-byte unchanged.
 *
 * Seeds: JET_INDEXPROP_SEED=N (default fixed, so CI repeats itself;
 * "random" picks one); every case prints its seed and a failure names
 * it: JET_INDEXPROP_SEED=N JET_INDEXPROP_CASE=name replays one case.
 * JET_INDEXPROP_LONG=1: 10,000 operations per case in batches of 1,000
 * (the default: 800 in batches of 400, well inside CI's budget).
 * Needs the shared folder for the fixture cases and jetcheck (skipped
 * with a message when absent); the generated cases always run.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "encode.h"
#include "index.h"
#include "internal.h"
#include "unit.h"
#include "write.h"
#include "newfile.h"
#include "../shared_dir.h"
#include "../slurp.h"

#define KEYCAP 2048
#define MAXIDX 16

/* ------------------------------------------------------------ settings */

static unsigned ops_per_case = 800, batch_ops = 400;
static uint64_t base_seed = 20261203;
static const char *only_case;

static void settings(void)
{
    const char *l = getenv("JET_INDEXPROP_LONG"), *s;
    if (l && *l && strcmp(l, "0") != 0) {
        ops_per_case = 10000;
        batch_ops = 1000;
    }
    s = getenv("JET_INDEXPROP_SEED");
    if (s && strcmp(s, "random") == 0)
        base_seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    else if (s && *s)
        base_seed = strtoull(s, NULL, 10);
    only_case = getenv("JET_INDEXPROP_CASE");
}

static uint64_t rng;
static const char *case_name = "";
static uint64_t case_seed;

static uint32_t rnd(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 16);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

#define FAIL_IF(cond, ...)                                                  \
    do {                                                                    \
        if (cond) {                                                         \
            fprintf(stderr, "indexprop: case %s, replay with "             \
                    "JET_INDEXPROP_SEED=%" PRIu64 " JET_INDEXPROP_CASE=%s\n", \
                    case_name, base_seed, case_name);                       \
            ck_abort_msg(__VA_ARGS__);                                      \
        }                                                                   \
    } while (0)

/* ------------------------------------------------------------- files */

static const char *shared_file(const char *rel)
{
    static char buf[4][1024];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, sizeof buf[0], "%s/fixtures/public/%s", jet_shared_dir(), rel);
    return access(b, R_OK) == 0 ? b : NULL;
}

static void temp_path(char *path, size_t cap, const char *ext)
{
    int fd;
    snprintf(path, cap, "/tmp/jet_iprop_XXXXXX%s", ext);
    fd = mkstemps(path, (int)strlen(ext));
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void copy_file(const char *dst, const char *src)
{
    size_t len;
    uint8_t *buf = jet_test_slurp(src, &len);
    FILE *f = fopen(dst, "wb");
    ck_assert_ptr_nonnull(buf);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
}

static void remove_db(const char *path)
{
    char j[1100];
    snprintf(j, sizeof j, "%s-journal", path);
    unlink(path);
    unlink(j);
}

static bool jetcheck_ok = true;
static unsigned jetcheck_runs;

static void jetcheck_verify(const char *path)
{
    char tool[1024], cmd[2300];
    if (!jetcheck_ok)
        return;
    snprintf(tool, sizeof tool, "%s/tools/jetcheck/jetcheck",
             jet_shared_dir());
    if (access(tool, X_OK) != 0 || system("command -v java >/dev/null") != 0) {
        fprintf(stderr, "indexprop: jetcheck or java not found: verify "
                "skipped\n");
        jetcheck_ok = false;
        return;
    }
    snprintf(cmd, sizeof cmd, "'%s' verify '%s' >/tmp/jet_iprop_jc.txt "
             "2>&1", tool, path);
    jetcheck_runs++;
    if (system(cmd) != 0) {
        (void)system("cat /tmp/jet_iprop_jc.txt >&2");
        FAIL_IF(true, "jetcheck verify failed on %s", path);
    }
}

/* The generated file: newfile.c tables of every key kind. */
static const struct { const char *name; jw_type type; unsigned len; }
    kinds[] = {
        { "k_byte", JW_BYTE, 0 }, { "k_int", JW_INT, 0 },
        { "k_long", JW_LONG, 0 }, { "k_double", JW_DOUBLE, 0 },
        { "k_single", JW_FLOAT, 0 }, { "k_currency", JW_MONEY, 0 },
        { "k_date", JW_DATETIME, 0 }, { "k_guid", JW_GUID, 0 },
        { "k_text", JW_TEXT, 255 },
    };

static void write_generated(const char *path, jw_format fmt)
{
    char err[256];
    jw_db *db = jw_create(path, fmt, err, sizeof err);
    jw_table *t;
    ck_assert_msg(db != NULL, "%s", err);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        jw_coldef cols[5] = {
            { "id", JW_LONG, 0, 0 },
            { "a", kinds[k].type, kinds[k].len, 1 },
            { "b", kinds[k].type, kinds[k].len ? 40 : 0, 1 },
            { "p", JW_TEXT, 30, 1 },
            { "m", JW_MEMO, 0, 1 },
        };
        jw_idxdef idx[3];
        memset(idx, 0, sizeof idx);
        idx[0].name = "PrimaryKey";
        idx[0].col = 0;
        idx[0].primary = idx[0].unique = 1;
        idx[1].name = "a_asc";
        idx[1].col = 1;
        idx[2].name = "b_udesc";
        idx[2].col = 2;
        idx[2].unique = idx[2].desc = 1;
        t = jw_table_begin(db, kinds[k].name, cols, 5, idx, 3);
        ck_assert_msg(t != NULL, "%s", jw_error(db));
        ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    }
    {
        /* compound indexes: mixed directions, text inside, unique */
        jw_coldef cols[7] = {
            { "id", JW_LONG, 0, 0 }, { "x", JW_LONG, 0, 0 },
            { "y", JW_TEXT, 30, 1 }, { "z", JW_DATETIME, 0, 0 },
            { "w", JW_DOUBLE, 0, 0 }, { "g", JW_GUID, 0, 0 },
            { "s", JW_INT, 0, 0 },
        };
        jw_idxdef idx[5];
        jw_idxmore more[5];
        memset(idx, 0, sizeof idx);
        memset(more, 0, sizeof more);
        idx[0].name = "PrimaryKey";
        idx[0].primary = idx[0].unique = 1;
        idx[1].name = "x_zd_s";          /* x, z DESC, s */
        idx[1].col = 1;
        more[1].n = 2;
        more[1].col[0] = 3;
        more[1].desc[0] = 1;
        more[1].col[1] = 6;
        idx[2].name = "u_wd_s";          /* UNIQUE w DESC, s */
        idx[2].col = 4;
        idx[2].desc = 1;
        idx[2].unique = 1;
        more[2].n = 1;
        more[2].col[0] = 6;
        idx[3].name = "s_yd_x";          /* s, y DESC, x */
        idx[3].col = 6;
        more[3].n = 2;
        more[3].col[0] = 2;
        more[3].desc[0] = 1;
        more[3].col[1] = 1;
        idx[4].name = "g_x";             /* g, x DESC */
        idx[4].col = 5;
        more[4].n = 1;
        more[4].col[0] = 1;
        more[4].desc[0] = 1;
        t = jw_table_begin_compound(db, "k_compound", cols, 7, idx, more, 5);
        ck_assert_msg(t != NULL, "%s", jw_error(db));
        ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    }
    {
        /* a compound primary key: text ascending, then LONG descending */
        jw_coldef cols[3] = {
            { "k1", JW_TEXT, 20, 1 }, { "k2", JW_LONG, 0, 0 },
            { "v", JW_MONEY, 0, 0 },
        };
        jw_idxdef idx[2];
        jw_idxmore more[2];
        memset(idx, 0, sizeof idx);
        memset(more, 0, sizeof more);
        idx[0].name = "PrimaryKey";
        idx[0].primary = idx[0].unique = 1;
        more[0].n = 1;
        more[0].col[0] = 1;
        more[0].desc[0] = 1;
        idx[1].name = "v";
        idx[1].col = 2;
        t = jw_table_begin_compound(db, "k_pk2", cols, 3, idx, more, 2);
        ck_assert_msg(t != NULL, "%s", jw_error(db));
        ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    }
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
}

/* ------------------------------------------------------------- model */

/* One row as the model keeps it: values (spans into blob) and keys. */
typedef struct mrow {
    jet_rowid id;
    jet_value *v;           /* ncols */
    uint8_t *blob;          /* text/binary bytes of v */
    uint8_t *key[MAXIDX];   /* per physical index (NULL: no entry) */
    size_t klen[MAXIDX];
} mrow;

typedef struct pix {
    uint16_t no;            /* logical index used for it */
} pix;

typedef struct model {
    jet_db *db;
    const jet_tdef *t;
    pix px[MAXIDX];
    size_t npx;
    mrow *r;
    size_t n, cap;
} model;

/* How many UTF-16 units a TEXT/MEMO value has (model values: UCS2). */
static bool is_text(jet_type t) { return t == JET_T_TEXT || t == JET_T_MEMO; }
static bool is_span(jet_type t)
{
    return is_text(t) || t == JET_T_BINARY || t == JET_T_OLE;
}

/* Copy vals (model form: text as UTF-16LE) into r. */
static void mrow_set(mrow *r, const jet_tdef *t, const jet_value *vals)
{
    size_t total = 0, pos = 0;
    free(r->blob);
    if (!r->v)
        r->v = calloc(t->ncols, sizeof *r->v);
    for (uint16_t c = 0; c < t->ncols; c++)
        if (!vals[c].is_null && is_span(t->cols[c].type))
            total += vals[c].len;
    r->blob = malloc(total + 1);
    for (uint16_t c = 0; c < t->ncols; c++) {
        r->v[c] = vals[c];
        if (!vals[c].is_null && is_span(t->cols[c].type)) {
            memcpy(r->blob + pos, vals[c].data, vals[c].len);
            r->v[c].data = r->blob + pos;
            pos += vals[c].len;
        }
    }
}

static void mrow_free(mrow *r, size_t npx)
{
    free(r->v);
    free(r->blob);
    for (size_t j = 0; j < npx; j++)
        free(r->key[j]);
    memset(r, 0, sizeof *r);
}

static void mrow_copy(mrow *dst, const mrow *src, const jet_tdef *t,
                      size_t npx)
{
    memset(dst, 0, sizeof *dst);
    dst->id = src->id;
    mrow_set(dst, t, src->v);
    for (size_t j = 0; j < npx; j++) {
        dst->klen[j] = src->klen[j];
        if (src->key[j]) {
            dst->key[j] = malloc(src->klen[j] + 1);
            memcpy(dst->key[j], src->key[j], src->klen[j]);
        }
    }
}

/* Whether index ix has an entry for a row with values v. */
static bool has_entry(const jet_tdef *t, const jet_index *ix,
                      const jet_value *v)
{
    bool all_null = true;
    for (uint16_t k = 0; k < ix->ncols; k++)
        if (t->cols[ix->cols[k].col].type != JET_T_BOOL &&
            !v[ix->cols[k].col].is_null)
            all_null = false;
    return !(ix->ignore_nulls && all_null);
}

static bool key_all_null(const jet_tdef *t, const jet_index *ix,
                         const jet_value *v)
{
    for (uint16_t k = 0; k < ix->ncols; k++)
        if (t->cols[ix->cols[k].col].type != JET_T_BOOL &&
            !v[ix->cols[k].col].is_null)
            return false;
    return true;
}

/* Compute r's keys from its values; false when one cannot be encoded. */
static bool mrow_keys(model *m, mrow *r)
{
    uint8_t key[KEYCAP];
    for (size_t j = 0; j < m->npx; j++) {
        const jet_index *ix = &m->t->indexes[m->px[j].no];
        size_t kl;
        free(r->key[j]);
        r->key[j] = NULL;
        r->klen[j] = 0;
        if (jet_index_row_key(key, sizeof key, &kl, m->db, m->t, ix, r->v) !=
            JET_OK)
            return false;
        if (!has_entry(m->t, ix, r->v))
            continue;
        r->key[j] = malloc(kl + 1);
        memcpy(r->key[j], key, kl);
        r->klen[j] = kl;
    }
    return true;
}

static void model_init(model *m, jet_db *db, const jet_tdef *t)
{
    memset(m, 0, sizeof *m);
    m->db = db;
    m->t = t;
    for (uint16_t k = 0; k < t->nindexes; k++) {
        bool seen = false;
        for (size_t j = 0; j < m->npx; j++)
            seen |= t->indexes[m->px[j].no].first_pgno ==
                    t->indexes[k].first_pgno;
        if (!seen) {
            ck_assert_uint_lt(m->npx, MAXIDX);
            m->px[m->npx++].no = k;
        }
    }
}

static void model_free(model *m)
{
    for (size_t i = 0; i < m->n; i++)
        mrow_free(&m->r[i], m->npx);
    free(m->r);
    m->r = NULL;
    m->n = m->cap = 0;
}

static void model_copy(model *dst, const model *src)
{
    *dst = *src;
    dst->r = malloc((src->n + 1) * sizeof *dst->r);
    dst->cap = src->n + 1;
    for (size_t i = 0; i < src->n; i++)
        mrow_copy(&dst->r[i], &src->r[i], src->t, src->npx);
}

static mrow *model_add(model *m)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 256;
        m->r = realloc(m->r, m->cap * sizeof *m->r);
    }
    memset(&m->r[m->n], 0, sizeof m->r[0]);
    return &m->r[m->n++];
}

static void model_remove(model *m, size_t i)
{
    mrow_free(&m->r[i], m->npx);
    m->r[i] = m->r[m->n - 1];
    m->n--;
}

/* The row of m whose unique index j holds key (excluding row skip). */
static bool model_dup(const model *m, size_t j, const uint8_t *key,
                      size_t klen, const mrow *skip)
{
    for (size_t i = 0; i < m->n; i++) {
        const mrow *r = &m->r[i];
        if (r == skip || !r->key[j] || r->klen[j] != klen)
            continue;
        if (memcmp(r->key[j], key, klen) == 0)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------ values */

/* Text pools: base words whose case and accents vary, so many keys are
 * equal or nearly equal in General sort order. */
static const char *const words[] = {
    "apple", "Apfel", "zebra", "o'neil", "co-op", "coop", "naive",
    "resume", "abc", "ABC", "a b", "a-b", "ab", "x.y", "straße", "strasse",
};
static const uint16_t accents[] = {
    0xE9, 0xC9, 0xE8, 0xF1, 0xD1, 0xFC, 0xDC, 0xE7, 0xDF, 0xE5, 0xC5, 0xF8,
    0xE6, 0x153, 0xE0, 0xEF, 0xF4,
};
static const char punct[] = " -'.,!&()/_";

static size_t utf8_to_units(uint16_t *u, size_t cap, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n < cap;) {
        uint32_t c = *p++;
        if (c >= 0xC0 && c < 0xE0 && *p)
            c = (c & 0x1F) << 6 | (*p++ & 0x3F);
        u[n++] = (uint16_t)c;
    }
    return n;
}

static uint16_t vary(uint16_t c)
{
    if (c < 128 && c >= 'a' && c <= 'z' && below(3) == 0)
        return (uint16_t)(c - 32);
    if (c < 128 && c >= 'A' && c <= 'Z' && below(3) == 0)
        return (uint16_t)(c + 32);
    if ((c == 'e' || c == 'a' || c == 'o' || c == 'u') && below(6) == 0)
        return accents[below(sizeof accents / sizeof accents[0])];
    return c;
}

/* Random text of at most max units into u; returns its length. Keys
 * collide often (pool words varied in case/accents), some texts are
 * empty, spaces only, or fill the column. A character the sort order
 * cannot encode (CJK) comes with probability 1/cjk (0 = never). */
static size_t gen_text(uint16_t *u, size_t max, unsigned cjk)
{
    size_t n = 0;
    uint32_t r = below(100);
    if (max == 0)
        return 0;
    if (r < 5)
        return 0;
    if (r < 7) {
        n = 1 + below(3);
        for (size_t i = 0; i < n && i < max; i++)
            u[i] = ' ';
        return n < max ? n : max;
    }
    if (r < 12) {
        n = max - below(max < 8 ? max : 8);
        for (size_t i = 0; i < n; i++) {
            uint32_t k = below(40);
            u[i] = k < 26 ? (uint16_t)('a' + k) :
                   k < 30 ? (uint16_t)punct[below(sizeof punct - 1)] :
                   k < 35 ? accents[below(sizeof accents / sizeof accents[0])]
                          : (uint16_t)('A' + below(26));
        }
    } else if (r < 70) {
        const char *w = words[below(sizeof words / sizeof words[0])];
        n = utf8_to_units(u, max, w);
        for (size_t i = 0; i < n; i++)
            u[i] = vary(u[i]);
        if (below(4) == 0 && n < max)
            u[n++] = (uint16_t)punct[below(sizeof punct - 1)];
        if (below(5) == 0 && n < max)
            u[n++] = (uint16_t)('0' + below(10));
        if (below(8) == 0 && n < max)
            u[n++] = ' ';
    } else {
        n = 1 + below(max < 14 ? (uint32_t)max : 14);
        for (size_t i = 0; i < n; i++) {
            uint32_t k = below(40);
            u[i] = k < 26 ? (uint16_t)('a' + k) :
                   k < 30 ? (uint16_t)punct[below(sizeof punct - 1)] :
                   k < 33 ? accents[below(sizeof accents / sizeof accents[0])]
                          : (uint16_t)('A' + below(26));
        }
    }
    if (cjk && below(cjk) == 0 && n > 0)
        u[below((uint32_t)n)] = (uint16_t)(0x4E00 + below(500));
    return n;
}

/* A row being built: values and their storage. */
typedef struct rowbuf {
    jet_value v[256];
    uint8_t data[256][600];
    uint8_t memo[8200];
} rowbuf;

static bool col_indexed(const jet_tdef *t, uint16_t c)
{
    for (uint16_t k = 0; k < t->nindexes; k++)
        for (uint16_t i = 0; i < t->indexes[k].ncols; i++)
            if (t->indexes[k].cols[i].col == c)
                return true;
    return false;
}

/* A random value for column c of t into b->v[c]. small: from a small
 * domain (many duplicates). */
static void gen_value(rowbuf *b, const jet_tdef *t, uint16_t c)
{
    const jet_column *col = &t->cols[c];
    jet_value *v = &b->v[c];
    bool small = below(2) == 0;
    memset(v, 0, sizeof *v);
    v->type = col->type;
    if (col->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID)) {
        v->is_null = true;
        return;
    }
    if (col->type != JET_T_BOOL && below(12) == 0 &&
        !(col->flags & JET_COL_REQUIRED)) {
        v->is_null = true;
        return;
    }
    switch (col->type) {
    case JET_T_BOOL: v->u.b = below(2) != 0; break;
    case JET_T_BYTE: v->u.i = small ? below(8) : below(256); break;
    case JET_T_INT:
        v->u.i = small ? (int64_t)below(40) - 20 : (int64_t)below(65536) - 32768;
        break;
    case JET_T_LONG:
        switch (below(4)) {
        case 0: v->u.i = (int64_t)below(100) - 50; break;
        case 1: v->u.i = below(2) ? INT32_MAX - (int64_t)below(3)
                                  : INT32_MIN + (int64_t)below(3); break;
        default: v->u.i = (int32_t)rnd() ^ (int32_t)(rnd() << 16); break;
        }
        break;
    case JET_T_BIGINT:
        v->u.i = small ? (int64_t)below(50) : (int64_t)((uint64_t)rnd() << 32 | rnd());
        break;
    case JET_T_MONEY:
        v->u.money = small ? ((int64_t)below(20) - 10) * 2500
                           : ((int64_t)rnd() << 16 ^ rnd()) - ((int64_t)1 << 40);
        break;
    case JET_T_FLOAT:
        v->u.f = small ? (float)((int)below(20) - 10) / 4.0f
                       : (float)((double)rnd() / 3.0 - 7e8) * (below(2) ? 1e-3f : 1e3f);
        break;
    case JET_T_DOUBLE:
        v->u.d = small ? (double)((int)below(20) - 10) / 8.0
                       : ((double)rnd() - 2147483648.0) *
                             pow(10.0, (double)below(40) - 20.0);
        break;
    case JET_T_DATETIME: {
        /* whole seconds, years 100..9999; before 1899-12-30 Jet's
         * day - time form */
        int64_t day = small ? (int64_t)below(10) - 5
                            : (int64_t)below(2958465 + 657434) - 657434;
        double tm = small && below(2) ? 0.0 : (double)below(86400) / 86400.0;
        v->u.d = day < 0 ? (double)day - tm : (double)day + tm;
        break;
    }
    case JET_T_GUID:
        for (int i = 0; i < 16; i++)
            v->u.guid[i] = (uint8_t)(small ? (i == 15 ? below(6) : 0x11u * (uint32_t)(i % 3))
                                           : rnd());
        break;
    case JET_T_TEXT: {
        uint16_t u[256];
        size_t max = col->length / 2 > 255 ? 255 : col->length / 2;
        size_t n = gen_text(u, max, col_indexed(t, c) ? 60 : 0);
        for (size_t i = 0; i < n; i++) {
            b->data[c][2 * i] = (uint8_t)u[i];
            b->data[c][2 * i + 1] = (uint8_t)(u[i] >> 8);
        }
        v->enc = JET_ENC_UCS2;
        v->data = b->data[c];
        v->len = 2 * n;
        break;
    }
    case JET_T_MEMO: {
        uint16_t u[256];
        size_t n = gen_text(u, 200, 0);
        if (below(30) == 0) {           /* over a page */
            size_t big = 2100 + below(2000);
            for (size_t i = 0; i < big; i++) {
                uint16_t ch = (uint16_t)(i % 7 == 0 ? 0x20AC : 'a' + (i * 7 + rnd() % 3) % 26);
                b->memo[2 * i] = (uint8_t)ch;
                b->memo[2 * i + 1] = (uint8_t)(ch >> 8);
            }
            v->len = 2 * big;
        } else {
            for (size_t i = 0; i < n; i++) {
                b->memo[2 * i] = (uint8_t)u[i];
                b->memo[2 * i + 1] = (uint8_t)(u[i] >> 8);
            }
            v->len = 2 * n;
        }
        v->enc = JET_ENC_UCS2;
        v->data = b->memo;
        break;
    }
    case JET_T_BINARY: {
        size_t n = below((uint32_t)(col->length < 60 ? col->length : 60) + 1);
        for (size_t i = 0; i < n; i++)
            b->data[c][i] = (uint8_t)rnd();
        v->data = b->data[c];
        v->len = n;
        break;
    }
    case JET_T_OLE: {
        size_t n = below(300);
        for (size_t i = 0; i < n; i++)
            b->data[c][i] = (uint8_t)rnd();
        v->data = b->data[c];
        v->len = n;
        break;
    }
    default:
        v->is_null = true;      /* NUMERIC and others: not generated */
        break;
    }
}

static bool generatable(const jet_tdef *t)
{
    for (uint16_t c = 0; c < t->ncols; c++) {
        jet_type ty = t->cols[c].type;
        if ((ty == JET_T_NUMERIC || ty > JET_T_BIGINT || ty == JET_T_UNKNOWN_0D
             || ty == JET_T_UNKNOWN_0E || ty == JET_T_UNKNOWN_11) &&
            (t->cols[c].flags & JET_COL_REQUIRED))
            return false;
    }
    return t->ncols <= 256;
}

/* Whether a text value of an indexed column has a character the sort
 * order cannot encode (the write is refused: JET_EUNSUPPORTED). */
static bool unencodable(model *m, const jet_value *v)
{
    uint8_t key[KEYCAP];
    size_t kl;
    for (size_t j = 0; j < m->npx; j++)
        if (jet_index_row_key(key, sizeof key, &kl, m->db, m->t,
                              &m->t->indexes[m->px[j].no], v) ==
            JET_EUNSUPPORTED)
            return true;
    return false;
}

/* A NULL in a primary key / Required index column. */
static bool null_in_pk(const jet_tdef *t, const jet_value *v)
{
    for (uint16_t k = 0; k < t->nindexes; k++) {
        const jet_index *ix = &t->indexes[k];
        if (!ix->primary_key && !ix->required)
            continue;
        for (uint16_t i = 0; i < ix->ncols; i++) {
            const jet_column *col = &t->cols[ix->cols[i].col];
            if (col->type != JET_T_BOOL && v[ix->cols[i].col].is_null &&
                !(col->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID)))
                return true;
        }
    }
    for (uint16_t c = 0; c < t->ncols; c++)
        if ((t->cols[c].flags & JET_COL_REQUIRED) && v[c].is_null &&
            !(t->cols[c].flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID)))
            return true;
    return false;
}

/* An empty text where the column's AllowZeroLength is No (the core
 * refuses it as it refuses a NULL in a Required column). */
static bool zero_length(jet_db *db, const jet_tdef *t, const jet_value *v)
{
    const jet_table_props *p = NULL;
    ck_assert_int_eq(jet_table_props_get(db, t, &p), JET_OK);
    for (uint16_t c = 0; c < t->ncols && c < p->ncols; c++)
        if (p->cols[c].no_zero_length && !v[c].is_null && v[c].len == 0 &&
            (t->cols[c].type == JET_T_TEXT || t->cols[c].type == JET_T_MEMO))
            return true;
    return false;
}

/* Whether v would duplicate a unique key of another model row. */
static bool would_dup(model *m, const jet_value *v, const mrow *skip)
{
    uint8_t key[KEYCAP];
    size_t kl;
    for (size_t j = 0; j < m->npx; j++) {
        const jet_index *ix = &m->t->indexes[m->px[j].no];
        if (!(ix->unique || ix->primary_key) || key_all_null(m->t, ix, v))
            continue;
        if (jet_index_row_key(key, sizeof key, &kl, m->db, m->t, ix, v) !=
            JET_OK)
            continue;
        if (model_dup(m, j, key, kl, skip))
            return true;
    }
    return false;
}

/* ----------------------------------------------------------- operations */

typedef struct stats {
    unsigned ins, upd, del, dup, nulls, unenc, ok;
    unsigned seeks, batches, rolled;
} stats;

static const char *rc_name(jet_rc rc)
{
    switch (rc) {
    case JET_OK: return "JET_OK";
    case JET_EDUPLICATE: return "JET_EDUPLICATE";
    case JET_ECONSTRAINT: return "JET_ECONSTRAINT";
    case JET_EUNSUPPORTED: return "JET_EUNSUPPORTED";
    default: return "another error";
    }
}

/* Check rc against what the model predicts; true when the op landed. */
static bool judge(model *m, jet_rc rc, bool nul, bool unenc, bool dup,
                  stats *st, const char *what)
{
    bool ok = rc == JET_OK;
    bool allowed = (!nul && !unenc && !dup && ok) ||
                   (nul && rc == JET_ECONSTRAINT) ||
                   (unenc && rc == JET_EUNSUPPORTED) ||
                   (dup && rc == JET_EDUPLICATE);
    FAIL_IF(!allowed, "%s: %s (%s), model expected null=%d unencodable=%d "
            "duplicate=%d", what, rc_name(rc), jet_db_error(m->db)->msg, nul,
            unenc, dup);
    if (rc == JET_EDUPLICATE)
        st->dup++;
    else if (rc == JET_ECONSTRAINT)
        st->nulls++;
    else if (rc == JET_EUNSUPPORTED)
        st->unenc++;
    else
        st->ok++;
    return ok;
}

/* New values for a row: all columns (insert) or a few (update, from old). */
static void gen_row(rowbuf *b, model *m, const mrow *old)
{
    const jet_tdef *t = m->t;
    if (!old) {
        for (uint16_t c = 0; c < t->ncols; c++)
            gen_value(b, t, c);
        /* mostly fresh primary keys: a row gets in */
        for (uint16_t k = 0; k < t->nindexes; k++) {
            const jet_index *ix = &t->indexes[k];
            if (!ix->primary_key)
                continue;
            for (uint16_t i = 0; i < ix->ncols; i++) {
                jet_value *v = &b->v[ix->cols[i].col];
                if (below(60) == 0)
                    v->is_null = true;
                else if (v->type == JET_T_LONG && below(4) != 0) {
                    v->is_null = false;
                    v->u.i = (int32_t)rnd();
                }
            }
        }
        return;
    }
    for (uint16_t c = 0; c < t->ncols; c++) {
        b->v[c] = old->v[c];
        if (!old->v[c].is_null && is_span(t->cols[c].type)) {
            uint8_t *dst = t->cols[c].type == JET_T_MEMO ? b->memo : b->data[c];
            size_t cap = t->cols[c].type == JET_T_MEMO ? sizeof b->memo
                                                       : sizeof b->data[c];
            ck_assert_uint_le(old->v[c].len, cap);
            memcpy(dst, old->v[c].data, old->v[c].len);
            b->v[c].data = dst;
        }
    }
    {
        unsigned changes = 1 + below(3);
        for (unsigned i = 0; i < changes; i++) {
            uint16_t c = (uint16_t)below(t->ncols);
            if (t->cols[c].flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                continue;
            gen_value(b, t, c);
            if (below(4) == 0 && c < t->ncols) {
                /* take another row's value: a likely duplicate */
                const mrow *o = &m->r[below((uint32_t)m->n)];
                if (!is_span(t->cols[c].type) || o->v[c].is_null) {
                    if (!is_span(t->cols[c].type))
                        b->v[c] = o->v[c];
                } else if (o->v[c].len <= sizeof b->data[c] &&
                           t->cols[c].type != JET_T_MEMO) {
                    memcpy(b->data[c], o->v[c].data, o->v[c].len);
                    b->v[c] = o->v[c];
                    b->v[c].data = b->data[c];
                }
            }
        }
    }
}

static void op_insert(model *m, rowbuf *b, stats *st)
{
    jet_savepoint sp;
    jet_rowid id;
    jet_rc rc;
    bool nul, unenc, dup;
    gen_row(b, m, NULL);
    nul = null_in_pk(m->t, b->v) || zero_length(m->db, m->t, b->v);
    unenc = unencodable(m, b->v);
    dup = would_dup(m, b->v, NULL);
    st->ins++;
    ck_assert_int_eq(jet_db_savepoint(m->db, &sp), JET_OK);
    rc = jet_table_insert(m->db, m->t, b->v, &id);
    if (judge(m, rc, nul, unenc, dup, st, "insert")) {
        mrow *r = model_add(m);
        r->id = id;
        mrow_set(r, m->t, b->v);
        ck_assert(mrow_keys(m, r));
        for (size_t i = 0; i + 1 < m->n; i++)
            FAIL_IF(m->r[i].id.pgno == id.pgno && m->r[i].id.row == id.row,
                    "insert: row %u:%u given twice", id.pgno, id.row);
    } else {
        ck_assert_int_eq(jet_db_rollback_to(m->db, sp), JET_OK);
    }
    jet_db_release(m->db, sp);
}

static void op_update(model *m, rowbuf *b, stats *st)
{
    jet_savepoint sp;
    jet_rc rc;
    size_t i;
    bool nul, unenc, dup;
    if (m->n == 0)
        return;
    i = below((uint32_t)m->n);
    gen_row(b, m, &m->r[i]);
    nul = null_in_pk(m->t, b->v) || zero_length(m->db, m->t, b->v);
    unenc = unencodable(m, b->v);
    dup = would_dup(m, b->v, &m->r[i]);
    st->upd++;
    ck_assert_int_eq(jet_db_savepoint(m->db, &sp), JET_OK);
    rc = jet_table_update(m->db, m->t, m->r[i].id, b->v);
    if (judge(m, rc, nul, unenc, dup, st, "update")) {
        for (uint16_t c = 0; c < m->t->ncols; c++)   /* AutoNumbers stay */
            if (m->t->cols[c].flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                b->v[c] = m->r[i].v[c];
        mrow_set(&m->r[i], m->t, b->v);
        ck_assert(mrow_keys(m, &m->r[i]));
    } else {
        ck_assert_int_eq(jet_db_rollback_to(m->db, sp), JET_OK);
    }
    jet_db_release(m->db, sp);
}

static void op_delete(model *m, stats *st)
{
    size_t i;
    jet_rc rc;
    if (m->n == 0)
        return;
    i = below((uint32_t)m->n);
    st->del++;
    rc = jet_table_delete(m->db, m->t, m->r[i].id);
    FAIL_IF(rc != JET_OK, "delete %u:%u: %s", m->r[i].id.pgno,
            m->r[i].id.row, jet_db_error(m->db)->msg);
    st->ok++;
    model_remove(m, i);
}

/* --------------------------------------------------------------- checks */

static int rid_cmp(jet_rowid a, jet_rowid b)
{
    uint64_t x = (uint64_t)a.pgno << 16 | a.row, y = (uint64_t)b.pgno << 16 | b.row;
    return x < y ? -1 : x > y;
}

static int mrow_rid_q(const void *a, const void *b)
{
    return rid_cmp(((const mrow *)a)->id, ((const mrow *)b)->id);
}

static mrow *find_row(model *m, jet_rowid id)
{
    mrow k;
    k.id = id;
    return bsearch(&k, m->r, m->n, sizeof *m->r, mrow_rid_q);
}

/* Text value as UTF-16 units (model values are UCS2; scanned ones may be
 * compressed). */
static size_t units_of(jet_db *db, const jet_value *v, uint16_t *u,
                       size_t cap)
{
    size_t n = 0;
    if (v->enc == JET_ENC_UCS2) {
        n = v->len / 2;
        ck_assert_uint_le(n, cap);
        for (size_t i = 0; i < n; i++)
            u[i] = (uint16_t)(v->data[2 * i] | v->data[2 * i + 1] << 8);
        return n;
    }
    ck_assert_int_eq(jet_text_to_utf16(db, v, u, cap, &n), JET_OK);
    ck_assert_uint_le(n, cap);
    return n;
}

static bool values_same(jet_db *db, jet_type ty, const jet_value *a,
                        const jet_value *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null;
    switch (ty) {
    case JET_T_BOOL: return a->u.b == b->u.b;
    case JET_T_FLOAT: return a->u.f == b->u.f;
    case JET_T_DOUBLE: case JET_T_DATETIME: return a->u.d == b->u.d;
    case JET_T_MONEY: return a->u.money == b->u.money;
    case JET_T_GUID: return memcmp(a->u.guid, b->u.guid, 16) == 0;
    case JET_T_TEXT: case JET_T_MEMO: {
        static uint16_t ua[8192], ub[8192];
        size_t na = units_of(db, a, ua, 8192), nb = units_of(db, b, ub, 8192);
        return na == nb && memcmp(ua, ub, na * 2) == 0;
    }
    case JET_T_BINARY: case JET_T_OLE:
        return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        return a->u.i == b->u.i;
    default:
        return true;
    }
}

/* A scan gives the model's rows with its values; returns rows scanned. */
static void check_scan(model *m)
{
    jet_scan *s;
    jet_rc rc;
    size_t n = 0;
    uint32_t count;
    qsort(m->r, m->n, sizeof *m->r, mrow_rid_q);
    ck_assert_int_eq(jet_scan_open(&s, m->db, m->t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_rowid id;
        mrow *r;
        ck_assert_int_eq(jet_scan_position(s, &id.pgno, &id.row), JET_OK);
        r = find_row(m, id);
        FAIL_IF(r == NULL, "scan: row %u:%u is not in the model", id.pgno,
                id.row);
        for (uint16_t c = 0; c < m->t->ncols; c++) {
            jet_value v;
            jet_type ty = m->t->cols[c].type;
            if (ty == JET_T_NUMERIC || ty > JET_T_BIGINT)
                continue;
            ck_assert_int_eq(jet_scan_value(s, c, &v), JET_OK);
            FAIL_IF(!values_same(m->db, ty, &v, &r->v[c]),
                    "scan: row %u:%u column %s differs from what was "
                    "written", id.pgno, id.row, m->t->cols[c].name);
        }
        n++;
    }
    FAIL_IF(rc != JET_DONE, "scan: %s", jet_scan_error(s)->msg);
    jet_scan_close(s);
    FAIL_IF(n != m->n, "scan gives %zu rows, the model has %zu", n, m->n);
    ck_assert_int_eq(jet_table_row_count(m->db, m->t, &count), JET_OK);
    FAIL_IF(count != m->n, "TDEF row count %u, rows %zu", count, m->n);
}

typedef struct ent {
    const uint8_t *key;
    size_t klen;
    jet_rowid id;
} ent;

static int ent_q(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    size_t n = x->klen < y->klen ? x->klen : y->klen;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    if (x->klen != y->klen)
        return x->klen < y->klen ? -1 : 1;
    return rid_cmp(x->id, y->id);
}

/* Every physical index walked both ways holds exactly the rows' entries. */
static void check_walks(model *m)
{
    ent *e = malloc((m->n + 1) * sizeof *e);
    for (size_t j = 0; j < m->npx; j++) {
        uint16_t no = m->px[j].no;
        size_t n = 0, at;
        jet_index_cursor *cur;
        jet_rowid id;
        jet_rc rc;
        for (size_t i = 0; i < m->n; i++)
            if (m->r[i].key[j]) {
                e[n].key = m->r[i].key[j];
                e[n].klen = m->r[i].klen[j];
                e[n].id = m->r[i].id;
                n++;
            }
        qsort(e, n, sizeof *e, ent_q);
        ck_assert_int_eq(jet_index_cursor_open(&cur, m->db, m->t, no), JET_OK);
        for (int dir = 0; dir < 2; dir++) {
            ck_assert_int_eq(jet_index_set_reverse(cur, dir == 1), JET_OK);
            at = 0;
            while ((rc = jet_index_next(cur, &id.pgno, &id.row)) == JET_OK) {
                size_t kl;
                const uint8_t *k = jet_index_entry_key(cur, &kl);
                const ent *w;
                FAIL_IF(at >= n, "index %s: more than %zu entries",
                        m->t->indexes[no].name, n);
                w = &e[dir == 0 ? at : n - 1 - at];
                FAIL_IF(rid_cmp(w->id, id) != 0 || kl != w->klen ||
                        memcmp(k, w->key, kl) != 0,
                        "index %s: entry %zu (%s) is row %u:%u, the table "
                        "says row %u:%u", m->t->indexes[no].name, at,
                        dir ? "backwards" : "forwards", id.pgno, id.row,
                        w->id.pgno, w->id.row);
                at++;
            }
            FAIL_IF(rc != JET_DONE, "index %s: walk: %s",
                    m->t->indexes[no].name, jet_index_error(cur)->msg);
            FAIL_IF(at != n, "index %s: %zu entries, the table has %zu rows "
                    "with one", m->t->indexes[no].name, at, n);
        }
        jet_index_cursor_close(cur);
    }
    free(e);
}

/* Chronological milliseconds of a stored date (Jet: day - time before
 * 1899-12-30). */
static int64_t date_ms(double d)
{
    double day = trunc(d);
    return (int64_t)day * 86400000 + llround(fabs(d - day) * 86400000.0);
}

/* Compare two non-NULL values of a seekable type: <0, 0, >0. */
static int vcmp(jet_type ty, const jet_value *a, const jet_value *b)
{
    switch (ty) {
    case JET_T_BOOL: return (int)a->u.b - (int)b->u.b;
    case JET_T_FLOAT: return a->u.f < b->u.f ? -1 : a->u.f > b->u.f;
    case JET_T_DOUBLE: return a->u.d < b->u.d ? -1 : a->u.d > b->u.d;
    case JET_T_DATETIME: {
        int64_t x = date_ms(a->u.d), y = date_ms(b->u.d);
        return x < y ? -1 : x > y;
    }
    case JET_T_MONEY: return a->u.money < b->u.money ? -1 : a->u.money > b->u.money;
    case JET_T_GUID: return memcmp(a->u.guid, b->u.guid, 16);
    default: return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
    }
}

/* Seek-equal: both NULL, or equal values. */
static bool seq(jet_type ty, const jet_value *a, const jet_value *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null;
    return vcmp(ty, a, b) == 0;
}

/* The sort key of text value v (its first `units` units, all when
 * SIZE_MAX) as the SQL engine compares text. */
static size_t tkey(jet_db *db, const jet_column *col, const jet_value *v,
                   size_t units, uint8_t *out, size_t cap)
{
    static uint16_t u[8192];
    size_t n = units_of(db, v, u, 8192), k;
    if (units < n)
        n = units;
    k = jet_text_sort_key(out, cap, db, col, u, n);
    ck_assert_uint_le(k, cap);
    return k;
}

static int bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : al < bl ? -1 : al > bl;
}

/* Run the cursor; rows found into a sorted array; returns their count
 * (or SIZE_MAX when the seek was refused). */
static size_t run_seek(jet_index_cursor *cur, jet_rowid *out, size_t cap)
{
    size_t n = 0;
    jet_rowid id;
    jet_rc rc;
    while ((rc = jet_index_next(cur, &id.pgno, &id.row)) == JET_OK) {
        ck_assert_uint_lt(n, cap);
        out[n++] = id;
    }
    FAIL_IF(rc != JET_DONE, "seek walk: %s", jet_index_error(cur)->msg);
    return n;
}

static int rid_q(const void *a, const void *b)
{
    return rid_cmp(*(const jet_rowid *)a, *(const jet_rowid *)b);
}

/* want (sorted) must equal got (exact) or be inside it (superset). */
static void compare_sets(model *m, uint16_t no, const char *kind,
                         jet_rowid *want, size_t nw, jet_rowid *got,
                         size_t ng, bool superset)
{
    size_t i = 0, k = 0;
    qsort(got, ng, sizeof *got, rid_q);
    qsort(want, nw, sizeof *want, rid_q);
    for (size_t g = 1; g < ng; g++)
        FAIL_IF(rid_cmp(got[g - 1], got[g]) == 0, "index %s: %s seek gives "
                "row %u:%u twice", m->t->indexes[no].name, kind, got[g].pgno,
                got[g].row);
    if (!superset)
        FAIL_IF(nw != ng, "index %s: %s seek gives %zu rows, the scan %zu",
                m->t->indexes[no].name, kind, ng, nw);
    for (; i < nw; i++) {
        while (k < ng && rid_cmp(got[k], want[i]) < 0)
            k++;
        FAIL_IF(k == ng || rid_cmp(got[k], want[i]) != 0,
                "index %s: %s seek misses row %u:%u (%zu found, %zu wanted)",
                m->t->indexes[no].name, kind, want[i].pgno, want[i].row, ng,
                nw);
    }
    for (size_t g = 0; g < ng; g++)
        FAIL_IF(find_row(m, got[g]) == NULL, "index %s: %s seek gives row "
                "%u:%u, not a live row", m->t->indexes[no].name, kind,
                got[g].pgno, got[g].row);
}

/* Seeks on random keys of every index against the model's rows. */
static void check_seeks(model *m, unsigned probes, stats *st)
{
    jet_rowid *want = malloc((m->n + 1) * sizeof *want);
    jet_rowid *got = malloc((m->n + 1) * sizeof *got);
    static uint8_t ka[4096], kb[4096], kr[4096];
    if (m->n == 0) {
        free(want);
        free(got);
        return;
    }
    for (uint16_t no = 0; no < m->t->nindexes; no++) {
        const jet_index *ix = &m->t->indexes[no];
        uint16_t nk = jet_index_seekable_cols(m->t, no);
        bool text = jet_index_text_seekable(m->db, m->t, no);
        jet_index_cursor *cur;
        ck_assert_int_eq(jet_index_cursor_open(&cur, m->db, m->t, no), JET_OK);
        for (unsigned p = 0; p < probes; p++) {
            const mrow *pr = &m->r[below((uint32_t)m->n)];
            jet_value keys[10];
            uint16_t k = nk ? (uint16_t)(1 + below(nk)) : 0;
            size_t nw = 0, ng;
            uint32_t kind = below(3);
            for (uint16_t i = 0; i < nk; i++)
                keys[i] = pr->v[ix->cols[i].col];
            if (kind == 0 && k > 0) {
                /* equality on the leading k columns */
                ck_assert_int_eq(jet_index_seek(cur, keys, k, JET_SEEK_GE),
                                 JET_OK);
                ck_assert_int_eq(jet_index_set_upper(cur, keys, k, true),
                                 JET_OK);
                ng = run_seek(cur, got, m->n + 1);
                for (size_t i = 0; i < m->n; i++) {
                    const mrow *r = &m->r[i];
                    bool match = has_entry(m->t, ix, r->v);
                    for (uint16_t c = 0; c < k && match; c++)
                        match = seq(m->t->cols[ix->cols[c].col].type,
                                    &r->v[ix->cols[c].col], &keys[c]);
                    if (match)
                        want[nw++] = r->id;
                }
                compare_sets(m, no, "equality", want, nw, got, ng, false);
                st->seeks++;
            } else if (kind == 1 && nk > 0) {
                /* a range on the first column (bounds from two rows) */
                uint16_t c0 = ix->cols[0].col;
                jet_type ty = m->t->cols[c0].type;
                const mrow *p2 = &m->r[below((uint32_t)m->n)];
                jet_value lo = pr->v[c0], hi = p2->v[c0], first, last;
                bool gt = below(2), incl = below(2), asc = ix->cols[0].ascending;
                if (lo.is_null || hi.is_null || ty == JET_T_GUID ||
                    ty == JET_T_BOOL)
                    continue;
                if (vcmp(ty, &lo, &hi) > 0) {
                    jet_value x = lo;
                    lo = hi;
                    hi = x;
                }
                first = asc ? lo : hi;
                last = asc ? hi : lo;
                ck_assert_int_eq(jet_index_seek(cur, &first, 1,
                                                gt ? JET_SEEK_GT : JET_SEEK_GE),
                                 JET_OK);
                ck_assert_int_eq(jet_index_set_upper(cur, &last, 1, incl),
                                 JET_OK);
                ng = run_seek(cur, got, m->n + 1);
                for (size_t i = 0; i < m->n; i++) {
                    const mrow *r = &m->r[i];
                    const jet_value *v = &r->v[c0];
                    int a, b;
                    if (v->is_null || !has_entry(m->t, ix, r->v))
                        continue;
                    a = vcmp(ty, v, &first);
                    b = vcmp(ty, v, &last);
                    if (!asc) {
                        a = -a;
                        b = -b;
                    }
                    if ((gt ? a > 0 : a >= 0) && (incl ? b <= 0 : b < 0))
                        want[nw++] = r->id;
                }
                compare_sets(m, no, "range", want, nw, got, ng, false);
                st->seeks++;
            } else if (text) {
                /* a text key (whole or prefix) after the nk leading ones,
                 * or a text range when it is the first column */
                uint16_t tc = ix->cols[nk].col;
                const jet_column *col = &m->t->cols[tc];
                jet_value tv = pr->v[tc];
                size_t units, pre, kal;
                bool range = nk == 0 && below(2) == 0;
                if (tv.is_null || tv.len == 0)
                    continue;
                for (uint16_t i = 0; i < nk; i++)
                    if (keys[i].is_null)
                        goto next_probe;
                units = tv.len / 2;
                pre = below(2) ? units : 1 + below((uint32_t)units);
                if (range) {
                    const mrow *p2 = &m->r[below((uint32_t)m->n)];
                    jet_value lo = tv, hi = p2->v[tc];
                    size_t kbl;
                    if (hi.is_null || hi.len == 0 ||
                        !jet_index_text_range_key(m->db, m->t, no, &lo) ||
                        !jet_index_text_range_key(m->db, m->t, no, &hi))
                        continue;
                    kal = tkey(m->db, col, &lo, SIZE_MAX, ka, sizeof ka);
                    kbl = tkey(m->db, col, &hi, SIZE_MAX, kb, sizeof kb);
                    if (bytes_cmp(ka, kal, kb, kbl) > 0) {
                        jet_value x = lo;
                        lo = hi;
                        hi = x;
                        kal = tkey(m->db, col, &lo, SIZE_MAX, ka, sizeof ka);
                        kbl = tkey(m->db, col, &hi, SIZE_MAX, kb, sizeof kb);
                    }
                    if (!ix->cols[0].ascending) {
                        /* descending: index order runs from hi to lo */
                        ck_assert_int_eq(jet_index_seek(cur, &hi, 1,
                                                        JET_SEEK_GE), JET_OK);
                        ck_assert_int_eq(jet_index_set_upper(cur, &lo, 1,
                                                             true), JET_OK);
                    } else {
                        ck_assert_int_eq(jet_index_seek(cur, &lo, 1,
                                                        JET_SEEK_GE), JET_OK);
                        ck_assert_int_eq(jet_index_set_upper(cur, &hi, 1,
                                                             true), JET_OK);
                    }
                    ng = run_seek(cur, got, m->n + 1);
                    for (size_t i = 0; i < m->n; i++) {
                        const jet_value *v = &m->r[i].v[tc];
                        size_t krl;
                        if (v->is_null || v->len == 0 ||
                            !has_entry(m->t, ix, m->r[i].v))
                            continue;
                        krl = tkey(m->db, col, v, SIZE_MAX, kr, sizeof kr);
                        if (bytes_cmp(kr, krl, ka, kal) >= 0 &&
                            bytes_cmp(kr, krl, kb, kbl) <= 0)
                            want[nw++] = m->r[i].id;
                    }
                    compare_sets(m, no, "text range", want, nw, got, ng, true);
                    st->seeks++;
                    continue;
                }
                tv.len = 2 * pre;
                keys[nk] = tv;
                if (jet_index_seek(cur, keys, (uint16_t)(nk + 1),
                                   JET_SEEK_GE) != JET_OK)
                    FAIL_IF(true, "index %s: text seek refused: %s", ix->name,
                            jet_index_error(cur)->msg);
                ck_assert_int_eq(jet_index_set_upper(cur, keys,
                                                     (uint16_t)(nk + 1), true),
                                 JET_OK);
                ng = run_seek(cur, got, m->n + 1);
                kal = tkey(m->db, col, &tv, SIZE_MAX, ka, sizeof ka);
                for (size_t i = 0; i < m->n; i++) {
                    const mrow *r = &m->r[i];
                    const jet_value *v = &r->v[tc];
                    bool match = has_entry(m->t, ix, r->v) && !v->is_null;
                    for (uint16_t c = 0; c < nk && match; c++)
                        match = seq(m->t->cols[ix->cols[c].col].type,
                                    &r->v[ix->cols[c].col], &keys[c]);
                    if (match) {
                        size_t krl = tkey(m->db, col, v, pre, kr, sizeof kr);
                        match = v->len / 2 >= pre &&
                                bytes_cmp(kr, krl, ka, kal) == 0;
                    }
                    if (match)
                        want[nw++] = r->id;
                }
                compare_sets(m, no, pre < units ? "text prefix" : "text",
                             want, nw, got, ng, true);
                st->seeks++;
            }
        next_probe:;
        }
        jet_index_cursor_close(cur);
    }
    free(want);
    free(got);
}

static void check_db(jet_db *db)
{
    jet_check_stats cs;
    ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL, &cs), JET_OK);
    FAIL_IF(cs.problems != 0, "jet_db_check: %u problems", cs.problems);
}

/* On the committed file: a duplicate insert and a duplicate update of a
 * unique key are refused and the file stays byte-for-byte the same. */
static void check_refusal_unchanged(model *m, const char *path, rowbuf *b)
{
    size_t len0, len1;
    uint8_t *before, *after;
    int uq = -1;
    for (size_t j = 0; j < m->npx && uq < 0; j++) {
        const jet_index *ix = &m->t->indexes[m->px[j].no];
        if (ix->unique || ix->primary_key)
            for (size_t i = 0; i < m->n && uq < 0; i++)
                if (m->r[i].key[j] && !key_all_null(m->t, ix, m->r[i].v))
                    uq = (int)i;
    }
    if (uq < 0 || m->n < 2)
        return;
    before = jet_test_slurp(path, &len0);
    ck_assert_ptr_nonnull(before);
    ck_assert_int_eq(jet_db_write_begin(m->db), JET_OK);
    {
        /* insert: a copy of row uq (every unique key repeats) */
        jet_savepoint sp;
        jet_rc rc;
        memcpy(b->v, m->r[uq].v, m->t->ncols * sizeof *b->v);
        for (uint16_t c = 0; c < m->t->ncols; c++)
            if (m->t->cols[c].flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                b->v[c].is_null = true;
        ck_assert_int_eq(jet_db_savepoint(m->db, &sp), JET_OK);
        rc = jet_table_insert(m->db, m->t, b->v, NULL);
        if (would_dup(m, b->v, NULL))
            FAIL_IF(rc != JET_EDUPLICATE, "duplicate insert: %s",
                    rc_name(rc));
        /* update: another row takes row uq's values */
        {
            size_t o = (size_t)(uq + 1) % m->n;
            memcpy(b->v, m->r[uq].v, m->t->ncols * sizeof *b->v);
            for (uint16_t c = 0; c < m->t->ncols; c++) /* AutoNumbers stay */
                if (m->t->cols[c].flags &
                    (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                    b->v[c] = m->r[o].v[c];
            rc = jet_table_update(m->db, m->t, m->r[o].id, b->v);
            if (would_dup(m, b->v, &m->r[o]))
                FAIL_IF(rc != JET_EDUPLICATE, "duplicate update: %s",
                        rc_name(rc));
        }
        ck_assert_int_eq(jet_db_rollback_to(m->db, sp), JET_OK);
    }
    ck_assert_int_eq(jet_db_write_rollback(m->db), JET_OK);
    after = jet_test_slurp(path, &len1);
    ck_assert_ptr_nonnull(after);
    FAIL_IF(len0 != len1 || memcmp(before, after, len0) != 0,
            "a refused duplicate changed the file");
    free(before);
    free(after);
}

/* ----------------------------------------------------------------- cases */

typedef struct pcase {
    const char *name;
    const char *src;        /* fixture (relative to public/) or NULL */
    jw_format fmt;          /* generated file's format */
    const char *table;
    unsigned target;        /* rows the table hovers around */
} pcase;

static stats total;
static unsigned cases_run;

static void load_model(model *m)
{
    jet_scan *s;
    jet_rc rc;
    ck_assert_int_eq(jet_scan_open(&s, m->db, m->t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        mrow *r = model_add(m);
        jet_value v[256];
        static uint8_t store[256][1024];
        static uint16_t u[8192];
        ck_assert_int_eq(jet_scan_position(s, &r->id.pgno, &r->id.row),
                         JET_OK);
        for (uint16_t c = 0; c < m->t->ncols; c++) {
            ck_assert_int_eq(jet_scan_value(s, c, &v[c]), JET_OK);
            if (!v[c].is_null && is_text(m->t->cols[c].type) &&
                v[c].enc != JET_ENC_UCS2) {
                size_t n = units_of(m->db, &v[c], u, 8192);
                ck_assert_uint_le(2 * n, sizeof store[c]);
                for (size_t i = 0; i < n; i++) {
                    store[c][2 * i] = (uint8_t)u[i];
                    store[c][2 * i + 1] = (uint8_t)(u[i] >> 8);
                }
                v[c].enc = JET_ENC_UCS2;
                v[c].data = store[c];
                v[c].len = 2 * n;
            }
        }
        mrow_set(r, m->t, v);
        ck_assert(mrow_keys(m, r));
    }
    ck_assert_int_eq(rc, JET_DONE);
    jet_scan_close(s);
}

static void run_case(const pcase *pc, uint64_t seed)
{
    char path[256];
    jet_db *db;
    jet_error err;
    const jet_object *o;
    const jet_tdef *t;
    model m;
    stats st;
    rowbuf *b = calloc(1, sizeof *b);
    unsigned done = 0;
    bool verified = false;      /* the last batch was committed, checked */
    time_t t0 = time(NULL);
    jet_open_options opt;

    if (only_case && strcmp(only_case, pc->name) != 0) {
        free(b);
        return;
    }
    case_name = pc->name;
    case_seed = rng = seed;
    memset(&st, 0, sizeof st);
    if (pc->src) {
        const char *src = shared_file(pc->src);
        if (!src) {
            fprintf(stderr, "indexprop: %s absent: case %s skipped\n",
                    pc->src, pc->name);
            free(b);
            return;
        }
        temp_path(path, sizeof path, strstr(pc->src, ".mdb") ? ".mdb"
                                                             : ".accdb");
        copy_file(path, src);
    } else {
        temp_path(path, sizeof path,
                  pc->fmt == JW_FMT_JET4 ? ".mdb" : ".accdb");
        write_generated(path, pc->fmt);
    }
    memset(&opt, 0, sizeof opt);
    opt.cache_pages = 256;
    ck_assert_msg(jet_db_open(&db, path, &opt, &err) == JET_OK, "%s",
                  err.msg);
    o = jet_catalog_find(db, pc->table);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_msg(jet_table_check_writable(db, t) == JET_OK, "%s: %s",
                  pc->name, jet_db_error(db)->msg);
    ck_assert(generatable(t));
    model_init(&m, db, t);
    load_model(&m);
    while (done < ops_per_case) {
        uint32_t mode = below(10);
        unsigned n = batch_ops, i;
        model saved;
        bool rollback = mode == 0, autocommit = mode == 1;
        if (n > ops_per_case - done)
            n = ops_per_case - done;
        if (autocommit && n > 40)
            n = 40;                 /* a commit each: keep it short */
        if (rollback)
            model_copy(&saved, &m);
        if (!autocommit)
            ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        for (i = 0; i < n; i++) {
            uint32_t r = below(100);
            bool grow = m.n < pc->target;
            if (autocommit)
                ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
            if (r < (grow ? 60u : 35u))
                op_insert(&m, b, &st);
            else if (r < (grow ? 85u : 65u))
                op_update(&m, b, &st);
            else
                op_delete(&m, &st);
            if (autocommit)
                FAIL_IF(jet_db_write_commit(db) != JET_OK, "commit: %s",
                        jet_db_error(db)->msg);
        }
        if (rollback) {
            ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
            model_free(&m);
            m = saved;
            st.rolled++;
        } else if (!autocommit) {
            FAIL_IF(jet_db_write_commit(db) != JET_OK, "commit: %s",
                    jet_db_error(db)->msg);
        }
        done += n;
        st.batches++;
        check_scan(&m);
        check_walks(&m);
        check_seeks(&m, 60, &st);
        verified = !rollback && !autocommit;
        if (verified) {
            check_db(db);
            jetcheck_verify(path);
            check_refusal_unchanged(&m, path, b);
        }
    }
    /* reopened, the file says the same */
    jet_db_close(db);
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "%s",
                  err.msg);
    o = jet_catalog_find(db, pc->table);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    m.db = db;
    m.t = t;
    check_scan(&m);
    check_walks(&m);
    check_seeks(&m, 60, &st);
    check_db(db);
    jet_db_close(db);
    if (!verified)
        jetcheck_verify(path);
    fprintf(stderr, "indexprop: %-14s seed %" PRIu64 ": %u ops (%u inserts, "
            "%u updates, %u deletes; %u refused duplicates, %u NULL keys, "
            "%u unencodable texts), %u batches (%u rolled back), %u seeks, "
            "%zu rows at the end, %lds\n", pc->name, seed,
            st.ins + st.upd + st.del, st.ins, st.upd, st.del, st.dup,
            st.nulls, st.unenc, st.batches, st.rolled, st.seeks, m.n,
            (long)(time(NULL) - t0));
    total.ins += st.ins;
    total.upd += st.upd;
    total.del += st.del;
    total.dup += st.dup;
    total.seeks += st.seeks;
    cases_run++;
    model_free(&m);
    remove_db(path);
    free(b);
}

static const pcase gen_cases[] = {
    { "jet4", NULL, JW_FMT_JET4, NULL, 0 },
    { "ace14", NULL, JW_FMT_ACE14, NULL, 0 },
};

static const pcase fixture_cases[] = {
    { "fx_unique2_2010", "jackcess/V2010/testIndexPropertiesV2010.accdb",
      0, "TableUnique2_temp", 400 },
    { "fx_unique2_2003", "jackcess/V2003/testIndexPropertiesV2003.mdb",
      0, "TableUnique2_temp", 400 },
    { "fx_guidpk_2010", "jackcess/V2010/testV2010.accdb", 0, "Table4",
      400 },
    { "fx_desc_2007", "jackcess/V2007/compIndexTestV2007.accdb", 0,
      "Table1", 700 },
    { "fx_text_2003", "jackcess/V2003/bigIndexTestV2003.mdb", 0, "Table1",
      500 },
};

START_TEST(generated_tables)
{
    const pcase *g = &gen_cases[_i];
    settings();
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] + 2; k++) {
        pcase pc = *g;
        char name[64];
        const char *tn = k < sizeof kinds / sizeof kinds[0] ? kinds[k].name
                         : k == sizeof kinds / sizeof kinds[0] ? "k_compound"
                                                               : "k_pk2";
        snprintf(name, sizeof name, "%s_%s", g->name, tn + 2);
        pc.name = name;
        pc.table = tn;
        pc.target = ops_per_case > 1000 ? 2500 : 300;
        if (strcmp(tn, "k_byte") == 0)
            pc.target = 200;
        run_case(&pc, base_seed + (uint64_t)_i * 1000 + k);
    }
}
END_TEST

START_TEST(fixture_tables)
{
    const pcase *pc = &fixture_cases[_i];
    settings();
    if (!shared_file("jackcess/V2010/testV2010.accdb")) {
        fprintf(stderr, "indexprop: %s/fixtures/public not found: fixture "
                "cases skipped (set JETODBC_SHARED)\n", jet_shared_dir());
        return;
    }
    run_case(pc, base_seed + 100000 + (uint64_t)_i);
}
END_TEST

static Suite *indexprop_suite(void)
{
    Suite *s = suite_create("indexprop");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 3600);
    tcase_add_loop_test(tc, generated_tables, 0,
                        (int)(sizeof gen_cases / sizeof gen_cases[0]));
    tcase_add_loop_test(tc, fixture_tables, 0,
                        (int)(sizeof fixture_cases / sizeof fixture_cases[0]));
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(indexprop_suite)
