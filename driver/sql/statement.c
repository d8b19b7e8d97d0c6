/*
 * statement.c - the statement root: its kind and that kind's executor.
 *
 * A prepared statement (sql_statement) is of one kind (sql.h
 * sql_stmt_kind): a query, DML or DDL. sql_parse_statement names the
 * kind; the executors table below gives each kind its prepare, execute
 * and free, and the statement keeps the row count of its last run
 * (SQLRowCount). A query's executor plans the query (plan.c) and opens a
 * cursor on it (exec.c); DML's is dml.c's; DDL's ddl.c's.
 * Callers never branch on the kind to run a statement.
 * Invariants:
 *   1. s->ex is executors[s->kind]; s->query is non-NULL for a prepared
 *      query (and DML, DDL: its query part, dml.c, ddl.c).
 *   2. s->row_count is -1 for a query (a result set: the count of its
 *      rows is not known before they are read, as ODBC allows), and the
 *      rows changed by the last execute for the other kinds.
 *   3. A query whose output columns hold ? markers keeps its text
 *      (s->retype) and is planned again at execute when its values'
 *      types differ from those of its plan (retype), so the columns are
 *      typed by the values, as Access types them; s->retype->planned
 *      says which types s->query was made for.
 *   4. Every statement keeps its text and the schema version it was
 *      planned under (s->replan): an execute after a schema change
 *      (jet_db_schema_version differs) plans it again first, or fails as
 *      that prepare fails (a table gone: 42S02); a stale plan never runs.
 */
#include "config.h"

#include "plan.h"
#include "statement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddl.h"

/* ------------------------------------------------------------ query */

/* A query typed by its parameters' values (engine.h
 * sql_statement_execute): its text and options, to plan it again. */
struct sql_retype {
    jet_db *db;
    char *text;
    size_t len;
    sql_prepare_opts opts;      /* saved_query: own copy */
    char *saved_query;
    size_t n;                   /* markers */
    sql_param_type *planned;    /* the types the current plan has */
    sql_param_type *want;       /* scratch: the values' */
};

static void retype_free(struct sql_retype *r)
{
    if (!r)
        return;
    free(r->text);
    free(r->saved_query);
    free(r->planned);
    free(r->want);
    free(r);
}

/* Keep what re-planning s needs when its output holds markers; 0, or -1
 * with err (out of memory). */
static int retype_keep(sql_statement *s, jet_db *db, const char *text,
                       size_t len, const sql_prepare_opts *opts,
                       sql_error *err)
{
    const sql_stmt *q = s->query;
    bool any = false;
    for (size_t i = 0; i < q->nparams && !any; i++)
        any = q->params[i].in_output && !q->params[i].declared;
    if (!any)
        return 0;
    struct sql_retype *r = calloc(1, sizeof *r);
    if (!r)
        goto nomem;
    s->retype = r;
    r->db = db;
    r->n = q->nparams;
    r->text = malloc(len ? len : 1);
    r->planned = calloc(r->n, sizeof *r->planned);
    r->want = calloc(r->n, sizeof *r->want);
    if (!r->text || !r->planned || !r->want)
        goto nomem;
    memcpy(r->text, text, len);
    r->len = len;
    if (opts)
        r->opts = *opts;
    r->opts.param_types = NULL;
    r->opts.nparam_types = 0;
    if (opts && opts->saved_query) {
        if (!(r->saved_query = strdup(opts->saved_query)))
            goto nomem;
        r->opts.saved_query = r->saved_query;
    }
    return 0;
nomem:
    sql_set_nomem(err, 0);
    return -1;
}

/* The type a marker in the output takes from its value v: text none (the
 * marker stays typed by its context, as prepared). */
static sql_param_type value_param_type(const jet_value *v)
{
    sql_param_type t = { 0, 0 };
    switch (v->type) {
    case JET_T_TEXT: case JET_T_MEMO:
        break;
    case JET_T_EXT_DATETIME:
        t.type = JET_T_DATETIME;
        break;
    case JET_T_NUMERIC:
        t.type = JET_T_NUMERIC;
        t.scale = v->u.num.scale > 28 ? 28 : v->u.num.scale;
        break;
    default:
        t.type = v->type;
        break;
    }
    return t;
}

/* Plan s's query again when params' types differ from those its plan was
 * made for (engine.h sql_statement_execute). 0, or an error code with
 * err (the new plan's, as a prepare's). */
