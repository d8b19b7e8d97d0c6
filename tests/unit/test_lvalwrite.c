/*
 * test_lvalwrite.c - long values of the write path (core/lvalwrite.c) on
 * copies of public fixtures: values of 0 to 1,000,000 bytes (binary, and
 * text with accents and CJK) stored inline, in one LVAL row or a chain,
 * read back byte for byte through lval.c's reader before and after commit,
 * freed, with the LVAL pages and the column usage maps checked after each
 * step (every owned page an LVAL page with a consistent row table, free
 * pages a subset of owned ones), the table's own rows unchanged; then whole
 * rows with MEMO/OLE values inserted, updated and deleted through
 * jet_table_insert/update/delete and read back. Every file written ends
 * with jet_db_check and ../shared/tools/jetcheck/jetcheck verify reporting
 * no problem (and mdb-export reading the table, for whole rows).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "encode.h"
#include "internal.h"
#include "write.h"
#include "../shared_dir.h"
#include "unit.h"

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/jet_lvalw_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Copy fixture rel into tmpdir as name; false when the fixture is absent. */
static bool copy_fixture(const char *rel, const char *name, char *path,
                         size_t cap)
{
    char from[1024], buf[65536];
    size_t n;
    FILE *in, *out;
    snprintf(from, sizeof from, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    snprintf(path, cap, "%s/%s", tmpdir, name);
    in = fopen(from, "rb");
    if (!in)
        return false;
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
    return true;
}

static jet_db *open_rw(const char *path)
{
    jet_db *db = NULL;
    jet_error err;
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "%s: %s",
                  path, err.msg);
    return db;
}

static const jet_tdef *table(jet_db *db, const char *name)
{
    const jet_tdef *t = NULL;
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, name)),
                     JET_OK);
    return t;
}

static const jet_column *column(const jet_tdef *t, const char *name)
{
    int i = jet_tdef_find_column(t, name);
    ck_assert_int_ge(i, 0);
    return &t->cols[i];
}

/* ------------------------------------------------------ structure check */

/* Every page of column col's maps is an LVAL page whose row table is
 * sane; free pages are owned ones. Returns the owned page count. */
static size_t check_column_pages(jet_db *db, const jet_tdef *t,
                                 const jet_column *col)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    const jet_format *f = db->fmt;
    jet_pglist owned = { 0 }, fr = { 0 };
    jet_error err;
    size_t count;
    for (uint16_t i = 0; i < tp->nlval_umaps; i++) {
        if (tp->lval_umaps[i].col_num != col->col_num)
            continue;
        ck_assert_int_eq(jet_usagemap_read(&owned, db,
                         tp->lval_umaps[i].owned_ptr, &err), JET_OK);
        ck_assert_int_eq(jet_usagemap_read(&fr, db,
                         tp->lval_umaps[i].free_ptr, &err), JET_OK);
    }
    for (size_t i = 0; i < fr.count; i++) {
        bool found = false;
        for (size_t j = 0; j < owned.count && !found; j++)
            found = owned.pgnos[j] == fr.pgnos[i];
        ck_assert_msg(found, "free page %u is not owned", fr.pgnos[i]);
    }
    for (size_t i = 0; i < owned.count; i++) {
        const uint8_t *pg;
        uint16_t nrows;
        size_t prev = f->page_size;
        ck_assert_int_eq(jet_page_pin(db->pf, owned.pgnos[i], &pg, &err),
                         JET_OK);
        ck_assert_msg(pg[0] == 0x01 && memcmp(pg + 4, "LVAL", 4) == 0,
                      "owned page %u is not an LVAL page", owned.pgnos[i]);
        nrows = jet_get_u16(pg + f->data_nrows);
        ck_assert_uint_le(nrows, JET_MAX_ROWS_PER_PAGE);
        for (uint16_t r = 0; r < nrows; r++) {
            size_t off = jet_get_u16(pg + f->data_row_table + 2 * r) &
                         0x1FFF;
            ck_assert_uint_le(off, prev);
            ck_assert_uint_ge(off, f->data_row_table + 2u * nrows);
            prev = off;
        }
        ck_assert_uint_eq(jet_get_u16(pg + 2),
                          jet_data_page_free_space(f, pg));
        jet_page_unpin(db->pf, pg);
    }
    count = owned.count;
    jet_pglist_free(&owned);
    jet_pglist_free(&fr);
    return count;
}

/* The table's rows as one digest: every column's bytes (long values
 * assembled), to show they stay unchanged. */
