/*
 * indexenc.c - index keys of rows and whole index pages: the inverse of
 * index.c's entry reads. Key bytes per column come from index.c
 * (jet_index_encode_value: numbers, dates, BOOL, GUID, binary) and
 * collate.c (jet_collate_key: text in General sort order); this file
 * joins them into a row's key and lays entries out on a page.
 *
 * Index page (Jet4/ACE; index.c has the table): type at 0 (0x04 leaf,
 * 0x03 node), 0x01, free space at 2, owner tdef at 4, prev 12, next 16,
 * tail 20, prefix length 24 (2 bytes), entry mask from 27 (453 bytes: bit
 * n set = an entry ends n bytes into the entry area), entries from 480.
 * An entry is key, 3-byte page and row byte (big-endian), plus a 4-byte
 * child page on node pages; the first entry is stored whole, later ones
 * without the shared prefix.
 * Format: Jackcess IndexData (createEntryBytes, writeDataPage),
 * IndexPageCache; mdbtools HACKING.md "Index Pages".
 */
#include <string.h>

#include "collate.h"
#include "encode.h"
#include "index.h"

#define PAGE_NODE 0x03
#define PAGE_LEAF 0x04
#define IDX_PREV 12
#define IDX_NEXT 16
#define IDX_TAIL 20
#define IDX_PREFIX_LEN 24
#define IDX_MASK 27
#define IDX_MASK_LEN 453
#define IDX_ENTRIES 480

