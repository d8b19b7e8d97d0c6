/*
 * odbc_internal.h - the handle objects of the ODBC layer.
 *
 * Four handle kinds (env, dbc, stmt, desc) share a header: a type tag that
 * the exports check before anything else (SQL_INVALID_HANDLE), and the
 * diagnostic records of the last call. Locking: an env has its own mutex;
 * a dbc has one mutex that also guards its statements and descriptors, so
 * the jet_db (one thread at a time, see jet.h) is only used under it.
 *
 * The exports in api_*.c do: check tag, lock, clear diagnostics, call one
 * odbc_* function declared here, unlock, return.
 */
#ifndef JET_DRIVER_ODBC_INTERNAL_H
#define JET_DRIVER_ODBC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>

#include "odbc38.h"

#include "jet.h"
#include "diag.h"
#include "typemap.h"

#define ODBC_TAG_ENV  0x4a454e56u   /* "JENV" */
#define ODBC_TAG_DBC  0x4a444243u   /* "JDBC" */
#define ODBC_TAG_STMT 0x4a53544du   /* "JSTM" */
#define ODBC_TAG_DESC 0x4a445343u   /* "JDSC" */
#define ODBC_TAG_DEAD 0xdeadbeefu   /* freed */

/** Common head of every handle. */
typedef struct odbc_hdr {
    uint32_t tag;
    SQLSMALLINT handle_type;    /* SQL_HANDLE_* */
    odbc_diag diag;
} odbc_hdr;

typedef struct odbc_env odbc_env;
typedef struct odbc_dbc odbc_dbc;
typedef struct odbc_stmt odbc_stmt;
typedef struct odbc_desc odbc_desc;

struct odbc_env {
    odbc_hdr hdr;
    pthread_mutex_t lock;
    SQLINTEGER odbc_version;    /* SQL_OV_ODBC3 / SQL_OV_ODBC2 */
    SQLINTEGER connection_pooling, cp_match;
    odbc_dbc *dbcs;             /* list of connections */
};

struct odbc_dbc {
    odbc_hdr hdr;
    pthread_mutex_t lock;       /* guards this dbc, its stmts and db */
    odbc_env *env;
    odbc_dbc *next;
    jet_db *db;                 /* NULL until connected */
    char *dsn;                  /* UTF-8 or NULL */
    char *db_path;              /* DBQ */
    char db_version[16];
    /* attributes */
    SQLUINTEGER autocommit, access_mode, login_timeout, connection_timeout;
    SQLUINTEGER txn_isolation, metadata_id;
    SQLULEN max_long_size;      /* COLUMN_SIZE reported for MEMO/OLE
                                   (DSN key MaxLongSize; 0 = no cap) */
    struct odbc_trace *trace;   /* TraceFile (driver/trace.h) or NULL */
    int like_mode;              /* sql_like_mode (driver/sql/engine.h) of
                                   its statements: ExtendedAnsiSQL=1 gives
                                   SQL_LIKE_ANSI, else SQL_LIKE_BOTH (0) */
    size_t max_memory;          /* MaxMemory=<MB> key, bytes; 0 default */
    bool read_only;             /* ReadOnly=1 or SQL_MODE_READ_ONLY: every
                                   write is refused (the file was opened
                                   read-only) */
    int64_t last_identity;      /* SELECT @@IDENTITY: the last AutoNumber
                                   an INSERT of this connection wrote */
    unsigned cursor_seq;        /* last generated cursor name's number */
    odbc_stmt *stmts;
};

/** A descriptor handle; implicit ones belong to a statement. */
struct odbc_desc {
    odbc_hdr hdr;
    odbc_stmt *stmt;
    SQLSMALLINT kind;           /* SQL_ATTR_APP_ROW_DESC etc. */
};

/** One bound column (SQLBindCol). */
typedef struct odbc_binding {
    SQLSMALLINT c_type;         /* 0 = unbound */
    SQLPOINTER ptr;             /* may be NULL: indicator only */
    SQLLEN buflen;
    SQLLEN *ind;
    SQLSMALLINT precision;      /* ARD SQL_DESC_PRECISION (SQL_C_NUMERIC);
                                   0 = the driver default */
    SQLSMALLINT scale;          /* ARD SQL_DESC_SCALE; 0 after SQLBindCol */
} odbc_binding;

/** Description of one result column (the IRD record). */
typedef struct odbc_colmeta {
    char *name;                 /* label: alias or column name (UTF-8) */
    char *base_name;            /* base column name, or NULL */
    char *table_name;           /* base table, or NULL */
    odbc_type_info ti;          /* SQL type, sizes, flags */
    SQLSMALLINT nullable;       /* SQL_NULLABLE / SQL_NO_NULLS / UNKNOWN */
    uint16_t src;               /* tdef column index / matrows column */
} odbc_colmeta;

