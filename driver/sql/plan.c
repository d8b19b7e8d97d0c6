/*
 * plan.c - sql_stmt_prepare: bind names and types across the tables of
 * each query block, then plan access paths, join order and method,
 * grouping, subqueries and UNION (run by the op_*.c operators).
 *
 * Binding: FROM is flattened into tabs[] (a RIGHT join as the LEFT join
 * with its sides swapped); a column resolves in the block's tables (by
 * qualifier = alias, or name of an unaliased table; found in two tables:
 * 42000 as Access says it), else in the enclosing blocks (a correlated
 * reference, N_COL.up); a qualifier no block has such a table for may
 * still name an aliased table by its table name (qualifier_ok).
 * GROUP BY expressions found inside the select list, HAVING and ORDER BY
 * become group-key nodes; a column left outside an aggregate is 42000.
 * Joins: see plan_joins(). Blocks of one statement share its arena.
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
 * numeric, date, bool): an equality prefix, then one range; after them a
 * text column (jet_index_text_seekable) takes one equality or LIKE
 * prefix, or one range (op_scan.c seek_tuple). The best
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
#include "savedquery.h"

#include <math.h>
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
    const char *no_agg;     /* clause refusing aggregates (GROUP BY, ON) */
    size_t naggs_cap;
    enode *pushed;          /* conditions of an enclosing block pushed
                               into this one (push_down): ANDed to WHERE */
} ctx;

static int build_block(sql_stmt **out, sql_stmt *parent, sql_stmt *root,
                       sql_query *qb, bool branch, enode *pushed,
                       sql_error *err);

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
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (n) {
        n->op = op;
        n->position = pos;
    }
    return n;
}

static int alloc_args(ctx *x, enode *n, size_t count)
{
    n->nargs = count;
    n->args = sql_arena_alloc(x->st->ar, (count ? count : 1) *
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

/* Does qualifier q name table tp? Exact: its alias when it has one, else
 * its name - in Access an aliased table is known by its alias only, so
 * `Employees` in `FROM Employees INNER JOIN Employees AS Employees_1`
 * names the first copy, and inside `(SELECT ... FROM Orders AS o2 ...)`
 * `Orders` names the outer query's Orders. Lenient (!exact): the table
 * name is accepted beside an alias too, as before; callers try it only
 * when no table of any enclosing block matches exactly. */
static bool qualifier_ok(const tab_plan *tp, const char *q, bool exact)
{
    if (!q)
        return true;
    if (tp->alias && jet_name_equal_ci(q, tp->alias))
        return true;
    if (exact && tp->alias)
        return false;
    return tp->name && jet_name_equal_ci(q, tp->name);
}

/* Column named name of table tp, or -1. */
static int tab_find_column(const tab_plan *tp, const char *name)
{
    if (tp->td)
        return jet_tdef_find_column(tp->td, name);
    for (uint16_t i = 0; i < tp->ncols; i++)
        if (jet_name_equal_ci(tp->sub->cols[i].meta.name, name))
            return i;
    return -1;
}

/* The table column behind a column node (walking out to the enclosing
 * statement of a correlated reference), or NULL. */
static const jet_column *node_column(const sql_stmt *st, const enode *n)
{
    if (n->op != N_COL)
        return NULL;
    for (uint8_t u = 0; u < n->up && st; u++)
        st = st->parent;
    if (!st || n->tab >= st->ntabs)
        return NULL;
    const tab_plan *tp = &st->tabs[n->tab];
    if (tp->td)
        return &tp->td->cols[n->col];
    return tp->sub->cols[n->col].meta.column;
}

/* Jet type of column col of table tp. */
static jet_type tab_col_type(const tab_plan *tp, uint16_t col)
{
    /* a calculated column's values have its ResultType, not its TDEF type */
    return tp->td ? tp->td->cols[col].result_type
                  : tp->sub->cols[col].meta.type;
}

static const char *tab_col_name(const tab_plan *tp, uint16_t col)
{
    return tp->td ? tp->td->cols[col].name : tp->sub->cols[col].meta.name;
}

/* Tables of st a node reads (bit per table; subqueries and aggregates
 * count as all of them, so they are checked last). */
static uint64_t node_tabs(const enode *n)
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

static int compile(ctx *x, const sql_expr *e, enode **out);

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

/* Find qualifier.name among st's tables (the qualifier matched exactly
 * or leniently, qualifier_ok): 1 found (*tab, *col), 0 not found, -1
 * ambiguous (error set). *qual_seen: the qualifier names a table of st. */
static int lookup_column(ctx *x, const sql_stmt *st, const sql_expr *e,
                         bool exact, uint16_t *tab, uint16_t *col,
                         bool *qual_seen)
{
    int found = 0;
    for (size_t i = 0; i < st->ntabs; i++) {
        const tab_plan *tp = &st->tabs[i];
        if (e->qualifier && !qualifier_ok(tp, e->qualifier, exact))
            continue;
        if (e->qualifier)
            *qual_seen = true;
        int c = tab_find_column(tp, e->text);
        if (c < 0)
            continue;
        if (found) {
            fail(x, "42000", e->position, "The specified field '%s' could "
                 "refer to more than one table listed in the FROM clause "
                 "of your SQL statement (at character %zu)", e->text,
                 e->position);
            return -1;
        }
        found = 1;
        *tab = (uint16_t)i;
        *col = (uint16_t)c;
    }
    return found;
}

/* The column type of a PARAMETERS type (0 for Value: untyped). */
static jet_type decl_type(sql_ptype t)
{
    switch (t) {
    case SQL_PT_BIT: return JET_T_BOOL;
    case SQL_PT_BYTE: return JET_T_BYTE;
    case SQL_PT_SHORT: return JET_T_INT;
    case SQL_PT_LONG: return JET_T_LONG;
    case SQL_PT_CURRENCY: return JET_T_MONEY;
    case SQL_PT_SINGLE: return JET_T_FLOAT;
    case SQL_PT_DOUBLE: return JET_T_DOUBLE;
    case SQL_PT_DATETIME: return JET_T_DATETIME;
    case SQL_PT_TEXT: return JET_T_TEXT;
    case SQL_PT_MEMO: return JET_T_MEMO;
    case SQL_PT_BINARY: return JET_T_BINARY;
    case SQL_PT_LONGBINARY: return JET_T_OLE;
    case SQL_PT_GUID: return JET_T_GUID;
    case SQL_PT_DECIMAL: return JET_T_NUMERIC;
    default: return (jet_type)0;
    }
}

/* e names no column, but a derived table or view of st (matching e's
 * qualifier) may label it "t.name": Access's label for a name its select
 * list holds twice (qualify_duplicate_labels). Then the error says so and
 * names the labels - 42000 when there are several (the reference is
 * ambiguous), 42S22 for one - and -1; else 0 (no such label). */
static int fail_qualified_labels(ctx *x, const sql_stmt *st,
                                 const sql_expr *e)
{
    size_t nl = strlen(e->text), nfound = 0;
    const char *found[3] = { NULL, NULL, NULL };
    const tab_plan *where = NULL;
    for (size_t i = 0; i < st->ntabs; i++) {
        const tab_plan *tp = &st->tabs[i];
        if (tp->td || !tp->sub || !qualifier_ok(tp, e->qualifier, false))
            continue;
        for (uint16_t c = 0; c < tp->ncols; c++) {
            const char *l = tp->sub->cols[c].meta.name;
            size_t ll = l ? strlen(l) : 0;
            if (ll < nl + 2 || l[ll - nl - 1] != '.' ||
                !jet_name_equal_ci(l + ll - nl, e->text))
                continue;
            if (nfound < 3)
                found[nfound] = l;
            nfound++;
            where = tp;
        }
    }
    if (!nfound)
        return 0;
    const char *t = where->alias ? where->alias : where->name;
    if (nfound == 1)
        return fail(x, "42S22", e->position, "Column '%s%s%s' not found: "
                    "'%s' labels it [%s]; write %s.[%s] (at character %zu)",
                    e->qualifier ? e->qualifier : "", e->qualifier ? "." : "",
                    e->text, t, found[0], t, found[0], e->position);
    return fail(x, "42000", e->position, "Column '%s%s%s' is ambiguous: "
                "'%s' holds it %zu times, labelled [%s], [%s]%s; name one, "
                "e.g. %s.[%s] (at character %zu)",
                e->qualifier ? e->qualifier : "", e->qualifier ? "." : "",
                e->text, t, nfound, found[0], found[1],
                nfound > 2 ? ", ..." : "", t, found[0], e->position);
}

/** A name a saved query's SQL cannot bind (root statement's list). */
struct sql_unbound {
    const char *name;       /* qualifier.name as written, arena */
    struct sql_unbound *next;
};

/*
 * A name in a saved query's SQL that names no column of its tables (nor
 * a declared parameter): Access takes it for a parameter and asks for its
 * value, and Microsoft's ODBC driver answers "Too few parameters.
 * Expected n." (07002) for a query run without them. The name is noted
 * (once) on the root statement and stands as a Null while the rest of
 * the query is bound, so every such name is counted; unbound_fail then
 * reports them. The user's own SQL keeps 42S22 (compile_column).
 */
static int unbound_name(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *root = x->st->root;
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s%s", e->qualifier ? e->qualifier : "",
             e->qualifier ? "." : "", e->text);
    bool seen = false;
    for (const struct sql_unbound *u = root->unbound; u && !seen;
         u = u->next)
        seen = jet_name_equal_ci(u->name, buf);
    if (!seen) {
        struct sql_unbound *u = sql_arena_alloc(root->ar, sizeof *u);
        if (!u || !(u->name = sql_arena_strndup(root->ar, buf, strlen(buf))))
            return nomem(x);
        u->next = root->unbound;
        root->unbound = u;
        root->nunbound++;
    }
    enode *n = new_node(x, N_CONST, e->position);
    if (!n)
        return nomem(x);
    *out = n;                   /* K_NULL */
    return 0;
}

/* The 07002 of a saved query qname with unbound names (unbound_name),
 * at position pos of the user's statement (0: none). */
static int unbound_fail(ctx *x, const char *qname, size_t pos)
{
    const sql_stmt *root = x->st->root;
    const struct sql_unbound *first = root->unbound;
    while (first && first->next)
        first = first->next;    /* the list is newest first */
    size_t n = root->nunbound;
    int rc = x->err->rc;
    fail(x, "07002", pos, "Too few parameters. Expected %zu. Saved query "
         "'%.60s' names [%.80s]%s, which %s not a field of its tables: "
         "Access asks for %s as a parameter", n, qname,
         first ? first->name : "", n > 1 ? " and more" : "",
         n > 1 ? "are" : "is", n > 1 ? "each" : "it");
    x->err->rc = rc;
    return -1;
}

static int compile_column(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    if (!strcmp(e->text, "*") && !e->quote)
        return fail(x, "42000", e->position, "* is only allowed in COUNT(*) "
                    "(at character %zu)", e->position);
    if (!e->qualifier && e->quote != '"' && st->qb) {
        /* a name declared in PARAMETERS is that parameter (as Access and
         * Microsoft's driver read it, before any column of that name) */
        for (size_t k = 0; k < st->qb->ndecl; k++) {
            if (strcasecmp(st->qb->decl[k].name, e->text))
                continue;
            enode *n = new_node(x, N_PARAM, e->position);
            if (!n)
                return nomem(x);
            n->param = k;
            n->k = K_ANY;
            n->type = k < st->nparams && st->params[k].type
                      ? st->params[k].type : JET_T_TEXT;
            *out = n;
            return 0;
        }
    }
    uint16_t tab = 0, col = 0;
    uint8_t up = 0;
    bool qual_seen = false;
    sql_stmt *owner = st;
    int r = 0;
    /* a qualifier: first the blocks (innermost first) for a table it
     * names exactly, then, when none has one, for an aliased table's
     * name (qualifier_ok) */
    for (int pass = 0; pass < (e->qualifier ? 2 : 1); pass++) {
        bool exact = e->qualifier && pass == 0;
        for (owner = st, up = 0; owner; owner = owner->parent, up++) {
            r = lookup_column(x, owner, e, exact, &tab, &col, &qual_seen);
            if (r != 0 || (e->qualifier && qual_seen))
                break;
            if (up >= 250)
                break;
        }
        if (r != 0 || qual_seen)
            break;
    }
    if (r < 0)
        return -1;
    if (r == 0 && e->quote == '"' && !e->qualifier) {
        /* Jet: "text" is a string literal */
        enode *n = new_node(x, N_CONST, e->position);
        if (!n)
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
    }
    if (r == 0) {
        for (const sql_stmt *o = st; o; o = o->parent)
            if (fail_qualified_labels(x, o, e) != 0)
                return -1;
        if (st->view_name)
            return unbound_name(x, e, out);
        if (e->qualifier && !qual_seen)
            return fail(x, "42S22", e->position, "'%s.%s': '%s' does not "
                        "name a table in FROM (at character %zu)",
                        e->qualifier, e->text, e->qualifier, e->position);
        if (st->ntabs == 1 && st->tabs[0].td)
            return fail(x, "42S22", e->position, "Column '%s' not found in "
                        "table '%s' (at character %zu)", e->text,
                        st->tabs[0].td->name, e->position);
        return fail(x, "42S22", e->position, "Column '%s%s%s' not found in "
                    "the tables of FROM (at character %zu)",
                    e->qualifier ? e->qualifier : "",
                    e->qualifier ? "." : "", e->text, e->position);
    }
    tab_plan *tp = &owner->tabs[tab];
    jet_type t = tab_col_type(tp, col);
    enode *n = new_node(x, N_COL, e->position);
    if (!n)
        return nomem(x);
    n->col = col;
    n->tab = tab;
    n->up = up;
    n->k = kind_of_type(t == JET_T_UNKNOWN_0D ? JET_T_BINARY : t);
    n->type = t == JET_T_EXT_DATETIME ? JET_T_DATETIME
              : t == JET_T_COMPLEX ? JET_T_LONG : t;
    n->text = tab_col_name(tp, col);
    tp->proj[col] = true;
    for (sql_stmt *s2 = st; s2 != owner; s2 = s2->parent)
        s2->correlated = true;
    *out = n;
    return 0;
}

static int decorrelate(ctx *x, enode *n);
static int plan_text(ctx *x);

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

static uint8_t arith_kind(char op, const enode *a, const enode *b)
{
    uint8_t ka = a->k, kb = b->k;
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
static size_t utf8_chars(const char *s)
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

static bool enode_equal(const enode *a, const enode *b);

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

static int compile(ctx *x, const sql_expr *e, enode **out)
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
    case EXPR_BINARY: {
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
static bool uses_row(const enode *n)
{
    if (n->op == N_COL || n->op == N_AGG || n->op == N_SUBQ ||
        n->op == N_GKEY)
        return true;
    for (size_t i = 0; i < n->nargs; i++)
        if (uses_row(n->args[i]))
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

/* A key value for a seek: a numeric constant, a parameter, a column of
 * an enclosing query (correlated subquery), or (index nested-loop join)
 * a numeric expression reading only tables in avail. */
static bool key_value(const enode *v, uint64_t avail)
{
    if (v->op == N_CONST)
        return numeric_kind(v->konst.k);
    if (v->op == N_PARAM)
        return true;
    if (!numeric_kind(v->k) || v->k == K_DATE)
        return false;
    /* a correlated subquery's outer column, or an expression of outer
     * columns, parameters and constants (a.id + 1): constant for one run
     * (node_tabs counts subqueries and aggregates as every table) */
    uint64_t m = node_tabs(v);
    if (m == 0)
        return true;
    return avail && (m & ~avail) == 0;
}

static bool own_col(const enode *n, uint16_t tab)
{
    return n->op == N_COL && n->tab == tab && n->up == 0;
}

static bool is_text_type(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_MEMO;
}

/* A key value of column col of table tab: for text columns text keys
 * (constants, parameters, or for an index nested-loop join a text
 * expression reading only tables in avail: the outer row's value, sought
 * as its General-order prefix like a constant, op_scan.c seek_tuple),
 * else key_value(). A correlated subquery's outer text column is not a
 * key here: such a block hashes its table once (decorrelate). */
static bool col_key_value(const sql_stmt *st, uint16_t tab, uint16_t col,
                          const enode *v, uint64_t avail)
{
    if (!is_text_type(st->tabs[tab].td->cols[col].type))
        return key_value(v, avail);
    if (v->op == N_PARAM || (v->op == N_CONST && v->konst.k == K_TEXT))
        return true;
    if (v->k != K_TEXT || !avail)
        return false;
    uint64_t m = node_tabs(v);
    return m && (m & ~avail) == 0;
}

/* LIKE with a constant pattern on a text column: its literal prefix (up
 * to the first wildcard or class) as an equality key, which the index
 * seeks as a prefix (jet_index_text_seekable). */
static bool like_sarg(const sql_stmt *st, uint16_t tab, enode *w, sarg *s)
{
    enode *a = w->args[0], *b = w->args[1], *k, **vals;
    size_t n = 0;
    if (w->negated || !own_col(a, tab) ||
        !is_text_type(st->tabs[tab].td->cols[a->col].type) ||
        b->op != N_CONST || b->konst.k != K_TEXT)
        return false;
    while (n < b->konst.n) {
        uint16_t ch = b->konst.s[n];
        if (ch == '[' ||
            ((w->like_flags & LIKE_ACCESS) &&
             (ch == '*' || ch == '?' || ch == '#')) ||
            ((w->like_flags & LIKE_ANSI) && (ch == '%' || ch == '_')))
            break;
        n++;
    }
    if (n == 0)
        return false;
    k = sql_arena_alloc(st->ar, sizeof *k);
    vals = sql_arena_alloc(st->ar, sizeof *vals);
    if (!k || !vals)
        return false;
    memset(k, 0, sizeof *k);
    k->op = N_CONST;
    k->k = K_TEXT;
    k->type = JET_T_TEXT;
    k->position = b->position;
    k->konst = b->konst;
    k->konst.n = n;
    vals[0] = k;
    s->col = a->col;
    s->kind = 'e';
    s->vals = vals;
    s->nvals = 1;
    return true;
}

static bool seekable_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME: case JET_T_TEXT: case JET_T_MEMO:
        return true;
    default:
        return false;
    }
}

/* Collect the sargs on table tab of the conjuncts of w (bounded by the
 * tree's height). */
static void collect(const sql_stmt *st, uint16_t tab, uint64_t avail,
                    enode *w, sarg *out, size_t *n, size_t cap)
{
    if (*n >= cap)
        return;
    if (w->op == N_AND) {
        collect(st, tab, avail, w->args[0], out, n, cap);
        collect(st, tab, avail, w->args[1], out, n, cap);
        return;
    }
    sarg s;
    memset(&s, 0, sizeof s);
    if (w->op == N_CMP && w->sub != CMP_NE) {
        enode *a = w->args[0], *b = w->args[1];
        uint8_t op = w->sub;
        if (own_col(b, tab) && !own_col(a, tab)) {
            enode *t = a;
            a = b;
            b = t;
            op = op == CMP_LT ? CMP_GT : op == CMP_LE ? CMP_GE
                 : op == CMP_GT ? CMP_LT : op == CMP_GE ? CMP_LE : op;
        }
        if (!own_col(a, tab) || !col_key_value(st, tab, a->col, b, avail))
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
    } else if (w->op == N_IN && !w->negated && own_col(w->args[0], tab)) {
        for (size_t i = 1; i < w->nargs; i++)
            if (!col_key_value(st, tab, w->args[0]->col, w->args[i], 0))
                return;
        s.col = w->args[0]->col;
        s.kind = 'e';
        s.vals = w->args + 1;
        s.nvals = w->nargs - 1;
    } else if (w->op == N_BETWEEN && !w->negated &&
               own_col(w->args[0], tab) &&
               col_key_value(st, tab, w->args[0]->col, w->args[1], avail) &&
               col_key_value(st, tab, w->args[0]->col, w->args[2], avail)) {
        s.col = w->args[0]->col;
        s.kind = 'r';
        s.lo = w->args[1];
        s.hi = w->args[2];
        s.lo_incl = s.hi_incl = true;
    } else if (w->op == N_LIKE) {
        if (!like_sarg(st, tab, w, &s))
            return;
    } else {
        return;
    }
    if (!seekable_type(st->tabs[tab].td->cols[s.col].type))
        return;
    /* text ranges seek too: text compares in General order, the order
     * of the file's text indexes (plan_access, seek_tuple) */
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
static bool order_matches(const sql_stmt *st, uint16_t tab,
                          const jet_index *ix, uint16_t fixed,
                          uint16_t seekable, bool *rev, bool *unique)
{
    size_t oi = 0;
    uint16_t j = fixed;
    int dir = 0;                /* +1 same, -1 reversed */
    while (oi < st->norder) {
        const enode *o = st->order[oi];
        if (!own_col(o, tab))
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

/*
 * The single-table access path: choose how table tab is read given the
 * conditions conds[0..nconds) (trees of AND) and the tables avail
 * already positioned when it is read (0 for the first table). Index
 * equality prefixes, then one range, on seekable key columns; the best
 * by (unique full match, prefix length, range), or an index walk that
 * gives ORDER BY (allow_order: single-table queries). After the numeric
 * equality columns, one text equality or LIKE literal prefix seeks
 * (jet_index_text_seekable). Fills st->tabs[tab].ap; returns its score
 * (0: scan).
 */
static int plan_access(ctx *x, uint16_t tab, enode *const *conds,
                       size_t nconds, uint64_t avail, bool allow_order)
{
    sql_stmt *st = x->st;
    tab_plan *tp = &st->tabs[tab];
    access_path *ap = &tp->ap;
    memset(ap, 0, sizeof *ap);
    const jet_tdef *td = tp->td;
    if (!td)
        return 0;
    sarg sargs[64];
    size_t ns = 0;
    for (size_t i = 0; i < nconds; i++)
        if (conds[i])
            collect(st, tab, avail, conds[i], sargs, &ns, 64);

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
        /* then one text key, a prefix seek: one value only (prefixes of
         * IN values could overlap and return rows twice); rows come in
         * General order, not ordered by the following columns */
        if (neq == seekable && neq < PLAN_MAX_KEYS &&
            jet_index_text_seekable(st->db, td, i)) {
            const sarg *s = find_sarg(sargs, ns, ix->cols[neq].col, 'e');
            if (s && s->nvals == 1) {
                single = false;
                neq++;
            }
        }
        /* one range: on the next numeric key column, or on the text
         * column after them (bounds as prefixes, which the walk widens
         * to whole keys: seek_tuple) when it is ascending */
        const sarg *lo = NULL, *hi = NULL;
        if ((neq < seekable ||
             (neq == seekable && neq < ix->ncols && neq < PLAN_MAX_KEYS &&
              jet_index_text_seekable(st->db, td, i))) &&
            ix->cols[neq].ascending) {
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
        bool ordered = allow_order && st->norder > 0 && !st->grouped &&
                       order_matches(st, tab, ix, fixed, seekable, &rev,
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
            ap->use_index = true;
            ap->index_no = i;
            ap->neq = neq;
            ap->order_by_index = ordered;
            ap->order_unique = ordered && unique;
            ap->reverse = ordered && rev;
            ap->keys_vary = false;
            for (uint16_t k = 0; k < neq; k++) {
                const sarg *s = find_sarg(sargs, ns, ix->cols[k].col, 'e');
                ap->eq_n[k] = s->nvals;
                ap->eq_v[k] = s->vals;
                for (size_t v = 0; v < s->nvals; v++)
                    if (node_tabs(s->vals[v]))
                        ap->keys_vary = true;
            }
            ap->lo = lo ? lo->lo : NULL;
            ap->lo_incl = lo ? lo->lo_incl : false;
            ap->hi = hi ? hi->hi : NULL;
            ap->hi_incl = hi ? hi->hi_incl : false;
            if ((ap->lo && node_tabs(ap->lo)) || (ap->hi && node_tabs(ap->hi)))
                ap->keys_vary = true;
        }
    }
    return best_score;
}

/* ------------------------------------------------------------ joins */

/* One conjunct of WHERE and the inner joins' ON conditions. */
typedef struct conj {
    enode *e;
    uint64_t m;             /* tables it reads */
    size_t minL;            /* outer joins: the first level it may be
                               checked at (after the groups of the tables
                               it reads are complete) */
    bool used;
} conj;

typedef struct conj_list {
    conj *v;
    size_t n, cap;
} conj_list;

/* Split e at its ANDs into l (depth bounded by the tree's height). */
static int split_conj(ctx *x, enode *e, conj_list *l, uint64_t all)
{
    if (e->op == N_AND) {
        if (split_conj(x, e->args[0], l, all) != 0)
            return -1;
        return split_conj(x, e->args[1], l, all);
    }
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        conj *g = sql_arena_alloc(x->st->ar, ncap * sizeof *g);
        if (!g)
            return nomem(x);
        if (l->n)
            memcpy(g, l->v, l->n * sizeof *g);
        l->v = g;
        l->cap = ncap;
    }
    l->v[l->n].e = e;
    l->v[l->n].m = node_tabs(e) & all;
    l->v[l->n].minL = 0;
    l->v[l->n].used = false;
    l->n++;
    return 0;
}

/* Balanced AND of the nodes v[lo..hi): height log2(n) + theirs. */
static enode *and_tree(ctx *x, enode **v, size_t lo, size_t hi)
{
    if (hi - lo == 1)
        return v[lo];
    size_t mid = lo + (hi - lo) / 2;
    enode *n = new_node(x, N_AND, v[lo]->position);
    if (!n || alloc_args(x, n, 2) != 0)
        return NULL;
    if (!(n->args[0] = and_tree(x, v, lo, mid)) ||
        !(n->args[1] = and_tree(x, v, mid, hi)))
        return NULL;
    n->k = K_BOOL;
    n->type = JET_T_BOOL;
    return n;
}

/* Hash class of a kind: equal values hash equal within one class. */
static int hash_class(uint8_t k)
{
    switch (k) {
    case K_BOOL: case K_INT: case K_MONEY: case K_DOUBLE: case K_DEC:
        return 1;
    case K_DATE: return 2;
    case K_TEXT: return 3;
    case K_BIN: case K_GUID: return 4;
    default: return 0;
    }
}

#define MAX_HASH_KEYS 16

/* Equi-join keys of table tab against tables avail among the conditions
 * v (each a conjunct): their number; in[]/outk[] the two sides, used[]
 * the conjunct of each key (pointers into v's nodes). */
static size_t hash_keys_of(uint16_t tab, uint64_t avail, enode *const *v,
                           size_t n, enode **in, enode **outk,
                           const enode **used)
{
    size_t nk = 0;
    uint64_t me = (uint64_t)1 << tab;
    for (size_t i = 0; i < n && nk < MAX_HASH_KEYS; i++) {
        const enode *w = v[i];
        if (w->op != N_CMP || w->sub != CMP_EQ)
            continue;
        enode *a = w->args[0], *b = w->args[1];
        uint64_t ma = node_tabs(a), mb = node_tabs(b);
        if (mb == me && ma && (ma & ~avail) == 0) {
            enode *t = a;
            a = b;
            b = t;
            uint64_t tm = ma;
            ma = mb;
            mb = tm;
        }
        if (ma != me || !mb || (mb & ~avail) != 0)
            continue;
        if (!hash_class(a->k) || hash_class(a->k) != hash_class(b->k))
            continue;
        in[nk] = a;
        outk[nk] = b;
        if (used)
            used[nk] = w;
        nk++;
    }
    return nk;
}

/* The hash keys of tp (see hash_keys_of) stored in the arena; their
 * number, 0 on none (or no memory: x->err set, *bad). */
static size_t find_hash_keys(ctx *x, tab_plan *tp, uint16_t tab,
                             uint64_t avail, enode *const *v, size_t n,
                             const enode **used, bool *bad)
{
    enode *in[MAX_HASH_KEYS], *outk[MAX_HASH_KEYS];
    size_t nk = hash_keys_of(tab, avail, v, n, in, outk, used);
    if (!nk)
        return 0;
    tp->hk_inner = sql_arena_alloc(x->st->ar, nk * sizeof *tp->hk_inner);
    tp->hk_outer = sql_arena_alloc(x->st->ar, nk * sizeof *tp->hk_outer);
    if (!tp->hk_inner || !tp->hk_outer) {
        *bad = true;
        nomem(x);
        return 0;
    }
    memcpy(tp->hk_inner, in, nk * sizeof *in);
    memcpy(tp->hk_outer, outk, nk * sizeof *outk);
    tp->nhkeys = nk;
    return nk;
}

/* Conditions of l usable at level L when the tables in mask are
 * positioned (not yet used) into *out (arena). */
static size_t level_conds(ctx *x, conj_list *l, uint64_t mask, size_t L,
                          bool take, enode ***out)
{
    size_t n = 0;
    *out = sql_arena_alloc(x->st->ar, (l->n ? l->n : 1) * sizeof **out);
    if (!*out)
        return 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].used || (l->v[i].m & ~mask) != 0 || l->v[i].minL > L)
            continue;
        (*out)[n++] = l->v[i].e;
        if (take)
            l->v[i].used = true;
    }
    return n;
}

/* The same into a caller's buffer of l->n entries, nothing taken. */
static size_t level_conds_buf(const conj_list *l, uint64_t mask,
                              enode **out)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].used && (l->v[i].m & ~mask) == 0)
            out[n++] = l->v[i].e;
    return n;
}

