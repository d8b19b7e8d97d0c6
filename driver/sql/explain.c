/*
 * explain.c - the plan of a block in one line (plan_text): EXPLAIN's
 * result and what tests compare. Describes the choices of access.c,
 * joinorder.c and rewrite.c; decides nothing.
 * Invariants:
 *   1. The text is built in the statement's arena, once per block.
 */
#include "config.h"

#include "plan.h"
#include "plan_int.h"
#include "sql_internal.h"
#include "values.h"

#include <stdarg.h>
#include <stdio.h>

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
int plan_text(ctx *x)
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
    if (st->distinct_hashed)
        sb_add(&b, " | DISTINCT (HASHED)");
    else if (st->grouped && st->ngroup)
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
