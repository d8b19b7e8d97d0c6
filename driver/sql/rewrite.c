/*
 * rewrite.c - rewrites across query blocks before access paths and
 * joins are planned: a derived table or saved query that is one table's
 * plain columns under a condition is read as that table (flatten_views);
 * outer WHERE conjuncts on a derived table are pushed into its WHERE
 * (push_down); a correlated subquery that would scan its table per
 * outer row becomes a hash level built once (decorrelate).
 * Invariants:
 *   1. Each rewrite gives the rows (and their order) the block gave
 *      before it; where that cannot be shown the block is left alone.
 *   2. A condition pushed down stays in the outer WHERE too; its data
 *      exceptions are raised there (enode.soft), not in the view.
 */
#include "config.h"

#include "plan.h"
#include "plan_int.h"
#include "sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------- correlated subqueries */

/* The largest up of a column (or group key) in n: 0 when n reads only
 * its own block (or nothing), 1 when it reads the enclosing one. */
static unsigned max_up(const enode *n)
{
    unsigned m = n->op == N_COL || n->op == N_GKEY ? n->up : 0;
    for (size_t i = 0; i < n->nargs; i++) {
        unsigned u = max_up(n->args[i]);
        if (u > m)
            m = u;
    }
    return m;
}

/* The conjuncts of e (split at its ANDs) into v (room from conj_count). */
static size_t conj_count(const enode *e)
{
    if (e->op != N_AND || e->nargs != 2)
        return 1;
    return conj_count(e->args[0]) + conj_count(e->args[1]);
}

static void conj_fill(enode *e, enode **v, size_t *n)
{
    if (e->op != N_AND || e->nargs != 2) {
        v[(*n)++] = e;
        return;
    }
    conj_fill(e->args[0], v, n);
    conj_fill(e->args[1], v, n);
}

/* Mark the columns of table 0 that n reads in proj. */
static void proj_mark(const enode *n, bool *proj, uint16_t ncols)
{
    if (n->op == N_COL && !n->up && n->tab == 0 && n->col < ncols)
        proj[n->col] = true;
    for (size_t i = 0; i < n->nargs; i++)
        proj_mark(n->args[i], proj, ncols);
}

/*
 * Decorrelate subquery node n of block x->st: a correlated block reading
 * one stored table, or one derived table or saved query (a join view:
 * its rows are computed once instead of once per outer row), that it
 * would scan once per outer row (no index seek serves its correlation),
 * perhaps aggregating what it reads into one row (no GROUP BY or
 * HAVING: the aggregates start again for each outer row, exec.c
 * sql_cursor_rerun), and whose WHERE holds equalities inner = outer
 * (inner reads only the table, outer only the enclosing block's row, of
 * one hash class as a hash join's keys) becomes a hash level: the rows
 * passing the WHERE's uncorrelated conjuncts are stored once, keyed by
 * the inner sides (op_scan.c build_rows: NULL keys stored nowhere, text
 * folded as '=' compares it); each outer row probes with the outer sides
 * and checks the remaining correlated conjuncts on that key's rows only.
 * The rows the block gives for an outer row are the ones its scan gives
 * (in the same order), so EXISTS, NOT EXISTS, IN, NOT IN, ANY/ALL and
 * scalar subqueries keep their meaning, NULLs included. Past the memory
 * budget the level stores nothing and reads its table per outer row as
 * before (op_scan.c rescan_next). Blocks with TOP, GROUP BY, HAVING,
 * DISTINCT, ORDER BY, UNION, a subquery of their own, or a reference to
 * a block further out stay per row; so does everything when the join
 * method is forced to nested loops (tests compare with that form).
 * 0, or -1 out of memory (x->err).
 */
