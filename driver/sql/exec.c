/*
 * exec.c - sql_cursor: runs a prepared statement.
 *
 * Source: a table scan (jet_scan with the statement's projection mask)
 * or an index walk (jet_index_cursor; each entry's row is made current
 * with jet_scan_fetch_row). Equality lists are sorted and de-duplicated,
 * then sought one key tuple at a time; a range bound that does not
 * convert exactly to the key column's type falls back to the filtered
 * scan (the WHERE condition is applied to every row in every case).
 *
 * Streaming (no sort): each next() reads rows until one passes WHERE,
 * applies OFFSET, LIMIT/TOP (ties when the index gives the order) and
 * max_rows; values are decoded lazily per column and cached per row.
 * No heap allocation per row: column caches, scratch chunks and output
 * buffers only grow.
 * Materialized (ORDER BY without index, DISTINCT, TOP PERCENT): rows
 * passing WHERE are copied as records (output values + sort keys) into
 * chunk memory, bounded by SQL_MAX_BUFFERED bytes (JET_ELIMIT beyond),
 * then merge-sorted (stable: ties keep scan order, NULL lowest).
 * Aggregates: accumulated while reading, one row out.
 */
#include "config.h"

#include "engine_int.h"
#include "func.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SQL_MAX_BUFFERED ((size_t)1 << 30)

enum { MODE_STREAM = 0, MODE_MAT = 1, MODE_AGG = 2, MODE_EXPLAIN = 3 };

/* ------------------------------------------------------- column cache */

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
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

int sql_col_value(sql_cursor *c, uint16_t col, const jet_value **out)
{
    colcache *cc = &c->cc[col];
    if (cc->vgen != c->gen) {
        jet_rc rc = jet_scan_value(c->scan, col, &cc->v);
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_scan_error(c->scan));
        const jet_column *jc = &c->st->td->cols[col];
        if (!cc->v.is_null && cc->v.data && cc->v.len &&
            (jc->type == JET_T_MEMO || jc->type == JET_T_OLE ||
             (jc->flags & JET_COL_CALCULATED))) {
            /* long values live in the scan's shared scratch: keep ours */
            if (grow((void **)&cc->copy, &cc->copycap, cc->v.len, 1) != 0)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            memcpy(cc->copy, cc->v.data, cc->v.len);
            cc->v.data = cc->copy;
        }
        cc->vgen = c->gen;
    }
    *out = &cc->v;
    return 0;
}

