/*
 * test_sql_parse.c - the SQL subset lexer/parser (driver/sql).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"
#include "unit.h"

static sql_select *ok(const char *sql)
{
    sql_select *sel = NULL;
    sql_error err;
    int rc = sql_parse(&sel, sql, strlen(sql), &err);
    ck_assert_msg(rc == 0, "'%s' failed: %s %s at %zu", sql, err.sqlstate,
                  err.msg, err.position);
    ck_assert_ptr_nonnull(sel);
    return sel;
}

/* Expect failure with sqlstate at position; returns the message. */
static void fails(const char *sql, size_t len, const char *state,
                  size_t position, const char *msg_part)
{
    sql_select *sel = (sql_select *)1;
    sql_error err;
    int rc = sql_parse(&sel, sql, len, &err);
    ck_assert_msg(rc == -1, "'%s' parsed", sql);
    ck_assert_ptr_null(sel);
    ck_assert_str_eq(err.sqlstate, state);
    if (position)
        ck_assert_msg(err.position == position, "'%s': position %zu, not %zu"
                      " (%s)", sql, err.position, position, err.msg);
    if (msg_part)
        ck_assert_msg(strstr(err.msg, msg_part) != NULL,
                      "'%s': message '%s' lacks '%s'", sql, err.msg,
                      msg_part);
}

static void fails_s(const char *sql, const char *state, size_t position,
                    const char *msg_part)
{
    fails(sql, strlen(sql), state, position, msg_part);
}

START_TEST(parse_select_star)
{
    sql_select *s = ok("SELECT * FROM Orders");
    ck_assert(!s->distinct);
    ck_assert_int_eq(s->top, -1);
    ck_assert_uint_eq(s->nitems, 1);
    ck_assert_int_eq(s->items[0].kind, SQL_ITEM_STAR);
    ck_assert_ptr_null(s->items[0].qualifier);
    ck_assert_str_eq(s->table, "Orders");
    ck_assert_uint_eq(s->table_position, 15);
    ck_assert_ptr_null(s->table_alias);
    ck_assert_ptr_null(s->table_catalog);
    ck_assert_uint_eq(s->nparams, 0);
    sql_select_free(s);
}
END_TEST

START_TEST(parse_keywords_case_insensitive_and_trailing_semicolon)
{
    sql_select *s = ok("  sElEcT dIsTiNcT tOp 5 a fRoM t ;  ");
    ck_assert(s->distinct);
    ck_assert_int_eq(s->top, 5);
    ck_assert_str_eq(s->items[0].column, "a");
    ck_assert_str_eq(s->table, "t");
    sql_select_free(s);
    s = ok("SELECT TOP 0 ALL * FROM t");
    ck_assert_int_eq(s->top, 0);
    ck_assert(!s->distinct);
    sql_select_free(s);
}
END_TEST

START_TEST(parse_all_identifier_quotes_and_escapes)
{
    sql_select *s = ok("SELECT [a]]b], \"c\"\"d\", `e``f`, [x y].[z w] "
                       "FROM [Order Details]");
    ck_assert_uint_eq(s->nitems, 4);
    ck_assert_str_eq(s->items[0].column, "a]b");
    ck_assert_str_eq(s->items[1].column, "c\"d");
    ck_assert_str_eq(s->items[2].column, "e`f");
    ck_assert_str_eq(s->items[3].qualifier, "x y");
    ck_assert_str_eq(s->items[3].column, "z w");
    ck_assert_str_eq(s->table, "Order Details");
    sql_select_free(s);
}
END_TEST

START_TEST(parse_qualified_star_columns_and_aliases)
{
    sql_select *s = ok("SELECT o.*, o.id AS [key], name n, t.x `y` "
                       "FROM Orders AS o");
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
    ck_assert_str_eq(s->table_alias, "o");
    sql_select_free(s);
    s = ok("SELECT * FROM t x");
    ck_assert_str_eq(s->table_alias, "x");
    sql_select_free(s);
}
END_TEST

START_TEST(parse_catalog_qualified_table)
{
    sql_select *s = ok("SELECT * FROM `/data/db.accdb`.Orders Orders");
    ck_assert_str_eq(s->table_catalog, "/data/db.accdb");
    ck_assert_str_eq(s->table, "Orders");
    ck_assert_str_eq(s->table_alias, "Orders");
    ck_assert_uint_eq(s->table_position, 32);
    sql_select_free(s);
}
END_TEST

