/*
 * sortkey.c - binary sort keys: one byte string per row whose memcmp
 * order is the ORDER BY order (sql_key_cmp), built once per row.
 *
 * Per key column, one segment:
 *   NULL        0x00                         (NULL lowest, as Access)
 *   not NULL    0x01, then the value:
 *     integer / Yes-No / Currency   8 bytes big-endian, sign bit flipped
 *                                   (Yes-No as Jet's -1 / 0)
 *     Double    8 bytes: sign bit flipped when >= 0, all bits inverted
 *               when < 0 (IEEE order); -0 as +0; every NaN as all ones
 *               (sql_key_cmp: NaN above every number, NaNs equal)
 *     Date      the millisecond key sql_date_key() compares by, as an
 *               integer
 *     Text      jet_text_sort_key_co() in the db's sort order: Access's
 *               General order as the db's text indexes order keys, then
 *               the case-folded code points (prefix-free; equal keys
 *               exactly when sql_text_cmp finds the texts equal)
 * DESC inverts every byte of its segment (segments are prefix-free, so
 * the inversion reverses their order). Values a segment cannot encode in
 * the column's class (mixed kinds in a computed column, Decimal, bytes)
 * make the caller fall back to comparing the values (sql_key_cmp).
 *
 * Text order: sql_collate_cmp() (sql_text_cmp: < > BETWEEN, MIN, MAX,
 * StrComp) compares by the same keys, so every text comparison of the
 * engine agrees with ORDER BY and with the file's text indexes. The sort
 * order is the db's (jet_db_collation()), which the cursor keeps
 * (sql_cursor.text_order) and passes to every comparison.
 */
#include "config.h"

#include "sort.h"
#include "values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Encoding classes of a key column (the first non-NULL value's). */
enum { KC_NONE = 0, KC_INT, KC_MONEY, KC_DOUBLE, KC_DATE, KC_TEXT };

static int class_of(const sv *v)
{
    switch (v->k) {
    case K_BOOL: case K_INT: return KC_INT;
    case K_MONEY: return KC_MONEY;
    case K_DOUBLE: return v->has_dec ? -1 : KC_DOUBLE;
    case K_DATE: return KC_DATE;
    case K_TEXT: return KC_TEXT;
    default: return -1;
    }
}

static int reserve(sql_sortkey_buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    size_t n = b->cap ? b->cap : 256;
    while (n < b->len + more) {
        if (n > SIZE_MAX / 4)
            return -1;
        n *= 2;
    }
    uint8_t *p = realloc(b->p, n);
    if (!p)
        return -1;
    b->p = p;
    b->cap = n;
    return 0;
}

static void put_u64(uint8_t *o, uint64_t u)
{
    for (int i = 7; i >= 0; i--) {
        o[i] = (uint8_t)u;
        u >>= 8;
    }
}

static void put_i64(uint8_t *o, int64_t i)
{
    put_u64(o, (uint64_t)i ^ ((uint64_t)1 << 63));
}

/* Next code point of UTF-16 s[*i..n) (lone surrogates stand alone). */
static uint32_t next_cp(const uint16_t *s, size_t n, size_t *i)
{
    uint32_t c = s[(*i)++];
    if (c >= 0xD800 && c < 0xDC00 && *i < n && s[*i] >= 0xDC00 &&
        s[*i] < 0xE000)
        c = 0x10000 + ((c - 0xD800) << 10) + (s[(*i)++] - 0xDC00);
    return c;
}

/* Sort key of s into buf (cap bytes) or a heap copy in *heap; NULL when
 * out of memory. */
static const uint8_t *text_key(uint8_t *buf, size_t cap, uint8_t **heap,
                               jet_collation co, const uint16_t *s, size_t n,
                               size_t *len)
{
    *len = jet_text_sort_key_co(buf, cap, co, s, n);
    if (*len <= cap)
        return buf;
    *heap = malloc(*len);
    if (!*heap)
        return NULL;
    jet_text_sort_key_co(*heap, *len, co, s, n);
    return *heap;
}

/* The sort order co names; JET_COLL_NONE: General - Legacy. */
static jet_collation order_of(jet_collation co)
{
    return co == JET_COLL_NONE ? JET_COLL_GENLEG : co;
}

