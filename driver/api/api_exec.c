/*
 * api_exec.c - prepare/execute and result description: SQLPrepare(W),
 * SQLExecute, SQLExecDirect(W), SQLNumResultCols, SQLDescribeCol(W),
 * SQLColAttribute(W), SQLNumParams, SQLBindParameter, SQLDescribeParam,
 * SQLRowCount, SQLMoreResults,
 * SQLCloseCursor, SQLCancel, SQLNativeSql(W), SQLSetCursorName(W),
 * SQLGetCursorName(W).
 */
#include "config.h"

#include "api.h"

/* Prepare or run sql (UTF-8, len bytes, may hold NULs: an explicit
 * TextLength covers them, and the parser rejects a NUL with 42000 at its
 * position rather than running the text before it). Frees sql. */
static SQLRETURN prepare_or_exec(odbc_stmt *s, char *sql, size_t len, int ok,
                                 bool exec)
{
    SQLRETURN r;
    if (!ok)
        r = odbc_diag_add(&s->hdr.diag, "HY001", "Memory allocation error");
    else if (!sql)
        r = odbc_diag_add(&s->hdr.diag, "HY009", "Invalid use of null pointer");
    else if (exec)
        r = odbc_stmt_exec_direct(s, sql, len);
    else
        r = odbc_stmt_prepare(s, sql, len);
    free(sql);
    return r;
}

/* An ANSI statement argument: a UTF-8 copy and its full length. */
static SQLRETURN prepare_or_exec_a(odbc_stmt *s, const SQLCHAR *text,
                                   SQLINTEGER text_len, bool exec)
{
    int ok;
    char *sql = arg_a(text, text_len, &ok);
    size_t len = !sql ? 0 : text_len == SQL_NTS ? strlen(sql)
                 : text_len < 0 ? 0 : (size_t)text_len;
    return prepare_or_exec(s, sql, len, ok, exec);
}

/* A wide statement argument. A NUL unit inside an explicit length is
 * 42000 at its character position (as the parser reports it for ANSI). */
static SQLRETURN prepare_or_exec_w(odbc_stmt *s, const SQLWCHAR *text,
                                   SQLINTEGER text_len, bool exec)
{
    int ok;
    if (text && text_len > 0) {
        SQLINTEGER z = 0;
        while (z < text_len && text[z] != 0)
            z++;
        if (z < text_len) {
            char *head = odbc_wide_to_utf8(text, z, &ok);
            size_t pos = 1;
            if (!head)
                return odbc_diag_add(&s->hdr.diag, "HY001",
                                     "Memory allocation error");
            for (const char *c = head; *c; c++)
                if (((unsigned char)*c & 0xC0) != 0x80)
                    pos++;
            free(head);
            return odbc_diag_add(&s->hdr.diag, "42000", "NUL character in "
                                 "statement (at character %zu)", pos);
        }
    }
    char *sql = arg_w(text, text_len, &ok);
    return prepare_or_exec(s, sql, sql ? strlen(sql) : 0, ok, exec);
}

/* SQLPrepare(W) and SQLExecDirect(W): text as ANSI or wide. */
static SQLRETURN statement_text(SQLHSTMT hstmt, const void *text,
                                SQLINTEGER text_len, bool wide, bool exec)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, wide ? prepare_or_exec_w(s, text, text_len, exec)
                              : prepare_or_exec_a(s, text, text_len, exec));
}

SQLRETURN SQL_API SQLPrepare(SQLHSTMT hstmt, SQLCHAR *StatementText,
                             SQLINTEGER TextLength)
{
    return statement_text(hstmt, StatementText, TextLength, false, false);
}

SQLRETURN SQL_API SQLPrepareW(SQLHSTMT hstmt, SQLWCHAR *StatementText,
                              SQLINTEGER TextLength)
{
    return statement_text(hstmt, StatementText, TextLength, true, false);
}

SQLRETURN SQL_API SQLExecDirect(SQLHSTMT hstmt, SQLCHAR *StatementText,
                                SQLINTEGER TextLength)
{
    return statement_text(hstmt, StatementText, TextLength, false, true);
}