/* jet_value -> sv; text through jet_text_to_utf16 into *u16. */
static int value_to_sv(sql_cursor *c, const jet_value *v, sv *s,
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
    case JET_T_FLOAT: s->k = K_DOUBLE; s->d = v->u.f; return 0;
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
            if (grow((void **)u16, cap, units, sizeof **u16) != 0)
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

int sql_col_sv(sql_cursor *c, uint16_t col, sv *out)
{
    colcache *cc = &c->cc[col];
    if (cc->sgen != c->gen) {
        const jet_value *v;
        if (sql_col_value(c, col, &v) != 0)
            return -1;
        if (value_to_sv(c, v, &cc->s, &cc->u16, &cc->u16cap) != 0)
            return -1;
        if (cc->s.k == K_GUID)
            cc->s.p = cc->v.u.guid;
        cc->sgen = c->gen;
    }
    *out = cc->s;
    return 0;
}

/* ---------------------------------------------------------- keys */

/* sv -> index key of column jc: 0 exact, 1 no row can be equal (NULL,
 * inexact), -1 not convertible. */
static int key_from_sv(const sv *v, const jet_column *jc, jet_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = jc->type;
    sv t = *v;
    if (t.k == K_NULL)
        return 1;
    if (t.k == K_TEXT) {
        sv n;
        if (sql_text_to_number(t.s, t.n, &n) != 0)
            return -1;
        t = n;
    }
    if (t.k == K_DEC) {
        /* a Decimal (parameter): as an integer when whole, else a double
         * that keeps its exact Currency units when it has them */
        __int128 m = t.m, p = 1;
        for (int k = 0; k < t.scale; k++)
            p *= 10;
        if (m % p == 0 && m / p >= INT64_MIN && m / p <= INT64_MAX) {
            int64_t whole = (int64_t)(m / p);
            memset(&t, 0, sizeof t);
            t.k = K_INT;
            t.i = whole;
        } else {
            sv dv = t;
            memset(&t, 0, sizeof t);
            t.k = K_DOUBLE;
            t.d = sql_dec_to_double(&dv);
            if (dv.scale <= 4) {
                __int128 u = dv.m;
                for (int k = dv.scale; k < 4; k++)
                    u *= 10;
                if (u >= INT64_MIN && u <= INT64_MAX) {
                    t.has_units = true;
                    t.i = (int64_t)u;
                }
            }
        }
    }
    double d;
    switch (jc->type) {
    case JET_T_BOOL:
        if (t.k == K_BOOL) {
            out->u.b = t.i != 0;
            return 0;
        }
        if (t.k == K_INT && (t.i == 0 || t.i == -1)) {
            out->u.b = t.i != 0;
            return 0;
        }
        return t.k == K_INT ? 1 : -1;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        if (t.k == K_INT) {
            out->u.i = t.i;
        } else if (t.k == K_BOOL) {
            out->u.i = t.i ? -1 : 0;
        } else if (t.k == K_MONEY) {
            if (t.i % 10000)
                return 1;
            out->u.i = t.i / 10000;
        } else if (t.k == K_DOUBLE) {
            if (t.d != floor(t.d) || fabs(t.d) > 9e18)
                return 1;
            out->u.i = (int64_t)t.d;
        } else {
            return -1;
        }
        return 0;
    case JET_T_MONEY:
        if (t.k == K_MONEY || (t.k == K_DOUBLE && t.has_units))
            out->u.money = t.i;
        else if (t.k == K_INT && t.i > -922337203685477 &&
                 t.i < 922337203685477)
            out->u.money = t.i * 10000;
        else if (t.k == K_DOUBLE) {
            d = t.d * 10000.0;
            if (d != floor(d) || fabs(d) > 9e18)
                return 1;
            out->u.money = (int64_t)d;
        } else {
            return -1;
        }
        return 0;
    case JET_T_FLOAT: case JET_T_DOUBLE: case JET_T_DATETIME:
        if (t.k == K_INT || t.k == K_BOOL)
            d = t.k == K_BOOL ? (t.i ? -1.0 : 0.0) : (double)t.i;
        else if (t.k == K_MONEY)
            d = (double)t.i / 10000.0;
        else if (t.k == K_DOUBLE || t.k == K_DATE)
            d = t.d;
        else
            return -1;
        if (jc->type == JET_T_FLOAT) {
            if ((double)(float)d != d)
                return 1;
            out->u.f = (float)d;
        } else {
            out->u.d = d;
        }
        return 0;
    default:
        return -1;
    }
}

static sv node_value(const sql_cursor *c, const enode *n)
{
    if (n->op == N_PARAM)
        return c->params[n->param];
    return n->konst;
}

/* Prepare the equality value lists: sorted, distinct, exact. Returns 0,
 * 1 when a range bound forces the filtered scan, -1 on error. */
static int setup_keys(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    const jet_index *ix = &st->td->indexes[st->index_no];
    c->nkeyt = 1;
    for (uint16_t k = 0; k < st->neq; k++) {
        const jet_column *jc = &st->td->cols[ix->cols[k].col];
        sv *vals = sql_chunk_alloc(&c->recmem, st->eq_n[k] * sizeof *vals);
        if (!vals)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        size_t n = 0;
        for (size_t i = 0; i < st->eq_n[k]; i++) {
            sv v = node_value(c, st->eq_v[k][i]);
            jet_value kv;
            int r = key_from_sv(&v, jc, &kv);
            if (r < 0)
                return 1;
            if (r > 0)
                continue;
            /* insertion into sorted distinct list */
            size_t j = n;
            bool dup = false;
            while (j > 0) {
                int cr = 0;
                if (sql_sv_cmp(&vals[j - 1], &v, &cr) != 0)
                    return 1;
                if (cr == 0) {
                    dup = true;
                    break;
                }
                if (cr < 0)
                    break;
                j--;
            }
            if (dup)
                continue;
            memmove(&vals[j + 1], &vals[j], (n - j) * sizeof *vals);
            vals[j] = v;
            n++;
        }
        c->eqvals[k] = vals;
        c->eqn[k] = n;
        c->nkeyt *= n;
    }
    jet_value kv;
    if (st->neq < ix->ncols) {
        const jet_column *jc = &st->td->cols[ix->cols[st->neq].col];
        sv v;
        if (st->lo) {
            v = node_value(c, st->lo);
            if (key_from_sv(&v, jc, &kv) != 0)
                return 1;
        }
        if (st->hi) {
            v = node_value(c, st->hi);
            if (key_from_sv(&v, jc, &kv) != 0)
                return 1;
        }
    }
    return 0;
}

/* Seek the current key tuple (c->odo). 0 ok, 1 skip tuple, -1 error,
 * 2 fall back to scanning. */
static int seek_tuple(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    const jet_index *ix = &st->td->indexes[st->index_no];
    jet_value lo[PLAN_MAX_KEYS + 1], hi[PLAN_MAX_KEYS + 1];
    uint16_t n = st->neq;
    for (uint16_t k = 0; k < n; k++) {
        const jet_column *jc = &st->td->cols[ix->cols[k].col];
        if (key_from_sv(&c->eqvals[k][c->odo[k]], jc, &lo[k]) != 0)
            return 1;
        hi[k] = lo[k];
    }
    uint16_t nlo = n, nhi = n;
    bool hi_incl = true;
    int op = JET_SEEK_GE;
    if (n < ix->ncols) {
        const jet_column *jc = &st->td->cols[ix->cols[n].col];
        sv v;
        if (st->lo) {
            v = node_value(c, st->lo);
            if (key_from_sv(&v, jc, &lo[n]) != 0)
                return 2;
            nlo++;
            op = st->lo_incl ? JET_SEEK_GE : JET_SEEK_GT;
        }
        if (st->hi) {
            v = node_value(c, st->hi);
            if (key_from_sv(&v, jc, &hi[n]) != 0)
                return 2;
            nhi++;
            hi_incl = st->hi_incl;
        }
    }
    if (n > 0 && !st->lo && !st->hi &&
        st->td->cols[ix->cols[n - 1].col].type == JET_T_DATETIME) {
        /* dates compare to the millisecond: seek the +-0.5 ms around */
        lo[n - 1].u.d -= 0.5 / 86400000.0;
        hi[n - 1].u.d += 0.5 / 86400000.0;
    }
    jet_rc rc = jet_index_seek(c->ix, lo, nlo, op);
    if (rc == JET_OK)
        rc = jet_index_set_upper(c->ix, hi, nhi, hi_incl);
    if (rc == JET_ELIMIT && !st->lo && !st->hi)
        return 1;               /* an equality key out of the column range */
    if (rc != JET_OK)
        return 2;
    return 0;
}

/* Next key tuple in odometer order; false when all were used. */
static bool next_tuple(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (int k = (int)st->neq - 1; k >= 0; k--) {
        if (++c->odo[k] < c->eqn[k])
            return true;
        c->odo[k] = 0;
    }
    return false;
}

static void to_scan(sql_cursor *c)
{
    jet_index_cursor_close(c->ix);
    c->ix = NULL;
    jet_scan_rewind(c->scan);
}

/* Position the first usable key tuple. 0, or JET_DONE, or -1. */
static int start_tuples(sql_cursor *c)
{
    if (c->nkeyt == 0)
        return JET_DONE;
    for (;;) {
        int r = seek_tuple(c);
        if (r == 0)
            return 0;
        if (r == 2) {
            if (c->nread == 0) {
                to_scan(c);
                return 0;
            }
            return sql_cursor_fail_rc(c, JET_EUNSUPPORTED,
                                      jet_index_error(c->ix));
        }
        if (r < 0)
            return -1;
        if (!next_tuple(c))
            return JET_DONE;
    }
}

/* Make the next source row current: JET_OK, JET_DONE or -1. */
static int src_next(sql_cursor *c)
{
    for (;;) {
        if (c->src_done)
            return JET_DONE;
        if ((c->nread & 255) == 0 &&
            ((c->opts.cancel && atomic_load(c->opts.cancel)) ||
             (c->opts.interrupt && c->opts.interrupt(c->opts.interrupt_ctx))))
            return sql_cursor_fail_rc(c, JET_EINTERRUPTED, NULL);
        jet_rc rc;
        if (!c->ix) {
            rc = jet_scan_next(c->scan);
            if (rc == JET_DONE) {
                c->src_done = true;
                return JET_DONE;
            }
            if (rc != JET_OK)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(c->scan));
            c->gen++;
            c->nread++;
            return JET_OK;
        }
        if (!c->src_started) {
            c->src_started = true;
            int r = start_tuples(c);
            if (r == JET_DONE) {
                c->src_done = true;
                return JET_DONE;
            }
            if (r < 0)
                return -1;
            continue;
        }
        uint32_t pgno;
        uint16_t row;
        rc = jet_index_next(c->ix, &pgno, &row);
        if (rc == JET_DONE) {
            for (;;) {
                if (!next_tuple(c)) {
                    c->src_done = true;
                    return JET_DONE;
                }
                int r = seek_tuple(c);
                if (r == 0)
                    break;
                if (r == 2)
                    return sql_cursor_fail_rc(c, JET_EUNSUPPORTED,
                                              jet_index_error(c->ix));
            }
            continue;
        }
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_index_error(c->ix));
        c->nread++;
        rc = jet_scan_fetch_row(c->scan, pgno, row);
        if (rc == JET_ENOTFOUND)
            continue;
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_scan_error(c->scan));
        c->gen++;
        return JET_OK;
    }
}

