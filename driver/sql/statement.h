/*
 * statement.h - the statement root (statement.c): each statement kind's
 * executor. Above the planner and the cursor: a query's executor plans
 * it (plan.c) and opens a cursor on it (exec.c).
 */
#ifndef JET_DRIVER_SQL_STATEMENT_H
#define JET_DRIVER_SQL_STATEMENT_H

#include "engine.h"
#include "sql_internal.h"

/** One kind's executor (statement.c): how a statement of that kind is
 *  prepared from its parse, run and freed. prepare fills s (0, or -1 with
 *  err set); execute opens *cur for a result set or leaves it NULL, sets
 *  the statement's row count and returns 0 or a jet_rc < 0 (as
 *  sql_cursor_open); free releases what prepare made. */
typedef struct sql_executor {
    sql_stmt_kind kind;
    const char *name;
    int (*prepare)(sql_statement *s, jet_db *db, sql_parsed *p,
                   const sql_prepare_opts *opts, sql_error *err);
    int (*execute)(sql_statement *s, const jet_value *params,
                   const sql_cursor_opts *opts, sql_cursor **cur,
                   sql_error *err);
    void (*free)(sql_statement *s);
} sql_executor;

typedef struct sql_dml_exec sql_dml_exec;
typedef struct sql_ddl_exec sql_ddl_exec;
struct sql_replan;

/** A prepared statement (engine.h sql_statement): statement.c keeps its
 *  invariants; an executor fills its own parts. */
struct sql_statement {
    sql_stmt_kind kind;
    const sql_executor *ex;
    sql_stmt *query;            /* SQL_KIND_QUERY: the planned query;
                                   SQL_KIND_DML: its planned query part */
    sql_dml_exec *dml;          /* SQL_KIND_DML: dml.c's state */
    sql_ddl_exec *ddl;          /* SQL_KIND_DDL: ddl.c's state */
    struct sql_replan *replan;  /* what planning s again takes when the
                                   schema changed (statement.c inv. 4) */
    int64_t row_count;          /* last execute (statement.c inv. 2) */
    /* a query with ? markers in its output columns (engine.h
     * sql_statement_execute), else all NULL: what re-planning it for its
     * values' types needs */
    struct sql_retype *retype;
};

/** dml.c: the executor of INSERT, UPDATE and DELETE. */
extern const sql_executor sql_dml_executor;
/** ddl.c: the executor of CREATE, DROP, ALTER and SELECT ... INTO. */
extern const sql_executor sql_ddl_executor;

/**
 * Access's statements on a multi-valued field's values (INSERT INTO t
 * (c.Value) VALUES (e) [WHERE w], UPDATE t SET c.Value = e [WHERE w],
 * DELETE c.Value FROM t [WHERE w]) as the statement on the field's values
 * table they run as: *out (malloc'd) the new text, or NULL when text
 * names no c.Value (prepare it as it is). -1 with err: HYC00 for other
 * forms and for attachments and version histories, 42S02/42S22 for a
 * table or field that is not there, a core failure's rc. (dml.c)
 */
int sql_dml_values_rewrite(char **out, jet_db *db, const char *text,
                           size_t len, sql_error *err);

/** statement.c: the executor of kind, or NULL for no such kind. */
const sql_executor *sql_executor_of(sql_stmt_kind kind);

#endif
