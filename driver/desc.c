/*
 * desc.c - the implicit descriptors of a statement (ARD, APD, IRD, IPD)
 * seen through SQLGetDescField/SQLSetDescField.
 *
 * There is no separate descriptor storage: the ARD is the statement's
 * bindings and rowset attributes, the IRD its result columns (the same
 * answers as SQLColAttribute), the APD and IPD its parameter records
 * (odbc_param: SQLBindParameter fills both halves, SQLSetDescField either
 * field by field, as Microsoft's SQL_C_NUMERIC example does with the
 * APD's TYPE, PRECISION, SCALE and DATA_PTR). Field types: ODBC 3.x
 * SQLSetDescField reference. SQLCopyDesc copies between any two of them
 * (of any statements) but into an IRD.
 */
#include "config.h"

#include "convert.h"
#include "odbc_internal.h"

#include <stdlib.h>
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
        return sizeof(SQLLEN);      /* 4 on 32-bit Windows */
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
        if (n == sizeof(SQLLEN) && n != sizeof(SQLINTEGER)) {
            SQLLEN x = (SQLLEN)v;
            memcpy(val, &x, sizeof x);
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

static bool is_dt(SQLSMALLINT t)
{
    return t == SQL_TYPE_DATE || t == SQL_TYPE_TIME ||
           t == SQL_TYPE_TIMESTAMP || t == SQL_C_TYPE_DATE ||
           t == SQL_C_TYPE_TIME || t == SQL_C_TYPE_TIMESTAMP;
}

/* SQL_DESC_TYPE of a concise type: SQL_DATETIME for the date types. */
static SQLSMALLINT verbose_type(SQLSMALLINT t)
{
    return is_dt(t) ? SQL_DATETIME : t;
}

static SQLSMALLINT interval_code(SQLSMALLINT t)
{
    switch (t) {
    case SQL_TYPE_DATE: return SQL_CODE_DATE;
    case SQL_TYPE_TIME: return SQL_CODE_TIME;
    case SQL_TYPE_TIMESTAMP: return SQL_CODE_TIMESTAMP;
    default: return 0;
    }
}

/* The concise type a (TYPE, DATETIME_INTERVAL_CODE) pair names. */
static SQLSMALLINT concise_of(SQLSMALLINT type, SQLSMALLINT code)
{
    if (type != SQL_DATETIME)
        return type;
    return code == SQL_CODE_DATE ? SQL_TYPE_DATE
         : code == SQL_CODE_TIME ? SQL_TYPE_TIME : SQL_TYPE_TIMESTAMP;
}

/* APD/IPD fields of the statement's parameters. */
static SQLRETURN param_get(odbc_desc *d, SQLSMALLINT rec, SQLSMALLINT field,
                           SQLPOINTER val, SQLINTEGER *outlen,
                           const char **str)
{
    odbc_stmt *s = d->stmt;
    bool apd = d->kind == SQL_ATTR_APP_PARAM_DESC;
    switch (field) {
    case SQL_DESC_COUNT: {
        int n = s->nparams_bound;
        while (n > 0 && s->params[n - 1].c_type == 0 &&
               s->params[n - 1].sql_type == 0)
            n--;
        put_num(val, outlen, field, n);
        return SQL_SUCCESS;
    }
    case SQL_DESC_ARRAY_SIZE:
        if (!apd)
            break;
        put_num(val, outlen, field, (int64_t)s->paramset_size);
        return SQL_SUCCESS;
    case SQL_DESC_BIND_TYPE:
        if (!apd)
            break;
        put_num(val, outlen, field, (int64_t)s->pset.bind_type);
        return SQL_SUCCESS;
    case SQL_DESC_BIND_OFFSET_PTR:
        if (!apd)
            break;
        put_ptr(val, outlen, s->pset.bind_offset_ptr);
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_STATUS_PTR:     /* APD: operations, IPD: status */
        put_ptr(val, outlen, apd ? (void *)s->pset.operation_ptr
                                 : (void *)s->pset.status_ptr);
        return SQL_SUCCESS;
    case SQL_DESC_ROWS_PROCESSED_PTR:
        if (apd)
            break;
        put_ptr(val, outlen, s->pset.processed_ptr);
        return SQL_SUCCESS;
    default:
        if (rec < 1)
            return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor "
                                 "index %d", (int)rec);
        if (rec > s->nparams_bound)
            return SQL_NO_DATA;
        const odbc_param *p = &s->params[rec - 1];
        if (apd) {
            SQLSMALLINT ct = p->c_type ? p->c_type : SQL_C_DEFAULT;
            switch (field) {
            case SQL_DESC_CONCISE_TYPE:
                put_num(val, outlen, field, ct); return SQL_SUCCESS;
            case SQL_DESC_TYPE:
                put_num(val, outlen, field, verbose_type(ct));
                return SQL_SUCCESS;
            case SQL_DESC_DATETIME_INTERVAL_CODE:
                put_num(val, outlen, field, interval_code(ct));
                return SQL_SUCCESS;
            case SQL_DESC_DATA_PTR:
                put_ptr(val, outlen, p->ptr); return SQL_SUCCESS;
            case SQL_DESC_INDICATOR_PTR:
                put_ptr(val, outlen, p->ind); return SQL_SUCCESS;
            case SQL_DESC_OCTET_LENGTH_PTR:
                put_ptr(val, outlen, p->len_ptr); return SQL_SUCCESS;
            case SQL_DESC_OCTET_LENGTH: case SQL_DESC_LENGTH:
                put_num(val, outlen, field, p->buflen); return SQL_SUCCESS;
            case SQL_DESC_PRECISION:
                put_num(val, outlen, field, p->num_precision);
                return SQL_SUCCESS;
            case SQL_DESC_SCALE:
                put_num(val, outlen, field, p->num_scale);
                return SQL_SUCCESS;
            default:
                break;
            }
        } else {
            SQLSMALLINT t = p->sql_type;
            switch (field) {
            case SQL_DESC_CONCISE_TYPE:
                put_num(val, outlen, field, t); return SQL_SUCCESS;
            case SQL_DESC_TYPE:
                put_num(val, outlen, field, verbose_type(t));
                return SQL_SUCCESS;
            case SQL_DESC_DATETIME_INTERVAL_CODE:
                put_num(val, outlen, field, interval_code(t));
                return SQL_SUCCESS;
            case SQL_DESC_LENGTH:
                put_num(val, outlen, field, (int64_t)p->column_size);
                return SQL_SUCCESS;
            case SQL_DESC_PRECISION:
                put_num(val, outlen, field, is_dt(t) ? p->decimal_digits
                                                     : (int64_t)p->column_size);
                return SQL_SUCCESS;
            case SQL_DESC_SCALE:
                put_num(val, outlen, field, p->decimal_digits);
                return SQL_SUCCESS;
            case SQL_DESC_OCTET_LENGTH:
                put_num(val, outlen, field, p->buflen); return SQL_SUCCESS;
            case SQL_DESC_PARAMETER_TYPE:
                put_num(val, outlen, field, p->io_type ? p->io_type
                                                       : SQL_PARAM_INPUT);
                return SQL_SUCCESS;
            case SQL_DESC_NULLABLE:
                put_num(val, outlen, field, SQL_NULLABLE);
                return SQL_SUCCESS;
            case SQL_DESC_UNNAMED:
                put_num(val, outlen, field, SQL_UNNAMED);
                return SQL_SUCCESS;
            case SQL_DESC_NAME:
                *str = "";
                return SQL_SUCCESS;
            case SQL_DESC_FIXED_PREC_SCALE: case SQL_DESC_CASE_SENSITIVE:
                put_num(val, outlen, field, SQL_FALSE);
                return SQL_SUCCESS;
            case SQL_DESC_UNSIGNED:
                put_num(val, outlen, field, SQL_FALSE);
                return SQL_SUCCESS;
            default:
                break;
            }
        }
        break;
    }
    return odbc_diag_add(DIAG(d), "HY091", "Invalid descriptor field "
                         "identifier %d", (int)field);
}