/* ------------------------------------------------------- sort records */

static int key_cmp(const sv *a, const sv *b)
{
    if (a->k == K_NULL || b->k == K_NULL)
        return (a->k != K_NULL) - (b->k != K_NULL);
    int r = 0;
    if (sql_sv_cmp(a, b, &r) != 0) {
        /* unlike kinds (a computed column mixing types): by kind */
        return a->k < b->k ? -1 : a->k > b->k;
    }
    return r;
}

typedef struct sort_spec {
    size_t from, n;
    const bool *desc;       /* NULL: all ascending */
} sort_spec;

static int rec_cmp(const rec *a, const rec *b, const sort_spec *sp)
{
    for (size_t i = 0; i < sp->n; i++) {
        int r = key_cmp(&a->keys[sp->from + i], &b->keys[sp->from + i]);
        if (r)
            return (sp->desc && sp->desc[i]) ? -r : r;
    }
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Bottom-up merge sort of n records (tmp: n pointers). */
static void merge_sort(rec **v, rec **tmp, size_t n, const sort_spec *sp)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = rec_cmp(v[j], v[i], sp) < 0 ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* -------------------------------------------------------- outputs */

/* Value of output column i for the current row (streaming / aggregate). */
static int live_value(sql_cursor *c, size_t i, jet_value *out)
{
    const out_col *oc = &c->st->cols[i];
    if (oc->src >= 0) {
        const jet_value *v;
        if (sql_col_value(c, (uint16_t)oc->src, &v) != 0)
            return -1;
        *out = *v;
        return 0;
    }
    sv s;
    if (sql_eval(c, oc->e, &s) != 0)
        return -1;
    if (sql_sv_to_value(c, &s, oc->meta.type, &c->obuf[i], &c->ocap[i],
                        out) != 0)
        return sql_cursor_fail(c, "22018", oc->e->position, "Data type "
                               "mismatch in expression (at character %zu)",
                               oc->e->position);
    return 0;
}

static size_t align_up(size_t n)
{
    const size_t a = sizeof(max_align_t);
    return (n + a - 1) / a * a;
}

/* Copy the current row's outputs and keys into a record. */
static int add_record(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t nout = st->ncols, nk = c->nkeys;
    size_t bytes = align_up(sizeof(rec)) + align_up(nout * sizeof(jet_value))
                   + align_up(nk * sizeof(sv));
    for (size_t i = 0; i < nout; i++) {
        if (live_value(c, i, &c->vtmp[i]) != 0)
            return -1;
        /* the value may borrow an output buffer reused by the next
         * column: account for its bytes now, copy below */
        if (!c->vtmp[i].is_null && c->vtmp[i].data)
            bytes += c->vtmp[i].len;
        if (c->vtmp[i].data && st->cols[i].src < 0) {
            /* computed text lives in obuf[i]; stable until next row */
        }
    }
    for (size_t k = 0; k < nk; k++) {
        const enode *e = k < st->norder ? st->order[k]
                                        : st->cols[k - st->norder].e;
        if (sql_eval(c, e, &c->ktmp[k]) != 0)
            return -1;
        if (c->ktmp[k].k == K_TEXT)
            bytes += c->ktmp[k].n * 2;
        else if (c->ktmp[k].k == K_BIN || c->ktmp[k].k == K_GUID)
            bytes += c->ktmp[k].len;
    }
    bytes += 8 * (nout + nk);
    if (c->recbytes + bytes > SQL_MAX_BUFFERED) {
        c->err.rc = JET_ELIMIT;
        return sql_cursor_fail(c, "HY001", 0, "sorting needs more than %zu "
                               "MiB of rows", SQL_MAX_BUFFERED >> 20);
    }
    uint8_t *mem = sql_chunk_alloc(&c->recmem, bytes);
    if (!mem)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->recbytes += bytes;
    rec *r = (rec *)(void *)mem;
    size_t off = align_up(sizeof(rec));
    r->out = (jet_value *)(void *)(mem + off);
    off += align_up(nout * sizeof(jet_value));
    r->keys = (sv *)(void *)(mem + off);
    off += align_up(nk * sizeof(sv));
    r->seq = c->nrows;
    for (size_t i = 0; i < nout; i++) {
        r->out[i] = c->vtmp[i];
        if (!c->vtmp[i].is_null && c->vtmp[i].data && c->vtmp[i].len) {
            memcpy(mem + off, c->vtmp[i].data, c->vtmp[i].len);
            r->out[i].data = mem + off;
            off += (c->vtmp[i].len + 7) & ~(size_t)7;
        }
    }
    for (size_t k = 0; k < nk; k++) {
        r->keys[k] = c->ktmp[k];
        sv *kv = &r->keys[k];
        off = (off + 7) & ~(size_t)7;
        if (kv->k == K_TEXT && kv->n) {
            memcpy(mem + off, kv->s, kv->n * 2);
            kv->s = (const uint16_t *)(void *)(mem + off);
            off += kv->n * 2;
        } else if ((kv->k == K_BIN || kv->k == K_GUID) && kv->len) {
            memcpy(mem + off, kv->p, kv->len);
            kv->p = mem + off;
            off += kv->len;
        }
    }
    if (c->nrows == c->rcap &&
        grow((void **)&c->rows, &c->rcap, c->nrows + 1, sizeof *c->rows) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->rows[c->nrows++] = r;
    return 0;
}

/* ------------------------------------------------------- aggregates */

static int agg_update(sql_cursor *c)
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
        switch (e->sub) {
        case A_COUNT:
            break;
        case A_SUM: case A_AVG:
            if (e->k == K_INT) {
                ag->wide += v.k == K_BOOL ? -v.i : v.i;
            } else if (e->k == K_MONEY) {
                ag->wide += v.i;
            } else if (e->k == K_DEC && v.k != K_DOUBLE && v.k != K_TEXT) {
                if (ag->count == 1)
                    sql_dec_set(&ag->dec, 0, 0);
                if (sql_dec_arith(&ag->dec, '+', &ag->dec, &v) != 0)
                    return sql_cursor_fail(c, "22003", e->position, "Overflow "
                                           "(at character %zu)", e->position);
            } else {
                sv t = v;
                double d;
                if (t.k == K_TEXT) {
                    if (sql_text_to_number(t.s, t.n, &t) != 0)
                        return sql_cursor_fail(c, "22018", e->position,
                                               "Data type mismatch (at "
                                               "character %zu)", e->position);
                }
                d = t.k == K_DEC ? sql_dec_to_double(&t) :
                    t.k == K_INT ? (double)t.i : t.k == K_BOOL ?
                    (t.i ? -1.0 : 0.0) : t.k == K_MONEY ?
                    (double)t.i / 10000.0 : t.d;
                ag->dsum += d;
            }
            if (ag->wide > ((__int128)1 << 100) ||
                ag->wide < -((__int128)1 << 100))
                return sql_cursor_fail(c, "22003", e->position, "Overflow "
                                       "(at character %zu)", e->position);
            break;
        default: {
            int r = 0;
            if (ag->have) {
                if (sql_sv_cmp(&v, &ag->best, &r) != 0)
                    return sql_cursor_fail(c, "22018", e->position,
                                           "Data type mismatch (at "
                                           "character %zu)", e->position);
                if (e->sub == A_MIN ? r >= 0 : r <= 0)
                    break;
            }
            ag->best = v;
            ag->have = true;
            if (v.k == K_TEXT) {
                if (grow((void **)&ag->buf, &ag->cap, v.n + 1,
                         sizeof *ag->buf) != 0)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                memcpy(ag->buf, v.s, v.n * 2);
                ag->best.s = ag->buf;
            } else if (v.k == K_BIN || v.k == K_GUID) {
                if (grow((void **)&ag->bbuf, &ag->bcap, v.len + 1, 1) != 0)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                memcpy(ag->bbuf, v.p, v.len);
                ag->best.p = ag->bbuf;
            }
            break;
        }
        }
    }
    return 0;
}

