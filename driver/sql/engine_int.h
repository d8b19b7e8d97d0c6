/*
 * engine_int.h - shared by plan.c, eval.c, exec.c and the operators
 * op_scan.c, op_join.c, op_agg.c, op_subq.c, op_union.c only.
 *
 * sv: a value during evaluation (NULL, bool, integer, money units,
 * double, date, UTF-16 text, bytes). enode: an expression compiled
 * against the table (columns resolved to tdef positions, literals
 * converted, LIKE patterns compiled). sql_stmt: the plan; sql_cursor:
 * one run of it. Text inside sv is UTF-16 code units (host order),
 * borrowed from a column cache, a parameter, the statement's arena or
 * the cursor's per-row scratch.
 */
#ifndef JET_DRIVER_SQL_ENGINE_INT_H
#define JET_DRIVER_SQL_ENGINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "int128.h"
#include "spill.h"
#include "sql_internal.h"

/* ---------------------------------------------------------- values */

/** Value kinds (static types of enodes use the same codes). */
enum {
    K_NULL = 0,
    K_BOOL,         /* i: 0 or 1 (compares as 0 / -1, Access True = -1) */
    K_INT,          /* i */
    K_MONEY,        /* i: 1/10000 units */
    K_DOUBLE,       /* d; has_units: a literal exact in money units (i) */
    K_DATE,         /* d: days since 1899-12-30 (Jet encoding) */
    K_TEXT,         /* s, n: UTF-16 code units */
    K_BIN,          /* p, len */
    K_GUID,         /* p: 16 bytes */
    K_ANY,          /* static only: a parameter of unknown type */
    K_DEC           /* m / 10^scale exactly (Decimal; func_dec.c) */
};

typedef struct sv {
    uint8_t k;
    bool has_units;
    bool has_dec;           /* K_DOUBLE literal: m, scale exact too */
    bool single;            /* K_DOUBLE: a Single's value (a column or
                               CSng): text shows 7 digits, as VBA does */
    uint8_t scale;          /* K_DEC (and has_dec): decimal places */
    int64_t i;
    double d;
    const uint16_t *s;
    size_t n;
    const uint8_t *p;
    size_t len;
    jet_i128 m;             /* K_DEC (and has_dec): scaled integer */
} sv;

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

/* LIKE wildcard flags */
#define LIKE_ACCESS 1u      /* * ? # */
#define LIKE_ANSI 2u        /* % _ */

typedef struct like_pat like_pat;

/**
 * The constants of an IN (...) list as a hash set (plan.c builds it at
 * prepare for lists of at least SQL_IN_SET_MIN items that are all
 * constants of one hash class; eval.c probes it). Equality is sql_sv_cmp's
 * (text: equal ignoring case, as '=' compares), so a probe finds exactly
 * the items the linear OR-form would; values of another class (or ones
 * whose hash could disagree with that equality) take the linear path.
 * Slots hold item pointers (open addressing, linear probing); arena memory.
 */
typedef struct in_set {
    uint8_t cls;            /* IN_C_* of every non-NULL item */
    bool has_null;          /* a NULL among the items: a miss is NULL */
    size_t mask;            /* slots - 1 (a power of two) */
    const sv **slot;        /* NULL: empty */
    uint64_t *hash;         /* sql_sv_hash of slot[i]'s value */
} in_set;

/** IN lists at least this long (constants) get an in_set. */
#define SQL_IN_SET_MIN 8

/** Hash classes of in_set (0: a value no set can hold or probe). */
enum { IN_C_NUM = 1, IN_C_DATE, IN_C_TEXT, IN_C_BIN, IN_C_GUID };

