/*
 * exprparse.c - the expression parser of Access SQL (parser.c parses the
 * statements and query blocks around it): operators by Jet's precedence
 * (binding powers, loosest first: OR < XOR < AND < NOT < comparisons <
 * & < + - < MOD < \ < * / < unary - < ^), the predicates (BETWEEN, [NOT]
 * IN (list), IN (SELECT ...), LIKE / ALIKE, IS [NOT] NULL, a op
 * ANY|SOME|ALL (SELECT ...), EXISTS), function calls and COUNT(DISTINCT
 * x), ?  markers, literals, TRUE/FALSE/YES/NO, table.column and
 * table!column, and the ODBC escapes {d} {t} {ts} {fn} ({oj} {call}
 * {escape} are HYC00).
 * Invariants:
 *   1. parse_expr is the only recursion here, counted against
 *      SQL_MAX_DEPTH (p->depth); a subquery goes back to parser.c
 *      (sqlp_subquery), whose blocks count against SQL_MAX_QUERY_DEPTH.
 *   2. Every node records its height (set_height); past SQL_MAX_HEIGHT it
 *      is 42000, so the walks that follow (plan.c, eval.c) stay within a
 *      bounded stack. Runs of AND/OR/XOR are built balanced
 *      (join_balanced): a WHERE of 100,000 ANDs is 17 levels deep.
 *   3. Nodes live in the statement's arena (p->arena); nothing is freed
 *      here on failure.
 */
#include "config.h"

#include "parse_int.h"
#include "sql_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Binding powers, loosest first: Jet's operator precedence (OR < XOR <
 * AND < NOT < comparisons < & < + - < MOD < \ < * / < unary - < ^). */
enum {
    BP_OR = 1, BP_XOR, BP_AND, BP_NOT, BP_CMP, BP_CONCAT, BP_ADD, BP_MOD,
    BP_IDIV, BP_MUL, BP_UNARY, BP_POW
};

static sql_expr *new_expr(parser *p, sql_expr_kind kind, size_t position)
{
    sql_expr *e = sql_arena_alloc(p->arena, sizeof *e);
    if (e) {
        e->kind = kind;
        e->position = position;
    }
    return e;
}

static int parse_expr(parser *p, int min_bp, sql_expr **out);

static unsigned height_of(const sql_expr *e)
{
    return e && e->height ? e->height : 1;
}

/* Record e's height from its children's; 42000 past SQL_MAX_HEIGHT, so the
 * recursive walks of plan.c and eval.c stay within a bounded stack. */
static int set_height(parser *p, sql_expr *e)
{
    unsigned h = height_of(e->a);
    if (e->b && height_of(e->b) > h)
        h = height_of(e->b);
    if (e->c && height_of(e->c) > h)
        h = height_of(e->c);
    for (size_t i = 0; i < e->nargs; i++)
        if (height_of(e->args[i]) > h)
            h = height_of(e->args[i]);
    e->height = h + 1;
    if (e->height > SQL_MAX_HEIGHT) {
        sql_set_error(p->err, "42000", e->position, "expression too complex "
                      "(more than %d levels of operators)", SQL_MAX_HEIGHT);
        return -1;
    }
    return 0;
}

/* Is the token after the current one keyword kw? (Lexes one token ahead
 * on a copy of the lexer; the arena keeps the copy's strings.) */
static int peek_kw(parser *p, sql_kw kw, bool *yes)
{
    sql_lexer save = p->lx;
    sql_token t;
    if (sql_lex_next(&save, &t) != 0)
        return -1;
    *yes = t.kind == TOK_IDENT && t.kw == kw;
    return 0;
}

