/*
 * test_row.c - data page row offsets, null mask, fixed and var columns.
 */
#include <string.h>

#include "pagebuild.h"
#include "unit.h"

static uint8_t page[4096];
static uint8_t rowbuf[4096];
static uint16_t varbuf[JET_MAX_VAR_OFFSETS];

static jet_column fixed_col(uint16_t num, jet_type t, uint16_t off,
                            uint16_t len)
{
    jet_column c = { .name = "f", .type = t, .col_num = num,
                     .fixed_offset = off, .length = len,
                     .flags = JET_COL_FIXED, .result_type = t };
    return c;
}

static jet_column var_col(uint16_t num, uint16_t vi)
{
    jet_column c = { .name = "v", .type = JET_T_TEXT, .col_num = num,
                     .var_index = vi, .length = 255,
                     .result_type = JET_T_TEXT };
    return c;
}

START_TEST(row_bounds_row0_ends_at_page_end)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint16_t s, e, fl;
    pb_data_page(page, f, 7);
    pb_add_row(page, f, "abcd", 4, 0);
    pb_add_row(page, f, "xy", 2, 0);
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 0, &s, &e, &fl, NULL), JET_OK);
    ck_assert_uint_eq(s, 4092);
    ck_assert_uint_eq(e, 4096);
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 1, &s, &e, &fl, NULL), JET_OK);
    ck_assert_uint_eq(s, 4090);
    ck_assert_uint_eq(e, 4092);
    ck_assert_uint_eq(fl, 0);
}
END_TEST

START_TEST(row_bounds_reports_deleted_and_overflow_flags)
{
    const jet_format *f = jet_format_for(JET_VER_3);
    uint16_t s, e, fl;
    pb_data_page(page, f, 7);
    pb_add_row(page, f, "abcd", 4, 0x8000);
    pb_add_row(page, f, "\x01\x05\x00\x00", 4, 0x4000);
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 0, &s, &e, &fl, NULL), JET_OK);
    ck_assert_uint_eq(fl, 0x8000);
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 1, &s, &e, &fl, NULL), JET_OK);
    ck_assert_uint_eq(fl, 0x4000);
    ck_assert_uint_eq(e - s, 4);
}
END_TEST

START_TEST(row_bounds_past_row_count_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint16_t s, e, fl;
    jet_error err;
    pb_data_page(page, f, 7);
    pb_add_row(page, f, "abcd", 4, 0);
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 1, &s, &e, &fl, &err),
                     JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 9);
}
END_TEST

START_TEST(row_bounds_start_inside_offset_table_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint16_t s, e, fl;
    pb_data_page(page, f, 7);
    pb_add_row(page, f, "abcd", 4, 0);
    pb_put16(page + f->data_row_table, 3);   /* start inside the header */
    ck_assert_int_eq(jet_row_bounds(f, page, 9, 0, &s, &e, &fl, NULL),
                     JET_ECORRUPT);
}
END_TEST

START_TEST(row_jet4_null_mask_fixed_and_var_columns)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    bool nulls[4] = { false, false, true, false };
    uint8_t fixed[4] = { 0x2A, 0, 0, 0 };
    pb_val vars[2] = { { false, "hi", 2 }, { true, NULL, 0 } };
    jet_column c0 = fixed_col(0, JET_T_LONG, 0, 4);
    jet_column c1 = var_col(1, 0), c2 = var_col(2, 1);
    jet_column c3 = fixed_col(3, JET_T_BOOL, 0, 0);
    jet_row row;
    bool is_null;
    const uint8_t *d;
    size_t n, len = pb_row(rowbuf, sizeof rowbuf, f, 4, nulls, fixed, 4,
                           vars, 2);

    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL), JET_OK);
    ck_assert_uint_eq(row.ncols, 4);
    ck_assert_uint_eq(row.nvar, 2);
    ck_assert_int_eq(jet_row_column(&row, f, &c0, &is_null, &d, &n, 1, NULL),
                     JET_OK);
    ck_assert(!is_null);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(d[0], 0x2A);
    ck_assert_int_eq(jet_row_column(&row, f, &c1, &is_null, &d, &n, 1, NULL),
                     JET_OK);
    ck_assert(!is_null);
    ck_assert_uint_eq(n, 2);
    ck_assert(memcmp(d, "hi", 2) == 0);
    ck_assert_int_eq(jet_row_column(&row, f, &c2, &is_null, &d, &n, 1, NULL),
                     JET_OK);
    ck_assert(is_null);
    /* BOOL: the null-mask bit is the value, never NULL */
    ck_assert_int_eq(jet_row_column(&row, f, &c3, &is_null, &d, &n, 1, NULL),
                     JET_OK);
    ck_assert(!is_null);
    ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(row_column_beyond_stored_count_is_null)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    bool nulls[1] = { false };
    uint8_t fixed[4] = { 1, 0, 0, 0 };
    jet_column late = fixed_col(5, JET_T_LONG, 4, 4);
    jet_row row;
    bool is_null;
    const uint8_t *d;
    size_t n, len = pb_row(rowbuf, sizeof rowbuf, f, 1, nulls, fixed, 4,
                           NULL, 0);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, false, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL), JET_OK);
    ck_assert_int_eq(jet_row_column(&row, f, &late, &is_null, &d, &n, 1,
                                    NULL), JET_OK);
    ck_assert(is_null);
}
END_TEST

