/*
 * exec.c - sql_cursor: runs a prepared statement as a pipeline of
 * operators, pulled one row at a time.
 *
 *   leaf (op_scan.c: scan, seek, stored rows, derived table)
 *     -> join (op_join.c: nested loops; conditions applied per level)
 *     -> [aggregate (op_agg.c: groups)] -> [HAVING]
 *     -> project (live_value: output columns, straight from the row)
 *     -> [sort / distinct / window (records here)] | [union (op_union.c)]
 *     -> limit (OFFSET, TOP with ties, LIMIT, max_rows)
 * Subqueries (op_subq.c) run child cursors from inside expressions.
 *
 * Streaming (no sort, no grouping): each next() pulls one joined row,
 * applies OFFSET, LIMIT/TOP (ties when the index gives the order) and
 * max_rows; values are decoded lazily per column and cached per row.
 * No heap allocation per row: column caches, scratch chunks and output
 * buffers only grow.
 * Materialized (ORDER BY without index, DISTINCT, TOP PERCENT, grouping,
 * UNION): rows (or groups passing HAVING) are copied as records into
 * the record arena, then sorted (op_sort.c); a fetched record's values
 * are rebuilt into c->vcur. Past the memory budget (sql_mem_budget: the
 * connection's MaxMemory) the records go to sorted runs in a temporary
 * file, merged at the end (MODE_MERGE). A grouping with no ORDER BY,
 * DISTINCT or TOP PERCENT gives its groups straight out (MODE_GROUPS),
 * no records; so does one by one Text column ordered by it alone once
 * its groups, found by their keys' sort-key segments, are sorted by them
 * (sorted_groups).
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "func.h"
#include "plan.h"
#include "sort.h"
#include "spill.h"
#include "values.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* -------------------------------------------------------- outputs */

/* Value of output column i for the current row (or group). */
int sql_live_value(sql_cursor *c, size_t i, jet_value *out)
{
    const out_col *oc = &c->st->cols[i];
    if (oc->src >= 0 || (oc->direct && oc->e->op == N_COL && !oc->e->up)) {
        const jet_value *v;
        if (sql_col_value(c, oc->e->tab, oc->e->col, &v) != 0)
            return -1;
        *out = *v;
        return 0;
    }
    sv s;
    if (sql_eval(c, oc->e, &s) != 0)
        return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (oc->e->op == N_GKEY && s.k == K_TEXT && s.n &&
        (oc->meta.type == JET_T_TEXT || oc->meta.type == JET_T_MEMO)) {
        /* a group's text lies in the group as UTF-16 units, which here
         * are its UCS-2 bytes: what sql_sv_to_value would copy, in
         * place (until the groups are dropped: the next call on c) */
        memset(out, 0, sizeof *out);
        out->type = oc->meta.type;
        out->enc = JET_ENC_UCS2;
        out->data = (const uint8_t *)(const void *)s.s;
        out->len = s.n * 2;
        return 0;
    }
#endif
    if (sql_sv_to_value(c, &s, oc->meta.type, &c->obuf[i], &c->ocap[i],
                        out) != 0)
        return sql_cursor_fail(c, "22018", oc->e->position, "Data type "
                               "mismatch in expression (at character %zu)",
                               oc->e->position);
    return 0;
}

/* ----------------------------------------------------- memory budget */

int sql_check_cancel(sql_cursor *c)
{
    if ((c->opts.cancel && atomic_load(c->opts.cancel)) ||
        (c->opts.interrupt && c->opts.interrupt(c->opts.interrupt_ctx)))
        return sql_cursor_fail_rc(c, JET_EINTERRUPTED, NULL);
    return 0;
}

size_t sql_mem_budget(const sql_cursor *c)
{
    return c->opts.max_memory ? c->opts.max_memory : SQL_MEM_DEFAULT;
}

int sql_mem_exceeded(sql_cursor *c, const char *what)
{
    c->err.rc = JET_ELIMIT;
    return sql_cursor_fail(c, "HY001", 0, "%s needs more than %zu MiB of "
                           "rows (the MaxMemory connection key)", what,
                           sql_mem_budget(c) >> 20);
}

