/*
 * op_agg.c - the aggregate operator: GROUP BY and aggregate functions.
 *
 * sql_group_build pulls every joined row (sql_join_next, conditions
 * applied), computes its GROUP BY values, finds its group in a hash table
 * (chained buckets, doubled as it fills; keys equal as sort keys are,
 * NULLs forming one group) and updates that group's aggregate states. A
 * block with aggregates but no GROUP BY has exactly one group, also over
 * no rows. Groups keep their creation order (c->gorder); exec.c then
 * evaluates HAVING and the select list per group (N_GKEY reads the
 * group's key, N_AGG its aggregate) into records, sorted as any query.
 *
 * Aggregate results (types fixed at prepare, see engine.h): COUNT ->
 * LONG; SUM/AVG exact for integers and MONEY; StDev/StDevP/Var/VarP by
 * Welford's update in double (NULL for StDev/Var of fewer than 2 values,
 * as Access); First/Last the first/last non-NULL value read; COUNT
 * (DISTINCT x) keeps copies of the values and counts the distinct ones.
 */
#include "config.h"

#include "engine_int.h"
#include "func.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 4 / elem)
            return -1;
        n *= 2;
    }
    void *p = realloc(*buf, n * elem);
    if (!p)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

static int mismatch(sql_cursor *c, const enode *e)
{
    return sql_cursor_fail(c, "22018", e->position, "Data type mismatch "
                           "(at character %zu)", e->position);
}

static int overflow(sql_cursor *c, const enode *e)
{
    c->err.rc = JET_ELIMIT;
    return sql_cursor_fail(c, "22003", e->position, "Overflow (at character "
                           "%zu)", e->position);
}

/* A number as double (text converted); -1 when it is none. */
static int as_double(const sv *v, double *out)
{
    sv t = *v;
    if (t.k == K_TEXT && sql_text_to_number(t.s, t.n, &t) != 0)
        return -1;
    switch (t.k) {
    case K_INT: *out = (double)t.i; return 0;
    case K_BOOL: *out = t.i ? -1.0 : 0.0; return 0;
    case K_MONEY: *out = (double)t.i / 10000.0; return 0;
    case K_DOUBLE: case K_DATE: *out = t.d; return 0;
    case K_DEC: *out = sql_dec_to_double(&t); return 0;
    default: return -1;
    }
}

