/*
 * test_readahead.c - sequential read-ahead, read statistics and interrupt
 * checks of scans and index cursors.
 *
 * The first half builds small page files (pagebuild.c) and drives
 * jet_pagefile_read_ahead() directly: one request per run, pages decoded
 * by the codec exactly as jet_page_pin() decodes them, small gaps read
 * through without caching, the cache bound kept. The second half reads
 * ../shared/fixtures/bulk/bulk.accdb (200,000 rows; skipped, exit 77 when
 * only those are missing): a full scan issues large requests, a primary
 * key seek reads a handful of single pages, interrupts stop both.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"
#include "../shared_dir.h"

#define BULK bulk_path()
#define BULK_ROWS 200000

#define PS 4096
#define NPAGES 96
static uint8_t pages[NPAGES * PS];
static char path[64];

/* A file of NPAGES pages; byte j of page i is (i * 7 + j) & 0xFF. */
static jet_pagefile *open_file(size_t cache)
{
    jet_pagefile *pf;
    for (int i = 0; i < NPAGES; i++)
        for (int j = 0; j < PS; j++)
            pages[i * PS + j] = (uint8_t)(i * 7 + j);
    ck_assert_int_eq(pb_write_file(path, sizeof path, pages, NPAGES, PS), 0);
    ck_assert_int_eq(jet_pagefile_open(&pf, path, cache, NULL), JET_OK);
    ck_assert_int_eq(jet_pagefile_set_page_size(pf, PS, NULL), JET_OK);
    return pf;
}

static void close_file(jet_pagefile *pf)
{
    jet_pagefile_close(pf);
    unlink(path);
}

/* Pin pgno and compare it with the file's bytes. */
static void expect_page(jet_pagefile *pf, uint32_t pgno)
{
    const uint8_t *p;
    ck_assert_int_eq(jet_page_pin(pf, pgno, &p, NULL), JET_OK);
    ck_assert_int_eq(memcmp(p, pages + (size_t)pgno * PS, PS), 0);
    jet_page_unpin(pf, p);
}

START_TEST(readahead_run_is_one_request_and_later_pins_hit)
{
    jet_pagefile *pf = open_file(256);
    uint32_t list[40];
    jet_read_stats st;
    for (uint32_t i = 0; i < 40; i++)
        list[i] = 10 + i;
    jet_pagefile_read_ahead(pf, list, 40, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    ck_assert_uint_eq(st.pages, 40);
    ck_assert_uint_eq(st.bytes, 40 * PS);
    for (uint32_t i = 0; i < 40; i++)
        expect_page(pf, list[i]);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);   /* every pin was a hit */
    /* a cached head: nothing more is read */
    jet_pagefile_read_ahead(pf, list, 40, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    close_file(pf);
}
END_TEST

START_TEST(readahead_takes_at_most_a_quarter_of_the_cache)
{
    jet_pagefile *pf = open_file(32);    /* runs of 8 pages at most */
    uint32_t list[NPAGES];
    jet_read_stats st;
    for (uint32_t i = 0; i < NPAGES; i++)
        list[i] = i;
    jet_pagefile_read_ahead(pf, list, NPAGES, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.pages, 8);
    ck_assert_uint_eq(st.bytes, 8 * PS);
    /* 256 KB per request at most with a large cache */
    jet_pagefile_close(pf);
    ck_assert_int_eq(jet_pagefile_open(&pf, path, 4096, NULL), JET_OK);
    ck_assert_int_eq(jet_pagefile_set_page_size(pf, PS, NULL), JET_OK);
    jet_pagefile_read_ahead(pf, list, NPAGES, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    ck_assert_uint_eq(st.bytes, 256 * 1024);
    close_file(pf);
}
END_TEST

START_TEST(readahead_bridges_small_gaps_without_caching_them)
{
    jet_pagefile *pf = open_file(256);
    /* 20..24, gap of 3 (25..27), 28..31, gap of 20, 52..53 */
    uint32_t list[] = { 20, 21, 22, 23, 24, 28, 29, 30, 31, 52, 53 };
    jet_read_stats st;
    const uint8_t *p;
    jet_pagefile_read_ahead(pf, list, 11, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    ck_assert_uint_eq(st.bytes, 12 * PS);    /* pages 20..31 */
    ck_assert_uint_eq(st.pages, 9);          /* only the listed ones */
    for (int i = 0; i < 9; i++)
        expect_page(pf, list[i]);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    /* the gap pages were not cached: pinning one reads it */
    ck_assert_int_eq(jet_page_pin(pf, 26, &p, NULL), JET_OK);
    ck_assert_int_eq(memcmp(p, pages + 26 * PS, PS), 0);
    jet_page_unpin(pf, p);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 2);
    ck_assert_uint_eq(st.bytes, 13 * PS);
    close_file(pf);
}
END_TEST

START_TEST(readahead_stops_before_a_cached_page_and_at_file_end)
{
    jet_pagefile *pf = open_file(256);
    uint32_t list[] = { 40, 41, 42, 43, 44, 45 };
    uint32_t tail[] = { NPAGES - 2, NPAGES - 1, NPAGES, NPAGES + 1 };
    jet_read_stats st;
    expect_page(pf, 43);                    /* 1 request */
    jet_pagefile_read_ahead(pf, list, 6, 0);   /* reads 40..42 only */
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 2);
    ck_assert_uint_eq(st.pages, 4);
    for (int i = 0; i < 4; i++)
        expect_page(pf, list[i]);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 2);
    /* pages past the end are left to jet_page_pin() to report */
    jet_pagefile_read_ahead(pf, tail, 4, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 3);
    ck_assert_uint_eq(st.pages, 6);
    expect_page(pf, NPAGES - 1);
    close_file(pf);
}
END_TEST

