/*
 * test_odbc_rules.c - the column and table rules Access keeps in a
 * table's properties, enforced on writes through the driver manager
 * (issue 26): DefaultValue fills the columns an INSERT omits (never an
 * explicit NULL), AllowZeroLength = No refuses '', ValidationRule /
 * ValidationText refuse a row that breaks a column's or the table's rule
 * (23000, the ValidationText or Access's message), a rule the engine
 * cannot evaluate refuses the write (HYC00).
 *
 * Each case works on a copy of a public fixture in the temporary
 * directory: testV2003.mdb and testV2007.accdb, whose Table1 has
 * DefaultValue 0 on C..H and AllowZeroLength No on A and B. No writable
 * public fixture has a validation rule or an expression default, so the
 * copies get them from Jackcess (SetProperties.java, java and the jars
 * jetcheck uses; the cases skip without them). An allowed write is
 * checked by reading it back and by `jetcheck verify` (0 problems) and
 * `jetcheck dump` of the file; a refused one by its SQLSTATE and message
 * and the file byte for byte as it was.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odbctest.h"
#include "../shared_dir.h"
#include "../slurp.h"

#ifndef JET_SRCDIR
#define JET_SRCDIR ".."
#endif

static SQLHENV env;
static SQLHDBC dbc;

/* The two fixtures every case runs on. */
static const char *const fixtures[] = {
    "jackcess/V2003/testV2003.mdb",
    "jackcess/V2007/testV2007.accdb",
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

#define RULE_TAIL "Enter a value that the expression for this field can " \
                  "accept."

/* ------------------------------------------------------------ helpers */

/* Copy fixture rel into the temporary directory as name + its extension;
 * the copy's path in out. */
static const char *copy_fixture(const char *rel, const char *name,
                                char *out, size_t cap)
{
    char cmd[4096];
    snprintf(out, cap, "%s/%s%s", odbct_tmpdir(), name, strrchr(rel, '.'));
    chmod(out, 0644);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 0644 '%s'",
             odbct_fixture(rel), out, out);
    ck_assert_int_eq(system(cmd), 0);
    return out;
}

/* Set properties on the file at path with Jackcess: args is the
 * SetProperties.java argument list after the file (quoted groups of
 * TABLE COLUMN NAME TYPE VALUE). 0, or -1 when java or the jars are
 * missing (the caller skips). */
static int set_properties(const char *path, const char *args)
{
    char cmd[8192];
    const char *java_dir = getenv("JETCHECK_JAVA_DIR");
    if (!java_dir || !*java_dir)
        java_dir = "/usr/share/java";
    snprintf(cmd, sizeof cmd, "java -XX:+UseSerialGC "
             "-XX:TieredStopAtLevel=1 -cp '%s/tools/jetcheck/jackcess.jar:"
             "%s/commons-lang3.jar:%s/commons-logging.jar' "
             "'%s/tests/odbc/SetProperties.java' '%s' %s",
             jet_shared_dir(), java_dir, java_dir, JET_SRCDIR, path, args);
    return system(cmd) == 0 ? 0 : -1;
}

/* The whole file at path (malloc'd, one byte more), *n its size. */
static unsigned char *slurp(const char *path, size_t *n)
{
    unsigned char *b = jet_test_slurp(path, n);
    ck_assert_msg(b != NULL, "cannot read %s", path);
    unsigned char *z = realloc(b, *n + 1);
    ck_assert_ptr_nonnull(z);
    return z;
}

/* jetcheck verify (Jackcess) finds no problem in path. */
static void verify(const char *path)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">/dev/null", jet_shared_dir(), path);
    ck_assert_msg(system(cmd) == 0, "jetcheck verify %s failed", path);
}

/* jetcheck dump of path holds each of the rows in want (JSON row text as
 * jetcheck writes it, e.g. ["n1", null, 0]); NULL ends want. */
