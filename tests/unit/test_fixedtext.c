/*
 * test_fixedtext.c - fixed-length Text columns (CHAR(n) of Access's
 * DDL, the users.c_flag_ field of Jackcess's fixedTextTest files) on the
 * write path: Access stores such a value in the row's fixed area as
 * UTF-16LE padded with spaces to the field's size, never compressed, and
 * reads it back padded (Jackcess ColumnImpl.writeFixedLengthField).
 *
 * In a table made in a copy of a Jet4 and of an ACE fixture, with an
 * index on the fixed column, 600 rows are inserted, a third updated and a
 * tenth deleted, with values of every length up to the size (accents,
 * empty text, NULL); each value reads back padded, a value longer than
 * the field is refused (JET_ETOOLONG) leaving nothing, every index seek
 * of a value finds the rows a scan finds, jet_db_check and `jetcheck
 * verify` report nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ddl.h"
#include "internal.h"
#include "write.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

#define SIZE 8          /* the fixed column's characters */
#define ROWS 600

/* Row k's code: NULL every 13th row, else k % (SIZE + 1) characters
 * (0: the empty text), some accented; written into u, *n units. */
static bool code_of(unsigned k, uint16_t *u, size_t *n)
{
    if (k % 13 == 5)
        return false;
    *n = k % (SIZE + 1);
    for (size_t i = 0; i < *n; i++)
        u[i] = (uint16_t)(i == 1 && k % 3 == 0 ? 0xE9      /* é */
                          : 'a' + (k / 7 + i * 5) % 26);
    return true;
}

static void set_text(jet_value *v, uint8_t *buf, const uint16_t *u, size_t n)
{
    memset(v, 0, sizeof *v);
    v->type = JET_T_TEXT;
    v->enc = JET_ENC_UCS2;
    for (size_t i = 0; i < n; i++) {
        buf[2 * i] = (uint8_t)u[i];
        buf[2 * i + 1] = (uint8_t)(u[i] >> 8);
    }
    v->data = buf;
    v->len = 2 * n;
}

static void make_row(unsigned k, unsigned version, jet_value *v,
                     uint8_t *cbuf, uint8_t *nbuf)
{
    uint16_t u[SIZE + 1];
    size_t n = 0;
    memset(v, 0, 3 * sizeof *v);
    v[0].type = JET_T_LONG;
    v[0].u.i = k;
    if (code_of(k + version * 5, u, &n))
        set_text(&v[1], cbuf, u, n);
    else {
        v[1].type = JET_T_TEXT;
        v[1].is_null = true;
    }
    {
        char label[32];
        uint16_t w[32];
        int len = snprintf(label, sizeof label, "row %u.%u", k, version);
        for (int i = 0; i < len; i++)
            w[i] = (uint8_t)label[i];
        set_text(&v[2], nbuf, w, (size_t)len);
    }
}

/* The code row k holds after version (padded), compared with what a
 * scan read. */
static void check_code(jet_db *db, unsigned k, unsigned version,
                       const jet_value *got)
{
    uint16_t want[SIZE + 1], have[64];
    size_t n = 0, m = 0;
    if (!code_of(k + version * 5, want, &n)) {
        ck_assert_msg(got->is_null, "row %u: code not NULL", k);
        return;
    }
    ck_assert_msg(!got->is_null, "row %u: code NULL", k);
    ck_assert_int_eq(jet_text_to_utf16(db, got, have, 64, &m), JET_OK);
    ck_assert_msg(m == SIZE, "row %u: %zu characters, not %d", k, m, SIZE);
    for (size_t i = 0; i < SIZE; i++)
        ck_assert_msg(have[i] == (i < n ? want[i] : 0x20), "row %u: "
                      "character %zu is %04x", k, i, have[i]);
}

/* Every row of the scan against the model (version[k], or deleted), and
 * each code's rows through the index on it equal to the scan's. */
static unsigned base_problems;     /* the fixture's own (testV2003: one) */

