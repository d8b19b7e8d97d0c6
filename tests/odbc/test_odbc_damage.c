/*
 * test_odbc_damage.c - a damaged data page through the driver manager:
 * SELECT * FROM Orders on a copy of nwind.mdb whose Orders page 525 is
 * zeros, random bytes or another table's page fails with HY000 naming
 * page 525 and the table, instead of returning fewer rows.
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

static Suite *damage_suite(void)
{
    Suite *s = suite_create("odbc_damage");
    TCase *tc = tcase_create("damage");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, damaged_orders_page_is_hy000_naming_page_525);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(damage_suite)
