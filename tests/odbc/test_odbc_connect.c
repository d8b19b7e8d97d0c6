/*
 * test_odbc_connect.c - connecting through the driver manager: DSN and
 * connection string, the completed out string, and clean errors for bad,
 * empty, non-Access and truncated files.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;

/* Count the rows of SELECT * FROM Shippers (3 in nwind). */
static int count_shippers(void)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT * FROM Shippers");
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        n++;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return n;
}

START_TEST(connect_dsn_reads_dbq_from_odbc_ini)
{
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLConnect(dbc, (SQLCHAR *)"nwind", SQL_NTS, NULL, 0, NULL, 0));
    ck_assert_int_eq(count_shippers(), 3);
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(connect_dsn_accepts_database_key)
{
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLConnect(dbc, (SQLCHAR *)"nwind_database_key", SQL_NTS, NULL,
                        0, NULL, 0));
    ck_assert_int_eq(count_shippers(), 3);
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(connect_dsn_without_dbq_is_08001)
{
    odbct_alloc_dbc(&env, &dbc);
    ck_assert_int_eq(SQLConnect(dbc, (SQLCHAR *)"nodbq", SQL_NTS, NULL, 0,
                                NULL, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "08001");
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(driver_connect_returns_completed_string)
{
    SQLCHAR out[1024];
    SQLSMALLINT outlen = 0;
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLDriverConnect(dbc, NULL, (SQLCHAR *)odbct_nwind_connstr(),
                              SQL_NTS, out, sizeof out, &outlen,
                              SQL_DRIVER_NOPROMPT));
    ck_assert_int_eq(outlen, (int)strlen((char *)out));
    ck_assert_ptr_nonnull(strstr((char *)out, "DBQ="));
    ck_assert_ptr_nonnull(strstr((char *)out, "nwind.mdb"));
    ck_assert_int_eq(count_shippers(), 3);
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(driver_connect_dsn_key_looks_up_dbq)
{
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLDriverConnect(dbc, NULL, (SQLCHAR *)"DSN=nwind;", SQL_NTS,
                              NULL, 0, NULL, SQL_DRIVER_NOPROMPT));
    ck_assert_int_eq(count_shippers(), 3);
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

START_TEST(driver_connect_w_works)
{
    SQLWCHAR in[1200], out[1200];
    SQLSMALLINT outlen = 0;
    const char *cs = odbct_nwind_connstr();
    size_t i;
    for (i = 0; cs[i]; i++)
        in[i] = (SQLWCHAR)(unsigned char)cs[i];
    in[i] = 0;
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLDriverConnectW(dbc, NULL, in, SQL_NTS, out, 1200, &outlen,
                               SQL_DRIVER_NOPROMPT));
    ck_assert_int_gt(outlen, 10);
    ck_assert_int_eq(count_shippers(), 3);
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

/* Connecting to path must fail with SQLSTATE state and a message. */
static void expect_connect_error(const char *path, const char *state)
{
    char cs[1200];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_alloc_dbc(&env, &dbc);
    ck_assert_int_eq(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS,
                                      NULL, 0, NULL, SQL_DRIVER_NOPROMPT),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), state);
    ck_assert_int_gt((int)strlen(odbct_message(SQL_HANDLE_DBC, dbc)), 10);
    odbct_free_dbc(env, dbc);
}

static const char *make_file(const char *name, const void *data, size_t len)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", odbct_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    if (len)
        ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
    return path;
}

START_TEST(connect_missing_file_is_08001)
{
    char p[600];
    snprintf(p, sizeof p, "%s/no-such-file.mdb", odbct_tmpdir());
    expect_connect_error(p, "08001");
}
END_TEST

START_TEST(connect_zero_length_file_is_08001)
{
    expect_connect_error(make_file("zero.mdb", "", 0), "08001");
}
END_TEST

START_TEST(connect_text_file_is_08001)
{
    static const char text[] = "this is not an Access database\n";
    char big[8192];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = text[i % (sizeof text - 1)];
    expect_connect_error(make_file("text.mdb", big, sizeof big), "08001");
}
END_TEST

START_TEST(connect_directory_is_08001)
{
    expect_connect_error(odbct_tmpdir(), "08001");
}
END_TEST

START_TEST(connect_empty_dbq_is_08001)
{
    expect_connect_error("", "08001");
}
END_TEST

