/*
 * test_odbc_paramarray.c - parameter arrays through the driver manager
 * (SQL_ATTR_PARAMSET_SIZE > 1): one result set per parameter set, read in
 * turn with SQLMoreResults (SQL_PARAM_ARRAY_SELECTS = SQL_PAS_BATCH);
 * column-wise and row-wise binding, the bind offset, the operation array
 * (ignored sets), the status array and the processed count, a failing set
 * (its diagnostic numbered by set), data at execution with arrays (HYC00),
 * and the APD/IPD header fields that mirror the attributes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "odbctest.h"

static SQLHENV env;
static SQLHDBC dbc;
static SQLHSTMT st;

#define SQL_BY_ID "SELECT CompanyName FROM Shippers WHERE ShipperID = ?"

static void setup(void)
{
    odbct_connect(&env, &dbc, odbct_nwind_connstr());
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
}

static void teardown(void)
{
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    odbct_disconnect(env, dbc);
}

/* Parameter arrays of size sets, with status and processed (may be NULL). */
static void set_arrays(SQLULEN size, SQLUSMALLINT *status, SQLULEN *processed)
{
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)size, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, processed, 0));
}

/* Every result set of the executed batch, separated by '|'. */
static void all_results(char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0;; k++) {
        char one[256];
        odbct_col1(st, one, sizeof one);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", k ? "|" : "",
                                one);
        SQLRETURN r = SQLMoreResults(st);
        if (r == SQL_NO_DATA)
            break;
        ck_assert_msg(SQL_SUCCEEDED(r), "more results: %s %s",
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
    }
}

START_TEST(column_wise_sets_give_one_result_set_each)
{
    SQLINTEGER ids[3] = { 3, 1, 2 };
    SQLLEN inds[3] = { 0, 0, 0 };
    SQLUSMALLINT status[3] = { 99, 99, 99 };
    SQLULEN processed = 99;
    char buf[512];
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)SQL_BY_ID,
                                             SQL_NTS));
    set_arrays(3, status, &processed);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, ids, 0, inds));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    /* the first set has run; the others are not reached yet */
    ck_assert_uint_eq(processed, 1);
    ck_assert_int_eq(status[0], SQL_PARAM_SUCCESS);
    ck_assert_int_eq(status[1], SQL_PARAM_UNUSED);
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "Federal Shipping|Speedy Express|United Package");
    ck_assert_uint_eq(processed, 3);
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(status[k], SQL_PARAM_SUCCESS);
    /* again, with a NULL in the middle set (no rows) */
    inds[1] = SQL_NULL_DATA;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "Federal Shipping||United Package");
    /* back to one set: SQLMoreResults has nothing more */
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "Federal Shipping");
}
END_TEST

START_TEST(row_wise_sets_with_text_and_an_offset)
{
    struct row {
        SQLCHAR name[32];
        SQLLEN name_ind;
        SQLINTEGER min_id;
        SQLLEN id_ind;
    } rows[3] = {
        { "United Package", SQL_NTS, 0, 0 },
        { "Speedy Express", SQL_NTS, 0, 0 },
        { "Speedy Express", SQL_NTS, 2, 0 },     /* id > 2: no row */
    };
    char buf[512];
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)"SELECT ShipperID FROM Shippers "
                        "WHERE CompanyName = ? AND ShipperID > ?", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE,
                            (SQLPOINTER)sizeof(struct row), 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 40, 0, rows[0].name,
                              sizeof rows[0].name, &rows[0].name_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, &rows[0].min_id, 0,
                              &rows[0].id_ind));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "2|1|");
    /* the bind offset moves every address: bound at rows[0], offset to
     * start at rows[1] with two sets */
    SQLULEN offset = sizeof(struct row);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_OFFSET_PTR, &offset, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "1|");
    /* and with one set, the offset alone */
    offset = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "2");
}
END_TEST

/* Row-wise sets in a packed buffer, as pyodbc's fast_executemany lays
 * them out (each value followed by its indicator, no padding): values and
 * indicators at odd addresses are read whole (copied, not loaded in
 * place: UBSan's misaligned-load check in the sanitizer build). */
