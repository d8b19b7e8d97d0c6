/*
 * test_value_fmt.c - core/value_fmt.c: DATETIME and Date/Time Extended
 * splitting, NUMERIC and MONEY text, result code names.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jet.h"
#include "unit.h"

/* "YYYY-MM-DD HH:MM:SS.mmm" of a DATETIME double, or the rc as text. */
static const char *split(double v)
{
    static char buf[64];
    jet_timestamp ts;
    jet_rc rc = jet_datetime_split(v, &ts);
    if (rc != JET_OK) {
        snprintf(buf, sizeof buf, "rc %d", (int)rc);
        return buf;
    }
    snprintf(buf, sizeof buf, "%04d-%02u-%02u %02u:%02u:%02u.%03u", ts.year,
             ts.month, ts.day, ts.hour, ts.minute, ts.second,
             (unsigned)(ts.fraction_ns / 1000000u));
    return buf;
}

START_TEST(datetime_epoch_and_examples)
{
    ck_assert_str_eq(split(0.0), "1899-12-30 00:00:00.000");
    ck_assert_str_eq(split(-1.25), "1899-12-29 06:00:00.000");
    ck_assert_str_eq(split(-657270.53125), "0100-06-14 12:45:00.000");
    ck_assert_str_eq(split(1.5), "1899-12-31 12:00:00.000");
    ck_assert_str_eq(split(36526.0), "2000-01-01 00:00:00.000");
    ck_assert_str_eq(split(59.0), "1900-02-27 00:00:00.000");
    ck_assert_str_eq(split(61.0), "1900-03-01 00:00:00.000");
}
END_TEST

START_TEST(datetime_limits_0100_and_9999)
{
    ck_assert_str_eq(split(-657434.0), "0100-01-01 00:00:00.000");
    ck_assert_str_eq(split(2958465.0), "9999-12-31 00:00:00.000");
    ck_assert_str_eq(split(2958465.0 + 86399999.0 / 86400000.0),
                     "9999-12-31 23:59:59.999");
    ck_assert_str_eq(split(-693593.0), "0001-01-01 00:00:00.000");
    ck_assert_str_eq(split(2958466.0), "rc -7");
    ck_assert_str_eq(split(-693594.0), "rc -7");
    ck_assert_str_eq(split(1e300), "rc -7");
    ck_assert_str_eq(split(NAN), "rc -7");
    ck_assert_str_eq(split(INFINITY), "rc -7");
    ck_assert_str_eq(split(-INFINITY), "rc -7");
}
END_TEST

START_TEST(datetime_every_day_0001_to_9999_follows_the_previous)
{
    /* walk every day from 0001-01-01 (-693593) to 9999-12-31 (2958465)
     * with the Gregorian leap rule; each split must be the next date */
    static const unsigned mdays[12] = { 31, 28, 31, 30, 31, 30,
                                        31, 31, 30, 31, 30, 31 };
    int y = 1;
    unsigned m = 1, d = 1;
    for (long day = -693593; day <= 2958465; day++) {
        jet_timestamp ts;
        if (jet_datetime_split((double)day, &ts) != JET_OK ||
            ts.year != y || ts.month != m || ts.day != d)
            ck_abort_msg("day %ld: %d-%u-%u, expected %d-%u-%u", day,
                         ts.year, ts.month, ts.day, y, m, d);
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        unsigned last = mdays[m - 1] + (m == 2 && leap);
        if (++d > last) {
            d = 1;
            if (++m > 12) {
                m = 1;
                y++;
            }
        }
    }
    ck_assert_int_eq(y, 10000);
    jet_timestamp ts;
    ck_assert_int_eq(jet_datetime_split(-693594.0, &ts), JET_ELIMIT);
    ck_assert_int_eq(jet_datetime_split(2958466.0, &ts), JET_ELIMIT);
}
END_TEST

START_TEST(datetime_milliseconds_round_and_carry)
{
    ck_assert_str_eq(split(86399999.0 / 86400000.0), "1899-12-30 23:59:59.999");
    /* 0.49 ms before midnight rounds up into the next day */
    ck_assert_str_eq(split(1.0 - 0.4 / 86400000.0), "1899-12-31 00:00:00.000");
    ck_assert_str_eq(split(1.0 / 86400000.0 * 1.5), "1899-12-30 00:00:00.002");
    /* negative: fraction is the absolute time of day */
    ck_assert_str_eq(split(-0.5), "1899-12-30 12:00:00.000");
    ck_assert_str_eq(split(-2.75), "1899-12-28 18:00:00.000");
}
END_TEST

static jet_value ext_value(const char *text)
{
    static uint8_t raw[42];
    size_t n = strlen(text);
    memcpy(raw, text, n);
    raw[39] = ':';
    raw[40] = '7';
    raw[41] = 0;
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_EXT_DATETIME;
    v.data = raw;
    v.len = 42;
    return v;
}

