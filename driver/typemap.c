/*
 * typemap.c - the one table of Access types as ODBC sees them.
 *
 * Names and SQL types follow Microsoft's Access ODBC driver (learn.microsoft
 * .com "Microsoft Access Data Types"; docs/odbc-clients.md 1.2): TEXT is
 * VARCHAR reported as SQL_WVARCHAR, MEMO is LONGCHAR (SQL_WLONGVARCHAR),
 * Single is REAL (SQL_REAL, not SQL_FLOAT), Currency is CURRENCY
 * (SQL_NUMERIC 19,4, fixed scale), autonumber LONG is COUNTER.
 *
 *  jet_type        TYPE_NAME   DATA_TYPE            COLUMN_SIZE   DIGITS
 *  BOOL            BIT         SQL_BIT              1             -
 *  BYTE            BYTE        SQL_TINYINT (uns.)   3             0
 *  INT             SMALLINT    SQL_SMALLINT         5             0
 *  LONG            INTEGER     SQL_INTEGER          10            0
 *  LONG autonumber COUNTER     SQL_INTEGER          10            0
 *  BIGINT          BIGINT      SQL_BIGINT           19            0
 *  MONEY           CURRENCY    SQL_NUMERIC          19            4
 *  FLOAT           REAL        SQL_REAL             24 (radix 2)  -
 *  DOUBLE          DOUBLE      SQL_DOUBLE           53 (radix 2)  -
 *  DATETIME        DATETIME    SQL_TYPE_TIMESTAMP   23            3
 *  EXT_DATETIME    DATETIME2   SQL_WVARCHAR         27            -
 *  BINARY          VARBINARY   SQL_VARBINARY        length bytes  -
 *  OLE             LONGBINARY  SQL_LONGVARBINARY    1073741823    -
 *  TEXT            VARCHAR     SQL_WVARCHAR         chars         -
 *  TEXT fixed      CHAR        SQL_WCHAR            chars         -
 *  MEMO            LONGCHAR    SQL_WLONGVARCHAR     1073741823    -
 *  GUID            GUID        SQL_GUID             36            -
 *  NUMERIC         DECIMAL     SQL_NUMERIC          precision     scale
 *  COMPLEX         INTEGER     SQL_INTEGER          10            0
 *  unknown         LONGBINARY  SQL_LONGVARBINARY    1073741823    -
 *
 * Choices, where the reference driver is silent or we differ on purpose:
 *  - REAL/DOUBLE give binary precision (24/53 bits, NUM_PREC_RADIX 2), as
 *    ODBC's column-size appendix defines for approximate types.
 *  - Octet lengths follow ODBC's "transfer octet length": fixed C sizes for
 *    numbers, 16 for timestamps and GUIDs, 2 bytes per character for the
 *    W types, precision + 2 for NUMERIC (ACE says 16 for every DECIMAL,
 *    which makes clients round wrongly: Dolphin#778; we do not copy that).
 *  - DATETIME2 is our name for Date/Time Extended (ACE 17; Access pairs it
 *    with SQL Server's datetime2). It is reported as text,
 *    "YYYY-MM-DD HH:MM:SS.fffffff", because its 100 ns precision does not
 *    survive the clients' timestamp types (pyodbc's datetime keeps
 *    microseconds); SQL_C_TYPE_TIMESTAMP still converts it, exactly.
 *  - DATETIME is TIMESTAMP(23, 3): Access keeps milliseconds (the value
 *    is a double of days), and convert.c writes ".fff" when they are not
 *    zero, so 23 characters is the width the text takes; pyodbc reads
 *    the type-info COLUMN_SIZE to decide how many fraction digits of a
 *    datetime parameter to keep (19 would drop them).
 *  - MEMO and OLE report 1073741823 here; the connection may report less
 *    (DSN key MaxLongSize, applied by odbc_type_cap_long) so clients that
 *    size buffers from COLUMN_SIZE stay sane.
 *  - Complex columns (attachments, multi-value) expose the stored int32
 *    row id as INTEGER; their contents live in hidden tables.
 *  - LONG with JET_COL_AUTONUMBER becomes COUNTER (AUTO_UNIQUE_VALUE TRUE).
 *  - A calculated Text column is VARCHAR(255): its TDEF length is the
 *    stored wrapper's (509 bytes), Access shows the result as Text 255.
 *  - NULLABLE follows the Required property (JET_COL_REQUIRED, from the
 *    column properties): the TDEF's nullable bit stays set on Required
 *    columns, so it alone would call every column nullable.
 *  - Text types are case-insensitive (Access compares names and text
 *    case-insensitively), so CASE_SENSITIVE is FALSE everywhere.
 *  - SEARCHABLE: text SQL_SEARCHABLE (=, <, LIKE), MEMO SQL_PRED_CHAR
 *    (LIKE only), OLE/long binary SQL_PRED_NONE, the rest SQL_PRED_BASIC
 *    (everything but LIKE), as the Access driver answers.
 *  - Literal prefixes/suffixes are Access SQL's: '...', #...#, 0x...,
 *    {guid {...}}; for clients that build SQL (we parse none of them yet).
 */