START_TEST(row_wise_sets_packed_without_alignment)
{
    /* one set: a pad byte, name[15], its SQLLEN, a SQLINTEGER, its
     * SQLLEN, a SQLDOUBLE, its SQLLEN, a timestamp, its SQLLEN, two
     * SQLWCHARs, their SQLLEN (each at an odd address: the set begins at
     * one) */
    enum { NAME = 1, NAME_IND = NAME + 15, MIN = NAME_IND + 8,
           MIN_IND = MIN + 4, MAX = MIN_IND + 8, MAX_IND = MAX + 8,
           WHEN = MAX_IND + 8, WHEN_IND = WHEN + 16, OK = WHEN_IND + 8,
           OK_IND = OK + 4, ROW = OK_IND + 8 };
    static unsigned char rows[3 * ROW + 1];
    static const char *names[3] = { "United Package", "Speedy Express",
                                    "Federal Shipping" };
    static const SQLINTEGER mins[3] = { 0, 0, 2 };
    unsigned char *r0 = rows + 1;           /* odd even for row 0 */
    char buf[512];
    ck_assert_int_eq(sizeof(SQLLEN), 8);
    ck_assert_int_eq(sizeof(SQL_TIMESTAMP_STRUCT), 16);
    memset(rows, 0, sizeof rows);
    for (int k = 0; k < 3; k++) {
        unsigned char *r = r0 + k * ROW;
        SQLLEN n = 14, zero = 0, two = 2 * sizeof(SQLWCHAR);
        SQLWCHAR ok[2] = { 'o', 'k' };
        SQL_TIMESTAMP_STRUCT ts = { 2026, 12, 3, 16, 45, 0, 0 };
        SQLDOUBLE max = 10.5;
        memcpy(r + NAME, names[k], (size_t)n);
        memcpy(r + NAME_IND, &n, sizeof n);
        memcpy(r + MIN, &mins[k], sizeof mins[k]);
        memcpy(r + MIN_IND, &zero, sizeof zero);
        memcpy(r + MAX, &max, sizeof max);
        memcpy(r + MAX_IND, &zero, sizeof zero);
        memcpy(r + WHEN, &ts, sizeof ts);
        memcpy(r + WHEN_IND, &zero, sizeof zero);
        memcpy(r + OK, ok, sizeof ok);
        memcpy(r + OK_IND, &two, sizeof two);
    }
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)"SELECT ShipperID FROM Shippers "
                        "WHERE CompanyName LIKE ? & '*' AND ShipperID > ? "
                        "AND ShipperID < ? AND ? > #2000-01-01# AND "
                        "? = 'ok'", SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)ROW, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR,
                              SQL_VARCHAR, 40, 0, r0 + NAME, 15,
                              (SQLLEN *)(void *)(r0 + NAME_IND)));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, r0 + MIN, 0,
                              (SQLLEN *)(void *)(r0 + MIN_IND)));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_DOUBLE,
                              SQL_DOUBLE, 0, 0, r0 + MAX, 0,
                              (SQLLEN *)(void *)(r0 + MAX_IND)));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_TYPE_TIMESTAMP,
                              SQL_TYPE_TIMESTAMP, 19, 0, r0 + WHEN, 0,
                              (SQLLEN *)(void *)(r0 + WHEN_IND)));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 5, SQL_PARAM_INPUT, SQL_C_WCHAR,
                              SQL_WVARCHAR, 2, 0, r0 + OK, 4,
                              (SQLLEN *)(void *)(r0 + OK_IND)));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    all_results(buf, sizeof buf);
    ck_assert_str_eq(buf, "2|1|3");
}
END_TEST

START_TEST(ignored_and_failing_sets)
{
    /* set 2 cannot be converted: out of range (22003) */
    SQLUBIGINT ids[4] = { 3, UINT64_MAX, 1, 2 };
    SQLLEN inds[4] = { 0, 0, 0, 0 };
    SQLUSMALLINT ops[4] = { SQL_PARAM_PROCEED, SQL_PARAM_PROCEED,
                            SQL_PARAM_IGNORE, SQL_PARAM_PROCEED };
    SQLUSMALLINT status[4];
    SQLULEN processed = 0;
    char buf[512];
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLPrepare(st, (SQLCHAR *)SQL_BY_ID, SQL_NTS));
    set_arrays(4, status, &processed);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAM_OPERATION_PTR, ops, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_UBIGINT,
                              SQL_BIGINT, 0, 0, ids, 0, inds));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecute(st));
    odbct_col1(st, buf, sizeof buf);
    ck_assert_str_eq(buf, "Federal Shipping");
    /* set 2 fails (its own diagnostic, row number 2), set 3 is skipped,
     * set 4 runs: SQL_SUCCESS_WITH_INFO */
    SQLRETURN r = SQLMoreResults(st);
    ck_assert_msg(r == SQL_SUCCESS_WITH_INFO, "SQLMoreResults: %d %s", r,
                  odbct_state(SQL_HANDLE_STMT, st));
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    SQLLEN row = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_ROW_NUMBER,
                             &row, 0, NULL));
    ck_assert_int_eq(row, 2);
    odbct_col1(st, buf, sizeof buf);
    ck_assert_str_eq(buf, "United Package");
    ck_assert_int_eq(SQLMoreResults(st), SQL_NO_DATA);
    ck_assert_uint_eq(processed, 4);
    ck_assert_int_eq(status[0], SQL_PARAM_SUCCESS);
    ck_assert_int_eq(status[1], SQL_PARAM_ERROR);
    ck_assert_int_eq(status[2], SQL_PARAM_UNUSED);
    ck_assert_int_eq(status[3], SQL_PARAM_SUCCESS);
    /* every set failing: SQLExecute fails */
    for (int k = 0; k < 4; k++) {
        ids[k] = UINT64_MAX;
        ops[k] = SQL_PARAM_PROCEED;
    }
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "22003");
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(status[k], SQL_PARAM_ERROR);
}
END_TEST

