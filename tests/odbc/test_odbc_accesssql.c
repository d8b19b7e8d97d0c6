/*
 * test_odbc_accesssql.c - Access SQL read as Access reads it, through the
 * driver manager over nwind.mdb (issue 28; doc/sql.md has one line per
 * rule): "..." is text, a calculated field may use an earlier field's
 * alias, and the smaller differences found with them (a parameter typed
 * by its value, a Decimal parameter at its bound scale). Issue 28's
 * BIGINT text parameter is test_odbc_paramtext's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
}

static void teardown(void)
{
    odbct_disconnect(env, dbc);
}

/* Every row of sql as text: columns joined by '|', rows by ',' (NULL as
 * "NULL"), into buf (cap bytes); returns the row count. Numbers fetched
 * as SQL_C_DOUBLE and written with %.10g when as_double. */
static long rows_as(const char *sql, bool as_double, char *buf, size_t cap)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLSMALLINT ncols = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &ncols));
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
        for (SQLSMALLINT c = 1; c <= ncols; c++) {
            char v[256];
            SQLLEN ind;
            double d = 0;
            if (as_double) {
                ODBCT_OK(SQL_HANDLE_STMT, st,
                         SQLGetData(st, (SQLUSMALLINT)c, SQL_C_DOUBLE, &d, 0,
                                    &ind));
                snprintf(v, sizeof v, "%.10g", d);
            } else {
                ODBCT_OK(SQL_HANDLE_STMT, st,
                         SQLGetData(st, (SQLUSMALLINT)c, SQL_C_CHAR, v,
                                    sizeof v, &ind));
            }
            if (ind == SQL_NULL_DATA)
                snprintf(v, sizeof v, "NULL");
            if (len < cap)
                len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                        c > 1 ? "|" : n ? "," : "", v);
        }
        n++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return n;
}

/* Assert that sql returns exactly want (rows_as's form). */
static void want_as(const char *sql, bool as_double, const char *want)
{
    char got[4096];
    rows_as(sql, as_double, got, sizeof got);
    ck_assert_msg(!strcmp(got, want), "%s: got '%s', want '%s'", sql, got,
                  want);
}

static void want_rows(const char *sql, const char *want)
{
    want_as(sql, false, want);
}

static void want_numbers(const char *sql, const char *want)
{
    want_as(sql, true, want);
}

/* "..." delimits text, like '...', even where a column has the name */
START_TEST(double_quotes_are_text)
{
    want_rows("SELECT COUNT(*) FROM Orders WHERE ShipCity = \"ShipCity\"",
              "0");
    want_rows("SELECT COUNT(*) FROM Customers WHERE Country = \"Country\"",
              "0");
    want_rows("SELECT TOP 2 \"City\" FROM Customers ORDER BY CustomerID",
              "City,City");
    want_rows("SELECT COUNT(*) FROM Customers WHERE Country = \"Germany\"",
              "11");
    want_rows("SELECT \"say \"\"hi\"\"\" & 'x'", "say \"hi\"x");
    /* the column's name is Access's Expr1000, not City */
    SQLHSTMT st = odbct_exec(dbc, "SELECT TOP 1 \"City\" FROM Customers");
    SQLCHAR name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, name, sizeof name,
                                                 NULL, NULL, NULL, NULL,
                                                 NULL));
    ck_assert_str_eq((char *)name, "Expr1000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* the identifier quotes still name columns */
    want_rows("SELECT TOP 1 `City`, [Country] FROM Customers "
              "ORDER BY CustomerID", "Berlin|Germany");
}
END_TEST

/* a calculated field may use an earlier field's alias; the alias wins
 * over a field of that name in later fields */
