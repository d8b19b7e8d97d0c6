/*
 * paramconv.c - a parameter value as the SQL type the application
 * declared: ODBC's C-to-SQL conversions of character data and numbers
 * (ODBC 3.x appendix D "Converting Data from C to SQL Data Types").
 *
 * The one place where a parameter's text becomes a number: integers are
 * read exactly (a Large Number compared with '9007199254740993' finds
 * that row, not ...992), floating types through core's C-locale
 * jet_strtod_c (a period whatever the client's locale), decimals are
 * checked and left as text for the engine's exact reading. stmt.c's
 * param_value calls these and turns failures into SQLSTATEs.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <sql.h>
#include <sqlext.h>
#include <string.h>
#include <strings.h>

#include "paramconv.h"

/* ------------------------------------------------------------- numbers */

odbc_pconv odbc_param_from_number(jet_value *out, bool is_int, int64_t iv,
                                  double dv, int sql_type)
{
    double x = is_int ? (double)iv : dv;
    int64_t lo, hi;
    switch (sql_type) {
    case SQL_BIT:
        if (x == 0 || x == 1 || x == -1) {
            out->type = JET_T_BOOL;
            out->u.b = x != 0;
            out->is_null = false;
            return ODBC_PCONV_OK;
        }
        if (x > 0 && x < 2) {
            out->type = JET_T_BOOL;
            out->u.b = true;
            out->is_null = false;
            return ODBC_PCONV_TRUNCATED;
        }
        return ODBC_PCONV_RANGE;
    case SQL_TINYINT: lo = -128; hi = 255; break;
    case SQL_SMALLINT: lo = -32768; hi = 32767; break;
    case SQL_INTEGER: lo = INT32_MIN; hi = INT32_MAX; break;
    case SQL_BIGINT: lo = INT64_MIN; hi = INT64_MAX; break;
    case SQL_REAL:
        if (!(x >= -FLT_MAX && x <= FLT_MAX))
            return ODBC_PCONV_RANGE;
        out->type = JET_T_FLOAT;
        out->u.f = (float)x;
        out->is_null = false;
        return ODBC_PCONV_OK;
    case SQL_FLOAT: case SQL_DOUBLE:
        out->type = JET_T_DOUBLE;
        out->u.d = x;
        out->is_null = false;
        return ODBC_PCONV_OK;
    default:
        return ODBC_PCONV_OK;
    }
    /* the integer types */
    bool truncated = false;
    if (!is_int) {
        double w = trunc(dv);
        /* 2^63 itself is out: (double)INT64_MAX rounds up to it */
        if (!(w >= -9223372036854775808.0 && w < 9223372036854775808.0))
            return ODBC_PCONV_RANGE;
        iv = (int64_t)w;
        truncated = w != dv;
    }
    if (iv < lo || iv > hi)
        return ODBC_PCONV_RANGE;
    out->type = sql_type == SQL_BIGINT ? JET_T_BIGINT : JET_T_LONG;
    out->u.i = iv;
    out->is_null = false;
    return truncated ? ODBC_PCONV_TRUNCATED : ODBC_PCONV_OK;
}

jet_type odbc_param_jet_type(int sql_type)
{
    switch (sql_type) {
    case SQL_BIT: return JET_T_BOOL;
    case SQL_TINYINT: return JET_T_BYTE;
    case SQL_SMALLINT: return JET_T_INT;
    case SQL_INTEGER: return JET_T_LONG;
    case SQL_BIGINT: return JET_T_BIGINT;
    case SQL_REAL: return JET_T_FLOAT;
    case SQL_FLOAT: case SQL_DOUBLE: return JET_T_DOUBLE;
    case SQL_DECIMAL: case SQL_NUMERIC: return JET_T_NUMERIC;
    case SQL_TYPE_DATE: case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP:
    case SQL_DATE: case SQL_TIME: case SQL_TIMESTAMP:
        return JET_T_DATETIME;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return JET_T_BINARY;
    case SQL_GUID: return JET_T_GUID;
    default: return JET_T_TEXT;
    }
}

/* ---------------------------------------------------------------- text */

/* A numeric literal [+-](digits[.digits] | .digits)[(e|E)[+-]digits],
 * read exactly as far as the integer types need: the sign, the integer
 * part (overflow past 2^64 - 1 noted) and whether any non-zero digit
 * follows the point. */
typedef struct num_text {
    bool neg;
    bool overflow;          /* |integer part| >= 2^64 */
    uint64_t whole;         /* |integer part| */
    bool fraction;          /* a non-zero digit after the point */
} num_text;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The parts of a numeric literal's text, as lex_literal finds them:
 * the digits run [mant, mant_end) with the point (if any) at point,
 * times 10^exp10. */
typedef struct lit_parts {
    bool neg;
    const char *mant, *mant_end, *point;
    int64_t exp10;
} lit_parts;

