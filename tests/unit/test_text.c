/*
 * test_text.c - core/text.c: UCS-2, compressed Unicode and code-page text
 * to UTF-8/UTF-16, surrogates, short buffers, cp1252's undefined bytes.
 */
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "text.h"
#include "unit.h"

static jet_value text_value(jet_text_enc enc, const void *data, size_t len)
{
    jet_value v;
    memset(&v, 0, sizeof v);
    v.type = JET_T_TEXT;
    v.enc = enc;
    v.data = data;
    v.len = len;
    return v;
}

/* Convert to UTF-8 with a roomy buffer; checks rc OK and NUL-terminates. */
static size_t to_utf8(const jet_db *db, jet_text_enc enc, const void *data,
                      size_t len, char *out, size_t cap)
{
    jet_value v = text_value(enc, data, len);
    size_t n = 12345;
    ck_assert_int_eq(jet_text_to_utf8(db, &v, out, cap - 1, &n), JET_OK);
    ck_assert_uint_lt(n, cap);
    out[n] = '\0';
    return n;
}

START_TEST(ucs2_bmp_to_utf8)
{
    static const uint8_t in[] = { 'A', 0, 0xE9, 0, 0xAC, 0x20 };
    char out[32];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_UCS2, in, sizeof in, out, sizeof out), 6);
    ck_assert_str_eq(out, "A\xC3\xA9\xE2\x82\xAC");
}
END_TEST

START_TEST(ucs2_empty_and_null_give_zero_length)
{
    char out[8];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_UCS2, "", 0, out, sizeof out), 0);
    jet_value v = text_value(JET_ENC_UCS2, NULL, 0);
    v.is_null = true;
    size_t n = 99;
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, out, sizeof out, &n), JET_OK);
    ck_assert_uint_eq(n, 0);
    uint16_t u[4];
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 4, &n), JET_OK);
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(ucs2_odd_trailing_byte_is_ignored)
{
    static const uint8_t in[] = { 'o', 0, 'k', 0, 'x' };
    char out[8];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_UCS2, in, sizeof in, out, sizeof out), 2);
    ck_assert_str_eq(out, "ok");
}
END_TEST

START_TEST(ucs2_surrogate_pair_passes_through)
{
    static const uint8_t in[] = { 0x3D, 0xD8, 0x00, 0xDE, '!', 0 }; /* U+1F600 ! */
    char out[16];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_UCS2, in, sizeof in, out, sizeof out), 5);
    ck_assert_str_eq(out, "\xF0\x9F\x98\x80!");
    jet_value v = text_value(JET_ENC_UCS2, in, sizeof in);
    uint16_t u[4];
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 4, &n), JET_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(u[0], 0xD83D);
    ck_assert_uint_eq(u[1], 0xDE00);
    ck_assert_uint_eq(u[2], '!');
}
END_TEST

START_TEST(ucs2_lone_surrogates_become_replacement)
{
    /* low alone, high followed by 'a', high at the end */
    static const uint8_t in[] = { 0x00, 0xDC, 0x00, 0xD8, 'a', 0, 0x00, 0xD8 };
    char out[32];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_UCS2, in, sizeof in, out, sizeof out), 10);
    ck_assert_str_eq(out, "\xEF\xBF\xBD\xEF\xBF\xBD" "a\xEF\xBF\xBD");
    jet_value v = text_value(JET_ENC_UCS2, in, sizeof in);
    uint16_t u[8];
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 8, &n), JET_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(u[0], 0xFFFD);
    ck_assert_uint_eq(u[1], 0xFFFD);
    ck_assert_uint_eq(u[2], 'a');
    ck_assert_uint_eq(u[3], 0xFFFD);
}
END_TEST

START_TEST(compressed_plain_segment)
{
    static const uint8_t in[] = { 0xFF, 0xFE, 'a', 'b', 0xE9 };
    char out[16];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 4);
    ck_assert_str_eq(out, "ab\xC3\xA9");
}
END_TEST

/* The all-ASCII compressed value (jet_text_to_utf8/utf16's direct copy):
 * whole, cut short, length only; the same lengths as the general path. */
START_TEST(compressed_ascii_run_short_buffers)
{
    static const uint8_t in[] = { 0xFF, 0xFE, 'l', 'a', 'b', 'e', 'l', '-',
                                  '0', '4', '2' };
    jet_value v = text_value(JET_ENC_COMPRESSED, in, sizeof in);
    char out[16];
    memset(out, '#', sizeof out);
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, out, sizeof out, &n), JET_OK);
    ck_assert_uint_eq(n, 9);
    ck_assert_int_eq(memcmp(out, "label-042#", 10), 0);
    memset(out, '#', sizeof out);
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, out, 4, &n), JET_OK);
    ck_assert_uint_eq(n, 9);
    ck_assert_int_eq(memcmp(out, "labe#", 5), 0);
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, NULL, 4, &n), JET_OK);
    ck_assert_uint_eq(n, 9);

    uint16_t u[12];
    for (size_t i = 0; i < 12; i++)
        u[i] = 7;
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 3, &n), JET_OK);
    ck_assert_uint_eq(n, 9);
    ck_assert_uint_eq(u[0], 'l');
    ck_assert_uint_eq(u[2], 'b');
    ck_assert_uint_eq(u[3], 7);
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 12, &n), JET_OK);
    ck_assert_uint_eq(n, 9);
    ck_assert_uint_eq(u[8], '2');
    ck_assert_uint_eq(u[9], 7);
}
END_TEST

