/*
 * test_check.c - the consistency check (jet_db_check, core/check.c):
 * every public fixture (Jet4 and ACE; encrypted ones with their
 * password) checks clean but for the known exceptions below, each with
 * its reason; damaged copies are reported: a TDEF row count changed, an
 * index entry pointed at another row, a long value page's row table
 * broken. The damage is written into copies in /tmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "index.h"
#include "internal.h"
#include "unit.h"
#include "../fixture_walk.h"
#include "../shared_dir.h"
#include "../slurp.h"

/* Files as Jackcess's test suite wrote them, with their own flaws: the
 * check must find exactly these many problems there (so that neither a
 * new false alarm nor a lost finding goes unseen). */
static const struct {
    const char *tail;
    unsigned problems;
    const char *why;
} known[] = {
    { "V2000/queryTestV2000.mdb", 1, "MSysQueries: TDEF counts 82 rows, "
      "90 are live (Jackcess added saved queries without the count)" },
    { "V2003/queryTestV2003.mdb", 1, "the same, MSysQueries 82 of 90" },
    { "V2000/testV2000.mdb", 1, "MSysACEs: TDEF counts 61 rows of 64" },
    { "V2000/testRefGlobalV2000.mdb", 1, "MSysACEs: 61 of 64, as testV2000 "
      "(its reference global usage map goes unchecked)" },
    { "V2003/testV2003.mdb", 1, "MSysACEs: TDEF counts 78 rows of 81" },
    { "V2010/calcFieldTestV2010.accdb", 6, "Table1: TDEF counts 3 of 4 "
      "rows, and 5 data pages of the table at page 48 are in none of its "
      "usage maps" },
};

static char msgs[8192];
static size_t msgs_len;

static void collect(void *ctx, uint32_t pgno, const char *table,
                    const char *msg)
{
    int n;
    (void)ctx;
    if (msgs_len >= sizeof msgs - 1)
        return;
    n = snprintf(msgs + msgs_len, sizeof msgs - msgs_len, "%u %s: %s\n",
                 pgno, table ? table : "-", msg);
    if (n > 0)
        msgs_len += (size_t)n < sizeof msgs - msgs_len
                        ? (size_t)n : sizeof msgs - msgs_len - 1;
}

/* Check path (password may be NULL): the problem count, messages in msgs. */
static unsigned check_file(const char *path, const char *password,
                           jet_check_stats *st)
{
    jet_open_options o;
    jet_error err;
    jet_db *db;
    memset(&o, 0, sizeof o);
    o.password = password;
    o.read_only = true;
    msgs_len = 0;
    msgs[0] = '\0';
    ck_assert_msg(jet_db_open(&db, path, &o, &err) == JET_OK, "%s: %s", path,
                  err.msg);
    ck_assert_int_eq(jet_db_check(db, collect, NULL, st), JET_OK);
    jet_db_close(db);
    return st->problems;
}

static unsigned files_checked, rows_checked, entries_checked;

static void check_fixture(const char *path)
{
    jet_check_stats st;
    const char *password = NULL;
    unsigned want = 0;
    if (strstr(path, "V1997") || strstr(path, "nwind.mdb") ||
        strstr(path, "db97-enc"))
        return;                         /* Jet3: not checked */
    if (strstr(path, "db2007-enc") || strstr(path, "db2007-oldenc"))
        password = "Test123";
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(path), m = strlen(known[i].tail);
        if (n >= m && strcmp(path + n - m, known[i].tail) == 0)
            want = known[i].problems;
    }
    ck_assert_msg(check_file(path, password, &st) == want,
                  "%s: %u problems, expected %u:\n%s", path, st.problems,
                  want, msgs);
    files_checked++;
    rows_checked += (unsigned)st.rows;
    entries_checked += (unsigned)st.entries;
}

START_TEST(public_fixtures_check_clean)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fixtures/public", jet_shared_dir());
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "fixtures not found: skipped\n");
        return;
    }
    jet_fixture_walk(dir, 0, check_fixture);
    fprintf(stderr, "check: %u fixtures, %u rows, %u index entries\n",
            files_checked, rows_checked, entries_checked);
    ck_assert_uint_ge(files_checked, 60);
}
END_TEST

/* ------------------------------------------------------------- damage */

static char tmp[64];
static uint8_t *img;
static size_t img_len;

static void load(const char *rel)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    img = jet_test_slurp(src, &img_len);
    ck_assert_ptr_nonnull(img);
}

/* Write the (damaged) image to a temporary file and check it. */
static unsigned check_image(jet_check_stats *st)
{
    FILE *f;
    int fd;
    unsigned n;
    snprintf(tmp, sizeof tmp, "/tmp/jet_check_XXXXXX");
    fd = mkstemp(tmp);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(img, 1, img_len, f), img_len);
    fclose(f);
    n = check_file(tmp, NULL, st);
    unlink(tmp);
    return n;
}

