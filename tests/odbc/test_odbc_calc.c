/*
 * test_odbc_calc.c - calculated columns (ACE 2010+) computed on every
 * INSERT and UPDATE through the driver manager (issue 26): each from its
 * Expression property by the engine, converted to its ResultType, stored
 * in Access's wrapper, and read back as Access and Jackcess read it
 * (`jetcheck dump`); a value given for one is refused as Access refuses
 * it ("Cannot update '<c>'; field not updateable"); an expression the
 * engine cannot evaluate, or a value it cannot compute for a row (a
 * division by zero), refuses the write (HYC00) and leaves the file byte
 * for byte as it was.
 *
 * Each case works on a copy of calcFieldTestV2010.accdb in the temporary
 * directory. Its Table1 has calculated columns of Text, Memo, Long,
 * Currency, Yes/No, Decimal and Single results, some naming others
 * ([LastFirst] names two calculated columns' source). Cases that need
 * other expressions or a Date/Time result get them from Jackcess
 * (SetProperties.java, java and the jars jetcheck uses; they skip
 * without them). The fixture's TDEF counts 3 of its 4 rows: `jetcheck
 * verify` finds that problem and no other after every write.
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

#define FIXTURE "jackcess/V2010/calcFieldTestV2010.accdb"

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

/* jetcheck verify finds in path only the fixture's own problem (Table1's
 * TDEF row count one short of its rows). */
static void verify_calc(const char *path)
{
    char cmd[2048], out[1100];
    snprintf(out, sizeof out, "%s.verify", path);
    snprintf(cmd, sizeof cmd, "%s/tools/jetcheck/jetcheck verify '%s' "
             ">'%s' 2>&1", jet_shared_dir(), path, out);
    (void)system(cmd);
    size_t n;
    char *d = odbct_file_text(out, &n);
    ck_assert_msg(strstr((char *)d, ", 1 problems") != NULL &&
                  strstr((char *)d, "PROBLEM table=Table1 index=- "
                         "row_count: table definition says") != NULL,
                  "jetcheck verify %s:\n%s", path, (char *)d);
    free(d);
    unlink(out);
}

/* The calculated columns of Table1's row where cond holds. */
#define CALC_COLS "LastFirst, LastFirstLen, MonthlySalary, IsRich, " \
                  "AllNames, WeeklySalary, SalaryTest, BoolTest, " \
                  "DecimalTest, FloatTest"

static void expect_calc(const char *cond, const char *want)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT " CALC_COLS " FROM Table1 WHERE %s",
             cond);
    expect_row(sql, want);
}

/* ------------------------------------------------------------- cases */

/* Inserted and updated rows get every calculated value, Access's stored
 * values come out the same when their rows are computed again, and a
 * calculated Memo's long value is replaced and freed. */