/* AND of v[0..n) without the nodes in drop[0..ndrop); *out NULL when
 * nothing is left. 0 or -1 (no memory). */
static int and_without(ctx *x, enode *const *v, size_t n,
                       const enode *const *drop, size_t ndrop, enode **out)
{
    *out = NULL;
    enode **keep = sql_arena_alloc(x->st->ar, (n ? n : 1) * sizeof *keep);
    if (!keep)
        return nomem(x);
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        bool d = false;
        for (size_t j = 0; j < ndrop && !d; j++)
            d = drop[j] == v[i];
        if (!d)
            keep[nk++] = v[i];
    }
    if (nk && !(*out = and_tree(x, keep, 0, nk)))
        return nomem(x);
    return 0;
}

/* ------------------------------------------------------- join costs */

/*
 * Join order and method are chosen by estimated cost, in units of about
 * one row read by a table scan (~340 instructions). The weights come from
 * callgrind runs of perf.accdb's orders/customers join (instructions per
 * event): an index seek with its row fetch ~8,900 (COST_SEEK +
 * COST_FETCH), a row read and stored for a hash join ~1,290 (1 +
 * COST_BUILD), a hash probe ~740, a memo probe of an index join ~610
 * (COST_MEMO), a memo's first read of a key's row with the copy of its
 * values ~1,000 (COST_MEMO_ROW), one index entry learnt from a leaf
 * ~330 (COST_LEARN). The memoised index join then measured cheaper than
 * the hash join for all 10,000 orders (16.3M against 17.6M instructions,
 * with GROUP BY c.city 26.0M against 27.2M) and for 30 to 10,000 of
 * them, which these weights reproduce.
 * Row counts come from the TDEF (a derived table counts as 1,000 rows);
 * a condition on one table keeps 1/N of the rows for an equality on a
 * one-column unique index, else 10% for equality, 33% for a range, 25%
 * for BETWEEN and LIKE, 50% otherwise. An equi-join keeps R_outer x
 * R_inner / N of the pairs, N the row count of the side whose key is
 * unique (FK -> PK joins give one row per outer row), else the larger.
 */
#define COST_SEEK 25.0
#define COST_FETCH 1.5
#define COST_BUILD 2.8
#define COST_PROBE 2.2
#define COST_MEMO 1.8
#define COST_MEMO_ROW 2.9
#define COST_LEARN 1.0
#define COST_PAIR 0.3
/* a row an index join fetches through a text key (the outer row's value
 * sought as its General-order prefix): callgrind on nwind's CustomerID
 * joins measured 28-31 units per joined row where keys hold characters
 * that end the prefix early (I: ~3.7 rows fetched per match, each extra
 * one compared in General order and dropped), ~2 where they do not
 * (AROUT's 13 orders: 14 rows read); a blend between */
#define COST_FETCH_TEXT 12.0
/* the share of the inner's rows a join window bounded on both sides by
 * the outer row is taken to hold (level_estimate) */
#define JOIN_WINDOW_SEL 0.01
/* a memoised index join learns whole leaves when it probes at least
 * 1/MEMO_LEAF_SHARE of the inner's keys; keys on one leaf (4 KiB pages,
 * an integer key: ~400; fewer assumed) */
#define MEMO_LEAF_SHARE 8.0
#define MEMO_LEAF_KEYS 256.0
/* rows a hash join stores in memory before the planner prefers other
 * methods (the MaxMemory budget still bounds what is stored) */
#define HASH_ROWS_MAX 4000000.0

static double tab_rows(const tab_plan *tp)
{
    if (!tp->td)
        return 1000.0;
    return tp->td->row_count ? (double)tp->td->row_count : 1.0;
}

/* Column col of table tp alone forms a unique index. */
static bool col_unique(const tab_plan *tp, uint16_t col)
{
    if (!tp->td)
        return false;
    for (uint16_t i = 0; i < tp->td->nindexes; i++) {
        const jet_index *ix = &tp->td->indexes[i];
        if (ix->unique && ix->ncols == 1 && ix->cols[0].col == col)
            return true;
    }
    return false;
}

/* The columns cols[0..n) of table tp include all of a unique index. */
static bool cols_cover_unique(const tab_plan *tp, const uint16_t *cols,
                              size_t n)
{
    if (!tp->td)
        return false;
    for (uint16_t i = 0; i < tp->td->nindexes; i++) {
        const jet_index *ix = &tp->td->indexes[i];
        if (!ix->unique)
            continue;
        bool all = true;
        for (uint16_t k = 0; k < ix->ncols && all; k++) {
            bool f = false;
            for (size_t j = 0; j < n && !f; j++)
                f = cols[j] == ix->cols[k].col;
            all = f;
        }
        if (all)
            return true;
    }
    return false;
}

/* Fraction of table tab's rows passing condition w (on tab alone). */
static double conj_sel(const sql_stmt *st, uint16_t tab, const enode *w,
                       unsigned depth)
{
    const tab_plan *tp = &st->tabs[tab];
    double n = tab_rows(tp), s;
    if (depth > 8)
        return 0.5;
    switch (w->op) {
    case N_AND:
        return conj_sel(st, tab, w->args[0], depth + 1) *
               conj_sel(st, tab, w->args[1], depth + 1);
    case N_OR: {
        double a = conj_sel(st, tab, w->args[0], depth + 1);
        double b = conj_sel(st, tab, w->args[1], depth + 1);
        return a + b - a * b;
    }
    case N_CMP:
        if (w->sub == CMP_EQ) {
            const enode *a = w->args[0], *b = w->args[1];
            const enode *c = own_col(a, tab) ? a : own_col(b, tab) ? b : NULL;
            return c && col_unique(tp, c->col) ? 1.0 / n : 0.1;
        }
        return w->sub == CMP_NE ? 0.9 : 0.33;
    case N_IN:
        if (w->negated)
            return 0.9;
        s = (double)(w->nargs - 1) *
            (own_col(w->args[0], tab) && col_unique(tp, w->args[0]->col) ?
             1.0 / n : 0.1);
        return s > 1.0 ? 1.0 : s;
    case N_BETWEEN:
        return w->negated ? 0.75 : 0.25;
    case N_ISNULL:
        return w->negated ? 0.9 : 0.1;
    case N_LIKE:
        return w->negated ? 0.75 : 0.25;
    default:
        return 0.5;
    }
}

