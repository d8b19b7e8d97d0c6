/*
 * odbctest.c - temporary ODBC configuration and helpers for tests/odbc.
 */
#include "odbctest.h"
#include "../shared_dir.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];
static char fixture_buf[1024];
static char connstr_buf[1200 + 1024];

const char *odbct_tmpdir(void)
{
    return tmpdir;
}

const char *odbct_fixture(const char *rel)
{
    snprintf(fixture_buf, sizeof fixture_buf, "%s/fixtures/public/%s",
             jet_shared_dir(), rel);
    return fixture_buf;
}

const char *odbct_nwind_connstr(void)
{
    snprintf(connstr_buf, sizeof connstr_buf, "DRIVER={JetODBC};DBQ=%s;",
             odbct_fixture("mdbtestdata/nwind.mdb"));
    return connstr_buf;
}

static int write_file(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

int odbct_setup(void)
{
    char buf[8192], nwind[1024];
    if (access(odbct_fixture("mdbtestdata/nwind.mdb"), R_OK) != 0) {
        fprintf(stderr, "SKIP: shared fixtures not found under %s\n",
                jet_shared_dir());
        return 77;
    }
    if (access(JET_DRIVER_PATH, R_OK) != 0) {
        fprintf(stderr, "SKIP: driver not built at %s\n", JET_DRIVER_PATH);
        return 77;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/jetodbc_test_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 99;
    }
    /* Threading=0: unixODBC serialises no call (its default when neither
     * this entry nor [ODBC] says otherwise); the driver's own locks do
     * (test_odbc_threads) */
    snprintf(buf, sizeof buf, "[JetODBC]\nDriver=%s\nThreading=0\n",
             JET_DRIVER_PATH);
    if (write_file("odbcinst.ini", buf) != 0)
        return 99;
    snprintf(nwind, sizeof nwind, "%s", odbct_fixture("mdbtestdata/nwind.mdb"));
    snprintf(buf, sizeof buf,
             "[nwind]\nDriver=JetODBC\nDBQ=%s\n\n"
             "[nwind_database_key]\nDriver=JetODBC\nDatabase=%s\n\n"
             "[nodbq]\nDriver=JetODBC\n\n"
             "[missing]\nDriver=JetODBC\nDBQ=%s/no-such-file.mdb\n",
             nwind, nwind, tmpdir);
    if (write_file("odbc.ini", buf) != 0)
        return 99;
    setenv("ODBCSYSINI", tmpdir, 1);
    snprintf(buf, sizeof buf, "%s/odbc.ini", tmpdir);
    setenv("ODBCINI", buf, 1);
    return 0;
}

void odbct_cleanup(void)
{
    char cmd[600];
    if (!tmpdir[0])
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

static char state_buf[6], msg_buf[1024];

const char *odbct_state(SQLSMALLINT type, SQLHANDLE h)
{
    SQLINTEGER native;
    SQLSMALLINT len;
    state_buf[0] = '\0';
    msg_buf[0] = '\0';
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, (SQLCHAR *)state_buf,
                                     &native, (SQLCHAR *)msg_buf,
                                     sizeof msg_buf, &len)))
        state_buf[0] = '\0';
    return state_buf;
}

const char *odbct_message(SQLSMALLINT type, SQLHANDLE h)
{
    odbct_state(type, h);
    return msg_buf;
}

void odbct_connect(SQLHENV *env, SQLHDBC *dbc, const char *connstr)
{
    ck_assert_int_eq(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env),
                     SQL_SUCCESS);
    ODBCT_OK(SQL_HANDLE_ENV, *env,
             SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION,
                           (SQLPOINTER)SQL_OV_ODBC3, 0));
    ODBCT_OK(SQL_HANDLE_ENV, *env, SQLAllocHandle(SQL_HANDLE_DBC, *env, dbc));
    ODBCT_OK(SQL_HANDLE_DBC, *dbc,
             SQLDriverConnect(*dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL,
                              0, NULL, SQL_DRIVER_NOPROMPT));
}

void odbct_connect_path(SQLHENV *env, SQLHDBC *dbc, const char *path)
{
    char cs[4200];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_connect(env, dbc, cs);
}

void odbct_disconnect(SQLHENV env, SQLHDBC dbc)
{
    ck_assert_int_eq(SQLDisconnect(dbc), SQL_SUCCESS);
    ck_assert_int_eq(SQLFreeHandle(SQL_HANDLE_DBC, dbc), SQL_SUCCESS);
    ck_assert_int_eq(SQLFreeHandle(SQL_HANDLE_ENV, env), SQL_SUCCESS);
}

void odbct_alloc_dbc(SQLHENV *env, SQLHDBC *dbc)
{
    ck_assert_int_eq(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env),
                     SQL_SUCCESS);
    SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    ck_assert_int_eq(SQLAllocHandle(SQL_HANDLE_DBC, *env, dbc), SQL_SUCCESS);
}

void odbct_free_dbc(SQLHENV env, SQLHDBC dbc)
{
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

SQLHSTMT odbct_exec(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS));
    return st;
}

long odbct_col1(SQLHSTMT st, char *buf, size_t cap)
{
    long n = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        if (r == SQL_NO_DATA)
            break;
        ck_assert_msg(SQL_SUCCEEDED(r), "fetch: %s %s",
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        char v[256];
        SQLLEN ind;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, v,
                                                 sizeof v, &ind));
        if (ind == SQL_NULL_DATA)
            snprintf(v, sizeof v, "NULL");
        if (len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                    n ? "," : "", v);
        n++;
    }
    return n;
}
