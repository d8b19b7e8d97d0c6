/*
 * test_wide.c - SQLWCHAR <-> UTF-8 (driver/wide.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wide.h"
#include "unit.h"

/* "a" "é" "€" U+1F31C as UTF-8 */
static const char mixed8[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8C\x9C";

START_TEST(wide_ascii_round_trip)
{
    SQLWCHAR w[16];
    size_t n = odbc_utf8_to_wide(w, 16, "DBQ=x", 5);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(w[0], 'D');
    ck_assert_uint_eq(w[5], 0);
    int ok = 0;
    char *s = odbc_wide_to_utf8(w, SQL_NTS, &ok);
    ck_assert_int_eq(ok, 1);
    ck_assert_str_eq(s, "DBQ=x");
    free(s);
}
END_TEST

START_TEST(wide_non_bmp_uses_surrogate_pair_when_utf16)
{
    SQLWCHAR w[16];
    size_t n = odbc_utf8_to_wide(w, 16, mixed8, strlen(mixed8));
    if (sizeof(SQLWCHAR) == 2) {
        ck_assert_uint_eq(n, 5);
        ck_assert_uint_eq(w[1], 0xE9);
        ck_assert_uint_eq(w[2], 0x20AC);
        ck_assert_uint_eq(w[3], 0xD83C);
        ck_assert_uint_eq(w[4], 0xDF1C);
    } else {
        ck_assert_uint_eq(n, 4);
        ck_assert_uint_eq(w[3], 0x1F31C);
    }
    ck_assert_uint_eq(odbc_utf8_wide_len(mixed8, strlen(mixed8)), n);
    int ok = 0;
    char *s = odbc_wide_to_utf8(w, (SQLINTEGER)n, &ok);
    ck_assert_str_eq(s, mixed8);
    free(s);
}
END_TEST

START_TEST(wide_lone_and_swapped_surrogates_become_fffd)
{
    if (sizeof(SQLWCHAR) != 2)
        return;
    const SQLWCHAR lone_high[] = { 'x', 0xD800, 'y', 0 };
    const SQLWCHAR lone_low[] = { 0xDC00, 0 };
    const SQLWCHAR swapped[] = { 0xDC00, 0xD800, 0 };
    const SQLWCHAR high_at_end[] = { 'a', 0xDBFF };
    int ok = 0;
    char *s = odbc_wide_to_utf8(lone_high, SQL_NTS, &ok);
    ck_assert_str_eq(s, "x\xEF\xBF\xBDy");
    free(s);
    s = odbc_wide_to_utf8(lone_low, SQL_NTS, &ok);
    ck_assert_str_eq(s, "\xEF\xBF\xBD");
    free(s);
    s = odbc_wide_to_utf8(swapped, SQL_NTS, &ok);
    ck_assert_str_eq(s, "\xEF\xBF\xBD\xEF\xBF\xBD");
    free(s);
    s = odbc_wide_to_utf8(high_at_end, 2, &ok);
    ck_assert_str_eq(s, "a\xEF\xBF\xBD");
    free(s);
}
END_TEST

START_TEST(wide_null_input_and_zero_length)
{
    int ok = 0;
    ck_assert_ptr_null(odbc_wide_to_utf8(NULL, SQL_NTS, &ok));
    ck_assert_int_eq(ok, 1);
    const SQLWCHAR w[] = { 'a', 'b', 0 };
    char *s = odbc_wide_to_utf8(w, 0, &ok);
    ck_assert_int_eq(ok, 1);
    ck_assert_str_eq(s, "");
    free(s);
    s = odbc_wide_to_utf8(w, 1, &ok);
    ck_assert_str_eq(s, "a");
    free(s);
}
END_TEST

START_TEST(wide_invalid_utf8_becomes_fffd)
{
    SQLWCHAR w[16];
    /* stray continuation, overlong '/', encoded surrogate, truncated 3-byte,
     * 0xFF, code point past U+10FFFF */
    const char *bad[] = { "\x80", "\xC0\xAF", "\xED\xA0\x80", "\xE2\x82",
                          "\xFF", "\xF4\x90\x80\x80" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = odbc_utf8_to_wide(w, 16, bad[i], strlen(bad[i]));
        ck_assert_uint_ge(n, 1);
        ck_assert_uint_eq(w[0], 0xFFFD);
        ck_assert_uint_eq(w[n], 0);
    }
    size_t n = odbc_utf8_to_wide(w, 16, "\xE2\x82x", 3);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(w[0], 0xFFFD);
    ck_assert_uint_eq(w[1], 'x');
}
END_TEST

START_TEST(wide_truncation_keeps_whole_characters)
{
    SQLWCHAR w[8];
    memset(w, 0xAA, sizeof w);
    /* "a" "é" "€" U+1F31C: room for 3 units + NUL would split the pair */
    size_t n = odbc_utf8_to_wide(w, 5, mixed8, strlen(mixed8));
    ck_assert_uint_eq(n, sizeof(SQLWCHAR) == 2 ? 5 : 4);
    if (sizeof(SQLWCHAR) == 2) {
        ck_assert_uint_eq(w[2], 0x20AC);
        ck_assert_uint_eq(w[3], 0);     /* pair did not fit in 1 unit */
    }
    n = odbc_utf8_to_wide(w, 1, "abc", 3);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(w[0], 0);
    w[0] = 'q';
    n = odbc_utf8_to_wide(w, 0, "abc", 3);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(w[0], 'q');       /* cap 0: nothing written */
    n = odbc_utf8_to_wide(NULL, 0, "abc", 3);
    ck_assert_uint_eq(n, 3);
}
END_TEST

START_TEST(wide_embedded_nul_within_length)
{
    SQLWCHAR w[8];
    size_t n = odbc_utf8_to_wide(w, 8, "a\0b", 3);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(w[1], 0);
    ck_assert_uint_eq(w[2], 'b');
}
END_TEST

START_TEST(wide_all_bmp_round_trip)
{
    /* every non-surrogate BMP code point survives UTF-16 -> UTF-8 -> back */
    static SQLWCHAR w[0x10000];
    static SQLWCHAR back[0x10000];
    size_t n = 0;
    for (unsigned cp = 1; cp < 0x10000; cp++)
        if (cp < 0xD800 || cp > 0xDFFF)
            w[n++] = (SQLWCHAR)cp;
    int ok = 0;
    char *s = odbc_wide_to_utf8(w, (SQLINTEGER)n, &ok);
    ck_assert_ptr_nonnull(s);
    size_t m = odbc_utf8_to_wide(back, 0x10000, s, strlen(s));
    ck_assert_uint_eq(m, n);
    ck_assert_int_eq(memcmp(w, back, n * sizeof(SQLWCHAR)), 0);
    free(s);
}
END_TEST

static Suite *wide_suite(void)
{
    Suite *s = suite_create("wide");
    TCase *tc = tcase_create("convert");
    tcase_add_test(tc, wide_ascii_round_trip);
    tcase_add_test(tc, wide_non_bmp_uses_surrogate_pair_when_utf16);
    tcase_add_test(tc, wide_lone_and_swapped_surrogates_become_fffd);
    tcase_add_test(tc, wide_null_input_and_zero_length);
    tcase_add_test(tc, wide_invalid_utf8_becomes_fffd);
    tcase_add_test(tc, wide_truncation_keeps_whole_characters);
    tcase_add_test(tc, wide_embedded_nul_within_length);
    tcase_add_test(tc, wide_all_bmp_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(wide_suite)