/* nwind cut after n bytes: the open fails cleanly, or a later read does. */
static void truncated_nwind(size_t n)
{
    char cs[1200];
    FILE *f = fopen(odbct_fixture("mdbtestdata/nwind.mdb"), "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    const char *path = make_file("trunc.mdb", buf, got);
    free(buf);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_alloc_dbc(&env, &dbc);
    SQLRETURN r = SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0,
                                   NULL, SQL_DRIVER_NOPROMPT);
    if (r == SQL_ERROR) {
        const char *st = odbct_state(SQL_HANDLE_DBC, dbc);
        ck_assert_msg(!strcmp(st, "HY000") || !strcmp(st, "08001"),
                      "state %s", st);
        odbct_free_dbc(env, dbc);
        return;
    }
    /* open worked: reading every table must end in rows or an error */
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    static const char *tables[] = {"Customers", "Orders", "Order Details",
                                   "Employees", "Categories"};
    for (size_t t = 0; t < 5; t++) {
        char sql[100];
        snprintf(sql, sizeof sql, "SELECT * FROM [%s]", tables[t]);
        SQLFreeStmt(st, SQL_CLOSE);
        if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)))
            continue;
        SQLWCHAR w[256];
        SQLLEN ind;
        for (int rows = 0; rows < 100000; rows++) {
            if (!SQL_SUCCEEDED(SQLFetch(st)))
                break;
            for (SQLUSMALLINT c = 1; c <= 3; c++)
                SQLGetData(st, c, SQL_C_WCHAR, w, sizeof w, &ind);
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    odbct_free_dbc(env, dbc);
}

START_TEST(connect_truncated_nwind_fails_cleanly)
{
    static const size_t cuts[] = {2048, 4096, 100000, 300000, 600000};
    truncated_nwind(cuts[_i]);
}
END_TEST

START_TEST(connect_attrs_pyodbc_sets_succeed)
{
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)5, 0));
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLDriverConnect(dbc, NULL, (SQLCHAR *)odbct_nwind_connstr(),
                              SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT));
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
                               (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
                               (SQLPOINTER)SQL_MODE_READ_ONLY, 0));
    SQLUINTEGER v = 99;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, &v, 0, NULL));
    ck_assert_uint_eq(v, SQL_AUTOCOMMIT_OFF);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK));
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    odbct_free_dbc(env, dbc);
}
END_TEST

/* COUNT(*) of a one-value query on dbc. */
static long count_of(const char *sql)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLINTEGER n = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &n, 0,
                                             NULL));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return n;
}

START_TEST(extended_ansi_sql_key_makes_like_ansi)
{
    static const char *star = "SELECT COUNT(*) FROM Customers WHERE "
                              "CompanyName LIKE 'B*'";
    static const char *pct = "SELECT COUNT(*) FROM Customers WHERE "
                             "CompanyName LIKE 'B%'";
    static const char *keys[] = { "", "ExtendedAnsiSQL=0;",
                                  "ExtendedAnsiSQL=1;", "extendedansisql=1;" };
    long want = 0;
    for (int k = 0; k < 4; k++) {
        char cs[1200];
        snprintf(cs, sizeof cs, "%s%s", odbct_nwind_connstr(), keys[k]);
        odbct_alloc_dbc(&env, &dbc);
        ODBCT_OK(SQL_HANDLE_DBC, dbc,
                 SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0,
                                  NULL, SQL_DRIVER_NOPROMPT));
        long n_pct = count_of(pct), n_star = count_of(star);
        if (k == 0)
            want = n_pct;
        ck_assert_int_gt(n_pct, 0);
        ck_assert_int_eq(n_pct, want);
        /* default: * is a wildcard too; ANSI-92: a literal star */
        ck_assert_int_eq(n_star, k >= 2 ? 0 : want);
        ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
        odbct_free_dbc(env, dbc);
    }
}
END_TEST

/* MaxMemory=1 (MiB): the grouping and its ORDER BY spill to a temporary
 * file and answer the same rows as the default budget. */
START_TEST(max_memory_key_spills_with_the_same_rows)
{
    const char *bulk = odbct_fixture("../bulk/bulk.accdb");
    if (access(bulk, R_OK) != 0)
        return;                     /* no bulk fixture: nothing to check */
    static const char *sql = "SELECT label, COUNT(*) FROM bulk GROUP BY "
                             "label ORDER BY COUNT(*) DESC, label";
    char first[2][64];
    long rows[2] = { 0, 0 }, total[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        char cs[1200];
        snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;%s", bulk,
                 k ? "MaxMemory=1;" : "");
        odbct_alloc_dbc(&env, &dbc);
        ODBCT_OK(SQL_HANDLE_DBC, dbc,
                 SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0,
                                  NULL, SQL_DRIVER_NOPROMPT));
        SQLHSTMT st = odbct_exec(dbc, sql);
        char label[64];
        SQLINTEGER n;
        SQLLEN ind1, ind2;
        SQLBindCol(st, 1, SQL_C_CHAR, label, sizeof label, &ind1);
        SQLBindCol(st, 2, SQL_C_SLONG, &n, 0, &ind2);
        SQLRETURN r;
        while ((r = SQLFetch(st)) == SQL_SUCCESS ||
               r == SQL_SUCCESS_WITH_INFO) {
            if (!rows[k])
                snprintf(first[k], sizeof first[k], "%s", label);
            rows[k]++;
            total[k] += n;
        }
        ck_assert_int_eq(r, SQL_NO_DATA);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
        odbct_free_dbc(env, dbc);
    }
    ck_assert_int_eq(rows[0], 66407);
    ck_assert_int_eq(rows[1], rows[0]);
    ck_assert_int_eq(total[0], 200000);
    ck_assert_int_eq(total[1], total[0]);
    ck_assert_str_eq(first[1], first[0]);
}
END_TEST

