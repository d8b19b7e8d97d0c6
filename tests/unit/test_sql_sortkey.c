/*
 * test_sql_sortkey.c - binary sort keys (driver/sql/sortkey.c).
 *
 * 1. memcmp of two encoded values orders as sql_key_cmp, ASC and DESC,
 *    over random and edge values of each class (integers, Currency,
 *    doubles with infinities and NaNs, dates, text with case, accents,
 *    NUL and surrogates).
 * 2. ORDER BY each sortable column of every table of nwind and
 *    ASampleDatabase (ASC and DESC) returns the rows, ties included, in
 *    the order of the value comparator (forced by an extra Decimal key,
 *    which the binary key cannot encode).
 * 3. The memory budget (MaxMemory) bounds sorts, grouping and joins.
 * Parts 2 and 3 are skipped without ../shared.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../shared_dir.h"
#include "sql/cursor.h"
#include "sql/sort.h"
#include "sql/values.h"
#include "unit.h"

/* <shared>/fixtures/<rel> into out (cap bytes); returns out. */
static const char *fixture(char *out, size_t cap, const char *rel)
{
    snprintf(out, cap, "%s/fixtures/%s", jet_shared_dir(), rel);
    return out;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static int sign(int r)
{
    return (r > 0) - (r < 0);
}

/* Order of a and b by their binary keys (one column, desc as given,
 * text in sort order co). */
static int bin_cmp(jet_collation co, const sv *a, const sv *b, bool desc)
{
    sql_sortkey_buf ka = { NULL, 0, 0 }, kb = { NULL, 0, 0 };
    uint8_t ca = 0, cb = 0;
    ck_assert_int_eq(sql_sortkey_append(&ka, &ca, co, a, desc), 0);
    ck_assert_int_eq(sql_sortkey_append(&kb, &cb, co, b, desc), 0);
    size_t n = ka.len < kb.len ? ka.len : kb.len;
    int r = memcmp(ka.p, kb.p, n);
    if (!r)
        r = (ka.len > kb.len) - (ka.len < kb.len);
    free(ka.p);
    free(kb.p);
    return sign(r);
}

static void random_value(sv *v, int kind, uint16_t *text)
{
    static const double edge[] = { 0.0, -0.0, 1.0, -1.0, 1e-310, -1e-310,
                                   1.7976931348623157e308,
                                   -1.7976931348623157e308, 0.5, -0.5,
                                   3.25, 1e15, -1e15, INFINITY,
                                   -INFINITY, NAN, -NAN };
    static const uint16_t alphabet[] = { 'a', 'A', 'b', 'B', 'z', ' ', '0',
                                         '9', 0, 0xE9, 0xC9, 0x3A3, 0x3C3,
                                         0xD83D, 0xDE00, 0xFFFF, '_', '-',
                                         '\'', 0x01, 0xDF, 0xE6, 0xE8,
                                         'e', 0x4E00, 0x2019, 0x0153 };
    memset(v, 0, sizeof *v);
    if (rnd() % 10 == 0)
        return;                             /* NULL */
    switch (kind) {
    case 0:
        v->k = rnd() % 8 == 0 ? K_BOOL : K_INT;
        v->i = v->k == K_BOOL ? (int64_t)(rnd() & 1)
               : rnd() % 4 == 0 ? (int64_t)rnd()
               : (int64_t)(rnd() % 21) - 10;
        break;
    case 1:
        v->k = K_MONEY;
        v->i = rnd() % 3 == 0 ? (int64_t)rnd() : (int64_t)(rnd() % 41) - 20;
        break;
    case 2:
        v->k = K_DOUBLE;
        if (rnd() % 2) {
            v->d = edge[rnd() % (sizeof edge / sizeof *edge)];
        } else {
            uint64_t u = rnd();
            memcpy(&v->d, &u, sizeof u);    /* NaNs too: above all */
        }
        break;
    case 3:
        v->k = K_DATE;
        v->d = (double)((int64_t)(rnd() % 200000) - 100000) +
               (double)(rnd() % 86400) / 86400.0;
        if (rnd() % 4 == 0)
            v->d = (double)(int64_t)v->d;   /* midnight, both signs */
        break;
    default: {
        size_t n = rnd() % 5;
        for (size_t i = 0; i < n; i++)
            text[i] = alphabet[rnd() % (sizeof alphabet / sizeof *alphabet)];
        v->k = K_TEXT;
        v->s = text;
        v->n = n;
        break;
    }
    }
}

START_TEST(binary_keys_order_as_the_value_comparator)
{
    uint16_t ta[8], tb[8];
    for (int kind = 0; kind < 7; kind++) {
        /* text (4) in each sort order: Legacy, 97, 2010+ General */
        jet_collation co = kind <= 4 ? JET_COLL_GENLEG : kind == 5 ?
                           JET_COLL_GEN97 : JET_COLL_GEN;
        for (int i = 0; i < 40000; i++) {
            sv a, b;
            random_value(&a, kind > 4 ? 4 : kind, ta);
            random_value(&b, kind > 4 ? 4 : kind, tb);
            int want = sign(sql_key_cmp(co, &a, &b));
            ck_assert_msg(bin_cmp(co, &a, &b, false) == want,
                          "kind %d: asc differs (k %d/%d)", kind, a.k, b.k);
            ck_assert_msg(bin_cmp(co, &a, &b, true) == -want,
                          "kind %d: desc differs", kind);
        }
    }
}
END_TEST

/* UTF-8 s (1 to 3 byte forms) as UTF-16 into out; the units written. */
static size_t utf16_of(uint16_t *out, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        if (c >= 0xE0) {
            c = (c & 0x0F) << 12 | (uint32_t)(p[0] & 0x3F) << 6 |
                (p[1] & 0x3F);
            p += 2;
        } else if (c >= 0xC0) {
            c = (c & 0x1F) << 6 | (*p++ & 0x3F);
        }
        out[n++] = (uint16_t)c;
    }
    return n;
}

