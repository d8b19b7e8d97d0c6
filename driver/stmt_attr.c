/*
 * stmt_attr.c - statement attributes (SQLSetStmtAttr, SQLGetStmtAttr) and
 * result column information (SQLColAttribute).
 *
 * Moved from stmt.c unchanged.
 */
#include "config.h"

#include "odbc_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "convert.h"
#include "fetchfast.h"
#include "scroll.h"
#include "sql/callproc.h"
#include "sql/engine.h"
#include "stmt_int.h"
#include "trace.h"
#include "wide.h"

/* ------------------------------------------------------- attributes */

SQLRETURN odbc_stmt_set_attr(odbc_stmt *s, SQLINTEGER attr, SQLPOINTER val,
                             SQLINTEGER len)
{
    SQLULEN v = (SQLULEN)(uintptr_t)val;
    switch (attr) {
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE:
        if (v == 0)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->row_array_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_TYPE:
        s->row_bind_type = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROWS_FETCHED_PTR:
        s->rows_fetched_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_STATUS_PTR:
        s->row_status_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR:
        s->bind_offset_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_MAX_ROWS:
        s->max_rows = v;
        return SQL_SUCCESS;
    case SQL_ATTR_QUERY_TIMEOUT:
        s->query_timeout = v;
        return SQL_SUCCESS;
    case SQL_ATTR_MAX_LENGTH:
        /* applied by odbc_convert (cv.max_len), chosen per binding when
         * the cursor's fetch plan is built: on an open cursor a new value
         * would not take effect, so it is kept (the spec's 01S02) */
        if (s->state == STMT_CURSOR && v != s->max_length)
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "SQL_ATTR_MAX_LENGTH cannot change while "
                                 "a cursor is open (still %lu)",
                                 (unsigned long)s->max_length);
        s->max_length = v;
        return SQL_SUCCESS;
    case SQL_ATTR_NOSCAN:
        s->noscan = v;
        return SQL_SUCCESS;
    case SQL_ATTR_RETRIEVE_DATA:
        s->retrieve_data = v;
        return SQL_SUCCESS;
    case SQL_ATTR_KEYSET_SIZE:
        s->keyset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        s->metadata_id = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMSET_SIZE:
        if (v == 0)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->paramset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE:
        s->pset.bind_type = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
        s->pset.bind_offset_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_OPERATION_PTR:
        s->pset.operation_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_STATUS_PTR:
        s->pset.status_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
        s->pset.processed_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_OPERATION_PTR:
        s->row_op_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ENABLE_AUTO_IPD:
    case SQL_ATTR_SIMULATE_CURSOR:
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_TYPE:
        /* takes effect at the next execute (wants_static) */
        if (v == SQL_CURSOR_FORWARD_ONLY || v == SQL_CURSOR_STATIC) {
            s->cursor_type = v;
            return SQL_SUCCESS;
        }
        if (v == SQL_CURSOR_KEYSET_DRIVEN || v == SQL_CURSOR_DYNAMIC) {
            s->cursor_type = SQL_CURSOR_STATIC;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "the cursor is static (a read-only file's "
                                 "rows do not change under it)");
        }
        return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
    case SQL_ATTR_CONCURRENCY:
        /* read-only, or optimistic by values (setpos.c): Jet has no row
         * locks a cursor could hold nor row versions, so LOCK and ROWVER
         * get VALUES; takes effect at the next execute */
        if (v == SQL_CONCUR_READ_ONLY || v == SQL_CONCUR_VALUES) {
            s->concurrency = v;
            return SQL_SUCCESS;
        }
        if (v == SQL_CONCUR_LOCK || v == SQL_CONCUR_ROWVER) {
            s->concurrency = SQL_CONCUR_VALUES;
            return odbc_diag_add(DIAG(s), "01S02", "Option value changed: "
                                 "SQL_CONCUR_VALUES (optimistic concurrency "
                                 "comparing values; Jet has no %s)",
                                 v == SQL_CONCUR_LOCK ? "row locks"
                                                      : "row versions");
        }
        return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
    case SQL_ATTR_CURSOR_SCROLLABLE:
        /* the spec's pairing: scrollable = static, else forward-only */
        if (v == SQL_SCROLLABLE) {
            if (s->cursor_type == SQL_CURSOR_FORWARD_ONLY)
                s->cursor_type = SQL_CURSOR_STATIC;
            return SQL_SUCCESS;
        }
        if (v == SQL_NONSCROLLABLE) {
            s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
            return SQL_SUCCESS;
        }
        return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
    case SQL_ATTR_CURSOR_SENSITIVITY:
        if (v == SQL_SENSITIVE)
            return odbc_diag_add(DIAG(s), "HYC00", "Sensitive cursors are "
                                 "not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_USE_BOOKMARKS:
        /* takes effect at the next execute: a cursor with bookmarks is a
         * static one (wants_static) */
        if (v != SQL_UB_OFF && v != SQL_UB_ON && v != SQL_UB_VARIABLE)
            return odbc_diag_add(DIAG(s), "HY024", "Invalid attribute value");
        s->use_bookmarks = v;
        return SQL_SUCCESS;
    case SQL_ATTR_FETCH_BOOKMARK_PTR:
        s->fetch_bookmark_ptr = val;
        return SQL_SUCCESS;
    case SQL_ATTR_ASYNC_ENABLE:
        if (v != SQL_ASYNC_ENABLE_OFF)
            return odbc_diag_add(DIAG(s), "HYC00", "Asynchronous execution "
                                 "is not supported");
        return SQL_SUCCESS;
    case SQL_ATTR_APP_ROW_DESC:
    case SQL_ATTR_APP_PARAM_DESC:
        if (val == NULL || val == &s->ard || val == &s->apd)
            return SQL_SUCCESS;
        return odbc_diag_add(DIAG(s), "HYC00", "Explicit descriptors are "
                             "not supported");
    case SQL_ATTR_IMP_ROW_DESC:
    case SQL_ATTR_IMP_PARAM_DESC:
    case SQL_ATTR_ROW_NUMBER:
        return odbc_diag_add(DIAG(s), "HY017", "Invalid use of an "
                             "automatically allocated descriptor handle");
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Statement attribute %d not "
                             "supported", (int)attr);
    }
}

