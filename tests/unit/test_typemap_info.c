/*
 * test_typemap_info.c - the type map (driver/typemap.c) and the SQLGetInfo
 * table (driver/info.c).
 */
#include "config.h"

#include <string.h>

#include "typemap.h"
#include "info.h"
#include "unit.h"

#ifndef SQL_RETURN_ESCAPE_CLAUSE
#define SQL_RETURN_ESCAPE_CLAUSE 180
#endif

/* typemap.c asks the db only for its version; the test fakes it. */
static jet_version fake_version = JET_VER_4;
static const jet_db *const fake_db = (const jet_db *)&fake_version;

jet_version jet_db_version(const jet_db *db)
{
    ck_assert_ptr_eq(db, fake_db);
    return fake_version;
}

static jet_column column(jet_type type, uint16_t length, uint16_t flags)
{
    jet_column c;
    memset(&c, 0, sizeof c);
    c.name = "c";
    c.type = type;
    c.result_type = type;
    c.length = length;
    c.flags = flags;
    return c;
}

static odbc_type_info describe(jet_column c)
{
    odbc_type_info ti;
    memset(&ti, 0xAB, sizeof ti);
    odbc_type_for_column(&ti, fake_db, &c);
    return ti;
}

START_TEST(typemap_fixed_types_match_access_driver)
{
    static const struct {
        jet_type t;
        const char *name;
        SQLSMALLINT sql;
        SQLULEN size;
        SQLSMALLINT digits;
        SQLLEN octets;
        SQLSMALLINT c_type;
    } want[] = {
        { JET_T_BOOL, "BIT", SQL_BIT, 1, -1, 1, SQL_C_BIT },
        { JET_T_BYTE, "BYTE", SQL_TINYINT, 3, 0, 1, SQL_C_UTINYINT },
        { JET_T_INT, "SMALLINT", SQL_SMALLINT, 5, 0, 2, SQL_C_SSHORT },
        { JET_T_LONG, "INTEGER", SQL_INTEGER, 10, 0, 4, SQL_C_SLONG },
        { JET_T_BIGINT, "BIGINT", SQL_BIGINT, 19, 0, 8, SQL_C_SBIGINT },
        { JET_T_MONEY, "CURRENCY", SQL_NUMERIC, 19, 4, 21, SQL_C_CHAR },
        { JET_T_FLOAT, "REAL", SQL_REAL, 24, -1, 4, SQL_C_FLOAT },
        { JET_T_DOUBLE, "DOUBLE", SQL_DOUBLE, 53, -1, 8, SQL_C_DOUBLE },
        { JET_T_DATETIME, "DATETIME", SQL_TYPE_TIMESTAMP, 23, 3, 16,
          SQL_C_TYPE_TIMESTAMP },
        { JET_T_EXT_DATETIME, "DATETIME2", SQL_WVARCHAR, 27, -1, 54,
          SQL_C_WCHAR },
        { JET_T_OLE, "LONGBINARY", SQL_LONGVARBINARY, 1073741823, -1,
          1073741823, SQL_C_BINARY },
        { JET_T_MEMO, "LONGCHAR", SQL_WLONGVARCHAR, 1073741823, -1,
          2147483646, SQL_C_WCHAR },
        { JET_T_GUID, "GUID", SQL_GUID, 36, -1, 16, SQL_C_GUID },
        { JET_T_COMPLEX, "INTEGER", SQL_INTEGER, 10, 0, 4, SQL_C_SLONG },
        { JET_T_UNKNOWN_0D, "LONGBINARY", SQL_LONGVARBINARY, 1073741823, -1,
          1073741823, SQL_C_BINARY },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        odbc_type_info ti = describe(column(want[i].t, 8, 0));
        ck_assert_str_eq(ti.type_name, want[i].name);
        ck_assert_int_eq(ti.sql_type, want[i].sql);
        ck_assert_uint_eq(ti.column_size, want[i].size);
        ck_assert_int_eq(ti.decimal_digits, want[i].digits);
        ck_assert_int_eq(ti.octet_length, want[i].octets);
        ck_assert_int_eq(ti.default_c_type, want[i].c_type);
    }
}
END_TEST