static void dump_has(const char *path, const char *const *want)
{
    char cmd[2048], out[1100];
    snprintf(out, sizeof out, "%s.dump", path);
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck dump '%s' "
             ">'%s' 2>/dev/null", jet_shared_dir(), path, out);
    ck_assert_msg(system(cmd) == 0, "jetcheck dump %s failed", path);
    size_t n;
    unsigned char *d = slurp(out, &n);
    d[n] = '\0';
    for (; *want; want++)
        ck_assert_msg(strstr((char *)d, *want) != NULL,
                      "jetcheck dump of %s lacks the row %s", path, *want);
    free(d);
    unlink(out);
}

static void connect_to(const char *path)
{
    char cs[2048];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_connect(&env, &dbc, cs);
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

/* Run sql; it must change n rows. */
static void exec_rows(const char *sql, SQLLEN n)
{
    SQLHSTMT st = new_stmt();
    SQLLEN rows = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rows));
    ck_assert_msg(rows == n, "%s: %ld rows, expected %ld", sql, (long)rows,
                  (long)n);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* sql is refused with state, its message beginning with msg (after the
 * "[jetodbc]" prefix) and, when tail is not NULL, ending with it. */
static void expect_refused(const char *sql, const char *state,
                           const char *msg, const char *tail)
{
    SQLHSTMT st = new_stmt();
    SQLRETURN r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    const char *m = odbct_message(SQL_HANDLE_STMT, st);
    ck_assert_msg(r == SQL_ERROR, "%s: returned %d", sql, (int)r);
    ck_assert_msg(strcmp(odbct_state(SQL_HANDLE_STMT, st), state) == 0,
                  "%s: %s %s (expected %s)", sql,
                  odbct_state(SQL_HANDLE_STMT, st), m, state);
    ck_assert_msg(strncmp(m, "[jetodbc]", 9) == 0 &&
                  strncmp(m + 9, msg, strlen(msg)) == 0,
                  "%s: message\n  %s\nexpected\n  [jetodbc]%s", sql, m, msg);
    if (tail) {
        size_t ml = strlen(m), tl = strlen(tail);
        ck_assert_msg(ml >= tl && strcmp(m + ml - tl, tail) == 0,
                      "%s: message\n  %s\ndoes not end with\n  %s", sql, m,
                      tail);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* The first row of sql, its columns as text joined by '|' (NULL for a
 * null), into buf. */
static const char *row_text(const char *sql, char *buf, size_t cap)
{
    SQLHSTMT st = new_stmt();
    SQLSMALLINT ncols = 0;
    size_t at = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &ncols));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    buf[0] = '\0';
    for (SQLSMALLINT i = 1; i <= ncols; i++) {
        char v[256];
        SQLLEN ind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, (SQLUSMALLINT)i,
                                                 SQL_C_CHAR, v, sizeof v,
                                                 &ind));
        int w = snprintf(buf + at, cap - at, "%s%s", i > 1 ? "|" : "",
                         ind == SQL_NULL_DATA ? "NULL" : v);
        ck_assert(w > 0 && (size_t)w < cap - at);
        at += (size_t)w;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return buf;
}

static void expect_row(const char *sql, const char *want)
{
    char buf[1024];
    ck_assert_msg(strcmp(row_text(sql, buf, sizeof buf), want) == 0,
                  "%s:\n  %s\nexpected\n  %s", sql, buf, want);
}

static long scalar(const char *sql)
{
    char buf[256];
    return strtol(row_text(sql, buf, sizeof buf), NULL, 10);
}

/* ------------------------------------------------------ DefaultValue */

/* The fixtures' own defaults (0 on C, D, E, F, H): an INSERT that omits
 * the columns gets them, through VALUES, a prepared statement run twice
 * and INSERT ... SELECT; an explicit NULL stays NULL. */
