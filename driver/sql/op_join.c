/*
 * op_join.c - the join operator: nested loops over the block's tables in
 * plan order (st->order_tabs), one level per table, pulling one joined
 * row per call.
 *
 * Level L is (re)started (sql_tab_start) each time level L-1 moves to a
 * new row: a seek with keys from the outer rows (index nested loop), a
 * probe of the stored rows' hash buckets (hash join), all stored rows
 * (nested loop) or, for level 0, the scan or seek itself. A row of level
 * L counts when its conditions pass: for a LEFT join first its ON
 * condition (a row passing it is a match), then the level's filter (the
 * WHERE and inner ON conjuncts whose tables are all positioned at L).
 * A LEFT level that ends without a match yields one NULL-extended row,
 * which its filter still judges (SQL's WHERE after the outer join).
 * A single table is one level, its filter the whole WHERE: the plain
 * scan/seek path of before, with no allocation per row. A block without
 * FROM gives one row.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"

/* Start level L: its table re-positioned for the current outer rows. */
static int level_start(sql_cursor *c, size_t L)
{
    size_t tab = c->st->order_tabs[L];
    tcur *t = &c->t[tab];
    t->matched = false;
    t->null_done = false;
    return sql_tab_start(c, tab);
}

/* A row of level L passed its group conditions: every outer-join group
 * whose last level is L has a match (they nest, innermost first). With
 * outer joins the levels are the tables in FROM order. */
static void mark_matched(sql_cursor *c, size_t L)
{
    const sql_stmt *st = c->st;
    int32_t h = st->tabs[st->order_tabs[L]].ginner;
    for (unsigned d = 0; h >= 0 && d <= PLAN_MAX_TABS; d++) {
        const tab_plan *hp = &st->tabs[h];
        if ((size_t)hp->gend != L + 1)
            break;
        c->t[h].matched = true;
        h = hp->gparent;
    }
}

/* Level-next result: the group headed by this level was NULL-extended
 * (continue after the group). */
#define LEVEL_NULL_GROUP 100

/* The group headed by h found no match: all its tables NULL. The row
 * still has to pass what the enclosing groups decide at those levels
 * and the levels' own filters (the WHERE after the outer join). 1 a row,
 * 0 none, -1 error. */
static int null_extend(sql_cursor *c, size_t h)
{
    const sql_stmt *st = c->st;
    size_t end = st->tabs[h].gend;
    for (size_t j = h; j < end; j++) {
        tcur *t = &c->t[j];
        t->null_row = true;
        t->null_from = (uint16_t)h;
        t->vals = NULL;
        t->gen++;
    }
    for (size_t j = h; j < end; j++) {
        const tab_plan *tp = &st->tabs[j];
        for (size_t k = 0; k < tp->nmc; k++) {
            if (tp->mc_owner[k] >= (int32_t)h)
                continue;       /* decides this group or one inside it */
            int ok = sql_eval_cond(c, tp->mc[k]);
            if (ok <= 0)
                return ok;
        }
    }
    for (int32_t g = st->tabs[h].gparent; g >= 0; g = st->tabs[g].gparent) {
        if ((size_t)st->tabs[g].gend != end)
            break;
        c->t[g].matched = true;
    }
    for (size_t j = h; j < end; j++) {
        const tab_plan *tp = &st->tabs[j];
        if (tp->filter) {
            int ok = sql_eval_cond(c, tp->filter);
            if (ok <= 0)
                return ok;
        }
    }
    return 1;
}

/* The next row of a level that walks the rows of a hash join's matched
 * key (tcur.in_group), an inner join level that decides
 * no outer-join group: those rows need no key comparison, so only the
 * level's filter is left to judge them (what level_next would do, without
 * its bookkeeping). JET_OK, JET_DONE (the group is done: the caller goes
 * on as usual) or -1. */
static int group_next(sql_cursor *c, const tab_plan *tp, tcur *t)
{
    for (;;) {
        hrow *r = t->cand;
        if (!r)
            return JET_DONE;
        if (sql_tick(c) != 0)
            return -1;
        t->cand = r->dup;
        t->vals = r->vals;
        t->gen++;
        sql_tmp_reset(c);
        if (tp->filter) {
            int ok = sql_eval_cond(c, tp->filter);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
        }
        return JET_OK;
    }
}

/* Whether level t (plan tp) walks a matched key group group_next can
 * take over. */