/* SQLSetDescField on the APD or IPD. */
static SQLRETURN param_set(odbc_desc *d, SQLSMALLINT rec, SQLSMALLINT field,
                           SQLPOINTER val)
{
    odbc_stmt *s = d->stmt;
    bool apd = d->kind == SQL_ATTR_APP_PARAM_DESC;
    intptr_t iv = (intptr_t)val;
    switch (field) {
    case SQL_DESC_COUNT:
        if (iv < 0)
            return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor "
                                 "index %ld", (long)iv);
        if (iv < s->nparams_bound) {
            memset(s->params + iv, 0,
                   (size_t)(s->nparams_bound - iv) * sizeof *s->params);
            s->nparams_bound = (uint16_t)iv;
        } else if (iv > 0 && !odbc_stmt_param_at(s, (SQLSMALLINT)iv)) {
            goto from_stmt;
        }
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_SIZE:
        if (!apd)
            break;
        return odbc_stmt_set_attr(s, SQL_ATTR_PARAMSET_SIZE, val, 0);
    case SQL_DESC_BIND_TYPE:
        if (!apd)
            break;
        return odbc_stmt_set_attr(s, SQL_ATTR_PARAM_BIND_TYPE, val, 0);
    case SQL_DESC_BIND_OFFSET_PTR:
        if (!apd)
            break;
        return odbc_stmt_set_attr(s, SQL_ATTR_PARAM_BIND_OFFSET_PTR, val, 0);
    case SQL_DESC_ARRAY_STATUS_PTR:     /* APD: operations, IPD: status */
        return odbc_stmt_set_attr(s, apd ? SQL_ATTR_PARAM_OPERATION_PTR
                                         : SQL_ATTR_PARAM_STATUS_PTR, val, 0);
    case SQL_DESC_ROWS_PROCESSED_PTR:
        if (apd)
            break;
        return odbc_stmt_set_attr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, val, 0);
    default:
        break;
    }
    if (rec < 1 || rec > 4096)
        return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index %d",
                             (int)rec);
    odbc_param *p = odbc_stmt_param_at(s, rec);
    if (!p)
        goto from_stmt;
    SQLSMALLINT t = (SQLSMALLINT)iv;
    if (apd) {
        switch (field) {
        case SQL_DESC_TYPE: case SQL_DESC_CONCISE_TYPE:
            if (field == SQL_DESC_TYPE && t == SQL_DATETIME)
                t = SQL_C_TYPE_TIMESTAMP;
            if (!odbc_ctype_valid(t))
                return odbc_diag_add(DIAG(d), "HY003", "Invalid application "
                                     "buffer type %d", (int)t);
            p->c_type = t;
            /* setting the type resets precision and scale (spec) */
            p->num_precision = t == SQL_C_NUMERIC
                                   ? ODBC_NUMERIC_DEFAULT_PRECISION : 0;
            p->num_scale = 0;
            p->num_scale_set = false;
            return SQL_SUCCESS;
        case SQL_DESC_DATETIME_INTERVAL_CODE:
            if (p->c_type == SQL_C_TYPE_TIMESTAMP || p->c_type == 0 ||
                is_dt(p->c_type))
                p->c_type = concise_of(SQL_DATETIME, t) == SQL_TYPE_DATE
                    ? SQL_C_TYPE_DATE
                    : concise_of(SQL_DATETIME, t) == SQL_TYPE_TIME
                    ? SQL_C_TYPE_TIME : SQL_C_TYPE_TIMESTAMP;
            return SQL_SUCCESS;
        case SQL_DESC_DATA_PTR:
            p->ptr = val;
            if (p->c_type == 0)
                p->c_type = SQL_C_DEFAULT;
            /* the consistency check of a numeric record (HY021) */
            if (val && p->c_type == SQL_C_NUMERIC &&
                (p->num_precision < 1 || p->num_precision > 38 ||
                 p->num_scale > p->num_precision))
                return odbc_diag_add(DIAG(d), "HY021", "Inconsistent "
                                     "descriptor information (precision %d, "
                                     "scale %d)", (int)p->num_precision,
                                     (int)p->num_scale);
            return SQL_SUCCESS;
        case SQL_DESC_INDICATOR_PTR:
            p->ind = val;
            return SQL_SUCCESS;
        case SQL_DESC_OCTET_LENGTH_PTR:
            p->len_ptr = val;
            return SQL_SUCCESS;
        case SQL_DESC_OCTET_LENGTH: case SQL_DESC_LENGTH:
            if (iv < 0)
                return odbc_diag_add(DIAG(d), "HY090", "Invalid buffer "
                                     "length");
            p->buflen = (SQLLEN)iv;
            return SQL_SUCCESS;
        case SQL_DESC_PRECISION:
            p->num_precision = t;
            return SQL_SUCCESS;
        case SQL_DESC_SCALE:
            p->num_scale = t;
            p->num_scale_set = true;
            return SQL_SUCCESS;
        default:
            break;
        }
    } else {
        switch (field) {
        case SQL_DESC_TYPE: case SQL_DESC_CONCISE_TYPE:
            if (field == SQL_DESC_TYPE && t == SQL_DATETIME)
                t = SQL_TYPE_TIMESTAMP;
            if (!odbc_sqltype_valid(t))
                return odbc_diag_add(DIAG(d), "HY004", "Invalid SQL data "
                                     "type %d", (int)t);
            p->sql_type = t;
            if (p->io_type == 0)
                p->io_type = SQL_PARAM_INPUT;
            return SQL_SUCCESS;
        case SQL_DESC_DATETIME_INTERVAL_CODE:
            if (p->sql_type == 0 || is_dt(p->sql_type))
                p->sql_type = concise_of(SQL_DATETIME, t);
            return SQL_SUCCESS;
        case SQL_DESC_LENGTH:
            p->column_size = (SQLULEN)iv;
            return SQL_SUCCESS;
        case SQL_DESC_PRECISION:
            if (is_dt(p->sql_type))
                p->decimal_digits = t;
            else
                p->column_size = (SQLULEN)iv;
            return SQL_SUCCESS;
        case SQL_DESC_SCALE:
            p->decimal_digits = t;
            return SQL_SUCCESS;
        case SQL_DESC_PARAMETER_TYPE:
            if (t != SQL_PARAM_INPUT)
                return odbc_diag_add(DIAG(d), "HY105", "Invalid parameter "
                                     "type: only input parameters are "
                                     "supported");
            p->io_type = t;
            return SQL_SUCCESS;
        case SQL_DESC_NAME: case SQL_DESC_UNNAMED: case SQL_DESC_NULLABLE:
            return SQL_SUCCESS;     /* named parameters: not used */
        case SQL_DESC_OCTET_LENGTH:
            return SQL_SUCCESS;
        default:
            break;
        }
    }
    return odbc_diag_add(DIAG(d), "HY091", "Invalid descriptor field "
                         "identifier %d", (int)field);
