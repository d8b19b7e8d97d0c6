/*
 * index.c - index B-tree pages, key encoding, seek and range cursors.
 *
 * A physical index is a B-tree of index pages. Page layout (Jet3 / Jet4+):
 *
 *   off      size  meaning
 *   0        1     type: 0x03 intermediate (node), 0x04 leaf
 *   4        4     owning tdef page
 *   8 / 12   4     previous page at this level (0 = none)
 *   12 / 16  4     next page at this level (0 = none)
 *   16 / 20  4     child tail page (nodes: rightmost child not listed
 *                  among the entries; 0 = none)
 *   20 / 24  1 / 2 length of the prefix shared by all entries on the page
 *   21 / 26  1     1 on node pages (unused here)
 *   22 / 27  226 / 453  entry mask: bit n set = an entry ends n bytes after
 *                  the entry area start (bit 0 of byte 0 first)
 *   248 / 480      entry area
 *
 * The first entry is stored whole; every later entry omits the shared
 * prefix (its first prefix-length bytes), which must be put back. An entry
 * is key bytes, then a 3-byte big-endian data page and a 1-byte row; node
 * entries add a 4-byte big-endian child page. A node entry carries the key
 * and row pointer of the last entry of its child, so entries are compared as
 * byte strings (key, then page, then row) throughout the tree.
 * Key bytes per column: a flag byte (0x7F present / 0x00 null ascending,
 * 0x80 / 0xFF descending) and an order-preserving body; descending columns
 * invert the body bytes.
 * Format: mdbtools HACKING.md "Index Pages"; Jackcess IndexData,
 * IndexPageCache, IndexCodes, JetFormat.
 *
 * Text keys are in Access's "General" sort order (collate.c). A seek on
 * a text column (the last key column of a seek) is a prefix seek on the
 * inline sort codes of the search string: it finds every entry whose
 * string equals the search string or starts with it, as the SQL engine
 * compares (case-insensitively), and some more that the caller's filter
 * drops (other accents, ignored punctuation). A search string with
 * characters the tables do not cover seeks on the part before them.
 *
 * Planner recipes (jet.h "indexes"):
 *   col = k          seek GE k, upper k inclusive
 *   col IN (a, b)    one seek GE + upper inclusive per value, in order
 *   a < col <= b     seek GT a, upper b inclusive (either may be absent)
 *   col IS NULL      seek GE with an is_null key, upper the same
 *   ORDER BY cols [DESC] TOP n   walk (set_reverse when the direction is
 *                    opposite to the index column's) and stop after n
 * An index with ignore_nulls has no entries for rows whose key columns
 * are all NULL, so its walk is not the whole table unless the predicate
 * rejects NULLs. TEXT columns walk in Access's General order
 * (case-insensitive), which an ORDER BY may or may not want.
 *
 * Entries are found through the entry mask (page_view): a descent or a
 * seek binary-searches each page over entry area positions, so a
 * primary-key lookup visits root and leaf with about log2(area bytes)
 * key comparisons each, and nothing on a page is decoded that the walk
 * does not use. The checks on index page bytes are in open_page (the
 * page) and check_entry (each entry touched).
 *
 * Date/Time keys: Jet stores a date as a double of days since 1899-12-30;
 * before that day the integer part counts days back and the fraction is
 * the time forward (-1.25 = 1899-12-29 06:00), and day 0's times can be
 * stored with either sign. Index order is that of the doubles, so a
 * chronological range is not one contiguous run of entries: bounds on a
 * DATETIME column are widened to the run of doubles that can match
 * (date_bound) and each entry in the run is checked chronologically to
 * the millisecond (cmp_exact), in both sort directions.
 *
 * Invariants:
 *   1. Every entry span lies inside its page, else JET_ECORRUPT with pgno.
 *   2. A descent visits at most MAX_DEPTH levels and a leaf-chain walk at
 *      most page-count pages, so link cycles end in JET_ECORRUPT.
 *   3. At most one index page is pinned by a cursor (the current leaf).
 *   4. Every entry a seek probes or a walk touches has its pointers on
 *      pages of the file and a key of its index's column shapes
 *      (check_entry); the entries a walk touches ascend (descend when
 *      reversed) across the leaf chain, and each leaf it steps to links
 *      back. Damage that would steer a seek past its rows (a merged or
 *      split entry from a flipped entry mask bit) is JET_ECORRUPT, not
 *      fewer rows. A page's unprobed entries are not checked: that would
 *      cost a primary-key lookup its log-time page visit.
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "collate.h"
#include "index.h"
#include "internal.h"

#define PAGE_NODE 0x03
#define PAGE_LEAF 0x04
#define MAX_DEPTH 32

#define ASC_START 0x7F
#define ASC_NULL 0x00
#define DESC_START 0x80
#define DESC_NULL 0xFF

/* page layout offsets of one format */
typedef struct idx_layout {
    uint16_t prev, next, tail, prefix_len, prefix_size, mask, mask_len;
} idx_layout;

/* Jet3 keeps the prefix length in one byte: byte 21 is 1 on node pages
 * (as byte 26 is on Jet4 node pages). */
static const idx_layout layout_jet3 = { 8, 12, 16, 20, 1, 22, 226 };
static const idx_layout layout_jet4 = { 12, 16, 20, 24, 2, 27, 453 };

/*
 * One pinned index page (checked by open_page). Entries are found through
 * the entry mask without decoding the page: an entry is [s, e) of the
 * entry area, e a set mask bit and s the set bit before it (or 0), so a
 * binary search probes log2(area bytes) entries and a walk steps from one
 * set bit to the next. Each entry is checked when it is first touched
 * (check_entry).
 */
typedef struct page_view {
    const uint8_t *page;     /* pinned, or NULL */
    uint32_t pgno;
    bool leaf;
    uint16_t prefix_len;     /* bytes shared by every entry (first stored) */
    uint32_t last_end;       /* end of the last entry (0: no entries);
                                NO_END until needed */
} page_view;

#define NO_END UINT32_MAX

/* An entry of a page_view: area-relative [s, e). */
typedef struct ent {
    uint32_t s, e;
} ent;

/* An entry's bytes as up to two runs (entry_parts): p1[0..l1), then p2
 * (NULL when the entry is one run). */
typedef struct eparts {
    const uint8_t *p1;
    size_t l1;
    const uint8_t *p2;
} eparts;

/* Byte k of entry e (k below the entry's length). */
static inline uint8_t eparts_byte(const eparts *e, size_t k)
{
    return k < e->l1 ? e->p1[k] : e->p2[k - e->l1];
}

/* What an index key column looks like (key_shape_ok): its flag bytes
 * and widths (flag byte included) present and null; KW_SEGMENTS: binary
 * segments (key_col_width), 0: not shown by the type (text, long
 * values). */
typedef struct key_shape {
    jet_type type;
    uint8_t start, null;
    uint8_t width, null_width;
} key_shape;

#define KW_SEGMENTS 0xFF

/* A bound key as the walk uses it. */
typedef struct bound {
    uint8_t key[JET_INDEX_KEY_MAX];   /* encoded, DATETIME keys widened */
    size_t len;
    uint16_t nkeys;
    /* DATETIME keys only (exact != false): the exact key of each column,
     * compared column by column (col_off[k]..col_off[k+1] in exact[]),
     * dates as chronological milliseconds in ms[k] */
    bool exact;
    uint8_t exact_key[JET_INDEX_KEY_MAX];
    uint16_t col_off[11];
    int64_t ms[10];
} bound;

struct jet_index_cursor {
    jet_db *db;
    const jet_tdef_priv *t;
    const jet_index *ix;
    const idx_layout *lay;
    uint32_t area;           /* entry area offset */
    bool legacy_numeric;
    bound lower;             /* lower.len == 0: none */
    int lower_op;            /* JET_SEEK_GE / JET_SEEK_GT */
    bool lower_passed;       /* an entry has passed the lower bound */
    bound upper;
    bool has_upper, upper_inclusive;
    bool lower_failed, upper_failed; /* a bound no value can meet */
    bool upper_passed;       /* reverse: an entry has passed the upper */
    bool positioned, done;
    jet_rc failed;           /* the error that ended the walk, or JET_OK */
    page_view leaf;          /* the current leaf (leaf.page pinned) */
    uint32_t pos;            /* forward: start of the next entry;
                                reverse: end of the next entry */
    uint32_t leaves_seen;
    uint32_t page_count;     /* pages in the file: entry pointers below */
    uint8_t *entry;          /* page_size bytes: an assembled entry */
    key_shape kshape[10];    /* the key columns' shapes (key_shapes) */
    uint16_t kcols;
    size_t kfull;            /* key length when every column is present and
                                of fixed width, else SIZE_MAX */
    bool kvar_first;         /* the first column's width is not shown by
                                its type (text): a present one ends the
                                shape check */
    size_t prev_klen;        /* key length of the entry in c->entry, the
                                last one the walk touched (have_prev) */
    bool have_prev;
    bool reverse;            /* walk from the upper bound downwards */
    const uint8_t *key;      /* current entry key (in entry) */
    size_t key_len;
    uint64_t changes;        /* jet_pagefile_changes() at the last step */
    bool resuming;           /* descending to the entry after c->entry
                                (its whole bytes, prev_klen + 4) because
                                pages changed under the walk */
    jet_interrupt_fn intr;   /* checked before each index page; or NULL */
    void *intr_ctx;
    jet_error err;
};

