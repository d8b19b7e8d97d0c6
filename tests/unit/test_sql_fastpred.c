/*
 * test_sql_fastpred.c - the filter read from the row's bytes
 * (driver/sql/op_filter.c) against the general evaluator.
 *
 * A table of every kind the shortcut reads (Byte, Integer, Long,
 * Currency, Double, Date/Time, compressed and plain Text) plus Boolean,
 * with NULLs and edge values, is written to a temporary file
 * (core/newfile.c).
 * Generated WHERE clauses - comparisons with constants of every kind and
 * with parameters (NULL ones too), either side, BETWEEN and NOT BETWEEN,
 * IS [NOT] NULL, LIKE in Access and ANSI forms, conjunctions with OR and
 * NOT mixed in - run twice: as planned, and with JETODBC_GENERAL_EVAL set
 * (every term through sql_eval_cond); the rows of `SELECT *` and the
 * aggregates COUNT/SUM/MIN/MAX/AVG over them must be the same text. Each
 * clause also runs as aggregates of stored numbers only, which the scan
 * accumulates in its own loop (op_agg.c scan_aggs), and as the TOP n
 * rows by a stored number, whose key is read from the row against the
 * top-N threshold (op_sort.c sql_topn_collect), unless
 * JETODBC_GENERAL_EVAL is set; and grouped by a text column (or as
 * DISTINCT of one), whose groups are found by the key's binary sort key
 * (op_agg.c text_groups); as COUNT(*)s alone, which the scan counts
 * itself when its tests on the row's bytes are the whole filter
 * (core/scan.c jet_scan_count_where); and, in the last quarter, joined
 * with a second table (an index join and a hash join). That quarter
 * runs over the table as writes leave it (mutate): deleted slots, rows
 * behind overflow pointers, columns added after the rows were written.
 * 5,000 clauses are about 36,000 statements.
 *
 * 5,000 clauses by default (a few seconds); JETODBC_FASTPRED_CLAUSES=N
 * runs N (e.g. 200000 for a long run), JETODBC_FASTPRED_SEED=S another
 * sequence.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "newfile.h"
#include "jet.h"
#include "sql/engine.h"
#include "sqltest.h"
#include "unit.h"

#define NROWS 300

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t pick(size_t n)
{
    return (size_t)(next_u64() % n);
}

static const char *const words[] = {
    "alpha", "Alpha", "ALPHA beta", "beta", "b", "", "zulu", "alphabet",
    "gamma 12", "delta", "Émile", "échelle", "[x]", "a*b", "100", "12.5",
    "beta ", "ALPHA  "          /* equal to "beta", "alpha" but for the
                                   trailing spaces, which = ignores */
};
#define NWORDS (sizeof words / sizeof *words)

static size_t ascii16(uint16_t *u, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        if (c >= 0xC0) {
            c = (c & 0x1F) << 6 | (*p++ & 0x3F);
        }
        u[n++] = (uint16_t)c;
    }
    return n;
}

/* The table: id, i INT, l LONG, y BYTE, d DOUBLE, m MONEY, dt DATETIME,
 * s TEXT compressed, u TEXT plain, b BOOL. */
