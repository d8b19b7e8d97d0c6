/*
 * info.c - SQLGetInfo answers for every InfoType of ODBC 3.8, as data.
 *
 * A read-only Access driver answering honestly: what the SQL subset of
 * driver/sql can run today (no WHERE/joins/functions yet, so those masks
 * are 0 and grow with the parser), format limits of Jet/ACE, and the
 * strings Microsoft's Access driver reports where clients key on them
 * (docs/odbc-clients.md 1.2: "`" quote, "." separator, "Database",
 * "ACCESS", "\\" pattern escape, "QUERY").
 *
 * Choices:
 *  - SQL_DATA_SOURCE_READ_ONLY "N", "Y" when the connection refuses
 *    writes (ReadOnly=1, SQL_MODE_READ_ONLY, an Access 97 file).
 *  - SQL_TXN_CAPABLE SQL_TC_DML: INSERT, UPDATE and DELETE run in
 *    transactions (SQLEndTran commits or rolls back); DDL is refused
 *    everywhere, so it never meets a transaction.
 *  - SQL_DEFAULT_TXN_ISOLATION / SQL_TXN_ISOLATION_OPTION serializable:
 *    a write transaction holds the pager's writer lock from its first
 *    write to its end (no other connection or process writes the file
 *    meanwhile) and commits atomically; there is one isolation level.
 *  - SQL_MULTIPLE_ACTIVE_TXN "N": one writer per file at a time (a second
 *    connection's write waits, then answers HYT00).
 *  - SQL_CURSOR_COMMIT_BEHAVIOR / ROLLBACK_BEHAVIOR SQL_CB_PRESERVE:
 *    SQLEndTran leaves cursors and prepared statements as they are.
 *  - SQL_SQL_CONFORMANCE SQL_SC_SQL92_ENTRY: the engine runs joins,
 *    grouping, subqueries (correlated, EXISTS, IN, ANY/ALL), derived
 *    tables and UNION, but not CASE, CAST, FULL OUTER JOIN or the rest
 *    of SQL-92 intermediate, so entry is the true answer (Power Query
 *    then folds less: it assumes derived tables only at SQL92_FULL).
 *  - SQL_GROUP_BY SQL_GB_GROUP_BY_CONTAINS_SELECT: every non-aggregated
 *    select column must be grouped (Access's rule), others may be too.
 *  - SQL_AGGREGATE_FUNCTIONS without SQL_AF_DISTINCT/ALL: only
 *    COUNT(DISTINCT x) takes a set quantifier.
 *  - SQL_RETURN_ESCAPE_CLAUSE (180, ODBC 4.0) and SQL_DTC_TRANSITION_COST
 *    (1750) answer 0: Power BI aborts loading on an error (DataConnectors
 *    #498/#516).
 *  - SQL_MAX_TABLES_IN_SELECT 64: the planner's bound (ACE: 32).
 *  - Handles (SQL_DRIVER_HDBC/HENV/HSTMT/HDESC/HLIB) answer 0 here: only
 *    the API layer knows them and must substitute its own.
 *  - SQL_DATABASE_NAME: ctx->db_path as given (the DBQ value), the same
 *    string the catalog functions report as TABLE_CAT.
 */
#include "config.h"

#include "info.h"
#include "odbc_internal.h"

#include <stddef.h>

/* ODBC 4.0 InfoType Power BI asks for; unixODBC does not define it. */
#ifndef SQL_RETURN_ESCAPE_CLAUSE
#define SQL_RETURN_ESCAPE_CLAUSE 180
#endif
#ifndef SQL_DTC_TRANSITION_COST
#define SQL_DTC_TRANSITION_COST 1750
#endif
/* Outer joins: LEFT and RIGHT, ON columns in any order and with any
 * comparison, the optional table also in inner joins, nested outer joins
 * (the optional side may itself be a join); not FULL (not Jet SQL). */
#define OJ_CAPS (SQL_OJ_LEFT | SQL_OJ_RIGHT | SQL_OJ_NESTED | \
                 SQL_OJ_NOT_ORDERED | SQL_OJ_INNER | \
                 SQL_OJ_ALL_COMPARISON_OPS)

