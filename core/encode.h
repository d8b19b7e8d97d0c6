/*
 * encode.h - the format's encoders, each the inverse of a reader decoder:
 * values (rowenc.c, inverse of value.c and text.c), rows (rowenc.c,
 * inverse of row.c), long-value headers (rowenc.c, inverse of lval.c),
 * data pages and usage maps (pageenc.c, inverse of row.c's page reads and
 * usagemap.c), index keys and index pages (indexenc.c, inverse of
 * index.c's entry reads), table definitions (tdefenc.c, inverse of
 * tdef.c).
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

/**
 * The stored form of value v (of calculated column col's result_type, not
 * NULL) into out (cap bytes), *out_len its length: the wrapper Access
 * keeps a calculated value in, 16 zero bytes, the 4-byte length of the
 * data, the data, 3 zero bytes. Data: BOOL one byte (FF true, 00 false);
 * TEXT and MEMO text as jet_text_encode makes it (compress: TEXT yes,
 * MEMO no, as Access stores them); NUMERIC 16 bytes (2-byte length 14,
 * scale, sign 0x80 when negative, then Hi32, Lo32, Mid32 of the 96-bit
 * magnitude); the other types as jet_value_encode encodes them.
 * A MEMO's wrapper is the long value (the caller stores it on LVAL pages).
 * out_len 0 with JET_ELIMIT when cap is short or a NUMERIC has more than
 * 28 decimal places; JET_EUNSUPPORTED for a type Access does not
 * calculate or text not given as UTF-16LE. Format: Jackcess CalculatedColumnUtil
 * (wrapCalculatedValue, CalcNumericColImpl.writeCalcNumericValue).
 */
jet_rc jet_calc_value_encode(uint8_t *out, size_t cap, size_t *out_len,
                             const jet_column *col, const jet_value *v);

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

/**
 * Pad row (len bytes of a jet_row_encode result for t, in a buffer of cap
 * bytes) to min_len bytes with zeros inserted before its trailer (the var
 * offset table and null mask), as an in-place update that shrinks a row
 * keeps its old size; offsets are unchanged (the eod stays where the data
 * ends). Nothing happens when len >= min_len. Errors: JET_ELIMIT when
 * min_len exceeds cap. Format: Jackcess TableImpl.padRowBuffer.
 */
jet_rc jet_row_pad(uint8_t *row, size_t cap, size_t *len,
                   const jet_tdef_priv *t, size_t min_len);

/* ------------------------------------------------------------ data pages */

/** Page types. */
#define JET_PAGE_DATA 0x01
#define JET_PAGE_USAGE_MAP 0x05

/** Row offset flags (row.c). */
#define JET_ROW_DELETED 0x8000
#define JET_ROW_OVERFLOW 0x4000

/** Most rows a data page holds (Jackcess MAX_NUM_ROWS_ON_DATA_PAGE). */
#define JET_MAX_ROWS_PER_PAGE 255

/**
 * Start an empty data page (page_size bytes of fmt): type 0x01, 0x01,
 * free space, owner tdef_pgno at 4 — or the text "LVAL" when lval (the
 * page of a table's long values), no rows.
 * Format: Jackcess TableImpl.newDataPage, LongValueColumnImpl.
 */
void jet_data_page_init(uint8_t *page, const jet_format *fmt,
                        uint32_t tdef_pgno, bool lval);

/**
 * Bytes free on a data page for a new row and its 2-byte offset entry:
 * the gap between the row offset table and the lowest row, computed from
 * the offsets (not the stored free-space field, which
 * jet_data_page_insert keeps equal to it). 0 when the page's table is
 * damaged or full of rows.
 */
size_t jet_data_page_free_space(const jet_format *fmt, const uint8_t *page);

/**
 * Append row (len bytes) to a data page below its lowest row, with flags
 * (JET_ROW_DELETED for Jackcess-style overflow targets, else 0) on its
 * offset entry; update the row count and the free-space field. *rowno =
 * the new row's number. Errors: JET_ELIMIT when it does not fit (see
 * jet_data_page_free_space) or the page has JET_MAX_ROWS_PER_PAGE rows;
 * JET_EUNSUPPORTED for Jet3. Format: Jackcess TableImpl.addDataPageRow.
 */
