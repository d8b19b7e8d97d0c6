/*
 * access.c - how one table is read (plan_access): index seek, index walk
 * or scan. "Why did it pick this index" is answered here.
 *
 * The WHERE conjuncts of the forms col = v, col IN (v, ..),
 * col < <= > >= v and col BETWEEN v AND w (v a literal or ?, or for an
 * index nested-loop join an expression over the tables before it) are
 * matched against each index's seekable leading columns
 * (jet_index_seekable_cols: numeric, date, bool): an equality prefix,
 * then one range; after them a text column (jet_index_text_seekable)
 * takes one equality or LIKE prefix, or one range (op_scan.c
 * seek_tuple). The best index by (unique full match, prefix length,
 * range) is sought. ORDER BY on plain non-text columns that follow an
 * index's columns (after single-valued equality columns) walks that
 * index, forwards or backwards, and TOP/LIMIT then stop early.
 * Otherwise the table is scanned, and ORDER BY / DISTINCT / TOP PERCENT
 * buffer rows.
 * Invariants:
 *   1. The WHERE condition is still applied to every row, so a seek only
 *      narrows the rows read (a wrong choice is slow, never wrong).
 *   2. At most PLAN_MAX_KEYS key columns; a key value reads only
 *      constants, parameters and the tables in avail.
 */
#include "config.h"

#include "plan.h"
#include "plan_int.h"
#include "sql_internal.h"
#include "values.h"

#include <string.h>

/* ------------------------------------------------------- access path */

typedef struct sarg {
    uint16_t col;
    uint8_t kind;           /* 'e' equality list, 'r' range */
    enode **vals;           /* 'e' */
    size_t nvals;
    enode *lo, *hi;         /* 'r' */
    bool lo_incl, hi_incl;
} sarg;

/* A key value for a seek: a numeric constant, a parameter, a column of
 * an enclosing query (correlated subquery), or (index nested-loop join)
 * a numeric expression reading only tables in avail. */
static bool key_value(const enode *v, uint64_t avail)
{
    if (v->op == N_CONST)
        return numeric_kind(v->konst.k);
    if (v->op == N_PARAM)
        return true;
    if (!numeric_kind(v->k) || v->k == K_DATE)
        return false;
    /* a correlated subquery's outer column, or an expression of outer
     * columns, parameters and constants (a.id + 1): constant for one run
     * (node_tabs counts subqueries and aggregates as every table) */
    uint64_t m = node_tabs(v);
    if (m == 0)
        return true;
    return avail && (m & ~avail) == 0;
}

bool own_col(const enode *n, uint16_t tab)
{
    return n->op == N_COL && n->tab == tab && n->up == 0;
}

bool is_text_type(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_MEMO;
}

/* A key value of column col of table tab: for text columns text keys
 * (constants, parameters, or for an index nested-loop join a text
 * expression reading only tables in avail: the outer row's value, sought
 * as its General-order prefix like a constant, op_scan.c seek_tuple),
 * else key_value(). A correlated subquery's outer text column is not a
 * key here: such a block hashes its table once (decorrelate). */
static bool col_key_value(const sql_stmt *st, uint16_t tab, uint16_t col,
                          const enode *v, uint64_t avail)
{
    if (!is_text_type(st->tabs[tab].td->cols[col].type))
        return key_value(v, avail);
    if (v->op == N_PARAM || (v->op == N_CONST && v->konst.k == K_TEXT))
        return true;
    if (v->k != K_TEXT || !avail)
        return false;
    uint64_t m = node_tabs(v);
    return m && (m & ~avail) == 0;
}

/* LIKE with a constant pattern on a text column: its literal prefix (up
 * to the first wildcard or class) as an equality key, which the index
 * seeks as a prefix (jet_index_text_seekable). */
static bool like_sarg(const sql_stmt *st, uint16_t tab, enode *w, sarg *s)
{
    enode *a = w->args[0], *b = w->args[1], *k, **vals;
    size_t n = 0;
    if (w->negated || !own_col(a, tab) ||
        !is_text_type(st->tabs[tab].td->cols[a->col].type) ||
        b->op != N_CONST || b->konst.k != K_TEXT)
        return false;
    while (n < b->konst.n) {
        uint16_t ch = b->konst.s[n];
        if (ch == '[' ||
            ((w->like_flags & LIKE_ACCESS) &&
             (ch == '*' || ch == '?' || ch == '#')) ||
            ((w->like_flags & LIKE_ANSI) && (ch == '%' || ch == '_')))
            break;
        n++;
    }
    if (n == 0)
        return false;
    k = sql_arena_alloc(st->ar, sizeof *k);
    vals = sql_arena_alloc(st->ar, sizeof *vals);
    if (!k || !vals)
        return false;
    memset(k, 0, sizeof *k);
    k->op = N_CONST;
    k->k = K_TEXT;
    k->type = JET_T_TEXT;
    k->position = b->position;
    k->konst = b->konst;
    k->konst.n = n;
    vals[0] = k;
    s->col = a->col;
    s->kind = 'e';
    s->vals = vals;
    s->nvals = 1;
    return true;
}