/* The targets {fn CONVERT} reaches from a number, text or date type. */
#define CVT_TO (SQL_CVT_BIT | SQL_CVT_TINYINT | SQL_CVT_SMALLINT | \
                SQL_CVT_INTEGER | SQL_CVT_BIGINT | SQL_CVT_REAL | \
                SQL_CVT_FLOAT | SQL_CVT_DOUBLE | SQL_CVT_NUMERIC | \
                SQL_CVT_DECIMAL | SQL_CVT_CHAR | SQL_CVT_VARCHAR | \
                SQL_CVT_LONGVARCHAR | SQL_CVT_WCHAR | SQL_CVT_WVARCHAR | \
                SQL_CVT_WLONGVARCHAR | SQL_CVT_DATE | SQL_CVT_TIME | \
                SQL_CVT_TIMESTAMP)

/* ODBC 2.01 placeholder number of SQL_OJ_CAPABILITIES. */
#define SQL_OJ_CAPABILITIES_201 65003

typedef struct info_row {
    SQLUSMALLINT id;
    odbc_info_kind kind;
    const char *str;
    SQLULEN num;
} info_row;

#define S(id, s)  { id, ODBC_INFO_STR, s, 0 }
#define US(id, n) { id, ODBC_INFO_USHORT, NULL, (SQLULEN)(n) }
#define UI(id, n) { id, ODBC_INFO_UINT, NULL, (SQLULEN)(n) }
#define UL(id, n) { id, ODBC_INFO_ULEN, NULL, (SQLULEN)(n) }

/* Jet reserved words that ODBC's SQL_KEYWORDS base list lacks. */
#define JET_KEYWORDS \
    "ALPHANUMERIC,AUTOINCREMENT,BINARY,BYTE,COUNTER,CURRENCY,DATABASE," \
    "DATETIME,DISALLOW,DISTINCTROW,DOUBLE,FLOAT4,FLOAT8,GENERAL,GUID," \
    "IEEEDOUBLE,IEEESINGLE,IGNORE,IMP,INT1,INT2,INT4,INTEGER1,INTEGER2," \
    "INTEGER4,LOGICAL,LOGICAL1,LONG,LONGBINARY,LONGCHAR,LONGTEXT,MEMO,MOD," \
    "MONEY,NUMBER,OLEOBJECT,OWNERACCESS,PARAMETERS,PERCENT,PIVOT,SHORT," \
    "SINGLE,STRING,TABLEID,TEXT,TOP,TRANSFORM,VARBINARY,XOR,YESNO"