/* ---------------------------------------------------------- running */

/* Row count of TOP n PERCENT of total, rounded up. */
static size_t top_rows(const sql_stmt *st, size_t total)
{
    if (st->top < 0)
        return total;
    if (!st->top_percent)
        return (uint64_t)st->top < total ? (size_t)st->top : total;
    __int128 n = ((__int128)total * st->top + 99) / 100;
    return n < (__int128)total ? (size_t)n : total;
}

static bool order_keys_equal(const rec *a, const rec *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (key_cmp(&a->keys[i], &b->keys[i]) != 0)
            return false;
    return true;
}

static int run_materialized(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    c->nkeys = st->norder + (st->distinct ? st->ncols : 0);
    c->vtmp = calloc(st->ncols ? st->ncols : 1, sizeof *c->vtmp);
    c->ktmp = calloc(c->nkeys ? c->nkeys : 1, sizeof *c->ktmp);
    if (!c->vtmp || !c->ktmp)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (;;) {
        int rc = src_next(c);
        if (rc == JET_DONE)
            break;
        if (rc < 0)
            return -1;
        sql_tmp_reset(c);
        if (st->where) {
            int t = sql_eval_cond(c, st->where);
            if (t < 0)
                return -1;
            if (!t)
                continue;
        }
        if (add_record(c) != 0)
            return -1;
    }
    size_t n = c->nrows;
    rec **tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    if (st->distinct) {
        sort_spec d = { st->norder, st->ncols, NULL };
        merge_sort(c->rows, tmp, n, &d);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (m > 0) {
                bool same = true;
                for (size_t k = 0; k < st->ncols && same; k++)
                    same = key_cmp(&c->rows[m - 1]->keys[st->norder + k],
                                   &c->rows[i]->keys[st->norder + k]) == 0;
                if (same)
                    continue;
            }
            c->rows[m++] = c->rows[i];
        }
        n = c->nrows = m;
        for (size_t i = 0; i < n; i++)
            c->rows[i]->seq = i;    /* ties keep the DISTINCT order */
    }
    if (st->norder) {
        sort_spec o = { 0, st->norder, st->order_desc };
        merge_sort(c->rows, tmp, n, &o);
    }
    free(tmp);
    /* window */
    size_t start = (uint64_t)st->offset < n ? (size_t)st->offset : n;
    size_t end = n;
    if (st->top >= 0) {
        end = top_rows(st, n);
        if (st->norder && end > 0)
            while (end < n && order_keys_equal(c->rows[end - 1],
                                               c->rows[end], st->norder))
                end++;
    }
    if (st->limit >= 0 && (uint64_t)st->limit < end - start)
        end = start + (size_t)st->limit;
    if (c->opts.max_rows && c->opts.max_rows < end - start)
        end = start + (size_t)c->opts.max_rows;
    c->rpos = start;
    c->rend = end;
    return 0;
}

