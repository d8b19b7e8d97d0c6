/*
 * test_convert.c - driver/convert.c against ODBC's "Converting Data from
 * SQL to C Data Types" tables: every C target for each Access type, the
 * SQLSTATEs (01004, 01S07, 22002, 22003, 22018, 07006), length indicators,
 * SQL_NUMERIC_STRUCT at the ARD's precision and scale, and text outside
 * the BMP through SQL_C_CHAR (UTF-8) and SQL_C_WCHAR (UTF-16).
 * Values are jet_value structs built by hand; no file, no driver manager.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "convert.h"
#include "int128.h"
#include "unit.h"
#include "../numeric_struct.h"

/* env.c's grow-only buffer, here without the rest of the driver */
int odbc_buf_reserve(odbc_buf *b, size_t n)
{
    if (b->cap >= n)
        return 0;
    uint8_t *p = realloc(b->p, n);
    if (!p)
        return -1;
    b->p = p;
    b->cap = n;
    return 0;
}

static odbc_buf scratch;
static odbc_conv cv;
static SQLLEN ind;
static char out[256];

static void conv_up(void)
{
    memset(&scratch, 0, sizeof scratch);
    memset(&cv, 0, sizeof cv);
    cv.scratch = &scratch;
    cv.keep = true;
}

static void conv_down(void)
{
    free(scratch.p);
}

static odbc_conv_status conv(const jet_value *v, SQLSMALLINT ct, void *buf,
                             SQLLEN buflen)
{
    ind = -12345;
    return odbc_convert(&cv, v, ct, buf, buflen, &ind);
}

static jet_value ival(jet_type t, int64_t i)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    if (t == JET_T_BOOL)
        v.u.b = i != 0;
    else
        v.u.i = i;
    return v;
}

static jet_value money(int64_t m)
{
    jet_value v = ival(JET_T_MONEY, 0);
    v.u.money = m;
    return v;
}

static jet_value dbl(double d)
{
    jet_value v = ival(JET_T_DOUBLE, 0);
    v.u.d = d;
    return v;
}

static jet_value datetime(double d)
{
    jet_value v = ival(JET_T_DATETIME, 0);
    v.u.d = d;
    return v;
}

/* UTF-8 text as a TEXT value stored as UCS-2 (like Jet4 pages). */
static jet_value text(const char *utf8)
{
    static uint8_t raw[8][512];
    static int slot;
    uint8_t *r = raw[slot++ % 8];
    size_t n = 0;
    const unsigned char *s = (const unsigned char *)utf8;
    while (*s) {
        uint32_t cp;
        if (*s < 0x80) {
            cp = *s++;
        } else if (*s < 0xE0) {
            cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
            s += 2;
        } else if (*s < 0xF0) {
            cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
                 (s[2] & 0x3F);
            s += 3;
        } else {
            cp = (uint32_t)(s[0] & 0x07) << 18 |
                 (uint32_t)(s[1] & 0x3F) << 12 |
                 (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
            s += 4;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            uint16_t hi = (uint16_t)(0xD800 | cp >> 10);
            uint16_t lo = (uint16_t)(0xDC00 | (cp & 0x3FF));
            r[n++] = (uint8_t)hi;
            r[n++] = (uint8_t)(hi >> 8);
            r[n++] = (uint8_t)lo;
            r[n++] = (uint8_t)(lo >> 8);
        } else {
            r[n++] = (uint8_t)cp;
            r[n++] = (uint8_t)(cp >> 8);
        }
    }
    jet_value v = ival(JET_T_TEXT, 0);
    v.enc = JET_ENC_UCS2;
    v.data = r;
    v.len = n;
    return v;
}

/* 28 nines at a scale, or any 96-bit magnitude (lo, mid, hi words). */
static jet_value numeric(bool neg, uint32_t hi, uint32_t mid, uint32_t lo,
                         uint8_t prec, uint8_t scale)
{
    jet_value v = ival(JET_T_NUMERIC, 0);
    uint32_t w[3] = { lo, mid, hi };
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 4; b++)
            v.u.num.mag[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
    v.u.num.negative = neg;
    v.u.num.precision = prec;
    v.u.num.scale = scale;
    return v;
}

#define NINES28 u128_add(u128_mul(u128_of(9999999999999ull), \
                                  u128_of(1000000000000000ull)), \
                         u128_of(999999999999999ull))

/* ------------------------------------------------------------ integers */

