/*
 * test_sql_parse.c - the SQL lexer/parser (driver/sql) through its one
 * entry, sql_parse_query(): the tree it builds, and the SQLSTATE and
 * position of what it refuses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_internal.h"
#include "unit.h"

static sql_query *ok_len(const char *sql, size_t len)
{
    sql_query *q = NULL;
    sql_error err;
    int rc = sql_parse_query(&q, sql, len, &err);
    ck_assert_msg(rc == 0, "'%.200s' failed: %s %s at %zu", sql,
                  err.sqlstate, err.msg, err.position);
    ck_assert_ptr_nonnull(q);
    return q;
}

static sql_query *ok(const char *sql)
{
    return ok_len(sql, strlen(sql));
}

static void done(sql_query *q)
{
    sql_select_free(&q->sel);
}

/* The first FROM item of q, a table. */
static const sql_from *table_of(const sql_query *q)
{
    ck_assert_uint_ge(q->nfrom, 1);
    const sql_from *f = q->from[0];
    while (f->kind == FROM_JOIN)
        f = f->left;
    ck_assert_int_eq(f->kind, FROM_TABLE);
    return f;
}

/* Expect failure with sqlstate at position (0: any) and a message
 * holding msg_part (NULL: any). */
static void fails(const char *sql, size_t len, const char *state,
                  size_t position, const char *msg_part)
{
    sql_query *q = (sql_query *)1;
    sql_error err;
    int rc = sql_parse_query(&q, sql, len, &err);
    ck_assert_msg(rc == -1, "'%.200s' parsed", sql);
    ck_assert_ptr_null(q);
    ck_assert_msg(strcmp(err.sqlstate, state) == 0, "'%.200s': %s (%s), "
                  "not %s", sql, err.sqlstate, err.msg, state);
    if (position)
        ck_assert_msg(err.position == position, "'%.200s': position %zu, "
                      "not %zu (%s)", sql, err.position, position, err.msg);
    if (msg_part)
        ck_assert_msg(strstr(err.msg, msg_part) != NULL,
                      "'%.200s': message '%s' lacks '%s'", sql, err.msg,
                      msg_part);
}

static void fails_s(const char *sql, const char *state, size_t position,
                    const char *msg_part)
{
    fails(sql, strlen(sql), state, position, msg_part);
}

START_TEST(parse_select_star)
{
    sql_query *q = ok("SELECT * FROM Orders");
    ck_assert(!q->sel.distinct);
    ck_assert_int_eq(q->sel.top, -1);
    ck_assert_uint_eq(q->sel.nitems, 1);
    ck_assert_int_eq(q->sel.items[0].kind, SQL_ITEM_STAR);
    ck_assert_ptr_null(q->sel.items[0].qualifier);
    ck_assert_uint_eq(q->nfrom, 1);
    const sql_from *f = table_of(q);
    ck_assert_str_eq(f->table, "Orders");
    ck_assert_uint_eq(f->position, 15);
    ck_assert_ptr_null(f->alias);
    ck_assert_ptr_null(f->catalog);
    ck_assert_uint_eq(q->sel.nparams, 0);
    ck_assert_ptr_null(q->where);
    ck_assert_ptr_null(q->union_next);
    ck_assert(!q->explain && !q->no_from);
    done(q);
}
END_TEST

START_TEST(parse_keywords_case_insensitive_and_trailing_semicolon)
{
    sql_query *q = ok("  sElEcT dIsTiNcT tOp 5 a fRoM t ;  ");
    ck_assert(q->sel.distinct);
    ck_assert_int_eq(q->sel.top, 5);
    ck_assert_str_eq(q->sel.items[0].column, "a");
    ck_assert_str_eq(table_of(q)->table, "t");
    done(q);
    q = ok("SELECT TOP 0 ALL * FROM t");
    ck_assert_int_eq(q->sel.top, 0);
    ck_assert(!q->sel.distinct);
    done(q);
    q = ok("explain SELECT * FROM t");
    ck_assert(q->explain);
    done(q);
}
END_TEST

START_TEST(parse_all_identifier_quotes_and_escapes)
{
    sql_query *q = ok("SELECT [a]]b], \"c\"\"d\", `e``f`, [x y].[z w] "
                      "FROM [Order Details]");
    const sql_select *s = &q->sel;
    ck_assert_uint_eq(s->nitems, 4);
    ck_assert_str_eq(s->items[0].column, "a]b");
    /* "c""d" is text, as Access reads it, never a column */
    ck_assert_int_eq(s->items[1].kind, SQL_ITEM_EXPR);
    ck_assert_int_eq(s->items[1].expr->kind, EXPR_STRING);
    ck_assert_str_eq(s->items[1].expr->text, "c\"d");
    ck_assert_str_eq(s->items[2].column, "e`f");
    ck_assert_str_eq(s->items[3].qualifier, "x y");
    ck_assert_str_eq(s->items[3].column, "z w");
    ck_assert_str_eq(table_of(q)->table, "Order Details");
    done(q);
}
END_TEST