START_TEST(alias_reused_in_later_fields)
{
    want_numbers("SELECT TOP 3 UnitPrice*Quantity AS Total, Total*0.1 AS Tax "
                 "FROM [Order Details] ORDER BY OrderID, ProductID",
                 "168|16.8,98|9.8,174|17.4");
    want_numbers("SELECT TOP 1 Orders.OrderID AS Freight, Orders.Freight, "
              "[Freight]*1.1 AS [New Freight] FROM Orders "
              "ORDER BY Orders.OrderID", "10248|32.38|11272.8");
    /* a chain, and an alias never reaches itself or a later one */
    want_rows("SELECT TOP 1 1 AS a, a + 1 AS b, b * 10 AS c, "
              "OrderID + 0 AS OrderID FROM Orders ORDER BY OrderID",
              "1|2|20|10248");
    /* aliases are names of the select list only: WHERE still reads the
     * column */
    want_rows("SELECT COUNT(*) FROM (SELECT OrderID AS Freight FROM Orders "
              "WHERE Freight > 800)", "4");
}
END_TEST

/* Access sorts each grouped branch of a UNION ALL by its GROUP BY */
START_TEST(union_all_grouped_branches_sorted)
{
    SQLHSTMT st = odbct_exec(dbc,
        "SELECT ShipCountry FROM Orders GROUP BY ShipCountry UNION ALL "
        "SELECT ShipCountry FROM Orders WHERE ShipVia = 2 "
        "GROUP BY ShipCountry");
    char prev[64] = "", v[64];
    SQLLEN ind;
    long n = 0, breaks = 0;
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLGetData(st, 1, SQL_C_CHAR, v, sizeof v, &ind));
        if (n && strcmp(prev, v) >= 0)
            breaks++;           /* only where the second branch starts */
        snprintf(prev, sizeof prev, "%s", v);
        n++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(n, 21 + 21);
    ck_assert_int_eq(breaks, 1);
}
END_TEST

/* A correlated subquery over a saved join view: the view's rows are
 * hashed once by the correlated key (EXPLAIN says so), and the rows are
 * those of the per-row form (the key written as two inequalities, which
 * hash nothing). */
START_TEST(correlated_view_hashed_once)
{
    static const char q[] =
        "SELECT o.OrderID FROM Orders o WHERE o.Freight > (SELECT "
        "AVG(q.Freight) FROM [Orders Qry] q WHERE q.CustomerID = "
        "o.CustomerID) ORDER BY o.OrderID";
    char plan[4096];
    char sql[512];
    snprintf(sql, sizeof sql, "EXPLAIN %s", q);
    SQLHSTMT st = odbct_exec(dbc, sql);
    odbct_col1(st, plan, sizeof plan);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_msg(strstr(plan, "HASHED SUBQUERY q (q.CustomerID = "
                               "o.CustomerID)"), "plan: %s", plan);
    static char a[16384], b[16384];
    long na = rows_as(q, false, a, sizeof a);
    long nb = rows_as("SELECT o.OrderID FROM Orders o WHERE o.Freight > "
                      "(SELECT AVG(q.Freight) FROM [Orders Qry] q WHERE "
                      "q.CustomerID >= o.CustomerID AND q.CustomerID <= "
                      "o.CustomerID) ORDER BY o.OrderID", false, b, sizeof b);
    ck_assert_int_gt(na, 100);
    ck_assert_int_eq(na, nb);
    ck_assert_str_eq(a, b);
    /* COUNT over no rows is 0 for every outer row, not only the first;
     * a customer without orders has none in the view */
    want_rows("SELECT c.CustomerID, (SELECT COUNT(*) FROM [Orders Qry] q "
              "WHERE q.CustomerID = c.CustomerID) FROM Customers c WHERE "
              "c.CustomerID IN ('ALFKI', 'FISSA', 'PARIS', 'ANATR') "
              "ORDER BY c.CustomerID", "ALFKI|6,ANATR|4,FISSA|0,PARIS|0");
}
END_TEST

/* MAX/MIN of a Decimal(18,6) column keep its precision 18 (SUM may
 * need Decimal's 28) */
