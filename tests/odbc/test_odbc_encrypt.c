/*
 * test_odbc_encrypt.c - encrypted files through the driver manager: a
 * Standard-encrypted copy of a fixture (made by tests/stdencrypt.c) opens
 * with PWD= and gives 28000 without it; SQL_ATTR_LOGIN_TIMEOUT stops a
 * long password key derivation with HYT00.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "odbctest.h"
#include "../slurp.h"
#include "../stdencrypt.h"

static SQLHENV env;
static SQLHDBC dbc;

/* Write buf as name in the test's temporary directory; returns the path
 * (static). */
static const char *spill(const char *name, const uint8_t *buf, size_t len)
{
    static char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", odbct_tmpdir(), name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    return path;
}

/* SQLDriverConnect with connstr; returns its SQLRETURN. */
static SQLRETURN try_connect(const char *connstr)
{
    return SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                            NULL, SQL_DRIVER_NOPROMPT);
}

START_TEST(standard_encrypted_accdb_opens_with_pwd_and_is_28000_without)
{
    static const std_params sp = { 0x6610, 256, 1, "Access2007" };
    const char *plain = odbct_fixture("jackcess/V2007/testV2007.accdb");
    char cs[1200];
    const char *path;
    uint8_t *buf;
    size_t len;
    SQLHSTMT st;
    int rows = 0;

    buf = jet_test_slurp(plain, &len);
    ck_assert_ptr_nonnull(buf);
    std_encrypt(buf, len, &sp);
    path = spill("standard.accdb", buf, len);
    free(buf);

    odbct_alloc_dbc(&env, &dbc);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    ck_assert_int_eq(try_connect(cs), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "28000");
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;PWD=wrong;", path);
    ck_assert_int_eq(try_connect(cs), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "28000");
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;PWD=Access2007;", path);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, try_connect(cs));
    st = odbct_exec(dbc, "SELECT * FROM Table1");
    while (SQL_SUCCEEDED(SQLFetch(st)))
        rows++;
    ck_assert_int_gt(rows, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    odbct_free_dbc(env, dbc);
}
END_TEST

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A copy of db2007-enc.accdb whose agile spinCount is 10,000,000. */
static const char *ten_million_spin_copy(void)
{
    const char *src = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    static const char from[] = "spinCount=\"100000\"";
    static const char to[] = "spinCount=\"10000000\"";
    uint8_t *buf, *xml, *hit = NULL;
    size_t len, plen;
    const char *path;

    buf = jet_test_slurp(src, &len);
    ck_assert_ptr_nonnull(buf);
    plen = (size_t)buf[0x299] | (size_t)buf[0x29A] << 8;
    xml = buf + 0x29B;
    for (size_t i = 0; i + sizeof from - 1 <= plen; i++)
        if (memcmp(xml + i, from, sizeof from - 1) == 0) {
            hit = xml + i;
            break;
        }
    ck_assert_ptr_nonnull(hit);
    memmove(hit + sizeof to - 1, hit + sizeof from - 1,
            (size_t)(xml + plen - (hit + sizeof from - 1)));
    memcpy(hit, to, sizeof to - 1);
    plen += sizeof to - sizeof from;
    buf[0x299] = (uint8_t)plen;
    buf[0x29A] = (uint8_t)(plen >> 8);
    path = spill("spin10m.accdb", buf, len);
    free(buf);
    return path;
}

START_TEST(login_timeout_stops_a_ten_million_spin_key_derivation)
{
    char cs[1200];
    double t0, took;
    const char *path = ten_million_spin_copy();

    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)1, 0));
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;PWD=wrong;", path);
    t0 = mono_seconds();
    SQLRETURN rc = try_connect(cs);
    took = mono_seconds() - t0;
    printf("spinCount 10000000, login timeout 1 s: %s after %.2f s\n",
           odbct_state(SQL_HANDLE_DBC, dbc), took);
    ck_assert_int_eq(rc, SQL_ERROR);
    /* a chain shorter than 1 s (fast machine) ends in 28000 instead */
    if (strcmp(odbct_state(SQL_HANDLE_DBC, dbc), "28000") != 0) {
        ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "HYT00");
        ck_assert(took < 1.8);
    }
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(agile_file_still_opens_with_its_password)
{
    char cs[1200];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;PWD=Test123;",
             odbct_fixture("jackcessencrypt/db2007-enc.accdb"));
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)30,
                               0));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, try_connect(cs));
    SQLDisconnect(dbc);
    odbct_free_dbc(env, dbc);
}
END_TEST

static Suite *encrypt_suite(void)
{
    Suite *s = suite_create("odbc_encrypt");
    TCase *tc = tcase_create("encrypt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc,
                   standard_encrypted_accdb_opens_with_pwd_and_is_28000_without);
    tcase_add_test(tc, login_timeout_stops_a_ten_million_spin_key_derivation);
    tcase_add_test(tc, agile_file_still_opens_with_its_password);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(encrypt_suite)
