/*
 * test_odbc_crash.c - crash safety and isolation of DML through the
 * driver manager (issue 25, acceptance 3 and 4), on the generated database
 * of tests/crashdml.c (five indexes, MEMO and OLE values, AutoNumbers).
 *
 * One transaction (autocommit off, then SQLEndTran) runs INSERT ...
 * SELECT, a parameter array of 20 rows with MEMO and OLE values over a
 * page, UPDATEs moving index keys and freeing long values, a DELETE, and
 * an INSERT into the log table.
 *
 * - A child process running it is SIGKILLed at a random moment of its
 *   commit (it says when SQLEndTran starts; the parent waits a random part
 *   of the commit's time, measured on a reference run): the file, reopened
 *   (the hot journal rolled back), is byte-for-byte the old state or the
 *   new (the same transaction run on a copy), reads whole and checks clean
 *   (jet_db_check) every round; `jetcheck verify` on every new state and
 *   every 10th round.
 * - A reader process reading every table through the driver while a
 *   writer process commits: each SELECT sees its table exactly as one
 *   committed transaction left it (hashes of every state taken before on
 *   a copy, through the same driver), never going back. Two writing
 *   processes inserting through parameter arrays both succeed, one after
 *   the other, with all their rows there after.
 *
 * JET_ODBC_CRASH_POINTS sets the writers to kill (default 40, in at most
 * five times as many rounds; e.g. 300 for a long run).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "odbctest.h"
#include "../crashdml.h"

typedef struct work {
    char dir[64];
    char path[128];
    char ref[128];
} work;

static void work_init(work *w)
{
    snprintf(w->dir, sizeof w->dir, "%s/jet_odbccrash_XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(w->dir));
    snprintf(w->path, sizeof w->path, "%s/db.accdb", w->dir);
    snprintf(w->ref, sizeof w->ref, "%s/ref.accdb", w->dir);
    cd_generate(w->path, true);
}

static void work_done(work *w)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", w->dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* In a child process: print the diagnostic and leave with code. */
static void die(SQLSMALLINT type, SQLHANDLE h, const char *what, int code)
{
    fprintf(stderr, "odbc crash child: %s: %s %s\n", what,
            odbct_state(type, h), odbct_message(type, h));
    _exit(code);
}

static SQLHDBC child_connect(SQLHENV *env, const char *path, bool manual)
{
    SQLHDBC dbc;
    char cs[600];
    if (SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env) != SQL_SUCCESS ||
        SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3,
                      0) != SQL_SUCCESS ||
        SQLAllocHandle(SQL_HANDLE_DBC, *env, &dbc) != SQL_SUCCESS)
        _exit(20);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    if (!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS,
                                        NULL, 0, NULL, SQL_DRIVER_NOPROMPT)))
        die(SQL_HANDLE_DBC, dbc, "connect", 21);
    if (manual &&
        !SQL_SUCCEEDED(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT,
                                         (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)))
        die(SQL_HANDLE_DBC, dbc, "autocommit off", 22);
    return dbc;
}

static void child_exec(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT st;
    SQLRETURN r;
    if (SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st) != SQL_SUCCESS)
        _exit(23);
    r = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(r) && r != SQL_NO_DATA)
        die(SQL_HANDLE_STMT, st, sql, 24);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

#define ARRAY 20
#define NOTE_UNITS 3000
#define BLOB_LEN 6000

/* Rows base..base+ARRAY-1 of generation g through one parameter array:
 * every 4th with a MEMO of NOTE_UNITS (an LVAL chain) and every 5th with
 * an OLE value of BLOB_LEN bytes. */
