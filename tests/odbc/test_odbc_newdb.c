/*
 * test_odbc_newdb.c - CREATE_DB=path [version] [General] in a connection
 * string (Microsoft's SQLConfigDataSource keyword): the new empty
 * database is made, then connected to; its system tables read, no user
 * table listed; `jetcheck verify` passes. A quoted path with a space, an
 * unquoted one, each version word and the default by file name; an
 * existing file, ENCRYPT without a password and an unknown word are
 * refused (08001 / HYC00) with the file unchanged or not made.
 *
 * With PWD (create_db_encrypted, each format): the new file is encrypted
 * with the password; a table made by CREATE TABLE takes ENC_ROWS rows of
 * text, memo (some over a page) and numbers that read back; no password
 * or a wrong one is 28000 with the file unchanged; `jetcheck verify
 * --password` finds 0 problems and `jetcheck dump --password` shows every
 * row; the raw file holds neither the table's name nor its text.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "odbcwrite.h"

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
    return odbct_try_connect(cs, env, dbc, st, msg);
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
    size_t n0 = 0;
    uint8_t *before = jet_test_slurp(path, &n0);
    r = connect_create(value, false, NULL, &env, &dbc, st, msg);
    ck_assert(!SQL_SUCCEEDED(r));
    ck_assert_str_eq(st, "08001");
    ck_assert_msg(strstr(msg, "exists"), "%s", msg);
    odbct_free_dbc(env, dbc);
    ck_assert(before && jet_test_same_file(path, before, n0));
    free(before);
    jet_test_remove_db(path);
}
END_TEST

#define ENC_ROWS 300
#define ENC_PWD "Pa55 word!"

/* The memo of row k: NULL when k % 5 == 0, else "memo k " repeated; every
 * 50th row over 4 KB (an LVAL chain). */
static const char *memo_of(unsigned k, char *buf, size_t cap)
{
    size_t n = 0, reps = k % 50 == 1 ? 500 : 1 + k % 17;
    if (k % 5 == 0)
        return NULL;
    for (size_t r = 0; r < reps; r++) {
        int w = snprintf(buf + n, cap - n, "memo %u ", k);
        ck_assert(w > 0 && (size_t)w < cap - n);
        n += (size_t)w;
    }
    return buf;
}

/* Whether s (ASCII) is in the raw bytes, as is or in UTF-16LE. */
static bool in_raw(const uint8_t *b, size_t len, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= len; i++) {
        if (i + n <= len && memcmp(b + i, s, n) == 0)
            return true;
        size_t j = 0;
        while (j < n && i + 2 * j + 1 < len && b[i + 2 * j] == (uint8_t)s[j]
               && b[i + 2 * j + 1] == 0)
            j++;
        if (j == n)
            return true;
    }
    return false;
}

/* SQLDriverConnect to path with password pwd (NULL: none) gives 28000;
 * the file stays byte for byte. */
static void connect_refused(const char *path, const char *pwd)
{
    char cs[1400];
    size_t n0 = 0;
    uint8_t *before = jet_test_slurp(path, &n0);
    SQLHENV env;
    SQLHDBC dbc;
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;%s%s%s", path,
             pwd ? "PWD=" : "", pwd ? pwd : "", pwd ? ";" : "");
    odbct_alloc_dbc(&env, &dbc);
    ck_assert_int_eq(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS,
                                      NULL, 0, NULL, SQL_DRIVER_NOPROMPT),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "28000");
    odbct_free_dbc(env, dbc);
    ck_assert(before && jet_test_same_file(path, before, n0));
    free(before);
}

