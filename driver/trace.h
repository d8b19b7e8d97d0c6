/*
 * trace.h - the driver's own trace file (DSN or connection-string key
 * TraceFile=/path): one line per event, appended, for users who want to
 * see what an application asked of the driver without a debugger.
 *
 * Events: connect (file, DSN, options; never the password), SQL text at
 * prepare, the chosen plan, execute and fetch timings, row counts when a
 * cursor closes, catalog calls, errors with their SQLSTATE. Independent
 * of the driver manager's trace ([ODBC] Trace=Yes in odbcinst.ini), which
 * logs every call's arguments but knows nothing of plans.
 */
#ifndef JET_DRIVER_TRACE_H
#define JET_DRIVER_TRACE_H

#include <stdint.h>

/** An open trace file; NULL everywhere means "tracing off". */
typedef struct odbc_trace odbc_trace;

/** Open (append, create 0600) path; NULL when path is NULL/empty or the
 *  file cannot be opened (tracing is best effort, never a connect error). */
odbc_trace *odbc_trace_open(const char *path);

/** Close t (NULL is fine). */
void odbc_trace_close(odbc_trace *t);

/** Append one line "time [pid] text" when t is not NULL; printf format.
 *  Thread-safe (one write per line). */
void odbc_trace_log(odbc_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Monotonic clock in microseconds, for the timings in trace lines. */
int64_t odbc_trace_now_us(void);

#endif
