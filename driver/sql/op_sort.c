/*
 * op_sort.c - records and their order: the sort, DISTINCT and window
 * operator of a materialized run. The current output row (and its sort
 * keys) is copied into a record (struct rec: binary ORDER BY key, packed
 * row, keys as values when they must be compared as values); records are
 * sorted stably (ties keep reading order, NULL lowest), by their binary
 * keys when every record has one (prefix radix, then merge) else by
 * values. Past the memory budget the records go to sorted runs in the
 * temporary file (spill.c), merged at the end; a TOP n sort keeps only
 * the best n plus ties (top-N). sql_sort_finish applies DISTINCT, ORDER
 * BY and the window (OFFSET, TOP with ties, LIMIT, max_rows).
 * sql_group_sort orders the groups of a text grouping in memory by their
 * keys' segments the same way, for exec.c to give them without records.
 * Invariants:
 *   1. A record is one contiguous, 8-byte aligned byte string, the same
 *      in memory and in a run of the temporary file; rec_check bounds
 *      every record read back.
 *   2. The order is total and stable: equal keys keep their tie order
 *      (rec.seq), in memory, through runs and merges alike.
 *   3. Memory held for records stays within the budget (sql_mem_budget)
 *      except for one record past it, which goes to a run.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"
#include "sort.h"
#include "spill.h"
#include "values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- records */

static size_t pad8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* The parts of a record (sort.h struct rec). */
static const uint8_t *rec_bkey(const rec *r)
{
    return (const uint8_t *)(r + 1);
}

static const uint8_t *rec_row(const rec *r)
{
    return rec_bkey(r) + pad8(r->bklen);
}

static const uint8_t *rec_svs(const rec *r)
{
    return rec_row(r) + pad8(r->rowlen);
}

static const uint8_t *rec_end(const rec *r)
{
    return (const uint8_t *)r + r->len;
}

/*
 * Packed row: per output column
 *   u8 type, u8 flags (PK_NULL; PK_DATA: a data span follows),
 *   for TEXT/MEMO not NULL u8 enc,
 *   not NULL: the first scalar_bytes(type) bytes of jet_value.u (where
 *   every member of the union starts),
 *   PK_DATA: u32 length and the bytes (text as stored, binary, ...).
 * No alignment: rebuilt jet_values point into the record, and every
 * reader of a span reads it bytewise (as spans borrowed from pages).
 */
enum { PK_NULL = 1, PK_DATA = 2 };

static bool text_type(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_MEMO;
}

/* Bytes of jet_value.u a packed value of type t keeps (all of it for a
 * type not known here). */
static size_t scalar_bytes(jet_type t)
{
    switch (t) {
    case JET_T_BOOL:
        return 1;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_MONEY:
    case JET_T_DOUBLE: case JET_T_DATETIME: case JET_T_COMPLEX:
    case JET_T_BIGINT:
        return 8;
    case JET_T_FLOAT:
        return 4;
    case JET_T_NUMERIC:
        return sizeof(((jet_value *)0)->u.num);
    case JET_T_GUID:
        return 16;
    case JET_T_TEXT: case JET_T_MEMO: case JET_T_BINARY: case JET_T_OLE:
    case JET_T_EXT_DATETIME:
        return 0;
    default:
        return sizeof(((jet_value *)0)->u);
    }
}

/* Bytes value v takes packed. */
static size_t pack_len(const jet_value *v)
{
    if (v->is_null)
        return 2;
    size_t n = 2 + (text_type(v->type) ? 1 : 0) + scalar_bytes(v->type);
    return v->data ? n + 4 + v->len : n;
}

/* Write v packed at o (pack_len(v) bytes); the end. */
static uint8_t *pack_put(uint8_t *o, const jet_value *v)
{
    *o++ = (uint8_t)v->type;
    if (v->is_null) {
        *o++ = PK_NULL;
        return o;
    }
    *o++ = v->data ? PK_DATA : 0;
    if (text_type(v->type))
        *o++ = (uint8_t)v->enc;
    size_t sb = scalar_bytes(v->type);
    if (sb == 8)
        memcpy(o, &v->u, 8);    /* the common sizes inline */
    else if (sb == 4)
        memcpy(o, &v->u, 4);
    else
        memcpy(o, &v->u, sb);
    o += sb;
    if (v->data) {
        uint32_t n = (uint32_t)v->len;
        memcpy(o, &n, 4);
        o += 4;
        if (n)
            memcpy(o, v->data, n);
        o += n;
    }
    return o;
}

/* Rebuild the n values packed at p (< end) into out; spans point into
 * the bytes. 0, or -1 when the bytes are not a packed row (a damaged
 * temporary file). */
static int row_unpack(const uint8_t *p, const uint8_t *end, jet_value *out,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jet_value *v = &out[i];
        if (end - p < 2)
            return -1;
        v->type = (jet_type)p[0];
        v->is_null = false;
        v->enc = JET_ENC_UCS2;
        memset(&v->u, 0, sizeof v->u);
        v->data = NULL;
        v->len = 0;
        uint8_t fl = p[1];
        p += 2;
        if (fl & PK_NULL) {
            v->is_null = true;
            continue;
        }
        if (text_type(v->type)) {
            if (p == end)
                return -1;
            v->enc = (jet_text_enc)*p++;
        }
        size_t sb = scalar_bytes(v->type);
        if ((size_t)(end - p) < sb)
            return -1;
        if (sb == 8)
            memcpy(&v->u, p, 8);    /* the common sizes inline */
        else if (v->type == JET_T_BOOL)
            v->u.b = *p != 0;
        else if (sb == 4)
            memcpy(&v->u, p, 4);
        else
            memcpy(&v->u, p, sb);
        p += sb;
        if (fl & PK_DATA) {
            uint32_t len;
            if (end - p < 4)
                return -1;
            memcpy(&len, p, 4);
            p += 4;
            if ((size_t)(end - p) < len)
                return -1;
            v->data = p;
            v->len = len;
            p += len;
        }
    }
    return 0;
}

/* The output values of record r into c->vcur (c->cur = r). 0 or -1. */
int sql_rec_values(sql_cursor *c, const rec *r)
{
    c->cur = r;
    const uint8_t *p = rec_row(r);
    return row_unpack(p, p + r->rowlen, c->vcur, c->st->ncols);
}

/* Order of the stored keys [from, from + n) of a and b as values
 * (sql_key_cmp, text in sort order co; desc per key, NULL all ascending):
 * the first difference, 0 when equal. The keys were checked when stored
 * or read back. */
