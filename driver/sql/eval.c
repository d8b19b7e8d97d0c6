/*
 * eval.c - the expression evaluator: an enode's value for the cursor's
 * current row (sql_eval, sql_eval_cond), with arithmetic, conversions
 * to text, the value output as a jet_value (sql_sv_to_value), the
 * cursor's per-row scratch and its errors, and the column cache that
 * reads a table's current row once per column. Values themselves
 * (comparison, dates, numbers, LIKE, hashing) are values.c's.
 * Nothing here allocates per row from the heap: intermediate text goes
 * to the cursor's per-row scratch, whose chunks are reused.
 * Calls back up (recursions the language makes inherent):
 *   sql_agg_value (op_agg.c)  an aggregate read inside an expression
 *   sql_subq_eval (op_subq.c) a subquery evaluated inside an expression
 *   sql_cursor_value, sql_cursor_error (exec.c)
 *                             a derived table's column: its child
 *                             cursor's output value (or its error)
 */
#define _GNU_SOURCE 1   /* strtod_l */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "func.h"
#include "plan.h"
#include "spill.h"
#include "sql_internal.h"
#include "values.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ------------------------------------------------------ scratch memory */

struct tmp_chunk {
    tmp_chunk *next;
    size_t cap, used;
    max_align_t data[];
};

static void *chunk_alloc(tmp_chunk **list, size_t bytes, bool reuse)
{
    const size_t align = sizeof(max_align_t);
    if (bytes > SIZE_MAX / 4)
        return NULL;
    bytes = (bytes + align - 1) / align * align;
    if (bytes == 0)
        bytes = align;
    tmp_chunk *c;
    if (reuse) {
        for (c = *list; c; c = c->next)
            if (c->cap - c->used >= bytes)
                break;
    } else {
        c = *list;
        if (c && c->cap - c->used < bytes)
            c = NULL;
    }
    if (!c) {
        size_t cap = bytes > 65536 ? bytes : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = *list;
        *list = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    return p;
}

void *sql_tmp_alloc(sql_cursor *c, size_t bytes)
{
    return chunk_alloc(&c->tmp, bytes, true);
}

void *sql_chunk_alloc(tmp_chunk **list, size_t bytes)
{
    return chunk_alloc(list, bytes, false);
}

void sql_tmp_reset(sql_cursor *c)
{
    for (tmp_chunk *t = c->tmp; t; t = t->next)
        t->used = 0;
}

void sql_tmp_keep_one(tmp_chunk **list)
{
    tmp_chunk *t = *list;
    if (!t)
        return;
    sql_tmp_free(&t->next);
    t->used = 0;
}

void sql_tmp_free(tmp_chunk **list)
{
    tmp_chunk *t = *list;
    while (t) {
        tmp_chunk *n = t->next;
        free(t);
        t = n;
    }
    *list = NULL;
}

/* ------------------------------------------------------------ errors */

int sql_cursor_fail(sql_cursor *c, const char *state, size_t pos,
                    const char *fmt, ...)
{
    snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "%s", state);
    c->err.position = pos;
    c->err.pgno = UINT32_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err.msg, sizeof c->err.msg, fmt, ap);
    va_end(ap);
    if (c->st && c->st->view_name)
        sql_error_in_saved(&c->err, c->st->view_name, c->st->view_pos);
    if (!c->err.rc)
        c->err.rc = JET_EUNSUPPORTED;
    c->core_failed = false;
    return -1;
}

int sql_cursor_fail_rc(sql_cursor *c, int rc, const jet_error *je)
{
    /* no SQLSTATE here: the driver maps rc (sql.h, driver/diag.c) */
    c->err.rc = rc;
    c->err.sqlstate[0] = '\0';
    c->err.position = 0;
    c->core_failed = true;
    memset(&c->core_err, 0, sizeof c->core_err);
    c->core_err.rc = (jet_rc)rc;
    c->core_err.pgno = UINT32_MAX;
    if (je)
        c->core_err = *je;
    c->err.pgno = c->core_err.pgno;
    if (je && je->msg[0])
        snprintf(c->err.msg, sizeof c->err.msg, "%s", je->msg);
    else
        snprintf(c->err.msg, sizeof c->err.msg, "%s",
                 jet_rc_str((jet_rc)rc));
    return -1;
}

