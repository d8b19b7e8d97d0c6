/*
 * test_odbc_collate.c - ORDER BY on text agrees with the file's own text
 * indexes, through the driver manager.
 *
 * For every text index of every plain fixture under ../shared whose first
 * column is a TEXT column in the db's sort order (Access General: Jet3
 * 97, Legacy, 2010+), the core walks the index (the order Access wrote)
 * and the driver answers SELECT [col] FROM [t] ORDER BY [col] (DESC for a
 * descending index column). Both must give the same values in the same
 * order, except inside runs of values with the same index key (the same
 * text ignoring case, or differing only in characters Jet's key does not
 * hold, e.g. control characters in Jet3): the walk orders those by row
 * address, ORDER BY by folded code points and then reading order (Access
 * leaves it undefined); there the two runs must hold the same strings. Indexes with a value
 * Jet's tables do not cover (CJK in Jet4/ACE: sorted by our documented
 * fallback) are compared and counted, not asserted.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbctest.h"
#include "collate.h"

#define MAXU 300                /* units kept per value (TEXT <= 255) */

typedef struct val {
    bool null;
    size_t n;
    uint16_t u[MAXU];
} val;

typedef struct vlist {
    val *v;
    size_t n, cap;
} vlist;

static int n_indexes, n_exact, n_uncovered, n_uncovered_diff, n_values;

static val *push(vlist *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        ck_assert_ptr_nonnull(l->v);
    }
    memset(&l->v[l->n], 0, sizeof l->v[0]);
    return &l->v[l->n++];
}

static int cmp_units(const void *pa, const void *pb)
{
    const val *a = pa, *b = pb;
    size_t m = a->n < b->n ? a->n : b->n;
    if (a->null != b->null)
        return a->null ? -1 : 1;
    for (size_t i = 0; i < m; i++)
        if (a->u[i] != b->u[i])
            return a->u[i] < b->u[i] ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* Length of a sort key's first level (Jet's index key of the folded
 * text, up to its 00 00 end). */
static size_t level1(const uint8_t *k)
{
    size_t l = 0;
    while (!(k[l] == 0 && k[l + 1] == 0))
        l += k[l] == 0 ? 2 : 1;
    return l;
}

/* Same run of equal index keys: both NULL, or equal first levels of the
 * sort keys (Jet's key: the walk orders such entries by row address). */
static bool same_key(jet_collation co, const val *a, const val *b)
{
    static uint8_t ka[1 << 15], kb[1 << 15];
    size_t la, lb;
    if (a->null || b->null)
        return a->null && b->null;
    la = jet_text_sort_key_co(ka, sizeof ka, co, a->u, a->n);
    lb = jet_text_sort_key_co(kb, sizeof kb, co, b->u, b->n);
    ck_assert_uint_le(la, sizeof ka);
    ck_assert_uint_le(lb, sizeof kb);
    la = level1(ka);
    lb = level1(kb);
    return la == lb && memcmp(ka, kb, la) == 0;
}

/* The walk's values of index i (first column col). *covered: every
 * value's characters are in Jet's tables. */
static void walk_values(vlist *out, jet_db *db, const jet_tdef *t,
                        uint16_t i, uint16_t col, bool *covered)
{
    jet_index_cursor *c;
    jet_scan *s;
    jet_rc rc;
    uint32_t pg;
    uint16_t row;
    *covered = true;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&c, db, t, i), JET_OK);
    while ((rc = jet_index_next(c, &pg, &row)) == JET_OK) {
        jet_value v;
        val *x = push(out);
        ck_assert_int_eq(jet_scan_fetch_row(s, pg, row), JET_OK);
        ck_assert_int_eq(jet_scan_value(s, col, &v), JET_OK);
        x->null = v.is_null;
        if (!v.is_null) {
            ck_assert_int_eq(jet_text_to_utf16(db, &v, x->u, MAXU, &x->n),
                             JET_OK);
            if (x->n > MAXU)
                x->n = MAXU;
            for (size_t k = 0; k < x->n; k++)
                if (x->u[k] >= 0x3400 && x->u[k] < 0xF900)
                    *covered = false;
        }
    }
    ck_assert_int_eq(rc, JET_DONE);
    jet_index_cursor_close(c);
    jet_scan_close(s);
}

