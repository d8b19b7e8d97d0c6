/*
 * odbcwrite.h - what every write test through the driver manager
 * repeats (as tests/writetest.h for the unit tests): a public fixture
 * copied into the temporary directory, a connection to the copy with
 * extra keywords, statements run for their row count or refused with a
 * SQLSTATE and message, rows read back as text, the file's bytes (and
 * its lock file and journal) compared before and after a refusal, and
 * the independent verifier (../shared/tools/jetcheck: verify, dump,
 * SetProperties.java through Jackcess). Header only; include after
 * odbctest.h.
 */
#ifndef JET_TESTS_ODBCWRITE_H
#define JET_TESTS_ODBCWRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odbctest.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

#ifndef JET_SRCDIR
#define JET_SRCDIR ".."
#endif

/** Copy public fixture rel (under fixtures/public) into the temporary
 *  directory as name, with rel's extension added when name has none;
 *  an older copy and its journal are removed first, the copy is
 *  writable (0644). The copy's path in out (cap bytes); returns out. */
static inline const char *odbct_copy_fixture(const char *rel,
                                             const char *name, char *out,
                                             size_t cap)
{
    char cmd[4096], j[1100];
    const char *ext = strchr(name, '.') ? "" : strrchr(rel, '.');
    snprintf(out, cap, "%s/%s%s", odbct_tmpdir(), name, ext ? ext : "");
    snprintf(j, sizeof j, "%s-journal", out);
    chmod(out, 0644);
    unlink(out);
    unlink(j);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 0644 '%s'",
             odbct_fixture(rel), out, out);
    ck_assert_int_eq(system(cmd), 0);
    return out;
}

/** Allocate env and dbc and connect to the database file at path, with
 *  the connection-string keywords extra (NULL: none) after DBQ. */
static inline void odbct_connect_file(SQLHENV *env, SQLHDBC *dbc,
                                      const char *path, const char *extra)
{
    char cs[4200];
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;%s", path,
             extra ? extra : "");
    odbct_connect(env, dbc, cs);
}

/** Allocate env and dbc and try SQLDriverConnect with connection string
 *  cs (no prompt); returns its result. A failure's SQLSTATE goes to st
 *  (6 bytes) and its message to msg (512 bytes), else both are empty; the
 *  caller ends with odbct_disconnect or, after a failure, odbct_free_dbc. */
static inline SQLRETURN odbct_try_connect(const char *cs, SQLHENV *env,
                                          SQLHDBC *dbc, char *st, char *msg)
{
    odbct_alloc_dbc(env, dbc);
    SQLRETURN r = SQLDriverConnect(*dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL,
                                   0, NULL, SQL_DRIVER_NOPROMPT);
    st[0] = msg[0] = '\0';
    if (!SQL_SUCCEEDED(r)) {
        snprintf(st, 6, "%s", odbct_state(SQL_HANDLE_DBC, *dbc));
        snprintf(msg, 512, "%s", odbct_message(SQL_HANDLE_DBC, *dbc));
    }
    return r;
}

/** A new statement of dbc (asserts). */
static inline SQLHSTMT odbct_stmt(SQLHDBC dbc)
{
    SQLHSTMT st;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    return st;
}

/** Run sql on dbc; it must succeed and SQLRowCount say rows. */
static inline void odbct_exec_rows(SQLHDBC dbc, const char *sql, long rows)
{
    SQLHSTMT st = odbct_stmt(dbc);
    SQLLEN n = -2;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql,
                                                SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &n));
    ck_assert_msg(n == rows, "%s: %ld rows, expected %ld", sql, (long)n,
                  rows);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/** Run sql on statement st (closed after): it must fail with state and
 *  a message that begins with msg when msg begins with "[jetodbc]", else
 *  holds msg (NULL: any message), and ends with tail (NULL: any end). */
static inline void odbct_refused_on(SQLHSTMT st, const char *sql,
                                    const char *state, const char *msg,
                                    const char *tail)
{
    SQLRETURN r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    const char *m = odbct_message(SQL_HANDLE_STMT, st);
    ck_assert_msg(r == SQL_ERROR, "%s: returned %d", sql, (int)r);
    ck_assert_msg(strcmp(odbct_state(SQL_HANDLE_STMT, st), state) == 0,
                  "%s: %s %s (expected %s)", sql,
                  odbct_state(SQL_HANDLE_STMT, st), m, state);
    if (msg && strncmp(msg, "[jetodbc]", 9) == 0)
        ck_assert_msg(strncmp(m, msg, strlen(msg)) == 0, "%s: message\n"
                      "  %s\nexpected\n  %s", sql, m, msg);
    else if (msg)
        ck_assert_msg(strstr(m, msg) != NULL, "%s: message\n  %s\nlacks\n"
                      "  %s", sql, m, msg);
    if (tail) {
        size_t ml = strlen(m), tl = strlen(tail);
        ck_assert_msg(ml >= tl && strcmp(m + ml - tl, tail) == 0,
                      "%s: message\n  %s\ndoes not end with\n  %s", sql, m,
                      tail);
    }
    SQLFreeStmt(st, SQL_CLOSE);
}