SQLRETURN odbc_stmt_get_attr(odbc_stmt *s, SQLINTEGER attr, SQLPOINTER val,
                             SQLINTEGER buflen, SQLINTEGER *outlen)
{
    SQLULEN v;
    void *p = NULL;
    bool is_ptr = false;
    switch (attr) {
    case SQL_ATTR_ROW_ARRAY_SIZE: case SQL_ROWSET_SIZE:
        v = s->row_array_size; break;
    case SQL_ATTR_ROW_BIND_TYPE: v = s->row_bind_type; break;
    case SQL_ATTR_ROWS_FETCHED_PTR: p = s->rows_fetched_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_STATUS_PTR: p = s->row_status_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: p = s->bind_offset_ptr; is_ptr = true; break;
    case SQL_ATTR_APP_ROW_DESC: p = &s->ard; is_ptr = true; break;
    case SQL_ATTR_APP_PARAM_DESC: p = &s->apd; is_ptr = true; break;
    case SQL_ATTR_IMP_ROW_DESC: p = &s->ird; is_ptr = true; break;
    case SQL_ATTR_IMP_PARAM_DESC: p = &s->ipd; is_ptr = true; break;
    case SQL_ATTR_MAX_ROWS: v = s->max_rows; break;
    case SQL_ATTR_QUERY_TIMEOUT: v = s->query_timeout; break;
    case SQL_ATTR_MAX_LENGTH: v = s->max_length; break;
    case SQL_ATTR_NOSCAN: v = s->noscan; break;
    case SQL_ATTR_RETRIEVE_DATA: v = s->retrieve_data; break;
    case SQL_ATTR_KEYSET_SIZE: v = s->keyset_size; break;
    case SQL_ATTR_METADATA_ID: v = s->metadata_id; break;
    case SQL_ATTR_PARAMSET_SIZE: v = s->paramset_size; break;
    case SQL_ATTR_PARAM_BIND_TYPE: v = s->pset.bind_type; break;
    case SQL_ATTR_CURSOR_TYPE: v = s->cursor_type; break;
    case SQL_ATTR_CONCURRENCY: v = s->concurrency; break;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        v = s->cursor_type == SQL_CURSOR_FORWARD_ONLY ? SQL_NONSCROLLABLE
                                                      : SQL_SCROLLABLE;
        break;
    case SQL_ATTR_FETCH_BOOKMARK_PTR:
        p = s->fetch_bookmark_ptr; is_ptr = true; break;
    case SQL_ATTR_CURSOR_SENSITIVITY: v = SQL_INSENSITIVE; break;
    case SQL_ATTR_USE_BOOKMARKS: v = s->use_bookmarks; break;
    case SQL_ATTR_ASYNC_ENABLE: v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_ENABLE_AUTO_IPD: v = SQL_FALSE; break;
    case SQL_ATTR_SIMULATE_CURSOR: v = SQL_SC_UNIQUE; break;
    case SQL_ATTR_ROW_NUMBER:
        if (s->state != STMT_CURSOR || !s->has_row)
            v = 0;
        else if (s->sc_rows)
            v = s->sc_pos + s->pos_row;
        else
            v = s->rows_returned;
        break;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
        p = s->pset.bind_offset_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAM_OPERATION_PTR:
        p = s->pset.operation_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAM_STATUS_PTR:
        p = s->pset.status_ptr; is_ptr = true; break;
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
        p = s->pset.processed_ptr; is_ptr = true; break;
    case SQL_ATTR_ROW_OPERATION_PTR:
        p = s->row_op_ptr; is_ptr = true; break;
    default:
        return odbc_diag_add(DIAG(s), "HY092", "Statement attribute %d not "
                             "supported", (int)attr);
    }
    if (is_ptr) {
        if (val)
            memcpy(val, &p, sizeof p);
        if (outlen)
            *outlen = sizeof p;
    } else {
        if (val)
            memcpy(val, &v, sizeof v);
        if (outlen)
            *outlen = sizeof v;
    }
    return SQL_SUCCESS;
}