static int mismatch(sql_cursor *c, const enode *e)
{
    c->err.rc = JET_EUNSUPPORTED;
    return sql_cursor_fail(c, "22018", e->position,
                           "Data type mismatch in criteria expression "
                           "(at character %zu)", e->position);
}

static int overflow(sql_cursor *c, const enode *e)
{
    c->err.rc = JET_ELIMIT;
    return sql_cursor_fail(c, "22003", e->position,
                           "Overflow (at character %zu)", e->position);
}

/* ------------------------------------------------------- conversions */

/* Any value as text into scratch (numbers in plain notation). */
static int to_text(sql_cursor *c, const sv *v, sv *out)
{
    char buf[80];
    int n = 0;
    switch (v->k) {
    case K_TEXT:
        *out = *v;
        return 0;
    case K_BOOL:
        n = snprintf(buf, sizeof buf, "%s", v->i ? "True" : "False");
        break;
    case K_INT:
        n = snprintf(buf, sizeof buf, "%lld", (long long)v->i);
        break;
    case K_MONEY: {
        n = (int)jet_money_format(v->i, buf, sizeof buf);
        /* trim trailing zeros of the 4 decimals, as CStr does */
        while (n > 0 && buf[n - 1] == '0')
            n--;
        if (n > 0 && buf[n - 1] == '.')
            n--;
        buf[n] = '\0';
        break;
    }
    case K_DOUBLE:
        n = (int)(v->single ? sql_format_single(v->d, buf, sizeof buf)
                            : sql_format_double(v->d, buf, sizeof buf));
        break;
    case K_DEC:
        n = (int)sql_dec_format(v, buf, sizeof buf);
        break;
    case K_DATE:
        /* VBA's General Date (CStr, &) */
        n = (int)sql_format_date(v->d, buf, sizeof buf);
        if (n <= 0)
            return -1;
        break;
    default:
        return -1;
    }
    uint16_t *u = sql_tmp_alloc(c, (size_t)(n > 0 ? n : 1) * 2);
    if (!u)
        return -1;
    for (int i = 0; i < n; i++)
        u[i] = (unsigned char)buf[i];
    memset(out, 0, sizeof *out);
    out->k = K_TEXT;
    out->s = u;
    out->n = (size_t)n;
    return 0;
}

/* ---------------------------------------------------------- functions */

static void set_int(sv *out, int64_t v)
{
    memset(out, 0, sizeof *out);
    out->k = K_INT;
    out->i = v;
}

static void set_double(sv *out, double v)
{
    memset(out, 0, sizeof *out);
    out->k = K_DOUBLE;
    out->d = v;
}

static int text_arg(sql_cursor *c, const enode *e, const sv *v, sv *out)
{
    if (to_text(c, v, out) != 0)
        return mismatch(c, e);
    return 0;
}

/* The conversions above for func*.c (func.h). */
int sql_sv_text(sql_cursor *c, const sv *v, sv *out)
{
    return to_text(c, v, out);
}

int sql_arg_int(sql_cursor *c, const enode *e, const sv *v, int64_t *out)
{
    int rc = sql_sv_int(v, out);
    if (rc == -2)
        return overflow(c, e);
    if (rc != 0)
        return mismatch(c, e);
    return 0;
}

int sql_fail_mismatch(sql_cursor *c, const enode *e)
{
    return mismatch(c, e);
}

int sql_fail_overflow(sql_cursor *c, const enode *e)
{
    return overflow(c, e);
}

int sql_fail_nomem(sql_cursor *c)
{
    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
}

/* ---------------------------------------------------------- arithmetic */

/* Currency x * y (both in 1/10000 units), rounded half to even to 4
 * places as VBA's Currency multiplication (VarCyMul) rounds: 1.0007 *
 * 0.5 is 0.5004, not the truncated 0.5003. */
