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
 * the same path is refused with the file unchanged.
 *
 * With a password (new_encrypted_database): the file opens only with it
 * (none or a wrong one: JET_EPASSWORD, the file unchanged); the same
 * table of JET_NEWDB_ENC_ROWS rows (default 600) goes in and reads back;
 * jet_db_check and `jetcheck verify --password` find 0 problems, `jetcheck
 * dump --password` shows every row written; the raw file holds neither
 * the table's name nor its text (every page but the header encrypted:
 * Jet4 RC4, ACE agile AES-256); mdbtools reads the Jet4 file. A password
 * too long for the format is refused (JET_ELIMIT) with nothing written.
 *
 * jetcheck and mdbtools are optional (skipped with a note when absent).
 */
#include <stdbool.h>
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

/* Open options with password pw (NULL: none). */
static jet_open_options with_pw(const char *pw)
{
    jet_open_options o;
    memset(&o, 0, sizeof o);
    o.password = pw;
    return o;
}

/* jet_db_check (with password pw, NULL for none): 0 problems; returns
 * its stats. */
static jet_check_stats checked_pw(const char *path, const char *pw)
{
    jet_db *db = NULL;
    jet_error err;
    jet_check_stats st;
    jet_open_options o = with_pw(pw);
    ck_assert_msg(jet_db_open(&db, path, &o, &err) == JET_OK, "open %s: %s",
                  path, err.msg);
    ck_assert_int_eq(jet_db_check(db, check_reports, (void *)path, &st),
                     JET_OK);
    ck_assert_uint_eq(st.problems, 0);
    jet_db_close(db);
    return st;
}

