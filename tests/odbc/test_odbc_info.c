/*
 * test_odbc_info.c - SQLGetInfo (strings honour BufferLength in bytes with
 * 01004, W variant, unknown InfoType HY096), SQLGetFunctions bitmaps,
 * SQLNativeSql, diagnostics fields, and the {fn CONVERT} masks checked
 * against what the engine converts.
 */
#include <stdbool.h>
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

START_TEST(getinfo_string_truncates_with_01004)
{
    char full[256], small[4];
    SQLSMALLINT len = 0, len2 = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_DBMS_NAME, full,
                                             sizeof full, &len));
    ck_assert_str_eq(full, "ACCESS");
    ck_assert_int_eq(len, 6);
    ck_assert_int_eq(SQLGetInfo(dbc, SQL_DBMS_NAME, small, sizeof small,
                                &len2), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "01004");
    ck_assert_str_eq(small, "ACC");
    ck_assert_int_eq(len2, 6);
}
END_TEST

START_TEST(getinfo_w_counts_bytes)
{
    SQLWCHAR w[64];
    SQLSMALLINT len = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfoW(dbc, SQL_IDENTIFIER_QUOTE_CHAR,
                                              w, sizeof w, &len));
    ck_assert_int_eq(len, 2);
    ck_assert_uint_eq(w[0], '`');
    ck_assert_uint_eq(w[1], 0);
}
END_TEST

START_TEST(getinfo_numbers_and_unknown)
{
    SQLUSMALLINT us = 0;
    SQLUINTEGER ui = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_TXN_CAPABLE, &us, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_GETDATA_EXTENSIONS, &ui, 0, NULL));
    ck_assert_int_ne(ui & SQL_GD_ANY_ORDER, 0);
    ck_assert_int_eq(SQLGetInfo(dbc, 31999, &ui, 0, NULL), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_DBC, dbc), "HY096");
}
END_TEST

START_TEST(getfunctions_reports_exports)
{
    SQLUSMALLINT bits[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    SQLUSMALLINT one = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc,
                                                  SQL_API_ODBC3_ALL_FUNCTIONS,
                                                  bits));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLFETCHSCROLL));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLGETDATA));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLTABLES));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLBINDPARAMETER));
    ck_assert(SQL_FUNC_EXISTS(bits, SQL_API_SQLDESCRIBEPARAM));
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetFunctions(dbc, SQL_API_SQLBINDCOL,
                                                  &one));
    ck_assert_int_eq(one, SQL_TRUE);
}
END_TEST

START_TEST(native_sql_echoes)
{
    char out[64];
    SQLINTEGER len = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc,
             SQLNativeSql(dbc, (SQLCHAR *)"SELECT * FROM t", SQL_NTS,
                          (SQLCHAR *)out, sizeof out, &len));
    ck_assert_str_eq(out, "SELECT * FROM t");
    ck_assert_int_eq(len, 15);
}
END_TEST

START_TEST(diag_fields_of_a_failed_statement)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM zzz", SQL_NTS),
                     SQL_ERROR);
    SQLINTEGER n = 0;
    char state[8];
    SQLSMALLINT len;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetDiagField(SQL_HANDLE_STMT, st, 0,
                                                  SQL_DIAG_NUMBER, &n, 0, NULL));
    ck_assert_int_eq(n, 1);
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetDiagField(SQL_HANDLE_STMT, st, 1,
                                                  SQL_DIAG_SQLSTATE, state,
                                                  sizeof state, &len));
    ck_assert_str_eq(state, "42S02");
    ck_assert_int_eq(SQLGetDiagRec(SQL_HANDLE_STMT, st, 2, (SQLCHAR *)state,
                                   NULL, NULL, 0, NULL), SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

/* Does SELECT TOP 1 {fn CONVERT(expr, target)} FROM tab run and fetch? */
static bool converts(const char *expr, const char *tab, const char *target)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT TOP 1 {fn CONVERT(%s, %s)} FROM %s "
             "WHERE %s IS NOT NULL", expr, target, tab, expr);
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    char v[256];
    SQLLEN ind = 0;
    SQLRETURN r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (SQL_SUCCEEDED(r))
        r = SQLFetch(st);
    if (SQL_SUCCEEDED(r))
        r = SQLGetData(st, 1, SQL_C_CHAR, v, sizeof v, &ind);
    bool ok = SQL_SUCCEEDED(r);
    if (!ok) {
        /* a refusal is HYC00 (no such conversion) or a value error */
        const char *s = odbct_state(SQL_HANDLE_STMT, st);
        ck_assert_msg(!strcmp(s, "HYC00") || !strcmp(s, "22018") ||
                      !strcmp(s, "22003"), "%s: %s %s", sql, s,
                      odbct_message(SQL_HANDLE_STMT, st));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return ok;
}

