/*
 * test_odbc_complex.c - tables with complex columns (issue 26, core/
 * complex.c) through the driver manager, on copies of Jackcess's
 * complexDataTest files (ACE 2007 and 2010). Table1 (id Text key,
 * VersionHistory_... complex, memo-data Memo, append-memo-data the
 * append-only Memo that history follows, multi-value-data complex,
 * attach-data complex) has rows row1..row4 whose complex ids are 1..4;
 * the TDEF's last complex id is 7 (2007) or 8 (2010). Values (flat tables, found through
 * MSysComplexColumns): multi-value-data row2 value1 value4, row3
 * value1..value4; attach-data row2 two files, row4 one; the version
 * history row2 one, row3 three, row4 one.
 *
 * Allowed writes: rows read back through the driver and through Jackcess
 * (jetcheck dump), `jetcheck verify --all-tables` (the flat tables and
 * their indexes too) finds no problem. Refusals: the SQLSTATE, the file
 * byte for byte as it was.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbcwrite.h"

static SQLHENV env;
static SQLHDBC dbc;

static const char *const fixtures[] = {
    "jackcess/V2007/complexDataTestV2007.accdb",
    "jackcess/V2010/complexDataTestV2010.accdb",
};
#define NFIX (sizeof fixtures / sizeof fixtures[0])
/* each one's TDEF's last complex id of Table1 */
static const int last_complex_id[] = { 7, 8 };

/* ------------------------------------------------------------ helpers */

static const char *copy_fixture(const char *rel, char *out, size_t cap)
{
    return odbct_copy_fixture(rel, "complex.accdb", out, cap);
}

/* jetcheck verify, the system tables (the flat tables) included. */
static void verify(const char *path)
{
    jet_test_jetcheck_verify_opts(path, "--all-tables");
}

/* jetcheck dump of Table1 has n rows, each holding one of rows[]. */
static void dump_rows(const char *path, const char *const *rows, size_t n)
{
    odbct_dump_rows(path, "Table1", rows, n);
}

static void connect_to(const char *path)
{
    odbct_connect_file(&env, &dbc, path, NULL);
}

/* Every row of sql, columns joined by ',' and rows by ';' (NULL "-"). */
static const char *rows_of(const char *sql)
{
    static char buf[4096];
    return odbct_rows_text(dbc, sql, buf, sizeof buf);
}

/* The name of the flat table of complex column col of Table1. */
static const char *flat_of(const char *col, char *out, size_t cap)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT o.Name FROM MSysComplexColumns AS c "
             "INNER JOIN MSysObjects AS o ON c.FlatTableID = o.Id WHERE "
             "c.ColumnName = '%s'", col);
    snprintf(out, cap, "%s", rows_of(sql));
    ck_assert_msg(strncmp(out, "f_", 2) == 0, "%s: flat table '%s'", col,
                  out);
    return out;
}

/* The complex ids each value of column col belongs to, in order:
 * "fk:value;..." (value: the first template column, as text). */
static const char *values_of(const char *col, const char *what)
{
    char flat[256], sql[1024];
    flat_of(col, flat, sizeof flat);
    snprintf(sql, sizeof sql, "SELECT [_%s], %s FROM [%s] ORDER BY [_%s], "
             "[%s_%s]", col, what, flat, col, "Table1", col);
    return rows_of(sql);
}

static void ok(const char *sql, long rows)
{
    odbct_exec_rows(dbc, sql, rows);
}

/* sql is refused with state, its message holding part; path's bytes
 * unchanged (checked after a disconnect, which then reconnects). */
static void refused(const char *path, const char *sql, const char *state,
                    const char *part)
{
    odbct_snap before;
    odbct_disconnect(env, dbc);
    odbct_snap_take(&before, path);
    connect_to(path);
    odbct_refused(dbc, sql, state, part, NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&before);
    connect_to(path);
}

#define VH "VersionHistory_F5F8918F-0A3F-4DA9-AE71-184EE5012880"
#define VH_MODIFIED "[Modified_F9B5E312-4155-4c59-9AAE-391C1B295827]"
/* the history as the fixtures have it: "complex id,value;..." */
#define VH_START "2,row2-memo;3,row3-memo;3,row3-memo-revised;" \
                 "3,row3-memo-again;4,row4-memo"