static int run_aggregate(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (;;) {
        int rc = src_next(c);
        if (rc == JET_DONE)
            break;
        if (rc < 0)
            return -1;
        sql_tmp_reset(c);
        if (st->where) {
            int t = sql_eval_cond(c, st->where);
            if (t < 0)
                return -1;
            if (!t)
                continue;
        }
        if (agg_update(c) != 0)
            return -1;
    }
    sql_tmp_reset(c);
    /* one row; OFFSET/TOP/LIMIT/max_rows can still remove it */
    size_t n = 1;
    if (st->offset > 0 || st->top == 0 || st->limit == 0 ||
        (st->top_percent && top_rows(st, n) == 0))
        n = 0;
    c->rpos = 0;
    c->rend = n;
    return 0;
}

static int save_tie(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t need = 0;
    for (size_t k = 0; k < st->norder; k++) {
        if (sql_eval(c, st->order[k], &c->tie[k]) != 0)
            return -1;
        if (c->tie[k].k == K_TEXT)
            need += c->tie[k].n;
    }
    if (grow((void **)&c->tie_text, &c->tie_cap, need + 1,
             sizeof *c->tie_text) != 0)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    size_t off = 0;
    for (size_t k = 0; k < st->norder; k++) {
        if (c->tie[k].k == K_TEXT) {
            memcpy(c->tie_text + off, c->tie[k].s, c->tie[k].n * 2);
            c->tie[k].s = c->tie_text + off;
            off += c->tie[k].n;
        } else if (c->tie[k].k == K_BIN || c->tie[k].k == K_GUID) {
            c->tie[k].k = K_NULL;       /* not orderable by index */
        }
    }
    c->have_tie = true;
    return 0;
}

