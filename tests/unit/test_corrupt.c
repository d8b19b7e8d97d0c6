/*
 * test_corrupt.c - damaged copies of the shared fixtures (seeded byte
 * flips in the catalog, tdef and data pages, and truncations) open and
 * scan to an error or to the end, never a crash or hang. Whole damaged
 * pages (zeros, random bytes, another table's page) in a table's usage map
 * or an index's tree stop the scan or walk with JET_ECORRUPT naming the
 * page and the table. Skips when the
 * fixtures are absent. Run the sanitizer build to catch memory errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "jet.h"


static uint32_t rng_state;

static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static bool allowed(jet_rc rc)
{
    return rc == JET_OK || rc == JET_DONE || rc == JET_ECORRUPT ||
           rc == JET_ELIMIT || rc == JET_EFORMAT || rc == JET_EUNSUPPORTED ||
           rc == JET_ENOTFOUND || rc == JET_EIO;
}

/* Open, then read every value of every table; returns false on a code
 * outside the allowed set or an error without a message. */
static bool read_all(const char *path)
{
    jet_db *db;
    jet_error err;
    jet_rc rc = jet_db_open(&db, path, NULL, &err);
    if (rc != JET_OK)
        return allowed(rc) && err.msg[0] != '\0';
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_scan *s;
        if (o->kind != JET_OBJ_TABLE)
            continue;
        rc = jet_tdef_load(&t, db, o);
        if (rc != JET_OK) {
            if (!allowed(rc) || !jet_db_error(db)->msg[0])
                return false;
            continue;
        }
        if (jet_scan_open(&s, db, t, NULL) != JET_OK)
            return false;
        while ((rc = jet_scan_next(s)) == JET_OK)
            for (uint16_t c = 0; c < t->ncols; c++) {
                jet_value v;
                jet_rc vr = jet_scan_value(s, c, &v);
                if (!allowed(vr))
                    return false;
            }
        if (!allowed(rc) || (rc < 0 && !jet_scan_error(s)->msg[0])) {
            jet_scan_close(s);
            return false;
        }
        jet_scan_close(s);
    }
    jet_db_close(db);
    return true;
}

static void mutate_file(const char *rel, uint32_t seed, int rounds)
{
    char src[1024], path[64];
    size_t len;
    uint8_t *orig, *buf;
    snprintf(src, sizeof src, "%s/fixtures/public/%s", jet_shared_dir(), rel);
    orig = jet_test_slurp(src, &len);
    if (!orig)
        return;   /* fixtures absent */
    buf = malloc(len);
    ck_assert_ptr_nonnull(buf);
    rng_state = seed;
    for (int r = 0; r < rounds; r++) {
        size_t ps = orig[0x14] == 0 ? 2048 : 4096, n = len;
        int flips = 1 + (int)(rng() % 16);
        FILE *f;
        int fd;
        memcpy(buf, orig, len);
        for (int k = 0; k < flips; k++) {
            size_t pg = rng() % 4 == 0 ? rng() % (len / ps) : 1 + rng() % 2;
            size_t off = pg * ps + rng() % ps;
            if (off < len)
                buf[off] = (uint8_t)rng();
        }
        if (rng() % 10 == 0)
            n = rng() % len;
        snprintf(path, sizeof path, "/tmp/jet_corrupt_XXXXXX");
        fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        f = fdopen(fd, "wb");
        ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
        fclose(f);
        if (!read_all(path))
            ck_abort_msg("%s round %d (seed %u): bad result", rel, r, seed);
        unlink(path);
    }
    free(buf);
    free(orig);
}

START_TEST(corrupt_jet3_files_fail_cleanly)
{
    mutate_file("jackcess/V1997/overflowTestV1997.mdb", 1, 150);
    mutate_file("jackcess/V1997/testV1997.mdb", 2, 150);
}
END_TEST

START_TEST(corrupt_jet4_files_fail_cleanly)
{
    mutate_file("jackcess/V2003/testV2003.mdb", 3, 150);
    mutate_file("jackcess/V2003/testUnicodeCompV2003.mdb", 4, 150);
    mutate_file("jackcessencrypt/db-enc.mdb", 5, 100);
}
END_TEST

START_TEST(corrupt_ace_files_fail_cleanly)
{
    mutate_file("jackcess/V2010/calcFieldTestV2010.accdb", 6, 150);
    mutate_file("jackcess/V2007/complexDataTestV2007.accdb", 7, 100);
}
END_TEST

/* ------------------------------------------- whole damaged pages */