/** A materialized result set (catalog functions), values as jet_value
 *  cells; text cells are UTF-8 (enc ODBC_ENC_UTF8) owned by strings. */
typedef struct odbc_matrows {
    size_t ncols, nrows, cap_rows;
    jet_value *cells;           /* nrows * ncols */
    char **strings;
    size_t nstrings, cap_strings;
} odbc_matrows;

/** A grow-only byte buffer. */
typedef struct odbc_buf {
    uint8_t *p;
    size_t cap;
} odbc_buf;

typedef enum odbc_stmt_state {
    STMT_ALLOCATED = 0,
    STMT_PREPARED = 1,          /* columns described, not executed */
    STMT_CURSOR = 2             /* result set open */
} odbc_stmt_state;

struct sql_stmt;
struct sql_cursor;

/** One bound parameter: its APD record (c_type, ptr, buflen, ind,
 *  num_precision/num_scale) and IPD record (sql_type, column_size,
 *  decimal_digits, io_type), set by SQLBindParameter or SQLSetDescField.
 *  Input parameters only. */
typedef struct odbc_param {
    SQLSMALLINT c_type;         /* 0 = unbound */
    SQLSMALLINT sql_type;
    SQLULEN column_size;
    SQLSMALLINT decimal_digits;
    SQLPOINTER ptr;
    SQLLEN buflen;
    SQLLEN *ind;                /* SQL_DESC_INDICATOR_PTR */
    SQLLEN *len_ptr;            /* SQL_DESC_OCTET_LENGTH_PTR (SQLBindParameter
                                   sets both to StrLen_or_IndPtr) */
    SQLSMALLINT io_type;        /* SQL_PARAM_INPUT */
    SQLSMALLINT num_precision;  /* APD SQL_DESC_PRECISION (SQL_C_NUMERIC) */
    SQLSMALLINT num_scale;      /* APD SQL_DESC_SCALE */
    bool num_scale_set;         /* set through SQLSetDescField: use it
                                   instead of the struct's own scale */
} odbc_param;

/**
 * Parameter arrays (driver/params.c): the SQL_ATTR_PARAM_* statement
 * attributes (also the APD/IPD header fields) and the batch that an
 * execution with SQL_ATTR_PARAMSET_SIZE > 1 runs: one result set per
 * parameter set, in order, SQLMoreResults moving to the next
 * (SQL_PARAM_ARRAY_SELECTS = SQL_PAS_BATCH).
 */
typedef struct odbc_paramset {
    SQLULEN bind_type;          /* SQL_PARAM_BIND_BY_COLUMN or a row's
                                   size in bytes (row-wise) */
    SQLULEN *bind_offset_ptr;   /* bytes added to every bound address */
    SQLUSMALLINT *operation_ptr;    /* SQL_PARAM_PROCEED / _IGNORE per set */
    SQLUSMALLINT *status_ptr;   /* SQL_PARAM_SUCCESS, _ERROR, _UNUSED... */
    SQLULEN *processed_ptr;     /* sets processed so far */
    SQLULEN size;               /* sets in the batch (PARAMSET_SIZE at
                                   SQLExecute) */
    SQLULEN cur;                /* the set whose values execute reads */
    SQLULEN next;               /* the set SQLMoreResults runs next */
    bool batch;                 /* a batch is open (SQLMoreResults goes on) */
    bool dml_array;             /* a DML parameter array is running under
                                   its own savepoint (odbc_stmt_dml_batch):
                                   each set's statement needs none */
} odbc_paramset;

/** A data-at-execution parameter's value, collected by SQLPutData. */
typedef struct odbc_dae {
    odbc_buf buf;
    size_t len;                 /* bytes in buf */
    int pieces;                 /* SQLPutData calls so far */
    bool is_null;
} odbc_dae;

/** SQL_MAX_CURSOR_NAME_LEN: bytes of a cursor name (SQLSetCursorName). */
#define ODBC_MAX_CURSOR_NAME 64

