/*
 * pageenc.c - change data pages and usage maps in caller buffers: the
 * inverses of row.c's page reads (row offsets, flags, row count) and of
 * usagemap.c.
 *
 * Data page (Jet4/ACE): type 0x01 at 0, 0x01 at 1, free space (u16) at 2,
 * owner tdef page (or "LVAL") at 4, row count (u16) at 12, row offsets
 * from 14; rows fill from the page end down, row n directly below row
 * n - 1. Free space = lowest row start - end of the offset table, the
 * offset entry of the next row included (Jackcess getRowSpaceUsage: a
 * row costs its length + 2).
 * Usage maps: inline rows (type 0, start page, bitmap) and reference
 * rows (type 1, page numbers of type-0x05 pages whose bitmaps start at
 * byte 4), as usagemap.c reads them.
 * Format: Jackcess TableImpl (addDataPageRow, deleteRow, updateRow),
 * UsageMap; mdbtools HACKING.md "Data Pages", "Page Usage Maps".
 * Invariant: nothing is written outside the page or row given; a call
 * that fails changes nothing.
 */
#include <string.h>

#include "bytes.h"
#include "encode.h"

#define DATA_FREE_SPACE 2
#define ROW_OFFSET_MASK 0x1FFF
/* the largest page of the formats written (Jet4/ACE) */
#define PAGE_MAX 4096
#define UMAP_INLINE 0
#define UMAP_REFERENCE 1
#define UMAP_INLINE_BITMAP 5
#define UMAP_PAGE_BITMAP 4

/* ----------------------------------------------------------- row padding */

jet_rc jet_row_pad(uint8_t *row, size_t cap, size_t *len,
                   const jet_tdef_priv *t, size_t min_len)
{
    size_t trailer = ((size_t)t->max_cols + 7) / 8 +
                     (t->num_var_cols ? 2 * (size_t)t->num_var_cols + 4 : 0);
    size_t pad;
    if (*len >= min_len)
        return JET_OK;
    if (min_len > cap || trailer > *len)
        return JET_ELIMIT;
    pad = min_len - *len;
    memmove(row + *len - trailer + pad, row + *len - trailer, trailer);
    memset(row + *len - trailer, 0, pad);
    *len = min_len;
    return JET_OK;
}

/* ------------------------------------------------------------ data pages */

void jet_data_page_init(uint8_t *page, const jet_format *fmt,
                        uint32_t tdef_pgno, bool lval)
{
    memset(page, 0, fmt->page_size);
    page[0] = JET_PAGE_DATA;
    page[1] = 0x01;
    jet_put_u16(page + DATA_FREE_SPACE, fmt->page_size - fmt->data_row_table);
    if (lval)
        memcpy(page + fmt->data_tdef_pgno, "LVAL", 4);
    else
        jet_put_u32(page + fmt->data_tdef_pgno, tdef_pgno);
}

/* Lowest row start (the page end when there are no rows), or 0 when the
 * offset table is damaged. */
static size_t rows_top(const jet_format *fmt, const uint8_t *page,
                       uint16_t nrows)
{
    size_t table_end = fmt->data_row_table + 2 * (size_t)nrows;
    size_t top = fmt->page_size;
    if (table_end > fmt->page_size)
        return 0;
    if (nrows > 0)
        top = jet_get_u16(page + fmt->data_row_table + 2 * (nrows - 1)) &
              ROW_OFFSET_MASK;
    return top < table_end ? 0 : top;
}

size_t jet_data_page_free_space(const jet_format *fmt, const uint8_t *page)
{
    uint16_t nrows = jet_get_u16(page + fmt->data_nrows);
    size_t top = rows_top(fmt, page, nrows);
    size_t table_end = fmt->data_row_table + 2 * (size_t)nrows;
    if (top == 0 || nrows >= JET_MAX_ROWS_PER_PAGE)
        return 0;
    return top - table_end;
}

jet_rc jet_data_page_insert(uint8_t *page, const jet_format *fmt,
                            const uint8_t *row, size_t len, uint16_t flags,
                            uint16_t *rowno)
{
    uint16_t nrows = jet_get_u16(page + fmt->data_nrows);
    size_t free_len = jet_data_page_free_space(fmt, page), top;

    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    if (len + 2 > free_len || len == 0)
        return JET_ELIMIT;
    top = rows_top(fmt, page, nrows) - len;
    memcpy(page + top, row, len);
    jet_put_u16(page + fmt->data_row_table + 2 * (size_t)nrows,
            (uint32_t)top | (flags & (JET_ROW_DELETED | JET_ROW_OVERFLOW)));
    jet_put_u16(page + fmt->data_nrows, nrows + 1u);
    jet_put_u16(page + DATA_FREE_SPACE, (uint32_t)(free_len - len - 2));
    *rowno = nrows;
    return JET_OK;
}

