/*
 * dml.c - the executor of INSERT, UPDATE and DELETE (issue 25): binds
 * the statement's target table and columns, plans its query part with
 * the engine (so WHERE and joins use the same access paths, index seeks
 * included, as a SELECT), and runs it.
 *
 * A run first reads its query part to the end, collecting what it will
 * write (INSERT: the new rows, converted; UPDATE: the target rows'
 * locations and new values; DELETE: the locations), then writes: the
 * write never disturbs its own scan (the Halloween problem), and a row a
 * join reaches twice is changed once. The write runs in the db's write
 * transaction (one begun and committed here when none is open: the
 * driver's autocommit) under a statement savepoint: any failure rolls
 * back to it, so a statement is all or nothing.
 *
 * Values are converted to the column's type in one place (coerce):
 * exact integers stay exact; out of range 22003, text that is no number
 * or date 22018, text or bytes longer than the column 22001; the core
 * refuses the rest (NULL into Required 23000, duplicate keys 23000).
 * Format and rules: core/write.h.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "rules.h"
#include "statement.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "write.h"

/* A collected row: its location (UPDATE, DELETE) and values (INSERT:
 * every column; UPDATE: the SET columns), spans in the chunks. */
typedef struct dml_run {
    sql_arena_chunk *chunks;    /* value spans (stable addresses) */
    jet_rowid *ids;
    jet_value *vals;
    size_t n, cap;              /* rows collected */
    sql_conv_buf conv;          /* coerce's scratch */
} dml_run;

struct sql_dml_exec {
    jet_db *db;
    sql_kw verb;
    const jet_tdef *td;         /* the target table */
    size_t tab;                 /* its index in query->tabs (UPD/DEL) */
    size_t ncols;               /* target columns (INSERT: per item) */
    uint16_t *cols;             /* their positions in td->cols */
    size_t width;               /* values per collected row */
    dml_run run;
    bool values_ok;             /* a c.Value statement's rewrite: its
                                   target is a values table */
    int64_t last_identity;      /* last AutoNumber inserted, 0 none */
    jet_rowid last_row;         /* where the last inserted row went */
    bool has_last_row;
    /* INSERT: the columns it does not give, each NULL or its DefaultValue
     * (a one-value query, evaluated once per run: def_vals) */
    size_t nomit;
    uint16_t *omit;             /* their positions in td->cols */
    int *omit_def;              /* index into defs, or -1 (NULL) */
    size_t ndefs;
    sql_stmt **defs;
    jet_value *def_vals;        /* their values (spans in def_mem, or in
                                   run for the volatile ones) */
    bool *def_volatile;         /* calls a function (Date(), Now()):
                                   evaluated again each run; the others
                                   once, at the first run that needs them */
    bool *def_known;            /* def_vals[d] is this run's value */
    sql_arena_chunk *def_mem;   /* the constant defaults' spans */
    bool defs_done;             /* def_vals evaluated in this run */
    size_t cascaded_away;       /* DELETE: rows a cascade deleted first */
    /* INSERT ... VALUES of bare ? markers (a parameter array's statement):
     * each item's parameter, converted straight to its column, no query
     * run per row (collect_params); conv is the cursor that only lends
     * its conversions their scratch, opened at the first run */
    bool direct;
    size_t *pidx;               /* item i's parameter */
    sql_cursor *conv;
    uint8_t *pbuf;              /* a parameter as its natural value */
    size_t pbuf_cap;
};

/* ------------------------------------------------------------ bind */

static int find_column(const jet_tdef *td, const char *name, size_t pos,
                       uint16_t *out, sql_error *err)
{
    int c = jet_tdef_find_column(td, name);
    if (c < 0) {
        sql_set_error(err, "42S22", pos, "Unknown field name: '%s' in "
                      "table '%s' (at character %zu)", name, td->name, pos);
        return -1;
    }
    *out = (uint16_t)c;
    return 0;
}

/* A complex column's values table (f_..., complex.c) is written only
 * through its column: a statement naming it is refused, as Access
 * hides it. */
static int refuse_values_table(sql_dml_exec *x, size_t pos, sql_error *err)
{
    bool flat = false;
    if (x->values_ok)
        return 0;           /* a c.Value statement (sql_dml_values_rewrite) */
    if (jet_complex_flat_owner(x->db, x->td, &flat) != JET_OK || !flat)
        return 0;
    sql_set_error(err, "HYC00", pos, "not supported: table '%s' holds the "
                  "values of a complex column (attachment or multi-value): "
                  "it is written through that column only", x->td->name);
    return -1;
}

/* The target of an UPDATE/DELETE among the planned query's tables:
 * name (a table name or alias), or NULL for the only table; for an
 * UPDATE without one, the table of the first SET column's qualifier. */
static int find_target(sql_dml_exec *x, const sql_stmt *st, const char *name,
                       size_t pos, sql_error *err)
{
    size_t found = SIZE_MAX;
    for (size_t k = 0; k < st->ntabs; k++) {
        const tab_plan *tp = &st->tabs[k];
        if (!name) {
            if (st->ntabs == 1)
                found = k;
            break;
        }
        const char *nm = tp->alias ? tp->alias : tp->name;
        if (nm && !strcasecmp(nm, name)) {
            found = k;
            break;
        }
    }
    if (found == SIZE_MAX) {
        if (!name)
            sql_set_error(err, "42000", pos, "Specify the table containing "
                          "the records you want to %s",
                          x->verb == KW_DELETE ? "delete" : "update");
        else
            sql_set_error(err, "42S02", pos, "'%s' is not a table of the "
                          "statement (at character %zu)", name, pos);
        return -1;
    }
    const tab_plan *tp = &st->tabs[found];
    if (!tp->td || tp->sub || tp->view) {
        sql_set_error(err, "HY000", pos, "Operation must use an updateable "
                      "query: '%s' is not a table", tp->name);
        return -1;
    }
    x->tab = found;
    x->td = tp->td;
    return refuse_values_table(x, pos, err);
}

