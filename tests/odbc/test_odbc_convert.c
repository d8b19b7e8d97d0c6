/*
 * test_odbc_convert.c - values through the driver manager: boundary values
 * of ../shared/fixtures/bulk/perf.accdb to every C type (22003, 01S07,
 * 01004 and the length indicators), SQL_C_NUMERIC at the ARD's precision
 * and scale, text outside the BMP through SQL_C_CHAR and SQL_C_WCHAR over
 * whole tables, memo chains in chunks, no allocation per fetched value,
 * deleted columns, overflow and deleted rows, empty tables, calculated and
 * complex columns and the hidden flat tables of attachments/multi-values.
 * Tests needing perf.accdb pass trivially when it is absent.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "alloc.h"
#include "int128.h"
#include "odbctest.h"
#include "../shared_dir.h"
#include "../numeric_struct.h"

static SQLHENV env;
static SQLHDBC dbc;
static char perf[1024];

static bool have_perf(void)
{
    snprintf(perf, sizeof perf, "%s/fixtures/bulk/perf.accdb",
             jet_shared_dir());
    return access(perf, R_OK) == 0;
}

static void connect_to(const char *path)
{
    odbct_connect_path(&env, &dbc, path);
}

#define NEED_PERF()                                                     \
    do {                                                                \
        if (!have_perf()) {                                             \
            fprintf(stderr, "perf.accdb absent: %s skipped\n", __func__); \
            return;                                                     \
        }                                                               \
        connect_to(perf);                                               \
    } while (0)

static void done(void)
{
    odbct_disconnect(env, dbc);
}

/* Execute sql, fetch `row` rows, SQLGetData(col) once; *state is the
 * SQLSTATE of the first diagnostic ("" on SQL_SUCCESS). */
static SQLRETURN cell(const char *sql, int row, SQLUSMALLINT col,
                      SQLSMALLINT ctype, void *buf, SQLLEN buflen,
                      SQLLEN *ind, const char **state)
{
    static char st_buf[8];
    SQLHSTMT st = odbct_exec(dbc, sql);
    for (int r = 0; r < row; r++)
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLRETURN rc = SQLGetData(st, col, ctype, buf, buflen, ind);
    snprintf(st_buf, sizeof st_buf, "%s",
             rc == SQL_SUCCESS ? "" : odbct_state(SQL_HANDLE_STMT, st));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    *state = st_buf;
    return rc;
}

#define NUMQ "SELECT * FROM [numeric]"

/* Expect a state: "" = SQL_SUCCESS, 01xxx = with info, else SQL_ERROR. */
#define CELL(row, col, ctype, buf, buflen, want)                          \
    do {                                                                  \
        const char *s_;                                                   \
        SQLRETURN r_ = cell(NUMQ, row, col, ctype, buf, buflen, &ind, &s_); \
        ck_assert_msg(strcmp(s_, want) == 0,                              \
                      "row %d col %d ctype %d: state '%s' (rc %d), "     \
                      "expected '%s'", row, col, (int)(ctype), s_,       \
                      (int)r_, want);                                     \
        ck_assert_int_eq(r_, *want == 0 ? SQL_SUCCESS                     \
                             : strncmp(want, "01", 2) == 0                \
                                   ? SQL_SUCCESS_WITH_INFO : SQL_ERROR);  \
    } while (0)

START_TEST(perf_integer_boundaries_to_every_integer_type)
{
    SQLLEN ind;
    SQLSMALLINT sh;
    SQLINTEGER l;
    SQLUINTEGER ul;
    SQLBIGINT big;
    SQLCHAR tiny;
    SQLDOUBLE d;
    char buf[64];
    NEED_PERF();
    /* i (col 2): -32768 / 32767; l (col 3): int32 limits */
    CELL(1, 2, SQL_C_SSHORT, &sh, 0, "");
    ck_assert_int_eq(sh, -32768);
    ck_assert_int_eq(ind, 2);
    CELL(1, 2, SQL_C_STINYINT, &tiny, 0, "22003");
    CELL(1, 2, SQL_C_USHORT, &sh, 0, "22003");
    CELL(2, 2, SQL_C_USHORT, &sh, 0, "");
    ck_assert_int_eq((SQLUSMALLINT)sh, 32767);
    CELL(2, 2, SQL_C_UTINYINT, &tiny, 0, "22003");
    CELL(1, 2, SQL_C_SBIGINT, &big, 0, "");
    ck_assert(big == -32768);
    ck_assert_int_eq(ind, 8);
    CELL(1, 3, SQL_C_SLONG, &l, 0, "");
    ck_assert_int_eq(l, INT32_MIN);
    CELL(1, 3, SQL_C_SSHORT, &sh, 0, "22003");
    CELL(1, 3, SQL_C_ULONG, &ul, 0, "22003");
    CELL(2, 3, SQL_C_ULONG, &ul, 0, "");
    ck_assert_uint_eq(ul, INT32_MAX);
    CELL(2, 3, SQL_C_DOUBLE, &d, 0, "");
    ck_assert(d == 2147483647.0);
    CELL(2, 3, SQL_C_BIT, &tiny, 0, "22003");
    CELL(1, 3, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "-2147483648");
    ck_assert_int_eq(ind, 11);
    CELL(1, 3, SQL_C_CHAR, buf, 8, "22003");
    SQLWCHAR w[16];
    CELL(1, 3, SQL_C_WCHAR, w, sizeof w, "");
    ck_assert_int_eq(ind, 22);
    CELL(1, 3, SQL_C_TYPE_DATE, buf, 0, "07006");
    CELL(1, 3, SQL_C_GUID, buf, 0, "07006");
    done();
}
END_TEST