START_TEST(parse_non_ascii_names)
{
    sql_select *s = ok("SELECT Größe, [Straße Nr], 名前 AS 別名 FROM Kunden_Ä");
    ck_assert_str_eq(s->items[0].column, "Größe");
    ck_assert_str_eq(s->items[1].column, "Straße Nr");
    ck_assert_str_eq(s->items[2].column, "名前");
    ck_assert_str_eq(s->items[2].alias, "別名");
    ck_assert_str_eq(s->table, "Kunden_Ä");
    /* positions count characters, not bytes */
    ck_assert_uint_eq(s->items[1].position, 15);
    sql_select_free(s);
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
    sql_select *s = ok(buf);
    ck_assert_uint_eq(s->nitems, 300);
    ck_assert_str_eq(s->items[299].column, "c299");
    ck_assert_str_eq(s->items[0].column, "c0");
    sql_select_free(s);
    free(buf);
}
END_TEST

START_TEST(parse_empty_and_blank_statements_fail)
{
    fails("", 0, "42000", 1, "empty statement");
    fails_s("   \t\n ", "42000", 7, "empty statement");
    fails_s(";", "42000", 1, "expected SELECT");
    sql_select *sel = (sql_select *)1;
    ck_assert_int_eq(sql_parse(&sel, NULL, 0, NULL), -1);
    ck_assert_ptr_null(sel);
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

START_TEST(parse_unsupported_clauses_say_what_and_where)
{
    fails_s("SELECT * FROM t WHERE a = 1", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t ORDER BY a", "HYC00", 17, "ORDER BY");
    fails_s("SELECT * FROM t GROUP BY a", "HYC00", 17, "GROUP BY");
    fails_s("SELECT * FROM t x WHERE a=0", "HYC00", 19, "WHERE");
    fails_s("SELECT * FROM a INNER JOIN b ON a.x=b.x", "HYC00", 17, "JOIN");
    fails_s("SELECT * FROM a, b", "HYC00", 16, "more than one table");
    fails_s("SELECT * FROM t UNION SELECT * FROM u", "HYC00", 17, "UNION");
    fails_s("SELECT a + 1 FROM t", "HYC00", 10, "expressions");
    fails_s("SELECT count(*) FROM t", "HYC00", 13, "functions");
    fails_s("SELECT 1 FROM t", "HYC00", 8, "expressions");
    fails_s("SELECT ? FROM t", "HYC00", 8, "parameters");
    fails_s("SELECT TOP 5 PERCENT * FROM t", "HYC00", 14, "PERCENT");
    fails_s("SELECT DISTINCTROW * FROM t", "HYC00", 8, "DISTINCTROW");
    fails_s("SELECT * FROM (SELECT * FROM t)", "HYC00", 15, "subqueries");
    fails_s("{call q}", "HYC00", 1, "escape");
    fails_s("DELETE FROM t", "HYC00", 1, "read-only");
    fails_s("select 1", "HYC00", 8, "expressions");
    fails_s("SELECT a", "HYC00", 9, "without FROM");
}
END_TEST

START_TEST(parse_syntax_errors_are_42000)
{
    fails_s("SELEC * FROM t", "42000", 1, "expected SELECT");
    fails_s("SELECT FROM t", "42000", 8, "expected a column");
    fails_s("SELECT * t", "42000", 10, "expected FROM");
    fails_s("SELECT * FROM", "42000", 14, "table name");
    fails_s("SELECT a, FROM t", "42000", 11, "expected a column");
    fails_s("SELECT a AS FROM t", "42000", 13, "alias");
    fails_s("SELECT * FROM t; SELECT 1", "42000", 18, "after end");
    fails_s("SELECT * FROM t )", "42000", 17, "after end");
    fails_s("SELECT TOP x * FROM t", "42000", 12, "whole number");
    fails_s("SELECT TOP 1.5 * FROM t", "42000", 12, "whole number");
    fails_s("SELECT TOP 99999999999999999999 * FROM t", "42000", 12,
            "too large");
    fails_s("SELECT DISTINCT DISTINCT * FROM t", "42000", 17, "twice");
    fails_s("SELECT t. FROM t", "42000", 11, "after '.'");
    fails_s("SELECT a.b.c FROM t", "HYC00", 11, "more than two parts");
    fails_s("SELECT # FROM t", "42000", 8, "unterminated");
    fails_s("SELECT $ FROM t", "42000", 8, "unexpected character");
    fails_s("SELECT * FROM t\x01", "42000", 16, "0x01");
    fails_s("SELECT 12abc FROM t", "42000", 8, "malformed number");
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
    fails(buf, n, "HYC00", 8, NULL);
    /* and unbalanced, at the end of FROM */
    n = (size_t)snprintf(buf, cap, "SELECT * FROM ");
    memset(buf + n, '(', depth);
    n += depth;
    fails(buf, n, "HYC00", 15, NULL);
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
    sql_select *s = NULL;
    sql_error err;
    ck_assert_int_eq(sql_parse(&s, buf, n, &err), 0);
    ck_assert_uint_eq(strlen(s->items[0].column), big);
    sql_select_free(s);
    /* bare, and unterminated */
    memcpy(buf, "SELECT ", 7);
    memset(buf + 7, 'y', big);
    memcpy(buf + 7 + big, " FROM t", 7);
    ck_assert_int_eq(sql_parse(&s, buf, big + 14, &err), 0);
    ck_assert_uint_eq(strlen(s->items[0].column), big);
    sql_select_free(s);
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
    sql_select *s = NULL;
    sql_error err;
    ck_assert_int_eq(sql_parse(&s, buf, n, &err), 0);
    ck_assert_uint_eq(s->nitems, count);
    ck_assert_str_eq(s->items[count - 1].column, "a]");
    sql_select_free(s);
    free(buf);
}
END_TEST

START_TEST(parse_quoted_keyword_is_a_name)
{
    sql_select *s = ok("SELECT [from], \"select\" AS [where] FROM [order]");
    ck_assert_str_eq(s->items[0].column, "from");
    ck_assert_str_eq(s->items[1].column, "select");
    ck_assert_str_eq(s->items[1].alias, "where");
    ck_assert_str_eq(s->table, "order");
    sql_select_free(s);
}
END_TEST

START_TEST(parse_length_bounds_the_text)
{
    const char *sql = "SELECT * FROM tXYZ WHERE";
    sql_select *s = NULL;
    sql_error err;
    ck_assert_int_eq(sql_parse(&s, sql, 15, &err), 0);
    ck_assert_str_eq(s->table, "t");
    sql_select_free(s);
    sql_select_free(NULL);
}
END_TEST

static int64_t top_of(const char *sql)
{
    sql_select *s = ok(sql);
    int64_t top = s->top;
    sql_select_free(s);
    return top;
}

START_TEST(parse_where_constant_conditions_fold)
{
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1=0"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1 = 0;"), 0);
    ck_assert_int_eq(top_of("SELECT TOP 5 * FROM t WHERE 1=1"), 5);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1=1"), -1);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE NOT (1 = 1)"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE NULL = NULL"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1 IS NULL"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE NULL IS NOT NULL"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE -1"), -1);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 0"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1=0 OR 2>1"), -1);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE 1<>1 AND 2>=2"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE (((1=0)))"), 0);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE -2 < -1"), -1);
    ck_assert_int_eq(top_of("SELECT * FROM t WHERE NOT 1=0 AND NOT 0"), -1);
}
END_TEST