/*
 * SQL_CONVERT_FUNCTIONS is CONVERT (what Microsoft's Access driver
 * answers, and what Power Query folds type changes into); each
 * SQL_CONVERT_<source> mask has exactly the bits of the targets that a
 * sample of the source type converts to through the driver: a number,
 * text or date sample reaches every number, text and date type; an OLE
 * Object (LONGVARBINARY) reaches none, nor does anything reach binary,
 * GUID or interval targets (HYC00). Binary and GUID sources have no
 * sample in Northwind: their masks must be 0.
 */
START_TEST(convert_masks_match_what_converts)
{
    SQLUINTEGER fns = 0;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_CONVERT_FUNCTIONS,
                                             &fns, 0, NULL));
    ck_assert_uint_eq(fns, SQL_FN_CVT_CONVERT);
    static const struct { const char *kw; SQLUINTEGER bit; } targets[] = {
        { "SQL_BIT", SQL_CVT_BIT }, { "SQL_TINYINT", SQL_CVT_TINYINT },
        { "SQL_SMALLINT", SQL_CVT_SMALLINT },
        { "SQL_INTEGER", SQL_CVT_INTEGER }, { "SQL_BIGINT", SQL_CVT_BIGINT },
        { "SQL_REAL", SQL_CVT_REAL }, { "SQL_FLOAT", SQL_CVT_FLOAT },
        { "SQL_DOUBLE", SQL_CVT_DOUBLE }, { "SQL_NUMERIC", SQL_CVT_NUMERIC },
        { "SQL_DECIMAL", SQL_CVT_DECIMAL }, { "SQL_CHAR", SQL_CVT_CHAR },
        { "SQL_VARCHAR", SQL_CVT_VARCHAR },
        { "SQL_LONGVARCHAR", SQL_CVT_LONGVARCHAR },
        { "SQL_WCHAR", SQL_CVT_WCHAR }, { "SQL_WVARCHAR", SQL_CVT_WVARCHAR },
        { "SQL_WLONGVARCHAR", SQL_CVT_WLONGVARCHAR },
        { "SQL_DATE", SQL_CVT_DATE }, { "SQL_TIME", SQL_CVT_TIME },
        { "SQL_TIMESTAMP", SQL_CVT_TIMESTAMP },
        { "SQL_BINARY", SQL_CVT_BINARY }, { "SQL_VARBINARY", SQL_CVT_VARBINARY },
        { "SQL_LONGVARBINARY", SQL_CVT_LONGVARBINARY },
        { "SQL_GUID", SQL_CVT_GUID },
        { "SQL_INTERVAL_DAY", SQL_CVT_INTERVAL_DAY_TIME },
        { "SQL_INTERVAL_YEAR", SQL_CVT_INTERVAL_YEAR_MONTH },
    };
    /* samples of each source type: CONVERT of a literal, a date literal,
     * or a Northwind column; two for text (a number, a date) */
    static const struct {
        SQLUSMALLINT info;
        const char *tab, *expr[2];
    } sources[] = {
        { SQL_CONVERT_BIT, "Shippers", { "{fn CONVERT(0, SQL_BIT)}" } },
        { SQL_CONVERT_TINYINT, "Shippers", { "{fn CONVERT(2, SQL_TINYINT)}" } },
        { SQL_CONVERT_SMALLINT, "Shippers", { "{fn CONVERT(2, SQL_SMALLINT)}" } },
        { SQL_CONVERT_INTEGER, "Shippers", { "ShipperID" } },
        { SQL_CONVERT_BIGINT, "Shippers", { "{fn CONVERT(2, SQL_BIGINT)}" } },
        { SQL_CONVERT_REAL, "Shippers", { "{fn CONVERT(2, SQL_REAL)}" } },
        { SQL_CONVERT_FLOAT, "Shippers", { "{fn CONVERT(2, SQL_FLOAT)}" } },
        { SQL_CONVERT_DOUBLE, "Orders", { "Freight * 1.5" } },
        { SQL_CONVERT_NUMERIC, "Shippers", { "{fn CONVERT(2, SQL_NUMERIC)}" } },
        { SQL_CONVERT_DECIMAL, "Shippers", { "{fn CONVERT(2, SQL_DECIMAL)}" } },
        { SQL_CONVERT_CHAR, "Shippers", { "'2'", "'2021-10-08'" } },
        { SQL_CONVERT_VARCHAR, "Shippers", { "CStr(ShipperID)",
                                             "'2021-10-08'" } },
        { SQL_CONVERT_LONGVARCHAR, "Shippers", { "'2'", "'2021-10-08'" } },
        { SQL_CONVERT_WCHAR, "Shippers", { "'2'", "'2021-10-08'" } },
        { SQL_CONVERT_WVARCHAR, "Shippers", { "'2'", "'2021-10-08'" } },
        { SQL_CONVERT_WLONGVARCHAR, "Shippers", { "'2'", "'2021-10-08'" } },
        { SQL_CONVERT_DATE, "Shippers", { "{d '1900-01-01'}" } },
        { SQL_CONVERT_TIME, "Shippers", { "{t '12:00:00'}" } },
        { SQL_CONVERT_TIMESTAMP, "Shippers",
          { "{ts '1900-01-01 12:00:00'}" } },
        { SQL_CONVERT_LONGVARBINARY, "Employees", { "Photo" } },
        { SQL_CONVERT_BINARY, NULL, { NULL } },
        { SQL_CONVERT_VARBINARY, NULL, { NULL } },
        { SQL_CONVERT_GUID, NULL, { NULL } },
        { SQL_CONVERT_INTERVAL_DAY_TIME, NULL, { NULL } },
        { SQL_CONVERT_INTERVAL_YEAR_MONTH, NULL, { NULL } },
    };
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        SQLUINTEGER mask = 0xFFFFFFFFu;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, sources[i].info, &mask,
                                                 0, NULL));
        SQLUINTEGER want = 0;
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
            for (size_t k = 0; k < 2 && sources[i].expr[k]; k++)
                if (converts(sources[i].expr[k], sources[i].tab,
                             targets[t].kw))
                    want |= targets[t].bit;
        ck_assert_msg(mask == want, "InfoType %u: mask %#x, converts %#x",
                      (unsigned)sources[i].info, (unsigned)mask,
                      (unsigned)want);
    }
}
END_TEST

