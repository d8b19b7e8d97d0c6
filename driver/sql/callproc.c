/*
 * callproc.c - {call name(args)} of a saved query, rewritten to its SELECT.
 *
 * Grammar accepted (ODBC "procedure call" escape, and the bare form):
 *   '{' [ '?' '=' ] CALL name [ '(' [arg {',' arg}] ')' ] '}'
 *   CALL name [ '(' ... ')' ]
 * name: a bare word, [bracketed], "quoted" or `quoted`. An arg is '?' or
 * any text up to the next top-level ',' or ')' (strings and parentheses
 * nest). The return value marker '?=' is accepted and ignored (a query
 * returns rows, not a value).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callproc.h"
#include "savedquery.h"

#define MAX_ARGS 256

static int fail(sql_error *err, const char *state, size_t pos,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(sql_error *err, const char *state, size_t pos,
                const char *fmt, ...)
{
    va_list ap;
    memset(err, 0, sizeof *err);
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", state);
    err->position = pos;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int nomem(sql_error *err)
{
    memset(err, 0, sizeof *err);
    sql_set_nomem(err, 0);
    return -1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* A cursor over the statement text. */
typedef struct cur {
    const char *p, *end, *start;
} cur;

static void skip_ws(cur *c)
{
    while (c->p < c->end && is_space(*c->p))
        c->p++;
}

static bool eat(cur *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool eat_word(cur *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) < n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char x = c->p[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x + 32);
        if (x != w[i])
            return false;
    }
    if (c->p + n < c->end && word_char((unsigned char)c->p[n]))
        return false;
    c->p += n;
    return true;
}

static size_t pos_of(const cur *c)
{
    return (size_t)(c->p - c->start) + 1;
}

void sql_call_free(sql_call *c)
{
    free(c->sql);
    free(c->map);
    free(c->name);
    memset(c, 0, sizeof *c);
}

