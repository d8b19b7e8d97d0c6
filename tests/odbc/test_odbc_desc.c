/*
 * test_odbc_desc.c - the implicit descriptors through the driver manager:
 * IRD fields mirror SQLColAttribute, ARD fields bind columns, whole
 * records through SQLGetDescRec(W)/SQLSetDescRec (IRD, ARD, APD, IPD);
 * bindings changed between fetches (SQLBindCol, ARD fields, SQL_UNBIND)
 * take effect on the next fetch; SQLCopyDesc between statements (and
 * connections), its errors on the target.
 */
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;
static SQLHSTMT st;

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
    st = odbct_exec(dbc, "SELECT ShipperID, CompanyName FROM Shippers");
}

static void teardown(void)
{
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}

START_TEST(ird_count_name_and_type)
{
    SQLHDESC ird = NULL;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_ROW_DESC,
                                                 &ird, 0, NULL));
    ck_assert_ptr_nonnull(ird);
    SQLSMALLINT count = 0, type = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 0, SQL_DESC_COUNT,
                                                   &count, 0, NULL));
    ck_assert_int_eq(count, 2);
    char name[64];
    SQLINTEGER len = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2, SQL_DESC_NAME,
                                                   name, sizeof name, &len));
    ck_assert_str_eq(name, "CompanyName");
    ck_assert_int_eq(len, 11);
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2,
                                                   SQL_DESC_CONCISE_TYPE,
                                                   &type, 0, NULL));
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_int_eq(SQLSetDescField(ird, 1, SQL_DESC_TYPE,
                                     (SQLPOINTER)SQL_C_CHAR, 0), SQL_ERROR);
}
END_TEST

START_TEST(ard_fields_bind_a_column)
{
    SQLHDESC ard = NULL;
    SQLINTEGER id = 0;
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC,
                                                 &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_TYPE,
                                                   (SQLPOINTER)SQL_C_SLONG, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR,
                                                   &id, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1,
                                                   SQL_DESC_INDICATOR_PTR,
                                                   &ind, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(ind, 4);
    SQLSMALLINT count = 0;
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLGetDescField(ard, 0, SQL_DESC_COUNT,
                                                   &count, 0, NULL));
    ck_assert_int_eq(count, 1);
}
END_TEST

START_TEST(bindings_changed_between_fetches_take_effect)
{
    /* Shippers 1, 2, 3: each fetch after a change writes where the
     * bindings then say (fetch's plan is rechecked after each change) */
    SQLHDESC ard = NULL;
    SQLINTEGER a = 0, b = 0, c = 0;
    char text[8] = "";
    SQLLEN ind = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC,
                                                 &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &a, 0, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(a, 1);
    /* SQLBindCol: another buffer and C type */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_CHAR, text,
                                             sizeof text, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_str_eq(text, "2");
    ck_assert_int_eq(ind, 1);
    ck_assert_int_eq(a, 1);
    /* an ARD field: the type, then the data pointer */
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_TYPE,
                                                   (SQLPOINTER)SQL_C_SLONG, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR,
                                                   &b, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(b, 3);
    ck_assert_int_eq(ind, 4);
    ck_assert_str_eq(text, "2");
    /* SQL_UNBIND: the next execution's fetch writes nothing */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_UNBIND));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFreeStmt(st, SQL_CLOSE));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT ShipperID, CompanyName FROM Shippers", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(a, 1);
    ck_assert_int_eq(b, 3);
    /* bound again mid-result: the following fetch fills it */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &c, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(c, 2);
    /* SQL_DESC_COUNT 0 unbinds */
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLSetDescField(ard, 0, SQL_DESC_COUNT,
                                                   (SQLPOINTER)0, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(c, 2);
}
END_TEST