int sql_collate_cmp(jet_collation co, const uint16_t *a, size_t an,
                    const uint16_t *b, size_t bn)
{
    uint8_t ba[512], bb[512], *ha = NULL, *hb = NULL;
    const uint8_t *ka, *kb;
    size_t i = 0, j = 0, la, lb;
    int r;
    an = sql_text_unpadded(a, an);      /* Jet pads with spaces */
    bn = sql_text_unpadded(b, bn);
    /* the same units (an index seek's = filter): equal */
    if (an == bn) {
        size_t k = 0;
        while (k < an && a[k] == b[k])
            k++;
        if (k == an)
            return 0;
    }
    /* equal as the engine folds: equal keys (the common = case) */
    bool same = true;
    while (same && i < an && j < bn)
        same = jet_text_fold(next_cp(a, an, &i)) == jet_text_fold(next_cp(b, bn, &j));
    if (same && i >= an && j >= bn)
        return 0;
    co = order_of(co);
    ka = text_key(ba, sizeof ba, &ha, co, a, an, &la);
    kb = text_key(bb, sizeof bb, &hb, co, b, bn, &lb);
    if (!ka || !kb) {
        /* out of memory: code point order after folding */
        free(ha);
        free(hb);
        for (i = j = 0; i < an && j < bn;) {
            uint32_t x = jet_text_fold(next_cp(a, an, &i));
            uint32_t y = jet_text_fold(next_cp(b, bn, &j));
            if (x != y)
                return x < y ? -1 : 1;
        }
        return (i < an) - (j < bn);
    }
    r = memcmp(ka, kb, la < lb ? la : lb);
    if (r == 0)
        r = (la > lb) - (la < lb);
    free(ha);
    free(hb);
    return r < 0 ? -1 : r > 0;
}

int sql_sortkey_append(sql_sortkey_buf *b, uint8_t *cls, jet_collation co,
                       const sv *v, bool desc)
{
    size_t start = b->len;
    if (v->k == K_NULL) {
        if (reserve(b, 1) != 0)
            return -1;
        b->p[b->len++] = 0x00;
    } else {
        int k = class_of(v);
        if (k < 0 || (*cls != KC_NONE && *cls != k))
            return 1;
        *cls = (uint8_t)k;
        if (k == KC_TEXT) {
            if (v->n > (SIZE_MAX - 8) / 4 || reserve(b, 8 + v->n * 4) != 0)
                return -1;      /* room for most keys (ASCII: ~3n) */
        } else if (reserve(b, 9) != 0) {
            return -1;
        }
        uint8_t *o = b->p + b->len;
        *o++ = 0x01;
        switch (k) {
        case KC_INT:
            put_i64(o, v->k == K_BOOL ? -v->i : v->i);
            o += 8;
            break;
        case KC_MONEY:
            put_i64(o, v->i);
            o += 8;
            break;
        case KC_DATE:
            put_i64(o, sql_date_key(v->d));
            o += 8;
            break;
        case KC_DOUBLE: {
            double d = v->d == 0 ? 0.0 : v->d;
            uint64_t u;
            memcpy(&u, &d, sizeof u);
            u = (u >> 63) ? ~u : u ^ ((uint64_t)1 << 63);
            if (isnan(d))
                u = UINT64_MAX;     /* above +inf, all NaNs equal */
            put_u64(o, u);
            o += 8;
            break;
        }
        default: {
            /* trailing spaces aside, as sql_text_cmp compares */
            size_t n = sql_text_unpadded(v->s, v->n);
            size_t avail = b->cap - b->len - 1;
            co = order_of(co);
            size_t need = jet_text_sort_key_co(o, avail, co, v->s, n);
            if (need > avail) {
                if (reserve(b, need + 1) != 0)
                    return -1;
                o = b->p + b->len;
                *o++ = 0x01;
                jet_text_sort_key_co(o, need, co, v->s, n);
            }
            o += need;
            break;
        }
        }
        b->len = (size_t)(o - b->p);
    }
    if (desc)
        for (size_t i = start; i < b->len; i++)
            b->p[i] = (uint8_t)~b->p[i];
    return 0;
}