/* ------------------------------------------------------------- encoding */

static void flip(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)~p[i];
}

static bool is_int_type(jet_type t)
{
    return t == JET_T_BYTE || t == JET_T_INT || t == JET_T_LONG ||
           t == JET_T_BIGINT || t == JET_T_COMPLEX;
}

/* The value as an int64 for an integer-class column of type t. */
static jet_rc value_int(const jet_value *v, jet_type t, int64_t *out)
{
    int64_t lo, hi;
    if (t == JET_T_MONEY) {
        if (v->type != JET_T_MONEY)
            return JET_EUNSUPPORTED;
        *out = v->u.money;
        return JET_OK;
    }
    if (is_int_type(v->type)) {
        *out = v->u.i;
    } else if (v->type == JET_T_DOUBLE || v->type == JET_T_DATETIME ||
               v->type == JET_T_FLOAT) {
        double d = v->type == JET_T_FLOAT ? (double)v->u.f : v->u.d;
        if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18) ||
            (double)(int64_t)d != d)
            return JET_ELIMIT;
        *out = (int64_t)d;
    } else {
        return JET_EUNSUPPORTED;
    }
    switch (t) {
    case JET_T_BYTE: lo = 0; hi = 255; break;
    case JET_T_INT: lo = INT16_MIN; hi = INT16_MAX; break;
    case JET_T_LONG: case JET_T_COMPLEX: lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    return *out < lo || *out > hi ? JET_ELIMIT : JET_OK;
}

static jet_rc value_double(const jet_value *v, double *out)
{
    if (v->type == JET_T_DOUBLE || v->type == JET_T_DATETIME)
        *out = v->u.d;
    else if (v->type == JET_T_FLOAT)
        *out = v->u.f;
    else if (is_int_type(v->type))
        *out = (double)v->u.i;
    else if (v->type == JET_T_MONEY)
        *out = (double)v->u.money / 10000.0;
    else
        return JET_EUNSUPPORTED;
    return JET_OK;
}

/* Big-endian bytes of the low n bytes of x. */
static void put_be(uint8_t *p, uint64_t x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
}

/* Binary keys: 8-byte segments, each followed by a length byte (9 = more
 * segments follow); the last segment is zero-padded. Descending inverts
 * data bytes and the last length byte, not the 9s. */
static jet_rc put_segments(uint8_t *buf, size_t cap, size_t *pos,
                           const uint8_t *data, size_t len, bool asc)
{
    size_t need = (len + 7) / 8 * 9;
    size_t p = *pos;
    if (need > cap - p)
        return JET_ELIMIT;
    for (size_t off = 0; off < len; off += 8) {
        size_t n = len - off > 8 ? 8 : len - off;
        bool last = off + 8 >= len;
        memset(buf + p, 0, 8);
        memcpy(buf + p, data + off, n);
        buf[p + 8] = last ? (uint8_t)n : 9;
        if (!asc)
            flip(buf + p, last ? 9 : 8);
        p += 9;
    }
    *pos = p;
    return JET_OK;
}

jet_rc jet_index_encode_value(uint8_t *buf, size_t cap, size_t *pos,
                              jet_type col_type, bool ascending,
                              bool legacy_numeric, const jet_value *v)
{
    uint8_t b[20];
    size_t n = 0, p = *pos;
    jet_rc rc;

    if (p >= cap)
        return JET_ELIMIT;
    if (col_type == JET_T_TEXT || col_type == JET_T_MEMO ||
        col_type == JET_T_OLE)
        return JET_EUNSUPPORTED;
    if (col_type == JET_T_BOOL) {
        bool val;
        if (p + 2 > cap)
            return JET_ELIMIT;
        val = v->is_null ? false
              : v->type == JET_T_BOOL ? v->u.b
              : is_int_type(v->type) ? v->u.i != 0 : false;
        buf[p] = ascending ? ASC_START : DESC_START;
        /* true (-1 in Access) sorts first */
        buf[p + 1] = (uint8_t)(val == ascending ? 0x00 : 0xFF);
        *pos = p + 2;
        return JET_OK;
    }
    if (v->is_null) {
        buf[p] = ascending ? ASC_NULL : DESC_NULL;
        *pos = p + 1;
        return JET_OK;
    }
    switch (col_type) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_MONEY:
    case JET_T_BIGINT: case JET_T_COMPLEX: {
        int64_t x;
        rc = value_int(v, col_type, &x);
        if (rc != JET_OK)
            return rc;
        n = col_type == JET_T_BYTE ? 1 : col_type == JET_T_INT ? 2
            : col_type == JET_T_LONG || col_type == JET_T_COMPLEX ? 4 : 8;
        put_be(b, (uint64_t)x, n);
        if (col_type != JET_T_BYTE)
            b[0] ^= 0x80;             /* signed: flip the sign bit */
        if (!ascending)
            flip(b, n);
        break;
    }
    case JET_T_FLOAT: case JET_T_DOUBLE: case JET_T_DATETIME: {
        double d;
        bool neg;
        rc = value_double(v, &d);
        if (rc != JET_OK)
            return rc;
        if (col_type == JET_T_FLOAT) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            put_be(b, u, 4);
            n = 4;
        } else {
            uint64_t u;
            memcpy(&u, &d, 8);
            put_be(b, u, 8);
            n = 8;
        }
        neg = (b[0] & 0x80) != 0;
        if (!neg)
            b[0] ^= 0x80;
        if (neg == ascending)
            flip(b, n);
        break;
    }
    case JET_T_NUMERIC: {
        bool neg;
        if (v->type != JET_T_NUMERIC)
            return JET_EUNSUPPORTED;
        neg = v->u.num.negative;
        /* sign byte, then the magnitude as 16 big-endian bytes */
        memset(b, 0, 17);
        for (int i = 0; i < 12; i++)
            b[16 - i] = v->u.num.mag[i];
        n = 17;
        if (legacy_numeric) {
            if (neg == ascending)
                flip(b, n);
            b[0] = neg ? 0x00 : 0xFF;
        } else {
            b[0] = 0xFF;
            if (neg == ascending)
                flip(b, n);
        }
        break;
    }
    case JET_T_GUID: {
        uint8_t g[16];
        if (v->type != JET_T_GUID)
            return JET_EUNSUPPORTED;
        /* stored Data1..3 little-endian; keys use the canonical order */
        g[0] = v->u.guid[3]; g[1] = v->u.guid[2];
        g[2] = v->u.guid[1]; g[3] = v->u.guid[0];
        g[4] = v->u.guid[5]; g[5] = v->u.guid[4];
        g[6] = v->u.guid[7]; g[7] = v->u.guid[6];
        memcpy(g + 8, v->u.guid + 8, 8);
        buf[p++] = ascending ? ASC_START : DESC_START;
        rc = put_segments(buf, cap, &p, g, 16, ascending);
        if (rc == JET_OK)
            *pos = p;
        return rc;
    }
    case JET_T_BINARY:
        if (v->type != JET_T_BINARY || (v->len && !v->data))
            return JET_EUNSUPPORTED;
        buf[p++] = ascending ? ASC_START : DESC_START;
        rc = put_segments(buf, cap, &p, v->data, v->len, ascending);
        if (rc == JET_OK)
            *pos = p;
        return rc;
    case JET_T_EXT_DATETIME: {
        uint8_t d[42];
        static const uint8_t trailer[7] = { 0, 0, 0, 0, 0, 0, 0x02 };
        if (v->type != JET_T_EXT_DATETIME || v->len < 42 || !v->data)
            return JET_EUNSUPPORTED;
        if (p + 1 + 5 * 9 + 2 + 7 > cap)
            return JET_ELIMIT;
        memcpy(d, v->data, 42);
        if (!ascending)
            flip(d, 42);
        buf[p++] = ascending ? ASC_START : DESC_START;
        for (int i = 0; i < 5; i++) {
            memcpy(buf + p, d + 8 * i, 8);
            buf[p + 8] = 0x09;
            p += 9;
        }
        memcpy(buf + p, d + 40, 2);
        memcpy(buf + p + 2, trailer, 7);
        if (!ascending)
            flip(buf + p + 2, 7);
        *pos = p + 9;
        return JET_OK;
    }
    default:
        return JET_EUNSUPPORTED;
    }
    if (p + 1 + n > cap)
        return JET_ELIMIT;
    buf[p] = ascending ? ASC_START : DESC_START;
    memcpy(buf + p + 1, b, n);
    *pos = p + 1 + n;
    return JET_OK;
}