/* Rows of table tab passing the conditions v[0..n) that read it alone. */
static double own_rows(const sql_stmt *st, uint16_t tab, enode *const *v,
                       size_t n)
{
    uint64_t bit = (uint64_t)1 << tab;
    double r = tab_rows(&st->tabs[tab]);
    for (size_t i = 0; i < n; i++)
        if (node_tabs(v[i]) == bit)
            r *= conj_sel(st, tab, v[i], 0);
    return r < 1.0 ? 1.0 : r;
}

/* Pairs kept by the equi-join keys in[]/outk[] of inner table tab. */
static double join_sel(const sql_stmt *st, uint16_t tab, enode *const *in,
                       enode *const *outk, size_t nk)
{
    const tab_plan *tp = &st->tabs[tab];
    uint16_t cols[MAX_HASH_KEYS];
    size_t nc = 0;
    for (size_t k = 0; k < nk; k++)
        if (own_col(in[k], tab))
            cols[nc++] = in[k]->col;
    double ni = tab_rows(tp);
    if (cols_cover_unique(tp, cols, nc))
        return 1.0 / ni;
    double big = ni;
    for (size_t k = 0; k < nk; k++) {
        const enode *o = outk[k];
        if (o->op != N_COL || o->up)
            continue;
        const tab_plan *op = &st->tabs[o->tab];
        if (col_unique(op, o->col))
            return 1.0 / tab_rows(op);
        if (tab_rows(op) > big)
            big = tab_rows(op);
    }
    return 1.0 / big;
}

/* The plan of one join level: method, cost, rows out. */
typedef struct lvl_est {
    uint8_t method;
    bool memo;
    bool memo_leaf;         /* memo: learn each descended leaf's keys */
    bool fallback;          /* the forced method could not serve */
    double cost, rows;
} lvl_est;

/* An index nested-loop probe of tp can be cached per key: one integer
 * key column that is a unique index, sought by equality alone. */
static bool memo_ok(const tab_plan *tp)
{
    const access_path *ap = &tp->ap;
    if (!tp->td || !ap->use_index || !ap->keys_vary || ap->neq != 1 ||
        ap->lo || ap->hi || ap->eq_n[0] != 1)
        return false;
    const jet_index *ix = &tp->td->indexes[ap->index_no];
    if (!ix->unique || ix->ncols != 1)
        return false;
    switch (tp->td->cols[ix->cols[0].col].type) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        return true;
    default:
        return false;
    }
}

/*
 * Cost the table tab as the inner side of a join level after the tables
 * placed (outer rows est. outer): an index nested loop when an index has
 * its join key (a seek per outer row; per distinct key with a memo), a
 * hash join (its rows read and stored once, one probe per outer row), or
 * a nested loop (its rows stored once, every pair tried). v: the level's
 * conditions (for a LEFT join its ON condition's conjuncts, which alone
 * find its rows). Leaves the chosen access path in st->tabs[tab].ap.
 */
static void level_estimate(ctx *x, uint16_t tab, uint64_t placed,
                           double outer, enode *const *v, size_t nv,
                           lvl_est *out)
{
    sql_stmt *st = x->st;
    tab_plan *tp = &st->tabs[tab];
    double ni = tab_rows(tp);
    double ri = own_rows(st, tab, v, nv);
    enode *in[MAX_HASH_KEYS], *outk[MAX_HASH_KEYS];
    size_t nk = hash_keys_of(tab, placed, v, nv, in, outk, NULL);
    double rows;
    if (nk)
        rows = outer * ri * join_sel(st, tab, in, outk, nk);
    else {
        bool connected = false;
        for (size_t i = 0; i < nv; i++)
            if ((node_tabs(v[i]) & placed) && (node_tabs(v[i]) &
                                                ((uint64_t)1 << tab)))
                connected = true;
        rows = outer * ri * (connected ? 0.33 : 1.0);
    }
    if (rows < 1.0)
        rows = 1.0;
    double c_loop = ni + ri * COST_BUILD + outer * ri * COST_PAIR;
    double c_hash = nk ? ni + ri * COST_BUILD + outer * COST_PROBE +
                         (ri > HASH_ROWS_MAX ? ri * COST_SEEK : 0)
                       : -1;
    double c_index = -1;
    bool memo = false, memo_leaf = false;
    plan_access(x, tab, v, nv, placed, false);
    if (tp->ap.use_index && (tp->ap.neq || tp->ap.lo || tp->ap.hi)) {
        /* rows the seeks fetch: the join's rows before tab's own
         * conditions */
        double fetched = rows * (ni / ri);
        if (!tp->ap.keys_vary)
            fetched = outer * ri;
        else if (!tp->ap.neq && tp->ap.lo && tp->ap.hi && nk == 0)
            /* a window bounded on both sides by the outer row (b.id >
             * a.id AND b.id <= a.id + 3, a date between two of its
             * dates): such windows are narrow; assume 1% of the inner's
             * rows per outer row rather than a range's 33%, as a nested
             * loop trying every pair costs far more when it is narrow
             * than the seeks do when it is wide */
            fetched = outer * ni * JOIN_WINDOW_SEL;
        memo = memo_ok(tp);
        if (memo) {
            /* one seek and one row read per distinct key (at most the
             * inner's rows), each outer row a probe of the memo; probing
             * a good part of the table, a descent learns its whole leaf
             * (op_scan.c memo_learn_leaf), one per leaf */
            /* distinct keys among `outer` probes of ni keys (uniform) */
            double keys = ni * -expm1(-outer / ni);
            if (keys < 1.0)
                keys = 1.0;
            double seeks = keys;
            memo_leaf = keys * MEMO_LEAF_SHARE >= ni;
            if (memo_leaf) {
                double leaves = ni / MEMO_LEAF_KEYS + 1.0;
                seeks = leaves < keys ? leaves : keys;
            }
            if (fetched > keys)
                fetched = keys;
            c_index = seeks * COST_SEEK + fetched * COST_MEMO_ROW +
                      (memo_leaf ? ni * COST_LEARN : 0) + outer * COST_MEMO;
        } else {
            /* the outer row's text key seeks a prefix: more rows, each
             * compared again (COST_FETCH_TEXT) */
            const access_path *ap = &tp->ap;
            bool text_key = false;
            if (ap->neq && ap->keys_vary) {
                const jet_index *ix = &tp->td->indexes[ap->index_no];
                uint16_t k = (uint16_t)(ap->neq - 1);
                text_key = is_text_type(tp->td->cols[ix->cols[k].col].type) &&
                           ap->eq_n[k] == 1 && node_tabs(ap->eq_v[k][0]);
            }
            c_index = outer * COST_SEEK +
                      fetched * (text_key ? COST_FETCH_TEXT : COST_FETCH);
        }
    }
    uint8_t m = M_LOOP;
    double c = c_loop;
    switch (st->join_force) {
    case SQL_JOIN_INDEX:
        if (c_index >= 0)
            m = M_INDEX, c = c_index;
        else if (c_hash >= 0)
            m = M_HASH, c = c_hash;
        break;
    case SQL_JOIN_HASH:
        if (c_hash >= 0)
            m = M_HASH, c = c_hash;
        break;
    case SQL_JOIN_LOOP:
        break;
    default:
        /* with an equality, never every pair: a TDEF row count can be
         * stale (a table thought tiny may be large) */
        if (c_hash >= 0)
            m = M_HASH, c = c_hash;
        if (c_index >= 0 && c_index < c)
            m = M_INDEX, c = c_index;
        break;
    }
    out->method = m;
    out->memo = m == M_INDEX && memo;
    out->memo_leaf = out->memo && memo_leaf;
    out->fallback = st->join_force && m != (st->join_force == SQL_JOIN_INDEX
                                            ? M_INDEX : st->join_force ==
                                            SQL_JOIN_HASH ? M_HASH : M_LOOP);
    out->cost = c;
    out->rows = rows;
}

/* The first table of a join: its scan or constant seek. */
static void first_estimate(ctx *x, uint16_t tab, enode *const *v,
                           size_t nv, lvl_est *out)
{
    sql_stmt *st = x->st;
    tab_plan *tp = &st->tabs[tab];
    double ri = own_rows(st, tab, v, nv);
    int sc = plan_access(x, tab, v, nv, 0, false);
    out->method = tp->ap.use_index ? M_INDEX : M_SCAN;
    out->memo = false;
    out->memo_leaf = false;
    out->fallback = false;
    out->rows = ri;
    out->cost = sc && (tp->ap.neq || tp->ap.lo || tp->ap.hi)
                ? COST_SEEK + ri * COST_FETCH : tab_rows(tp);
}

/* Inner-join order search: from each start table (all of them up to 10
 * tables, else the cheapest first table), greedily the cheapest next
 * level; the order of least total cost. 0 or -1. */
static int choose_order(ctx *x, conj_list *l)
{
    sql_stmt *st = x->st;
    size_t n = st->ntabs;
    enode **buf = malloc((l->n ? l->n : 1) * sizeof *buf);
    size_t *ord = malloc(n * sizeof *ord);
    if (!buf || !ord) {
        free(buf);
        free(ord);
        return nomem(x);
    }
    double best_total = -1;
    size_t cheapest = 0;
    if (n > 10) {
        double cmin = -1;
        for (size_t i = 0; i < n; i++) {
            lvl_est e;
            size_t nv = level_conds_buf(l, (uint64_t)1 << i, buf);
            first_estimate(x, (uint16_t)i, buf, nv, &e);
            if (cmin < 0 || e.cost < cmin) {
                cmin = e.cost;
                cheapest = i;
            }
        }
    }
    for (size_t s = 0; s < n; s++) {
        if (n > 10 && s != cheapest)
            continue;
        uint64_t placed = (uint64_t)1 << s;
        lvl_est e;
        size_t nv = level_conds_buf(l, placed, buf);
        first_estimate(x, (uint16_t)s, buf, nv, &e);
        double total = e.cost, rows = e.rows;
        ord[0] = s;
        for (size_t L = 1; L < n; L++) {
            int best = -1;
            bool best_conn = false;
            lvl_est be = { .method = 0 };
            for (size_t i = 0; i < n; i++) {
                uint64_t bit = (uint64_t)1 << i;
                if (placed & bit)
                    continue;
                nv = level_conds_buf(l, placed | bit, buf);
                bool conn = false;
                for (size_t k = 0; k < nv; k++)
                    if ((node_tabs(buf[k]) & placed) &&
                        (node_tabs(buf[k]) & bit))
                        conn = true;
                level_estimate(x, (uint16_t)i, placed, rows, buf, nv, &e);
                /* a connected table before a cross product; with a
                 * forced method, a level it can serve first */
                double w = e.cost + e.rows + (e.fallback ? 1e15 : 0);
                double bw = be.cost + be.rows + (be.fallback ? 1e15 : 0);
                if (best < 0 || (conn && !best_conn) ||
                    (conn == best_conn && w < bw)) {
                    best = (int)i;
                    best_conn = conn;
                    be = e;
                }
            }
            ord[L] = (size_t)best;
            placed |= (uint64_t)1 << best;
            total += be.cost + (be.fallback ? 1e15 : 0);
            rows = be.rows;
        }
        if (best_total < 0 || total < best_total) {
            best_total = total;
            memcpy(st->order_tabs, ord, n * sizeof *ord);
        }
    }
    free(buf);
    free(ord);
    return 0;
}

/* ---------------------------------------------------- outer joins */

/* Owners own[from..to) = owner, the array grown to `to` entries. */
static int grow_owners(ctx *x, int32_t **own, size_t from, size_t to,
                       int32_t owner)
{
    int32_t *g = sql_arena_alloc(x->st->ar, (to ? to : 1) * sizeof *g);
    if (!g)
        return nomem(x);
    if (from && *own)
        memcpy(g, *own, from * sizeof *g);
    for (size_t i = from; i < to; i++)
        g[i] = owner;
    *own = g;
    return 0;
}

/* The last level of the outermost group containing table t (t itself
 * outside any group): a condition reading t is checked there at the
 * earliest, after every group holding t has decided its match. */
static size_t group_last(const sql_stmt *st, size_t t)
{
    int32_t h = st->tabs[t].ginner, top = -1;
    for (unsigned d = 0; h >= 0 && d <= PLAN_MAX_TABS; d++) {
        top = h;
        h = st->tabs[h].gparent;
    }
    return top < 0 ? t : (size_t)st->tabs[top].gend - 1;
}

/*
 * Outer joins whose optional side is a group of tables (a LEFT join of a
 * parenthesised join, nested RIGHT joins): the conditions deciding each
 * group's match (ml, owners mown) go to the first level where the tables
 * they read are positioned, within their group (mc/mc_owner/on of that
 * level); a condition reading a table after its group is 42000 as in
 * Access. The WHERE and the ON conditions outside any group (cl) wait
 * until every group holding a table they read is complete (minL).
 */
static int place_group_conds(ctx *x, conj_list *ml, const int32_t *mown)
{
    sql_stmt *st = x->st;
    size_t n = st->ntabs;
    size_t *lv = sql_arena_alloc(st->ar, (ml->n ? ml->n : 1) * sizeof *lv);
    size_t *cnt = sql_arena_alloc(st->ar, n * sizeof *cnt);
    if (!lv || !cnt)
        return nomem(x);
    memset(cnt, 0, n * sizeof *cnt);
    for (size_t i = 0; i < ml->n; i++) {
        int32_t o = mown[i];
        size_t end = st->tabs[o].gend, L = (size_t)o;
        if (node_tabs(ml->v[i].e) == ~(uint64_t)0) {
            L = end - 1;        /* subqueries: with the whole group */
        } else {
            for (size_t t = 0; t < n; t++)
                if ((ml->v[i].m >> t) & 1 && t > L)
                    L = t;
            if (L >= end)
                return fail(x, "42000", ml->v[i].e->position, "JOIN "
                            "expression not supported: an ON condition "
                            "reads a table outside its join (at character "
                            "%zu)", ml->v[i].e->position);
        }
        lv[i] = L;
        cnt[L]++;
    }
    for (size_t L = 0; L < n; L++) {
        tab_plan *tp = &st->tabs[L];
        tp->nmc = 0;
        if (!cnt[L])
            continue;
        tp->mc = sql_arena_alloc(st->ar, cnt[L] * sizeof *tp->mc);
        tp->mc_owner = sql_arena_alloc(st->ar, cnt[L] *
                                               sizeof *tp->mc_owner);
        if (!tp->mc || !tp->mc_owner)
            return nomem(x);
    }
    for (size_t i = 0; i < ml->n; i++) {
        tab_plan *tp = &st->tabs[lv[i]];
        tp->mc_owner[tp->nmc] = mown[i];
        tp->mc[tp->nmc++] = ml->v[i].e;
    }
    return 0;
}

/* Post conditions (cl) of a query with outer joins: the earliest level
 * each may be checked at (conj.minL). */
static void place_post_conds(const sql_stmt *st, conj_list *l)
{
    size_t n = st->ntabs;
    for (size_t i = 0; i < l->n; i++) {
        size_t m = 0;
        if (node_tabs(l->v[i].e) == ~(uint64_t)0) {
            m = n - 1;
        } else {
            for (size_t t = 0; t < n; t++)
                if ((l->v[i].m >> t) & 1) {
                    size_t g = group_last(st, t);
                    if (g > m)
                        m = g;
                }
        }
        l->v[i].minL = m;
    }
}

/*
 * Join order and method. Inner joins only: the order of least estimated
 * cost (choose_order). With a LEFT (or RIGHT) join anywhere, the FROM
 * order, which keeps each outer join's preserved tables first. Each
 * level's method by cost (level_estimate), or the one forced by
 * sql_prepare_opts.join_method. Each condition is checked at the first
 * level where every table it reads is positioned; conditions a level's
 * method decides itself (hash keys, conditions applied while storing the
 * rows, equalities an index seek matches exactly) are not checked again.
 */
