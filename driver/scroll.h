/*
 * scroll.h - what a static (scrollable) cursor keeps of its result: the
 * row store, and ODBC's rules for where SQLFetchScroll moves a rowset.
 *
 * A static cursor reads its query's rows once, in order, as the fetches
 * reach them, and keeps each row so that any earlier one can be fetched
 * again. Rows are encoded values (jet_value without pointers, then the
 * bytes of text and binary spans); a few MiB of them stay in memory, the
 * rest goes to the connection's temporary spill file (driver/sql/spill.h),
 * read back one block at a time: a static cursor over a large result holds
 * only its row index (8 bytes a row) and two blocks.
 */
#ifndef JET_DRIVER_SCROLL_H
#define JET_DRIVER_SCROLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

typedef struct odbc_rowstore odbc_rowstore;

/** Bytes of encoded rows a store keeps in memory before it writes them
 *  to its temporary file (unless MaxMemory is smaller). */
#define ODBC_ROWSTORE_MEM ((size_t)4 << 20)

/**
 * A new, empty store for rows of ncols values. mem_cap: bytes of rows kept
 * in memory (0: ODBC_ROWSTORE_MEM); past it they go to a temporary file,
 * created at the first need. Returns JET_OK or JET_ENOMEM.
 */
jet_rc odbc_rowstore_open(odbc_rowstore **out, uint16_t ncols,
                          size_t mem_cap);

/** Free the store and its file. Safe on NULL. */
void odbc_rowstore_free(odbc_rowstore *st);

/** Rows appended so far. */
uint64_t odbc_rowstore_rows(const odbc_rowstore *st);

/**
 * Append a row: ncols values, copied (their spans too). Invalidates the
 * spans of values odbc_rowstore_get gave. JET_OK, JET_ENOMEM, or JET_EIO
 * (the temporary file could not be created or written: *err_no the errno).
 */
jet_rc odbc_rowstore_append(odbc_rowstore *st, const jet_value *vals,
                            int *err_no);

/**
 * Row k (0-based, < odbc_rowstore_rows) into vals (ncols entries); spans
 * point into the store, valid until the next get or append. JET_OK,
 * JET_ENOMEM, JET_EIO (read error, *err_no), JET_ECORRUPT (the temporary
 * file's bytes are not a row).
 */
jet_rc odbc_rowstore_get(odbc_rowstore *st, uint64_t k, jet_value *vals,
                         int *err_no);

/** A rowset position: 0 = before the first row, ODBC_POS_AFTER = after
 *  the last, else the 1-based number of the rowset's first row. */
#define ODBC_POS_AFTER UINT64_MAX

/**
 * How many result rows exist up to k: min(k, rows of the result), reading
 * more of the result as needed. Returns -1 on error (recorded by the
 * callee). ctx is the caller's.
 */
typedef int64_t (*odbc_rows_upto_fn)(void *ctx, uint64_t k);

/** SQLFetchScroll's orientation, resolved. */
typedef struct odbc_scroll_req {
    int orientation;        /* SQL_FETCH_NEXT, ... SQL_FETCH_BOOKMARK */
    int64_t offset;         /* FetchOffset */
    uint64_t bookmark_row;  /* SQL_FETCH_BOOKMARK: the bookmark's row */
    uint64_t cur;           /* current rowset position */
    uint64_t n;             /* the new rowset size */
    uint64_t prev_n;        /* the size of the current rowset's fetch */
} odbc_scroll_req;

/**
 * The position of the new rowset by the rules of SQLFetchScroll
 * ("Cursor positioning rules"): *out gets 0 (before start), ODBC_POS_AFTER
 * or the first row's number, *warn_01s06 whether the move asked for rows
 * before the first and got the first rowset instead. upto tells the
 * result's size as far as needed. Returns 0, or -1 when upto failed.
 */
int odbc_scroll_target(uint64_t *out, bool *warn_01s06,
                       const odbc_scroll_req *rq, odbc_rows_upto_fn upto,
                       void *ctx);

#endif
