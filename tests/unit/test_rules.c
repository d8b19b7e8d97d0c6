/*
 * test_rules.c - a table's rule properties as Access wrote them
 * (core/tableprops.c reads them from MSysObjects LvProp) and the engine's
 * judgement of a row against its validation rules (driver/sql/rules.c,
 * the row check attached with jet_db_set_row_check). nwind.mdb's rules
 * were written by Access (Jet 3 text in the file's code page), so a row
 * is judged with jet_table_row_rules, which writes nothing: the file
 * stays read-only. testV2003.mdb has defaults and AllowZeroLength No.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jet.h"
#include "write.h"
#include "sql/engine.h"
#include "sql/rules.h"
#include "sqltest.h"

static const jet_tdef *table(jet_db *db, const char *name)
{
    const jet_tdef *t = NULL;
    ck_assert_int_eq(jet_tdef_load(&t, db, jet_catalog_find(db, name)),
                     JET_OK);
    return t;
}

static int col(const jet_tdef *t, const char *name)
{
    int c = jet_tdef_find_column(t, name);
    ck_assert_msg(c >= 0, "no column %s", name);
    return c;
}

static void str_eq(const char *got, const char *want)
{
    ck_assert_msg(got && !strcmp(got, want), "'%s', expected '%s'",
                  got ? got : "(null)", want);
}

START_TEST(nwind_properties_read)
{
    jet_db *db = sqlt_open_fixture("public/mdbtestdata/nwind.mdb");
    const jet_table_props *p;
    const jet_tdef *t = table(db, "Order Details");
    ck_assert_int_eq(jet_table_props_get(db, t, &p), JET_OK);
    ck_assert(p->has_validation);
    ck_assert_ptr_null(p->validation_rule);
    const jet_column_props *up = &p->cols[col(t, "UnitPrice")];
    str_eq(up->validation_rule, ">=0");
    str_eq(up->validation_text, "You must enter a positive number.");
    str_eq(up->default_value, "0");
    str_eq(p->cols[col(t, "Quantity")].default_value, "1");
    str_eq(p->cols[col(t, "Quantity")].validation_rule, ">0");
    str_eq(p->cols[col(t, "Discount")].validation_rule, "Between 0 And 1");
    ck_assert_ptr_null(p->cols[col(t, "OrderID")].validation_rule);
    t = table(db, "Products");
    ck_assert_int_eq(jet_table_props_get(db, t, &p), JET_OK);
    str_eq(p->cols[col(t, "Discontinued")].default_value, "=No");
    t = table(db, "Employees");
    ck_assert_int_eq(jet_table_props_get(db, t, &p), JET_OK);
    str_eq(p->cols[col(t, "BirthDate")].validation_rule, "<Date()");
    str_eq(p->cols[col(t, "BirthDate")].validation_text,
           "Birth date can't be in the future.");
    jet_db_close(db);

    db = sqlt_open_fixture("public/jackcess/V2003/testV2003.mdb");
    t = table(db, "Table1");
    ck_assert_int_eq(jet_table_props_get(db, t, &p), JET_OK);
    ck_assert(!p->has_validation);
    ck_assert(p->has_no_zero_length);
    ck_assert(p->cols[col(t, "A")].no_zero_length);
    ck_assert(p->cols[col(t, "B")].no_zero_length);
    str_eq(p->cols[col(t, "C")].default_value, "0");
    str_eq(p->cols[col(t, "H")].default_value, "0");
    ck_assert_ptr_null(p->cols[col(t, "G")].default_value);
    jet_db_close(db);
}
END_TEST

/* An Order Details row: OrderID, ProductID, UnitPrice (1/10000),
 * Quantity, Discount (a Single); null_discount leaves Discount NULL. */
static void order_row(const jet_tdef *t, jet_value *v, int64_t price,
                      int64_t qty, float discount, bool null_discount)
{
    memset(v, 0, t->ncols * sizeof *v);
    for (uint16_t i = 0; i < t->ncols; i++) {
        v[i].type = t->cols[i].type;
        v[i].is_null = true;
    }
    int c = col(t, "OrderID");
    v[c].is_null = false;
    v[c].u.i = 10248;
    c = col(t, "ProductID");
    v[c].is_null = false;
    v[c].u.i = 11;
    c = col(t, "UnitPrice");
    v[c].is_null = false;
    v[c].u.money = price;
    c = col(t, "Quantity");
    v[c].is_null = false;
    v[c].u.i = qty;
    c = col(t, "Discount");
    v[c].is_null = null_discount;
    v[c].u.f = discount;
}

