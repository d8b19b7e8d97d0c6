/*
 * params.c - parameters beyond SQLBindParameter: data at execution
 * (SQL_DATA_AT_EXEC, SQL_LEN_DATA_AT_EXEC: SQLExecute answers
 * SQL_NEED_DATA, SQLParamData names each such parameter by its token,
 * SQLPutData sends its value in pieces), parameter arrays, and the
 * parameter records that the APD/IPD descriptor fields read and write.
 *
 * Parameter arrays (SQL_ATTR_PARAMSET_SIZE > 1, column-wise or row-wise,
 * SQL_ATTR_PARAM_BIND_OFFSET_PTR, SQL_ATTR_PARAM_OPERATION_PTR): every
 * statement this driver runs returns rows, so each parameter set gets its
 * own result set (SQL_PAS_BATCH): SQLExecute opens the first set's,
 * SQLMoreResults closes it and opens the next set's. The status array
 * and the processed count follow as sets are reached: a set not yet
 * reached is SQL_PARAM_UNUSED. A set whose values or cursor fail is
 * SQL_PARAM_ERROR, its diagnostics carry the set number
 * (SQL_DIAG_ROW_NUMBER), and the call goes on to the next set.
 * Spec: ODBC 3.x "Using Arrays of Parameters", "Multiple Results".
 *
 * A data-at-execution value is collected into the statement (one grow-only
 * buffer per parameter) and read by stmt.c's param_value exactly as a
 * bound buffer would be, so conversions live in one place.
 * Spec: ODBC 3.x "Sending Long Data", SQLParamData, SQLPutData.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdlib.h>
#include <string.h>

#define DIAG(s) (&(s)->hdr.diag)

SQLSMALLINT odbc_param_default_ctype(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        return SQL_C_WCHAR;
    case SQL_BIT: return SQL_C_BIT;
    case SQL_TINYINT: return SQL_C_STINYINT;
    case SQL_SMALLINT: return SQL_C_SSHORT;
    case SQL_INTEGER: return SQL_C_SLONG;
    case SQL_BIGINT: return SQL_C_SBIGINT;
    case SQL_REAL: return SQL_C_FLOAT;
    case SQL_FLOAT: case SQL_DOUBLE: return SQL_C_DOUBLE;
    case SQL_TYPE_DATE: case SQL_DATE: return SQL_C_TYPE_DATE;
    case SQL_TYPE_TIME: case SQL_TIME: return SQL_C_TYPE_TIME;
    case SQL_TYPE_TIMESTAMP: case SQL_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return SQL_C_BINARY;
    case SQL_GUID: return SQL_C_GUID;
    default: return SQL_C_CHAR;
    }
}

SQLULEN odbc_ctype_size(SQLSMALLINT ct)
{
    switch (ct) {
    case SQL_C_BIT: case SQL_C_STINYINT: case SQL_C_UTINYINT:
    case SQL_C_TINYINT:
        return 1;
    case SQL_C_SSHORT: case SQL_C_USHORT: case SQL_C_SHORT:
        return sizeof(SQLSMALLINT);
    case SQL_C_SLONG: case SQL_C_ULONG: case SQL_C_LONG:
        return sizeof(SQLINTEGER);
    case SQL_C_SBIGINT: case SQL_C_UBIGINT:
        return sizeof(SQLBIGINT);
    case SQL_C_FLOAT: return sizeof(SQLREAL);
    case SQL_C_DOUBLE: return sizeof(SQLDOUBLE);
    case SQL_C_TYPE_DATE: case SQL_C_DATE: return sizeof(SQL_DATE_STRUCT);
    case SQL_C_TYPE_TIME: case SQL_C_TIME: return sizeof(SQL_TIME_STRUCT);
    case SQL_C_TYPE_TIMESTAMP: case SQL_C_TIMESTAMP:
        return sizeof(SQL_TIMESTAMP_STRUCT);
    case SQL_C_NUMERIC: return sizeof(SQL_NUMERIC_STRUCT);
    case SQL_C_GUID: return sizeof(SQLGUID);
    default: return 0;
    }
}

SQLULEN odbc_ctype_elem_size(SQLSMALLINT ct, SQLLEN buflen)
{
    SQLULEN n = odbc_ctype_size(ct);
    if (n)
        return n;
    if (ct >= SQL_C_INTERVAL_YEAR && ct <= SQL_C_INTERVAL_MINUTE_TO_SECOND)
        return sizeof(SQL_INTERVAL_STRUCT);
    return buflen > 0 ? (SQLULEN)buflen : 0;
}

odbc_param *odbc_stmt_param_at(odbc_stmt *s, SQLSMALLINT num)
{
    if (num < 1) {
        odbc_diag_add(DIAG(s), "07009", "Invalid descriptor index %d",
                      (int)num);
        return NULL;
    }
    if (num > s->nparams_bound) {
        odbc_param *p = realloc(s->params, (size_t)num * sizeof *p);
        if (!p) {
            odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
            return NULL;
        }
        memset(p + s->nparams_bound, 0,
               (size_t)(num - s->nparams_bound) * sizeof *p);
        for (int i = s->nparams_bound; i < num; i++)
            p[i].io_type = SQL_PARAM_INPUT;
        s->params = p;
        s->nparams_bound = (uint16_t)num;
    }
    return &s->params[num - 1];
}

void odbc_param_locate(const odbc_stmt *s, odbc_param *p)
{
    size_t k = (size_t)s->pset.cur;
    size_t off = s->pset.bind_offset_ptr ? (size_t)*s->pset.bind_offset_ptr
                                         : 0;
    size_t elem, ind_stride;
    if (s->pset.bind_type != SQL_PARAM_BIND_BY_COLUMN) {
        elem = ind_stride = (size_t)s->pset.bind_type;  /* row-wise */
    } else {
        SQLSMALLINT ct = p->c_type == SQL_C_DEFAULT
                             ? odbc_param_default_ctype(p->sql_type)
                             : p->c_type;
        elem = (size_t)odbc_ctype_elem_size(ct, p->buflen);
        ind_stride = sizeof(SQLLEN);
    }
    if (p->ptr)
        p->ptr = (char *)p->ptr + off + k * elem;
    if (p->ind)
        p->ind = (SQLLEN *)(void *)((char *)p->ind + off + k * ind_stride);
    if (p->len_ptr)
        p->len_ptr = (SQLLEN *)(void *)((char *)p->len_ptr + off +
                                        k * ind_stride);
}

