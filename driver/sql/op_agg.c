/*
 * op_agg.c - the aggregate operator: GROUP BY and aggregate functions.
 *
 * sql_group_build pulls every joined row (sql_join_next, conditions
 * applied), computes its GROUP BY values, finds its group in a hash table
 * (open addressing with the hash in each slot, doubled at 3/4 full; keys
 * equal as sort keys are, NULLs forming one group: identical encoded keys
 * are one group at once, others hashing alike are compared as values)
 * and updates that group's aggregate states. A
 * block with aggregates but no GROUP BY has exactly one group, also over
 * no rows. Groups keep their creation order (c->gorder); exec.c then
 * evaluates HAVING and the select list per group (N_GKEY reads the
 * group's key, N_AGG its aggregate) into records, sorted as any query.
 * GROUP BY (or DISTINCT) of one stored Text column of one scanned table
 * finds groups by the key's binary sort-key segment made from the cell's
 * bytes (text_groups), the same groups in the same order; ordered by
 * that column alone they are then sorted by those segments
 * (sql_group_sort) and given without records (exec.c sorted_groups).
 *
 * Aggregate results (types fixed at prepare, see engine.h): COUNT ->
 * LONG; SUM/AVG exact for integers and MONEY; StDev/StDevP/Var/VarP by
 * Welford's update in double (NULL for StDev/Var of fewer than 2 values,
 * as Access); First/Last the first/last non-NULL value read; COUNT
 * (DISTINCT x) keeps copies of the values and counts the distinct ones.
 *
 * Memory: a group (header, aggregate states, then its GROUP BY values
 * encoded as in the temporary file, sql_spill_put_sv) is one piece of the
 * group arena c->gmem, so a probe touches one place; agg_state overlaps
 * the fields one kind does not use, and MIN/MAX of a number or date
 * column keep only the value (agg_compact). The current group's values
 * are decoded for the select list (c->gkeys). Text kept by
 * MIN/MAX/First/Last is counted in c->gheap. When
 * a new group would take the cursor past its budget (sql_mem_held >
 * sql_mem_budget), the groups made so far stay in memory and keep taking
 * their rows, and each row of a key not in memory is written (sequence
 * number, GROUP BY values, aggregate arguments, all evaluated) to one of
 * 16 partitions of the temporary file chosen by 4 bits of the key's hash
 * (hybrid hash aggregation). Every row of such a key is written after its
 * group would have been made, to the same partition, in reading order, so
 * First/Last and all other results equal the in-memory ones. After the
 * input, the in-memory groups are given out, then each partition is
 * aggregated the same way (its own overflow into 16 partitions of the
 * next 4 hash bits), up to 15 levels. A group's seq (its first row) lets
 * an ORDER BY break ties as without a spill.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"
#include "sort.h"
#include "spill.h"
#include "values.h"
#include "write.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Aggregate state of slot in the state block base (c->agg_off: each
 * kind gets only the bytes it uses, see agg_layout). */
static inline agg_state *state_at(const sql_cursor *c, agg_state *base,
                                  size_t slot)
{
    return (agg_state *)(void *)((char *)base + c->agg_off[slot]);
}

/* The state of a compact MIN/MAX (agg_compact): the best value's kind
 * and fields, 32 bytes instead of an agg_state's 144. */
typedef struct agg_num {
    int64_t count;
    bool have;
    uint8_t k;
    int64_t i;
    double d;
} agg_num;

/* Group g's aggregate states (after its encoded GROUP BY values,
 * sql_grp_kb). */
static inline agg_state *grp_aggs(agg_group *g)
{
    size_t off = (sizeof *g + (size_t)g->kblen + 15) & ~(size_t)15;
    return (agg_state *)(void *)((char *)g + off);
}

/* Whether aggregate e is a MIN or MAX over a column whose values are
 * numbers or dates (a column's values have its static kind or are
 * NULL): its state is an agg_num, not a whole agg_state. */
static inline bool agg_compact(const enode *e)
{
    if (e->sub != A_MIN && e->sub != A_MAX)
        return false;
    const enode *a = e->args[0];
    return a->op == N_COL && (a->k == K_INT || a->k == K_MONEY ||
                              a->k == K_DOUBLE || a->k == K_DATE ||
                              a->k == K_BOOL);
}

/* Bytes of agg_state aggregate e uses, a multiple of 16: every state,
 * even a COUNT's lone int64_t, is reached through an agg_state pointer,
 * and agg_state's 128-bit member gives that type 16-byte alignment
 * (UBSan: a COUNT state at an 8-byte offset is a misaligned access). */
static size_t state_bytes(const enode *e)
{
    if (e->sub == A_COUNT_STAR || (e->sub == A_COUNT && !e->distinct_arg))
        return 16;
    if (agg_compact(e))
        return (sizeof(agg_num) + 15) & ~(size_t)15;
    if (e->sub == A_STDEV || e->sub == A_STDEVP || e->sub == A_VAR ||
        e->sub == A_VARP)
        return (offsetof(agg_state, m2) + sizeof(double) + 15) & ~(size_t)15;
    return sizeof(agg_state);
}

/* Offsets of the slots' states in a group's block (c->agg_off) and the
 * block's size (c->agg_bytes). 0 or -1. */
static int agg_layout(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    if (c->agg_off)
        return 0;
    if (!c->gkeys &&
        !(c->gkeys = calloc(st->ngroup ? st->ngroup : 1, sizeof *c->gkeys)))
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->agg_off = calloc(st->naggs ? st->naggs : 1, sizeof *c->agg_off);
    if (!c->agg_off)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    /* each state's size is a multiple of its 16-byte alignment */
    size_t off = 0;
    for (size_t i = 0; i < st->naggs; i++) {
        const enode *e = st->aggs[i];
        c->agg_off[e->slot] = off;
        off += state_bytes(e);
    }
    c->agg_bytes = off ? off : 16;
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
    sv t;
    if (v->k == K_TEXT) {
        if (sql_text_to_number(v->s, v->n, &t) != 0)
            return -1;
        v = &t;
    }
    switch (v->k) {
    case K_INT: *out = (double)v->i; return 0;
    case K_BOOL: *out = v->i ? -1.0 : 0.0; return 0;
    case K_MONEY: *out = (double)v->i / 10000.0; return 0;
    case K_DOUBLE: case K_DATE: *out = v->d; return 0;
    case K_DEC: *out = sql_dec_to_double(v); return 0;
    default: return -1;
    }
}

