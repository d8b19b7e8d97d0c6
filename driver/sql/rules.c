/*
 * rules.c - Access's expression rules of a table, evaluated by the
 * engine for the write path: ValidationRule / ValidationText of columns
 * and tables (every inserted or updated row), DefaultValue (the columns
 * an INSERT omits). The core reads the properties (core/tableprops.c)
 * and evaluates no expression; this file is the row check it calls
 * (jet_db_set_row_check: attaching it is the handshake that makes
 * tables with validation rules writable).
 *
 * A rule is run as a statement of the engine: for table T with columns
 * c1..cn,
 *     PARAMETERS [c1] type1, ..., [cn] typen; SELECT (rule1), (rule2), ..
 * opened with the new row's values as its parameters, so a rule names
 * the row's columns as Access's do and every function and operator of
 * the engine is there. A column's rule may leave out its column: an
 * operator where an operand is due (at the start, after And/Or/Not/( )
 * gets the column put before it (">0 And <=100" reads "[C] >0 And [C]
 * <=100", "Is Null Or Like 'A*'" likewise), and a rule that is no
 * comparison at all is one of equality ("'x'" reads "[C] = ('x')"), as
 * Jackcess's Expressionator reads them (FIELD_VALIDATOR). A rule fails
 * only when it comes out False: Null passes, as in Access.
 *
 * A refused row: 23000 with the ValidationText, or Access's message
 * "One or more values are prohibited by the validation rule '<rule>' set
 * for '<T>.<C>'. Enter a value that the expression for this field can
 * accept." ('<T>' for the table's rule). A rule the engine cannot
 * prepare or evaluate refuses every write of the table (HYC00): a rule
 * is never skipped.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "rules.h"
#include "spill.h"
#include "sql_internal.h"
#include "write.h"

/* One rule of a table: its column (-1 the table's), text and message. */
typedef struct rule_ref {
    int col;
    const char *rule;           /* as stored (owned by the tdef) */
    const char *text;           /* ValidationText, or NULL */
} rule_ref;

/* A table's rules as one prepared statement (or why it has none). */
typedef struct table_rules table_rules;
struct table_rules {
    table_rules *next;
    const jet_tdef *t;
    sql_stmt *st;               /* output column i: rules[i] */
    rule_ref *rules;
    size_t n;
    jet_rc fail_rc;             /* JET_OK, or why no write is allowed */
    char fail_msg[256];
};

/* The row check's context: the tables met so far (a connection's). */
typedef struct rules_ctx {
    table_rules *tables;
} rules_ctx;

/* ------------------------------------------------------------- text */

/* The PARAMETERS type naming column type t (Value when none does). */
static const char *param_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: return "Bit";
    case JET_T_BYTE: return "Byte";
    case JET_T_INT: return "Short";
    case JET_T_LONG: return "Long";
    case JET_T_MONEY: return "Currency";
    case JET_T_FLOAT: return "IEEESingle";
    case JET_T_DOUBLE: return "IEEEDouble";
    case JET_T_DATETIME: return "DateTime";
    case JET_T_TEXT: return "Text";
    case JET_T_MEMO: return "Memo";
    case JET_T_BINARY: return "Binary";
    case JET_T_OLE: return "LongBinary";
    case JET_T_GUID: return "Guid";
    case JET_T_NUMERIC: return "Decimal";
    default: return "Value";
    }
}

/* "PARAMETERS [c1] t1, ...; SELECT " for table t into b. */
static void params_clause(sql_sbuf *b, const jet_tdef *t)
{
    sql_sb_add(b, "PARAMETERS ");
    for (uint16_t i = 0; i < t->ncols; i++) {
        if (i)
            sql_sb_add(b, ", ");
        sql_sb_add(b, "[");
        sql_sb_add(b, t->cols[i].name);
        sql_sb_add(b, "] ");
        sql_sb_add(b, param_type(t->cols[i].type));
    }
    sql_sb_add(b, "; SELECT ");
}

static bool is_cmp_op(const sql_token *k)
{
    static const char *const ops[] = { "=", "<>", "!=", "<", "<=", ">",
                                       ">=" };
    if (k->kind != TOK_OP)
        return false;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (k->len == strlen(ops[i]) && !memcmp(k->start, ops[i], k->len))
            return true;
    return false;
}

static bool is_kw(const sql_token *k, sql_kw kw)
{
    return k->kind == TOK_IDENT && k->kw == kw;
}