struct odbc_stmt {
    odbc_hdr hdr;
    odbc_dbc *dbc;
    odbc_stmt *next;
    char *cursor_name;          /* SQLSetCursorName's or the generated
                                   "SQL_CURn" (UTF-8); NULL until asked */
    odbc_desc ard, apd, ird, ipd;   /* implicit descriptors */
    /* attributes */
    SQLULEN row_array_size, row_bind_type, max_rows, query_timeout;
    SQLULEN *rows_fetched_ptr;
    SQLUSMALLINT *row_status_ptr;
    SQLLEN *bind_offset_ptr;
    SQLULEN cursor_type, concurrency, noscan, retrieve_data, keyset_size;
    SQLULEN metadata_id, max_length, use_bookmarks;
    SQLULEN paramset_size;
    odbc_paramset pset;
    /* bindings */
    odbc_binding *binds;        /* index 0 = column 1 */
    uint16_t nbinds;
    uint32_t binds_gen;         /* bumped by every change of binds (bind
                                   col, unbind, ARD fields): fetch's plan
                                   rechecks them only then */
    /* statement */
    odbc_stmt_state state;
    struct sql_statement *prepared; /* driver/sql/engine.h: the prepared
                                   statement (any kind), or NULL */
    struct sql_stmt *plan;      /* its query (owned by prepared), or NULL */
    struct sql_cursor *cur;     /* its open cursor */
    const jet_tdef *tdef;
    odbc_colmeta *cols;
    uint16_t ncols;
    odbc_param *params;         /* index 0 = parameter 1 */
    uint16_t nparams_bound;
    /* data-at-execution (driver/params.c): SQLExecute answered
     * SQL_NEED_DATA; dae[] holds a value per parameter, dae_cur is the
     * one SQLPutData feeds (-1 before the first SQLParamData) */
    bool dae_active;
    bool dae_ready;             /* all values collected: execute them */
    int dae_cur;
    odbc_dae *dae;
    uint16_t ndae;
    odbc_matrows *mat;
    size_t mat_pos;             /* next row of mat */
    bool has_row;               /* a current row exists (after fetch) */
    bool at_end;
    /* a read transaction of the db is open for this statement's cursor
     * (jet_db_read_begin at execute; ended when the cursor closes, or
     * when a forward-only cursor is fetched to its end) */
    bool reading;
    uint64_t rows_returned;
    uint64_t limit;             /* 0 = none; min(TOP, MAX_ROWS) */
    /* SQLGetData streaming */
    int gd_col;                 /* column of the last SQLGetData, 0 = none */
    size_t gd_off;              /* bytes of the converted value returned */
    bool gd_done;               /* whole value returned */
    bool gd_repr;               /* scratch holds the converted value */
    size_t gd_len;              /* its length in bytes */
    SQLSMALLINT gd_ctype;
    odbc_buf scratch;           /* grow-only conversion buffer */
    /* a block cursor's rowset for SQLSetPos + SQLGetData (SQL_GD_BLOCK):
     * kept when the rowset has more than one row and some column is
     * unbound; values' bytes live in rs_data */
    jet_value *rs_vals;         /* rs_rows * ncols */
    size_t rs_cap;              /* jet_values allocated */
    odbc_buf rs_data;
    size_t rs_data_len;
    SQLULEN rs_rows;            /* rows cached (0 = none) */
    SQLULEN rs_fetched;         /* rows in the last rowset */
    SQLULEN pos_row;            /* SQLSetPos row, 0-based */
    bool pos_unkept;            /* SQLSetPos chose a row of a rowset whose
                                   values were not kept (every column
                                   bound) other than the cursor's row:
                                   SQLGetData cannot read it */
    /* a static (scrollable) cursor (driver/scroll.h), chosen at execute
     * for SQL_CURSOR_STATIC or bookmarks: its rows as read so far; NULL
     * for a forward-only cursor, whose fetches never look here */
    struct odbc_rowstore *sc_rows;
    jet_value *sc_vals;         /* ncols: a row read back from sc_rows */
    uint64_t sc_pos;            /* rowset position (scroll.h ODBC_POS_*) */
    SQLULEN sc_prev_n;          /* rowset size of the fetch that set it */
    bool sc_done;               /* every row of the query is in sc_rows */
    /* rows straight from a table (sql_cursor_table_rows): sc_rows keeps
     * each row's locator (page << 16 | row slot) and sc_scan, a scan of
     * our own, reads the row again; sc_tcols[i] is the table column of
     * result column i. NULL: sc_rows keeps the values themselves */
    jet_scan *sc_src;           /* the engine's scan (the cursor's) */
    jet_scan *sc_scan;
    uint16_t *sc_tcols;
    const jet_tdef *sc_td;      /* their table (sc_tcols set) */
    /* positioned writes (driver/setpos.c): rows of sc_rows this cursor
     * deleted (sorted store indexes: a deleted row's slot may hold
     * another row later), the rowset's rows that are holes (deleted,
     * SQL_ROW_DELETED), and the internal statement that runs the
     * writes as UPDATE/DELETE/INSERT; pos_dae: that statement waits for
     * data at execution of positioned row pos_dae_row */
    uint64_t *sc_del;
    size_t sc_ndel, sc_delcap;
    uint8_t *rs_hole;           /* rs_rows flags */
    size_t rs_hole_cap;
    struct odbc_stmt *pos_helper;
    char *pos_sql;              /* the text pos_helper has prepared */
    bool pos_dae;
    SQLUSMALLINT pos_dae_op;
    SQLULEN pos_dae_row;
    uint64_t pos_dae_k;         /* its store row */
    SQLUSMALLINT *row_op_ptr;   /* SQL_ATTR_ROW_OPERATION_PTR */
    SQLLEN pos_rows;            /* rows the last positioned write wrote
                                   (SQLRowCount), -1 none since the last
                                   fetch */
    SQLPOINTER fetch_bookmark_ptr;  /* SQL_ATTR_FETCH_BOOKMARK_PTR */
    odbc_binding bm_bind;       /* column 0, the bookmark (c_type 0: none) */
    int64_t trace_fetch_us;     /* time in fetches, for the TraceFile */
    /* fetch fast path (stmt.c): per result column its direct source and
     * the bound column's conversion, built at the first fetch of a cursor
     * and rebuilt when the bindings change; NULL = not built */
    struct odbc_fastplan *fast;
    /* s->fast when the current row is its cursor's streamed row (the last
     * fetch read one, no kept rowset): SQLGetData's fast path; else NULL */
    struct odbc_fastplan *gd_fast;
    /* raised by SQLCancel from any thread, without the connection lock;
     * read and cleared by the thread running the statement */
    atomic_int cancel;
    /* SQL_ATTR_QUERY_TIMEOUT: CLOCK_MONOTONIC nanoseconds at which the
     * running execute or fetch call stops (0 = no timeout), checked by
     * the engine before each page it reads; timed_out tells HYT00 from
     * SQLCancel's HY008 */
    int64_t deadline_ns;
    bool timed_out;
    /* {call proc(...)} of a saved query (driver/sql/callproc.h): engine
     * marker k reads application parameter call_map[k]; the application
     * sees call_nargs parameters */
    bool is_call;
    bool is_dml;                /* INSERT, UPDATE, DELETE, and DDL
                                   (CREATE, DROP, ALTER, SELECT INTO): no
                                   result set; runs through
                                   odbc_stmt_run_dml */
    int64_t dml_rows;           /* rows the last DML execute changed (the
                                   whole parameter array's), -1 none */
    size_t *call_map;
    size_t call_nmarks, call_nargs;
    /* a positioned write's row (pos_helper's own): opts.only_row */
    bool only_row;
    uint32_t only_pgno;
    uint16_t only_slot;
};

