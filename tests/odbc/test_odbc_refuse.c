/*
 * test_odbc_refuse.c - every write the driver refuses (issue 25,
 * acceptance 6), through the driver manager, each on a copy of a public
 * fixture in the temporary directory: its SQLSTATE, its message (Access's
 * wording where Access has one), the database file byte for byte as it
 * was, its lock file (.ldb/.laccdb) as it was, no journal left, reading
 * still working, and `jetcheck verify` passing after.
 *
 *   an Access 97 (Jet3) file          HYC00  Access 97 files are read-only
 *   ReadOnly=1, SQL_MODE_READ_ONLY    HY000  Cannot update. Database or
 *                                            object is read-only.
 *   a file without write permission   HY000  the same, and why
 *   a file another program holds      HY000  the same, and who holds it
 *   an unenforced rule                HYC00  names the table and the rule
 *     (complex column, linked table, system table, a validation rule the
 *     engine cannot evaluate)
 *   a value for a calculated column   HY000  Cannot update '<c>'; field
 *                                            not updateable
 *   a validation rule broken          23000  One or more values are
 *                                            prohibited by the validation
 *                                            rule '<rule>' set for 't.c'.
 *                                            Enter a value ... accept.
 *   a duplicate key                   23000  The changes you requested ...
 *   a relationship's rule             23000  test_odbc_relations.c
 *   NULL in a Required field          23000  You must enter a value in the
 *                                            't.c' field.
 *   NULL in a primary key             23000  Index or primary key cannot
 *                                            contain a Null value
 *   too long                          22001
 *   out of range (Byte, Integer, Long) 22003
 *   text that is not a number or date 22018
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "odbcwrite.h"
#include "os.h"   /* JET_OS_USER_SLOT_BASE: where Access marks a user */

static SQLHENV env;
static SQLHDBC dbc;

#define READ_ONLY_TEXT "Cannot update. Database or object is read-only."
#define JET3_TEXT "[jetodbc]Optional feature not implemented: Access 97 " \
                  "files are read-only"
#define DUPLICATE_TEXT                                                    \
    "[jetodbc]The changes you requested to the table were not successful " \
    "because they would create duplicate values in the index, primary "   \
    "key, or relationship. Change the data in the field or fields that "  \
    "contain duplicate data, remove the index, or redefine the index to " \
    "permit duplicate entries and try again."

/* ------------------------------------------------------------ helpers */

static void connect_to(const char *path, const char *extra)
{
    odbct_connect_file(&env, &dbc, path, extra);
}

static SQLHSTMT new_stmt(void)
{
    return odbct_stmt(dbc);
}

/* sql is refused on st with state, and its message contains msg (begins
 * with it when msg begins with "[jetodbc]"). */
static void expect_refused(SQLHSTMT st, const char *sql, const char *state,
                           const char *msg)
{
    odbct_refused_on(st, sql, state, msg, NULL);
}

/* Column 1 of the first row of sql, as a long. */
static long scalar(const char *sql)
{
    SQLHSTMT st = new_stmt();
    SQLINTEGER v = -1;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &v, 0,
                                             &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return ind == SQL_NULL_DATA ? -1 : (long)v;
}

/* A refusal case on one fixture: each statement with its state and
 * message; reading works after; the file and its lock file unchanged;
 * jetcheck verify after. */
typedef struct refusal {
    const char *sql;
    const char *state;
    const char *msg;
} refusal;