static uint64_t table_digest(jet_db *db, const jet_tdef *t)
{
    jet_scan *s;
    uint64_t h = 1469598103934665603u;
    jet_rc rc;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        for (uint16_t c = 0; c < t->ncols; c++) {
            jet_value v;
            ck_assert_int_eq(jet_scan_value(s, c, &v), JET_OK);
            h = (h ^ (uint64_t)v.is_null) * 1099511628211u;
            for (size_t i = 0; v.data && i < v.len; i++)
                h = (h ^ v.data[i]) * 1099511628211u;
        }
    }
    ck_assert_int_eq(rc, JET_DONE);
    jet_scan_close(s);
    return h;
}

static void jetcheck_run(const char *path);

/* The file passes jetcheck verify and the driver's own check
 * (jet_db_check: usage maps, LVAL chains, indexes against rows). */
static void jetcheck_verify(const char *path)
{
    jet_db *db = open_rw(path);
    jet_check_stats st;
    ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL, &st), JET_OK);
    ck_assert_msg(st.problems == 0, "%s: jet_db_check found %u problems",
                  path, st.problems);
    jet_db_close(db);
    jetcheck_run(path);
}

static void jetcheck_run(const char *path)
{
    char tool[1024], cmd[2300];
    snprintf(tool, sizeof tool, "%s/tools/jetcheck/jetcheck",
             jet_shared_dir());
    if (access(tool, X_OK) != 0) {
        fprintf(stderr, "jetcheck not found: skipping its verify\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "'%s' verify '%s' >'%s.verify' 2>&1", tool,
             path, path);
    int st = system(cmd);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 5) {
        fprintf(stderr, "jetcheck cannot run (no java): skipped\n");
        return;
    }
    if (st != 0) {
        snprintf(cmd, sizeof cmd, "cat '%s.verify' >&2", path);
        (void)!system(cmd);
    }
    ck_assert_msg(st == 0, "jetcheck verify %s failed", path);
}

/* ------------------------------------------------------------- values */

static const size_t sizes[] = { 0, 1, 64, 65, 4000, 4076, 4077, 100000,
                                1000000 };
#define NSIZES (sizeof sizes / sizeof *sizes)

static void fill_binary(uint8_t *b, size_t n, unsigned seed)
{
    uint32_t x = 2463534242u + seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = (uint8_t)x;
    }
}

/* UTF-16LE text of n units: ASCII, accents, CJK and Hangul in turns. */
static void fill_text(uint8_t *b, size_t n)
{
    static const uint16_t pick[] = { 'a', 'Z', ' ', 0x00E9, 0x00FC, 0x0153,
                                     0x4E2D, 0x6587, 0xAC00, '7', 0x00C5 };
    for (size_t i = 0; i < n; i++) {
        uint16_t u = pick[(i * 7 + i / 13) % (sizeof pick / sizeof *pick)];
        b[2 * i] = (uint8_t)u;
        b[2 * i + 1] = (uint8_t)(u >> 8);
    }
}

typedef struct stored {
    uint8_t cell[JET_LVAL_CELL_MAX];
    size_t cell_len;
    const uint8_t *want;     /* expected stored bytes */
    size_t want_len;
} stored;

static void expect_reads(jet_db *db, const stored *s, size_t n)
{
    jet_buf b = { 0 };
    jet_error err;
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(jet_lval_read(&b, db, s[i].cell, s[i].cell_len, 0,
                                    &err) == JET_OK, "value %zu: %s", i,
                      err.msg);
        ck_assert_uint_eq(b.len, s[i].want_len);
        ck_assert(s[i].want_len == 0 ||
                  memcmp(b.data, s[i].want, s[i].want_len) == 0);
    }
    jet_buf_free(&b);
}

static uint32_t kind_of(const stored *s)
{
    return jet_get_u32(s->cell) & 0xC0000000u;
}

/* Store binary values of every size, then text values, in table tname's
 * columns bin (OLE or MEMO) and memo, read them back, commit, reopen,
 * read again, free them all, commit, and check the file. */
