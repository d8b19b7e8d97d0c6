/*
 * convert.c - jet_value -> SQL_C_* into application buffers.
 *
 * Sources are grouped by what they are: integers (BOOL, BYTE, INT, LONG,
 * BIGINT, COMPLEX), MONEY (int64 in 1/10000), NUMERIC (96-bit magnitude
 * and scale), FLOAT/DOUBLE, DATETIME (days since 1899-12-30), EXT_DATETIME,
 * GUID, TEXT/MEMO, and bytes (BINARY, OLE, unknown types).
 * Rules: ODBC 3.x Appendix D "Converting Data from SQL to C Data Types".
 * Text targets get the text form of any value: a number may lose only
 * fractional digits (01004), a timestamp only its fraction, a GUID or bit
 * nothing (else 22003). Numeric targets take numbers or text that is a
 * numeric-literal (22018 otherwise), exactly: integer, BIT and NUMERIC
 * targets go through an exact decimal (xdec), never through double;
 * dropped fractional digits give 01S07, lost whole digits 22003.
 * SQL_C_NUMERIC uses the ARD's precision and scale (defaults: 38, 0).
 * Date targets take dates or text (22018 for text that is no date; a
 * time part dropped gives 01S07); BINARY takes the in-memory form.
 */
#include "config.h"

#include "convert.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "int128.h"
#include "wide.h"

/* SQL_C_WCHAR data is UTF-16 with 2-byte SQLWCHAR (unixODBC, Windows) and
 * UTF-32 with 4-byte SQLWCHAR (iODBC); wide.h decides which. */
#define WCHAR_SIZE sizeof(SQLWCHAR)
_Static_assert(sizeof(SQLWCHAR) == 2 || sizeof(SQLWCHAR) == 4,
               "SQLWCHAR must be 2 or 4 bytes");

typedef jet_u128 u128;
typedef jet_i128 i128;

void odbc_conv_state(odbc_conv_status st, const char **sqlstate,
                     const char **msg)
{
    static const struct { const char *state, *msg; } tab[] = {
        [CONV_OK] = {"00000", "success"},
        [CONV_TRUNC] = {"01004", "String data, right truncated"},
        [CONV_FRAC] = {"01S07", "Fractional truncation"},
        [CONV_NULL_NO_IND] = {"22002",
                              "Indicator variable required but not supplied"},
        [CONV_RANGE] = {"22003", "Numeric value out of range"},
        [CONV_BADNUM] = {"22018", "Invalid character value for cast specification"},
        [CONV_BADDATE] = {"22007", "Invalid datetime format"},
        [CONV_IMPOSSIBLE] = {"07006", "Restricted data type attribute violation"},
        [CONV_BADTYPE] = {"HY003", "Invalid application buffer type"},
        [CONV_NOMEM] = {"HY001", "Memory allocation error"},
        [CONV_CORE] = {"HY000", "error reading the value"},
    };
    *sqlstate = tab[st].state;
    *msg = tab[st].msg;
}

SQLSMALLINT odbc_conv_default_ctype(const odbc_type_info *ti)
{
    if (ti->default_c_type != 0)
        return ti->default_c_type;
    switch (ti->sql_type) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_DECIMAL: case SQL_NUMERIC:
        return SQL_C_CHAR;
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        return SQL_C_WCHAR;
    case SQL_BIT: return SQL_C_BIT;
    case SQL_TINYINT: return SQL_C_UTINYINT;
    case SQL_SMALLINT: return SQL_C_SSHORT;
    case SQL_INTEGER: return SQL_C_SLONG;
    case SQL_BIGINT: return SQL_C_SBIGINT;
    case SQL_REAL: return SQL_C_FLOAT;
    case SQL_FLOAT: case SQL_DOUBLE: return SQL_C_DOUBLE;
    case SQL_TYPE_DATE: return SQL_C_TYPE_DATE;
    case SQL_TYPE_TIME: return SQL_C_TYPE_TIME;
    case SQL_TYPE_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    case SQL_GUID: return SQL_C_GUID;
    default: return SQL_C_BINARY;
    }
}

bool odbc_conv_is_var(SQLSMALLINT c_type)
{
    return c_type == SQL_C_CHAR || c_type == SQL_C_WCHAR ||
           c_type == SQL_C_BINARY;
}

static bool is_text_type(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_MEMO;
}

static bool is_int_type(jet_type t)
{
    return t == JET_T_BOOL || t == JET_T_BYTE || t == JET_T_INT ||
           t == JET_T_LONG || t == JET_T_BIGINT || t == JET_T_COMPLEX;
}

static int64_t int_of(const jet_value *v)
{
    return v->type == JET_T_BOOL ? (v->u.b ? 1 : 0) : v->u.i;
}

static u128 numeric_mag(const jet_value *v)
{
    u128 m = u128_of(0);
    for (int i = 11; i >= 0; i--)
        m = u128_or(u128_shl(m, 8), u128_of(v->u.num.mag[i]));
    return m;
}

/* ------------------------------------------------------------ chunks */

/* Length of the longest prefix of UTF-8 s (at most max bytes) that ends on
 * a character boundary. */
