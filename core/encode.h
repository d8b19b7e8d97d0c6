/*
 * encode.h - the format's encoders, each the inverse of a reader decoder:
 * values (rowenc.c, inverse of value.c and text.c), rows (rowenc.c,
 * inverse of row.c), long-value headers (rowenc.c, inverse of lval.c),
 * data pages and usage maps (pageenc.c, inverse of row.c's page reads and
 * usagemap.c), index keys and index pages (indexenc.c, inverse of
 * index.c's entry reads).
 *
 * Pure functions on caller-provided buffers: no I/O, no allocation, no
 * page file. The pager-side write path (insert/update/delete through a
 * transaction) composes them. Jet4 and ACE only: Jet3 (Access 97) files
 * stay read-only, and these refuse a Jet3 format with JET_EUNSUPPORTED.
 * Format: mdbtools HACKING.md; Jackcess TableImpl (createRow,
 * addDataPageRow, updateRow, deleteRow), ColumnImpl (writeFixedLengthField,
 * encodeTextValue), LongValueColumnImpl.writeLongValue, UsageMap,
 * IndexData.
 */
#ifndef JET_ENCODE_H
#define JET_ENCODE_H

#include "internal.h"

/* ---------------------------------------------------------------- values */

/** Largest row Jet4/ACE accept (Jackcess JetFormat MAX_ROW_SIZE). */
#define JET_MAX_ROW_LEN 4060
/** A long value of at most this many bytes may sit inline in its row. */
#define JET_LVAL_INLINE_MAX 64
/** A long value of at most this many bytes fits one LVAL row. */
#define JET_LVAL_SINGLE_MAX 4076
/** Bytes of a long value per row of an LVAL chain (a 4-byte next pointer
 *  precedes them; Jackcess fills a page's whole free space). */
#define JET_LVAL_CHAIN_CHUNK 4072
/** Text of more units than this is never compressed (Jackcess
 *  MAX_COMPRESSED_UNICODE_SIZE). */
#define JET_TEXT_COMPRESS_MAX_UNITS 1024

/**
 * Encode fixed-size or in-row value v for column col into out (cap bytes);
 * *out_len receives the byte count. v->type must equal col->type (no
 * coercion here: the caller converts first). Covers BYTE, INT, LONG,
 * MONEY, FLOAT, DOUBLE, DATETIME, GUID, NUMERIC (the value's scale must be
 * the column's, and its digits fit the precision), BIGINT, COMPLEX,
 * BINARY (copied), EXT_DATETIME (42 bytes copied). BOOL lives in the null
 * mask (jet_cell.bit) and TEXT/MEMO/OLE have their own encoders.
 * Errors: JET_EUNSUPPORTED (type mismatch, BOOL/TEXT/MEMO/OLE, a
 * calculated column, a NUMERIC of another scale), JET_ELIMIT (cap short,
 * NUMERIC beyond its precision, BINARY longer than the column).
 * Format: inverse of jet_value_decode (value.c); Jackcess ColumnImpl.
 */
jet_rc jet_value_encode(uint8_t *out, size_t cap, size_t *out_len,
                        const jet_column *col, const jet_value *v);

/**
 * Encode UTF-16 text s (n units) as Jet4/ACE stores TEXT and MEMO bytes
 * into out (cap bytes; 2 * n + 2 always suffice); returns the length, or
 * 0 with nothing written when cap is short (n > 0). compress (the
 * column's JET_COL_COMPRESSED flag): "compressed Unicode" (FF FE, then
 * one byte per character for runs of U+0001-U+00FF, 00 toggling into and
 * out of UTF-16LE runs) when n <= JET_TEXT_COMPRESS_MAX_UNITS, no unit has
 * a zero low byte, and the result is shorter than plain text; otherwise
 * UTF-16LE. jet_text_to_utf16() reads either back. Format: Jackcess
 * ColumnImpl.encodeTextValue / decodeTextValue; text.c.
 */
