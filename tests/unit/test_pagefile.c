/*
 * test_pagefile.c - page cache: hits, eviction, pin limit, bounds, slot
 * pools, reuse of pages unpinned "once".
 */
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"

#define PS 2048
#define NPAGES 20
static uint8_t pages[NPAGES * PS];
static char path[64];

static jet_pagefile *open_file(size_t cache)
{
    jet_pagefile *pf;
    for (int i = 0; i < NPAGES; i++)
        memset(pages + i * PS, i, PS);
    ck_assert_int_eq(pb_write_file(path, sizeof path, pages, NPAGES, PS), 0);
    ck_assert_int_eq(jet_pagefile_open(&pf, path, cache, NULL), JET_OK);
    ck_assert_int_eq(jet_pagefile_set_page_size(pf, PS, NULL), JET_OK);
    return pf;
}

START_TEST(pagefile_hit_does_not_read_again)
{
    jet_pagefile *pf = open_file(8);
    const uint8_t *a, *b;
    ck_assert_uint_eq(jet_pagefile_page_count(pf), NPAGES);
    ck_assert_int_eq(jet_page_pin(pf, 5, &a, NULL), JET_OK);
    ck_assert_uint_eq(a[0], 5);
    ck_assert_uint_eq(a[PS - 1], 5);
    jet_page_unpin(pf, a);
    ck_assert_int_eq(jet_page_pin(pf, 5, &b, NULL), JET_OK);
    ck_assert_ptr_eq(a, b);
    ck_assert_uint_eq(jet_pagefile_pages_read(pf), 1);
    jet_page_unpin(pf, b);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

START_TEST(pagefile_evicts_unpinned_pages_when_full)
{
    jet_pagefile *pf = open_file(8);
    const uint8_t *p;
    for (uint32_t round = 0; round < 3; round++)
        for (uint32_t i = 0; i < NPAGES; i++) {
            ck_assert_int_eq(jet_page_pin(pf, i, &p, NULL), JET_OK);
            ck_assert_uint_eq(p[7], i);
            jet_page_unpin(pf, p);
        }
    ck_assert_uint_ge(jet_pagefile_pages_read(pf), NPAGES);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

START_TEST(pagefile_all_slots_pinned_is_limit)
{
    jet_pagefile *pf = open_file(8);
    const uint8_t *p[9];
    jet_error err;
    for (uint32_t i = 0; i < 8; i++)
        ck_assert_int_eq(jet_page_pin(pf, i, &p[i], NULL), JET_OK);
    ck_assert_int_eq(jet_page_pin(pf, 8, &p[8], &err), JET_ELIMIT);
    jet_page_unpin(pf, p[3]);
    ck_assert_int_eq(jet_page_pin(pf, 8, &p[8], NULL), JET_OK);
    ck_assert_uint_eq(p[8][0], 8);
    /* the still-pinned pages kept their bytes */
    ck_assert_uint_eq(p[0][0], 0);
    ck_assert_uint_eq(p[7][0], 7);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

START_TEST(pagefile_page_past_end_is_corrupt)
{
    jet_pagefile *pf = open_file(8);
    const uint8_t *p;
    jet_error err;
    ck_assert_int_eq(jet_page_pin(pf, NPAGES, &p, &err), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, NPAGES);
    ck_assert_ptr_null(p);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

START_TEST(pagefile_slots_from_pools_do_not_overlap)
{
    /* 20 pages pinned together take slots from two pools (16, then 16) */
    jet_pagefile *pf = open_file(40);
    const uint8_t *p[NPAGES];
    for (uint32_t i = 0; i < NPAGES; i++)
        ck_assert_int_eq(jet_page_pin(pf, i, &p[i], NULL), JET_OK);
    for (uint32_t i = 0; i < NPAGES; i++) {
        ck_assert_uint_eq(p[i][0], i);
        ck_assert_uint_eq(p[i][PS - 1], i);
        jet_page_unpin(pf, p[i]);
    }
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

/* A cache of 8 slots in which page pgno was pinned (*a), unpinned "once"
 * and pinned again (*b): the preamble of the unpin_once tests. */
static jet_pagefile *open_pinned_again(uint32_t pgno, const uint8_t **a,
                                       const uint8_t **b)
{
    jet_pagefile *pf = open_file(8);
    ck_assert_int_eq(jet_page_pin(pf, pgno, a, NULL), JET_OK);
    jet_page_unpin_once(pf, *a);
    ck_assert_int_eq(jet_page_pin(pf, pgno, b, NULL), JET_OK);
    return pf;
}

START_TEST(pagefile_unpin_once_slot_is_reused_first)
{
    const uint8_t *a, *b, *c;
    jet_pagefile *pf = open_pinned_again(2, &a, &b);
    /* still cached until its slot is taken */
    ck_assert_ptr_eq(a, b);
    ck_assert_uint_eq(jet_pagefile_pages_read(pf), 1);
    jet_page_unpin_once(pf, b);
    /* the next page read takes that slot, not an unused one */
    ck_assert_int_eq(jet_page_pin(pf, 9, &c, NULL), JET_OK);
    ck_assert_ptr_eq(c, a);
    ck_assert_uint_eq(c[0], 9);
    jet_page_unpin(pf, c);
    /* page 2 is gone: reading it again is a read */
    ck_assert_int_eq(jet_page_pin(pf, 2, &b, NULL), JET_OK);
    ck_assert_uint_eq(b[5], 2);
    ck_assert_uint_eq(jet_pagefile_pages_read(pf), 3);
    jet_page_unpin(pf, b);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

START_TEST(pagefile_unpin_once_pinned_again_is_not_taken)
{
    const uint8_t *a, *b, *c;
    jet_pagefile *pf = open_pinned_again(3, &a, &b);  /* b: a hit */
    ck_assert_int_eq(jet_page_pin(pf, 4, &c, NULL), JET_OK);
    ck_assert_ptr_ne(c, b);
    ck_assert_uint_eq(b[0], 3);
    ck_assert_uint_eq(c[0], 4);
    jet_page_unpin(pf, b);
    jet_page_unpin(pf, c);
    /* a referenced page left on the list is skipped, not reused */
    ck_assert_int_eq(jet_page_pin(pf, 5, &c, NULL), JET_OK);
    ck_assert_ptr_ne(c, b);
    jet_page_unpin(pf, c);
    jet_page_unpin_once(pf, NULL);
    jet_pagefile_close(pf);
    unlink(path);
}
END_TEST

static Suite *pagefile_suite(void)
{
    Suite *s = suite_create("pagefile");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, pagefile_hit_does_not_read_again);
    tcase_add_test(tc, pagefile_evicts_unpinned_pages_when_full);
    tcase_add_test(tc, pagefile_all_slots_pinned_is_limit);
    tcase_add_test(tc, pagefile_page_past_end_is_corrupt);
    tcase_add_test(tc, pagefile_slots_from_pools_do_not_overlap);
    tcase_add_test(tc, pagefile_unpin_once_slot_is_reused_first);
    tcase_add_test(tc, pagefile_unpin_once_pinned_again_is_not_taken);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(pagefile_suite)
