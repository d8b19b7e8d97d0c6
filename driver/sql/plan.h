/*
 * plan.h - a prepared statement as the operators and the evaluator read
 * it: compiled expressions (enode), output columns, each table's access
 * path and join level (tab_plan) and the query block (struct sql_stmt).
 * Written by the planner (plan.c and the files plan_int.h names), read
 * only after sql_stmt_prepare returns.
 */
#ifndef JET_DRIVER_SQL_PLAN_H
#define JET_DRIVER_SQL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "sql_internal.h"
#include "values.h"

/* --------------------------------------------------------- nodes */

enum {
    N_CONST = 1, N_COL, N_PARAM, N_NOT, N_AND, N_OR, N_XOR, N_CMP,
    N_ISNULL, N_BETWEEN, N_IN, N_LIKE, N_NEG, N_ARITH, N_CONCAT, N_FUNC,
    N_AGG,
    N_GKEY,         /* slot: the current group's GROUP BY value */
    N_SUBQ          /* sub: SQ_*; subq: the statement; slot: cursor state */
};
/* subquery forms (N_SUBQ sub) */
enum { SQ_SCALAR = 1, SQ_EXISTS, SQ_IN, SQ_ANY, SQ_ALL };
enum { CMP_EQ = 0, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum {
    A_COUNT_STAR = 1, A_COUNT, A_SUM, A_AVG, A_MIN, A_MAX, A_STDEV,
    A_STDEVP, A_VAR, A_VARP, A_FIRST, A_LAST
};
struct sql_funcdef;         /* func.h: scalar functions (N_FUNC) */

typedef struct enode enode;
struct enode {
    uint8_t op;             /* N_* */
    uint8_t sub;            /* CMP_*, A_*, arithmetic char */
    bool negated;           /* NOT BETWEEN / NOT IN / IS NOT NULL */
    bool soft;              /* a conjunct pushed into a view (rewrite.c
                               push_down): a data exception (class 22)
                               evaluating it counts as true, see
                               sql_eval_cond */
    uint8_t k;              /* static kind K_* */
    jet_type type;          /* result type for output (0 when NULL) */
    size_t position;        /* 1-based, for messages */
    uint16_t col;           /* N_COL: column position in its table */
    uint16_t tab;           /* N_COL: table of the statement (tabs[]) */
    uint8_t up;             /* N_COL: statements outward (correlated) */
    uint8_t cmp;            /* N_SUBQ ANY/ALL: CMP_* */
    bool distinct_arg;      /* N_AGG: COUNT(DISTINCT x) */
    sql_stmt *subq;         /* N_SUBQ */
    size_t param;           /* N_PARAM: 0-based */
    uint8_t pscale;         /* N_PARAM typed by its bound value
                               (sql_param_info.bound): a Decimal's scale */
    sv konst;               /* N_CONST */
    enode **args;           /* operands */
    size_t nargs;
    like_pat *pat;          /* N_LIKE with a constant pattern */
    uint8_t like_flags;     /* N_LIKE: LIKE_* */
    size_t slot;            /* N_AGG: aggregate slot */
    const char *text;       /* source text of a column (messages) */
    const struct sql_funcdef *fn;   /* N_FUNC: the function (func.h) */
    const in_set *inset;    /* N_IN over constants: their hash set, or
                               NULL (linear) */
};

/* ------------------------------------------------------- statement */

typedef struct out_col {
    sql_result_col meta;
    enode *e;
    int src;                /* >= 0: plain column of table 0 of a
                               single-table query (passthrough) */
    bool direct;            /* a table column given as read (e is N_COL) */
} out_col;

#define PLAN_MAX_KEYS 10
#define PLAN_MAX_TABS 64    /* tables per query block (bit masks) */

/** How one table is read (plan_access in access.c): scan, or an index
 *  walk/seek. Key values are constants and parameters, or for an index
 *  nested-loop join expressions over the tables before it. */
typedef struct access_path {
    bool use_index;
    uint16_t index_no;
    bool reverse;
    uint16_t neq;                       /* equality prefix columns */
    size_t eq_n[PLAN_MAX_KEYS];         /* values per prefix column */
    enode **eq_v[PLAN_MAX_KEYS];
    enode *lo, *hi;                     /* range on column neq */
    bool lo_incl, hi_incl;
    bool order_by_index;
    bool order_unique;      /* the index order has no equal keys */
    bool keys_vary;         /* keys read other tables: seek per outer row */
} access_path;

enum { JOIN_INNER = 0, JOIN_LEFT = 1 };
/* how a join level finds its rows (op_join.c) */
enum { M_SCAN = 0, M_INDEX, M_HASH, M_LOOP };

/** One table (or derived table) of a query block. */
typedef struct tab_plan {
    const char *name;       /* table name, or the derived table's alias */
    const char *alias;      /* AS name, or NULL */
    size_t position;
    const jet_tdef *td;     /* NULL for a derived table */
    sql_stmt *sub;          /* derived table: its statement */
    const jet_object *view; /* a saved query's derived table: the query
                               (rewrite.c rebuilds sub with outer conditions
                               pushed into it), else NULL */
    const sql_stmt *flat;   /* a derived table flatten_views reads as its
                               table: that statement (its cols[k].e->col
                               is the table column of its column k), else
                               NULL */
    uint16_t ncols;
    bool *proj;             /* per column: read by the query */
    access_path ap;
    /* as a level of the join (in st->order) */
    uint8_t join;           /* JOIN_*: against the tables before it */
    uint8_t method;         /* M_* */
    enode *on;              /* LEFT: ON condition deciding a match */
    enode *seek_on;         /* M_INDEX join: on without the equalities
                               the seek decides (as seek_filter) */
    enode *filter;          /* conditions checked with this level bound */
    enode *seek_filter;     /* M_INDEX join: filter without the equalities
                               the seek itself decides (used unless the
                               level falls back to scanning) */
    bool memo;              /* M_INDEX join on a one-column unique key:
                               rows cached per key (op_scan.c) */
    bool memo_leaf;         /* memo: the join probes a good part of the
                               table, so each descent also remembers
                               where its leaf's other keys are */
    bool memo_defer;        /* memo: fewer than two probes a key are
                               expected, so a key's values are copied
                               when it comes back, not at its first read */
    double est_rows;        /* estimated rows after this level */
    double est_cost;        /* estimated cost of this level (joinorder.c) */
    enode *build_filter;    /* M_HASH/M_LOOP: conditions on this table
                               alone, applied while storing its rows */
    size_t nhkeys;          /* M_HASH: hk_inner[i] = hk_outer[i] */
    enode **hk_inner, **hk_outer;
    const struct sql_expr *on_src;  /* LEFT: the ON condition parsed
                                       (compiled into on once all tables
                                       are bound) */
    /* outer joins: the optional side of a LEFT join is a group of levels
     * [head, gend) in FROM order (one table, or a parenthesised join) */
    uint16_t gend;          /* head (join == JOIN_LEFT): one past its last
                               level */
    int32_t gparent;        /* head: the enclosing group's head, or -1 */
    int32_t ginner;         /* innermost group containing this level, or -1 */
    size_t nmc;             /* conditions deciding group membership placed
                               at this level (all of them, for a NULL-
                               extended row; on holds what the level's
                               method leaves to check) */
    enode **mc;
    int32_t *mc_owner;      /* the head of the group each one decides */
} tab_plan;

/* Saved queries nest at most this deep in one statement (bind.c). */
#define SQL_MAX_VIEW_DEPTH 16

/* Query blocks (subqueries, derived tables, UNION members, saved queries
 * expanded) nest at most this deep in one statement, views included
 * (plan.c build_block): bounds the recursion of planning and of the
 * cursors that execute the blocks. The parser already holds one text to
 * SQL_MAX_QUERY_DEPTH; this leaves room for the saved queries it names. */
#define SQL_MAX_BLOCK_DEPTH 128

/* Derived tables one statement rebuilds with outer WHERE conditions
 * pushed into them (rewrite.c push_down): each rebuild plans the block
 * again, and a block whose own WHERE pushes into a block below rebuilds
 * that one too, so without a bound deep nests would be planned an
 * exponential number of times. Past it conditions stay outside only. */
#define SQL_MAX_PUSH_REBUILDS 64

struct sql_stmt {
    jet_db *db;
    struct sql_cursor *spare;   /* root: the last cursor closed, parked
                                   for the next open (exec.c
                                   sql_cursor_close), or NULL; owned */
    sql_query *q;           /* owned by the root statement only */
    sql_query *qb;          /* this block's part of the parse */
    const jet_tdef *td;     /* table 0's tdef, or NULL */
    sql_arena arena;        /* nodes, labels, plan text */
    sql_arena *ar;          /* the root's arena (children share it) */
    sql_stmt *parent;       /* enclosing block of a subquery, or NULL */
    sql_stmt *root;
    unsigned crosstab_depth;    /* root: pivot-value queries being prepared
                                   around it (sql_prepare_opts): bounds a
                                   crosstab whose pivot query reads itself */
    size_t ncols;
    out_col *cols;
    size_t nparams;
    sql_param_info *params;
    enode *where;
    bool where_const;       /* WHERE reads no column: decided at open */
    size_t norder;
    enode **order;
    bool *order_desc;
    size_t naggs;
    enode **aggs;
    bool distinct;
    bool distinct_hashed;   /* DISTINCT run as a GROUP BY of the select
                               list (plan.c distinct_as_group): distinct
                               is false, grouped true */
    int64_t top;            /* -1 none */
    bool top_percent;
    int64_t offset, limit;  /* limit -1 none */
    bool explain;
    unsigned like_flags;
    bool exact_decimal;     /* root: sql_prepare_opts.exact_decimal */
    /* tables: tabs[] in FROM order, order[] the join (execution) order */
    size_t ntabs;
    tab_plan *tabs;
    size_t *order_tabs;
    bool no_from;           /* SELECT without FROM: one row */
    /* grouping */
    bool grouped;           /* GROUP BY or aggregates: one row per group */
    size_t ngroup;
    enode **group;
    enode *having;
    /* the select list's alias scope (bind.c build_select_list): while
     * select item i is compiled, the aliases of items 0..i-1 are names
     * of this block, before its tables' columns (Access: a calculated
     * field may use an earlier field's alias, and the alias wins over a
     * field of that name); 0 outside the select list */
    size_t alias_scope;
    /* subqueries */
    bool correlated;        /* reads columns of an enclosing block */
    size_t nsubq;           /* N_SUBQ slots of this block */
    /* UNION: branches[0] is this block's own select, run as a child */
    size_t nbranch;
    sql_stmt **branch;
    bool union_distinct;
    size_t *order_out;      /* UNION ORDER BY: output column per key */
    bool materialize;
    int64_t topn;           /* TOP n (no PERCENT) over a sort that keeps
                               only the best n records plus ties (op_sort.c
                               top-N sort): n; 0 when every record is
                               sorted */
    /* correlated subqueries hashed once (rewrite.c decorrelate) */
    bool hashed;            /* this subquery block: its one table is an
                               M_HASH level keyed by its equalities with
                               the enclosing block (hk_outer reads that
                               block's row); its cursor is kept between
                               outer rows and rerun per row (op_subq.c) */
    size_t nhsub;           /* this block's subquery nodes whose blocks */
    const enode **hsub;     /* are hashed (for EXPLAIN) */
    bool count_tdef;        /* COUNT(*) alone over one table, no WHERE:
                               the TDEF's row count, no page read */
    char *plan_text;
    size_t or_in_chains;    /* OR chains of col = constant folded into IN
                               (compile.c compile_or), for EXPLAIN */
    size_t or_in_terms;     /* the terms they had */
    const sql_prepare_opts *popts;
    uint8_t join_force;     /* sql_join_method forced (tests), 0 auto */
    /* saved queries expanded as derived tables (bind.c bind_view; root
     * block only): their parse trees, freed with the statement, and the
     * chain of views being expanded (a view naming itself is an error) */
    struct sql_view_ref *views;
    const jet_object *view_stack[SQL_MAX_VIEW_DEPTH];
    unsigned view_depth;
    unsigned block_depth;   /* blocks being built below the root (root
                               block only), <= SQL_MAX_BLOCK_DEPTH */
    unsigned push_rebuilds; /* root: derived tables rebuilt with outer
                               conditions pushed in (rewrite.c push_down),
                               at most SQL_MAX_PUSH_REBUILDS */
    /* saved queries: a block built from a saved query's SQL (bind_view,
     * or the text of a {call}) names it; its errors name it too and give
     * no character positions in that rebuilt text, which the user never
     * saw (sql_error_in_saved) */
    const char *view_name;  /* the saved query, or NULL (the user's SQL) */
    size_t view_pos;        /* position to report instead: where the
                               user's statement names the outermost saved
                               query (0 for a {call}) */
    size_t view_outer_pos;  /* root: view_pos of the views being bound */
    /* root: names a saved query's SQL cannot bind (bind.c unbound_name):
     * Access asks for each as a parameter, so the query needs that many
     * values (07002), not 42S22 */
    size_t nunbound;
    struct sql_unbound *unbound;    /* distinct names, newest first */
};

/** plan.c: plan the parsed query q (taking it: freed with the statement,
 *  or here on failure) against db; as sql_stmt_prepare after its parse. */
int sql_stmt_plan(sql_stmt **out, jet_db *db, struct sql_query *q,
                  const sql_prepare_opts *opts, sql_error *err);

/** textbound.c: the most characters text expression n of block st can
 *  give (a number or date as text counts 40), SQL_TEXT_UNBOUNDED when
 *  no bound is known (a parameter, a Memo, Space of a column). */
uint32_t sql_text_bound(const sql_stmt *st, const enode *n);

/** bind.c: an ad-hoc TRANSFORM ... PIVOT statement (Access SQL typed, not
 *  saved) as the SELECT it runs as, as a saved crosstab runs: *out
 *  malloc'd, NULL when text is no TRANSFORM. 0, or -1 with err (42000
 *  malformed, HYC00 an aggregate it cannot pivot or parameters without an
 *  IN list, the errors of the query finding the pivot values). */
int sql_adhoc_crosstab(char **out, jet_db *db, const char *text, size_t len,
                       const sql_prepare_opts *opts, sql_error *err);

#endif
