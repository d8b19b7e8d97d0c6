/*
 * engine_int.h - shared by plan.c, eval.c and exec.c only.
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
    uint8_t scale;          /* K_DEC (and has_dec): decimal places */
    int64_t i;
    double d;
    const uint16_t *s;
    size_t n;
    const uint8_t *p;
    size_t len;
    __int128 m;             /* K_DEC (and has_dec): scaled integer */
} sv;

/* --------------------------------------------------------- nodes */

enum {
    N_CONST = 1, N_COL, N_PARAM, N_NOT, N_AND, N_OR, N_XOR, N_CMP,
    N_ISNULL, N_BETWEEN, N_IN, N_LIKE, N_NEG, N_ARITH, N_CONCAT, N_FUNC,
    N_AGG
};
enum { CMP_EQ = 0, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum { A_COUNT_STAR = 1, A_COUNT, A_SUM, A_AVG, A_MIN, A_MAX };
struct sql_funcdef;         /* func.h: scalar functions (N_FUNC) */

/* LIKE wildcard flags */
#define LIKE_ACCESS 1u      /* * ? # */
#define LIKE_ANSI 2u        /* % _ */

typedef struct like_pat like_pat;

typedef struct enode enode;
struct enode {
    uint8_t op;             /* N_* */
    uint8_t sub;            /* CMP_*, A_*, arithmetic char */
    bool negated;           /* NOT BETWEEN / NOT IN / IS NOT NULL */
    uint8_t k;              /* static kind K_* */
    jet_type type;          /* result type for output (0 when NULL) */
    size_t position;        /* 1-based, for messages */
    uint16_t col;           /* N_COL: tdef column position */
    size_t param;           /* N_PARAM: 0-based */
    sv konst;               /* N_CONST */
    enode **args;           /* operands */
    size_t nargs;
    like_pat *pat;          /* N_LIKE with a constant pattern */
    uint8_t like_flags;     /* N_LIKE: LIKE_* */
    size_t slot;            /* N_AGG: aggregate slot */
    const char *text;       /* source text of a column (messages) */
    const struct sql_funcdef *fn;   /* N_FUNC: the function (func.h) */
};

/* ------------------------------------------------------- statement */

typedef struct out_col {
    sql_result_col meta;
    enode *e;
    int src;                /* >= 0: plain table column (passthrough) */
} out_col;

#define PLAN_MAX_KEYS 10

struct sql_stmt {
    jet_db *db;
    sql_query *q;
    const jet_tdef *td;
    sql_arena arena;        /* nodes, labels, plan text */
    size_t ncols;
    out_col *cols;
    size_t nparams;
    sql_param_info *params;
    enode *where;
    bool where_const;       /* WHERE reads no column: decided at open */
    size_t norder;
    enode **order;
    bool *order_desc;
    bool *proj;             /* per tdef column: decoded by the scan */
    size_t naggs;
    enode **aggs;
    bool distinct;
    int64_t top;            /* -1 none */
    bool top_percent;
    int64_t offset, limit;  /* limit -1 none */
    bool explain;
    unsigned like_flags;
    /* access path */
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
    bool materialize;
    char *plan_text;
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

typedef struct agg_state {
    int64_t count;
    int64_t isum;           /* integer / money sums */
    __int128 wide;          /* exact integer sum before range checks */
    double dsum;
    sv dec;                 /* SUM/AVG of Decimal: exact (func_dec.c) */
    bool have;              /* MIN/MAX: a value seen */
    sv best;
    uint16_t *buf;          /* MIN/MAX text copy */
    size_t cap;
    uint8_t *bbuf;
    size_t bcap;
} agg_state;

typedef struct rec {
    size_t seq;
    jet_value *out;
    sv *keys;
} rec;

struct sql_cursor {
    sql_stmt *st;
    jet_error core_err;     /* copy of the core's detail */
    bool core_failed;       /* the last failure came from the core */
    jet_db *db;
    jet_scan *scan;
    jet_index_cursor *ix;
    sql_error err;
    sql_cursor_opts opts;
    double now;             /* NOW() of this run, Jet days */
    /* parameters */
    sv *params;
    uint16_t *param_text;
    like_pat **param_pats;  /* per LIKE node with a parameter pattern */
    /* current table row */
    uint64_t gen;
    colcache *cc;
    tmp_chunk *tmp;         /* per-row scratch (reset each row) */
    /* output conversion buffers, one per output column */
    uint8_t **obuf;
    size_t *ocap;
    /* source */
    bool src_done;
    bool src_started;
    size_t nkeyt;           /* key tuples (seek) */
    size_t keyt_pos;
    sv *eqvals[PLAN_MAX_KEYS];  /* sorted, distinct values per column */
    size_t eqn[PLAN_MAX_KEYS];
    size_t odo[PLAN_MAX_KEYS];
    bool scan_fallback;     /* seek impossible: filtered scan */
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
    rec *cur;
    sv *ktmp;               /* scratch keys during materialization */
    jet_value *vtmp;
    /* aggregates */
    agg_state *aggs;
    bool agg_row_done;
    bool agg_row_out;
};

/* ---------------------------------------------------------- eval.c */

/** Fold one code point for comparison (towlower, C.UTF-8 tables). */
uint32_t sql_fold(uint32_t cp);
/** Compare two UTF-16 texts case-insensitively by folded code points. */
int sql_text_cmp(const uint16_t *a, size_t an, const uint16_t *b,
                 size_t bn);
/**
 * Compare a and b (neither NULL): *res < 0, 0, > 0. Returns 0, or -1 when
 * the kinds do not compare (text that is not a number/date against a
 * number/date, bytes against text): the caller reports 22018.
 */
int sql_sv_cmp(const sv *a, const sv *b, int *res);
/** Parse a date/time literal (ISO, US m/d/y, time alone, ODBC d/t/ts)
 *  into Jet days. Returns 0 or -1. kind: 0 any, 'd', 't', 's' (ts). */
int sql_parse_datetime(const char *s, size_t n, int kind, double *out);
/** Text to number: K_INT or K_DOUBLE into *out; -1 when not a number. */
int sql_text_to_number(const uint16_t *s, size_t n, sv *out);
/** Compile a LIKE pattern (UTF-16) with LIKE_* flags from arena-like
 *  allocation alloc(ctx, bytes). NULL on memory failure. */
like_pat *sql_like_compile(const uint16_t *s, size_t n, unsigned flags,
                           void *(*alloc)(void *, size_t), void *ctx);
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
/** sv of table column col of the current row (cached per row). */
int sql_col_sv(sql_cursor *c, uint16_t col, sv *out);
/** jet_value of table column col of the current row (cached per row). */
int sql_col_value(sql_cursor *c, uint16_t col, const jet_value **out);
/** Record a core failure on c (sqlstate from rc). Returns -1. */
int sql_cursor_fail_rc(sql_cursor *c, int rc, const jet_error *je);
/** Record an error on c. Returns -1. */
int sql_cursor_fail(sql_cursor *c, const char *state, size_t pos,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** Parse ASCII text of a number literal into *out (K_INT when it fits
 *  32 bits, else K_DOUBLE with money units when exact). */
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

#endif
