/*
 * api_desc.c - SQLGetDescField(W), SQLSetDescField(W), SQLGetDescRec(W)
 * and SQLSetDescRec on the implicit descriptors of a statement (explicit
 * descriptors are not supported).
 */
#include "config.h"

#include "api.h"

static odbc_desc *desc_enter(SQLHDESC h)
{
    odbc_desc *d = (odbc_desc *)h;
    if (!d || d->hdr.tag != ODBC_TAG_DESC)
        return NULL;
    pthread_mutex_lock(&d->stmt->dbc->lock);
    odbc_diag_clear(&d->hdr.diag);
    return d;
}

static SQLRETURN desc_leave(odbc_desc *d, SQLRETURN r)
{
    d->hdr.diag.ret = r;
    pthread_mutex_unlock(&d->stmt->dbc->lock);
    return r;
}

/* SQLGetDescField(W): string fields as ANSI or wide (BufferLength bytes
 * either way). */
static SQLRETURN get_field(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                           SQLPOINTER val, SQLINTEGER buflen,
                           SQLINTEGER *outlen, bool wide)
{
    odbc_desc *d = desc_enter(h);
    if (!d)
        return SQL_INVALID_HANDLE;
    const char *str = NULL;
    SQLRETURN r = odbc_desc_get_field(d, rec, field, val, outlen, &str);
    if ((r == SQL_SUCCESS || r == SQL_SUCCESS_WITH_INFO) && str) {
        SQLSMALLINT n = 0;
        r = wide ? out_w(&d->hdr.diag, val, buflen, str, &n, true)
                 : out_a(&d->hdr.diag, val, buflen, str, &n);
        if (outlen)
            *outlen = n;
    }
    return desc_leave(d, r);
}

SQLRETURN SQL_API SQLGetDescField(SQLHDESC DescriptorHandle,
                                  SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier,
                                  SQLPOINTER Value, SQLINTEGER BufferLength,
                                  SQLINTEGER *StringLength)
{
    return get_field(DescriptorHandle, RecNumber, FieldIdentifier, Value,
                     BufferLength, StringLength, false);
}

SQLRETURN SQL_API SQLGetDescFieldW(SQLHDESC hdesc, SQLSMALLINT iRecord,
                                   SQLSMALLINT iField, SQLPOINTER rgbValue,
                                   SQLINTEGER cbValueMax, SQLINTEGER *pcbValue)
{
    return get_field(hdesc, iRecord, iField, rgbValue, cbValueMax, pcbValue,
                     true);
}

/* SQLSetDescField(W): the one string field accepted (a parameter's
 * SQL_DESC_NAME) is ignored, so A and W are one. */
static SQLRETURN set_field(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                           SQLPOINTER val, SQLINTEGER buflen)
{
    odbc_desc *d = desc_enter(h);
    if (!d)
        return SQL_INVALID_HANDLE;
    return desc_leave(d, odbc_desc_set_field(d, rec, field, val, buflen));
}

SQLRETURN SQL_API SQLSetDescField(SQLHDESC DescriptorHandle,
                                  SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier,
                                  SQLPOINTER Value, SQLINTEGER BufferLength)
{
    return set_field(DescriptorHandle, RecNumber, FieldIdentifier, Value,
                     BufferLength);
}

SQLRETURN SQL_API SQLSetDescFieldW(SQLHDESC DescriptorHandle,
                                   SQLSMALLINT RecNumber,
                                   SQLSMALLINT FieldIdentifier,
                                   SQLPOINTER Value, SQLINTEGER BufferLength)
{
    return set_field(DescriptorHandle, RecNumber, FieldIdentifier, Value,
                     BufferLength);
}

/* SQLGetDescRec(W): the name as ANSI (BufferLength bytes) or wide
 * (BufferLength characters). */