/* Split p[0..end) (trimmed) into *out; false when it is no literal. */
static bool lex_literal(const char *p, const char *end, lit_parts *out)
{
    memset(out, 0, sizeof *out);
    if (p < end && (*p == '+' || *p == '-'))
        out->neg = *p++ == '-';
    out->mant = p;
    size_t ndig = 0;
    for (; p < end; p++) {
        if (is_digit(*p))
            ndig++;
        else if (*p == '.' && !out->point)
            out->point = p;
        else
            break;
    }
    if (ndig == 0)
        return false;
    out->mant_end = p;
    if (p < end && (*p == 'e' || *p == 'E')) {
        bool eneg = false;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p == end || !is_digit(*p))
            return false;
        for (; p < end && is_digit(*p); p++)
            if (out->exp10 < 100000)    /* beyond any double: saturate */
                out->exp10 = out->exp10 * 10 + (*p - '0');
        if (eneg)
            out->exp10 = -out->exp10;
    }
    return p == end;
}

/* Parse p[0..n) (trimmed) into *out; false when it is no literal. */
static bool parse_literal(const char *p, size_t n, num_text *out)
{
    lit_parts lp;
    memset(out, 0, sizeof *out);
    if (!lex_literal(p, p + n, &lp))
        return false;
    out->neg = lp.neg;
    const char *mant = lp.mant, *mant_end = lp.mant_end, *point = lp.point;
    /* Digits before the point, shifted by the exponent, are the integer
     * part; the rest the fraction. */
    int64_t int_digits = (int64_t)((point ? point : mant_end) - mant) +
                         lp.exp10;
    int64_t k = 0;          /* index among the digits */
    for (const char *q = mant; q < mant_end; q++) {
        if (q == point)
            continue;
        unsigned d = (unsigned)(*q - '0');
        if (k < int_digits) {
            if (!out->overflow &&
                (out->whole > (UINT64_MAX - d) / 10))
                out->overflow = true;
            else if (!out->overflow)
                out->whole = out->whole * 10 + d;
        } else if (d != 0) {
            out->fraction = true;
        }
        k++;
    }
    /* zeros the exponent appends past the digits */
    for (; k < int_digits && out->whole && !out->overflow; k++) {
        if (out->whole > UINT64_MAX / 10)
            out->overflow = true;
        else
            out->whole *= 10;
    }
    return true;
}

/* Days in month m (1..12) of year y (proleptic Gregorian). */
static int days_in_month(int y, int m)
{
    static const int d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : d[m - 1];
}

