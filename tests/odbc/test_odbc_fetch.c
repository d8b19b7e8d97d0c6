/*
 * test_odbc_fetch.c - SELECT, describe and fetch through the driver
 * manager: column order and types, quoted identifiers, 42S02/42S22,
 * SQLGetData chunking (01004, remaining length, NUL in every char chunk,
 * SQL_NO_DATA), row arrays bound column-wise and row-wise, conversions.
 */
#include <stdio.h>
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

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

START_TEST(select_star_lists_columns_in_tdef_order)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT * FROM Shippers");
    SQLSMALLINT n = 0, type, digits, nullable, namelen;
    SQLULEN size;
    SQLCHAR name[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 3);
    static const char *names[] = {"ShipperID", "CompanyName", "Phone"};
    for (SQLUSMALLINT c = 1; c <= 3; c++) {
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLDescribeCol(st, c, name, sizeof name, &namelen, &type,
                                &size, &digits, &nullable));
        ck_assert_str_eq((char *)name, names[c - 1]);
        ck_assert_int_eq(namelen, (int)strlen(names[c - 1]));
    }
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLDescribeCol(st, 2, name, sizeof name, NULL, &type, &size,
                            &digits, &nullable));
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_uint_eq(size, 40);
    SQLLEN rc = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &rc));
    ck_assert_int_eq(rc, -1);
    int rows = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        rows++;
    ck_assert_int_eq(rows, 3);
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    ck_assert_int_eq(SQLMoreResults(st), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(select_quoted_identifiers_in_given_order)
{
    SQLHSTMT st = odbct_exec(dbc,
        "SELECT [Phone], `CompanyName` AS cn, `ShipperID` FROM [Shippers]");
    SQLCHAR name[64];
    SQLSMALLINT n;
    SQLNumResultCols(st, &n);
    ck_assert_int_eq(n, 3);
    SQLDescribeCol(st, 2, name, sizeof name, NULL, NULL, NULL, NULL, NULL);
    ck_assert_str_eq((char *)name, "cn");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLCHAR buf[64];
    SQLLEN ind;
    SQLINTEGER id = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 2, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq((char *)buf, "Speedy Express");
    ck_assert_int_eq(ind, 14);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 3, SQL_C_SLONG, &id, 0, &ind));
    ck_assert_int_eq(id, 1);
    /* any order */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq((char *)buf, "(503) 555-9831");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(select_non_ascii_table_name)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT OrderID FROM [Ums\xc3\xa4tze]");
    int rows = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        rows++;
    ck_assert_int_eq(rows, 830);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(select_unknown_table_is_42S02)
{
    SQLHSTMT st = new_stmt();
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM NoSuchTable",
                                   SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42S02");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "NoSuchTable"));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(select_unknown_column_is_42S22)
{
    SQLHSTMT st = new_stmt();
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)
                                   "SELECT ShipperID, Nope FROM Shippers",
                                   SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42S22");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st), "Nope"));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELEC * FROM Shippers",
                                   SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    ck_assert_int_eq(SQLFetch(st), SQL_ERROR);     /* no result set */
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(prepare_describes_without_execute)
{
    SQLHSTMT st = new_stmt();
    SQLSMALLINT n = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)"SELECT * FROM Employees", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &n));
    ck_assert_int_eq(n, 17);
    SQLSMALLINT params = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumParams(st, &params));
    ck_assert_int_eq(params, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Read a long MEMO (Employees.Notes of row 1) in one go. */
static size_t read_whole_notes(SQLWCHAR *out, size_t cap_units)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT Notes FROM Employees");
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_WCHAR, out, cap_units * 2, &ind));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return (size_t)ind / 2;
}

