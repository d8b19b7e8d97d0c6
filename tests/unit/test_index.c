/*
 * test_index.c - index key encoding, index page walking and seeks.
 *
 * Key encoding is checked on values (sign flips, doubles, descending);
 * small in-memory index trees check descent, shared prefixes and link
 * cycles; the ../shared fixtures (skipped when absent) check, for every
 * index of every table, that a walk yields exactly the live rows in key
 * order, that our encoding of each row's key equals the bytes Jet wrote,
 * that seeks find exactly the matching rows, and that a primary-key seek
 * on a 200,000-row table reads O(log n) pages.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collate.h"
#include "index.h"
#include "pagebuild.h"
#include "unit.h"
#include "../shared_dir.h"


/* ------------------------------------------------------------ encoding */

static size_t enc(uint8_t *out, jet_type t, bool asc, const jet_value *v)
{
    size_t pos = 0;
    ck_assert_int_eq(jet_index_encode_value(out, 64, &pos, t, asc, false, v),
                     JET_OK);
    return pos;
}

static jet_value ival(jet_type t, int64_t i)
{
    jet_value v = { .type = t };
    v.u.i = i;
    return v;
}

static jet_value dval(jet_type t, double d)
{
    jet_value v = { .type = t };
    if (t == JET_T_FLOAT)
        v.u.f = (float)d;
    else
        v.u.d = d;
    return v;
}

START_TEST(encode_long_flips_sign_bit_big_endian)
{
    uint8_t b[64];
    jet_value v = ival(JET_T_LONG, 1);
    ck_assert_uint_eq(enc(b, JET_T_LONG, true, &v), 5);
    ck_assert_mem_eq(b, "\x7f\x80\x00\x00\x01", 5);
    v = ival(JET_T_LONG, -1);
    enc(b, JET_T_LONG, true, &v);
    ck_assert_mem_eq(b, "\x7f\x7f\xff\xff\xff", 5);
    v = ival(JET_T_LONG, 1);
    enc(b, JET_T_LONG, false, &v);
    ck_assert_mem_eq(b, "\x80\x7f\xff\xff\xfe", 5);
}
END_TEST

START_TEST(encode_null_is_one_flag_byte)
{
    uint8_t b[64];
    jet_value v = { .type = JET_T_LONG, .is_null = true };
    ck_assert_uint_eq(enc(b, JET_T_LONG, true, &v), 1);
    ck_assert_uint_eq(b[0], 0x00);
    ck_assert_uint_eq(enc(b, JET_T_LONG, false, &v), 1);
    ck_assert_uint_eq(b[0], 0xFF);
}
END_TEST

START_TEST(encode_byte_is_unsigned_and_desc_inverts)
{
    uint8_t b[64];
    jet_value v = ival(JET_T_BYTE, 5);
    ck_assert_uint_eq(enc(b, JET_T_BYTE, true, &v), 2);
    ck_assert_mem_eq(b, "\x7f\x05", 2);
    enc(b, JET_T_BYTE, false, &v);
    ck_assert_mem_eq(b, "\x80\xfa", 2);
}
END_TEST

START_TEST(encode_bool_true_sorts_first)
{
    uint8_t b[64];
    jet_value v = { .type = JET_T_BOOL };
    v.u.b = true;
    enc(b, JET_T_BOOL, true, &v);
    ck_assert_mem_eq(b, "\x7f\x00", 2);
    v.u.b = false;
    enc(b, JET_T_BOOL, true, &v);
    ck_assert_mem_eq(b, "\x7f\xff", 2);
    enc(b, JET_T_BOOL, false, &v);
    ck_assert_mem_eq(b, "\x80\x00", 2);
}
END_TEST

START_TEST(encode_double_negative_inverts_all_bytes)
{
    uint8_t b[64];
    jet_value v = dval(JET_T_DOUBLE, 1.0);
    ck_assert_uint_eq(enc(b, JET_T_DOUBLE, true, &v), 9);
    ck_assert_mem_eq(b, "\x7f\xbf\xf0\x00\x00\x00\x00\x00\x00", 9);
    v = dval(JET_T_DOUBLE, -1.0);
    enc(b, JET_T_DOUBLE, true, &v);
    ck_assert_mem_eq(b, "\x7f\x40\x0f\xff\xff\xff\xff\xff\xff", 9);
    v = dval(JET_T_DOUBLE, -1.0);
    enc(b, JET_T_DOUBLE, false, &v);
    ck_assert_mem_eq(b, "\x80\xbf\xf0\x00\x00\x00\x00\x00\x00", 9);
}
END_TEST

/* Encoded bytes must sort like the values (reversed when descending). */
static void check_order(jet_type t, const jet_value *vals, size_t n)
{
    for (int asc = 0; asc <= 1; asc++)
        for (size_t i = 1; i < n; i++) {
            uint8_t a[64], b[64];
            size_t la = enc(a, t, asc, &vals[i - 1]);
            size_t lb = enc(b, t, asc, &vals[i]);
            int c;
            ck_assert_uint_eq(la, lb);
            c = memcmp(a, b, la);
            if (asc)
                ck_assert_msg(c < 0, "type %d asc: %zu not below %zu", t,
                              i - 1, i);
            else
                ck_assert_msg(c > 0, "type %d desc: %zu not above %zu", t,
                              i - 1, i);
        }
}

START_TEST(encode_orders_numbers_like_values)
{
    jet_value ints[6], longs[6], bigs[5], dbls[9], flts[5], money[4];
    int64_t iv[6] = { -32768, -300, -1, 0, 1, 32767 };
    int64_t lv[6] = { INT32_MIN, -65536, -1, 0, 255, INT32_MAX };
    int64_t bv[5] = { INT64_MIN, -1, 0, 1, INT64_MAX };
    double dv[9] = { -1.7976931348623157e308, -1e9, -1.5, -5e-324, 0.0,
                     5e-324, 0.1, 1e16, 1.7976931348623157e308 };
    double fv[5] = { -3e38, -1.0, 0.0, 0.5, 3e38 };
    int64_t mv[4] = { INT64_MIN, -1, 0, INT64_MAX };
    for (int i = 0; i < 6; i++) {
        ints[i] = ival(JET_T_INT, iv[i]);
        longs[i] = ival(JET_T_LONG, lv[i]);
    }
    for (int i = 0; i < 5; i++) {
        bigs[i] = ival(JET_T_BIGINT, bv[i]);
        flts[i] = dval(JET_T_FLOAT, fv[i]);
    }
    for (int i = 0; i < 9; i++)
        dbls[i] = dval(JET_T_DOUBLE, dv[i]);
    for (int i = 0; i < 4; i++) {
        money[i] = (jet_value){ .type = JET_T_MONEY };
        money[i].u.money = mv[i];
    }
    check_order(JET_T_INT, ints, 6);
    check_order(JET_T_LONG, longs, 6);
    check_order(JET_T_BIGINT, bigs, 5);
    check_order(JET_T_DOUBLE, dbls, 9);
    check_order(JET_T_DATETIME, dbls, 9);
    check_order(JET_T_FLOAT, flts, 5);
    check_order(JET_T_MONEY, money, 4);
}
END_TEST