static int plan_joins(ctx *x, conj_list *l, bool has_left)
{
    sql_stmt *st = x->st;
    size_t n = st->ntabs;
    uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    st->order_tabs = sql_arena_alloc(st->ar, (n ? n : 1) *
                                             sizeof *st->order_tabs);
    if (!st->order_tabs)
        return nomem(x);
    for (size_t i = 0; i < n; i++)
        st->order_tabs[i] = i;
    if (!has_left && n > 1 && choose_order(x, l) != 0)
        return -1;
    if (has_left)
        place_post_conds(st, l);
    /* each level: access path, method, its conditions */
    uint64_t placed = 0;
    double rows = 1.0;
    for (size_t L = 0; L < n; L++) {
        uint16_t tab = (uint16_t)st->order_tabs[L];
        tab_plan *tp = &st->tabs[tab];
        uint64_t bit = (uint64_t)1 << tab;
        enode **v;
        size_t nv = level_conds(x, l, placed | bit, L, true, &v);
        if (L == n - 1) {
            /* whatever is left (reads all tables, subqueries) */
            enode **rest;
            size_t nr = level_conds(x, l, all, L, true, &rest);
            enode **both = sql_arena_alloc(st->ar, (nv + nr + 1) *
                                                   sizeof *both);
            if (!both)
                return nomem(x);
            memcpy(both, v, nv * sizeof *v);
            memcpy(both + nv, rest, nr * sizeof *rest);
            v = both;
            nv += nr;
        }
        /* the conditions that find the level's rows: inside an outer
         * join's optional side only those deciding the match (the WHERE
         * waits for the group's NULL-extended row) */
        bool in_group = tp->ginner >= 0;
        enode **flat = in_group ? tp->mc : v;
        size_t nflat = in_group ? tp->nmc : nv;
        lvl_est e;
        if (L == 0) {
            first_estimate(x, tab, flat, nflat, &e);
            /* a single table may walk an index for ORDER BY */
            plan_access(x, tab, flat, nflat, 0, n == 1);
            tp->method = tp->ap.use_index ? M_INDEX : M_SCAN;
        } else {
            level_estimate(x, tab, placed, rows, flat, nflat, &e);
            tp->method = e.method;
        }
        tp->est_rows = e.rows;
        tp->est_cost = e.cost;
        rows = e.rows;
        if (nv && !(tp->filter = and_tree(x, v, 0, nv)))
            return nomem(x);
        if (L == 0 || tp->method == M_INDEX) {
            /* the access path level_estimate left (plan_access) */
            if (L > 0 && e.memo) {
                tp->memo = true;
                tp->memo_leaf = e.memo_leaf;
            }
            if (in_group && tp->nmc &&
                !(tp->on = and_tree(x, tp->mc, 0, tp->nmc)))
                return nomem(x);
            tp->seek_filter = tp->filter;
            tp->seek_on = tp->on;
            /* the conditions that found the rows: inside an outer join's
             * group its ON conditions, else the level's filter */
            enode **fv = in_group ? tp->mc : v;
            size_t nfv = in_group ? tp->nmc : nv;
            if (L > 0 && tp->ap.keys_vary && nfv) {
                /* equalities the seek matches exactly are not checked
                 * again (unless the level has to scan); a text key's
                 * seek is a prefix seek that finds more (longer keys,
                 * accent and punctuation variants): its equality stays */
                const enode *drop[PLAN_MAX_KEYS];
                size_t nd = 0;
                const jet_index *six = &tp->td->indexes[tp->ap.index_no];
                for (size_t i = 0; i < nfv; i++) {
                    const enode *w = fv[i];
                    if (w->op != N_CMP || w->sub != CMP_EQ)
                        continue;
                    for (uint16_t k = 0; k < tp->ap.neq; k++)
                        if (tp->ap.eq_n[k] == 1 &&
                            !is_text_type(tp->td->cols[six->cols[k].col].type) &&
                            node_tabs(tp->ap.eq_v[k][0]) &&
                            (tp->ap.eq_v[k] == &w->args[0] ||
                             tp->ap.eq_v[k] == &w->args[1]) &&
                            nd < PLAN_MAX_KEYS)
                            drop[nd++] = w;
                }
                if (and_without(x, fv, nfv, drop, nd, in_group ?
                                &tp->seek_on : &tp->seek_filter) != 0)
                    return -1;
            }
            placed |= bit;
            continue;
        }
        memset(&tp->ap, 0, sizeof tp->ap);
        const enode **drop = sql_arena_alloc(st->ar, (nflat + MAX_HASH_KEYS) *
                                                     sizeof *drop);
        enode **own = sql_arena_alloc(st->ar, (nflat ? nflat : 1) *
                                              sizeof *own);
        if (!drop || !own)
            return nomem(x);
        size_t nd = 0;
        bool bad = false;
        if (tp->method == M_HASH) {
            size_t nk = find_hash_keys(x, tp, tab, placed, flat, nflat, drop,
                                       &bad);
            if (bad)
                return -1;
            if (!nk)
                tp->method = M_LOOP;
            nd = nk;
        }
        /* conditions on this table alone prune the stored rows */
        size_t nown = 0;
        for (size_t i = 0; i < nflat; i++)
            if (node_tabs(flat[i]) == bit) {
                own[nown++] = flat[i];
                drop[nd++] = flat[i];
            }
        if (nown && !(tp->build_filter = and_tree(x, own, 0, nown)))
            return nomem(x);
        /* what the stored rows and the hash keys decide is not checked
         * again */
        if (in_group) {
            if (and_without(x, flat, nflat, drop, nd, &tp->on) != 0)
                return -1;
        } else if (and_without(x, v, nv, drop, nd, &tp->filter) != 0) {
            return -1;
        }
        tp->seek_filter = tp->filter;
        placed |= bit;
    }
    return 0;
}

/* ---------------------------------------- correlated subqueries */

/* The largest up of a column (or group key) in n: 0 when n reads only
 * its own block (or nothing), 1 when it reads the enclosing one. */
static unsigned max_up(const enode *n)
{
    unsigned m = n->op == N_COL || n->op == N_GKEY ? n->up : 0;
    for (size_t i = 0; i < n->nargs; i++) {
        unsigned u = max_up(n->args[i]);
        if (u > m)
            m = u;
    }
    return m;
}

/* The conjuncts of e (split at its ANDs) into v (room from conj_count). */
static size_t conj_count(const enode *e)
{
    if (e->op != N_AND || e->nargs != 2)
        return 1;
    return conj_count(e->args[0]) + conj_count(e->args[1]);
}

static void conj_fill(enode *e, enode **v, size_t *n)
{
    if (e->op != N_AND || e->nargs != 2) {
        v[(*n)++] = e;
        return;
    }
    conj_fill(e->args[0], v, n);
    conj_fill(e->args[1], v, n);
}

/* Mark the columns of table 0 that n reads in proj. */
static void proj_mark(const enode *n, bool *proj, uint16_t ncols)
{
    if (n->op == N_COL && !n->up && n->tab == 0 && n->col < ncols)
        proj[n->col] = true;
    for (size_t i = 0; i < n->nargs; i++)
        proj_mark(n->args[i], proj, ncols);
}

/*
 * Decorrelate subquery node n of block x->st: a correlated block reading
 * one stored table that it would scan once per outer row (no index seek
 * serves its correlation) and whose WHERE holds equalities inner = outer
 * (inner reads only the table, outer only the enclosing block's row, of
 * one hash class as a hash join's keys) becomes a hash level: the rows
 * passing the WHERE's uncorrelated conjuncts are stored once, keyed by
 * the inner sides (op_scan.c build_rows: NULL keys stored nowhere, text
 * folded as '=' compares it); each outer row probes with the outer sides
 * and checks the remaining correlated conjuncts on that key's rows only.
 * The rows the block gives for an outer row are the ones its scan gives
 * (in the same order), so EXISTS, NOT EXISTS, IN, NOT IN, ANY/ALL and
 * scalar subqueries keep their meaning, NULLs included. Past the memory
 * budget the level stores nothing and reads its table per outer row as
 * before (op_scan.c rescan_next). Blocks with TOP, grouping, aggregates,
 * DISTINCT, ORDER BY, UNION, a subquery of their own, or a reference to
 * a block further out stay per row; so does everything when the join
 * method is forced to nested loops (tests compare with that form).
 * 0, or -1 out of memory (x->err).
 */
static int decorrelate(ctx *x, enode *n)
{
    sql_stmt *sub = n->subq, *st = x->st;
    if (!sub || !sub->correlated || sub->ntabs != 1 || sub->nbranch ||
        sub->grouped || sub->naggs || sub->distinct || sub->top >= 0 ||
        sub->top_percent || sub->offset || sub->limit >= 0 ||
        sub->materialize || sub->norder || sub->nsubq || !sub->where ||
        sub->where_const || sub->join_force == SQL_JOIN_LOOP)
        return 0;
    tab_plan *tp = &sub->tabs[0];
    if (!tp->td || tp->sub || tp->method != M_SCAN || tp->ginner >= 0 ||
        tp->join != JOIN_INNER)
        return 0;
    size_t nc = conj_count(sub->where);
    enode **v = sql_arena_alloc(st->ar, 3 * nc * sizeof *v);
    if (!v)
        return nomem(x);
    enode **own = v + nc, **rest = v + 2 * nc;
    size_t nv = 0, nown = 0, nrest = 0, nk = 0;
    enode *in[MAX_HASH_KEYS], *outk[MAX_HASH_KEYS];
    conj_fill(sub->where, v, &nv);
    for (size_t i = 0; i < nv; i++) {
        enode *w = v[i];
        if (node_tabs(w) & ~(uint64_t)1)
            return 0;           /* a subquery or aggregate: per row */
        unsigned u = max_up(w);
        if (u == 0) {
            own[nown++] = w;    /* uncorrelated: prunes the stored rows */
            continue;
        }
        if (u > 1)
            return 0;           /* reads a block further out */
        if (nk < MAX_HASH_KEYS && w->op == N_CMP && w->sub == CMP_EQ &&
            w->nargs == 2) {
            enode *a = w->args[0], *b = w->args[1];
            if (node_tabs(a) == 0) {
                enode *t = a;
                a = b;
                b = t;
            }
            if (node_tabs(a) == 1 && max_up(a) == 0 && node_tabs(b) == 0 &&
                hash_class(a->k) && hash_class(a->k) == hash_class(b->k)) {
                in[nk] = a;
                outk[nk] = b;
                nk++;
                continue;
            }
        }
        rest[nrest++] = w;      /* checked on the probe's rows */
    }
    if (!nk)
        return 0;
    tp->hk_inner = sql_arena_alloc(st->ar, nk * sizeof *tp->hk_inner);
    tp->hk_outer = sql_arena_alloc(st->ar, nk * sizeof *tp->hk_outer);
    if (!tp->hk_inner || !tp->hk_outer)
        return nomem(x);
    memcpy(tp->hk_inner, in, nk * sizeof *in);
    memcpy(tp->hk_outer, outk, nk * sizeof *outk);
    tp->nhkeys = nk;
    ctx sx = *x;
    sx.st = sub;
    tp->build_filter = NULL;
    if (nown && !(tp->build_filter = and_tree(&sx, own, 0, nown)))
        return -1;
    tp->filter = NULL;
    if (nrest && !(tp->filter = and_tree(&sx, rest, 0, nrest)))
        return -1;
    tp->seek_filter = tp->filter;
    tp->method = M_HASH;
    memset(&tp->ap, 0, sizeof tp->ap);
    if (n->sub == SQ_EXISTS) {
        /* EXISTS reads no value of its rows: store only what WHERE
         * reads (SELECT * would copy every column of every row) */
        memset(tp->proj, 0, tp->ncols * sizeof *tp->proj);
        proj_mark(sub->where, tp->proj, tp->ncols);
    }
    sub->hashed = true;
    if (st->nhsub % 8 == 0) {
        const enode **g = sql_arena_alloc(st->ar, (st->nhsub + 8) *
                                                  sizeof *g);
        if (!g)
            return nomem(x);
        if (st->nhsub)
            memcpy(g, st->hsub, st->nhsub * sizeof *g);
        st->hsub = g;
    }
    st->hsub[st->nhsub++] = n;
    return plan_text(&sx);
}

/* -------------------------------------------------------- grouping */

static bool enode_equal(const enode *a, const enode *b)
{
    if (a == b)
        return true;
    if (a->op != b->op || a->sub != b->sub || a->nargs != b->nargs ||
        a->negated != b->negated)
        return false;
    switch (a->op) {
    case N_COL:
        return a->tab == b->tab && a->col == b->col && a->up == b->up;
    case N_FUNC:
        if (a->fn != b->fn)
            return false;
        break;
    case N_PARAM:
        return a->param == b->param;
    case N_CONST:
        if (a->konst.k != b->konst.k)
            return false;
        if (a->konst.k == K_TEXT)
            return a->konst.n == b->konst.n &&
                   !memcmp(a->konst.s, b->konst.s, a->konst.n * 2);
        return a->konst.i == b->konst.i && a->konst.d == b->konst.d &&
               i128_cmp(a->konst.m, b->konst.m) == 0 &&
               a->konst.scale == b->konst.scale;
    case N_SUBQ: case N_AGG: case N_GKEY:
        return false;
    default:
        break;
    }
    for (size_t i = 0; i < a->nargs; i++)
        if (!enode_equal(a->args[i], b->args[i]))
            return false;
    return true;
}

static int outer_group_stmt(ctx *x, sql_stmt *s, uint8_t depth);

/* In a subquery depth blocks below the grouped block x->st, a column of
 * x->st (N_COL, up == depth) reads the current group's GROUP BY value:
 * the node becomes that group key in place (N_GKEY, up kept: eval.c
 * reads the enclosing cursor's key), so every pointer to it (access
 * paths, filters) sees the change. A column that is not grouped is
 * Access's 42000, as in the select list itself. */
static int outer_group_node(ctx *x, enode *n, uint8_t depth)
{
    if (!n)
        return 0;
    if (n->op == N_COL && n->up == depth) {
        const sql_stmt *st = x->st;
        for (size_t i = 0; i < st->ngroup; i++) {
            const enode *g = st->group[i];
            if (g->op == N_COL && !g->up && g->tab == n->tab &&
                g->col == n->col) {
                n->op = N_GKEY;
                n->slot = i;
                return 0;
            }
        }
        return fail(x, "42000", n->position, "Your query does not include "
                    "the specified expression '%s' as part of an aggregate "
                    "function (at character %zu)", n->text, n->position);
    }
    for (size_t i = 0; i < n->nargs; i++)
        if (outer_group_node(x, n->args[i], depth) != 0)
            return -1;
    if (n->op == N_SUBQ && n->subq && depth < UINT8_MAX)
        return outer_group_stmt(x, n->subq, (uint8_t)(depth + 1));
    return 0;
}

/* outer_group_node over every expression of block s. */
static int outer_group_stmt(ctx *x, sql_stmt *s, uint8_t depth)
{
    int r = outer_group_node(x, s->where, depth) |
            outer_group_node(x, s->having, depth);
    for (size_t i = 0; i < s->ncols; i++)
        r |= outer_group_node(x, s->cols[i].e, depth);
    for (size_t i = 0; i < s->norder; i++)
        r |= outer_group_node(x, s->order[i], depth);
    for (size_t i = 0; i < s->naggs; i++)
        r |= outer_group_node(x, s->aggs[i], depth);
    for (size_t i = 0; i < s->ngroup; i++)
        r |= outer_group_node(x, s->group[i], depth);
    for (size_t t = 0; t < s->ntabs; t++) {
        tab_plan *tp = &s->tabs[t];
        r |= outer_group_node(x, tp->on, depth) |
             outer_group_node(x, tp->filter, depth) |
             outer_group_node(x, tp->seek_filter, depth) |
             outer_group_node(x, tp->build_filter, depth);
        for (size_t k = 0; k < tp->nhkeys; k++)
            r |= outer_group_node(x, tp->hk_inner[k], depth) |
                 outer_group_node(x, tp->hk_outer[k], depth);
        for (size_t k = 0; k < tp->nmc; k++)
            r |= outer_group_node(x, tp->mc[k], depth);
    }
    /* UNION branches and derived tables are child blocks: one more
     * level between them and x->st (compile_column counts every parent) */
    if (depth < UINT8_MAX) {
        for (size_t b = 0; b < s->nbranch; b++)
            r |= outer_group_stmt(x, s->branch[b], (uint8_t)(depth + 1));
        for (size_t t = 0; t < s->ntabs; t++)
            if (s->tabs[t].sub && s->tabs[t].sub->parent == s)
                r |= outer_group_stmt(x, s->tabs[t].sub,
                                      (uint8_t)(depth + 1));
    }
    return r ? -1 : 0;
}

/* Replace the GROUP BY expressions inside *np by group-key nodes; a
 * column left outside an aggregate is an error (Access's message). A
 * subquery outside an aggregate reads the group's keys, not the last
 * row read (outer_group_node). */
static int group_rewrite(ctx *x, enode **np, const char *label)
{
    sql_stmt *st = x->st;
    enode *n = *np;
    if (n->op == N_AGG || n->op == N_GKEY)
        return 0;
    for (size_t i = 0; i < st->ngroup; i++) {
        if (!enode_equal(n, st->group[i]))
            continue;
        enode *g = new_node(x, N_GKEY, n->position);
        if (!g)
            return nomem(x);
        g->slot = i;
        g->k = n->k == K_ANY ? K_TEXT : n->k;
        g->type = n->type;
        g->text = n->text;
        *np = g;
        return 0;
    }
    if (n->op == N_COL) {
        if (n->up)
            return 0;
        return fail(x, "42000", n->position, "Your query does not include "
                    "the specified expression '%s' as part of an aggregate "
                    "function (at character %zu)", label ? label : n->text,
                    n->position);
    }
    for (size_t i = 0; i < n->nargs; i++)
        if (group_rewrite(x, &n->args[i], label) != 0)
            return -1;
    if (n->op == N_SUBQ && n->subq)
        return outer_group_stmt(x, n->subq, 1);
    return 0;
}

/* ---------------------------------------- Memo and OLE Object values */

/* n wrapped in Left(n, 255): the part of a Memo that Jet 4 groups,
 * de-duplicates and sorts on. */
static int memo_prefix(ctx *x, enode **np)
{
    enode *n = *np, *f = new_node(x, N_FUNC, n->position),
          *len = new_node(x, N_CONST, n->position);
    if (!f || !len || alloc_args(x, f, 2) != 0)
        return nomem(x);
    len->konst.k = K_INT;
    len->konst.i = 255;
    len->k = K_INT;
    len->type = JET_T_LONG;
    f->fn = sql_func_find("LEFT");
    f->args[0] = n;
    f->args[1] = len;
    f->text = n->text;
    sql_func_bind(f, NULL, 0);
    *np = f;
    return 0;
}