START_TEST(typemap_autonumber_long_is_counter)
{
    odbc_type_info ti = describe(column(JET_T_LONG, 4, JET_COL_AUTONUMBER));
    ck_assert_str_eq(ti.type_name, "COUNTER");
    ck_assert_int_eq(ti.sql_type, SQL_INTEGER);
    ck_assert_int_eq(ti.auto_unique, SQL_TRUE);
    ti = describe(column(JET_T_LONG, 4, 0));
    ck_assert_int_eq(ti.auto_unique, SQL_FALSE);
    ti = describe(column(JET_T_MONEY, 8, 0));
    ck_assert_int_eq(ti.fixed_prec_scale, SQL_TRUE);
    ti = describe(column(JET_T_BYTE, 1, 0));
    ck_assert_int_eq(ti.unsigned_attr, SQL_TRUE);
    ti = describe(column(JET_T_INT, 2, 0));
    ck_assert_int_eq(ti.unsigned_attr, SQL_FALSE);
}
END_TEST

START_TEST(typemap_text_size_in_characters_per_version)
{
    fake_version = JET_VER_4;
    odbc_type_info ti = describe(column(JET_T_TEXT, 100, 0));
    ck_assert_str_eq(ti.type_name, "VARCHAR");
    ck_assert_int_eq(ti.sql_type, SQL_WVARCHAR);
    ck_assert_uint_eq(ti.column_size, 50);
    ck_assert_int_eq(ti.octet_length, 100);
    fake_version = JET_VER_ACE17;
    ti = describe(column(JET_T_TEXT, 510, 0));
    ck_assert_uint_eq(ti.column_size, 255);
    fake_version = JET_VER_3;
    ti = describe(column(JET_T_TEXT, 50, 0));
    ck_assert_uint_eq(ti.column_size, 50);
    ck_assert_int_eq(ti.octet_length, 100);
    fake_version = JET_VER_4;
    /* no db: treated as Jet4+ */
    jet_column c = column(JET_T_TEXT, 20, 0);
    odbc_type_for_column(&ti, NULL, &c);
    ck_assert_uint_eq(ti.column_size, 10);
    /* fixed-length Text (CHAR(n) in DDL): CHAR, SQL_WCHAR, same size */
    ti = describe(column(JET_T_TEXT, 10, JET_COL_FIXED));
    ck_assert_str_eq(ti.type_name, "CHAR");
    ck_assert_int_eq(ti.sql_type, SQL_WCHAR);
    ck_assert_uint_eq(ti.column_size, 5);
    ck_assert_int_eq(ti.octet_length, 10);
}
END_TEST

START_TEST(typemap_binary_and_numeric_sizes_from_column)
{
    odbc_type_info ti = describe(column(JET_T_BINARY, 16, 0));
    ck_assert_str_eq(ti.type_name, "VARBINARY");
    ck_assert_int_eq(ti.sql_type, SQL_VARBINARY);
    ck_assert_uint_eq(ti.column_size, 16);
    ck_assert_int_eq(ti.octet_length, 16);

    jet_column c = column(JET_T_NUMERIC, 17, 0);
    c.precision = 12;
    c.scale = 3;
    ti = describe(c);
    ck_assert_str_eq(ti.type_name, "DECIMAL");
    ck_assert_int_eq(ti.sql_type, SQL_NUMERIC);
    ck_assert_uint_eq(ti.column_size, 12);
    ck_assert_int_eq(ti.decimal_digits, 3);
    ck_assert_int_eq(ti.octet_length, 14);
    /* nonsense precision from a damaged file: a sane default */
    c.precision = 99;
    c.scale = 200;
    ti = describe(c);
    ck_assert_uint_le(ti.column_size, 28);
    ck_assert_int_le(ti.decimal_digits, (int)ti.column_size);
}
END_TEST