static jet_i128 money_mul(jet_i128 x, jet_i128 y)
{
    jet_i128 rem, q = i128_divmod(i128_mul(x, y), i128_of(10000), &rem);
    int c = i128_cmp(i128_of(2 * i128_to_i64(rem) * i128_sign(rem)),
                     i128_of(10000));
    if (c > 0 || (c == 0 && (i128_to_i64(q) & 1)))
        q = i128_add(q, i128_of(i128_sign(rem)));
    return q;
}

static int eval_arith(sql_cursor *c, const enode *e, sv *out)
{
    sv a, b;
    if (sql_eval_leaf(c, e->args[0], &a) != 0 ||
        sql_eval_leaf(c, e->args[1], &b) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    if (a.k == K_NULL || b.k == K_NULL)
        return 0;
    char op = (char)e->sub;
    if (op == '+' && a.k == K_TEXT && b.k == K_TEXT) {
        uint16_t *u = sql_tmp_alloc(c, (a.n + b.n + 1) * 2);
        if (!u)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(u, a.s, a.n * 2);
        memcpy(u + a.n, b.s, b.n * 2);
        out->k = K_TEXT;
        out->s = u;
        out->n = a.n + b.n;
        return 0;
    }
    if (op == '\\' || op == 'M') {
        int64_t x, y;
        if (sql_sv_int(&a, &x) != 0 || sql_sv_int(&b, &y) != 0)
            return mismatch(c, e);
        if (y == 0)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        /* y = -1 apart: x / -1 and x % -1 trap in C for x = INT64_MIN,
         * whose quotient 2^63 is past a Large Number (Overflow); the
         * remainder is 0 for every x */
        if (y == -1 && op == '\\' && x == INT64_MIN)
            return overflow(c, e);
        set_int(out, y == -1 ? (op == 'M' ? 0 : -x) : op == 'M' ? x % y
                                                               : x / y);
        return 0;
    }
    /* (a literal beside a Decimal is one when arith_kind says so) */
    if ((e->k == K_DEC || a.k == K_DEC || b.k == K_DEC) && op != '^' &&
        (a.k != K_DOUBLE || (e->k == K_DEC && a.has_dec)) &&
        (b.k != K_DOUBLE || (e->k == K_DEC && b.has_dec)) && a.k != K_DATE &&
        b.k != K_DATE && a.k != K_TEXT && b.k != K_TEXT) {
        /* exact Decimal arithmetic (Decimal with integers, Currency) */
        int rc = sql_dec_arith(out, op, &a, &b);
        if (rc == -1)
            return overflow(c, e);
        if (rc == -2)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        if (rc == 0)
            return 0;
    }
    if (e->k == K_INT && (a.k == K_INT || a.k == K_BOOL) &&
        (b.k == K_INT || b.k == K_BOOL)) {
        int64_t x = a.k == K_BOOL ? -a.i : a.i, y = b.k == K_BOOL ? -b.i : b.i;
        jet_i128 r = op == '+' ? i128_add(i128_of(x), i128_of(y)) : op == '-' ?
                     i128_sub(i128_of(x), i128_of(y)) : i128_mul(i128_of(x), i128_of(y));
        if (!i128_fits_i64(r) ||
            (e->type == JET_T_LONG &&
             (i128_to_i64(r) > INT32_MAX || i128_to_i64(r) < INT32_MIN)))
            return overflow(c, e);
        set_int(out, i128_to_i64(r));
        return 0;
    }
    if (e->k == K_MONEY && op != '/' && op != '^') {
        jet_i128 x, y;
        if (a.k == K_MONEY) x = i128_of(a.i);
        else if (a.k == K_INT || a.k == K_BOOL)
            x = i128_mul(i128_of(a.k == K_BOOL ? -a.i : a.i), i128_of(10000));
        else goto as_double;
        if (b.k == K_MONEY) y = i128_of(b.i);
        else if (b.k == K_INT || b.k == K_BOOL)
            y = i128_mul(i128_of(b.k == K_BOOL ? -b.i : b.i), i128_of(10000));
        else goto as_double;
        jet_i128 r = op == '+' ? i128_add(x, y) : op == '-' ? i128_sub(x, y)
                     : money_mul(x, y);
        if (!i128_fits_i64(r))
            return overflow(c, e);
        out->k = K_MONEY;
        out->i = i128_to_i64(r);
        return 0;
    }
as_double:;
    double x, y, r;
    if (sql_sv_double(&a, &x) != 0 || sql_sv_double(&b, &y) != 0)
        return mismatch(c, e);
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
        if (y == 0)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        r = x / y;
        break;
    default: r = pow(x, y); break;
    }
    /* VBA's error 5 for (-8) ^ 0.5 and error 6 (Overflow) for 10 ^ 400
     * or 1E308 * 10: a Double never holds NaN or an infinity */
    if (isnan(r) && op == '^' && isfinite(x) && isfinite(y))
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call or argument: a negative number to a "
                               "fractional power (at character %zu)",
                               e->position);
    /* Access's dates run from 0100-01-01 to 9999-12-31 (days -657434 ..
     * 2958465.99999): a Date result outside that range is VBA's error 6
     * (Overflow), reported as 22008 (datetime field overflow), so no
     * comparison ever sees an out-of-range date */
    if (e->k == K_DATE && !(r > -657435.0 && r < 2958466.0))
        return sql_cursor_fail(c, "22008", e->position, "Overflow: date out "
                               "of range (at character %zu)", e->position);
    if (!isfinite(r))
        return overflow(c, e);
    out->k = e->k == K_DATE ? K_DATE : K_DOUBLE;
    out->d = r;
    if (e->k == K_MONEY) {
        out->k = K_MONEY;
        if (!(fabs(r) < 9.2e14))
            return overflow(c, e);
        out->i = (int64_t)nearbyint(r * 10000.0);
    }
    return 0;
}