/* Comma-separated expressions up to ')' (the '(' is consumed). */
static int parse_args(parser *p, sql_expr *e, bool allow_star)
{
    size_t cap = 0;
    if (p->tok.kind == TOK_RPAREN)
        return sqlp_next(p);
    for (;;) {
        sql_expr *arg;
        if (allow_star && e->nargs == 0 && !e->distinct_arg &&
            sqlp_is_kw(p, KW_DISTINCT)) {
            e->distinct_arg = true;     /* COUNT(DISTINCT x) */
            if (sqlp_next(p) != 0)
                return -1;
            continue;
        }
        if (allow_star && p->tok.kind == TOK_STAR && e->nargs == 0) {
            arg = new_expr(p, EXPR_COLUMN, p->tok.position);
            if (!arg)
                return sqlp_nomem(p);
            arg->text = "*";
            if (sqlp_next(p) != 0)
                return -1;
        } else if (parse_expr(p, 0, &arg) != 0) {
            return -1;
        }
        void *a = e->args;
        if (sqlp_reserve(p, &a, &cap, e->nargs, sizeof *e->args) != 0)
            return -1;
        e->args = a;
        e->args[e->nargs++] = arg;
        if (p->tok.kind == TOK_RPAREN)
            return sqlp_next(p);
        if (p->tok.kind != TOK_COMMA)
            return sqlp_syntax(p, "expected ',' or ')'");
        if (sqlp_next(p) != 0)
            return -1;
    }
}

/* Is the token after the current one of kind k? */
static int peek_kind(parser *p, sql_tok_kind k, bool *yes)
{
    sql_lexer save = p->lx;
    sql_token t;
    if (sql_lex_next(&save, &t) != 0)
        return -1;
    *yes = t.kind == k;
    return 0;
}

/* ODBC escape after '{': {d 'x'} {t 'x'} {ts 'x'} {fn f(args)}; {oj},
 * {call}, {escape} are recognised and refused with HYC00. */
static int parse_escape(parser *p, sql_expr **out)
{
    size_t pos = p->tok.position;
    if (sqlp_next(p) != 0)
        return -1;
    if (p->tok.kind != TOK_IDENT)
        return sqlp_syntax(p, "expected d, t, ts or fn after '{'");
    const char *w = p->tok.text;
    size_t wl = strlen(w);
    char kind[3] = { 0 };
    if (wl <= 2)
        for (size_t i = 0; i < wl; i++)
            kind[i] = (char)(w[i] | 0x20);
    if (!strcmp(kind, "d") || !strcmp(kind, "t") || !strcmp(kind, "ts")) {
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_STRING)
            return sqlp_syntax(p, "expected a quoted value in the ODBC "
                               "escape");
        sql_expr *e = new_expr(p, EXPR_ODBC_DATE, pos);
        if (!e)
            return sqlp_nomem(p);
        e->op = kind[1] == 's' ? "ts" : kind[0] == 'd' ? "d" : "t";
        e->text = p->tok.text;
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_RBRACE)
            return sqlp_syntax(p, "expected '}'");
        *out = e;
        return sqlp_next(p);
    }
    if (!strcmp(kind, "fn")) {
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_IDENT)
            return sqlp_syntax(p, "expected a function name after fn");
        sql_expr *e = new_expr(p, EXPR_FUNC, p->tok.position);
        if (!e)
            return sqlp_nomem(p);
        e->text = p->tok.text;
        e->odbc_fn = true;
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_LPAREN)
            return sqlp_syntax(p, "expected '(' after the function name");
        if (sqlp_next(p) != 0 || parse_args(p, e, false) != 0 ||
            set_height(p, e) != 0)
            return -1;
        if (p->tok.kind != TOK_RBRACE)
            return sqlp_syntax(p, "expected '}'");
        *out = e;
        return sqlp_next(p);
    }
    /* an escape cut short ("{oj" and nothing more) is a syntax error */
    size_t wpos = p->tok.position;
    if (sqlp_next(p) != 0)
        return -1;
    if (p->tok.kind == TOK_EOF) {
        sql_set_error(p->err, "42000", wpos, "syntax error: the ODBC escape "
                      "{%.20s ...} is not complete", w);
        return -1;
    }
    sql_set_error(p->err, "HYC00", pos, "not supported: ODBC escape "
                  "{%.20s ...}%s", w,
                  !strcmp(kind, "oj") ? " (outer joins)" : "");
    return -1;
}

