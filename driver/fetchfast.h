/*
 * fetchfast.h - per-column conversion functions chosen once per result
 * column (at the first fetch after binding) instead of per value.
 *
 * odbc_convert() decides by switching on the value's type and the C type
 * for every value; a scan converts millions of values of a few fixed
 * (source type, C type) pairs. odbc_fast_put_for() picks, for one pair, a
 * function with odbc_convert()'s signature and results that skips that
 * dispatch; for any other pair it returns odbc_convert itself. The
 * functions fall back to odbc_convert() whenever the value is not the
 * simple case (NULL handling aside): a short buffer, a value out of range.
 */
#ifndef JET_DRIVER_FETCHFAST_H
#define JET_DRIVER_FETCHFAST_H

#include "convert.h"

/** A conversion of one value: odbc_convert()'s contract. */
typedef odbc_conv_status (*odbc_put_fn)(odbc_conv *cv, const jet_value *v,
                                        SQLSMALLINT c_type, SQLPOINTER ptr,
                                        SQLLEN buflen, SQLLEN *ind);

/**
 * The conversion for values of jet type src into C type c_type (resolved:
 * no SQL_C_DEFAULT / SQL_ARD_TYPE). The result gives exactly what
 * odbc_convert() gives for such values (it may be odbc_convert itself),
 * but may leave cv's repr_* fields as they were, so use it where those
 * are not read (bound columns; not SQLGetData).
 */
odbc_put_fn odbc_fast_put_for(jet_type src, SQLSMALLINT c_type);

/**
 * A cell getter: one value of a column read straight from its row
 * (jet_row_cell: p and n, never NULL) into C type buffer ptr (buflen
 * bytes) and *ind, with odbc_convert()'s result for it. Returns 1 when
 * done, 0 when the value is not the simple case (a short buffer, a value
 * out of range or of another form): nothing was decided and the caller
 * converts it the general way (the buffer may have been written).
 * db: the connection's database (code page).
 */
typedef int (*odbc_cell_fn)(const jet_db *db, const uint8_t *p, size_t n,
                            SQLPOINTER ptr, SQLLEN buflen, SQLLEN *ind);

/**
 * The cell getter for values of jet type src in a JET_CELL_FIXED or
 * JET_CELL_TEXT column into resolved C type c_type, or NULL when there is
 * none (odbc_fast_put_for's pairs minus Single, Currency and Boolean).
 * Like odbc_fast_put_for's functions it ignores SQL_ATTR_MAX_LENGTH: use
 * it only where odbc_fast_put_for's pick would be used.
 */
odbc_cell_fn odbc_fast_cell_for(jet_type src, SQLSMALLINT c_type);

#endif