/* ------------------------------------------------------ column info */

static SQLLEN display_size(const odbc_type_info *ti)
{
    switch (ti->sql_type) {
    case SQL_BIT: return 1;
    case SQL_TINYINT: return ti->unsigned_attr == SQL_TRUE ? 3 : 4;
    case SQL_SMALLINT: return 6;
    case SQL_INTEGER: return 11;
    case SQL_BIGINT: return 20;
    case SQL_REAL: return 14;
    case SQL_FLOAT: case SQL_DOUBLE: return 24;
    case SQL_DECIMAL: case SQL_NUMERIC: return (SQLLEN)ti->column_size + 2;
    case SQL_TYPE_DATE: return 10;
    case SQL_TYPE_TIME: return 8;
    case SQL_TYPE_TIMESTAMP:
        return 19 + (ti->decimal_digits > 0 ? ti->decimal_digits + 1 : 0);
    case SQL_GUID: return 38;   /* convert.c's text form has braces:
                                   {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX} */
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return ti->column_size > (SQLULEN)SQL_NO_TOTAL / 2 ? SQL_NO_TOTAL
                                                        : (SQLLEN)ti->column_size * 2;
    default: return (SQLLEN)ti->column_size;
    }
}

static bool is_datetime(SQLSMALLINT t)
{
    return t == SQL_TYPE_DATE || t == SQL_TYPE_TIME || t == SQL_TYPE_TIMESTAMP;
}

