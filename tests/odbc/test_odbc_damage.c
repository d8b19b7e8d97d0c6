/*
 * test_odbc_damage.c - a damaged data page through the driver manager:
 * SELECT * FROM Orders on a copy of nwind.mdb whose Orders page 525 is
 * zeros, random bytes or another table's page fails with HY000 naming
 * page 525 and the table, instead of returning fewer rows; a stray bit in
 * an index page's entry mask fails a seek with HY000 "damaged index".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbctest.h"
#include "../slurp.h"

#define PAGE 2048
#define ORDERS_PAGE 525

/* A copy of nwind.mdb with page ORDERS_PAGE replaced by repl; returns the
 * path (static). */
static const char *damaged_copy(const uint8_t *repl, int n)
{
    static char path[1024];
    size_t len;
    uint8_t *buf = jet_test_slurp(odbct_fixture("mdbtestdata/nwind.mdb"),
                                  &len);
    FILE *f;
    ck_assert_ptr_nonnull(buf);
    memcpy(buf + (size_t)ORDERS_PAGE * PAGE, repl, PAGE);
    snprintf(path, sizeof path, "%s/damaged%d.mdb", odbct_tmpdir(), n);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    free(buf);
    return path;
}

/* Page pgno of the plain nwind.mdb. */
static void plain_page(uint8_t *out, uint32_t pgno)
{
    FILE *f = fopen(odbct_fixture("mdbtestdata/nwind.mdb"), "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, (long)pgno * PAGE, SEEK_SET);
    ck_assert_uint_eq(fread(out, 1, PAGE, f), PAGE);
    fclose(f);
}

START_TEST(damaged_orders_page_is_hy000_naming_page_525)
{
    uint8_t page[PAGE];
    uint32_t seed = 12345;
    for (int variant = 0; variant < 3; variant++) {
        SQLHENV env;
        SQLHDBC dbc;
        SQLHSTMT st;
        SQLRETURN rc;
        int rows = 0;
        if (variant == 0) {
            memset(page, 0, sizeof page);
        } else if (variant == 1) {
            for (size_t i = 0; i < sizeof page; i++) {
                seed = seed * 1103515245u + 12345u;
                page[i] = (uint8_t)(seed >> 16);
            }
        } else {
            /* another table's data page: Customers' first one, page 8
             * of nwind.mdb's catalog order does not matter; find a data
             * page (type 0x01) whose owner differs from Orders' */
            uint32_t orders_owner;
            plain_page(page, ORDERS_PAGE);
            orders_owner = (uint32_t)page[4] | (uint32_t)page[5] << 8 |
                           (uint32_t)page[6] << 16 | (uint32_t)page[7] << 24;
            for (uint32_t p = 1;; p++) {
                plain_page(page, p);
                uint32_t owner = (uint32_t)page[4] | (uint32_t)page[5] << 8 |
                                 (uint32_t)page[6] << 16 |
                                 (uint32_t)page[7] << 24;
                if (page[0] == 0x01 && owner != orders_owner && owner > 2 &&
                    memcmp(page + 4, "LVAL", 4) != 0)
                    break;
            }
        }
        odbct_connect_path(&env, &dbc, damaged_copy(page, variant));
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
        rc = SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM Orders", SQL_NTS);
        while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(rc = SQLFetch(st)))
            rows++;
        ck_assert_msg(rc == SQL_ERROR, "variant %d: rc %d after %d rows",
                      variant, (int)rc, rows);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st), "page 525") &&
                      strstr(odbct_message(SQL_HANDLE_STMT, st), "Orders"),
                      "variant %d: %s", variant,
                      odbct_message(SQL_HANDLE_STMT, st));
        printf("variant %d: %d rows, then %s %s\n", variant, rows,
               odbct_state(SQL_HANDLE_STMT, st),
               odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        odbct_disconnect(env, dbc);
    }
}
END_TEST

/* A copy of public fixture rel with byte off set to val; the path
 * (static). */
static const char *patched_copy(const char *rel, size_t off, uint8_t val)
{
    static char path[1024];
    size_t len;
    uint8_t *buf = jet_test_slurp(odbct_fixture(rel), &len);
    FILE *f;
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_gt(len, off);
    buf[off] = val;
    snprintf(path, sizeof path, "%s/patched.mdb", odbct_tmpdir());
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
    return path;
}

