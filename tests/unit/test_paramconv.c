/*
 * test_paramconv.c - driver/paramconv.c: a parameter's text or number as
 * the SQL type the application declared. Integers are read exactly
 * ('9007199254740993' as SQL_BIGINT is that integer, not 2^53), the
 * range of each type gives 22003 (RANGE), non-numbers 22018, fractions
 * dropped 01S07 (TRUNCATED); floating types read a period whatever the
 * process locale (checked again under de_DE.UTF-8 when installed).
 */
#include <locale.h>
#include <math.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <string.h>

#include "paramconv.h"
#include "unit.h"

/* odbc_param_from_text of s as type t; *v the value, *text as_text. */
static odbc_pconv from_text(const char *s, int t, jet_value *v, bool *text)
{
    memset(v, 0, sizeof *v);
    v->is_null = true;
    return odbc_param_from_text(v, text, s, strlen(s), t);
}

/* s as SQL_BIGINT must be the exact integer want. */
static void big_is(const char *s, int64_t want)
{
    jet_value v;
    bool text;
    ck_assert_msg(from_text(s, SQL_BIGINT, &v, &text) == ODBC_PCONV_OK,
                  "'%s'", s);
    ck_assert(!text && !v.is_null);
    ck_assert_int_eq(v.type, JET_T_BIGINT);
    ck_assert_msg(v.u.i == want, "'%s' read as %lld", s, (long long)v.u.i);
}

START_TEST(bigint_text_is_exact)
{
    big_is("9007199254740993", 9007199254740993LL);
    big_is("9007199254740992", 9007199254740992LL);
    big_is("-9007199254740993", -9007199254740993LL);
    big_is("9223372036854775807", INT64_MAX);
    big_is("-9223372036854775808", INT64_MIN);
    big_is("  +42\t", 42);
    big_is("0009007199254740993", 9007199254740993LL);
    big_is("9007199254740993.0", 9007199254740993LL);
    big_is("9.007199254740993e15", 9007199254740993LL);
    big_is("9007199254740993000e-3", 9007199254740993LL);
    big_is("1e18", 1000000000000000000LL);
    big_is("0e999999999", 0);
    big_is("-0", 0);
}
END_TEST

START_TEST(bigint_text_out_of_range_is_22003)
{
    static const char *const bad[] = {
        "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "99999999999999999999999", "1e19",
        "1e999999", "-9.3e18",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        jet_value v;
        bool text;
        ck_assert_msg(from_text(bad[i], SQL_BIGINT, &v, &text) ==
                      ODBC_PCONV_RANGE, "'%s'", bad[i]);
    }
}
END_TEST