/* What Jet 4 allows with long values, each an Access error message:
 * an OLE Object can be neither a GROUP BY key, nor a column of a
 * DISTINCT result, nor an ORDER BY key (42000); a Memo can, on its first
 * 255 characters, and a grouped or DISTINCT Memo comes back cut to them
 * (the truncation Access users meet, e.g. Allen Browne's "Truncation of
 * Memo fields"); ORDER BY a Memo sorts on those 255 characters without
 * cutting the value shown. */
static int long_value_rules(ctx *x)
{
    sql_stmt *st = x->st;
    for (size_t i = 0; i < st->ngroup; i++) {
        if (st->group[i]->type == JET_T_OLE)
            return fail(x, "42000", st->group[i]->position, "Cannot group "
                        "on Memo, OLE, or Hyperlink Object (%s) (at "
                        "character %zu)", st->group[i]->text ?
                        st->group[i]->text : "expression",
                        st->group[i]->position);
        if (st->group[i]->type == JET_T_MEMO &&
            memo_prefix(x, &st->group[i]) != 0)
            return -1;
    }
    /* DISTINCTROW (run as DISTINCT over a join) removes duplicate source
     * records in Access, comparing no value: no rule there */
    bool one_row = st->grouped && !st->ngroup, rows = st->qb->distinctrow;
    for (size_t c = 0; st->distinct && !one_row && !rows && c < st->ncols;
         c++) {
        out_col *oc = &st->cols[c];
        if (oc->meta.type == JET_T_OLE)
            return fail(x, "42000", oc->e->position, "Cannot include Memo, "
                        "OLE, or Hyperlink Object when you select unique "
                        "values (%s) (at character %zu)", oc->meta.name,
                        oc->e->position);
        if (oc->meta.type == JET_T_MEMO && oc->e->op != N_GKEY) {
            if (memo_prefix(x, &oc->e) != 0)
                return -1;
            oc->direct = false;
            oc->src = -1;
        }
    }
    for (size_t i = 0; i < st->norder; i++) {
        if (st->order[i]->type == JET_T_OLE)
            return fail(x, "42000", st->order[i]->position, "Cannot sort on "
                        "Memo, OLE, or Hyperlink Object (%s) (at character "
                        "%zu)", st->order[i]->text ? st->order[i]->text :
                        "expression", st->order[i]->position);
        if (st->order[i]->type == JET_T_MEMO &&
            memo_prefix(x, &st->order[i]) != 0)
            return -1;
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
    if (b->len + 1 >= b->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n < b->cap - b->len ? (size_t)n : b->cap - b->len - 1;
}

static const char *tab_label(const tab_plan *tp)
{
    return tp->alias ? tp->alias : tp->name ? tp->name : "?";
}

static void sb_value(sbuf *b, const sql_stmt *st, const enode *v)
{
    char buf[64];
    if (v->op == N_PARAM) {
        sb_add(b, "?%zu", v->param + 1);
        return;
    }
    if (v->op == N_COL) {
        /* a correlated column names its table in the enclosing block */
        const sql_stmt *o = st;
        for (uint8_t u = 0; u < v->up && o; u++)
            o = o->parent;
        if (o && v->tab < o->ntabs) {
            sb_add(b, "%s.%s", tab_label(&o->tabs[v->tab]), v->text);
            return;
        }
    }
    if (v->op != N_CONST) {
        sb_add(b, "expr");
        return;
    }
    sql_sv_describe(&v->konst, buf, sizeof buf);
    sb_add(b, "%s", buf);
}

/* SEEK/INDEX/SCAN of one table, as the single-table plans always read. */
static void sb_access(sbuf *b, const sql_stmt *st, const tab_plan *tp)
{
    const access_path *ap = &tp->ap;
    const jet_tdef *td = tp->td;
    if (!td) {
        /* the derived table's own plan: where its seeks are */
        sb_add(b, "SUBQUERY %s (%s)", tab_label(tp),
               tp->sub && tp->sub->plan_text ? tp->sub->plan_text : "");
        return;
    }
    if (st->count_tdef) {
        sb_add(b, "COUNT FROM TDEF %s", td->name);
        return;
    }
    if (!ap->use_index) {
        sb_add(b, "SCAN %s", td->name);
        return;
    }
    const jet_index *ix = &td->indexes[ap->index_no];
    bool seek = ap->neq || ap->lo || ap->hi;
    sb_add(b, "%s %s.%s", seek ? "SEEK" : "INDEX", td->name, ix->name);
    if (seek) {
        sb_add(b, " (");
        for (uint16_t k = 0; k < ap->neq; k++) {
            const char *cn = td->cols[ix->cols[k].col].name;
            if (k)
                sb_add(b, ", ");
            if (ap->eq_n[k] == 1) {
                sb_add(b, "%s = ", cn);
                sb_value(b, st, ap->eq_v[k][0]);
            } else {
                sb_add(b, "%s IN (", cn);
                for (size_t v = 0; v < ap->eq_n[k]; v++) {
                    if (v)
                        sb_add(b, ", ");
                    sb_value(b, st, ap->eq_v[k][v]);
                }
                sb_add(b, ")");
            }
        }
        if (ap->lo || ap->hi) {
            const char *cn = td->cols[ix->cols[ap->neq].col].name;
            if (ap->neq)
                sb_add(b, ", ");
            if (ap->lo) {
                sb_add(b, "%s %s ", cn, ap->lo_incl ? ">=" : ">");
                sb_value(b, st, ap->lo);
            }
            if (ap->hi) {
                sb_add(b, "%s%s %s ", ap->lo ? " AND " : "", cn,
                       ap->hi_incl ? "<=" : "<");
                sb_value(b, st, ap->hi);
            }
        }
        sb_add(b, ")");
    }
    if (ap->order_by_index)
        sb_add(b, " ORDERED%s", ap->reverse ? " REVERSE" : "");
    else if (ap->reverse)
        sb_add(b, " REVERSE");
}

/* Whether st's TOP n can keep only the best n sorted records plus ties
 * (exec.c top-N sort): a sort by ORDER BY (no index order), n known
 * now (not PERCENT) and at most SQL_TOPN_MAX, no DISTINCT (duplicates
 * must go before counting) and no UNION. */
static bool topn_applies(const sql_stmt *st)
{
    bool one_row = st->grouped && !st->ngroup;
    bool distinct = st->distinct && !one_row;
    return st->materialize && st->top > 0 && !st->top_percent &&
           st->top <= SQL_TOPN_MAX && st->norder && !one_row &&
           !distinct && !st->nbranch &&
           !(st->ntabs == 1 && st->tabs[0].ap.order_by_index);
}

/*
 * The plan in one line. Single table as before ("SEEK t.ix (c = 1) |
 * FILTER | SORT 1 KEY"); joins add one step per level in join order:
 * "INDEX NESTED LOOP JOIN SEEK customers.PK (id = orders.cid)",
 * "HASH JOIN t (t.a = s.b)", "NESTED LOOP JOIN t", LEFT prefixed; then
 * each correlated subquery hashed once (decorrelate): "HASH SEMI JOIN b
 * (b.k = a.k)", "HASH ANTI JOIN ..." under NOT, "HASHED IN ...", "HASHED
 * NOT IN ...", "HASHED SUBQUERY ...", "WITH FILTER" when correlated
 * conditions beside the keys are checked on each key's rows.
 */
/* COUNT(*) (only) over one stored table without WHERE, GROUP BY,
 * HAVING or subqueries: answered from the TDEF's row count (README
 * "COUNT(*) and the stored row count" says why that count is trusted). */
static bool count_from_tdef(const sql_stmt *st)
{
    if (st->ntabs != 1 || !st->tabs[0].td || st->where || st->ngroup ||
        st->having || st->nsubq || st->nbranch || !st->naggs ||
        st->tabs[0].ap.use_index || !st->tabs[0].td->row_count_fits)
        return false;
    /* system tables: Access leaves their stored counts stale */
    const jet_object *o = jet_catalog_find(st->db, st->tabs[0].td->name);
    if (!o || o->kind != JET_OBJ_TABLE)
        return false;
    for (size_t i = 0; i < st->naggs; i++)
        if (st->aggs[i]->sub != A_COUNT_STAR)
            return false;
    return true;
}

/* " (inner = outer, ...)": the keys of hash level tp of block st. */
static void sb_hash_keys(sbuf *b, const sql_stmt *st, const tab_plan *tp)
{
    sb_add(b, " (");
    for (size_t k = 0; k < tp->nhkeys; k++) {
        sb_add(b, "%s", k ? ", " : "");
        sb_value(b, st, tp->hk_inner[k]);
        sb_add(b, " = ");
        sb_value(b, st, tp->hk_outer[k]);
    }
    sb_add(b, ")");
}

/* Whether subquery node q stands under a NOT in n (NOT EXISTS). */
static bool negated_in(const enode *n, const enode *q, bool neg,
                       unsigned depth)
{
    if (n == q)
        return neg;
    if (!n || depth > 64 || n->op == N_SUBQ)
        return false;
    for (size_t i = 0; i < n->nargs; i++)
        if (negated_in(n->args[i], q, neg != (n->op == N_NOT), depth + 1))
            return true;
    return false;
}

/* " | HASH SEMI JOIN b (b.k = a.k)": a correlated subquery of block st
 * whose block hashes its table (decorrelate); ANTI under NOT EXISTS, and
 * WITH FILTER when correlated conditions beside the keys are checked on
 * each key's rows. */
static void sb_hashed_subquery(sbuf *b, const sql_stmt *st, const enode *q)
{
    const sql_stmt *sub = q->subq;
    const tab_plan *tp = &sub->tabs[0];
    const char *what = "HASHED SUBQUERY";
    if (q->sub == SQ_EXISTS)
        what = negated_in(st->where, q, false, 0) ||
               negated_in(st->having, q, false, 0)
               ? "HASH ANTI JOIN" : "HASH SEMI JOIN";
    else if (q->sub == SQ_IN)
        what = q->negated ? "HASHED NOT IN" : "HASHED IN";
    sb_add(b, " | %s %s", what, tab_label(tp));
    sb_hash_keys(b, sub, tp);
    if (tp->filter)
        sb_add(b, " WITH FILTER");
}

static int plan_text(ctx *x)
{
    sql_stmt *st = x->st;
    sbuf b = { NULL, 0, 4096 };
    b.p = sql_arena_alloc(st->ar, b.cap);
    if (!b.p)
        return nomem(x);
    if (st->nbranch) {
        sb_add(&b, "UNION%s (", st->union_distinct ? "" : " ALL");
        for (size_t i = 0; i < st->nbranch; i++)
            sb_add(&b, "%s%s", i ? "; " : "", st->branch[i]->plan_text);
        sb_add(&b, ")");
        if (st->union_distinct)
            sb_add(&b, " | DISTINCT");
    } else if (st->ntabs == 0) {
        sb_add(&b, "ONE ROW");
    }
    bool filter = false;
    for (size_t L = 0; L < st->ntabs; L++) {
        const tab_plan *tp = &st->tabs[st->order_tabs[L]];
        /* the filter a level applies (an index join's seek decides its
         * equalities) */
        const enode *lf = tp->method == M_INDEX ? tp->seek_filter
                                                 : tp->filter;
        if (L == 0 && tp->method == M_HASH) {
            /* a hashed correlated subquery block (decorrelate) */
            sb_add(&b, "HASH %s", tab_label(tp));
            sb_hash_keys(&b, st, tp);
        } else if (L == 0) {
            sb_access(&b, st, tp);
        } else {
            sb_add(&b, " | %s", tp->join == JOIN_LEFT ? "LEFT " : "");
            if (tp->method == M_INDEX) {
                sb_add(&b, "INDEX NESTED LOOP JOIN ");
                sb_access(&b, st, tp);
                if (tp->memo)
                    sb_add(&b, tp->memo_leaf ? " MEMO LEAVES" : " MEMO");
            } else if (tp->method == M_HASH) {
                sb_add(&b, "HASH JOIN %s", tab_label(tp));
                sb_hash_keys(&b, st, tp);
            } else {
                sb_add(&b, "NESTED LOOP JOIN %s", tab_label(tp));
            }
        }
        if (st->ntabs > 1)
            sb_add(&b, L ? " [est %.0f rows, cost %.0f]" : " [est %.0f rows]",
                   tp->est_rows, tp->est_cost);
        if (lf || tp->on)
            filter = true;
        if (st->ntabs > 1 && lf && L + 1 < st->ntabs)
            sb_add(&b, " | FILTER");
    }
    if (st->ntabs) {
        const tab_plan *last = &st->tabs[st->order_tabs[st->ntabs - 1]];
        const enode *lf = last->method == M_INDEX ? last->seek_filter
                                                   : last->filter;
        if (filter && (st->ntabs == 1 || lf))
            sb_add(&b, " | FILTER");
    }
    for (size_t i = 0; i < st->nhsub; i++)
        sb_hashed_subquery(&b, st, st->hsub[i]);
    if (st->or_in_chains == 1)
        sb_add(&b, " | OR AS IN (%zu TERMS)", st->or_in_terms);
    else if (st->or_in_chains)
        sb_add(&b, " | OR AS IN (%zu RUNS, %zu TERMS)", st->or_in_chains,
               st->or_in_terms);
    if (st->grouped && st->ngroup)
        sb_add(&b, " | GROUP BY %zu KEY%s", st->ngroup,
               st->ngroup > 1 ? "S" : "");
    else if (st->grouped)
        sb_add(&b, " | AGGREGATE");
    if (st->having)
        sb_add(&b, " | HAVING");
    bool one_row = st->grouped && !st->ngroup;
    if (st->distinct && !st->nbranch && !one_row)
        sb_add(&b, " | DISTINCT");
    bool by_index = st->ntabs == 1 && st->tabs[0].ap.order_by_index;
    if (st->topn)
        sb_add(&b, " | TOP-N SORT (%lld) %zu KEY%s", (long long)st->topn,
               st->norder, st->norder > 1 ? "S" : "");
    else if (st->norder && !by_index && !one_row)
        sb_add(&b, " | SORT %zu KEY%s", st->norder, st->norder > 1 ? "S" : "");
    if (st->top >= 0)
        sb_add(&b, " | TOP %lld%s%s", (long long)st->top,
               st->top_percent ? " PERCENT" : "",
               st->norder && !(by_index && st->tabs[0].ap.order_unique) ?
               " WITH TIES" : "");
    if (st->offset)
        sb_add(&b, " | OFFSET %lld", (long long)st->offset);
    if (st->limit >= 0)
        sb_add(&b, " | LIMIT %lld", (long long)st->limit);
    st->plan_text = b.p;
    return 0;
}

/* ------------------------------------------------------------- bind */

static int add_col(ctx *x, size_t *cap, out_col **oc)
{
    sql_stmt *st = x->st;
    if (st->ncols == *cap) {
        size_t ncap = *cap ? 2 * *cap : 16;
        if (ncap > 4096 * 2)
            return fail(x, "54011", 0, "Too many columns");
        out_col *g = sql_arena_alloc(st->ar, ncap * sizeof *g);
        if (!g)
            return nomem(x);
        if (st->ncols)
            memcpy(g, st->cols, st->ncols * sizeof *g);
        st->cols = g;
        *cap = ncap;
    }
    *oc = &st->cols[st->ncols++];
    memset(*oc, 0, sizeof **oc);
    return 0;
}

/* Output column oc = column c of table tab, labelled alias or its name. */
static void set_table_col(sql_stmt *st, out_col *oc, uint16_t tab,
                          uint16_t c, const char *alias)
{
    const tab_plan *tp = &st->tabs[tab];
    oc->src = st->ntabs == 1 && tp->td ? c : -1;
    oc->direct = true;
    if (!tp->td) {
        oc->meta = tp->sub->cols[c].meta;
        if (alias)
            oc->meta.name = alias;
        return;
    }
    const jet_column *jc = &tp->td->cols[c];
    oc->meta.name = alias ? alias : jc->name;
    oc->meta.base_table = tp->td->name;
    oc->meta.base_column = jc->name;
    oc->meta.column = jc;
    oc->meta.type = jc->result_type;
    oc->meta.nullable = (jc->flags & JET_COL_NULLABLE) != 0 ||
                        tp->ginner >= 0;
    oc->meta.length = jc->type == JET_T_TEXT ? jc->length /
                      (jet_db_version(st->db) == JET_VER_3 ? 1 : 2) : 0;
}

/* Tables in a FROM item (bounded by the parser's nesting limit). */
static size_t count_tabs(const sql_from *f)
{
    return f->kind == FROM_JOIN ? count_tabs(f->left) + count_tabs(f->right)
                                : 1;
}

/** A saved query's parse tree kept by the root statement. */
struct sql_view_ref {
    sql_query *q;
    struct sql_view_ref *next;
};

/* Copy a nested statement's error into x, naming the saved query. */
static int nested_fail(ctx *x, const sql_error *e, const char *name,
                       size_t pos)
{
    int rc = x->err->rc;
    *x->err = *e;
    x->err->rc = rc;
    if (!x->err->sqlstate[0])
        snprintf(x->err->sqlstate, sizeof x->err->sqlstate, "HY000");
    sql_error_in_saved(x->err, name, pos);
    return -1;
}

/*
 * The SELECT a crosstab runs as: its pivot values (the PIVOT ... In list,
 * else the distinct values a first query finds, in ascending order)
 * become one column each (sql_saved_crosstab_select). *out malloc'd.
 */
static int crosstab_text(ctx *x, const sql_from *f, const jet_query *jq,
                         const char *qname, char **out)
{
    jet_db *db = x->st->db;
    char *vsql = NULL, **fixed = NULL, **lits = NULL, **names = NULL;
    size_t nfixed = 0, n = 0, cap = 0;
    sql_stmt *pst = NULL;
    sql_cursor *cur = NULL;
    sql_error perr;
    int rc = -1;

    *out = NULL;
    if (sql_saved_crosstab_pivots(&vsql, &fixed, &nfixed, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    if (fixed) {
        lits = fixed;
        n = nfixed;
        names = calloc(n ? n : 1, sizeof *names);
        if (!names)
            goto oom;
        for (size_t i = 0; i < n; i++)
            if (!(names[i] = sql_saved_unquote(fixed[i])))
                goto oom;
    } else {
        if (x->st->root->crosstab_depth >= 4) {
            fail(x, "42000", f->position, "crosstab query '%s' reads "
                 "itself", qname);
            goto out;
        }
        memset(&perr, 0, sizeof perr);
        sql_prepare_opts po = { .crosstab_depth =
                                    x->st->root->crosstab_depth + 1,
                                .saved_query = qname };
        int prc = sql_stmt_prepare(&pst, db, vsql, strlen(vsql), &po,
                                   &perr);
        if (prc != 0 || sql_cursor_open(&cur, pst, NULL, NULL, &perr) != 0) {
            nested_fail(x, &perr, qname, f->position);
            goto out;
        }
        int r;
        while ((r = sql_cursor_next(cur)) == JET_OK) {
            jet_value v;
            if (sql_cursor_value(cur, 0, &v) != JET_OK) {
                r = -1;
                break;
            }
            if (n == 255) {
                fail(x, "54011", f->position, "crosstab query '%s' has "
                     "more than 255 column headings", qname);
                goto out;
            }
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                char **gl = realloc(lits, nc * sizeof *gl);
                if (gl)
                    lits = gl;
                char **gn = realloc(names, nc * sizeof *gn);
                if (gn)
                    names = gn;
                if (!gl || !gn)
                    goto oom;
                cap = nc;
            }
            lits[n] = names[n] = NULL;
            n++;
            if (sql_saved_pivot_value(&lits[n - 1], &names[n - 1], db,
                                      &v) != 0) {
                fail(x, "HYC00", f->position, "crosstab query '%s': a "
                     "pivot value of type %d cannot head a column", qname,
                     (int)v.type);
                goto out;
            }
            if (!names[n - 1] && !(names[n - 1] = strdup("<>")))
                goto oom;
        }
        if (r < 0) {
            nested_fail(x, sql_cursor_error(cur), qname, f->position);
            goto out;
        }
    }
    if (sql_saved_crosstab_select(out, jq, (const char *const *)lits,
                                  (const char *const *)names, n,
                                  x->err) != 0) {
        x->err->position = f->position;
        goto out;
    }
    rc = 0;
    goto out;
oom:
    rc = nomem(x);
out:
    sql_cursor_close(cur);
    sql_stmt_free(pst);
    free(vsql);
    sql_saved_free_list(lits, n);
    sql_saved_free_list(names, n);
    return rc;
}

/*
 * FROM names saved query qo: run it as a derived table named after it
 * (or the FROM alias). Its SQL comes from MSysQueries (savedquery.c);
 * nested views expand the same way, bounded by SQL_MAX_VIEW_DEPTH, and
 * a view met again inside itself is an error. Parameter queries need
 * {call}; crosstab, action and pass-through queries are refused.
 */
static int bind_view(ctx *x, const sql_from *f, tab_plan *tp,
                     const jet_object *qo)
{
    sql_stmt *root = x->st->root;
    jet_db *db = x->st->db;
    const jet_query *jq = NULL;
    for (unsigned i = 0; i < root->view_depth; i++)
        if (root->view_stack[i] == qo)
            return fail(x, "42000", f->position, "saved query '%s' refers "
                        "to itself (through %s)", qo->name,
                        root->view_stack[root->view_depth - 1]->name);
    if (root->view_depth == SQL_MAX_VIEW_DEPTH)
        return fail(x, "42000", f->position, "saved queries nest deeper "
                    "than %d at '%s'", SQL_MAX_VIEW_DEPTH, qo->name);
    jet_rc rc = jet_query_load(&jq, db, qo);
    if (rc != JET_OK) {
        x->err->rc = rc;
        return fail(x, rc == JET_ENOMEM ? "HY001" : "HY000", f->position,
                    "saved query '%s': %s", qo->name,
                    jet_db_error(db)->msg);
    }
    /* a parameter query (declared parameters, or form references Access
     * would ask for) needs its values: Microsoft's driver answers "Too
     * few parameters. Expected n." */
    sql_saved_param *params = NULL;
    size_t np = 0;
    if (sql_saved_param_list(&params, &np, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    if (np > 0) {
        fail(x, "07002", f->position, "Too few parameters. Expected %zu. "
             "Saved query '%s' needs %s%s%s%s%s; run it with {call "
             "[%s](?%s)}", np, qo->name, params[0].name[0] == '[' ? "" : "[",
             params[0].name, params[0].name[0] == '[' ? "" : "]",
             np > 1 ? ", ..." : "",
             params[0].implicit ? " (a control of an open Access form or "
             "report)" : "", qo->name, np > 1 ? ", ..." : "");
        sql_saved_free_params(params, np);
        return -1;
    }
    sql_saved_free_params(params, np);
    char *text = NULL;
    size_t *map = NULL, nmarks = 0;
    if (sql_saved_kind_of(jq) == SQL_SAVED_CROSSTAB) {
        if (crosstab_text(x, f, jq, qo->name, &text) != 0)
            return -1;
    } else if (sql_saved_exec_text(&text, &map, &nmarks, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    free(map);
    sql_query *vq = NULL;
    sql_error perr;
    memset(&perr, 0, sizeof perr);
    int prc = sql_parse_query(&vq, text, strlen(text), &perr);
    free(text);
    if (prc != 0) {
        int keep_rc = x->err->rc;
        *x->err = perr;
        x->err->rc = keep_rc;
        if (!x->err->sqlstate[0])
            snprintf(x->err->sqlstate, sizeof x->err->sqlstate, "42000");
        sql_error_in_saved(x->err, qo->name, f->position);
        return -1;
    }
    struct sql_view_ref *ref = sql_arena_alloc(root->ar, sizeof *ref);
    if (!ref) {
        sql_select_free(&vq->sel);
        return nomem(x);
    }
    ref->q = vq;
    ref->next = root->views;
    root->views = ref;
    if (root->view_depth == 0)
        root->view_outer_pos = f->position;
    root->view_stack[root->view_depth++] = qo;
    int r = build_block(&tp->sub, NULL, root, vq, false, NULL, x->err);
    root->view_depth--;
    /* names it could not bind are parameters Access would ask for: that
     * is the error, whatever the Nulls standing for them led to */
    if (root->view_depth == 0 && root->nunbound)
        return unbound_fail(x, qo->name, f->position);
    if (r != 0) {
        /* positions inside the rebuilt text mean nothing to the user:
         * name the saved query, point at where the statement names it */
        sql_error_in_saved(x->err, qo->name, f->position);
        return -1;
    }
    tp->alias = f->alias ? f->alias : qo->name;
    tp->name = tp->alias;
    tp->view = qo;
    tp->ncols = (uint16_t)tp->sub->ncols;
    if (tp->sub->ncols > 4096)
        return fail(x, "54011", f->position, "Too many columns");
    return 0;
}

/* Path p (n bytes) lexically normalised into out (cap bytes): '\\' as
 * '/', ASCII lower case, "." and "x/.." steps removed, and a final .mdb,
 * .accdb, .mde or .accde dropped. Returns false when it does not fit. */
static bool norm_db_path(const char *p, char *out, size_t cap)
{
    size_t k = 0, n = strlen(p);
    bool abs = n > 0 && (p[0] == '/' || p[0] == '\\');
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '/' && p[j] != '\\')
            j++;
        size_t len = j - i;         /* one component: p[i, j) */
        size_t at = i;
        i = j + 1;
        if (len == 0 || (len == 1 && p[at] == '.'))
            continue;
        if (len == 2 && p[at] == '.' && p[at + 1] == '.' && k > 0) {
            while (k > 0 && out[k - 1] != '/')
                k--;                /* back over the last component */
            if (k > 0)
                k--;
            continue;
        }
        if (k + len + 2 > cap)
            return false;
        if (k > 0 || abs)
            out[k++] = '/';
        for (size_t c = at; c < j; c++)
            out[k++] = (char)(p[c] >= 'A' && p[c] <= 'Z' ? p[c] + 32 : p[c]);
    }
    out[k] = '\0';
    static const char *const ext[] = { ".mdb", ".accdb", ".mde", ".accde" };
    for (size_t e = 0; e < 4; e++) {
        size_t el = strlen(ext[e]);
        if (k > el && strcmp(out + k - el, ext[e]) == 0) {
            out[k - el] = '\0';
            break;
        }
    }
    return true;
}

/* Does catalog cat (a FROM item's `path`.Table prefix) name the open file
 * db? Its path as given, or the same path written otherwise: other case
 * (a workbook made on Windows), '\\' for '/', "." and ".." steps, the
 * .mdb/.accdb extension left out (Microsoft Query's TABLE_CAT for Jet
 * files has none). */
static bool catalog_is_db(const char *cat, jet_db *db)
{
    const char *path = jet_db_path(db);
    if (strcmp(cat, path) == 0)
        return true;
    char a[4096], b[4096];
    return norm_db_path(cat, a, sizeof a) && norm_db_path(path, b, sizeof b) &&
           strcmp(a, b) == 0;
}

/* Load the table of a FROM_TABLE item into tabs[k]. */
static int bind_table(ctx *x, const sql_from *f, tab_plan *tp)
{
    sql_stmt *st = x->st;
    jet_db *db = st->db;
    tp->position = f->position;
    tp->alias = f->alias;
    if (f->kind == FROM_SUBQUERY) {
        if (build_block(&tp->sub, NULL, st->root, f->sub, false, NULL,
                        x->err) != 0)
            return -1;
        tp->name = f->alias ? f->alias : "";
        tp->ncols = (uint16_t)tp->sub->ncols;
        if (tp->sub->ncols > 4096)
            return fail(x, "54011", f->position, "Too many columns");
    } else {
        if (f->catalog && !catalog_is_db(f->catalog, db))
            return fail(x, "42S02", f->position, "Database '%s' is not "
                        "the open file (at character %zu)", f->catalog,
                        f->position);
        const jet_object *obj = jet_catalog_find(db, f->table);
        if (!obj) {
            const jet_object *qo = jet_catalog_find_query(db, f->table);
            if (qo) {
                if (bind_view(x, f, tp, qo) != 0)
                    return -1;
                tp->proj = sql_arena_alloc(st->ar, (tp->ncols ? tp->ncols
                                                              : 1) *
                                                   sizeof *tp->proj);
                return tp->proj ? 0 : nomem(x);
            }
            return fail(x, "42S02", f->position, "The database engine "
                        "cannot find the input table '%s' (at character "
                        "%zu)", f->table, f->position);
        }
        jet_rc rc = jet_tdef_load(&tp->td, db, obj);
        if (rc != JET_OK) {
            const jet_error *je = jet_db_error(db);
            x->err->rc = rc;
            return fail(x, rc == JET_EUNSUPPORTED ? "HYC00" : rc ==
                        JET_ENOMEM ? "HY001" : "HY000", f->position,
                        "table '%s': %s", f->table, je && je->msg[0] ?
                        je->msg : jet_rc_str(rc));
        }
        tp->name = tp->td->name;
        tp->ncols = tp->td->ncols;
    }
    tp->proj = sql_arena_alloc(st->ar, (tp->ncols ? tp->ncols : 1) *
                                       sizeof *tp->proj);
    return tp->proj ? 0 : nomem(x);
}

/* Pending ON conditions of inner joins (compiled once all tables are
 * bound), each with the outer-join group it lies in (owner: the group's
 * head, -1 outside any: then it is a condition like WHERE's). */
typedef struct on_list {
    const sql_expr **v;
    int32_t *owner;
    size_t n, cap;
} on_list;

/* Flatten a FROM item into st->tabs (from *k on), in an order that keeps
 * every LEFT join's preserved side before its optional side: a RIGHT
 * join is run as the LEFT join with its sides swapped. The optional side
 * (a table, or a parenthesised join: nested outer joins) is a group of
 * consecutive tables [head, gend); grp is the innermost group f lies in
 * (-1 none). */
static int flatten(ctx *x, const sql_from *f, size_t *k, on_list *ons,
                   bool *has_left, int32_t grp)
{
    sql_stmt *st = x->st;
    if (f->kind != FROM_JOIN) {
        tab_plan *tp = &st->tabs[(*k)++];
        tp->ginner = grp;
        tp->gparent = -1;
        return bind_table(x, f, tp);
    }
    const sql_from *keep = f->left, *opt = f->right;
    if (f->join == 'R') {
        keep = f->right;
        opt = f->left;
    }
    if (flatten(x, keep, k, ons, has_left, grp) != 0)
        return -1;
    size_t first = *k;
    bool outer = f->join != 'I';
    if (flatten(x, opt, k, ons, has_left,
                outer ? (int32_t)first : grp) != 0)
        return -1;
    if (outer) {
        tab_plan *h = &st->tabs[first];
        h->join = JOIN_LEFT;
        h->on_src = f->on;      /* compiled once all are bound */
        h->gend = (uint16_t)*k;
        h->gparent = grp;
        *has_left = true;
        return 0;
    }
    if (!f->on)
        return 0;
    if (ons->n == ons->cap) {
        size_t ncap = ons->cap ? 2 * ons->cap : 8;
        const sql_expr **g = sql_arena_alloc(st->ar, ncap * sizeof *g);
        int32_t *o = sql_arena_alloc(st->ar, ncap * sizeof *o);
        if (!g || !o)
            return nomem(x);
        if (ons->n) {
            memcpy(g, ons->v, ons->n * sizeof *g);
            memcpy(o, ons->owner, ons->n * sizeof *o);
        }
        ons->v = g;
        ons->owner = o;
        ons->cap = ncap;
    }
    ons->owner[ons->n] = grp;
    ons->v[ons->n++] = f->on;
    return 0;
}

/* Column i's label in a * expansion: "t.col" when another table of the
 * expansion has a column of that name (Access's rule). */
/*
 * Access's labels for a name the output holds twice: when two unaliased
 * columns of the select list (from *, t.* or named) have the same name
 * but come from different tables of FROM, each is labelled
 * "table.column" with the table's alias when it has one
 * ("Orders.CustomerID", "Customers.CustomerID"), as Access names the
 * fields of such a query. Quadratic in the select list, once per prepare.
 */
/* The column name of output column oc when it is a table column shown
 * under its own name (no alias, not yet qualified), else NULL. */
static const char *plain_col_name(const sql_stmt *st, const out_col *oc)
{
    if (!oc->direct || oc->e->op != N_COL || oc->e->up)
        return NULL;
    const char *name = tab_col_name(&st->tabs[oc->e->tab], oc->e->col);
    return oc->meta.name == name ? name : NULL;    /* same string: no alias */
}

static int qualify_duplicate_labels(ctx *x)
{
    sql_stmt *st = x->st;
    if (st->ntabs < 2)
        return 0;
    bool *dup = sql_arena_alloc(st->ar, st->ncols ? st->ncols : 1);
    if (!dup)
        return nomem(x);
    for (size_t i = 0; i < st->ncols; i++) {
        const char *a = plain_col_name(st, &st->cols[i]);
        dup[i] = false;
        for (size_t j = 0; a && j < st->ncols && !dup[i]; j++) {
            const char *b = plain_col_name(st, &st->cols[j]);
            dup[i] = b && st->cols[j].e->tab != st->cols[i].e->tab &&
                     !strcasecmp(a, b);
        }
    }
    for (size_t i = 0; i < st->ncols; i++) {
        if (!dup[i])
            continue;
        out_col *oc = &st->cols[i];
        const char *t = tab_label(&st->tabs[oc->e->tab]);
        size_t n = strlen(t) + strlen(oc->meta.name) + 2;
        char *l = sql_arena_alloc(st->ar, n);
        if (!l)
            return nomem(x);
        snprintf(l, n, "%s.%s", t, oc->meta.name);
        oc->meta.name = l;
    }
    return 0;
}

static int build_select_list(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_select *sel = &st->qb->sel;
    size_t cap = 0;
    unsigned exprno = 1000;
    for (size_t i = 0; i < sel->nitems; i++) {
        const sql_select_item *it = &sel->items[i];
        out_col *oc;
        if (it->kind == SQL_ITEM_STAR) {
            bool any = false;
            if (!st->ntabs)
                return fail(x, "42000", it->position, "SELECT * needs a "
                            "FROM clause (at character %zu)", it->position);
            /* t.*: the table t names exactly, else leniently */
            bool exact = false;
            for (size_t t = 0; it->qualifier && t < st->ntabs && !exact; t++)
                exact = qualifier_ok(&st->tabs[t], it->qualifier, true);
            for (size_t t = 0; t < st->ntabs; t++) {
                tab_plan *tp = &st->tabs[t];
                if (it->qualifier && !qualifier_ok(tp, it->qualifier, exact))
                    continue;
                any = true;
                for (uint16_t c = 0; c < tp->ncols; c++) {
                    if (add_col(x, &cap, &oc) != 0)
                        return -1;
                    set_table_col(st, oc, (uint16_t)t, c, NULL);
                    if (!(oc->e = new_node(x, N_COL, it->position)))
                        return nomem(x);
                    jet_type ty = tab_col_type(tp, c);
                    oc->e->col = c;
                    oc->e->tab = (uint16_t)t;
                    oc->e->k = kind_of_type(ty);
                    oc->e->type = ty;
                    oc->e->text = tab_col_name(tp, c);
                    tp->proj[c] = true;
                }
                if (it->qualifier)
                    break;
            }
            if (!any)
                return fail(x, "42S02", it->position, "'%s' does not name "
                            "a table in FROM (at character %zu)",
                            it->qualifier, it->position);
            continue;
        }
        if (it->alias && utf8_chars(it->alias) > 64)
            /* Access: a Field's name is at most 64 characters (DAO
             * Field.Name); SQLDescribeCol's name length is a SMALLINT */
            return fail(x, "42000", it->position, "The alias '%.64s...' "
                        "is longer than 64 characters (at character %zu)",
                        it->alias, it->position);
        enode *e;
        if (compile(x, it->expr, &e) != 0)
            return -1;
        if (add_col(x, &cap, &oc) != 0)
            return -1;
        oc->e = e;
        oc->src = -1;
        if (e->op == N_COL && !e->up && it->expr->kind == EXPR_COLUMN) {
            set_table_col(st, oc, e->tab, e->col, it->alias);
        } else {
            char *label;
            if (it->alias) {
                label = (char *)it->alias;
            } else {
                label = sql_arena_alloc(st->ar, 16);
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
                oc->meta.scale = (uint8_t)sql_func_scale(e, st->ntabs == 1 ?
                                                         st->tabs[0].td
                                                         : NULL);
        }
    }
    return qualify_duplicate_labels(x);
}

/* ORDER BY of one block: n (select-list position), a select alias that
 * names no column, or an expression. */
static int build_order(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_query *q = st->qb;
    st->norder = q->norder;
    st->order = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1) *
                                        sizeof *st->order);
    st->order_desc = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1));
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
        if (oe->kind == EXPR_COLUMN && !oe->qualifier) {
            bool is_col = false;
            for (size_t t = 0; t < st->ntabs && !is_col; t++)
                is_col = tab_find_column(&st->tabs[t], oe->text) >= 0;
            bool found = false;
            for (size_t c = 0; c < st->ncols && !is_col; c++)
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
    return 0;
}

/* The UNION of st->qb's branches: each branch a child block; output
 * columns named by the first, typed by all; ORDER BY names output
 * columns (by position, label or the first branch's column name). */
static int build_union(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_query *q = st->qb;
    size_t n = 0;
    for (const sql_query *b = q; b; b = b->union_next)
        n++;
    st->branch = sql_arena_alloc(st->ar, n * sizeof *st->branch);
    if (!st->branch)
        return nomem(x);
    size_t i = 0;
    for (sql_query *b = (sql_query *)q; b; b = b->union_next, i++) {
        if (build_block(&st->branch[i], st, st->root, b, true, NULL, x->err) != 0)
            return -1;
        if (i && !b->union_all)
            st->union_distinct = true;
        if (i && st->branch[i]->ncols != st->branch[0]->ncols)
            return fail(x, "42000", b->position, "The number of columns in "
                        "the two selected tables or queries of a union "
                        "query do not match (at character %zu)",
                        b->position);
    }
    st->nbranch = n;
    const sql_stmt *b0 = st->branch[0];
    st->ncols = b0->ncols;
    st->cols = sql_arena_alloc(st->ar, (st->ncols ? st->ncols : 1) *
                                       sizeof *st->cols);
    if (!st->cols)
        return nomem(x);
    for (size_t c = 0; c < st->ncols; c++) {
        out_col *oc = &st->cols[c];
        oc->meta = b0->cols[c].meta;
        oc->src = -1;
        /* one type for the column: equal, else the widest number, else
         * text (MEMO when any branch gives MEMO) */
        uint8_t k0 = kind_of_type(oc->meta.type);
        bool same = true, numeric = numeric_kind(k0) && k0 != K_DATE;
        bool memo = oc->meta.type == JET_T_MEMO, dbl = k0 == K_DOUBLE;
        bool money = k0 == K_MONEY;
        for (size_t b = 1; b < n; b++) {
            const sql_result_col *m = &st->branch[b]->cols[c].meta;
            uint8_t k = kind_of_type(m->type);
            if (m->type != oc->meta.type)
                same = false;
            if (!(numeric_kind(k) && k != K_DATE))
                numeric = false;
            memo |= m->type == JET_T_MEMO;
            dbl |= k == K_DOUBLE;
            money |= k == K_MONEY;
            oc->meta.nullable |= m->nullable;
            if (m->length > oc->meta.length)
                oc->meta.length = m->length;
        }
        if (!same) {
            oc->meta.column = NULL;
            oc->meta.type = numeric ? (dbl ? JET_T_DOUBLE : money ?
                                       JET_T_MONEY : JET_T_LONG)
                            : memo ? JET_T_MEMO : JET_T_TEXT;
            if (oc->meta.type == JET_T_TEXT && !oc->meta.length)
                oc->meta.length = 255;
        }
    }
    /* UNION removes duplicate rows by value: as DISTINCT, no OLE Object
     * (Access's message); UNION ALL compares nothing */
    for (size_t c = 0; st->union_distinct && c < st->ncols; c++)
        for (size_t b = 0; b < n; b++)
            if (st->branch[b]->cols[c].meta.type == JET_T_OLE)
                return fail(x, "42000", q->position, "Cannot include Memo, "
                            "OLE, or Hyperlink Object when you select unique "
                            "values (%s) (at character %zu)",
                            st->branch[b]->cols[c].meta.name, q->position);
    st->distinct = st->union_distinct;
    st->top = -1;
    st->offset = q->offset;
    st->limit = q->limit;
    st->norder = q->norder;
    st->order_out = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1) *
                                            sizeof *st->order_out);
    st->order_desc = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1));
    if (!st->order_out || !st->order_desc)
        return nomem(x);
    for (size_t k = 0; k < q->norder; k++) {
        const sql_expr *oe = q->order[k].expr;
        st->order_desc[k] = q->order[k].desc;
        size_t found = SIZE_MAX;
        if (oe->kind == EXPR_NUMBER) {
            char *end;
            long v = strtol(oe->text, &end, 10);
            if (!*end && v >= 1 && (size_t)v <= st->ncols)
                found = (size_t)v - 1;
        } else if (oe->kind == EXPR_COLUMN) {
            for (size_t c = 0; c < st->ncols && found == SIZE_MAX; c++)
                if (jet_name_equal_ci(st->cols[c].meta.name, oe->text) ||
                    (b0->cols[c].e && b0->cols[c].e->op == N_COL &&
                     b0->cols[c].e->text &&
                     jet_name_equal_ci(b0->cols[c].e->text, oe->text)))
                    found = c;
        }
        if (found == SIZE_MAX)
            return fail(x, "42000", q->order[k].position, "ORDER BY of a "
                        "UNION must name a column of its result (at "
                        "character %zu)", q->order[k].position);
        if (st->cols[found].meta.type == JET_T_OLE)
            return fail(x, "42000", q->order[k].position, "Cannot sort on "
                        "Memo, OLE, or Hyperlink Object (%s) (at character "
                        "%zu)", st->cols[found].meta.name,
                        q->order[k].position);
        st->order_out[k] = found;
    }
    st->materialize = true;
    return plan_text(x);
}

