/*
 * index.h - index key encoding and entry access inside the core (index.c).
 *
 * The driver only sees the cursor API in jet.h; these are for core modules
 * and unit tests that check key bytes against what Jet wrote.
 */
#ifndef JET_INDEX_H
#define JET_INDEX_H

#include "internal.h"

/** Longest encoded key we build: 10 columns of at most 300 bytes each. */
#define JET_INDEX_KEY_MAX 3072

/**
 * Append the index key bytes of one column value to buf[*pos..cap): the
 * null/present flag byte (0x00 null / 0x7F present ascending; inverted for
 * descending) and the type's order-preserving body. col_type is the index
 * column's type; v may be of another integer or floating type when the
 * value converts exactly (else JET_ELIMIT: no key of that column can equal
 * it). legacy_numeric selects the Jet3/Jet4 NUMERIC layout (ACE fixed it);
 * a NUMERIC value must carry the column's scale (keys hold the unscaled
 * magnitude).
 * Errors: JET_EUNSUPPORTED for TEXT/MEMO (General sort order is not
 * encoded) and OLE/unknown types, JET_ELIMIT when cap is too small.
 * Format: Jackcess IndexData ColumnDescriptor classes, IndexCodes.
 */
jet_rc jet_index_encode_value(uint8_t *buf, size_t cap, size_t *pos,
                              jet_type col_type, bool ascending,
                              bool legacy_numeric, const jet_value *v);

/**
 * Append the index key of calculated column value v (of the column's
 * result_type) at buf + *pos, as Jet keys a calculated column: the value
 * in its stored wrapper (20 zero bytes whose last 4 hold the data length,
 * the data, 3 zero bytes), all big-endian, then the twiddling of the
 * result type's rule applied to the wrapper's bytes (integers, Currency,
 * floating point and dates flip the first byte's top bit; Decimal sets it
 * to 0xFF; Byte leaves it; descending inverts every byte). A Yes/No
 * result is keyed by its value (jet_index_encode_value). Such keys do not
 * sort by value, so nothing seeks on them (jet_index_seekable_cols).
 * Errors: JET_EUNSUPPORTED for text (keyed by jet_collate_key), GUID,
 * binary or a value not of result_type; JET_ELIMIT when cap is short.
 * Format: Jackcess IndexData.encodeNumberColumnValue (column.write of
 * CalculatedColumnUtil's wrapped value) and its ColumnDescriptor classes.
 */
jet_rc jet_index_encode_calc_value(uint8_t *buf, size_t cap, size_t *pos,
                                   jet_type result_type, bool ascending,
                                   const jet_value *v);

/**
 * The first 256 UTF-16 units of TEXT/MEMO value k into units[] (*n of
 * them): what a text index key reads (Jet cuts keys at 255 units). Errors:
 * those of jet_text_to_utf16.
 */
jet_rc jet_index_text_units(const jet_db *db, const jet_value *k,
                            uint16_t units[256], size_t *n);

/**
 * The key bytes (without page/row pointer) of the entry most recently
 * returned by jet_index_next(); borrowed from the cursor until its next
 * call. NULL and 0 when there is none.
 */
const uint8_t *jet_index_entry_key(const jet_index_cursor *c, size_t *len);

/**
 * Bound the walk of c to the entries whose key bytes start with key (len
 * bytes, as jet_index_row_key builds them; len 0: no bounds), forward.
 * A whole key also bounds longer keys it is a prefix of: compare
 * jet_index_entry_key() for an exact match. Restarts the walk. Errors:
 * JET_ELIMIT (len past JET_INDEX_KEY_MAX; the walk is then unbounded).
 */
jet_rc jet_index_seek_bytes(jet_index_cursor *c, const uint8_t *key,
                            size_t len);

#endif /* JET_INDEX_H */
