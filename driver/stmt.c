/*
 * stmt.c - statement handles: prepare/execute a SELECT through the query
 * engine (driver/sql/engine.h), bind parameters, describe columns, fetch
 * rowsets into bound buffers, stream values with SQLGetData, attributes.
 *
 * State machine: STMT_ALLOCATED -(prepare)-> STMT_PREPARED -(execute)->
 * STMT_CURSOR -(close)-> STMT_PREPARED. Catalog functions go straight to
 * STMT_CURSOR with a materialized result (odbc_stmt_set_matrows); closing
 * such a cursor drops it and returns to STMT_ALLOCATED. SQLExecute and
 * SQLExecDirect on an open cursor give 24000 unless it was read to its
 * end; SQLPrepare closes it (see cursor_in_the_way for unixODBC's view).
 * The engine's cursor decodes only the columns the query uses and hands
 * out jet_values that convert.c writes into the bound buffers; the only
 * heap memory per fetch is the statement's grow-only scratch buffer.
 * Parameters are read from their bound buffers at SQLExecute (input only)
 * and handed to the engine as jet_values (text as UTF-16LE).
 * A cursor is forward-only (the fetch fast path) or static (scrollable,
 * bookmarks: rows kept in a row store, driver/scroll.h), chosen once at
 * execute (wants_static); the forward-only path never looks at the other.
 */
#include "config.h"

#include "odbc_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "convert.h"
#include "fetchfast.h"
#include "paramconv.h"
#include "scroll.h"
#include "sql/callproc.h"
#include "sql/engine.h"
#include "stmt_int.h"
#include "trace.h"
#include "wide.h"

/* The fetch fast path's plan (see fast_plan below). */
typedef struct fast_col {
    jet_scan *scan;             /* direct source, or NULL */
    const jet_value *row;       /* else the cursor's stored row
                                   (sql_cursor_stored_row), or NULL:
                                   cur_value */
    uint16_t tcol;              /* scan: table column; row: its index */
    jet_type type;              /* direct: type of the values; row: the
                                   type put is for (others: odbc_convert) */
    odbc_binding b;             /* the binding the entries below are for */
    SQLSMALLINT ct;             /* resolved C type, 0 = unbound */
    SQLULEN elem;               /* column-wise element size */
    odbc_put_fn put;
    SQLSMALLINT gd_ct;          /* SQLGetData: C type of gd_put, 0 = none */
    SQLSMALLINT gd_req;         /* SQLGetData's TargetType that resolved to
                                   gd_ct (checked valid, not SQL_ARD_TYPE),
                                   0 = none: odbc_stmt_get_data's fast path */
    odbc_put_fn gd_put;
    odbc_cell_fn gd_cell;       /* SQLGetData straight from the row: for
                                   gd_ct when loc allows, else NULL */
    jet_cell_loc loc;           /* scan: where tcol's bytes sit in a row */
    const jet_row *rowv;        /* scan: its current row (jet_scan_row) */
} fast_col;

struct odbc_fastplan {
    const struct sql_cursor *cur;   /* cursor the plan is for; NULL = none */
    SQLULEN row_bind_type;
    uint16_t ncols, nbinds, cap;
    uint32_t binds_gen;     /* s->binds_gen the entries were checked at */
    odbc_binding *snap;     /* byte copy of s->binds[0..min(nbinds, ncols))
                               the entries were made for (one memcmp) */
    fast_col col[];
};

/* ------------------------------------------------ timeout and cancel */

/* The monotonic clock in nanoseconds. */
static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Arm SQL_ATTR_QUERY_TIMEOUT for one execute or fetch call: each call
 * may take query_timeout seconds (0 = no limit), as the timeout bounds
 * the work the application waits for, not a cursor's whole life. */
void start_deadline(odbc_stmt *s)
{
    SQLULEN secs = s->query_timeout;
    if (secs > 100000000)
        secs = 100000000;       /* ~3 years: no overflow below */
    s->timed_out = false;
    s->deadline_ns = secs ? mono_ns() + (int64_t)secs * 1000000000 : 0;
}

/* The engine's interrupt check, run before each page it reads: stop on
 * SQLCancel's flag or once the deadline has passed (one vDSO clock read,
 * cheap next to decoding a page). */
int stmt_interrupted(void *ctx)
{
    odbc_stmt *s = ctx;
    if (s->cancel)
        return 1;
    if (s->deadline_ns && mono_ns() >= s->deadline_ns) {
        s->timed_out = true;
        return 1;
    }
    return 0;
}

/* The diagnostic of an interrupted call: HYT00 when the query timeout
 * expired, else HY008 (SQLCancel). */
SQLRETURN interrupt_diag(odbc_stmt *s)
{
    if (s->timed_out)
        return odbc_diag_add(DIAG(s), "HYT00", "Timeout expired");
    return odbc_diag_add(DIAG(s), "HY008", "Operation canceled");
}

static void init_desc(odbc_desc *d, odbc_stmt *stmt, SQLSMALLINT kind)
{
    d->hdr.tag = ODBC_TAG_DESC;
    d->hdr.handle_type = SQL_HANDLE_DESC;
    d->stmt = stmt;
    d->kind = kind;
}

SQLRETURN odbc_stmt_alloc(odbc_stmt **out, odbc_dbc *dbc)
{
    *out = NULL;
    if (!dbc->db)
        return odbc_diag_add(&dbc->hdr.diag, "08003", "Connection not open");
    odbc_stmt *s = calloc(1, sizeof *s);
    if (!s)
        return odbc_diag_add(&dbc->hdr.diag, "HY001",
                             "Memory allocation error");
    s->hdr.tag = ODBC_TAG_STMT;
    s->hdr.handle_type = SQL_HANDLE_STMT;
    s->dbc = dbc;
    init_desc(&s->ard, s, SQL_ATTR_APP_ROW_DESC);
    init_desc(&s->apd, s, SQL_ATTR_APP_PARAM_DESC);
    init_desc(&s->ird, s, SQL_ATTR_IMP_ROW_DESC);
    init_desc(&s->ipd, s, SQL_ATTR_IMP_PARAM_DESC);
    s->row_array_size = 1;
    s->row_bind_type = SQL_BIND_BY_COLUMN;
    s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    s->concurrency = SQL_CONCUR_READ_ONLY;
    s->noscan = SQL_NOSCAN_OFF;
    s->retrieve_data = SQL_RD_ON;
    s->use_bookmarks = SQL_UB_OFF;
    s->paramset_size = 1;
    s->metadata_id = dbc->metadata_id;
    s->next = dbc->stmts;
    dbc->stmts = s;
    *out = s;
    return SQL_SUCCESS;
}

static void free_cols(odbc_colmeta *cols, uint16_t n)
{
    if (!cols)
        return;
    for (uint16_t i = 0; i < n; i++) {
        free(cols[i].name);
        free(cols[i].base_name);
        free(cols[i].table_name);
    }
    free(cols);
}

void close_cursor(odbc_stmt *s)
{
    if (s->dbc->trace && s->state == STMT_CURSOR)
        odbc_trace_log(s->dbc->trace, "close stmt=%p rows=%llu fetch=%.3f ms",
                       (void *)s, (unsigned long long)s->rows_returned,
                       (double)s->trace_fetch_us / 1000.0);
    s->trace_fetch_us = 0;
    s->pset.batch = false;      /* the rest of a parameter batch too */
    sql_cursor_close(s->cur);
    s->cur = NULL;
    if (s->fast)
        s->fast->cur = NULL;    /* its sources belonged to that cursor */
    s->gd_fast = NULL;
    s->has_row = false;
    s->at_end = false;
    s->rows_returned = 0;
    s->gd_col = 0;
    clear_cancel(s);
    s->rs_rows = 0;
    s->rs_fetched = 0;
    s->pos_row = 0;
    s->pos_unkept = false;
    odbc_rowstore_free(s->sc_rows);
    s->sc_rows = NULL;
    jet_scan_close(s->sc_scan);
    s->sc_scan = NULL;
    s->sc_src = NULL;
    free(s->sc_tcols);
    s->sc_tcols = NULL;
    s->sc_pos = 0;
    s->sc_prev_n = 0;
    s->sc_done = false;
    if (s->mat) {
        /* a catalog result cannot be re-executed */
        odbc_matrows_free(s->mat);
        s->mat = NULL;
        free_cols(s->cols, s->ncols);
        s->cols = NULL;
        s->ncols = 0;
        s->state = STMT_ALLOCATED;
    } else if (s->state == STMT_CURSOR) {
        s->state = STMT_PREPARED;
    }
}

void odbc_stmt_reset(odbc_stmt *s)
{
    close_cursor(s);
    odbc_stmt_dae_end(s);
    sql_statement_free(s->prepared);
    s->prepared = NULL;
    s->plan = NULL;
    free_cols(s->cols, s->ncols);
    s->cols = NULL;
    s->ncols = 0;
    s->tdef = NULL;
    free(s->call_map);
    s->call_map = NULL;
    s->call_nmarks = s->call_nargs = 0;
    s->is_call = false;
    s->state = STMT_ALLOCATED;
}