#define NWIND_PAGE 2048
#define ORDERS_PAGE 525      /* a data page of nwind.mdb's Orders */

/* nwind.mdb with page pgno replaced by repl (NWIND_PAGE bytes), written to
 * a temporary file named in path (64 bytes); false when absent. */
static bool nwind_with_page(char *path, uint32_t pgno, const uint8_t *repl)
{
    char src[1024];
    size_t len;
    uint8_t *buf;
    FILE *f;
    int fd;
    snprintf(src, sizeof src, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    if (!(buf = jet_test_slurp(src, &len)))
        return false;
    ck_assert_uint_gt(len, (size_t)(pgno + 1) * NWIND_PAGE);
    memcpy(buf + (size_t)pgno * NWIND_PAGE, repl, NWIND_PAGE);
    snprintf(path, 64, "/tmp/jet_corrupt_XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
    return true;
}

/* Page pgno of the plain nwind.mdb into out. */
static bool nwind_page(uint8_t *out, uint32_t pgno)
{
    char src[1024];
    size_t len;
    uint8_t *buf;
    snprintf(src, sizeof src, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    if (!(buf = jet_test_slurp(src, &len)))
        return false;
    memcpy(out, buf + (size_t)pgno * NWIND_PAGE, NWIND_PAGE);
    free(buf);
    return true;
}

/* The data page of table's first row, in the plain nwind.mdb. */
static uint32_t first_data_page(const char *table)
{
    char src[1024];
    jet_db *db;
    const jet_tdef *t;
    jet_scan *s;
    uint32_t pgno = 0;
    uint16_t row;
    snprintf(src, sizeof src, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    ck_assert_int_eq(jet_db_open(&db, src, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, table)),
                     JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_scan_next(s), JET_OK);
    ck_assert_int_eq(jet_scan_position(s, &pgno, &row), JET_OK);
    jet_scan_close(s);
    jet_db_close(db);
    return pgno;
}

/* Scan Orders in path: the scan must stop with JET_ECORRUPT at page 525,
 * its message naming the page and the table; returns the rows before. */
static int scan_orders_expect_damage(const char *path)
{
    jet_db *db;
    const jet_tdef *t;
    jet_scan *s;
    jet_rc rc;
    int rows = 0;
    char want[32];
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "Orders")),
                     JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while ((rc = jet_scan_next(s)) == JET_OK)
        rows++;
    ck_assert_msg(rc == JET_ECORRUPT, "scan ended with %d after %d rows",
                  (int)rc, rows);
    ck_assert_uint_eq(jet_scan_error(s)->pgno, ORDERS_PAGE);
    snprintf(want, sizeof want, "page %u", ORDERS_PAGE);
    ck_assert_msg(strstr(jet_scan_error(s)->msg, want) &&
                  strstr(jet_scan_error(s)->msg, "Orders"),
                  "message: %s", jet_scan_error(s)->msg);
    jet_scan_close(s);
    jet_db_close(db);
    return rows;
}

START_TEST(corrupt_orders_data_page_zeroed_random_or_foreign_is_an_error)
{
    uint8_t page[NWIND_PAGE];
    char path[64];
    uint32_t foreign;

    /* zeros */
    memset(page, 0, sizeof page);
    if (!nwind_with_page(path, ORDERS_PAGE, page))
        return;
    ck_assert_int_lt(scan_orders_expect_damage(path), 830);
    unlink(path);
    /* random bytes, several seeds (the type byte may even be 0x01) */
    for (uint32_t seed = 1; seed <= 8; seed++) {
        rng_state = seed;
        for (size_t i = 0; i < sizeof page; i++)
            page[i] = (uint8_t)rng();
        if (seed == 8)
            page[0] = 0x01;
        ck_assert(nwind_with_page(path, ORDERS_PAGE, page));
        scan_orders_expect_damage(path);
        unlink(path);
    }
    /* another table's data page (Customers) */
    foreign = first_data_page("Customers");
    ck_assert_uint_ne(foreign, ORDERS_PAGE);
    ck_assert(nwind_page(page, foreign));
    ck_assert(nwind_with_page(path, ORDERS_PAGE, page));
    scan_orders_expect_damage(path);
    unlink(path);
    /* its own page claiming impossible row count or free space */
    ck_assert(nwind_page(page, ORDERS_PAGE));
    page[8] = 0xFF;           /* Jet3 row count: 0x..FF rows */
    page[9] = 0x7F;
    ck_assert(nwind_with_page(path, ORDERS_PAGE, page));
    scan_orders_expect_damage(path);
    unlink(path);
    ck_assert(nwind_page(page, ORDERS_PAGE));
    page[2] = 0xF0;           /* free space 0x07F0 = 2032 bytes */
    page[3] = 0x07;
    ck_assert(nwind_with_page(path, ORDERS_PAGE, page));
    scan_orders_expect_damage(path);
    unlink(path);
}
END_TEST

/* Walk index ix_name of table in path to its end; returns the final rc and
 * copies the error message into msg (256 bytes). */
static jet_rc walk_index(const char *path, const char *table,
                         const char *ix_name, char *msg, uint32_t *pgno)
{
    jet_db *db;
    const jet_tdef *t;
    jet_index_cursor *c;
    uint32_t p;
    uint16_t r;
    jet_rc rc;
    uint16_t k;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, table)),
                     JET_OK);
    for (k = 0; k < t->nindexes; k++)
        if (strcmp(t->indexes[k].name, ix_name) == 0)
            break;
    ck_assert_uint_lt(k, t->nindexes);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, k), JET_OK);
    while ((rc = jet_index_next(c, &p, &r)) == JET_OK)
        ;
    snprintf(msg, 256, "%s", jet_index_error(c)->msg);
    *pgno = jet_index_error(c)->pgno;
    jet_index_cursor_close(c);
    jet_db_close(db);
    return rc;
}

