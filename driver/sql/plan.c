/*
 * plan.c - sql_stmt_prepare: parse the statement, then build each query
 * block (build) by running the planner's files in turn:
 *   bind.c       FROM into tabs[], tables and saved queries bound, names
 *                and types resolved, select list, ORDER BY, GROUP BY rules
 *   compile.c    expressions into enodes (literals, LIKE, parameters)
 *   rewrite.c    views read as their table, outer conditions pushed into
 *                derived tables, correlated subqueries hashed
 *   access.c     each table's access path: index seek or walk, or scan
 *   joinorder.c  join order and method by estimated cost; outer joins
 *   explain.c    the plan in one line (EXPLAIN, tests)
 * A UNION is built here as a block of branch blocks (build_union). The
 * helpers every planner file uses (errors into ctx.err, nodes from the
 * statement's arena) are here too; plan_int.h declares what the planner's
 * files share, and no other engine file includes it.
 * Invariants:
 *   1. Every block of a statement (subqueries, derived tables, UNION
 *      branches, saved queries expanded) allocates from the root's arena
 *      (st->ar); only the root is freed (sql_stmt_free).
 *   2. Blocks nest at most SQL_MAX_BLOCK_DEPTH deep (build_block), and
 *      derived tables are rebuilt with pushed conditions at most
 *      SQL_MAX_PUSH_REBUILDS times per statement (rewrite.c push_down).
 *   3. A failed prepare returns sql_error_code(err) with err set as sql.h
 *      says (an SQL error's SQLSTATE, 1-based position or 0 and message,
 *      or a core failure's jet_rc, page and message: JET_ENOMEM for
 *      memory) and *out NULL.
 */
#include "config.h"