static void refused_on(const char *rel, const char *name, const char *extra,
                       const refusal *cases, size_t n, const char *read_sql)
{
    /* calcFieldTestV2010's Table1 TDEF counts 3 rows of its 4 (jetcheck
     * says so of the fixture itself): the bytes compare alone */
    bool check = strstr(rel, "calcFieldTest") == NULL;
    char path[1024];
    odbct_snap fs;
    odbct_copy_fixture(rel, name, path, sizeof path);
    odbct_snap_take(&fs, path);
    connect_to(path, extra);
    SQLHSTMT st = new_stmt();
    for (size_t i = 0; i < n; i++)
        expect_refused(st, cases[i].sql, cases[i].state, cases[i].msg);
    if (read_sql)
        ck_assert_int_ge(scalar(read_sql), 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    if (check)
        odbct_verify(path);
}

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------- read-only files */

START_TEST(access97_refuses_every_write)
{
    static const refusal cases[] = {
        { "INSERT INTO Table1 (A) VALUES ('x')", "HYC00", JET3_TEXT },
        { "UPDATE Table1 SET B = 'y'", "HYC00", JET3_TEXT },
        { "DELETE FROM Table1", "HYC00", JET3_TEXT },
        { "DELETE FROM Table1 WHERE 1 = 0", "HYC00", JET3_TEXT },
    };
    refused_on("jackcess/V1997/testV1997.mdb", "jet3.mdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
    /* a saved action query of an Access 97 file: the same, before its
     * arguments are counted */
    static const refusal calls[] = {
        { "{call DeleteQuery}", "HYC00", JET3_TEXT " ('DeleteQuery' is a "
          "delete query)" },
        { "{call UpdateQuery}", "HYC00", JET3_TEXT " ('UpdateQuery' is an "
          "update query)" },
        { "EXEC AppendQuery", "HYC00", JET3_TEXT " ('AppendQuery' is an "
          "append query)" },
    };
    refused_on("jackcess/V1997/queryTestV1997.mdb", "jet3q.mdb", NULL,
               calls, NCASES(calls), "SELECT COUNT(*) FROM Table1");
    /* SQLGetInfo says so */
    char path[1024], yn[8] = "";
    connect_to(odbct_copy_fixture("jackcess/V1997/testV1997.mdb", "jet3i.mdb",
                                  path, sizeof path), NULL);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "Y");
    odbct_disconnect(env, dbc);
}
END_TEST

/* Every write form refused with HY000 and Access's text, on a table the
 * core would write (testV2003's Table1 has no rule left unenforced). */
static const refusal read_only_cases[] = {
    { "INSERT INTO Table1 (A) VALUES ('ro')", "HY000",
      "[jetodbc]" READ_ONLY_TEXT },
    { "UPDATE Table1 SET B = 'ro'", "HY000", "[jetodbc]" READ_ONLY_TEXT },
    { "DELETE FROM Table1", "HY000", "[jetodbc]" READ_ONLY_TEXT },
    { "INSERT INTO Table1 (A, B) SELECT A & 'x', B FROM Table1", "HY000",
      "[jetodbc]" READ_ONLY_TEXT },
};

START_TEST(read_only_key_refuses)
{
    refused_on("jackcess/V2003/testV2003.mdb", "ro.mdb", "ReadOnly=1;",
               read_only_cases, NCASES(read_only_cases),
               "SELECT COUNT(*) FROM Table1");
    char path[1024], yn[8] = "";
    connect_to(odbct_copy_fixture("jackcess/V2010/testV2010.accdb", "ro.accdb",
                                  path, sizeof path), "ReadOnly=1;");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY,
                                             yn, sizeof yn, NULL));
    ck_assert_str_eq(yn, "Y");
    /* an explicit commit of nothing is fine */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_COMMIT));
    odbct_disconnect(env, dbc);
}
END_TEST

