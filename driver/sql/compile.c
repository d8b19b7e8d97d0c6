/*
 * compile.c - expressions of the parse tree (sql_expr) into enodes with
 * static kinds and types: literals converted once (numbers, 'text',
 * #dates#, {d}/{t}/{ts}, TRUE/FALSE), text literals compared with
 * numbers or dates converted here (22018 if they cannot be), LIKE
 * patterns with a constant pattern compiled, parameter types guessed
 * from what they are compared with (hint_param), functions and
 * aggregates looked up, OR chains of equalities folded into IN, IN lists
 * of constants given a hash set, subqueries built as blocks of their own
 * (compile_subquery). Column names are resolved by bind.c
 * (compile_column).
 * Invariants:
 *   1. Every node, constant and pattern lives in the statement's arena.
 *   2. Aggregates are refused where x->in_where / x->no_agg say (WHERE,
 *      ON, GROUP BY), and never nested (x->in_agg).
 *   3. An IN set (build_in_set) answers only where the comparisons of
 *      the linear form could not fail, so both forms give the same
 *      result and the same errors.
 */
#include "config.h"

#include "func.h"
#include "plan.h"
#include "plan_int.h"
#include "sql_internal.h"
#include "values.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ kinds */

uint8_t kind_of_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: return K_BOOL;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        return K_INT;
    case JET_T_MONEY: return K_MONEY;
    case JET_T_FLOAT: case JET_T_DOUBLE: return K_DOUBLE;
    case JET_T_NUMERIC: return K_DEC;
    case JET_T_DATETIME: case JET_T_EXT_DATETIME: return K_DATE;
    case JET_T_TEXT: case JET_T_MEMO: return K_TEXT;
    case JET_T_GUID: return K_GUID;
    default: return K_BIN;
    }
}

static jet_type type_of_kind(uint8_t k)
{
    switch (k) {
    case K_BOOL: return JET_T_BOOL;
    case K_INT: return JET_T_LONG;
    case K_MONEY: return JET_T_MONEY;
    case K_DOUBLE: case K_ANY: return JET_T_DOUBLE;
    case K_DEC: return JET_T_NUMERIC;
    case K_DATE: return JET_T_DATETIME;
    case K_TEXT: return JET_T_TEXT;
    case K_GUID: return JET_T_GUID;
    case K_BIN: return JET_T_BINARY;
    default: return JET_T_TEXT;     /* NULL literal */
    }
}

bool numeric_kind(uint8_t k)
{
    return k == K_BOOL || k == K_INT || k == K_MONEY || k == K_DOUBLE ||
           k == K_DATE || k == K_DEC;
}

/* Tables of st a node reads (bit per table; subqueries and aggregates
 * count as all of them, so they are checked last). */
uint64_t node_tabs(const enode *n)
{
    if (n->op == N_COL)
        return n->up ? 0 : (uint64_t)1 << n->tab;
    if (n->op == N_SUBQ || n->op == N_AGG || n->op == N_GKEY)
        return ~(uint64_t)0;
    uint64_t m = 0;
    for (size_t i = 0; i < n->nargs; i++)
        m |= node_tabs(n->args[i]);
    return m;
}

/* --------------------------------------------------------- functions */

static const struct {
    const char *name;
    uint8_t id;
} aggregates[] = {
    { "COUNT", A_COUNT }, { "SUM", A_SUM }, { "AVG", A_AVG },
    { "MIN", A_MIN }, { "MAX", A_MAX }, { "STDEV", A_STDEV },
    { "STDEVP", A_STDEVP }, { "VAR", A_VAR }, { "VARP", A_VARP },
    { "FIRST", A_FIRST }, { "LAST", A_LAST },
};

/* ----------------------------------------------------------- compile */

/* The static kind of a parameter compared with n (a column's type). */
static void hint_param(ctx *x, enode *p, const enode *other)
{
    if (p->op != N_PARAM || p->param >= x->st->nparams)
        return;
    sql_param_info *pi = &x->st->params[p->param];
    if (pi->declared)
        return;                 /* PARAMETERS gave its type */
    const jet_column *col = node_column(x->st, other);
    if (col) {
        pi->type = col->type == JET_T_EXT_DATETIME ? JET_T_DATETIME
                   : col->type;
        pi->column = col;
    } else if (other->k != K_ANY && other->k != K_NULL &&
               pi->column == NULL) {
        pi->type = other->type ? other->type : type_of_kind(other->k);
    }
}