static size_t utf8_cut(const uint8_t *s, size_t max)
{
    size_t n = max;
    while (n > 0 && (s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

odbc_conv_status odbc_conv_chunk(const uint8_t *repr, size_t len,
                                 size_t *off, SQLSMALLINT c_type,
                                 SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    size_t rest = len - *off;
    const uint8_t *src = repr + *off;
    size_t n;

    if (ind)
        *ind = (SQLLEN)rest;
    if (!ptr)
        return CONV_OK;
    if (c_type == SQL_C_CHAR) {
        if (buflen <= 0)
            return rest ? CONV_TRUNC : CONV_OK;
        size_t room = (size_t)buflen - 1;
        if (rest <= room) {
            n = rest;
        } else {
            n = utf8_cut(src, room);
            if (n == 0)
                n = room;
        }
        memcpy(ptr, src, n);
        ((char *)ptr)[n] = '\0';
    } else if (c_type == SQL_C_WCHAR) {
        if ((size_t)buflen < WCHAR_SIZE)
            return rest ? CONV_TRUNC : CONV_OK;
        size_t room = ((size_t)buflen / WCHAR_SIZE - 1) * WCHAR_SIZE;
        if (rest <= room) {
            n = rest;
        } else {
            n = room;
            /* do not split a surrogate pair */
            if (WCHAR_SIZE == 2 && n >= 2) {
                uint16_t last;
                memcpy(&last, src + n - 2, 2);
                if (last >= 0xD800 && last <= 0xDBFF && n > 2)
                    n -= 2;
            }
        }
        memcpy(ptr, src, n);
        memset((char *)ptr + n, 0, WCHAR_SIZE);
    } else {
        size_t room = buflen > 0 ? (size_t)buflen : 0;
        n = rest <= room ? rest : room;
        if (n)
            memcpy(ptr, src, n);
    }
    *off += n;
    return n < rest ? CONV_TRUNC : CONV_OK;
}

bool odbc_conv_max_len_applies(jet_type t, SQLSMALLINT c_type)
{
    if (c_type != SQL_C_CHAR && c_type != SQL_C_WCHAR &&
        c_type != SQL_C_BINARY)
        return false;
    return is_text_type(t) || t == JET_T_BINARY || t == JET_T_OLE ||
           !(is_int_type(t) || t == JET_T_MONEY || t == JET_T_NUMERIC ||
             t == JET_T_FLOAT || t == JET_T_DOUBLE ||
             t == JET_T_DATETIME || t == JET_T_EXT_DATETIME ||
             t == JET_T_GUID);
}

/* len, the bytes of a character or binary value's repr as c_type, cut to
 * SQL_ATTR_MAX_LENGTH (cv->max_len) at a character boundary: a UTF-8
 * character, a whole SQLWCHAR and no half of a surrogate pair. */
static size_t max_len_cut(const odbc_conv *cv, const uint8_t *repr,
                          size_t len, SQLSMALLINT c_type)
{
    if (!cv->max_len || len <= cv->max_len)
        return len;
    size_t n = (size_t)cv->max_len;
    if (c_type == SQL_C_CHAR)
        return utf8_cut(repr, n);
    if (c_type == SQL_C_WCHAR) {
        n -= n % WCHAR_SIZE;
        if (WCHAR_SIZE == 2 && n >= 2) {
            uint16_t last;
            memcpy(&last, repr + n - 2, 2);
            if (last >= 0xD800 && last <= 0xDBFF)
                n -= 2;
        }
    }
    return n;
}

/* Deliver repr (len bytes, which must already live in cv->scratch when
 * longer than the buffer) as the first chunk. */
static odbc_conv_status deliver(odbc_conv *cv, const uint8_t *repr,
                                size_t len, SQLSMALLINT c_type,
                                SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    size_t off = 0;
    odbc_conv_status st = odbc_conv_chunk(repr, len, &off, c_type, ptr,
                                          buflen, ind);
    if (cv->keep && (st == CONV_TRUNC || (!ptr && len > 0))) {
        if (repr != cv->scratch->p) {
            if (odbc_buf_reserve(cv->scratch, len ? len : 1) != 0)
                return CONV_NOMEM;
            memmove(cv->scratch->p, repr, len);
        }
        cv->repr_in_scratch = true;
        cv->repr_len = len;
        cv->delivered = off;
    }
    return st;
}

/* ------------------------------------------------------ text forms */

/* Double/Single and Date/Time text: core/numfmt.c writes them by hand
 * (shortest round-trip digits, the "%.*g" layout); buf >= 32 bytes. */
static size_t fmt_float(char *buf, size_t cap, float f)
{
    (void)cap;
    return jet_float_format(f, buf);
}

static size_t fmt_double(char *buf, size_t cap, double d)
{
    (void)cap;
    return jet_double_format(d, buf);
}

static size_t fmt_timestamp(char *buf, size_t cap, const jet_timestamp *ts,
                            int frac_digits)
{
    (void)cap;
    return jet_timestamp_format(ts, frac_digits, buf);
}

static size_t fmt_guid(char *buf, size_t cap, const uint8_t *g)
{
    return (size_t)snprintf(buf, cap,
        "{%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-"
        "%02X%02X%02X%02X%02X%02X}",
        g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9],
        g[10], g[11], g[12], g[13], g[14], g[15]);
}

/* The text form of a non-text, non-bytes value into buf (>= 64 bytes).
 * Returns its length, or (size_t)-1 with *st set. */
static size_t scalar_text(const jet_value *v, char *buf, size_t cap,
                          odbc_conv_status *st, jet_rc *rc)
{
    jet_timestamp ts;
    jet_rc r;

    if (is_int_type(v->type))
        return jet_int_format(int_of(v), buf);
    switch (v->type) {
    case JET_T_MONEY:
        return jet_money_format(v->u.money, buf, cap);
    case JET_T_NUMERIC:
        return jet_numeric_format(v, buf, cap);
    case JET_T_FLOAT:
        return fmt_float(buf, cap, v->u.f);
    case JET_T_DOUBLE:
        return fmt_double(buf, cap, v->u.d);
    case JET_T_DATETIME:
        r = jet_datetime_split(v->u.d, &ts);
        if (r != JET_OK) {
            *st = CONV_RANGE;
            return (size_t)-1;
        }
        return fmt_timestamp(buf, cap, &ts, 3);
    case JET_T_EXT_DATETIME:
        r = jet_ext_datetime_split(v, &ts);
        if (r != JET_OK) {
            *st = CONV_CORE;
            *rc = r;
            return (size_t)-1;
        }
        return fmt_timestamp(buf, cap, &ts, 7);
    case JET_T_GUID:
        return fmt_guid(buf, cap, v->u.guid);
    default:
        *st = CONV_IMPOSSIBLE;
        return (size_t)-1;
    }
}

/* Full UTF-8 text of a TEXT/MEMO value into cv->scratch; *len bytes. */
static odbc_conv_status text_utf8(odbc_conv *cv, const jet_value *v,
                                  size_t *len)
{
    if (v->enc == ODBC_ENC_UTF8) {
        if (odbc_buf_reserve(cv->scratch, v->len + 1) != 0)
            return CONV_NOMEM;
        memcpy(cv->scratch->p, v->data, v->len);
        *len = v->len;
        return CONV_OK;
    }
    size_t cap = cv->scratch->cap, n = 0;
    for (int pass = 0; pass < 2; pass++) {
        jet_rc r = jet_text_to_utf8(cv->db, v, (char *)cv->scratch->p, cap,
                                    &n);
        if (r != JET_OK) {
            cv->rc = r;
            return CONV_CORE;
        }
        if (n <= cap)
            break;
        if (odbc_buf_reserve(cv->scratch, n + 1) != 0)
            return CONV_NOMEM;
        cap = cv->scratch->cap;
    }
    *len = n;
    return CONV_OK;
}

/* Full UTF-16 text into cv->scratch; *len bytes. */
static odbc_conv_status text_utf16(odbc_conv *cv, const jet_value *v,
                                   size_t *len)
{
    if (v->enc == ODBC_ENC_UTF8) {
        size_t units = odbc_utf8_wide_len((const char *)v->data, v->len);
        if (odbc_buf_reserve(cv->scratch, (units + 1) * 2) != 0)
            return CONV_NOMEM;
        odbc_utf8_to_wide((SQLWCHAR *)cv->scratch->p, units + 1,
                          (const char *)v->data, v->len);
        *len = units * 2;
        return CONV_OK;
    }
    size_t cap = cv->scratch->cap / 2, n = 0;
    for (int pass = 0; pass < 2; pass++) {
        jet_rc r = jet_text_to_utf16(cv->db, v, (uint16_t *)cv->scratch->p,
                                     cap, &n);
        if (r != JET_OK) {
            cv->rc = r;
            return CONV_CORE;
        }
        if (n <= cap)
            break;
        if (odbc_buf_reserve(cv->scratch, (n + 1) * 2) != 0)
            return CONV_NOMEM;
        cap = cv->scratch->cap / 2;
    }
    *len = n * 2;
    return CONV_OK;
}

/* Full SQL_C_WCHAR text into scratch (UTF-16 or UTF-32, as SQLWCHAR is);
 * *src is where it starts, *len its bytes without the NUL. */
static odbc_conv_status text_wide(odbc_conv *cv, const jet_value *v,
                                  const uint8_t **src, size_t *len)
{
    size_t n, off, units;
    odbc_conv_status st;
    if (WCHAR_SIZE == 2) {
        st = text_utf16(cv, v, len);
        *src = cv->scratch->p;
        return st;
    }
    /* UTF-8 first, then its wide form after it in the same scratch */
    if ((st = text_utf8(cv, v, &n)) != CONV_OK)
        return st;
    units = odbc_utf8_wide_len((const char *)cv->scratch->p, n);
    off = (n + WCHAR_SIZE - 1) / WCHAR_SIZE * WCHAR_SIZE;
    if (odbc_buf_reserve(cv->scratch, off + (units + 1) * WCHAR_SIZE) != 0)
        return CONV_NOMEM;
    odbc_utf8_to_wide((SQLWCHAR *)(void *)(cv->scratch->p + off), units + 1,
                      (const char *)cv->scratch->p, n);
    *src = cv->scratch->p + off;
    *len = units * WCHAR_SIZE;
    return CONV_OK;
}

/* A NUL-terminated UTF-8 copy of a text value in scratch, trimmed. */
static odbc_conv_status text_cstr(odbc_conv *cv, const jet_value *v,
                                  char **out)
{
    size_t n;
    odbc_conv_status st = text_utf8(cv, v, &n);
    if (st != CONV_OK)
        return st;
    if (odbc_buf_reserve(cv->scratch, n + 1) != 0)
        return CONV_NOMEM;
    char *s = (char *)cv->scratch->p;
    s[n] = '\0';
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    while (*s && isspace((unsigned char)*s))
        s++;
    *out = s;
    return CONV_OK;
}

static odbc_conv_status to_text(odbc_conv *cv, const jet_value *v,
                                SQLSMALLINT c_type, SQLPOINTER ptr,
                                SQLLEN buflen, SQLLEN *ind)
{
    odbc_conv_status st = CONV_OK;
    size_t len;

    if (is_text_type(v->type)) {
        /* fast path: decode straight into the application's buffer */
        if (cv->max_len) {
            /* the whole text first, to be cut below */
        } else if (WCHAR_SIZE == 2 && c_type == SQL_C_WCHAR && ptr &&
                   buflen >= 2 &&
            ((uintptr_t)ptr & 1) == 0 && v->enc != ODBC_ENC_UTF8) {
            size_t cap = (size_t)buflen / 2 - 1, units = 0;
            jet_rc r = jet_text_to_utf16(cv->db, v, (uint16_t *)ptr, cap,
                                         &units);
            if (r != JET_OK) {
                cv->rc = r;
                return CONV_CORE;
            }
            if (units <= cap) {
                ((uint16_t *)ptr)[units] = 0;
                if (ind)
                    *ind = (SQLLEN)(units * 2);
                return CONV_OK;
            }
        } else if (c_type == SQL_C_CHAR && ptr && buflen >= 1 &&
                   v->enc != ODBC_ENC_UTF8) {
            size_t cap = (size_t)buflen - 1, n = 0;
            jet_rc r = jet_text_to_utf8(cv->db, v, (char *)ptr, cap, &n);
            if (r != JET_OK) {
                cv->rc = r;
                return CONV_CORE;
            }
            if (n <= cap) {
                ((char *)ptr)[n] = '\0';
                if (ind)
                    *ind = (SQLLEN)n;
                return CONV_OK;
            }
        }
        const uint8_t *src = NULL;
        if (c_type == SQL_C_WCHAR) {
            st = text_wide(cv, v, &src, &len);
        } else {
            st = text_utf8(cv, v, &len);
            src = cv->scratch->p;
        }
        if (st != CONV_OK)
            return st;
        len = max_len_cut(cv, src, len, c_type);
        return deliver(cv, src, len, c_type, ptr, buflen, ind);
    }

    if (v->type == JET_T_BINARY || v->type == JET_T_OLE ||
        !(is_int_type(v->type) || v->type == JET_T_MONEY ||
          v->type == JET_T_NUMERIC || v->type == JET_T_FLOAT ||
          v->type == JET_T_DOUBLE || v->type == JET_T_DATETIME ||
          v->type == JET_T_EXT_DATETIME || v->type == JET_T_GUID)) {
        /* bytes -> hexadecimal text, two characters per byte */
        static const char hex[] = "0123456789ABCDEF";
        size_t unit = c_type == SQL_C_WCHAR ? WCHAR_SIZE : 1;
        len = v->len * 2 * unit;
        if (odbc_buf_reserve(cv->scratch, len + WCHAR_SIZE) != 0)
            return CONV_NOMEM;
        uint8_t *o = cv->scratch->p;
        for (size_t i = 0; i < v->len; i++) {
            uint8_t hi = (uint8_t)hex[v->data[i] >> 4];
            uint8_t lo = (uint8_t)hex[v->data[i] & 15];
            if (unit > 1) {
                /* little-endian code units, as every ODBC host we build */
                memset(o, 0, 2 * unit);
                o[0] = hi;
                o[unit] = lo;
                o += 2 * unit;
            } else {
                *o++ = hi; *o++ = lo;
            }
        }
        len = max_len_cut(cv, cv->scratch->p, len, c_type);
        return deliver(cv, cv->scratch->p, len, c_type, ptr, buflen, ind);
    }

    char buf[80];
    uint8_t wbuf[80 * 4];
    len = scalar_text(v, buf, sizeof buf, &st, &cv->rc);
    if (len == (size_t)-1)
        return st;
    /* fast path: the whole text and its NUL fit, straight into the
     * application's buffer (what odbc_conv_chunk would do, in one step) */
    if (ptr && buflen > 0) {
        size_t unit = c_type == SQL_C_WCHAR ? WCHAR_SIZE : 1;
        if ((size_t)buflen >= (len + 1) * unit) {
            uint8_t *o = ptr;
            if (unit == 1) {
                memcpy(o, buf, len + 1);
            } else {
                /* little-endian code units of SQLWCHAR's width */
                memset(o, 0, (len + 1) * unit);
                for (size_t i = 0; i < len; i++)
                    o[unit * i] = (uint8_t)buf[i];
            }
            if (ind)
                *ind = (SQLLEN)(len * unit);
            return CONV_OK;
        }
    }
    if (ptr) {
        /* Characters that fit with the NUL. A number may lose fractional
         * digits only (01004), a timestamp its fraction only, a date,
         * GUID or bit nothing: else 22003 ("SQL to C" tables). Date/Time
         * Extended is described as text and truncates as text. */
        size_t chars = (size_t)(buflen > 0 ? buflen : 0);
        if (c_type == SQL_C_WCHAR)
            chars /= WCHAR_SIZE;
        size_t room = chars > 0 ? chars - 1 : 0;
        size_t must = 0;
        if (v->type == JET_T_DATETIME)
            must = 19;                  /* yyyy-mm-dd hh:mm:ss */
        else if (v->type == JET_T_GUID || v->type == JET_T_BOOL)
            must = len;
        else if (v->type != JET_T_EXT_DATETIME) {
            const char *dot = memchr(buf, '.', len);
            must = memchr(buf, 'e', len) || !dot ? len : (size_t)(dot - buf);
        }
        if (room < must && room < len)
            return CONV_RANGE;
    }
    if (c_type == SQL_C_WCHAR) {
        memset(wbuf, 0, len * WCHAR_SIZE);
        for (size_t i = 0; i < len; i++)
            wbuf[WCHAR_SIZE * i] = (uint8_t)buf[i];
        return deliver(cv, wbuf, len * WCHAR_SIZE, c_type, ptr, buflen, ind);
    }
    return deliver(cv, (const uint8_t *)buf, len, c_type, ptr, buflen, ind);
}

/* ---------------------------------------------------------- numbers */

/*
 * An exact decimal: (negative ? -1 : 1) * mag / 10^scale. scale may be
 * negative ("1e+16" is mag 1, scale -16). Every numeric source converts to
 * one without loss (FLOAT/DOUBLE through their shortest round-trip text),
 * so integer, NUMERIC and BIT targets are exact, never through double.
 */
typedef struct xdec {
    u128 mag;
    int scale;
    bool negative;
} xdec;

#define XDEC_MAX_DIGITS 38

/* Parse a numeric-literal ([+-]digits[.digits][E[+-]digits], at least one
 * digit; no spaces: text_cstr trimmed them). CONV_BADNUM when s is not
 * one, CONV_RANGE when it has more than 38 significant whole digits. */
static odbc_conv_status xdec_parse(const char *s, xdec *x)
{
    int digits = 0, exp = 0;
    bool any = false, point = false;
    memset(x, 0, sizeof *x);
    if (*s == '-' || *s == '+')
        x->negative = *s++ == '-';
    for (;; s++) {
        if (*s == '.' && !point) {
            point = true;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            break;
        any = true;
        if (digits == 0 && *s == '0') {
            if (point)
                x->scale++;
            continue;
        }
        if (digits >= XDEC_MAX_DIGITS) {
            /* beyond 38 significant digits: whole ones overflow, the
             * fractional ones are ignored */
            if (!point)
                return CONV_RANGE;
            continue;
        }
        x->mag = u128_add(u128_mul(x->mag, u128_of(10)), u128_of((uint64_t)(*s - '0')));
        digits++;
        if (point)
            x->scale++;
    }
    if (!any)
        return CONV_BADNUM;
    if (*s == 'e' || *s == 'E') {
        bool eneg = false;
        int ed = 0;
        s++;
        if (*s == '-' || *s == '+')
            eneg = *s++ == '-';
        for (; isdigit((unsigned char)*s); s++, ed++)
            if (exp < 100000)
                exp = exp * 10 + (*s - '0');
        if (ed == 0)
            return CONV_BADNUM;
        x->scale += eneg ? exp : -exp;
    }
    if (*s != '\0')
        return CONV_BADNUM;
    return CONV_OK;
}

/* Bring x to scale t: digits dropped set *frac; CONV_RANGE when the
 * magnitude would pass 38 digits. */
static odbc_conv_status xdec_rescale(xdec *x, int t, bool *frac)
{
    const u128 max_mul = u128_divmod(u128_make(1ull << 63, 0), u128_of(10), NULL);
    if (u128_is_zero(x->mag)) {
        x->scale = t;
        return CONV_OK;
    }
    if (x->scale < t) {
        if (t - x->scale > XDEC_MAX_DIGITS)
            return CONV_RANGE;
        while (x->scale < t) {
            if (u128_cmp(x->mag, max_mul) > 0)
                return CONV_RANGE;
            x->mag = u128_mul(x->mag, u128_of(10));
            x->scale++;
        }
    } else if (x->scale > t) {
        if (x->scale - t > XDEC_MAX_DIGITS + 1) {
            *frac = true;
            x->mag = u128_of(0);
            x->scale = t;
            return CONV_OK;
        }
        while (x->scale > t) {
            u128 r;
            x->mag = u128_divmod(x->mag, u128_of(10), &r);
            if (!u128_is_zero(r))
                *frac = true;
            x->scale--;
        }
    }
    return CONV_OK;
}

static size_t fmt_float(char *buf, size_t cap, float f);
static size_t fmt_double(char *buf, size_t cap, double d);

/* Any numeric or text value as an exact decimal. */
static odbc_conv_status to_xdec(odbc_conv *cv, const jet_value *v, xdec *x)
{
    char buf[64];
    memset(x, 0, sizeof *x);
    if (is_int_type(v->type)) {
        int64_t i = int_of(v);
        x->negative = i < 0;
        x->mag = i128_mag(i128_of(i));
        return CONV_OK;
    }
    switch (v->type) {
    case JET_T_MONEY: {
        int64_t m = v->u.money;
        x->negative = m < 0;
        x->mag = i128_mag(i128_of(m));
        x->scale = 4;
        return CONV_OK;
    }
    case JET_T_NUMERIC:
        x->mag = numeric_mag(v);
        x->scale = v->u.num.scale;
        x->negative = v->u.num.negative && !u128_is_zero(x->mag);
        return CONV_OK;
    case JET_T_FLOAT:
    case JET_T_DOUBLE: {
        double d = v->type == JET_T_FLOAT ? (double)v->u.f : v->u.d;
        if (!isfinite(d))
            return CONV_RANGE;
        if (v->type == JET_T_FLOAT)
            fmt_float(buf, sizeof buf, v->u.f);
        else
            fmt_double(buf, sizeof buf, v->u.d);
        return xdec_parse(buf, x);
    }
    case JET_T_TEXT:
    case JET_T_MEMO: {
        char *s;
        odbc_conv_status st = text_cstr(cv, v, &s);
        if (st != CONV_OK)
            return st;
        return xdec_parse(s, x);
    }
    default:
        return CONV_IMPOSSIBLE;
    }
}

/* The value as an integer (truncated toward zero); *frac when digits were
 * dropped. Magnitudes past 64 bits are CONV_RANGE for every target. */
static odbc_conv_status to_integer(odbc_conv *cv, const jet_value *v,
                                   i128 *out, bool *frac)
{
    xdec x;
    *frac = false;
    if (is_int_type(v->type)) {
        *out = i128_of(int_of(v));
        return CONV_OK;
    }
    odbc_conv_status st = to_xdec(cv, v, &x);
    if (st != CONV_OK)
        return st;
    st = xdec_rescale(&x, 0, frac);
    if (st != CONV_OK)
        return st;
    if (u128_hi64(x.mag) != 0)
        return CONV_RANGE;
    *out = x.negative ? i128_neg(i128_from_u128(x.mag)) : i128_from_u128(x.mag);
    return CONV_OK;
}

static odbc_conv_status to_double(odbc_conv *cv, const jet_value *v,
                                  double *out)
{
    char buf[64];
    if (is_int_type(v->type)) {
        *out = (double)int_of(v);
        return CONV_OK;
    }
    switch (v->type) {
    case JET_T_MONEY:
        jet_money_format(v->u.money, buf, sizeof buf);
        *out = jet_strtod_c(buf, NULL);
        return CONV_OK;
    case JET_T_NUMERIC:
        jet_numeric_format(v, buf, sizeof buf);
        *out = jet_strtod_c(buf, NULL);
        return CONV_OK;
    case JET_T_FLOAT:
        *out = (double)v->u.f;
        return CONV_OK;
    case JET_T_DOUBLE:
        *out = v->u.d;
        return CONV_OK;
    case JET_T_TEXT:
    case JET_T_MEMO: {
        char *s;
        xdec x;
        odbc_conv_status st = text_cstr(cv, v, &s);
        if (st != CONV_OK)
            return st;
        st = xdec_parse(s, &x);
        if (st == CONV_BADNUM)
            return st;
        errno = 0;
        *out = jet_strtod_c(s, NULL);
        if (errno == ERANGE && isinf(*out))
            return CONV_RANGE;
        return CONV_OK;
    }
    default:
        return CONV_IMPOSSIBLE;
    }
}

static odbc_conv_status put_integer(odbc_conv *cv, const jet_value *v,
                                    SQLSMALLINT c_type, SQLPOINTER ptr,
                                    SQLLEN *ind)
{
    i128 x;
    bool frac;
    odbc_conv_status st;
    if (c_type == SQL_C_BIT && !is_int_type(v->type)) {
        /* 0 or 1; in (0, 2) truncates (01S07); below 0 or from 2: 22003 */
        xdec d;
        st = to_xdec(cv, v, &d);
        if (st != CONV_OK)
            return st;
        if (d.negative && !u128_is_zero(d.mag))
            return CONV_RANGE;
    }
    st = to_integer(cv, v, &x, &frac);
    if (st != CONV_OK)
        return st;
    int64_t lo;
    uint64_t hi;
    size_t size;
    switch (c_type) {
    case SQL_C_BIT: lo = 0; hi = 1; size = 1; break;
    case SQL_C_STINYINT: case SQL_C_TINYINT:
        lo = INT8_MIN; hi = INT8_MAX; size = 1; break;
    case SQL_C_UTINYINT: lo = 0; hi = UINT8_MAX; size = 1; break;
    case SQL_C_SSHORT: case SQL_C_SHORT:
        lo = INT16_MIN; hi = INT16_MAX; size = 2; break;
    case SQL_C_USHORT: lo = 0; hi = UINT16_MAX; size = 2; break;
    case SQL_C_SLONG: case SQL_C_LONG:
        lo = INT32_MIN; hi = INT32_MAX; size = 4; break;
    case SQL_C_ULONG: lo = 0; hi = UINT32_MAX; size = 4; break;
    case SQL_C_SBIGINT: lo = INT64_MIN; hi = INT64_MAX; size = 8; break;
    default: /* SQL_C_UBIGINT */
        lo = 0; hi = UINT64_MAX; size = 8; break;
    }
    if (i128_cmp(x, i128_of(lo)) < 0 ||
        i128_cmp(x, i128_from_u128(u128_of(hi))) > 0)
        return CONV_RANGE;
    if (ptr) {
        uint64_t u = u128_lo64(u128_from_i128(x)); /* two's complement, LE */
        switch (size) {
        case 1: { uint8_t b = (uint8_t)u; memcpy(ptr, &b, 1); break; }
        case 2: { uint16_t b = (uint16_t)u; memcpy(ptr, &b, 2); break; }
        case 4: { uint32_t b = (uint32_t)u; memcpy(ptr, &b, 4); break; }
        default: memcpy(ptr, &u, 8); break;
        }
    }
    if (ind)
        *ind = (SQLLEN)size;
    return frac ? CONV_FRAC : CONV_OK;
}

/*
 * SQL_C_NUMERIC: the value at the ARD's scale (cv->num_scale; SQLBindCol
 * and SQLGetData default to 0) and precision (cv->num_precision, default
 * 38). Dropped digits: 01S07; more digits than the precision: 22003.
 * "SQL to C: Numeric" and "SQL_C_NUMERIC and SQLSetDescField".
 */
static odbc_conv_status put_numeric(odbc_conv *cv, const jet_value *v,
                                    SQLPOINTER ptr, SQLLEN *ind)
{
    xdec x;
    bool frac = false;
    int prec = cv->num_precision > 0 ? cv->num_precision
                                     : ODBC_NUMERIC_DEFAULT_PRECISION;
    int scale = cv->num_scale;
    if (prec > XDEC_MAX_DIGITS)
        prec = XDEC_MAX_DIGITS;
    odbc_conv_status st = to_xdec(cv, v, &x);
    if (st != CONV_OK)
        return st;
    st = xdec_rescale(&x, scale, &frac);
    if (st != CONV_OK)
        return st;
    u128 m = x.mag;
    int digits = 0;
    while (!u128_is_zero(m)) {
        m = u128_divmod(m, u128_of(10), NULL);
        digits++;
    }
    if (digits > prec)
        return CONV_RANGE;
    SQL_NUMERIC_STRUCT ns;
    memset(&ns, 0, sizeof ns);
    ns.precision = (SQLCHAR)prec;
    ns.scale = (SQLSCHAR)scale;
    ns.sign = x.negative && !u128_is_zero(x.mag) ? 0 : 1;
    m = x.mag;
    for (int i = 0; i < SQL_MAX_NUMERIC_LEN; i++) {
        ns.val[i] = (SQLCHAR)(u128_lo64(m) & 0xFF);
        m = u128_shr(m, 8);
    }
    if (ptr)
        memcpy(ptr, &ns, sizeof ns);
    if (ind)
        *ind = (SQLLEN)sizeof ns;
    return frac ? CONV_FRAC : CONV_OK;
}

/* -------------------------------------------------------- date/time */

static int parse_uint(const char **s, int maxdig, unsigned *out)
{
    unsigned v = 0;
    int n = 0;
    while (n < maxdig && isdigit((unsigned char)**s)) {
        v = v * 10 + (unsigned)(**s - '0');
        (*s)++;
        n++;
    }
    *out = v;
    return n;
}

/* What a date/time literal held. */
enum { LIT_DATE = 1, LIT_TIME = 2, LIT_TIMESTAMP = 3 };

/* "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS[.fffffffff]" or "HH:MM:SS[.f...]"
 * -> timestamp, *kind = LIT_*; 22018 (CONV_BADNUM) for anything else, as
 * "SQL to C: Character" says for date, time and timestamp targets. A
 * time-value gets today's date (note [g] of that table). */
static odbc_conv_status parse_timestamp(const char *s, jet_timestamp *ts,
                                        int *kind)
{
    unsigned a, b, c;
    memset(ts, 0, sizeof *ts);
    const char *p = s;
    if (parse_uint(&p, 4, &a) == 0)
        return CONV_BADNUM;
    if (*p == ':') {        /* time only */
        time_t now = time(NULL);
        struct tm tm;
        p++;
        if (!parse_uint(&p, 2, &b) || *p++ != ':' || !parse_uint(&p, 2, &c))
            return CONV_BADNUM;
        if (!localtime_r(&now, &tm))
            return CONV_BADNUM;
        ts->year = (int16_t)(tm.tm_year + 1900);
        ts->month = (uint8_t)(tm.tm_mon + 1);
        ts->day = (uint8_t)tm.tm_mday;
        if (a > 23)
            return CONV_BADNUM;
        ts->hour = (uint8_t)a; ts->minute = (uint8_t)b;
        ts->second = (uint8_t)c;
        *kind = LIT_TIME;
    } else {
        if (*p++ != '-' || !parse_uint(&p, 2, &b) || *p++ != '-' ||
            !parse_uint(&p, 2, &c))
            return CONV_BADNUM;
        ts->year = (int16_t)a; ts->month = (uint8_t)b; ts->day = (uint8_t)c;
        *kind = LIT_DATE;
        if (*p == ' ' || *p == 'T') {
            unsigned h, mi, se;
            p++;
            if (!parse_uint(&p, 2, &h) || *p++ != ':' ||
                !parse_uint(&p, 2, &mi) || *p++ != ':' ||
                !parse_uint(&p, 2, &se))
                return CONV_BADNUM;
            if (h > 23)
                return CONV_BADNUM;
            ts->hour = (uint8_t)h; ts->minute = (uint8_t)mi;
            ts->second = (uint8_t)se;
            *kind = LIT_TIMESTAMP;
        }
    }
    if (*p == '.' && *kind != LIT_DATE) {
        unsigned f = 0;
        int n;
        p++;
        n = parse_uint(&p, 9, &f);
        if (n == 0)
            return CONV_BADNUM;
        while (n++ < 9)
            f *= 10;
        ts->fraction_ns = f;
    }
    if (*p != '\0' || ts->month < 1 || ts->month > 12 || ts->day < 1 ||
        ts->day > 31 || ts->minute > 59 || ts->second > 61)
        return CONV_BADNUM;
    return CONV_OK;
}

static odbc_conv_status put_datetime(odbc_conv *cv, const jet_value *v,
                                     SQLSMALLINT c_type, SQLPOINTER ptr,
                                     SQLLEN *ind)
{
    jet_timestamp ts;
    odbc_conv_status st = CONV_OK;
    if (v->type == JET_T_DATETIME) {
        if (jet_datetime_split(v->u.d, &ts) != JET_OK)
            return CONV_RANGE;
    } else if (v->type == JET_T_EXT_DATETIME) {
        jet_rc r = jet_ext_datetime_split(v, &ts);
        if (r != JET_OK) {
            cv->rc = r;
            return CONV_CORE;
        }
    } else if (is_text_type(v->type)) {
        char *s;
        st = text_cstr(cv, v, &s);
        if (st != CONV_OK)
            return st;
        int kind = 0;
        st = parse_timestamp(s, &ts, &kind);
        if (st != CONV_OK)
            return st;
        if ((kind == LIT_TIME && (c_type == SQL_C_TYPE_DATE ||
                                  c_type == SQL_C_DATE)) ||
            (kind == LIT_DATE && (c_type == SQL_C_TYPE_TIME ||
                                  c_type == SQL_C_TIME)))
            return CONV_BADNUM;
    } else {
        return CONV_IMPOSSIBLE;
    }
    st = CONV_OK;
    switch (c_type) {
    case SQL_C_TYPE_DATE:
    case SQL_C_DATE: {
        SQL_DATE_STRUCT d = {ts.year, ts.month, ts.day};
        if (ts.hour || ts.minute || ts.second || ts.fraction_ns)
            st = CONV_FRAC;
        if (ptr)
            memcpy(ptr, &d, sizeof d);
        if (ind)
            *ind = sizeof d;
        break;
    }
    case SQL_C_TYPE_TIME:
    case SQL_C_TIME: {
        SQL_TIME_STRUCT t = {ts.hour, ts.minute, ts.second};
        if (ts.fraction_ns)
            st = CONV_FRAC;
        if (ptr)
            memcpy(ptr, &t, sizeof t);
        if (ind)
            *ind = sizeof t;
        break;
    }
    default: {
        SQL_TIMESTAMP_STRUCT t = {ts.year, ts.month, ts.day, ts.hour,
                                  ts.minute, ts.second, ts.fraction_ns};
        if (ptr)
            memcpy(ptr, &t, sizeof t);
        if (ind)
            *ind = sizeof t;
        break;
    }
    }
    return st;
}

/* ------------------------------------------------------------- GUID */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static odbc_conv_status put_guid(odbc_conv *cv, const jet_value *v,
                                 SQLPOINTER ptr, SQLLEN *ind)
{
    SQLGUID g;
    if (v->type == JET_T_GUID) {
        const uint8_t *b = v->u.guid;
        g.Data1 = (SQLUINTEGER)b[0] | (SQLUINTEGER)b[1] << 8 |
                  (SQLUINTEGER)b[2] << 16 | (SQLUINTEGER)b[3] << 24;
        g.Data2 = (SQLUSMALLINT)(b[4] | b[5] << 8);
        g.Data3 = (SQLUSMALLINT)(b[6] | b[7] << 8);
        memcpy(g.Data4, b + 8, 8);
    } else if (is_text_type(v->type)) {
        char *s;
        odbc_conv_status st = text_cstr(cv, v, &s);
        if (st != CONV_OK)
            return st;
        uint8_t raw[16];
        int n = 0;
        if (*s == '{')
            s++;
        for (; *s && *s != '}' && n < 32; s++) {
            if (*s == '-')
                continue;
            int h = hexval(*s);
            if (h < 0)
                return CONV_BADNUM;
            if (n % 2 == 0)
                raw[n / 2] = (uint8_t)(h << 4);
            else
                raw[n / 2] |= (uint8_t)h;
            n++;
        }
        if (n != 32)
            return CONV_BADNUM;
        g.Data1 = (SQLUINTEGER)raw[0] << 24 | (SQLUINTEGER)raw[1] << 16 |
                  (SQLUINTEGER)raw[2] << 8 | raw[3];
        g.Data2 = (SQLUSMALLINT)(raw[4] << 8 | raw[5]);
        g.Data3 = (SQLUSMALLINT)(raw[6] << 8 | raw[7]);
        memcpy(g.Data4, raw + 8, 8);
    } else {
        return CONV_IMPOSSIBLE;
    }
    if (ptr)
        memcpy(ptr, &g, sizeof g);
    if (ind)
        *ind = sizeof g;
    return CONV_OK;
}

/* ----------------------------------------------------------- binary */

static odbc_conv_status to_binary(odbc_conv *cv, const jet_value *v,
                                  SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    uint8_t tmp[32];
    size_t n;
    jet_timestamp ts;

    if (is_text_type(v->type)) {
        odbc_conv_status st = text_utf16(cv, v, &n);
        if (st != CONV_OK)
            return st;
        n = max_len_cut(cv, cv->scratch->p, n, SQL_C_BINARY);
        return deliver(cv, cv->scratch->p, n, SQL_C_BINARY, ptr, buflen,
                       ind);
    }
    switch (v->type) {
    case JET_T_BOOL: case JET_T_BYTE:
        tmp[0] = (uint8_t)int_of(v); n = 1; break;
    case JET_T_INT: {
        int16_t x = (int16_t)v->u.i; memcpy(tmp, &x, 2); n = 2; break;
    }
    case JET_T_LONG: case JET_T_COMPLEX: {
        int32_t x = (int32_t)v->u.i; memcpy(tmp, &x, 4); n = 4; break;
    }
    case JET_T_BIGINT: case JET_T_MONEY:
        memcpy(tmp, &v->u.i, 8); n = 8; break;
    case JET_T_FLOAT:
        memcpy(tmp, &v->u.f, 4); n = 4; break;
    case JET_T_DOUBLE:
        memcpy(tmp, &v->u.d, 8); n = 8; break;
    case JET_T_GUID:
        memcpy(tmp, v->u.guid, 16); n = 16; break;
    case JET_T_DATETIME:
    case JET_T_EXT_DATETIME: {
        jet_rc r = v->type == JET_T_DATETIME ? jet_datetime_split(v->u.d, &ts)
                                             : jet_ext_datetime_split(v, &ts);
        if (r != JET_OK)
            return CONV_RANGE;
        SQL_TIMESTAMP_STRUCT t = {ts.year, ts.month, ts.day, ts.hour,
                                  ts.minute, ts.second, ts.fraction_ns};
        memcpy(tmp, &t, sizeof t);
        n = sizeof t;
        break;
    }
    case JET_T_NUMERIC: {
        SQL_NUMERIC_STRUCT ns;
        memset(&ns, 0, sizeof ns);
        ns.precision = v->u.num.precision;
        ns.scale = (SQLSCHAR)v->u.num.scale;
        ns.sign = v->u.num.negative ? 0 : 1;
        memcpy(ns.val, v->u.num.mag, 12);
        memcpy(tmp, &ns, sizeof ns);
        n = sizeof ns;
        break;
    }
    default:
        return deliver(cv, v->data, max_len_cut(cv, v->data, v->len,
                                                SQL_C_BINARY),
                       SQL_C_BINARY, ptr, buflen, ind);
    }
    if (ind)
        *ind = (SQLLEN)n;
    if (!ptr)
        return CONV_OK;
    if (buflen < (SQLLEN)n)
        return CONV_RANGE;  /* fixed-size forms are never split (22003) */
    memcpy(ptr, tmp, n);
    return CONV_OK;
}

/* ------------------------------------------------------------ entry */

/* Every source/target pair: the general dispatch on the C type. Kept out
 * of line so that odbc_convert's fast paths stay a small function. */
static __attribute__((noinline)) odbc_conv_status
convert_any(odbc_conv *cv, const jet_value *v, SQLSMALLINT c_type,
            SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind)
{
    switch (c_type) {
    case SQL_C_CHAR:
    case SQL_C_WCHAR:
        return to_text(cv, v, c_type, ptr, buflen, ind);
    case SQL_C_BINARY:
        return to_binary(cv, v, ptr, buflen, ind);
    case SQL_C_BIT:
    case SQL_C_STINYINT: case SQL_C_TINYINT: case SQL_C_UTINYINT:
    case SQL_C_SSHORT: case SQL_C_SHORT: case SQL_C_USHORT:
    case SQL_C_SLONG: case SQL_C_LONG: case SQL_C_ULONG:
    case SQL_C_SBIGINT: case SQL_C_UBIGINT: {
        if (c_type == SQL_C_BIT && (v->type == JET_T_FLOAT ||
                                    v->type == JET_T_DOUBLE)) {
            double d = v->type == JET_T_FLOAT ? v->u.f : v->u.d;
            if (!(d >= 0 && d < 2))
                return CONV_RANGE;
        }
        return put_integer(cv, v, c_type, ptr, ind);
    }
    case SQL_C_FLOAT:
    case SQL_C_DOUBLE: {
        double d;
        odbc_conv_status st;
        if (v->type == JET_T_FLOAT && c_type == SQL_C_FLOAT) {
            if (ptr)
                memcpy(ptr, &v->u.f, sizeof(float));
            if (ind)
                *ind = sizeof(float);
            return CONV_OK;
        }
        st = to_double(cv, v, &d);
        if (st != CONV_OK)
            return st;
        if (c_type == SQL_C_FLOAT) {
            if (isfinite(d) && fabs(d) > FLT_MAX)
                return CONV_RANGE;
            float f = (float)d;
            if (ptr)
                memcpy(ptr, &f, sizeof f);
            if (ind)
                *ind = sizeof f;
        } else {
            if (ptr)
                memcpy(ptr, &d, sizeof d);
            if (ind)
                *ind = sizeof d;
        }
        return CONV_OK;
    }
    case SQL_C_NUMERIC:
        return put_numeric(cv, v, ptr, ind);
    case SQL_C_TYPE_DATE: case SQL_C_DATE:
    case SQL_C_TYPE_TIME: case SQL_C_TIME:
    case SQL_C_TYPE_TIMESTAMP: case SQL_C_TIMESTAMP:
        return put_datetime(cv, v, c_type, ptr, ind);
    case SQL_C_GUID:
        return put_guid(cv, v, ptr, ind);
    default:
        if (c_type >= SQL_C_INTERVAL_YEAR &&
            c_type <= SQL_C_INTERVAL_MINUTE_TO_SECOND)
            return CONV_IMPOSSIBLE;
        return CONV_BADTYPE;
    }
}

/* An integer source into a signed C integer of size bytes whose range is
 * [lo, hi]: what put_integer does for these pairs, without its exact
 * decimal detour. */
static inline odbc_conv_status put_int_fast(int64_t x, int64_t lo,
                                            int64_t hi, size_t size,
                                            SQLPOINTER ptr, SQLLEN *ind)
{
    if (x < lo || x > hi)
        return CONV_RANGE;
    if (ptr) {
        if (size == 2) {
            int16_t b = (int16_t)x;
            memcpy(ptr, &b, 2);
        } else if (size == 4) {
            int32_t b = (int32_t)x;
            memcpy(ptr, &b, 4);
        } else {
            memcpy(ptr, &x, 8);
        }
    }
    if (ind)
        *ind = (SQLLEN)size;
    return CONV_OK;
}

/*
 * The pairs a scan meets most (each column's default C type, plus
 * integers into any signed width and text into CHAR or WCHAR) are decided
 * by one switch on the source type and written directly; everything else,
 * with identical results for these pairs, is convert_any's.
 */
odbc_conv_status odbc_convert(odbc_conv *cv, const jet_value *v,
                              SQLSMALLINT c_type, SQLPOINTER ptr,
                              SQLLEN buflen, SQLLEN *ind)
{
    cv->repr_in_scratch = false;
    cv->repr_len = 0;
    cv->delivered = 0;
    cv->rc = JET_OK;

    if (v->is_null) {
        if (!ind)
            return CONV_NULL_NO_IND;
        *ind = SQL_NULL_DATA;
        return CONV_OK;
    }
    switch (v->type) {
    case JET_T_BOOL:
    case JET_T_BYTE:
    case JET_T_INT:
    case JET_T_LONG:
    case JET_T_BIGINT:
    case JET_T_COMPLEX:
        switch (c_type) {
        case SQL_C_SLONG:
        case SQL_C_LONG:
            return put_int_fast(int_of(v), INT32_MIN, INT32_MAX, 4, ptr, ind);
        case SQL_C_SSHORT:
        case SQL_C_SHORT:
            return put_int_fast(int_of(v), INT16_MIN, INT16_MAX, 2, ptr, ind);
        case SQL_C_SBIGINT:
            return put_int_fast(int_of(v), INT64_MIN, INT64_MAX, 8, ptr, ind);
        default:
            break;
        }
        break;
    case JET_T_DOUBLE:
        if (c_type == SQL_C_DOUBLE) {
            if (ptr)
                memcpy(ptr, &v->u.d, sizeof(double));
            if (ind)
                *ind = sizeof(double);
            return CONV_OK;
        }
        break;
    case JET_T_DATETIME:
        if (c_type == SQL_C_TYPE_TIMESTAMP || c_type == SQL_C_TIMESTAMP) {
            jet_timestamp ts;
            if (jet_datetime_split(v->u.d, &ts) != JET_OK)
                return CONV_RANGE;
            SQL_TIMESTAMP_STRUCT t = {ts.year, ts.month, ts.day, ts.hour,
                                      ts.minute, ts.second, ts.fraction_ns};
            if (ptr)
                memcpy(ptr, &t, sizeof t);
            if (ind)
                *ind = sizeof t;
            return CONV_OK;
        }
        break;
    case JET_T_TEXT:
    case JET_T_MEMO:
        if (c_type == SQL_C_CHAR || c_type == SQL_C_WCHAR)
            return to_text(cv, v, c_type, ptr, buflen, ind);
        break;
    default:
        break;
    }
    return convert_any(cv, v, c_type, ptr, buflen, ind);
}