size_t sql_mem_held(const sql_cursor *c)
{
    size_t kept = 0;
    /* hashed subqueries' stored rows, kept between rows (op_subq.c) */
    for (size_t i = 0; c->sq && i < c->st->nsubq; i++)
        if (c->sq[i].k)
            kept += c->sq[i].k->recbytes;
    return c->recbytes + c->gmem.held + c->gheap +
           c->ngslots * sizeof *c->gslots + c->gkb.cap +
           c->gcap * sizeof *c->gorder + c->smem.held +
           c->rcap * sizeof *c->rows + c->topn_mem.held + kept;
}

/* The directory sql_spill_open uses (for messages). */
static const char *spill_dir(void)
{
#ifdef _WIN32
    return "the temporary directory";
#else
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
#endif
}

sql_spill *sql_cursor_spill(sql_cursor *c, const char *what)
{
    if (c->spill)
        return c->spill;
    size_t blk = sql_mem_budget(c) / 64;
    blk = blk < 4096 ? 4096 : blk > 65536 ? 65536 : blk;
    int e = sql_spill_open(&c->spill, blk);
    if (e) {
        if (e == ENOMEM) {
            sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
            return NULL;
        }
        c->err.rc = JET_EIO;
        sql_cursor_fail(c, "HY000", 0, "%s needs more than the MaxMemory "
                        "budget (%zu MiB) and could not create a temporary "
                        "file in %s (TMPDIR): %s", what,
                        sql_mem_budget(c) >> 20, spill_dir(), strerror(e));
        return NULL;
    }
    return c->spill;
}

int sql_spill_failed(sql_cursor *c, const char *what)
{
    int e = sql_spill_errno(c->spill);
    if (!e)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->err.rc = JET_EIO;
    return sql_cursor_fail(c, "HY000", 0, "%s past the MaxMemory budget: "
                           "the temporary file in %s failed after %llu "
                           "bytes: %s", what, spill_dir(),
                           (unsigned long long)sql_spill_size(c->spill),
                           strerror(e));
}

/* Column types whose values always encode as binary sort keys, each
 * type in one class (sortkey.c): integers and Yes/No, Currency, Single
 * and Double (NaN too), Date/Time, text. */
static bool sure_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_MONEY: case JET_T_FLOAT:
    case JET_T_DOUBLE: case JET_T_DATETIME: case JET_T_TEXT:
    case JET_T_MEMO:
        return true;
    default:
        return false;
    }
}

/* Whether every value of ORDER BY key k encodes as a binary key, so the
 * records never need it as a value: a plain column of a table of this
 * block (of a UNION: an output column, every branch's value converted to
 * its type) of a sure_type. */
static bool key_sure(const sql_stmt *st, size_t k)
{
    if (st->nbranch)
        return st->order_out && sure_type(st->cols[st->order_out[k]].meta.type);
    const enode *e = st->order[k];
    if (st->grouped || e->op != N_COL || e->up || e->tab >= st->ntabs)
        return false;
    const tab_plan *tp = &st->tabs[e->tab];
    if (!tp->td || tp->sub || e->col >= tp->td->ncols)
        return false;
    const jet_column *jc = &tp->td->cols[e->col];
    return sure_type(jc->type) && sure_type(jc->result_type);
}

static int alloc_scratch(sql_cursor *c, size_t nkeys)
{
    const sql_stmt *st = c->st;
    c->nkeys = nkeys;
    size_t nk = nkeys > st->ngroup ? nkeys : st->ngroup;
    c->vtmp = calloc(st->ncols ? st->ncols : 1, sizeof *c->vtmp);
    c->vcur = calloc(st->ncols ? st->ncols : 1, sizeof *c->vcur);
    c->ktmp = calloc(nk ? nk : 1, sizeof *c->ktmp);
    c->kclass = calloc(st->norder ? st->norder : 1, sizeof *c->kclass);
    c->bin_keys = st->norder > 0;
    /* keys as values in the records: DISTINCT compares them, and an ORDER
     * BY key that may not encode needs them once the binary keys stop */
    c->store_sv = nkeys > st->norder;
    for (size_t k = 0; k < st->norder && !c->store_sv; k++)
        c->store_sv = !key_sure(st, k);
    if (!c->vtmp || !c->vcur || !c->ktmp || !c->kclass)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    return 0;
}

/* Grouping whose groups go straight to the output (no ORDER BY,
 * DISTINCT or TOP PERCENT): no records. */