int decorrelate(ctx *x, enode *n)
{
    sql_stmt *sub = n->subq, *st = x->st;
    if (!sub || !sub->correlated || sub->ntabs != 1 || sub->nbranch ||
        sub->ngroup || sub->having || sub->distinct || sub->top >= 0 ||
        sub->top_percent || sub->offset || sub->limit >= 0 ||
        (sub->materialize && !sub->grouped) || sub->norder || sub->nsubq ||
        !sub->where || sub->where_const || sub->join_force == SQL_JOIN_LOOP)
        return 0;
    tab_plan *tp = &sub->tabs[0];
    if ((!tp->td && !tp->sub) || (tp->sub && tp->sub->correlated) ||
        tp->method != M_SCAN || tp->ginner >= 0 || tp->join != JOIN_INNER)
        return 0;
    size_t nc = conj_count(sub->where);
    enode **v = sql_arena_alloc(st->ar, 3 * nc * sizeof *v);
    if (!v)
        return nomem(x);
    enode **own = v + nc, **rest = v + 2 * nc;
    size_t nv = 0, nown = 0, nrest = 0, nk = 0;
    enode *in[MAX_HASH_KEYS], *outk[MAX_HASH_KEYS];
    conj_fill(sub->where, v, &nv);
    for (size_t i = 0; i < nv; i++) {
        enode *w = v[i];
        if (node_tabs(w) & ~(uint64_t)1)
            return 0;           /* a subquery or aggregate: per row */
        unsigned u = max_up(w);
        if (u == 0) {
            own[nown++] = w;    /* uncorrelated: prunes the stored rows */
            continue;
        }
        if (u > 1)
            return 0;           /* reads a block further out */
        if (nk < MAX_HASH_KEYS && w->op == N_CMP && w->sub == CMP_EQ &&
            w->nargs == 2) {
            enode *a = w->args[0], *b = w->args[1];
            if (node_tabs(a) == 0) {
                enode *t = a;
                a = b;
                b = t;
            }
            if (node_tabs(a) == 1 && max_up(a) == 0 && node_tabs(b) == 0 &&
                hash_class(a->k) && hash_class(a->k) == hash_class(b->k)) {
                in[nk] = a;
                outk[nk] = b;
                nk++;
                continue;
            }
        }
        rest[nrest++] = w;      /* checked on the probe's rows */
    }
    if (!nk)
        return 0;
    tp->hk_inner = sql_arena_alloc(st->ar, nk * sizeof *tp->hk_inner);
    tp->hk_outer = sql_arena_alloc(st->ar, nk * sizeof *tp->hk_outer);
    if (!tp->hk_inner || !tp->hk_outer)
        return nomem(x);
    memcpy(tp->hk_inner, in, nk * sizeof *in);
    memcpy(tp->hk_outer, outk, nk * sizeof *outk);
    tp->nhkeys = nk;
    ctx sx = *x;
    sx.st = sub;
    tp->build_filter = NULL;
    if (nown && !(tp->build_filter = and_tree(&sx, own, 0, nown)))
        return -1;
    tp->filter = NULL;
    if (nrest && !(tp->filter = and_tree(&sx, rest, 0, nrest)))
        return -1;
    tp->seek_filter = tp->filter;
    tp->method = M_HASH;
    memset(&tp->ap, 0, sizeof tp->ap);
    if (n->sub == SQ_EXISTS) {
        /* EXISTS reads no value of its rows: store only what WHERE
         * reads (SELECT * would copy every column of every row) */
        memset(tp->proj, 0, tp->ncols * sizeof *tp->proj);
        proj_mark(sub->where, tp->proj, tp->ncols);
    }
    sub->hashed = true;
    if (st->nhsub % 8 == 0) {
        const enode **g = sql_arena_alloc(st->ar, (st->nhsub + 8) *
                                                  sizeof *g);
        if (!g)
            return nomem(x);
        if (st->nhsub)
            memcpy(g, st->hsub, st->nhsub * sizeof *g);
        st->hsub = g;
    }
    st->hsub[st->nhsub++] = n;
    return plan_text(&sx);
}

/* --------------------------------------- flattening simple views */

/*
 * A derived table or saved query that is one stored table's plain
 * columns filtered by a condition ((select id, label from T where c) d:
 * Power Query's every step, a merge's both sides) is read as that table
 * itself: the outer block's columns of d become T's columns and c joins
 * its WHERE. Then the planner sees T's indexes: the outer conditions
 * seek, and a join on d seeks T per outer row (an index nested loop)
 * instead of hashing all of d. The rows are those of the derived table:
 * d's rows are T's rows passing c, each output column a column of T as
 * read (flat_target). Not done on the optional side of an outer join
 * when d has a condition (it would have to join that join's ON), nor
 * when a subquery of the outer block could read d (correlated columns
 * would need the same renumbering).
 */

static bool push_target(const sql_stmt *sub);

/* Whether sub is one stored table's plain columns under a condition. */
static bool flat_target(const sql_stmt *sub)
{
    if (!push_target(sub) || sub->distinct || sub->ntabs != 1 ||
        !sub->tabs[0].td || sub->tabs[0].sub || sub->nsubq ||
        sub->norder || sub->ncols == 0)
        return false;
    for (size_t c = 0; c < sub->ncols; c++) {
        const enode *e = sub->cols[c].e;
        if (!sub->cols[c].direct || !e || e->op != N_COL || e->up ||
            e->tab != 0 || e->col >= sub->tabs[0].td->ncols)
            return false;
    }
    return true;
}