/* INSERT: the columns x->cols leaves out, and the DefaultValue of each
 * that has one (AutoNumbers excepted: the core numbers them), prepared
 * as a query (rules.c). A default the engine cannot evaluate refuses
 * the INSERT (HYC00); an explicit NULL is never replaced. */
static int prepare_defaults(sql_dml_exec *x, jet_db *db, sql_error *err)
{
    const jet_tdef *td = x->td;
    const jet_table_props *props = NULL;
    jet_rc rc = jet_table_props_get(db, td, &props);
    if (rc != JET_OK) {
        const jet_error *je = jet_db_error(db);
        memset(err, 0, sizeof *err);
        err->rc = rc;
        err->pgno = je->pgno;
        snprintf(err->msg, sizeof err->msg, "%s", je->msg);
        return -1;
    }
    size_t nc = td->ncols;
    x->omit = calloc(nc ? nc : 1, sizeof *x->omit);
    x->omit_def = calloc(nc ? nc : 1, sizeof *x->omit_def);
    x->defs = calloc(nc ? nc : 1, sizeof *x->defs);
    x->def_vals = calloc(nc ? nc : 1, sizeof *x->def_vals);
    x->def_volatile = calloc(nc ? nc : 1, sizeof *x->def_volatile);
    x->def_known = calloc(nc ? nc : 1, sizeof *x->def_known);
    bool *given = calloc(nc ? nc : 1, sizeof *given);
    if (!x->omit || !x->omit_def || !x->defs || !x->def_vals ||
        !x->def_volatile || !x->def_known || !given) {
        free(given);
        sql_set_nomem(err, 0);
        return -1;
    }
    for (size_t i = 0; i < x->ncols; i++)
        given[x->cols[i]] = true;
    for (size_t k = 0; k < nc; k++) {
        const jet_column *col = &td->cols[k];
        if (given[k])
            continue;
        x->omit[x->nomit] = (uint16_t)k;
        x->omit_def[x->nomit] = -1;
        x->nomit++;
        const char *dv = props && k < props->ncols
                             ? props->cols[k].default_value : NULL;
        if (!dv || (col->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID |
                                  JET_COL_CALCULATED)))
            continue;
        if (sql_default_prepare(&x->defs[x->ndefs], db, td, (uint16_t)k, dv,
                                err) != 0) {
            free(given);
            return -1;
        }
        x->def_volatile[x->ndefs] = strchr(dv, '(') != NULL;
        x->omit_def[x->nomit - 1] = (int)x->ndefs++;
    }
    free(given);
    return 0;
}

/* A ? parameter that gives column col's value is described as that
 * column (SQLDescribeParam, and the type its text converts to). */
static void describe_param(sql_stmt *st, const sql_expr *e,
                           const jet_column *col)
{
    if (!e || e->kind != EXPR_PARAM || e->param_index >= st->nparams)
        return;
    sql_param_info *pi = &st->params[e->param_index];
    if (pi->declared)
        return;
    pi->type = col->type;
    pi->column = col;
}

/* An INSERT whose query part is one row of bare ? markers (no FROM,
 * WHERE, grouping, UNION, subquery, declared type) runs without opening
 * its query per row: x->direct, x->pidx[i] = item i's parameter. */
static int direct_prepare(sql_dml_exec *x, const sql_stmt *st,
                          sql_error *err)
{
    if (st->ntabs || st->materialize || st->where || st->having ||
        st->grouped || st->distinct || st->nbranch || st->nsubq ||
        st->explain || st->top >= 0 || st->limit >= 0 || st->offset ||
        st->ncols != x->ncols)
        return 0;
    for (size_t i = 0; i < st->ncols; i++) {
        const enode *e = st->cols[i].e;
        if (!e || e->op != N_PARAM || e->param >= st->nparams ||
            st->params[e->param].declared)
            return 0;
    }
    x->pidx = calloc(st->ncols ? st->ncols : 1, sizeof *x->pidx);
    if (!x->pidx) {
        sql_set_nomem(err, 0);
        return -1;
    }
    for (size_t i = 0; i < st->ncols; i++)
        x->pidx[i] = st->cols[i].e->param;
    x->direct = true;
    return 0;
}