START_TEST(readahead_max_pages_limits_the_span)
{
    jet_pagefile *pf = open_file(256);
    uint32_t list[] = { 10, 11, 13, 14, 15, 16, 17 };
    jet_read_stats st;
    /* span 10..14 = 5 pages: 10, 11, 13, 14 cached, 12 read through */
    ck_assert_uint_eq(jet_pagefile_read_ahead(pf, list, 7, 5), 4);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.requests, 1);
    ck_assert_uint_eq(st.bytes, 5 * PS);
    ck_assert_uint_eq(jet_pagefile_read_ahead(pf, list + 4, 3, 5), 3);
    ck_assert_uint_eq(jet_pagefile_read_ahead(pf, list + 4, 3, 5), 0);
    close_file(pf);
}
END_TEST

START_TEST(readahead_decodes_each_page_like_pin)
{
    jet_pagefile *a = open_file(256), *b;
    jet_codec *ca, *cb;
    uint32_t list[30];
    const uint8_t *pa, *pb;
    ck_assert_int_eq(jet_pagefile_open(&b, path, 256, NULL), JET_OK);
    ck_assert_int_eq(jet_pagefile_set_page_size(b, PS, NULL), JET_OK);
    ck_assert_int_eq(jet_codec_jet_rc4(&ca, 0x6b39dac7u), JET_OK);
    ck_assert_int_eq(jet_codec_jet_rc4(&cb, 0x6b39dac7u), JET_OK);
    jet_pagefile_set_codec(a, ca);
    jet_pagefile_set_codec(b, cb);
    for (uint32_t i = 0; i < 30; i++)
        list[i] = i;    /* page 0 included: never codec-decoded */
    jet_pagefile_read_ahead(a, list, 30, 0);
    for (uint32_t i = 0; i < 30; i++) {
        ck_assert_int_eq(jet_page_pin(a, i, &pa, NULL), JET_OK);
        ck_assert_int_eq(jet_page_pin(b, i, &pb, NULL), JET_OK);
        ck_assert_int_eq(memcmp(pa, pb, PS), 0);
        if (i == 0)
            ck_assert_int_eq(memcmp(pa, pages, PS), 0);
        else
            ck_assert_int_ne(memcmp(pa, pages + (size_t)i * PS, PS), 0);
        jet_page_unpin(a, pa);
        jet_page_unpin(b, pb);
    }
    ck_assert_uint_eq(jet_pagefile_pages_read(a), 30);
    jet_pagefile_close(b);
    close_file(a);
}
END_TEST

START_TEST(readahead_never_touches_pinned_slots)
{
    jet_pagefile *pf = open_file(8);     /* runs of 2 pages at most */
    const uint8_t *p[6];
    uint32_t list[] = { 60, 61, 62, 63 };
    jet_read_stats st;
    for (uint32_t i = 0; i < 6; i++)
        ck_assert_int_eq(jet_page_pin(pf, i, &p[i], NULL), JET_OK);
    jet_pagefile_read_ahead(pf, list, 4, 0);
    jet_pagefile_read_stats(pf, &st);
    ck_assert_uint_eq(st.pages, 8);
    for (uint32_t i = 0; i < 6; i++) {
        ck_assert_int_eq(memcmp(p[i], pages + (size_t)i * PS, PS), 0);
        jet_page_unpin(pf, p[i]);
    }
    expect_page(pf, 60);
    expect_page(pf, 61);
    close_file(pf);
}
END_TEST

/* ------------------------------------------------------- bulk.accdb */