static bool groups_streamable(const sql_stmt *st)
{
    bool distinct = st->distinct && !(st->grouped && !st->ngroup);
    return st->grouped && !st->nbranch && !st->norder && !distinct &&
           !st->top_percent;
}

/* MODE_GROUPS: the next group passing HAVING, inside the window. */
static int next_group(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    for (;;) {
        if (st->limit >= 0 && c->nout >= (uint64_t)st->limit)
            return JET_DONE;
        if (c->opts.max_rows && c->nout >= c->opts.max_rows)
            return JET_DONE;
        if (st->top >= 0 && c->nout + c->skipped >= (uint64_t)st->top)
            return JET_DONE;
        if (sql_tick(c) != 0)   /* HAVING may pass over many groups */
            return -1;
        int rc = sql_group_next(c);
        if (rc != JET_OK)
            return rc;
        sql_tmp_reset(c);
        if (st->having) {
            int t = sql_eval_cond(c, st->having);
            if (t < 0)
                return -1;
            if (!t)
                continue;
        }
        if (c->skipped < (uint64_t)st->offset) {
            c->skipped++;
            continue;
        }
        c->nout++;
        return JET_OK;
    }
}

/* Grouping by one value ordered by it alone (GROUP BY x, explicitly
 * ordered by x or not, or DISTINCT x made one: plan.c), no HAVING, every
 * output column the group's value or an aggregate, in the statement run
 * (a subquery's block may be run again: sql_cursor_rerun): its groups,
 * sorted, give what its records would (sorted_groups). */
static bool groups_by_key(const sql_stmt *st)
{
    bool distinct = st->distinct && !(st->grouped && !st->ngroup);
    if (!st->grouped || st->nbranch || st->ngroup != 1 || st->norder != 1 ||
        distinct || st->top_percent || st->having || st != st->root)
        return false;
    const enode *o = st->order[0];
    if (o->op != N_GKEY || o->slot != 0 || o->up)
        return false;
    for (size_t i = 0; i < st->ncols; i++) {
        const enode *e = st->cols[i].e;
        if (!e || e->up || (e->op != N_GKEY && e->op != N_AGG))
            return false;
    }
    return true;
}

/* Whether an output column's value may fail (an aggregate past its
 * type's range: SUM, AVG, StDev ...), which the records would find
 * while the input is read. */
static bool output_may_fail(const sql_stmt *st)
{
    for (size_t i = 0; i < st->ncols; i++) {
        const enode *e = st->cols[i].e;
        if (e->op == N_AGG && e->sub != A_COUNT_STAR && e->sub != A_COUNT &&
            e->sub != A_MIN && e->sub != A_MAX && e->sub != A_FIRST &&
            e->sub != A_LAST)
            return true;
    }
    return false;
}

/* The groups of a groups_by_key block given in their value's order
 * straight from the groups (MODE_GROUPS), without copying them into
 * records, sorting those and rebuilding values from them: when the
 * groups hold their keys' binary sort-key segments and none went to the
 * temporary file (sql_group_sort). Segments are distinct per group and
 * ordered as the values are (sortkey.c), so the order is the records'
 * (no ties); the window (TOP, OFFSET, LIMIT, max_rows) is next_group's,
 * the same. An output value that may fail is computed for every group in
 * creation order first, as the records would, so the same error comes
 * from the same call. 1 done, 0 not this case, -1. */
static int sorted_groups(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    if (!c->grp_segs || c->gsp)
        return 0;
    if (output_may_fail(st)) {
        for (;;) {
            if (sql_tick(c) != 0)
                return -1;
            int rc = sql_group_next(c);
            if (rc == JET_DONE)
                break;
            if (rc < 0)
                return -1;
            sql_tmp_reset(c);
            for (size_t i = 0; i < st->ncols; i++) {
                jet_value v;
                if (sql_live_value(c, i, &v) != 0)
                    return -1;
            }
        }
    }
    int r = sql_group_sort(c, st->order_desc && st->order_desc[0]);
    if (r <= 0)
        return r;
    c->mode = MODE_GROUPS;
    c->grp_sorted = true;
    return 1;
}