static void round_trip(const char *rel, const char *tname, const char *bin,
                       const char *memo)
{
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    const jet_column *cb, *cm;
    stored st[2 * NSIZES];
    uint8_t *vals[2 * NSIZES];
    size_t n = 0, pages_before;
    uint64_t digest;
    jet_error err;

    if (!copy_fixture(rel, "copy", path, sizeof path)) {
        fprintf(stderr, "skip: %s not found\n", rel);
        return;
    }
    db = open_rw(path);
    t = table(db, tname);
    cb = column(t, bin);
    cm = column(t, memo);
    digest = table_digest(db, t);
    pages_before = jet_pagefile_page_count(db->pf);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t i = 0; i < NSIZES; i++) {
        stored *s = &st[n];
        vals[n] = malloc(sizes[i] ? sizes[i] : 1);
        fill_binary(vals[n], sizes[i], (unsigned)i);
        ck_assert_msg(jet_lval_store_bytes(s->cell, sizeof s->cell,
                                           &s->cell_len, db, t, cb, vals[n],
                                           sizes[i], 4000) == JET_OK,
                      "size %zu: %s", sizes[i], jet_db_error(db)->msg);
        s->want = vals[n];
        s->want_len = sizes[i];
        ck_assert_uint_eq(jet_get_u32(s->cell) & 0x3FFFFFFFu, sizes[i]);
        if (sizes[i] <= JET_LVAL_INLINE_MAX) {
            ck_assert_uint_eq(kind_of(s), 0x80000000u);
            ck_assert_uint_eq(s->cell_len, 12 + sizes[i]);
        } else {
            ck_assert_uint_eq(kind_of(s), sizes[i] <= JET_LVAL_SINGLE_MAX
                                          ? 0x40000000u : 0);
            ck_assert_uint_eq(s->cell_len, 12);
        }
        n++;
    }
    for (size_t i = 0; i < NSIZES; i++) {
        stored *s = &st[n];
        size_t units = sizes[i] / 2;
        jet_value v = { .type = JET_T_MEMO, .enc = JET_ENC_UCS2 };
        uint8_t *utf16 = malloc(units * 2 + 1), *enc;
        uint16_t *u16 = malloc(units * 2 + 2);
        fill_text(utf16, units);
        v.data = utf16;
        v.len = units * 2;
        ck_assert_msg(jet_lval_store(s->cell, sizeof s->cell, &s->cell_len,
                                     db, t, cm, &v, 4000) == JET_OK,
                      "text %zu: %s", units, jet_db_error(db)->msg);
        /* what jet_text_encode makes of it is what must come back */
        for (size_t k = 0; k < units; k++)
            u16[k] = (uint16_t)(utf16[2 * k] | utf16[2 * k + 1] << 8);
        enc = malloc(units * 2 + 2);
        s->want_len = units ? jet_text_encode(enc, units * 2 + 2, u16,
                              units, (cm->flags & JET_COL_COMPRESSED) != 0)
                            : 0;
        s->want = enc;
        vals[n] = enc;
        free(utf16);
        free(u16);
        n++;
    }
    expect_reads(db, st, n);
    /* a short row: a small value goes to an LVAL row, not inline */
    {
        stored s;
        uint8_t small[30];
        fill_binary(small, sizeof small, 99);
        ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell,
                                              &s.cell_len, db, t, cb, small,
                                              sizeof small, 20), JET_OK);
        ck_assert_uint_eq(kind_of(&s), 0x40000000u);
        s.want = small;
        s.want_len = sizeof small;
        expect_reads(db, &s, 1);
        ck_assert_int_eq(jet_lval_free(db, t, cb, s.cell, s.cell_len),
                         JET_OK);
        /* no room even for the header; an empty value needs inline room */
        ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell,
                                              &s.cell_len, db, t, cb, small,
                                              sizeof small, 11), JET_ELIMIT);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_column_pages(db, t, cb);
    check_column_pages(db, t, cm);
    jet_db_close(db);

    /* after reopening: the same bytes, the table's rows unchanged */
    db = open_rw(path);
    t = table(db, tname);
    cb = column(t, bin);
    cm = column(t, memo);
    ck_assert(jet_pagefile_page_count(db->pf) > pages_before + 490);
    expect_reads(db, st, n);
    ck_assert_uint_eq(table_digest(db, t), digest);
    jetcheck_verify(path);

    /* free everything: our pages end up empty */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(jet_lval_free(db, t, i < NSIZES ? cb : cm, st[i].cell,
                                    st[i].cell_len) == JET_OK,
                      "free %zu: %s", i, jet_db_error(db)->msg);
    /* a second free finds the rows gone */
    ck_assert_int_eq(jet_lval_free(db, t, cb, st[NSIZES - 1].cell,
                                   st[NSIZES - 1].cell_len), JET_ECORRUPT);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    expect_reads(db, st, n);   /* the rollback kept them */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(jet_lval_free(db, t, i < NSIZES ? cb : cm,
                                       st[i].cell, st[i].cell_len), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_column_pages(db, t, cb);
    check_column_pages(db, t, cm);
    for (size_t i = 0; i < n; i++) {
        uint32_t pg = jet_get_u32(st[i].cell + 4) >> 8;
        const uint8_t *p;
        if (kind_of(&st[i]) == 0x80000000u || pg < pages_before)
            continue;   /* inline, or a page the fixture had */
        ck_assert_int_eq(jet_page_pin(db->pf, pg, &p, &err), JET_OK);
        ck_assert_msg(jet_get_u16(p + db->fmt->data_nrows) == 0,
                      "page %u keeps rows after every value was freed", pg);
        jet_page_unpin(db->pf, p);
    }
    ck_assert_uint_eq(table_digest(db, t), digest);
    jet_db_close(db);
    jetcheck_verify(path);
    for (size_t i = 0; i < n; i++)
        free(vals[i]);
}