/* 1 when the current row's ORDER BY values equal the saved tie. */
static int is_tie(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (size_t k = 0; k < st->norder; k++) {
        sv v;
        if (sql_eval(c, st->order[k], &v) != 0)
            return -1;
        if (key_cmp(&v, &c->tie[k]) != 0)
            return 0;
    }
    return 1;
}

static int next_stream(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    if (st->limit >= 0 && c->nout >= (uint64_t)st->limit)
        return JET_DONE;
    if (c->opts.max_rows && c->nout >= c->opts.max_rows)
        return JET_DONE;
    if (st->top >= 0 && c->nout >= (uint64_t)st->top &&
        !(st->order_by_index && st->norder && !st->order_unique &&
          c->have_tie))
        return JET_DONE;
    for (;;) {
        int rc = src_next(c);
        if (rc != JET_OK)
            return rc;
        sql_tmp_reset(c);
        if (st->where) {
            int t = sql_eval_cond(c, st->where);
            if (t < 0)
                return -1;
            if (!t)
                continue;
        }
        if (c->skipped < (uint64_t)st->offset) {
            c->skipped++;
            continue;
        }
        if (st->top >= 0 && c->nout >= (uint64_t)st->top) {
            int t = is_tie(c);
            if (t < 0)
                return -1;
            if (!t) {
                c->src_done = true;
                return JET_DONE;
            }
        }
        c->nout++;
        if (st->top >= 0 && c->nout == (uint64_t)st->top &&
            st->order_by_index && st->norder && !st->order_unique &&
            save_tie(c) != 0)
            return -1;
        return JET_OK;
    }
}