static int run_materialized(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    bool distinct = st->distinct && !(st->grouped && !st->ngroup);
    if (alloc_scratch(c, st->norder + (distinct ? st->ncols : 0)) != 0)
        return -1;
    if (groups_streamable(st)) {
        c->mode = MODE_GROUPS;
        c->grp_stream = true;
        return sql_group_build(c);
    }
    if (st->topn > 0) {
        c->topn_keep = (size_t)st->topn;
        c->topn_at = 2 * c->topn_keep < 64 ? 64 : 2 * c->topn_keep;
        c->topn_mem.block = c->smem.block;
    }
    if (st->nbranch) {
        if (sql_union_collect(c) != 0)
            return -1;
    } else if (st->grouped) {
        if (sql_group_build(c) != 0)
            return -1;
        int r = groups_by_key(st) ? sorted_groups(c) : 0;
        if (r != 0)
            return r < 0 ? -1 : 0;
        for (;;) {
            if (sql_tick(c) != 0)
                return -1;
            int rc = sql_group_next(c);
            if (rc == JET_DONE)
                break;
            if (rc < 0)
                return -1;
            sql_tmp_reset(c);
            if (st->having) {
                int t = sql_eval_cond(c, st->having);
                if (t < 0)
                    return -1;
                if (!t)
                    continue;
            }
            if (sql_add_record(c) != 0)
                return -1;
        }
    } else {
        int r = sql_topn_collect(c);
        if (r < 0)
            return -1;
        for (; !r;) {
            int rc = c->src_done ? JET_DONE : sql_join_next(c);
            if (rc == JET_DONE)
                break;
            if (rc < 0)
                return -1;
            if (sql_add_record(c) != 0)
                return -1;
        }
    }
    if (c->ssp)
        return sql_sort_start_merge(c);
    return sql_sort_finish(c);
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
    if (sql_grow((void **)&c->tie_text, &c->tie_cap, need + 1,
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
        if (sql_key_cmp(c->text_order, &v, &c->tie[k]) != 0)
            return 0;
    }
    return 1;
}

static int next_stream(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    bool by_index = st->ntabs == 1 && st->tabs[0].ap.order_by_index;
    bool ties = by_index && st->norder && !st->tabs[0].ap.order_unique;
    if (st->limit >= 0 && c->nout >= (uint64_t)st->limit)
        return JET_DONE;
    if (c->opts.max_rows && c->nout >= c->opts.max_rows)
        return JET_DONE;
    if (st->top >= 0 && c->nout >= (uint64_t)st->top &&
        !(ties && c->have_tie))
        return JET_DONE;
    for (;;) {
        int rc = sql_join_next(c);
        if (rc != JET_OK)
            return rc;
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
        if (st->top >= 0 && c->nout == (uint64_t)st->top && ties &&
            save_tie(c) != 0)
            return -1;
        return JET_OK;
    }
}

/* --------------------------------------------------------------- API */

/* Parameter i's value *s as the number or date its PARAMETERS clause
 * declares (Access converts a parameter to its declared type: "10248"
 * given for a Long is 10248); text and other types stay as given. 0, or
 * -1 with 22018 (does not convert) / 22003 (out of the type's range). */
static int declared_param(sql_cursor *c, size_t i, sv *s)
{
    jet_type t = c->st->params[i].type;
    int64_t n;
    double d;
    int rc;
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
        rc = sql_sv_int(s, &n);
        if (rc == 0 && t != JET_T_BOOL &&
            (t == JET_T_BYTE ? (n < 0 || n > 255)
             : t == JET_T_INT ? (n < INT16_MIN || n > INT16_MAX)
             : (n < INT32_MIN || n > INT32_MAX)))
            rc = -2;
        if (rc != 0)
            break;
        memset(s, 0, sizeof *s);
        s->k = t == JET_T_BOOL ? K_BOOL : K_INT;
        s->i = t == JET_T_BOOL ? n != 0 : n;
        return 0;
    case JET_T_MONEY:
        if (s->k == K_MONEY)
            return 0;
        rc = sql_sv_double(s, &d);
        if (rc == 0 && !(fabs(d) < 9.2e14))
            rc = -2;
        if (rc != 0)
            break;
        n = (int64_t)nearbyint(d * 10000.0);
        memset(s, 0, sizeof *s);
        s->k = K_MONEY;
        s->i = n;
        return 0;
    case JET_T_FLOAT: case JET_T_DOUBLE:
        rc = sql_sv_double(s, &d);
        if (rc == 0 && t == JET_T_FLOAT && fabs(d) > FLT_MAX)
            rc = -2;
        if (rc != 0)
            break;
        sql_set_double(s, t == JET_T_FLOAT ? (double)(float)d : d);
        s->single = t == JET_T_FLOAT;
        return 0;
    case JET_T_DATETIME:
        if (sql_sv_date(s, &d) != 0) {
            rc = -1;
            break;
        }
        memset(s, 0, sizeof *s);
        s->k = K_DATE;
        s->d = d;
        return 0;
    default:
        return 0;
    }
    if (rc == -2)
        return sql_cursor_fail(c, "22003", 0, "Overflow: parameter %zu is "
                               "out of the range of its declared type",
                               i + 1);
    return sql_cursor_fail(c, "22018", 0, "Data type mismatch: parameter "
                           "%zu does not convert to its declared type",
                           i + 1);
}

