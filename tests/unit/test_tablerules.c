/*
 * test_tablerules.c - jet_table_check_writable (core/tablerules.c) over
 * the public fixtures: which tables the write path accepts, and for the
 * others the rule each refusal names (Jet3, calculated column, complex
 * column of an unknown kind, system table, linked table, index
 * sort order, validation rule), plus the LvProp property finder on built
 * property maps.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collate.h"
#include "internal.h"
#include "write.h"
#include "../fixture_walk.h"
#include "../shared_dir.h"
#include "unit.h"

static jet_db *open_fixture(const char *rel)
{
    char path[1024];
    jet_db *db = NULL;
    jet_open_options o = { .read_only = true };
    snprintf(path, sizeof path, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    if (access(path, R_OK) != 0)
        return NULL;
    ck_assert_int_eq(jet_db_open(&db, path, &o, NULL), JET_OK);
    return db;
}

static const jet_tdef *table(jet_db *db, const char *name)
{
    const jet_tdef *t = NULL;
    const jet_object *o = jet_catalog_find(db, name);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    return t;
}

/* Check table name of db answers rc with a message containing each of the
 * NULL-terminated strings. */
static void expect(jet_db *db, const char *name, jet_rc rc, ...)
{
    va_list ap;
    const char *want;
    const jet_tdef *t = table(db, name);
    jet_rc got = jet_table_check_writable(db, t);
    ck_assert_msg(got == rc, "%s: rc %d, expected %d (%s)", name, got, rc,
                  jet_db_error(db)->msg);
    va_start(ap, rc);
    while ((want = va_arg(ap, const char *)) != NULL)
        ck_assert_msg(strstr(jet_db_error(db)->msg, want) != NULL,
                      "%s: message '%s' lacks '%s'", name,
                      jet_db_error(db)->msg, want);
    va_end(ap);
}

#define SKIP_IF_NULL(db)                                                   \
    do {                                                                   \
        if (!(db)) {                                                       \
            fprintf(stderr, "skip: %s/fixtures/public not found\n",        \
                    jet_shared_dir());                                     \
            return;                                                        \
        }                                                                  \
    } while (0)

START_TEST(jet3_tables_are_read_only)
{
    jet_db *db = open_fixture("mdbtestdata/nwind.mdb");
    SKIP_IF_NULL(db);
    /* nwind's Orders has enforced relationships, but a Jet3 file refuses
     * first and for every table */
    expect(db, "Orders", JET_EREADONLY, "Access 97 files are read-only",
           NULL);
    expect(db, "Customers", JET_EREADONLY, "read-only", NULL);
    jet_db_close(db);
}
END_TEST

START_TEST(enforced_relationships_are_writable)
{
    static const char *files[] = { "jackcess/V2000/indexTestV2000.mdb",
                                   "jackcess/V2003/indexTestV2003.mdb",
                                   "jackcess/V2007/indexTestV2007.accdb",
                                   "jackcess/V2010/indexTestV2010.accdb" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        jet_db *db = open_fixture(files[i]);
        SKIP_IF_NULL(db);
        /* Table1 is the child of Table2 and Table3: relations.c keeps
         * both relationships, so every side is writable */
        expect(db, "Table1", JET_OK, NULL);
        expect(db, "Table2", JET_OK, NULL);
        expect(db, "Table3", JET_OK, NULL);
        /* cached: the same answer again */
        expect(db, "Table3", JET_OK, NULL);
        jet_db_close(db);
    }
}
END_TEST

START_TEST(table_without_rules_is_writable)
{
    jet_db *db = open_fixture("jackcess/V2003/testV2003.mdb");
    SKIP_IF_NULL(db);
    expect(db, "Table1", JET_OK, NULL);
    expect(db, "Table1", JET_OK, NULL);
    jet_db_close(db);
    db = open_fixture("jackcess/V2010/compIndexTestV2010.accdb");
    SKIP_IF_NULL(db);
    expect(db, "Table1", JET_OK, NULL);   /* compound text index, General */
    jet_db_close(db);
    db = open_fixture("jackcess/V2003/test2V2003.mdb");
    SKIP_IF_NULL(db);
    expect(db, "MSP_PROJECTS", JET_OK, NULL);   /* memo columns */
    jet_db_close(db);
}
END_TEST

START_TEST(calculated_and_unknown_complex_columns_refuse)
{
    jet_db *db = open_fixture("jackcess/V2010/calcFieldTestV2010.accdb");
    SKIP_IF_NULL(db);
    expect(db, "Table1", JET_EUNSUPPORTED,
           "table 'Table1' has a calculated column 'LastFirst'",
           "no evaluator is attached", NULL);
    jet_db_close(db);
    db = open_fixture("jackcess/V2019/extDateTestV2019.accdb");
    SKIP_IF_NULL(db);
    expect(db, "Table1", JET_EUNSUPPORTED, "calculated column", NULL);
    jet_db_close(db);
    /* complex columns whose values tables are known are kept
     * (complex.c); one of a kind Access does not document refuses */
    db = open_fixture("jackcess/V2010/complexDataTestV2010.accdb");
    SKIP_IF_NULL(db);
    expect(db, "Table1", JET_OK, NULL);
    jet_db_close(db);
    db = open_fixture("jackcess/V2007/unsupportedFieldsTestV2007.accdb");
    SKIP_IF_NULL(db);
    expect(db, "Test", JET_EUNSUPPORTED, "complex column 'UnknownComplex'",
           NULL);
    jet_db_close(db);
}
END_TEST

