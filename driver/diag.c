/*
 * diag.c - diagnostic records and the jet_rc -> SQLSTATE mapping.
 */
#include "config.h"

#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MSG_PREFIX "[jetodbc]"

/* Access's message for a duplicate key (Jet error 3022): the core's
 * JET_EDUPLICATE text begins with its first sentence */
#define DUPLICATE_HEAD                                                    \
    "The changes you requested to the table were not successful because " \
    "they would create duplicate values in the index, primary key, or "   \
    "relationship"
#define DUPLICATE_TEXT                                                    \
    DUPLICATE_HEAD ". Change the data in the field or fields that "       \
    "contain duplicate data, remove the index, or redefine the index to " \
    "permit duplicate entries and try again."

/* Access's message for a row a validation rule refuses (Jet error 3317):
 * the core's detail holds its first sentence (driver/sql/rules.h
 * SQL_RULE_PROHIBITED ... '<rule>' set for '<table>.<field>'.) */
#define RULE_HEAD "One or more values are prohibited by the validation rule"
#define RULE_TAIL " Enter a value that the expression for this field can " \
                  "accept."

static SQLRETURN vadd(odbc_diag *d, SQLLEN row, SQLINTEGER col,
                      const char *state, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static SQLRETURN vadd(odbc_diag *d, SQLLEN row, SQLINTEGER col,
                      const char *state, const char *fmt, va_list ap)
{
    SQLRETURN ret = (state[0] == '0' && state[1] == '1')
                        ? SQL_SUCCESS_WITH_INFO : SQL_ERROR;
    if (d->count >= ODBC_DIAG_MAX)
        return ret;
    odbc_diag_rec *r = &d->rec[d->count++];
    memset(r->sqlstate, 0, sizeof r->sqlstate);
    strncpy(r->sqlstate, state, 5);
    r->native = 0;
    r->row_number = row;
    r->col_number = col;
    int n = snprintf(r->msg, sizeof r->msg, "%s", MSG_PREFIX);
    if (n < 0)
        n = 0;
    vsnprintf(r->msg + n, sizeof r->msg - (size_t)n, fmt, ap);
    return ret;
}

SQLRETURN odbc_diag_add(odbc_diag *d, const char *state, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    SQLRETURN ret = vadd(d, SQL_NO_ROW_NUMBER, SQL_NO_COLUMN_NUMBER, state,
                         fmt, ap);
    va_end(ap);
    return ret;
}

SQLRETURN odbc_diag_add_rc(odbc_diag *d, SQLLEN row, SQLINTEGER col,
                           const char *state, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    SQLRETURN ret = vadd(d, row, col, state, fmt, ap);
    va_end(ap);
    return ret;
}

SQLRETURN odbc_diag_jet(odbc_diag *d, jet_rc rc, const jet_error *err,
                        odbc_diag_ctx ctx)
{
    const char *msg = (err && err->rc == rc && err->msg[0]) ? err->msg
                                                            : jet_rc_str(rc);
    uint32_t pgno = (err && err->rc == rc) ? err->pgno : UINT32_MAX;

    switch (rc) {
    case JET_ENOMEM:
        if (!strcmp(msg, jet_rc_str(rc)))
            return odbc_diag_add(d, "HY001", "%s", msg);
        return odbc_diag_add(d, "HY001", "out of memory: %s", msg);
    case JET_ECORRUPT:
        /* core's messages at open already say "damaged file '<path>'";
         * most others name their page; add what is missing only */
        if (!strncmp(msg, "damaged file", 12))
            return odbc_diag_add(d, "HY000", "%s", msg);
        if (pgno != UINT32_MAX && !strstr(msg, "page"))
            return odbc_diag_add(d, "HY000", "damaged file, page %u: %s",
                                 (unsigned)pgno, msg);
        return odbc_diag_add(d, "HY000", "damaged file: %s", msg);
    case JET_EUNSUPPORTED:
        return odbc_diag_add(d, "HYC00", "not supported: %s", msg);
    case JET_EPASSWORD:
        return odbc_diag_add(d, "28000", "%s", msg);
    case JET_ENOTFOUND:
        return odbc_diag_add(d, ctx == DIAG_CTX_COLUMN ? "42S22" : "42S02",
                             "%s", msg);
    case JET_EINTERRUPTED:
        return odbc_diag_add(d, "HY008", "operation cancelled: %s", msg);
    case JET_ELIMIT:
        return odbc_diag_add(d, "HY000", "size limit exceeded: %s", msg);
    case JET_EBUSY:
        return odbc_diag_add(d, "HYT00", "database is locked: %s", msg);
    case JET_EREADONLY:
        return odbc_diag_add(d, "HY000", "%s", msg);
    case JET_EDUPLICATE:
        /* the core's first sentence is Access's (error 3022); Access goes
         * on with what to do, which the core's 256 bytes leave out */
        if (!strncmp(msg, DUPLICATE_HEAD, sizeof DUPLICATE_HEAD - 1))
            return odbc_diag_add(d, "23000", "%s%s", DUPLICATE_TEXT,
                                 msg + sizeof DUPLICATE_HEAD - 1);
        return odbc_diag_add(d, "23000", "%s", msg);
    case JET_ECONSTRAINT:
        if (!strncmp(msg, RULE_HEAD, sizeof RULE_HEAD - 1) &&
            !strstr(msg, RULE_TAIL))
            return odbc_diag_add(d, "23000", "%s%s", msg, RULE_TAIL);
        return odbc_diag_add(d, "23000", "%s", msg);
    case JET_ETOOLONG:
        return odbc_diag_add(d, "22001", "%s", msg);
    case JET_EIO:
    case JET_EFORMAT:
    case JET_EARGUMENT:
        return odbc_diag_add(d, ctx == DIAG_CTX_CONNECT ? "08001" : "HY000",
                             "%s", msg);
    case JET_OK:
    case JET_DONE:
        break;
    }
    return odbc_diag_add(d, "HY000", "internal error %d: %s", (int)rc, msg);
}

SQLRETURN odbc_diag_sql(odbc_diag *d, const sql_error *e, odbc_diag_ctx ctx)
{
    if (!e->sqlstate[0] && e->rc < 0) {
        jet_error je;
        je.rc = (jet_rc)e->rc;
        je.pgno = e->pgno;
        snprintf(je.msg, sizeof je.msg, "%s", e->msg);
        return odbc_diag_jet(d, je.rc, &je, ctx);
    }
    const char *state = e->sqlstate[0] ? e->sqlstate : "42000";
    if (e->position && !strstr(e->msg, "(at character"))
        return odbc_diag_add(d, state, "%s (at character %zu)", e->msg,
                             e->position);
    return odbc_diag_add(d, state, "%s", e->msg);
}
