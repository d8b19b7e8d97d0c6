/*
 * test_sql_ddlparse.c - Access DDL through sql_parse_statement
 * (driver/sql/ddlparse.c): CREATE TABLE with every type name and
 * synonym, constraints, CREATE/DROP INDEX, DROP TABLE, ALTER TABLE and
 * SELECT ... INTO; the tree each builds and the SQLSTATE of what each
 * refuses. No core: the parser alone.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_internal.h"
#include "unit.h"

static sql_parsed ddl_ok(const char *sql)
{
    sql_parsed p;
    sql_error err;
    int rc = sql_parse_statement(&p, sql, strlen(sql), &err);
    ck_assert_msg(rc == 0, "%s: %s %s at %zu", sql, err.sqlstate, err.msg,
                  err.position);
    ck_assert_int_eq(p.kind, SQL_KIND_DDL);
    ck_assert_ptr_nonnull(p.ddl);
    ck_assert_ptr_nonnull(p.query);
    ck_assert_ptr_eq(p.ddl->query, p.query);
    return p;
}

static void done(sql_parsed *p)
{
    sql_select_free(&p->query->sel);
}

static void ddl_fails(const char *sql, const char *state, const char *part)
{
    sql_parsed p;
    sql_error err;
    ck_assert_msg(sql_parse_statement(&p, sql, strlen(sql), &err) == -1,
                  "%s parsed", sql);
    ck_assert_msg(!strcmp(err.sqlstate, state), "%s: %s %s", sql,
                  err.sqlstate, err.msg);
    if (part)
        ck_assert_msg(strstr(err.msg, part), "%s: %s", sql, err.msg);
    ck_assert_ptr_null(p.query);
}

/* The type a one-column CREATE TABLE gives its column. */
static sql_ddl_type type_of(const char *type)
{
    char sql[200];
    snprintf(sql, sizeof sql, "CREATE TABLE t (c %s)", type);
    sql_parsed p = ddl_ok(sql);
    ck_assert_int_eq(p.ddl->ncols, 1);
    sql_ddl_type t = p.ddl->cols[0].type;
    done(&p);
    return t;
}