static jet_value nval(bool neg, uint32_t lo, uint32_t hi)
{
    jet_value v = { .type = JET_T_NUMERIC };
    v.u.num.negative = neg;
    for (int i = 0; i < 4; i++) {
        v.u.num.mag[i] = (uint8_t)(lo >> (8 * i));
        v.u.num.mag[8 + i] = (uint8_t)(hi >> (8 * i));
    }
    return v;
}

START_TEST(encode_numeric_ace_orders_both_ways_legacy_sign_byte)
{
    jet_value v[6] = { nval(true, 0, 7), nval(true, 100, 0),
                       nval(true, 1, 0), nval(false, 0, 0),
                       nval(false, 5, 0), nval(false, 0, 1) };
    uint8_t b[64];
    size_t pos = 0;
    check_order(JET_T_NUMERIC, v, 6);   /* ACE layout (legacy = false) */
    /* Jet4 layout: sign byte 0x00 negative / 0xFF positive, magnitude
     * 16 bytes big-endian, inverted for negative ascending */
    ck_assert_int_eq(jet_index_encode_value(b, 64, &pos, JET_T_NUMERIC, true,
                                            true, &v[2]), JET_OK);
    ck_assert_uint_eq(pos, 18);
    ck_assert_uint_eq(b[1], 0x00);
    ck_assert_uint_eq(b[2], 0xFF);
    ck_assert_uint_eq(b[17], 0xFE);
}
END_TEST

START_TEST(encode_guid_in_segments_canonical_order)
{
    uint8_t b[64];
    jet_value v = { .type = JET_T_GUID };
    for (int i = 0; i < 16; i++)
        v.u.guid[i] = (uint8_t)(i + 1);
    ck_assert_uint_eq(enc(b, JET_T_GUID, true, &v), 19);
    ck_assert_mem_eq(b, "\x7f\x04\x03\x02\x01\x06\x05\x08\x07\x09"
                        "\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x08", 19);
    enc(b, JET_T_GUID, false, &v);
    ck_assert_uint_eq(b[0], 0x80);
    ck_assert_uint_eq(b[1], 0xFB);
    ck_assert_uint_eq(b[9], 0x09);    /* inner length byte kept */
    ck_assert_uint_eq(b[18], 0xF7);   /* last length byte inverted */
}
END_TEST

START_TEST(encode_rejects_text_and_out_of_range)
{
    uint8_t b[64];
    size_t pos = 0;
    jet_value v = ival(JET_T_LONG, 40000);
    jet_value t = { .type = JET_T_TEXT };
    ck_assert_int_eq(jet_index_encode_value(b, 64, &pos, JET_T_INT, true,
                                            false, &v), JET_ELIMIT);
    ck_assert_int_eq(jet_index_encode_value(b, 64, &pos, JET_T_TEXT, true,
                                            false, &t), JET_EUNSUPPORTED);
    v = dval(JET_T_DOUBLE, 2.5);
    ck_assert_int_eq(jet_index_encode_value(b, 64, &pos, JET_T_LONG, true,
                                            false, &v), JET_ELIMIT);
    ck_assert_int_eq(jet_index_encode_value(b, 3, &pos, JET_T_DOUBLE, true,
                                            false, &v), JET_ELIMIT);
}
END_TEST

/* ------------------------------------------------------ built index trees */

/* One Jet4 index page: entries given whole; the builder applies prefix. */
typedef struct pb_entry {
    int32_t key;        /* LONG key, ascending */
    uint32_t pgno;      /* data page */
    uint8_t row;
    uint32_t child;     /* node entries only */
} pb_entry;

static void build_index_page(uint8_t *page, bool leaf, const pb_entry *e,
                             size_t n, uint16_t prefix, uint32_t prev,
                             uint32_t next, uint32_t tail)
{
    uint32_t pos = 0;
    memset(page, 0, 4096);
    page[0] = leaf ? 0x04 : 0x03;
    page[1] = 0x01;
    pb_put32(page + 4, 9);      /* owner: fake_t's tdef page */
    pb_put32(page + 12, prev);
    pb_put32(page + 16, next);
    pb_put32(page + 20, tail);
    pb_put16(page + 24, prefix);
    for (size_t i = 0; i < n; i++) {
        uint8_t full[16];
        size_t len = 0, skip = i ? prefix : 0;
        jet_value v = ival(JET_T_LONG, e[i].key);
        len = enc(full, JET_T_LONG, true, &v);
        full[len++] = (uint8_t)(e[i].pgno >> 16);
        full[len++] = (uint8_t)(e[i].pgno >> 8);
        full[len++] = (uint8_t)e[i].pgno;
        full[len++] = e[i].row;
        if (!leaf) {
            full[len++] = (uint8_t)(e[i].child >> 24);
            full[len++] = (uint8_t)(e[i].child >> 16);
            full[len++] = (uint8_t)(e[i].child >> 8);
            full[len++] = (uint8_t)e[i].child;
        }
        memcpy(page + 480 + pos, full + skip, len - skip);
        pos += (uint32_t)(len - skip);
        page[27 + pos / 8] |= (uint8_t)(1u << (pos % 8));
    }
}

/* A fake one-index tdef over a LONG column; root at page 1. */
static jet_column fake_col = { .name = "id", .type = JET_T_LONG,
                               .flags = JET_COL_FIXED };
static jet_index fake_ix = { .name = "PK", .ncols = 1,
                             .cols = { { 0, true } }, .first_pgno = 1 };
static jet_tdef_priv fake_t = {
    .pub = { .name = "t", .pgno = 9, .ncols = 1, .cols = &fake_col,
             .nindexes = 1, .indexes = &fake_ix },
    .cols = &fake_col, .indexes = &fake_ix,
};

/* index pages at 1.., data pages 100 and 101 (zeros: entries must point
 * at pages of the file) */
#define TREE_PAGES 102
static uint8_t tree[TREE_PAGES * 4096];
static char tree_path[64];

