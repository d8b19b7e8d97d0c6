/*
 * parser.c - recursive-descent parser of Access SQL into sql_query trees:
 * statements, query blocks and FROM; their expressions are exprparse.c's
 * (sqlp_expr), and a subquery in an expression comes back here
 * (sqlp_subquery).
 *
 * Keywords are case-insensitive and reserved (a keyword used as a name
 * must be quoted). The grammar is the engine's: query blocks joined by
 * UNION [ALL], FROM lists of joins (INNER, LEFT/RIGHT [OUTER], CROSS,
 * Access's nested parentheses, {oj ...}, derived tables), WHERE, GROUP
 * BY, HAVING, DISTINCT / DISTINCTROW / TOP n [PERCENT], subqueries in
 * expressions ((SELECT ..), EXISTS, IN, ANY/SOME/ALL) and COUNT(DISTINCT
 * x); nested queries count against SQL_MAX_QUERY_DEPTH (Access's 50
 * levels), each parenthesised join one level of SQL_MAX_DEPTH. Select
 * items are expressions; ORDER BY, OFFSET n ROWS / FETCH FIRST n ROWS
 * ONLY, LIMIT n [OFFSET m], ODBC escapes {d} {t} {ts} {fn}, TRUE/FALSE,
 * ALIKE, != and an EXPLAIN prefix are accepted
 * (LIMIT/OFFSET/FETCH/EXPLAIN are words, not reserved keywords), and the
 * spellings Access writes in saved queries: table!column, Access 97's
 * derived table [SELECT ...]. AS x (the bracket's text parsed as a query
 * of its own), parenthesised UNION members, and a PARAMETERS clause
 * (declared names become parameters 0..n-1; ? markers follow). What
 * Access SQL has beyond that (INTO, PIVOT, IN <database>, WITH
 * OWNERACCESS OPTION, TRANSFORM, action queries) is HYC00 at its
 * position, so clients see why; anything else is 42000. The only
 * recursion is exprparse.c's parse_expr, counted against SQL_MAX_DEPTH,
 * and the query blocks, counted against SQL_MAX_QUERY_DEPTH, so 10,000
 * nested parentheses (or subqueries) give 42000. Tree height is capped at
 * SQL_MAX_HEIGHT for the walks that follow (plan.c, eval.c): exprparse.c
 * keeps it. query_ahead scans the text ahead once (its memo) to tell a
 * parenthesised query from a parenthesised expression or join.
 */
#include "config.h"

#include "parse_int.h"
#include "sql_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Bound on the parentheses query_ahead's memo tracks at once: deeper
 * input fails in the parse itself (SQL_MAX_DEPTH), so parentheses past
 * it are only counted. */
#define AHEAD_MAX_OPEN (SQL_MAX_DEPTH + SQL_MAX_QUERY_DEPTH + 8)

/*
 * What query_ahead learnt scanning ahead, so that no text is scanned
 * twice: each '(' it passed that a query member could open (followed by
 * '(' or SELECT), by byte offset (ascending), with whether UNION follows
 * its matching ')'. Every such '(' before `covered` is listed, unless it
 * lay deeper than AHEAD_MAX_OPEN (then it is scanned for again).
 */
struct ahead_memo {
    size_t *off;
    bool *uni;
    size_t n, cap;
    size_t covered;         /* byte offset */
    size_t open[AHEAD_MAX_OPEN];    /* scan: listed '(' still open */
    size_t open_depth[AHEAD_MAX_OPEN];
};
typedef struct ahead_memo ahead_memo;

static int parse_subquery(parser *p, struct sql_query **out);
static int parse_select_core(parser *p, sql_query *q);
static int parse_query_body(parser *p, sql_query *q);
static sql_query *new_query(parser *p);
static int query_ahead(parser *p, bool *yes);

static int next(parser *p)
{
    return sql_lex_next(&p->lx, &p->tok);
}

static int syntax(parser *p, const char *msg)
{
    const sql_token *t = &p->tok;
    if (t->kind == TOK_EOF)
        sql_set_error(p->err, "42000", t->position,
                      "%s, found end of statement", msg);
    else {
        /* quote at most 40 bytes of the token, cut at a character start */
        size_t n = t->len;
        if (n > 40) {
            n = 40;
            while (n > 0 && ((unsigned char)t->start[n] & 0xC0) == 0x80)
                n--;
        }
        sql_set_error(p->err, "42000", t->position, "%s, found '%.*s'", msg,
                      (int)n, t->start);
    }
    return -1;
}

static int unsupported(parser *p, const char *what)
{
    sql_set_error(p->err, "HYC00", p->tok.position, "not supported yet: %s",
                  what);
    return -1;
}

static int nomem(parser *p)
{
    sql_set_nomem(p->err, p->tok.position);
    return -1;
}

/* Room for element n of the arena array *arr (elem bytes each, *cap of
 * them allocated): when full, a copy twice as large (4 at first); the
 * old block stays in the arena until the statement is freed. 0, or -1
 * with HY001 set. */
static int arena_reserve(parser *p, void **arr, size_t *cap, size_t n,
                         size_t elem)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? 2 * *cap : 4;
    if (ncap > SIZE_MAX / elem)
        return nomem(p);
    void *g = sql_arena_alloc(p->arena, ncap * elem);
    if (!g)
        return nomem(p);
    if (*cap)
        memcpy(g, *arr, *cap * elem);
    *arr = g;
    *cap = ncap;
    return 0;
}

static bool is_kw(const parser *p, sql_kw kw)
{
    return p->tok.kind == TOK_IDENT && p->tok.kw == kw;
}

/* A bare non-keyword word spelled w (ASCII, case-insensitively). */
static bool is_word(const parser *p, const char *w)
{
    if (p->tok.kind != TOK_IDENT || p->tok.kw != KW_NONE)
        return false;
    size_t n = strlen(w);
    if (p->tok.len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p->tok.start[i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != w[i])
            return false;
    }
    return true;
}

/* Words that end a FROM clause in the engine's grammar (so never an
 * implicit table alias). */
static bool is_clause_word(const parser *p)
{
    return is_word(p, "LIMIT") || is_word(p, "OFFSET") ||
           is_word(p, "FETCH") || is_word(p, "SET");
}

/* A token usable as a name: quoted, or a bare word that is no keyword. */
static bool is_name(const parser *p)
{
    return p->tok.kind == TOK_QIDENT ||
           (p->tok.kind == TOK_IDENT && p->tok.kw == KW_NONE);
}