START_TEST(parse_where_on_rows_is_unsupported_but_parsed)
{
    fails_s("SELECT * FROM t WHERE a = 1", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t WHERE a = ?", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t WHERE 1=0 AND a=1", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t WHERE a BETWEEN 1 AND 2 AND NOT b IN (1,2,3) "
            "OR c NOT LIKE 'x*' AND d IS NOT NULL AND e & 'x' = f.g "
            "AND Len(h) > 2 ^ 3 MOD 2 \\ 1 AND x XOR y AND d > #1/2/2000#",
            "HYC00", 17, "constant");
    fails_s("SELECT * FROM t WHERE count(*) > 1", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t WHERE 1=0 ORDER BY a", "HYC00", 27, "ORDER BY");
    fails_s("SELECT * FROM t WHERE a=0 ORDER BY a", "HYC00", 17, "WHERE");
    fails_s("SELECT * FROM t WHERE a IN (SELECT b FROM u)", "HYC00", 29,
            "subqueries");
    fails_s("SELECT * FROM t WHERE EXISTS (SELECT 1)", "HYC00", 23,
            "EXISTS");
    fails_s("SELECT * FROM t WHERE {fn UCASE(a)} = 'A'", "HYC00", 23,
            "escape");
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
    /* a syntax error after a row condition is reported, not HYC00 */
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
    sql_select *s = NULL;
    sql_error err;
    int rc = sql_parse(&s, buf, n, &err);
    if (want_ok) {
        ck_assert_msg(rc == 0, "depth %zu: %s", depth, err.msg);
        ck_assert_int_eq(s->top, 0);
        sql_select_free(s);
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

START_TEST(parse_long_and_or_chains_fold_without_deep_recursion)
{
    /* 150,000 ANDs (1.2 MB) once overflowed the stack in fold() */
    static const struct { const char *item, *sep; int64_t top; } c[] = {
        { "1=1", " AND ", -1 }, { "1=0", " OR ", 0 }, { "1=1", " XOR ", 0 },
    };
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *sql = chain(c[i].item, c[i].sep, 150000, &len);
        sql_select *s = NULL;
        sql_error err;
        ck_assert_msg(sql_parse(&s, sql, len, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(s->top, c[i].top);
        sql_select_free(s);
        free(sql);
    }
    /* a false operand anywhere in a long AND chain */
    size_t len;
    char *sql = chain("1=1", " AND ", 20001, &len);
    memcpy(strstr(sql, "1=1") + 8 * 10000, "1=0", 3);   /* item 10000 */
    sql_select *s = NULL;
    sql_error err;
    ck_assert_int_eq(sql_parse(&s, sql, len, &err), 0);
    ck_assert_int_eq(s->top, 0);
    sql_select_free(s);
    free(sql);
}
END_TEST

START_TEST(parse_long_arithmetic_chains_are_too_complex)
{
    size_t len;
    char *sql = chain("1", " + ", 100000, &len);
    fails(sql, len, "42000", 0, "too complex");
    free(sql);
    /* 200 operands fit (HYC00 only because this WHERE is not constant) */
    sql = chain("1", "-", 200, &len);
    fails(sql, len, "HYC00", 0, "WHERE");
    free(sql);
    sql = chain("1", " & ", 5000, &len);
    fails(sql, len, "42000", 0, "too complex");
    free(sql);
}
END_TEST

START_TEST(parse_comments_are_white_space)
{
    sql_select *s = ok("SELECT /* x */ * FROM t -- the end");
    ck_assert_str_eq(s->table, "t");
    sql_select_free(s);
    s = ok("-- a line\nSELECT a, /* b, */ c\nFROM /**/t/* * */");
    ck_assert_uint_eq(s->nitems, 2);
    ck_assert_str_eq(s->items[1].column, "c");
    sql_select_free(s);
    s = ok("SELECT * FROM t WHERE 1=0 -- 1=1\n");
    ck_assert_int_eq(s->top, 0);
    sql_select_free(s);
    /* not inside quotes */
    s = ok("SELECT [a--b], [/*] FROM t");
    ck_assert_str_eq(s->items[0].column, "a--b");
    ck_assert_str_eq(s->items[1].column, "/*");
    sql_select_free(s);
    fails_s("SELECT * FROM t /* open", "42000", 17, "unterminated");
    /* "--" before a non-space is a double minus (Access), not a comment */
    s = ok("SELECT * FROM t WHERE --1 = 2");
    ck_assert_int_eq(s->top, 0);
    sql_select_free(s);
    s = ok("SELECT * FROM t WHERE 1=0 --");
    ck_assert_int_eq(s->top, 0);
    sql_select_free(s);
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
    tcase_add_test(tc, parse_unsupported_clauses_say_what_and_where);
    tcase_add_test(tc, parse_syntax_errors_are_42000);
    tcase_add_test(tc, parse_nul_byte_inside_length_fails);
    tcase_add_test(tc, parse_invalid_utf8_fails_with_position);
    tcase_add_test(tc, parse_deep_parentheses_do_not_overflow);
    tcase_add_test(tc, parse_huge_identifiers);
    tcase_add_test(tc, parse_many_quoted_names_use_linear_memory);
    tcase_add_test(tc, parse_quoted_keyword_is_a_name);
    tcase_add_test(tc, parse_length_bounds_the_text);
    tcase_add_test(tc, parse_where_constant_conditions_fold);
    tcase_add_test(tc, parse_where_on_rows_is_unsupported_but_parsed);
    tcase_add_test(tc, parse_where_syntax_errors);
    tcase_add_test(tc, parse_where_depth_is_bounded);
    tcase_add_test(tc, parse_long_and_or_chains_fold_without_deep_recursion);
    tcase_add_test(tc, parse_long_arithmetic_chains_are_too_complex);
    tcase_add_test(tc, parse_comments_are_white_space);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(sql_parse_suite)