START_TEST(ddl_every_type_name_and_synonym)
{
    static const struct {
        const char *name;
        jet_type type;
        bool autonumber;
    } k[] = {
        { "TEXT", JET_T_TEXT, 0 }, { "TEXT(50)", JET_T_TEXT, 0 },
        { "CHAR", JET_T_TEXT, 0 }, { "CHARACTER", JET_T_TEXT, 0 },
        { "VARCHAR(10)", JET_T_TEXT, 0 }, { "STRING", JET_T_TEXT, 0 },
        { "ALPHANUMERIC", JET_T_TEXT, 0 }, { "NCHAR", JET_T_TEXT, 0 },
        { "NVARCHAR(20)", JET_T_TEXT, 0 },
        { "CHARACTER VARYING (30)", JET_T_TEXT, 0 },
        { "NCHAR VARYING (50)", JET_T_TEXT, 0 },
        { "NATIONAL CHARACTER", JET_T_TEXT, 0 },
        { "NATIONAL CHAR VARYING (9)", JET_T_TEXT, 0 },
        { "MEMO", JET_T_MEMO, 0 }, { "LONGTEXT", JET_T_MEMO, 0 },
        { "LONGCHAR", JET_T_MEMO, 0 }, { "NOTE", JET_T_MEMO, 0 },
        { "NTEXT", JET_T_MEMO, 0 },
        { "BYTE", JET_T_BYTE, 0 }, { "TINYINT", JET_T_BYTE, 0 },
        { "INTEGER1", JET_T_BYTE, 0 },
        { "SHORT", JET_T_INT, 0 }, { "SMALLINT", JET_T_INT, 0 },
        { "INTEGER2", JET_T_INT, 0 },
        { "LONG", JET_T_LONG, 0 }, { "INT", JET_T_LONG, 0 },
        { "INTEGER", JET_T_LONG, 0 }, { "INTEGER4", JET_T_LONG, 0 },
        { "SINGLE", JET_T_FLOAT, 0 }, { "REAL", JET_T_FLOAT, 0 },
        { "FLOAT4", JET_T_FLOAT, 0 }, { "IEEESINGLE", JET_T_FLOAT, 0 },
        { "DOUBLE", JET_T_DOUBLE, 0 }, { "DOUBLE PRECISION", JET_T_DOUBLE, 0 },
        { "FLOAT", JET_T_DOUBLE, 0 }, { "FLOAT8", JET_T_DOUBLE, 0 },
        { "IEEEDOUBLE", JET_T_DOUBLE, 0 }, { "NUMBER", JET_T_DOUBLE, 0 },
        { "CURRENCY", JET_T_MONEY, 0 }, { "MONEY", JET_T_MONEY, 0 },
        { "DECIMAL", JET_T_NUMERIC, 0 }, { "NUMERIC(10,2)", JET_T_NUMERIC, 0 },
        { "DEC(5)", JET_T_NUMERIC, 0 },
        { "DATETIME", JET_T_DATETIME, 0 }, { "DATE", JET_T_DATETIME, 0 },
        { "TIME", JET_T_DATETIME, 0 }, { "TIMESTAMP", JET_T_DATETIME, 0 },
        { "YESNO", JET_T_BOOL, 0 }, { "BIT", JET_T_BOOL, 0 },
        { "LOGICAL", JET_T_BOOL, 0 }, { "LOGICAL1", JET_T_BOOL, 0 },
        { "BOOLEAN", JET_T_BOOL, 0 },
        { "GUID", JET_T_GUID, 0 }, { "UNIQUEIDENTIFIER", JET_T_GUID, 0 },
        { "BINARY", JET_T_BINARY, 0 }, { "VARBINARY(16)", JET_T_BINARY, 0 },
        { "BINARY VARYING", JET_T_BINARY, 0 },
        { "BIT VARYING (8)", JET_T_BINARY, 0 },
        { "LONGBINARY", JET_T_OLE, 0 }, { "OLEOBJECT", JET_T_OLE, 0 },
        { "IMAGE", JET_T_OLE, 0 }, { "GENERAL", JET_T_OLE, 0 },
        { "COUNTER", JET_T_LONG, 1 }, { "AUTOINCREMENT", JET_T_LONG, 1 },
        { "counter(100, 5)", JET_T_LONG, 1 },
        { "BIGINT", JET_T_BIGINT, 0 },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        sql_ddl_type t = type_of(k[i].name);
        ck_assert_msg(t.type == k[i].type, "%s: type %d", k[i].name,
                      (int)t.type);
        ck_assert_msg(t.autonumber == k[i].autonumber, "%s", k[i].name);
    }
    sql_ddl_type t = type_of("TEXT(50)");
    ck_assert(t.has_size);
    ck_assert_uint_eq(t.size, 50);
    t = type_of("CHAR");
    ck_assert(!t.has_size);
    /* CHAR and its ANSI names are fixed-length, the VARYING forms not */
    static const struct { const char *name; bool fixed; } fx[] = {
        { "CHAR(5)", true }, { "CHARACTER", true }, { "NCHAR(2)", true },
        { "NATIONAL CHAR (3)", true }, { "NATIONAL CHARACTER", true },
        { "TEXT(5)", false }, { "VARCHAR(5)", false },
        { "CHARACTER VARYING (4)", false }, { "CHAR VARYING", false },
        { "NCHAR VARYING (50)", false }, { "NATIONAL CHAR VARYING", false },
        { "NVARCHAR(20)", false }, { "STRING", false },
    };
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++)
        ck_assert_msg(type_of(fx[i].name).fixed == fx[i].fixed, "%s",
                      fx[i].name);
    t = type_of("DECIMAL(12, 4)");
    ck_assert_uint_eq(t.precision, 12);
    ck_assert_uint_eq(t.scale, 4);
    t = type_of("AUTOINCREMENT(-10, 2)");
    ck_assert(t.has_seed);
    ck_assert_int_eq(t.seed, -10);
    ck_assert_int_eq(t.increment, 2);
}
END_TEST