/* Whether bound parameter p asks for its data at execution in the
 * current parameter set. */
static bool is_dae(const odbc_stmt *s, const odbc_param *param)
{
    odbc_param set = *param;
    const odbc_param *p = &set;
    if (p->c_type == 0)
        return false;
    odbc_param_locate(s, &set);
    SQLLEN *lp = p->len_ptr ? p->len_ptr : p->ind;
    if (!lp)
        return false;
    SQLLEN len = odbc_len_at(lp);
    return len == SQL_DATA_AT_EXEC || len <= SQL_LEN_DATA_AT_EXEC_OFFSET;
}

void odbc_stmt_dae_end(odbc_stmt *s)
{
    if (s->dae) {
        for (uint16_t i = 0; i < s->ndae; i++)
            odbc_buf_free(&s->dae[i].buf);
        free(s->dae);
    }
    s->dae = NULL;
    s->ndae = 0;
    s->dae_active = false;
    s->dae_ready = false;
    s->dae_cur = -1;
}

SQLRETURN odbc_stmt_dae_begin(odbc_stmt *s)
{
    if (s->dae_ready)
        return SQL_SUCCESS;     /* SQLParamData runs the execution */
    odbc_stmt_dae_end(s);
    SQLSMALLINT np = 0;
    odbc_stmt_num_params(s, &np);
    bool any = false;
    for (SQLSMALLINT i = 0; i < np && i < s->nparams_bound && !any; i++)
        any = is_dae(s, &s->params[i]);
    if (!any)
        return SQL_SUCCESS;
    s->dae = calloc((size_t)np, sizeof *s->dae);
    if (!s->dae)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    s->ndae = (uint16_t)np;
    s->dae_active = true;
    s->dae_cur = -1;
    return SQL_NEED_DATA;
}

SQLRETURN odbc_stmt_param_data(odbc_stmt *s, SQLPOINTER *token)
{
    if (s->pos_dae)
        return odbc_stmt_pos_param_data(s, token);      /* setpos.c */
    if (!s->dae_active)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no parameter needs data)");
    for (int i = s->dae_cur + 1; i < s->ndae && i < s->nparams_bound; i++) {
        if (is_dae(s, &s->params[i])) {
            s->dae_cur = i;
            if (token)
                *token = s->params[i].ptr;
            return SQL_NEED_DATA;
        }
    }
    /* every value is here: run the statement with them */
    s->dae_ready = true;
    SQLRETURN r = odbc_stmt_execute(s);
    odbc_stmt_dae_end(s);
    return r;
}

/* ------------------------------------------------- parameter arrays */

/* Run parameter sets from pset.next on until one opens a result set:
 * ignored sets stay SQL_PARAM_UNUSED, failed ones become SQL_PARAM_ERROR
 * with their diagnostics numbered by set. SQL_SUCCESS_WITH_INFO when a
 * set failed before the one that opened, SQL_ERROR when sets failed and
 * none opened, SQL_NO_DATA when no set was left to run. */
