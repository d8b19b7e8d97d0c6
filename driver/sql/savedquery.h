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

/** One parameter: declared (PARAMETERS row, in declaration order), or
 *  implicit (an undeclared form or report reference such as
 *  [Forms]![Orders]![OrderID], which Access asks for as a parameter). */
typedef struct sql_saved_param {
    const char *name;       /* as declared, e.g. "Beginning Date" (db-owned);
                               implicit: the reference as written (malloc'd,
                               owned by the sql_saved_param_list array) */
    jet_type type;          /* declared type; 0 ("Value") when untyped or
                               implicit */
    int32_t size;           /* Text(n): n, else 0 */
    bool implicit;          /* a form/report reference, not declared */
} sql_saved_param;

/** Number of declared parameters of q; when out is not NULL, fill
 *  out[0..n) (the caller sizes it by a first call with out NULL). */
size_t sql_saved_params(const jet_query *q, sql_saved_param *out);

/**
 * Every parameter of q: the declared ones (sql_saved_params order), then
 * each distinct undeclared [Forms]!/[Reports]! reference in the order
 * its SQL text (sql_saved_text) first names it. A query with any is a
 * parameter query: Access prompts for each. *out is malloc'd (*n
 * entries; free with sql_saved_free_params). Returns 0, or -1 with err
 * as sql_saved_text().
 */
int sql_saved_param_list(sql_saved_param **out, size_t *n,
                         const jet_query *q, sql_error *err);

/** Free an array from sql_saved_param_list(); safe on NULL. */
void sql_saved_free_params(sql_saved_param *p, size_t n);

/**
 * The SQL of q as Access shows it (lines separated by "\n", ending in
 * ';' for the kinds with standard clauses). *out is malloc'd.
 * Returns 0, or -1 with err: HY000 for rows that contradict each other
 * (inconsistent joins, an unknown join type), HY001 out of memory.
 */
int sql_saved_text(char **out, const jet_query *q, sql_error *err);

/**
 * The SELECT (or union) text the engine runs for q: names bracketed, no
 * PARAMETERS or trailing ';', each reference to a parameter (declared, or
 * an implicit form or report reference) replaced by '?'. *map (malloc'd,
 * *nmarks entries, NULL when none) gives for each marker, in text order,
 * the index of its parameter in sql_saved_param_list order. Errors (-1,
 * err set, err->position 0): HYC00 for kinds that are not a SELECT or
 * UNION (crosstab, action, DDL, pass-through) and for a FROM ... IN other
 * database; HY000/HY001 as sql_saved_text().
 */
int sql_saved_exec_text(char **out, size_t **map, size_t *nmarks,
                        const jet_query *q, sql_error *err);

/**
 * The same with values for some parameters: args has one entry per
 * parameter (sql_saved_param_list order); a non-NULL entry is
 * SQL text (a literal) written, parenthesised, in place of each reference
 * to that parameter; NULL entries become ? markers as above. args NULL:
 * all markers.
 */
int sql_saved_exec_text_args(char **out, size_t **map, size_t *nmarks,
                             const jet_query *q, const char *const *args,
                             sql_error *err);

/**
 * The INSERT, UPDATE or DELETE statement an append, update or delete
 * query (SQL_SAVED_APPEND/UPDATE/DELETE) runs, parameters bound as
 * sql_saved_exec_text_args() binds them (args likewise). Errors (-1, err
 * set): HYC00 other kinds and a target in another database, HY000 rows
 * that name no target, HY001.
 */
int sql_saved_action_text_args(char **out, size_t **map, size_t *nmarks,
                               const jet_query *q, const char *const *args,
                               sql_error *err);

/**
 * Crosstab, step 1 (kind SQL_SAVED_CROSSTAB): where its columns come
 * from. With a fixed list (PIVOT x In (v1, ...)) *fixed gets the items as
 * SQL text (malloc'd array of malloc'd strings, *nfixed of them; free
 * with sql_saved_free_list) and *values_sql NULL; otherwise *values_sql
 * is "SELECT DISTINCT <pivot> AS [Pivot Value] FROM .. WHERE .. ORDER BY
 * 1" (exec form) for the caller to run. Errors as sql_saved_exec_text();
 * 07002 for parameters.
 */
int sql_saved_crosstab_pivots(char **values_sql, char ***fixed,
                              size_t *nfixed, const jet_query *q,
                              sql_error *err);

/**
 * Crosstab, step 2: the SELECT of the row headings and one column per
 * pivot value i, labelled names[i], holding the TRANSFORM aggregate over
 * the rows whose pivot equals lits[i] (SQL literal text; NULL: the rows
 * whose pivot is Null): Agg(IIf(pivot = lit, arg, Null)), grouped by the
 * row headings and ordered by them. Only Sum, Count, Avg, Min, Max,
 * StDev(P), Var(P) of an expression are rewritten so (HYC00 otherwise:
 * First/Last would see the other columns' Nulls).
 */
int sql_saved_crosstab_select(char **out, const jet_query *q,
                              const char *const *lits,
                              const char *const *names, size_t n,
                              sql_error *err);

/**
 * The crosstab's pivot columns as select-list text (*out malloc'd, "" for
 * n = 0): for each i, Agg(IIf((pivot) = lits[i], arg, Null)) AS
 * [names[i]] (Is Null for a NULL lits[i]), where value is the TRANSFORM
 * aggregate Agg(arg) and pivot[0..plen) the PIVOT expression. HYC00 for
 * an aggregate other than Sum, Count, Avg, Min, Max, StDev(P), Var(P) of
 * an expression; HY001.
 */
int sql_crosstab_columns(char **out, const char *value, const char *pivot,
                         size_t plen, const char *const *lits,
                         const char *const *names, size_t n,
                         sql_error *err);

/**
 * A pivot value as SQL literal text (*lit) and as a column label (*name),
 * both malloc'd; a NULL value gives NULL for both ("<>" is the label
 * Access uses). Returns 0, or -1 (out of memory, a type with no literal).
 */
int sql_saved_pivot_value(char **lit, char **name, const jet_db *db,
                          const jet_value *v);

/** A fixed-list item's label: a quoted string without its quotes, other
 *  text as is; malloc'd (NULL when out of memory). */
char *sql_saved_unquote(const char *lit);

/** Free a list from sql_saved_crosstab_pivots(); safe on NULL. */
void sql_saved_free_list(char **list, size_t n);

#endif