START_TEST(perf_double_boundaries)
{
    SQLLEN ind;
    SQLDOUBLE d;
    SQLREAL f;
    SQLINTEGER l;
    char buf[64];
    NEED_PERF();
    /* d (col 4): id 1/2 -/+DBL_MAX, 4 5e-324, 5 0.1, 6 1e16,
     * 7 123456789.12345679 */
    CELL(1, 4, SQL_C_DOUBLE, &d, 0, "");
    ck_assert(d == -1.7976931348623157e308);
    CELL(2, 4, SQL_C_FLOAT, &f, 0, "22003");
    CELL(2, 4, SQL_C_SLONG, &l, 0, "22003");
    CELL(2, 4, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "1.7976931348623157e+308");
    CELL(4, 4, SQL_C_DOUBLE, &d, 0, "");
    ck_assert(d == 5e-324);
    CELL(4, 4, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "5e-324");
    CELL(5, 4, SQL_C_SLONG, &l, 0, "01S07");
    ck_assert_int_eq(l, 0);
    CELL(6, 4, SQL_C_SBIGINT, buf, 0, "");
    CELL(6, 4, SQL_C_SLONG, &l, 0, "22003");
    CELL(7, 4, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "123456789.12345679");
    CELL(7, 4, SQL_C_CHAR, buf, 12, "01004");
    ck_assert_str_eq(buf, "123456789.1");
    ck_assert_int_eq(ind, 18);
    CELL(7, 4, SQL_C_CHAR, buf, 9, "22003");
    SQL_NUMERIC_STRUCT ns;
    CELL(5, 4, SQL_C_NUMERIC, &ns, 0, "01S07");   /* 0.1 at scale 0 */
    CELL(1, 4, SQL_C_NUMERIC, &ns, 0, "22003");
    done();
}
END_TEST

START_TEST(perf_currency_limits_exact)
{
    SQLLEN ind;
    SQLBIGINT big;
    SQLINTEGER l;
    SQLCHAR bit;
    char buf[64];
    NEED_PERF();
    /* m (col 5): id 1/2 currency limits, id 4 -0.0001, id 5 0.0001 */
    CELL(1, 5, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "-922337203685477.5808");
    ck_assert_int_eq(ind, 21);
    CELL(2, 5, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "922337203685477.5807");
    CELL(1, 5, SQL_C_CHAR, buf, 18, "01004");
    ck_assert_str_eq(buf, "-922337203685477.");
    CELL(1, 5, SQL_C_CHAR, buf, 16, "22003");
    CELL(1, 5, SQL_C_SBIGINT, &big, 0, "01S07");
    ck_assert(big == -922337203685477LL);
    CELL(2, 5, SQL_C_SLONG, &l, 0, "22003");
    CELL(4, 5, SQL_C_BIT, &bit, 0, "22003");
    CELL(5, 5, SQL_C_BIT, &bit, 0, "01S07");
    ck_assert_uint_eq(bit, 0);
    CELL(4, 5, SQL_C_SLONG, &l, 0, "01S07");
    ck_assert_int_eq(l, 0);
    /* SQLGetData SQL_C_NUMERIC: default precision, scale 0 */
    SQL_NUMERIC_STRUCT ns;
    CELL(2, 5, SQL_C_NUMERIC, &ns, 0, "01S07");
    ck_assert_int_eq(ns.scale, 0);
    ck_assert_int_eq(ns.sign, 1);
    done();
}
END_TEST

