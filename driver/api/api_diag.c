/*
 * api_diag.c - SQLGetDiagRec(W), SQLGetDiagField(W) and the ODBC 2
 * SQLError(W). These read a handle's diagnostics and never clear them.
 */
#include "config.h"

#include "api.h"

/* Lock the handle's owner and return its header, or NULL. */
static odbc_hdr *diag_enter(SQLSMALLINT type, SQLHANDLE h,
                            pthread_mutex_t **lock, odbc_dbc **dbc)
{
    *dbc = NULL;
    if (!h)
        return NULL;
    switch (type) {
    case SQL_HANDLE_ENV: {
        odbc_env *e = h;
        if (e->hdr.tag != ODBC_TAG_ENV)
            return NULL;
        *lock = &e->lock;
        break;
    }
    case SQL_HANDLE_DBC: {
        odbc_dbc *d = h;
        if (d->hdr.tag != ODBC_TAG_DBC)
            return NULL;
        *lock = &d->lock;
        *dbc = d;
        break;
    }
    case SQL_HANDLE_STMT: {
        odbc_stmt *s = h;
        if (s->hdr.tag != ODBC_TAG_STMT)
            return NULL;
        *lock = &s->dbc->lock;
        *dbc = s->dbc;
        break;
    }
    case SQL_HANDLE_DESC: {
        odbc_desc *d = h;
        if (d->hdr.tag != ODBC_TAG_DESC)
            return NULL;
        *lock = &d->stmt->dbc->lock;
        *dbc = d->stmt->dbc;
        break;
    }
    default:
        return NULL;
    }
    pthread_mutex_lock(*lock);
    return (odbc_hdr *)h;
}

/* Truncation of a diagnostic output is SUCCESS_WITH_INFO without a new
 * record (diagnostic functions post none). */
static SQLRETURN put_text(void *buf, SQLLEN buflen, const char *s,
                          SQLSMALLINT *outlen, bool wide, bool in_bytes)
{
    SQLLEN n;
    int t = wide ? odbc_put_wstr(buf, buflen, s, &n, in_bytes)
                 : odbc_put_str(buf, buflen, s, &n);
    if (outlen)
        *outlen = (SQLSMALLINT)(n > 32767 ? 32767 : n);
    return (t && buf) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

static SQLRETURN put_state(void *buf, const char *state, bool wide)
{
    if (!buf)
        return SQL_SUCCESS;
    if (wide) {
        SQLWCHAR *w = buf;
        for (int i = 0; i < 5; i++)
            w[i] = (SQLWCHAR)(unsigned char)state[i];
        w[5] = 0;
    } else {
        memcpy(buf, state, 5);
        ((char *)buf)[5] = '\0';
    }
    return SQL_SUCCESS;
}

static SQLRETURN get_diag_rec(odbc_hdr *h, SQLSMALLINT rec, void *state,
                              SQLINTEGER *native, void *msg,
                              SQLSMALLINT buflen, SQLSMALLINT *textlen,
                              bool wide)
{
    if (rec < 1 || buflen < 0)
        return SQL_ERROR;
    if (rec > h->diag.count)
        return SQL_NO_DATA;
    const odbc_diag_rec *r = &h->diag.rec[rec - 1];
    put_state(state, r->sqlstate, wide);
    if (native)
        *native = r->native;
    return put_text(msg, buflen, r->msg, textlen, wide, false);
}

SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT HandleType, SQLHANDLE Handle,
                                SQLSMALLINT RecNumber, SQLCHAR *Sqlstate,
                                SQLINTEGER *NativeError, SQLCHAR *MessageText,
                                SQLSMALLINT BufferLength,
                                SQLSMALLINT *TextLength)
{
    pthread_mutex_t *lock;
    odbc_dbc *dbc;
    odbc_hdr *h = diag_enter(HandleType, Handle, &lock, &dbc);
    if (!h)
        return SQL_INVALID_HANDLE;
    SQLRETURN r = get_diag_rec(h, RecNumber, Sqlstate, NativeError,
                               MessageText, BufferLength, TextLength, false);
    pthread_mutex_unlock(lock);
    return r;
}