jet_rc jet_data_page_insert(uint8_t *page, const jet_format *fmt,
                            const uint8_t *row, size_t len, uint16_t flags,
                            uint16_t *rowno);

/**
 * Bytes a row of len bytes needs on a data page once the bytes of its
 * deleted rows (offset entries with both JET_ROW_DELETED and
 * JET_ROW_OVERFLOW, as deletes leave them) are given back: true when it
 * fits so (jet_data_page_insert_compact then places it). 0-length rows
 * never fit. A damaged offset table: false.
 */
bool jet_data_page_fits_compacted(const jet_format *fmt, const uint8_t *page,
                                  size_t len);

/**
 * Insert row (len bytes, flags as jet_data_page_insert) on a data page
 * after compacting its row area, as Access does: deleted rows (both
 * flags) keep their offset entry with no bytes, live rows and overflow
 * targets keep their numbers and bytes; the first deleted slot takes the
 * new row (its number is free: a deleted row has no index entry), else a
 * new slot at the end. Row count and free-space field updated; the gap
 * is zeroed. Errors: JET_ELIMIT when it does not fit even so (see
 * jet_data_page_fits_compacted), JET_ECORRUPT for a damaged offset
 * table, JET_EUNSUPPORTED for Jet3.
 */
jet_rc jet_data_page_insert_compact(uint8_t *page, const jet_format *fmt,
                                    const uint8_t *row, size_t len,
                                    uint16_t flags, uint16_t *rowno);

/**
 * Mark row rowno deleted: its offset entry gets JET_ROW_DELETED and
 * JET_ROW_OVERFLOW, as Access and Jackcess write it; bytes, row count and
 * free space stay (space is not reclaimed). A row that points to an
 * overflow row is deleted here, at its header slot. Errors: JET_ENOTFOUND
 * for rowno past the row count. Format: Jackcess TableImpl.deleteRow.
 */
jet_rc jet_data_page_delete(uint8_t *page, const jet_format *fmt,
                            uint16_t rowno);

/**
 * Replace row rowno's bytes with row (len <= its current length; the
 * caller pads with jet_row_pad to the old size): an update in place.
 * Errors: JET_ELIMIT when len differs from the old length, JET_ENOTFOUND
 * for a bad rowno, JET_ECORRUPT for bad bounds.
 */
jet_rc jet_data_page_replace(uint8_t *page, const jet_format *fmt,
                             uint16_t rowno, const uint8_t *row,
                             size_t len);

/**
 * Turn row rowno into an overflow pointer to (target_pgno, target_row),
 * the row's new home after an update that grew it: the row's first 4
 * bytes become row byte + 3-byte page, the rest zeros, and its offset
 * entry gets JET_ROW_OVERFLOW. The target row is inserted with
 * JET_ROW_DELETED so scans skip it (scan.c follows the pointer).
 * Errors: JET_ELIMIT when the row is shorter than 4 bytes or target_pgno
 * needs more than 24 bits, JET_ENOTFOUND, JET_ECORRUPT.
 * Format: Jackcess TableImpl.updateRow.
 */
jet_rc jet_data_page_set_overflow(uint8_t *page, const jet_format *fmt,
                                  uint16_t rowno, uint32_t target_pgno,
                                  uint8_t target_row);

/* ------------------------------------------------------------ usage maps */

/**
 * Add (add = true) or remove page pgno in an inline usage map row (type
 * 0: 4-byte start page, then a bitmap of (len - 5) * 8 pages). A page
 * outside the window is added by moving the window (its start stays a
 * multiple of 8) when every page fits it; otherwise JET_ELIMIT: the map
 * must be promoted (jet_umap_promote) and the page added to the
 * reference map. Removing a page outside the window: JET_ENOTFOUND.
 * JET_ECORRUPT when row is not an inline map. Format: Jackcess
 * UsageMap.InlineHandler.
 */