static void child_param_array(SQLHDBC dbc, uint32_t g, uint32_t base)
{
    static SQLINTEGER k[ARRAY], grp[ARRAY], gen[ARRAY];
    static double amount[ARRAY];
    static SQLWCHAR code[ARRAY][32], note[ARRAY][NOTE_UNITS + 1];
    static unsigned char blob[ARRAY][BLOB_LEN];
    static SQLLEN code_len[ARRAY], note_len[ARRAY], blob_len[ARRAY];
    static SQLUSMALLINT status[ARRAY];
    SQLHSTMT st;
    SQLULEN done = 0;
    for (unsigned i = 0; i < ARRAY; i++) {
        char c[32];
        int n;
        k[i] = (SQLINTEGER)(base + i);
        grp[i] = (SQLINTEGER)((g * 7 + i) % 40);
        gen[i] = (SQLINTEGER)g;
        amount[i] = (double)((g * 131 + i * 17) % 100000) / 8.0;
        n = snprintf(c, sizeof c, "p%u-%u", g * 31 % 997 + i, base + i);
        for (int j = 0; j <= n; j++)
            code[i][j] = (SQLWCHAR)c[j];
        code_len[i] = SQL_NTS;
        if (i % 4 == 0) {
            for (unsigned j = 0; j < NOTE_UNITS; j++)
                note[i][j] = (SQLWCHAR)(j % 5 == 0 ? 0x3B1 + (i + j) % 20
                                                   : 'a' + (g + j) % 26);
            note_len[i] = NOTE_UNITS * sizeof(SQLWCHAR);
        } else {
            note_len[i] = SQL_NULL_DATA;
        }
        if (i % 5 == 0) {
            for (unsigned j = 0; j < BLOB_LEN; j++)
                blob[i][j] = (unsigned char)(j * 7 + i + g);
            blob_len[i] = BLOB_LEN;
        } else {
            blob_len[i] = SQL_NULL_DATA;
        }
    }
    if (SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st) != SQL_SUCCESS)
        _exit(25);
#define BIND(n, ct, sqlt, size, buf, w, len)                                 \
    if (!SQL_SUCCEEDED(SQLBindParameter(st, n, SQL_PARAM_INPUT, ct, sqlt,    \
                                        size, 0, buf, w, len)))              \
        die(SQL_HANDLE_STMT, st, "bind", 26)
    BIND(1, SQL_C_SLONG, SQL_INTEGER, 0, k, 0, NULL);
    BIND(2, SQL_C_WCHAR, SQL_WVARCHAR, 30, code, sizeof code[0], code_len);
    BIND(3, SQL_C_SLONG, SQL_INTEGER, 0, grp, 0, NULL);
    BIND(4, SQL_C_DOUBLE, SQL_DOUBLE, 0, amount, 0, NULL);
    BIND(5, SQL_C_SLONG, SQL_INTEGER, 0, gen, 0, NULL);
    BIND(6, SQL_C_WCHAR, SQL_WLONGVARCHAR, NOTE_UNITS, note, sizeof note[0],
         note_len);
    BIND(7, SQL_C_BINARY, SQL_LONGVARBINARY, BLOB_LEN, blob, BLOB_LEN,
         blob_len);
#undef BIND
    if (!SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE,
                                      (SQLPOINTER)(uintptr_t)ARRAY, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status,
                                      0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR,
                                      &done, 0)))
        die(SQL_HANDLE_STMT, st, "array", 27);
    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)
            "INSERT INTO items (k, code, grp, amount, gen, note, blob) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", SQL_NTS)) || done != ARRAY)
        die(SQL_HANDLE_STMT, st, "parameter array insert", 28);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Generation g's statements, in the open transaction of dbc. */
static void child_statements(SQLHDBC dbc, uint32_t g)
{
    char sql[600];
    uint32_t a = 1 + (g * 97) % (CD_ITEMS - 20);
    snprintf(sql, sizeof sql, "INSERT INTO items (k, code, grp, amount, gen, "
             "label) SELECT k + %u, code & '/%u', grp, amount + 1, %u, label "
             "FROM items WHERE k BETWEEN %u AND %u", 5000000 + g * 2000, g, g,
             a, a + 14);
    child_exec(dbc, sql);
    child_param_array(dbc, g, 7000000 + g * 100);
    snprintf(sql, sizeof sql, "UPDATE items SET amount = amount + 0.5, gen = "
             "%u, grp = (grp + 1) MOD 40 WHERE k MOD 37 = %u", g, g % 37);
    child_exec(dbc, sql);
    snprintf(sql, sizeof sql, "UPDATE items SET note = label, blob = NULL "
             "WHERE k MOD 53 = %u", g % 53);
    child_exec(dbc, sql);
    snprintf(sql, sizeof sql, "DELETE FROM items WHERE k MOD 41 = %u",
             g % 41);
    child_exec(dbc, sql);
    snprintf(sql, sizeof sql, "INSERT INTO log (gen, what) VALUES (%u, "
             "'odbc generation %u')", g, g);
    child_exec(dbc, sql);
}

/* Run generation g on path in this (child) process; before SQLEndTran
 * write 'c' to fd (when >= 0), after it the commit's time in µs as text
 * and a newline. */
static void child_tx(const char *path, uint32_t g, int fd)
{
    SQLHENV env;
    SQLHDBC dbc = child_connect(&env, path, true);
    double t0;
    char msg[40];
    int n;
    child_statements(dbc, g);
    if (fd >= 0 && write(fd, "c", 1) != 1)
        _exit(29);
    t0 = cd_now();
    if (!SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT)))
        die(SQL_HANDLE_DBC, dbc, "commit", 30);
    n = snprintf(msg, sizeof msg, "%.0f\n", (cd_now() - t0) * 1e6);
    if (fd >= 0 && write(fd, msg, (size_t)n) != n)
        _exit(31);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