SQLRETURN odbc_stmt_free(odbc_stmt *s)
{
    odbc_stmt_reset(s);
    odbc_dbc *dbc = s->dbc;
    for (odbc_stmt **p = &dbc->stmts; *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    free(s->cursor_name);
    free(s->binds);
    free(s->params);
    odbc_buf_free(&s->scratch);
    free(s->fast);
    s->fast = NULL;
    free(s->rs_vals);
    odbc_buf_free(&s->rs_data);
    free(s->sc_vals);
    s->hdr.tag = ODBC_TAG_DEAD;
    s->ard.hdr.tag = s->apd.hdr.tag = ODBC_TAG_DEAD;
    s->ird.hdr.tag = s->ipd.hdr.tag = ODBC_TAG_DEAD;
    free(s);
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_close_cursor(odbc_stmt *s, bool strict)
{
    if (strict && s->state != STMT_CURSOR)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state");
    close_cursor(s);
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_free_stmt(odbc_stmt *s, SQLUSMALLINT option)
{
    switch (option) {
    case SQL_CLOSE:
        close_cursor(s);
        return SQL_SUCCESS;
    case SQL_UNBIND:
        s->binds_gen++;
        memset(&s->bm_bind, 0, sizeof s->bm_bind);
        free(s->binds);
        s->binds = NULL;
        s->nbinds = 0;
        return SQL_SUCCESS;
    case SQL_RESET_PARAMS:
        free(s->params);
        s->params = NULL;
        s->nparams_bound = 0;
        return SQL_SUCCESS;
    case SQL_DROP:
        return odbc_stmt_free(s);
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Invalid option %u",
                             (unsigned)option);
    }
}

/* ----------------------------------------------------------- prepare */

void odbc_describe_result_col(odbc_type_info *ti, SQLSMALLINT *nullable,
                              jet_db *db, const sql_result_col *rc,
                              SQLULEN max_long)
{
    if (rc->column) {
        odbc_type_for_column(ti, db, rc->column);
        *nullable = odbc_column_nullable(rc->column);
    } else {
        /* a computed value: described as a column of its result type;
         * a text that can be longer than 4,000 characters (or has no
         * known bound) as long text, so no value exceeds COLUMN_SIZE */
        jet_column jc;
        memset(&jc, 0, sizeof jc);
        jc.name = rc->name;
        jc.type = rc->type;
        if (rc->type == JET_T_TEXT && rc->length > ODBC_TEXT_DESCRIBED_MAX)
            jc.type = JET_T_MEMO;
        jc.result_type = jc.type;
        jc.flags = JET_COL_NULLABLE;
        if (rc->type == JET_T_NUMERIC) {
            jc.precision = 28;          /* Decimal's full precision */
            jc.scale = rc->scale;
        }
        if (jc.type == JET_T_TEXT)
            jc.length = (uint16_t)(rc->length *
                                   (jet_db_version(db) == JET_VER_3 ? 1 : 2));
        odbc_type_for_column(ti, db, &jc);
        *nullable = SQL_NULLABLE;
    }
    odbc_type_cap_long(ti, max_long);
}

/* The IRD record of engine result column i. */
static int fill_col(odbc_stmt *s, odbc_colmeta *c, size_t i)
{
    const sql_result_col *rc = sql_stmt_col(s->plan, i);
    c->src = (uint16_t)i;
    odbc_describe_result_col(&c->ti, &c->nullable, s->dbc->db, rc,
                             s->dbc->max_long_size);
    if (rc->column) {
        c->base_name = odbc_strdup(rc->base_column);
        c->table_name = odbc_strdup(rc->base_table);
        if (!c->base_name || !c->table_name)
            return -1;
    }
    c->name = odbc_strdup(rc->name);
    return c->name ? 0 : -1;
}

/* The SQLSTATE of s's last diagnostic record (for the trace). */
static const char *last_state(odbc_stmt *s)
{
    const odbc_diag *d = DIAG(s);
    return d->count > 0 ? d->rec[d->count - 1].sqlstate : "";
}

/* A failed engine call: the one path to an SQLSTATE (diag.c). */
static SQLRETURN engine_error(odbc_stmt *s, const sql_error *e,
                              odbc_diag_ctx ctx)
{
    return odbc_diag_sql(DIAG(s), e, ctx);
}

/* SQLExecute and SQLExecDirect on an open cursor: 24000 (their spec
 * "24000"). A cursor read to its end (SQL_NO_DATA) is closed implicitly,
 * as unixODBC's driver manager lets those calls through then. */
static bool cursor_in_the_way(odbc_stmt *s)
{
    if (s->state != STMT_CURSOR)
        return false;
    if (s->at_end) {
        close_cursor(s);
        return false;
    }
    return true;
}

static SQLRETURN cursor_open_error(odbc_stmt *s)
{
    return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state: a cursor "
                         "is open (close it with SQLCloseCursor or "
                         "SQLFreeStmt(SQL_CLOSE) first)");
}

SQLRETURN odbc_stmt_prepare(odbc_stmt *s, const char *sql, size_t len)
{
    sql_error perr;
    jet_db *db = s->dbc->db;

    /* SQLPrepare closes an open cursor: unixODBC takes any failure of
     * SQLPrepare to mean "no statement" (its state S1), so a 24000 here
     * would leave the driver holding a cursor the application cannot see */
    odbc_stmt_reset(s);
    if (!db)
        return odbc_diag_add(DIAG(s), "08003", "Connection not open");
    memset(&perr, 0, sizeof perr);
    sql_prepare_opts po;
    memset(&po, 0, sizeof po);
    po.like_mode = (sql_like_mode)s->dbc->like_mode;
    /* {call proc(?, ...)} of a saved query runs its SELECT */
    sql_call call;
    int is_call = sql_call_parse(&call, db, sql, len, &perr);
    if (is_call < 0)
        return engine_error(s, &perr, DIAG_CTX_OTHER);
    if (is_call > 0) {
        sql = call.sql;
        len = strlen(call.sql);
        s->is_call = true;
        s->call_map = call.map;
        s->call_nmarks = call.nmarks;
        s->call_nargs = call.nargs;
        call.map = NULL;
        /* errors inside its rebuilt text name the query instead */
        po.saved_query = call.name;
    }
    odbc_trace_log(s->dbc->trace, "prepare stmt=%p: %.*s", (void *)s,
                   (int)(len > 4000 ? 4000 : len), sql);
    int prc = sql_statement_prepare(&s->prepared, db, sql, len, &po, &perr);
    s->plan = prc == 0 ? sql_statement_query(s->prepared) : NULL;
    if (is_call > 0)
        sql_call_free(&call);
    if (prc == 0 && s->is_call && sql_stmt_nparams(s->plan) != s->call_nmarks)
        prc = -1, snprintf(perr.sqlstate, sizeof perr.sqlstate, "HY000"),
        snprintf(perr.msg, sizeof perr.msg, "the saved query's parameter "
                 "markers do not match its declared parameters");
    if (prc != 0) {
        sql_statement_free(s->prepared);
        s->prepared = NULL;
        s->plan = NULL;
        free(s->call_map);
        s->call_map = NULL;
        s->is_call = false;
        SQLRETURN ret = engine_error(s, &perr, DIAG_CTX_TABLE);
        odbc_trace_log(s->dbc->trace, "prepare stmt=%p failed: %s %s",
                       (void *)s, last_state(s), perr.msg);
        return ret;
    }
    s->tdef = sql_stmt_tdef(s->plan);
    size_t n = sql_stmt_ncols(s->plan);
    if (n > 4096) {
        odbc_diag_add(DIAG(s), "54011", "Too many columns");
        goto fail;
    }
    /* SQLBindParameter takes parameter numbers 1..ODBC_MAX_PARAMS: say so
     * here, not as 07009 at the first bind past the limit */
    size_t np = s->is_call ? s->call_nargs : sql_stmt_nparams(s->plan);
    if (np > ODBC_MAX_PARAMS) {
        odbc_diag_add(DIAG(s), "42000", "Too many parameter markers: %zu "
                      "(the driver takes at most %d)", np, ODBC_MAX_PARAMS);
        goto fail;
    }
    s->cols = calloc(n ? n : 1, sizeof *s->cols);
    if (!s->cols)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        if (fill_col(s, &s->cols[s->ncols++], i) != 0)
            goto nomem;
    }
    s->state = STMT_PREPARED;
    if (s->dbc->trace) {
        const char *plan = sql_stmt_plan_text(s->plan);
        odbc_trace_log(s->dbc->trace, "plan stmt=%p: %s", (void *)s,
                       plan ? plan : "(none)");
    }
    return SQL_SUCCESS;
nomem:
    odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
fail:
    odbc_stmt_reset(s);
    return SQL_ERROR;
}

/* --------------------------------------------------------- parameters */

SQLRETURN odbc_stmt_bind_param(odbc_stmt *s, SQLUSMALLINT num,
                               SQLSMALLINT io_type, SQLSMALLINT c_type,
                               SQLSMALLINT sql_type, SQLULEN column_size,
                               SQLSMALLINT decimal_digits, SQLPOINTER ptr,
                               SQLLEN buflen, SQLLEN *ind)
{
    if (num == 0)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index 0");
    if (!odbc_ctype_valid(c_type))
        return odbc_diag_add(DIAG(s), "HY003", "Invalid application buffer "
                             "type %d", (int)c_type);
    if (!odbc_sqltype_valid(sql_type))
        return odbc_diag_add(DIAG(s), "HY004", "Invalid SQL data type %d",
                             (int)sql_type);
    if (io_type != SQL_PARAM_INPUT)
        return odbc_diag_add(DIAG(s), "HY105", "Invalid parameter type: "
                             "only input parameters are supported");
    if (buflen < 0)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
    if (num > ODBC_MAX_PARAMS)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index "
                             "%u (at most %d parameters)", (unsigned)num,
                             ODBC_MAX_PARAMS);
    odbc_param *p = odbc_stmt_param_at(s, (SQLSMALLINT)num);
    if (!p)
        return SQL_ERROR;
    p->c_type = c_type;
    p->sql_type = sql_type;
    p->column_size = column_size;
    p->decimal_digits = decimal_digits;
    p->ptr = ptr;
    p->buflen = buflen;
    p->ind = ind;
    p->len_ptr = ind;
    p->io_type = io_type;
    p->num_precision = c_type == SQL_C_NUMERIC ? ODBC_NUMERIC_DEFAULT_PRECISION
                                               : 0;
    p->num_scale = 0;
    p->num_scale_set = false;
    return SQL_SUCCESS;
}

/* UTF-8 (n bytes) as UTF-16LE into a fresh buffer; *len in bytes. */
static uint8_t *utf8_to_utf16le(const char *u8, size_t n, size_t *len)
{
    uint8_t *out = malloc(n * 2 + 2);
    size_t k = 0;
    const unsigned char *u = (const unsigned char *)u8;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        uint32_t cp = u[i];
        size_t need = cp < 0x80 ? 0 : cp < 0xE0 ? 1 : cp < 0xF0 ? 2 : 3;
        if (cp >= 0x80) {
            cp &= need == 1 ? 0x1Fu : need == 2 ? 0x0Fu : 0x07u;
            if (i + need >= n)
                need = n - 1 - i;       /* cut short at the end */
            for (size_t j = 1; j <= need; j++)
                cp = (cp << 6) | (u[i + j] & 0x3Fu);
        }
        i += need + 1;
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            cp = 0xFFFD;
        if (cp >= 0x10000) {
            uint32_t v = cp - 0x10000;
            uint16_t hi = (uint16_t)(0xD800 + (v >> 10));
            uint16_t lo = (uint16_t)(0xDC00 + (v & 0x3FF));
            out[k++] = (uint8_t)hi;
            out[k++] = (uint8_t)(hi >> 8);
            out[k++] = (uint8_t)lo;
            out[k++] = (uint8_t)(lo >> 8);
            continue;
        }
        out[k++] = (uint8_t)cp;
        out[k++] = (uint8_t)(cp >> 8);
    }
    *len = k;
    return out;
}

/* A number's text for a message: "%.17g" in the C locale. */
static const char *number_text(char *buf, size_t cap, bool is_int,
                               int64_t iv, double dv)
{
    if (is_int)
        snprintf(buf, cap, "%lld", (long long)iv);
    else
        jet_fmt_double_c(buf, cap, 'g', 17, dv);
    return buf;
}

/* The diagnostic of a parameter coercion (paramconv.c) that failed or
 * dropped a fraction; what names the value (its text or number). */
static SQLRETURN pconv_diag(odbc_stmt *s, size_t i, odbc_pconv rc,
                            const char *what, size_t n)
{
    int w = (int)(n > 40 ? 40 : n);
    switch (rc) {
    case ODBC_PCONV_OK:
        return SQL_SUCCESS;
    case ODBC_PCONV_TRUNCATED:
        return odbc_diag_add(DIAG(s), "01S07", "Fractional truncation "
                             "(parameter %zu: %.*s)", i + 1, w, what);
    case ODBC_PCONV_NOT_NUMBER:
        return odbc_diag_add(DIAG(s), "22018", "Invalid character value "
                             "for cast specification (parameter %zu: "
                             "'%.*s' is not a number)", i + 1, w, what);
    case ODBC_PCONV_RANGE:
        return odbc_diag_add(DIAG(s), "22003", "Numeric value out of range "
                             "(parameter %zu: %.*s)", i + 1, w, what);
    case ODBC_PCONV_BAD_DATE:
        return odbc_diag_add(DIAG(s), "22007", "Invalid datetime format "
                             "(parameter %zu: '%.*s')", i + 1, w, what);
    }
    return SQL_ERROR;
}

/* Character data u8[0..n) of parameter i as its declared SQL type t
 * (paramconv.c): a value in *v, or kept as text (*as_text). */
static SQLRETURN char_param(odbc_stmt *s, size_t i, const char *u8,
                            size_t n, SQLSMALLINT t, jet_value *v,
                            bool *as_text)
{
    odbc_pconv rc = odbc_param_from_text(v, as_text, u8, n, t);
    while (n > 0 && (*u8 == ' ' || *u8 == '\t')) {
        u8++;
        n--;
    }
    return pconv_diag(s, i, rc, u8, n);
}

/* A numeric C value of parameter i (the integer iv when is_int, else dv)
 * as its declared SQL type t (paramconv.c): *v converted, or left alone
 * for the types the engine compares as given. */
static SQLRETURN number_param(odbc_stmt *s, size_t i, bool is_int,
                              int64_t iv, double dv, SQLSMALLINT t,
                              jet_value *v)
{
    odbc_pconv rc = odbc_param_from_number(v, is_int, iv, dv, t);
    if (rc == ODBC_PCONV_OK)
        return SQL_SUCCESS;
    char num[40];
    number_text(num, sizeof num, is_int, iv, dv);
    return pconv_diag(s, i, rc, num, strlen(num));
}

/* The bound value of parameter i as a jet_value; text into *owned (freed
 * by the caller after the cursor opened, which copies it). */