START_TEST(computed_on_insert_and_update)
{
    char path[1024];
    odbct_copy_fixture(FIXTURE, "calc", path, sizeof path);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (FirstName, LastName, City, Salary, "
              "Popularity) VALUES ('Ann', 'Lee', 'Oslo', 250000, 2.5)", 1);
    expect_calc("FirstName = 'Ann'", "Lee, Ann|8|20833.3333|1|"
                "Lee, Ann=Lee, Ann|4807.69230769231|250000.0000|1|"
                "2.500000|13000");
    /* & treats Null as "", + and > give Null */
    exec_rows("INSERT INTO Table1 (FirstName, City) VALUES ('Bo', 'X')", 1);
    expect_calc("FirstName = 'Bo'", ", Bo|4|NULL|NULL|, Bo=, Bo|NULL|NULL|"
                "1|0.000000|NULL");      /* Popularity's DefaultValue 0 */
    /* an update computes them again from the new row */
    exec_rows("UPDATE Table1 SET LastName = 'Kent', Salary = 52 WHERE "
              "FirstName = 'Ann'", 1);
    expect_calc("FirstName = 'Ann'", "Kent, Ann|9|4.3333|0|"
                "Kent, Ann=Kent, Ann|1|52.0000|1|2.500000|2.704");
    /* Access's own values, computed again, are the same */
    exec_rows("UPDATE Table1 SET Salary = Salary WHERE ID <= 4", 4);
    expect_calc("ID = 2", "Simpson, Bart|13|-0.0833|0|"
                "Simpson, Bart=Simpson, Bart|-0.0192307692307692|-1.0000|1|"
                "-36.222200|0.0035889593");
    expect_calc("ID = 3", "Doe, John|9|0.0000|0|Doe, John=Doe, John|0|"
                "0.0000|1|0.012300|0");
    exec_rows("DELETE FROM Table1 WHERE FirstName = 'Bo'", 1);
    odbct_disconnect(env, dbc);
    verify_calc(path);
    static const char *const want[] = {
        "\"Ann\", \"Kent\", \"Kent, Ann\", \"Oslo\", 9, \"52.0000\", "
        "\"4.3333\", false, \"Kent, Ann=Kent, Ann\", \"1\", \"52.0000\", "
        "true",
        "\"Bruce\", \"Wayne\", \"Wayne, Bruce\", \"Gotham\", 12, "
        "\"1000000.0000\", \"83333.3333\", true, \"Wayne, Bruce=Wayne, "
        "Bruce\", \"19230.7692307692\", \"1000000.0000\", true",
        "\"John\", \"Doe\", \"Doe, John\", \"Nowhere\", 9, \"0.0000\", "
        "\"0.0000\", false, \"Doe, John=Doe, John\", \"0\", \"0.0000\", "
        "true",
        NULL
    };
    odbct_dump_has(path, want);
}
END_TEST

/* A value given for a calculated column: refused, the file unchanged. */
START_TEST(given_value_refused)
{
    char path[1024];
    odbct_copy_fixture(FIXTURE, "calcgiven", path, sizeof path);
    odbct_snap s;
    odbct_snap_take(&s, path);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (FirstName, LastFirst) VALUES "
                   "('Ada', 'x')", "HY000", "Cannot update 'LastFirst'; "
                   "field not updateable", NULL);
    expect_refused("INSERT INTO Table1 VALUES (9, 'a', 'b', 'c', 'd', 1, 2, "
                   "3, True, 'e', 4, 5, True, 6, 7, 8, 9)", "HY000",
                   "Cannot update 'LastFirst'; field not updateable", NULL);
    expect_refused("UPDATE Table1 SET MonthlySalary = 1", "HY000",
                   "Cannot update 'MonthlySalary'; field not updateable",
                   NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&s);
}
END_TEST

/* Expressions of other kinds (from Jackcess): + propagates Null, a
 * Date/Time result, a level of columns naming calculated columns that
 * name calculated columns, Like; a division by zero refuses the row. */
START_TEST(other_expressions_and_dates)
{
    char path[1024];
    odbct_copy_fixture(FIXTURE, "calcexpr", path, sizeof path);
    if (odbct_set_properties(path, "Table1 LastFirst Expression MEMO "
                                   "\"[LastName] + ', ' + [FirstName]\" "
                                   "Table1 SalaryTest ResultType BYTE 8 "
                                   "Table1 SalaryTest Expression MEMO "
                                   "\"DateAdd('d', [LastFirstLen], "
                                   "#2020-01-01#)\" "
                                   "Table1 BoolTest Expression MEMO "
                                   "\"[City] Like 'O*'\"") != 0) {
        fprintf(stderr, "test_odbc_calc: SKIP other_expressions: java with "
                "Jackcess could not set properties\n");
        return;
    }
    connect_to(path);
    exec_rows("INSERT INTO Table1 (FirstName, City) VALUES ('Bo', 'X')", 1);
    expect_row("SELECT LastFirst, LastFirstLen, AllNames, SalaryTest, "
               "BoolTest FROM Table1 WHERE FirstName = 'Bo'",
               "NULL|NULL|, Bo=|NULL|0");
    exec_rows("INSERT INTO Table1 (FirstName, LastName, City) VALUES "
              "('Ann', 'Lee', 'Oslo')", 1);
    expect_row("SELECT LastFirst, LastFirstLen, AllNames, SalaryTest, "
               "BoolTest FROM Table1 WHERE FirstName = 'Ann'",
               "Lee, Ann|8|Lee, Ann=Lee, Ann|2020-01-09 00:00:00|1");
    exec_rows("UPDATE Table1 SET Salary = Salary WHERE ID <= 4", 4);
    expect_row("SELECT SalaryTest FROM Table1 WHERE ID = 1",
               "2020-01-13 00:00:00");
    odbct_disconnect(env, dbc);
    odbct_snap s;
    odbct_snap_take(&s, path);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (FirstName, Salary, Popularity) "
                   "VALUES ('Cy', 5, 0)", "HYC00", "not supported: the "
                   "calculated column 'Table1.FloatTest' could not be "
                   "computed for this row (22012", NULL);
    expect_refused("UPDATE Table1 SET Popularity = 0 WHERE ID = 1", "HYC00",
                   "not supported: the calculated column 'Table1.FloatTest' "
                   "could not be computed for this row (22012", NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&s);
    verify_calc(path);
    static const char *const want[] = {
        "\"Ann\", \"Lee\", \"Lee, Ann\", \"Oslo\", 8",
        "\"Lee, Ann=Lee, Ann\"",
        "\"2020-01-09 00:00:00\"",
        "\"Bo\", null, null, \"X\", null",
        "\"2020-01-13 00:00:00\"",
        NULL
    };
    odbct_dump_has(path, want);
}
END_TEST