START_TEST(fractions_are_truncated_with_01S07)
{
    jet_value v;
    bool text;
    ck_assert_int_eq(from_text("9007199254740993.5", SQL_BIGINT, &v, &text),
                     ODBC_PCONV_TRUNCATED);
    ck_assert(v.u.i == 9007199254740993LL);
    ck_assert_int_eq(from_text("-2.75", SQL_INTEGER, &v, &text),
                     ODBC_PCONV_TRUNCATED);
    ck_assert_int_eq(v.type, JET_T_LONG);
    ck_assert_int_eq(v.u.i, -2);
    ck_assert_int_eq(from_text("12.000", SQL_SMALLINT, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert_int_eq(v.u.i, 12);
    ck_assert_int_eq(from_text("1.5e1", SQL_TINYINT, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert_int_eq(v.u.i, 15);
    ck_assert_int_eq(from_text(".5", SQL_INTEGER, &v, &text),
                     ODBC_PCONV_TRUNCATED);
    ck_assert_int_eq(v.u.i, 0);
}
END_TEST

START_TEST(integer_ranges)
{
    static const struct {
        int type;
        const char *ok, *past;
    } cases[] = {
        { SQL_TINYINT, "255", "256" },
        { SQL_TINYINT, "-128", "-129" },
        { SQL_SMALLINT, "32767", "32768" },
        { SQL_SMALLINT, "-32768", "-32769" },
        { SQL_INTEGER, "2147483647", "2147483648" },
        { SQL_INTEGER, "-2147483648", "-2147483649" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jet_value v;
        bool text;
        ck_assert_int_eq(from_text(cases[i].ok, cases[i].type, &v, &text),
                         ODBC_PCONV_OK);
        ck_assert_int_eq(v.type, JET_T_LONG);
        ck_assert_int_eq(from_text(cases[i].past, cases[i].type, &v, &text),
                         ODBC_PCONV_RANGE);
    }
}
END_TEST

START_TEST(not_numbers_are_22018)
{
    static const char *const bad[] = {
        "", "  ", "abc", "1,5", "32,38", "1e", "1e+", "--1", "+", ".",
        "0x10", "inf", "nan", "1 2", "1.2.3", "12abc", "1e5x",
    };
    static const int types[] = { SQL_BIT, SQL_TINYINT, SQL_INTEGER,
                                 SQL_BIGINT, SQL_REAL, SQL_DOUBLE,
                                 SQL_FLOAT, SQL_DECIMAL, SQL_NUMERIC };
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            jet_value v;
            bool text;
            if (types[t] == SQL_BIT && !strcspn(bad[i], " "))
                continue;       /* empty: PHP's false (bit_rules) */
            ck_assert_msg(from_text(bad[i], types[t], &v, &text) ==
                          ODBC_PCONV_NOT_NUMBER, "'%s' as %d", bad[i],
                          types[t]);
        }
}
END_TEST

START_TEST(floating_and_decimal_types)
{
    jet_value v;
    bool text;
    ck_assert_int_eq(from_text("32.38", SQL_DOUBLE, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(!text && v.type == JET_T_DOUBLE && v.u.d == 32.38);
    ck_assert_int_eq(from_text("0.15", SQL_REAL, &v, &text), ODBC_PCONV_OK);
    ck_assert(v.type == JET_T_FLOAT && v.u.f == 0.15f);
    ck_assert_int_eq(from_text("1e39", SQL_REAL, &v, &text),
                     ODBC_PCONV_RANGE);
    ck_assert_int_eq(from_text("1e309", SQL_DOUBLE, &v, &text),
                     ODBC_PCONV_RANGE);
    ck_assert_int_eq(from_text("-1e-400", SQL_FLOAT, &v, &text),
                     ODBC_PCONV_OK);
    /* decimals stay text (the engine reads them exactly) */
    ck_assert_int_eq(from_text("32.38", SQL_DECIMAL, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(text && v.is_null);
    ck_assert_int_eq(from_text("9007199254740993", SQL_NUMERIC, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(text);
    ck_assert_int_eq(from_text("1e400", SQL_DECIMAL, &v, &text),
                     ODBC_PCONV_RANGE);
    /* other types keep any text */
    ck_assert_int_eq(from_text("32,38", SQL_VARCHAR, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(text);
}
END_TEST

START_TEST(bit_rules)
{
    static const struct {
        const char *s;
        odbc_pconv rc;
        bool b;
    } cases[] = {
        { "0", ODBC_PCONV_OK, false }, { "1", ODBC_PCONV_OK, true },
        { "-1", ODBC_PCONV_OK, true }, { "0.0", ODBC_PCONV_OK, false },
        { "0.5", ODBC_PCONV_TRUNCATED, true },
        { "1.5", ODBC_PCONV_TRUNCATED, true },
        { "2", ODBC_PCONV_RANGE, false }, { "-0.5", ODBC_PCONV_RANGE, false },
        { "-2", ODBC_PCONV_RANGE, false },
        /* PHP binds false as "" and true as "1" */
        { "", ODBC_PCONV_OK, false }, { "  ", ODBC_PCONV_OK, false },
        { "False", ODBC_PCONV_OK, false }, { "TRUE", ODBC_PCONV_OK, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jet_value v;
        bool text;
        odbc_pconv rc = from_text(cases[i].s, SQL_BIT, &v, &text);
        ck_assert_msg(rc == cases[i].rc, "'%s': %d", cases[i].s, (int)rc);
        if (rc != ODBC_PCONV_RANGE)
            ck_assert(v.type == JET_T_BOOL && v.u.b == cases[i].b);
    }
}
END_TEST

START_TEST(dates_in_the_odbc_form_are_checked)
{
    jet_value v;
    bool text;
    ck_assert_int_eq(from_text("2024-02-29", SQL_TYPE_DATE, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(text);
    ck_assert_int_eq(from_text("2023-02-29", SQL_TYPE_DATE, &v, &text),
                     ODBC_PCONV_BAD_DATE);
    ck_assert_int_eq(from_text("2024-01-01 24:00:00", SQL_TYPE_TIMESTAMP, &v,
                               &text), ODBC_PCONV_BAD_DATE);
    ck_assert_int_eq(from_text("2024-01-01T23:59:59.123", SQL_TYPE_TIMESTAMP,
                               &v, &text), ODBC_PCONV_OK);
    ck_assert_int_eq(from_text("1/2/2024", SQL_TYPE_DATE, &v, &text),
                     ODBC_PCONV_OK);      /* Access's spelling: the engine */
    ck_assert(odbc_param_date_ok(2000, 2, 29));
    ck_assert(!odbc_param_date_ok(1900, 2, 29));
    ck_assert(!odbc_param_date_ok(2000, 13, 1));
}
END_TEST

START_TEST(numbers_as_declared_types)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    ck_assert_int_eq(odbc_param_from_number(&v, true, 9007199254740993LL, 0,
                                            SQL_BIGINT), ODBC_PCONV_OK);
    ck_assert(v.type == JET_T_BIGINT && v.u.i == 9007199254740993LL);
    ck_assert_int_eq(odbc_param_from_number(&v, true, 40000, 0,
                                            SQL_SMALLINT), ODBC_PCONV_RANGE);
    ck_assert_int_eq(odbc_param_from_number(&v, false, 0, 2.5, SQL_INTEGER),
                     ODBC_PCONV_TRUNCATED);
    ck_assert_int_eq(v.u.i, 2);
    ck_assert_int_eq(odbc_param_from_number(&v, false, 0, 9223372036854775808.0,
                                            SQL_BIGINT), ODBC_PCONV_RANGE);
    ck_assert_int_eq(odbc_param_from_number(&v, false, 0, NAN, SQL_INTEGER),
                     ODBC_PCONV_RANGE);
    ck_assert_int_eq(odbc_param_from_number(&v, false, 0, 0.15, SQL_REAL),
                     ODBC_PCONV_OK);
    ck_assert(v.type == JET_T_FLOAT && v.u.f == 0.15f);
    v.type = JET_T_LONG;
    ck_assert_int_eq(odbc_param_from_number(&v, true, 7, 0, SQL_VARCHAR),
                     ODBC_PCONV_OK);
    ck_assert_int_eq(v.type, JET_T_LONG);   /* left alone */
}
END_TEST

START_TEST(a_period_in_a_decimal_comma_locale)
{
    if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
        fprintf(stderr, "test_paramconv: de_DE.UTF-8 not installed; "
                        "decimal-comma case skipped\n");
        return;
    }
    jet_value v;
    bool text;
    ck_assert_int_eq(from_text("32.38", SQL_DOUBLE, &v, &text),
                     ODBC_PCONV_OK);
    ck_assert(v.u.d == 32.38);
    ck_assert_int_eq(from_text("0.15", SQL_REAL, &v, &text), ODBC_PCONV_OK);
    ck_assert(v.u.f == 0.15f);
    ck_assert_int_eq(from_text("32,38", SQL_DOUBLE, &v, &text),
                     ODBC_PCONV_NOT_NUMBER);
    ck_assert_int_eq(from_text("32,38", SQL_DECIMAL, &v, &text),
                     ODBC_PCONV_NOT_NUMBER);
    setlocale(LC_ALL, "C");
}
END_TEST

/* s at scale sc as a Decimal: rc, and (when not failed) its scale, sign
 * and magnitude (unless mag is BIG: one past 64 bits). */
#define BIG UINT64_MAX
static void dec_is(const char *s, int sc, odbc_pconv rc, uint64_t mag,
                   bool negative)
{
    jet_value v;
    memset(&v, 0xAB, sizeof v);
    ck_assert_msg(odbc_param_decimal(&v, s, strlen(s), sc, 10) == rc,
                  "'%s' at scale %d", s, sc);
    if (rc != ODBC_PCONV_OK && rc != ODBC_PCONV_TRUNCATED)
        return;
    ck_assert_int_eq(v.type, JET_T_NUMERIC);
    ck_assert(!v.is_null);
    ck_assert_int_eq(v.u.num.scale, sc < 0 ? 0 : sc > 28 ? 28 : sc);
    ck_assert_int_eq(v.u.num.precision, 10);
    ck_assert_int_eq(v.u.num.negative, negative);
    if (mag == BIG)
        return;
    uint64_t m = 0;
    for (int i = 7; i >= 0; i--)
        m = m << 8 | v.u.num.mag[i];
    for (int i = 8; i < 12; i++)
        ck_assert_int_eq(v.u.num.mag[i], 0);
    ck_assert_msg(m == mag, "'%s' at scale %d: %llu", s, sc,
                  (unsigned long long)m);
}

/* SQL_DECIMAL/SQL_NUMERIC text at the bound scale: cut off past it, as
 * Access cuts a Decimal's */
START_TEST(decimals_take_the_bound_scale)
{
    dec_is("1.23456", 2, ODBC_PCONV_TRUNCATED, 123, false);
    dec_is("104.7668", 2, ODBC_PCONV_TRUNCATED, 10476, false);
    dec_is("-1.239", 2, ODBC_PCONV_TRUNCATED, 123, true);
    dec_is("1.25", 3, ODBC_PCONV_OK, 1250, false);
    dec_is("  +12E-1\t", 2, ODBC_PCONV_OK, 120, false);
    dec_is("1.5e2", 0, ODBC_PCONV_OK, 150, false);
    dec_is(".5", 1, ODBC_PCONV_OK, 5, false);
    dec_is("-0.001", 2, ODBC_PCONV_TRUNCATED, 0, false);   /* no -0 */
    dec_is("1.10", 1, ODBC_PCONV_OK, 11, false);  /* a zero cut: exact */
    dec_is("5", -3, ODBC_PCONV_OK, 5, false);     /* scale below 0: 0 */
    dec_is("1E-99999", 2, ODBC_PCONV_TRUNCATED, 0, false);
    dec_is("0E99999", 2, ODBC_PCONV_OK, 0, false);
    /* 28 digits fit, 29 do not */
    dec_is("9999999999999999999999999999", 0, ODBC_PCONV_OK, BIG, false);
    dec_is("99999999999999999999999999999", 0, ODBC_PCONV_RANGE, 0, false);
    dec_is("1E28", 0, ODBC_PCONV_RANGE, 0, false);
    dec_is("0.5", 28, ODBC_PCONV_OK, BIG, false);
    dec_is("1", 28, ODBC_PCONV_RANGE, 0, false);
    dec_is("10", 28, ODBC_PCONV_RANGE, 0, false);
    dec_is("1,5", 2, ODBC_PCONV_NOT_NUMBER, 0, false);
    dec_is("", 2, ODBC_PCONV_NOT_NUMBER, 0, false);
    dec_is("1e", 2, ODBC_PCONV_NOT_NUMBER, 0, false);
    dec_is("0x10", 2, ODBC_PCONV_NOT_NUMBER, 0, false);
}
END_TEST

static Suite *paramconv_suite(void)
{
    Suite *s = suite_create("paramconv");
    TCase *tc = tcase_create("paramconv");
    tcase_add_test(tc, bigint_text_is_exact);
    tcase_add_test(tc, bigint_text_out_of_range_is_22003);
    tcase_add_test(tc, fractions_are_truncated_with_01S07);
    tcase_add_test(tc, integer_ranges);
    tcase_add_test(tc, not_numbers_are_22018);
    tcase_add_test(tc, floating_and_decimal_types);
    tcase_add_test(tc, bit_rules);
    tcase_add_test(tc, dates_in_the_odbc_form_are_checked);
    tcase_add_test(tc, numbers_as_declared_types);
    tcase_add_test(tc, a_period_in_a_decimal_comma_locale);
    tcase_add_test(tc, decimals_take_the_bound_scale);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(paramconv_suite)