START_TEST(ddl_create_table_columns_and_constraints)
{
    sql_parsed p = ddl_ok(
        "CREATE TABLE [Order Lines] (id COUNTER CONSTRAINT pk PRIMARY KEY, "
        "code TEXT(10) NOT NULL WITH COMP UNIQUE, "
        "qty SHORT DEFAULT 1, price CURRENCY DEFAULT -0.5 NOT NULL, "
        "note MEMO WITH COMPRESSION, "
        "cust LONG REFERENCES Customers (CustId) ON DELETE CASCADE, "
        "made DATETIME DEFAULT Now(), "
        "CONSTRAINT uq UNIQUE (code, qty), "
        "CONSTRAINT fk FOREIGN KEY (cust, code) REFERENCES Other "
        "ON UPDATE CASCADE ON DELETE SET NULL);");
    const sql_ddl *d = p.ddl;
    ck_assert_int_eq(d->op, SQL_DDL_CREATE_TABLE);
    ck_assert_str_eq(d->table, "Order Lines");
    ck_assert_int_eq(d->ncols, 7);
    ck_assert_str_eq(d->cols[0].name, "id");
    ck_assert(d->cols[0].type.autonumber);
    ck_assert(d->cols[1].not_null);
    ck_assert(d->cols[1].compression);
    ck_assert_uint_eq(d->cols[1].type.size, 10);
    ck_assert_str_eq(d->cols[2].default_text, "1");
    ck_assert_str_eq(d->cols[3].default_text, "-0.5");
    ck_assert(d->cols[3].not_null);
    ck_assert(d->cols[4].compression);
    ck_assert_str_eq(d->cols[6].default_text, "Now()");
    ck_assert_int_eq(d->ncons, 5);
    ck_assert_int_eq(d->cons[0].kind, SQL_CONS_PRIMARY);
    ck_assert_str_eq(d->cons[0].name, "pk");
    ck_assert_str_eq(d->cons[0].cols[0], "id");
    ck_assert_int_eq(d->cons[1].kind, SQL_CONS_UNIQUE);
    ck_assert_ptr_null(d->cons[1].name);
    ck_assert_str_eq(d->cons[1].cols[0], "code");
    ck_assert_int_eq(d->cons[2].kind, SQL_CONS_FOREIGN);
    ck_assert_str_eq(d->cons[2].parent, "Customers");
    ck_assert_int_eq(d->cons[2].nrefs, 1);
    ck_assert_str_eq(d->cons[2].refs[0], "CustId");
    ck_assert(d->cons[2].cascade_delete && !d->cons[2].cascade_update);
    ck_assert_int_eq(d->cons[3].ncols, 2);
    ck_assert_str_eq(d->cons[3].name, "uq");
    ck_assert_int_eq(d->cons[4].kind, SQL_CONS_FOREIGN);
    ck_assert_int_eq(d->cons[4].ncols, 2);
    ck_assert_int_eq(d->cons[4].nrefs, 0);
    ck_assert(d->cons[4].cascade_update && d->cons[4].delete_set_null);
    done(&p);

    /* Microsoft's own example */
    p = ddl_ok("CREATE TABLE MyTable (FirstName CHAR, LastName CHAR, "
               "DateOfBirth DATETIME, CONSTRAINT MyTableConstraint UNIQUE "
               "(FirstName, LastName, DateOfBirth));");
    ck_assert_int_eq(p.ddl->ncols, 3);
    ck_assert_int_eq(p.ddl->ncons, 1);
    done(&p);
    p = ddl_ok("CREATE TABLE t (a LONG, b LONG, PRIMARY KEY (a, b))");
    ck_assert_int_eq(p.ddl->cons[0].kind, SQL_CONS_PRIMARY);
    ck_assert_int_eq(p.ddl->cons[0].ncols, 2);
    done(&p);
    p = ddl_ok("CREATE TABLE \"q t\" (\"a b\" TEXT DEFAULT 'x''y', "
               "CONSTRAINT nn NOT NULL (\"a b\"))");
    ck_assert_str_eq(p.ddl->table, "q t");
    ck_assert_str_eq(p.ddl->cols[0].default_text, "'x''y'");
    ck_assert_int_eq(p.ddl->cons[0].kind, SQL_CONS_NOT_NULL);
    done(&p);
}
END_TEST