static int dml_prepare(sql_statement *s, jet_db *db, sql_parsed *p,
                       const sql_prepare_opts *opts, sql_error *err)
{
    sql_dml *d = p->dml;
    sql_dml_exec *x = calloc(1, sizeof *x);
    if (!x) {
        sql_set_nomem(err, 0);
        return -1;
    }
    s->dml = x;
    x->db = db;
    x->verb = d->verb;
    x->values_ok = opts && opts->complex_values;
    /* INSERT's table is known before planning: a missing one is named
     * as the target, not as a table the SELECT reads */
    if (d->verb == KW_INSERT) {
        const jet_object *obj = jet_catalog_find(db, d->table);
        if (!obj || obj->kind == JET_OBJ_QUERY) {
            sql_set_error(err, "42S02", d->table_position, "The database "
                          "engine cannot find the output table '%s' (at "
                          "character %zu)", d->table, d->table_position);
            return -1;
        }
        if (obj->kind != JET_OBJ_TABLE &&
            !(x->values_ok && obj->kind == JET_OBJ_SYSTEM_TABLE)) {
            /* the words of the core's refusal (tablerules.c), which an
             * UPDATE or DELETE of the same table meets */
            sql_set_error(err, "HYC00", 0, "not supported: table '%s' is "
                          "%s: writing it is not supported%s", obj->name,
                          obj->kind == JET_OBJ_SYSTEM_TABLE
                              ? "a system table" : "a linked table",
                          obj->kind == JET_OBJ_SYSTEM_TABLE ? "" : " yet");
            return -1;
        }
        jet_rc rc = jet_tdef_load(&x->td, db, obj);
        if (rc != JET_OK) {
            const jet_error *je = jet_db_error(db);
            memset(err, 0, sizeof *err);
            err->rc = rc;
            err->pgno = je->pgno;
            snprintf(err->msg, sizeof err->msg, "%s", je->msg);
            return -1;
        }
    }
    p->query = NULL;            /* the plan owns the arena now (and d) */
    if (sql_stmt_plan(&s->query, db, d->query, opts, err) != 0)
        return -1;
    sql_stmt *st = s->query;
    size_t nitems = st->ncols;
    if (d->verb == KW_INSERT) {
        size_t n = d->ncols ? d->ncols : x->td->ncols;
        if (n != nitems) {
            sql_set_error(err, "21S01", d->position, "Number of query "
                          "values and destination fields are not the same "
                          "(%zu values, %zu fields)", nitems, n);
            return -1;
        }
        x->ncols = n;
        x->cols = calloc(n ? n : 1, sizeof *x->cols);
        if (!x->cols) {
            sql_set_nomem(err, 0);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            if (!d->ncols)
                x->cols[i] = (uint16_t)i;
            else if (find_column(x->td, d->cols[i], d->col_pos[i],
                                 &x->cols[i], err) != 0)
                return -1;
            /* a calculated column is computed, never given (Access:
             * error 3113; Microsoft's driver the same words) */
            const jet_column *tc = &x->td->cols[x->cols[i]];
            if ((tc->flags & JET_COL_CALCULATED) &&
                jet_db_version(db) != JET_VER_3) {
                sql_set_error(err, "HY000", d->ncols ? d->col_pos[i] : 0,
                              "Cannot update '%s'; field not updateable",
                              tc->name);
                return -1;
            }
            for (size_t j = 0; j < i; j++)
                if (x->cols[j] == x->cols[i]) {
                    sql_set_error(err, "42000", d->col_pos[i], "Duplicate "
                                  "output destination '%s'",
                                  x->td->cols[x->cols[i]].name);
                    return -1;
                }
            if (x->td->cols[x->cols[i]].type == JET_T_COMPLEX) {
                /* Access's error 3824: the id is Access's, the values are
                 * added with INSERT INTO t (c.Value) */
                sql_set_error(err, "HY000", d->ncols ? d->col_pos[i]
                                                     : d->position,
                              "An INSERT INTO query cannot contain a "
                              "multi-valued field ('%s')",
                              x->td->cols[x->cols[i]].name);
                return -1;
            }
            if (d->values)
                describe_param(st, d->query->sel.items[i].expr,
                               &x->td->cols[x->cols[i]]);
        }
        x->width = x->td->ncols;
        if (prepare_defaults(x, db, err) != 0)
            return -1;
        return direct_prepare(x, st, err);
    }
    /* UPDATE, DELETE: the target among the query's tables */
    const char *target = d->table;
    size_t tpos = d->table ? d->table_position : d->position;
    if (d->verb == KW_UPDATE && !target && st->ntabs > 1) {
        for (size_t i = 0; i < d->ncols && !target; i++)
            target = d->col_quals[i];
        if (!target) {
            /* the table holding the first SET column */
            for (size_t k = 0; k < st->ntabs && !target; k++)
                if (st->tabs[k].td &&
                    jet_tdef_find_column(st->tabs[k].td, d->cols[0]) >= 0)
                    target = st->tabs[k].alias ? st->tabs[k].alias
                                               : st->tabs[k].name;
        }
    }
    if (d->verb == KW_DELETE && d->other_table_position) {
        /* DELETE a.*, b.* FROM a JOIN b: Access deletes from one table
         * only and refuses a list of two (its error 3086) */
        sql_set_error(err, "HY000", d->other_table_position - 1,
                      "Could not delete from specified tables.");
        return -1;
    }
    if (find_target(x, st, target, tpos, err) != 0)
        return -1;
    if (d->verb == KW_DELETE)
        return 0;
    x->ncols = d->ncols;
    x->width = d->ncols;
    x->cols = calloc(d->ncols ? d->ncols : 1, sizeof *x->cols);
    if (!x->cols) {
        sql_set_nomem(err, 0);
        return -1;
    }
    for (size_t i = 0; i < d->ncols; i++) {
        if (d->col_quals[i] && target && strcasecmp(d->col_quals[i], target)) {
            sql_set_error(err, "HYC00", d->col_pos[i], "not supported yet: "
                          "an UPDATE that sets columns of more than one "
                          "table ('%s' and '%s')", target, d->col_quals[i]);
            return -1;
        }
        if (find_column(x->td, d->cols[i], d->col_pos[i], &x->cols[i],
                        err) != 0)
            return -1;
        const jet_column *col = &x->td->cols[x->cols[i]];
        /* (each flag only where its type and format give it meaning:
         * Jet3 TDEFs set bits of their own) */
        if (((col->flags & JET_COL_AUTONUMBER) && col->type == JET_T_LONG) ||
            col->type == JET_T_COMPLEX ||
            ((col->flags & JET_COL_AUTO_GUID) && col->type == JET_T_GUID) ||
            ((col->flags & JET_COL_CALCULATED) &&
             jet_db_version(db) != JET_VER_3)) {
            sql_set_error(err, "HY000", d->col_pos[i], "Cannot update "
                          "'%s'; field not updateable", col->name);
            return -1;
        }
        describe_param(st, d->query->sel.items[i].expr, col);
    }
    return 0;
}

/* ------------------------------------------------------ conversion */

