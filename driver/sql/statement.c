/*
 * statement.c - the statement root: its kind and that kind's executor.
 *
 * A prepared statement (sql_statement) is of one kind (sql.h
 * sql_stmt_kind): a query, DML or DDL. sql_parse_statement names the
 * kind; the executors table below gives each kind its prepare, execute
 * and free, and the statement keeps the row count of its last run
 * (SQLRowCount). A query's executor plans the query (plan.c) and opens a
 * cursor on it (exec.c); DML's is dml.c's; DDL's refuses, as the parser
 * did before.
 * Callers never branch on the kind to run a statement.
 * Invariants:
 *   1. s->ex is executors[s->kind]; s->query is non-NULL for a prepared
 *      query (and DML: its query part, dml.c).
 *   2. s->row_count is -1 for a query (a result set: the count of its
 *      rows is not known before they are read, as ODBC allows), and the
 *      rows changed by the last execute for the other kinds.
 */
#include "config.h"

#include "plan.h"
#include "statement.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ query */

static int query_prepare(sql_statement *s, jet_db *db, sql_parsed *p,
                         const sql_prepare_opts *opts, sql_error *err)
{
    sql_query *q = p->query;
    p->query = NULL;            /* sql_stmt_plan owns it now */
    return sql_stmt_plan(&s->query, db, q, opts, err);
}

static int query_execute(sql_statement *s, const jet_value *params,
                         const sql_cursor_opts *opts, sql_cursor **cur,
                         sql_error *err)
{
    s->row_count = -1;
    return sql_cursor_open(cur, s->query, params, opts, err);
}

static void query_free(sql_statement *s)
{
    sql_stmt_free(s->query);
    s->query = NULL;
}

/* ------------------------------------------------------ DML and DDL */

/* The read-only driver's answer to a statement that would write (the
 * parser's message before statements had kinds). */
static int refuse_prepare(sql_statement *s, jet_db *db, sql_parsed *p,
                          const sql_prepare_opts *opts, sql_error *err)
{
    (void)s;
    (void)db;
    (void)opts;
    sql_set_error(err, "HYC00", p->position,
                  "not supported: %s (the driver is read-only)",
                  sql_kw_name(p->verb));
    return -1;
}

static int refuse_execute(sql_statement *s, const jet_value *params,
                          const sql_cursor_opts *opts, sql_cursor **cur,
                          sql_error *err)
{
    (void)params;
    (void)opts;
    *cur = NULL;
    s->row_count = -1;
    sql_set_error(err, "HYC00", 0, "not supported: the driver is "
                  "read-only");
    return JET_EUNSUPPORTED;
}

static void nothing_to_free(sql_statement *s)
{
    (void)s;
}

/* ------------------------------------------------------------ table */

static const sql_executor executors[] = {
    [SQL_KIND_QUERY] = { SQL_KIND_QUERY, "query", query_prepare,
                         query_execute, query_free },
    [SQL_KIND_DDL] = { SQL_KIND_DDL, "DDL", refuse_prepare, refuse_execute,
                       nothing_to_free },
};

const sql_executor *sql_executor_of(sql_stmt_kind kind)
{
    if (kind == SQL_KIND_DML)
        return &sql_dml_executor;
    if ((size_t)kind >= sizeof executors / sizeof executors[0] ||
        !executors[kind].prepare)
        return NULL;
    return &executors[kind];
}

/* ------------------------------------------------------------- API */

int sql_statement_prepare(sql_statement **out, jet_db *db, const char *text,
                          size_t len, const sql_prepare_opts *opts,
                          sql_error *err)
{
    sql_error scratch;
    if (!err)
        err = &scratch;
    *out = NULL;
    char *ct = NULL;
    if (!(opts && opts->saved_query) &&
        sql_adhoc_crosstab(&ct, db, text, len, opts, err) != 0)
        return sql_error_code(err);
    if (ct) {
        /* an ad-hoc TRANSFORM: the SELECT it runs as */
        int rc = sql_statement_prepare(out, db, ct, strlen(ct), opts, err);
        free(ct);
        return rc;
    }
    sql_parsed p;
    if (sql_parse_statement(&p, text, len, err) != 0) {
        if (opts && opts->saved_query)
            sql_error_in_saved(err, opts->saved_query, 0);
        return sql_error_code(err);
    }
    sql_statement *s = calloc(1, sizeof *s);
    const sql_executor *ex = sql_executor_of(p.kind);
    if (!s || !ex) {
        if (p.query)
            sql_select_free(&p.query->sel);
        free(s);
        if (!ex)
            sql_set_error(err, "HY000", 0, "internal error: no executor "
                          "for statement kind %d", (int)p.kind);
        else
            sql_set_nomem(err, 0);
        return sql_error_code(err);
    }
    s->kind = p.kind;
    s->ex = ex;
    s->row_count = -1;
    if (ex->prepare(s, db, &p, opts, err) != 0) {
        if (p.query)
            sql_select_free(&p.query->sel);
        sql_statement_free(s);
        return sql_error_code(err);
    }
    *out = s;
    return 0;
}

sql_stmt_kind sql_statement_kind(const sql_statement *s)
{
    return s->kind;
}

sql_stmt *sql_statement_query(const sql_statement *s)
{
    return s->query;
}

int sql_statement_execute(sql_statement *s, const jet_value *params,
                          const sql_cursor_opts *opts, sql_cursor **cur,
                          sql_error *err)
{
    *cur = NULL;
    return s->ex->execute(s, params, opts, cur, err);
}

int64_t sql_statement_row_count(const sql_statement *s)
{
    return s->row_count;
}

void sql_statement_free(sql_statement *s)
{
    if (!s)
        return;
    s->ex->free(s);
    free(s);
}