static int sv_keys_cmp(jet_collation co, const rec *a, const rec *b,
                       size_t from, size_t n, const bool *desc)
{
    const uint8_t *pa = rec_svs(a), *ea = rec_end(a);
    const uint8_t *pb = rec_svs(b), *eb = rec_end(b);
    for (size_t i = 0; i < from + n; i++) {
        sv x, y;
        if (sql_spill_get_sv(&pa, ea, &x) != 0 ||
            sql_spill_get_sv(&pb, eb, &y) != 0)
            return 0;
        if (i < from)
            continue;
        int r = sql_key_cmp(co, &x, &y);
        if (r)
            return desc && desc[i - from] ? -r : r;
    }
    return 0;
}

/* Order of the binary keys of a and b (memcmp, a prefix first). */
static int bkey_cmp(const rec *a, const rec *b)
{
    size_t n = a->bklen < b->bklen ? a->bklen : b->bklen;
    int r = memcmp(rec_bkey(a), rec_bkey(b), n);
    if (r)
        return r;
    return (a->bklen > b->bklen) - (a->bklen < b->bklen);
}

/* Whether a and b have equal ORDER BY keys (binary keys are equal exactly
 * when the values are, sortkey.c). */
static bool order_equal(const sql_cursor *c, const rec *a, const rec *b)
{
    if (c->bin_keys)
        return a->bklen == b->bklen &&
               memcmp(rec_bkey(a), rec_bkey(b), a->bklen) == 0;
    return sv_keys_cmp(c->text_order, a, b, 0, c->st->norder, NULL) == 0;
}

typedef struct sort_spec {
    size_t from, n;
    const bool *desc;       /* NULL: all ascending */
    jet_collation co;       /* text sort order */
} sort_spec;

typedef int (*rec_cmp_fn)(const rec *a, const rec *b, const void *ctx);

/* By stored keys (sort_spec), ties by reading order. */
static int cmp_spec(const rec *a, const rec *b, const void *ctx)
{
    const sort_spec *sp = ctx;
    int r = sv_keys_cmp(sp->co, a, b, sp->from, sp->n, sp->desc);
    if (r)
        return r;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* By binary keys, ties by reading order. */
static int cmp_bin(const rec *a, const rec *b, const void *ctx)
{
    (void)ctx;
    int r = bkey_cmp(a, b);
    if (r)
        return r;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Bottom-up merge sort of n records by cmp (tmp: n pointers), checking
 * c's cancel flag as it goes (sql_tick per comparison): 0, or -1 when
 * stopped (v then holds the records in some order). */
static int merge_sort_by(sql_cursor *c, rec **v, rec **tmp, size_t n,
                         rec_cmp_fn cmp, const void *ctx)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                tmp[k++] = cmp(v[j], v[i], ctx) < 0 ? v[j++] : v[i++];
                if (sql_tick(c) != 0) {
                    /* every record stays in v exactly once */
                    while (i < mid)
                        tmp[k++] = v[i++];
                    while (j < hi)
                        tmp[k++] = v[j++];
                    memcpy(v + lo, tmp + lo, (hi - lo) * sizeof *v);
                    return -1;
                }
            }
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    return 0;
}

/* Merge sort of n records; sp NULL: by the binary keys. 0 or -1. */
static int merge_sort(sql_cursor *c, rec **v, rec **tmp, size_t n,
                      const sort_spec *sp)
{
    if (sp)
        return merge_sort_by(c, v, tmp, n, cmp_spec, sp);
    return merge_sort_by(c, v, tmp, n, cmp_bin, NULL);
}

/*
 * Sort of records by binary key, stable (ties keep reading order): the
 * records are ordered by 8 key bytes at a time (a byte offset at), as
 * (those bytes, record) pairs: a stable LSD radix sort of the pairs for
 * many records, a merge sort of them for fewer; each run of equal bytes
 * then by its next 8 bytes, until its keys end (then by length), or by
 * whole keys (merge sort) once it is small or the keys are long.
 */
typedef struct pfx_ent {
    uint64_t pfx;
    void *r;                /* a record (or a group: sql_group_sort) */
} pfx_ent;

#define SORT_SMALL 16           /* runs this short: by whole keys */
#define SORT_RADIX 1024         /* runs this long: radix passes */
#define SORT_DEEP 256           /* key bytes refined 8 at a time */

/* Key bytes [at, at + 8) of r as a big-endian number (zeros past the
 * key's end). */
static uint64_t key_prefix(const rec *r, size_t at)
{
    const uint8_t *k = rec_bkey(r) + at;
    size_t have = r->bklen > at ? r->bklen - at : 0;
    uint64_t p = 0;
    if (have >= 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(&p, k, 8);
        return __builtin_bswap64(p);
#else
        for (size_t i = 0; i < 8; i++)
            p = (p << 8) | k[i];
        return p;
#endif
    }
    for (size_t i = 0; i < 8; i++)
        p = (p << 8) | (i < have ? k[i] : 0);
    return p;
}

/* a[0..n) by pfx, stable merge sort (b: n entries of scratch). */
static void pfx_merge(pfx_ent *a, pfx_ent *b, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = a[j].pfx < a[i].pfx ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        memcpy(a, b, n * sizeof *a);
    }
}

/* a[0..n) by pfx, stable (b: n entries of scratch); the result in a.
 * Many entries: LSD radix, every byte's counts in one pass, then a pass
 * per byte that has more than one value. */
static void pfx_sort(pfx_ent *a, pfx_ent *b, size_t n)
{
    size_t (*cnts)[256] = n < SORT_RADIX ? NULL : calloc(8, sizeof *cnts);
    if (!cnts) {
        pfx_merge(a, b, n);     /* (out of 16 KiB: needs no memory) */
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t x = a[i].pfx;
        for (unsigned d = 0; d < 8; d++)
            cnts[d][(x >> (8 * d)) & 0xFF]++;
    }
    pfx_ent *src = a, *dst = b;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        size_t *cnt = cnts[shift / 8];
        if (cnt[(src[0].pfx >> shift) & 0xFF] == n)
            continue;           /* one value in this byte: order kept */
        size_t pos = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[cnt[(src[i].pfx >> shift) & 0xFF]++] = src[i];
        pfx_ent *t = src;
        src = dst;
        dst = t;
    }
    free(cnts);
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* v[0..n), whose keys are equal in their first at bytes, by key (tmp: n
 * pointers; a, b: n pairs each). Recurses into each run of equal bytes:
 * depth at most SORT_DEEP / 8. 0, or -1 when cancelled. */