static void write_table(const char *path)
{
    char err[256];
    jw_db *db = jw_create(path, JW_FMT_ACE14, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    jw_coldef cols[10] = {
        { "id", JW_LONG, 0, 0 }, { "i", JW_INT, 0, 0 },
        { "l", JW_LONG, 0, 0 }, { "y", JW_BYTE, 0, 0 },
        { "d", JW_DOUBLE, 0, 0 }, { "m", JW_MONEY, 0, 0 },
        { "dt", JW_DATETIME, 0, 0 }, { "s", JW_TEXT, 30, 1 },
        { "u", JW_TEXT, 30, 0 }, { "b", JW_BOOL, 0, 0 }
    };
    jw_idxdef idx[1] = { { "pk", 0, 1, 1, 0 } };
    jw_table *t = jw_table_begin(db, "t", cols, 10, idx, 1);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    static const int64_t ints[] = { 0, 1, -1, 5, 255, 32767, -32768, 100, 12 };
    static const int64_t longs[] = { 0, 1, -1, 5, 100000, 2147483647,
                                     -2147483647 - 1, 12, 255 };
    static const double dbls[] = { 0, 0.5, -1.25, 1e10, 123.4567, 2.5e-3,
                                   12, 12.5, -0.0, 1e-300, 5 };
    static const int64_t money[] = { 0, 10000, -10000, 123456, 125000,
                                     1234567, 50000, 92233720368547LL };
    /* the last two: a millisecond after 2001-02-03 18:00, and a value
     * that rounds to 18:00 itself (op_filter.c's quick date test) */
    static const double dates[] = { 0, 0.5, 36925, 36925.75, -1.5, 40000.25,
                                    2, 37000.000011574,
                                    36925.75 + 1 / 86400000.0,
                                    36925.75 - 0.4 / 86400000.0 };
    uint16_t s16[64], u16[64];
    for (int r = 0; r < NROWS; r++) {
        jw_value v[10];
        memset(v, 0, sizeof v);
        v[0].i = r + 1;
        for (int k = 1; k < 9; k++)
            v[k].null = (r * 7 + k * 3) % 11 == 0;
        v[1].i = r % 3 ? ints[pick(9)] : (int64_t)pick(65536) - 32768;
        v[2].i = r % 3 ? longs[pick(9)] : (int64_t)pick(4000000) - 2000000;
        v[3].i = (int64_t)pick(256);
        v[4].d = r % 3 ? dbls[pick(11)] : ((double)pick(2000000) - 1e6) / 64;
        v[5].i = r % 3 ? money[pick(8)] : (int64_t)pick(20000000) - 10000000;
        v[6].d = r % 3 ? dates[pick(10)] : ((double)pick(8000000) - 1e6) / 97;
        v[7].text = s16;
        v[7].units = ascii16(s16, words[pick(NWORDS)]);
        v[8].text = u16;
        v[8].units = ascii16(u16, words[pick(NWORDS)]);
        v[9].i = (int64_t)pick(2);
        ck_assert_msg(jw_table_add_row(t, v) == 0, "%s", jw_error(db));
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
}

/* ------------------------------------------------------ generating */

typedef struct gen {
    char sql[2048];
    size_t len;
    jet_value params[16];
    uint16_t ptext[16][16];
    size_t nparams;
} gen;

static void put(gen *g, const char *s)
{
    size_t n = strlen(s);
    ck_assert(g->len + n < sizeof g->sql);
    memcpy(g->sql + g->len, s, n + 1);
    g->len += n;
}

static const char *const numcols[] = { "i", "l", "y", "d", "m", "dt", "id",
                                       "x", "z" };
/* numcols the table has: x and z only after mutate() added them */
static size_t nnumcols = 7;
static const char *const txtcols[] = { "s", "u", "v" };
static size_t ntxtcols = 2;
static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=" };

/* A parameter marker with a value of a random kind. */
static void param(gen *g, bool text_col)
{
    ck_assert(g->nparams < 16);
    jet_value *v = &g->params[g->nparams];
    memset(v, 0, sizeof *v);
    switch (pick(text_col ? 3 : 7)) {
    case 0:
        v->type = JET_T_TEXT;
        v->is_null = true;
        break;
    case 1: case 2: {
        const char *w = text_col ? words[pick(NWORDS)]
                                 : (const char *[]){ "12", "-3.5", "0",
                                                     "100000" }[pick(4)];
        size_t n = ascii16(g->ptext[g->nparams], w);
        v->type = JET_T_TEXT;
        v->data = (const uint8_t *)g->ptext[g->nparams];
        v->len = n * 2;
        break;
    }
    case 3:
        v->type = JET_T_LONG;
        v->u.i = (int64_t)pick(70000) - 35000;
        if (pick(3) == 0)
            v->u.i = (int64_t[]){ 0, 1, -1, 255, 32767, 12 }[pick(6)];
        break;
    case 4:
        v->type = JET_T_DOUBLE;
        v->u.d = (double[]){ 0.5, -1.25, 12.5, 123.4567, 1e10, 36925.75,
                             5 }[pick(7)];
        break;
    case 5:
        v->type = JET_T_MONEY;
        v->u.money = (int64_t[]){ 125000, 10000, -10000, 1234567 }[pick(4)];
        break;
    default:
        v->type = JET_T_DATETIME;
        v->u.d = (double[]){ 36925, 36925.75, 0.5, 2, -1.5 }[pick(5)];
        break;
    }
    g->nparams++;
    put(g, "?");
}

/* An operand for a numeric column: a literal of some kind, or '?'. */
static void num_operand(gen *g)
{
    static const char *const lits[] = {
        "0", "1", "-1", "5", "12", "255", "32767", "-32768", "100000",
        "2147483647", "0.5", "-1.25", "12.5", "123.4567", "1E10", "2.5E-3",
        "12.3456", "#2001-02-03#", "#1899-12-30 12:00:00#",
        "#2001-02-03 18:00:00#", "'12'", "'-3.5'", "True", "False", "NULL",
        "922337203685477.5807", "1E-300", "36925.75", "922337203685477",
        "922337203685478", "-922337203685478", "1000000000000000",
        "-9223372036854775807"
    };
    if (pick(5) == 0)
        param(g, false);
    else
        put(g, lits[pick(sizeof lits / sizeof *lits)]);
}

static void txt_operand(gen *g)
{
    static const char *const lits[] = {
        "'alpha'", "'ALPHA'", "'beta'", "''", "'zulu'", "'alphabet'",
        "'gamma 12'", "'émile'", "'b'", "NULL", "'100'"
    };
    if (pick(4) == 0)
        param(g, true);
    else
        put(g, lits[pick(sizeof lits / sizeof *lits)]);
}

static void term(gen *g)
{
    bool text = pick(3) == 0;
    const char *col = text ? txtcols[pick(ntxtcols)] : numcols[pick(nnumcols)];
    void (*operand)(gen *) = text ? txt_operand : num_operand;
    switch (pick(text ? 5 : 4)) {
    case 0: case 1:
        if (pick(4) == 0) {             /* constant first */
            operand(g);
            put(g, " ");
            put(g, ops[pick(6)]);
            put(g, " ");
            put(g, col);
        } else {
            put(g, col);
            put(g, " ");
            put(g, ops[pick(6)]);
            put(g, " ");
            operand(g);
        }
        return;
    case 2:
        put(g, col);
        put(g, pick(3) == 0 ? " NOT BETWEEN " : " BETWEEN ");
        operand(g);
        put(g, " AND ");
        operand(g);
        return;
    case 3:
        put(g, col);
        put(g, pick(2) ? " IS NULL" : " IS NOT NULL");
        return;
    default: {
        static const char *const pats[] = {
            "'al*'", "'AL%'", "'*ph*'", "'[a-m]*'", "'b?ta'", "'alpha'",
            "''", "'%'", "'*'", "'é*'", "'E*'", "'[[]x]'", "'a[*]b'",
            "'gamma #*'", "'_eta'", "'[!a]*'", "'a%'", "'ALPHA B*'",
            "'z_l%'", "'__%'", "'b*'"
        };
        put(g, col);
        put(g, pick(4) == 0 ? " NOT LIKE " : " LIKE ");
        put(g, pats[pick(sizeof pats / sizeof *pats)]);
        return;
    }
    }
}

static void clause(gen *g)
{
    g->len = 0;
    g->sql[0] = 0;
    g->nparams = 0;
    size_t n = 1 + pick(4);
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(g, pick(6) == 0 ? " OR " : " AND ");
        switch (pick(10)) {
        case 0:
            put(g, "NOT (");
            term(g);
            put(g, ")");
            break;
        case 1:
            put(g, "(");
            term(g);
            put(g, " OR ");
            term(g);
            put(g, ")");
            break;
        default:
            term(g);
        }
    }
}

/* ------------------------------------------------------ running */

/* Every row of sql with params, rendered, into o; or its SQLSTATE. */
static void run(jet_db *db, const char *sql, const gen *g, sqlt_buf *o)
{
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    o->len = 0;
    sqlt_puts(o, "");
    if (sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) != 0) {
        sqlt_puts(o, "prepare ");
        sqlt_puts(o, err.sqlstate);
        return;
    }
    if (sql_cursor_open(&c, st, g->nparams ? g->params : NULL, NULL,
                        &err) != 0) {
        sqlt_puts(o, "open ");
        sqlt_puts(o, err.sqlstate);
        sql_stmt_free(st);
        return;
    }
    size_t ncols = sql_stmt_ncols(st);
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK) {
        sqlt_render_row(o, db, c, ncols);
        sqlt_puts(o, "\n");
    }
    if (rc != JET_DONE) {
        sqlt_puts(o, "error ");
        sqlt_puts(o, sql_cursor_error(c)->sqlstate);
    }
    sql_cursor_close(c);
    sql_stmt_free(st);
}