START_TEST(get_desc_rec_reads_ird_records)
{
    SQLHDESC ird = NULL;
    char name[64];
    SQLSMALLINT name_len = 0, type = 0, sub = -1, prec = -1, scale = -1,
                nullable = -1;
    SQLLEN len = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_ROW_DESC,
                                                 &ird, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ird,
             SQLGetDescRec(ird, 2, (SQLCHAR *)name, sizeof name, &name_len,
                           &type, &sub, &len, &prec, &scale, &nullable));
    ck_assert_str_eq(name, "CompanyName");
    ck_assert_int_eq(name_len, 11);
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_int_eq(sub, 0);
    ck_assert_int_eq(len, 80);          /* Text(40): 40 UTF-16 units */
    ck_assert_int_eq(nullable, SQL_NO_NULLS);   /* Required */
    /* the same as the field calls */
    SQLLEN octets = 0;
    SQLSMALLINT field_nullable = -1;
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2,
                                                   SQL_DESC_OCTET_LENGTH,
                                                   &octets, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ird, SQLGetDescField(ird, 2, SQL_DESC_NULLABLE,
                                                   &field_nullable, 0, NULL));
    ck_assert_int_eq(len, octets);
    ck_assert_int_eq(nullable, field_nullable);
    /* the integer key: no name truncation asked, outputs may be NULL */
    ODBCT_OK(SQL_HANDLE_DESC, ird,
             SQLGetDescRec(ird, 1, NULL, 0, &name_len, &type, NULL, NULL,
                           NULL, NULL, NULL));
    ck_assert_int_eq(type, SQL_INTEGER);
    ck_assert_int_eq(name_len, 9);      /* "ShipperID" */
    /* truncation: 01004, the full length */
    char small[4];
    ck_assert_int_eq(SQLGetDescRec(ird, 2, (SQLCHAR *)small, sizeof small,
                                   &name_len, NULL, NULL, NULL, NULL, NULL,
                                   NULL), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ird), "01004");
    ck_assert_str_eq(small, "Com");
    ck_assert_int_eq(name_len, 11);
    /* past COUNT: SQL_NO_DATA; record 0 (bookmarks off): 07009 */
    ck_assert_int_eq(SQLGetDescRec(ird, 3, NULL, 0, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL), SQL_NO_DATA);
    ck_assert_int_eq(SQLGetDescRec(ird, 0, NULL, 0, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ird), "07009");
}
END_TEST

START_TEST(get_desc_rec_w_counts_characters)
{
    SQLHDESC ird = NULL;
    SQLWCHAR name[64], small[4];
    SQLSMALLINT name_len = 0, type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_ROW_DESC,
                                                 &ird, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ird,
             SQLGetDescRecW(ird, 2, name, 64, &name_len, &type, NULL, NULL,
                            NULL, NULL, NULL));
    ck_assert_int_eq(name_len, 11);
    ck_assert_int_eq(type, SQL_WVARCHAR);
    ck_assert_int_eq(name[0], 'C');
    ck_assert_int_eq(name[10], 'e');
    ck_assert_int_eq(name[11], 0);
    /* BufferLength is in characters: 3 and the terminator */
    ck_assert_int_eq(SQLGetDescRecW(ird, 2, small, 4, &name_len, NULL, NULL,
                                    NULL, NULL, NULL, NULL),
                     SQL_SUCCESS_WITH_INFO);
    ck_assert_int_eq(small[2], 'm');
    ck_assert_int_eq(small[3], 0);
    ck_assert_int_eq(name_len, 11);
}
END_TEST