jet_rc jet_index_encode_calc_value(uint8_t *buf, size_t cap, size_t *pos,
                                   jet_type result_type, bool ascending,
                                   const jet_value *v)
{
    uint8_t b[20 + 16 + 3];
    size_t n, p = *pos;
    jet_rc rc;

    if (p >= cap)
        return JET_ELIMIT;
    if (result_type == JET_T_BOOL)   /* by its value, as a plain BOOL */
        return jet_index_encode_value(buf, cap, pos, result_type, ascending,
                                      false, v);
    if (v->is_null) {
        buf[p] = ascending ? ASC_NULL : DESC_NULL;
        *pos = p + 1;
        return JET_OK;
    }
    if (v->type != result_type)
        return JET_EUNSUPPORTED;
    memset(b, 0, sizeof b);
    switch (result_type) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_MONEY:
    case JET_T_BIGINT: {
        int64_t x;
        rc = value_int(v, result_type, &x);
        if (rc != JET_OK)
            return rc;
        n = result_type == JET_T_BYTE ? 1 : result_type == JET_T_INT ? 2
            : result_type == JET_T_LONG ? 4 : 8;
        put_be(b + 20, (uint64_t)x, n);
        break;
    }
    case JET_T_FLOAT: {
        uint32_t u;
        memcpy(&u, &v->u.f, 4);
        n = 4;
        put_be(b + 20, u, 4);
        break;
    }
    case JET_T_DOUBLE: case JET_T_DATETIME: {
        uint64_t u;
        memcpy(&u, &v->u.d, 8);
        n = 8;
        put_be(b + 20, u, 8);
        break;
    }
    case JET_T_NUMERIC:
        /* length 14, scale, sign, the 12-byte magnitude big-endian */
        n = 16;
        put_be(b + 20, 14, 2);
        b[22] = v->u.num.scale;
        b[23] = v->u.num.negative ? 0x80 : 0x00;
        for (int i = 0; i < 12; i++)
            b[24 + i] = v->u.num.mag[11 - i];
        break;
    default:
        return JET_EUNSUPPORTED;
    }
    put_be(b + 16, n, 4);
    n += 23;
    /* the wrapper's first byte stands where the value's sign would: the
     * integer and floating-point rules flip its top bit, the NUMERIC
     * rule sets it to 0xFF, BYTE leaves it */
    if (result_type == JET_T_NUMERIC)
        b[0] = 0xFF;
    else if (result_type != JET_T_BYTE)
        b[0] ^= 0x80;
    if (!ascending)
        flip(b, n);
    if (p + 1 + n > cap)
        return JET_ELIMIT;
    buf[p] = ascending ? ASC_START : DESC_START;
    memcpy(buf + p + 1, b, n);
    *pos = p + 1 + n;
    return JET_OK;
}

/* ---------------------------------------------------------------- pages */

/* Entry pointers are big-endian, unlike the rest of the file. */
static uint32_t get_be24(const uint8_t *p)
{
    return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

/* Mask bytes [i, i + 8) as a little-endian word (bit n = bit n % 8 of
 * byte i + n / 8); bytes past the mask read as 0. */
static uint64_t mask_word(const uint8_t *m, uint32_t mask_len, uint32_t i)
{
    uint64_t w = 0;
    if (mask_len - i >= 8) {
        memcpy(&w, m + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        return w;
    }
    for (uint32_t k = mask_len - i; k-- > 0;)
        w = w << 8 | m[i + k];
    return w;
}

/* Smallest set mask bit after bit `from` (an entry end), 0 when none. */
static uint32_t next_end(const jet_index_cursor *c, const page_view *v,
                         uint32_t from)
{
    const uint8_t *m = v->page + c->lay->mask;
    uint32_t len = c->lay->mask_len, b = from + 1;
    while (b / 8 < len) {
        uint32_t i = b / 8;
        uint64_t w = mask_word(m, len, i) >> (b % 8);
        if (w)
            return b + (uint32_t)__builtin_ctzll(w);
        b = (i + 8) * 8;
    }
    return 0;
}

/* Largest set mask bit before bit `before`, 0 when none. */
static uint32_t prev_end(const jet_index_cursor *c, const page_view *v,
                         uint32_t before)
{
    const uint8_t *m = v->page + c->lay->mask;
    uint32_t len = c->lay->mask_len;
    uint32_t b;
    if (before == 0)
        return 0;
    b = before - 1;             /* highest candidate bit */
    for (;;) {
        /* the word whose top byte holds bit b */
        uint32_t top = b / 8, i = top >= 7 ? top - 7 : 0;
        uint32_t hi = (top - i) * 8 + b % 8;    /* bit b in the word */
        uint64_t w = mask_word(m, len, i);
        if (hi < 63)
            w &= (2ull << hi) - 1;
        if (w)
            return i * 8 + 63 - (uint32_t)__builtin_clzll(w);
        if (i == 0)
            return 0;
        b = i * 8 - 1;
    }
}

/* Is page pgno, reached from index c->ix, an index page of its table?
 * Type 0x03/0x04 and owner (offset 4) = the table's tdef page, else
 * JET_ECORRUPT naming page, index and table. (open_page and check_entry
 * check the entry layout: prefix and entry mask.) */
static jet_rc check_index_page(jet_index_cursor *c, const uint8_t *page,
                               uint32_t pgno)
{
    uint32_t owner = jet_get_u32(page + 4);
    if (page[0] != PAGE_NODE && page[0] != PAGE_LEAF)
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "page %u of index %s of table %s is not an index "
                        "page (type 0x%02x)", pgno, c->ix->name,
                        c->t->pub.name, page[0]);
    if (owner != c->t->pub.pgno)
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "index page %u of index %s of table %s belongs to "
                        "the table defined at page %u", pgno, c->ix->name,
                        c->t->pub.name, owner);
    return JET_OK;
}

/*
 * Check pinned page pgno as an index page and set up v: the page type,
 * the shared prefix length, and that the entry mask marks no entry end at
 * 0 or past the page. Entries are checked by check_entry when used; the
 * checks on index page bytes are these two functions. Format: mdbtools
 * HACKING.md "Index Pages"; Jackcess IndexData (entry mask, prefix
 * compression).
 */
static jet_rc open_page(jet_index_cursor *c, page_view *v,
                        const uint8_t *page, uint32_t pgno)
{
    const idx_layout *lay = c->lay;
    uint32_t page_size = c->db->page_size;

    uint32_t area_len, nbits = (uint32_t)lay->mask_len * 8;
    jet_rc rc;

    v->page = page;
    v->pgno = pgno;
    v->last_end = 0;
    rc = check_index_page(c, page, pgno);
    if (rc != JET_OK)
        return rc;
    v->leaf = page[0] == PAGE_LEAF;
    v->prefix_len = lay->prefix_size == 1 ? page[lay->prefix_len]
                                          : jet_get_u16(page + lay->prefix_len);
    if (c->area >= page_size || v->prefix_len > page_size - c->area)
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "index page %u: shared prefix of %u bytes", pgno,
                        v->prefix_len);
    if (page[lay->mask] & 1)
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "index page %u: entry mask marks an empty entry",
                        pgno);
    /* an entry may end at the end of the page, not past it (the mask
     * has a few bits more than the entry area has bytes) */
    area_len = page_size - c->area;
    if (area_len < nbits) {
        uint32_t b = next_end(c, v, area_len);
        if (b != 0)
            return jet_fail(&c->err, JET_ECORRUPT, pgno,
                            "index page %u: entry mask marks an entry end "
                            "at %u outside the page", pgno, b);
    }
    v->last_end = NO_END;
    return JET_OK;
}

/* End of the last entry of v (0: none). */
static uint32_t last_end(const jet_index_cursor *c, page_view *v)
{
    if (v->last_end == NO_END)
        v->last_end = prev_end(c, v, (uint32_t)c->lay->mask_len * 8);
    return v->last_end;
}

/* The entry that holds area byte `at`; x.e == 0 when at lies past the
 * last entry. */
static ent entry_at(const jet_index_cursor *c, const page_view *v,
                    uint32_t at)
{
    ent x;
    x.s = prev_end(c, v, at + 1);
    x.e = next_end(c, v, at);
    return x;
}

/* Entry x of v as up to two byte runs: the shared prefix (entries after
 * the first) and the stored bytes. */
static void entry_parts(const jet_index_cursor *c, const page_view *v,
                        ent x, const uint8_t **p1, size_t *l1,
                        const uint8_t **p2, size_t *l2)
{
    const uint8_t *area = v->page + c->area;
    if (x.s == 0 || v->prefix_len == 0) {
        *p1 = area + x.s;
        *l1 = x.e - x.s;
        *p2 = NULL;
        *l2 = 0;
    } else {
        *p1 = area;
        *l1 = v->prefix_len;
        *p2 = area + x.s;
        *l2 = x.e - x.s;
    }
}

/*
 * Width in bytes of the key column of type t starting at key byte `at` of
 * entry bytes e (its flag byte; bytes from `end` on are not the key), or 0
 * when the type's width depends on bytes we do not parse (text, long
 * values, unknown types) or runs past `end`. Binary and GUID keys are
 * 9-byte segments ending in a length byte other than 9.
 */
/* Width in bytes (flag byte included) of a present key column of type
 * t: KW_SEGMENTS for binary and GUID keys (9-byte segments), 0 when the
 * type does not show it (text, long values, unknown types). Format:
 * Jackcess IndexData ColumnDescriptor classes, IndexCodes. */