static const char *src_accdb = "jackcess/V2010/testV2010.accdb";

static bool fixture_ok(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/fixtures/public/%s", jet_shared_dir(),
             src_accdb);
    return access(src, R_OK) == 0;
}

/* The TDEF page and row count of user table name, from a clean open. */
static uint32_t tdef_of(const char *name)
{
    jet_db *db;
    jet_error err;
    const jet_object *o;
    uint32_t pg;
    char src[1024];
    snprintf(src, sizeof src, "%s/fixtures/public/%s", jet_shared_dir(),
             src_accdb);
    ck_assert_int_eq(jet_db_open(&db, src, NULL, &err), JET_OK);
    o = jet_catalog_find(db, name);
    ck_assert_ptr_nonnull(o);
    pg = o->tdef_pgno;
    jet_db_close(db);
    return pg;
}

START_TEST(wrong_row_count_is_reported)
{
    jet_check_stats st;
    uint32_t pg;
    uint8_t *p;
    if (!fixture_ok())
        return;
    load(src_accdb);
    pg = tdef_of("Table1");
    p = img + (size_t)pg * 4096 + 16;           /* Jet4/ACE row count */
    jet_put_u32(p, jet_get_u32(p) + 1);
    ck_assert_uint_eq(check_image(&st), 1);
    ck_assert_msg(strstr(msgs, "the table definition counts") &&
                  strstr(msgs, "Table1"), "%s", msgs);
    free(img);
}
END_TEST

START_TEST(moved_index_entry_is_reported)
{
    jet_check_stats st;
    jet_db *db;
    jet_error err;
    jet_index_cursor *c;
    const jet_object *o;
    const jet_tdef *t;
    const uint8_t *key;
    uint8_t pat[3072 + 4];
    size_t len;
    uint32_t pg;
    uint16_t row;
    bool done = false;
    char src[1024];
    if (!fixture_ok())
        return;
    load(src_accdb);
    /* the first entry of Table1's first index, found on its leaf page
     * (a first entry is stored whole) by its key and row pointer */
    snprintf(src, sizeof src, "%s/fixtures/public/%s", jet_shared_dir(),
             src_accdb);
    ck_assert_int_eq(jet_db_open(&db, src, NULL, &err), JET_OK);
    o = jet_catalog_find(db, "Table1");
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_uint_gt(t->nindexes, 0);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, 0), JET_OK);
    ck_assert_int_eq(jet_index_next(c, &pg, &row), JET_OK);
    key = jet_index_entry_key(c, &len);
    ck_assert_uint_le(len, 3072);
    memcpy(pat, key, len);
    pat[len] = (uint8_t)(pg >> 16);
    pat[len + 1] = (uint8_t)(pg >> 8);
    pat[len + 2] = (uint8_t)pg;
    pat[len + 3] = (uint8_t)row;
    jet_index_cursor_close(c);
    jet_db_close(db);
    for (size_t p = 0; p + 4096 <= img_len && !done; p += 4096) {
        uint8_t *page = img + p;
        if (page[0] != 0x04)
            continue;
        for (size_t i = 0; i + len + 4 <= 4096; i++)
            if (memcmp(page + i, pat, len + 4) == 0) {
                page[i + len + 3] ^= 0x01;      /* another row */
                done = true;
                break;
            }
    }
    ck_assert(done);
    ck_assert_uint_ge(check_image(&st), 1);
    ck_assert_msg(strstr(msgs, "index") && strstr(msgs, "Table1"), "%s",
                  msgs);
    free(img);
}
END_TEST

START_TEST(broken_long_value_page_is_reported)
{
    jet_check_stats st;
    bool done = false;
    if (!fixture_ok())
        return;
    load(src_accdb);
    /* every row of the first long value page that holds rows: its row
     * table entries point past the page */
    for (size_t p = 4096; p + 4096 <= img_len && !done; p += 4096) {
        uint8_t *page = img + p;
        uint16_t n = jet_get_u16(page + 12);
        if (page[0] != 0x01 || memcmp(page + 4, "LVAL", 4) != 0 || n == 0)
            continue;
        for (uint16_t i = 0; i < n && i < 200; i++)
            jet_put_u16(page + 14 + 2 * i, 0x1FFF);
        done = true;
    }
    ck_assert(done);
    ck_assert_uint_ge(check_image(&st), 1);
    ck_assert_msg(strstr(msgs, "column"), "%s", msgs);
    free(img);
}
END_TEST

static Suite *check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("check");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, public_fixtures_check_clean);
    tcase_add_test(tc, wrong_row_count_is_reported);
    tcase_add_test(tc, moved_index_entry_is_reported);
    tcase_add_test(tc, broken_long_value_page_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(check_suite)