START_TEST(defaults_fill_omitted_columns)
{
    char path[1024];
    copy_fixture(fixtures[_i], "defaults", path, sizeof path);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (A) VALUES ('n1')", 1);
    expect_row("SELECT B, C, D, E, F, G, H FROM Table1 WHERE A = 'n1'",
               "NULL|0|0|0|0|NULL|0.0000");
    /* an explicit NULL is not replaced */
    exec_rows("INSERT INTO Table1 (A, C, D) VALUES ('n2', NULL, 7)", 1);
    expect_row("SELECT C, D, E FROM Table1 WHERE A = 'n2'", "NULL|7|0");
    /* prepared once, run twice: each run has its defaults */
    SQLHSTMT st = new_stmt();
    char key[8];
    SQLLEN klen = SQL_NTS;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "INSERT INTO Table1 (A, B) VALUES (?, 'p')", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 50, 0, key, sizeof key, &klen));
    for (int i = 1; i <= 2; i++) {
        snprintf(key, sizeof key, "p%d", i);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE B = 'p' AND "
                            "C = 0 AND D = 0 AND E = 0 AND F = 0 AND "
                            "H = 0"), 2);
    /* INSERT ... SELECT omitting columns */
    exec_rows("INSERT INTO Table1 (A, B) SELECT A & '-s', 's' FROM Table1 "
              "WHERE A IN ('n2', 'p1')", 2);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE B = 's' AND "
                            "C = 0 AND D = 0 AND E = 0 AND H = 0"), 2);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 8);
    odbct_disconnect(env, dbc);
    verify(path);
    static const char *const rows[] = {
        "[\"n1\", null, 0, 0, 0, 0.0, null, \"0.0000\", false]",
        "[\"n2\", null, null, 7, 0, 0.0, null, \"0.0000\", false]",
        "[\"p2\", \"p\", 0, 0, 0, 0.0, null, \"0.0000\", false]",
        "[\"n2-s\", \"s\", 0, 0, 0, 0.0, null, \"0.0000\", false]",
        NULL
    };
    dump_has(path, rows);
}
END_TEST

/* Defaults that are expressions (Jackcess puts them on a copy): text,
 * =Date(), Yes, arithmetic, a lone word (its own text); one the engine
 * cannot evaluate refuses the INSERT that needs it (HYC00), file
 * unchanged, and not one that gives the column. A rule that is a value
 * ("True" on the Yes/No column) is an equality. */
START_TEST(defaults_from_expressions)
{
    char path[1024];
    copy_fixture(fixtures[_i], "defexpr", path, sizeof path);
    if (set_properties(path,
                       "Table1 B DefaultValue MEMO '\"N/A\"' "
                       "Table1 G DefaultValue MEMO '=Date()' "
                       "Table1 I DefaultValue MEMO 'Yes' "
                       "Table1 I ValidationRule MEMO 'True' "
                       "Table1 F DefaultValue MEMO '=1+1.5' "
                       "Table3 b DefaultValue MEMO 'hello' "
                       "Table2 column2 DefaultValue MEMO 'Nonesuch(1)'")
        != 0) {
        fprintf(stderr, "test_odbc_rules: SKIP defaults_from_expressions: "
                "java with Jackcess could not set properties\n");
        return;
    }
    connect_to(path);
    exec_rows("INSERT INTO Table1 (A) VALUES ('d1')", 1);
    expect_row("SELECT B, C, F, I FROM Table1 WHERE A = 'd1'",
               "N/A|0|2.5|1");
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE A = 'd1' "
                            "AND G = Date()"), 1);
    /* given columns keep what they are given, NULL included */
    exec_rows("INSERT INTO Table1 (A, B, G, I) VALUES ('d2', NULL, NULL, "
              "True)", 1);
    expect_row("SELECT B, G, I, F FROM Table1 WHERE A = 'd2'",
               "NULL|NULL|1|2.5");
    /* I's rule "True" is "[I] = True"; a Null given a Yes/No is No */
    expect_refused("INSERT INTO Table1 (A, I) VALUES ('d3', False)", "23000",
                   "One or more values are prohibited by the validation "
                   "rule 'True' set for 'Table1.I'.", RULE_TAIL);
    expect_refused("INSERT INTO Table1 (A, I) VALUES ('d4', NULL)", "23000",
                   "One or more values are prohibited by the validation "
                   "rule 'True' set for 'Table1.I'.", RULE_TAIL);
    exec_rows("INSERT INTO Table3 (a) VALUES (100)", 1);
    expect_row("SELECT b FROM Table3 WHERE a = 100", "hello");
    size_t n0, n1;
    unsigned char *before = slurp(path, &n0);
    expect_refused("INSERT INTO Table2 (column1) VALUES ('z')", "HYC00",
                   "not supported: the DefaultValue 'Nonesuch(1)' set for "
                   "'Table2.column2' is not an expression this driver "
                   "evaluates", NULL);
    unsigned char *after = slurp(path, &n1);
    ck_assert_msg(n0 == n1 && memcmp(before, after, n0) == 0,
                  "a refused INSERT changed %s", path);
    free(before);
    free(after);
    exec_rows("INSERT INTO Table2 (column1, column2) VALUES ('z', 'w')", 1);
    expect_row("SELECT column2 FROM Table2 WHERE column1 = 'z'", "w");
    odbct_disconnect(env, dbc);
    verify(path);
    static const char *const rows[] = {
        "[\"d2\", null, 0, 0, 0, 2.5, null, \"0.0000\", true]",
        "[100, \"hello\"]",
        NULL
    };
    dump_has(path, rows);
}
END_TEST