START_TEST(perf_numeric_struct_from_ard_fields)
{
    SQLHDESC ard;
    SQL_NUMERIC_STRUCT ns[7];
    SQLLEN ind[7];
    SQLUSMALLINT status[7];
    SQLULEN got = 0;
    SQLSMALLINT prec = 0, scale = -1;
    NEED_PERF();
    SQLHSTMT st = odbct_exec(dbc, "SELECT m FROM [numeric]");
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)7, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &got, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 1, SQL_C_NUMERIC, ns, sizeof ns[0], ind));
    /* SQLBindCol: the default precision and scale 0 */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLGetDescField(ard, 1, SQL_DESC_SCALE, &scale, 0, NULL));
    ck_assert_int_eq(scale, 0);
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLGetDescField(ard, 1, SQL_DESC_PRECISION, &prec, 0, NULL));
    ck_assert_int_gt(prec, 18);
    /* as "SQL_C_NUMERIC and SQLSetDescField" shows */
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_NUMERIC,
                             0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)19, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_SCALE, (SQLPOINTER)4, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, ns, 0));
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS);
    ck_assert_uint_eq(got, 7);
    ck_assert_int_eq(ns[0].sign, 0);
    ck_assert_int_eq(ns[0].scale, 4);
    ck_assert_int_eq(ns[0].precision, 19);
    ck_assert(ns_is(&ns[0], u128_of(9223372036854775808ull)));
    ck_assert_int_eq(ns[1].sign, 1);
    ck_assert(ns_is(&ns[1], u128_of(9223372036854775807ull)));
    ck_assert_int_eq(ns[3].sign, 0);            /* -0.0001 */
    ck_assert(ns_is(&ns[3], u128_of(1)));
    ck_assert_int_eq(ind[0], (SQLLEN)sizeof ns[0]);
    /* precision 18 cannot hold the limits: 22003 for rows 1 and 2 */
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)18, 0));
    SQLRETURN rc = SQLFetch(st);
    ck_assert_int_eq(rc, SQL_SUCCESS);   /* rows 8..14 are ordinary */
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    st = odbct_exec(dbc, "SELECT m FROM [numeric]");
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)7, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 1, SQL_C_NUMERIC, ns, sizeof ns[0], ind));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)18, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_SCALE, (SQLPOINTER)4, 0));
    rc = SQLFetch(st);
    ck_assert_int_eq(rc, SQL_SUCCESS_WITH_INFO);
    ck_assert_int_eq(status[0], SQL_ROW_ERROR);
    ck_assert_int_eq(status[1], SQL_ROW_ERROR);
    ck_assert_int_eq(status[2], SQL_ROW_SUCCESS);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* SQLGetData with SQL_ARD_TYPE uses the ARD record's fields */
    st = odbct_exec(dbc, "SELECT m FROM [numeric]");
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_NUMERIC,
                             0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)19, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_SCALE, (SQLPOINTER)4, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLLEN one;
    ck_assert_int_eq(SQLGetData(st, 1, SQL_ARD_TYPE, &ns[0], sizeof ns[0],
                                &one), SQL_SUCCESS);
    ck_assert_int_eq(ns[0].scale, 4);
    ck_assert(ns_is(&ns[0], u128_of(9223372036854775808ull)));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

