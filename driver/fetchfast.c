/*
 * fetchfast.c - conversions of one (source type, C type) pair each, for
 * the fetch loop of bound columns (see fetchfast.h). Every function gives
 * odbc_convert()'s result for its pair: NULL -> SQL_NULL_DATA (or 22002
 * without an indicator); a value that does not fit the simple case is
 * handed to odbc_convert() whole.
 */
#include "config.h"

#include "fetchfast.h"

#include <string.h>

#define WCHAR_SIZE sizeof(SQLWCHAR)

static inline odbc_conv_status put_null(SQLLEN *ind)
{
    if (!ind)
        return CONV_NULL_NO_IND;
    *ind = SQL_NULL_DATA;
    return CONV_OK;
}

static inline int64_t int_of(const jet_value *v)
{
    return v->type == JET_T_BOOL ? (v->u.b ? 1 : 0) : v->u.i;
}

/* The end of every fixed-size conversion: n bytes of src into the buffer
 * and n into the indicator. */
static inline odbc_conv_status put_bytes(const void *src, size_t n,
                                         SQLPOINTER ptr, SQLLEN *ind)
{
    if (ptr)
        memcpy(ptr, src, n);
    if (ind)
        *ind = (SQLLEN)n;
    return CONV_OK;
}

/* An integer into a signed C integer of width bytes (2, 4 or 8) when it
 * lies in [lo, hi]; odbc_convert decides the rest (22003). Inlined into
 * each wrapper below with constant arguments. */
static inline odbc_conv_status put_int(odbc_conv *cv, const jet_value *v,
                                       SQLSMALLINT ct, SQLPOINTER ptr,
                                       SQLLEN buflen, SQLLEN *ind,
                                       int64_t lo, int64_t hi, size_t width)
{
    if (v->is_null)
        return put_null(ind);
    int64_t x = int_of(v);
    if (x < lo || x > hi)
        return odbc_convert(cv, v, ct, ptr, buflen, ind);
    if (width == 2) {
        int16_t b = (int16_t)x;
        return put_bytes(&b, 2, ptr, ind);
    }
    if (width == 4) {
        int32_t b = (int32_t)x;
        return put_bytes(&b, 4, ptr, ind);
    }
    return put_bytes(&x, 8, ptr, ind);
}

static odbc_conv_status put_slong(odbc_conv *cv, const jet_value *v,
                                  SQLSMALLINT ct, SQLPOINTER ptr,
                                  SQLLEN buflen, SQLLEN *ind)
{
    return put_int(cv, v, ct, ptr, buflen, ind, INT32_MIN, INT32_MAX, 4);
}

static odbc_conv_status put_sshort(odbc_conv *cv, const jet_value *v,
                                   SQLSMALLINT ct, SQLPOINTER ptr,
                                   SQLLEN buflen, SQLLEN *ind)
{
    return put_int(cv, v, ct, ptr, buflen, ind, INT16_MIN, INT16_MAX, 2);
}

static odbc_conv_status put_sbigint(odbc_conv *cv, const jet_value *v,
                                    SQLSMALLINT ct, SQLPOINTER ptr,
                                    SQLLEN buflen, SQLLEN *ind)
{
    return put_int(cv, v, ct, ptr, buflen, ind, INT64_MIN, INT64_MAX, 8);
}

static odbc_conv_status put_double(odbc_conv *cv, const jet_value *v,
                                   SQLSMALLINT ct, SQLPOINTER ptr,
                                   SQLLEN buflen, SQLLEN *ind)
{
    (void)cv; (void)ct; (void)buflen;
    if (v->is_null)
        return put_null(ind);
    return put_bytes(&v->u.d, sizeof(double), ptr, ind);
}