static void put_be(uint8_t *p, uint32_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Append the text key of column col (flag byte and Jet's codes). */
static jet_rc text_key(uint8_t *out, size_t cap, size_t *pos,
                       const jet_db *db, const jet_column *col,
                       bool ascending, const jet_value *v)
{
    jet_collation co = jet_collation_of(db->version, col);
    uint16_t units[256];
    size_t n, klen;
    bool complete;
    jet_rc rc;

    if (*pos >= cap)
        return JET_ELIMIT;
    if (v->is_null) {
        out[(*pos)++] = ascending ? 0x00 : 0xFF;
        return JET_OK;
    }
    if (co == JET_COLL_NONE ||
        (v->type != JET_T_TEXT && v->type != JET_T_MEMO))
        return JET_EUNSUPPORTED;
    rc = jet_index_text_units(db, v, units, &n);
    if (rc != JET_OK)
        return rc;
    out[(*pos)++] = ascending ? 0x7F : 0x80;
    klen = jet_collate_key(out + *pos, cap - *pos, co, units, n, ascending,
                           &complete);
    if (!complete)
        return JET_EUNSUPPORTED;
    if (klen > cap - *pos)
        return JET_ELIMIT;
    *pos += klen;
    return JET_OK;
}

jet_rc jet_index_row_key(uint8_t *out, size_t cap, size_t *out_len,
                         const jet_db *db, const jet_tdef *t,
                         const jet_index *ix, const jet_value *vals)
{
    size_t pos = 0;
    *out_len = 0;
    for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
        const jet_index_column *ic = &ix->cols[k];
        const jet_column *col;
        jet_rc rc;
        if (ic->col >= t->ncols)
            return JET_ECORRUPT;
        col = &t->cols[ic->col];
        if (col->type == JET_T_TEXT || col->type == JET_T_MEMO)
            rc = text_key(out, cap, &pos, db, col, ic->ascending,
                          &vals[ic->col]);
        else if (col->flags & JET_COL_CALCULATED)
            rc = jet_index_encode_calc_value(out, cap, &pos,
                                             col->result_type, ic->ascending,
                                             &vals[ic->col]);
        else
            rc = jet_index_encode_value(out, cap, &pos, col->type,
                                        ic->ascending,
                                        db->version <= JET_VER_4,
                                        &vals[ic->col]);
        if (rc != JET_OK)
            return rc;
    }
    *out_len = pos;
    return JET_OK;
}

size_t jet_index_entry_len(const jet_index_entry *e, bool leaf)
{
    return e->key_len + 4 + (leaf ? 0 : 4);
}

/* Entry e's bytes into buf (jet_index_entry_len bytes). */
static void entry_bytes(uint8_t *buf, const jet_index_entry *e, bool leaf)
{
    memcpy(buf, e->key, e->key_len);
    put_be(buf + e->key_len, e->pgno, 3);
    buf[e->key_len + 3] = e->row;
    if (!leaf)
        put_be(buf + e->key_len + 4, e->child, 4);
}

jet_rc jet_index_page_build(uint8_t *page, const jet_format *fmt, bool leaf,
                            uint32_t tdef_pgno, uint32_t prev, uint32_t next,
                            uint32_t tail, const jet_index_entry *ents,
                            size_t n, size_t *used)
{
    size_t area = fmt->page_size - IDX_ENTRIES, prefix = 0, total = 0;
    uint8_t buf[JET_INDEX_KEY_MAX + 8];

    *used = 0;
    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    for (size_t i = 0; i < n; i++) {
        size_t len = jet_index_entry_len(&ents[i], leaf);
        if (ents[i].key_len > JET_INDEX_KEY_MAX || ents[i].pgno > 0xFFFFFFu)
            return JET_ELIMIT;
        if (i > 0) {
            const jet_index_entry *a = &ents[i - 1], *b = &ents[i];
            size_t m = a->key_len < b->key_len ? a->key_len : b->key_len;
            int c = memcmp(a->key, b->key, m);
            if (c > 0 || (c == 0 && a->key_len > b->key_len) ||
                (c == 0 && a->key_len == b->key_len &&
                 ((uint64_t)a->pgno << 8 | a->row) >=
                 ((uint64_t)b->pgno << 8 | b->row)))
                return JET_ECORRUPT;
        }
        total += len;
    }
    if (n > 1) {
        const jet_index_entry *a = &ents[0], *b = &ents[n - 1];
        size_t m = a->key_len < b->key_len ? a->key_len : b->key_len;
        while (prefix < m && a->key[prefix] == b->key[prefix])
            prefix++;
    }
    if (n > 0 && total - prefix * (n - 1) > area)
        return JET_ELIMIT;
    memset(page, 0, fmt->page_size);
    page[0] = leaf ? PAGE_LEAF : PAGE_NODE;
    page[1] = 0x01;
    jet_put_u32(page + 4, tdef_pgno);
    jet_put_u32(page + IDX_PREV, prev);
    jet_put_u32(page + IDX_NEXT, next);
    jet_put_u32(page + IDX_TAIL, tail);
    jet_put_u16(page + IDX_PREFIX_LEN, (uint32_t)(n > 1 ? prefix : 0));
    total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = jet_index_entry_len(&ents[i], leaf);
        size_t skip = i == 0 ? 0 : prefix;
        entry_bytes(buf, &ents[i], leaf);
        memcpy(page + IDX_ENTRIES + total, buf + skip, len - skip);
        total += len - skip;
        page[IDX_MASK + total / 8] |= (uint8_t)(1u << (total % 8));
    }
    jet_put_u16(page + 2, (uint32_t)(area - total));
    *used = total;
    return JET_OK;
}

int jet_index_entry_cmp(const jet_index_entry *a, const jet_index_entry *b)
{
    size_t m = a->key_len < b->key_len ? a->key_len : b->key_len;
    uint32_t pa = a->pgno << 8 | a->row, pb = b->pgno << 8 | b->row;
    if (m >= 16) {
        int c = memcmp(a->key, b->key, m);
        if (c != 0)
            return c;
    } else {
        for (size_t k = 0; k < m; k++)  /* short keys: no call */
            if (a->key[k] != b->key[k])
                return a->key[k] < b->key[k] ? -1 : 1;
    }
    if (a->key_len != b->key_len)
        return a->key_len < b->key_len ? -1 : 1;
    return pa < pb ? -1 : pa > pb;
}

/* Byte k of an entry stored as the page's shared prefix (the first
 * prefix bytes of the entry area) then its own bytes s[0..). */
static uint8_t entry_byte(const uint8_t *area, size_t prefix,
                          const uint8_t *s, size_t k)
{
    return k < prefix ? area[k] : s[k - prefix];
}

