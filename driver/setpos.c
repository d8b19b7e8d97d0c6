/*
 * setpos.c - positioned writes of a static cursor (issue 26): SQLSetPos
 * SQL_UPDATE, SQL_DELETE and SQL_ADD, SQLBulkOperations SQL_ADD,
 * SQL_UPDATE_BY_BOOKMARK and SQL_DELETE_BY_BOOKMARK, as MS Query,
 * LibreOffice Base and table editors use them.
 *
 * Only a cursor whose rows are rows of one table (stmt->sc_tcols: a
 * single-table SELECT of plain columns, which the static cursor keeps as
 * row locators) can write; a join, an aggregate or a computed column is
 * refused as Access refuses it ("Operation must use an updateable
 * query", HY000). SQL_ATTR_CONCURRENCY must be SQL_CONCUR_VALUES (LOCK
 * and ROWVER are answered as VALUES with 01S02: Jet has no row locks a
 * cursor could hold, nor row versions), else HY092.
 *
 * There is no second writer: each row is written by an internal
 * statement of the connection (pos_helper) that runs
 *   UPDATE [t] SET [c] = ?, ...      (only_row: the cursor's row)
 *   DELETE FROM [t]                  (only_row likewise)
 *   INSERT INTO [t] ([c], ...) VALUES (?, ...)
 * through the same executor as the application's statements
 * (driver/sql/dml.c -> core/write.h): the same conversions, rules,
 * index upkeep, statement savepoint, autocommit or the open
 * transaction, read-only refusals. Its parameters are the bound column
 * buffers of the rowset row (SQL_COLUMN_IGNORE and unbound columns are
 * left out, SQL_DATA_AT_EXEC ones are sent with SQLParamData and
 * SQLPutData), converted exactly as bound parameters are.
 *
 * Optimistic concurrency: before an update or delete the row is read
 * again; if it is gone or any of its values differs from what the
 * cursor fetched, the row is not written: 01001 "Cursor operation
 * conflict", row status SQL_ROW_ERROR. After a write the rowset is read
 * again (SQLGetData, the next check); deleted rows stay in the cursor as
 * holes (SQL_ROW_DELETED), added rows are appended to it (their
 * bookmarks written to a bound column 0).
 *
 * Spec: ODBC 3.x SQLSetPos, SQLBulkOperations, "Updating Data with
 * SQLSetPos", "Optimistic Concurrency".
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scroll.h"
#include "sql/engine.h"
#include "stmt_int.h"

#define UPDATEABLE_TEXT "Operation must use an updateable query."

/* ------------------------------------------------------------ state */

void odbc_stmt_pos_close(odbc_stmt *s)
{
    s->sc_ndel = 0;
    if (s->pos_dae && s->pos_helper)
        odbc_stmt_dae_end(s->pos_helper);
    s->pos_dae = false;
}

void odbc_stmt_pos_free(odbc_stmt *s)
{
    if (s->pos_helper)
        odbc_stmt_free(s->pos_helper);
    s->pos_helper = NULL;
    free(s->pos_sql);
    s->pos_sql = NULL;
    free(s->sc_del);
    s->sc_del = NULL;
    s->sc_ndel = s->sc_delcap = 0;
    free(s->rs_hole);
    s->rs_hole = NULL;
    s->rs_hole_cap = 0;
}

/* Remember that store row k was deleted (sorted insert). */
static int mark_deleted(odbc_stmt *s, uint64_t k)
{
    if (odbc_static_deleted(s, k))
        return 0;
    if (s->sc_ndel == s->sc_delcap) {
        size_t cap = s->sc_delcap ? 2 * s->sc_delcap : 16;
        uint64_t *d = realloc(s->sc_del, cap * sizeof *d);
        if (!d)
            return -1;
        s->sc_del = d;
        s->sc_delcap = cap;
    }
    size_t i = s->sc_ndel;
    while (i > 0 && s->sc_del[i - 1] > k) {
        s->sc_del[i] = s->sc_del[i - 1];
        i--;
    }
    s->sc_del[i] = k;
    s->sc_ndel++;
    return 0;
}

