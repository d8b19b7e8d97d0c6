/*
 * test_compact.c - compacting a database (jet_db_compact, core/compact.c;
 * issue 27 acceptance 3).
 *
 * every_fixture: every public Jet4/ACE fixture (Jet3 refused with
 * JET_EUNSUPPORTED and nothing written; the encrypted ones with their
 * password Test123) compacted into a new folder: the source is byte for
 * byte unchanged; the new file is no larger; jet_db_check finds 0
 * problems; every table (system tables included) is there with the same
 * columns, index count and row count, every table's rows equal in scan
 * order (values compared as read; system tables' catalog ids, mapped to
 * the new TDEF pages, aside), the TDEF's AutoNumber and
 * complex id counters kept. On a subset (all with JET_COMPACT_JETCHECK=
 * all) `jetcheck dump` of both files are equal (ignoring "file") and
 * `jetcheck verify` reports 0 problems; among them the two fixtures
 * whose index keys the core's sort order cannot compute (their keys are
 * copied from the source's entries).
 * churned_file: a table under insert/delete churn with Memo values (and
 * one of 5,000 rows, more than one commit of the copy) compacts to a
 * clearly smaller file with the same rows.
 * packed_source: a file of 30,000 rows whose pages the whole-file writer
 * packed full compacts to no larger a file.
 * encrypted_new_files: new Jet4 (RC4 + password) and ACE (agile AES)
 * files with rows compact into files that open with the same password
 * only.
 * refusals: DST exists (unchanged), SRC missing or not a database, a
 * wrong or missing password: a clear error and nothing left in the folder.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ddl.h"
#include "internal.h"
#include "newfile.h"
#include "write.h"
#include "unit.h"
#include "../fixture_walk.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

/* fixtures compared with jetcheck by default (any file: all with
 * JET_COMPACT_JETCHECK=all) */
static const char *const jetcheck_subset[] = {
    "V2000/testV2000.mdb", "V2007/complexDataTestV2007.accdb",
    "V2010/calcFieldTestV2010.accdb", "V2003/queryTestV2003.mdb",
    "jackcessencrypt/db2007-enc.accdb", "jackcessencrypt/db-enc.mdb",
    "V2003/testUnicodeCompV2003.mdb", "V2007/unsupportedFieldsTestV2007.accdb",
};

static struct {
    int files, jet3, compacted, jetchecked;
    long src_bytes, dst_bytes;
} st;

static char folder[256];

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Entries of dir besides . and .. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)) != NULL)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void print_problem(void *ctx, uint32_t pgno, const char *table,
                          const char *msg)
{
    fprintf(stderr, "check %s: page %u, table %s: %s\n", (const char *)ctx,
            pgno, table ? table : "-", msg);
}

static jet_db *open_pw(const char *path, const char *pw)
{
    jet_open_options o;
    jet_error err;
    jet_db *db = NULL;
    memset(&o, 0, sizeof o);
    o.password = pw;
    o.read_only = true;
    ck_assert_msg(jet_db_open(&db, path, &o, &err) == JET_OK, "%s: %s",
                  path, err.msg);
    return db;
}

/* Two values read from the same column of two files are equal. */
static bool same_value(jet_db *da, const jet_value *a, jet_db *db,
                       const jet_value *b)
{
    static uint16_t ua[1 << 16], ub[1 << 16];
    if (a->is_null != b->is_null || a->type != b->type)
        return false;
    if (a->is_null)
        return true;
    switch (a->type) {
    case JET_T_TEXT: case JET_T_MEMO: {
        size_t na = 0, nb = 0;
        if (jet_text_to_utf16(da, a, ua, 1 << 16, &na) != JET_OK ||
            jet_text_to_utf16(db, b, ub, 1 << 16, &nb) != JET_OK)
            return false;
        return na == nb && (na > (1 << 16) ||
                            memcmp(ua, ub, na * sizeof *ua) == 0);
    }
    case JET_T_BINARY: case JET_T_OLE:
        return a->len == b->len && (!a->len ||
                                    memcmp(a->data, b->data, a->len) == 0);
    case JET_T_BOOL:
        return a->u.b == b->u.b;
    default:
        if (a->data || b->data)
            return a->len == b->len &&
                   (!a->len || memcmp(a->data, b->data, a->len) == 0);
        return memcmp(&a->u, &b->u, sizeof a->u) == 0;
    }
}

