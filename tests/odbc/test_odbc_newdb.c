/*
 * test_odbc_newdb.c - CREATE_DB=path [version] [General] in a connection
 * string (Microsoft's SQLConfigDataSource keyword): the new empty
 * database is made, then connected to; its system tables read, no user
 * table listed; `jetcheck verify` passes. A quoted path with a space, an
 * unquoted one, each version word and the default by file name; an
 * existing file, ENCRYPT and an unknown word are refused (08001 / HYC00)
 * with the file unchanged or not made.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "../writetest.h"

/* The header's version byte (0x14) of the file at path. */
static int version_byte(const char *path)
{
    size_t len;
    uint8_t *b = jet_test_slurp(path, &len);
    int v = b && len > 0x14 ? b[0x14] : -1;
    free(b);
    return v;
}

/* Connect with CREATE_DB=value; returns the SQLDriverConnect result and
 * leaves state/message of a failure in st/msg. */
static SQLRETURN connect_create(const char *value, bool with_dbq,
                                const char *dbq, SQLHENV *env, SQLHDBC *dbc,
                                char *st, char *msg)
{
    char cs[4400];
    if (with_dbq)
        snprintf(cs, sizeof cs, "DRIVER={JetODBC};CREATE_DB=%s;DBQ=%s;",
                 value, dbq);
    else
        snprintf(cs, sizeof cs, "DRIVER={JetODBC};CREATE_DB=%s;", value);
    odbct_alloc_dbc(env, dbc);
    SQLRETURN r = SQLDriverConnect(*dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL,
                                   0, NULL, SQL_DRIVER_NOPROMPT);
    st[0] = msg[0] = '\0';
    if (!SQL_SUCCEEDED(r)) {
        strcpy(st, odbct_state(SQL_HANDLE_DBC, *dbc));
        snprintf(msg, 512, "%s", odbct_message(SQL_HANDLE_DBC, *dbc));
    }
    return r;
}

static const struct {
    const char *word, *name;
    int version;
} cases[] = {
    { "JET4", "a b.mdb", 1 },
    { "ACE12", "a b.accdb", 2 },
    { "ACE14", "a b.accdb", 3 },
    { "ACE16", "a b.accdb", 5 },
    { "ACE17", "a b.accdb", 6 },
    { NULL, "plain.mdb", 1 },        /* by the name: Jet4 */
    { NULL, "plain.accdb", 5 },      /* else ACE 16 */
};

START_TEST(create_db_then_connect)
{
    char path[1024], value[1200], st[16], msg[512], buf[256];
    SQLHENV env;
    SQLHDBC dbc;

    snprintf(path, sizeof path, "%s/%d %s", odbct_tmpdir(), _i,
             cases[_i].name);
    if (cases[_i].word)
        snprintf(value, sizeof value, "\"%s\" %s General", path,
                 cases[_i].word);
    else
        snprintf(value, sizeof value, "%s", path);   /* unquoted */
    SQLRETURN r = connect_create(value, false, NULL, &env, &dbc, st, msg);
    ck_assert_msg(SQL_SUCCEEDED(r), "CREATE_DB=%s: %s %s", value, st, msg);
    ck_assert_int_eq(version_byte(path), cases[_i].version);

    /* no user table; the catalog reads */
    SQLHSTMT s;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &s));
    ODBCT_OK(SQL_HANDLE_STMT, s, SQLTables(s, NULL, 0, NULL, 0,
                                           (SQLCHAR *)"%", SQL_NTS,
                                           (SQLCHAR *)"TABLE", SQL_NTS));
    ck_assert_int_eq(SQLFetch(s), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    s = odbct_exec(dbc, "SELECT Name FROM MSysObjects WHERE Type = 3 "
                        "ORDER BY Name");
    ck_assert_int_eq(odbct_col1(s, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "Databases,Relationships,Tables");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    odbct_disconnect(env, dbc);
    jet_test_jetcheck_verify(path);

    /* again: the file exists, refused, unchanged */
    size_t n0 = 0, n1 = 0;
    uint8_t *before = jet_test_slurp(path, &n0);
    r = connect_create(value, false, NULL, &env, &dbc, st, msg);
    ck_assert(!SQL_SUCCEEDED(r));
    ck_assert_str_eq(st, "08001");
    ck_assert_msg(strstr(msg, "exists"), "%s", msg);
    odbct_free_dbc(env, dbc);
    uint8_t *after = jet_test_slurp(path, &n1);
    ck_assert(before && after && n0 == n1 && !memcmp(before, after, n0));
    free(before);
    free(after);
    jet_test_remove_db(path);
}
END_TEST

START_TEST(create_db_refusals)
{
    char path[1024], value[1200], st[16], msg[512];
    SQLHENV env;
    SQLHDBC dbc;

    snprintf(path, sizeof path, "%s/refused.accdb", odbct_tmpdir());
    snprintf(value, sizeof value, "\"%s\" ACE14 ENCRYPT", path);
    ck_assert(!SQL_SUCCEEDED(connect_create(value, false, NULL, &env, &dbc,
                                            st, msg)));
    ck_assert_str_eq(st, "HYC00");
    odbct_free_dbc(env, dbc);
    ck_assert(access(path, F_OK) != 0);

    snprintf(value, sizeof value, "\"%s\" ACE99", path);
    ck_assert(!SQL_SUCCEEDED(connect_create(value, false, NULL, &env, &dbc,
                                            st, msg)));
    ck_assert_str_eq(st, "08001");
    ck_assert_msg(strstr(msg, "ACE99"), "%s", msg);
    odbct_free_dbc(env, dbc);
    ck_assert(access(path, F_OK) != 0);

    snprintf(value, sizeof value, "%s/no such dir/x.accdb", odbct_tmpdir());
    ck_assert(!SQL_SUCCEEDED(connect_create(value, false, NULL, &env, &dbc,
                                            st, msg)));
    ck_assert_str_eq(st, "08001");
    odbct_free_dbc(env, dbc);
}
END_TEST

static Suite *newdb_suite(void)
{
    Suite *s = suite_create("odbc_newdb");
    TCase *tc = tcase_create("create_db");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, create_db_then_connect, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, create_db_refusals);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(newdb_suite)