static SQLRETURN param_value(odbc_stmt *s, size_t i, jet_value *v,
                             uint8_t **owned)
{
    odbc_param set;     /* the parameter's pointers for this set */
    const odbc_param *p = i < s->nparams_bound ? &s->params[i] : NULL;
    memset(v, 0, sizeof *v);
    *owned = NULL;
    if (!p || p->c_type == 0)
        return odbc_diag_add(DIAG(s), "07002", "COUNT field incorrect: "
                             "parameter %zu is not bound", i + 1);
    set = *p;
    odbc_param_locate(s, &set);
    p = &set;
    /* NULL from the indicator, the length from the octet-length pointer
     * (SQLBindParameter sets both to one variable) */
    SQLLEN *lp = p->len_ptr ? p->len_ptr : p->ind;
    SQLLEN ind = lp ? *lp : SQL_NTS;
    const void *ptr = p->ptr;
    bool dae_null = false;
    if (ind == SQL_DATA_AT_EXEC || ind <= SQL_LEN_DATA_AT_EXEC_OFFSET) {
        if (!odbc_stmt_dae_value(s, i, &ptr, &ind, &dae_null))
            return odbc_diag_add(DIAG(s), "HY010", "Function sequence "
                                 "error (parameter %zu is data at "
                                 "execution)", i + 1);
    } else if ((p->ind && *p->ind == SQL_NULL_DATA) || (!p->ptr && lp)) {
        dae_null = true;
    }
    if (dae_null) {
        v->type = JET_T_TEXT;
        v->is_null = true;
        return SQL_SUCCESS;
    }
    if (!ptr)
        return odbc_diag_add(DIAG(s), "HY009", "Invalid use of null "
                             "pointer (parameter %zu)", i + 1);
    SQLSMALLINT ct = p->c_type == SQL_C_DEFAULT
                         ? odbc_param_default_ctype(p->sql_type) : p->c_type;
    if (ind == SQL_DEFAULT_PARAM)
        return odbc_diag_add(DIAG(s), "07S01", "Invalid use of default "
                             "parameter (parameter %zu: no procedure "
                             "default to use)", i + 1);
    if (ind < 0 && ind != SQL_NTS &&
        (ct == SQL_C_CHAR || ct == SQL_C_WCHAR || ct == SQL_C_BINARY))
        return odbc_diag_add(DIAG(s), "HY090", "Invalid string or buffer "
                             "length (parameter %zu: length %ld)", i + 1,
                             (long)ind);
    switch (ct) {
    case SQL_C_CHAR: {
        size_t n = ind == SQL_NTS ? strlen(ptr) : (size_t)ind;
        size_t len;
        bool as_text;
        SQLRETURN rc = char_param(s, i, ptr, n, p->sql_type, v, &as_text);
        if (!as_text || rc == SQL_ERROR)
            return rc;
        if (!(*owned = utf8_to_utf16le(ptr, n, &len)))
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        v->type = JET_T_TEXT;
        v->enc = JET_ENC_UCS2;
        v->data = *owned;
        v->len = len;
        return SQL_SUCCESS;
    }
    case SQL_C_WCHAR: {
        int ok = 1;
        SQLINTEGER units = ind == SQL_NTS ? SQL_NTS
                           : (SQLINTEGER)(ind / (SQLLEN)sizeof(SQLWCHAR));
        size_t n8 = 0;
        char *u8 = odbc_wide_to_utf8_len(ptr, units, &ok, &n8);
        if (!u8)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        size_t len;
        bool as_text;
        SQLRETURN rc = char_param(s, i, u8, n8, p->sql_type, v, &as_text);
        if (!as_text || rc == SQL_ERROR) {
            free(u8);
            return rc;
        }
        /* the given length, NUL characters included (not strlen) */
        *owned = utf8_to_utf16le(u8, n8, &len);
        free(u8);
        if (!*owned)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        v->type = JET_T_TEXT;
        v->enc = JET_ENC_UCS2;
        v->data = *owned;
        v->len = len;
        return SQL_SUCCESS;
    }
    case SQL_C_SLONG: case SQL_C_LONG:
        v->type = JET_T_LONG; v->u.i = *(const SQLINTEGER *)ptr; break;
    case SQL_C_ULONG:
        v->type = JET_T_BIGINT; v->u.i = *(const SQLUINTEGER *)ptr; break;
    case SQL_C_SSHORT: case SQL_C_SHORT:
        v->type = JET_T_LONG; v->u.i = *(const SQLSMALLINT *)ptr; break;
    case SQL_C_USHORT:
        v->type = JET_T_LONG; v->u.i = *(const SQLUSMALLINT *)ptr; break;
    case SQL_C_STINYINT: case SQL_C_TINYINT:
        v->type = JET_T_LONG; v->u.i = *(const signed char *)ptr; break;
    case SQL_C_UTINYINT:
        v->type = JET_T_LONG; v->u.i = *(const unsigned char *)ptr; break;
    case SQL_C_SBIGINT:
        v->type = JET_T_BIGINT; v->u.i = *(const SQLBIGINT *)ptr; break;
    case SQL_C_UBIGINT:
        if (*(const SQLUBIGINT *)ptr > (SQLUBIGINT)INT64_MAX)
            return odbc_diag_add(DIAG(s), "22003", "Numeric value out of "
                                 "range (parameter %zu)", i + 1);
        v->type = JET_T_BIGINT;
        v->u.i = (int64_t)*(const SQLUBIGINT *)ptr;
        break;
    case SQL_C_BIT:
        v->type = JET_T_BOOL; v->u.b = *(const unsigned char *)ptr != 0; break;
    case SQL_C_FLOAT:
        v->type = JET_T_DOUBLE; v->u.d = *(const SQLREAL *)ptr; break;
    case SQL_C_DOUBLE:
        v->type = JET_T_DOUBLE; v->u.d = *(const SQLDOUBLE *)ptr; break;
    case SQL_C_TYPE_DATE: case SQL_C_DATE: {
        const SQL_DATE_STRUCT *d = ptr;
        if (!odbc_param_date_ok(d->year, d->month, d->day))
            return odbc_diag_add(DIAG(s), "22007", "Invalid datetime format "
                                 "(parameter %zu: %d-%02u-%02u is no date)",
                                 i + 1, (int)d->year, (unsigned)d->month,
                                 (unsigned)d->day);
        v->type = JET_T_DATETIME;
        v->u.d = sql_jet_days(d->year, d->month, d->day, 0, 0, 0, 0);
        break;
    }
    case SQL_C_TYPE_TIME: case SQL_C_TIME: {
        const SQL_TIME_STRUCT *t = ptr;
        if (t->hour > 23 || t->minute > 59 || t->second > 61)
            return odbc_diag_add(DIAG(s), "22007", "Invalid datetime format "
                                 "(parameter %zu)", i + 1);
        v->type = JET_T_DATETIME;
        v->u.d = sql_jet_days(1899, 12, 30, t->hour, t->minute, t->second,
                              0);
        break;
    }
    case SQL_C_TYPE_TIMESTAMP: case SQL_C_TIMESTAMP: {
        const SQL_TIMESTAMP_STRUCT *t = ptr;
        if (!odbc_param_date_ok(t->year, t->month, t->day) ||
            t->hour > 23 || t->minute > 59 || t->second > 61)
            return odbc_diag_add(DIAG(s), "22007", "Invalid datetime format "
                                 "(parameter %zu)", i + 1);
        v->type = JET_T_DATETIME;
        v->u.d = sql_jet_days(t->year, t->month, t->day, t->hour, t->minute,
                              t->second, t->fraction);
        break;
    }
    case SQL_C_NUMERIC: {
        const SQL_NUMERIC_STRUCT *n = ptr;
        /* the APD's scale when the application set it (Microsoft's
         * documented way), else the struct's own */
        int scale = p->num_scale_set ? p->num_scale : n->scale;
        bool fits = scale >= 0 && scale <= 28;
        for (int k = 12; k < SQL_MAX_NUMERIC_LEN; k++)
            fits = fits && n->val[k] == 0;
        if (fits) {
            /* exact: a Decimal compares exactly with DECIMAL, CURRENCY
             * and BIGINT columns */
            v->type = JET_T_NUMERIC;
            v->u.num.precision = p->num_scale_set && p->num_precision > 0
                                     ? (uint8_t)p->num_precision
                                     : n->precision;
            v->u.num.scale = (uint8_t)scale;
            v->u.num.negative = n->sign == 0;
            memcpy(v->u.num.mag, n->val, 12);
            break;
        }
        long double m = 0;
        for (int k = SQL_MAX_NUMERIC_LEN - 1; k >= 0; k--)
            m = m * 256 + n->val[k];
        for (int k = 0; k < scale; k++)
            m /= 10;
        for (int k = 0; k > scale; k--)
            m *= 10;
        v->type = JET_T_DOUBLE;
        v->u.d = (double)(n->sign ? m : -m);
        break;
    }
    case SQL_C_BINARY:
        v->type = JET_T_BINARY;
        v->data = ptr;
        v->len = ind == SQL_NTS ? (size_t)p->buflen : (size_t)ind;
        break;
    case SQL_C_GUID:
        v->type = JET_T_GUID;
        memcpy(v->u.guid, ptr, 16);
        break;
    default:
        return odbc_diag_add(DIAG(s), "07006", "Restricted data type "
                             "attribute violation (parameter %zu, C type "
                             "%d)", i + 1, (int)ct);
    }
    switch (v->type) {
    case JET_T_LONG: case JET_T_BIGINT:
        return number_param(s, i, true, v->u.i, 0, p->sql_type, v);
    case JET_T_BOOL:
        return number_param(s, i, true, v->u.b, 0, p->sql_type, v);
    case JET_T_DOUBLE:
        if (ct == SQL_C_FLOAT || ct == SQL_C_DOUBLE)
            return number_param(s, i, false, 0, v->u.d, p->sql_type, v);
        return SQL_SUCCESS;
    default:
        return SQL_SUCCESS;
    }
}

SQLRETURN odbc_stmt_describe_param(odbc_stmt *s, SQLUSMALLINT num,
                                   SQLSMALLINT *sql_type, SQLULEN *size,
                                   SQLSMALLINT *digits,
                                   SQLSMALLINT *nullable)
{
    if (!s->plan)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no prepared statement)");
    size_t np = s->is_call ? s->call_nargs : sql_stmt_nparams(s->plan);
    if (num == 0 || num > np)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index %u",
                             (unsigned)num);
    size_t mark = num - 1;
    if (s->is_call) {   /* the first marker reading that parameter */
        mark = SIZE_MAX;
        for (size_t k = 0; k < s->call_nmarks && mark == SIZE_MAX; k++)
            if (s->call_map[k] == (size_t)num - 1)
                mark = k;
    }
    sql_param_info unused = {JET_T_TEXT, NULL, false};
    const sql_param_info *pi = mark == SIZE_MAX ? &unused
                                                : sql_stmt_param(s->plan, mark);
    odbc_type_info ti;
    if (pi->column) {
        odbc_type_for_column(&ti, s->dbc->db, pi->column);
    } else {
        jet_column jc;
        memset(&jc, 0, sizeof jc);
        jc.type = pi->type;
        jc.result_type = pi->type;
        jc.flags = JET_COL_NULLABLE;
        jc.length = 510;
        odbc_type_for_column(&ti, s->dbc->db, &jc);
    }
    odbc_type_cap_long(&ti, s->dbc->max_long_size);
    if (sql_type)
        *sql_type = ti.sql_type;
    if (size)
        *size = ti.column_size;
    if (digits)
        *digits = ti.decimal_digits > 0 ? ti.decimal_digits : 0;
    if (nullable)
        *nullable = SQL_NULLABLE;
    return SQL_SUCCESS;
}

/* ----------------------------------------------------------- execute */

/* A failed engine cursor call: the core's detail through the one jet_rc
 * map, the engine's own SQLSTATE (22018, 22003, ...) otherwise. */
SQLRETURN exec_diag(odbc_stmt *s, jet_rc rc)
{
    if (s->cur)
        return engine_error(s, sql_cursor_error(s->cur), DIAG_CTX_OTHER);
    return odbc_diag_jet(DIAG(s), rc, NULL, DIAG_CTX_OTHER);
}

/* The one place a cursor's kind is chosen (at execute): a static cursor
 * for SQL_CURSOR_STATIC (keyset-driven and dynamic are answered as it)
 * and whenever bookmarks are on; else forward-only, whose fetches never
 * look at the static cursor's state. */
bool wants_static(const odbc_stmt *s)
{
    return s->cursor_type != SQL_CURSOR_FORWARD_ONLY ||
           s->use_bookmarks != SQL_UB_OFF;
}

SQLRETURN odbc_stmt_execute(odbc_stmt *s)
{
    if (s->state == STMT_ALLOCATED || !s->plan)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no prepared statement)");
    if (!s->dbc->db)
        return odbc_diag_add(DIAG(s), "08003", "Connection not open");
    if (cursor_in_the_way(s)) {
        /* unixODBC takes a failed SQLExecute to leave the statement
         * prepared without a cursor (S2): close ours to match */
        close_cursor(s);
        return cursor_open_error(s);
    }
    if (s->paramset_size > 1)
        return odbc_stmt_execute_batch(s);
    s->pset.cur = 0;
    {
        SQLRETURN dr = odbc_stmt_dae_begin(s);
        if (dr != SQL_SUCCESS)
            return dr;          /* SQL_NEED_DATA (or HY001) */
    }
    return odbc_stmt_open_set(s);
}

SQLRETURN odbc_stmt_open_set(odbc_stmt *s)
{
    size_t np = sql_stmt_nparams(s->plan);
    jet_value *pv = NULL;
    uint8_t **owned = NULL;
    SQLRETURN ret = SQL_SUCCESS;
    if (np > 0) {
        pv = calloc(np, sizeof *pv);
        owned = calloc(np, sizeof *owned);
        if (!pv || !owned) {
            ret = odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
            goto out;
        }
        for (size_t i = 0; i < np; i++) {
            SQLRETURN pr = param_value(s, s->is_call ? s->call_map[i] : i,
                                       &pv[i], &owned[i]);
            if (!SQL_SUCCEEDED(pr)) {
                ret = pr;
                goto out;
            }
            if (pr == SQL_SUCCESS_WITH_INFO)
                ret = pr;       /* 01S07: a parameter's fraction dropped */
        }
    }
    sql_cursor_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.max_rows = s->max_rows;
    opts.cancel = &s->cancel;
    opts.interrupt = stmt_interrupted;
    opts.interrupt_ctx = s;
    opts.max_memory = s->dbc->max_memory;
    clear_cancel(s);
    start_deadline(s);
    int64_t t0 = s->dbc->trace ? odbc_trace_now_us() : 0;
    sql_error err;
    memset(&err, 0, sizeof err);
    if (sql_statement_execute(s->prepared, pv, &opts, &s->cur, &err) != 0) {
        s->cur = NULL;
        bool interrupted = !err.sqlstate[0] && err.rc == JET_EINTERRUPTED;
        if (interrupted)
            ret = interrupt_diag(s);
        else
            ret = engine_error(s, &err, DIAG_CTX_OTHER);
        clear_cancel(s);
        /* the state the application receives (a timeout is HYT00) */
        odbc_trace_log(s->dbc->trace, "execute stmt=%p failed: %s",
                       (void *)s, last_state(s));
        goto out;
    }
    odbc_trace_log(s->dbc->trace, "execute stmt=%p params=%zu: %.3f ms",
                   (void *)s, np,
                   s->dbc->trace ? (double)(odbc_trace_now_us() - t0) / 1000.0
                                 : 0.0);
    s->limit = UINT64_MAX;      /* TOP, LIMIT and MAX_ROWS: the engine's */
    s->state = STMT_CURSOR;
    s->has_row = false;
    s->gd_fast = NULL;
    s->at_end = false;
    s->rows_returned = 0;
    s->gd_col = 0;
    if (wants_static(s) && start_static(s) != SQL_SUCCESS) {
        close_cursor(s);
        ret = SQL_ERROR;
    }
out:
    if (owned)
        for (size_t i = 0; i < np; i++)
            free(owned[i]);
    free(owned);
    free(pv);
    return ret;
}