/* tree[] as a file, opened. */
static jet_db *open_tree_file(void)
{
    ck_assert_int_eq(pb_write_file(tree_path, sizeof tree_path, tree,
                                   TREE_PAGES, 4096), 0);
    return pb_db_open(tree_path, JET_VER_4);
}

/* root node (page 1) -> leaves 2, 3, and tail leaf 4; keys 10..90. */
static void fill_tree(bool loop)
{
    pb_entry root[2] = { { 30, 100, 2, 2 }, { 60, 100, 5, 3 } };
    pb_entry l2[3] = { { 10, 100, 0, 0 }, { 20, 100, 1, 0 },
                       { 30, 100, 2, 0 } };
    pb_entry l3[3] = { { 40, 100, 3, 0 }, { 50, 100, 4, 0 },
                       { 60, 100, 5, 0 } };
    pb_entry l4[3] = { { 70, 101, 0, 0 }, { 80, 101, 1, 0 },
                       { 90, 101, 2, 0 } };
    memset(tree, 0, sizeof tree);
    build_index_page(tree + 4096, false, root, 2, 0, 0, 0, 4);
    build_index_page(tree + 2 * 4096, true, l2, 3, 3, 0, 3, 0);
    build_index_page(tree + 3 * 4096, true, l3, 3, 0, 2, 4, 0);
    build_index_page(tree + 4 * 4096, true, l4, 3, 4, 3, loop ? 2 : 0, 0);
}

static jet_db *open_tree(bool loop)
{
    fill_tree(loop);
    return open_tree_file();
}

static int walk_keys(jet_index_cursor *c, uint16_t *rows, int cap)
{
    uint32_t pg;
    uint16_t row;
    int n = 0;
    jet_rc rc;
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        ck_assert_int_lt(n, cap);
        rows[n++] = (uint16_t)((pg - 100) * 10 + row);
    }
    ck_assert_int_eq(rc, JET_DONE);
    return n;
}

START_TEST(tree_walk_follows_leaf_chain_with_prefixes)
{
    jet_db *db = open_tree(false);
    jet_index_cursor *c;
    uint16_t rows[16];
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 9);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(rows[i], i);
    ck_assert_uint_eq(rows[6], 10);
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);
}
END_TEST

START_TEST(tree_seek_descends_to_child_and_tail)
{
    jet_db *db = open_tree(false);
    jet_index_cursor *c;
    uint16_t rows[16];
    jet_value k = ival(JET_T_LONG, 50), hi = ival(JET_T_LONG, 80);
    uint64_t before;
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    before = jet_pagefile_pages_read(db->pf);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &k, 1, true), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 1);
    ck_assert_uint_eq(rows[0], 4);
    ck_assert_uint_eq(jet_pagefile_pages_read(db->pf) - before, 2);
    /* past every node entry: the child tail page */
    k = ival(JET_T_LONG, 75);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, NULL, 0, true), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 2);
    ck_assert_uint_eq(rows[0], 11);
    /* GT 30 .. < 80 */
    k = ival(JET_T_LONG, 30);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GT), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &hi, 1, false), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 4);
    ck_assert_uint_eq(rows[0], 3);
    ck_assert_uint_eq(rows[3], 10);
    /* the same range backwards, then everything backwards */
    ck_assert_int_eq(jet_index_set_reverse(c, true), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 4);
    ck_assert_uint_eq(rows[0], 10);
    ck_assert_uint_eq(rows[3], 3);
    ck_assert_int_eq(jet_index_seek(c, NULL, 0, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, NULL, 0, true), JET_OK);
    ck_assert_int_eq(walk_keys(c, rows, 16), 9);
    ck_assert_uint_eq(rows[0], 12);
    ck_assert_uint_eq(rows[8], 0);
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);
}
END_TEST

/* jet_index_leaf_int_entries collector: keys and rows as walk_keys. */
typedef struct leaf_got {
    int64_t keys[16];
    uint16_t rows[16];
    int n, stop_at;
} leaf_got;

static int collect_leaf(void *ctx, int64_t key, uint32_t pgno, uint16_t row)
{
    leaf_got *g = ctx;
    ck_assert_int_lt(g->n, 16);
    g->keys[g->n] = key;
    g->rows[g->n] = (uint16_t)((pgno - 100) * 10 + row);
    return ++g->n == g->stop_at;
}

/* The entries of the leaf a seek landed on, prefix-compressed or not,
 * with their keys decoded (negative and 32-bit extremes too); nothing
 * before an entry is current, and the walk goes on where it was. */
START_TEST(tree_leaf_int_entries_of_the_current_leaf)
{
    jet_db *db = open_tree(false);
    jet_index_cursor *c;
    leaf_got g;
    uint32_t pg;
    uint16_t row, rows[16];
    jet_value k = ival(JET_T_LONG, 20);
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    memset(&g, 0, sizeof g);
    ck_assert_int_eq(jet_index_leaf_int_entries(c, collect_leaf, &g),
                     JET_ENOTFOUND);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, NULL, 0, true), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    ck_assert_int_eq(jet_index_leaf_int_entries(c, collect_leaf, &g), JET_OK);
    ck_assert_int_eq(g.n, 3);                   /* leaf 2: prefix 3 */
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(g.keys[i], 10 * (i + 1));
        ck_assert_uint_eq(g.rows[i], i);
    }
    /* the walk continues after key 20 */
    ck_assert_int_eq(walk_keys(c, rows, 16), 7);
    ck_assert_uint_eq(rows[0], 2);
    /* the tail leaf (prefix 4), stopped by the callback after two */
    k = ival(JET_T_LONG, 90);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    memset(&g, 0, sizeof g);
    g.stop_at = 2;
    ck_assert_int_eq(jet_index_leaf_int_entries(c, collect_leaf, &g), JET_OK);
    ck_assert_int_eq(g.n, 2);
    ck_assert_int_eq(g.keys[0], 70);
    ck_assert_uint_eq(g.rows[1], 11);
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);

    /* one leaf (the root) with negative keys and the LONG extremes */
    pb_entry l[5] = { { INT32_MIN, 100, 0, 0 }, { -70000, 100, 1, 0 },
                      { -1, 100, 2, 0 }, { 0, 100, 3, 0 },
                      { INT32_MAX, 101, 0, 0 } };
    memset(tree, 0, sizeof tree);
    build_index_page(tree + 4096, true, l, 5, 0, 0, 0, 0);
    ck_assert_int_eq(pb_write_file(tree_path, sizeof tree_path, tree,
                                   TREE_PAGES, 4096), 0);
    db = pb_db_open(tree_path, JET_VER_4);
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    memset(&g, 0, sizeof g);
    ck_assert_int_eq(jet_index_leaf_int_entries(c, collect_leaf, &g), JET_OK);
    ck_assert_int_eq(g.n, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(g.keys[i], l[i].key);
    ck_assert_uint_eq(g.rows[4], 10);
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);
}
END_TEST