/* Text in Access's General order, equal exactly when equal ignoring
 * case, in each of the three sort orders. */
START_TEST(text_sorts_in_general_order)
{
    static const char *const sorted[] = {
        "", "0", "9", "a", "A", "ab", "B", "coop", "cote", "côte",
        "e", "\xc3\xa9", "f", "z", "\xe4\xb8\x80", NULL };
    for (int co = JET_COLL_GEN97; co <= JET_COLL_GEN; co++) {
        for (size_t i = 0; sorted[i + 1]; i++) {
            uint16_t a[16], b[16];
            size_t an = utf16_of(a, sorted[i]);
            size_t bn = utf16_of(b, sorted[i + 1]);
            int r = sql_text_cmp((jet_collation)co, a, an, b, bn);
            bool same = an == 1 && bn == 1 && (a[0] | 0x20) == (b[0] | 0x20);
            if (co == JET_COLL_GEN97 && b[0] == 0x4E00)
                continue;       /* Jet3 ignores CJK: "" */
            ck_assert_msg(same ? r == 0 : r < 0, "order %d: '%s' vs '%s': %d",
                          co, sorted[i], sorted[i + 1], r);
        }
    }
    /* Legacy and 2010+: '-' and '\'' are minor (unprintable) */
    for (int co = JET_COLL_GENLEG; co <= JET_COLL_GEN; co++) {
        static const uint16_t coop[] = { 'c', 'o', 'o', 'p' };
        static const uint16_t co_op[] = { 'c', 'o', '-', 'o', 'p' };
        static const uint16_t cop[] = { 'c', 'o', 'p' };
        ck_assert_int_lt(sql_text_cmp((jet_collation)co, coop, 4, co_op, 5),
                         0);
        ck_assert_int_lt(sql_text_cmp((jet_collation)co, co_op, 5, cop, 3),
                         0);
    }
}
END_TEST

/* A damaged file's Date can hold any double (1e300, an infinity, NaN):
 * its key saturates instead of overflowing int64_t (UBSan caught the
 * signed overflow) and still orders with the in-range dates. */