/* --------------------------------------- flattening simple views */

/*
 * A derived table or saved query that is one stored table's plain
 * columns filtered by a condition ((select id, label from T where c) d:
 * Power Query's every step, a merge's both sides) is read as that table
 * itself: the outer block's columns of d become T's columns and c joins
 * its WHERE. Then the planner sees T's indexes: the outer conditions
 * seek, and a join on d seeks T per outer row (an index nested loop)
 * instead of hashing all of d. The rows are those of the derived table:
 * d's rows are T's rows passing c, each output column a column of T as
 * read (flat_target). Not done on the optional side of an outer join
 * when d has a condition (it would have to join that join's ON), nor
 * when a subquery of the outer block could read d (correlated columns
 * would need the same renumbering).
 */

static bool push_target(const sql_stmt *sub);

/* Whether sub is one stored table's plain columns under a condition. */
static bool flat_target(const sql_stmt *sub)
{
    if (!push_target(sub) || sub->distinct || sub->ntabs != 1 ||
        !sub->tabs[0].td || sub->tabs[0].sub || sub->nsubq ||
        sub->norder || sub->ncols == 0)
        return false;
    for (size_t c = 0; c < sub->ncols; c++) {
        const enode *e = sub->cols[c].e;
        if (!sub->cols[c].direct || !e || e->op != N_COL || e->up ||
            e->tab != 0 || e->col >= sub->tabs[0].td->ncols)
            return false;
    }
    return true;
}