SQLRETURN SQL_API SQLExecDirectW(SQLHSTMT hstmt, SQLWCHAR *StatementText,
                                 SQLINTEGER TextLength)
{
    return statement_text(hstmt, StatementText, TextLength, true, true);
}

SQLRETURN SQL_API SQLExecute(SQLHSTMT hstmt)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_execute(s));
}

SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT hstmt, SQLSMALLINT *ColumnCount)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_num_result_cols(s, ColumnCount));
}

SQLRETURN SQL_API SQLNumParams(SQLHSTMT hstmt, SQLSMALLINT *ParameterCount)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_num_params(s, ParameterCount));
}

SQLRETURN SQL_API SQLBindParameter(SQLHSTMT hstmt, SQLUSMALLINT ipar,
                                   SQLSMALLINT fParamType, SQLSMALLINT fCType,
                                   SQLSMALLINT fSqlType, SQLULEN cbColDef,
                                   SQLSMALLINT ibScale, SQLPOINTER rgbValue,
                                   SQLLEN cbValueMax, SQLLEN *pcbValue)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_bind_param(s, ipar, fParamType, fCType,
                                              fSqlType, cbColDef, ibScale,
                                              rgbValue, cbValueMax,
                                              pcbValue));
}

SQLRETURN SQL_API SQLDescribeParam(SQLHSTMT hstmt, SQLUSMALLINT ipar,
                                   SQLSMALLINT *pfSqlType,
                                   SQLULEN *pcbParamDef,
                                   SQLSMALLINT *pibScale,
                                   SQLSMALLINT *pfNullable)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_describe_param(s, ipar, pfSqlType,
                                                  pcbParamDef, pibScale,
                                                  pfNullable));
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT hstmt, SQLLEN *RowCount)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_row_count(s, RowCount));
}

SQLRETURN SQL_API SQLMoreResults(SQLHSTMT hstmt)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_more_results(s));
}

SQLRETURN SQL_API SQLCloseCursor(SQLHSTMT hstmt)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_close_cursor(s, true));
}

/* SQLCancel may come from another thread while a fetch holds the
 * connection lock: it only raises the statement's cancel flag, which the
 * fetch loop checks between rows. */
SQLRETURN SQL_API SQLCancel(SQLHSTMT hstmt)
{
    odbc_stmt *s = (odbc_stmt *)hstmt;
    if (!s || s->hdr.tag != ODBC_TAG_STMT)
        return SQL_INVALID_HANDLE;
    return odbc_stmt_cancel(s);
}

/* --------------------------------------------------------- describe */

static SQLRETURN describe(odbc_stmt *s, SQLUSMALLINT col, void *name,
                          SQLSMALLINT buflen, SQLSMALLINT *namelen,
                          SQLSMALLINT *type, SQLULEN *size,
                          SQLSMALLINT *digits, SQLSMALLINT *nullable,
                          bool wide)
{
    if (s->state == STMT_ALLOCATED)
        return odbc_diag_add(&s->hdr.diag, "HY010",
                             "Function sequence error (no prepared statement)");
    const odbc_colmeta *c = odbc_stmt_column(s, col);
    if (!c)
        return SQL_ERROR;
    if (buflen < 0)
        return odbc_diag_add(&s->hdr.diag, "HY090", "Invalid buffer length");
    SQLRETURN r;
    if (wide)
        r = out_w(&s->hdr.diag, name, buflen, c->name, namelen, false);
    else
        r = out_a(&s->hdr.diag, name, buflen, c->name, namelen);
    if (type)
        *type = c->ti.sql_type;
    if (size)
        *size = c->ti.column_size;
    if (digits)
        *digits = c->ti.decimal_digits > 0 ? c->ti.decimal_digits : 0;
    if (nullable)
        *nullable = c->nullable;
    return r;
}

