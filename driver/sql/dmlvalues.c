/*
 * dmlvalues.c - Access's statements on the values of a complex field
 * (statement.h sql_dml_values_rewrite): a multi-value field's c.Value
 * and the rows of an attachment field, rewritten into statements on the
 * field's values table (core/complex.c), which dml.c then runs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "statement.h"
#include "write.h"

/* ------------------------------------------------- multi-value values */

/* Access's statements on the values of a multi-value field (c.Value),
 * rewritten into statements on the field's values table (complex.c),
 * joined to the table on the row's complex id:
 *   INSERT INTO t (c.Value) VALUES (e) [WHERE w]
 *     -> INSERT INTO [flat] ([fk], [value]) SELECT [t].[c], e' FROM [t]
 *        [WHERE w']
 *   UPDATE t SET [t.]c.Value = e [WHERE w]
 *     -> UPDATE [flat] AS [mv_] SET [mv_].[value] = e' WHERE EXISTS
 *        (SELECT 1 FROM [t] WHERE [t].[c] = [mv_].[fk] [AND (w')])
 *   DELETE [t.]c.Value FROM t [WHERE w]
 *     -> DELETE FROM [flat] AS [mv_] WHERE EXISTS (...as UPDATE's)
 * where e', w' read [t.]c.Value as [mv_].[value] ([t].[c] for INSERT's,
 * which has no value row yet: a c.Value there is refused). The flat
 * table's unique index on (id, value) refuses a value a row holds
 * already (23000), as Access does. An attachment field's rows:
 *   DELETE [t.]c.X FROM t [WHERE w]   (X one of its fields: FileName, ..)
 *     -> DELETE as c.Value's, w' reading [t.]c.Y as [mv_].[Y]
 * (DELETE [t.]f FROM t of any other field is an ordinary DELETE, passed
 * on). c.Value of an attachment is an unknown field (42S22); adding or
 * changing attachments, a version history's values and any other shape
 * of statement naming c.Value are refused (HYC00). */

#define MV_TOKS 4096

/* Whether token k is a name (bare or bracketed) equal to w (w NULL:
 * any name). */
static bool mv_name(const sql_token *tk, size_t n, size_t k, const char *w)
{
    if (k >= n || (tk[k].kind != TOK_IDENT && tk[k].kind != TOK_QIDENT))
        return false;
    return !w || (tk[k].text && !strcasecmp(tk[k].text, w));
}

/* Append len bytes of s to the growing buffer *b. */
static int mv_put(char **b, size_t *n, size_t *cap, const char *s,
                  size_t len)
{
    if (*n + len + 1 > *cap) {
        size_t nc = (*n + len + 1) * 2;
        char *p = realloc(*b, nc);
        if (!p)
            return -1;
        *b = p;
        *cap = nc;
    }
    memcpy(*b + *n, s, len);
    *n += len;
    (*b)[*n] = '\0';
    return 0;
}

static int mv_puts(char **b, size_t *n, size_t *cap, const char *s)
{
    return mv_put(b, n, cap, s, strlen(s));
}

/* [name] (names with ']' are refused by the caller). */
static int mv_bracket(char **b, size_t *n, size_t *cap, const char *s)
{
    return mv_puts(b, n, cap, "[") || mv_puts(b, n, cap, s) ||
           mv_puts(b, n, cap, "]");
}

/* Text of tokens [from, to) with each [t.]c.Value replaced by repl, or
 * (repl NULL: an attachment field's rows) each [t.]c.X by [mv_].[X];
 * *hits counts the replacements. */
static int mv_span(char **b, size_t *n, size_t *cap, const char *text,
                   const sql_token *tk, size_t nt, size_t from, size_t to,
                   const char *t, const char *c, const char *repl,
                   size_t *hits)
{
    size_t k = from;
    while (k < to) {
        size_t len = 0;
        const char *sub = repl ? "Value" : NULL;
        if (mv_name(tk, nt, k, t) && k + 4 < nt &&
            tk[k + 1].kind == TOK_DOT && mv_name(tk, nt, k + 2, c) &&
            tk[k + 3].kind == TOK_DOT && mv_name(tk, nt, k + 4, sub))
            len = 5;
        else if (mv_name(tk, nt, k, c) && k + 2 < nt &&
                 tk[k + 1].kind == TOK_DOT &&
                 mv_name(tk, nt, k + 2, sub))
            len = 3;
        if (len && !repl && strchr(tk[k + len - 1].text, ']'))
            len = 0;        /* left as written: the parser refuses it */
        if (len) {
            if (mv_puts(b, n, cap, " ") ||
                (repl ? mv_puts(b, n, cap, repl)
                      : mv_puts(b, n, cap, "[mv_].") ||
                        mv_bracket(b, n, cap, tk[k + len - 1].text)) ||
                mv_puts(b, n, cap, " "))
                return -1;
            (*hits)++;
            k += len;
            continue;
        }
        const char *end = k + 1 < nt ? tk[k + 1].start
                                      : tk[k].start + tk[k].len;
        if (k + 1 == to)
            end = tk[k].start + tk[k].len;
        if (mv_put(b, n, cap, tk[k].start, (size_t)(end - tk[k].start)))
            return -1;
        k++;
    }
    (void)text;
    return 0;
}