/* A text literal compared with a number or date: convert it now. */
static int coerce_const(ctx *x, enode *c, const enode *other, size_t pos)
{
    if (c->op != N_CONST || c->konst.k != K_TEXT || !numeric_kind(other->k))
        return 0;
    sv v;
    memset(&v, 0, sizeof v);
    int rc;
    if (other->k == K_DATE) {
        char buf[64];
        rc = -1;
        if (c->konst.n < sizeof buf) {
            size_t i;
            for (i = 0; i < c->konst.n && c->konst.s[i] < 0x80; i++)
                buf[i] = (char)c->konst.s[i];
            if (i == c->konst.n) {
                v.k = K_DATE;
                rc = sql_parse_datetime(buf, i, 0, &v.d);
            }
        }
    } else {
        rc = sql_text_to_number(c->konst.s, c->konst.n, &v);
    }
    if (rc != 0)
        return fail(x, "22018", pos, "Data type mismatch in criteria "
                    "expression (at character %zu)", pos);
    c->konst = v;
    c->k = v.k;
    c->type = type_of_kind(v.k);
    return 0;
}

/*
 * A long IN list of constants of one class (in_set): its hash set, so a
 * row costs one probe instead of a comparison per item. Lists with
 * parameters, expressions, Decimals or mixed classes stay linear. 0, or
 * -1 out of memory.
 */
static int build_in_set(ctx *x, enode *n)
{
    size_t items = n->nargs - 1, nv = 0;
    int cls = 0;
    bool has_null = false;
    if (items < SQL_IN_SET_MIN)
        return 0;
    for (size_t i = 1; i < n->nargs; i++) {
        const enode *a = n->args[i];
        if (a->op != N_CONST)
            return 0;
        if (a->konst.k == K_NULL) {
            has_null = true;
            continue;
        }
        int k = sql_in_class(&a->konst);
        if (!k || (cls && k != cls))
            return 0;
        cls = k;
        nv++;
    }
    if (!cls)
        return 0;
    size_t cap = 16;
    while (cap < nv * 2)
        cap *= 2;
    in_set *s = sql_arena_alloc(x->st->ar, sizeof *s);
    const sv **slot = s ? sql_arena_alloc(x->st->ar, cap * sizeof *slot)
                        : NULL;
    uint64_t *hash = slot ? sql_arena_alloc(x->st->ar, cap * sizeof *hash)
                          : NULL;
    if (!hash)
        return nomem(x);
    s->cls = (uint8_t)cls;
    s->has_null = has_null;
    s->mask = cap - 1;
    s->slot = slot;
    s->hash = hash;
    for (size_t i = 1; i < n->nargs; i++) {
        const sv *v = &n->args[i]->konst;
        if (v->k == K_NULL ||
            sql_in_find(jet_db_collation(x->st->db), s, v))
            continue;           /* NULL, or an item already there */
        uint64_t h = sql_sv_hash(v);
        size_t j = (size_t)h & s->mask;
        while (slot[j])
            j = (j + 1) & s->mask;
        slot[j] = v;
        hash[j] = h;
    }
    n->inset = s;
    return 0;
}

/* {fn CONVERT(x, SQL_type)}: the Jet conversion the ODBC type keyword
 * stands for (sql_func_convert), applied to x. */
static int compile_convert(ctx *x, const sql_expr *e, enode **out)
{
    if (e->nargs != 2)
        return fail(x, "42000", e->position, "Wrong number of arguments used "
                    "with function CONVERT (at character %zu)", e->position);
    const sql_expr *t = e->args[1];
    bool known = false;
    const sql_funcdef *f = NULL;
    if (t->kind == EXPR_COLUMN && !t->qualifier && !t->quote)
        f = sql_func_convert(t->text, &known);
    if (!known)
        return fail(x, "42000", t->position, "CONVERT needs an ODBC data "
                    "type (SQL_INTEGER, SQL_VARCHAR, SQL_DATE, ...) as its "
                    "second argument (at character %zu)", t->position);
    if (!f)
        return fail(x, "HYC00", t->position, "not supported: CONVERT to "
                    "%.40s (Jet has no conversion to that type) (at "
                    "character %zu)", t->text, t->position);
    enode *n = new_node(x, N_FUNC, e->position);
    if (!n || alloc_args(x, n, 1) != 0)
        return nomem(x);
    n->fn = f;
    if (compile(x, e->args[0], &n->args[0]) != 0)
        return -1;
    sql_func_bind(n, x->st->params, x->st->nparams);
    *out = n;
    return 0;
}