START_TEST(ddl_index_drop_alter)
{
    sql_parsed p = ddl_ok("CREATE UNIQUE INDEX ix ON t (a DESC, [b c] ASC) "
                          "WITH DISALLOW NULL IGNORE NULL");
    const sql_ddl *d = p.ddl;
    ck_assert_int_eq(d->op, SQL_DDL_CREATE_INDEX);
    ck_assert_int_eq(p.verb, KW_CREATE);
    ck_assert_str_eq(d->table, "t");
    ck_assert_int_eq(d->ncons, 1);
    ck_assert_int_eq(d->cons[0].kind, SQL_CONS_UNIQUE);
    ck_assert_str_eq(d->cons[0].name, "ix");
    ck_assert_int_eq(d->cons[0].ncols, 2);
    ck_assert(d->cons[0].desc[0] && !d->cons[0].desc[1]);
    ck_assert_str_eq(d->cons[0].cols[1], "b c");
    ck_assert(d->cons[0].disallow_null && d->cons[0].ignore_null);
    done(&p);
    p = ddl_ok("CREATE INDEX PrimaryKey ON t (a) WITH PRIMARY");
    ck_assert_int_eq(p.ddl->cons[0].kind, SQL_CONS_PRIMARY);
    done(&p);
    p = ddl_ok("CREATE INDEX i ON t (a)");
    ck_assert_int_eq(p.ddl->cons[0].kind, SQL_CONS_INDEX);
    done(&p);
    p = ddl_ok("DROP TABLE [My Table];");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_DROP_TABLE);
    ck_assert_int_eq(p.verb, KW_DROP);
    ck_assert_str_eq(p.ddl->table, "My Table");
    done(&p);
    p = ddl_ok("DROP INDEX i ON t");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_DROP_INDEX);
    ck_assert_str_eq(p.ddl->name, "i");
    ck_assert_str_eq(p.ddl->table, "t");
    done(&p);
    p = ddl_ok("ALTER TABLE t ADD COLUMN c TEXT(5) NOT NULL");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_ADD_COLUMN);
    ck_assert_int_eq(p.verb, KW_ALTER);
    ck_assert_str_eq(p.ddl->cols[0].name, "c");
    ck_assert(p.ddl->cols[0].not_null);
    done(&p);
    p = ddl_ok("ALTER TABLE t ADD c LONG CONSTRAINT u UNIQUE");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_ADD_COLUMN);
    ck_assert_int_eq(p.ddl->ncons, 1);
    done(&p);
    p = ddl_ok("ALTER TABLE t DROP COLUMN c");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_DROP_COLUMN);
    ck_assert_str_eq(p.ddl->name, "c");
    done(&p);
    p = ddl_ok("ALTER TABLE t DROP c");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_DROP_COLUMN);
    done(&p);
    p = ddl_ok("ALTER TABLE t ADD CONSTRAINT pk PRIMARY KEY (a)");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_ADD_CONSTRAINT);
    ck_assert_str_eq(p.ddl->cons[0].name, "pk");
    done(&p);
    p = ddl_ok("ALTER TABLE o ADD CONSTRAINT fk FOREIGN KEY (c) REFERENCES "
               "p (id) ON DELETE CASCADE");
    ck_assert_int_eq(p.ddl->cons[0].kind, SQL_CONS_FOREIGN);
    done(&p);
    p = ddl_ok("ALTER TABLE t DROP CONSTRAINT pk");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_DROP_CONSTRAINT);
    ck_assert_str_eq(p.ddl->name, "pk");
    done(&p);
    p = ddl_ok("ALTER TABLE t ALTER COLUMN c TEXT(20)");
    ck_assert_int_eq(p.ddl->op, SQL_DDL_ALTER_COLUMN);
    done(&p);
}
END_TEST

START_TEST(ddl_select_into)
{
    const char *sql = "SELECT a, Count(*) AS n INTO [New T] FROM x "
                      "INNER JOIN y ON x.k = y.k GROUP BY a";
    sql_parsed p = ddl_ok(sql);
    ck_assert_int_eq(p.ddl->op, SQL_DDL_SELECT_INTO);
    ck_assert_int_eq(p.verb, KW_SELECT);
    ck_assert_str_eq(p.ddl->table, "New T");
    ck_assert_int_eq(p.query->ngroup, 1);
    ck_assert_int_eq(p.query->sel.nitems, 2);
    /* the bytes of "INTO [New T]" */
    ck_assert_int_eq(strncmp(sql + p.query->into_from, "INTO [New T] ",
                             p.query->into_to - p.query->into_from), 0);
    ck_assert_int_eq(sql[p.query->into_to], 'F');
    /* the INSERT that fills the new table: the text, INTO cut out */
    ck_assert_str_eq(p.ddl->insert_sql, "INSERT INTO [New T] SELECT a, "
                     "Count(*) AS n  FROM x INNER JOIN y ON x.k = y.k "
                     "GROUP BY a");
    done(&p);
    p = ddl_ok("PARAMETERS w Long; SELECT * INTO t3 FROM t WHERE a = w");
    ck_assert_str_eq(p.ddl->insert_sql, "PARAMETERS w Long; INSERT INTO "
                     "[t3] SELECT *  FROM t WHERE a = w");
    done(&p);
    p = ddl_ok("SELECT * INTO t2 FROM t");
    ck_assert_str_eq(p.ddl->table, "t2");
    done(&p);
    /* not in a subquery, a UNION's later branch, nor INSERT's SELECT */
    ddl_fails("SELECT * FROM t WHERE a IN (SELECT b INTO z FROM u)",
              "42000", NULL);
    ddl_fails("INSERT INTO q SELECT b INTO z FROM u", "HYC00", "INTO");
    ddl_fails("SELECT * INTO t2 IN 'other.mdb' FROM t", "HYC00",
              "another database");
    sql_parsed q;
    sql_error err;
    ck_assert_int_eq(sql_parse_statement(&q, "SELECT a FROM t", 15, &err), 0);
    ck_assert_int_eq(q.kind, SQL_KIND_QUERY);
    ck_assert_ptr_null(q.query->into);
    sql_select_free(&q.query->sel);
}
END_TEST