START_TEST(system_tables_refuse)
{
    jet_db *db = open_fixture("jackcess/V2010/complexDataTestV2010.accdb");
    SKIP_IF_NULL(db);
    expect(db, "MSysObjects", JET_EUNSUPPORTED,
           "table 'MSysObjects' is a system table", NULL);
    /* a complex column's hidden flat table: written by the core through
     * its column (complex.c); the SQL layer refuses statements on it */
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (strncmp(o->name, "f_", 2) == 0)
            expect(db, o->name, JET_OK, NULL);
    }
    jet_db_close(db);
}
END_TEST

static bool copy_file(const char *rel, const char *dir, const char *name)
{
    char from[1024], to[1024], buf[65536];
    size_t n;
    bool ok = true;
    FILE *in, *out;
    snprintf(from, sizeof from, "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    in = fopen(from, "rb");
    if (!in)
        return false;
    out = fopen(to, "wb");
    ck_assert_ptr_nonnull(out);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = ok && fwrite(buf, 1, n, out) == n;
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
    return ok;
}

START_TEST(linked_table_refuses)
{
    char dir[] = "/tmp/jet_rules_XXXXXX", path[1024], cmd[1100];
    jet_db *db = NULL;
    jet_open_options o = { .read_only = true };
    ck_assert_ptr_nonnull(mkdtemp(dir));
    if (!copy_file("jackcess/V2007/linkerTestV2007.accdb", dir,
                   "linker.accdb") ||
        !copy_file("jackcess/linkeeTest.accdb", dir, "linkeeTest.accdb")) {
        fprintf(stderr, "skip: linker fixtures not found\n");
    } else {
        snprintf(path, sizeof path, "%s/linker.accdb", dir);
        ck_assert_int_eq(jet_db_open(&db, path, &o, NULL), JET_OK);
        expect(db, "Table2", JET_EUNSUPPORTED,
               "table 'Table2' is a linked table", "not supported yet", NULL);
        expect(db, "Table1", JET_OK, NULL);
        jet_db_close(db);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(index_in_unencoded_sort_order_refuses)
{
    jet_db *db = open_fixture("mdbtestdata/ASampleDatabase.accdb");
    const jet_tdef *t;
    jet_tdef_priv *tp;
    int text_col = -1;
    SKIP_IF_NULL(db);
    /* before the first check (the answer is cached), pretend the indexed
     * text column sorts as Japanese: a sort order without tables */
    t = table(db, "Asset Items");
    tp = (jet_tdef_priv *)t;
    for (uint16_t i = 0; i < t->nindexes && text_col < 0; i++)
        for (uint16_t k = 0; k < t->indexes[i].ncols; k++)
            if (t->cols[t->indexes[i].cols[k].col].type == JET_T_TEXT)
                text_col = t->indexes[i].cols[k].col;
    ck_assert_int_ge(text_col, 0);
    tp->cols[text_col].sort_lcid = 1041;
    ck_assert_int_eq(jet_collation_of(jet_db_version(db), &t->cols[text_col]),
                     JET_COLL_NONE);
    expect(db, "Asset Items", JET_EUNSUPPORTED, "has index 'PrimaryKey'",
           "on column 'Asset No'", "LCID 1041",
           "not supported yet", NULL);
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------- property maps (LvProp) */

typedef struct blob {
    uint8_t b[1024];
    size_t n;
} blob;

static void put16(blob *x, unsigned v)
{
    x->b[x->n++] = (uint8_t)v;
    x->b[x->n++] = (uint8_t)(v >> 8);
}

static void put32(blob *x, uint32_t v)
{
    put16(x, v & 0xFFFF);
    put16(x, v >> 16);
}

static void put_name(blob *x, const char *s)
{
    put16(x, (unsigned)strlen(s) * 2);
    for (; *s; s++)
        put16(x, (unsigned char)*s);
}

/* A property map: names list, then one block per object (owner or
 * column) holding one text property (name index, value). */
static void build_map(blob *x, const char *const *names, size_t nnames,
                      const char *block, unsigned nidx, const char *value)
{
    size_t chunk, inner;
    x->n = 0;
    memcpy(x->b, "MR2", 4);
    x->n = 4;
    chunk = x->n;
    put32(x, 0);
    put16(x, 0x80);
    for (size_t i = 0; i < nnames; i++)
        put_name(x, names[i]);
    x->b[chunk] = (uint8_t)(x->n - chunk);
    chunk = x->n;
    put32(x, 0);
    put16(x, 0x00);
    inner = x->n;
    put32(x, 0);
    put_name(x, block);
    x->b[inner] = (uint8_t)(x->n - inner);
    put16(x, 8 + (unsigned)strlen(value) * 2);
    x->b[x->n++] = 0;      /* ddl */
    x->b[x->n++] = 0x0A;   /* text */
    put16(x, nidx);
    put16(x, (unsigned)strlen(value) * 2);
    for (const char *s = value; *s; s++)
        put16(x, (unsigned char)*s);
    x->b[chunk] = (uint8_t)(x->n - chunk);
}

START_TEST(lvprop_finds_table_and_column_rules)
{
    static const char *names[] = { "Required", "ValidationRule" };
    jet_db *db = open_fixture("jackcess/V2003/testV2003.mdb");
    blob x;
    bool found;
    char where[64];
    SKIP_IF_NULL(db);
    build_map(&x, names, 2, "", 1, ">0");
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"), JET_OK);
    ck_assert(found);
    ck_assert_str_eq(where, "");
    build_map(&x, names, 2, "T", 1, ">0");
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "validationrule"), JET_OK);
    ck_assert(found);
    ck_assert_str_eq(where, "");
    build_map(&x, names, 2, "Price", 1, "Between 1 And 9");
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"), JET_OK);
    ck_assert(found);
    ck_assert_str_eq(where, "Price");
    /* another property, or an empty rule, is no rule */
    build_map(&x, names, 2, "Price", 0, "x");
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"), JET_OK);
    ck_assert(!found);
    build_map(&x, names, 2, "Price", 1, "");
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"), JET_OK);
    ck_assert(!found);
    /* damage: a chunk longer than the map */
    build_map(&x, names, 2, "Price", 1, ">0");
    x.b[4] = 0xF0;
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"),
                     JET_ECORRUPT);
    ck_assert(strstr(jet_db_error(db)->msg, "'T'") != NULL);
    memcpy(x.b, "XYZ", 4);
    ck_assert_int_eq(jet_lvprop_find(&found, where, sizeof where, db, x.b,
                                     x.n, "T", "ValidationRule"),
                     JET_ECORRUPT);
    jet_db_close(db);
}
END_TEST

/* ------------------------------------------------ every fixture's tables */

static unsigned n_ok, n_refused, n_readonly;

static void check_file(const char *path)
{
    jet_db *db = NULL;
    jet_open_options o = { .read_only = true };
    if (jet_db_open(&db, path, &o, NULL) != JET_OK)
        return;   /* encrypted without a password */
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *ob = jet_catalog_at(db, i);
        const jet_tdef *t;
        jet_rc rc;
        if (ob->kind != JET_OBJ_TABLE && ob->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        if (jet_tdef_load(&t, db, ob) != JET_OK)
            continue;
        rc = jet_table_check_writable(db, t);
        ck_assert_msg(rc == JET_OK || rc == JET_EUNSUPPORTED ||
                      rc == JET_EREADONLY, "%s: %s: rc %d (%s)", path,
                      ob->name, rc, jet_db_error(db)->msg);
        if (rc == JET_EUNSUPPORTED)
            ck_assert_msg(strstr(jet_db_error(db)->msg, ob->name) &&
                          strstr(jet_db_error(db)->msg, "not supported"),
                          "%s: %s", path, jet_db_error(db)->msg);
        if (ob->kind == JET_OBJ_SYSTEM_TABLE) {
            /* only a complex column's values table is written (through
             * its column) */
            bool flat = false;
            ck_assert_int_eq(jet_complex_flat_owner(db, t, &flat), JET_OK);
            ck_assert_msg(rc != JET_OK || flat, "%s: %s is writable", path,
                          ob->name);
        }
        n_ok += rc == JET_OK;
        n_refused += rc == JET_EUNSUPPORTED;
        n_readonly += rc == JET_EREADONLY;
    }
    jet_db_close(db);
}

START_TEST(every_fixture_table_gets_an_answer)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fixtures/public", jet_shared_dir());
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "skip: %s not found\n", dir);
        return;
    }
    jet_fixture_walk(dir, 0, check_file);
    fprintf(stderr, "tables: %u writable, %u refused (rule), %u read-only\n",
            n_ok, n_refused, n_readonly);
    ck_assert_uint_gt(n_ok, 50);
    ck_assert_uint_gt(n_refused, 50);
}
END_TEST

static Suite *tablerules_suite(void)
{
    Suite *s = suite_create("tablerules");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, jet3_tables_are_read_only);
    tcase_add_test(tc, enforced_relationships_are_writable);
    tcase_add_test(tc, table_without_rules_is_writable);
    tcase_add_test(tc, calculated_and_unknown_complex_columns_refuse);
    tcase_add_test(tc, system_tables_refuse);
    tcase_add_test(tc, linked_table_refuses);
    tcase_add_test(tc, index_in_unencoded_sort_order_refuses);
    tcase_add_test(tc, lvprop_finds_table_and_column_rules);
    tcase_add_test(tc, every_fixture_table_gets_an_answer);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(tablerules_suite)