jet_rc jet_umap_inline_update(uint8_t *row, size_t len, uint32_t pgno,
                              bool add);

/** The reference-map slot (which map page) and bit of pgno for a page
 *  size: each type-0x05 map page covers (page_size - 4) * 8 pages. */
void jet_umap_ref_locate(uint32_t page_size, uint32_t pgno, size_t *slot,
                         uint32_t *bit);

/**
 * The map page in slot of a reference usage map row (type 1, then 4-byte
 * page numbers), or 0 when that slot has none yet (the caller allocates a
 * page, jet_umap_page_init()s it and jet_umap_ref_attach()es it).
 * *ok = false when the row has no such slot (the file is too large for
 * this map) or is not a reference map.
 */
uint32_t jet_umap_ref_page(const uint8_t *row, size_t len, size_t slot,
                           bool *ok);

/** Store map page map_pgno in slot of a reference map row. JET_ELIMIT
 *  when the row has no such slot, JET_ECORRUPT when not a reference map. */
jet_rc jet_umap_ref_attach(uint8_t *row, size_t len, size_t slot,
                           uint32_t map_pgno);

/** Start an empty usage map page (type 0x05, 0x01, then a bitmap from
 *  byte 4). Format: Jackcess UsageMap.allocateNewUsageMapPage. */
void jet_umap_page_init(uint8_t *page, uint32_t page_size);

/** Set or clear bit (from jet_umap_ref_locate) of a usage map page.
 *  JET_ECORRUPT when page is not a usage map page. */
jet_rc jet_umap_page_update(uint8_t *page, uint32_t page_size, uint32_t bit,
                            bool add);

/**
 * Promotion of an inline map that outgrew its window, step 1: the slots
 * of the reference map the pages now in the map need (ascending, at most
 * cap; *n the count). The caller allocates and jet_umap_page_init()s one
 * page per slot. JET_ECORRUPT when row is not an inline map, JET_ELIMIT
 * when a page lies past the slots the row can hold ((len - 1) / 4).
 */
jet_rc jet_umap_promote_slots(const uint8_t *row, size_t len,
                              uint32_t page_size, size_t *slots, size_t cap,
                              size_t *n);

/**
 * Step 2: move the inline map's pages into the map pages (pages[i] for
 * slots[i], numbered pgnos[i], as step 1 listed them) and rewrite row as
 * a reference map (type 1) pointing to them. The page that did not fit
 * is then added with jet_umap_ref_locate/jet_umap_page_update (its slot
 * may need one more page). Errors: as step 1; JET_ELIMIT when a slot of
 * a present page was not given. Format: Jackcess
 * UsageMap.promoteInlineHandlerToReferenceHandler.
 */
jet_rc jet_umap_promote(uint8_t *row, size_t len, uint32_t page_size,
                        uint8_t *const *pages, const uint32_t *pgnos,
                        const size_t *slots, size_t n);

/* --------------------------------------------------------------- indexes */

/**
 * The index key of one row for index ix of table t (both of db): per
 * index column, its flag byte and body — numbers, dates, BOOL, GUID,
 * binary by jet_index_encode_value (index.c), TEXT/MEMO by
 * jet_collate_key in the column's sort order (General 97, Legacy or
 * 2010+), descending columns inverted as Jet writes them, NULL one flag
 * byte. vals holds one value per t->cols entry (only the index's columns
 * are read), as jet_value_decode gives them. Writes at most cap bytes to
 * out; *out_len = the key length (no page/row pointer).
 * Errors: JET_EUNSUPPORTED for text with a character the sort order's
 * tables do not cover (CJK, Hangul, private use, surrogates: Jet's codes
 * for them are not published, and a guessed key is one the reader might
 * not find), a column in a sort order without tables, or a type that has
 * no key (OLE); JET_ELIMIT when cap is short or a value is out of its
 * column's range. Format: Jackcess IndexData.createEntryBytes.
 */
jet_rc jet_index_row_key(uint8_t *out, size_t cap, size_t *out_len,
                         const jet_db *db, const jet_tdef *t,
                         const jet_index *ix, const jet_value *vals);

