/*
 * test_ddl.c - schema changes (ddl.h) on copies of Jet4 and ACE fixtures:
 * a table of every type with a primary key, a unique and a compound
 * index, created and filled with thousands of rows through
 * jet_table_insert; the file then passes the driver's own check
 * (jet_db_check), `jetcheck verify` (0 problems), shows the table in
 * `jetcheck dump` and mdbtools' `mdb-schema`; a rolled-back create
 * leaves the file byte-for-byte unchanged; names and limits refused;
 * ALTER COLUMN (jet_db_alter_column) converts a column and rebuilds its
 * index, all or nothing.
 *
 * Needs ../shared (or $JETODBC_SHARED): skipped with a message otherwise.
 * JET_DDL_ROWS sets the rows per table (default 2,000).
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

static bool have_shared(void)
{
    if (jet_test_fixture("jackcess/V2003/testV2003.mdb"))
        return true;
    fprintf(stderr, "test_ddl: %s/fixtures/public not found: skipped "
            "(set JETODBC_SHARED)\n", jet_shared_dir());
    return false;
}

static jet_db *open_db(const char *path)
{
    jet_db *db = NULL;
    jet_error err;
    jet_open_options o;
    memset(&o, 0, sizeof o);
    o.cache_pages = 64;        /* small: transactions spill */
    jet_rc rc = jet_db_open(&db, path, &o, &err);
    ck_assert_msg(rc == JET_OK, "open %s: %s", path, err.msg);
    return db;
}

static const jet_tdef *table(jet_db *db, const char *name)
{
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *t = NULL;
    ck_assert_msg(o != NULL, "no table %s", name);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    return t;
}

/* The shell's output of cmd (at most cap - 1 bytes); its exit status in
 * *status. */
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

/* ------------------------------------------------------ the table of all */

enum { C_ID, C_T, C_M, C_B, C_I, C_L, C_S, C_D, C_C, C_N, C_DT, C_Y, C_G,
       C_BIN, C_O, C_BI, C_COUNT };

static unsigned all_columns(jet_coldef *c, bool bigint)
{
    static const jet_coldef base[C_COUNT] = {
        [C_ID] = { .name = "ID", .type = JET_T_LONG, .autonumber = true },
        [C_T] = { .name = "Title", .type = JET_T_TEXT, .size = 50,
                  .compressed = true },
        [C_M] = { .name = "Notes", .type = JET_T_MEMO, .compressed = true },
        [C_B] = { .name = "Small", .type = JET_T_BYTE },
        [C_I] = { .name = "Short", .type = JET_T_INT },
        [C_L] = { .name = "Qty", .type = JET_T_LONG, .required = true },
        [C_S] = { .name = "Ratio", .type = JET_T_FLOAT },
        [C_D] = { .name = "Weight", .type = JET_T_DOUBLE },
        [C_C] = { .name = "Price", .type = JET_T_MONEY,
                  .default_value = "0" },
        [C_N] = { .name = "Exact", .type = JET_T_NUMERIC, .precision = 18,
                  .scale = 4 },
        [C_DT] = { .name = "When", .type = JET_T_DATETIME },
        [C_Y] = { .name = "Done", .type = JET_T_BOOL },
        [C_G] = { .name = "Guid", .type = JET_T_GUID },
        [C_BIN] = { .name = "Raw", .type = JET_T_BINARY, .size = 16 },
        [C_O] = { .name = "Blob", .type = JET_T_OLE },
        [C_BI] = { .name = "Big", .type = JET_T_BIGINT },
    };
    memcpy(c, base, sizeof base);
    return bigint ? C_COUNT : C_COUNT - 1;
}

static unsigned all_indexes(jet_idxdef *x)
{
    memset(x, 0, 3 * sizeof *x);
    x[0] = (jet_idxdef){ .ncols = 1, .col = { C_ID }, .primary = true };
    x[1] = (jet_idxdef){ .name = "TitleUnique", .ncols = 1, .col = { C_T },
                         .unique = true };
    x[2] = (jet_idxdef){ .name = "QtyWhen", .ncols = 2,
                         .col = { C_L, C_DT }, .desc = { false, true } };
    return 3;
}

typedef struct rowbuf {
    uint16_t title[64], notes[400];
    uint8_t raw[16], blob[300];
} rowbuf;

static size_t ascii16(uint16_t *out, const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        out[n] = (uint8_t)s[n];
    return n;
}

/* Row k's values (vals: t->ncols entries in t's column order, which is
 * the created order). */
static void make_row(const jet_tdef *t, unsigned k, jet_value *vals,
                     rowbuf *b)
{
    char s[128];
    memset(vals, 0, t->ncols * sizeof *vals);
    for (uint16_t i = 0; i < t->ncols; i++) {
        vals[i].type = t->cols[i].type;
        vals[i].is_null = true;
    }
    vals[C_T].is_null = false;
    vals[C_T].enc = JET_ENC_UCS2;
    snprintf(s, sizeof s, "title %05u", k);
    vals[C_T].len = 2 * ascii16(b->title, s);
    vals[C_T].data = (const uint8_t *)b->title;
    if (k % 3) {
        size_t n = 0;
        for (unsigned r = 0; r < 1 + k % 40; r++)
            n += ascii16(b->notes + n, "notes ");
        vals[C_M].is_null = false;
        vals[C_M].enc = JET_ENC_UCS2;
        vals[C_M].data = (const uint8_t *)b->notes;
        vals[C_M].len = 2 * n;
    }
    vals[C_B].is_null = false;
    vals[C_B].u.i = k % 256;
    vals[C_I].is_null = false;
    vals[C_I].u.i = (int)(k % 30000) - 15000;
    vals[C_L].is_null = false;
    vals[C_L].u.i = (int64_t)(k % 97);
    vals[C_S].is_null = false;
    vals[C_S].u.f = (float)k / 8.0f;
    vals[C_D].is_null = k % 5 == 0;
    vals[C_D].u.d = k * 1.25;
    vals[C_C].is_null = false;
    vals[C_C].u.money = (int64_t)k * 12345;
    vals[C_N].is_null = false;
    vals[C_N].u.num.precision = 18;
    vals[C_N].u.num.scale = 4;
    vals[C_N].u.num.negative = k % 2;
    vals[C_N].u.num.mag[0] = (uint8_t)k;
    vals[C_N].u.num.mag[1] = (uint8_t)(k >> 8);
    vals[C_DT].is_null = false;
    vals[C_DT].u.d = 45000.0 + k / 24.0;
    vals[C_Y].is_null = false;
    vals[C_Y].u.b = k % 2;
    vals[C_G].is_null = false;
    memset(vals[C_G].u.guid, 0, 16);
    vals[C_G].u.guid[0] = (uint8_t)k;
    vals[C_G].u.guid[1] = (uint8_t)(k >> 8);
    vals[C_G].u.guid[15] = 0x5A;
    for (int i = 0; i < 16; i++)
        b->raw[i] = (uint8_t)(k + i);
    vals[C_BIN].is_null = false;
    vals[C_BIN].data = b->raw;
    vals[C_BIN].len = 1 + k % 16;
    if (k % 4 == 1) {
        size_t n = 1 + k % 300;
        for (size_t i = 0; i < n; i++)
            b->blob[i] = (uint8_t)(i * 7 + k);
        vals[C_O].is_null = false;
        vals[C_O].data = b->blob;
        vals[C_O].len = n;
    }
    if (t->ncols > C_BI) {
        vals[C_BI].is_null = false;
        vals[C_BI].u.i = (int64_t)k * 1000000007LL;
    }
}

