/*
 * sort.h - records and their order (op_sort.c, sortkey.c): the stored
 * row of a sort, DISTINCT, grouping or UNION, its binary sort key, and
 * what exec.c and the operators ask of the sort.
 */
#ifndef JET_DRIVER_SQL_SORT_H
#define JET_DRIVER_SQL_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "values.h"

/**
 * A stored row of a sort, DISTINCT, grouping or UNION (op_sort.c): one
 * contiguous byte string, the same in memory and in the sorted runs of
 * the temporary file, 8-byte aligned with len a multiple of 8:
 *   this header;
 *   the binary ORDER BY key (sortkey.c), bklen bytes, zero-padded to 8;
 *   the output row packed (op_sort.c pack_put: per column its type, NULL
 *   flag and the payload its type needs), rowlen bytes, padded to 8;
 *   nsv sort keys as values (sql_spill_put_sv), only when the order or
 *   DISTINCT compares values (sql_cursor.store_sv).
 * The values are rebuilt as jet_values (into sql_cursor.vcur) only when
 * the row is fetched.
 */
typedef struct rec {
    uint32_t len;           /* bytes of the whole record */
    uint32_t rowlen;        /* bytes of the packed row */
    uint64_t seq;           /* tie order: reading (or group) order */
    uint32_t bklen;         /* bytes of the binary key, 0 none */
    uint32_t nsv;           /* sort keys stored as values: 0 or nkeys */
} rec;

/** A growing byte buffer for one row's binary sort key (sortkey.c). */
typedef struct sql_sortkey_buf {
    uint8_t *p;
    size_t len, cap;
} sql_sortkey_buf;

/**
 * sortkey.c: append v's segment of a binary sort key to b (memcmp order
 * of whole keys = sql_key_cmp order per column, DESC inverted). *cls is
 * the column's encoding class, 0 until its first non-NULL value. Returns
 * 0, 1 when v cannot be encoded in the column's class (compare values
 * instead), -1 out of memory.
 */
int sql_sortkey_append(sql_sortkey_buf *b, uint8_t *cls, jet_collation co,
                       const sv *v, bool desc);

/** Largest TOP n kept by a top-N sort (sql_stmt.topn); a bigger n sorts
 *  every record (and spills past the budget) as before. */
#define SQL_TOPN_MAX 8192
/** op_sort.c: write the records held as a sorted run when they take more
 *  than a quarter of the budget (before a spilled grouping aggregates
 *  its next partition). 0 or -1. */
int sql_sort_make_room(sql_cursor *c);
/** op_sort.c: copy the current output row and sort keys into a record. */
int sql_add_record(sql_cursor *c);

/* ------------------------------------- between exec.c and op_sort.c */

/* Value of output column i for the current row (or group). */
int sql_live_value(sql_cursor *c, size_t i, jet_value *out);
/* The output values of record r into c->vcur (c->cur = r). 0 or -1. */
int sql_rec_values(sql_cursor *c, const rec *r);
/* Input done with runs on disk: the rest as a run, then merge. */
int sql_sort_start_merge(sql_cursor *c);
/* Next merged row into c->cur: JET_OK, JET_DONE or -1. */
int sql_sort_next_merge(sql_cursor *c);
void sql_sort_spill_free(sql_cursor *c);
/* Row count of TOP n PERCENT of total, rounded up. */
size_t sql_top_rows(const sql_stmt *st, size_t total);
/* Records collected: DISTINCT, ORDER BY, then the window (OFFSET, TOP
 * with ties, LIMIT, max_rows). */
int sql_sort_finish(sql_cursor *c);

#endif