START_TEST(set_desc_rec_binds_a_column)
{
    SQLHDESC ard = NULL;
    char company[64];
    SQLINTEGER id = 0;
    SQLLEN ind = 0, id_ind = 0, len = 0;
    SQLSMALLINT type = 0, sub = -1, prec = -1, scale = -1;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC,
                                                 &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescRec(ard, 2, SQL_C_CHAR, 0, sizeof company, 0, 0,
                           company, &ind, &ind));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescRec(ard, 1, SQL_C_SLONG, 0, sizeof id, 0, 0, &id,
                           NULL, &id_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 1);
    ck_assert_str_eq(company, "Speedy Express");
    ck_assert_int_eq(ind, 14);
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLGetDescRec(ard, 2, NULL, 0, NULL, &type, &sub, &len, &prec,
                           &scale, NULL));
    ck_assert_int_eq(type, SQL_C_CHAR);
    ck_assert_int_eq(len, (SQLLEN)sizeof company);
    /* one length/indicator buffer per column: two different ones are
     * refused, not half kept */
    SQLLEN other = 0;
    ck_assert_int_eq(SQLSetDescRec(ard, 2, SQL_C_CHAR, 0, sizeof company, 0,
                                   0, company, &other, &ind), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ard), "HYC00");
    /* the IRD cannot be set */
    SQLHDESC ird = NULL;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_ROW_DESC,
                                                 &ird, 0, NULL));
    ck_assert_int_eq(SQLSetDescRec(ird, 1, SQL_C_CHAR, 0, 10, 0, 0, NULL,
                                   NULL, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ird), "HY016");
}
END_TEST

START_TEST(set_desc_rec_datetime_uses_the_subtype)
{
    SQLHDESC ard = NULL;
    SQLSMALLINT type = 0, sub = 0, concise = 0;
    SQL_DATE_STRUCT d;
    SQLLEN ind = 0;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st = odbct_exec(dbc, "SELECT OrderDate FROM Orders WHERE OrderID = 10248");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC,
                                                 &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescRec(ard, 1, SQL_DATETIME, SQL_CODE_DATE, sizeof d, 0,
                           0, &d, NULL, &ind));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLGetDescRec(ard, 1, NULL, 0, NULL, &type, &sub, NULL, NULL,
                           NULL, NULL));
    ck_assert_int_eq(type, SQL_DATETIME);
    ck_assert_int_eq(sub, SQL_CODE_DATE);
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLGetDescField(ard, 1,
                                                   SQL_DESC_CONCISE_TYPE,
                                                   &concise, 0, NULL));
    ck_assert_int_eq(concise, SQL_C_TYPE_DATE);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(d.year, 1994);     /* this nwind.mdb's first order */
    ck_assert_int_eq(d.month, 8);
    ck_assert_int_eq(d.day, 4);
}
END_TEST

START_TEST(param_desc_recs_drive_a_parameter)
{
    SQLHSTMT ps;
    SQLHDESC apd = NULL, ipd = NULL;
    SQLINTEGER id = 3;
    SQLLEN ind = 0;
    SQLSMALLINT type = 0, nullable = -1;
    char name[32];
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &ps));
    ODBCT_OK(SQL_HANDLE_STMT, ps,
             SQLPrepare(ps, (SQLCHAR *)"SELECT CompanyName FROM Shippers "
                        "WHERE ShipperID = ?", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLGetStmtAttr(ps, SQL_ATTR_APP_PARAM_DESC,
                                                 &apd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLGetStmtAttr(ps, SQL_ATTR_IMP_PARAM_DESC,
                                                 &ipd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ipd,
             SQLSetDescRec(ipd, 1, SQL_INTEGER, 0, 0, 10, 0, NULL, NULL,
                           NULL));
    ODBCT_OK(SQL_HANDLE_DESC, apd,
             SQLSetDescRec(apd, 1, SQL_C_SLONG, 0, sizeof id, 0, 0, &id,
                           &ind, &ind));
    ODBCT_OK(SQL_HANDLE_DESC, ipd,
             SQLGetDescRec(ipd, 1, (SQLCHAR *)name, sizeof name, NULL, &type,
                           NULL, NULL, NULL, NULL, &nullable));
    ck_assert_int_eq(type, SQL_INTEGER);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(nullable, SQL_NULLABLE);
    ODBCT_OK(SQL_HANDLE_DESC, apd,
             SQLGetDescRec(apd, 1, NULL, 0, NULL, &type, NULL, NULL, NULL,
                           NULL, NULL));
    ck_assert_int_eq(type, SQL_C_SLONG);
    ck_assert_int_eq(SQLGetDescRec(apd, 2, NULL, 0, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL), SQL_NO_DATA);
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLExecute(ps));
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLFetch(ps));
    char company[64];
    SQLLEN clen = 0;
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLGetData(ps, 1, SQL_C_CHAR, company,
                                             sizeof company, &clen));
    ck_assert_str_eq(company, "Federal Shipping");
    SQLFreeHandle(SQL_HANDLE_STMT, ps);
}
END_TEST

