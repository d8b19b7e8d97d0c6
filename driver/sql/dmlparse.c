/*
 * dmlparse.c - the parser of INSERT, UPDATE and DELETE (issue 25): each
 * becomes an sql_dml whose query part is an ordinary query block
 * (sql_internal.h sql_dml), so the engine binds and plans its WHERE,
 * joins and values as it does a SELECT's. Access's forms: INSERT INTO t
 * [(c, ..)] VALUES (e, ..) | SELECT ..; UPDATE t | a INNER JOIN b ON ..
 * SET [t.]c = e, .. [WHERE ..]; DELETE [*|t.*|t] FROM from [WHERE ..];
 * all after an optional PARAMETERS clause (saved action queries).
 */
#include "config.h"

#include "parse_int.h"
#include "sql_internal.h"

#include <stdlib.h>
#include <string.h>

#define T(p) sqlp_tok(p)

/* A select item of a DML query part: expression e. */
static int dml_item(parser *p, sql_query *q, size_t *cap, sql_expr *e)
{
    void *a = q->sel.items;
    if (sqlp_reserve(p, &a, cap, q->sel.nitems, sizeof *q->sel.items) != 0)
        return -1;
    q->sel.items = a;
    sql_select_item *it = &q->sel.items[q->sel.nitems++];
    memset(it, 0, sizeof *it);
    it->kind = SQL_ITEM_EXPR;
    it->expr = e;
    it->position = e->position;
    return 0;
}

/* A name list "(a, b, ...)" (the current token is '('). */
static int dml_name_list(parser *p, sql_dml *d)
{
    size_t cap = 0, pcap = 0;
    if (sqlp_next(p) != 0)
        return -1;
    for (;;) {
        if (!sqlp_name_here(p))
            return sqlp_syntax(p, "expected a column name");
        void *a = d->cols, *b = d->col_pos;
        if (sqlp_reserve(p, &a, &cap, d->ncols, sizeof *d->cols) != 0 ||
            sqlp_reserve(p, &b, &pcap, d->ncols, sizeof *d->col_pos) != 0)
            return -1;
        d->cols = a;
        d->col_pos = b;
        d->col_pos[d->ncols] = T(p)->position;
        d->cols[d->ncols++] = T(p)->text;
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_separator(p)) {      /* t.c: the table is the target's */
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_name(p))
                return sqlp_syntax(p, "expected a column name after '.'");
            d->col_pos[d->ncols - 1] = T(p)->position;
            d->cols[d->ncols - 1] = T(p)->text;
            if (sqlp_next(p) != 0)
                return -1;
        }
        if (T(p)->kind == TOK_RPAREN)
            return sqlp_next(p);
        if (T(p)->kind != TOK_COMMA)
            return sqlp_syntax(p, "expected ',' or ')' in the column list");
        if (sqlp_next(p) != 0)
            return -1;
    }
}

/* INSERT INTO t [(cols)] VALUES (e, ..) | INSERT INTO t [(cols)] SELECT */
static int parse_insert(parser *p, sql_dml *d, sql_query *q)
{
    if (sqlp_next(p) != 0)
        return -1;
    if (!sqlp_is_kw(p, KW_INTO))
        return sqlp_syntax(p, "expected INTO after INSERT");
    if (sqlp_next(p) != 0)
        return -1;
    if (!sqlp_name_here(p))
        return sqlp_syntax(p, "expected a table name after INSERT INTO");
    const char *catalog = NULL;
    d->table_position = T(p)->position;
    if (sqlp_table_name(p, &catalog, &d->table, &d->table_position) != 0)
        return -1;
    if (catalog)
        return sqlp_unsupported(p, "INSERT INTO another database");
    if (T(p)->kind == TOK_LPAREN) {
        /* a column list, unless it is a parenthesised SELECT */
        bool sel = false;
        if (sqlp_query_ahead(p, &sel) != 0)
            return -1;
        if (!sel && dml_name_list(p, d) != 0)
            return -1;
    }
    if (sqlp_is_word(p, "VALUES")) {
        d->values = true;
        q->no_from = true;
        q->position = T(p)->position;
        if (sqlp_next(p) != 0)
            return -1;
        if (T(p)->kind != TOK_LPAREN)
            return sqlp_syntax(p, "expected '(' after VALUES");
        if (sqlp_next(p) != 0)
            return -1;
        size_t cap = 0;
        for (;;) {
            sql_expr *e;
            if (sqlp_expr(p, &e) != 0 || dml_item(p, q, &cap, e) != 0)
                return -1;
            if (T(p)->kind == TOK_RPAREN)
                break;
            if (T(p)->kind != TOK_COMMA)
                return sqlp_syntax(p, "expected ',' or ')' in VALUES");
            if (sqlp_next(p) != 0)
                return -1;
        }
        if (sqlp_next(p) != 0)
            return -1;
        return sqlp_end(p);
    }
    if (!sqlp_is_kw(p, KW_SELECT) && T(p)->kind != TOK_LPAREN)
        return sqlp_syntax(p, "expected VALUES or SELECT");
    if (sqlp_query_body(p, q) != 0)
        return -1;
    return sqlp_end(p);
}