/* -------------------------------------------------- AllowZeroLength */

/* Table1.A and .B have AllowZeroLength No in the fixtures: '' is refused
 * (INSERT, UPDATE, a bound parameter), NULL is not; Table2's columns
 * allow ''. */
START_TEST(zero_length_strings_refuse)
{
    char path[1024];
    size_t n0, n1;
    copy_fixture(fixtures[_i], "azl", path, sizeof path);
    unsigned char *before = slurp(path, &n0);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (A, B) VALUES ('z1', '')", "23000",
                   "Field 'Table1.B' cannot be a zero-length string.", NULL);
    expect_refused("INSERT INTO Table1 (A) VALUES ('')", "23000",
                   "Field 'Table1.A' cannot be a zero-length string.", NULL);
    expect_refused("UPDATE Table1 SET B = '' WHERE A = 'a'", "23000",
                   "Field 'Table1.B' cannot be a zero-length string.", NULL);
    SQLHSTMT st = new_stmt();
    char empty[4] = "";
    SQLLEN elen = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, 1, SQL_PARAM_INPUT,
             SQL_C_CHAR, SQL_VARCHAR, 50, 0, empty, sizeof empty, &elen));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO Table1 "
                                   "(A, B) VALUES ('z2', ?)", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "23000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    unsigned char *after = slurp(path, &n1);
    ck_assert_msg(n0 == n1 && memcmp(before, after, n0) == 0,
                  "a refused write changed %s", path);
    free(before);
    free(after);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (A, B) VALUES ('z3', NULL)", 1);
    exec_rows("INSERT INTO Table2 (column1, column2) VALUES ('z4', '')", 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table2 WHERE column2 = "
                            "''"), 1);
    odbct_disconnect(env, dbc);
    verify(path);
    static const char *const rows[] = {
        "[\"z3\", null, 0, 0, 0, 0.0, null, \"0.0000\", false]",
        NULL
    };
    dump_has(path, rows);
}
END_TEST

/* ASampleDatabase.accdb, made by Access: Asset Items' Memo Comments has
 * AllowZeroLength No, Cost and Warranty DefaultValue 0. */