SQLRETURN odbc_stmt_exec_direct(odbc_stmt *s, const char *sql, size_t len)
{
    /* the cursor stays open (the driver manager keeps its state too) */
    if (cursor_in_the_way(s))
        return cursor_open_error(s);
    SQLRETURN ret = odbc_stmt_prepare(s, sql, len);
    if (!SQL_SUCCEEDED(ret))
        return ret;
    return odbc_stmt_execute(s);
}

SQLRETURN odbc_stmt_set_matrows(odbc_stmt *s, odbc_matrows *rows,
                                odbc_colmeta *cols, uint16_t ncols)
{
    odbc_stmt_reset(s);
    odbc_trace_log(s->dbc->trace, "catalog stmt=%p: %zu rows", (void *)s,
                   rows->nrows);
    s->mat = rows;
    s->cols = cols;
    s->ncols = ncols;
    s->mat_pos = 0;
    s->limit = s->max_rows > 0 ? s->max_rows : UINT64_MAX;
    s->state = STMT_CURSOR;
    if (wants_static(s) && start_static(s) != SQL_SUCCESS) {
        close_cursor(s);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_num_result_cols(odbc_stmt *s, SQLSMALLINT *out)
{
    if (out)
        *out = (SQLSMALLINT)s->ncols;
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_num_params(odbc_stmt *s, SQLSMALLINT *out)
{
    if (out)
        *out = (SQLSMALLINT)(!s->plan ? 0 : s->is_call ? s->call_nargs
                                                   : sql_stmt_nparams(s->plan));
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_row_count(odbc_stmt *s, SQLLEN *out)
{
    /* the engine's count of the last execute: -1 for a query (unknown) */
    if (out)
        *out = s->prepared ? (SQLLEN)sql_statement_row_count(s->prepared)
                           : -1;
    return SQL_SUCCESS;
}

const odbc_colmeta *odbc_stmt_column(odbc_stmt *s, SQLUSMALLINT col)
{
    if (col == 0 || col > s->ncols) {
        odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index %u",
                      (unsigned)col);
        return NULL;
    }
    return &s->cols[col - 1];
}

SQLRETURN odbc_stmt_bind_col(odbc_stmt *s, SQLUSMALLINT col,
                             SQLSMALLINT c_type, SQLPOINTER ptr,
                             SQLLEN buflen, SQLLEN *ind)
{
    if (col == 0) {
        /* the bookmark column: SQL_C_VARBOOKMARK (binary, 4 bytes) or an
         * integer type (SQL_C_BOOKMARK) */
        if (buflen < 0)
            return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
        if ((ptr || ind) && !odbc_ctype_valid(c_type))
            return odbc_diag_add(DIAG(s), "HY003", "Invalid application "
                                 "buffer type %d", (int)c_type);
        if (!ptr && !ind) {
            memset(&s->bm_bind, 0, sizeof s->bm_bind);
            return SQL_SUCCESS;
        }
        if (s->use_bookmarks == SQL_UB_OFF && s->state != STMT_ALLOCATED)
            return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index "
                                 "0: bookmarks are off "
                                 "(SQL_ATTR_USE_BOOKMARKS)");
        s->bm_bind.c_type = c_type;
        s->bm_bind.ptr = ptr;
        s->bm_bind.buflen = buflen;
        s->bm_bind.ind = ind;
        return SQL_SUCCESS;
    }
    if (buflen < 0)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
    if ((ptr || ind) && !odbc_ctype_valid(c_type))
        return odbc_diag_add(DIAG(s), "HY003", "Invalid application buffer "
                             "type %d", (int)c_type);
    if (col > s->nbinds && !ptr && !ind)
        return SQL_SUCCESS;             /* unbinding an unbound column */
    /* 07009 past the result's columns once they are known (prepared or
     * executed); before that any column up to prepare's limit may be
     * bound, and fetch ignores bindings past the result. */
    if (s->state != STMT_ALLOCATED && col > s->ncols)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index "
                             "%u: the result has %u columns", (unsigned)col,
                             (unsigned)s->ncols);
    if (col > 4096)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index "
                             "%u: more than 4096 columns", (unsigned)col);
    s->binds_gen++;
    if (col > s->nbinds) {
        odbc_binding *b = realloc(s->binds, col * sizeof *b);
        if (!b)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        memset(b + s->nbinds, 0, (col - s->nbinds) * sizeof *b);
        s->binds = b;
        s->nbinds = col;
    }
    odbc_binding *b = &s->binds[col - 1];
    if (!ptr && !ind) {
        memset(b, 0, sizeof *b);
        return SQL_SUCCESS;
    }
    b->c_type = c_type;
    b->ptr = ptr;
    b->buflen = buflen;
    b->ind = ind;
    b->precision = 0;           /* SQLBindCol: default precision, scale 0 */
    b->scale = 0;
    return SQL_SUCCESS;
}

/* ------------------------------------------------------------- fetch */

/* Move to the next row: JET_OK, JET_DONE or an error. */
static jet_rc advance(odbc_stmt *s)
{
    if (s->at_end)
        return JET_DONE;
    if (s->cancel) {
        clear_cancel(s);
        return JET_EINTERRUPTED;
    }
    if (s->rows_returned >= s->limit) {
        s->at_end = true;
        s->has_row = false;
        return JET_DONE;
    }
    jet_rc rc;
    if (s->mat) {
        if (s->mat_pos < s->mat->nrows) {
            s->mat_pos++;
            rc = JET_OK;
        } else {
            rc = JET_DONE;
        }
    } else {
        rc = (jet_rc)sql_cursor_next(s->cur);
    }
    if (rc == JET_OK) {
        s->has_row = true;
        s->rows_returned++;
    } else {
        s->has_row = false;
        if (rc == JET_DONE)
            s->at_end = true;
    }
    return rc;
}

/* Value of result column i (0-based) of the current row. */
static jet_rc cur_value(odbc_stmt *s, uint16_t i, jet_value *out)
{
    if (s->rs_rows > 0 && s->pos_row < s->rs_rows) {
        *out = s->rs_vals[s->pos_row * s->ncols + i];
        return JET_OK;
    }
    if (s->mat) {
        *out = s->mat->cells[(s->mat_pos - 1) * s->mat->ncols + s->cols[i].src];
        return JET_OK;
    }
    return (jet_rc)sql_cursor_value(s->cur, s->cols[i].src, out);
}

/*
 * The fetch fast path. Per result column: whether its value is read
 * straight from the table scan (sql_cursor_direct_col: a plain column of
 * a streaming one-table query), and for a bound column its resolved C
 * type, column-wise element size and conversion function, chosen once
 * instead of per value. Built for the open cursor at its first fetch; a
 * copy of each binding tells when SQLBindCol or a descriptor call changed
 * it, and the plan is then rebuilt (no allocation unless the column count
 * grew).
 */
static SQLSMALLINT resolve_ctype(const odbc_stmt *s, uint16_t i,
                                 SQLSMALLINT c_type);

/* A conversion context for s's values: its database, scratch buffer
 * and SQL_ATTR_MAX_LENGTH; keep for SQLGetData (a value that does not
 * fit is kept to continue from), not for bound columns. */
static inline odbc_conv stmt_conv(odbc_stmt *s, bool keep)
{
    odbc_conv cv = {s->dbc->db, &s->scratch, keep, JET_OK, false, 0, 0,
                    0, 0, s->max_length};
    return cv;
}

/* The conversion of values of type t into C type ct for s: a fast one
 * (fetchfast.c) unless SQL_ATTR_MAX_LENGTH may cut them, which only
 * odbc_convert applies - decided once per binding, not per value (the
 * attribute cannot change while a cursor is open). */
static odbc_put_fn pick_put(const odbc_stmt *s, jet_type t, SQLSMALLINT ct)
{
    if (s->max_length && odbc_conv_max_len_applies(t, ct))
        return odbc_convert;
    return odbc_fast_put_for(t, ct);
}

/* The bound part of column i's entry, from s->binds[i]. */
static void fast_bind(odbc_stmt *s, fast_col *fc, uint16_t i)
{
    const odbc_binding *b = i < s->nbinds ? &s->binds[i] : NULL;
    if (b)
        fc->b = *b;
    else
        memset(&fc->b, 0, sizeof fc->b);
    fc->ct = fc->b.c_type ? resolve_ctype(s, i, fc->b.c_type) : 0;
    fc->elem = fc->ct ? odbc_ctype_elem_size(fc->ct, fc->b.buflen) : 0;
    fc->put = odbc_convert;
    if (fc->ct && (fc->scan || fc->row) && fc->b.precision == 0 &&
        fc->b.scale == 0)
        fc->put = pick_put(s, fc->type, fc->ct);
}

static inline bool same_binding(const odbc_binding *a, const odbc_binding *b)
{
    return a->c_type == b->c_type && a->ptr == b->ptr &&
           a->buflen == b->buflen && a->ind == b->ind &&
           a->precision == b->precision && a->scale == b->scale;
}

/* s->fast, valid for the open cursor and the current bindings; NULL when
 * there is no streaming cursor or no memory (then the slow path runs). */
static struct odbc_fastplan *fast_plan(odbc_stmt *s)
{
    struct odbc_fastplan *p = s->fast;
    if (!s->cur || s->mat)
        return NULL;
    uint16_t nb = s->nbinds < s->ncols ? s->nbinds : s->ncols;
    if (p && p->cur == s->cur && p->ncols == s->ncols &&
        p->nbinds == s->nbinds && p->row_bind_type == s->row_bind_type) {
        /* bindings change only through the calls that bump binds_gen */
        if (p->binds_gen == s->binds_gen)
            return p;
        p->binds_gen = s->binds_gen;
        if (nb && memcmp(p->snap, s->binds, nb * sizeof *s->binds) != 0) {
            for (uint16_t i = 0; i < nb; i++)
                if (!same_binding(&p->col[i].b, &s->binds[i]))
                    fast_bind(s, &p->col[i], i);
            memcpy(p->snap, s->binds, nb * sizeof *s->binds);
        }
        return p;
    }
    if (!p || p->cap < s->ncols) {
        size_t head = sizeof *p + (size_t)s->ncols * sizeof p->col[0];
        head = (head + _Alignof(odbc_binding) - 1) /
               _Alignof(odbc_binding) * _Alignof(odbc_binding);
        struct odbc_fastplan *q = realloc(p, head + (size_t)s->ncols *
                                                 sizeof(odbc_binding));
        if (!q)
            return NULL;
        s->fast = p = q;
        p->cap = s->ncols;
        p->snap = (odbc_binding *)((char *)q + head);
    }
    p->cur = s->cur;
    p->ncols = s->ncols;
    p->nbinds = s->nbinds;
    p->row_bind_type = s->row_bind_type;
    p->binds_gen = s->binds_gen;
    const jet_value *row = sql_cursor_stored_row(s->cur);
    for (uint16_t i = 0; i < s->ncols; i++) {
        fast_col *fc = &p->col[i];
        fc->row = NULL;
        fc->rowv = NULL;
        fc->loc.kind = JET_CELL_NONE;
        if (sql_cursor_direct_col(s->cur, s->cols[i].src, &fc->scan,
                                  &fc->tcol, &fc->type)) {
            jet_scan_cell_loc(fc->scan, fc->tcol, &fc->loc);
            fc->rowv = jet_scan_row(fc->scan);
        } else {
            fc->scan = NULL;
            if (row) {
                /* a stored row is current (the plan is built after a
                 * fetch): its value's type is the column's */
                fc->row = row;
                fc->tcol = s->cols[i].src;
                fc->type = row[fc->tcol].type;
            }
        }
        fc->gd_ct = 0;
        fc->gd_req = 0;
        fc->gd_cell = NULL;
        fast_bind(s, fc, i);
    }
    if (nb)
        memcpy(p->snap, s->binds, nb * sizeof *s->binds);
    return p;
}

/* cur_value through the plan: a direct column straight from its scan
 * (unless a kept rowset is positioned); a failure is repeated through
 * the engine so that the diagnostic carries its detail. */
static inline jet_rc fast_value(odbc_stmt *s, const fast_col *fc,
                                uint16_t i, jet_value *out)
{
    if (fc->scan && s->rs_rows == 0 &&
        jet_scan_value(fc->scan, fc->tcol, out) == JET_OK)
        return JET_OK;
    if (fc->row && s->rs_rows == 0) {
        *out = fc->row[fc->tcol];
        return JET_OK;
    }
    return cur_value(s, i, out);
}

static const jet_error *cur_error(odbc_stmt *s)
{
    return s->cur ? sql_cursor_core_error(s->cur) : NULL;
}

