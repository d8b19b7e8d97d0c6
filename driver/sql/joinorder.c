/*
 * joinorder.c - the joins of a query block (plan_joins): conditions
 * split into conjuncts and placed at the first level that can check
 * them, the join order (inner joins: least estimated cost,
 * choose_order; with an outer join: FROM order), each level's method
 * (index nested loop, hash, nested loop, scan) with its cost estimate
 * (level_estimate), and the conditions that decide outer-join groups.
 * Invariants:
 *   1. Every conjunct is checked exactly once, at or after the level
 *      where every table it reads is positioned, unless the level's
 *      method decides it itself (hash keys, conditions applied while
 *      storing rows, equalities an index seek matches exactly).
 *   2. Each LEFT join's preserved tables come before its optional side.
 *   3. A method forced by sql_prepare_opts.join_method is used wherever
 *      it can run.
 */
#include "config.h"

#include "plan.h"
#include "plan_int.h"
#include "sql_internal.h"
#include "values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ joins */

/* Split e at its ANDs into l (depth bounded by the tree's height). */
int split_conj(ctx *x, enode *e, conj_list *l, uint64_t all)
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
enode *and_tree(ctx *x, enode **v, size_t lo, size_t hi)
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
int hash_class(uint8_t k)
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
    bool memo_defer;        /* memo: few repeats per key expected */
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
    bool memo = false, memo_leaf = false, memo_defer = false;
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
            /* fewer than two probes a key: most keys come once, their
             * values are not worth a copy until they come back */
            memo_defer = outer < 2.0 * keys;
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
    out->memo_defer = out->memo && memo_defer;
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
    out->memo_defer = false;
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
int grow_owners(ctx *x, int32_t **own, size_t from, size_t to,
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
int place_group_conds(ctx *x, conj_list *ml, const int32_t *mown)
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
int plan_joins(ctx *x, conj_list *l, bool has_left)
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
                tp->memo_defer = e.memo_defer;
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
