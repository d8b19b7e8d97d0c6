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

/** A parse failure: SQLSTATE (42000 syntax, HYC00 unsupported feature),
 *  1-based character position in the statement, and an English message. */
typedef struct sql_error {
    char sqlstate[6];
    size_t position;
    char msg[256];
    int rc;                 /* jet_rc when the core failed (catalog, tdef,
                               scan), else 0; appended by helper "sql" */
} sql_error;

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