from_stmt:
    {
        /* the record went to the statement; repeat it here */
        odbc_diag *sd = &s->hdr.diag;
        if (sd->count > 0 && DIAG(d)->count < ODBC_DIAG_MAX)
            DIAG(d)->rec[DIAG(d)->count++] = sd->rec[--sd->count];
        return SQL_ERROR;
    }
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
        SQLSMALLINT ct = b.c_type ? b.c_type : SQL_C_DEFAULT;
        switch (field) {
        case SQL_DESC_CONCISE_TYPE:
            put_num(val, outlen, field, ct);
            return SQL_SUCCESS;
        case SQL_DESC_TYPE:
            put_num(val, outlen, field, verbose_type(ct));
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
            put_num(val, outlen, field, interval_code(ct));
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
    default:    /* APD, IPD: the statement's parameter records */
        return param_get(d, rec, field, val, outlen, str);
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
        return param_set(d, rec, field, val);
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
        s->binds_gen++;
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
    SQLSMALLINT t = (SQLSMALLINT)(intptr_t)val;
    s->binds_gen++;             /* any field below may change it */
    switch (field) {
    case SQL_DESC_TYPE: case SQL_DESC_CONCISE_TYPE:
        /* the verbose SQL_DATETIME (9, also ODBC 2's SQL_C_DATE): a
         * timestamp until DATETIME_INTERVAL_CODE says which */
        if (field == SQL_DESC_TYPE && t == SQL_DATETIME)
            t = SQL_C_TYPE_TIMESTAMP;
        if (!odbc_ctype_valid(t))
            return odbc_diag_add(DIAG(d), "HY003", "Invalid application "
                                 "buffer type %d", (int)t);
        b->c_type = t;
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
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        if (is_dt(b->c_type) || b->c_type == SQL_C_DATE ||
            b->c_type == SQL_C_TIME || b->c_type == SQL_C_TIMESTAMP) {
            SQLSMALLINT c = concise_of(SQL_DATETIME, t);
            b->c_type = c == SQL_TYPE_DATE ? SQL_C_TYPE_DATE
                      : c == SQL_TYPE_TIME ? SQL_C_TYPE_TIME
                                           : SQL_C_TYPE_TIMESTAMP;
        }
        return SQL_SUCCESS;
    case SQL_DESC_LENGTH:
        return SQL_SUCCESS;
    default:
        return odbc_diag_add(DIAG(d), "HY091", "Invalid descriptor field "
                             "identifier %d", (int)field);
    }
}