START_TEST(jet4_values_of_every_size_round_trip)
{
    round_trip("jackcess/V2003/test2V2003.mdb", "MSP_PROJECTS",
               "RESERVED_BINARY_DATA", "PROJ_PROP_AUTHOR");
}
END_TEST

START_TEST(ace_values_of_every_size_round_trip)
{
    round_trip("jackcess/V2010/test2V2010.accdb", "MSP_PROJECTS",
               "RESERVED_BINARY_DATA", "PROJ_PROP_TITLE");
}
END_TEST

START_TEST(ace_memo_only_table_round_trips)
{
    /* one MEMO column, its maps empty at first */
    round_trip("mdbtestdata/ASampleDatabase.accdb", "Asset Items",
               "Comments", "Comments");
}
END_TEST

START_TEST(small_values_share_an_lval_page)
{
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    const jet_column *c;
    stored st[40];
    uint8_t v[200];
    uint32_t first;
    if (!copy_fixture("jackcess/V2003/test2V2003.mdb", "copy", path,
                      sizeof path))
        return;
    db = open_rw(path);
    t = table(db, "MSP_PROJECTS");
    c = column(t, "PROJ_PROP_SUBJECT");
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    fill_binary(v, sizeof v, 7);
    for (int i = 0; i < 40; i++) {
        ck_assert_int_eq(jet_lval_store_bytes(st[i].cell, sizeof st[i].cell,
                                              &st[i].cell_len, db, t, c, v,
                                              100 + (size_t)i, 4000),
                         JET_OK);
        st[i].want = v;
        st[i].want_len = 100 + (size_t)i;
    }
    /* 40 rows of ~120 bytes: two pages, filled in order */
    first = jet_get_u32(st[0].cell + 4) >> 8;
    for (int i = 1; i < 30; i++)
        ck_assert_uint_eq(jet_get_u32(st[i].cell + 4) >> 8, first);
    ck_assert_uint_eq(check_column_pages(db, t, c), 2);
    expect_reads(db, st, 40);
    /* freeing the newest rows gives their room back at once */
    {
        const uint8_t *p;
        jet_error err;
        size_t before;
        uint32_t pg = jet_get_u32(st[39].cell + 4) >> 8;
        ck_assert_int_eq(jet_page_pin(db->pf, pg, &p, &err), JET_OK);
        before = jet_data_page_free_space(db->fmt, p);
        jet_page_unpin(db->pf, p);
        ck_assert_int_eq(jet_lval_free(db, t, c, st[39].cell, 12), JET_OK);
        ck_assert_int_eq(jet_page_pin(db->pf, pg, &p, &err), JET_OK);
        ck_assert_uint_eq(jet_data_page_free_space(db->fmt, p),
                          before + 139 + 2);
        jet_page_unpin(db->pf, p);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_column_pages(db, t, c);
    jet_db_close(db);
    jetcheck_verify(path);
}
END_TEST

START_TEST(table_without_column_maps_gets_new_pages)
{
    char path[256];
    jet_db *db;
    jet_tdef_priv *tp;
    const jet_column *c;
    stored s[2];
    uint8_t v[300];
    uint16_t saved;
    if (!copy_fixture("jackcess/V2003/test2V2003.mdb", "copy", path,
                      sizeof path))
        return;
    db = open_rw(path);
    tp = (jet_tdef_priv *)table(db, "MSP_PROJECTS");
    c = column(&tp->pub, "PROJ_PROP_KEYWORDS");
    saved = tp->nlval_umaps;
    tp->nlval_umaps = 0;   /* as an older file's TDEF */
    fill_binary(v, sizeof v, 3);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(jet_lval_store_bytes(s[i].cell, sizeof s[i].cell,
                                              &s[i].cell_len, db, &tp->pub,
                                              c, v, sizeof v, 4000), JET_OK);
        s[i].want = v;
        s[i].want_len = sizeof v;
    }
    ck_assert_uint_ne(jet_get_u32(s[0].cell + 4), jet_get_u32(s[1].cell + 4));
    expect_reads(db, s, 2);
    ck_assert_int_eq(jet_lval_free(db, &tp->pub, c, s[0].cell, 12), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    tp->nlval_umaps = saved;
    jet_db_close(db);
}
END_TEST

START_TEST(refusals)
{
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    stored s;
    uint8_t v[100] = { 0 };
    jet_open_options ro = { .read_only = true };
    if (!copy_fixture("jackcess/V2003/test2V2003.mdb", "copy", path,
                      sizeof path))
        return;
    db = open_rw(path);
    t = table(db, "MSP_PROJECTS");
    /* outside a transaction */
    ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell, &s.cell_len,
                     db, t, column(t, "PROJ_PROP_TITLE"), v, sizeof v,
                     4000), JET_EUNSUPPORTED);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    /* not a long-value column */
    ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell, &s.cell_len,
                     db, t, &t->cols[0], v, sizeof v, 4000),
                     JET_EUNSUPPORTED);
    /* a damaged header */
    memset(s.cell, 0, 12);
    s.cell[3] = 0xC0;
    ck_assert_int_eq(jet_lval_free(db, t, column(t, "PROJ_PROP_TITLE"),
                                   s.cell, 12), JET_ECORRUPT);
    s.cell[3] = 0x40;
    s.cell[5] = 0xFF;
    s.cell[6] = 0xFF;
    s.cell[7] = 0x7F;   /* page far past the end */
    ck_assert_int_eq(jet_lval_free(db, t, column(t, "PROJ_PROP_TITLE"),
                                   s.cell, 12), JET_ECORRUPT);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    /* Jet3 */
    if (copy_fixture("jackcess/V1997/test2V1997.mdb", "j3", path,
                     sizeof path)) {
        ck_assert_int_eq(jet_db_open(&db, path, &ro, NULL), JET_OK);
        t = table(db, "MSP_PROJECTS");
        ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell,
                         &s.cell_len, db, t, column(t, "PROJ_PROP_TITLE"),
                         v, sizeof v, 4000), JET_EREADONLY);
        jet_db_close(db);
    }
}
END_TEST