START_TEST(max_min_of_decimal_keep_precision)
{
    SQLHENV env2;
    SQLHDBC dbc2;
    odbct_connect_path(&env2, &dbc2,
                       odbct_fixture("jackcess/V2010/calcFieldTestV2010.accdb"));
    SQLHSTMT st = odbct_exec(dbc2, "SELECT MAX(Popularity), "
                             "MIN(Popularity), SUM(Popularity) FROM Table1");
    static const SQLULEN want[] = { 18, 18, 28 };
    for (SQLUSMALLINT c = 1; c <= 3; c++) {
        SQLSMALLINT type = 0, digits = 0;
        SQLULEN size = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, c, NULL, 0, NULL,
                                                     &type, &size, &digits,
                                                     NULL));
        ck_assert_int_eq(type, SQL_NUMERIC);
        ck_assert_uint_eq(size, want[c - 1]);
        ck_assert_int_eq(digits, 6);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env2, dbc2);
}
END_TEST

/* Yes/No compared with text parameters as PHP binds booleans: false as
 * "" and true as "1" (SQL_BIT from SQLDescribeParam) */
START_TEST(php_false_for_yes_no)
{
    static const struct {
        const char *text;
        long rows;
    } cases[] = { { "", 69 }, { "1", 8 }, { "0", 69 }, { "False", 69 } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                 "SELECT COUNT(*) FROM Products WHERE Discontinued = ?",
                 SQL_NTS));
        SQLSMALLINT type = 0, digits = 0, nullable = 0;
        SQLULEN size = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeParam(st, 1, &type, &size,
                                                       &digits, &nullable));
        ck_assert_int_eq(type, SQL_BIT);
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, type,
                                  size, digits, (SQLPOINTER)cases[i].text, 0,
                                  &ind));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
        char got[32];
        odbct_col1(st, got, sizeof got);
        ck_assert_int_eq(atol(got), cases[i].rows);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* Copy file from to to; asserts. */
static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

/* Bytes of file path as an FNV-1a hash (the file unchanged). */
static unsigned long long file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned long long h = 1469598103934665603ULL;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned)c) * 1099511628211ULL;
    fclose(f);
    return h;
}

/* Access's external databases: FROM t IN 'path', [;DATABASE=path].t,
 * [MS Access;PWD=...;DATABASE=...].t, opened read-only; the other
 * file's errors name it */
START_TEST(external_databases_in_from)
{
    char sql[2048];
    const char *v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN '%s'", v2010);
    want_rows(sql, "2");
    v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM [;DATABASE=%s].Table1",
             v2010);
    want_rows(sql, "2");
    v2010 = odbct_fixture("jackcess/V2010/testV2010.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN \"%s\"",
             v2010);
    want_rows(sql, "2");
    /* a copy of nwind: joined with the open file's Customers, seeking
     * the other file's index; never written */
    char copy[1024];
    snprintf(copy, sizeof copy, "%s/other.mdb", odbct_tmpdir());
    copy_file(odbct_fixture("mdbtestdata/nwind.mdb"), copy);
    unsigned long long before = file_hash(copy);
    snprintf(sql, sizeof sql, "SELECT c.CompanyName, o.OrderID FROM "
             "Customers c INNER JOIN [;DATABASE=%s].Orders o ON "
             "o.CustomerID = c.CustomerID WHERE o.OrderID = 10248", copy);
    want_rows(sql, "Vins et alcools Chevalier|10248");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Orders IN '%s' AS o "
             "WHERE o.CustomerID = 'VINET'", copy);
    want_rows(sql, "5");
    ck_assert(file_hash(copy) == before);
    /* the password form (an ACE file encrypted with Test123) */
    const char *enc = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM [MS Access;PWD=Test123;"
             "DATABASE=%s].Table1", enc);
    want_rows(sql, "1");
    enc = odbct_fixture("jackcessencrypt/db2007-enc.accdb");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM Table1 IN '' "
             "[MS Access;PWD=Test123;DATABASE=%s]", enc);
    want_rows(sql, "1");
    /* errors of the other file, as such: no password, a wrong one, no
     * such table, no such file */
    static const struct {
        const char *pre, *post;
        const char *state;
        const char *says;
    } bad[] = {
        { "SELECT * FROM Table1 IN '", "'", "28000", "external database" },
        { "SELECT * FROM [MS Access;PWD=nope;DATABASE=", "].Table1", "28000",
          "wrong database password" },
        { "SELECT * FROM NoSuchTable IN '", "'", "42S02",
          "in the external database" },
        { "SELECT * FROM Table1 IN '", ".missing'", "42S02",
          "Could not find file" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *path = odbct_fixture(i < 2 ? "jackcessencrypt/"
                                         "db2007-enc.accdb"
                                         : "jackcess/V2010/testV2010.accdb");
        snprintf(sql, sizeof sql, "%s%s%s", bad[i].pre, path, bad[i].post);
        SQLHSTMT st;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS),
                         SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), bad[i].state);
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st),
                             bad[i].says), "%s: %s", sql,
                      odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* an ad-hoc TRANSFORM ... PIVOT runs as a saved crosstab: one column
 * per pivot value (found, or the IN list), parameters with an IN list */
