/*
 * text.h - private helpers of core/text.c for other core modules.
 */
#ifndef JET_TEXT_H
#define JET_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/** The code page used for db's Jet3 text: db->code_page, or 1252 when the
 *  header says 0 (or db is NULL). */
uint16_t jet_text_code_page(const jet_db *db);

/**
 * jet_text_to_utf8 on raw bytes (e.g. a column or index name in a tdef):
 * converts len bytes of data in encoding enc into buf (cap bytes, no NUL);
 * *out_len receives the full UTF-8 length. Same errors.
 */
jet_rc jet_text_bytes_to_utf8(const jet_db *db, jet_text_enc enc,
                              const uint8_t *data, size_t len, char *buf,
                              size_t cap, size_t *out_len);

#endif /* JET_TEXT_H */