SQLRETURN SQL_API SQLGetDiagRecW(SQLSMALLINT fHandleType, SQLHANDLE handle,
                                 SQLSMALLINT iRecord, SQLWCHAR *szSqlState,
                                 SQLINTEGER *pfNativeError,
                                 SQLWCHAR *szErrorMsg,
                                 SQLSMALLINT cbErrorMsgMax,
                                 SQLSMALLINT *pcbErrorMsg)
{
    pthread_mutex_t *lock;
    odbc_dbc *dbc;
    odbc_hdr *h = diag_enter(fHandleType, handle, &lock, &dbc);
    if (!h)
        return SQL_INVALID_HANDLE;
    SQLRETURN r = get_diag_rec(h, iRecord, szSqlState, pfNativeError,
                               szErrorMsg, cbErrorMsgMax, pcbErrorMsg, true);
    pthread_mutex_unlock(lock);
    return r;
}

static const char *class_origin(const char *state, bool subclass)
{
    bool odbc = (state[0] == 'I' && state[1] == 'M') ||
                (subclass && ((state[0] == 'H' && state[1] == 'Y') ||
                              state[2] == 'S'));
    return odbc ? "ODBC 3.0" : "ISO 9075";
}

static SQLRETURN get_diag_field(odbc_hdr *h, odbc_dbc *dbc, SQLSMALLINT rec,
                                SQLSMALLINT field, SQLPOINTER val,
                                SQLSMALLINT buflen, SQLSMALLINT *outlen,
                                bool wide)
{
    const odbc_diag *d = &h->diag;
    switch (field) {
    case SQL_DIAG_NUMBER: {
        SQLINTEGER v = d->count;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    case SQL_DIAG_RETURNCODE: {
        SQLRETURN v = d->ret;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    case SQL_DIAG_ROW_COUNT:
    case SQL_DIAG_CURSOR_ROW_COUNT: {
        if (h->handle_type != SQL_HANDLE_STMT)
            return SQL_ERROR;
        SQLLEN v = field == SQL_DIAG_ROW_COUNT ? d->row_count
                                               : d->cursor_row_count;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    case SQL_DIAG_DYNAMIC_FUNCTION:
        if (h->handle_type != SQL_HANDLE_STMT)
            return SQL_ERROR;
        return put_text(val, buflen, "SELECT CURSOR", outlen, wide, true);
    case SQL_DIAG_DYNAMIC_FUNCTION_CODE: {
        if (h->handle_type != SQL_HANDLE_STMT)
            return SQL_ERROR;
        SQLINTEGER v = SQL_DIAG_SELECT_CURSOR;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    default:
        break;
    }
    if (rec < 1)
        return SQL_ERROR;
    if (rec > d->count)
        return SQL_NO_DATA;
    const odbc_diag_rec *r = &d->rec[rec - 1];
    switch (field) {
    case SQL_DIAG_SQLSTATE:
        return put_text(val, buflen, r->sqlstate, outlen, wide, true);
    case SQL_DIAG_NATIVE: {
        SQLINTEGER v = r->native;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    case SQL_DIAG_MESSAGE_TEXT:
        return put_text(val, buflen, r->msg, outlen, wide, true);
    case SQL_DIAG_CLASS_ORIGIN:
        return put_text(val, buflen, class_origin(r->sqlstate, false), outlen,
                        wide, true);
    case SQL_DIAG_SUBCLASS_ORIGIN:
        return put_text(val, buflen, class_origin(r->sqlstate, true), outlen,
                        wide, true);
    case SQL_DIAG_CONNECTION_NAME:
        return put_text(val, buflen, "", outlen, wide, true);
    case SQL_DIAG_SERVER_NAME:
        return put_text(val, buflen, dbc && dbc->dsn ? dbc->dsn : "", outlen,
                        wide, true);
    case SQL_DIAG_ROW_NUMBER: {
        SQLLEN v = r->row_number;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    case SQL_DIAG_COLUMN_NUMBER: {
        SQLINTEGER v = r->col_number;
        if (val) memcpy(val, &v, sizeof v);
        return SQL_SUCCESS;
    }
    default:
        return SQL_ERROR;
    }
}

SQLRETURN SQL_API SQLGetDiagField(SQLSMALLINT HandleType, SQLHANDLE Handle,
                                  SQLSMALLINT RecNumber,
                                  SQLSMALLINT DiagIdentifier,
                                  SQLPOINTER DiagInfo,
                                  SQLSMALLINT BufferLength,
                                  SQLSMALLINT *StringLength)
{
    pthread_mutex_t *lock;
    odbc_dbc *dbc;
    odbc_hdr *h = diag_enter(HandleType, Handle, &lock, &dbc);
    if (!h)
        return SQL_INVALID_HANDLE;
    SQLRETURN r = get_diag_field(h, dbc, RecNumber, DiagIdentifier, DiagInfo,
                                 BufferLength, StringLength, false);
    pthread_mutex_unlock(lock);
    return r;
}

SQLRETURN SQL_API SQLGetDiagFieldW(SQLSMALLINT fHandleType, SQLHANDLE handle,
                                   SQLSMALLINT iRecord, SQLSMALLINT fDiagField,
                                   SQLPOINTER rgbDiagInfo,
                                   SQLSMALLINT cbDiagInfoMax,
                                   SQLSMALLINT *pcbDiagInfo)
{
    pthread_mutex_t *lock;
    odbc_dbc *dbc;
    odbc_hdr *h = diag_enter(fHandleType, handle, &lock, &dbc);
    if (!h)
        return SQL_INVALID_HANDLE;
    SQLRETURN r = get_diag_field(h, dbc, iRecord, fDiagField, rgbDiagInfo,
                                 cbDiagInfoMax, pcbDiagInfo, true);
    pthread_mutex_unlock(lock);
    return r;
}

/* ODBC 2: the next not yet returned record of the most specific handle. */
static SQLRETURN error_common(SQLHENV henv, SQLHDBC hdbc, SQLHSTMT hstmt,
                              void *state, SQLINTEGER *native, void *msg,
                              SQLSMALLINT buflen, SQLSMALLINT *textlen,
                              bool wide)
{
    pthread_mutex_t *lock;
    odbc_dbc *dbc;
    odbc_hdr *h;
    if (hstmt)
        h = diag_enter(SQL_HANDLE_STMT, hstmt, &lock, &dbc);
    else if (hdbc)
        h = diag_enter(SQL_HANDLE_DBC, hdbc, &lock, &dbc);
    else
        h = diag_enter(SQL_HANDLE_ENV, henv, &lock, &dbc);
    if (!h)
        return SQL_INVALID_HANDLE;
    SQLRETURN r;
    if (h->diag.error_fetched >= h->diag.count) {
        r = SQL_NO_DATA;
    } else {
        int rec = ++h->diag.error_fetched;
        r = get_diag_rec(h, (SQLSMALLINT)rec, state, native, msg, buflen,
                         textlen, wide);
    }
    pthread_mutex_unlock(lock);
    return r;
}

SQLRETURN SQL_API SQLError(SQLHENV EnvironmentHandle,
                           SQLHDBC ConnectionHandle, SQLHSTMT StatementHandle,
                           SQLCHAR *Sqlstate, SQLINTEGER *NativeError,
                           SQLCHAR *MessageText, SQLSMALLINT BufferLength,
                           SQLSMALLINT *TextLength)
{
    return error_common(EnvironmentHandle, ConnectionHandle, StatementHandle,
                        Sqlstate, NativeError, MessageText, BufferLength,
                        TextLength, false);
}

SQLRETURN SQL_API SQLErrorW(SQLHENV henv, SQLHDBC hdbc, SQLHSTMT hstmt,
                            SQLWCHAR *wszSqlState, SQLINTEGER *pfNativeError,
                            SQLWCHAR *wszErrorMsg, SQLSMALLINT cbErrorMsgMax,
                            SQLSMALLINT *pcbErrorMsg)
{
    return error_common(henv, hdbc, hstmt, wszSqlState, pfNativeError,
                        wszErrorMsg, cbErrorMsgMax, pcbErrorMsg, true);
}
