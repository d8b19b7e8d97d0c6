/*
 * nulldrv.c - a no-op ODBC driver: the driver manager's own cost.
 *
 * perf/run builds this file into a shared object in its work directory
 * (cc -shared -fPIC; not part of the project's build) and runs the
 * SQLGetData scan rows of `make bench` through it beside jetodbc,
 * mdbtools and SQLite ODBC. Whatever it takes is what the driver manager
 * and perf/odbcbench spend per call before any driver does work: the
 * floor under every driver's time in that mode.
 *
 * What it serves: any statement yields NULLDRV_ROWS rows shaped like
 * `bulk` (id INTEGER, amount DOUBLE, label VARCHAR(50), created
 * TIMESTAMP) with constant values, through SQLFetch + SQLGetData only
 * (SQLBindCol answers HYC00). Values are not bulk's, so perf/run shows no
 * ratio against it, only its time.
 */
#include <sql.h>
#include <sqlext.h>
#include <stdlib.h>
#include <string.h>

#define NULLDRV_ROWS 200000L
#define NULLDRV_COLS 4

#if defined(__GNUC__)
#define NULLDRV_API __attribute__((visibility("default")))
#else
#define NULLDRV_API
#endif

/* A handle of any kind: the statement's row position, the rest unused. */
typedef struct nd_handle {
    long row;     /* rows fetched so far */
    long rows;    /* rows of the open result, 0 when none */
} nd_handle;

NULLDRV_API SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT type, SQLHANDLE in,
                                             SQLHANDLE *out)
{
    (void)type;
    (void)in;
    *out = calloc(1, sizeof(nd_handle));
    return *out ? SQL_SUCCESS : SQL_ERROR;
}