static void refused(jet_db *db, const jet_tdef *t, jet_value *v,
                    const char *msg)
{
    ck_assert_int_eq(jet_table_row_rules(db, t, v), JET_ECONSTRAINT);
    str_eq(jet_db_error(db)->msg, msg);
}

START_TEST(nwind_rules_judge_rows)
{
    jet_db *db = sqlt_open_fixture("public/mdbtestdata/nwind.mdb");
    const jet_tdef *t = table(db, "Order Details");
    jet_value v[16];
    ck_assert_int_le(t->ncols, 16);
    /* no evaluator attached: the rules cannot be skipped */
    order_row(t, v, 140000, 12, 0.0f, false);
    ck_assert_int_eq(jet_table_row_rules(db, t, v), JET_EUNSUPPORTED);
    ck_assert_int_eq(sql_rules_attach(db), 0);
    ck_assert(jet_db_has_row_check(db));
    ck_assert_int_eq(jet_table_row_rules(db, t, v), JET_OK);
    order_row(t, v, 140000, 0, 0.0f, false);
    refused(db, t, v, "Quantity must be greater than 0");
    order_row(t, v, 140000, 12, 1.5f, false);
    refused(db, t, v, "You must enter a value with a percent sign.");
    order_row(t, v, -10000, 12, 0.25f, false);
    refused(db, t, v, "You must enter a positive number.");
    /* Null passes: Between 0 And 1 of Null is Null */
    order_row(t, v, 0, 1, 0.0f, true);
    ck_assert_int_eq(jet_table_row_rules(db, t, v), JET_OK);

    /* <Date(): the evaluator's clock */
    t = table(db, "Employees");
    jet_value e[32];
    ck_assert_int_le(t->ncols, 32);
    memset(e, 0, sizeof e);
    for (uint16_t i = 0; i < t->ncols; i++) {
        e[i].type = t->cols[i].type;
        e[i].is_null = true;
    }
    int b = col(t, "BirthDate");
    e[b].is_null = false;
    e[b].u.d = 22000.0;             /* 1960 */
    ck_assert_int_eq(jet_table_row_rules(db, t, e), JET_OK);
    e[b].u.d = (double)(time(NULL) / 86400) + 25569.0 + 400.0;
    refused(db, t, e, "Birth date can't be in the future.");
    jet_db_close(db);
}
END_TEST

START_TEST(defaults_prepare)
{
    jet_db *db = sqlt_open_fixture("public/mdbtestdata/nwind.mdb");
    const jet_tdef *t = table(db, "Products");
    static const struct {
        const char *expr, *want;
    } cases[] = {
        { "=No", "false" }, { "Yes", "true" }, { "0", "0" },
        { "=1+1", "2" }, { "\"N/A\"", "N/A" }, { "hello", "hello" },
        { "=Len(\"abc\")", "3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sql_stmt *st = NULL;
        sql_error err;
        ck_assert_msg(sql_default_prepare(&st, db, t, 0, cases[i].expr,
                                          &err) == 0, "%s: %s",
                      cases[i].expr, err.msg);
        sql_cursor *c = NULL;
        ck_assert_int_eq(sql_cursor_open(&c, st, NULL, NULL, &err), 0);
        ck_assert_int_eq(sql_cursor_next(c), JET_OK);
        sqlt_buf o = { 0 };
        sqlt_render_row(&o, db, c, 1);
        ck_assert_msg(!strcmp(o.p, cases[i].want), "%s gives %s, not %s",
                      cases[i].expr, o.p, cases[i].want);
        free(o.p);
        sql_cursor_close(c);
        sql_stmt_free(st);
    }
    sql_stmt *st = NULL;
    sql_error err;
    ck_assert_int_ne(sql_default_prepare(&st, db, t, 0, "Nonesuch(1)",
                                         &err), 0);
    ck_assert_str_eq(err.sqlstate, "HYC00");
    ck_assert_msg(strstr(err.msg, "the DefaultValue 'Nonesuch(1)' set for "
                         "'Products.ProductID'") != NULL, "%s", err.msg);
    ck_assert_ptr_null(st);
    jet_db_close(db);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nwind_properties_read);
    tcase_add_test(tc, nwind_rules_judge_rows);
    tcase_add_test(tc, defaults_prepare);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    static const char *const needs[] = {
        "public/mdbtestdata/nwind.mdb",
        "public/jackcess/V2003/testV2003.mdb", NULL
    };
    return sqlt_run(rules_suite, needs);
}
