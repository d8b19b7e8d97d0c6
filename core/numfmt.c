/*
 * numfmt.c - numbers and dates to text, written by hand into a buffer.
 *
 * The text forms the driver gives for SQL_C_CHAR/SQL_C_WCHAR: integers in
 * decimal, DATETIME as "yyyy-mm-dd hh:mm:ss[.fff]", Date/Time Extended
 * with 7 fraction digits, DOUBLE and FLOAT as the shortest digits that
 * read back as the same value, laid out exactly as printf's "%.*g" does
 * with the smallest precision P >= 15 (FLOAT: P >= 6; subnormals: P >= 1)
 * that round-trips. (That is the form the driver always gave: DBL_DIG =
 * 15 makes the P-digit rounding equal the shortest digits, padded.)
 * The shortest digits come from libdouble-conversion (core/dtoa_dc.cc)
 * when configure found it; else, and for the 2,046 powers of two (where
 * printf's text can be a digit longer than the shortest), from the old
 * printf/strtod search here.
 * No locale, no printf on the fast paths.
 *
 * Also the one place where number text meets the C library
 * (jet_strtod_c, jet_strtof_c, jet_fmt_double_c): ODBC's number text,
 * Access SQL's literals and the engine's Val/CStr/Format are C-locale (a
 * period) whatever LC_NUMERIC the host process set (a client that calls
 * setlocale(LC_ALL, "de_DE.UTF-8") would otherwise make strtod stop at
 * the period and printf write a comma). Nothing else in core/ or driver/
 * calls strtod, strtof or a floating printf conversion.
 */
#define _GNU_SOURCE 1   /* strtod_l, strtof_l */
#include "config.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtoa.h"
#include "jet.h"
#include "lock.h"

