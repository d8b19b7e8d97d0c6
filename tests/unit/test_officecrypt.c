/*
 * test_officecrypt.c - password-encrypted ACE files: ECMA-376 Standard
 * encryption made here (tests/stdencrypt.c), agile spin counts, hostile
 * encryption headers.
 *
 * No public file made by Access with Standard encryption exists in the
 * shared fixtures (jackcessencrypt holds agile and RC4 CryptoAPI files
 * only), so the Standard files are plain .accdb fixtures encrypted by the
 * test writer. Every decrypted page must equal the plain file's page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "crypto.h"
#include "pagebuild.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../stdencrypt.h"

#define PAGE 4096

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Write buf to a new temporary file; its name goes to path (64 bytes). */
static void spill(char *path, const uint8_t *buf, size_t len)
{
    int fd;
    FILE *f;
    snprintf(path, 64, "/tmp/jet_officecrypt_XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
}

/* Rows of every user table, summed. */
static size_t count_rows(jet_db *db)
{
    size_t rows = 0;
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_scan *s;
        if (o->kind != JET_OBJ_TABLE)
            continue;
        ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        while (jet_scan_next(s) == JET_OK)
            rows++;
        jet_scan_close(s);
    }
    return rows;
}

static const char *plain_accdb(void)
{
    return jet_test_fixture("jackcess/V2007/testV2007.accdb");
}

/* Encrypt the plain fixture with sp, open it with and without the password,
 * compare every page and the rows with the plain file. */
static void check_standard(const std_params *sp)
{
    const char *plain = plain_accdb();
    jet_open_options good = { .password = sp->password };
    jet_open_options bad = { .password = "not the password" };
    jet_db *pdb, *edb;
    jet_error err;
    char path[64];
    uint8_t *buf;
    size_t len, rows;

    if (!plain)
        return;
    buf = jet_test_slurp(plain, &len);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(len % PAGE, 0);
    std_encrypt(buf, len, sp);
    spill(path, buf, len);
    free(buf);

    ck_assert_int_eq(jet_db_open(&edb, path, NULL, &err), JET_EPASSWORD);
    ck_assert_int_eq(jet_db_open(&edb, path, &bad, &err), JET_EPASSWORD);
    ck_assert_int_eq(jet_db_open(&edb, path, &good, &err), JET_OK);
    ck_assert_int_eq(jet_db_open(&pdb, plain, NULL, &err), JET_OK);
    for (uint32_t pg = 1; pg < len / PAGE; pg++) {
        const uint8_t *a, *b;
        ck_assert_int_eq(jet_page_pin(pdb->pf, pg, &a, &err), JET_OK);
        ck_assert_int_eq(jet_page_pin(edb->pf, pg, &b, &err), JET_OK);
        ck_assert_msg(memcmp(a, b, PAGE) == 0, "page %u differs", pg);
        jet_page_unpin(pdb->pf, a);
        jet_page_unpin(edb->pf, b);
    }
    rows = count_rows(pdb);
    ck_assert_uint_gt(rows, 0);
    ck_assert_uint_eq(count_rows(edb), rows);
    jet_db_close(pdb);
    jet_db_close(edb);
    unlink(path);
}

START_TEST(officecrypt_standard_aes128_opens_with_password_only)
{
    std_params sp = { 0x660E, 128, 1, "Secret1" };
    check_standard(&sp);
}
END_TEST

START_TEST(officecrypt_standard_aes192_opens_with_password_only)
{
    std_params sp = { 0x660F, 192, 1, "s3cr3t" };
    check_standard(&sp);
}
END_TEST

START_TEST(officecrypt_standard_aes256_opens_with_password_only)
{
    std_params sp = { 0x6610, 256, 1, "Test123" };
    check_standard(&sp);
}
END_TEST

START_TEST(officecrypt_aes256_without_faes_flag_opens_with_password_only)
{
    /* the header issue 10 met: CryptoAPI, alg 0x6610, hash 0x8004, no fAES */
    std_params sp = { 0x6610, 256, 0, "Test123" };
    check_standard(&sp);
}
END_TEST

/* Encrypt the plain fixture, apply damage(info, info_len) to the
 * EncryptionInfo, open with the password and return the result. */
static jet_rc open_damaged_standard(void (*damage)(uint8_t *page0),
                                    jet_error *err)
{
    std_params sp = { 0x660E, 128, 1, "pw" };
    jet_open_options good = { .password = "pw" };
    const char *plain = plain_accdb();
    jet_db *db = NULL;
    char path[64];
    uint8_t *buf;
    size_t len;
    jet_rc rc;

    buf = jet_test_slurp(plain, &len);
    ck_assert_ptr_nonnull(buf);
    std_encrypt(buf, len, &sp);
    damage(buf);
    spill(path, buf, len);
    free(buf);
    rc = jet_db_open(&db, path, &good, err);
    jet_db_close(db);
    unlink(path);
    return rc;
}

