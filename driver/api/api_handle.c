/*
 * api_handle.c - SQLAllocHandle/SQLFreeHandle and their ODBC 2 forms.
 */
#include "config.h"

#include "api.h"

static SQLRETURN alloc_handle(SQLSMALLINT type, SQLHANDLE in, SQLHANDLE *out)
{
    SQLRETURN r;
    if (!out)
        return SQL_ERROR;
    switch (type) {
    case SQL_HANDLE_ENV: {
        odbc_env *e;
        r = odbc_env_alloc(&e);
        *out = e;
        return r;
    }
    case SQL_HANDLE_DBC: {
        odbc_env *e = env_enter(in);
        odbc_dbc *d = NULL;
        if (!e) {
            *out = SQL_NULL_HDBC;
            return SQL_INVALID_HANDLE;
        }
        r = odbc_dbc_alloc(&d, e);
        *out = d;
        return env_leave(e, r);
    }
    case SQL_HANDLE_STMT: {
        odbc_dbc *d = dbc_enter(in);
        odbc_stmt *s = NULL;
        if (!d) {
            *out = SQL_NULL_HSTMT;
            return SQL_INVALID_HANDLE;
        }
        r = odbc_stmt_alloc(&s, d);
        *out = s;
        return dbc_leave(d, r);
    }
    case SQL_HANDLE_DESC: {
        odbc_dbc *d = dbc_enter(in);
        if (!d)
            return SQL_INVALID_HANDLE;
        *out = SQL_NULL_HDESC;
        return dbc_leave(d, odbc_diag_add(&d->hdr.diag, "HYC00",
                         "Explicit descriptors are not supported"));
    }
    default:
        return SQL_ERROR;
    }
}

static SQLRETURN free_handle(SQLSMALLINT type, SQLHANDLE h)
{
    SQLRETURN r;
    switch (type) {
    case SQL_HANDLE_ENV: {
        odbc_env *e = env_enter(h);
        if (!e)
            return SQL_INVALID_HANDLE;
        r = odbc_env_free(e);      /* unlocks and frees on success */
        if (r != SQL_SUCCESS)
            return env_leave(e, r);
        return r;
    }
    case SQL_HANDLE_DBC: {
        odbc_dbc *d = dbc_enter(h);
        if (!d)
            return SQL_INVALID_HANDLE;
        r = odbc_dbc_free(d);      /* unlocks and frees on success */
        if (r != SQL_SUCCESS)
            return dbc_leave(d, r);
        return r;
    }
    case SQL_HANDLE_STMT: {
        odbc_stmt *s = stmt_enter(h);
        if (!s)
            return SQL_INVALID_HANDLE;
        odbc_dbc *d = s->dbc;
        r = odbc_stmt_free(s);
        pthread_mutex_unlock(&d->lock);
        return r;
    }
    case SQL_HANDLE_DESC:
        return SQL_INVALID_HANDLE;   /* implicit descriptors only */
    default:
        return SQL_ERROR;
    }
}

SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT HandleType, SQLHANDLE InputHandle,
                                 SQLHANDLE *OutputHandle)
{
    return alloc_handle(HandleType, InputHandle, OutputHandle);
}

SQLRETURN SQL_API SQLAllocEnv(SQLHENV *EnvironmentHandle)
{
    return alloc_handle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, EnvironmentHandle);
}

SQLRETURN SQL_API SQLAllocConnect(SQLHENV EnvironmentHandle,
                                  SQLHDBC *ConnectionHandle)
{
    return alloc_handle(SQL_HANDLE_DBC, EnvironmentHandle, ConnectionHandle);
}

SQLRETURN SQL_API SQLAllocStmt(SQLHDBC ConnectionHandle,
                               SQLHSTMT *StatementHandle)
{
    return alloc_handle(SQL_HANDLE_STMT, ConnectionHandle, StatementHandle);
}

SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT HandleType, SQLHANDLE Handle)
{
    return free_handle(HandleType, Handle);
}

SQLRETURN SQL_API SQLFreeEnv(SQLHENV EnvironmentHandle)
{
    return free_handle(SQL_HANDLE_ENV, EnvironmentHandle);
}

SQLRETURN SQL_API SQLFreeConnect(SQLHDBC ConnectionHandle)
{
    return free_handle(SQL_HANDLE_DBC, ConnectionHandle);
}

SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT StatementHandle, SQLUSMALLINT Option)
{
    if (Option == SQL_DROP)
        return free_handle(SQL_HANDLE_STMT, StatementHandle);
    odbc_stmt *s = stmt_enter(StatementHandle);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_free_stmt(s, Option));
}
