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
#include <strings.h>
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
    s->pos_rows = -1;
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

void odbc_stmt_read_end(odbc_stmt *s)
{
    if (s->reading && s->dbc->db)
        jet_db_read_end(s->dbc->db);
    s->reading = false;
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
    odbc_stmt_read_end(s);
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
    s->pos_rows = -1;
    odbc_rowstore_free(s->sc_rows);
    s->sc_rows = NULL;
    jet_scan_close(s->sc_scan);
    s->sc_scan = NULL;
    s->sc_src = NULL;
    free(s->sc_tcols);
    s->sc_tcols = NULL;
    s->sc_td = NULL;
    s->sc_pos = 0;
    s->sc_prev_n = 0;
    s->sc_done = false;
    odbc_stmt_pos_close(s);
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
    s->is_dml = false;
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
    odbc_stmt_pos_free(s);
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
        /* the array stays for the next SQLBindParameter (pyodbc resets
         * and binds again around every execute): no records remain */
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
            /* the column's own for MAX/MIN of it, else Decimal's */
            jc.precision = rc->precision ? rc->precision : 28;
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

/* The IRD again when an execute planned the query anew for its
 * parameters' types (engine.h sql_statement_execute: `SELECT ?` of a
 * bound Long is a Long column) or after a schema change (SELECT * of a
 * table that gained a column); SQLDescribeCol before the execute
 * answered from the prepare's plan. 0, or -1 out of memory. */
static int follow_plan(odbc_stmt *s)
{
    sql_stmt *q = sql_statement_query(s->prepared);
    if (!q || q == s->plan)
        return 0;
    s->plan = q;
    s->tdef = s->is_dml ? NULL : sql_stmt_tdef(q);
    size_t n = s->is_dml ? 0 : sql_stmt_ncols(q);
    if (n != s->ncols && n <= 4096) {
        odbc_colmeta *c = calloc(n ? n : 1, sizeof *c);
        if (!c)
            return -1;
        free_cols(s->cols, s->ncols);
        s->cols = c;
        s->ncols = (uint16_t)n;
    }
    for (size_t i = 0; i < s->ncols && i < n; i++) {
        odbc_colmeta *c = &s->cols[i];
        free(c->name);
        free(c->base_name);
        free(c->table_name);
        memset(c, 0, sizeof *c);
        if (fill_col(s, c, i) != 0)
            return -1;
    }
    return 0;
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

/* Whether sql is SELECT @@IDENTITY (Access's way to ask for the last
 * AutoNumber the connection inserted), spaces and a ';' aside. */
static bool is_identity_query(const char *sql, size_t len)
{
    size_t i = 0;
    const char *words[] = { "SELECT", "@@IDENTITY" };
    for (int w = 0; w < 2; w++) {
        while (i < len && (sql[i] == ' ' || sql[i] == '\t' ||
                           sql[i] == '\r' || sql[i] == '\n'))
            i++;
        size_t n = strlen(words[w]);
        if (len - i < n || strncasecmp(sql + i, words[w], n))
            return false;
        i += n;
    }
    while (i < len && (sql[i] == ' ' || sql[i] == ';' || sql[i] == '\t' ||
                       sql[i] == '\r' || sql[i] == '\n'))
        i++;
    return i == len;
}

SQLRETURN odbc_stmt_prepare(odbc_stmt *s, const char *sql, size_t len)
{
    /* SELECT @@IDENTITY: the value as of this prepare (pyodbc and ADO
     * prepare and execute it at once) */
    char idq[80];
    if (sql && is_identity_query(sql, len)) {
        snprintf(idq, sizeof idq, "SELECT CLng(%lld) AS [@@IDENTITY]",
                 (long long)s->dbc->last_identity);
        sql = idq;
        len = strlen(idq);
    }
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
    /* table definitions load inside a read transaction too */
    if (jet_db_read_begin(db) != JET_OK) {
        if (is_call > 0)
            sql_call_free(&call);
        return odbc_diag_jet(DIAG(s), jet_db_error(db)->rc,
                             jet_db_error(db), DIAG_CTX_OTHER);
    }
    int prc = sql_statement_prepare(&s->prepared, db, sql, len, &po, &perr);
    jet_db_read_end(db);
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
    s->is_dml = sql_statement_kind(s->prepared) != SQL_KIND_QUERY;
    s->tdef = s->is_dml ? NULL : sql_stmt_tdef(s->plan);
    size_t n = s->is_dml ? 0 : sql_stmt_ncols(s->plan);
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

/* Whether SQL type t is a Decimal: SQL_DECIMAL or SQL_NUMERIC, whose
 * DecimalDigits are the parameter's scale. */
static bool decimal_sql_type(SQLSMALLINT t)
{
    return t == SQL_DECIMAL || t == SQL_NUMERIC;
}

/* Character data u8[0..n) of parameter i as its declared SQL type
 * (p->sql_type, paramconv.c): a value in *v, or kept as text (*as_text).
 * A Decimal's text is read at the bound scale (DecimalDigits). */
static SQLRETURN char_param(odbc_stmt *s, size_t i, const char *u8,
                            size_t n, const odbc_param *p, jet_value *v,
                            bool *as_text)
{
    odbc_pconv rc = odbc_param_from_text(v, as_text, u8, n, p->sql_type);
    if (rc == ODBC_PCONV_OK && decimal_sql_type(p->sql_type)) {
        rc = odbc_param_decimal(v, u8, n, p->decimal_digits,
                                (int)p->column_size);
        *as_text = false;
    }
    while (n > 0 && (*u8 == ' ' || *u8 == '\t')) {
        u8++;
        n--;
    }
    return pconv_diag(s, i, rc, u8, n);
}

/* The decimal digits of the little-endian magnitude le[0..nb) (at most
 * 16 bytes) into buf: at most 40 characters and a NUL. */
static void magnitude_digits(const uint8_t *le, size_t nb, char *buf)
{
    uint8_t m[16];
    char tmp[48];
    size_t k = sizeof tmp;
    memcpy(m, le, nb);
    tmp[--k] = '\0';
    for (;;) {
        unsigned rem = 0;
        bool zero = true;
        for (size_t j = nb; j-- > 0;) {
            unsigned x = rem * 256u + m[j];
            m[j] = (uint8_t)(x / 10u);
            rem = x % 10u;
            zero = zero && m[j] == 0;
        }
        tmp[--k] = (char)('0' + rem);
        if (zero)
            break;
    }
    memcpy(buf, tmp + k, sizeof tmp - k);
}

/* A number *v of parameter i (C type ct) bound as SQL_DECIMAL or
 * SQL_NUMERIC: the Decimal of the bound scale (p->decimal_digits), as its
 * text would give (a Double by its 15 significant digits, a Single by 7,
 * as Access's CDec reads them). Dates, binary and GUIDs are left alone. */
static SQLRETURN decimal_param(odbc_stmt *s, size_t i, const odbc_param *p,
                               SQLSMALLINT ct, jet_value *v)
{
    char num[64];
    switch (v->type) {
    case JET_T_LONG: case JET_T_BIGINT:
        snprintf(num, sizeof num, "%lld", (long long)v->u.i);
        break;
    case JET_T_BOOL:
        snprintf(num, sizeof num, "%d", v->u.b ? 1 : 0);
        break;
    case JET_T_FLOAT: case JET_T_DOUBLE: {
        double d = v->type == JET_T_FLOAT ? v->u.f : v->u.d;
        if (!isfinite(d))
            return pconv_diag(s, i, ODBC_PCONV_RANGE, "inf", 3);
        jet_fmt_double_c(num, sizeof num, 'g',
                         ct == SQL_C_FLOAT || v->type == JET_T_FLOAT ? 7
                                                                     : 15, d);
        break;
    }
    case JET_T_NUMERIC: {
        size_t k = 0;
        if (v->u.num.negative)
            num[k++] = '-';
        magnitude_digits(v->u.num.mag, 12, num + k);
        k = strlen(num);
        snprintf(num + k, sizeof num - k, "E-%u", (unsigned)v->u.num.scale);
        break;
    }
    default:
        return SQL_SUCCESS;
    }
    return pconv_diag(s, i, odbc_param_decimal(v, num, strlen(num),
                                               p->decimal_digits,
                                               (int)p->column_size),
                      num, strlen(num));
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

/* SQLWCHAR text at ptr (ind bytes, or up to a NUL for SQL_NTS) as an
 * aligned pointer: ptr itself, or a NUL-terminated copy in *copy (the
 * caller frees it) when a packed row-wise set put it at an odd address.
 * NULL when the copy cannot be allocated. */
static const void *wide_aligned(const void *ptr, SQLLEN ind, void **copy)
{
    size_t nb = 0;
    *copy = NULL;
    if ((uintptr_t)ptr % sizeof(SQLWCHAR) == 0)
        return ptr;
    if (ind == SQL_NTS) {
        for (;; nb += sizeof(SQLWCHAR)) {
            SQLWCHAR w;
            memcpy(&w, (const char *)ptr + nb, sizeof w);
            if (w == 0)
                break;
        }
    } else {
        nb = (size_t)ind;
    }
    *copy = malloc(nb + sizeof(SQLWCHAR));
    if (*copy == NULL)
        return NULL;
    memcpy(*copy, ptr, nb);
    memset((char *)*copy + nb, 0, sizeof(SQLWCHAR));
    return *copy;
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
    SQLLEN ind = lp ? odbc_len_at(lp) : SQL_NTS;
    const void *ptr = p->ptr;
    bool dae_null = false;
    if (ind == SQL_DATA_AT_EXEC || ind <= SQL_LEN_DATA_AT_EXEC_OFFSET) {
        if (!odbc_stmt_dae_value(s, i, &ptr, &ind, &dae_null))
            return odbc_diag_add(DIAG(s), "HY010", "Function sequence "
                                 "error (parameter %zu is data at "
                                 "execution)", i + 1);
    } else if ((p->ind && odbc_len_at(p->ind) == SQL_NULL_DATA) ||
               (!p->ptr && lp)) {
        dae_null = true;
    }
    if (dae_null) {
        /* typed as bound: `SELECT ?` of a NULL bound as SQL_INTEGER is a
         * Long column */
        v->type = odbc_param_jet_type(p->sql_type);
        if (v->type == JET_T_NUMERIC)
            v->u.num.scale = (uint8_t)(p->decimal_digits < 0 ? 0
                                       : p->decimal_digits > 28 ? 28
                                       : p->decimal_digits);
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
    /* a fixed-size value of a packed row-wise set may sit at any address:
     * read it from an aligned copy */
    union {
        SQLBIGINT i;
        SQLDOUBLE d;
        SQL_TIMESTAMP_STRUCT ts;
        SQL_INTERVAL_STRUCT iv;
        SQL_NUMERIC_STRUCT n;
    } aligned;
    SQLULEN fixed = odbc_ctype_size(ct);
    if (fixed > 0 && fixed <= sizeof aligned) {
        memcpy(&aligned, ptr, (size_t)fixed);
        ptr = &aligned;
    }
    switch (ct) {
    case SQL_C_CHAR: {
        size_t n = ind == SQL_NTS ? strlen(ptr) : (size_t)ind;
        size_t len;
        bool as_text;
        SQLRETURN rc = char_param(s, i, ptr, n, p, v, &as_text);
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
        void *wcopy;
        const void *wp = wide_aligned(ptr, ind, &wcopy);
        char *u8 = wp ? odbc_wide_to_utf8_len(wp, units, &ok, &n8) : NULL;
        free(wcopy);
        if (!u8)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        size_t len;
        bool as_text;
        SQLRETURN rc = char_param(s, i, u8, n8, p, v, &as_text);
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
        if (decimal_sql_type(p->sql_type)) {
            /* all 16 bytes, at the bound scale (DecimalDigits) */
            char num[64];
            size_t k = 0;
            if (n->sign == 0)
                num[k++] = '-';
            magnitude_digits(n->val, SQL_MAX_NUMERIC_LEN, num + k);
            k = strlen(num);
            snprintf(num + k, sizeof num - k, "E%d", -scale);
            return pconv_diag(s, i, odbc_param_decimal(v, num, strlen(num),
                                                       p->decimal_digits,
                                                       (int)p->column_size),
                              num, strlen(num));
        }
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
    if (decimal_sql_type(p->sql_type))
        return decimal_param(s, i, p, ct, v);
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
    sql_param_info unused = {JET_T_TEXT, NULL, false, false, 0, 0};
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
        return s->is_dml ? odbc_stmt_dml_batch(s)
                         : odbc_stmt_execute_batch(s);
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
    /* a few parameters (a prepared lookup's key) on the stack: no
     * allocation per execute */
    jet_value pv_small[8];
    uint8_t *owned_small[8];
    SQLRETURN ret = SQL_SUCCESS;
    if (np > 0 && np <= 8) {
        memset(pv_small, 0, np * sizeof *pv_small);
        memset(owned_small, 0, np * sizeof *owned_small);
        pv = pv_small;
        owned = owned_small;
    } else if (np > 0) {
        pv = calloc(np, sizeof *pv);
        owned = calloc(np, sizeof *owned);
        if (!pv || !owned) {
            ret = odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
            goto out;
        }
    }
    if (np > 0) {
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
    opts.enclosed = s->pset.dml_array;
    opts.only_row = s->only_row;
    opts.only_pgno = s->only_pgno;
    opts.only_slot = s->only_slot;
    clear_cancel(s);
    start_deadline(s);
    int64_t t0 = s->dbc->trace ? odbc_trace_now_us() : 0;
    sql_error err;
    memset(&err, 0, sizeof err);
    if (s->is_dml) {
        SQLRETURN dr = odbc_stmt_run_dml(s, pv, &opts);
        /* a schema change since the prepare planned it anew: never keep
         * the old plan's address */
        if (follow_plan(s) != 0 && SQL_SUCCEEDED(dr))
            dr = odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        if (dr != SQL_SUCCESS)
            ret = dr;
        clear_cancel(s);
        goto out;
    }
    /* a query reads inside one read transaction, from execute until its
     * cursor closes or is fetched to the end: it never sees part of
     * another process's commit. A statement without a result set (DML)
     * takes none here: its write transaction must be free to wait for
     * other writers, which it may not do while holding SHARED */
    if (s->ncols > 0 && !s->reading) {
        if (jet_db_read_begin(s->dbc->db) != JET_OK) {
            ret = odbc_diag_jet(DIAG(s), jet_db_error(s->dbc->db)->rc,
                                jet_db_error(s->dbc->db), DIAG_CTX_OTHER);
            goto out;
        }
        s->reading = true;
    }
    int xrc = sql_statement_execute(s->prepared, pv, &opts, &s->cur, &err);
    if (follow_plan(s) != 0) {
        close_cursor(s);
        ret = odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        goto out;
    }
    if (xrc != 0) {
        s->cur = NULL;
        odbc_stmt_read_end(s);
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
    if (owned != owned_small) {
        free(owned);
        free(pv);
    }
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
    /* the engine's count of the last execute: -1 for a query (unknown);
     * after a positioned write (setpos.c) the rows it wrote */
    if (out)
        *out = s->is_dml ? (SQLLEN)s->dml_rows
             : s->state == STMT_CURSOR && s->pos_rows >= 0 ? s->pos_rows
             : s->prepared ? (SQLLEN)sql_statement_row_count(s->prepared)
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