/* Collected column nodes of one table (deduplicated before renumbering:
 * a node may hang in two trees). */
typedef struct col_refs {
    enode **v;
    size_t n, cap;
} col_refs;

static int refs_add(ctx *x, col_refs *r, enode *e, uint16_t tab)
{
    if (e->op == N_COL) {
        if (e->up || e->tab != tab)
            return 0;
        if (r->n == r->cap) {
            size_t ncap = r->cap ? 2 * r->cap : 32;
            enode **g = sql_arena_alloc(x->st->ar, ncap * sizeof *g);
            if (!g)
                return nomem(x);
            if (r->n)
                memcpy(g, r->v, r->n * sizeof *g);
            r->v = g;
            r->cap = ncap;
        }
        r->v[r->n++] = e;
        return 0;
    }
    for (size_t i = 0; i < e->nargs; i++)
        if (refs_add(x, r, e->args[i], tab) != 0)
            return -1;
    return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t p = (uintptr_t)*(enode *const *)a;
    uintptr_t q = (uintptr_t)*(enode *const *)b;
    return p < q ? -1 : p > q;
}

/* A copy of e (sub's table 0 as read) reading table tab of x's block
 * instead; marks the columns it reads in proj. NULL: out of memory. */
static enode *flat_copy(ctx *x, const enode *e, uint16_t tab, bool *proj)
{
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (!n)
        return NULL;
    *n = *e;
    if (e->op == N_COL && !e->up) {
        n->tab = tab;
        proj[e->col] = true;
    }
    if (e->nargs) {
        n->args = sql_arena_alloc(x->st->ar, e->nargs * sizeof *n->args);
        if (!n->args)
            return NULL;
        for (size_t i = 0; i < e->nargs; i++)
            if (!(n->args[i] = flat_copy(x, e->args[i], tab, proj)))
                return NULL;
    }
    return n;
}

/* Read every flat_target derived table of x's block as its table (see
 * above). cl, ml: the block's compiled ON conditions. 0 or -1. */
int flatten_views(ctx *x, conj_list *cl, conj_list *ml)
{
    sql_stmt *st = x->st;
    if (st->nsubq)
        return 0;
    for (size_t i = 0; i < st->ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        sql_stmt *sub = tp->sub;
        if (!sub || !flat_target(sub) || (tp->ginner >= 0 && sub->where))
            continue;
        uint16_t t = (uint16_t)i;
        const jet_tdef *td = sub->tabs[0].td;
        col_refs r = { NULL, 0, 0 };
        int rc = 0;
        for (size_t c = 0; c < st->ncols && !rc; c++)
            rc = st->cols[c].e ? refs_add(x, &r, st->cols[c].e, t) : 0;
        if (!rc && st->where)
            rc = refs_add(x, &r, st->where, t);
        for (size_t k = 0; k < cl->n && !rc; k++)
            rc = refs_add(x, &r, cl->v[k].e, t);
        for (size_t k = 0; k < ml->n && !rc; k++)
            rc = refs_add(x, &r, ml->v[k].e, t);
        for (size_t k = 0; k < st->ngroup && !rc; k++)
            rc = refs_add(x, &r, st->group[k], t);
        if (!rc && st->having)
            rc = refs_add(x, &r, st->having, t);
        for (size_t k = 0; k < st->norder && !rc; k++)
            rc = refs_add(x, &r, st->order[k], t);
        for (size_t k = 0; k < st->naggs && !rc; k++)
            rc = refs_add(x, &r, st->aggs[k], t);
        if (rc)
            return -1;
        bool *proj = sql_arena_alloc(st->ar, (td->ncols ? td->ncols : 1) *
                                             sizeof *proj);
        if (!proj)
            return nomem(x);
        if (r.n)
            qsort(r.v, r.n, sizeof *r.v, cmp_ptr);
        for (size_t k = 0; k < r.n; k++) {
            if (k && r.v[k] == r.v[k - 1])
                continue;
            enode *n = r.v[k];
            if (n->col >= sub->ncols)
                return fail(x, "HY000", n->position, "internal error: "
                            "column %u of a derived table", n->col);
            n->col = sub->cols[n->col].e->col;
            proj[n->col] = true;
        }
        if (sub->where) {
            enode *w = flat_copy(x, sub->where, t, proj);
            if (!w)
                return nomem(x);
            if (st->where) {
                enode *v[2] = { w, st->where };
                if (!(st->where = and_tree(x, v, 0, 2)))
                    return nomem(x);
            } else {
                st->where = w;
            }
        }
        for (size_t c = 0; c < st->ncols; c++) {
            out_col *oc = &st->cols[c];
            if (oc->e && oc->e->op == N_COL && !oc->e->up && oc->e->tab == t &&
                oc->direct && st->ntabs == 1)
                oc->src = oc->e->col;
        }
        tp->td = td;
        tp->flat = sub;
        tp->sub = NULL;
        tp->view = NULL;
        tp->ncols = td->ncols;
        tp->proj = proj;
        if (i == 0)
            st->td = td;
    }
    return 0;
}