/* Copy the internal statement's diagnostics to s, numbered with row. */
static void copy_diags(odbc_stmt *s, odbc_stmt *h, SQLLEN row)
{
    odbc_diag *from = &h->hdr.diag, *to = DIAG(s);
    for (int i = 0; i < from->count && to->count < ODBC_DIAG_MAX; i++) {
        to->rec[to->count] = from->rec[i];
        to->rec[to->count].row_number = row;
        to->count++;
    }
}

/* The internal statement, allocated at the first positioned write. It
 * is not on the connection's list of statements: s owns it. */
static SQLRETURN helper(odbc_stmt *s, odbc_stmt **out)
{
    if (!s->pos_helper) {
        odbc_stmt *h = NULL;
        SQLRETURN r = odbc_stmt_alloc(&h, s->dbc);
        if (r != SQL_SUCCESS)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                 "error");
        s->dbc->stmts = h->next;        /* odbc_stmt_alloc put it first */
        h->next = NULL;
        s->pos_helper = h;
    }
    *out = s->pos_helper;
    odbc_diag_clear(&(*out)->hdr.diag);
    (*out)->dml_rows = -1;      /* no write yet */
    return SQL_SUCCESS;
}

/* --------------------------------------------------------- the rows */

/* Whether result column i can be written: a stored column of the table
 * that Access lets a statement set (not an AutoNumber, not calculated),
 * and not a repeat of an earlier result column. */
static bool col_writable(const odbc_stmt *s, uint16_t i, bool adding)
{
    const jet_column *col = &s->sc_td->cols[s->sc_tcols[i]];
    for (uint16_t j = 0; j < i; j++)
        if (s->sc_tcols[j] == s->sc_tcols[i])
            return false;
    if (col->flags & JET_COL_CALCULATED)
        return false;
    /* an INSERT may give an AutoNumber (Access keeps it); an UPDATE never
     * changes one, and an editor sends it back with the row */
    if (!adding && (((col->flags & JET_COL_AUTONUMBER) &&
                     col->type == JET_T_LONG) ||
                    ((col->flags & JET_COL_AUTO_GUID) &&
                     col->type == JET_T_GUID)))
        return false;
    return true;
}

/* Bound column i's buffers for rowset row r, as bind_row finds them. */
static void col_buffers(const odbc_stmt *s, uint16_t i, SQLULEN r,
                        SQLSMALLINT ct, char **ptr, SQLLEN **ind)
{
    const odbc_binding *b = &s->binds[i];
    char *p = b->ptr;
    char *n = (char *)b->ind;
    SQLLEN off = s->bind_offset_ptr ? *s->bind_offset_ptr : 0;
    if (s->row_bind_type == SQL_BIND_BY_COLUMN) {
        if (p)
            p += r * odbc_ctype_elem_size(ct, b->buflen);
        if (n)
            n += r * sizeof(SQLLEN);
    } else {
        if (p)
            p += r * s->row_bind_type;
        if (n)
            n += r * s->row_bind_type;
    }
    *ptr = p ? p + off : NULL;
    *ind = n ? (SQLLEN *)(void *)(n + off) : NULL;
}

/* Append s2 to the growing text t (cap bytes). -1 when it does not fit. */
static int put(char *t, size_t cap, size_t *len, const char *s2)
{
    size_t n = strlen(s2);
    if (*len + n + 1 > cap)
        return -1;
    memcpy(t + *len, s2, n + 1);
    *len += n;
    return 0;
}

/* Build the internal statement for op on rowset row r: its text into
 * sql and its parameters bound to the row's column buffers. *ncols gets
 * the columns it writes. */