static int parse_primary(parser *p, sql_expr **out)
{
    size_t pos = p->tok.position;
    sql_expr *e = NULL;

    switch (p->tok.kind) {
    case TOK_NUMBER: case TOK_STRING: case TOK_DATE:
        e = new_expr(p, p->tok.kind == TOK_NUMBER ? EXPR_NUMBER
                        : p->tok.kind == TOK_STRING ? EXPR_STRING
                        : EXPR_DATE, pos);
        if (!e)
            return sqlp_nomem(p);
        e->text = p->tok.text;
        *out = e;
        return sqlp_next(p);
    case TOK_PARAM:
        e = new_expr(p, EXPR_PARAM, pos);
        if (!e)
            return sqlp_nomem(p);
        e->param_index = p->ndecl + p->lx.nparams - 1;
        *out = e;
        return sqlp_next(p);
    case TOK_LPAREN: {
        bool sub = false;
        if (sqlp_query_ahead(p, &sub) != 0)
            return -1;
        if (sub) {
            if (!(e = new_expr(p, EXPR_SUBQUERY, pos)))
                return sqlp_nomem(p);
            if (sqlp_subquery(p, &e->sub) != 0)
                return -1;
            *out = e;
            return 0;
        }
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_kw(p, KW_SELECT))
            return sqlp_unsupported(p, "subqueries");
        if (parse_expr(p, 0, out) != 0)
            return -1;
        if (p->tok.kind != TOK_RPAREN)
            return sqlp_syntax(p, "expected ')'");
        return sqlp_next(p);
    }
    case TOK_LBRACE:
        return parse_escape(p, out);
    default:
        break;
    }
    if (sqlp_is_word(p, "TRUE") || sqlp_is_word(p, "FALSE") ||
        sqlp_is_word(p, "YES") || sqlp_is_word(p, "NO")) {
        /* Jet's Yes/No constants are True/False (-1/0) */
        if (!(e = new_expr(p, EXPR_BOOL, pos)))
            return sqlp_nomem(p);
        e->negated = sqlp_is_word(p, "FALSE") || sqlp_is_word(p, "NO");
        *out = e;
        return sqlp_next(p);
    }
    if (sqlp_is_kw(p, KW_LEFT) || sqlp_is_kw(p, KW_RIGHT) ||
        sqlp_is_kw(p, KW_ASC)) {                     /* Asc(string) */
        bool call = false;
        if (peek_kind(p, TOK_LPAREN, &call) != 0)
            return -1;
        if (call) {
            if (!(e = new_expr(p, EXPR_FUNC, pos)))
                return sqlp_nomem(p);
            e->text = p->tok.text;
            if (sqlp_next(p) != 0 || sqlp_next(p) != 0 ||
                parse_args(p, e, false) != 0 || set_height(p, e) != 0)
                return -1;
            *out = e;
            return 0;
        }
    }
    if (sqlp_is_kw(p, KW_NULL)) {
        if (!(*out = new_expr(p, EXPR_NULL, pos)))
            return sqlp_nomem(p);
        return sqlp_next(p);
    }
    if (sqlp_is_kw(p, KW_EXISTS)) {
        if (!(e = new_expr(p, EXPR_EXISTS, pos)))
            return sqlp_nomem(p);
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_LPAREN)
            return sqlp_syntax(p, "expected '(' after EXISTS");
        if (sqlp_subquery(p, &e->sub) != 0)
            return -1;
        *out = e;
        return 0;
    }
    if (!sqlp_is_name(p))
        return sqlp_syntax(p, "expected an expression");

    bool bare = p->tok.kind == TOK_IDENT;
    char quote = p->tok.quote;
    const char *first = p->tok.text;
    if (sqlp_next(p) != 0)
        return -1;
    if (bare && p->tok.kind == TOK_LPAREN) {
        if (!(e = new_expr(p, EXPR_FUNC, pos)))
            return sqlp_nomem(p);
        e->text = first;
        if (sqlp_next(p) != 0)
            return -1;
        if (parse_args(p, e, true) != 0 || set_height(p, e) != 0)
            return -1;
        *out = e;
        return 0;
    }
    if (!(e = new_expr(p, EXPR_COLUMN, pos)))
        return sqlp_nomem(p);
    e->text = first;
    e->quote = quote;
    if (sqlp_is_separator(p)) {
        if (sqlp_next(p) != 0)
            return -1;
        if (!sqlp_is_name(p))
            return sqlp_syntax(p, "expected a column name after '.'");
        e->qualifier = first;
        e->quote = 0;
        e->text = p->tok.text;
        if (sqlp_next(p) != 0)
            return -1;
    }
    *out = e;
    return 0;
}