START_TEST(integer_targets_and_their_ranges)
{
    static const struct {
        int64_t v;
        SQLSMALLINT ct;
        odbc_conv_status st;
    } cases[] = {
        { -32768, SQL_C_SSHORT, CONV_OK },
        { -32769, SQL_C_SSHORT, CONV_RANGE },
        { 65535, SQL_C_USHORT, CONV_OK },
        { -1, SQL_C_USHORT, CONV_RANGE },
        { 127, SQL_C_STINYINT, CONV_OK },
        { 128, SQL_C_STINYINT, CONV_RANGE },
        { 128, SQL_C_TINYINT, CONV_RANGE },
        { 255, SQL_C_UTINYINT, CONV_OK },
        { 256, SQL_C_UTINYINT, CONV_RANGE },
        { INT32_MIN, SQL_C_SLONG, CONV_OK },
        { (int64_t)INT32_MAX + 1, SQL_C_SLONG, CONV_RANGE },
        { (int64_t)INT32_MAX + 1, SQL_C_LONG, CONV_RANGE },
        { UINT32_MAX, SQL_C_ULONG, CONV_OK },
        { -1, SQL_C_ULONG, CONV_RANGE },
        { INT64_MIN, SQL_C_SBIGINT, CONV_OK },
        { INT64_MAX, SQL_C_UBIGINT, CONV_OK },
        { -1, SQL_C_UBIGINT, CONV_RANGE },
        { 0, SQL_C_BIT, CONV_OK },
        { 1, SQL_C_BIT, CONV_OK },
        { 2, SQL_C_BIT, CONV_RANGE },
        { -1, SQL_C_BIT, CONV_RANGE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jet_value v = ival(JET_T_BIGINT, cases[i].v);
        uint8_t buf[8] = { 0 };
        ck_assert_msg(conv(&v, cases[i].ct, buf, 0) == cases[i].st,
                      "case %zu", i);
        if (cases[i].st == CONV_OK) {
            int64_t got = 0;
            switch (ind) {
            case 1: got = cases[i].ct == SQL_C_STINYINT ? (int8_t)buf[0]
                                                         : buf[0]; break;
            case 2: { int16_t s; uint16_t u; memcpy(&s, buf, 2);
                      memcpy(&u, buf, 2);
                      got = cases[i].ct == SQL_C_USHORT ? (int64_t)u
                                                        : (int64_t)s;
                      break; }
            case 4: { int32_t s; uint32_t u; memcpy(&s, buf, 4);
                      memcpy(&u, buf, 4);
                      got = cases[i].ct == SQL_C_ULONG ? (int64_t)u
                                                       : (int64_t)s;
                      break; }
            default: memcpy(&got, buf, 8); break;
            }
            ck_assert_msg(got == cases[i].v, "case %zu got %lld", i,
                          (long long)got);
        }
    }
    /* BYTE and BOOL sources */
    jet_value b = ival(JET_T_BYTE, 255);
    SQLDOUBLE d;
    ck_assert_int_eq(conv(&b, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == 255.0);
    ck_assert_int_eq(conv(&b, SQL_C_STINYINT, out, 0), CONV_RANGE);
    jet_value t = ival(JET_T_BOOL, 1);
    SQLINTEGER l;
    ck_assert_int_eq(conv(&t, SQL_C_SLONG, &l, 0), CONV_OK);
    ck_assert_int_eq(l, 1);
    ck_assert_int_eq(ind, 4);
}
END_TEST

START_TEST(integer_to_text_whole_digits_must_fit)
{
    jet_value v = ival(JET_T_LONG, INT32_MIN);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "-2147483648");
    ck_assert_int_eq(ind, 11);
    /* 12 bytes hold 11 characters and the NUL; 11 do not: 22003 */
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 12), CONV_OK);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 11), CONV_RANGE);
    SQLWCHAR w[16];
    ck_assert_int_eq(conv(&v, SQL_C_WCHAR, w, sizeof w), CONV_OK);
    ck_assert_int_eq(ind, 22);
    ck_assert_uint_eq(w[0], '-');
    ck_assert_uint_eq(w[11], 0);
    ck_assert_int_eq(conv(&v, SQL_C_WCHAR, w, 22), CONV_RANGE);
    /* indicator only */
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, NULL, 0), CONV_OK);
    ck_assert_int_eq(ind, 11);
    /* BIT text needs 2 bytes */
    jet_value b = ival(JET_T_BOOL, 1);
    ck_assert_int_eq(conv(&b, SQL_C_CHAR, out, 2), CONV_OK);
    ck_assert_str_eq(out, "1");
    ck_assert_int_eq(conv(&b, SQL_C_CHAR, out, 1), CONV_RANGE);
}
END_TEST

START_TEST(integer_to_binary_and_impossible_targets)
{
    jet_value v = ival(JET_T_INT, -2);
    uint8_t b[8];
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, sizeof b), CONV_OK);
    ck_assert_int_eq(ind, 2);
    ck_assert_uint_eq(b[0], 0xFE);
    ck_assert_uint_eq(b[1], 0xFF);
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, 1), CONV_RANGE);
    SQL_DATE_STRUCT ds;
    ck_assert_int_eq(conv(&v, SQL_C_TYPE_DATE, &ds, 0), CONV_IMPOSSIBLE);
    SQLGUID g;
    ck_assert_int_eq(conv(&v, SQL_C_GUID, &g, 0), CONV_IMPOSSIBLE);
    ck_assert_int_eq(conv(&v, 12345, out, 8), CONV_BADTYPE);
}
END_TEST