START_TEST(typemap_calculated_column_uses_result_type)
{
    jet_column c = column(JET_T_MEMO, 0, JET_COL_CALCULATED);
    c.result_type = JET_T_DOUBLE;
    odbc_type_info ti = describe(c);
    ck_assert_str_eq(ti.type_name, "DOUBLE");
    /* result_type is ignored without the calculated flag */
    c.flags = 0;
    ti = describe(c);
    ck_assert_str_eq(ti.type_name, "LONGCHAR");
}
END_TEST

START_TEST(typemap_calculated_text_is_255_characters)
{
    /* the stored wrapper is 509 bytes; the result a Text(255) */
    jet_column c = column(JET_T_TEXT, 509, JET_COL_CALCULATED);
    odbc_type_info ti = describe(c);
    ck_assert_str_eq(ti.type_name, "VARCHAR");
    ck_assert_uint_eq(ti.column_size, 255);
    ck_assert_int_eq(ti.octet_length, 510);
}
END_TEST

START_TEST(typemap_required_column_is_not_nullable)
{
    jet_column c = column(JET_T_LONG, 4, JET_COL_FIXED | JET_COL_NULLABLE);
    ck_assert_int_eq(odbc_column_nullable(&c), SQL_NULLABLE);
    c.flags |= JET_COL_REQUIRED;
    ck_assert_int_eq(odbc_column_nullable(&c), SQL_NO_NULLS);
    c.flags = JET_COL_FIXED;
    ck_assert_int_eq(odbc_column_nullable(&c), SQL_NO_NULLS);
}
END_TEST

START_TEST(typemap_type_info_rows_ordered_and_complete)
{
    size_t n = 0;
    const odbc_type_info *rows = odbc_type_info_rows(&n);
    ck_assert_uint_eq(n, 18);
    for (size_t i = 1; i < n; i++)
        ck_assert_int_le(rows[i - 1].sql_type, rows[i].sql_type);
    /* closest first within a DATA_TYPE */
    const char *first_of[][2] = { { "INTEGER", "COUNTER" },
                                  { "DECIMAL", "CURRENCY" },
                                  { "VARCHAR", "DATETIME2" } };
    for (size_t k = 0; k < 3; k++) {
        size_t a = n, b = n;
        for (size_t i = 0; i < n; i++) {
            if (!strcmp(rows[i].type_name, first_of[k][0])) a = i;
            if (!strcmp(rows[i].type_name, first_of[k][1])) b = i;
        }
        ck_assert_uint_lt(a, b);
        ck_assert_uint_lt(b, n);
    }
    /* every type a column can get is listed (pyodbc asks for WVARCHAR;
     * fixed-length Text is CHAR, SQL_WCHAR) */
    SQLSMALLINT needed[] = { SQL_WVARCHAR, SQL_WCHAR, SQL_VARBINARY,
                             SQL_TYPE_TIMESTAMP,
                             SQL_WLONGVARCHAR, SQL_GUID, SQL_BIT };
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++) {
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= rows[i].sql_type == needed[k];
        ck_assert(found);
    }
    /* text searchable, MEMO LIKE only, long binary not, the rest basic */
    for (size_t i = 0; i < n; i++) {
        SQLSMALLINT want = SQL_PRED_BASIC;
        if (rows[i].sql_type == SQL_WVARCHAR ||
            rows[i].sql_type == SQL_WCHAR)
            want = SQL_SEARCHABLE;
        else if (rows[i].sql_type == SQL_WLONGVARCHAR)
            want = SQL_PRED_CHAR;
        else if (rows[i].sql_type == SQL_LONGVARBINARY)
            want = SQL_PRED_NONE;
        ck_assert_int_eq(rows[i].searchable, want);
    }
    /* no SQL_VARCHAR row: text is Unicode */
    for (size_t i = 0; i < n; i++)
        ck_assert_int_ne(rows[i].sql_type, SQL_VARCHAR);
}
END_TEST