START_TEST(getdata_wchar_streams_in_chunks_with_01004)
{
    static SQLWCHAR whole[8192], got[8192];
    size_t total = read_whole_notes(whole, 8192);
    ck_assert_uint_gt(total, 50);

    SQLHSTMT st = odbct_exec(dbc, "SELECT Notes FROM Employees");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLWCHAR chunk[11];          /* 10 characters + NUL per call */
    SQLLEN ind;
    size_t pos = 0;
    SQLRETURN r;
    int calls = 0;
    while ((r = SQLGetData(st, 1, SQL_C_WCHAR, chunk, sizeof chunk, &ind)) !=
           SQL_NO_DATA) {
        ck_assert(SQL_SUCCEEDED(r));
        ck_assert_int_eq(ind, (SQLLEN)((total - pos) * 2));
        size_t n = (size_t)ind / 2 > 10 ? 10 : (size_t)ind / 2;
        if (r == SQL_SUCCESS_WITH_INFO)
            ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01004");
        else
            ck_assert_uint_le((size_t)ind / 2, 10);
        ck_assert_uint_eq(chunk[n], 0);
        memcpy(got + pos, chunk, n * 2);
        pos += n;
        calls++;
        ck_assert_int_lt(calls, 10000);
    }
    ck_assert_uint_eq(pos, total);
    ck_assert(memcmp(got, whole, total * 2) == 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(getdata_char_streams_in_chunks_with_01004)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT Notes FROM Employees");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    char chunk[16], all[8192] = "";
    SQLLEN ind, first = -1;
    SQLRETURN r;
    size_t pos = 0;
    while ((r = SQLGetData(st, 1, SQL_C_CHAR, chunk, sizeof chunk, &ind)) !=
           SQL_NO_DATA) {
        ck_assert(SQL_SUCCEEDED(r));
        if (first < 0)
            first = ind;
        size_t n = strlen(chunk);
        ck_assert_uint_le(n, 15);
        ck_assert_uint_lt(pos + n, sizeof all);
        memcpy(all + pos, chunk, n + 1);
        pos += n;
    }
    ck_assert_int_eq(first, (SQLLEN)pos);
    ck_assert(strncmp(all, "Education includes", 18) == 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(getdata_binary_streams_ole_without_terminator)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT Photo, EmployeeID FROM Employees");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    unsigned char chunk[4096];
    SQLLEN ind;
    SQLRETURN r;
    size_t total = 0;
    int calls = 0;
    while ((r = SQLGetData(st, 1, SQL_C_BINARY, chunk, sizeof chunk, &ind)) !=
           SQL_NO_DATA) {
        ck_assert(SQL_SUCCEEDED(r));
        if (calls == 0)
            ck_assert_int_eq(ind, 21626);   /* expected dump: length 21626 */
        total += (size_t)ind > sizeof chunk ? sizeof chunk : (size_t)ind;
        calls++;
    }
    ck_assert_uint_eq(total, 21626);
    ck_assert_int_eq(calls, 6);
    SQLINTEGER id;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_SLONG, &id, 0, &ind));
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(SQLGetData(st, 2, SQL_C_SLONG, &id, 0, &ind), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(getdata_null_gives_null_data_then_no_data)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT Region FROM Customers");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));   /* ALFKI: Region NULL */
    SQLWCHAR w[16];
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_WCHAR, w, sizeof w, &ind));
    ck_assert_int_eq(ind, SQL_NULL_DATA);
    ck_assert_int_eq(SQLGetData(st, 1, SQL_C_WCHAR, w, sizeof w, &ind),
                     SQL_NO_DATA);
    /* NULL without an indicator: 22002 */
    SQLFreeStmt(st, SQL_CLOSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT Region FROM Customers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(SQLGetData(st, 1, SQL_C_WCHAR, w, sizeof w, NULL),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22002");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(row_array_column_wise_counts_rows)
{
    enum { N = 100 };
    SQLHSTMT st = new_stmt();
    SQLINTEGER ids[N];
    SQLLEN id_ind[N], name_ind[N];
    SQLWCHAR names[N][8];
    SQLUSMALLINT status[N];
    SQLULEN fetched = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
                                                 (SQLPOINTER)N, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR,
                                                 status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR,
                                                 &fetched, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT OrderID, CustomerID FROM Orders", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, id_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 2, SQL_C_WCHAR, names,
                                             sizeof names[0], name_ind));
    size_t total = 0;
    int batches = 0;
    SQLRETURN r;
    while ((r = SQLFetchScroll(st, SQL_FETCH_NEXT, 0)) != SQL_NO_DATA) {
        ck_assert(SQL_SUCCEEDED(r));
        ck_assert_uint_ge(fetched, 1);
        ck_assert_uint_le(fetched, N);
        for (SQLULEN i = 0; i < fetched; i++) {
            ck_assert_uint_eq(status[i], SQL_ROW_SUCCESS);
            ck_assert_int_eq(id_ind[i], 4);
            ck_assert_int_eq(name_ind[i], 10);     /* 5 characters */
            ck_assert_uint_eq(names[i][5], 0);
        }
        if (fetched < N)
            ck_assert_uint_eq(status[fetched], SQL_ROW_NOROW);
        total += fetched;
        batches++;
    }
    ck_assert_uint_eq(total, 830);
    ck_assert_int_eq(batches, 9);
    ck_assert_int_eq(ids[0] >= 10248 && ids[0] <= 11077, 1);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(row_array_row_wise_binding)
{
    struct row {
        SQLINTEGER id;
        SQLLEN id_ind;
        SQLCHAR name[48];
        SQLLEN name_ind;
        SQLLEN phone_ind;       /* bound with a NULL data pointer */
    } rows[4];
    SQLULEN fetched = 0;
    SQLHSTMT st = new_stmt();
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(struct row), 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)4, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT * FROM Shippers", SQL_NTS));
    SQLBindCol(st, 1, SQL_C_SLONG, &rows[0].id, 0, &rows[0].id_ind);
    SQLBindCol(st, 2, SQL_C_CHAR, rows[0].name, sizeof rows[0].name,
               &rows[0].name_ind);
    SQLBindCol(st, 3, SQL_C_CHAR, NULL, 0, &rows[0].phone_ind);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_uint_eq(fetched, 3);
    ck_assert_int_eq(rows[0].id, 1);
    ck_assert_int_eq(rows[2].id, 3);
    ck_assert_str_eq((char *)rows[1].name, "United Package");
    ck_assert_int_eq(rows[1].name_ind, 14);
    ck_assert_int_eq(rows[1].phone_ind, 14);    /* "(503) 555-3199" */
    ck_assert_int_eq(SQLFetch(st), SQL_NO_DATA);
    /* unbinding */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_UNBIND));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Rows 1..N of sql column 1 as C type ct, one row per SQLFetch, each at
 * out + r * size. */