static unsigned rows_wanted(void)
{
    const char *e = getenv("JET_DDL_ROWS");
    unsigned n = e ? (unsigned)atoi(e) : 0;
    return n ? n : 2000;
}

static void create_and_fill(const char *rel, const char *tag, bool bigint)
{
    char path[1024], out[65536];
    const char *src = jet_test_fixture(rel);
    jet_coldef cols[C_COUNT];
    jet_idxdef idx[3];
    unsigned ncols, nidx, nrows = rows_wanted();
    jet_db *db;
    const jet_tdef *t;
    jet_value *vals;
    rowbuf b;
    int status;

    if (!src) {
        fprintf(stderr, "test_ddl: %s absent: skipped\n", rel);
        return;
    }
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    db = open_db(path);
    jet_check_stats base;       /* the fixture's own (testV2003.mdb: one) */
    ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL,
                                  &base), JET_OK);
    ncols = all_columns(cols, bigint);
    nidx = all_indexes(idx);
    uint64_t v0 = jet_db_schema_version(db);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    jet_rc rc = jet_db_create_table(db, "DdlAll", cols, ncols, idx, nidx,
                                    NULL, 0);
    ck_assert_msg(rc == JET_OK, "create: %s", jet_db_error(db)->msg);
    ck_assert_uint_gt(jet_db_schema_version(db), v0);
    t = table(db, "DdlAll");
    ck_assert_int_eq(t->ncols, ncols);
    ck_assert_int_eq(t->nindexes, 3);
    ck_assert_str_eq(t->indexes[0].name, "PrimaryKey");
    ck_assert(t->indexes[0].primary_key);
    ck_assert(t->indexes[1].unique);
    ck_assert(!t->indexes[2].cols[1].ascending);
    ck_assert(t->cols[C_L].flags & JET_COL_REQUIRED);
    ck_assert(t->cols[C_ID].flags & JET_COL_AUTONUMBER);
    vals = calloc(t->ncols, sizeof *vals);
    for (unsigned k = 0; k < nrows; k++) {
        make_row(t, k, vals, &b);
        rc = jet_table_insert(db, t, vals, NULL);
        ck_assert_msg(rc == JET_OK, "%s row %u: %s", rel, k,
                      jet_db_error(db)->msg);
        ck_assert_int_eq(vals[C_ID].u.i, (int64_t)k + 1);
    }
    /* a duplicate of the unique index refuses */
    {
        jet_savepoint sp;
        ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
        make_row(t, nrows - 1, vals, &b);   /* its Title again */
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL),
                         JET_EDUPLICATE);
        ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
        jet_db_release(db, sp);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    free(vals);
    jet_db_close(db);

    /* read back through a new connection */
    db = open_db(path);
    t = table(db, "DdlAll");
    {
        uint32_t n = 0;
        jet_scan *s;
        ck_assert_int_eq(jet_table_row_count(db, t, &n), JET_OK);
        ck_assert_uint_eq(n, nrows);
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        n = 0;
        while ((rc = jet_scan_next(s)) == JET_OK) {
            jet_value v;
            ck_assert_int_eq(jet_scan_value(s, C_ID, &v), JET_OK);
            unsigned k = (unsigned)v.u.i - 1;
            ck_assert_int_eq(jet_scan_value(s, C_L, &v), JET_OK);
            ck_assert_int_eq(v.u.i, (int64_t)(k % 97));
            ck_assert_int_eq(jet_scan_value(s, C_C, &v), JET_OK);
            ck_assert_int_eq(v.u.money, (int64_t)k * 12345);
            ck_assert_int_eq(jet_scan_value(s, C_M, &v), JET_OK);
            ck_assert_int_eq(v.is_null, k % 3 == 0);
            n++;
        }
        ck_assert_int_eq(rc, JET_DONE);
        ck_assert_uint_eq(n, nrows);
        jet_scan_close(s);
    }
    {
        jet_check_stats st;
        ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL,
                                      &st), JET_OK);
        ck_assert_uint_eq(st.problems, base.problems);
        ck_assert_uint_eq(st.tables, base.tables + 1);
        ck_assert_uint_ge(st.rows, base.rows + nrows + 1);   /* + ACEs */
        fprintf(stderr, "test_ddl: %s: jet_db_check %u tables, %llu rows, "
                "%llu index entries, %u problems (as the fixture)\n", rel,
                st.tables, (unsigned long long)st.rows,
                (unsigned long long)st.entries, st.problems);
    }
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    if (jet_test_have_jetcheck()) {
        char cmd[2400];
        snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
                 "--table DdlAll 2>&1 | head -c 60000", jet_shared_dir(),
                 path);
        run(cmd, out, sizeof out, &status);
        ck_assert_msg(strstr(out, "DdlAll") && strstr(out, "QtyWhen") &&
                      strstr(out, "Exact"), "jetcheck dump: %.2000s", out);
        if (getenv("JET_DDL_SHOW"))
            fprintf(stderr, "%.3000s\n", out);
    }
    if (system("command -v mdb-schema >/dev/null 2>&1") == 0) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "mdb-schema '%s' 2>&1", path);
        run(cmd, out, sizeof out, &status);
        ck_assert_msg(status == 0 && strstr(out, "DdlAll") &&
                      strstr(out, "Title"), "mdb-schema: %.2000s", out);
        if (getenv("JET_DDL_SHOW"))
            fprintf(stderr, "%s\n", strstr(out, "DdlAll"));
    }
    jet_test_remove_db(path);
}