/*
 * A column's rule with its column put where an operand is due before an
 * operator (see the top comment), into out (the column as [name]).
 * 0, or -1 with err (the rule does not lex: 42000).
 */
static int implicit_operand(sql_sbuf *out, const char *rule, const char *col,
                            sql_error *err)
{
    sql_arena arena = { 0 };
    sql_lexer lx;
    sql_token *toks = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    sql_lexer_init(&lx, rule, strlen(rule), &arena, err);
    for (;;) {
        sql_token k;
        if (sql_lex_next(&lx, &k) != 0) {
            rc = -1;
            goto out;
        }
        if (k.kind == TOK_EOF)
            break;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 32;
            sql_token *nt = realloc(toks, ncap * sizeof *nt);
            if (!nt) {
                sql_set_nomem(err, 0);
                rc = -1;
                goto out;
            }
            toks = nt;
            cap = ncap;
        }
        toks[n++] = k;
    }
    size_t from = 0;            /* bytes of rule copied so far */
    bool expect = true;         /* an operand is due */
    for (size_t i = 0; i < n; i++) {
        const sql_token *k = &toks[i];
        bool op = is_cmp_op(k) || is_kw(k, KW_LIKE) ||
                  is_kw(k, KW_BETWEEN) || is_kw(k, KW_IN) ||
                  is_kw(k, KW_IS) ||
                  (is_kw(k, KW_NOT) && i + 1 < n &&
                   (is_kw(&toks[i + 1], KW_LIKE) ||
                    is_kw(&toks[i + 1], KW_BETWEEN) ||
                    is_kw(&toks[i + 1], KW_IN)));
        if (expect && op) {
            size_t at = (size_t)(k->start - rule);
            sql_sb_addn(out, rule + from, at - from);
            sql_sb_add(out, "[");
            sql_sb_add(out, col);
            sql_sb_add(out, "] ");
            from = at;
        }
        if (op || k->kind == TOK_OP || k->kind == TOK_COMMA ||
            k->kind == TOK_LPAREN || is_kw(k, KW_AND) || is_kw(k, KW_OR) ||
            is_kw(k, KW_XOR) || is_kw(k, KW_NOT) || is_kw(k, KW_MOD))
            expect = true;
        else
            expect = false;
    }
    sql_sb_add(out, rule + from);
out:
    free(toks);
    sql_arena_free(&arena);
    return rc;
}

/* Whether e is a truth test (a comparison, Like, Is Null, Between, In,
 * And/Or/Xor/Not), not a value to compare the column with (a constant,
 * True included: "True" on a Yes/No column reads "[C] = (True)"). */
static bool is_condition(const sql_expr *e)
{
    static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=",
                                       "LIKE", "AND", "OR", "XOR" };
    switch (e->kind) {
    case EXPR_IS_NULL: case EXPR_BETWEEN: case EXPR_IN: case EXPR_EXISTS:
    case EXPR_QUANT:
        return true;
    case EXPR_UNARY:
        return e->op && !strcasecmp(e->op, "NOT");
    case EXPR_BINARY:
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (e->op && !strcasecmp(e->op, ops[i]))
                return true;
        return false;
    default:
        return false;
    }
}

/*
 * Column col's rule as a whole condition into out: the implicit operand
 * put in, and "[C] = (...)" around a rule that is a value. 0, or -1
 * with err (the rule does not parse).
 */
static int column_condition(sql_sbuf *out, const char *rule, const char *col,
                            sql_error *err)
{
    sql_sbuf r = { 0 }, q = { 0 };
    sql_query *pq = NULL;
    int rc = implicit_operand(&r, rule, col, err);
    if (rc == 0) {
        sql_sb_add(&q, "SELECT ");
        sql_sb_add(&q, r.s ? r.s : "");
        if (q.oom || r.oom) {
            sql_set_nomem(err, 0);
            rc = -1;
        }
    }
    if (rc == 0 && (rc = sql_parse_query(&pq, q.s, q.len, err)) == 0) {
        if (pq->sel.nitems != 1 || pq->nfrom || pq->union_next) {
            sql_set_error(err, "42000", 0, "not one expression");
            rc = -1;
        } else if (is_condition(pq->sel.items[0].expr)) {
            sql_sb_add(out, r.s);
        } else {
            sql_sb_add(out, "[");
            sql_sb_add(out, col);
            sql_sb_add(out, "] = (");
            sql_sb_add(out, r.s);
            sql_sb_add(out, ")");
        }
    }
    if (pq)
        sql_select_free(&pq->sel);
    free(r.s);
    free(q.s);
    return rc;
}