/* The binary operator at the current token, if any: spelling and power. */
static bool infix_op(const parser *p, const char **op, int *bp)
{
    const sql_token *t = &p->tok;
    if (t->kind == TOK_STAR) {
        *op = "*"; *bp = BP_MUL;
        return true;
    }
    if (t->kind == TOK_IDENT) {
        switch (t->kw) {
        case KW_OR:  *op = "OR";  *bp = BP_OR;  return true;
        case KW_XOR: *op = "XOR"; *bp = BP_XOR; return true;
        case KW_AND: *op = "AND"; *bp = BP_AND; return true;
        case KW_MOD: *op = "MOD"; *bp = BP_MOD; return true;
        case KW_LIKE: *op = "LIKE"; *bp = BP_CMP; return true;
        default: return false;
        }
    }
    if (t->kind != TOK_OP)
        return false;
    static const struct { const char *op; int bp; } ops[] = {
        { "=", BP_CMP }, { "<>", BP_CMP }, { "!=", BP_CMP },
        { "<", BP_CMP }, { "<=", BP_CMP },
        { ">", BP_CMP }, { ">=", BP_CMP }, { "&", BP_CONCAT },
        { "+", BP_ADD }, { "-", BP_ADD }, { "\\", BP_IDIV }, { "/", BP_MUL },
        { "^", BP_POW },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strlen(ops[i].op) == t->len &&
            memcmp(ops[i].op, t->start, t->len) == 0) {
            *op = strcmp(ops[i].op, "!=") ? ops[i].op : "<>";
            *bp = ops[i].bp;
            return true;
        }
    }
    return false;
}

/* Postfix predicates at comparison level: IS [NOT] NULL, [NOT] BETWEEN,
 * [NOT] IN (...), [NOT] LIKE. *done = false when none is present. */
static int parse_predicate(parser *p, sql_expr **lhs, bool *done)
{
    size_t pos = p->tok.position;
    bool negated = false;
    *done = false;

    if (sqlp_is_kw(p, KW_IS)) {
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_kw(p, KW_NOT)) {
            negated = true;
            if (sqlp_next(p) != 0)
                return -1;
        }
        if (!sqlp_is_kw(p, KW_NULL))
            return sqlp_syntax(p, "expected NULL after IS");
        sql_expr *e = new_expr(p, EXPR_IS_NULL, pos);
        if (!e)
            return sqlp_nomem(p);
        e->negated = negated;
        e->a = *lhs;
        if (set_height(p, e) != 0)
            return -1;
        *lhs = e;
        *done = true;
        return sqlp_next(p);
    }
    if (sqlp_is_kw(p, KW_NOT)) {
        bool b = false, i = false, l = false;
        if (peek_kw(p, KW_BETWEEN, &b) != 0 || peek_kw(p, KW_IN, &i) != 0 ||
            peek_kw(p, KW_LIKE, &l) != 0)
            return -1;
        if (!l) {
            sql_lexer save = p->lx;
            sql_token t;
            if (sql_lex_next(&save, &t) != 0)
                return -1;
            l = t.kind == TOK_IDENT && t.kw == KW_NONE && t.len == 5 &&
                !strncasecmp(t.start, "ALIKE", 5);
        }
        if (!b && !i && !l)
            return 0;
        negated = true;
        if (sqlp_next(p) != 0)
            return -1;
    }
    if (sqlp_is_kw(p, KW_BETWEEN)) {
        sql_expr *e = new_expr(p, EXPR_BETWEEN, pos);
        if (!e)
            return sqlp_nomem(p);
        e->negated = negated;
        e->a = *lhs;
        if (sqlp_next(p) != 0 || parse_expr(p, BP_CONCAT, &e->b) != 0)
            return -1;
        if (!sqlp_is_kw(p, KW_AND))
            return sqlp_syntax(p, "expected AND in BETWEEN");
        if (sqlp_next(p) != 0 || parse_expr(p, BP_CONCAT, &e->c) != 0 ||
            set_height(p, e) != 0)
            return -1;
        *lhs = e;
        *done = true;
        return 0;
    }
    if (sqlp_is_kw(p, KW_IN)) {
        sql_expr *e = new_expr(p, EXPR_IN, pos);
        if (!e)
            return sqlp_nomem(p);
        e->negated = negated;
        e->a = *lhs;
        if (sqlp_next(p) != 0)
            return -1;
        if (p->tok.kind != TOK_LPAREN)
            return sqlp_syntax(p, "expected '(' after IN");
        bool sub = false;
        if (sqlp_query_ahead(p, &sub) != 0)
            return -1;
        if (sub) {
            if (sqlp_subquery(p, &e->sub) != 0 || set_height(p, e) != 0)
                return -1;
            *lhs = e;
            *done = true;
            return 0;
        }
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_kw(p, KW_SELECT))
            return sqlp_unsupported(p, "subqueries");
        if (p->tok.kind == TOK_RPAREN)      /* IN (): Jet's syntax error */
            return sqlp_syntax(p, "expected a value in the IN list");
        if (parse_args(p, e, false) != 0 || set_height(p, e) != 0)
            return -1;
        *lhs = e;
        *done = true;
        return 0;
    }
    if (sqlp_is_kw(p, KW_LIKE) || sqlp_is_word(p, "ALIKE")) {
        sql_expr *e = new_expr(p, EXPR_BINARY, pos);
        if (!e)
            return sqlp_nomem(p);
        e->op = "LIKE";
        e->alike = !sqlp_is_kw(p, KW_LIKE);
        e->a = *lhs;
        if (sqlp_next(p) != 0 || parse_expr(p, BP_CMP + 1, &e->b) != 0 ||
            set_height(p, e) != 0)
            return -1;
        if (negated) {
            sql_expr *n = new_expr(p, EXPR_UNARY, pos);
            if (!n)
                return sqlp_nomem(p);
            n->op = "NOT";
            n->a = e;
            e = n;
            if (set_height(p, e) != 0)
                return -1;
        }
        *lhs = e;
        *done = true;
        return 0;
    }
    return 0;
}