START_TEST(parse_qualified_star_columns_and_aliases)
{
    sql_query *q = ok("SELECT o.*, o.id AS [key], name n, t.x `y` "
                      "FROM Orders AS o");
    const sql_select *s = &q->sel;
    ck_assert_uint_eq(s->nitems, 4);
    ck_assert_int_eq(s->items[0].kind, SQL_ITEM_STAR);
    ck_assert_str_eq(s->items[0].qualifier, "o");
    ck_assert_int_eq(s->items[1].kind, SQL_ITEM_COLUMN);
    ck_assert_str_eq(s->items[1].qualifier, "o");
    ck_assert_str_eq(s->items[1].column, "id");
    ck_assert_str_eq(s->items[1].alias, "key");
    ck_assert_str_eq(s->items[2].column, "name");
    ck_assert_str_eq(s->items[2].alias, "n");
    ck_assert_str_eq(s->items[3].alias, "y");
    ck_assert_uint_eq(s->items[1].position, 13);
    ck_assert_str_eq(table_of(q)->alias, "o");
    done(q);
    q = ok("SELECT * FROM t x");
    ck_assert_str_eq(table_of(q)->alias, "x");
    done(q);
    /* LIMIT ends the FROM clause: no alias */
    q = ok("SELECT * FROM t LIMIT 3");
    ck_assert_ptr_null(table_of(q)->alias);
    ck_assert_int_eq(q->limit, 3);
    done(q);
    /* Microsoft Query's string alias after AS (not without AS, not '') */
    q = ok("SELECT Count(x) AS 'Count of x', y AS 'it''s' FROM t");
    ck_assert_str_eq(q->sel.items[0].alias, "Count of x");
    ck_assert_str_eq(q->sel.items[1].alias, "it's");
    done(q);
    fails_s("SELECT x AS '' FROM t", "42000", 0, "alias");
    fails_s("SELECT x 'y' FROM t", "42000", 0, NULL);
}
END_TEST

START_TEST(parse_catalog_qualified_table)
{
    sql_query *q = ok("SELECT * FROM `/data/db.accdb`.Orders Orders");
    const sql_from *f = table_of(q);
    ck_assert_str_eq(f->catalog, "/data/db.accdb");
    ck_assert_str_eq(f->table, "Orders");
    ck_assert_str_eq(f->alias, "Orders");
    ck_assert_uint_eq(f->position, 32);
    done(q);
    fails_s("SELECT * FROM a.b.c", "HYC00", 18, "more than two parts");
}
END_TEST

START_TEST(parse_non_ascii_names)
{
    sql_query *q = ok("SELECT Größe, [Straße Nr], 名前 AS 別名 FROM Kunden_Ä");
    const sql_select *s = &q->sel;
    ck_assert_str_eq(s->items[0].column, "Größe");
    ck_assert_str_eq(s->items[1].column, "Straße Nr");
    ck_assert_str_eq(s->items[2].column, "名前");
    ck_assert_str_eq(s->items[2].alias, "別名");
    ck_assert_str_eq(table_of(q)->table, "Kunden_Ä");
    /* positions count characters, not bytes */
    ck_assert_uint_eq(s->items[1].position, 15);
    done(q);
}
END_TEST

START_TEST(parse_many_items_grow)
{
    size_t cap = 300 * 8 + 64;
    char *buf = malloc(cap);
    size_t n = (size_t)snprintf(buf, cap, "SELECT c0");
    for (int i = 1; i < 300; i++)
        n += (size_t)snprintf(buf + n, cap - n, ",c%d", i);
    snprintf(buf + n, cap - n, " FROM t");
    sql_query *q = ok(buf);
    ck_assert_uint_eq(q->sel.nitems, 300);
    ck_assert_str_eq(q->sel.items[299].column, "c299");
    ck_assert_str_eq(q->sel.items[0].column, "c0");
    done(q);
    free(buf);
}
END_TEST

START_TEST(parse_empty_and_blank_statements_fail)
{
    fails("", 0, "42000", 1, "empty statement");
    fails_s("   \t\n ", "42000", 7, "empty statement");
    fails_s(";", "42000", 1, "expected SELECT");
    sql_query *q = (sql_query *)1;
    ck_assert_int_eq(sql_parse_query(&q, NULL, 0, NULL), -1);
    ck_assert_ptr_null(q);
    sql_error err;
    ck_assert_int_eq(sql_parse_query(&q, NULL, 5, &err), -1);
    ck_assert_str_eq(err.sqlstate, "HY009");
}
END_TEST

START_TEST(parse_unterminated_quotes_fail_at_opening)
{
    fails_s("SELECT [abc FROM t", "42000", 8, "unterminated");
    fails_s("SELECT \"abc FROM t", "42000", 8, "unterminated");
    fails_s("SELECT `abc FROM t", "42000", 8, "unterminated");
    fails_s("SELECT 'abc FROM t", "42000", 8, "unterminated");
    fails_s("SELECT [a]]", "42000", 8, "unterminated");
    fails_s("SELECT [] FROM t", "42000", 8, "empty");
}
END_TEST

/* The clauses of Access SQL land in the tree; what the driver cannot run
 * (it is read-only; PIVOT, INTO, IN <database> belong to crosstab,
 * make-table and linked queries) is HYC00 naming it, at its position. */
