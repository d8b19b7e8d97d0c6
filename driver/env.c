/*
 * env.c - environment handles and small helpers shared by the driver.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wide.h"

int odbc_buf_reserve(odbc_buf *b, size_t n)
{
    if (b->cap >= n)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < n) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

void odbc_buf_free(odbc_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

char *odbc_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

int odbc_put_str(SQLCHAR *buf, SQLLEN buflen, const char *s, SQLLEN *outlen)
{
    size_t n = s ? strlen(s) : 0;
    if (outlen)
        *outlen = (SQLLEN)n;
    if (!buf || buflen <= 0)
        return n > 0 || (buf && buflen <= 0);
    if (n < (size_t)buflen) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        return 0;
    }
    size_t cut = (size_t)buflen - 1;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    memcpy(buf, s, cut);
    buf[cut] = '\0';
    return 1;
}

int odbc_put_wstr(SQLWCHAR *buf, SQLLEN buflen, const char *s,
                  SQLLEN *outlen, bool in_bytes)
{
    size_t n = s ? strlen(s) : 0;
    size_t cap = buflen > 0 ? (size_t)buflen : 0;
    if (in_bytes)
        cap /= sizeof(SQLWCHAR);
    size_t units;
    if (buf && cap > 0)
        units = odbc_utf8_to_wide(buf, cap, s ? s : "", n);
    else
        units = odbc_utf8_wide_len(s ? s : "", n);
    if (outlen)
        *outlen = (SQLLEN)(in_bytes ? units * sizeof(SQLWCHAR) : units);
    if (!buf)
        return units > 0;
    return units >= cap;
}

SQLRETURN odbc_env_alloc(odbc_env **out)
{
    odbc_env *env = calloc(1, sizeof *env);
    *out = NULL;
    if (!env)
        return SQL_ERROR;
    env->hdr.tag = ODBC_TAG_ENV;
    env->hdr.handle_type = SQL_HANDLE_ENV;
    pthread_mutex_init(&env->lock, NULL);
    env->odbc_version = SQL_OV_ODBC3;
    env->connection_pooling = SQL_CP_OFF;
    env->cp_match = SQL_CP_STRICT_MATCH;
    *out = env;
    return SQL_SUCCESS;
}

SQLRETURN odbc_env_free(odbc_env *env)
{
    if (env->dbcs)
        return odbc_diag_add(&env->hdr.diag, "HY010",
                             "connections still allocated");
    env->hdr.tag = ODBC_TAG_DEAD;
    pthread_mutex_unlock(&env->lock);
    pthread_mutex_destroy(&env->lock);
    free(env);
    return SQL_SUCCESS;
}

SQLRETURN odbc_env_set_attr(odbc_env *env, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER len)
{
    SQLINTEGER v = (SQLINTEGER)(intptr_t)val;
    switch (attr) {
    case SQL_ATTR_ODBC_VERSION:
        if (v != SQL_OV_ODBC2 && v != SQL_OV_ODBC3 && v != SQL_OV_ODBC3_80)
            return odbc_diag_add(&env->hdr.diag, "HY024",
                                 "invalid ODBC version %d", (int)v);
        env->odbc_version = v;
        return SQL_SUCCESS;
    case SQL_ATTR_CONNECTION_POOLING:
        env->connection_pooling = v;
        return SQL_SUCCESS;
    case SQL_ATTR_CP_MATCH:
        env->cp_match = v;
        return SQL_SUCCESS;
    case SQL_ATTR_OUTPUT_NTS:
        if (v != SQL_TRUE)
            return odbc_diag_add(&env->hdr.diag, "HYC00",
                                 "only null-terminated output strings");
        return SQL_SUCCESS;
    default:
        return odbc_diag_add(&env->hdr.diag, "HY092",
                             "invalid environment attribute %d", (int)attr);
    }
}

SQLRETURN odbc_env_get_attr(odbc_env *env, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER buflen, SQLINTEGER *outlen)
{
    SQLINTEGER v;
    switch (attr) {
    case SQL_ATTR_ODBC_VERSION: v = env->odbc_version; break;
    case SQL_ATTR_CONNECTION_POOLING: v = env->connection_pooling; break;
    case SQL_ATTR_CP_MATCH: v = env->cp_match; break;
    case SQL_ATTR_OUTPUT_NTS: v = SQL_TRUE; break;
    default:
        return odbc_diag_add(&env->hdr.diag, "HY092",
                             "invalid environment attribute %d", (int)attr);
    }
    if (val)
        memcpy(val, &v, sizeof v);
    if (outlen)
        *outlen = sizeof v;
    return SQL_SUCCESS;
}