START_TEST(ddl_refusals)
{
    ddl_fails("CREATE TABLE t", "42000", NULL);
    ddl_fails("CREATE TABLE t ()", "42000", NULL);
    ddl_fails("CREATE TABLE t (a)", "42000", "data type");
    ddl_fails("CREATE TABLE t (a NOSUCHTYPE)", "42000", "data type");
    ddl_fails("CREATE TABLE t (a TEXT(256))", "42000", "size");
    ddl_fails("CREATE TABLE t (a TEXT(0))", "42000", "size");
    ddl_fails("CREATE TABLE t (a LONG(4))", "42000", "no size");
    ddl_fails("CREATE TABLE t (a DECIMAL(29))", "42000", "precision");
    ddl_fails("CREATE TABLE t (a DECIMAL(5, 6))", "42000", "scale");
    ddl_fails("CREATE TABLE t (a COUNTER(1, 0))", "42000", "increment");
    ddl_fails("CREATE TABLE t (a LONG WITH COMP)", "42000", "text");
    ddl_fails("CREATE TABLE t (a LONG NOT NULL NOT NULL)", "42000", "twice");
    ddl_fails("CREATE TABLE t (a LONG DEFAULT b)", "42000", "default");
    ddl_fails("CREATE TABLE t (a LONG DEFAULT ?)", "42000", "default");
    ddl_fails("CREATE TABLE t (a LONG DEFAULT (SELECT 1))", "42000",
              "default");
    ddl_fails("CREATE TABLE t (a LONG, PRIMARY KEY a)", "42000", NULL);
    ddl_fails("CREATE TABLE t (a LONG) extra", "42000", NULL);
    ddl_fails("CREATE TABLE t (a LONG SOMETHING)", "42000", NULL);
    ddl_fails("CREATE TEMPORARY TABLE t (a LONG)", "HYC00", "TEMPORARY");
    ddl_fails("CREATE VIEW v AS SELECT 1", "HYC00", "VIEW");
    ddl_fails("CREATE INDEX i ON t", "42000", NULL);
    ddl_fails("CREATE INDEX i ON t (a) WITH", "42000", NULL);
    ddl_fails("CREATE UNIQUE TABLE t (a LONG)", "42000", "INDEX");
    ddl_fails("DROP t", "42000", NULL);
    ddl_fails("DROP INDEX i", "42000", "ON");
    ddl_fails("DROP PROCEDURE p", "HYC00", NULL);
    ddl_fails("ALTER t ADD a LONG", "42000", "TABLE");
    ddl_fails("ALTER TABLE t RENAME a", "42000", NULL);
    ddl_fails("ALTER TABLE t ADD CONSTRAINT c", "42000", NULL);
    ddl_fails("ALTER TABLE t ADD CONSTRAINT c FOREIGN KEY (a)", "42000",
              "REFERENCES");
    ddl_fails("CREATE TABLE t (a LONG REFERENCES p ON DELETE RESTRICT)",
              "42000", "CASCADE");
}
END_TEST

/* Unbounded input stays bounded: a long column list and deep DEFAULT
 * nesting end in a tree or a 42000, never a crash. */
START_TEST(ddl_bounded)
{
    size_t n = 300;
    char *sql = malloc(n * 24 + 64);
    ck_assert_ptr_nonnull(sql);
    size_t k = (size_t)sprintf(sql, "CREATE TABLE t (");
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(sql + k, "%sc%zu LONG", i ? ", " : "", i);
    sprintf(sql + k, ")");
    sql_parsed p = ddl_ok(sql);
    ck_assert_int_eq(p.ddl->ncols, n);
    done(&p);
    k = (size_t)sprintf(sql, "CREATE TABLE t (a LONG DEFAULT ");
    for (size_t i = 0; i < 250; i++)
        sql[k++] = '(';
    sql[k] = '\0';
    ddl_fails(sql, "42000", NULL);
    free(sql);
}
END_TEST

static Suite *ddlparse_suite(void)
{
    Suite *s = suite_create("sql_ddlparse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ddl_every_type_name_and_synonym);
    tcase_add_test(tc, ddl_create_table_columns_and_constraints);
    tcase_add_test(tc, ddl_index_drop_alter);
    tcase_add_test(tc, ddl_select_into);
    tcase_add_test(tc, ddl_refusals);
    tcase_add_test(tc, ddl_bounded);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(ddlparse_suite)