START_TEST(parse_clauses_build_the_tree_and_others_say_what_and_where)
{
    sql_query *q = ok("SELECT a, COUNT(*) AS n FROM t WHERE a = 1 GROUP BY a "
                      "HAVING COUNT(*) > 1 ORDER BY a DESC, 2");
    ck_assert_ptr_nonnull(q->where);
    ck_assert_int_eq(q->where->kind, EXPR_BINARY);
    ck_assert_str_eq(q->where->op, "=");
    ck_assert_uint_eq(q->ngroup, 1);
    ck_assert_ptr_nonnull(q->having);
    ck_assert_uint_eq(q->norder, 2);
    ck_assert(q->order[0].desc && !q->order[1].desc);
    ck_assert_int_eq(q->sel.items[1].expr->kind, EXPR_FUNC);
    done(q);
    q = ok("SELECT * FROM (a INNER JOIN b ON a.x = b.x) LEFT JOIN c ON "
           "b.y = c.y, d");
    ck_assert_uint_eq(q->nfrom, 2);
    ck_assert_int_eq(q->from[0]->kind, FROM_JOIN);
    ck_assert_int_eq(q->from[0]->join, 'L');
    ck_assert_int_eq(q->from[0]->left->kind, FROM_JOIN);
    ck_assert_int_eq(q->from[0]->left->join, 'I');
    ck_assert_str_eq(q->from[1]->table, "d");
    done(q);
    q = ok("SELECT * FROM t UNION ALL SELECT * FROM u UNION SELECT * FROM v");
    ck_assert_ptr_nonnull(q->union_next);
    ck_assert(q->union_next->union_all);
    ck_assert(!q->union_next->union_next->union_all);
    done(q);
    q = ok("SELECT a + 1, ? FROM t WHERE b = ?");
    ck_assert_int_eq(q->sel.items[0].kind, SQL_ITEM_EXPR);
    ck_assert_uint_eq(q->sel.nparams, 2);
    done(q);
    q = ok("SELECT TOP 5 PERCENT * FROM t");
    ck_assert(q->top_percent);
    ck_assert_int_eq(q->sel.top, 5);
    done(q);
    q = ok("SELECT DISTINCTROW * FROM t");
    ck_assert(q->distinctrow && q->sel.distinct);
    done(q);
    q = ok("SELECT * FROM (SELECT * FROM t) AS s");
    ck_assert_int_eq(q->from[0]->kind, FROM_SUBQUERY);
    ck_assert_str_eq(q->from[0]->alias, "s");
    done(q);
    q = ok("select 1");
    ck_assert(q->no_from);
    done(q);
    fails_s("{call q}", "HYC00", 1, "escape");
    fails_s("DELETE FROM t", "HYC00", 1, "read-only");
    fails_s("TRANSFORM Sum(x) SELECT a FROM t GROUP BY a PIVOT b", "HYC00",
            1, "TRANSFORM");
    /* Access's spellings: PARAMETERS (declared names first, ? after),
     * [SELECT ...]. derived tables, parenthesised UNION members, t!c */
    q = ok("PARAMETERS x Long, [y z] Text(255); SELECT x, ? FROM t");
    ck_assert_uint_eq(q->ndecl, 2);
    ck_assert_str_eq(q->decl[1].name, "y z");
    ck_assert_int_eq(q->decl[1].type, SQL_PT_TEXT);
    ck_assert_uint_eq(q->sel.nparams, 3);
    ck_assert_uint_eq(q->sel.items[1].expr->param_index, 2);
    done(q);
    q = ok("SELECT s.a FROM [SELECT a FROM t WHERE b = ?]. AS s, u");
    ck_assert_int_eq(q->from[0]->kind, FROM_SUBQUERY);
    ck_assert_str_eq(q->from[0]->alias, "s");
    ck_assert_ptr_nonnull(q->from[0]->sub->where);
    ck_assert_str_eq(q->from[1]->table, "u");
    ck_assert_uint_eq(q->sel.nparams, 1);
    done(q);
    q = ok("SELECT * FROM [SELECT a FROM t]");     /* no dot: a table */
    ck_assert_str_eq(q->from[0]->table, "SELECT a FROM t");
    done(q);
    q = ok("(SELECT a FROM t) UNION ((SELECT b FROM u)) ORDER BY 1");
    ck_assert_ptr_nonnull(q->union_next);
    ck_assert_uint_eq(q->norder, 1);
    done(q);
    q = ok("SELECT t!a, t!* FROM t WHERE t![b]!=1");
    ck_assert_str_eq(q->sel.items[0].qualifier, "t");
    ck_assert_str_eq(q->sel.items[0].column, "a");
    ck_assert_int_eq(q->sel.items[1].kind, SQL_ITEM_STAR);
    ck_assert_str_eq(q->where->op, "<>");
    done(q);
    fails_s("PARAMETERS x Long SELECT * FROM t", "42000", 19, "';'");
    fails_s("PARAMETERS x Gizmo; SELECT * FROM t", "42000", 14,
            "data type");
    fails_s("SELECT a FROM t GROUP BY a PIVOT b", "HYC00", 28, "PIVOT");
    fails_s("SELECT * FROM t WITH OWNERACCESS OPTION", "HYC00", 17,
            "OWNERACCESS");
    fails_s("(SELECT * FROM t", "42000", 17, "')'");
    fails_s("SELECT TOP 101 PERCENT * FROM t", "42000", 8, "0 to 100");
    fails_s("SELECT TOP 5 * FROM t LIMIT 3", "42000", 23, "TOP");
}
END_TEST