jet_rc jet_index_page_read(const uint8_t *page, const jet_format *fmt,
                           jet_index_page_hdr *h, jet_index_entry *ents,
                           size_t cap, uint8_t *keys, size_t keys_cap,
                           jet_error *err)
{
    const uint8_t *area = page + IDX_ENTRIES, *mask = page + IDX_MASK;
    size_t area_len, ptr, start = 0, n = 0, kbytes = 0;

    memset(h, 0, sizeof *h);
    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    if (page[0] != PAGE_LEAF && page[0] != PAGE_NODE)
        return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                        "not an index page (type 0x%02x)", page[0]);
    area_len = fmt->page_size - IDX_ENTRIES;
    h->leaf = page[0] == PAGE_LEAF;
    ptr = h->leaf ? 4 : 8;
    h->tdef_pgno = jet_get_u32(page + 4);
    h->prev = jet_get_u32(page + IDX_PREV);
    h->next = jet_get_u32(page + IDX_NEXT);
    h->tail = jet_get_u32(page + IDX_TAIL);
    h->prefix_len = (uint16_t)jet_get_u16(page + IDX_PREFIX_LEN);
    if (mask[0] & 1)
        return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                        "index page: the entry mask marks an empty entry");
    for (size_t i = 0; i < IDX_MASK_LEN; i++) {
        if (mask[i] == 0)
            continue;
        for (unsigned m = mask[i]; m != 0; m &= m - 1) {
            size_t end = i * 8 + (size_t)__builtin_ctz(m), len, full, klen;
            const uint8_t *s = area + start;
            if (end > area_len)
                return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                                "index page: an entry ends at %zu, past "
                                "the entry area", end);
            len = end - start;
            if (n == 0 && h->prefix_len > len)
                return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                                "index page: shared prefix of %u bytes "
                                "in a first entry of %zu",
                                h->prefix_len, len);
            full = n == 0 ? len : h->prefix_len + len;
            if (full < ptr || full - ptr > JET_INDEX_KEY_MAX)
                return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                                "index page: entry %zu of %zu bytes", n,
                                full);
            klen = full - ptr;
            if (ents != NULL) {
                jet_index_entry *e = &ents[n];
                size_t pre = n == 0 ? 0 : h->prefix_len;
                uint32_t child = 0;
                if (n >= cap || klen > keys_cap - kbytes)
                    return JET_ELIMIT;
                if (klen <= pre) {
                    memcpy(keys + kbytes, area, klen);
                } else {
                    memcpy(keys + kbytes, area, pre);
                    memcpy(keys + kbytes + pre, s, klen - pre);
                }
                e->key = keys + kbytes;
                e->key_len = klen;
                e->pgno = (uint32_t)entry_byte(area, pre, s, klen) << 16 |
                          (uint32_t)entry_byte(area, pre, s, klen + 1) << 8 |
                          entry_byte(area, pre, s, klen + 2);
                e->row = entry_byte(area, pre, s, klen + 3);
                for (size_t k = klen + 4; k < full; k++)
                    child = child << 8 | entry_byte(area, pre, s, k);
                e->child = child;
                if (n > 0 && jet_index_entry_cmp(&ents[n - 1], e) >= 0)
                    return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                                    "index page: entry %zu is out of "
                                    "order", n);
            }
            kbytes += klen;
            n++;
            start = end;
        }
    }
    h->n = n;
    h->key_bytes = kbytes;
    h->used = start;
    return JET_OK;
}

/* Big-endian 32 bits at p (an entry's data pointer, a child page). */
static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/* memcmp's sign for n bytes; short keys (a number's 5 bytes) without a
 * call. */
