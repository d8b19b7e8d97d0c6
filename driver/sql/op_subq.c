/*
 * op_subq.c - subquery operators: scalar (SELECT ...), EXISTS, IN
 * (SELECT ...), and comparisons with ANY / SOME / ALL.
 *
 * The subquery is a child block (sql_stmt with parent); a column it
 * reads from an enclosing block is an N_COL with up > 0, read from the
 * enclosing cursor's current row (c->outer). A child cursor is opened
 * when the value is needed: once per run when the block is not
 * correlated (the result is cached in c->sq[slot]), else once per outer
 * row. A correlated block whose one table rewrite.c hashed by its
 * equalities with the enclosing block (sql_stmt.hashed: a hash semi-join,
 * or anti-join under NOT) keeps its cursor, and so its stored rows, from
 * one outer row to the next and only probes again (sql_cursor_rerun):
 * the rows it gives are the rows the per-row scan would give.
 * Value sets (IN, ANY, ALL) are copied; an uncorrelated set of one
 * comparable class is sorted once and searched by bisection.
 * Three-valued logic as SQL: x IN (set) is NULL when x is NULL (set not
 * empty) or no value matches and the set holds a NULL; ALL over an
 * empty set is true, ANY false. A scalar subquery with more than one
 * row fails (21000, Access: "At most one record can be returned by this
 * subquery").
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"
#include "spill.h"
#include "values.h"

#include <stdlib.h>
#include <string.h>

/* The child's first column of its current row as an sv in *out, text
 * through *u16. */
static int child_sv(sql_cursor *c, sql_cursor *k, sv *out, uint16_t **u16,
                    size_t *cap)
{
    jet_value v;
    int rc = sql_cursor_value(k, 0, &v);
    if (rc != 0) {
        c->err = *sql_cursor_error(k);
        return -1;
    }
    return sql_value_to_sv(c, &v, out, u16, cap);
}

static int pass_error(sql_cursor *c, sql_cursor *k)
{
    c->err = *sql_cursor_error(k);
    if (sql_cursor_core_error(k)) {
        c->core_failed = true;
        c->core_err = *sql_cursor_core_error(k);
    }
    return -1;
}

static int kind_class(uint8_t k)
{
    switch (k) {
    case K_BOOL: case K_INT: case K_MONEY: case K_DOUBLE: case K_DEC:
        return 1;
    case K_DATE: return 2;
    case K_TEXT: return 3;
    default: return 4;
    }
}

/* Run the child and cache what node e needs in s. */
static int run_child(sql_cursor *c, const enode *e, subq_state *s)
{
    sql_cursor *k = NULL;
    uint16_t *u16 = NULL;
    size_t cap = 0;
    int ret = -1;
    bool keep = e->subq->hashed;
    if (keep && s->k) {
        /* its table stored and hashed on the first row: probe again */
        k = s->k;
        s->k = NULL;
        if (sql_cursor_rerun(k) != 0) {
            pass_error(c, k);
            sql_cursor_close(k);
            return -1;
        }
    } else if (sql_cursor_open_child(&k, e->subq, c, c->params) != 0) {
        return -1;
    }
    s->k = NULL;
    memset(&s->val, 0, sizeof s->val);
    s->nset = 0;
    s->set_null = false;
    s->sorted = false;
    sql_tmp_free(&s->mem);
    int rc = sql_cursor_next(k);
    if (rc < 0 && rc != JET_DONE) {
        pass_error(c, k);
        goto out;
    }
    switch (e->sub) {
    case SQ_EXISTS:
        s->val.k = K_BOOL;
        s->val.i = rc == JET_OK;
        break;
    case SQ_SCALAR: {
        if (rc == JET_DONE)
            break;
        sv v;
        if (child_sv(c, k, &v, &u16, &cap) != 0)
            goto out;
        s->val = v;
        if (v.k == K_TEXT) {
            if (sql_grow((void **)&s->text, &s->tcap, v.n + 1, 2) != 0)
                goto nomem;
            if (v.n)
                memcpy(s->text, v.s, v.n * 2);
            s->val.s = s->text;
        } else if (v.k == K_BIN || v.k == K_GUID) {
            if (sql_grow((void **)&s->bin, &s->bcap, v.len + 1, 1) != 0)
                goto nomem;
            if (v.len)
                memcpy(s->bin, v.p, v.len);
            s->val.p = s->bin;
        }
        rc = sql_cursor_next(k);
        if (rc == JET_OK) {
            sql_cursor_fail(c, "21000", e->position, "At most one record "
                            "can be returned by this subquery (at character "
                            "%zu)", e->position);
            goto out;
        }
        if (rc < 0 && rc != JET_DONE) {
            pass_error(c, k);
            goto out;
        }
        break;
    }
    default: {
        int cls = -1;
        bool one_class = true;
        while (rc == JET_OK) {
            sv v;
            if (child_sv(c, k, &v, &u16, &cap) != 0)
                goto out;
            if (v.k == K_NULL) {
                s->set_null = true;
            } else {
                if (s->nset == s->setcap &&
                    sql_grow((void **)&s->set, &s->setcap, s->nset + 1,
                         sizeof *s->set) != 0)
                    goto nomem;
                if (v.k == K_TEXT && v.n) {
                    uint16_t *t = sql_chunk_alloc(&s->mem, v.n * 2);
                    if (!t)
                        goto nomem;
                    memcpy(t, v.s, v.n * 2);
                    v.s = t;
                } else if ((v.k == K_BIN || v.k == K_GUID) && v.len) {
                    uint8_t *t = sql_chunk_alloc(&s->mem, v.len);
                    if (!t)
                        goto nomem;
                    memcpy(t, v.p, v.len);
                    v.p = t;
                }
                if (cls < 0)
                    cls = kind_class(v.k);
                else if (cls != kind_class(v.k))
                    one_class = false;
                s->set[s->nset++] = v;
            }
            rc = sql_cursor_next(k);
        }
        if (rc < 0 && rc != JET_DONE) {
            pass_error(c, k);
            goto out;
        }
        if (one_class && !e->subq->correlated && s->nset > 8 &&
            (cls == 1 || cls == 2 || cls == 3)) {
            sql_sv_sort(s->set, s->nset, c->text_order);
            s->sorted = true;
        }
        break;
    }
    }
    s->done = true;
    ret = 0;
    goto out;
nomem:
    sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
out:
    free(u16);
    if (keep && ret == 0) {
        /* kept for the next outer row; its reads count as they happen */
        c->nread += k->nread - s->kread;
        s->kread = k->nread;
        s->k = k;
        return 0;
    }
    if (keep) {
        /* a failed run may leave its table half stored: never rerun it */
        k->nread -= s->kread;
        s->kread = 0;
    }
    sql_cursor_close(k);
    return ret;
}