/* --------------------------------------------------------- preparing */

static void table_rules_free(table_rules *tr)
{
    if (!tr)
        return;
    sql_stmt_free(tr->st);
    free(tr->rules);
    free(tr);
}

/* The refusal of every write of tr's table: a rule that is not an
 * expression the engine evaluates (HYC00). */
static void cannot(table_rules *tr, const rule_ref *r, sql_error *err)
{
    const jet_tdef *t = tr->t;
    const char *why = err->msg;
    sql_error_in_saved(err, NULL, 0);   /* no positions in our text */
    tr->fail_rc = JET_EUNSUPPORTED;
    if (r->col >= 0)
        snprintf(tr->fail_msg, sizeof tr->fail_msg, "the validation rule "
                 "'%s' set for '%s.%s' is not an expression this driver "
                 "evaluates (%.120s): writing the table is not supported",
                 r->rule, t->name, t->cols[r->col].name, why);
    else
        snprintf(tr->fail_msg, sizeof tr->fail_msg, "the validation rule "
                 "'%s' set for '%s' is not an expression this driver "
                 "evaluates (%.120s): writing the table is not supported",
                 r->rule, t->name, why);
}

/* Build tr (its rules from props, one statement for them all). JET_OK
 * (tr->fail_rc may say no write is allowed) or JET_ENOMEM. */
static jet_rc prepare_rules(table_rules *tr, jet_db *db,
                            const jet_table_props *props)
{
    const jet_tdef *t = tr->t;
    size_t n = props->validation_rule ? 1 : 0;
    for (uint16_t i = 0; i < props->ncols; i++)
        n += props->cols[i].validation_rule != NULL;
    tr->rules = calloc(n ? n : 1, sizeof *tr->rules);
    if (!tr->rules)
        return JET_ENOMEM;
    for (uint16_t i = 0; i < props->ncols && i < t->ncols; i++)
        if (props->cols[i].validation_rule) {
            rule_ref *r = &tr->rules[tr->n++];
            r->col = i;
            r->rule = props->cols[i].validation_rule;
            r->text = props->cols[i].validation_text;
        }
    if (props->validation_rule) {
        rule_ref *r = &tr->rules[tr->n++];
        r->col = -1;
        r->rule = props->validation_rule;
        r->text = props->validation_text;
    }
    if (tr->n == 0)
        return JET_OK;
    sql_sbuf b = { 0 };
    params_clause(&b, t);
    for (size_t i = 0; i < tr->n; i++) {
        const rule_ref *r = &tr->rules[i];
        sql_error err;
        memset(&err, 0, sizeof err);
        if (i)
            sql_sb_add(&b, ", ");
        sql_sb_add(&b, "(");
        if (r->col < 0)
            sql_sb_add(&b, r->rule);
        else if (column_condition(&b, r->rule, t->cols[r->col].name,
                                  &err) != 0) {
            free(b.s);
            if (err.rc == JET_ENOMEM)
                return JET_ENOMEM;
            cannot(tr, r, &err);
            return JET_OK;
        }
        sql_sb_add(&b, ")");
    }
    if (b.oom) {
        free(b.s);
        return JET_ENOMEM;
    }
    sql_error err;
    int rc = sql_stmt_prepare(&tr->st, db, b.s, b.len, NULL, &err);
    free(b.s);
    if (rc == 0 && sql_stmt_ncols(tr->st) != tr->n) {
        sql_stmt_free(tr->st);
        tr->st = NULL;
        sql_set_error(&err, "42000", 0, "not one expression per rule");
        rc = -1;
    }
    if (rc != 0) {
        if (err.rc == JET_ENOMEM)
            return JET_ENOMEM;
        /* which rule: each alone (the message names it) */
        for (size_t i = 0; i < tr->n; i++) {
            sql_sbuf one = { 0 };
            sql_stmt *st = NULL;
            sql_error e1;
            memset(&e1, 0, sizeof e1);
            params_clause(&one, t);
            const rule_ref *r = &tr->rules[i];
            int r1 = 0;
            if (r->col < 0)
                sql_sb_add(&one, r->rule);
            else
                r1 = column_condition(&one, r->rule, t->cols[r->col].name,
                                      &e1);
            if (one.oom) {
                free(one.s);
                return JET_ENOMEM;
            }
            if (r1 == 0)
                r1 = sql_stmt_prepare(&st, db, one.s, one.len, NULL, &e1);
            sql_stmt_free(st);
            free(one.s);
            if (r1 != 0) {
                cannot(tr, r, &e1);
                return JET_OK;
            }
        }
        cannot(tr, &tr->rules[0], &err);
    }
    return JET_OK;
}

