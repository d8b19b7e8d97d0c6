/*
 * desc.c - the implicit descriptors of a statement (ARD, APD, IRD, IPD)
 * seen through SQLGetDescField/SQLSetDescField.
 *
 * There is no separate descriptor storage: the ARD is the statement's
 * bindings and rowset attributes, the IRD its result columns (the same
 * answers as SQLColAttribute). Parameter descriptors are empty (no
 * parameters yet). Field types: ODBC 3.x SQLSetDescField reference.
 */
#include "config.h"

#include "convert.h"
#include "odbc_internal.h"

#include <string.h>

#define DIAG(d) (&(d)->hdr.diag)

/* Size in bytes of a numeric descriptor field's value. */
static size_t field_size(SQLSMALLINT field)
{
    switch (field) {
    case SQL_DESC_ARRAY_SIZE: case SQL_DESC_DISPLAY_SIZE:
    case SQL_DESC_LENGTH: case SQL_DESC_OCTET_LENGTH:
    case SQL_DESC_ARRAY_STATUS_PTR: case SQL_DESC_BIND_OFFSET_PTR:
    case SQL_DESC_ROWS_PROCESSED_PTR: case SQL_DESC_DATA_PTR:
    case SQL_DESC_INDICATOR_PTR: case SQL_DESC_OCTET_LENGTH_PTR:
        return 8;
    case SQL_DESC_BIND_TYPE: case SQL_DESC_AUTO_UNIQUE_VALUE:
    case SQL_DESC_CASE_SENSITIVE: case SQL_DESC_NUM_PREC_RADIX:
    case SQL_DESC_DATETIME_INTERVAL_PRECISION:
        return 4;
    default:
        return 2;
    }
}

static void put_num(SQLPOINTER val, SQLINTEGER *outlen, SQLSMALLINT field,
                    int64_t v)
{
    size_t n = field_size(field);
    if (val) {
        if (n == 8) {
            SQLLEN x = (SQLLEN)v;
            memcpy(val, &x, 8);
        } else if (n == 4) {
            SQLINTEGER x = (SQLINTEGER)v;
            memcpy(val, &x, 4);
        } else {
            SQLSMALLINT x = (SQLSMALLINT)v;
            memcpy(val, &x, 2);
        }
    }
    if (outlen)
        *outlen = (SQLINTEGER)n;
}

static void put_ptr(SQLPOINTER val, SQLINTEGER *outlen, const void *p)
{
    if (val)
        memcpy(val, &p, sizeof p);
    if (outlen)
        *outlen = sizeof p;
}