static int key_bytes_cmp(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n > 16)
        return memcmp(a, b, n);
    for (size_t k = 0; k < n; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* Entry [s, end) of the entry area (stored after the shared prefix
 * unless s is 0) against e; its pointers and child into *x. */
static int stored_cmp(const uint8_t *area, size_t plen, size_t s,
                      size_t end, bool leaf, const jet_index_entry *e,
                      jet_index_entry *x)
{
    size_t pre = s == 0 ? 0 : plen, full = pre + end - s;
    size_t klen = full - (leaf ? 4 : 8);
    const uint8_t *st = area + s - pre;     /* byte k >= pre at st[k] */
    uint32_t ptr = 0, child = 0;
    int cmp = 0;
    if (klen >= pre) {
        /* the pointers are past the shared prefix: stored as they are */
        ptr = get_be32(st + klen);
        if (!leaf)
            child = get_be32(st + klen + 4);
    } else {
        for (size_t k = klen; k < full; k++) {
            uint8_t b = k < pre ? area[k] : st[k];
            if (k < klen + 4)
                ptr = ptr << 8 | b;
            else
                child = child << 8 | b;
        }
    }
    x->key = NULL;
    x->key_len = klen;
    x->pgno = ptr >> 8;
    x->row = (uint8_t)ptr;
    x->child = child;
    if (e != NULL) {
        size_t m = klen < e->key_len ? klen : e->key_len;
        size_t m1 = m < pre ? m : pre;
        uint32_t eptr = e->pgno << 8 | e->row;
        cmp = m1 ? key_bytes_cmp(area, e->key, m1) : 0;
        if (cmp == 0 && m > m1)
            cmp = key_bytes_cmp(st + m1, e->key + m1, m - m1);
        if (cmp == 0 && klen != e->key_len)
            cmp = klen < e->key_len ? -1 : 1;
        if (cmp == 0)
            cmp = ptr < eptr ? -1 : ptr > eptr;
    }
    return cmp;
}

/* ------------------------------------------------- the mask, indexed
 *
 * Searching and changing a page in place needs entry i's end without
 * walking every entry before it: the mask as 64-bit words (bit k of the
 * mask at bit k % 64 of word k / 64) and the count of entries ending
 * before each word. Entry sizes are checked as entries are looked at
 * (entry_at); the walk that decodes a whole page (jet_index_page_read)
 * checks every one.
 */
#define MASK_WORDS ((IDX_MASK_LEN + 7) / 8)

typedef struct mask_ix {
    uint64_t w[MASK_WORDS];
    uint16_t cum[MASK_WORDS + 1];   /* entries ending in words before k
                                       (k <= nw) */
    size_t nw;                      /* words up to the last one with a
                                       bit: the entries end in w[0..nw) */
    size_t n;                       /* entries */
} mask_ix;

#if !defined(__POPCNT__) && !defined(__aarch64__)
/* Set bits of v without a popcount instruction (x86-64's baseline has
 * none). */
static unsigned popcount_soft(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((v * 0x0101010101010101ull) >> 56);
}

/* mi->cum over words [0, nw), one popcount per word. */
static void count_soft(mask_ix *mi, size_t nw)
{
    for (size_t k = 0; k < nw; k++)
        mi->cum[k + 1] = (uint16_t)(mi->cum[k] + popcount_soft(mi->w[k]));
}
#endif

#if defined(__POPCNT__) || defined(__aarch64__)
#define count_words count_soft_or_hw
static void count_soft_or_hw(mask_ix *mi, size_t nw)
{
    for (size_t k = 0; k < nw; k++)
        mi->cum[k + 1] = (uint16_t)(mi->cum[k] +
                                    (unsigned)__builtin_popcountll(mi->w[k]));
}
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
/* The popcnt instruction where the CPU has it (every x86-64 since 2008),
 * chosen at run time: the build targets the baseline. */
__attribute__((target("popcnt")))
static void count_popcnt(mask_ix *mi, size_t nw)
{
    for (size_t k = 0; k < nw; k++)
        mi->cum[k + 1] = (uint16_t)(mi->cum[k] +
                                    (unsigned)__builtin_popcountll(mi->w[k]));
}

static void count_words(mask_ix *mi, size_t nw)
{
    /* 0 unknown, 1 popcnt, 2 none; asked once (a race asks twice and
     * stores the same answer) */
    static volatile int have;
    if (have == 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("popcnt") ? 1 : 2;
    }
    if (have == 1)
        count_popcnt(mi, nw);
    else
        count_soft(mi, nw);
}
#else
#define count_words count_soft
#endif

/* Index mask: the words, and the counts only up to the last word with a
 * bit (the entries fill the area from its start: a page half full
 * counts half the words). */
static void mask_index(mask_ix *mi, const uint8_t *mask)
{
    size_t nw = MASK_WORDS;
    memcpy(mi->w, mask, IDX_MASK_LEN);
    memset((uint8_t *)mi->w + IDX_MASK_LEN, 0,
           sizeof mi->w - IDX_MASK_LEN);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t k = 0; k < MASK_WORDS; k++)
        mi->w[k] = __builtin_bswap64(mi->w[k]);
#endif
    while (nw > 0 && mi->w[nw - 1] == 0)
        nw--;
    mi->cum[0] = 0;
    count_words(mi, nw);
    mi->nw = nw;
    mi->n = mi->cum[nw];
}