/* ------------------------------------------------------ whole records */

/* A numeric field of record rec, read through odbc_desc_get_field. */
static SQLRETURN rec_num(odbc_desc *d, SQLSMALLINT rec, SQLSMALLINT field,
                         int64_t *out)
{
    union { SQLLEN l; SQLINTEGER i; SQLSMALLINT h; } u;
    const char *str = NULL;
    memset(&u, 0, sizeof u);
    *out = 0;
    SQLRETURN r = odbc_desc_get_field(d, rec, field, &u, NULL, &str);
    if (SQL_SUCCEEDED(r)) {
        size_t n = field_size(field);
        *out = n == sizeof(SQLLEN) ? (int64_t)u.l
             : n == 4 ? (int64_t)u.i : (int64_t)u.h;
    }
    return r;
}

SQLRETURN odbc_desc_get_rec(odbc_desc *d, SQLSMALLINT rec, const char **name,
                            SQLSMALLINT *type, SQLSMALLINT *subtype,
                            SQLLEN *length, SQLSMALLINT *precision,
                            SQLSMALLINT *scale, SQLSMALLINT *nullable)
{
    static const SQLSMALLINT fields[] = {
        SQL_DESC_TYPE, SQL_DESC_DATETIME_INTERVAL_CODE, SQL_DESC_OCTET_LENGTH,
        SQL_DESC_PRECISION, SQL_DESC_SCALE, SQL_DESC_NULLABLE,
    };
    bool imp = d->kind == SQL_ATTR_IMP_ROW_DESC ||
               d->kind == SQL_ATTR_IMP_PARAM_DESC;
    int64_t v[6] = { 0, 0, 0, 0, 0, SQL_NULLABLE_UNKNOWN }, count;
    SQLRETURN r;

    *name = "";
    if (rec < 1)
        return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index %d"
                             "%s", (int)rec, rec == 0 ? " (record 0 is the "
                             "bookmark record; bookmarks are not supported)"
                             : "");
    if (d->kind == SQL_ATTR_IMP_ROW_DESC && d->stmt->state == STMT_ALLOCATED)
        return odbc_diag_add(DIAG(d), "HY007", "Associated statement is not "
                             "prepared");
    if ((r = rec_num(d, 0, SQL_DESC_COUNT, &count)) != SQL_SUCCESS)
        return r;
    if (rec > count)
        return SQL_NO_DATA;
    /* NULLABLE (and NAME) are fields of implementation descriptors only */
    for (size_t i = 0; i < (imp ? 6u : 5u); i++)
        if (!SQL_SUCCEEDED(r = rec_num(d, rec, fields[i], &v[i])))
            return r;
    if (imp && !SQL_SUCCEEDED(r = odbc_desc_get_field(d, rec, SQL_DESC_NAME,
                                                      NULL, NULL, name)))
        return r;
    if (!*name)
        *name = "";
    if (type)
        *type = (SQLSMALLINT)v[0];
    if (subtype)
        *subtype = (SQLSMALLINT)v[1];
    if (length)
        *length = (SQLLEN)v[2];
    if (precision)
        *precision = (SQLSMALLINT)v[3];
    if (scale)
        *scale = (SQLSMALLINT)v[4];
    if (nullable)
        *nullable = (SQLSMALLINT)v[5];
    return SQL_SUCCESS;
}