SQLRETURN odbc_desc_get_field(odbc_desc *d, SQLSMALLINT rec,
                              SQLSMALLINT field, SQLPOINTER val,
                              SQLINTEGER *outlen, const char **str)
{
    odbc_stmt *s = d->stmt;
    *str = NULL;
    if (field == SQL_DESC_ALLOC_TYPE) {
        put_num(val, outlen, field, SQL_DESC_ALLOC_AUTO);
        return SQL_SUCCESS;
    }
    switch (d->kind) {
    case SQL_ATTR_APP_ROW_DESC:
        switch (field) {
        case SQL_DESC_ARRAY_SIZE:
            put_num(val, outlen, field, (int64_t)s->row_array_size);
            return SQL_SUCCESS;
        case SQL_DESC_BIND_TYPE:
            put_num(val, outlen, field, (int64_t)s->row_bind_type);
            return SQL_SUCCESS;
        case SQL_DESC_BIND_OFFSET_PTR:
            put_ptr(val, outlen, s->bind_offset_ptr);
            return SQL_SUCCESS;
        case SQL_DESC_ARRAY_STATUS_PTR:
            put_ptr(val, outlen, NULL);
            return SQL_SUCCESS;
        case SQL_DESC_COUNT: {
            int n = s->nbinds;
            while (n > 0 && s->binds[n - 1].c_type == 0)
                n--;
            put_num(val, outlen, field, n);
            return SQL_SUCCESS;
        }
        default:
            break;
        }
        if (rec < 1)
            return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index");
        odbc_binding b;
        memset(&b, 0, sizeof b);
        if (rec <= s->nbinds)
            b = s->binds[rec - 1];
        switch (field) {
        case SQL_DESC_TYPE: case SQL_DESC_CONCISE_TYPE:
            put_num(val, outlen, field, b.c_type ? b.c_type : SQL_C_DEFAULT);
            return SQL_SUCCESS;
        case SQL_DESC_DATA_PTR:
            put_ptr(val, outlen, b.ptr);
            return SQL_SUCCESS;
        case SQL_DESC_INDICATOR_PTR: case SQL_DESC_OCTET_LENGTH_PTR:
            put_ptr(val, outlen, b.ind);
            return SQL_SUCCESS;
        case SQL_DESC_OCTET_LENGTH: case SQL_DESC_LENGTH:
            put_num(val, outlen, field, b.buflen);
            return SQL_SUCCESS;
        case SQL_DESC_PRECISION:
            put_num(val, outlen, field,
                    b.precision ? b.precision
                    : b.c_type == SQL_C_NUMERIC
                        ? ODBC_NUMERIC_DEFAULT_PRECISION : 0);
            return SQL_SUCCESS;
        case SQL_DESC_SCALE:
            put_num(val, outlen, field, b.scale);
            return SQL_SUCCESS;
        case SQL_DESC_DATETIME_INTERVAL_CODE:
            put_num(val, outlen, field, 0);
            return SQL_SUCCESS;
        default:
            return odbc_diag_add(DIAG(d), "HY091", "Invalid descriptor field "
                                 "identifier %d", (int)field);
        }
    case SQL_ATTR_IMP_ROW_DESC:
        switch (field) {
        case SQL_DESC_ARRAY_STATUS_PTR:
            put_ptr(val, outlen, s->row_status_ptr);
            return SQL_SUCCESS;
        case SQL_DESC_ROWS_PROCESSED_PTR:
            put_ptr(val, outlen, s->rows_fetched_ptr);
            return SQL_SUCCESS;
        case SQL_DESC_COUNT:
            put_num(val, outlen, field, s->ncols);
            return SQL_SUCCESS;
        default:
            break;
        }
        if (rec < 1 || rec > s->ncols)
            return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index");
        if (field == SQL_DESC_DATA_PTR || field == SQL_DESC_INDICATOR_PTR ||
            field == SQL_DESC_OCTET_LENGTH_PTR) {
            put_ptr(val, outlen, NULL);
            return SQL_SUCCESS;
        }
        if (field == SQL_DESC_ROWVER) {
            put_num(val, outlen, field, SQL_FALSE);
            return SQL_SUCCESS;
        }
        {
            SQLLEN num = 0;
            SQLRETURN r = odbc_stmt_col_attribute(s, (SQLUSMALLINT)rec,
                                                  (SQLUSMALLINT)field, str,
                                                  &num);
            if (r == SQL_ERROR) {
                /* the record went to the statement; repeat it here */
                odbc_diag *sd = &s->hdr.diag;
                if (sd->count > 0 && DIAG(d)->count < ODBC_DIAG_MAX)
                    DIAG(d)->rec[DIAG(d)->count++] = sd->rec[--sd->count];
                return SQL_ERROR;
            }
            if (!*str)
                put_num(val, outlen, field, num);
            return r;
        }
    default:    /* APD, IPD: no parameters */
        if (field == SQL_DESC_COUNT) {
            put_num(val, outlen, field, 0);
            return SQL_SUCCESS;
        }
        if (field == SQL_DESC_ARRAY_SIZE) {
            put_num(val, outlen, field, 1);
            return SQL_SUCCESS;
        }
        if (rec >= 1)
            return SQL_NO_DATA;
        return odbc_diag_add(DIAG(d), "HYC00", "Parameters are not supported");
    }
}