static int retype(sql_statement *s, const jet_value *params, sql_error *err)
{
    struct sql_retype *r = s->retype;
    const sql_stmt *q = s->query;
    bool same = true;
    for (size_t i = 0; i < r->n; i++) {
        sql_param_type t = { 0, 0 };
        if (i < q->nparams && q->params[i].in_output &&
            !q->params[i].declared)
            t = value_param_type(&params[i]);
        r->want[i] = t;
        same = same && t.type == r->planned[i].type &&
               t.scale == r->planned[i].scale;
    }
    if (same)
        return 0;
    sql_prepare_opts o = r->opts;
    o.param_types = r->want;
    o.nparam_types = r->n;
    sql_stmt *nq;
    int rc = sql_stmt_prepare(&nq, r->db, r->text, r->len, &o, err);
    if (rc != 0)
        return rc;
    if (nq->nparams != r->n) {
        sql_stmt_free(nq);
        sql_set_error(err, "HY000", 0, "internal error: the statement "
                      "planned again has other parameters");
        return sql_error_code(err);
    }
    /* nq was made while the old plan lived: never its address */
    sql_stmt_free(s->query);
    s->query = nq;
    memcpy(r->planned, r->want, r->n * sizeof *r->planned);
    return 0;
}

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
    if (s->retype && params) {
        int rc = retype(s, params, err);
        if (rc != 0)
            return rc;
    }
    return sql_cursor_open(cur, s->query, params, opts, err);
}

static void query_free(sql_statement *s)
{
    sql_stmt_free(s->query);
    s->query = NULL;
}

/* ------------------------------------------------------------ table */

static const sql_executor executors[] = {
    [SQL_KIND_QUERY] = { SQL_KIND_QUERY, "query", query_prepare,
                         query_execute, query_free },
};

const sql_executor *sql_executor_of(sql_stmt_kind kind)
{
    if (kind == SQL_KIND_DML)
        return &sql_dml_executor;
    if (kind == SQL_KIND_DDL)
        return &sql_ddl_executor;
    if ((size_t)kind >= sizeof executors / sizeof executors[0] ||
        !executors[kind].prepare)
        return NULL;
    return &executors[kind];
}

/* ------------------------------------------------- schema changes */

/* What planning a statement again takes (inv. 4): its text, options and
 * the schema version of its plan. */
struct sql_replan {
    jet_db *db;
    char *text;
    size_t len;
    sql_prepare_opts opts;      /* saved_query: own copy; no param_types
                                   (retype's business) */
    char *saved_query;
    uint64_t schema;            /* jet_db_schema_version at the plan */
};

static void replan_free(struct sql_replan *r)
{
    if (!r)
        return;
    free(r->text);
    free(r->saved_query);
    free(r);
}

static int replan_keep(sql_statement *s, jet_db *db, const char *text,
                       size_t len, const sql_prepare_opts *opts,
                       sql_error *err)
{
    struct sql_replan *r = calloc(1, sizeof *r);
    if (!r || !(r->text = malloc(len ? len : 1))) {
        free(r);
        sql_set_nomem(err, 0);
        return -1;
    }
    s->replan = r;
    r->db = db;
    memcpy(r->text, text, len);
    r->len = len;
    r->schema = jet_db_schema_version(db);
    if (opts)
        r->opts = *opts;
    r->opts.param_types = NULL;
    r->opts.nparam_types = 0;
    r->opts.saved_query = NULL;
    if (opts && opts->saved_query) {
        if (!(r->saved_query = strdup(opts->saved_query))) {
            sql_set_nomem(err, 0);
            return -1;
        }
        r->opts.saved_query = r->saved_query;
    }
    return 0;
}

/* Plan s again when the schema changed since its plan (a CREATE, DROP or
 * ALTER of this connection, or the rollback of one): a table gone is the
 * new prepare's error (42S02). The new statement takes s's place; the old
 * plan's tdefs stay readable (ddl.h), so nothing dangles meanwhile. */
static int replan(sql_statement *s, sql_error *err)
{
    struct sql_replan *r = s->replan;
    if (!r || jet_db_schema_version(r->db) == r->schema)
        return 0;
    sql_statement *ns;
    jet_rc lrc = jet_db_read_begin(r->db);
    if (lrc != JET_OK) {
        const jet_error *je = jet_db_error(r->db);
        memset(err, 0, sizeof *err);
        err->rc = lrc;
        err->pgno = je->pgno;
        snprintf(err->msg, sizeof err->msg, "%s", je->msg);
        return lrc;
    }
    int rc = sql_statement_prepare(&ns, r->db, r->text, r->len, &r->opts,
                                   err);
    jet_db_read_end(r->db);
    if (rc != 0)
        return rc;
    sql_statement old = *s;
    *s = *ns;
    *ns = old;
    sql_statement_free(ns);
    return 0;
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
    char *mv = NULL;
    if (!(opts && opts->complex_values) &&
        sql_dml_values_rewrite(&mv, db, text, len, err) != 0)
        return sql_error_code(err);
    if (mv) {
        /* c.Value: the statement on the values table it runs as */
        sql_prepare_opts o;
        if (opts)
            o = *opts;
        else
            memset(&o, 0, sizeof o);
        o.complex_values = true;
        int rc = sql_statement_prepare(out, db, mv, strlen(mv), &o, err);
        free(mv);
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
    if (ex->prepare(s, db, &p, opts, err) != 0 ||
        (s->kind == SQL_KIND_QUERY &&
         retype_keep(s, db, text, len, opts, err) != 0) ||
        replan_keep(s, db, text, len, opts, err) != 0) {
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
    int rc = replan(s, err);
    if (rc != 0)
        return rc;
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
    retype_free(s->retype);
    replan_free(s->replan);
    free(s);
}