static int wait_status(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return st;
}

/* Read what a child wrote to fd until EOF (cap bytes). */
static size_t read_all(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = 0;
    return n;
}

/* The reference run in a child: g on a copy of b; the new bytes, and the
 * commit's time in seconds. */
static uint8_t *reference(work *w, const uint8_t *b, size_t len, uint32_t g,
                          size_t *out_len, double *commit_secs)
{
    int p[2], st;
    char buf[64];
    pid_t pid;
    uint8_t *after;
    cd_put(w->ref, b, len);
    ck_assert_int_eq(pipe(p), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(p[0]);
        child_tx(w->ref, g, p[1]);
        _exit(0);
    }
    close(p[1]);
    read_all(p[0], buf, sizeof buf);
    close(p[0]);
    st = wait_status(pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "reference "
                  "generation %u: status %d", g, st);
    ck_assert_msg(buf[0] == 'c', "reference said '%s'", buf);
    *commit_secs = atof(buf + 1) / 1e6;
    after = cd_slurp(w->ref, out_len);
    ck_assert_ptr_nonnull(after);
    unlink(w->ref);
    return after;
}

static uint64_t reopen_and_check(const char *path)
{
    jet_db *db;
    jet_error err;
    bool ok;
    uint64_t h;
    char j[200];
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "%s",
                  err.msg);
    h = cd_content_hash(db, false, NULL, &ok);
    ck_assert_msg(ok, "the file does not read whole");
    ck_assert_msg(cd_check(db) == 0, "check found problems");
    jet_db_close(db);
    snprintf(j, sizeof j, "%s-journal", path);
    ck_assert_msg(access(j, F_OK) != 0, "journal left after reopening");
    return h;
}

START_TEST(writer_killed_mid_commit)
{
    unsigned want = cd_env_count("JET_ODBC_CRASH_POINTS", 40);
    unsigned points = 0;
    unsigned killed = 0, survived = 0, at_old = 0, verified = 0, refs = 0;
    uint32_t g = 0;
    uint8_t *old, *after = NULL;
    size_t old_len, after_len = 0;
    double commit_secs = 0, commit_sum = 0, t0 = cd_now();
    int jc = 0;
    work w;

    work_init(&w);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    old = cd_slurp(w.path, &old_len);
    (void)reopen_and_check(w.path);
    /* rounds until want writers died (on a busy machine the parent may
     * wake after the commit ended), at most 5 * want */
    for (unsigned i = 0; killed < want && i < 5 * want; i++) {
        int p[2], st;
        char c;
        pid_t pid;
        bool changed = false;

        if (!after) {
            after = reference(&w, old, old_len, g + 1, &after_len,
                              &commit_secs);
            refs++;
            commit_sum += commit_secs;
        }
        ck_assert_int_eq(pipe(p), 0);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            close(p[0]);
            child_tx(w.path, g + 1, p[1]);
            _exit(0);
        }
        close(p[1]);
        /* SQLEndTran starts: kill within 1.2 times the commit's time */
        points++;
        if (read(p[0], &c, 1) == 1) {
            /* a third of the kills at once, the rest spread over it */
            long us = i % 3 == 0 ? 0
                    : (long)((double)(rand() % 1000) / 1000.0 * commit_secs *
                             1.2e6);
            struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
            nanosleep(&ts, NULL);
            kill(pid, SIGKILL);
        }
        close(p[0]);
        st = wait_status(pid);
        if (WIFSIGNALED(st)) {
            ck_assert_int_eq(WTERMSIG(st), SIGKILL);
            killed++;
        } else {
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                          "writer failed: status %d", st);
            survived++;
        }
        (void)reopen_and_check(w.path);
        if (cd_same(w.path, old, old_len)) {
            ck_assert_msg(WIFSIGNALED(st), "a commit that succeeded left "
                          "the old state");
            at_old++;
        } else {
            ck_assert_msg(cd_same(w.path, after, after_len), "round %u: the "
                          "file is neither generation %u nor %u", i, g,
                          g + 1);
            free(old);
            old = after;
            old_len = after_len;
            after = NULL;
            changed = true;
            g++;
        }
        if (changed || (i + 1) % 10 == 0 || killed == want) {
            jc = cd_jetcheck(w.path);
            ck_assert_msg(jc != 0, "round %u: jetcheck verify failed", i);
            verified += jc > 0;
        }
    }
    fprintf(stderr, "odbc crash: %u rounds: %u writers killed during "
            "SQLEndTran (commit %.1f ms on average), %u commits finished "
            "first; %u left the old state, %u generations committed; "
            "jetcheck verify on %u rounds%s; %.1f s\n", points, killed,
            refs ? commit_sum / refs * 1e3 : 0.0, survived, at_old, g,
            verified, jc < 0 ? " (jetcheck or java missing)" : "",
            cd_now() - t0);
    ck_assert_uint_ge(killed, want / 4);
    free(old);
    free(after);
    work_done(&w);
}
END_TEST