#include "config.h"

#include "typemap.h"

#include <string.h>

/* SEARCHABLE of the non-text types: any predicate but LIKE. Text types
 * (VARCHAR, DATETIME2 text) are SQL_SEARCHABLE, LONGCHAR SQL_PRED_CHAR,
 * LONGBINARY SQL_PRED_NONE (set in their rows). */
#define SEARCHABLE SQL_PRED_BASIC

/* Long-value sizes the Access driver reports: 2^30 - 1. */
#define LONG_SIZE 1073741823
#define LONG_WIDE_OCTETS 2147483646

/* Rows in SQLGetTypeInfo order: DATA_TYPE ascending (GUID -11 ...
 * TIMESTAMP 93), then the closest mapping first (DECIMAL before CURRENCY,
 * INTEGER before COUNTER, VARCHAR before DATETIME2). */
enum {
    T_GUID, T_LONGCHAR, T_VARCHAR, T_DATETIME2, T_CHAR, T_BIT, T_BYTE, T_BIGINT, T_LONGBINARY,
    T_VARBINARY, T_DECIMAL, T_CURRENCY, T_INTEGER, T_COUNTER, T_SMALLINT,
    T_REAL, T_DOUBLE, T_DATETIME, T_COUNT
};

/*
 * Field order: type_name, sql_type, column_size, decimal_digits,
 * octet_length, num_prec_radix, unsigned_attr, searchable, case_sensitive,
 * fixed_prec_scale, auto_unique, literal_prefix, literal_suffix,
 * create_params, min_scale, max_scale, default_c_type.
 */