START_TEST(column_map_promotes_when_pages_spread)
{
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    const jet_tdef_priv *tp;
    const jet_column *c;
    stored s;
    size_t n = 2200000;   /* 541 pages: past an inline map's 512 */
    uint8_t *v = malloc(n), *pg;
    jet_error err;
    if (!copy_fixture("jackcess/V2003/test2V2003.mdb", "copy", path,
                      sizeof path)) {
        free(v);
        return;
    }
    db = open_rw(path);
    t = table(db, "MSP_PROJECTS");
    tp = (const jet_tdef_priv *)t;
    c = column(t, "PROJ_PROP_AUTHOR");
    ck_assert_uint_eq(check_column_pages(db, t, c), 1);
    fill_binary(v, n, 11);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_lval_store_bytes(s.cell, sizeof s.cell, &s.cell_len,
                                          db, t, c, v, n, 4000), JET_OK);
    s.want = v;
    s.want_len = n;
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    expect_reads(db, &s, 1);
    ck_assert_uint_eq(check_column_pages(db, t, c), 541);   /* the last row fits the old page */
    for (uint16_t i = 0; i < tp->nlval_umaps; i++) {
        uint32_t p = tp->lval_umaps[i].owned_ptr;
        uint16_t st, en, fl;
        if (tp->lval_umaps[i].col_num != c->col_num)
            continue;
        ck_assert_int_eq(jet_page_pin(db->pf, p >> 8,
                                      (const uint8_t **)&pg, &err), JET_OK);
        ck_assert_int_eq(jet_row_bounds(db->fmt, pg, p >> 8,
                                        (uint16_t)(p & 0xFF), &st, &en, &fl,
                                        &err), JET_OK);
        ck_assert_uint_eq(pg[st], 1);   /* now a reference map */
        jet_page_unpin(db->pf, pg);
    }
    jet_db_close(db);
    jetcheck_verify(path);
    free(v);
}
END_TEST

