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
#include "eval.h"
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

/* A calculated column of a table: where its value goes and how it is
 * converted. */
typedef struct calc_col {
    uint16_t col;               /* its position in the tdef */
    const char *expr;           /* its Expression (owned by the tdef) */
    int level;                  /* 0: names no calculated column; else one
                                   more than the deepest it names */
    jet_column rcol;            /* the column as its value: result_type,
                                   TEXT's length less the 23 wrapper bytes */
    uint8_t *buf;               /* the computed value's span */
    size_t cap;
} calc_col;

/* The calculated columns of one level as one statement: output j is
 * calc[idx[j]]; a level's expressions name only lower levels' columns. */
typedef struct calc_level {
    sql_stmt *st;
    size_t *idx;
    size_t n;
} calc_level;

/* A table's rules as one prepared statement (or why it has none), and
 * its calculated columns as one statement per level. */
typedef struct table_rules table_rules;
struct table_rules {
    table_rules *next;
    const jet_tdef *t;
    sql_stmt *st;               /* output column i: rules[i] */
    rule_ref *rules;
    size_t n;
    calc_col *calc;
    size_t ncalc;
    calc_level *levels;         /* evaluated in order */
    size_t nlevels;
    sql_conv_buf conv;          /* the conversions' scratch */
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

/* "PARAMETERS [c1] t1, ...; SELECT " for table t into b (a calculated
 * column's parameter is of its result type: the value the row holds). */
static void params_clause(sql_sbuf *b, const jet_tdef *t)
{
    sql_sb_add(b, "PARAMETERS ");
    for (uint16_t i = 0; i < t->ncols; i++) {
        if (i)
            sql_sb_add(b, ", ");
        sql_sb_add(b, "[");
        sql_sb_add(b, t->cols[i].name);
        sql_sb_add(b, "] ");
        sql_sb_add(b, param_type(t->cols[i].result_type));
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
    for (size_t i = 0; i < tr->nlevels; i++) {
        sql_stmt_free(tr->levels[i].st);
        free(tr->levels[i].idx);
    }
    free(tr->levels);
    for (size_t i = 0; i < tr->ncalc; i++)
        free(tr->calc[i].buf);
    free(tr->calc);
    free(tr->conv.conv);
    free(tr->conv.u16);
    free(tr);
}

/* ------------------------------------------------- calculated columns */

/* The refusal of every write of tr's table: calculated column cc's
 * expression is none the engine evaluates (HYC00); why in err. */
static void cannot_calc(table_rules *tr, const calc_col *cc, const char *why)
{
    const jet_tdef *t = tr->t;
    tr->fail_rc = JET_EUNSUPPORTED;
    snprintf(tr->fail_msg, sizeof tr->fail_msg, "the expression '%s' of "
             "calculated column '%s.%s' is not one this driver evaluates "
             "(%.120s): writing the table is not supported",
             cc->expr ? cc->expr : "", t->name, t->cols[cc->col].name, why);
}

/* Whether expression expr names column name (a bare or bracketed word
 * equal to it, ignoring case: a word that only looks like it makes the
 * order stricter, never wrong). -1 when expr does not lex. */
static int names_column(const char *expr, const char *name)
{
    sql_arena arena = { 0 };
    sql_error err;
    sql_lexer lx;
    int found = 0;
    memset(&err, 0, sizeof err);
    sql_lexer_init(&lx, expr, strlen(expr), &arena, &err);
    for (;;) {
        sql_token k;
        if (sql_lex_next(&lx, &k) != 0) {
            found = -1;
            break;
        }
        if (k.kind == TOK_EOF)
            break;
        if ((k.kind == TOK_IDENT || k.kind == TOK_QIDENT) && k.text &&
            !strcasecmp(k.text, name)) {
            found = 1;
            break;
        }
    }
    sql_arena_free(&arena);
    return found;
}

/* "PARAMETERS ...; SELECT (e1), (e2), ..." for the columns of level lv
 * into b. */
static void level_query(sql_sbuf *b, const table_rules *tr,
                        const calc_level *lv)
{
    params_clause(b, tr->t);
    for (size_t j = 0; j < lv->n; j++) {
        if (j)
            sql_sb_add(b, ", ");
        sql_sb_add(b, "(");
        sql_sb_add(b, tr->calc[lv->idx[j]].expr);
        sql_sb_add(b, ")");
    }
}

/* Build tr's calculated columns: their order (levels) and one statement
 * per level. JET_OK (tr->fail_rc may say no write is allowed) or
 * JET_ENOMEM. */
static jet_rc prepare_calc(table_rules *tr, jet_db *db,
                           const jet_table_props *props)
{
    const jet_tdef *t = tr->t;
    size_t n = 0;
    for (uint16_t i = 0; i < t->ncols; i++)
        n += (t->cols[i].flags & JET_COL_CALCULATED) != 0;
    if (n == 0)
        return JET_OK;
    tr->calc = calloc(n, sizeof *tr->calc);
    bool *dep = calloc(n * n, sizeof *dep);     /* dep[a*n+b]: a names b */
    if (!tr->calc || !dep) {
        free(dep);
        return JET_ENOMEM;
    }
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        if (!(col->flags & JET_COL_CALCULATED))
            continue;
        calc_col *cc = &tr->calc[tr->ncalc++];
        cc->col = i;
        cc->expr = i < props->ncols ? props->cols[i].expression : NULL;
        cc->level = -1;
        cc->rcol = *col;
        cc->rcol.type = col->result_type;
        cc->rcol.flags = (uint16_t)(col->flags & ~JET_COL_CALCULATED);
        if (col->result_type == JET_T_TEXT)
            cc->rcol.length = col->length >= 23 ? col->length - 23 : 0;
    }
    for (size_t a = 0; a < n; a++) {
        calc_col *cc = &tr->calc[a];
        if (!cc->expr) {
            cannot_calc(tr, cc, "it has no Expression property");
            free(dep);
            return JET_OK;
        }
        for (size_t b = 0; b < n; b++) {
            int r = names_column(cc->expr, t->cols[tr->calc[b].col].name);
            if (r < 0) {
                cannot_calc(tr, cc, "it does not read as an expression");
                free(dep);
                return JET_OK;
            }
            dep[a * n + b] = r > 0;
        }
    }
    /* levels: a column after every calculated column it names */
    size_t done = 0;
    int maxlevel = -1;
    while (done < n) {
        size_t before = done;
        for (size_t a = 0; a < n; a++) {
            if (tr->calc[a].level >= 0)
                continue;
            int lv = 0;
            bool ready = true;
            for (size_t b = 0; b < n && ready; b++)
                if (dep[a * n + b]) {
                    if (b == a || tr->calc[b].level < 0)
                        ready = false;
                    else if (tr->calc[b].level + 1 > lv)
                        lv = tr->calc[b].level + 1;
                }
            if (ready) {
                tr->calc[a].level = lv;
                if (lv > maxlevel)
                    maxlevel = lv;
                done++;
            }
        }
        if (done == before) {
            for (size_t a = 0; a < n; a++)
                if (tr->calc[a].level < 0) {
                    cannot_calc(tr, &tr->calc[a], "its value depends on "
                                "itself");
                    break;
                }
            free(dep);
            return JET_OK;
        }
    }
    free(dep);
    tr->levels = calloc((size_t)maxlevel + 1, sizeof *tr->levels);
    if (!tr->levels)
        return JET_ENOMEM;
    tr->nlevels = (size_t)maxlevel + 1;
    for (size_t l = 0; l < tr->nlevels; l++) {
        calc_level *lv = &tr->levels[l];
        lv->idx = calloc(n, sizeof *lv->idx);
        if (!lv->idx)
            return JET_ENOMEM;
        for (size_t a = 0; a < n; a++)
            if (tr->calc[a].level == (int)l)
                lv->idx[lv->n++] = a;
        sql_sbuf b = { 0 };
        sql_error err;
        memset(&err, 0, sizeof err);
        level_query(&b, tr, lv);
        if (b.oom) {
            free(b.s);
            return JET_ENOMEM;
        }
        sql_prepare_opts po = { .exact_decimal = true };
        int rc = sql_stmt_prepare(&lv->st, db, b.s, b.len, &po, &err);
        free(b.s);
        if (rc == 0 && sql_stmt_ncols(lv->st) == lv->n)
            continue;
        if (rc == 0)
            sql_set_error(&err, "42000", 0, "not one value per column");
        else if (err.rc == JET_ENOMEM)
            return JET_ENOMEM;
        /* which column: each alone (the message names it) */
        for (size_t j = 0; j < lv->n; j++) {
            calc_level one = { NULL, &lv->idx[j], 1 };
            sql_sbuf q = { 0 };
            sql_error e1;
            memset(&e1, 0, sizeof e1);
            level_query(&q, tr, &one);
            if (q.oom) {
                free(q.s);
                return JET_ENOMEM;
            }
            int r1 = sql_stmt_prepare(&one.st, db, q.s, q.len, &po, &e1);
            free(q.s);
            bool ok = r1 == 0 && sql_stmt_ncols(one.st) == 1;
            sql_stmt_free(one.st);
            if (!ok) {
                if (r1 != 0 && e1.rc == JET_ENOMEM)
                    return JET_ENOMEM;
                sql_error_in_saved(&e1, NULL, 0);
                cannot_calc(tr, &tr->calc[lv->idx[j]],
                            r1 != 0 ? e1.msg : "not one value");
                return JET_OK;
            }
        }
        sql_error_in_saved(&err, NULL, 0);
        cannot_calc(tr, &tr->calc[lv->idx[0]], err.msg);
        return JET_OK;
    }
    return JET_OK;
}

/* Value in (of a calculated column's expression, read through c) as
 * cc's result type into *out (spans in tr->conv). A Decimal keeps its
 * own scale (as Access stores it); a Double becomes the Decimal of its 15
 * significant digits, as Access converts it. 0, or -1 with err. */
static int calc_convert(sql_cursor *c, table_rules *tr, const calc_col *cc,
                        const jet_value *in, jet_value *out, sql_error *err)
{
    if (cc->rcol.type != JET_T_NUMERIC)
        return sql_coerce_to_column(c, &tr->conv, in, &cc->rcol, out, err);
    sv v, dv;
    jet_i128 m;
    int scale;
    if (sql_value_to_sv(c, in, &v, &tr->conv.u16, &tr->conv.u16_cap) != 0) {
        *err = *sql_cursor_error(c);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->type = JET_T_NUMERIC;
    if (v.k == K_NULL) {
        out->is_null = true;
        return 0;
    }
    if (v.k == K_TEXT) {
        sv num;
        if (sql_text_to_number(v.s, v.n, &num) != 0) {
            sql_set_error(err, "22018", 0, "Data type mismatch in criteria "
                          "expression. (text is not a number)");
            return -1;
        }
        v = num;
    }
    if (v.k == K_DEC) {
        dv = v;
    } else if (sql_dec_exact(&v, &m, &scale)) {
        sql_dec_set(&dv, m, scale);
    } else if (v.k == K_DOUBLE || v.k == K_DATE) {
        if (sql_dec_from_double(&dv, v.d) != 0) {
            sql_set_error(err, "22003", 0, "Numeric field overflow.");
            return -1;
        }
        /* no trailing zeros (Access stores 0/52 as 0, scale 0) */
        while (dv.scale > 0) {
            jet_i128 r;
            jet_i128 q = i128_divmod(dv.m, i128_of(10), &r);
            if (i128_sign(r) != 0)
                break;
            dv.m = q;
            dv.scale--;
        }
    } else {
        sql_set_error(err, "22018", 0, "Data type mismatch in criteria "
                      "expression.");
        return -1;
    }
    sql_dec_to_value(&dv, out);
    return 0;
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

/* Build tr (its calculated columns, then its rules from props, one
 * statement for them all). JET_OK (tr->fail_rc may say no write is
 * allowed) or JET_ENOMEM. */
static jet_rc prepare_rules(table_rules *tr, jet_db *db,
                            const jet_table_props *props)
{
    const jet_tdef *t = tr->t;
    jet_rc crc = prepare_calc(tr, db, props);
    if (crc != JET_OK || tr->fail_rc != JET_OK)
        return crc;
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

/* Compute tr's calculated columns of the row: each level's statement
 * opened with params (the row; lower levels' values already in it) and
 * its values converted into both params and vals (spans in the columns'
 * buffers, kept until the next row). JET_OK, or the refusal in e:
 * JET_EUNSUPPORTED naming the column and why (an evaluation error such
 * as a division by zero, a value that does not convert), JET_ENOMEM. */
static jet_rc compute_calc(table_rules *tr, jet_value *params,
                           jet_value *vals, jet_error *e)
{
    const jet_tdef *t = tr->t;
    for (size_t l = 0; l < tr->nlevels; l++) {
        const calc_level *lv = &tr->levels[l];
        sql_cursor *c = NULL;
        sql_error err;
        const calc_col *bad = &tr->calc[lv->idx[0]];
        memset(&err, 0, sizeof err);
        int rc = sql_cursor_open(&c, lv->st, params, NULL, &err);
        if (rc == 0 && (rc = sql_cursor_next(c)) != JET_OK)
            err = *sql_cursor_error(c);
        for (size_t j = 0; rc == JET_OK && j < lv->n; j++) {
            calc_col *cc = &tr->calc[lv->idx[j]];
            jet_value in, out;
            bad = cc;
            if ((rc = sql_cursor_value_own(c, j, &in)) != JET_OK) {
                err = *sql_cursor_error(c);
                break;
            }
            if (calc_convert(c, tr, cc, &in, &out, &err) != 0) {
                rc = err.rc == JET_ENOMEM ? JET_ENOMEM : JET_EUNSUPPORTED;
                break;
            }
            if (!out.is_null && out.data && out.len) {
                if (out.len > cc->cap) {
                    uint8_t *nb = realloc(cc->buf, out.len);
                    if (!nb) {
                        rc = JET_ENOMEM;
                        sql_set_nomem(&err, 0);
                        break;
                    }
                    cc->buf = nb;
                    cc->cap = out.len;
                }
                memcpy(cc->buf, out.data, out.len);
                out.data = cc->buf;
            }
            params[cc->col] = out;
            vals[cc->col] = out;
        }
        sql_cursor_close(c);
        if (rc == JET_OK)
            continue;
        if (err.rc == JET_ENOMEM || rc == JET_ENOMEM)
            return fail_with(e, t, JET_ENOMEM, "out of memory");
        /* the value is not known: the row is not written (never a stale
         * or a wrong value) */
        char msg[256];
        sql_error_in_saved(&err, NULL, 0);
        snprintf(msg, sizeof msg, "the calculated column '%s.%s' could not "
                 "be computed for this row (%s%s%.150s)", t->name,
                 t->cols[bad->col].name, err.sqlstate,
                 err.sqlstate[0] ? ": " : "", err.msg);
        return fail_with(e, t, JET_EUNSUPPORTED, msg);
    }
    return JET_OK;
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
                        const jet_table_props *props, jet_value *vals,
                        jet_error *e)
{
    rules_ctx *x = ctx;
    table_rules *tr = rules_of(x, db, t, props);
    if (!tr)
        return fail_with(e, t, JET_ENOMEM, "out of memory");
    if (tr->fail_rc != JET_OK)
        return fail_with(e, t, tr->fail_rc, tr->fail_msg);
    if (!tr->st && !tr->nlevels)
        return JET_OK;
    /* a Yes/No column holds no Null: one given Null is stored No (the
     * expressions see the row as stored, in a copy: vals keeps its Null) */
    jet_value *own = NULL;
    for (uint16_t i = 0; i < t->ncols; i++) {
        if ((t->cols[i].type != JET_T_BOOL && !tr->nlevels) ||
            (t->cols[i].type == JET_T_BOOL && !vals[i].is_null))
            continue;
        if (!own) {
            own = malloc(t->ncols * sizeof *own);
            if (!own)
                return fail_with(e, t, JET_ENOMEM, "out of memory");
            memcpy(own, vals, t->ncols * sizeof *own);
        }
        if (t->cols[i].type == JET_T_BOOL &&
            !(t->cols[i].flags & JET_COL_CALCULATED)) {
            own[i].is_null = false;
            own[i].u.b = false;
        }
    }
    if (tr->nlevels) {
        jet_rc crc = compute_calc(tr, own, vals, e);
        if (crc != JET_OK) {
            free(own);
            return crc;
        }
    }
    if (!tr->st) {
        free(own);
        return JET_OK;
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
