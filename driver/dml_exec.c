/*
 * dml_exec.c - running INSERT, UPDATE and DELETE for a statement handle
 * (issue 25): the connection's transaction (autocommit: the engine
 * begins and commits around each statement; autocommit off: a write
 * transaction begun at the first write, ended by SQLEndTran), read-only
 * refusals, parameter arrays run atomically, SQLRowCount and
 * SELECT @@IDENTITY's value.
 *
 * Refusals (Access's texts where Access has one):
 *   ReadOnly=1 / SQL_MODE_READ_ONLY  HY000 "Cannot update. Database or
 *                                    object is read-only."
 *   an Access 97 (Jet3) file         HYC00 "Access 97 files are read-only"
 *   a file the process may not write HY000, the same text and why
 */
#include "config.h"

#include "odbc_internal.h"
#include "stmt_int.h"
#include "trace.h"

#include <stdio.h>
#include <string.h>

#include "sql/engine.h"
#include "write.h"

#define READ_ONLY_TEXT "Cannot update. Database or object is read-only."

/* A write refused before or by the core as read-only: the SQLSTATE and
 * text the connection's reason calls for (detail: the core's). */
static SQLRETURN read_only_diag(odbc_stmt *s, const char *detail)
{
    odbc_dbc *dbc = s->dbc;
    if (jet_db_version(dbc->db) == JET_VER_3)
        return odbc_diag_add(DIAG(s), "HYC00", "Optional feature not "
                             "implemented: Access 97 files are read-only");
    if (dbc->read_only || !detail || !*detail)
        return odbc_diag_add(DIAG(s), "HY000", READ_ONLY_TEXT);
    return odbc_diag_add(DIAG(s), "HY000", READ_ONLY_TEXT " (%s)", detail);
}

/* A failed write's diagnostic: read-only refusals as above, the rest
 * through the one map (23000, 22001, ...). */
static SQLRETURN write_diag(odbc_stmt *s, const sql_error *e)
{
    if (!e->sqlstate[0] && e->rc == JET_EREADONLY)
        return read_only_diag(s, e->msg);
    return odbc_diag_sql(DIAG(s), e, DIAG_CTX_OTHER);
}

static SQLRETURN core_diag(odbc_stmt *s, jet_rc rc)
{
    const jet_error *je = jet_db_error(s->dbc->db);
    if (rc == JET_EREADONLY)
        return read_only_diag(s, je->rc == rc ? je->msg : NULL);
    return odbc_diag_jet(DIAG(s), rc, je, DIAG_CTX_OTHER);
}

/* Before a write: refuse on a read-only connection; with autocommit off
 * begin the transaction the write joins. */
static SQLRETURN write_enter(odbc_stmt *s)
{
    odbc_dbc *dbc = s->dbc;
    if (dbc->read_only || jet_db_version(dbc->db) == JET_VER_3)
        return read_only_diag(s, NULL);
    if (dbc->autocommit == SQL_AUTOCOMMIT_OFF && !jet_db_in_write(dbc->db)) {
        jet_rc rc = jet_db_write_begin(dbc->db);
        if (rc != JET_OK)
            return core_diag(s, rc);
        odbc_trace_log(dbc->trace, "begin dbc=%p (autocommit off)",
                       (void *)dbc);
    }
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_run_dml(odbc_stmt *s, const jet_value *params,
                            const sql_cursor_opts *opts)
{
    s->dml_rows = -1;
    SQLRETURN r = write_enter(s);
    if (r != SQL_SUCCESS)
        return r;
    sql_error err;
    sql_cursor *cur = NULL;
    memset(&err, 0, sizeof err);
    if (sql_statement_execute(s->prepared, params, opts, &cur, &err) != 0) {
        if (!err.sqlstate[0] && err.rc == JET_EINTERRUPTED)
            return odbc_diag_add(DIAG(s), "HY008", "Operation canceled");
        return write_diag(s, &err);
    }
    s->dml_rows = sql_statement_row_count(s->prepared);
    int64_t id = sql_statement_last_identity(s->prepared);
    if (id != 0)
        s->dbc->last_identity = id;
    s->state = STMT_PREPARED;   /* no result set */
    odbc_trace_log(s->dbc->trace, "dml stmt=%p: %lld rows", (void *)s,
                   (long long)s->dml_rows);
    return SQL_SUCCESS;
}

SQLRETURN odbc_stmt_dml_batch(odbc_stmt *s)
{
    odbc_dbc *dbc = s->dbc;
    jet_db *db = dbc->db;
    odbc_paramset *ps = &s->pset;
    odbc_diag *d = DIAG(s);
    ps->size = s->paramset_size;
    ps->batch = false;
    if (ps->status_ptr)
        for (SQLULEN k = 0; k < ps->size; k++)
            ps->status_ptr[k] = SQL_PARAM_UNUSED;
    if (ps->processed_ptr)
        *ps->processed_ptr = 0;
    s->dml_rows = -1;
    if (dbc->read_only || jet_db_version(db) == JET_VER_3)
        return read_only_diag(s, NULL);
    /* the whole array is one statement: one savepoint around every set,
     * in the connection's transaction or in one of its own */
    bool began = false;
    jet_rc rc;
    if (!jet_db_in_write(db)) {
        if ((rc = jet_db_write_begin(db)) != JET_OK)
            return core_diag(s, rc);
        began = true;
    }
    jet_savepoint sp;
    if ((rc = jet_db_savepoint(db, &sp)) != JET_OK) {
        SQLRETURN r = core_diag(s, rc);
        if (began)
            jet_db_write_rollback(db);
        return r;
    }
    int64_t total = 0;
    bool failed = false;
    /* a failing set rolls the whole array back to sp: the sets' own
     * statements take no savepoint each (one image per page changed and
     * row, freed again at once) */
    ps->dml_array = true;
    for (SQLULEN k = 0; k < ps->size && !failed; k++) {
        if (ps->processed_ptr)
            *ps->processed_ptr = k + 1;
        if (ps->operation_ptr && ps->operation_ptr[k] == SQL_PARAM_IGNORE)
            continue;
        int before = d->count;
        ps->cur = k;
        SQLRETURN r = odbc_stmt_open_set(s);
        for (int i = before; i < d->count; i++)
            d->rec[i].row_number = (SQLLEN)(k + 1);
        if (!SQL_SUCCEEDED(r)) {
            if (ps->status_ptr)
                ps->status_ptr[k] = SQL_PARAM_ERROR;
            failed = true;
            break;
        }
        if (ps->status_ptr)
            ps->status_ptr[k] = r == SQL_SUCCESS ? SQL_PARAM_SUCCESS
                                                 : SQL_PARAM_SUCCESS_WITH_INFO;
        if (s->dml_rows > 0)
            total += s->dml_rows;
    }
    ps->cur = 0;
    ps->dml_array = false;
    if (failed) {
        /* none of the array's changes stay */
        jet_db_rollback_to(db, sp);
        jet_db_release(db, sp);
        if (began)
            jet_db_write_rollback(db);
        s->dml_rows = 0;
        return SQL_ERROR;
    }
    jet_db_release(db, sp);
    if (began && dbc->autocommit != SQL_AUTOCOMMIT_OFF &&
        (rc = jet_db_write_commit(db)) != JET_OK) {
        s->dml_rows = 0;
        return core_diag(s, rc);
    }
    s->dml_rows = total;
    s->state = STMT_PREPARED;
    return SQL_SUCCESS;
}