/* ---------------------------------------------------------- evaluator */

static int cmp_or_fail(sql_cursor *c, const enode *e, const sv *a,
                       const sv *b, int *r)
{
    if (sql_sv_cmp(c->text_order, a, b, r) != 0)
        return mismatch(c, e);
    return 0;
}

static void set_bool(sv *out, int t)
{
    memset(out, 0, sizeof *out);
    if (t < 0)
        return;         /* NULL */
    out->k = K_BOOL;
    out->i = t;
}

int sql_sv_truth(sql_cursor *c, const enode *e, const sv *v, int *t)
{
    double d;
    if (v->k == K_NULL) {
        *t = -1;
        return 0;
    }
    if (v->k == K_BOOL || v->k == K_INT || v->k == K_MONEY) {
        *t = v->i != 0;
        return 0;
    }
    if (v->k == K_DEC) {
        *t = i128_sign(v->m) != 0;
        return 0;
    }
    if (sql_sv_double(v, &d) != 0)
        return mismatch(c, e);
    *t = d != 0;
    return 0;
}

/*
 * Whether conjunct e, whose evaluation just failed, passes instead: e is
 * a copy of an outer WHERE conjunct pushed into a view (enode.soft) and
 * the failure is a data exception (SQLSTATE class 22: division by zero,
 * overflow, a conversion). The copy only narrows the view's rows early;
 * the outer WHERE still tests the original on the rows the view gives,
 * so the error is raised there, for exactly the rows the query without
 * the push would raise it for, and not for a row the view's own
 * conditions drop (the planner may test the copy first). On true the
 * error is cleared and *v / *t say TRUE.
 */
static bool soft_pass(sql_cursor *c, const enode *e, sv *v, int *t)
{
    if (!e->soft || c->core_failed || c->err.sqlstate[0] != '2' ||
        c->err.sqlstate[1] != '2')
        return false;
    memset(&c->err, 0, sizeof c->err);
    set_bool(v, 1);
    *t = 1;
    return true;
}