int sql_call_parse(sql_call *out, jet_db *db, const char *text, size_t len,
                   sql_error *err)
{
    cur c = {text, text + len, text};
    char name[256];
    const char *args[MAX_ARGS];
    char *argbuf = NULL;
    size_t nargs = 0, *appidx = NULL;
    bool brace;
    int rc = -1;

    memset(out, 0, sizeof *out);
    brace = eat(&c, '{');
    if (brace && eat(&c, '?') && !eat(&c, '='))
        return fail(err, "42000", pos_of(&c), "'=' expected after '{?' "
                    "in a procedure call");
    if (!eat_word(&c, "call") &&
        (brace || !(eat_word(&c, "execute") || eat_word(&c, "exec"))))
        return brace ? fail(err, "42000", pos_of(&c), "CALL expected after "
                            "'{'") : 0;
    /* the procedure's name */
    skip_ws(&c);
    size_t nlen = 0;
    if (c.p < c.end && (*c.p == '[' || *c.p == '"' || *c.p == '`')) {
        char close = *c.p == '[' ? ']' : *c.p;
        const char *s = ++c.p;
        while (c.p < c.end && *c.p != close)
            c.p++;
        if (c.p == c.end)
            return fail(err, "42000", pos_of(&c), "unterminated procedure "
                        "name");
        nlen = (size_t)(c.p - s);
        if (nlen >= sizeof name)
            return fail(err, "42000", pos_of(&c), "procedure name too long");
        memcpy(name, s, nlen);
        c.p++;
    } else {
        const char *s = c.p;
        while (c.p < c.end && word_char((unsigned char)*c.p))
            c.p++;
        nlen = (size_t)(c.p - s);
        if (nlen == 0 || nlen >= sizeof name)
            return fail(err, "42000", pos_of(&c), "procedure name expected");
        memcpy(name, s, nlen);
    }
    name[nlen] = '\0';
    /* the arguments, copied NUL-terminated into argbuf */
    argbuf = malloc(len + 1);
    if (!argbuf)
        return nomem(err);
    char *ab = argbuf;
    if (eat(&c, '(')) {
        skip_ws(&c);
        if (c.p < c.end && *c.p == ')') {
            c.p++;
        } else {
            for (;;) {
                skip_ws(&c);
                const char *s = c.p;
                int depth = 0;
                while (c.p < c.end) {
                    char ch = *c.p;
                    if (ch == '\'' || ch == '"' || ch == '#') {
                        c.p++;
                        while (c.p < c.end && *c.p != ch)
                            c.p++;
                        if (c.p < c.end)
                            c.p++;
                        continue;
                    }
                    if (ch == '(')
                        depth++;
                    else if (ch == ')' && depth-- == 0)
                        break;
                    else if (ch == ',' && depth == 0)
                        break;
                    c.p++;
                }
                const char *e = c.p;
                while (e > s && is_space(e[-1]))
                    e--;
                if (e == s) {
                    rc = fail(err, "42000", pos_of(&c), "empty argument in "
                              "the call of '%s'", name);
                    goto out;
                }
                if (nargs == MAX_ARGS) {
                    rc = fail(err, "07002", pos_of(&c), "too many arguments "
                              "in the call of '%s'", name);
                    goto out;
                }
                memcpy(ab, s, (size_t)(e - s));
                ab[e - s] = '\0';
                args[nargs++] = ab;
                ab += (e - s) + 1;
                if (c.p == c.end) {
                    rc = fail(err, "42000", pos_of(&c), "')' expected in the "
                              "call of '%s'", name);
                    goto out;
                }
                if (*c.p++ == ')')
                    break;
            }
        }
    }
    if (brace && !eat(&c, '}')) {
        rc = fail(err, "42000", pos_of(&c), "'}' expected to end the call "
                  "of '%s'", name);
        goto out;
    }
    eat(&c, ';');
    skip_ws(&c);
    if (c.p != c.end) {
        rc = fail(err, "42000", pos_of(&c), "text after the call of '%s'",
                  name);
        goto out;
    }
    /* the saved query and its declared parameters */
    const jet_object *o = jet_catalog_find_query(db, name);
    const jet_query *q = NULL;
    if (!o || jet_query_load(&q, db, o) != JET_OK) {
        rc = fail(err, "42S02", 0, "no saved query named '%s' to call",
                  name);
        goto out;
    }
    sql_saved_kind kind = sql_saved_kind_of(q);
    bool action = kind == SQL_SAVED_APPEND || kind == SQL_SAVED_UPDATE ||
                  kind == SQL_SAVED_DELETE;
    if (action && jet_db_version(db) == JET_VER_3) {
        /* the file can never take the write: say that before counting
         * the call's arguments (dml_exec.c's refusal, the same text) */
        rc = fail(err, "HYC00", 0, "Optional feature not implemented: "
                  "Access 97 files are read-only ('%s' is %s query)",
                  o->name, kind == SQL_SAVED_APPEND ? "an append"
                  : kind == SQL_SAVED_UPDATE ? "an update" : "a delete");
        goto out;
    }
    if (kind != SQL_SAVED_SELECT && kind != SQL_SAVED_UNION && !action) {
        /* a make-table, DDL or pass-through query does not run whatever
         * its arguments: say that (HYC00) before counting them */
        if (sql_saved_exec_text_args(&out->sql, &out->map, &out->nmarks, q,
                                     NULL, err) == 0) {
            free(out->sql);
            free(out->map);
            out->sql = NULL;
            out->map = NULL;
            rc = fail(err, "HYC00", 0, "'%s' does not run", o->name);
        }
        goto out;
    }
    /* declared parameters and form references, which Access asks for
     * alike */
    sql_saved_param *params = NULL;
    size_t np = 0;
    if (sql_saved_param_list(&params, &np, q, err) != 0)
        goto out;
    sql_saved_free_params(params, np);
    if (nargs != np) {
        rc = fail(err, "07002", 0, "'%s' takes %zu parameter%s; the call "
                  "gives %zu (too %s parameters)", o->name, np,
                  np == 1 ? "" : "s", nargs, nargs < np ? "few" : "many");
        goto out;
    }
    const char *lit[MAX_ARGS];
    appidx = calloc(np ? np : 1, sizeof *appidx);
    if (!appidx) {
        rc = nomem(err);
        goto out;
    }
    for (size_t j = 0; j < np; j++) {
        bool marker = strcmp(args[j], "?") == 0;
        lit[j] = marker ? NULL : args[j];
        if (marker)
            appidx[j] = out->nargs++;
    }
    if ((action ? sql_saved_action_text_args(&out->sql, &out->map,
                                             &out->nmarks, q,
                                             np ? lit : NULL, err)
                : sql_saved_exec_text_args(&out->sql, &out->map,
                                           &out->nmarks, q,
                                           np ? lit : NULL, err)) != 0)
        goto out;
    for (size_t k = 0; k < out->nmarks; k++)
        out->map[k] = appidx[out->map[k]];
    if (!(out->name = strdup(o->name))) {
        rc = nomem(err);
        goto out;
    }
    rc = 1;
out:
    free(appidx);
    free(argbuf);
    if (rc != 1)
        sql_call_free(out);
    return rc;
}