/* ---------------------------------------------------------- buffers */
/** Make b->cap >= n (grow-only). Returns 0, or -1 when out of memory. */
int odbc_buf_reserve(odbc_buf *b, size_t n);
void odbc_buf_free(odbc_buf *b);

/* ------------------------------------------------------------- env */
SQLRETURN odbc_env_alloc(odbc_env **out);
SQLRETURN odbc_env_free(odbc_env *env);
SQLRETURN odbc_env_set_attr(odbc_env *env, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER len);
SQLRETURN odbc_env_get_attr(odbc_env *env, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER buflen, SQLINTEGER *outlen);

/* ------------------------------------------------------------- dbc */
SQLRETURN odbc_dbc_alloc(odbc_dbc **out, odbc_env *env);
SQLRETURN odbc_dbc_free(odbc_dbc *dbc);
/** Connect to DSN (UTF-8); pwd may be NULL. */
SQLRETURN odbc_dbc_connect(odbc_dbc *dbc, const char *dsn, const char *uid,
                           const char *pwd);
/** Connect by connection string (UTF-8). out_str receives the completed
 *  string as UTF-8 (malloc'ed, caller frees) when out_str != NULL. */
SQLRETURN odbc_dbc_driver_connect(odbc_dbc *dbc, const char *in,
                                  char **out_str);
SQLRETURN odbc_dbc_disconnect(odbc_dbc *dbc);
/** Connection attributes. String values (CURRENT_CATALOG) are returned as
 *  UTF-8 through *str with *is_str set; the caller writes them. */
SQLRETURN odbc_dbc_set_attr(odbc_dbc *dbc, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER len);
SQLRETURN odbc_dbc_get_attr(odbc_dbc *dbc, SQLINTEGER attr, SQLULEN *num,
                            const char **str, bool *is_str);
SQLRETURN odbc_dbc_end_tran(odbc_dbc *dbc, SQLSMALLINT completion);

/* ------------------------------------------------------------ stmt */
SQLRETURN odbc_stmt_alloc(odbc_stmt **out, odbc_dbc *dbc);
SQLRETURN odbc_stmt_free(odbc_stmt *stmt);
SQLRETURN odbc_stmt_free_stmt(odbc_stmt *stmt, SQLUSMALLINT option);
/** Close the cursor; strict: 24000 when none is open (SQLCloseCursor). */
SQLRETURN odbc_stmt_close_cursor(odbc_stmt *stmt, bool strict);
/** Drop cursor, plan and columns: back to STMT_ALLOCATED. */
void odbc_stmt_reset(odbc_stmt *stmt);
SQLRETURN odbc_stmt_prepare(odbc_stmt *stmt, const char *sql, size_t len);
SQLRETURN odbc_stmt_execute(odbc_stmt *stmt);
SQLRETURN odbc_stmt_exec_direct(odbc_stmt *stmt, const char *sql,
                                size_t len);
