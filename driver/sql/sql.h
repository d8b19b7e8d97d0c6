/*
 * sql.h - the SQL subset: lexer and parser to a SELECT syntax tree.
 *
 * Knows no ODBC handles and no sql.h types. Identifiers may be bare,
 * [bracketed], "quoted" or `backticked`; all text is UTF-8. Every node of
 * one statement lives in that statement's arena and is freed at once by
 * sql_select_free().
 *
 * sql_parse() is the original, narrow entry: SELECT [ALL|DISTINCT] [TOP n]
 * <items> FROM [cat.]<table> [[AS] alias], an item being *, t.*, or a
 * column reference [[AS] alias]; a constant WHERE is folded (WHERE 1=0
 * gives top = 0), anything else gets HYC00. The driver now runs every
 * statement through the query engine (engine.h), whose parser entry
 * sql_parse_query() (sql_internal.h) takes the full grammar.
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
    SQL_ITEM_EXPR = 3       /* any other expression (sql_parse_query
                               only; sql_parse never returns it) */
} sql_item_kind;

/** One select-list entry. Strings are arena-owned, unquoted, UTF-8. */
typedef struct sql_select_item {
    sql_item_kind kind;
    const char *qualifier;  /* table name or alias before the dot, or NULL */
    const char *column;     /* SQL_ITEM_COLUMN only */
    const char *alias;      /* AS name, or NULL */
    size_t position;        /* 1-based position in the statement (errors) */
    struct sql_expr *expr;  /* sql_parse_query only: the item as an
                               expression (COLUMN and EXPR kinds) */
} sql_select_item;

/** A parsed SELECT. */
typedef struct sql_select {
    bool distinct;
    int64_t top;            /* TOP n, or -1 when absent */
    size_t nitems;
    sql_select_item *items;
    const char *table;      /* FROM table, unquoted */
    size_t table_position;  /* 1-based, for 42S02 messages */
    const char *table_alias;/* or NULL */
    size_t nparams;         /* number of ? markers seen */
    /* appended by driver-support: */
    const char *table_catalog; /* catalog part of FROM `cat`.table, or NULL;
                                  unquoted (the driver checks it names the
                                  open database, e.g. its path) */
} sql_select;

/**
 * Parse one statement (UTF-8, len bytes) into *out. On failure returns -1,
 * *out is NULL and err says why and where; 0 on success. Allocation failure
 * is reported as SQLSTATE HY001.
 */
int sql_parse(sql_select **out, const char *text, size_t len, sql_error *err);

/** Free a tree from sql_parse(); safe on NULL. */
void sql_select_free(sql_select *sel);

#endif