START_TEST(perf_datetime_boundaries)
{
    SQLLEN ind;
    SQL_TIMESTAMP_STRUCT ts;
    SQL_DATE_STRUCT ds;
    SQL_TIME_STRUCT tm;
    char buf[64];
    NEED_PERF();
    /* dt (col 7): id 1 0100-01-01, 2 9999-12-31 23:59:59, 4 -1.5,
     * 5 2020-02-29 12:34:56.789, 7 1899-12-30 23:59:59.999 */
    CELL(1, 7, SQL_C_TYPE_TIMESTAMP, &ts, 0, "");
    ck_assert_int_eq(ts.year, 100);
    ck_assert_uint_eq(ts.month, 1);
    ck_assert_uint_eq(ts.day, 1);
    ck_assert_int_eq(ind, (SQLLEN)sizeof ts);
    CELL(1, 7, SQL_C_TYPE_DATE, &ds, 0, "");
    ck_assert_int_eq(ds.year, 100);
    CELL(1, 7, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "0100-01-01 00:00:00");
    CELL(2, 7, SQL_C_TYPE_DATE, &ds, 0, "01S07");
    ck_assert_int_eq(ds.year, 9999);
    ck_assert_uint_eq(ds.month, 12);
    ck_assert_uint_eq(ds.day, 31);
    CELL(2, 7, SQL_C_TYPE_TIME, &tm, 0, "");
    ck_assert_uint_eq(tm.hour, 23);
    ck_assert_uint_eq(tm.second, 59);
    CELL(2, 7, SQL_C_CHAR, buf, 20, "");
    ck_assert_str_eq(buf, "9999-12-31 23:59:59");
    CELL(2, 7, SQL_C_CHAR, buf, 19, "22003");
    CELL(4, 7, SQL_C_TYPE_TIMESTAMP, &ts, 0, "");
    ck_assert_uint_eq(ts.day, 29);
    ck_assert_uint_eq(ts.hour, 12);
    CELL(5, 7, SQL_C_TYPE_TIMESTAMP, &ts, 0, "");
    ck_assert_uint_eq(ts.fraction, 789000000u);
    CELL(5, 7, SQL_C_TYPE_TIME, &tm, 0, "01S07");
    CELL(5, 7, SQL_C_CHAR, buf, sizeof buf, "");
    ck_assert_str_eq(buf, "2020-02-29 12:34:56.789");
    CELL(5, 7, SQL_C_CHAR, buf, 21, "01004");
    ck_assert_int_eq(ind, 23);
    CELL(7, 7, SQL_C_TYPE_TIMESTAMP, &ts, 0, "");
    ck_assert_int_eq(ts.year, 1899);
    ck_assert_uint_eq(ts.day, 30);
    ck_assert_uint_eq(ts.hour, 23);
    ck_assert_uint_eq(ts.fraction, 999000000u);
    CELL(7, 7, SQL_C_BINARY, buf, sizeof buf, "");
    ck_assert_int_eq(ind, (SQLLEN)sizeof ts);
    CELL(7, 7, SQL_C_BINARY, buf, 4, "22003");
    CELL(7, 7, SQL_C_SLONG, buf, 0, "07006");
    /* BOOLEAN (col 6): id 2 true */
    CELL(2, 6, SQL_C_BIT, buf, 0, "");
    ck_assert_int_eq(buf[0], 1);
    CELL(2, 6, SQL_C_CHAR, buf, 2, "");
    ck_assert_str_eq(buf, "1");
    CELL(2, 6, SQL_C_CHAR, buf, 1, "22003");
    CELL(1, 6, SQL_C_DEFAULT, buf, 0, "");
    ck_assert_int_eq(buf[0], 0);
    ck_assert_int_eq(ind, 1);
    done();
}
END_TEST

/* Count, over a whole text column, NULLs, empty strings and values with
 * characters outside the BMP, read as SQL_C_CHAR (col 1) and SQL_C_WCHAR
 * (col 2) of the same column; each row's two forms must agree. */
static void text_column_counts(const char *sql, size_t units, long want_null,
                               long want_empty, long want_astral,
                               long want_rows)
{
    static char c8[24100];
    static SQLWCHAR c16[12100];
    SQLLEN i8, i16;
    long rows = 0, nulls = 0, empty = 0, astral8 = 0, astral16 = 0;
    SQLHSTMT st = odbct_exec(dbc, sql);
    ck_assert_uint_le(units * 4 + 1, sizeof c8);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 1, SQL_C_CHAR, c8, (SQLLEN)(units * 4 + 1), &i8));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 2, SQL_C_WCHAR, c16, (SQLLEN)(units + 1) * 2,
                        &i16));
    SQLRETURN rc;
    while ((rc = SQLFetch(st)) == SQL_SUCCESS) {
        rows++;
        if (i8 == SQL_NULL_DATA) {
            ck_assert_int_eq(i16, SQL_NULL_DATA);
            nulls++;
            continue;
        }
        if (i8 == 0) {
            ck_assert_int_eq(i16, 0);
            empty++;
            continue;
        }
        ck_assert_int_eq(c16[i16 / 2], 0);
        ck_assert_uint_le((size_t)i16 / 2, units);
        /* decode the UTF-8 and compare with the UTF-16, unit by unit */
        const unsigned char *s = (const unsigned char *)c8;
        size_t k = 0;
        bool has8 = false, has16 = false;
        for (SQLLEN j = 0; j < i8;) {
            uint32_t cp;
            int n = s[j] < 0x80 ? 1 : s[j] < 0xE0 ? 2 : s[j] < 0xF0 ? 3 : 4;
            cp = n == 1 ? s[j] : (uint32_t)(s[j] & (0x7F >> n));
            for (int q = 1; q < n; q++)
                cp = cp << 6 | (s[j + q] & 0x3F);
            j += n;
            if (cp >= 0x10000) {
                has8 = true;
                cp -= 0x10000;
                ck_assert_uint_eq(c16[k++], 0xD800 | (cp >> 10));
                ck_assert_uint_eq(c16[k++], 0xDC00 | (cp & 0x3FF));
            } else {
                ck_assert_uint_eq(c16[k++], cp);
            }
        }
        ck_assert_int_eq((SQLLEN)k * 2, i16);
        for (size_t q = 0; q < k; q++)
            if (c16[q] >= 0xD800 && c16[q] <= 0xDBFF)
                has16 = true;
        astral8 += has8;
        astral16 += has16;
    }
    ck_assert_int_eq(rc, SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_int_eq(rows, want_rows);
    ck_assert_int_eq(nulls, want_null);
    ck_assert_int_eq(empty, want_empty);
    ck_assert_int_eq(astral8, want_astral);
    ck_assert_int_eq(astral16, want_astral);
}