START_TEST(get_functions_lists_the_record_calls)
{
    SQLUSMALLINT bits[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE], one = SQL_FALSE;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc,
                                                  SQL_API_ODBC3_ALL_FUNCTIONS,
                                                  bits));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLGETDESCREC));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLSETDESCREC));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc, SQL_API_SQLSETDESCREC,
                                                  &one));
    ck_assert_int_eq(one, SQL_TRUE);
}
END_TEST

static SQLHDESC stmt_desc(SQLHSTMT h, SQLINTEGER which)
{
    SQLHDESC d = NULL;
    ODBCT_OK(SQL_HANDLE_STMT, h, SQLGetStmtAttr(h, which, &d, 0, NULL));
    ck_assert_ptr_nonnull(d);
    return d;
}

START_TEST(copy_desc_ard_binds_another_statement)
{
    /* st's bindings (sparse: column 2 only, then column 1 too) copied into
     * another statement's ARD, of this connection and of another: its
     * fetches fill the same buffers */
    SQLINTEGER id = 0;
    char company[64] = "";
    SQLLEN id_ind = 0, ind = 0;
    SQLSMALLINT count = 0, type = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 2, SQL_C_CHAR, company,
                                             sizeof company, &ind));
    SQLHSTMT b = odbct_exec(dbc, "SELECT ShipperID, CompanyName FROM "
                            "Shippers ORDER BY ShipperID DESC");
    SQLHDESC ard_a = stmt_desc(st, SQL_ATTR_APP_ROW_DESC);
    SQLHDESC ard_b = stmt_desc(b, SQL_ATTR_APP_ROW_DESC);
    ODBCT_OK(SQL_HANDLE_DESC, ard_b, SQLCopyDesc(ard_a, ard_b));
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLFetch(b));
    ck_assert_str_eq(company, "Federal Shipping");
    ck_assert_int_eq(ind, 16);
    ck_assert_int_eq(id, 0);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &id, 0,
                                             &id_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE,
                                                 (SQLPOINTER)SQL_BIND_BY_COLUMN,
                                                 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard_b, SQLCopyDesc(ard_a, ard_b));
    ODBCT_OK(SQL_HANDLE_DESC, ard_b, SQLGetDescField(ard_b, 0, SQL_DESC_COUNT,
                                                     &count, 0, NULL));
    ck_assert_int_eq(count, 2);
    ODBCT_OK(SQL_HANDLE_DESC, ard_b, SQLGetDescField(ard_b, 1,
                                                     SQL_DESC_CONCISE_TYPE,
                                                     &type, 0, NULL));
    ck_assert_int_eq(type, SQL_C_SLONG);
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLFetch(b));
    ck_assert_int_eq(id, 2);
    ck_assert_int_eq(id_ind, 4);
    ck_assert_str_eq(company, "United Package");
    /* the source statement still fetches into them too */
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 1);
    ck_assert_str_eq(company, "Speedy Express");

    /* a statement of another connection */
    SQLHENV env2;
    SQLHDBC dbc2;
    odbct_connect(&env2, &dbc2, odbct_nwind_connstr());
    SQLHSTMT c = odbct_exec(dbc2, "SELECT ShipperID, CompanyName FROM "
                            "Shippers WHERE ShipperID = 3");
    SQLHDESC ard_c = stmt_desc(c, SQL_ATTR_APP_ROW_DESC);
    ODBCT_OK(SQL_HANDLE_DESC, ard_c, SQLCopyDesc(ard_b, ard_c));
    ODBCT_OK(SQL_HANDLE_STMT, c, SQLFetch(c));
    ck_assert_int_eq(id, 3);
    ck_assert_str_eq(company, "Federal Shipping");
    ck_assert_int_eq(SQLFetch(c), SQL_NO_DATA);

    /* an empty ARD copied over unbinds: the next fetch writes nothing */
    SQLHSTMT e;
    ODBCT_OK(SQL_HANDLE_DBC, dbc2, SQLAllocHandle(SQL_HANDLE_STMT, dbc2, &e));
    ODBCT_OK(SQL_HANDLE_DESC, ard_b,
             SQLCopyDesc(stmt_desc(e, SQL_ATTR_APP_ROW_DESC), ard_b));
    ODBCT_OK(SQL_HANDLE_DESC, ard_b, SQLGetDescField(ard_b, 0, SQL_DESC_COUNT,
                                                     &count, 0, NULL));
    ck_assert_int_eq(count, 0);
    id = -1;
    ODBCT_OK(SQL_HANDLE_STMT, b, SQLFetch(b));
    ck_assert_int_eq(id, -1);
    SQLFreeHandle(SQL_HANDLE_STMT, e);
    SQLFreeHandle(SQL_HANDLE_STMT, c);
    odbct_disconnect(env2, dbc2);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}