static int conv_fail(sql_error *err, const char *state, const jet_column *col,
                     const char *what)
{
    /* Access's own words for the three conversion failures (the Jet
     * errors 3163, 3349 and 3464, as Microsoft's driver reports them),
     * then which column and why */
    const char *access =
        strcmp(state, "22001") == 0
            ? "The field is too small to accept the amount of data you "
              "attempted to add. Try inserting or pasting less data."
        : strcmp(state, "22003") == 0 ? "Numeric field overflow."
        : strcmp(state, "22018") == 0
            ? "Data type mismatch in criteria expression."
            : NULL;
    if (access)
        sql_set_error(err, state, 0, "%s (column '%s': %s)", access,
                      col->name, what);
    else
        sql_set_error(err, state, 0, "%s for column '%s'", what, col->name);
    return -1;
}

/* Text "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" (braces optional) as a
 * GUID in its stored byte order. 0, or -1. */
static int parse_guid(const uint16_t *s, size_t n, uint8_t out[16])
{
    char t[40];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint16_t ch = s[i];
        if (ch == '{' || ch == '}' || ch == '-')
            continue;
        if (k >= 32 || ch > 0x7f)
            return -1;
        t[k++] = (char)ch;
    }
    if (k != 32)
        return -1;
    uint8_t b[16];
    for (int i = 0; i < 16; i++) {
        unsigned v = 0;
        for (int j = 0; j < 2; j++) {
            char c = t[2 * i + j];
            int h = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (h < 0)
                return -1;
            v = v * 16 + (unsigned)h;
        }
        b[i] = (uint8_t)v;
    }
    /* Data1..3 are little-endian on disk */
    uint8_t o[16] = { b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6] };
    memcpy(o + 8, b + 8, 8);
    memcpy(out, o, 16);
    return 0;
}

static bool word_is(const sv *v, const char *w)
{
    size_t n = strlen(w);
    if (v->n != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint16_t c = v->s[i];
        if (c >= 'a' && c <= 'z')
            c = (uint16_t)(c - 'a' + 'A');
        if (c != (uint16_t)w[i])
            return false;
    }
    return true;
}

int sql_coerce_to_column(sql_cursor *c, sql_conv_buf *r, const jet_value *in,
                         const jet_column *col, jet_value *out,
                         sql_error *err)
{
    sv v;
    if (sql_value_to_sv(c, in, &v, &r->u16, &r->u16_cap) != 0) {
        *err = *sql_cursor_error(c);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->type = col->type;
    if (v.k == K_NULL) {
        out->is_null = true;
        return 0;
    }
    jet_type t = col->type;
    bool numeric = t == JET_T_BYTE || t == JET_T_INT || t == JET_T_LONG ||
                   t == JET_T_BIGINT || t == JET_T_MONEY ||
                   t == JET_T_FLOAT || t == JET_T_DOUBLE ||
                   t == JET_T_NUMERIC;
    if (t == JET_T_BOOL && v.k == K_TEXT) {
        if (word_is(&v, "TRUE") || word_is(&v, "YES") || word_is(&v, "ON")) {
            out->u.b = true;
            return 0;
        }
        if (word_is(&v, "FALSE") || word_is(&v, "NO") ||
            word_is(&v, "OFF")) {
            out->u.b = false;
            return 0;
        }
        numeric = true;
    }
    if (numeric && v.k == K_TEXT && t != JET_T_NUMERIC) {
        sv num;
        if (sql_text_to_number(v.s, v.n, &num) != 0)
            return conv_fail(err, "22018", col, "text is not a number");
        v = num;
    }
    if (numeric && (v.k == K_GUID || v.k == K_BIN))
        return conv_fail(err, "22018", col, "binary data for a number");
    if (v.k == K_BOOL)
        v.i = v.i ? -1 : 0;     /* Access's True is -1 */
    switch (t) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT: {
        int64_t i;
        int rc = sql_sv_int(&v, &i);
        if (rc == -1)
            return conv_fail(err, "22018", col, "not a whole number");
        int64_t lo = t == JET_T_BYTE ? 0 : t == JET_T_INT ? -32768
                   : t == JET_T_LONG ? INT32_MIN : INT64_MIN;
        int64_t hi = t == JET_T_BYTE ? 255 : t == JET_T_INT ? 32767
                   : t == JET_T_LONG ? INT32_MAX : INT64_MAX;
        if (rc != 0 || i < lo || i > hi)
            return conv_fail(err, "22003", col, "outside the range of "
                             "its type");
        out->u.i = i;
        return 0;
    }
    case JET_T_MONEY: {
        double d = 0;
        if (v.k == K_INT && (v.i > 922337203685477LL ||
                             v.i < -922337203685477LL))
            return conv_fail(err, "22003", col, "outside the range of "
                             "Currency");
        if ((v.k == K_DOUBLE || v.k == K_DATE) &&
            (sql_sv_double(&v, &d) != 0 || !(fabs(d) < 922337203685477.0)))
            return conv_fail(err, "22003", col, "outside the range of "
                             "Currency");
        break;
    }
    case JET_T_FLOAT: {
        double d;
        if (sql_sv_double(&v, &d) != 0)
            return conv_fail(err, "22018", col, "not a number");
        if (!isfinite(d) || fabs(d) > FLT_MAX)
            return conv_fail(err, "22003", col, "outside the range of "
                             "Single");
        break;
    }
    case JET_T_DATETIME:
        if (v.k == K_TEXT) {
            double d;
            if (sql_sv_date(&v, &d) != 0)
                return conv_fail(err, "22018", col, "text is not a "
                                 "date");
        } else {
            double d;
            if (v.k == K_GUID || v.k == K_BIN || sql_sv_double(&v, &d) != 0)
                return conv_fail(err, "22018", col, "not a date");
            if (!(d > -657435.0 && d < 2958466.0))
                return conv_fail(err, "22008", col, "Datetime field "
                                 "overflow");
        }
        break;
    case JET_T_GUID:
        if (v.k == K_TEXT) {
            if (parse_guid(v.s, v.n, out->u.guid) != 0)
                return conv_fail(err, "22018", col, "text is not a "
                                 "GUID");
            return 0;
        }
        if (v.k != K_GUID)
            return conv_fail(err, "22018", col, "not a GUID");
        break;
    case JET_T_BINARY: case JET_T_OLE:
        if (v.k != K_BIN)
            return conv_fail(err, "22018", col, "not binary "
                             "data");
        if (t == JET_T_BINARY && v.len > col->length)
            return conv_fail(err, "22001", col, "binary value "
                             "longer than the column's size");
        break;
    case JET_T_TEXT: case JET_T_MEMO: case JET_T_BOOL: case JET_T_DOUBLE:
    case JET_T_NUMERIC:
        break;
    default:
        sql_set_error(err, "HYC00", 0, "not supported yet: writing column "
                      "'%s' of type %d", col->name, (int)t);
        return -1;
    }
    if (sql_sv_to_value(c, &v, t, &r->conv, &r->conv_cap, out) != 0)
        return conv_fail(err, v.k == K_TEXT ? "22018" : "22003", col,
                         v.k == K_TEXT ? "does not convert to the "
                                         "column's type"
                                       : "outside the range of its type");
    out->type = t;
    if (t == JET_T_TEXT && out->len / 2 > (size_t)col->length / 2)
        return conv_fail(err, "22001", col, "text longer than the "
                         "column's size");
    if (t == JET_T_NUMERIC) {
        sv dv, rv;
        sql_dec_from_value(out, &dv);
        if (sql_dec_round(&rv, &dv, col->scale) != 0)
            return conv_fail(err, "22003", col, "outside the range of "
                             "Decimal");
        jet_i128 lim = i128_of(1);
        for (int k = 0; k < col->precision - col->scale; k++)
            lim = i128_mul(lim, i128_of(10));
        sv ip;
        if (sql_dec_trunc(&ip, &rv, false) != 0 ||
            fabs(sql_dec_to_double(&ip)) >= i128_to_double(lim))
            return conv_fail(err, "22003", col, "more digits "
                             "than the column's precision");
        /* at the column's scale (rounding only shortens: an integer is
         * still of scale 0); below 10^precision, so no overflow */
        while (rv.scale < col->scale) {
            rv.m = i128_mul(rv.m, i128_of(10));
            rv.scale++;
        }
        sql_dec_to_value(&rv, out);
        out->u.num.precision = col->precision;
    }
    return 0;
}