SQLRETURN odbc_desc_set_rec(odbc_desc *d, SQLSMALLINT rec, SQLSMALLINT type,
                            SQLSMALLINT subtype, SQLLEN length,
                            SQLSMALLINT precision, SQLSMALLINT scale,
                            SQLPOINTER data, SQLLEN *length_ptr,
                            SQLLEN *indicator_ptr)
{
    SQLRETURN r;
    if (d->kind == SQL_ATTR_IMP_ROW_DESC)
        return odbc_diag_add(DIAG(d), "HY016", "Cannot modify an "
                             "implementation row descriptor");
    if (rec < 1)
        return odbc_diag_add(DIAG(d), "07009", "Invalid descriptor index %d"
                             "%s", (int)rec, rec == 0 ? " (record 0 is the "
                             "bookmark record; bookmarks are not supported)"
                             : "");
    /* a column has one length/indicator buffer here */
    if (d->kind == SQL_ATTR_APP_ROW_DESC && length_ptr && indicator_ptr &&
        length_ptr != indicator_ptr)
        return odbc_diag_add(DIAG(d), "HYC00", "Optional feature not "
                             "implemented: separate length and indicator "
                             "buffers for a column");
#define SET(field, value) \
    if (!SQL_SUCCEEDED(r = odbc_desc_set_field( \
            d, rec, field, (SQLPOINTER)(intptr_t)(value), 0))) \
        return r
    /* the order of the SQLSetDescRec reference; the data pointer last, so
     * that its consistency check sees the whole record */
    SET(SQL_DESC_TYPE, type);
    if (type == SQL_DATETIME)
        SET(SQL_DESC_DATETIME_INTERVAL_CODE, subtype);
    SET(SQL_DESC_OCTET_LENGTH, length);
    SET(SQL_DESC_PRECISION, precision);
    SET(SQL_DESC_SCALE, scale);
    if (d->kind == SQL_ATTR_IMP_PARAM_DESC)
        return SQL_SUCCESS;     /* no buffers in an IPD */
    if (d->kind == SQL_ATTR_APP_ROW_DESC) {
        SET(SQL_DESC_INDICATOR_PTR, indicator_ptr ? indicator_ptr
                                                  : length_ptr);
    } else {
        SET(SQL_DESC_OCTET_LENGTH_PTR, length_ptr);
        SET(SQL_DESC_INDICATOR_PTR, indicator_ptr);
    }
    SET(SQL_DESC_DATA_PTR, data);
#undef SET
    return SQL_SUCCESS;
}