START_TEST(create_every_type_jet4)
{
    if (have_shared())
        create_and_fill("jackcess/V2003/testV2003.mdb", "ddl4", false);
}
END_TEST

START_TEST(create_every_type_ace12)
{
    if (have_shared())
        create_and_fill("jackcess/V2007/testV2007.accdb", "ddl12", false);
}
END_TEST

START_TEST(create_every_type_ace14)
{
    if (have_shared())
        create_and_fill("jackcess/V2010/testV2010.accdb", "ddl14", false);
}
END_TEST

START_TEST(create_every_type_ace16)
{
    if (have_shared())
        create_and_fill("jackcess/templates/empty2016.accdb", "ddl16", true);
}
END_TEST

/* A create rolled back (whole, or to a savepoint) leaves no trace. */
START_TEST(rolled_back_create_leaves_file_unchanged)
{
    char path[1024];
    const char *src;
    jet_coldef cols[C_COUNT];
    jet_idxdef idx[3];
    unsigned ncols, nidx;
    size_t len = 0;
    uint8_t *before;
    jet_db *db;

    if (!have_shared())
        return;
    src = jet_test_fixture("jackcess/V2007/testV2007.accdb");
    jet_test_copy_to_temp(path, sizeof path, src, "ddlrb");
    before = jet_test_slurp(path, &len);
    ncols = all_columns(cols, false);
    nidx = all_indexes(idx);

    db = open_db(path);
    const jet_object *old_obj = jet_catalog_find(db, "Table1");
    ck_assert_ptr_nonnull(old_obj);
    const jet_tdef *old_t = table(db, "Table1");
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "Gone", cols, ncols, idx, nidx,
                                         NULL, 0), JET_OK);
    const jet_tdef *t = table(db, "Gone");
    jet_value vals[C_COUNT];
    rowbuf b;
    for (unsigned k = 0; k < 300; k++) {
        make_row(t, k, vals, &b);
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
    }
    /* handed-out pointers stay readable */
    ck_assert_str_eq(old_obj->name, "Table1");
    ck_assert_str_eq(old_t->name, "Table1");
    uint64_t v = jet_db_schema_version(db);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    ck_assert_ptr_null(jet_catalog_find(db, "Gone"));
    ck_assert_uint_gt(jet_db_schema_version(db), v);
    ck_assert_str_eq(t->name, "Gone");      /* retired, still readable */
    jet_db_close(db);
    ck_assert_msg(jet_test_same_file(path, before, len),
                  "a rolled-back create changed the file");

    /* to a savepoint, then commit: nothing of it */
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    jet_savepoint sp;
    ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "Gone", cols, ncols, idx, nidx,
                                         NULL, 0), JET_OK);
    ck_assert_ptr_nonnull(jet_catalog_find(db, "Gone"));
    ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
    ck_assert_ptr_null(jet_catalog_find(db, "Gone"));
    jet_db_release(db, sp);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    ck_assert_msg(jet_test_same_file(path, before, len),
                  "a create rolled back to its savepoint changed the file");
    free(before);
    jet_test_remove_db(path);
}
END_TEST