START_TEST(parse_syntax_errors_are_42000)
{
    fails_s("SELEC * FROM t", "42000", 1, "expected SELECT");
    fails_s("SELECT * t", "42000", 10, "after end");
    fails_s("SELECT * FROM", "42000", 14, NULL);
    fails_s("SELECT a, FROM t", "42000", 11, "expected an expression");
    fails_s("SELECT a AS FROM t", "42000", 13, "alias");
    fails_s("SELECT * FROM t; SELECT 1", "42000", 18, "after end");
    fails_s("SELECT * FROM t )", "42000", 17, "after end");
    fails_s("SELECT TOP x * FROM t", "42000", 12, "whole number");
    fails_s("SELECT TOP 1.5 * FROM t", "42000", 12, "whole number");
    fails_s("SELECT TOP 99999999999999999999 * FROM t", "42000", 12,
            "too large");
    fails_s("SELECT DISTINCT DISTINCT * FROM t", "42000", 17, "twice");
    fails_s("SELECT # FROM t", "42000", 8, "unterminated");
    fails_s("SELECT $ FROM t", "42000", 8, "unexpected character");
    fails_s("SELECT * FROM t\x01", "42000", 16, "0x01");
    fails_s("SELECT 12abc FROM t", "42000", 8, "malformed number");
    fails_s("SELECT * FROM t ORDER a", "42000", 23, "BY");
    fails_s("SELECT * FROM t UNION t", "42000", 23, "SELECT");
    fails_s("SELECT * FROM t LIMIT x", "42000", 23, "whole number");
}
END_TEST

START_TEST(parse_nul_byte_inside_length_fails)
{
    const char sql[] = "SELECT * FROM t\0WHERE";
    fails(sql, sizeof sql - 1, "42000", 16, "NUL");
    const char sql2[] = "SELECT [a\0b] FROM t";
    fails(sql2, sizeof sql2 - 1, "42000", 10, "NUL");
}
END_TEST

START_TEST(parse_invalid_utf8_fails_with_position)
{
    fails_s("SELECT * FROM \xC3", "42000", 15, "UTF-8");
    fails_s("SELECT \xC0\xAF FROM t", "42000", 8, "UTF-8");
    fails_s("SELECT é\xFF FROM t", "42000", 9, "UTF-8");
    fails_s("SELECT \xED\xA0\x80 FROM t", "42000", 8, "UTF-8");
}
END_TEST

START_TEST(parse_deep_parentheses_do_not_overflow)
{
    size_t depth = 10000;
    size_t cap = 32 + 2 * depth;
    char *buf = malloc(cap);
    size_t n = (size_t)snprintf(buf, cap, "SELECT ");
    memset(buf + n, '(', depth);
    n += depth;
    buf[n++] = 'a';
    memset(buf + n, ')', depth);
    n += depth;
    memcpy(buf + n, " FROM t", 7);
    n += 7;
    fails(buf, n, "42000", 0, "nested too deeply");
    /* and unbalanced, in FROM */
    n = (size_t)snprintf(buf, cap, "SELECT * FROM ");
    memset(buf + n, '(', depth);
    n += depth;
    fails(buf, n, "42000", 0, NULL);
    free(buf);
}
END_TEST

START_TEST(parse_huge_identifiers)
{
    size_t big = 1u << 20;      /* a 1 MiB bracketed name */
    char *buf = malloc(big + 64);
    size_t n = (size_t)snprintf(buf, big + 64, "SELECT [");
    memset(buf + n, 'x', big);
    n += big;
    memcpy(buf + n, "] FROM t", 8);
    n += 8;
    sql_query *q = ok_len(buf, n);
    ck_assert_uint_eq(strlen(q->sel.items[0].column), big);
    done(q);
    /* bare, and unterminated */
    memcpy(buf, "SELECT ", 7);
    memset(buf + 7, 'y', big);
    memcpy(buf + 7 + big, " FROM t", 7);
    q = ok_len(buf, big + 14);
    ck_assert_uint_eq(strlen(q->sel.items[0].column), big);
    done(q);
    buf[7] = '[';
    fails(buf, big + 7, "42000", 8, "unterminated");
    free(buf);
}
END_TEST

START_TEST(parse_many_quoted_names_use_linear_memory)
{
    /* 50,000 quoted items in a 300 KB statement: each token allocates its
     * own size only (a per-token copy of the rest would need ~7 GB). */
    size_t count = 50000, cap = count * 6 + 32;
    char *buf = malloc(cap);
    size_t n = (size_t)snprintf(buf, cap, "SELECT ");
    for (size_t i = 0; i < count; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s[a]]]", i ? "," : "");
    n += (size_t)snprintf(buf + n, cap - n, " FROM t");
    sql_query *q = ok_len(buf, n);
    ck_assert_uint_eq(q->sel.nitems, count);
    ck_assert_str_eq(q->sel.items[count - 1].column, "a]");
    done(q);
    free(buf);
}
END_TEST

START_TEST(parse_quoted_keyword_is_a_name)
{
    sql_query *q = ok("SELECT [from], `select` AS [where] FROM [order]");
    ck_assert_str_eq(q->sel.items[0].column, "from");
    ck_assert_str_eq(q->sel.items[1].column, "select");
    ck_assert_str_eq(q->sel.items[1].alias, "where");
    ck_assert_str_eq(table_of(q)->table, "order");
    done(q);
}
END_TEST

START_TEST(parse_length_bounds_the_text)
{
    const char *sql = "SELECT * FROM tXYZ WHERE";
    sql_query *q = ok_len(sql, 15);
    ck_assert_str_eq(table_of(q)->table, "t");
    ck_assert_ptr_null(q->where);
    done(q);
    sql_select_free(NULL);
}
END_TEST

/* The WHERE of sql, which must parse; q to free. */
static const sql_expr *where_of(const char *sql, sql_query **q)
{
    *q = ok(sql);
    ck_assert_ptr_nonnull((*q)->where);
    return (*q)->where;
}