/* ------------------------------------------------------------------ info */

static const SQLUSMALLINT all_info_types[] = {
    SQL_MAX_DRIVER_CONNECTIONS,
    SQL_MAXIMUM_DRIVER_CONNECTIONS,
    SQL_MAX_CONCURRENT_ACTIVITIES,
    SQL_MAXIMUM_CONCURRENT_ACTIVITIES,
    SQL_DATA_SOURCE_NAME,
    SQL_FETCH_DIRECTION,
    SQL_SERVER_NAME,
    SQL_SEARCH_PATTERN_ESCAPE,
    SQL_DBMS_NAME,
    SQL_DBMS_VER,
    SQL_ACCESSIBLE_TABLES,
    SQL_ACCESSIBLE_PROCEDURES,
    SQL_CURSOR_COMMIT_BEHAVIOR,
    SQL_DATA_SOURCE_READ_ONLY,
    SQL_DEFAULT_TXN_ISOLATION,
    SQL_IDENTIFIER_CASE,
    SQL_IDENTIFIER_QUOTE_CHAR,
    SQL_MAX_COLUMN_NAME_LEN,
    SQL_MAXIMUM_COLUMN_NAME_LENGTH,
    SQL_MAX_CURSOR_NAME_LEN,
    SQL_MAXIMUM_CURSOR_NAME_LENGTH,
    SQL_MAX_SCHEMA_NAME_LEN,
    SQL_MAXIMUM_SCHEMA_NAME_LENGTH,
    SQL_MAX_CATALOG_NAME_LEN,
    SQL_MAXIMUM_CATALOG_NAME_LENGTH,
    SQL_MAX_TABLE_NAME_LEN,
    SQL_SCROLL_CONCURRENCY,
    SQL_TXN_CAPABLE,
    SQL_TRANSACTION_CAPABLE,
    SQL_USER_NAME,
    SQL_TXN_ISOLATION_OPTION,
    SQL_TRANSACTION_ISOLATION_OPTION,
    SQL_INTEGRITY,
    SQL_GETDATA_EXTENSIONS,
    SQL_NULL_COLLATION,
    SQL_ALTER_TABLE,
    SQL_ORDER_BY_COLUMNS_IN_SELECT,
    SQL_SPECIAL_CHARACTERS,
    SQL_MAX_COLUMNS_IN_GROUP_BY,
    SQL_MAXIMUM_COLUMNS_IN_GROUP_BY,
    SQL_MAX_COLUMNS_IN_INDEX,
    SQL_MAXIMUM_COLUMNS_IN_INDEX,
    SQL_MAX_COLUMNS_IN_ORDER_BY,
    SQL_MAXIMUM_COLUMNS_IN_ORDER_BY,
    SQL_MAX_COLUMNS_IN_SELECT,
    SQL_MAXIMUM_COLUMNS_IN_SELECT,
    SQL_MAX_COLUMNS_IN_TABLE,
    SQL_MAX_INDEX_SIZE,
    SQL_MAXIMUM_INDEX_SIZE,
    SQL_MAX_ROW_SIZE,
    SQL_MAXIMUM_ROW_SIZE,
    SQL_MAX_STATEMENT_LEN,
    SQL_MAXIMUM_STATEMENT_LENGTH,
    SQL_MAX_TABLES_IN_SELECT,
    SQL_MAXIMUM_TABLES_IN_SELECT,
    SQL_MAX_USER_NAME_LEN,
    SQL_MAXIMUM_USER_NAME_LENGTH,
    SQL_OJ_CAPABILITIES,
    SQL_OUTER_JOIN_CAPABILITIES,
    SQL_XOPEN_CLI_YEAR,
    SQL_CURSOR_SENSITIVITY,
    SQL_DESCRIBE_PARAMETER,
    SQL_CATALOG_NAME,
    SQL_COLLATION_SEQ,
    SQL_MAX_IDENTIFIER_LEN,
    SQL_MAXIMUM_IDENTIFIER_LENGTH,
    SQL_ACTIVE_CONNECTIONS,
    SQL_ACTIVE_STATEMENTS,
    SQL_DRIVER_HDBC,
    SQL_DRIVER_HENV,
    SQL_DRIVER_HSTMT,
    SQL_DRIVER_NAME,
    SQL_DRIVER_VER,
    SQL_ODBC_API_CONFORMANCE,
    SQL_ODBC_VER,
    SQL_ROW_UPDATES,
    SQL_ODBC_SAG_CLI_CONFORMANCE,
    SQL_ODBC_SQL_CONFORMANCE,
    SQL_PROCEDURES,
    SQL_CONCAT_NULL_BEHAVIOR,
    SQL_CURSOR_ROLLBACK_BEHAVIOR,
    SQL_EXPRESSIONS_IN_ORDERBY,
    SQL_MAX_OWNER_NAME_LEN,
    SQL_MAX_PROCEDURE_NAME_LEN,
    SQL_MAX_QUALIFIER_NAME_LEN,
    SQL_MULT_RESULT_SETS,
    SQL_MULTIPLE_ACTIVE_TXN,
    SQL_OUTER_JOINS,
    SQL_OWNER_TERM,
    SQL_PROCEDURE_TERM,
    SQL_QUALIFIER_NAME_SEPARATOR,
    SQL_QUALIFIER_TERM,
    SQL_SCROLL_OPTIONS,
    SQL_TABLE_TERM,
    SQL_CONVERT_FUNCTIONS,
    SQL_NUMERIC_FUNCTIONS,
    SQL_STRING_FUNCTIONS,
    SQL_SYSTEM_FUNCTIONS,
    SQL_TIMEDATE_FUNCTIONS,
    SQL_CONVERT_BIGINT,
    SQL_CONVERT_BINARY,
    SQL_CONVERT_BIT,
    SQL_CONVERT_CHAR,
    SQL_CONVERT_DATE,
    SQL_CONVERT_DECIMAL,
    SQL_CONVERT_DOUBLE,
    SQL_CONVERT_FLOAT,
    SQL_CONVERT_INTEGER,
    SQL_CONVERT_LONGVARCHAR,
    SQL_CONVERT_NUMERIC,
    SQL_CONVERT_REAL,
    SQL_CONVERT_SMALLINT,
    SQL_CONVERT_TIME,
    SQL_CONVERT_TIMESTAMP,
    SQL_CONVERT_TINYINT,
    SQL_CONVERT_VARBINARY,
    SQL_CONVERT_VARCHAR,
    SQL_CONVERT_LONGVARBINARY,
    SQL_CONVERT_GUID,
    SQL_ODBC_SQL_OPT_IEF,
    SQL_CORRELATION_NAME,
    SQL_NON_NULLABLE_COLUMNS,
    SQL_DRIVER_HLIB,
    SQL_DRIVER_ODBC_VER,
    SQL_LOCK_TYPES,
    SQL_POS_OPERATIONS,
    SQL_POSITIONED_STATEMENTS,
    SQL_BOOKMARK_PERSISTENCE,
    SQL_STATIC_SENSITIVITY,
    SQL_FILE_USAGE,
    SQL_COLUMN_ALIAS,
    SQL_GROUP_BY,
    SQL_KEYWORDS,
    SQL_OWNER_USAGE,
    SQL_QUALIFIER_USAGE,
    SQL_QUOTED_IDENTIFIER_CASE,
    SQL_SUBQUERIES,
    SQL_UNION,
    SQL_MAX_ROW_SIZE_INCLUDES_LONG,
    SQL_MAX_CHAR_LITERAL_LEN,
    SQL_TIMEDATE_ADD_INTERVALS,
    SQL_TIMEDATE_DIFF_INTERVALS,
    SQL_NEED_LONG_DATA_LEN,
    SQL_MAX_BINARY_LITERAL_LEN,
    SQL_LIKE_ESCAPE_CLAUSE,
    SQL_QUALIFIER_LOCATION,
    SQL_ACTIVE_ENVIRONMENTS,
    SQL_ALTER_DOMAIN,
    SQL_SQL_CONFORMANCE,
    SQL_DATETIME_LITERALS,
    SQL_ASYNC_MODE,
    SQL_BATCH_ROW_COUNT,
    SQL_BATCH_SUPPORT,
    SQL_CATALOG_LOCATION,
    SQL_CATALOG_NAME_SEPARATOR,
    SQL_CATALOG_TERM,
    SQL_CATALOG_USAGE,
    SQL_CONVERT_WCHAR,
    SQL_CONVERT_INTERVAL_DAY_TIME,
    SQL_CONVERT_INTERVAL_YEAR_MONTH,
    SQL_CONVERT_WLONGVARCHAR,
    SQL_CONVERT_WVARCHAR,
    SQL_CREATE_ASSERTION,
    SQL_CREATE_CHARACTER_SET,
    SQL_CREATE_COLLATION,
    SQL_CREATE_DOMAIN,
    SQL_CREATE_SCHEMA,
    SQL_CREATE_TABLE,
    SQL_CREATE_TRANSLATION,
    SQL_CREATE_VIEW,
    SQL_DRIVER_HDESC,
    SQL_DROP_ASSERTION,
    SQL_DROP_CHARACTER_SET,
    SQL_DROP_COLLATION,
    SQL_DROP_DOMAIN,
    SQL_DROP_SCHEMA,
    SQL_DROP_TABLE,
    SQL_DROP_TRANSLATION,
    SQL_DROP_VIEW,
    SQL_DYNAMIC_CURSOR_ATTRIBUTES1,
    SQL_DYNAMIC_CURSOR_ATTRIBUTES2,
    SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1,
    SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2,
    SQL_INDEX_KEYWORDS,
    SQL_INFO_SCHEMA_VIEWS,
    SQL_KEYSET_CURSOR_ATTRIBUTES1,
    SQL_KEYSET_CURSOR_ATTRIBUTES2,
    SQL_MAX_ASYNC_CONCURRENT_STATEMENTS,
    SQL_ODBC_INTERFACE_CONFORMANCE,
    SQL_PARAM_ARRAY_ROW_COUNTS,
    SQL_PARAM_ARRAY_SELECTS,
    SQL_SCHEMA_TERM,
    SQL_SCHEMA_USAGE,
    SQL_SQL92_DATETIME_FUNCTIONS,
    SQL_SQL92_FOREIGN_KEY_DELETE_RULE,
    SQL_SQL92_FOREIGN_KEY_UPDATE_RULE,
    SQL_SQL92_GRANT,
    SQL_SQL92_NUMERIC_VALUE_FUNCTIONS,
    SQL_SQL92_PREDICATES,
    SQL_SQL92_RELATIONAL_JOIN_OPERATORS,
    SQL_SQL92_REVOKE,
    SQL_SQL92_ROW_VALUE_CONSTRUCTOR,
    SQL_SQL92_STRING_FUNCTIONS,
    SQL_SQL92_VALUE_EXPRESSIONS,
    SQL_STANDARD_CLI_CONFORMANCE,
    SQL_STATIC_CURSOR_ATTRIBUTES1,
    SQL_STATIC_CURSOR_ATTRIBUTES2,
    SQL_AGGREGATE_FUNCTIONS,
    SQL_DDL_INDEX,
    SQL_DM_VER,
    SQL_INSERT_STATEMENT,
    SQL_UNION_STATEMENT,
    SQL_ASYNC_DBC_FUNCTIONS,
    SQL_DRIVER_AWARE_POOLING_SUPPORTED,
    SQL_ASYNC_NOTIFICATION,
    SQL_DTC_TRANSITION_COST,
    SQL_DATABASE_NAME,
    SQL_RETURN_ESCAPE_CLAUSE,
};