/* <shared>/fixtures/bulk/bulk.accdb (static buffer). */
static const char *bulk_path(void)
{
    static char p[1024];
    snprintf(p, sizeof p, "%s/fixtures/bulk/bulk.accdb", jet_shared_dir());
    return p;
}

static jet_db *open_bulk(size_t cache, const jet_tdef **t)
{
    jet_open_options o = { .cache_pages = cache };
    jet_db *db;
    jet_error err;
    const jet_object *obj;
    ck_assert_msg(jet_db_open(&db, BULK, &o, &err) == JET_OK, "%s", err.msg);
    obj = jet_catalog_find(db, "bulk");
    ck_assert_ptr_nonnull(obj);
    ck_assert_int_eq(jet_tdef_load(t, db, obj), JET_OK);
    return db;
}

/* Rows of a full scan of bulk, each column decoded; checks ids 1..N. */
static long scan_all(jet_db *db, const jet_tdef *t, jet_scan *s)
{
    long rows = 0;
    jet_rc rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        rows++;
        ck_assert_int_eq(jet_scan_value(s, 0, &v), JET_OK);
        ck_assert_int_eq(v.u.i, rows);
        for (uint16_t c = 1; c < t->ncols; c++)
            ck_assert_int_eq(jet_scan_value(s, c, &v), JET_OK);
    }
    ck_assert_int_eq(rc, JET_DONE);
    (void)db;
    return rows;
}

START_TEST(bulk_full_scan_reads_in_large_requests)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(0, &t);
    jet_read_stats a, b;
    jet_scan *s;
    jet_db_read_stats(db, &a);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(scan_all(db, t, s), BULK_ROWS);
    jet_db_read_stats(db, &b);
    ck_assert_uint_ge(b.pages - a.pages, 2000);  /* ~2,270 data pages */
    ck_assert_uint_gt(b.requests, a.requests);
    ck_assert_msg((b.bytes - a.bytes) / (b.requests - a.requests) >=
                      64 * 1024,
                  "mean read request %llu bytes over %llu requests",
                  (unsigned long long)((b.bytes - a.bytes) /
                                       (b.requests - a.requests)),
                  (unsigned long long)(b.requests - a.requests));
    ck_assert_uint_eq(jet_db_pages_read(db), b.pages);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

START_TEST(bulk_scan_stopping_at_the_first_row_reads_a_small_window)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(0, &t);
    jet_read_stats a, b;
    jet_scan *s;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    jet_db_read_stats(db, &a);
    ck_assert_int_eq(jet_scan_next(s), JET_OK);
    jet_db_read_stats(db, &b);
    ck_assert_uint_ge(b.pages - a.pages, 1);
    ck_assert_uint_le(b.pages - a.pages, 8);    /* the first window */
    ck_assert_uint_le(b.requests - a.requests, 1);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

START_TEST(bulk_full_scan_with_tiny_cache_returns_every_row)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(8, &t);
    jet_scan *s;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(scan_all(db, t, s), BULK_ROWS);
    jet_scan_rewind(s);
    ck_assert_int_eq(scan_all(db, t, s), BULK_ROWS);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

/* Index number of bulk's primary key. */
static uint16_t pk_index(const jet_tdef *t)
{
    for (uint16_t i = 0; i < t->nindexes; i++)
        if (t->indexes[i].primary_key)
            return i;
    ck_abort_msg("bulk has no primary key");
    return 0;
}

START_TEST(bulk_pk_seek_reads_a_few_single_pages)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(0, &t);
    jet_index_cursor *c;
    jet_scan *s;
    jet_read_stats a, b;
    jet_value key, v;
    uint32_t pgno;
    uint16_t row;
    memset(&key, 0, sizeof key);
    key.type = JET_T_LONG;
    key.u.i = 123457;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, pk_index(t)), JET_OK);
    jet_db_read_stats(db, &a);
    ck_assert_int_eq(jet_index_seek(c, &key, 1, JET_SEEK_GE), JET_OK);
    ck_assert_int_eq(jet_index_set_upper(c, &key, 1, true), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pgno, &row), JET_OK);
    ck_assert_int_eq(jet_scan_fetch_row(s, pgno, row), JET_OK);
    ck_assert_int_eq(jet_scan_value(s, 0, &v), JET_OK);
    ck_assert_int_eq(v.u.i, 123457);
    ck_assert_int_eq(jet_index_next(c, &pgno, &row), JET_DONE);
    jet_db_read_stats(db, &b);
    ck_assert_uint_le(b.pages - a.pages, 8);
    ck_assert_uint_eq(b.requests - a.requests, b.pages - a.pages);
    ck_assert_uint_eq(b.bytes - a.bytes, (b.pages - a.pages) * 4096);
    jet_index_cursor_close(c);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