#include "plan.h"
#include "plan_int.h"
#include "sort.h"
#include "sql_internal.h"
#include "values.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fail(ctx *x, const char *state, size_t pos, const char *fmt, ...)
{
    sql_error *e = x->err;
    snprintf(e->sqlstate, sizeof e->sqlstate, "%s", state);
    e->position = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int nomem(ctx *x)
{
    sql_set_nomem(x->err, 0);
    return -1;
}

void *arena_alloc_cb(void *a, size_t n)
{
    return sql_arena_alloc(a, n);
}

enode *new_node(ctx *x, uint8_t op, size_t pos)
{
    enode *n = sql_arena_alloc(x->st->ar, sizeof *n);
    if (n) {
        n->op = op;
        n->position = pos;
    }
    return n;
}

int alloc_args(ctx *x, enode *n, size_t count)
{
    n->nargs = count;
    n->args = sql_arena_alloc(x->st->ar, (count ? count : 1) *
                                             sizeof *n->args);
    return n->args ? 0 : nomem(x);
}

/* Whether st's TOP n can keep only the best n sorted records plus ties
 * (exec.c top-N sort): a sort by ORDER BY (no index order), n known
 * now (not PERCENT) and at most SQL_TOPN_MAX, no DISTINCT (duplicates
 * must go before counting) and no UNION. */
static bool topn_applies(const sql_stmt *st)
{
    bool one_row = st->grouped && !st->ngroup;
    bool distinct = st->distinct && !one_row;
    return st->materialize && st->top > 0 && !st->top_percent &&
           st->top <= SQL_TOPN_MAX && st->norder && !one_row &&
           !distinct && !st->nbranch &&
           !(st->ntabs == 1 && st->tabs[0].ap.order_by_index);
}

/* COUNT(*) (only) over one stored table without WHERE, GROUP BY,
 * HAVING or subqueries: answered from the TDEF's row count (README
 * "COUNT(*) and the stored row count" says why that count is trusted). */
static bool count_from_tdef(const sql_stmt *st)
{
    if (st->ntabs != 1 || !st->tabs[0].td || st->where || st->ngroup ||
        st->having || st->nsubq || st->nbranch || !st->naggs ||
        st->tabs[0].ap.use_index || !st->tabs[0].td->row_count_fits)
        return false;
    /* system tables: Access leaves their stored counts stale */
    const jet_object *o = jet_catalog_find(st->db, st->tabs[0].td->name);
    if (!o || o->kind != JET_OBJ_TABLE)
        return false;
    for (size_t i = 0; i < st->naggs; i++)
        if (st->aggs[i]->sub != A_COUNT_STAR)
            return false;
    return true;
}

/* Whether every branch after first joins by UNION ALL (the union keeps
 * its branches' rows in their order). */
static bool union_all_only(const sql_query *first)
{
    for (const sql_query *b = first->union_next; b; b = b->union_next)
        if (!b->union_all)
            return false;
    return true;
}

/* The UNION of st->qb's branches: each branch a child block; output
 * columns named by the first, typed by all; ORDER BY names output
 * columns (by position, label or the first branch's column name). */
static int build_union(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_query *q = st->qb;
    size_t n = 0;
    for (const sql_query *b = q; b; b = b->union_next)
        n++;
    st->branch = sql_arena_alloc(st->ar, n * sizeof *st->branch);
    if (!st->branch)
        return nomem(x);
    size_t i = 0;
    for (sql_query *b = (sql_query *)q; b; b = b->union_next, i++) {
        if (build_block(&st->branch[i], st, st->root, b, true, NULL, x->err) != 0)
            return -1;
        if (i && !b->union_all)
            st->union_distinct = true;
        if (i && st->branch[i]->ncols != st->branch[0]->ncols)
            return fail(x, "42000", b->position, "The number of columns in "
                        "the two selected tables or queries of a union "
                        "query do not match (at character %zu)",
                        b->position);
    }
    st->nbranch = n;
    const sql_stmt *b0 = st->branch[0];
    st->ncols = b0->ncols;
    st->cols = sql_arena_alloc(st->ar, (st->ncols ? st->ncols : 1) *
                                       sizeof *st->cols);
    if (!st->cols)
        return nomem(x);
    for (size_t c = 0; c < st->ncols; c++) {
        out_col *oc = &st->cols[c];
        oc->meta = b0->cols[c].meta;
        oc->src = -1;
        /* one type for the column: equal, else the widest number, else
         * text (MEMO when any branch gives MEMO) */
        uint8_t k0 = kind_of_type(oc->meta.type);
        bool same = true, numeric = numeric_kind(k0) && k0 != K_DATE;
        bool memo = oc->meta.type == JET_T_MEMO, dbl = k0 == K_DOUBLE;
        bool money = k0 == K_MONEY;
        for (size_t b = 1; b < n; b++) {
            const sql_result_col *m = &st->branch[b]->cols[c].meta;
            uint8_t k = kind_of_type(m->type);
            if (m->type != oc->meta.type)
                same = false;
            if (!(numeric_kind(k) && k != K_DATE))
                numeric = false;
            memo |= m->type == JET_T_MEMO;
            dbl |= k == K_DOUBLE;
            money |= k == K_MONEY;
            oc->meta.nullable |= m->nullable;
            if (m->length > oc->meta.length)
                oc->meta.length = m->length;
        }
        if (!same) {
            oc->meta.column = NULL;
            oc->meta.type = numeric ? (dbl ? JET_T_DOUBLE : money ?
                                       JET_T_MONEY : JET_T_LONG)
                            : memo ? JET_T_MEMO : JET_T_TEXT;
            if (oc->meta.type == JET_T_TEXT && !oc->meta.length)
                oc->meta.length = 255;
        }
    }
    /* UNION removes duplicate rows by value: as DISTINCT, no OLE Object
     * (Access's message); UNION ALL compares nothing */
    for (size_t c = 0; st->union_distinct && c < st->ncols; c++)
        for (size_t b = 0; b < n; b++)
            if (st->branch[b]->cols[c].meta.type == JET_T_OLE)
                return fail(x, "42000", q->position, "Cannot include Memo, "
                            "OLE, or Hyperlink Object when you select unique "
                            "values (%s) (at character %zu)",
                            st->branch[b]->cols[c].meta.name, q->position);
    st->distinct = st->union_distinct;
    st->top = -1;
    st->offset = q->offset;
    st->limit = q->limit;
    st->norder = q->norder;
    st->order_out = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1) *
                                            sizeof *st->order_out);
    st->order_desc = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1));
    if (!st->order_out || !st->order_desc)
        return nomem(x);
    for (size_t k = 0; k < q->norder; k++) {
        const sql_expr *oe = q->order[k].expr;
        st->order_desc[k] = q->order[k].desc;
        size_t found = SIZE_MAX;
        if (oe->kind == EXPR_NUMBER) {
            char *end;
            long v = strtol(oe->text, &end, 10);
            if (!*end && v >= 1 && (size_t)v <= st->ncols)
                found = (size_t)v - 1;
        } else if (oe->kind == EXPR_COLUMN) {
            for (size_t c = 0; c < st->ncols && found == SIZE_MAX; c++)
                if (jet_name_equal_ci(st->cols[c].meta.name, oe->text) ||
                    (b0->cols[c].e && b0->cols[c].e->op == N_COL &&
                     b0->cols[c].e->text &&
                     jet_name_equal_ci(b0->cols[c].e->text, oe->text)))
                    found = c;
        }
        if (found == SIZE_MAX)
            return fail(x, "42000", q->order[k].position, "ORDER BY of a "
                        "UNION must name a column of its result (at "
                        "character %zu)", q->order[k].position);
        if (st->cols[found].meta.type == JET_T_OLE)
            return fail(x, "42000", q->order[k].position, "Cannot sort on "
                        "Memo, OLE, or Hyperlink Object (%s) (at character "
                        "%zu)", st->cols[found].meta.name,
                        q->order[k].position);
        st->order_out[k] = found;
    }
    st->materialize = true;
    return plan_text(x);
}