START_TEST(ext_datetime_fields)
{
    jet_timestamp ts;
    /* 2021-06-14 22:45:12.3456789 */
    jet_value v = ext_value("0000000000000737954:0000000819123456789");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 2021);
    ck_assert_uint_eq(ts.month, 6);
    ck_assert_uint_eq(ts.day, 14);
    ck_assert_uint_eq(ts.hour, 22);
    ck_assert_uint_eq(ts.minute, 45);
    ck_assert_uint_eq(ts.second, 12);
    ck_assert_uint_eq(ts.fraction_ns, 345678900u);
    /* 0100-06-14 12:45:00.1234567 */
    v = ext_value("0000000000000036323:0000000459001234567");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 100);
    ck_assert_uint_eq(ts.month, 6);
    ck_assert_uint_eq(ts.day, 14);
    ck_assert_uint_eq(ts.hour, 12);
    ck_assert_uint_eq(ts.fraction_ns, 123456700u);
    /* 0001-01-01 and 9999-12-31 */
    v = ext_value("0000000000000000000:0000000000000000000");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 1);
    ck_assert_uint_eq(ts.day, 1);
    v = ext_value("0000000000003652058:0000000863999999999");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 9999);
    ck_assert_uint_eq(ts.month, 12);
    ck_assert_uint_eq(ts.day, 31);
    ck_assert_uint_eq(ts.second, 59);
    ck_assert_uint_eq(ts.fraction_ns, 999999900u);
}
END_TEST

START_TEST(ext_datetime_damaged_is_corrupt)
{
    jet_timestamp ts;
    jet_value v = ext_value("00000000000007379x4:0000000819123456789");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_ECORRUPT);
    v = ext_value("0000000000000737954-0000000819123456789");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_ECORRUPT);
    v = ext_value("9999999999999999999:0000000819123456789");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_ECORRUPT);
    v = ext_value("0000000000000737954:0000000819123456789");
    v.len = 20;
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_ECORRUPT);
}
END_TEST

/* NUMERIC value from a decimal magnitude string (<= 29 digits). */
static jet_value numeric(const char *digits, unsigned scale, bool negative)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_NUMERIC;
    v.u.num.scale = (uint8_t)scale;
    v.u.num.precision = 28;
    v.u.num.negative = negative;
    for (const char *p = digits; *p; p++) {
        unsigned carry = (unsigned)(*p - '0');
        for (int i = 0; i < 12; i++) {
            unsigned x = v.u.num.mag[i] * 10u + carry;
            v.u.num.mag[i] = (uint8_t)x;
            carry = x >> 8;
        }
    }
    return v;
}

static const char *num_text(const char *digits, unsigned scale, bool negative)
{
    static char buf[64];
    jet_value v = numeric(digits, scale, negative);
    size_t n = jet_numeric_format(&v, buf, sizeof buf);
    ck_assert_uint_eq(n, strlen(buf));
    return buf;
}

START_TEST(numeric_exact_text)
{
    ck_assert_str_eq(num_text("0", 0, false), "0");
    ck_assert_str_eq(num_text("0", 2, false), "0.00");
    ck_assert_str_eq(num_text("0", 2, true), "0.00");
    ck_assert_str_eq(num_text("1234500", 4, true), "-123.4500");
    ck_assert_str_eq(num_text("5", 3, false), "0.005");
    ck_assert_str_eq(num_text("42", 0, true), "-42");
    ck_assert_str_eq(num_text("9999999999999999999999999999", 0, false),
                     "9999999999999999999999999999");
    ck_assert_str_eq(num_text("9999999999999999999999999999", 28, true),
                     "-0.9999999999999999999999999999");
    ck_assert_str_eq(num_text("1234567890123456789012345678", 10, false),
                     "123456789012345678.9012345678");
    /* the largest 96-bit magnitude */
    ck_assert_str_eq(num_text("79228162514264337593543950335", 0, true),
                     "-79228162514264337593543950335");
}
END_TEST

START_TEST(numeric_short_buffer_truncates_and_reports_length)
{
    jet_value v = numeric("123456", 2, false);
    char buf[5];
    ck_assert_uint_eq(jet_numeric_format(&v, buf, sizeof buf), 7);
    ck_assert_str_eq(buf, "1234");
}
END_TEST

static const char *money_text(int64_t m)
{
    static char buf[32];
    size_t n = jet_money_format(m, buf, sizeof buf);
    ck_assert_uint_eq(n, strlen(buf));
    return buf;
}

START_TEST(money_text_and_limits)
{
    ck_assert_str_eq(money_text(0), "0.0000");
    ck_assert_str_eq(money_text(140000), "14.0000");
    ck_assert_str_eq(money_text(-5000), "-0.5000");
    ck_assert_str_eq(money_text(-1), "-0.0001");
    ck_assert_str_eq(money_text(INT64_MIN), "-922337203685477.5808");
    ck_assert_str_eq(money_text(INT64_MAX), "922337203685477.5807");
}
END_TEST

START_TEST(rc_names_are_never_null)
{
    for (int rc = -12; rc <= 3; rc++)
        ck_assert_ptr_nonnull(jet_rc_str((jet_rc)rc));
    ck_assert_str_eq(jet_rc_str(JET_ECORRUPT), "file is damaged");
}
END_TEST

static Suite *value_fmt_suite(void)
{
    Suite *s = suite_create("value_fmt");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, datetime_epoch_and_examples);
    tcase_add_test(tc, datetime_limits_0100_and_9999);
    tcase_add_test(tc, datetime_every_day_0001_to_9999_follows_the_previous);
    tcase_add_test(tc, datetime_milliseconds_round_and_carry);
    tcase_add_test(tc, ext_datetime_fields);
    tcase_add_test(tc, ext_datetime_damaged_is_corrupt);
    tcase_add_test(tc, numeric_exact_text);
    tcase_add_test(tc, numeric_short_buffer_truncates_and_reports_length);
    tcase_add_test(tc, money_text_and_limits);
    tcase_add_test(tc, rc_names_are_never_null);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(value_fmt_suite)