START_TEST(date_keys_of_damaged_values_saturate)
{
    const double v[] = { -INFINITY, -1e300, -1e17, -657434.0, 0.0, 0.5,
                         2958465.5, 1e17, 1e300, INFINITY };
    for (size_t i = 0; i + 1 < sizeof v / sizeof v[0]; i++)
        ck_assert(sql_date_key(v[i]) <= sql_date_key(v[i + 1]));
    ck_assert(sql_date_key(-657434.0) < sql_date_key(2958465.5));
    ck_assert(sql_date_key(1e17) > sql_date_key(2958465.5));
    ck_assert_int_eq(sql_date_key(0.5), 43200000);
    ck_assert_int_eq(sql_date_key(NAN), 0);
}
END_TEST

START_TEST(mixed_kinds_fall_back)
{
    sql_sortkey_buf b = { NULL, 0, 0 };
    uint8_t cls = 0;
    sv i, d;
    memset(&i, 0, sizeof i);
    memset(&d, 0, sizeof d);
    i.k = K_INT;
    i.i = 1;
    d.k = K_DOUBLE;
    d.d = 1.5;
    ck_assert_int_eq(sql_sortkey_append(&b, &cls, JET_COLL_GENLEG, &i, false),
                     0);
    ck_assert_int_eq(sql_sortkey_append(&b, &cls, JET_COLL_GENLEG, &d, false),
                     1);
    free(b.p);
}
END_TEST

/* ------------------------------------------------- ORDER BY on fixtures */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

/* Hash of every row of sql in order (each value's type, NULL flag and
 * bytes); *nrows the rows, -1 when the statement fails. */
static uint64_t rows_hash(jet_db *db, const char *sql, long *nrows)
{
    sql_stmt *st;
    sql_cursor *c;
    sql_error err;
    uint64_t h = 1469598103934665603ull;
    *nrows = -1;
    if (sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, &err) != 0)
        return 0;
    if (sql_cursor_open(&c, st, NULL, NULL, &err) == 0) {
        size_t ncols = sql_stmt_ncols(st);
        *nrows = 0;
        while (sql_cursor_next(c) == JET_OK) {
            (*nrows)++;
            for (size_t i = 0; i < ncols; i++) {
                jet_value v;
                ck_assert_int_eq(sql_cursor_value(c, i, &v), 0);
                h = fnv(h, &v.is_null, 1);
                if (v.is_null)
                    continue;
                if (v.data && v.len)
                    h = fnv(h, v.data, v.len);
                else
                    h = fnv(h, &v.u, sizeof v.u);
            }
            h = fnv(h, "\n", 1);
        }
        sql_cursor_close(c);
    }
    sql_stmt_free(st);
    return h;
}

static bool sortable(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_BIGINT: case JET_T_MONEY: case JET_T_FLOAT:
    case JET_T_DOUBLE: case JET_T_DATETIME: case JET_T_TEXT:
    case JET_T_NUMERIC:
        return true;
    default:
        return false;
    }
}

static void check_fixture(const char *rel, unsigned *checked)
{
    char path[1024];
    jet_db *db = NULL;
    jet_error jerr;
    fixture(path, sizeof path, rel);
    ck_assert_msg(jet_db_open(&db, path, NULL, &jerr) == JET_OK, "%s: %s",
                  path, jerr.msg);
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *td;
        if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&td, db, o) != JET_OK)
            continue;
        for (uint16_t k = 0; k < td->ncols; k++) {
            if (!sortable(td->cols[k].type))
                continue;
            for (int desc = 0; desc < 2; desc++) {
                char a[512], b[512];
                long na, nb;
                snprintf(a, sizeof a, "SELECT * FROM [%s] ORDER BY [%s]%s",
                         td->name, td->cols[k].name, desc ? " DESC" : "");
                snprintf(b, sizeof b, "SELECT * FROM [%s] ORDER BY [%s]%s, "
                         "CDec(0)", td->name, td->cols[k].name,
                         desc ? " DESC" : "");
                uint64_t ha = rows_hash(db, a, &na);
                uint64_t hb = rows_hash(db, b, &nb);
                if (na < 0 && nb < 0)
                    continue;
                ck_assert_msg(na == nb && ha == hb, "%s: %s differs from "
                              "the value comparator", rel, a);
                (*checked)++;
            }
        }
    }
    jet_db_close(db);
}