START_TEST(data_at_execution_with_arrays_is_hyc00)
{
    SQLINTEGER ids[2] = { 1, 2 };
    SQLLEN inds[2] = { 0, SQL_DATA_AT_EXEC };
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)SQL_BY_ID,
                                             SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2, 0));
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG,
                              SQL_INTEGER, 0, 0, ids, 0, inds));
    ck_assert_int_eq(SQLExecute(st), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HYC00");
    /* a zero-size array is refused */
    ck_assert_int_eq(SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
                                    (SQLPOINTER)0, 0), SQL_ERROR);
    ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY024");
}
END_TEST

START_TEST(descriptor_header_fields_mirror_the_attributes)
{
    SQLHDESC apd = NULL, ipd = NULL;
    SQLUSMALLINT status[2], ops[2] = { SQL_PARAM_PROCEED, SQL_PARAM_PROCEED };
    SQLULEN processed = 0, size = 0, offset = 0;
    SQLINTEGER bind_type = -1;
    SQLPOINTER p = NULL;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_APP_PARAM_DESC,
                                                 &apd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_IMP_PARAM_DESC,
                                                 &ipd, 0, NULL));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 0,
                                                   SQL_DESC_ARRAY_SIZE,
                                                   (SQLPOINTER)2, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 0,
                                                   SQL_DESC_ARRAY_STATUS_PTR,
                                                   ops, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 0, SQL_DESC_BIND_TYPE,
                                                   (SQLPOINTER)24, 0));
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLSetDescField(apd, 0,
                                                   SQL_DESC_BIND_OFFSET_PTR,
                                                   &offset, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ipd, SQLSetDescField(ipd, 0,
                                                   SQL_DESC_ARRAY_STATUS_PTR,
                                                   status, 0));
    ODBCT_OK(SQL_HANDLE_DESC, ipd,
             SQLSetDescField(ipd, 0, SQL_DESC_ROWS_PROCESSED_PTR, &processed,
                             0));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
                                                 &size, 0, NULL));
    ck_assert_uint_eq(size, 2);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_PARAM_OPERATION_PTR, &p, 0, NULL));
    ck_assert_ptr_eq(p, ops);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, &p, 0, NULL));
    ck_assert_ptr_eq(p, status);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &p, 0, NULL));
    ck_assert_ptr_eq(p, &processed);
    ODBCT_OK(SQL_HANDLE_STMT, st,
             SQLGetStmtAttr(st, SQL_ATTR_PARAM_BIND_OFFSET_PTR, &p, 0, NULL));
    ck_assert_ptr_eq(p, &offset);
    ODBCT_OK(SQL_HANDLE_DESC, apd, SQLGetDescField(apd, 0, SQL_DESC_BIND_TYPE,
                                                   &bind_type, 0, NULL));
    ck_assert_int_eq(bind_type, 24);
    ODBCT_OK(SQL_HANDLE_DESC, ipd,
             SQLGetDescField(ipd, 0, SQL_DESC_ROWS_PROCESSED_PTR, &p, 0,
                             NULL));
    ck_assert_ptr_eq(p, &processed);
}
END_TEST

START_TEST(getinfo_says_one_result_set_per_parameter_set)
{
    SQLUINTEGER v = 0;
    char mult[8];
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_PARAM_ARRAY_SELECTS,
                                             &v, sizeof v, NULL));
    ck_assert_uint_eq(v, SQL_PAS_BATCH);
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLGetInfo(dbc, SQL_MULT_RESULT_SETS, mult,
                                             sizeof mult, NULL));
    ck_assert_str_eq(mult, "Y");
}
END_TEST

static Suite *paramarray_suite(void)
{
    Suite *s = suite_create("paramarray");
    TCase *tc = tcase_create("paramarray");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, column_wise_sets_give_one_result_set_each);
    tcase_add_test(tc, row_wise_sets_with_text_and_an_offset);
    tcase_add_test(tc, row_wise_sets_packed_without_alignment);
    tcase_add_test(tc, ignored_and_failing_sets);
    tcase_add_test(tc, data_at_execution_with_arrays_is_hyc00);
    tcase_add_test(tc, descriptor_header_fields_mirror_the_attributes);
    tcase_add_test(tc, getinfo_says_one_result_set_per_parameter_set);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(paramarray_suite)