/* ------------------------------------------------------------- copy */

/* A statement function called for descriptor d put its record on the
 * statement: move it to d. Returns r. */
static SQLRETURN take_stmt_diag(odbc_desc *d, SQLRETURN r)
{
    odbc_diag *sd = &d->stmt->hdr.diag;
    if (sd->count > 0 && DIAG(d)->count < ODBC_DIAG_MAX)
        DIAG(d)->rec[DIAG(d)->count++] = sd->rec[--sd->count];
    return r;
}

static bool is_app(const odbc_desc *d)
{
    return d->kind == SQL_ATTR_APP_ROW_DESC ||
           d->kind == SQL_ATTR_APP_PARAM_DESC;
}

/* Whether a header field exists in a descriptor of this kind (the
 * SQLSetDescField table; COUNT and ALLOC_TYPE are handled apart). */
static bool header_has(const odbc_desc *d, SQLSMALLINT field)
{
    switch (field) {
    case SQL_DESC_ARRAY_STATUS_PTR:
        return true;
    case SQL_DESC_ARRAY_SIZE: case SQL_DESC_BIND_OFFSET_PTR:
    case SQL_DESC_BIND_TYPE:
        return is_app(d);
    case SQL_DESC_ROWS_PROCESSED_PTR:
        return !is_app(d);
    default:
        return false;
    }
}

/* Whether record rec (1-based, within the count) of src describes
 * something; the gaps of a sparse binding stay unbound in the copy. */
static bool src_rec_set(const odbc_desc *src, SQLSMALLINT rec)
{
    const odbc_stmt *s = src->stmt;
    switch (src->kind) {
    case SQL_ATTR_APP_ROW_DESC:
        return rec <= s->nbinds && s->binds[rec - 1].c_type != 0;
    case SQL_ATTR_APP_PARAM_DESC:
        return rec <= s->nparams_bound && s->params[rec - 1].c_type != 0;
    case SQL_ATTR_IMP_PARAM_DESC:
        return rec <= s->nparams_bound && s->params[rec - 1].sql_type != 0;
    default:
        return true;            /* IRD: every result column */
    }
}

/* A record's fields as SQLGetDescField gives them, from any kind. */
typedef struct desc_rec_vals {
    int64_t concise, length, octet_length, precision, scale, param_type;
    int64_t data_ptr, ind_ptr, len_ptr;
} desc_rec_vals;

static SQLRETURN read_rec(odbc_desc *src, SQLSMALLINT rec, desc_rec_vals *v)
{
    static const SQLSMALLINT fields[] = {
        SQL_DESC_CONCISE_TYPE, SQL_DESC_LENGTH, SQL_DESC_OCTET_LENGTH,
        SQL_DESC_PRECISION, SQL_DESC_SCALE, SQL_DESC_DATA_PTR,
        SQL_DESC_INDICATOR_PTR, SQL_DESC_OCTET_LENGTH_PTR,
        SQL_DESC_PARAMETER_TYPE,
    };
    int64_t *out[] = {
        &v->concise, &v->length, &v->octet_length, &v->precision, &v->scale,
        &v->data_ptr, &v->ind_ptr, &v->len_ptr, &v->param_type,
    };
    /* the buffers of application descriptors, the parameter type of
     * an IPD */
    size_t nf = is_app(src) ? 8 : 5;
    memset(v, 0, sizeof *v);
    v->param_type = SQL_PARAM_INPUT;
    for (size_t i = 0; i < nf; i++) {
        SQLRETURN r = rec_num(src, rec, fields[i], out[i]);
        if (!SQL_SUCCEEDED(r))
            return r;
    }
    if (src->kind == SQL_ATTR_IMP_PARAM_DESC) {
        SQLRETURN r = rec_num(src, rec, fields[8], out[8]);
        if (!SQL_SUCCEEDED(r))
            return r;
    }
    return SQL_SUCCESS;
}

