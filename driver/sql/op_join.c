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

#include "engine_int.h"

/* Start level L: its table re-positioned for the current outer rows. */
static int level_start(sql_cursor *c, size_t L)
{
    size_t tab = c->st->order_tabs[L];
    tcur *t = &c->t[tab];
    t->matched = false;
    t->null_done = false;
    return sql_tab_start(c, tab);
}

/* Next row of level L passing its conditions: JET_OK, JET_DONE or -1. */
static int level_next(sql_cursor *c, size_t L)
{
    size_t tab = c->st->order_tabs[L];
    const tab_plan *tp = &c->st->tabs[tab];
    tcur *t = &c->t[tab];
    for (;;) {
        if (t->null_done)
            return JET_DONE;
        int r = sql_tab_next(c, tab);
        if (r < 0)
            return -1;
        sql_tmp_reset(c);
        if (r == JET_DONE) {
            if (tp->join != JOIN_LEFT || t->matched)
                return JET_DONE;
            /* no match: the NULL-extended row */
            t->null_done = true;
            t->null_row = true;
            t->vals = NULL;
            t->gen++;
        } else if (tp->join == JOIN_LEFT && tp->on) {
            int ok = sql_eval_cond(c, tp->on);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
            t->matched = true;
        } else {
            t->matched = true;
        }
        /* an index join's seek has matched its equalities already */
        const enode *f = tp->method == M_INDEX && !t->scanning ?
                         tp->seek_filter : tp->filter;
        if (f) {
            int ok = sql_eval_cond(c, f);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
        }
        return JET_OK;
    }
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
        L = n - 1;
    }
    for (;;) {
        int r = level_next(c, L);
        if (r < 0)
            return -1;
        if (r == JET_DONE) {
            if (L == 0)
                return JET_DONE;
            L--;
            continue;
        }
        if (L == n - 1)
            return JET_OK;
        L++;
        if (level_start(c, L) != 0)
            return -1;
    }
}