/* Names and limits Access refuses, before anything is written. */
START_TEST(names_and_limits_refused)
{
    char path[1024];
    size_t len = 0;
    uint8_t *before;
    jet_db *db;
    jet_coldef one = { .name = "A", .type = JET_T_LONG };
    jet_coldef cols[300];
    char names[300][8];
    jet_idxdef idx[40];

    if (!have_shared())
        return;
    jet_test_copy_to_temp(path, sizeof path,
                          jet_test_fixture("jackcess/V2003/testV2003.mdb"),
                          "ddlref");
    before = jet_test_slurp(path, &len);
    db = open_db(path);
    /* outside a transaction */
    ck_assert_int_eq(jet_db_create_table(db, "T", &one, 1, NULL, 0, NULL, 0),
                     JET_EUNSUPPORTED);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    static const char *const bad[] = {
        "", " lead", "a.b", "a!b", "a`b", "a[b", "a]b", "a\tb",
        "x1234567890123456789012345678901234567890123456789012345678901234",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(jet_db_create_table(db, bad[i], &one, 1, NULL, 0,
                                          NULL, 0) == JET_ECONSTRAINT,
                      "name '%s' accepted", bad[i]);
    /* two AutoNumbers */
    {
        jet_coldef two[2] = { { .name = "A", .type = JET_T_LONG,
                                .autonumber = true },
                              { .name = "B", .type = JET_T_LONG,
                                .autonumber = true } };
        ck_assert_int_eq(jet_db_create_table(db, "T", two, 2, NULL, 0, NULL,
                                             0), JET_ECONSTRAINT);
        two[1].autonumber = false;
        two[0].increment = -1;      /* counting down: not made */
        ck_assert_int_eq(jet_db_create_table(db, "T", two, 2, NULL, 0, NULL,
                                             0), JET_EUNSUPPORTED);
    }
    /* a table's name taken (case-insensitively) */
    ck_assert_int_eq(jet_db_create_table(db, "TABLE1", &one, 1, NULL, 0,
                                         NULL, 0), JET_EDUPLICATE);
    /* columns */
    for (int i = 0; i < 300; i++) {
        snprintf(names[i], sizeof names[i], "C%d", i);
        cols[i] = (jet_coldef){ .name = names[i], .type = JET_T_BYTE };
    }
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 256, NULL, 0, NULL,
                                         0), JET_ELIMIT);
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 0, NULL, 0, NULL,
                                         0), JET_ELIMIT);
    cols[1].name = "c0";
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 2, NULL, 0, NULL,
                                         0), JET_EDUPLICATE);
    cols[1].name = names[1];
    jet_coldef txt = { .name = "T", .type = JET_T_TEXT, .size = 256 };
    ck_assert_int_eq(jet_db_create_table(db, "T", &txt, 1, NULL, 0, NULL,
                                         0), JET_ELIMIT);
    jet_coldef big = { .name = "B", .type = JET_T_BIGINT };
    ck_assert_int_eq(jet_db_create_table(db, "T", &big, 1, NULL, 0, NULL,
                                         0), JET_EUNSUPPORTED);
    jet_coldef dec = { .name = "D", .type = JET_T_NUMERIC, .precision = 29 };
    ck_assert_int_eq(jet_db_create_table(db, "T", &dec, 1, NULL, 0, NULL,
                                         0), JET_ELIMIT);
    /* indexes */
    memset(idx, 0, sizeof idx);
    for (int i = 0; i < 40; i++)
        idx[i] = (jet_idxdef){ .ncols = 1, .col = { (unsigned)i } };
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 40, idx, 33, NULL,
                                         0), JET_ELIMIT);
    idx[0].ncols = 11;
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 40, idx, 1, NULL,
                                         0), JET_ELIMIT);
    idx[0].ncols = 1;
    idx[0].primary = idx[1].primary = true;
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 40, idx, 2, NULL,
                                         0), JET_ECONSTRAINT);
    idx[0].col[0] = 45;
    idx[0].primary = idx[1].primary = false;
    ck_assert_int_eq(jet_db_create_table(db, "T", cols, 40, idx, 1, NULL,
                                         0), JET_ENOTFOUND);
    /* COUNTER(100, 7): the first number is the seed, then 7 more each */
    {
        jet_coldef sc[2] = { { .name = "N", .type = JET_T_LONG,
                               .autonumber = true, .seed = 100,
                               .increment = 7 },
                             { .name = "V", .type = JET_T_INT } };
        jet_value v[2];
        ck_assert_int_eq(jet_db_create_table(db, "Seeded", sc, 2, NULL, 0,
                                             NULL, 0), JET_OK);
        const jet_tdef *st = table(db, "Seeded");
        memset(v, 0, sizeof v);
        v[0].type = JET_T_LONG;
        v[0].is_null = true;
        v[1].type = JET_T_INT;
        v[1].u.i = 7;
        ck_assert_int_eq(jet_table_insert(db, st, v, NULL), JET_OK);
        ck_assert_int_eq(v[0].u.i, 100);
        v[0].is_null = true;
        ck_assert_int_eq(jet_table_insert(db, st, v, NULL), JET_OK);
        ck_assert_int_eq(v[0].u.i, 107);
        /* a number given: the next ones go on from it by the step */
        v[0].is_null = false;
        v[0].u.i = 200;
        ck_assert_int_eq(jet_table_insert(db, st, v, NULL), JET_OK);
        v[0].is_null = true;
        ck_assert_int_eq(jet_table_insert(db, st, v, NULL), JET_OK);
        ck_assert_int_eq(v[0].u.i, 207);
    }
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    ck_assert(jet_test_same_file(path, before, len));
    free(before);
    jet_test_remove_db(path);
}
END_TEST

static void check_db(jet_db *db, const jet_check_stats *base,
                     unsigned tables_delta, jet_check_stats *out)
{
    ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL,
                                  out), JET_OK);
    ck_assert_uint_eq(out->problems, base->problems);
    ck_assert_uint_eq(out->tables, base->tables + tables_delta);
}

/* Indexes made from the rows already there, and dropped; tables dropped
 * (with their rows, long values and indexes); each inside a transaction
 * checked by jet_db_check, then committed and verified. */
static void index_and_drop(const char *rel, const char *tag)
{
    char path[1024];
    const char *src = jet_test_fixture(rel);
    jet_coldef cols[C_COUNT];
    jet_idxdef idx[3];
    unsigned ncols, nidx, nrows = 600;
    jet_check_stats base, st;
    jet_db *db;
    const jet_tdef *t;
    jet_value vals[C_COUNT];
    rowbuf b;
    jet_savepoint sp;
    jet_rc rc;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    db = open_db(path);
    ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL,
                                  &base), JET_OK);
    ncols = all_columns(cols, false);
    nidx = all_indexes(idx);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (int n = 0; n < 2; n++) {
        const char *tn = n ? "Second" : "DdlAll";
        ck_assert_int_eq(jet_db_create_table(db, tn, cols, ncols, idx, nidx,
                                             NULL, 0), JET_OK);
        t = table(db, tn);
        for (unsigned k = 0; k < nrows; k++) {
            make_row(t, k, vals, &b);
            ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
        }
    }
    /* an index from the rows there */
    jet_idxdef x = { .name = "ByShort", .ncols = 1, .col = { C_I } };
    rc = jet_db_create_index(db, "DdlAll", &x);
    ck_assert_msg(rc == JET_OK, "create index: %s", jet_db_error(db)->msg);
    t = table(db, "DdlAll");
    ck_assert_int_eq(t->nindexes, 4);
    ck_assert_str_eq(t->indexes[3].name, "ByShort");
    /* unique over duplicates refuses; the savepoint undoes it */
    ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
    x = (jet_idxdef){ .name = "SmallUnique", .ncols = 1, .col = { C_B },
                      .unique = true };
    ck_assert_int_eq(jet_db_create_index(db, "DdlAll", &x), JET_EDUPLICATE);
    ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
    jet_db_release(db, sp);
    t = table(db, "DdlAll");
    ck_assert_int_eq(t->nindexes, 4);
    /* a second primary key, a name taken */
    x = (jet_idxdef){ .ncols = 1, .col = { C_B }, .primary = true };
    ck_assert_int_eq(jet_db_create_index(db, "DdlAll", &x), JET_ECONSTRAINT);
    x = (jet_idxdef){ .name = "byshort", .ncols = 1, .col = { C_B } };
    ck_assert_int_eq(jet_db_create_index(db, "DdlAll", &x), JET_EDUPLICATE);
    /* a compound unique index that holds */
    x = (jet_idxdef){ .name = "TitleQty", .ncols = 2, .col = { C_T, C_L },
                      .unique = true, .desc = { true, false } };
    ck_assert_int_eq(jet_db_create_index(db, "DdlAll", &x), JET_OK);
    /* rows still go in, keeping every index */
    t = table(db, "DdlAll");
    for (unsigned k = nrows; k < nrows + 100; k++) {
        make_row(t, k, vals, &b);
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
    }
    /* drop one */
    ck_assert_int_eq(jet_db_drop_index(db, "DdlAll", "QtyWhen"), JET_OK);
    ck_assert_int_eq(jet_db_drop_index(db, "DdlAll", "QtyWhen"),
                     JET_ENOTFOUND);
    t = table(db, "DdlAll");
    ck_assert_int_eq(t->nindexes, 4);
    for (uint16_t i = 0; i < t->nindexes; i++)
        ck_assert_str_ne(t->indexes[i].name, "QtyWhen");
    /* an index on a table the fixture had */
    const jet_object *o1 = jet_catalog_find(db, "Table1");
    if (o1) {
        const jet_tdef *t1 = table(db, "Table1");
        x = (jet_idxdef){ .name = "DdlIdx", .ncols = 1, .col = { 0 } };
        rc = jet_db_create_index(db, "Table1", &x);
        ck_assert_msg(rc == JET_OK || rc == JET_EUNSUPPORTED,
                      "index on Table1: %s", jet_db_error(db)->msg);
        if (rc == JET_OK)
            ck_assert_int_eq(table(db, "Table1")->nindexes,
                             t1->nindexes + 1);
    }
    /* drop a table with rows, long values and indexes */
    ck_assert_int_eq(jet_db_drop_table(db, "Second"), JET_OK);
    ck_assert_ptr_null(jet_catalog_find(db, "Second"));
    ck_assert_int_eq(jet_db_drop_table(db, "Second"), JET_ENOTFOUND);
    ck_assert_int_eq(jet_db_drop_table(db, "MSysObjects"), JET_EUNSUPPORTED);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 1, &st);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);

    /* a dropped table's name and pages serve again */
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "Second", cols, ncols, idx,
                                         nidx, NULL, 0), JET_OK);
    t = table(db, "Second");
    for (unsigned k = 0; k < 50; k++) {
        make_row(t, k, vals, &b);
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 2, &st);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);

    /* a rolled-back drop leaves the file as it was */
    {
        size_t len = 0;
        uint8_t *before = jet_test_slurp(path, &len);
        db = open_db(path);
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        ck_assert_int_eq(jet_db_drop_table(db, "DdlAll"), JET_OK);
        ck_assert_ptr_null(jet_catalog_find(db, "DdlAll"));
        ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
        ck_assert_ptr_nonnull(jet_catalog_find(db, "DdlAll"));
        jet_db_close(db);
        ck_assert(jet_test_same_file(path, before, len));
        free(before);
    }
    jet_test_remove_db(path);
}

