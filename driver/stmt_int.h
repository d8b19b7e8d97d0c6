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

#define DIAG(s) (&(s)->hdr.diag)

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
/* stmt.c: the diagnostic of a failed engine cursor call. */
SQLRETURN exec_diag(odbc_stmt *s, jet_rc rc);
/* stmt.c: whether execute opens a static cursor. */
bool wants_static(const odbc_stmt *s);
/* stmt_fetch.c: read the result into the static cursor's store. */
SQLRETURN start_static(odbc_stmt *s);

#endif