/** One entry of an index page: key bytes, then the data row it names
 *  (3-byte page, 1-byte row, big-endian) and on node pages the child page
 *  (4 bytes, big-endian). */
typedef struct jet_index_entry {
    const uint8_t *key;
    size_t key_len;
    uint32_t pgno;
    uint8_t row;
    uint32_t child;         /* node pages only */
} jet_index_entry;

/** Bytes of an entry on an index page of fmt (before prefix sharing). */
size_t jet_index_entry_len(const jet_index_entry *e, bool leaf);

/**
 * Write a whole Jet4/ACE index page (leaf: type 0x04, else node 0x03)
 * from entries ents[0..n) in index order: owner tdef_pgno, prev/next
 * pages at its level, tail (the rightmost child of a node page not among
 * its entries, else 0), the prefix shared by all entries (the common
 * prefix of the first and last entries' keys, as Jackcess computes it),
 * the entry mask and the entries, the first whole and the others without
 * the prefix; free space at 2. *used = bytes of the entry area used.
 * Errors: JET_ELIMIT when the entries do not fit (the caller splits),
 * JET_ECORRUPT when they are out of order, JET_EUNSUPPORTED for Jet3.
 * Format: Jackcess IndexData.writeDataPage, IndexPageCache
 * findCommonPrefix; index.c's page layout.
 */
jet_rc jet_index_page_build(uint8_t *page, const jet_format *fmt, bool leaf,
                            uint32_t tdef_pgno, uint32_t prev, uint32_t next,
                            uint32_t tail, const jet_index_entry *ents,
                            size_t n, size_t *used);

/** What jet_index_page_read found on an index page. */
typedef struct jet_index_page_hdr {
    bool leaf;              /* type 0x04; else a node page (0x03) */
    uint32_t tdef_pgno;     /* owner (offset 4) */
    uint32_t prev, next;    /* pages at the same level, 0 = none */
    uint32_t tail;          /* node pages: the child tail page, 0 = none */
    uint16_t prefix_len;    /* bytes every later entry shares with the
                               first */
    size_t n;               /* entries */
    size_t key_bytes;       /* sum of the entries' key lengths */
    size_t used;            /* bytes of the entry area in use */
} jet_index_page_hdr;

/**
 * Decode a Jet4/ACE index page (fmt->page_size bytes): the inverse of
 * jet_index_page_build. Fills *h; when ents is not NULL also the n
 * entries in page order, their keys (prefix put back) copied into keys
 * (keys_cap bytes, h->key_bytes needed) and pointed to by ents[i].key.
 * Call once with ents NULL to learn n and key_bytes. Checks: type 0x03 or
 * 0x04, entry-mask bits inside the entry area and not at 0, each entry
 * whole (its pointers, a key of at most JET_INDEX_KEY_MAX bytes), the
 * shared prefix inside the first entry, and (with ents) strictly
 * ascending entries (key bytes, then page, then row, as Jackcess orders
 * them). Errors: JET_ECORRUPT (the check that failed; detail in err when
 * not NULL), JET_ELIMIT (cap < n or keys_cap < key_bytes),
 * JET_EUNSUPPORTED for Jet3. Format: Jackcess IndexData.readDataPage.
 */
jet_rc jet_index_page_read(const uint8_t *page, const jet_format *fmt,
                           jet_index_page_hdr *h, jet_index_entry *ents,
                           size_t cap, uint8_t *keys, size_t keys_cap,
                           jet_error *err);

/**
 * The header of index page page as jet_index_page_read gives it (n and
 * used included, key_bytes 0) without walking every entry: checks the
 * type, the mask's first bit, the first entry (its size, the shared
 * prefix inside it) and the last one (inside the entry area); the others
 * are checked as a search meets them. Errors: JET_ECORRUPT,
 * JET_EUNSUPPORTED for Jet3.
 */
jet_rc jet_index_page_head(const uint8_t *page, const jet_format *fmt,
                           jet_index_page_hdr *h);