/* What binding a block leaves for planning it: the WHERE and inner-join
 * ON conjuncts (cl), the conditions deciding outer-join groups (ml) with
 * the group each decides (mown), whether there is an outer join, and the
 * mask of all the block's tables. */
typedef struct block_conds {
    conj_list cl, ml;
    int32_t *mown;
    bool has_left;
    uint64_t all;
} block_conds;

static bool distinct_groupable(const sql_stmt *st, bool branch);
static int distinct_as_group(ctx *x);

/* Bind one query block (st->qb) into st: tables, select list,
 * conditions, grouping, order, and the rules Access checks on them
 * (bind.c, compile.c). branch: a UNION branch (its ORDER BY / LIMIT
 * belong to the union). */
static int bind_block(ctx *x, bool branch, block_conds *out)
{
    sql_stmt *st = x->st;
    sql_query *q = st->qb;
    const sql_select *sel = &q->sel;

    /* FROM */
    size_t ntabs = 0;
    for (size_t i = 0; i < q->nfrom; i++)
        ntabs += count_tabs(q->from[i]);
    if (ntabs > PLAN_MAX_TABS)
        return fail(x, "HYC00", q->position, "not supported: more than %d "
                    "tables in one query", PLAN_MAX_TABS);
    st->tabs = sql_arena_alloc(st->ar, (ntabs ? ntabs : 1) *
                                       sizeof *st->tabs);
    if (!st->tabs)
        return nomem(x);
    on_list ons = { NULL, NULL, 0, 0 };
    bool has_left = false;
    size_t k = 0;
    for (size_t i = 0; i < q->nfrom; i++) {
        if (flatten(x, q->from[i], &k, &ons, &has_left, -1) != 0)
            return -1;
        st->ntabs = k;          /* bound so far (subqueries look here) */
    }
    st->ntabs = ntabs;
    /* each FROM item is known by one name (its alias, else its table's
     * name): the same name twice leaves every reference to it ambiguous,
     * and Access refuses the query (a self-join needs an alias) */
    for (size_t i = 1; i < ntabs; i++) {
        const tab_plan *b = &st->tabs[i];
        if (!b->alias && (!b->name || !b->name[0]))
            continue;           /* an unnamed derived table */
        for (size_t j = 0; j < i; j++)
            if (jet_name_equal_ci(tab_label(&st->tabs[j]), tab_label(b)))
                return fail(x, "42000", b->position, "'%.64s' names two "
                            "tables in the FROM clause: give each an alias "
                            "of its own (at character %zu)", tab_label(b),
                            b->position);
    }
    st->no_from = q->no_from;
    st->td = ntabs ? st->tabs[0].td : NULL;

    st->distinct = sel->distinct;
    if (q->distinctrow && ntabs <= 1)
        st->distinct = false;   /* every row of one table is distinct */
    st->top = sel->top;
    st->top_percent = q->top_percent;
    st->offset = branch ? 0 : q->offset;
    st->limit = branch ? -1 : q->limit;
    st->explain = !branch && st->parent == NULL && st == st->root &&
                  q->explain;

    if (build_select_list(x) != 0)
        return -1;

    if (q->where) {
        x->in_where = true;
        if (compile(x, q->where, &st->where) != 0)
            return -1;
        x->in_where = false;
    }
    if (x->pushed) {
        /* an enclosing block's conditions on this block's columns
         * (push_down): filtering here gives the rows filtering the
         * result would, and lets the access path seek on them */
        if (st->where) {
            enode *v[2] = { st->where, x->pushed };
            if (!(st->where = and_tree(x, v, 0, 2)))
                return nomem(x);
        } else {
            st->where = x->pushed;
        }
    }
    /* ON conditions: LEFT ones stay with their table */
    conj_list cl = { NULL, 0, 0 };
    uint64_t all = ntabs >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ntabs) - 1;
    x->no_agg = "JOIN";
    /* conditions deciding outer-join groups: each LEFT join's ON and the
     * inner joins' ONs inside its optional side */
    conj_list ml = { NULL, 0, 0 };
    int32_t *mown = NULL;
    for (size_t i = 0; i < ntabs; i++) {
        tab_plan *tp = &st->tabs[i];
        if (tp->join != JOIN_LEFT || !tp->on_src)
            continue;
        enode *e;
        size_t from = ml.n;
        if (compile(x, tp->on_src, &e) != 0 || split_conj(x, e, &ml, all))
            return -1;
        if (grow_owners(x, &mown, from, ml.n, (int32_t)i) != 0)
            return -1;
    }
    for (size_t i = 0; i < ons.n; i++) {
        enode *e;
        if (compile(x, ons.v[i], &e) != 0)
            return -1;
        if (ons.owner[i] < 0) {
            if (split_conj(x, e, &cl, all) != 0)
                return -1;
            continue;
        }
        size_t from = ml.n;
        if (split_conj(x, e, &ml, all) != 0 ||
            grow_owners(x, &mown, from, ml.n, ons.owner[i]) != 0)
            return -1;
    }
    x->no_agg = "GROUP BY";
    st->ngroup = q->ngroup;
    st->group = sql_arena_alloc(st->ar, (q->ngroup ? q->ngroup : 1) *
                                        sizeof *st->group);
    if (!st->group)
        return nomem(x);
    for (size_t i = 0; i < q->ngroup; i++)
        if (compile(x, q->group[i], &st->group[i]) != 0)
            return -1;
    x->no_agg = NULL;
    if (q->having && compile(x, q->having, &st->having) != 0)
        return -1;

    if (branch) {
        st->norder = 0;
        st->order = NULL;
        st->order_desc = NULL;
    } else if (build_order(x) != 0) {
        return -1;
    }
    if (st->norder == 0 && q->ngroup > 0 && !q->sel.distinct &&
        (!branch || union_all_only(st->parent->qb))) {
        /* Access returns a totals query's groups sorted by its GROUP BY
         * columns (Jet groups by sorting), and Excel and BI tables made
         * from one show them so: the groups come sorted as if by
         * ORDER BY the GROUP BY list (DISTINCT sorts its own way); so
         * does each grouped branch of a UNION ALL (a UNION sorts its
         * rows as a whole) */
        st->norder = q->ngroup;
        st->order = sql_arena_alloc(st->ar, q->ngroup * sizeof *st->order);
        st->order_desc = sql_arena_alloc(st->ar, q->ngroup);
        if (!st->order || !st->order_desc)
            return nomem(x);
        for (size_t i = 0; i < q->ngroup; i++) {
            st->order_desc[i] = false;
            if (compile(x, q->group[i], &st->order[i]) != 0)
                return -1;
        }
    }

    st->grouped = st->naggs > 0 || st->ngroup > 0 || st->having;
    for (size_t i = 0; i < sel->nitems && st->ngroup; i++)
        if (sel->items[i].kind == SQL_ITEM_STAR)
            return fail(x, "42000", sel->items[i].position, "Cannot group "
                        "on fields selected with '*' (at character %zu)",
                        sel->items[i].position);
    if (distinct_groupable(st, branch) && distinct_as_group(x) != 0)
        return -1;
    if (st->grouped) {
        for (size_t c = 0; c < st->ncols; c++)
            if (group_rewrite(x, &st->cols[c].e, st->cols[c].meta.name) != 0)
                return -1;
        if (st->having && group_rewrite(x, &st->having, NULL) != 0)
            return -1;
        for (size_t i = 0; i < st->norder; i++)
            if (group_rewrite(x, &st->order[i], NULL) != 0)
                return -1;
        for (size_t c = 0; c < st->ncols; c++) {
            out_col *oc = &st->cols[c];
            if (oc->direct && oc->e->op != N_COL) {
                /* a grouped column: its value comes as computed */
                oc->direct = false;
                oc->src = -1;
                oc->meta.type = oc->e->type ? oc->e->type : JET_T_TEXT;
            }
        }
    }
    /* DISTINCT: ORDER BY must name selected columns */
    if (st->distinct && !(st->grouped && !st->ngroup)) {
        for (size_t i = 0; i < st->norder; i++) {
            bool ok = false;
            for (size_t c = 0; c < st->ncols && !ok; c++)
                ok = enode_equal(st->cols[c].e, st->order[i]);
            if (!ok)
                return fail(x, "42000", q->order[i].position, "ORDER BY "
                            "clause conflicts with DISTINCT (at character "
                            "%zu)", q->order[i].position);
        }
    }
    if (long_value_rules(x) != 0)
        return -1;
    out->cl = cl;
    out->ml = ml;
    out->mown = mown;
    out->has_left = has_left;
    out->all = all;
    return 0;
}

