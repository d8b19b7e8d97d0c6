/*
 * wide.h - SQLWCHAR <-> UTF-8 for the W entry points.
 *
 * The width of SQLWCHAR is decided here and only here: 2 bytes (UTF-16)
 * with unixODBC and Windows, 4 bytes (UTF-32) with iODBC. All other driver
 * code works in UTF-8.
 */
#ifndef JET_DRIVER_WIDE_H
#define JET_DRIVER_WIDE_H

#include <sql.h>
#include <sqlucode.h>
#include <stddef.h>

/**
 * Convert len SQLWCHAR units (SQL_NTS = NUL-terminated) to a fresh
 * NUL-terminated UTF-8 string (caller frees with free()). NULL input gives
 * NULL with *ok = 1; allocation failure gives NULL with *ok = 0.
 * Invalid surrogates become U+FFFD.
 */
char *odbc_wide_to_utf8(const SQLWCHAR *w, SQLINTEGER len, int *ok);

/** odbc_wide_to_utf8, also giving the UTF-8 length in bytes in *out_len
 *  (when not NULL): a value with NUL characters keeps them. */
char *odbc_wide_to_utf8_len(const SQLWCHAR *w, SQLINTEGER len, int *ok,
                            size_t *out_len);

/**
 * Convert UTF-8 (len bytes) into out (cap SQLWCHAR units, including room for
 * the NUL); writes as many whole characters as fit, always NUL-terminates
 * when cap > 0, and returns the full length in SQLWCHAR units (without NUL)
 * so callers can report truncation (01004).
 */
size_t odbc_utf8_to_wide(SQLWCHAR *out, size_t cap, const char *s, size_t len);

/** Length in SQLWCHAR units that the UTF-8 string s (len bytes) needs. */
size_t odbc_utf8_wide_len(const char *s, size_t len);

#endif
