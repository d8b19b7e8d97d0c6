/*
 * test_newdb.c - new empty databases (jet_db_create_file, core/newdb.c)
 * in every format written: Jet4, ACE 12, 14, 16, 17.
 *
 * Each new file: holds no user table and the system tables Access's
 * engine makes (MSysObjects, MSysACEs, MSysQueries, MSysRelationships);
 * passes the core's own check (jet_db_check, 0 problems), `jetcheck
 * verify` (0 problems) and `jetcheck dump` shows no table; mdbtools'
 * mdb-tables lists its system tables. Then a table made in it
 * (jet_db_create_table: AutoNumber primary key, indexed text, numbers,
 * dates, memo) takes JET_NEWDB_ROWS rows (default 2,000) and reads back
 * after reopening; the file passes both checks again. A second create at
 * the same path is refused with the file unchanged; a password is
 * refused (JET_EUNSUPPORTED) with nothing written.
 *
 * jetcheck and mdbtools are optional (skipped with a note when absent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ddl.h"
#include "internal.h"
#include "write.h"
#include "unit.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

static const struct {
    jet_version ver;
    const char *tag, *ext, *jackcess;   /* jackcess: its FileFormat name */
} formats[] = {
    { JET_VER_4, "jet4", "mdb", "V2003" },
    { JET_VER_ACE12, "ace12", "accdb", "V2007" },
    { JET_VER_ACE14, "ace14", "accdb", "V2010" },
    { JET_VER_ACE16, "ace16", "accdb", "V2016" },
    { JET_VER_ACE17, "ace17", "accdb", "V2019" },
};

/* A path in a new temporary directory that nothing is at yet. */
static void new_path(char *path, size_t cap, char *dir, size_t dcap,
                     const char *tag, const char *ext)
{
    snprintf(dir, dcap, "/tmp/jet_newdb_%s_XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, cap, "%s/new %s.%s", dir, tag, ext);
}

static void run(const char *cmd, char *out, size_t cap, int *status)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    ck_assert_ptr_nonnull(p);
    while (n + 1 < cap) {
        size_t k = fread(out + n, 1, cap - 1 - n, p);
        if (k == 0)
            break;
        n += k;
    }
    out[n] = '\0';
    while (fgetc(p) != EOF)
        ;
    *status = pclose(p);
}

static void check_reports(void *ctx, uint32_t pgno, const char *tbl,
                          const char *msg)
{
    fprintf(stderr, "%s: page %u, %s: %s\n", (const char *)ctx, pgno,
            tbl ? tbl : "-", msg);
}

/* jet_db_check: 0 problems; returns its stats. */
static jet_check_stats checked(const char *path)
{
    jet_db *db = NULL;
    jet_error err;
    jet_check_stats st;
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "open %s: %s",
                  path, err.msg);
    ck_assert_int_eq(jet_db_check(db, check_reports, (void *)path, &st),
                     JET_OK);
    ck_assert_uint_eq(st.problems, 0);
    jet_db_close(db);
    return st;
}

static unsigned rows_wanted(void)
{
    const char *e = getenv("JET_NEWDB_ROWS");
    return e && atoi(e) > 0 ? (unsigned)atoi(e) : 2000;
}

static size_t ascii16(uint16_t *out, const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        out[n] = (uint8_t)s[n];
    return n;
}

enum { C_ID, C_NAME, C_QTY, C_PRICE, C_WHEN, C_NOTE, C_COUNT };