/* Balanced tree of v[lo..hi) joined by op; ops[i] is the position of the
 * operator before v[i]. Recursion depth log2(hi - lo). */
static sql_expr *join_balanced(parser *p, const char *op, sql_expr **v,
                               const size_t *ops, size_t lo, size_t hi)
{
    if (hi - lo == 1)
        return v[lo];
    size_t mid = lo + (hi - lo) / 2;
    sql_expr *e = new_expr(p, EXPR_BINARY, ops[mid]);
    if (!e)
        return NULL;
    e->op = op;
    if (!(e->a = join_balanced(p, op, v, ops, lo, mid)) ||
        !(e->b = join_balanced(p, op, v, ops, mid, hi)))
        return NULL;
    e->height = (height_of(e->a) > height_of(e->b) ? height_of(e->a)
                                                    : height_of(e->b)) + 1;
    return e;
}

/* A run "x op y op z ..." of one associative operator (AND, OR, XOR) at
 * the current operator: the operands are parsed in a loop and joined into
 * a balanced tree, so 100,000 ANDs nest 17 levels deep, not 100,000.
 * Evaluation order (left to right) and the result are unchanged. */
static int parse_logic_run(parser *p, const char *op, int bp, sql_expr **lhs)
{
    size_t n = 1, cap = 16;
    sql_expr **v = sql_arena_alloc(p->arena, cap * sizeof *v);
    size_t *ops = sql_arena_alloc(p->arena, cap * sizeof *ops);
    const char *next_op;
    int next_bp;
    if (!v || !ops)
        return sqlp_nomem(p);
    v[0] = *lhs;
    while (infix_op(p, &next_op, &next_bp) && !strcmp(next_op, op)) {
        if (n == cap) {
            /* old blocks stay in the arena: total waste < 2x */
            sql_expr **gv = sql_arena_alloc(p->arena, 2 * cap * sizeof *gv);
            size_t *go = sql_arena_alloc(p->arena, 2 * cap * sizeof *go);
            if (!gv || !go)
                return sqlp_nomem(p);
            memcpy(gv, v, cap * sizeof *gv);
            memcpy(go, ops, cap * sizeof *go);
            v = gv;
            ops = go;
            cap *= 2;
        }
        ops[n] = p->tok.position;
        if (sqlp_next(p) != 0 || parse_expr(p, bp + 1, &v[n]) != 0)
            return -1;
        n++;
    }
    sql_expr *e = join_balanced(p, op, v, ops, 0, n);
    if (!e)
        return sqlp_nomem(p);
    if (e->height > SQL_MAX_HEIGHT)
        return set_height(p, e);        /* the 42000 message */
    *lhs = e;
    return 0;
}