static const info_row rows[] = {
    /* ---- driver and data source identity */
    S(SQL_DRIVER_NAME, "libjetodbc.so"),
    S(SQL_DRIVER_VER, "00.01.0000"),
    S(SQL_DRIVER_ODBC_VER, "03.80"),
    S(SQL_ODBC_VER, "03.80.0000"),          /* the DM answers this itself */
    S(SQL_DM_VER, "03.80.0000.0000"),       /* likewise */
    S(SQL_DBMS_NAME, "ACCESS"),
    S(SQL_SERVER_NAME, "ACCESS"),
    S(SQL_USER_NAME, "admin"),              /* Access's built-in user */
    S(SQL_XOPEN_CLI_YEAR, "1995"),
    S(SQL_KEYWORDS, JET_KEYWORDS),
    S(SQL_SPECIAL_CHARACTERS, "~@#$%^&*_-+=\\}{\"';:?/><,"),
    S(SQL_COLLATION_SEQ, ""),
    UL(SQL_DRIVER_HDBC, 0),
    UL(SQL_DRIVER_HENV, 0),
    UL(SQL_DRIVER_HSTMT, 0),
    UL(SQL_DRIVER_HDESC, 0),
    UL(SQL_DRIVER_HLIB, 0),

    /* ---- conformance */
    US(SQL_ODBC_API_CONFORMANCE, SQL_OAC_LEVEL1),
    US(SQL_ODBC_SAG_CLI_CONFORMANCE, SQL_OSCC_NOT_COMPLIANT),
    US(SQL_ODBC_SQL_CONFORMANCE, SQL_OSC_MINIMUM),
    UI(SQL_ODBC_INTERFACE_CONFORMANCE, SQL_OIC_CORE),
    UI(SQL_SQL_CONFORMANCE, SQL_SC_SQL92_ENTRY),
    UI(SQL_STANDARD_CLI_CONFORMANCE, SQL_SCC_XOPEN_CLI_VERSION1),

    /* ---- data source and catalog terms */
    S(SQL_ACCESSIBLE_TABLES, "Y"),
    /* SQLProcedures lists saved action and parameter queries, as Access's
     * driver does (SQL_PROCEDURE_TERM "QUERY"), and {call name(?, ...)}
     * runs the parameter queries (Access's driver: "Y"); the action
     * queries stay HYC00 (read-only), so not every listed one runs */
    S(SQL_ACCESSIBLE_PROCEDURES, "N"),
    S(SQL_PROCEDURES, "Y"),
    S(SQL_PROCEDURE_TERM, "QUERY"),
    S(SQL_TABLE_TERM, "Table"),
    S(SQL_SCHEMA_TERM, ""),
    UI(SQL_SCHEMA_USAGE, 0),
    S(SQL_CATALOG_NAME, "Y"),
    S(SQL_CATALOG_TERM, "Database"),
    S(SQL_CATALOG_NAME_SEPARATOR, "."),
    US(SQL_CATALOG_LOCATION, SQL_CL_START),
    UI(SQL_CATALOG_USAGE, SQL_CU_DML_STATEMENTS),
    US(SQL_FILE_USAGE, SQL_FILE_CATALOG),
    S(SQL_SEARCH_PATTERN_ESCAPE, "\\"),
    S(SQL_IDENTIFIER_QUOTE_CHAR, "`"),
    US(SQL_IDENTIFIER_CASE, SQL_IC_MIXED),
    US(SQL_QUOTED_IDENTIFIER_CASE, SQL_IC_MIXED),
    S(SQL_INTEGRITY, "N"),
    S(SQL_MULT_RESULT_SETS, "Y"),   /* parameter arrays: one per set */
    S(SQL_MULTIPLE_ACTIVE_TXN, "N"),
    S(SQL_NEED_LONG_DATA_LEN, "N"),
    S(SQL_DESCRIBE_PARAMETER, "N"),
    US(SQL_NULL_COLLATION, SQL_NC_LOW),
    US(SQL_CONCAT_NULL_BEHAVIOR, SQL_CB_NON_NULL),
    US(SQL_NON_NULLABLE_COLUMNS, SQL_NNC_NON_NULL),
    S(SQL_ROW_UPDATES, "N"),

    /* ---- transactions (see the comment at the top) */
    US(SQL_TXN_CAPABLE, SQL_TC_DML),
    UI(SQL_DEFAULT_TXN_ISOLATION, SQL_TXN_SERIALIZABLE),
    UI(SQL_TXN_ISOLATION_OPTION, SQL_TXN_SERIALIZABLE),
    US(SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CB_PRESERVE),
    US(SQL_CURSOR_ROLLBACK_BEHAVIOR, SQL_CB_PRESERVE),
    UI(SQL_DTC_TRANSITION_COST, 0),

    /* ---- cursors: forward-only (read-only) and static (stmt.c, scroll.h;
     * positioned writes with optimistic concurrency by values: setpos.c).
     * Keyset-driven and dynamic requests get a static cursor (01S02), so
     * those types claim nothing. unixODBC's SQL_CUR_USE_IF_NEEDED loads
     * its cursor library unless SQL_STATIC_CURSOR_ATTRIBUTES1 (or, for
     * ODBC 2, SQL_FETCH_DIRECTION) has bit 0x8 (SQL_CA1_BOOKMARK, as
     * SQL_FD_FETCH_PRIOR): both have it. */
    UI(SQL_SCROLL_OPTIONS, SQL_SO_FORWARD_ONLY | SQL_SO_STATIC),
    UI(SQL_SCROLL_CONCURRENCY, SQL_SCCO_READ_ONLY | SQL_SCCO_OPT_VALUES),
    UI(SQL_FETCH_DIRECTION, SQL_FD_FETCH_NEXT | SQL_FD_FETCH_FIRST |
                            SQL_FD_FETCH_LAST | SQL_FD_FETCH_PRIOR |
                            SQL_FD_FETCH_ABSOLUTE | SQL_FD_FETCH_RELATIVE |
                            SQL_FD_FETCH_BOOKMARK),
    UI(SQL_CURSOR_SENSITIVITY, SQL_UNSPECIFIED),
    UI(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, SQL_CA1_NEXT | SQL_CA1_LOCK_NO_CHANGE |
                                            SQL_CA1_POS_POSITION | SQL_CA1_POS_REFRESH),
    UI(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2, SQL_CA2_READ_ONLY_CONCURRENCY),
    UI(SQL_STATIC_CURSOR_ATTRIBUTES1, SQL_CA1_NEXT | SQL_CA1_ABSOLUTE |
                                      SQL_CA1_RELATIVE | SQL_CA1_BOOKMARK |
                                      SQL_CA1_LOCK_NO_CHANGE |
                                      SQL_CA1_POS_POSITION |
                                      SQL_CA1_POS_REFRESH |
                                      SQL_CA1_POS_UPDATE |
                                      SQL_CA1_POS_DELETE |
                                      SQL_CA1_BULK_ADD |
                                      SQL_CA1_BULK_UPDATE_BY_BOOKMARK |
                                      SQL_CA1_BULK_DELETE_BY_BOOKMARK),
    UI(SQL_STATIC_CURSOR_ATTRIBUTES2, SQL_CA2_READ_ONLY_CONCURRENCY |
                                      SQL_CA2_OPT_VALUES_CONCURRENCY |
                                      SQL_CA2_SENSITIVITY_ADDITIONS |
                                      SQL_CA2_SENSITIVITY_DELETIONS |
                                      SQL_CA2_SENSITIVITY_UPDATES |
                                      SQL_CA2_MAX_ROWS_SELECT),
    UI(SQL_KEYSET_CURSOR_ATTRIBUTES1, 0),
    UI(SQL_KEYSET_CURSOR_ATTRIBUTES2, 0),
    UI(SQL_DYNAMIC_CURSOR_ATTRIBUTES1, 0),
    UI(SQL_DYNAMIC_CURSOR_ATTRIBUTES2, 0),
    UI(SQL_STATIC_SENSITIVITY, SQL_SS_ADDITIONS | SQL_SS_UPDATES),
    UI(SQL_LOCK_TYPES, SQL_LCK_NO_CHANGE),
    UI(SQL_POS_OPERATIONS, SQL_POS_POSITION | SQL_POS_REFRESH |
                           SQL_POS_UPDATE | SQL_POS_DELETE | SQL_POS_ADD),
    UI(SQL_POSITIONED_STATEMENTS, 0),
    UI(SQL_BOOKMARK_PERSISTENCE, SQL_BP_SCROLL),
    UI(SQL_GETDATA_EXTENSIONS, SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER |
                               SQL_GD_BLOCK | SQL_GD_BOUND),

    /* ---- concurrency and async */
    US(SQL_MAX_DRIVER_CONNECTIONS, 0),      /* no limit */
    US(SQL_MAX_CONCURRENT_ACTIVITIES, 0),   /* each statement has its scan */
    US(SQL_ACTIVE_ENVIRONMENTS, 0),
    UI(SQL_ASYNC_MODE, SQL_AM_NONE),
    UI(SQL_MAX_ASYNC_CONCURRENT_STATEMENTS, 0),
    UI(SQL_ASYNC_DBC_FUNCTIONS, SQL_ASYNC_DBC_NOT_CAPABLE),
    UI(SQL_ASYNC_NOTIFICATION, SQL_ASYNC_NOTIFICATION_NOT_CAPABLE),
    UI(SQL_DRIVER_AWARE_POOLING_SUPPORTED,
       SQL_DRIVER_AWARE_POOLING_NOT_CAPABLE),
    UI(SQL_BATCH_ROW_COUNT, 0),
    UI(SQL_BATCH_SUPPORT, 0),
    UI(SQL_PARAM_ARRAY_ROW_COUNTS, SQL_PARC_NO_BATCH),
    UI(SQL_PARAM_ARRAY_SELECTS, SQL_PAS_BATCH),

    /* ---- limits of the Jet/ACE format (Access specifications) */
    US(SQL_MAX_COLUMN_NAME_LEN, 64),
    US(SQL_MAX_TABLE_NAME_LEN, 64),
    US(SQL_MAX_IDENTIFIER_LEN, 64),
    US(SQL_MAX_CURSOR_NAME_LEN, ODBC_MAX_CURSOR_NAME),
    US(SQL_MAX_SCHEMA_NAME_LEN, 0),
    US(SQL_MAX_PROCEDURE_NAME_LEN, 64),
    US(SQL_MAX_CATALOG_NAME_LEN, 0),        /* a file path: no fixed limit */
    US(SQL_MAX_USER_NAME_LEN, 20),
    US(SQL_MAX_COLUMNS_IN_TABLE, 255),
    US(SQL_MAX_COLUMNS_IN_SELECT, 255),
    US(SQL_MAX_COLUMNS_IN_INDEX, 10),
    US(SQL_MAX_COLUMNS_IN_ORDER_BY, 10),
    US(SQL_MAX_COLUMNS_IN_GROUP_BY, 10),
    US(SQL_MAX_TABLES_IN_SELECT, 64),       /* the planner's bound */
    UI(SQL_MAX_INDEX_SIZE, 255),
    UI(SQL_MAX_ROW_SIZE, 4000),
    S(SQL_MAX_ROW_SIZE_INCLUDES_LONG, "N"),
    UI(SQL_MAX_STATEMENT_LEN, 64000),       /* "approximately 64,000" */
    UI(SQL_MAX_CHAR_LITERAL_LEN, 255),
    UI(SQL_MAX_BINARY_LITERAL_LEN, 255),

    /* ---- SQL the parser accepts today */
    US(SQL_CORRELATION_NAME, SQL_CN_ANY),
    S(SQL_COLUMN_ALIAS, "Y"),
    S(SQL_ORDER_BY_COLUMNS_IN_SELECT, "N"),
    S(SQL_EXPRESSIONS_IN_ORDERBY, "Y"),
    /* grouping, joins, subqueries, UNION: driver/sql (engine.h) */
    US(SQL_GROUP_BY, SQL_GB_GROUP_BY_CONTAINS_SELECT),
    S(SQL_OUTER_JOINS, "Y"),
    UI(SQL_OJ_CAPABILITIES, OJ_CAPS),
    UI(SQL_OJ_CAPABILITIES_201, OJ_CAPS),
    S(SQL_LIKE_ESCAPE_CLAUSE, "N"),
    UI(SQL_RETURN_ESCAPE_CLAUSE, 0),
    UI(SQL_SUBQUERIES, SQL_SQ_CORRELATED_SUBQUERIES | SQL_SQ_COMPARISON |
                       SQL_SQ_EXISTS | SQL_SQ_IN | SQL_SQ_QUANTIFIED),
    UI(SQL_UNION, SQL_U_UNION | SQL_U_UNION_ALL),
    UI(SQL_AGGREGATE_FUNCTIONS, SQL_AF_AVG | SQL_AF_COUNT | SQL_AF_MAX |
                                SQL_AF_MIN | SQL_AF_SUM),
    UI(SQL_DATETIME_LITERALS, 0),
    /* the {fn} scalar functions of driver/sql/func*.c (helper funcs) */
    UI(SQL_NUMERIC_FUNCTIONS, SQL_FN_NUM_ABS | SQL_FN_NUM_ATAN |
       SQL_FN_NUM_CEILING | SQL_FN_NUM_COS | SQL_FN_NUM_EXP |
       SQL_FN_NUM_FLOOR | SQL_FN_NUM_LOG | SQL_FN_NUM_MOD |
       SQL_FN_NUM_POWER | SQL_FN_NUM_ROUND | SQL_FN_NUM_SIGN |
       SQL_FN_NUM_SIN | SQL_FN_NUM_SQRT | SQL_FN_NUM_TAN),
    UI(SQL_STRING_FUNCTIONS, SQL_FN_STR_ASCII | SQL_FN_STR_CHAR |
       SQL_FN_STR_CONCAT | SQL_FN_STR_LCASE | SQL_FN_STR_LEFT |
       SQL_FN_STR_LENGTH | SQL_FN_STR_LOCATE | SQL_FN_STR_LOCATE_2 |
       SQL_FN_STR_LTRIM | SQL_FN_STR_REPLACE | SQL_FN_STR_RIGHT |
       SQL_FN_STR_RTRIM | SQL_FN_STR_SPACE | SQL_FN_STR_SUBSTRING |
       SQL_FN_STR_UCASE | SQL_FN_STR_CHAR_LENGTH |
       SQL_FN_STR_CHARACTER_LENGTH),
    UI(SQL_SYSTEM_FUNCTIONS, SQL_FN_SYS_IFNULL),
    UI(SQL_TIMEDATE_FUNCTIONS, SQL_FN_TD_CURDATE | SQL_FN_TD_CURTIME |
       SQL_FN_TD_DAYNAME | SQL_FN_TD_DAYOFMONTH | SQL_FN_TD_DAYOFWEEK |
       SQL_FN_TD_DAYOFYEAR | SQL_FN_TD_HOUR | SQL_FN_TD_MINUTE |
       SQL_FN_TD_MONTH | SQL_FN_TD_MONTHNAME | SQL_FN_TD_NOW |
       SQL_FN_TD_QUARTER | SQL_FN_TD_SECOND | SQL_FN_TD_WEEK |
       SQL_FN_TD_YEAR | SQL_FN_TD_CURRENT_DATE | SQL_FN_TD_CURRENT_TIME |
       SQL_FN_TD_CURRENT_TIMESTAMP | SQL_FN_TD_TIMESTAMPADD |
       SQL_FN_TD_TIMESTAMPDIFF),
    UI(SQL_TIMEDATE_ADD_INTERVALS, SQL_FN_TSI_SECOND | SQL_FN_TSI_MINUTE |
       SQL_FN_TSI_HOUR | SQL_FN_TSI_DAY | SQL_FN_TSI_WEEK |
       SQL_FN_TSI_MONTH | SQL_FN_TSI_QUARTER | SQL_FN_TSI_YEAR),
    UI(SQL_TIMEDATE_DIFF_INTERVALS, SQL_FN_TSI_SECOND | SQL_FN_TSI_MINUTE |
       SQL_FN_TSI_HOUR | SQL_FN_TSI_DAY | SQL_FN_TSI_WEEK |
       SQL_FN_TSI_MONTH | SQL_FN_TSI_QUARTER | SQL_FN_TSI_YEAR),
    UI(SQL_CONVERT_FUNCTIONS, SQL_FN_CVT_CONVERT),    /* no CAST */
    UI(SQL_SQL92_DATETIME_FUNCTIONS, 0),
    UI(SQL_SQL92_FOREIGN_KEY_DELETE_RULE, 0),
    UI(SQL_SQL92_FOREIGN_KEY_UPDATE_RULE, 0),
    UI(SQL_SQL92_GRANT, 0),
    UI(SQL_SQL92_NUMERIC_VALUE_FUNCTIONS, 0),
    UI(SQL_SQL92_PREDICATES, SQL_SP_BETWEEN | SQL_SP_COMPARISON |
                             SQL_SP_EXISTS | SQL_SP_IN | SQL_SP_ISNOTNULL |
                             SQL_SP_ISNULL | SQL_SP_LIKE |
                             SQL_SP_QUANTIFIED_COMPARISON),
    UI(SQL_SQL92_RELATIONAL_JOIN_OPERATORS, SQL_SRJO_CROSS_JOIN |
                                            SQL_SRJO_INNER_JOIN |
                                            SQL_SRJO_LEFT_OUTER_JOIN |
                                            SQL_SRJO_RIGHT_OUTER_JOIN),
    UI(SQL_SQL92_REVOKE, 0),
    UI(SQL_SQL92_ROW_VALUE_CONSTRUCTOR, 0),
    UI(SQL_SQL92_STRING_FUNCTIONS, 0),
    UI(SQL_SQL92_VALUE_EXPRESSIONS, 0),
    UI(SQL_INFO_SCHEMA_VIEWS, 0),

    /* ---- {fn CONVERT(x, SQL_type)} (driver/sql/func_conv.c): from every
     * number, text and date type to every number, text and date type
     * (Jet's CBool/CByte/CInt/CLng/CSng/CDbl/CDec/CStr/CDate; whether a
     * value fits is checked per value: 22003, 22018); nothing converts
     * from or to binary, GUID or intervals (HYC00). Checked against the
     * engine by tests/odbc/test_odbc_info.c. */
    UI(SQL_CONVERT_BIGINT, CVT_TO), UI(SQL_CONVERT_BINARY, 0),
    UI(SQL_CONVERT_BIT, CVT_TO), UI(SQL_CONVERT_CHAR, CVT_TO),
    UI(SQL_CONVERT_DATE, CVT_TO), UI(SQL_CONVERT_DECIMAL, CVT_TO),
    UI(SQL_CONVERT_DOUBLE, CVT_TO), UI(SQL_CONVERT_FLOAT, CVT_TO),
    UI(SQL_CONVERT_INTEGER, CVT_TO), UI(SQL_CONVERT_LONGVARCHAR, CVT_TO),
    UI(SQL_CONVERT_NUMERIC, CVT_TO), UI(SQL_CONVERT_REAL, CVT_TO),
    UI(SQL_CONVERT_SMALLINT, CVT_TO), UI(SQL_CONVERT_TIME, CVT_TO),
    UI(SQL_CONVERT_TIMESTAMP, CVT_TO), UI(SQL_CONVERT_TINYINT, CVT_TO),
    UI(SQL_CONVERT_VARBINARY, 0), UI(SQL_CONVERT_VARCHAR, CVT_TO),
    UI(SQL_CONVERT_LONGVARBINARY, 0), UI(SQL_CONVERT_GUID, 0),
    UI(SQL_CONVERT_WCHAR, CVT_TO), UI(SQL_CONVERT_WLONGVARCHAR, CVT_TO),
    UI(SQL_CONVERT_WVARCHAR, CVT_TO), UI(SQL_CONVERT_INTERVAL_DAY_TIME, 0),
    UI(SQL_CONVERT_INTERVAL_YEAR_MONTH, 0),

    /* ---- DDL: none; DML: INSERT ... VALUES and INSERT ... SELECT */
    UI(SQL_ALTER_TABLE, 0), UI(SQL_ALTER_DOMAIN, 0),
    UI(SQL_CREATE_ASSERTION, 0), UI(SQL_CREATE_CHARACTER_SET, 0),
    UI(SQL_CREATE_COLLATION, 0), UI(SQL_CREATE_DOMAIN, 0),
    UI(SQL_CREATE_SCHEMA, 0), UI(SQL_CREATE_TABLE, 0),
    UI(SQL_CREATE_TRANSLATION, 0), UI(SQL_CREATE_VIEW, 0),
    UI(SQL_DROP_ASSERTION, 0), UI(SQL_DROP_CHARACTER_SET, 0),
    UI(SQL_DROP_COLLATION, 0), UI(SQL_DROP_DOMAIN, 0),
    UI(SQL_DROP_SCHEMA, 0), UI(SQL_DROP_TABLE, 0),
    UI(SQL_DROP_TRANSLATION, 0), UI(SQL_DROP_VIEW, 0),
    UI(SQL_DDL_INDEX, 0), UI(SQL_INDEX_KEYWORDS, SQL_IK_NONE),
    UI(SQL_INSERT_STATEMENT, SQL_IS_INSERT_LITERALS |
                             SQL_IS_INSERT_SEARCHED),
};