/* A table in the new file: created, filled, committed. */
static void fill(const char *path, unsigned nrows)
{
    static const jet_coldef cols[C_COUNT] = {
        [C_ID] = { .name = "ID", .type = JET_T_LONG, .autonumber = true },
        [C_NAME] = { .name = "Name", .type = JET_T_TEXT, .size = 40,
                     .compressed = true },
        [C_QTY] = { .name = "Qty", .type = JET_T_LONG, .required = true },
        [C_PRICE] = { .name = "Price", .type = JET_T_DOUBLE },
        [C_WHEN] = { .name = "When", .type = JET_T_DATETIME },
        [C_NOTE] = { .name = "Note", .type = JET_T_MEMO, .compressed = true },
    };
    jet_idxdef idx[2];
    jet_db *db = NULL;
    jet_error err;
    jet_value vals[C_COUNT];
    uint16_t name[64], note[600];
    char s[64];

    memset(idx, 0, sizeof idx);
    idx[0] = (jet_idxdef){ .ncols = 1, .col = { C_ID }, .primary = true };
    idx[1] = (jet_idxdef){ .name = "Name", .ncols = 1, .col = { C_NAME },
                           .unique = true };
    ck_assert_msg(jet_db_open(&db, path, NULL, &err) == JET_OK, "open: %s",
                  err.msg);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    jet_rc rc = jet_db_create_table(db, "Items", cols, C_COUNT, idx, 2,
                                    NULL, 0);
    ck_assert_msg(rc == JET_OK, "create table: %s", jet_db_error(db)->msg);
    const jet_object *o = jet_catalog_find(db, "Items");
    const jet_tdef *t = NULL;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    for (unsigned k = 0; k < nrows; k++) {
        memset(vals, 0, sizeof vals);
        for (int i = 0; i < C_COUNT; i++)
            vals[i].type = t->cols[i].type;
        vals[C_ID].is_null = true;
        snprintf(s, sizeof s, "item %06u", k);
        vals[C_NAME].enc = JET_ENC_UCS2;
        vals[C_NAME].data = (const uint8_t *)name;
        vals[C_NAME].len = 2 * ascii16(name, s);
        vals[C_QTY].u.i = (int64_t)(k % 101);
        vals[C_PRICE].is_null = k % 7 == 0;
        vals[C_PRICE].u.d = k * 0.25;
        vals[C_WHEN].u.d = 45000.0 + k / 48.0;
        if (k % 4) {
            size_t n = 0;
            for (unsigned r = 0; r < 1 + k % 90; r++)
                n += ascii16(note + n, "note ");
            vals[C_NOTE].enc = JET_ENC_UCS2;
            vals[C_NOTE].data = (const uint8_t *)note;
            vals[C_NOTE].len = 2 * n;
        } else
            vals[C_NOTE].is_null = true;
        rc = jet_table_insert(db, t, vals, NULL);
        ck_assert_msg(rc == JET_OK, "row %u: %s", k, jet_db_error(db)->msg);
        ck_assert_int_eq(vals[C_ID].u.i, (int64_t)k + 1);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
}

/* Rows back through a new connection: count and a few values. */
static void read_back(const char *path, unsigned nrows)
{
    jet_db *db = NULL;
    jet_error err;
    const jet_tdef *t = NULL;
    jet_scan *sc;
    uint32_t n = 0;
    jet_rc rc;

    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "Items")),
                     JET_OK);
    ck_assert_int_eq(jet_table_row_count(db, t, &n), JET_OK);
    ck_assert_uint_eq(n, nrows);
    ck_assert_int_eq(jet_scan_open(&sc, db, t, NULL), JET_OK);
    n = 0;
    while ((rc = jet_scan_next(sc)) == JET_OK) {
        jet_value v;
        ck_assert_int_eq(jet_scan_value(sc, C_ID, &v), JET_OK);
        unsigned k = (unsigned)v.u.i - 1;
        ck_assert_int_eq(jet_scan_value(sc, C_QTY, &v), JET_OK);
        ck_assert_int_eq(v.u.i, (int64_t)(k % 101));
        ck_assert_int_eq(jet_scan_value(sc, C_NOTE, &v), JET_OK);
        ck_assert_int_eq(v.is_null, k % 4 == 0);
        n++;
    }
    ck_assert_int_eq(rc, JET_DONE);
    ck_assert_uint_eq(n, nrows);
    jet_scan_close(sc);
    jet_db_close(db);
}

