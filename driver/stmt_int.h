/*
 * stmt_int.h - what the statement handle's files share: stmt.c (handles,
 * prepare, parameters, execute), stmt_fetch.c (fetch, static cursors,
 * SQLGetData) and stmt_attr.c (attributes, column information).
 *
 * Only those files include it; the functions are theirs, not the rest of
 * the driver's (odbc_internal.h declares those).
 */
#ifndef JET_DRIVER_STMT_INT_H
#define JET_DRIVER_STMT_INT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "odbc_internal.h"
#include "convert.h"
#include "fetchfast.h"

#define DIAG(s) (&(s)->hdr.diag)

/* The fetch fast path's plan (see fast_plan in stmt_fetch.c). */
typedef struct fast_col {
    jet_scan *scan;             /* direct source, or NULL */
    const jet_value *row;       /* else the cursor's stored row
                                   (sql_cursor_stored_row), or NULL:
                                   cur_value */
    uint16_t tcol;              /* scan: table column; row: its index */
    jet_type type;              /* direct: type of the values; row: the
                                   type put is for (others: odbc_convert) */
    odbc_binding b;             /* the binding the entries below are for */
    SQLSMALLINT ct;             /* resolved C type, 0 = unbound */
    SQLULEN elem;               /* column-wise element size */
    odbc_put_fn put;
    SQLSMALLINT gd_ct;          /* SQLGetData: C type of gd_put, 0 = none */
    SQLSMALLINT gd_req;         /* SQLGetData's TargetType that resolved to
                                   gd_ct (checked valid, not SQL_ARD_TYPE),
                                   0 = none: odbc_stmt_get_data's fast path */
    odbc_put_fn gd_put;
    odbc_cell_fn gd_cell;       /* SQLGetData straight from the row: for
                                   gd_ct when loc allows, else NULL */
    jet_cell_loc loc;           /* scan: where tcol's bytes sit in a row */
    const jet_row *rowv;        /* scan: its current row (jet_scan_row) */
} fast_col;

struct odbc_fastplan {
    const struct sql_cursor *cur;   /* cursor the plan is for; NULL = none */
    SQLULEN row_bind_type;
    uint16_t ncols, nbinds, cap;
    uint32_t binds_gen;     /* s->binds_gen the entries were checked at */
    odbc_binding *snap;     /* byte copy of s->binds[0..min(nbinds, ncols))
                               the entries were made for (one memcmp) */
    fast_col col[];
};

/* Forget a SQLCancel that arrived before this call: only one that
 * arrives during it counts. A plain load and, rarely, a relaxed store: a
 * default (sequentially consistent) store is a locked instruction on
 * x86, as dear as a mutex, and fetch calls this once per row. */
static inline void clear_cancel(odbc_stmt *s)
{
    if (atomic_load_explicit(&s->cancel, memory_order_relaxed))
        atomic_store_explicit(&s->cancel, 0, memory_order_relaxed);
}

/* stmt.c: arm SQL_ATTR_QUERY_TIMEOUT for one execute or fetch call. */
void start_deadline(odbc_stmt *s);
/* stmt.c: the engine's interrupt check (SQLCancel or the deadline). */
int stmt_interrupted(void *ctx);
/* stmt.c: HYT00 when the query timeout expired, else HY008. */
SQLRETURN interrupt_diag(odbc_stmt *s);
/* stmt.c: close s's cursor and forget its rows and positions. */
void close_cursor(odbc_stmt *s);
/** End the statement's read transaction, if it holds one (stmt.c). */
void odbc_stmt_read_end(odbc_stmt *s);
/* stmt.c: the diagnostic of a failed engine cursor call. */
SQLRETURN exec_diag(odbc_stmt *s, jet_rc rc);
/* stmt.c: whether execute opens a static cursor. */
bool wants_static(const odbc_stmt *s);
/* stmt_fetch.c: read the result into the static cursor's store. */
SQLRETURN start_static(odbc_stmt *s);
/* stmt_fetch.c, for setpos.c: the static cursor's rows up to k read
 * into its store (-1: failed, diagnostic raised); whether store row k
 * was deleted by this cursor; whether rowset row r is a hole; the
 * rowset's rows read again from the table (rs_vals, rs_hole; the bound
 * buffers untouched); bookmark bm into rowset row r's bound column 0
 * (0, 1 info, 2 error); the C type bound column i converts with (0:
 * unbound). */
int64_t odbc_static_upto(odbc_stmt *s, uint64_t k);
bool odbc_static_deleted(const odbc_stmt *s, uint64_t k);
bool odbc_static_hole(const odbc_stmt *s, SQLULEN r);
SQLRETURN odbc_static_rekeep(odbc_stmt *s);
int odbc_static_bind_bookmark(odbc_stmt *s, SQLULEN r, uint64_t bm);
SQLSMALLINT odbc_stmt_col_ctype(const odbc_stmt *s, uint16_t i);

#endif
