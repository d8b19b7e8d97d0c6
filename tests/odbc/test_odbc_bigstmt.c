/*
 * test_odbc_bigstmt.c - one statement that changes more pages than the
 * savepoint keeps in memory (issue 25's loose end: the statement's page
 * images spill to a temporary file, core/pagefile.c SAVEPOINTS), through
 * the driver manager, on a table jetgen makes: 50,000 rows of four
 * Text(255) columns, about 8,500 pages (35 MB).
 *   - DELETE of every row inside a transaction, then ROLLBACK: the file
 *     is byte for byte what it was;
 *   - inside a transaction, one UPDATE, then an UPDATE of every row that
 *     fails on its last row (a duplicate primary key, 23000) after
 *     changing every data page: the statement is undone from its images
 *     and the first UPDATE stays; after COMMIT the file is byte for byte
 *     the file that only the first UPDATE made;
 *   - DELETE of every row in autocommit: the row count, nothing left,
 *     and `jetcheck verify` reports 0 problems.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "../writetest.h"

#define ROWS 50000

static SQLHENV env;
static SQLHDBC dbc;

static void copy_file(const char *to, const char *from)
{
    size_t len;
    uint8_t *b = jet_test_slurp(from, &len);
    FILE *f;
    ck_assert_ptr_nonnull(b);
    f = fopen(to, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(b, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    free(b);
}

static void same_bytes(const char *a, const char *b, const char *what)
{
    size_t la = 0, lb = 0;
    uint8_t *x = jet_test_slurp(a, &la), *y = jet_test_slurp(b, &lb);
    size_t at = 0;
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(y);
    while (at < la && at < lb && x[at] == y[at])
        at++;
    ck_assert_msg(la == lb && at == la, "%s: %zu and %zu bytes, first "
                  "difference at %zu (page %zu)", what, la, lb, at,
                  at / 4096);
    free(x);
    free(y);
}

static long scalar(const char *sql)
{
    SQLHSTMT st;
    SQLINTEGER v = -1;
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &v, 0,
                                             &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return v;
}

/* Run sql; its SQLRowCount, or -1 and its SQLSTATE into state. */
static long run(const char *sql, char *state)
{
    SQLHSTMT st;
    SQLLEN n = -1;
    SQLRETURN rc;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (state)
        snprintf(state, 6, "%s", SQL_SUCCEEDED(rc) ? "00000"
                                 : odbct_state(SQL_HANDLE_STMT, st));
    if (SQL_SUCCEEDED(rc))
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &n));
    else if (!state)
        ck_abort_msg("%s: %s %s", sql, odbct_state(SQL_HANDLE_STMT, st),
                     odbct_message(SQL_HANDLE_STMT, st));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return SQL_SUCCEEDED(rc) ? (long)n : -1;
}

static void connect_to(const char *path, bool autocommit)
{
    char cs[1200];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_connect(&env, &dbc, cs);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)(uintptr_t)(autocommit ? SQL_AUTOCOMMIT_ON
                                                : SQL_AUTOCOMMIT_OFF), 0));
}

START_TEST(statement_changes_more_pages_than_memory_keeps)
{
    char orig[1024], work[1024], ref[1024], cmd[4096], state[8];
    const char *dir = odbct_tmpdir();
    long nulls;

    if (access(JET_JETGEN, X_OK) != 0) {
        fprintf(stderr, "test_odbc_bigstmt: %s not built: skipped\n",
                JET_JETGEN);
        return;
    }
    snprintf(orig, sizeof orig, "%s/wide.accdb", dir);
    snprintf(work, sizeof work, "%s/work.accdb", dir);
    snprintf(ref, sizeof ref, "%s/ref.accdb", dir);
    snprintf(cmd, sizeof cmd, "'%s' --format ace --seed 7 --rows %d "
             "--table 'W:id=long/pk,k=long/idx,a=text255,b=text255,"
             "c=text255,d=text255' '%s' >/dev/null", JET_JETGEN, ROWS, orig);
    ck_assert_int_eq(system(cmd), 0);

    /* DELETE of every row, rolled back: the file as it was */
    copy_file(work, orig);
    connect_to(work, false);
    ck_assert_int_eq(run("DELETE FROM W", NULL), ROWS);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM W"), 0);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM W"), ROWS);
    odbct_disconnect(env, dbc);
    same_bytes(work, orig, "after DELETE and ROLLBACK");

    /* a statement failing after changing every data page is undone to
     * its savepoint; the transaction's earlier statement stays */
    copy_file(ref, orig);
    connect_to(ref, false);
    ck_assert_int_eq(run("UPDATE W SET k = 777 WHERE id = 3", NULL), 1);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_COMMIT));
    odbct_disconnect(env, dbc);
    connect_to(work, false);
    ck_assert_int_eq(run("UPDATE W SET k = 777 WHERE id = 3", NULL), 1);
    nulls = scalar("SELECT COUNT(*) FROM W WHERE b IS NULL");
    ck_assert_int_eq(run("UPDATE W SET a = 'x', b = NULL, "
                         "id = IIf(id = 50000, 1, id)", state), -1);
    ck_assert_str_eq(state, "23000");
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM W WHERE b IS NULL"),
                     nulls);
    ck_assert_int_eq(scalar("SELECT k FROM W WHERE id = 3"), 777);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_COMMIT));
    odbct_disconnect(env, dbc);
    same_bytes(work, ref, "after a failed statement and COMMIT");

    /* DELETE of every row, committed */
    connect_to(work, true);
    ck_assert_int_eq(run("DELETE FROM W", NULL), ROWS);
    odbct_disconnect(env, dbc);
    connect_to(work, true);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM W"), 0);
    odbct_disconnect(env, dbc);
    jet_test_jetcheck_verify(work);
    unlink(orig);
    unlink(work);
    unlink(ref);
}
END_TEST

static Suite *bigstmt_suite(void)
{
    Suite *s = suite_create("odbc_bigstmt");
    TCase *tc = tcase_create("bigstmt");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, statement_changes_more_pages_than_memory_keeps);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(bigstmt_suite)
