/*
 * lexer.c - tokens of the SQL subset, and the per-statement arena.
 *
 * Identifiers: bare words (ASCII letters, digits, '_', any non-ASCII
 * character; not starting with a digit), [bracketed] with "]]" for ']',
 * `back-quoted` with `` for '`'. Bare words that spell a keyword
 * (case-insensitively) are keywords; quoted identifiers never are.
 * Strings are 'single quoted' with '' for '\'', or, as Access reads them,
 * "double quoted" with "" for '"': "..." is always text, never a name
 * (the identifier quote the driver reports is the backtick).
 * Comments are white space: "-- " to the end of the line, and slash-star
 * to star-slash (not nested). Access SQL has none, but many tools send
 * them. As in MySQL, "--" starts a comment only before white space or the
 * end, so --1 stays a double negation as Access reads it.
 * ODBC 2's long-form escapes are the braces of the short form:
 * "--(*vendor(Microsoft),product(ODBC)" is a '{' and, while one is open,
 * "*)--" its '}' ("Escape Sequences in ODBC"). A UTF-8 byte order mark
 * before the text (SQL pasted from a file) is white space.
 * The lexer never recurses and never reads past len; the text has been
 * checked for valid UTF-8 and the absence of NUL bytes beforehand.
 */
#include "config.h"

#include "sql_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------- arena */

#define ARENA_CHUNK 4096

void *sql_chunk_take(sql_arena_chunk **head, size_t n, size_t block,
                     size_t *held)
{
    const size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX / 4)
        return NULL;
    n = n ? (n + align - 1) / align * align : align;
    sql_arena_chunk *c = *head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > block ? n : block;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = *head;
        *head = c;
        if (held)
            *held += sizeof *c + cap;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