static const odbc_info_ctx ctx = { "mydsn", "/data/nwind.mdb", "04.00.0000",
                                   1, 0 };

START_TEST(info_every_odbc38_info_type_answered)
{
    for (size_t i = 0; i < sizeof all_info_types / sizeof all_info_types[0];
         i++) {
        odbc_info_answer a;
        memset(&a, 0, sizeof a);
        SQLRETURN rc = odbc_info_lookup(&a, all_info_types[i], &ctx);
        ck_assert_msg(rc == SQL_SUCCESS, "InfoType %u unanswered",
                      (unsigned)all_info_types[i]);
        if (a.kind == ODBC_INFO_STR)
            ck_assert_ptr_nonnull(a.str);
        if (a.kind == ODBC_INFO_USHORT)
            ck_assert_uint_le(a.num, 0xFFFF);
        if (a.kind == ODBC_INFO_UINT)
            ck_assert_uint_le(a.num, 0xFFFFFFFFu);
    }
}
END_TEST

START_TEST(info_unknown_info_type_is_error)
{
    odbc_info_answer a;
    ck_assert_int_eq(odbc_info_lookup(&a, 9999, &ctx), SQL_ERROR);
    ck_assert_int_eq(odbc_info_lookup(&a, 65535, &ctx), SQL_ERROR);
    ck_assert_int_eq(odbc_info_lookup(&a, 181, &ctx), SQL_ERROR);
}
END_TEST

