/*
 * error.c - record error detail where a problem is seen (jet_fail).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

jet_rc jet_fail(jet_error *err, jet_rc rc, uint32_t pgno, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->rc = rc;
        err->pgno = pgno;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return rc;
}

void jet_error_clear(jet_error *err)
{
    if (err) {
        err->rc = JET_OK;
        err->pgno = JET_NO_PGNO;
        err->msg[0] = '\0';
    }
}