START_TEST(tree_leaf_chain_cycle_is_corrupt)
{
    jet_db *db = open_tree(true);
    jet_index_cursor *c;
    uint32_t pg;
    uint16_t row;
    jet_rc rc;
    int n = 0;
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK)
        ck_assert_int_lt(++n, 100);
    ck_assert_int_eq(rc, JET_ECORRUPT);
    /* asked again: the same error, not a quiet end of the index */
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_ECORRUPT);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_ECORRUPT);
    /* a new seek starts over (and meets the loop again) */
    ck_assert_int_eq(jet_index_seek(c, NULL, 0, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);
}
END_TEST

START_TEST(tree_bad_mask_and_node_cycle_are_corrupt)
{
    jet_db *db;
    jet_index_cursor *c;
    uint32_t pg;
    uint16_t row;
    pb_entry self[1] = { { 30, 100, 2, 1 } };
    memset(tree, 0, sizeof tree);
    build_index_page(tree + 4096, false, self, 1, 0, 0, 0, 0);
    /* leaf 2: an entry that ends past the page */
    tree[2 * 4096] = 0x04;
    tree[2 * 4096 + 27 + 452] = 0x80;
    ck_assert_int_eq(pb_write_file(tree_path, sizeof tree_path, tree,
                                   TREE_PAGES, 4096), 0);
    db = pb_db_open(tree_path, JET_VER_4);
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_ECORRUPT);
    ck_assert_uint_eq(jet_index_error(c)->pgno, 1);
    jet_index_cursor_close(c);
    fake_ix.first_pgno = 2;
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_ECORRUPT);
    ck_assert_uint_eq(jet_index_error(c)->pgno, 2);
    jet_index_cursor_close(c);
    fake_ix.first_pgno = 1;
    pb_db_free(db);
    unlink(tree_path);
}
END_TEST

/* Seek GE key (upper: the same, inclusive; 0 for none) on the tree file,
 * forward or backwards, and walk to the end: the rc that ended it and
 * the page the error names. */
static jet_rc damaged_walk(int32_t key, int32_t upper, bool reverse,
                           uint32_t *pgno)
{
    jet_db *db = open_tree_file();
    jet_index_cursor *c;
    jet_value k = ival(JET_T_LONG, key), u = ival(JET_T_LONG, upper);
    uint32_t pg;
    uint16_t row;
    jet_rc rc;
    int n = 0;
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, &fake_t.pub, 0), JET_OK);
    ck_assert_int_eq(jet_index_set_reverse(c, reverse), JET_OK);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &u, upper ? 1 : 0, true),
                     JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK)
        ck_assert_int_lt(++n, 100);
    *pgno = jet_index_error(c)->pgno;
    if (rc != JET_DONE)
        ck_assert_ptr_nonnull(strstr(jet_index_error(c)->msg, "index"));
    jet_index_cursor_close(c);
    pb_db_free(db);
    unlink(tree_path);
    return rc;
}

/*
 * Damage that the page checks (type, owner, entry bounds) let through but
 * that would steer a seek past its rows (tester finding F3): a cleared
 * entry mask bit merging two entries, a stray one past the last entry, a
 * key flag byte no column writes, an entry pointing at page 0, keys out
 * of order, a leaf that does not link back. Each seek or walk that meets
 * it ends in JET_ECORRUPT naming the page, never JET_DONE with rows
 * missing; the undamaged tree walks all nine.
 */