/* The TDEF header's counters of t (bytes 16..39). */
static void tdef_header(jet_db *db, const jet_tdef *t, uint8_t out[24])
{
    const uint8_t *pg;
    jet_error err;
    ck_assert_int_eq(jet_page_pin(db->pf, t->pgno, &pg, &err), JET_OK);
    memcpy(out, pg + 16, 24);
    jet_page_unpin(db->pf, pg);
}

/* A system table's column naming catalog objects by id (compact.c maps
 * those naming tables to their new TDEF pages). */
static bool id_column(const char *name)
{
    static const char *const ids[] = {
        "Id", "ParentId", "ObjectId", "ConceptualTableID", "FlatTableID",
        "ComplexTypeObjectID",
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcasecmp(name, ids[i]) == 0)
            return true;
    return false;
}

/* Every local table of a in b, with the same shape and rows: every value
 * in scan order (system tables: but their catalog ids). */
static void same_tables(jet_db *a, jet_db *b, const char *label)
{
    size_t n = jet_catalog_count(a), tables = 0;
    for (size_t i = 0; i < n; i++) {
        const jet_object *oa = jet_catalog_at(a, i), *ob;
        const jet_tdef *ta, *tb;
        jet_scan *sa, *sb;
        jet_rc ra, rb;
        uint8_t ha[24], hb[24];
        long rows = 0;
        if (oa->kind != JET_OBJ_TABLE && oa->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        ob = jet_catalog_find(b, oa->name);
        ck_assert_msg(ob && ob->kind == oa->kind, "%s: table %s missing",
                      label, oa->name);
        ck_assert_int_eq(jet_tdef_load(&ta, a, oa), JET_OK);
        ck_assert_int_eq(jet_tdef_load(&tb, b, ob), JET_OK);
        ck_assert_uint_eq(ta->ncols, tb->ncols);
        ck_assert_uint_eq(ta->nindexes, tb->nindexes);
        tdef_header(a, ta, ha);
        tdef_header(b, tb, hb);
        ck_assert_msg(memcmp(ha + 4, hb + 4, 20) == 0, "%s: table %s: TDEF "
                      "counters differ", label, oa->name);
        ck_assert_int_eq(jet_scan_open(&sa, a, ta, NULL), JET_OK);
        ck_assert_int_eq(jet_scan_open(&sb, b, tb, NULL), JET_OK);
        for (;;) {
            ra = jet_scan_next(sa);
            rb = jet_scan_next(sb);
            ck_assert_msg(ra == rb, "%s: table %s: row %ld: %d vs %d", label,
                          oa->name, rows, ra, rb);
            if (ra != JET_OK)
                break;
            rows++;
            for (uint16_t c = 0; c < ta->ncols; c++) {
                jet_value va, vb;
                if (oa->kind != JET_OBJ_TABLE && id_column(ta->cols[c].name))
                    continue;       /* catalog ids: mapped to new pages */
                ck_assert_int_eq(jet_scan_value(sa, c, &va), JET_OK);
                if (va.type == JET_T_MEMO || va.type == JET_T_OLE) {
                    /* the scan's scratch: copy before the other read */
                    uint8_t *copy = malloc(va.len + 1);
                    if (va.len)
                        memcpy(copy, va.data, va.len);
                    va.data = copy;
                    ck_assert_int_eq(jet_scan_value(sb, c, &vb), JET_OK);
                    ck_assert_msg(same_value(a, &va, b, &vb), "%s: %s.%s "
                                  "row %ld differs", label, oa->name,
                                  ta->cols[c].name, rows);
                    free(copy);
                    continue;
                }
                ck_assert_int_eq(jet_scan_value(sb, c, &vb), JET_OK);
                ck_assert_msg(same_value(a, &va, b, &vb), "%s: %s.%s row "
                              "%ld differs", label, oa->name,
                              ta->cols[c].name, rows);
            }
        }
        ck_assert_int_eq(ra, JET_DONE);
        jet_scan_close(sa);
        jet_scan_close(sb);
        tables++;
    }
    ck_assert_uint_gt(tables, 0);
}

/* The compacted copy dst of src (password pw, NULL: none): jet_db_check
 * finds no problem in it and it holds src's tables (same_tables). */
static void checked_copy(const char *src, const char *dst, const char *pw)
{
    jet_db *a = open_pw(src, pw), *b = open_pw(dst, pw);
    jet_check_stats cs;
    ck_assert_int_eq(jet_db_check(b, print_problem, (void *)dst, &cs),
                     JET_OK);
    ck_assert_msg(cs.problems == 0, "%s: jet_db_check: %u problems", dst,
                  cs.problems);
    same_tables(a, b, src);
    jet_db_close(a);
    jet_db_close(b);
}

static char *run_out(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0, cap = 1 << 16;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(p);
    for (;;) {
        if (n + 4096 > cap)
            out = realloc(out, cap *= 2);
        size_t k = fread(out + n, 1, cap - n - 1, p);
        if (k == 0)
            break;
        n += k;
    }
    out[n] = '\0';
    *status = pclose(p);
    return out;
}

/* jetcheck dump of src and dst equal (as "x"); verify dst clean. */
static void jetcheck_same(const char *src, const char *dst, const char *pw)
{
    char cmd[3072], pwopt[64] = "";
    char *da, *db;
    int sa, sb;
    if (!jet_test_have_jetcheck())
        return;
    if (pw)
        snprintf(pwopt, sizeof pwopt, "--password '%s'", pw);
    snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
             "--name x %s 2>&1", jet_shared_dir(), src, pwopt);
    da = run_out(cmd, &sa);
    snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
             "--name x %s 2>&1", jet_shared_dir(), dst, pwopt);
    db = run_out(cmd, &sb);
    ck_assert_int_eq(sa, sb);
    ck_assert_msg(strcmp(da, db) == 0, "jetcheck dump of %s differs after "
                  "compaction:\n%.1500s\n---\n%.1500s", src, da, db);
    free(da);
    free(db);
    jet_test_jetcheck_verify_opts(dst, pwopt);
    st.jetchecked++;
}