START_TEST(access_mode_read_only_refuses)
{
    char path[1024], cs[2048];
    odbct_snap fs;
    odbct_copy_fixture("jackcess/V2010/testV2010.accdb", "mode.accdb", path,
                       sizeof path);
    odbct_snap_take(&fs, path);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_alloc_dbc(&env, &dbc);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
             (SQLPOINTER)SQL_MODE_READ_ONLY, 0));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs,
             SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT));
    SQLHSTMT st = new_stmt();
    for (size_t i = 0; i < NCASES(read_only_cases); i++)
        expect_refused(st, read_only_cases[i].sql, read_only_cases[i].state,
                       read_only_cases[i].msg);
    /* a parameter array is refused as a whole, before any set */
    SQLUSMALLINT status[3] = { 99, 99, 99 };
    SQLULEN processed = 7;
    SQLCHAR names[3][8] = { "a", "b", "c" };
    SQLLEN lens[3] = { SQL_NTS, SQL_NTS, SQL_NTS };
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
             (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAM_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 40, 0, names, 8, lens));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table1 (A) VALUES (?)", SQL_NTS));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
    ck_assert_str_eq(odbct_message(SQL_HANDLE_STMT, st),
                     "[jetodbc]" READ_ONLY_TEXT);
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(status[k], SQL_PARAM_UNUSED);
    ck_assert_uint_eq(processed, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_ge(scalar("SELECT COUNT(*) FROM Table1"), 0);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    odbct_verify(path);
}
END_TEST

START_TEST(no_permission_says_why)
{
    if (geteuid() == 0) {
        fprintf(stderr, "test_odbc_refuse: SKIP no_permission_says_why: "
                "running as root, which writes a file whatever its "
                "permission bits (chmod 0444 stops nothing)\n");
        return;
    }
    char path[1024];
    odbct_snap fs;
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "perm.mdb", path,
                       sizeof path);
    ck_assert_int_eq(chmod(path, 0444), 0);
    odbct_snap_take(&fs, path);
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    static const char *const writes[] = {
        "INSERT INTO Table1 (A) VALUES ('perm')",
        "UPDATE Table1 SET B = 'perm'",
        "DELETE FROM Table1",
    };
    for (size_t i = 0; i < NCASES(writes); i++) {
        /* the text, then why in parentheses */
        expect_refused(st, writes[i], "HY000", READ_ONLY_TEXT " (");
    }
    ck_assert_int_ge(scalar("SELECT COUNT(*) FROM Table1"), 2);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    chmod(path, 0644);
    odbct_verify(path);
}
END_TEST

/* --------------------------------------- a file another program holds */

/* Write-lock byte off of path in a child process that keeps it until
 * told (a byte on *ctl), as Access holds its user's byte; the child's
 * pid once the lock is held. */
static pid_t hold_byte(const char *path, uint64_t off, int *ctl)
{
    int go[2], ready[2];
    char c;
    ck_assert_int_eq(pipe(go), 0);
    ck_assert_int_eq(pipe(ready), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct flock fl;
        int fd = open(path, O_RDWR);
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = (off_t)off;
        fl.l_len = 1;
        if (fd < 0 || fcntl(fd, F_SETLK, &fl) != 0)
            _exit(3);
        if (write(ready[1], "r", 1) != 1)
            _exit(5);
        if (read(go[0], &c, 1) < 0)
            _exit(6);
        _exit(0);
    }
    close(go[0]);
    close(ready[1]);
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    *ctl = go[1];
    return pid;
}

