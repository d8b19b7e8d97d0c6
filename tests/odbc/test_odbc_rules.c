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

#include "odbcwrite.h"

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

static void connect_to(const char *path)
{
    odbct_connect_file(&env, &dbc, path, NULL);
}

static void exec_rows(const char *sql, long n)
{
    odbct_exec_rows(dbc, sql, n);
}

/* sql is refused with state, its message beginning with msg (after the
 * "[jetodbc]" prefix) and, when tail is not NULL, ending with it. */
static void expect_refused(const char *sql, const char *state,
                           const char *msg, const char *tail)
{
    char pre[1024];
    snprintf(pre, sizeof pre, "[jetodbc]%s", msg);
    odbct_refused(dbc, sql, state, pre, tail);
}

static void expect_row(const char *sql, const char *want)
{
    odbct_expect_row(dbc, sql, want);
}

static long scalar(const char *sql)
{
    char buf[256];
    return strtol(odbct_row_text(dbc, sql, buf, sizeof buf), NULL, 10);
}

/* ------------------------------------------------------ DefaultValue */

/* The fixtures' own defaults (0 on C, D, E, F, H): an INSERT that omits
 * the columns gets them, through VALUES, a prepared statement run twice
 * and INSERT ... SELECT; an explicit NULL stays NULL. */
START_TEST(defaults_fill_omitted_columns)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "defaults", path, sizeof path);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (A) VALUES ('n1')", 1);
    expect_row("SELECT B, C, D, E, F, G, H FROM Table1 WHERE A = 'n1'",
               "NULL|0|0|0|0|NULL|0.0000");
    /* an explicit NULL is not replaced */
    exec_rows("INSERT INTO Table1 (A, C, D) VALUES ('n2', NULL, 7)", 1);
    expect_row("SELECT C, D, E FROM Table1 WHERE A = 'n2'", "NULL|7|0");
    /* prepared once, run twice: each run has its defaults */
    SQLHSTMT st = odbct_stmt(dbc);
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
    odbct_verify(path);
    static const char *const rows[] = {
        "[\"n1\", null, 0, 0, 0, 0.0, null, \"0.0000\", false]",
        "[\"n2\", null, null, 7, 0, 0.0, null, \"0.0000\", false]",
        "[\"p2\", \"p\", 0, 0, 0, 0.0, null, \"0.0000\", false]",
        "[\"n2-s\", \"s\", 0, 0, 0, 0.0, null, \"0.0000\", false]",
        NULL
    };
    odbct_dump_has(path, rows);
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
    odbct_copy_fixture(fixtures[_i], "defexpr", path, sizeof path);
    if (odbct_set_properties(path,
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
    odbct_snap before;
    odbct_snap_take(&before, path);
    expect_refused("INSERT INTO Table2 (column1) VALUES ('z')", "HYC00",
                   "not supported: the DefaultValue 'Nonesuch(1)' set for "
                   "'Table2.column2' is not an expression this driver "
                   "evaluates", NULL);
    odbct_snap_same(&before);
    exec_rows("INSERT INTO Table2 (column1, column2) VALUES ('z', 'w')", 1);
    expect_row("SELECT column2 FROM Table2 WHERE column1 = 'z'", "w");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const rows[] = {
        "[\"d2\", null, 0, 0, 0, 2.5, null, \"0.0000\", true]",
        "[100, \"hello\"]",
        NULL
    };
    odbct_dump_has(path, rows);
}
END_TEST

/* -------------------------------------------------- AllowZeroLength */

/* Table1.A and .B have AllowZeroLength No in the fixtures: '' is refused
 * (INSERT, UPDATE, a bound parameter), NULL is not; Table2's columns
 * allow ''. */
START_TEST(zero_length_strings_refuse)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "azl", path, sizeof path);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (A, B) VALUES ('z1', '')", "23000",
                   "Field 'Table1.B' cannot be a zero-length string.", NULL);
    expect_refused("INSERT INTO Table1 (A) VALUES ('')", "23000",
                   "Field 'Table1.A' cannot be a zero-length string.", NULL);
    expect_refused("UPDATE Table1 SET B = '' WHERE A = 'a'", "23000",
                   "Field 'Table1.B' cannot be a zero-length string.", NULL);
    SQLHSTMT st = odbct_stmt(dbc);
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
    odbct_snap_same(&before);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (A, B) VALUES ('z3', NULL)", 1);
    exec_rows("INSERT INTO Table2 (column1, column2) VALUES ('z4', '')", 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table2 WHERE column2 = "
                            "''"), 1);
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const rows[] = {
        "[\"z3\", null, 0, 0, 0, 0.0, null, \"0.0000\", false]",
        NULL
    };
    odbct_dump_has(path, rows);
}
END_TEST