static odbc_conv_status put_timestamp(odbc_conv *cv, const jet_value *v,
                                      SQLSMALLINT ct, SQLPOINTER ptr,
                                      SQLLEN buflen, SQLLEN *ind)
{
    if (v->is_null)
        return put_null(ind);
    jet_timestamp ts;
    if (jet_datetime_split(v->u.d, &ts) != JET_OK)
        return odbc_convert(cv, v, ct, ptr, buflen, ind);
    SQL_TIMESTAMP_STRUCT t = {ts.year, ts.month, ts.day, ts.hour,
                              ts.minute, ts.second, ts.fraction_ns};
    return put_bytes(&t, sizeof t, ptr, ind);
}

/* Text into SQL_C_CHAR: UTF-8 straight into the buffer when it fits with
 * its NUL. */
static odbc_conv_status put_text_char(odbc_conv *cv, const jet_value *v,
                                      SQLSMALLINT ct, SQLPOINTER ptr,
                                      SQLLEN buflen, SQLLEN *ind)
{
    if (v->is_null)
        return put_null(ind);
    if (ptr && buflen >= 1 && v->enc != ODBC_ENC_UTF8) {
        size_t cap = (size_t)buflen - 1, n = 0;
        if (jet_text_to_utf8(cv->db, v, (char *)ptr, cap, &n) == JET_OK &&
            n <= cap) {
            ((char *)ptr)[n] = '\0';
            if (ind)
                *ind = (SQLLEN)n;
            return CONV_OK;
        }
    }
    return odbc_convert(cv, v, ct, ptr, buflen, ind);
}

/* Text into 2-byte SQL_C_WCHAR: UTF-16 straight into the buffer. */
static odbc_conv_status put_text_wchar(odbc_conv *cv, const jet_value *v,
                                       SQLSMALLINT ct, SQLPOINTER ptr,
                                       SQLLEN buflen, SQLLEN *ind)
{
    if (v->is_null)
        return put_null(ind);
    if (WCHAR_SIZE == 2 && ptr && buflen >= 2 &&
        ((uintptr_t)ptr & 1) == 0 && v->enc != ODBC_ENC_UTF8) {
        size_t cap = (size_t)buflen / 2 - 1, units = 0;
        if (jet_text_to_utf16(cv->db, v, (uint16_t *)ptr, cap, &units) ==
                JET_OK && units <= cap) {
            ((uint16_t *)ptr)[units] = 0;
            if (ind)
                *ind = (SQLLEN)(units * 2);
            return CONV_OK;
        }
    }
    return odbc_convert(cv, v, ct, ptr, buflen, ind);
}

/* The text form of an integer (i), Double or Date/Time (d) of jet type t
 * (core/numfmt.c, as convert.c's scalar_text writes it) into buf (>= 32
 * bytes); (size_t)-1 when odbc_convert must decide (a date out of
 * range, another type). */
static inline size_t scalar_text(jet_type t, int64_t i, double d, char *buf)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_COMPLEX:
        return jet_int_format(i, buf);
    case JET_T_DOUBLE:
        return jet_double_format(d, buf);
    case JET_T_DATETIME: {
        jet_timestamp ts;
        if (jet_datetime_split(d, &ts) != JET_OK)
            return (size_t)-1;
        return jet_timestamp_format(&ts, 3, buf);
    }
    default:
        return (size_t)-1;
    }
}

/* scalar_text of a value (Single too). */
static inline size_t number_text(const jet_value *v, char *buf)
{
    if (v->type == JET_T_FLOAT)
        return jet_float_format(v->u.f, buf);
    return scalar_text(v->type, int_of(v), v->u.d, buf);
}

/* scalar_text's form of (t, i, d) and its NUL into a SQL_C_CHAR buffer:
 * 1, or 0 when odbc_convert must decide (no form, no room: 01004 or
 * 22003 by its rules). Inlined with a constant t. */