static size_t key_type_width(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: return 2;
    case JET_T_INT: return 3;
    case JET_T_LONG: case JET_T_COMPLEX: case JET_T_FLOAT: return 5;
    case JET_T_MONEY: case JET_T_BIGINT: case JET_T_DOUBLE:
    case JET_T_DATETIME: return 9;
    case JET_T_NUMERIC: return 18;
    case JET_T_EXT_DATETIME: return 1 + 5 * 9 + 9;
    case JET_T_GUID: case JET_T_BINARY: return KW_SEGMENTS;
    default: return 0;
    }
}

static size_t key_col_width(jet_type t, bool asc, const eparts *e,
                            size_t at, size_t end)
{
    size_t w;
    if (at >= end)
        return 0;
    if (t == JET_T_BOOL)
        return 2;
    if (eparts_byte(e, at) == (asc ? ASC_NULL : DESC_NULL))
        return 1;
    w = key_type_width(t);
    if (w != KW_SEGMENTS)
        return w;
    for (w = 1; at + w + 9 <= end; w += 9)
        if (eparts_byte(e, at + w + 8) != 9)
            return w + 9;
    return 0;
}

/*
 * Does key bytes [0, klen) of entry e have the shape of c's key columns
 * (c->kcols, set by key_shapes): each column a flag byte of its direction
 * (present or null) and the width its type gives, the last one ending at
 * klen? A column whose width the key bytes do not show (text, long
 * values) ends the check with the rest taken as its. A cleared entry mask
 * bit merges two entries into one longer than its columns; a set one
 * splits an entry. Format: Jackcess IndexData ColumnDescriptor classes,
 * IndexCodes.
 */
static bool key_shape_ok(const jet_index_cursor *c, const eparts *e,
                         size_t klen)
{
    size_t at = 0;
    for (uint16_t k = 0; k < c->kcols; k++) {
        const key_shape *ks = &c->kshape[k];
        uint8_t flag;
        size_t w;
        if (at >= klen)
            return false;
        flag = eparts_byte(e, at);
        if (flag == ks->start)
            w = ks->width;
        else if (flag == ks->null)
            w = ks->null_width;
        else
            return false;
        if (w == KW_SEGMENTS)
            w = key_col_width(ks->type, ks->start == ASC_START, e, at, klen);
        if (w == 0)
            return true;            /* width not shown: the rest is its */
        at += w;
    }
    /* columns past kcols (none when the tdef names one we lack) are not
     * ours to judge */
    return at == klen || c->kcols == 0 || c->kcols < c->ix->ncols;
}

/* Set c->kshape and c->kcols from the index's columns (key_shape_ok). */
static void key_shapes(jet_index_cursor *c)
{
    c->kcols = 0;
    c->kfull = 0;
    for (uint16_t k = 0; k < c->ix->ncols && k < 10; k++) {
        const jet_index_column *ic = &c->ix->cols[k];
        key_shape *ks = &c->kshape[k];
        jet_type t;
        if (ic->col >= c->t->pub.ncols)
            return;                 /* not ours to judge from here on */
        t = c->t->cols[ic->col].type;
        ks->type = t;
        ks->start = ic->ascending ? ASC_START : DESC_START;
        ks->null = ic->ascending ? ASC_NULL : DESC_NULL;
        ks->null_width = t == JET_T_BOOL ? 2 : 1;
        ks->width = (uint8_t)key_type_width(t);
        c->kcols = (uint16_t)(k + 1);
        if (ks->width == 0 || ks->width == KW_SEGMENTS ||
            c->kfull == SIZE_MAX)
            c->kfull = SIZE_MAX;
        else
            c->kfull += ks->width;
    }
    if (c->kcols == 0 || c->kcols < c->ix->ncols)
        c->kfull = SIZE_MAX;
    c->kvar_first = c->kcols > 0 && c->kshape[0].width == 0;
}

/*
 * Check entry x of v: the first holds the shared prefix, and with the
 * prefix restored each holds its row pointer (and child pointer on node
 * pages) and fits a page; the pointers name pages of the file (not page
 * 0, the header) and the key has the shape of the index's columns
 * (key_shape_ok). Every entry a seek or walk compares or returns passes
 * here, so a damaged entry on its way is an error, not a wrong turn.
 */
static jet_rc check_entry_full(jet_index_cursor *c, const page_view *v,
                               ent x)
{
    size_t len = x.e - x.s, tail = v->leaf ? 4 : 8;
    eparts e;
    size_t l2;
    uint32_t data, child = 0;
    if (x.e <= x.s)
        return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                        "index page %u: bad entry bounds %u..%u", v->pgno,
                        x.s, x.e);
    if (x.s == 0 && v->prefix_len > len)
        return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                        "index page %u: shared prefix longer than its first "
                        "entry", v->pgno);
    if (x.s > 0)
        len += v->prefix_len;
    if (len < tail || len > c->db->page_size)
        return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                        "index page %u: entry of %zu bytes", v->pgno, len);
    entry_parts(c, v, x, &e.p1, &e.l1, &e.p2, &l2);
    if (x.e - x.s >= tail) {
        /* the pointers lie in the stored bytes (all but always) */
        const uint8_t *p = v->page + c->area + x.e - tail;
        data = get_be24(p);
        if (!v->leaf)
            child = (uint32_t)p[4] << 24 | get_be24(p + 5);
    } else {
        data = (uint32_t)eparts_byte(&e, len - tail) << 16 |
               (uint32_t)eparts_byte(&e, len - tail + 1) << 8 |
               eparts_byte(&e, len - tail + 2);
        if (!v->leaf)
            for (size_t k = len - 4; k < len; k++)
                child = child << 8 | eparts_byte(&e, k);
    }
    if (data == 0 || data >= c->page_count ||
        (!v->leaf && (child == 0 || child >= c->page_count)))
        return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                        "index page %u: damaged index %s: entry at %u "
                        "points at page %u", v->pgno, c->ix->name, x.s,
                        data == 0 || data >= c->page_count ? data : child);
    if (!key_shape_ok(c, &e, len - tail))
        return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                        "index page %u: damaged index %s: entry at %u of "
                        "%zu bytes does not fit its key columns", v->pgno,
                        c->ix->name, x.s, len);
    return JET_OK;
}

/* check_entry_full, first the common case in a few instructions (seeks
 * check every entry they probe): pointers in the stored bytes naming
 * pages of the file, and a key of fixed-width columns, all present, or
 * one whose first column (present) has a width the type does not give,
 * with the first flag byte right. */
static inline jet_rc check_entry(jet_index_cursor *c, const page_view *v,
                                 ent x)
{
    uint32_t n = x.e - x.s, tail = v->leaf ? 4 : 8;
    const uint8_t *area = v->page + c->area, *p;
    size_t klen;
    if (x.e <= x.s || n < tail || (x.s == 0 && v->prefix_len > n))
        return check_entry_full(c, v, x);
    klen = n + (x.s > 0 ? v->prefix_len : 0) - tail;
    p = area + x.e - tail;
    if ((klen != c->kfull &&
         (!c->kvar_first || klen + tail > c->db->page_size)) ||
        area[v->prefix_len ? 0 : x.s] !=
        c->kshape[0].start || get_be24(p) - 1u >= c->page_count - 1u ||
        (!v->leaf && ((uint32_t)p[4] << 24 | get_be24(p + 5)) - 1u >=
                     c->page_count - 1u))
        return check_entry_full(c, v, x);
    return JET_OK;
}

/* Entry x of v assembled into c->entry; its length. */
static size_t entry_copy(jet_index_cursor *c, const page_view *v, ent x)
{
    const uint8_t *p1, *p2;
    size_t l1, l2;
    entry_parts(c, v, x, &p1, &l1, &p2, &l2);
    memcpy(c->entry, p1, l1);
    if (l2)
        memcpy(c->entry + l1, p2, l2);
    return l1 + l2;
}

/* Byte at offset k of an entry in parts (k < its length). */
static uint8_t entry_byte(const uint8_t *p1, size_t l1, const uint8_t *p2,
                          size_t k)
{
    return k < l1 ? p1[k] : p2[k - l1];
}

/* Compare the first elen bytes of an entry in parts (p1, l1 then p2)
 * with k (klen bytes): the common length by bytes, then the shorter one
 * is smaller when tail_counts (else an entry longer than k is equal). */
static int cmp_parts(const uint8_t *p1, size_t l1, const uint8_t *p2,
                     size_t elen, const uint8_t *k, size_t klen,
                     bool tail_counts)
{
    size_t n = elen < klen ? elen : klen;
    size_t a = n < l1 ? n : l1;
    int r = a ? memcmp(p1, k, a) : 0;
    if (r == 0 && n > a)
        r = memcmp(p2, k + a, n - a);
    if (r != 0)
        return r;
    if (elen < klen)
        return -1;
    return tail_counts && elen > klen ? 1 : 0;
}

/* Compare the key of entry x (all but its tail pointer bytes) with key
 * prefix k: only the first klen bytes of the entry count; an entry key
 * shorter than k that matches so far is smaller. */
