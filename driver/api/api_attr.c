/*
 * api_attr.c - environment, connection and statement attributes:
 * SQLSetEnvAttr, SQLGetEnvAttr, SQLSetConnectAttr(W), SQLGetConnectAttr(W),
 * SQLSetStmtAttr(W), SQLGetStmtAttr(W).
 */
#include "config.h"

#include "api.h"

SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV henv, SQLINTEGER Attribute,
                                SQLPOINTER Value, SQLINTEGER StringLength)
{
    odbc_env *e = env_enter(henv);
    if (!e)
        return SQL_INVALID_HANDLE;
    return env_leave(e, odbc_env_set_attr(e, Attribute, Value, StringLength));
}

SQLRETURN SQL_API SQLGetEnvAttr(SQLHENV henv, SQLINTEGER Attribute,
                                SQLPOINTER Value, SQLINTEGER BufferLength,
                                SQLINTEGER *StringLength)
{
    odbc_env *e = env_enter(henv);
    if (!e)
        return SQL_INVALID_HANDLE;
    return env_leave(e, odbc_env_get_attr(e, Attribute, Value, BufferLength,
                                          StringLength));
}

SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC hdbc, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER StringLength)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, odbc_dbc_set_attr(d, Attribute, Value, StringLength));
}

SQLRETURN SQL_API SQLSetConnectAttrW(SQLHDBC hdbc, SQLINTEGER fAttribute,
                                     SQLPOINTER rgbValue,
                                     SQLINTEGER cbValue)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    if (fAttribute == SQL_ATTR_CURRENT_CATALOG && rgbValue) {
        /* the only string attribute: compared in UTF-8 */
        int ok = 1;
        char *u8 = odbc_wide_to_utf8(rgbValue, cbValue == SQL_NTS ? SQL_NTS
                                     : cbValue / (SQLINTEGER)sizeof(SQLWCHAR),
                                     &ok);
        if (!u8)
            return dbc_leave(d, odbc_diag_add(&d->hdr.diag, "HY001",
                                              "Memory allocation error"));
        SQLRETURN r = odbc_dbc_set_attr(d, fAttribute, u8, SQL_NTS);
        free(u8);
        return dbc_leave(d, r);
    }
    return dbc_leave(d, odbc_dbc_set_attr(d, fAttribute, rgbValue, cbValue));
}

static SQLRETURN get_connect_attr(odbc_dbc *d, SQLINTEGER attr,
                                  SQLPOINTER val, SQLINTEGER buflen,
                                  SQLINTEGER *outlen, bool wide)
{
    SQLULEN num = 0;
    const char *str = NULL;
    bool is_str = false;
    SQLRETURN r = odbc_dbc_get_attr(d, attr, &num, &str, &is_str);
    if (!SQL_SUCCEEDED(r))
        return r;
    if (is_str) {
        SQLSMALLINT n = 0;
        r = wide ? out_w(&d->hdr.diag, val, buflen, str, &n, true)
                 : out_a(&d->hdr.diag, val, buflen, str, &n);
        if (outlen)
            *outlen = n;
        return r;
    }
    SQLUINTEGER v = (SQLUINTEGER)num;
    if (val)
        memcpy(val, &v, sizeof v);
    if (outlen)
        *outlen = sizeof v;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetConnectAttr(SQLHDBC hdbc, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER BufferLength,
                                    SQLINTEGER *StringLength)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, get_connect_attr(d, Attribute, Value, BufferLength,
                                         StringLength, false));
}

SQLRETURN SQL_API SQLGetConnectAttrW(SQLHDBC hdbc, SQLINTEGER fAttribute,
                                     SQLPOINTER rgbValue,
                                     SQLINTEGER cbValueMax,
                                     SQLINTEGER *pcbValue)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, get_connect_attr(d, fAttribute, rgbValue, cbValueMax,
                                         pcbValue, true));
}

SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT hstmt, SQLINTEGER Attribute,
                                 SQLPOINTER Value, SQLINTEGER StringLength)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_set_attr(s, Attribute, Value,
                                            StringLength));
}

SQLRETURN SQL_API SQLSetStmtAttrW(SQLHSTMT hstmt, SQLINTEGER fAttribute,
                                  SQLPOINTER rgbValue, SQLINTEGER cbValueMax)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_set_attr(s, fAttribute, rgbValue,
                                            cbValueMax));
}

SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT hstmt, SQLINTEGER Attribute,
                                 SQLPOINTER Value, SQLINTEGER BufferLength,
                                 SQLINTEGER *StringLength)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_get_attr(s, Attribute, Value, BufferLength,
                                            StringLength));
}

SQLRETURN SQL_API SQLGetStmtAttrW(SQLHSTMT hstmt, SQLINTEGER fAttribute,
                                  SQLPOINTER rgbValue, SQLINTEGER cbValueMax,
                                  SQLINTEGER *pcbValue)
{
    odbc_stmt *s = stmt_enter(hstmt);
    if (!s)
        return SQL_INVALID_HANDLE;
    return stmt_leave(s, odbc_stmt_get_attr(s, fAttribute, rgbValue,
                                            cbValueMax, pcbValue));
}