static SQLSMALLINT resolve_ctype(const odbc_stmt *s, uint16_t i,
                                 SQLSMALLINT c_type)
{
    if (c_type == SQL_C_DEFAULT)
        return odbc_conv_default_ctype(&s->cols[i].ti);
    if (c_type == SQL_ARD_TYPE) {
        if (i < s->nbinds && s->binds[i].c_type != 0 &&
            s->binds[i].c_type != SQL_ARD_TYPE)
            return resolve_ctype(s, i, s->binds[i].c_type);
        return odbc_conv_default_ctype(&s->cols[i].ti);
    }
    return c_type;
}

/* Raise the diagnostic of a conversion status for row/column; returns
 * 0 for success, 1 for info, 2 for error. */
static int conv_diag(odbc_stmt *s, odbc_conv *cv, odbc_conv_status st,
                     SQLLEN row, SQLINTEGER col)
{
    const char *state, *msg;
    if (st == CONV_OK)
        return 0;
    if (st == CONV_CORE) {
        const jet_error *e = cur_error(s);
        odbc_diag_jet(DIAG(s), cv->rc, e, DIAG_CTX_OTHER);
        return 2;
    }
    odbc_conv_state(st, &state, &msg);
    odbc_diag_add_rc(DIAG(s), row, col, state, "%s (column %d)", msg,
                     (int)col);
    return (st == CONV_TRUNC || st == CONV_FRAC) ? 1 : 2;
}

/* bind_row through the fetch plan p: the same conversions, with each
 * column's C type, element size and conversion decided beforehand. */
static int bind_row_fast(odbc_stmt *s, const struct odbc_fastplan *p,
                         SQLULEN r)
{
    odbc_conv cv = stmt_conv(s, false);
    SQLLEN off = s->bind_offset_ptr ? *s->bind_offset_ptr : 0;
    int worst = 0;
    uint16_t n = s->nbinds < s->ncols ? s->nbinds : s->ncols;
    bool by_col = s->row_bind_type == SQL_BIND_BY_COLUMN;

    for (uint16_t i = 0; i < n; i++) {
        const fast_col *fc = &p->col[i];
        if (fc->ct == 0)
            continue;
        char *ptr = fc->b.ptr;
        char *ind = (char *)fc->b.ind;
        SQLULEN pstep = by_col ? fc->elem : s->row_bind_type;
        SQLULEN istep = by_col ? sizeof(SQLLEN) : s->row_bind_type;
        if (ptr)
            ptr += r * pstep + off;
        if (ind)
            ind += r * istep + off;
        jet_value v;
        jet_rc rc = fast_value(s, fc, i, &v);
        if (rc != JET_OK) {
            exec_diag(s, rc);
            return 2;
        }
        cv.num_precision = fc->b.precision;
        cv.num_scale = fc->b.scale;
        /* a stored row's value of another type than the first row's (a
         * computed column mixing types): the general conversion */
        odbc_put_fn put = fc->row && v.type != fc->type ? odbc_convert
                                                         : fc->put;
        odbc_conv_status st = put(&cv, &v, fc->ct, ptr, fc->b.buflen,
                                  (SQLLEN *)ind);
        if (st != CONV_OK) {
            int w = conv_diag(s, &cv, st, (SQLLEN)r + 1, i + 1);
            if (w > worst)
                worst = w;
        }
    }
    return worst;
}

/* Convert the bound columns of the current row into rowset row r. */
static int bind_row(odbc_stmt *s, SQLULEN r)
{
    odbc_conv cv = stmt_conv(s, false);
    SQLLEN off = s->bind_offset_ptr ? *s->bind_offset_ptr : 0;
    int worst = 0;
    uint16_t n = s->nbinds < s->ncols ? s->nbinds : s->ncols;

    for (uint16_t i = 0; i < n; i++) {
        const odbc_binding *b = &s->binds[i];
        if (b->c_type == 0)
            continue;
        SQLSMALLINT ct = resolve_ctype(s, i, b->c_type);
        char *ptr = b->ptr;
        char *ind = (char *)b->ind;
        if (s->row_bind_type == SQL_BIND_BY_COLUMN) {
            if (ptr)
                ptr += r * odbc_ctype_elem_size(ct, b->buflen);
            if (ind)
                ind += r * sizeof(SQLLEN);
        } else {
            if (ptr)
                ptr += r * s->row_bind_type;
            if (ind)
                ind += r * s->row_bind_type;
        }
        if (ptr)
            ptr += off;
        if (ind)
            ind += off;
        jet_value v;
        jet_rc rc = cur_value(s, i, &v);
        if (rc != JET_OK) {
            exec_diag(s, rc);
            return 2;
        }
        cv.num_precision = b->precision;
        cv.num_scale = b->scale;
        odbc_conv_status st = odbc_convert(&cv, &v, ct, ptr, b->buflen,
                                           (SQLLEN *)ind);
        int w = conv_diag(s, &cv, st, (SQLLEN)r + 1, i + 1);
        if (w > worst)
            worst = w;
    }
    return worst;
}

/* Whether a rowset should be kept for SQLSetPos + SQLGetData: some
 * column of the result is not bound, or bound with an indicator only
 * (nanodbc, R's odbc, binds long columns so), which SQLGetData reads. */
static bool rowset_needs_cache(const odbc_stmt *s)
{
    if (s->retrieve_data == SQL_RD_OFF)
        return false;
    for (uint16_t i = 0; i < s->ncols; i++)
        if (i >= s->nbinds || s->binds[i].c_type == 0 || !s->binds[i].ptr)
            return true;
    return false;
}

/* Copy the current row's values into rowset row r: their bytes are
 * appended to rs_data, the pointers stored as offsets until
 * finish_rowset (rs_data may move while it grows). */
static int keep_begin(odbc_stmt *s, SQLULEN r)
{
    size_t need = (size_t)(r + 1) * s->ncols;
    if (need > s->rs_cap) {
        size_t cap = need * 2;
        jet_value *v = realloc(s->rs_vals, cap * sizeof *v);
        if (!v)
            return -1;
        s->rs_vals = v;
        s->rs_cap = cap;
    }
    if (r == 0)
        s->rs_data_len = 0;
    return 0;
}

/* keep_row's copy of one value, column i of rowset row r (keep_begin
 * called for r). */
static int keep_value(odbc_stmt *s, SQLULEN r, uint16_t i, jet_value v)
{
    if (!v.is_null && v.data && v.len > 0) {
        if (odbc_buf_reserve(&s->rs_data, s->rs_data_len + v.len) != 0)
            return -1;
        memcpy(s->rs_data.p + s->rs_data_len, v.data, v.len);
        v.data = (const uint8_t *)(uintptr_t)(s->rs_data_len + 1);
        s->rs_data_len += v.len;
    } else {
        v.data = NULL;
    }
    s->rs_vals[r * s->ncols + i] = v;
    return 0;
}

static int keep_row(odbc_stmt *s, SQLULEN r, const jet_value *vals)
{
    if (keep_begin(s, r) != 0)
        return -1;
    for (uint16_t i = 0; i < s->ncols; i++) {
        jet_value v;
        if (vals)
            v = vals[i];
        else if (cur_value(s, i, &v) != JET_OK)
            memset(&v, 0, sizeof v), v.is_null = true;
        if (keep_value(s, r, i, v) != 0)
            return -1;
    }
    return 0;
}

/* Turn keep_row's offsets into pointers: the rowset is complete. */
static void finish_rowset(odbc_stmt *s, SQLULEN rows)
{
    for (size_t k = 0; k < (size_t)rows * s->ncols; k++) {
        jet_value *v = &s->rs_vals[k];
        if (v->data)
            v->data = s->rs_data.p + ((uintptr_t)v->data - 1);
    }
    s->rs_rows = rows;
    s->pos_row = 0;     /* a fetch positions on the rowset's first row */
}

static int static_rebind(odbc_stmt *s, SQLULEN r);

SQLRETURN odbc_stmt_set_pos(odbc_stmt *s, SQLSETPOSIROW row,
                            SQLUSMALLINT op, SQLUSMALLINT lock)
{
    if (s->state != STMT_CURSOR || s->rs_fetched == 0)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state "
                             "(no rowset fetched)");
    if (op != SQL_POSITION && op != SQL_REFRESH) {
        if (op == SQL_UPDATE || op == SQL_DELETE || op == SQL_ADD)
            return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                                 "implemented: the driver is read-only");
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier (operation %u)", (unsigned)op);
    }
    if (lock != SQL_LOCK_NO_CHANGE && lock != SQL_LOCK_UNLOCK &&
        lock != SQL_LOCK_EXCLUSIVE)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier (lock type %u)", (unsigned)lock);
    if (lock == SQL_LOCK_EXCLUSIVE)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: row locks");
    if (row > s->rs_fetched)
        return odbc_diag_add(DIAG(s), "HY107", "Row value out of range");
    if (row == 0) {
        if (op == SQL_POSITION)
            return odbc_diag_add(DIAG(s), "HY109", "Invalid cursor "
                                 "position (row 0)");
        /* SQL_REFRESH of the whole rowset: a read-only file's rows do not
         * change under us; a static cursor writes them into the bound
         * buffers again */
        int worst = 0;
        for (SQLULEN r = 0; r < s->rs_fetched; r++) {
            int w = s->sc_rows ? static_rebind(s, r) : 0;
            if (w > worst)
                worst = w;
            if (s->row_status_ptr)
                s->row_status_ptr[r] = w == 0 ? SQL_ROW_SUCCESS
                                     : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                              : SQL_ROW_ERROR;
        }
        if (s->sc_rows)
            s->pos_row = 0;
        return worst == 2 ? SQL_ERROR
             : worst == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
    }
    SQLULEN r = row - 1;
    /* a rowset whose every column is bound keeps no values: positioning
     * works (Node's odbc positions on each row), SQLGetData there not */
    s->pos_unkept = s->rs_rows == 0 &&
                    (r != s->rs_fetched - 1 || !s->has_row);
    if (s->pos_unkept)
        s->gd_fast = NULL;
    s->gd_col = 0;
    int w = 0;
    if (op == SQL_REFRESH && s->sc_rows)
        w = static_rebind(s, r);
    if (s->rs_rows > 0)
        s->pos_row = r;
    if (op == SQL_REFRESH && s->row_status_ptr)
        s->row_status_ptr[r] = w == 0 ? SQL_ROW_SUCCESS
                             : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                      : SQL_ROW_ERROR;
    return w == 2 ? SQL_ERROR : w == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

static SQLRETURN fetch_rowset(odbc_stmt *s)
{
    if (s->state != STMT_CURSOR)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no result set)");
    SQLULEN n = s->row_array_size ? s->row_array_size : 1;
    SQLULEN got = 0;
    int worst = 0;
    jet_rc err = JET_OK;
    s->gd_col = 0;
    s->gd_fast = NULL;
    clear_cancel(s);
    s->rs_rows = 0;
    s->rs_fetched = 0;
    s->pos_row = 0;
    s->pos_unkept = false;
    start_deadline(s);
    int64_t t0 = s->dbc->trace ? odbc_trace_now_us() : 0;
    bool keep = n > 1 && rowset_needs_cache(s);
    /* the plan is checked once per rowset: bindings cannot change within */
    const struct odbc_fastplan *fp = NULL;

    for (SQLULEN r = 0; r < n; r++) {
        jet_rc rc = advance(s);
        if (rc == JET_DONE)
            break;
        if (rc != JET_OK) {
            err = rc;
            break;
        }
        if (r == 0)
            fp = fast_plan(s);
        int w = s->retrieve_data == SQL_RD_OFF || s->nbinds == 0 ? 0
              : fp ? bind_row_fast(s, fp, r) : bind_row(s, r);
        if (keep && keep_row(s, r, NULL) != 0) {
            err = JET_ENOMEM;
            break;
        }
        if (s->row_status_ptr)
            s->row_status_ptr[r] = w == 0 ? SQL_ROW_SUCCESS
                                 : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                          : SQL_ROW_ERROR;
        if (w > worst)
            worst = w;
        got++;
    }
    if (t0)
        s->trace_fetch_us += odbc_trace_now_us() - t0;
    s->rs_fetched = got;
    if (keep && err == JET_OK)
        finish_rowset(s, got);
    if (fp && s->has_row && s->rs_rows == 0 && err == JET_OK)
        s->gd_fast = (struct odbc_fastplan *)fp;
    if (s->rows_fetched_ptr) {
        /* memcpy: RODBC passes a 4-byte-aligned SQLUINTEGER here (its
         * 64-bit bug); a plain store would be misaligned (UBSan) */
        SQLULEN g = got;
        memcpy(s->rows_fetched_ptr, &g, sizeof g);
    }
    if (s->row_status_ptr)
        for (SQLULEN r = got; r < n; r++)
            s->row_status_ptr[r] = SQL_ROW_NOROW;
    if (err != JET_OK) {
        if (err == JET_EINTERRUPTED)
            return interrupt_diag(s);
        return exec_diag(s, err);
    }
    if (got == 0)
        return SQL_NO_DATA;
    if (worst == 2)
        return n == 1 ? SQL_ERROR : SQL_SUCCESS_WITH_INFO;
    return worst == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* ------------------------------------------------------ static cursor
 *
 * A static cursor (chosen at execute, wants_static) pulls the query's
 * rows into its row store (scroll.h) as fetches reach them; every rowset
 * is read back from the store into the kept-rowset arrays (rs_vals), so
 * that binding, SQLSetPos and SQLGetData work as for a kept forward-only
 * rowset. The bookmark of a row is its 1-based number (4 bytes).
 */