START_TEST(tree_damaged_entries_are_corrupt_not_missing_rows)
{
    uint32_t pg;
    uint8_t *l3 = tree + 3 * 4096, *root = tree + 4096;
    /* leaf 3 holds 40, 50, 60 as 9-byte entries ending at 9, 18, 27 */
    fill_tree(false);
    ck_assert_int_eq(damaged_walk(10, 0, false, &pg), JET_DONE);
    ck_assert_int_eq(damaged_walk(10, 0, true, &pg), JET_DONE);
    /* merged: 40 and 50 one 18-byte entry (a seek for 50 found none) */
    fill_tree(false);
    l3[27 + 1] &= (uint8_t)~0x02;
    ck_assert_int_eq(damaged_walk(50, 50, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
    ck_assert_int_eq(damaged_walk(50, 50, true, &pg), JET_ECORRUPT);
    /* a stray end bit past the last entry: one entry of zeros */
    fill_tree(false);
    l3[27 + 200] |= 0x01;
    ck_assert_int_eq(damaged_walk(50, 50, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
    /* a key flag byte of neither a value nor a null */
    fill_tree(false);
    l3[480 + 9] = 0x14;
    ck_assert_int_eq(damaged_walk(10, 0, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
    /* the root's first entry points at page 0 as its child */
    fill_tree(false);
    memset(root + 480 + 9, 0, 4);
    ck_assert_int_eq(damaged_walk(20, 20, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 1);
    /* keys out of order on a leaf (60 before 50), both directions */
    fill_tree(false);
    {
        pb_entry bad[3] = { { 40, 100, 3, 0 }, { 60, 100, 5, 0 },
                            { 50, 100, 4, 0 } };
        build_index_page(l3, true, bad, 3, 0, 2, 4, 0);
    }
    ck_assert_int_eq(damaged_walk(10, 0, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
    ck_assert_int_eq(damaged_walk(10, 0, true, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
    /* leaf 2's next is 3, but 3 says its previous is 4 */
    fill_tree(false);
    l3[12] = 4;
    ck_assert_int_eq(damaged_walk(10, 0, false, &pg), JET_ECORRUPT);
    ck_assert_uint_eq(pg, 3);
}
END_TEST

/* ------------------------------------------------------------ fixtures */

typedef struct rowpos {
    uint32_t pgno;
    uint16_t row;
} rowpos;

static int cmp_pos(const void *a, const void *b)
{
    const rowpos *x = a, *y = b;
    if (x->pgno != y->pgno)
        return x->pgno < y->pgno ? -1 : 1;
    return (int)x->row - (int)y->row;
}

/* One walked entry: position and a copy of its key bytes. */
typedef struct walked {
    rowpos pos;
    size_t key_off, key_len;
} walked;

typedef struct walk_log {
    walked *e;
    size_t n, cap;
    uint8_t *keys;
    size_t keys_len, keys_cap;
} walk_log;

static void log_add(walk_log *w, rowpos p, const uint8_t *key, size_t len)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 256;
        w->e = realloc(w->e, w->cap * sizeof *w->e);
        ck_assert_ptr_nonnull(w->e);
    }
    if (w->keys_len + len > w->keys_cap) {
        w->keys_cap = (w->keys_cap + len) * 2;
        w->keys = realloc(w->keys, w->keys_cap);
        ck_assert_ptr_nonnull(w->keys);
    }
    memcpy(w->keys + w->keys_len, key, len);
    w->e[w->n++] = (walked){ p, w->keys_len, len };
    w->keys_len += len;
}

static int fixture_indexes, fixture_entries, fixture_seeks, fixture_files;

/* Encode the leading seekable columns of the scan's current row. */
static size_t encode_row_key(jet_db *db, jet_scan *s, const jet_tdef *t,
                             const jet_index *ix, uint16_t nk, uint8_t *buf,
                             jet_value *vals)
{
    size_t pos = 0;
    for (uint16_t k = 0; k < nk; k++) {
        const jet_index_column *ic = &ix->cols[k];
        jet_rc rc = jet_scan_value(s, ic->col, &vals[k]);
        ck_assert_msg(rc == JET_OK, "value: %s", jet_scan_error(s)->msg);
        rc = jet_index_encode_value(buf, JET_INDEX_KEY_MAX, &pos,
                                    t->cols[ic->col].type, ic->ascending,
                                    jet_db_version(db) <= JET_VER_4,
                                    &vals[k]);
        ck_assert_int_eq(rc, JET_OK);
    }
    return pos;
}

static bool all_null(jet_scan *s, const jet_index *ix)
{
    for (uint16_t k = 0; k < ix->ncols; k++) {
        jet_value v;
        ck_assert_int_eq(jet_scan_value(s, ix->cols[k].col, &v), JET_OK);
        if (!v.is_null)
            return false;
    }
    return true;
}

/* The entries c returns from here to its end (JET_DONE), each asserted
 * to start with kbuf[0..klen): how many. */
static size_t count_prefixed(jet_index_cursor *c, const uint8_t *kbuf,
                             size_t klen)
{
    uint32_t pg;
    uint16_t row;
    jet_rc rc;
    size_t got = 0;
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        size_t el;
        const uint8_t *key = jet_index_entry_key(c, &el);
        ck_assert(el >= klen && memcmp(key, kbuf, klen) == 0);
        got++;
    }
    ck_assert_int_eq(rc, JET_DONE);
    return got;
}

static void check_index(jet_db *db, const jet_tdef *t, uint16_t i,
                        const char *file)
{
    const jet_index *ix = &t->indexes[i];
    uint16_t nk = jet_index_seekable_cols(t, i);
    jet_index_cursor *c;
    jet_scan *s;
    walk_log w = { 0 };
    rowpos *scan = NULL;
    size_t nscan = 0, capscan = 0;
    uint8_t kbuf[JET_INDEX_KEY_MAX];
    jet_value vals[10];
    uint32_t pg;
    uint16_t row;
    jet_rc rc;

    /* live rows by full scan (minus all-NULL keys when nulls ignored) */
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        rowpos p;
        if (ix->ignore_nulls && all_null(s, ix))
            continue;
        ck_assert_int_eq(jet_scan_position(s, &p.pgno, &p.row), JET_OK);
        if (nscan == capscan) {
            capscan = capscan ? capscan * 2 : 256;
            scan = realloc(scan, capscan * sizeof *scan);
        }
        scan[nscan++] = p;
    }
    ck_assert_int_eq(rc, JET_DONE);

    /* full walk: keys non-decreasing, our encoding = Jet's bytes */
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, i), JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        size_t klen, mine;
        const uint8_t *key = jet_index_entry_key(c, &klen);
        log_add(&w, (rowpos){ pg, row }, key, klen);
        if (w.n > 1) {
            walked *a = &w.e[w.n - 2], *b = &w.e[w.n - 1];
            size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
            int cmp = memcmp(w.keys + a->key_off, w.keys + b->key_off, n);
            ck_assert_msg(cmp < 0 || (cmp == 0 && a->key_len <= b->key_len),
                          "%s %s.%s: entry %zu out of order", file, t->name,
                          ix->name, w.n - 1);
        }
        rc = jet_scan_fetch_row(s, pg, row);
        ck_assert_msg(rc == JET_OK, "%s %s.%s fetch %u/%u: %s", file,
                      t->name, ix->name, pg, row, jet_scan_error(s)->msg);
        mine = encode_row_key(db, s, t, ix, nk, kbuf, vals);
        ck_assert_msg(mine <= klen && memcmp(kbuf, key, mine) == 0 &&
                          (nk < ix->ncols || mine == klen),
                      "%s %s.%s: key of %u/%u differs from our encoding",
                      file, t->name, ix->name, pg, row);
        fixture_entries++;
    }
    ck_assert_msg(rc == JET_DONE, "%s %s.%s walk: %s", file, t->name,
                  ix->name, jet_index_error(c)->msg);
    ck_assert_msg(w.n == nscan, "%s %s.%s: %zu entries, %zu rows", file,
                  t->name, ix->name, w.n, nscan);

    /* the reverse walk is the forward walk backwards */
    ck_assert_int_eq(jet_index_set_reverse(c, true), JET_OK);
    for (size_t k = w.n; k-- > 0;) {
        rc = jet_index_next(c, &pg, &row);
        ck_assert_msg(rc == JET_OK, "%s %s.%s reverse: %s", file, t->name,
                      ix->name, jet_index_error(c)->msg);
        ck_assert(pg == w.e[k].pos.pgno && row == w.e[k].pos.row);
    }
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_DONE);
    ck_assert_int_eq(jet_index_set_reverse(c, false), JET_OK);
    {
        rowpos *wp = malloc((w.n ? w.n : 1) * sizeof *wp);
        for (size_t k = 0; k < w.n; k++)
            wp[k] = w.e[k].pos;
        qsort(wp, w.n, sizeof *wp, cmp_pos);
        if (nscan)
            qsort(scan, nscan, sizeof *scan, cmp_pos);
        for (size_t k = 0; k < nscan; k++)
            ck_assert_msg(cmp_pos(&wp[k], &scan[k]) == 0,
                          "%s %s.%s: row sets differ", file, t->name,
                          ix->name);
        free(wp);
    }

    /* equality seeks on some entries' leading seekable columns */
    for (size_t k = 0; nk > 0 && k < w.n; k += 1 + w.n / 13) {
        size_t klen, expect = 0, got;
        /* alternately all seekable columns and a one-column prefix */
        uint16_t nq = nk > 1 && (k / (1 + w.n / 13)) % 2 ? 1 : nk;
        ck_assert_int_eq(jet_scan_fetch_row(s, w.e[k].pos.pgno,
                                            w.e[k].pos.row), JET_OK);
        klen = encode_row_key(db, s, t, ix, nq, kbuf, vals);
        for (size_t j = 0; j < w.n; j++)
            if (w.e[j].key_len >= klen &&
                memcmp(w.keys + w.e[j].key_off, kbuf, klen) == 0)
                expect++;
        ck_assert_int_eq(jet_index_seek(c, vals, nq, JET_SEEK_GE), JET_OK);
        ck_assert_int_eq(jet_index_set_upper(c, vals, nq, true), JET_OK);
        got = count_prefixed(c, kbuf, klen);
        ck_assert_msg(got == expect, "%s %s.%s seek %zu: %zu of %zu rows",
                      file, t->name, ix->name, k, got, expect);
        ck_assert_int_eq(jet_index_set_reverse(c, true), JET_OK);
        got = count_prefixed(c, kbuf, klen);
        ck_assert_msg(got == expect, "%s %s.%s reverse seek %zu: %zu of %zu",
                      file, t->name, ix->name, k, got, expect);
        ck_assert_int_eq(jet_index_set_reverse(c, false), JET_OK);
        /* GT: the first entry after is strictly greater */
        ck_assert_int_eq(jet_index_seek(c, vals, nq, JET_SEEK_GT), JET_OK);
        ck_assert_int_eq(jet_index_set_upper(c, NULL, 0, true), JET_OK);
        rc = jet_index_next(c, &pg, &row);
        if (rc == JET_OK) {
            size_t el;
            const uint8_t *key = jet_index_entry_key(c, &el);
            size_t n = el < klen ? el : klen;
            ck_assert(memcmp(key, kbuf, n) > 0);
        } else {
            ck_assert_int_eq(rc, JET_DONE);
        }
        fixture_seeks++;
    }
    fixture_indexes++;
    jet_index_cursor_close(c);
    jet_scan_close(s);
    free(scan);
    free(w.e);
    free(w.keys);
}


static int text_indexes, text_entries, text_complete, text_exact;
static int text_sorted;

/*
 * General sort order: for every entry of a text index (a text column
 * after the leading seekable ones), the key bytes Jet wrote must start
 * with the numeric columns' encoding, the flag byte and the inline sort
 * codes our tables give for the row's string (inverted when descending),
 * followed (Jet4/ACE) by the end-of-text byte when every character is
 * covered; so the walk returns keys in the order the encoder predicts.
 */
static void check_text_order(jet_db *db, const jet_tdef *t, uint16_t i,
                             const char *file)
{
    const jet_index *ix = &t->indexes[i];
    uint16_t nk = jet_index_seekable_cols(t, i);
    const jet_index_column *tc;
    jet_collation co;
    jet_index_cursor *c;
    jet_scan *s;
    jet_rc rc;
    uint32_t pg;
    uint16_t row;
    uint8_t pred[JET_INDEX_KEY_MAX + 1], prev[JET_INDEX_KEY_MAX + 1];
    size_t prev_len = 0, prev_sk_len = 0;
    bool have_prev = false, have_sk = false;
    static uint8_t prev_sk[4 * JET_COLLATE_KEY_MAX];
    jet_value vals[10];

    if (!jet_index_text_seekable(db, t, i))
        return;
    tc = &ix->cols[nk];
    co = jet_collation_of(jet_db_version(db), &t->cols[tc->col]);
    ck_assert_int_ne(co, JET_COLL_NONE);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, i), JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        size_t klen, pos, start;
        const uint8_t *key = jet_index_entry_key(c, &klen);
        uint16_t units[300];
        size_t n = 0;
        bool complete = false, whole_cov = false;
        jet_value v;
        ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
        pos = encode_row_key(db, s, t, ix, nk, pred, vals);
        ck_assert_int_eq(jet_scan_value(s, tc->col, &v), JET_OK);
        if (v.is_null) {
            pred[pos++] = tc->ascending ? 0x00 : 0xFF;
        } else {
            ck_assert_int_eq(jet_text_to_utf16(db, &v, units, 300, &n),
                             JET_OK);
            pred[pos++] = tc->ascending ? 0x7F : 0x80;
            start = pos;
            {
                /* the whole key Jet wrote, accents, unprintables and all */
                uint8_t whole[JET_COLLATE_KEY_MAX];
                bool cov;
                size_t wl = jet_collate_key(whole, sizeof whole, co, units,
                                            n < 300 ? n : 300,
                                            tc->ascending, &cov);
                if (cov) {
                    ck_assert_msg(klen >= pos + wl &&
                                  memcmp(key + pos, whole, wl) == 0,
                                  "%s %s.%s: key of %u/%u is not the whole "
                                  "key jet_collate_key() writes", file,
                                  t->name, ix->name, pg, row);
                    text_exact++;
                }
                whole_cov = cov;
            }
            ck_assert_int_eq(jet_collate_prefix(pred, sizeof pred, &pos, co,
                                                units, n < 300 ? n : 300,
                                                &complete), JET_OK);
            if (complete && co != JET_COLL_GEN97)
                pred[pos++] = 0x01;     /* END_TEXT */
            if (!tc->ascending)
                for (size_t k = start; k < pos; k++)
                    pred[k] = (uint8_t)~pred[k];
        }
        ck_assert_msg(klen >= pos && memcmp(key, pred, pos) == 0,
                      "%s %s.%s: key of %u/%u is not what the General "
                      "sort order predicts", file, t->name, ix->name, pg,
                      row);
        if (have_prev) {
            size_t m = prev_len < pos ? prev_len : pos;
            int r = memcmp(prev, pred, m);
            ck_assert_msg(r <= 0, "%s %s.%s: predicted keys out of order",
                          file, t->name, ix->name);
        }
        memcpy(prev, pred, pos);
        prev_len = pos;
        have_prev = true;
        /* jet_text_sort_key's first level (up to 00 00) agrees with the
         * walk order where Jet's tables cover every character */
        if (whole_cov && !v.is_null) {
            uint8_t sk[4 * JET_COLLATE_KEY_MAX];
            size_t skl = jet_text_sort_key(sk, sizeof sk, db,
                                           &t->cols[tc->col], units, n);
            size_t l1 = 0;
            ck_assert_uint_le(skl, sizeof sk);
            while (!(sk[l1] == 0 && sk[l1 + 1] == 0))
                l1 += sk[l1] == 0 ? 2 : 1;
            if (have_sk && nk == 0) {
                size_t m = prev_sk_len < l1 ? prev_sk_len : l1;
                int r = memcmp(prev_sk, sk, m);
                if (r == 0)
                    r = prev_sk_len < l1 ? -1 : prev_sk_len > l1;
                ck_assert_msg(tc->ascending ? r <= 0 : r >= 0,
                              "%s %s.%s: sort keys out of walk order", file,
                              t->name, ix->name);
                text_sorted++;
            }
            memcpy(prev_sk, sk, l1);
            prev_sk_len = l1;
            have_sk = true;
        } else {
            have_sk = false;
        }
        text_entries++;
        text_complete += complete;
    }
    ck_assert_msg(rc == JET_DONE, "%s %s.%s: %s", file, t->name, ix->name,
                  jet_index_error(c)->msg);
    text_indexes++;
    jet_index_cursor_close(c);
    jet_scan_close(s);
}

static void check_file(const char *path)
{
    jet_db *db;
    jet_error err;
    jet_rc rc = jet_db_open(&db, path, NULL, &err);
    if (rc == JET_EPASSWORD || rc == JET_EUNSUPPORTED)
        return;   /* encrypted: not this suite's business */
    ck_assert_msg(rc == JET_OK, "%s: %s", path, err.msg);
    for (size_t o = 0; o < jet_catalog_count(db); o++) {
        const jet_object *obj = jet_catalog_at(db, o);
        const jet_tdef *t;
        if (obj->kind != JET_OBJ_TABLE)
            continue;
        rc = jet_tdef_load(&t, db, obj);
        if (rc == JET_EUNSUPPORTED)
            continue;
        ck_assert_msg(rc == JET_OK, "%s %s: %s", path, obj->name,
                      jet_db_error(db)->msg);
        for (uint16_t i = 0; i < t->nindexes; i++) {
            check_index(db, t, i, path);
            check_text_order(db, t, i, path);
        }
    }
    fixture_files++;
    jet_db_close(db);
}

static void check_dir(const char *rel, const char *const *patterns)
{
    char dir[512];
    DIR *d;
    struct dirent *de;
    snprintf(dir, sizeof dir, "%s/fixtures/public/%s", jet_shared_dir(), rel);
    d = opendir(dir);
    if (!d)
        return;
    while ((de = readdir(d)) != NULL)
        for (const char *const *p = patterns; *p; p++)
            if (fnmatch(*p, de->d_name, 0) == 0) {
                char path[1024];
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                check_file(path);
                break;
            }
    closedir(d);
}

static bool have_shared(void)
{
    char p[512];
    snprintf(p, sizeof p, "%s/fixtures/public", jet_shared_dir());
    return access(p, R_OK) == 0;
}

START_TEST(fixtures_walks_and_seeks_match_scans)
{
    /* every plain fixture: index tests, all key types (testIndexCodes,
     * testV*, complexData, extDate), Jet3 nwind and ACE ASampleDatabase */
    static const char *const all[] = { "*.mdb", "*.accdb", NULL };
    static const char *const dirs[] = { "jackcess", "jackcess/V1997",
                                        "jackcess/V2000", "jackcess/V2003",
                                        "jackcess/V2007", "jackcess/V2010",
                                        "jackcess/V2019", "mdbtestdata",
                                        NULL };
    if (!have_shared())
        return;   /* ../shared absent: nothing to compare with */
    for (const char *const *d = dirs; *d; d++)
        check_dir(*d, all);
    ck_assert_int_ge(fixture_files, 10);
    ck_assert_int_gt(fixture_seeks, 50);
    fprintf(stderr, "test_index: %d files, %d indexes, %d entries, %d seeks\n",
            fixture_files, fixture_indexes, fixture_entries, fixture_seeks);
    fprintf(stderr, "test_index: General sort order: %d text indexes, %d "
            "entries as predicted (%d with every character covered, %d "
            "whole keys equal to jet_collate_key(), %d sort keys in walk "
            "order)\n", text_indexes, text_entries, text_complete,
            text_exact, text_sorted);
    ck_assert_int_gt(text_exact, 7000);
    ck_assert_int_gt(text_indexes, 20);
}
END_TEST

/* Seek a LONG key on a fresh db; return pages read by seek + fetch. */
static uint64_t seek_pages(const char *file, const char *table,
                           const char *index, int64_t id, int64_t *got)
{
    char path[512];
    jet_db *db;
    jet_error err;
    const jet_tdef *t;
    jet_index_cursor *c;
    jet_scan *s;
    jet_value k = ival(JET_T_LONG, id), v;
    uint64_t before, after;
    uint32_t pg;
    uint16_t row, ino = UINT16_MAX;

    snprintf(path, sizeof path, "%s/fixtures/bulk/%s", jet_shared_dir(), file);
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "%s",
                  err.msg);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, table)),
                     JET_OK);
    for (uint16_t i = 0; i < t->nindexes; i++)
        if (strcmp(t->indexes[i].name, index) == 0)
            ino = i;
    ck_assert_uint_ne(ino, UINT16_MAX);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, ino), JET_OK);
    before = jet_db_pages_read(db);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &k, 1, true), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
    ck_assert_int_eq(jet_scan_value(s, t->indexes[ino].cols[0].col, &v),
                     JET_OK);
    *got = v.u.i;
    after = jet_db_pages_read(db);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_DONE);
    jet_index_cursor_close(c);
    jet_scan_close(s);
    jet_db_close(db);
    return after - before;
}

