/*
 * trace.c - the TraceFile of a connection (see trace.h).
 *
 * Each line is formatted in memory and written with one write(2) to an
 * O_APPEND descriptor, so lines of several connections or processes
 * sharing a file never interleave. Long lines (SQL text) are cut at 8 KB.
 */
#include "config.h"

#include "trace.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct odbc_trace {
    int fd;
};

odbc_trace *odbc_trace_open(const char *path)
{
    if (!path || !*path)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    odbc_trace *t = malloc(sizeof *t);
    if (!t) {
        close(fd);
        return NULL;
    }
    t->fd = fd;
    return t;
}

void odbc_trace_close(odbc_trace *t)
{
    if (!t)
        return;
    close(t->fd);
    free(t);
}

int64_t odbc_trace_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void odbc_trace_log(odbc_trace *t, const char *fmt, ...)
{
    if (!t)
        return;
    char line[8192];
    struct timeval tv;
    struct tm tm;
    gettimeofday(&tv, NULL);
    localtime_r(&tv.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "%04d-%02d-%02d %02d:%02d:%02d.%03d "
                     "[%ld] ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec,
                     (int)(tv.tv_usec / 1000), (long)getpid());
    if (n < 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (m < 0)
        return;
    size_t len = (size_t)n + (size_t)m;
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t w = write(t->fd, line, len);
    (void)w;                    /* best effort */
}
