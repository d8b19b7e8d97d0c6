/*
 * convert.h - one jet_value into the application's buffer as any SQL_C_*.
 *
 * The conversion states of ODBC are born here (01004 truncation, 01S07
 * fractional truncation, 22002, 22003, 22018, 07006) as
 * odbc_conv_status codes; the caller turns them into diagnostic records
 * with odbc_conv_state(). No heap allocation except growing the caller's
 * grow-only scratch buffer.
 */
#ifndef JET_DRIVER_CONVERT_H
#define JET_DRIVER_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "odbc_internal.h"

/** Text cells of materialized rows hold UTF-8 (driver-private encoding
 *  value, never passed to core). */
#define ODBC_ENC_UTF8 ((jet_text_enc)0x7f)

typedef enum odbc_conv_status {
    CONV_OK = 0,
    CONV_TRUNC,         /* 01004: variable-length data did not fit */
    CONV_FRAC,          /* 01S07: fractional digits dropped */
    CONV_NULL_NO_IND,   /* 22002: NULL and no indicator */
    CONV_RANGE,         /* 22003 */
    CONV_BADNUM,        /* 22018 */
    CONV_BADDATE,       /* 22007 */
    CONV_IMPOSSIBLE,    /* 07006 */
    CONV_BADTYPE,       /* HY003: unknown C type */
    CONV_NOMEM,         /* HY001 */
    CONV_CORE           /* core error: cv->rc */
} odbc_conv_status;

/** Conversion context: the db (code page), the scratch and what the last
 *  call left in it. */
typedef struct odbc_conv {
    const jet_db *db;
    odbc_buf *scratch;
    bool keep;              /* SQLGetData: keep a value that did not fit
                               in scratch to continue from (bound columns
                               need not) */
    jet_rc rc;              /* CONV_CORE: the core code */
    bool repr_in_scratch;   /* CONV_TRUNC: full value is in scratch */
    size_t repr_len;        /* its length in bytes */
    size_t delivered;       /* bytes of it written to the app buffer */
    /* SQL_C_NUMERIC target: the ARD record's SQL_DESC_PRECISION and
     * SQL_DESC_SCALE (0, 0 = the defaults SQLBindCol and SQLGetData use:
     * ODBC_NUMERIC_DEFAULT_PRECISION, scale 0) */
    SQLSMALLINT num_precision;
    SQLSMALLINT num_scale;
    /* SQL_ATTR_MAX_LENGTH: a character or binary value (Text, Memo,
     * Binary, OLE Object) into SQL_C_CHAR, SQL_C_WCHAR or SQL_C_BINARY
     * is returned as if it were at most this many bytes (cut at a
     * character boundary; the indicator and the chunks of SQLGetData see
     * the cut value, no 01004 for the cut). 0 = the whole value. */
    SQLULEN max_len;
} odbc_conv;

/** Precision of SQL_C_NUMERIC results when the ARD says nothing (the
 *  "driver-defined default" of SQLBindCol/SQLGetData). */
#define ODBC_NUMERIC_DEFAULT_PRECISION 38

/** The C type SQL_C_DEFAULT stands for, for a column described by ti. */
SQLSMALLINT odbc_conv_default_ctype(const odbc_type_info *ti);

/** True for the C types that SQLGetData streams in chunks. */
bool odbc_conv_is_var(SQLSMALLINT c_type);

/**
 * Convert v into (ptr, buflen bytes) as c_type; *ind (may be NULL) gets the
 * length or SQL_NULL_DATA. ptr NULL means indicator only. When a CHAR/
 * WCHAR/BINARY value does not fit, the first chunk is written, the whole
 * converted value is left in cv->scratch (repr_in_scratch, repr_len,
 * delivered) and CONV_TRUNC returned.
 */
odbc_conv_status odbc_convert(odbc_conv *cv, const jet_value *v,
                              SQLSMALLINT c_type, SQLPOINTER ptr,
                              SQLLEN buflen, SQLLEN *ind);

/**
 * Write the next chunk of a converted value repr (len bytes) from *off:
 * CHAR and WCHAR chunks end with a NUL and are cut at character
 * boundaries; *ind = bytes remaining from *off. Advances *off.
 */
odbc_conv_status odbc_conv_chunk(const uint8_t *repr, size_t len,
                                 size_t *off, SQLSMALLINT c_type,
                                 SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind);

/** Whether SQL_ATTR_MAX_LENGTH (cv->max_len) can cut values of jet type
 *  t converted to c_type: a character or binary source into a character
 *  or binary C type. */
bool odbc_conv_max_len_applies(jet_type t, SQLSMALLINT c_type);

/** SQLSTATE and English message of a status. */
void odbc_conv_state(odbc_conv_status st, const char **sqlstate,
                     const char **msg);

#endif