START_TEST(order_by_every_column_agrees_with_the_value_comparator)
{
    unsigned checked = 0;
    check_fixture("public/mdbtestdata/nwind.mdb", &checked);
    check_fixture("public/mdbtestdata/ASampleDatabase.accdb", &checked);
    ck_assert_uint_gt(checked, 100);
}
END_TEST

/* A hash join past the cursor's memory budget is partitioned to the
 * temporary file (grace hash join) and counts what it counts in memory.
 * (Rows of sorts, groupings and joins past the budget: test_sql_spill.) */
START_TEST(memory_budget_bounds_sorts_grouping_and_joins)
{
    jet_db *db = NULL;
    jet_error jerr;
    static const char *const sqls[] = {
        "SELECT COUNT(*) FROM bulk a INNER JOIN bulk b ON a.id + 0 = b.id + 0",
    };
    char bulk[1024];
    ck_assert_int_eq(jet_db_open(&db, fixture(bulk, sizeof bulk,
                                              "bulk/bulk.accdb"), NULL, &jerr),
                     JET_OK);
    for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
        sql_stmt *st;
        sql_cursor *c;
        sql_error err;
        sql_cursor_opts o;
        memset(&o, 0, sizeof o);
        o.max_memory = (size_t)1 << 20;
        ck_assert_int_eq(sql_stmt_prepare(&st, db, sqls[i], strlen(sqls[i]),
                                          NULL, &err), 0);
        ck_assert_msg(sql_cursor_open(&c, st, NULL, &o, &err) == 0,
                      "%s: %s %s (plan %s)", sqls[i], err.sqlstate, err.msg,
                      sql_stmt_plan_text(st));
        ck_assert_int_eq(sql_cursor_next(c), JET_OK);
        jet_value small, big;
        ck_assert_int_eq(sql_cursor_value(c, 0, &small), 0);
        ck_assert_msg(c->spill != NULL, "%s: no spill within 1 MiB", sqls[i]);
        sql_cursor_close(c);
        o.max_memory = (size_t)512 << 20;
        ck_assert_int_eq(sql_cursor_open(&c, st, NULL, &o, &err), 0);
        ck_assert_int_eq(sql_cursor_next(c), JET_OK);
        ck_assert_int_eq(sql_cursor_value(c, 0, &big), 0);
        ck_assert_int_eq(small.u.i, 200000);
        ck_assert_int_eq(big.u.i, small.u.i);
        sql_cursor_close(c);
        sql_stmt_free(st);
    }
    jet_db_close(db);
}
END_TEST

static Suite *sql_sortkey_suite(void)
{
    Suite *s = suite_create("sql_sortkey");
    TCase *tc = tcase_create("keys");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, binary_keys_order_as_the_value_comparator);
    tcase_add_test(tc, text_sorts_in_general_order);
    tcase_add_test(tc, mixed_kinds_fall_back);
    tcase_add_test(tc, date_keys_of_damaged_values_saturate);
    char path[1024];
    if (access(fixture(path, sizeof path, "public/mdbtestdata/nwind.mdb"),
               R_OK) == 0)
        tcase_add_test(tc, order_by_every_column_agrees_with_the_value_comparator);
    if (access(fixture(path, sizeof path, "bulk/bulk.accdb"), R_OK) == 0)
        tcase_add_test(tc, memory_budget_bounds_sorts_grouping_and_joins);
    else
        printf("no %s fixtures: ORDER BY over fixtures not run\n",
               jet_shared_dir());
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(sql_sortkey_suite)