START_TEST(adhoc_transform_pivot)
{
    want_rows("TRANSFORM Count(*) AS n SELECT ShipCountry FROM Orders "
              "WHERE ShipCountry < 'B' GROUP BY ShipCountry PIVOT ShipVia",
              "Argentina|5|7|4,Austria|12|15|13");
    SQLHSTMT st = odbct_exec(dbc, "TRANSFORM Sum(Quantity) SELECT ProductID "
                             "FROM [Order Details] WHERE OrderID < 10250 "
                             "GROUP BY ProductID PIVOT OrderID");
    SQLSMALLINT n = 0;
    SQLCHAR name[32];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 3);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 3, name, sizeof name,
                                                 NULL, NULL, NULL, NULL,
                                                 NULL));
    ck_assert_str_eq((char *)name, "10249");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    want_rows("TRANSFORM Count(*) SELECT ShipCountry FROM Orders WHERE "
              "ShipCountry < 'B' GROUP BY ShipCountry PIVOT Year(OrderDate) "
              "IN (1994, 1995, 2000)", "Argentina|0|5|0,Austria|5|19|0");
    /* parameters, ? and declared, with the IN list */
    static const char *const with_params[] = {
        "TRANSFORM Count(*) SELECT ShipCountry FROM Orders WHERE "
        "ShipCountry < ? GROUP BY ShipCountry PIVOT ShipVia IN (1, 2, 3)",
        "PARAMETERS [c] Text; TRANSFORM Count(*) SELECT ShipCountry FROM "
        "Orders WHERE ShipCountry < [c] GROUP BY ShipCountry PIVOT ShipVia "
        "IN (1, 2, 3)",
    };
    for (size_t i = 0; i < 2; i++) {
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                     &st));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                                                 with_params[i], SQL_NTS));
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                                  SQL_VARCHAR, 15, 0, (SQLPOINTER)"B", 0,
                                  &ind));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
        char got[256];
        ck_assert_int_eq(odbct_col1(st, got, sizeof got), 2);
        ck_assert_str_eq(got, "Argentina,Austria");
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

/* One value of a parameter binding: C and SQL type, size, digits, the
 * value (NULL: SQL_NULL_DATA). */
typedef struct pbind {
    SQLSMALLINT c_type, sql_type;
    SQLULEN size;
    SQLSMALLINT digits;
    const void *value;
} pbind;

/* The SQLSTATE of exec_typed's SQLExecute when it warned, else "". */
static char exec_state[8];

