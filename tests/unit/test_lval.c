/*
 * test_lval.c - MEMO/OLE long values: inline, single LVAL row, chains.
 */
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"

#define PS 4096
static uint8_t pages[4 * PS];
static char path[64];

/* Page 1: LVAL row 0 "single!"; page 2: chain part 1 -> page 3 row 0. */
static jet_db *lval_file(bool loop)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint8_t chunk[32];
    memset(pages, 0, sizeof pages);
    pb_data_page(pages + PS, f, 0);
    pb_add_row(pages + PS, f, "single!", 7, 0);
    pb_data_page(pages + 2 * PS, f, 0);
    chunk[0] = 0;                       /* next: row 0 of page 3 */
    pb_put24(chunk + 1, 3);
    memcpy(chunk + 4, "hello ", 6);
    pb_add_row(pages + 2 * PS, f, chunk, 10, 0);
    pb_data_page(pages + 3 * PS, f, 0);
    chunk[0] = 0;
    pb_put24(chunk + 1, loop ? 2 : 0);
    memcpy(chunk + 4, "world", 5);
    pb_add_row(pages + 3 * PS, f, chunk, 9, 0);
    if (pb_write_file(path, sizeof path, pages, 4, PS) != 0)
        return NULL;
    return pb_db_open(path, JET_VER_4);
}

static void header(uint8_t *h, uint32_t len_flags, uint32_t pg, uint8_t row)
{
    memset(h, 0, 12);
    pb_put32(h, len_flags);
    h[4] = row;
    pb_put24(h + 5, pg);
}

/* Read the long value whose header is h[0..hlen) from a fresh
 * lval_file(loop) into *b; the file is gone again on return. */
static jet_rc read_lval(const uint8_t *h, size_t hlen, bool loop, jet_buf *b)
{
    jet_db *db = lval_file(loop);
    jet_rc rc = jet_lval_read(b, db, h, hlen, 1, NULL);
    pb_db_free(db);
    unlink(path);
    return rc;
}

/* The long value of header h[0..hlen) reads as want[0..n). */
static void reads_as(const uint8_t *h, size_t hlen, const char *want,
                     size_t n)
{
    jet_buf b = { 0 };
    ck_assert_int_eq(read_lval(h, hlen, false, &b), JET_OK);
    ck_assert_uint_eq(b.len, n);
    ck_assert(memcmp(b.data, want, n) == 0);
    jet_buf_free(&b);
}

/* The long value of header h[0..hlen) is corrupt. */
static void read_is_corrupt(const uint8_t *h, size_t hlen)
{
    jet_buf b = { 0 };
    ck_assert_int_eq(read_lval(h, hlen, false, &b), JET_ECORRUPT);
    jet_buf_free(&b);
}

START_TEST(lval_inline_value_follows_header)
{
    uint8_t h[16];
    header(h, 0x80000000u | 4, 0, 0);
    memcpy(h + 12, "memo", 4);
    reads_as(h, sizeof h, "memo", 4);
}
END_TEST

START_TEST(lval_single_page_row)
{
    uint8_t h[12];
    header(h, 0x40000000u | 7, 1, 0);
    reads_as(h, sizeof h, "single!", 7);
}
END_TEST

START_TEST(lval_chain_of_two_pages)
{
    uint8_t h[12];
    header(h, 11, 2, 0);
    reads_as(h, sizeof h, "hello world", 11);
}
END_TEST

START_TEST(lval_chain_ending_early_is_corrupt)
{
    uint8_t h[12];
    header(h, 50, 2, 0);   /* claims more than the chain holds */
    read_is_corrupt(h, sizeof h);
}
END_TEST

START_TEST(lval_chain_loop_stops_at_declared_length)
{
    uint8_t h[12];
    jet_buf b = { 0 };
    header(h, 4000, 2, 0);  /* loop 2 -> 3 -> 2 ... adds bytes each hop */
    /* the loop adds data, so it ends by length; a zero-length loop below */
    ck_assert_int_eq(read_lval(h, sizeof h, true, &b), JET_OK);
    ck_assert_uint_eq(b.len, 4000);
    jet_buf_free(&b);
}
END_TEST

START_TEST(lval_length_past_file_size_is_corrupt)
{
    uint8_t h[12];
    header(h, 0x3FFFFFFF, 2, 0);
    read_is_corrupt(h, sizeof h);
}
END_TEST

START_TEST(lval_pointer_past_end_of_file_is_corrupt)
{
    uint8_t h[12];
    header(h, 0x40000000u | 7, 77, 0);
    read_is_corrupt(h, sizeof h);
}
END_TEST

START_TEST(lval_short_header_is_corrupt)
{
    uint8_t h[8] = { 0 };
    read_is_corrupt(h, sizeof h);
}
END_TEST

static Suite *lval_suite(void)
{
    Suite *s = suite_create("lval");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lval_inline_value_follows_header);
    tcase_add_test(tc, lval_single_page_row);
    tcase_add_test(tc, lval_chain_of_two_pages);
    tcase_add_test(tc, lval_chain_ending_early_is_corrupt);
    tcase_add_test(tc, lval_chain_loop_stops_at_declared_length);
    tcase_add_test(tc, lval_length_past_file_size_is_corrupt);
    tcase_add_test(tc, lval_pointer_past_end_of_file_is_corrupt);
    tcase_add_test(tc, lval_short_header_is_corrupt);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(lval_suite)