static const char two_digits[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The decimal digits of m written backwards, two at a time, ending just
 * before end; returns the first. */
static inline char *digits_before(char *end, uint64_t m)
{
    char *p = end;
    while (m >= 100) {
        unsigned r = (unsigned)(m % 100);
        m /= 100;
        p -= 2;
        memcpy(p, two_digits + 2 * r, 2);
    }
    if (m >= 10) {
        p -= 2;
        memcpy(p, two_digits + 2 * m, 2);
    } else {
        *--p = (char)('0' + m);
    }
    return p;
}

size_t jet_int_format(int64_t v, char *buf)
{
    char tmp[24];
    char *end = tmp + sizeof tmp;
    uint64_t mag = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
    char *p = digits_before(end, mag);
    if (v < 0)
        *--p = '-';
    size_t n = (size_t)(end - p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return n;
}

/* Two digits of v (< 100) at p. */
static inline char *put2(char *p, unsigned v)
{
    memcpy(p, two_digits + 2 * v, 2);
    return p + 2;
}

size_t jet_timestamp_format(const jet_timestamp *ts, int frac_digits,
                            char *buf)
{
    char *p = buf;
    int y = ts->year;
    if (y >= 0 && y <= 9999) {
        p = put2(p, (unsigned)y / 100);
        p = put2(p, (unsigned)y % 100);
    } else {   /* never for a split value (years 1..9999); as "%04d" */
        p += snprintf(p, 8, "%04d", y);
    }
    *p++ = '-';
    p = put2(p, ts->month % 100u);
    *p++ = '-';
    p = put2(p, ts->day % 100u);
    *p++ = ' ';
    p = put2(p, ts->hour % 100u);
    *p++ = ':';
    p = put2(p, ts->minute % 100u);
    *p++ = ':';
    p = put2(p, ts->second % 100u);
    if (frac_digits == 7) {
        uint32_t f = ts->fraction_ns / 100 % 10000000u;
        *p++ = '.';
        for (int i = 6; i >= 0; i--) {
            p[i] = (char)('0' + f % 10);
            f /= 10;
        }
        p += 7;
    } else {
        uint32_t ms = ts->fraction_ns / 1000000;
        if (ms != 0) {
            ms %= 1000;
            *p++ = '.';
            *p++ = (char)('0' + ms / 100);
            p = put2(p, ms % 100);
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* NaN, infinities and zeros, as the driver has always written them;
 * 0 for every other value. */
static size_t special(double d, char *buf)
{
    const char *s;
    if (isnan(d))
        s = "NaN";
    else if (isinf(d))
        s = d > 0 ? "Infinity" : "-Infinity";
    else if (d == 0)
        s = signbit(d) ? "-0" : "0";
    else
        return 0;
    size_t n = strlen(s);
    memcpy(buf, s, n + 1);
    return n;
}

#ifdef HAVE_DOUBLE_CONVERSION
/* Lay out 0.DIGITS x 10^point (nd digits, negative when neg) as printf
 * "%.{prec}g" does: exponent form when the exponent x = point - 1 is
 * < -4 or >= prec, else plain; trailing zeros never appear (the digits
 * have none). */
static size_t layout_g(char *buf, bool neg, const char *dig, int nd,
                       int point, int prec)
{
    char *p = buf;
    int x = point - 1;
    if (neg)
        *p++ = '-';
    if (x < -4 || x >= prec) {
        *p++ = dig[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, dig + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        unsigned e = (unsigned)(x < 0 ? -x : x);
        if (e >= 100) {
            *p++ = (char)('0' + e / 100);
            e %= 100;
        }
        p = put2(p, e);
    } else if (x >= 0) {
        int whole = x + 1;
        if (nd <= whole) {
            memcpy(p, dig, (size_t)nd);
            p += nd;
            memset(p, '0', (size_t)(whole - nd));
            p += whole - nd;
        } else {
            memcpy(p, dig, (size_t)whole);
            p += whole;
            *p++ = '.';
            memcpy(p, dig + whole, (size_t)(nd - whole));
            p += nd - whole;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)(-x - 1));
        p += -x - 1;
        memcpy(p, dig, (size_t)nd);
        p += nd;
    }
    *p = '\0';
    return (size_t)(p - buf);
}

static size_t search(double d, bool single, char *buf);

/* True when d (as float when single) is a power of two: its rounding
 * interval is narrower below than above, the one case where the
 * correctly rounded P-digit text can miss the interval while the shortest
 * digits are inside it, so printf's form and the shortest one differ. */
static bool power_of_two(double d, bool single)
{
    if (single) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return (b & 0x7FFFFFu) == 0;
    }
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return (b & 0xFFFFFFFFFFFFFull) == 0;
}

/* Elsewhere the interval is symmetric: the correctly rounded P-digit
 * text is inside it whenever any P-digit text is, and for P >= the
 * shortest length it is the closest such text, i.e. the shortest digits
 * (padded with zeros, which "%g" drops). So the text is those digits
 * laid out with P = max(floor, length). */
/*
 * The shortest digits of a double that is a short decimal: the value
 * nearest n / 10^k for an integer n of at most 15 digits and k <= 4 (an
 * amount in cents, an integer, a price). DBL_DIG = 15: distinct decimals
 * of at most 15 significant digits read back as distinct doubles, so when
 * n / 10^k reads back as d (checked exactly: both operands are exact and
 * IEEE division rounds correctly), no shorter decimal does, and n's digits
 * without trailing zeros are the shortest ones, the same that
 * jet_dtoa_shortest gives. Returns false (try the library) otherwise.
 */
static bool short_decimal(double d, char *dig, int *nd, int *point)
{
    static const double p10[] = { 1.0, 10.0, 100.0, 1000.0, 10000.0 };
    double a = fabs(d);
    if (!(a >= 1e-4 && a < 1e14))
        return false;
    for (int k = 0; k <= 4; k++) {
        double scaled = a * p10[k];
        if (scaled >= 1e15)
            return false;
        uint64_t n = (uint64_t)(scaled + 0.5);
        if (n == 0 || (double)n / p10[k] != a)
            continue;
        char tmp[20];               /* n < 10^15: at most 15 digits */
        char *end = tmp + sizeof tmp, *p = digits_before(end, n);
        int len = (int)(end - p);   /* digits of n */
        int z = 0;
        while (end[-1 - z] == '0')
            z++;                    /* trailing zeros of n (n != 0) */
        *nd = len - z;
        memcpy(dig, p, (size_t)*nd);
        *point = len - k;
        return true;
    }
    return false;
}

static size_t shortest(double d, bool single, char *buf)
{
    char dig[24];
    int nd, point;
    if (power_of_two(d, single))
        return search(d, single, buf);
    if (!(!single && short_decimal(d, dig, &nd, &point)) &&
        jet_dtoa_shortest(d, single, dig, &nd, &point) != 0)
        return search(d, single, buf);
    int floor_prec = single ? (fabs(d) < FLT_MIN ? 1 : 6)
                            : (fabs(d) < DBL_MIN ? 1 : 15);
    return layout_g(buf, d < 0, dig, nd, point,
                    nd > floor_prec ? nd : floor_prec);
}
#endif

/* ------------------------------------------------ C-locale number text */

/* The "C" locale for LC_NUMERIC, made once (never freed: process-wide,
 * like the C library's own). NULL only when newlocale failed (out of
 * memory at first use); then the process locale is used. On Windows,
 * compat_win32.h maps strtod_l to msvcrt's _strtod_l in its "C" locale. */
static locale_t c_numeric;
static jet_once_t c_numeric_once = JET_ONCE_INIT;

static void c_numeric_init(void)
{
    c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

double jet_strtod_c(const char *s, char **end)
{
    jet_once(&c_numeric_once, c_numeric_init);
    return c_numeric ? strtod_l(s, end, c_numeric) : strtod(s, end);
}

float jet_strtof_c(const char *s, char **end)
{
    jet_once(&c_numeric_once, c_numeric_init);
    return c_numeric ? strtof_l(s, end, c_numeric) : strtof(s, end);
}

int jet_fmt_double_c(char *buf, size_t cap, char conv, int prec, double d)
{
    char tmp[512];          /* "%.100f" of DBL_MAX: 410 bytes */
    int n;
    if (prec < 0)
        prec = 0;
    if (prec > 100)
        prec = 100;
    switch (conv) {
    case 'e': n = snprintf(tmp, sizeof tmp, "%.*e", prec, d); break;
    case 'E': n = snprintf(tmp, sizeof tmp, "%.*E", prec, d); break;
    case 'f': n = snprintf(tmp, sizeof tmp, "%.*f", prec, d); break;
    case 'G': n = snprintf(tmp, sizeof tmp, "%.*G", prec, d); break;
    default: n = snprintf(tmp, sizeof tmp, "%.*g", prec, d); break;
    }
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof tmp)
        n = (int)sizeof tmp - 1;
    /* The locale's decimal point is whatever stands where a number's
     * text has no digit, sign or letter (e, inf, nan): one byte (',') or
     * several (U+066B in UTF-8). Grouping never appears (no ' flag). */
    size_t k = 0;
    for (int i = 0; i < n;) {
        unsigned char ch = (unsigned char)tmp[i];
        if ((ch >= '0' && ch <= '9') || ch == '+' || ch == '-' ||
            ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')) {
            tmp[k++] = (char)ch;
            i++;
            continue;
        }
        tmp[k++] = '.';
        while (++i < n) {
            ch = (unsigned char)tmp[i];
            if ((ch >= '0' && ch <= '9') || ch == '+' || ch == '-' ||
                ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'))
                break;
        }
    }
    tmp[k] = '\0';
    if (cap > 0) {
        size_t c = k < cap ? k : cap - 1;
        memcpy(buf, tmp, c);
        buf[c] = '\0';
    }
    return (int)k;
}

/* The printf search: the smallest "%.*g" precision from 15 (FLOAT: 6;
 * subnormals: 1) whose text reads back as the value. */
static size_t search(double d, bool single, char *buf)
{
    if (single) {
        float f = (float)d;
        for (int p = fabsf(f) < FLT_MIN ? 1 : 6; p <= 9; p++) {
            jet_fmt_double_c(buf, 32, 'g', p, d);
            if (jet_strtof_c(buf, NULL) == f)
                break;
        }
    } else {
        for (int p = fabs(d) < DBL_MIN ? 1 : 15; p <= 17; p++) {
            jet_fmt_double_c(buf, 32, 'g', p, d);
            if (jet_strtod_c(buf, NULL) == d)
                break;
        }
    }
    return strlen(buf);
}

size_t jet_double_format(double d, char *buf)
{
    size_t n = special(d, buf);
    if (n)
        return n;
#ifdef HAVE_DOUBLE_CONVERSION
    return shortest(d, false, buf);
#else
    return search(d, false, buf);
#endif
}

size_t jet_float_format(float f, char *buf)
{
    size_t n = special((double)f, buf);
    if (n)
        return n;
#ifdef HAVE_DOUBLE_CONVERSION
    return shortest((double)f, true, buf);
#else
    return search((double)f, true, buf);
#endif
}
