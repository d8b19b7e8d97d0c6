/*
 * op_scan.c - the leaf operators: read one table of a query block.
 *
 * Each table of a block (tab_plan, in plan order one join level) is read
 * by one of four methods (tab_plan.method):
 *  - M_SCAN: a table scan (jet_scan with the block's projection mask),
 *    or for a derived table its child cursor;
 *  - M_INDEX: an index walk or seek (jet_index_cursor; each entry's row
 *    is made current with jet_scan_fetch_row). Equality lists are sorted
 *    and de-duplicated, then sought one key tuple at a time; a bound that
 *    does not convert exactly to the key column's type scans instead (the
 *    level's conditions are applied to every row in every case). Key
 *    values are constants and parameters, or expressions over the tables
 *    before this one: an index nested-loop join seeks again per outer row;
 *  - M_HASH: the table's rows (its projected columns, pruned by the
 *    conditions on it alone) are stored once in chunk memory, bucketed by
 *    the hash of the inner join keys; each outer row probes one bucket;
 *  - M_LOOP: the same stored rows, all of them per outer row.
 * Values reach expressions through sql_col_value(), which caches per row
 * (tcur.gen) and gives NULL for a LEFT join's NULL-extended row.
 * No heap allocation per row on the scan and seek paths.
 */
#include "config.h"

#include "engine_int.h"
#include "func.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* sv -> index key of column jc: 0 exact, 1 no row can be equal (NULL,
 * inexact), -1 not convertible. */
