/*
 * test_db.c - jet_db_open errors on bad files, and (when the shared
 * fixtures are present) a full scan that allocates nothing per row.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "pagebuild.h"
#include "unit.h"
#include "../shared_dir.h"


static char path[64];

static void write_bytes(const void *data, size_t len)
{
    FILE *f;
    int fd;
    snprintf(path, sizeof path, "/tmp/jet_unit_XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    if (len)
        ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

START_TEST(db_open_empty_file_is_format_error)
{
    jet_db *db = (jet_db *)1;
    jet_error err;
    write_bytes("", 0);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_EFORMAT);
    ck_assert_ptr_null(db);
    ck_assert(strstr(err.msg, "empty") != NULL);
    unlink(path);
}
END_TEST

START_TEST(db_open_text_file_is_format_error)
{
    char text[5000];
    jet_db *db;
    jet_error err;
    memset(text, 'x', sizeof text);
    write_bytes(text, sizeof text);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_EFORMAT);
    ck_assert(strstr(err.msg, "not an Access database") != NULL);
    unlink(path);
}
END_TEST

START_TEST(db_open_missing_file_is_io_error)
{
    jet_db *db;
    jet_error err;
    ck_assert_int_eq(jet_db_open(&db, "/nonexistent/x.mdb", NULL, &err),
                     JET_EIO);
}
END_TEST

START_TEST(db_open_header_only_is_corrupt)
{
    uint8_t page[4096] = { 0x00, 0x01, 0x00, 0x00 };
    jet_db *db;
    jet_error err;
    memcpy(page + 4, "Standard Jet DB", 15);
    page[0x14] = 1;
    write_bytes(page, sizeof page);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_ECORRUPT);
    ck_assert_ptr_null(db);
    unlink(path);
}
END_TEST

/* counting allocator */
static size_t n_allocs;
static void *count_malloc(size_t n) { n_allocs++; return malloc(n ? n : 1); }
static void *count_calloc(size_t c, size_t n)
{
    n_allocs++;
    return calloc(c ? c : 1, n ? n : 1);
}
static void *count_realloc(void *p, size_t n)
{
    n_allocs++;
    return realloc(p, n ? n : 1);
}

/* Scan table name twice; the second pass must not allocate. Returns the
 * row count of the second pass. */
static size_t scan_twice_counting(jet_db *db, const char *name)
{
    jet_allocator counting = { count_malloc, count_calloc, count_realloc,
                               NULL };
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *t;
    jet_scan *s;
    size_t rows = 0, before;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    /* first pass warms the cache slots and the scratch buffer */
    while (jet_scan_next(s) == JET_OK)
        for (uint16_t c = 0; c < t->ncols; c++) {
            jet_value v;
            ck_assert_int_eq(jet_scan_value(s, c, &v), JET_OK);
        }
    jet_scan_rewind(s);
    jet_alloc_set(&counting);
    before = n_allocs;
    while (jet_scan_next(s) == JET_OK) {
        rows++;
        for (uint16_t c = 0; c < t->ncols; c++) {
            jet_value v;
            ck_assert_int_eq(jet_scan_value(s, c, &v), JET_OK);
        }
    }
    jet_alloc_set(NULL);
    ck_assert_uint_eq(n_allocs - before, 0);
    jet_scan_close(s);
    return rows;
}

START_TEST(db_scan_allocates_nothing_per_row)
{
    const char *p = jet_test_fixture("mdbtestdata/nwind.mdb");
    jet_db *db;
    if (!p)
        return;   /* fixtures not present: nothing to check */
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    ck_assert_uint_eq(scan_twice_counting(db, "orders"), 830);
    /* memos and OLE pictures in long-value chains */
    ck_assert_uint_eq(scan_twice_counting(db, "Employees"), 9);
    jet_db_close(db);
}
END_TEST

/* failing allocator: the n-th allocation fails */
static long fail_at, n_calls;
static void *fail_malloc(size_t n)
{
    return ++n_calls == fail_at ? NULL : malloc(n ? n : 1);
}
static void *fail_calloc(size_t c, size_t n)
{
    return ++n_calls == fail_at ? NULL : calloc(c ? c : 1, n ? n : 1);
}
static void *fail_realloc(void *q, size_t n)
{
    return ++n_calls == fail_at ? NULL : realloc(q, n ? n : 1);
}