START_TEST(index_and_drop_jet4)
{
    if (have_shared())
        index_and_drop("jackcess/V2003/testV2003.mdb", "ddlx4");
}
END_TEST

START_TEST(index_and_drop_ace14)
{
    if (have_shared())
        index_and_drop("jackcess/V2010/testV2010.accdb", "ddlx14");
}
END_TEST

/* Columns added to a table with rows (old rows read NULL) and dropped
 * (refused while an index uses them); properties kept in LvProp. */
static void columns_add_drop(const char *rel, const char *tag)
{
    char path[1024];
    const char *src = jet_test_fixture(rel);
    jet_coldef cols[C_COUNT];
    jet_idxdef idx[3];
    unsigned ncols, nidx, nrows = 300;
    jet_check_stats base, st;
    jet_db *db;
    const jet_tdef *t;
    jet_value vals[C_COUNT + 4];
    rowbuf b;
    uint16_t more[200];

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    db = open_db(path);
    ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL,
                                  &base), JET_OK);
    ncols = all_columns(cols, false);
    nidx = all_indexes(idx);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "Cols", cols, ncols, idx, nidx,
                                         NULL, 0), JET_OK);
    t = table(db, "Cols");
    for (unsigned k = 0; k < nrows; k++) {
        make_row(t, k, vals, &b);
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
    }
    jet_coldef extra = { .name = "Extra", .type = JET_T_TEXT, .size = 20,
                         .required = true, .default_value = "\"x\"",
                         .compressed = true };
    jet_coldef memo = { .name = "More", .type = JET_T_MEMO };
    jet_coldef cnt = { .name = "Cnt", .type = JET_T_LONG };
    jet_rc rc = jet_db_add_column(db, "Cols", &extra);
    ck_assert_msg(rc == JET_OK, "add: %s", jet_db_error(db)->msg);
    ck_assert_int_eq(jet_db_add_column(db, "Cols", &memo), JET_OK);
    ck_assert_int_eq(jet_db_add_column(db, "Cols", &cnt), JET_OK);
    ck_assert_int_eq(jet_db_add_column(db, "Cols", &cnt), JET_EDUPLICATE);
    t = table(db, "Cols");
    ck_assert_int_eq(t->ncols, ncols + 3);
    int pe = jet_tdef_find_column(t, "Extra");
    int pm = jet_tdef_find_column(t, "More");
    int pc = jet_tdef_find_column(t, "Cnt");
    ck_assert(pe >= 0 && pm >= 0 && pc >= 0);
    ck_assert(t->cols[pe].flags & JET_COL_REQUIRED);
    {
        const jet_table_props *props;
        ck_assert_int_eq(jet_table_props_get(db, t, &props), JET_OK);
        ck_assert_ptr_nonnull(props->cols[pe].default_value);
        ck_assert_str_eq(props->cols[pe].default_value, "\"x\"");
        ck_assert_ptr_nonnull(props->cols[C_C].default_value);
    }
    /* rows with the new columns */
    for (unsigned k = nrows; k < nrows + 200; k++) {
        make_row(t, k, vals, &b);
        for (int c = ncols; c < t->ncols; c++) {
            vals[c].type = t->cols[c].type;
            vals[c].is_null = true;
        }
        vals[pe].is_null = false;
        vals[pe].enc = JET_ENC_UCS2;
        vals[pe].data = (const uint8_t *)b.title;
        vals[pe].len = 2 * ascii16(b.title, "extra");
        size_t n = 0;
        for (unsigned r = 0; r < 1 + k % 30; r++)
            n += ascii16(more + n, "more ");
        vals[pm].is_null = false;
        vals[pm].enc = JET_ENC_UCS2;
        vals[pm].data = (const uint8_t *)more;
        vals[pm].len = 2 * n;
        vals[pc].is_null = false;
        vals[pc].u.i = k;
        ck_assert_int_eq(jet_table_insert(db, t, vals, NULL), JET_OK);
    }
    /* drops: an indexed column refuses, others go */
    ck_assert_int_eq(jet_db_drop_column(db, "Cols", "Qty"), JET_ECONSTRAINT);
    ck_assert_int_eq(jet_db_drop_column(db, "Cols", "Nope"), JET_ENOTFOUND);
    ck_assert_int_eq(jet_db_drop_column(db, "Cols", "Notes"), JET_OK);
    ck_assert_int_eq(jet_db_drop_column(db, "Cols", "Weight"), JET_OK);
    ck_assert_int_eq(jet_db_drop_column(db, "Cols", "Price"), JET_OK);
    t = table(db, "Cols");
    ck_assert_int_eq(t->ncols, ncols);
    ck_assert_int_lt(jet_tdef_find_column(t, "Notes"), 0);
    {
        const jet_table_props *props;
        ck_assert_int_eq(jet_table_props_get(db, t, &props), JET_OK);
        pe = jet_tdef_find_column(t, "Extra");
        ck_assert_str_eq(props->cols[pe].default_value, "\"x\"");
    }
    /* a table the fixture had: a column added and dropped again */
    if (jet_catalog_find(db, "Table1")) {
        jet_coldef x = { .name = "DdlCol", .type = JET_T_DOUBLE,
                         .default_value = "1.5" };
        ck_assert_int_eq(jet_db_add_column(db, "Table1", &x), JET_OK);
        ck_assert_int_ge(jet_tdef_find_column(table(db, "Table1"),
                                              "DdlCol"), 0);
        ck_assert_int_eq(jet_db_drop_column(db, "Table1", "DdlCol"), JET_OK);
        ck_assert_int_lt(jet_tdef_find_column(table(db, "Table1"),
                                              "DdlCol"), 0);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 1, &st);
    /* every row reads: old ones with NULL in the new columns */
    {
        jet_scan *s;
        unsigned n = 0, nulls = 0;
        t = table(db, "Cols");
        pc = jet_tdef_find_column(t, "Cnt");
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        while ((rc = jet_scan_next(s)) == JET_OK) {
            jet_value v;
            ck_assert_int_eq(jet_scan_value(s, (uint16_t)pc, &v), JET_OK);
            nulls += v.is_null;
            n++;
        }
        ck_assert_int_eq(rc, JET_DONE);
        ck_assert_uint_eq(n, nrows + 200);
        ck_assert_uint_eq(nulls, nrows);
        jet_scan_close(s);
    }
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}

