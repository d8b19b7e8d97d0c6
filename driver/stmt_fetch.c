/*
 * stmt_fetch.c - a statement's results: fetch rowsets into bound buffers
 * (the forward-only fast path and the static cursor's row store),
 * SQLSetPos, bookmarks, SQLGetData, cursor names and SQLCancel.
 *
 * Moved from stmt.c unchanged; stmt.c opens the cursor this reads
 * (odbc_stmt_open_set) and its state machine is described there.
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
#include "scroll.h"
#include "sql/callproc.h"
#include "sql/engine.h"
#include "stmt_int.h"
#include "trace.h"
#include "wide.h"

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
        if (!s->sc_rows)
            odbc_stmt_read_end(s);      /* as at the end, below */
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
        if (rc == JET_DONE) {
            s->at_end = true;
            /* a forward-only cursor reads no more: let writers in (a
             * static cursor may read its table's rows again) */
            if (!s->sc_rows)
                odbc_stmt_read_end(s);
        }
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
    if (op != SQL_POSITION && op != SQL_REFRESH && op != SQL_UPDATE &&
        op != SQL_DELETE && op != SQL_ADD)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier (operation %u)", (unsigned)op);
    if (lock != SQL_LOCK_NO_CHANGE && lock != SQL_LOCK_UNLOCK &&
        lock != SQL_LOCK_EXCLUSIVE)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier (lock type %u)", (unsigned)lock);
    if (lock == SQL_LOCK_EXCLUSIVE)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: row locks");
    if (op == SQL_ADD ? row > (s->row_array_size ? s->row_array_size : 1)
                      : row > s->rs_fetched)
        return odbc_diag_add(DIAG(s), "HY107", "Row value out of range");
    if (op == SQL_UPDATE || op == SQL_DELETE || op == SQL_ADD)
        return odbc_stmt_pos_write(s, row, op);
    /* SQL_REFRESH reads a table's rows again: this connection may have
     * written them */
    if (op == SQL_REFRESH && s->sc_tcols) {
        SQLRETURN rr = odbc_static_rekeep(s);
        if (rr != SQL_SUCCESS)
            return rr;
    }
    if (row == 0) {
        if (op == SQL_POSITION)
            return odbc_diag_add(DIAG(s), "HY109", "Invalid cursor "
                                 "position (row 0)");
        /* SQL_REFRESH of the whole rowset: a read-only file's rows do not
         * change under us; a static cursor writes them into the bound
         * buffers again */
        int worst = 0;
        for (SQLULEN r = 0; r < s->rs_fetched; r++) {
            if (s->sc_rows && odbc_static_hole(s, r)) {
                if (s->row_status_ptr)
                    s->row_status_ptr[r] = SQL_ROW_DELETED;
                continue;
            }
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
    bool hole = s->sc_rows && odbc_static_hole(s, r);
    if (op == SQL_REFRESH && s->sc_rows && !hole)
        w = static_rebind(s, r);
    if (s->rs_rows > 0)
        s->pos_row = r;
    if (op == SQL_REFRESH && s->row_status_ptr)
        s->row_status_ptr[r] = hole ? SQL_ROW_DELETED
                             : w == 0 ? SQL_ROW_SUCCESS
                             : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                      : SQL_ROW_ERROR;
    return w == 2 ? SQL_ERROR : w == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* A fetch without an open cursor: 24000 after a statement that ran and
 * has no result set (INSERT, UPDATE, DELETE, DDL: ODBC's "executed state
 * but no result set"), HY010 when nothing was executed. */
static SQLRETURN no_cursor(odbc_stmt *s)
{
    if (s->state == STMT_PREPARED && s->is_dml && s->dml_rows >= 0)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state (the "
                             "statement has no result set)");
    return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                         "(no result set)");
}

static SQLRETURN fetch_rowset(odbc_stmt *s)
{
    if (s->state != STMT_CURSOR)
        return no_cursor(s);
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
    s->pos_rows = -1;
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
        s->sc_td = td;
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

bool odbc_static_deleted(const odbc_stmt *s, uint64_t k)
{
    size_t lo = 0, hi = s->sc_ndel;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->sc_del[mid] == k)
            return true;
        if (s->sc_del[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Mark rowset row r a hole (1) or a row (0). 0, or -1 out of memory. */
static int set_hole(odbc_stmt *s, SQLULEN r, uint8_t hole)
{
    if ((size_t)r >= s->rs_hole_cap) {
        if (!hole)
            return 0;
        size_t cap = (size_t)r + 16;
        uint8_t *h = realloc(s->rs_hole, cap);
        if (!h)
            return -1;
        memset(h + s->rs_hole_cap, 0, cap - s->rs_hole_cap);
        s->rs_hole = h;
        s->rs_hole_cap = cap;
    }
    s->rs_hole[r] = hole;
    return 0;
}

bool odbc_static_hole(const odbc_stmt *s, SQLULEN r)
{
    return (size_t)r < s->rs_hole_cap && s->rs_hole[r];
}

/* Row k (0-based) of a static cursor into rowset row r (rs_vals): read
 * back from the store, or by its locator from the table. A table row
 * this cursor deleted, or that is no longer there, is a hole: NULLs,
 * rs_hole set (SQL_ROW_DELETED). */
static SQLRETURN keep_static_row(odbc_stmt *s, uint64_t k, SQLULEN r)
{
    int e;
    if (set_hole(s, r, 0) != 0)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    jet_rc rc = odbc_rowstore_get(s->sc_rows, k, s->sc_vals, &e);
    if (rc != JET_OK)
        return store_diag(s, rc, e);
    if (!s->sc_tcols) {
        if (keep_row(s, r, s->sc_vals) != 0)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        return SQL_SUCCESS;
    }
    uint64_t loc = (uint64_t)s->sc_vals[0].u.i;
    rc = odbc_static_deleted(s, k) ? JET_ENOTFOUND
       : jet_scan_fetch_row(s->sc_scan, (uint32_t)(loc >> 16),
                            (uint16_t)(loc & 0xffff));
    if (rc == JET_ENOTFOUND) {
        /* deleted since the cursor read it: a hole */
        if (keep_begin(s, r) != 0 || set_hole(s, r, 1) != 0)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        for (uint16_t i = 0; i < s->ncols; i++) {
            jet_value v;
            memset(&v, 0, sizeof v);
            v.is_null = true;
            if (keep_value(s, r, i, v) != 0)
                return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                     "error");
        }
        return SQL_SUCCESS;
    }
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

int64_t odbc_static_upto(odbc_stmt *s, uint64_t k)
{
    return static_upto(s, k);
}

SQLRETURN odbc_static_rekeep(odbc_stmt *s)
{
    SQLULEN n = s->rs_fetched;
    SQLULEN pos = s->pos_row;
    if (!s->sc_rows || s->sc_pos == 0 || s->sc_pos == ODBC_POS_AFTER)
        return SQL_SUCCESS;
    for (SQLULEN r = 0; r < n; r++) {
        SQLRETURN kr = keep_static_row(s, s->sc_pos - 1 + r, r);
        if (kr != SQL_SUCCESS) {
            s->rs_rows = 0;
            return kr;
        }
    }
    finish_rowset(s, n);
    s->pos_row = pos;
    s->gd_col = 0;
    return SQL_SUCCESS;
}

int odbc_static_bind_bookmark(odbc_stmt *s, SQLULEN r, uint64_t bm)
{
    return s->bm_bind.c_type ? bind_bookmark(s, r, bm) : 0;
}

SQLSMALLINT odbc_stmt_col_ctype(const odbc_stmt *s, uint16_t i)
{
    return i < s->nbinds && s->binds[i].c_type
               ? resolve_ctype(s, i, s->binds[i].c_type) : 0;
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
        return no_cursor(s);
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
    s->pos_rows = -1;
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
            if (odbc_static_hole(s, r)) {
                if (status)
                    status[r] = SQL_ROW_DELETED;
                continue;
            }
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
    /* the connection may have written since the fetch: the row as it is
     * now (a row deleted meanwhile fails below, through the engine) */
    if (s->cur && !sql_cursor_refresh(s->cur))
        fp = NULL;
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