static int cmp_entry(const jet_index_cursor *c, const page_view *v, ent x,
                     const uint8_t *k, size_t klen)
{
    const uint8_t *p1, *p2;
    size_t l1, l2;
    entry_parts(c, v, x, &p1, &l1, &p2, &l2);
    return cmp_parts(p1, l1, p2, l1 + l2 - (v->leaf ? 4 : 8), k, klen,
                     false);
}

/*
 * Is (checked) entry x, the next one a walk touches, out of order after
 * the one before it (kept in c->entry)? Keys ascend along a page and the
 * leaf chain, equal keys allowed (a merged or split entry, a stray mask
 * bit past the last entry or a leaf from another index usually breaks
 * this); reverse walks see them descend.
 */
static bool out_of_order(const jet_index_cursor *c, const page_view *v,
                         ent x)
{
    int r;
    size_t klen;
    if (!c->have_prev)
        return false;
    r = cmp_entry(c, v, x, c->entry, c->prev_klen);
    if (!c->reverse)
        return r < 0;
    klen = x.e - x.s + (x.s > 0 ? v->prefix_len : 0) - (v->leaf ? 4 : 8);
    return r > 0 || (r == 0 && klen > c->prev_klen);
}

/* JET_ECORRUPT for entry x of v out of order (out_of_order). */
static jet_rc fail_order(jet_index_cursor *c, const page_view *v, ent x)
{
    return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                    "index page %u: damaged index %s: entry at %u is out "
                    "of order", v->pgno, c->ix->name, x.s);
}

/* Does the key of (checked) entry x pass the lower bound (bytes)? */
static bool past_lower(const jet_index_cursor *c, const page_view *v, ent x)
{
    int r;
    if (c->lower.len == 0)
        return true;
    r = cmp_entry(c, v, x, c->lower.key, c->lower.len);
    return c->lower_op == JET_SEEK_GT && !c->lower.exact ? r > 0 : r >= 0;
}

/* Does the key of (checked) entry x lie beyond the upper bound (bytes)? */
static bool past_upper(const jet_index_cursor *c, const page_view *v, ent x)
{
    int r;
    if (!c->has_upper)
        return false;
    r = cmp_entry(c, v, x, c->upper.key, c->upper.len);
    return c->upper_inclusive || c->upper.exact ? r > 0 : r >= 0;
}

/* Compare entry x's key and row pointer (a node entry's child pointer
 * left out) with the whole leaf entry k (klen bytes, pointer included). */
static int cmp_entry_whole(const jet_index_cursor *c, const page_view *v,
                           ent x, const uint8_t *k, size_t klen)
{
    const uint8_t *p1, *p2;
    size_t l1, l2;
    entry_parts(c, v, x, &p1, &l1, &p2, &l2);
    return cmp_parts(p1, l1, p2, l1 + l2 - (v->leaf ? 0 : 4), k, klen,
                     true);
}

/* Resuming a walk after the entry in c->entry: forward, does entry x
 * come after it; reverse, is x at or after it (the walk goes back from
 * there)? */
static bool past_resume(const jet_index_cursor *c, const page_view *v,
                        ent x)
{
    int r = cmp_entry_whole(c, v, x, c->entry, c->prev_klen + 4);
    return c->reverse ? r >= 0 : r > 0;
}

/* Start of the first entry of v for which pred holds (pred is false,
 * then true, along the page), v->last_end when none: a binary search
 * over entry area positions. */
static jet_rc search_page(jet_index_cursor *c, page_view *v,
                          bool (*pred)(const jet_index_cursor *,
                                       const page_view *, ent),
                          uint32_t *out)
{
    uint32_t lo = 0, hi = v->last_end != NO_END
                              ? v->last_end : c->db->page_size - c->area;
    while (lo < hi) {
        ent x = entry_at(c, v, lo + (hi - lo) / 2);
        jet_rc rc;
        if (x.e == 0) {
            /* past the last entry, which ends at x.s */
            v->last_end = x.s;
            hi = x.s;
            continue;
        }
        rc = check_entry(c, v, x);
        if (rc != JET_OK)
            return rc;
        if (pred(c, v, x))
            hi = x.s;
        else
            lo = x.e;
    }
    *out = lo;
    return JET_OK;
}

/* -------------------------------------------------- exact date bounds */

/*
 * Jet date (days since 1899-12-30; before that the integer part counts
 * days back and the fraction is the time of day forward) as chronological
 * milliseconds, rounded to the millisecond like the SQL engine compares
 * dates. Far-out values saturate.
 */
static int64_t date_ms(double d)
{
    int64_t day;
    double frac;
    if (!(d > -1e9 && d < 1e9))
        return d > 0 ? INT64_MAX / 2 : INT64_MIN / 2;
    day = (int64_t)d;                   /* truncates toward zero */
    frac = d - (double)day;
    if (frac < 0)
        frac = -frac;
    /* frac * 86400000 + 0.5 >= 0: the cast is floor() */
    return day * 86400000 + (int64_t)(frac * 86400000.0 + 0.5);
}

/* Smallest whole number >= x, for |x| < 1e9 (no libm in the core). */
static double ceil_small(double x)
{
    double t = (double)(int64_t)x;
    return t < x ? t + 1 : t;
}

/* The value of floating-point key column bytes e (flag byte, then n = 4
 * (Single) or 8 (Double, Date/Time) bytes). */