/* An expression the engine does not evaluate refuses every INSERT and
 * UPDATE of the table; DELETE needs no value and works. */
START_TEST(unevaluable_expression_refuses_writes)
{
    char path[1024];
    odbct_copy_fixture(FIXTURE, "calcnone", path, sizeof path);
    if (odbct_set_properties(path, "Table1 BoolTest Expression MEMO "
                                   "'Nonesuch([Salary])'") != 0) {
        fprintf(stderr, "test_odbc_calc: SKIP unevaluable_expression: java "
                "with Jackcess could not set properties\n");
        return;
    }
    odbct_snap s;
    odbct_snap_take(&s, path);
    connect_to(path);
    expect_refused("INSERT INTO Table1 (FirstName) VALUES ('Ada')", "HYC00",
                   "not supported: the expression 'Nonesuch([Salary])' of "
                   "calculated column 'Table1.BoolTest' is not one this "
                   "driver evaluates", NULL);
    expect_refused("UPDATE Table1 SET City = 'Y' WHERE ID = 1", "HYC00",
                   "not supported: the expression 'Nonesuch([Salary])'",
                   NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&s);
    connect_to(path);
    exec_rows("DELETE FROM Table1 WHERE ID = 3", 1);
    /* (COUNT(*) answers the TDEF's count, one short in this fixture) */
    ck_assert_int_eq(scalar("SELECT COUNT(FirstName) FROM Table1"), 3);
    odbct_disconnect(env, dbc);
    verify_calc(path);          /* the row's Memo long value freed */
}
END_TEST

/* Decimal results are exact as Access computes them: a Decimal or
 * Currency with a number literal stays Decimal, so recomputing every row
 * Access stored gives its bytes back (BigNumTest, ([Salary] *
 * [MonthlySalary] / [DecimalTest]) * 34.12342134, 29 digits; 0 with the
 * literal's 8 places), and new rows get the exact product rounded half to
 * even at 28 places. */
START_TEST(decimal_results_exact)
{
    char path[1024], ref[1024];
    odbct_copy_fixture(FIXTURE, "calcdec", path, sizeof path);
    odbct_copy_fixture(FIXTURE, "calcdec0", ref, sizeof ref);
    connect_to(path);
    exec_rows("UPDATE Table1 SET Salary = Salary WHERE ID <= 4", 4);
    odbct_disconnect(env, dbc);
    char *want = odbct_dump(ref, "Table1");
    char *got = odbct_dump(path, "Table1");
    ck_assert_msg(strcmp(want, got) == 0, "recomputed rows differ:\n%s"
                  "\nfixture:\n%s", got, want);
    free(want);
    free(got);
    connect_to(path);
    exec_rows("INSERT INTO Table1 (FirstName, Salary, Popularity) VALUES "
              "('Cy', 1234.56, -0.000123)", 1);
    exec_rows("INSERT INTO Table1 (FirstName, Salary, Popularity) VALUES "
              "('Di', 250000, 2.5)", 1);
    expect_row("SELECT BigNumTest, DecimalTest FROM Table1 WHERE "
               "FirstName = 'Cy'", "-35236325599.785609365853658537|"
               "-0.000123");
    expect_row("SELECT BigNumTest FROM Table1 WHERE FirstName = 'Di'",
               "71090461011.25526220");
    odbct_disconnect(env, dbc);
    verify_calc(path);
}
END_TEST