/* tr of table t, prepared on first use. NULL when memory ran out. */
static table_rules *rules_of(rules_ctx *x, jet_db *db, const jet_tdef *t,
                             const jet_table_props *props)
{
    for (table_rules *tr = x->tables; tr; tr = tr->next)
        if (tr->t == t)
            return tr;
    table_rules *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->t = t;
    if (prepare_rules(tr, db, props) != JET_OK) {
        table_rules_free(tr);
        return NULL;
    }
    tr->next = x->tables;
    x->tables = tr;
    return tr;
}

/* -------------------------------------------------------- the check */

/* Access's message for a row r refuses, into db->err (JET_ECONSTRAINT). */
static jet_rc refuse(jet_error *e, const jet_tdef *t, const rule_ref *r)
{
    memset(e, 0, sizeof *e);
    e->rc = JET_ECONSTRAINT;
    e->pgno = t->pgno;
    if (r->text)
        snprintf(e->msg, sizeof e->msg, "%s", r->text);
    else if (r->col >= 0)
        snprintf(e->msg, sizeof e->msg, "%s '%s' set for '%s.%s'.",
                 SQL_RULE_PROHIBITED, r->rule, t->name,
                 t->cols[r->col].name);
    else
        snprintf(e->msg, sizeof e->msg, "%s '%s' set for '%s'.",
                 SQL_RULE_PROHIBITED, r->rule, t->name);
    return JET_ECONSTRAINT;
}

static jet_rc fail_with(jet_error *e, const jet_tdef *t, jet_rc rc,
                        const char *msg)
{
    memset(e, 0, sizeof *e);
    e->rc = rc;
    e->pgno = t->pgno;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    return rc;
}

/* Truth of a rule's value: 1 passes (True or Null), 0 fails, -1 no truth
 * value (text, bytes). */
static int passes(const jet_value *v)
{
    if (v->is_null)
        return 1;
    switch (v->type) {
    case JET_T_BOOL:
        return v->u.b;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        return v->u.i != 0;
    case JET_T_MONEY:
        return v->u.money != 0;
    case JET_T_FLOAT:
        return v->u.f != 0;
    case JET_T_DOUBLE: case JET_T_DATETIME:
        return v->u.d != 0;
    default:
        return -1;
    }
}

static jet_rc check_row(void *ctx, jet_db *db, const jet_tdef *t,
                        const jet_table_props *props, const jet_value *vals,
                        jet_error *e)
{
    rules_ctx *x = ctx;
    table_rules *tr = rules_of(x, db, t, props);
    if (!tr)
        return fail_with(e, t, JET_ENOMEM, "out of memory");
    if (tr->fail_rc != JET_OK)
        return fail_with(e, t, tr->fail_rc, tr->fail_msg);
    if (!tr->st)
        return JET_OK;
    /* a Yes/No column holds no Null: one given Null is stored No */
    jet_value *own = NULL;
    for (uint16_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].type != JET_T_BOOL || !vals[i].is_null)
            continue;
        if (!own) {
            own = malloc(t->ncols * sizeof *own);
            if (!own)
                return fail_with(e, t, JET_ENOMEM, "out of memory");
            memcpy(own, vals, t->ncols * sizeof *own);
        }
        own[i].is_null = false;
        own[i].u.b = false;
    }
    sql_cursor *c = NULL;
    sql_error err;
    int rc = sql_cursor_open(&c, tr->st, own ? own : vals, NULL, &err);
    free(own);
    if (rc == 0 && (rc = sql_cursor_next(c)) != JET_OK)
        err = *sql_cursor_error(c);
    for (size_t i = 0; rc == JET_OK && i < tr->n; i++) {
        jet_value v;
        if ((rc = sql_cursor_value_own(c, i, &v)) != JET_OK) {
            err = *sql_cursor_error(c);
            break;
        }
        int p = passes(&v);
        if (p == 1)
            continue;
        sql_cursor_close(c);
        if (p == 0)
            return refuse(e, t, &tr->rules[i]);
        table_rules probe = { .t = t };
        sql_set_error(&err, "HYC00", 0, "it gives no True or False");
        cannot(&probe, &tr->rules[i], &err);
        return fail_with(e, t, JET_EUNSUPPORTED, probe.fail_msg);
    }
    sql_cursor_close(c);
    if (rc == JET_OK)
        return JET_OK;
    if (err.rc == JET_ENOMEM)
        return fail_with(e, t, JET_ENOMEM, "out of memory");
    /* an error evaluating a rule (a conversion, an overflow): the row
     * is not known to pass, so it is not written */
    char msg[256];
    sql_error_in_saved(&err, NULL, 0);
    snprintf(msg, sizeof msg, "a validation rule of '%s' could not be "
             "evaluated for this row (%s%s%.150s)", t->name, err.sqlstate,
             err.sqlstate[0] ? ": " : "", err.msg);
    return fail_with(e, t, JET_EUNSUPPORTED, msg);
}