/* Keep a copy of v in ag->best (text and bytes into ag's buffers). */
static int keep_value(sql_cursor *c, agg_state *ag, const sv *v)
{
    ag->best = *v;
    ag->have = true;
    if (v->k == K_TEXT) {
        size_t was = ag->cap;
        if (sql_grow((void **)&ag->buf, &ag->cap, v->n + 1, sizeof *ag->buf)
            != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        c->gheap += (ag->cap - was) * sizeof *ag->buf;
        if (v->n)
            memcpy(ag->buf, v->s, v->n * 2);
        ag->best.s = ag->buf;
    } else if (v->k == K_BIN || v->k == K_GUID) {
        size_t was = ag->bcap;
        if (sql_grow((void **)&ag->bbuf, &ag->bcap, v->len + 1, 1) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        c->gheap += ag->bcap - was;
        if (v->len)
            memcpy(ag->bbuf, v->p, v->len);
        ag->best.p = ag->bbuf;
    }
    return 0;
}

/* A copy of v whose text/bytes live in the group arena. */
static int copy_sv(sql_cursor *c, const sv *v, sv *out)
{
    *out = *v;
    if (v->k == K_TEXT && v->n) {
        uint16_t *s = sql_mem_alloc(&c->gmem, v->n * 2);
        if (!s)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(s, v->s, v->n * 2);
        out->s = s;
    } else if ((v->k == K_BIN || v->k == K_GUID) && v->len) {
        uint8_t *p = sql_mem_alloc(&c->gmem, v->len);
        if (!p)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(p, v->p, v->len);
        out->p = p;
    }
    return 0;
}

/* Add value v (not NULL) to aggregate e's state ag. */
static int update_one(sql_cursor *c, const enode *e, agg_state *ag,
                      const sv *v)
{
    ag->count++;
    double d;
    switch (e->sub) {
    case A_COUNT:
        if (e->distinct_arg) {
            size_t was = ag->dcap;
            if (ag->ndvals == ag->dcap &&
                sql_grow((void **)&ag->dvals, &ag->dcap, ag->ndvals + 1,
                         sizeof *ag->dvals) != 0)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            c->gheap += (ag->dcap - was) * sizeof *ag->dvals;
            if (copy_sv(c, v, &ag->dvals[ag->ndvals]) != 0)
                return -1;
            ag->ndvals++;
            ag->have = false;   /* not de-duplicated yet */
        }
        break;
    case A_SUM: case A_AVG:
        if (e->k == K_INT) {
            ag->wide = i128_add(ag->wide,
                                i128_of(v->k == K_BOOL ? -v->i : v->i));
        } else if (e->k == K_MONEY) {
            ag->wide = i128_add(ag->wide, i128_of(v->i));
        } else if (e->k == K_DEC && v->k != K_DOUBLE && v->k != K_TEXT) {
            /* exact Decimal sum (func_dec.c) */
            if (ag->count == 1)
                sql_dec_set(&ag->dec, i128_of(0), 0);
            if (sql_dec_arith(&ag->dec, '+', &ag->dec, v) != 0)
                return overflow(c, e);
        } else {
            if (as_double(v, &d) != 0)
                return mismatch(c, e);
            ag->dsum += d;
        }
        if ((e->k == K_INT || e->k == K_MONEY) &&
            u128_cmp(i128_mag(ag->wide), u128_make(1ull << 36, 0)) > 0)
            return overflow(c, e);
        break;
    case A_STDEV: case A_STDEVP: case A_VAR: case A_VARP: {
        if (as_double(v, &d) != 0)
            return mismatch(c, e);
        /* Welford on d / 2^scale (scale kept in dsum): 1e308 and -1e308
         * overflowed delta to an infinity (Var -inf, StDev NaN) although
         * StDev is finite; values beyond 2^400 raise the scale so that
         * delta * delta never overflows, a tiny first value lowers it */
        if (!isfinite(d))
            return overflow(c, e);
        if (ag->count == 1 && d != 0)   /* tiny values: scale them up */
            ag->dsum = ilogb(d) < -256 ? (double)(ilogb(d) / 256 * 256) : 0;
        double x = ldexp(d, -(int)ag->dsum);
        while (fabs(x) > 0x1p400) {
            ag->dsum += 256;
            ag->mean = ldexp(ag->mean, -256);
            ag->m2 = ldexp(ag->m2, -512);
            x = ldexp(d, -(int)ag->dsum);
        }
        double delta = x - ag->mean;
        ag->mean += delta / (double)ag->count;
        ag->m2 += delta * (x - ag->mean);
        break;
    }
    case A_FIRST:
        if (!ag->have && keep_value(c, ag, v) != 0)
            return -1;
        break;
    case A_LAST:
        if (keep_value(c, ag, v) != 0)
            return -1;
        break;
    default: {
        int r = 0;
        if (ag->have && v->k == ag->best.k &&
            (v->k == K_INT || v->k == K_MONEY)) {
            /* the common case without the general comparison */
            if (e->sub == A_MIN ? v->i >= ag->best.i : v->i <= ag->best.i)
                break;
        } else if (ag->have) {
            if (sql_sv_cmp(c->text_order, v, &ag->best, &r) != 0)
                return mismatch(c, e);
            if (e->sub == A_MIN ? r >= 0 : r <= 0)
                break;
        }
        if (keep_value(c, ag, v) != 0)
            return -1;
        break;
    }
    }
    return 0;
}

/* Add value v (not NULL) to the compact MIN/MAX state ag (agg_compact):
 * as update_one would keep it in ag->best. */
static int update_compact(sql_cursor *c, const enode *e, agg_state *state,
                          const sv *v)
{
    agg_num *ag = (agg_num *)(void *)state;
    if (v->k == K_TEXT || v->k == K_BIN || v->k == K_GUID ||
        v->k == K_DEC || v->has_dec || v->has_units)
        return mismatch(c, e);      /* not a column's number: never */
    ag->count++;
    if (ag->have) {
        int r;
        if (v->k == ag->k && (v->k == K_INT || v->k == K_MONEY)) {
            r = v->i < ag->i ? -1 : v->i > ag->i;
        } else {
            sv b;
            memset(&b, 0, sizeof b);
            b.k = ag->k;
            b.i = ag->i;
            b.d = ag->d;
            if (sql_sv_cmp(c->text_order, v, &b, &r) != 0)
                return mismatch(c, e);
        }
        if (e->sub == A_MIN ? r >= 0 : r <= 0)
            return 0;
    }
    ag->have = true;
    ag->k = v->k;
    ag->i = v->i;
    ag->d = v->d;
    return 0;
}

/* Add value v (not NULL) to the state of aggregate e. */
static inline int update_agg(sql_cursor *c, const enode *e, agg_state *ag,
                             const sv *v)
{
    return agg_compact(e) ? update_compact(c, e, ag, v)
                          : update_one(c, e, ag, v);
}

int sql_agg_update(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (size_t i = 0; i < st->naggs; i++) {
        const enode *e = st->aggs[i];
        agg_state *ag = state_at(c, c->aggs, e->slot);
        if (e->sub == A_COUNT_STAR) {
            ag->count++;
            continue;
        }
        sv v;
        if (sql_eval_leaf(c, e->args[0], &v) != 0)
            return -1;
        if (v.k != K_NULL && update_agg(c, e, ag, &v) != 0)
            return -1;
    }
    return 0;
}

int sql_agg_value(sql_cursor *c, const enode *e, sv *out)
{
    agg_state *ag = state_at(c, c->aggs, e->slot);
    memset(out, 0, sizeof *out);
    switch (e->sub) {
    case A_COUNT_STAR: case A_COUNT:
        if (e->distinct_arg) {
            if (!ag->have) {
                /* sort once, keep the distinct values */
                if (ag->ndvals > 1)
                    sql_sv_sort(ag->dvals, ag->ndvals, c->text_order);
                size_t m = 0;
                for (size_t i = 0; i < ag->ndvals; i++)
                    if (!m || sql_key_cmp(c->text_order, &ag->dvals[m - 1],
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
        if (agg_compact(e)) {
            const agg_num *an = (const agg_num *)(const void *)ag;
            if (an->have) {
                out->k = an->k;
                out->i = an->i;
                out->d = an->d;
                /* a Single column's best value shows as a Single */
                out->single = an->k == K_DOUBLE &&
                              e->args[0]->type == JET_T_FLOAT;
            }
        } else if (ag->have) {
            *out = ag->best;
        }
        return 0;
    case A_STDEV: case A_VAR: case A_STDEVP: case A_VARP: {
        /* Var/StDev need 2 values (Null otherwise), VarP/StDevP 1; a
         * result beyond a Double is VBA's Overflow (22003), never an
         * infinity (README) */
        bool sample = e->sub == A_STDEV || e->sub == A_VAR;
        if (ag->count < (sample ? 2 : 1))
            return 0;
        double var = ag->m2 / (double)(ag->count - (sample ? 1 : 0));
        if (var < 0)
            var = 0;            /* rounding of equal values */
        int scale = (int)ag->dsum;
        out->k = K_DOUBLE;
        out->d = e->sub == A_STDEV || e->sub == A_STDEVP
                 ? ldexp(sqrt(var), scale) : ldexp(var, 2 * scale);
        if (!isfinite(out->d))
            return overflow(c, e);
        return 0;
    }
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

/* ------------------------------------------------------------ groups */

#define PART_BITS 4
#define PART_FANOUT (1u << PART_BITS)
#define PART_MAX_LEVEL (64 / PART_BITS - 1)
/* groups a (sub)partition always keeps in memory, whatever else holds
 * the budget (join rows, records), so every level makes progress */
#define MIN_GROUPS 256

/* A new group for the encoded key kb[0..kblen) (copied), made by input
 * row seq. */
static agg_group *new_group(sql_cursor *c, const uint8_t *kb, size_t kblen,
                            uint64_t seq)
{
    size_t head = (sizeof(agg_group) + kblen + 15) & ~(size_t)15;
    agg_group *g = kblen <= UINT32_MAX / 2
                   ? sql_mem_alloc(&c->gmem, head + c->agg_bytes) : NULL;
    if (!g) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    g->seq = seq;
    g->kblen = (uint32_t)kblen;
    g->kboff = 0;
    if (kblen)
        memcpy(g + 1, kb, kblen);
    memset((char *)g + head, 0, c->agg_bytes);
    if (c->ngroups == c->gcap &&
        sql_grow((void **)&c->gorder, &c->gcap, c->ngroups + 1,
                 sizeof *c->gorder) != 0) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    c->gorder[c->ngroups++] = g;
    return g;
}

/* Double the hash table (first: 1024 slots) and re-insert every group. */
static int rehash(sql_cursor *c)
{
    size_t nb = c->ngslots ? c->ngslots * 2 : 1024;
    agg_slot *b = calloc(nb, sizeof *b);
    if (!b)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (size_t i = 0; i < c->ngslots; i++) {
        const agg_slot *o = &c->gslots[i];
        if (!o->g)
            continue;
        size_t k = (size_t)(o->hash & (nb - 1));
        while (b[k].g)
            k = (k + 1) & (nb - 1);
        b[k] = *o;
    }
    free(c->gslots);
    c->gslots = b;
    c->ngslots = nb;
    return 0;
}

/* Free what the groups' states malloc'd, then forget the groups (the
 * arena keeps one block, the hash table its size). */
static void drop_groups(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    bool heap = false;
    for (size_t j = 0; j < st->naggs; j++) {
        const enode *e = st->aggs[j];
        heap |= ((e->sub == A_MIN || e->sub == A_MAX) && !agg_compact(e)) ||
                e->sub == A_FIRST || e->sub == A_LAST ||
                (e->sub == A_COUNT && e->distinct_arg);
    }
    for (size_t i = 0; heap && i < c->ngroups; i++) {
        agg_state *a = grp_aggs(c->gorder[i]);
        for (size_t j = 0; j < st->naggs; j++) {
            const enode *e = st->aggs[j];
            agg_state *ag = state_at(c, a, e->slot);
            if (e->sub == A_COUNT) {
                if (e->distinct_arg)
                    free(ag->dvals);
            } else if (((e->sub == A_MIN || e->sub == A_MAX) &&
                        !agg_compact(e)) ||
                       e->sub == A_FIRST || e->sub == A_LAST) {
                free(ag->buf);
                free(ag->bbuf);
            }
        }
    }
    c->ngroups = 0;
    c->gnext = 0;
    c->gheap = 0;
    c->grp = NULL;
    c->aggs = NULL;
    sql_mem_reset(&c->gmem);
    if (c->gslots)
        memset(c->gslots, 0, c->ngslots * sizeof *c->gslots);
}

/* Hash of GROUP BY values k[0..nk) (equal keys, equal hashes). */
static uint64_t key_hash(const sv *k, size_t nk)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < nk; i++) {
        h = (h ^ (k[i].k == K_NULL ? 0x9e3779b9u
                  : sql_sv_hash(&k[i]))) * 1099511628211ull;
        h ^= h >> 29;
    }
    /* spread the high bits too: they choose partitions */
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return h;
}

/* Whether two GROUP BY values are one group (sql_key_cmp == 0), with
 * the common cases first: equal integers, identical text. */
static bool key_equal(jet_collation co, const sv *a, const sv *b)
{
    if (a->k == b->k) {
        switch (a->k) {
        case K_NULL:
            return true;
        case K_INT: case K_MONEY: case K_BOOL:
            return a->i == b->i;
        case K_TEXT:
            if (a->n == b->n && (!a->n || !memcmp(a->s, b->s, a->n * 2)))
                return true;
            break;
        default:
            break;
        }
    }
    return sql_key_cmp(co, a, b) == 0;
}

/* Encode the GROUP BY values k[0..nk) into c->gkb. 0 or -1. */
static int encode_key(sql_cursor *c, const sv *k, size_t nk)
{
    c->gkb.len = 0;
    for (size_t i = 0; i < nk; i++)
        if (sql_spill_put_sv(&c->gkb, &k[i]) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    return 0;
}

/* Decode group g's GROUP BY values into c->gkeys (text pointing into the
 * group). 0, or -1 when the bytes are damaged (never: written by
 * encode_key). */
static int decode_key(sql_cursor *c, const agg_group *g)
{
    const uint8_t *p = sql_grp_kb(g) + g->kboff;
    const uint8_t *end = sql_grp_kb(g) + g->kblen;
    for (size_t i = 0; i < c->st->ngroup; i++)
        if (sql_spill_get_sv(&p, end, &c->gkeys[i]) != 0)
            return sql_spill_failed(c, "grouping");
    return 0;
}

/* The group of the row whose GROUP BY values are k[0..nk), encoded in
 * kb[0..kblen) (encode_key), hash h, into *out; NULL when there is none, with *slot the
 * free slot for it. Identical encodings are one group; otherwise (text
 * differing in case, 1 and 1.0, ...) the values decide. 0 or -1. */
static int find_group(sql_cursor *c, const sv *k, size_t nk,
                      const uint8_t *kb, size_t kblen, uint64_t h,
                      agg_group **out, size_t *slot)
{
    size_t mask = c->ngslots - 1, i = (size_t)(h & mask);
    for (;; i = (i + 1) & mask) {
        const agg_slot *s = &c->gslots[i];
        agg_group *g = s->g;
        if (!g) {
            *slot = i;
            *out = NULL;
            return 0;
        }
        if (s->hash != h)
            continue;
        if (g->kblen == kblen && !memcmp(sql_grp_kb(g), kb, kblen)) {
            *out = g;
            return 0;
        }
        if (decode_key(c, g) != 0)
            return -1;
        size_t j = 0;
        while (j < nk && key_equal(c->text_order, &c->gkeys[j], &k[j]))
            j++;
        if (j == nk) {
            *out = g;
            return 0;
        }
    }
}

/* Make a group for the encoded key kb[0..kblen) (hash h, first row seq)
 * in the free slot find_group gave. */
static agg_group *add_group(sql_cursor *c, const uint8_t *kb, size_t kblen,
                            uint64_t h, uint64_t seq, size_t slot)
{
    agg_group *g = new_group(c, kb, kblen, seq);
    if (!g)
        return NULL;
    c->gslots[slot].hash = h;
    c->gslots[slot].g = g;
    /* at most 3/4 full, so probes stay short */
    if (c->ngroups > c->ngslots / 4 * 3 && rehash(c) != 0)
        return NULL;
    return g;
}

/* ------------------------------------------------------- partitions */

typedef struct gpart {
    sql_spill_stream s;
    unsigned level;             /* hash bits used: PART_BITS * (level+1) */
} gpart;

struct agg_spill {
    gpart *out[PART_FANOUT];    /* partitions being written, or none */
    unsigned out_level;
    gpart **todo;               /* written, to aggregate (oldest first) */
    size_t ntodo, todocap;
    sql_wbuf row;               /* one encoded row */
    sv *args;                   /* decoded aggregate arguments */
    sql_spill_reader rd;
    gpart *reading;
};

static int need_spill(sql_cursor *c)
{
    if (c->gsp)
        return 0;
    c->gsp = calloc(1, sizeof *c->gsp);
    const sql_stmt *st = c->st;
    if (!c->gsp || !(c->gsp->args = calloc(st->naggs ? st->naggs : 1,
                                            sizeof *c->gsp->args)))
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    return 0;
}

/* Start writing partitions of the given level. */
static int open_parts(sql_cursor *c, unsigned level)
{
    if (level > PART_MAX_LEVEL)
        return sql_mem_exceeded(c, "grouping (keys too alike to split "
                                "further)");
    if (!sql_cursor_spill(c, "grouping"))
        return -1;
    struct agg_spill *sp = c->gsp;
    for (unsigned i = 0; i < PART_FANOUT; i++) {
        sp->out[i] = calloc(1, sizeof *sp->out[i]);
        if (!sp->out[i])
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        sp->out[i]->level = level;
    }
    sp->out_level = level;
    return 0;
}

/* Flush the partitions being written and queue the non-empty ones. */
static int close_parts(sql_cursor *c)
{
    struct agg_spill *sp = c->gsp;
    if (!sp)
        return 0;
    for (unsigned i = 0; i < PART_FANOUT; i++) {
        gpart *p = sp->out[i];
        if (!p)
            continue;
        sp->out[i] = NULL;
        if (sql_spill_stream_flush(c->spill, &p->s) != 0) {
            sql_spill_stream_free(&p->s);
            free(p);
            return sql_spill_failed(c, "grouping");
        }
        if (!p->s.rows) {
            sql_spill_stream_free(&p->s);
            free(p);
            continue;
        }
        if (sp->ntodo == sp->todocap &&
            sql_grow((void **)&sp->todo, &sp->todocap, sp->ntodo + 1,
                     sizeof *sp->todo) != 0) {
            sql_spill_stream_free(&p->s);
            free(p);
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        }
        sp->todo[sp->ntodo++] = p;
    }
    return 0;
}

static int part_put(sql_cursor *c, uint64_t h, const void *row, size_t len)
{
    struct agg_spill *sp = c->gsp;
    unsigned shift = 64 - PART_BITS * (sp->out_level + 1);
    gpart *p = sp->out[(h >> shift) & (PART_FANOUT - 1)];
    if (sql_spill_stream_put(c->spill, &p->s, row, len) != 0)
        return sql_spill_failed(c, "grouping");
    return 0;
}

/* Encode the current input row (seq, its GROUP BY values as encoded in
 * c->gkb, the arguments of the aggregates evaluated) into sp->row and
 * write it to its partition. */
static int spill_input_row(sql_cursor *c, uint64_t h, uint64_t seq)
{
    const sql_stmt *st = c->st;
    sql_wbuf *b = &c->gsp->row;
    b->len = 0;
    int rc = sql_wbuf_put(b, NULL, 8) | sql_wbuf_put(b, &seq, 8) |
             sql_wbuf_put(b, c->gkb.p, c->gkb.len);
    for (size_t i = 0; i < st->naggs && !rc; i++) {
        const enode *e = st->aggs[i];
        if (e->sub == A_COUNT_STAR)
            continue;
        sv v;
        if (sql_eval(c, e->args[0], &v) != 0)
            return -1;
        rc = sql_spill_put_sv(b, &v);
    }
    if (rc || b->len > UINT32_MAX / 2)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    uint32_t n = (uint32_t)b->len;
    memcpy(b->p, &n, 4);
    return part_put(c, h, b->p, b->len);
}

/* Whether a new group may be made in memory now: within the budget, or
 * half of it when records (ORDER BY, DISTINCT) follow the groups. */
static bool room_for_group(sql_cursor *c)
{
    size_t b = sql_mem_budget(c);
    /* once keys go to partitions no new group is made in this pass, even
     * if memory came back (a grace hash join below frees its partitions'
     * rows): the partition already holds rows of a key not in memory */
    if (c->gsp && c->gsp->out[0])
        return false;
    return c->ngroups < MIN_GROUPS ||
           sql_mem_held(c) <= (c->grp_stream ? b : b / 2);
}

/* Aggregate partition p (rows in reading order): groups in memory, keys
 * past the budget into partitions of the next level. */
static int aggregate_part(sql_cursor *c, gpart *p)
{
    const sql_stmt *st = c->st;
    struct agg_spill *sp = c->gsp;
    size_t nk = st->ngroup;
    sv *k = c->ktmp;
    sql_spill_reader_init(&sp->rd, &p->s);
    for (;;) {
        const uint8_t *row;
        size_t len;
        if (sql_tick(c) != 0)
            return -1;
        int rc = sql_spill_reader_next(c->spill, &sp->rd, &row, &len);
        if (rc == JET_DONE)
            break;
        if (rc != 0)
            return sql_spill_failed(c, "grouping");
        const uint8_t *q = row + 8, *end = row + len;
        uint64_t seq;
        memcpy(&seq, q, 8);
        q += 8;
        const uint8_t *kb = q;
        for (size_t i = 0; i < nk; i++)
            if (sql_spill_get_sv(&q, end, &k[i]) != 0)
                return sql_spill_failed(c, "grouping");
        uint64_t h = key_hash(k, nk);
        agg_group *g;
        size_t slot;
        if (find_group(c, k, nk, kb, (size_t)(q - kb), h, &g, &slot) != 0)
            return -1;
        if (!g) {
            if (!room_for_group(c)) {
                if (!sp->out[0] && open_parts(c, p->level + 1) != 0)
                    return -1;
                if (part_put(c, h, row, len) != 0)
                    return -1;
                continue;
            }
            if (!(g = add_group(c, kb, (size_t)(q - kb), h, seq, slot)))
                return -1;
        }
        c->aggs = grp_aggs(g);
        for (size_t i = 0; i < st->naggs; i++) {
            const enode *e = st->aggs[i];
            agg_state *ag = state_at(c, c->aggs, e->slot);
            if (e->sub == A_COUNT_STAR) {
                ag->count++;
                continue;
            }
            sv v;
            if (sql_spill_get_sv(&q, end, &v) != 0)
                return sql_spill_failed(c, "grouping");
            if (v.k != K_NULL && update_agg(c, e, ag, &v) != 0)
                return -1;
        }
    }
    sql_spill_reader_free(&sp->rd);
    return close_parts(c);
}

/* ------------------------------------------------ scan aggregates */

/* An aggregate argument read straight from the row (scan_aggs). */
typedef struct fa_arg {
    jet_cell_loc loc;
    uint8_t kind;           /* K_INT, K_MONEY, K_DOUBLE, K_DATE; 0 none
                               (COUNT(*)) */
} fa_arg;

/* Whether the block is one table read by its scan, whose aggregates
 * (no GROUP BY) are COUNT(*) or COUNT, SUM, AVG, MIN, MAX of its own
 * stored fixed-size columns (COUNT also of in-row text): then scan_aggs
 * runs it. */
static bool scan_aggs_fit(sql_cursor *c, fa_arg *arg)
{
    const sql_stmt *st = c->st;
    if (st->ntabs != 1 || st->ngroup || c->join_started || c->src_done ||
        sql_general_forced())
        return false;
    const tab_plan *tp = &st->tabs[0];
    const tcur *t = &c->t[0];
    if (tp->method != M_SCAN || tp->sub || !tp->td || !t->scan || tp->on ||
        tp->ginner >= 0 || t->rescan)
        return false;
    for (size_t i = 0; i < st->naggs; i++) {
        const enode *e = st->aggs[i];
        fa_arg *a = &arg[e->slot];
        memset(a, 0, sizeof *a);
        if (e->sub == A_COUNT_STAR)
            continue;
        if (e->distinct_arg || e->nargs != 1 ||
            (e->sub != A_COUNT && e->sub != A_SUM && e->sub != A_AVG &&
             e->sub != A_MIN && e->sub != A_MAX))
            return false;
        const enode *x = e->args[0];
        if (x->op != N_COL || x->up || x->tab != 0 || x->col >= tp->td->ncols)
            return false;
        const jet_column *jc = &tp->td->cols[x->col];
        if (jc->flags & JET_COL_CALCULATED)
            return false;
        jet_scan_cell_loc(t->scan, x->col, &a->loc);
        a->kind = sql_cell_kind(jc->type, &a->loc);
        if (a->kind == 0 || (a->kind == K_TEXT && e->sub != A_COUNT))
            return false;
    }
    return true;
}

/* The block's one group over every row of its scan (scan_aggs_fit):
 * what sql_join_next and sql_agg_update do for it, in one loop, the
 * aggregates' arguments read from the row's bytes into the values
 * sql_value_to_sv makes of them (a cell the row cannot give in line
 * goes through the general evaluator). 1 done, 0 not this case, -1. */
static int scan_aggs(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    fa_arg stack[8], *arg = stack;
    if (st->naggs > 8 && !(arg = calloc(st->naggs, sizeof *arg)))
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    int ret = 0;
    if (!scan_aggs_fit(c, arg))
        goto out;
    ret = -1;
    const tab_plan *tp = &st->tabs[0];
    tcur *t = &c->t[0];
    if (sql_tab_start(c, 0) != 0)
        goto out;
    c->join_started = true;
    const jet_row *row = jet_scan_row(t->scan);
    bool only_rows = true;      /* every aggregate is COUNT(*) */
    for (size_t i = 0; i < st->naggs; i++)
        only_rows &= arg[st->aggs[i]->slot].kind == 0;
    while (only_rows && t->ff && tp->filter) {
        /* COUNT(*)s of a filter the scan's tests decide on the bytes:
         * the rows counted in the scan, only an undecided one here */
        uint64_t n = 0;
        int r = sql_fast_filter_count(c, t->ff, t->scan, &n);
        if (r == 2)
            break;
        if (r == JET_OK) {
            t->gen++;
            c->nread++;
            sql_tmp_reset(c);
            int ok = sql_fast_filter_judge(c, t->ff, false);
            if (ok < 0)
                goto out;
            n += (uint64_t)ok;
        } else if (r != JET_DONE) {
            sql_cursor_fail_rc(c, (jet_rc)r, jet_scan_error(t->scan));
            goto out;
        }
        c->gseq += n;
        for (size_t i = 0; i < st->naggs; i++)
            state_at(c, c->aggs, st->aggs[i]->slot)->count += n;
        if (r == JET_DONE) {
            t->src_done = true;
            ret = 1;
            goto out;
        }
    }
    for (;;) {
        if ((c->nread & 255) == 0 && sql_check_cancel(c) != 0)
            goto out;
        bool decided = false;
        jet_rc rc = t->ff ? sql_fast_filter_scan(c, t->ff, t->scan, &decided)
                          : jet_scan_next(t->scan);
        if (rc == JET_DONE)
            break;
        if (rc != JET_OK) {
            sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            goto out;
        }
        t->gen++;
        c->nread++;
        if (tp->filter) {
            sql_tmp_reset(c);
            int ok = t->ff ? sql_fast_filter_judge(c, t->ff, decided)
                           : sql_eval_cond(c, tp->filter);
            if (ok < 0)
                goto out;
            if (only_rows) {
                /* COUNT(*)s add the filter's 0 or 1: no branch on a
                 * result a half-true filter cannot predict (the loop's
                 * own cancel check stands for sql_tick) */
                c->gseq += (uint64_t)ok;
                for (size_t i = 0; i < st->naggs; i++)
                    state_at(c, c->aggs, st->aggs[i]->slot)->count += ok;
                continue;
            }
            if (!ok)
                continue;
        }
        if (sql_tick(c) != 0)
            goto out;
        c->gseq++;
        for (size_t i = 0; i < st->naggs; i++) {
            const enode *e = st->aggs[i];
            agg_state *ag = state_at(c, c->aggs, e->slot);
            const fa_arg *a = &arg[e->slot];
            if (a->kind == 0) {
                ag->count++;
                continue;
            }
            const uint8_t *p;
            size_t n;
            int k = jet_row_cell(row, &a->loc, &p, &n);
            sv v;
            if (k < 0) {
                if (sql_eval_leaf(c, e->args[0], &v) != 0)
                    goto out;
                if (v.k == K_NULL)
                    continue;
            } else if (k == 0) {
                continue;
            } else if (e->sub == A_COUNT) {
                ag->count++;        /* update_one's COUNT of a value */
                continue;
            } else {
                memset(&v, 0, sizeof v);
                v.k = a->kind;
                if (a->kind == K_INT)
                    v.i = jet_cell_int(p, a->loc.width);
                else if (a->kind == K_MONEY)
                    v.i = (int64_t)jet_get_u64(p);
                else
                    v.d = jet_cell_double(p);
            }
            if (update_agg(c, e, ag, &v) != 0)
                goto out;
        }
    }
    t->src_done = true;
    ret = 1;
out:
    if (arg != stack)
        free(arg);
    return ret;
}

/* ------------------------------------------------------ text groups */

/* Hash of a binary sort-key segment (text_groups), its high bits spread
 * too: they choose partitions. */
static uint64_t seg_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return h;
}

/* Whether the block groups one scanned table by one of its stored Text
 * columns read in line (jet_scan_cell_loc): then text_groups runs it. */
static bool text_groups_fit(sql_cursor *c, jet_cell_loc *loc)
{
    const sql_stmt *st = c->st;
    if (st->ntabs != 1 || st->ngroup != 1 || c->join_started ||
        c->src_done || sql_general_forced())
        return false;
    const tab_plan *tp = &st->tabs[0];
    const tcur *t = &c->t[0];
    if (tp->method != M_SCAN || tp->sub || !tp->td || !t->scan || tp->on ||
        tp->ginner >= 0 || t->rescan)
        return false;
    const enode *x = st->group[0];
    if (x->op != N_COL || x->up || x->tab != 0 || x->col >= tp->td->ncols)
        return false;
    const jet_column *jc = &tp->td->cols[x->col];
    if (jc->flags & JET_COL_CALCULATED)
        return false;
    jet_scan_cell_loc(t->scan, x->col, loc);
    return sql_cell_kind(jc->type, loc) == K_TEXT;
}

/* One row of text_groups waiting for its group: where its key's
 * segment and value (UTF-16, or NULL) lie in the batch's bytes. */
typedef struct tg_row {
    uint64_t h, seq;
    size_t seg, seglen, val, units;
    bool null;
} tg_row;

#define TG_BATCH 32

/* The group of row r (text_groups), made when new (or the row written to
 * its partition past the budget), then its aggregates updated: with
 * rows batched (only COUNT(*)s), r's count. 0 or -1. */
static int tg_group(sql_cursor *c, const tg_row *r, const uint8_t *b,
                    bool batched)
{
    const uint8_t *seg = b + r->seg;
    size_t padded = (r->seglen + 7) & ~(size_t)7;
    size_t mask = c->ngslots - 1, i = (size_t)(r->h & mask);
    agg_group *g;
    for (;; i = (i + 1) & mask) {
        const agg_slot *s = &c->gslots[i];
        g = s->g;
        /* segments are prefix-free: a group whose padded segment has
         * this length and starts with this segment has this segment */
        if (!g || (s->hash == r->h && g->kboff == padded &&
                   !memcmp(sql_grp_kb(g), seg, r->seglen)))
            break;
    }
    if (!g) {
        sv v;
        memset(&v, 0, sizeof v);
        if (!r->null) {
            v.k = K_TEXT;
            v.s = (const uint16_t *)(const void *)(b + r->val);
            v.n = r->units;
        }
        if (encode_key(c, &v, 1) != 0)
            return -1;
        if (!room_for_group(c)) {
            if (!c->gsp && (need_spill(c) != 0 || open_parts(c, 0) != 0))
                return -1;
            return spill_input_row(c, r->h, r->seq);
        }
        /* the group's bytes: the segment, zeros to a multiple of 8 (the
         * values are read in place, aligned as written), the value */
        size_t vlen = c->gkb.len;
        if (sql_wbuf_put(&c->gkb, NULL, padded) != 0)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memmove(c->gkb.p + padded, c->gkb.p, vlen);
        memset(c->gkb.p, 0, padded);
        memcpy(c->gkb.p, seg, r->seglen);
        if (!(g = add_group(c, c->gkb.p, c->gkb.len, r->h, r->seq, i)))
            return -1;
        g->kboff = (uint32_t)padded;
    }
    c->aggs = grp_aggs(g);
    if (!batched)
        return sql_agg_update(c);
    for (size_t j = 0; j < c->st->naggs; j++)
        state_at(c, c->aggs, c->st->aggs[j]->slot)->count++;
    return 0;
}

/* The batch's rows to their groups in reading order, their hash slots
 * and then their groups' first bytes fetched ahead (a batch of a few
 * dozen rows waits on its cache misses together, not one by one). */
static int tg_flush(sql_cursor *c, const tg_row *rows, size_t n,
                    const uint8_t *b, bool batched)
{
    size_t mask = c->ngslots - 1;
    if (n > 1) {
        for (size_t i = 0; i < n; i++)
            __builtin_prefetch(&c->gslots[rows[i].h & mask]);
        for (size_t i = 0; i < n; i++) {
            const agg_slot *s = &c->gslots[rows[i].h & mask];
            if (s->g)
                __builtin_prefetch(s->g);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (tg_group(c, &rows[i], b, batched) != 0)
            return -1;
    return 0;
}

/* GROUP BY (or DISTINCT) of one stored Text column of one scanned table
 * (text_groups_fit), what sql_group_build's loop does, with the row's
 * group found by its key's binary sort-key segment (sortkey.c: equal
 * segments exactly when the values are one group, sql_key_cmp == 0):
 * the cell's bytes decode in place, the segment is hashed and compared
 * as bytes, with no value made, hashed by code point or encoded per row.
 * When every aggregate is COUNT(*) (or there is none: DISTINCT), rows
 * wait in batches of TG_BATCH, so that their probes' cache misses
 * overlap (tg_flush); groups are made in reading order all the same.
 * A group holds the segment (kboff bytes) and then the first row's
 * value encoded as encode_key does, which the select list and the spill
 * read (decode_key); the rows of a key that no longer fits go to
 * partitions as encode_key's values, aggregated there by the general
 * loop (each key's rows to one partition: one segment, one hash).
 * 1 done, 0 not this case, -1. */
static int text_groups(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    jet_cell_loc loc;
    if (!text_groups_fit(c, &loc))
        return 0;
    bool batched = true;
    for (size_t i = 0; i < st->naggs; i++)
        batched &= st->aggs[i]->sub == A_COUNT_STAR;
    size_t nbatch = batched ? TG_BATCH : 1;
    const tab_plan *tp = &st->tabs[0];
    tcur *t = &c->t[0];
    if (sql_tab_start(c, 0) != 0)
        return -1;
    c->join_started = true;
    const jet_row *row = jet_scan_row(t->scan);
    sql_sortkey_buf seg = { NULL, 0, 0 };
    sql_wbuf b = { NULL, 0, 0 };
    tg_row rows[TG_BATCH];
    size_t n = 0;
    int ret = -1;
    for (;;) {
        if ((c->nread & 255) == 0 && sql_check_cancel(c) != 0)
            goto out;
        jet_rc rc = jet_scan_next(t->scan);
        if (rc == JET_DONE)
            break;
        if (rc != JET_OK) {
            sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            goto out;
        }
        t->gen++;
        c->nread++;
        sql_tmp_reset(c);
        if (tp->filter) {
            int ok = t->ff ? sql_fast_filter_eval(c, 0, t->ff)
                           : sql_eval_cond(c, tp->filter);
            if (ok < 0)
                goto out;
            if (!ok)
                continue;
        }
        if (sql_tick(c) != 0)
            goto out;
        tg_row *r = &rows[n];
        r->seq = c->gseq++;
        /* the key as sql_col_sv_read makes it, its units in b */
        if (n == 0)
            b.len = 0;
        if (sql_wbuf_align(&b) != 0 || sql_wbuf_reserve(&b, 512) != 0) {
            sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            goto out;
        }
        r->val = b.len;
        r->units = 0;
        const uint8_t *p;
        size_t len;
        sv v;
        memset(&v, 0, sizeof v);
        int k = jet_row_cell(row, &loc, &p, &len);
        if (k > 0) {
            jet_value jv = { .type = JET_T_TEXT, .data = p, .len = len };
            jv.enc = len >= 2 && p[0] == 0xFF && p[1] == 0xFE
                     ? JET_ENC_COMPRESSED : JET_ENC_UCS2;
            uint16_t *u = (uint16_t *)(void *)(b.p + b.len);
            if (jet_text_to_utf16(c->db, &jv, u, 256, &r->units) != JET_OK ||
                r->units > 256) {
                k = -1;         /* the general read says why, or decodes */
            } else {
                v.k = K_TEXT;
                v.s = u;
                v.n = r->units;
            }
        }
        if (k < 0) {
            if (sql_eval(c, st->group[0], &v) != 0)
                goto out;
            if (v.k != K_TEXT && v.k != K_NULL) {
                sql_cursor_fail(c, "HY000", 0, "grouping: a Text column "
                                "gave another kind of value");
                goto out;
            }
            if (v.k == K_TEXT) {
                if (sql_wbuf_reserve(&b, v.n * 2) != 0) {
                    sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                    goto out;
                }
                memcpy(b.p + b.len, v.s, v.n * 2);
                r->units = v.n;
            }
        }
        r->null = v.k == K_NULL;
        b.len += r->units * 2;
        uint8_t cls = 0;
        seg.len = 0;
        if (sql_sortkey_append(&seg, &cls, c->text_order, &v, false) != 0 ||
            sql_wbuf_align(&b) != 0) {
            sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            goto out;
        }
        r->seg = b.len;
        r->seglen = seg.len;
        if (sql_wbuf_put(&b, seg.p, seg.len) != 0) {
            sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            goto out;
        }
        r->h = seg_hash(seg.p, seg.len);
        if (++n == nbatch) {
            if (tg_flush(c, rows, n, b.p, batched) != 0)
                goto out;
            n = 0;
        }
    }
    if (n && tg_flush(c, rows, n, b.p, batched) != 0)
        goto out;
    t->src_done = true;
    c->grp_segs = true;
    ret = 1;
out:
    free(seg.p);
    free(b.p);
    return ret;
}

int sql_group_build(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t nk = st->ngroup;
    sv *k = c->ktmp;
    c->gnext = 0;
    c->grp_segs = false;
    if (agg_layout(c) != 0)
        return -1;
    if (nk == 0) {
        agg_group *g = new_group(c, NULL, 0, 0);
        if (!g)
            return -1;
        c->aggs = grp_aggs(g);
    } else if (rehash(c) != 0) {
        return -1;
    }
    if (st->count_tdef) {
        /* COUNT(*) from the TDEF (plan.c count_from_tdef): its live count,
         * as this connection's writes and the last commit left it (one
         * page read at most) */
        uint32_t n = 0;
        int jrc = jet_table_row_count(st->db, st->tabs[0].td, &n);
        if (jrc != JET_OK)
            return sql_cursor_fail_rc(c, jrc, jet_db_error(st->db));
        for (size_t i = 0; i < st->naggs && !c->src_done; i++)
            state_at(c, c->aggs, st->aggs[i]->slot)->count = n;
        return 0;
    }
    if (nk == 0) {
        int r = scan_aggs(c);
        if (r != 0)
            return r < 0 ? -1 : 0;
    } else {
        int r = text_groups(c);
        if (r != 0)
            return r < 0 ? -1 : close_parts(c);
    }
    for (;;) {
        int rc = c->src_done ? JET_DONE : sql_join_next(c);
        if (rc == JET_DONE)
            break;
        if (rc < 0 || sql_tick(c) != 0)
            return -1;
        uint64_t seq = c->gseq++;
        if (nk) {
            for (size_t i = 0; i < nk; i++)
                if (sql_eval(c, st->group[i], &k[i]) != 0)
                    return -1;
            uint64_t h = key_hash(k, nk);
            agg_group *g;
            size_t slot;
            if (encode_key(c, k, nk) != 0 ||
                find_group(c, k, nk, c->gkb.p, c->gkb.len, h, &g, &slot) != 0)
                return -1;
            if (!g) {
                if (!room_for_group(c)) {
                    if (!c->gsp && (need_spill(c) != 0 ||
                                    open_parts(c, 0) != 0))
                        return -1;
                    if (spill_input_row(c, h, seq) != 0)
                        return -1;
                    continue;
                }
                if (!(g = add_group(c, c->gkb.p, c->gkb.len, h, seq, slot)))
                    return -1;
            }
            c->aggs = grp_aggs(g);
        }
        if (sql_agg_update(c) != 0)
            return -1;
    }
    return close_parts(c);
}

int sql_group_next(sql_cursor *c)
{
    for (;;) {
        if (c->gnext < c->ngroups) {
            if (c->grp_sorted && c->gnext + 8 < c->ngroups) {
                /* sorted groups lie all over the arena: fetch a few
                 * ahead, or each costs a cache (and TLB) miss */
                const agg_group *a = c->gorder[c->gnext + 8];
                __builtin_prefetch(a);
                __builtin_prefetch((const char *)a + 64);
            }
            c->grp = c->gorder[c->gnext++];
            c->aggs = grp_aggs(c->grp);
            if (decode_key(c, c->grp) != 0)
                return -1;
            return JET_OK;
        }
        struct agg_spill *sp = c->gsp;
        if (!sp || !sp->ntodo)
            return JET_DONE;
        /* the next partition: FIFO by taking the oldest queued */
        gpart *p = sp->todo[0];
        memmove(sp->todo, sp->todo + 1, --sp->ntodo * sizeof *sp->todo);
        drop_groups(c);
        if (sql_sort_make_room(c) != 0)
            return -1;
        sp->reading = p;
        int rc = aggregate_part(c, p);
        sp->reading = NULL;
        sql_spill_stream_free(&p->s);
        free(p);
        if (rc != 0)
            return -1;
    }
}

void sql_group_free(sql_cursor *c)
{
    if (c->gorder)
        drop_groups(c);
    free(c->gorder);
    free(c->gslots);
    free(c->gkeys);
    free(c->gkb.p);
    c->gorder = NULL;
    c->gslots = NULL;
    c->gkeys = NULL;
    c->gkb.p = NULL;
    c->gkb.len = c->gkb.cap = 0;
    c->ngroups = c->gcap = c->ngslots = 0;
    c->aggs = NULL;
    sql_mem_free(&c->gmem);
    free(c->agg_off);
    c->agg_off = NULL;
    struct agg_spill *sp = c->gsp;
    if (sp) {
        for (unsigned i = 0; i < PART_FANOUT; i++)
            if (sp->out[i]) {
                sql_spill_stream_free(&sp->out[i]->s);
                free(sp->out[i]);
            }
        for (size_t i = 0; i < sp->ntodo; i++) {
            sql_spill_stream_free(&sp->todo[i]->s);
            free(sp->todo[i]);
        }
        if (sp->reading) {
            sql_spill_stream_free(&sp->reading->s);
            free(sp->reading);
        }
        free(sp->todo);
        free(sp->row.p);
        free(sp->args);
        sql_spill_reader_free(&sp->rd);
        free(sp);
        c->gsp = NULL;
    }
}
