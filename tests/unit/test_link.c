/*
 * test_link.c - linked tables read from the file they link to.
 *
 * Jackcess's linkerTestV2007.accdb links Table2 to Table1 of
 * 'Z:\jackcess_test\linkeeTest.accdb'; the public fixtures keep that file
 * one folder up, so each case copies the two into a temporary folder laid
 * out as the case needs. Skipped (passing vacuously) without ../shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jet.h"
#include "unit.h"
#include "../shared_dir.h"

static char tmpdir[64];

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out;
    char buf[65536];
    size_t n;
    if (!in)
        return false;
    out = fopen(to, "wb");
    ck_assert_ptr_nonnull(out);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    return true;
}

/* Copy the fixture rel into tmpdir/name; false without ../shared. */
static bool fixture_to(const char *rel, const char *name)
{
    char from[1024], to[256];
    snprintf(from, sizeof from, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    snprintf(to, sizeof to, "%s/%s", tmpdir, name);
    return copy_file(from, to);
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/jet_link_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

#define LINKER "jackcess/V2007/linkerTestV2007.accdb"
#define LINKEE "jackcess/linkeeTest.accdb"

static jet_db *open_in_tmp(const char *name)
{
    char path[256];
    jet_db *db = NULL;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    return db;
}

/* Read the linked Table2: one row (1, "bar"). */
static void expect_linked_rows(jet_db *db)
{
    const jet_object *o = jet_catalog_find(db, "Table2");
    const jet_tdef *td;
    jet_scan *sc;
    jet_value v;
    char text[16];
    size_t len;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(o->kind, JET_OBJ_LINKED_TABLE);
    ck_assert_int_eq(jet_tdef_load(&td, db, o), JET_OK);
    ck_assert_uint_eq(td->ncols, 2);
    ck_assert_int_eq(jet_scan_open(&sc, db, td, NULL), JET_OK);
    ck_assert_int_eq(jet_scan_next(sc), JET_OK);
    ck_assert_int_eq(jet_scan_value(sc, 0, &v), JET_OK);
    ck_assert_int_eq(v.u.i, 1);
    ck_assert_int_eq(jet_scan_value(sc, 1, &v), JET_OK);
    ck_assert_int_eq(jet_text_to_utf8(db, &v, text, sizeof text, &len),
                     JET_OK);
    ck_assert_uint_eq(len, 3);
    ck_assert(memcmp(text, "bar", 3) == 0);
    ck_assert_int_eq(jet_scan_next(sc), JET_DONE);
    jet_scan_close(sc);
}

START_TEST(link_opens_the_same_file_name_beside_the_linking_file)
{
    if (!fixture_to(LINKER, "linker.accdb") ||
        !fixture_to(LINKEE, "linkeeTest.accdb"))
        return;
    jet_db *db = open_in_tmp("linker.accdb");
    expect_linked_rows(db);
    expect_linked_rows(db);     /* the second read reuses the open file */
    jet_db_close(db);
}
END_TEST

START_TEST(link_opens_the_stored_path_when_it_exists)
{
    /* a relative stored path is taken from the working directory; this
     * one is a legal Linux file name */
    char cwd[1024];
    if (!fixture_to(LINKER, "linker.accdb") ||
        !fixture_to(LINKEE, "Z:\\jackcess_test\\linkeeTest.accdb"))
        return;
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmpdir), 0);
    jet_db *db = NULL;
    ck_assert_int_eq(jet_db_open(&db, "linker.accdb", NULL, NULL), JET_OK);
    expect_linked_rows(db);
    jet_db_close(db);
    ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

START_TEST(link_to_a_missing_file_names_the_stored_path)
{
    if (!fixture_to(LINKER, "linker.accdb"))
        return;
    jet_db *db = open_in_tmp("linker.accdb");
    const jet_tdef *td;
    ck_assert_int_eq(jet_tdef_load(&td, db, jet_catalog_find(db, "table2")),
                     JET_ENOTFOUND);
    ck_assert(strstr(jet_db_error(db)->msg,
                     "'Z:\\jackcess_test\\linkeeTest.accdb'") != NULL);
    jet_db_close(db);
}
END_TEST

START_TEST(link_to_an_odbc_source_is_unsupported)
{
    if (!fixture_to("jackcess/V2007/odbcLinkerTestV2007.accdb", "o.accdb"))
        return;
    jet_db *db = open_in_tmp("o.accdb");
    const jet_object *o = jet_catalog_find(db, "Ordrar");
    const jet_tdef *td;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(o->kind, JET_OBJ_LINKED_ODBC);
    ck_assert_int_eq(jet_tdef_load(&td, db, o), JET_EUNSUPPORTED);
    ck_assert(strstr(jet_db_error(db)->msg, "ODBC") != NULL);
    jet_db_close(db);
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, link_opens_the_same_file_name_beside_the_linking_file);
    tcase_add_test(tc, link_opens_the_stored_path_when_it_exists);
    tcase_add_test(tc, link_to_a_missing_file_names_the_stored_path);
    tcase_add_test(tc, link_to_an_odbc_source_is_unsupported);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(link_suite)
