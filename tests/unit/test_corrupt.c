/*
 * test_corrupt.c - damaged copies of the shared fixtures (seeded byte
 * flips in the catalog, tdef and data pages, and truncations) open and
 * scan to an error or to the end, never a crash or hang. Skips when the
 * fixtures are absent. Run the sanitizer build to catch memory errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "../shared_dir.h"
#include "jet.h"


static uint32_t rng_state;

static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
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
    orig = slurp(src, &len);
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

static Suite *corrupt_suite(void)
{
    Suite *s = suite_create("corrupt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, corrupt_jet3_files_fail_cleanly);
    tcase_add_test(tc, corrupt_jet4_files_fail_cleanly);
    tcase_add_test(tc, corrupt_ace_files_fail_cleanly);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(corrupt_suite)