static SQLRETURN build(odbc_stmt *s, odbc_stmt *h, SQLUSMALLINT op,
                       SQLULEN r, char *sql, size_t cap, int *ncols)
{
    const jet_tdef *td = s->sc_td;
    size_t len = 0;
    char part[512];     /* a name: 64 characters, up to 3 bytes each */
    int n = 0;
    *ncols = 0;
    odbc_stmt_free_stmt(h, SQL_RESET_PARAMS);
    if (op == SQL_DELETE) {
        snprintf(part, sizeof part, "DELETE FROM [%s]", td->name);
        put(sql, cap, &len, part);
        return SQL_SUCCESS;
    }
    snprintf(part, sizeof part, op == SQL_UPDATE ? "UPDATE [%s] SET "
                                                 : "INSERT INTO [%s] (",
             td->name);
    if (put(sql, cap, &len, part) != 0)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    bool adding = op == SQL_ADD;
    for (uint16_t i = 0; i < s->ncols && i < s->nbinds; i++) {
        SQLSMALLINT ct = odbc_stmt_col_ctype(s, i);
        if (ct == 0 || !col_writable(s, i, adding))
            continue;
        char *ptr;
        SQLLEN *ind;
        col_buffers(s, i, r, ct, &ptr, &ind);
        SQLLEN iv = ind ? odbc_len_at(ind) : 0;
        if (ind && iv == SQL_COLUMN_IGNORE)
            continue;
        if (!ptr && (!ind || iv != SQL_NULL_DATA))
            continue;           /* an indicator-only binding: no value */
        const jet_column *col = &td->cols[s->sc_tcols[i]];
        snprintf(part, sizeof part, op == SQL_UPDATE ? "%s[%s] = ?"
                                                     : "%s[%s]",
                 n ? ", " : "", col->name);
        if (put(sql, cap, &len, part) != 0)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                 "error");
        n++;
        const odbc_type_info *ti = &s->cols[i].ti;
        odbc_param *p = odbc_stmt_param_at(h, (SQLSMALLINT)n);
        if (!p)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                 "error");
        memset(p, 0, sizeof *p);
        p->c_type = ct;
        p->sql_type = ti->sql_type;
        p->column_size = ti->column_size;
        p->decimal_digits = ti->decimal_digits > 0 ? ti->decimal_digits
                                                   : (SQLSMALLINT)0;
        p->ptr = ptr;
        p->buflen = s->binds[i].buflen;
        p->ind = ind;
        p->len_ptr = ind;
        p->io_type = SQL_PARAM_INPUT;
        p->num_precision = s->binds[i].precision;
        p->num_scale = s->binds[i].scale;
        p->num_scale_set = s->binds[i].precision > 0;
    }
    if (n == 0)
        return odbc_diag_add(DIAG(s), "21S02", "Degree of derived table "
                             "does not match column list: no bound column "
                             "of row %lu to write (each is unbound, an "
                             "AutoNumber or calculated column, or "
                             "SQL_COLUMN_IGNORE)", (unsigned long)r + 1);
    if (op == SQL_ADD) {
        if (put(sql, cap, &len, ") VALUES (") != 0)
            return odbc_diag_add(DIAG(s), "HY001", "Memory allocation "
                                 "error");
        for (int k = 0; k < n; k++)
            if (put(sql, cap, &len, k ? ", ?" : "?") != 0 ||
                (k == n - 1 && put(sql, cap, &len, ")") != 0))
                return odbc_diag_add(DIAG(s), "HY001", "Memory "
                                     "allocation error");
    }
    *ncols = n;
    return SQL_SUCCESS;
}

/* Whether two values of the same column read at two times are equal. */
static bool same_value(const jet_value *a, const jet_value *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null;
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case JET_T_BOOL: return a->u.b == b->u.b;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        return a->u.i == b->u.i;
    case JET_T_MONEY: return a->u.money == b->u.money;
    case JET_T_FLOAT: return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
    case JET_T_DOUBLE: case JET_T_DATETIME:
        return memcmp(&a->u.d, &b->u.d, sizeof a->u.d) == 0;
    case JET_T_GUID: return memcmp(a->u.guid, b->u.guid, 16) == 0;
    case JET_T_NUMERIC:
        return a->u.num.scale == b->u.num.scale &&
               a->u.num.negative == b->u.num.negative &&
               memcmp(a->u.num.mag, b->u.num.mag, sizeof a->u.num.mag) == 0;
    default:
        return a->enc == b->enc && a->len == b->len &&
               (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
    }
}

/* Where store row k is (its locator), and whether it is still the row
 * the cursor fetched (when the current rowset holds it: its values
 * compared) and read: 0 yes, 1 no (gone or changed: 01001 raised for
 * the application's row r), -1 error raised. */