START_TEST(create_db_encrypted)
{
    static const char *const words[] = { "JET4", "ACE12", "ACE14 ENCRYPT",
                                         "ACE16", "ACE17" };
    static const int vers[] = { 1, 2, 3, 5, 6 };
    char path[1024], value[1200], st[16], msg[512], cs[2600], sql[8000];
    char memo[6000];   /* the longest memo: 500 * 10 characters */
    SQLHENV env;
    SQLHDBC dbc;

    snprintf(path, sizeof path, "%s/enc %d.%s", odbct_tmpdir(), _i,
             _i == 0 ? "mdb" : "accdb");
    snprintf(value, sizeof value, "\"%s\" %s", path, words[_i]);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};CREATE_DB=%s;PWD=" ENC_PWD ";",
             value);
    odbct_alloc_dbc(&env, &dbc);
    SQLRETURN r = SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL,
                                   0, NULL, SQL_DRIVER_NOPROMPT);
    ck_assert_msg(SQL_SUCCEEDED(r), "%s: %s %s", cs,
                  odbct_state(SQL_HANDLE_DBC, dbc),
                  odbct_message(SQL_HANDLE_DBC, dbc));
    ck_assert_int_eq(version_byte(path), vers[_i]);
    SQLFreeHandle(SQL_HANDLE_STMT,
                  odbct_exec(dbc, "CREATE TABLE Secrets (ID COUNTER "
                             "PRIMARY KEY, Name TEXT(40) NOT NULL, Qty LONG, "
                             "Price DOUBLE, Note MEMO)"));
    SQLFreeHandle(SQL_HANDLE_STMT,
                  odbct_exec(dbc, "CREATE UNIQUE INDEX ByName ON Secrets "
                             "(Name)"));
    for (unsigned k = 1; k <= ENC_ROWS; k++) {
        const char *m = memo_of(k, memo, sizeof memo);
        int w = snprintf(sql, sizeof sql, "INSERT INTO Secrets (Name, Qty, "
                         "Price, Note) VALUES ('secret row %04u', %u, %u.25, "
                         "%s%s%s)", k, k * 7 % 1000, k, m ? "'" : "",
                         m ? m : "NULL", m ? "'" : "");
        ck_assert(w > 0 && (size_t)w < sizeof sql);
        odbct_exec_rows(dbc, sql, 1);
    }
    odbct_disconnect(env, dbc);

    /* no password, a wrong one: 28000, the file unchanged */
    connect_refused(path, NULL);
    connect_refused(path, "wrong");
    connect_refused(path, "pa55 word!");

    /* read back through a new connection */
    odbct_connect_file(&env, &dbc, path, "PWD=" ENC_PWD ";");
    odbct_expect_row(dbc, "SELECT COUNT(*) FROM Secrets", "300");
    {
        SQLHSTMT s = odbct_exec(dbc, "SELECT ID, Name, Qty, Note FROM "
                                     "Secrets ORDER BY Name");
        unsigned k = 0;
        while ((r = SQLFetch(s)) == SQL_SUCCESS) {
            char name[64], want[64], note[8000];
            SQLINTEGER id = 0, qty = 0;
            SQLLEN ind = 0;
            k++;
            ODBCT_OK(SQL_HANDLE_STMT, s, SQLGetData(s, 1, SQL_C_SLONG, &id,
                                                    0, NULL));
            ODBCT_OK(SQL_HANDLE_STMT, s, SQLGetData(s, 2, SQL_C_CHAR, name,
                                                    sizeof name, NULL));
            ODBCT_OK(SQL_HANDLE_STMT, s, SQLGetData(s, 3, SQL_C_SLONG, &qty,
                                                    0, NULL));
            ODBCT_OK(SQL_HANDLE_STMT, s, SQLGetData(s, 4, SQL_C_CHAR, note,
                                                    sizeof note, &ind));
            snprintf(want, sizeof want, "secret row %04u", k);
            ck_assert_str_eq(name, want);
            ck_assert_int_eq(id, (SQLINTEGER)k);
            ck_assert_int_eq(qty, (SQLINTEGER)(k * 7 % 1000));
            const char *m = memo_of(k, memo, sizeof memo);
            if (m)
                ck_assert_msg(ind != SQL_NULL_DATA && !strcmp(note, m),
                              "row %u memo", k);
            else
                ck_assert_int_eq(ind, SQL_NULL_DATA);
        }
        ck_assert_int_eq(r, SQL_NO_DATA);
        ck_assert_uint_eq(k, ENC_ROWS);
        SQLFreeHandle(SQL_HANDLE_STMT, s);
    }
    odbct_disconnect(env, dbc);

    /* Jackcess reads it with the password */
    jet_test_jetcheck_verify_opts(path, "--password '" ENC_PWD "'");
    if (jet_test_have_jetcheck()) {
        char *d = odbct_dump_opts(path, "Secrets",
                                  "--password '" ENC_PWD "'");
        ck_assert_msg(strstr(d, "\"row_count\": 300,"), "%.1500s", d);
        for (unsigned k = 1; k <= ENC_ROWS; k++) {
            const char *m = memo_of(k, memo, sizeof memo);
            snprintf(sql, sizeof sql, "[%u, \"secret row %04u\", %u, %u.25, "
                     "%s%s%s]", k, k, k * 7 % 1000, k, m ? "\"" : "",
                     m ? m : "null", m ? "\"" : "");
            ck_assert_msg(strstr(d, sql), "dump lacks %.200s", sql);
        }
        free(d);
    }

    /* nothing readable in the raw file */
    {
        size_t n = 0;
        uint8_t *raw = jet_test_slurp(path, &n);
        ck_assert_ptr_nonnull(raw);
        ck_assert(!in_raw(raw, n, "Secrets"));
        ck_assert(!in_raw(raw, n, "secret row 0123"));
        ck_assert(!in_raw(raw, n, "memo 12 memo"));
        ck_assert(!in_raw(raw, n, "MSysObjects"));
        free(raw);
    }
    jet_test_remove_db(path);
    (void)st;
    (void)msg;
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
    ck_assert_msg(strstr(msg, "PWD"), "%s", msg);
    odbct_free_dbc(env, dbc);
    ck_assert(access(path, F_OK) != 0);

    /* a Jet4 password over 20 characters: refused, nothing made */
    {
        char cs[1400];
        snprintf(path, sizeof path, "%s/refused.mdb", odbct_tmpdir());
        snprintf(cs, sizeof cs, "DRIVER={JetODBC};CREATE_DB=\"%s\";"
                 "PWD=abcdefghijklmnopqrstu;", path);
        odbct_alloc_dbc(&env, &dbc);
        ck_assert(!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs,
                                                  SQL_NTS, NULL, 0, NULL,
                                                  SQL_DRIVER_NOPROMPT)));
        ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "08001");
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_DBC, dbc),
                             "20 characters"), "%s",
                      odbct_message(SQL_HANDLE_DBC, dbc));
        odbct_free_dbc(env, dbc);
        ck_assert(access(path, F_OK) != 0);
        snprintf(path, sizeof path, "%s/refused.accdb", odbct_tmpdir());
    }

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
    tcase_add_loop_test(tc, create_db_encrypted, 0, 5);
    tcase_add_test(tc, create_db_refusals);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(newdb_suite)