static int sort_bin_run(sql_cursor *c, rec **v, rec **tmp, pfx_ent *a,
                        pfx_ent *b, size_t n, size_t at)
{
    if (n <= SORT_SMALL || at >= SORT_DEEP)
        return merge_sort_by(c, v, tmp, n, cmp_bin, NULL);
    for (size_t i = 0; i < n; i++) {
        a[i].pfx = key_prefix(v[i], at);
        a[i].r = v[i];
    }
    pfx_sort(a, b, n);
    if (n >= SQL_CANCEL_EVERY && sql_check_cancel(c) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        v[i] = a[i].r;
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        uint32_t minl = v[lo]->bklen, maxl = minl;
        while (hi < n && a[hi].pfx == a[lo].pfx) {
            uint32_t l = v[hi]->bklen;
            minl = l < minl ? l : minl;
            maxl = l > maxl ? l : maxl;
            hi++;
        }
        int rc = 0;
        if (hi - lo > 1) {
            if (maxl > at + 8)
                rc = sort_bin_run(c, v + lo, tmp, a + lo, b + lo, hi - lo,
                                  at + 8);
            else if (minl != maxl)  /* equal but for their lengths */
                rc = merge_sort_by(c, v + lo, tmp, hi - lo, cmp_bin, NULL);
        } else {
            rc = sql_tick(c);
        }
        if (rc != 0)
            return -1;
        lo = hi;
    }
    return 0;
}

static int sort_bin(sql_cursor *c, rec **v, rec **tmp, size_t n)
{
    pfx_ent *a = malloc((n ? n : 1) * sizeof *a);
    pfx_ent *b = malloc((n ? n : 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    int rc = sort_bin_run(c, v, tmp, a, b, n, 0);
    free(a);
    free(b);
    return rc;
}

/* ------------------------------------------------ sorted text groups */

/*
 * The groups of op_agg.c text_groups (each holding its key's binary
 * sort-key segment, zero-padded to kboff bytes, a multiple of 8) ordered
 * by segment as sort_bin orders records: (8 segment bytes, group) pairs
 * by pfx_sort, each run of equal bytes by its next 8, a short run by
 * whole segments. Segments are distinct (one per group) and prefix-free,
 * so no two compare equal and every run ends.
 */

/* Bytes [at, at + 8) of group g's segment as a big-endian number (zeros
 * past its padded end). */
static uint64_t seg_prefix(const agg_group *g, size_t at)
{
    const uint8_t *k = sql_grp_kb(g) + at;
    uint64_t p = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (at + 8 <= g->kboff) {
        memcpy(&p, k, 8);
        return __builtin_bswap64(p);
    }
#endif
    for (size_t i = 0; i < 8; i++)
        p = (p << 8) | (at + i < g->kboff ? k[i] : 0);
    return p;
}

/* Order of two groups' segments: memcmp over the shorter padded one
 * (prefix-free, so distinct segments differ inside the shorter). */
static int seg_cmp(const agg_group *a, const agg_group *b)
{
    size_t n = a->kboff < b->kboff ? a->kboff : b->kboff;
    return memcmp(sql_grp_kb(a), sql_grp_kb(b), n);
}

#define SEG_SMALL 16            /* runs this short: insertion sort */

/* a[0..n), groups whose segments are equal in their first at bytes, by
 * segment (b: n entries of scratch): by their next 8 bytes, each run of
 * equal bytes then by the 8 after. Segments are distinct, so every run
 * ends. 0, or -1 when cancelled. */
static int seg_sort(sql_cursor *c, pfx_ent *a, pfx_ent *b, size_t n,
                    size_t at)
{
    if (n <= SEG_SMALL) {
        for (size_t i = 1; i < n; i++) {
            pfx_ent e = a[i];
            size_t j = i;
            for (; j > 0 && seg_cmp(a[j - 1].r, e.r) > 0; j--)
                a[j] = a[j - 1];
            a[j] = e;
        }
        return sql_tick(c);
    }
    for (size_t i = 0; at && i < n; i++) {
        if (i + 8 < n)  /* the groups lie all over the arena */
            __builtin_prefetch(sql_grp_kb(a[i + 8].r) + at);
        a[i].pfx = seg_prefix(a[i].r, at);
    }
    pfx_sort(a, b, n);
    if (n >= SQL_CANCEL_EVERY && sql_check_cancel(c) != 0)
        return -1;
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && a[hi].pfx == a[lo].pfx; hi++)
            ;
        if (hi - lo > 1 && seg_sort(c, a + lo, b + lo, hi - lo, at + 8) != 0)
            return -1;
    }
    return 0;
}

int sql_group_sort(sql_cursor *c, bool desc)
{
    size_t n = c->ngroups;
    if (!c->grp_segs || c->gsp)
        return 0;
    c->gnext = 0;
    if (n < 2)
        return 1;
    pfx_ent *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        a[i].pfx = seg_prefix(c->gorder[i], 0);
        a[i].r = c->gorder[i];
    }
    int rc = seg_sort(c, a, b, n, 0);
    for (size_t i = 0; i < n; i++)
        c->gorder[desc ? n - 1 - i : i] = a[i].r;
    free(a);
    free(b);
    return rc != 0 ? -1 : 1;
}

/* ------------------------------------------------ sorting past memory */

/*
 * External sort. When the records would take the cursor past its budget,
 * the ones held are sorted (full_cmp: ORDER BY keys, then for DISTINCT
 * the output columns, then the reading order) and written to the
 * temporary file as a run; the record arena is reused. At the end the
 * last records make a run too; while there are more runs than one merge
 * may read at once (merge_fanin: each reader holds a file block, the
 * readers a quarter of the budget) they are merged that many at a time
 * into longer runs (merge_passes), then next() merges the rest through a
 * binary heap, dropping DISTINCT duplicates (adjacent in that order; the
 * first read is kept) and applying the window (OFFSET, TOP with ties,
 * LIMIT, max_rows) as sql_sort_finish does in memory. A run record is the
 * record as held in memory (struct rec: its length first, a multiple of
 * 8), checked as it is read back (rec_check).
 */
