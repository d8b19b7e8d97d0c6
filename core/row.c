/*
 * row.c - lay out one row of a Jet data page, without copying it.
 *
 * Data page: row count at 8 (Jet3) / 12 (Jet4), then 2-byte row offsets
 * from 10 / 14. Offset flags: 0x8000 deleted, 0x4000 overflow pointer; the
 * low 13 bits are the row start. Row 0 ends at the page end, row n at the
 * start of row n-1.
 * Row: column count (1 / 2 bytes), fixed area, var data, then from the end:
 * null mask ((ncols+7)/8 bytes, bit set = NOT null), var count, var offsets
 * in reverse order with eod last (Jet3: 1-byte offsets plus a jump table,
 * one entry per 256 bytes of row).
 * Format: mdbtools HACKING.md "Data Pages"; Jackcess TableImpl.
 * Invariant: every span handed out lies inside the row, else JET_ECORRUPT
 * naming the page.
 */
#include "bytes.h"
#include "internal.h"

#define ROW_OFFSET_MASK 0x1FFF
#define ROW_DELETED 0x8000
#define ROW_OVERFLOW 0x4000

uint16_t jet_page_row_count(const jet_format *fmt, const uint8_t *page)
{
    uint16_t n = jet_get_u16(page + fmt->data_nrows);
    uint32_t max = (fmt->page_size - fmt->data_row_table) / 2;
    return n > max ? (uint16_t)max : n;
}

jet_rc jet_row_bounds(const jet_format *fmt, const uint8_t *page,
                      uint32_t pgno, uint16_t rowno, uint16_t *start,
                      uint16_t *end, uint16_t *flags, jet_error *err)
{
    uint16_t nrows = jet_get_u16(page + fmt->data_nrows);
    uint32_t table_end;
    uint16_t raw, s, e;

    *start = *end = 0;
    *flags = 0;
    if (rowno >= nrows)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "row %u past the %u rows of page %u", rowno, nrows,
                        pgno);
    table_end = fmt->data_row_table + (uint32_t)nrows * 2;
    if (table_end > fmt->page_size)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "row offset table of %u rows overruns page %u",
                        nrows, pgno);
    raw = jet_get_u16(page + fmt->data_row_table + rowno * 2);
    *flags = raw & (ROW_DELETED | ROW_OVERFLOW);
    s = raw & ROW_OFFSET_MASK;
    if (rowno == 0)
        e = (uint16_t)fmt->page_size;
    else
        e = jet_get_u16(page + fmt->data_row_table + (rowno - 1) * 2) &
            ROW_OFFSET_MASK;
    if (s < table_end || s > e || e > fmt->page_size) {
        if (raw & ROW_DELETED)
            return JET_OK;   /* deleted: stale bounds are no error */
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "row %u of page %u has bad bounds %u..%u", rowno,
                        pgno, s, e);
    }
    *start = s;
    *end = e;
    return JET_OK;
}

/* Jet3: 1-byte var offsets, corrected by the jump table (Jackcess
 * readJumpTableVarColOffsets explains the dummy last jump). */
static jet_rc parse_jet3_var(jet_row *r, uint16_t *buf, size_t cap,
                             uint32_t pgno, jet_error *err)
{
    const uint8_t *row = r->data;
    size_t len = r->len, nm = r->null_mask_len;
    size_t row_end = len - 1;
    size_t nvar, njumps, col_off, used = 0;

    if (len < nm + 2)
        return jet_fail(err, JET_ECORRUPT, pgno, "row too short for var count");
    nvar = row[row_end - nm];
    njumps = (len - 1) / 256;
    if (row_end < nm + njumps + 1)
        return jet_fail(err, JET_ECORRUPT, pgno, "row too short for jump table");
    col_off = row_end - nm - njumps - 1;
    if (col_off < nvar + 1)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "var offset table of %zu entries overruns the row",
                        nvar);
    if (njumps > 0 && (col_off - nvar) / 256 < njumps)
        njumps--;
    if (nvar + 1 > cap)
        return jet_fail(err, JET_ECORRUPT, pgno, "too many var columns (%zu)",
                        nvar);
    for (size_t i = 0; i <= nvar; i++) {
        while (used < njumps && i == row[row_end - nm - used - 1])
            used++;
        buf[i] = (uint16_t)(row[col_off - i] + used * 256);
    }
    r->nvar = (uint16_t)nvar;
    r->var_off = buf;
    return JET_OK;
}

static jet_rc parse_jet4_var(jet_row *r, uint16_t *buf, size_t cap,
                             uint32_t pgno, jet_error *err)
{
    const uint8_t *row = r->data;
    size_t len = r->len, nm = r->null_mask_len;
    size_t pos, nvar;

    if (len < nm + 4)
        return jet_fail(err, JET_ECORRUPT, pgno, "row too short for var count");
    pos = len - nm - 2;
    nvar = jet_get_u16(row + pos);
    if (nvar + 1 > cap || (nvar + 1) * 2 + 2 > pos)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "var offset table of %zu entries overruns the row",
                        nvar);
    for (size_t i = 0; i <= nvar; i++)
        buf[i] = jet_get_u16(row + pos - 2 * (i + 1));
    r->nvar = (uint16_t)nvar;
    r->var_off = buf;
    return JET_OK;
}

jet_rc jet_row_parse(jet_row *out, const jet_format *fmt, const uint8_t *row,
                     size_t len, bool has_var, uint16_t *var_buf,
                     size_t var_cap, uint32_t pgno, jet_error *err)
{
    size_t cc = fmt->row_count_size;

    out->data = row;
    out->len = len;
    out->nvar = 0;
    out->var_off = var_buf;
    if (len < cc + 1)
        return jet_fail(err, JET_ECORRUPT, pgno, "row of %zu bytes too short",
                        len);
    out->ncols = cc == 1 ? row[0] : jet_get_u16(row);
    out->null_mask_len = ((size_t)out->ncols + 7) / 8;
    if (out->null_mask_len + cc > len)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "null mask of %u columns overruns a %zu-byte row",
                        out->ncols, len);
    out->null_mask = row + len - out->null_mask_len;
    if (!has_var)
        return JET_OK;
    return fmt->jet3 ? parse_jet3_var(out, var_buf, var_cap, pgno, err)
                     : parse_jet4_var(out, var_buf, var_cap, pgno, err);
}

jet_rc jet_row_column(const jet_row *row, const jet_format *fmt,
                      const jet_column *col, bool *is_null,
                      const uint8_t **data, size_t *len, uint32_t pgno,
                      jet_error *err)
{
    return jet_row_column_inl(row, fmt, col, is_null, data, len, pgno, err);
}
