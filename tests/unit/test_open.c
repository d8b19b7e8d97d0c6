/*
 * test_open.c - what a new user meets first: opening things that are not
 * databases (FIFO, directory, device, socket) without hanging, truncated
 * copies reported as damaged (naming the file) instead of silently
 * missing tables, and names found case-insensitively beyond ASCII.
 */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "internal.h"
#include "os.h"
#include "unit.h"
#include "../shared_dir.h"


static char dir[64];
static char path[128];

/* A fresh scratch directory; path becomes dir/name. */
static void scratch(const char *name)
{
    snprintf(dir, sizeof dir, "/tmp/jet_open_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s", dir, name);
}

static void scratch_done(void)
{
    unlink(path);
    rmdir(path);
    rmdir(dir);
}

/* Open must fail with JET_EFORMAT "'<p>' is not a regular file (<kind>)". */
static void expect_not_regular(const char *p, const char *kind)
{
    jet_db *db = (jet_db *)1;
    jet_error err;
    char want[256];
    ck_assert_int_eq(jet_db_open(&db, p, NULL, &err), JET_EFORMAT);
    ck_assert_ptr_null(db);
    ck_assert_int_eq(err.rc, JET_EFORMAT);
    snprintf(want, sizeof want, "'%s' is not a regular file (%s)", p, kind);
    ck_assert_str_eq(err.msg, want);
}

START_TEST(open_fifo_fails_at_once_instead_of_hanging)
{
    scratch("f.mdb");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    expect_not_regular(path, "a FIFO");   /* the tcase timeout catches a hang */
    scratch_done();
}
END_TEST

START_TEST(open_fifo_through_pagefile_is_not_regular)
{
    jet_pagefile *pf = (jet_pagefile *)1;
    jet_error err;
    scratch("f.mdb");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(jet_pagefile_open(&pf, path, 0, &err), JET_EFORMAT);
    ck_assert_ptr_null(pf);
    scratch_done();
}
END_TEST

START_TEST(open_directory_says_it_is_a_directory)
{
    scratch("dir.mdb");
    ck_assert_int_eq(mkdir(path, 0700), 0);
    expect_not_regular(path, "a directory");
    scratch_done();
}
END_TEST

START_TEST(open_character_device_is_refused)
{
    if (access("/dev/zero", F_OK) != 0)
        return;
    expect_not_regular("/dev/zero", "a character device");
}
END_TEST

START_TEST(open_socket_is_refused)
{
    struct sockaddr_un sa;
    int fd;
    scratch("s.mdb");
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    ck_assert_uint_lt(strlen(path), sizeof sa.sun_path);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    expect_not_regular(path, "a socket");
    close(fd);
    scratch_done();
}
END_TEST

START_TEST(open_missing_file_names_it)
{
    jet_db *db;
    jet_error err;
    ck_assert_int_eq(jet_db_open(&db, "/nonexistent/x.mdb", NULL, &err),
                     JET_EIO);
    ck_assert_str_eq(err.msg, "cannot open '/nonexistent/x.mdb': "
                              "No such file or directory");
}
END_TEST

