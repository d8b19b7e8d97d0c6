/*
 * odbctest.h - shared scaffolding of the tests through the driver manager.
 *
 * Each tests/odbc/test_odbc_<family>.c ends with ODBCT_MAIN(suite_fn): it
 * writes a temporary odbcinst.ini (driver JetODBC = the freshly built
 * libjetodbc.so) and odbc.ini (DSN "nwind" and a DSN without DBQ), points
 * ODBCSYSINI/ODBCINI at them before the first ODBC call, and skips (exit
 * 77) when ../shared fixtures are absent.
 */
#ifndef JET_TESTS_ODBCTEST_H
#define JET_TESTS_ODBCTEST_H

#include <check.h>
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#include <stdlib.h>

#ifndef JET_DRIVER_PATH
#define JET_DRIVER_PATH "../.libs/libjetodbc.so"
#endif
#ifndef JET_SHARED_DIR
#define JET_SHARED_DIR "../shared"
#endif

/** Write the ini files and set the environment; 0, or 77 to skip. */
int odbct_setup(void);
/** Remove the temporary directory. */
void odbct_cleanup(void);
/** The temporary directory (for files a test makes). */
const char *odbct_tmpdir(void);
/** Absolute path of a public fixture, e.g. "mdbtestdata/nwind.mdb"
 *  (static buffer, valid until the next call). */
const char *odbct_fixture(const char *rel);
/** "DRIVER={JetODBC};DBQ=<nwind>;" (static). */
const char *odbct_nwind_connstr(void);

/** SQLSTATE of diagnostic record 1 of a handle ("" when none; static). */
const char *odbct_state(SQLSMALLINT type, SQLHANDLE h);
/** Message of record 1 (static). */
const char *odbct_message(SQLSMALLINT type, SQLHANDLE h);

/** Allocate env (ODBC 3) and dbc, connect with connstr; asserts. */
void odbct_connect(SQLHENV *env, SQLHDBC *dbc, const char *connstr);
/** odbct_connect to the database file at path (DRIVER={JetODBC};DBQ=path;). */
void odbct_connect_path(SQLHENV *env, SQLHDBC *dbc, const char *path);
void odbct_disconnect(SQLHENV env, SQLHDBC dbc);
/** Allocate env (ODBC 3) and an unconnected dbc; asserts SQL_SUCCESS. */
void odbct_alloc_dbc(SQLHENV *env, SQLHDBC *dbc);
/** Free dbc and env of odbct_alloc_dbc (dbc disconnected). */
void odbct_free_dbc(SQLHENV env, SQLHDBC dbc);
/** Allocate a statement and execute sql (asserts success). */
SQLHSTMT odbct_exec(SQLHDBC dbc, const char *sql);
/** Fetch the rest of st's rows; column 1 of each as text (NULL as
 *  "NULL"), joined by ',' into buf (cap bytes). Returns the row count;
 *  leaves the cursor open. Asserts that each fetch succeeds. */
long odbct_col1(SQLHSTMT st, char *buf, size_t cap);

/** Assert that an ODBC call succeeded, printing the diagnostic if not. */
#define ODBCT_OK(type, h, call)                                             \
    do {                                                                    \
        SQLRETURN r_ = (call);                                              \
        ck_assert_msg(SQL_SUCCEEDED(r_), "%s returned %d: %s %s", #call,    \
                      (int)r_, odbct_state(type, h),                        \
                      odbct_message(type, h));                              \
    } while (0)

#define ODBCT_MAIN(suite_fn)                                    \
    int main(void)                                              \
    {                                                           \
        int skip = odbct_setup();                               \
        if (skip)                                               \
            return skip;                                        \
        SRunner *sr = srunner_create(suite_fn());               \
        srunner_run_all(sr, CK_NORMAL);                         \
        int failed = srunner_ntests_failed(sr);                 \
        srunner_free(sr);                                       \
        odbct_cleanup();                                        \
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;       \
    }

#endif
