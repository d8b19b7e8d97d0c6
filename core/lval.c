/*
 * lval.c - assemble MEMO/OLE long values.
 *
 * A long-value column holds a 12-byte header:
 *   0  4  length in the low 30 bits; type in the top 2 bits:
 *         0x80.. inline (the data follows the header in the row),
 *         0x40.. one LVAL row at (page, row),
 *         0x00.. a chain of LVAL rows, each starting with a 4-byte pointer
 *                (row byte + 3-byte page) to the next
 *   4  4  row number (1 byte) + page (3 bytes)
 *   8  4  unused
 * Format: mdbtools HACKING.md "LVAL Pages"; Jackcess LongValueColumnImpl.
 * Invariants: the assembled length never exceeds the header's length nor
 * the file size; a chain visits at most page-count rows.
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"

#define LVAL_TYPE_MASK 0xC0000000u
#define LVAL_INLINE 0x80000000u
#define LVAL_SINGLE 0x40000000u

jet_rc jet_buf_reserve(jet_buf *b, size_t cap)
{
    uint8_t *n;
    if (cap <= b->cap)
        return JET_OK;
    if (cap < b->cap * 2)
        cap = b->cap * 2;
    n = jet_realloc(b->data, cap);
    if (!n)
        return JET_ENOMEM;
    b->data = n;
    b->cap = cap;
    return JET_OK;
}

void jet_buf_free(jet_buf *b)
{
    if (!b)
        return;
    jet_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Pin page pgno and locate LVAL row rowno on it. */
static jet_rc pin_lval_row(jet_db *db, uint32_t pgno, uint16_t rowno,
                           const uint8_t **page, const uint8_t **row,
                           size_t *len, jet_error *err)
{
    uint16_t s, e, flags;
    jet_rc rc = jet_page_pin(db->pf, pgno, page, err);
    if (rc != JET_OK)
        return rc;
    if ((*page)[0] != 0x01) {
        rc = jet_fail(err, JET_ECORRUPT, pgno,
                      "long value page %u has type 0x%02x, not a data page",
                      pgno, (*page)[0]);
        goto fail;
    }
    rc = jet_row_bounds(db->fmt, *page, pgno, rowno, &s, &e, &flags, err);
    if (rc != JET_OK)
        goto fail;
    if (e <= s && (flags & 0x8000)) {
        rc = jet_fail(err, JET_ECORRUPT, pgno,
                      "long value row %u of page %u is deleted", rowno, pgno);
        goto fail;
    }
    *row = *page + s;
    *len = (size_t)(e - s);
    return JET_OK;
fail:
    jet_page_unpin(db->pf, *page);
    *page = NULL;
    return rc;
}

jet_rc jet_lval_read(jet_buf *scratch, jet_db *db, const uint8_t *hdr,
                     size_t hdr_len, uint32_t pgno, jet_error *err)
{
    uint32_t word, length, ptr, lpg;
    uint16_t lrow;
    const uint8_t *page, *row;
    size_t rlen;
    jet_rc rc;

    scratch->len = 0;
    if (hdr_len < 12)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "long value header of %zu bytes (12 expected)",
                        hdr_len);
    word = jet_get_u32(hdr);
    length = word & ~LVAL_TYPE_MASK;
    ptr = jet_get_u32(hdr + 4);
    lrow = (uint16_t)(ptr & 0xFF);
    lpg = ptr >> 8;
    if (length > jet_pagefile_size(db->pf))
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "long value length %u exceeds the file size", length);
    if ((word & LVAL_TYPE_MASK) == LVAL_INLINE) {
        size_t n = hdr_len - 12 < length ? hdr_len - 12 : length;
        if (jet_buf_reserve(scratch, n) != JET_OK)
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        if (n)   /* an empty value may leave scratch without storage */
            memcpy(scratch->data, hdr + 12, n);
        scratch->len = n;
        return JET_OK;
    }
    if ((word & LVAL_TYPE_MASK) == LVAL_SINGLE) {
        rc = pin_lval_row(db, lpg, lrow, &page, &row, &rlen, err);
        if (rc != JET_OK)
            return rc;
        if (rlen > length)
            rlen = length;
        if (jet_buf_reserve(scratch, rlen) != JET_OK) {
            jet_page_unpin(db->pf, page);
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        }
        if (rlen)
            memcpy(scratch->data, row, rlen);
        scratch->len = rlen;
        jet_page_unpin(db->pf, page);
        return JET_OK;
    }
    if ((word & LVAL_TYPE_MASK) != 0)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "long value header has unknown type bits 0x%08x",
                        word);
    if (jet_buf_reserve(scratch, length) != JET_OK)
        return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
    {
        uint64_t hops = 0,
                 limit = (uint64_t)jet_pagefile_page_count(db->pf) * 256u;
        while (scratch->len < length) {
            size_t chunk;
            if (lpg == 0)
                return jet_fail(err, JET_ECORRUPT, pgno,
                                "long value chain ends after %zu of %u bytes",
                                scratch->len, length);
            if (++hops > limit)
                return jet_fail(err, JET_ECORRUPT, lpg,
                                "long value chain loops");
            rc = pin_lval_row(db, lpg, lrow, &page, &row, &rlen, err);
            if (rc != JET_OK)
                return rc;
            if (rlen < 4) {
                jet_page_unpin(db->pf, page);
                return jet_fail(err, JET_ECORRUPT, lpg,
                                "long value chain row %u too short", lrow);
            }
            ptr = jet_get_u32(row);
            chunk = rlen - 4;
            if (chunk > length - scratch->len)
                chunk = length - scratch->len;
            memcpy(scratch->data + scratch->len, row + 4, chunk);
            scratch->len += chunk;
            jet_page_unpin(db->pf, page);
            lrow = (uint16_t)(ptr & 0xFF);
            lpg = ptr >> 8;
        }
    }
    return JET_OK;
}
