/*
 * test_connstr.c - connection-string parsing (driver/connstr.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connstr.h"
#include "unit.h"

static odbc_connstr *parse(const char *s)
{
    return odbc_connstr_parse(s, (size_t)-1);
}

START_TEST(connstr_simple_pairs_case_insensitive_keys)
{
    odbc_connstr *cs = parse("DRIVER=jet;DBQ=/tmp/a.mdb;PWD=secret");
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 3);
    ck_assert_str_eq(odbc_connstr_get(cs, "dbq"), "/tmp/a.mdb");
    ck_assert_str_eq(odbc_connstr_get(cs, "Driver"), "jet");
    ck_assert_str_eq(odbc_connstr_get(cs, "PWD"), "secret");
    ck_assert_ptr_null(odbc_connstr_get(cs, "UID"));
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_braced_value_keeps_semicolons_and_doubled_brace)
{
    odbc_connstr *cs = parse("DRIVER={Jet ODBC; x};PWD={a}}b;c=d};DBQ=x");
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "driver"), "Jet ODBC; x");
    ck_assert_str_eq(odbc_connstr_get(cs, "pwd"), "a}b;c=d");
    ck_assert_str_eq(odbc_connstr_get(cs, "dbq"), "x");
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_whitespace_around_keys_and_values_trimmed)
{
    odbc_connstr *cs = parse("  DSN = my dsn ;\tDBQ\t=\t/p q/r.accdb\t; ");
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "dsn"), "my dsn");
    ck_assert_str_eq(odbc_connstr_get(cs, "DBQ"), "/p q/r.accdb");
    ck_assert_uint_eq(odbc_connstr_count(cs), 2);
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_first_occurrence_wins)
{
    odbc_connstr *cs = parse("DBQ=first;dbq=second;DbQ={third}");
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 1);
    ck_assert_str_eq(odbc_connstr_get(cs, "DBQ"), "first");
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_empty_and_junk_segments_skipped)
{
    odbc_connstr *cs = parse(";;junk;=novalue;A=;B=2;");
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 2);
    ck_assert_str_eq(odbc_connstr_get(cs, "a"), "");
    ck_assert_str_eq(odbc_connstr_get(cs, "b"), "2");
    const char *k, *v;
    odbc_connstr_at(cs, 1, &k, &v);
    ck_assert_str_eq(k, "B");
    ck_assert_str_eq(v, "2");
    odbc_connstr_at(cs, 9, &k, &v);
    ck_assert_ptr_null(k);
    ck_assert_ptr_null(v);
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_empty_string_gives_no_pairs)
{
    odbc_connstr *cs = parse("");
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 0);
    odbc_connstr_free(cs);
    cs = odbc_connstr_parse(NULL, 0);
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 0);
    odbc_connstr_free(cs);
    odbc_connstr_free(NULL);
}
END_TEST

START_TEST(connstr_unclosed_brace_is_error)
{
    ck_assert_ptr_null(parse("DRIVER={abc;DBQ=x"));
    ck_assert_ptr_null(parse("PWD={a}}"));
}
END_TEST

START_TEST(connstr_explicit_length_stops_early_and_at_nul)
{
    const char s[] = "DBQ=/a.mdb;PWD=x";
    odbc_connstr *cs = odbc_connstr_parse(s, 10);
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "dbq"), "/a.mdb");
    ck_assert_ptr_null(odbc_connstr_get(cs, "pwd"));
    odbc_connstr_free(cs);

    const char z[] = "DBQ=a\0PWD=b";
    cs = odbc_connstr_parse(z, sizeof z - 1);
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "dbq"), "a");
    ck_assert_ptr_null(odbc_connstr_get(cs, "pwd"));
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_text_after_closing_brace_ignored)
{
    odbc_connstr *cs = parse("PWD={ab} junk;UID=u");
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "pwd"), "ab");
    ck_assert_str_eq(odbc_connstr_get(cs, "uid"), "u");
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_many_pairs_grow)
{
    char buf[8192];
    size_t n = 0;
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "K%d=%d;", i, i);
    odbc_connstr *cs = odbc_connstr_parse(buf, n);
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 300);
    ck_assert_str_eq(odbc_connstr_get(cs, "k299"), "299");
    odbc_connstr_free(cs);
}
END_TEST

START_TEST(connstr_key_limit_and_many_braced_values)
{
    size_t cap = 2000 * 24;
    char *buf = malloc(cap);
    size_t n = 0;
    for (int i = 0; i < 1024; i++)
        n += (size_t)snprintf(buf + n, cap - n, "K%d={v;%d};", i, i);
    odbc_connstr *cs = odbc_connstr_parse(buf, n);
    ck_assert_ptr_nonnull(cs);
    ck_assert_uint_eq(odbc_connstr_count(cs), 1024);
    ck_assert_str_eq(odbc_connstr_get(cs, "K1023"), "v;1023");
    odbc_connstr_free(cs);
    /* duplicates do not count toward the limit */
    n += (size_t)snprintf(buf + n, cap - n, "k0=again;K5={x}");
    cs = odbc_connstr_parse(buf, n);
    ck_assert_ptr_nonnull(cs);
    ck_assert_str_eq(odbc_connstr_get(cs, "k0"), "v;0");
    odbc_connstr_free(cs);
    n += (size_t)snprintf(buf + n, cap - n, ";K1024=1");
    ck_assert_ptr_null(odbc_connstr_parse(buf, n));
    free(buf);
}
END_TEST

static Suite *connstr_suite(void)
{
    Suite *s = suite_create("connstr");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, connstr_simple_pairs_case_insensitive_keys);
    tcase_add_test(tc, connstr_braced_value_keeps_semicolons_and_doubled_brace);
    tcase_add_test(tc, connstr_whitespace_around_keys_and_values_trimmed);
    tcase_add_test(tc, connstr_first_occurrence_wins);
    tcase_add_test(tc, connstr_empty_and_junk_segments_skipped);
    tcase_add_test(tc, connstr_empty_string_gives_no_pairs);
    tcase_add_test(tc, connstr_unclosed_brace_is_error);
    tcase_add_test(tc, connstr_explicit_length_stops_early_and_at_nul);
    tcase_add_test(tc, connstr_text_after_closing_brace_ignored);
    tcase_add_test(tc, connstr_many_pairs_grow);
    tcase_add_test(tc, connstr_key_limit_and_many_braced_values);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(connstr_suite)
