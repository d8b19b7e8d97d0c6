/*
 * test_sql_grpsort.c - GROUP BY (or DISTINCT) of one Text column given
 * straight from its groups, sorted by their keys' binary sort-key
 * segments (driver/sql/exec.c sorted_groups, op_agg.c sql_group_sort),
 * against the records the general path sorts (JETODBC_GENERAL_EVAL).
 *
 * A table of 6,000 rows is written to a temporary file (core/newfile.c):
 * labels of one to three words in compressed (s) and plain (u) Text,
 * with case variants ('alpha', 'ALPHA'), accents, trailing spaces, empty
 * text, NULLs, and labels of up to 255 characters that share their
 * first 200 (the segments' deep levels); some 2,000 groups, so the
 * radix passes, the runs of equal bytes and the short runs all come
 * into play. Each query runs as planned and with JETODBC_GENERAL_EVAL
 * set; every row (each value's type, from sql_cursor_value and
 * sql_cursor_value_own, and the value), or the SQLSTATE of a failure
 * and where it came (open or fetch), must be the same. The queries:
 * grouped with COUNT(*), DISTINCT, ORDER BY the key ASC and DESC, TOP
 * n, aggregates of every kind (a SUM past Double's range: the failure
 * at open, as the records find it), HAVING, an empty table, an empty
 * result, and a MaxMemory small enough that the groups spill (then the
 * records sort them).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "newfile.h"
#include "jet.h"
#include "sql/engine.h"
#include "sqltest.h"
#include "unit.h"

#define NROWS 6000

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static size_t pick(size_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (size_t)(rng % n);
}

static const char *const words[] = {
    "alpha", "Alpha", "ALPHA", "beta", "b", "zulu", "alphabet", "gamma",
    "delta", "Émile", "émile", "echelle", "échelle", "Échelle", "[x]",
    "a*b", "100", "12.5", "beta ", "kaleidoscope", "key", "tapestry",
    "infrastructure", "in", "on", "horizon", "harbor", "quantum", "ace",
    "an", "zen", "labyrinth", "page", "column", "Über", "uber", "ß", "ss"
};
#define NWORDS (sizeof words / sizeof *words)

/* UTF-8 (two-byte sequences at most) to UTF-16: units. */
static size_t utf16(uint16_t *u, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        if (c >= 0xC0)
            c = (c & 0x1F) << 6 | (*p++ & 0x3F);
        u[n++] = (uint16_t)c;
    }
    return n;
}

/* A label into b (UTF-8): one to three words, or a long one. */
static void label(char *b, size_t cap)
{
    b[0] = '\0';
    if (pick(40) == 0) {
        /* up to 255 characters, the first 200 shared */
        size_t n = 0;
        for (; n < 200; n++)
            b[n] = (char)('a' + n % 7);
        size_t end = 200 + pick(56);
        while (n < end)
            b[n++] = (char)('a' + pick(3));
        b[n] = '\0';
        return;
    }
    if (pick(60) == 0)
        return;                         /* empty text */
    size_t nw = 1 + pick(3);
    for (size_t i = 0; i < nw; i++) {
        if (i)
            strncat(b, " ", cap - strlen(b) - 1);
        strncat(b, words[pick(NWORDS)], cap - strlen(b) - 1);
    }
}

/* The table t: id LONG, s TEXT(255) compressed, u TEXT(255) plain,
 * l LONG, d DOUBLE, m MONEY, x DOUBLE (1.7e308 in the rows of the group
 * u = 'zz overflow': its SUM is past Double's range); and the empty
 * table e (id, s). */
static void write_tables(const char *path)
{
    char err[256];
    jw_db *db = jw_create(path, JW_FMT_ACE14, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    jw_coldef cols[7] = {
        { "id", JW_LONG, 0, 0 }, { "s", JW_TEXT, 255, 1 },
        { "u", JW_TEXT, 255, 0 }, { "l", JW_LONG, 0, 0 },
        { "d", JW_DOUBLE, 0, 0 }, { "m", JW_MONEY, 0, 0 },
        { "x", JW_DOUBLE, 0, 0 }
    };
    jw_table *t = jw_table_begin(db, "t", cols, 7, NULL, 0);
    ck_assert_msg(t != NULL, "%s", jw_error(db));
    char sb[300], ub[300];
    uint16_t s16[300], u16[300];
    for (int r = 0; r < NROWS; r++) {
        jw_value v[7];
        memset(v, 0, sizeof v);
        v[0].i = r + 1;
        label(sb, sizeof sb);
        if (r % 500 == 7)
            snprintf(ub, sizeof ub, "zz overflow");
        else
            label(ub, sizeof ub);
        v[1].text = s16;
        v[1].units = utf16(s16, sb);
        v[1].null = pick(50) == 0;
        v[2].text = u16;
        v[2].units = utf16(u16, ub);
        v[2].null = r % 500 != 7 && pick(50) == 0;
        v[3].i = (int64_t)pick(1000);
        v[4].d = (double)pick(100000) / 8;
        v[5].i = (int64_t)pick(10000000);
        v[6].d = r % 500 == 7 ? 1.7e308 : (double)pick(1000);
        ck_assert_msg(jw_table_add_row(t, v) == 0, "%s", jw_error(db));
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(db));
    jw_table *e = jw_table_begin(db, "e", cols, 2, NULL, 0);
    ck_assert_msg(e != NULL, "%s", jw_error(db));
    ck_assert_msg(jw_table_end(e) == 0, "%s", jw_error(db));
    ck_assert_msg(jw_close(db, err, sizeof err) == 0, "%s", err);
}

/* Every row of sql, each value with its types (sql_cursor_value,
 * sql_cursor_value_own), into o; or where it failed and its SQLSTATE.
 * max_memory: the cursor's budget (0: the default). Returns the rows. */
static long run(jet_db *db, const char *sql, size_t max_memory, sqlt_buf *o)
{
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    sql_cursor_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.max_memory = max_memory;
    o->len = 0;
    sqlt_puts(o, "");
    ck_assert_msg(sql_stmt_prepare(&st, db, sql, strlen(sql), NULL,
                                   &err) == 0, "%s: %s", sql, err.msg);
    if (sql_cursor_open(&c, st, NULL, &opts, &err) != 0) {
        sqlt_puts(o, "open ");
        sqlt_puts(o, err.sqlstate);
        sql_stmt_free(st);
        return 0;
    }
    size_t ncols = sql_stmt_ncols(st);
    long rows = 0;
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK) {
        for (size_t i = 0; i < ncols; i++) {
            jet_value v, w;
            char t[32];
            ck_assert_int_eq(sql_cursor_value_own(c, i, &w), JET_OK);
            int tw = (int)w.type;
            ck_assert_int_eq(sql_cursor_value(c, i, &v), JET_OK);
            snprintf(t, sizeof t, "%s%d/%d:", i ? "|" : "", (int)v.type, tw);
            sqlt_puts(o, t);
            sqlt_render(o, db, &v);
        }
        sqlt_puts(o, "\n");
        rows++;
    }
    if (rc != JET_DONE) {
        sqlt_puts(o, "error ");
        sqlt_puts(o, sql_cursor_error(c)->sqlstate);
    }
    sql_cursor_close(c);
    sql_stmt_free(st);
    return rows;
}

