/*
 * sqltest.c - the shared scaffolding of the query-engine unit tests
 * (sqltest.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../shared_dir.h"
#include "sqltest.h"

void sqlt_put(sqlt_buf *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n + 1)
            cap *= 2;
        o->p = realloc(o->p, cap);
        ck_assert_ptr_nonnull(o->p);
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = '\0';
}

void sqlt_puts(sqlt_buf *o, const char *s)
{
    sqlt_put(o, s, strlen(s));
}

void sqlt_render(sqlt_buf *o, jet_db *db, const jet_value *v)
{
    char buf[128];
    if (v->is_null) {
        sqlt_puts(o, "NULL");
        return;
    }
    switch (v->type) {
    case JET_T_BOOL:
        sqlt_puts(o, v->u.b ? "true" : "false");
        return;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        snprintf(buf, sizeof buf, "%lld", (long long)v->u.i);
        break;
    case JET_T_MONEY:
        jet_money_format(v->u.money, buf, sizeof buf);
        break;
    case JET_T_FLOAT:
        snprintf(buf, sizeof buf, "%.17g", (double)v->u.f);
        break;
    case JET_T_DOUBLE:
        snprintf(buf, sizeof buf, "%.17g", v->u.d);
        break;
    case JET_T_DATETIME: {
        jet_timestamp ts;
        ck_assert_int_eq(jet_datetime_split(v->u.d, &ts), JET_OK);
        int n = snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d",
                         ts.year, ts.month, ts.day, ts.hour, ts.minute,
                         ts.second);
        if (ts.fraction_ns / 1000000)
            snprintf(buf + n, sizeof buf - (size_t)n, ".%03u",
                     ts.fraction_ns / 1000000);
        break;
    }
    case JET_T_NUMERIC:
        jet_numeric_format(v, buf, sizeof buf);
        break;
    case JET_T_TEXT: case JET_T_MEMO: {
        size_t n = 0;
        ck_assert_int_eq(jet_text_to_utf8(db, v, NULL, 0, &n), JET_OK);
        char *t = malloc(n + 1);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_eq(jet_text_to_utf8(db, v, t, n, &n), JET_OK);
        sqlt_put(o, t, n);
        free(t);
        return;
    }
    default:
        snprintf(buf, sizeof buf, "<bin %zu>", v->len);
        break;
    }
    sqlt_puts(o, buf);
}

void sqlt_render_row(sqlt_buf *o, jet_db *db, sql_cursor *c, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++) {
        jet_value v;
        ck_assert_msg(sql_cursor_value(c, i, &v) == JET_OK, "value: %s",
                      sql_cursor_error(c)->msg);
        if (i)
            sqlt_puts(o, "|");
        sqlt_render(o, db, &v);
    }
}

uint64_t sqlt_fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

jet_db *sqlt_open_cached(const char *rel, size_t cache_pages)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fixtures/%s", jet_shared_dir(), rel);
    jet_db *db = NULL;
    jet_error err;
    jet_open_options o;
    memset(&o, 0, sizeof o);
    o.cache_pages = cache_pages;
    ck_assert_msg(jet_db_open(&db, path, &o, &err) == JET_OK, "%s: %s",
                  path, err.msg);
    return db;
}

jet_db *sqlt_open_fixture(const char *rel)
{
    return sqlt_open_cached(rel, 0);
}

uint64_t sqlt_data_pages(jet_db *db, const char *table)
{
    const jet_tdef *t;
    jet_scan *s;
    uint32_t last = UINT32_MAX, pgno;
    uint16_t row;
    uint64_t n = 0;
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, table)),
                     JET_OK);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while (jet_scan_next(s) == JET_OK) {
        ck_assert_int_eq(jet_scan_position(s, &pgno, &row), JET_OK);
        if (pgno != last)
            n++;
        last = pgno;
    }
    jet_scan_close(s);
    return n;
}

long sqlt_drain(sql_stmt *st, jet_db *db, const jet_value *params,
                jet_read_stats *io, uint64_t *rows_read)
{
    sql_cursor *c;
    sql_error err;
    jet_read_stats a, b;
    long rows = 0;
    jet_db_read_stats(db, &a);
    ck_assert_msg(sql_cursor_open(&c, st, params, NULL, &err) == 0,
                  "open: %s %s", err.sqlstate, err.msg);
    while (sql_cursor_next(c) == JET_OK)
        rows++;
    jet_db_read_stats(db, &b);
    if (rows_read)
        *rows_read = sql_cursor_rows_read(c);
    sql_cursor_close(c);
    if (io) {
        io->pages = b.pages - a.pages;
        io->requests = b.requests - a.requests;
        io->bytes = b.bytes - a.bytes;
    }
    return rows;
}

int sqlt_run(Suite *(*suite_fn)(void), const char *const *needs)
{
    for (; needs && *needs; needs++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/fixtures/%s", jet_shared_dir(),
                 *needs);
        if (access(path, R_OK) != 0) {
            printf("skip: no %s\n", path);
            return 77;
        }
    }
    SRunner *sr = srunner_create(suite_fn());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void sqlt_finish(jet_db *db, const char *path, const char *dir,
                 sqlt_buf *a, sqlt_buf *b)
{
    free(a->p);
    free(b->p);
    a->p = b->p = NULL;
    jet_db_close(db);
    unlink(path);
    rmdir(dir);
}