START_TEST(sample_database_rules)
{
    char path[1024];
    size_t n0, n1;
    copy_fixture("mdbtestdata/ASampleDatabase.accdb", "sample", path,
                 sizeof path);
    unsigned char *before = slurp(path, &n0);
    connect_to(path);
    expect_refused("UPDATE [Asset Items] SET Comments = ''", "23000",
                   "Field 'Asset Items.Comments' cannot be a zero-length "
                   "string.", NULL);
    odbct_disconnect(env, dbc);
    unsigned char *after = slurp(path, &n1);
    ck_assert_msg(n0 == n1 && memcmp(before, after, n0) == 0,
                  "a refused write changed %s", path);
    free(before);
    free(after);
    connect_to(path);
    exec_rows("INSERT INTO [Asset Items] ([Asset No], Comments) VALUES "
              "('zz', 'new')", 1);
    expect_row("SELECT Cost, Warranty, Comments FROM [Asset Items] WHERE "
               "[Asset No] = 'zz'", "0.0000|0|new");
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* ------------------------------------------------------ ValidationRule */

/* The rules Jackcess gives the copies. */
#define RULES                                                            \
    "Table1 C ValidationRule MEMO '<100' "                               \
    "Table1 E ValidationRule MEMO '>=0 And <=5000' "                     \
    "Table1 E ValidationText TEXT 'E must be 0 to 5000' "                \
    "Table1 B ValidationRule MEMO 'Is Null Or Like \"b*\"' "             \
    "Table2 column3 ValidationRule MEMO '\"x\"' "                        \
    "Table2 column4 ValidationRule MEMO 'Len([column4]) = 3' "           \
    "Table2 \"\" ValidationRule MEMO '[column1] <> [column2]' "          \
    "Table2 \"\" ValidationText TEXT 'one and two differ'"

/* Rows that keep every rule land; rows that break one are refused with
 * 23000 and the ValidationText or Access's message (a column's rule
 * without its column: "<100" is "[C] < 100"; a value is an equality;
 * Null passes), statements that break one on any row write nothing, and
 * the file is byte for byte unchanged; DELETE is never refused. */
START_TEST(validation_rules_refuse_and_allow)
{
    char path[1024];
    copy_fixture(fixtures[_i], "rules", path, sizeof path);
    if (set_properties(path, RULES) != 0) {
        fprintf(stderr, "test_odbc_rules: SKIP validation_rules: java with "
                "Jackcess could not set properties\n");
        return;
    }
    connect_to(path);
    /* allowed */
    exec_rows("INSERT INTO Table1 (A, B, C, E) VALUES ('v1', 'bee', 99, "
              "5000)", 1);
    exec_rows("INSERT INTO Table1 (A) VALUES ('v2')", 1);   /* defaults 0 */
    exec_rows("UPDATE Table1 SET C = 50 WHERE A = 'v1'", 1);
    exec_rows("INSERT INTO Table2 (column1, column2, column3, column4) "
              "VALUES ('p', 'q', 'x', 'abc')", 1);
    /* [column1] <> Null is Null: the rule passes */
    exec_rows("INSERT INTO Table2 (column1) VALUES ('r')", 1);
    exec_rows("DELETE FROM Table2 WHERE column1 = 'r'", 1);
    odbct_disconnect(env, dbc);
    size_t n0, n1;
    unsigned char *before = slurp(path, &n0);
    connect_to(path);
    /* refused */
    expect_refused("INSERT INTO Table1 (A, C) VALUES ('w1', 100)", "23000",
                   "One or more values are prohibited by the validation "
                   "rule '<100' set for 'Table1.C'. " RULE_TAIL, RULE_TAIL);
    expect_refused("INSERT INTO Table1 (A, E) VALUES ('w2', -1)", "23000",
                   "E must be 0 to 5000", NULL);
    expect_refused("INSERT INTO Table1 (A, B) VALUES ('w3', 'cat')", "23000",
                   "One or more values are prohibited by the validation "
                   "rule 'Is Null Or Like \"b*\"' set for 'Table1.B'.",
                   RULE_TAIL);
    expect_refused("UPDATE Table1 SET C = 150 WHERE A = 'v1'", "23000",
                   "One or more values are prohibited by the validation "
                   "rule '<100' set for 'Table1.C'.", RULE_TAIL);
    /* v2's row keeps the rule, v1's breaks it: neither changes */
    expect_refused("UPDATE Table1 SET E = E + 4000 WHERE A IN ('v1', 'v2')",
                   "23000", "E must be 0 to 5000", NULL);
    /* every column's rule is checked, changed or not: the fixture's row
     * 'abcdefg' has B 'hijklmnop', which B's rule refuses */
    expect_refused("UPDATE Table1 SET C = 1 WHERE A = 'abcdefg'", "23000",
                   "One or more values are prohibited by the validation "
                   "rule 'Is Null Or Like \"b*\"' set for 'Table1.B'.",
                   RULE_TAIL);
    /* one row of three breaks the rule: none lands */
    expect_refused("INSERT INTO Table1 (A, C) SELECT A & '2', C + 60 FROM "
                   "Table1 WHERE A IN ('a', 'v1', 'v2')", "23000",
                   "One or more values are prohibited by the validation "
                   "rule '<100' set for 'Table1.C'.", RULE_TAIL);
    expect_refused("INSERT INTO Table2 (column1, column2) VALUES ('s', 's')",
                   "23000", "one and two differ", NULL);
    expect_refused("INSERT INTO Table2 (column1, column3) VALUES ('t', 'y')",
                   "23000", "One or more values are prohibited by the "
                   "validation rule '\"x\"' set for 'Table2.column3'.",
                   RULE_TAIL);
    expect_refused("INSERT INTO Table2 (column1, column4) VALUES ('u', "
                   "'abcd')", "23000", "One or more values are prohibited "
                   "by the validation rule 'Len([column4]) = 3' set for "
                   "'Table2.column4'.", RULE_TAIL);
    expect_refused("UPDATE Table2 SET column2 = column1", "23000",
                   "one and two differ", NULL);
    odbct_disconnect(env, dbc);
    unsigned char *after = slurp(path, &n1);
    ck_assert_msg(n0 == n1 && memcmp(before, after, n0) == 0,
                  "a refused write changed %s", path);
    free(before);
    free(after);
    connect_to(path);
    expect_row("SELECT B, C, E FROM Table1 WHERE A = 'v1'", "bee|50|5000");
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 4);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table2"), 1);
    exec_rows("DELETE FROM Table1 WHERE A = 'v2'", 1);
    odbct_disconnect(env, dbc);
    verify(path);
    static const char *const rows[] = {
        "[\"v1\", \"bee\", 50, 0, 5000, 0.0, null, \"0.0000\", false]",
        "[\"p\", \"q\", \"x\", \"abc\"",
        NULL
    };
    dump_has(path, rows);
}
END_TEST