static void huge_header_size(uint8_t *p0) { put32(p0 + 0x299 + 2 + 8, 0xFFFFFFF0u); }
static void tiny_header_size(uint8_t *p0) { put32(p0 + 0x299 + 2 + 8, 4); }
static void provider_past_page(uint8_t *p0) { p0[0x299] = 0xFF; p0[0x29A] = 0xFF; }
static void provider_cut_short(uint8_t *p0) { p0[0x299] = 100; p0[0x29A] = 0; }
static void salt_size_wrong(uint8_t *p0)
{
    uint32_t h = jet_get_u32(p0 + 0x299 + 2 + 8);
    put32(p0 + 0x299 + 2 + 12 + h, 4000);
}
static void key_size_wrong(uint8_t *p0) { put32(p0 + 0x299 + 2 + 12 + 16, 64); }
static void hash_md5(uint8_t *p0) { put32(p0 + 0x299 + 2 + 12 + 12, 0x8003); }

START_TEST(officecrypt_hostile_standard_headers_are_clear_errors)
{
    static const struct {
        void (*damage)(uint8_t *);
        jet_rc rc;
    } cases[] = {
        { huge_header_size, JET_ECORRUPT }, { tiny_header_size, JET_ECORRUPT },
        { provider_past_page, JET_ECORRUPT },
        { provider_cut_short, JET_ECORRUPT }, { salt_size_wrong, JET_ECORRUPT },
        { key_size_wrong, JET_EUNSUPPORTED }, { hash_md5, JET_EUNSUPPORTED },
    };
    jet_error err;
    if (!plain_accdb())
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jet_rc rc = open_damaged_standard(cases[i].damage, &err);
        ck_assert_msg(rc == cases[i].rc, "case %zu: rc %d (%s)", i, (int)rc,
                      err.msg);
        ck_assert(err.msg[0] != '\0');
    }
}
END_TEST

/* ------------------------------------------------------ agile headers */

/* Copy db2007-enc.accdb with the text `from` in its EncryptionInfo XML
 * replaced by `to` (the provider length adjusted); path gets the copy. */
