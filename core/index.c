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
 * Text keys use Access's "General" collation, whose tables no library
 * provides; we do not encode them. A walk over a text index still returns
 * rows in index (collation) order, and jet_index_seekable_cols() tells the
 * planner how many leading columns it may seek on; for text predicates it
 * filters decoded row values instead.
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
 * Invariants:
 *   1. Every entry span lies inside its page, else JET_ECORRUPT with pgno.
 *   2. A descent visits at most MAX_DEPTH levels and a leaf-chain walk at
 *      most page-count pages, so link cycles end in JET_ECORRUPT.
 *   3. At most one index page is pinned by a cursor (the current leaf).
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
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

/* Entry iterator over one pinned index page. */
typedef struct page_iter {
    const uint8_t *page;
    uint32_t pgno;
    uint32_t page_size;
    const idx_layout *lay;
    uint32_t bit;            /* next mask bit to test */
    uint32_t start;          /* start of the next entry (area-relative) */
    uint16_t prefix_len;
    bool first_done;
    bool leaf;
    uint32_t raw_start, raw_len; /* the last entry as stored */
} page_iter;

struct jet_index_cursor {
    jet_db *db;
    const jet_tdef_priv *t;
    const jet_index *ix;
    const idx_layout *lay;
    bool legacy_numeric;
    uint8_t lower[JET_INDEX_KEY_MAX];
    size_t lower_len;
    int lower_op;            /* JET_SEEK_GE / JET_SEEK_GT */
    bool lower_passed;       /* an entry has passed the lower bound */
    uint8_t upper[JET_INDEX_KEY_MAX];
    size_t upper_len;
    bool has_upper, upper_inclusive;
    bool lower_failed, upper_failed; /* a bound no value can meet */
    bool upper_passed;       /* reverse: an entry has passed the upper */
    bool positioned, done;
    page_iter it;            /* the current leaf (it.page pinned) */
    uint32_t leaves_seen;
    uint8_t *entry;          /* page_size bytes: an assembled entry */
    bool reverse;            /* walk from the upper bound downwards */
    uint16_t *slots;         /* reverse: (start, len) of the leaf's entries */
    uint32_t nslots, slot_pos;
    const uint8_t *key;      /* current entry key (entry or page bytes) */
    size_t key_len;
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

/* ---------------------------------------------------------------- pages */

/* Entry pointers are big-endian, unlike the rest of the file. */
static uint32_t get_be24(const uint8_t *p)
{
    return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

static uint32_t get_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | get_be24(p + 1);
}

/* Compare entry key e with key prefix k: only the first klen bytes of e
 * count; an e shorter than k that matches so far is smaller. */
static int cmp_prefix(const uint8_t *e, size_t elen, const uint8_t *k,
                      size_t klen)
{
    size_t n = elen < klen ? elen : klen;
    int c = n ? memcmp(e, k, n) : 0;
    if (c != 0)
        return c;
    return elen < klen ? -1 : 0;
}

/* Is page pgno, reached from index c->ix, an index page of its table?
 * Type 0x03/0x04 and owner (offset 4) = the table's tdef page, else
 * JET_ECORRUPT naming page, index and table. (iter_start and iter_next
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

static jet_rc iter_start(page_iter *it, jet_index_cursor *c,
                         const uint8_t *page, uint32_t pgno)
{
    uint32_t area = (uint32_t)c->lay->mask + c->lay->mask_len;
    it->page = page;
    it->pgno = pgno;
    it->page_size = c->db->page_size;
    it->lay = c->lay;
    it->bit = 0;
    it->start = 0;
    it->first_done = false;
    jet_rc rc = check_index_page(c, page, pgno);
    if (rc != JET_OK)
        return rc;
    it->leaf = page[0] == PAGE_LEAF;
    it->prefix_len = c->lay->prefix_size == 1
                         ? page[c->lay->prefix_len]
                         : jet_get_u16(page + c->lay->prefix_len);
    if (area >= it->page_size || it->prefix_len > it->page_size - area)
        return jet_fail(&c->err, JET_ECORRUPT, pgno,
                        "index page %u: shared prefix of %u bytes", pgno,
                        it->prefix_len);
    return JET_OK;
}

/*
 * Next entry of a page: *ent and *len the whole entry (prefix restored into
 * c->entry when needed). JET_DONE after the last entry.
 */
static jet_rc iter_next(page_iter *it, jet_index_cursor *c,
                        const uint8_t **ent, size_t *len)
{
    const idx_layout *lay = it->lay;
    uint32_t area = (uint32_t)lay->mask + lay->mask_len;
    uint32_t nbits = (uint32_t)lay->mask_len * 8;
    size_t need = it->leaf ? 4 : 8;

    while (it->bit < nbits) {
        uint32_t b = it->bit++;
        uint32_t end, raw_len;
        const uint8_t *raw;
        if (!(it->page[lay->mask + b / 8] & (1u << (b % 8))))
            continue;
        end = b;
        if (end <= it->start || area + end > it->page_size)
            return jet_fail(&c->err, JET_ECORRUPT, it->pgno,
                            "index page %u: entry mask marks an entry end "
                            "at %u outside the page", it->pgno, end);
        raw = it->page + area + it->start;
        raw_len = end - it->start;
        it->raw_start = it->start;
        it->raw_len = raw_len;
        it->start = end;
        if (!it->first_done) {
            it->first_done = true;
            if (it->prefix_len > raw_len)
                return jet_fail(&c->err, JET_ECORRUPT, it->pgno,
                                "index page %u: shared prefix longer than "
                                "its first entry", it->pgno);
            *ent = raw;
            *len = raw_len;
        } else if (it->prefix_len) {
            if ((size_t)it->prefix_len + raw_len > it->page_size)
                return jet_fail(&c->err, JET_ECORRUPT, it->pgno,
                                "index page %u: entry too long", it->pgno);
            memcpy(c->entry, it->page + area, it->prefix_len);
            memcpy(c->entry + it->prefix_len, raw, raw_len);
            *ent = c->entry;
            *len = (size_t)it->prefix_len + raw_len;
        } else {
            *ent = raw;
            *len = raw_len;
        }
        if (*len < need)
            return jet_fail(&c->err, JET_ECORRUPT, it->pgno,
                            "index page %u: entry of %zu bytes too short",
                            it->pgno, *len);
        return JET_OK;
    }
    return JET_DONE;
}

/* Does a leaf/node entry key pass the lower bound? */
static bool past_lower(const jet_index_cursor *c, const uint8_t *key,
                       size_t klen)
{
    int r;
    if (c->lower_len == 0)
        return true;
    r = cmp_prefix(key, klen, c->lower, c->lower_len);
    return c->lower_op == JET_SEEK_GT ? r > 0 : r >= 0;
}

/* Does an entry key lie beyond the upper bound? */
static bool past_upper(const jet_index_cursor *c, const uint8_t *key,
                       size_t klen)
{
    int r;
    if (!c->has_upper)
        return false;
    r = cmp_prefix(key, klen, c->upper, c->upper_len);
    return c->upper_inclusive ? r > 0 : r >= 0;
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
 * child whose last entry lies beyond the upper bound. When no entry
 * qualifies: the child tail page, else the last child.
 */
static jet_rc descend(jet_index_cursor *c, uint32_t *leaf)
{
    uint32_t pgno = c->ix->first_pgno;
    jet_pagefile *pf = c->db->pf;

    for (int depth = 0;; depth++) {
        const uint8_t *page;
        page_iter it;
        uint32_t child = 0, last_child = 0, tail;
        const uint8_t *ent;
        size_t len;
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
        rc = iter_start(&it, c, page, pgno);
        if (rc == JET_OK && it.leaf) {
            jet_page_unpin(pf, page);
            *leaf = pgno;
            return JET_OK;
        }
        while (rc == JET_OK && (rc = iter_next(&it, c, &ent, &len)) ==
                                   JET_OK) {
            uint32_t ch = get_be32(ent + len - 4);
            last_child = ch;
            if (c->reverse ? past_upper(c, ent, len - 8)
                           : past_lower(c, ent, len - 8)) {
                child = ch;
                break;
            }
        }
        tail = jet_get_u32(page + c->lay->tail);
        jet_page_unpin(pf, page);
        if (rc < 0)
            return rc;
        if (child == 0)
            child = tail ? tail : last_child;
        if (child == 0)
            return jet_fail(&c->err, JET_ECORRUPT, pgno,
                            "index %s: node page %u has no children",
                            c->ix->name, pgno);
        pgno = child;
    }
}

/* ----------------------------------------------------------------- API */

static void release_leaf(jet_index_cursor *c)
{
    if (c->it.page) {
        jet_page_unpin(c->db->pf, c->it.page);
        c->it.page = NULL;
    }
}

/* Forget the position: the next jet_index_next() descends again. */
static void restart(jet_index_cursor *c)
{
    release_leaf(c);
    c->positioned = false;
    c->done = false;
    c->key = NULL;
    c->key_len = 0;
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
    if (((const jet_tdef_priv *)tdef)->owner)     /* a linked table's db */
        db = ((const jet_tdef_priv *)tdef)->owner;
    c = jet_calloc(1, sizeof *c);
    if (!c)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    c->entry = jet_malloc(db->page_size);
    if (!c->entry) {
        jet_free(c);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    c->db = db;
    c->t = (const jet_tdef_priv *)tdef;
    c->ix = &tdef->indexes[index_no];
    c->lay = db->fmt->jet3 ? &layout_jet3 : &layout_jet4;
    c->legacy_numeric = db->version <= JET_VER_4;
    c->lower_op = JET_SEEK_GE;
    jet_error_clear(&c->err);
    *out = c;
    return JET_OK;
}

void jet_index_cursor_close(jet_index_cursor *c)
{
    if (!c)
        return;
    release_leaf(c);
    jet_free(c->slots);
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

/* Encode nkeys leading key values into buf. */
static jet_rc encode_keys(jet_index_cursor *c, const jet_value *keys,
                          uint16_t nkeys, uint8_t *buf, size_t *len)
{
    size_t pos = 0;
    if (nkeys > c->ix->ncols)
        return jet_fail(&c->err, JET_ELIMIT, JET_NO_PGNO,
                        "%u key values for index %s of %u columns", nkeys,
                        c->ix->name, c->ix->ncols);
    if (nkeys > jet_index_seekable_cols(&c->t->pub,
                                        (uint16_t)(c->ix - c->t->indexes)))
        return jet_fail(&c->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "index %s: cannot seek on its text/long columns",
                        c->ix->name);
    for (uint16_t k = 0; k < nkeys; k++) {
        const jet_index_column *ic = &c->ix->cols[k];
        jet_rc rc = jet_index_encode_value(buf, JET_INDEX_KEY_MAX, &pos,
                                           c->t->cols[ic->col].type,
                                           ic->ascending, c->legacy_numeric,
                                           &keys[k]);
        if (rc != JET_OK)
            return jet_fail(&c->err, rc, JET_NO_PGNO,
                            "index %s: key %u does not fit column %s",
                            c->ix->name, k, c->t->cols[ic->col].name);
    }
    *len = pos;
    return JET_OK;
}

jet_rc jet_index_seek(jet_index_cursor *c, const jet_value *keys,
                      uint16_t nkeys, int op)
{
    jet_rc rc;
    restart(c);
    jet_error_clear(&c->err);
    c->lower_len = 0;
    c->lower_failed = true;
    if (op != JET_SEEK_GE && op != JET_SEEK_GT)
        return jet_fail(&c->err, JET_ELIMIT, JET_NO_PGNO, "bad seek op %d",
                        op);
    c->lower_op = op;
    if (nkeys) {
        rc = encode_keys(c, keys, nkeys, c->lower, &c->lower_len);
        if (rc != JET_OK) {
            c->lower_len = 0;
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
    c->upper_len = 0;
    c->upper_failed = false;
    if (nkeys == 0)
        return JET_OK;
    rc = encode_keys(c, keys, nkeys, c->upper, &c->upper_len);
    if (rc != JET_OK) {
        c->upper_len = 0;
        c->upper_failed = true;
        return rc;
    }
    c->has_upper = true;
    c->upper_inclusive = inclusive;
    return JET_OK;
}

jet_rc jet_index_set_reverse(jet_index_cursor *c, bool reverse)
{
    restart(c);
    if (reverse && !c->slots) {
        c->slots = jet_malloc((size_t)c->lay->mask_len * 8 * 2 *
                              sizeof *c->slots);
        if (!c->slots)
            return jet_fail(&c->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
    }
    c->reverse = reverse;
    return JET_OK;
}

/* Pin leaf pgno as the current page. */
static jet_rc enter_leaf(jet_index_cursor *c, uint32_t pgno)
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
    rc = iter_start(&c->it, c, page, pgno);
    if (rc == JET_OK && !c->it.leaf)
        rc = jet_fail(&c->err, JET_ECORRUPT, pgno,
                      "index %s: page %u in the leaf chain is not a leaf",
                      c->ix->name, pgno);
    if (rc != JET_OK) {
        jet_page_unpin(c->db->pf, page);
        c->it.page = NULL;
        return rc;
    }
    return JET_OK;
}

/* Reverse walks: record the current leaf's entries (stored offsets). */
static jet_rc load_slots(jet_index_cursor *c)
{
    const uint8_t *ent;
    size_t len;
    jet_rc rc;
    c->nslots = 0;
    while ((rc = iter_next(&c->it, c, &ent, &len)) == JET_OK) {
        c->slots[2 * c->nslots] = (uint16_t)c->it.raw_start;
        c->slots[2 * c->nslots + 1] = (uint16_t)c->it.raw_len;
        c->nslots++;
    }
    c->slot_pos = c->nslots;
    return rc < 0 ? rc : JET_OK;
}

/* Entry i of the current leaf into c->entry, shared prefix restored
 * (sizes were checked by load_slots). */
static size_t slot_entry(jet_index_cursor *c, uint32_t i)
{
    const uint8_t *area = c->it.page + c->lay->mask + c->lay->mask_len;
    uint16_t st = c->slots[2 * i], n = c->slots[2 * i + 1];
    size_t pre = i == 0 ? 0 : c->it.prefix_len;
    memcpy(c->entry, area, pre);
    memcpy(c->entry + pre, area + st, n);
    return pre + n;
}

/* jet_index_next() backwards: from the upper bound down to the lower. */
static jet_rc next_reverse(jet_index_cursor *c, uint32_t *pgno,
                           uint16_t *row)
{
    jet_rc rc;
    for (;;) {
        uint32_t prev;
        if (c->slot_pos > 0) {
            size_t len = slot_entry(c, --c->slot_pos), klen = len - 4;
            const uint8_t *ent = c->entry;
            if (!c->upper_passed) {
                if (past_upper(c, ent, klen))
                    continue;
                c->upper_passed = true;
            }
            if (!past_lower(c, ent, klen))
                break;
            c->key = ent;
            c->key_len = klen;
            *pgno = get_be24(ent + klen);
            *row = ent[klen + 3];
            return JET_OK;
        }
        prev = jet_get_u32(c->it.page + c->lay->prev);
        release_leaf(c);
        if (prev == 0)
            break;
        rc = enter_leaf(c, prev);
        if (rc == JET_OK)
            rc = load_slots(c);
        if (rc != JET_OK) {
            release_leaf(c);
            c->done = true;
            return rc;
        }
    }
    release_leaf(c);
    c->done = true;
    return JET_DONE;
}

jet_rc jet_index_next(jet_index_cursor *c, uint32_t *pgno, uint16_t *row)
{
    jet_rc rc;
    const uint8_t *ent;
    size_t len;

    c->key = NULL;
    c->key_len = 0;
    if (c->done || c->lower_failed || c->upper_failed)
        return JET_DONE;
    if (!c->positioned) {
        uint32_t leaf = 0;
        c->leaves_seen = 0;
        c->lower_passed = false;
        c->upper_passed = false;
        rc = descend(c, &leaf);
        if (rc == JET_OK)
            rc = enter_leaf(c, leaf);
        if (rc == JET_OK && c->reverse)
            rc = load_slots(c);
        if (rc != JET_OK) {
            release_leaf(c);
            c->done = true;
            return rc;
        }
        c->positioned = true;
    }
    if (c->reverse)
        return next_reverse(c, pgno, row);
    for (;;) {
        uint32_t next;
        rc = iter_next(&c->it, c, &ent, &len);
        if (rc == JET_OK) {
            size_t klen = len - 4;
            if (!c->lower_passed) {
                if (!past_lower(c, ent, klen))
                    continue;
                c->lower_passed = true;
            }
            if (past_upper(c, ent, klen))
                break;
            if (ent != c->entry) {
                memcpy(c->entry, ent, len);
                ent = c->entry;
            }
            c->key = ent;
            c->key_len = klen;
            *pgno = get_be24(ent + klen);
            *row = ent[klen + 3];
            return JET_OK;
        }
        if (rc < 0) {
            release_leaf(c);
            c->done = true;
            return rc;
        }
        next = jet_get_u32(c->it.page + c->lay->next);
        release_leaf(c);
        if (next == 0)
            break;
        rc = enter_leaf(c, next);
        if (rc != JET_OK) {
            c->done = true;
            return rc;
        }
    }
    release_leaf(c);
    c->done = true;
    return JET_DONE;
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