/** odbct_refused_on a new statement of dbc. */
static inline void odbct_refused(SQLHDBC dbc, const char *sql,
                                 const char *state, const char *msg,
                                 const char *tail)
{
    SQLHSTMT st = odbct_stmt(dbc);
    odbct_refused_on(st, sql, state, msg, tail);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/** The first row of sql on dbc, its columns as text joined by '|'
 *  ("NULL" for a null), into buf (cap bytes); returns buf. */
static inline const char *odbct_row_text(SQLHDBC dbc, const char *sql,
                                         char *buf, size_t cap)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLSMALLINT ncols = 0;
    size_t at = 0;
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &ncols));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLFetch(st));
    buf[0] = '\0';
    for (SQLSMALLINT i = 1; i <= ncols; i++) {
        char v[256];
        SQLLEN ind = 0;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, (SQLUSMALLINT)i,
                                                 SQL_C_CHAR, v, sizeof v,
                                                 &ind));
        int w = snprintf(buf + at, cap - at, "%s%s", i > 1 ? "|" : "",
                         ind == SQL_NULL_DATA ? "NULL" : v);
        ck_assert(w > 0 && (size_t)w < cap - at);
        at += (size_t)w;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return buf;
}

/** The first row of sql on dbc (odbct_row_text) is want. */
static inline void odbct_expect_row(SQLHDBC dbc, const char *sql,
                                    const char *want)
{
    char buf[1024];
    ck_assert_msg(strcmp(odbct_row_text(dbc, sql, buf, sizeof buf),
                         want) == 0, "%s:\n  %s\nexpected\n  %s", sql, buf,
                  want);
}

/** Every row of sql on dbc, columns joined by ',' and rows by ';'
 *  ("-" for a null), into buf (cap bytes); returns buf. */
static inline const char *odbct_rows_text(SQLHDBC dbc, const char *sql,
                                          char *buf, size_t cap)
{
    SQLHSTMT st = odbct_exec(dbc, sql);
    SQLSMALLINT nc = 0;
    size_t len = 0;
    buf[0] = '\0';
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLNumResultCols(st, &nc));
    while (SQLFetch(st) == SQL_SUCCESS) {
        for (SQLSMALLINT c = 1; c <= nc; c++) {
            char v[256];
            SQLLEN ind = 0;
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLGetData(st, (SQLUSMALLINT)c,
                     SQL_C_CHAR, v, sizeof v, &ind));
            int w = snprintf(buf + len, cap - len, "%s%s",
                             c > 1 ? "," : (len ? ";" : ""),
                             ind == SQL_NULL_DATA ? "-" : v);
            ck_assert(w >= 0 && (size_t)w < cap - len);
            len += (size_t)w;
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return buf;
}

/** The whole file at path (malloc'd with a NUL after it, the caller
 *  frees), *n its size; fails the test when it cannot be read. */
static inline char *odbct_file_text(const char *path, size_t *n)
{
    uint8_t *b = jet_test_slurp(path, n);
    ck_assert_msg(b != NULL, "cannot read %s", path);
    char *t = realloc(b, *n + 1);
    ck_assert_ptr_nonnull(t);
    t[*n] = '\0';
    return t;
}

/** `jetcheck verify path` reports 0 problems (writetest.h's check). */
static inline void odbct_verify(const char *path)
{
    jet_test_jetcheck_verify(path);
}

/** `jetcheck dump path [--table table]` (table NULL: every table), as a
 *  string the caller frees; its "file" value is "db", so dumps of two
 *  copies compare equal. */
static inline char *odbct_dump_opts(const char *path, const char *table,
                                    const char *opts);
static inline char *odbct_dump(const char *path, const char *table)
{
    return odbct_dump_opts(path, table, "");
}

/** odbct_dump with more jetcheck arguments opts (e.g. "--password 'pw'",
 *  or ""). */
static inline char *odbct_dump_opts(const char *path, const char *table,
                                    const char *opts)
{
    char out[1100], cmd[4096], tab[1100] = "";
    size_t n;
    if (table)
        snprintf(tab, sizeof tab, " --table '%s'", table);
    snprintf(out, sizeof out, "%s.dump", path);
    snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
             "--name db%s %s >'%s' 2>/dev/null", jet_shared_dir(), path, tab,
             opts, out);
    ck_assert_msg(system(cmd) == 0, "jetcheck dump %s failed", path);
    char *d = odbct_file_text(out, &n);
    unlink(out);
    return d;
}

/** jetcheck dump of path holds each of the rows in want (JSON row text
 *  as jetcheck writes it, e.g. ["n1", null, 0]); NULL ends want. */
static inline void odbct_dump_has(const char *path, const char *const *want)
{
    char *d = odbct_dump(path, NULL);
    for (; *want; want++)
        ck_assert_msg(strstr(d, *want) != NULL,
                      "jetcheck dump of %s lacks the row %s", path, *want);
    free(d);
}