/* Indexes on calculated columns (text, Currency, Decimal descending
 * with Single, Yes/No with Long) are kept through many random inserts,
 * updates and deletes: keys built from the stored values, every index
 * holding exactly its table's rows (jetcheck verify), and lookups by a
 * calculated value find what a scan finds. */
START_TEST(indexed_calculated_columns)
{
    static const char *const first[] = { "Ann", "Bo", "Cy", "Di", "Ed" };
    static const char *const last[] = { "Lee", "Kent", "Moe", "Ng" };
    char path[1024], sql[512], a[64], b[64];
    odbct_copy_fixture(FIXTURE, "calcidx", path, sizeof path);
    connect_to(path);
    exec_rows("CREATE INDEX ixName ON Table1 (LastFirst)", 0);
    exec_rows("CREATE INDEX ixMonthly ON Table1 (MonthlySalary)", 0);
    exec_rows("CREATE INDEX ixWeekly ON Table1 (WeeklySalary DESC, "
              "FloatTest)", 0);
    exec_rows("CREATE INDEX ixRich ON Table1 (IsRich, LastFirstLen DESC)", 0);
    exec_rows("CREATE INDEX ixDec ON Table1 (DecimalTest)", 0);
    srand(26);
    int n = getenv("JET_CALCIDX_ROWS") ? atoi(getenv("JET_CALCIDX_ROWS"))
                                       : 300;
    for (int i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO Table1 (FirstName, LastName, "
                 "Salary, Popularity) VALUES ('%s', '%s', %d.%02d, "
                 "%s%d.%06d)", first[rand() % 5], last[rand() % 4],
                 rand() % 300000 - 1000, rand() % 100,
                 rand() % 3 ? "" : "-", rand() % 1000 + 1, rand() % 1000000);
        exec_rows(sql, 1);
    }
    for (int i = 0; i < n / 3; i++) {
        snprintf(sql, sizeof sql, "UPDATE Table1 SET LastName = '%s', "
                 "Salary = Salary + %d WHERE ID = %d", last[rand() % 4],
                 rand() % 200000 - 100000, 5 + rand() % n);
        odbct_exec_rows(dbc, sql, 1);
    }
    for (int i = 0; i < n / 5; i++) {
        snprintf(sql, sizeof sql, "DELETE FROM Table1 WHERE ID = %d",
                 5 + i * 5);
        exec_rows(sql, 1);
    }
    /* a lookup by each calculated value finds what a scan finds */
    for (int i = 0; i < 5; i++) {
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 WHERE "
                 "LastFirst = '%s, %s'", last[i % 4], first[i]);
        snprintf(a, sizeof a, "%ld", scalar(sql));
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 WHERE "
                 "LastName & ', ' & FirstName = '%s, %s'", last[i % 4],
                 first[i]);
        snprintf(b, sizeof b, "%ld", scalar(sql));
        ck_assert_str_eq(a, b);
    }
    ck_assert_int_eq(scalar("SELECT COUNT(*) FROM Table1 WHERE "
                            "MonthlySalary > -1000000000"),
                     scalar("SELECT COUNT(FirstName) FROM Table1 WHERE "
                            "Salary IS NOT NULL"));
    odbct_disconnect(env, dbc);
    verify_calc(path);
}
END_TEST

static Suite *calc_suite(void)
{
    Suite *s = suite_create("odbc_calc");
    TCase *tc = tcase_create("calc");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, computed_on_insert_and_update);
    tcase_add_test(tc, given_value_refused);
    tcase_add_test(tc, other_expressions_and_dates);
    tcase_add_test(tc, unevaluable_expression_refuses_writes);
    tcase_add_test(tc, indexed_calculated_columns);
    tcase_add_test(tc, decimal_results_exact);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(calc_suite)