START_TEST(bulk_primary_key_seek_reads_log_n_pages)
{
    char p[512];
    int64_t got = 0;
    uint64_t n;
    snprintf(p, sizeof p, "%s/fixtures/bulk/bulk.accdb", jet_shared_dir());
    if (access(p, R_OK) != 0)
        return;
    n = seek_pages("bulk.accdb", "bulk", "PrimaryKey", 123457, &got);
    ck_assert_int_eq(got, 123457);
    ck_assert_msg(n <= 6, "bulk: %llu pages for one key",
                  (unsigned long long)n);
    n = seek_pages("bulk.mdb", "bulk", "PrimaryKey", 199999, &got);
    ck_assert_int_eq(got, 199999);
    ck_assert_msg(n <= 6, "bulk.mdb: %llu pages", (unsigned long long)n);
    n = seek_pages("perf.accdb", "orders", "PrimaryKey", 5000, &got);
    ck_assert_int_eq(got, 5000);
    ck_assert_msg(n <= 5, "orders: %llu pages", (unsigned long long)n);
}
END_TEST

START_TEST(bulk_seeks_ranges_and_reverse_top)
{
    char p[512];
    jet_db *db;
    jet_error err;
    const jet_tdef *t;
    jet_index_cursor *c;
    jet_scan *s;
    jet_value k, hi, v;
    uint32_t pg, x = 12345;
    uint16_t row;
    int64_t expect;
    jet_rc rc;

    snprintf(p, sizeof p, "%s/fixtures/bulk/bulk.accdb", jet_shared_dir());
    if (access(p, R_OK) != 0)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "bulk")),
                     JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, 0), JET_OK);
    for (int i = 0; i < 300; i++) {           /* point seeks */
        x = x * 1103515245u + 12345u;
        k = ival(JET_T_LONG, 1 + (x >> 8) % 200000);
        ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
        ck_assert_int_eq(jet_index_set_upper(c, &k, 1, true), JET_OK);
        ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
        ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
        ck_assert_int_eq(jet_scan_value(s, 0, &v), JET_OK);
        ck_assert_int_eq(v.u.i, k.u.i);
        ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_DONE);
    }
    /* 1000 <= id < 2000 in order, then backwards */
    k = ival(JET_T_LONG, 1000);
    hi = ival(JET_T_LONG, 2000);
    for (int rev = 0; rev <= 1; rev++) {
        ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
        ck_assert_int_eq(jet_index_set_upper(c, &hi, 1, false), JET_OK);
        ck_assert_int_eq(jet_index_set_reverse(c, rev), JET_OK);
        expect = rev ? 1999 : 1000;
        while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
            ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
            ck_assert_int_eq(jet_scan_value(s, 0, &v), JET_OK);
            ck_assert_int_eq(v.u.i, expect);
            expect += rev ? -1 : 1;
        }
        ck_assert_int_eq(rc, JET_DONE);
        ck_assert_int_eq(expect, rev ? 999 : 2000);
    }
    /* ORDER BY id DESC TOP 1; a key past the INT range is refused */
    ck_assert_int_eq(jet_index_seek(c, NULL, 0, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, NULL, 0, true), JET_OK);
    ck_assert_int_eq(jet_index_set_reverse(c, true), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
    ck_assert_int_eq(jet_scan_value(s, 0, &v), JET_OK);
    ck_assert_int_eq(v.u.i, 200000);
    k = dval(JET_T_DOUBLE, 0.5);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_ELIMIT);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_DONE);
    jet_index_cursor_close(c);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