static int set_params(sql_cursor *c, const jet_value *params)
{
    const sql_stmt *st = c->st;
    size_t n = st->nparams;
    if (c->params)              /* unparked: st's size */
        memset(c->params, 0, (n ? n : 1) * sizeof *c->params);
    else
        c->params = calloc(n ? n : 1, sizeof *c->params);
    if (!c->params)
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    c->params_owned = true;
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
            /* own copy of the text, decoded once (through a stack buffer
             * when it fits: a prepared lookup's key costs no malloc) */
            memset(&s, 0, sizeof s);
            if (!v->is_null) {
                uint16_t small[256];
                size_t units = 0;
                jet_rc jr = jet_text_to_utf16(c->db, v, small,
                                              sizeof small / sizeof small[0],
                                              &units);
                if (jr == JET_OK && units > sizeof small / sizeof small[0]) {
                    u16 = malloc(units * sizeof *u16);
                    if (!u16)
                        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                    jr = jet_text_to_utf16(c->db, v, u16, units, &units);
                }
                if (jr != JET_OK) {
                    free(u16);
                    return sql_cursor_fail_rc(c, jr, NULL);
                }
                uint16_t *keep = sql_chunk_alloc(&c->recmem,
                                                 (units ? units : 1) * 2);
                if (!keep) {
                    free(u16);
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                }
                if (units)
                    memcpy(keep, u16 ? u16 : small, units * 2);
                free(u16);
                s.k = K_TEXT;
                s.s = keep;
                s.n = units;
            }
        } else {
            if (sql_value_to_sv(c, v, &s, &u16, &cap) != 0)
                return -1;
            if ((s.k == K_BIN || s.k == K_GUID) && s.len) {
                uint8_t *keep = sql_chunk_alloc(&c->recmem, s.len);
                if (!keep)
                    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
                memcpy(keep, s.p, s.len);
                s.p = keep;
            }
        }
        if (st->params[i].declared && s.k != K_NULL &&
            declared_param(c, i, &s) != 0)
            return -1;
        c->params[i] = s;
    }
    return 0;
}

/* Open c's tables and run what must be read before the first row. */
static int start_run(sql_cursor *c)
{
    sql_stmt *st = c->st;
    const tab_plan *tp0 = st->ntabs == 1 ? &st->tabs[0] : NULL;
    c->plain = tp0 && !st->materialize && tp0->method == M_SCAN &&
               !tp0->sub && !tp0->on && !tp0->filter && tp0->ginner < 0 &&
               st->offset == 0 && st->limit < 0 && st->top < 0 &&
               !c->opts.max_rows;
    for (size_t i = 0; i < st->ntabs && !st->count_tdef; i++)
        if (sql_tab_open(c, i) != 0)
            return -1;
    if (st->top == 0 || st->limit == 0)
        c->src_done = true;
    if (st->where_const && !c->src_done) {
        /* WHERE 1=0 (a probe tools send) reads nothing */
        int t = sql_eval_cond(c, st->where);
        if (t < 0)
            return -1;
        if (!t)
            c->src_done = true;
    }
    if (st->materialize) {
        c->mode = 1;
        if (c->src_done && !(st->grouped && !st->ngroup) && !st->nbranch) {
            c->rpos = c->rend = 0;
            return 0;
        }
        return run_materialized(c);
    }
    return 0;
}

/* Take st's parked cursor (sql_cursor_close) for a new open: zeroed as
 * calloc'd but for what park kept. NULL when none is parked. */
static sql_cursor *unpark(sql_stmt *st)
{
    sql_cursor *c = st->spare;
    st->spare = NULL;
    return c;
}