static int check_row(odbc_stmt *s, uint64_t k, SQLULEN r, uint32_t *pgno,
                     uint16_t *slot)
{
    int e;
    jet_rc rc = odbc_rowstore_get(s->sc_rows, k, s->sc_vals, &e);
    if (rc != JET_OK) {
        odbc_diag_add(DIAG(s), "HY000", "Static cursor: its row store "
                      "failed");
        return -1;
    }
    uint64_t loc = (uint64_t)s->sc_vals[0].u.i;
    *pgno = (uint32_t)(loc >> 16);
    *slot = (uint16_t)(loc & 0xffff);
    /* the rowset row that holds store row k as fetched, if any */
    bool in_rowset = s->sc_pos > 0 && s->sc_pos != ODBC_POS_AFTER &&
                     k >= s->sc_pos - 1 && k - (s->sc_pos - 1) < s->rs_rows;
    SQLULEN fr = in_rowset ? (SQLULEN)(k - (s->sc_pos - 1)) : 0;
    if (odbc_static_deleted(s, k) || (in_rowset && odbc_static_hole(s, fr))) {
        odbc_diag_add_rc(DIAG(s), (SQLLEN)r + 1, SQL_NO_COLUMN_NUMBER,
                         "01001", "Cursor operation conflict: row %lu was "
                         "deleted", (unsigned long)r + 1);
        return 1;
    }
    rc = jet_scan_fetch_row(s->sc_scan, *pgno, *slot);
    if (rc == JET_ENOTFOUND) {
        odbc_diag_add_rc(DIAG(s), (SQLLEN)r + 1, SQL_NO_COLUMN_NUMBER,
                         "01001", "Cursor operation conflict: row %lu is "
                         "no longer in table '%s'", (unsigned long)r + 1,
                         s->sc_td->name);
        return 1;
    }
    for (uint16_t i = 0; i < s->ncols && rc == JET_OK; i++) {
        jet_value v;
        rc = jet_scan_value(s->sc_scan, s->sc_tcols[i], &v);
        if (rc == JET_OK && in_rowset &&
            !same_value(&v, &s->rs_vals[fr * s->ncols + i])) {
            odbc_diag_add_rc(DIAG(s), (SQLLEN)r + 1, (SQLINTEGER)i + 1,
                             "01001", "Cursor operation conflict: row %lu "
                             "changed since it was fetched (column %u)",
                             (unsigned long)r + 1, (unsigned)i + 1);
            return 1;
        }
    }
    if (rc != JET_OK) {
        odbc_diag_jet(DIAG(s), rc, jet_scan_error(s->sc_scan),
                      DIAG_CTX_OTHER);
        return -1;
    }
    return 0;
}

/* After the internal statement wrote rowset row r for op: the cursor's
 * side (deleted rows, added rows and their bookmarks). 0, 1 (info) or
 * 2 (error). */
static int after_write(odbc_stmt *s, odbc_stmt *h, SQLUSMALLINT op,
                       SQLULEN r, uint64_t k)
{
    if (op == SQL_DELETE)
        return mark_deleted(s, k) == 0 ? 0 : 2;
    if (op != SQL_ADD)
        return 0;
    uint32_t pgno;
    uint16_t slot;
    if (!h->prepared || !sql_statement_last_row(h->prepared, &pgno, &slot))
        return 0;
    /* the new row joins the cursor at its end (the query was read to
     * its end before the write) */
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_BIGINT;
    v.u.i = (int64_t)((uint64_t)pgno << 16 | slot);
    int e;
    if (odbc_rowstore_append(s->sc_rows, &v, &e) != JET_OK) {
        odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
        return 2;
    }
    return odbc_static_bind_bookmark(s, r, odbc_rowstore_rows(s->sc_rows));
}

/* Run the internal statement for op (SQL_UPDATE, SQL_DELETE, SQL_ADD)
 * with the buffers of rowset row r on store row k (not SQL_ADD):
 * SQL_SUCCESS, SQL_SUCCESS_WITH_INFO (a conflict: 01001), SQL_ERROR, or
 * SQL_NEED_DATA (data at execution: the caller's SQLParamData goes on). */