/* Whether c names an attachment field of table t of db (false when
 * either cannot be read: the statement then reports it). */
static bool is_attachment(jet_db *db, const char *t, const char *c)
{
    const jet_object *obj = jet_catalog_find(db, t);
    const jet_tdef *td = NULL;
    const jet_complex_col *cols = NULL;
    size_t ncc = 0;
    if (!obj || obj->kind != JET_OBJ_TABLE ||
        jet_tdef_load(&td, db, obj) != JET_OK ||
        jet_complex_columns(db, td, &cols, &ncc) != JET_OK)
        return false;
    for (size_t i = 0; i < ncc; i++)
        if (!strcasecmp(td->cols[cols[i].col].name, c))
            return cols[i].kind == JET_COMPLEX_ATTACHMENT;
    return false;
}

int sql_dml_values_rewrite(char **out, jet_db *db, const char *text,
                           size_t len, sql_error *err)
{
    sql_arena arena = { NULL };
    sql_lexer lx;
    sql_token tk1, *tk = NULL;
    size_t nt = 0, k, tpos, cpos = 0, hits = 0, n = 0, cap = 0, mvat = 0;
    char *b = NULL;
    int rc = 0;
    sql_error lerr;

    *out = NULL;
    memset(&lerr, 0, sizeof lerr);
    /* only an INSERT, UPDATE or DELETE is ever rewritten or refused
     * here: any other statement goes on after its first token, without
     * the token array (a SELECT's prepare pays nothing for this pass) */
    sql_lexer_init(&lx, text, len, &arena, &lerr);
    if (sql_lex_next(&lx, &tk1) != 0 || tk1.kind != TOK_IDENT ||
        (tk1.kw != KW_INSERT && tk1.kw != KW_UPDATE &&
         tk1.kw != KW_DELETE)) {
        sql_arena_free(&arena);
        return 0;
    }
    tk = malloc(MV_TOKS * sizeof *tk);
    if (!tk) {
        sql_set_nomem(err, 0);
        return -1;
    }
    sql_lexer_init(&lx, text, len, &arena, &lerr);
    while (nt < MV_TOKS && sql_lex_next(&lx, &tk[nt]) == 0 &&
           tk[nt].kind != TOK_EOF)
        nt++;
    /* anything that is not a c.Value statement goes on unchanged (the
     * parser reports its own errors) */
    for (k = 0; k + 2 < nt && !mvat; k++)
        if (tk[k + 1].kind == TOK_DOT && mv_name(tk, nt, k + 2, "Value") &&
            mv_name(tk, nt, k, NULL))
            mvat = k + 1;
    /* DELETE [t.]c.X FROM t: an attachment field's rows when c is one
     * (else an ordinary DELETE naming a field, passed on unchanged) */
    bool maybe_plain = false;
    if (!mvat && nt > 5 && tk[0].kind == TOK_IDENT && tk[0].kw == KW_DELETE) {
        size_t d0 = mv_name(tk, nt, 1, NULL) && tk[2].kind == TOK_DOT &&
                    mv_name(tk, nt, 3, NULL) && tk[4].kind == TOK_DOT ? 3 : 1;
        if (d0 + 3 < nt && mv_name(tk, nt, d0, NULL) &&
            tk[d0 + 1].kind == TOK_DOT && mv_name(tk, nt, d0 + 2, NULL) &&
            tk[d0 + 3].kind == TOK_IDENT && tk[d0 + 3].kw == KW_FROM) {
            mvat = d0 + 1;
            maybe_plain = true;
        }
    }
    /* INSERT INTO t (c.X, ..) and UPDATE t SET [t.]c.X = ..: adding or
     * changing attachments (Access's own tools for that are DAO's
     * Recordset2 and LoadFromFile): refused, as not done here */
    if (!mvat && nt > 6 && tk[0].kind == TOK_IDENT &&
        (tk[0].kw == KW_INSERT || tk[0].kw == KW_UPDATE)) {
        size_t tt = tk[0].kw == KW_INSERT ? 2 : 1, c0 = tt + 2;
        bool form = tk[0].kw == KW_INSERT
                    ? mv_name(tk, nt, 1, "INTO") && mv_name(tk, nt, 2, NULL) &&
                      tk[3].kind == TOK_LPAREN
                    : mv_name(tk, nt, 1, NULL) && mv_name(tk, nt, 2, "SET");
        if (form && tk[0].kw == KW_UPDATE && mv_name(tk, nt, 3, tk[1].text) &&
            tk[4].kind == TOK_DOT)
            c0 = 5;
        if (form && c0 + 2 < nt && mv_name(tk, nt, c0, NULL) &&
            tk[c0 + 1].kind == TOK_DOT && mv_name(tk, nt, c0 + 2, NULL) &&
            is_attachment(db, tk[tt].text, tk[c0].text)) {
            sql_set_error(err, "HYC00", tk[c0].position, "not supported: "
                          "adding or changing attachments through SQL "
                          "(DELETE %s.FileName FROM %s [WHERE ..] deletes "
                          "them)", tk[c0].text, tk[tt].text);
            rc = -1;
            goto done;
        }
    }
    if (!mvat || nt == MV_TOKS || tk[0].kind != TOK_IDENT ||
        (tk[0].kw != KW_INSERT && tk[0].kw != KW_UPDATE &&
         tk[0].kw != KW_DELETE))
        goto done;
    if (tk[nt - 1].kind == TOK_SEMI)
        nt--;
    /* the table and the field */
    const char *t = NULL, *c = NULL;
    size_t where = nt;           /* WHERE's token, or nt */
    size_t e_from = 0, e_to = 0; /* INSERT/UPDATE: the value's tokens */
    const char *sub = "Value";   /* DELETE: c.Value, or c.X of an
                                    attachment field */
    if (tk[0].kw == KW_INSERT) {
        /* INSERT INTO t ( c . Value ) VALUES ( e ) [WHERE w] */
        if (!(mv_name(tk, nt, 1, "INTO") && mv_name(tk, nt, 2, NULL) &&
              tk[3].kind == TOK_LPAREN && mv_name(tk, nt, 4, NULL) &&
              tk[5].kind == TOK_DOT && mv_name(tk, nt, 6, "Value") &&
              tk[7].kind == TOK_RPAREN && mv_name(tk, nt, 8, "VALUES") &&
              tk[9].kind == TOK_LPAREN))
            goto shape;
        t = tk[2].text;
        c = tk[4].text;
        tpos = tk[2].position;
        cpos = tk[4].position;
        int depth = 0;
        for (k = 9; k < nt; k++) {
            if (tk[k].kind == TOK_LPAREN)
                depth++;
            else if (tk[k].kind == TOK_RPAREN && --depth == 0)
                break;
            else if (tk[k].kind == TOK_COMMA && depth == 1)
                goto shape;
        }
        if (k >= nt)
            goto shape;
        e_from = 10;
        e_to = k;
        if (k + 1 < nt) {
            if (!(tk[k + 1].kind == TOK_IDENT && tk[k + 1].kw == KW_WHERE))
                goto shape;
            where = k + 1;
        }
    } else if (tk[0].kw == KW_UPDATE) {
        /* UPDATE t SET [t.]c.Value = e [WHERE w] */
        size_t s0 = 3;
        if (!(mv_name(tk, nt, 1, NULL) && mv_name(tk, nt, 2, "SET")))
            goto shape;
        t = tk[1].text;
        tpos = tk[1].position;
        if (mv_name(tk, nt, 3, t) && tk[4].kind == TOK_DOT &&
            mv_name(tk, nt, 5, NULL) && tk[6].kind == TOK_DOT)
            s0 = 5;
        if (!(mv_name(tk, nt, s0, NULL) && tk[s0 + 1].kind == TOK_DOT &&
              mv_name(tk, nt, s0 + 2, "Value") && s0 + 3 < nt &&
              tk[s0 + 3].kind == TOK_OP && tk[s0 + 3].len == 1 &&
              tk[s0 + 3].start[0] == '='))
            goto shape;
        c = tk[s0].text;
        cpos = tk[s0].position;
        e_from = s0 + 4;
        for (k = e_from; k < nt; k++) {
            if (tk[k].kind == TOK_IDENT && tk[k].kw == KW_WHERE)
                break;
            if (tk[k].kind == TOK_COMMA)
                goto shape;     /* other fields too */
        }
        e_to = k;
        where = k;
    } else {
        /* DELETE [t.]c.Value FROM t [WHERE w] */
        size_t s0 = 1;
        if (mv_name(tk, nt, 1, NULL) && tk[2].kind == TOK_DOT &&
            mv_name(tk, nt, 3, NULL) && tk[4].kind == TOK_DOT)
            s0 = 3;
        if (!(mv_name(tk, nt, s0, NULL) && tk[s0 + 1].kind == TOK_DOT &&
              mv_name(tk, nt, s0 + 2, NULL) && s0 + 4 < nt &&
              tk[s0 + 3].kind == TOK_IDENT && tk[s0 + 3].kw == KW_FROM &&
              mv_name(tk, nt, s0 + 4, NULL))) {
            if (maybe_plain)
                goto done;
            goto shape;
        }
        sub = tk[s0 + 2].text;
        c = tk[s0].text;
        cpos = tk[s0].position;
        t = tk[s0 + 4].text;
        tpos = tk[s0 + 4].position;
        /* another shape (an alias, a join): an attachment field's rows
         * are refused, never taken for the rows of t; any other field
         * names an ordinary DELETE */
        where = s0 + 5;
        if ((s0 == 3 && strcasecmp(tk[1].text, t)) ||
            (where < nt &&
             !(tk[where].kind == TOK_IDENT && tk[where].kw == KW_WHERE))) {
            if (maybe_plain && !is_attachment(db, t, c))
                goto done;
            goto shape;
        }
    }
    /* the field: a multi-value column of a table of this file */
    const jet_object *obj = jet_catalog_find(db, t);
    const jet_tdef *td = NULL;
    const jet_complex_col *cc = NULL, *cols = NULL;
    size_t ncc = 0;
    if (maybe_plain && (!obj || obj->kind != JET_OBJ_TABLE))
        goto done;
    if (!obj || obj->kind != JET_OBJ_TABLE) {
        sql_set_error(err, "42S02", tpos, "The database engine cannot find "
                      "the table '%s' (at character %zu)", t, tpos);
        rc = -1;
        goto done;
    }
    if (jet_tdef_load(&td, db, obj) != JET_OK ||
        jet_complex_columns(db, td, &cols, &ncc) != JET_OK) {
        const jet_error *je = jet_db_error(db);
        memset(err, 0, sizeof *err);
        err->rc = je->rc;
        err->pgno = je->pgno;
        snprintf(err->msg, sizeof err->msg, "%s", je->msg);
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < ncc; i++)
        if (!strcasecmp(td->cols[cols[i].col].name, c))
            cc = &cols[i];
    if (maybe_plain && (!cc || cc->kind != JET_COMPLEX_ATTACHMENT))
        goto done;          /* DELETE t.f FROM t: Access ignores the list */
    if (!cc) {
        sql_set_error(err, "42S22", cpos, "'%s.Value': '%s' is not a "
                      "multi-valued field of table '%s' (at character %zu)",
                      c, c, td->name, cpos);
        rc = -1;
        goto done;
    }
    const jet_tdef *ft = cc->flat;
    bool att = cc->kind == JET_COMPLEX_ATTACHMENT;
    if (att && !strcasecmp(sub, "Value")) {
        /* an attachment's fields are FileData, FileName, FileType, ...:
         * it has no Value (Access: an unknown field name) */
        sql_set_error(err, "42S22", cpos, "Unknown field name: '%s.Value' "
                      "('%s' is an attachment field: its fields are "
                      "FileData, FileName, FileType, FileURL, "
                      "FileTimeStamp and FileFlags) (at character %zu)", c,
                      c, cpos);
        rc = -1;
        goto done;
    }
    if (!att && cc->kind != JET_COMPLEX_MULTI) {
        sql_set_error(err, "HYC00", cpos, "not supported: '%s' is a version "
                      "history; its values are written by writing its "
                      "Memo and by deleting their row", c);
        rc = -1;
        goto done;
    }
    if (strcasecmp(sub, "Value")) {
        /* c.X: X one of the attachment's fields, never its row's id */
        int x = jet_tdef_find_column(ft, sub);
        if (!att || x < 0 || x == (int)cc->fk_col) {
            sql_set_error(err, "42S22", cpos, "Unknown field name: "
                          "'%s.%s' (at character %zu)", c, sub, cpos);
            rc = -1;
            goto done;
        }
    }
    const char *fk = ft->cols[cc->fk_col].name;
    const char *vc = ft->cols[cc->value_col].name;
    if (strchr(ft->name, ']') || strchr(fk, ']') || strchr(vc, ']') ||
        strchr(td->name, ']') || strchr(td->cols[cc->col].name, ']'))
        goto shape;
    char repl[600], tcol[600];
    snprintf(repl, sizeof repl, "[mv_].[%s]", vc);
    snprintf(tcol, sizeof tcol, "[%s].[%s]", td->name,
             td->cols[cc->col].name);
    bool fail = false;
    if (tk[0].kw == KW_INSERT) {
        size_t before = hits;
        fail = mv_puts(&b, &n, &cap, "INSERT INTO ") ||
               mv_bracket(&b, &n, &cap, ft->name) ||
               mv_puts(&b, &n, &cap, " (") ||
               mv_bracket(&b, &n, &cap, fk) || mv_puts(&b, &n, &cap, ", ") ||
               mv_bracket(&b, &n, &cap, vc) ||
               mv_puts(&b, &n, &cap, ") SELECT ") ||
               mv_puts(&b, &n, &cap, tcol) || mv_puts(&b, &n, &cap, ", ") ||
               mv_span(&b, &n, &cap, text, tk, nt, e_from, e_to, t, c, repl,
                       &hits) ||
               mv_puts(&b, &n, &cap, " FROM ") ||
               mv_bracket(&b, &n, &cap, td->name) ||
               (where < nt &&
                (mv_puts(&b, &n, &cap, " ") ||
                 mv_span(&b, &n, &cap, text, tk, nt, where, nt, t, c, repl,
                         &hits)));
        if (!fail && hits != before) {
            sql_set_error(err, "HYC00", cpos, "not supported: '%s.Value' "
                          "read by an INSERT of its values", c);
            rc = -1;
            goto done;
        }
    } else {
        /* the values whose row the WHERE picks: a correlated EXISTS keeps
         * the values table the statement's only (driving) table */
        if (tk[0].kw == KW_UPDATE)
            fail = mv_puts(&b, &n, &cap, "UPDATE ") ||
                   mv_bracket(&b, &n, &cap, ft->name) ||
                   mv_puts(&b, &n, &cap, " AS [mv_] SET ") ||
                   mv_puts(&b, &n, &cap, repl) ||
                   mv_puts(&b, &n, &cap, " = ") ||
                   mv_span(&b, &n, &cap, text, tk, nt, e_from, e_to, t, c,
                           repl, &hits);
        else
            fail = mv_puts(&b, &n, &cap, "DELETE FROM ") ||
                   mv_bracket(&b, &n, &cap, ft->name) ||
                   mv_puts(&b, &n, &cap, " AS [mv_]");
        fail = fail || mv_puts(&b, &n, &cap, " WHERE EXISTS (SELECT 1 "
                               "FROM ") ||
               mv_bracket(&b, &n, &cap, td->name) ||
               mv_puts(&b, &n, &cap, " WHERE ") ||
               mv_puts(&b, &n, &cap, tcol) ||
               mv_puts(&b, &n, &cap, " = [mv_].") ||
               mv_bracket(&b, &n, &cap, fk) ||
               (where < nt &&
                (mv_puts(&b, &n, &cap, " AND (") ||
                 mv_span(&b, &n, &cap, text, tk, nt, where + 1, nt, t, c,
                         att ? NULL : repl, &hits) ||
                 mv_puts(&b, &n, &cap, ")"))) ||
               mv_puts(&b, &n, &cap, ")");
    }
    if (fail) {
        sql_set_nomem(err, 0);
        rc = -1;
        goto done;
    }
    *out = b;
    b = NULL;
    goto done;
shape:
    sql_set_error(err, "HYC00", tk[mvat].position, "not supported: this "
                  "form of statement on a multi-valued field's values "
                  "(INSERT INTO t (c.Value) VALUES (e) [WHERE ..], UPDATE "
                  "t SET c.Value = e [WHERE ..], DELETE c.Value FROM t "
                  "[WHERE ..] are, and DELETE c.FileName FROM t [WHERE ..] "
                  "for attachments)");
    rc = -1;
done:
    free(b);
    free(tk);
    sql_arena_free(&arena);
    return rc;
}