START_TEST(os_open_follows_symlink_and_clears_nonblock)
{
    char target[160];
    const char *kind = "unset";
    int fd = -1;
    FILE *f;
    scratch("link.mdb");
    snprintf(target, sizeof target, "%s/real", dir);
    f = fopen(target, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("x", f);
    fclose(f);
    ck_assert_int_eq(symlink(target, path), 0);
    ck_assert_int_eq(jet_os_open(&fd, path, &kind), 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_ptr_null(kind);
    /* O_NONBLOCK was cleared after the open */
    ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    close(fd);
    unlink(target);
    scratch_done();
}
END_TEST

/* ---------------------------------------------------- truncated copies */

/* Copy the first n bytes of src to path (in a scratch dir). */
static void copy_head(const char *src, size_t n)
{
    static char buf[1 << 16];
    FILE *in = fopen(src, "rb"), *out;
    scratch("cut.mdb");
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    while (n > 0) {
        size_t want = n < sizeof buf ? n : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        ck_assert_uint_gt(got, 0);
        ck_assert_uint_eq(fwrite(buf, 1, got, out), got);
        n -= got;
    }
    fclose(in);
    fclose(out);
}

START_TEST(open_truncated_catalog_is_damaged_and_names_the_file)
{
    /* nwind.mdb cut to 100000 bytes (48 Jet3 pages): MSysObjects owns
     * page 548. It used to open with no tables at all. */
    const char *src = jet_test_fixture("mdbtestdata/nwind.mdb");
    jet_db *db = (jet_db *)1;
    jet_error err;
    char want[256];
    if (!src)
        return;
    copy_head(src, 100000);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_ECORRUPT);
    ck_assert_ptr_null(db);
    ck_assert_uint_eq(err.pgno, 548);
    snprintf(want, sizeof want, "damaged file '%s': page 548, listed in "
             "the usage map on page 6, is past the end of the file "
             "(48 pages)", path);
    ck_assert_str_eq(err.msg, want);
    scratch_done();
}
END_TEST

START_TEST(open_file_cut_inside_the_header_area_is_damaged)
{
    /* head -c 16384: 8 pages; the catalog's pages are gone */
    const char *src = jet_test_fixture("mdbtestdata/nwind.mdb");
    jet_db *db;
    jet_error err;
    if (!src)
        return;
    copy_head(src, 16384);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_ECORRUPT);
    ck_assert(strncmp(err.msg, "damaged file '", 14) == 0);
    ck_assert(strstr(err.msg, "past the end of the file (8 pages)") != NULL);
    scratch_done();
}
END_TEST

START_TEST(truncated_table_fails_when_loaded_not_silently_empty)
{
    /* cut to 1500000 bytes (732 pages): the catalog is intact, but
     * Umsätze's pages are gone: its load fails instead of showing 0 rows,
     * while a table whose pages all survive still reads */
    const char *src = jet_test_fixture("mdbtestdata/nwind.mdb");
    const jet_tdef *t;
    jet_db *db;
    if (!src)
        return;
    copy_head(src, 1500000);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "Umsätze")),
                     JET_ECORRUPT);
    ck_assert(strstr(jet_db_error(db)->msg, "past the end of the file "
                                            "(732 pages)") != NULL);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db,
                                                            "Categories")),
                     JET_OK);
    jet_db_close(db);
    scratch_done();
}
END_TEST

/* ----------------------------------------------- case-insensitive names */

START_TEST(names_fold_beyond_ascii)
{
    ck_assert(jet_name_equal_ci("UMSÄTZE", "Umsätze"));
    ck_assert(jet_name_equal_ci("umsätze", "UMSÄTZE"));
    ck_assert(jet_name_equal_ci("ÉTÉ", "été"));
    ck_assert(jet_name_equal_ci("ŁÓDŹ", "łódź"));           /* Latin Ext-A */
    ck_assert(jet_name_equal_ci("ΑΘΗΝΑ", "αθηνα"));          /* Greek */
    ck_assert(jet_name_equal_ci("МОСКВА", "москва"));        /* Cyrillic */
    ck_assert(jet_name_equal_ci("ЁЖ", "ёж"));
    ck_assert(jet_name_equal_ci("Orders", "ORDERS"));
    ck_assert(jet_name_equal_ci("", ""));
    ck_assert_uint_eq(jet_name_fold(0xC4), 0xE4);            /* Ä -> ä */
    ck_assert_uint_eq(jet_name_fold('Q'), 'q');
    ck_assert_uint_eq(jet_name_fold('1'), '1');
}
END_TEST

START_TEST(names_fold_every_script_where_c_utf8_exists)
{
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (l == (locale_t)0)
        return;   /* built-in table only: Latin, Greek, Cyrillic */
    freelocale(l);
    ck_assert_uint_eq(jet_name_fold(0x531), 0x561);   /* Armenian */
    ck_assert_uint_eq(jet_name_fold(0x10A0), 0x2D00); /* Georgian */
    ck_assert_uint_eq(jet_name_fold(0x17F), 's');     /* long s */
    ck_assert(jet_name_equal_ci("ΣΟΦΟΣ", "σοφος"));   /* final sigma */
}
END_TEST