static double key_double(const uint8_t *e, bool asc, size_t n)
{
    uint8_t b[8];
    uint64_t u = 0;
    memcpy(b, e + 1, n);
    if (!asc)
        flip(b, n);
    if (b[0] & 0x80)
        b[0] ^= 0x80;           /* was positive: sign bit flipped */
    else
        flip(b, n);             /* was negative: all bytes inverted */
    for (size_t i = 0; i < n; i++)
        u = (u << 8) | b[i];
    if (n == 4) {
        float f;
        uint32_t u32 = (uint32_t)u;
        memcpy(&f, &u32, 4);
        return f;
    }
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/*
 * Compare entry key e (elen bytes) with bound b column by column in index
 * order, dates chronologically to the millisecond. Only b->nkeys columns
 * count. *ok = false when the entry's columns cannot be parsed.
 */
static int cmp_exact(const jet_index_cursor *c, const uint8_t *e, size_t elen,
                     const bound *b, bool *ok)
{
    size_t pe = 0;
    eparts whole = { e, elen, NULL };
    *ok = true;
    for (uint16_t k = 0; k < b->nkeys; k++) {
        const jet_index_column *ic = &c->ix->cols[k];
        jet_type t = c->t->cols[ic->col].type;
        const uint8_t *bk = b->exact_key + b->col_off[k];
        size_t bl = (size_t)b->col_off[k + 1] - b->col_off[k];
        size_t w = key_col_width(t, ic->ascending, &whole, pe, elen);
        int r;
        if (t == JET_T_TEXT || t == JET_T_MEMO) {
            /* the last key column: a prefix of the entry's bytes */
            size_t n = elen - pe < bl ? elen - pe : bl;
            r = n ? memcmp(e + pe, bk, n) : 0;
            return r != 0 ? r : (elen - pe < bl ? -1 : 0);
        }
        if (w == 0 || pe + w > elen) {
            *ok = false;
            return 0;
        }
        if (t == JET_T_DATETIME && w == 9 && bl == 9) {
            int64_t em = date_ms(key_double(e + pe, ic->ascending, 8));
            r = em < b->ms[k] ? -1 : em > b->ms[k];
            if (!ic->ascending)
                r = -r;
        } else if ((t == JET_T_DOUBLE && w == 9 && bl == 9) ||
                   (t == JET_T_FLOAT && w == 5 && bl == 5)) {
            /* by value: -0 equals +0 */
            double ev = key_double(e + pe, ic->ascending, w - 1);
            double bv = key_double(bk, ic->ascending, w - 1);
            r = ev < bv ? -1 : ev > bv;
            if (!ic->ascending)
                r = -r;
        } else {
            size_t n = w < bl ? w : bl;
            r = memcmp(e + pe, bk, n);
            if (r == 0)
                r = w < bl ? -1 : w > bl;
        }
        if (r != 0)
            return r;
        pe += w;
    }
    return 0;
}

/* Does the entry in c->entry (key klen bytes) meet the exact bounds? */
static bool in_exact_bounds(const jet_index_cursor *c, size_t klen)
{
    bool ok;
    int r;
    if (c->lower.exact && c->lower.len) {
        r = cmp_exact(c, c->entry, klen, &c->lower, &ok);
        if (ok && (c->lower_op == JET_SEEK_GT ? r <= 0 : r < 0))
            return false;
    }
    if (c->upper.exact && c->has_upper) {
        r = cmp_exact(c, c->entry, klen, &c->upper, &ok);
        if (ok && (c->upper_inclusive ? r > 0 : r >= 0))
            return false;
    }
    return true;
}

/*
 * A Jet date double bounding, in value order, every double whose date is
 * within 2 ms of chronological instant ms (low = below it, else above).
 * Before 1899-12-30 Jet stores day - time, so within one day the doubles
 * run opposite to time, and on day 0 a time t may be stored as +t or -t:
 * there the bound widens to the whole day. Callers check exact bounds.
 */
static double date_bound(double d, bool low)
{
    double ch = (double)date_ms(d) / 86400000.0;
    if (!(d > -1e9 && d < 1e9))
        return d;
    if (low) {
        ch -= 2.0 / 86400000.0;
        if (ch >= 1.0)
            return ch;
        return -((ch >= 0 ? 0.0 : ceil_small(-ch)) + 1.0);
    }
    ch += 2.0 / 86400000.0;
    if (ch >= 0)
        return ch;
    return -ceil_small(-ch);
}

/* ----------------------------------------------------------------- API */

static void release_leaf(jet_index_cursor *c)
{
    if (c->leaf.page) {
        jet_page_unpin(c->db->pf, c->leaf.page);
        c->leaf.page = NULL;
    }
}

/* Forget the position: the next jet_index_next() descends again. */
static void restart(jet_index_cursor *c)
{
    release_leaf(c);
    c->positioned = false;
    c->done = false;
    c->failed = JET_OK;
    c->resuming = false;
    c->have_prev = false;
    c->key = NULL;
    c->key_len = 0;
}

/* A bound holding no key: every field but the key buffers zeroed. */
static void bound_clear(bound *b)
{
    b->len = 0;
    b->nkeys = 0;
    b->exact = false;
    memset(b->col_off, 0, sizeof b->col_off);
    memset(b->ms, 0, sizeof b->ms);
}

/* Fill c as a cursor just opened on index ix of tdef (entry: its buffer,
 * kept): every field but the bounds' key buffers, which encode_keys fills
 * before anything reads them. */
static void cursor_init(jet_index_cursor *c, jet_db *db, const jet_tdef *tdef,
                        const jet_index *ix, uint8_t *entry)
{
    /* 12 KB, most of it the two bounds' key buffers, which encode_keys
     * fills before anything reads them (only below their lengths and
     * col_off ends): zero the rest only. A PK lookup opens one cursor per
     * execute, and zeroing it all cost more than the seek. */
    memset(c, 0, offsetof(jet_index_cursor, lower));
    bound_clear(&c->lower);
    memset(&c->lower_op, 0, offsetof(jet_index_cursor, upper) -
                            offsetof(jet_index_cursor, lower_op));
    bound_clear(&c->upper);
    memset(&c->has_upper, 0, sizeof *c - offsetof(jet_index_cursor,
                                                  has_upper));
    c->lay = db->fmt->jet3 ? &layout_jet3 : &layout_jet4;
    c->entry = entry;
    c->db = db;
    c->t = (const jet_tdef_priv *)tdef;
    c->ix = ix;
    c->area = (uint32_t)c->lay->mask + c->lay->mask_len;
    c->legacy_numeric = db->version <= JET_VER_4;
    c->page_count = jet_pagefile_page_count(db->pf);
    key_shapes(c);
    c->lower_op = JET_SEEK_GE;
    jet_error_clear(&c->err);
}

jet_rc jet_index_cursor_open(jet_index_cursor **out, jet_db *db,
                             const jet_tdef *tdef, uint16_t index_no)
{
    jet_index_cursor *c;
    *out = NULL;
    if (!tdef || index_no >= tdef->nindexes)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "index %u of %u", index_no,
                        tdef ? tdef->nindexes : 0);
    c = jet_malloc(sizeof *c);
    if (!c)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    uint8_t *entry = jet_malloc(db->page_size);
    if (!entry) {
        jet_free(c);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    cursor_init(c, db, tdef, &tdef->indexes[index_no], entry);
    *out = c;
    return JET_OK;
}

void jet_index_cursor_reset(jet_index_cursor *c)
{
    release_leaf(c);
    cursor_init(c, c->db, &c->t->pub, c->ix, c->entry);
}

void jet_index_cursor_close(jet_index_cursor *c)
{
    if (!c)
        return;
    release_leaf(c);
    jet_free(c->entry);
    jet_free(c);
}

const jet_error *jet_index_error(const jet_index_cursor *c)
{
    return &c->err;
}

uint16_t jet_index_seekable_cols(const jet_tdef *tdef, uint16_t index_no)
{
    const jet_index *ix;
    uint16_t n = 0;
    if (!tdef || index_no >= tdef->nindexes)
        return 0;
    ix = &tdef->indexes[index_no];
    while (n < ix->ncols && ix->cols[n].col < tdef->ncols) {
        const jet_column *col = &tdef->cols[ix->cols[n].col];
        jet_type t = col->type;
        if ((col->flags & JET_COL_CALCULATED) || t == JET_T_TEXT ||
            t == JET_T_MEMO || t == JET_T_OLE || t == JET_T_UNKNOWN_0D ||
            t == JET_T_UNKNOWN_0E || t == JET_T_UNKNOWN_11)
            break;
        n++;
    }
    return n;
}

bool jet_index_text_seekable(const jet_db *db, const jet_tdef *tdef,
                             uint16_t index_no)
{
    uint16_t n = jet_index_seekable_cols(tdef, index_no);
    const jet_index *ix;
    const jet_column *col;
    if (!db || !tdef || index_no >= tdef->nindexes)
        return false;
    ix = &tdef->indexes[index_no];
    if (n >= ix->ncols || ix->cols[n].col >= tdef->ncols)
        return false;
    col = &tdef->cols[ix->cols[n].col];
    return !(col->flags & JET_COL_CALCULATED) &&
           jet_collation_of(db->version, col) != JET_COLL_NONE;
}

jet_rc jet_index_text_units(const jet_db *db, const jet_value *k,
                            uint16_t units[256], size_t *n)
{
    *n = 0;
    if (k->enc == JET_ENC_UCS2) {
        size_t m = k->len / 2 < 256 ? k->len / 2 : 256;
        for (size_t i = 0; i < m; i++)
            units[i] = (uint16_t)(k->data[2 * i] | k->data[2 * i + 1] << 8);
        *n = m;
        return JET_OK;
    }
    jet_rc rc = jet_text_to_utf16(db, k, units, 256, n);
    if (*n > 256)
        *n = 256;
    return rc;
}

bool jet_index_text_range_key(const jet_db *db, const jet_tdef *tdef,
                              uint16_t index_no, const jet_value *k)
{
    uint16_t units[256];
    uint8_t buf[JET_INDEX_KEY_MAX];
    size_t n = 0, pos = 0;
    bool complete = false;
    jet_collation co;
    if (!k || k->is_null || (k->type != JET_T_TEXT && k->type != JET_T_MEMO) ||
        !jet_index_text_seekable(db, tdef, index_no))
        return false;
    const jet_index *ix = &tdef->indexes[index_no];
    co = jet_collation_of(db->version,
                          &tdef->cols[ix->cols[jet_index_seekable_cols(
                                                   tdef, index_no)].col]);
    if (jet_index_text_units(db, k, units, &n) != JET_OK)
        return false;
    if (n > 255)
        n = 255;
    while (n > 0 && units[n - 1] == ' ')
        n--;
    return n > 0 && jet_collate_covered(co, units, n) &&
           jet_collate_prefix(buf, sizeof buf, &pos, co, units, n,
                              &complete) == JET_OK && pos > 0;
}

/* Text key k (UTF-16) of index column ic as a prefix: flag byte and the
 * inline sort codes, inverted when descending. */
static jet_rc encode_text_key(jet_index_cursor *c, const jet_index_column *ic,
                              const jet_value *k, uint8_t *buf, size_t *pos)
{
    const jet_column *col = &c->t->cols[ic->col];
    uint16_t units[256];
    size_t n = 0, start;
    bool complete;
    jet_rc rc;
    if (*pos >= JET_INDEX_KEY_MAX)
        return JET_ELIMIT;
    if (k->is_null) {
        buf[(*pos)++] = ic->ascending ? ASC_NULL : DESC_NULL;
        return JET_OK;
    }
    if (k->type != JET_T_TEXT && k->type != JET_T_MEMO)
        return JET_EUNSUPPORTED;
    rc = jet_index_text_units(c->db, k, units, &n);
    if (rc != JET_OK)
        return rc;
    buf[(*pos)++] = ic->ascending ? ASC_START : DESC_START;
    start = *pos;
    rc = jet_collate_prefix(buf, JET_INDEX_KEY_MAX, pos,
                            jet_collation_of(c->db->version, col), units, n,
                            &complete);
    if (rc == JET_OK && !ic->ascending)
        flip(buf + start, *pos - start);
    return rc;
}

/*
 * Encode nkeys leading key values into b: the exact keys and, when a
 * DATETIME column is among them, the widened walk key (lower: the low
 * end in index order, else the high end).
 */
static jet_rc encode_keys(jet_index_cursor *c, const jet_value *keys,
                          uint16_t nkeys, bound *b, bool lower)
{
    size_t pos = 0, wpos = 0;
    bool dates = false;
    b->len = 0;
    b->nkeys = 0;
    b->exact = false;
    if (nkeys > c->ix->ncols || nkeys > 10)
        return jet_fail(&c->err, JET_ELIMIT, JET_NO_PGNO,
                        "%u key values for index %s of %u columns", nkeys,
                        c->ix->name, c->ix->ncols);
    {
        uint16_t ino = (uint16_t)(c->ix - c->t->indexes);
        uint16_t ns = jet_index_seekable_cols(&c->t->pub, ino);
        if (nkeys > ns + (jet_index_text_seekable(c->db, &c->t->pub, ino)
                          ? 1 : 0))
            return jet_fail(&c->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "index %s: cannot seek on its text/long columns",
                            c->ix->name);
    }
    /* exact bounds for dates and for floating-point zeros (-0 = +0) */
    for (uint16_t k = 0; k < nkeys; k++) {
        jet_type t = c->t->cols[c->ix->cols[k].col].type;
        double d;
        if (t == JET_T_DATETIME ||
            ((t == JET_T_FLOAT || t == JET_T_DOUBLE) && !keys[k].is_null &&
             value_double(&keys[k], &d) == JET_OK && d == 0))
            dates = true;
    }
    for (uint16_t k = 0; k < nkeys; k++) {
        const jet_index_column *ic = &c->ix->cols[k];
        jet_type t = c->t->cols[ic->col].type;
        jet_value w = keys[k];
        jet_rc rc;
        b->col_off[k] = (uint16_t)pos;
        if (t == JET_T_TEXT || t == JET_T_MEMO) {
            /* the last key column (checked above): a prefix */
            size_t p0 = pos;
            rc = encode_text_key(c, ic, &keys[k], b->exact_key, &pos);
            if (rc == JET_OK && dates) {
                if (pos - p0 > JET_INDEX_KEY_MAX - wpos)
                    rc = JET_ELIMIT;
                else
                    memcpy(b->key + wpos, b->exact_key + p0, pos - p0);
                wpos += pos - p0;
            }
            if (rc != JET_OK)
                return jet_fail(&c->err, rc, JET_NO_PGNO,
                                "index %s: key %u does not fit column %s",
                                c->ix->name, k, c->t->cols[ic->col].name);
            continue;
        }
        rc = jet_index_encode_value(b->exact_key, JET_INDEX_KEY_MAX, &pos, t,
                                    ic->ascending, c->legacy_numeric,
                                    &keys[k]);
        if (rc == JET_OK && t == JET_T_DATETIME && !w.is_null) {
            double d;
            rc = value_double(&keys[k], &d);
            b->ms[k] = date_ms(d);
            /* index order low end: the value's low end when ascending */
            w.type = JET_T_DOUBLE;
            w.u.d = date_bound(d, lower == ic->ascending);
        } else if (rc == JET_OK && (t == JET_T_FLOAT || t == JET_T_DOUBLE) &&
                   !w.is_null) {
            double d;
            if (value_double(&keys[k], &d) == JET_OK && d == 0) {
                /* -0 sorts right before +0: take the zero at this end */
                w.type = JET_T_DOUBLE;
                w.u.d = lower == ic->ascending ? -0.0 : 0.0;
            }
        }
        if (rc == JET_OK && dates)
            rc = jet_index_encode_value(b->key, JET_INDEX_KEY_MAX, &wpos, t,
                                        ic->ascending, c->legacy_numeric,
                                        &w);
        if (rc != JET_OK)
            return jet_fail(&c->err, rc, JET_NO_PGNO,
                            "index %s: key %u does not fit column %s",
                            c->ix->name, k, c->t->cols[ic->col].name);
    }
    b->col_off[nkeys] = (uint16_t)pos;
    b->nkeys = nkeys;
    if (dates) {
        b->exact = true;
        b->len = wpos;
    } else {
        memcpy(b->key, b->exact_key, pos);
        b->len = pos;
    }
    return JET_OK;
}

jet_rc jet_index_seek(jet_index_cursor *c, const jet_value *keys,
                      uint16_t nkeys, int op)
{
    jet_rc rc;
    restart(c);
    jet_error_clear(&c->err);
    c->lower.len = 0;
    c->lower.exact = false;
    c->lower_failed = true;
    if (op != JET_SEEK_GE && op != JET_SEEK_GT)
        return jet_fail(&c->err, JET_ELIMIT, JET_NO_PGNO, "bad seek op %d",
                        op);
    c->lower_op = op;
    if (nkeys) {
        rc = encode_keys(c, keys, nkeys, &c->lower, true);
        if (rc != JET_OK) {
            c->lower.len = 0;
            c->lower.exact = false;
            return rc;
        }
    }
    c->lower_failed = false;
    return JET_OK;
}

jet_rc jet_index_set_upper(jet_index_cursor *c, const jet_value *keys,
                           uint16_t nkeys, bool inclusive)
{
    jet_rc rc;
    restart(c);
    c->has_upper = false;
    c->upper.len = 0;
    c->upper.exact = false;
    c->upper_failed = false;
    if (nkeys == 0)
        return JET_OK;
    rc = encode_keys(c, keys, nkeys, &c->upper, false);
    if (rc != JET_OK) {
        c->upper.len = 0;
        c->upper.exact = false;
        c->upper_failed = true;
        return rc;
    }
    c->has_upper = true;
    c->upper_inclusive = inclusive;
    return JET_OK;
}

jet_rc jet_index_seek_bytes(jet_index_cursor *c, const uint8_t *key,
                            size_t len)
{
    restart(c);
    jet_error_clear(&c->err);
    bound_clear(&c->lower);
    bound_clear(&c->upper);
    c->has_upper = false;
    c->lower_failed = c->upper_failed = false;
    c->lower_op = JET_SEEK_GE;
    c->reverse = false;
    if (len == 0)
        return JET_OK;
    if (len > JET_INDEX_KEY_MAX)
        return jet_fail(&c->err, JET_ELIMIT, JET_NO_PGNO, "index %s: a key "
                        "of %zu bytes", c->ix->name, len);
    memcpy(c->lower.key, key, len);
    c->lower.len = len;
    memcpy(c->upper.key, key, len);
    c->upper.len = len;
    c->has_upper = true;
    c->upper_inclusive = true;
    return JET_OK;
}

jet_rc jet_index_set_reverse(jet_index_cursor *c, bool reverse)
{
    restart(c);
    c->reverse = reverse;
    return JET_OK;
}

/* JET_EINTERRUPTED when the interrupt check says stop before pgno. */
static jet_rc check_interrupt(jet_index_cursor *c, uint32_t pgno)
{
    if (c->intr && c->intr(c->intr_ctx))
        return jet_fail(&c->err, JET_EINTERRUPTED, JET_NO_PGNO,
                        "index %s: walk interrupted before page %u",
                        c->ix->name, pgno);
    return JET_OK;
}

/*
 * Descend from the root to the leaf where the walk starts: forward, the
 * first child whose last entry passes the lower bound; reverse, the first
 * child whose last entry lies beyond the upper bound (binary search on
 * each node page). When no entry qualifies: the child tail page, else the
 * last child.
 */
static jet_rc descend(jet_index_cursor *c, uint32_t *leaf)
{
    uint32_t pgno = c->ix->first_pgno;
    jet_pagefile *pf = c->db->pf;
    page_view node, *v = &node;

    for (int depth = 0;; depth++) {
        const uint8_t *page, *p1, *p2;
        size_t l1, l2;
        uint32_t child = 0, tail, at = 0;
        jet_rc rc;

        if (depth >= MAX_DEPTH)
            return jet_fail(&c->err, JET_ECORRUPT, pgno,
                            "index %s: tree deeper than %d levels at page "
                            "%u", c->ix->name, MAX_DEPTH, pgno);
        rc = check_interrupt(c, pgno);
        if (rc != JET_OK)
            return rc;
        rc = jet_page_pin(pf, pgno, &page, &c->err);
        if (rc != JET_OK)
            return rc;
        rc = open_page(c, v, page, pgno);
        if (rc == JET_OK && v->leaf) {
            jet_page_unpin(pf, page);
            *leaf = pgno;
            return JET_OK;
        }
        if (rc == JET_OK)
            rc = search_page(c, v, c->resuming ? past_resume
                                   : c->reverse ? past_upper : past_lower,
                             &at);
        if (rc != JET_OK) {
            jet_page_unpin(pf, page);
            return rc;
        }
        tail = jet_get_u32(page + c->lay->tail);
        if (at == last_end(c, v) && tail == 0 && at > 0)
            at = prev_end(c, v, at);            /* the last child */
        if (at < last_end(c, v)) {
            ent x = entry_at(c, v, at);
            size_t len;
            rc = check_entry(c, v, x);
            if (rc != JET_OK) {
                jet_page_unpin(pf, page);
                return rc;
            }
            entry_parts(c, v, x, &p1, &l1, &p2, &l2);
            len = l1 + l2;
            for (size_t k = len - 4; k < len; k++)
                child = (child << 8) | entry_byte(p1, l1, p2, k);
        } else {
            child = tail;
        }
        jet_page_unpin(pf, page);
        if (child == 0)
            return jet_fail(&c->err, JET_ECORRUPT, pgno,
                            "index %s: node page %u has no children",
                            c->ix->name, pgno);
        pgno = child;
    }
}

/* Pin leaf pgno as the current page and decode it; from is the leaf the
 * walk steps from (0 after a descent), which pgno must link back to. */
static jet_rc enter_leaf(jet_index_cursor *c, uint32_t pgno, uint32_t from)
{
    const uint8_t *page;
    jet_rc rc;
    if (++c->leaves_seen > jet_pagefile_page_count(c->db->pf))
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "index %s: leaf page chain loops at page %u",
                        c->ix->name, pgno);
    rc = check_interrupt(c, pgno);
    if (rc != JET_OK)
        return rc;
    rc = jet_page_pin(c->db->pf, pgno, &page, &c->err);
    if (rc != JET_OK)
        return rc;
    rc = open_page(c, &c->leaf, page, pgno);
    if (rc == JET_OK && !c->leaf.leaf)
        rc = jet_fail(&c->err, JET_ECORRUPT, pgno,
                      "index %s: page %u in the leaf chain is not a leaf",
                      c->ix->name, pgno);
    if (rc == JET_OK && from != 0 &&
        jet_get_u32(page + (c->reverse ? c->lay->next : c->lay->prev)) !=
            from)
        rc = jet_fail(&c->err, JET_ECORRUPT, pgno,
                      "index page %u: damaged index %s: leaf page %u links "
                      "to it, it does not link back", pgno, c->ix->name,
                      from);
    /* where the walk starts on this leaf */
    if (rc == JET_OK && !c->reverse)
        c->pos = 0;
    else if (rc == JET_OK)
        c->pos = last_end(c, &c->leaf);
    if (rc == JET_OK && c->resuming)
        rc = search_page(c, &c->leaf, past_resume, &c->pos);
    else if (rc == JET_OK &&
             !(c->reverse ? c->upper_passed : c->lower_passed))
        rc = search_page(c, &c->leaf, c->reverse ? past_upper : past_lower,
                         &c->pos);
    if (rc != JET_OK) {
        jet_page_unpin(c->db->pf, page);
        c->leaf.page = NULL;
        return rc;
    }
    return JET_OK;
}