/* is_name() where only a name can stand (a table in FROM, INSERT INTO,
 * a column to set): there a "double-quoted" word is that name, as
 * generic clients quote names the ANSI way (RODBC's sqlFetch sends
 * SELECT * FROM "Employees"); everywhere else "..." stays text. */
static bool name_here(parser *p)
{
    if (p->tok.kind == TOK_STRING && p->tok.start && p->tok.start[0] == '"') {
        p->tok.kind = TOK_QIDENT;
        p->tok.quote = '"';
    }
    return is_name(p);
}

/* The current token as a clause we know but do not run yet; 0 if it is
 * none of them (the caller then reports a syntax error). */
static int reject_clause(parser *p)
{
    if (p->tok.kind == TOK_IDENT) {
        switch (p->tok.kw) {
        case KW_WHERE: return unsupported(p, "WHERE");
        case KW_ORDER: return unsupported(p, "ORDER BY");
        case KW_GROUP: return unsupported(p, "GROUP BY");
        case KW_HAVING: return unsupported(p, "HAVING");
        case KW_JOIN: case KW_INNER: case KW_LEFT: case KW_RIGHT:
        case KW_FULL: case KW_CROSS:
            return unsupported(p, "JOIN");
        case KW_UNION: return unsupported(p, "UNION");
        case KW_INTO: return unsupported(p, "SELECT INTO");
        case KW_IN: return unsupported(p, "IN <external database>");
        case KW_PIVOT: return unsupported(p, "PIVOT");
        case KW_WITH: return unsupported(p, "WITH OWNERACCESS OPTION");
        default: break;
        }
    }
    return 0;
}

/* The table-column separator at the current token: '.' or Access's
 * bang, Orders!OrderID (a lone '!': "!=" lexes as one operator). */
static bool is_separator(const parser *p)
{
    return p->tok.kind == TOK_DOT ||
           (p->tok.kind == TOK_OP && p->tok.len == 1 &&
            p->tok.start[0] == '!');
}

/* The current name token's text (already unquoted by the lexer). */
static const char *take_name(parser *p)
{
    return p->tok.text;
}

/* [[AS] alias]: *out = alias or NULL. After AS the alias may also be a
 * string, as Microsoft Query writes it (`Count(x) AS 'Count of x'`). */
static int parse_alias(parser *p, const char **out)
{
    *out = NULL;
    if (is_kw(p, KW_AS)) {
        if (next(p) != 0)
            return -1;
        if (!is_name(p) &&
            !(p->tok.kind == TOK_STRING && p->tok.text && *p->tok.text))
            return syntax(p, "expected an alias after AS");
    } else if (!is_name(p) || is_clause_word(p)) {
        return 0;
    }
    *out = take_name(p);
    return next(p);
}

/* A select item: *, name.*, or an expression [[AS] alias]. */
static int parse_item(parser *p, sql_select_item *it)
{
    memset(it, 0, sizeof *it);
    it->position = p->tok.position;
    if (p->tok.kind == TOK_STAR) {
        it->kind = SQL_ITEM_STAR;
        return next(p);
    }
    if (is_name(p)) {
        /* name.* needs two tokens of lookahead: try, else rewind */
        sql_lexer save_lx = p->lx;
        sql_token save_tok = p->tok;
        const char *first = take_name(p);
        if (next(p) != 0)
            return -1;
        if (is_separator(p)) {
            if (next(p) != 0)
                return -1;
            if (p->tok.kind == TOK_STAR) {
                it->kind = SQL_ITEM_STAR;
                it->qualifier = first;
                return next(p);
            }
        }
        p->lx = save_lx;
        p->tok = save_tok;
    }
    sql_expr *e;
    if (sqlp_expr(p, &e) != 0)
        return -1;
    it->expr = e;
    if (e->kind == EXPR_COLUMN) {
        it->kind = SQL_ITEM_COLUMN;
        it->qualifier = e->qualifier;
        it->column = e->text;
    } else {
        it->kind = SQL_ITEM_EXPR;
    }
    return parse_alias(p, &it->alias);
}

static int parse_select_list(parser *p, sql_select *sel)
{
    size_t cap = 0;
    for (;;) {
        void *a = sel->items;
        if (arena_reserve(p, &a, &cap, sel->nitems, sizeof *sel->items) != 0)
            return -1;
        sel->items = a;
        if (parse_item(p, &sel->items[sel->nitems]) != 0)
            return -1;
        sel->nitems++;
        if (p->tok.kind != TOK_COMMA)
            return 0;
        if (next(p) != 0)
            return -1;
    }
}

/* ALL | DISTINCT | TOP n, in any order, each at most once. */
static int parse_quantifiers(parser *p, sql_select *sel)
{
    bool seen_set = false, seen_top = false;
    for (;;) {
        if (is_kw(p, KW_ALL) || is_kw(p, KW_DISTINCT)) {
            if (seen_set)
                return syntax(p, "ALL/DISTINCT given twice");
            seen_set = true;
            sel->distinct = is_kw(p, KW_DISTINCT);
        } else if (is_kw(p, KW_DISTINCTROW)) {
            if (seen_set)
                return syntax(p, "ALL/DISTINCT given twice");
            seen_set = true;
            sel->distinct = true;
            p->q->distinctrow = true;
        } else if (is_kw(p, KW_TOP)) {
            if (seen_top)
                return syntax(p, "TOP given twice");
            seen_top = true;
            p->q->top_position = p->tok.position;
            if (next(p) != 0)
                return -1;
            if (p->tok.kind == TOK_PARAM)
                return unsupported(p, "parameters");
            if (p->tok.kind != TOK_NUMBER)
                return syntax(p, "expected a whole number after TOP");
            int64_t n = 0;
            for (size_t i = 0; i < p->tok.len; i++) {
                char c = p->tok.start[i];
                if (c < '0' || c > '9')
                    return syntax(p, "expected a whole number after TOP");
                if (n > (INT64_MAX - (c - '0')) / 10) {
                    sql_set_error(p->err, "42000", p->tok.position,
                                  "TOP value too large");
                    return -1;
                }
                n = n * 10 + (c - '0');
            }
            sel->top = n;
            if (next(p) != 0)
                return -1;
            if (is_kw(p, KW_PERCENT)) {
                if (n > 100) {
                    sql_set_error(p->err, "42000", p->q->top_position,
                                  "TOP n PERCENT needs n from 0 to 100");
                    return -1;
                }
                p->q->top_percent = true;
                if (next(p) != 0)
                    return -1;
            }
            continue;
        } else {
            return 0;
        }
        if (next(p) != 0)
            return -1;
    }
}

