/*
 * test_views.c - saved queries run as views by the query engine.
 *
 * Over Northwind (../shared; the cases pass vacuously without it): views
 * nested in views and joined to tables, the errors a user meets (a form
 * reference, a parameter query run as a table), and hostile MSysQueries
 * rows made by patching a copy of the file in /tmp: a view that reads
 * itself and a view whose table is missing. Counts come from the oracle's
 * results in ../shared/fixtures/expected-queries, not from this engine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sql/engine.h"
#include "unit.h"
#include "../shared_dir.h"

static char nwind[1024];

static bool have_nwind(void)
{
    snprintf(nwind, sizeof nwind, "%s/fixtures/public/mdbtestdata/nwind.mdb",
             jet_shared_dir());
    return access(nwind, R_OK) == 0;
}

static jet_db *open_path(const char *path)
{
    jet_db *db = NULL;
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    return db;
}

/* Rows of sql over db; -1 with *err on a prepare/open failure. */
static long count_rows(jet_db *db, const char *sql, sql_error *err)
{
    sql_stmt *st = NULL;
    sql_cursor *c = NULL;
    long n = 0;
    if (sql_stmt_prepare(&st, db, sql, strlen(sql), NULL, err) != 0)
        return -1;
    if (sql_cursor_open(&c, st, NULL, NULL, err) != 0) {
        sql_stmt_free(st);
        return -1;
    }
    int rc;
    while ((rc = sql_cursor_next(c)) == JET_OK)
        n++;
    ck_assert_int_eq(rc, JET_DONE);
    sql_cursor_close(c);
    sql_stmt_free(st);
    return n;
}

START_TEST(views_nest_and_join_with_tables)
{
    if (!have_nwind())
        return;
    jet_db *db = open_path(nwind);
    sql_error err;
    /* Sales Totals by Amount reads the view Order Subtotals */
    ck_assert_int_eq(count_rows(db, "SELECT * FROM [Sales Totals by Amount]",
                                &err), 61);
    ck_assert_int_eq(count_rows(db, "SELECT s.OrderID, o.CustomerID FROM "
                                "[Order Subtotals] AS s INNER JOIN Orders o "
                                "ON s.OrderID = o.OrderID WHERE s.Subtotal "
                                "> 2500", &err) > 0, 1);
    ck_assert_int_eq(count_rows(db, "SELECT COUNT(*) FROM [Orders Qry] q, "
                                "[Order Subtotals] s WHERE q.OrderID = "
                                "s.OrderID", &err), 1);
    jet_db_close(db);
}
END_TEST

/*
 * "Invoices Filter" declares no PARAMETERS but its WHERE reads
 * [Forms]![Orders]![OrderID], a control of an open Access form. Access
 * treats that reference as a parameter (it prompts for the value), so it
 * is a parameter query: run as a table it answers what Microsoft's Access
 * ODBC driver answers, "Too few parameters. Expected 1." (07002), naming
 * the control; {call [Invoices Filter](?)} runs it (test_odbc_catalog).
 * The oracle has no result for it (INDEX.md).
 */
START_TEST(views_that_cannot_run_say_why)
{
    if (!have_nwind())
        return;
    jet_db *db = open_path(nwind);
    sql_error err;
    ck_assert_int_eq(count_rows(db, "SELECT * FROM [Invoices Filter]", &err),
                     -1);
    ck_assert_str_eq(err.sqlstate, "07002");
    ck_assert(strstr(err.msg, "Too few parameters. Expected 1.") != NULL);
    ck_assert(strstr(err.msg, "[Forms]![Orders]![OrderID]") != NULL);
    ck_assert(strstr(err.msg, "{call [Invoices Filter](?)}") != NULL);
    ck_assert_int_eq(count_rows(db, "SELECT * FROM [Sales by Year]", &err),
                     -1);
    ck_assert_str_eq(err.sqlstate, "07002");
    ck_assert(strstr(err.msg, "{call [Sales by Year]") != NULL);
    jet_db_close(db);
}
END_TEST

/*
 * Copy nwind to a temporary file whose MSysQueries row (query qname,
 * attribute attr, Name1 old) names new instead (same length: Jet3 text
 * is one byte per character). The row is found through the core (scan
 * position) and patched inside its bounds on the page.
 */
