/*
 * api_fetch.c - SQLBindCol, SQLFetch, SQLFetchScroll, SQLGetData,
 * SQLExtendedFetch (ODBC 2).
 */
#include "config.h"

#include "api.h"

SQLRETURN SQL_API SQLBindCol(SQLHSTMT hstmt, SQLUSMALLINT ColumnNumber,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValue,
                             SQLLEN BufferLength, SQLLEN *StrLen_or_Ind)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_bind_col(s, ColumnNumber, TargetType,
                                            TargetValue, BufferLength,
                                            StrLen_or_Ind));
}

SQLRETURN SQL_API SQLFetch(SQLHSTMT hstmt)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_fetch(s));
}

SQLRETURN SQL_API SQLFetchScroll(SQLHSTMT hstmt, SQLSMALLINT FetchOrientation,
                                 SQLLEN FetchOffset)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_fetch_scroll(s, FetchOrientation,
                                                FetchOffset));
}

SQLRETURN SQL_API SQLGetData(SQLHSTMT hstmt, SQLUSMALLINT ColumnNumber,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValue,
                             SQLLEN BufferLength, SQLLEN *StrLen_or_Ind)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_get_data(s, ColumnNumber, TargetType,
                                            TargetValue, BufferLength,
                                            StrLen_or_Ind));
}

SQLRETURN SQL_API SQLExtendedFetch(SQLHSTMT hstmt,
                                   SQLUSMALLINT FetchOrientation,
                                   SQLLEN FetchOffset, SQLULEN *RowCountPtr,
                                   SQLUSMALLINT *RowStatusArray)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_extended_fetch(s, FetchOrientation,
                                                  FetchOffset, RowCountPtr,
                                                  RowStatusArray));
}
