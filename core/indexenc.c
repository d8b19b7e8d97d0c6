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
    for (size_t k = klen; k < full; k++) {
        uint8_t b = k < pre ? area[k] : st[k];
        if (k < klen + 4)
            ptr = ptr << 8 | b;
        else
            child = child << 8 | b;
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
        cmp = m1 ? memcmp(area, e->key, m1) : 0;
        if (cmp == 0 && m > m1)
            cmp = memcmp(st + m1, e->key + m1, m - m1);
        if (cmp == 0 && klen != e->key_len)
            cmp = klen < e->key_len ? -1 : 1;
        if (cmp == 0)
            cmp = ptr < eptr ? -1 : ptr > eptr;
    }
    return cmp;
}

jet_rc jet_index_page_find(const uint8_t *page, const jet_format *fmt,
                           const jet_index_page_hdr *h,
                           const jet_index_entry *e, size_t *at,
                           jet_index_entry *found)
{
    const uint8_t *area = page + IDX_ENTRIES, *mask = page + IDX_MASK;
    uint16_t ends[IDX_MASK_LEN * 8 + 1];
    size_t n = 0, lo = 0, hi;

    *at = 0;
    memset(found, 0, sizeof *found);
    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    for (size_t i = 0; i < IDX_MASK_LEN; i++)
        for (unsigned m = mask[i]; m != 0; m &= m - 1)
            ends[n++] = (uint16_t)(i * 8 + (size_t)__builtin_ctz(m));
    if (n != h->n)
        return JET_ECORRUPT;
    if (n == 0)
        return JET_OK;
    if (e == NULL) {
        lo = n - 1;
    } else {
        hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (stored_cmp(area, h->prefix_len, mid ? ends[mid - 1] : 0,
                           ends[mid], h->leaf, e, found) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    *at = lo;
    if (lo < n)
        stored_cmp(area, h->prefix_len, lo ? ends[lo - 1] : 0, ends[lo],
                   h->leaf, NULL, found);
    return JET_OK;
}