/* Run one statement that returns no rows (DML, DDL) on db. */
static void exec_sql(jet_db *db, const char *sql)
{
    sql_statement *st;
    sql_cursor *c = NULL;
    sql_error err;
    ck_assert_msg(sql_statement_prepare(&st, db, sql, strlen(sql), NULL,
                                        &err) == 0, "%s: %s", sql,
                  err.msg);
    ck_assert_msg(sql_statement_execute(st, NULL, NULL, &c, &err) == 0,
                  "%s: %s", sql, err.msg);
    ck_assert_ptr_null(c);
    sql_statement_free(st);
}

/* The shapes a table's rows take after writes, which the tests on the
 * row's bytes (core/scan.c jet_scan_next_where) meet: deleted slots,
 * rows moved behind overflow pointers as they grew, and columns added
 * after rows were written (absent from the old rows: NULL), set in some
 * rows; and a second table k to join t with, its keys and join column
 * NULL in some rows. */
static void mutate(jet_db *db)
{
    exec_sql(db, "DELETE FROM t WHERE id MOD 7 = 3");
    exec_sql(db, "UPDATE t SET u = 'a rather longer text, 30 chars', "
                 "s = 'and a second one of 30 chars!' WHERE id MOD 3 = 1");
    exec_sql(db, "ALTER TABLE t ADD COLUMN x LONG");
    exec_sql(db, "ALTER TABLE t ADD COLUMN z DOUBLE");
    exec_sql(db, "UPDATE t SET x = id * 3 - 400, z = id / 7 WHERE id MOD 4 = 0");
    exec_sql(db, "UPDATE t SET z = NULL WHERE id MOD 8 = 0");
    /* text added after the rows: NULL in the old ones, a repeated value
     * in some (the scan's text tests, JET_TEST_TEXT, learn its verdict) */
    exec_sql(db, "ALTER TABLE t ADD COLUMN v TEXT(20)");
    exec_sql(db, "UPDATE t SET v = IIf(id MOD 2 = 0, 'alpha', 'Beta') "
                 "WHERE id MOD 5 = 0");
    exec_sql(db, "CREATE TABLE k (kid LONG CONSTRAINT kpk PRIMARY KEY, "
                 "kv LONG, kname TEXT(10))");
    exec_sql(db, "INSERT INTO k SELECT id - 1, IIf(id MOD 9 = 5, NULL, "
                 "(id * 37) MOD 260 - 2), IIf(id MOD 9 = 5, NULL, 'k' & "
                 "(id MOD 13)) FROM t WHERE id <= 150");
    nnumcols = 9;
    ntxtcols = 3;
}

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : dflt;
}