static jet_check_stats checked(const char *path)
{
    return checked_pw(path, NULL);
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

/* A table in the new file (opened with password pw, NULL for none):
 * created, filled, committed. */
static void fill(const char *path, unsigned nrows, const char *pw)
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

    jet_open_options opts = with_pw(pw);

    memset(idx, 0, sizeof idx);
    idx[0] = (jet_idxdef){ .ncols = 1, .col = { C_ID }, .primary = true };
    idx[1] = (jet_idxdef){ .name = "Name", .ncols = 1, .col = { C_NAME },
                           .unique = true };
    ck_assert_msg(jet_db_open(&db, path, &opts, &err) == JET_OK,
                  "open: %s", err.msg);
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

/* The note of row k: "note " 1 + k % 90 times (NULL when k % 4 == 0). */
static size_t note_of(unsigned k, char *out)
{
    size_t n = 0;
    for (unsigned r = 0; r < 1 + k % 90; r++)
        n += (size_t)sprintf(out + n, "note ");
    return n;
}

/* Rows back through a new connection (password pw, NULL for none): count
 * and the values. */
static void read_back(const char *path, unsigned nrows, const char *pw)
{
    jet_db *db = NULL;
    jet_error err;
    const jet_tdef *t = NULL;
    jet_scan *sc;
    uint32_t n = 0;
    jet_rc rc;
    jet_open_options o = with_pw(pw);

    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
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
        if (!v.is_null) {
            char want[512], got[512];
            size_t len = note_of(k, want), got_len = 0;
            ck_assert_int_eq(jet_text_to_utf8(db, &v, got, sizeof got,
                                              &got_len), JET_OK);
            ck_assert(got_len == len && memcmp(got, want, len) == 0);
        }
        ck_assert_int_eq(jet_scan_value(sc, C_NAME, &v), JET_OK);
        {
            char want[32], got[64];
            size_t got_len = 0;
            snprintf(want, sizeof want, "item %06u", k);
            ck_assert_int_eq(jet_text_to_utf8(db, &v, got, sizeof got,
                                              &got_len), JET_OK);
            ck_assert(got_len == strlen(want) &&
                      memcmp(got, want, got_len) == 0);
        }
        ck_assert_int_eq(jet_scan_value(sc, C_WHEN, &v), JET_OK);
        ck_assert(v.u.d == 45000.0 + k / 48.0);
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
    fill(path, nrows, NULL);
    read_back(path, nrows, NULL);
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

/* popen(cmd) output in a malloc'd NUL-terminated buffer; *status its
 * exit status. */
static char *run_all(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0, cap = 1 << 16;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(out);
    for (;;) {
        if (cap - n < 4096) {
            out = realloc(out, cap *= 2);
            ck_assert_ptr_nonnull(out);
        }
        size_t k = fread(out + n, 1, cap - 1 - n, p);
        if (k == 0)
            break;
        n += k;
    }
    out[n] = '\0';
    *status = pclose(p);
    return out;
}

/* Whether needle (len bytes) is anywhere in hay. */
static bool has_bytes(const uint8_t *hay, size_t hay_len, const void *needle,
                      size_t len)
{
    for (size_t i = 0; i + len <= hay_len; i++)
        if (memcmp(hay + i, needle, len) == 0)
            return true;
    return false;
}

/* Neither the ASCII (compressed text) nor the UTF-16LE form of s is in
 * the raw file at path. */
static void not_in_raw_file(const char *path, const char *s)
{
    size_t len, n = strlen(s);
    uint8_t *raw = jet_test_slurp(path, &len), u16[128];
    ck_assert_ptr_nonnull(raw);
    for (size_t i = 0; i < n; i++) {
        u16[2 * i] = (uint8_t)s[i];
        u16[2 * i + 1] = 0;
    }
    ck_assert_msg(!has_bytes(raw, len, s, n), "'%s' in plain text in %s",
                  s, path);
    ck_assert_msg(!has_bytes(raw, len, u16, 2 * n),
                  "'%s' in UTF-16 in %s", s, path);
    free(raw);
}

/* jet_db_open with password pw gives rc; the file stays byte for byte. */
static void open_refused(const char *path, const char *pw, jet_rc rc)
{
    size_t n0 = 0, n1 = 0;
    uint8_t *before = jet_test_slurp(path, &n0), *after;
    jet_open_options o = with_pw(pw);
    jet_db *db = NULL;
    jet_error err;
    ck_assert_int_eq(jet_db_open(&db, path, &o, &err), rc);
    ck_assert_ptr_null(db);
    ck_assert_msg(strstr(err.msg, "password"), "%s", err.msg);
    after = jet_test_slurp(path, &n1);
    ck_assert(before && after && n0 == n1 && !memcmp(before, after, n0));
    free(before);
    free(after);
}

static unsigned enc_rows_wanted(void)
{
    const char *e = getenv("JET_NEWDB_ENC_ROWS");
    return e && atoi(e) > 0 ? (unsigned)atoi(e) : 600;
}

START_TEST(new_encrypted_database)
{
    /* 9 characters, one of them outside ASCII, a space for the shell */
    static const char pw[] = "S\xc3\xa9" "cret 42";
    char dir[256], path[512], cmd[2048], *out;
    int status;
    unsigned nrows = enc_rows_wanted();
    jet_error err;
    bool jet4 = formats[_i].ver == JET_VER_4;

    new_path(path, sizeof path, dir, sizeof dir, formats[_i].tag,
             formats[_i].ext);

    /* too long for the format: refused, nothing written */
    {
        char longpw[300];
        size_t n = jet4 ? 21 : 256;
        memset(longpw, 'x', n);
        longpw[n] = '\0';
        ck_assert_int_eq(jet_db_create_file(path, formats[_i].ver, longpw,
                                            &err), JET_ELIMIT);
        ck_assert_msg(strstr(err.msg, "characters"), "%s", err.msg);
        ck_assert(access(path, F_OK) != 0);
        longpw[n - 1] = '\0';           /* the longest taken */
        ck_assert_msg(jet_db_create_file(path, formats[_i].ver, longpw,
                                         &err) == JET_OK, "%s", err.msg);
        checked_pw(path, longpw);
        open_refused(path, "x", JET_EPASSWORD);
        jet_test_remove_db(path);
    }

    ck_assert_msg(jet_db_create_file(path, formats[_i].ver, pw, &err) ==
                  JET_OK, "create %s: %s", path, err.msg);
    /* no password, a wrong one, one differing in case: refused, the file
     * unchanged */
    open_refused(path, NULL, JET_EPASSWORD);
    open_refused(path, "wrong", JET_EPASSWORD);
    open_refused(path, "s\xc3\xa9" "cret 42", JET_EPASSWORD);
    {
        jet_db *db = NULL;
        jet_open_options o = with_pw(pw);
        ck_assert_int_eq(jet_db_open(&db, path, &o, &err), JET_OK);
        ck_assert_int_eq(jet_db_version(db), formats[_i].ver);
        ck_assert_ptr_nonnull(jet_catalog_find(db, "MSysACEs"));
        jet_db_close(db);
    }
    ck_assert_uint_eq(checked_pw(path, pw).tables, 4);
    char pwopt[64];
    snprintf(pwopt, sizeof pwopt, "--password '%s'", pw);
    jet_test_jetcheck_verify_opts(path, pwopt);

    fill(path, nrows, pw);
    read_back(path, nrows, pw);
    jet_check_stats st = checked_pw(path, pw);
    ck_assert_uint_eq(st.tables, 5);
    jet_test_jetcheck_verify_opts(path, pwopt);
    open_refused(path, "wrong", JET_EPASSWORD);

    /* every page but the header encrypted */
    not_in_raw_file(path, "Items");
    not_in_raw_file(path, "item 000123");
    not_in_raw_file(path, "MSysObjects");
    not_in_raw_file(path, "note note note");

    if (jet_test_have_jetcheck()) {
        snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump '%s' "
                 "--password '%s' 2>&1", jet_shared_dir(), path, pw);
        out = run_all(cmd, &status);
        ck_assert_msg(status == 0 && strstr(out, "\"open_error\": null") &&
                      strstr(out, formats[_i].jackcess) &&
                      strstr(out, "\"name\": \"Items\""),
                      "jetcheck dump: %.2000s", out);
        snprintf(cmd, sizeof cmd, "\"row_count\": %u,", nrows);
        ck_assert_msg(strstr(out, cmd), "no %s in the dump", cmd);
        for (unsigned k = 0; k < nrows; k++) {
            char row[640], note[512];
            snprintf(row, sizeof row, "[%u, \"item %06u\", %u, ", k + 1, k,
                     k % 101);
            ck_assert_msg(strstr(out, row), "row %u not in the dump", k);
            if (k % 4) {
                note_of(k, note);
                snprintf(row, sizeof row, "\"%s\"]", note);
                ck_assert_msg(strstr(out, row), "note %u not in the dump",
                              k);
            }
        }
        free(out);
        if (!jet4) {
            /* Jackcess refuses a wrong password (Jet4: it does not check
             * the header password) */
            snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' dump "
                     "'%s' --password wrong 2>&1", jet_shared_dir(), path);
            out = run_all(cmd, &status);
            ck_assert_msg(strstr(out, "Incorrect password"), "%.2000s",
                          out);
            free(out);
        }
    }
    if (jet4 && system("command -v mdb-export >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "mdb-export '%s' Items 2>&1 | wc -l",
                 path);
        out = run_all(cmd, &status);
        ck_assert_msg(status == 0 && (unsigned)atoi(out) >= nrows + 1,
                      "mdb-export: %s", out);
        free(out);
    }
    fprintf(stderr, "test_newdb: %s encrypted: %u rows, jet_db_check %u "
            "tables, %llu index entries, 0 problems\n", formats[_i].tag,
            nrows, st.tables, (unsigned long long)st.entries);
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
    tcase_add_loop_test(tc, new_encrypted_database, 0,
                        (int)(sizeof formats / sizeof formats[0]));
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(newdb_suite)
