/*
 * test_odbc_relations.c - referential integrity (issue 26, core/
 * relations.c) through the driver manager, on copies of the public
 * fixtures whose relationships are enforced: Jackcess's indexTest files
 * (Jet4 .mdb and ACE .accdb), where Table1 is the child of
 *   Table2Table1  Table1.otherfk1 -> Table2.id  cascade deletes (4096)
 *   Table3Table1  Table1.otherfk2 -> Table3.id  cascade updates (256)
 * Table1 rows (id, otherfk1, otherfk2): (0,0,10) (1,1,11) (2,1,11)
 * (3,2,13); Table2 ids 0 1 2; Table3 ids 10 11 12 13.
 *
 * And on files made with the project's writer (core/newfile.c) for
 * what no fixture has: a text key (matched case-insensitively), a key of
 * two columns, a table related to itself, cascade to NULL.
 *
 * Each refusal: SQLSTATE 23000, Access's message, the file byte for byte
 * as it was. Each allowed write: the rows read back through the driver
 * and through Jackcess (jetcheck dump), and `jetcheck verify` (which
 * checks every relationship) finds no problem.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odbcwrite.h"
#include "newfile.h"

static SQLHENV env;
static SQLHDBC dbc;

#define ORPHAN(t) "[jetodbc]You cannot add or change a record because a " \
                  "related record is required in table '" t "'."
#define CHILDREN(t) "[jetodbc]The record cannot be deleted or changed "    \
                    "because table '" t "' includes related records."

/* the fixtures: the same tables in each format */
static const char *const fixtures[] = {
    "jackcess/V2000/indexTestV2000.mdb",
    "jackcess/V2003/indexTestV2003.mdb",
    "jackcess/V2007/indexTestV2007.accdb",
    "jackcess/V2010/indexTestV2010.accdb",
};
#define NFIX (sizeof fixtures / sizeof fixtures[0])

/* ------------------------------------------------------------ helpers */

static void connect_to(const char *path)
{
    odbct_connect_file(&env, &dbc, path, NULL);
}

/* Every row of sql, columns joined by ',' and rows by ';' (NULL as
 * "-"). */
static const char *rows_of(const char *sql)
{
    static char buf[4096];
    return odbct_rows_text(dbc, sql, buf, sizeof buf);
}

#define T1 "SELECT id, otherfk1, otherfk2 FROM Table1 ORDER BY id"
#define T2 "SELECT id FROM Table2 ORDER BY id"
#define T3 "SELECT id FROM Table3 ORDER BY id"
#define T1_START "0,0,10;1,1,11;2,1,11;3,2,13"

/* sql runs; SQLRowCount says rows. */
static void ok(const char *sql, long rows)
{
    odbct_exec_rows(dbc, sql, rows);
}

/* sql is refused with 23000 and message msg; path's bytes unchanged
 * (checked after a disconnect, which then reconnects). */
static void refused(const char *path, const char *sql, const char *msg)
{
    odbct_snap before;
    odbct_disconnect(env, dbc);
    odbct_snap_take(&before, path);
    connect_to(path);
    odbct_refused(dbc, sql, "23000", msg, NULL);
    odbct_disconnect(env, dbc);
    odbct_snap_same_all(&before);
    connect_to(path);
}

/* ------------------------------------------------------------- tests */

/* A child row without its parent is refused, inserted or updated to;
 * one orphan among many rows refuses the whole statement. */