/* ---------------------------------------------------- currency, decimal */

START_TEST(currency_limits_to_every_numeric_target)
{
    jet_value lo = money(INT64_MIN), hi = money(INT64_MAX);
    SQLBIGINT big;
    ck_assert_int_eq(conv(&lo, SQL_C_SBIGINT, &big, 0), CONV_FRAC);
    ck_assert(big == -922337203685477LL);
    ck_assert_int_eq(conv(&hi, SQL_C_SBIGINT, &big, 0), CONV_FRAC);
    ck_assert(big == 922337203685477LL);
    SQLINTEGER l;
    ck_assert_int_eq(conv(&hi, SQL_C_SLONG, &l, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&lo, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "-922337203685477.5808");
    ck_assert_int_eq(ind, 21);
    /* fractional digits may go (01004), whole ones not (22003) */
    ck_assert_int_eq(conv(&lo, SQL_C_CHAR, out, 18), CONV_TRUNC);
    ck_assert_str_eq(out, "-922337203685477.");
    ck_assert_int_eq(ind, 21);
    ck_assert_int_eq(conv(&lo, SQL_C_CHAR, out, 17), CONV_TRUNC);
    ck_assert_str_eq(out, "-922337203685477");
    ck_assert_int_eq(conv(&lo, SQL_C_CHAR, out, 16), CONV_RANGE);
    SQLDOUBLE d;
    ck_assert_int_eq(conv(&hi, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == 922337203685477.5807);
    /* -0.0001: BIT refuses negatives, integers truncate to 0 */
    jet_value tiny = money(-1);
    unsigned char bit = 9;
    ck_assert_int_eq(conv(&tiny, SQL_C_BIT, &bit, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&tiny, SQL_C_SLONG, &l, 0), CONV_FRAC);
    ck_assert_int_eq(l, 0);
    jet_value half = money(15000);  /* 1.5 */
    ck_assert_int_eq(conv(&half, SQL_C_BIT, &bit, 0), CONV_FRAC);
    ck_assert_uint_eq(bit, 1);
    jet_value two = money(20000);
    ck_assert_int_eq(conv(&two, SQL_C_BIT, &bit, 0), CONV_RANGE);
}
END_TEST

START_TEST(numeric_struct_takes_ard_precision_and_scale)
{
    SQL_NUMERIC_STRUCT ns;
    jet_value lo = money(INT64_MIN);
    /* SQLBindCol/SQLGetData defaults: scale 0, fraction dropped (01S07) */
    ck_assert_int_eq(conv(&lo, SQL_C_NUMERIC, &ns, 0), CONV_FRAC);
    ck_assert_int_eq(ind, (SQLLEN)sizeof ns);
    ck_assert_int_eq(ns.scale, 0);
    ck_assert_int_eq(ns.precision, ODBC_NUMERIC_DEFAULT_PRECISION);
    ck_assert_int_eq(ns.sign, 0);
    ck_assert(ns_is(&ns, u128_of(922337203685477ull)));
    /* the ARD's 19/4: exact */
    cv.num_precision = 19;
    cv.num_scale = 4;
    ck_assert_int_eq(conv(&lo, SQL_C_NUMERIC, &ns, 0), CONV_OK);
    ck_assert_int_eq(ns.scale, 4);
    ck_assert_int_eq(ns.precision, 19);
    ck_assert(ns_is(&ns, u128_of(9223372036854775808ull)));
    /* precision 18 cannot hold 19 digits: 22003 */
    cv.num_precision = 18;
    ck_assert_int_eq(conv(&lo, SQL_C_NUMERIC, &ns, 0), CONV_RANGE);
    /* a larger scale pads with zeros */
    cv.num_precision = 38;
    cv.num_scale = 6;
    jet_value m = money(-12345);    /* -1.2345 */
    ck_assert_int_eq(conv(&m, SQL_C_NUMERIC, &ns, 0), CONV_OK);
    ck_assert(ns_is(&ns, u128_of(1234500u)));
    ck_assert_int_eq(ns.sign, 0);
}
END_TEST

START_TEST(decimal_28_digits_exact_to_numeric_and_text)
{
    SQL_NUMERIC_STRUCT ns;
    /* 10^28 - 1 at scale 10: 999999999999999999.9999999999 */
    jet_value v = numeric(true, 0x204FCE5Eu, 0x3E250261u, 0x0FFFFFFFu, 28,
                          10);
    cv.num_precision = 28;
    cv.num_scale = 10;
    ck_assert_int_eq(conv(&v, SQL_C_NUMERIC, &ns, 0), CONV_OK);
    ck_assert(ns_is(&ns, NINES28));
    ck_assert_int_eq(ns.sign, 0);
    ck_assert_int_eq(ns.scale, 10);
    cv.num_scale = 28;      /* 46 digits do not fit in 38 */
    ck_assert_int_eq(conv(&v, SQL_C_NUMERIC, &ns, 0), CONV_RANGE);
    cv.num_scale = 2;
    ck_assert_int_eq(conv(&v, SQL_C_NUMERIC, &ns, 0), CONV_FRAC);
    ck_assert(ns_is(&ns, u128_divmod(NINES28, u128_of(100000000u), NULL)));
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "-999999999999999999.9999999999");
    SQLBIGINT big;
    ck_assert_int_eq(conv(&v, SQL_C_SBIGINT, &big, 0), CONV_FRAC);
    ck_assert(big == -999999999999999999LL);
    /* all 28 digits whole: past 64 bits */
    jet_value w = numeric(false, 0x204FCE5Eu, 0x3E250261u, 0x0FFFFFFFu, 28,
                          0);
    ck_assert_int_eq(conv(&w, SQL_C_SBIGINT, &big, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&w, SQL_C_UBIGINT, &big, 0), CONV_RANGE);
    SQLDOUBLE d;
    ck_assert_int_eq(conv(&w, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == 1e28);
    /* binary form: the value's own precision and scale */
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, &ns, sizeof ns), CONV_OK);
    ck_assert_int_eq(ns.scale, 10);
    ck_assert(ns_is(&ns, NINES28));
}
END_TEST