#define ROWS "SELECT id, [multi-value-data], [attach-data], " \
             "[VersionHistory_F5F8918F-0A3F-4DA9-AE71-184EE5012880], " \
             "[memo-data] FROM Table1 ORDER BY id"
#define MV_START "2,value1;2,value4;3,value1;3,value2;3,value3;3,value4"

/* ------------------------------------------------------------- tests */

/* A new row gets the next complex id (the TDEF's last plus one) in
 * every complex column; the next one the next. */
START_TEST(insert_gets_complex_id)
{
    char path[1024], want[512], r5[128], r6[128];
    int n = last_complex_id[_i] + 1;
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    ok("INSERT INTO Table1 (id, [memo-data]) VALUES ('row5', 'five')", 1);
    ok("INSERT INTO Table1 (id) SELECT id & '-copy' FROM Table1 WHERE "
       "id = 'row1'", 1);
    snprintf(want, sizeof want, "row1,1,1,1,-;row1-copy,%d,%d,%d,-;"
             "row2,2,2,2,row2-memo;row3,3,3,3,row3-memo;"
             "row4,4,4,4,row4-memo;row5,%d,%d,%d,five", n + 1, n + 1, n + 1,
             n, n, n);
    ck_assert_str_eq(rows_of(ROWS), want);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), MV_START);
    odbct_disconnect(env, dbc);
    verify(path);
    snprintf(r5, sizeof r5, "[\"row5\", %d, \"five\", null, %d, %d]", n, n,
             n);
    snprintf(r6, sizeof r6, "[\"row1-copy\", %d, null, null, %d, %d]",
             n + 1, n + 1, n + 1);
    const char *const rows[] = {
        "[\"row1\", 1, null, null, 1, 1]", "[\"row2\", 2,",
        "[\"row3\", 3,", "[\"row4\", 4,", r5, r6,
    };
    dump_rows(path, rows, 6);
}
END_TEST

/* Other columns update; the complex ids and values stay. */
START_TEST(update_keeps_complex)
{
    char path[1024];
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    ok("UPDATE Table1 SET [memo-data] = id & '!'", 4);
    ok("UPDATE Table1 SET id = 'row3b' WHERE id = 'row3'", 1);
    ck_assert_str_eq(rows_of(ROWS), "row1,1,1,1,row1!;row2,2,2,2,row2!;"
                     "row3b,3,3,3,row3!;row4,4,4,4,row4!");
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), MV_START);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* Deleting a row deletes its values in every complex column, and only
 * its; a row without values deletes alone. */
START_TEST(delete_takes_values)
{
    char path[1024];
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    ok("DELETE FROM Table1 WHERE id = 'row3'", 1);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"),
                     "2,value1;2,value4");
    ck_assert_str_eq(values_of("VersionHistory_F5F8918F-0A3F-4DA9-AE71-"
                               "184EE5012880", "[append-memo-data]"),
                     "2,row2-memo;4,row4-memo");
    ok("DELETE FROM Table1 WHERE id IN ('row1', 'row2')", 2);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), "");
    ck_assert_str_eq(values_of("attach-data", "[FileName]"),
                     "4,test_data2.txt");
    ck_assert_str_eq(values_of("VersionHistory_F5F8918F-0A3F-4DA9-AE71-"
                               "184EE5012880", "[append-memo-data]"),
                     "4,row4-memo");
    ok("DELETE FROM Table1", 1);
    ck_assert_str_eq(values_of("attach-data", "[FileName]"), "");
    ck_assert_str_eq(rows_of("SELECT COUNT(*) FROM Table1"), "0");
    odbct_disconnect(env, dbc);
    verify(path);
    dump_rows(path, NULL, 0);
}
END_TEST

/* A delete refused afterwards (inside a transaction rolled back) leaves
 * the values; statements Access refuses, or this release does not
 * write, change nothing. */