START_TEST(generated_where_clauses_match_the_general_path)
{
    char dir[] = "/tmp/jet_fastpred_XXXXXX", path[64];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.accdb", dir);
    write_table(path);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
    long n = env_long("JETODBC_FASTPRED_CLAUSES", 5000);
    rng ^= (uint64_t)env_long("JETODBC_FASTPRED_SEED", 0) * 0x2545F4914F6CDD1Dull;
    /* every clause runs in each shape: the rows; aggregates of every
     * kind (MIN and MAX of text: the general path); aggregates of
     * stored numbers only, which the scan accumulates in its own loop
     * (op_agg.c scan_aggs); the TOP n rows by one stored number, whose
     * key is read from the row against the top-N threshold (op_sort.c
     * sql_topn_collect) - the clause alone, or OR-ed with half the rows
     * so that the threshold comes into play (past 64 rows held) */
    static const char *const shapes[] = {
        "SELECT * FROM t WHERE ",
        "SELECT COUNT(*), COUNT(d), SUM(d), AVG(l), MIN(m), MAX(dt), "
        "SUM(m), AVG(i), MIN(s), MAX(u) FROM t WHERE ",
        "SELECT COUNT(*), COUNT(dt), SUM(d), AVG(d), SUM(l), AVG(l), "
        "SUM(y), MIN(i), MAX(i), MIN(d), MAX(d), SUM(m), AVG(m), MIN(m), "
        "MAX(dt), MIN(dt), COUNT(s) FROM t WHERE "
    };
    static const int tops[] = { 1, 3, 10, 40 };
    sqlt_buf fast = { 0 }, slow = { 0 };
    gen g;
    char sql[2300];
    long rows = 0, errors = 0, nstmt = 0;
    for (long k = 0; k < n; k++) {
        if (k == n - n / 4) {
            /* the last quarter over the table as writes leave it */
            jet_db_close(db);
            ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
            mutate(db);
        }
        clause(&g);
        for (int shape = 0; shape < 8; shape++, nstmt++) {
            if (shape == 5) {
                /* COUNT(*)s alone: counted in the scan when its tests
                 * on the bytes are the whole filter (op_agg.c
                 * scan_aggs, jet_scan_count_where) */
                snprintf(sql, sizeof sql, "SELECT COUNT(*), COUNT(*) FROM t "
                         "WHERE %s", g.sql);
            } else if (shape == 6 || shape == 7) {
                /* joined with k: t's filter read at its scan's level
                 * (an index join into k's key, or a hash join on kv) */
                if (nnumcols < 9)
                    continue;
                snprintf(sql, sizeof sql, "SELECT t.id, t.m, kname FROM t "
                         "INNER JOIN k ON %s = t.%s WHERE %s",
                         shape == 6 ? "k.kid" : "k.kv",
                         pick(2) ? "y" : "x", g.sql);
            } else if (shape < 3) {
                snprintf(sql, sizeof sql, "%s%s", shapes[shape], g.sql);
            } else if (shape == 4) {
                /* grouped by a text column: its groups found by the
                 * key's binary sort-key segment (op_agg.c text_groups),
                 * rows batched when only COUNT(*)s are kept; DISTINCT
                 * runs as such a grouping (plan.c distinct_as_group) */
                const char *col = txtcols[pick(2)];
                int form = (int)pick(3);
                if (form == 0)
                    snprintf(sql, sizeof sql, "SELECT DISTINCT %s FROM t "
                             "WHERE %s", col, g.sql);
                else if (form == 1)
                    snprintf(sql, sizeof sql, "SELECT %s, COUNT(*) FROM t "
                             "WHERE %s GROUP BY %s", col, g.sql, col);
                else
                    snprintf(sql, sizeof sql, "SELECT %s, COUNT(*), "
                             "SUM(d), MIN(u), MAX(s), FIRST(id), LAST(dt) "
                             "FROM t WHERE %s GROUP BY %s", col, g.sql, col);
            } else {
                const char *col = numcols[pick(7)];
                bool some = pick(2);
                snprintf(sql, sizeof sql, "SELECT TOP %d id, %s, s FROM t "
                         "WHERE %s%s%s ORDER BY %s%s", tops[pick(4)], col,
                         some ? "(" : "", g.sql, some ? ") OR id > 150" : "",
                         col, pick(2) ? " DESC" : "");
            }
            unsetenv("JETODBC_GENERAL_EVAL");
            run(db, sql, &g, &fast);
            setenv("JETODBC_GENERAL_EVAL", "1", 1);
            run(db, sql, &g, &slow);
            unsetenv("JETODBC_GENERAL_EVAL");
            bool slow_failed = strncmp(slow.p, "open", 4) == 0 ||
                               strstr(slow.p, "error ") != NULL;
            if (slow_failed) {
                /* a term that fails (text that is no number or date) may
                 * never be reached when a shortcut term rejects the row
                 * first (op_filter.c): the shortcut fails the same way
                 * or not at all, never otherwise */
                errors++;
                ck_assert_msg(!strstr(fast.p, "error ") ||
                              !strcmp(strstr(fast.p, "error "),
                                      strstr(slow.p, "error ")),
                              "clause %ld: %s\n  shortcut: %.300s\n  "
                              "general: %.300s", k, sql, fast.p, slow.p);
                continue;
            }
            ck_assert_msg(fast.len == slow.len &&
                          !memcmp(fast.p, slow.p, fast.len),
                          "clause %ld: %s\n  shortcut: %.300s\n  general: "
                          "%.300s", k, sql, fast.p, slow.p);
            for (size_t i = 0; i < fast.len; i++)
                rows += fast.p[i] == '\n';
            errors += strncmp(fast.p, "prepare", 7) == 0;
        }
    }
    /* the clauses select something, and mostly run */
    ck_assert_msg(rows > nstmt * 5, "%ld rows in all", rows);
    ck_assert_msg(errors < nstmt / 4, "%ld of %ld statements failed", errors,
                  nstmt);
    sqlt_finish(db, path, dir, &fast, &slow);
}
END_TEST