/* ALTER COLUMN that sets a default or NOT NULL keeps the field's other
 * properties: B keeps AllowZeroLength No beside its new DefaultValue, A
 * too beside Required (its rows all hold a value). */
START_TEST(alter_column_keeps_other_properties)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "altprops", path, sizeof path);
    connect_to(path);
    SQLHSTMT st = odbct_stmt(dbc);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "ALTER TABLE Table1 ALTER COLUMN B TEXT(100) DEFAULT 'dflt'",
             SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "ALTER TABLE Table1 ALTER COLUMN A TEXT(60) NOT NULL",
             SQL_NTS));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    connect_to(path);           /* the properties as stored */
    expect_refused("INSERT INTO Table1 (A, B) VALUES ('z1', '')", "23000",
                   "Field 'Table1.B' cannot be a zero-length string.", NULL);
    expect_refused("INSERT INTO Table1 (A) VALUES ('')", "23000",
                   "Field 'Table1.A' cannot be a zero-length string.", NULL);
    expect_refused("INSERT INTO Table1 (B) VALUES ('x')", "23000",
                   "You must enter a value in the 'Table1.A' field.", NULL);
    exec_rows("INSERT INTO Table1 (A) VALUES ('z2')", 1);
    expect_row("SELECT B & '|' & C FROM Table1 WHERE A = 'z2'", "dflt|0");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const rows[] = {
        "[\"z2\", \"dflt\", 0, 0, 0, 0.0, null, \"0.0000\", false]",
        NULL
    };
    odbct_dump_has(path, rows);
}
END_TEST

/* ASampleDatabase.accdb, made by Access: Asset Items' Memo Comments has
 * AllowZeroLength No, Cost and Warranty DefaultValue 0. */
START_TEST(sample_database_rules)
{
    char path[1024];
    odbct_copy_fixture("mdbtestdata/ASampleDatabase.accdb", "sample", path,
                       sizeof path);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path);
    expect_refused("UPDATE [Asset Items] SET Comments = ''", "23000",
                   "Field 'Asset Items.Comments' cannot be a zero-length "
                   "string.", NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
    connect_to(path);
    exec_rows("INSERT INTO [Asset Items] ([Asset No], Comments) VALUES "
              "('zz', 'new')", 1);
    expect_row("SELECT Cost, Warranty, Comments FROM [Asset Items] WHERE "
               "[Asset No] = 'zz'", "0.0000|0|new");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
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
    odbct_copy_fixture(fixtures[_i], "rules", path, sizeof path);
    if (odbct_set_properties(path, RULES) != 0) {
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
    odbct_snap before;
    odbct_snap_take(&before, path);
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
    odbct_snap_same(&before);
    connect_to(path);
    expect_row("SELECT B, C, E FROM Table1 WHERE A = 'v1'", "bee|50|5000");
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 4);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table2"), 1);
    exec_rows("DELETE FROM Table1 WHERE A = 'v2'", 1);
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const rows[] = {
        "[\"v1\", \"bee\", 50, 0, 5000, 0.0, null, \"0.0000\", false]",
        "[\"p\", \"q\", \"x\", \"abc\"",
        NULL
    };
    odbct_dump_has(path, rows);
}
END_TEST

/* A rule the engine cannot evaluate (an unknown function) is never
 * skipped: INSERT and UPDATE of the table are refused (HYC00) and the
 * file stays as it was; DELETE, which no rule judges, is not. */
START_TEST(unevaluable_rule_refuses_writes)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "norule", path, sizeof path);
    if (odbct_set_properties(path, "Table1 H ValidationRule MEMO "
                                   "'Nonesuch([H]) > 0'") != 0) {
        fprintf(stderr, "test_odbc_rules: SKIP unevaluable_rule: java with "
                "Jackcess could not set properties\n");
        return;
    }
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (A) VALUES ('u1')", "HYC00",
                   "not supported: the validation rule 'Nonesuch([H]) > 0' "
                   "set for 'Table1.H' is not an expression this driver "
                   "evaluates", NULL);
    expect_refused("UPDATE Table1 SET B = 'bx' WHERE A = 'a'", "HYC00",
                   "not supported: the validation rule 'Nonesuch([H]) > 0'",
                   NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
    connect_to(path);
    exec_rows("DELETE FROM Table1 WHERE A = 'a'", 1);
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1"), 1);
    odbct_disconnect(env, dbc);
    odbct_verify(path);
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
    tcase_add_loop_test(tc, alter_column_keeps_other_properties, 0,
                        NFIXTURES);
    tcase_add_test(tc, sample_database_rules);
    tcase_add_loop_test(tc, validation_rules_refuse_and_allow, 0,
                        NFIXTURES);
    tcase_add_loop_test(tc, unevaluable_rule_refuses_writes, 0, NFIXTURES);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(rules_suite)