/* The cursor's buffers, sized from st. */
static sql_cursor *new_cursor(sql_stmt *st, const sql_cursor_opts *opts)
{
    sql_cursor *c = unpark(st);
    if (!c && !(c = calloc(1, sizeof *c)))
        return NULL;
    c->st = st;
    c->db = st->db;
    c->text_order = jet_db_collation(st->db);
    if (opts)
        c->opts = *opts;
    c->now_read = false;        /* the clock is read at NOW()'s first use */
    c->lvl = -1;
    c->gmem.block = c->smem.block = sql_mem_block_for(sql_mem_budget(c));
    if (c->t)
        return c;               /* unparked: its arrays are st's sizes */
    size_t nc = st->ncols ? st->ncols : 1;
    c->t = calloc(st->ntabs ? st->ntabs : 1, sizeof *c->t);
    c->obuf = calloc(nc, sizeof *c->obuf);
    c->ocap = calloc(nc, sizeof *c->ocap);
    c->tie = calloc(st->norder ? st->norder : 1, sizeof *c->tie);
    c->sq = calloc(st->nsubq ? st->nsubq : 1, sizeof *c->sq);
    if (!c->t || !c->obuf || !c->ocap || !c->tie || !c->sq) {
        sql_cursor_discard(c);
        return NULL;
    }
    return c;
}

int sql_cursor_open(sql_cursor **out, sql_stmt *st, const jet_value *params,
                    const sql_cursor_opts *opts, sql_error *err)
{
    *out = NULL;
    sql_cursor *c = new_cursor(st, opts);
    if (!c) {
        if (err)
            sql_set_nomem(err, 0);
        return JET_ENOMEM;
    }
    if (set_params(c, params) != 0)
        goto fail;
    if (st->explain) {
        c->mode = MODE_EXPLAIN;
        c->rend = 1;
        *out = c;
        return 0;
    }
    if (start_run(c) != 0)
        goto fail;
    *out = c;
    return 0;
fail:;
    int rc = c->err.rc < 0 ? c->err.rc : JET_EUNSUPPORTED;
    if (err) {
        *err = c->err;
        /* rc only for the core's failures (sql.h): an engine error
         * (21000, HY001 past MaxMemory, ...) keeps its state and text */
        if (!c->core_failed)
            err->rc = 0;
    }
    sql_cursor_close(c);
    return rc;
}

