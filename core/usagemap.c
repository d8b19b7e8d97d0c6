/*
 * usagemap.c - decode table usage maps into ascending page numbers.
 *
 * A tdef points at its usage map with 4 bytes: row number (1 byte) and page
 * (3 bytes). The row's first byte is the map type:
 *   0 inline:    4-byte start page, then a bitmap; bit n (LSB first) set
 *                means page start + n is owned.
 *   1 reference: 4-byte page numbers of type-0x05 map pages (0 = none);
 *                map page i covers pages i*(page_size-4)*8 onwards with a
 *                bitmap from byte 4.
 * Format: mdbtools HACKING.md "Page Usage Maps"; Jackcess UsageMap.
 * Invariant: only pages below the file's page count are listed, so the
 * result never exceeds the page count; a map naming a page past the end of
 * the file (a truncated copy) is JET_ECORRUPT, never silently shortened.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"

void jet_pglist_free(jet_pglist *l)
{
    if (!l)
        return;
    jet_free(l->pgnos);
    l->pgnos = NULL;
    l->count = 0;
}

typedef struct builder {
    jet_pglist *l;
    size_t cap;
    bool unsorted;      /* a page came after a higher one */
} builder;

static jet_rc push(builder *b, uint32_t pgno)
{
    if (b->l->count == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        uint32_t *n = jet_realloc(b->l->pgnos, ncap * sizeof *n);
        if (!n)
            return JET_ENOMEM;
        b->l->pgnos = n;
        b->cap = ncap;
    }
    if (b->l->count > 0 && b->l->pgnos[b->l->count - 1] >= pgno)
        b->unsorted = true;
    b->l->pgnos[b->l->count++] = pgno;
    return JET_OK;
}

/*
 * Append the set bits of bitmap (len bytes) as pages start + bit. A set
 * bit for a page at or past page_count means the file lost pages the table
 * owns (truncated copy): JET_ECORRUPT naming that page (map_pgno is the
 * page holding the map, for the message). Jackcess reads such a page and
 * fails too (PageChannel "invalid page number").
 */
static jet_rc add_bitmap(builder *b, const uint8_t *bm, size_t len,
                         uint64_t start, uint32_t page_count,
                         uint32_t map_pgno, jet_error *err)
{
    for (size_t i = 0; i < len; i++) {
        /* a map page is mostly zero bytes: skipped eight at a time */
        while (i + 8 <= len && jet_get_u64(bm + i) == 0)
            i += 8;
        if (i >= len)
            break;
        for (unsigned v = bm[i]; v; v &= v - 1) {
            unsigned bit = (unsigned)__builtin_ctz(v);
            uint64_t pg = start + i * 8 + bit;
            if (pg >= page_count)
                return jet_fail(err, JET_ECORRUPT,
                                pg < JET_NO_PGNO ? (uint32_t)pg
                                                 : JET_NO_PGNO,
                                "page %llu, listed in the usage map on "
                                "page %u, is past the end of the file "
                                "(%u pages)", (unsigned long long)pg,
                                map_pgno, page_count);
            if (push(b, (uint32_t)pg) != JET_OK)
                return JET_ENOMEM;
        }
    }
    return JET_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

jet_rc jet_usagemap_decode(jet_pglist *out, const uint8_t *row, size_t len,
                           jet_pagefile *pf, uint32_t page_size,
                           uint32_t page_count, uint32_t pgno,
                           jet_error *err)
{
    builder b = { out, 0, false };
    jet_rc rc = JET_OK;

    out->pgnos = NULL;
    out->count = 0;
    if (len < 1)
        return jet_fail(err, JET_ECORRUPT, pgno, "empty usage map row");
    if (row[0] == 0) {
        uint32_t start;
        if (!jet_read_u32(row, len, 1, &start))
            return jet_fail(err, JET_ECORRUPT, pgno,
                            "inline usage map row too short (%zu bytes)",
                            len);
        rc = add_bitmap(&b, row + 5, len - 5, start, page_count, pgno,
                        err);
    } else if (row[0] == 1) {
        uint64_t per_page = (uint64_t)(page_size - 4) * 8;
        size_t nrefs = (len - 1) / 4;
        for (size_t i = 0; i < nrefs && rc == JET_OK; i++) {
            uint32_t mp = jet_get_u32(row + 1 + i * 4);
            const uint8_t *page;
            if (mp == 0)
                continue;
            if (!pf)
                return jet_fail(err, JET_ECORRUPT, pgno,
                                "reference usage map without a page file");
            rc = jet_page_pin(pf, mp, &page, err);
            if (rc != JET_OK)
                break;
            if (page[0] != 0x05) {
                jet_page_unpin(pf, page);
                rc = jet_fail(err, JET_ECORRUPT, mp,
                              "usage map page %u has type 0x%02x, not 0x05",
                              mp, page[0]);
                break;
            }
            rc = add_bitmap(&b, page + 4, page_size - 4, i * per_page,
                            page_count, mp, err);
            jet_page_unpin(pf, page);
        }
    } else {
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "unknown usage map type %u", row[0]);
    }
    if (rc == JET_ENOMEM)
        rc = jet_fail(err, JET_ENOMEM, pgno, "out of memory");
    if (rc != JET_OK) {
        jet_pglist_free(out);
        return rc;
    }
    /* inline maps are ascending already; reference maps too, but a
     * corrupt start page could interleave: sort to keep the promise
     * (a table's maps are read again after another connection's commit,
     * so the usual ascending list costs no sort) */
    if (b.unsorted)
        qsort(out->pgnos, out->count, sizeof *out->pgnos, cmp_u32);
    return JET_OK;
}

jet_rc jet_usagemap_read(jet_pglist *out, jet_db *db, uint32_t map_ptr,
                         jet_error *err)
{
    uint16_t rowno = (uint16_t)(map_ptr & 0xFF);
    uint32_t pgno = map_ptr >> 8;
    uint16_t start, end, flags;
    const uint8_t *page;
    jet_rc rc;

    out->pgnos = NULL;
    out->count = 0;
    rc = jet_page_pin(db->pf, pgno, &page, err);
    if (rc != JET_OK)
        return rc;
    rc = jet_row_bounds(db->fmt, page, pgno, rowno, &start, &end, &flags,
                        err);
    if (rc == JET_OK) {
        /* copy the row: decoding may pin other pages */
        uint8_t buf[4096];
        size_t len = (size_t)(end - start);
        memcpy(buf, page + start, len);
        jet_page_unpin(db->pf, page);
        return jet_usagemap_decode(out, buf, len, db->pf, db->page_size,
                                   jet_pagefile_page_count(db->pf), pgno,
                                   err);
    }
    jet_page_unpin(db->pf, page);
    return rc;
}