/* The driver's ORDER BY answer as UTF-16 values. */
static void order_by_values(vlist *out, SQLHDBC dbc, const char *table,
                            const char *col, bool desc)
{
    char sql[1024];
    SQLHSTMT st;
    SQLRETURN rc;
    snprintf(sql, sizeof sql, "SELECT [%s] FROM [%s] ORDER BY [%s]%s", col,
             table, col, desc ? " DESC" : "");
    st = odbct_exec(dbc, sql);
    while ((rc = SQLFetch(st)) == SQL_SUCCESS) {
        SQLWCHAR buf[MAXU + 1];
        SQLLEN ind;
        val *x = push(out);
        rc = SQLGetData(st, 1, SQL_C_WCHAR, buf, sizeof buf, &ind);
        ck_assert_msg(SQL_SUCCEEDED(rc), "%s: %s", sql,
                      odbct_message(SQL_HANDLE_STMT, st));
        x->null = ind == SQL_NULL_DATA;
        if (!x->null) {
            size_t n = (size_t)ind / sizeof(SQLWCHAR);
            x->n = n > MAXU ? MAXU : n;
            for (size_t k = 0; k < x->n; k++)
                x->u[k] = (uint16_t)buf[k];
        }
    }
    ck_assert_int_eq(rc, SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Compare walk w with answer a run by run; returns the differing runs. */
static int compare(const vlist *w, vlist *a, jet_collation co)
{
    int diffs = 0;
    size_t i = 0;
    if (w->n != a->n)
        return 1;
    while (i < w->n) {
        size_t j = i + 1;
        while (j < w->n && same_key(co, &w->v[i], &w->v[j]))
            j++;
        /* the run's strings, each list sorted by code units */
        val *ws = malloc((j - i) * sizeof *ws), *as = malloc((j - i) *
                                                                 sizeof *as);
        ck_assert_ptr_nonnull(ws);
        ck_assert_ptr_nonnull(as);
        memcpy(ws, &w->v[i], (j - i) * sizeof *ws);
        memcpy(as, &a->v[i], (j - i) * sizeof *as);
        qsort(ws, j - i, sizeof *ws, cmp_units);
        qsort(as, j - i, sizeof *as, cmp_units);
        for (size_t k = 0; k < j - i; k++)
            if (cmp_units(&ws[k], &as[k]) != 0) {
                diffs++;
                break;
            }
        free(ws);
        free(as);
        i = j;
    }
    return diffs;
}

static void strip_nulls(vlist *l)
{
    size_t k = 0;
    for (size_t q = 0; q < l->n; q++)
        if (!l->v[q].null)
            l->v[k++] = l->v[q];
    l->n = k;
}

static void check_file(const char *path)
{
    jet_db *db;
    jet_error err;
    SQLHENV env;
    SQLHDBC dbc;
    jet_rc rc = jet_db_open(&db, path, NULL, &err);
    if (rc != JET_OK)
        return;         /* encrypted or unsupported: not this test's */
    odbct_connect_path(&env, &dbc, path);
    for (size_t o = 0; o < jet_catalog_count(db); o++) {
        const jet_object *obj = jet_catalog_at(db, o);
        const jet_tdef *t;
        if (obj->kind != JET_OBJ_TABLE ||
            jet_tdef_load(&t, db, obj) != JET_OK)
            continue;
        for (uint16_t i = 0; i < t->nindexes; i++) {
            const jet_index *ix = &t->indexes[i];
            const jet_column *col;
            vlist w = { 0 }, a = { 0 };
            bool covered;
            int diffs;
            if (ix->ncols < 1)
                continue;
            col = &t->cols[ix->cols[0].col];
            if (col->type != JET_T_TEXT ||
                jet_collation_of(jet_db_version(db), col) !=
                    jet_db_collation(db))
                continue;
            walk_values(&w, db, t, i, ix->cols[0].col, &covered);
            order_by_values(&a, dbc, t->name, col->name,
                            !ix->cols[0].ascending);
            if (ix->ignore_nulls) {
                /* entries whose key columns are all NULL are missing:
                 * compare the non-NULL values alone */
                strip_nulls(&w);
                strip_nulls(&a);
            }
            ck_assert_msg(w.n == a.n, "%s %s.%s: walk %zu rows, ORDER BY "
                          "%zu", path, t->name, ix->name, w.n, a.n);
            diffs = compare(&w, &a, jet_db_collation(db));
            n_indexes++;
            n_values += (int)w.n;
            if (covered) {
                ck_assert_msg(diffs == 0, "%s %s.%s: ORDER BY [%s] differs "
                              "from the index walk in %d runs", path,
                              t->name, ix->name, col->name, diffs);
                n_exact++;
            } else {
                n_uncovered++;
                n_uncovered_diff += diffs != 0;
            }
            free(w.v);
            free(a.v);
        }
    }
    odbct_disconnect(env, dbc);
    jet_db_close(db);
}

START_TEST(order_by_text_equals_every_text_index_walk)
{
    static const char *const dirs[] = { "jackcess", "jackcess/V1997",
                                        "jackcess/V2000", "jackcess/V2003",
                                        "jackcess/V2007", "jackcess/V2010",
                                        "jackcess/V2019", "mdbtestdata",
                                        NULL };
    for (const char *const *d = dirs; *d; d++) {
        char dir[1024];
        DIR *dp;
        struct dirent *de;
        snprintf(dir, sizeof dir, "%s", odbct_fixture(*d));
        dp = opendir(dir);
        if (!dp)
            continue;
        while ((de = readdir(dp)) != NULL) {
            char path[2048];
            if (fnmatch("*.mdb", de->d_name, 0) != 0 &&
                fnmatch("*.accdb", de->d_name, 0) != 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            check_file(path);
        }
        closedir(dp);
    }
    fprintf(stderr, "test_odbc_collate: %d text indexes (%d values): %d "
            "in exactly the walk's order; %d with characters outside "
            "Jet's tables (%d of them ordered otherwise)\n", n_indexes,
            n_values, n_exact, n_uncovered, n_uncovered_diff);
    ck_assert_int_gt(n_exact, 20);
}
END_TEST

static Suite *collate_suite(void)
{
    Suite *s = suite_create("odbc_collate");
    TCase *tc = tcase_create("collate");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, order_by_text_equals_every_text_index_walk);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(collate_suite)