START_TEST(orphan_child_refused)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    connect_to(path);
    refused(path, "INSERT INTO Table1 (id, otherfk1, otherfk2) VALUES "
            "(10, 5, 10)", ORPHAN("Table2"));
    refused(path, "INSERT INTO Table1 (id, otherfk1, otherfk2) VALUES "
            "(10, 2, 99)", ORPHAN("Table3"));
    /* otherfk1 0, 1, 2 have parents, 3 has none: all or nothing */
    refused(path, "INSERT INTO Table1 (id, otherfk1, otherfk2) SELECT "
            "id + 100, id - 10, id FROM Table3", ORPHAN("Table2"));
    /* the key columns' DefaultValue (0) is a key too: Table3 has no 0 */
    refused(path, "INSERT INTO Table1 (id, data) VALUES (10, 'x')",
            ORPHAN("Table3"));
    refused(path, "UPDATE Table1 SET otherfk2 = 99 WHERE id = 0",
            ORPHAN("Table3"));
    refused(path, "UPDATE Table1 SET otherfk1 = otherfk1 + 1",
            ORPHAN("Table2"));
    /* a NULL key needs no parent, a wrong one refuses the row */
    refused(path, "UPDATE Table1 SET otherfk1 = NULL, otherfk2 = 14 WHERE "
            "id = 3", ORPHAN("Table3"));
    ck_assert_str_eq(rows_of(T1), T1_START);
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Children with parents, NULL keys, and rows whose keys stay are
 * written. */
START_TEST(child_with_parent_or_null_written)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    connect_to(path);
    ok("INSERT INTO Table1 (id, otherfk1, otherfk2, data) VALUES "
       "(10, 2, 12, 'new')", 1);
    ok("INSERT INTO Table1 (id, otherfk1, otherfk2, data) VALUES (11, "
       "NULL, NULL, 'no parents')", 1);
    ok("INSERT INTO Table1 (id, otherfk1, otherfk2) SELECT id + 100, "
       "id - 11, id FROM Table3 WHERE id > 10", 3);
    ok("UPDATE Table1 SET otherfk1 = 2, otherfk2 = 13 WHERE id = 0", 1);
    ok("UPDATE Table1 SET otherfk2 = NULL WHERE id = 1", 1);
    ok("UPDATE Table1 SET data = 'kept' WHERE id = 2", 1);
    /* parents: a new one, re-keyed while it has no children, deleted */
    ok("INSERT INTO Table2 (id, data) VALUES (7, 'seven')", 1);
    ok("UPDATE Table2 SET id = 8 WHERE id = 7", 1);
    ok("DELETE FROM Table3 WHERE id = 10", 1);
    /* children go as they like */
    ok("DELETE FROM Table1 WHERE id = 3", 1);
    ck_assert_str_eq(rows_of(T1), "0,2,13;1,1,-;2,1,11;10,2,12;11,-,-;"
                                  "111,0,11;112,1,12;113,2,13");
    ck_assert_str_eq(rows_of(T2), "0;1;2;8");
    ck_assert_str_eq(rows_of(T3), "11;12;13");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const t1[] = {
        "[0, 2, 13, \"baz0\", 0]", "[1, 1, null, \"baz11\", 0]",
        "[2, 1, 11, \"kept\", 0]", "[10, 2, 12, \"new\", 0]",
        "[11, null, null, \"no parents\", 0]",
        "[111, 0, 11, null, 0]", "[112, 1, 12, null, 0]",
        "[113, 2, 13, null, 0]",
    };
    odbct_dump_rows(path, "Table1", t1, sizeof t1 / sizeof t1[0]);
}
END_TEST

/* A parent with children is neither deleted nor re-keyed when the
 * relationship does not cascade that. */
START_TEST(parent_with_children_refused)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    connect_to(path);
    /* Table3Table1 cascades updates, not deletes */
    refused(path, "DELETE FROM Table3 WHERE id = 11", CHILDREN("Table1"));
    refused(path, "DELETE FROM Table3", CHILDREN("Table1"));
    /* Table2Table1 cascades deletes, not updates */
    refused(path, "UPDATE Table2 SET id = 7 WHERE id = 1",
            CHILDREN("Table1"));
    refused(path, "UPDATE Table2 SET id = id + 10", CHILDREN("Table1"));
    /* a childless row first, then one with children: nothing stays */
    refused(path, "DELETE FROM Table3 WHERE id >= 12", CHILDREN("Table1"));
    ck_assert_str_eq(rows_of(T3), "10;11;12;13");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Cascade deletes: a parent's children go with it, in the statement. */