static void patched_copy(char *path, size_t cap, const char *qname,
                         int attr, const char *old, const char *new)
{
    jet_db *db = open_path(nwind);
    const jet_object *q = jet_catalog_find_query(db, qname);
    const jet_object *mq = jet_catalog_find(db, "MSysQueries");
    const jet_tdef *td;
    jet_scan *sc;
    uint32_t pgno = 0;
    uint16_t row = 0;
    bool found = false;
    ck_assert_ptr_nonnull(q);
    ck_assert_ptr_nonnull(mq);
    ck_assert_int_eq(jet_tdef_load(&td, db, mq), JET_OK);
    int c_obj = jet_tdef_find_column(td, "ObjectId");
    int c_attr = jet_tdef_find_column(td, "Attribute");
    int c_name = jet_tdef_find_column(td, "Name1");
    ck_assert_int_eq(jet_scan_open(&sc, db, td, NULL), JET_OK);
    while (!found && jet_scan_next(sc) == JET_OK) {
        jet_value v;
        char name[64];
        size_t len = 0;
        ck_assert_int_eq(jet_scan_value(sc, (uint16_t)c_obj, &v), JET_OK);
        if (v.is_null || v.u.i != q->id)
            continue;
        ck_assert_int_eq(jet_scan_value(sc, (uint16_t)c_attr, &v), JET_OK);
        if (v.u.i != attr)
            continue;
        ck_assert_int_eq(jet_scan_value(sc, (uint16_t)c_name, &v), JET_OK);
        if (v.is_null ||
            jet_text_to_utf8(db, &v, name, sizeof name - 1, &len) != JET_OK)
            continue;
        name[len < sizeof name ? len : sizeof name - 1] = '\0';
        if (strcmp(name, old) == 0) {
            ck_assert_int_eq(jet_scan_position(sc, &pgno, &row), JET_OK);
            found = true;
        }
    }
    jet_scan_close(sc);
    ck_assert(found);
    uint32_t psize = jet_db_page_size(db);
    ck_assert_int_eq(jet_db_version(db), JET_VER_3);
    jet_db_close(db);

    FILE *in = fopen(nwind, "rb");
    snprintf(path, cap, "/tmp/jet_views_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    static unsigned char buf[4096];
    size_t got;
    uint32_t p = 0;
    size_t n = strlen(old);
    ck_assert_uint_eq(strlen(new), n);
    bool patched = false;
    while ((got = fread(buf, 1, psize, in)) > 0) {
        if (p == pgno && got == psize) {
            /* row bounds from the Jet3 row offset table at byte 10 */
            unsigned start = (buf[10 + 2 * row] | buf[11 + 2 * row] << 8) &
                             0x1FFF;
            unsigned end = row == 0 ? psize :
                           (buf[8 + 2 * row] | buf[9 + 2 * row] << 8) &
                           0x1FFF;
            for (unsigned i = start; i + n <= end && !patched; i++)
                if (memcmp(buf + i, old, n) == 0) {
                    memcpy(buf + i, new, n);
                    patched = true;
                }
        }
        ck_assert_uint_eq(fwrite(buf, 1, got, out), got);
        p++;
    }
    fclose(in);
    fclose(out);
    ck_assert(patched);
}

/* Copy nwind to a temporary file with every occurrence of the bytes old
 * replaced by new (same length; at least one). */
static void replaced_copy(char *path, size_t cap, const char *old,
                          const char *new)
{
    size_t n = strlen(old), got, hits = 0;
    ck_assert_uint_eq(strlen(new), n);
    FILE *in = fopen(nwind, "rb");
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
    long size = ftell(in);
    ck_assert_int_gt(size, 0);
    rewind(in);
    unsigned char *buf = malloc((size_t)size);
    ck_assert_ptr_nonnull(buf);
    got = fread(buf, 1, (size_t)size, in);
    ck_assert_uint_eq(got, (size_t)size);
    fclose(in);
    for (size_t i = 0; i + n <= got; i++)
        if (memcmp(buf + i, old, n) == 0) {
            memcpy(buf + i, new, n);
            hits++;
        }
    ck_assert_uint_gt(hits, 0);
    snprintf(path, cap, "/tmp/jet_views_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(fwrite(buf, 1, got, out), got);
    fclose(out);
    free(buf);
}

START_TEST(view_reading_itself_is_an_error_not_a_loop)
{
    if (!have_nwind())
        return;
    char path[64];
    /* Invoices' input table Products becomes Invoices */
    patched_copy(path, sizeof path, "Invoices", JET_QA_TABLE, "Products",
                 "Invoices");
    jet_db *db = open_path(path);
    sql_error err;
    ck_assert_int_eq(count_rows(db, "SELECT * FROM Invoices", &err), -1);
    ck_assert_str_eq(err.sqlstate, "42000");
    ck_assert(strstr(err.msg, "'Invoices' refers to itself") != NULL);
    jet_db_close(db);
    unlink(path);
}
END_TEST

START_TEST(view_missing_its_table_names_table_and_view)
{
    if (!have_nwind())
        return;
    char path[64];
    patched_copy(path, sizeof path, "Order Subtotals", JET_QA_TABLE,
                 "Order Details", "Order Detailz");
    jet_db *db = open_path(path);
    sql_error err;
    /* through another view too */
    ck_assert_int_eq(count_rows(db, "SELECT * FROM [Sales Totals by Amount]",
                                &err), -1);
    ck_assert_str_eq(err.sqlstate, "42S02");
    ck_assert(strstr(err.msg, "'Order Detailz'") != NULL);
    ck_assert(strstr(err.msg, "saved query 'Order Subtotals'") != NULL);
    jet_db_close(db);
    unlink(path);
}
END_TEST

/*
 * Errors inside a saved query, found while preparing or while running it,
 * name the saved query and point at where the statement names it: the
 * character positions of the SQL the driver rebuilt from MSysQueries mean
 * nothing to the user. Quarterly Orders' WHERE, patched to compare the
 * text ShipCity with dates, fails on its first row (22018); a view whose
 * table is missing fails to prepare through another view.
 */
START_TEST(errors_inside_views_name_them_not_rebuilt_positions)
{
    if (!have_nwind())
        return;
    char path[64];
    replaced_copy(path, sizeof path, "(((Orders.OrderDate) Between #1/1/95#",
                  "(((Orders.ShipCity ) Between #1/1/95#");
    jet_db *db = open_path(path);
    sql_error err;
    const char *sql = "SELECT COUNT(*) FROM [Quarterly Orders]";
    ck_assert_int_eq(count_rows(db, sql, &err), -1);
    ck_assert_str_eq(err.sqlstate, "22018");
    ck_assert_msg(strstr(err.msg, "saved query 'Quarterly Orders': ") ==
                  err.msg, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "at character") == NULL, "%s", err.msg);
    ck_assert_uint_eq(err.position, 22);
    /* the statement's own errors keep their positions, over a view too */
    ck_assert_int_eq(count_rows(db, "SELECT COUNT(*) FROM [Orders Qry] "
                                "WHERE City * 2 = 1", &err), -1);
    ck_assert_msg(strstr(err.msg, "saved query") == NULL, "%s %s",
                  err.sqlstate, err.msg);
    ck_assert_uint_eq(err.position, 46);     /* the * */
    jet_db_close(db);
    unlink(path);
    /* prepare time, through two views */
    patched_copy(path, sizeof path, "Order Subtotals", JET_QA_TABLE,
                 "Order Details", "Order Detailz");
    db = open_path(path);
    ck_assert_int_eq(count_rows(db, "SELECT * FROM [Sales Totals by Amount]",
                                &err), -1);
    ck_assert_msg(strstr(err.msg, "at character") == NULL, "%s", err.msg);
    ck_assert_uint_eq(err.position, 15);
    jet_db_close(db);
    unlink(path);
}
END_TEST

static Suite *views_suite(void)
{
    Suite *s = suite_create("views");
    TCase *tc = tcase_create("views");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, views_nest_and_join_with_tables);
    tcase_add_test(tc, views_that_cannot_run_say_why);
    tcase_add_test(tc, view_reading_itself_is_an_error_not_a_loop);
    tcase_add_test(tc, view_missing_its_table_names_table_and_view);
    tcase_add_test(tc, errors_inside_views_name_them_not_rebuilt_positions);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(views_suite)