/* Convert in (a value of the query part, read through c) to column col's
 * type into *out; spans go to r->conv.conv (valid until the next call). */
static int coerce(sql_cursor *c, dml_run *r, const jet_value *in,
                  const jet_column *col, jet_value *out, sql_error *err)
{
    return sql_coerce_to_column(c, &r->conv, in, col, out, err);
}

/* ------------------------------------------------------- collecting */

static void run_reset(dml_run *r)
{
    /* keep the newest chunk for the next run: no allocation per run */
    if (r->chunks) {
        sql_arena_chunk *rest = r->chunks->next;
        r->chunks->next = NULL;
        r->chunks->used = 0;
        sql_chunk_free_all(&rest);
    }
    r->n = 0;
}

static void run_free(dml_run *r)
{
    sql_chunk_free_all(&r->chunks);
    free(r->ids);
    free(r->vals);
    free(r->conv.conv);
    free(r->conv.u16);
    memset(r, 0, sizeof *r);
}

/* Room for one more row of width values; its slots zeroed. */
static int run_add(dml_run *r, size_t width, jet_rowid **id, jet_value **v)
{
    if (r->n == r->cap) {
        size_t ncap = r->cap ? 2 * r->cap : 16;
        jet_rowid *ni = realloc(r->ids, ncap * sizeof *ni);
        if (!ni)
            return -1;
        r->ids = ni;
        jet_value *nv = realloc(r->vals, ncap * (width ? width : 1) *
                                         sizeof *nv);
        if (!nv)
            return -1;
        r->vals = nv;
        r->cap = ncap;
    }
    *id = &r->ids[r->n];
    *v = &r->vals[r->n * (width ? width : 1)];
    memset(*v, 0, (width ? width : 1) * sizeof **v);
    r->n++;
    return 0;
}

/* Copy v's span into the run's chunks (values outlive their cursor). */
static int keep_span(dml_run *r, jet_value *v)
{
    if (v->is_null || !v->data || !v->len)
        return 0;
    uint8_t *p = sql_chunk_take(&r->chunks, v->len, 64 * 1024, NULL);
    if (!p)
        return -1;
    memcpy(p, v->data, v->len);
    v->data = p;
    return 0;
}

/* The INSERT's default values for this run (x->def_vals), converted to
 * their columns' types as given values are: at the run's first row, the
 * volatile ones each run (a default of Now() is the statement's time),
 * the others once (kept in def_mem). */