/* Make the entry assembled in c->entry (len bytes) the current one. */
static void yield(jet_index_cursor *c, size_t len, uint32_t *pgno,
                  uint16_t *row)
{
    size_t klen = len - 4;
    c->key = c->entry;
    c->key_len = klen;
    *pgno = get_be24(c->entry + klen);
    *row = c->entry[klen + 3];
}

/* End the walk on error rc (not JET_DONE): the leaf released, and every
 * later jet_index_next() returns rc again until a seek or bound resets
 * the cursor, so a caller that asks again never sees a quiet end of the
 * index after a damaged page or a failed read. */
static jet_rc walk_failed(jet_index_cursor *c, jet_rc rc)
{
    release_leaf(c);
    c->done = true;
    c->failed = rc;
    return rc;
}

/* jet_index_next()'s walk from the cursor's position: forward from the
 * lower bound up to the upper, or (c->reverse) backward from the upper
 * down to the lower, following the leaves' next or prev links. */
static jet_rc walk(jet_index_cursor *c, uint32_t *pgno, uint16_t *row)
{
    const bool rev = c->reverse;
    jet_rc rc;
    for (;;) {
        ent x;
        bool have;
        if (rev) {
            have = c->pos > 0;
            if (have) {
                x.e = c->pos;
                x.s = prev_end(c, &c->leaf, x.e);
                c->pos = x.s;
                c->upper_passed = true;
            }
        } else {
            uint32_t e = next_end(c, &c->leaf, c->pos);
            have = e != 0;
            if (have) {
                x.s = c->pos;
                x.e = e;
                c->pos = e;
                c->lower_passed = true;
            }
        }
        if (have) {
            rc = check_entry(c, &c->leaf, x);
            if (rc != JET_OK)
                return walk_failed(c, rc);
            /* past the far bound, every later entry of the walk is too */
            if (rev ? !past_lower(c, &c->leaf, x) : past_upper(c, &c->leaf, x))
                break;
            if (out_of_order(c, &c->leaf, x))
                return walk_failed(c, fail_order(c, &c->leaf, x));
            size_t len = entry_copy(c, &c->leaf, x);
            c->prev_klen = len - 4;
            c->have_prev = true;
            if ((c->lower.exact || c->upper.exact) &&
                !in_exact_bounds(c, len - 4))
                continue;
            yield(c, len, pgno, row);
            return JET_OK;
        }
        uint32_t link = jet_get_u32(c->leaf.page +
                                    (rev ? c->lay->prev : c->lay->next));
        uint32_t from = c->leaf.pgno;
        release_leaf(c);
        if (link == 0)
            break;
        rc = enter_leaf(c, link, from);
        if (rc != JET_OK)
            return walk_failed(c, rc);
    }
    release_leaf(c);
    c->done = true;
    return JET_DONE;
}