/* Whether DISTINCT over st's select list can run as a GROUP BY of that
 * list (distinct_as_group): a block of stored tables, not a UNION
 * branch, no aggregate, and every column a value the groups' hash keys
 * hold whole (no Memo, OLE Object, binary or GUID, no subquery). */
static bool distinct_groupable(const sql_stmt *st, bool branch)
{
    if (!st->distinct || st->grouped || branch || st->nbranch ||
        st != st->root ||
        st->ntabs == 0 || st->ncols == 0 || st->top_percent)
        return false;
    for (size_t c = 0; c < st->ncols; c++) {
        const enode *e = st->cols[c].e;
        switch (st->cols[c].meta.type) {
        case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
        case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
        case JET_T_DATETIME: case JET_T_TEXT: case JET_T_BIGINT:
            break;
        default:
            return false;
        }
        if (!e || e->op == N_SUBQ || (e->op != N_COL && e->op != N_FUNC &&
                                      e->op != N_ARITH && e->op != N_CONCAT))
            return false;
        for (size_t i = 0; i < e->nargs; i++)
            if (e->args[i]->op != N_COL && e->args[i]->op != N_CONST)
                return false;
    }
    return true;
}

/* SELECT DISTINCT a, b ... as SELECT a, b ... GROUP BY a, b ORDER BY
 * [its ORDER BY,] a, b: the groups' hash table (op_agg.c) finds the
 * distinct rows instead of sorting every row's values, and the order is
 * the one DISTINCT gave (its rows sorted by every column, then stably by
 * the ORDER BY). Checks first that ORDER BY names selected columns, as
 * DISTINCT requires. Only the outermost block: a view or subquery that
 * stays DISTINCT still takes the conditions rewrite.c pushes into it.
 * 0, or -1 (x->err). */