static SQLRETURN get_rec(SQLHDESC h, SQLSMALLINT rec, SQLPOINTER name,
                         SQLSMALLINT buflen, SQLSMALLINT *name_len,
                         SQLSMALLINT *type, SQLSMALLINT *subtype,
                         SQLLEN *length, SQLSMALLINT *precision,
                         SQLSMALLINT *scale, SQLSMALLINT *nullable, bool wide)
{
    odbc_desc *d = desc_enter(h);
    if (!d)
        return SQL_INVALID_HANDLE;
    const char *str = "";
    SQLRETURN r = odbc_desc_get_rec(d, rec, &str, type, subtype, length,
                                    precision, scale, nullable);
    if (r == SQL_SUCCESS && buflen < 0)
        r = odbc_diag_add(&d->hdr.diag, "HY090", "Invalid string or "
                          "buffer length");
    else if (r == SQL_SUCCESS)
        r = wide ? out_w(&d->hdr.diag, name, buflen, str, name_len, false)
                 : out_a(&d->hdr.diag, name, buflen, str, name_len);
    return desc_leave(d, r);
}

SQLRETURN SQL_API SQLGetDescRec(SQLHDESC DescriptorHandle,
                                SQLSMALLINT RecNumber, SQLCHAR *Name,
                                SQLSMALLINT BufferLength,
                                SQLSMALLINT *StringLength, SQLSMALLINT *Type,
                                SQLSMALLINT *SubType, SQLLEN *Length,
                                SQLSMALLINT *Precision, SQLSMALLINT *Scale,
                                SQLSMALLINT *Nullable)
{
    return get_rec(DescriptorHandle, RecNumber, Name, BufferLength,
                   StringLength, Type, SubType, Length, Precision, Scale,
                   Nullable, false);
}

SQLRETURN SQL_API SQLGetDescRecW(SQLHDESC DescriptorHandle,
                                 SQLSMALLINT RecNumber, SQLWCHAR *Name,
                                 SQLSMALLINT BufferLength,
                                 SQLSMALLINT *StringLength, SQLSMALLINT *Type,
                                 SQLSMALLINT *SubType, SQLLEN *Length,
                                 SQLSMALLINT *Precision, SQLSMALLINT *Scale,
                                 SQLSMALLINT *Nullable)
{
    return get_rec(DescriptorHandle, RecNumber, Name, BufferLength,
                   StringLength, Type, SubType, Length, Precision, Scale,
                   Nullable, true);
}

/* No W variant: SQLSetDescRec takes no strings. */
SQLRETURN SQL_API SQLSetDescRec(SQLHDESC DescriptorHandle,
                                SQLSMALLINT RecNumber, SQLSMALLINT Type,
                                SQLSMALLINT SubType, SQLLEN Length,
                                SQLSMALLINT Precision, SQLSMALLINT Scale,
                                SQLPOINTER Data, SQLLEN *StringLength,
                                SQLLEN *Indicator)
{
    odbc_desc *d = desc_enter(DescriptorHandle);
    if (!d)
        return SQL_INVALID_HANDLE;
    return desc_leave(d, odbc_desc_set_rec(d, RecNumber, Type, SubType,
                                           Length, Precision, Scale, Data,
                                           StringLength, Indicator));
}

/* SQLCopyDesc: the two descriptors may belong to statements of different
 * connections; both locks are taken in address order. Diagnostics go to
 * the target. */
SQLRETURN SQL_API SQLCopyDesc(SQLHDESC SourceDescHandle,
                              SQLHDESC TargetDescHandle)
{
    odbc_desc *src = (odbc_desc *)SourceDescHandle;
    odbc_desc *dst = (odbc_desc *)TargetDescHandle;
    if (!src || src->hdr.tag != ODBC_TAG_DESC || !dst ||
        dst->hdr.tag != ODBC_TAG_DESC)
        return SQL_INVALID_HANDLE;
    pthread_mutex_t *a = &src->stmt->dbc->lock, *b = &dst->stmt->dbc->lock;
    if (a == b) {
        pthread_mutex_lock(a);
    } else {
        pthread_mutex_lock((uintptr_t)a < (uintptr_t)b ? a : b);
        pthread_mutex_lock((uintptr_t)a < (uintptr_t)b ? b : a);
    }
    odbc_diag_clear(&dst->hdr.diag);
    SQLRETURN r = odbc_desc_copy(src, dst);
    dst->hdr.diag.ret = r;
    pthread_mutex_unlock(a);
    if (a != b)
        pthread_mutex_unlock(b);
    return r;
}