static int compile_func(ctx *x, const sql_expr *e, enode **out)
{
    for (size_t i = 0; i < sizeof aggregates / sizeof aggregates[0]; i++) {
        if (strcasecmp(e->text, aggregates[i].name) || e->odbc_fn)
            continue;
        if (x->in_where || x->no_agg)
            return fail(x, "42000", e->position, "Cannot have aggregate "
                        "function in %s clause (at character %zu)",
                        x->no_agg ? x->no_agg : "WHERE", e->position);
        if (x->in_agg)
            return fail(x, "42000", e->position, "Cannot have aggregate "
                        "function in expression (%s) (at character %zu)",
                        e->text, e->position);
        if (e->nargs != 1)
            return fail(x, "42000", e->position, "Wrong number of arguments "
                        "used with function %s (at character %zu)", e->text,
                        e->position);
        enode *n = new_node(x, N_AGG, e->position);
        if (!n || alloc_args(x, n, 1) != 0)
            return nomem(x);
        n->sub = aggregates[i].id;
        n->distinct_arg = e->distinct_arg;
        if (e->distinct_arg && n->sub != A_COUNT)
            return fail(x, "HYC00", e->position, "not supported: DISTINCT "
                        "inside %s (only COUNT(DISTINCT x)) (at character "
                        "%zu)", e->text, e->position);
        const sql_expr *a = e->args[0];
        if (a->kind == EXPR_COLUMN && !strcmp(a->text, "*") && !a->qualifier) {
            if (n->sub != A_COUNT)
                return fail(x, "42000", a->position, "* is only allowed in "
                            "COUNT(*) (at character %zu)", a->position);
            n->sub = A_COUNT_STAR;
            n->nargs = 0;
        } else {
            x->in_agg = true;
            int rc = compile(x, a, &n->args[0]);
            x->in_agg = false;
            if (rc != 0)
                return -1;
        }
        const enode *arg = n->nargs ? n->args[0] : NULL;
        switch (n->sub) {
        case A_COUNT_STAR: case A_COUNT:
            n->k = K_INT;
            n->type = JET_T_LONG;
            break;
        case A_SUM: case A_AVG:
            if (arg->k == K_TEXT || arg->k == K_BIN || arg->k == K_GUID)
                return fail(x, "22018", e->position, "Data type mismatch: "
                            "%s of a non-numeric value (at character %zu)",
                            e->text, e->position);
            if (arg->k == K_MONEY) {
                n->k = K_MONEY;
                n->type = JET_T_MONEY;
            } else if (arg->k == K_DEC) {
                /* exact Decimal sum and average (func_dec.c) */
                n->k = K_DEC;
                n->type = JET_T_NUMERIC;
            } else if (n->sub == A_SUM && arg->k == K_INT &&
                       arg->type == JET_T_BIGINT) {
                n->k = K_INT;   /* Large Number: exact (22003 past 2^63) */
                n->type = JET_T_BIGINT;
            } else {
                /* Byte, Integer, Long, Yes/No, Single, Double: Jet sums
                 * in floating point (Microsoft's KB on Sum), a Double
                 * that cannot overflow at 2^31 as a Long would */
                n->k = K_DOUBLE;
                n->type = JET_T_DOUBLE;
            }
            break;
        case A_STDEV: case A_STDEVP: case A_VAR: case A_VARP:
            if (arg->k == K_TEXT || arg->k == K_BIN || arg->k == K_GUID)
                return fail(x, "22018", e->position, "Data type mismatch: "
                            "%s of a non-numeric value (at character %zu)",
                            e->text, e->position);
            n->k = K_DOUBLE;
            n->type = JET_T_DOUBLE;
            break;
        default:
            n->k = arg->k == K_ANY ? K_TEXT : arg->k;
            n->type = arg->type ? arg->type : type_of_kind(n->k);
            break;
        }
        sql_stmt *st = x->st;
        if (st->naggs == x->naggs_cap) {
            size_t cap = x->naggs_cap ? 2 * x->naggs_cap : 8;
            enode **g = sql_arena_alloc(st->ar, cap * sizeof *g);
            if (!g)
                return nomem(x);
            if (st->naggs)
                memcpy(g, st->aggs, st->naggs * sizeof *g);
            st->aggs = g;
            x->naggs_cap = cap;
        }
        n->slot = st->naggs;
        st->aggs[st->naggs++] = n;
        *out = n;
        return 0;
    }
    if (e->odbc_fn && !strcasecmp(e->text, "CONVERT"))
        return compile_convert(x, e, out);
    const sql_funcdef *f = e->odbc_fn ? sql_func_find_escape(e->text)
                                      : sql_func_find(e->text);
    if (!f)
        return fail(x, "42000", e->position, "Undefined function '%s' in "
                    "expression (at character %zu)", e->text, e->position);
    if (e->nargs < f->min || (f->max != 255 && e->nargs > f->max))
        return fail(x, "42000", e->position, "Wrong number of arguments used "
                    "with function %s (at character %zu)", e->text,
                    e->position);
    enode *n = new_node(x, N_FUNC, e->position);
    if (!n || alloc_args(x, n, e->nargs) != 0)
        return nomem(x);
    n->fn = f;
    for (size_t i = 0; i < e->nargs; i++) {
        const sql_expr *a = e->args[i];
        sql_expr word;
        if (a->kind == EXPR_COLUMN && !strcmp(a->text, "*"))
            return fail(x, "42000", a->position, "* is only allowed in "
                        "COUNT(*) (at character %zu)", a->position);
        if (i == 0 && (f->flags & FN_WORD0) && a->kind == EXPR_COLUMN &&
            !a->qualifier) {
            word = *a;              /* SQL_TSI_DAY: a word, not a column */
            word.kind = EXPR_STRING;
            a = &word;
            int code = sql_tsi_interval(word.text);
            if (code < 0)
                return fail(x, "HYC00", a->position, "not supported: "
                            "SQL_TSI_FRAC_SECOND in %s (Jet dates hold "
                            "whole seconds) (at character %zu)", e->text,
                            a->position);
            if (code == 0)
                return fail(x, "42000", a->position, "%s needs an interval "
                            "SQL_TSI_SECOND ... SQL_TSI_YEAR, found '%.40s' "
                            "(at character %zu)", e->text, word.text,
                            a->position);
        }
        if (compile(x, a, &n->args[i]) != 0)
            return -1;
    }
    sql_func_bind(n, x->st->params, x->st->nparams);
    *out = n;
    return 0;
}