static int distinct_as_group(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_query *q = st->qb;
    for (size_t i = 0; i < st->norder; i++) {
        bool ok = false;
        for (size_t c = 0; c < st->ncols && !ok; c++)
            ok = enode_equal(st->cols[c].e, st->order[i]);
        if (!ok)
            return fail(x, "42000", q->order[i].position, "ORDER BY "
                        "clause conflicts with DISTINCT (at character "
                        "%zu)", q->order[i].position);
    }
    size_t n = st->ncols, no = st->norder + n;
    enode **g = sql_arena_alloc(st->ar, n * sizeof *g);
    enode **o = sql_arena_alloc(st->ar, no * sizeof *o);
    bool *od = sql_arena_alloc(st->ar, no);
    if (!g || !o || !od)
        return nomem(x);
    for (size_t i = 0; i < st->norder; i++) {
        o[i] = st->order[i];
        od[i] = st->order_desc[i];
    }
    for (size_t c = 0; c < n; c++) {
        g[c] = st->cols[c].e;
        o[st->norder + c] = st->cols[c].e;
        od[st->norder + c] = false;
    }
    st->group = g;
    st->ngroup = n;
    st->order = o;
    st->order_desc = od;
    st->norder = no;
    st->distinct = false;
    st->distinct_hashed = true;
    st->grouped = true;
    return 0;
}