START_TEST(parse_where_builds_the_condition_tree)
{
    sql_query *q;
    const sql_expr *w = where_of("SELECT * FROM t WHERE NOT (1 = 1)", &q);
    ck_assert_int_eq(w->kind, EXPR_UNARY);
    ck_assert_str_eq(w->op, "NOT");
    ck_assert_int_eq(w->a->kind, EXPR_BINARY);
    done(q);
    w = where_of("SELECT * FROM t WHERE a IS NOT NULL", &q);
    ck_assert_int_eq(w->kind, EXPR_IS_NULL);
    ck_assert(w->negated);
    done(q);
    w = where_of("SELECT * FROM t WHERE a NOT BETWEEN 1 AND 2", &q);
    ck_assert_int_eq(w->kind, EXPR_BETWEEN);
    ck_assert(w->negated);
    done(q);
    w = where_of("SELECT * FROM t WHERE a IN (1, 2, 3)", &q);
    ck_assert_int_eq(w->kind, EXPR_IN);
    ck_assert_uint_eq(w->nargs, 3);
    done(q);
    w = where_of("SELECT * FROM t WHERE a IN (SELECT b FROM u)", &q);
    ck_assert_int_eq(w->kind, EXPR_IN);
    ck_assert_ptr_nonnull(w->sub);
    done(q);
    w = where_of("SELECT * FROM t WHERE NOT EXISTS (SELECT 1)", &q);
    ck_assert_int_eq(w->kind, EXPR_UNARY);
    ck_assert_int_eq(w->a->kind, EXPR_EXISTS);
    ck_assert_ptr_nonnull(w->a->sub);
    done(q);
    w = where_of("SELECT * FROM t WHERE a > ALL (SELECT b FROM u)", &q);
    ck_assert_int_eq(w->kind, EXPR_QUANT);
    ck_assert_int_eq(w->quant, 'L');
    done(q);
    w = where_of("SELECT * FROM t WHERE {fn UCASE(a)} = 'A'", &q);
    ck_assert(w->a->odbc_fn);
    done(q);
    w = where_of("SELECT * FROM t WHERE d > #1/2/2000# AND e ALIKE 'x%'", &q);
    ck_assert_str_eq(w->op, "AND");
    ck_assert_int_eq(w->a->b->kind, EXPR_DATE);
    ck_assert(w->b->alike);
    done(q);
    w = where_of("SELECT * FROM t WHERE a BETWEEN 1 AND 2 AND NOT b IN "
                 "(1,2,3) OR c NOT LIKE 'x*' AND d IS NOT NULL AND e & 'x' "
                 "= f.g AND Len(h) > 2 ^ 3 MOD 2 \\ 1 AND x XOR y", &q);
    ck_assert_str_eq(w->op, "OR");
    done(q);
    w = where_of("SELECT * FROM t WHERE a = ? AND b = ?", &q);
    ck_assert_uint_eq(w->b->b->param_index, 1);
    ck_assert_uint_eq(q->sel.nparams, 2);
    done(q);
}
END_TEST

START_TEST(parse_where_syntax_errors)
{
    fails_s("SELECT * FROM t WHERE", "42000", 22, "expected an expression");
    fails_s("SELECT * FROM t WHERE a =", "42000", 26, "expected an expression");
    fails_s("SELECT * FROM t WHERE (1=0", "42000", 27, "expected ')'");
    fails_s("SELECT * FROM t WHERE a IS 5", "42000", 28, "NULL");
    fails_s("SELECT * FROM t WHERE a BETWEEN 1 OR 2", "42000", 35, "AND");
    fails_s("SELECT * FROM t WHERE a IN 1", "42000", 28, "'('");
    fails_s("SELECT * FROM t WHERE f(1,", "42000", 27, "expected an expr");
    fails_s("SELECT * FROM t WHERE a = #1/1/2000", "42000", 27,
            "unterminated");
    fails_s("SELECT * FROM t WHERE 1=0 1", "42000", 27, "after end");
    fails_s("SELECT * FROM t WHERE a NOT b", "42000", 25, "after end");
}
END_TEST

static void deep_where(const char *open, const char *inner, const char *close,
                       size_t depth, int want_ok)
{
    size_t lo = strlen(open), lc = strlen(close);
    size_t cap = 64 + depth * (lo + lc) + strlen(inner);
    char *buf = malloc(cap);
    size_t n = (size_t)snprintf(buf, cap, "SELECT * FROM t WHERE ");
    for (size_t i = 0; i < depth; i++, n += lo)
        memcpy(buf + n, open, lo);
    memcpy(buf + n, inner, strlen(inner));
    n += strlen(inner);
    for (size_t i = 0; i < depth; i++, n += lc)
        memcpy(buf + n, close, lc);
    sql_query *q = NULL;
    sql_error err;
    int rc = sql_parse_query(&q, buf, n, &err);
    if (want_ok) {
        ck_assert_msg(rc == 0, "depth %zu: %s", depth, err.msg);
        ck_assert_ptr_nonnull(q->where);
        done(q);
    } else {
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(err.sqlstate, "42000");
        ck_assert_msg(strstr(err.msg, "nested too deeply") != NULL, "%s",
                      err.msg);
    }
    free(buf);
}

START_TEST(parse_where_depth_is_bounded)
{
    deep_where("(", "1=0", ")", 150, 1);
    deep_where("(", "1=0", ")", 10000, 0);
    deep_where("(", "1=0", "", 10000, 0);       /* unbalanced too */
    deep_where("NOT ", "1=1", "", 10000, 0);
    deep_where("-", "1", "", 10000, 0);
    deep_where("f(", "1", ")", 10000, 0);
    deep_where("NOT NOT ", "1=0", "", 60, 1);
}
END_TEST

/* Query nesting is counted apart from expression depth: Access's 50
 * levels of nested queries parse, the 51st and 10,000 are 42000 naming
 * query nesting (not the expression budget). */
