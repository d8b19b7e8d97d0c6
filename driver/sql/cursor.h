/*
 * cursor.h - a running statement (struct sql_cursor: per-table run
 * state, groups, records, subqueries) and the operator interface
 * (op_*.c: open/start/next/close per table, join, aggregate, subquery,
 * UNION; exec.c: child cursors, the memory budget, the temporary file,
 * cancel checks). One cursor runs every operator of its block; a mode
 * (MODE_*) says how it gives its rows.
 */
#ifndef JET_DRIVER_SQL_CURSOR_H
#define JET_DRIVER_SQL_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "sort.h"
#include "spill.h"

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
    uint8_t reads;          /* state 1 without vals: read once already
                               (its values are copied at the next read) */
} memo_ent;

/** One group of a GROUP BY, one piece of the cursor's group arena
 *  (c->gmem): this header, its GROUP BY values encoded as
 *  sql_spill_put_sv writes them (kblen bytes), then from the next 16-byte
 *  boundary its aggregate states (op_agg.c grp_kb, grp_aggs). */
typedef struct agg_group agg_group;
struct agg_group {
    uint64_t seq;               /* input row that made the group */
    uint32_t kblen;
    uint32_t kboff;             /* the values start here: a text group of
                                   op_agg.c text_groups is first its key's
                                   binary sort-key segment (kboff bytes) */
};

/** Group g's encoded GROUP BY values, kblen bytes after its header (its
 *  aggregate states follow, op_agg.c). */
static inline const uint8_t *sql_grp_kb(const agg_group *g)
{
    return (const uint8_t *)(g + 1);
}

/** A slot of the GROUP BY hash table (open addressing, linear probing):
 *  the group's key hash beside it, so probes skip other keys without
 *  reading their groups. g NULL: empty. */
typedef struct agg_slot {
    uint64_t hash;
    agg_group *g;
} agg_slot;

struct agg_spill;               /* op_agg.c: partitions on disk */
struct sort_spill;              /* op_sort.c: sorted runs on disk */

/** op_filter.c: a level's filter judged on the row's bytes. */
typedef struct sql_fast_filter sql_fast_filter;

/** Run state of one table of the join (op_scan.c, op_join.c). */
typedef struct tcur {
    jet_scan *scan;
    sql_fast_filter *ff;    /* tab_plan.filter in line (op_filter.c), or
                               NULL: the general evaluator */
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
    size_t memo_first;      /* the table's first size: room for the rows
                               its TDEF counts, within bounds */
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
    double now;             /* NOW() of this run, Jet days, once now_read */
    bool now_read;          /* now read from the clock (sql_cursor_now) */
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
     * are held; the rest are dropped as they come (op_sort.c) */
    size_t topn_keep;           /* n; 0: every record is sorted */
    size_t topn_at;             /* prune when this many are held */
    uint8_t *topn_thr;          /* binary key of the n-th best so far */
    size_t topn_thr_len, topn_thr_cap;
    bool topn_have_thr;         /* topn_thr is set (binary keys only) */
    uint8_t topn_raw;           /* the one ORDER BY key is a stored fixed
                                   column of the scanned table, read from
                                   the row to test the threshold
                                   (op_sort.c topn_raw_drops): 0 not
                                   decided, 1 yes, 2 no */
    uint8_t topn_kind;          /* topn_raw: its value kind (K_*) */
    jet_cell_loc topn_loc;      /* topn_raw: its cell */
    sql_mem topn_mem;           /* arena the kept records move to */
    rec **topn_tmp;             /* merge sort scratch */
    size_t topn_tmp_cap;
    bool grp_stream;            /* groups given one by one (no records) */
    bool grp_segs;              /* the groups hold their keys' segments
                                   (op_agg.c text_groups) */
    bool grp_sorted;            /* groups given one by one in their
                                   keys' order (sql_group_sort), as the
                                   records would give them */
    /* subqueries */
    subq_state *sq;
    /* cancel checks of the loops that read no table (sql_tick) */
    uint32_t ticks;
};

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
/* Whether table tab's state is only a scan, an index cursor and column
 * caches (a plain scan or index seek), which sql_tab_park keeps. */
bool sql_tab_parkable(const sql_cursor *c, size_t tab);
/* Reset table tab for the next open of its statement (exec.c
 * sql_cursor_close): its scan, index cursor and column cache array are
 * kept, reset (pages unpinned); everything else is freed and zeroed. */
