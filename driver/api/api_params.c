/*
 * api_params.c - data at execution and positioning: SQLParamData,
 * SQLPutData (params.c), SQLSetPos (stmt_fetch.c: SQL_POSITION and
 * SQL_REFRESH; setpos.c: SQL_UPDATE, SQL_DELETE, SQL_ADD) and
 * SQLBulkOperations (setpos.c).
 */
#include "config.h"

#include "api.h"

SQLRETURN SQL_API SQLParamData(SQLHSTMT hstmt, SQLPOINTER *Value)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_param_data(s, Value));
}

SQLRETURN SQL_API SQLPutData(SQLHSTMT hstmt, SQLPOINTER Data,
                             SQLLEN StrLen_or_Ind)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_put_data(s, Data, StrLen_or_Ind));
}

SQLRETURN SQL_API SQLSetPos(SQLHSTMT hstmt, SQLSETPOSIROW RowNumber,
                            SQLUSMALLINT Operation, SQLUSMALLINT LockType)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_set_pos(s, RowNumber, Operation,
                                           LockType));
}

SQLRETURN SQL_API SQLBulkOperations(SQLHSTMT hstmt, SQLSMALLINT Operation)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_bulk_operations(s, Operation));
}
