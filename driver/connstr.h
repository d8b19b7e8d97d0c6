/*
 * connstr.h - ODBC connection strings ("DRIVER={x};DBQ=/p/a.mdb;PWD=...").
 *
 * Keys are case-insensitive; values may be braced ({...} with "}}" for a
 * literal brace). Later duplicates of a key are ignored, as ODBC says.
 */
#ifndef JET_DRIVER_CONNSTR_H
#define JET_DRIVER_CONNSTR_H

#include <stddef.h>

typedef struct odbc_connstr odbc_connstr;

/**
 * Parse s (UTF-8, len bytes, or NUL-terminated when len is (size_t)-1).
 * Returns NULL on out-of-memory or on a syntax error (unclosed brace, more
 * than 1024 distinct keys); the caller raises HY000/08001. Free with
 * odbc_connstr_free().
 */
odbc_connstr *odbc_connstr_parse(const char *s, size_t len);

/** Value of key (case-insensitive), or NULL. Owned by cs. */
const char *odbc_connstr_get(const odbc_connstr *cs, const char *key);

/** Number of key/value pairs, and pair i (for building the out string). */
size_t odbc_connstr_count(const odbc_connstr *cs);
void odbc_connstr_at(const odbc_connstr *cs, size_t i, const char **key,
                     const char **value);

/** Free; safe on NULL. */
void odbc_connstr_free(odbc_connstr *cs);

#endif