START_TEST(perf_text_outside_bmp_same_through_char_and_wchar)
{
    NEED_PERF();
    /* README of the bulk fixtures: NULLs / empties / non-BMP values */
    text_column_counts("SELECT t50, t50 FROM [text]", 50, 1205, 253, 152,
                       25000);
    text_column_counts("SELECT t255, t255 FROM [text]", 255, 1264, 244, 298,
                       25000);
    text_column_counts("SELECT note, note FROM [memo]", 6000, 0, 0, 74, 5000);
    done();
}
END_TEST

START_TEST(perf_memo_chains_in_chunks)
{
    /* ids 1..6 hold 500, 6000, 1024, 1025, 2038, 2039 UTF-16 units */
    static const SQLLEN units[6] = { 500, 6000, 1024, 1025, 2038, 2039 };
    NEED_PERF();
    SQLHSTMT st = odbct_exec(dbc, "SELECT note FROM [memo]");
    for (int r = 0; r < 6; r++) {
        SQLWCHAR chunk[500];
        SQLLEN ind, total = 0, first = -1;
        SQLRETURN rc;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        while ((rc = SQLGetData(st, 1, SQL_C_WCHAR, chunk, sizeof chunk,
                                &ind)) != SQL_NO_DATA) {
            ck_assert(SQL_SUCCEEDED(rc));
            if (first < 0)
                first = ind;
            SQLLEN got = rc == SQL_SUCCESS_WITH_INFO
                             ? (SQLLEN)sizeof chunk - 2 : ind;
            if (rc == SQL_SUCCESS_WITH_INFO) {
                ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01004");
                /* a chunk never ends inside a surrogate pair */
                size_t n = 0;
                while (chunk[n])
                    n++;
                got = (SQLLEN)n * 2;
                ck_assert(n == 0 || chunk[n - 1] < 0xD800 ||
                          chunk[n - 1] > 0xDBFF);
            }
            total += got;
        }
        ck_assert_int_eq(first, units[r] * 2);
        ck_assert_int_eq(total, units[r] * 2);
    }
    /* the whole chain at once, as UTF-8 */
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st = odbct_exec(dbc, "SELECT note FROM [memo]");
    static char big[30000];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    ck_assert_int_eq(SQLGetData(st, 1, SQL_C_CHAR, big, sizeof big, &ind),
                     SQL_SUCCESS);
    ck_assert_int_ge(ind, 6000);
    ck_assert_int_eq((SQLLEN)strlen(big), ind);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

START_TEST(perf_ole_chains_exact_in_chunks)
{
    /* ids 1 and 2: 4097 and 16384 random bytes; SHA-256 from the
     * fixture's dump (perf.accdb.json) */
    static const char *want[2] = {
        "cbce7743de89e00ef10fcf29c192623a2134e63da034fc74a0058e16bd33b908",
        "f7ae5636359de25a155c120e6f444c25b0da70bc7315ba7945ea0d905faf245f",
    };
    static const SQLLEN lens[2] = { 4097, 16384 };
    NEED_PERF();
    SQLHSTMT st = odbct_exec(dbc, "SELECT blob FROM [ole]");
    for (int r = 0; r < 2; r++) {
        unsigned char chunk[1000], md[EVP_MAX_MD_SIZE];
        unsigned mdlen = 0;
        char hex[2 * EVP_MAX_MD_SIZE + 1];
        SQLLEN ind, total = 0, first = -1;
        SQLRETURN rc;
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        ck_assert_ptr_nonnull(ctx);
        ck_assert_int_eq(EVP_DigestInit_ex(ctx, EVP_sha256(), NULL), 1);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
        while ((rc = SQLGetData(st, 1, SQL_C_BINARY, chunk, sizeof chunk,
                                &ind)) != SQL_NO_DATA) {
            ck_assert(SQL_SUCCEEDED(rc));
            if (first < 0)
                first = ind;
            size_t n = rc == SQL_SUCCESS_WITH_INFO ? sizeof chunk
                                                   : (size_t)ind;
            EVP_DigestUpdate(ctx, chunk, n);
            total += (SQLLEN)n;
        }
        EVP_DigestFinal_ex(ctx, md, &mdlen);
        EVP_MD_CTX_free(ctx);
        for (unsigned i = 0; i < mdlen; i++)
            snprintf(hex + 2 * i, 3, "%02x", md[i]);
        ck_assert_int_eq(first, lens[r]);
        ck_assert_int_eq(total, lens[r]);
        ck_assert_str_eq(hex, want[r]);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

/* ------------------------------------------------- allocation counting */

/* not under AddressSanitizer, which owns malloc */
#define COUNT_ALLOCS (!JET_ASAN)

#if COUNT_ALLOCS
/* Interpose the process's allocator (the driver and the driver manager
 * resolve malloc here first) and count calls while `counting` is set. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t c, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
static volatile int counting;
static volatile long n_allocs;
/* visible to the dynamic linker despite -fvisibility=hidden */
#define EXPORTED __attribute__((visibility("default")))

EXPORTED void *malloc(size_t n)
{
    if (counting)
        n_allocs++;
    return __libc_malloc(n);
}

EXPORTED void *calloc(size_t c, size_t n)
{
    if (counting)
        n_allocs++;
    return __libc_calloc(c, n);
}

EXPORTED void *realloc(void *p, size_t n)
{
    if (counting)
        n_allocs++;
    return __libc_realloc(p, n);
}

EXPORTED void free(void *p)
{
    __libc_free(p);
}
#endif

/* Fetch a whole table with its text bound as CHAR and WCHAR, twice: the
 * first pass fills the connection's page cache (its slots are allocated
 * on first use, up to its bound); in the second, after the first row,
 * the allocations must not grow with the rows (the long-value scratch of
 * the new scan only doubles, up to the longest value). */
static void fetch_counting(const char *sql, size_t units, long max_allocs)
{
    static char c8[24100];
    static SQLWCHAR c16[12100];
    SQLLEN i8, i16;
    for (int pass = 0; pass < 2; pass++) {
        long rows = 0;
        SQLHSTMT st = odbct_exec(dbc, sql);
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindCol(st, 1, SQL_C_CHAR, c8, (SQLLEN)(units * 4 + 1),
                            &i8));
        ODBCT_OK(SQL_HANDLE_STMT, st,
                 SQLBindCol(st, 2, SQL_C_WCHAR, c16, (SQLLEN)(units + 1) * 2,
                            &i16));
#if COUNT_ALLOCS
        long before = 0;
#endif
        while (SQLFetch(st) == SQL_SUCCESS) {
#if COUNT_ALLOCS
            if (++rows == 1 && pass == 1) {
                before = n_allocs;
                counting = 1;
            }
#else
            rows++;
#endif
        }
#if COUNT_ALLOCS
        counting = 0;
        if (pass == 1)
            ck_assert_msg(n_allocs - before <= max_allocs,
                          "%ld allocations over %ld rows of %s",
                          n_allocs - before, rows, sql);
#else
        (void)max_allocs;
#endif
        ck_assert_int_gt(rows, 1000);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    }
}

START_TEST(perf_text_fetch_allocates_nothing_per_value)
{
    NEED_PERF();
#if COUNT_ALLOCS
    {
        /* the count sees the driver's allocations: a statement handle */
        SQLHSTMT probe;
        long before = n_allocs;
        counting = 1;
        SQLAllocHandle(SQL_HANDLE_STMT, dbc, &probe);
        counting = 0;
        ck_assert_int_gt(n_allocs - before, 0);
        SQLFreeHandle(SQL_HANDLE_STMT, probe);
    }
#endif
    fetch_counting("SELECT t255, t200 FROM [text]", 255, 0);
    /* memos: the long-value scratch only grows, to the longest note */
    fetch_counting("SELECT note, note FROM [memo]", 6000, 16);
    done();
}
END_TEST

/* ------------------------------------------- table shapes and columns */

/* All rows of sql as "a|b|NULL" lines joined by '\n' (SQL_C_CHAR). */
static const char *rows_text(const char *sql)
{
    static char all[8192];
    size_t n = 0;
    SQLSMALLINT ncols = 0;
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLNumResultCols(st, &ncols);
    all[0] = '\0';
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        for (SQLUSMALLINT c = 1; c <= ncols; c++) {
            char v[512];
            SQLLEN ind;
            ODBCT_OK(SQL_HANDLE_STMT, st,
                     SQLGetData(st, c, SQL_C_CHAR, v, sizeof v, &ind));
            n += (size_t)snprintf(all + n, sizeof all - n, "%s%s",
                                  c > 1 ? "|" : "",
                                  ind == SQL_NULL_DATA ? "NULL" : v);
        }
        n += (size_t)snprintf(all + n, sizeof all - n, "\n");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return all;
}

static const char *versions[][2] = {
    { "V1997", "mdb" }, { "V2000", "mdb" }, { "V2003", "mdb" },
    { "V2007", "accdb" }, { "V2010", "accdb" },
};

static void connect_fixture(size_t v, const char *stem)
{
    char rel[256];
    snprintf(rel, sizeof rel, "jackcess/%s/%s%s.%s", versions[v][0], stem,
             versions[v][0], versions[v][1]);
    connect_to(odbct_fixture(rel));
}

START_TEST(deleted_columns_overflow_rows_deleted_rows_empty_tables)
{
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
        connect_fixture(v, "delColTest");
        ck_assert_str_eq(rows_text("SELECT * FROM Table1"),
                         "0|2|foo|foo2\n3|5|bar|bar2\n");
        done();
        connect_fixture(v, "overflowTest");
        ck_assert_str_eq(rows_text("SELECT * FROM Table1"),
            "row1col1|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "row2col1|row2col3|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "NULL|row3col3|NULL|NULL|NULL|NULL|NULL|row3col9|NULL\n"
            "row4col1|row4col2|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "NULL|row5col2|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "NULL|row6col2|row6col3|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "row7col1|NULL|NULL|NULL|NULL|row7col7|NULL|NULL|NULL\n");
        done();
        connect_fixture(v, "delTest");
        ck_assert_str_eq(rows_text("SELECT * FROM [Table]"), "z|y\nv|u\n");
        done();
        if (v > 0) {    /* no Jet3 bigIndexTest */
            connect_fixture(v, "bigIndexTest");
            ck_assert_str_eq(rows_text("SELECT * FROM Table1"), "");
            done();
        }
    }
}
END_TEST

START_TEST(calculated_columns_in_their_result_types)
{
    connect_to(odbct_fixture("jackcess/V2010/calcFieldTestV2010.accdb"));
    SQLHSTMT st = odbct_exec(dbc, "SELECT BigNumTest, WeeklySalary, "
                                  "FloatTest, IsRich, LastFirstLen, "
                                  "MonthlySalary FROM Table1");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    char buf[64];
    SQLLEN ind;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq(buf, "56505085819.424791296572280180");
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 2, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq(buf, "19230.7692307692");
    SQLREAL f;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 3, SQL_C_FLOAT, &f, 0, &ind));
    ck_assert(f == 2583.209228515625f);
    SQLCHAR bit;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 4, SQL_C_BIT, &bit, 0,
                                              &ind));
    ck_assert_uint_eq(bit, 1);
    SQLINTEGER l;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 5, SQL_C_SLONG, &l, 0,
                                              &ind));
    ck_assert_int_eq(l, 12);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 6, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq(buf, "83333.3333");
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* 30 digits exact through SQL_NUMERIC_STRUCT at scale 18 */
    st = odbct_exec(dbc, "SELECT BigNumTest FROM Table1");
    SQLHDESC ard;
    SQL_NUMERIC_STRUCT ns;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindCol(st, 1, SQL_C_NUMERIC, &ns, sizeof ns, &ind));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)38, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ard,
             SQLSetDescField(ard, 1, SQL_DESC_SCALE, (SQLPOINTER)18, 0));
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS);
    jet_u128 want = u128_add(u128_mul(u128_of(56505085819ull),
                                      u128_of(1000000000000000000ull)),
                             u128_of(424791296572280180ull));
    ck_assert(ns_is(&ns, want));
    ck_assert_int_eq(ns.sign, 1);
    /* row 2: -0.0784734499180612994241100748 has 28 decimals: 01S07 */
    ck_assert_int_eq(SQLFetch(st), SQL_SUCCESS_WITH_INFO);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "01S07");
    ck_assert_int_eq(ns.sign, 0);
    ck_assert(ns_is(&ns, u128_of(78473449918061299ull)));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

