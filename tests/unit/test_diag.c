/*
 * test_diag.c - the one path from a failure to an SQLSTATE (driver/diag.c):
 * core failures (jet_rc, page, message) and the engine's own SQL errors
 * (sql_error) become the same records whichever layer reports them.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "unit.h"

static odbc_diag d;

static const odbc_diag_rec *only_rec(void)
{
    ck_assert_int_eq(d.count, 1);
    return &d.rec[0];
}

static sql_error core_failure(jet_rc rc, uint32_t pgno, const char *msg)
{
    sql_error e;
    memset(&e, 0, sizeof e);
    e.rc = rc;
    e.pgno = pgno;
    snprintf(e.msg, sizeof e.msg, "%s", msg);
    return e;
}

START_TEST(diag_engine_core_failure_keeps_its_page)
{
    sql_error e = core_failure(JET_ECORRUPT, 29, "var offset past row end");
    odbc_diag_clear(&d);
    ck_assert_int_eq(odbc_diag_sql(&d, &e, DIAG_CTX_OTHER), SQL_ERROR);
    ck_assert_str_eq(only_rec()->sqlstate, "HY000");
    ck_assert_str_eq(only_rec()->msg,
                     "[jetodbc]damaged file, page 29: var offset past row end");
    /* the same record as the core's own error through odbc_diag_jet */
    jet_error je = { JET_ECORRUPT, 29, "var offset past row end" };
    odbc_diag_clear(&d);
    odbc_diag_jet(&d, JET_ECORRUPT, &je, DIAG_CTX_OTHER);
    ck_assert_str_eq(only_rec()->msg,
                     "[jetodbc]damaged file, page 29: var offset past row end");
}
END_TEST

START_TEST(diag_out_of_memory_is_hy001_and_distinct)
{
    sql_error e;
    sql_set_nomem(&e, 7);
    ck_assert_int_eq(sql_error_code(&e), JET_ENOMEM);
    odbc_diag_clear(&d);
    odbc_diag_sql(&d, &e, DIAG_CTX_OTHER);
    ck_assert_str_eq(only_rec()->sqlstate, "HY001");
    ck_assert_str_eq(only_rec()->msg, "[jetodbc]out of memory");
    /* an SQL error is never taken for running out of memory */
    sql_error s;
    memset(&s, 0, sizeof s);
    snprintf(s.sqlstate, sizeof s.sqlstate, "42000");
    ck_assert_int_ne(sql_error_code(&s), JET_ENOMEM);
    ck_assert_int_lt(sql_error_code(&s), 0);
}
END_TEST

START_TEST(diag_core_codes_map_once)
{
    static const struct { jet_rc rc; odbc_diag_ctx ctx; const char *state; }
    tab[] = {
        { JET_EUNSUPPORTED, DIAG_CTX_OTHER, "HYC00" },
        { JET_EPASSWORD, DIAG_CTX_CONNECT, "28000" },
        { JET_ENOTFOUND, DIAG_CTX_TABLE, "42S02" },
        { JET_ENOTFOUND, DIAG_CTX_COLUMN, "42S22" },
        { JET_EINTERRUPTED, DIAG_CTX_OTHER, "HY008" },
        { JET_ELIMIT, DIAG_CTX_OTHER, "HY000" },
        { JET_EIO, DIAG_CTX_CONNECT, "08001" },
        { JET_EIO, DIAG_CTX_OTHER, "HY000" },
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        sql_error e = core_failure(tab[i].rc, UINT32_MAX, "x");
        odbc_diag_clear(&d);
        odbc_diag_sql(&d, &e, tab[i].ctx);
        ck_assert_msg(!strcmp(only_rec()->sqlstate, tab[i].state),
                      "rc %d: %s, want %s", (int)tab[i].rc,
                      only_rec()->sqlstate, tab[i].state);
    }
}
END_TEST

START_TEST(diag_engine_sql_error_keeps_state_and_position)
{
    sql_error e;
    memset(&e, 0, sizeof e);
    e.rc = JET_EUNSUPPORTED;        /* a cursor's return code may stay */
    snprintf(e.sqlstate, sizeof e.sqlstate, "22018");
    snprintf(e.msg, sizeof e.msg, "Data type mismatch in expression");
    e.position = 23;
    odbc_diag_clear(&d);
    odbc_diag_sql(&d, &e, DIAG_CTX_OTHER);
    ck_assert_str_eq(only_rec()->sqlstate, "22018");
    ck_assert_str_eq(only_rec()->msg, "[jetodbc]Data type mismatch in "
                     "expression (at character 23)");
    /* a message that gives its position is not given it twice */
    snprintf(e.msg, sizeof e.msg, "Overflow (at character 23)");
    odbc_diag_clear(&d);
    odbc_diag_sql(&d, &e, DIAG_CTX_OTHER);
    ck_assert_str_eq(only_rec()->msg, "[jetodbc]Overflow (at character 23)");
}
END_TEST

static Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, diag_engine_core_failure_keeps_its_page);
    tcase_add_test(tc, diag_out_of_memory_is_hy001_and_distinct);
    tcase_add_test(tc, diag_core_codes_map_once);
    tcase_add_test(tc, diag_engine_sql_error_keeps_state_and_position);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(diag_suite)