/* Plan a bound block: views read as their table and conditions pushed
 * into derived tables (rewrite.c), each table's access path (access.c),
 * the join order and methods (joinorder.c), how rows are buffered, and
 * the plan text (explain.c). */
static int plan_block(ctx *x, block_conds *bc)
{
    sql_stmt *st = x->st;
    size_t ntabs = st->ntabs;
    conj_list cl = bc->cl, ml = bc->ml;
    int32_t *mown = bc->mown;
    bool has_left = bc->has_left;
    uint64_t all = bc->all;

    if (flatten_views(x, &cl, &ml) != 0)
        return -1;
    if (st->where && push_down(x) != 0)
        return -1;
    st->where_const = st->where && !uses_row(st->where);
    if (ntabs == 1) {
        /* one table: the whole WHERE is its filter, as always */
        tab_plan *tp = &st->tabs[0];
        enode *conds[1] = { st->where };
        tp->filter = st->where;
        tp->seek_filter = st->where;
        plan_access(x, 0, conds, st->where ? 1 : 0, 0, true);
        tp->method = tp->ap.use_index ? M_INDEX : M_SCAN;
        st->order_tabs = sql_arena_alloc(st->ar, sizeof *st->order_tabs);
        if (!st->order_tabs)
            return nomem(x);
        st->order_tabs[0] = 0;
    } else if (ntabs > 1) {
        if (st->where && split_conj(x, st->where, &cl, all) != 0)
            return -1;
        if (has_left && place_group_conds(x, &ml, mown) != 0)
            return -1;
        if (plan_joins(x, &cl, has_left) != 0)
            return -1;
    }
    bool by_index = ntabs == 1 && st->tabs[0].ap.order_by_index;
    st->materialize = st->grouped || st->distinct || st->top_percent ||
                      (st->norder > 0 && !by_index);
    st->topn = topn_applies(st) ? st->top : 0;
    st->count_tdef = count_from_tdef(st);
    return plan_text(x);
}

/* Compile one query block (st->qb) into st: bind it, then plan it.
 * branch: a UNION branch (its ORDER BY / LIMIT belong to the union). */
static int build(ctx *x, bool branch)
{
    if (x->st->qb->union_next && !branch)
        return build_union(x);
    block_conds bc = { { NULL, 0, 0 }, { NULL, 0, 0 }, NULL, false, 0 };
    if (bind_block(x, branch, &bc) != 0)
        return -1;
    return plan_block(x, &bc);
}

/* A new block of root's statement for query qb (a subquery, derived
 * table or UNION branch when parent/root are set), compiled. */