SQLRETURN SQL_API SQLDescribeCol(SQLHSTMT hstmt, SQLUSMALLINT ColumnNumber,
                                 SQLCHAR *ColumnName, SQLSMALLINT BufferLength,
                                 SQLSMALLINT *NameLength, SQLSMALLINT *DataType,
                                 SQLULEN *ColumnSize,
                                 SQLSMALLINT *DecimalDigits,
                                 SQLSMALLINT *Nullable)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, describe(s, ColumnNumber, ColumnName, BufferLength,
                                  NameLength, DataType, ColumnSize,
                                  DecimalDigits, Nullable, false));
}

SQLRETURN SQL_API SQLDescribeColW(SQLHSTMT hstmt, SQLUSMALLINT ColumnNumber,
                                  SQLWCHAR *ColumnName,
                                  SQLSMALLINT BufferLength,
                                  SQLSMALLINT *NameLength,
                                  SQLSMALLINT *DataType, SQLULEN *ColumnSize,
                                  SQLSMALLINT *DecimalDigits,
                                  SQLSMALLINT *Nullable)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, describe(s, ColumnNumber, ColumnName, BufferLength,
                                  NameLength, DataType, ColumnSize,
                                  DecimalDigits, Nullable, true));
}

static SQLRETURN col_attribute(odbc_stmt *s, SQLUSMALLINT col,
                               SQLUSMALLINT field, SQLPOINTER buf,
                               SQLSMALLINT buflen, SQLSMALLINT *outlen,
                               SQLLEN *num, bool wide)
{
    const char *str;
    SQLLEN n;
    SQLRETURN r = odbc_stmt_col_attribute(s, col, field, &str, &n);
    if (!SQL_SUCCEEDED(r))
        return r;
    if (str) {
        if (wide)
            return out_w(&s->hdr.diag, buf, buflen, str, outlen, true);
        return out_a(&s->hdr.diag, buf, buflen, str, outlen);
    }
    if (num)
        *num = n;
    return r;
}

SQLRETURN SQL_API SQLColAttribute(SQLHSTMT hstmt, SQLUSMALLINT ColumnNumber,
                                  SQLUSMALLINT FieldIdentifier,
                                  SQLPOINTER CharacterAttribute,
                                  SQLSMALLINT BufferLength,
                                  SQLSMALLINT *StringLength,
                                  odbc_colattr_num NumericAttribute)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, col_attribute(s, ColumnNumber, FieldIdentifier,
                                       CharacterAttribute, BufferLength,
                                       StringLength, NumericAttribute,
                                       false));
}

SQLRETURN SQL_API SQLColAttributeW(SQLHSTMT hstmt, SQLUSMALLINT iCol,
                                   SQLUSMALLINT iField, SQLPOINTER pCharAttr,
                                   SQLSMALLINT cbCharAttrMax,
                                   SQLSMALLINT *pcbCharAttr,
                                   odbc_colattr_num pNumAttr)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, col_attribute(s, iCol, iField, pCharAttr,
                                       cbCharAttrMax, pcbCharAttr, pNumAttr,
                                       true));
}

/* ------------------------------------------------------- native SQL */

/* Our SQL needs no translation: the text comes back as given. */
static SQLRETURN native_sql(odbc_dbc *d, const char *in, int ok, void *out,
                            SQLINTEGER outmax, SQLINTEGER *outlen, bool wide)
{
    SQLRETURN r;
    SQLSMALLINT n = 0;
    if (!ok)
        return odbc_diag_add(&d->hdr.diag, "HY001", "Memory allocation error");
    if (!in)
        return odbc_diag_add(&d->hdr.diag, "HY009", "Invalid use of null pointer");
    if (wide)
        r = out_w(&d->hdr.diag, out, outmax, in, &n, false);
    else
        r = out_a(&d->hdr.diag, out, outmax, in, &n);
    if (outlen)
        *outlen = n;
    return r;
}