START_TEST(parse_query_nesting_is_access_50_levels)
{
    static const char *const open[] = {
        "a IN (SELECT a FROM t WHERE ", "EXISTS (SELECT * FROM t WHERE ",
        "a = (SELECT a FROM t WHERE ",
        "a IN (SELECT a FROM (SELECT a FROM t WHERE ",  /* 2 per level */
        "a IN ((SELECT a FROM t WHERE ",        /* parenthesised UNION */
    };
    static const char *const close[] = {
        ")", ")", ")", ") x)", ") UNION (SELECT a FROM t))"
    };
    static const size_t levels[] = { 50, 50, 50, 25, 50 };
    for (size_t i = 0; i < sizeof open / sizeof *open; i++) {
        deep_where(open[i], "1=0", close[i], levels[i], 1);
        deep_where(open[i], "1=0", close[i], levels[i] + 1, 0);
        deep_where(open[i], "1=0", close[i], 10000, 0);
        deep_where(open[i], "1=0", "", 10000, 0);       /* unbalanced */
    }
    /* and in FROM: derived tables, also inside Access 97's bracketed
     * derived table (whose text is parsed on its own) */
    static const size_t dt[] = { 50, 51, 10000 };
    char *buf = malloc(32 * 10001);
    for (int form = 0; form < 2; form++)
        for (size_t d = 0; d < 3; d++) {
            size_t depth = dt[d] - (size_t)form;        /* the bracket's */
            size_t n = (size_t)sprintf(buf, form ? "SELECT * FROM "
                                       "[SELECT * FROM " : "SELECT * FROM ");
            for (size_t i = 0; i < depth; i++)
                n += (size_t)sprintf(buf + n, "(SELECT * FROM ");
            n += (size_t)sprintf(buf + n, "t");
            for (size_t i = 0; i < depth; i++)
                n += (size_t)sprintf(buf + n, ") x%zu", i);
            if (form)
                n += (size_t)sprintf(buf + n, "]. AS b");
            sql_query *q = NULL;
            sql_error err;
            int rc = sql_parse_query(&q, buf, n, &err);
            if (d == 0) {
                ck_assert_msg(rc == 0, "form %d: %s", form, err.msg);
                done(q);
                continue;
            }
            ck_assert_int_eq(rc, -1);
            ck_assert_str_eq(err.sqlstate, "42000");
            ck_assert_msg(strstr(err.msg, "queries nested too deeply (more "
                                 "than 50 levels") != NULL, "%s", err.msg);
        }
    free(buf);
}
END_TEST

/* Telling a parenthesised UNION member from a parenthesised derived
 * table or scalar subquery looks past the member's ')': the text is
 * scanned once however deeply queries nest (a 1 MB statement of 50
 * levels is rejected without 50 scans of it), with the same answers at
 * every level. */
START_TEST(parse_lookahead_scans_once)
{
    static const char *const good[] = {
        "SELECT * FROM ((SELECT a FROM t) AS x INNER JOIN ((SELECT b FROM "
        "u) UNION (SELECT c FROM v)) AS y ON x.a = y.b)",
        "SELECT * FROM t WHERE a IN ((SELECT a FROM t WHERE b IN ((SELECT "
        "b FROM u)) ) UNION ((SELECT c FROM v WHERE c = ((SELECT 1 FROM "
        "w)))))",
        "SELECT ((SELECT 1 FROM t)) + ((SELECT 2 FROM u) UNION (SELECT 3 "
        "FROM v)) FROM w",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        sql_query *q = NULL;
        sql_error err;
        ck_assert_msg(sql_parse_query(&q, good[i], strlen(good[i]), &err) ==
                      0, "%s: %s", good[i], err.msg);
        done(q);
    }
    size_t cap = 32 * 50 + 2000064, n;
    char *buf = malloc(cap);
    n = (size_t)sprintf(buf, "SELECT * FROM ");
    for (int i = 0; i < 50; i++)
        n += (size_t)sprintf(buf + n, "((SELECT * FROM ");
    n += (size_t)sprintf(buf + n, "t ");
    while (n < 1000000)
        n += (size_t)sprintf(buf + n, "a ");
    sql_query *q = NULL;
    sql_error err;
    ck_assert_int_eq(sql_parse_query(&q, buf, n, &err), -1);
    ck_assert_str_eq(err.sqlstate, "42000");
    free(buf);
}
END_TEST

/* "SELECT * FROM t WHERE " + n copies of item joined by sep. */
static char *chain(const char *item, const char *sep, size_t n, size_t *len)
{
    size_t li = strlen(item), ls = strlen(sep);
    char *buf = malloc(64 + n * (li + ls));
    size_t k = (size_t)sprintf(buf, "SELECT * FROM t WHERE ");
    for (size_t i = 0; i < n; i++) {
        if (i) {
            memcpy(buf + k, sep, ls);
            k += ls;
        }
        memcpy(buf + k, item, li);
        k += li;
    }
    buf[k] = '\0';
    *len = k;
    return buf;
}

START_TEST(parse_long_and_or_chains_are_balanced_trees)
{
    /* 150,000 ANDs (1.2 MB): a balanced tree the planner's recursive
     * walks descend 18 levels deep, not 150,000 */
    static const char *const seps[] = { " AND ", " OR ", " XOR " };
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *sql = chain("a=1", seps[i], 150000, &len);
        sql_query *q = ok_len(sql, len);
        ck_assert_ptr_nonnull(q->where);
        ck_assert_uint_le(q->where->height, 20);
        done(q);
        free(sql);
    }
}
END_TEST