static inline int scalar_char(jet_type t, int64_t i, double d,
                              SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    size_t len;
    if (ptr && buflen >= 32) {
        /* room for any of these forms and its NUL (numfmt.c writes at
         * most 31 characters): straight into the buffer */
        len = scalar_text(t, i, d, ptr);
        if (len == (size_t)-1)
            return 0;
    } else {
        char buf[64];
        len = scalar_text(t, i, d, buf);
        if (len == (size_t)-1 || !ptr || buflen <= 0 ||
            (size_t)buflen < len + 1)
            return 0;
        memcpy(ptr, buf, len);
        ((char *)ptr)[len] = '\0';
    }
    if (ind)
        *ind = (SQLLEN)len;
    return 1;
}

/* len ASCII characters of buf (>= 32 bytes, zero past the text when
 * SQLWCHAR is 2 bytes wide on a little-endian host) and a NUL into a
 * SQL_C_WCHAR buffer: little-endian code units of SQLWCHAR's width
 * (convert.c's to_text writes them the same way). 1, or 0 when they do
 * not fit (odbc_convert decides). */
static inline int ascii_wchar(const char *buf, size_t len, SQLPOINTER ptr,
                              SQLLEN buflen, SQLLEN *ind)
{
    if (!ptr || buflen <= 0 || (size_t)buflen < (len + 1) * WCHAR_SIZE)
        return 0;
    uint8_t *o = ptr;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (WCHAR_SIZE == 2 && len < 32) {
        /* the text is at most 31 characters: widen all 32 bytes (a loop
         * of constant length the compiler vectorizes), then copy the
         * text and its NUL */
        uint16_t w[32];
        for (size_t i = 0; i < 32; i++)
            w[i] = (uint8_t)buf[i];
        memcpy(o, w, (len + 1) * 2);
        if (ind)
            *ind = (SQLLEN)(len * 2);
        return 1;
    }
#endif
    if (WCHAR_SIZE == 2) {
        for (size_t i = 0; i < len; i++) {
            o[2 * i] = (uint8_t)buf[i];
            o[2 * i + 1] = 0;
        }
        o[2 * len] = o[2 * len + 1] = 0;
    } else {
        memset(o, 0, (len + 1) * WCHAR_SIZE);
        for (size_t i = 0; i < len; i++)
            o[WCHAR_SIZE * i] = (uint8_t)buf[i];
    }
    if (ind)
        *ind = (SQLLEN)(len * WCHAR_SIZE);
    return 1;
}

/* A zeroed text buffer for ascii_wchar's widening. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WIDEN_PREP(buf) do { if (WCHAR_SIZE == 2) memset((buf), 0, 32); } while (0)
#else
#define WIDEN_PREP(buf) do { } while (0)
#endif

/* scalar_char for SQL_C_WCHAR. */
static inline int scalar_wchar(jet_type t, int64_t i, double d,
                               SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    char buf[64];
    WIDEN_PREP(buf);
    size_t len = scalar_text(t, i, d, buf);
    return len != (size_t)-1 && ascii_wchar(buf, len, ptr, buflen, ind);
}

/* Integer, Double, Single or Date/Time into SQL_C_CHAR: the text and its
 * NUL straight into the buffer when they fit. */
static odbc_conv_status put_number_char(odbc_conv *cv, const jet_value *v,
                                        SQLSMALLINT ct, SQLPOINTER ptr,
                                        SQLLEN buflen, SQLLEN *ind)
{
    if (v->is_null)
        return put_null(ind);
    if (v->type == JET_T_FLOAT) {
        char buf[64];
        size_t len = jet_float_format(v->u.f, buf);
        if (ptr && buflen > 0 && (size_t)buflen >= len + 1) {
            memcpy(ptr, buf, len + 1);
            if (ind)
                *ind = (SQLLEN)len;
            return CONV_OK;
        }
    } else if (scalar_char(v->type, int_of(v), v->u.d, ptr, buflen, ind)) {
        return CONV_OK;
    }
    return odbc_convert(cv, v, ct, ptr, buflen, ind);
}