/* SQL types whose IPD column size is the LENGTH field (characters or
 * bytes); for the others it is the PRECISION field. */
static bool sized_by_length(SQLSMALLINT t)
{
    switch (t) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
    case SQL_TYPE_DATE: case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP:
        return true;
    default:
        return false;
    }
}

/* Record rec of dst (an ARD, APD or IPD) from the values v of a record of
 * another kind of descriptor. */
static SQLRETURN write_rec(odbc_desc *dst, SQLSMALLINT rec,
                           const desc_rec_vals *v)
{
    odbc_stmt *s = dst->stmt;
    SQLSMALLINT t = (SQLSMALLINT)v->concise;
    if (is_app(dst) ? !odbc_ctype_valid(t) : !odbc_sqltype_valid(t))
        return odbc_diag_add(DIAG(dst), "HY021", "Inconsistent descriptor "
                             "information: record %d's type %d is not a%s "
                             "type", (int)rec, (int)t,
                             is_app(dst) ? " C" : "n SQL");
    void *ptr = (void *)(intptr_t)v->data_ptr;
    SQLLEN *ind = (SQLLEN *)(intptr_t)v->ind_ptr;
    SQLLEN *len_ptr = (SQLLEN *)(intptr_t)v->len_ptr;
    SQLLEN buflen = v->octet_length > 0 ? (SQLLEN)v->octet_length : 0;
    if (dst->kind == SQL_ATTR_APP_ROW_DESC) {
        odbc_binding *b = &s->binds[rec - 1];
        b->c_type = t;
        b->ptr = ptr;
        b->buflen = buflen;
        b->ind = ind ? ind : len_ptr;   /* one buffer per column here */
        b->precision = (SQLSMALLINT)v->precision;
        b->scale = (SQLSMALLINT)v->scale;
        return SQL_SUCCESS;
    }
    odbc_param *p = odbc_stmt_param_at(s, rec);
    if (!p)
        return take_stmt_diag(dst, SQL_ERROR);
    if (dst->kind == SQL_ATTR_APP_PARAM_DESC) {
        p->c_type = t;
        p->ptr = ptr;
        p->buflen = buflen;
        p->ind = ind;
        p->len_ptr = len_ptr;
        p->num_precision = (SQLSMALLINT)v->precision;
        p->num_scale = (SQLSMALLINT)v->scale;
        p->num_scale_set = false;   /* a fetched struct has its scale */
    } else {
        p->sql_type = t;
        p->column_size = (SQLULEN)(sized_by_length(t) ? v->length
                                                      : v->precision);
        p->decimal_digits = (SQLSMALLINT)(is_dt(t) ? v->precision
                                                   : v->scale);
        p->io_type = (SQLSMALLINT)v->param_type;
    }
    return SQL_SUCCESS;
}

/* The half of parameter record dp that descriptor d (an APD or an IPD)
 * holds, from sp; the other half (the other descriptor's) stays. */
static void param_half_from(const odbc_desc *d, odbc_param *dp,
                            const odbc_param *sp)
{
    if (d->kind == SQL_ATTR_APP_PARAM_DESC) {
        dp->c_type = sp->c_type;
        dp->ptr = sp->ptr;
        dp->buflen = sp->buflen;
        dp->ind = sp->ind;
        dp->len_ptr = sp->len_ptr;
        dp->num_precision = sp->num_precision;
        dp->num_scale = sp->num_scale;
        dp->num_scale_set = sp->num_scale_set;
    } else {
        dp->sql_type = sp->sql_type;
        dp->column_size = sp->column_size;
        dp->decimal_digits = sp->decimal_digits;
        dp->io_type = sp->io_type;
    }
}

/* Forget the target's records (the other half of a shared parameter
 * record stays) and make room for n of them. */