static void fetch_rows_singly(const char *sql, SQLSMALLINT ct, size_t size,
                              unsigned char *out, SQLLEN *ind, int n)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS));
    for (int r = 0; r < n; r++) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, ct, out + r * size,
                                                 0, &ind[r]));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

START_TEST(row_array_column_wise_fixed_types_ignore_buffer_length)
{
    /* ODBC ignores BufferLength for fixed-length C types: the array
     * stride is the type's size (a rowset once went to element 0) */
    enum { N = 10 };
    static const char *num = "SELECT EmployeeID + OrderID MOD 7 FROM Orders "
                             "ORDER BY OrderID";
    static const char *date = "SELECT OrderDate FROM Orders ORDER BY OrderID";
    static const char *guid = "SELECT '000' & OrderID & '-0001-0002-0003-"
                              "000400050006' FROM Orders ORDER BY OrderID";
    static const struct { SQLSMALLINT ct; size_t size; const char *sql; }
    types[] = {
        { SQL_C_BIT, 1, "SELECT OrderID MOD 2 FROM Orders ORDER BY OrderID" },
        { SQL_C_STINYINT, 1, NULL }, { SQL_C_UTINYINT, 1, NULL },
        { SQL_C_TINYINT, 1, NULL },
        { SQL_C_SSHORT, sizeof(SQLSMALLINT), NULL },
        { SQL_C_USHORT, sizeof(SQLUSMALLINT), NULL },
        { SQL_C_SHORT, sizeof(SQLSMALLINT), NULL },
        { SQL_C_SLONG, sizeof(SQLINTEGER), NULL },
        { SQL_C_ULONG, sizeof(SQLUINTEGER), NULL },
        { SQL_C_LONG, sizeof(SQLINTEGER), NULL },
        { SQL_C_SBIGINT, sizeof(SQLBIGINT), NULL },
        { SQL_C_UBIGINT, sizeof(SQLUBIGINT), NULL },
        { SQL_C_FLOAT, sizeof(SQLREAL), NULL },
        { SQL_C_DOUBLE, sizeof(SQLDOUBLE), NULL },
        { SQL_C_NUMERIC, sizeof(SQL_NUMERIC_STRUCT), NULL },
        { SQL_C_TYPE_DATE, sizeof(SQL_DATE_STRUCT), "d" },
        { SQL_C_TYPE_TIME, sizeof(SQL_TIME_STRUCT), "d" },
        { SQL_C_TYPE_TIMESTAMP, sizeof(SQL_TIMESTAMP_STRUCT), "d" },
        { SQL_C_GUID, sizeof(SQLGUID), "g" },
    };
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const char *sql = !types[t].sql ? num
                          : !strcmp(types[t].sql, "d") ? date
                          : !strcmp(types[t].sql, "g") ? guid
                          : types[t].sql;
        size_t size = types[t].size;
        unsigned char block[N * 32 + 32], want[N * 32];
        SQLLEN ind[N + 1], want_ind[N];
        SQLULEN fetched = 0;
        memset(block, 0xAA, sizeof block);
        memset(want, 0xAA, sizeof want);
        ind[N] = -12345;
        fetch_rows_singly(sql, types[t].ct, size, want, want_ind, N);
        SQLHSTMT st = new_stmt();
        SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)N, 0);
        SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                    SQL_NTS));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, types[t].ct, block,
                                                 0, ind));
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        ck_assert_uint_eq(fetched, N);
        for (int r = 0; r < N; r++) {
            ck_assert_msg(memcmp(block + r * size, want + r * size, size) == 0,
                          "C type %d row %d differs", (int)types[t].ct, r);
            ck_assert_int_eq(ind[r], want_ind[r]);
        }
        ck_assert_uint_eq(block[N * size], 0xAA);   /* nothing past it */
        ck_assert_int_eq(ind[N], -12345);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}