START_TEST(parse_long_arithmetic_chains_are_too_complex)
{
    size_t len;
    char *sql = chain("1", " + ", 100000, &len);
    fails(sql, len, "42000", 0, "too complex");
    free(sql);
    /* 200 operands fit */
    sql = chain("1", "-", 200, &len);
    sql_query *q = ok_len(sql, len);
    done(q);
    free(sql);
    sql = chain("1", " & ", 5000, &len);
    fails(sql, len, "42000", 0, "too complex");
    free(sql);
}
END_TEST

START_TEST(parse_comments_are_white_space)
{
    sql_query *q = ok("SELECT /* x */ * FROM t -- the end");
    ck_assert_str_eq(table_of(q)->table, "t");
    done(q);
    q = ok("-- a line\nSELECT a, /* b, */ c\nFROM /**/t/* * */");
    ck_assert_uint_eq(q->sel.nitems, 2);
    ck_assert_str_eq(q->sel.items[1].column, "c");
    done(q);
    q = ok("SELECT * FROM t WHERE 1=0 -- 1=1\n");
    ck_assert_str_eq(q->where->b->text, "0");
    done(q);
    /* not inside quotes */
    q = ok("SELECT [a--b], [/*] FROM t");
    ck_assert_str_eq(q->sel.items[0].column, "a--b");
    ck_assert_str_eq(q->sel.items[1].column, "/*");
    done(q);
    fails_s("SELECT * FROM t /* open", "42000", 17, "unterminated");
    /* "--" before a non-space is a double minus (Access), not a comment */
    q = ok("SELECT * FROM t WHERE --1 = 2");
    ck_assert_int_eq(q->where->a->kind, EXPR_UNARY);
    done(q);
    q = ok("SELECT * FROM t WHERE 1=0 --");
    ck_assert_ptr_nonnull(q->where);
    done(q);
}
END_TEST

START_TEST(parse_byte_order_mark_is_white_space)
{
    /* SQL pasted from a file that starts with a UTF-8 byte order mark */
    sql_query *q = ok("\xEF\xBB\xBFSELECT * FROM t");
    ck_assert_str_eq(table_of(q)->table, "t");
    done(q);
    /* positions count it as the first character */
    fails_s("\xEF\xBB\xBFSELECT * FROM", "42000", 15, NULL);
    fails_s("\xEF\xBB\xBF", "42000", 0, "empty");
    /* only a leading one: elsewhere it is a character of a name */
    fails_s("SELECT \xEF\xBB\xBF* FROM t", "42000", 0, NULL);
}
END_TEST

START_TEST(parse_odbc2_long_form_escapes_are_braces)
{
    /* "--(*vendor(Microsoft),product(ODBC) ... *)--" = "{...}" */
    sql_query *q = ok("SELECT --(*vendor(Microsoft),product(ODBC) fn "
                      "UCASE('ab')*)-- FROM t");
    ck_assert_int_eq(q->sel.items[0].expr->kind, EXPR_FUNC);
    ck_assert(q->sel.items[0].expr->odbc_fn);
    done(q);
    q = ok("SELECT * FROM t WHERE d = --(*VENDOR ( microsoft ) , "
           "Product(Odbc) d '2024-01-02' *)--");
    ck_assert_int_eq(q->where->b->kind, EXPR_ODBC_DATE);
    done(q);
    /* nested, and mixed with the short form */
    q = ok("SELECT --(*vendor(Microsoft),product(ODBC) fn UCASE({fn LCASE("
           "--(*vendor(Microsoft),product(ODBC) fn CHAR(65)*)--)})*)-- "
           "FROM t");
    done(q);
    q = ok("SELECT * FROM --(*vendor(Microsoft),product(ODBC) oj a LEFT "
           "OUTER JOIN b ON a.x = b.x*)--");
    ck_assert_int_eq(q->from[0]->kind, FROM_JOIN);
    done(q);
    /* "*)--" closes only an open one: COUNT(*)--1 stays a subtraction */
    q = ok("SELECT COUNT(*)--1 FROM t");
    done(q);
    /* other vendors, and escapes left open, are errors */
    fails_s("SELECT --(*vendor(Other),product(ODBC) fn UCASE('a')*)--",
            "42000", 0, NULL);
    fails_s("SELECT --(*vendor(Microsoft),product(ODBC) fn UCASE('a')",
            "42000", 0, "'}'");
    fails_s("SELECT --(*vendor(Microsoft),product(ODBC)", "42000", 0, NULL);
    fails_s("SELECT --(*vendor(Microsoft),produ", "42000", 0, NULL);
}
END_TEST

/* INSERT, UPDATE, DELETE (dmlparse.c): an sql_dml and its query part. */
static sql_parsed dml_ok(const char *sql)
{
    sql_parsed p;
    sql_error err;
    int rc = sql_parse_statement(&p, sql, strlen(sql), &err);
    ck_assert_msg(rc == 0, "%s: %s %s", sql, err.sqlstate, err.msg);
    ck_assert_int_eq(p.kind, SQL_KIND_DML);
    ck_assert_ptr_nonnull(p.dml);
    ck_assert_ptr_eq(p.dml->query, p.query);
    return p;
}

static void dml_fails(const char *sql, const char *state, const char *part)
{
    sql_parsed p;
    sql_error err;
    ck_assert_int_eq(sql_parse_statement(&p, sql, strlen(sql), &err), -1);
    ck_assert_msg(!strcmp(err.sqlstate, state), "%s: %s %s", sql,
                  err.sqlstate, err.msg);
    ck_assert_msg(strstr(err.msg, part), "%s: %s", sql, err.msg);
    ck_assert_ptr_null(p.query);
}

