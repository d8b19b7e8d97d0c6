/*
 * test_numfmt.c - core/numfmt.c against the printf forms it replaces.
 *
 * The reference is what the driver did before numfmt.c: the smallest
 * "%.*g" precision from 15 (FLOAT: 6; subnormals: 1) whose text reads back
 * (strtod/strtof) as the value, "%04d-%02u-..." for timestamps and
 * "%" PRId64 for integers. Every comparison is of the exact bytes.
 * Random values: JET_NUMFMT_COUNT doubles and as many floats (default
 * 500,000 each, a few seconds; `JET_NUMFMT_COUNT=10000000 CK_FORK=no
 * tests/unit/test_numfmt` in the build directory runs the full 10^7, about
 * a minute, with no Check timeout), drawn from random bit
 * patterns, two-decimal amounts and integers up to 2^53, plus fixed edge
 * values (subnormals, +-max, +-min, +-0, powers of ten, 2^53 +- 1).
 * JET_NUMFMT_SEED changes the seed.
 * The C-locale helpers (jet_strtod_c, jet_strtof_c, jet_fmt_double_c)
 * under a decimal-comma locale (de_DE.UTF-8, when installed).
 */
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "unit.h"

static uint64_t rng = 0x6e756d666d74ull;

static uint64_t next_u64(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static long count_from_env(void)
{
    const char *s = getenv("JET_NUMFMT_COUNT");
    long n = s ? strtol(s, NULL, 10) : 0;
    return n > 0 ? n : 500000;
}

static size_t ref_double(char *buf, double d)
{
    if (isnan(d))
        return (size_t)snprintf(buf, 32, "NaN");
    if (isinf(d))
        return (size_t)snprintf(buf, 32, d > 0 ? "Infinity" : "-Infinity");
    for (int p = d != 0 && fabs(d) < DBL_MIN ? 1 : 15; p <= 17; p++) {
        snprintf(buf, 32, "%.*g", p, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return strlen(buf);
}

static size_t ref_float(char *buf, float f)
{
    if (isnan(f))
        return (size_t)snprintf(buf, 32, "NaN");
    if (isinf(f))
        return (size_t)snprintf(buf, 32, f > 0 ? "Infinity" : "-Infinity");
    for (int p = f != 0 && fabsf(f) < FLT_MIN ? 1 : 6; p <= 9; p++) {
        snprintf(buf, 32, "%.*g", p, (double)f);
        if (strtof(buf, NULL) == f)
            break;
    }
    return strlen(buf);
}

static int check_double(double d)
{
    char a[40], b[40];
    size_t na = ref_double(a, d), nb = jet_double_format(d, b);
    if (na != nb || strcmp(a, b) != 0) {
        fprintf(stderr, "double %a: printf \"%s\", numfmt \"%s\"\n", d, a, b);
        return 1;
    }
    return 0;
}

static int check_float(float f)
{
    char a[40], b[40];
    size_t na = ref_float(a, f), nb = jet_float_format(f, b);
    if (na != nb || strcmp(a, b) != 0) {
        fprintf(stderr, "float %a: printf \"%s\", numfmt \"%s\"\n",
                (double)f, a, b);
        return 1;
    }
    return 0;
}

START_TEST(double_edge_values_match_printf)
{
    const double v[] = {
        0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-5, 1e-4, 9.9999e-5, 123456789012345.0,
        1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1e-7, 1e-300, 1e300, 1e308,
        DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
        DBL_MIN - DBL_TRUE_MIN, 2.2250738585072e-308, 4.9406564584124654e-324,
        9007199254740992.0, 9007199254740991.0, 9007199254740993.0,
        -9007199254740992.0, 4503599627370496.5, 0.30000000000000004,
        1.0 / 3, 2.0 / 3, 100.0, 1e2, 12345.67, -49999.5, 99999.31,
        25028.079694916065, 37490.16789577411, 5e-324, 1.7976931348623157e308,
        NAN, INFINITY, -INFINITY, 123456.0, 1234567.0, 0.000123, 0.0000123,
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        bad += check_double(v[i]);
    for (int e = -324; e <= 308; e++) {
        bad += check_double(pow(10.0, e));
        bad += check_double(-pow(10.0, e) * 3.0);
    }
    for (int e = -1074; e <= 1023; e++)
        bad += check_double(ldexp(1.0, e));
    for (int64_t i = 0; i <= 2000; i++) {   /* small subnormals */
        double d;
        uint64_t bits = (uint64_t)i;
        memcpy(&d, &bits, sizeof d);
        bad += check_double(d);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(double_random_values_match_printf)
{
    const char *seed = getenv("JET_NUMFMT_SEED");
    if (seed)
        rng = strtoull(seed, NULL, 0);
    long n = count_from_env(), bad = 0;
    for (long i = 0; i < n && bad < 20; i++) {
        double d;
        uint64_t r = next_u64();
        switch (i % 4) {
        case 0:
        case 1:   /* any bit pattern: every exponent, subnormals, NaN */
            memcpy(&d, &r, sizeof d);
            break;
        case 2:   /* amounts with two decimals, as in the bulk table */
            d = (double)((int64_t)(r % 15000000) - 5000000) / 100.0;
            break;
        default:  /* integers up to 2^53, either sign */
            d = (double)(r >> 11);
            if (r & 1)
                d = -d;
            break;
        }
        bad += check_double(d);
    }
    printf("numfmt: %ld doubles compared with printf\n", n);
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(float_values_match_printf)
{
    long n = count_from_env(), bad = 0;
    const float v[] = { 0.0f, -0.0f, 1.0f, 0.1f, FLT_MAX, -FLT_MAX, FLT_MIN,
                        FLT_TRUE_MIN, -FLT_TRUE_MIN, 16777216.0f, 16777217.0f,
                        3.4028235e38f, 1e-45f, 0.3f, 123456.7f, 1e7f, 1e-5f };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        bad += check_float(v[i]);
    for (long i = 0; i < n && bad < 20; i++) {
        uint32_t bits = (uint32_t)next_u64();
        float f;
        memcpy(&f, &bits, sizeof f);
        bad += check_float(f);
    }
    printf("numfmt: %ld floats compared with printf\n", n);
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(integers_match_printf)
{
    const int64_t v[] = { 0, 1, -1, 9, 10, 99, 100, -100, 12345, INT64_MAX,
                          INT64_MIN, INT32_MAX, INT32_MIN, -32768, 255 };
    char a[32], b[32];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        snprintf(a, sizeof a, "%" PRId64, v[i]);
        ck_assert_uint_eq(jet_int_format(v[i], b), strlen(a));
        ck_assert_str_eq(a, b);
    }
    for (int i = 0; i < 200000; i++) {
        int64_t x = (int64_t)next_u64() >> (next_u64() % 64);
        snprintf(a, sizeof a, "%" PRId64, x);
        ck_assert_uint_eq(jet_int_format(x, b), strlen(a));
        ck_assert_str_eq(a, b);
    }
}
END_TEST

START_TEST(timestamps_match_printf)
{
    char a[64], b[64];
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_u64();
        jet_timestamp ts = {
            .year = (int16_t)(1 + r % 9999), .month = (uint8_t)(1 + (r >> 14) % 12),
            .day = (uint8_t)(1 + (r >> 18) % 31), .hour = (uint8_t)((r >> 23) % 24),
            .minute = (uint8_t)((r >> 28) % 60), .second = (uint8_t)((r >> 34) % 60),
            .fraction_ns = (uint32_t)((r >> 40) % 1000000000u),
        };
        if (i % 3 == 0)
            ts.fraction_ns = 0;
        else if (i % 3 == 1)
            ts.fraction_ns = ts.fraction_ns / 1000000 * 1000000;
        int frac = i % 2 ? 7 : 3;
        int n = snprintf(a, sizeof a, "%04d-%02u-%02u %02u:%02u:%02u",
                         (int)ts.year, ts.month, ts.day, ts.hour, ts.minute,
                         ts.second);
        if (frac == 7)
            snprintf(a + n, sizeof a - (size_t)n, ".%07u",
                     (unsigned)(ts.fraction_ns / 100));
        else if (ts.fraction_ns / 1000000 != 0)
            snprintf(a + n, sizeof a - (size_t)n, ".%03u",
                     (unsigned)(ts.fraction_ns / 1000000));
        ck_assert_uint_eq(jet_timestamp_format(&ts, frac, b), strlen(a));
        ck_assert_str_eq(a, b);
    }
}
END_TEST

/* Switch to de_DE.UTF-8 (true) or say why not (false). */
static bool german(void)
{
    if (setlocale(LC_ALL, "de_DE.UTF-8"))
        return true;
    fprintf(stderr, "test_numfmt: de_DE.UTF-8 not installed; the "
                    "decimal-comma cases run in the C locale only\n");
    return false;
}

START_TEST(c_locale_helpers_whatever_the_locale)
{
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !german())
            break;
        char buf[64], *end;
        if (pass == 1) {        /* the premise: printf writes a comma */
            snprintf(buf, sizeof buf, "%.1f", 0.5);
            ck_assert_str_eq(buf, "0,5");
        }
        ck_assert(jet_strtod_c("2.5", &end) == 2.5 && *end == '\0');
        ck_assert(jet_strtod_c(" -0.125e1x", &end) == -1.25 &&
                  strcmp(end, "x") == 0);
        ck_assert(jet_strtod_c("2,5", &end) == 2 && strcmp(end, ",5") == 0);
        ck_assert(jet_strtof_c("0.1", &end) == 0.1f && *end == '\0');
        ck_assert_int_eq(jet_fmt_double_c(buf, sizeof buf, 'f', 2, 0.5), 4);
        ck_assert_str_eq(buf, "0.50");
        jet_fmt_double_c(buf, sizeof buf, 'e', 14, 1.0 / 3);
        ck_assert_str_eq(buf, "3.33333333333333e-01");
        jet_fmt_double_c(buf, sizeof buf, 'E', 2, -12345.0);
        ck_assert_str_eq(buf, "-1.23E+04");
        jet_fmt_double_c(buf, sizeof buf, 'g', 17, 0.1);
        ck_assert_str_eq(buf, "0.10000000000000001");
        jet_fmt_double_c(buf, sizeof buf, 'G', 6, 1e-10);
        ck_assert_str_eq(buf, "1E-10");
        jet_fmt_double_c(buf, sizeof buf, 'g', 6, -INFINITY);
        ck_assert_str_eq(buf, "-inf");
        /* truncated like snprintf; the full length returned */
        ck_assert_int_eq(jet_fmt_double_c(buf, 4, 'f', 3, 2.5), 5);
        ck_assert_str_eq(buf, "2.5");
        /* powers of two go through the printf search on every build */
        ck_assert_uint_eq(jet_double_format(0.5, buf), 3);
        ck_assert_str_eq(buf, "0.5");
        jet_double_format(0.25, buf);
        ck_assert_str_eq(buf, "0.25");
        jet_double_format(1.0 / 3, buf);
        ck_assert_str_eq(buf, "0.3333333333333333");
        jet_float_format(0.125f, buf);
        ck_assert_str_eq(buf, "0.125");
        jet_float_format(0.1f, buf);
        ck_assert_str_eq(buf, "0.1");
    }
    setlocale(LC_ALL, "C");
}
END_TEST

static Suite *numfmt_suite(void)
{
    Suite *s = suite_create("numfmt");
    TCase *tc = tcase_create("numfmt");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, double_edge_values_match_printf);
    tcase_add_test(tc, double_random_values_match_printf);
    tcase_add_test(tc, float_values_match_printf);
    tcase_add_test(tc, integers_match_printf);
    tcase_add_test(tc, timestamps_match_printf);
    tcase_add_test(tc, c_locale_helpers_whatever_the_locale);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(numfmt_suite)