SQLRETURN start_static(odbc_stmt *s)
{
    size_t cap = ODBC_ROWSTORE_MEM;
    if (s->dbc->max_memory && s->dbc->max_memory < cap)
        cap = s->dbc->max_memory;
    jet_value *v = realloc(s->sc_vals, (s->ncols ? s->ncols : 1) *
                                           sizeof *v);
    if (!v)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    s->sc_vals = v;
    uint16_t nstore = s->ncols;
    const jet_tdef *td;
    uint16_t *tc = s->cur && s->ncols ? malloc(s->ncols * sizeof *tc) : NULL;
    if (tc && sql_cursor_table_rows(s->cur, &s->sc_src, &td, tc)) {
        /* a table's rows: keep where each is, read it again */
        bool *proj = calloc(td->ncols ? td->ncols : 1, sizeof *proj);
        if (!proj) {
            free(tc);
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                 "error");
        }
        for (uint16_t i = 0; i < s->ncols; i++)
            proj[tc[i]] = true;
        jet_rc rc = jet_scan_open(&s->sc_scan, s->dbc->db, td, proj);
        free(proj);
        if (rc != JET_OK) {
            free(tc);
            s->sc_scan = NULL;
            return exec_diag(s, rc);
        }
        jet_scan_set_interrupt(s->sc_scan, stmt_interrupted, s);
        s->sc_tcols = tc;
        nstore = 1;
    } else {
        free(tc);
        s->sc_src = NULL;
    }
    if (odbc_rowstore_open(&s->sc_rows, nstore, cap) != JET_OK)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    s->sc_pos = 0;
    s->sc_prev_n = 0;
    s->sc_done = false;
    return SQL_SUCCESS;
}

/* Diagnostic of a row store failure. */
static SQLRETURN store_diag(odbc_stmt *s, jet_rc rc, int err_no)
{
    if (rc == JET_ENOMEM)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    return odbc_diag_add(DIAG(s), "HY000", "Static cursor: the temporary "
                         "file of its rows failed (%s)",
                         err_no ? strerror(err_no) : "damaged");
}

/* odbc_rows_upto_fn of a static cursor: read the query on until k rows
 * are stored or it ends. */
static int64_t static_upto(void *ctx, uint64_t k)
{
    odbc_stmt *s = ctx;
    odbc_rowstore *st = s->sc_rows;
    while (odbc_rowstore_rows(st) < k && !s->sc_done) {
        jet_rc rc = advance(s);
        if (rc == JET_DONE) {
            s->sc_done = true;
            break;
        }
        if (rc == JET_OK && s->sc_tcols) {
            uint32_t pgno;
            uint16_t slot;
            rc = jet_scan_position(s->sc_src, &pgno, &slot);
            memset(&s->sc_vals[0], 0, sizeof s->sc_vals[0]);
            s->sc_vals[0].type = JET_T_BIGINT;
            s->sc_vals[0].u.i = (int64_t)((uint64_t)pgno << 16 | slot);
        } else if (rc == JET_OK) {
            for (uint16_t i = 0; i < s->ncols && rc == JET_OK; i++)
                rc = cur_value(s, i, &s->sc_vals[i]);
        }
        if (rc != JET_OK) {
            if (rc == JET_EINTERRUPTED)
                interrupt_diag(s);
            else
                exec_diag(s, rc);
            return -1;
        }
        int e;
        rc = odbc_rowstore_append(st, s->sc_vals, &e);
        if (rc != JET_OK) {
            store_diag(s, rc, e);
            return -1;
        }
    }
    s->has_row = false;
    uint64_t have = odbc_rowstore_rows(st);
    return (int64_t)(have < k ? have : k);
}

/* Write bookmark bm into a column-0 buffer of C type ct. */
static odbc_conv_status put_bookmark(odbc_stmt *s, SQLSMALLINT ct, char *ptr,
                                     SQLLEN buflen, SQLLEN *ind, uint64_t bm)
{
    if (ct == SQL_C_BINARY) {
        uint32_t b = (uint32_t)bm;
        SQLLEN n = buflen < (SQLLEN)sizeof b ? buflen : (SQLLEN)sizeof b;
        if (ptr && n > 0)
            memcpy(ptr, &b, (size_t)n);
        if (ind)
            *ind = sizeof b;
        return n < (SQLLEN)sizeof b ? CONV_TRUNC : CONV_OK;
    }
    odbc_conv cv = stmt_conv(s, false);
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_LONG;
    v.u.i = (int64_t)bm;
    return odbc_convert(&cv, &v, ct, ptr, buflen, ind);
}

/* The bound column 0 of rowset row r (bookmark bm). */
static int bind_bookmark(odbc_stmt *s, SQLULEN r, uint64_t bm)
{
    const odbc_binding *b = &s->bm_bind;
    SQLSMALLINT ct = b->c_type == SQL_C_DEFAULT ? SQL_C_BINARY : b->c_type;
    char *ptr = b->ptr;
    char *ind = (char *)b->ind;
    SQLLEN off = s->bind_offset_ptr ? *s->bind_offset_ptr : 0;
    if (s->row_bind_type == SQL_BIND_BY_COLUMN) {
        if (ptr)
            ptr += r * odbc_ctype_elem_size(ct, b->buflen);
        if (ind)
            ind += r * sizeof(SQLLEN);
    } else {
        if (ptr)
            ptr += r * s->row_bind_type;
        if (ind)
            ind += r * s->row_bind_type;
    }
    if (ptr)
        ptr += off;
    if (ind)
        ind += off;
    odbc_conv cv = stmt_conv(s, false);
    odbc_conv_status st = put_bookmark(s, ct, ptr, b->buflen, (SQLLEN *)ind,
                                       bm);
    return conv_diag(s, &cv, st, (SQLLEN)r + 1, 0);
}

/* Row k (0-based) of a static cursor into rowset row r (rs_vals): read
 * back from the store, or by its locator from the table. */
static SQLRETURN keep_static_row(odbc_stmt *s, uint64_t k, SQLULEN r)
{
    int e;
    jet_rc rc = odbc_rowstore_get(s->sc_rows, k, s->sc_vals, &e);
    if (rc != JET_OK)
        return store_diag(s, rc, e);
    if (!s->sc_tcols) {
        if (keep_row(s, r, s->sc_vals) != 0)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        return SQL_SUCCESS;
    }
    uint64_t loc = (uint64_t)s->sc_vals[0].u.i;
    rc = jet_scan_fetch_row(s->sc_scan, (uint32_t)(loc >> 16),
                            (uint16_t)(loc & 0xffff));
    if (rc == JET_OK && keep_begin(s, r) != 0)
        rc = JET_ENOMEM;
    for (uint16_t i = 0; i < s->ncols && rc == JET_OK; i++) {
        jet_value v;
        rc = jet_scan_value(s->sc_scan, s->sc_tcols[i], &v);
        /* MEMO and OLE values share the scan's scratch: copied at once */
        if (rc == JET_OK && keep_value(s, r, i, v) != 0)
            rc = JET_ENOMEM;
    }
    if (rc == JET_EINTERRUPTED)
        return interrupt_diag(s);
    if (rc != JET_OK)
        return odbc_diag_jet(DIAG(s), rc, jet_scan_error(s->sc_scan),
                             DIAG_CTX_OTHER);
    return SQL_SUCCESS;
}

/* Write row r of a static cursor's rowset (kept in rs_vals) into the
 * bound buffers, bookmark included: 0, 1 (info) or 2 (error) as
 * bind_row. Leaves pos_row at r. */
static int static_rebind(odbc_stmt *s, SQLULEN r)
{
    s->pos_row = r;
    if (s->retrieve_data == SQL_RD_OFF)
        return 0;
    int w = s->nbinds ? bind_row(s, r) : 0;
    if (s->bm_bind.c_type) {
        int wb = bind_bookmark(s, r, s->sc_pos + r);
        if (wb > w)
            w = wb;
    }
    return w;
}

static bool orientation_valid(SQLSMALLINT o)
{
    return o == SQL_FETCH_NEXT || o == SQL_FETCH_PRIOR ||
           o == SQL_FETCH_FIRST || o == SQL_FETCH_LAST ||
           o == SQL_FETCH_ABSOLUTE || o == SQL_FETCH_RELATIVE ||
           o == SQL_FETCH_BOOKMARK;
}

/* SQLFetchScroll on a static cursor: rowset size n, outputs fetched_ptr
 * and status (either may be NULL); bookmark: SQL_FETCH_BOOKMARK's row. */
static SQLRETURN fetch_static(odbc_stmt *s, SQLSMALLINT orientation,
                              SQLLEN offset, uint64_t bookmark, SQLULEN n,
                              SQLULEN *fetched_ptr, SQLUSMALLINT *status)
{
    if (s->state != STMT_CURSOR)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no result set)");
    if (!orientation_valid(orientation))
        return odbc_diag_add(DIAG(s), "HY106", "Fetch type out of range "
                             "(%d)", (int)orientation);
    s->gd_col = 0;
    s->gd_fast = NULL;
    clear_cancel(s);
    s->rs_rows = 0;
    s->rs_fetched = 0;
    s->pos_row = 0;
    s->pos_unkept = false;
    s->has_row = false;
    start_deadline(s);
    int64_t t0 = s->dbc->trace ? odbc_trace_now_us() : 0;
    if (orientation == SQL_FETCH_BOOKMARK) {
        int64_t have = bookmark ? static_upto(s, bookmark) : 0;
        if (have < 0)
            return SQL_ERROR;
        if (bookmark == 0 || (uint64_t)have < bookmark)
            return odbc_diag_add(DIAG(s), "HY111", "Invalid bookmark value");
    }
    odbc_scroll_req rq = {orientation, offset, bookmark, s->sc_pos, n,
                          s->sc_prev_n};
    uint64_t t;
    bool warn;
    if (odbc_scroll_target(&t, &warn, &rq, static_upto, s) != 0)
        return SQL_ERROR;
    s->sc_pos = t;
    s->sc_prev_n = n;
    SQLULEN got = 0;
    int worst = 0;
    if (t != 0 && t != ODBC_POS_AFTER) {
        uint64_t want = t - 1 + n < t ? UINT64_MAX : t - 1 + n;
        int64_t have = static_upto(s, want);
        if (have < 0)
            return SQL_ERROR;
        got = (SQLULEN)((uint64_t)have - (t - 1));
        for (SQLULEN r = 0; r < got; r++) {
            SQLRETURN kr = keep_static_row(s, t - 1 + r, r);
            if (kr != SQL_SUCCESS)
                return kr;
        }
        finish_rowset(s, got);
        s->rs_fetched = got;
        s->has_row = got > 0;
        for (SQLULEN r = 0; r < got; r++) {
            int w = static_rebind(s, r);
            if (status)
                status[r] = w == 0 ? SQL_ROW_SUCCESS
                          : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                   : SQL_ROW_ERROR;
            if (w > worst)
                worst = w;
        }
        s->pos_row = 0;
    }
    if (t0)
        s->trace_fetch_us += odbc_trace_now_us() - t0;
    if (fetched_ptr) {
        SQLULEN g = got;
        memcpy(fetched_ptr, &g, sizeof g);
    }
    if (status)
        for (SQLULEN r = got; r < n; r++)
            status[r] = SQL_ROW_NOROW;
    if (got == 0)
        return SQL_NO_DATA;
    if (warn)
        odbc_diag_add(DIAG(s), "01S06", "Attempt to fetch before the result "
                      "set returned the first rowset");
    if (worst == 2)
        return n == 1 ? SQL_ERROR : SQL_SUCCESS_WITH_INFO;
    return worst || warn ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* The bookmark SQL_ATTR_FETCH_BOOKMARK_PTR points at (0: none). */
static uint64_t fetch_bookmark(const odbc_stmt *s)
{
    uint32_t b = 0;
    if (s->fetch_bookmark_ptr)
        memcpy(&b, s->fetch_bookmark_ptr, sizeof b);
    return b;
}

SQLRETURN odbc_stmt_fetch(odbc_stmt *s)
{
    if (s->sc_rows)
        return fetch_static(s, SQL_FETCH_NEXT, 0, 0,
                            s->row_array_size ? s->row_array_size : 1,
                            s->rows_fetched_ptr, s->row_status_ptr);
    return fetch_rowset(s);
}

SQLRETURN odbc_stmt_fetch_scroll(odbc_stmt *s, SQLSMALLINT orientation,
                                 SQLLEN offset)
{
    if (s->sc_rows)
        return fetch_static(s, orientation, offset,
                            orientation == SQL_FETCH_BOOKMARK
                                ? fetch_bookmark(s) : 0,
                            s->row_array_size ? s->row_array_size : 1,
                            s->rows_fetched_ptr, s->row_status_ptr);
    if (orientation != SQL_FETCH_NEXT)
        return odbc_diag_add(DIAG(s), "HY106", "Fetch type out of range: "
                             "the cursor is forward-only (set "
                             "SQL_ATTR_CURSOR_TYPE to SQL_CURSOR_STATIC to "
                             "scroll)");
    return fetch_rowset(s);
}