int sql_cursor_open_child(sql_cursor **out, sql_stmt *st, sql_cursor *outer,
                          const sv *params)
{
    *out = NULL;
    sql_cursor_opts o = outer->opts;
    o.max_rows = 0;
    sql_cursor *c = new_cursor(st, &o);
    if (!c)
        return sql_cursor_fail_rc(outer, JET_ENOMEM, NULL);
    c->outer = outer;
    c->params = (sv *)params;
    if (start_run(c) != 0) {
        outer->err = c->err;
        if (c->core_failed) {
            outer->core_failed = true;
            outer->core_err = c->core_err;
        }
        sql_cursor_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int sql_cursor_rerun(sql_cursor *c)
{
    /* a hashed block streams (no sort, TOP, OFFSET or LIMIT: rewrite.c
     * decorrelate), so the run's state is the join's and the window's,
     * and for one aggregating all its rows, the one group's */
    c->join_started = false;
    c->src_done = false;
    c->nout = 0;
    c->skipped = 0;
    c->have_tie = false;
    sql_tmp_reset(c);
    if (c->mode != MODE_GROUPS)
        return 0;
    sql_group_free(c);
    c->gseq = 0;
    return sql_group_build(c);
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
        if (c->plain && c->join_started &&
            (!c->t[0].ix || c->t[0].scanning)) {
            /* what next_stream -> sql_join_next -> level_next do for a
             * plain one-table scan (start_run): the table's next row */
            rc = sql_tab_next(c, 0);
            sql_tmp_reset(c);
            if (rc == JET_OK)
                c->nout++;
            return rc < 0 ? fail_code(c) : rc;
        }
        rc = next_stream(c);
        return rc < 0 ? fail_code(c) : rc;
    case MODE_MAT:
        if (c->rpos >= c->rend)
            return JET_DONE;
        /* sorted records lie in memory in their making order: fetch a
         * few ahead, or each costs a cache (and TLB) miss */
        if (c->rpos + 8 < c->rend)
            __builtin_prefetch(c->rows[c->rpos + 8]);
        if (sql_rec_values(c, c->rows[c->rpos++]) != 0) {
            sql_cursor_fail(c, "HY000", 0, "internal error: a stored row "
                            "does not decode");
            return fail_code(c);
        }
        return JET_OK;
    case MODE_MERGE:
        rc = sql_sort_next_merge(c);
        return rc < 0 ? fail_code(c) : rc;
    case MODE_GROUPS:
        rc = next_group(c);
        return rc < 0 ? fail_code(c) : rc;
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
    case MODE_MAT: case MODE_MERGE:
        if (!c->cur) {
            sql_cursor_fail(c, "24000", 0, "no current row");
            return fail_code(c);
        }
        *out = c->vcur[col];
        return 0;
    case MODE_EXPLAIN: {
        sv s;
        size_t n;
        memset(&s, 0, sizeof s);
        s.k = K_TEXT;
        const char *t = st->plan_text ? st->plan_text : "";
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
        return sql_live_value(c, col, out) == 0 ? 0 : fail_code(c);
    }
}

int sql_cursor_value_own(sql_cursor *c, size_t col, jet_value *out)
{
    const sql_stmt *st = c->st;
    if (col >= st->ncols || c->mode == MODE_MAT || c->mode == MODE_MERGE ||
        c->mode == MODE_EXPLAIN || c->grp_sorted)
        return sql_cursor_value(c, col, out);   /* (as the records') */
    const out_col *oc = &st->cols[col];
    if (oc->src >= 0 || (oc->direct && oc->e->op == N_COL && !oc->e->up))
        return sql_cursor_value(c, col, out);
    sv s;
    if (sql_eval(c, oc->e, &s) != 0)
        return fail_code(c);
    jet_type t = sql_sv_type(&s, oc->meta.type);
    if (sql_sv_to_value(c, &s, t, &c->obuf[col], &c->ocap[col], out) != 0) {
        sql_cursor_fail(c, "22018", oc->e->position, "Data type mismatch "
                        "in expression (at character %zu)", oc->e->position);
        return fail_code(c);
    }
    return 0;
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

/* Free what a run built (everything but c itself, its arrays sized from
 * the statement and its tables' state). */
static void free_run(sql_cursor *c)
{
    if (c->outer)
        c->outer->nread += c->nread;    /* rows read count the children's */
    sql_hash_spill_free(c);
    sql_group_free(c);
    sql_sort_spill_free(c);
    sql_mem_free(&c->smem);
    sql_mem_free(&c->topn_mem);
    free(c->topn_thr);
    free(c->topn_tmp);
    sql_spill_close(c->spill);
    free(c->tie_text);
    if (c->params_owned)
        free(c->params);
    free(c->param_text);
    free(c->rows);
    free(c->vtmp);
    free(c->vcur);
    free(c->ktmp);
    free(c->kclass);
    free(c->kbuf.p);
    free(c->svbuf.p);
    sql_tmp_free(&c->tmp);
    sql_tmp_free(&c->recmem);
}

void sql_cursor_discard(sql_cursor *c)
{
    if (!c)
        return;
    const sql_stmt *st = c->st;
    free_run(c);
    if (c->t) {
        for (size_t i = 0; i < st->ntabs; i++)
            sql_tab_close(c, i);
        free(c->t);
    }
    if (c->obuf) {
        for (size_t i = 0; i < st->ncols; i++)
            free(c->obuf[i]);
        free(c->obuf);
    }
    free(c->ocap);
    free(c->tie);
    sql_subq_free(c);           /* and c->sq */
    free(c);
}

/* Whether c may be parked on its statement: a root statement's streamed
 * one-table scan or seek, fully built (new_cursor), nothing parked yet. */
static bool parkable(const sql_cursor *c)
{
    const sql_stmt *st = c->st;
    return !c->outer && !st->parent && !st->spare && st->ntabs == 1 &&
           !st->nsubq && !st->materialize && !st->explain &&
           c->mode == MODE_STREAM && c->t && c->obuf && c->ocap && c->tie &&
           c->sq && !c->hj && !c->spill && sql_tab_parkable(c, 0);
}

void sql_cursor_close(sql_cursor *c)
{
    if (!c)
        return;
    if (!parkable(c)) {
        sql_cursor_discard(c);
        return;
    }
    /* zeroed as calloc'd but for what the next open fills again: its
     * arrays sized from st (obuf's buffers with their capacities), the
     * parameters' array, a chunk of each scratch list and table 0's
     * scan, index cursor and column caches (sql_tab_park resets them) */
    sql_stmt *st = c->st;
    sv *params = c->params_owned ? c->params : NULL;
    tmp_chunk *tmp = c->tmp, *recmem = c->recmem;
    if (params)
        c->params = NULL;
    c->tmp = c->recmem = NULL;
    free_run(c);
    sql_tmp_keep_one(&tmp);
    sql_tmp_keep_one(&recmem);
    sql_tab_park(c, 0);
    tcur *t = c->t;
    uint8_t **obuf = c->obuf;
    size_t *ocap = c->ocap;
    sv *tie = c->tie;
    subq_state *sq = c->sq;
    memset(c, 0, sizeof *c);
    memset(tie, 0, (st->norder ? st->norder : 1) * sizeof *tie);
    memset(sq, 0, sizeof *sq);      /* parkable: no subqueries */
    c->st = st;
    c->t = t;
    c->obuf = obuf;
    c->ocap = ocap;
    c->tie = tie;
    c->sq = sq;
    c->params = params;         /* set_params zeroes it */
    c->params_owned = params != NULL;
    c->tmp = tmp;
    c->recmem = recmem;
    st->spare = c;
}

bool sql_cursor_direct_col(const sql_cursor *c, size_t col, jet_scan **scan,
                           uint16_t *tcol, jet_type *type)
{
    const sql_stmt *st = c->st;
    if (c->mode != MODE_STREAM || st->ntabs != 1 || col >= st->ncols)
        return false;
    const tab_plan *tp = &st->tabs[0];
    const out_col *oc = &st->cols[col];
    if (tp->sub || !tp->td || tp->method == M_HASH || tp->method == M_LOOP ||
        !c->t || !c->t[0].scan)
        return false;
    if (!(oc->src >= 0 || (oc->direct && oc->e->op == N_COL && !oc->e->up)) ||
        oc->e->tab != 0 || oc->e->col >= tp->td->ncols)
        return false;
    const jet_column *jc = &tp->td->cols[oc->e->col];
    if (jc->type == JET_T_MEMO || jc->type == JET_T_OLE ||
        (jc->flags & JET_COL_CALCULATED))
        return false;
    *scan = c->t[0].scan;
    *tcol = oc->e->col;
    *type = jc->result_type;
    return true;
}

bool sql_cursor_table_rows(const sql_cursor *c, jet_scan **scan,
                           const jet_tdef **tdef, uint16_t *tcols)
{
    const sql_stmt *st = c->st;
    if (c->mode != MODE_STREAM || st->ntabs != 1)
        return false;
    const tab_plan *tp = &st->tabs[0];
    if (tp->sub || !tp->td || tp->method == M_HASH || tp->method == M_LOOP ||
        !c->t || !c->t[0].scan)
        return false;
    for (size_t i = 0; i < st->ncols; i++) {
        const out_col *oc = &st->cols[i];
        if (!(oc->src >= 0 || (oc->direct && oc->e->op == N_COL &&
                               !oc->e->up)) ||
            oc->e->tab != 0 || oc->e->col >= tp->td->ncols)
            return false;
    }
    for (size_t i = 0; i < st->ncols; i++)
        tcols[i] = st->cols[i].e->col;
    *scan = c->t[0].scan;
    *tdef = tp->td;
    return true;
}

bool sql_cursor_refresh(sql_cursor *c)
{
    bool ok = true;
    if (!c || c->mode != MODE_STREAM || !c->t)
        return true;
    for (size_t i = 0; i < c->st->ntabs; i++) {
        tcur *t = &c->t[i];
        bool reloaded = false;
        if (t->sub) {
            ok = sql_cursor_refresh(t->sub) && ok;
            continue;
        }
        if (!t->scan || t->null_row || t->vals)
            continue;
        jet_rc rc = jet_scan_refresh(t->scan, &reloaded);
        if (reloaded)
            t->gen++;       /* the column caches read it again */
        if (rc != JET_OK && reloaded)
            ok = false;
    }
    return ok;
}

const jet_value *sql_cursor_stored_row(const sql_cursor *c)
{
    return (c->mode == MODE_MAT || c->mode == MODE_MERGE) ? c->vcur : NULL;
}
