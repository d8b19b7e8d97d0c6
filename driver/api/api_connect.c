/*
 * api_connect.c - SQLConnect, SQLDriverConnect (ANSI and W),
 * SQLDisconnect, SQLEndTran.
 */
#include "config.h"

#include "api.h"

static SQLRETURN connect_common(odbc_dbc *d, char *dsn, char *uid, char *pwd,
                                int ok)
{
    SQLRETURN r;
    if (!ok)
        r = odbc_diag_add(&d->hdr.diag, "HY001", "Memory allocation error");
    else
        r = odbc_dbc_connect(d, dsn, uid, pwd);
    free(dsn);
    free(uid);
    free(pwd);
    return r;
}

SQLRETURN SQL_API SQLConnect(SQLHDBC hdbc, SQLCHAR *ServerName,
                             SQLSMALLINT NameLength1, SQLCHAR *UserName,
                             SQLSMALLINT NameLength2, SQLCHAR *Authentication,
                             SQLSMALLINT NameLength3)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    int ok1, ok2, ok3;
    char *dsn = arg_a(ServerName, NameLength1, &ok1);
    char *uid = arg_a(UserName, NameLength2, &ok2);
    char *pwd = arg_a(Authentication, NameLength3, &ok3);
    return dbc_leave(d, connect_common(d, dsn, uid, pwd, ok1 && ok2 && ok3));
}

SQLRETURN SQL_API SQLConnectW(SQLHDBC hdbc, SQLWCHAR *ServerName,
                              SQLSMALLINT NameLength1, SQLWCHAR *UserName,
                              SQLSMALLINT NameLength2,
                              SQLWCHAR *Authentication,
                              SQLSMALLINT NameLength3)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    int ok1, ok2, ok3;
    char *dsn = arg_w(ServerName, NameLength1, &ok1);
    char *uid = arg_w(UserName, NameLength2, &ok2);
    char *pwd = arg_w(Authentication, NameLength3, &ok3);
    return dbc_leave(d, connect_common(d, dsn, uid, pwd, ok1 && ok2 && ok3));
}

/* SQLDriverConnect(W): the connection strings as ANSI or wide. */
static SQLRETURN driver_connect(SQLHDBC hdbc, void *str_in, SQLSMALLINT len_in,
                                void *str_out, SQLSMALLINT out_max,
                                SQLSMALLINT *len_out, bool wide)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    int ok;
    char *in = wide ? arg_w(str_in, len_in, &ok) : arg_a(str_in, len_in, &ok);
    char *out = NULL;
    SQLRETURN r;
    if (!ok) {
        r = odbc_diag_add(&d->hdr.diag, "HY001", "Memory allocation error");
    } else {
        r = odbc_dbc_driver_connect(d, in, &out);
        if (SQL_SUCCEEDED(r) && (str_out || len_out))
            r = ret_merge(r, wide ? out_w(&d->hdr.diag, str_out, out_max,
                                          out ? out : "", len_out, false)
                                  : out_a(&d->hdr.diag, str_out, out_max,
                                          out ? out : "", len_out));
    }
    free(in);
    free(out);
    return dbc_leave(d, r);
}

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC hdbc, SQLHWND hwnd,
                                   SQLCHAR *szConnStrIn,
                                   SQLSMALLINT cbConnStrIn,
                                   SQLCHAR *szConnStrOut,
                                   SQLSMALLINT cbConnStrOutMax,
                                   SQLSMALLINT *pcbConnStrOut,
                                   SQLUSMALLINT fDriverCompletion)
{
    return driver_connect(hdbc, szConnStrIn, cbConnStrIn, szConnStrOut,
                          cbConnStrOutMax, pcbConnStrOut, false);
}

SQLRETURN SQL_API SQLDriverConnectW(SQLHDBC hdbc, SQLHWND hwnd,
                                    SQLWCHAR *szConnStrIn,
                                    SQLSMALLINT cbConnStrIn,
                                    SQLWCHAR *szConnStrOut,
                                    SQLSMALLINT cbConnStrOutMax,
                                    SQLSMALLINT *pcbConnStrOut,
                                    SQLUSMALLINT fDriverCompletion)
{
    return driver_connect(hdbc, szConnStrIn, cbConnStrIn, szConnStrOut,
                          cbConnStrOutMax, pcbConnStrOut, true);
}

SQLRETURN SQL_API SQLDisconnect(SQLHDBC hdbc)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, odbc_dbc_disconnect(d));
}

SQLRETURN SQL_API SQLEndTran(SQLSMALLINT HandleType, SQLHANDLE Handle,
                             SQLSMALLINT CompletionType)
{
    if (HandleType == SQL_HANDLE_ENV) {
        odbc_env *e = env_enter(Handle);
        if (!e)
            return SQL_INVALID_HANDLE;
        if (CompletionType != SQL_COMMIT && CompletionType != SQL_ROLLBACK)
            return env_leave(e, odbc_diag_add(&e->hdr.diag, "HY012",
                                              "Invalid transaction "
                                              "operation code"));
        /* every connection of the environment, one after the other (no
         * two-phase commit: a failure leaves the ones before it ended) */
        SQLRETURN ret = SQL_SUCCESS;
        for (odbc_dbc *d = e->dbcs; d; d = d->next) {
            pthread_mutex_lock(&d->lock);
            SQLRETURN r = odbc_dbc_end_tran(d, CompletionType);
            if (!SQL_SUCCEEDED(r))
                ret = odbc_diag_add(&e->hdr.diag, "25S01", "Transaction "
                                    "state unknown: a connection's %s "
                                    "failed", CompletionType == SQL_COMMIT
                                    ? "commit" : "rollback");
            pthread_mutex_unlock(&d->lock);
        }
        return env_leave(e, ret);
    }
    if (HandleType != SQL_HANDLE_DBC)
        return SQL_ERROR;
    odbc_dbc *d = dbc_enter(Handle);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, odbc_dbc_end_tran(d, CompletionType));
}