/* UPDATE from SET [t.]c = e, .. [WHERE w] */
static int parse_update(parser *p, sql_dml *d, sql_query *q)
{
    if (sqlp_next(p) != 0)
        return -1;
    q->position = T(p)->position;
    q->from = sql_arena_alloc(sqlp_arena(p), sizeof *q->from);
    if (!q->from)
        return sqlp_nomem(p);
    sqlp_set_query(p, q);
    if (sqlp_join_chain(p, &q->from[0]) != 0)
        return -1;
    q->nfrom = 1;
    if (!sqlp_is_word(p, "SET"))
        return sqlp_syntax(p, "expected SET");
    if (sqlp_next(p) != 0)
        return -1;
    size_t cap = 0, ccap = 0, qcap = 0, pcap = 0;
    for (;;) {
        if (!sqlp_name_here(p))
            return sqlp_syntax(p, "expected a column name after SET");
        void *a = d->cols, *b = d->col_quals, *c = d->col_pos;
        if (sqlp_reserve(p, &a, &ccap, d->ncols, sizeof *d->cols) != 0 ||
            sqlp_reserve(p, &b, &qcap, d->ncols, sizeof *d->col_quals) != 0 ||
            sqlp_reserve(p, &c, &pcap, d->ncols, sizeof *d->col_pos) != 0)
            return -1;
        d->cols = a;
        d->col_quals = b;
        d->col_pos = c;
        size_t k = d->ncols++;
        d->col_quals[k] = NULL;
        d->col_pos[k] = T(p)->position;
        d->cols[k] = T(p)->text;
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_separator(p)) {
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_name(p))
                return sqlp_syntax(p, "expected a column name after '.'");
            d->col_quals[k] = d->cols[k];
            d->col_pos[k] = T(p)->position;
            d->cols[k] = T(p)->text;
            if (sqlp_next(p) != 0)
                return -1;
        }
        if (!(T(p)->kind == TOK_OP && T(p)->len == 1 &&
              T(p)->start[0] == '='))
            return sqlp_syntax(p, "expected '=' after the column to set");
        if (sqlp_next(p) != 0)
            return -1;
        sql_expr *e;
        if (sqlp_expr(p, &e) != 0 || dml_item(p, q, &cap, e) != 0)
            return -1;
        if (T(p)->kind != TOK_COMMA)
            break;
        if (sqlp_next(p) != 0)
            return -1;
    }
    if (sqlp_is_kw(p, KW_WHERE) &&
        (sqlp_next(p) != 0 || sqlp_expr(p, &q->where) != 0))
        return -1;
    return sqlp_end(p);
}

/* DELETE [* | t.* | t.c | t [, ...]] FROM from [WHERE w]: the list only
 * names the table to delete from (Access ignores its fields); a list
 * naming two tables is noted for dml.c to refuse, as Access does. */
