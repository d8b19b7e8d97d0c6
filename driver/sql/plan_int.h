/*
 * plan_int.h - what the planner's files (plan.c, bind.c, compile.c,
 * rewrite.c, access.c, joinorder.c, explain.c) share: the per-block
 * build context, the condition lists, and the functions one of them
 * calls in another. No file outside the planner includes it.
 */
#ifndef JET_DRIVER_SQL_PLAN_INT_H
#define JET_DRIVER_SQL_PLAN_INT_H

#include "plan.h"

typedef struct ctx {
    sql_stmt *st;
    sql_error *err;
    bool in_where;          /* aggregates refused */
    bool in_agg;            /* nested aggregates refused */
    const char *no_agg;     /* clause refusing aggregates (GROUP BY, ON) */
    size_t naggs_cap;
    enode *pushed;          /* conditions of an enclosing block pushed
                               into this one (push_down): ANDed to WHERE */
} ctx;

/* One conjunct of WHERE and the inner joins' ON conditions. */
typedef struct conj {
    enode *e;
    uint64_t m;             /* tables it reads */
    size_t minL;            /* outer joins: the first level it may be
                               checked at (after the groups of the tables
                               it reads are complete) */
    bool used;
} conj;

typedef struct conj_list {
    conj *v;
    size_t n, cap;
} conj_list;

/* Pending ON conditions of inner joins (compiled once all tables are
 * bound), each with the outer-join group it lies in (owner: the group's
 * head, -1 outside any: then it is a condition like WHERE's). */
typedef struct on_list {
    const sql_expr **v;
    int32_t *owner;
    size_t n, cap;
} on_list;

#define MAX_HASH_KEYS 16

/** A saved query's parse tree kept by the root statement. */
struct sql_view_ref {
    sql_query *q;
    struct sql_view_ref *next;
};

/* Functions one planner file calls in another, by the file defining
 * them (each explained where it is defined). */

/* plan.c */
int fail(ctx *x, const char *state, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int nomem(ctx *x);
void *arena_alloc_cb(void *a, size_t n);
enode *new_node(ctx *x, uint8_t op, size_t pos);
int alloc_args(ctx *x, enode *n, size_t count);
int build_block(sql_stmt **out, sql_stmt *parent, sql_stmt *root,
                sql_query *qb, bool branch, enode *pushed,
                sql_error *err);

/* bind.c */
const jet_column *node_column(const sql_stmt *st, const enode *n);
const char *tab_label(const tab_plan *tp);
jet_type decl_type(sql_ptype t);
int unbound_fail(ctx *x, const char *qname, size_t pos);
int compile_column(ctx *x, const sql_expr *e, enode **out);
bool enode_equal(const enode *a, const enode *b);
int group_rewrite(ctx *x, enode **np, const char *label);
int long_value_rules(ctx *x);
size_t count_tabs(const sql_from *f);
int flatten(ctx *x, const sql_from *f, size_t *k, on_list *ons,
            bool *has_left, int32_t grp);
int build_select_list(ctx *x);
int build_order(ctx *x);

/* compile.c */
uint8_t kind_of_type(jet_type t);
bool numeric_kind(uint8_t k);
uint64_t node_tabs(const enode *n);
size_t utf8_chars(const char *s);
int compile(ctx *x, const sql_expr *e, enode **out);
bool uses_row(const enode *n);

/* rewrite.c */
int decorrelate(ctx *x, enode *n);
int flatten_views(ctx *x, conj_list *cl, conj_list *ml);
int push_down(ctx *x);

/* access.c */
bool own_col(const enode *n, uint16_t tab);
bool is_text_type(jet_type t);
int plan_access(ctx *x, uint16_t tab, enode *const *conds,
                size_t nconds, uint64_t avail, bool allow_order);

/* joinorder.c */
int split_conj(ctx *x, enode *e, conj_list *l, uint64_t all);
enode *and_tree(ctx *x, enode **v, size_t lo, size_t hi);
int hash_class(uint8_t k);
int grow_owners(ctx *x, int32_t **own, size_t from, size_t to,
                int32_t owner);
int place_group_conds(ctx *x, conj_list *ml, const int32_t *mown);
int plan_joins(ctx *x, conj_list *l, bool has_left);

/* explain.c */
int plan_text(ctx *x);

#endif