/* -------------------------------------------------------------- floats */

START_TEST(double_edges_to_every_target)
{
    SQLINTEGER l;
    SQLREAL f;
    SQLDOUBLE d;
    unsigned char bit;
    jet_value nan_v = dbl(NAN), inf_v = dbl(-INFINITY), max_v = dbl(DBL_MAX);
    ck_assert_int_eq(conv(&nan_v, SQL_C_SLONG, &l, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&inf_v, SQL_C_SBIGINT, &l, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&max_v, SQL_C_FLOAT, &f, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&max_v, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == DBL_MAX);
    ck_assert_int_eq(conv(&nan_v, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(isnan(d));
    ck_assert_int_eq(conv(&max_v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "1.7976931348623157e+308");
    /* an exponent form is all "whole": no partial text */
    ck_assert_int_eq(conv(&max_v, SQL_C_CHAR, out, 10), CONV_RANGE);
    jet_value nz = dbl(-0.0);
    ck_assert_int_eq(conv(&nz, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(signbit(d));
    ck_assert_int_eq(conv(&nz, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "-0");
    ck_assert_int_eq(conv(&nz, SQL_C_BIT, &bit, 0), CONV_OK);
    ck_assert_uint_eq(bit, 0);
    jet_value den = dbl(5e-324);
    ck_assert_int_eq(conv(&den, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == 5e-324);
    ck_assert_int_eq(conv(&den, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "5e-324");
    jet_value e16 = dbl(1e16);
    ck_assert_int_eq(conv(&e16, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "1e+16");
    ck_assert_int_eq(conv(&den, SQL_C_FLOAT, &f, 0), CONV_OK);
    ck_assert(f == 0.0f);
    ck_assert_int_eq(conv(&den, SQL_C_SLONG, &l, 0), CONV_FRAC);
    ck_assert_int_eq(l, 0);
    jet_value x = dbl(-2.75);
    ck_assert_int_eq(conv(&x, SQL_C_SLONG, &l, 0), CONV_FRAC);
    ck_assert_int_eq(l, -2);
    ck_assert_int_eq(conv(&x, SQL_C_BIT, &bit, 0), CONV_RANGE);
    jet_value y = dbl(1.5);
    ck_assert_int_eq(conv(&y, SQL_C_BIT, &bit, 0), CONV_FRAC);
    ck_assert_uint_eq(bit, 1);
    jet_value z = dbl(3e9);
    ck_assert_int_eq(conv(&z, SQL_C_SLONG, &l, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&z, SQL_C_ULONG, &l, 0), CONV_OK);
    /* text: fraction may be cut (01004), whole digits not */
    jet_value p = dbl(123456789.12345679);
    ck_assert_int_eq(conv(&p, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "123456789.12345679");
    ck_assert_int_eq(conv(&p, SQL_C_CHAR, out, 12), CONV_TRUNC);
    ck_assert_str_eq(out, "123456789.1");
    ck_assert_int_eq(ind, 18);
    ck_assert_int_eq(conv(&p, SQL_C_CHAR, out, 9), CONV_RANGE);
    /* SQL_C_NUMERIC from a double goes through its shortest text */
    SQL_NUMERIC_STRUCT ns;
    jet_value tenth = dbl(0.1);
    cv.num_scale = 3;
    ck_assert_int_eq(conv(&tenth, SQL_C_NUMERIC, &ns, 0), CONV_OK);
    ck_assert(ns_is(&ns, u128_of(100)));
    ck_assert_int_eq(conv(&max_v, SQL_C_NUMERIC, &ns, 0), CONV_RANGE);
    ck_assert_int_eq(conv(&nan_v, SQL_C_NUMERIC, &ns, 0), CONV_RANGE);
}
END_TEST

START_TEST(single_edges)
{
    jet_value v = ival(JET_T_FLOAT, 0);
    SQLREAL f;
    SQLDOUBLE d;
    v.u.f = FLT_MAX;
    ck_assert_int_eq(conv(&v, SQL_C_FLOAT, &f, 0), CONV_OK);
    ck_assert(f == FLT_MAX);
    ck_assert_int_eq(ind, 4);
    ck_assert_int_eq(conv(&v, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == (double)FLT_MAX);
    v.u.f = 0.1f;
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "0.1");
    v.u.f = FLT_TRUE_MIN;   /* subnormal: shortest form still */
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "1e-45");
    v.u.f = -0.0f;
    ck_assert_int_eq(conv(&v, SQL_C_FLOAT, &f, 0), CONV_OK);
    ck_assert(signbit(f));
}
END_TEST

/* ---------------------------------------------------------- date/time */

START_TEST(datetime_to_date_time_timestamp)
{
    SQL_TIMESTAMP_STRUCT ts;
    SQL_DATE_STRUCT ds;
    SQL_TIME_STRUCT tm;
    /* 2020-02-29 12:34:56.789 */
    jet_value v = datetime(43890.0 + 45296789.0 / 86400000.0);
    ck_assert_int_eq(conv(&v, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_OK);
    ck_assert_int_eq(ind, (SQLLEN)sizeof ts);
    ck_assert_int_eq(ts.year, 2020);
    ck_assert_uint_eq(ts.month, 2);
    ck_assert_uint_eq(ts.day, 29);
    ck_assert_uint_eq(ts.hour, 12);
    ck_assert_uint_eq(ts.minute, 34);
    ck_assert_uint_eq(ts.second, 56);
    ck_assert_uint_eq(ts.fraction, 789000000u);
    /* the date of a timestamp with a time part: 01S07 */
    ck_assert_int_eq(conv(&v, SQL_C_TYPE_DATE, &ds, 0), CONV_FRAC);
    ck_assert_int_eq(ds.year, 2020);
    ck_assert_int_eq(ind, (SQLLEN)sizeof ds);
    ck_assert_int_eq(conv(&v, SQL_C_TYPE_TIME, &tm, 0), CONV_FRAC);
    ck_assert_uint_eq(tm.hour, 12);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "2020-02-29 12:34:56.789");
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 21), CONV_TRUNC);
    ck_assert_str_eq(out, "2020-02-29 12:34:56.");
    ck_assert_int_eq(ind, 23);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 19), CONV_RANGE);
    uint8_t b[32];
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, sizeof b), CONV_OK);
    ck_assert_int_eq(ind, (SQLLEN)sizeof ts);
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, 8), CONV_RANGE);
    SQLINTEGER l;
    ck_assert_int_eq(conv(&v, SQL_C_SLONG, &l, 0), CONV_IMPOSSIBLE);
    ck_assert_int_eq(conv(&v, SQL_C_DOUBLE, &l, 0), CONV_IMPOSSIBLE);

    /* a whole date converts to DATE silently; 0100-01-01 */
    jet_value d0 = datetime(-657434.0);
    ck_assert_int_eq(conv(&d0, SQL_C_TYPE_DATE, &ds, 0), CONV_OK);
    ck_assert_int_eq(ds.year, 100);
    ck_assert_uint_eq(ds.month, 1);
    ck_assert_uint_eq(ds.day, 1);
    ck_assert_int_eq(conv(&d0, SQL_C_CHAR, out, 20), CONV_OK);
    ck_assert_str_eq(out, "0100-01-01 00:00:00");
    /* before 1899-12-30 the fraction is the time of day as is */
    jet_value pre = datetime(-1.25);
    ck_assert_int_eq(conv(&pre, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_OK);
    ck_assert_int_eq(ts.day, 29);
    ck_assert_uint_eq(ts.hour, 6);
    ck_assert_int_eq(conv(&pre, SQL_C_TYPE_TIME, &tm, 0), CONV_OK);
    ck_assert_uint_eq(tm.hour, 6);
    /* not a date at all */
    jet_value bad = datetime(NAN);
    ck_assert_int_eq(conv(&bad, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_RANGE);
}
END_TEST

/* --------------------------------------------------------------- GUID */

START_TEST(guid_to_struct_text_and_binary)
{
    static const uint8_t raw[16] = { 0x6A, 0x27, 0x39, 0x8E, 0xA8, 0xBC,
                                     0xC4, 0x4A, 0x89, 0x1E, 0x49, 0x91,
                                     0x1D, 0x84, 0x38, 0xDD };
    jet_value v = ival(JET_T_GUID, 0);
    memcpy(v.u.guid, raw, 16);
    SQLGUID g;
    ck_assert_int_eq(conv(&v, SQL_C_GUID, &g, 0), CONV_OK);
    ck_assert_uint_eq(g.Data1, 0x8E39276Au);
    ck_assert_uint_eq(g.Data2, 0xBCA8);
    ck_assert_uint_eq(g.Data3, 0x4AC4);
    ck_assert_uint_eq(g.Data4[0], 0x89);
    ck_assert_uint_eq(g.Data4[7], 0xDD);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "{8E39276A-BCA8-4AC4-891E-49911D8438DD}");
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 38), CONV_RANGE);
    uint8_t b[16];
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, 16), CONV_OK);
    ck_assert(memcmp(b, raw, 16) == 0);
    /* and back from text */
    jet_value t = text("{8E39276A-BCA8-4AC4-891E-49911D8438DD}");
    SQLGUID g2;
    ck_assert_int_eq(conv(&t, SQL_C_GUID, &g2, 0), CONV_OK);
    ck_assert(memcmp(&g, &g2, sizeof g) == 0);
    jet_value bad = text("not a guid");
    ck_assert_int_eq(conv(&bad, SQL_C_GUID, &g2, 0), CONV_BADNUM);
}
END_TEST