START_TEST(new_empty_database)
{
    char dir[256], path[512], out[65536], cmd[2048];
    int status;
    size_t len0, len1;
    unsigned nrows = rows_wanted();
    jet_error err;

    new_path(path, sizeof path, dir, sizeof dir, formats[_i].tag,
             formats[_i].ext);

    /* a password: refused, nothing written */
    ck_assert_int_eq(jet_db_create_file(path, formats[_i].ver, "secret",
                                        &err), JET_EUNSUPPORTED);
    ck_assert(access(path, F_OK) != 0);

    ck_assert_msg(jet_db_create_file(path, formats[_i].ver, NULL, &err) ==
                  JET_OK, "create %s: %s", path, err.msg);

    /* never over an existing file */
    uint8_t *before = jet_test_slurp(path, &len0);
    ck_assert_ptr_nonnull(before);
    ck_assert_int_eq(jet_db_create_file(path, formats[_i].ver, NULL, &err),
                     JET_EIO);
    ck_assert_msg(strstr(err.msg, "exists"), "%s", err.msg);
    uint8_t *after = jet_test_slurp(path, &len1);
    ck_assert(len0 == len1 && memcmp(before, after, len0) == 0);
    free(before);
    free(after);

    /* empty, and what the engine makes */
    {
        jet_db *db = NULL;
        ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
        ck_assert_int_eq(jet_db_version(db), formats[_i].ver);
        ck_assert_ptr_nonnull(jet_catalog_find(db, "MSysObjects"));
        ck_assert_ptr_nonnull(jet_catalog_find(db, "MSysACEs"));
        ck_assert_ptr_nonnull(jet_catalog_find(db, "MSysQueries"));
        ck_assert_ptr_nonnull(jet_catalog_find(db, "MSysRelationships"));
        for (size_t i = 0; jet_catalog_at(db, i); i++) {
            const jet_object *o = jet_catalog_at(db, i);
            ck_assert_msg(strncmp(o->name, "MSys", 4) == 0,
                          "user object %s in a new file", o->name);
        }
        jet_db_close(db);
    }
    jet_check_stats st = checked(path);
    ck_assert_uint_eq(st.tables, 4);
    jet_test_jetcheck_verify(path);
    if (jet_test_have_jetcheck()) {
        snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
                 "2>&1", jet_shared_dir(), path);
        run(cmd, out, sizeof out, &status);
        ck_assert_msg(status == 0 && strstr(out, "\"tables\": []") &&
                      strstr(out, formats[_i].jackcess) &&
                      strstr(out, "\"open_error\": null"),
                      "jetcheck dump: %.2000s", out);
    }
    if (system("command -v mdb-tables >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "mdb-tables -S -1 '%s' 2>&1", path);
        run(cmd, out, sizeof out, &status);
        ck_assert_msg(status == 0 && strstr(out, "MSysObjects") &&
                      strstr(out, "MSysRelationships"),
                      "mdb-tables: %s", out);
    } else
        fprintf(stderr, "test_newdb: mdb-tables not found: skipped\n");

    /* then a table, filled */
    fill(path, nrows);
    read_back(path, nrows);
    st = checked(path);
    ck_assert_uint_eq(st.tables, 5);
    jet_test_jetcheck_verify(path);
    if (system("command -v mdb-export >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "mdb-export '%s' Items 2>&1 | wc -l",
                 path);
        run(cmd, out, sizeof out, &status);
        ck_assert_msg(status == 0 && (unsigned)atoi(out) >= nrows + 1,
                      "mdb-export: %s", out);
    }
    fprintf(stderr, "test_newdb: %s: %u rows, jet_db_check %u tables, "
            "%llu index entries, 0 problems\n", formats[_i].tag, nrows,
            st.tables, (unsigned long long)st.entries);
    jet_test_remove_db(path);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *newdb_suite(void)
{
    Suite *s = suite_create("newdb");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, new_empty_database, 0,
                        (int)(sizeof formats / sizeof formats[0]));
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(newdb_suite)