/* Execute the prepared st with its parameters bound as b[0..n), then
 * assert its one column's SQL type (SQLDescribeCol after SQLExecute) and
 * its rows as rows_as writes them (text, NULL as "NULL"); returns what
 * SQLExecute returned (its warning's SQLSTATE in exec_state). */
static SQLRETURN exec_typed(SQLHSTMT st, const pbind *b, size_t n,
                            SQLSMALLINT want_type, const char *want)
{
    SQLLEN ind[4];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_CLOSE));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_RESET_PARAMS));
    for (size_t k = 0; k < n; k++) {
        ind[k] = !b[k].value ? SQL_NULL_DATA
                 : b[k].c_type == SQL_C_CHAR ? SQL_NTS : 0;
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, (SQLUSMALLINT)(k + 1), SQL_PARAM_INPUT,
                                  b[k].c_type, b[k].sql_type, b[k].size,
                                  b[k].digits, (SQLPOINTER)b[k].value, 0,
                                  &ind[k]));
    }
    SQLRETURN rc = SQLExecute(st);
    ck_assert_msg(SQL_SUCCEEDED(rc), "execute: %s %s",
                  odbct_state(SQL_HANDLE_STMT, st),
                  odbct_message(SQL_HANDLE_STMT, st));
    snprintf(exec_state, sizeof exec_state, "%s",
             rc == SQL_SUCCESS ? "" : odbct_state(SQL_HANDLE_STMT, st));
    SQLSMALLINT type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, &type,
                                                 NULL, NULL, NULL));
    ck_assert_msg(type == want_type, "type %d, want %d (%s)", (int)type,
                  (int)want_type, want);
    char got[512];
    size_t len = 0;
    got[0] = '\0';
    SQLRETURN r;
    while ((r = SQLFetch(st)) != SQL_NO_DATA) {
        ck_assert(SQL_SUCCEEDED(r));
        char v[128];
        SQLLEN vi;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, v,
                                                 sizeof v, &vi));
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%s",
                                len ? "," : "",
                                vi == SQL_NULL_DATA ? "NULL" : v);
    }
    ck_assert_msg(!strcmp(got, want), "got '%s', want '%s'", got, want);
    return rc;
}

/* SELECT ?, IIf(c, ?, ?) and ? + 1 give a parameter back as the type it
 * is bound with (Access types a parameter by its value): described so
 * after SQLExecute, as pyodbc asks; before it, the prepare's guess */