/* A subquery node: compile the block, check its shape. */
static int compile_subquery(ctx *x, const sql_expr *e, uint8_t kind,
                            enode **out)
{
    sql_stmt *st = x->st;
    enode *n = new_node(x, N_SUBQ, e->position);
    if (!n || alloc_args(x, n, kind == SQ_IN || kind == SQ_ANY ||
                               kind == SQ_ALL ? 1 : 0) != 0)
        return nomem(x);
    n->sub = kind;
    n->negated = e->negated;
    if (n->nargs && compile(x, e->a, &n->args[0]) != 0)
        return -1;
    if (build_block(&n->subq, st, st->root, e->sub, false, NULL, x->err) != 0)
        return -1;
    if (kind != SQ_EXISTS && n->subq->ncols != 1)
        return fail(x, "42000", e->position, "You have written a subquery "
                    "that can return more than one field without using the "
                    "EXISTS reserved word in the main query's FROM clause "
                    "(at character %zu)", e->position);
    n->slot = st->nsubq++;
    if (kind == SQ_SCALAR) {
        n->type = n->subq->cols[0].meta.type;
        n->k = kind_of_type(n->type);
    } else {
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
    }
    if (kind == SQ_ANY || kind == SQ_ALL) {
        static const char *const cmps[] = { "=", "<>", "<", "<=", ">", ">=" };
        for (uint8_t k = 0; k < 6; k++)
            if (!strcmp(e->op, cmps[k]))
                n->cmp = k;
    }
    if (decorrelate(x, n) != 0)
        return -1;
    *out = n;
    return 0;
}

/* Whether n is a number literal with an exact decimal (0.13, 34.1234). */
static bool dec_literal(const enode *n)
{
    return n->op == N_CONST && n->k == K_DOUBLE && n->konst.has_dec;
}

