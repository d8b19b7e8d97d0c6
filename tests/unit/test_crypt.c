/*
 * test_crypt.c - header mask and Jet RC4 page codec.
 */
#include <string.h>

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
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(crypt_suite)