int build_block(sql_stmt **out, sql_stmt *parent, sql_stmt *root,
                sql_query *qb, bool branch, enode *pushed,
                sql_error *err)
{
    if (root->block_depth >= SQL_MAX_BLOCK_DEPTH) {
        sql_set_error(err, "42000", qb->position, "queries nested too "
                      "deeply (more than %d levels of subqueries, derived "
                      "tables and saved queries)", SQL_MAX_BLOCK_DEPTH);
        return -1;
    }
    sql_stmt *st = sql_arena_alloc(root->ar, sizeof *st);
    if (!st) {
        sql_set_nomem(err, 0);
        return -1;
    }
    st->db = root->db;
    st->qb = qb;
    st->ar = root->ar;
    st->parent = parent;
    st->root = root;
    st->like_flags = root->like_flags;
    st->nparams = root->nparams;
    st->params = root->params;
    st->popts = root->popts;
    st->join_force = root->join_force;
    st->limit = -1;
    st->top = -1;
    if (root->view_depth) {
        st->view_name = root->view_stack[root->view_depth - 1]->name;
        st->view_pos = root->view_outer_pos;
    } else {
        st->view_name = root->view_name;    /* a {call}: its query */
    }
    ctx x;
    memset(&x, 0, sizeof x);
    x.st = st;
    x.err = err;
    x.pushed = pushed;
    root->block_depth++;
    int rc = build(&x, branch);
    root->block_depth--;
    if (rc != 0)
        return -1;
    *out = st;
    return 0;
}

/* Note in root's params each ? marker that n holds (subqueries aside:
 * their one value's type is theirs). */
static void mark_params_in(sql_stmt *root, const enode *n)
{
    if (!n || n->op == N_SUBQ)
        return;
    if (n->op == N_PARAM && n->param < root->nparams)
        root->params[n->param].in_output = true;
    for (size_t i = 0; i < n->nargs; i++)
        mark_params_in(root, n->args[i]);
}

/* sql_param_info.in_output of root's markers: those in the output
 * columns of block st, of its UNION branches and of its derived tables
 * (whose columns the outer block's columns read). */
static void mark_output_params(sql_stmt *root, const sql_stmt *st)
{
    for (size_t i = 0; i < st->ncols; i++)
        mark_params_in(root, st->cols[i].e);
    for (size_t b = 0; b < st->nbranch; b++)
        mark_output_params(root, st->branch[b]);
    for (size_t t = 0; t < st->ntabs; t++)
        if (st->tabs[t].sub)
            mark_output_params(root, st->tabs[t].sub);
}

int sql_stmt_prepare(sql_stmt **out, jet_db *db, const char *text,
                     size_t len, const sql_prepare_opts *opts,
                     sql_error *err)
{
    sql_error scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    *out = NULL;
    sql_query *q = NULL;
    const char *saved = opts ? opts->saved_query : NULL;
    char *ct = NULL;
    if (!saved && sql_adhoc_crosstab(&ct, db, text, len, opts, err) != 0)
        return sql_error_code(err);
    if (ct) {
        /* an ad-hoc TRANSFORM: the SELECT it runs as */
        int rc = sql_stmt_prepare(out, db, ct, strlen(ct), opts, err);
        free(ct);
        return rc;
    }
    if (sql_parse_query(&q, text, len, err) != 0) {
        if (saved)
            sql_error_in_saved(err, saved, 0);
        return sql_error_code(err);
    }
    return sql_stmt_plan(out, db, q, opts, err);
}