END_TEST

START_TEST(copy_desc_row_descriptors_into_parameters)
{
    /* ODBC's "copying rows between tables": the ARD of a query into the
     * APD of another statement and its IRD into that statement's IPD make
     * the fetched value the parameter */
    SQLINTEGER id = 0;
    SQLLEN id_ind = 0;
    SQLSMALLINT type = 0, count = 0;
    SQLULEN size = 0;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st = odbct_exec(dbc, "SELECT ShipperID FROM Shippers WHERE ShipperID = 2");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &id, 0,
                                             &id_ind));
    SQLHSTMT ps;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &ps));
    ODBCT_OK(SQL_HANDLE_STMT, ps,
             SQLPrepare(ps, (SQLCHAR *)"SELECT CompanyName FROM Shippers "
                        "WHERE ShipperID = ?", SQL_NTS));
    SQLHDESC apd = stmt_desc(ps, SQL_ATTR_APP_PARAM_DESC);
    SQLHDESC ipd = stmt_desc(ps, SQL_ATTR_IMP_PARAM_DESC);
    ODBCT_OK(SQL_HANDLE_DESC, apd,
             SQLCopyDesc(stmt_desc(st, SQL_ATTR_APP_ROW_DESC), apd));
    ODBCT_OK(SQL_HANDLE_DESC, ipd,
             SQLCopyDesc(stmt_desc(st, SQL_ATTR_IMP_ROW_DESC), ipd));
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLGetDescField(ipd, 0, SQL_DESC_COUNT,
                                                   &count, 0, NULL));
    ck_assert_int_eq(count, 1);
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLGetDescField(ipd, 1,
                                                   SQL_DESC_CONCISE_TYPE,
                                                   &type, 0, NULL));
    ck_assert_int_eq(type, SQL_INTEGER);
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLGetDescField(ipd, 1, SQL_DESC_LENGTH,
                                                   &size, 0, NULL));
    ck_assert_uint_eq(size, 10);
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLGetDescField(apd, 1,
                                                   SQL_DESC_CONCISE_TYPE,
                                                   &type, 0, NULL));
    ck_assert_int_eq(type, SQL_C_SLONG);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 2);
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLExecute(ps));
    char company[64] = "";
    SQLLEN clen = 0;
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLFetch(ps));
    ODBCT_OK(SQL_HANDLE_STMT, ps, SQLGetData(ps, 1, SQL_C_CHAR, company,
                                             sizeof company, &clen));
    ck_assert_str_eq(company, "United Package");
    SQLCloseCursor(ps);
    /* APD to APD and IPD to IPD of another statement keep the records */
    SQLHSTMT ps2;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &ps2));
    ODBCT_OK(SQL_HANDLE_STMT, ps2,
             SQLPrepare(ps2, (SQLCHAR *)"SELECT CompanyName FROM Shippers "
                        "WHERE ShipperID = ?", SQL_NTS));
    SQLHDESC apd2 = stmt_desc(ps2, SQL_ATTR_APP_PARAM_DESC);
    SQLHDESC ipd2 = stmt_desc(ps2, SQL_ATTR_IMP_PARAM_DESC);
    ODBCT_OK(SQL_HANDLE_DESC, apd2, SQLCopyDesc(apd, apd2));
    ODBCT_OK(SQL_HANDLE_DESC, ipd2, SQLCopyDesc(ipd, ipd2));
    id = 1;
    ODBCT_OK(SQL_HANDLE_STMT, ps2, SQLExecute(ps2));
    ODBCT_OK(SQL_HANDLE_STMT, ps2, SQLFetch(ps2));
    ODBCT_OK(SQL_HANDLE_STMT, ps2, SQLGetData(ps2, 1, SQL_C_CHAR, company,
                                              sizeof company, &clen));
    ck_assert_str_eq(company, "Speedy Express");
    SQLFreeHandle(SQL_HANDLE_STMT, ps2);
    SQLFreeHandle(SQL_HANDLE_STMT, ps);
}
END_TEST

