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
 *    before this one: an index nested-loop join seeks again per outer row
 *    (per distinct key with a memo, which keeps each key's row);
 *  - M_HASH: the table's rows (its projected columns, pruned by the
 *    conditions on it alone) are stored once in chunk memory, bucketed by
 *    the hash of the inner join keys; each outer row probes one bucket;
 *  - M_LOOP: the same stored rows, all of them per outer row.
 *    Past the memory budget a hash join is partitioned to the temporary
 *    file (grace hash join) where it can be, else the level stores
 *    nothing and reads its table again per outer row (rescan_next).
 * Values reach expressions through sql_col_value(), which caches per row
 * (tcur.gen) and gives NULL for a LEFT join's NULL-extended row.
 * No heap allocation per row on the scan and seek paths.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"
#include "spill.h"
#include "values.h"

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
        /* trailing spaces aside: Jet's index keys drop them, and the
         * engine compares text as if padded (sql_text_unpadded) */
        out->enc = JET_ENC_UCS2;
        out->data = (const uint8_t *)t.s;
        out->len = sql_text_unpadded(t.s, t.n) * 2;
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
                if (sql_sv_cmp(c->text_order, &vals[j - 1], &v, &cr) != 0)
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
        /* an index join's text key (the outer row's value) seeks only
         * when the sort order's tables cover it (as a text range bound
         * does): else this outer row reads the table (its filter keeps
         * the equality), never a walk of the whole index */
        if ((jc->type == JET_T_TEXT || jc->type == JET_T_MEMO) &&
            ap->eq_n[k] == 1 && ap->eq_v[k][0]->op != N_CONST &&
            ap->eq_v[k][0]->op != N_PARAM &&
            !jet_index_text_range_key(c->db, tp->td, ap->index_no, &lo[k]))
            return 2;
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
static bool keys_equal(jet_collation co, const sv *a, const sv *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int r = 0;
        if (sql_sv_cmp(co, &a[i], &b[i], &r) != 0 || r != 0)
            return false;
    }
    return true;
}

/* ------------------------------------------------- grace hash join */

/*
 * A hash join whose build side (the stored rows of an M_HASH level L)
 * passes the budget is partitioned (grace hash join): its rows so far and
 * the rest go to HJ_FANOUT partitions of the temporary file by 4 bits of
 * their key hash, instead of memory. The levels before L then run as
 * usual, but each outer row reaching L with a non-NULL key is written
 * (key values, hash, the projected columns of every table before L) to
 * the probe side of its key's partition, and L gives no row for it now
 * (not even a LEFT join's NULL-extended one: its matches are all in that
 * partition). An outer row with a NULL key matches nothing and is joined
 * at once. When level 0 is done, each partition in turn has its build
 * rows loaded into memory and bucketed, and its outer rows are read back
 * one by one, the tables before L made current with the stored values,
 * and the levels from L on run as always (LEFT join NULL rows included).
 * A partition whose build rows pass the budget is split into HJ_FANOUT
 * by the next 4 bits of the hash, both sides, up to 15 times. Rows come
 * partition by partition: the same rows as in memory, in another order.
 *
 * Only a level whose table is outside any outer-join group, or heads one
 * that no other group encloses, is partitioned (its NULL-extended row is
 * then decided by its own matches alone); otherwise (a join inside a
 * parenthesised outer-join side), and for a second join in one block,
 * the level reads its table again for each outer row (rescan_next).
 *
 * Encoded build row: u32 length, u32 0, u64 hash, the key values
 * (sql_spill_put_sv), per projected column the jet_value then its data
 * (padded to 8). Encoded outer row: u32 length, u32 0, u64 hash, the
 * probe key values, then per level before L: u8 null_row, u8 0, u16
 * null_from, u32 0, and unless null_row its projected columns as above.
 */
#define HJ_BITS 4
#define HJ_FANOUT (1u << HJ_BITS)
#define HJ_MAX_LEVEL (64 / HJ_BITS - 1)

typedef struct hj_part {
    sql_spill_stream build, probe;
    unsigned level;             /* hash bits used: HJ_BITS * (level + 1) */
} hj_part;

struct hj_spill {
    size_t tab;                 /* the partitioned table */
    size_t level;               /* its join level */
    hj_part *out[HJ_FANOUT];    /* partitions being written */
    hj_part **todo;             /* written, to join (oldest first) */
    size_t ntodo, todocap;
    hj_part *cur;               /* being joined */
    sql_spill_reader rd;        /* its outer rows */
    bool replay;                /* outer rows come from the file */
    sql_wbuf row;
    jet_value **pvals;          /* per table before the level: its
                                   restored columns */
};

/* Partition of hash h at split level lv (the hash mixed again, so bits
 * the bucket index uses do not decide the partitions alone). */
static unsigned hj_part_of(uint64_t h, unsigned lv)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (unsigned)(h >> (64 - HJ_BITS * (lv + 1))) & (HJ_FANOUT - 1);
}

static void hj_part_free(hj_part *p)
{
    if (!p)
        return;
    sql_spill_stream_free(&p->build);
    sql_spill_stream_free(&p->probe);
    free(p);
}

void sql_hash_spill_free(sql_cursor *c)
{
    struct hj_spill *hj = c->hj;
    if (!hj)
        return;
    for (unsigned i = 0; i < HJ_FANOUT; i++)
        hj_part_free(hj->out[i]);
    for (size_t i = 0; i < hj->ntodo; i++)
        hj_part_free(hj->todo[i]);
    free(hj->todo);
    hj_part_free(hj->cur);
    sql_spill_reader_free(&hj->rd);
    free(hj->row.p);
    if (hj->pvals) {
        for (size_t l = 0; l < hj->level; l++)
            free(hj->pvals[l]);
        free(hj->pvals);
    }
    free(hj);
    c->hj = NULL;
}

bool sql_hash_replaying(const sql_cursor *c, size_t *level)
{
    if (!c->hj || !c->hj->replay)
        return false;
    *level = c->hj->level;
    return true;
}

