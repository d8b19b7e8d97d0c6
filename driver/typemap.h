/*
 * typemap.h - how Access column types appear through ODBC.
 *
 * One table maps each jet_type to its ODBC SQL type, the TYPE_NAME that
 * Microsoft's Access driver reports, sizes and flags. SQLDescribeCol,
 * SQLColAttribute, SQLColumns and SQLGetTypeInfo all read it, so they can
 * never disagree.
 */
#ifndef JET_DRIVER_TYPEMAP_H
#define JET_DRIVER_TYPEMAP_H

#include <sql.h>
#include <sqlext.h>
#include "jet.h"

/** ODBC view of one Access type (static data, never freed). */
typedef struct odbc_type_info {
    const char *type_name;      /* e.g. "VARCHAR", "COUNTER", "CURRENCY" */
    SQLSMALLINT sql_type;       /* concise SQL type, e.g. SQL_WVARCHAR */
    SQLULEN column_size;        /* default COLUMN_SIZE (chars/digits) */
    SQLSMALLINT decimal_digits; /* default DECIMAL_DIGITS, or -1 = NULL */
    SQLLEN octet_length;        /* bytes of the default C representation */
    SQLSMALLINT num_prec_radix; /* 10, 2 or 0 = NULL */
    SQLSMALLINT unsigned_attr;  /* SQL_TRUE/SQL_FALSE, -1 = NULL */
    SQLSMALLINT searchable;     /* SQL_PRED_* */
    SQLSMALLINT case_sensitive; /* SQL_TRUE/SQL_FALSE */
    SQLSMALLINT fixed_prec_scale; /* SQL_TRUE for CURRENCY */
    SQLSMALLINT auto_unique;    /* SQL_TRUE for COUNTER */
    const char *literal_prefix; /* or NULL */
    const char *literal_suffix; /* or NULL */
    const char *create_params;  /* or NULL */
    SQLSMALLINT min_scale, max_scale; /* -1 = NULL */
    SQLSMALLINT default_c_type; /* SQL_C_DEFAULT resolves to this */
} odbc_type_info;

/**
 * The ODBC description of a table column: its type info with sizes taken
 * from the column (TEXT length in characters, NUMERIC precision/scale,
 * COUNTER for autonumber LONG, calculated columns by their result type).
 * Always returns a filled struct; unknown types map to SQL_LONGVARBINARY.
 */
void odbc_type_for_column(odbc_type_info *out, const jet_db *db,
                          const jet_column *col);

/**
 * NULLABLE of a table column: SQL_NO_NULLS when its "Required" property is
 * Yes (JET_COL_REQUIRED) or the TDEF says it cannot be NULL, otherwise
 * SQL_NULLABLE - what Access's driver reports in SQLColumns.
 */
SQLSMALLINT odbc_column_nullable(const jet_column *col);

/**
 * Cap the COLUMN_SIZE reported for a long type (LONGCHAR, LONGBINARY) at
 * cap characters or bytes (octet length follows: 2 bytes per character
 * for LONGCHAR); other types and cap 0 leave ti unchanged. What the
 * driver returns is never cut to it: only the size clients plan for.
 */
void odbc_type_cap_long(odbc_type_info *ti, SQLULEN cap);

/** Rows of SQLGetTypeInfo, ordered by DATA_TYPE then closeness (ODBC rule);
 *  *count receives the number of rows. Static data. */
const odbc_type_info *odbc_type_info_rows(size_t *count);

#endif