SQLRETURN odbc_stmt_extended_fetch(odbc_stmt *s, SQLUSMALLINT orientation,
                                   SQLLEN offset, SQLULEN *row_count,
                                   SQLUSMALLINT *row_status)
{
    SQLULEN n = s->row_array_size ? s->row_array_size : 1;
    if (s->sc_rows) {
        uint64_t bm = orientation == SQL_FETCH_BOOKMARK && offset > 0
                          ? (uint64_t)offset : 0;
        return fetch_static(s, (SQLSMALLINT)orientation,
                            orientation == SQL_FETCH_BOOKMARK ? 0 : offset,
                            bm, n, row_count, row_status);
    }
    if (orientation != SQL_FETCH_NEXT)
        return odbc_diag_add(DIAG(s), "HY106", "Fetch type out of range: "
                             "the cursor is forward-only");
    SQLULEN *fp = s->rows_fetched_ptr;
    SQLUSMALLINT *sp = s->row_status_ptr;
    s->rows_fetched_ptr = row_count;
    s->row_status_ptr = row_status;
    SQLRETURN ret = fetch_rowset(s);
    s->rows_fetched_ptr = fp;
    s->row_status_ptr = sp;
    return ret;
}

/* The end of an SQLGetData call that converted a whole value (put's
 * status st): what is left of it for the next call on the column, and
 * the diagnostic. */
static SQLRETURN get_data_done(odbc_stmt *s, SQLUSMALLINT col,
                               SQLSMALLINT ct, odbc_conv *cv,
                               odbc_conv_status st)
{
    if (cv->repr_in_scratch) {
        s->gd_repr = true;
        s->gd_len = cv->repr_len;
        s->gd_off = cv->delivered;
        s->gd_ctype = ct;
        if (s->gd_off >= s->gd_len)
            s->gd_done = true;
    } else {
        s->gd_done = true;
    }
    if (st == CONV_OK)
        return SQL_SUCCESS;
    int w = conv_diag(s, cv, st, SQL_NO_ROW_NUMBER, col);
    if (w == 2) {
        s->gd_done = false;
        s->gd_col = 0;
        return SQL_ERROR;
    }
    return w == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* odbc_stmt_get_data's general path: every check, chunked long values,
 * SQL_ARD_TYPE, kept rowsets, a column or C type not seen before. */
static __attribute__((noinline)) SQLRETURN
get_data_slow(odbc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
              SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    if (s->state != STMT_CURSOR || (!s->has_row && s->rs_rows == 0))
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state "
                             "(no current row)");
    if (s->pos_unkept)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: SQLGetData on row %lu of a "
                             "rowset whose every column is bound (leave a "
                             "column unbound to read it)",
                             (unsigned long)s->pos_row + 1);
    if (col == 0 && s->sc_rows && s->use_bookmarks != SQL_UB_OFF) {
        if (buflen < 0)
            return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
        SQLSMALLINT ct = c_type == SQL_C_DEFAULT || c_type == SQL_ARD_TYPE
                             ? SQL_C_BINARY : c_type;
        if (!odbc_ctype_valid(ct))
            return odbc_diag_add(DIAG(s), "HY003", "Invalid application "
                                 "buffer type %d", (int)c_type);
        if (s->gd_col == -1)
            return SQL_NO_DATA;
        odbc_conv cv = stmt_conv(s, false);
        odbc_conv_status st = put_bookmark(s, ct, ptr, buflen, ind,
                                           s->sc_pos + s->pos_row);
        s->gd_col = -1;
        int w = conv_diag(s, &cv, st, SQL_NO_ROW_NUMBER, 0);
        return w == 2 ? SQL_ERROR : w == 1 ? SQL_SUCCESS_WITH_INFO
                                           : SQL_SUCCESS;
    }
    if (col == 0 || col > s->ncols)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index %u",
                             (unsigned)col);
    if (buflen < 0)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
    if (c_type != SQL_ARD_TYPE && !odbc_ctype_valid(c_type))
        return odbc_diag_add(DIAG(s), "HY003", "Invalid application buffer "
                             "type %d", (int)c_type);
    uint16_t i = (uint16_t)(col - 1);
    SQLSMALLINT ct = resolve_ctype(s, i, c_type);
    odbc_conv cv = stmt_conv(s, true);
    /* SQL_C_NUMERIC: default precision and scale 0, unless SQL_ARD_TYPE
     * asks for the ARD record's (SQLGetData, "SQL_C_NUMERIC") */
    if (c_type == SQL_ARD_TYPE && i < s->nbinds) {
        cv.num_precision = s->binds[i].precision;
        cv.num_scale = s->binds[i].scale;
    }

    if (s->gd_col != col) {
        s->gd_col = col;
        s->gd_off = 0;
        s->gd_done = false;
        s->gd_repr = false;
        s->gd_len = 0;
    }
    if (s->gd_done)
        return SQL_NO_DATA;
    if (s->gd_repr && odbc_conv_is_var(ct)) {
        odbc_conv_status st = odbc_conv_chunk(s->scratch.p, s->gd_len,
                                              &s->gd_off, ct, ptr, buflen,
                                              ind);
        if (s->gd_off >= s->gd_len)
            s->gd_done = true;
        return conv_diag(s, &cv, st, SQL_NO_ROW_NUMBER, col) == 1
                   ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
    }
    jet_value v;
    jet_rc rc;
    odbc_put_fn put = odbc_convert;
    struct odbc_fastplan *p = s->fast;   /* built by this cursor's fetch */
    if (p && p->cur == s->cur && s->cur && i < p->ncols &&
        (p->col[i].scan || p->col[i].row)) {
        fast_col *fc = &p->col[i];
        if (fc->gd_ct != ct) {
            fc->gd_ct = ct;
            fc->gd_put = pick_put(s, fc->type, ct);
            fc->gd_cell = fc->scan && fc->loc.kind != JET_CELL_NONE &&
                                  fc->gd_put != odbc_convert
                              ? odbc_fast_cell_for(fc->type, ct) : NULL;
        }
        /* c_type passed the checks above and resolves to gd_ct for the
         * cursor's life (SQL_ARD_TYPE follows the bindings: not cached) */
        fc->gd_req = c_type != SQL_ARD_TYPE ? c_type : 0;
        /* a fast conversion leaves cv's repr_* as initialised (nothing
         * kept), which is what they mean when the value fitted */
        if (cv.num_precision == 0 && cv.num_scale == 0)
            put = fc->gd_put;
        rc = fast_value(s, fc, i, &v);
        if (fc->row && v.type != fc->type)
            put = odbc_convert;
    } else {
        rc = cur_value(s, i, &v);
    }
    if (rc != JET_OK)
        return exec_diag(s, rc);
    odbc_conv_status st = put(&cv, &v, ct, ptr, buflen, ind);
    return get_data_done(s, col, ct, &cv, st);
}

/* odbc_stmt_get_data's second path: the value of a direct column (or of
 * the cursor's stored row) through a jet_value, with the checks cached
 * in the column's plan entry; anything else goes to get_data_slow. */
static __attribute__((noinline)) SQLRETURN
get_data_value(odbc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
               SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    const struct odbc_fastplan *fp = s->gd_fast;
    uint16_t fi = (uint16_t)(col - 1);
    if (fp && fi < fp->ncols && s->gd_col != col && buflen >= 0 &&
        fp->col[fi].gd_req == c_type) {
        const fast_col *fc = &fp->col[fi];
        jet_value v;
        bool got = false;
        if (fc->scan)
            got = jet_scan_value(fc->scan, fc->tcol, &v) == JET_OK;
        else if (fc->row) {
            v = fc->row[fc->tcol];
            got = v.type == fc->type;
        }
        if (got) {
            odbc_conv cv = stmt_conv(s, true);
            s->gd_col = col;
            s->gd_off = 0;
            s->gd_repr = false;
            s->gd_len = 0;
            odbc_conv_status st = fc->gd_put(&cv, &v, fc->gd_ct, ptr, buflen,
                                             ind);
            if (st == CONV_OK && !cv.repr_in_scratch) {
                s->gd_done = true;
                return SQL_SUCCESS;
            }
            s->gd_done = false;
            return get_data_done(s, col, fc->gd_ct, &cv, st);
        }
        /* a failed read: the path below repeats it through the engine */
    }
    return get_data_slow(s, col, c_type, ptr, buflen, ind);
}

SQLRETURN odbc_stmt_get_data(odbc_stmt *s, SQLUSMALLINT col,
                             SQLSMALLINT c_type, SQLPOINTER ptr,
                             SQLLEN buflen, SQLLEN *ind)
{
    /* The common call: the first of its column on the row the open
     * streaming cursor's last fetch read, with a TargetType this column
     * was asked for before. The checks passed then and their outcome is
     * cached in the column's plan entry (gd_req -> gd_ct, gd_cell); the
     * value goes from the scan's row bytes straight into the buffer.
     * gd_done = true makes the repr fields moot until gd_col changes
     * (get_data_slow resets them then). */
    const struct odbc_fastplan *fp = s->gd_fast;
    uint16_t fi = (uint16_t)(col - 1);
    if (fp && fi < fp->ncols && s->gd_col != col && buflen >= 0) {
        const fast_col *fc = &fp->col[fi];
        if (fc->gd_req == c_type && fc->gd_cell) {
            const uint8_t *cp = NULL;
            size_t cn = 0;
            int k = jet_row_cell(fc->rowv, &fc->loc, &cp, &cn);
            if (k > 0 ? fc->gd_cell(s->dbc->db, cp, cn, ptr, buflen, ind)
                      : k == 0 && ind) {
                if (k == 0)
                    *ind = SQL_NULL_DATA;
                s->gd_col = col;
                s->gd_done = true;
                return SQL_SUCCESS;
            }
        }
    }
    return get_data_value(s, col, c_type, ptr, buflen, ind);
}

SQLRETURN odbc_stmt_more_results(odbc_stmt *s)
{
    bool batch = s->pset.batch;
    close_cursor(s);
    return batch ? odbc_stmt_next_param_set(s) : SQL_NO_DATA;
}

/* Case-insensitive ASCII prefix test. */
static bool has_prefix_ci(const char *s, size_t n, const char *pre)
{
    size_t k = strlen(pre);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != pre[i])
            return false;
    }
    return true;
}