/* Collected column nodes of one table (deduplicated before renumbering:
 * a node may hang in two trees). */
typedef struct col_refs {
    enode **v;
    size_t n, cap;
} col_refs;

static int refs_add(ctx *x, col_refs *r, enode *e, uint16_t tab)
{
    if (e->op == N_COL) {
        if (e->up || e->tab != tab)
            return 0;
        if (r->n == r->cap) {
            size_t ncap = r->cap ? 2 * r->cap : 32;
            enode **g = sql_arena_alloc(x->st->ar, ncap * sizeof *g);
            if (!g)
                return nomem(x);
            if (r->n)
                memcpy(g, r->v, r->n * sizeof *g);
            r->v = g;
            r->cap = ncap;
        }
        r->v[r->n++] = e;
        return 0;
    }
    for (size_t i = 0; i < e->nargs; i++)
        if (refs_add(x, r, e->args[i], tab) != 0)
            return -1;
    return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t p = (uintptr_t)*(enode *const *)a;
    uintptr_t q = (uintptr_t)*(enode *const *)b;
    return p < q ? -1 : p > q;
}

/* A copy of e (sub's table 0 as read) reading table tab of x's block
 * instead; marks the columns it reads in proj. NULL: out of memory. */
static enode *flat_copy(ctx *x, const enode *e, uint16_t tab, bool *proj)
{
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (!n)
        return NULL;
    *n = *e;
    if (e->op == N_COL && !e->up) {
        n->tab = tab;
        proj[e->col] = true;
    }
    if (e->nargs) {
        n->args = sql_arena_alloc(x->st->ar, e->nargs * sizeof *n->args);
        if (!n->args)
            return NULL;
        for (size_t i = 0; i < e->nargs; i++)
            if (!(n->args[i] = flat_copy(x, e->args[i], tab, proj)))
                return NULL;
    }
    return n;
}

/* Read every flat_target derived table of x's block as its table (see
 * above). cl, ml: the block's compiled ON conditions. 0 or -1. */
static int flatten_views(ctx *x, conj_list *cl, conj_list *ml)
{
    sql_stmt *st = x->st;
    if (st->nsubq)
        return 0;
    for (size_t i = 0; i < st->ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        sql_stmt *sub = tp->sub;
        if (!sub || !flat_target(sub) || (tp->ginner >= 0 && sub->where))
            continue;
        uint16_t t = (uint16_t)i;
        const jet_tdef *td = sub->tabs[0].td;
        col_refs r = { NULL, 0, 0 };
        int rc = 0;
        for (size_t c = 0; c < st->ncols && !rc; c++)
            rc = st->cols[c].e ? refs_add(x, &r, st->cols[c].e, t) : 0;
        if (!rc && st->where)
            rc = refs_add(x, &r, st->where, t);
        for (size_t k = 0; k < cl->n && !rc; k++)
            rc = refs_add(x, &r, cl->v[k].e, t);
        for (size_t k = 0; k < ml->n && !rc; k++)
            rc = refs_add(x, &r, ml->v[k].e, t);
        for (size_t k = 0; k < st->ngroup && !rc; k++)
            rc = refs_add(x, &r, st->group[k], t);
        if (!rc && st->having)
            rc = refs_add(x, &r, st->having, t);
        for (size_t k = 0; k < st->norder && !rc; k++)
            rc = refs_add(x, &r, st->order[k], t);
        for (size_t k = 0; k < st->naggs && !rc; k++)
            rc = refs_add(x, &r, st->aggs[k], t);
        if (rc)
            return -1;
        bool *proj = sql_arena_alloc(st->ar, (td->ncols ? td->ncols : 1) *
                                             sizeof *proj);
        if (!proj)
            return nomem(x);
        if (r.n)
            qsort(r.v, r.n, sizeof *r.v, cmp_ptr);
        for (size_t k = 0; k < r.n; k++) {
            if (k && r.v[k] == r.v[k - 1])
                continue;
            enode *n = r.v[k];
            if (n->col >= sub->ncols)
                return fail(x, "HY000", n->position, "internal error: "
                            "column %u of a derived table", n->col);
            n->col = sub->cols[n->col].e->col;
            proj[n->col] = true;
        }
        if (sub->where) {
            enode *w = flat_copy(x, sub->where, t, proj);
            if (!w)
                return nomem(x);
            if (st->where) {
                enode *v[2] = { w, st->where };
                if (!(st->where = and_tree(x, v, 0, 2)))
                    return nomem(x);
            } else {
                st->where = w;
            }
        }
        for (size_t c = 0; c < st->ncols; c++) {
            out_col *oc = &st->cols[c];
            if (oc->e && oc->e->op == N_COL && !oc->e->up && oc->e->tab == t &&
                oc->direct && st->ntabs == 1)
                oc->src = oc->e->col;
        }
        tp->td = td;
        tp->flat = sub;
        tp->sub = NULL;
        tp->view = NULL;
        tp->ncols = td->ncols;
        tp->proj = proj;
        if (i == 0)
            st->td = td;
    }
    return 0;
}

/* ------------------------------------------------ pushing conditions */

/*
 * An outer WHERE conjunct on a derived table or saved query (a "view")
 * is pushed into the view's own WHERE, so the view's access path can
 * seek on it (Power Query folds every step into such derived tables:
 * select "_".c from (select * from T) "_" where "_".id = ?). Jet
 * flattens stored queries the same way. The conjunct stays in the outer
 * WHERE as well (a second test of rows that pass it).
 *
 * Rows are unchanged when the view's rows are its FROM's rows filtered
 * by its WHERE, one output row per joined row: no grouping, aggregate,
 * TOP, OFFSET/LIMIT or UNION (push_target), and under DISTINCT only
 * conditions that commute with it (push_distinct_ok); the view is not on
 * the optional side of an outer join of the outer block (there a WHERE
 * conjunct also removes NULL-extended rows the view never produced); and
 * the conjunct reads only plain columns of the view's tables (each
 * output column read is a table column as read, so it has the same value
 * inside as outside), parameters and constants (push_reads).
 */

/* Whether sub's rows are its joined rows filtered by its WHERE (then
 * made distinct: see push_distinct_ok). */
static bool push_target(const sql_stmt *sub)
{
    return !sub->nbranch && !sub->grouped && !sub->naggs &&
           sub->top < 0 && !sub->top_percent &&
           sub->offset == 0 && sub->limit < 0 && !sub->no_from &&
           sub->ntabs > 0 && !sub->correlated;
}

/* Whether conjunct e can be evaluated inside derived table tab's block
 * sub: it reads no subquery, aggregate, group key or enclosing block,
 * and each column of tab it reads is a plain column of sub's tables.
 * *reads: set when e reads tab at all; *other: when it reads another
 * table of the outer block. */
static bool push_reads(const enode *e, uint16_t tab, const sql_stmt *sub,
                       bool *reads, bool *other)
{
    if (e->op == N_SUBQ || e->op == N_AGG || e->op == N_GKEY)
        return false;
    if (e->op == N_COL) {
        if (e->up)
            return false;
        if (e->tab != tab) {
            *other = true;
            return false;
        }
        if (e->col >= sub->ncols)
            return false;
        const out_col *oc = &sub->cols[e->col];
        if (!oc->direct || !oc->e || oc->e->op != N_COL || oc->e->up)
            return false;
        *reads = true;
        return true;
    }
    for (size_t i = 0; i < e->nargs; i++)
        if (!push_reads(e->args[i], tab, sub, reads, other))
            return false;
    return true;
}

/* A value that is the same for every row: a constant or a parameter. */
static bool push_fixed(const enode *e)
{
    return e->op == N_CONST || e->op == N_PARAM;
}

/*
 * Whether conjunct e commutes with DISTINCT (DISTINCTROW views: most of
 * Access's saved queries): rows DISTINCT finds equal (text equal
 * ignoring case and trailing spaces) must all pass or all fail it, since
 * DISTINCT keeps one of them, whichever. Comparisons, BETWEEN, IN and IS
 * NULL of a column against constants and parameters compare with that
 * same equality; functions (Len, binary StrComp) and LIKE (trailing
 * spaces count) may tell such rows apart.
 */
static bool push_distinct_ok(const enode *e)
{
    if (e->op != N_CMP && e->op != N_BETWEEN && e->op != N_IN &&
        e->op != N_ISNULL)
        return false;
    if (e->nargs == 0 || e->args[0]->op != N_COL)
        return false;
    for (size_t i = 1; i < e->nargs; i++)
        if (!push_fixed(e->args[i]))
            return false;
    return true;
}

/* A copy of e (a push_reads conjunct) in sub's terms: each column of
 * tab replaced by the expression sub computes for it. NULL: out of
 * memory. */