START_TEST(parameters_typed_by_their_values)
{
    static const SQLINTEGER five = 5, ten = 10, twenty = 20;
    static const SQLDOUBLE half = 2.5, one_half = 1.5;
    static const SQL_DATE_STRUCT day = { 2024, 1, 2 };
    static const SQL_TIMESTAMP_STRUCT ts = { 2024, 1, 2, 3, 4, 5, 0 };
    static const SQL_TIMESTAMP_STRUCT ts2 = { 2025, 6, 7, 0, 0, 0, 0 };
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)"SELECT ?",
                                             SQL_NTS));
    SQLSMALLINT type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, &type,
                                                 NULL, NULL, NULL));
    ck_assert_int_eq(type, SQL_WLONGVARCHAR);
    /* one prepared statement, executed with one binding after another */
    const pbind cases[] = {
        { SQL_C_SLONG, SQL_INTEGER, 0, 0, &five },
        { SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &half },
        { SQL_C_TYPE_DATE, SQL_TYPE_DATE, 0, 0, &day },
        { SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, 19, 0, &ts },
        { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "3.14" },
        { SQL_C_CHAR, SQL_VARCHAR, 10, 0, "abc" },
        { SQL_C_SLONG, SQL_INTEGER, 0, 0, NULL },
        { SQL_C_CHAR, SQL_VARCHAR, 10, 0, NULL },
        { SQL_C_SLONG, SQL_INTEGER, 0, 0, &ten },
    };
    static const struct {
        SQLSMALLINT type;
        const char *rows;
    } want[] = {
        { SQL_INTEGER, "5" }, { SQL_DOUBLE, "2.5" },
        { SQL_TYPE_TIMESTAMP, "2024-01-02 00:00:00" },
        { SQL_TYPE_TIMESTAMP, "2024-01-02 03:04:05" },
        { SQL_NUMERIC, "3.14" }, { SQL_WLONGVARCHAR, "abc" },
        { SQL_INTEGER, "NULL" }, { SQL_WLONGVARCHAR, "NULL" },
        { SQL_INTEGER, "10" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        exec_typed(st, &cases[k], 1, want[k].type, want[k].rows);
    /* the Decimal's scale is the column's */
    exec_typed(st, &cases[4], 1, SQL_NUMERIC, "3.14");
    SQLSMALLINT digits = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL, NULL,
                                                 NULL, &digits, NULL));
    ck_assert_int_eq(digits, 2);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* IIf(c, ?, ?): the common type of the two values */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT IIf(EmployeeID > 1, ?, ?) FROM Employees WHERE "
             "EmployeeID IN (1, 2) ORDER BY EmployeeID", SQL_NTS));
    const pbind ints[] = { { SQL_C_SLONG, SQL_INTEGER, 0, 0, &ten },
                           { SQL_C_SLONG, SQL_INTEGER, 0, 0, &twenty } };
    exec_typed(st, ints, 2, SQL_INTEGER, "20,10");
    const pbind dbls[] = { { SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &half },
                           { SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &one_half } };
    exec_typed(st, dbls, 2, SQL_DOUBLE, "1.5,2.5");
    const pbind dates[] = {
        { SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, 19, 0, &ts },
        { SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, 19, 0, &ts2 } };
    exec_typed(st, dates, 2, SQL_TYPE_TIMESTAMP,
               "2025-06-07 00:00:00,2024-01-02 03:04:05");
    const pbind mixed[] = { { SQL_C_SLONG, SQL_INTEGER, 0, 0, &ten },
                            { SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &half } };
    exec_typed(st, mixed, 2, SQL_DOUBLE, "2.5,10");
    const pbind texts[] = { { SQL_C_CHAR, SQL_VARCHAR, 10, 0, "a" },
                            { SQL_C_CHAR, SQL_VARCHAR, 10, 0, "b" } };
    exec_typed(st, texts, 2, SQL_WLONGVARCHAR, "b,a");
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* ? + 1: a number or a date plus one; text '5' + 1 is the Double 6 */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)"SELECT ? + 1",
                                             SQL_NTS));
    const pbind plus[] = {
        { SQL_C_SLONG, SQL_INTEGER, 0, 0, &five },
        { SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &half },
        { SQL_C_TYPE_DATE, SQL_TYPE_DATE, 0, 0, &day },
        { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "1.25" },
        { SQL_C_CHAR, SQL_VARCHAR, 10, 0, "5" },
    };
    static const struct {
        SQLSMALLINT type;
        const char *rows;
    } plus_want[] = {
        { SQL_INTEGER, "6" }, { SQL_DOUBLE, "3.5" },
        { SQL_TYPE_TIMESTAMP, "2024-01-03 00:00:00" },
        { SQL_NUMERIC, "2.25" }, { SQL_DOUBLE, "6" },
    };
    for (size_t k = 0; k < sizeof plus / sizeof *plus; k++)
        exec_typed(st, &plus[k], 1, plus_want[k].type, plus_want[k].rows);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* SQL_DECIMAL and SQL_NUMERIC parameters take the bound scale
 * (DecimalDigits): digits past it are cut off, as Access cuts a
 * Decimal's, with 01S07 (ODBC's character-to-numeric rule) */