void sql_chunk_free_all(sql_arena_chunk **head)
{
    sql_arena_chunk *c = *head;
    while (c) {
        sql_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    *head = NULL;
}

void *sql_arena_alloc(sql_arena *a, size_t n)
{
    void *p = sql_chunk_take(&a->head, n, ARENA_CHUNK, NULL);
    if (p)
        memset(p, 0, n);
    return p;
}

char *sql_arena_strndup(sql_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *p = sql_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void sql_arena_free(sql_arena *a)
{
    sql_chunk_free_all(&a->head);
}

/* ------------------------------------------------------------ errors */

void sql_set_error(sql_error *err, const char *sqlstate, size_t position,
                   const char *fmt, ...)
{
    if (!err)
        return;
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    err->position = position;
    err->pgno = UINT32_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

void sql_error_in_saved(sql_error *e, const char *name, size_t pos)
{
    static const char tag[] = " (at character ";
    char *m = e->msg, *w = m;
    for (const char *r = m; *r;) {
        if (!strncmp(r, tag, sizeof tag - 1)) {
            const char *d = r + sizeof tag - 1;
            while (*d >= '0' && *d <= '9')
                d++;
            if (d > r + sizeof tag - 1 && *d == ')') {
                r = d + 1;
                continue;
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
    e->position = pos;
    if (!name || strstr(m, "aved query '"))
        return;                 /* names a saved query already */
    char inner[sizeof e->msg];
    memcpy(inner, m, sizeof inner);
    int l = snprintf(e->msg, sizeof e->msg, "saved query '%.60s': ", name);
    size_t at = l > 0 && (size_t)l < sizeof e->msg ? (size_t)l : 0;
    size_t n = strlen(inner);
    if (n > sizeof e->msg - 1 - at)
        n = sizeof e->msg - 1 - at;     /* the end of a long message */
    memcpy(e->msg + at, inner, n);
    e->msg[at + n] = '\0';
}

int sql_check_text(const char *text, size_t len, sql_error *err)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, pos = 1;
    while (i < len) {
        unsigned char c = s[i];
        size_t need;
        uint32_t cp, min;
        if (c == 0) {
            sql_set_error(err, "42000", pos, "NUL character in statement");
            return -1;
        }
        if (c < 0x80) {
            i++;
            pos++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1; cp = c & 0x1Fu; min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2; cp = c & 0x0Fu; min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3; cp = c & 0x07u; min = 0x10000;
        } else {
            goto bad;
        }
        if (len - i <= need)
            goto bad;
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                goto bad;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            goto bad;
        i += need + 1;
        pos++;
    }
    return 0;
bad:
    sql_set_error(err, "42000", pos, "invalid UTF-8 in statement");
    return -1;
}

/* ---------------------------------------------------------- keywords */

static const struct {
    const char *name;
    sql_kw kw;
} keywords[] = {
    { "ALL", KW_ALL }, { "ALTER", KW_ALTER }, { "AND", KW_AND },
    { "AS", KW_AS }, { "ASC", KW_ASC }, { "BETWEEN", KW_BETWEEN },
    { "BY", KW_BY }, { "CREATE", KW_CREATE }, { "CROSS", KW_CROSS },
    { "DELETE", KW_DELETE }, { "DESC", KW_DESC },
    { "DISTINCT", KW_DISTINCT }, { "DISTINCTROW", KW_DISTINCTROW },
    { "DROP", KW_DROP }, { "EXISTS", KW_EXISTS }, { "FROM", KW_FROM },
    { "FULL", KW_FULL }, { "GROUP", KW_GROUP }, { "HAVING", KW_HAVING },
    { "IN", KW_IN }, { "INNER", KW_INNER }, { "INSERT", KW_INSERT },
    { "INTO", KW_INTO }, { "IS", KW_IS }, { "JOIN", KW_JOIN },
    { "LEFT", KW_LEFT }, { "LIKE", KW_LIKE }, { "MOD", KW_MOD },
    { "NOT", KW_NOT },
    { "NULL", KW_NULL }, { "ON", KW_ON }, { "OR", KW_OR },
    { "ORDER", KW_ORDER }, { "OUTER", KW_OUTER },
    { "PARAMETERS", KW_PARAMETERS }, { "PERCENT", KW_PERCENT },
    { "PIVOT", KW_PIVOT }, { "RIGHT", KW_RIGHT }, { "SELECT", KW_SELECT },
    { "TOP", KW_TOP }, { "TRANSFORM", KW_TRANSFORM }, { "UNION", KW_UNION },
    { "UPDATE", KW_UPDATE }, { "WHERE", KW_WHERE }, { "WITH", KW_WITH },
    { "XOR", KW_XOR },
};

const char *sql_kw_name(sql_kw kw)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (keywords[i].kw == kw)
            return keywords[i].name;
    return "";
}

static sql_kw lookup_kw(const char *s, size_t n)
{
    if (n > 11)                 /* longest keyword: DISTINCTROW */
        return KW_NONE;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        const char *k = keywords[i].name;
        size_t j = 0;
        for (; j < n && k[j]; j++) {
            char c = s[j];
            if (c >= 'a' && c <= 'z')
                c = (char)(c - 'a' + 'A');
            if (c != k[j])
                break;
        }
        if (j == n && k[j] == '\0')
            return keywords[i].kw;
    }
    return KW_NONE;
}

/* ------------------------------------------------------------- lexer */

void sql_lexer_init(sql_lexer *lx, const char *text, size_t len,
                    sql_arena *arena, sql_error *err)
{
    memset(lx, 0, sizeof *lx);
    lx->s = text;
    lx->len = len;
    lx->position = 1;
    lx->arena = arena;
    lx->err = err;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        lx->i = 3;                          /* U+FEFF: one character */
        lx->position = 2;
    }
}

/* Advance one byte, keeping the character position. */
static void advance(sql_lexer *lx)
{
    lx->i++;
    if (lx->i < lx->len && (((unsigned char)lx->s[lx->i]) & 0xC0) != 0x80)
        lx->position++;
    else if (lx->i >= lx->len)
        lx->position++;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static bool is_ident_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c >= 0x80;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_ident_char(unsigned char c)
{
    return is_ident_start(c) || is_digit(c);
}

static int nomem(sql_lexer *lx, size_t position)
{
    sql_set_nomem(lx->err, position);
    return -1;
}

/* Quoted text from after the opening quote to the closing one; a doubled
 * closing character stands for itself. Two passes (find the end and the
 * unescaped length, then copy), so each token allocates only its own size. */
static int lex_quoted(sql_lexer *lx, sql_token *tok, char close,
                      const char *what)
{
    size_t start_pos = lx->position;
    size_t from = lx->i + 1, j = from, n = 0;
    for (;;) {
        if (j >= lx->len) {
            sql_set_error(lx->err, "42000", start_pos, "unterminated %s",
                          what);
            return -1;
        }
        if (lx->s[j] == close) {
            if (j + 1 < lx->len && lx->s[j + 1] == close) {
                n++;
                j += 2;
                continue;
            }
            break;
        }
        n++;
        j++;
    }
    char *buf = sql_arena_alloc(lx->arena, n + 1);
    if (!buf)
        return nomem(lx, start_pos);
    advance(lx);                            /* opening quote */
    n = 0;
    while (lx->i < j) {
        buf[n++] = lx->s[lx->i];
        if (lx->s[lx->i] == close)          /* first of a doubled pair */
            advance(lx);
        advance(lx);
    }
    advance(lx);                            /* closing quote */
    buf[n] = '\0';
    tok->text = buf;
    tok->len = (size_t)(lx->s + lx->i - tok->start);
    return 0;
}

/* Skip white space and comments; -1 with 42000 for an unterminated
 * block comment (at its start). */
static int skip_blank(sql_lexer *lx)
{
    for (;;) {
        while (lx->i < lx->len && is_space(lx->s[lx->i]))
            advance(lx);
        if (lx->len - lx->i < 2)
            return 0;
        const char *c = lx->s + lx->i;
        if (c[0] == '-' && c[1] == '-' &&
            (lx->len - lx->i == 2 || is_space(c[2]))) {
            while (lx->i < lx->len && lx->s[lx->i] != '\n')
                advance(lx);
        } else if (c[0] == '/' && c[1] == '*') {
            size_t start = lx->position;
            advance(lx);
            advance(lx);
            while (lx->len - lx->i >= 2 &&
                   !(lx->s[lx->i] == '*' && lx->s[lx->i + 1] == '/'))
                advance(lx);
            if (lx->len - lx->i < 2) {
                sql_set_error(lx->err, "42000", start,
                              "unterminated /* comment");
                return -1;
            }
            advance(lx);
            advance(lx);
        } else {
            return 0;
        }
    }
}

/* Length of an ODBC 2 long-form escape opening at s[i] ("--(*", then
 * "vendor(Microsoft),product(ODBC)", words in any case, blanks between
 * the parts), or 0. */
static size_t long_escape_open(const sql_lexer *lx)
{
    static const char *const parts[] = {
        "--(*", "vendor", "(", "microsoft", ")", ",", "product", "(",
        "odbc", ")",
    };
    size_t j = lx->i;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        size_t n = strlen(parts[k]);
        if (k > 0)
            while (j < lx->len && is_space(lx->s[j]))
                j++;
        if (lx->len - j < n || strncasecmp(lx->s + j, parts[k], n))
            return 0;
        j += n;
    }
    return j - lx->i;
}

int sql_lex_next(sql_lexer *lx, sql_token *tok)
{
    if (skip_blank(lx) != 0) {
        memset(tok, 0, sizeof *tok);
        return -1;
    }

    memset(tok, 0, sizeof *tok);
    tok->start = lx->s + lx->i;
    tok->position = lx->position;
    if (lx->i >= lx->len) {
        tok->kind = TOK_EOF;
        return 0;
    }

    unsigned char c = (unsigned char)lx->s[lx->i];
    if (is_ident_start(c)) {
        size_t from = lx->i;
        while (lx->i < lx->len && is_ident_char((unsigned char)lx->s[lx->i]))
            advance(lx);
        tok->kind = TOK_IDENT;
        tok->len = lx->i - from;
        tok->kw = lookup_kw(tok->start, tok->len);
        tok->text = sql_arena_strndup(lx->arena, tok->start, tok->len);
        return tok->text ? 0 : nomem(lx, tok->position);
    }
    if (is_digit(c) || (c == '.' && lx->i + 1 < lx->len &&
                        is_digit((unsigned char)lx->s[lx->i + 1]))) {
        size_t from = lx->i;
        while (lx->i < lx->len && is_digit((unsigned char)lx->s[lx->i]))
            advance(lx);
        if (lx->i < lx->len && lx->s[lx->i] == '.') {
            advance(lx);
            while (lx->i < lx->len && is_digit((unsigned char)lx->s[lx->i]))
                advance(lx);
        }
        if (lx->i < lx->len && (lx->s[lx->i] == 'e' || lx->s[lx->i] == 'E')) {
            size_t save_i = lx->i, save_pos = lx->position;
            advance(lx);
            if (lx->i < lx->len && (lx->s[lx->i] == '+' || lx->s[lx->i] == '-'))
                advance(lx);
            if (lx->i < lx->len && is_digit((unsigned char)lx->s[lx->i])) {
                while (lx->i < lx->len && is_digit((unsigned char)lx->s[lx->i]))
                    advance(lx);
            } else {
                lx->i = save_i;         /* "1e" : the e is not ours */
                lx->position = save_pos;
            }
        }
        if (lx->i < lx->len && is_ident_start((unsigned char)lx->s[lx->i])) {
            sql_set_error(lx->err, "42000", tok->position,
                          "malformed number");
            return -1;
        }
        tok->kind = TOK_NUMBER;
        tok->len = lx->i - from;
        tok->text = sql_arena_strndup(lx->arena, tok->start, tok->len);
        return tok->text ? 0 : nomem(lx, tok->position);
    }

    size_t n = 0;
    if ((c == '-' && (n = long_escape_open(lx)) > 0) ||
        (c == '*' && lx->long_escapes > 0 && lx->len - lx->i >= 4 &&
         !memcmp(lx->s + lx->i, "*)--", 4) && (n = 4) > 0)) {
        tok->kind = c == '-' ? TOK_LBRACE : TOK_RBRACE;
        if (c == '-')
            lx->long_escapes++;
        else
            lx->long_escapes--;
        while (n-- > 0)
            advance(lx);
        tok->len = (size_t)(lx->s + lx->i - tok->start);
        return 0;
    }

    switch (c) {
    case '[':
        tok->kind = TOK_QIDENT;
        tok->quote = '[';
        if (lex_quoted(lx, tok, ']', "[identifier]") != 0)
            return -1;
        break;
    case '"':
        tok->kind = TOK_STRING;
        return lex_quoted(lx, tok, '"', "string literal");
    case '`':
        tok->kind = TOK_QIDENT;
        tok->quote = '`';
        if (lex_quoted(lx, tok, '`', "`identifier`") != 0)
            return -1;
        break;
    case '\'':
        tok->kind = TOK_STRING;
        return lex_quoted(lx, tok, '\'', "string literal");
    case '#':
        tok->kind = TOK_DATE;
        return lex_quoted(lx, tok, '#', "#date# literal");
    default: {
        static const struct { char c; sql_tok_kind k; } single[] = {
            { '?', TOK_PARAM }, { '*', TOK_STAR }, { ',', TOK_COMMA },
            { '.', TOK_DOT }, { '(', TOK_LPAREN }, { ')', TOK_RPAREN },
            { ';', TOK_SEMI }, { '{', TOK_LBRACE }, { '}', TOK_RBRACE },
            { '=', TOK_OP }, { '+', TOK_OP }, { '-', TOK_OP },
            { '/', TOK_OP }, { '&', TOK_OP }, { '!', TOK_OP },
            { '\\', TOK_OP }, { '^', TOK_OP },
            { '<', TOK_OP }, { '>', TOK_OP },
        };
        for (size_t k = 0; k < sizeof single / sizeof single[0]; k++) {
            if (single[k].c != (char)c)
                continue;
            tok->kind = single[k].k;
            advance(lx);
            if ((c == '<' || c == '>' || c == '!') && lx->i < lx->len &&
                (lx->s[lx->i] == '=' || (c == '<' && lx->s[lx->i] == '>')))
                advance(lx);
            tok->len = (size_t)(lx->s + lx->i - tok->start);
            if (tok->kind == TOK_PARAM)
                lx->nparams++;
            return 0;
        }
        if (c < 0x20 || c == 0x7F)
            sql_set_error(lx->err, "42000", tok->position,
                          "unexpected character 0x%02X", (unsigned)c);
        else
            sql_set_error(lx->err, "42000", tok->position,
                          "unexpected character '%c'", c);
        return -1;
    }
    }
    if (tok->kind == TOK_QIDENT && tok->text[0] == '\0') {
        sql_set_error(lx->err, "42000", tok->position,
                      "empty quoted identifier");
        return -1;
    }
    return 0;
}