int sql_eval(sql_cursor *c, const enode *e, sv *out)
{
    sv a, b;
    int r, ta, tb;
    switch (e->op) {
    case N_CONST:
        *out = e->konst;
        return 0;
    case N_COL:
        if (e->up) {
            /* a correlated subquery reads its enclosing block's row */
            sql_cursor *oc = c;
            for (uint8_t u = 0; u < e->up && oc; u++)
                oc = oc->outer;
            if (!oc)
                return sql_cursor_fail(c, "HY000", e->position, "outer "
                                       "reference without a row");
            if (sql_col_sv(oc, e->tab, e->col, out) != 0) {
                c->err = oc->err;
                return -1;
            }
            return 0;
        }
        return sql_col_sv(c, e->tab, e->col, out);
    case N_PARAM:
        *out = c->params[e->param];
        return 0;
    case N_AGG:
        return sql_agg_value(c, e, out);
    case N_GKEY: {
        /* up > 0: a subquery reads its grouped enclosing block's key */
        const sql_cursor *gc = c;
        for (uint8_t u = 0; u < e->up && gc; u++)
            gc = gc->outer;
        if (!gc || !gc->gkeys)
            return sql_cursor_fail(c, "HY000", e->position, "outer "
                                   "reference without a group");
        *out = gc->gkeys[e->slot];
        return 0;
    }
    case N_SUBQ:
        return sql_subq_eval(c, e, out);
    case N_NOT:
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_sv_truth(c, e, &a, &ta) != 0)
            return -1;
        set_bool(out, ta < 0 ? -1 : !ta);
        return 0;
    case N_AND: case N_OR: case N_XOR:
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_sv_truth(c, e, &a, &ta) != 0) {
            if (e->op != N_AND || !soft_pass(c, e->args[0], &a, &ta))
                return -1;
        }
        if (e->op == N_AND && ta == 0) {
            set_bool(out, 0);
            return 0;
        }
        if (e->op == N_OR && ta == 1) {
            set_bool(out, 1);
            return 0;
        }
        if (sql_eval(c, e->args[1], &b) != 0 ||
            sql_sv_truth(c, e, &b, &tb) != 0) {
            if (e->op != N_AND || !soft_pass(c, e->args[1], &b, &tb))
                return -1;
        }
        if (e->op == N_AND)
            set_bool(out, tb == 0 ? 0 : (ta < 0 || tb < 0) ? -1 : 1);
        else if (e->op == N_OR)
            set_bool(out, tb == 1 ? 1 : (ta < 0 || tb < 0) ? -1 : 0);
        else
            set_bool(out, (ta < 0 || tb < 0) ? -1 : ta != tb);
        return 0;
    case N_CMP:
        if (sql_eval_leaf(c, e->args[0], &a) != 0 ||
            sql_eval_leaf(c, e->args[1], &b) != 0)
            return -1;
        if (a.k == K_NULL || b.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        if (cmp_or_fail(c, e, &a, &b, &r) != 0)
            return -1;
        switch (e->sub) {
        case CMP_EQ: set_bool(out, r == 0); break;
        case CMP_NE: set_bool(out, r != 0); break;
        case CMP_LT: set_bool(out, r < 0); break;
        case CMP_LE: set_bool(out, r <= 0); break;
        case CMP_GT: set_bool(out, r > 0); break;
        default: set_bool(out, r >= 0); break;
        }
        return 0;
    case N_ISNULL:
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        set_bool(out, (a.k == K_NULL) != e->negated);
        return 0;
    case N_BETWEEN: {
        sv lo, hi;
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_eval(c, e->args[1], &lo) != 0 ||
            sql_eval(c, e->args[2], &hi) != 0)
            return -1;
        int t1 = -1, t2 = -1;
        if (a.k != K_NULL && lo.k != K_NULL) {
            if (cmp_or_fail(c, e, &a, &lo, &r) != 0)
                return -1;
            t1 = r >= 0;
        }
        if (a.k != K_NULL && hi.k != K_NULL) {
            if (cmp_or_fail(c, e, &a, &hi, &r) != 0)
                return -1;
            t2 = r <= 0;
        }
        int t = (t1 == 0 || t2 == 0) ? 0 : (t1 < 0 || t2 < 0) ? -1 : 1;
        set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
        return 0;
    }
    case N_IN: {
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        if (a.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        int t = 0;
        if (e->inset && sql_in_class(&a) == e->inset->cls) {
            /* constants of a's class: the hash set decides as the loop
             * below would (same-class comparisons never fail) */
            t = sql_in_find(c->text_order, e->inset, &a) ? 1
                : e->inset->has_null ? -1 : 0;
            set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
            return 0;
        }
        for (size_t i = 1; i < e->nargs && t != 1; i++) {
            if (sql_eval(c, e->args[i], &b) != 0)
                return -1;
            if (b.k == K_NULL) {
                t = -1;
                continue;
            }
            if (cmp_or_fail(c, e, &a, &b, &r) != 0)
                return -1;
            if (r == 0)
                t = 1;
        }
        set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
        return 0;
    }
    case N_LIKE: {
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        const like_pat *pat = e->pat;
        if (!pat) {
            if (sql_eval(c, e->args[1], &b) != 0)
                return -1;
            if (b.k == K_NULL) {
                set_bool(out, -1);
                return 0;
            }
            sv bt;
            if (text_arg(c, e, &b, &bt) != 0)
                return -1;
            pat = sql_like_compile(bt.s, bt.n, e->like_flags,
                                   (void *(*)(void *, size_t))sql_tmp_alloc,
                                   c);
            if (!pat)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        }
        if (a.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        sv at;
        if (text_arg(c, e, &a, &at) != 0)
            return -1;
        if (sql_like_invalid(pat))
            return sql_cursor_fail(c, "22025", e->position, "Invalid pattern "
                                   "string: a '[' without its ']' or a "
                                   "descending range in the Like pattern "
                                   "(at character %zu)", e->position);
        set_bool(out, sql_like_match(pat, at.s, at.n));
        return 0;
    }
    case N_NEG:
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        *out = a;
        if (a.k == K_NULL)
            return 0;
        if (a.k == K_INT || a.k == K_MONEY) {
            if (a.i == INT64_MIN)
                return overflow(c, e);
            out->i = -a.i;
            return 0;
        }
        if (a.k == K_BOOL) {
            set_int(out, a.i ? 1 : 0);
            return 0;
        }
        if (a.k == K_DOUBLE || a.k == K_DATE) {
            out->d = -a.d;
            out->has_units = false;
            out->has_dec = false;
            return 0;
        }
        if (a.k == K_DEC) {
            out->m = i128_neg(a.m);
            return 0;
        }
        if (sql_sv_double(&a, &out->d) != 0)
            return mismatch(c, e);
        set_double(out, -out->d);
        return 0;
    case N_ARITH:
        return eval_arith(c, e, out);
    case N_CONCAT:
    case N_FUNC:
        if (sql_func_eval(c, e, out) != 0)
            return -1;
        /* a Double never holds an infinity or NaN (VBA's Overflow) */
        if ((out->k == K_DOUBLE || out->k == K_DATE) && !isfinite(out->d))
            return overflow(c, e);
        return 0;
    default:
        return sql_cursor_fail(c, "HY000", e->position, "bad node");
    }
}