static void ctx_free(void *ctx)
{
    rules_ctx *x = ctx;
    if (!x)
        return;
    while (x->tables) {
        table_rules *next = x->tables->next;
        table_rules_free(x->tables);
        x->tables = next;
    }
    free(x);
}

int sql_rules_attach(jet_db *db)
{
    rules_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    jet_db_set_row_check(db, check_row, ctx_free, x);
    return 0;
}

/* ---------------------------------------------------------- defaults */

/* Whether s (n bytes) is one bare word: letters, digits, _ only. */
static bool bare_word(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!(ch >= 0x80 || ch == '_' || (ch >= '0' && ch <= '9') ||
              (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
            return false;
    }
    return !(s[0] >= '0' && s[0] <= '9');
}

int sql_default_prepare(sql_stmt **out, jet_db *db, const jet_tdef *t,
                        uint16_t col, const char *expr, sql_error *err)
{
    *out = NULL;
    while (*expr == ' ' || *expr == '\t')
        expr++;
    if (*expr == '=')
        expr++;
    while (*expr == ' ' || *expr == '\t')
        expr++;
    size_t n = strlen(expr);
    sql_sbuf b = { 0 };
    sql_sb_add(&b, "SELECT ");
    /* Yes/No/On/Off are Access's constants; another bare word that names
     * nothing is its own text (Access: a default of hello is "hello") */
    static const char *const yes[] = { "Yes", "On", "True" };
    static const char *const no[] = { "No", "Off", "False" };
    bool done = false;
    for (size_t i = 0; i < 3 && !done; i++) {
        if (!strcasecmp(expr, yes[i])) {
            sql_sb_add(&b, "True");
            done = true;
        } else if (!strcasecmp(expr, no[i])) {
            sql_sb_add(&b, "False");
            done = true;
        }
    }
    if (!done)
        sql_sb_add(&b, expr);
    if (b.oom) {
        free(b.s);
        sql_set_nomem(err, 0);
        return -1;
    }
    int rc = sql_stmt_prepare(out, db, b.s, b.len, NULL, err);
    if (rc != 0 && err->rc != JET_ENOMEM && bare_word(expr, n) && !done) {
        /* the word as text */
        b.len = 0;
        sql_sb_add(&b, "SELECT '");
        sql_sb_add(&b, expr);
        sql_sb_add(&b, "'");
        if (b.oom) {
            free(b.s);
            sql_set_nomem(err, 0);
            return -1;
        }
        rc = sql_stmt_prepare(out, db, b.s, b.len, NULL, err);
    }
    free(b.s);
    if (rc == 0 && sql_stmt_ncols(*out) != 1) {
        sql_stmt_free(*out);
        *out = NULL;
        sql_set_error(err, "42000", 0, "not one expression");
        rc = -1;
    }
    if (rc != 0 && err->rc != JET_ENOMEM) {
        char why[200];
        sql_error_in_saved(err, NULL, 0);   /* no positions in our text */
        snprintf(why, sizeof why, "%.199s", err->msg);
        sql_set_error(err, "HYC00", 0, "not supported: the DefaultValue "
                      "'%s' set for '%s.%s' is not an expression this "
                      "driver evaluates (%s)", expr, t->name,
                      t->cols[col].name, why);
        err->rc = 0;
    }
    return rc != 0 ? -1 : 0;
}
