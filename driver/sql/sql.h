/*
 * sql.h - Access SQL: the parse error and select-list types the engine
 * shares with the parser.
 *
 * Knows no ODBC handles and no sql.h types. Identifiers may be bare,
 * [bracketed], "quoted" or `backticked`; all text is UTF-8. Every node of
 * one statement lives in that statement's arena and is freed at once by
 * sql_select_free().
 *
 * The parser's entry is sql_parse_query() (sql_internal.h); the engine
 * (engine.h) runs what it returns.
 */
#ifndef JET_DRIVER_SQL_H
#define JET_DRIVER_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jet.h"

/**
 * Why an engine call failed; one of two kinds:
 *  - an SQL error the engine raises itself (syntax 42000, names 42S02/
 *    42S22, types 22018, data exceptions 22xxx, MaxMemory HY001, ...):
 *    sqlstate says which, msg is the whole message;
 *  - a failure of the core, out of memory included: sqlstate is "", rc the
 *    jet_rc (JET_ENOMEM exactly when memory ran out, the engine's own
 *    allocations too), msg and pgno the core's detail. The engine maps no
 *    jet_rc to an SQLSTATE: the driver does, once (driver/diag.c).
 * position: 1-based character in the statement, 0 when none.
 */
typedef struct sql_error {
    char sqlstate[6];
    size_t position;
    char msg[256];
    int rc;                 /* a core failure's jet_rc (< 0); with an SQL
                               error 0 or the code the call returned
                               (JET_EUNSUPPORTED, JET_ELIMIT) */
    uint32_t pgno;          /* the page a core failure names, or
                               UINT32_MAX */
} sql_error;

/** Record that memory ran out: rc JET_ENOMEM, sqlstate "" (the driver
 *  maps it), message "out of memory", at position (0: none). */
static inline void sql_set_nomem(sql_error *err, size_t position)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->rc = JET_ENOMEM;
    err->pgno = UINT32_MAX;
    err->position = position;
    memcpy(err->msg, "out of memory", sizeof "out of memory");
}

/** What an engine call that failed with err returns: err->rc when the
 *  core failed (JET_ENOMEM exactly when memory ran out), else
 *  JET_EUNSUPPORTED (an SQL error: err->sqlstate says which). */
static inline int sql_error_code(const sql_error *err)
{
    return err->rc < 0 && !err->sqlstate[0] ? err->rc : JET_EUNSUPPORTED;
}

/** What a statement does. The engine prepares and runs each kind through
 *  that kind's executor (statement.c), so a new kind of statement adds an
 *  executor, not a branch in every caller. */
typedef enum sql_stmt_kind {
    SQL_KIND_QUERY = 1,     /* SELECT, UNION, EXPLAIN: gives a result set */
    SQL_KIND_DML = 2,       /* INSERT, UPDATE, DELETE: changes rows */
    SQL_KIND_DDL = 3        /* CREATE, DROP, ALTER: changes the schema */
} sql_stmt_kind;

typedef enum sql_item_kind {
    SQL_ITEM_STAR = 1,      /* * or qualifier.* */
    SQL_ITEM_COLUMN = 2,    /* [qualifier.]column [AS alias] */
    SQL_ITEM_EXPR = 3       /* any other expression */
} sql_item_kind;

/** One select-list entry. Strings are arena-owned, unquoted, UTF-8. */
typedef struct sql_select_item {
    sql_item_kind kind;
    const char *qualifier;  /* table name or alias before the dot, or NULL */
    const char *column;     /* SQL_ITEM_COLUMN only */
    const char *alias;      /* AS name, or NULL */
    size_t position;        /* 1-based position in the statement (errors) */
    struct sql_expr *expr;  /* the item as an expression (COLUMN and EXPR
                               kinds) */
} sql_select_item;

/** The select list and quantifiers of one query block (sql_query.sel). */
typedef struct sql_select {
    bool distinct;
    int64_t top;            /* TOP n, or -1 when absent */
    size_t nitems;
    sql_select_item *items;
    size_t nparams;         /* number of ? markers seen (whole statement) */
} sql_select;

/** Free a whole parsed statement through its first block's sel (from
 *  sql_parse_query(): &q->sel); safe on NULL. */
void sql_select_free(sql_select *sel);

#endif
