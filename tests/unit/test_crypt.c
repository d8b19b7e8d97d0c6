/*
 * test_crypt.c - header mask and Jet RC4 page codec; the Jet4 header
 * password field; base64; a new agile EncryptionInfo read back by the
 * reader's own codec.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto.h"
#include "pagebuild.h"
#include "unit.h"

START_TEST(crypt_header_mask_keystream_matches_known_bytes)
{
    /* the masked region of an all-zero page decodes to the mask itself,
     * whose first bytes are B5 6F 03 62 (Jackcess JetFormat) */
    uint8_t page[2048] = { 0 };
    ck_assert_int_eq(jet_header_unmask(page, sizeof page, 128), JET_OK);
    ck_assert_uint_eq(page[0x17], 0);
    ck_assert_uint_eq(page[0x18], 0xB5);
    ck_assert_uint_eq(page[0x19], 0x6F);
    ck_assert_uint_eq(page[0x1A], 0x03);
    ck_assert_uint_eq(page[0x1B], 0x62);
    ck_assert_uint_eq(page[0x18 + 128], 0);
}
END_TEST

START_TEST(crypt_header_mask_table_equals_libcrypto_rc4_keystream)
{
    /* the built-in mask table is RC4(key c7 da 39 6b) over zeros */
    static const uint8_t key[4] = { 0xc7, 0xda, 0x39, 0x6b };
    uint8_t page[2048] = { 0 }, stream[128] = { 0 };
    ck_assert_int_eq(jet_rc4_apply(key, sizeof key, stream, sizeof stream),
                     JET_OK);
    ck_assert_int_eq(jet_header_unmask(page, sizeof page, 128), JET_OK);
    ck_assert(memcmp(page + 0x18, stream, sizeof stream) == 0);
    /* Jet3 masks 126 bytes: the two after them stay as they were */
    memset(page, 0, sizeof page);
    ck_assert_int_eq(jet_header_unmask(page, sizeof page, 126), JET_OK);
    ck_assert(memcmp(page + 0x18, stream, 126) == 0);
    ck_assert_uint_eq(page[0x18 + 126], 0);
    ck_assert_uint_eq(page[0x18 + 127], 0);
}
END_TEST

START_TEST(crypt_header_mask_longer_than_table_is_corrupt)
{
    uint8_t page[2048] = { 0 };
    ck_assert_int_eq(jet_header_unmask(page, sizeof page, 129), JET_ECORRUPT);
}
END_TEST

START_TEST(crypt_header_mask_region_past_page_is_corrupt)
{
    uint8_t page[64] = { 0 };
    ck_assert_int_eq(jet_header_unmask(page, sizeof page, 128), JET_ECORRUPT);
}
END_TEST

START_TEST(crypt_rc4_page_decode_round_trips_with_page_key)
{
    uint8_t page[4096], orig[4096];
    for (size_t i = 0; i < sizeof page; i++)
        page[i] = orig[i] = (uint8_t)(i * 7);
    ck_assert_int_eq(jet_rc4_page_decode(0xA7B773E0u, 5, page, sizeof page),
                     JET_OK);
    ck_assert(memcmp(page, orig, sizeof page) != 0);
    ck_assert_int_eq(jet_rc4_page_decode(0xA7B773E0u, 5, page, sizeof page),
                     JET_OK);
    ck_assert(memcmp(page, orig, sizeof page) == 0);
}
END_TEST

START_TEST(crypt_page_key_depends_on_page_number)
{
    uint8_t a[64] = { 0 }, b[64] = { 0 };
    ck_assert_int_eq(jet_rc4_page_decode(1, 5, a, sizeof a), JET_OK);
    ck_assert_int_eq(jet_rc4_page_decode(1, 6, b, sizeof b), JET_OK);
    ck_assert(memcmp(a, b, sizeof a) != 0);
}
END_TEST

/* An unmasked header page with creation date d at 0x72. */
static void header_with_date(uint8_t *page0, double d)
{
    uint64_t bits;
    memset(page0, 0, 4096);
    memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < 8; i++)
        page0[JET_HDR_CREATED + i] = (uint8_t)(bits >> (8 * i));
}