/* Append jet_value v and its data to b. */
static int put_value(sql_wbuf *b, const jet_value *v)
{
    int rc = sql_wbuf_put(b, v, sizeof *v);
    if (!rc && !v->is_null && v->data && v->len)
        rc = sql_wbuf_put(b, v->data, v->len) | sql_wbuf_align(b);
    return rc;
}

/* Read a jet_value written by put_value (data pointing into the row). */
static int get_value(const uint8_t **p, const uint8_t *end, jet_value *v)
{
    if ((size_t)(end - *p) < sizeof *v)
        return -1;
    memcpy(v, *p, sizeof *v);
    *p += sizeof *v;
    if (!v->is_null && v->data && v->len) {
        if ((size_t)(end - *p) < v->len)
            return -1;
        v->data = *p;
        *p += align8(v->len);
    } else if (!v->is_null) {
        v->data = NULL;
    }
    return 0;
}

/* Start a row in hj->row: length (filled by hj_row_end), hash, keys. */
static int hj_row_begin(struct hj_spill *hj, uint64_t h, const sv *k,
                        size_t nk)
{
    sql_wbuf *b = &hj->row;
    b->len = 0;
    int rc = sql_wbuf_put(b, NULL, 8) | sql_wbuf_put(b, &h, 8);
    for (size_t i = 0; i < nk && !rc; i++)
        rc = sql_spill_put_sv(b, &k[i]);
    return rc;
}

/* Write hj->row to side (0 build, 1 probe) of hash h's partition. */
static int hj_row_end(sql_cursor *c, int side, uint64_t h)
{
    struct hj_spill *hj = c->hj;
    sql_wbuf *b = &hj->row;
    if (b->len > UINT32_MAX / 2)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    uint32_t n = (uint32_t)b->len;
    memcpy(b->p, &n, 4);
    hj_part *p = hj->out[hj_part_of(h, hj->out[0]->level)];
    if (sql_spill_stream_put(c->spill, side ? &p->probe : &p->build, b->p,
                             b->len) != 0)
        return sql_spill_failed(c, "a join");
    return 0;
}

/* Open HJ_FANOUT partitions of split level lv. */
static int hj_open_parts(sql_cursor *c, unsigned lv)
{
    struct hj_spill *hj = c->hj;
    for (unsigned i = 0; i < HJ_FANOUT; i++) {
        hj->out[i] = calloc(1, sizeof *hj->out[i]);
        if (!hj->out[i])
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        hj->out[i]->level = lv;
    }
    return 0;
}

/* Flush the partitions being written; queue those with outer rows. */
static int hj_close_parts(sql_cursor *c)
{
    struct hj_spill *hj = c->hj;
    for (unsigned i = 0; i < HJ_FANOUT; i++) {
        hj_part *p = hj->out[i];
        if (!p)
            continue;
        hj->out[i] = NULL;
        if (sql_spill_stream_flush(c->spill, &p->build) != 0 ||
            sql_spill_stream_flush(c->spill, &p->probe) != 0) {
            hj_part_free(p);
            return sql_spill_failed(c, "a join");
        }
        if (!p->probe.rows) {
            hj_part_free(p);    /* no outer row: nothing to join */
            continue;
        }
        free(p->build.wb.p);
        memset(&p->build.wb, 0, sizeof p->build.wb);
        free(p->probe.wb.p);
        memset(&p->probe.wb, 0, sizeof p->probe.wb);
        if (hj->ntodo == hj->todocap &&
            sql_grow((void **)&hj->todo, &hj->todocap, hj->ntodo + 1,
                     sizeof *hj->todo) != 0) {
            hj_part_free(p);
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        }
        hj->todo[hj->ntodo++] = p;
    }
    return 0;
}

/* Write a build row (hash h, keys k, column values vals or, when NULL,
 * the table's current row) to its partition. */
static int hj_put_build(sql_cursor *c, size_t tab, uint64_t h, const sv *k,
                        const jet_value *vals)
{
    const tab_plan *tp = &c->st->tabs[tab];
    struct hj_spill *hj = c->hj;
    int rc = hj_row_begin(hj, h, k, tp->nhkeys);
    for (uint16_t col = 0; col < tp->ncols && !rc; col++) {
        if (!tp->proj[col])
            continue;
        const jet_value *v = vals ? &vals[col] : NULL;
        if (!v && sql_col_value(c, (uint16_t)tab, col, &v) != 0)
            return -1;
        rc = put_value(&hj->row, v);
    }
    if (rc)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    return hj_row_end(c, 0, h);
}

/* Forget table t's stored rows (their memory back to the budget). */
static void drop_rows(sql_cursor *c, tcur *t)
{
    sql_mem_reset(&t->hmem);
    c->recbytes -= t->hbytes;
    t->hbytes = 0;
    t->all = t->cand = NULL;
    if (t->buckets)
        memset(t->buckets, 0, t->nbuckets * sizeof *t->buckets);
}

/* Join level of table tab. */
static size_t level_of(const sql_stmt *st, size_t tab)
{
    size_t L = 0;
    while (L < st->ntabs && st->order_tabs[L] != tab)
        L++;
    return L;
}

/* Whether the stored rows of level tab can be partitioned (a grace hash
 * join): a hash join, the only one partitioned in the block, whose table
 * is outside any outer-join group or heads one no other group encloses
 * (see above). */
static bool hj_partitionable(const sql_cursor *c, size_t tab)
{
    const sql_stmt *st = c->st;
    const tab_plan *tp = &st->tabs[tab];
    size_t L = level_of(st, tab);
    return !c->hj && tp->method == M_HASH && L > 0 && L < st->ntabs &&
           (tp->ginner < 0 ||
            (tp->ginner == (int32_t)tab && tp->gparent < 0));
}

/* The build side of level tab passed the budget and can be partitioned
 * (hj_partitionable): partition it, the rows stored so far first. 0 or
 * -1. */