/* The layout of a data page's rows for compaction: live bytes, whether a
 * deleted slot can be reused. false: a damaged offset table. */
static bool compact_plan(const jet_format *fmt, const uint8_t *page,
                         size_t *live, bool *slot, uint16_t *nrows)
{
    uint16_t n = jet_get_u16(page + fmt->data_nrows);
    size_t prev = fmt->page_size, table_end;
    *live = 0;
    *slot = false;
    *nrows = n;
    table_end = fmt->data_row_table + 2 * (size_t)n;
    if (n > JET_MAX_ROWS_PER_PAGE || table_end > fmt->page_size)
        return false;
    for (uint16_t i = 0; i < n; i++) {
        uint16_t e = jet_get_u16(page + fmt->data_row_table + 2 * (size_t)i);
        size_t off = e & ROW_OFFSET_MASK;
        if (off > prev || off < table_end)
            return false;
        if ((e & (JET_ROW_DELETED | JET_ROW_OVERFLOW)) ==
            (JET_ROW_DELETED | JET_ROW_OVERFLOW))
            *slot = true;
        else
            *live += prev - off;
        prev = off;
    }
    return true;
}

bool jet_data_page_fits_compacted(const jet_format *fmt, const uint8_t *page,
                                  size_t len)
{
    size_t live, room;
    bool slot;
    uint16_t n;
    if (fmt->jet3 || len == 0 || !compact_plan(fmt, page, &live, &slot, &n))
        return false;
    if (!slot && n >= JET_MAX_ROWS_PER_PAGE)
        return false;
    room = fmt->page_size - fmt->data_row_table - 2 * (size_t)n - live;
    return len + (slot ? 0 : 2) <= room;
}

jet_rc jet_data_page_insert_compact(uint8_t *page, const jet_format *fmt,
                                    const uint8_t *row, size_t len,
                                    uint16_t flags, uint16_t *rowno)
{
    uint8_t old[PAGE_MAX];
    size_t live, prev, top, table_end;
    uint16_t n, target = UINT16_MAX, count;
    bool slot;

    if (fmt->jet3)
        return JET_EUNSUPPORTED;
    if (fmt->page_size > sizeof old || !compact_plan(fmt, page, &live, &slot,
                                                     &n))
        return JET_ECORRUPT;
    if (!jet_data_page_fits_compacted(fmt, page, len))
        return JET_ELIMIT;
    memcpy(old, page, fmt->page_size);
    count = slot ? n : (uint16_t)(n + 1);
    table_end = fmt->data_row_table + 2 * (size_t)count;
    prev = fmt->page_size;
    top = fmt->page_size;
    for (uint16_t i = 0; i < count; i++) {
        uint8_t *ent = page + fmt->data_row_table + 2 * (size_t)i;
        uint16_t e = i < n ? jet_get_u16(old + fmt->data_row_table +
                                         2 * (size_t)i) : 0;
        size_t off = e & ROW_OFFSET_MASK, l = i < n ? prev - off : 0;
        bool del = i < n && (e & (JET_ROW_DELETED | JET_ROW_OVERFLOW)) ==
                                (JET_ROW_DELETED | JET_ROW_OVERFLOW);
        if (i < n)
            prev = off;
        if (target == UINT16_MAX && (i == n || del)) {
            target = i;
            top -= len;
            memcpy(page + top, row, len);
            jet_put_u16(ent, (uint32_t)top |
                        (flags & (JET_ROW_DELETED | JET_ROW_OVERFLOW)));
            continue;
        }
        if (del) {
            jet_put_u16(ent, (uint32_t)top | JET_ROW_DELETED |
                        JET_ROW_OVERFLOW);
            continue;
        }
        top -= l;
        memmove(page + top, old + off, l);
        jet_put_u16(ent, (uint32_t)top | (e & (JET_ROW_DELETED |
                                               JET_ROW_OVERFLOW)));
    }
    memset(page + table_end, 0, top - table_end);
    jet_put_u16(page + fmt->data_nrows, count);
    jet_put_u16(page + DATA_FREE_SPACE, (uint32_t)(top - table_end));
    *rowno = target;
    return JET_OK;
}

/* The offset entry of rowno, or NULL past the row count. */
static uint8_t *row_entry(uint8_t *page, const jet_format *fmt,
                          uint16_t rowno)
{
    uint16_t nrows = jet_get_u16(page + fmt->data_nrows);
    if (rowno >= nrows ||
        fmt->data_row_table + 2 * (size_t)(rowno + 1) > fmt->page_size)
        return NULL;
    return page + fmt->data_row_table + 2 * (size_t)rowno;
}