/* Where entry i (< mi->n) ends in the entry area. The word holding it:
 * the last or the first straight away (a search's first look, an
 * append's neighbours), else by binary search; in the word, the bit
 * counted from the nearer end. */
static size_t mask_end(const mask_ix *mi, size_t i)
{
    size_t lo = 0, hi = mi->nw;         /* cum[lo] <= i < cum[hi] */
    unsigned r, cnt;
    uint64_t v;
    if (i >= mi->cum[hi - 1]) {
        lo = hi - 1;
    } else if (i >= mi->cum[1]) {
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (mi->cum[mid] <= i)
                lo = mid;
            else
                hi = mid;
        }
    }
    v = mi->w[lo];
    r = (unsigned)(i - mi->cum[lo]);
    cnt = (unsigned)(mi->cum[lo + 1] - mi->cum[lo]);
    if (2 * r < cnt) {
        for (; r > 0; r--)
            v &= v - 1;
        return lo * 64 + (size_t)__builtin_ctzll(v);
    }
    for (r = cnt - 1 - r; r > 0; r--)
        v &= ~(1ull << (63 - __builtin_clzll(v)));
    return lo * 64 + 63 - (size_t)__builtin_clzll(v);
}

/* Set (on) or clear bit pos of the byte mask. */
static void mask_put(uint8_t *mask, size_t pos, bool on)
{
    if (on)
        mask[pos / 8] |= (uint8_t)(1u << (pos % 8));
    else
        mask[pos / 8] &= (uint8_t)~(1u << (pos % 8));
}

/* A page's entries, indexed, with the header facts the search needs. */
typedef struct page_ix {
    const uint8_t *area;
    size_t area_len;
    size_t plen;            /* shared prefix */
    size_t ptr;             /* pointer bytes after a key: 4 leaf, 8 node */
    mask_ix m;
} page_ix;

/* Index page page for searching: the type, the mask's first bit, the
 * first entry (the prefix inside it) and the last one checked.
 * JET_ECORRUPT when they are wrong. */
static jet_rc page_index(page_ix *px, const uint8_t *page,
                         const jet_format *fmt)
{
    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    if (page[0] != PAGE_LEAF && page[0] != PAGE_NODE)
        return JET_ECORRUPT;
    px->area = page + IDX_ENTRIES;
    px->area_len = fmt->page_size - IDX_ENTRIES;
    px->plen = jet_get_u16(page + IDX_PREFIX_LEN);
    px->ptr = page[0] == PAGE_LEAF ? 4 : 8;
    mask_index(&px->m, page + IDX_MASK);
    if (page[IDX_MASK] & 1)
        return JET_ECORRUPT;
    if (px->m.n > 0) {
        size_t first = mask_end(&px->m, 0);
        if (mask_end(&px->m, px->m.n - 1) > px->area_len ||
            first < px->plen || first < px->ptr ||
            first - px->ptr > JET_INDEX_KEY_MAX)
            return JET_ECORRUPT;
    }
    return JET_OK;
}

/* Entry i of px: its bytes [*s, *end) of the area (stored after the
 * shared prefix unless *s is 0). JET_ECORRUPT when its size is not an
 * entry's. */