SQLRETURN odbc_stmt_num_result_cols(odbc_stmt *stmt, SQLSMALLINT *out);
/** Most ? parameter markers a statement may have (SQLPrepare says 42000
 *  past it; SQLBindParameter 07009); README "Limits". */
#define ODBC_MAX_PARAMS 4096

struct sql_result_col;
/** A computed text column whose values can be longer than this many
 *  characters (its sql_result_col.length) is described as long text
 *  (SQL_WLONGVARCHAR); up to it, as SQL_WVARCHAR of that length. */
#define ODBC_TEXT_DESCRIBED_MAX 4000
/** Type and nullability of an engine result column as SQLDescribeCol
 *  gives them (long types capped at max_long, 0 = no cap); the IRD and
 *  SQLColumns of a view share it. */
void odbc_describe_result_col(odbc_type_info *ti, SQLSMALLINT *nullable,
                              jet_db *db, const struct sql_result_col *rc,
                              SQLULEN max_long);
SQLRETURN odbc_stmt_num_params(odbc_stmt *stmt, SQLSMALLINT *out);
/** SQLBindParameter: input parameters only (others HY105). */
SQLRETURN odbc_stmt_bind_param(odbc_stmt *stmt, SQLUSMALLINT num,
                               SQLSMALLINT io_type, SQLSMALLINT c_type,
                               SQLSMALLINT sql_type, SQLULEN column_size,
                               SQLSMALLINT decimal_digits, SQLPOINTER ptr,
                               SQLLEN buflen, SQLLEN *ind);
/** SQLDescribeParam: the type guessed from what the marker is compared
 *  with (the column's type), else SQL_WVARCHAR. */
SQLRETURN odbc_stmt_describe_param(odbc_stmt *stmt, SQLUSMALLINT num,
                                   SQLSMALLINT *sql_type, SQLULEN *size,
                                   SQLSMALLINT *digits,
                                   SQLSMALLINT *nullable);
/** Data at execution (params.c). dae_begin, called by SQLExecute once its
 *  cursor checks pass: SQL_NEED_DATA when some bound parameter asks for
 *  its data at execution (state set up), SQL_SUCCESS when none does. */
SQLRETURN odbc_stmt_dae_begin(odbc_stmt *stmt);
/** SQLParamData: the next parameter's token (its ParameterValuePtr) and
 *  SQL_NEED_DATA, or the execution's result once all were sent. */
SQLRETURN odbc_stmt_param_data(odbc_stmt *stmt, SQLPOINTER *token);
/** SQLPutData: append a piece of the current parameter's value. */
SQLRETURN odbc_stmt_put_data(odbc_stmt *stmt, SQLPOINTER data, SQLLEN len);
/** Forget a data-at-execution sequence (close, reset, a new SQLExecute;
 *  after SQLCancel the driver manager refuses SQLParamData/SQLPutData and
 *  the next SQLExecute starts afresh). */
void odbc_stmt_dae_end(odbc_stmt *stmt);
/** The value collected for DAE parameter i: *ptr and *len, or *is_null.
 *  Returns false when parameter i has no collected value. */
bool odbc_stmt_dae_value(const odbc_stmt *stmt, size_t i, const void **ptr,
                         SQLLEN *len, bool *is_null);
/** Parameter record num (1-based) of the APD/IPD, created (unbound) when
 *  missing; NULL with HY001/07009 raised on stmt. */
odbc_param *odbc_stmt_param_at(odbc_stmt *stmt, SQLSMALLINT num);
/**
 * Point *p's data, indicator and length pointers at parameter set
 * stmt->pset.cur (column- or row-wise, plus the bind offset). p is a copy
 * the caller owns; its other fields are unchanged.
 */
void odbc_param_locate(const odbc_stmt *stmt, odbc_param *p);
/**
 * The SQLLEN at p, which may sit at any address: row-wise parameter sets
 * need not be aligned (pyodbc's fast_executemany packs each value and its
 * indicator without padding), so it is copied, never loaded in place.
 */
static inline SQLLEN odbc_len_at(const SQLLEN *p)
{
    SQLLEN v;
    memcpy(&v, (const void *)p, sizeof v);
    return v;
}
/**
 * SQLExecute with SQL_ATTR_PARAMSET_SIZE > 1: opens the result set of
 * the first parameter set that runs; the others follow on SQLMoreResults
 * (odbc_stmt_next_param_set). Sets that fail are marked SQL_PARAM_ERROR
 * with their diagnostics (SQL_DIAG_ROW_NUMBER = set number) and skipped.
 * Data at execution with arrays is HYC00.
 */