static SQLRETURN clear_recs(odbc_desc *dst, SQLSMALLINT n)
{
    odbc_stmt *s = dst->stmt;
    if (dst->kind == SQL_ATTR_APP_ROW_DESC) {
        s->binds_gen++;
        if (n > s->nbinds) {
            odbc_binding *b = realloc(s->binds, (size_t)n * sizeof *b);
            if (!b)
                return odbc_diag_add(DIAG(dst), "HY001", "Memory "
                                     "allocation error");
            s->binds = b;
            s->nbinds = (uint16_t)n;
        }
        memset(s->binds, 0, s->nbinds * sizeof *s->binds);
        return SQL_SUCCESS;
    }
    static const odbc_param none = { .io_type = SQL_PARAM_INPUT };
    for (int i = 0; i < s->nparams_bound; i++)
        param_half_from(dst, &s->params[i], &none);
    return SQL_SUCCESS;
}

/* Same-kind copies keep the records exactly as stored. */
static void copy_same_kind(odbc_desc *src, odbc_desc *dst, SQLSMALLINT n)
{
    odbc_stmt *ss = src->stmt, *ds = dst->stmt;
    for (SQLSMALLINT r = 1; r <= n; r++) {
        if (!src_rec_set(src, r))
            continue;
        if (dst->kind == SQL_ATTR_APP_ROW_DESC) {
            ds->binds[r - 1] = ss->binds[r - 1];
            continue;
        }
        param_half_from(dst, &ds->params[r - 1], &ss->params[r - 1]);
    }
}

static SQLRETURN copy_desc(odbc_desc *src, odbc_desc *dst)
{
    static const SQLSMALLINT header[] = {
        SQL_DESC_ARRAY_SIZE, SQL_DESC_ARRAY_STATUS_PTR,
        SQL_DESC_BIND_OFFSET_PTR, SQL_DESC_BIND_TYPE,
        SQL_DESC_ROWS_PROCESSED_PTR,
    };
    SQLRETURN r = SQL_SUCCESS;
    int64_t count = 0;

    if (dst->kind == SQL_ATTR_IMP_ROW_DESC)
        return odbc_diag_add(DIAG(dst), "HY016", "Cannot modify an "
                             "implementation row descriptor");
    if (src->kind == SQL_ATTR_IMP_ROW_DESC &&
        src->stmt->state == STMT_ALLOCATED)
        return odbc_diag_add(DIAG(dst), "HY007", "Associated statement is "
                             "not prepared");
    if (src == dst)
        return SQL_SUCCESS;
    if (!SQL_SUCCEEDED(r = rec_num(src, 0, SQL_DESC_COUNT, &count)))
        return r;
    SQLSMALLINT n = (SQLSMALLINT)count;
    /* header fields both kinds have, through the statement attributes
     * they stand for */
    for (size_t i = 0; i < sizeof header / sizeof *header; i++) {
        int64_t v;
        if (!header_has(src, header[i]) || !header_has(dst, header[i]))
            continue;
        if (!SQL_SUCCEEDED(r = rec_num(src, 0, header[i], &v)))
            return r;
        r = odbc_desc_set_field(dst, 0, header[i], (SQLPOINTER)(intptr_t)v,
                                0);
        if (r != SQL_SUCCESS)
            return take_stmt_diag(dst, r);
    }
    if ((r = clear_recs(dst, n)) != SQL_SUCCESS)
        return r;
    if (dst->kind != SQL_ATTR_APP_ROW_DESC && n > 0 &&
        !odbc_stmt_param_at(dst->stmt, n))
        return take_stmt_diag(dst, SQL_ERROR);
    if (src->kind == dst->kind) {
        copy_same_kind(src, dst, n);
        return SQL_SUCCESS;
    }
    for (SQLSMALLINT rec = 1; rec <= n; rec++) {
        desc_rec_vals v;
        if (!src_rec_set(src, rec))
            continue;
        if (!SQL_SUCCEEDED(r = read_rec(src, rec, &v)))
            return r;
        if ((r = write_rec(dst, rec, &v)) != SQL_SUCCESS)
            return r;
    }
    return SQL_SUCCESS;
}

SQLRETURN odbc_desc_copy(odbc_desc *src, odbc_desc *dst)
{
    int src_diags = DIAG(src)->count;
    SQLRETURN r = copy_desc(src, dst);
    /* records that reading the source put on it belong to the target */
    for (int i = src_diags; i < DIAG(src)->count; i++)
        if (DIAG(dst)->count < ODBC_DIAG_MAX)
            DIAG(dst)->rec[DIAG(dst)->count++] = DIAG(src)->rec[i];
    DIAG(src)->count = src_diags;
    return r;
}