/* A rule the engine cannot evaluate (an unknown function) is never
 * skipped: INSERT and UPDATE of the table are refused (HYC00) and the
 * file stays as it was; DELETE, which no rule judges, is not. */
START_TEST(unevaluable_rule_refuses_writes)
{
    char path[1024];
    copy_fixture(fixtures[_i], "norule", path, sizeof path);
    if (set_properties(path, "Table1 H ValidationRule MEMO "
                             "'Nonesuch([H]) > 0'") != 0) {
        fprintf(stderr, "test_odbc_rules: SKIP unevaluable_rule: java with "
                "Jackcess could not set properties\n");
        return;
    }
    size_t n0, n1;
    unsigned char *before = slurp(path, &n0);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (A) VALUES ('u1')", "HYC00",
                   "not supported: the validation rule 'Nonesuch([H]) > 0' "
                   "set for 'Table1.H' is not an expression this driver "
                   "evaluates", NULL);
    expect_refused("UPDATE Table1 SET B = 'bx' WHERE A = 'a'", "HYC00",
                   "not supported: the validation rule 'Nonesuch([H]) > 0'",
                   NULL);
    odbct_disconnect(env, dbc);
    unsigned char *after = slurp(path, &n1);
    ck_assert_msg(n0 == n1 && memcmp(before, after, n0) == 0,
                  "a refused write changed %s", path);
    free(before);
    free(after);
    connect_to(path);
    exec_rows("DELETE FROM Table1 WHERE A = 'a'", 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 1);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("odbc_rules");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, defaults_fill_omitted_columns, 0, NFIXTURES);
    tcase_add_loop_test(tc, defaults_from_expressions, 0, NFIXTURES);
    tcase_add_loop_test(tc, zero_length_strings_refuse, 0, NFIXTURES);
    tcase_add_test(tc, sample_database_rules);
    tcase_add_loop_test(tc, validation_rules_refuse_and_allow, 0,
                        NFIXTURES);
    tcase_add_loop_test(tc, unevaluable_rule_refuses_writes, 0, NFIXTURES);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(rules_suite)