/* {fn CONVERT} columns describe as the ODBC type asked for where the
 * driver has it (Jet's Long, Integer, Byte, Large Number, Yes/No,
 * Single, Double, Decimal, Text); dates are timestamps (Jet has one
 * date/time type, as Microsoft's driver reports). */
START_TEST(convert_columns_describe_as_the_target)
{
    static const struct { const char *kw; SQLSMALLINT type; } t[] = {
        { "SQL_INTEGER", SQL_INTEGER }, { "SQL_SMALLINT", SQL_SMALLINT },
        { "SQL_TINYINT", SQL_TINYINT }, { "SQL_BIGINT", SQL_BIGINT },
        { "SQL_BIT", SQL_BIT }, { "SQL_REAL", SQL_REAL },
        { "SQL_DOUBLE", SQL_DOUBLE }, { "SQL_DECIMAL", SQL_NUMERIC },
        { "SQL_VARCHAR", SQL_WVARCHAR }, { "SQL_DATE", SQL_TYPE_TIMESTAMP },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT {fn CONVERT(ShipperID, %s)} FROM "
                 "Shippers", t[i].kw);
        SQLHSTMT st = odbct_exec(dbc, sql);
        SQLSMALLINT type = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLDescribeCol(st, 1, NULL, 0, NULL,
                                                     &type, NULL, NULL, NULL));
        ck_assert_msg(type == t[i].type, "%s: type %d", t[i].kw, (int)type);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
    /* 12.5 rounds half to even (CLng); the message of a refused type
     * names it */
    char buf[64];
    SQLHSTMT st = odbct_exec(dbc, "SELECT {fn CONVERT('12.5', SQL_INTEGER)} "
                             "FROM Shippers WHERE ShipperID = 1");
    ck_assert_int_eq(odbct_col1(st, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "12");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)"SELECT {fn CONVERT(1, "
                                   "SQL_GUID)} FROM Shippers", SQL_NTS),
                     SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    ck_assert_ptr_nonnull(strstr(odbct_message(SQL_HANDLE_STMT, st),
                                 "SQL_GUID"));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}
END_TEST

static Suite *info_suite(void)
{
    Suite *s = suite_create("odbc_info");
    TCase *tc = tcase_create("info");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, getinfo_string_truncates_with_01004);
    tcase_add_test(tc, getinfo_w_counts_bytes);
    tcase_add_test(tc, getinfo_numbers_and_unknown);
    tcase_add_test(tc, getfunctions_reports_exports);
    tcase_add_test(tc, native_sql_echoes);
    tcase_add_test(tc, diag_fields_of_a_failed_statement);
    tcase_add_test(tc, convert_masks_match_what_converts);
    tcase_add_test(tc, convert_columns_describe_as_the_target);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(info_suite)