END_TEST

START_TEST(execute_with_open_cursor_is_24000)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT * FROM Shippers", SQL_NTS));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Customers",
                                   SQL_NTS), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "24000");
    /* the first cursor is intact */
    SQLINTEGER id = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_SLONG, &id, 0,
                                             NULL));
    ck_assert_int_eq(id, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLCloseCursor(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT * FROM Shippers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "24000");
    /* the driver manager now takes the statement as prepared without a
     * cursor, and so does the driver */
    ck_assert_int_eq(SQLFetch(st), SQL_ERROR);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    /* SQLPrepare closes the cursor (unixODBC forgets it on failure) */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
             "SELECT * FROM Shippers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    /* a cursor read to its end closes implicitly */
    while (SQLFetch(st) == SQL_SUCCESS)
        ;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_CLOSE));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT * FROM Customers", SQL_NTS));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(bind_col_past_the_result_is_07009)
{
    SQLHSTMT st = new_stmt();
    char buf[64];
    SQLLEN ind;
    /* before prepare the columns are unknown: allowed */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 20, SQL_C_CHAR, buf,
                                             sizeof buf, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT * FROM Shippers", SQL_NTS));
    ck_assert_int_eq(SQLBindCol(st, 4, SQL_C_CHAR, buf, sizeof buf, &ind),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07009");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 3, SQL_C_CHAR, buf,
                                             sizeof buf, &ind));
    /* unbinding is always fine; the stale binding of 20 is ignored */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 999, SQL_C_CHAR, NULL, 0,
                                             NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_str_eq(buf, "(503) 555-9831");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(nul_inside_the_text_length_is_42000)
{
    static const char text[] = "SELECT * FROM Customers\0garbage";
    SQLHSTMT st = new_stmt();
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)text,
                                   (SQLINTEGER)sizeof text - 1), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "character 24"));
    SQLWCHAR w[sizeof text];
    for (size_t i = 0; i < sizeof text; i++)
        w[i] = (SQLWCHAR)text[i];
    ck_assert_int_eq(SQLPrepareW(st, w, (SQLINTEGER)sizeof text - 1),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "42000");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "character 24"));
    /* the length stops before the NUL: fine */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)text, 23));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(guid_display_size_fits_its_text)
{
    /* isql sizes columns by SQL_DESC_DISPLAY_SIZE: it must hold the text
     * SQL_C_CHAR gets, braces included */
    SQLHENV e2;
    SQLHDBC d2;
    odbct_connect_path(&e2, &d2, odbct_fixture("jackcess/V1997/testIndexCodesV1997.mdb"));
    SQLHSTMT st = odbct_exec(d2, "SELECT data FROM Table13");
    SQLLEN disp = 0, ind = 0;
    char buf[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 1,
             SQL_DESC_DISPLAY_SIZE, NULL, 0, NULL, &disp));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, buf,
                                             sizeof buf, &ind));
    ck_assert_int_eq(ind, (SQLLEN)strlen(buf));
    ck_assert_int_eq(disp, ind);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(e2, d2);
}
END_TEST