START_TEST(columns_jet4)
{
    if (have_shared())
        columns_add_drop("jackcess/V2003/testV2003.mdb", "ddlc4");
}
END_TEST

START_TEST(columns_ace12)
{
    if (have_shared())
        columns_add_drop("jackcess/V2007/testV2007.accdb", "ddlc12");
}
END_TEST

/* ------------------------------------------------------- foreign keys */

/* Row (id, a, text, b) of a 4-column table: a or b < 0 is NULL, text NULL
 * too when NULL. */
static void fk_row(const jet_tdef *t, jet_value *v, uint16_t *u, int id,
                   int a, const char *text, int b)
{
    memset(v, 0, 4 * sizeof *v);
    for (int i = 0; i < 4; i++) {
        v[i].type = t->cols[i].type;
        v[i].is_null = true;
    }
    v[0].is_null = false;
    v[0].u.i = id;
    v[1].is_null = a < 0;
    v[1].u.i = a;
    if (text) {
        v[2].is_null = false;
        v[2].enc = JET_ENC_UCS2;
        v[2].len = 2 * ascii16(u, text);
        v[2].data = (const uint8_t *)u;
    }
    v[3].is_null = b < 0;
    v[3].u.i = b;
}

/* The logical index named name of t (tdef's stored block), or NULL. */
static const jet_tdef_logical_idx *logical(const jet_tdef *t,
                                           const char *name)
{
    const jet_tdef_priv *p = (const jet_tdef_priv *)t;
    for (uint16_t i = 0; i < t->nindexes; i++)
        if (strcmp(t->indexes[i].name, name) == 0)
            return &p->logical[i];
    return NULL;
}

/*
 * Parent P (id primary key, code + k unique) and child C made with two
 * relationships (one named, cascade deletes; one named as Access names
 * it, over two columns, cascade to NULL): the index entries of both sides
 * as Access writes them, orphans refused, refusals before anything is
 * written, a relationship added to a table with rows (refused while a row
 * has no parent), dropped; jet_db_check and `jetcheck verify` after each
 * commit; a rolled-back add leaves the file byte for byte.
 */