static void want_str(SQLUSMALLINT id, const char *s)
{
    odbc_info_answer a;
    ck_assert_int_eq(odbc_info_lookup(&a, id, &ctx), SQL_SUCCESS);
    ck_assert_int_eq(a.kind, ODBC_INFO_STR);
    ck_assert_str_eq(a.str, s);
}

static void want_num(SQLUSMALLINT id, odbc_info_kind kind, SQLULEN num)
{
    odbc_info_answer a;
    ck_assert_int_eq(odbc_info_lookup(&a, id, &ctx), SQL_SUCCESS);
    ck_assert_msg(a.kind == kind, "InfoType %u kind %d", (unsigned)id,
                  (int)a.kind);
    ck_assert_uint_eq(a.num, num);
}

START_TEST(info_reference_values)
{
    want_str(SQL_DATA_SOURCE_READ_ONLY, "N");   /* ctx.read_only 0 */
    /* {call [query](?)} runs parameter queries (Access's driver: "Y") */
    want_str(SQL_PROCEDURES, "Y");
    want_str(SQL_PROCEDURE_TERM, "QUERY");
    want_str(SQL_IDENTIFIER_QUOTE_CHAR, "`");
    want_str(SQL_CATALOG_NAME_SEPARATOR, ".");
    want_str(SQL_CATALOG_TERM, "Database");
    want_str(SQL_DBMS_NAME, "ACCESS");
    want_str(SQL_DRIVER_NAME, "libjetodbc.so");
    want_str(SQL_DRIVER_VER, "00.01.0000");
    want_str(SQL_DRIVER_ODBC_VER, "03.80");
    want_str(SQL_SEARCH_PATTERN_ESCAPE, "\\");
    want_str(SQL_DATABASE_NAME, "/data/nwind.mdb");
    want_str(SQL_DATA_SOURCE_NAME, "mydsn");
    want_str(SQL_DBMS_VER, "04.00.0000");
    want_str(SQL_DESCRIBE_PARAMETER, "N");
    want_str(SQL_NEED_LONG_DATA_LEN, "N");
    want_num(SQL_GETDATA_EXTENSIONS, ODBC_INFO_UINT,
             SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER | SQL_GD_BLOCK |
             SQL_GD_BOUND);
    want_num(SQL_TXN_CAPABLE, ODBC_INFO_USHORT, SQL_TC_DML);
    want_num(SQL_DEFAULT_TXN_ISOLATION, ODBC_INFO_UINT,
             SQL_TXN_SERIALIZABLE);
    want_num(SQL_MAX_TABLE_NAME_LEN, ODBC_INFO_USHORT, 64);
    want_num(SQL_MAX_COLUMN_NAME_LEN, ODBC_INFO_USHORT, 64);
    want_num(SQL_MAX_COLUMNS_IN_TABLE, ODBC_INFO_USHORT, 255);
    want_num(SQL_MAX_CONCURRENT_ACTIVITIES, ODBC_INFO_USHORT, 0);
    want_num(SQL_RETURN_ESCAPE_CLAUSE, ODBC_INFO_UINT, 0);
    want_num(SQL_DTC_TRANSITION_COST, ODBC_INFO_UINT, 0);
    want_num(SQL_ASYNC_MODE, ODBC_INFO_UINT, SQL_AM_NONE);
    want_num(SQL_SQL_CONFORMANCE, ODBC_INFO_UINT, SQL_SC_SQL92_ENTRY);
    want_num(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, ODBC_INFO_UINT,
             SQL_CA1_NEXT | SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_POS_POSITION |
             SQL_CA1_POS_REFRESH);
    want_num(SQL_POS_OPERATIONS, ODBC_INFO_UINT,
             SQL_POS_POSITION | SQL_POS_REFRESH | SQL_POS_UPDATE |
             SQL_POS_DELETE | SQL_POS_ADD);
    want_num(SQL_SCROLL_OPTIONS, ODBC_INFO_UINT,
             SQL_SO_FORWARD_ONLY | SQL_SO_STATIC);
    want_num(SQL_CATALOG_LOCATION, ODBC_INFO_USHORT, SQL_CL_START);
    want_num(SQL_DRIVER_HSTMT, ODBC_INFO_ULEN, 0);
    want_num(SQL_SCHEMA_USAGE, ODBC_INFO_UINT, 0);
    want_num(SQL_CATALOG_USAGE, ODBC_INFO_UINT, SQL_CU_DML_STATEMENTS);
}
END_TEST