bool odbc_param_date_ok(int y, int m, int d)
{
    return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/* Read n decimal digits at *p into *out. */
static bool digits(const char **p, const char *end, int n, int *out)
{
    int v = 0;
    for (int k = 0; k < n; k++, (*p)++) {
        if (*p >= end || !is_digit(**p))
            return false;
        v = v * 10 + (**p - '0');
    }
    *out = v;
    return true;
}

/* Text for a date or timestamp type: BAD_DATE when it has the ODBC form
 * yyyy-mm-dd[( |T)hh:mm[:ss[.f]]] but is no real date and time; OK (kept
 * as text) otherwise. */
static odbc_pconv check_date(const char *p, const char *end)
{
    int y, mo, d, h = 0, mi = 0, se = 0;
    const char *q = p;
    if (!digits(&q, end, 4, &y) || q >= end || *q != '-')
        return ODBC_PCONV_OK;           /* not the ODBC form */
    q++;
    bool ok = digits(&q, end, 2, &mo) && q < end && *q++ == '-' &&
              digits(&q, end, 2, &d) && odbc_param_date_ok(y, mo, d);
    if (ok && q < end) {
        ok = (*q == ' ' || *q == 'T') && (q++, true) &&
             digits(&q, end, 2, &h) && q < end && *q++ == ':' &&
             digits(&q, end, 2, &mi) && h <= 23 && mi <= 59;
        if (ok && q < end && *q == ':') {
            q++;
            ok = digits(&q, end, 2, &se) && se <= 59;
        }
        if (ok && q < end && *q == '.')
            for (q++; q < end && is_digit(*q); q++)
                ;
        ok = ok && q == end;
    }
    return ok ? ODBC_PCONV_OK : ODBC_PCONV_BAD_DATE;
}

/* mag (96 bits, little-endian) = mag * 10 + d; false on overflow. */
static bool mag_mul10_add(uint8_t mag[12], unsigned d)
{
    unsigned carry = d;
    for (int i = 0; i < 12; i++) {
        unsigned x = mag[i] * 10u + carry;
        mag[i] = (uint8_t)(x & 0xFFu);
        carry = x >> 8;
    }
    return carry == 0;
}

odbc_pconv odbc_param_decimal(jet_value *out, const char *u8, size_t n,
                              int scale, int precision)
{
    const char *p = u8, *end = u8 + n;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (scale < 0)
        scale = 0;
    if (scale > 28)
        scale = 28;
    lit_parts lp;
    if (!lex_literal(p, end, &lp))
        return ODBC_PCONV_NOT_NUMBER;
    bool neg = lp.neg;
    const char *mant = lp.mant, *mant_end = lp.mant_end, *point = lp.point;
    int64_t exp10 = lp.exp10;
    /* the value times 10^scale: its digits up to index keep (the integer
     * digits, shifted by the exponent, plus scale), zeros past the last */
    int64_t keep = (int64_t)((point ? point : mant_end) - mant) + exp10 +
                   scale;
    memset(out, 0, sizeof *out);
    bool cut = false;
    int64_t k = 0;          /* index among the digits */
    int sig = 0;            /* significant digits kept */
    for (const char *q = mant; q < mant_end; q++) {
        if (q == point)
            continue;
        unsigned d = (unsigned)(*q - '0');
        if (k++ >= keep) {
            cut = cut || d != 0;
            continue;
        }
        if (sig > 0 || d != 0)
            sig++;
        if (sig > 28 || !mag_mul10_add(out->u.num.mag, d))
            return ODBC_PCONV_RANGE;
    }
    for (; k < keep; k++) {
        if (sig > 0)
            sig++;
        if (sig > 28 || !mag_mul10_add(out->u.num.mag, 0))
            return ODBC_PCONV_RANGE;
    }
    bool zero = true;
    for (int i = 0; i < 12; i++)
        zero = zero && out->u.num.mag[i] == 0;
    out->type = JET_T_NUMERIC;
    out->is_null = false;
    out->u.num.scale = (uint8_t)scale;
    out->u.num.precision = (uint8_t)(precision >= 1 && precision <= 28
                                         ? precision : 28);
    out->u.num.negative = neg && !zero;
    return cut ? ODBC_PCONV_TRUNCATED : ODBC_PCONV_OK;
}

odbc_pconv odbc_param_from_text(jet_value *out, bool *as_text,
                                const char *u8, size_t n, int sql_type)
{
    const char *p = u8, *end = u8 + n;
    *as_text = true;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    switch (sql_type) {
    case SQL_TYPE_DATE: case SQL_TYPE_TIMESTAMP: case SQL_DATE:
    case SQL_TIMESTAMP:
        return check_date(p, end);
    case SQL_BIT: case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER:
    case SQL_BIGINT: case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
    case SQL_NUMERIC: case SQL_DECIMAL:
        break;
    default:
        return ODBC_PCONV_OK;
    }
    if (sql_type == SQL_BIT && (p == end ||
                                (end - p == 5 && !strncasecmp(p, "false", 5)) ||
                                (end - p == 4 && !strncasecmp(p, "true", 4)))) {
        /* PHP binds false as "" (and true as "1"); a Yes/No column
         * compared with it is False, as Access reads an empty value for
         * a Yes/No field; "True"/"False" as Access writes them */
        *as_text = false;
        return odbc_param_from_number(out, true, p != end && *p != 'f' &&
                                                 *p != 'F', 0, SQL_BIT);
    }
    num_text t;
    if (!parse_literal(p, (size_t)(end - p), &t))
        return ODBC_PCONV_NOT_NUMBER;
    bool integer = sql_type == SQL_TINYINT || sql_type == SQL_SMALLINT ||
                   sql_type == SQL_INTEGER || sql_type == SQL_BIGINT;
    if (integer || (sql_type == SQL_BIT && !t.fraction)) {
        /* exact: |value| <= 2^63 (2^63 itself only negative) */
        if (t.overflow || t.whole > (uint64_t)INT64_MAX + (t.neg ? 1 : 0))
            return ODBC_PCONV_RANGE;
        int64_t iv = t.neg ? (int64_t)(0 - t.whole) : (int64_t)t.whole;
        odbc_pconv rc = odbc_param_from_number(out, true, iv, 0, sql_type);
        *as_text = false;
        if (rc == ODBC_PCONV_OK && t.fraction)
            rc = ODBC_PCONV_TRUNCATED;
        return rc;
    }
    /* the literal, NUL-terminated, for strtod (no Double needs 512
     * characters: a longer literal is refused) */
    char num[512];
    size_t len = (size_t)(end - p);
    if (len >= sizeof num)
        return ODBC_PCONV_NOT_NUMBER;
    memcpy(num, p, len);
    num[len] = '\0';
    double d = jet_strtod_c(num, NULL);
    if (!isfinite(d))
        return ODBC_PCONV_RANGE;
    if (sql_type == SQL_NUMERIC || sql_type == SQL_DECIMAL)
        return ODBC_PCONV_OK;   /* the engine reads the text exactly */
    *as_text = false;
    return odbc_param_from_number(out, false, 0, d, sql_type);
}