/* --------------------------------------------------------------- text */

START_TEST(text_outside_the_bmp_survives_char_and_wchar)
{
    /* x, U+1F642, y, U+20AC */
    jet_value v = text("x\xF0\x9F\x99\x82y\xE2\x82\xAC");
    SQLWCHAR w[16];
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "x\xF0\x9F\x99\x82y\xE2\x82\xAC");
    ck_assert_int_eq(ind, 9);
    ck_assert_int_eq(conv(&v, SQL_C_WCHAR, w, sizeof w), CONV_OK);
    ck_assert_int_eq(ind, 10);
    ck_assert_uint_eq(w[0], 'x');
    ck_assert_uint_eq(w[1], 0xD83D);
    ck_assert_uint_eq(w[2], 0xDE42);
    ck_assert_uint_eq(w[3], 'y');
    ck_assert_uint_eq(w[4], 0x20AC);
    ck_assert_uint_eq(w[5], 0);
    /* truncation never splits a pair or a UTF-8 sequence; the indicator
     * is the whole length (01004) */
    ck_assert_int_eq(conv(&v, SQL_C_WCHAR, w, 6), CONV_TRUNC);
    ck_assert_int_eq(ind, 10);
    ck_assert_uint_eq(w[0], 'x');
    ck_assert_uint_eq(w[1], 0);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 4), CONV_TRUNC);
    ck_assert_int_eq(ind, 9);
    ck_assert_str_eq(out, "x");
    /* the rest comes in chunks from scratch, NUL-terminated each */
    ck_assert(cv.repr_in_scratch);
    size_t off = cv.delivered;
    SQLLEN rest;
    ck_assert_int_eq(odbc_conv_chunk(scratch.p, cv.repr_len, &off,
                                     SQL_C_CHAR, out, 5, &rest), CONV_TRUNC);
    ck_assert_int_eq(rest, 8);
    ck_assert_str_eq(out, "\xF0\x9F\x99\x82");
    ck_assert_int_eq(odbc_conv_chunk(scratch.p, cv.repr_len, &off,
                                     SQL_C_CHAR, out, 5, &rest), CONV_OK);
    ck_assert_str_eq(out, "y\xE2\x82\xAC");
    ck_assert_int_eq(rest, 4);
    /* binary: the UTF-16LE bytes */
    uint8_t b[4];
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, sizeof b), CONV_TRUNC);
    ck_assert_int_eq(ind, 10);
    ck_assert_uint_eq(b[2], 0x3D);
    ck_assert_uint_eq(b[3], 0xD8);
}
END_TEST