/* The same into SQL_C_WCHAR. */
static odbc_conv_status put_number_wchar(odbc_conv *cv, const jet_value *v,
                                         SQLSMALLINT ct, SQLPOINTER ptr,
                                         SQLLEN buflen, SQLLEN *ind)
{
    if (v->is_null)
        return put_null(ind);
    char buf[64];
    WIDEN_PREP(buf);
    size_t len = number_text(v, buf);
    if (len != (size_t)-1 && ascii_wchar(buf, len, ptr, buflen, ind))
        return CONV_OK;
    return odbc_convert(cv, v, ct, ptr, buflen, ind);
}

odbc_put_fn odbc_fast_put_for(jet_type src, SQLSMALLINT c_type)
{
    switch (src) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_COMPLEX:
        switch (c_type) {
        case SQL_C_SLONG: case SQL_C_LONG: return put_slong;
        case SQL_C_SSHORT: case SQL_C_SHORT: return put_sshort;
        case SQL_C_SBIGINT: return put_sbigint;
        case SQL_C_CHAR: return put_number_char;
        case SQL_C_WCHAR: return put_number_wchar;
        default: return odbc_convert;
        }
    case JET_T_DOUBLE:
        if (c_type == SQL_C_DOUBLE)
            return put_double;
        /* fall through */
    case JET_T_FLOAT:
        if (c_type == SQL_C_CHAR)
            return put_number_char;
        if (c_type == SQL_C_WCHAR)
            return put_number_wchar;
        return odbc_convert;
    case JET_T_DATETIME:
        if (c_type == SQL_C_TYPE_TIMESTAMP || c_type == SQL_C_TIMESTAMP)
            return put_timestamp;
        if (c_type == SQL_C_CHAR)
            return put_number_char;
        if (c_type == SQL_C_WCHAR)
            return put_number_wchar;
        return odbc_convert;
    case JET_T_TEXT:
        if (c_type == SQL_C_CHAR)
            return put_text_char;
        if (c_type == SQL_C_WCHAR)
            return put_text_wchar;
        return odbc_convert;
    default:
        return odbc_convert;
    }
}

/* ---------------------------------------------------------------- cells */

/* Cell getters (odbc_cell_fn): the value's bytes as jet_row_cell found
 * them, never NULL (the caller handles NULL). A FIXED cell's n is its
 * width. */

static int cell_int_slong(const jet_db *db, const uint8_t *p, size_t n,
                          SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)buflen;
    if (n > 4)
        return 0;               /* BIGINT: may not fit (22003) */
    int32_t x = (int32_t)jet_cell_int(p, n);
    put_bytes(&x, sizeof x, ptr, ind);
    return 1;
}

static int cell_int_sbigint(const jet_db *db, const uint8_t *p, size_t n,
                            SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)buflen;
    int64_t x = jet_cell_int(p, n);
    put_bytes(&x, sizeof x, ptr, ind);
    return 1;
}

static int cell_double_double(const jet_db *db, const uint8_t *p, size_t n,
                              SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n; (void)buflen;
    double d = jet_cell_double(p);
    put_bytes(&d, sizeof d, ptr, ind);
    return 1;
}

static int cell_date_timestamp(const jet_db *db, const uint8_t *p, size_t n,
                               SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n; (void)buflen;
    jet_timestamp ts;
    if (jet_datetime_split(jet_cell_double(p), &ts) != JET_OK)
        return 0;
    SQL_TIMESTAMP_STRUCT t = {ts.year, ts.month, ts.day, ts.hour,
                              ts.minute, ts.second, ts.fraction_ns};
    put_bytes(&t, sizeof t, ptr, ind);
    return 1;
}

static int cell_int_char(const jet_db *db, const uint8_t *p, size_t n,
                         SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db;
    return scalar_char(JET_T_LONG, jet_cell_int(p, n), 0, ptr, buflen, ind);
}