static SQLRETURN run_next_set(odbc_stmt *s)
{
    odbc_paramset *ps = &s->pset;
    odbc_diag *d = DIAG(s);
    bool failed = false;
    while (ps->next < ps->size) {
        SQLULEN k = ps->next++;
        if (ps->processed_ptr)
            *ps->processed_ptr = k + 1;
        if (ps->operation_ptr && ps->operation_ptr[k] == SQL_PARAM_IGNORE)
            continue;
        int before = d->count;
        ps->cur = k;
        SQLRETURN r = odbc_stmt_open_set(s);
        for (int i = before; i < d->count; i++)
            d->rec[i].row_number = (SQLLEN)(k + 1);
        if (SQL_SUCCEEDED(r)) {
            if (ps->status_ptr)
                ps->status_ptr[k] = r == SQL_SUCCESS
                                        ? SQL_PARAM_SUCCESS
                                        : SQL_PARAM_SUCCESS_WITH_INFO;
            ps->batch = ps->next < ps->size;
            return failed ? SQL_SUCCESS_WITH_INFO : r;
        }
        if (ps->status_ptr)
            ps->status_ptr[k] = SQL_PARAM_ERROR;
        failed = true;
    }
    ps->batch = false;
    return failed ? SQL_ERROR : SQL_NO_DATA;
}

SQLRETURN odbc_stmt_execute_batch(odbc_stmt *s)
{
    odbc_paramset *ps = &s->pset;
    SQLSMALLINT np = 0;
    odbc_stmt_num_params(s, &np);
    for (SQLULEN k = 0; k < s->paramset_size; k++) {
        ps->cur = k;
        for (SQLSMALLINT i = 0; i < np && i < s->nparams_bound; i++)
            if (is_dae(s, &s->params[i]))
                return odbc_diag_add(DIAG(s), "HYC00", "Optional feature "
                                     "not implemented: data at execution "
                                     "(parameter %d, set %lu) with "
                                     "parameter arrays", (int)i + 1,
                                     (unsigned long)k + 1);
    }
    ps->size = s->paramset_size;
    if (ps->status_ptr)
        for (SQLULEN k = 0; k < ps->size; k++)
            ps->status_ptr[k] = SQL_PARAM_UNUSED;
    if (ps->processed_ptr)
        *ps->processed_ptr = 0;
    ps->next = 0;
    return run_next_set(s);
}

SQLRETURN odbc_stmt_next_param_set(odbc_stmt *s)
{
    return run_next_set(s);
}

/* ----------------------------------------------- data at execution */

static SQLRETURN put_piece(odbc_stmt *s, SQLPOINTER data, SQLLEN len);

SQLRETURN odbc_stmt_put_data(odbc_stmt *s, SQLPOINTER data, SQLLEN len)
{
    if (s->pos_dae)
        return odbc_stmt_pos_put_data(s, data, len);    /* setpos.c */
    if (!s->dae_active || s->dae_cur < 0)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(SQLParamData has named no parameter)");
    /* an error cancels the sequence (the driver manager's state goes
     * back to before SQLExecute too) */
    SQLRETURN r = put_piece(s, data, len);
    if (r == SQL_ERROR)
        odbc_stmt_dae_end(s);
    return r;
}

/* Append one SQLPutData piece to the current parameter's value. */
static SQLRETURN put_piece(odbc_stmt *s, SQLPOINTER data, SQLLEN len)
{
    const odbc_param *p = &s->params[s->dae_cur];
    odbc_dae *d = &s->dae[s->dae_cur];
    SQLSMALLINT ct = p->c_type == SQL_C_DEFAULT
                         ? odbc_param_default_ctype(p->sql_type) : p->c_type;
    if (len == SQL_NULL_DATA) {
        if (d->pieces > 0)
            return odbc_diag_add(DIAG(s), "HY011", "NULL after data was "
                                 "sent for this parameter");
        d->is_null = true;
        d->pieces++;
        return SQL_SUCCESS;
    }
    if (d->is_null)
        return odbc_diag_add(DIAG(s), "HY020", "Attempt to concatenate a "
                             "null value");
    if (len < 0 && len != SQL_NTS && len != SQL_DEFAULT_PARAM)
        return odbc_diag_add(DIAG(s), "HY090", "Invalid string or buffer "
                             "length");
    if (!data && len != 0)
        return odbc_diag_add(DIAG(s), "HY009", "Invalid use of null pointer");
    size_t n;
    SQLULEN fixed = odbc_ctype_size(ct);
    if (ct == SQL_C_CHAR || ct == SQL_C_WCHAR || ct == SQL_C_BINARY) {
        if (len == SQL_NTS && ct == SQL_C_CHAR) {
            n = strlen(data);
        } else if (len == SQL_NTS && ct == SQL_C_WCHAR) {
            const SQLWCHAR *w = data;
            size_t u = 0;
            while (w[u])
                u++;
            n = u * sizeof(SQLWCHAR);
        } else if (len < 0) {
            return odbc_diag_add(DIAG(s), "HY090", "Invalid string or "
                                 "buffer length");
        } else {
            n = (size_t)len;
        }
    } else {
        if (d->pieces > 0)
            return odbc_diag_add(DIAG(s), "HY019", "Non-character and "
                                 "non-binary data sent in pieces");
        n = fixed;
        if (n == 0)
            return odbc_diag_add(DIAG(s), "HY003", "Invalid application "
                                 "buffer type %d", (int)ct);
    }
    if (n > 0x40000000u || d->len + n > 0x40000000u)
        return odbc_diag_add(DIAG(s), "HY001", "Parameter value too long "
                             "(over 1 GB)");
    if (odbc_buf_reserve(&d->buf, d->len + n + 1) != 0)
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    if (n)
        memcpy(d->buf.p + d->len, data, n);
    d->len += n;
    d->pieces++;
    return SQL_SUCCESS;
}