SQLRETURN odbc_stmt_set_cursor_name(odbc_stmt *s, const char *name,
                                    size_t len)
{
    if (s->state == STMT_CURSOR)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state (a "
                             "cursor is open)");
    if (len == 0 || has_prefix_ci(name, len, "SQLCUR") ||
        has_prefix_ci(name, len, "SQL_CUR"))
        return odbc_diag_add(DIAG(s), "34000", "Invalid cursor name '%.*s'",
                             (int)(len > 64 ? 64 : len), name);
    bool cut = len > ODBC_MAX_CURSOR_NAME;
    if (cut) {
        len = ODBC_MAX_CURSOR_NAME;
        while (len > 0 && ((unsigned char)name[len] & 0xC0) == 0x80)
            len--;      /* a whole UTF-8 character */
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    memcpy(copy, name, len);
    copy[len] = '\0';
    for (odbc_stmt *o = s->dbc->stmts; o; o = o->next) {
        if (o != s && o->cursor_name &&
            jet_name_compare_ci(o->cursor_name, copy) == 0) {
            free(copy);
            return odbc_diag_add(DIAG(s), "3C000", "Duplicate cursor name "
                                 "'%s'", o->cursor_name);
        }
    }
    free(s->cursor_name);
    s->cursor_name = copy;
    if (cut)
        return odbc_diag_add(DIAG(s), "01004", "String data, right "
                             "truncated (the cursor name is cut to %d "
                             "bytes)", ODBC_MAX_CURSOR_NAME);
    return SQL_SUCCESS;
}

const char *odbc_stmt_cursor_name(odbc_stmt *s)
{
    if (!s->cursor_name) {
        char buf[32];
        snprintf(buf, sizeof buf, "SQL_CUR%u", ++s->dbc->cursor_seq);
        s->cursor_name = odbc_strdup(buf);
        if (!s->cursor_name)
            odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    }
    return s->cursor_name;
}

SQLRETURN odbc_stmt_cancel(odbc_stmt *s)
{
    /* called without the connection lock: only raise the flag (an
     * atomic, so the running fetch sees it without a data race) */
    atomic_store(&s->cancel, 1);
    return SQL_SUCCESS;
}

/* ------------------------------------------------------- attributes */

SQLRETURN odbc_stmt_set_attr(odbc_stmt *s, SQLINTEGER attr, SQLPOINTER val,
                             SQLINTEGER len)
{
    SQLULEN v = (SQLULEN)(uintptr_t)val;
    switch (attr) {
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE:
        if (v == 0)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->row_array_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_TYPE:
        s->row_bind_type = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROWS_FETCHED_PTR:
        s->rows_fetched_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_STATUS_PTR:
        s->row_status_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR:
        s->bind_offset_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_MAX_ROWS:
        s->max_rows = v;
        return SQL_SUCCESS;
    case SQL_ATTR_QUERY_TIMEOUT:
        s->query_timeout = v;
        return SQL_SUCCESS;
    case SQL_ATTR_MAX_LENGTH:
        /* applied by odbc_convert (cv.max_len), chosen per binding when
         * the cursor's fetch plan is built: on an open cursor a new value
         * would not take effect, so it is kept (the spec's 01S02) */
        if (s->state == STMT_CURSOR && v != s->max_length)
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "SQL_ATTR_MAX_LENGTH cannot change while "
                                 "a cursor is open (still %lu)",
                                 (unsigned long)s->max_length);
        s->max_length = v;
        return SQL_SUCCESS;
    case SQL_ATTR_NOSCAN:
        s->noscan = v;
        return SQL_SUCCESS;
    case SQL_ATTR_RETRIEVE_DATA:
        s->retrieve_data = v;
        return SQL_SUCCESS;
    case SQL_ATTR_KEYSET_SIZE:
        s->keyset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        s->metadata_id = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMSET_SIZE:
        if (v == 0)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->paramset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE:
        s->pset.bind_type = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
        s->pset.bind_offset_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_OPERATION_PTR:
        s->pset.operation_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_STATUS_PTR:
        s->pset.status_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
        s->pset.processed_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_OPERATION_PTR:
    case SQL_ATTR_ENABLE_AUTO_IPD:
    case SQL_ATTR_SIMULATE_CURSOR:
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_TYPE:
        /* takes effect at the next execute (wants_static) */
        if (v == SQL_CURSOR_FORWARD_ONLY || v == SQL_CURSOR_STATIC) {
            s->cursor_type = v;
            return SQL_SUCCESS;
        }
        if (v == SQL_CURSOR_KEYSET_DRIVEN || v == SQL_CURSOR_DYNAMIC) {
            s->cursor_type = SQL_CURSOR_STATIC;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "the cursor is static (a read-only file's "
                                 "rows do not change under it)");
        }
        return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
    case SQL_ATTR_CONCURRENCY:
        if (v != SQL_CONCUR_READ_ONLY) {
            s->concurrency = SQL_CONCUR_READ_ONLY;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "cursor is read-only");
        }
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        /* the spec's pairing: scrollable = static, else forward-only */
        if (v == SQL_SCROLLABLE) {
            if (s->cursor_type == SQL_CURSOR_FORWARD_ONLY)
                s->cursor_type = SQL_CURSOR_STATIC;
            return SQL_SUCCESS;
        }
        if (v == SQL_NONSCROLLABLE) {
            s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
            return SQL_SUCCESS;
        }
        return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
    case SQL_ATTR_CURSOR_SENSITIVITY:
        if (v == SQL_SENSITIVE)
            return odbc_diag_add(DIAG(s), "HYC00", "Sensitive cursors are "
                                 "not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_USE_BOOKMARKS:
        /* takes effect at the next execute: a cursor with bookmarks is a
         * static one (wants_static) */
        if (v != SQL_UB_OFF && v != SQL_UB_ON && v != SQL_UB_VARIABLE)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->use_bookmarks = v;
        return SQL_SUCCESS;
    case SQL_ATTR_FETCH_BOOKMARK_PTR:
        s->fetch_bookmark_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ASYNC_ENABLE:
        if (v != SQL_ASYNC_ENABLE_OFF)
            return odbc_diag_add(DIAG(s), "HYC00", "Asynchronous execution "
                                 "is not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_APP_ROW_DESC:
    case SQL_ATTR_APP_PARAM_DESC:
        if (val == NULL || val == &s->ard || val == &s->apd)
            return SQL_SUCCESS;
        return odbc_diag_add(DIAG(s), "HYC00", "Explicit descriptors are "
                             "not supported");
    case SQL_ATTR_IMP_ROW_DESC:
    case SQL_ATTR_IMP_PARAM_DESC:
    case SQL_ATTR_ROW_NUMBER:
        return odbc_diag_add(DIAG(s), "HY017", "Invalid use of an "
                             "automatically allocated descriptor handle");
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Statement attribute %d not "
                             "supported", (int)attr);
    }
}

SQLRETURN odbc_stmt_get_attr(odbc_stmt *s, SQLINTEGER attr, SQLPOINTER val,
                             SQLINTEGER buflen, SQLINTEGER *outlen)
{
    SQLULEN v;
    void *p = NULL;
    bool is_ptr = false;
    switch (attr) {
    case SQL_ATTR_ROW_ARRAY_SIZE: case SQL_ROWSET_SIZE:
        v = s->row_array_size; break;
    case SQL_ATTR_ROW_BIND_TYPE: v = s->row_bind_type; break;
    case SQL_ATTR_ROWS_FETCHED_PTR: p = s->rows_fetched_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_STATUS_PTR: p = s->row_status_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: p = s->bind_offset_ptr; is_ptr = true; break;
    case SQL_ATTR_APP_ROW_DESC: p = &s->ard; is_ptr = true; break;
    case SQL_ATTR_APP_PARAM_DESC: p = &s->apd; is_ptr = true; break;
    case SQL_ATTR_IMP_ROW_DESC: p = &s->ird; is_ptr = true; break;
    case SQL_ATTR_IMP_PARAM_DESC: p = &s->ipd; is_ptr = true; break;
    case SQL_ATTR_MAX_ROWS: v = s->max_rows; break;
    case SQL_ATTR_QUERY_TIMEOUT: v = s->query_timeout; break;
    case SQL_ATTR_MAX_LENGTH: v = s->max_length; break;
    case SQL_ATTR_NOSCAN: v = s->noscan; break;
    case SQL_ATTR_RETRIEVE_DATA: v = s->retrieve_data; break;
    case SQL_ATTR_KEYSET_SIZE: v = s->keyset_size; break;
    case SQL_ATTR_METADATA_ID: v = s->metadata_id; break;
    case SQL_ATTR_PARAMSET_SIZE: v = s->paramset_size; break;
    case SQL_ATTR_PARAM_BIND_TYPE: v = s->pset.bind_type; break;
    case SQL_ATTR_CURSOR_TYPE: v = s->cursor_type; break;
    case SQL_ATTR_CONCURRENCY: v = s->concurrency; break;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        v = s->cursor_type == SQL_CURSOR_FORWARD_ONLY ? SQL_NONSCROLLABLE
                                                      : SQL_SCROLLABLE;
        break;
    case SQL_ATTR_FETCH_BOOKMARK_PTR:
        p = s->fetch_bookmark_ptr; is_ptr = true; break;
    case SQL_ATTR_CURSOR_SENSITIVITY: v = SQL_INSENSITIVE; break;
    case SQL_ATTR_USE_BOOKMARKS: v = s->use_bookmarks; break;
    case SQL_ATTR_ASYNC_ENABLE: v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_ENABLE_AUTO_IPD: v = SQL_FALSE; break;
    case SQL_ATTR_SIMULATE_CURSOR: v = SQL_SC_UNIQUE; break;
    case SQL_ATTR_ROW_NUMBER:
        if (s->state != STMT_CURSOR || !s->has_row)
            v = 0;
        else if (s->sc_rows)
            v = s->sc_pos + s->pos_row;
        else
            v = s->rows_returned;
        break;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
        p = s->pset.bind_offset_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAM_OPERATION_PTR:
        p = s->pset.operation_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAM_STATUS_PTR:
        p = s->pset.status_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
        p = s->pset.processed_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_OPERATION_PTR:
        p = NULL; is_ptr = true; break;
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Statement attribute %d not "
                             "supported", (int)attr);
    }
    if (is_ptr) {
        if (val)
            memcpy(val, &p, sizeof p);
        if (outlen)
            *outlen = sizeof p;
    } else {
        if (val)
            memcpy(val, &v, sizeof v);
        if (outlen)
            *outlen = sizeof v;
    }
    return SQL_SUCCESS;
}

/* ------------------------------------------------------ column info */

static SQLLEN display_size(const odbc_type_info *ti)
{
    switch (ti->sql_type) {
    case SQL_BIT: return 1;
    case SQL_TINYINT: return ti->unsigned_attr == SQL_TRUE ? 3 : 4;
    case SQL_SMALLINT: return 6;
    case SQL_INTEGER: return 11;
    case SQL_BIGINT: return 20;
    case SQL_REAL: return 14;
    case SQL_FLOAT: case SQL_DOUBLE: return 24;
    case SQL_DECIMAL: case SQL_NUMERIC: return (SQLLEN)ti->column_size + 2;
    case SQL_TYPE_DATE: return 10;
    case SQL_TYPE_TIME: return 8;
    case SQL_TYPE_TIMESTAMP:
        return 19 + (ti->decimal_digits > 0 ? ti->decimal_digits + 1 : 0);
    case SQL_GUID: return 38;   /* convert.c's text form has braces:
                                   {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX} */
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return ti->column_size > (SQLULEN)SQL_NO_TOTAL / 2 ? SQL_NO_TOTAL
                                                        : (SQLLEN)ti->column_size * 2;
    default: return (SQLLEN)ti->column_size;
    }
}

static bool is_datetime(SQLSMALLINT t)
{
    return t == SQL_TYPE_DATE || t == SQL_TYPE_TIME || t == SQL_TYPE_TIMESTAMP;
}

SQLRETURN odbc_stmt_col_attribute(odbc_stmt *s, SQLUSMALLINT col,
                                  SQLUSMALLINT field, const char **str,
                                  SQLLEN *num)
{
    *str = NULL;
    *num = 0;
    if (field == SQL_DESC_COUNT || field == SQL_COLUMN_COUNT) {
        *num = s->ncols;
        return SQL_SUCCESS;
    }
    if (s->state == STMT_ALLOCATED)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no prepared statement)");
    const odbc_colmeta *c = odbc_stmt_column(s, col);
    if (!c)
        return SQL_ERROR;
    const odbc_type_info *ti = &c->ti;
    switch (field) {
    case SQL_DESC_NAME: case SQL_DESC_LABEL: case SQL_COLUMN_NAME:
        *str = c->name; break;
    case SQL_DESC_BASE_COLUMN_NAME:
        *str = c->base_name ? c->base_name : c->name; break;
    case SQL_DESC_TABLE_NAME: case SQL_DESC_BASE_TABLE_NAME:
        *str = c->table_name ? c->table_name : ""; break;
    case SQL_DESC_CATALOG_NAME:
        *str = (c->table_name && s->dbc->db) ? jet_db_path(s->dbc->db) : "";
        break;
    case SQL_DESC_SCHEMA_NAME: *str = ""; break;
    case SQL_DESC_TYPE_NAME: case SQL_DESC_LOCAL_TYPE_NAME:
        *str = ti->type_name; break;
    case SQL_DESC_LITERAL_PREFIX:
        *str = ti->literal_prefix ? ti->literal_prefix : ""; break;
    case SQL_DESC_LITERAL_SUFFIX:
        *str = ti->literal_suffix ? ti->literal_suffix : ""; break;
    case SQL_DESC_CONCISE_TYPE:
        *num = ti->sql_type; break;
    case SQL_DESC_TYPE:
        *num = is_datetime(ti->sql_type) ? SQL_DATETIME : ti->sql_type; break;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        *num = ti->sql_type == SQL_TYPE_DATE ? SQL_CODE_DATE
             : ti->sql_type == SQL_TYPE_TIME ? SQL_CODE_TIME
             : ti->sql_type == SQL_TYPE_TIMESTAMP ? SQL_CODE_TIMESTAMP : 0;
        break;
    case SQL_DESC_LENGTH:
        *num = (SQLLEN)ti->column_size; break;
    case SQL_DESC_OCTET_LENGTH: case SQL_COLUMN_LENGTH:
        *num = ti->octet_length; break;
    case SQL_DESC_PRECISION:
        *num = is_datetime(ti->sql_type)
                   ? (ti->decimal_digits > 0 ? ti->decimal_digits : 0)
                   : (SQLLEN)ti->column_size;
        break;
    case SQL_COLUMN_PRECISION:
        *num = (SQLLEN)ti->column_size; break;
    case SQL_DESC_SCALE: case SQL_COLUMN_SCALE:
        *num = ti->decimal_digits > 0 ? ti->decimal_digits : 0; break;
    case SQL_DESC_DISPLAY_SIZE:
        *num = display_size(ti); break;
    case SQL_DESC_NULLABLE: case SQL_COLUMN_NULLABLE:
        *num = c->nullable; break;
    case SQL_DESC_UNSIGNED:
        *num = ti->unsigned_attr == SQL_FALSE ? SQL_FALSE : SQL_TRUE; break;
    case SQL_DESC_AUTO_UNIQUE_VALUE:
        *num = ti->auto_unique == SQL_TRUE ? SQL_TRUE : SQL_FALSE; break;
    case SQL_DESC_CASE_SENSITIVE:
        *num = ti->case_sensitive; break;
    case SQL_DESC_SEARCHABLE:
        *num = ti->searchable; break;
    case SQL_DESC_UPDATABLE:
        *num = SQL_ATTR_READONLY; break;
    case SQL_DESC_FIXED_PREC_SCALE:
        *num = ti->fixed_prec_scale == SQL_TRUE ? SQL_TRUE : SQL_FALSE; break;
    case SQL_DESC_NUM_PREC_RADIX:
        *num = ti->num_prec_radix; break;
    case SQL_DESC_UNNAMED:
        *num = (c->name && *c->name) ? SQL_NAMED : SQL_UNNAMED; break;
    default:
        return odbc_diag_add(DIAG(s), "HY091", "Invalid descriptor field "
                             "identifier %u", (unsigned)field);
    }
    return SQL_SUCCESS;
}