START_TEST(names_differing_beyond_case_stay_different)
{
    ck_assert(!jet_name_equal_ci("Umsätze", "Umsatze"));
    ck_assert(!jet_name_equal_ci("abc", "abcd"));
    ck_assert(!jet_name_equal_ci("abcd", "abc"));
    ck_assert(!jet_name_equal_ci("a", ""));
    ck_assert(!jet_name_equal_ci(NULL, "a"));
    ck_assert(!jet_name_equal_ci("a", NULL));
    /* malformed UTF-8: a stray byte equals only itself, never a letter */
    ck_assert(jet_name_equal_ci("x\xC4", "X\xC4"));
    ck_assert(!jet_name_equal_ci("\xC4", "\xE4"));
    ck_assert(!jet_name_equal_ci("\xC4", "ä"));
    ck_assert(!jet_name_equal_ci("\xC3", "\xC3\xA4"));
    /* overlong encoding of 'A' is not 'a' */
    ck_assert(!jet_name_equal_ci("\xC1\x81", "a"));
}
END_TEST

START_TEST(tdef_find_column_folds_beyond_ascii)
{
    static const jet_column cols[] = {
        { .name = "ID", .type = JET_T_LONG },
        { .name = "Umsätze", .type = JET_T_MONEY },
        { .name = "Größe", .type = JET_T_TEXT },
    };
    jet_tdef t = { .name = "T", .ncols = 3, .cols = cols };
    ck_assert_int_eq(jet_tdef_find_column(&t, "id"), 0);
    ck_assert_int_eq(jet_tdef_find_column(&t, "UMSÄTZE"), 1);
    ck_assert_int_eq(jet_tdef_find_column(&t, "GRÖßE"), 2);
    ck_assert_int_eq(jet_tdef_find_column(&t, "Grosse"), -1);
    ck_assert_int_eq(jet_tdef_find_column(&t, NULL), -1);
}
END_TEST

START_TEST(catalog_find_folds_beyond_ascii)
{
    const char *p = jet_test_fixture("mdbtestdata/nwind.mdb");
    const jet_object *o;
    jet_db *db;
    if (!p)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    o = jet_catalog_find(db, "UMSÄTZE");
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(o->name, "Umsätze");
    ck_assert_ptr_eq(jet_catalog_find(db, "umsätze"), o);
    ck_assert_ptr_null(jet_catalog_find(db, "UMSATZE"));
    jet_db_close(db);
}
END_TEST

START_TEST(column_find_folds_beyond_ascii_in_a_real_file)
{
    const char *p = jet_test_fixture("jackcess/V2007/odbcLinkerTestV2007.accdb");
    const jet_tdef *t;
    jet_db *db;
    int c;
    if (!p)
        return;
    ck_assert_int_eq(jet_db_open(&db, p, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "LOKAL")),
                     JET_OK);
    c = jet_tdef_find_column(t, "ANVÄNDARE");
    ck_assert_int_ge(c, 0);
    ck_assert_str_eq(t->cols[c].name, "Användare");
    jet_db_close(db);
}
END_TEST

static Suite *open_suite(void)
{
    Suite *s = suite_create("open");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, open_fifo_fails_at_once_instead_of_hanging);
    tcase_add_test(tc, open_fifo_through_pagefile_is_not_regular);
    tcase_add_test(tc, open_directory_says_it_is_a_directory);
    tcase_add_test(tc, open_character_device_is_refused);
    tcase_add_test(tc, open_socket_is_refused);
    tcase_add_test(tc, open_missing_file_names_it);
    tcase_add_test(tc, os_open_follows_symlink_and_clears_nonblock);
    tcase_add_test(tc, open_truncated_catalog_is_damaged_and_names_the_file);
    tcase_add_test(tc, open_file_cut_inside_the_header_area_is_damaged);
    tcase_add_test(tc, truncated_table_fails_when_loaded_not_silently_empty);
    tcase_add_test(tc, names_fold_beyond_ascii);
    tcase_add_test(tc, names_fold_every_script_where_c_utf8_exists);
    tcase_add_test(tc, names_differing_beyond_case_stay_different);
    tcase_add_test(tc, tdef_find_column_folds_beyond_ascii);
    tcase_add_test(tc, catalog_find_folds_beyond_ascii);
    tcase_add_test(tc, column_find_folds_beyond_ascii_in_a_real_file);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(open_suite)