START_TEST(sorted_groups_match_the_records)
{
    char dir[] = "/tmp/jet_grpsort_XXXXXX", path[64];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.accdb", dir);
    write_tables(path);
    jet_db *db = NULL;
    jet_error jerr;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &jerr), JET_OK);
    static const struct {
        const char *sql;
        long min_rows;      /* at least (-1: fails) */
        size_t max_memory;
    } q[] = {
        { "SELECT s, COUNT(*) FROM t GROUP BY s", 1500, 0 },
        { "SELECT u, COUNT(*) FROM t GROUP BY u", 1500, 0 },
        { "SELECT DISTINCT s FROM t", 1500, 0 },
        { "SELECT DISTINCT u FROM t", 1500, 0 },
        { "SELECT COUNT(*), s FROM t GROUP BY s ORDER BY s", 1500, 0 },
        { "SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY s DESC", 1500, 0 },
        { "SELECT DISTINCT u FROM t ORDER BY u DESC", 1500, 0 },
        { "SELECT TOP 7 s, COUNT(*) FROM t GROUP BY s", 7, 0 },
        { "SELECT TOP 3 u FROM t GROUP BY u ORDER BY u DESC", 3, 0 },
        { "SELECT s, COUNT(*), COUNT(u), MIN(u), MAX(id), FIRST(u), "
          "LAST(id) FROM t GROUP BY s", 1500, 0 },
        { "SELECT s, COUNT(*), SUM(d), AVG(m), SUM(m), MIN(d) FROM t "
          "GROUP BY s", 1500, 0 },
        { "SELECT u, SUM(l) FROM t GROUP BY u", 1500, 0 },
        { "SELECT u, COUNT(*), SUM(x) FROM t GROUP BY u", -1, 0 },
        { "SELECT s, COUNT(*) FROM t WHERE l < 100 GROUP BY s", 300, 0 },
        { "SELECT s, COUNT(*) FROM t GROUP BY s HAVING COUNT(*) > 2", 50, 0 },
        { "SELECT s, COUNT(*) FROM t WHERE id < 0 GROUP BY s", 0, 0 },
        { "SELECT DISTINCT s FROM e", 0, 0 },
        { "SELECT s, COUNT(*) FROM e GROUP BY s", 0, 0 },
        /* past the budget the groups spill: the records sort them */
        { "SELECT s, COUNT(*) FROM t GROUP BY s", 1500, 64 << 10 },
        { "SELECT DISTINCT u FROM t", 1500, 64 << 10 },
    };
    sqlt_buf fast = { 0 }, slow = { 0 };
    for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
        unsetenv("JETODBC_GENERAL_EVAL");
        long n = run(db, q[i].sql, q[i].max_memory, &fast);
        setenv("JETODBC_GENERAL_EVAL", "1", 1);
        run(db, q[i].sql, q[i].max_memory, &slow);
        unsetenv("JETODBC_GENERAL_EVAL");
        ck_assert_msg(fast.len == slow.len &&
                      !memcmp(fast.p, slow.p, fast.len),
                      "%s\n  sorted groups: %.400s\n  records: %.400s",
                      q[i].sql, fast.p, slow.p);
        if (q[i].min_rows < 0)
            ck_assert_msg(!strncmp(fast.p, "open 22003", 10),
                          "%s: %.200s", q[i].sql, fast.p);
        else
            ck_assert_msg(n >= q[i].min_rows && (q[i].min_rows || !n),
                          "%s: %ld rows", q[i].sql, n);
    }
    sqlt_finish(db, path, dir, &fast, &slow);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("grpsort");
    TCase *tc = tcase_create("grpsort");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sorted_groups_match_the_records);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return sqlt_run(suite, NULL);
}