/* ------------------------------------------------ pushing conditions */

/*
 * An outer WHERE conjunct on a derived table or saved query (a "view")
 * is pushed into the view's own WHERE, so the view's access path can
 * seek on it (Power Query folds every step into such derived tables:
 * select "_".c from (select * from T) "_" where "_".id = ?). Jet
 * flattens stored queries the same way. The conjunct stays in the outer
 * WHERE as well (a second test of rows that pass it).
 *
 * Rows are unchanged when the view's rows are its FROM's rows filtered
 * by its WHERE, one output row per joined row: no grouping, aggregate,
 * TOP, OFFSET/LIMIT or UNION (push_target), and under DISTINCT only
 * conditions that commute with it (push_distinct_ok); the view is not on
 * the optional side of an outer join of the outer block (there a WHERE
 * conjunct also removes NULL-extended rows the view never produced); and
 * the conjunct reads only plain columns of the view's tables (each
 * output column read is a table column as read, so it has the same value
 * inside as outside), parameters and constants (push_reads).
 */

/* Whether sub's rows are its joined rows filtered by its WHERE (then
 * made distinct: see push_distinct_ok). */
static bool push_target(const sql_stmt *sub)
{
    return !sub->nbranch && !sub->grouped && !sub->naggs &&
           sub->top < 0 && !sub->top_percent &&
           sub->offset == 0 && sub->limit < 0 && !sub->no_from &&
           sub->ntabs > 0 && !sub->correlated;
}

/* Whether conjunct e can be evaluated inside derived table tab's block
 * sub: it reads no subquery, aggregate, group key or enclosing block,
 * and each column of tab it reads is a plain column of sub's tables.
 * *reads: set when e reads tab at all; *other: when it reads another
 * table of the outer block. */
static bool push_reads(const enode *e, uint16_t tab, const sql_stmt *sub,
                       bool *reads, bool *other)
{
    if (e->op == N_SUBQ || e->op == N_AGG || e->op == N_GKEY)
        return false;
    if (e->op == N_COL) {
        if (e->up)
            return false;
        if (e->tab != tab) {
            *other = true;
            return false;
        }
        if (e->col >= sub->ncols)
            return false;
        const out_col *oc = &sub->cols[e->col];
        if (!oc->direct || !oc->e || oc->e->op != N_COL || oc->e->up)
            return false;
        *reads = true;
        return true;
    }
    for (size_t i = 0; i < e->nargs; i++)
        if (!push_reads(e->args[i], tab, sub, reads, other))
            return false;
    return true;
}

/* A value that is the same for every row: a constant or a parameter. */
static bool push_fixed(const enode *e)
{
    return e->op == N_CONST || e->op == N_PARAM;
}

/*
 * Whether conjunct e commutes with DISTINCT (DISTINCTROW views: most of
 * Access's saved queries): rows DISTINCT finds equal (text equal
 * ignoring case and trailing spaces) must all pass or all fail it, since
 * DISTINCT keeps one of them, whichever. Comparisons, BETWEEN, IN and IS
 * NULL of a column against constants and parameters compare with that
 * same equality; functions (Len, binary StrComp) and LIKE (trailing
 * spaces count) may tell such rows apart.
 */
static bool push_distinct_ok(const enode *e)
{
    if (e->op != N_CMP && e->op != N_BETWEEN && e->op != N_IN &&
        e->op != N_ISNULL)
        return false;
    if (e->nargs == 0 || e->args[0]->op != N_COL)
        return false;
    for (size_t i = 1; i < e->nargs; i++)
        if (!push_fixed(e->args[i]))
            return false;
    return true;
}