START_TEST(memo_text_is_compressed_when_the_column_allows)
{
    char path[256];
    jet_db *db;
    jet_tdef_priv *tp;
    jet_column *c;
    jet_buf b = { 0 };
    jet_error err;
    static const size_t units[] = { 30, 500, 1024, 1025 };
    if (!copy_fixture("jackcess/V2003/test2V2003.mdb", "copy", path,
                      sizeof path))
        return;
    db = open_rw(path);
    tp = (jet_tdef_priv *)table(db, "MSP_PROJECTS");
    c = &tp->cols[jet_tdef_find_column(&tp->pub, "PROJ_PROP_MANAGER")];
    c->flags |= JET_COL_COMPRESSED;   /* as a column with Unicode
                                         compression on */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t n = units[i], got = 0;
        uint8_t *utf16 = malloc(2 * n), cell[JET_LVAL_CELL_MAX];
        uint16_t *back = malloc(2 * n + 2);
        size_t cell_len;
        jet_value v = { .type = JET_T_MEMO, .enc = JET_ENC_UCS2,
                        .data = utf16, .len = 2 * n };
        for (size_t k = 0; k < n; k++) {   /* Latin-1 text and one e-acute */
            utf16[2 * k] = (uint8_t)(k % 7 == 3 ? 0xE9 : 'a' + k % 26);
            utf16[2 * k + 1] = 0;
        }
        ck_assert_int_eq(jet_lval_store(cell, sizeof cell, &cell_len, db,
                                        &tp->pub, c, &v, 4000), JET_OK);
        ck_assert_int_eq(jet_lval_read(&b, db, cell, cell_len, 0, &err),
                         JET_OK);
        if (n <= JET_TEXT_COMPRESS_MAX_UNITS) {
            ck_assert(b.len >= 2 && b.data[0] == 0xFF && b.data[1] == 0xFE);
            ck_assert_uint_lt(b.len, 2 * n);
        } else {
            ck_assert_uint_eq(b.len, 2 * n);   /* too long to compress */
        }
        v.enc = b.len >= 2 && b.data[0] == 0xFF && b.data[1] == 0xFE
                    ? JET_ENC_COMPRESSED : JET_ENC_UCS2;
        v.data = b.data;
        v.len = b.len;
        ck_assert_int_eq(jet_text_to_utf16(db, &v, back, n + 1, &got),
                         JET_OK);
        ck_assert_uint_eq(got, n);
        for (size_t k = 0; k < n; k++)
            ck_assert_uint_eq(back[k], utf16[2 * k]);
        free(utf16);
        free(back);
    }
    jet_buf_free(&b);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    c->flags &= (uint16_t)~JET_COL_COMPRESSED;
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------- whole rows (tablewrite.c) */

/* Is column i of t in an index (then it gets a value, never NULL)? */
static bool indexed(const jet_tdef *t, uint16_t i)
{
    for (uint16_t x = 0; x < t->nindexes; x++)
        for (uint16_t k = 0; k < t->indexes[x].ncols; k++)
            if (t->indexes[x].cols[k].col == i)
                return true;
    return false;
}

/* A value of column col's type for row k (keys differ per row). */
static void key_value(jet_value *v, const jet_column *col, unsigned k,
                      uint8_t *buf)
{
    memset(v, 0, sizeof *v);
    v->type = col->type;
    switch (col->type) {
    case JET_T_BOOL: v->u.b = false; break;
    case JET_T_BYTE: v->u.i = k % 250; break;
    case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
        v->u.i = 70000 + k; break;
    case JET_T_MONEY: v->u.money = 10000 * (int64_t)k; break;
    case JET_T_FLOAT: v->u.f = (float)k; break;
    case JET_T_DOUBLE: case JET_T_DATETIME: v->u.d = 40000 + k; break;
    case JET_T_GUID: memset(v->u.guid, 0, 16); v->u.guid[0] = (uint8_t)k;
        v->u.guid[1] = (uint8_t)(k >> 8); v->u.guid[15] = 0x7E; break;
    case JET_T_TEXT: {
        char txt[16];
        int n = snprintf(txt, sizeof txt, "Z%04u", k);
        for (int j = 0; j < n; j++) {
            buf[2 * j] = (uint8_t)txt[j];
            buf[2 * j + 1] = 0;
        }
        v->enc = JET_ENC_UCS2;
        v->data = buf;
        v->len = (size_t)(2 * n);
        if (v->len > col->length)
            v->len = col->length;
        break;
    }
    default: v->is_null = true; break;
    }
}

