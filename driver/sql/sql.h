/*
 * sql.h - the SQL subset: lexer and parser to a SELECT syntax tree.
 *
 * Knows no ODBC handles and no sql.h types. Identifiers may be bare,
 * [bracketed], "quoted" or `backticked`; all text is UTF-8. Every node of
 * one statement lives in that statement's arena and is freed at once by
 * sql_select_free().
 *
 * Today's subset: SELECT [ALL|DISTINCT] [TOP n] <items> FROM [cat.]<table>
 * [[AS] alias] where an item is *, t.*, or a column reference [[AS] alias].
 * WHERE is parsed (expression tree private to driver/sql for now); a
 * constant condition is applied by the parser itself (WHERE 1=0 gives
 * top = 0, WHERE 1=1 nothing), any other gets HYC00. ORDER BY etc. later.
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
} sql_error;

typedef enum sql_item_kind {
    SQL_ITEM_STAR = 1,      /* * or qualifier.* */
    SQL_ITEM_COLUMN = 2     /* [qualifier.]column [AS alias] */
} sql_item_kind;

/** One select-list entry. Strings are arena-owned, unquoted, UTF-8. */
typedef struct sql_select_item {
    sql_item_kind kind;
    const char *qualifier;  /* table name or alias before the dot, or NULL */
    const char *column;     /* SQL_ITEM_COLUMN only */
    const char *alias;      /* AS name, or NULL */
    size_t position;        /* 1-based position in the statement (errors) */
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