static bool in_list(const char *path, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ends_with(path, list[i]))
            return true;
    return false;
}

static void compact_one(const char *path)
{
    const char *pw = strstr(path, "jackcessencrypt/") ? "Test123" : NULL;
    char dst[1024];
    size_t before_len, after_len;
    uint8_t *before, *after;
    jet_error err;
    jet_rc rc;
    const char *base = strrchr(path, '/') + 1;

    st.files++;
    snprintf(dst, sizeof dst, "%s/%s", folder, base);
    before = jet_test_slurp(path, &before_len);
    ck_assert_ptr_nonnull(before);
    rc = jet_db_compact(path, dst, pw, &err);
    after = jet_test_slurp(path, &after_len);
    ck_assert_msg(after && after_len == before_len &&
                  memcmp(before, after, before_len) == 0,
                  "%s changed by compact", path);
    free(before);
    free(after);
    if (before_len > 0x14 && (strstr(path, "V1997") ||
                              strstr(path, "db97-enc") ||
                              strstr(path, "nwind.mdb"))) {
        ck_assert_msg(rc == JET_EUNSUPPORTED && strstr(err.msg, "Jet3"),
                      "%s: %d %s", path, rc, err.msg);
        ck_assert_int_eq(dir_entries(folder), 0);
        st.jet3++;
        return;
    }
    ck_assert_msg(rc == JET_OK, "%s: compact: %s", path, err.msg);
    st.compacted++;
    ck_assert_int_eq(dir_entries(folder), 1);
    st.src_bytes += (long)before_len;
    st.dst_bytes += file_size(dst);
    ck_assert_msg(file_size(dst) <= (long)before_len, "%s: %ld bytes "
                  "compacted to %ld", path, (long)before_len,
                  file_size(dst));
    checked_copy(path, dst, pw);
    {
        const char *all = getenv("JET_COMPACT_JETCHECK");
        if ((all && !strcmp(all, "all")) ||
            in_list(path, jetcheck_subset, sizeof jetcheck_subset /
                                           sizeof jetcheck_subset[0]))
            jetcheck_same(path, dst, pw);
    }
    ck_assert_int_eq(unlink(dst), 0);
}