int sql_eval_cond(sql_cursor *c, const enode *e)
{
    sv v;
    int t = 0;
    if (sql_eval(c, e, &v) != 0 || sql_sv_truth(c, e, &v, &t) != 0) {
        if (!soft_pass(c, e, &v, &t))
            return -1;
    }
    return t == 1;
}

/* ------------------------------------------------------ value output */

static int grow_u8(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    uint8_t *p = realloc(*buf, n);
    if (!p)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

jet_type sql_sv_type(const sv *s, jet_type null_type)
{
    switch (s->k) {
    case K_BOOL: return JET_T_BOOL;
    case K_INT:
        return s->i >= INT32_MIN && s->i <= INT32_MAX ? JET_T_LONG
                                                      : JET_T_BIGINT;
    case K_MONEY: return JET_T_MONEY;
    case K_DOUBLE: return JET_T_DOUBLE;
    case K_DEC: return JET_T_NUMERIC;
    case K_DATE: return JET_T_DATETIME;
    case K_TEXT: return JET_T_MEMO;
    case K_GUID: return JET_T_GUID;
    case K_BIN: return JET_T_OLE;
    default: return null_type;      /* NULL */
    }
}

int sql_sv_to_value(sql_cursor *c, const sv *v, jet_type type,
                    uint8_t **buf, size_t *cap, jet_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    if (v->k == K_NULL) {
        out->is_null = true;
        return 0;
    }
    double d = 0;
    int64_t i = 0;
    switch (type) {
    case JET_T_BOOL:
        if (v->k == K_BOOL || v->k == K_INT || v->k == K_MONEY)
            out->u.b = v->i != 0;
        else if (sql_sv_double(v, &d) == 0)
            out->u.b = d != 0;
        else
            return -1;
        return 0;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        if (v->k == K_MONEY)
            i = v->i / 10000;
        else if (sql_sv_int(v, &i) != 0)
            return -1;
        out->u.i = i;
        return 0;
    case JET_T_MONEY:
        if (v->k == K_DEC) {
            sv r;
            if (sql_dec_round(&r, v, 4) != 0)
                return -1;
            jet_i128 m = r.m;
            for (int k = r.scale; k < 4; k++)
                m = i128_mul(m, i128_of(10));
            if (!i128_fits_i64(m))
                return -1;
            out->u.money = i128_to_i64(m);
        } else if (v->k == K_MONEY)
            out->u.money = v->i;
        else if (v->k == K_INT)
            out->u.money = v->i * 10000;
        else if (sql_sv_double(v, &d) == 0)
            out->u.money = (int64_t)nearbyint(d * 10000.0);
        else
            return -1;
        return 0;
    case JET_T_FLOAT:
        if (sql_sv_double(v, &d) != 0)
            return -1;
        out->u.f = (float)d;
        return 0;
    case JET_T_DOUBLE: case JET_T_DATETIME:
        if (v->k == K_TEXT && type == JET_T_DATETIME) {
            if (sql_sv_date(v, &d) != 0)
                return -1;
        } else if (sql_sv_double(v, &d) != 0) {
            return -1;
        }
        out->u.d = d;
        return 0;
    case JET_T_NUMERIC: {
        sv dv;
        jet_i128 m;
        int scale;
        if (v->k == K_TEXT) {
            char tb[80];
            if (v->n >= sizeof tb)
                return -1;
            for (size_t k = 0; k < v->n; k++)
                tb[k] = v->s[k] < 0x80 ? (char)v->s[k] : '?';
            tb[v->n] = '\0';
            if (sql_dec_parse(&dv, tb) != 0)
                return -1;
        } else if (sql_dec_exact(v, &m, &scale) && v->k != K_DOUBLE) {
            sql_dec_set(&dv, m, scale);
        } else if (sql_sv_double(v, &d) != 0 || sql_dec_from_double(&dv, d) != 0) {
            return -1;
        }
        sql_dec_to_value(&dv, out);
        return 0;
    }
    case JET_T_GUID:
        if (v->k != K_GUID)
            return -1;
        memcpy(out->u.guid, v->p, 16);
        return 0;
    case JET_T_BINARY: case JET_T_OLE:
        if (v->k != K_BIN)
            return -1;
        out->data = v->p;
        out->len = v->len;
        return 0;
    default: {
        sv t;
        if (to_text(c, v, &t) != 0)
            return -1;
        out->type = type == JET_T_MEMO ? JET_T_MEMO : JET_T_TEXT;
        out->enc = JET_ENC_UCS2;
        if (grow_u8(buf, cap, t.n * 2 + 2) != 0)
            return -1;
        for (size_t k = 0; k < t.n; k++) {
            (*buf)[2 * k] = (uint8_t)(t.s[k] & 0xFF);
            (*buf)[2 * k + 1] = (uint8_t)(t.s[k] >> 8);
        }
        out->data = *buf;
        out->len = t.n * 2;
        return 0;
    }
    }
}

/* ------------------------------------------------------- column cache */

int sql_col_value_read(sql_cursor *c, uint16_t tab, uint16_t col,
                       const jet_value **out)
{
    tcur *t = &c->t[tab];
    colcache *cc = &t->cc[col];
    if (cc->vgen != t->gen) {
        const tab_plan *tp = &c->st->tabs[tab];
        if (t->null_row) {
            memset(&cc->v, 0, sizeof cc->v);
            cc->v.is_null = true;
            cc->v.type = tp->td ? tp->td->cols[col].type
                                : tp->sub->cols[col].meta.type;
        } else if (t->sub) {
            if (sql_cursor_value(t->sub, col, &cc->v) != 0) {
                c->err = *sql_cursor_error(t->sub);
                return -1;
            }
        } else {
            jet_rc rc = jet_scan_value(t->scan, col, &cc->v);
            if (rc != JET_OK)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            const jet_column *jc = &tp->td->cols[col];
            if (!cc->v.is_null && cc->v.data && cc->v.len &&
                (jc->type == JET_T_MEMO || jc->type == JET_T_OLE ||
                 (jc->flags & JET_COL_CALCULATED))) {
                /* long values live in the scan's shared scratch: keep
                 * ours */
                if (sql_grow((void **)&cc->copy, &cc->copycap, cc->v.len, 1)
                    != 0)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                memcpy(cc->copy, cc->v.data, cc->v.len);
                cc->v.data = cc->copy;
            }
        }
        cc->vgen = t->gen;
    }
    *out = &cc->v;
    return 0;
}

int sql_value_to_sv(sql_cursor *c, const jet_value *v, sv *s,
                    uint16_t **u16, size_t *cap)
{
    memset(s, 0, sizeof *s);
    if (v->is_null)
        return 0;
    switch (v->type) {
    case JET_T_BOOL: s->k = K_BOOL; s->i = v->u.b; return 0;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        s->k = K_INT; s->i = v->u.i; return 0;
    case JET_T_MONEY: s->k = K_MONEY; s->i = v->u.money; return 0;
    case JET_T_FLOAT:
        s->k = K_DOUBLE;
        s->d = v->u.f;
        s->single = true;       /* shows as a Single (7 digits) */
        return 0;
    case JET_T_DOUBLE: s->k = K_DOUBLE; s->d = v->u.d; return 0;
    case JET_T_DATETIME: s->k = K_DATE; s->d = v->u.d; return 0;
    case JET_T_NUMERIC:
        sql_dec_from_value(v, s);       /* exact (func_dec.c) */
        return 0;
    case JET_T_EXT_DATETIME: {
        jet_timestamp ts;
        if (jet_ext_datetime_split(v, &ts) != JET_OK)
            return 0;
        s->k = K_DATE;
        s->d = sql_days_from_civil(ts.year, ts.month, ts.day,
                                   ((int64_t)ts.hour * 3600 + ts.minute * 60 +
                                    ts.second) * 1000 +
                                   ts.fraction_ns / 1000000);
        return 0;
    }
    case JET_T_TEXT: case JET_T_MEMO: {
        size_t units = 0;
        jet_rc rc = jet_text_to_utf16(c->db, v, *u16, *cap, &units);
        if (rc == JET_OK && units > *cap) {
            if (sql_grow((void **)u16, cap, units, sizeof **u16) != 0)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            rc = jet_text_to_utf16(c->db, v, *u16, *cap, &units);
        }
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, NULL);
        s->k = K_TEXT;
        s->s = *u16;
        s->n = units;
        return 0;
    }
    case JET_T_GUID:
        s->k = K_GUID;
        s->p = v->u.guid;
        s->len = 16;
        return 0;
    default:
        s->k = K_BIN;
        s->p = v->data;
        s->len = v->len;
        return 0;
    }
}

int sql_col_sv_read(sql_cursor *c, uint16_t tab, uint16_t col, sv *out)
{
    tcur *t = &c->t[tab];
    colcache *cc = &t->cc[col];
    if (cc->sgen != t->gen) {
        const jet_value *v;
        if (sql_col_value(c, tab, col, &v) != 0)
            return -1;
        if (sql_value_to_sv(c, v, &cc->s, &cc->u16, &cc->u16cap) != 0)
            return -1;
        if (cc->s.k == K_GUID)
            cc->s.p = v->u.guid;
        cc->sgen = t->gen;
    }
    *out = cc->s;
    return 0;
}