SQLRETURN odbc_stmt_execute_batch(odbc_stmt *stmt);
struct sql_cursor_opts;
/** dml_exec.c: run the prepared INSERT/UPDATE/DELETE once with params
 *  (the connection's transaction; read-only refusals); sets dml_rows. */
SQLRETURN odbc_stmt_run_dml(odbc_stmt *stmt, const jet_value *params,
                            const struct sql_cursor_opts *opts);
/** dml_exec.c: SQLExecute of a DML statement with a parameter array: all
 *  sets or none (one savepoint); the failing set SQL_PARAM_ERROR, the
 *  sets after it SQL_PARAM_UNUSED; SQLRowCount the array's total. */
SQLRETURN odbc_stmt_dml_batch(odbc_stmt *stmt);
/** SQLMoreResults inside a batch: the result set of the next set that
 * runs, or SQL_NO_DATA after the last. */
SQLRETURN odbc_stmt_next_param_set(odbc_stmt *stmt);
/** Open the cursor of the prepared statement with the values of
 * parameter set stmt->pset.cur (stmt.c). */
SQLRETURN odbc_stmt_open_set(odbc_stmt *stmt);
/** SQL_C_DEFAULT of a parameter: the C type that goes with its SQL type. */
SQLSMALLINT odbc_param_default_ctype(SQLSMALLINT sql_type);
/** Whether ct is a C type identifier ODBC defines (SQL_C_DEFAULT too,
 *  not SQL_ARD_TYPE nor SQL_APD_TYPE): else HY003. */
bool odbc_ctype_valid(SQLSMALLINT ct);
/** Whether t is an ODBC SQL data type identifier: else HY004. */
bool odbc_sqltype_valid(SQLSMALLINT t);
/** Bytes of one value of fixed-size C type ct; 0 for char/binary. */
SQLULEN odbc_ctype_size(SQLSMALLINT ct);
/**
 * Bytes from one value to the next in a column-wise bound array of C type
 * ct: the type's own size for fixed-length types (BufferLength does not
 * count for them: "Column-Wise Binding" of SQLBindCol and of parameter
 * arrays), buflen for character, binary and other variable-length types.
 */
SQLULEN odbc_ctype_elem_size(SQLSMALLINT ct, SQLLEN buflen);
/** SQLSetPos on the current rowset: SQL_POSITION and SQL_REFRESH of any
 *  row of a static cursor's rowset or of a forward-only one's kept rowset
 *  (else its last row), others HYC00. */
SQLRETURN odbc_stmt_set_pos(odbc_stmt *stmt, SQLSETPOSIROW row,
                            SQLUSMALLINT op, SQLUSMALLINT lock);
/** SQLSetPos SQL_UPDATE, SQL_DELETE and SQL_ADD (setpos.c): rows of a
 *  static cursor over one table written through the UPDATE, DELETE and
 *  INSERT executor. Called by odbc_stmt_set_pos with the checks done. */
SQLRETURN odbc_stmt_pos_write(odbc_stmt *stmt, SQLSETPOSIROW row,
                              SQLUSMALLINT op);
/** SQLBulkOperations (setpos.c): SQL_ADD of the rowset buffers' rows,
 *  SQL_UPDATE_BY_BOOKMARK and SQL_DELETE_BY_BOOKMARK of the rows whose
 *  bookmarks column 0 holds; SQL_FETCH_BY_BOOKMARK HYC00. */
SQLRETURN odbc_stmt_bulk_operations(odbc_stmt *stmt, SQLSMALLINT op);
/** SQLParamData/SQLPutData while a positioned write waits for data at
 *  execution (stmt->pos_dae): forwarded to its internal statement. */
SQLRETURN odbc_stmt_pos_param_data(odbc_stmt *stmt, SQLPOINTER *token);
SQLRETURN odbc_stmt_pos_put_data(odbc_stmt *stmt, SQLPOINTER data,
                                 SQLLEN len);
/** Forget the positioned-write state of a closing cursor (setpos.c). */
void odbc_stmt_pos_close(odbc_stmt *stmt);
/** Free the internal statement of positioned writes (setpos.c). */
void odbc_stmt_pos_free(odbc_stmt *stmt);
SQLRETURN odbc_stmt_row_count(odbc_stmt *stmt, SQLLEN *out);
/** The IRD record of column col (1-based), or NULL with 07009 raised. */
const odbc_colmeta *odbc_stmt_column(odbc_stmt *stmt, SQLUSMALLINT col);
SQLRETURN odbc_stmt_bind_col(odbc_stmt *stmt, SQLUSMALLINT col,
                             SQLSMALLINT c_type, SQLPOINTER ptr,
                             SQLLEN buflen, SQLLEN *ind);
SQLRETURN odbc_stmt_fetch(odbc_stmt *stmt);
SQLRETURN odbc_stmt_fetch_scroll(odbc_stmt *stmt, SQLSMALLINT orientation,
                                 SQLLEN offset);