static const odbc_type_info types[T_COUNT] = {
    [T_BIT] = { "BIT", SQL_BIT, 1, -1, 1, 0, -1, SEARCHABLE,
                SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL, NULL, NULL, -1, -1,
                SQL_C_BIT },
    [T_BYTE] = { "BYTE", SQL_TINYINT, 3, 0, 1, 10, SQL_TRUE, SEARCHABLE,
                 SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL, NULL, NULL, 0, 0,
                 SQL_C_UTINYINT },
    [T_SMALLINT] = { "SMALLINT", SQL_SMALLINT, 5, 0, 2, 10, SQL_FALSE,
                     SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL,
                     NULL, NULL, 0, 0, SQL_C_SSHORT },
    [T_INTEGER] = { "INTEGER", SQL_INTEGER, 10, 0, 4, 10, SQL_FALSE,
                    SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL,
                    NULL, NULL, 0, 0, SQL_C_SLONG },
    [T_COUNTER] = { "COUNTER", SQL_INTEGER, 10, 0, 4, 10, SQL_FALSE,
                    SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_TRUE, NULL,
                    NULL, NULL, 0, 0, SQL_C_SLONG },
    [T_BIGINT] = { "BIGINT", SQL_BIGINT, 19, 0, 8, 10, SQL_FALSE,
                   SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL,
                   NULL, NULL, 0, 0, SQL_C_SBIGINT },
    [T_CURRENCY] = { "CURRENCY", SQL_NUMERIC, 19, 4, 21, 10, SQL_FALSE,
                     SEARCHABLE, SQL_FALSE, SQL_TRUE, SQL_FALSE, NULL,
                     NULL, NULL, 4, 4, SQL_C_CHAR },
    [T_REAL] = { "REAL", SQL_REAL, 24, -1, 4, 2, SQL_FALSE, SEARCHABLE,
                 SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL, NULL, NULL, -1, -1,
                 SQL_C_FLOAT },
    [T_DOUBLE] = { "DOUBLE", SQL_DOUBLE, 53, -1, 8, 2, SQL_FALSE,
                   SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL,
                   NULL, NULL, -1, -1, SQL_C_DOUBLE },
    [T_DATETIME] = { "DATETIME", SQL_TYPE_TIMESTAMP, 23, 3, 16, 0, -1,
                     SEARCHABLE, SQL_FALSE, SQL_FALSE, -1, "#", "#",
                     NULL, 3, 3, SQL_C_TYPE_TIMESTAMP },
    [T_DATETIME2] = { "DATETIME2", SQL_WVARCHAR, 27, -1, 54, 0, -1,
                      SQL_SEARCHABLE, SQL_FALSE, SQL_FALSE, -1, "'", "'",
                      NULL, -1, -1, SQL_C_WCHAR },
    [T_VARBINARY] = { "VARBINARY", SQL_VARBINARY, 255, -1, 255, 0, -1,
                      SEARCHABLE, SQL_FALSE, SQL_FALSE, -1, "0x", NULL,
                      "max length", -1, -1, SQL_C_BINARY },
    [T_LONGBINARY] = { "LONGBINARY", SQL_LONGVARBINARY, LONG_SIZE, -1,
                       LONG_SIZE, 0, -1, SQL_PRED_NONE, SQL_FALSE, SQL_FALSE,
                       -1, "0x", NULL, NULL, -1, -1, SQL_C_BINARY },
    [T_VARCHAR] = { "VARCHAR", SQL_WVARCHAR, 255, -1, 510, 0, -1,
                    SQL_SEARCHABLE, SQL_FALSE, SQL_FALSE, -1, "'", "'",
                    "max length", -1, -1, SQL_C_WCHAR },
    [T_CHAR] = { "CHAR", SQL_WCHAR, 255, -1, 510, 0, -1, SQL_SEARCHABLE,
                 SQL_FALSE, SQL_FALSE, -1, "'", "'", "length", -1, -1,
                 SQL_C_WCHAR },
    [T_LONGCHAR] = { "LONGCHAR", SQL_WLONGVARCHAR, LONG_SIZE, -1,
                     LONG_WIDE_OCTETS, 0, -1, SQL_PRED_CHAR, SQL_FALSE,
                     SQL_FALSE, -1, "'", "'", NULL, -1, -1, SQL_C_WCHAR },
    [T_GUID] = { "GUID", SQL_GUID, 36, -1, 16, 0, -1, SEARCHABLE,
                 SQL_FALSE, SQL_FALSE, -1, "{guid {", "}}", NULL, -1, -1,
                 SQL_C_GUID },
    [T_DECIMAL] = { "DECIMAL", SQL_NUMERIC, 28, 0, 30, 10, SQL_FALSE,
                    SEARCHABLE, SQL_FALSE, SQL_FALSE, SQL_FALSE, NULL,
                    NULL, "precision,scale", 0, 28, SQL_C_CHAR },
};

const odbc_type_info *odbc_type_info_rows(size_t *count)
{
    if (count)
        *count = T_COUNT;
    return types;
}