static uint8_t arith_kind(const ctx *x, char op, const enode *a,
                          const enode *b)
{
    uint8_t ka = a->k, kb = b->k;
    /* in a calculated column's expression, Decimal or Currency + - * a
     * literal is exact (calcFieldTestV2010 stores (...)*34.12342134 with
     * its 8 places) */
    if (x->st->root->exact_decimal && (op == '+' || op == '-' || op == '*')) {
        if (dec_literal(a) && (kb == K_DEC || kb == K_MONEY))
            ka = K_DEC;
        if (dec_literal(b) && (ka == K_DEC || ka == K_MONEY))
            kb = K_DEC;
    }
    if (op == '^' || (op == '/' && ka != K_DEC && kb != K_DEC))
        return K_DOUBLE;
    if (op == '\\' || op == 'M')
        return K_INT;
    /* text + text concatenates; an untyped parameter beside text is
     * text too (hint_param types it as that text), and ? + ? is typed
     * text: Access's Variant parameters concatenate as text ('5' + '6'
     * is '56'), and a number bound there still reads back as its text,
     * where a Double column could not hold concatenated text (22018) */
    bool ta = ka == K_TEXT || (ka == K_ANY && a->op == N_PARAM);
    bool tb = kb == K_TEXT || (kb == K_ANY && b->op == N_PARAM);
    if (op == '+' && ta && tb)
        return K_TEXT;
    if (ka == K_NULL)
        return kb == K_NULL ? K_NULL : kb;
    if (kb == K_NULL)
        return ka;
    if ((op == '+' || op == '-') && (ka == K_DATE || kb == K_DATE))
        return (op == '-' && ka == K_DATE && kb == K_DATE) ? K_DOUBLE
                                                           : K_DATE;
    if ((ka == K_DEC || kb == K_DEC) && op != '^' &&
        (ka == K_DEC || ka == K_INT || ka == K_MONEY || ka == K_BOOL) &&
        (kb == K_DEC || kb == K_INT || kb == K_MONEY || kb == K_BOOL))
        return K_DEC;       /* Decimal stays exact */
    if (ka == K_DOUBLE || kb == K_DOUBLE || ka == K_ANY || kb == K_ANY ||
        ka == K_TEXT || kb == K_TEXT || ka == K_DATE || kb == K_DATE)
        return K_DOUBLE;
    if (ka == K_MONEY || kb == K_MONEY)
        return K_MONEY;
    return K_INT;
}

/* Characters (code points) of UTF-8 text s. */
size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/*
 * OR chains as IN. BI tools send filters as long chains such as
 * (c = 'a') OR (c = 'b') OR ...; evaluated term by term they cost a
 * comparison per term and row, and no index seek. compile_or folds each
 * run of adjacent terms of the forms k = constant, constant = k and
 * k IN (constants) on one expression k into k IN (their constants, in
 * order). That is exact: IN evaluates k once (k below is free of
 * subqueries, aggregates and clock functions, so once is as good as per
 * term), then compares it with each constant in order as '=' does
 * (sql_sv_cmp, the constants already converted against k as '=' converts
 * them), stopping at the first match as OR stops at its first TRUE term;
 * a NULL k or a NULL constant without a match gives NULL, as the OR does.
 * The hash set (build_in_set) only answers where those comparisons
 * cannot fail. Other terms keep their place, so errors come in the same
 * order.
 */

/* May k stand for the repeated operand of a folded OR chain: the same
 * value whenever it is evaluated for one row? */
static bool or_fold_pure(const enode *k)
{
    switch (k->op) {
    case N_COL: case N_CONST: case N_PARAM:
        return true;
    case N_FUNC:
        if (k->nargs == 0)
            return false;       /* Now(), Date(), Time(): the clock */
        break;
    case N_NEG: case N_ARITH: case N_CONCAT:
        break;
    default:
        return false;
    }
    for (size_t i = 0; i < k->nargs; i++)
        if (!or_fold_pure(k->args[i]))
            return false;
    return true;
}

/* The operand k of a term k = constant, constant = k or k IN (constants)
 * (*nconst: its constants), or NULL when the term is not of those forms. */
static const enode *or_fold_key(const enode *t, size_t *nconst)
{
    const enode *k = NULL;
    if (t->op == N_CMP && t->sub == CMP_EQ) {
        const enode *a = t->args[0], *b = t->args[1];
        if (b->op == N_CONST && a->op != N_CONST)
            k = a;
        else if (a->op == N_CONST && b->op != N_CONST)
            k = b;
        *nconst = 1;
    } else if (t->op == N_IN && !t->negated && t->nargs >= 2 &&
               t->args[0]->op != N_CONST) {
        for (size_t i = 1; i < t->nargs; i++)
            if (t->args[i]->op != N_CONST)
                return NULL;
        k = t->args[0];
        *nconst = t->nargs - 1;
    }
    return k && or_fold_pure(k) ? k : NULL;
}

static size_t or_count_terms(const sql_expr *e)
{
    if (e->kind == EXPR_BINARY && !strcmp(e->op, "OR"))
        return or_count_terms(e->a) + or_count_terms(e->b);
    return 1;
}

/* The terms of the OR run at e, left to right, into v (recursion: the
 * run's height, which the parser bounds by SQL_MAX_HEIGHT). */
static void or_collect_terms(const sql_expr *e, const sql_expr **v,
                             size_t *n)
{
    if (e->kind == EXPR_BINARY && !strcmp(e->op, "OR")) {
        or_collect_terms(e->a, v, n);
        or_collect_terms(e->b, v, n);
    } else {
        v[(*n)++] = e;
    }
}