/* Text compared on the page (core/scan.c JET_TEST_TEXT, op_filter.c
 * jet_text_known), = and <> and LIKE with a fixed prefix: a column of
 * many values (past KNOWN_MAX learnt, the scan stops looking them up
 * mid-run), one of a few values repeated
 * over many pages, one with more values than the verdict table's slots
 * (evictions); NULLs, case and trailing-space variants, compressed and
 * plain text, and a column added after some rows were written. Each
 * statement as planned and through the general evaluator: the same. */
START_TEST(text_tests_on_the_page_match_the_general_path)
{
    char dir[] = "/tmp/jet_fastpred_XXXXXX", path[64];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/w.accdb", dir);
    char err[256];
    jw_db *w = jw_create(path, JW_FMT_ACE14, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    jw_coldef cols[4] = {
        { "id", JW_LONG, 0, 0 }, { "n", JW_LONG, 0, 0 },
        { "name", JW_TEXT, 20, 1 }, { "tag", JW_TEXT, 20, 0 }
    };
    jw_table *t = jw_table_begin(w, "w", cols, 4, NULL, 0);
    ck_assert_msg(t != NULL, "%s", jw_error(w));
    uint16_t name16[32], tag16[32];
    char buf[32];
    for (int r = 0; r < 3000; r++) {
        jw_value v[4];
        memset(v, 0, sizeof v);
        v[0].i = r;
        v[1].i = r % 23;
        /* 700 names, each a few times; some upper case, some NULL */
        snprintf(buf, sizeof buf, r % 11 == 3 ? "N%d" : "n%d", r % 700);
        v[2].text = name16;
        v[2].units = ascii16(name16, buf);
        v[2].null = r % 97 == 5;
        /* a few tags on most rows, 45 rare ones, a trailing space */
        if (r % 10 < 7)
            snprintf(buf, sizeof buf, "%s", (const char *[]){
                         "hot", "cold", "Hot", "warm", "hot ", "cold",
                         "cold" }[r % 7]);
        else
            snprintf(buf, sizeof buf, "x%d", r % 45);
        v[3].text = tag16;
        v[3].units = ascii16(tag16, buf);
        ck_assert_msg(jw_table_add_row(t, v) == 0, "%s", jw_error(w));
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(w));
    ck_assert_msg(jw_close(w, err, sizeof err) == 0, "%s", err);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
    static const char *const where[] = {
        "name = 'n77'", "name = 'N77'", "name <> 'n5' AND n > 10",
        "n > 3 AND name >= 'n650'", "name < 'n1'", "tag = 'hot'",
        "tag = 'HOT' AND n < 20", "tag <> 'cold' AND n > 2", "tag > 'x3'",
        "tag = 'x7' AND n >= 0", "n < 5 AND tag = 'warm' AND name = 'n3'",
        "tag = ''", "extra = 'late'", "extra <> 'late' AND n > 1",
        "n > 1 AND extra = 'LATE'", "name LIKE 'n7*'", "tag LIKE 'h*'",
        "tag LIKE 'H%' AND n > 4", "name LIKE 'N1_*'", "tag LIKE 'x1?'",
        "n < 9 AND name LIKE 'n6[0-4]*'", "extra LIKE 'l*'",
        "tag LIKE 'cold*' AND name LIKE 'n2*'"
    };
    static const char *const shapes[] = {
        "SELECT id, n, name, tag FROM w WHERE ",
        "SELECT COUNT(*) FROM w WHERE ",
        "SELECT COUNT(*), SUM(n), MIN(name) FROM w WHERE "
    };
    sqlt_buf fast = { 0 }, slow = { 0 };
    gen g;
    memset(&g, 0, sizeof g);
    char sql[256];
    long rows = 0;
    for (int phase = 0; phase < 2; phase++) {
        if (phase == 1) {
            exec_sql(db, "ALTER TABLE w ADD COLUMN extra TEXT(10)");
            exec_sql(db, "UPDATE w SET extra = 'late' WHERE id MOD 3 = 0");
            exec_sql(db, "UPDATE w SET extra = 'soon' WHERE id MOD 7 = 1");
        }
        for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
            if (phase == 0 && strstr(where[i], "extra"))
                continue;
            for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
                snprintf(sql, sizeof sql, "%s%s", shapes[k], where[i]);
                unsetenv("JETODBC_GENERAL_EVAL");
                run(db, sql, &g, &fast);
                setenv("JETODBC_GENERAL_EVAL", "1", 1);
                run(db, sql, &g, &slow);
                unsetenv("JETODBC_GENERAL_EVAL");
                ck_assert_msg(fast.len == slow.len &&
                              !memcmp(fast.p, slow.p, fast.len),
                              "%s\n  shortcut: %.300s\n  general: %.300s",
                              sql, fast.p, slow.p);
                ck_assert_msg(strncmp(fast.p, "open", 4) &&
                              strncmp(fast.p, "prepare", 7) &&
                              !strstr(fast.p, "error "), "%s: %.200s", sql,
                              fast.p);
                for (size_t b = 0; b < fast.len; b++)
                    rows += fast.p[b] == '\n';
            }
        }
    }
    ck_assert_msg(rows > 2000, "%ld rows in all", rows);
    sqlt_finish(db, path, dir, &fast, &slow);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fastpred");
    TCase *tc = tcase_create("fastpred");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, generated_where_clauses_match_the_general_path);
    tcase_add_test(tc, text_tests_on_the_page_match_the_general_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return sqlt_run(suite, NULL);
}