static SQLRETURN write_row(odbc_stmt *s, SQLUSMALLINT op, SQLULEN r,
                           uint64_t k)
{
    odbc_stmt *h = NULL;
    SQLRETURN ret = helper(s, &h);
    if (ret != SQL_SUCCESS)
        return ret;
    h->only_row = false;
    if (op != SQL_ADD) {
        uint32_t pgno;
        uint16_t slot;
        int c = check_row(s, k, r, &pgno, &slot);
        if (c < 0)
            return SQL_ERROR;
        if (c > 0)
            return SQL_SUCCESS_WITH_INFO;
        h->only_row = true;
        h->only_pgno = pgno;
        h->only_slot = slot;
    }
    /* 255 columns of 64-character names fit */
    enum { POS_SQL_CAP = 256 * 512 };
    char *sql = malloc(POS_SQL_CAP);
    if (!sql)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    int n;
    ret = build(s, h, op, r, sql, POS_SQL_CAP, &n);
    if (ret != SQL_SUCCESS) {
        free(sql);
        return ret;
    }
    if (!s->pos_sql || strcmp(s->pos_sql, sql) != 0 || !h->prepared) {
        free(s->pos_sql);
        s->pos_sql = NULL;
        ret = odbc_stmt_prepare(h, sql, strlen(sql));
        if (!SQL_SUCCEEDED(ret)) {
            free(sql);
            return SQL_ERROR;   /* finish_row copies h's diagnostics */
        }
        char *fit = realloc(sql, strlen(sql) + 1);
        s->pos_sql = fit ? fit : sql;
        sql = NULL;
    }
    free(sql);
    ret = odbc_stmt_execute(h);
    if (ret == SQL_NEED_DATA) {
        s->pos_dae = true;
        s->pos_dae_op = op;
        s->pos_dae_row = r;
        s->pos_dae_k = k;
    }
    return ret;
}

/* The end of write_row (or of its data at execution): diagnostics, the
 * row's status, the cursor's side. Returns the row's outcome. */
static SQLRETURN finish_row(odbc_stmt *s, SQLUSMALLINT op, SQLULEN r,
                            uint64_t k, SQLRETURN ret, bool *wrote)
{
    odbc_stmt *h = s->pos_helper;
    SQLUSMALLINT st = SQL_ROW_ERROR;
    if (h && (SQL_SUCCEEDED(ret) || ret == SQL_ERROR))
        copy_diags(s, h, (SQLLEN)r + 1);
    if (SQL_SUCCEEDED(ret) && h && h->only_row && h->dml_rows == 0 &&
        ret == SQL_SUCCESS) {
        odbc_diag_add_rc(DIAG(s), (SQLLEN)r + 1, SQL_NO_COLUMN_NUMBER,
                         "01001", "Cursor operation conflict: no row was "
                         "%s", op == SQL_DELETE ? "deleted" : "updated");
        ret = SQL_SUCCESS_WITH_INFO;
    } else if (ret == SQL_SUCCESS || (ret == SQL_SUCCESS_WITH_INFO && h &&
                                      h->dml_rows > 0)) {
        int w = after_write(s, h, op, r, k);
        st = op == SQL_DELETE ? SQL_ROW_DELETED
           : op == SQL_ADD ? SQL_ROW_ADDED : SQL_ROW_UPDATED;
        if (w == 2)
            ret = SQL_ERROR;
        else if (w == 1)
            ret = SQL_SUCCESS_WITH_INFO;
    }
    if (s->row_status_ptr)
        s->row_status_ptr[r] = st;
    *wrote = st != SQL_ROW_ERROR;
    if (h)
        h->only_row = false;
    return ret;
}

/* Read the rowset again after writes, keeping the position. */
static SQLRETURN refresh_rowset(odbc_stmt *s, SQLULEN pos)
{
    if (s->rs_fetched == 0)
        return SQL_SUCCESS;
    SQLRETURN r = odbc_static_rekeep(s);
    s->pos_row = pos < s->rs_fetched ? pos : 0;
    return r;
}

/* What may write: a static cursor over one table's rows with optimistic
 * concurrency. SQL_SUCCESS or the refusal. */