static void check_table(jet_db *db, const jet_tdef *t, const unsigned *ver,
                        const bool *gone)
{
    jet_scan *s;
    jet_rc rc;
    unsigned n = 0, want = 0;
    for (unsigned k = 0; k < ROWS; k++)
        want += !gone[k];
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value id, code;
        ck_assert_int_eq(jet_scan_value(s, 0, &id), JET_OK);
        ck_assert(id.u.i >= 0 && id.u.i < ROWS && !gone[id.u.i]);
        ck_assert_int_eq(jet_scan_value(s, 1, &code), JET_OK);
        check_code(db, (unsigned)id.u.i, ver[id.u.i], &code);
        n++;
    }
    ck_assert_int_eq(rc, JET_DONE);
    jet_scan_close(s);
    ck_assert_uint_eq(n, want);
    {
        jet_check_stats cs;
        ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL, &cs), JET_OK);
        ck_assert_msg(cs.problems == base_problems, "jet_db_check: %u "
                      "problems (the fixture had %u)", cs.problems,
                      base_problems);
    }
}

static void fixed_text(const char *rel, const char *tag)
{
    const char *src = jet_test_fixture(rel);
    char path[1024];
    jet_db *db;
    jet_error err;
    const jet_tdef *t;
    jet_value v[3];
    uint8_t cbuf[2 * (SIZE + 2)], nbuf[128];
    unsigned ver[ROWS];
    bool gone[ROWS];
    jet_rowid ids[ROWS];

    if (!src) {
        fprintf(stderr, "test_fixedtext: %s absent: skipped (set "
                "JETODBC_SHARED)\n", rel);
        return;
    }
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    {
        jet_check_stats cs;
        ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL, &cs), JET_OK);
        base_problems = cs.problems;
    }
    {
        jet_coldef cols[3];
        jet_idxdef idx[2];
        memset(cols, 0, sizeof cols);
        memset(idx, 0, sizeof idx);
        cols[0].name = "id";
        cols[0].type = JET_T_LONG;
        cols[1].name = "code";
        cols[1].type = JET_T_TEXT;
        cols[1].size = SIZE;
        cols[1].fixed = true;
        cols[2].name = "label";
        cols[2].type = JET_T_TEXT;
        cols[2].size = 40;
        cols[2].compressed = true;
        idx[0].ncols = 1;
        idx[0].col[0] = 0;
        idx[0].primary = true;
        idx[1].name = "code";
        idx[1].ncols = 1;
        idx[1].col[0] = 1;
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        ck_assert_msg(jet_db_create_table(db, "FixedT", cols, 3, idx, 2,
                                          NULL, 0) == JET_OK, "create: %s",
                      jet_db_error(db)->msg);
        ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    }
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "FixedT")),
                     JET_OK);
    ck_assert(t->cols[1].flags & JET_COL_FIXED);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < ROWS; k++) {
        make_row(k, 0, v, cbuf, nbuf);
        ck_assert_msg(jet_table_insert(db, t, v, &ids[k]) == JET_OK,
                      "insert %u: %s", k, jet_db_error(db)->msg);
        ver[k] = 0;
        gone[k] = false;
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_table(db, t, ver, gone);

    /* a value longer than the field: refused, nothing of the row */
    {
        uint16_t u[SIZE + 1];
        for (size_t i = 0; i <= SIZE; i++)
            u[i] = 'z';
        make_row(ROWS, 0, v, cbuf, nbuf);
        set_text(&v[1], cbuf, u, SIZE + 1);
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        ck_assert_int_eq(jet_table_insert(db, t, v, NULL), JET_ETOOLONG);
        ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    }

    /* updates (a third) and deletes (a tenth) */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < ROWS; k += 3) {
        make_row(k, 1, v, cbuf, nbuf);
        ck_assert_msg(jet_table_update(db, t, ids[k], v) == JET_OK,
                      "update %u: %s", k, jet_db_error(db)->msg);
        ver[k] = 1;
    }
    for (unsigned k = 1; k < ROWS; k += 10) {
        ck_assert_msg(jet_table_delete(db, t, ids[k]) == JET_OK,
                      "delete %u: %s", k, jet_db_error(db)->msg);
        gone[k] = true;
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_table(db, t, ver, gone);
    jet_db_close(db);

    /* a new connection reads the same */
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "FixedT")),
                     JET_OK);
    check_table(db, t, ver, gone);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}

START_TEST(fixed_text_jet4)
{
    fixed_text("jackcess/V2003/testV2003.mdb", "fixed4");
}
END_TEST

START_TEST(fixed_text_ace14)
{
    fixed_text("jackcess/V2010/testV2010.accdb", "fixed14");
}
END_TEST

static Suite *fixedtext_suite(void)
{
    Suite *s = suite_create("fixedtext");
    TCase *tc = tcase_create("write");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, fixed_text_jet4);
    tcase_add_test(tc, fixed_text_ace14);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(fixedtext_suite)