START_TEST(guid_column_to_struct_and_text)
{
    connect_to(odbct_fixture("jackcess/V1997/testIndexCodesV1997.mdb"));
    SQLHSTMT st = odbct_exec(dbc, "SELECT data, data FROM Table13");
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    SQLGUID g;
    SQLLEN ind;
    char buf[64];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, 1, SQL_C_GUID, &g, 0,
                                              &ind));
    ck_assert_int_eq(ind, (SQLLEN)sizeof g);
    ck_assert_uint_eq(g.Data1, 0x8E39276Au);
    ck_assert_uint_eq(g.Data2, 0xBCA8);
    ck_assert_uint_eq(g.Data3, 0x4AC4);
    ck_assert_uint_eq(g.Data4[0], 0x89);
    ck_assert_uint_eq(g.Data4[7], 0xDD);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetData(st, 2, SQL_C_CHAR, buf, sizeof buf, &ind));
    ck_assert_str_eq(buf, "{8E39276A-BCA8-4AC4-891E-49911D8438DD}");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

START_TEST(complex_columns_and_their_hidden_flat_tables)
{
    connect_to(odbct_fixture("jackcess/V2010/complexDataTestV2010.accdb"));
    /* the parent rows return the complex ids */
    ck_assert_str_eq(rows_text("SELECT id, [multi-value-data], "
                               "[attach-data] FROM Table1"),
                     "row1|1|1\nrow2|2|2\nrow3|3|3\nrow4|4|4\n");
    /* MSysComplexColumns names each column's flat table by MSysObjects Id */
    ck_assert_str_eq(rows_text("SELECT ColumnName, FlatTableID, "
                               "ConceptualTableID FROM MSysComplexColumns"),
                     "Data|53|104\n"
                     "VersionHistory_F5F8918F-0A3F-4DA9-AE71-184EE5012880"
                     "|41|109\nmulti-value-data|60|109\n"
                     "attach-data|46|109\n");
    /* [_column] links a flat row to the parent's complex id */
    ck_assert_str_eq(rows_text("SELECT [_multi-value-data], Value FROM "
                               "[f_FCC66D28D650455480D923D1BD446BA6_"
                               "multi-value-data]"),
                     "2|value1\n2|value4\n3|value1\n3|value2\n3|value3\n"
                     "3|value4\n");
    ck_assert_str_eq(rows_text("SELECT [_attach-data], FileName, FileType "
                               "FROM [f_3B07F994AD0A4B56A3A1E13B3A1D3B70_"
                               "attach-data]"),
                     "2|test_data.txt|txt\n2|test_data2.txt|txt\n"
                     "4|test_data2.txt|txt\n");
    /* SQLTables lists them as SYSTEM TABLE */
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLTables(st, NULL, 0, NULL, 0, (SQLCHAR *)"%", SQL_NTS,
                       (SQLCHAR *)"SYSTEM TABLE", SQL_NTS));
    int flat = 0;
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        char name[256], type[64];
        SQLLEN ind;
        SQLGetData(st, 3, SQL_C_CHAR, name, sizeof name, &ind);
        SQLGetData(st, 4, SQL_C_CHAR, type, sizeof type, &ind);
        if (strncmp(name, "f_", 2) == 0) {
            ck_assert_str_eq(type, "SYSTEM TABLE");
            flat++;
        }
    }
    ck_assert_int_eq(flat, 4);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    done();
}
END_TEST

static Suite *convert_suite(void)
{
    Suite *s = suite_create("odbc_convert");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, perf_integer_boundaries_to_every_integer_type);
    tcase_add_test(tc, perf_double_boundaries);
    tcase_add_test(tc, perf_currency_limits_exact);
    tcase_add_test(tc, perf_numeric_struct_from_ard_fields);
    tcase_add_test(tc, perf_datetime_boundaries);
    tcase_add_test(tc, perf_text_outside_bmp_same_through_char_and_wchar);
    tcase_add_test(tc, perf_memo_chains_in_chunks);
    tcase_add_test(tc, perf_ole_chains_exact_in_chunks);
    tcase_add_test(tc, perf_text_fetch_allocates_nothing_per_value);
    tcase_add_test(tc, deleted_columns_overflow_rows_deleted_rows_empty_tables);
    tcase_add_test(tc, calculated_columns_in_their_result_types);
    tcase_add_test(tc, guid_column_to_struct_and_text);
    tcase_add_test(tc, complex_columns_and_their_hidden_flat_tables);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(convert_suite)