/* Execute sql and fetch to the end: how many rows, and the rc that ended
 * it (SQL_NO_DATA or SQL_ERROR, whose state and message stay on st). */
static SQLRETURN run_all(SQLHSTMT st, const char *sql, int *rows)
{
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    *rows = 0;
    while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(rc = SQLFetch(st)))
        (*rows)++;
    return rc;
}

/*
 * A stray entry-mask bit on an index page (tester finding F3, one byte of
 * each reproducer): the plain file's seek finds the row the scan finds;
 * the damaged copy's seek is HY000 "damaged index ..." naming the page,
 * never the silent 0 rows it was. testRefGlobalV2000.mdb: leaf page 26
 * of index B, mask byte 429 (entry area bit 3439: one entry of zeros
 * after the last); compIndexTestV2000.mdb: node page 29 of CD_AGENTE,
 * mask byte 40 (an entry of another page's bytes after the only one,
 * steering the descent to the tail child).
 */
START_TEST(stray_index_mask_bit_is_hy000_not_fewer_rows)
{
    static const struct {
        const char *rel;
        size_t off;
        const char *seek, *scan, *page;
    } cases[] = {
        { "jackcess/V2000/testRefGlobalV2000.mdb", 26 * 4096 + 27 + 429,
          "SELECT * FROM Table1 WHERE B = 'hijklmnop'",
          "SELECT * FROM Table1 WHERE B & '' = 'hijklmnop'",
          "index page 26" },
        { "jackcess/V2000/compIndexTestV2000.mdb", 29 * 4096 + 27 + 40,
          "SELECT * FROM Table1 WHERE CD_AGENTE = 19",
          "SELECT * FROM Table1 WHERE CD_AGENTE + 0 = 19",
          "index page 29" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SQLHENV env;
        SQLHDBC dbc;
        SQLHSTMT st;
        int rows;
        /* the plain file: seek and scan agree on one row */
        odbct_connect_path(&env, &dbc, odbct_fixture(cases[i].rel));
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
        ck_assert_int_eq(run_all(st, cases[i].seek, &rows), SQL_NO_DATA);
        ck_assert_int_eq(rows, 1);
        SQLFreeStmt(st, SQL_CLOSE);
        ck_assert_int_eq(run_all(st, cases[i].scan, &rows), SQL_NO_DATA);
        ck_assert_int_eq(rows, 1);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        odbct_disconnect(env, dbc);
        /* the damaged copy: the scan still finds it, the seek fails */
        odbct_connect_path(&env, &dbc,
                           patched_copy(cases[i].rel, cases[i].off, 0x80));
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
        ck_assert_int_eq(run_all(st, cases[i].scan, &rows), SQL_NO_DATA);
        ck_assert_int_eq(rows, 1);
        SQLFreeStmt(st, SQL_CLOSE);
        ck_assert_int_eq(run_all(st, cases[i].seek, &rows), SQL_ERROR);
        ck_assert_int_eq(rows, 0);
        ck_assert_str_eq(odbct_state(SQL_HANDLE_STMT, st), "HY000");
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st),
                             "damaged index") &&
                      strstr(odbct_message(SQL_HANDLE_STMT, st),
                             cases[i].page),
                      "%s: %s", cases[i].rel,
                      odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeStmt(st, SQL_CLOSE);
        /* COUNT(*) fails when the statement opens: the same message */
        ck_assert_int_eq(SQLExecDirect(st, (SQLCHAR *)(i == 0
                         ? "SELECT COUNT(*) FROM Table1 WHERE B = 'hijklmnop'"
                         : "SELECT COUNT(*) FROM Table1 WHERE CD_AGENTE = 19"),
                         SQL_NTS), SQL_ERROR);
        ck_assert_msg(strstr(odbct_message(SQL_HANDLE_STMT, st),
                             "damaged index"), "%s: %s", cases[i].rel,
                      odbct_message(SQL_HANDLE_STMT, st));
        printf("%s: %s\n", cases[i].rel, odbct_message(SQL_HANDLE_STMT, st));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        odbct_disconnect(env, dbc);
    }
}
END_TEST

static Suite *damage_suite(void)
{
    Suite *s = suite_create("odbc_damage");
    TCase *tc = tcase_create("damage");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, damaged_orders_page_is_hy000_naming_page_525);
    tcase_add_test(tc, stray_index_mask_bit_is_hy000_not_fewer_rows);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(damage_suite)