/*
 * The table name at the current (name) token, or `catalog`.table: *table
 * and, for two parts, *catalog (else left as it is) and *position (the
 * second part's). Three parts are HYC00. Leaves the token after it.
 */
static int parse_table_name(parser *p, const char **catalog,
                            const char **table, size_t *position)
{
    *table = take_name(p);
    if (next(p) != 0)
        return -1;
    if (p->tok.kind != TOK_DOT)
        return 0;
    if (next(p) != 0)
        return -1;
    if (!is_name(p))
        return syntax(p, "expected a table name after '.'");
    *catalog = *table;
    *position = p->tok.position;
    *table = take_name(p);
    if (next(p) != 0)
        return -1;
    if (p->tok.kind == TOK_DOT)
        return unsupported(p, "names with more than two parts");
    return 0;
}


/* ------------------------------------------------- FROM (engine) */

/*
 * Access's IN clause after a FROM table (before or after its alias): the
 * table is in another database, IN 'path', IN '' [MS Access;PWD=x;
 * DATABASE=path] or IN 'path' [MS Access;PWD=x]: f->catalog becomes the
 * path, or the bracketed connect string with DATABASE=path added, as
 * [;DATABASE=path].table gives it (bind.c opens it). No IN: nothing.
 */
static int parse_in_database(parser *p, sql_from *f)
{
    if (!is_kw(p, KW_IN))
        return 0;
    size_t pos = p->tok.position;
    if (next(p) != 0)
        return -1;
    if (p->tok.kind != TOK_STRING)
        return syntax(p, "expected the external database's path after IN");
    const char *path = p->tok.text;
    if (next(p) != 0)
        return -1;
    const char *connect = NULL;
    if (p->tok.kind == TOK_QIDENT && p->tok.quote == '[' &&
        strchr(p->tok.text, ';')) {
        connect = p->tok.text;
        if (next(p) != 0)
            return -1;
    }
    if (f->catalog)
        return syntax(p, "a table named with its database takes no IN");
    if (!*path && !connect)
        return syntax(p, "IN names no database");
    if (connect && *path) {
        size_t n = strlen(connect) + strlen(path) + 16;
        char *c = sql_arena_alloc(p->arena, n);
        if (!c)
            return nomem(p);
        snprintf(c, n, "%s;DATABASE=%s", connect, path);
        connect = c;
    }
    f->catalog = connect ? connect : path;
    f->in_database = true;
    f->position = pos;
    return 0;
}

static int parse_join_chain(parser *p, sql_from **out);

static sql_from *new_from(parser *p, sql_from_kind kind, size_t position)
{
    sql_from *f = sql_arena_alloc(p->arena, sizeof *f);
    if (f) {
        f->kind = kind;
        f->position = position;
    }
    return f;
}

/* Enter one more nested query block (subquery, derived table) at pos:
 * 42000 naming Access's limit past SQL_MAX_QUERY_DEPTH. */
static int enter_query(parser *p, size_t pos)
{
    if (p->qdepth >= SQL_MAX_QUERY_DEPTH) {
        sql_set_error(p->err, "42000", pos, "queries nested too deeply "
                      "(more than %d levels of subqueries or derived "
                      "tables)", SQL_MAX_QUERY_DEPTH);
        return -1;
    }
    p->qdepth++;
    return 0;
}

/* Whether the current token is Access 97's derived table: the query's
 * text in brackets, [SELECT ...]. AS alias. */