static void foreign_keys(const char *rel, const char *tag)
{
    char path[1024];
    const char *src = jet_test_fixture(rel);
    jet_coldef cols[4] = {
        { .name = "id", .type = JET_T_LONG },
        { .name = "pid", .type = JET_T_LONG },
        { .name = "code", .type = JET_T_TEXT, .size = 10,
          .compressed = true },
        { .name = "k", .type = JET_T_LONG } };
    jet_idxdef pidx[2] = {
        { .ncols = 1, .col = { 0 }, .primary = true },
        { .name = "CodeK", .ncols = 2, .col = { 2, 3 }, .unique = true } };
    jet_fkdef fks[2] = {
        { .name = "Owns", .ncols = 1, .col = { 1 }, .parent = "P",
          .cascade_delete = true },
        { .ncols = 2, .col = { 2, 3 }, .parent = "P",
          .refcol = { "code", "k" }, .cascade_null = true } };
    jet_check_stats base, st;
    const jet_tdef *p, *c;
    const jet_tdef_logical_idx *l;
    jet_value v[4];
    uint16_t u[16];
    jet_db *db;

    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    db = open_db(path);
    ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL,
                                  &base), JET_OK);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "P", cols, 4, pidx, 2, NULL, 0),
                     JET_OK);
    /* refused before anything is written */
    {
        jet_fkdef bad = { .ncols = 1, .col = { 3 }, .parent = "P",
                          .refcol = { "k" } };
        ck_assert_int_eq(jet_db_create_table(db, "C", cols, 4, pidx, 1,
                                             &bad, 1), JET_ECONSTRAINT);
        ck_assert_str_eq(jet_db_error(db)->msg, "No unique index found for "
                         "the referenced field of the primary table.");
        bad = (jet_fkdef){ .ncols = 1, .col = { 2 }, .parent = "P" };
        ck_assert_int_eq(jet_db_create_table(db, "C", cols, 4, pidx, 1,
                                             &bad, 1), JET_ECONSTRAINT);
        ck_assert_str_eq(jet_db_error(db)->msg, "Relationship must be on "
                         "the same number of fields with the same data "
                         "types.");
        bad = (jet_fkdef){ .ncols = 1, .col = { 1 }, .parent = "NoSuch" };
        ck_assert_int_eq(jet_db_create_table(db, "C", cols, 4, pidx, 1,
                                             &bad, 1), JET_ENOTFOUND);
    }
    ck_assert_ptr_null(jet_catalog_find(db, "C"));
    ck_assert_int_eq(jet_db_create_table(db, "C", cols, 4, pidx, 1, fks, 2),
                     JET_OK);
    p = table(db, "P");
    c = table(db, "C");
    /* the parent: ".rB" and ".rC" over its unique indexes, naming the
     * child's entries; the child: "Owns" and "PC" (the parent's name and
     * the child's, as Access makes one) */
    ck_assert_int_eq(p->nindexes, 4);
    ck_assert_int_eq(c->nindexes, 3);
    const jet_tdef_logical_idx *owns = logical(c, "Owns");
    const jet_tdef_logical_idx *made = logical(c, "PC");
    ck_assert_ptr_nonnull(owns);
    ck_assert_ptr_nonnull(made);
    ck_assert_int_eq(owns->type, 2);
    ck_assert_int_eq(owns->rel_table_type, 2);
    ck_assert_uint_eq(owns->rel_tdef_pgno, p->pgno);
    ck_assert_int_eq(owns->cascade_deletes, 1);
    ck_assert_int_eq(made->cascade_deletes, 2);
    l = logical(p, ".rB");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->type, 2);
    ck_assert_int_eq(l->rel_table_type, 1);
    ck_assert_uint_eq(l->rel_tdef_pgno, c->pgno);
    ck_assert_uint_eq(l->rel_index_num, owns->index_num);
    ck_assert_uint_eq(owns->rel_index_num, l->index_num);
    ck_assert_uint_eq(l->real, logical(p, "PrimaryKey")->real);
    l = logical(p, ".rC");
    ck_assert_ptr_nonnull(l);
    ck_assert_uint_eq(l->real, logical(p, "CodeK")->real);
    ck_assert_uint_eq(l->rel_index_num, made->index_num);
    /* rows: a parent, its child, an orphan refused */
    fk_row(p, v, u, 1, -1, "abc", 7);
    ck_assert_int_eq(jet_table_insert(db, p, v, NULL), JET_OK);
    fk_row(c, v, u, 1, 1, "ABC", 7);
    ck_assert_int_eq(jet_table_insert(db, c, v, NULL), JET_OK);
    fk_row(c, v, u, 2, 2, NULL, -1);
    ck_assert_int_eq(jet_table_insert(db, c, v, NULL), JET_ECONSTRAINT);
    ck_assert_str_eq(jet_db_error(db)->msg, "You cannot add or change a "
                     "record because a related record is required in "
                     "table 'P'.");
    fk_row(c, v, u, 2, -1, "abc", 8);
    ck_assert_int_eq(jet_table_insert(db, c, v, NULL), JET_ECONSTRAINT);
    ck_assert_int_eq(jet_db_drop_table(db, "P"), JET_ECONSTRAINT);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 2, &st);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);

    /* dropped; added again to the table with rows: refused while a row
     * has no parent, the file unchanged after the rollback */
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_drop_foreign_key(db, "C", "nope"),
                     JET_ENOTFOUND);
    ck_assert_int_eq(jet_db_drop_foreign_key(db, "P", "Owns"),
                     JET_ENOTFOUND);
    ck_assert_int_eq(jet_db_drop_foreign_key(db, "C", "Owns"), JET_OK);
    c = table(db, "C");
    p = table(db, "P");
    ck_assert_int_eq(c->nindexes, 2);
    ck_assert_int_eq(p->nindexes, 3);
    ck_assert_ptr_null(logical(c, "Owns"));
    ck_assert_ptr_null(logical(p, ".rB"));
    fk_row(c, v, u, 2, 2, NULL, -1);
    ck_assert_int_eq(jet_table_insert(db, c, v, NULL), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 2, &st);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    {
        size_t len = 0;
        uint8_t *before = jet_test_slurp(path, &len);
        jet_savepoint sp;
        db = open_db(path);
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
        ck_assert_int_eq(jet_db_add_foreign_key(db, "C", &fks[0]),
                         JET_ECONSTRAINT);
        ck_assert_ptr_nonnull(strstr(jet_db_error(db)->msg, "violates "
                                     "referential integrity rules"));
        ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
        jet_db_release(db, sp);
        ck_assert_int_eq(table(db, "C")->nindexes, 2);
        ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
        jet_db_close(db);
        ck_assert(jet_test_same_file(path, before, len));
        free(before);
    }
    /* with the parent there it is added, its index built from the rows */
    db = open_db(path);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    p = table(db, "P");
    fk_row(p, v, u, 2, -1, "x", 1);
    ck_assert_int_eq(jet_table_insert(db, p, v, NULL), JET_OK);
    ck_assert_int_eq(jet_db_add_foreign_key(db, "C", &fks[0]), JET_OK);
    ck_assert_ptr_nonnull(logical(table(db, "C"), "Owns"));
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    check_db(db, &base, 2, &st);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}

START_TEST(foreign_keys_jet4)
{
    if (have_shared())
        foreign_keys("jackcess/V2003/testV2003.mdb", "ddlfk4");
}
END_TEST

START_TEST(foreign_keys_ace14)
{
    if (have_shared())
        foreign_keys("jackcess/V2010/testV2010.accdb", "ddlfk14");
}
END_TEST

/* ------------------------------------------------------ ALTER COLUMN */