START_TEST(db_open_survives_every_failed_allocation)
{
    const char *p = jet_test_fixture("jackcess/V2003/testV2003.mdb");
    jet_allocator failing = { fail_malloc, fail_calloc, fail_realloc, NULL };
    if (!p)
        return;
    for (fail_at = 1; fail_at < 400; fail_at++) {
        jet_db *db = NULL;
        jet_rc rc;
        n_calls = 0;
        jet_alloc_set(&failing);
        rc = jet_db_open(&db, p, NULL, NULL);
        jet_alloc_set(NULL);
        ck_assert(rc == JET_OK || rc == JET_ENOMEM);
        jet_db_close(db);
        if (rc == JET_OK)
            break;
    }
}
END_TEST

START_TEST(db_open_encrypted_accdb_needs_the_password)
{
    static const char *files[] = { "jackcessencrypt/db2007-enc.accdb",
                                   "jackcessencrypt/db2007-oldenc.accdb" };
    for (size_t i = 0; i < 2; i++) {
        const char *p = jet_test_fixture(files[i]);
        jet_open_options good = { .password = "Test123" };
        jet_open_options bad = { .password = "wrong" };
        jet_db *db;
        jet_error err;
        if (!p)
            return;
        ck_assert_int_eq(jet_db_open(&db, p, NULL, &err), JET_EPASSWORD);
        ck_assert_int_eq(jet_db_open(&db, p, &bad, &err), JET_EPASSWORD);
        ck_assert_int_eq(jet_db_open(&db, p, &good, &err), JET_OK);
        ck_assert_ptr_nonnull(jet_catalog_find(db, "Table1"));
        jet_db_close(db);
    }
}
END_TEST

START_TEST(db_open_jet_rc4_encoded_mdb_without_password)
{
    const char *p = jet_test_fixture("jackcessencrypt/db97-enc.mdb");
    jet_db *db;
    const jet_object *o;
    const jet_tdef *t;
    jet_scan *s;
    int rows = 0;
    if (!p)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_db_version(db), JET_VER_3);
    o = jet_catalog_find(db, "Table1");
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while (jet_scan_next(s) == JET_OK)
        rows++;
    ck_assert_int_eq(rows, 2);
    jet_scan_close(s);
    jet_db_close(db);
}
END_TEST

START_TEST(db_open_plain_file_does_not_load_libcrypto)
{
    /* libcrypto is dlopen()ed for the first encrypted file only (issue 9):
     * this program does not link it, so it is absent until then */
    const char *p = jet_test_fixture("mdbtestdata/nwind.mdb");
    const char *fork_mode = getenv("CK_FORK");
    jet_db *db;
    if (!p || (fork_mode && strcmp(fork_mode, "no") == 0))
        return;   /* without fork an earlier test may have loaded it */
    ck_assert_ptr_null(dlopen(JET_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_NOLOAD));
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    ck_assert_ptr_nonnull(jet_catalog_find(db, "Orders"));
    ck_assert_ptr_null(dlopen(JET_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_NOLOAD));
    jet_db_close(db);
}
END_TEST

START_TEST(db_tdef_required_property_sets_flag)
{
    /* Required is a column property (MSysObjects LvProp), not TDEF bits:
     * nwind Categories.CategoryName is Required, CategoryID is not */
    const char *p = jet_test_fixture("mdbtestdata/nwind.mdb");
    jet_db *db;
    const jet_tdef *t;
    if (!p)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "Categories")),
                     JET_OK);
    int id = jet_tdef_find_column(t, "CategoryID");
    int name = jet_tdef_find_column(t, "CategoryName");
    ck_assert_int_ge(id, 0);
    ck_assert_int_ge(name, 0);
    ck_assert_uint_eq(t->cols[id].flags & JET_COL_REQUIRED, 0);
    ck_assert_uint_ne(t->cols[name].flags & JET_COL_REQUIRED, 0);
    jet_db_close(db);
}
END_TEST

static Suite *db_suite(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, db_open_empty_file_is_format_error);
    tcase_add_test(tc, db_open_text_file_is_format_error);
    tcase_add_test(tc, db_open_missing_file_is_io_error);
    tcase_add_test(tc, db_open_header_only_is_corrupt);
    tcase_add_test(tc, db_scan_allocates_nothing_per_row);
    tcase_add_test(tc, db_open_survives_every_failed_allocation);
    tcase_add_test(tc, db_open_encrypted_accdb_needs_the_password);
    tcase_add_test(tc, db_open_jet_rc4_encoded_mdb_without_password);
    tcase_add_test(tc, db_tdef_required_property_sets_flag);
    tcase_add_test(tc, db_open_plain_file_does_not_load_libcrypto);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(db_suite)