/* --------------------------------------------------------------- API */

static double now_days(void)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!localtime_r(&t, &tm))
        return 0;
    return sql_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                               ((int64_t)tm.tm_hour * 3600 + tm.tm_min * 60 +
                                tm.tm_sec) * 1000);
}

static int set_params(sql_cursor *c, const jet_value *params)
{
    const sql_stmt *st = c->st;
    size_t n = st->nparams;
    c->params = calloc(n ? n : 1, sizeof *c->params);
    if (!c->params)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (size_t i = 0; i < n; i++) {
        if (!params) {
            c->params[i].k = K_NULL;
            continue;
        }
        const jet_value *v = &params[i];
        uint16_t *u16 = NULL;
        size_t cap = 0;
        sv s;
        if (v->type == JET_T_TEXT || v->type == JET_T_MEMO) {
            /* own copy of the text */
            int rc = value_to_sv(c, v, &s, &u16, &cap);
            if (rc != 0) {
                free(u16);
                return -1;
            }
            if (!v->is_null) {
                uint16_t *keep = sql_chunk_alloc(&c->recmem,
                                                 (s.n ? s.n : 1) * 2);
                if (!keep) {
                    free(u16);
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                }
                if (s.n)
                    memcpy(keep, s.s, s.n * 2);
                s.s = keep;
            }
            free(u16);
        } else {
            if (value_to_sv(c, v, &s, &u16, &cap) != 0)
                return -1;
            if ((s.k == K_BIN || s.k == K_GUID) && s.len) {
                uint8_t *keep = sql_chunk_alloc(&c->recmem, s.len);
                if (!keep)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                memcpy(keep, s.p, s.len);
                s.p = keep;
            }
        }
        c->params[i] = s;
    }
    return 0;
}

int sql_cursor_open(sql_cursor **out, sql_stmt *st, const jet_value *params,
                    const sql_cursor_opts *opts, sql_error *err)
{
    *out = NULL;
    sql_cursor *c = calloc(1, sizeof *c);
    if (!c) {
        if (err)
            sql_set_error(err, "HY001", 0, "out of memory");
        return -1;
    }
    c->st = st;
    c->db = st->db;
    if (opts)
        c->opts = *opts;
    c->now = now_days();
    c->gen = 1;
    const jet_tdef *td = st->td;
    size_t nc = st->ncols ? st->ncols : 1;
    c->cc = calloc(td->ncols ? td->ncols : 1, sizeof *c->cc);
    c->obuf = calloc(nc, sizeof *c->obuf);
    c->ocap = calloc(nc, sizeof *c->ocap);
    c->aggs = calloc(st->naggs ? st->naggs : 1, sizeof *c->aggs);
    c->tie = calloc(st->norder ? st->norder : 1, sizeof *c->tie);
    if (!c->cc || !c->obuf || !c->ocap || !c->aggs || !c->tie) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        goto fail;
    }
    if (set_params(c, params) != 0)
        goto fail;
    if (st->explain) {
        c->mode = MODE_EXPLAIN;
        c->rend = 1;
        *out = c;
        return 0;
    }
    jet_rc rc = jet_scan_open(&c->scan, st->db, td, st->proj);
    if (rc != JET_OK) {
        sql_cursor_fail_rc(c, rc, jet_db_error(st->db));
        goto fail;
    }
    if (c->opts.interrupt)
        jet_scan_set_interrupt(c->scan, c->opts.interrupt,
                               c->opts.interrupt_ctx);
    if (st->use_index) {
        rc = jet_index_cursor_open(&c->ix, st->db, td, st->index_no);
        if (rc != JET_OK) {
            sql_cursor_fail_rc(c, rc, jet_db_error(st->db));
            goto fail;
        }
        if (c->opts.interrupt)
            jet_index_set_interrupt(c->ix, c->opts.interrupt,
                                    c->opts.interrupt_ctx);
        int r = setup_keys(c);
        if (r < 0)
            goto fail;
        if (r > 0)
            to_scan(c);
        else if (st->reverse && jet_index_set_reverse(c->ix, true) != JET_OK)
            to_scan(c);
    }
    if (st->top == 0 || st->limit == 0)
        c->src_done = true;
    if (st->where_const) {
        /* WHERE 1=0 (a probe tools send) reads nothing */
        int t = sql_eval_cond(c, st->where);
        if (t < 0)
            goto fail;
        if (!t)
            c->src_done = true;
    }
    if (st->naggs) {
        c->mode = MODE_AGG;
        if (run_aggregate(c) != 0)
            goto fail;
    } else if (st->materialize) {
        c->mode = MODE_MAT;
        if (c->src_done) {
            c->rpos = c->rend = 0;
        } else if (run_materialized(c) != 0) {
            goto fail;
        }
    }
    *out = c;
    return 0;