int sql_stmt_plan(sql_stmt **out, jet_db *db, sql_query *q,
                  const sql_prepare_opts *opts, sql_error *err)
{
    *out = NULL;
    const char *saved = opts ? opts->saved_query : NULL;
    sql_stmt *st = calloc(1, sizeof *st);
    if (!st) {
        sql_select_free(&q->sel);
        sql_set_nomem(err, 0);
        return sql_error_code(err);
    }
    st->db = db;
    st->q = q;
    st->qb = q;
    st->ar = &st->arena;
    st->root = st;
    st->limit = -1;
    st->top = -1;
    st->like_flags = LIKE_ACCESS | LIKE_ANSI;
    if (opts && opts->like_mode == SQL_LIKE_ACCESS)
        st->like_flags = LIKE_ACCESS;
    else if (opts && opts->like_mode == SQL_LIKE_ANSI)
        st->like_flags = LIKE_ANSI;
    if (opts) {
        st->crosstab_depth = opts->crosstab_depth;
        st->exact_decimal = opts->exact_decimal;
    }
    if (opts && opts->join_method >= SQL_JOIN_INDEX &&
        opts->join_method <= SQL_JOIN_LOOP)
        st->join_force = (uint8_t)opts->join_method;
    ctx x;
    memset(&x, 0, sizeof x);
    x.st = st;
    x.err = err;
    if (saved && !(st->view_name = sql_arena_strndup(st->ar, saved,
                                                     strlen(saved)))) {
        nomem(&x);
        sql_stmt_free(st);
        return sql_error_code(err);
    }
    st->nparams = q->sel.nparams;
    st->params = sql_arena_alloc(st->ar, (st->nparams ? st->nparams : 1) *
                                         sizeof *st->params);
    if (!st->params) {
        nomem(&x);
        sql_stmt_free(st);
        return sql_error_code(err);
    }
    for (size_t i = 0; i < st->nparams; i++)
        st->params[i].type = JET_T_TEXT;
    if (q->into) {
        /* a make-table's SELECT runs through ddl.c, which takes its INTO
         * away first: a query that still has one is a saved make-table
         * query read as a view */
        sql_set_error(err, "HYC00", saved ? 0 : q->into_position,
                      "not supported: SELECT ... INTO here (a make-table "
                      "query runs as a statement of its own)");
        sql_stmt_free(st);
        return sql_error_code(err);
    }
    for (size_t i = 0; i < q->ndecl && i < st->nparams; i++) {
        jet_type t = decl_type(q->decl[i].type);
        if (t) {
            st->params[i].type = t;
            st->params[i].declared = true;
        }
    }
    for (size_t i = 0; opts && opts->param_types && i < opts->nparam_types &&
                       i < st->nparams; i++) {
        if (st->params[i].declared)
            continue;
        st->params[i].bound = opts->param_types[i].type;
        st->params[i].bound_scale = opts->param_types[i].scale;
    }
    int brc = build(&x, false);
    if (brc == 0)
        mark_output_params(st, st);
    if (saved && st->nunbound)
        brc = unbound_fail(&x, saved, 0);
    if (brc != 0) {
        if (saved)
            sql_error_in_saved(err, saved, 0);
        sql_stmt_free(st);
        return sql_error_code(err);
    }
    st->explain = q->explain;
    if (st->explain) {
        /* one TEXT column "Plan" */
        out_col *oc = sql_arena_alloc(st->ar, sizeof *oc);
        if (!oc) {
            nomem(&x);
            sql_stmt_free(st);
            return sql_error_code(err);
        }
        oc->src = -1;
        oc->meta.name = "Plan";
        oc->meta.base_table = "";
        oc->meta.base_column = "";
        oc->meta.type = JET_T_MEMO;
        oc->meta.nullable = false;
        st->cols = oc;
        st->ncols = 1;
    }
    *out = st;
    return 0;
}

void sql_stmt_free(sql_stmt *st)
{
    if (!st)
        return;
    sql_cursor_discard(st->spare);
    st->spare = NULL;
    for (struct sql_view_ref *v = st->views; v; v = v->next)
        sql_select_free(&v->q->sel);
    sql_arena_free(&st->arena);
    if (st->q)
        sql_select_free(&st->q->sel);
    free(st);
}

size_t sql_stmt_ncols(const sql_stmt *st)
{
    return st->ncols;
}

const sql_result_col *sql_stmt_col(const sql_stmt *st, size_t i)
{
    return i < st->ncols ? &st->cols[i].meta : NULL;
}

size_t sql_stmt_nparams(const sql_stmt *st)
{
    return st->nparams;
}

const sql_param_info *sql_stmt_param(const sql_stmt *st, size_t i)
{
    return i < st->nparams ? &st->params[i] : NULL;
}

const char *sql_stmt_plan_text(const sql_stmt *st)
{
    return st->plan_text ? st->plan_text : "";
}

const jet_tdef *sql_stmt_tdef(const sql_stmt *st)
{
    return st->td;
}