START_TEST(cascade_delete)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    connect_to(path);
    ok("DELETE FROM Table2 WHERE id = 1", 1);
    ck_assert_str_eq(rows_of(T1), "0,0,10;3,2,13");
    ck_assert_str_eq(rows_of(T2), "0;2");
    /* Table3's rows 11 lost their children with them: deletable now */
    ok("DELETE FROM Table3 WHERE id = 11", 1);
    /* a parent without children, then one with */
    ok("INSERT INTO Table2 (id) VALUES (5)", 1);
    ok("DELETE FROM Table2 WHERE id >= 2", 2);
    ck_assert_str_eq(rows_of(T1), "0,0,10");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const t1[] = { "[0, 0, 10, \"baz0\", 0]" };
    odbct_dump_rows(path, "Table1", t1, 1);
    static const char *const t2[] = { "[0, \"foo0\"]" };
    odbct_dump_rows(path, "Table2", t2, 1);
    connect_to(path);
    ok("DELETE FROM Table2", 1);
    ck_assert_str_eq(rows_of(T1), "");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

/* Cascade updates: re-keying a parent re-keys its children; a failure
 * after a cascade ran undoes it too. */
START_TEST(cascade_update)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    connect_to(path);
    ok("UPDATE Table3 SET id = 111 WHERE id = 11", 1);
    ck_assert_str_eq(rows_of(T1), "0,0,10;1,1,111;2,1,111;3,2,13");
    ck_assert_str_eq(rows_of(T3), "10;12;13;111");
    /* 10 -> 13 cascades to row 0 first, then is a duplicate key */
    odbct_disconnect(env, dbc);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path);
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"UPDATE Table3 SET id = "
                                   "13 WHERE id = 10", SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "23000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
    connect_to(path);
    ck_assert_str_eq(rows_of(T1), "0,0,10;1,1,111;2,1,111;3,2,13");
    ok("UPDATE Table3 SET id = id + 100", 4);
    ck_assert_str_eq(rows_of(T1), "0,0,110;1,1,211;2,1,211;3,2,113");
    ck_assert_str_eq(rows_of(T3), "110;112;113;211");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const t1[] = {
        "[0, 0, 110, \"baz0\", 0]", "[1, 1, 211, \"baz11\", 0]",
        "[2, 1, 211, \"baz11-2\", 0]", "[3, 2, 113, \"baz13\", 0]",
    };
    odbct_dump_rows(path, "Table1", t1, 4);
}
END_TEST

/* Inside a transaction (autocommit off): a refused statement leaves the
 * earlier ones; a rollback leaves the file as it was. */
START_TEST(refusal_inside_transaction)
{
    char path[1024];
    odbct_copy_fixture(fixtures[_i], "rel", path, sizeof path);
    odbct_snap before;
    odbct_snap_take(&before, path);
    connect_to(path);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
             SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    ok("DELETE FROM Table2 WHERE id = 0", 1);
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO Table1 (id, "
                                   "otherfk1) VALUES (50, 0)", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_message(SQL_HANDLE_STMT, st), ORPHAN("Table2"));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_str_eq(rows_of(T1), "1,1,11;2,1,11;3,2,13");
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                                             SQL_ROLLBACK));
    ck_assert_str_eq(rows_of(T1), T1_START);
    odbct_disconnect(env, dbc);
    odbct_snap_same(&before);
}
END_TEST

/* ------------------------------------------- files of our own writer */

static void put_text(jw_value *v, uint16_t *buf, const char *s)
{
    size_t n = 0;
    if (!s) {
        v->null = 1;
        return;
    }
    while (s[n]) {
        buf[n] = (uint8_t)s[n];
        n++;
    }
    v->text = buf;
    v->units = n;
}

/* Rows of LONG columns (INT_MIN: NULL). */
static void long_rows(jw_table *t, const int *vals, int ncols, int nrows)
{
    for (int r = 0; r < nrows; r++) {
        jw_value v[8];
        memset(v, 0, sizeof v);
        for (int c = 0; c < ncols; c++) {
            v[c].i = vals[r * ncols + c];
            v[c].null = vals[r * ncols + c] == -1;
        }
        ck_assert_int_eq(jw_table_add_row(t, v), 0);
    }
}