SQLRETURN odbc_stmt_col_attribute(odbc_stmt *s, SQLUSMALLINT col,
                                  SQLUSMALLINT field, const char **str,
                                  SQLLEN *num)
{
    *str = NULL;
    *num = 0;
    if (field == SQL_DESC_COUNT || field == SQL_COLUMN_COUNT) {
        *num = s->ncols;
        return SQL_SUCCESS;
    }
    if (s->state == STMT_ALLOCATED)
        return odbc_diag_add(DIAG(s), "HY010", "Function sequence error "
                             "(no prepared statement)");
    const odbc_colmeta *c = odbc_stmt_column(s, col);
    if (!c)
        return SQL_ERROR;
    const odbc_type_info *ti = &c->ti;
    switch (field) {
    case SQL_DESC_NAME: case SQL_DESC_LABEL: case SQL_COLUMN_NAME:
        *str = c->name; break;
    case SQL_DESC_BASE_COLUMN_NAME:
        *str = c->base_name ? c->base_name : c->name; break;
    case SQL_DESC_TABLE_NAME: case SQL_DESC_BASE_TABLE_NAME:
        *str = c->table_name ? c->table_name : ""; break;
    case SQL_DESC_CATALOG_NAME:
        *str = (c->table_name && s->dbc->db) ? jet_db_path(s->dbc->db) : "";
        break;
    case SQL_DESC_SCHEMA_NAME: *str = ""; break;
    case SQL_DESC_TYPE_NAME: case SQL_DESC_LOCAL_TYPE_NAME:
        *str = ti->type_name; break;
    case SQL_DESC_LITERAL_PREFIX:
        *str = ti->literal_prefix ? ti->literal_prefix : ""; break;
    case SQL_DESC_LITERAL_SUFFIX:
        *str = ti->literal_suffix ? ti->literal_suffix : ""; break;
    case SQL_DESC_CONCISE_TYPE:
        *num = ti->sql_type; break;
    case SQL_DESC_TYPE:
        *num = is_datetime(ti->sql_type) ? SQL_DATETIME : ti->sql_type; break;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        *num = ti->sql_type == SQL_TYPE_DATE ? SQL_CODE_DATE
             : ti->sql_type == SQL_TYPE_TIME ? SQL_CODE_TIME
             : ti->sql_type == SQL_TYPE_TIMESTAMP ? SQL_CODE_TIMESTAMP : 0;
        break;
    case SQL_DESC_LENGTH:
        *num = (SQLLEN)ti->column_size; break;
    case SQL_DESC_OCTET_LENGTH: case SQL_COLUMN_LENGTH:
        *num = ti->octet_length; break;
    case SQL_DESC_PRECISION:
        *num = is_datetime(ti->sql_type)
                   ? (ti->decimal_digits > 0 ? ti->decimal_digits : 0)
                   : (SQLLEN)ti->column_size;
        break;
    case SQL_COLUMN_PRECISION:
        *num = (SQLLEN)ti->column_size; break;
    case SQL_DESC_SCALE: case SQL_COLUMN_SCALE:
        *num = ti->decimal_digits > 0 ? ti->decimal_digits : 0; break;
    case SQL_DESC_DISPLAY_SIZE:
        *num = display_size(ti); break;
    case SQL_DESC_NULLABLE: case SQL_COLUMN_NULLABLE:
        *num = c->nullable; break;
    case SQL_DESC_UNSIGNED:
        *num = ti->unsigned_attr == SQL_FALSE ? SQL_FALSE : SQL_TRUE; break;
    case SQL_DESC_AUTO_UNIQUE_VALUE:
        *num = ti->auto_unique == SQL_TRUE ? SQL_TRUE : SQL_FALSE; break;
    case SQL_DESC_CASE_SENSITIVE:
        *num = ti->case_sensitive; break;
    case SQL_DESC_SEARCHABLE:
        *num = ti->searchable; break;
    case SQL_DESC_UPDATABLE:
        *num = SQL_ATTR_READONLY; break;
    case SQL_DESC_FIXED_PREC_SCALE:
        *num = ti->fixed_prec_scale == SQL_TRUE ? SQL_TRUE : SQL_FALSE; break;
    case SQL_DESC_NUM_PREC_RADIX:
        *num = ti->num_prec_radix; break;
    case SQL_DESC_UNNAMED:
        *num = (c->name && *c->name) ? SQL_NAMED : SQL_UNNAMED; break;
    default:
        return odbc_diag_add(DIAG(s), "HY091", "Invalid descriptor field "
                             "identifier %u", (unsigned)field);
    }
    return SQL_SUCCESS;
}
