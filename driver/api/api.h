/*
 * api.h - shared helpers of the exported entry points (api_*.c).
 *
 * Include this first in every api_*.c: it declares the ODBC headers with
 * default visibility so the SQL* definitions leave the .so while all other
 * symbols stay hidden (-fvisibility=hidden). Each export checks its
 * handle's type tag, locks, clears the handle's diagnostics, calls one
 * odbc_* function, records the return code, unlocks and returns.
 * ANSI (SQLCHAR) strings are taken and given as UTF-8.
 */
#ifndef JET_DRIVER_API_H
#define JET_DRIVER_API_H

#pragma GCC visibility push(default)
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#pragma GCC visibility pop

#include <stdlib.h>
#include <string.h>

#include "odbc_internal.h"
#include "wide.h"

/* SQLColAttribute(W)'s NumericAttribute as the platform's headers declare
 * it: SQLLEN * (unixODBC, iODBC, 64-bit Windows), SQLPOINTER in 32-bit
 * Windows' sql.h (the same 4 bytes there, as SQLLEN is 32 bits). */
#if defined(_WIN32) && !defined(_WIN64)
typedef SQLPOINTER odbc_colattr_num;
#else
typedef SQLLEN *odbc_colattr_num;
#endif

/* --- handle entry/exit (static inline: one copy per api file) --- */

static inline odbc_env *env_enter(SQLHENV h)
{
    odbc_env *e = (odbc_env *)h;
    if (!e || e->hdr.tag != ODBC_TAG_ENV)
        return NULL;
    pthread_mutex_lock(&e->lock);
    odbc_diag_clear(&e->hdr.diag);
    return e;
}

static inline SQLRETURN env_leave(odbc_env *e, SQLRETURN r)
{
    e->hdr.diag.ret = r;
    pthread_mutex_unlock(&e->lock);
    return r;
}

static inline odbc_dbc *dbc_enter(SQLHDBC h)
{
    odbc_dbc *d = (odbc_dbc *)h;
    if (!d || d->hdr.tag != ODBC_TAG_DBC)
        return NULL;
    pthread_mutex_lock(&d->lock);
    odbc_diag_clear(&d->hdr.diag);
    return d;
}

static inline SQLRETURN dbc_leave(odbc_dbc *d, SQLRETURN r)
{
    d->hdr.diag.ret = r;
    pthread_mutex_unlock(&d->lock);
    return r;
}

static inline odbc_stmt *stmt_enter(SQLHSTMT h)
{
    odbc_stmt *s = (odbc_stmt *)h;
    if (!s || s->hdr.tag != ODBC_TAG_STMT)
        return NULL;
    pthread_mutex_lock(&s->dbc->lock);
    odbc_diag_clear(&s->hdr.diag);
    return s;
}

static inline SQLRETURN stmt_leave(odbc_stmt *s, SQLRETURN r)
{
    s->hdr.diag.ret = r;
    pthread_mutex_unlock(&s->dbc->lock);
    return r;
}

/* --- input strings --- */

/** A NUL-terminated UTF-8 copy of an ANSI argument (len SQL_NTS or
 *  bytes); NULL stays NULL. *ok = 0 on allocation failure. */
static inline char *arg_a(const SQLCHAR *s, SQLINTEGER len, int *ok)
{
    *ok = 1;
    if (!s)
        return NULL;
    size_t n = len == SQL_NTS ? strlen((const char *)s)
                              : (len < 0 ? 0 : (size_t)len);
    char *p = malloc(n + 1);
    if (!p) {
        *ok = 0;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/** Same for a SQLWCHAR argument (len SQL_NTS or characters). */
static inline char *arg_w(const SQLWCHAR *s, SQLINTEGER len, int *ok)
{
    *ok = 1;
    if (!s)
        return NULL;
    return odbc_wide_to_utf8(s, len < 0 && len != SQL_NTS ? 0 : len, ok);
}

/* --- output strings: SQLSMALLINT length variants --- */

/** Write UTF-8 s to an ANSI output (buflen bytes); 01004 on truncation. */
static inline SQLRETURN out_a(odbc_diag *d, SQLCHAR *buf, SQLLEN buflen,
                              const char *s, SQLSMALLINT *outlen)
{
    SQLLEN n;
    int t = odbc_put_str(buf, buflen, s, &n);
    if (outlen)
        *outlen = (SQLSMALLINT)(n > 32767 ? 32767 : n);
    if (t && buf)
        return odbc_diag_add(d, "01004", "String data, right truncated");
    return SQL_SUCCESS;
}

/** Write UTF-8 s to a SQLWCHAR output; lengths in bytes or characters. */
static inline SQLRETURN out_w(odbc_diag *d, SQLWCHAR *buf, SQLLEN buflen,
                              const char *s, SQLSMALLINT *outlen,
                              bool in_bytes)
{
    SQLLEN n;
    int t = odbc_put_wstr(buf, buflen, s, &n, in_bytes);
    if (outlen)
        *outlen = (SQLSMALLINT)(n > 32767 ? 32767 : n);
    if (t && buf)
        return odbc_diag_add(d, "01004", "String data, right truncated");
    return SQL_SUCCESS;
}

/** Combine two return codes: error wins, then info. */
static inline SQLRETURN ret_merge(SQLRETURN a, SQLRETURN b)
{
    if (a == SQL_ERROR || b == SQL_ERROR)
        return SQL_ERROR;
    if (a == SQL_SUCCESS_WITH_INFO || b == SQL_SUCCESS_WITH_INFO)
        return SQL_SUCCESS_WITH_INFO;
    return a;
}

#endif