START_TEST(decimal_parameters_take_the_bound_scale)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)"SELECT ?",
                                             SQL_NTS));
    static const SQLINTEGER seven = 7;
    static const SQLDOUBLE d115 = 1.15;
    SQL_NUMERIC_STRUCT num;
    memset(&num, 0, sizeof num);
    num.precision = 10;
    num.scale = 4;              /* 12.3456 */
    num.sign = 1;
    num.val[0] = 123456 & 0xff;
    num.val[1] = (123456 >> 8) & 0xff;
    num.val[2] = 123456 >> 16;
    SQL_NUMERIC_STRUCT neg = num;
    neg.sign = 0;
    static const struct {
        pbind b;
        const char *rows;
        bool cut;
    } cases[] = {
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "1.23456" }, "1.23", true },
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "-1.239" }, "-1.23", true },
        { { SQL_C_CHAR, SQL_NUMERIC, 18, 2, "104.7668" }, "104.76", true },
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 0, "1.5" }, "1", true },
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 3, "1.25" }, "1.250", false },
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 2, " 12E-1 " }, "1.20", false },
        { { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "-0.001" }, "0.00", true },
        { { SQL_C_SLONG, SQL_DECIMAL, 10, 2, &seven }, "7.00", false },
        { { SQL_C_DOUBLE, SQL_DECIMAL, 10, 2, &d115 }, "1.15", false },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        SQLRETURN rc = exec_typed(st, &cases[k].b, 1, SQL_NUMERIC,
                                  cases[k].rows);
        ck_assert_msg(rc == (cases[k].cut ? SQL_SUCCESS_WITH_INFO
                                          : SQL_SUCCESS),
                      "case %zu: rc %d", k, (int)rc);
        ck_assert_str_eq(exec_state, cases[k].cut ? "01S07" : "");
    }
    /* SQL_C_NUMERIC: its own scale 4, the parameter's 2 */
    const pbind nb = { SQL_C_NUMERIC, SQL_NUMERIC, 10, 2, &num };
    ck_assert_int_eq(exec_typed(st, &nb, 1, SQL_NUMERIC, "12.34"),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(exec_state, "01S07");
    const pbind nn = { SQL_C_NUMERIC, SQL_DECIMAL, 10, 4, &neg };
    ck_assert_int_eq(exec_typed(st, &nn, 1, SQL_NUMERIC, "-12.3456"),
                     SQL_SUCCESS);
    /* no number, or past Decimal's 28 digits */
    static const struct {
        const char *text;
        const char *state;
    } bad[] = { { "1,5", "22018" }, { "1E30", "22003" }, { "abc", "22018" } };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        SQLLEN ind = SQL_NTS;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_CLOSE));
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                                  SQL_DECIMAL, 10, 2,
                                  (SQLPOINTER)bad[k].text, 0, &ind));
        ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), bad[k].state);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* compared with a Currency column at the bound scale: 32.389 at
     * scale 2 is 32.38 */
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT COUNT(*) FROM Orders WHERE Freight > ?", SQL_NTS));
    const pbind f = { SQL_C_CHAR, SQL_DECIMAL, 10, 2, "32.389" };
    exec_typed(st, &f, 1, SQL_INTEGER, "459");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    want_rows("SELECT COUNT(*) FROM Orders WHERE Freight > 32.38", "459");
}
END_TEST

static Suite *accesssql_suite(void)
{
    Suite *s = suite_create("odbc_accesssql");
    TCase *tc = tcase_create("accesssql");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, double_quotes_are_text);
    tcase_add_test(tc, alias_reused_in_later_fields);
    tcase_add_test(tc, union_all_grouped_branches_sorted);
    tcase_add_test(tc, correlated_view_hashed_once);
    tcase_add_test(tc, max_min_of_decimal_keep_precision);
    tcase_add_test(tc, php_false_for_yes_no);
    tcase_add_test(tc, external_databases_in_from);
    tcase_add_test(tc, adhoc_transform_pivot);
    tcase_add_test(tc, parameters_typed_by_their_values);
    tcase_add_test(tc, decimal_parameters_take_the_bound_scale);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(accesssql_suite)