START_TEST(text_empty_null_and_missing_indicator)
{
    jet_value e = text("");
    SQLWCHAR w[4] = { 1, 1, 1, 1 };
    ck_assert_int_eq(conv(&e, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_int_eq(ind, 0);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(conv(&e, SQL_C_WCHAR, w, sizeof w), CONV_OK);
    ck_assert_int_eq(ind, 0);
    ck_assert_uint_eq(w[0], 0);
    jet_value n = text("x");
    n.is_null = true;
    ck_assert_int_eq(conv(&n, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_int_eq(ind, SQL_NULL_DATA);
    ck_assert_int_eq(conv(&n, SQL_C_SLONG, out, 0), CONV_OK);
    ck_assert_int_eq(ind, SQL_NULL_DATA);
    ck_assert_int_eq(odbc_convert(&cv, &n, SQL_C_CHAR, out, sizeof out,
                                  NULL), CONV_NULL_NO_IND);
}
END_TEST

START_TEST(text_to_numbers_needs_a_numeric_literal)
{
    static const struct {
        const char *s;
        SQLSMALLINT ct;
        odbc_conv_status st;
        int64_t want;
    } cases[] = {
        { "  42 ", SQL_C_SLONG, CONV_OK, 42 },
        { "-7", SQL_C_SSHORT, CONV_OK, -7 },
        { "4.5", SQL_C_SLONG, CONV_FRAC, 4 },
        { "-4.5", SQL_C_SLONG, CONV_FRAC, -4 },
        { "1e3", SQL_C_SLONG, CONV_OK, 1000 },
        { "+2.5E+1", SQL_C_SLONG, CONV_OK, 25 },
        { "12345678901234567890", SQL_C_UBIGINT, CONV_OK,
          (int64_t)12345678901234567890ull },
        { "99999999999999999999", SQL_C_UBIGINT, CONV_RANGE, 0 },
        { "70000", SQL_C_SSHORT, CONV_RANGE, 0 },
        { "abc", SQL_C_SLONG, CONV_BADNUM, 0 },
        { "", SQL_C_SLONG, CONV_BADNUM, 0 },
        { "0x10", SQL_C_SLONG, CONV_BADNUM, 0 },
        { "1e", SQL_C_SLONG, CONV_BADNUM, 0 },
        { "1.2.3", SQL_C_SLONG, CONV_BADNUM, 0 },
        { "1", SQL_C_BIT, CONV_OK, 1 },
        { "0.5", SQL_C_BIT, CONV_FRAC, 0 },
        { "2", SQL_C_BIT, CONV_RANGE, 0 },
        { "-1", SQL_C_BIT, CONV_RANGE, 0 },
        { "x", SQL_C_BIT, CONV_BADNUM, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jet_value v = text(cases[i].s);
        uint8_t buf[8] = { 0 };
        odbc_conv_status st = conv(&v, cases[i].ct, buf, 0);
        ck_assert_msg(st == cases[i].st, "\"%s\": status %d", cases[i].s,
                      (int)st);
        if (st == CONV_OK || st == CONV_FRAC) {
            int64_t got = 0;
            if (ind == 1)
                got = buf[0];
            else if (ind == 2) {
                int16_t s;
                memcpy(&s, buf, 2);
                got = s;
            } else if (ind == 4) {
                int32_t s;
                memcpy(&s, buf, 4);
                got = s;
            } else {
                memcpy(&got, buf, 8);
            }
            ck_assert_msg(got == cases[i].want, "\"%s\" gave %lld",
                          cases[i].s, (long long)got);
        }
    }
    SQLDOUBLE d;
    jet_value inf = text("inf");
    ck_assert_int_eq(conv(&inf, SQL_C_DOUBLE, &d, 0), CONV_BADNUM);
    jet_value big = text("1e999");
    ck_assert_int_eq(conv(&big, SQL_C_DOUBLE, &d, 0), CONV_RANGE);
    jet_value ok = text(" -1.25e2 ");
    ck_assert_int_eq(conv(&ok, SQL_C_DOUBLE, &d, 0), CONV_OK);
    ck_assert(d == -125.0);
    SQL_NUMERIC_STRUCT ns;
    jet_value dec = text("12.345");
    ck_assert_int_eq(conv(&dec, SQL_C_NUMERIC, &ns, 0), CONV_FRAC);
    ck_assert(ns_is(&ns, u128_of(12)));
    cv.num_scale = 3;
    ck_assert_int_eq(conv(&dec, SQL_C_NUMERIC, &ns, 0), CONV_OK);
    ck_assert(ns_is(&ns, u128_of(12345)));
    jet_value nn = text("twelve");
    ck_assert_int_eq(conv(&nn, SQL_C_NUMERIC, &ns, 0), CONV_BADNUM);
}
END_TEST

START_TEST(text_to_dates_per_character_table)
{
    SQL_DATE_STRUCT ds;
    SQL_TIME_STRUCT tm;
    SQL_TIMESTAMP_STRUCT ts;
    jet_value d = text("2020-02-29"), t = text(" 10:11:12 "),
              s = text("2020-02-29 10:00:00"),
              f = text("2020-02-29 10:00:00.5"), bad = text("29/02/2020");
    ck_assert_int_eq(conv(&d, SQL_C_TYPE_DATE, &ds, 0), CONV_OK);
    ck_assert_int_eq(ds.year, 2020);
    ck_assert_int_eq(conv(&d, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_OK);
    ck_assert_uint_eq(ts.hour, 0);
    ck_assert_int_eq(conv(&d, SQL_C_TYPE_TIME, &tm, 0), CONV_BADNUM);
    ck_assert_int_eq(conv(&s, SQL_C_TYPE_DATE, &ds, 0), CONV_FRAC);
    ck_assert_int_eq(conv(&s, SQL_C_TYPE_TIME, &tm, 0), CONV_OK);
    ck_assert_uint_eq(tm.hour, 10);
    ck_assert_int_eq(conv(&f, SQL_C_TYPE_TIME, &tm, 0), CONV_FRAC);
    ck_assert_int_eq(conv(&f, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_OK);
    ck_assert_uint_eq(ts.fraction, 500000000u);
    ck_assert_int_eq(conv(&t, SQL_C_TYPE_TIME, &tm, 0), CONV_OK);
    ck_assert_uint_eq(tm.second, 12);
    ck_assert_int_eq(conv(&t, SQL_C_TYPE_DATE, &ds, 0), CONV_BADNUM);
    /* a time-value gets today's date */
    time_t now = time(NULL);
    struct tm lt;
    localtime_r(&now, &lt);
    ck_assert_int_eq(conv(&t, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_OK);
    ck_assert_int_eq(ts.year, lt.tm_year + 1900);
    ck_assert_uint_eq(ts.hour, 10);
    ck_assert_int_eq(conv(&bad, SQL_C_TYPE_DATE, &ds, 0), CONV_BADNUM);
    ck_assert_int_eq(conv(&bad, SQL_C_TYPE_TIMESTAMP, &ts, 0), CONV_BADNUM);
}
END_TEST

/* ------------------------------------------------------------- binary */

START_TEST(binary_to_text_hex_and_binary_truncation)
{
    static const uint8_t raw[] = { 0x00, 0xAB, 0xFF };
    jet_value v = ival(JET_T_BINARY, 0);
    v.data = raw;
    v.len = 3;
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, sizeof out), CONV_OK);
    ck_assert_str_eq(out, "00ABFF");
    ck_assert_int_eq(ind, 6);
    ck_assert_int_eq(conv(&v, SQL_C_CHAR, out, 4), CONV_TRUNC);
    ck_assert_str_eq(out, "00A");
    SQLWCHAR w[8];
    ck_assert_int_eq(conv(&v, SQL_C_WCHAR, w, sizeof w), CONV_OK);
    ck_assert_int_eq(ind, 12);
    ck_assert_uint_eq(w[2], 'A');
    uint8_t b[2];
    ck_assert_int_eq(conv(&v, SQL_C_BINARY, b, 2), CONV_TRUNC);
    ck_assert_int_eq(ind, 3);
    ck_assert_uint_eq(b[1], 0xAB);
    SQLINTEGER l;
    ck_assert_int_eq(conv(&v, SQL_C_SLONG, &l, 0), CONV_IMPOSSIBLE);
    /* the default C type of each SQL type */
    odbc_type_info ti;
    memset(&ti, 0, sizeof ti);
    ti.sql_type = SQL_TYPE_TIMESTAMP;
    ck_assert_int_eq(odbc_conv_default_ctype(&ti), SQL_C_TYPE_TIMESTAMP);
    ti.sql_type = SQL_WLONGVARCHAR;
    ck_assert_int_eq(odbc_conv_default_ctype(&ti), SQL_C_WCHAR);
    ti.sql_type = SQL_GUID;
    ck_assert_int_eq(odbc_conv_default_ctype(&ti), SQL_C_GUID);
    ti.sql_type = SQL_NUMERIC;
    ck_assert_int_eq(odbc_conv_default_ctype(&ti), SQL_C_CHAR);
    ti.sql_type = SQL_LONGVARBINARY;
    ck_assert_int_eq(odbc_conv_default_ctype(&ti), SQL_C_BINARY);
}
END_TEST

static Suite *convert_suite(void)
{
    Suite *s = suite_create("convert");
    TCase *tc = tcase_create("sql_to_c");
    tcase_add_checked_fixture(tc, conv_up, conv_down);
    tcase_add_test(tc, integer_targets_and_their_ranges);
    tcase_add_test(tc, integer_to_text_whole_digits_must_fit);
    tcase_add_test(tc, integer_to_binary_and_impossible_targets);
    tcase_add_test(tc, currency_limits_to_every_numeric_target);
    tcase_add_test(tc, numeric_struct_takes_ard_precision_and_scale);
    tcase_add_test(tc, decimal_28_digits_exact_to_numeric_and_text);
    tcase_add_test(tc, double_edges_to_every_target);
    tcase_add_test(tc, single_edges);
    tcase_add_test(tc, datetime_to_date_time_timestamp);
    tcase_add_test(tc, guid_to_struct_text_and_binary);
    tcase_add_test(tc, text_outside_the_bmp_survives_char_and_wchar);
    tcase_add_test(tc, text_empty_null_and_missing_indicator);
    tcase_add_test(tc, text_to_numbers_needs_a_numeric_literal);
    tcase_add_test(tc, text_to_dates_per_character_table);
    tcase_add_test(tc, binary_to_text_hex_and_binary_truncation);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(convert_suite)