jet_rc jet_index_next(jet_index_cursor *c, uint32_t *pgno, uint16_t *row)
{
    jet_rc rc;

    c->key = NULL;
    c->key_len = 0;
    if (c->failed != JET_OK)
        return c->failed;
    if (c->done || c->lower_failed || c->upper_failed)
        return JET_DONE;
    uint64_t now = jet_pagefile_changes(c->db->pf);
    if (c->positioned && c->changes != now) {
        /* pages changed under the walk (a write of this connection, a
         * rollback): its leaf may have lost, gained or moved entries, or
         * be gone. Descend again to the entry after the last one it
         * touched, which it has kept whole in c->entry. */
        release_leaf(c);
        c->positioned = false;
        c->resuming = c->have_prev;
    }
    if (!c->positioned) {
        uint32_t leaf = 0;
        c->leaves_seen = 0;
        c->page_count = jet_pagefile_page_count(c->db->pf);
        if (!c->resuming) {
            c->lower_passed = false;
            c->upper_passed = false;
            c->have_prev = false;
        }
        rc = descend(c, &leaf);
        if (rc == JET_OK)
            rc = enter_leaf(c, leaf, 0);
        c->resuming = false;
        if (rc != JET_OK)
            return walk_failed(c, rc);
        c->positioned = true;
    }
    rc = walk(c, pgno, row);
    c->changes = now;
    return rc;
}

jet_rc jet_index_leaf_int_entries(jet_index_cursor *c, jet_index_int_fn fn,
                                  void *ctx)
{
    const page_view *v = &c->leaf;
    jet_type t;
    bool asc;
    size_t n;
    uint32_t end, s = 0;
    if (c->ix->ncols != 1 || c->ix->cols[0].col >= c->t->pub.ncols)
        return jet_fail(&c->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "index %s: not a one-column index", c->ix->name);
    t = c->t->cols[c->ix->cols[0].col].type;
    if (t != JET_T_BYTE && t != JET_T_INT && t != JET_T_LONG &&
        t != JET_T_BIGINT)
        return jet_fail(&c->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "index %s: not an integer key", c->ix->name);
    if (!c->key || !v->page || !v->leaf)
        return jet_fail(&c->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "index %s: no current entry", c->ix->name);
    n = t == JET_T_BYTE ? 1 : t == JET_T_INT ? 2 : t == JET_T_LONG ? 4 : 8;
    asc = c->ix->cols[0].ascending;
    end = v->last_end != NO_END ? v->last_end
                                : prev_end(c, v, (uint32_t)c->lay->mask_len * 8);
    while (s < end) {
        ent x;
        const uint8_t *p1, *p2;
        size_t l1, l2;
        uint8_t e[1 + 8 + 4];
        uint64_t u = 0;
        int64_t key;
        jet_rc rc;
        x.s = s;
        x.e = next_end(c, v, s);
        if (x.e == 0)
            break;
        s = x.e;
        rc = check_entry(c, v, x);
        if (rc != JET_OK)
            return rc;
        entry_parts(c, v, x, &p1, &l1, &p2, &l2);
        if (l1 + l2 != 1 + n + 4) {
            /* a NULL key (flag byte alone), else not this layout */
            if (l1 + l2 == 1 + 4 &&
                entry_byte(p1, l1, p2, 0) == (asc ? ASC_NULL : DESC_NULL))
                continue;
            return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                            "index %s: entry of %zu bytes on page %u for a "
                            "%zu-byte key", c->ix->name, l1 + l2, v->pgno,
                            n);
        }
        memcpy(e, p1, l1);
        if (l2)
            memcpy(e + l1, p2, l2);
        if (e[0] != (asc ? ASC_START : DESC_START))
            return jet_fail(&c->err, JET_ECORRUPT, v->pgno,
                            "index %s: key flag 0x%02x on page %u",
                            c->ix->name, e[0], v->pgno);
        if (!asc)
            flip(e + 1, n);
        if (t != JET_T_BYTE)
            e[1] ^= 0x80;
        for (size_t k = 0; k < n; k++)
            u = u << 8 | e[1 + k];
        if (t != JET_T_BYTE && n < 8 && (u >> (8 * n - 1)) & 1)
            u |= ~(uint64_t)0 << (8 * n);       /* sign-extend */
        key = (int64_t)u;
        if (fn(ctx, key, get_be24(e + 1 + n), e[1 + n + 3]))
            break;
    }
    return JET_OK;
}

void jet_index_set_interrupt(jet_index_cursor *c, jet_interrupt_fn fn,
                             void *ctx)
{
    c->intr = fn;
    c->intr_ctx = fn ? ctx : NULL;
}

const uint8_t *jet_index_entry_key(const jet_index_cursor *c, size_t *len)
{
    *len = c->key_len;
    return c->key;
}