static bool seekable_type(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME: case JET_T_TEXT: case JET_T_MEMO:
        return true;
    default:
        return false;
    }
}

/* Collect the sargs on table tab of the conjuncts of w (bounded by the
 * tree's height). */
static void collect(const sql_stmt *st, uint16_t tab, uint64_t avail,
                    enode *w, sarg *out, size_t *n, size_t cap)
{
    if (*n >= cap)
        return;
    if (w->op == N_AND) {
        collect(st, tab, avail, w->args[0], out, n, cap);
        collect(st, tab, avail, w->args[1], out, n, cap);
        return;
    }
    sarg s;
    memset(&s, 0, sizeof s);
    if (w->op == N_CMP && w->sub != CMP_NE) {
        enode *a = w->args[0], *b = w->args[1];
        uint8_t op = w->sub;
        if (own_col(b, tab) && !own_col(a, tab)) {
            enode *t = a;
            a = b;
            b = t;
            op = op == CMP_LT ? CMP_GT : op == CMP_LE ? CMP_GE
                 : op == CMP_GT ? CMP_LT : op == CMP_GE ? CMP_LE : op;
        }
        if (!own_col(a, tab) || !col_key_value(st, tab, a->col, b, avail))
            return;
        s.col = a->col;
        if (op == CMP_EQ) {
            s.kind = 'e';
            s.vals = &w->args[w->args[0] == a ? 1 : 0];
            s.nvals = 1;
        } else {
            s.kind = 'r';
            if (op == CMP_GT || op == CMP_GE) {
                s.lo = b;
                s.lo_incl = op == CMP_GE;
            } else {
                s.hi = b;
                s.hi_incl = op == CMP_LE;
            }
        }
    } else if (w->op == N_IN && !w->negated && own_col(w->args[0], tab)) {
        for (size_t i = 1; i < w->nargs; i++)
            if (!col_key_value(st, tab, w->args[0]->col, w->args[i], 0))
                return;
        s.col = w->args[0]->col;
        s.kind = 'e';
        s.vals = w->args + 1;
        s.nvals = w->nargs - 1;
    } else if (w->op == N_BETWEEN && !w->negated &&
               own_col(w->args[0], tab) &&
               col_key_value(st, tab, w->args[0]->col, w->args[1], avail) &&
               col_key_value(st, tab, w->args[0]->col, w->args[2], avail)) {
        s.col = w->args[0]->col;
        s.kind = 'r';
        s.lo = w->args[1];
        s.hi = w->args[2];
        s.lo_incl = s.hi_incl = true;
    } else if (w->op == N_LIKE) {
        if (!like_sarg(st, tab, w, &s))
            return;
    } else {
        return;
    }
    if (!seekable_type(st->tabs[tab].td->cols[s.col].type))
        return;
    /* text ranges seek too: text compares in General order, the order
     * of the file's text indexes (plan_access, seek_tuple) */
    out[(*n)++] = s;
}

static const sarg *find_sarg(const sarg *s, size_t n, uint16_t col, char kind)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].col == col && s[i].kind == kind)
            return &s[i];
    return NULL;
}

/* ORDER BY matches index ix after its first `fixed` columns (held
 * constant by single-valued equalities)? *rev: walk backwards. */
static bool order_matches(const sql_stmt *st, uint16_t tab,
                          const jet_index *ix, uint16_t fixed,
                          uint16_t seekable, bool *rev, bool *unique)
{
    size_t oi = 0;
    uint16_t j = fixed;
    int dir = 0;                /* +1 same, -1 reversed */
    while (oi < st->norder) {
        const enode *o = st->order[oi];
        if (!own_col(o, tab))
            return false;
        /* an ORDER BY column fixed by equality is constant: skip it */
        bool fixed_col = false;
        for (uint16_t k = 0; k < fixed; k++)
            if (ix->cols[k].col == o->col)
                fixed_col = true;
        if (fixed_col) {
            oi++;
            continue;
        }
        if (j >= ix->ncols || j >= seekable || ix->cols[j].col != o->col)
            return false;
        int d = (ix->cols[j].ascending != st->order_desc[oi]) ? 1 : -1;
        if (dir && d != dir)
            return false;
        dir = d;
        j++;
        oi++;
    }
    *rev = dir < 0;
    /* ORDER BY covers every column of a unique index: no ties */
    *unique = ix->unique && j == ix->ncols;
    return true;
}

