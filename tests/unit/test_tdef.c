/*
 * test_tdef.c - table definitions: columns, names, usage map, chains.
 */
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"

#define PS 4096
static uint8_t pages[4 * PS];
static char path[64];

static void put_name(uint8_t *p, size_t *pos, const char *ascii)
{
    size_t n = strlen(ascii);
    pb_put16(p + *pos, (uint16_t)(n * 2));
    *pos += 2;
    for (size_t i = 0; i < n; i++) {
        p[(*pos)++] = (uint8_t)ascii[i];
        p[(*pos)++] = 0;
    }
}

/* Jet4 TDEF on page 1 with columns "txt" (TEXT, col 1) and "id" (LONG,
 * col 0, auto-increment), owned pages from the inline map on page 2. */
static jet_db *tdef_file(void)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    uint8_t *t = pages + PS, *c, map[9] = { 0 };
    size_t pos;
    memset(pages, 0, sizeof pages);
    t[0] = 0x02;
    t[1] = 0x01;
    pb_put32(t + f->tdef_nrows, 5);
    t[f->tdef_table_type] = 0x4E;
    pb_put16(t + f->tdef_max_cols, 2);
    pb_put16(t + f->tdef_num_var_cols, 1);
    pb_put16(t + f->tdef_num_cols, 2);
    pb_put32(t + f->tdef_owned_pages, 2u << 8);   /* row 0 of page 2 */
    c = t + f->tdef_idx_def_block;
    c[f->col_type] = JET_T_TEXT;
    pb_put16(c + f->col_num, 1);
    pb_put16(c + f->col_var_index, 0);
    c[f->col_flags] = 0x02;
    pb_put16(c + f->col_length, 100);
    c += f->col_size;
    c[f->col_type] = JET_T_LONG;
    pb_put16(c + f->col_num, 0);
    c[f->col_flags] = 0x01 | 0x02 | 0x04;
    pb_put16(c + f->col_fixed_offset, 0);
    pb_put16(c + f->col_length, 4);
    pos = f->tdef_idx_def_block + 2 * f->col_size;
    put_name(t, &pos, "txt");
    put_name(t, &pos, "id");
    pb_put32(t + f->tdef_len, (uint32_t)pos);
    pb_data_page(pages + 2 * PS, f, 1);
    map[0] = 0;
    pb_put32(map + 1, 0);
    map[5] = 0x08;                       /* page 3 */
    pb_add_row(pages + 2 * PS, f, map, sizeof map, 0);
    if (pb_write_file(path, sizeof path, pages, 4, PS) != 0)
        return NULL;
    return pb_db_open(path, JET_VER_4);
}

/* The good file's pages in pages[], for a test to damage. */
static void good_pages(void)
{
    jet_db *db = tdef_file();
    ck_assert_ptr_nonnull(db);
    pb_db_free(db);
}

/* Write pages[] (damaged) and read the TDEF of page 1: JET_ECORRUPT, err
 * (may be NULL) saying why. Returns what the read left in its out
 * pointer. */
static jet_tdef_priv *read_is_corrupt(jet_error *err)
{
    jet_tdef_priv *t;
    ck_assert_int_eq(pb_write_file(path, sizeof path, pages, 4, PS), 0);
    jet_db *db = pb_db_open(path, JET_VER_4);
    ck_assert_int_eq(jet_tdef_read(&t, db, 1, "T", err), JET_ECORRUPT);
    pb_db_free(db);
    unlink(path);
    return t;
}

START_TEST(tdef_jet4_columns_sorted_by_col_num)
{
    jet_db *db = tdef_file();
    jet_tdef_priv *t;
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_tdef_read(&t, db, 1, "T", NULL), JET_OK);
    ck_assert_str_eq(t->pub.name, "T");
    ck_assert_uint_eq(t->pub.row_count, 5);
    ck_assert_uint_eq(t->pub.ncols, 2);
    ck_assert_str_eq(t->pub.cols[0].name, "id");
    ck_assert_int_eq(t->pub.cols[0].type, JET_T_LONG);
    ck_assert_uint_eq(t->pub.cols[0].flags,
                      JET_COL_FIXED | JET_COL_NULLABLE | JET_COL_AUTONUMBER);
    ck_assert_str_eq(t->pub.cols[1].name, "txt");
    ck_assert_uint_eq(t->pub.cols[1].length, 100);
    ck_assert_int_eq(jet_tdef_find_column(&t->pub, "TXT"), 1);
    ck_assert_int_eq(jet_tdef_find_column(&t->pub, "nope"), -1);
    ck_assert_uint_eq(t->owned.count, 1);
    ck_assert_uint_eq(t->owned.pgnos[0], 3);
    jet_tdef_free(t);
    pb_db_free(db);
    unlink(path);
}
END_TEST

START_TEST(tdef_continuation_loop_is_corrupt)
{
    jet_error err;
    good_pages();
    pages[2 * PS] = 0x02;
    pb_put32(pages + PS + 4, 2);         /* 1 -> 2 */
    pb_put32(pages + 2 * PS + 4, 1);     /* 2 -> 1 */
    ck_assert_ptr_null(read_is_corrupt(&err));
    ck_assert(strstr(err.msg, "loop") != NULL);
}
END_TEST

START_TEST(tdef_continuation_to_data_page_is_corrupt)
{
    good_pages();
    pb_put32(pages + PS + 4, 2);         /* page 2 is a data page */
    read_is_corrupt(NULL);
}
END_TEST

START_TEST(tdef_implausible_column_count_is_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    good_pages();
    pb_put16(pages + PS + f->tdef_num_cols, 60000);
    read_is_corrupt(NULL);
}
END_TEST

START_TEST(tdef_names_past_buffer_end_are_corrupt)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    good_pages();
    /* first name claims 5000 bytes */
    pb_put16(pages + PS + f->tdef_idx_def_block + 2 * f->col_size, 5000);
    read_is_corrupt(NULL);
}
END_TEST

static Suite *tdef_suite(void)
{
    Suite *s = suite_create("tdef");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, tdef_jet4_columns_sorted_by_col_num);
    tcase_add_test(tc, tdef_continuation_loop_is_corrupt);
    tcase_add_test(tc, tdef_continuation_to_data_page_is_corrupt);
    tcase_add_test(tc, tdef_implausible_column_count_is_corrupt);
    tcase_add_test(tc, tdef_names_past_buffer_end_are_corrupt);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(tdef_suite)