bool odbc_stmt_dae_value(const odbc_stmt *s, size_t i, const void **ptr,
                         SQLLEN *len, bool *is_null)
{
    if (!s->dae || i >= s->ndae)
        return false;
    const odbc_dae *d = &s->dae[i];
    /* a parameter that was named but got no SQLPutData is NULL */
    *is_null = d->is_null || d->pieces == 0;
    *ptr = d->buf.p ? (const void *)d->buf.p : (const void *)"";
    *len = (SQLLEN)d->len;
    return true;
}

bool odbc_ctype_valid(SQLSMALLINT ct)
{
    switch (ct) {
    case SQL_C_CHAR: case SQL_C_WCHAR: case SQL_C_BINARY:
    case SQL_C_SSHORT: case SQL_C_USHORT: case SQL_C_SHORT:
    case SQL_C_SLONG: case SQL_C_ULONG: case SQL_C_LONG:
    case SQL_C_SBIGINT: case SQL_C_UBIGINT:
    case SQL_C_STINYINT: case SQL_C_UTINYINT: case SQL_C_TINYINT:
    case SQL_C_BIT: case SQL_C_FLOAT: case SQL_C_DOUBLE:
    case SQL_C_NUMERIC: case SQL_C_GUID:
    case SQL_C_TYPE_DATE: case SQL_C_TYPE_TIME: case SQL_C_TYPE_TIMESTAMP:
    case SQL_C_DATE: case SQL_C_TIME: case SQL_C_TIMESTAMP:
    case SQL_C_INTERVAL_YEAR: case SQL_C_INTERVAL_MONTH:
    case SQL_C_INTERVAL_DAY: case SQL_C_INTERVAL_HOUR:
    case SQL_C_INTERVAL_MINUTE: case SQL_C_INTERVAL_SECOND:
    case SQL_C_INTERVAL_YEAR_TO_MONTH: case SQL_C_INTERVAL_DAY_TO_HOUR:
    case SQL_C_INTERVAL_DAY_TO_MINUTE: case SQL_C_INTERVAL_DAY_TO_SECOND:
    case SQL_C_INTERVAL_HOUR_TO_MINUTE: case SQL_C_INTERVAL_HOUR_TO_SECOND:
    case SQL_C_INTERVAL_MINUTE_TO_SECOND:
    case SQL_C_DEFAULT:
        return true;
    default:
        return false;
    }
}

bool odbc_sqltype_valid(SQLSMALLINT t)
{
    switch (t) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_DECIMAL: case SQL_NUMERIC: case SQL_SMALLINT: case SQL_INTEGER:
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE: case SQL_BIT:
    case SQL_TINYINT: case SQL_BIGINT: case SQL_BINARY: case SQL_VARBINARY:
    case SQL_LONGVARBINARY: case SQL_TYPE_DATE: case SQL_TYPE_TIME:
    case SQL_TYPE_TIMESTAMP: case SQL_DATE: case SQL_TIME: case SQL_TIMESTAMP:
    case SQL_GUID:
    case SQL_INTERVAL_YEAR: case SQL_INTERVAL_MONTH: case SQL_INTERVAL_DAY:
    case SQL_INTERVAL_HOUR: case SQL_INTERVAL_MINUTE: case SQL_INTERVAL_SECOND:
    case SQL_INTERVAL_YEAR_TO_MONTH: case SQL_INTERVAL_DAY_TO_HOUR:
    case SQL_INTERVAL_DAY_TO_MINUTE: case SQL_INTERVAL_DAY_TO_SECOND:
    case SQL_INTERVAL_HOUR_TO_MINUTE: case SQL_INTERVAL_HOUR_TO_SECOND:
    case SQL_INTERVAL_MINUTE_TO_SECOND:
        return true;
    default:
        return false;
    }
}