/*
 * The single-table access path: choose how table tab is read given the
 * conditions conds[0..nconds) (trees of AND) and the tables avail
 * already positioned when it is read (0 for the first table). Index
 * equality prefixes, then one range, on seekable key columns; the best
 * by (unique full match, prefix length, range), or an index walk that
 * gives ORDER BY (allow_order: single-table queries). After the numeric
 * equality columns, one text equality or LIKE literal prefix seeks
 * (jet_index_text_seekable). Fills st->tabs[tab].ap; returns its score
 * (0: scan).
 */
int plan_access(ctx *x, uint16_t tab, enode *const *conds,
                size_t nconds, uint64_t avail, bool allow_order)
{
    sql_stmt *st = x->st;
    tab_plan *tp = &st->tabs[tab];
    access_path *ap = &tp->ap;
    memset(ap, 0, sizeof *ap);
    const jet_tdef *td = tp->td;
    if (!td)
        return 0;
    sarg sargs[64];
    size_t ns = 0;
    for (size_t i = 0; i < nconds; i++)
        if (conds[i])
            collect(st, tab, avail, conds[i], sargs, &ns, 64);

    int best_score = 0;
    for (uint16_t i = 0; i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        uint16_t seekable = jet_index_seekable_cols(td, i);
        uint16_t neq = 0;
        size_t combos = 1;
        bool single = true;
        uint16_t fixed = 0;
        while (neq < seekable && neq < PLAN_MAX_KEYS) {
            const sarg *s = find_sarg(sargs, ns, ix->cols[neq].col, 'e');
            if (!s || combos * s->nvals > 1000)
                break;
            combos *= s->nvals;
            if (s->nvals > 1)
                single = false;
            if (single)
                fixed = (uint16_t)(neq + 1);
            neq++;
        }
        /* then one text key, a prefix seek: one value only (prefixes of
         * IN values could overlap and return rows twice); rows come in
         * General order, not ordered by the following columns */
        if (neq == seekable && neq < PLAN_MAX_KEYS &&
            jet_index_text_seekable(st->db, td, i)) {
            const sarg *s = find_sarg(sargs, ns, ix->cols[neq].col, 'e');
            if (s && s->nvals == 1) {
                single = false;
                neq++;
            }
        }
        /* one range: on the next numeric key column, or on the text
         * column after them (bounds as prefixes, which the walk widens
         * to whole keys: seek_tuple) when it is ascending */
        const sarg *lo = NULL, *hi = NULL;
        if ((neq < seekable ||
             (neq == seekable && neq < ix->ncols && neq < PLAN_MAX_KEYS &&
              jet_index_text_seekable(st->db, td, i))) &&
            ix->cols[neq].ascending) {
            for (size_t k = 0; k < ns; k++) {
                if (sargs[k].col != ix->cols[neq].col || sargs[k].kind != 'r')
                    continue;
                if (!lo && sargs[k].lo)
                    lo = &sargs[k];
                if (!hi && sargs[k].hi)
                    hi = &sargs[k];
            }
        }
        bool rev = false, unique = false;
        bool ordered = allow_order && st->norder > 0 && !st->grouped &&
                       order_matches(st, tab, ix, fixed, seekable, &rev,
                                     &unique);
        if (ordered && !single)
            ordered = false;
        /* equal keys come in row order forwards, reversed backwards:
         * walk backwards only where keys cannot be equal */
        if (ordered && rev && !unique)
            ordered = false;
        int score = neq * 10 + (lo ? 3 : 0) + (hi ? 3 : 0);
        if (score && ix->unique && neq == ix->ncols)
            score += 100;
        if (ordered)
            score += score ? 2 : 1;     /* walk for order only if no seek */
        score *= 4;     /* ties: primary key, then unique, then not FK */
        if (score)
            score += (ix->primary_key ? 2 : 0) + (ix->unique ? 1 : 0) -
                     (ix->foreign_key ? 1 : 0) + 1;
        if (score > best_score) {
            best_score = score;
            ap->use_index = true;
            ap->index_no = i;
            ap->neq = neq;
            ap->order_by_index = ordered;
            ap->order_unique = ordered && unique;
            ap->reverse = ordered && rev;
            ap->keys_vary = false;
            for (uint16_t k = 0; k < neq; k++) {
                const sarg *s = find_sarg(sargs, ns, ix->cols[k].col, 'e');
                ap->eq_n[k] = s->nvals;
                ap->eq_v[k] = s->vals;
                for (size_t v = 0; v < s->nvals; v++)
                    if (node_tabs(s->vals[v]))
                        ap->keys_vary = true;
            }
            ap->lo = lo ? lo->lo : NULL;
            ap->lo_incl = lo ? lo->lo_incl : false;
            ap->hi = hi ? hi->hi : NULL;
            ap->hi_incl = hi ? hi->hi_incl : false;
            if ((ap->lo && node_tabs(ap->lo)) || (ap->hi && node_tabs(ap->hi)))
                ap->keys_vary = true;
        }
    }
    return best_score;
}