void sql_tab_park(sql_cursor *c, size_t tab);
/** op_filter.c: the shortcut for filter, the filter of table tab's level
 *  read by its scan (the row's bytes), in *out; *out NULL when no term of
 *  it has a shortcut or JETODBC_GENERAL_EVAL is set. 0, or -1 (c->err). */
int sql_fast_filter_build(sql_cursor *c, size_t tab, const enode *filter,
                          sql_fast_filter **out);
/** op_filter.c: truth of the filter for table tab's current row, read
 *  from its scan: 1 true, 0 false or unknown, -1 error (c->err), as
 *  sql_eval_cond gives. */
int sql_fast_filter_eval(sql_cursor *c, size_t tab, sql_fast_filter *f);
/** op_filter.c: for a loop over scan's rows that judges them with
 *  sql_fast_filter_judge (the table's filter is f): jet_scan_next, but
 *  the rows this run's tests on the bytes reject are passed over
 *  (jet_scan_next_where); *decided goes to sql_fast_filter_judge. */
jet_rc sql_fast_filter_scan(sql_cursor *c, sql_fast_filter *f,
                            jet_scan *scan, bool *decided);
/** op_filter.c: for COUNT(*)s of scan's rows that pass f: when this
 *  run's tests on the bytes are the whole filter, add the rows from the
 *  scan's position that pass them to *n without making them current
 *  (jet_scan_count_where): JET_DONE at the table's end, JET_OK with a
 *  row current that the tests could not decide (sql_fast_filter_judge
 *  it, decided false, then call again), or a jet_rc error (the scan's
 *  error says why). 2: not the whole filter (nothing done). */
int sql_fast_filter_count(sql_cursor *c, sql_fast_filter *f, jet_scan *scan,
                          uint64_t *n);
/** op_filter.c: sql_fast_filter_eval of the row sql_fast_filter_scan
 *  made current, the terms its tests decided not judged again. */
int sql_fast_filter_judge(sql_cursor *c, sql_fast_filter *f, bool decided);
/** op_filter.c: make the next row of table tab's plain scan (M_SCAN, not
 *  derived, not rescanned) that passes f current: what sql_tab_next,
 *  sql_tmp_reset and sql_fast_filter_eval do row by row, in one loop.
 *  JET_OK, JET_DONE or -1 (c->err). */
int sql_fast_filter_next(sql_cursor *c, size_t tab, sql_fast_filter *f);
/** op_filter.c: whether JETODBC_GENERAL_EVAL (any value but "0") asks
 *  for the general evaluator everywhere: no shortcut on the row's bytes
 *  (filters, aggregates, sort and group keys). */
bool sql_general_forced(void);
/** op_filter.c: the value kind (K_INT, K_MONEY, K_DOUBLE, K_DATE,
 *  K_TEXT) a stored column of type t has when its cell (loc,
 *  jet_scan_cell_loc) can be read in line as that kind; 0 otherwise. */
uint8_t sql_cell_kind(jet_type t, const jet_cell_loc *loc);
/** op_sort.c: the records of a top-N sort (TOP n ... ORDER BY one
 *  stored number) over one scanned table, read in one loop: what
 *  sql_join_next then sql_add_record do per row, each row's key read
 *  from its bytes against the threshold first. 1 done, 0 not this case
 *  (JETODBC_GENERAL_EVAL set, another shape), -1 (c->err). */
int sql_topn_collect(sql_cursor *c);
/** op_filter.c: free f. Safe on NULL. */
void sql_fast_filter_free(sql_fast_filter *f);
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
/** op_sort.c: when every group is in memory and holds its key's binary
 *  sort-key segment (text_groups), order c->gorder by those segments
 *  (the ORDER BY order of the one GROUP BY value; desc reversed) for
 *  sql_group_next: 1 done, 0 not this case (groups as they were), -1
 *  (c->err: out of memory, cancelled). */
int sql_group_sort(sql_cursor *c, bool desc);
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
 *  again, sql_tab_start). A block aggregating into one row (no GROUP BY)
 *  aggregates that row's probe again: 0, or -1 with c->err. */
int sql_cursor_rerun(sql_cursor *c);
/** exec.c: open a cursor of a child statement (subquery, derived
 *  table, UNION branch) sharing the parameters of outer. */
int sql_cursor_open_child(sql_cursor **out, sql_stmt *st, sql_cursor *outer,
                          const sv *params);
/** op_union.c: read every branch of a UNION into records. */
int sql_union_collect(sql_cursor *c);
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

#endif