/* Keep a copy of v in ag->best (text and bytes into ag's buffers). */
static int keep_value(sql_cursor *c, agg_state *ag, const sv *v)
{
    ag->best = *v;
    ag->have = true;
    if (v->k == K_TEXT) {
        if (grow((void **)&ag->buf, &ag->cap, v->n + 1, sizeof *ag->buf) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        if (v->n)
            memcpy(ag->buf, v->s, v->n * 2);
        ag->best.s = ag->buf;
    } else if (v->k == K_BIN || v->k == K_GUID) {
        if (grow((void **)&ag->bbuf, &ag->bcap, v->len + 1, 1) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        if (v->len)
            memcpy(ag->bbuf, v->p, v->len);
        ag->best.p = ag->bbuf;
    }
    return 0;
}

/* A copy of v whose text/bytes live in c's record memory. */
static int copy_sv(sql_cursor *c, const sv *v, sv *out)
{
    *out = *v;
    if (v->k == K_TEXT && v->n) {
        uint16_t *s = sql_chunk_alloc(&c->recmem, v->n * 2);
        if (!s)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(s, v->s, v->n * 2);
        out->s = s;
        c->recbytes += v->n * 2;
    } else if ((v->k == K_BIN || v->k == K_GUID) && v->len) {
        uint8_t *p = sql_chunk_alloc(&c->recmem, v->len);
        if (!p)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(p, v->p, v->len);
        out->p = p;
        c->recbytes += v->len;
    }
    return 0;
}

int sql_agg_update(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (size_t i = 0; i < st->naggs; i++) {
        const enode *e = st->aggs[i];
        agg_state *ag = &c->aggs[e->slot];
        if (e->sub == A_COUNT_STAR) {
            ag->count++;
            continue;
        }
        sv v;
        if (sql_eval(c, e->args[0], &v) != 0)
            return -1;
        if (v.k == K_NULL)
            continue;
        ag->count++;
        double d;
        switch (e->sub) {
        case A_COUNT:
            if (e->distinct_arg) {
                if (ag->ndvals == ag->dcap &&
                    grow((void **)&ag->dvals, &ag->dcap, ag->ndvals + 1,
                         sizeof *ag->dvals) != 0)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                if (copy_sv(c, &v, &ag->dvals[ag->ndvals]) != 0)
                    return -1;
                ag->ndvals++;
                ag->have = false;   /* not de-duplicated yet */
            }
            break;
        case A_SUM: case A_AVG:
            if (e->k == K_INT) {
                ag->wide = i128_add(ag->wide, i128_of(v.k == K_BOOL ? -v.i : v.i));
            } else if (e->k == K_MONEY) {
                ag->wide = i128_add(ag->wide, i128_of(v.i));
            } else if (e->k == K_DEC && v.k != K_DOUBLE && v.k != K_TEXT) {
                /* exact Decimal sum (func_dec.c) */
                if (ag->count == 1)
                    sql_dec_set(&ag->dec, i128_of(0), 0);
                if (sql_dec_arith(&ag->dec, '+', &ag->dec, &v) != 0)
                    return overflow(c, e);
            } else {
                if (as_double(&v, &d) != 0)
                    return mismatch(c, e);
                ag->dsum += d;
            }
            if (u128_cmp(i128_mag(ag->wide), u128_make(1ull << 36, 0)) > 0)
                return overflow(c, e);
            break;
        case A_STDEV: case A_STDEVP: case A_VAR: case A_VARP: {
            if (as_double(&v, &d) != 0)
                return mismatch(c, e);
            double delta = d - ag->mean;
            ag->mean += delta / (double)ag->count;
            ag->m2 += delta * (d - ag->mean);
            break;
        }
        case A_FIRST:
            if (!ag->have && keep_value(c, ag, &v) != 0)
                return -1;
            break;
        case A_LAST:
            if (keep_value(c, ag, &v) != 0)
                return -1;
            break;
        default: {
            int r = 0;
            if (ag->have) {
                if (sql_sv_cmp(&v, &ag->best, &r) != 0)
                    return mismatch(c, e);
                if (e->sub == A_MIN ? r >= 0 : r <= 0)
                    break;
            }
            if (keep_value(c, ag, &v) != 0)
                return -1;
            break;
        }
        }
    }
    return 0;
}

static int sv_qcmp(const void *a, const void *b)
{
    return sql_key_cmp(a, b);
}

int sql_agg_value(sql_cursor *c, const enode *e, sv *out)
{
    agg_state *ag = &c->aggs[e->slot];
    memset(out, 0, sizeof *out);
    switch (e->sub) {
    case A_COUNT_STAR: case A_COUNT:
        if (e->distinct_arg) {
            if (!ag->have) {
                /* sort once, keep the distinct values */
                if (ag->ndvals > 1)
                    qsort(ag->dvals, ag->ndvals, sizeof *ag->dvals, sv_qcmp);
                size_t m = 0;
                for (size_t i = 0; i < ag->ndvals; i++)
                    if (!m || sql_key_cmp(&ag->dvals[m - 1],
                                          &ag->dvals[i]) != 0)
                        ag->dvals[m++] = ag->dvals[i];
                ag->ndvals = m;
                ag->have = true;
            }
            out->k = K_INT;
            out->i = (int64_t)ag->ndvals;
            return 0;
        }
        out->k = K_INT;
        out->i = ag->count;
        return 0;
    case A_MIN: case A_MAX: case A_FIRST: case A_LAST:
        if (ag->have)
            *out = ag->best;
        return 0;
    case A_STDEV: case A_VAR:
        if (ag->count < 2)
            return 0;
        out->k = K_DOUBLE;
        out->d = ag->m2 / (double)(ag->count - 1);
        if (e->sub == A_STDEV)
            out->d = sqrt(out->d);
        return 0;
    case A_STDEVP: case A_VARP:
        if (ag->count < 1)
            return 0;
        out->k = K_DOUBLE;
        out->d = ag->m2 / (double)ag->count;
        if (e->sub == A_STDEVP)
            out->d = sqrt(out->d);
        return 0;
    case A_SUM: case A_AVG:
        if (ag->count == 0)
            return 0;
        if (e->k == K_DEC) {
            /* exact: the Decimal sum, AVG divided at Decimal scale */
            if (e->sub == A_SUM) {
                *out = ag->dec;
                return 0;
            }
            sv cnt;
            memset(&cnt, 0, sizeof cnt);
            cnt.k = K_INT;
            cnt.i = ag->count;
            if (sql_dec_arith(out, '/', &ag->dec, &cnt) != 0)
                return overflow(c, e);
            return 0;
        }
        if (e->k == K_INT) {
            if (e->type == JET_T_LONG &&
                (!i128_fits_i64(ag->wide) || i128_to_i64(ag->wide) > INT32_MAX ||
                 i128_to_i64(ag->wide) < INT32_MIN))
                return overflow(c, e);
            if (!i128_fits_i64(ag->wide))
                return overflow(c, e);
            out->k = K_INT;
            out->i = i128_to_i64(ag->wide);
            return 0;
        }
        if (e->k == K_MONEY) {
            jet_i128 s = ag->wide, rem;
            if (e->sub == A_AVG) {
                jet_i128 q = i128_divmod(s, i128_of((int64_t)ag->count), &rem);
                int c2 = u128_cmp(u128_shl(i128_mag(rem), 1),
                                  u128_of((uint64_t)ag->count));
                if (c2 > 0 || (c2 == 0 && (u128_lo64(u128_from_i128(q)) & 1)))
                    q = i128_add(q, i128_of(i128_sign(s) < 0 ? -1 : 1));
                s = q;
            }
            if (!i128_fits_i64(s))
                return overflow(c, e);
            out->k = K_MONEY;
            out->i = i128_to_i64(s);
            return 0;
        }
        out->k = K_DOUBLE;
        out->d = e->sub == A_AVG ? ag->dsum / (double)ag->count : ag->dsum;
        if (!isfinite(out->d))
            return overflow(c, e);      /* past Double's range: error 6 */
        return 0;
    default:
        return 0;
    }
}

/* A new group with copies of the keys k[0..n). */
static agg_group *new_group(sql_cursor *c, const sv *k, size_t n, uint64_t h)
{
    const sql_stmt *st = c->st;
    size_t bytes = sizeof(agg_group) + (n ? n : 1) * sizeof(sv);
    agg_group *g = sql_chunk_alloc(&c->recmem, bytes);
    if (!g) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    memset(g, 0, bytes);
    g->keys = (sv *)(void *)(g + 1);
    g->hash = h;
    g->aggs = calloc(st->naggs ? st->naggs : 1, sizeof *g->aggs);
    if (!g->aggs) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    if (c->ngroups == c->gcap &&
        grow((void **)&c->gorder, &c->gcap, c->ngroups + 1,
             sizeof *c->gorder) != 0) {
        free(g->aggs);
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    c->gorder[c->ngroups++] = g;
    for (size_t i = 0; i < n; i++)
        if (copy_sv(c, &k[i], &g->keys[i]) != 0)
            return NULL;
    c->recbytes += bytes + st->naggs * sizeof(agg_state);
    return g;
}

/* Double the bucket array and re-chain every group. */
static int rehash(sql_cursor *c)
{
    size_t nb = c->ngbuckets ? c->ngbuckets * 2 : 64;
    agg_group **b = calloc(nb, sizeof *b);
    if (!b)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (size_t i = 0; i < c->ngroups; i++) {
        agg_group *g = c->gorder[i];
        size_t k = (size_t)(g->hash & (nb - 1));
        g->next = b[k];
        b[k] = g;
    }
    free(c->gbuckets);
    c->gbuckets = b;
    c->ngbuckets = nb;
    return 0;
}

int sql_group_build(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t nk = st->ngroup;
    sv *k = c->ktmp;
    if (nk == 0) {
        agg_group *g = new_group(c, NULL, 0, 0);
        if (!g)
            return -1;
        c->aggs = g->aggs;
    } else if (rehash(c) != 0) {
        return -1;
    }
    if (st->count_tdef) {
        /* COUNT(*) from the TDEF (plan.c count_from_tdef): no page read */
        for (size_t i = 0; i < st->naggs && !c->src_done; i++)
            c->aggs[st->aggs[i]->slot].count = st->tabs[0].td->row_count;
        return 0;
    }
    for (;;) {
        int rc = c->src_done ? JET_DONE : sql_join_next(c);
        if (rc == JET_DONE)
            break;
        if (rc < 0)
            return -1;
        if (nk) {
            uint64_t h = 1469598103934665603ull;
            for (size_t i = 0; i < nk; i++) {
                if (sql_eval(c, st->group[i], &k[i]) != 0)
                    return -1;
                h = (h ^ (k[i].k == K_NULL ? 0x9e3779b9u
                          : sql_sv_hash(&k[i]))) * 1099511628211ull;
                h ^= h >> 29;
            }
            agg_group *g = c->gbuckets[h & (c->ngbuckets - 1)];
            for (; g; g = g->next) {
                if (g->hash != h)
                    continue;
                size_t i = 0;
                while (i < nk && sql_key_cmp(&g->keys[i], &k[i]) == 0)
                    i++;
                if (i == nk)
                    break;
            }
            if (!g) {
                if (c->recbytes > sql_mem_budget(c))
                    return sql_mem_exceeded(c, "grouping");
                if (!(g = new_group(c, k, nk, h)))
                    return -1;
                size_t b = (size_t)(h & (c->ngbuckets - 1));
                g->next = c->gbuckets[b];
                c->gbuckets[b] = g;
                if (c->ngroups > c->ngbuckets && rehash(c) != 0)
                    return -1;
            }
            c->aggs = g->aggs;
        }
        if (sql_agg_update(c) != 0)
            return -1;
    }
    return 0;
}

void sql_group_free(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (size_t i = 0; i < c->ngroups; i++) {
        agg_state *a = c->gorder[i]->aggs;
        for (size_t j = 0; j < st->naggs; j++) {
            free(a[j].buf);
            free(a[j].bbuf);
            free(a[j].dvals);
        }
        free(a);
    }
    free(c->gorder);
    free(c->gbuckets);
    c->gorder = NULL;
    c->gbuckets = NULL;
    c->ngroups = c->gcap = c->ngbuckets = 0;
    c->aggs = NULL;
}