fail:
    if (err)
        *err = c->err;
    sql_cursor_close(c);
    return -1;
}

static int fail_code(const sql_cursor *c)
{
    return c->err.rc < 0 ? c->err.rc : JET_EUNSUPPORTED;
}

int sql_cursor_next(sql_cursor *c)
{
    int rc;
    switch (c->mode) {
    case MODE_STREAM:
        if (c->src_done)
            return JET_DONE;
        rc = next_stream(c);
        return rc < 0 ? fail_code(c) : rc;
    case MODE_MAT:
        if (c->rpos >= c->rend)
            return JET_DONE;
        c->cur = c->rows[c->rpos++];
        return JET_OK;
    default:
        if (c->rpos >= c->rend)
            return JET_DONE;
        c->rpos++;
        return JET_OK;
    }
}

int sql_cursor_value(sql_cursor *c, size_t col, jet_value *out)
{
    const sql_stmt *st = c->st;
    if (col >= st->ncols) {
        sql_cursor_fail(c, "07009", 0, "no column %zu", col + 1);
        return fail_code(c);
    }
    switch (c->mode) {
    case MODE_MAT:
        if (!c->cur) {
            sql_cursor_fail(c, "24000", 0, "no current row");
            return fail_code(c);
        }
        *out = c->cur->out[col];
        return 0;
    case MODE_EXPLAIN: {
        sv s;
        size_t n;
        memset(&s, 0, sizeof s);
        s.k = K_TEXT;
        const char *t = sql_stmt_plan_text(st);
        uint16_t *u = sql_tmp_alloc(c, (strlen(t) + 1) * 2);
        if (!u)
            return JET_ENOMEM;
        for (n = 0; t[n]; n++)
            u[n] = (unsigned char)t[n];
        s.s = u;
        s.n = n;
        if (sql_sv_to_value(c, &s, JET_T_MEMO, &c->obuf[0], &c->ocap[0],
                            out) != 0)
            return JET_ENOMEM;
        return 0;
    }
    default:
        return live_value(c, col, out) == 0 ? 0 : fail_code(c);
    }
}

const jet_error *sql_cursor_core_error(const sql_cursor *c)
{
    return c->core_failed ? &c->core_err : NULL;
}

double sql_jet_days(int year, int month, int day, int hour, int minute,
                    int second, uint32_t fraction_ns)
{
    return sql_days_from_civil(year, month, day,
                               ((int64_t)hour * 3600 + minute * 60 + second)
                               * 1000 + fraction_ns / 1000000);
}

const sql_error *sql_cursor_error(const sql_cursor *c)
{
    return &c->err;
}

uint64_t sql_cursor_rows_read(const sql_cursor *c)
{
    return c->nread;
}

void sql_cursor_close(sql_cursor *c)
{
    if (!c)
        return;
    const sql_stmt *st = c->st;
    jet_index_cursor_close(c->ix);
    jet_scan_close(c->scan);
    if (c->cc) {
        for (uint16_t i = 0; i < st->td->ncols; i++) {
            free(c->cc[i].u16);
            free(c->cc[i].copy);
        }
        free(c->cc);
    }
    if (c->obuf) {
        for (size_t i = 0; i < st->ncols; i++)
            free(c->obuf[i]);
        free(c->obuf);
    }
    free(c->ocap);
    if (c->aggs) {
        for (size_t i = 0; i < st->naggs; i++) {
            free(c->aggs[i].buf);
            free(c->aggs[i].bbuf);
        }
        free(c->aggs);
    }
    free(c->tie);
    free(c->tie_text);
    free(c->params);
    free(c->param_text);
    free(c->rows);
    free(c->vtmp);
    free(c->ktmp);
    sql_tmp_free(&c->tmp);
    sql_tmp_free(&c->recmem);
    free(c);
}