static int key_from_sv(const sv *v, const jet_column *jc, jet_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = jc->type;
    sv t = *v;
    if (t.k == K_NULL)
        return 1;
    if (jc->type == JET_T_TEXT || jc->type == JET_T_MEMO) {
        /* a prefix key (jet_index_text_seekable) */
        if (t.k != K_TEXT)
            return -1;
        out->enc = JET_ENC_UCS2;
        out->data = (const uint8_t *)t.s;
        out->len = t.n * 2;
        return 0;
    }
    if (t.k == K_TEXT) {
        sv n;
        if (sql_text_to_number(t.s, t.n, &n) != 0)
            return -1;
        t = n;
    }
    if (t.k == K_DEC) {
        /* a Decimal (parameter): as an integer when whole, else a double
         * that keeps its exact Currency units when it has them */
        jet_i128 m = t.m, p = i128_of(1), r;
        for (int k = 0; k < t.scale; k++)
            p = i128_mul(p, i128_of(10));
        jet_i128 q = i128_divmod(m, p, &r);
        if (i128_sign(r) == 0 && i128_fits_i64(q)) {
            int64_t whole = i128_to_i64(q);
            memset(&t, 0, sizeof t);
            t.k = K_INT;
            t.i = whole;
        } else {
            sv dv = t;
            memset(&t, 0, sizeof t);
            t.k = K_DOUBLE;
            t.d = sql_dec_to_double(&dv);
            if (dv.scale <= 4) {
                jet_i128 u = dv.m;
                for (int k = dv.scale; k < 4; k++)
                    u = i128_mul(u, i128_of(10));
                if (i128_fits_i64(u)) {
                    t.has_units = true;
                    t.i = i128_to_i64(u);
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

/* Value of a key node: constant, parameter, or (join) an expression over
 * the outer tables' current rows. Text holding a number is converted
 * here so that no kept key points into the per-row scratch. 0 or -1. */
static int key_node_value(sql_cursor *c, const enode *n,
                          const jet_column *jc, sv *out)
{
    if (n->op == N_PARAM) {
        *out = c->params[n->param];
    } else if (n->op == N_CONST) {
        *out = n->konst;
    } else if (sql_eval(c, n, out) != 0) {
        return -1;
    }
    if (out->k == K_TEXT && jc->type != JET_T_TEXT &&
        jc->type != JET_T_MEMO) {
        /* a number in text converts now; other text makes key_from_sv
         * refuse the seek (the filtered scan converts it per row) */
        sv num;
        if (sql_text_to_number(out->s, out->n, &num) == 0)
            *out = num;
    }
    return 0;
}

/* Prepare the equality value lists of table tab: sorted, distinct,
 * exact. Returns 0, 1 when a bound forces the filtered scan, -1. */
static int setup_keys(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    const access_path *ap = &tp->ap;
    tcur *t = &c->t[tab];
    const jet_index *ix = &tp->td->indexes[ap->index_no];
    t->nkeyt = 1;
    for (uint16_t k = 0; k < ap->neq; k++) {
        const jet_column *jc = &tp->td->cols[ix->cols[k].col];
        sv *vals = t->eqvals[k];
        size_t n = 0;
        for (size_t i = 0; i < ap->eq_n[k]; i++) {
            sv v;
            if (key_node_value(c, ap->eq_v[k][i], jc, &v) != 0)
                return -1;
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
        t->eqn[k] = n;
        t->odo[k] = 0;
        t->nkeyt *= n;
    }
    jet_value kv;
    if (ap->neq < ix->ncols) {
        const jet_column *jc = &tp->td->cols[ix->cols[ap->neq].col];
        sv v;
        if (ap->lo) {
            if (key_node_value(c, ap->lo, jc, &v) != 0)
                return -1;
            if (key_from_sv(&v, jc, &kv) != 0)
                return 1;
        }
        if (ap->hi) {
            if (key_node_value(c, ap->hi, jc, &v) != 0)
                return -1;
            if (key_from_sv(&v, jc, &kv) != 0)
                return 1;
        }
    }
    return 0;
}

/* Seek the current key tuple (t->odo). 0 ok, 1 skip tuple, -1 error,
 * 2 fall back to scanning. */
static int seek_tuple(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    const access_path *ap = &tp->ap;
    tcur *t = &c->t[tab];
    const jet_index *ix = &tp->td->indexes[ap->index_no];
    jet_value lo[PLAN_MAX_KEYS + 1], hi[PLAN_MAX_KEYS + 1];
    uint16_t n = ap->neq;
    for (uint16_t k = 0; k < n; k++) {
        const jet_column *jc = &tp->td->cols[ix->cols[k].col];
        if (key_from_sv(&t->eqvals[k][t->odo[k]], jc, &lo[k]) != 0)
            return 1;
        hi[k] = lo[k];
    }
    uint16_t nlo = n, nhi = n;
    bool hi_incl = true;
    int op = JET_SEEK_GE;
    if (n < ix->ncols) {
        const jet_column *jc = &tp->td->cols[ix->cols[n].col];
        /* a text range: each bound seeks as its key prefix, inclusive
         * (every key that starts with the bound's inline codes may hold
         * a string inside the range: the filter decides), when the
         * bound allows it (jet_index_text_range_key), else scan */
        bool text = jc->type == JET_T_TEXT || jc->type == JET_T_MEMO;
        sv v;
        if (ap->lo) {
            if (key_node_value(c, ap->lo, jc, &v) != 0)
                return -1;
            if (key_from_sv(&v, jc, &lo[n]) != 0)
                return 2;
            if (text && !jet_index_text_range_key(c->db, tp->td,
                                                  ap->index_no, &lo[n]))
                return 2;
            nlo++;
            op = ap->lo_incl || text ? JET_SEEK_GE : JET_SEEK_GT;
        }
        if (ap->hi) {
            if (key_node_value(c, ap->hi, jc, &v) != 0)
                return -1;
            if (key_from_sv(&v, jc, &hi[n]) != 0)
                return 2;
            if (text && !jet_index_text_range_key(c->db, tp->td,
                                                  ap->index_no, &hi[n]))
                return 2;
            nhi++;
            hi_incl = ap->hi_incl || text;
        }
    }
    /* DATETIME keys: the index cursor compares dates chronologically to
     * the millisecond itself (jet_index_seek) */
    jet_rc rc = jet_index_seek(t->ix, lo, nlo, op);
    if (rc == JET_OK)
        rc = jet_index_set_upper(t->ix, hi, nhi, hi_incl);
    if (rc == JET_ELIMIT && !ap->lo && !ap->hi)
        return 1;               /* an equality key out of the column range */
    if (rc != JET_OK)
        return 2;
    return 0;
}

/* Next key tuple in odometer order; false when all were used. */
static bool next_tuple(sql_cursor *c, size_t tab)
{
    const access_path *ap = &c->st->tabs[tab].ap;
    tcur *t = &c->t[tab];
    for (int k = (int)ap->neq - 1; k >= 0; k--) {
        if (++t->odo[k] < t->eqn[k])
            return true;
        t->odo[k] = 0;
    }
    return false;
}

/* Position the first usable key tuple. 0, or JET_DONE, or -1. */
static int start_tuples(sql_cursor *c, size_t tab)
{
    tcur *t = &c->t[tab];
    if (t->nkeyt == 0)
        return JET_DONE;
    for (;;) {
        int r = seek_tuple(c, tab);
        if (r == 0)
            return 0;
        if (r == 2) {
            t->scanning = true;
            jet_scan_rewind(t->scan);
            return 0;
        }
        if (r < 0)
            return -1;
        if (!next_tuple(c, tab))
            return JET_DONE;
    }
}

/* ------------------------------------------------------ stored rows */

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* sv holds a 128-bit integer: its arrays start 16-byte aligned (chunk
 * memory is max_align_t aligned) */
static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* Evaluate the join key expressions ks (their tables current) into
 * vals[] and hash them; *null: one of them is NULL (no row can match).
 * Text and bytes in vals[] may point into the per-row scratch. */
static int keys_eval(sql_cursor *c, enode *const *ks, size_t n, sv *vals,
                     uint64_t *out, bool *null)
{
    uint64_t h = 1469598103934665603ull;
    *null = false;
    for (size_t i = 0; i < n; i++) {
        if (sql_eval(c, ks[i], &vals[i]) != 0)
            return -1;
        if (vals[i].k == K_NULL) {
            *null = true;
            return 0;
        }
        h = (h ^ sql_sv_hash(&vals[i])) * 1099511628211ull;
        h ^= h >> 29;
    }
    *out = h;
    return 0;
}

/* Bytes of the text / binary payload of key values (each aligned). */
static size_t keys_payload(const sv *v, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].k == K_TEXT)
            b += align8(v[i].n * 2);
        else if (v[i].k == K_BIN || v[i].k == K_GUID)
            b += align8(v[i].k == K_GUID ? 16 : v[i].len);
    return b;
}

/* Copy key values src into dst with their payloads at mem (room from
 * keys_payload). */
static void keys_copy(sv *dst, const sv *src, size_t n, uint8_t *mem)
{
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        dst[i] = src[i];
        if (src[i].k == K_TEXT) {
            if (src[i].n)
                memcpy(mem + off, src[i].s, src[i].n * 2);
            dst[i].s = (const uint16_t *)(void *)(mem + off);
            off += align8(src[i].n * 2);
        } else if (src[i].k == K_BIN || src[i].k == K_GUID) {
            size_t len = src[i].k == K_GUID ? 16 : src[i].len;
            if (len)
                memcpy(mem + off, src[i].p, len);
            dst[i].p = mem + off;
            off += align8(len);
        }
    }
}

/* Stored keys a equal probe keys b (as the = of the join condition). */
static bool keys_equal(const sv *a, const sv *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int r = 0;
        if (sql_sv_cmp(&a[i], &b[i], &r) != 0 || r != 0)
            return false;
    }
    return true;
}

/* Read every row of table tab (its conditions on itself applied) into
 * stored rows, bucketed by the inner key hash for M_HASH. */
static int build_rows(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    hrow **tail = &t->all;
    size_t n = 0;
    t->vals = NULL;
    t->null_row = false;
    if (tp->sub) {
        if (sql_cursor_open_child(&t->sub, tp->sub, c, c->params) != 0)
            return -1;
    }
    for (;;) {
        if ((c->nread & 255) == 0 &&
            ((c->opts.cancel && atomic_load(c->opts.cancel)) ||
             (c->opts.interrupt && c->opts.interrupt(c->opts.interrupt_ctx))))
            return sql_cursor_fail_rc(c, JET_EINTERRUPTED, NULL);
        int rc;
        if (tp->sub) {
            rc = sql_cursor_next(t->sub);
            if (rc < 0) {
                c->err = *sql_cursor_error(t->sub);
                return -1;
            }
        } else {
            rc = jet_scan_next(t->scan);
            if (rc < 0 && rc != JET_DONE)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
        }
        if (rc == JET_DONE)
            break;
        t->gen++;
        c->nread++;
        sql_tmp_reset(c);
        if (tp->build_filter) {
            int r = sql_eval_cond(c, tp->build_filter);
            if (r < 0)
                return -1;
            if (!r)
                continue;
        }
        uint64_t h = 0;
        size_t kbytes = 0;
        if (tp->method == M_HASH) {
            bool null;
            if (keys_eval(c, tp->hk_inner, tp->nhkeys, t->pkeys, &h,
                          &null) != 0)
                return -1;
            if (null)
                continue;       /* NULL never equals: no outer row joins */
            kbytes = align16(tp->nhkeys * sizeof(sv)) +
                     keys_payload(t->pkeys, tp->nhkeys);
        }
        size_t bytes = align16(sizeof(hrow)) + kbytes +
                       align8((tp->ncols ? tp->ncols : 1) * sizeof(jet_value));
        for (uint16_t col = 0; col < tp->ncols; col++) {
            if (!tp->proj[col])
                continue;
            const jet_value *v;
            if (sql_col_value(c, (uint16_t)tab, col, &v) != 0)
                return -1;
            if (!v->is_null && v->data)
                bytes += align8(v->len);
        }
        if (c->recbytes + bytes > sql_mem_budget(c))
            return sql_mem_exceeded(c, "a join");
        uint8_t *mem = sql_chunk_alloc(&c->recmem, bytes);
        if (!mem)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        c->recbytes += bytes;
        hrow *r = (hrow *)(void *)mem;
        size_t off = align16(sizeof(hrow));
        r->next = r->lnext = NULL;
        r->hash = h;
        r->keys = NULL;
        if (kbytes) {
            r->keys = (sv *)(void *)(mem + off);
            keys_copy(r->keys, t->pkeys, tp->nhkeys,
                      mem + off + align16(tp->nhkeys * sizeof(sv)));
            off += kbytes;
        }
        r->vals = (jet_value *)(void *)(mem + off);
        off += align8((tp->ncols ? tp->ncols : 1) * sizeof(jet_value));
        for (uint16_t col = 0; col < tp->ncols; col++) {
            jet_value *dst = &r->vals[col];
            if (!tp->proj[col]) {
                memset(dst, 0, sizeof *dst);
                dst->is_null = true;
                continue;
            }
            const jet_value *v;
            if (sql_col_value(c, (uint16_t)tab, col, &v) != 0)
                return -1;
            *dst = *v;
            if (!v->is_null && v->data) {
                memcpy(mem + off, v->data, v->len);
                dst->data = mem + off;
                off += align8(v->len);
            }
        }
        *tail = r;
        tail = &r->lnext;
        n++;
    }
    if (tp->sub) {
        sql_cursor_close(t->sub);
        t->sub = NULL;
    }
    if (tp->method == M_HASH) {
        size_t nb = 16;
        while (nb < n && nb < ((size_t)1 << 30))
            nb *= 2;
        t->buckets = calloc(nb, sizeof *t->buckets);
        hrow **tails = calloc(nb, sizeof *tails);
        if (!t->buckets || !tails) {
            free(tails);
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        }
        t->nbuckets = nb;
        for (hrow *r = t->all; r; r = r->lnext) {
            size_t b = (size_t)(r->hash & (nb - 1));
            if (tails[b])
                tails[b]->next = r;
            else
                t->buckets[b] = r;
            tails[b] = r;
        }
        free(tails);
    }
    t->built = true;
    return 0;
}

/* ------------------------------------------------------------- memo */

/* An index nested-loop join on a one-column unique integer key
 * (tab_plan.memo) remembers where each key's row is (or that none has
 * it): a key seen before costs a hash lookup and the row fetch instead
 * of a B-tree descent, so each key's index and data pages are read at
 * most once. Open addressing, at most MEMO_MAX keys (then new keys are
 * sought without being remembered). */
#define MEMO_MAX ((size_t)1 << 20)

static size_t memo_slot(const tcur *t, int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 32)) & (t->memo_cap - 1);
}