START_TEST(info_connection_strings_default_when_absent)
{
    odbc_info_answer a;
    ck_assert_int_eq(odbc_info_lookup(&a, SQL_DATA_SOURCE_NAME, NULL),
                     SQL_SUCCESS);
    ck_assert_str_eq(a.str, "");
    odbc_info_ctx empty = { NULL, NULL, NULL, 0, 0 };
    ck_assert_int_eq(odbc_info_lookup(&a, SQL_DATABASE_NAME, &empty),
                     SQL_SUCCESS);
    ck_assert_str_eq(a.str, "");
    ck_assert_int_eq(odbc_info_lookup(&a, SQL_DBMS_VER, &empty),
                     SQL_SUCCESS);
    ck_assert_ptr_nonnull(a.str);
}
END_TEST

static Suite *typemap_info_suite(void)
{
    Suite *s = suite_create("typemap_info");
    TCase *tc = tcase_create("typemap");
    tcase_add_test(tc, typemap_fixed_types_match_access_driver);
    tcase_add_test(tc, typemap_autonumber_long_is_counter);
    tcase_add_test(tc, typemap_text_size_in_characters_per_version);
    tcase_add_test(tc, typemap_binary_and_numeric_sizes_from_column);
    tcase_add_test(tc, typemap_calculated_column_uses_result_type);
    tcase_add_test(tc, typemap_calculated_text_is_255_characters);
    tcase_add_test(tc, typemap_required_column_is_not_nullable);
    tcase_add_test(tc, typemap_type_info_rows_ordered_and_complete);
    suite_add_tcase(s, tc);
    tc = tcase_create("info");
    tcase_add_test(tc, info_every_odbc38_info_type_answered);
    tcase_add_test(tc, info_unknown_info_type_is_error);
    tcase_add_test(tc, info_reference_values);
    tcase_add_test(tc, info_connection_strings_default_when_absent);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(typemap_info_suite)