static int eval_defaults(sql_dml_exec *x, sql_error *err)
{
    dml_run *r = &x->run;
    for (size_t j = 0; j < x->nomit; j++) {
        int d = x->omit_def[j];
        if (d < 0 || (x->def_known[d] && !x->def_volatile[d]))
            continue;
        const jet_column *col = &x->td->cols[x->omit[j]];
        sql_cursor *dc = NULL;
        jet_value in;
        int rc = sql_cursor_open(&dc, x->defs[d], NULL, NULL, err);
        if (rc == 0 && (rc = sql_cursor_next(dc)) == JET_OK &&
            (rc = sql_cursor_value_own(dc, 0, &in)) == JET_OK) {
            jet_value *dv = &x->def_vals[d];
            if (coerce(dc, r, &in, col, dv, err) != 0) {
                if (!err->sqlstate[0] && !err->rc)
                    sql_set_nomem(err, 0);
                rc = sql_error_code(err);
            } else if (x->def_volatile[d]) {
                if (keep_span(r, dv) != 0)
                    rc = JET_ENOMEM;
            } else if (!dv->is_null && dv->data && dv->len) {
                uint8_t *p = sql_chunk_take(&x->def_mem, dv->len, 1024,
                                            NULL);
                if (!p) {
                    rc = JET_ENOMEM;
                } else {
                    memcpy(p, dv->data, dv->len);
                    dv->data = p;
                }
            }
            if (rc == JET_ENOMEM)
                sql_set_nomem(err, 0);
            x->def_known[d] = rc == 0;
        } else if (dc) {
            if (rc == JET_DONE)
                rc = JET_EUNSUPPORTED;
            *err = *sql_cursor_error(dc);
        }
        sql_cursor_close(dc);
        if (rc != 0)
            return rc;
    }
    x->defs_done = true;
    return 0;
}

/* Where the target table's current row is: 0, 1 (no row: a LEFT join's
 * NULL row), -1 with err. */
static int target_row(sql_cursor *c, size_t tab, jet_rowid *id,
                      sql_error *err)
{
    const tcur *t = &c->t[tab];
    if (t->null_row)
        return 1;
    if (t->memo_hit && t->memo_cur.state == 1) {
        id->pgno = t->memo_cur.pgno;
        id->row = t->memo_cur.row;
        return 0;
    }
    if (!t->vals && t->scan &&
        jet_scan_position(t->scan, &id->pgno, &id->row) == JET_OK)
        return 0;
    sql_set_error(err, "HYC00", 0, "not supported yet: this join reads the "
                  "table to change from stored rows (a hash join); index the "
                  "joined column of the other table");
    return -1;
}