NULLDRV_API SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT type, SQLHANDLE h)
{
    (void)type;
    free(h);
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV h, SQLINTEGER a,
                                            SQLPOINTER v, SQLINTEGER n)
{
    (void)h, (void)a, (void)v, (void)n;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC h, SQLINTEGER a,
                                                SQLPOINTER v, SQLINTEGER n)
{
    (void)h, (void)a, (void)v, (void)n;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT h, SQLINTEGER a,
                                             SQLPOINTER v, SQLINTEGER n)
{
    (void)h, (void)a, (void)v, (void)n;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT h, SQLINTEGER a,
                                             SQLPOINTER v, SQLINTEGER n,
                                             SQLINTEGER *len)
{
    (void)h, (void)a, (void)n;
    if (v)
        memset(v, 0, sizeof(SQLULEN));
    if (len)
        *len = sizeof(SQLULEN);
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLGetInfo(SQLHDBC h, SQLUSMALLINT what,
                                         SQLPOINTER v, SQLSMALLINT n,
                                         SQLSMALLINT *len)
{
    (void)h, (void)what;
    if (v && n >= (SQLSMALLINT)sizeof(SQLUINTEGER))
        memset(v, 0, sizeof(SQLUINTEGER));
    if (len)
        *len = 0;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLDriverConnect(SQLHDBC h, SQLHWND w,
                                               SQLCHAR *in, SQLSMALLINT inlen,
                                               SQLCHAR *out, SQLSMALLINT cap,
                                               SQLSMALLINT *outlen,
                                               SQLUSMALLINT how)
{
    (void)h, (void)w, (void)in, (void)inlen, (void)how;
    if (out && cap > 0)
        out[0] = '\0';
    if (outlen)
        *outlen = 0;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLConnect(SQLHDBC h, SQLCHAR *dsn,
                                         SQLSMALLINT dl, SQLCHAR *uid,
                                         SQLSMALLINT ul, SQLCHAR *pwd,
                                         SQLSMALLINT pl)
{
    (void)h, (void)dsn, (void)dl, (void)uid, (void)ul, (void)pwd, (void)pl;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLDisconnect(SQLHDBC h)
{
    (void)h;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLExecDirect(SQLHSTMT h, SQLCHAR *sql,
                                            SQLINTEGER len)
{
    (void)sql, (void)len;
    nd_handle *s = h;
    s->row = 0;
    s->rows = NULLDRV_ROWS;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT h, SQLSMALLINT *n)
{
    (void)h;
    *n = NULLDRV_COLS;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLDescribeCol(SQLHSTMT h, SQLUSMALLINT col,
                                             SQLCHAR *name, SQLSMALLINT cap,
                                             SQLSMALLINT *namelen,
                                             SQLSMALLINT *type,
                                             SQLULEN *size,
                                             SQLSMALLINT *digits,
                                             SQLSMALLINT *nullable)
{
    static const char *const names[NULLDRV_COLS] = { "id", "amount", "label",
                                                     "created" };
    static const SQLSMALLINT types[NULLDRV_COLS] = {
        SQL_INTEGER, SQL_DOUBLE, SQL_VARCHAR, SQL_TYPE_TIMESTAMP };
    static const SQLULEN sizes[NULLDRV_COLS] = { 10, 53, 50, 23 };
    (void)h;
    if (col < 1 || col > NULLDRV_COLS)
        return SQL_ERROR;
    size_t n = strlen(names[col - 1]);
    if (name && cap > 0) {
        size_t k = n < (size_t)cap - 1 ? n : (size_t)cap - 1;
        memcpy(name, names[col - 1], k);
        name[k] = '\0';
    }
    if (namelen)
        *namelen = (SQLSMALLINT)n;
    if (type)
        *type = types[col - 1];
    if (size)
        *size = sizes[col - 1];
    if (digits)
        *digits = col == 4 ? 3 : 0;
    if (nullable)
        *nullable = SQL_NULLABLE;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLFetch(SQLHSTMT h)
{
    nd_handle *s = h;
    if (s->row >= s->rows)
        return SQL_NO_DATA;
    s->row++;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLFetchScroll(SQLHSTMT h, SQLSMALLINT how,
                                             SQLLEN off)
{
    (void)how, (void)off;
    return SQLFetch(h);
}

/* Text of column col as the bulk rows print it (lengths alike). */
static const char *col_text(SQLUSMALLINT col)
{
    switch (col) {
    case 1: return "123456";
    case 2: return "32667.34";
    case 3: return "infrastructure";
    default: return "2005-10-07 00:36:00";
    }
}

NULLDRV_API SQLRETURN SQL_API SQLGetData(SQLHSTMT h, SQLUSMALLINT col,
                                         SQLSMALLINT ctype, SQLPOINTER v,
                                         SQLLEN cap, SQLLEN *ind)
{
    nd_handle *s = h;
    if (col < 1 || col > NULLDRV_COLS || !v)
        return SQL_ERROR;
    switch (ctype) {
    case SQL_C_LONG: case SQL_C_SLONG:
        *(SQLINTEGER *)v = (SQLINTEGER)s->row;
        *ind = sizeof(SQLINTEGER);
        return SQL_SUCCESS;
    case SQL_C_SBIGINT:
        *(SQLBIGINT *)v = (SQLBIGINT)s->row;
        *ind = sizeof(SQLBIGINT);
        return SQL_SUCCESS;
    case SQL_C_DOUBLE:
        *(double *)v = 32667.34;
        *ind = sizeof(double);
        return SQL_SUCCESS;
    case SQL_C_TYPE_TIMESTAMP: case SQL_C_TIMESTAMP: {
        SQL_TIMESTAMP_STRUCT t = { 2005, 10, 7, 0, 36, 0, 0 };
        memcpy(v, &t, sizeof t);
        *ind = sizeof t;
        return SQL_SUCCESS;
    }
    case SQL_C_WCHAR: {
        const char *t = col_text(col);
        size_t n = strlen(t);
        SQLWCHAR *w = v;
        if (cap < (SQLLEN)((n + 1) * sizeof(SQLWCHAR)))
            return SQL_ERROR;
        for (size_t i = 0; i <= n; i++)
            w[i] = (SQLWCHAR)(unsigned char)t[i];
        *ind = (SQLLEN)(n * sizeof(SQLWCHAR));
        return SQL_SUCCESS;
    }
    default: {   /* SQL_C_CHAR */
        const char *t = col_text(col);
        size_t n = strlen(t);
        if (cap < (SQLLEN)n + 1)
            return SQL_ERROR;
        memcpy(v, t, n + 1);
        *ind = (SQLLEN)n;
        return SQL_SUCCESS;
    }
    }
}

NULLDRV_API SQLRETURN SQL_API SQLBindCol(SQLHSTMT h, SQLUSMALLINT col,
                                         SQLSMALLINT ctype, SQLPOINTER v,
                                         SQLLEN cap, SQLLEN *ind)
{
    (void)h, (void)col, (void)ctype, (void)v, (void)cap, (void)ind;
    return SQL_ERROR;   /* SQLGetData only */
}

NULLDRV_API SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT h, SQLUSMALLINT opt)
{
    nd_handle *s = h;
    (void)opt;
    s->rows = 0;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLCloseCursor(SQLHSTMT h)
{
    nd_handle *s = h;
    s->rows = 0;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT type, SQLHANDLE h,
                                            SQLSMALLINT rec, SQLCHAR *state,
                                            SQLINTEGER *native, SQLCHAR *msg,
                                            SQLSMALLINT cap,
                                            SQLSMALLINT *len)
{
    (void)type, (void)h, (void)rec, (void)state, (void)native, (void)msg;
    (void)cap, (void)len;
    return SQL_NO_DATA;
}

NULLDRV_API SQLRETURN SQL_API SQLEndTran(SQLSMALLINT type, SQLHANDLE h,
                                         SQLSMALLINT how)
{
    (void)type, (void)h, (void)how;
    return SQL_SUCCESS;
}

NULLDRV_API SQLRETURN SQL_API SQLRowCount(SQLHSTMT h, SQLLEN *n)
{
    (void)h;
    *n = -1;
    return SQL_SUCCESS;
}