SQLRETURN odbc_desc_set_field(odbc_desc *d, SQLSMALLINT rec,
                              SQLSMALLINT field, SQLPOINTER val,
                              SQLINTEGER len)
{
    odbc_stmt *s = d->stmt;
    if (d->kind == SQL_ATTR_IMP_ROW_DESC)
        return odbc_diag_add(DIAG(d), "HY016", "Cannot modify an "
                             "implementation row descriptor");
    if (d->kind != SQL_ATTR_APP_ROW_DESC)
        return odbc_diag_add(DIAG(d), "HYC00", "Parameters are not supported");
    switch (field) {
    case SQL_DESC_ARRAY_SIZE:
        return odbc_stmt_set_attr(s, SQL_ATTR_ROW_ARRAY_SIZE, val, len);
    case SQL_DESC_BIND_TYPE:
        return odbc_stmt_set_attr(s, SQL_ATTR_ROW_BIND_TYPE, val, len);
    case SQL_DESC_BIND_OFFSET_PTR:
        return odbc_stmt_set_attr(s, SQL_ATTR_ROW_BIND_OFFSET_PTR, val, len);
    case SQL_DESC_ARRAY_STATUS_PTR:
        return SQL_SUCCESS;     /* row operation array: nothing to operate */
    case SQL_DESC_COUNT: {
        SQLSMALLINT n = (SQLSMALLINT)(intptr_t)val;
        for (int i = n; i < s->nbinds; i++)
            memset(&s->binds[i], 0, sizeof s->binds[i]);
        return SQL_SUCCESS;
    }
    default:
        break;
    }
    if (rec < 1)
        return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index");
    /* make sure the binding exists, keeping its other fields */
    if (rec > s->nbinds) {
        SQLRETURN r = odbc_stmt_bind_col(s, (SQLUSMALLINT)rec, SQL_C_DEFAULT,
                                         NULL, 0, NULL);
        if (!SQL_SUCCEEDED(r))
            return r;
        if (rec > s->nbinds) {
            /* bind_col ignores an all-NULL binding of a new column */
            SQLLEN dummy;
            r = odbc_stmt_bind_col(s, (SQLUSMALLINT)rec, SQL_C_DEFAULT, NULL,
                                   0, &dummy);
            if (!SQL_SUCCEEDED(r))
                return r;
            s->binds[rec - 1].ind = NULL;
        }
    }
    odbc_binding *b = &s->binds[rec - 1];
    switch (field) {
    case SQL_DESC_TYPE: case SQL_DESC_CONCISE_TYPE:
        b->c_type = (SQLSMALLINT)(intptr_t)val;
        b->precision = 0;       /* setting the type resets them */
        b->scale = 0;
        return SQL_SUCCESS;
    case SQL_DESC_DATA_PTR:
        b->ptr = val;
        if (b->c_type == 0)
            b->c_type = SQL_C_DEFAULT;
        return SQL_SUCCESS;
    case SQL_DESC_INDICATOR_PTR: case SQL_DESC_OCTET_LENGTH_PTR:
        b->ind = val;
        if (b->c_type == 0)
            b->c_type = SQL_C_DEFAULT;
        return SQL_SUCCESS;
    case SQL_DESC_OCTET_LENGTH:
        b->buflen = (SQLLEN)(intptr_t)val;
        return SQL_SUCCESS;
    case SQL_DESC_PRECISION:
        b->precision = (SQLSMALLINT)(intptr_t)val;
        return SQL_SUCCESS;
    case SQL_DESC_SCALE:
        b->scale = (SQLSMALLINT)(intptr_t)val;
        return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_CODE: case SQL_DESC_LENGTH:
        return SQL_SUCCESS;
    default:
        return odbc_diag_add(DIAG(d), "HY091", "Invalid descriptor field "
                             "identifier %d", (int)field);
    }
}