static bool is_bracket_query(const parser *p)
{
    if (p->tok.kind != TOK_QIDENT || p->tok.quote != '[')
        return false;
    const char *t = p->tok.text;
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n' || *t == '(')
        t++;
    return !strncasecmp(t, "SELECT", 6) &&
           (t[6] == ' ' || t[6] == '\t' || t[6] == '\r' || t[6] == '\n' ||
            t[6] == '*' || t[6] == '[');
}

/* [SELECT ...]. [AS] alias: the bracket's text parsed as a query of its
 * own (positions continue from the bracket; ? markers in it count in
 * order), then the dot Access writes, then the alias. */
static int parse_bracket_query(parser *p, sql_from **out)
{
    size_t pos = p->tok.position;
    if (p->qdepth >= SQL_MAX_QUERY_DEPTH)
        return enter_query(p, pos);     /* the 42000 */
    if (++p->ntables > SQL_MAX_TABLES) {
        sql_set_error(p->err, "42000", pos, "too many tables in one "
                      "statement (more than %d)", SQL_MAX_TABLES);
        return -1;
    }
    parser in;
    memset(&in, 0, sizeof in);
    in.arena = p->arena;
    in.err = p->err;
    in.depth = p->depth;
    in.qdepth = p->qdepth + 1;
    in.ntables = p->ntables;
    in.ndecl = p->ndecl;
    in.decl = p->decl;
    in.q = p->q;
    in.memo = NULL;             /* another text: scanned without a memo */
    const char *text = p->tok.text;
    sql_lexer_init(&in.lx, text, strlen(text), p->arena, p->err);
    in.lx.position = pos + 1;
    in.lx.nparams = p->lx.nparams;
    sql_from *f = new_from(p, FROM_SUBQUERY, pos);
    if (!f)
        return nomem(p);
    if (next(&in) != 0)
        return -1;
    if (!(f->sub = new_query(&in)))
        return nomem(p);
    if (parse_query_body(&in, f->sub) != 0)
        return -1;
    if (in.tok.kind != TOK_EOF)
        return syntax(&in, "expected the end of the bracketed subquery");
    p->ntables = in.ntables;
    p->lx.nparams = in.lx.nparams;
    if (next(p) != 0)
        return -1;
    if (p->tok.kind != TOK_DOT)
        return syntax(p, "expected '.' after the bracketed subquery "
                      "([SELECT ...]. AS alias)");
    if (next(p) != 0)
        return -1;
    if (parse_alias(p, &f->alias) != 0)
        return -1;
    *out = f;
    return 0;
}

/* A table, (SELECT ...) alias, ( join ) or {oj join}. */
static int parse_from_primary(parser *p, sql_from **out)
{
    size_t pos = p->tok.position;
    if (p->depth >= SQL_MAX_DEPTH) {
        sql_set_error(p->err, "42000", pos, "FROM clause nested too deeply");
        return -1;
    }
    if (p->tok.kind == TOK_LBRACE) {
        if (next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_IDENT || strcasecmp(p->tok.text, "oj"))
            return syntax(p, "expected oj after '{' in FROM");
        if (next(p) != 0)
            return -1;
        p->depth++;
        int rc = parse_join_chain(p, out);
        p->depth--;
        if (rc != 0)
            return -1;
        if (p->tok.kind != TOK_RBRACE)
            return syntax(p, "expected '}' after the outer join");
        return next(p);
    }
    if (p->tok.kind == TOK_LPAREN) {
        bool sel = false;
        if (query_ahead(p, &sel) != 0)
            return -1;
        if (sel) {
            if (++p->ntables > SQL_MAX_TABLES) {
                sql_set_error(p->err, "42000", pos, "too many tables in one "
                              "statement (more than %d)", SQL_MAX_TABLES);
                return -1;
            }
            sql_from *f = new_from(p, FROM_SUBQUERY, pos);
            if (!f)
                return nomem(p);
            if (parse_subquery(p, &f->sub) != 0)
                return -1;
            if (parse_alias(p, &f->alias) != 0)
                return -1;
            *out = f;
            return 0;
        }
        if (next(p) != 0)
            return -1;
        p->depth++;
        int rc = parse_join_chain(p, out);
        p->depth--;
        if (rc != 0)
            return -1;
        if (p->tok.kind != TOK_RPAREN)
            return syntax(p, "expected ')' in FROM");
        return next(p);
    }
    if (is_kw(p, KW_SELECT))
        return syntax(p, "a subquery in FROM needs parentheses");
    if (is_bracket_query(p)) {
        /* only when a dot follows: [SELECT x] alone names a table */
        sql_lexer save_lx = p->lx;
        sql_token save_tok = p->tok;
        if (next(p) != 0)
            return -1;
        bool dot = p->tok.kind == TOK_DOT;
        p->lx = save_lx;
        p->tok = save_tok;
        if (dot)
            return parse_bracket_query(p, out);
    }
    if (!name_here(p))
        return syntax(p, "expected a table name in FROM");
    if (++p->ntables > SQL_MAX_TABLES) {
        /* also bounds the recursion over join trees in plan.c */
        sql_set_error(p->err, "42000", pos, "too many tables in one "
                      "statement (more than %d)", SQL_MAX_TABLES);
        return -1;
    }
    sql_from *f = new_from(p, FROM_TABLE, pos);
    if (!f)
        return nomem(p);
    if (parse_table_name(p, &f->catalog, &f->table, &f->position) != 0)
        return -1;
    if (parse_in_database(p, f) != 0 || parse_alias(p, &f->alias) != 0)
        return -1;
    if (!f->in_database && parse_in_database(p, f) != 0)
        return -1;
    *out = f;
    return 0;
}

/* primary ( [INNER | LEFT [OUTER] | RIGHT [OUTER] | CROSS] JOIN primary
 * [ON cond] )* - left-associative. */
static int parse_join_chain(parser *p, sql_from **out)
{
    sql_from *lhs;
    if (parse_from_primary(p, &lhs) != 0)
        return -1;
    for (;;) {
        size_t pos = p->tok.position;
        char kind;
        if (is_kw(p, KW_INNER)) {
            kind = 'I';
        } else if (is_kw(p, KW_LEFT)) {
            kind = 'L';
        } else if (is_kw(p, KW_RIGHT)) {
            kind = 'R';
        } else if (is_kw(p, KW_CROSS)) {
            kind = 'C';
        } else if (is_kw(p, KW_JOIN)) {
            kind = 'J';
        } else if (is_kw(p, KW_FULL)) {
            /* not Jet SQL: Access answers "Syntax error in FROM clause" */
            sql_set_error(p->err, "42000", p->tok.position, "Syntax error "
                          "in FROM clause: FULL OUTER JOIN is not Jet SQL "
                          "(at character %zu); write a LEFT JOIN UNION a "
                          "RIGHT JOIN", p->tok.position);
            return -1;
        } else {
            break;
        }
        if (kind != 'J' && next(p) != 0)
            return -1;
        if ((kind == 'L' || kind == 'R') && is_kw(p, KW_OUTER) &&
            next(p) != 0)
            return -1;
        if (!is_kw(p, KW_JOIN))
            return syntax(p, "expected JOIN");
        if (next(p) != 0)
            return -1;
        sql_from *j = new_from(p, FROM_JOIN, pos);
        if (!j)
            return nomem(p);
        j->join = kind == 'L' || kind == 'R' ? kind : 'I';
        j->left = lhs;
        if (parse_from_primary(p, &j->right) != 0)
            return -1;
        if (kind != 'C') {
            if (!is_kw(p, KW_ON))
                return syntax(p, "expected ON after the joined table");
            if (next(p) != 0 || sqlp_expr(p, &j->on) != 0)
                return -1;
        }
        lhs = j;
    }
    *out = lhs;
    return 0;
}

/* FROM item (',' item)*, or no FROM (one row). */
static int parse_from(parser *p, sql_query *q)
{
    if (!is_kw(p, KW_FROM)) {
        /* SELECT 1+1: one row, no table (Access allows it) */
        q->no_from = true;
        return 0;
    }
    if (next(p) != 0)
        return -1;
    size_t cap = 0;
    for (;;) {
        void *a = q->from;
        if (arena_reserve(p, &a, &cap, q->nfrom, sizeof *q->from) != 0)
            return -1;
        q->from = a;
        if (parse_join_chain(p, &q->from[q->nfrom]) != 0)
            return -1;
        q->nfrom++;
        if (p->tok.kind != TOK_COMMA)
            break;
        if (next(p) != 0)
            return -1;
    }
    return 0;
}

/* Comma-separated expressions into a growing array. */
static int parse_expr_list(parser *p, sql_expr ***out, size_t *n)
{
    size_t cap = 0;
    for (;;) {
        void *a = *out;
        if (arena_reserve(p, &a, &cap, *n, sizeof **out) != 0)
            return -1;
        *out = a;
        if (sqlp_expr(p, &(*out)[*n]) != 0)
            return -1;
        (*n)++;
        if (p->tok.kind != TOK_COMMA)
            return 0;
        if (next(p) != 0)
            return -1;
    }
}

/* ------------------------------------------- lookahead for queries */

/* Add a '(' at byte offset off to the memo (offsets ascend). */
static int memo_add(parser *p, size_t off)
{
    ahead_memo *m = p->memo;
    if (m->n == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 64;
        size_t *no = realloc(m->off, nc * sizeof *no);
        if (no)
            m->off = no;
        bool *nu = no ? realloc(m->uni, nc * sizeof *nu) : NULL;
        if (nu)
            m->uni = nu;
        if (!no || !nu)
            return nomem(p);
        m->cap = nc;
    }
    m->off[m->n] = off;
    m->uni[m->n] = false;
    m->n++;
    return 0;
}

/* The memo's entry for the '(' at byte offset off, or SIZE_MAX. */
static size_t memo_find(const ahead_memo *m, size_t off)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->off[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->off[lo] == off ? lo : SIZE_MAX;
}

/* Scan from lx (its next token the '(' at byte offset past the memo's
 * covered part) to the token after that '(' closes, or to the end,
 * listing in the memo each '(' a member could open and what follows its
 * ')'. 0, or -1 (a lexer error, out of memory). */
static int memo_scan(parser *p, sql_lexer *lx)
{
    ahead_memo *m = p->memo;
    size_t depth = 0, nopen = 0, fresh = SIZE_MAX, closed = SIZE_MAX;
    sql_token t;
    for (;;) {
        if (sql_lex_next(lx, &t) != 0)
            return -1;
        size_t at = t.kind == TOK_EOF ? lx->len : (size_t)(t.start - lx->s);
        bool sel = t.kind == TOK_IDENT && t.kw == KW_SELECT;
        if (fresh != SIZE_MAX && t.kind != TOK_LPAREN && !sel) {
            m->n--;             /* no member opens there: unlist it */
            nopen--;
        }
        fresh = SIZE_MAX;
        if (closed != SIZE_MAX) {
            m->uni[closed] = t.kind == TOK_IDENT && t.kw == KW_UNION;
            closed = SIZE_MAX;
            if (depth == 0) {
                m->covered = at;
                return 0;
            }
        }
        if (t.kind == TOK_EOF) {
            m->covered = at;    /* the open ones: no UNION follows */
            return 0;
        }
        if (t.kind == TOK_LPAREN) {
            depth++;
            if (nopen < AHEAD_MAX_OPEN) {
                if (memo_add(p, at) != 0)
                    return -1;
                fresh = m->n - 1;
                m->open[nopen] = fresh;
                m->open_depth[nopen++] = depth;
            }
        } else if (t.kind == TOK_RPAREN && depth > 0) {
            if (nopen && m->open_depth[nopen - 1] == depth)
                closed = m->open[--nopen];
            depth--;
            if (depth == 0 && closed == SIZE_MAX) {
                /* the first '(' went unlisted (it cannot be: it opens
                 * a member); end here all the same */
                m->covered = at + 1;
                return 0;
            }
        }
    }
}

/* Does the current '(' open a query: ( SELECT ... ), or a UNION whose
 * first member Access wrote in parentheses, ( (SELECT ...) UNION ... )?
 * For the second form, finds the ')' closing that member and looks for
 * UNION after it (a derived table opening a parenthesised join,
 * ((SELECT ...) AS x INNER JOIN ...), or a parenthesised scalar
 * subquery, ((SELECT ...)), has none). The text ahead is scanned once
 * (memo_scan): the members nested inside the first one scanned are
 * answered from the memo, so a statement of n characters costs O(n)
 * however deeply its queries nest. */
static int query_ahead(parser *p, bool *yes)
{
    /* the copy's token strings go to a scratch arena freed here: the
     * scan does not grow the statement's arena */
    sql_arena scratch = { NULL };
    sql_lexer lx = p->lx;
    sql_token t;
    int rc = -1;
    size_t depth = 1;           /* inside the member's '(' */
    lx.arena = &scratch;
    sql_lexer at_member = lx;
    *yes = false;
    if (sql_lex_next(&lx, &t) != 0)
        goto out;
    rc = 0;
    if (t.kind == TOK_IDENT && t.kw == KW_SELECT) {
        *yes = true;
        goto out;
    }
    if (t.kind != TOK_LPAREN)
        goto out;
    size_t member = (size_t)(t.start - lx.s);
    rc = -1;
    do {
        if (sql_lex_next(&lx, &t) != 0)
            goto out;
    } while (t.kind == TOK_LPAREN && ++depth <= SQL_MAX_DEPTH);
    rc = 0;
    if (!(t.kind == TOK_IDENT && t.kw == KW_SELECT))
        goto out;       /* (deeper parentheses fail in the parse itself) */
    if (p->memo) {
        if (member >= p->memo->covered &&
            (rc = memo_scan(p, &at_member)) != 0)
            goto out;
        size_t k = memo_find(p->memo, member);
        if (k != SIZE_MAX) {
            *yes = p->memo->uni[k];
            goto out;
        }
    }
    /* not in the memo (nested past AHEAD_MAX_OPEN): scan for it alone */
    while (depth > 0) {
        if ((rc = sql_lex_next(&lx, &t)) != 0 || t.kind == TOK_EOF)
            goto out;
        if (t.kind == TOK_LPAREN)
            depth++;
        else if (t.kind == TOK_RPAREN)
            depth--;
    }
    if ((rc = sql_lex_next(&lx, &t)) == 0)
        *yes = t.kind == TOK_IDENT && t.kw == KW_UNION;
out:
    sql_arena_free(&scratch);
    return rc;
}

static int parse_end(parser *p)
{
    int rc = reject_clause(p);
    if (rc)
        return rc;
    if (p->tok.kind == TOK_SEMI && next(p) != 0)
        return -1;
    if (p->tok.kind != TOK_EOF) {
        sql_set_error(p->err, "42000", p->tok.position,
                      "characters found after end of SQL statement");
        return -1;
    }
    return 0;
}

/* A whole number (ROWS counts of OFFSET/FETCH/LIMIT). */
static int parse_count(parser *p, const char *what, int64_t *out)
{
    if (p->tok.kind == TOK_PARAM)
        return unsupported(p, "parameters as row counts");
    if (p->tok.kind != TOK_NUMBER)
        return syntax(p, what);
    int64_t n = 0;
    for (size_t i = 0; i < p->tok.len; i++) {
        char c = p->tok.start[i];
        if (c < '0' || c > '9')
            return syntax(p, what);
        if (n > (INT64_MAX - (c - '0')) / 10) {
            sql_set_error(p->err, "42000", p->tok.position,
                          "row count too large");
            return -1;
        }
        n = n * 10 + (c - '0');
    }
    *out = n;
    return next(p);
}

/* ORDER BY item (',' item)* ; then [OFFSET n ROW[S]] [FETCH FIRST|NEXT
 * n ROW[S] ONLY] or LIMIT n [OFFSET m]. */
static int parse_tail(parser *p, sql_query *q)
{
    if (is_kw(p, KW_ORDER)) {
        if (next(p) != 0)
            return -1;
        if (!is_kw(p, KW_BY))
            return syntax(p, "expected BY after ORDER");
        if (next(p) != 0)
            return -1;
        size_t cap = 0;
        for (;;) {
            void *a = q->order;
            if (arena_reserve(p, &a, &cap, q->norder, sizeof *q->order) != 0)
                return -1;
            q->order = a;
            sql_order_item *o = &q->order[q->norder];
            o->position = p->tok.position;
            if (sqlp_expr(p, &o->expr) != 0)
                return -1;
            if (is_kw(p, KW_ASC) || is_kw(p, KW_DESC)) {
                o->desc = is_kw(p, KW_DESC);
                if (next(p) != 0)
                    return -1;
            }
            q->norder++;
            if (p->tok.kind != TOK_COMMA)
                break;
            if (next(p) != 0)
                return -1;
        }
    }
    bool limited = false;
    if (is_word(p, "LIMIT")) {
        q->limit_position = p->tok.position;
        if (next(p) != 0 ||
            parse_count(p, "expected a whole number after LIMIT",
                        &q->limit) != 0)
            return -1;
        if (is_word(p, "OFFSET")) {
            if (next(p) != 0 ||
                parse_count(p, "expected a whole number after OFFSET",
                            &q->offset) != 0)
                return -1;
        }
        limited = true;
    } else {
        if (is_word(p, "OFFSET")) {
            q->limit_position = p->tok.position;
            if (next(p) != 0 ||
                parse_count(p, "expected a whole number after OFFSET",
                            &q->offset) != 0)
                return -1;
            if (is_word(p, "ROW") || is_word(p, "ROWS")) {
                if (next(p) != 0)
                    return -1;
            }
            limited = true;
        }
        if (is_word(p, "FETCH")) {
            if (!limited)
                q->limit_position = p->tok.position;
            if (next(p) != 0)
                return -1;
            if (!is_word(p, "FIRST") && !is_word(p, "NEXT"))
                return syntax(p, "expected FIRST or NEXT after FETCH");
            if (next(p) != 0 ||
                parse_count(p, "expected a whole number after FETCH FIRST",
                            &q->limit) != 0)
                return -1;
            if (!is_word(p, "ROW") && !is_word(p, "ROWS"))
                return syntax(p, "expected ROWS");
            if (next(p) != 0)
                return -1;
            if (!is_word(p, "ONLY"))
                return syntax(p, "expected ONLY");
            if (next(p) != 0)
                return -1;
            limited = true;
        }
    }
    if (limited && q->sel.top >= 0) {
        sql_set_error(p->err, "42000", q->limit_position,
                      "TOP cannot be combined with LIMIT or OFFSET/FETCH");
        return -1;
    }
    return 0;
}


/* ------------------------------------------- query blocks (engine) */

static sql_query *new_query(parser *p)
{
    sql_query *q = sql_arena_alloc(p->arena, sizeof *q);
    if (q) {
        q->sel.top = -1;
        q->limit = -1;
        q->ndecl = p->ndecl;
        q->decl = p->decl;
    }
    return q;
}

/* A member of a UNION (or the whole query): SELECT ..., or one in
 * parentheses, as Access writes (SELECT ...) UNION (SELECT ...). */
static int parse_member(parser *p, sql_query *q)
{
    if (p->tok.kind != TOK_LPAREN) {
        if (!is_kw(p, KW_SELECT))
            return syntax(p, "expected SELECT");
        return parse_select_core(p, q);
    }
    if (p->depth >= SQL_MAX_DEPTH) {
        sql_set_error(p->err, "42000", p->tok.position,
                      "query nested too deeply in parentheses");
        return -1;
    }
    if (next(p) != 0)
        return -1;
    p->depth++;
    int rc = parse_member(p, q);
    p->depth--;
    if (rc != 0)
        return -1;
    if (p->tok.kind != TOK_RPAREN)
        return syntax(p, "expected ')' after the parenthesised SELECT");
    return next(p);
}

/* SELECT quantifiers items [FROM ...] [WHERE c] [GROUP BY e, ..]
 * [HAVING c], the current token being SELECT. */
static int parse_select_core(parser *p, sql_query *q)
{
    sql_query *outer = p->q;
    int rc = -1;
    bool may_into = p->allow_into && q == outer;
    if (q == outer)
        p->allow_into = false;  /* the statement's first block only */
    p->q = q;                   /* parse_quantifiers records TOP there */
    q->position = p->tok.position;
    if (next(p) != 0 || parse_quantifiers(p, &q->sel) != 0 ||
        parse_select_list(p, &q->sel) != 0)
        goto out;
    if (is_kw(p, KW_INTO) && may_into) {
        /* SELECT ... INTO t [FROM ...]: a make-table (ddlparse.c) */
        q->into_from = (size_t)(p->tok.start - p->lx.s);
        if (next(p) != 0)
            goto out;
        if (!name_here(p)) {
            syntax(p, "expected the new table's name after INTO");
            goto out;
        }
        const char *catalog = NULL;
        q->into_position = p->tok.position;
        if (parse_table_name(p, &catalog, &q->into, &q->into_position) != 0)
            goto out;
        if (catalog || is_kw(p, KW_IN)) {
            unsupported(p, "SELECT INTO another database");
            goto out;
        }
        q->into_to = p->tok.kind == TOK_EOF ? p->lx.len
                                            : (size_t)(p->tok.start - p->lx.s);
    }
    if (parse_from(p, q) != 0)
        goto out;
    if (is_kw(p, KW_WHERE) &&
        (next(p) != 0 || sqlp_expr(p, &q->where) != 0))
        goto out;
    if (is_kw(p, KW_GROUP)) {
        if (next(p) != 0)
            goto out;
        if (!is_kw(p, KW_BY)) {
            syntax(p, "expected BY after GROUP");
            goto out;
        }
        if (next(p) != 0 || parse_expr_list(p, &q->group, &q->ngroup) != 0)
            goto out;
    }
    if (is_kw(p, KW_HAVING)) {
        q->having_position = p->tok.position;
        if (next(p) != 0 || sqlp_expr(p, &q->having) != 0)
            goto out;
    }
    rc = 0;
out:
    p->q = outer;
    return rc;
}

/* core (UNION [ALL] core)* [ORDER BY ...] [LIMIT/OFFSET/FETCH]. */
static int parse_query_body(parser *p, sql_query *q)
{
    if (parse_member(p, q) != 0)
        return -1;
    sql_query *last = q;
    while (is_kw(p, KW_UNION)) {
        bool all = false;
        if (next(p) != 0)
            return -1;
        if (is_kw(p, KW_ALL)) {
            all = true;
            if (next(p) != 0)
                return -1;
        }
        sql_query *b = new_query(p);
        if (!b)
            return nomem(p);
        b->union_all = all;
        if (!is_kw(p, KW_SELECT) && p->tok.kind != TOK_LPAREN)
            return syntax(p, "expected SELECT after UNION");
        if (parse_member(p, b) != 0)
            return -1;
        last->union_next = b;
        last = b;
    }
    sql_query *outer = p->q;
    p->q = q;
    int rc = parse_tail(p, q);
    p->q = outer;
    return rc;
}

/* ( SELECT ... ) as a subquery or derived table; the current token is
 * the '('. Nesting counts against SQL_MAX_QUERY_DEPTH. */
static int parse_subquery(parser *p, sql_query **out)
{
    if (enter_query(p, p->tok.position) != 0)
        return -1;
    int rc = -1;
    sql_query *q = NULL;
    if (next(p) == 0) {
        if (!(q = new_query(p)))
            nomem(p);
        else
            rc = parse_query_body(p, q);
    }
    p->qdepth--;
    if (rc != 0)
        return -1;
    if (p->tok.kind != TOK_RPAREN)
        return syntax(p, "expected ')' after the subquery");
    *out = q;
    return next(p);
}

/* Access's type names (and synonyms) in a PARAMETERS declaration. */
static const struct {
    const char *name;
    sql_ptype type;
} param_types[] = {
    { "VALUE", SQL_PT_VALUE }, { "VARIANT", SQL_PT_VALUE },
    { "BIT", SQL_PT_BIT }, { "BOOLEAN", SQL_PT_BIT },
    { "YESNO", SQL_PT_BIT }, { "LOGICAL", SQL_PT_BIT },
    { "BYTE", SQL_PT_BYTE }, { "TINYINT", SQL_PT_BYTE },
    { "SHORT", SQL_PT_SHORT }, { "SMALLINT", SQL_PT_SHORT },
    { "INTEGER2", SQL_PT_SHORT },
    { "LONG", SQL_PT_LONG }, { "INTEGER", SQL_PT_LONG },
    { "INT", SQL_PT_LONG }, { "INTEGER4", SQL_PT_LONG },
    { "CURRENCY", SQL_PT_CURRENCY }, { "MONEY", SQL_PT_CURRENCY },
    { "IEEESINGLE", SQL_PT_SINGLE }, { "SINGLE", SQL_PT_SINGLE },
    { "REAL", SQL_PT_SINGLE }, { "FLOAT4", SQL_PT_SINGLE },
    { "IEEEDOUBLE", SQL_PT_DOUBLE }, { "DOUBLE", SQL_PT_DOUBLE },
    { "FLOAT", SQL_PT_DOUBLE }, { "FLOAT8", SQL_PT_DOUBLE },
    { "NUMBER", SQL_PT_DOUBLE },
    { "DATETIME", SQL_PT_DATETIME }, { "DATE", SQL_PT_DATETIME },
    { "TIME", SQL_PT_DATETIME }, { "TIMESTAMP", SQL_PT_DATETIME },
    { "TEXT", SQL_PT_TEXT }, { "CHAR", SQL_PT_TEXT },
    { "VARCHAR", SQL_PT_TEXT }, { "STRING", SQL_PT_TEXT },
    { "ALPHANUMERIC", SQL_PT_TEXT },
    { "LONGTEXT", SQL_PT_MEMO }, { "MEMO", SQL_PT_MEMO },
    { "NOTE", SQL_PT_MEMO }, { "LONGCHAR", SQL_PT_MEMO },
    { "BINARY", SQL_PT_BINARY }, { "VARBINARY", SQL_PT_BINARY },
    { "LONGBINARY", SQL_PT_LONGBINARY }, { "OLEOBJECT", SQL_PT_LONGBINARY },
    { "GUID", SQL_PT_GUID }, { "UNIQUEIDENTIFIER", SQL_PT_GUID },
    { "DECIMAL", SQL_PT_DECIMAL }, { "NUMERIC", SQL_PT_DECIMAL },
};

/* PARAMETERS name type [, name type]... ; (the current token being
 * PARAMETERS): the declarations into p->decl and q. A type may carry a
 * size, Text(255) or Decimal(18, 4), which only describes it. */
static int parse_parameters(parser *p, sql_query *q)
{
    sql_param_decl *d = NULL;
    size_t n = 0, cap = 0;
    if (next(p) != 0)
        return -1;
    for (;;) {
        void *a = d;
        if (arena_reserve(p, &a, &cap, n, sizeof *d) != 0)
            return -1;
        d = a;
        if (!is_name(p))
            return syntax(p, "expected a parameter name in PARAMETERS");
        d[n].name = take_name(p);
        d[n].position = p->tok.position;
        for (size_t k = 0; k < n; k++)
            if (!strcasecmp(d[k].name, d[n].name)) {
                sql_set_error(p->err, "42000", p->tok.position, "duplicate "
                              "parameter name '%s' in PARAMETERS",
                              d[n].name);
                return -1;
            }
        if (next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_IDENT)
            return syntax(p, "expected a data type in PARAMETERS");
        size_t t = 0, nt = sizeof param_types / sizeof param_types[0];
        while (t < nt && !(strlen(param_types[t].name) == p->tok.len &&
                           !strncasecmp(param_types[t].name, p->tok.start,
                                        p->tok.len)))
            t++;
        if (t == nt)
            return syntax(p, "unknown data type in PARAMETERS");
        d[n].type = param_types[t].type;
        if (next(p) != 0)
            return -1;
        if (p->tok.kind == TOK_LPAREN) {
            /* Text(255), Decimal(18, 4): sizes only */
            for (int k = 0; k < 2; k++) {
                if (next(p) != 0)
                    return -1;
                if (p->tok.kind != TOK_NUMBER)
                    return syntax(p, "expected a size in PARAMETERS");
                if (next(p) != 0)
                    return -1;
                if (p->tok.kind != TOK_COMMA)
                    break;
            }
            if (p->tok.kind != TOK_RPAREN)
                return syntax(p, "expected ')' after the size");
            if (next(p) != 0)
                return -1;
        }
        n++;
        if (p->tok.kind != TOK_COMMA)
            break;
        if (next(p) != 0)
            return -1;
    }
    if (p->tok.kind != TOK_SEMI)
        return syntax(p, "expected ';' after the PARAMETERS declarations");
    p->ndecl = q->ndecl = n;
    p->decl = q->decl = d;
    return next(p);
}

static int parse_statement(parser *p)
{
    if (next(p) != 0)
        return -1;
    if (is_word(p, "EXPLAIN")) {
        p->q->explain = true;
        if (next(p) != 0)
            return -1;
    }
    if (is_kw(p, KW_PARAMETERS) && parse_parameters(p, p->q) != 0)
        return -1;
    p->allow_into = !p->q->explain;
    if (p->tok.start)
        p->q->body_from = (size_t)(p->tok.start - p->lx.s);
    if (!is_kw(p, KW_SELECT) && p->tok.kind != TOK_LPAREN) {
        if (p->tok.kind == TOK_EOF) {
            sql_set_error(p->err, "42000", p->tok.position,
                          "empty statement");
            return -1;
        }
        if (p->tok.kind == TOK_IDENT) {
            switch (p->tok.kw) {
            case KW_INSERT: case KW_UPDATE: case KW_DELETE:
            case KW_CREATE: case KW_DROP: case KW_ALTER:
                sql_set_error(p->err, "HYC00", p->tok.position,
                              "not supported: %s (the driver is read-only)",
                              sql_kw_name(p->tok.kw));
                return -1;
            case KW_TRANSFORM: return unsupported(p, "TRANSFORM");
            case KW_PARAMETERS:
                return syntax(p, "PARAMETERS given twice");
            default: break;
            }
        }
        if (p->tok.kind == TOK_LBRACE)
            return unsupported(p, "ODBC escape sequences");
        return syntax(p, "expected SELECT");
    }
    if (parse_query_body(p, p->q) != 0)
        return -1;
    return parse_end(p);
}

static int parse_statement_cb(parser *p, void *ctx)
{
    (void)ctx;
    return parse_statement(p);
}

int sql_parse_query(sql_query **out, const char *text, size_t len,
                    sql_error *err)
{
    sql_error scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    *out = NULL;
    err->rc = 0;
    if (!text && len > 0) {
        sql_set_error(err, "HY009", 0, "null statement text");
        return -1;
    }
    if (!text)
        text = "";
    if (sql_check_text(text, len, err) != 0)
        return -1;

    return sqlp_run(out, text, len, err, parse_statement_cb, NULL);
}

void sql_select_free(sql_select *sel)
{
    if (!sel)
        return;
    /* sel is the first member of its holder; copy the arena head out
     * before freeing the chunk the holder lives in. */
    sql_arena arena = ((sql_query *)(void *)sel)->arena;
    sql_arena_free(&arena);
}

/* ------------------------------------- the parser for dmlparse.c */

/* What dmlparse.c (issue 25) builds on: tokens, expressions, FROM. */
int sqlp_next(parser *p) { return next(p); }
const sql_token *sqlp_tok(const parser *p) { return &p->tok; }
int sqlp_syntax(parser *p, const char *msg) { return syntax(p, msg); }
int sqlp_unsupported(parser *p, const char *w) { return unsupported(p, w); }
int sqlp_nomem(parser *p) { return nomem(p); }
bool sqlp_is_kw(const parser *p, sql_kw kw) { return is_kw(p, kw); }
bool sqlp_is_word(const parser *p, const char *w) { return is_word(p, w); }
bool sqlp_is_name(const parser *p) { return is_name(p); }
bool sqlp_name_here(parser *p) { return name_here(p); }
bool sqlp_is_separator(const parser *p) { return is_separator(p); }
sql_arena *sqlp_arena(parser *p) { return p->arena; }
void sqlp_set_query(parser *p, sql_query *q) { p->q = q; }
sql_query *sqlp_query(const parser *p) { return p->q; }
int sqlp_reserve(parser *p, void **arr, size_t *cap, size_t n, size_t elem)
{
    return arena_reserve(p, arr, cap, n, elem);
}
int sqlp_table_name(parser *p, const char **catalog, const char **table,
                    size_t *position)
{
    return parse_table_name(p, catalog, table, position);
}
int sqlp_query_ahead(parser *p, bool *yes) { return query_ahead(p, yes); }
int sqlp_query_body(parser *p, sql_query *q) { return parse_query_body(p, q); }
int sqlp_subquery(parser *p, sql_query **out) { return parse_subquery(p, out); }
int sqlp_join_chain(parser *p, sql_from **o) { return parse_join_chain(p, o); }
int sqlp_parameters(parser *p, sql_query *q) { return parse_parameters(p, q); }
int sqlp_end(parser *p) { return parse_end(p); }

int sqlp_run(sql_query **out, const char *text, size_t len, sql_error *err,
             int (*body)(parser *p, void *ctx), void *ctx)
{
    *out = NULL;
    sql_arena arena = { NULL };
    sql_query *h = sql_arena_alloc(&arena, sizeof *h);
    if (!h) {
        sql_set_nomem(err, 0);
        return -1;
    }
    h->sel.top = -1;
    h->limit = -1;
    parser p;
    memset(&p, 0, sizeof p);
    p.arena = &arena;
    p.err = err;
    p.q = h;
    ahead_memo *memo = calloc(1, sizeof *memo);
    p.memo = memo;
    sql_lexer_init(&p.lx, text, len, &arena, err);
    int prc = body(&p, ctx);
    if (memo) {
        free(memo->off);
        free(memo->uni);
        free(memo);
    }
    if (prc != 0) {
        sql_arena_free(&arena);
        return -1;
    }
    h->sel.nparams = p.ndecl + p.lx.nparams;
    h->arena = arena;
    *out = h;
    return 0;
}

int sql_parse_statement(sql_parsed *out, const char *text, size_t len,
                        sql_error *err)
{
    sql_error scratch;
    if (!err)
        err = &scratch;
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    if (text && sql_check_text(text, len, err) != 0)
        return -1;
    /* the first word: a lexer error (or none) leaves it to the query
     * parser, which reports it as before */
    sql_arena arena = { NULL };
    sql_lexer lx;
    sql_token tok;
    sql_error lerr;
    memset(&lerr, 0, sizeof lerr);
    sql_lexer_init(&lx, text ? text : "", text ? len : 0, &arena, &lerr);
    int lrc = sql_lex_next(&lx, &tok);
    sql_arena_free(&arena);
    if (lrc == 0 && tok.kind == TOK_IDENT) {
        switch (tok.kw) {
        case KW_INSERT: case KW_UPDATE: case KW_DELETE:
            return sql_parse_dml(out, text, len, err);
        case KW_PARAMETERS:
            if (sql_parameters_then_dml(text, len))
                return sql_parse_dml(out, text, len, err);
            break;
        case KW_CREATE: case KW_DROP: case KW_ALTER:
            return sql_parse_ddl(out, text, len, err);
        default:
            break;
        }
    }
    out->kind = SQL_KIND_QUERY;
    if (sql_parse_query(&out->query, text, len, err) != 0)
        return -1;
    if (out->query->into)
        return sql_ddl_select_into(out, text, len, err);
    return 0;
}