void odbc_type_cap_long(odbc_type_info *ti, SQLULEN cap)
{
    if (cap == 0 || ti->column_size <= cap)
        return;
    if (ti->sql_type == SQL_WLONGVARCHAR) {
        ti->column_size = cap;
        ti->octet_length = (SQLLEN)cap * 2;
    } else if (ti->sql_type == SQL_LONGVARBINARY) {
        ti->column_size = cap;
        ti->octet_length = (SQLLEN)cap;
    }
}

SQLSMALLINT odbc_column_nullable(const jet_column *col)
{
    if ((col->flags & JET_COL_REQUIRED) || !(col->flags & JET_COL_NULLABLE))
        return SQL_NO_NULLS;
    return SQL_NULLABLE;
}

void odbc_type_for_column(odbc_type_info *out, const jet_db *db,
                          const jet_column *col)
{
    jet_type t = col->type;
    /* Calculated columns store their result; describe that. */
    if (col->flags & JET_COL_CALCULATED)
        t = col->result_type;

    switch (t) {
    case JET_T_BOOL:     *out = types[T_BIT]; break;
    case JET_T_BYTE:     *out = types[T_BYTE]; break;
    case JET_T_INT:      *out = types[T_SMALLINT]; break;
    case JET_T_LONG:
        *out = types[(col->flags & JET_COL_AUTONUMBER) ? T_COUNTER
                                                       : T_INTEGER];
        break;
    case JET_T_COMPLEX:  *out = types[T_INTEGER]; break;
    case JET_T_BIGINT:   *out = types[T_BIGINT]; break;
    case JET_T_MONEY:    *out = types[T_CURRENCY]; break;
    case JET_T_FLOAT:    *out = types[T_REAL]; break;
    case JET_T_DOUBLE:   *out = types[T_DOUBLE]; break;
    case JET_T_DATETIME: *out = types[T_DATETIME]; break;
    case JET_T_EXT_DATETIME: *out = types[T_DATETIME2]; break;
    case JET_T_OLE:      *out = types[T_LONGBINARY]; break;
    case JET_T_MEMO:     *out = types[T_LONGCHAR]; break;
    case JET_T_GUID:     *out = types[T_GUID]; break;
    case JET_T_BINARY:
        *out = types[T_VARBINARY];
        if (col->length > 0) {
            out->column_size = col->length;
            out->octet_length = col->length;
        }
        break;
    case JET_T_TEXT: {
        /* a fixed-length Text field (CHAR(n) in DDL) is stored in the
         * row's fixed area, padded with spaces: ODBC's SQL_WCHAR */
        *out = types[(col->flags & JET_COL_FIXED) ? T_CHAR : T_VARCHAR];
        /* Jet3 stores code-page bytes (1 per char); Jet4/ACE UCS-2 (2).
         * db NULL means "not Jet3" (tests, and no db is never Jet3). */
        size_t chars = col->length;
        if (!db || jet_db_version(db) != JET_VER_3)
            chars = col->length / 2;
        /* a calculated Text column: its length is the stored wrapper's
         * (509 bytes), its result a Text of Access's maximum, 255 */
        if (col->flags & JET_COL_CALCULATED)
            chars = 255;
        if (chars > 0) {
            out->column_size = chars;
            out->octet_length = (SQLLEN)(chars * 2);
        }
        break;
    }
    case JET_T_NUMERIC: {
        *out = types[T_DECIMAL];
        unsigned prec = col->precision, scale = col->scale;
        if (prec < 1 || prec > 28)
            prec = 18;              /* Access's default Decimal precision */
        if (scale > prec)
            scale = 0;
        out->column_size = prec;
        out->decimal_digits = (SQLSMALLINT)scale;
        out->octet_length = (SQLLEN)prec + 2;   /* sign and point */
        break;
    }
    default:
        *out = types[T_LONGBINARY];
        break;
    }
}