size_t jet_text_encode(uint8_t *out, size_t cap, const uint16_t *s,
                       size_t n, bool compress);

/** Kinds of long-value storage (the top bits of the header's length). */
typedef enum jet_lval_kind {
    JET_LVAL_CHAIN = 0x00,     /* chain of LVAL rows, 4-byte next pointer */
    JET_LVAL_SINGLE = 0x40,    /* one LVAL row at (pgno, row) */
    JET_LVAL_INLINE = 0x80     /* the data follows the header in the row */
} jet_lval_kind;

/**
 * Where a long value of len bytes goes when room bytes of the row are
 * left for it (header included): inline when 12 + len <= room and
 * len <= JET_LVAL_INLINE_MAX, one LVAL row up to JET_LVAL_SINGLE_MAX,
 * else a chain. Format: Jackcess LongValueColumnImpl.writeLongValue.
 */
jet_lval_kind jet_lval_kind_for(size_t len, size_t room);

/**
 * Write the 12-byte long-value header: length | kind << 24, then the row
 * (1 byte) and page (3 bytes) of the first LVAL row (0 for inline), then
 * 4 zero bytes. An inline value's bytes follow it in the row (the caller
 * appends them). Errors: JET_ELIMIT for len >= 2^30 or pgno >= 2^24.
 * Format: inverse of jet_lval_read (lval.c).
 */
jet_rc jet_lval_header(uint8_t hdr[12], jet_lval_kind kind, size_t len,
                       uint32_t pgno, uint8_t row);

/**
 * Build one row of an LVAL chain into out (cap >= 4 + n): the 4-byte
 * pointer to the next row (row byte, 3-byte page; next_pgno 0 ends the
 * chain), then n bytes of data. Returns 4 + n, 0 when cap is short.
 */
size_t jet_lval_chain_row(uint8_t *out, size_t cap, uint32_t next_pgno,
                          uint8_t next_row, const uint8_t *data, size_t n);

/* ------------------------------------------------------------------ rows */

/**
 * One column of a row to encode, parallel to a tdef's columns: NULL, or
 * the column's encoded bytes (jet_value_encode, jet_text_encode, or for
 * MEMO/OLE the 12-byte header plus inline data). A fixed column's bytes
 * are jet_fixed_size(col) long; BOOL columns carry their value in bit
 * (is_null and data are ignored: a BOOL is never NULL).
 */
typedef struct jet_cell {
    bool is_null;
    bool bit;
    const uint8_t *data;
    size_t len;
} jet_cell;

/**
 * Lay out a Jet4/ACE row of table t from cells (t->pub.ncols entries,
 * parallel to t->pub.cols) into out (cap bytes); *out_len = its length.
 * Layout (the one row.c reads): column count (the TDEF's max column
 * count, 2 bytes), the fixed area (each fixed column at its fixed offset,
 * zeros for NULLs; as long as the furthest column's offset + length),
 * var data in var-index order, then — when the table has variable
 * columns — eod, the var offsets in reverse, the var count (the TDEF's),
 * and last the null mask (bit set = not NULL; BOOL values). Offsets of
 * var slots no column uses (dropped columns) repeat the next offset.
 * A calculated column's cell is its stored wrapper (any bytes).
 * Errors: JET_EUNSUPPORTED (Jet3), JET_ELIMIT (row
 * over JET_MAX_ROW_LEN or cap, a fixed cell of the wrong size),
 * JET_ECORRUPT (a column outside the TDEF's counts); detail in err.
 * Format: Jackcess TableImpl.createRow; mdbtools HACKING.md "Data Pages".
 */
jet_rc jet_row_encode(uint8_t *out, size_t cap, size_t *out_len,
                      const jet_format *fmt, const jet_tdef_priv *t,
                      const jet_cell *cells, jet_error *err);

#endif /* JET_ENCODE_H */