/* The long values of row k: text for MEMO, bytes for OLE, sizes[k]. */
static void long_value(jet_value *v, const jet_column *col, unsigned k,
                       uint8_t **owned)
{
    size_t n = sizes[k % NSIZES];
    memset(v, 0, sizeof *v);
    v->type = col->type;
    /* a Memo of no character is a zero-length string, which a column
     * with AllowZeroLength = No refuses (ASampleDatabase's Comments) */
    if (col->type == JET_T_MEMO && n < 2)
        n = 2;
    *owned = malloc(n + 2);
    if (col->type == JET_T_MEMO) {
        fill_text(*owned, n / 2);
        v->enc = JET_ENC_UCS2;
        v->len = n / 2 * 2;
    } else {
        fill_binary(*owned, n, k + col->col_num);
        v->len = n;
    }
    v->data = *owned;
}

/* Check every row of t with a key from rows [0, n) (found by its first
 * indexed column's value) against its long values; deleted rows (bit in
 * gone) must be absent. */
static void check_rows(jet_db *db, const jet_tdef *t, unsigned n,
                       const bool *gone, const unsigned *gen)
{
    jet_scan *s;
    jet_rc rc;
    unsigned seen = 0;
    int keycol = -1;
    for (uint16_t i = 0; i < t->ncols && keycol < 0; i++)
        if (indexed(t, i) && t->cols[i].type == JET_T_TEXT)
            keycol = i;
    for (uint16_t i = 0; i < t->ncols && keycol < 0; i++)
        if (indexed(t, i) && t->cols[i].type == JET_T_LONG)
            keycol = i;
    ck_assert_int_ge(keycol, 0);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value kv;
        unsigned k;
        ck_assert_int_eq(jet_scan_value(s, (uint16_t)keycol, &kv), JET_OK);
        if (kv.is_null)
            continue;
        if (kv.type == JET_T_TEXT) {
            char u8[16];
            size_t len;
            ck_assert_int_eq(jet_text_to_utf8(db, &kv, u8, sizeof u8 - 1,
                                              &len), JET_OK);
            u8[len] = 0;
            if (u8[0] != 'Z')
                continue;
            k = (unsigned)atoi(u8 + 1);
        } else {
            if (kv.u.i < 70000)
                continue;
            k = (unsigned)(kv.u.i - 70000);
        }
        ck_assert_uint_lt(k, n);
        ck_assert_msg(!gone[k], "deleted row %u is still there", k);
        seen++;
        for (uint16_t i = 0; i < t->ncols; i++) {
            const jet_column *col = &t->cols[i];
            jet_value v, want;
            uint8_t *wb;
            if (col->type != JET_T_MEMO && col->type != JET_T_OLE)
                continue;
            ck_assert_int_eq(jet_scan_value(s, i, &v), JET_OK);
            long_value(&want, col, gen[k], &wb);
            ck_assert(!v.is_null);
            if (col->type == JET_T_MEMO) {
                size_t got = 0, nu = want.len / 2;
                uint16_t *u = malloc(2 * nu + 2);
                ck_assert_int_eq(jet_text_to_utf16(db, &v, u, nu + 1, &got),
                                 JET_OK);
                ck_assert_uint_eq(got, nu);
                for (size_t j = 0; j < nu; j++)
                    ck_assert_uint_eq(u[j], wb[2 * j] | wb[2 * j + 1] << 8);
                free(u);
            } else {
                ck_assert_uint_eq(v.len, want.len);
                ck_assert(want.len == 0 ||
                          memcmp(v.data, want.data, want.len) == 0);
            }
            free(wb);
        }
    }
    ck_assert_int_eq(rc, JET_DONE);
    jet_scan_close(s);
    {
        unsigned live = 0;
        for (unsigned k = 0; k < n; k++)
            live += !gone[k];
        ck_assert_uint_eq(seen, live);
    }
}

static void mdb_export_reads(const char *path, const char *tname)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mdb-export '%s' '%s' >/dev/null 2>&1", path,
             tname);
    if (system("command -v mdb-export >/dev/null 2>&1") != 0) {
        fprintf(stderr, "mdb-export not found: skipped\n");
        return;
    }
    ck_assert_msg(system(cmd) == 0, "mdb-export %s %s failed", path, tname);
}

/* Insert rows with long values of every size in table tname, commit,
 * check; delete every third, update every third with new values,
 * commit, check again. */