static int hj_begin(sql_cursor *c, size_t tab)
{
    const sql_stmt *st = c->st;
    tcur *t = &c->t[tab];
    size_t L = level_of(st, tab);
    if (!sql_cursor_spill(c, "a join"))
        return -1;
    c->hj = calloc(1, sizeof *c->hj);
    if (!c->hj)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->hj->tab = tab;
    c->hj->level = L;
    c->hj->pvals = calloc(L, sizeof *c->hj->pvals);
    if (!c->hj->pvals)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (size_t l = 0; l < L; l++) {
        const tab_plan *pp = &st->tabs[st->order_tabs[l]];
        c->hj->pvals[l] = calloc(pp->ncols ? pp->ncols : 1, sizeof(jet_value));
        if (!c->hj->pvals[l])
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    if (hj_open_parts(c, 0) != 0)
        return -1;
    for (hrow *r = t->all; r; r = r->lnext)
        if (hj_put_build(c, tab, r->hash, r->keys, r->vals) != 0)
            return -1;
    drop_rows(c, t);
    return 0;
}

/* An outer row reached the partitioned level tab with probe keys
 * t->pkeys (hash t->probe, not NULL): write it to its partition. */
static int hj_put_probe(sql_cursor *c, size_t tab)
{
    const sql_stmt *st = c->st;
    const tab_plan *tp = &st->tabs[tab];
    tcur *t = &c->t[tab];
    struct hj_spill *hj = c->hj;
    int rc = hj_row_begin(hj, t->probe, t->pkeys, tp->nhkeys);
    for (size_t l = 0; l < hj->level && !rc; l++) {
        size_t pt = st->order_tabs[l];
        const tab_plan *pp = &st->tabs[pt];
        const tcur *ptc = &c->t[pt];
        uint8_t head[8] = { ptc->null_row ? 1 : 0, 0 };
        memcpy(head + 2, &ptc->null_from, 2);
        rc = sql_wbuf_put(&hj->row, head, 8);
        if (ptc->null_row)
            continue;
        for (uint16_t col = 0; col < pp->ncols && !rc; col++) {
            if (!pp->proj[col])
                continue;
            const jet_value *v;
            if (sql_col_value(c, (uint16_t)pt, col, &v) != 0)
                return -1;
            rc = put_value(&hj->row, v);
        }
    }
    if (rc)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    return hj_row_end(c, 1, t->probe);
}

/* Bytes of level tab's value array (one jet_value per column). */
static size_t vals_bytes(const tab_plan *tp)
{
    return align8((tp->ncols ? tp->ncols : 1) * sizeof(jet_value));
}

/*
 * A stored row of level tab, bytes long (the hrow, kbytes of key room,
 * then the value array and its data), with hash h, from t->hmem and
 * counted against the budget (c->recbytes, t->hbytes): r->keys is the
 * key room (NULL when kbytes is 0), r->vals where the value array goes.
 * NULL when out of memory (c failed).
 */
static hrow *hrow_new(sql_cursor *c, size_t tab, size_t bytes, size_t kbytes,
                      uint64_t h)
{
    tcur *t = &c->t[tab];
    uint8_t *mem = sql_mem_alloc(&t->hmem, bytes);
    if (!mem) {
        sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        return NULL;
    }
    c->recbytes += bytes;
    t->hbytes += bytes;
    hrow *r = (hrow *)(void *)mem;
    size_t off = align16(sizeof(hrow));
    r->next = r->lnext = NULL;
    r->hash = h;
    r->keys = kbytes ? (sv *)(void *)(mem + off) : NULL;
    r->vals = (jet_value *)(void *)(mem + off + kbytes);
    return r;
}

/* Store one encoded build row (a copy in t->hmem) for level tab. */
static int hj_store_build(sql_cursor *c, size_t tab, const uint8_t *row,
                          size_t len, hrow ***tail)
{
    const tab_plan *tp = &c->st->tabs[tab];
    size_t nk = tp->nhkeys, kbytes = align16(nk * sizeof(sv));
    uint64_t h;
    memcpy(&h, row + 8, 8);
    hrow *r = hrow_new(c, tab, align16(sizeof(hrow)) + kbytes +
                       vals_bytes(tp) + align8(len), kbytes, h);
    if (!r)
        return -1;
    uint8_t *copy = (uint8_t *)r->vals + vals_bytes(tp);
    memcpy(copy, row, len);
    const uint8_t *p = copy + 16, *end = copy + len;
    for (size_t i = 0; i < nk; i++)
        if (sql_spill_get_sv(&p, end, &r->keys[i]) != 0)
            return sql_spill_failed(c, "a join");
    for (uint16_t col = 0; col < tp->ncols; col++) {
        jet_value *v = &r->vals[col];
        if (!tp->proj[col]) {
            memset(v, 0, sizeof *v);
            v->is_null = true;
        } else if (get_value(&p, end, v) != 0) {
            return sql_spill_failed(c, "a join");
        }
    }
    **tail = r;
    *tail = &r->lnext;
    return 0;
}

static int bucket_rows(sql_cursor *c, size_t tab, size_t n);

/* Route every row of stream s (side 0 build, 1 probe) to the partitions
 * being written (the next split level). */
static int hj_route(sql_cursor *c, const sql_spill_stream *s, int side)
{
    struct hj_spill *hj = c->hj;
    sql_spill_reader rd;
    sql_spill_reader_init(&rd, s);
    for (;;) {
        const uint8_t *row;
        size_t len;
        int rc = sql_spill_reader_next(c->spill, &rd, &row, &len);
        if (rc == JET_DONE)
            break;
        uint64_t h;
        if (rc != 0 || len < 16) {
            sql_spill_reader_free(&rd);
            return sql_spill_failed(c, "a join");
        }
        if (sql_tick(c) != 0) {
            sql_spill_reader_free(&rd);
            return -1;
        }
        memcpy(&h, row + 8, 8);
        hj_part *p = hj->out[hj_part_of(h, hj->out[0]->level)];
        if (sql_spill_stream_put(c->spill, side ? &p->probe : &p->build,
                                 row, len) != 0) {
            sql_spill_reader_free(&rd);
            return sql_spill_failed(c, "a join");
        }
    }
    sql_spill_reader_free(&rd);
    return 0;
}

/* Load the next queued partition's build rows into memory (splitting a
 * partition they do not fit in); 1 loaded, 0 none left, -1. */
static int hj_load_next(sql_cursor *c)
{
    struct hj_spill *hj = c->hj;
    size_t tab = hj->tab;
    tcur *t = &c->t[tab];
    for (;;) {
        hj_part_free(hj->cur);
        hj->cur = NULL;
        sql_spill_reader_free(&hj->rd);
        drop_rows(c, t);
        if (!hj->ntodo)
            return 0;
        hj_part *p = hj->todo[0];
        memmove(hj->todo, hj->todo + 1, --hj->ntodo * sizeof *hj->todo);
        hj->cur = p;
        hrow **tail = &t->all;
        size_t n = 0;
        bool fits = true;
        sql_spill_reader rd;
        sql_spill_reader_init(&rd, &p->build);
        for (;;) {
            const uint8_t *row;
            size_t len;
            int rc = sql_spill_reader_next(c->spill, &rd, &row, &len);
            if (rc == JET_DONE)
                break;
            if (rc != 0 || len < 16) {
                sql_spill_reader_free(&rd);
                return sql_spill_failed(c, "a join");
            }
            if (sql_tick(c) != 0) {
                sql_spill_reader_free(&rd);
                return -1;
            }
            if (c->recbytes + len + 256 > sql_mem_budget(c) && n > 0 &&
                p->level < HJ_MAX_LEVEL) {
                fits = false;
                break;
            }
            if (hj_store_build(c, tab, row, len, &tail) != 0) {
                sql_spill_reader_free(&rd);
                return -1;
            }
            n++;
        }
        sql_spill_reader_free(&rd);
        if (fits) {
            if (bucket_rows(c, tab, n) != 0)
                return -1;
            sql_spill_reader_init(&hj->rd, &p->probe);
            return 1;
        }
        /* too big: split both sides by the next hash bits */
        drop_rows(c, t);
        if (hj_open_parts(c, p->level + 1) != 0 ||
            hj_route(c, &p->build, 0) != 0 || hj_route(c, &p->probe, 1) != 0 ||
            hj_close_parts(c) != 0)
            return -1;
    }
}

int sql_hash_replay_start(sql_cursor *c)
{
    struct hj_spill *hj = c->hj;
    if (!hj || hj->replay)
        return 0;
    if (hj_close_parts(c) != 0)
        return -1;
    hj->replay = true;
    return 1;
}

int sql_hash_replay_next(sql_cursor *c, size_t *level)
{
    const sql_stmt *st = c->st;
    struct hj_spill *hj = c->hj;
    size_t tab = hj->tab;
    const tab_plan *tp = &st->tabs[tab];
    tcur *t = &c->t[tab];
    *level = hj->level;
    for (;;) {
        const uint8_t *row;
        size_t len;
        int rc = hj->cur ? sql_spill_reader_next(c->spill, &hj->rd, &row, &len)
                         : JET_DONE;
        if (rc == JET_DONE) {
            int r = hj_load_next(c);
            if (r <= 0)
                return r < 0 ? -1 : JET_DONE;
            continue;
        }
        if (rc != 0 || len < 16)
            return sql_spill_failed(c, "a join");
        if (sql_tick(c) != 0)
            return -1;
        const uint8_t *p = row + 16, *end = row + len;
        memcpy(&t->probe, row + 8, 8);
        for (size_t i = 0; i < tp->nhkeys; i++)
            if (sql_spill_get_sv(&p, end, &t->pkeys[i]) != 0)
                return sql_spill_failed(c, "a join");
        for (size_t l = 0; l < hj->level; l++) {
            size_t pt = st->order_tabs[l];
            const tab_plan *pp = &st->tabs[pt];
            tcur *ptc = &c->t[pt];
            if ((size_t)(end - p) < 8)
                return sql_spill_failed(c, "a join");
            ptc->null_row = p[0] != 0;
            memcpy(&ptc->null_from, p + 2, 2);
            p += 8;
            ptc->gen++;
            ptc->vals = hj->pvals[l];
            if (ptc->null_row)
                continue;
            for (uint16_t col = 0; col < pp->ncols; col++) {
                jet_value *v = &hj->pvals[l][col];
                if (!pp->proj[col]) {
                    memset(v, 0, sizeof *v);
                    v->is_null = true;
                } else if (get_value(&p, end, v) != 0) {
                    return sql_spill_failed(c, "a join");
                }
            }
        }
        /* level L on this partition's rows for the row's key */
        t->matched = false;
        t->null_done = false;
        t->null_row = false;
        t->vals = NULL;
        t->src_done = false;
        t->probe_null = false;
        t->cand = t->buckets[t->probe & (t->nbuckets - 1)];
        t->in_group = false;
        return JET_OK;
    }
}

/* Bytes a copy of table tab's current row takes (row_vals_copy): its
 * jet_value per column, then the projected values' data, each padded to
 * 8. 0 or -1. */
static int row_vals_bytes(sql_cursor *c, size_t tab, size_t *out)
{
    const tab_plan *tp = &c->st->tabs[tab];
    size_t bytes = vals_bytes(tp);
    for (uint16_t col = 0; col < tp->ncols; col++) {
        if (!tp->proj[col])
            continue;
        const jet_value *v;
        if (sql_col_value(c, (uint16_t)tab, col, &v) != 0)
            return -1;
        if (!v->is_null && v->data)
            bytes += align8(v->len);
    }
    *out = bytes;
    return 0;
}

/* Copy table tab's current row into mem (room from row_vals_bytes for
 * this row): the projected columns' values with their data, unread
 * columns NULL. Returns the values at mem, NULL on error. */
static jet_value *row_vals_copy(sql_cursor *c, size_t tab, uint8_t *mem)
{
    const tab_plan *tp = &c->st->tabs[tab];
    jet_value *vals = (jet_value *)(void *)mem;
    size_t off = vals_bytes(tp);
    for (uint16_t col = 0; col < tp->ncols; col++) {
        jet_value *dst = &vals[col];
        if (!tp->proj[col]) {
            memset(dst, 0, sizeof *dst);
            dst->is_null = true;
            continue;
        }
        const jet_value *v;
        if (sql_col_value(c, (uint16_t)tab, col, &v) != 0)
            return NULL;        /* cached by row_vals_bytes: cannot fail */
        *dst = *v;
        if (!v->is_null && v->data) {
            memcpy(mem + off, v->data, v->len);
            dst->data = mem + off;
            off += align8(v->len);
        }
    }
    return vals;
}

/*
 * Stored keys a and b (a row's nk key values each, none NULL) are one key
 * for every probe: whatever value a probe has, it equals both or neither
 * (keys_equal). Text: equal as the engine compares (case and trailing
 * spaces aside), an equivalence (sql_text_cmp: equal sort keys); other
 * kinds: the same kind and the same data, since comparisons across kinds
 * (Integer with Double, Currency with an inexact Double, Date with a
 * number) are not transitive.
 */
static bool keys_same(jet_collation co, const sv *a, const sv *b, size_t nk)
{
    for (size_t i = 0; i < nk; i++) {
        const sv *x = &a[i], *y = &b[i];
        if (x->k != y->k)
            return false;
        switch (x->k) {
        case K_TEXT:
            if (sql_text_cmp(co, x->s, x->n, y->s, y->n) != 0)
                return false;
            break;
        case K_BOOL: case K_INT: case K_MONEY:
            if (x->i != y->i)
                return false;
            break;
        case K_DOUBLE: case K_DATE:
            if (memcmp(&x->d, &y->d, sizeof x->d) != 0 ||
                x->has_units != y->has_units || x->has_dec != y->has_dec ||
                (x->has_units && x->i != y->i) ||
                (x->has_dec && (x->scale != y->scale ||
                                i128_cmp(x->m, y->m) != 0)))
                return false;
            break;
        case K_DEC:
            if (x->scale != y->scale || i128_cmp(x->m, y->m) != 0)
                return false;
            break;
        case K_BIN: case K_GUID: {
            size_t lx = x->k == K_GUID ? 16 : x->len;
            size_t ly = y->k == K_GUID ? 16 : y->len;
            if (lx != ly || (lx && memcmp(x->p, y->p, lx) != 0))
                return false;
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

/* Reverse the list of stored rows linked by lnext. */
static hrow *reverse_rows(hrow *r)
{
    hrow *prev = NULL;
    while (r) {
        hrow *next = r->lnext;
        r->lnext = prev;
        prev = r;
        r = next;
    }
    return prev;
}

/*
 * Group t's stored rows by key (hrow.dup, in reading order; one chain
 * entry per group, the group's first row): a probe then compares its key
 * once per distinct key of its bucket, not once per stored row, and its
 * rows come in reading order as before. Walks the rows backwards, so each
 * row met ahead of its group's first one becomes that group's head. False
 * (nothing grouped) when two different keys of a bucket have the same full
 * hash: a probe could then equal both (mixed numeric kinds, two Dates of
 * one millisecond), and only the plain chain keeps its rows in order.
 */
static bool group_rows(sql_cursor *c, const tab_plan *tp, tcur *t, size_t nb)
{
    bool ok = true;
    t->all = reverse_rows(t->all);
    for (hrow *r = t->all; r; r = r->lnext) {
        hrow **pp = &t->buckets[r->hash & (nb - 1)];
        r->dup = NULL;
        for (hrow *h; (h = *pp) != NULL; pp = &h->next) {
            if (h->hash != r->hash)
                continue;
            if (!keys_same(c->text_order, h->keys, r->keys, tp->nhkeys)) {
                ok = false;
                break;
            }
            r->dup = h;         /* r comes first: the group's head now */
            r->next = h->next;
            *pp = r;
            break;
        }
        if (!ok)
            break;
        if (!r->dup) {
            r->next = *pp;      /* a new key: at the chain's end */
            *pp = r;
        }
    }
    t->all = reverse_rows(t->all);
    return ok;
}

/* Chain t's n stored rows (t->all) of level tab into hash buckets:
 * grouped by key where it can be (group_rows), else every row in the
 * chain, in reading order. */
static int bucket_rows(sql_cursor *c, size_t tab, size_t n)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    size_t nb = 16;
    while (nb < n && nb < ((size_t)1 << 30))
        nb *= 2;
    if (nb > t->nbuckets) {
        free(t->buckets);
        t->buckets = calloc(nb, sizeof *t->buckets);
        t->nbuckets = t->buckets ? nb : 0;
    } else {
        nb = t->nbuckets;
        memset(t->buckets, 0, nb * sizeof *t->buckets);
    }
    if (!t->buckets)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    t->hgrouped = group_rows(c, tp, t, nb);
    if (t->hgrouped)
        return 0;
    memset(t->buckets, 0, nb * sizeof *t->buckets);
    hrow **tails = calloc(nb, sizeof *tails);
    if (!tails)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    for (hrow *r = t->all; r; r = r->lnext) {
        size_t b = (size_t)(r->hash & (nb - 1));
        r->next = r->dup = NULL;
        if (tails[b])
            tails[b]->next = r;
        else
            t->buckets[b] = r;
        tails[b] = r;
    }
    free(tails);
    return 0;
}

/* Every 256 rows read (c->nread), whether the run was asked to stop
 * (sql_check_cancel): 0, or -1 when stopped. */
static int read_tick(sql_cursor *c)
{
    return (c->nread & 255) == 0 ? sql_check_cancel(c) : 0;
}

/* The next row of level tab's source, its derived cursor or else its
 * scan, after read_tick; a row is counted (t->gen, c->nread). JET_OK,
 * JET_DONE, or -1 (c failed). */
static int source_next(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    if (read_tick(c) != 0)
        return -1;
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
        return JET_DONE;
    t->gen++;
    c->nread++;
    return JET_OK;
}

/* Read every row of table tab (its conditions on itself applied) into
 * stored rows, bucketed by the inner key hash for M_HASH; past the
 * budget into the partitions of a grace hash join (hj_begin). */
static int build_rows(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    hrow **tail = &t->all;
    size_t n = 0;
    /* a hashed subquery's rows stay while its enclosing cursors run: the
     * budget is the statement's, less what those hold already */
    size_t budget = sql_mem_budget(c), outside = 0;
    if (c->st->hashed)
        for (const sql_cursor *o = c->outer; o; o = o->outer)
            outside += sql_mem_held(o);
    budget = outside < budget ? budget - outside : 0;
    t->vals = NULL;
    t->null_row = false;
    t->hmem.block = sql_mem_block_for(sql_mem_budget(c));
    if (tp->sub) {
        if (sql_cursor_open_child(&t->sub, tp->sub, c, c->params) != 0)
            return -1;
    }
    for (;;) {
        int rc = source_next(c, tab);
        if (rc < 0)
            return -1;
        if (rc == JET_DONE)
            break;
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
            if (c->hj && c->hj->tab == tab) {
                /* partitioned: the row goes to the file */
                if (hj_put_build(c, tab, h, t->pkeys, NULL) != 0)
                    return -1;
                continue;
            }
        }
        size_t vbytes;
        if (row_vals_bytes(c, tab, &vbytes) != 0)
            return -1;
        size_t bytes = align16(sizeof(hrow)) + kbytes + vbytes;
        if (c->recbytes + bytes > budget) {
            if (!hj_partitionable(c, tab)) {
                /* past the budget and not partitionable (a join inside
                 * an outer join's parenthesised side, a second hash join,
                 * a nested loop): store nothing, read the table again
                 * for each outer row instead (rescan_next) */
                drop_rows(c, t);
                if (tp->sub) {
                    sql_cursor_close(t->sub);
                    t->sub = NULL;
                }
                t->rescan = true;
                t->built = true;
                return 0;
            }
            if (hj_begin(c, tab) != 0)
                return -1;
            tail = &t->all;
            n = 0;
            if (hj_put_build(c, tab, h, t->pkeys, NULL) != 0)
                return -1;
            continue;
        }
        hrow *r = hrow_new(c, tab, bytes, kbytes, h);
        if (!r)
            return -1;
        if (kbytes)
            keys_copy(r->keys, t->pkeys, tp->nhkeys,
                      (uint8_t *)r->keys + align16(tp->nhkeys * sizeof(sv)));
        if (!row_vals_copy(c, tab, (uint8_t *)r->vals))
            return -1;
        *tail = r;
        tail = &r->lnext;
        n++;
    }
    if (tp->sub) {
        sql_cursor_close(t->sub);
        t->sub = NULL;
    }
    if (tp->method == M_HASH && bucket_rows(c, tab, n) != 0)
        return -1;
    t->built = true;
    return 0;
}

/* ------------------------------------------------------------- memo */

/*
 * An index nested-loop join on a one-column unique integer key
 * (tab_plan.memo) remembers each key's outcome: no row, or the row, its
 * projected values copied once into t->hmem (as a hash join stores its
 * rows; when the key comes back, under tab_plan.memo_defer), or only
 * where the row is once the copies would pass half the memory budget
 * (then a repeated key fetches the row again). A key seen
 * before costs one hash probe, like a hash join's, instead of a B-tree
 * descent and a row decode, so the join reads only the inner pages the
 * outer rows reference, each at most once per distinct key. Open
 * addressing; the table and the copies count in the cursor's budget
 * (c->recbytes, t->hbytes); past half of it, or past MEMO_MAX keys, new
 * keys are sought without being remembered.
 */
#define MEMO_MAX ((size_t)1 << 22)
/* the most slots a memo starts with (memo_first) */
#define MEMO_FIRST_MAX ((size_t)1 << 15)

static size_t memo_slot(const tcur *t, int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 32)) & (t->memo_cap - 1);
}

/* Look key up: a remembered outcome (memo_hit, memo_cur, memo_at) or a
 * seek whose outcome is to be remembered (memo_miss, memo_key). */
static void memo_lookup(tcur *t, int64_t key)
{
    if (t->memo_cap) {
        for (size_t i = memo_slot(t, key);; i = (i + 1) & (t->memo_cap - 1)) {
            const memo_ent *e = &t->memo[i];
            if (!e->state)
                break;
            if (e->key == key) {
                t->memo_cur = *e;
                t->memo_at = i;
                t->memo_hit = true;
                return;
            }
        }
    }
    t->memo_key = key;
    t->memo_miss = true;
}

/* Bytes the memo of level t may hold: half the budget (the rest stays
 * for the hash joins, groups and sorts of the same cursor). */
static bool memo_fits(const sql_cursor *c, size_t more)
{
    size_t half = sql_mem_budget(c) / 2;
    return more <= half && c->recbytes <= half - more;
}

/* Room for one more key in t's table (grown, within the budget)? */
static bool memo_reserve(sql_cursor *c, tcur *t)
{
    if (t->memo_n >= MEMO_MAX)
        return false;
    if ((t->memo_n + 1) * 2 <= t->memo_cap)
        return true;
    size_t ncap = t->memo_cap ? t->memo_cap * 2
                              : t->memo_first ? t->memo_first : 1024;
    if (!t->memo_cap && ncap > 1024 && !memo_fits(c, ncap * sizeof(memo_ent)))
        ncap = 1024;
    size_t nbytes = ncap * sizeof(memo_ent);
    size_t obytes = t->memo_cap * sizeof(memo_ent);
    if (!memo_fits(c, nbytes - obytes))
        return false;
    memo_ent *g = calloc(ncap, sizeof *g);
    if (!g)
        return false;
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
    c->recbytes += nbytes - obytes;
    t->hbytes += nbytes - obytes;
    return true;
}

/* The slot of key: its entry, or a new empty one (state 0, key set) when
 * there is room; NULL when the memo is full. */
static memo_ent *memo_put(sql_cursor *c, tcur *t, int64_t key)
{
    if (t->memo_cap) {
        for (size_t i = memo_slot(t, key);; i = (i + 1) & (t->memo_cap - 1)) {
            memo_ent *e = &t->memo[i];
            if (!e->state)
                break;
            if (e->key == key)
                return e;
        }
    }
    if (!memo_reserve(c, t))
        return NULL;
    size_t j = memo_slot(t, key);
    while (t->memo[j].state)
        j = (j + 1) & (t->memo_cap - 1);
    memo_ent *e = &t->memo[j];
    memset(e, 0, sizeof *e);
    e->key = key;
    t->memo_n++;
    return e;
}

/* A copy of the projected values of table tab's current row in t->hmem
 * while the memo stays within its share of the budget, else NULL (the
 * row is fetched again when its key comes back). 0 or -1. */
static int memo_copy(sql_cursor *c, size_t tab, const jet_value **out)
{
    tcur *t = &c->t[tab];
    size_t bytes;
    *out = NULL;
    if (row_vals_bytes(c, tab, &bytes) != 0)
        return -1;
    uint8_t *mem = memo_fits(c, bytes) ? sql_mem_alloc(&t->hmem, bytes)
                                       : NULL;
    if (!mem)
        return 0;
    c->recbytes += bytes;
    t->hbytes += bytes;
    *out = row_vals_copy(c, tab, mem);
    return *out ? 0 : -1;
}

/* Remember the current probe's outcome: no row (found false), or the row
 * at pgno/row, current in t's scan, with a copy of its values when it
 * fits (t->vals then points at the copy: the same values, the column
 * cache stays valid) - or, under tab_plan.memo_defer, read once: its
 * values are copied when the key comes back (a key met once, most of the
 * keys when the outer rows are few, costs no copy). Running out of room
 * only stops remembering. 0, or -1 on a read error. */
static int memo_store(sql_cursor *c, size_t tab, bool found, uint32_t pgno,
                      uint16_t row)
{
    tcur *t = &c->t[tab];
    t->memo_miss = false;
    memo_ent *e = memo_put(c, t, t->memo_key);
    if (!e)
        return 0;
    e->state = found ? 1 : 2;
    e->pgno = pgno;
    e->row = row;
    e->vals = NULL;
    e->reads = 1;
    if (found && !c->st->tabs[tab].memo_defer) {
        const jet_value *vals;
        /* (memo_copy does not touch the table: e stays valid) */
        if (memo_copy(c, tab, &vals) != 0)
            return -1;
        e->vals = vals;
        if (vals)
            t->vals = vals;
    }
    return 0;
}

typedef struct memo_leaf_ctx {
    sql_cursor *c;
    tcur *t;
} memo_leaf_ctx;

/* jet_index_leaf_int_entries callback: remember where key's row is
 * (keys known already keep what they have). */
static int memo_learn(void *ctx, int64_t key, uint32_t pgno, uint16_t row)
{
    memo_leaf_ctx *m = ctx;
    memo_ent *e = memo_put(m->c, m->t, key);
    if (!e) {
        m->t->memo_leaf_off = true;     /* full */
        return 1;
    }
    if (!e->state) {
        e->state = 1;
        e->pgno = pgno;
        e->row = row;
    }
    return 0;
}

/* A descent of level tab found its key's entry: remember the rest of
 * the leaf too (tab_plan.memo_leaf), so the keys beside it cost no
 * descent. Learning is only a shortcut: an entry it cannot read stops
 * it, the seeks go on as before. */
static void memo_learn_leaf(sql_cursor *c, size_t tab)
{
    tcur *t = &c->t[tab];
    memo_leaf_ctx m = { c, t };
    if (jet_index_leaf_int_entries(t->ix, memo_learn, &m) != JET_OK)
        t->memo_leaf_off = true;
}

/* Start a memoised probe of level tab (the key one outer expression,
 * tab_plan.memo): a remembered key (memo_hit), else the key as the one
 * key tuple to seek, its outcome to remember (memo_miss), or no tuple
 * when no integer key can equal it (NULL, a fraction). 0, 1 when the
 * value needs the general path (setup_keys), -1. */
static int memo_start(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    const jet_index *ix = &tp->td->indexes[tp->ap.index_no];
    const jet_column *jc = &tp->td->cols[ix->cols[0].col];
    sv v;
    jet_value kv;
    if (key_node_value(c, tp->ap.eq_v[0][0], jc, &v) != 0)
        return -1;
    int r = key_from_sv(&v, jc, &kv);
    if (r < 0)
        return 1;
    t->odo[0] = 0;
    if (r > 0) {
        t->eqn[0] = 0;
        t->nkeyt = 0;
        return 0;
    }
    t->eqvals[0][0] = v;
    t->eqn[0] = 1;
    t->nkeyt = 1;
    memo_lookup(t, kv.u.i);
    return 0;
}

/* ------------------------------------------ rows past the budget */

/* Restart a level read again per outer row (tcur.rescan): the table
 * or derived table from its start. 0 or -1. */
static int rescan_start(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    if (tp->sub) {
        if (t->sub) {
            sql_cursor_close(t->sub);
            t->sub = NULL;
        }
        return sql_cursor_open_child(&t->sub, tp->sub, c, c->params);
    }
    jet_scan_rewind(t->scan);
    return 0;
}

/* Next row of an M_HASH / M_LOOP level whose rows did not fit the
 * budget (tcur.rescan): the table read again from its start for each
 * outer row, each row judged by what storing and probing would have
 * decided (the conditions on the table alone, the hash keys), so the
 * level gives the rows, in the order, the stored rows give. */
static int rescan_next(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    if (tp->method == M_HASH && t->probe_null)
        t->src_done = true;     /* NULL equals nothing */
    if (!t->rkeys && tp->method == M_HASH) {
        t->rkeys = calloc(tp->nhkeys ? tp->nhkeys : 1, sizeof *t->rkeys);
        if (!t->rkeys)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    for (;;) {
        if (t->src_done)
            return JET_DONE;
        int rc = source_next(c, tab);
        if (rc < 0)
            return -1;
        if (rc == JET_DONE) {
            t->src_done = true;
            return JET_DONE;
        }
        sql_tmp_reset(c);
        if (tp->build_filter) {
            int r = sql_eval_cond(c, tp->build_filter);
            if (r < 0)
                return -1;
            if (!r)
                continue;
        }
        if (tp->method == M_HASH) {
            uint64_t h;
            bool null;
            if (keys_eval(c, tp->hk_inner, tp->nhkeys, t->rkeys, &h,
                          &null) != 0)
                return -1;
            if (null || h != t->probe ||
                !keys_equal(c->text_order, t->rkeys, t->pkeys, tp->nhkeys))
                continue;
        }
        return JET_OK;
    }
}

/* --------------------------------------------------------------- API */

int sql_tab_open(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    t->gen = 1;
    if (!t->cc)
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
    jet_rc rc = t->scan ? JET_OK     /* parked (sql_tab_park) */
                        : jet_scan_open(&t->scan, c->db, tp->td, tp->proj);
    if (rc != JET_OK)
        return sql_cursor_fail_rc(c, rc, jet_db_error(c->db));
    if (c->opts.interrupt)
        jet_scan_set_interrupt(t->scan, c->opts.interrupt,
                               c->opts.interrupt_ctx);
    if (tp->method == M_SCAN)
        return sql_fast_filter_build(c, tab, tp->filter, &t->ff);
    if (tp->method != M_INDEX)
        return 0;
    rc = t->ix ? JET_OK
               : jet_index_cursor_open(&t->ix, c->db, tp->td, tp->ap.index_no);
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
    if (tp->memo) {
        t->hmem.block = sql_mem_block_for(sql_mem_budget(c));
        /* keys at half load for the rows the TDEF counts (a hint: it
         * may be stale), so that learning the leaves does not grow it
         * step by step; from 1024 to MEMO_FIRST_MAX */
        t->memo_first = 1024;
        while (t->memo_first < MEMO_FIRST_MAX &&
               t->memo_first < 2 * (size_t)tp->td->row_count)
            t->memo_first *= 2;
    }
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
        t->in_group = false;
        if (tp->method == M_LOOP) {
            t->cand = t->all;
            return t->rescan ? rescan_start(c, tab) : 0;
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
        if (t->rescan)
            return rescan_start(c, tab);
        if (!t->probe_null && c->hj && c->hj->tab == tab) {
            /* partitioned: the outer row is joined with its partition
             * (sql_hash_replay_next); no row, not even a NULL one, now */
            t->cand = NULL;
            t->matched = true;
            return hj_put_probe(c, tab);
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
        if (tp->memo) {
            int r = memo_start(c, tab);
            if (r <= 0)
                return r;
        }
        int r = setup_keys(c, tab);
        if (r < 0)
            return -1;
        if (r > 0) {
            t->scanning = true;     /* these keys cannot be sought */
            if (again || tp->ap.keys_vary)
                jet_scan_rewind(t->scan);
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
        if (read_tick(c) != 0)
            return -1;
        jet_rc rc;
        if (t->rescan)
            return rescan_next(c, tab);
        if (tp->method == M_HASH || tp->method == M_LOOP) {
            hrow *r = t->cand;
            if (!r) {
                t->src_done = true;
                return JET_DONE;
            }
            /* stored rows are not read (c->nread stays): a join whose ON
             * rejects them all, e.g. a LEFT JOIN on an inequality, would
             * otherwise pass over millions without a cancel check */
            if (sql_tick(c) != 0)
                return -1;
            if (t->in_group) {
                /* the rest of the matched key's group: equal, and no
                 * other group of the chain is */
                t->cand = r->dup;
            } else if (tp->method == M_HASH) {
                t->cand = r->next;
                if (r->hash != t->probe ||
                    !keys_equal(c->text_order, r->keys, t->pkeys,
                                tp->nhkeys))
                    continue;
                if (t->hgrouped) {
                    t->in_group = true;
                    t->cand = r->dup;
                }
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
            if (t->memo_cur.vals) {
                /* its values, copied when it was first read */
                t->vals = t->memo_cur.vals;
                t->gen++;
                return JET_OK;
            }
            c->nread++;
            rc = jet_scan_fetch_row(t->scan, t->memo_cur.pgno,
                                    t->memo_cur.row);
            if (rc == JET_ENOTFOUND)
                return JET_DONE;
            if (rc != JET_OK)
                return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
            t->gen++;
            /* a key learnt from its leaf, read for the first time:
             * under memo_defer its row only; read again (or one whose
             * copy did not fit): keep its values now */
            if (!t->memo[t->memo_at].reads && c->st->tabs[tab].memo_defer) {
                t->memo[t->memo_at].reads = 1;
                return JET_OK;
            }
            const jet_value *vals;
            if (memo_copy(c, tab, &vals) != 0)
                return -1;
            if (vals) {
                t->memo[t->memo_at].vals = vals;
                t->vals = vals;
            }
            return JET_OK;
        }
        if (!t->src_started) {
            t->src_started = true;
            int r = start_tuples(c, tab);
            if (r == JET_DONE) {
                t->src_done = true;
                if (t->memo_miss && memo_store(c, tab, false, 0, 0) != 0)
                    return -1;
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
                    t->src_done = true;
                    if (t->memo_miss &&
                        memo_store(c, tab, false, 0, 0) != 0)
                        return -1;
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
        t->gen++;
        if (t->memo_miss) {
            if (memo_store(c, tab, true, pgno, row) != 0)
                return -1;
            if (tp->memo_leaf && !t->memo_leaf_off)
                memo_learn_leaf(c, tab);
            /* a unique key has one row: no second look at the index */
            t->src_done = true;
        }
        return JET_OK;
    }
}

bool sql_tab_parkable(const sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    const tcur *t = &c->t[tab];
    return (tp->method == M_SCAN || tp->method == M_INDEX) && !tp->sub &&
           !tp->memo && !t->sub && !t->memo && !t->buckets && !t->all &&
           !t->pkeys && !t->rkeys && !t->pkbuf && !t->hbytes;
}

void sql_tab_park(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    jet_scan *scan = t->scan;
    jet_index_cursor *ix = t->ix;
    colcache *cc = t->cc;
    if (scan)
        jet_scan_reset(scan);
    if (ix)
        jet_index_cursor_reset(ix);
    if (cc) {
        for (uint16_t i = 0; i < tp->ncols; i++) {
            free(cc[i].u16);
            free(cc[i].copy);
        }
        memset(cc, 0, (tp->ncols ? tp->ncols : 1) * sizeof *cc);
    }
    sql_fast_filter_free(t->ff);
    sql_mem_free(&t->hmem);
    memset(t, 0, sizeof *t);
    t->scan = scan;
    t->ix = ix;
    t->cc = cc;
}

void sql_tab_close(sql_cursor *c, size_t tab)
{
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    jet_index_cursor_close(t->ix);
    sql_fast_filter_free(t->ff);
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
    free(t->rkeys);
    free(t->pkbuf);
    free(t->memo);
    c->recbytes -= t->hbytes;
    sql_mem_free(&t->hmem);
    memset(t, 0, sizeof *t);
}
