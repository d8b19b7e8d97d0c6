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
        "SELECT [Phone], \"CompanyName\" AS cn, `ShipperID` FROM [Shippers]");
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
    tcase_add_test(tc, bound_char_truncation_is_01004_with_full_length);
    tcase_add_test(tc, max_rows_and_top_limit_rows);
    tcase_add_test(tc, conversions_of_money_float_date_text);
    tcase_add_test(tc, col_attribute_common_fields);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(fetch_suite)