static void new_folder(void)
{
    snprintf(folder, sizeof folder, "/tmp/jet_compact_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(folder));
}

START_TEST(every_fixture)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/public", jet_shared_dir());
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "compact: %s absent, fixtures skipped\n", dir);
        return;
    }
    new_folder();
    jet_fixture_walk(dir, 0, compact_one);
    fprintf(stderr, "compact: %d files: %d compacted (%ld -> %ld bytes), "
            "%d Jet3 refused; %d compared with jetcheck\n", st.files,
            st.compacted, st.src_bytes, st.dst_bytes, st.jet3,
            st.jetchecked);
    ck_assert_int_ge(st.compacted, 78);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

/* ------------------------------------------------------------- churn */

static void memo_row(jet_value v[3], uint16_t *memo, int64_t k)
{
    size_t n = k % 3 == 0 ? 1500 + k % 300 : 20 + k % 90;
    for (size_t i = 0; i < n; i++)
        memo[i] = (uint16_t)(k % 3 == 0 ? 0x3B1 + (k + i) % 24
                                        : 'a' + (k + i) % 26);
    memset(v, 0, 3 * sizeof *v);
    v[0].type = JET_T_LONG;
    v[0].is_null = true;            /* AutoNumber */
    v[1].type = JET_T_LONG;
    v[1].u.i = k * 7 % 1000;
    v[2].type = JET_T_MEMO;
    v[2].enc = JET_ENC_UCS2;
    v[2].data = (const uint8_t *)memo;
    v[2].len = 2 * n;
}

/* A new file at path holding table Churn after rounds of inserting 600
 * rows (Memo values, a third over a page) and deleting most of them. */
static void make_churned(const char *path, const char *pw, jet_version ver)
{
    jet_error err;
    jet_db *db;
    const jet_tdef *t;
    jet_open_options o;
    static uint16_t memo[2000];
    jet_coldef cols[3];
    jet_idxdef ix;
    jet_rowid *ids = calloc(600, sizeof *ids);
    int64_t k = 0;

    ck_assert_int_eq(jet_db_create_file(path, ver, pw, &err), JET_OK);
    memset(&o, 0, sizeof o);
    o.password = pw;
    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
    memset(cols, 0, sizeof cols);
    cols[0].name = "Id";
    cols[0].type = JET_T_LONG;
    cols[0].autonumber = true;
    cols[1].name = "N";
    cols[1].type = JET_T_LONG;
    cols[2].name = "Note";
    cols[2].type = JET_T_MEMO;
    cols[2].compressed = true;
    memset(&ix, 0, sizeof ix);
    ix.primary = true;
    ix.ncols = 1;
    ix.col[0] = 0;
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    ck_assert_msg(jet_db_create_table(db, "Churn", cols, 3, &ix, 1, NULL,
                                      0) == JET_OK, "%s",
                  jet_db_error(db)->msg);
    memset(&ix, 0, sizeof ix);
    ix.ncols = 1;
    ix.col[0] = 1;
    ix.name = "N";
    ck_assert_int_eq(jet_db_create_index(db, "Churn", &ix), JET_OK);
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, "Churn")),
                     JET_OK);
    for (int round = 0; round < 4; round++) {
        jet_value v[3];
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        for (int i = 0; i < 600; i++) {
            memo_row(v, memo, k++);
            ck_assert_msg(jet_table_insert(db, t, v, &ids[i]) == JET_OK,
                          "%s", jet_db_error(db)->msg);
        }
        for (int i = 0; i < 600; i++)
            if (i % 10 != 0)
                ck_assert_int_eq(jet_table_delete(db, t, ids[i]), JET_OK);
        ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    }
    /* and a table of more rows than one commit of the copy takes */
    {
        jet_coldef mc[2];
        const jet_tdef *mt;
        memset(mc, 0, sizeof mc);
        mc[0].name = "K";
        mc[0].type = JET_T_LONG;
        mc[1].name = "T";
        mc[1].type = JET_T_TEXT;
        mc[1].size = 20;
        memset(&ix, 0, sizeof ix);
        ix.ncols = 1;
        ix.col[0] = 1;
        ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
        ck_assert_int_eq(jet_db_create_table(db, "Many", mc, 2, &ix, 1, NULL,
                                             0), JET_OK);
        ck_assert_int_eq(jet_tdef_load(&mt, db, jet_catalog_find(db,
                                                                 "Many")),
                         JET_OK);
        for (int i = 0; i < 5000; i++) {
            jet_value v[2];
            uint8_t txt[40];
            int n = snprintf((char *)txt, sizeof txt, "r%07d", i * 7919 % 5000);
            for (int j = n - 1; j >= 0; j--) {
                txt[2 * j] = txt[j];
                txt[2 * j + 1] = 0;
            }
            memset(v, 0, sizeof v);
            v[0].type = JET_T_LONG;
            v[0].u.i = i;
            v[1].type = JET_T_TEXT;
            v[1].enc = JET_ENC_UCS2;
            v[1].data = txt;
            v[1].len = 2 * (size_t)n;
            ck_assert_int_eq(jet_table_insert(db, mt, v, NULL), JET_OK);
        }
        ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    }
    jet_db_close(db);
    free(ids);
}