START_TEST(parse_dml_statements)
{
    sql_parsed p = dml_ok("INSERT INTO t (a, [b c]) VALUES (1, ?)");
    ck_assert_int_eq(p.dml->verb, KW_INSERT);
    ck_assert_str_eq(p.dml->table, "t");
    ck_assert_uint_eq(p.dml->ncols, 2);
    ck_assert_str_eq(p.dml->cols[1], "b c");
    ck_assert(p.dml->values && p.query->no_from);
    ck_assert_uint_eq(p.query->sel.nitems, 2);
    ck_assert_uint_eq(p.query->sel.nparams, 1);
    sql_select_free(&p.query->sel);

    p = dml_ok("insert into t select a, b from u where c = ?;");
    ck_assert(!p.dml->values);
    ck_assert_uint_eq(p.dml->ncols, 0);
    ck_assert_uint_eq(p.query->nfrom, 1);
    ck_assert_ptr_nonnull(p.query->where);
    sql_select_free(&p.query->sel);

    p = dml_ok("UPDATE a INNER JOIN b ON a.x = b.x SET a.y = b.y, z = 1 "
               "WHERE b.k = ?");
    ck_assert_int_eq(p.dml->verb, KW_UPDATE);
    ck_assert_ptr_null(p.dml->table);
    ck_assert_uint_eq(p.dml->ncols, 2);
    ck_assert_str_eq(p.dml->col_quals[0], "a");
    ck_assert_str_eq(p.dml->cols[0], "y");
    ck_assert_ptr_null(p.dml->col_quals[1]);
    ck_assert_int_eq(p.query->from[0]->kind, FROM_JOIN);
    ck_assert_uint_eq(p.query->sel.nitems, 2);
    ck_assert_ptr_nonnull(p.query->where);
    sql_select_free(&p.query->sel);

    p = dml_ok("DELETE t.* FROM t WHERE x = 1");
    ck_assert_str_eq(p.dml->table, "t");
    sql_select_free(&p.query->sel);
    p = dml_ok("DELETE FROM t");
    ck_assert_ptr_null(p.dml->table);
    ck_assert_ptr_null(p.query->where);
    sql_select_free(&p.query->sel);
    p = dml_ok("DELETE a.c1, a.c2 FROM a INNER JOIN b ON a.k = b.k");
    ck_assert_str_eq(p.dml->table, "a");
    sql_select_free(&p.query->sel);
    p = dml_ok("PARAMETERS x Long; DELETE * FROM t WHERE id = x");
    ck_assert_uint_eq(p.query->ndecl, 1);
    ck_assert_uint_eq(p.query->sel.nparams, 1);
    sql_select_free(&p.query->sel);

    dml_fails("INSERT t VALUES (1)", "42000", "INTO");
    dml_fails("INSERT INTO t VALUES (1", "42000", "')'");
    dml_fails("UPDATE t x = 1", "42000", "SET");
    dml_fails("DELETE FROM", "42000", "end of statement");
    dml_fails("DELETE FROM t WHERE", "42000", "end of statement");
    dml_fails("INSERT INTO t VALUES (1) x", "42000", "after end");
}
END_TEST

static Suite *sql_parse_suite(void)
{
    Suite *s = suite_create("sql_parse");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, parse_select_star);
    tcase_add_test(tc, parse_keywords_case_insensitive_and_trailing_semicolon);
    tcase_add_test(tc, parse_all_identifier_quotes_and_escapes);
    tcase_add_test(tc, parse_qualified_star_columns_and_aliases);
    tcase_add_test(tc, parse_catalog_qualified_table);
    tcase_add_test(tc, parse_non_ascii_names);
    tcase_add_test(tc, parse_many_items_grow);
    tcase_add_test(tc, parse_empty_and_blank_statements_fail);
    tcase_add_test(tc, parse_unterminated_quotes_fail_at_opening);
    tcase_add_test(tc,
        parse_clauses_build_the_tree_and_others_say_what_and_where);
    tcase_add_test(tc, parse_syntax_errors_are_42000);
    tcase_add_test(tc, parse_nul_byte_inside_length_fails);
    tcase_add_test(tc, parse_invalid_utf8_fails_with_position);
    tcase_add_test(tc, parse_deep_parentheses_do_not_overflow);
    tcase_add_test(tc, parse_huge_identifiers);
    tcase_add_test(tc, parse_many_quoted_names_use_linear_memory);
    tcase_add_test(tc, parse_quoted_keyword_is_a_name);
    tcase_add_test(tc, parse_length_bounds_the_text);
    tcase_add_test(tc, parse_where_builds_the_condition_tree);
    tcase_add_test(tc, parse_where_syntax_errors);
    tcase_add_test(tc, parse_where_depth_is_bounded);
    tcase_add_test(tc, parse_query_nesting_is_access_50_levels);
    tcase_add_test(tc, parse_lookahead_scans_once);
    tcase_add_test(tc, parse_long_and_or_chains_are_balanced_trees);
    tcase_add_test(tc, parse_long_arithmetic_chains_are_too_complex);
    tcase_add_test(tc, parse_comments_are_white_space);
    tcase_add_test(tc, parse_byte_order_mark_is_white_space);
    tcase_add_test(tc, parse_odbc2_long_form_escapes_are_braces);
    tcase_add_test(tc, parse_dml_statements);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(sql_parse_suite)