/* Root page of index ix_name of table in the plain nwind.mdb. */
static uint32_t index_root(const char *table, const char *ix_name)
{
    char src[1024];
    jet_db *db;
    const jet_tdef *t;
    uint32_t root = 0;
    snprintf(src, sizeof src, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    ck_assert_int_eq(jet_db_open(&db, src, NULL, NULL), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, table)),
                     JET_OK);
    for (uint16_t k = 0; k < t->nindexes; k++)
        if (strcmp(t->indexes[k].name, ix_name) == 0)
            root = t->indexes[k].first_pgno;
    jet_db_close(db);
    ck_assert_uint_ne(root, 0);
    return root;
}

START_TEST(corrupt_orders_index_page_damage_is_an_error_naming_page_and_table)
{
    uint8_t page[NWIND_PAGE];
    char path[64], src[1024], msg[256], want[32];
    uint32_t root, foreign, at;
    jet_rc rc;

    snprintf(src, sizeof src, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    if (access(src, R_OK) != 0)
        return;
    root = index_root("Orders", "PrimaryKey");
    foreign = index_root("Customers", "PrimaryKey");
    /* the plain file walks to the end */
    ck_assert_int_eq(walk_index(src, "Orders", "PrimaryKey", msg, &at),
                     JET_DONE);
    snprintf(want, sizeof want, "page %u", root);
    for (int variant = 0; variant < 4; variant++) {
        switch (variant) {
        case 0:   /* zeros: not an index page */
            memset(page, 0, sizeof page);
            break;
        case 1:   /* another table's index root */
            ck_assert(nwind_page(page, foreign));
            break;
        case 2:   /* every entry-mask bit set: entries of one byte */
            ck_assert(nwind_page(page, root));
            memset(page + 22, 0xFF, 226);
            break;
        default:  /* random bytes with a leaf type byte and the owner */
            rng_state = 99;
            for (size_t i = 0; i < sizeof page; i++)
                page[i] = (uint8_t)rng();
            ck_assert(nwind_page(page, root));
            for (size_t i = 22; i < sizeof page; i++)
                page[i] = (uint8_t)rng();
            break;
        }
        ck_assert(nwind_with_page(path, root, page));
        rc = walk_index(path, "Orders", "PrimaryKey", msg, &at);
        ck_assert_msg(rc == JET_ECORRUPT, "variant %d: rc %d", variant,
                      (int)rc);
        ck_assert_uint_eq(at, root);
        ck_assert_msg(strstr(msg, want) != NULL, "variant %d: %s", variant,
                      msg);
        if (variant < 2)
            ck_assert_msg(strstr(msg, "Orders") != NULL, "variant %d: %s",
                          variant, msg);
        unlink(path);
    }
}
END_TEST

static Suite *corrupt_suite(void)
{
    Suite *s = suite_create("corrupt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, corrupt_jet3_files_fail_cleanly);
    tcase_add_test(tc, corrupt_jet4_files_fail_cleanly);
    tcase_add_test(tc, corrupt_ace_files_fail_cleanly);
    tcase_add_test(tc,
        corrupt_orders_data_page_zeroed_random_or_foreign_is_an_error);
    tcase_add_test(tc,
        corrupt_orders_index_page_damage_is_an_error_naming_page_and_table);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(corrupt_suite)