/* Precedence climbing: operators binding at least min_bp; all binary
 * operators are left-associative. Recursion is bounded by SQL_MAX_DEPTH,
 * tree height by SQL_MAX_HEIGHT. */
static int parse_expr_inner(parser *p, int min_bp, sql_expr **out)
{
    sql_expr *lhs = NULL;
    size_t pos = p->tok.position;

    if (sqlp_is_kw(p, KW_NOT) || (p->tok.kind == TOK_OP && p->tok.len == 1 &&
                             (p->tok.start[0] == '-' ||
                              p->tok.start[0] == '+'))) {
        bool is_not = p->tok.kind == TOK_IDENT;
        sql_expr *e = new_expr(p, EXPR_UNARY, pos);
        if (!e)
            return sqlp_nomem(p);
        e->op = is_not ? "NOT" : (p->tok.start[0] == '-' ? "-" : "+");
        if (sqlp_next(p) != 0 ||
            parse_expr(p, is_not ? BP_NOT : BP_UNARY, &e->a) != 0 ||
            set_height(p, e) != 0)
            return -1;
        lhs = e;
    } else if (parse_primary(p, &lhs) != 0) {
        return -1;
    }

    for (;;) {
        if (BP_CMP >= min_bp) {
            bool done;
            if (parse_predicate(p, &lhs, &done) != 0)
                return -1;
            if (done)
                continue;
        }
        const char *op;
        int bp;
        if (!infix_op(p, &op, &bp) || bp < min_bp)
            break;
        if (bp == BP_AND || bp == BP_OR || bp == BP_XOR) {
            if (parse_logic_run(p, op, bp, &lhs) != 0)
                return -1;
            continue;
        }
        sql_expr *e = new_expr(p, EXPR_BINARY, p->tok.position);
        if (!e)
            return sqlp_nomem(p);
        e->op = op;
        e->a = lhs;
        if (sqlp_next(p) != 0)
            return -1;
        if (bp == BP_CMP &&
            (sqlp_is_kw(p, KW_ALL) || sqlp_is_word(p, "ANY") ||
             sqlp_is_word(p, "SOME"))) {
            /* a op ANY|SOME|ALL (SELECT ...) */
            e->kind = EXPR_QUANT;
            e->quant = sqlp_is_kw(p, KW_ALL) ? 'L' : 'A';
            if (sqlp_next(p) != 0)
                return -1;
            if (p->tok.kind != TOK_LPAREN)
                return sqlp_syntax(p, "expected '(' after ANY, SOME or ALL");
            if (sqlp_subquery(p, &e->sub) != 0 || set_height(p, e) != 0)
                return -1;
            lhs = e;
            continue;
        }
        if (parse_expr(p, bp + 1, &e->b) != 0 || set_height(p, e) != 0)
            return -1;
        lhs = e;
    }
    *out = lhs;
    return 0;
}

static int parse_expr(parser *p, int min_bp, sql_expr **out)
{
    if (p->depth >= SQL_MAX_DEPTH) {
        sql_set_error(p->err, "42000", p->tok.position,
                      "expression nested too deeply (more than %d levels)",
                      SQL_MAX_DEPTH);
        return -1;
    }
    p->depth++;
    int rc = parse_expr_inner(p, min_bp, out);
    p->depth--;
    return rc;
}

/* ------------------------------------------------ for parser.c and DML */

int sqlp_expr(parser *p, sql_expr **out)
{
    return parse_expr(p, 0, out);
}

sql_expr *sqlp_new_expr(parser *p, sql_expr_kind kind, size_t position)
{
    return new_expr(p, kind, position);
}