static int cmp_rowid(const void *a, const void *b)
{
    const jet_rowid *x = a, *y = b;
    if (x->pgno != y->pgno)
        return x->pgno < y->pgno ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Columns of td an INSERT does not name: their DefaultValue, else NULL
 * (an AutoNumber's next number). 0, or an error code with err. */
static int insert_defaults(sql_dml_exec *x, jet_value *vals, sql_error *err)
{
    int rc;
    if (x->ndefs && !x->defs_done && (rc = eval_defaults(x, err)) != 0)
        return rc;
    for (size_t j = 0; j < x->nomit; j++) {
        uint16_t k = x->omit[j];
        if (x->omit_def[j] >= 0) {
            vals[k] = x->def_vals[x->omit_def[j]];
        } else {
            vals[k].type = x->td->cols[k].type;
            vals[k].is_null = true;
        }
    }
    return 0;
}

/* Parameter p as the query part would give it: the value the engine
 * reads for a bare ? (set_params: text decoded to UTF-16) in the type
 * sql_cursor_value_own gives its kind, so coerce sees what it sees on
 * the cursor path. */
static int param_in(sql_dml_exec *x, size_t item, const jet_value *p,
                    jet_value *out, sql_error *err)
{
    sql_cursor *c = x->conv;
    dml_run *r = &x->run;
    jet_value none;
    sv s;
    if (!p) {
        memset(&none, 0, sizeof none);
        none.is_null = true;
        p = &none;
    }
    if (sql_value_to_sv(c, p, &s, &r->conv.u16, &r->conv.u16_cap) != 0) {
        *err = *sql_cursor_error(c);
        return -1;
    }
    jet_type t = sql_sv_type(&s, x->td->cols[x->cols[item]].type);
    if (sql_sv_to_value(c, &s, t, &x->pbuf, &x->pbuf_cap, out) != 0) {
        size_t pos = x->conv->st->cols[item].e->position;
        sql_set_error(err, "22018", pos, "Data type mismatch in expression "
                      "(at character %zu)", pos);
        return -1;
    }
    return 0;
}

/* collect for a direct INSERT (x->direct): the one row from params. */
static int collect_params(sql_statement *s, const jet_value *params,
                          sql_error *err)
{
    sql_dml_exec *x = s->dml;
    dml_run *r = &x->run;
    jet_rowid *idp;
    jet_value *vals;
    int rc;
    if (!x->conv &&
        (rc = sql_cursor_open(&x->conv, s->query, NULL, NULL, err)) != 0)
        return rc;
    sql_tmp_reset(x->conv);
    if (run_add(r, x->width, &idp, &vals) != 0) {
        sql_set_nomem(err, 0);
        return JET_ENOMEM;
    }
    idp->pgno = 0;
    idp->row = 0;
    for (size_t i = 0; i < x->ncols; i++) {
        jet_value in;
        if (param_in(x, i, params ? &params[x->pidx[i]] : NULL, &in,
                     err) != 0 ||
            coerce(x->conv, r, &in, &x->td->cols[x->cols[i]],
                   &vals[x->cols[i]], err) != 0 ||
            keep_span(r, &vals[x->cols[i]]) != 0) {
            if (!err->sqlstate[0] && !err->rc)
                sql_set_nomem(err, 0);
            return sql_error_code(err);
        }
    }
    return insert_defaults(x, vals, err);
}

/* Run the query part to its end, collecting what will be written. */
static int collect(sql_statement *s, const jet_value *params,
                   const sql_cursor_opts *opts, sql_error *err)
{
    sql_dml_exec *x = s->dml;
    dml_run *r = &x->run;
    sql_cursor *c = NULL;
    if (x->direct)
        return collect_params(s, params, err);
    sql_cursor_opts o;
    if (opts)
        o = *opts;
    else
        memset(&o, 0, sizeof o);
    o.max_rows = 0;
    int rc = sql_cursor_open(&c, s->query, params, &o, err);
    if (rc != 0)
        return rc;
    if (x->verb != KW_INSERT &&
        (c->mode != MODE_STREAM || s->query->tabs[x->tab].method == M_HASH ||
         s->query->tabs[x->tab].method == M_LOOP)) {
        sql_cursor_close(c);
        sql_set_error(err, "HY000", 0, "Operation must use an updateable "
                      "query");
        return JET_EUNSUPPORTED;
    }
    bool positioned = o.only_row && x->verb != KW_INSERT;
    if (positioned && x->verb == KW_DELETE) {
        /* a positioned delete: the row itself, no query */
        jet_rowid *idp;
        jet_value *vals;
        if (run_add(r, x->width, &idp, &vals) != 0) {
            sql_set_nomem(err, 0);
            rc = JET_ENOMEM;
            goto out;
        }
        idp->pgno = o.only_pgno;
        idp->row = o.only_slot;
        rc = JET_DONE;
    }
    while (rc != JET_DONE && (rc = sql_cursor_next(c)) == JET_OK) {
        jet_rowid id = { 0, 0 }, *idp;
        jet_value *vals;
        if (positioned) {
            /* a positioned update: the SET values (constants and
             * parameters) of the first row the query gives, written to
             * the one row asked for */
            id.pgno = o.only_pgno;
            id.row = o.only_slot;
        } else if (x->verb != KW_INSERT) {
            int t = target_row(c, x->tab, &id, err);
            if (t < 0) {
                rc = JET_EUNSUPPORTED;
                goto out;
            }
            if (t > 0)
                continue;
        }
        if (run_add(r, x->width, &idp, &vals) != 0) {
            sql_set_nomem(err, 0);
            rc = JET_ENOMEM;
            goto out;
        }
        *idp = id;
        for (size_t i = 0; i < x->ncols; i++) {
            jet_value in;
            if ((rc = sql_cursor_value_own(c, i, &in)) != JET_OK) {
                *err = *sql_cursor_error(c);
                goto out;
            }
            const jet_column *col = &x->td->cols[x->cols[i]];
            jet_value *slot = x->verb == KW_INSERT ? &vals[x->cols[i]]
                                                   : &vals[i];
            if (coerce(c, r, &in, col, slot, err) != 0 ||
                keep_span(r, slot) != 0) {
                if (!err->sqlstate[0] && !err->rc)
                    sql_set_nomem(err, 0);
                rc = sql_error_code(err);
                goto out;
            }
        }
        if (x->verb == KW_INSERT &&
            (rc = insert_defaults(x, vals, err)) != 0)
            goto out;
        if (positioned) {
            rc = JET_DONE;
            break;
        }
    }
    if (rc == JET_DONE)
        rc = 0;
    else
        *err = *sql_cursor_error(c);
out:
    sql_cursor_close(c);
    if (rc == 0 && x->verb != KW_INSERT && r->n > 1) {
        /* one change per row, whichever join row reached it first */
        size_t w = x->width;
        if (w == 0) {
            qsort(r->ids, r->n, sizeof *r->ids, cmp_rowid);
            size_t k = 0;
            for (size_t i = 0; i < r->n; i++)
                if (k == 0 || cmp_rowid(&r->ids[k - 1], &r->ids[i]))
                    r->ids[k++] = r->ids[i];
            r->n = k;
        } else {
            /* SET values that came from different join rows: which one
             * Access would leave depends on its order of work (and a SET
             * reading the target's own columns sees the earlier change),
             * so such a statement is refused. A sorted copy finds a
             * repeated row in n log n. */
            jet_rowid *ids = malloc(r->n * sizeof *ids);
            if (!ids) {
                sql_set_nomem(err, 0);
                return JET_ENOMEM;
            }
            memcpy(ids, r->ids, r->n * sizeof *ids);
            qsort(ids, r->n, sizeof *ids, cmp_rowid);
            bool twice = false;
            for (size_t i = 1; i < r->n && !twice; i++)
                twice = cmp_rowid(&ids[i - 1], &ids[i]) == 0;
            free(ids);
            if (twice) {
                sql_set_error(err, "HY000", 0, "Operation must use an "
                              "updateable query: a row of '%s' is joined "
                              "to more than one row", x->td->name);
                return JET_EUNSUPPORTED;
            }
        }
    }
    return rc;
}

/* ---------------------------------------------------------- writing */

static int core_failed(jet_db *db, jet_rc rc, sql_error *err)
{
    const jet_error *je = jet_db_error(db);
    memset(err, 0, sizeof *err);
    err->rc = rc;
    err->pgno = je->pgno;
    snprintf(err->msg, sizeof err->msg, "%s", je->msg[0] ? je->msg
                                                         : jet_rc_str(rc));
    return rc;
}

/* UPDATE: each collected row read whole, its SET columns replaced. */
static int write_updates(sql_dml_exec *x, sql_error *err)
{
    dml_run *r = &x->run;
    jet_scan *scan = NULL;
    jet_rc rc = jet_scan_open(&scan, x->db, x->td, NULL);
    if (rc != JET_OK)
        return core_failed(x->db, rc, err);
    size_t nc = x->td->ncols;
    jet_value *row = calloc(nc ? nc : 1, sizeof *row);
    sql_arena_chunk *tmp = NULL;
    if (!row) {
        jet_scan_close(scan);
        sql_set_nomem(err, 0);
        return JET_ENOMEM;
    }
    for (size_t i = 0; i < r->n && rc == JET_OK; i++) {
        rc = jet_scan_fetch_row(scan, r->ids[i].pgno, r->ids[i].row);
        for (size_t k = 0; k < nc && rc == JET_OK; k++) {
            rc = jet_scan_value(scan, (uint16_t)k, &row[k]);
            if (rc == JET_OK && !row[k].is_null && row[k].data &&
                row[k].len) {
                uint8_t *p = sql_chunk_take(&tmp, row[k].len, 64 * 1024,
                                            NULL);
                if (!p) {
                    rc = JET_ENOMEM;
                    break;
                }
                memcpy(p, row[k].data, row[k].len);
                row[k].data = p;
            }
        }
        if (rc != JET_OK) {
            const jet_error *je = jet_scan_error(scan);
            memset(err, 0, sizeof *err);
            err->rc = rc;
            err->pgno = je->pgno;
            snprintf(err->msg, sizeof err->msg, "%s", je->msg);
            break;
        }
        const jet_value *set = &r->vals[i * x->width];
        for (size_t j = 0; j < x->ncols; j++)
            row[x->cols[j]] = set[j];
        rc = jet_table_update(x->db, x->td, r->ids[i], row);
        if (rc != JET_OK)
            core_failed(x->db, rc, err);
        if (tmp) {
            sql_arena_chunk *rest = tmp->next;
            tmp->next = NULL;
            tmp->used = 0;
            sql_chunk_free_all(&rest);
        }
    }
    sql_chunk_free_all(&tmp);
    free(row);
    jet_scan_close(scan);
    return rc;
}

static int write_rows(sql_dml_exec *x, sql_error *err)
{
    dml_run *r = &x->run;
    if (x->verb == KW_UPDATE)
        return write_updates(x, err);
    for (size_t i = 0; i < r->n; i++) {
        jet_rc rc;
        if (x->verb == KW_DELETE) {
            rc = jet_table_delete(x->db, x->td, r->ids[i]);
            if (rc == JET_ENOTFOUND) {
                /* a cascading delete of an earlier row took it (a
                 * relationship of the table with itself) */
                x->cascaded_away++;
                continue;
            }
        } else {
            jet_value *v = &r->vals[i * x->width];
            rc = jet_table_insert(x->db, x->td, v, &x->last_row);
            x->has_last_row = rc == JET_OK;
            if (rc == JET_OK)
                for (size_t k = 0; k < x->td->ncols; k++)
                    if ((x->td->cols[k].flags & JET_COL_AUTONUMBER) &&
                        !v[k].is_null)
                        x->last_identity = v[k].u.i;
        }
        if (rc != JET_OK)
            return core_failed(x->db, rc, err);
    }
    return 0;
}

static int dml_execute(sql_statement *s, const jet_value *params,
                       const sql_cursor_opts *opts, sql_cursor **cur,
                       sql_error *err)
{
    sql_dml_exec *x = s->dml;
    jet_db *db = x->db;
    *cur = NULL;
    s->row_count = -1;
    x->last_identity = 0;
    x->has_last_row = false;
    x->cascaded_away = 0;
    memset(err, 0, sizeof *err);
    bool began = false, have_sp = false;
    jet_savepoint sp = 0;
    jet_rc rc;
    if (!jet_db_in_write(db)) {
        if ((rc = jet_db_write_begin(db)) != JET_OK)
            return core_failed(db, rc, err);
        began = true;
    }
    /* the statement's savepoint, unless the caller's encloses it (then a
     * failure here is rolled back there) */
    bool own_sp = began || !opts || !opts->enclosed;
    if ((rc = jet_table_check_writable(db, x->td)) != JET_OK ||
        (own_sp && (rc = jet_db_savepoint(db, &sp)) != JET_OK)) {
        core_failed(db, rc, err);
        goto fail;
    }
    have_sp = own_sp;
    run_reset(&x->run);
    x->defs_done = false;
    if ((rc = collect(s, params, opts, err)) != 0)
        goto fail;
    if ((rc = write_rows(x, err)) != 0)
        goto fail;
    if (have_sp)
        jet_db_release(db, sp);
    if (began && (rc = jet_db_write_commit(db)) != JET_OK) {
        core_failed(db, rc, err);
        return rc;
    }
    s->row_count = (int64_t)(x->run.n - x->cascaded_away);
    run_reset(&x->run);
    return 0;
fail:
    x->has_last_row = false;
    if (have_sp) {
        jet_db_rollback_to(db, sp);
        jet_db_release(db, sp);
    }
    if (began)
        jet_db_write_rollback(db);
    run_reset(&x->run);
    return rc < 0 ? rc : JET_EUNSUPPORTED;
}

static void dml_free(sql_statement *s)
{
    sql_dml_exec *x = s->dml;
    if (x) {
        run_free(&x->run);
        sql_cursor_close(x->conv);
        free(x->pidx);
        free(x->pbuf);
        free(x->cols);
        for (size_t j = 0; j < x->ndefs; j++)
            sql_stmt_free(x->defs[j]);
        free(x->defs);
        free(x->def_vals);
        free(x->def_volatile);
        free(x->def_known);
        sql_chunk_free_all(&x->def_mem);
        free(x->omit);
        free(x->omit_def);
        free(x);
    }
    s->dml = NULL;
    sql_stmt_free(s->query);
    s->query = NULL;
}

int64_t sql_statement_last_identity(const sql_statement *s)
{
    return s->dml ? s->dml->last_identity : 0;
}

bool sql_statement_last_row(const sql_statement *s, uint32_t *pgno,
                            uint16_t *slot)
{
    if (!s->dml || !s->dml->has_last_row)
        return false;
    *pgno = s->dml->last_row.pgno;
    *slot = s->dml->last_row.row;
    return true;
}

const sql_executor sql_dml_executor = {
    SQL_KIND_DML, "DML", dml_prepare, dml_execute, dml_free
};
