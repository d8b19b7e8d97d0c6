/*
 * test_odbc_share.c - a query's read transaction through the driver
 * manager: from SQLExecute until its cursor is closed (or a forward-only
 * cursor fetched to the end) the connection holds the database's SHARED
 * lock (core/os.c's protocol: a read lock on 510 bytes at 3 GiB), so no
 * other process commits under it; at close it is released, so writers
 * are not kept out. Another process looks with fcntl(F_GETLK), which
 * sees every lock but its own.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "odbctest.h"

#define SHARED_FIRST (0x80000000LL * 3 / 2 + 2)
#define SHARED_SIZE 510

/* Does another process hold a lock on the SHARED range of path? Asked
 * from a child process (F_GETLK does not report the caller's locks). */
static bool shared_held(const char *path)
{
    int st;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct flock fl;
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            _exit(3);
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = SHARED_FIRST;
        fl.l_len = SHARED_SIZE;
        if (fcntl(fd, F_GETLK, &fl) != 0)
            _exit(4);
        _exit(fl.l_type == F_UNLCK ? 0 : fl.l_type == F_RDLCK ? 1 : 5);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_lt(WEXITSTATUS(st), 2);
    return WEXITSTATUS(st) == 1;
}

static SQLRETURN fetch_all(SQLHSTMT st)
{
    SQLRETURN r;
    while ((r = SQLFetch(st)) == SQL_SUCCESS)
        ;
    return r;
}

START_TEST(query_holds_shared_until_closed_or_done)
{
    const char *path = odbct_fixture("mdbtestdata/nwind.mdb");
    char file[1024];
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT st;

    snprintf(file, sizeof file, "%s", path);
    odbct_connect_path(&env, &dbc, file);
    ck_assert(!shared_held(file));      /* connected, not reading */

    /* forward-only: held after execute, released at the end */
    st = odbct_exec(dbc, "SELECT OrderID FROM Orders");
    ck_assert(shared_held(file));
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS);
    ck_assert(shared_held(file));
    ck_assert_int_eq(fetch_all(st), SQL_NO_DATA);
    ck_assert(!shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
    ck_assert(!shared_held(file));

    /* the end of a TOP / MAX_ROWS limit is the end too */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT TOP 2 OrderID FROM Orders",
                           SQL_NTS));
    ck_assert(shared_held(file));
    ck_assert_int_eq(fetch_all(st), SQL_NO_DATA);
    ck_assert(!shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT OrderID FROM Orders",
                           SQL_NTS));
    ck_assert_int_eq(fetch_all(st), SQL_NO_DATA);
    ck_assert(!shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)0, 0));

    /* closed before the end */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Customers", SQL_NTS));
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS);
    ck_assert(shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_CLOSE));
    ck_assert(!shared_held(file));

    /* two open cursors: the lock goes with the last */
    {
        SQLHSTMT st2 = odbct_exec(dbc, "SELECT * FROM Products");
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Orders",
                               SQL_NTS));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
        ck_assert(shared_held(file));
        ODBCT_OK(SQL_HANDLE_STMT, st2, SQLFreeHandle(SQL_HANDLE_STMT, st2));
        ck_assert(!shared_held(file));
    }

    /* a static cursor may read its rows again: held until closed */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                            (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Shippers", SQL_NTS));
    ck_assert_int_eq(fetch_all(st), SQL_NO_DATA);
    ck_assert(shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
    ck_assert(!shared_held(file));

    /* a failed execute leaves no lock */
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT nosuch FROM "
                                   "Shippers", SQL_NTS), SQL_ERROR);
    ck_assert(!shared_held(file));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeHandle(SQL_HANDLE_STMT, st));
    odbct_disconnect(env, dbc);
}
END_TEST

static Suite *share_suite(void)
{
    Suite *s = suite_create("share");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, query_holds_shared_until_closed_or_done);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(share_suite)