/*
 * Cust (Code TEXT PK, Name)       Ord (Id PK, Code, Region, Num; unique
 * Line (Id PK, Region, Num, Qty)       (Region, Num))
 * Emp (Id PK, Boss)               Note (Id PK, OrdId)
 *   CustOrd  Ord.Code -> Cust.Code                       no cascade
 *   OrdLine  Line.(Region, Num) -> Ord.(Region, Num)     update + delete
 *   EmpEmp   Emp.Boss -> Emp.Id                          delete
 *   OrdNote  Note.OrdId -> Ord.Id                        to NULL
 */
static void make_file(const char *path, jw_format fmt)
{
    char err[256];
    jw_db *db = jw_create(path, fmt, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);

    jw_coldef cust[2] = { { "Code", JW_TEXT, 10, 1 },
                          { "Name", JW_TEXT, 50, 1 } };
    jw_idxdef cust_ix[1] = { { "PrimaryKey", 0, 1, 1, 0 } };
    jw_table *t = jw_table_begin(db, "Cust", cust, 2, cust_ix, 1);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const char *const custs[][2] = { { "ALFKI", "Alfreds" },
                                            { "BONAP", "Bon app'" } };
    for (int r = 0; r < 2; r++) {
        uint16_t a[16], b[64];
        jw_value v[2];
        memset(v, 0, sizeof v);
        put_text(&v[0], a, custs[r][0]);
        put_text(&v[1], b, custs[r][1]);
        ck_assert_int_eq(jw_table_add_row(t, v), 0);
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));

    jw_coldef ord[4] = { { "Id", JW_LONG, 0, 0 }, { "Code", JW_TEXT, 10, 1 },
                         { "Region", JW_LONG, 0, 0 },
                         { "Num", JW_LONG, 0, 0 } };
    jw_idxdef ord_ix[3] = { { "PrimaryKey", 0, 1, 1, 0 },
                            { "Code", 1, 0, 0, 0 },
                            { "RegionNum", 2, 0, 1, 0 } };
    jw_idxmore ord_more[3] = { { 0, { 0 }, { 0 } }, { 0, { 0 }, { 0 } },
                               { 1, { 3 }, { 0 } } };
    t = jw_table_begin_compound(db, "Ord", ord, 4, ord_ix, ord_more, 3);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const struct { int id; const char *code; int region, num; }
        ords[] = { { 1, "ALFKI", 1, 100 }, { 2, "BONAP", 1, 101 },
                   { 3, NULL, 2, 100 } };
    for (int r = 0; r < 3; r++) {
        uint16_t a[16];
        jw_value v[4];
        memset(v, 0, sizeof v);
        v[0].i = ords[r].id;
        put_text(&v[1], a, ords[r].code);
        v[2].i = ords[r].region;
        v[3].i = ords[r].num;
        ck_assert_int_eq(jw_table_add_row(t, v), 0);
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));

    jw_coldef line[4] = { { "Id", JW_LONG, 0, 0 },
                          { "Region", JW_LONG, 0, 0 },
                          { "Num", JW_LONG, 0, 0 }, { "Qty", JW_LONG, 0, 0 } };
    jw_idxdef line_ix[2] = { { "PrimaryKey", 0, 1, 1, 0 },
                             { "OrdLine", 1, 0, 0, 0 } };
    jw_idxmore line_more[2] = { { 0, { 0 }, { 0 } }, { 1, { 2 }, { 0 } } };
    t = jw_table_begin_compound(db, "Line", line, 4, line_ix, line_more, 2);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const int lines[] = { 1, 1, 100, 5, 2, 1, 100, 6, 3, 1, 101, 7 };
    long_rows(t, lines, 4, 3);
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));

    jw_coldef emp[2] = { { "Id", JW_LONG, 0, 0 }, { "Boss", JW_LONG, 0, 0 } };
    jw_idxdef emp_ix[2] = { { "PrimaryKey", 0, 1, 1, 0 },
                            { "EmpEmp", 1, 0, 0, 0 } };
    t = jw_table_begin(db, "Emp", emp, 2, emp_ix, 2);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const int emps[] = { 1, -1, 2, 1, 3, 2, 4, 1 };
    long_rows(t, emps, 2, 4);
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));

    jw_coldef note[2] = { { "Id", JW_LONG, 0, 0 },
                          { "OrdId", JW_LONG, 0, 0 } };
    jw_idxdef note_ix[2] = { { "PrimaryKey", 0, 1, 1, 0 },
                             { "OrdNote", 1, 0, 0, 0 } };
    t = jw_table_begin(db, "Note", note, 2, note_ix, 2);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const int notes[] = { 1, 1, 2, 1, 3, 2 };
    long_rows(t, notes, 2, 3);
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));

    static const char *const code[] = { "Code" };
    static const char *const rn[] = { "Region", "Num" };
    static const char *const boss[] = { "Boss" };
    static const char *const id[] = { "Id" };
    static const char *const ordid[] = { "OrdId" };
    ck_assert_int_eq(jw_relationship(db, "CustOrd", 0, "Ord", code, "Cust",
                                     code, 1), 0);
    ck_assert_int_eq(jw_relationship(db, "OrdLine", 0x1100, "Line", rn,
                                     "Ord", rn, 2), 0);
    ck_assert_int_eq(jw_relationship(db, "EmpEmp", 0x1000, "Emp", boss,
                                     "Emp", id, 1), 0);
    ck_assert_int_eq(jw_relationship(db, "OrdNote", 0x2000, "Note", ordid,
                                     "Ord", id, 1), 0);
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
}