START_TEST(crypt_jet4_password_field_masks_with_the_creation_date)
{
    static uint8_t page[4096];
    static const char pw[] = "Ab1\xc3\xa9";   /* "Ab1" e-acute */
    header_with_date(page, 40457.82230894676);
    /* none: the field is the date's mask, 09 9e 00 00 repeated, as in
     * jackcess-encrypt's db-enc.mdb */
    ck_assert_int_eq(jet_header_password_put(page, NULL), JET_OK);
    for (int i = 0; i < JET_HDR_PASSWORD_LEN; i += 4) {
        ck_assert_uint_eq(page[JET_HDR_PASSWORD + i], 0x09);
        ck_assert_uint_eq(page[JET_HDR_PASSWORD + i + 1], 0x9e);
        ck_assert_uint_eq(page[JET_HDR_PASSWORD + i + 2], 0);
        ck_assert_uint_eq(page[JET_HDR_PASSWORD + i + 3], 0);
    }
    ck_assert_int_eq(jet_header_password_check(page, NULL), JET_OK);
    ck_assert_int_eq(jet_header_password_check(page, "any"), JET_OK);

    ck_assert_int_eq(jet_header_password_put(page, pw), JET_OK);
    ck_assert_uint_eq(page[JET_HDR_PASSWORD], 'A' ^ 0x09);
    ck_assert_uint_eq(page[JET_HDR_PASSWORD + 1], 0x9e);
    ck_assert_uint_eq(page[JET_HDR_PASSWORD + 6], 0xe9);
    ck_assert_int_eq(jet_header_password_check(page, pw), JET_OK);
    ck_assert_int_eq(jet_header_password_check(page, NULL), JET_EPASSWORD);
    ck_assert_int_eq(jet_header_password_check(page, ""), JET_EPASSWORD);
    ck_assert_int_eq(jet_header_password_check(page, "ab1\xc3\xa9"),
                     JET_EPASSWORD);
    ck_assert_int_eq(jet_header_password_check(page, "Ab1\xc3\xa9 "),
                     JET_EPASSWORD);
    ck_assert_int_eq(jet_header_password_check(page, "Ab1"), JET_EPASSWORD);

    /* 20 characters fit, 21 do not (the field unchanged) */
    ck_assert_int_eq(jet_header_password_put(page, "abcdefghijklmnopqrst"),
                     JET_OK);
    ck_assert_int_eq(jet_header_password_check(page, "abcdefghijklmnopqrst"),
                     JET_OK);
    ck_assert_int_eq(jet_header_password_check(page,
                                               "abcdefghijklmnopqrstu"),
                     JET_EPASSWORD);
    ck_assert_int_eq(jet_header_password_put(page, "abcdefghijklmnopqrstu"),
                     JET_ELIMIT);
    ck_assert_int_eq(jet_header_password_check(page, "abcdefghijklmnopqrst"),
                     JET_OK);
}
END_TEST

START_TEST(crypt_jet4_password_field_a_date_over_zeros_is_no_password)
{
    /* a creation date written over a zeroed field unmasks to the mask
     * itself (units 9e09 0000 ...): no password leaves that */
    static uint8_t page[4096];
    header_with_date(page, 40457.82230894676);
    ck_assert_int_eq(jet_header_password_check(page, NULL), JET_OK);
    /* a date past the int range: Java's (int) saturates (mask 00 00 00
     * 80, INT_MIN little-endian) */
    header_with_date(page, -1e300);
    ck_assert_int_eq(jet_header_password_put(page, "pw"), JET_OK);
    ck_assert_uint_eq(page[JET_HDR_PASSWORD + 2], 'w');
    ck_assert_uint_eq(page[JET_HDR_PASSWORD + 3], 0x80);
    ck_assert_int_eq(jet_header_password_check(page, "pw"), JET_OK);
    ck_assert_int_eq(jet_header_password_check(page, "pW"), JET_EPASSWORD);
}
END_TEST

START_TEST(crypt_base64_encode_rfc4648_vectors)
{
    static const char *const in[] = { "", "f", "fo", "foo", "foob",
                                      "fooba", "foobar" };
    static const char *const want[] = { "", "Zg==", "Zm8=", "Zm9v",
                                        "Zm9vYg==", "Zm9vYmE=",
                                        "Zm9vYmFy" };
    char out[16];
    uint8_t back[16];
    size_t n;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        size_t len;
        ck_assert_int_eq(jet_crypto_base64_encode(out, sizeof out, &len,
                                                  (const uint8_t *)in[i],
                                                  strlen(in[i])), JET_OK);
        ck_assert_uint_eq(len, strlen(want[i]));
        ck_assert_str_eq(out, want[i]);
        if (!*out)
            continue;
        ck_assert_int_eq(jet_crypto_base64_decode(back, sizeof back, &n, out,
                                                  strlen(out)), JET_OK);
        ck_assert(n == strlen(in[i]) && !memcmp(back, in[i], n));
    }
    /* too small an output: refused, never written past cap */
    ck_assert_int_eq(jet_crypto_base64_encode(out, 8, &n,
                                              (const uint8_t *)"foobar", 6),
                     JET_ELIMIT);
}
END_TEST