struct sort_spill {
    sql_spill_stream *runs;
    size_t nruns, cap;
    /* merging */
    sql_spill_reader *rd;       /* per run */
    const rec **cur;            /* per run: its current record (in its
                                   reader's block) */
    size_t *heap, nheap;
    bool advance;               /* heap top was given: read its next */
    bool distinct, keep_prev;
    uint64_t *prev;             /* copy of the last row counted */
    size_t prev_cap;            /* in 8-byte units */
    bool have_prev;
    uint64_t pos, start, top_end, emitted;
};

/* Order of records in runs and the merge (a total order by seq). */
static int full_cmp(const rec *a, const rec *b, const void *ctx)
{
    const sql_cursor *c = ctx;
    const sql_stmt *st = c->st;
    if (st->norder) {
        int r = c->bin_keys ? bkey_cmp(a, b)
                            : sv_keys_cmp(c->text_order, a, b, 0,
                                          st->norder, st->order_desc);
        if (r)
            return r;
    }
    if (c->ssp && c->ssp->distinct) {
        int r = sv_keys_cmp(c->text_order, a, b, st->norder,
                            c->nkeys - st->norder, NULL);
        if (r)
            return r;
    }
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Bytes the records may take: what the rest of the cursor (join rows,
 * groups: at most half the budget when records follow) leaves of the
 * budget, and never less than a quarter of it, so runs stay long. */
static size_t sort_limit(const sql_cursor *c)
{
    size_t b = sql_mem_budget(c);
    size_t others = sql_mem_held(c) - c->smem.held;
    return others + b / 4 < b ? b - others : b / 4;
}

/* Check a record read back from the temporary file (len bytes at p, 8-
 * aligned): its parts in bounds and its stored keys decodable, which
 * the comparisons then trust. 0 or -1. */
static int rec_check(const sql_cursor *c, const uint8_t *p, size_t len)
{
    if (len < sizeof(rec))
        return -1;
    const rec *r = (const rec *)(const void *)p;
    size_t room = len - sizeof(rec);
    if (r->len != len || r->bklen > room || pad8(r->bklen) > room ||
        r->rowlen > room - pad8(r->bklen) ||
        r->nsv != (c->store_sv ? c->nkeys : 0))
        return -1;
    const uint8_t *q = rec_row(r) + r->rowlen, *end = p + len;
    if ((size_t)(end - q) < pad8(r->rowlen) - r->rowlen)
        return -1;
    q = rec_svs(r);
    for (size_t k = 0; k < r->nsv; k++) {
        sv x;
        if (sql_spill_get_sv(&q, end, &x) != 0)
            return -1;
    }
    return 0;
}

/* Sort the records held, write them as a run, free them. */
static int spill_run(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    bool distinct = st->distinct && !(st->grouped && !st->ngroup);
    if (st->top_percent && distinct)
        return sql_mem_exceeded(c, "sorting (TOP n PERCENT with DISTINCT)");
    if (!c->ssp) {
        c->ssp = calloc(1, sizeof *c->ssp);
        if (!c->ssp)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        c->ssp->distinct = distinct;
    }
    if (!sql_cursor_spill(c, "sorting"))
        return -1;
    struct sort_spill *sp = c->ssp;
    rec **tmp = malloc((c->nrows ? c->nrows : 1) * sizeof *tmp);
    if (!tmp)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    int rc = merge_sort_by(c, c->rows, tmp, c->nrows, full_cmp, c);
    free(tmp);
    if (rc != 0)
        return -1;
    if (sp->nruns == sp->cap &&
        sql_grow((void **)&sp->runs, &sp->cap, sp->nruns + 1,
                 sizeof *sp->runs) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    sql_spill_stream *run = &sp->runs[sp->nruns++];
    memset(run, 0, sizeof *run);
    for (size_t i = 0; i < c->nrows; i++) {
        const rec *r = c->rows[i];
        if (sql_spill_stream_put(c->spill, run, r, r->len) != 0)
            return sql_spill_failed(c, "sorting");
    }
    if (sql_spill_stream_flush(c->spill, run) != 0)
        return sql_spill_failed(c, "sorting");
    free(run->wb.p);
    memset(&run->wb, 0, sizeof run->wb);
    c->nrows = 0;
    sql_mem_reset(&c->smem);
    return 0;
}

static int topn_prune(sql_cursor *c);

int sql_sort_make_room(sql_cursor *c)
{
    if (c->nrows && c->smem.held > sql_mem_budget(c) / 4 &&
        c->topn_keep && topn_prune(c) != 0)
        return -1;
    if (c->nrows && c->smem.held > sql_mem_budget(c) / 4)
        return spill_run(c);
    return 0;
}

/* Sift entry i of a binary heap of run numbers (heap[0..n)) down, runs
 * compared by their current records cur[]. */
static void heap_sift(const sql_cursor *c, const rec *const *cur,
                      size_t *heap, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && full_cmp(cur[heap[l]], cur[heap[m]], c) < 0)
            m = l;
        if (l + 1 < n && full_cmp(cur[heap[l + 1]], cur[heap[m]], c) < 0)
            m = l + 1;
        if (m == i)
            return;
        size_t t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
}

static void heap_down(sql_cursor *c, size_t i)
{
    struct sort_spill *sp = c->ssp;
    heap_sift(c, sp->cur, sp->heap, sp->nheap, i);
}

/* Runs one merge reads at once: a reader holds a block of the file, so
 * the readers take at most a quarter of the budget (at least 2). */
static size_t merge_fanin(const sql_cursor *c)
{
    size_t blk = sql_spill_block_len(c->spill);
    size_t n = sql_mem_budget(c) / 4 / (blk ? blk : 4096);
    return n < 2 ? 2 : n;
}

/* A run's next record into *r (valid until the next read of rd): 0,
 * JET_DONE or -1. */
static int merge_read(sql_cursor *c, sql_spill_reader *rd, const rec **r)
{
    const uint8_t *row;
    size_t len;
    int rc = sql_spill_reader_next(c->spill, rd, &row, &len);
    if (rc == JET_DONE)
        return JET_DONE;
    if (rc != 0 || rec_check(c, row, len) != 0)
        return sql_spill_failed(c, "sorting");
    *r = (const rec *)(const void *)row;
    return 0;
}

/* Merge runs [from, from + n) into the run *out (their records unchanged,
 * in full_cmp order) and free them (the file keeps their bytes). */
static int merge_runs(sql_cursor *c, size_t from, size_t n,
                      sql_spill_stream *out)
{
    struct sort_spill *sp = c->ssp;
    sql_spill_reader *rd = calloc(n, sizeof *rd);
    const rec **cur = calloc(n, sizeof *cur);
    size_t *heap = calloc(n, sizeof *heap);
    int ret = -1;
    size_t nheap = 0;
    memset(out, 0, sizeof *out);
    if (!rd || !cur || !heap) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        sql_spill_reader_init(&rd[i], &sp->runs[from + i]);
    for (size_t i = 0; i < n; i++) {
        int rc = merge_read(c, &rd[i], &cur[i]);
        if (rc < 0)
            goto done;
        if (rc == 0)
            heap[nheap++] = i;
    }
    for (size_t k = nheap; k-- > 0;)
        heap_sift(c, cur, heap, nheap, k);
    while (nheap) {
        size_t r = heap[0];
        if (sql_tick(c) != 0)
            goto done;
        if (sql_spill_stream_put(c->spill, out, cur[r], cur[r]->len) != 0) {
            sql_spill_failed(c, "sorting");
            goto done;
        }
        int rc = merge_read(c, &rd[r], &cur[r]);
        if (rc < 0)
            goto done;
        if (rc == JET_DONE)
            heap[0] = heap[--nheap];
        if (nheap)
            heap_sift(c, cur, heap, nheap, 0);
    }
    if (sql_spill_stream_flush(c->spill, out) != 0) {
        sql_spill_failed(c, "sorting");
        goto done;
    }
    free(out->wb.p);
    memset(&out->wb, 0, sizeof out->wb);
    ret = 0;
done:
    for (size_t i = 0; rd && i < n; i++)
        sql_spill_reader_free(&rd[i]);
    for (size_t i = 0; i < n; i++)
        sql_spill_stream_free(&sp->runs[from + i]);
    free(rd);
    free(cur);
    free(heap);
    return ret;
}

/* Merge the runs merge_fanin at a time until one merge can read them
 * all (each pass: the same records, fewer and longer runs). */
static int merge_passes(sql_cursor *c)
{
    struct sort_spill *sp = c->ssp;
    size_t fan = merge_fanin(c);
    while (sp->nruns > fan) {
        size_t nnext = (sp->nruns + fan - 1) / fan, k = 0;
        sql_spill_stream *next = calloc(nnext, sizeof *next);
        if (!next)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        for (size_t g = 0; g < sp->nruns; g += fan, k++) {
            size_t n = sp->nruns - g < fan ? sp->nruns - g : fan;
            if (n == 1) {
                next[k] = sp->runs[g];
                memset(&sp->runs[g], 0, sizeof sp->runs[g]);
            } else if (merge_runs(c, g, n, &next[k]) != 0) {
                for (size_t j = 0; j <= k; j++)
                    sql_spill_stream_free(&next[j]);
                free(next);
                return -1;
            }
        }
        for (size_t i = 0; i < sp->nruns; i++)
            sql_spill_stream_free(&sp->runs[i]);
        free(sp->runs);
        sp->runs = next;
        sp->nruns = sp->cap = nnext;
        c->merge_passes++;
    }
    return 0;
}

/* Read run i's next record into sp->cur[i]: 0, JET_DONE or -1. */
static int run_next(sql_cursor *c, size_t i)
{
    struct sort_spill *sp = c->ssp;
    return merge_read(c, &sp->rd[i], &sp->cur[i]);
}

/* Input done with runs on disk: the rest as a run, then merge. */
int sql_sort_start_merge(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    if (c->nrows && spill_run(c) != 0)
        return -1;
    if (merge_passes(c) != 0)
        return -1;
    struct sort_spill *sp = c->ssp;
    size_t n = sp->nruns;
    sp->rd = calloc(n ? n : 1, sizeof *sp->rd);
    sp->cur = calloc(n ? n : 1, sizeof *sp->cur);
    sp->heap = calloc(n ? n : 1, sizeof *sp->heap);
    if (!sp->rd || !sp->cur || !sp->heap)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (size_t i = 0; i < n; i++) {
        sql_spill_reader_init(&sp->rd[i], &sp->runs[i]);
        int rc = run_next(c, i);
        if (rc < 0)
            return -1;
        if (rc == 0)
            sp->heap[sp->nheap++] = i;
    }
    for (size_t i = sp->nheap; i-- > 0;)
        heap_down(c, i);
    /* the window, as sql_sort_finish */
    uint64_t total = c->rseq;
    sp->start = (uint64_t)st->offset;
    sp->top_end = UINT64_MAX;
    if (st->top >= 0)
        sp->top_end = sql_top_rows(st, total);
    sp->keep_prev = sp->distinct || (st->top >= 0 && st->norder);
    c->mode = MODE_MERGE;
    return 0;
}

/* Keep a copy of record r as the previous row's. */
static int save_prev(sql_cursor *c, const rec *r)
{
    struct sort_spill *sp = c->ssp;
    if (sql_grow((void **)&sp->prev, &sp->prev_cap, r->len / 8,
                 sizeof *sp->prev) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    memcpy(sp->prev, r, r->len);
    sp->have_prev = true;
    return 0;
}

/* Next merged row into c->cur: JET_OK, JET_DONE or -1. */
int sql_sort_next_merge(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    struct sort_spill *sp = c->ssp;
    const rec *prev = (const rec *)(const void *)sp->prev;
    for (;;) {
        if (sql_tick(c) != 0)   /* DISTINCT / OFFSET may skip many */
            return -1;
        if (sp->advance) {
            sp->advance = false;
            int rc = run_next(c, sp->heap[0]);
            if (rc < 0)
                return -1;
            if (rc == JET_DONE)
                sp->heap[0] = sp->heap[--sp->nheap];
            if (sp->nheap)
                heap_down(c, 0);
        }
        if (!sp->nheap)
            return JET_DONE;
        const rec *r = sp->cur[sp->heap[0]];
        sp->advance = true;
        if (sp->distinct && sp->have_prev &&
            sv_keys_cmp(c->text_order, prev, r, st->norder,
                        c->nkeys - st->norder, NULL) == 0)
            continue;
        uint64_t i = sp->pos;
        if (i >= sp->top_end) {
            if (st->norder && sp->have_prev && order_equal(c, prev, r))
                sp->top_end++;
            else
                return JET_DONE;
        }
        if (sp->keep_prev) {
            if (save_prev(c, r) != 0)
                return -1;
            prev = (const rec *)(const void *)sp->prev;
        }
        sp->pos++;
        if (i < sp->start)
            continue;
        if (st->limit >= 0 && sp->emitted >= (uint64_t)st->limit)
            return JET_DONE;
        if (c->opts.max_rows && sp->emitted >= c->opts.max_rows)
            return JET_DONE;
        sp->emitted++;
        if (sql_rec_values(c, r) != 0)
            return sql_spill_failed(c, "sorting");
        return JET_OK;
    }
}

void sql_sort_spill_free(sql_cursor *c)
{
    struct sort_spill *sp = c->ssp;
    if (!sp)
        return;
    for (size_t i = 0; i < sp->nruns; i++) {
        if (sp->rd)
            sql_spill_reader_free(&sp->rd[i]);
        sql_spill_stream_free(&sp->runs[i]);
    }
    free(sp->runs);
    free(sp->rd);
    free(sp->cur);
    free(sp->heap);
    free(sp->prev);
    free(sp);
    c->ssp = NULL;
}

/* The binary ORDER BY key of keys[0..norder) into c->kbuf (when the
 * records still have binary keys; a key that does not encode turns them
 * off). 0 or -1. */
static int build_bkey(sql_cursor *c, const sv *keys)
{
    const sql_stmt *st = c->st;
    if (!c->bin_keys)
        return 0;
    c->kbuf.len = 0;
    for (size_t k = 0; k < st->norder && c->bin_keys; k++) {
        int r = sql_sortkey_append(&c->kbuf, &c->kclass[k],
                                   c->text_order, &keys[k],
                                   st->order_desc && st->order_desc[k]);
        if (r < 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        if (r > 0) {
            /* compare values (sql_key_cmp) from now on: the records
             * have them only when some key could need it */
            if (!c->store_sv)
                return sql_cursor_fail(c, "HY000", 0, "internal "
                                       "error: ORDER BY value %zu of "
                                       "an unexpected kind", k + 1);
            c->bin_keys = false;
            c->topn_have_thr = false;
        }
    }
    return 0;
}

/*
 * Top-N sort (st->topn: TOP n over ORDER BY, n small). The records come
 * in as for a full sort, but only the best n plus the ties of the n-th
 * (what the window keeps: sql_sort_finish, sql_sort_next_merge) can be answered,
 * so: once topn_at records are held they are sorted (full_cmp: keys,
 * then reading order) and all but those are dropped, the kept ones
 * moved to a fresh arena (topn_mem, swapped with smem); the n-th's
 * binary key becomes the threshold, and a later row whose key is
 * greater is dropped before its values are even packed (a row equal to
 * it is a tie and kept). A dropped row is never in the answer: n held
 * rows are at or before it. topn_at is twice what was kept (at least
 * 2n), so the held records stay O(n) (more only for ties, which are in
 * the answer) and each row costs O(log n) comparisons overall. Ties
 * keep reading order: kept records precede later ones in c->rows, and
 * the final sorts are stable or compare seq. Past the budget (many
 * ties) the records spill as any sort's.
 */
static int topn_prune(sql_cursor *c)
{
    size_t n = c->nrows;
    if (sql_grow((void **)&c->topn_tmp, &c->topn_tmp_cap, n ? n : 1,
                 sizeof *c->topn_tmp) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    if (merge_sort_by(c, c->rows, c->topn_tmp, n, full_cmp, c) != 0)
        return -1;
    size_t keep = c->topn_keep < n ? c->topn_keep : n;
    if (keep > 0)
        while (keep < n && order_equal(c, c->rows[keep - 1], c->rows[keep]))
            keep++;
    if (keep < n) {
        sql_mem_reset(&c->topn_mem);
        for (size_t i = 0; i < keep; i++) {
            const rec *r = c->rows[i];
            void *m = sql_mem_alloc(&c->topn_mem, r->len);
            if (!m)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            memcpy(m, r, r->len);
            c->rows[i] = m;
        }
        sql_mem t = c->smem;
        c->smem = c->topn_mem;
        c->topn_mem = t;
        sql_mem_reset(&c->topn_mem);
        c->nrows = keep;
    }
    if (c->bin_keys && keep >= c->topn_keep) {
        const rec *r = c->rows[c->topn_keep - 1];
        if (sql_grow((void **)&c->topn_thr, &c->topn_thr_cap,
                     r->bklen ? r->bklen : 1, 1) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(c->topn_thr, rec_bkey(r), r->bklen);
        c->topn_thr_len = r->bklen;
        c->topn_have_thr = true;
    }
    size_t at = 2 * (keep > c->topn_keep ? keep : c->topn_keep);
    c->topn_at = at < 64 ? 64 : at;
    return 0;
}

/* Whether the current row (its binary key in c->kbuf) sorts after the
 * top-N threshold, so it cannot be in the answer. */
static bool topn_drops(const sql_cursor *c)
{
    if (!c->topn_have_thr || !c->bin_keys)
        return false;
    size_t a = c->kbuf.len, b = c->topn_thr_len;
    int r = memcmp(c->kbuf.p, c->topn_thr, a < b ? a : b);
    return r > 0 || (r == 0 && a > b);
}

/* Store the output values vals[0..nout) and the sort keys keys[0..nk) as
 * a record: the binary ORDER BY key built once (already in c->kbuf when
 * have_bkey), the values packed, the keys as values only when
 * c->store_sv. */
static int store_record(sql_cursor *c, const jet_value *vals, size_t nout,
                        const sv *keys, size_t nk, bool have_bkey)
{
    const sql_stmt *st = c->st;
    if (!have_bkey && build_bkey(c, keys) != 0)
        return -1;
    size_t bklen = c->bin_keys ? c->kbuf.len : 0;
    size_t rowlen = 0;
    for (size_t i = 0; i < nout; i++)
        rowlen += pack_len(&vals[i]);
    size_t svlen = 0;
    if (c->store_sv) {
        c->svbuf.len = 0;
        for (size_t k = 0; k < nk; k++)
            if (sql_spill_put_sv(&c->svbuf, &keys[k]) != 0)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        svlen = c->svbuf.len;
    }
    if (bklen > UINT32_MAX / 4 || rowlen > UINT32_MAX / 4 ||
        svlen > UINT32_MAX / 4)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    size_t len = sizeof(rec) + pad8(bklen) + pad8(rowlen) + svlen;
    if (c->topn_keep && c->nrows &&
        (c->nrows >= c->topn_at || c->smem.held + len > sort_limit(c)) &&
        topn_prune(c) != 0)
        return -1;
    if (c->nrows && c->smem.held + len > sort_limit(c) &&
        spill_run(c) != 0)
        return -1;
    uint8_t *mem = sql_mem_alloc(&c->smem, len);
    if (!mem)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    rec *r = (rec *)(void *)mem;
    r->len = (uint32_t)len;
    r->rowlen = (uint32_t)rowlen;
    r->seq = c->rseq++;
    if (c->grp && st->grouped)
        r->seq = c->grp->seq;   /* groups: ties in creation order */
    r->bklen = (uint32_t)bklen;
    r->nsv = c->store_sv ? (uint32_t)nk : 0;
    uint8_t *o = mem + sizeof *r;
    if (bklen)
        memcpy(o, c->kbuf.p, bklen);
    memset(o + bklen, 0, pad8(bklen) - bklen);
    o += pad8(bklen);
    uint8_t *q = o;
    for (size_t i = 0; i < nout; i++)
        q = pack_put(q, &vals[i]);
    memset(q, 0, pad8(rowlen) - rowlen);
    o += pad8(rowlen);
    if (svlen)
        memcpy(o, c->svbuf.p, svlen);
    if (c->nrows == c->rcap &&
        sql_grow((void **)&c->rows, &c->rcap, c->nrows + 1, sizeof *c->rows) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->rows[c->nrows++] = r;
    return 0;
}

/* Whether the top-N sort's one ORDER BY key is a stored fixed-size
 * column of the block's one scanned table (read from the row by
 * topn_raw_drops); sets c->topn_raw. */
static bool topn_raw_fit(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    c->topn_raw = 2;
    if (st->norder != 1 || c->nkeys != 1 || st->ntabs != 1 ||
        st->nbranch || st->grouped || sql_general_forced())
        return false;
    const enode *e = st->order[0];
    const tab_plan *tp = &st->tabs[0];
    const tcur *t = &c->t[0];
    if (e->op != N_COL || e->up || e->tab != 0 || tp->method != M_SCAN ||
        tp->sub || !tp->td || !t->scan || e->col >= tp->td->ncols ||
        (tp->td->cols[e->col].flags & JET_COL_CALCULATED))
        return false;
    jet_scan_cell_loc(t->scan, e->col, &c->topn_loc);
    c->topn_kind = sql_cell_kind(tp->td->cols[e->col].type, &c->topn_loc);
    if (c->topn_kind == 0 || c->topn_kind == K_TEXT)
        return false;
    c->topn_raw = 1;
    return true;
}

/* A number's 64-bit image in a binary sort key segment (sortkey.c:
 * 0x01 then these 8 bytes big-endian, every byte inverted for DESC). */
static inline uint64_t num_key(uint8_t kind, const uint8_t *p,
                               unsigned width)
{
    const uint64_t sign = (uint64_t)1 << 63;
    switch (kind) {
    case K_INT:
        return (uint64_t)jet_cell_int(p, width) ^ sign;
    case K_MONEY:
        return jet_get_u64(p) ^ sign;
    case K_DATE:
        return (uint64_t)sql_date_key(jet_cell_double(p)) ^ sign;
    default: {
        double d = jet_cell_double(p);
        if (isnan(d))
            return UINT64_MAX;      /* above +inf, all NaNs equal */
        if (d == 0)
            d = 0.0;                /* -0 as +0 */
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        return (u >> 63) ? ~u : u ^ sign;
    }
    }
}

/* Whether the scanned row's key, read from its bytes, sorts after the
 * top-N threshold: the test sql_add_record makes after sql_eval and
 * build_bkey (topn_drops), on the key's segment (NULL 0x00, a number
 * 0x01 and its 8-byte image num_key, all inverted for DESC) compared
 * with the threshold's without building it. 1 drop, 0 keep or not
 * decided here (the general path decides). */
static int topn_raw_drops(sql_cursor *c)
{
    if (c->topn_raw == 0 && !topn_raw_fit(c))
        return 0;
    if (c->topn_raw != 1 || !c->topn_have_thr || !c->bin_keys)
        return 0;
    const tcur *t = &c->t[0];
    if (t->vals || t->null_row)
        return 0;
    const uint8_t *p = NULL;
    size_t n = 0;
    int k = jet_row_cell(jet_scan_row(t->scan), &c->topn_loc, &p, &n);
    if (k < 0)
        return 0;
    bool desc = c->st->order_desc && c->st->order_desc[0];
    const uint8_t *q = c->topn_thr;
    uint8_t inv = desc ? 0xFF : 0;
    unsigned tag = q[0] ^ inv;
    if (tag > 1 || c->topn_thr_len != (tag ? 9u : 1u))
        return 0;
    int r;
    if ((unsigned)k != tag) {
        r = (unsigned)k < tag ? -1 : 1;
    } else if (!k) {
        r = 0;
    } else {
        uint64_t kt = 0;
        for (int i = 1; i <= 8; i++)
            kt = kt << 8 | (uint8_t)(q[i] ^ inv);
        uint64_t kr = num_key(c->topn_kind, p, c->topn_loc.width);
        r = kr < kt ? -1 : kr > kt;
    }
    return (desc ? -r : r) > 0;
}

/* The top-N threshold as a test of the scan on the key's bytes
 * (jet_scan_next_where): a DESC order by an integer, Currency or Double
 * whose threshold is a number passes the rows at or above it; the
 * others, NULLs among them, are the rows topn_raw_drops drops, passed
 * over unparsed. 1 with *x, 0 none (ASC, where NULLs sort first; dates;
 * no threshold yet). */
static size_t topn_thr_test(const sql_cursor *c, jet_cell_test *x)
{
    const uint64_t sign = (uint64_t)1 << 63;
    if (c->topn_raw != 1 || !c->topn_have_thr || !c->bin_keys ||
        !c->st->order_desc || !c->st->order_desc[0] ||
        c->topn_loc.kind != JET_CELL_FIXED || c->topn_thr_len != 9 ||
        c->topn_thr[0] != 0xFE)   /* a number's segment, inverted */
        return 0;
    uint64_t kt = 0;
    for (int i = 1; i <= 8; i++)
        kt = kt << 8 | (uint8_t)(c->topn_thr[i] ^ 0xFF);
    memset(x, 0, sizeof *x);
    x->loc = c->topn_loc;
    switch (c->topn_kind) {
    case K_INT:
    case K_MONEY:
        x->kind = JET_TEST_INT;
        x->lo = (int64_t)(kt ^ sign);
        x->hi = INT64_MAX;
        return 1;
    case K_DOUBLE: {
        if (c->topn_loc.width != 8)
            return 0;
        uint64_t u = (kt >> 63) ? kt ^ sign : ~kt;
        double d;
        memcpy(&d, &u, sizeof d);
        x->kind = JET_TEST_DOUBLE;   /* a NaN cell: left undecided */
        x->dlo = d;
        x->dhi = INFINITY;
        return 1;
    }
    default:
        return 0;
    }
}

int sql_topn_collect(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    if (!c->topn_keep || c->join_started || c->src_done ||
        (c->topn_raw == 0 && !topn_raw_fit(c)) || c->topn_raw != 1)
        return 0;
    const tab_plan *tp = &st->tabs[0];
    tcur *t = &c->t[0];
    if (tp->on || tp->ginner >= 0 || t->rescan)
        return 0;
    if (sql_tab_start(c, 0) != 0)
        return -1;
    c->join_started = true;
    jet_cell_test thr;
    for (;;) {
        if ((c->nread & 255) == 0 && sql_check_cancel(c) != 0)
            return -1;
        /* past the threshold's rows on their bytes (the test tightens as
         * the threshold does: a page's selection made before stays
         * looser, never wrong) */
        bool decided;
        jet_rc rc = jet_scan_next_where(t->scan, &thr, topn_thr_test(c, &thr),
                                        &decided);
        if (rc == JET_DONE)
            break;
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
        t->gen++;
        c->nread++;
        sql_tmp_reset(c);
        if (tp->filter) {
            int ok = t->ff ? sql_fast_filter_eval(c, 0, t->ff)
                           : sql_eval_cond(c, tp->filter);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
        }
        if (sql_add_record(c) != 0)
            return -1;
    }
    t->src_done = true;
    return 1;
}

int sql_add_record(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t nout = st->ncols, nk = c->nkeys;
    if (st->nbranch) {
        /* UNION: the values are in vtmp, keys in ktmp (op_union.c) */
        return store_record(c, c->vtmp, nout, c->ktmp, nk, false);
    }
    bool have_bkey = false;
    if (c->topn_keep && c->topn_raw != 2) {
        /* the key read from the row first: most rows end here */
        if (topn_raw_drops(c)) {
            c->rseq++;
            return sql_tick(c);
        }
    }
    if (c->topn_keep) {
        /* the keys first: a row past the threshold is dropped unpacked */
        for (size_t k = 0; k < nk; k++)
            if (sql_eval(c, st->order[k], &c->ktmp[k]) != 0)
                return -1;
        if (build_bkey(c, c->ktmp) != 0)
            return -1;
        if (topn_drops(c)) {
            c->rseq++;
            return sql_tick(c);
        }
        have_bkey = true;
    }
    for (size_t i = 0; i < nout; i++) {
        const out_col *oc = &st->cols[i];
        if (oc->src >= 0 ||
            (oc->direct && oc->e->op == N_COL && !oc->e->up)) {
            /* sql_live_value's first case, without its copy */
            const jet_value *v;
            if (sql_col_value(c, oc->e->tab, oc->e->col, &v) != 0)
                return -1;
            c->vtmp[i] = *v;
        } else if (sql_live_value(c, i, &c->vtmp[i]) != 0) {
            return -1;
        }
    }
    for (size_t k = 0; k < nk && !have_bkey; k++) {
        const enode *e = k < st->norder ? st->order[k]
                                        : st->cols[k - st->norder].e;
        if (sql_eval(c, e, &c->ktmp[k]) != 0)
            return -1;
    }
    return store_record(c, c->vtmp, nout, c->ktmp, nk, have_bkey);
}

/* ---------------------------------------------------------- running */

/* Row count of TOP n PERCENT of total, rounded up. */
size_t sql_top_rows(const sql_stmt *st, size_t total)
{
    if (st->top < 0)
        return total;
    if (!st->top_percent)
        return (uint64_t)st->top < total ? (size_t)st->top : total;
    jet_u128 n = u128_divmod(u128_add(u128_mul(u128_of(total),
                                               u128_of((uint64_t)st->top)),
                                      u128_of(99)), u128_of(100), NULL);
    return u128_cmp(n, u128_of(total)) < 0 ? (size_t)u128_lo64(n) : total;
}

/* Records collected: DISTINCT, ORDER BY, then the window (OFFSET, TOP
 * with ties, LIMIT, max_rows). */
int sql_sort_finish(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t n = c->nrows;
    bool distinct = st->distinct && !(st->grouped && !st->ngroup);
    rec **tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    if (distinct) {
        sort_spec d = { st->norder, st->ncols, NULL, c->text_order };
        if (merge_sort(c, c->rows, tmp, n, &d) != 0) {
            free(tmp);
            return -1;
        }
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (sql_tick(c) != 0) {
                free(tmp);
                return -1;
            }
            if (m > 0 && sv_keys_cmp(c->text_order, c->rows[m - 1],
                                     c->rows[i], st->norder, st->ncols,
                                     NULL) == 0)
                continue;
            c->rows[m++] = c->rows[i];
        }
        n = c->nrows = m;
        for (size_t i = 0; i < n; i++)
            c->rows[i]->seq = i;    /* ties keep the DISTINCT order */
    }
    if (st->norder) {
        sort_spec o = { 0, st->norder, st->order_desc, c->text_order };
        if (!c->bin_keys ? merge_sort(c, c->rows, tmp, n, &o) != 0
                         : sort_bin(c, c->rows, tmp, n) != 0) {
            free(tmp);
            return -1;
        }
    }
    free(tmp);
    /* window */
    size_t start = (uint64_t)st->offset < n ? (size_t)st->offset : n;
    size_t end = n;
    if (st->top >= 0) {
        end = sql_top_rows(st, n);
        if (st->norder && end > 0)
            while (end < n && order_equal(c, c->rows[end - 1],
                                          c->rows[end]))
                end++;
    }
    if (end < start)
        end = start;
    if (st->limit >= 0 && (uint64_t)st->limit < end - start)
        end = start + (size_t)st->limit;
    if (c->opts.max_rows && c->opts.max_rows < end - start)
        end = start + (size_t)c->opts.max_rows;
    c->rpos = start;
    c->rend = end;
    return 0;
}