/* Truth of (x op v): 1, 0, or -1 for error (22018). */
static int cmp_truth(sql_cursor *c, const enode *e, const sv *x,
                     const sv *v, uint8_t op)
{
    int r;
    if (sql_sv_cmp(c->text_order, x, v, &r) != 0)
        return sql_cursor_fail(c, "22018", e->position, "Data type "
                               "mismatch in criteria expression (at "
                               "character %zu)", e->position);
    switch (op) {
    case CMP_EQ: return r == 0;
    case CMP_NE: return r != 0;
    case CMP_LT: return r < 0;
    case CMP_LE: return r <= 0;
    case CMP_GT: return r > 0;
    default: return r >= 0;
    }
}

static void set_truth(sv *out, int t, bool negated)
{
    memset(out, 0, sizeof *out);
    if (t < 0)
        return;             /* NULL */
    out->k = K_BOOL;
    out->i = negated ? !t : t;
}

int sql_subq_eval(sql_cursor *c, const enode *e, sv *out)
{
    subq_state *s = &c->sq[e->slot];
    if (!s->done || e->subq->correlated) {
        if (run_child(c, e, s) != 0)
            return -1;
    }
    if (e->sub == SQ_SCALAR) {
        *out = s->val;
        return 0;
    }
    if (e->sub == SQ_EXISTS) {
        set_truth(out, (int)s->val.i, e->negated);
        return 0;
    }
    sv x;
    if (sql_eval(c, e->args[0], &x) != 0)
        return -1;
    if (s->nset == 0 && !s->set_null) {
        /* empty set: IN and ANY false, ALL true */
        set_truth(out, e->sub == SQ_ALL, e->negated);
        return 0;
    }
    if (x.k == K_NULL) {
        set_truth(out, -1, false);
        return 0;
    }
    uint8_t op = e->sub == SQ_IN ? CMP_EQ : e->cmp;
    if (e->sub == SQ_IN && s->sorted && kind_class(x.k) ==
        kind_class(s->set[0].k)) {
        size_t lo = 0, hi = s->nset;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int r = sql_key_cmp(c->text_order, &s->set[mid], &x);
            if (r == 0) {
                set_truth(out, 1, e->negated);
                return 0;
            }
            if (r < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        set_truth(out, s->set_null ? -1 : 0, e->negated);
        return 0;
    }
    bool any_true = false, any_false = false;
    for (size_t i = 0; i < s->nset; i++) {
        int t = cmp_truth(c, e, &x, &s->set[i], op);
        if (t < 0)
            return -1;
        if (t)
            any_true = true;
        else
            any_false = true;
        if (e->sub != SQ_ALL && any_true)
            break;
        if (e->sub == SQ_ALL && any_false)
            break;
    }
    int t;
    if (e->sub == SQ_ALL)
        t = any_false ? 0 : s->set_null ? -1 : 1;
    else
        t = any_true ? 1 : s->set_null ? -1 : 0;
    set_truth(out, t, e->negated);
    return 0;
}

void sql_subq_free(sql_cursor *c)
{
    if (!c->sq)
        return;
    for (size_t i = 0; i < c->st->nsubq; i++) {
        free(c->sq[i].text);
        free(c->sq[i].bin);
        free(c->sq[i].set);
        sql_tmp_free(&c->sq[i].mem);
        if (c->sq[i].k) {
            /* its reads were added run by run (run_child) */
            c->sq[i].k->nread -= c->sq[i].kread;
            sql_cursor_close(c->sq[i].k);
        }
    }
    free(c->sq);
    c->sq = NULL;
}