static SQLRETURN may_write(odbc_stmt *s)
{
    if (s->concurrency == SQL_CONCUR_READ_ONLY)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier: the cursor's concurrency is "
                             "SQL_CONCUR_READ_ONLY (set "
                             "SQL_ATTR_CONCURRENCY to SQL_CONCUR_VALUES "
                             "before executing)");
    if (!s->sc_rows)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: positioned writes need a static "
                             "cursor (SQL_ATTR_CURSOR_TYPE "
                             "SQL_CURSOR_STATIC)");
    if (!s->sc_tcols || !s->sc_td)
        return odbc_diag_add(DIAG(s), "HY000", UPDATEABLE_TEXT " (only a "
                             "SELECT of the columns of one table can be "
                             "written through its cursor)");
    if (s->pos_dae) {
        /* a write left waiting for its data (SQLCancel): forgotten */
        if (s->pos_helper)
            odbc_stmt_dae_end(s->pos_helper);
        s->pos_dae = false;
    }
    /* read the query to its end first: a write never meets the cursor's
     * own scan, and added rows go after every row of the query */
    bool had = s->has_row;
    if (odbc_static_upto(s, UINT64_MAX) < 0)
        return SQL_ERROR;
    s->has_row = had;
    return SQL_SUCCESS;
}

/* The bookmark in bound column 0 of rowset row r (as bind_bookmark
 * writes it): true and *bm, or false when column 0 is not bound. */
static bool row_bookmark(const odbc_stmt *s, SQLULEN r, uint64_t *bm)
{
    const odbc_binding *b = &s->bm_bind;
    if (!b->c_type || !b->ptr)
        return false;
    SQLSMALLINT ct = b->c_type == SQL_C_DEFAULT ? SQL_C_BINARY : b->c_type;
    const char *p = b->ptr;
    if (s->row_bind_type == SQL_BIND_BY_COLUMN)
        p += r * odbc_ctype_elem_size(ct, b->buflen);
    else
        p += r * s->row_bind_type;
    if (s->bind_offset_ptr)
        p += *s->bind_offset_ptr;
    switch (ct) {
    case SQL_C_SBIGINT: case SQL_C_UBIGINT: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        *bm = v;
        return true;
    }
    case SQL_C_SSHORT: case SQL_C_USHORT: case SQL_C_SHORT: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        *bm = v;
        return true;
    }
    default: {          /* SQL_C_VARBOOKMARK (binary) and 4-byte integers */
        uint32_t v;
        memcpy(&v, p, sizeof v);
        *bm = v;
        return true;
    }
    }
}

/* The rows [first, last) of op, each on its own (a failed row is
 * SQL_ROW_ERROR, the others are written). by_bm: SQLBulkOperations'
 * SQL_UPDATE_BY_BOOKMARK / SQL_DELETE_BY_BOOKMARK (op SQL_UPDATE or
 * SQL_DELETE): the row to write is the one whose bookmark is in the
 * rowset row's column 0, not the rowset row itself. */