jet_rc jet_data_page_delete(uint8_t *page, const jet_format *fmt,
                            uint16_t rowno)
{
    uint8_t *e = row_entry(page, fmt, rowno);
    if (!e)
        return JET_ENOTFOUND;
    jet_put_u16(e, jet_get_u16(e) | JET_ROW_DELETED | JET_ROW_OVERFLOW);
    return JET_OK;
}

jet_rc jet_data_page_replace(uint8_t *page, const jet_format *fmt,
                             uint16_t rowno, const uint8_t *row,
                             size_t len)
{
    uint16_t s, e, flags;
    jet_rc rc;
    if (!row_entry(page, fmt, rowno))
        return JET_ENOTFOUND;
    rc = jet_row_bounds(fmt, page, JET_NO_PGNO, rowno, &s, &e, &flags, NULL);
    if (rc != JET_OK || e <= s)
        return JET_ECORRUPT;
    if (len != (size_t)(e - s))
        return JET_ELIMIT;
    memcpy(page + s, row, len);
    return JET_OK;
}

jet_rc jet_data_page_set_overflow(uint8_t *page, const jet_format *fmt,
                                  uint16_t rowno, uint32_t target_pgno,
                                  uint8_t target_row)
{
    uint16_t s, e, flags;
    uint8_t *ent = row_entry(page, fmt, rowno);
    if (!ent)
        return JET_ENOTFOUND;
    if (jet_row_bounds(fmt, page, JET_NO_PGNO, rowno, &s, &e, &flags,
                       NULL) != JET_OK || e < s)
        return JET_ECORRUPT;
    if (e - s < 4 || target_pgno > 0xFFFFFFu)
        return JET_ELIMIT;
    page[s] = target_row;
    page[s + 1] = (uint8_t)target_pgno;
    page[s + 2] = (uint8_t)(target_pgno >> 8);
    page[s + 3] = (uint8_t)(target_pgno >> 16);
    memset(page + s + 4, 0, (size_t)(e - s) - 4);
    jet_put_u16(ent, jet_get_u16(ent) | JET_ROW_OVERFLOW);
    return JET_OK;
}

/* ------------------------------------------------------------ usage maps */

static inline bool bit_get(const uint8_t *bm, size_t i)
{
    return (bm[i / 8] >> (i % 8)) & 1;
}

static inline void bit_put(uint8_t *bm, size_t i, bool on)
{
    if (on)
        bm[i / 8] |= (uint8_t)(1u << (i % 8));
    else
        bm[i / 8] &= (uint8_t)~(1u << (i % 8));
}

jet_rc jet_umap_inline_update(uint8_t *row, size_t len, uint32_t pgno,
                              bool add)
{
    uint8_t *bm = row + UMAP_INLINE_BITMAP;
    size_t nbits, first = SIZE_MAX, last = 0;
    uint32_t start, nstart;
    uint64_t lo, hi;

    if (len <= UMAP_INLINE_BITMAP || row[0] != UMAP_INLINE)
        return JET_ECORRUPT;
    nbits = (len - UMAP_INLINE_BITMAP) * 8;
    start = jet_get_u32(row + 1);
    if (pgno >= start && (uint64_t)pgno - start < nbits) {
        bit_put(bm, pgno - start, add);
        return JET_OK;
    }
    if (!add)
        return JET_ENOTFOUND;
    for (size_t i = 0; i < nbits; i++)
        if (bit_get(bm, i)) {
            if (first == SIZE_MAX)
                first = i;
            last = i;
        }
    lo = hi = pgno;
    if (first != SIZE_MAX) {
        if ((uint64_t)start + first < lo)
            lo = (uint64_t)start + first;
        if ((uint64_t)start + last > hi)
            hi = (uint64_t)start + last;
    }
    lo -= lo % 8;                       /* start pages are multiples of 8 */
    if (hi - lo + 1 >= nbits)
        return JET_ELIMIT;              /* promote to a reference map */
    nstart = (uint32_t)lo;
    {
        uint8_t old[4096];
        size_t nbytes = len - UMAP_INLINE_BITMAP;
        if (nbytes > sizeof old)
            return JET_ELIMIT;
        memcpy(old, bm, nbytes);
        memset(bm, 0, nbytes);
        for (size_t i = 0; first != SIZE_MAX && i < nbits; i++)
            if (bit_get(old, i))
                bit_put(bm, (size_t)(start + i - nstart), true);
    }
    jet_put_u32(row + 1, nstart);
    bit_put(bm, pgno - nstart, true);
    return JET_OK;
}