/**
 * The links of index page page without looking at its entries: type,
 * owner, prev/next, tail and prefix length as jet_index_page_head gives
 * them, n and used 0 (not counted). For a page the caller then changes
 * or decodes through a function that checks it (jet_index_leaf_insert,
 * jet_index_page_read). Errors: JET_ECORRUPT (not a leaf or node page),
 * JET_EUNSUPPORTED for Jet3.
 */
jet_rc jet_index_page_links(const uint8_t *page, const jet_format *fmt,
                            jet_index_page_hdr *h);

/**
 * jet_index_page_head and jet_index_page_find in one look at the page
 * (its entry mask indexed once): *h its header, *at the position of the
 * first entry not below e (h->n when every entry is below it), *found
 * that entry, or the last one when *at == h->n (nothing when the page
 * has no entries). Errors as the two.
 */
jet_rc jet_index_page_seek(const uint8_t *page, const jet_format *fmt,
                           const jet_index_entry *e, jet_index_page_hdr *h,
                           size_t *at, jet_index_entry *found);

/**
 * Binary-search index page page (whose header jet_index_page_read gave
 * in h) without decoding it: *at = the position of the first entry not
 * below e (h->n when every entry is below it), or with e NULL the last
 * entry; *found = that entry (pointers and child; key NULL) when
 * *at < h->n. Entries are not checked for order. Errors: JET_ECORRUPT
 * when the entry mask does not show h->n entries or an entry searched
 * has the size of none.
 */
jet_rc jet_index_page_find(const uint8_t *page, const jet_format *fmt,
                           const jet_index_page_hdr *h,
                           const jet_index_entry *e, size_t *at,
                           jet_index_entry *found);

/**
 * Insert entry e into Jet4/ACE leaf page page in place, when the result
 * is the page jet_index_page_build would write with e among its entries
 * and nothing else changes: e goes after the first entry, shares the
 * page's prefix, fits, is not already there, and (unique) no neighbour
 * on the page has its key bytes; e may become the last entry only when
 * last_ok (the caller knows no parent entry names this leaf's last entry
 * and, for unique, that no next page holds an equal key). *done says
 * whether it was inserted; when not, the page is unchanged and the caller
 * rebuilds it (or reports the duplicate). Errors: JET_ECORRUPT when the
 * entry mask is damaged (page unchanged).
 */
jet_rc jet_index_leaf_insert(uint8_t *page, const jet_format *fmt,
                             const jet_index_entry *e, bool unique,
                             bool last_ok, bool *done);

/**
 * Remove entry e (key, page and row equal) from leaf page page in place
 * when it is neither the first nor the last entry (so the prefix and the
 * parent's entry stay): *done says whether it was; when not (or e is not
 * there) the page is unchanged. Errors: JET_ECORRUPT (damaged mask).
 */
jet_rc jet_index_leaf_remove(uint8_t *page, const jet_format *fmt,
                             const jet_index_entry *e, bool *done);

/** Order of two index entries: key bytes (unsigned, a prefix first), then
 *  data page, then row; <0, 0, >0. Child pages are not compared. */
int jet_index_entry_cmp(const jet_index_entry *a, const jet_index_entry *b);

/* ----------------------------------------------------- table definitions */

/**
 * A table definition to encode (tdefenc.c): the TDEF's header facts, its
 * column descriptors in the order given (each column's col_num,
 * var_index, fixed_offset, length, flags, type, precision and scale, sort
 * order and name as jet_column has them), physical and logical index
 * blocks, and the long-value columns' usage maps. All names UTF-8.
 */