START_TEST(refusals_change_nothing)
{
    char path[1024], flat[256], sql[512];
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    flat_of("multi-value-data", flat, sizeof flat);
    refused(path, "INSERT INTO Table1 (id, [multi-value-data]) VALUES "
            "('x', 5)", "HY000", "cannot contain a multi-valued field");
    refused(path, "UPDATE Table1 SET [attach-data] = 7", "HY000",
            "field not updateable");
    snprintf(sql, sizeof sql, "DELETE FROM [%s]", flat);
    refused(path, sql, "HYC00", "values of a complex column");
    snprintf(sql, sizeof sql, "UPDATE [%s] SET [Value] = 'x'", flat);
    refused(path, sql, "HYC00", "values of a complex column");
    snprintf(sql, sizeof sql, "INSERT INTO [%s] ([Value]) VALUES ('x')",
             flat);
    refused(path, sql, "HYC00", "system table");
    /* a transaction rolled back puts the values back */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ok("DELETE FROM Table1 WHERE id <> 'row1'", 3);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), "");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), MV_START);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* Access's statements on a multi-valued field's values: added to the
 * rows a WHERE picks, changed and deleted where the WHERE (on the row's
 * fields and on c.Value) says; a value a row holds already is refused. */
START_TEST(multi_value_statements)
{
    char path[1024], n5[16];
    snprintf(n5, sizeof n5, "%d", last_complex_id[_i] + 1);
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    ok("INSERT INTO Table1 ([multi-value-data].Value) VALUES ('value9') "
       "WHERE id = 'row1'", 1);
    ok("INSERT INTO Table1 ([multi-value-data].Value) VALUES ('all')", 4);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"),
                     "1,value9;1,all;2,value1;2,value4;2,all;3,value1;"
                     "3,value2;3,value3;3,value4;3,all;4,all");
    ok("UPDATE Table1 SET [multi-value-data].Value = 'value5' WHERE "
       "[multi-value-data].Value = 'value4'", 2);
    ok("UPDATE Table1 SET Table1.[multi-value-data].Value = 'x' & "
       "[multi-value-data].Value WHERE Table1.id = 'row3' AND "
       "[multi-value-data].Value IN ('value1', 'value2')", 2);
    ok("DELETE [multi-value-data].Value FROM Table1 WHERE "
       "[multi-value-data].Value = 'all'", 4);
    ok("DELETE Table1.[multi-value-data].Value FROM Table1 WHERE id = "
       "'row2'", 2);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"),
                     "1,value9;3,xvalue1;3,xvalue2;3,value3;3,value5");
    /* a new row's values, then the row with them */
    ok("INSERT INTO Table1 (id) VALUES ('row5')", 1);
    ok("INSERT INTO Table1 ([multi-value-data].Value) VALUES ('v') WHERE "
       "id = 'row5'", 1);
    ck_assert_str_eq(rows_of("SELECT [multi-value-data] FROM Table1 "
                             "WHERE id = 'row5'"), n5);
    ok("DELETE FROM Table1 WHERE id IN ('row3', 'row5')", 2);
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), "1,value9");
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* What Access refuses, or this release does not write, of the values
 * changes nothing. */