void jet_umap_ref_locate(uint32_t page_size, uint32_t pgno, size_t *slot,
                         uint32_t *bit)
{
    uint32_t per_page = (page_size - UMAP_PAGE_BITMAP) * 8;
    *slot = pgno / per_page;
    *bit = pgno % per_page;
}

uint32_t jet_umap_ref_page(const uint8_t *row, size_t len, size_t slot,
                           bool *ok)
{
    *ok = len >= 1 && row[0] == UMAP_REFERENCE && slot < (len - 1) / 4;
    return *ok ? jet_get_u32(row + 1 + 4 * slot) : 0;
}

jet_rc jet_umap_ref_attach(uint8_t *row, size_t len, size_t slot,
                           uint32_t map_pgno)
{
    if (len < 1 || row[0] != UMAP_REFERENCE)
        return JET_ECORRUPT;
    if (slot >= (len - 1) / 4)
        return JET_ELIMIT;
    jet_put_u32(row + 1 + 4 * slot, map_pgno);
    return JET_OK;
}

void jet_umap_page_init(uint8_t *page, uint32_t page_size)
{
    memset(page, 0, page_size);
    page[0] = JET_PAGE_USAGE_MAP;
    page[1] = 0x01;
}

jet_rc jet_umap_page_update(uint8_t *page, uint32_t page_size, uint32_t bit,
                            bool add)
{
    if (page[0] != JET_PAGE_USAGE_MAP)
        return JET_ECORRUPT;
    if (bit >= (page_size - UMAP_PAGE_BITMAP) * 8)
        return JET_ELIMIT;
    bit_put(page + UMAP_PAGE_BITMAP, bit, add);
    return JET_OK;
}

jet_rc jet_umap_promote_slots(const uint8_t *row, size_t len,
                              uint32_t page_size, size_t *slots, size_t cap,
                              size_t *n)
{
    size_t nbits, nslots;
    uint32_t start;

    *n = 0;
    if (len <= UMAP_INLINE_BITMAP || row[0] != UMAP_INLINE)
        return JET_ECORRUPT;
    nbits = (len - UMAP_INLINE_BITMAP) * 8;
    nslots = (len - 1) / 4;
    start = jet_get_u32(row + 1);
    for (size_t i = 0; i < nbits; i++) {
        size_t slot;
        uint32_t bit;
        if (!bit_get(row + UMAP_INLINE_BITMAP, i))
            continue;
        if ((uint64_t)start + i > 0xFFFFFFFFu)
            return JET_ECORRUPT;
        jet_umap_ref_locate(page_size, (uint32_t)(start + i), &slot, &bit);
        if (slot >= nslots)
            return JET_ELIMIT;
        if (*n > 0 && slots[*n - 1] == slot)
            continue;
        if (*n == cap)
            return JET_ELIMIT;
        slots[(*n)++] = slot;
    }
    return JET_OK;
}

/* The position of pgno's slot in slots[0..n), or n when absent. */
static size_t slot_pos(uint32_t page_size, uint32_t pgno, const size_t *slots,
                       size_t n, uint32_t *bit)
{
    size_t slot, j;
    jet_umap_ref_locate(page_size, pgno, &slot, bit);
    for (j = 0; j < n && slots[j] != slot; j++)
        ;
    return j;
}

jet_rc jet_umap_promote(uint8_t *row, size_t len, uint32_t page_size,
                        uint8_t *const *pages, const uint32_t *pgnos,
                        const size_t *slots, size_t n)
{
    size_t nbits, nslots, k;
    uint32_t start, bit;
    uint8_t *bm = row + UMAP_INLINE_BITMAP;

    if (len <= UMAP_INLINE_BITMAP || row[0] != UMAP_INLINE)
        return JET_ECORRUPT;
    nbits = (len - UMAP_INLINE_BITMAP) * 8;
    nslots = (len - 1) / 4;
    start = jet_get_u32(row + 1);
    /* check first: a refusal changes nothing */
    for (k = 0; k < n; k++)
        if (slots[k] >= nslots || pages[k][0] != JET_PAGE_USAGE_MAP)
            return JET_ELIMIT;
    for (size_t i = 0; i < nbits; i++)
        if (bit_get(bm, i) &&
            slot_pos(page_size, start + (uint32_t)i, slots, n, &bit) == n)
            return JET_ELIMIT;
    for (size_t i = 0; i < nbits; i++)
        if (bit_get(bm, i)) {
            k = slot_pos(page_size, start + (uint32_t)i, slots, n, &bit);
            bit_put(pages[k] + UMAP_PAGE_BITMAP, bit, true);
        }
    memset(row, 0, len);
    row[0] = UMAP_REFERENCE;
    for (k = 0; k < n; k++)
        jet_put_u32(row + 1 + 4 * slots[k], pgnos[k]);
    return JET_OK;
}