typedef struct jet_tdef_spec {
    bool ace;               /* ACE (Access 2007+): columns carry the
                               "updatable" flag 0x10 as Access writes it */
    uint8_t table_type;     /* 0x4E user table, 0x53 system table */
    uint32_t row_count;
    uint32_t auto_last;     /* last LONG AutoNumber handed out */
    uint32_t auto_inc;      /* the AutoNumber's increment (TDEF offset
                               24; 0 is written as 1, Access's value for
                               every table without COUNTER(seed, n)) */
    uint32_t complex_last;  /* last complex id handed out (ACE, offset
                               28) */
    uint16_t max_cols;      /* the row's column count (>= ncols) */
    uint16_t num_var_cols;
    uint16_t ncols;
    const jet_column *cols;
    uint32_t nreal;
    const jet_tdef_real_idx *reals;
    uint32_t nlogical;
    const jet_tdef_logical_idx *logical;
    uint32_t owned_ptr;     /* owned-pages usage map row (row | page << 8) */
    uint32_t free_ptr;      /* free-space usage map row */
    uint16_t nlval;
    const jet_lval_umap *lval;
} jet_tdef_spec;

/**
 * Encode spec as one TDEF buffer (the bytes tdef.c's reader assembles
 * from the first page and its continuation pages' bytes from offset 8):
 * header (type 0x02, length, the magic 1625, row count, last AutoNumber,
 * counts, usage map pointers), per physical index its row-count block,
 * the column descriptors, the column names (2-byte byte length, UTF-16LE),
 * the physical index blocks (magic 1923, 10 column slots, usage map,
 * root page, flags), the logical index blocks and names, the long-value
 * usage maps, 0xFFFF. Writes into out (cap bytes); *out_len = the length
 * (also when cap is short: JET_ELIMIT, nothing meaningful written).
 * Errors: JET_EUNSUPPORTED (Jet3), JET_ELIMIT (cap short: call with
 * out NULL to learn the length), JET_ECORRUPT (a name that is not UTF-8
 * or over 128 UTF-16 units, a logical index naming a physical one that
 * does not exist, more columns than max_cols). Limits of Access (names,
 * counts) are the caller's to check. Format: Jackcess
 * TableImpl.writeTableDefinition(Header), ColumnImpl.writeDefinition,
 * IndexData.writeDefinition, IndexImpl.writeDefinition,
 * ColumnImpl.writeColUsageMapDefinition; the inverse of tdef.c.
 */
jet_rc jet_tdef_encode(uint8_t *out, size_t cap, size_t *out_len,
                       const jet_format *fmt, const jet_tdef_spec *spec,
                       jet_error *err);

/** Pages a TDEF buffer of len bytes takes: the first page holds
 *  page_size bytes of it, each continuation page page_size - 8 more. */
size_t jet_tdef_page_count(const jet_format *fmt, size_t len);

/**
 * Page k (0-based) of the TDEF buffer buf (len bytes) into page
 * (fmt->page_size bytes): type 0x02, 0x01, free space at 2, next page
 * next_pgno (0 on the last) at 4, then the buffer's bytes (page 0 holds
 * the buffer's own header; later pages take page_size - 8 bytes from
 * offset 8). Format: Jackcess TableImpl.writeTableDefinitionBuffer.
 */
void jet_tdef_page_fill(uint8_t *page, const jet_format *fmt,
                        const uint8_t *buf, size_t len, size_t k,
                        uint32_t next_pgno);

/**
 * The spec of decoded table t (the reader's tdef): columns in col_num
 * order, its physical and logical index blocks and usage map pointers as
 * read; row count and AutoNumber as the reader saw them (the caller sets
 * the live ones). Points into t (valid while t lives). ace as the caller
 * says (the file's version).
 */
void jet_tdef_spec_of(jet_tdef_spec *out, const jet_tdef_priv *t, bool ace);

/** Column descriptor flag byte and extended flag byte for column flags
 *  (JET_COL_*), as Access writes them: the inverse of tdef.c's reading. */
uint8_t jet_col_disk_flags(uint16_t flags, bool ace);
uint8_t jet_col_disk_ext_flags(uint16_t flags);

/**
 * UTF-8 string s as UTF-16 code units into out (cap units); *n = the
 * units needed. Errors: JET_ECORRUPT for bytes that are not UTF-8,
 * JET_ELIMIT when cap is short.
 */
jet_rc jet_utf8_to_utf16(const char *s, uint16_t *out, size_t cap,
                         size_t *n);

#endif /* JET_ENCODE_H */
