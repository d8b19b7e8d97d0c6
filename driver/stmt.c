/*
 * stmt.c - statement handles: prepare/execute a SELECT over one table,
 * describe its columns, fetch rowsets into bound buffers, stream values
 * with SQLGetData, statement attributes.
 *
 * State machine: STMT_ALLOCATED -(prepare)-> STMT_PREPARED -(execute)->
 * STMT_CURSOR -(close)-> STMT_PREPARED. Catalog functions go straight to
 * STMT_CURSOR with a materialized result (odbc_stmt_set_matrows); closing
 * such a cursor drops it and returns to STMT_ALLOCATED.
 * Fetch decodes only projected columns (jet_scan projection mask) straight
 * into the bound buffers; the only heap memory is the statement's
 * grow-only scratch buffer.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "sql/sql.h"

#define DIAG(s) (&(s)->hdr.diag)

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

static void close_cursor(odbc_stmt *s)
{
    jet_scan_close(s->scan);
    s->scan = NULL;
    s->has_row = false;
    s->at_end = false;
    s->rows_returned = 0;
    s->gd_col = 0;
    s->cancel = 0;
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
    sql_select_free(s->sel);
    s->sel = NULL;
    free_cols(s->cols, s->ncols);
    s->cols = NULL;
    s->ncols = 0;
    free(s->proj);
    s->proj = NULL;
    s->tdef = NULL;
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
    free(s->binds);
    odbc_buf_free(&s->scratch);
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
        free(s->binds);
        s->binds = NULL;
        s->nbinds = 0;
        return SQL_SUCCESS;
    case SQL_RESET_PARAMS:
        return SQL_SUCCESS;
    case SQL_DROP:
        return odbc_stmt_free(s);
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Invalid option %u",
                             (unsigned)option);
    }
}

/* ----------------------------------------------------------- prepare */

static bool name_matches_table(const odbc_stmt *s, const char *q)
{
    const sql_select *sel = s->sel;
    if (!q)
        return true;
    if (sel->table_alias && odbc_strcasecmp(q, sel->table_alias) == 0)
        return true;
    return odbc_strcasecmp(q, sel->table) == 0 ||
           odbc_strcasecmp(q, s->tdef->name) == 0;
}

/* Is name a saved query (which jet_catalog_find does not return)? */
static bool is_saved_query(const jet_db *db, const char *name)
{
    size_t n = jet_catalog_count(db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (o && o->kind == JET_OBJ_QUERY && o->name &&
            odbc_strcasecmp(o->name, name) == 0)
            return true;
    }
    return false;
}

static int fill_col(odbc_stmt *s, odbc_colmeta *c, uint16_t src,
                    const char *alias)
{
    const jet_column *jc = &s->tdef->cols[src];
    c->src = src;
    odbc_type_for_column(&c->ti, s->dbc->db, jc);
    c->nullable = (jc->flags & JET_COL_NULLABLE) ? SQL_NULLABLE : SQL_NO_NULLS;
    c->name = odbc_strdup(alias ? alias : jc->name);
    c->base_name = odbc_strdup(jc->name);
    c->table_name = odbc_strdup(s->tdef->name);
    return (c->name && c->base_name && c->table_name) ? 0 : -1;
}