START_TEST(compressed_mode_toggles)
{
    /* "ab" compressed, 00, EUR uncompressed, 00, "c" compressed */
    static const uint8_t in[] = { 0xFF, 0xFE, 'a', 'b', 0x00, 0xAC, 0x20,
                                  0x00, 'c' };
    char out[16];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 6);
    ck_assert_str_eq(out, "ab\xE2\x82\xAC" "c");
}
END_TEST

START_TEST(compressed_starting_uncompressed_with_surrogate_pair)
{
    static const uint8_t in[] = { 0xFF, 0xFE, 0x00, 0x3D, 0xD8, 0x01, 0xDE,
                                  0x00, 'z', 0x00, 0x00 };
    char out[16];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 5);
    ck_assert_str_eq(out, "\xF0\x9F\x98\x81z");
}
END_TEST

START_TEST(compressed_header_only_is_empty)
{
    static const uint8_t in[] = { 0xFF, 0xFE };
    char out[4];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 0);
}
END_TEST

START_TEST(compressed_without_header_is_ucs2)
{
    static const uint8_t in[] = { 'h', 0, 'i', 0 };
    char out[8];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 2);
    ck_assert_str_eq(out, "hi");
}
END_TEST

START_TEST(compressed_dangling_byte_is_ignored)
{
    static const uint8_t in[] = { 0xFF, 0xFE, 'q', 0x00, 0x41 };
    char out[8];
    ck_assert_uint_eq(to_utf8(NULL, JET_ENC_COMPRESSED, in, sizeof in, out, sizeof out), 1);
    ck_assert_str_eq(out, "q");
}
END_TEST

START_TEST(short_utf8_buffer_never_splits_a_sequence)
{
    static const uint8_t in[] = { 'a', 0, 0xE9, 0, 'b', 0 }; /* a é b */
    jet_value v = text_value(JET_ENC_UCS2, in, sizeof in);
    char out[8];
    memset(out, '#', sizeof out);
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, out, 2, &n), JET_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(out[0], 'a');
    ck_assert_int_eq(out[1], '#'); /* half of é is not written */
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, NULL, 0, &n), JET_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(jet_text_to_utf8(NULL, &v, out, n, &n), JET_OK);
    ck_assert_int_eq(memcmp(out, "a\xC3\xA9" "b", 4), 0);
}
END_TEST

START_TEST(short_utf16_buffer_never_splits_a_pair)
{
    static const uint8_t in[] = { 'x', 0, 0x3D, 0xD8, 0x00, 0xDE };
    jet_value v = text_value(JET_ENC_UCS2, in, sizeof in);
    uint16_t u[4] = { 7, 7, 7, 7 };
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf16(NULL, &v, u, 2, &n), JET_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(u[0], 'x');
    ck_assert_uint_eq(u[1], 7);
}
END_TEST

START_TEST(cp1252_to_utf8)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 1252;
    db.version = JET_VER_3;
    static const uint8_t in[] = { 'C', 'a', 'f', 0xE9, ' ', 0x80 };
    char out[16];
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, in, sizeof in, out, sizeof out), 9);
    ck_assert_str_eq(out, "Caf\xC3\xA9 \xE2\x82\xAC");
    /* code page 0 in the header means 1252 */
    db.code_page = 0;
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, in, sizeof in, out, sizeof out), 9);
}
END_TEST

START_TEST(cp1252_undefined_bytes_map_to_c1_controls)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 1252;
    static const uint8_t in[] = { 0x81, 'a', 0x8D, 0x8F, 0x90, 0x9D, 0xFC };
    char out[32];
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, in, sizeof in, out, sizeof out), 13);
    ck_assert_str_eq(out, "\xC2\x81" "a\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D\xC3\xBC");
    jet_value v = text_value(JET_ENC_CODEPAGE, in, sizeof in);
    uint16_t u[8];
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf16(&db, &v, u, 8, &n), JET_OK);
    ck_assert_uint_eq(n, 7);
    ck_assert_uint_eq(u[0], 0x81);
    ck_assert_uint_eq(u[5], 0x9D);
    ck_assert_uint_eq(u[6], 0xFC);
}
END_TEST

START_TEST(cp1252_long_value_crosses_iconv_chunks)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 1252;
    static uint8_t in[2000];
    memset(in, 0xE9, sizeof in);
    static char out[4100];
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, in, sizeof in, out, sizeof out), 4000);
    ck_assert_int_eq(memcmp(out + 3998, "\xC3\xA9", 2), 0);
}
END_TEST

