/*
 * pagebuild.h - build Jet pages and rows in memory for core unit tests.
 *
 * Each helper writes one format rule's worth of bytes so a test states the
 * rule it checks in a few lines: a data page with a row offset table, a
 * Jet3 or Jet4 row with null mask and var offsets, and a scratch file of
 * pages that a jet_pagefile can open.
 */
#ifndef JET_TESTS_PAGEBUILD_H
#define JET_TESTS_PAGEBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

void pb_put16(uint8_t *p, uint16_t v);
void pb_put24(uint8_t *p, uint32_t v);
void pb_put32(uint8_t *p, uint32_t v);

/** Start a data page (type 0x01) owned by tdef_pgno with no rows. */
void pb_data_page(uint8_t *page, const jet_format *fmt, uint32_t tdef_pgno);

/**
 * Append a row (bytes, len) to a data page, packed downwards from the
 * previous row (or the page end); flags (0x8000/0x4000) OR-ed into its
 * offset entry. Returns the row number.
 */
uint16_t pb_add_row(uint8_t *page, const jet_format *fmt, const void *row,
                    size_t len, uint16_t flags);

/** One column's value for pb_row(): fixed or var, NULL or bytes. */
typedef struct pb_val {
    bool is_null;
    const void *data;
    size_t len;
} pb_val;

/**
 * Build a row: ncols columns whose null-mask bit comes from nulls[i]
 * (true = NULL), fixed area bytes (fixed_len), var values (nvar of them).
 * Jet3 rows get 1-byte offsets and a jump table; Jet4 rows 2-byte offsets.
 * Returns the row length written to out (cap bytes).
 */
size_t pb_row(uint8_t *out, size_t cap, const jet_format *fmt, uint16_t ncols,
              const bool *nulls, const uint8_t *fixed, size_t fixed_len,
              const pb_val *vars, size_t nvar);

/** Write npages pages of page_size bytes to a new temp file; its path is
 *  written to path (cap bytes). Returns 0 on success. */
int pb_write_file(char *path, size_t cap, const uint8_t *pages,
                  size_t npages, uint32_t page_size);

/**
 * Make a minimal jet_db over a page file (no catalog): fmt/page_size for
 * version v. Returns NULL on failure; free with pb_db_free().
 */
jet_db *pb_db_open(const char *path, jet_version v);
void pb_db_free(jet_db *db);

#endif