/* ---------------------------------------------------------- concurrency */

/* Hash of table's rows as the driver returns them (SELECT *; each value
 * as SQL_C_BINARY bytes, NULL marked), order-free. In a child. */
static uint64_t odbc_table_hash(SQLHDBC dbc, const char *table, long *rows)
{
    SQLHSTMT st;
    char sql[100];
    SQLSMALLINT ncols;
    uint64_t *hs = NULL, total = 0xCBF29CE484222325ull;
    size_t n = 0, cap = 0;
    static unsigned char buf[65536];
    snprintf(sql, sizeof sql, "SELECT * FROM %s", table);
    if (SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st) != SQL_SUCCESS)
        _exit(40);
    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLNumResultCols(st, &ncols)))
        die(SQL_HANDLE_STMT, st, sql, 41);
    for (;;) {
        SQLRETURN r = SQLFetch(st);
        uint64_t h = 0xCBF29CE484222325ull;
        if (r == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(r))
            die(SQL_HANDLE_STMT, st, "fetch", 42);
        for (SQLUSMALLINT c = 1; c <= (SQLUSMALLINT)ncols; c++) {
            for (;;) {
                SQLLEN ind = 0;
                SQLRETURN g = SQLGetData(st, c, SQL_C_BINARY, buf,
                                         sizeof buf, &ind);
                size_t got;
                if (g == SQL_NO_DATA)
                    break;
                if (!SQL_SUCCEEDED(g))
                    die(SQL_HANDLE_STMT, st, "get data", 43);
                if (ind == SQL_NULL_DATA) {
                    h = (h ^ 0xFF) * 0x100000001B3ull;
                    break;
                }
                got = ind == SQL_NO_TOTAL || ind > (SQLLEN)sizeof buf
                          ? sizeof buf : (size_t)ind;
                for (size_t i = 0; i < got; i++)
                    h = (h ^ buf[i]) * 0x100000001B3ull;
                if (g == SQL_SUCCESS)
                    break;
            }
            h = (h ^ 0x1F) * 0x100000001B3ull;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            hs = realloc(hs, cap * sizeof *hs);
            if (!hs)
                _exit(44);
        }
        hs[n++] = h;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* order-free: a sum and an xor of the row hashes, and the count */
    {
        uint64_t sum = 0, x = 0;
        for (size_t i = 0; i < n; i++) {
            sum += hs[i];
            x ^= hs[i] * 0x9E3779B97F4A7C15ull;
        }
        total = (total ^ sum) * 0x100000001B3ull;
        total = (total ^ x) * 0x100000001B3ull;
        total = (total ^ n) * 0x100000001B3ull;
    }
    free(hs);
    *rows = (long)n;
    return total;
}

#define GENS 12

