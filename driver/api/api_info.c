/*
 * api_info.c - SQLGetInfo(W) through info.c's table, SQLGetFunctions.
 */
#include "config.h"

#include "api.h"
#include "info.h"

static SQLRETURN get_info(odbc_dbc *d, SQLUSMALLINT type, SQLPOINTER val,
                          SQLSMALLINT buflen, SQLSMALLINT *outlen, bool wide)
{
    odbc_info_ctx ctx;
    odbc_info_answer ans;
    ctx.dsn = d->dsn;
    ctx.db_path = d->db ? d->db_path : NULL;
    ctx.db_version = d->db ? d->db_version : NULL;
    ctx.connected = d->db != NULL;
    ctx.read_only = d->db && (d->read_only ||
                              jet_db_version(d->db) == JET_VER_3);
    memset(&ans, 0, sizeof ans);
    if (odbc_info_lookup(&ans, type, &ctx) != SQL_SUCCESS)
        return odbc_diag_add(&d->hdr.diag, "HY096",
                             "Information type %u out of range",
                             (unsigned)type);
    switch (ans.kind) {
    case ODBC_INFO_STR:
        if (buflen < 0)
            return odbc_diag_add(&d->hdr.diag, "HY090",
                                 "Invalid buffer length");
        if (wide)
            return out_w(&d->hdr.diag, val, buflen, ans.str ? ans.str : "",
                         outlen, true);
        return out_a(&d->hdr.diag, val, buflen, ans.str ? ans.str : "",
                     outlen);
    case ODBC_INFO_USHORT: {
        SQLUSMALLINT v = (SQLUSMALLINT)ans.num;
        if (val)
            memcpy(val, &v, sizeof v);
        if (outlen)
            *outlen = sizeof v;
        return SQL_SUCCESS;
    }
    case ODBC_INFO_UINT: {
        SQLUINTEGER v = (SQLUINTEGER)ans.num;
        if (val)
            memcpy(val, &v, sizeof v);
        if (outlen)
            *outlen = sizeof v;
        return SQL_SUCCESS;
    }
    case ODBC_INFO_ULEN: {
        SQLULEN v = ans.num;
        if (val)
            memcpy(val, &v, sizeof v);
        if (outlen)
            *outlen = sizeof v;
        return SQL_SUCCESS;
    }
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetInfo(SQLHDBC hdbc, SQLUSMALLINT InfoType,
                             SQLPOINTER InfoValue, SQLSMALLINT BufferLength,
                             SQLSMALLINT *StringLength)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, get_info(d, InfoType, InfoValue, BufferLength,
                                 StringLength, false));
}

SQLRETURN SQL_API SQLGetInfoW(SQLHDBC hdbc, SQLUSMALLINT fInfoType,
                              SQLPOINTER rgbInfoValue,
                              SQLSMALLINT cbInfoValueMax,
                              SQLSMALLINT *pcbInfoValue)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, get_info(d, fInfoType, rgbInfoValue, cbInfoValueMax,
                                 pcbInfoValue, true));
}

/* Every function this driver exports (keep in step with api_*.c). */
static const SQLUSMALLINT exported[] = {
    SQL_API_SQLALLOCCONNECT, SQL_API_SQLALLOCENV, SQL_API_SQLALLOCHANDLE,
    SQL_API_SQLALLOCSTMT, SQL_API_SQLBINDCOL, SQL_API_SQLBINDPARAMETER,
    SQL_API_SQLDESCRIBEPARAM, SQL_API_SQLCANCEL,
    SQL_API_SQLCLOSECURSOR, SQL_API_SQLCOLATTRIBUTE, SQL_API_SQLCOLUMNS,
    SQL_API_SQLCONNECT, SQL_API_SQLDESCRIBECOL, SQL_API_SQLDISCONNECT,
    SQL_API_SQLDRIVERCONNECT, SQL_API_SQLENDTRAN, SQL_API_SQLERROR,
    SQL_API_SQLEXECDIRECT, SQL_API_SQLEXECUTE, SQL_API_SQLFETCH,
    SQL_API_SQLFETCHSCROLL, SQL_API_SQLFOREIGNKEYS, SQL_API_SQLFREECONNECT,
    SQL_API_SQLFREEENV, SQL_API_SQLFREEHANDLE, SQL_API_SQLFREESTMT,
    SQL_API_SQLGETDESCFIELD, SQL_API_SQLSETDESCFIELD,
    SQL_API_SQLGETDESCREC, SQL_API_SQLSETDESCREC, SQL_API_SQLCOPYDESC,
    SQL_API_SQLGETCONNECTATTR, SQL_API_SQLGETDATA, SQL_API_SQLGETDIAGFIELD,
    SQL_API_SQLGETDIAGREC, SQL_API_SQLGETENVATTR, SQL_API_SQLGETFUNCTIONS,
    SQL_API_SQLGETINFO, SQL_API_SQLGETSTMTATTR, SQL_API_SQLGETTYPEINFO,
    SQL_API_SQLMORERESULTS, SQL_API_SQLNATIVESQL, SQL_API_SQLNUMPARAMS,
    SQL_API_SQLNUMRESULTCOLS, SQL_API_SQLPREPARE, SQL_API_SQLPRIMARYKEYS,
    SQL_API_SQLPROCEDURECOLUMNS, SQL_API_SQLPROCEDURES, SQL_API_SQLROWCOUNT,
    SQL_API_SQLSETCONNECTATTR, SQL_API_SQLSETENVATTR, SQL_API_SQLSETSTMTATTR,
    SQL_API_SQLSPECIALCOLUMNS, SQL_API_SQLSTATISTICS, SQL_API_SQLTABLES,
    SQL_API_SQLPARAMDATA, SQL_API_SQLPUTDATA, SQL_API_SQLSETPOS,
    SQL_API_SQLEXTENDEDFETCH, SQL_API_SQLBULKOPERATIONS,
    SQL_API_SQLTABLEPRIVILEGES, SQL_API_SQLCOLUMNPRIVILEGES,
    SQL_API_SQLGETCURSORNAME, SQL_API_SQLSETCURSORNAME,
};

SQLRETURN odbc_get_functions(odbc_dbc *d, SQLUSMALLINT id, SQLUSMALLINT *out)
{
    size_t n = sizeof exported / sizeof exported[0];
    if (!out)
        return odbc_diag_add(&d->hdr.diag, "HY009", "Invalid use of null pointer");
    if (id == SQL_API_ODBC3_ALL_FUNCTIONS) {
        memset(out, 0, SQL_API_ODBC3_ALL_FUNCTIONS_SIZE * sizeof *out);
        for (size_t i = 0; i < n; i++)
            out[exported[i] >> 4] |= (SQLUSMALLINT)(1u << (exported[i] & 15));
        return SQL_SUCCESS;
    }
    if (id == SQL_API_ALL_FUNCTIONS) {
        memset(out, 0, 100 * sizeof *out);
        for (size_t i = 0; i < n; i++)
            if (exported[i] < 100)
                out[exported[i]] = SQL_TRUE;
        return SQL_SUCCESS;
    }
    *out = SQL_FALSE;
    for (size_t i = 0; i < n; i++)
        if (exported[i] == id)
            *out = SQL_TRUE;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetFunctions(SQLHDBC hdbc, SQLUSMALLINT FunctionId,
                                  SQLUSMALLINT *Supported)
{
    odbc_dbc *d = dbc_enter(hdbc);
    if (!d)
        return SQL_INVALID_HANDLE;
    return dbc_leave(d, odbc_get_functions(d, FunctionId, Supported));
}