/* jet_index_leaf_int_entries callback: the entry's row holds its key
 * in column col. */
typedef struct leaf_rows {
    jet_scan *s;
    uint16_t col;
    size_t n;
    bool bad;
} leaf_rows;

static int check_leaf_row(void *ctx, int64_t key, uint32_t pgno,
                          uint16_t row)
{
    leaf_rows *l = ctx;
    jet_value v;
    if (jet_scan_fetch_row(l->s, pgno, row) != JET_OK ||
        jet_scan_value(l->s, l->col, &v) != JET_OK || v.is_null ||
        v.u.i != key)
        l->bad = true;
    l->n++;
    return 0;
}

START_TEST(orders_customer_index_seek_matches_scan)
{
    char p[512];
    jet_db *db;
    jet_error err;
    const jet_tdef *t;
    jet_index_cursor *c;
    jet_scan *s;
    jet_value k = ival(JET_T_LONG, 17), v;
    int col, ino = -1;
    size_t expect = 0, got = 0;
    uint32_t pg;
    uint16_t row;
    jet_rc rc;

    snprintf(p, sizeof p, "%s/fixtures/bulk/perf.accdb", jet_shared_dir());
    if (access(p, R_OK) != 0)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "orders")),
                     JET_OK);
    col = jet_tdef_find_column(t, "customer_id");
    for (uint16_t i = 0; i < t->nindexes; i++)
        if (strcmp(t->indexes[i].name, "idx_orders_customer_id") == 0)
            ino = i;
    ck_assert_int_ge(col, 0);
    ck_assert_int_ge(ino, 0);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        ck_assert_int_eq(jet_scan_value(s, (uint16_t)col, &v), JET_OK);
        expect += !v.is_null && v.u.i == 17;
    }
    ck_assert_int_eq(rc, JET_DONE);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, (uint16_t)ino), JET_OK);
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &k, 1, true), JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
        ck_assert_int_eq(jet_scan_value(s, (uint16_t)col, &v), JET_OK);
        ck_assert_int_eq(v.u.i, 17);
        got++;
    }
    ck_assert_int_eq(rc, JET_DONE);
    ck_assert_uint_gt(expect, 0);
    ck_assert_uint_eq(got, expect);
    /* every entry of the leaf holding key 17 names a row with its key */
    ck_assert_int_eq(jet_index_seek(c, &k, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    leaf_rows lr = { s, (uint16_t)col, 0, false };
    ck_assert_int_eq(jet_index_leaf_int_entries(c, check_leaf_row, &lr),
                     JET_OK);
    ck_assert_msg(lr.n >= 2 && !lr.bad, "%zu entries on the leaf",
                  lr.n);
    jet_index_cursor_close(c);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

static Suite *index_suite(void)
{
    Suite *s = suite_create("index");
    TCase *tc = tcase_create("encode");
    tcase_add_test(tc, encode_long_flips_sign_bit_big_endian);
    tcase_add_test(tc, encode_null_is_one_flag_byte);
    tcase_add_test(tc, encode_byte_is_unsigned_and_desc_inverts);
    tcase_add_test(tc, encode_bool_true_sorts_first);
    tcase_add_test(tc, encode_double_negative_inverts_all_bytes);
    tcase_add_test(tc, encode_orders_numbers_like_values);
    tcase_add_test(tc, encode_numeric_ace_orders_both_ways_legacy_sign_byte);
    tcase_add_test(tc, encode_guid_in_segments_canonical_order);
    tcase_add_test(tc, encode_rejects_text_and_out_of_range);
    suite_add_tcase(s, tc);
    tc = tcase_create("tree");
    tcase_add_test(tc, tree_walk_follows_leaf_chain_with_prefixes);
    tcase_add_test(tc, tree_seek_descends_to_child_and_tail);
    tcase_add_test(tc, tree_leaf_int_entries_of_the_current_leaf);
    tcase_add_test(tc, tree_leaf_chain_cycle_is_corrupt);
    tcase_add_test(tc, tree_bad_mask_and_node_cycle_are_corrupt);
    tcase_add_test(tc, tree_damaged_entries_are_corrupt_not_missing_rows);
    suite_add_tcase(s, tc);
    tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fixtures_walks_and_seeks_match_scans);
    tcase_add_test(tc, bulk_primary_key_seek_reads_log_n_pages);
    tcase_add_test(tc, orders_customer_index_seek_matches_scan);
    tcase_add_test(tc, bulk_seeks_ranges_and_reverse_top);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(index_suite)