static const jw_format formats[] = { JW_FMT_JET4, JW_FMT_ACE14 };

static const char *made_file(char *path, size_t cap, int i)
{
    snprintf(path, cap, "%s/made%s", odbct_tmpdir(),
             formats[i] == JW_FMT_JET4 ? ".mdb" : ".accdb");
    unlink(path);
    make_file(path, formats[i]);
    odbct_verify(path);
    return path;
}

/* A text key matches as its index compares text; a child needs its
 * parent, a parent with children stays. */
START_TEST(text_key_matches_as_its_index)
{
    char path[1024];
    made_file(path, sizeof path, _i);
    connect_to(path);
    ok("INSERT INTO Ord (Id, Code, Region, Num) VALUES (4, 'alfki', 3, 1)",
       1);
    refused(path, "INSERT INTO Ord (Id, Code, Region, Num) VALUES (5, "
            "'NOPE', 3, 2)", ORPHAN("Cust"));
    refused(path, "UPDATE Ord SET Code = 'ALFKIX' WHERE Id = 1",
            ORPHAN("Cust"));
    refused(path, "DELETE FROM Cust WHERE Code = 'BONAP'", CHILDREN("Ord"));
    refused(path, "UPDATE Cust SET Code = 'BONAQ' WHERE Code = 'BONAP'",
            CHILDREN("Ord"));
    ok("UPDATE Cust SET Name = 'Bon' WHERE Code = 'BONAP'", 1);
    ok("UPDATE Ord SET Code = 'bonap' WHERE Id = 1", 1);
    refused(path, "DELETE FROM Cust WHERE Code = 'ALFKI'", CHILDREN("Ord"));
    ck_assert_str_eq(rows_of("SELECT Id, Code FROM Ord ORDER BY Id"),
                     "1,bonap;2,BONAP;3,-;4,alfki");
    odbct_disconnect(env, dbc);
}
END_TEST