static SQLRETURN write_rows(odbc_stmt *s, SQLUSMALLINT op, SQLULEN first,
                            SQLULEN last, bool use_ops, bool by_bm)
{
    SQLULEN done = 0, failed = 0, info = 0, wrote = 0;
    SQLULEN pos = s->pos_row;
    for (SQLULEN r = first; r < last; r++) {
        if (use_ops && s->row_op_ptr && s->row_op_ptr[r] == SQL_ROW_IGNORE)
            continue;
        uint64_t k = op == SQL_ADD ? 0 : s->sc_pos - 1 + r;
        if (by_bm) {
            uint64_t bm = 0;
            if (!row_bookmark(s, r, &bm))
                return odbc_diag_add(DIAG(s), "HY000", "SQLBulkOperations "
                                     "by bookmark: bind column 0 (the "
                                     "bookmarks) first");
            if (bm == 0 || bm > odbc_rowstore_rows(s->sc_rows)) {
                odbc_diag_add_rc(DIAG(s), (SQLLEN)r + 1,
                                 SQL_NO_COLUMN_NUMBER, "HY111", "Invalid "
                                 "bookmark value (%llu)",
                                 (unsigned long long)bm);
                if (s->row_status_ptr)
                    s->row_status_ptr[r] = SQL_ROW_ERROR;
                done++;
                failed++;
                continue;
            }
            k = bm - 1;
        }
        SQLRETURN ret = write_row(s, op, r, k);
        if (ret == SQL_NEED_DATA) {
            if (last - first > 1) {
                odbc_stmt_dae_end(s->pos_helper);
                s->pos_dae = false;
                ret = odbc_diag_add(DIAG(s), "HYC00", "Optional feature "
                                    "not implemented: data at execution in "
                                    "a positioned write of more than one "
                                    "row");
            } else {
                return SQL_NEED_DATA;
            }
        }
        bool w = false;
        ret = finish_row(s, op, r, k, ret, &w);
        done++;
        if (ret == SQL_ERROR)
            failed++;
        else if (ret == SQL_SUCCESS_WITH_INFO)
            info++;
        if (w)
            wrote++;
    }
    /* the rowset as written (a conflict's row keeps what was fetched:
     * the application refreshes it) */
    if (wrote > 0 && s->rs_fetched > 0) {
        SQLRETURN rr = refresh_rowset(s, op == SQL_ADD || by_bm ? pos
                                         : last - first == 1 ? first : 0);
        if (rr != SQL_SUCCESS)
            return rr;
    }
    s->pos_rows = (SQLLEN)wrote;
    if (done > 0 && failed == done)
        return SQL_ERROR;
    return failed || info ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN odbc_stmt_pos_write(odbc_stmt *s, SQLSETPOSIROW row,
                              SQLUSMALLINT op)
{
    SQLRETURN r = may_write(s);
    if (r != SQL_SUCCESS)
        return r;
    SQLULEN n = op == SQL_ADD ? (s->row_array_size ? s->row_array_size : 1)
                              : s->rs_fetched;
    if (row == 0)
        return write_rows(s, op, 0, n, true, false);
    return write_rows(s, op, row - 1, row, false, false);
}

SQLRETURN odbc_stmt_bulk_operations(odbc_stmt *s, SQLSMALLINT op)
{
    if (s->state != STMT_CURSOR)
        return odbc_diag_add(DIAG(s), "24000", "Invalid cursor state (no "
                             "result set)");
    if (op == SQL_FETCH_BY_BOOKMARK)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: SQL_FETCH_BY_BOOKMARK (use "
                             "SQLFetchScroll with SQL_FETCH_BOOKMARK)");
    if (op != SQL_ADD && op != SQL_UPDATE_BY_BOOKMARK &&
        op != SQL_DELETE_BY_BOOKMARK)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier (operation %d)", (int)op);
    if (op != SQL_ADD && s->use_bookmarks == SQL_UB_OFF)
        return odbc_diag_add(DIAG(s), "HY092", "Invalid attribute/option "
                             "identifier: bookmarks are off "
                             "(SQL_ATTR_USE_BOOKMARKS)");
    SQLRETURN r = may_write(s);
    if (r != SQL_SUCCESS)
        return r;
    SQLULEN n = s->row_array_size ? s->row_array_size : 1;
    return write_rows(s, op == SQL_ADD ? SQL_ADD
                         : op == SQL_UPDATE_BY_BOOKMARK ? SQL_UPDATE
                                                        : SQL_DELETE,
                      0, n, true, op != SQL_ADD);
}

/* -------------------------------------------- data at execution */

SQLRETURN odbc_stmt_pos_param_data(odbc_stmt *s, SQLPOINTER *token)
{
    odbc_stmt *h = s->pos_helper;
    if (!h) {
        s->pos_dae = false;
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error");
    }
    odbc_diag_clear(&h->hdr.diag);
    SQLRETURN ret = odbc_stmt_param_data(h, token);
    if (ret == SQL_NEED_DATA)
        return ret;
    s->pos_dae = false;
    SQLUSMALLINT op = s->pos_dae_op;
    SQLULEN r = s->pos_dae_row;
    bool w = false;
    ret = finish_row(s, op, r, s->pos_dae_k, ret, &w);
    s->pos_rows = w ? 1 : 0;
    if (w && s->rs_fetched > 0) {
        SQLRETURN rr = refresh_rowset(s, r);
        if (rr != SQL_SUCCESS)
            return rr;
    }
    return ret;
}

SQLRETURN odbc_stmt_pos_put_data(odbc_stmt *s, SQLPOINTER data, SQLLEN len)
{
    odbc_stmt *h = s->pos_helper;
    if (!h)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error");
    odbc_diag_clear(&h->hdr.diag);
    SQLRETURN ret = odbc_stmt_put_data(h, data, len);
    if (!SQL_SUCCEEDED(ret)) {
        copy_diags(s, h, (SQLLEN)s->pos_dae_row + 1);
        if (!h->dae_active)
            s->pos_dae = false;
    }
    return ret;
}