static void release_byte(pid_t pid, int ctl)
{
    int st;
    ck_assert_int_eq(write(ctl, "g", 1), 1);
    close(ctl);
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A lock file holding one user record at slot: machine, user (64 bytes:
 * 32 of machine name, 32 of user name). */
static void write_lock_record(const char *lock, unsigned slot,
                              const char *machine, const char *user)
{
    unsigned char rec[64];
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    ck_assert_int_ge(fd, 0);
    memset(rec, 0, sizeof rec);
    memcpy(rec, machine, strlen(machine));
    memcpy(rec + 32, user, strlen(user));
    ck_assert_int_eq(pwrite(fd, rec, 64, (off_t)slot * 64), 64);
    close(fd);
}

START_TEST(file_another_program_holds_refuses)
{
    static const char *const files[] = { "jackcess/V2003/testV2003.mdb",
                                         "jackcess/V2010/testV2010.accdb" };
    for (size_t f = 0; f < NCASES(files); f++) {
        char path[1024], lock[1100];
        odbct_snap fs;
        int ctl;
        odbct_copy_fixture(files[f], f ? "held.accdb" : "held.mdb", path,
                           sizeof path);
        odbct_lock_path(lock, sizeof lock, path);
        /* Access on WINPC as bob holds slot 0 */
        write_lock_record(lock, 0, "WINPC", "bob");
        pid_t holder = hold_byte(path, JET_OS_USER_SLOT_BASE, &ctl);
        odbct_snap_take(&fs, path);
        connect_to(path, NULL);
        SQLHSTMT st = new_stmt();
        static const char *const writes[] = {
            "INSERT INTO Table1 (A) VALUES ('held')",
            "UPDATE Table1 SET B = 'held'",
            "DELETE FROM Table1",
        };
        for (size_t i = 0; i < NCASES(writes); i++)
            expect_refused(st, writes[i], "HY000", READ_ONLY_TEXT " (");
        expect_refused(st, writes[0], "HY000", "opened by another program "
                       "(user bob on machine WINPC); reading works");
        /* autocommit off: the transaction's first write is refused */
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
                 SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
        expect_refused(st, writes[1], "HY000", "user bob on machine WINPC");
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                                 SQL_ROLLBACK));
        ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 2);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        odbct_disconnect(env, dbc);
        odbct_snap_same_all(&fs);
        /* bob quits, his record stays (as Access leaves it): the file
         * takes writes again */
        release_byte(holder, ctl);
        connect_to(path, NULL);
        st = new_stmt();
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
                 "UPDATE Table1 SET B = 'free' WHERE A = 'a'", SQL_NTS));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE B = "
                                "'free'"), 1);
        odbct_disconnect(env, dbc);
        odbct_verify(path);
    }
}
END_TEST

/* ------------------------------------------------- unenforced rules */

START_TEST(calculated_and_complex_columns_refuse)
{
    /* calculated columns are computed (test_odbc_calc.c): a value given
     * for one is refused as Access refuses it */
    static const refusal calc[] = {
        { "INSERT INTO Table1 (FirstName, LastFirst) VALUES ('Ada', 'x')",
          "HY000", "[jetodbc]Cannot update 'LastFirst'; field not "
          "updateable" },
        { "UPDATE Table1 SET IsRich = True", "HY000",
          "[jetodbc]Cannot update 'IsRich'; field not updateable" },
    };
    refused_on("jackcess/V2010/calcFieldTestV2010.accdb", "calc.accdb",
               NULL, calc, NCASES(calc), "SELECT COUNT(*) FROM Table1");
    /* attachments and multi-value fields are kept (complex.c): only
     * a complex column of an unknown kind refuses */
    static const refusal unknown[] = {
        { "DELETE FROM Test", "HYC00", "table 'Test' has a complex column "
          "'UnknownComplex'" },
    };
    refused_on("jackcess/V2007/unsupportedFieldsTestV2007.accdb",
               "unsupported.accdb", NULL, unknown, NCASES(unknown),
               "SELECT COUNT(*) FROM Test");
}
END_TEST