START_TEST(crypt_agile_new_record_opens_with_its_password_only)
{
    static uint8_t page0[4096];
    uint8_t rec[JET_AGILE_RECORD_MAX], a[4096], b[4096];
    size_t len = 0;
    jet_codec *w = NULL, *r = NULL;
    jet_open_options o;
    jet_error err;
    char longpw[300];

    ck_assert_int_eq(jet_crypto_load(NULL), JET_OK);
    ck_assert_int_eq(jet_codec_agile_new(&w, rec, sizeof rec, &len,
                                         0x12345678u, "p\xc3\xa4ss", &err),
                     JET_OK);
    ck_assert_uint_gt(len, 1000);
    ck_assert_uint_le(len, sizeof rec);
    ck_assert_uint_eq(rec[0] | rec[1] << 8, len - 2);
    ck_assert(memcmp(rec + 2, "\x04\x00\x04\x00\x40\x00\x00\x00", 8) == 0);
    ck_assert(strstr((const char *)rec + 10, "hashAlgorithm=\"SHA512\""));
    ck_assert(strstr((const char *)rec + 10, "keyBits=\"256\""));
    ck_assert(strstr((const char *)rec + 10, "spinCount=\"100000\""));
    memset(page0, 0, sizeof page0);
    memcpy(page0 + JET_HDR_PROVIDER, rec, len);

    memset(&o, 0, sizeof o);
    o.password = "pass";
    ck_assert_int_eq(jet_codec_office(&r, page0, sizeof page0, 0x12345678u,
                                      &o, &err), JET_EPASSWORD);
    o.password = "p\xc3\xa4ss";
    ck_assert_int_eq(jet_codec_office(&r, page0, sizeof page0, 0x12345678u,
                                      &o, &err), JET_OK);
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = b[i] = (uint8_t)(i * 13 + 1);
    ck_assert_int_eq(jet_codec_encode(w, 7, a, sizeof a), JET_OK);
    ck_assert(memcmp(a, b, sizeof a) != 0);
    ck_assert_int_eq(jet_codec_decode(r, 7, a, sizeof a), JET_OK);
    ck_assert(memcmp(a, b, sizeof a) == 0);
    jet_codec_free(w);
    jet_codec_free(r);

    /* two new files never share salts or keys */
    {
        uint8_t rec2[JET_AGILE_RECORD_MAX];
        size_t len2 = 0;
        ck_assert_int_eq(jet_codec_agile_new(&w, rec2, sizeof rec2, &len2,
                                             1, "x", &err), JET_OK);
        jet_codec_free(w);
        ck_assert(len2 != len || memcmp(rec, rec2, len) != 0);
    }

    /* 1 to 255 characters */
    ck_assert_int_eq(jet_codec_agile_new(&w, rec, sizeof rec, &len, 1, "",
                                         &err), JET_ELIMIT);
    ck_assert_ptr_null(w);
    memset(longpw, 'x', 256);
    longpw[256] = '\0';
    ck_assert_int_eq(jet_codec_agile_new(&w, rec, sizeof rec, &len, 1,
                                         longpw, &err), JET_ELIMIT);
    longpw[255] = '\0';
    ck_assert_int_eq(jet_codec_agile_new(&w, rec, sizeof rec, &len, 1,
                                         longpw, &err), JET_OK);
    jet_codec_free(w);
}
END_TEST

static Suite *crypt_suite(void)
{
    Suite *s = suite_create("crypt");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, crypt_header_mask_keystream_matches_known_bytes);
    tcase_add_test(tc, crypt_header_mask_table_equals_libcrypto_rc4_keystream);
    tcase_add_test(tc, crypt_header_mask_longer_than_table_is_corrupt);
    tcase_add_test(tc, crypt_header_mask_region_past_page_is_corrupt);
    tcase_add_test(tc, crypt_rc4_page_decode_round_trips_with_page_key);
    tcase_add_test(tc, crypt_page_key_depends_on_page_number);
    tcase_add_test(tc, crypt_jet4_password_field_masks_with_the_creation_date);
    tcase_add_test(tc,
                   crypt_jet4_password_field_a_date_over_zeros_is_no_password);
    tcase_add_test(tc, crypt_base64_encode_rfc4648_vectors);
    tcase_add_test(tc, crypt_agile_new_record_opens_with_its_password_only);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(crypt_suite)
