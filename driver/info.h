/*
 * info.h - the answers of SQLGetInfo, as data.
 *
 * info.c holds one table with an answer for every InfoType ODBC 3.8
 * defines. The API layer looks the answer up and writes it into the
 * application's buffer (string or integer, narrow or wide).
 */
#ifndef JET_DRIVER_INFO_H
#define JET_DRIVER_INFO_H

#include <sql.h>
#include <sqlext.h>

#include "odbc38.h"

/** What the connection can tell info.c (all strings UTF-8, may be NULL). */
typedef struct odbc_info_ctx {
    const char *dsn;            /* data source name, or NULL (DSN-less) */
    const char *db_path;        /* DBQ, the file path */
    const char *db_version;     /* e.g. "04.00.0000" (Jet4), or NULL */
    int connected;              /* 0 before SQLConnect */
    int read_only;              /* writes are refused: ReadOnly=1,
                                   SQL_MODE_READ_ONLY or a Jet3 file */
} odbc_info_ctx;

typedef enum odbc_info_kind {
    ODBC_INFO_STR,      /* answer.str, written as a string */
    ODBC_INFO_USHORT,   /* answer.num as SQLUSMALLINT */
    ODBC_INFO_UINT,     /* answer.num as SQLUINTEGER (bitmasks too) */
    ODBC_INFO_ULEN      /* answer.num as SQLULEN (handles, pointers) */
} odbc_info_kind;

typedef struct odbc_info_answer {
    odbc_info_kind kind;
    const char *str;    /* static or from ctx; valid while ctx is */
    SQLULEN num;
} odbc_info_answer;

/**
 * Look up info_type. Returns SQL_SUCCESS with *out filled, or SQL_ERROR
 * when the InfoType is unknown (caller raises HY096).
 */
SQLRETURN odbc_info_lookup(odbc_info_answer *out, SQLUSMALLINT info_type,
                           const odbc_info_ctx *ctx);

#endif