/* Interrupt check that says stop on its limit-th call. */
typedef struct stopper {
    unsigned calls, limit;
} stopper;

static int stop_after(void *ctx)
{
    stopper *st = ctx;
    return ++st->calls >= st->limit;
}

START_TEST(bulk_scan_interrupt_stops_at_a_page_boundary)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(0, &t);
    stopper st = { 0, 11 };
    jet_scan *s;
    long rows = 0;
    jet_rc rc;
    uint64_t before = jet_db_pages_read(db);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    jet_scan_set_interrupt(s, stop_after, &st);
    while ((rc = jet_scan_next(s)) == JET_OK)
        rows++;
    ck_assert_int_eq(rc, JET_EINTERRUPTED);
    ck_assert_int_eq(jet_scan_error(s)->rc, JET_EINTERRUPTED);
    ck_assert_uint_eq(st.calls, 11);
    ck_assert_int_gt(rows, 0);
    ck_assert_int_lt(rows, 11 * 100);       /* ten pages of ~88 rows */
    /* read-ahead went no further than its windows (8 + 16 pages) */
    ck_assert_uint_le(jet_db_pages_read(db) - before, 10 + 64 + 8);
    /* the scan stays usable: without the check it reads every row */
    jet_scan_set_interrupt(s, NULL, NULL);
    jet_scan_rewind(s);
    ck_assert_int_eq(scan_all(db, t, s), BULK_ROWS);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

START_TEST(bulk_index_interrupt_stops_the_walk)
{
    const jet_tdef *t;
    jet_db *db = open_bulk(0, &t);
    stopper st = { 0, 5 };
    jet_index_cursor *c;
    uint32_t pgno;
    uint16_t row;
    long n = 0;
    jet_rc rc;
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, pk_index(t)), JET_OK);
    jet_index_set_interrupt(c, stop_after, &st);
    while ((rc = jet_index_next(c, &pgno, &row)) == JET_OK)
        n++;
    ck_assert_int_eq(rc, JET_EINTERRUPTED);
    ck_assert_int_eq(jet_index_error(c)->rc, JET_EINTERRUPTED);
    ck_assert_int_gt(n, 0);
    ck_assert_int_lt(n, BULK_ROWS);
    /* a new seek restarts the walk; without the check it ends normally */
    jet_index_set_interrupt(c, NULL, NULL);
    ck_assert_int_eq(jet_index_seek(c, NULL, 0, JET_SEEK_GE), JET_OK);
    n = 0;
    while ((rc = jet_index_next(c, &pgno, &row)) == JET_OK)
        n++;
    ck_assert_int_eq(rc, JET_DONE);
    ck_assert_int_eq(n, BULK_ROWS);
    jet_index_cursor_close(c);
    jet_db_close(db);
}
END_TEST

static bool have_bulk(void)
{
    return access(BULK, R_OK) == 0;
}

static Suite *readahead_suite(void)
{
    Suite *s = suite_create("readahead");
    TCase *tc = tcase_create("pagefile");
    tcase_add_test(tc, readahead_run_is_one_request_and_later_pins_hit);
    tcase_add_test(tc, readahead_takes_at_most_a_quarter_of_the_cache);
    tcase_add_test(tc, readahead_bridges_small_gaps_without_caching_them);
    tcase_add_test(tc, readahead_stops_before_a_cached_page_and_at_file_end);
    tcase_add_test(tc, readahead_max_pages_limits_the_span);
    tcase_add_test(tc, readahead_decodes_each_page_like_pin);
    tcase_add_test(tc, readahead_never_touches_pinned_slots);
    suite_add_tcase(s, tc);
    if (have_bulk()) {
        tc = tcase_create("bulk");
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, bulk_full_scan_reads_in_large_requests);
        tcase_add_test(tc,
                       bulk_scan_stopping_at_the_first_row_reads_a_small_window);
        tcase_add_test(tc, bulk_full_scan_with_tiny_cache_returns_every_row);
        tcase_add_test(tc, bulk_pk_seek_reads_a_few_single_pages);
        tcase_add_test(tc, bulk_scan_interrupt_stops_at_a_page_boundary);
        tcase_add_test(tc, bulk_index_interrupt_stops_the_walk);
        suite_add_tcase(s, tc);
    }
    return s;
}

/* Like UNIT_MAIN, but exit 77 (skipped) when the bulk fixture is absent
 * and everything that could run passed. */
int main(void)
{
    SRunner *sr = srunner_create(readahead_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (!have_bulk()) {
        printf("SKIP: %s absent, its tests did not run\n", bulk_path());
        return 77;
    }
    return EXIT_SUCCESS;
}