SQLRETURN odbc_stmt_prepare(odbc_stmt *s, const char *sql, size_t len)
{
    sql_error perr;
    jet_db *db = s->dbc->db;

    odbc_stmt_reset(s);
    if (!db)
        return odbc_diag_add(DIAG(s), "08003", "Connection not open");
    memset(&perr, 0, sizeof perr);
    if (sql_parse(&s->sel, sql, len, &perr) != 0) {
        s->sel = NULL;
        return odbc_diag_add(DIAG(s), perr.sqlstate[0] ? perr.sqlstate
                                                       : "42000",
                             "%s (at character %zu)", perr.msg,
                             perr.position);
    }
    const sql_select *sel = s->sel;
    if (sel->table_catalog && strcmp(sel->table_catalog, jet_db_path(db)) != 0) {
        odbc_diag_add(DIAG(s), "42S02", "Database '%s' is not the open file",
                      sel->table_catalog);
        goto fail;
    }
    const jet_object *obj = jet_catalog_find(db, sel->table);
    if (!obj) {
        if (is_saved_query(db, sel->table))
            odbc_diag_add(DIAG(s), "HYC00", "'%s' is a saved query; reading "
                          "saved queries is not supported yet", sel->table);
        else
            odbc_diag_add(DIAG(s), "42S02", "Table '%s' not found",
                          sel->table);
        goto fail;
    }
    jet_rc rc = jet_tdef_load(&s->tdef, db, obj);
    if (rc != JET_OK) {
        odbc_diag_jet(DIAG(s), rc, jet_db_error(db), DIAG_CTX_TABLE);
        goto fail;
    }
    if (sel->distinct) {
        odbc_diag_add(DIAG(s), "HYC00", "SELECT DISTINCT is not supported yet");
        goto fail;
    }
    const jet_tdef *td = s->tdef;
    size_t n = 0;
    for (size_t i = 0; i < sel->nitems; i++) {
        const sql_select_item *it = &sel->items[i];
        if (!name_matches_table(s, it->qualifier)) {
            odbc_diag_add(DIAG(s), it->kind == SQL_ITEM_STAR ? "42S02"
                                                            : "42S22",
                          "'%s' does not name the table in FROM (at "
                          "character %zu)", it->qualifier, it->position);
            goto fail;
        }
        if (it->kind == SQL_ITEM_STAR) {
            n += td->ncols;
        } else if (jet_tdef_find_column(td, it->column) < 0) {
            odbc_diag_add(DIAG(s), "42S22", "Column '%s' not found in "
                          "table '%s' (at character %zu)", it->column,
                          td->name, it->position);
            goto fail;
        } else {
            n++;
        }
    }
    if (n > 4096) {
        odbc_diag_add(DIAG(s), "54011", "Too many columns");
        goto fail;
    }
    s->cols = calloc(n ? n : 1, sizeof *s->cols);
    s->proj = calloc(td->ncols ? td->ncols : 1, sizeof *s->proj);
    if (!s->cols || !s->proj) {
        odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        goto fail;
    }
    for (size_t i = 0; i < sel->nitems; i++) {
        const sql_select_item *it = &sel->items[i];
        if (it->kind == SQL_ITEM_STAR) {
            for (uint16_t c = 0; c < td->ncols; c++) {
                s->proj[c] = true;
                if (fill_col(s, &s->cols[s->ncols++], c, NULL) != 0)
                    goto nomem;
            }
        } else {
            uint16_t c = (uint16_t)jet_tdef_find_column(td, it->column);
            s->proj[c] = true;
            if (fill_col(s, &s->cols[s->ncols++], c, it->alias) != 0)
                goto nomem;
        }
    }
    s->state = STMT_PREPARED;
    return SQL_SUCCESS;
nomem:
    odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
fail:
    odbc_stmt_reset(s);
    return SQL_ERROR;
}

SQLRETURN odbc_stmt_execute(odbc_stmt *s)
{
    if (s->state == STMT_ALLOCATED || !s->sel)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no prepared statement)");
    if (!s->dbc->db)
        return odbc_diag_add(DIAG(s), "08003", "Connection not open");
    close_cursor(s);
    if (s->sel->nparams > 0)
        return odbc_diag_add(DIAG(s), "07002", "COUNT field incorrect: "
                             "parameters are not supported yet");
    jet_rc rc = jet_scan_open(&s->scan, s->dbc->db, s->tdef, s->proj);
    if (rc != JET_OK) {
        s->scan = NULL;
        return odbc_diag_jet(DIAG(s), rc, jet_db_error(s->dbc->db),
                             DIAG_CTX_OTHER);
    }
    s->limit = UINT64_MAX;
    if (s->sel->top >= 0)
        s->limit = (uint64_t)s->sel->top;
    if (s->max_rows > 0 && s->max_rows < s->limit)
        s->limit = s->max_rows;
    s->state = STMT_CURSOR;
    s->has_row = false;
    s->at_end = false;
    s->rows_returned = 0;
    s->gd_col = 0;
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_exec_direct(odbc_stmt *s, const char *sql, size_t len)
{
    SQLRETURN ret = odbc_stmt_prepare(s, sql, len);
    if (!SQL_SUCCEEDED(ret))
        return ret;
    return odbc_stmt_execute(s);
}