static jet_rc entry_at(const page_ix *px, size_t i, size_t *s, size_t *end)
{
    size_t full;
    *s = i ? mask_end(&px->m, i - 1) : 0;
    *end = mask_end(&px->m, i);
    full = (*s ? px->plen : 0) + *end - *s;
    if (full < px->ptr || full - px->ptr > JET_INDEX_KEY_MAX)
        return JET_ECORRUPT;
    return JET_OK;
}

/* stored_cmp of entry i of px against e (NULL: only *x). */
static jet_rc entry_cmp(const page_ix *px, size_t i, const jet_index_entry *e,
                        jet_index_entry *x, int *cmp)
{
    size_t s, end;
    jet_rc rc = entry_at(px, i, &s, &end);
    if (rc != JET_OK)
        return rc;
    *cmp = stored_cmp(px->area, px->plen, s, end, px->ptr == 4, e, x);
    return JET_OK;
}

/* First entry of px not below e: *at (px->m.n when none). The last
 * entry is looked at first: keys inserted in order (an AutoNumber, a
 * loader's ascending ids) go past it, found with one comparison. last
 * (may be NULL) receives that entry (pointers, key NULL) when there is
 * one. */
static jet_rc page_search(const page_ix *px, const jet_index_entry *e,
                          size_t *at, jet_index_entry *last)
{
    size_t lo = 0, hi = px->m.n;
    jet_index_entry x;
    if (hi > 0) {
        int c;
        jet_rc rc = entry_cmp(px, hi - 1, e, last ? last : &x, &c);
        if (rc != JET_OK)
            return rc;
        if (c < 0) {
            *at = hi;
            return JET_OK;
        }
        hi--;       /* the last entry is not below e: the answer <= hi */
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c;
        jet_rc rc = entry_cmp(px, mid, e, &x, &c);
        if (rc != JET_OK)
            return rc;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    return JET_OK;
}

/* The header fields every page has (n and used: 0). */
static void head_links(const uint8_t *page, uint16_t plen,
                       jet_index_page_hdr *h)
{
    memset(h, 0, sizeof *h);
    h->leaf = page[0] == PAGE_LEAF;
    h->tdef_pgno = jet_get_u32(page + 4);
    h->prev = jet_get_u32(page + IDX_PREV);
    h->next = jet_get_u32(page + IDX_NEXT);
    h->tail = jet_get_u32(page + IDX_TAIL);
    h->prefix_len = plen;
}

/* *h from an indexed page. */
static void head_of(const page_ix *px, const uint8_t *page,
                    jet_index_page_hdr *h)
{
    head_links(page, (uint16_t)px->plen, h);
    h->n = px->m.n;
    h->used = px->m.n ? mask_end(&px->m, px->m.n - 1) : 0;
}

jet_rc jet_index_page_head(const uint8_t *page, const jet_format *fmt,
                           jet_index_page_hdr *h)
{
    page_ix px;
    jet_rc rc;
    memset(h, 0, sizeof *h);
    rc = page_index(&px, page, fmt);
    if (rc != JET_OK)
        return rc;
    head_of(&px, page, h);
    return JET_OK;
}

jet_rc jet_index_page_links(const uint8_t *page, const jet_format *fmt,
                            jet_index_page_hdr *h)
{
    memset(h, 0, sizeof *h);
    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    if (page[0] != PAGE_LEAF && page[0] != PAGE_NODE)
        return JET_ECORRUPT;
    head_links(page, (uint16_t)jet_get_u16(page + IDX_PREFIX_LEN), h);
    return JET_OK;
}

jet_rc jet_index_page_seek(const uint8_t *page, const jet_format *fmt,
                           const jet_index_entry *e, jet_index_page_hdr *h,
                           size_t *at, jet_index_entry *found)
{
    page_ix px;
    size_t lo = 0;
    int c;
    jet_rc rc;

    *at = 0;
    memset(found, 0, sizeof *found);
    memset(h, 0, sizeof *h);
    rc = page_index(&px, page, fmt);
    if (rc != JET_OK)
        return rc;
    head_of(&px, page, h);
    if (px.m.n == 0)
        return JET_OK;
    if ((rc = page_search(&px, e, &lo, found)) != JET_OK)
        return rc;
    *at = lo;
    if (lo + 1 >= px.m.n)
        return JET_OK;      /* the last entry: page_search gave it */
    return entry_cmp(&px, lo, NULL, found, &c);
}

jet_rc jet_index_page_find(const uint8_t *page, const jet_format *fmt,
                           const jet_index_page_hdr *h,
                           const jet_index_entry *e, size_t *at,
                           jet_index_entry *found)
{
    page_ix px;
    size_t lo = 0;
    int c;
    jet_rc rc;

    *at = 0;
    memset(found, 0, sizeof *found);
    rc = page_index(&px, page, fmt);
    if (rc != JET_OK)
        return rc;
    if (px.m.n != h->n || px.plen != h->prefix_len)
        return JET_ECORRUPT;
    if (px.m.n == 0)
        return JET_OK;
    if (e == NULL)
        lo = px.m.n - 1;
    else if ((rc = page_search(&px, e, &lo, NULL)) != JET_OK)
        return rc;
    *at = lo;
    if (lo < px.m.n && (rc = entry_cmp(&px, lo, NULL, found, &c)) != JET_OK)
        return rc;
    return JET_OK;
}

/* ------------------------------------------------- in-place leaf changes
 *
 * jet_index_page_build rewrites a whole page; for the common change (one
 * entry in or out of a leaf, neither first nor last, or appended at the
 * end with the shared prefix unchanged) the page as build would write it
 * differs from the old one only from the entry on: the entries after it
 * shift, their mask bits shift, the free space changes. These do that in
 * place, without decoding the page.
 */

/* Length of the common prefix of key a (alen) and b (blen). */
static size_t common_prefix(const uint8_t *a, size_t alen, const uint8_t *b,
                            size_t blen)
{
    size_t m = alen < blen ? alen : blen, k = 0;
    while (k < m && a[k] == b[k])
        k++;
    return k;
}

/* Does entry i of px have key bytes key (klen)? */
static jet_rc entry_key_equal(const page_ix *px, size_t i,
                              const uint8_t *key, size_t klen, bool *eq)
{
    size_t s, end, pre, have, m;
    jet_rc rc = entry_at(px, i, &s, &end);
    *eq = false;
    if (rc != JET_OK)
        return rc;
    pre = s ? px->plen : 0;
    have = pre + end - s - px->ptr;
    if (have != klen)
        return JET_OK;
    m = klen < pre ? klen : pre;
    if (memcmp(px->area, key, m) != 0)
        return JET_OK;
    *eq = klen <= pre || memcmp(px->area + s, key + pre, klen - pre) == 0;
    return JET_OK;
}

/* Move the mask bits of the entries ending after byte from (up to used)
 * by delta bytes. */
static void shift_mask(uint8_t *mask, size_t from, size_t used, long delta)
{
    uint16_t ends[IDX_MASK_LEN * 8];
    size_t n = 0;
    for (size_t pos = from + 1; pos <= used; pos++)
        if (mask[pos / 8] & (1u << (pos % 8)))
            ends[n++] = (uint16_t)pos;
    for (size_t i = 0; i < n; i++)
        mask_put(mask, ends[i], false);
    for (size_t i = 0; i < n; i++)
        mask_put(mask, (size_t)((long)ends[i] + delta), true);
}

/* The start of a change in place on a leaf: when page is a Jet4/ACE
 * leaf of at least min entries, px indexes it, *lo is the first entry
 * not below e (page_search) and *leaf is true; else *leaf is false and
 * the change is not made here (the caller's general path makes it).
 * JET_ECORRUPT when the page's entries are wrong. */
static jet_rc leaf_place(const uint8_t *page, const jet_format *fmt,
                         const jet_index_entry *e, size_t min, page_ix *px,
                         size_t *lo, bool *leaf)
{
    jet_rc rc;
    *leaf = false;
    if (page[0] != PAGE_LEAF || fmt->jet3)
        return JET_OK;
    if ((rc = page_index(px, page, fmt)) != JET_OK)
        return rc;
    if (px->m.n < min)
        return JET_OK;
    if ((rc = page_search(px, e, lo, NULL)) != JET_OK)
        return rc;
    *leaf = true;
    return JET_OK;
}

jet_rc jet_index_leaf_insert(uint8_t *page, const jet_format *fmt,
                             const jet_index_entry *e, bool unique,
                             bool last_ok, bool *done)
{
    uint8_t buf[JET_INDEX_KEY_MAX + 8];
    page_ix px;
    size_t n, lo, start, end, slen, used, len;
    jet_index_entry x;
    bool eq, leaf;
    int c;
    jet_rc rc;

    *done = false;
    if (e->key_len > JET_INDEX_KEY_MAX || e->pgno > 0xFFFFFFu)
        return JET_OK;
    if ((rc = leaf_place(page, fmt, e, 2, &px, &lo, &leaf)) != JET_OK ||
        !leaf)
        return rc;
    n = px.m.n;
    /* a new first entry changes the prefix; a new last one may, and its
     * parent's entry names it; an equal entry is the caller's error */
    if (lo == 0 || (lo == n && !last_ok))
        return JET_OK;
    if (lo < n && ((rc = entry_cmp(&px, lo, e, &x, &c)) != JET_OK || c == 0))
        return rc;
    /* unique: the neighbours on this page (past the end the next page's
     * first entry would be one: last_ok says there is none) */
    if (unique) {
        if ((rc = entry_key_equal(&px, lo - 1, e->key, e->key_len, &eq)) !=
                JET_OK || eq)
            return rc;
        if (lo < n && ((rc = entry_key_equal(&px, lo, e->key, e->key_len,
                                             &eq)) != JET_OK || eq))
            return rc;
    }
    if (e->key_len < px.plen || memcmp(px.area, e->key, px.plen) != 0)
        return JET_OK;
    if ((rc = entry_at(&px, 0, &start, &end)) != JET_OK)
        return rc;
    if (lo == n && common_prefix(px.area, end - 4, e->key, e->key_len) !=
                       px.plen)
        return JET_OK;      /* the page's shared prefix would change */
    used = mask_end(&px.m, n - 1);
    len = jet_index_entry_len(e, true);
    slen = len - px.plen;
    if (used + slen > px.area_len)
        return JET_OK;      /* full: the caller splits */
    start = mask_end(&px.m, lo - 1);
    memmove(page + IDX_ENTRIES + start + slen, page + IDX_ENTRIES + start,
            used - start);
    entry_bytes(buf, e, true);
    memcpy(page + IDX_ENTRIES + start, buf + px.plen, slen);
    shift_mask(page + IDX_MASK, start, used, (long)slen);
    mask_put(page + IDX_MASK, start + slen, true);
    jet_put_u16(page + 2, (uint32_t)(px.area_len - used - slen));
    *done = true;
    return JET_OK;
}

jet_rc jet_index_leaf_remove(uint8_t *page, const jet_format *fmt,
                             const jet_index_entry *e, bool *done)
{
    page_ix px;
    size_t n, lo, start, end, slen, used;
    jet_index_entry x;
    bool leaf;
    int c;
    jet_rc rc;

    *done = false;
    if ((rc = leaf_place(page, fmt, e, 3, &px, &lo, &leaf)) != JET_OK ||
        !leaf)
        return rc;
    n = px.m.n;
    /* the first and last entries stay (the prefix and the parent's
     * entry); a missing entry is the caller's error */
    if (lo == 0 || lo + 1 >= n)
        return JET_OK;
    if ((rc = entry_cmp(&px, lo, e, &x, &c)) != JET_OK || c != 0)
        return rc;
    if ((rc = entry_at(&px, lo, &start, &end)) != JET_OK)
        return rc;
    used = mask_end(&px.m, n - 1);
    slen = end - start;
    mask_put(page + IDX_MASK, end, false);
    memmove(page + IDX_ENTRIES + start, page + IDX_ENTRIES + end,
            used - end);
    memset(page + IDX_ENTRIES + used - slen, 0, slen);
    shift_mask(page + IDX_MASK, end, used, -(long)slen);
    jet_put_u16(page + 2, (uint32_t)(px.area_len - used + slen));
    *done = true;
    return JET_OK;
}