SQLRETURN odbc_info_lookup(odbc_info_answer *out, SQLUSMALLINT info_type,
                           const odbc_info_ctx *ctx)
{
    /* Answers that depend on the connection. */
    switch (info_type) {
    case SQL_DATA_SOURCE_NAME:
        out->kind = ODBC_INFO_STR;
        out->str = (ctx && ctx->dsn) ? ctx->dsn : "";
        out->num = 0;
        return SQL_SUCCESS;
    case SQL_DATABASE_NAME:
        out->kind = ODBC_INFO_STR;
        out->str = (ctx && ctx->db_path) ? ctx->db_path : "";
        out->num = 0;
        return SQL_SUCCESS;
    case SQL_DATA_SOURCE_READ_ONLY:
        out->kind = ODBC_INFO_STR;
        out->str = ctx && ctx->read_only ? "Y" : "N";
        out->num = 0;
        return SQL_SUCCESS;
    case SQL_DBMS_VER:
        out->kind = ODBC_INFO_STR;
        out->str = (ctx && ctx->db_version) ? ctx->db_version : "00.00.0000";
        out->num = 0;
        return SQL_SUCCESS;
    default:
        break;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].id == info_type) {
            out->kind = rows[i].kind;
            out->str = rows[i].str;
            out->num = rows[i].num;
            return SQL_SUCCESS;
        }
    }
    return SQL_ERROR;
}