/* Balanced N_OR over v[lo..hi) (evaluation order left to right). */
static enode *or_join(ctx *x, enode **v, size_t lo, size_t hi, size_t pos)
{
    if (hi - lo == 1)
        return v[lo];
    size_t mid = lo + (hi - lo) / 2;
    enode *n = new_node(x, N_OR, pos);
    if (!n || alloc_args(x, n, 2) != 0 ||
        !(n->args[0] = or_join(x, v, lo, mid, pos)) ||
        !(n->args[1] = or_join(x, v, mid, hi, pos)))
        return NULL;
    n->k = K_BOOL;
    n->type = JET_T_BOOL;
    return n;
}

/* A run of OR (e->op "OR"): its terms compiled, runs on one operand
 * folded into IN (see above), the rest joined by OR again. */
static int compile_or(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    size_t nt = or_count_terms(e), n = 0, w = 0;
    const sql_expr **terms = sql_arena_alloc(st->ar, nt * sizeof *terms);
    enode **v = terms ? sql_arena_alloc(st->ar, nt * sizeof *v) : NULL;
    if (!v)
        return nomem(x);
    or_collect_terms(e, terms, &n);
    for (size_t i = 0; i < nt; i++)
        if (compile(x, terms[i], &v[i]) != 0)
            return -1;
    for (size_t i = 0; i < nt;) {
        size_t nc, total, j = i + 1;
        const enode *k = or_fold_key(v[i], &total);
        while (k && j < nt) {
            const enode *k2 = or_fold_key(v[j], &nc);
            if (!k2 || !enode_equal(k, k2))
                break;
            total += nc;
            j++;
        }
        if (j - i < 2) {
            v[w++] = v[i++];
            continue;
        }
        enode *in = new_node(x, N_IN, v[i]->position);
        if (!in || alloc_args(x, in, total + 1) != 0)
            return nomem(x);
        in->args[0] = (enode *)k;
        size_t a = 1;
        for (size_t t = i; t < j; t++) {
            const enode *term = v[t];
            if (term->op == N_IN) {
                for (size_t m = 1; m < term->nargs; m++)
                    in->args[a++] = term->args[m];
            } else {
                /* the constant side, as or_fold_key chose it */
                bool right = term->args[1]->op == N_CONST &&
                             term->args[0]->op != N_CONST;
                in->args[a++] = term->args[right ? 1 : 0];
            }
        }
        in->k = K_BOOL;
        in->type = JET_T_BOOL;
        if (build_in_set(x, in) != 0)
            return -1;
        st->or_in_chains++;
        st->or_in_terms += j - i;
        v[w++] = in;
        i = j;
    }
    if (!(*out = or_join(x, v, 0, w, e->position)))
        return nomem(x);
    return 0;
}

/* A literal: a number, 'text', #date#, {d}/{t}/{ts}, NULL, TRUE/FALSE. */
static int compile_literal(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    enode *n;
    switch (e->kind) {
    case EXPR_NUMBER:
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        int nrc = sql_number_literal(e->text, &n->konst);
        if (nrc == -2)  /* SELECT 1e999: Access answers Overflow */
            return fail(x, "22003", e->position, "Overflow: the number "
                        "%s is beyond a Double (at character %zu)", e->text,
                        e->position);
        if (nrc != 0)
            return fail(x, "42000", e->position, "malformed number '%s'",
                        e->text);
        n->k = n->konst.k;
        n->type = type_of_kind(n->k);
        if (n->k == K_INT && (n->konst.i > INT32_MAX ||
                              n->konst.i < INT32_MIN))
            n->type = JET_T_BIGINT;     /* SELECT 9223372036854775807 */
        *out = n;
        return 0;
    case EXPR_STRING:
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        n->konst.k = K_TEXT;
        n->konst.s = sql_utf8_to_u16(e->text, &n->konst.n, arena_alloc_cb,
                                     st->ar);
        if (!n->konst.s)
            return nomem(x);
        n->k = K_TEXT;
        n->type = JET_T_TEXT;
        *out = n;
        return 0;
    case EXPR_DATE: case EXPR_ODBC_DATE: {
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        int kind = e->kind == EXPR_DATE ? 0 : e->op[0] == 'd' ? 'd'
                   : e->op[1] == 's' ? 's' : 't';
        n->konst.k = K_DATE;
        if (sql_parse_datetime(e->text, strlen(e->text), kind,
                               &n->konst.d) != 0)
            return fail(x, "42000", e->position, "invalid date/time literal "
                        "'%.40s' (at character %zu)", e->text, e->position);
        n->k = K_DATE;
        n->type = JET_T_DATETIME;
        *out = n;
        return 0;
    }
    case EXPR_NULL:
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        *out = n;
        return 0;
    case EXPR_BOOL:
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        n->konst.k = K_BOOL;
        n->konst.i = !e->negated;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    default:
        return fail(x, "HYC00", e->position, "not supported: expression "
                    "(at character %zu)", e->position);
    }
}