static int parse_delete(parser *p, sql_dml *d, sql_query *q)
{
    if (sqlp_next(p) != 0)
        return -1;
    while (!sqlp_is_kw(p, KW_FROM)) {
        if (T(p)->kind == TOK_STAR) {
            if (sqlp_next(p) != 0)
                return -1;
        } else if (sqlp_is_name(p)) {
            size_t pos = T(p)->position;
            const char *name = T(p)->text;
            if (sqlp_next(p) != 0)
                return -1;
            if (sqlp_is_separator(p)) {
                if (sqlp_next(p) != 0)
                    return -1;
                if (T(p)->kind != TOK_STAR && !sqlp_is_name(p))
                    return sqlp_syntax(p, "expected '*' or a field after "
                                       "the table to delete from");
                if (sqlp_next(p) != 0)
                    return -1;
            }
            if (!d->table) {
                d->table = name;
                d->table_position = pos;
            } else if (strcasecmp(d->table, name) && !d->other_table_position) {
                d->other_table_position = pos + 1;
            }
        } else {
            return sqlp_syntax(p, "expected FROM after DELETE");
        }
        if (T(p)->kind != TOK_COMMA)
            break;
        if (sqlp_next(p) != 0)
            return -1;
    }
    if (!sqlp_is_kw(p, KW_FROM))
        return sqlp_syntax(p, "expected FROM after DELETE");
    if (sqlp_next(p) != 0)
        return -1;
    q->position = T(p)->position;
    q->from = sql_arena_alloc(sqlp_arena(p), sizeof *q->from);
    if (!q->from)
        return sqlp_nomem(p);
    sqlp_set_query(p, q);
    if (sqlp_join_chain(p, &q->from[0]) != 0)
        return -1;
    q->nfrom = 1;
    sql_expr *zero = sqlp_new_expr(p, EXPR_NUMBER, q->position);
    if (!zero)
        return sqlp_nomem(p);
    zero->text = "0";
    size_t cap = 0;
    if (dml_item(p, q, &cap, zero) != 0)
        return -1;
    if (sqlp_is_kw(p, KW_WHERE) &&
        (sqlp_next(p) != 0 || sqlp_expr(p, &q->where) != 0))
        return -1;
    return sqlp_end(p);
}

/* Whether text is PARAMETERS ...; followed by INSERT, UPDATE or DELETE
 * (a saved action query's SQL). */
bool sql_parameters_then_dml(const char *text, size_t len)
{
    sql_arena arena = { NULL };
    sql_lexer lx;
    sql_token tok;
    sql_error lerr;
    bool yes = false;
    memset(&lerr, 0, sizeof lerr);
    sql_lexer_init(&lx, text, len, &arena, &lerr);
    while (sql_lex_next(&lx, &tok) == 0 && tok.kind != TOK_EOF) {
        if (tok.kind == TOK_SEMI) {
            if (sql_lex_next(&lx, &tok) == 0 && tok.kind == TOK_IDENT)
                yes = tok.kw == KW_INSERT || tok.kw == KW_UPDATE ||
                      tok.kw == KW_DELETE;
            break;
        }
    }
    sql_arena_free(&arena);
    return yes;
}


static int dml_body(parser *p, void *ctx)
{
    sql_dml *d = ctx;
    sql_query *q = sqlp_query(p);
    if (sqlp_next(p) != 0)
        return -1;
    if (sqlp_is_kw(p, KW_PARAMETERS) && sqlp_parameters(p, q) != 0)
        return -1;
    d->verb = T(p)->kind == TOK_IDENT ? T(p)->kw : KW_NONE;
    d->position = T(p)->position;
    switch (d->verb) {
    case KW_INSERT: return parse_insert(p, d, q);
    case KW_UPDATE: return parse_update(p, d, q);
    case KW_DELETE: return parse_delete(p, d, q);
    default: return sqlp_syntax(p, "expected INSERT, UPDATE or DELETE");
    }
}

int sql_parse_dml(sql_parsed *out, const char *text, size_t len,
                  sql_error *err)
{
    /* the sql_dml lives in the statement's arena: parse into a scratch
     * one, then copy it there */
    sql_dml d;
    memset(&d, 0, sizeof d);
    sql_query *h;
    if (sqlp_run(&h, text, len, err, dml_body, &d) != 0)
        return -1;
    sql_dml *kept = sql_arena_alloc(&h->arena, sizeof *kept);
    if (!kept) {
        sql_select_free(&h->sel);
        sql_set_nomem(err, 0);
        return -1;
    }
    *kept = d;
    kept->query = h;
    out->kind = SQL_KIND_DML;
    out->verb = d.verb;
    out->position = d.position;
    out->dml = kept;
    out->query = h;
    return 0;
}