/* A copy of e (a push_reads conjunct) in sub's terms: each column of
 * tab replaced by the expression sub computes for it. NULL: out of
 * memory. */
static enode *push_copy(ctx *x, const enode *e, uint16_t tab,
                        const sql_stmt *sub)
{
    const enode *src = e;
    if (e->op == N_COL && e->tab == tab && !e->up)
        src = sub->cols[e->col].e;
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (!n)
        return NULL;
    *n = *src;
    if (src != e && src->op == N_COL && !src->up &&
        sub->tabs[src->tab].flat) {
        /* sub read that derived table as its table (flatten_views
         * renumbered src to the table's columns), but the copy goes into
         * sub's rebuild, where the derived table is one again: its
         * column that reads the same table column */
        const sql_stmt *f = sub->tabs[src->tab].flat;
        size_t k = 0;
        while (k < f->ncols && f->cols[k].e->col != src->col)
            k++;
        if (k == f->ncols)
            return NULL;    /* cannot be: src came from one of them */
        n->col = (uint16_t)k;
    }
    if (src->nargs) {
        n->args = sql_arena_alloc(x->st->ar, src->nargs * sizeof *n->args);
        if (!n->args)
            return NULL;
        for (size_t i = 0; i < src->nargs; i++)
            if (!(n->args[i] = push_copy(x, src->args[i], tab, sub)))
                return NULL;
    }
    return n;
}

/* Conjuncts of e (its AND tree). */
static size_t push_count(const enode *e)
{
    if (e->op == N_AND)
        return push_count(e->args[0]) + push_count(e->args[1]);
    return 1;
}

/* Append sub's copies of the conjuncts of e that push_reads allows to
 * v[*n]. -1: out of memory. */
static int push_collect(ctx *x, const enode *e, uint16_t tab,
                        const sql_stmt *sub, enode **v, size_t *n)
{
    if (e->op == N_AND) {
        if (push_collect(x, e->args[0], tab, sub, v, n) != 0)
            return -1;
        return push_collect(x, e->args[1], tab, sub, v, n);
    }
    bool reads = false, other = false;
    if (!push_reads(e, tab, sub, &reads, &other) || !reads || other)
        return 0;
    if (sub->distinct && !push_distinct_ok(e))
        return 0;
    if (!(v[*n] = push_copy(x, e, tab, sub)))
        return nomem(x);
    v[*n]->soft = true;     /* the outer WHERE raises its errors */
    (*n)++;
    return 0;
}

/* Rebuild each view of st's FROM that the WHERE has conjuncts for with
 * those conjuncts added to its WHERE (see above). 0 or -1. */
int push_down(ctx *x)
{
    sql_stmt *st = x->st, *root = st->root;
    size_t nconj = 0;
    enode **v = NULL;
    for (size_t i = 0; i < st->ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        sql_stmt *sub = tp->sub;
        if (!sub || tp->ginner >= 0 || !push_target(sub))
            continue;
        if (root->push_rebuilds >= SQL_MAX_PUSH_REBUILDS)
            return 0;
        if (!v) {
            nconj = push_count(st->where);
            if (!(v = sql_arena_alloc(st->ar, nconj * sizeof *v)))
                return nomem(x);
        }
        size_t n = 0;
        if (push_collect(x, st->where, (uint16_t)i, sub, v, &n) != 0)
            return -1;
        if (!n)
            continue;
        enode *pushed = and_tree(x, v, 0, n);
        if (!pushed)
            return nomem(x);
        root->push_rebuilds++;
        sql_stmt *nsub = NULL;
        int r;
        if (tp->view) {
            /* as bind_view built it: errors name the saved query */
            if (root->view_depth == SQL_MAX_VIEW_DEPTH)
                continue;
            size_t keep_pos = root->view_outer_pos;
            if (root->view_depth == 0)
                root->view_outer_pos = tp->position;
            root->view_stack[root->view_depth++] = tp->view;
            r = build_block(&nsub, NULL, root, sub->qb, false, pushed,
                            x->err);
            root->view_depth--;
            root->view_outer_pos = keep_pos;
            if (r != 0) {
                sql_error_in_saved(x->err, tp->view->name, tp->position);
                return -1;
            }
        } else if (build_block(&nsub, NULL, root, sub->qb, false, pushed,
                               x->err) != 0) {
            return -1;
        }
        tp->sub = nsub;
    }
    return 0;
}