/* A conversion as the driver's: LONG to DOUBLE, TEXT kept; refuse (when
 * *ctx is set) the value equal to it. */
static jet_rc long_to_double(void *ctx, const jet_value *in,
                             const jet_column *to, jet_value *out)
{
    const int64_t *refuse = ctx;
    *out = *in;
    out->type = to->type;
    if (in->type == JET_T_LONG && to->type == JET_T_DOUBLE) {
        if (refuse && in->u.i == *refuse)
            return JET_ECONSTRAINT;
        out->u.d = (double)in->u.i / 4;
    }
    return JET_OK;
}

/* jet_db_alter_column in the core: a Long with a unique index becomes a
 * Double over 1,000 rows (values converted, the index rebuilt, the
 * column's number and place kept, jet_db_check clean); a conversion
 * refused part way through the rows leaves the file as it was once the
 * transaction is rolled back. */
static void alter_long_to_double(const char *rel, const char *tag)
{
    char path[1024];
    const char *src = jet_test_fixture(rel);
    jet_check_stats base, st;
    if (!src)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, tag);
    jet_db *db = open_db(path);
    ck_assert_int_eq(jet_db_check(db, jet_test_quiet_problem, NULL,
                                  &base), JET_OK);
    jet_coldef cols[3] = {
        { .name = "K", .type = JET_T_LONG, .required = true },
        { .name = "V", .type = JET_T_LONG },
        { .name = "S", .type = JET_T_TEXT, .size = 10, .compressed = true },
    };
    jet_idxdef idx[2] = {
        { .ncols = 1, .col = { 0 }, .primary = true, .unique = true },
        { .name = "VU", .ncols = 1, .col = { 1 }, .unique = true },
    };
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_create_table(db, "Alt", cols, 3, idx, 2, NULL,
                                         0), JET_OK);
    const jet_tdef *t = table(db, "Alt");
    for (int k = 0; k < 1000; k++) {
        jet_value v[3];
        uint16_t s[4] = { 'r', (uint16_t)('0' + k % 10), 0, 0 };
        memset(v, 0, sizeof v);
        v[0].type = JET_T_LONG;
        v[0].u.i = k;
        v[1].type = JET_T_LONG;
        v[1].u.i = 3 * k;
        v[1].is_null = k % 7 == 0;
        v[2].type = JET_T_TEXT;
        v[2].enc = JET_ENC_UCS2;
        v[2].data = (const uint8_t *)s;
        v[2].len = 4;
        ck_assert_int_eq(jet_table_insert(db, t, v, NULL), JET_OK);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    size_t blen;
    uint8_t *before = jet_test_slurp(path, &blen);
    ck_assert_ptr_nonnull(before);

    /* refused at row 600: nothing stays */
    jet_coldef dbl = { .name = "v", .type = JET_T_DOUBLE };
    int64_t bad = 3 * 601;
    jet_savepoint sp;
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_savepoint(db, &sp), JET_OK);
    ck_assert_int_eq(jet_db_alter_column(db, "Alt", &dbl, long_to_double,
                                         &bad), JET_ECONSTRAINT);
    ck_assert_int_eq(jet_db_rollback_to(db, sp), JET_OK);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    ck_assert(jet_test_same_file(path, before, blen));
    /* a field in no index made NOT NULL over NULLs: refused */
    jet_coldef req = { .name = "V", .type = JET_T_DOUBLE, .required = true };
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_int_eq(jet_db_alter_column(db, "Alt", &req, long_to_double,
                                         NULL), JET_ECONSTRAINT);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    ck_assert(jet_test_same_file(path, before, blen));
    free(before);

    /* done: every value a quarter of what it was, the index rebuilt */
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    jet_rc rc = jet_db_alter_column(db, "Alt", &dbl, long_to_double, NULL);
    ck_assert_msg(rc == JET_OK, "alter: %s", jet_db_error(db)->msg);
    t = table(db, "Alt");
    ck_assert_int_eq(t->ncols, 3);
    ck_assert_int_eq(jet_tdef_find_column(t, "V"), 1);
    ck_assert_int_eq(t->cols[1].type, JET_T_DOUBLE);
    ck_assert_str_eq(t->cols[1].name, "V");
    check_db(db, &base, 1, &st);
    jet_scan *s = NULL;
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    unsigned n = 0, nulls = 0;
    while (jet_scan_next(s) == JET_OK) {
        jet_value k, v;
        ck_assert_int_eq(jet_scan_value(s, 0, &k), JET_OK);
        ck_assert_int_eq(jet_scan_value(s, 1, &v), JET_OK);
        if (k.u.i % 7 == 0) {
            ck_assert(v.is_null);
            nulls++;
        } else {
            ck_assert(!v.is_null);
            ck_assert(v.u.d == (double)(3 * k.u.i) / 4);
        }
        n++;
    }
    jet_scan_close(s);
    ck_assert_uint_eq(n, 1000);
    ck_assert_uint_eq(nulls, 143);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
}

START_TEST(alter_column_jet4)
{
    if (have_shared())
        alter_long_to_double("jackcess/V2003/testV2003.mdb", "alt4");
}
END_TEST

START_TEST(alter_column_ace14)
{
    if (have_shared())
        alter_long_to_double("jackcess/V2010/testV2010.accdb", "alt14");
}
END_TEST

static Suite *ddl_suite(void)
{
    Suite *s = suite_create("ddl");
    TCase *tc = tcase_create("create");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, create_every_type_jet4);
    tcase_add_test(tc, create_every_type_ace12);
    tcase_add_test(tc, create_every_type_ace14);
    tcase_add_test(tc, create_every_type_ace16);
    tcase_add_test(tc, rolled_back_create_leaves_file_unchanged);
    tcase_add_test(tc, names_and_limits_refused);
    tcase_add_test(tc, index_and_drop_jet4);
    tcase_add_test(tc, index_and_drop_ace14);
    tcase_add_test(tc, columns_jet4);
    tcase_add_test(tc, columns_ace12);
    tcase_add_test(tc, alter_column_jet4);
    tcase_add_test(tc, alter_column_ace14);
    suite_add_tcase(s, tc);
    tc = tcase_create("fk");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, foreign_keys_jet4);
    tcase_add_test(tc, foreign_keys_ace14);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(ddl_suite)