typedef struct enode enode;
struct enode {
    uint8_t op;             /* N_* */
    uint8_t sub;            /* CMP_*, A_*, arithmetic char */
    bool negated;           /* NOT BETWEEN / NOT IN / IS NOT NULL */
    bool soft;              /* a conjunct pushed into a view (plan.c
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

/** How one table is read (plan_access in plan.c): scan, or an index
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
                               (plan.c rebuilds sub with outer conditions
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
    double est_rows;        /* estimated rows after this level */
    double est_cost;        /* estimated cost of this level (plan.c) */
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

/* Saved queries nest at most this deep in one statement (plan.c). */
#define SQL_MAX_VIEW_DEPTH 16

/* Query blocks (subqueries, derived tables, UNION members, saved queries
 * expanded) nest at most this deep in one statement, views included
 * (plan.c build_block): bounds the recursion of planning and of the
 * cursors that execute the blocks. The parser already holds one text to
 * SQL_MAX_QUERY_DEPTH; this leaves room for the saved queries it names. */
#define SQL_MAX_BLOCK_DEPTH 128

/* Derived tables one statement rebuilds with outer WHERE conditions
 * pushed into them (plan.c push_down): each rebuild plans the block
 * again, and a block whose own WHERE pushes into a block below rebuilds
 * that one too, so without a bound deep nests would be planned an
 * exponential number of times. Past it conditions stay outside only. */
#define SQL_MAX_PUSH_REBUILDS 64

struct sql_stmt {
    jet_db *db;
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
    int64_t top;            /* -1 none */
    bool top_percent;
    int64_t offset, limit;  /* limit -1 none */
    bool explain;
    unsigned like_flags;
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
                               only the best n records plus ties (exec.c
                               top-N sort): n; 0 when every record is
                               sorted */
    /* correlated subqueries hashed once (plan.c decorrelate) */
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
                               (plan.c compile_or), for EXPLAIN */
    size_t or_in_terms;     /* the terms they had */
    const sql_prepare_opts *popts;
    uint8_t join_force;     /* sql_join_method forced (tests), 0 auto */
    /* saved queries expanded as derived tables (plan.c bind_view; root
     * block only): their parse trees, freed with the statement, and the
     * chain of views being expanded (a view naming itself is an error) */
    struct sql_view_ref *views;
    const jet_object *view_stack[SQL_MAX_VIEW_DEPTH];
    unsigned view_depth;
    unsigned block_depth;   /* blocks being built below the root (root
                               block only), <= SQL_MAX_BLOCK_DEPTH */
    unsigned push_rebuilds; /* root: derived tables rebuilt with outer
                               conditions pushed in (plan.c push_down),
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
    /* root: names a saved query's SQL cannot bind (plan.c unbound_name):
     * Access asks for each as a parameter, so the query needs that many
     * values (07002), not 42S22 */
    size_t nunbound;
    struct sql_unbound *unbound;    /* distinct names, newest first */
};

/* ---------------------------------------------------------- cursor */

typedef struct colcache {
    uint64_t vgen, sgen;
    jet_value v;
    sv s;
    uint16_t *u16;
    size_t u16cap;
    uint8_t *copy;
    size_t copycap;
} colcache;

typedef struct tmp_chunk tmp_chunk;

/** One aggregate's running state in a group. The fields an aggregate
 *  kind does not use overlap (the union), keeping groups small. */
typedef struct agg_state {
    int64_t count;
    bool have;              /* MIN/MAX/FIRST/LAST: a value seen;
                               COUNT(DISTINCT): dvals de-duplicated */
    double dsum;
    union {
        jet_i128 wide;      /* SUM/AVG: exact integer / money sum */
        sv dec;             /* SUM/AVG of Decimal: exact (func_dec.c) */
        struct {            /* StDev/Var: Welford */
            double mean, m2;
        };
        struct {            /* MIN/MAX/FIRST/LAST */
            sv best;
            uint16_t *buf;  /* text copy (malloc) */
            size_t cap;
            uint8_t *bbuf;  /* bytes copy (malloc) */
            size_t bcap;
        };
        struct {            /* COUNT(DISTINCT): copies of the values */
            sv *dvals;
            size_t ndvals, dcap;
        };
    };
} agg_state;

/**
 * A stored row of a sort, DISTINCT, grouping or UNION (exec.c): one
 * contiguous byte string, the same in memory and in the sorted runs of
 * the temporary file, 8-byte aligned with len a multiple of 8:
 *   this header;
 *   the binary ORDER BY key (sortkey.c), bklen bytes, zero-padded to 8;
 *   the output row packed (exec.c row_pack: per column its type, NULL
 *   flag and the payload its type needs), rowlen bytes, padded to 8;
 *   nsv sort keys as values (sql_spill_put_sv), only when the order or
 *   DISTINCT compares values (sql_cursor.store_sv).
 * The values are rebuilt as jet_values (into sql_cursor.vcur) only when
 * the row is fetched.
 */
typedef struct rec {
    uint32_t len;           /* bytes of the whole record */
    uint32_t rowlen;        /* bytes of the packed row */
    uint64_t seq;           /* tie order: reading (or group) order */
    uint32_t bklen;         /* bytes of the binary key, 0 none */
    uint32_t nsv;           /* sort keys stored as values: 0 or nkeys */
} rec;

/** A growing byte buffer for one row's binary sort key (sortkey.c). */
typedef struct sql_sortkey_buf {
    uint8_t *p;
    size_t len, cap;
} sql_sortkey_buf;

/**
 * sortkey.c: append v's segment of a binary sort key to b (memcmp order
 * of whole keys = sql_key_cmp order per column, DESC inverted). *cls is
 * the column's encoding class, 0 until its first non-NULL value. Returns
 * 0, 1 when v cannot be encoded in the column's class (compare values
 * instead), -1 out of memory.
 */
int sql_sortkey_append(sql_sortkey_buf *b, uint8_t *cls, jet_collation co,
                       const sv *v, bool desc);

/**
 * sortkey.c: order of two UTF-16 texts in Access's General sort order co
 * (the running statement's db's, sql_cursor.text_order: the order of its
 * text indexes; JET_COLL_NONE: General - Legacy), then by case-folded
 * code points: -1, 0, 1; 0 exactly when they are equal ignoring case
 * (jet_text_fold). Keys as jet_text_sort_key_co().
 */
int sql_collate_cmp(jet_collation co, const uint16_t *a, size_t an,
                    const uint16_t *b, size_t bn);

/** A stored row of one table (hash join / materialized inner side). */
typedef struct hrow hrow;
struct hrow {
    hrow *next;             /* bucket chain (tcur.hgrouped: of the key
                               groups' first rows) */
    hrow *lnext;            /* all stored rows, in reading order */
    hrow *dup;              /* tcur.hgrouped: the next row of this row's
                               key group, in reading order */
    uint64_t hash;
    sv *keys;               /* M_HASH: the inner join key values */
    jet_value *vals;        /* per column (unread ones NULL) */
};

/** A cached index nested-loop probe (tcur.memo, op_scan.c): key -> the
 *  row's projected values (copied in tcur.hmem) or its position. */
typedef struct memo_ent {
    int64_t key;
    const jet_value *vals;  /* state 1: per column as tcur.vals, or NULL
                               (past the budget: fetch pgno/row again) */
    uint32_t pgno;
    uint16_t row;
    uint8_t state;          /* 0 slot empty, 1 the row at pgno/row,
                               2 no row has this key */
} memo_ent;

/** One group of a GROUP BY, one piece of the cursor's group arena
 *  (c->gmem): this header, its GROUP BY values encoded as
 *  sql_spill_put_sv writes them (kblen bytes), then from the next 16-byte
 *  boundary its aggregate states (op_agg.c grp_kb, grp_aggs). */
typedef struct agg_group agg_group;
struct agg_group {
    uint64_t seq;               /* input row that made the group */
    uint64_t kblen;
};

/** A slot of the GROUP BY hash table (open addressing, linear probing):
 *  the group's key hash beside it, so probes skip other keys without
 *  reading their groups. g NULL: empty. */
typedef struct agg_slot {
    uint64_t hash;
    agg_group *g;
} agg_slot;

struct agg_spill;               /* op_agg.c: partitions on disk */
struct sort_spill;              /* exec.c: sorted runs on disk */

/** Run state of one table of the join (op_scan.c, op_join.c). */
typedef struct tcur {
    jet_scan *scan;
    jet_index_cursor *ix;
    sql_cursor *sub;        /* derived table's cursor */
    colcache *cc;
    uint64_t gen;           /* bumped per row made current */
    bool null_row;          /* LEFT: the NULL-extended row is current */
    uint16_t null_from;     /* null_row: head of the group extended */
    const jet_value *vals;  /* stored row current (M_HASH/M_LOOP, or an
                               M_INDEX memo's copy), else NULL */
    /* seek */
    bool src_done, src_started;
    bool scanning;          /* seek impossible for these keys: scan */
    bool opened;            /* started once (rewind before the next) */
    size_t nkeyt;           /* key tuples (seek) */
    sv *eqvals[PLAN_MAX_KEYS];  /* sorted, distinct values per column */
    size_t eqn[PLAN_MAX_KEYS];
    size_t odo[PLAN_MAX_KEYS];
    /* level state */
    bool matched, null_done;
    /* stored rows */
    bool built;
    sql_mem hmem;           /* their memory (M_HASH, M_LOOP; M_INDEX:
                               the memo's row copies) */
    size_t hbytes;          /* bytes of it counted in c->recbytes */
    hrow **buckets;
    size_t nbuckets;
    hrow *all;              /* every stored row (M_LOOP), in order */
    hrow *cand;             /* next candidate */
    bool hgrouped;          /* M_HASH: bucket chains hold one row per
                               distinct key, its equals on hrow.dup */
    bool in_group;          /* hgrouped: cand walks the matched group */
    uint64_t probe;
    bool probe_null;
    sv *pkeys;              /* M_HASH: the probe's key values */
    bool rescan;            /* M_HASH/M_LOOP past the budget, not
                               partitioned: no stored rows, the table
                               read again per outer row (op_scan.c) */
    sv *rkeys;              /* rescan: a row's inner key values */
    uint8_t *pkbuf;         /* their text / bytes (owned) */
    size_t pkcap;
    /* M_INDEX memo (tab_plan.memo): open addressing, power of two */
    memo_ent *memo;
    size_t memo_cap, memo_n;
    int64_t memo_key;       /* the current probe's key */
    bool memo_miss;         /* the current probe seeks: record its row */
    bool memo_hit;          /* the current probe's row comes from memo */
    bool memo_leaf_off;     /* stop learning leaves (full, odd entries) */
    memo_ent memo_cur;
    size_t memo_at;         /* memo_hit: memo_cur's slot */
} tcur;

/** Run state of one subquery node (op_subq.c). */
typedef struct subq_state {
    bool done;              /* uncorrelated: result cached */
    sv val;                 /* SQ_SCALAR / EXISTS result */
    uint16_t *text;         /* scalar text copy */
    size_t tcap;
    uint8_t *bin;
    size_t bcap;
    sv *set;                /* SQ_IN/ANY/ALL: values (chunk memory) */
    size_t nset, setcap;
    bool set_null;          /* a NULL among them */
    bool sorted;            /* set sorted by key order (binary search) */
    tmp_chunk *mem;
    sql_cursor *k;          /* a hashed block (sql_stmt.hashed): its
                               cursor, kept with its stored rows between
                               outer rows, or NULL before the first */
    uint64_t kread;         /* k's rows read already added to the outer
                               cursor's */
} subq_state;

/** How a cursor gives its rows (sql_cursor.mode; exec.c, op_sort.c). */
enum { MODE_STREAM = 0, MODE_MAT = 1, MODE_GROUPS = 2, MODE_EXPLAIN = 3,
       MODE_MERGE = 4 };

struct sql_cursor {
    sql_stmt *st;
    sql_cursor *outer;      /* enclosing block's cursor (subqueries) */
    jet_error core_err;     /* copy of the core's detail */
    bool core_failed;       /* the last failure came from the core */
    jet_db *db;
    jet_collation text_order;   /* db's sort order: text comparisons */
    sql_error err;
    sql_cursor_opts opts;
    double now;             /* NOW() of this run, Jet days */
    /* parameters */
    sv *params;
    bool params_owned;
    uint16_t *param_text;
    like_pat **param_pats;  /* per LIKE node with a parameter pattern */
    /* tables */
    tcur *t;                /* per st->tabs */
    int lvl;                /* join: deepest positioned level, -1 none */
    struct hj_spill *hj;    /* a hash join partitioned to the temporary
                               file (op_scan.c), or NULL */
    bool join_started;
    /* one table read in its stored order with no condition, offset or row
     * limit (set by start_run): past the first row, sql_cursor_next asks
     * the table for its next row without the join loop */
    bool plain;
    tmp_chunk *tmp;         /* per-row scratch (reset each row) */
    /* output conversion buffers, one per output column */
    uint8_t **obuf;
    size_t *ocap;
    /* source */
    bool src_done;
    uint64_t nread;
    /* streaming window */
    uint64_t nout, skipped;
    sv *tie;                /* order keys of the TOP-th row */
    uint16_t *tie_text;
    size_t tie_cap;
    bool have_tie;
    /* materialized */
    int mode;               /* 0 streaming, 1 materialized, 2 aggregate */
    rec **rows;
    size_t nrows, rcap, rpos, rend;
    size_t nkeys;           /* per record */
    tmp_chunk *recmem;      /* record storage (never reset) */
    size_t recbytes;
    const rec *cur;          /* the current stored row */
    jet_value *vcur;        /* cur's output values (rebuilt per row) */
    bool bin_keys;          /* every record has a binary ORDER BY key */
    bool store_sv;          /* records keep their sort keys as values:
                               DISTINCT, or an ORDER BY key whose values
                               may not all encode as binary keys */
    uint8_t *kclass;        /* per ORDER BY key: encoding class */
    sql_sortkey_buf kbuf;   /* the current row's binary key */
    sql_wbuf svbuf;         /* the current row's keys as values */
    sv *ktmp;               /* scratch keys during materialization */
    jet_value *vtmp;
    /* aggregates: the current group's states */
    agg_state *aggs;            /* the states' block (slot at agg_off) */
    agg_group *grp;             /* current group */
    sv *gkeys;                  /* its GROUP BY values (N_GKEY), decoded
                                   from grp->kb */
    agg_slot *gslots;           /* hash table, a power of two */
    size_t ngslots, ngroups;
    sql_wbuf gkb;               /* the current row's encoded key */
    size_t *agg_off;            /* per aggregate slot: its state's byte
                                   offset in a group's block */
    size_t agg_bytes;           /* bytes of a group's states */
    agg_group **gorder;         /* groups in creation order */
    size_t gcap;
    size_t gnext;               /* next group sql_group_next gives */
    sql_mem gmem;               /* groups, their keys, COUNT(DISTINCT)
                                   copies */
    size_t gheap;               /* bytes aggregate states malloc'd */
    uint64_t gseq;              /* input rows grouped so far */
    struct agg_spill *gsp;      /* GROUP BY past the budget */
    /* spilling (spill.c) */
    sql_spill *spill;           /* the temporary file, opened on need */
    struct sort_spill *ssp;     /* sorted runs of records */
    unsigned merge_passes;      /* merge passes over the runs before the
                                   last (many runs, small budget) */
    sql_mem smem;               /* records (sorting) */
    uint64_t rseq;              /* the next record's tie order */
    /* top-N sort (st->topn): only the best topn_keep records plus ties
     * are held; the rest are dropped as they come (exec.c) */
    size_t topn_keep;           /* n; 0: every record is sorted */
    size_t topn_at;             /* prune when this many are held */
    uint8_t *topn_thr;          /* binary key of the n-th best so far */
    size_t topn_thr_len, topn_thr_cap;
    bool topn_have_thr;         /* topn_thr is set (binary keys only) */
    sql_mem topn_mem;           /* arena the kept records move to */
    rec **topn_tmp;             /* merge sort scratch */
    size_t topn_tmp_cap;
    bool grp_stream;            /* groups given one by one (no records) */
    /* subqueries */
    subq_state *sq;
    /* cancel checks of the loops that read no table (sql_tick) */
    uint32_t ticks;
};

/** Largest TOP n kept by a top-N sort (sql_stmt.topn); a bigger n sorts
 *  every record (and spills past the budget) as before. */
#define SQL_TOPN_MAX 8192

/** Work units (rows sorted, merged, grouped or stored) between two checks
 *  of the cancel flag in loops that read no table (a power of two). */
#define SQL_CANCEL_EVERY 4096u

/** exec.c: whether the run was asked to stop (opts.cancel: SQLCancel;
 *  opts.interrupt: a timeout): then -1 with JET_EINTERRUPTED on c (HY008,
 *  the driver tells HYT00 apart), else 0. */
int sql_check_cancel(sql_cursor *c);

/** One unit of work of a loop that reads no table (sorting, merging runs,
 *  grouping, building a hash table): every SQL_CANCEL_EVERY units,
 *  sql_check_cancel. 0, or -1 when stopped. */
static inline int sql_tick(sql_cursor *c)
{
    if ((++c->ticks & (SQL_CANCEL_EVERY - 1)) != 0)
        return 0;
    return sql_check_cancel(c);
}

/* ---------------------------------------------------------- eval.c */

/**
 * Units of UTF-16 text s (n units) without its trailing spaces (U+0020).
 * Jet compares text as if padded with spaces: `=`, `<`, IN, joins,
 * GROUP BY, DISTINCT and UNION find 'Sweden' and 'Sweden ' equal (Allen
 * Browne, "Trailing spaces give inconsistent query results"; Jet's text
 * index keys drop trailing spaces too: Jackcess
 * GeneralLegacyIndexCodes.writeNonNullIndexTextValue), LIKE does not.
 */
static inline size_t sql_text_unpadded(const uint16_t *s, size_t n)
{
    while (n && s[n - 1] == 0x20)
        n--;
    return n;
}
/** Compare two UTF-16 texts in sort order co: equal ignoring case and
 *  trailing spaces (sql_collate_cmp in sortkey.c). */
int sql_text_cmp(jet_collation co, const uint16_t *a, size_t an,
                 const uint16_t *b, size_t bn);
/**
 * Compare a and b (neither NULL; text in sort order co): *res < 0, 0, > 0.
 * Returns 0, or -1 when
 * the kinds do not compare (text that is not a number/date against a
 * number/date, bytes against text): the caller reports 22018.
 */
int sql_sv_cmp(jet_collation co, const sv *a, const sv *b, int *res);
/** Parse a date/time literal (ISO, US m/d/y, time alone, ODBC d/t/ts)
 *  into Jet days. Returns 0 or -1. kind: 0 any, 'd', 't', 's' (ts). */
int sql_parse_datetime(const char *s, size_t n, int kind, double *out);
/** Text to number: K_INT or K_DOUBLE into *out; -1 when not a number. */
int sql_text_to_number(const uint16_t *s, size_t n, sv *out);
/** Compile a LIKE pattern (UTF-16) with LIKE_* flags from arena-like
 *  allocation alloc(ctx, bytes). NULL on memory failure. */
like_pat *sql_like_compile(const uint16_t *s, size_t n, unsigned flags,
                           void *(*alloc)(void *, size_t), void *ctx);
/** True when the pattern is malformed ('[' without ']', a descending
 *  range): matching it is 22025, VBA's "Invalid pattern string". */
bool sql_like_invalid(const like_pat *pat);
/** Match text against a compiled pattern, case-insensitively. */
bool sql_like_match(const like_pat *pat, const uint16_t *s, size_t n);
/** Days (Jet) -> ms key that orders chronologically. */
int64_t sql_date_key(double days);
/** Calendar fields -> Jet days. */
double sql_days_from_civil(int y, int m, int d, int64_t ms_of_day);

/** Evaluate e for the cursor's current row into *out. Returns 0 or -1
 *  with c->err set (22018, 22003, 22012, core errors). */
int sql_eval(sql_cursor *c, const enode *e, sv *out);
/** Truth of a condition: 1 true, 0 false or NULL, -1 error. */
int sql_eval_cond(sql_cursor *c, const enode *e);
/** Per-row scratch allocation (reset by sql_tmp_reset). */
void *sql_tmp_alloc(sql_cursor *c, size_t bytes);
void sql_tmp_reset(sql_cursor *c);
void sql_tmp_free(tmp_chunk **list);
/** Allocation from a chunk list that is never reset (records). */
void *sql_chunk_alloc(tmp_chunk **list, size_t bytes);
/** sql_col_sv's work when the row's sv is not cached yet. */
int sql_col_sv_read(sql_cursor *c, uint16_t tab, uint16_t col, sv *out);
/** sql_col_value's work for a row that is not a stored one. */
int sql_col_value_read(sql_cursor *c, uint16_t tab, uint16_t col,
                       const jet_value **out);

/** sv of column col of table tab's current row (cached per row): 0, or
 *  -1 (c failed). Inline: a join pair reads its columns this way. */
static inline int sql_col_sv(sql_cursor *c, uint16_t tab, uint16_t col,
                             sv *out)
{
    const tcur *t = &c->t[tab];
    const colcache *cc = &t->cc[col];
    if (cc->sgen == t->gen) {
        *out = cc->s;
        return 0;
    }
    return sql_col_sv_read(c, tab, col, out);
}

/** jet_value of column col of table tab's current row: a stored row's
 *  own value (valid while the row is current), else read and cached per
 *  row. 0, or -1 (c failed). */
static inline int sql_col_value(sql_cursor *c, uint16_t tab, uint16_t col,
                                const jet_value **out)
{
    const tcur *t = &c->t[tab];
    if (t->vals && !t->null_row) {
        *out = &t->vals[col];
        return 0;
    }
    return sql_col_value_read(c, tab, col, out);
}

/** sql_eval, with a column of the block's own tables and a constant
 *  taken without the general evaluator's call (the operands of
 *  comparisons, arithmetic and aggregates, per joined row). */
static inline int sql_eval_leaf(sql_cursor *c, const enode *e, sv *out)
{
    if (e->op == N_COL && !e->up)
        return sql_col_sv(c, e->tab, e->col, out);
    if (e->op == N_CONST) {
        *out = e->konst;
        return 0;
    }
    return sql_eval(c, e, out);
}
/** jet_value -> sv; text through jet_text_to_utf16 into *u16 (grown). */
int sql_value_to_sv(sql_cursor *c, const jet_value *v, sv *s,
                    uint16_t **u16, size_t *cap);
/** Order of two sort keys: NULL lowest, unlike kinds by kind, text in
 *  sort order co. */
int sql_key_cmp(jet_collation co, const sv *a, const sv *b);
/** Sort v[0..n) by sql_key_cmp in sort order co (equal values in no
 *  particular order); allocates nothing. */
void sql_sv_sort(sv *v, size_t n, jet_collation co);
/** Hash of a value consistent with sql_sv_cmp equality for values of
 *  one hash class (numbers, dates, text folded, bytes). */
uint64_t sql_sv_hash(const sv *v);
/** eval.c: the in_set class (IN_C_*) of v, or 0 when v can be neither
 *  stored nor probed (NULL, Decimal, NaN, Currency beyond 2^53 units,
 *  where the double hash could disagree with exact equality). */
int sql_in_class(const sv *v);
/** eval.c: whether v (of class s->cls) equals an item of s (text in sort
 *  order co): 1 or 0. */
int sql_in_find(jet_collation co, const in_set *s, const sv *v);

/* ------------------------------------------------ operators (op_*.c) */

/** op_scan.c: open table tab's reader (scan, index, derived cursor). */
int sql_tab_open(sql_cursor *c, size_t tab);
/** op_scan.c: (re)position table tab for the current outer rows: new
 *  seek keys, rewind, or a hash probe. 0, JET_DONE (no rows) or -1. */
int sql_tab_start(sql_cursor *c, size_t tab);
/** op_scan.c: make table tab's next row current: JET_OK, JET_DONE, -1. */
int sql_tab_next(sql_cursor *c, size_t tab);
/** op_scan.c: release table tab's readers and stored rows. */
void sql_tab_close(sql_cursor *c, size_t tab);
/** op_join.c: next joined row (all levels current, filters passed):
 *  JET_OK, JET_DONE or -1 (c->err). */
int sql_join_next(sql_cursor *c);

/** op_scan.c: the levels before a partitioned hash join's level are done
 *  (grace hash join, c->hj): start joining the partitions. 1 when there
 *  is a partition to join (then sql_hash_replay_next), 0 none, -1. */
int sql_hash_replay_start(sql_cursor *c);
/** op_scan.c: the next outer row of the partitioned hash join made
 *  current again (the levels before it restored from the temporary file)
 *  and its level started on the partition's build rows. JET_OK, JET_DONE
 *  (every partition joined) or -1. *level: the hash join's level. */
int sql_hash_replay_next(sql_cursor *c, size_t *level);
/** op_scan.c: whether a hash join is partitioned and its outer rows come
 *  from the temporary file (levels before *level are not read). */
bool sql_hash_replaying(const sql_cursor *c, size_t *level);
/** op_scan.c: free c->hj. */
void sql_hash_spill_free(sql_cursor *c);
/** op_agg.c: add the current row to the aggregates (of its group). */
int sql_agg_update(sql_cursor *c);
/** op_agg.c: read all input into groups (the ones past the budget into
 *  partitions of the temporary file); then sql_group_next gives them. */
int sql_group_build(sql_cursor *c);
/** op_agg.c: make the next group current (c->grp, c->aggs): JET_OK,
 *  JET_DONE, or -1 (c->err). Spilled partitions are aggregated as their
 *  turn comes, so groups come in creation order only without a spill. */
int sql_group_next(sql_cursor *c);
/** op_agg.c: free the groups' aggregate buffers. */
void sql_group_free(sql_cursor *c);
/** op_agg.c: value of aggregate e for the current group. */
int sql_agg_value(sql_cursor *c, const enode *e, sv *out);
/** op_subq.c: value of subquery node e for the current row. */
int sql_subq_eval(sql_cursor *c, const enode *e, sv *out);
/** op_subq.c: free the subquery states of c. */
void sql_subq_free(sql_cursor *c);
/** exec.c: run a streaming child cursor (a hashed subquery block,
 *  sql_stmt.hashed) again from its first row for the enclosing cursor's
 *  current row: its tables keep what they stored (a hash level probes
 *  again, sql_tab_start). Nothing is allocated. */
void sql_cursor_rerun(sql_cursor *c);
/** exec.c: open a cursor of a child statement (subquery, derived
 *  table, UNION branch) sharing the parameters of outer. */
int sql_cursor_open_child(sql_cursor **out, sql_stmt *st, sql_cursor *outer,
                          const sv *params);
/** op_union.c: read every branch of a UNION into records. */
int sql_union_collect(sql_cursor *c);
/** exec.c: write the records held as a sorted run when they take more
 *  than a quarter of the budget (before a spilled grouping aggregates
 *  its next partition). 0 or -1. */
int sql_sort_make_room(sql_cursor *c);
/** exec.c: copy the current output row and sort keys into a record. */
int sql_add_record(sql_cursor *c);
/** exec.c: the memory budget of c's buffered rows, bytes (opts). */
size_t sql_mem_budget(const sql_cursor *c);
/** exec.c: bytes c holds for stored rows: join rows, groups, records,
 *  and the stored rows of its hashed subqueries kept between rows. */
size_t sql_mem_held(const sql_cursor *c);
/** exec.c: c's temporary file (opened on the first call); NULL with
 *  HY000 naming the directory and the reason (what: "sorting", ...). */
sql_spill *sql_cursor_spill(sql_cursor *c, const char *what);
/** exec.c: HY000 for a failed write/read of the temporary file (or
 *  HY001 when memory ran out). Returns -1. */
int sql_spill_failed(sql_cursor *c, const char *what);
/** exec.c: HY001 (JET_ELIMIT) naming what needs more than the budget
 *  and the MaxMemory key. Returns -1. */
int sql_mem_exceeded(sql_cursor *c, const char *what);
/** One kind's executor (statement.c): how a statement of that kind is
 *  prepared from its parse, run and freed. prepare fills s (0, or -1 with
 *  err set); execute opens *cur for a result set or leaves it NULL, sets
 *  the statement's row count and returns 0 or a jet_rc < 0 (as
 *  sql_cursor_open); free releases what prepare made. */
typedef struct sql_executor {
    sql_stmt_kind kind;
    const char *name;
    int (*prepare)(sql_statement *s, jet_db *db, sql_parsed *p,
                   const sql_prepare_opts *opts, sql_error *err);
    int (*execute)(sql_statement *s, const jet_value *params,
                   const sql_cursor_opts *opts, sql_cursor **cur,
                   sql_error *err);
    void (*free)(sql_statement *s);
} sql_executor;

/** statement.c: the executor of kind, or NULL for no such kind. */
const sql_executor *sql_executor_of(sql_stmt_kind kind);

/** plan.c: plan the parsed query q (taking it: freed with the statement,
 *  or here on failure) against db; as sql_stmt_prepare after its parse. */
int sql_stmt_plan(sql_stmt **out, jet_db *db, struct sql_query *q,
                  const sql_prepare_opts *opts, sql_error *err);
/** textbound.c: the most characters text expression n of block st can
 *  give (a number or date as text counts 40), SQL_TEXT_UNBOUNDED when
 *  no bound is known (a parameter, a Memo, Space of a column). */
uint32_t sql_text_bound(const sql_stmt *st, const enode *n);
/** Record a core failure on c (sqlstate from rc). Returns -1. */
int sql_cursor_fail_rc(sql_cursor *c, int rc, const jet_error *je);
/** An error raised inside saved query name (a statement built from its
 *  rebuilt SQL): drop every "(at character N)" from e->msg, prefix
 *  "saved query 'name': " unless a saved query is named already, and set
 *  e->position to pos (a position in the user's statement, or 0). */
void sql_error_in_saved(sql_error *e, const char *name, size_t pos);
/** Record an error on c. Returns -1. */
int sql_cursor_fail(sql_cursor *c, const char *state, size_t pos,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** Parse ASCII text of a number literal into *out (K_INT when it fits
 *  32 bits, else K_DOUBLE with money units when exact). -1 when not a
 *  number, -2 when beyond a Double (1e999: Overflow). */
int sql_number_literal(const char *text, sv *out);
/** UTF-8 -> UTF-16 via alloc; NULL on failure. */
uint16_t *sql_utf8_to_u16(const char *s, size_t *n,
                          void *(*alloc)(void *, size_t), void *ctx);

/** sv -> jet_value of the given type; text goes as UTF-16LE into *buf
 *  (grown with realloc, owned by the caller). -1 when not convertible. */
int sql_sv_to_value(sql_cursor *c, const sv *v, jet_type type,
                    uint8_t **buf, size_t *cap, jet_value *out);
/** Text of a value for messages / plan (ASCII-safe, truncated). */
void sql_sv_describe(const sv *v, char *buf, size_t cap);

/* ------------------------------- shared by exec.c and op_sort.c */

/* Value of output column i for the current row (or group). */
int sql_live_value(sql_cursor *c, size_t i, jet_value *out);
/* The output values of record r into c->vcur (c->cur = r). 0 or -1. */
int sql_rec_values(sql_cursor *c, const rec *r);
/* Input done with runs on disk: the rest as a run, then merge. */
int sql_sort_start_merge(sql_cursor *c);
/* Next merged row into c->cur: JET_OK, JET_DONE or -1. */
int sql_sort_next_merge(sql_cursor *c);
void sql_sort_spill_free(sql_cursor *c);
/* Row count of TOP n PERCENT of total, rounded up. */
size_t sql_top_rows(const sql_stmt *st, size_t total);
/* Records collected: DISTINCT, ORDER BY, then the window (OFFSET, TOP
 * with ties, LIMIT, max_rows). */
int sql_sort_finish(sql_cursor *c);

#endif
