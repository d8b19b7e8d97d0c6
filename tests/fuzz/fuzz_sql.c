/*
 * fuzz_sql.c - the SQL lexer, parser, binder and planner, then a bounded run.
 *
 * Input: SQL text (any bytes). Each input is parsed alone
 * (sql_parse_query, and sql_parse_statement: INSERT/UPDATE/DELETE and
 * CREATE/DROP/ALTER/SELECT INTO are parsed, never run), then prepared against one fixed database and, when
 * it prepares, run: at most 300 rows, every value read and text
 * converted, the run stopped after 2,000 page reads. The database is FUZZ_SQL_DB when set (run-fuzz
 * and replay.test point it at a small file fixtures/jetgen writes), else
 * only the parser runs. Parameters get a LONG, a text, a DOUBLE and a NULL
 * value in turn, so parameter conversion is exercised too.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sql/engine.h"
#include "sql/sql_internal.h"

#define MAX_ROWS 300
#define MAX_PAGE_READS 2000
#define MAX_PARAMS 64

static jet_db *db;
static int db_tried;

static int stop_after(void *ctx)
{
    unsigned *n = ctx;
    return ++*n > MAX_PAGE_READS;
}

static void read_row(sql_cursor *c, size_t ncols)
{
    static char utf8[1 << 16];
    static uint16_t utf16[1 << 15];
    for (size_t i = 0; i < ncols; i++) {
        jet_value v;
        size_t len;
        if (sql_cursor_value(c, i, &v) != 0 || v.is_null)
            continue;
        if (v.type == JET_T_TEXT || v.type == JET_T_MEMO) {
            (void)jet_text_to_utf8(db, &v, utf8, sizeof utf8, &len);
            (void)jet_text_to_utf16(db, &v, utf16,
                                    sizeof utf16 / sizeof utf16[0], &len);
        }
    }
}

static void run(sql_stmt *st)
{
    static const uint8_t text[] = { 'a', 0, '%', 0, '1', 0 };
    size_t np = sql_stmt_nparams(st);
    if (np > MAX_PARAMS)
        return;
    jet_value params[MAX_PARAMS];
    for (size_t i = 0; i < np; i++) {
        jet_value *p = &params[i];
        memset(p, 0, sizeof *p);
        switch (i % 4) {
        case 0: p->type = JET_T_LONG; p->u.i = 1; break;
        case 1:
            p->type = JET_T_TEXT;
            p->enc = JET_ENC_UCS2;
            p->data = text;
            p->len = sizeof text;
            break;
        case 2: p->type = JET_T_DOUBLE; p->u.d = 2.5; break;
        default: p->type = JET_T_LONG; p->is_null = true; break;
        }
    }
    unsigned reads = 0;
    sql_cursor_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.max_rows = MAX_ROWS;
    opts.interrupt = stop_after;
    opts.interrupt_ctx = &reads;
    sql_cursor *c = NULL;
    sql_error err;
    if (sql_cursor_open(&c, st, np ? params : NULL, &opts, &err) != 0)
        return;
    size_t ncols = sql_stmt_ncols(st);
    for (int rows = 0; rows < MAX_ROWS && sql_cursor_next(c) == 0; rows++)
        read_row(c, ncols);
    sql_cursor_close(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!db_tried) {
        const char *path = getenv("FUZZ_SQL_DB");
        jet_error jerr;
        db_tried = 1;
        if (path && jet_db_open(&db, path, NULL, &jerr) != JET_OK)
            db = NULL;
    }
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    sql_error err;
    sql_query *q = NULL;
    if (sql_parse_query(&q, text, size, &err) == 0)
        sql_select_free(&q->sel);
    /* the statement parsers too (DML, DDL: parsed, never run here) */
    sql_parsed ps;
    if (sql_parse_statement(&ps, text, size, &err) == 0 && ps.query)
        sql_select_free(&ps.query->sel);
    sql_stmt *st = NULL;
    if (db && sql_stmt_prepare(&st, db, text, size, NULL, &err) == 0) {
        (void)sql_stmt_plan_text(st);
        run(st);
        sql_stmt_free(st);
    }
    free(text);
    return 0;
}
