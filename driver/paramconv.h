/*
 * paramconv.h - a parameter value as the SQL type the application
 * declared (SQLBindParameter's ParameterType): the one place where
 * parameter text and numbers are coerced (driver/paramconv.c).
 */
#ifndef JET_DRIVER_PARAMCONV_H
#define JET_DRIVER_PARAMCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/** What a coercion gave; the caller (stmt.c) turns the failures into
 *  diagnostics with the parameter number. */
typedef enum odbc_pconv {
    ODBC_PCONV_OK = 0,          /* *out set, or the text kept (as_text) */
    ODBC_PCONV_TRUNCATED,       /* *out set; a fraction dropped: 01S07 */
    ODBC_PCONV_NOT_NUMBER,      /* not a numeric literal: 22018 */
    ODBC_PCONV_RANGE,           /* out of the type's range: 22003 */
    ODBC_PCONV_BAD_DATE         /* the ODBC date form, not a date: 22007 */
} odbc_pconv;

/**
 * Character data (UTF-8 u8[0..n), spaces and tabs around it ignored) sent
 * for a parameter declared as SQL type sql_type, by ODBC's C-to-SQL rules
 * in the C locale whatever the process's (a period, never a comma):
 *   SQL_TINYINT .. SQL_BIGINT: a numeric literal ([+-]digits[.digits]
 *     [E[+-]digits]) read exactly, never through a double, so
 *     '9007199254740993' stays that integer; a fraction is dropped
 *     (TRUNCATED); past the type's range RANGE;
 *   SQL_BIT: 0 False, 1 and -1 True, other values in (0, 2) True with
 *     TRUNCATED, else RANGE;
 *   SQL_REAL, SQL_FLOAT, SQL_DOUBLE: the nearest Single/Double; RANGE past
 *     it;
 *   SQL_DECIMAL, SQL_NUMERIC: checked as a literal (NOT_NUMBER, RANGE past
 *     a Double) and kept as text (*as_text), which the engine reads
 *     exactly;
 *   SQL_TYPE_DATE/TIMESTAMP (and ODBC 2's): text in the ODBC form
 *     yyyy-mm-dd[ hh:mm[:ss[.f]]] must be a real date and time (BAD_DATE);
 *     other spellings are kept as text for the engine, as Access reads
 *     them;
 *   other types: kept as text.
 * *out is set (type, value, is_null false) when not *as_text. No
 * allocation.
 */
odbc_pconv odbc_param_from_text(jet_value *out, bool *as_text,
                                const char *u8, size_t n, int sql_type);

/**
 * A number (the integer iv when is_int, else the double dv) sent for a
 * parameter declared as SQL type sql_type: the rules above for BIT, the
 * integer types (a fraction dropped: TRUNCATED), REAL, FLOAT and DOUBLE.
 * Returns OK without touching *out for the other types (the engine
 * compares them as given).
 */
odbc_pconv odbc_param_from_number(jet_value *out, bool is_int, int64_t iv,
                                  double dv, int sql_type);

/**
 * A numeric literal (UTF-8 u8[0..n), spaces and tabs around it ignored;
 * [+-]digits[.digits][E[+-]digits] in the C locale) as a Decimal of
 * scale decimal places (0..28; SQLBindParameter's DecimalDigits of an
 * SQL_DECIMAL or SQL_NUMERIC parameter): *out a JET_T_NUMERIC of that
 * scale and precision (1..28; 28 past it), the digits past the scale cut
 * off, as Access cuts a Decimal's (104.7668 at scale 2 is 104.76; a
 * nonzero digit cut off: TRUNCATED, SQLSTATE 01S07 by ODBC's rules for a
 * character source to a numeric target). NOT_NUMBER when it is no
 * literal, RANGE past Decimal's 28 digits. No allocation.
 */
odbc_pconv odbc_param_decimal(jet_value *out, const char *u8, size_t n,
                              int scale, int precision);

/**
 * The Jet type of SQL type sql_type as a parameter's value has it: what a
 * NULL bound as that type is typed with (the engine types `SELECT ?` by
 * it, as Access does). BIT Yes/No, TINYINT Byte, SMALLINT Integer,
 * INTEGER Long, BIGINT Large Number, REAL Single, FLOAT and DOUBLE Double,
 * DECIMAL and NUMERIC Decimal, dates and times Date/Time, binary types
 * Binary, GUID; JET_T_TEXT for the character types and any other.
 */
jet_type odbc_param_jet_type(int sql_type);

/** True when y-m-d is a real date (proleptic Gregorian, month 1..12). */
bool odbc_param_date_ok(int y, int m, int d);

#endif