START_TEST(reader_sees_one_state_writers_serialise)
{
    static const char *const tables[2] = { "items", "log" };
    uint64_t hashes[GENS + 1][2];
    int p[2], st;
    pid_t rd, wr;
    uint8_t *b;
    size_t len;
    work w;

    work_init(&w);
    b = cd_slurp(w.path, &len);
    cd_put(w.ref, b, len);
    free(b);
    /* every generation's tables as the driver reads them, on a copy */
    ck_assert_int_eq(pipe(p), 0);
    wr = fork();
    ck_assert_int_ge(wr, 0);
    if (wr == 0) {
        close(p[0]);
        for (uint32_t g = 0; g <= GENS; g++) {
            SQLHENV env;
            SQLHDBC dbc;
            if (g > 0)
                child_tx(w.ref, g, -1);
            dbc = child_connect(&env, w.ref, false);
            for (int t = 0; t < 2; t++) {
                long rows;
                uint64_t h = odbc_table_hash(dbc, tables[t], &rows);
                if (write(p[1], &h, sizeof h) != sizeof h)
                    _exit(9);
            }
            SQLDisconnect(dbc);
            SQLFreeHandle(SQL_HANDLE_DBC, dbc);
            SQLFreeHandle(SQL_HANDLE_ENV, env);
        }
        _exit(0);
    }
    close(p[1]);
    {
        size_t got = 0;
        ssize_t r;
        while (got < sizeof hashes &&
               (r = read(p[0], (char *)hashes + got, sizeof hashes - got)) >
                   0)
            got += (size_t)r;
        ck_assert_uint_eq(got, sizeof hashes);
    }
    close(p[0]);
    st = wait_status(wr);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "reference: %d", st);

    rd = fork();
    ck_assert_int_ge(rd, 0);
    if (rd == 0) {
        SQLHENV env;
        SQLHDBC dbc = child_connect(&env, w.path, false);
        int last[2] = { 0, 0 };
        unsigned reads = 0, states = 0;
        double deadline = cd_now() + 300;
        for (;;) {
            for (int t = 0; t < 2; t++) {
                long rows;
                uint64_t h = odbc_table_hash(dbc, tables[t], &rows);
                int g = -1;
                for (int k = 0; k <= GENS; k++)
                    if (hashes[k][t] == h)
                        g = k;
                if (g < 0) {
                    fprintf(stderr, "odbc reader: %s with %ld rows is in no "
                            "committed state\n", tables[t], rows);
                    _exit(5);
                }
                if (g < last[t])
                    _exit(6);
                states += g != last[t];
                last[t] = g;
                reads++;
            }
            if (last[0] == GENS && last[1] == GENS)
                break;
            if (cd_now() > deadline)
                _exit(7);
        }
        fprintf(stderr, "odbc reader: %u table reads, %u new states seen\n",
                reads, states);
        SQLDisconnect(dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        SQLFreeHandle(SQL_HANDLE_ENV, env);
        _exit(0);
    }
    wr = fork();
    ck_assert_int_ge(wr, 0);
    if (wr == 0) {
        for (uint32_t g = 1; g <= GENS; g++)
            child_tx(w.path, g, -1);
        _exit(0);
    }
    st = wait_status(wr);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer: %d", st);
    st = wait_status(rd);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "reader: %d", st);
    (void)reopen_and_check(w.path);

    /* two writers at once, each 8 transactions of a parameter array */
    {
        pid_t c[2];
        int go[2];
        jet_db *db;
        jet_error err;
        uint64_t rows, before;
        bool ok;
        ck_assert_int_eq(jet_db_open(&db, w.path, NULL, &err), JET_OK);
        (void)cd_content_hash(db, false, &before, &ok);
        jet_db_close(db);
        ck_assert_int_eq(pipe(go), 0);
        for (int k = 0; k < 2; k++) {
            c[k] = fork();
            ck_assert_int_ge(c[k], 0);
            if (c[k] == 0) {
                SQLHENV env;
                SQLHDBC dbc = child_connect(&env, w.path, true);
                char x;
                close(go[1]);
                if (read(go[0], &x, 1) != 0)
                    _exit(3);
                for (uint32_t g = 1; g <= 8; g++) {
                    child_param_array(dbc, g, 20000000u * (uint32_t)(k + 1) +
                                                  g * 100);
                    if (!SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, dbc,
                                                  SQL_COMMIT)))
                        die(SQL_HANDLE_DBC, dbc, "commit", 4);
                }
                SQLDisconnect(dbc);
                SQLFreeHandle(SQL_HANDLE_DBC, dbc);
                SQLFreeHandle(SQL_HANDLE_ENV, env);
                _exit(0);
            }
        }
        close(go[0]);
        close(go[1]);
        for (int k = 0; k < 2; k++) {
            st = wait_status(c[k]);
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                          "writer %d: %d", k, st);
        }
        ck_assert_int_eq(jet_db_open(&db, w.path, NULL, &err), JET_OK);
        (void)cd_content_hash(db, false, &rows, &ok);
        ck_assert(ok);
        ck_assert_uint_eq(rows, before + 2 * 8 * ARRAY);
        ck_assert_uint_eq(cd_check(db), 0);
        jet_db_close(db);
    }
    ck_assert_int_ne(cd_jetcheck(w.path), 0);
    work_done(&w);
}
END_TEST

static Suite *odbc_crash_suite(void)
{
    Suite *s = suite_create("odbc_crash");
    TCase *tc = tcase_create("crash");
    tcase_set_timeout(tc, 3600);
    tcase_add_test(tc, writer_killed_mid_commit);
    tcase_add_test(tc, reader_sees_one_state_writers_serialise);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(odbc_crash_suite)