static int agile_variant(char *path, const char *from, const char *to)
{
    const char *src = jet_test_fixture("jackcessencrypt/db2007-enc.accdb");
    uint8_t *buf;
    size_t len, plen, flen = strlen(from), tlen = strlen(to);
    uint8_t *xml, *hit = NULL;

    if (!src)
        return 0;
    buf = jet_test_slurp(src, &len);
    ck_assert_ptr_nonnull(buf);
    plen = jet_get_u16(buf + 0x299);
    xml = buf + 0x299 + 2;
    for (size_t i = 0; i + flen <= plen; i++)
        if (memcmp(xml + i, from, flen) == 0) {
            hit = xml + i;
            break;
        }
    ck_assert_ptr_nonnull(hit);
    ck_assert_uint_lt(0x299 + 2 + plen + tlen, PAGE);
    memmove(hit + tlen, hit + flen, (size_t)(xml + plen - (hit + flen)));
    memcpy(hit, to, tlen);
    plen = plen - flen + tlen;
    buf[0x299] = (uint8_t)plen;
    buf[0x29A] = (uint8_t)(plen >> 8);
    spill(path, buf, len);
    free(buf);
    return 1;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int deadline_passed(void *ctx)
{
    return mono_seconds() >= *(const double *)ctx;
}

START_TEST(officecrypt_agile_ten_million_spins_cost_one_chain_and_stop_at_deadline)
{
    jet_open_options bad = { .password = "wrong" };
    uint8_t h[JET_HASH_MAX] = { 0 };
    double t0, chain, open_cpu, deadline, start;
    jet_db *db = NULL;
    jet_error err;
    char path[64];

    if (!agile_variant(path, "spinCount=\"100000\"",
                       "spinCount=\"10000000\""))
        return;
    ck_assert_int_eq(jet_crypto_load(NULL), JET_OK);
    t0 = cpu_seconds();
    ck_assert_int_eq(jet_password_spin(JET_HASH_SHA1, h, 10000000, NULL, NULL),
                     JET_OK);
    chain = cpu_seconds() - t0;
    t0 = cpu_seconds();
    ck_assert_int_eq(jet_db_open(&db, path, &bad, &err), JET_EPASSWORD);
    open_cpu = cpu_seconds() - t0;
    printf("agile spinCount 10000000, wrong password: open %.2f s CPU, one "
           "SHA-1 chain %.2f s CPU\n", open_cpu, chain);
    ck_assert_msg(open_cpu < 1.5 * chain + 0.2,
                  "open took %.2f s for a %.2f s chain", open_cpu, chain);
    /* a 1 s deadline stops the derivation */
    start = mono_seconds();
    deadline = start + 1.0;
    bad.interrupt = deadline_passed;
    bad.interrupt_ctx = &deadline;
    if (chain > 1.2) {
        ck_assert_int_eq(jet_db_open(&db, path, &bad, &err),
                         JET_EINTERRUPTED);
        ck_assert(strstr(err.msg, "timeout") != NULL);
        ck_assert(mono_seconds() - start < 1.5);
    }
    unlink(path);
}
END_TEST

START_TEST(officecrypt_hostile_agile_descriptors_are_clear_errors)
{
    static const struct {
        const char *from, *to;
        jet_rc rc;
    } cases[] = {
        { "spinCount=\"100000\"", "spinCount=\"10000001\"", JET_EUNSUPPORTED },
        { "spinCount=\"100000\"", "spinCount=\"99999999999999999999\"",
          JET_EUNSUPPORTED },
        { "spinCount=\"100000\"", "spinCount=\"-1\"", JET_EUNSUPPORTED },
        { "spinCount=\"100000\"", "spinCount=\"1e9\"", JET_EUNSUPPORTED },
        { "keyBits=\"128\"", "keyBits=\"4096\"", JET_EUNSUPPORTED },
        { "saltValue=\"DpYj4WNbM6JWXkuaGykRtA==\"", "saltValue=\"!!\"",
          JET_EUNSUPPORTED },
        { "encryptedKeyValue=\"o0cj94OxoyHGQ6CDwqTdBg==\"",
          "encryptedKeyValue=\"AAAA\"", JET_EUNSUPPORTED },
        { "<keyData", "<kexData", JET_EUNSUPPORTED },
        /* the XML cut short inside the key encryptor */
        { "saltValue=\"x8auqBWNRtGDHQwze+aBVg==\" encryptedVerifierHashInput",
          "saltValue=\"x8a", JET_EUNSUPPORTED },
    };
    jet_open_options good = { .password = "Test123" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jet_db *db = NULL;
        jet_error err;
        char path[64];
        jet_rc rc;
        if (!agile_variant(path, cases[i].from, cases[i].to))
            return;
        rc = jet_db_open(&db, path, &good, &err);
        ck_assert_msg(rc == cases[i].rc, "case %zu: rc %d (%s)", i, (int)rc,
                      err.msg);
        ck_assert(err.msg[0] != '\0');
        unlink(path);
    }
}
END_TEST

START_TEST(officecrypt_agile_descriptor_truncated_at_every_length_fails_cleanly)
{
    const char *src = jet_test_fixture("jackcessencrypt/db2007-enc.accdb");
    jet_open_options good = { .password = "Test123" };
    uint8_t *buf;
    size_t len, plen, last_attr_end = 0;
    char path[64];
    if (!src)
        return;
    buf = jet_test_slurp(src, &len);
    ck_assert_ptr_nonnull(buf);
    plen = jet_get_u16(buf + 0x299);
    for (size_t i = 0x299 + 2; i + 20 < 0x299 + 2 + plen; i++)
        if (memcmp(buf + i, "encryptedKeyValue=\"", 19) == 0)
            last_attr_end = i - (0x299 + 2) + 19 + 24 + 1;
    ck_assert_uint_gt(last_attr_end, 0);
    spill(path, buf, len);
    for (size_t cut = 0; cut < plen; cut += 7) {
        FILE *f = fopen(path, "r+b");
        uint8_t n[2] = { (uint8_t)cut, (uint8_t)(cut >> 8) };
        jet_db *db = NULL;
        jet_error err;
        jet_rc rc;
        ck_assert_ptr_nonnull(f);
        fseek(f, 0x299, SEEK_SET);
        fwrite(n, 1, 2, f);
        fclose(f);
        rc = jet_db_open(&db, path, &good, &err);
        /* a cut after the last attribute's quote loses nothing needed */
        if (rc == JET_OK && cut >= last_attr_end) {
            jet_db_close(db);
            continue;
        }
        ck_assert_msg(rc < 0, "cut %zu opened", cut);
        ck_assert(err.msg[0] != '\0');
    }
    free(buf);
    unlink(path);
}
END_TEST

static Suite *officecrypt_suite(void)
{
    Suite *s = suite_create("officecrypt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, officecrypt_standard_aes128_opens_with_password_only);
    tcase_add_test(tc, officecrypt_standard_aes192_opens_with_password_only);
    tcase_add_test(tc, officecrypt_standard_aes256_opens_with_password_only);
    tcase_add_test(tc,
                   officecrypt_aes256_without_faes_flag_opens_with_password_only);
    tcase_add_test(tc, officecrypt_hostile_standard_headers_are_clear_errors);
    tcase_add_test(tc,
        officecrypt_agile_ten_million_spins_cost_one_chain_and_stop_at_deadline);
    tcase_add_test(tc, officecrypt_hostile_agile_descriptors_are_clear_errors);
    tcase_add_test(tc,
        officecrypt_agile_descriptor_truncated_at_every_length_fails_cleanly);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(officecrypt_suite)
