/*
 * test_usagemap.c - inline (type 0) and reference (type 1) usage maps.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"

START_TEST(usagemap_inline_lists_set_bits_from_start_page)
{
    uint8_t row[64] = { 0 };
    jet_pglist l;
    row[0] = 0;
    pb_put32(row + 1, 8);        /* start page */
    row[5] = 0x05;               /* pages 8 and 10 */
    row[6] = 0x80;               /* page 23 */
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         1000, 1, NULL), JET_OK);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_uint_eq(l.pgnos[0], 8);
    ck_assert_uint_eq(l.pgnos[1], 10);
    ck_assert_uint_eq(l.pgnos[2], 23);
    jet_pglist_free(&l);
}
END_TEST

START_TEST(usagemap_inline_page_past_end_of_file_is_corrupt)
{
    /* a truncated copy: the table owns pages the file no longer has.
     * Dropping them silently would lose rows (or a whole catalog). */
    uint8_t row[16] = { 0 };
    jet_pglist l;
    jet_error err;
    pb_put32(row + 1, 0);
    row[5] = 0xFF;               /* pages 0..7 */
    row[6] = 0xFF;               /* pages 8..15 */
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         10, 1, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 10);
    ck_assert_str_eq(err.msg, "page 10, listed in the usage map on page 1, "
                              "is past the end of the file (10 pages)");
    ck_assert_ptr_null(l.pgnos);
    ck_assert_uint_eq(l.count, 0);
}
END_TEST

START_TEST(usagemap_inline_last_page_of_file_is_listed)
{
    uint8_t row[16] = { 0 };
    jet_pglist l;
    pb_put32(row + 1, 0);
    row[6] = 0x02;               /* page 9 of 10 */
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         10, 1, NULL), JET_OK);
    ck_assert_uint_eq(l.count, 1);
    ck_assert_uint_eq(l.pgnos[0], 9);
    jet_pglist_free(&l);
}
END_TEST

START_TEST(usagemap_inline_huge_start_page_is_corrupt)
{
    uint8_t row[8] = { 0 };
    jet_pglist l;
    jet_error err;
    pb_put32(row + 1, 0xFFFFFFFFu);
    row[7] = 0x80;               /* page 2^32 - 1 + 23: beyond 32 bits */
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         10, 1, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, UINT32_MAX);
    ck_assert(strstr(err.msg, "page 4294967318,") != NULL);
}
END_TEST

START_TEST(usagemap_inline_too_short_is_corrupt)
{
    uint8_t row[3] = { 0, 1, 2 };
    jet_pglist l;
    jet_error err;
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         10, 5, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 5);
}
END_TEST

START_TEST(usagemap_unknown_type_is_corrupt)
{
    uint8_t row[16] = { 7 };
    jet_pglist l;
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, NULL, 4096,
                                         10, 5, NULL), JET_ECORRUPT);
}
END_TEST

/* A file of 4 Jet4 pages: page 2 is a type-0x05 map page. */
static jet_db *reference_file(uint8_t map_type, char *path, size_t cap)
{
    static uint8_t pages[4 * 4096];
    memset(pages, 0, sizeof pages);
    pages[2 * 4096] = map_type;
    pages[2 * 4096 + 4] = 0x0A;            /* pages 1 and 3 */
    if (pb_write_file(path, cap, pages, 4, 4096) != 0)
        return NULL;
    return pb_db_open(path, JET_VER_4);
}

START_TEST(usagemap_reference_reads_map_pages)
{
    char path[64];
    jet_db *db = reference_file(0x05, path, sizeof path);
    uint8_t row[17] = { 1 };
    jet_pglist l;
    ck_assert_ptr_nonnull(db);
    pb_put32(row + 1, 2);
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, db->pf, 4096,
                                         4, 1, NULL), JET_OK);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_uint_eq(l.pgnos[0], 1);
    ck_assert_uint_eq(l.pgnos[1], 3);
    jet_pglist_free(&l);
    pb_db_free(db);
    unlink(path);
}
END_TEST

START_TEST(usagemap_reference_to_wrong_page_type_is_corrupt)
{
    char path[64];
    jet_db *db = reference_file(0x01, path, sizeof path);
    uint8_t row[17] = { 1 };
    jet_pglist l;
    jet_error err;
    ck_assert_ptr_nonnull(db);
    pb_put32(row + 1, 2);
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, db->pf, 4096,
                                         4, 1, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 2);
    pb_db_free(db);
    unlink(path);
}
END_TEST

START_TEST(usagemap_reference_bitmap_past_end_of_file_is_corrupt)
{
    char path[64];
    jet_db *db = reference_file(0x05, path, sizeof path);
    uint8_t row[17] = { 1 };
    jet_pglist l;
    jet_error err;
    ck_assert_ptr_nonnull(db);
    pb_put32(row + 1, 2);
    /* map page 2 lists pages 1 and 3; a second map page reference covers
     * pages from (4096 - 4) * 8 on, past this 4-page file */
    pb_put32(row + 5, 2);
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, db->pf, 4096,
                                         4, 1, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, (4096 - 4) * 8 + 1);
    ck_assert(strstr(err.msg, "usage map on page 2") != NULL);
    ck_assert_ptr_null(l.pgnos);
    pb_db_free(db);
    unlink(path);
}
END_TEST

START_TEST(usagemap_reference_past_end_of_file_is_corrupt)
{
    char path[64];
    jet_db *db = reference_file(0x05, path, sizeof path);
    uint8_t row[17] = { 1 };
    jet_pglist l;
    ck_assert_ptr_nonnull(db);
    pb_put32(row + 1, 99);
    ck_assert_int_eq(jet_usagemap_decode(&l, row, sizeof row, db->pf, 4096,
                                         4, 1, NULL), JET_ECORRUPT);
    pb_db_free(db);
    unlink(path);
}
END_TEST

static Suite *usagemap_suite(void)
{
    Suite *s = suite_create("usagemap");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, usagemap_inline_lists_set_bits_from_start_page);
    tcase_add_test(tc, usagemap_inline_page_past_end_of_file_is_corrupt);
    tcase_add_test(tc, usagemap_inline_last_page_of_file_is_listed);
    tcase_add_test(tc, usagemap_inline_huge_start_page_is_corrupt);
    tcase_add_test(tc, usagemap_inline_too_short_is_corrupt);
    tcase_add_test(tc, usagemap_unknown_type_is_corrupt);
    tcase_add_test(tc, usagemap_reference_reads_map_pages);
    tcase_add_test(tc, usagemap_reference_to_wrong_page_type_is_corrupt);
    tcase_add_test(tc, usagemap_reference_bitmap_past_end_of_file_is_corrupt);
    tcase_add_test(tc, usagemap_reference_past_end_of_file_is_corrupt);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(usagemap_suite)