START_TEST(row_jet3_jump_table_over_256_bytes)
{
    const jet_format *f = jet_format_for(JET_VER_3);
    bool nulls[3] = { false, false, false };
    uint8_t a[200], b[200], c[150];
    pb_val vars[3] = { { false, a, sizeof a }, { false, b, sizeof b },
                       { false, c, sizeof c } };
    jet_row row;
    size_t len;
    memset(a, 'a', sizeof a);
    memset(b, 'b', sizeof b);
    memset(c, 'c', sizeof c);
    len = pb_row(rowbuf, sizeof rowbuf, f, 3, nulls, NULL, 0, vars, 3);
    ck_assert_uint_gt(len, 512);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL), JET_OK);
    ck_assert_uint_eq(row.nvar, 3);
    for (uint16_t i = 0; i < 3; i++) {
        jet_column col = var_col(i, i);
        bool is_null;
        const uint8_t *d;
        size_t n;
        ck_assert_int_eq(jet_row_column(&row, f, &col, &is_null, &d, &n, 1,
                                        NULL), JET_OK);
        ck_assert(!is_null);
        ck_assert_uint_eq(n, vars[i].len);
        ck_assert_uint_eq(d[0], "abc"[i]);
        ck_assert_uint_eq(d[n - 1], "abc"[i]);
    }
}
END_TEST

START_TEST(row_jet3_jump_table_dummy_last_entry)
{
    /* eod at 506 but the row is 514 bytes: two jump entries by length,
     * the second a dummy (mdbtools HACKING.md) */
    const jet_format *f = jet_format_for(JET_VER_3);
    bool nulls[3] = { false, false, false };
    uint8_t a[200], b[200], c[105];
    pb_val vars[3] = { { false, a, sizeof a }, { false, b, sizeof b },
                       { false, c, sizeof c } };
    jet_column last = var_col(2, 2);
    jet_row row;
    bool is_null;
    const uint8_t *d;
    size_t n, len;
    memset(a, 'a', sizeof a);
    memset(b, 'b', sizeof b);
    memset(c, 'c', sizeof c);
    len = pb_row(rowbuf, sizeof rowbuf, f, 3, nulls, NULL, 0, vars, 3);
    ck_assert_uint_eq(len, 514);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL), JET_OK);
    ck_assert_int_eq(jet_row_column(&row, f, &last, &is_null, &d, &n, 1,
                                    NULL), JET_OK);
    ck_assert_uint_eq(n, 105);
    ck_assert_uint_eq(d[0], 'c');
}
END_TEST

START_TEST(row_jet3_short_row_without_jump_table)
{
    const jet_format *f = jet_format_for(JET_VER_3);
    bool nulls[2] = { false, false };
    uint8_t fixed[2] = { 7, 0 };
    pb_val vars[1] = { { false, "xyz", 3 } };
    jet_column v = var_col(1, 0);
    jet_row row;
    bool is_null;
    const uint8_t *d;
    size_t n, len = pb_row(rowbuf, sizeof rowbuf, f, 2, nulls, fixed, 2,
                           vars, 1);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL), JET_OK);
    ck_assert_int_eq(jet_row_column(&row, f, &v, &is_null, &d, &n, 1, NULL),
                     JET_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert(memcmp(d, "xyz", 3) == 0);
}
END_TEST

START_TEST(row_var_offset_past_row_end_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    bool nulls[1] = { false };
    pb_val vars[1] = { { false, "hello", 5 } };
    jet_column v = var_col(0, 0);
    jet_row row;
    bool is_null;
    const uint8_t *d;
    size_t n, len = pb_row(rowbuf, sizeof rowbuf, f, 1, nulls, NULL, 0,
                           vars, 1);
    jet_error err;
    /* eod entry (second from the var count) points past the row */
    pb_put16(rowbuf + len - 1 - 2 - 4, 900);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 33, NULL), JET_OK);
    ck_assert_int_eq(jet_row_column(&row, f, &v, &is_null, &d, &n, 33, &err),
                     JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 33);
}
END_TEST

START_TEST(row_null_mask_longer_than_row_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint8_t r[4] = { 0xFF, 0x00, 0, 0 };   /* 255 columns, 4 bytes */
    jet_row row;
    ck_assert_int_eq(jet_row_parse(&row, f, r, sizeof r, false, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL),
                     JET_ECORRUPT);
}
END_TEST

START_TEST(row_var_count_overrunning_row_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    bool nulls[1] = { false };
    pb_val vars[1] = { { false, "hello", 5 } };
    jet_row row;
    size_t len = pb_row(rowbuf, sizeof rowbuf, f, 1, nulls, NULL, 0, vars, 1);
    pb_put16(rowbuf + len - 1 - 2, 2000);
    ck_assert_int_eq(jet_row_parse(&row, f, rowbuf, len, true, varbuf,
                                   JET_MAX_VAR_OFFSETS, 1, NULL),
                     JET_ECORRUPT);
}
END_TEST

static Suite *row_suite(void)
{
    Suite *s = suite_create("row");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, row_bounds_row0_ends_at_page_end);
    tcase_add_test(tc, row_bounds_reports_deleted_and_overflow_flags);
    tcase_add_test(tc, row_bounds_past_row_count_is_corrupt);
    tcase_add_test(tc, row_bounds_start_inside_offset_table_is_corrupt);
    tcase_add_test(tc, row_jet4_null_mask_fixed_and_var_columns);
    tcase_add_test(tc, row_column_beyond_stored_count_is_null);
    tcase_add_test(tc, row_jet3_jump_table_over_256_bytes);
    tcase_add_test(tc, row_jet3_jump_table_dummy_last_entry);
    tcase_add_test(tc, row_jet3_short_row_without_jump_table);
    tcase_add_test(tc, row_var_offset_past_row_end_is_corrupt);
    tcase_add_test(tc, row_null_mask_longer_than_row_is_corrupt);
    tcase_add_test(tc, row_var_count_overrunning_row_is_corrupt);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(row_suite)
