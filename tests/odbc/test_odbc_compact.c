/*
 * test_odbc_compact.c - COMPACT_DB=src dst in a connection string
 * (Microsoft's keyword; jet_db_compact): the compacted file is connected
 * to when no DBQ is given; saved queries of queryTestV2003.mdb and
 * queryTestV2007.accdb run on it and give the rows they give on the
 * source; `jetcheck verify` passes; the source is byte for byte
 * unchanged. With PWD an encrypted fixture compacts into a file that
 * opens with the same password only. Refused: an existing dst (08001,
 * unchanged), one path (08001), an Access 97 source (HYC00), a wrong
 * password (28000): nothing written.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "odbcwrite.h"

/* Connect with COMPACT_DB=value (and extra keys); the result, and a
 * failure's state and message in st/msg. */
static SQLRETURN connect_compact(const char *value, const char *extra,
                                 SQLHENV *env, SQLHDBC *dbc, char *st,
                                 char *msg)
{
    char cs[4400];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};COMPACT_DB=%s;%s", value,
             extra ? extra : "");
    return odbct_try_connect(cs, env, dbc, st, msg);
}

static const char *const fixtures[] = {
    "jackcess/V2003/queryTestV2003.mdb",
    "jackcess/V2007/queryTestV2007.accdb",
};

START_TEST(compact_db_then_saved_queries)
{
    char dst[1024], value[2400], st[16], msg[512], src[1024];
    static char a[1 << 16], b[1 << 16];
    size_t n0 = 0;
    uint8_t *before;
    SQLHENV env, env2;
    SQLHDBC dbc, dbc2;

    /* the fixture's tables are empty: rows for its queries first */
    odbct_copy_fixture(fixtures[_i], "rows", src, sizeof src);
    odbct_connect_file(&env, &dbc, src, NULL);
    for (int t = 1; t <= 3; t++)
        for (int r = 0; r < 3; r++) {
            char sql[200];
            /* r 0: the row SelectQuery's joins and filter find */
            if (r == 0)
                snprintf(sql, sizeof sql, "INSERT INTO Table%d VALUES "
                         "('foo', 'foo', 'w%d')", t, t);
            else
                snprintf(sql, sizeof sql, "INSERT INTO Table%d VALUES "
                         "('k%d', 'v%d', 'w%d')", t, r, r * t, r + t);
            odbct_exec_rows(dbc, sql, 1);
        }
    odbct_disconnect(env, dbc);
    before = jet_test_slurp(src, &n0);

    snprintf(dst, sizeof dst, "%s/compact %d%s", odbct_tmpdir(), _i,
             strrchr(src, '.'));
    unlink(dst);
    snprintf(value, sizeof value, "\"%s\" \"%s\"", src, dst);
    ck_assert_msg(SQL_SUCCEEDED(connect_compact(value, NULL, &env, &dbc, st,
                                                msg)), "%s %s", st, msg);
    odbct_connect_file(&env2, &dbc2, src, NULL);
    static const char *const sql[] = {
        "SELECT * FROM SelectQuery", "SELECT * FROM Table1 ORDER BY 1",
        "SELECT COUNT(*) FROM Table2", "SELECT * FROM Table3",
    };
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
        odbct_rows_text(dbc2, sql[i], a, sizeof a);
        odbct_rows_text(dbc, sql[i], b, sizeof b);
        ck_assert_msg(strcmp(a, b) == 0 && a[0],
                      "%s: %s\nvs\n%s", sql[i], a, b);
    }
    odbct_disconnect(env, dbc);
    odbct_disconnect(env2, dbc2);
    ck_assert(jet_test_same_file(src, before, n0));
    free(before);
    odbct_verify(dst);
    unlink(dst);
    unlink(src);
}
END_TEST

START_TEST(compact_db_encrypted)
{
    char dst[1024], value[2400], st[16], msg[512];
    const char *src = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    SQLHENV env;
    SQLHDBC dbc;

    snprintf(dst, sizeof dst, "%s/enc compact.accdb", odbct_tmpdir());
    unlink(dst);
    snprintf(value, sizeof value, "\"%s\" \"%s\"", src, dst);
    ck_assert(!SQL_SUCCEEDED(connect_compact(value, "PWD=wrong;", &env, &dbc,
                                             st, msg)));
    ck_assert_str_eq(st, "28000");
    odbct_free_dbc(env, dbc);
    ck_assert(access(dst, F_OK) != 0);
    ck_assert_msg(SQL_SUCCEEDED(connect_compact(value, "PWD=Test123;", &env,
                                                &dbc, st, msg)),
                  "%s %s", st, msg);
    odbct_disconnect(env, dbc);
    /* no password: refused */
    {
        char cs[1400];
        snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", dst);
        odbct_alloc_dbc(&env, &dbc);
        ck_assert(!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs,
                                                  SQL_NTS, NULL, 0, NULL,
                                                  SQL_DRIVER_NOPROMPT)));
        ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "28000");
        odbct_free_dbc(env, dbc);
    }
    unlink(dst);
}
END_TEST

START_TEST(compact_db_refusals)
{
    char dst[1024], value[2400], st[16], msg[512];
    const char *src = odbct_fixture("jackcess/V2003/queryTestV2003.mdb");
    SQLHENV env;
    SQLHDBC dbc;
    size_t n0 = 0;
    uint8_t *b0;

    /* an existing dst: refused, unchanged */
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "exists.mdb", dst,
                       sizeof dst);
    b0 = jet_test_slurp(dst, &n0);
    snprintf(value, sizeof value, "\"%s\" \"%s\"", src, dst);
    ck_assert(!SQL_SUCCEEDED(connect_compact(value, NULL, &env, &dbc, st,
                                             msg)));
    ck_assert_str_eq(st, "08001");
    ck_assert_msg(strstr(msg, "already exists"), "%s", msg);
    odbct_free_dbc(env, dbc);
    ck_assert(jet_test_same_file(dst, b0, n0));
    free(b0);
    unlink(dst);
    /* one path */
    snprintf(value, sizeof value, "\"%s\"", src);
    ck_assert(!SQL_SUCCEEDED(connect_compact(value, NULL, &env, &dbc, st,
                                             msg)));
    ck_assert_str_eq(st, "08001");
    odbct_free_dbc(env, dbc);
    /* Access 97 */
    snprintf(dst, sizeof dst, "%s/jet3 compact.mdb", odbct_tmpdir());
    snprintf(value, sizeof value, "\"%s\" \"%s\"",
             odbct_fixture("jackcess/V1997/queryTestV1997.mdb"), dst);
    ck_assert(!SQL_SUCCEEDED(connect_compact(value, NULL, &env, &dbc, st,
                                             msg)));
    ck_assert_str_eq(st, "HYC00");
    odbct_free_dbc(env, dbc);
    ck_assert(access(dst, F_OK) != 0);
}
END_TEST

static Suite *compact_suite(void)
{
    Suite *s = suite_create("odbc_compact");
    TCase *tc = tcase_create("compact_db");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, compact_db_then_saved_queries, 0,
                        (int)(sizeof fixtures / sizeof fixtures[0]));
    tcase_add_test(tc, compact_db_encrypted);
    tcase_add_test(tc, compact_db_refusals);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(compact_suite)
