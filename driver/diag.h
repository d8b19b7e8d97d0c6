/*
 * diag.h - diagnostic records of a handle (SQLGetDiagRec/Field).
 *
 * Each handle owns one odbc_diag; the export clears it at the start of a
 * call and the odbc_* functions add records. diag.c also holds the one
 * mapping from core jet_rc codes to SQLSTATEs.
 */
#ifndef JET_DRIVER_DIAG_H
#define JET_DRIVER_DIAG_H

#include <sql.h>
#include <sqlext.h>

#include "jet.h"
#include "sql/sql.h"

#define ODBC_DIAG_MAX 8

/** One diagnostic record. */
typedef struct odbc_diag_rec {
    char sqlstate[6];
    SQLINTEGER native;
    char msg[512];              /* UTF-8, with the "[jetodbc]" prefix */
    SQLLEN row_number;          /* SQL_NO_ROW_NUMBER when not row-related */
    SQLINTEGER col_number;      /* SQL_NO_COLUMN_NUMBER likewise */
} odbc_diag_rec;

/** The diagnostic area of a handle. */
typedef struct odbc_diag {
    int count;
    SQLRETURN ret;              /* SQL_DIAG_RETURNCODE */
    SQLLEN row_count;           /* SQL_DIAG_ROW_COUNT */
    SQLLEN cursor_row_count;
    int error_fetched;          /* SQLError(): records already returned */
    odbc_diag_rec rec[ODBC_DIAG_MAX];
} odbc_diag;

/** Forget all records (start of every call; inline: every export runs
 *  it, SQLGetData once per value). */
static inline void odbc_diag_clear(odbc_diag *d)
{
    d->count = 0;
    d->ret = SQL_SUCCESS;
    d->row_count = 0;
    d->cursor_row_count = 0;
    d->error_fetched = 0;
}

/**
 * Add a record with SQLSTATE state and a printf-style message. Returns
 * SQL_ERROR, or SQL_SUCCESS_WITH_INFO for class 01 states, so callers can
 * write `return odbc_diag_add(...)`. Records past ODBC_DIAG_MAX are dropped.
 */
SQLRETURN odbc_diag_add(odbc_diag *d, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** Like odbc_diag_add with row and column numbers (fetch errors). */
SQLRETURN odbc_diag_add_rc(odbc_diag *d, SQLLEN row, SQLINTEGER col,
                           const char *state, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Where a core error happened; chooses the SQLSTATE of EIO/EFORMAT and
 *  ENOTFOUND. */
typedef enum odbc_diag_ctx {
    DIAG_CTX_CONNECT,           /* EIO/EFORMAT -> 08001 */
    DIAG_CTX_TABLE,             /* ENOTFOUND -> 42S02 */
    DIAG_CTX_COLUMN,            /* ENOTFOUND -> 42S22 */
    DIAG_CTX_OTHER              /* EIO/EFORMAT -> HY000 */
} odbc_diag_ctx;

/**
 * Add the record for a failed core call: the one jet_rc -> SQLSTATE map.
 * ENOMEM HY001, ECORRUPT HY000 ("damaged file, page N: ..."), EUNSUPPORTED
 * HYC00, EPASSWORD 28000, ENOTFOUND 42S02/42S22, EINTERRUPTED HY008,
 * ELIMIT HY000, EIO/EFORMAT 08001 at connect else HY000. err may be NULL.
 * Returns SQL_ERROR.
 */
SQLRETURN odbc_diag_jet(odbc_diag *d, jet_rc rc, const jet_error *err,
                        odbc_diag_ctx ctx);

/**
 * Add the record for a failed engine call (sql.h): a core failure
 * (sqlstate "", rc < 0) through odbc_diag_jet with its page and message;
 * an SQL error the engine raised with its own SQLSTATE (42000 when none)
 * and its message, "(at character N)" added when it has a position its
 * text does not give. Returns SQL_ERROR (SQL_SUCCESS_WITH_INFO for 01xxx).
 */
SQLRETURN odbc_diag_sql(odbc_diag *d, const sql_error *e, odbc_diag_ctx ctx);

#endif