static void rows_round_trip(const char *rel, const char *tname)
{
    enum { NROWS = 2 * NSIZES };
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    jet_rowid ids[NROWS];
    bool gone[NROWS] = { false };
    unsigned gen[NROWS];
    if (!copy_fixture(rel, "rows", path, sizeof path)) {
        fprintf(stderr, "skip: %s not found\n", rel);
        return;
    }
    db = open_rw(path);
    t = table(db, tname);
    ck_assert_int_eq(jet_table_check_writable(db, t), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < NROWS; k++) {
        jet_value *v = calloc(t->ncols, sizeof *v);
        uint8_t **own = calloc(t->ncols, sizeof *own), kb[64];
        jet_rc rc;
        gen[k] = k;
        for (uint16_t i = 0; i < t->ncols; i++) {
            const jet_column *col = &t->cols[i];
            if (col->type == JET_T_MEMO || col->type == JET_T_OLE)
                long_value(&v[i], col, k, &own[i]);
            else if (indexed(t, i) || !(col->flags & JET_COL_NULLABLE) ||
                     (col->flags & JET_COL_REQUIRED))
                key_value(&v[i], col, k, kb);
            else
                v[i] = (jet_value){ .type = col->type, .is_null = true };
            if (col->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID))
                v[i].is_null = true;   /* assigned by the insert */
        }
        rc = jet_table_insert(db, t, v, &ids[k]);
        ck_assert_msg(rc == JET_OK, "row %u: %s", k, jet_db_error(db)->msg);
        for (uint16_t i = 0; i < t->ncols; i++)
            free(own[i]);
        free(own);
        free(v);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_rows(db, t, NROWS, gone, gen);
    jet_db_close(db);
    jetcheck_verify(path);
    mdb_export_reads(path, tname);

    /* delete and update: old long values are freed, new ones stored */
    db = open_rw(path);
    t = table(db, tname);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (unsigned k = 0; k < NROWS; k++) {
        if (k % 3 == 0) {
            ck_assert_msg(jet_table_delete(db, t, ids[k]) == JET_OK,
                          "delete %u: %s", k, jet_db_error(db)->msg);
            gone[k] = true;
        } else if (k % 3 == 1) {
            jet_value *v = calloc(t->ncols, sizeof *v);
            uint8_t **own = calloc(t->ncols, sizeof *own), kb[64];
            gen[k] = k + 5;
            for (uint16_t i = 0; i < t->ncols; i++) {
                const jet_column *col = &t->cols[i];
                if (col->type == JET_T_MEMO || col->type == JET_T_OLE)
                    long_value(&v[i], col, gen[k], &own[i]);
                else if (indexed(t, i) || !(col->flags & JET_COL_NULLABLE) ||
                         (col->flags & JET_COL_REQUIRED))
                    key_value(&v[i], col, k, kb);
                else
                    v[i] = (jet_value){ .type = col->type, .is_null = true };
            }
            ck_assert_msg(jet_table_update(db, t, ids[k], v) == JET_OK,
                          "update %u: %s", k, jet_db_error(db)->msg);
            for (uint16_t i = 0; i < t->ncols; i++)
                free(own[i]);
            free(own);
            free(v);
        }
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_rows(db, t, NROWS, gone, gen);
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_MEMO || t->cols[i].type == JET_T_OLE)
            check_column_pages(db, t, &t->cols[i]);
    jet_db_close(db);
    jetcheck_verify(path);
    mdb_export_reads(path, tname);
}

START_TEST(jet4_rows_with_memo_and_ole)
{
    rows_round_trip("jackcess/V2003/test2V2003.mdb", "MSP_PROJECTS");
}
END_TEST

START_TEST(ace_rows_with_memo)
{
    rows_round_trip("mdbtestdata/ASampleDatabase.accdb", "Asset Items");
}
END_TEST

static Suite *lvalwrite_suite(void)
{
    Suite *s = suite_create("lvalwrite");
    TCase *tc = tcase_create("lvalwrite");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, jet4_values_of_every_size_round_trip);
    tcase_add_test(tc, ace_values_of_every_size_round_trip);
    tcase_add_test(tc, ace_memo_only_table_round_trips);
    tcase_add_test(tc, small_values_share_an_lval_page);
    tcase_add_test(tc, table_without_column_maps_gets_new_pages);
    tcase_add_test(tc, column_map_promotes_when_pages_spread);
    tcase_add_test(tc, memo_text_is_compressed_when_the_column_allows);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, jet4_rows_with_memo_and_ole);
    tcase_add_test(tc, ace_rows_with_memo);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(lvalwrite_suite)