/** jetcheck dump of table's rows (one JSON row a line) has n rows and
 *  each of rows[0..n) is in one of them. */
static inline void odbct_dump_rows(const char *path, const char *table,
                                   const char *const *rows, size_t n)
{
    char *d = odbct_dump(path, table);
    size_t seen = 0, found = 0;
    bool in_rows = false;
    for (char *line = strtok(d, "\n"); line; line = strtok(NULL, "\n")) {
        if (strstr(line, "\"rows\": [")) {
            in_rows = !strstr(line, "[]");
            continue;
        }
        if (!in_rows || line[0] != ' ' || !strchr(line, '[') ||
            strncmp(line, "   ]", 4) == 0) {
            in_rows = false;
            continue;
        }
        seen++;
        for (size_t i = 0; i < n; i++)
            if (strstr(line, rows[i]))
                found++;
    }
    free(d);
    ck_assert_msg(seen == n && found == n, "%s %s: %zu rows, %zu of %zu "
                  "expected found", path, table, seen, found, n);
}

/** Set properties on the file at path with Jackcess: args is the
 *  SetProperties.java argument list after the file (quoted groups of
 *  TABLE COLUMN NAME TYPE VALUE). 0, or -1 when java or the jars are
 *  missing (the caller skips). */
static inline int odbct_set_properties(const char *path, const char *args)
{
    char cmd[8192];
    const char *java_dir = getenv("JETCHECK_JAVA_DIR");
    if (!java_dir || !*java_dir)
        java_dir = "/usr/share/java";
    snprintf(cmd, sizeof cmd, "java -XX:+UseSerialGC "
             "-XX:TieredStopAtLevel=1 -cp '%s/tools/jetcheck/jackcess.jar:"
             "%s/commons-lang3.jar:%s/commons-logging.jar' "
             "'%s/tests/odbc/SetProperties.java' '%s' %s",
             jet_shared_dir(), java_dir, java_dir, JET_SRCDIR, path, args);
    return system(cmd) == 0 ? 0 : -1;
}

/** The lock file Access keeps beside path: .ldb for .mdb, .laccdb for
 *  .accdb. */
static inline void odbct_lock_path(char *out, size_t cap, const char *path)
{
    const char *dot = strrchr(path, '.');
    size_t stem = dot ? (size_t)(dot - path) : strlen(path);
    snprintf(out, cap, "%.*s%s", (int)stem, path,
             dot && strcmp(dot, ".accdb") == 0 ? ".laccdb" : ".ldb");
}

/** A database file as it was: its bytes, its lock file's (NULL: none)
 *  and whether it had a journal. */
typedef struct odbct_snap {
    char path[1024];
    uint8_t *db;
    size_t db_len;
    uint8_t *lock;
    size_t lock_len;
    bool journal;
} odbct_snap;

/** Take the state of the database file at path into s. */
static inline void odbct_snap_take(odbct_snap *s, const char *path)
{
    char lp[1100], jp[1100];
    snprintf(s->path, sizeof s->path, "%s", path);
    s->db = jet_test_slurp(path, &s->db_len);
    ck_assert_msg(s->db != NULL, "cannot read %s", path);
    odbct_lock_path(lp, sizeof lp, path);
    s->lock = jet_test_slurp(lp, &s->lock_len);
    snprintf(jp, sizeof jp, "%s-journal", path);
    s->journal = access(jp, F_OK) == 0;
}

/** The file at s->path is byte for byte as taken; frees s. */
static inline void odbct_snap_same(odbct_snap *s)
{
    size_t n;
    uint8_t *now = jet_test_slurp(s->path, &n);
    ck_assert_msg(now != NULL, "cannot read %s", s->path);
    ck_assert_msg(n == s->db_len && memcmp(now, s->db, n) == 0,
                  "%s changed (%zu bytes, was %zu)", s->path, n, s->db_len);
    free(now);
    free(s->db);
    free(s->lock);
    s->db = s->lock = NULL;
}

/** odbct_snap_same, and the lock file is as taken too (or still absent)
 *  and no journal was left where there was none: for a state taken and
 *  compared with no connection to the file open. Frees s. */
static inline void odbct_snap_same_all(odbct_snap *s)
{
    char lp[1100], jp[1100];
    size_t n;
    odbct_lock_path(lp, sizeof lp, s->path);
    uint8_t *now = jet_test_slurp(lp, &n);
    ck_assert_msg((now == NULL) == (s->lock == NULL), "%s %s", lp,
                  now ? "was made" : "was removed");
    if (now)
        ck_assert_msg(n == s->lock_len && memcmp(now, s->lock, n) == 0,
                      "%s changed", lp);
    free(now);
    snprintf(jp, sizeof jp, "%s-journal", s->path);
    ck_assert_msg(s->journal || access(jp, F_OK) != 0, "%s left behind",
                  jp);
    odbct_snap_same(s);
}

#endif