START_TEST(multi_value_refusals)
{
    char path[1024];
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    refused(path, "INSERT INTO Table1 ([multi-value-data].Value) VALUES "
            "('value1') WHERE id = 'row2'", "23000", "duplicate values");
    refused(path, "UPDATE Table1 SET [multi-value-data].Value = 'value1' "
            "WHERE id = 'row3'", "23000", "duplicate values");
    refused(path, "INSERT INTO Table1 ([attach-data].Value) VALUES ('x')",
            "42S22", "is an attachment field");
    refused(path, "DELETE [attach-data].Value FROM Table1", "42S22",
            "is an attachment field");
    refused(path, "DELETE [VersionHistory_F5F8918F-0A3F-4DA9-AE71-"
            "184EE5012880].Value FROM Table1", "HYC00", "version history");
    refused(path, "UPDATE Table1 SET [multi-value-data].Value = 'x', id = "
            "'y'", "HYC00", "this form of statement");
    refused(path, "INSERT INTO Table1 ([memo-data].Value) VALUES ('x')",
            "42S22", "not a multi-valued field");
    refused(path, "INSERT INTO Table1 ([multi-value-data].Value) VALUES "
            "([multi-value-data].Value)", "HYC00", "read by an INSERT");
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), MV_START);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* An attachment field's rows: DELETE c.FileName FROM t deletes the
 * attachments its WHERE picks (on the row's fields and on the
 * attachment's), their FileData freed; DELETE t.f FROM t of another
 * field stays an ordinary DELETE. Adding or changing attachments, and
 * fields an attachment does not have, are refused with the file
 * unchanged. */
START_TEST(attachment_statements)
{
    char path[1024];
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    const char *start = rows_of("SELECT COUNT(*) FROM Table1");
    ck_assert_str_eq(start, "4");
    refused(path, "INSERT INTO Table1 ([attach-data].FileName, "
            "[attach-data].FileData) VALUES ('a.txt', 0x41) WHERE id = "
            "'row1'", "HYC00", "adding or changing attachments");
    refused(path, "UPDATE Table1 SET Table1.[attach-data].FileName = 'b'",
            "HYC00", "adding or changing attachments");
    refused(path, "DELETE [attach-data].FileSize FROM Table1", "42S22",
            "Unknown field name: 'attach-data.FileSize'");
    refused(path, "DELETE [attach-data].[_attach-data] FROM Table1",
            "42S22", "Unknown field name");
    ck_assert_str_eq(values_of("attach-data", "[FileName]"),
                     "2,test_data.txt;2,test_data2.txt;4,test_data2.txt");
    ok("DELETE [attach-data].FileName FROM Table1 WHERE id = 'row2' AND "
       "[attach-data].FileName LIKE '*2.txt'", 1);
    ck_assert_str_eq(values_of("attach-data", "[FileName]"),
                     "2,test_data.txt;4,test_data2.txt");
    ok("DELETE Table1.id FROM Table1 WHERE id = 'nothing'", 0);
    ok("DELETE a.id FROM Table1 AS a WHERE a.id = 'nothing'", 0);
    /* never taken for a DELETE of the rows */
    refused(path, "DELETE [attach-data].FileName FROM Table1 AS a",
            "HYC00", "DELETE c.FileName FROM t");
    ok("DELETE Table1.[attach-data].FileData FROM Table1 WHERE "
       "[attach-data].FileType = 'txt'", 2);
    ck_assert_str_eq(values_of("attach-data", "[FileName]"), "");
    ck_assert_str_eq(rows_of("SELECT COUNT(*) FROM Table1"), "4");
    ck_assert_str_eq(values_of("multi-value-data", "[Value]"), MV_START);
    odbct_disconnect(env, dbc);
    verify(path);
}
END_TEST

/* An append-only Memo: its value is written, and each change adds a
 * version (value, time, the row's complex id) to its history in the
 * same statement; the same text again, or a row inserted without a
 * value, adds none; NULL is a version; deleting the row deletes its
 * history. */
START_TEST(append_only_memo)
{
    char path[1024], want[512], sql[1024], flat[256], r5[128];
    int n = last_complex_id[_i] + 1;
    copy_fixture(fixtures[_i], path, sizeof path);
    connect_to(path);
    ok("INSERT INTO Table1 (id, [append-memo-data]) VALUES ('row5', "
       "'first')", 1);
    ok("UPDATE Table1 SET [append-memo-data] = 'second' WHERE id = 'row5'",
       1);
    ok("UPDATE Table1 SET [append-memo-data] = [append-memo-data] & "
       "', third' WHERE id = 'row5'", 1);
    /* the same text: no version (row2's is stored compressed) */
    ok("UPDATE Table1 SET [append-memo-data] = 'second, third' WHERE id = "
       "'row5'", 1);
    ok("UPDATE Table1 SET [append-memo-data] = 'row2-memo', [memo-data] = "
       "'m' WHERE id = 'row2'", 1);
    /* no value: no history */
    ok("INSERT INTO Table1 (id, [memo-data]) VALUES ('row6', 'six')", 1);
    ck_assert_str_eq(rows_of("SELECT id, [append-memo-data] FROM Table1 "
                             "WHERE id >= 'row5' ORDER BY id"),
                     "row5,second, third;row6,-");
    snprintf(want, sizeof want, VH_START ";%d,first;%d,second;%d,second, "
             "third", n, n, n);
    ck_assert_str_eq(values_of(VH, "[append-memo-data]"), want);
    /* the versions are stamped now, in order */
    flat_of(VH, flat, sizeof flat);
    snprintf(sql, sizeof sql, "SELECT [append-memo-data] FROM [%s] WHERE "
             "[_" VH "] = %d AND " VH_MODIFIED " > #2020-01-01# ORDER BY "
             VH_MODIFIED ", [Table1_" VH "]", flat, n);
    ck_assert_str_eq(rows_of(sql), "first;second;second, third");
    odbct_disconnect(env, dbc);
    verify(path);
    snprintf(r5, sizeof r5, "[\"row5\", %d, null, \"second, third\", %d, "
             "%d]", n, n, n);
    const char *const rows[] = {
        "[\"row1\", 1, null, null, 1, 1]",
        "[\"row2\", 2, \"m\", \"row2-memo\", 2, 2]", "[\"row3\", 3,",
        "[\"row4\", 4,", r5, "[\"row6\", ",
    };
    dump_rows(path, rows, 6);
    connect_to(path);
    /* NULL is a change too: a version without a value */
    ok("UPDATE Table1 SET [append-memo-data] = NULL WHERE id IN ('row4', "
       "'row5')", 2);
    ok("UPDATE Table1 SET [append-memo-data] = NULL WHERE id = 'row1'", 1);
    snprintf(want, sizeof want, VH_START ";4,-;%d,first;%d,second;%d,"
             "second, third;%d,-", n, n, n, n);
    ck_assert_str_eq(values_of(VH, "[append-memo-data]"), want);
    /* the row goes with its history, and only its */
    ok("DELETE FROM Table1 WHERE id IN ('row5', 'row6')", 2);
    ck_assert_str_eq(values_of(VH, "[append-memo-data]"), VH_START ";4,-");
    odbct_disconnect(env, dbc);
    verify(path);
    const char *const left[] = {
        "[\"row1\",", "[\"row2\",", "[\"row3\",",
        "[\"row4\", 4, \"row4-memo\", null, 4, 4]",
    };
    dump_rows(path, left, 4);
}
END_TEST

/* A transaction rolled back takes back the values and their versions:
 * the file is byte for byte as it was. */
START_TEST(append_only_memo_rollback)
{
    char path[1024], want[256];
    odbct_snap before;
    copy_fixture(fixtures[_i], path, sizeof path);
    odbct_snap_take(&before, path);
    connect_to(path);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
             (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ok("INSERT INTO Table1 (id, [append-memo-data]) VALUES ('row5', 'a')",
       1);
    ok("UPDATE Table1 SET [append-memo-data] = 'b' WHERE id IN ('row5', "
       "'row3')", 2);
    snprintf(want, sizeof want, "2,row2-memo;3,row3-memo;3,row3-memo-revised;"
             "3,row3-memo-again;3,b;4,row4-memo;%d,a;%d,b",
             last_complex_id[_i] + 1, last_complex_id[_i] + 1);
    ck_assert_str_eq(values_of(VH, "[append-memo-data]"), want);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_str_eq(values_of(VH, "[append-memo-data]"), VH_START);
    ck_assert_str_eq(rows_of("SELECT [append-memo-data] FROM Table1 WHERE "
                             "id = 'row3'"), "row3-memo-again");
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&before);
    verify(path);
}
END_TEST

static Suite *complex_suite(void)
{
    Suite *s = suite_create("odbc_complex");
    TCase *tc = tcase_create("complex");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, insert_gets_complex_id, 0, NFIX);
    tcase_add_loop_test(tc, update_keeps_complex, 0, NFIX);
    tcase_add_loop_test(tc, delete_takes_values, 0, NFIX);
    tcase_add_loop_test(tc, refusals_change_nothing, 0, NFIX);
    tcase_add_loop_test(tc, multi_value_statements, 0, NFIX);
    tcase_add_loop_test(tc, multi_value_refusals, 0, NFIX);
    tcase_add_loop_test(tc, attachment_statements, 0, NFIX);
    tcase_add_loop_test(tc, append_only_memo, 0, NFIX);
    tcase_add_loop_test(tc, append_only_memo_rollback, 0, NFIX);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(complex_suite)