/* Threads share the iconv descriptor pool: results stay right. */
static void *convert_many(void *arg)
{
    const struct jet_db *db = arg;
    static const uint8_t in[] = { 'x', 0xE9, 0x80, 0x81 };
    jet_value v = text_value(JET_ENC_CODEPAGE, in, sizeof in);
    for (int i = 0; i < 2000; i++) {
        char out[16];
        size_t n = 0;
        if (jet_text_to_utf8(db, &v, out, sizeof out, &n) != JET_OK || n != 8 ||
            memcmp(out, "x\xC3\xA9\xE2\x82\xAC\xC2\x81", 8) != 0)
            return (void *)1;
    }
    return NULL;
}

START_TEST(cp1252_concurrent_threads_share_the_pool)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 1252;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, convert_many, &db), 0);
    for (int i = 0; i < 4; i++) {
        void *r = (void *)1;
        ck_assert_int_eq(pthread_join(t[i], &r), 0);
        ck_assert_ptr_null(r);
    }
}
END_TEST

START_TEST(cp1251_and_cp1253_single_byte_tables)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 1251;
    static const uint8_t cyr[] = { 0xC0, 'b', 0xFF }; /* U+0410 b U+044F */
    char out[16];
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, cyr, sizeof cyr, out, sizeof out), 5);
    ck_assert_str_eq(out, "\xD0\x90" "b\xD1\x8F");
    db.code_page = 1253;
    static const uint8_t greek[] = { 0xC1, 0xAA }; /* U+0391, undefined */
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, greek, sizeof greek, out, sizeof out), 5);
    ck_assert_str_eq(out, "\xCE\x91\xEF\xBF\xBD");
}
END_TEST

START_TEST(cp932_double_byte)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 932;
    static const uint8_t in[] = { 'a', 0x82, 0xA0 }; /* a, HIRAGANA A */
    char out[16];
    ck_assert_uint_eq(to_utf8(&db, JET_ENC_CODEPAGE, in, sizeof in, out, sizeof out), 4);
    ck_assert_str_eq(out, "a\xE3\x81\x82");
}
END_TEST

START_TEST(unknown_code_page_is_unsupported)
{
    struct jet_db db;
    memset(&db, 0, sizeof db);
    db.code_page = 65000;
    static const uint8_t in[] = { 0xE9 };
    jet_value v = text_value(JET_ENC_CODEPAGE, in, sizeof in);
    char out[8];
    size_t n;
    ck_assert_int_eq(jet_text_to_utf8(&db, &v, out, sizeof out, &n), JET_EUNSUPPORTED);
    /* pure ASCII needs no conversion */
    v = text_value(JET_ENC_CODEPAGE, "abc", 3);
    ck_assert_int_eq(jet_text_to_utf8(&db, &v, out, sizeof out, &n), JET_OK);
    ck_assert_uint_eq(n, 3);
}
END_TEST

START_TEST(bytes_helper_converts_names)
{
    static const uint8_t in[] = { 'I', 0, 'D', 0 };
    char out[8];
    size_t n = 0;
    ck_assert_int_eq(jet_text_bytes_to_utf8(NULL, JET_ENC_UCS2, in, sizeof in,
                                            out, sizeof out, &n), JET_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(memcmp(out, "ID", 2), 0);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ucs2_bmp_to_utf8);
    tcase_add_test(tc, ucs2_empty_and_null_give_zero_length);
    tcase_add_test(tc, ucs2_odd_trailing_byte_is_ignored);
    tcase_add_test(tc, ucs2_surrogate_pair_passes_through);
    tcase_add_test(tc, ucs2_lone_surrogates_become_replacement);
    tcase_add_test(tc, compressed_plain_segment);
    tcase_add_test(tc, compressed_ascii_run_short_buffers);
    tcase_add_test(tc, compressed_mode_toggles);
    tcase_add_test(tc, compressed_starting_uncompressed_with_surrogate_pair);
    tcase_add_test(tc, compressed_header_only_is_empty);
    tcase_add_test(tc, compressed_without_header_is_ucs2);
    tcase_add_test(tc, compressed_dangling_byte_is_ignored);
    tcase_add_test(tc, short_utf8_buffer_never_splits_a_sequence);
    tcase_add_test(tc, short_utf16_buffer_never_splits_a_pair);
    tcase_add_test(tc, cp1252_to_utf8);
    tcase_add_test(tc, cp1252_undefined_bytes_map_to_c1_controls);
    tcase_add_test(tc, cp1252_long_value_crosses_iconv_chunks);
    tcase_add_test(tc, cp1252_concurrent_threads_share_the_pool);
    tcase_add_test(tc, cp1251_and_cp1253_single_byte_tables);
    tcase_add_test(tc, cp932_double_byte);
    tcase_add_test(tc, unknown_code_page_is_unsupported);
    tcase_add_test(tc, bytes_helper_converts_names);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(text_suite)