START_TEST(copy_desc_errors_go_to_the_target)
{
    SQLHDESC ard = stmt_desc(st, SQL_ATTR_APP_ROW_DESC);
    SQLHDESC ird = stmt_desc(st, SQL_ATTR_IMP_ROW_DESC);
    /* an IRD cannot be a target */
    ck_assert_int_eq(SQLCopyDesc(ard, ird), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ird), "HY016");
    /* the IRD of a statement with no result: HY007 */
    SQLHSTMT fresh;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc,
                                                 &fresh));
    ck_assert_int_eq(SQLCopyDesc(stmt_desc(fresh, SQL_ATTR_IMP_ROW_DESC),
                                 ard), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ard), "HY007");
    /* an SQL type is no C type: the IRD's WVARCHAR into an ARD */
    ck_assert_int_eq(SQLCopyDesc(ird, ard), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DESC, ard), "HY021");
    /* a descriptor copied onto itself stays */
    SQLINTEGER id = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &id, 0,
                                             NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard, SQLCopyDesc(ard, ard));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(id, 1);
    /* handles that are no descriptors */
    ck_assert_int_eq(SQLCopyDesc(SQL_NULL_HDESC, ard), SQL_INVALID_HANDLE);
    ck_assert_int_eq(SQLCopyDesc(ard, SQL_NULL_HDESC), SQL_INVALID_HANDLE);
    ck_assert_int_eq(SQLCopyDesc((SQLHDESC)st, ard), SQL_INVALID_HANDLE);
    SQLUSMALLINT have = SQL_FALSE;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc, SQL_API_SQLCOPYDESC,
                                                  &have));
    ck_assert_int_eq(have, SQL_TRUE);
    SQLFreeHandle(SQL_HANDLE_STMT, fresh);
}
END_TEST

static Suite *desc_suite(void)
{
    Suite *s = suite_create("odbc_desc");
    TCase *tc = tcase_create("desc");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, ird_count_name_and_type);
    tcase_add_test(tc, ard_fields_bind_a_column);
    tcase_add_test(tc, bindings_changed_between_fetches_take_effect);
    tcase_add_test(tc, get_desc_rec_reads_ird_records);
    tcase_add_test(tc, get_desc_rec_w_counts_characters);
    tcase_add_test(tc, set_desc_rec_binds_a_column);
    tcase_add_test(tc, set_desc_rec_datetime_uses_the_subtype);
    tcase_add_test(tc, param_desc_recs_drive_a_parameter);
    tcase_add_test(tc, get_functions_lists_the_record_calls);
    tcase_add_test(tc, copy_desc_ard_binds_another_statement);
    tcase_add_test(tc, copy_desc_row_descriptors_into_parameters);
    tcase_add_test(tc, copy_desc_errors_go_to_the_target);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(desc_suite)