static int cell_double_char(const jet_db *db, const uint8_t *p, size_t n,
                            SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n;
    return scalar_char(JET_T_DOUBLE, 0, jet_cell_double(p), ptr, buflen,
                       ind);
}

static int cell_date_char(const jet_db *db, const uint8_t *p, size_t n,
                          SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n;
    return scalar_char(JET_T_DATETIME, 0, jet_cell_double(p), ptr, buflen,
                       ind);
}

static int cell_int_wchar(const jet_db *db, const uint8_t *p, size_t n,
                          SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db;
    return scalar_wchar(JET_T_LONG, jet_cell_int(p, n), 0, ptr, buflen, ind);
}

static int cell_double_wchar(const jet_db *db, const uint8_t *p, size_t n,
                             SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n;
    return scalar_wchar(JET_T_DOUBLE, 0, jet_cell_double(p), ptr, buflen,
                        ind);
}

static int cell_date_wchar(const jet_db *db, const uint8_t *p, size_t n,
                           SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    (void)db; (void)n;
    return scalar_wchar(JET_T_DATETIME, 0, jet_cell_double(p), ptr, buflen,
                        ind);
}

/* Jet4 in-row text as jet_value_decode gives it. */
static inline jet_value cell_text(const uint8_t *p, size_t n)
{
    jet_value v = { .type = JET_T_TEXT, .data = p, .len = n };
    v.enc = n >= 2 && p[0] == 0xFF && p[1] == 0xFE ? JET_ENC_COMPRESSED
                                                   : JET_ENC_UCS2;
    return v;
}

static int cell_text_char(const jet_db *db, const uint8_t *p, size_t n,
                          SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    if (!ptr || buflen < 1)
        return 0;
    jet_value v = cell_text(p, n);
    size_t cap = (size_t)buflen - 1, len = 0;
    if (jet_text_to_utf8(db, &v, (char *)ptr, cap, &len) != JET_OK ||
        len > cap)
        return 0;
    ((char *)ptr)[len] = '\0';
    if (ind)
        *ind = (SQLLEN)len;
    return 1;
}

static int cell_text_wchar(const jet_db *db, const uint8_t *p, size_t n,
                           SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    if (WCHAR_SIZE != 2 || !ptr || buflen < 2 || ((uintptr_t)ptr & 1))
        return 0;
    jet_value v = cell_text(p, n);
    size_t cap = (size_t)buflen / 2 - 1, units = 0;
    if (jet_text_to_utf16(db, &v, (uint16_t *)ptr, cap, &units) != JET_OK ||
        units > cap)
        return 0;
    ((uint16_t *)ptr)[units] = 0;
    if (ind)
        *ind = (SQLLEN)(units * 2);
    return 1;
}

odbc_cell_fn odbc_fast_cell_for(jet_type src, SQLSMALLINT c_type)
{
    switch (src) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        switch (c_type) {
        case SQL_C_SLONG: case SQL_C_LONG: return cell_int_slong;
        case SQL_C_SBIGINT: return cell_int_sbigint;
        case SQL_C_CHAR: return cell_int_char;
        case SQL_C_WCHAR: return cell_int_wchar;
        default: return NULL;
        }
    case JET_T_DOUBLE:
        return c_type == SQL_C_DOUBLE ? cell_double_double
               : c_type == SQL_C_CHAR ? cell_double_char
               : c_type == SQL_C_WCHAR ? cell_double_wchar : NULL;
    case JET_T_DATETIME:
        return c_type == SQL_C_TYPE_TIMESTAMP || c_type == SQL_C_TIMESTAMP
                   ? cell_date_timestamp
               : c_type == SQL_C_CHAR ? cell_date_char
               : c_type == SQL_C_WCHAR ? cell_date_wchar : NULL;
    case JET_T_TEXT:
        return c_type == SQL_C_CHAR ? cell_text_char
               : c_type == SQL_C_WCHAR ? cell_text_wchar : NULL;
    default:
        return NULL;
    }
}