/** SQLExtendedFetch (ODBC 2): SQLFetchScroll with the rowset size of
 *  SQL_ROWSET_SIZE, its own row count and status outputs, and for
 *  SQL_FETCH_BOOKMARK the bookmark as offset. */
SQLRETURN odbc_stmt_extended_fetch(odbc_stmt *stmt, SQLUSMALLINT orientation,
                                   SQLLEN offset, SQLULEN *row_count,
                                   SQLUSMALLINT *row_status);
SQLRETURN odbc_stmt_get_data(odbc_stmt *stmt, SQLUSMALLINT col,
                             SQLSMALLINT c_type, SQLPOINTER ptr,
                             SQLLEN buflen, SQLLEN *ind);
SQLRETURN odbc_stmt_more_results(odbc_stmt *stmt);
SQLRETURN odbc_stmt_cancel(odbc_stmt *stmt);
/**
 * SQLSetCursorName: name (UTF-8, len bytes) becomes the statement's cursor
 * name, cut to ODBC_MAX_CURSOR_NAME bytes with 01004. 24000 while a cursor
 * is open, 34000 for a name starting "SQLCUR"/"SQL_CUR" (the generated
 * ones) or empty, 3C000 when another statement of the connection has it
 * (compared case-insensitively), HY001 without memory.
 */
SQLRETURN odbc_stmt_set_cursor_name(odbc_stmt *stmt, const char *name,
                                    size_t len);
/**
 * SQLGetCursorName: the statement's cursor name, "SQL_CURn" (n counting
 * the connection's generated names) when none was set; owned by the
 * statement. NULL (HY001 recorded) without memory.
 */
const char *odbc_stmt_cursor_name(odbc_stmt *stmt);
SQLRETURN odbc_stmt_set_attr(odbc_stmt *stmt, SQLINTEGER attr,
                             SQLPOINTER val, SQLINTEGER len);
SQLRETURN odbc_stmt_get_attr(odbc_stmt *stmt, SQLINTEGER attr, SQLPOINTER val,
                             SQLINTEGER buflen, SQLINTEGER *outlen);
/** Column attribute: numeric answers in *num, strings (UTF-8) in *str. */
SQLRETURN odbc_stmt_col_attribute(odbc_stmt *stmt, SQLUSMALLINT col,
                                  SQLUSMALLINT field, const char **str,
                                  SQLLEN *num);
/** Replace the result of stmt by a materialized one; takes ownership of
 *  rows and cols (ncols entries). Opens the cursor. */
SQLRETURN odbc_stmt_set_matrows(odbc_stmt *stmt, odbc_matrows *rows,
                                odbc_colmeta *cols, uint16_t ncols);

/* ------------------------------------------------------------ desc */
/** SQLGetDescField on an implicit descriptor: numeric values are written
 *  to val (size by field), strings (UTF-8) returned through *str for the
 *  caller to write. */
SQLRETURN odbc_desc_get_field(odbc_desc *d, SQLSMALLINT rec,
                              SQLSMALLINT field, SQLPOINTER val,
                              SQLINTEGER *outlen, const char **str);
/**
 * SQLGetDescRec: the record's NAME (UTF-8, borrowed until the next call
 * on the statement; "" in application descriptors) and numeric fields
 * (each output may be NULL; NULLABLE is SQL_NULLABLE_UNKNOWN in an
 * application descriptor). SQL_NO_DATA past SQL_DESC_COUNT; 07009 for
 * record 0 (no bookmarks) or below; HY007 for the IRD of an unprepared
 * statement.
 */
SQLRETURN odbc_desc_get_rec(odbc_desc *d, SQLSMALLINT rec, const char **name,
                            SQLSMALLINT *type, SQLSMALLINT *subtype,
                            SQLLEN *length, SQLSMALLINT *precision,
                            SQLSMALLINT *scale, SQLSMALLINT *nullable);
/**
 * SQLSetDescRec: TYPE, DATETIME_INTERVAL_CODE (SQL_DATETIME only),
 * OCTET_LENGTH, PRECISION, SCALE, then (application descriptors) the
 * length, indicator and data pointers, through odbc_desc_set_field.
 * HY016 on the IRD; HYC00 for an ARD record with separate length and
 * indicator buffers (the driver keeps one per column).
 */
SQLRETURN odbc_desc_set_rec(odbc_desc *d, SQLSMALLINT rec, SQLSMALLINT type,
                            SQLSMALLINT subtype, SQLLEN length,
                            SQLSMALLINT precision, SQLSMALLINT scale,
                            SQLPOINTER data, SQLLEN *length_ptr,
                            SQLLEN *indicator_ptr);