START_TEST(system_table_refuses)
{
    static const refusal cases[] = {
        { "DELETE FROM MSysObjects WHERE 1 = 0", "HYC00",
          "[jetodbc]not supported: table 'MSysObjects' is a system table: "
          "writing it is not supported" },
        { "UPDATE MSysObjects SET Name = 'x' WHERE 1 = 0", "HYC00",
          "table 'MSysObjects' is a system table" },
    };
    refused_on("jackcess/V2003/testV2003.mdb", "sys.mdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
}
END_TEST

START_TEST(linked_table_refuses)
{
    char linker[1024], linkee[1024];
    odbct_snap fs, fs2;
    /* the link names linkeeTest.accdb beside the linking file */
    odbct_copy_fixture("jackcess/linkeeTest.accdb", "linkeeTest.accdb", linkee,
                       sizeof linkee);
    odbct_copy_fixture("jackcess/V2007/linkerTestV2007.accdb", "linker.accdb",
                       linker, sizeof linker);
    odbct_snap_take(&fs, linker);
    odbct_snap_take(&fs2, linkee);
    connect_to(linker, NULL);
    ck_assert_int_gt(scalar("SELECT COUNT(*) FROM Table2"), 0);
    SQLHSTMT st = new_stmt();
    expect_refused(st, "INSERT INTO Table2 (id) VALUES (99)", "HYC00",
                   "[jetodbc]not supported: table 'Table2' is a linked "
                   "table: writing it is not supported yet");
    expect_refused(st, "DELETE FROM Table2", "HYC00",
                   "table 'Table2' is a linked table");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    odbct_snap_same_all(&fs2);
    odbct_verify(linker);
    odbct_verify(linkee);
}
END_TEST

/* Give a copy of testV2003.mdb validation rules with Jackcess (no
 * writable public fixture has one; SetProperties.java): 0, or -1 when
 * java or the jars are missing. */
static int add_validation_rule(const char *path, const char *table,
                               const char *column, const char *rule)
{
    char args[1024];
    snprintf(args, sizeof args, "'%s' '%s' ValidationRule MEMO '%s'", table,
             column, rule);
    return odbct_set_properties(path, args);
}

START_TEST(validation_rule_refuses)
{
    char path[1024];
    odbct_snap fs;
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "rule.mdb", path,
                       sizeof path);
    if (add_validation_rule(path, "Table1", "C", "<100") != 0 ||
        add_validation_rule(path, "Table2", "", "[A] <> [B]") != 0) {
        fprintf(stderr, "test_odbc_refuse: SKIP validation_rule_refuses: "
                "java with Jackcess could not give a copy a validation "
                "rule\n");
        return;
    }
    odbct_snap_take(&fs, path);
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    /* a rule the engine evaluates (test_odbc_rules.c has the writes it
     * allows) */
    expect_refused(st, "INSERT INTO Table1 (A, C) VALUES ('v', 100)",
                   "23000", "[jetodbc]One or more values are prohibited by "
                   "the validation rule '<100' set for 'Table1.C'. Enter a "
                   "value that the expression for this field can accept.");
    expect_refused(st, "UPDATE Table1 SET C = C + 100", "23000",
                   "the validation rule '<100' set for 'Table1.C'");
    /* one it cannot: the table's rule names columns Table2 lacks */
    expect_refused(st, "INSERT INTO Table2 (column1) VALUES ('v')", "HYC00",
                   "[jetodbc]not supported: the validation rule '[A] <> [B]' "
                   "set for 'Table2' is not an expression this driver "
                   "evaluates (");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    odbct_verify(path);
}
END_TEST

/* ------------------------------------------ keys, Required, values */

/* testV2003's Table1: A Text(50) primary key, B Text, C Byte, D Integer,
 * E Long, F Double, G Date/Time, H Currency, I Yes/No; rows 'abcdefg'
 * and 'a'. */