/* A key of two columns: orphans refused, updates and deletes cascade. */
START_TEST(two_column_key)
{
    char path[1024];
    made_file(path, sizeof path, _i);
    connect_to(path);
    refused(path, "INSERT INTO Line (Id, Region, Num, Qty) VALUES (4, 1, "
            "999, 1)", ORPHAN("Ord"));
    refused(path, "INSERT INTO Line (Id, Region, Num, Qty) VALUES (4, 2, "
            "101, 1)", ORPHAN("Ord"));
    /* one column NULL of two: no parent has it */
    refused(path, "INSERT INTO Line (Id, Region, Num, Qty) VALUES (4, 1, "
            "NULL, 1)", ORPHAN("Ord"));
    ok("INSERT INTO Line (Id, Region, Num, Qty) VALUES (4, NULL, NULL, 1)",
       1);
    ok("INSERT INTO Line (Id, Region, Num, Qty) VALUES (5, 2, 100, 1)", 1);
    ok("UPDATE Ord SET Num = 200 WHERE Id = 1", 1);
    ck_assert_str_eq(rows_of("SELECT Id, Region, Num FROM Line ORDER BY "
                             "Id"), "1,1,200;2,1,200;3,1,101;4,-,-;5,2,100");
    ok("UPDATE Ord SET Region = 7 WHERE Region = 1", 2);
    ck_assert_str_eq(rows_of("SELECT Id, Region, Num FROM Line ORDER BY "
                             "Id"), "1,7,200;2,7,200;3,7,101;4,-,-;5,2,100");
    /* Ord 2 goes: its line goes, its note keeps a NULL key */
    ok("DELETE FROM Ord WHERE Id = 2", 1);
    ck_assert_str_eq(rows_of("SELECT Id FROM Line ORDER BY Id"),
                     "1;2;4;5");
    ck_assert_str_eq(rows_of("SELECT Id, OrdId FROM Note ORDER BY Id"),
                     "1,1;2,1;3,-");
    ok("DELETE FROM Ord", 2);
    ck_assert_str_eq(rows_of("SELECT Id FROM Line ORDER BY Id"), "4");
    ck_assert_str_eq(rows_of("SELECT Id, OrdId FROM Note ORDER BY Id"),
                     "1,-;2,-;3,-");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
    static const char *const note[] = { "[1, null]", "[2, null]",
                                        "[3, null]" };
    odbct_dump_rows(path, "Note", note, 3);
}
END_TEST

/* A table related to itself: a row may name itself, cascading deletes
 * walk down the tree and a row the cascade took is not deleted twice. */
START_TEST(self_relationship)
{
    char path[1024];
    made_file(path, sizeof path, _i);
    connect_to(path);
    ok("INSERT INTO Emp (Id, Boss) VALUES (5, 5)", 1);
    refused(path, "INSERT INTO Emp (Id, Boss) VALUES (6, 7)",
            ORPHAN("Emp"));
    /* 5 names itself: changing its key would leave it an orphan */
    refused(path, "UPDATE Emp SET Id = 50 WHERE Id = 5", CHILDREN("Emp"));
    ok("UPDATE Emp SET Id = 50, Boss = 50 WHERE Id = 5", 1);
    ok("DELETE FROM Emp WHERE Id = 50", 1);
    /* 2 goes with 1, and 3 with 2 */
    ok("DELETE FROM Emp WHERE Id IN (1, 2)", 1);
    ck_assert_str_eq(rows_of("SELECT Id FROM Emp"), "");
    odbct_disconnect(env, dbc);
    odbct_verify(path);
}
END_TEST

static Suite *relations_suite(void)
{
    Suite *s = suite_create("odbc_relations");
    TCase *tc = tcase_create("relations");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, orphan_child_refused, 0, NFIX);
    tcase_add_loop_test(tc, child_with_parent_or_null_written, 0, NFIX);
    tcase_add_loop_test(tc, parent_with_children_refused, 0, NFIX);
    tcase_add_loop_test(tc, cascade_delete, 0, NFIX);
    tcase_add_loop_test(tc, cascade_update, 0, NFIX);
    tcase_add_loop_test(tc, refusal_inside_transaction, 1, 2);
    tcase_add_loop_test(tc, text_key_matches_as_its_index, 0, 2);
    tcase_add_loop_test(tc, two_column_key, 0, 2);
    tcase_add_loop_test(tc, self_relationship, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(relations_suite)