/**
 * SQLCopyDesc: every field of src (any implicit descriptor of any
 * statement) but SQL_DESC_ALLOC_TYPE into dst: the header fields both
 * kinds have, then SQL_DESC_COUNT records (the target's others are
 * unbound; of an APD or IPD target only its half of the shared parameter
 * records changes). HY016 when dst is an IRD, HY007 when src is the IRD
 * of an unprepared statement, HY021 when a record's type is not one the
 * target kind takes (an SQL type into an ARD, say). Diagnostics go to dst.
 */
SQLRETURN odbc_desc_copy(odbc_desc *src, odbc_desc *dst);
/** SQLSetDescField: ARD fields map onto bindings and rowset attributes. */
SQLRETURN odbc_desc_set_field(odbc_desc *d, SQLSMALLINT rec,
                              SQLSMALLINT field, SQLPOINTER val,
                              SQLINTEGER len);

/* --------------------------------------------------------- catalog */
/* Arguments are UTF-8 or NULL; lengths already resolved. */
SQLRETURN odbc_cat_tables(odbc_stmt *stmt, const char *cat, const char *schem,
                          const char *table, const char *types);
SQLRETURN odbc_cat_columns(odbc_stmt *stmt, const char *cat,
                           const char *schem, const char *table,
                           const char *column);
SQLRETURN odbc_cat_type_info(odbc_stmt *stmt, SQLSMALLINT data_type);
/** accuracy: SQL_QUICK (CARDINALITY from the TDEF's row count) or
 *  SQL_ENSURE (rows counted by a scan). */
SQLRETURN odbc_cat_statistics(odbc_stmt *stmt, const char *cat,
                              const char *schem, const char *table,
                              SQLUSMALLINT unique, SQLUSMALLINT accuracy);
SQLRETURN odbc_cat_primary_keys(odbc_stmt *stmt, const char *cat,
                                const char *schem, const char *table);
SQLRETURN odbc_cat_foreign_keys(odbc_stmt *stmt, const char *pkcat,
                                const char *pkschem, const char *pktable,
                                const char *fkcat, const char *fkschem,
                                const char *fktable);
SQLRETURN odbc_cat_special_columns(odbc_stmt *stmt, SQLUSMALLINT id_type,
                                   const char *cat, const char *schem,
                                   const char *table, SQLUSMALLINT scope,
                                   SQLUSMALLINT nullable);
/** Saved action and parameter queries (Access's driver lists them as
 *  procedures; plain SELECT queries are SQLTables VIEWs). */
SQLRETURN odbc_cat_procedures(odbc_stmt *stmt, const char *cat,
                              const char *schem, const char *proc);
/** The PARAMETERS of those queries, as SQL_PARAM_INPUT rows. */
SQLRETURN odbc_cat_procedure_columns(odbc_stmt *stmt, const char *cat,
                                     const char *schem, const char *proc,
                                     const char *column);

/** SQLTablePrivileges / SQLColumnPrivileges: SELECT for Admin on each
 *  table (the driver is read-only), with the spec's columns. */
SQLRETURN odbc_cat_table_privileges(odbc_stmt *stmt, const char *cat,
                                    const char *schem, const char *table);
SQLRETURN odbc_cat_column_privileges(odbc_stmt *stmt, const char *cat,
                                     const char *schem, const char *table,
                                     const char *column);

/* ---------------------------------------------------- matrows */
odbc_matrows *odbc_matrows_new(size_t ncols);
void odbc_matrows_free(odbc_matrows *m);
/** Append a row of NULLs; returns its cells or NULL on ENOMEM. */
jet_value *odbc_matrows_add(odbc_matrows *m);
/** Cell setters (return -1 on ENOMEM). */
int odbc_cell_str(odbc_matrows *m, jet_value *cell, const char *s);
void odbc_cell_int(jet_value *cell, int64_t v, jet_type t);

/* ------------------------------------------------------------ info */
/** SQLGetFunctions. */
SQLRETURN odbc_get_functions(odbc_dbc *dbc, SQLUSMALLINT id,
                             SQLUSMALLINT *out);

/* ----------------------------------------------------------- misc */
/** strdup through malloc; NULL stays NULL (sets *fail on ENOMEM). */
char *odbc_strdup(const char *s);

/** Write UTF-8 s into a narrow (SQLCHAR) buffer of buflen bytes: NUL-
 *  terminated, whole characters only; *outlen (if not NULL) = full length
 *  in bytes. Returns 1 when truncated. Used for all string outputs. */
int odbc_put_str(SQLCHAR *buf, SQLLEN buflen, const char *s, SQLLEN *outlen);
/** Same into a SQLWCHAR buffer; buflen and *outlen in the unit the caller
 *  says: bytes when in_bytes, else characters. */
int odbc_put_wstr(SQLWCHAR *buf, SQLLEN buflen, const char *s,
                  SQLLEN *outlen, bool in_bytes);

#endif