/* Start a probe for key: a remembered row (memo_hit) or a seek whose
 * outcome is remembered (memo_miss). */
static void memo_lookup(tcur *t, int64_t key)
{
    if (t->memo_cap) {
        for (size_t i = memo_slot(t, key);; i = (i + 1) & (t->memo_cap - 1)) {
            memo_ent *e = &t->memo[i];
            if (!e->state)
                break;
            if (e->key == key) {
                t->memo_cur = *e;
                t->memo_hit = true;
                return;
            }
        }
    }
    t->memo_key = key;
    t->memo_miss = true;
}

/* Remember the current probe's outcome (pgno/row, or none). Out of
 * memory only stops remembering. */
static void memo_store(tcur *t, bool found, uint32_t pgno, uint16_t row)
{
    t->memo_miss = false;
    if (t->memo_n >= MEMO_MAX)
        return;
    if ((t->memo_n + 1) * 2 > t->memo_cap) {
        size_t ncap = t->memo_cap ? t->memo_cap * 2 : 1024;
        memo_ent *g = calloc(ncap, sizeof *g);
        if (!g)
            return;
        memo_ent *old = t->memo;
        size_t ocap = t->memo_cap;
        t->memo = g;
        t->memo_cap = ncap;
        for (size_t i = 0; i < ocap; i++) {
            if (!old[i].state)
                continue;
            size_t j = memo_slot(t, old[i].key);
            while (g[j].state)
                j = (j + 1) & (ncap - 1);
            g[j] = old[i];
        }
        free(old);
    }
    size_t j = memo_slot(t, t->memo_key);
    while (t->memo[j].state)
        j = (j + 1) & (t->memo_cap - 1);
    t->memo[j].key = t->memo_key;
    t->memo[j].pgno = pgno;
    t->memo[j].row = row;
    t->memo[j].state = found ? 1 : 2;
    t->memo_n++;
}