/* NOT, unary minus and plus. */
static int compile_unary(ctx *x, const sql_expr *e, enode **out)
{
    enode *n;
    enode *a;
    if (compile(x, e->a, &a) != 0)
        return -1;
    if (e->op[0] == '+') {
        *out = a;
        return 0;
    }
    if (e->op[0] == '-' && a->op == N_CONST &&
        ((a->k == K_INT && a->konst.i != INT64_MIN) ||
         a->k == K_DOUBLE)) {
        a->konst.i = -a->konst.i;
        a->konst.d = -a->konst.d;
        a->konst.m = i128_neg(a->konst.m);
        if (a->k == K_DOUBLE && a->konst.has_dec && a->konst.scale == 0 &&
            i128_cmp(a->konst.m, i128_of(INT64_MIN)) == 0) {
            /* -9223372036854775808: the smallest BIGINT */
            a->konst.k = a->k = K_INT;
            a->konst.i = INT64_MIN;
            a->konst.has_units = a->konst.has_dec = false;
            a->type = JET_T_BIGINT;
        }
        a->position = e->position;
        *out = a;
        return 0;
    }
    if (!(n = new_node(x, e->op[0] == '-' ? N_NEG : N_NOT, e->position)) ||
        alloc_args(x, n, 1) != 0)
        return nomem(x);
    n->args[0] = a;
    n->k = n->op == N_NOT ? K_BOOL : (a->k == K_ANY ? K_DOUBLE : a->k);
    n->type = n->op == N_NOT ? JET_T_BOOL : a->type;
    if (n->op == N_NEG && a->k == K_BOOL) {
        n->k = K_INT;
        n->type = JET_T_LONG;
    }
    *out = n;
    return 0;
}

/* AND, XOR, comparisons, LIKE, arithmetic, & (OR: compile_or). */
static int compile_binary(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    enode *n;
    enode *a, *b;
    if (!strcmp(e->op, "OR"))
        return compile_or(x, e, out);
    if (compile(x, e->a, &a) != 0 || compile(x, e->b, &b) != 0)
        return -1;
    const char *op = e->op;
    static const char *const cmps[] = { "=", "<>", "<", "<=", ">", ">=" };
    for (int k = 0; k < 6; k++) {
        if (strcmp(op, cmps[k]))
            continue;
        if (!(n = new_node(x, N_CMP, e->position)) ||
            alloc_args(x, n, 2) != 0)
            return nomem(x);
        n->sub = (uint8_t)k;
        hint_param(x, a, b);
        hint_param(x, b, a);
        if (coerce_const(x, a, b, e->position) != 0 ||
            coerce_const(x, b, a, e->position) != 0)
            return -1;
        n->args[0] = a;
        n->args[1] = b;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    }
    if (!strcmp(op, "AND") || !strcmp(op, "OR") || !strcmp(op, "XOR")) {
        if (!(n = new_node(x, op[0] == 'A' ? N_AND : op[0] == 'O' ? N_OR
                                                              : N_XOR,
                           e->position)) ||
            alloc_args(x, n, 2) != 0)
            return nomem(x);
        n->args[0] = a;
        n->args[1] = b;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    }
    if (!strcmp(op, "LIKE")) {
        if (!(n = new_node(x, N_LIKE, e->position)) ||
            alloc_args(x, n, 2) != 0)
            return nomem(x);
        n->args[0] = a;
        n->args[1] = b;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        n->like_flags = e->alike ? LIKE_ANSI : (uint8_t)st->like_flags;
        if (b->op == N_PARAM && b->param < st->nparams &&
            !st->params[b->param].declared)
            st->params[b->param].type = JET_T_TEXT;
        if (a->op == N_PARAM && a->param < st->nparams &&
            !st->params[a->param].declared)
            st->params[a->param].type = JET_T_TEXT;
        if (b->op == N_CONST && b->konst.k == K_TEXT) {
            n->pat = sql_like_compile(b->konst.s, b->konst.n,
                                      n->like_flags, arena_alloc_cb,
                                      st->ar);
            if (!n->pat)
                return nomem(x);
        }
        *out = n;
        return 0;
    }
    if (!strcmp(op, "&")) {
        if (!(n = new_node(x, N_CONCAT, e->position)) ||
            alloc_args(x, n, 2) != 0)
            return nomem(x);
        n->args[0] = a;
        n->args[1] = b;
        n->k = K_TEXT;
        n->type = (a->type == JET_T_MEMO || b->type == JET_T_MEMO) ?
                  JET_T_MEMO : JET_T_TEXT;
        *out = n;
        return 0;
    }
    /* arithmetic */
    if (!(n = new_node(x, N_ARITH, e->position)) ||
        alloc_args(x, n, 2) != 0)
        return nomem(x);
    char c = !strcmp(op, "MOD") ? 'M' : op[0];
    n->sub = (uint8_t)c;
    n->args[0] = a;
    n->args[1] = b;
    hint_param(x, a, b);
    hint_param(x, b, a);
    n->k = arith_kind(x, c, a, b);
    n->type = type_of_kind(n->k);
    if (n->k == K_INT && (a->type == JET_T_BIGINT ||
                          b->type == JET_T_BIGINT))
        n->type = JET_T_BIGINT;
    *out = n;
    return 0;
}