START_TEST(duplicate_key_refuses)
{
    static const refusal cases[] = {
        { "INSERT INTO Table1 (A) VALUES ('abcdefg')", "23000",
          DUPLICATE_TEXT " (index 'PrimaryKey' of table 'Table1')" },
        /* the key compares as Access compares text: case does not count */
        { "INSERT INTO Table1 (A) VALUES ('ABCDEFG')", "23000",
          DUPLICATE_TEXT " (index 'PrimaryKey' of table 'Table1')" },
        { "UPDATE Table1 SET A = 'a' WHERE A = 'abcdefg'", "23000",
          DUPLICATE_TEXT " (index 'PrimaryKey' of table 'Table1')" },
        { "UPDATE Table1 SET A = 'same'", "23000", DUPLICATE_TEXT },
        /* INSERT ... SELECT whose second row collides: none stays */
        { "INSERT INTO Table1 (A) SELECT A & '!' FROM Table1 UNION ALL "
          "SELECT 'a!' FROM Table1 WHERE A = 'a'", "23000", DUPLICATE_TEXT },
        { "INSERT INTO Table1 (A) VALUES (NULL)", "23000",
          "[jetodbc]Index or primary key cannot contain a Null value "
          "('Table1.A', index 'PrimaryKey')" },
    };
    refused_on("jackcess/V2003/testV2003.mdb", "dup.mdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
    refused_on("jackcess/V2010/testV2010.accdb", "dup.accdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
    /* in a transaction: the refused statement leaves nothing, the
     * transaction's earlier write stays until the rollback */
    char path[1024];
    odbct_snap fs;
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "dup2.mdb", path,
                       sizeof path);
    odbct_snap_take(&fs, path);
    connect_to(path, NULL);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "INSERT INTO Table1 (A) VALUES ('new')", SQL_NTS));
    expect_refused(st, "INSERT INTO Table1 (A) VALUES ('NEW')", "23000",
                   DUPLICATE_TEXT);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 3);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 2);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    odbct_verify(path);
}
END_TEST

START_TEST(required_field_refuses)
{
    /* fixedTextTest's users: every field Required */
    static const refusal cases[] = {
        { "UPDATE users SET i_user_id = NULL", "23000",
          "[jetodbc]You must enter a value in the 'users.i_user_id' "
          "field." },
        { "UPDATE users SET c_user_name = NULL WHERE i_user_id = 2", "23000",
          "[jetodbc]You must enter a value in the 'users.c_user_name' "
          "field." },
        { "INSERT INTO users (i_user_id) VALUES (5)", "23000",
          "[jetodbc]You must enter a value in the 'users.c_user_login' "
          "field." },
    };
    refused_on("jackcess/V2003/fixedTextTestV2003.mdb", "req.mdb", NULL,
               cases, NCASES(cases), "SELECT COUNT(*) FROM users");
    refused_on("jackcess/V2010/fixedTextTestV2010.accdb", "req.accdb", NULL,
               cases, NCASES(cases), "SELECT COUNT(*) FROM users");
}
END_TEST