/* --------------------------------------------------------------- API */

int sql_tab_open(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    t->gen = 1;
    t->cc = calloc(tp->ncols ? tp->ncols : 1, sizeof *t->cc);
    if (!t->cc)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    if (tp->method == M_HASH) {
        t->pkeys = calloc(tp->nhkeys ? tp->nhkeys : 1, sizeof *t->pkeys);
        if (!t->pkeys)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    if (!tp->td)
        return 0;
    jet_rc rc = jet_scan_open(&t->scan, c->db, tp->td, tp->proj);
    if (rc != JET_OK)
        return sql_cursor_fail_rc(c, rc, jet_db_error(c->db));
    if (c->opts.interrupt)
        jet_scan_set_interrupt(t->scan, c->opts.interrupt,
                               c->opts.interrupt_ctx);
    if (tp->method != M_INDEX)
        return 0;
    rc = jet_index_cursor_open(&t->ix, c->db, tp->td, tp->ap.index_no);
    if (rc != JET_OK)
        return sql_cursor_fail_rc(c, rc, jet_db_error(c->db));
    if (c->opts.interrupt)
        jet_index_set_interrupt(t->ix, c->opts.interrupt,
                                c->opts.interrupt_ctx);
    for (uint16_t k = 0; k < tp->ap.neq; k++) {
        t->eqvals[k] = sql_chunk_alloc(&c->recmem, (tp->ap.eq_n[k] + 1) *
                                                   sizeof(sv));
        if (!t->eqvals[k])
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    if (tp->ap.reverse && jet_index_set_reverse(t->ix, true) != JET_OK)
        t->scanning = true;     /* for good: the scan gives every row */
    return 0;
}

int sql_tab_start(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    t->vals = NULL;
    t->null_row = false;
    t->src_done = false;
    t->src_started = false;
    bool again = t->opened;
    t->opened = true;
    switch (tp->method) {
    case M_HASH: case M_LOOP:
        if (!t->built && build_rows(c, tab) != 0)
            return -1;
        t->vals = NULL;
        if (tp->method == M_LOOP) {
            t->cand = t->all;
            return 0;
        }
        if (keys_eval(c, tp->hk_outer, tp->nhkeys, t->pkeys, &t->probe,
                      &t->probe_null) != 0)
            return -1;
        if (!t->probe_null) {
            /* keep the probe's text past the per-row scratch */
            size_t pb = keys_payload(t->pkeys, tp->nhkeys);
            if (pb > t->pkcap) {
                uint8_t *g = realloc(t->pkbuf, pb);
                if (!g)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                t->pkbuf = g;
                t->pkcap = pb;
            }
            if (pb)
                keys_copy(t->pkeys, t->pkeys, tp->nhkeys, t->pkbuf);
        }
        t->cand = t->probe_null ? NULL
                  : t->buckets[t->probe & (t->nbuckets - 1)];
        return 0;
    case M_INDEX: {
        if (t->scanning && !tp->ap.keys_vary) {
            if (again)
                jet_scan_rewind(t->scan);
            return 0;
        }
        t->scanning = false;
        t->memo_hit = t->memo_miss = false;
        int r = setup_keys(c, tab);
        if (r < 0)
            return -1;
        if (r > 0) {
            t->scanning = true;     /* these keys cannot be sought */
            if (again || tp->ap.keys_vary)
                jet_scan_rewind(t->scan);
        } else if (tp->memo && t->nkeyt == 1) {
            jet_value kv;
            const jet_index *ix = &tp->td->indexes[tp->ap.index_no];
            if (key_from_sv(&t->eqvals[0][0], &tp->td->cols[ix->cols[0].col],
                            &kv) == 0)
                memo_lookup(t, kv.u.i);
        }
        return 0;
    }
    default:
        if (tp->sub) {
            if (t->sub) {
                sql_cursor_close(t->sub);
                t->sub = NULL;
            }
            return sql_cursor_open_child(&t->sub, tp->sub, c, c->params);
        }
        if (again)
            jet_scan_rewind(t->scan);
        return 0;
    }
}

int sql_tab_next(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    for (;;) {
        if (t->src_done)
            return JET_DONE;
        if ((c->nread & 255) == 0 &&
            ((c->opts.cancel && atomic_load(c->opts.cancel)) ||
             (c->opts.interrupt && c->opts.interrupt(c->opts.interrupt_ctx))))
            return sql_cursor_fail_rc(c, JET_EINTERRUPTED, NULL);
        jet_rc rc;
        if (tp->method == M_HASH || tp->method == M_LOOP) {
            hrow *r = t->cand;
            if (!r) {
                t->src_done = true;
                return JET_DONE;
            }
            if (tp->method == M_HASH) {
                t->cand = r->next;
                if (r->hash != t->probe ||
                    !keys_equal(r->keys, t->pkeys, tp->nhkeys))
                    continue;
            } else {
                t->cand = r->lnext;
            }
            t->vals = r->vals;
            t->gen++;
            return JET_OK;
        }
        if (tp->sub) {
            int r = sql_cursor_next(t->sub);
            if (r == JET_DONE) {
                t->src_done = true;
                return JET_DONE;
            }
            if (r < 0) {
                c->err = *sql_cursor_error(t->sub);
                return -1;
            }
            t->gen++;
            c->nread++;
            return JET_OK;
        }
        if (!t->ix || t->scanning) {
            rc = jet_scan_next(t->scan);
            if (rc == JET_DONE) {
                t->src_done = true;
                return JET_DONE;
            }
            if (rc != JET_OK)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            t->gen++;
            c->nread++;
            return JET_OK;
        }
        if (t->memo_hit) {
            /* a key sought before: its row, or none */
            t->memo_hit = false;
            t->src_done = true;     /* a unique key has one row */
            if (t->memo_cur.state != 1)
                return JET_DONE;
            c->nread++;
            rc = jet_scan_fetch_row(t->scan, t->memo_cur.pgno,
                                    t->memo_cur.row);
            if (rc == JET_ENOTFOUND)
                return JET_DONE;
            if (rc != JET_OK)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            t->gen++;
            return JET_OK;
        }
        if (!t->src_started) {
            t->src_started = true;
            int r = start_tuples(c, tab);
            if (r == JET_DONE) {
                if (t->memo_miss)
                    memo_store(t, false, 0, 0);
                t->src_done = true;
                return JET_DONE;
            }
            if (r < 0)
                return -1;
            continue;
        }
        uint32_t pgno;
        uint16_t row;
        rc = jet_index_next(t->ix, &pgno, &row);
        if (rc == JET_DONE) {
            for (;;) {
                if (!next_tuple(c, tab)) {
                    if (t->memo_miss)
                        memo_store(t, false, 0, 0);
                    t->src_done = true;
                    return JET_DONE;
                }
                int r = seek_tuple(c, tab);
                if (r == 0)
                    break;
                if (r < 0)
                    return -1;
                if (r == 2)
                    return sql_cursor_fail_rc(c, JET_EUNSUPPORTED,
                                              jet_index_error(t->ix));
            }
            continue;
        }
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_index_error(t->ix));
        c->nread++;
        rc = jet_scan_fetch_row(t->scan, pgno, row);
        if (rc == JET_ENOTFOUND)
            continue;
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
        if (t->memo_miss)
            memo_store(t, true, pgno, row);
        t->gen++;
        return JET_OK;
    }
}

void sql_tab_close(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    jet_index_cursor_close(t->ix);
    jet_scan_close(t->scan);
    sql_cursor_close(t->sub);
    if (t->cc) {
        for (uint16_t i = 0; i < tp->ncols; i++) {
            free(t->cc[i].u16);
            free(t->cc[i].copy);
        }
        free(t->cc);
    }
    free(t->buckets);
    free(t->pkeys);
    free(t->pkbuf);
    free(t->memo);
    memset(t, 0, sizeof *t);
}
