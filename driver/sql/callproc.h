/*
 * callproc.h - ODBC procedure calls of saved queries:
 * {call name(?, ...)}, {?= call name}, CALL name(...), EXEC[UTE] name
 * [(...)]. An append, update or delete query runs as its INSERT, UPDATE
 * or DELETE (savedquery.c sql_saved_action_text_args).
 *
 * A saved query with PARAMETERS runs as a procedure: the call's
 * arguments are its declared parameters in order; a '?' argument is an
 * application parameter, any other argument SQL text (a literal). The
 * call becomes the query's SELECT text with each parameter reference a ?
 * marker of the engine (a parameter used twice gives two markers, both
 * reading the same application parameter). Knows no ODBC handles.
 */
#ifndef JET_DRIVER_SQL_CALLPROC_H
#define JET_DRIVER_SQL_CALLPROC_H

#include <stddef.h>

#include "jet.h"
#include "sql.h"

/** A call rewritten for the engine; free with sql_call_free(). */
typedef struct sql_call {
    char *sql;          /* the SELECT (or INSERT, UPDATE, DELETE) text to
                           prepare (malloc'd) */
    size_t nmarks;      /* ? markers in sql */
    size_t *map;        /* marker k reads application parameter map[k]
                           (0-based); malloc'd, NULL when no markers */
    size_t nargs;       /* application parameters (the call's '?' args) */
    char *name;         /* the saved query called (malloc'd) */
} sql_call;

/**
 * When text (UTF-8, len bytes) is a procedure call, fill *out and return
 * 1; return 0 when it is not a call (*out zeroed); -1 with err when it is
 * a call that cannot run: 42S02 no such saved query, 07002 fewer
 * arguments than declared parameters or more than it has, HYC00
 * make-table, DDL and pass-through queries and an action query of an
 * Access 97 file, 42000 a malformed call, HY001; the
 * errors of sql_saved_exec_text_args().
 */
int sql_call_parse(sql_call *out, jet_db *db, const char *text, size_t len,
                   sql_error *err);

/** Free what sql_call_parse() filled; safe on a zeroed struct. */
void sql_call_free(sql_call *c);

#endif