static enode *push_copy(ctx *x, const enode *e, uint16_t tab,
                        const sql_stmt *sub)
{
    const enode *src = e;
    if (e->op == N_COL && e->tab == tab && !e->up)
        src = sub->cols[e->col].e;
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (!n)
        return NULL;
    *n = *src;
    if (src != e && src->op == N_COL && !src->up &&
        sub->tabs[src->tab].flat) {
        /* sub read that derived table as its table (flatten_views
         * renumbered src to the table's columns), but the copy goes into
         * sub's rebuild, where the derived table is one again: its
         * column that reads the same table column */
        const sql_stmt *f = sub->tabs[src->tab].flat;
        size_t k = 0;
        while (k < f->ncols && f->cols[k].e->col != src->col)
            k++;
        if (k == f->ncols)
            return NULL;    /* cannot be: src came from one of them */
        n->col = (uint16_t)k;
    }
    if (src->nargs) {
        n->args = sql_arena_alloc(x->st->ar, src->nargs * sizeof *n->args);
        if (!n->args)
            return NULL;
        for (size_t i = 0; i < src->nargs; i++)
            if (!(n->args[i] = push_copy(x, src->args[i], tab, sub)))
                return NULL;
    }
    return n;
}

/* Conjuncts of e (its AND tree). */
static size_t push_count(const enode *e)
{
    if (e->op == N_AND)
        return push_count(e->args[0]) + push_count(e->args[1]);
    return 1;
}

/* Append sub's copies of the conjuncts of e that push_reads allows to
 * v[*n]. -1: out of memory. */
static int push_collect(ctx *x, const enode *e, uint16_t tab,
                        const sql_stmt *sub, enode **v, size_t *n)
{
    if (e->op == N_AND) {
        if (push_collect(x, e->args[0], tab, sub, v, n) != 0)
            return -1;
        return push_collect(x, e->args[1], tab, sub, v, n);
    }
    bool reads = false, other = false;
    if (!push_reads(e, tab, sub, &reads, &other) || !reads || other)
        return 0;
    if (sub->distinct && !push_distinct_ok(e))
        return 0;
    if (!(v[*n] = push_copy(x, e, tab, sub)))
        return nomem(x);
    v[*n]->soft = true;     /* the outer WHERE raises its errors */
    (*n)++;
    return 0;
}

/* Rebuild each view of st's FROM that the WHERE has conjuncts for with
 * those conjuncts added to its WHERE (see above). 0 or -1. */
static int push_down(ctx *x)
{
    sql_stmt *st = x->st, *root = st->root;
    size_t nconj = 0;
    enode **v = NULL;
    for (size_t i = 0; i < st->ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        sql_stmt *sub = tp->sub;
        if (!sub || tp->ginner >= 0 || !push_target(sub))
            continue;
        if (root->push_rebuilds >= SQL_MAX_PUSH_REBUILDS)
            return 0;
        if (!v) {
            nconj = push_count(st->where);
            if (!(v = sql_arena_alloc(st->ar, nconj * sizeof *v)))
                return nomem(x);
        }
        size_t n = 0;
        if (push_collect(x, st->where, (uint16_t)i, sub, v, &n) != 0)
            return -1;
        if (!n)
            continue;
        enode *pushed = and_tree(x, v, 0, n);
        if (!pushed)
            return nomem(x);
        root->push_rebuilds++;
        sql_stmt *nsub = NULL;
        int r;
        if (tp->view) {
            /* as bind_view built it: errors name the saved query */
            if (root->view_depth == SQL_MAX_VIEW_DEPTH)
                continue;
            size_t keep_pos = root->view_outer_pos;
            if (root->view_depth == 0)
                root->view_outer_pos = tp->position;
            root->view_stack[root->view_depth++] = tp->view;
            r = build_block(&nsub, NULL, root, sub->qb, false, pushed,
                            x->err);
            root->view_depth--;
            root->view_outer_pos = keep_pos;
            if (r != 0) {
                sql_error_in_saved(x->err, tp->view->name, tp->position);
                return -1;
            }
        } else if (build_block(&nsub, NULL, root, sub->qb, false, pushed,
                               x->err) != 0) {
            return -1;
        }
        tp->sub = nsub;
    }
    return 0;
}

/* Compile one query block (st->qb) into st: tables, select list,
 * conditions, grouping, order, join plan. branch: a UNION branch (its
 * ORDER BY / LIMIT belong to the union). */
static int build(ctx *x, bool branch)
{
    sql_stmt *st = x->st;
    sql_query *q = st->qb;
    const sql_select *sel = &q->sel;

    if (q->union_next && !branch)
        return build_union(x);

    /* FROM */
    size_t ntabs = 0;
    for (size_t i = 0; i < q->nfrom; i++)
        ntabs += count_tabs(q->from[i]);
    if (ntabs > PLAN_MAX_TABS)
        return fail(x, "HYC00", q->position, "not supported: more than %d "
                    "tables in one query", PLAN_MAX_TABS);
    st->tabs = sql_arena_alloc(st->ar, (ntabs ? ntabs : 1) *
                                       sizeof *st->tabs);
    if (!st->tabs)
        return nomem(x);
    on_list ons = { NULL, NULL, 0, 0 };
    bool has_left = false;
    size_t k = 0;
    for (size_t i = 0; i < q->nfrom; i++) {
        if (flatten(x, q->from[i], &k, &ons, &has_left, -1) != 0)
            return -1;
        st->ntabs = k;          /* bound so far (subqueries look here) */
    }
    st->ntabs = ntabs;
    /* each FROM item is known by one name (its alias, else its table's
     * name): the same name twice leaves every reference to it ambiguous,
     * and Access refuses the query (a self-join needs an alias) */
    for (size_t i = 1; i < ntabs; i++) {
        const tab_plan *b = &st->tabs[i];
        if (!b->alias && (!b->name || !b->name[0]))
            continue;           /* an unnamed derived table */
        for (size_t j = 0; j < i; j++)
            if (jet_name_equal_ci(tab_label(&st->tabs[j]), tab_label(b)))
                return fail(x, "42000", b->position, "'%.64s' names two "
                            "tables in the FROM clause: give each an alias "
                            "of its own (at character %zu)", tab_label(b),
                            b->position);
    }
    st->no_from = q->no_from;
    st->td = ntabs ? st->tabs[0].td : NULL;

    st->distinct = sel->distinct;
    if (q->distinctrow && ntabs <= 1)
        st->distinct = false;   /* every row of one table is distinct */
    st->top = sel->top;
    st->top_percent = q->top_percent;
    st->offset = branch ? 0 : q->offset;
    st->limit = branch ? -1 : q->limit;
    st->explain = !branch && st->parent == NULL && st == st->root &&
                  q->explain;

    if (build_select_list(x) != 0)
        return -1;

    if (q->where) {
        x->in_where = true;
        if (compile(x, q->where, &st->where) != 0)
            return -1;
        x->in_where = false;
    }
    if (x->pushed) {
        /* an enclosing block's conditions on this block's columns
         * (push_down): filtering here gives the rows filtering the
         * result would, and lets the access path seek on them */
        if (st->where) {
            enode *v[2] = { st->where, x->pushed };
            if (!(st->where = and_tree(x, v, 0, 2)))
                return nomem(x);
        } else {
            st->where = x->pushed;
        }
    }
    /* ON conditions: LEFT ones stay with their table */
    conj_list cl = { NULL, 0, 0 };
    uint64_t all = ntabs >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ntabs) - 1;
    x->no_agg = "JOIN";
    /* conditions deciding outer-join groups: each LEFT join's ON and the
     * inner joins' ONs inside its optional side */
    conj_list ml = { NULL, 0, 0 };
    int32_t *mown = NULL;
    for (size_t i = 0; i < ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        if (tp->join != JOIN_LEFT || !tp->on_src)
            continue;
        enode *e;
        size_t from = ml.n;
        if (compile(x, tp->on_src, &e) != 0 || split_conj(x, e, &ml, all))
            return -1;
        if (grow_owners(x, &mown, from, ml.n, (int32_t)i) != 0)
            return -1;
    }
    for (size_t i = 0; i < ons.n; i++) {
        enode *e;
        if (compile(x, ons.v[i], &e) != 0)
            return -1;
        if (ons.owner[i] < 0) {
            if (split_conj(x, e, &cl, all) != 0)
                return -1;
            continue;
        }
        size_t from = ml.n;
        if (split_conj(x, e, &ml, all) != 0 ||
            grow_owners(x, &mown, from, ml.n, ons.owner[i]) != 0)
            return -1;
    }
    x->no_agg = "GROUP BY";
    st->ngroup = q->ngroup;
    st->group = sql_arena_alloc(st->ar, (q->ngroup ? q->ngroup : 1) *
                                        sizeof *st->group);
    if (!st->group)
        return nomem(x);
    for (size_t i = 0; i < q->ngroup; i++)
        if (compile(x, q->group[i], &st->group[i]) != 0)
            return -1;
    x->no_agg = NULL;
    if (q->having && compile(x, q->having, &st->having) != 0)
        return -1;

    if (branch) {
        st->norder = 0;
        st->order = NULL;
        st->order_desc = NULL;
    } else if (build_order(x) != 0) {
        return -1;
    } else if (st->norder == 0 && q->ngroup > 0 && !q->sel.distinct) {
        /* Access returns a totals query's groups sorted by its GROUP BY
         * columns (Jet groups by sorting), and Excel and BI tables made
         * from one show them so: the groups come sorted as if by
         * ORDER BY the GROUP BY list (DISTINCT sorts its own way) */
        st->norder = q->ngroup;
        st->order = sql_arena_alloc(st->ar, q->ngroup * sizeof *st->order);
        st->order_desc = sql_arena_alloc(st->ar, q->ngroup);
        if (!st->order || !st->order_desc)
            return nomem(x);
        for (size_t i = 0; i < q->ngroup; i++) {
            st->order_desc[i] = false;
            if (compile(x, q->group[i], &st->order[i]) != 0)
                return -1;
        }
    }

    st->grouped = st->naggs > 0 || st->ngroup > 0 || st->having;
    for (size_t i = 0; i < sel->nitems && st->ngroup; i++)
        if (sel->items[i].kind == SQL_ITEM_STAR)
            return fail(x, "42000", sel->items[i].position, "Cannot group "
                        "on fields selected with '*' (at character %zu)",
                        sel->items[i].position);
    if (st->grouped) {
        for (size_t c = 0; c < st->ncols; c++)
            if (group_rewrite(x, &st->cols[c].e, st->cols[c].meta.name) != 0)
                return -1;
        if (st->having && group_rewrite(x, &st->having, NULL) != 0)
            return -1;
        for (size_t i = 0; i < st->norder; i++)
            if (group_rewrite(x, &st->order[i], NULL) != 0)
                return -1;
        for (size_t c = 0; c < st->ncols; c++) {
            out_col *oc = &st->cols[c];
            if (oc->direct && oc->e->op != N_COL) {
                /* a grouped column: its value comes as computed */
                oc->direct = false;
                oc->src = -1;
                oc->meta.type = oc->e->type ? oc->e->type : JET_T_TEXT;
            }
        }
    }
    /* DISTINCT: ORDER BY must name selected columns */
    if (st->distinct && !(st->grouped && !st->ngroup)) {
        for (size_t i = 0; i < st->norder; i++) {
            bool ok = false;
            for (size_t c = 0; c < st->ncols && !ok; c++)
                ok = enode_equal(st->cols[c].e, st->order[i]);
            if (!ok)
                return fail(x, "42000", q->order[i].position, "ORDER BY "
                            "clause conflicts with DISTINCT (at character "
                            "%zu)", q->order[i].position);
        }
    }
    if (long_value_rules(x) != 0)
        return -1;

    if (flatten_views(x, &cl, &ml) != 0)
        return -1;
    if (st->where && push_down(x) != 0)
        return -1;
    st->where_const = st->where && !uses_row(st->where);
    if (ntabs == 1) {
        /* one table: the whole WHERE is its filter, as always */
        tab_plan *tp = &st->tabs[0];
        enode *conds[1] = { st->where };
        tp->filter = st->where;
        tp->seek_filter = st->where;
        plan_access(x, 0, conds, st->where ? 1 : 0, 0, true);
        tp->method = tp->ap.use_index ? M_INDEX : M_SCAN;
        st->order_tabs = sql_arena_alloc(st->ar, sizeof *st->order_tabs);
        if (!st->order_tabs)
            return nomem(x);
        st->order_tabs[0] = 0;
    } else if (ntabs > 1) {
        if (st->where && split_conj(x, st->where, &cl, all) != 0)
            return -1;
        if (has_left && place_group_conds(x, &ml, mown) != 0)
            return -1;
        if (plan_joins(x, &cl, has_left) != 0)
            return -1;
    }
    bool by_index = ntabs == 1 && st->tabs[0].ap.order_by_index;
    st->materialize = st->grouped || st->distinct || st->top_percent ||
                      (st->norder > 0 && !by_index);
    st->topn = topn_applies(st) ? st->top : 0;
    st->count_tdef = count_from_tdef(st);
    return plan_text(x);
}

/* A new block of root's statement for query qb (a subquery, derived
 * table or UNION branch when parent/root are set), compiled. */
static int build_block(sql_stmt **out, sql_stmt *parent, sql_stmt *root,
                       sql_query *qb, bool branch, enode *pushed,
                       sql_error *err)
{
    if (root->block_depth >= SQL_MAX_BLOCK_DEPTH) {
        sql_set_error(err, "42000", qb->position, "queries nested too "
                      "deeply (more than %d levels of subqueries, derived "
                      "tables and saved queries)", SQL_MAX_BLOCK_DEPTH);
        return -1;
    }
    sql_stmt *st = sql_arena_alloc(root->ar, sizeof *st);
    if (!st) {
        sql_set_error(err, "HY001", 0, "out of memory");
        return -1;
    }
    st->db = root->db;
    st->qb = qb;
    st->ar = root->ar;
    st->parent = parent;
    st->root = root;
    st->like_flags = root->like_flags;
    st->nparams = root->nparams;
    st->params = root->params;
    st->popts = root->popts;
    st->join_force = root->join_force;
    st->limit = -1;
    st->top = -1;
    if (root->view_depth) {
        st->view_name = root->view_stack[root->view_depth - 1]->name;
        st->view_pos = root->view_outer_pos;
    } else {
        st->view_name = root->view_name;    /* a {call}: its query */
    }
    ctx x;
    memset(&x, 0, sizeof x);
    x.st = st;
    x.err = err;
    x.pushed = pushed;
    root->block_depth++;
    int rc = build(&x, branch);
    root->block_depth--;
    if (rc != 0)
        return -1;
    *out = st;
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
    const char *saved = opts ? opts->saved_query : NULL;
    if (sql_parse_query(&q, text, len, err) != 0) {
        if (saved)
            sql_error_in_saved(err, saved, 0);
        return -1;
    }
    sql_stmt *st = calloc(1, sizeof *st);
    if (!st) {
        sql_select_free(&q->sel);
        sql_set_error(err, "HY001", 0, "out of memory");
        return -1;
    }
    st->db = db;
    st->q = q;
    st->qb = q;
    st->ar = &st->arena;
    st->root = st;
    st->limit = -1;
    st->top = -1;
    st->like_flags = LIKE_ACCESS | LIKE_ANSI;
    if (opts && opts->like_mode == SQL_LIKE_ACCESS)
        st->like_flags = LIKE_ACCESS;
    else if (opts && opts->like_mode == SQL_LIKE_ANSI)
        st->like_flags = LIKE_ANSI;
    if (opts)
        st->crosstab_depth = opts->crosstab_depth;
    if (opts && opts->join_method >= SQL_JOIN_INDEX &&
        opts->join_method <= SQL_JOIN_LOOP)
        st->join_force = (uint8_t)opts->join_method;
    ctx x;
    memset(&x, 0, sizeof x);
    x.st = st;
    x.err = err;
    if (saved && !(st->view_name = sql_arena_strndup(st->ar, saved,
                                                     strlen(saved)))) {
        nomem(&x);
        sql_stmt_free(st);
        return -1;
    }
    st->nparams = q->sel.nparams;
    st->params = sql_arena_alloc(st->ar, (st->nparams ? st->nparams : 1) *
                                         sizeof *st->params);
    if (!st->params) {
        nomem(&x);
        sql_stmt_free(st);
        return -1;
    }
    for (size_t i = 0; i < st->nparams; i++)
        st->params[i].type = JET_T_TEXT;
    for (size_t i = 0; i < q->ndecl && i < st->nparams; i++) {
        jet_type t = decl_type(q->decl[i].type);
        if (t) {
            st->params[i].type = t;
            st->params[i].declared = true;
        }
    }
    int brc = build(&x, false);
    if (saved && st->nunbound)
        brc = unbound_fail(&x, saved, 0);
    if (brc != 0) {
        if (saved)
            sql_error_in_saved(err, saved, 0);
        sql_stmt_free(st);
        return -1;
    }
    st->explain = q->explain;
    if (st->explain) {
        /* one TEXT column "Plan" */
        out_col *oc = sql_arena_alloc(st->ar, sizeof *oc);
        if (!oc) {
            nomem(&x);
            sql_stmt_free(st);
            return -1;
        }
        oc->src = -1;
        oc->meta.name = "Plan";
        oc->meta.base_table = "";
        oc->meta.base_column = "";
        oc->meta.type = JET_T_MEMO;
        oc->meta.nullable = false;
        st->cols = oc;
        st->ncols = 1;
    }
    *out = st;
    return 0;
}

void sql_stmt_free(sql_stmt *st)
{
    if (!st)
        return;
    for (struct sql_view_ref *v = st->views; v; v = v->next)
        sql_select_free(&v->q->sel);
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