/* Connection-string values out of their documented range connect with
 * 01S00 and the default (MaxMemory 1..1048576, ExtendedAnsiSQL 0/1 and
 * its words, a TraceFile that cannot be opened); good values are silent. */
START_TEST(bad_option_values_are_01S00)
{
    static const struct { const char *opt; SQLRETURN rc; } cases[] = {
        {"MaxMemory=0;", SQL_SUCCESS_WITH_INFO},
        {"MaxMemory=99999999;", SQL_SUCCESS_WITH_INFO},
        {"MaxMemory=abc;", SQL_SUCCESS_WITH_INFO},
        {"MaxMemory=-5;", SQL_SUCCESS_WITH_INFO},
        {"MaxLongSize=abc;", SQL_SUCCESS_WITH_INFO},
        {"MaxLongSize=-1;", SQL_SUCCESS_WITH_INFO},
        {"MaxMemory=64;", SQL_SUCCESS},
        {"ExtendedAnsiSQL=2;", SQL_SUCCESS_WITH_INFO},
        {"ExtendedAnsiSQL=yes;", SQL_SUCCESS},
        {"ExtendedAnsiSQL=off;", SQL_SUCCESS},
        {"TraceFile=/nonexistent-dir-jetodbc/t.log;", SQL_SUCCESS_WITH_INFO},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char cs[4096];
        snprintf(cs, sizeof cs, "%s%s", odbct_nwind_connstr(), cases[k].opt);
        odbct_alloc_dbc(&env, &dbc);
        SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS,
                                        NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
        ck_assert_msg(rc == cases[k].rc, "%s: rc %d", cases[k].opt, (int)rc);
        if (rc == SQL_SUCCESS_WITH_INFO) {
            /* the message names the key and the value */
            char key[64], val[64];
            size_t eq = strcspn(cases[k].opt, "=");
            snprintf(key, sizeof key, "%.*s", (int)eq, cases[k].opt);
            snprintf(val, sizeof val, "'%.*s'",
                     (int)strcspn(cases[k].opt + eq + 1, ";"),
                     cases[k].opt + eq + 1);
            const char *msg = odbct_message(SQL_HANDLE_DBC, dbc);
            ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "01S00");
            ck_assert_msg(strstr(msg, key) && strstr(msg, val),
                          "%s: %s", cases[k].opt, msg);
        }
        ck_assert_int_eq(count_shippers(), 3);
        SQLDisconnect(dbc);
        odbct_free_dbc(env, dbc);
    }
}
END_TEST

/* Engine errors raised while SQLExecDirect reads its input (a grouping
 * query runs there) keep their SQLSTATE and text, as they do at SQLFetch:
 * a subquery giving two rows is 21000 with Access's message, not HYC00. */
START_TEST(execute_keeps_engine_sqlstate)
{
    static const char *sql[] = {
        "SELECT COUNT(*) FROM Orders WHERE OrderID = (SELECT OrderID FROM "
        "Orders WHERE CustomerID = 'ALFKI')",
        "SELECT ShipVia, COUNT(*) FROM Orders WHERE OrderID = (SELECT "
        "OrderID FROM Orders WHERE CustomerID = 'ALFKI') GROUP BY ShipVia",
    };
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLDriverConnect(dbc, NULL, (SQLCHAR *)odbct_nwind_connstr(),
                              SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT));
    for (size_t k = 0; k < sizeof sql / sizeof sql[0]; k++) {
        SQLHSTMT st;
        ck_assert_int_eq(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st),
                         SQL_SUCCESS);
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)sql[k], SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "21000");
        ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                     "At most one record"));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    SQLDisconnect(dbc);
    odbct_free_dbc(env, dbc);
}
END_TEST

static Suite *connect_suite(void)
{
    Suite *s = suite_create("odbc_connect");
    TCase *tc = tcase_create("connect");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, connect_dsn_reads_dbq_from_odbc_ini);
    tcase_add_test(tc, connect_dsn_accepts_database_key);
    tcase_add_test(tc, connect_dsn_without_dbq_is_08001);
    tcase_add_test(tc, driver_connect_returns_completed_string);
    tcase_add_test(tc, driver_connect_dsn_key_looks_up_dbq);
    tcase_add_test(tc, driver_connect_w_works);
    tcase_add_test(tc, connect_missing_file_is_08001);
    tcase_add_test(tc, connect_zero_length_file_is_08001);
    tcase_add_test(tc, connect_text_file_is_08001);
    tcase_add_test(tc, connect_directory_is_08001);
    tcase_add_test(tc, connect_empty_dbq_is_08001);
    tcase_add_loop_test(tc, connect_truncated_nwind_fails_cleanly, 0, 5);
    tcase_add_test(tc, connect_attrs_pyodbc_sets_succeed);
    tcase_add_test(tc, extended_ansi_sql_key_makes_like_ansi);
    tcase_add_test(tc, max_memory_key_spills_with_the_same_rows);
    tcase_add_test(tc, bad_option_values_are_01S00);
    tcase_add_test(tc, execute_keeps_engine_sqlstate);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(connect_suite)