START_TEST(churned_file)
{
    char src[512], dst[512];
    jet_error err;
    long a, b;
    new_folder();
    snprintf(src, sizeof src, "%s/churned.accdb", folder);
    snprintf(dst, sizeof dst, "%s/compacted.accdb", folder);
    make_churned(src, NULL, JET_VER_ACE14);
    ck_assert_msg(jet_db_compact(src, dst, NULL, &err) == JET_OK, "%s",
                  err.msg);
    a = file_size(src);
    b = file_size(dst);
    fprintf(stderr, "compact: churned file %ld -> %ld bytes (%.0f%%)\n", a,
            b, 100.0 * (double)b / (double)a);
    ck_assert_msg(b * 2 <= a, "churned %ld bytes, compacted %ld", a, b);
    checked_copy(src, dst, NULL);
    jetcheck_same(src, dst, NULL);
    unlink(src);
    unlink(dst);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

/* A file written by the whole-file writer (newfile.c: data pages and
 * index pages packed full, keys in order) stays no larger: the copy
 * fills the last leaf of a level before it splits. */
START_TEST(packed_source)
{
    char src[512], dst[512], err[256];
    jet_error jerr;
    jw_coldef cols[3] = {
        { "id", JW_LONG, 0, 0 }, { "name", JW_TEXT, 30, 1 },
        { "n", JW_DOUBLE, 0, 0 },
    };
    jw_idxdef idx[1] = { { "PrimaryKey", 0, 1, 1, 0 } };
    jw_db *w;
    jw_table *t;
    new_folder();
    snprintf(src, sizeof src, "%s/packed.accdb", folder);
    snprintf(dst, sizeof dst, "%s/packed-compact.accdb", folder);
    w = jw_create(src, JW_FMT_ACE14, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    t = jw_table_begin(w, "Packed", cols, 3, idx, 1);
    ck_assert_msg(t != NULL, "%s", jw_error(w));
    for (int i = 0; i < 30000; i++) {
        uint16_t name[16];
        jw_value v[3];
        memset(v, 0, sizeof v);
        for (int k = 0; k < 12; k++)
            name[k] = (uint16_t)('a' + (i * 31 + k * 7) % 26);
        v[0].i = i + 1;
        v[1].text = name;
        v[1].units = 12;
        v[2].d = i / 3.0;
        ck_assert_msg(jw_table_add_row(t, v) == 0, "%s", jw_error(w));
    }
    ck_assert_msg(jw_table_end(t) == 0, "%s", jw_error(w));
    ck_assert_msg(jw_close(w, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(jet_db_compact(src, dst, NULL, &jerr) == JET_OK, "%s",
                  jerr.msg);
    fprintf(stderr, "compact: packed file %ld -> %ld bytes\n",
            file_size(src), file_size(dst));
    ck_assert_int_le(file_size(dst), file_size(src));
    checked_copy(src, dst, NULL);
    unlink(src);
    unlink(dst);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

START_TEST(encrypted_new_files)
{
    static const struct { jet_version ver; const char *ext; } f[] = {
        { JET_VER_4, "mdb" }, { JET_VER_ACE16, "accdb" },
    };
    static const char pw[] = "S3cret pass";
    for (size_t i = 0; i < 2; i++) {
        char src[512], dst[512];
        jet_error err;
        jet_db *db;
        new_folder();
        snprintf(src, sizeof src, "%s/enc.%s", folder, f[i].ext);
        snprintf(dst, sizeof dst, "%s/enc-compact.%s", folder, f[i].ext);
        make_churned(src, pw, f[i].ver);
        ck_assert_int_eq(jet_db_compact(src, dst, NULL, &err), JET_EPASSWORD);
        ck_assert_int_eq(dir_entries(folder), 1);
        ck_assert_msg(jet_db_compact(src, dst, pw, &err) == JET_OK, "%s",
                      err.msg);
        ck_assert_int_eq(jet_db_open(&db, dst, NULL, &err), JET_EPASSWORD);
        checked_copy(src, dst, pw);
        ck_assert_int_lt(file_size(dst), file_size(src));
        jetcheck_same(src, dst, pw);
        unlink(src);
        unlink(dst);
        ck_assert_int_eq(rmdir(folder), 0);
    }
}
END_TEST

START_TEST(refusals)
{
    char src[512], dst[512], bad[512];
    size_t len0 = 0, len1 = 0;
    uint8_t *b0, *b1;
    jet_error err;
    FILE *f;
    new_folder();
    snprintf(src, sizeof src, "%s/a.accdb", folder);
    snprintf(dst, sizeof dst, "%s/b.accdb", folder);
    snprintf(bad, sizeof bad, "%s/bad.accdb", folder);
    ck_assert_int_eq(jet_db_create_file(src, JET_VER_ACE12, NULL, &err),
                     JET_OK);
    ck_assert_int_eq(jet_db_create_file(dst, JET_VER_ACE12, NULL, &err),
                     JET_OK);
    /* DST exists: refused, left as it was */
    b0 = jet_test_slurp(dst, &len0);
    ck_assert_int_eq(jet_db_compact(src, dst, NULL, &err), JET_EIO);
    ck_assert_msg(strstr(err.msg, "already exists"), "%s", err.msg);
    b1 = jet_test_slurp(dst, &len1);
    ck_assert(len0 == len1 && memcmp(b0, b1, len0) == 0);
    free(b0);
    free(b1);
    ck_assert_int_eq(dir_entries(folder), 2);
    unlink(dst);
    /* SRC missing */
    ck_assert_int_ne(jet_db_compact(bad, dst, NULL, &err), JET_OK);
    ck_assert_int_eq(dir_entries(folder), 1);
    /* SRC not a database, and SRC damaged (MSysObjects zeroed) */
    f = fopen(bad, "wb");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 5 * 4096; i++)
        fputc(i * 7 & 0xFF, f);
    fclose(f);
    ck_assert_int_eq(jet_db_compact(bad, dst, NULL, &err), JET_EFORMAT);
    ck_assert_int_eq(dir_entries(folder), 2);
    b0 = jet_test_slurp(src, &len0);
    memset(b0 + 2 * 4096, 0, 4096);
    f = fopen(bad, "wb");
    fwrite(b0, 1, len0, f);
    fclose(f);
    free(b0);
    ck_assert_int_ne(jet_db_compact(bad, dst, NULL, &err), JET_OK);
    ck_assert_int_eq(dir_entries(folder), 2);
    unlink(bad);
    /* a password given to a file without one is ignored by the open; a
     * wrong password of an encrypted file is refused */
    unlink(src);
    ck_assert_int_eq(jet_db_create_file(src, JET_VER_ACE12, "right", &err),
                     JET_OK);
    ck_assert_int_eq(jet_db_compact(src, dst, "wrong", &err), JET_EPASSWORD);
    ck_assert_int_eq(jet_db_compact(src, dst, NULL, &err), JET_EPASSWORD);
    ck_assert_int_eq(dir_entries(folder), 1);
    unlink(src);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

static Suite *compact_suite(void)
{
    Suite *s = suite_create("compact");
    TCase *tc = tcase_create("compact");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_fixture);
    tcase_add_test(tc, churned_file);
    tcase_add_test(tc, packed_source);
    tcase_add_test(tc, encrypted_new_files);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(compact_suite)
