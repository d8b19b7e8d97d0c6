/*
 * plan.c - sql_stmt_prepare: names, types and the access path.
 *
 * The parse tree (sql_query) is compiled into enodes: columns resolved to
 * tdef positions (42S22 with the position otherwise), literals converted
 * once (numbers, 'text', #dates#, {d}/{t}/{ts}, TRUE/FALSE), text literals
 * compared with numbers or dates converted here (22018 if they cannot
 * be), LIKE patterns with a constant pattern compiled, parameter types
 * guessed from what they are compared with.
 *
 * Access path: the WHERE conjuncts of the forms col = v, col IN (v, ..),
 * col < <= > >= v and col BETWEEN v AND w (v a literal or ?) are matched
 * against each index's seekable leading columns (jet_index_seekable_cols:
 * numeric, date, bool): an equality prefix, then one range. The best
 * index by (unique full match, prefix length, range) is sought; the WHERE
 * condition is still applied to every row, so a seek only narrows the
 * rows read. ORDER BY on plain non-text columns that follow an index's
 * columns (after single-valued equality columns) walks that index,
 * forwards or backwards, and TOP/LIMIT then stop early. Otherwise the
 * table is scanned, and ORDER BY / DISTINCT / TOP PERCENT buffer rows.
 */
#include "config.h"

#include "engine_int.h"
#include "func.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct ctx {
    sql_stmt *st;
    sql_error *err;
    bool in_where;          /* aggregates refused */
    bool in_agg;            /* nested aggregates refused */
    size_t naggs_cap;
} ctx;