START_TEST(bound_char_truncation_is_01004_with_full_length)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT CompanyName FROM Shippers");
    SQLCHAR buf[7];
    SQLLEN ind;
    SQLBindCol(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind);
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01004");
    ck_assert_str_eq((char *)buf, "Speedy");
    ck_assert_int_eq(ind, 14);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* SQL_ATTR_MAX_LENGTH cuts character and binary values to that many
 * bytes, bound or read by SQLGetData (in chunks too), with SQL_SUCCESS
 * and the cut length in the indicator; other columns (a number, a date
 * as text) are whole; 0 returns whole values again. */
START_TEST(max_length_cuts_character_and_binary_values)
{
    SQLHSTMT st = new_stmt();
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH,
                                                 (SQLPOINTER)5, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT CompanyName, ShipperID, Phone, CompanyName FROM "
             "Shippers", SQL_NTS));
    SQLCHAR name[64], id[16];
    SQLWCHAR phone[32];
    unsigned char bin[64];
    SQLLEN ni, ii, pi, bi;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_CHAR, name,
                                             sizeof name, &ni));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 2, SQL_C_CHAR, id,
                                             sizeof id, &ii));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 3, SQL_C_WCHAR, phone,
                                             sizeof phone, &pi));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 4, SQL_C_BINARY, bin,
                                             sizeof bin, &bi));
    for (int row = 0; row < 3; row++) {
        ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS);        /* no 01004 */
        ck_assert_int_eq(ni, 5);
        ck_assert_uint_eq(strlen((char *)name), 5);
        ck_assert_int_eq(pi, 4);            /* 5 bytes: 2 whole SQLWCHARs */
        ck_assert_uint_eq(phone[0], '(');
        ck_assert_uint_eq(phone[2], 0);
        ck_assert_int_eq(bi, 5);            /* the UTF-16 bytes, cut */
        ck_assert_uint_eq(bin[0], name[0]);
        ck_assert_uint_eq(bin[2], name[1]);
        ck_assert_int_eq(ii, 1);
    }
    ck_assert_str_eq((char *)name, "Feder");        /* Federal Shipping */
    ck_assert_str_eq((char *)id, "3");
    /* an open cursor keeps its value (01S02) */
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH, (SQLPOINTER)0,
                                    0), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S02");
    SQLFreeStmt(st, SQL_UNBIND);
    SQLCloseCursor(st);

    /* SQLGetData: a long Memo in 4-byte chunks ends after 10 bytes; an
     * OLE Object is 10 bytes; a date as text is whole */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH,
                                                 (SQLPOINTER)10, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT Notes, Photo, BirthDate FROM Employees", SQL_NTS));
    for (int row = 0; row < 2; row++) {
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        char chunk[4], all[64] = "";
        SQLLEN ind;
        SQLRETURN r;
        SQLLEN want = 10;
        while ((r = SQLGetData(st, 1, SQL_C_CHAR, chunk, sizeof chunk,
                               &ind)) != SQL_NO_DATA) {
            ck_assert(SQL_SUCCEEDED(r));
            ck_assert_int_eq(ind, want);    /* what is left of 10 */
            ck_assert_int_eq(r, ind > 3 ? SQL_SUCCESS_WITH_INFO
                                        : SQL_SUCCESS);
            strcat(all, chunk);
            want -= 3;
        }
        ck_assert_uint_eq(strlen(all), 10);
        if (row == 0)
            ck_assert_str_eq(all, "Education ");
        ck_assert_int_eq(SQLGetData(st, 2, SQL_C_BINARY, bin, sizeof bin,
                                    &ind), SQL_SUCCESS);
        ck_assert_int_eq(ind, 10);
        char date[32];
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 3, SQL_C_CHAR, date,
                                                 sizeof date, &ind));
        ck_assert_int_eq(ind, 19);
    }
    SQLCloseCursor(st);
    /* 0: whole values again */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_MAX_LENGTH,
                                                 (SQLPOINTER)0, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT CompanyName FROM Shippers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, name,
                                             sizeof name, &ind));
    ck_assert_str_eq((char *)name, "Speedy Express");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(max_rows_and_top_limit_rows)
{
    SQLHSTMT st = new_stmt();
    SQLSetStmtAttr(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)5, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT * FROM Orders", SQL_NTS));
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        n++;
    ck_assert_int_eq(n, 5);
    SQLCloseCursor(st);
    SQLSetStmtAttr(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)0, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT TOP 2 * FROM Orders", SQL_NTS));
    n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        n++;
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(SQLCloseCursor(st), SQL_SUCCESS);
    ck_assert_int_eq(SQLCloseCursor(st), SQL_ERROR);    /* 24000 */
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "24000");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(conversions_of_money_float_date_text)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT UnitPrice, Discount, Quantity "
                                  "FROM [Order Details]");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    char buf[64];
    SQLLEN ind;
    double d;
    float f;
    SQL_NUMERIC_STRUCT ns;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq(buf, "14.0000");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 2, SQL_C_FLOAT, &f, 0, &ind));
    ck_assert(f == 0.0f);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 3, SQL_C_DOUBLE, &d, 0, &ind));
    ck_assert(d == 12.0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = odbct_exec(dbc, "SELECT UnitPrice FROM [Order Details]");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    /* SQLGetData uses the default scale 0 ("SQL_C_NUMERIC and
     * SQLSetDescField"); 14.0000 loses no digit */
    ck_assert_int_eq(SQLGetData(st, 1, SQL_C_NUMERIC, &ns, sizeof ns, &ind),
                     SQL_SUCCESS);
    ck_assert_int_eq(ns.scale, 0);
    ck_assert_int_eq(ns.sign, 1);
    ck_assert_int_eq(ns.val[0] | ns.val[1] << 8 | ns.val[2] << 16, 14);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = odbct_exec(dbc, "SELECT OrderDate, CustomerID FROM Orders");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQL_TIMESTAMP_STRUCT ts;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_TYPE_TIMESTAMP, &ts, sizeof ts, &ind));
    ck_assert_int_eq(ts.year, 1994);
    ck_assert_int_eq(ts.month, 11);
    ck_assert_int_eq(ts.day, 16);
    SQLINTEGER l;
    ck_assert_int_eq(SQLGetData(st, 2, SQL_C_SLONG, &l, 0, &ind), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22018");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

START_TEST(col_attribute_common_fields)
{
    SQLHSTMT st = odbct_exec(dbc, "SELECT * FROM Products");
    SQLLEN num = 0;
    char buf[64];
    SQLSMALLINT len;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 1, SQL_DESC_COUNT, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, 10);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 1, SQL_DESC_AUTO_UNIQUE_VALUE, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, SQL_TRUE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 1, SQL_DESC_UNSIGNED, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, SQL_FALSE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 6, SQL_DESC_TYPE_NAME, buf, sizeof buf, &len, NULL));
    ck_assert_str_eq(buf, "CURRENCY");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 6, SQL_DESC_FIXED_PREC_SCALE, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, SQL_TRUE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 2, SQL_DESC_NAME, buf, sizeof buf, &len, NULL));
    ck_assert_str_eq(buf, "ProductName");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 2, SQL_DESC_BASE_TABLE_NAME, buf, sizeof buf, &len, NULL));
    ck_assert_str_eq(buf, "Products");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 2, SQL_DESC_LENGTH, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, 40);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLColAttribute(st, 2, SQL_DESC_CONCISE_TYPE, NULL, 0, NULL, &num));
    ck_assert_int_eq(num, SQL_WVARCHAR);
    ck_assert_int_eq(SQLColAttribute(st, 11, SQL_DESC_NAME, buf, sizeof buf, &len, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "07009");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* SQLGetData from the 2nd row on reads a direct column's bytes straight
 * from the row (stmt.c's cell getters): every value, NULL and short
 * buffer must come out exactly as SQLBindCol's conversion gives it, in
 * every C type a fixed scalar or in-row text has a getter for (and a few
 * it has not). nwind Orders: Long, Text, Date/Time, NULLs (ShippedDate,
 * ShipRegion), Integer (ShipVia); Products: Byte-free, Currency. */
static void getdata_matches_bound(const char *sql, SQLSMALLINT ct,
                                  SQLLEN size)
{
    SQLHSTMT b = odbct_exec(dbc, sql), g = odbct_exec(dbc, sql);
    SQLSMALLINT ncols = 0;
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLNumResultCols(b, &ncols));
    ck_assert_int_le(ncols, 8);
    unsigned char bv[8][64], gv[64];
    SQLLEN bind[8];
    for (SQLSMALLINT c = 0; c < ncols; c++)
        ODBCT_OK(SQL_HANDLE_STMT, b, SQLBindCol(b, (SQLUSMALLINT)(c + 1), ct,
                                                bv[c], size, &bind[c]));
    long rows = 0;
    for (;;) {
        for (SQLSMALLINT c = 0; c < ncols; c++)
            memset(bv[c], 0xAB, sizeof bv[c]);
        SQLRETURN rb = SQLFetch(b), rg = SQLFetch(g);
        ck_assert_int_eq(rb == SQL_NO_DATA, rg == SQL_NO_DATA);
        if (rb == SQL_NO_DATA)
            break;
        rows++;
        for (SQLSMALLINT c = 0; c < ncols; c++) {
            SQLLEN gind = 12345;
            memset(gv, 0xAB, sizeof gv);
            SQLRETURN r = SQLGetData(g, (SQLUSMALLINT)(c + 1), ct, gv, size,
                                     &gind);
            ck_assert_msg(SQL_SUCCEEDED(r), "%s: row %ld col %d: %s", sql,
                          rows, c + 1, odbct_state(SQL_HANDLE_STMT, g));
            ck_assert_msg(gind == bind[c], "%s: row %ld col %d C type %d: "
                          "indicator %ld, bound %ld", sql, rows, c + 1, ct,
                          (long)gind, (long)bind[c]);
            size_t n = gind == SQL_NULL_DATA ? 0
                       : (size_t)(gind < size ? gind : size);
            if (ct == SQL_C_CHAR || ct == SQL_C_WCHAR)
                n = (size_t)size;   /* the terminator and what follows */
            ck_assert_msg(memcmp(gv, bv[c], n) == 0, "%s: row %ld col %d "
                          "C type %d: value differs", sql, rows, c + 1, ct);
        }
    }
    ck_assert_int_gt(rows, 5);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
    SQLFreeHandle(SQL_HANDLE_STMT, g);
}

START_TEST(getdata_from_row_bytes_matches_bound_columns)
{
    const char *num = "SELECT OrderID, EmployeeID, ShipVia FROM Orders";
    const char *date = "SELECT OrderDate, ShippedDate FROM Orders";
    const char *text = "SELECT CustomerID, ShipRegion, ShipName, "
                       "ShipCountry FROM Orders";
    const SQLSMALLINT num_types[] = { SQL_C_SLONG, SQL_C_SBIGINT,
                                      SQL_C_SSHORT, SQL_C_DOUBLE,
                                      SQL_C_CHAR, SQL_C_WCHAR };
    for (size_t i = 0; i < sizeof num_types / sizeof *num_types; i++)
        getdata_matches_bound(num, num_types[i], 64);
    getdata_matches_bound("SELECT UnitPrice, Discount FROM [Order Details]",
                          SQL_C_DOUBLE, 64);
    getdata_matches_bound("SELECT UnitPrice, Discount FROM [Order Details]",
                          SQL_C_CHAR, 64);
    getdata_matches_bound(date, SQL_C_TYPE_TIMESTAMP, 64);
    getdata_matches_bound(date, SQL_C_CHAR, 64);
    getdata_matches_bound(date, SQL_C_WCHAR, 64);
    getdata_matches_bound(text, SQL_C_CHAR, 64);
    getdata_matches_bound(text, SQL_C_WCHAR, 64);
    /* short buffers: the getters step aside, the general path truncates
     * (01004) exactly as the bound conversion does */
    getdata_matches_bound(text, SQL_C_CHAR, 4);
    getdata_matches_bound(text, SQL_C_WCHAR, 6);
}
END_TEST

static Suite *fetch_suite(void)
{
    Suite *s = suite_create("odbc_fetch");
    TCase *tc = tcase_create("fetch");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, select_star_lists_columns_in_tdef_order);
    tcase_add_test(tc, select_quoted_identifiers_in_given_order);
    tcase_add_test(tc, select_non_ascii_table_name);
    tcase_add_test(tc, select_unknown_table_is_42S02);
    tcase_add_test(tc, select_unknown_column_is_42S22);
    tcase_add_test(tc, prepare_describes_without_execute);
    tcase_add_test(tc, getdata_wchar_streams_in_chunks_with_01004);
    tcase_add_test(tc, getdata_char_streams_in_chunks_with_01004);
    tcase_add_test(tc, getdata_binary_streams_ole_without_terminator);
    tcase_add_test(tc, getdata_null_gives_null_data_then_no_data);
    tcase_add_test(tc, row_array_column_wise_counts_rows);
    tcase_add_test(tc, row_array_row_wise_binding);
    tcase_add_test(tc, row_array_column_wise_fixed_types_ignore_buffer_length);
    tcase_add_test(tc, execute_with_open_cursor_is_24000);
    tcase_add_test(tc, bind_col_past_the_result_is_07009);
    tcase_add_test(tc, nul_inside_the_text_length_is_42000);
    tcase_add_test(tc, guid_display_size_fits_its_text);
    tcase_add_test(tc, bound_char_truncation_is_01004_with_full_length);
    tcase_add_test(tc, max_rows_and_top_limit_rows);
    tcase_add_test(tc, max_length_cuts_character_and_binary_values);
    tcase_add_test(tc, conversions_of_money_float_date_text);
    tcase_add_test(tc, col_attribute_common_fields);
    tcase_add_test(tc, getdata_from_row_bytes_matches_bound_columns);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(fetch_suite)