START_TEST(values_that_do_not_fit_refuse)
{
    static const refusal cases[] = {
        /* 51 characters into Text(50) */
        { "INSERT INTO Table1 (A) VALUES ('012345678901234567890123456789"
          "012345678901234567890')", "22001", "[jetodbc]The field is "
          "too small to accept the amount of data you attempted to add. "
          "Try inserting or pasting less data. (column 'A': text longer "
          "than the column's size)" },
        { "UPDATE Table1 SET B = '01234567890123456789012345678901234567"
          "890123456789012345678901234567890123456789012345678901234567"
          "890123456789' WHERE A = 'a'", "22001", "[jetodbc]The field is "
          "too small to accept the amount of data you attempted to add. "
          "Try inserting or pasting less data. (column 'B'" },
        /* Byte is 0..255, Integer -32768..32767, Long 32 bits */
        { "INSERT INTO Table1 (A, C) VALUES ('q', 256)", "22003",
          "[jetodbc]Numeric field overflow. (column 'C': outside the "
          "range of its type)" },
        { "UPDATE Table1 SET C = -1", "22003",
          "[jetodbc]Numeric field overflow. (column 'C'" },
        { "UPDATE Table1 SET D = 32768", "22003",
          "[jetodbc]Numeric field overflow. (column 'D'" },
        { "UPDATE Table1 SET D = D - 40000", "22003",
          "Numeric field overflow. (column 'D'" },
        { "UPDATE Table1 SET E = 3000000000", "22003",
          "Numeric field overflow. (column 'E'" },
        /* text that is no number, no date */
        { "UPDATE Table1 SET E = 'abc'", "22018",
          "[jetodbc]Data type mismatch in criteria expression. (column "
          "'E': text is not a number)" },
        { "INSERT INTO Table1 (A, C) VALUES ('q', '1x')", "22018",
          "Data type mismatch in criteria expression. (column 'C'" },
        { "UPDATE Table1 SET G = 'not a date'", "22018",
          "Data type mismatch in criteria expression. (column 'G': text "
          "is not a date)" },
    };
    refused_on("jackcess/V2003/testV2003.mdb", "fit.mdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
    refused_on("jackcess/V2010/testV2010.accdb", "fit.accdb", NULL, cases,
               NCASES(cases), "SELECT COUNT(*) FROM Table1");
}
END_TEST

/* The same refusals with the values as parameters: a bound text too long
 * for its field, a bound number past a Byte, bound text that is no
 * number, and a parameter array whose second set does not fit (none of
 * it stays; its status row says which). */
START_TEST(bound_values_that_do_not_fit_refuse)
{
    char path[1024];
    odbct_snap fs;
    odbct_copy_fixture("jackcess/V2003/testV2003.mdb", "bound.mdb", path,
                       sizeof path);
    odbct_snap_take(&fs, path);
    connect_to(path, NULL);
    SQLHSTMT st = new_stmt();
    char text[80];
    SQLLEN text_ind = SQL_NTS;
    SQLINTEGER num = 0;
    memset(text, 'x', 60);
    text[60] = '\0';
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table1 (A, C) VALUES (?, ?)", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 80, 0, text, sizeof text, &text_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 2, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, &num, 0, NULL));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22001");
    snprintf(text, sizeof text, "fits");
    num = 300;
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "Numeric field overflow."));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* text bound for a Long column */
    st = new_stmt();
    snprintf(text, sizeof text, "twelve");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "UPDATE Table1 SET E = ?", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 80, 0, text, sizeof text, &text_ind));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22018");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* an array: set 2 is past a Byte */
    st = new_stmt();
    SQLCHAR keys[3][8] = { "k1", "k2", "k3" };
    SQLLEN key_ind[3] = { SQL_NTS, SQL_NTS, SQL_NTS };
    SQLINTEGER bytes[3] = { 1, 1000, 3 };
    SQLUSMALLINT status[3] = { 99, 99, 99 };
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
             (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st,
             SQL_ATTR_PARAM_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 50, 0, keys, 8, key_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 2, SQL_PARAM_INPUT,
             SQL_C_SLONG, SQL_INTEGER, 0, 0, bytes, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table1 (A, C) VALUES (?, ?)", SQL_NTS));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    ck_assert_int_eq(status[1], SQL_PARAM_ERROR);
    ck_assert_int_eq(status[2], SQL_PARAM_UNUSED);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 2);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&fs);
    odbct_verify(path);
}
END_TEST

static Suite *refuse_suite(void)
{
    Suite *s = suite_create("odbc_refuse");
    TCase *tc = tcase_create("refuse");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, access97_refuses_every_write);
    tcase_add_test(tc, read_only_key_refuses);
    tcase_add_test(tc, access_mode_read_only_refuses);
    tcase_add_test(tc, no_permission_says_why);
    tcase_add_test(tc, file_another_program_holds_refuses);
    tcase_add_test(tc, calculated_and_complex_columns_refuse);
    tcase_add_test(tc, system_table_refuses);
    tcase_add_test(tc, linked_table_refuses);
    tcase_add_test(tc, validation_rule_refuses);
    tcase_add_test(tc, duplicate_key_refuses);
    tcase_add_test(tc, required_field_refuses);
    tcase_add_test(tc, values_that_do_not_fit_refuse);
    tcase_add_test(tc, bound_values_that_do_not_fit_refuse);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(refuse_suite)