SQLRETURN SQL_API SQLNativeSql(SQLHDBC hdbc, SQLCHAR *InStatementText,
                               SQLINTEGER TextLength1,
                               SQLCHAR *OutStatementText,
                               SQLINTEGER BufferLength,
                               SQLINTEGER *TextLength2Ptr)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    int ok;
    char *in = arg_a(InStatementText, TextLength1, &ok);
    SQLRETURN r = native_sql(d, in, ok, OutStatementText, BufferLength,
                             TextLength2Ptr, false);
    free(in);
    return dbc_leave(d, r);
}

SQLRETURN SQL_API SQLNativeSqlW(SQLHDBC hdbc, SQLWCHAR *szSqlStrIn,
                                SQLINTEGER cbSqlStrIn, SQLWCHAR *szSqlStr,
                                SQLINTEGER cbSqlStrMax, SQLINTEGER *pcbSqlStr)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    int ok;
    char *in = arg_w(szSqlStrIn, cbSqlStrIn, &ok);
    SQLRETURN r = native_sql(d, in, ok, szSqlStr, cbSqlStrMax, pcbSqlStr,
                             true);
    free(in);
    return dbc_leave(d, r);
}

/* SQLSetCursorName(W)'s shared part: name is the UTF-8 copy (NULL: HY009
 * when the argument was NULL, HY001 when the copy failed). */
static SQLRETURN set_cursor_name(odbc_stmt *s, char *name, int ok,
                                 SQLSMALLINT len)
{
    SQLRETURN r;
    if (!ok)
        r = odbc_diag_add(&s->hdr.diag, "HY001", "Memory allocation error");
    else if (!name)
        r = odbc_diag_add(&s->hdr.diag, "HY009", "Invalid use of null "
                          "pointer");
    else if (len < 0 && len != SQL_NTS)
        r = odbc_diag_add(&s->hdr.diag, "HY090", "Invalid string or buffer "
                          "length");
    else
        r = odbc_stmt_set_cursor_name(s, name, strlen(name));
    free(name);
    return r;
}

SQLRETURN SQL_API SQLSetCursorName(SQLHSTMT hstmt, SQLCHAR *CursorName,
                                   SQLSMALLINT NameLength)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    int ok;
    char *name = arg_a(CursorName, NameLength, &ok);
    return stmt_leave(s, set_cursor_name(s, name, ok, NameLength));
}

SQLRETURN SQL_API SQLSetCursorNameW(SQLHSTMT hstmt, SQLWCHAR *CursorName,
                                    SQLSMALLINT NameLength)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    int ok;
    char *name = arg_w(CursorName, NameLength, &ok);
    return stmt_leave(s, set_cursor_name(s, name, ok, NameLength));
}

/* SQLGetCursorName(W)'s checks: the statement's cursor name, or NULL
 * with HY090 (a negative BufferLength) or HY001 recorded. */
static const char *cursor_name_for(odbc_stmt *s, SQLSMALLINT buflen)
{
    if (buflen < 0) {
        odbc_diag_add(&s->hdr.diag, "HY090", "Invalid string or buffer "
                      "length");
        return NULL;
    }
    return odbc_stmt_cursor_name(s);
}

SQLRETURN SQL_API SQLGetCursorName(SQLHSTMT hstmt, SQLCHAR *CursorName,
                                   SQLSMALLINT BufferLength,
                                   SQLSMALLINT *NameLengthPtr)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    const char *name = cursor_name_for(s, BufferLength);
    if (!name)
        return stmt_leave(s, SQL_ERROR);
    return stmt_leave(s, out_a(&s->hdr.diag, CursorName, BufferLength, name,
                               NameLengthPtr));
}

SQLRETURN SQL_API SQLGetCursorNameW(SQLHSTMT hstmt, SQLWCHAR *CursorName,
                                    SQLSMALLINT BufferLength,
                                    SQLSMALLINT *NameLengthPtr)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    const char *name = cursor_name_for(s, BufferLength);
    if (!name)
        return stmt_leave(s, SQL_ERROR);
    return stmt_leave(s, out_w(&s->hdr.diag, CursorName, BufferLength, name,
                               NameLengthPtr, false));
}
