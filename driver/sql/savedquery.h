/*
 * savedquery.h - the SQL text of a saved query, rebuilt from its
 * MSysQueries rows (core/query.c gives the rows).
 *
 * Two forms: the text Access shows in SQL view (PARAMETERS clause, ';',
 * names bracketed only when they need it), and the text the engine runs
 * (no PARAMETERS, every name bracketed, each reference to a declared
 * parameter replaced by a ? marker, form references refused). Knows no
 * ODBC handles. Strings returned are malloc'd; the caller frees them.
 */
#ifndef JET_DRIVER_SQL_SAVEDQUERY_H
#define JET_DRIVER_SQL_SAVEDQUERY_H

#include <stddef.h>
#include <stdint.h>

#include "jet.h"
#include "sql.h"

/** What a saved query is (MSysQueries Type row, else MSysObjects Flags). */
typedef enum sql_saved_kind {
    SQL_SAVED_SELECT = 1,
    SQL_SAVED_MAKE_TABLE = 2,
    SQL_SAVED_APPEND = 3,
    SQL_SAVED_UPDATE = 4,
    SQL_SAVED_DELETE = 5,
    SQL_SAVED_CROSSTAB = 6,
    SQL_SAVED_DDL = 7,
    SQL_SAVED_PASSTHROUGH = 8,
    SQL_SAVED_UNION = 9
} sql_saved_kind;

/** The kind of q: the Flag of its Type row, else from the object flags
 *  (Jackcess QueryFormat: 0 select, 16 crosstab, 128 union, ...). */
sql_saved_kind sql_saved_kind_of(const jet_query *q);

/** One declared parameter (PARAMETERS row), in declaration order. */
typedef struct sql_saved_param {
    const char *name;       /* as declared, e.g. "Beginning Date" (db-owned) */
    jet_type type;          /* declared type; 0 ("Value") when untyped */
    int32_t size;           /* Text(n): n, else 0 */
} sql_saved_param;

/** Number of declared parameters of q; when out is not NULL, fill
 *  out[0..n) (the caller sizes it by a first call with out NULL). */
size_t sql_saved_params(const jet_query *q, sql_saved_param *out);

/**
 * The SQL of q as Access shows it (lines separated by "\n", ending in
 * ';' for the kinds with standard clauses). *out is malloc'd.
 * Returns 0, or -1 with err: HY000 for rows that contradict each other
 * (inconsistent joins, an unknown join type), HY001 out of memory.
 */
int sql_saved_text(char **out, const jet_query *q, sql_error *err);

/**
 * The SELECT (or union) text the engine runs for q: names bracketed, no
 * PARAMETERS or trailing ';', each reference to a declared parameter
 * replaced by '?'. *map (malloc'd, *nmarks entries, NULL when none) gives
 * for each marker, in text order, the index of its declared parameter.
 * Errors (-1, err set, err->position 0): 07002 naming an undeclared form
 * or report reference ([Forms]![f]![c]: Access would ask for its value);
 * HYC00 for kinds that are not a SELECT or UNION (crosstab, action, DDL,
 * pass-through) and for a FROM ... IN other database; HY000/HY001 as
 * sql_saved_text().
 */
int sql_saved_exec_text(char **out, size_t **map, size_t *nmarks,
                        const jet_query *q, sql_error *err);

/**
 * The same with values for some declared parameters: args has one entry
 * per declared parameter (sql_saved_params order); a non-NULL entry is
 * SQL text (a literal) written, parenthesised, in place of each reference
 * to that parameter; NULL entries become ? markers as above. args NULL:
 * all markers.
 */
int sql_saved_exec_text_args(char **out, size_t **map, size_t *nmarks,
                             const jet_query *q, const char *const *args,
                             sql_error *err);

/**
 * Crosstab parts for the engine (kind SQL_SAVED_CROSSTAB): *select_sql
 * is "SELECT <row headings>, <pivot expr> AS [pivot], <transform expr>
 * AS [value] FROM .. WHERE .. GROUP BY <row headings>, <pivot expr>"
 * (exec form, bracketed); *fixed the PIVOT ... IN (...) value list text
 * (malloc'd, NULL when absent); *nrow the number of row-heading columns.
 * Errors as sql_saved_exec_text().
 */
int sql_saved_crosstab_text(char **select_sql, char **fixed, size_t *nrow,
                            const jet_query *q, sql_error *err);

#endif