static int fail(ctx *x, const char *state, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(ctx *x, const char *state, size_t pos, const char *fmt, ...)
{
    sql_error *e = x->err;
    snprintf(e->sqlstate, sizeof e->sqlstate, "%s", state);
    e->position = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int nomem(ctx *x)
{
    return fail(x, "HY001", 0, "out of memory");
}

static void *arena_alloc_cb(void *a, size_t n)
{
    return sql_arena_alloc(a, n);
}

static enode *new_node(ctx *x, uint8_t op, size_t pos)
{
    enode *n = sql_arena_alloc(&x->st->arena, sizeof *n);
    if (n) {
        n->op = op;
        n->position = pos;
    }
    return n;
}

static int alloc_args(ctx *x, enode *n, size_t count)
{
    n->nargs = count;
    n->args = sql_arena_alloc(&x->st->arena, (count ? count : 1) *
                                             sizeof *n->args);
    return n->args ? 0 : nomem(x);
}

/* ------------------------------------------------------------ kinds */

static uint8_t kind_of_type(jet_type t)
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

static bool numeric_kind(uint8_t k)
{
    return k == K_BOOL || k == K_INT || k == K_MONEY || k == K_DOUBLE ||
           k == K_DATE || k == K_DEC;
}

/* ----------------------------------------------------------- names */

static bool qualifier_ok(const sql_stmt *st, const char *q)
{
    if (!q)
        return true;
    const sql_select *sel = &st->q->sel;
    return (sel->table_alias && jet_name_equal_ci(q, sel->table_alias)) ||
           (!sel->table_alias && jet_name_equal_ci(q, sel->table)) ||
           jet_name_equal_ci(q, st->td->name);
}

/* --------------------------------------------------------- functions */

static const struct {
    const char *name;
    uint8_t id;
} aggregates[] = {
    { "COUNT", A_COUNT }, { "SUM", A_SUM }, { "AVG", A_AVG },
    { "MIN", A_MIN }, { "MAX", A_MAX },
};

/* ----------------------------------------------------------- compile */

static int compile(ctx *x, const sql_expr *e, enode **out);

/* The static kind of a parameter compared with n (a column's type). */
static void hint_param(ctx *x, enode *p, const enode *other)
{
    if (p->op != N_PARAM || p->param >= x->st->nparams)
        return;
    sql_param_info *pi = &x->st->params[p->param];
    if (other->op == N_COL) {
        const jet_column *col = &x->st->td->cols[other->col];
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

static int compile_func(ctx *x, const sql_expr *e, enode **out)
{
    for (size_t i = 0; i < sizeof aggregates / sizeof aggregates[0]; i++) {
        if (strcasecmp(e->text, aggregates[i].name) || e->odbc_fn)
            continue;
        if (x->in_where)
            return fail(x, "42000", e->position, "Cannot have aggregate "
                        "function in WHERE clause (at character %zu)",
                        e->position);
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
            } else if (n->sub == A_SUM && (arg->k == K_INT ||
                                           arg->k == K_BOOL)) {
                n->k = K_INT;
                n->type = arg->type == JET_T_BIGINT ? JET_T_BIGINT
                                                    : JET_T_LONG;
            } else {
                n->k = K_DOUBLE;
                n->type = JET_T_DOUBLE;
            }
            break;
        default:
            n->k = arg->k == K_ANY ? K_TEXT : arg->k;
            n->type = arg->type ? arg->type : type_of_kind(n->k);
            break;
        }
        sql_stmt *st = x->st;
        if (st->naggs == x->naggs_cap) {
            size_t cap = x->naggs_cap ? 2 * x->naggs_cap : 8;
            enode **g = sql_arena_alloc(&st->arena, cap * sizeof *g);
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
    const sql_funcdef *f = sql_func_find(e->text);
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
        if (a->kind == EXPR_COLUMN && !strcmp(a->text, "*"))
            return fail(x, "42000", a->position, "* is only allowed in "
                        "COUNT(*) (at character %zu)", a->position);
        if (compile(x, a, &n->args[i]) != 0)
            return -1;
    }
    sql_func_bind(n, x->st->params, x->st->nparams);
    *out = n;
    return 0;
}

static int compile_column(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    if (!strcmp(e->text, "*") && !e->quote)
        return fail(x, "42000", e->position, "* is only allowed in COUNT(*) "
                    "(at character %zu)", e->position);
    int col = qualifier_ok(st, e->qualifier) ?
              jet_tdef_find_column(st->td, e->text) : -1;
    if (col < 0 && e->quote == '"' && !e->qualifier) {
        /* Jet: "text" is a string literal */
        enode *n = new_node(x, N_CONST, e->position);
        if (!n)
            return nomem(x);
        n->konst.k = K_TEXT;
        n->konst.s = sql_utf8_to_u16(e->text, &n->konst.n, arena_alloc_cb,
                                     &st->arena);
        if (!n->konst.s)
            return nomem(x);
        n->k = K_TEXT;
        n->type = JET_T_TEXT;
        *out = n;
        return 0;
    }
    if (col < 0) {
        if (e->qualifier && !qualifier_ok(st, e->qualifier))
            return fail(x, "42S22", e->position, "'%s.%s': '%s' does not "
                        "name the table in FROM (at character %zu)",
                        e->qualifier, e->text, e->qualifier, e->position);
        return fail(x, "42S22", e->position, "Column '%s' not found in "
                    "table '%s' (at character %zu)", e->text, st->td->name,
                    e->position);
    }
    const jet_column *jc = &st->td->cols[col];
    if (!x->in_agg && !x->in_where && st->naggs == 0) {
        /* checked for aggregate queries after the select list */
    }
    enode *n = new_node(x, N_COL, e->position);
    if (!n)
        return nomem(x);
    n->col = (uint16_t)col;
    n->k = kind_of_type(jc->type == JET_T_UNKNOWN_0D ? JET_T_BINARY
                        : jc->type);
    n->type = jc->type == JET_T_EXT_DATETIME ? JET_T_DATETIME
              : jc->type == JET_T_COMPLEX ? JET_T_LONG : jc->type;
    n->text = jc->name;
    st->proj[col] = true;
    *out = n;
    return 0;
}

static uint8_t arith_kind(char op, const enode *a, const enode *b)
{
    uint8_t ka = a->k, kb = b->k;
    if (op == '^' || (op == '/' && ka != K_DEC && kb != K_DEC))
        return K_DOUBLE;
    if (op == '\\' || op == 'M')
        return K_INT;
    if (op == '+' && ka == K_TEXT && kb == K_TEXT)
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

static int compile(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    enode *n;
    switch (e->kind) {
    case EXPR_NUMBER:
        if (!(n = new_node(x, N_CONST, e->position)))
            return nomem(x);
        if (sql_number_literal(e->text, &n->konst) != 0)
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
                                     &st->arena);
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
    case EXPR_COLUMN:
        return compile_column(x, e, out);
    case EXPR_PARAM:
        if (!(n = new_node(x, N_PARAM, e->position)))
            return nomem(x);
        n->param = e->param_index;
        n->k = K_ANY;
        if (n->param < st->nparams)
            n->type = JET_T_TEXT;
        *out = n;
        return 0;
    case EXPR_UNARY: {
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
            a->konst.m = -a->konst.m;
            if (a->k == K_DOUBLE && a->konst.has_dec &&
                a->konst.scale == 0 && a->konst.m == (__int128)INT64_MIN) {
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
    case EXPR_BINARY: {
        enode *a, *b;
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
            if (b->op == N_PARAM && b->param < st->nparams)
                st->params[b->param].type = JET_T_TEXT;
            if (a->op == N_PARAM && a->param < st->nparams)
                st->params[a->param].type = JET_T_TEXT;
            if (b->op == N_CONST && b->konst.k == K_TEXT) {
                n->pat = sql_like_compile(b->konst.s, b->konst.n,
                                          n->like_flags, arena_alloc_cb,
                                          &st->arena);
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
        n->k = arith_kind(c, a, b);
        n->type = type_of_kind(n->k);
        if (n->k == K_INT && (a->type == JET_T_BIGINT ||
                              b->type == JET_T_BIGINT))
            n->type = JET_T_BIGINT;
        *out = n;
        return 0;
    }
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
        n->k = K_BOOL;
        n->type = JET_T_BOOL;
        *out = n;
        return 0;
    case EXPR_FUNC:
        return compile_func(x, e, out);
    default:
        return fail(x, "HYC00", e->position, "not supported: expression "
                    "(at character %zu)", e->position);
    }
}

/* Does n read the row (a column or an aggregate)? */
static bool uses_row(const enode *n)
{
    if (n->op == N_COL || n->op == N_AGG)
        return true;
    for (size_t i = 0; i < n->nargs; i++)
        if (uses_row(n->args[i]))
            return true;
    return false;
}

/* Does n use a table column outside any aggregate? (position in *pos) */
static bool bare_column(const enode *n, size_t *pos)
{
    if (n->op == N_AGG)
        return false;
    if (n->op == N_COL) {
        *pos = n->position;
        return true;
    }
    for (size_t i = 0; i < n->nargs; i++)
        if (bare_column(n->args[i], pos))
            return true;
    return false;
}

/* ------------------------------------------------------- access path */

typedef struct sarg {
    uint16_t col;
    uint8_t kind;           /* 'e' equality list, 'r' range */
    enode **vals;           /* 'e' */
    size_t nvals;
    enode *lo, *hi;         /* 'r' */
    bool lo_incl, hi_incl;
} sarg;

static bool key_value(const enode *v)
{
    return (v->op == N_CONST && numeric_kind(v->konst.k)) ||
           v->op == N_PARAM;
}

static bool seekable_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME:
        return true;
    default:
        return false;
    }
}

/* Collect the sargs of the WHERE conjuncts (bounded by the tree). */
static void collect(const sql_stmt *st, enode *w, sarg *out, size_t *n,
                    size_t cap)
{
    if (*n >= cap)
        return;
    if (w->op == N_AND) {
        collect(st, w->args[0], out, n, cap);
        collect(st, w->args[1], out, n, cap);
        return;
    }
    sarg s;
    memset(&s, 0, sizeof s);
    if (w->op == N_CMP && w->sub != CMP_NE) {
        enode *a = w->args[0], *b = w->args[1];
        uint8_t op = w->sub;
        if (b->op == N_COL && a->op != N_COL) {
            enode *t = a;
            a = b;
            b = t;
            op = op == CMP_LT ? CMP_GT : op == CMP_LE ? CMP_GE
                 : op == CMP_GT ? CMP_LT : op == CMP_GE ? CMP_LE : op;
        }
        if (a->op != N_COL || !key_value(b))
            return;
        s.col = a->col;
        if (op == CMP_EQ) {
            s.kind = 'e';
            s.vals = &w->args[w->args[0] == a ? 1 : 0];
            s.nvals = 1;
        } else {
            s.kind = 'r';
            if (op == CMP_GT || op == CMP_GE) {
                s.lo = b;
                s.lo_incl = op == CMP_GE;
            } else {
                s.hi = b;
                s.hi_incl = op == CMP_LE;
            }
        }
    } else if (w->op == N_IN && !w->negated && w->args[0]->op == N_COL) {
        for (size_t i = 1; i < w->nargs; i++)
            if (!key_value(w->args[i]))
                return;
        s.col = w->args[0]->col;
        s.kind = 'e';
        s.vals = w->args + 1;
        s.nvals = w->nargs - 1;
    } else if (w->op == N_BETWEEN && !w->negated &&
               w->args[0]->op == N_COL && key_value(w->args[1]) &&
               key_value(w->args[2])) {
        s.col = w->args[0]->col;
        s.kind = 'r';
        s.lo = w->args[1];
        s.hi = w->args[2];
        s.lo_incl = s.hi_incl = true;
    } else {
        return;
    }
    if (!seekable_type(st->td->cols[s.col].type))
        return;
    out[(*n)++] = s;
}

static const sarg *find_sarg(const sarg *s, size_t n, uint16_t col, char kind)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].col == col && s[i].kind == kind)
            return &s[i];
    return NULL;
}

/* ORDER BY matches index ix after its first `fixed` columns (held
 * constant by single-valued equalities)? *rev: walk backwards. */
static bool order_matches(const sql_stmt *st, const jet_index *ix,
                          uint16_t fixed, uint16_t seekable, bool *rev,
                          bool *unique)
{
    size_t oi = 0;
    uint16_t j = fixed;
    int dir = 0;                /* +1 same, -1 reversed */
    while (oi < st->norder) {
        const enode *o = st->order[oi];
        if (o->op != N_COL)
            return false;
        /* an ORDER BY column fixed by equality is constant: skip it */
        bool fixed_col = false;
        for (uint16_t k = 0; k < fixed; k++)
            if (ix->cols[k].col == o->col)
                fixed_col = true;
        if (fixed_col) {
            oi++;
            continue;
        }
        if (j >= ix->ncols || j >= seekable || ix->cols[j].col != o->col)
            return false;
        int d = (ix->cols[j].ascending != st->order_desc[oi]) ? 1 : -1;
        if (dir && d != dir)
            return false;
        dir = d;
        j++;
        oi++;
    }
    *rev = dir < 0;
    /* ORDER BY covers every column of a unique index: no ties */
    *unique = ix->unique && j == ix->ncols;
    return true;
}

static int plan_access(ctx *x)
{
    sql_stmt *st = x->st;
    const jet_tdef *td = st->td;
    sarg sargs[64];
    size_t ns = 0;
    if (st->where)
        collect(st, st->where, sargs, &ns, 64);

    int best_score = 0;
    for (uint16_t i = 0; i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        uint16_t seekable = jet_index_seekable_cols(td, i);
        uint16_t neq = 0;
        size_t combos = 1;
        bool single = true;
        uint16_t fixed = 0;
        while (neq < seekable && neq < PLAN_MAX_KEYS) {
            const sarg *s = find_sarg(sargs, ns, ix->cols[neq].col, 'e');
            if (!s || combos * s->nvals > 1000)
                break;
            combos *= s->nvals;
            if (s->nvals > 1)
                single = false;
            if (single)
                fixed = (uint16_t)(neq + 1);
            neq++;
        }
        const sarg *lo = NULL, *hi = NULL;
        if (neq < seekable && ix->cols[neq].ascending) {
            for (size_t k = 0; k < ns; k++) {
                if (sargs[k].col != ix->cols[neq].col || sargs[k].kind != 'r')
                    continue;
                if (!lo && sargs[k].lo)
                    lo = &sargs[k];
                if (!hi && sargs[k].hi)
                    hi = &sargs[k];
            }
        }
        bool rev = false, unique = false;
        bool ordered = st->norder > 0 && !st->naggs &&
                       order_matches(st, ix, fixed, seekable, &rev,
                                     &unique);
        if (ordered && !single)
            ordered = false;
        /* equal keys come in row order forwards, reversed backwards:
         * walk backwards only where keys cannot be equal */
        if (ordered && rev && !unique)
            ordered = false;
        int score = neq * 10 + (lo ? 3 : 0) + (hi ? 3 : 0);
        if (score && ix->unique && neq == ix->ncols)
            score += 100;
        if (ordered)
            score += score ? 2 : 1;     /* walk for order only if no seek */
        score *= 4;     /* ties: primary key, then unique, then not FK */
        if (score)
            score += (ix->primary_key ? 2 : 0) + (ix->unique ? 1 : 0) -
                     (ix->foreign_key ? 1 : 0) + 1;
        if (score > best_score) {
            best_score = score;
            st->use_index = true;
            st->index_no = i;
            st->neq = neq;
            st->order_by_index = ordered;
            st->order_unique = ordered && unique;
            st->reverse = ordered && rev;
            for (uint16_t k = 0; k < neq; k++) {
                const sarg *s = find_sarg(sargs, ns, ix->cols[k].col, 'e');
                st->eq_n[k] = s->nvals;
                st->eq_v[k] = s->vals;
            }
            st->lo = lo ? lo->lo : NULL;
            st->lo_incl = lo ? lo->lo_incl : false;
            st->hi = hi ? hi->hi : NULL;
            st->hi_incl = hi ? hi->hi_incl : false;
        }
    }
    return 0;
}

/* -------------------------------------------------------- plan text */

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sb_add(sbuf *b, const char *fmt, ...)
{
    if (b->len >= b->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n < b->cap - b->len ? (size_t)n : b->cap - b->len - 1;
}

static void sb_value(sbuf *b, const enode *v)
{
    char buf[64];
    if (v->op == N_PARAM) {
        sb_add(b, "?%zu", v->param + 1);
        return;
    }
    sql_sv_describe(&v->konst, buf, sizeof buf);
    sb_add(b, "%s", buf);
}

static int plan_text(ctx *x)
{
    sql_stmt *st = x->st;
    sbuf b = { NULL, 0, 2048 };
    b.p = sql_arena_alloc(&st->arena, b.cap);
    if (!b.p)
        return nomem(x);
    const jet_tdef *td = st->td;
    if (st->use_index) {
        const jet_index *ix = &td->indexes[st->index_no];
        bool seek = st->neq || st->lo || st->hi;
        sb_add(&b, "%s %s.%s", seek ? "SEEK" : "INDEX", td->name, ix->name);
        if (seek) {
            sb_add(&b, " (");
            for (uint16_t k = 0; k < st->neq; k++) {
                const char *cn = td->cols[ix->cols[k].col].name;
                if (k)
                    sb_add(&b, ", ");
                if (st->eq_n[k] == 1) {
                    sb_add(&b, "%s = ", cn);
                    sb_value(&b, st->eq_v[k][0]);
                } else {
                    sb_add(&b, "%s IN (", cn);
                    for (size_t v = 0; v < st->eq_n[k]; v++) {
                        if (v)
                            sb_add(&b, ", ");
                        sb_value(&b, st->eq_v[k][v]);
                    }
                    sb_add(&b, ")");
                }
            }
            if (st->lo || st->hi) {
                const char *cn = td->cols[ix->cols[st->neq].col].name;
                if (st->neq)
                    sb_add(&b, ", ");
                if (st->lo) {
                    sb_add(&b, "%s %s ", cn, st->lo_incl ? ">=" : ">");
                    sb_value(&b, st->lo);
                }
                if (st->hi) {
                    sb_add(&b, "%s%s %s ", st->lo ? " AND " : "", cn,
                           st->hi_incl ? "<=" : "<");
                    sb_value(&b, st->hi);
                }
            }
            sb_add(&b, ")");
        }
        if (st->order_by_index)
            sb_add(&b, " ORDERED%s", st->reverse ? " REVERSE" : "");
        else if (st->reverse)
            sb_add(&b, " REVERSE");
    } else {
        sb_add(&b, "SCAN %s", td->name);
    }
    if (st->where)
        sb_add(&b, " | FILTER");
    if (st->naggs)
        sb_add(&b, " | AGGREGATE");
    if (st->distinct && !st->naggs)
        sb_add(&b, " | DISTINCT");
    if (st->norder && !st->order_by_index && !st->naggs)
        sb_add(&b, " | SORT %zu KEY%s", st->norder, st->norder > 1 ? "S" : "");
    if (st->top >= 0)
        sb_add(&b, " | TOP %lld%s%s", (long long)st->top,
               st->top_percent ? " PERCENT" : "",
               st->norder && !st->order_unique ? " WITH TIES" : "");
    if (st->offset)
        sb_add(&b, " | OFFSET %lld", (long long)st->offset);
    if (st->limit >= 0)
        sb_add(&b, " | LIMIT %lld", (long long)st->limit);
    st->plan_text = b.p;
    return 0;
}

/* ------------------------------------------------------------ prepare */

static int add_col(ctx *x, size_t *cap, out_col **oc)
{
    sql_stmt *st = x->st;
    if (st->ncols == *cap) {
        size_t ncap = *cap ? 2 * *cap : 16;
        if (ncap > 4096 * 2)
            return fail(x, "54011", 0, "Too many columns");
        out_col *g = sql_arena_alloc(&st->arena, ncap * sizeof *g);
        if (!g)
            return nomem(x);
        if (st->ncols)
            memcpy(g, st->cols, st->ncols * sizeof *g);
        st->cols = g;
        *cap = ncap;
    }
    *oc = &st->cols[st->ncols++];
    return 0;
}

static void set_table_col(sql_stmt *st, out_col *oc, uint16_t c,
                          const char *alias)
{
    const jet_column *jc = &st->td->cols[c];
    oc->src = c;
    oc->meta.name = alias ? alias : jc->name;
    oc->meta.base_table = st->td->name;
    oc->meta.base_column = jc->name;
    oc->meta.column = jc;
    oc->meta.type = jc->type;
    oc->meta.nullable = (jc->flags & JET_COL_NULLABLE) != 0;
    oc->meta.length = jc->type == JET_T_TEXT ? jc->length /
                      (jet_db_version(st->db) == JET_VER_3 ? 1 : 2) : 0;
}

static int build(ctx *x)
{
    sql_stmt *st = x->st;
    sql_query *q = st->q;
    const sql_select *sel = &q->sel;
    jet_db *db = st->db;

    if (sel->table_catalog && strcmp(sel->table_catalog, jet_db_path(db)))
        return fail(x, "42S02", sel->table_position, "Database '%s' is not "
                    "the open file (at character %zu)", sel->table_catalog,
                    sel->table_position);
    const jet_object *obj = jet_catalog_find(db, sel->table);
    if (!obj) {
        size_t n = jet_catalog_count(db);
        for (size_t i = 0; i < n; i++) {
            const jet_object *o = jet_catalog_at(db, i);
            if (o && o->kind == JET_OBJ_QUERY && o->name &&
                jet_name_equal_ci(o->name, sel->table))
                return fail(x, "HYC00", sel->table_position, "'%s' is a "
                            "saved query; reading saved queries is not "
                            "supported yet (at character %zu)", sel->table,
                            sel->table_position);
        }
        return fail(x, "42S02", sel->table_position, "The database engine "
                    "cannot find the input table '%s' (at character %zu)",
                    sel->table, sel->table_position);
    }
    jet_rc rc = jet_tdef_load(&st->td, db, obj);
    if (rc != JET_OK) {
        const jet_error *je = jet_db_error(db);
        x->err->rc = rc;
        return fail(x, rc == JET_EUNSUPPORTED ? "HYC00" : rc == JET_ENOMEM ?
                    "HY001" : "HY000", sel->table_position, "table '%s': %s",
                    sel->table, je && je->msg[0] ? je->msg
                                                 : jet_rc_str(rc));
    }
    const jet_tdef *td = st->td;
    st->proj = sql_arena_alloc(&st->arena, (td->ncols ? td->ncols : 1) *
                                           sizeof *st->proj);
    st->nparams = sel->nparams;
    st->params = sql_arena_alloc(&st->arena, (st->nparams ? st->nparams : 1)
                                             * sizeof *st->params);
    if (!st->proj || !st->params)
        return nomem(x);
    for (size_t i = 0; i < st->nparams; i++)
        st->params[i].type = JET_T_TEXT;
    st->distinct = sel->distinct;
    st->top = sel->top;
    st->top_percent = q->top_percent;
    st->offset = q->offset;
    st->limit = q->limit;
    st->explain = q->explain;

    /* select list */
    size_t cap = 0;
    unsigned exprno = 1000;
    for (size_t i = 0; i < sel->nitems; i++) {
        const sql_select_item *it = &sel->items[i];
        out_col *oc;
        if (it->kind == SQL_ITEM_STAR) {
            if (it->qualifier && !qualifier_ok(st, it->qualifier))
                return fail(x, "42S02", it->position, "'%s' does not name "
                            "the table in FROM (at character %zu)",
                            it->qualifier, it->position);
            for (uint16_t c = 0; c < td->ncols; c++) {
                if (add_col(x, &cap, &oc) != 0)
                    return -1;
                set_table_col(st, oc, c, NULL);
                if (!(oc->e = new_node(x, N_COL, it->position)))
                    return nomem(x);
                oc->e->col = c;
                oc->e->k = kind_of_type(td->cols[c].type);
                oc->e->type = td->cols[c].type;
                st->proj[c] = true;
            }
            continue;
        }
        enode *e;
        if (compile(x, it->expr, &e) != 0)
            return -1;
        if (add_col(x, &cap, &oc) != 0)
            return -1;
        oc->e = e;
        oc->src = -1;
        if (e->op == N_COL && it->expr->kind == EXPR_COLUMN) {
            set_table_col(st, oc, e->col, it->alias);
        } else {
            char *label;
            if (it->alias) {
                label = (char *)it->alias;
            } else {
                label = sql_arena_alloc(&st->arena, 16);
                if (!label)
                    return nomem(x);
                snprintf(label, 16, "Expr%u", exprno++);
            }
            oc->meta.name = label;
            oc->meta.base_table = "";
            oc->meta.base_column = "";
            oc->meta.type = e->type ? e->type : JET_T_TEXT;
            oc->meta.nullable = true;
            oc->meta.length = (oc->meta.type == JET_T_TEXT) ? 255 : 0;
            if (oc->meta.type == JET_T_NUMERIC)
                oc->meta.scale = (uint8_t)sql_func_scale(e, td);
        }
    }

    if (q->where) {
        x->in_where = true;
        if (compile(x, q->where, &st->where) != 0)
            return -1;
        x->in_where = false;
    }

    /* ORDER BY: a bare name that is no column may be a select alias */
    st->norder = q->norder;
    st->order = sql_arena_alloc(&st->arena, (q->norder ? q->norder : 1) *
                                            sizeof *st->order);
    st->order_desc = sql_arena_alloc(&st->arena, (q->norder ? q->norder : 1));
    if (!st->order || !st->order_desc)
        return nomem(x);
    for (size_t i = 0; i < q->norder; i++) {
        const sql_expr *oe = q->order[i].expr;
        st->order_desc[i] = q->order[i].desc;
        if (oe->kind == EXPR_NUMBER) {
            /* ORDER BY 2: the second select-list column (ODBC, MS Query) */
            char *end;
            long k = strtol(oe->text, &end, 10);
            if (*end || k < 1 || (size_t)k > st->ncols)
                return fail(x, "42000", oe->position, "ORDER BY position "
                            "%s is not in the select list (at character "
                            "%zu)", oe->text, oe->position);
            st->order[i] = st->cols[k - 1].e;
            continue;
        }
        if (oe->kind == EXPR_COLUMN && !oe->qualifier &&
            jet_tdef_find_column(td, oe->text) < 0) {
            bool found = false;
            for (size_t c = 0; c < st->ncols; c++)
                if (jet_name_equal_ci(st->cols[c].meta.name, oe->text)) {
                    st->order[i] = st->cols[c].e;
                    found = true;
                    break;
                }
            if (found)
                continue;
        }
        if (compile(x, oe, &st->order[i]) != 0)
            return -1;
    }

    /* aggregate queries: no column outside an aggregate */
    if (st->naggs) {
        size_t pos;
        for (size_t c = 0; c < st->ncols; c++)
            if (bare_column(st->cols[c].e, &pos))
                return fail(x, "42000", pos, "Your query does not include "
                            "the specified expression '%s' as part of an "
                            "aggregate function (at character %zu)",
                            st->cols[c].meta.name, pos);
        for (size_t i = 0; i < st->norder; i++)
            if (bare_column(st->order[i], &pos))
                return fail(x, "42000", pos, "ORDER BY column is not part of "
                            "an aggregate function (at character %zu)", pos);
    }
    /* DISTINCT: ORDER BY must name selected columns */
    if (st->distinct && !st->naggs) {
        for (size_t i = 0; i < st->norder; i++) {
            bool ok = false;
            for (size_t c = 0; c < st->ncols && !ok; c++) {
                const enode *ce = st->cols[c].e;
                ok = ce == st->order[i] ||
                     (ce->op == N_COL && st->order[i]->op == N_COL &&
                      ce->col == st->order[i]->col);
            }
            if (!ok)
                return fail(x, "42000", q->order[i].position, "ORDER BY "
                            "clause conflicts with DISTINCT (at character "
                            "%zu)", q->order[i].position);
        }
    }
    for (size_t c = 0; c < st->ncols; c++)
        if (st->cols[c].e->op == N_COL)
            st->proj[st->cols[c].e->col] = true;

    st->where_const = st->where && !uses_row(st->where);
    if (plan_access(x) != 0)
        return -1;
    st->materialize = st->naggs > 0 || st->distinct || st->top_percent ||
                      (st->norder > 0 && !st->order_by_index);
    if (plan_text(x) != 0)
        return -1;
    if (st->explain) {
        /* one TEXT column "Plan" */
        out_col *oc = sql_arena_alloc(&st->arena, sizeof *oc);
        if (!oc)
            return nomem(x);
        oc->src = -1;
        oc->meta.name = "Plan";
        oc->meta.base_table = "";
        oc->meta.base_column = "";
        oc->meta.type = JET_T_MEMO;
        oc->meta.nullable = false;
        st->cols = oc;
        st->ncols = 1;
    }
    return 0;
}

int sql_stmt_prepare(sql_stmt **out, jet_db *db, const char *text,
                     size_t len, const sql_prepare_opts *opts,
                     sql_error *err)
{
    sql_error scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    *out = NULL;
    sql_query *q = NULL;
    if (sql_parse_query(&q, text, len, err) != 0)
        return -1;
    sql_stmt *st = calloc(1, sizeof *st);
    if (!st) {
        sql_select_free(&q->sel);
        sql_set_error(err, "HY001", 0, "out of memory");
        return -1;
    }
    st->db = db;
    st->q = q;
    st->like_flags = LIKE_ACCESS | LIKE_ANSI;
    if (opts && opts->like_mode == SQL_LIKE_ACCESS)
        st->like_flags = LIKE_ACCESS;
    else if (opts && opts->like_mode == SQL_LIKE_ANSI)
        st->like_flags = LIKE_ANSI;
    ctx x;
    memset(&x, 0, sizeof x);
    x.st = st;
    x.err = err;
    if (build(&x) != 0) {
        sql_stmt_free(st);
        return -1;
    }
    *out = st;
    return 0;
}

void sql_stmt_free(sql_stmt *st)
{
    if (!st)
        return;
    sql_arena_free(&st->arena);
    if (st->q)
        sql_select_free(&st->q->sel);
    free(st);
}

size_t sql_stmt_ncols(const sql_stmt *st)
{
    return st->ncols;
}

const sql_result_col *sql_stmt_col(const sql_stmt *st, size_t i)
{
    return i < st->ncols ? &st->cols[i].meta : NULL;
}

size_t sql_stmt_nparams(const sql_stmt *st)
{
    return st->nparams;
}

const sql_param_info *sql_stmt_param(const sql_stmt *st, size_t i)
{
    return i < st->nparams ? &st->params[i] : NULL;
}

const char *sql_stmt_plan_text(const sql_stmt *st)
{
    return st->plan_text ? st->plan_text : "";
}

const jet_tdef *sql_stmt_tdef(const sql_stmt *st)
{
    return st->td;
}