static bool group_fast(const tab_plan *tp, const tcur *t)
{
    return t->in_group && !t->null_row && !t->rescan &&
           tp->join == JOIN_INNER && tp->ginner < 0 && !tp->on;
}

/* Next row of level L passing its conditions: JET_OK, JET_DONE,
 * LEVEL_NULL_GROUP or -1. */
static int level_next(sql_cursor *c, size_t L)
{
    size_t tab = c->st->order_tabs[L];
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    for (;;) {
        if (t->null_done)
            return JET_DONE;
        if (group_fast(tp, t)) {
            /* the rest of a matched key's rows: only the filter */
            int r = group_next(c, tp, t);
            if (r != JET_DONE)
                return r;
        }
        if (t->ff && tp->join == JOIN_INNER && tp->ginner < 0 && !tp->on &&
            tp->method == M_SCAN && !tp->sub && !t->rescan) {
            /* a plain scan whose filter reads the row's bytes: the rows
             * judged in one loop, only a passing one comes back */
            return sql_fast_filter_next(c, tab, t->ff);
        }
        int r = sql_tab_next(c, tab);
        if (r < 0)
            return -1;
        sql_tmp_reset(c);
        if (r == JET_DONE) {
            if (tp->join != JOIN_LEFT || t->matched)
                return JET_DONE;
            /* no match: the NULL-extended row (of the whole group) */
            t->null_done = true;
            r = null_extend(c, tab);
            if (r < 0)
                return -1;
            return r ? LEVEL_NULL_GROUP : JET_DONE;
        }
        /* conditions deciding outer-join groups (an index join's seek
         * has matched its equalities already) */
        const enode *on = tp->method == M_INDEX && !t->scanning ?
                          tp->seek_on : tp->on;
        if (on) {
            int ok = sql_eval_cond(c, on);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
        }
        if (tp->ginner >= 0)
            mark_matched(c, L);
        /* an index join's seek has matched its equalities already */
        const enode *f = tp->method == M_INDEX && !t->scanning ?
                         tp->seek_filter : tp->filter;
        if (f) {
            /* the scan's own row: its filter read from the bytes */
            int ok = t->ff && f == tp->filter && !t->vals && !t->null_row
                     ? sql_fast_filter_eval(c, tab, t->ff)
                     : sql_eval_cond(c, f);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
        }
        return JET_OK;
    }
}

/* Back from level L to the level before it; a level inside a group that
 * was NULL-extended goes back to the group's head (which is done). */
static size_t level_back(const sql_cursor *c, size_t L)
{
    const tcur *t = &c->t[c->st->order_tabs[L]];
    if (t->null_row && t->null_from < L)
        return t->null_from;
    return L;
}

int sql_join_next(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t n = st->ntabs;
    if (n == 0) {
        /* SELECT without FROM: one row */
        if (c->join_started)
            return JET_DONE;
        c->join_started = true;
        return JET_OK;
    }
    size_t L;
    if (!c->join_started) {
        c->join_started = true;
        if (level_start(c, 0) != 0)
            return -1;
        L = 0;
    } else {
        size_t tab = st->order_tabs[n - 1];
        const tab_plan *tp = &st->tabs[tab];
        tcur *t = &c->t[tab];
        if (group_fast(tp, t)) {
            int r = group_next(c, tp, t);
            if (r != JET_DONE)
                return r;
        }
        L = level_back(c, n - 1);
    }
    for (;;) {
        size_t hl;
        if (sql_hash_replaying(c, &hl) && L < hl) {
            /* a partitioned hash join: the outer rows come back from the
             * temporary file, level hl started for each */
            int r = sql_hash_replay_next(c, &L);
            if (r != JET_OK)
                return r;
            continue;
        }
        int r = level_next(c, L);
        if (r < 0)
            return -1;
        if (r == JET_DONE) {
            if (L == 0) {
                /* the outer rows are done; a partitioned hash join
                 * joins its partitions now */
                r = sql_hash_replay_start(c);
                if (r < 0)
                    return -1;
                if (r > 0)
                    continue;
                return JET_DONE;
            }
            L = level_back(c, L - 1);
            continue;
        }
        size_t next = r == LEVEL_NULL_GROUP
                      ? st->tabs[st->order_tabs[L]].gend : L + 1;
        if (next >= n)
            return JET_OK;
        L = next;
        if (level_start(c, L) != 0)
            return -1;
    }
}