SQLRETURN odbc_stmt_set_matrows(odbc_stmt *s, odbc_matrows *rows,
                                odbc_colmeta *cols, uint16_t ncols)
{
    odbc_stmt_reset(s);
    s->mat = rows;
    s->cols = cols;
    s->ncols = ncols;
    s->mat_pos = 0;
    s->limit = s->max_rows > 0 ? s->max_rows : UINT64_MAX;
    s->state = STMT_CURSOR;
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
        *out = (SQLSMALLINT)(s->sel ? s->sel->nparams : 0);
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_row_count(odbc_stmt *s, SQLLEN *out)
{
    if (out)
        *out = -1;      /* SELECT: unknown */
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
    if (col == 0)
        return odbc_diag_add(DIAG(s), "07009", "Bookmarks are not supported");
    if (buflen < 0)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
    if (col > s->nbinds) {
        if (!ptr && !ind)
            return SQL_SUCCESS;         /* unbinding an unbound column */
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
    return SQL_SUCCESS;
}

/* ------------------------------------------------------------- fetch */

/* Move to the next row: JET_OK, JET_DONE or an error. */
static jet_rc advance(odbc_stmt *s)
{
    if (s->at_end)
        return JET_DONE;
    if (s->cancel) {
        s->cancel = 0;
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
        rc = jet_scan_next(s->scan);
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
    if (s->mat) {
        *out = s->mat->cells[(s->mat_pos - 1) * s->mat->ncols + s->cols[i].src];
        return JET_OK;
    }
    return jet_scan_value(s->scan, s->cols[i].src, out);
}

static const jet_error *cur_error(odbc_stmt *s)
{
    return s->scan ? jet_scan_error(s->scan) : NULL;
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

/* Convert the bound columns of the current row into rowset row r. */
static int bind_row(odbc_stmt *s, SQLULEN r)
{
    odbc_conv cv = {s->dbc->db, &s->scratch, false, JET_OK, false, 0, 0};
    SQLLEN off = s->bind_offset_ptr ? *s->bind_offset_ptr : 0;
    int worst = 0;
    uint16_t n = s->nbinds < s->ncols ? s->nbinds : s->ncols;

    for (uint16_t i = 0; i < n; i++) {
        const odbc_binding *b = &s->binds[i];
        if (b->c_type == 0)
            continue;
        char *ptr = b->ptr;
        char *ind = (char *)b->ind;
        if (s->row_bind_type == SQL_BIND_BY_COLUMN) {
            if (ptr)
                ptr += r * (SQLULEN)b->buflen;
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
            odbc_diag_jet(DIAG(s), rc, cur_error(s), DIAG_CTX_OTHER);
            return 2;
        }
        SQLSMALLINT ct = resolve_ctype(s, i, b->c_type);
        odbc_conv_status st = odbc_convert(&cv, &v, ct, ptr, b->buflen,
                                           (SQLLEN *)ind);
        int w = conv_diag(s, &cv, st, (SQLLEN)r + 1, i + 1);
        if (w > worst)
            worst = w;
    }
    return worst;
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
    s->cancel = 0;      /* only a cancel that arrives during this fetch counts */

    for (SQLULEN r = 0; r < n; r++) {
        jet_rc rc = advance(s);
        if (rc == JET_DONE)
            break;
        if (rc != JET_OK) {
            err = rc;
            break;
        }
        int w = s->retrieve_data == SQL_RD_OFF ? 0 : bind_row(s, r);
        if (s->row_status_ptr)
            s->row_status_ptr[r] = w == 0 ? SQL_ROW_SUCCESS
                                 : w == 1 ? SQL_ROW_SUCCESS_WITH_INFO
                                          : SQL_ROW_ERROR;
        if (w > worst)
            worst = w;
        got++;
    }
    if (s->rows_fetched_ptr)
        *s->rows_fetched_ptr = got;
    if (s->row_status_ptr)
        for (SQLULEN r = got; r < n; r++)
            s->row_status_ptr[r] = SQL_ROW_NOROW;
    if (err != JET_OK) {
        const jet_error *e = cur_error(s);
        if (err == JET_EINTERRUPTED)
            return odbc_diag_add(DIAG(s), "HY008", "Operation canceled");
        return odbc_diag_jet(DIAG(s), err, e, DIAG_CTX_OTHER);
    }
    if (got == 0)
        return SQL_NO_DATA;
    if (worst == 2)
        return n == 1 ? SQL_ERROR : SQL_SUCCESS_WITH_INFO;
    return worst == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN odbc_stmt_fetch(odbc_stmt *s)
{
    return fetch_rowset(s);
}

SQLRETURN odbc_stmt_fetch_scroll(odbc_stmt *s, SQLSMALLINT orientation,
                                 SQLLEN offset)
{
    if (orientation != SQL_FETCH_NEXT)
        return odbc_diag_add(DIAG(s), "HY106", "Fetch type out of range: "
                             "the cursor is forward-only");
    return fetch_rowset(s);
}

SQLRETURN odbc_stmt_get_data(odbc_stmt *s, SQLUSMALLINT col,
                             SQLSMALLINT c_type, SQLPOINTER ptr,
                             SQLLEN buflen, SQLLEN *ind)
{
    if (s->state != STMT_CURSOR || !s->has_row)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state "
                             "(no current row)");
    if (col == 0 || col > s->ncols)
        return odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index %u",
                             (unsigned)col);
    if (buflen < 0)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid buffer length");
    uint16_t i = (uint16_t)(col - 1);
    SQLSMALLINT ct = resolve_ctype(s, i, c_type);
    odbc_conv cv = {s->dbc->db, &s->scratch, true, JET_OK, false, 0, 0};

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
    jet_rc rc = cur_value(s, i, &v);
    if (rc != JET_OK)
        return odbc_diag_jet(DIAG(s), rc, cur_error(s), DIAG_CTX_OTHER);
    odbc_conv_status st = odbc_convert(&cv, &v, ct, ptr, buflen, ind);
    if (cv.repr_in_scratch) {
        s->gd_repr = true;
        s->gd_len = cv.repr_len;
        s->gd_off = cv.delivered;
        s->gd_ctype = ct;
        if (s->gd_off >= s->gd_len)
            s->gd_done = true;
    } else {
        s->gd_done = true;
    }
    int w = conv_diag(s, &cv, st, SQL_NO_ROW_NUMBER, col);
    if (w == 2) {
        s->gd_done = false;
        s->gd_col = 0;
        return SQL_ERROR;
    }
    return w == 1 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN odbc_stmt_more_results(odbc_stmt *s)
{
    close_cursor(s);
    return SQL_NO_DATA;
}

SQLRETURN odbc_stmt_cancel(odbc_stmt *s)
{
    /* called without the connection lock: only raise the flag */
    s->cancel = 1;
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
        s->paramset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE:
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
    case SQL_ATTR_PARAM_OPERATION_PTR:
    case SQL_ATTR_PARAM_STATUS_PTR:
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
    case SQL_ATTR_ROW_OPERATION_PTR:
    case SQL_ATTR_ENABLE_AUTO_IPD:
    case SQL_ATTR_SIMULATE_CURSOR:
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_TYPE:
        if (v != SQL_CURSOR_FORWARD_ONLY) {
            s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "cursor is forward-only");
        }
        return SQL_SUCCESS;
    case SQL_ATTR_CONCURRENCY:
        if (v != SQL_CONCUR_READ_ONLY) {
            s->concurrency = SQL_CONCUR_READ_ONLY;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "cursor is read-only");
        }
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        if (v != SQL_NONSCROLLABLE)
            return odbc_diag_add(DIAG(s), "HYC00", "Scrollable cursors are "
                                 "not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SENSITIVITY:
        if (v == SQL_SENSITIVE)
            return odbc_diag_add(DIAG(s), "HYC00", "Sensitive cursors are "
                                 "not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_USE_BOOKMARKS:
        if (v != SQL_UB_OFF)
            return odbc_diag_add(DIAG(s), "HYC00", "Bookmarks are not "
                                 "supported");
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
    case SQL_ATTR_PARAM_BIND_TYPE: v = SQL_PARAM_BIND_BY_COLUMN; break;
    case SQL_ATTR_CURSOR_TYPE: v = s->cursor_type; break;
    case SQL_ATTR_CONCURRENCY: v = s->concurrency; break;
    case SQL_ATTR_CURSOR_SCROLLABLE: v = SQL_NONSCROLLABLE; break;
    case SQL_ATTR_CURSOR_SENSITIVITY: v = SQL_INSENSITIVE; break;
    case SQL_ATTR_USE_BOOKMARKS: v = s->use_bookmarks; break;
    case SQL_ATTR_ASYNC_ENABLE: v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_ENABLE_AUTO_IPD: v = SQL_FALSE; break;
    case SQL_ATTR_SIMULATE_CURSOR: v = SQL_SC_UNIQUE; break;
    case SQL_ATTR_ROW_NUMBER:
        if (s->state != STMT_CURSOR || !s->has_row)
            v = 0;
        else
            v = s->rows_returned;
        break;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
    case SQL_ATTR_PARAM_OPERATION_PTR:
    case SQL_ATTR_PARAM_STATUS_PTR:
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
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
    case SQL_GUID: return 36;
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