int compile(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    enode *n;
    switch (e->kind) {
    case EXPR_NUMBER: case EXPR_STRING: case EXPR_DATE: case EXPR_ODBC_DATE:
    case EXPR_NULL: case EXPR_BOOL:
        return compile_literal(x, e, out);
    case EXPR_COLUMN:
        return compile_column(x, e, out);
    case EXPR_PARAM:
        if (!(n = new_node(x, N_PARAM, e->position)))
            return nomem(x);
        n->param = e->param_index;
        n->k = K_ANY;
        if (n->param < st->nparams) {
            const sql_param_info *pi = &st->params[n->param];
            n->type = JET_T_TEXT;
            if (pi->bound && !pi->declared) {
                /* re-planned for the value's type (engine.h
                 * sql_statement_execute): a Long bound gives a Long */
                n->type = pi->bound;
                n->k = kind_of_type(pi->bound);
                n->pscale = pi->bound_scale;
            }
        }
        *out = n;
        return 0;
    case EXPR_UNARY:
        return compile_unary(x, e, out);
    case EXPR_BINARY:
        return compile_binary(x, e, out);
    case EXPR_IS_NULL:
        if (!(n = new_node(x, N_ISNULL, e->position)) ||
            alloc_args(x, n, 1) != 0)
            return nomem(x);
        n->negated = e->negated;
        if (compile(x, e->a, &n->args[0]) != 0)
            return -1;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    case EXPR_BETWEEN:
        if (!(n = new_node(x, N_BETWEEN, e->position)) ||
            alloc_args(x, n, 3) != 0)
            return nomem(x);
        n->negated = e->negated;
        if (compile(x, e->a, &n->args[0]) != 0 ||
            compile(x, e->b, &n->args[1]) != 0 ||
            compile(x, e->c, &n->args[2]) != 0)
            return -1;
        for (int i = 1; i < 3; i++) {
            hint_param(x, n->args[i], n->args[0]);
            if (coerce_const(x, n->args[i], n->args[0], e->position) != 0)
                return -1;
        }
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    case EXPR_IN:
        if (e->sub)
            return compile_subquery(x, e, SQ_IN, out);
        if (!(n = new_node(x, N_IN, e->position)) ||
            alloc_args(x, n, e->nargs + 1) != 0)
            return nomem(x);
        n->negated = e->negated;
        if (compile(x, e->a, &n->args[0]) != 0)
            return -1;
        for (size_t i = 0; i < e->nargs; i++) {
            if (compile(x, e->args[i], &n->args[i + 1]) != 0)
                return -1;
            hint_param(x, n->args[i + 1], n->args[0]);
            if (coerce_const(x, n->args[i + 1], n->args[0], e->position) != 0)
                return -1;
        }
        if (build_in_set(x, n) != 0)
            return -1;
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    case EXPR_FUNC:
        return compile_func(x, e, out);
    case EXPR_SUBQUERY:
        return compile_subquery(x, e, SQ_SCALAR, out);
    case EXPR_EXISTS:
        return compile_subquery(x, e, SQ_EXISTS, out);
    case EXPR_QUANT:
        return compile_subquery(x, e, e->quant == 'L' ? SQ_ALL : SQ_ANY,
                                out);
    default:
        return fail(x, "HYC00", e->position, "not supported: expression "
                    "(at character %zu)", e->position);
    }
}

/* Does n read the row (a column or an aggregate)? */
bool uses_row(const enode *n)
{
    if (n->op == N_COL || n->op == N_AGG || n->op == N_SUBQ ||
        n->op == N_GKEY)
        return true;
    for (size_t i = 0; i < n->nargs; i++)
        if (uses_row(n->args[i]))
            return true;
    return false;
}
