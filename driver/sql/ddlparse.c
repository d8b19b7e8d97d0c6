/*
 * ddlparse.c - the parser of Access's DDL (issue 27): CREATE TABLE,
 * CREATE INDEX, DROP TABLE, DROP INDEX, ALTER TABLE ADD/ALTER/DROP
 * [COLUMN], ADD/DROP CONSTRAINT, and SELECT ... INTO as a statement of
 * its own (sql_internal.h sql_ddl). Grammar (Microsoft's "CREATE TABLE",
 * "CONSTRAINT clause", "CREATE INDEX", "ALTER TABLE" and "SQL data
 * types" pages of the Access SQL reference):
 *
 *   CREATE TABLE t (coldef | tabcons, ...)
 *   coldef:  name type [(n) | (p[, s]) | (seed, increment)] [NOT NULL]
 *            [WITH COMPRESSION | WITH COMP] [DEFAULT expr] [colcons]...
 *   colcons: [CONSTRAINT c] PRIMARY KEY | UNIQUE | NOT NULL |
 *            REFERENCES p [(a, ..)] [ON UPDATE CASCADE] [ON DELETE
 *            CASCADE | SET NULL]
 *   tabcons: [CONSTRAINT c] PRIMARY KEY (a, ..) | UNIQUE (a, ..) |
 *            NOT NULL (a, ..) | FOREIGN KEY [NO INDEX] (a, ..)
 *            REFERENCES p [(b, ..)] [ON ...]
 *   CREATE [UNIQUE] INDEX i ON t (a [ASC|DESC], ..) [WITH PRIMARY |
 *            DISALLOW NULL | IGNORE NULL]
 *   DROP TABLE t | DROP INDEX i ON t
 *   ALTER TABLE t ADD [COLUMN] coldef | ALTER [COLUMN] coldef |
 *            DROP [COLUMN] c | ADD tabcons | DROP CONSTRAINT c
 *
 * Type names resolve here (every synonym of the "SQL data types" and
 * "Equivalent ANSI SQL data types" tables); whether the file's version
 * can hold the type is ddl.c's question. TEXT, CHAR and the other
 * character names without a size are Text(255), as Microsoft's ODBC
 * driver (ANSI-89) makes them; MEMO and its synonyms are Memo. CHAR,
 * CHARACTER, NCHAR and NATIONAL CHAR[ACTER] (without VARYING) make a
 * fixed-length Text field, as Access's DDL does (its values padded with
 * spaces to the size; "Fixed Size" in Access's Database Documenter);
 * TEXT, VARCHAR, STRING, ALPHANUMERIC and the VARYING forms a
 * variable-length one.
 */
#include "config.h"

#include "parse_int.h"
#include "sql_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define T(p) sqlp_tok(p)

/* ------------------------------------------------------------ types */

typedef struct type_name {
    const char *name;
    jet_type type;
    char args;              /* 'n' size, 'p' precision[, scale], 's'
                               seed, increment (COUNTER), 0 none */
    bool autonumber;
    bool fixed;             /* fixed-length Text (CHAR, CHARACTER, NCHAR) */
} type_name;

/* Every type name and synonym of Access SQL (one word each; the
 * two-word ANSI names are read by two_word_type below). */
static const type_name type_names[] = {
    { "TEXT", JET_T_TEXT, 'n', false, false },
    { "CHAR", JET_T_TEXT, 'n', false, true },
    { "CHARACTER", JET_T_TEXT, 'n', false, true },
    { "VARCHAR", JET_T_TEXT, 'n', false, false },
    { "NCHAR", JET_T_TEXT, 'n', false, true },
    { "NVARCHAR", JET_T_TEXT, 'n', false, false },
    { "STRING", JET_T_TEXT, 'n', false, false },
    { "ALPHANUMERIC", JET_T_TEXT, 'n', false, false },
    { "MEMO", JET_T_MEMO, 0, false, false },
    { "LONGTEXT", JET_T_MEMO, 0, false, false },
    { "LONGCHAR", JET_T_MEMO, 0, false, false },
    { "NOTE", JET_T_MEMO, 0, false, false },
    { "NTEXT", JET_T_MEMO, 0, false, false },
    { "BYTE", JET_T_BYTE, 0, false, false },
    { "TINYINT", JET_T_BYTE, 0, false, false },
    { "INTEGER1", JET_T_BYTE, 0, false, false },
    { "SHORT", JET_T_INT, 0, false, false },
    { "SMALLINT", JET_T_INT, 0, false, false },
    { "INTEGER2", JET_T_INT, 0, false, false },
    { "LONG", JET_T_LONG, 0, false, false },
    { "INT", JET_T_LONG, 0, false, false },
    { "INTEGER", JET_T_LONG, 0, false, false },
    { "INTEGER4", JET_T_LONG, 0, false, false },
    { "SINGLE", JET_T_FLOAT, 0, false, false },
    { "REAL", JET_T_FLOAT, 0, false, false },
    { "FLOAT4", JET_T_FLOAT, 0, false, false },
    { "IEEESINGLE", JET_T_FLOAT, 0, false, false },
    { "DOUBLE", JET_T_DOUBLE, 0, false, false },
    { "FLOAT", JET_T_DOUBLE, 0, false, false },
    { "FLOAT8", JET_T_DOUBLE, 0, false, false },
    { "IEEEDOUBLE", JET_T_DOUBLE, 0, false, false },
    { "NUMBER", JET_T_DOUBLE, 0, false, false },
    { "CURRENCY", JET_T_MONEY, 0, false, false },
    { "MONEY", JET_T_MONEY, 0, false, false },
    { "DECIMAL", JET_T_NUMERIC, 'p', false, false },
    { "NUMERIC", JET_T_NUMERIC, 'p', false, false },
    { "DEC", JET_T_NUMERIC, 'p', false, false },
    { "DATETIME", JET_T_DATETIME, 0, false, false },
    { "DATE", JET_T_DATETIME, 0, false, false },
    { "TIME", JET_T_DATETIME, 0, false, false },
    { "TIMESTAMP", JET_T_DATETIME, 0, false, false },
    { "YESNO", JET_T_BOOL, 0, false, false },
    { "BIT", JET_T_BOOL, 0, false, false },
    { "LOGICAL", JET_T_BOOL, 0, false, false },
    { "LOGICAL1", JET_T_BOOL, 0, false, false },
    { "BOOLEAN", JET_T_BOOL, 0, false, false },
    { "GUID", JET_T_GUID, 0, false, false },
    { "UNIQUEIDENTIFIER", JET_T_GUID, 0, false, false },
    { "BINARY", JET_T_BINARY, 'n', false, false },
    { "VARBINARY", JET_T_BINARY, 'n', false, false },
    { "LONGBINARY", JET_T_OLE, 0, false, false },
    { "OLEOBJECT", JET_T_OLE, 0, false, false },
    { "IMAGE", JET_T_OLE, 0, false, false },
    { "GENERAL", JET_T_OLE, 0, false, false },
    { "COUNTER", JET_T_LONG, 's', true, false },
    { "AUTOINCREMENT", JET_T_LONG, 's', true, false },
    { "BIGINT", JET_T_BIGINT, 0, false, false },
};

static const type_name *find_type(const parser *p)
{
    if (T(p)->kind != TOK_IDENT || T(p)->kw != KW_NONE)
        return NULL;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (sqlp_is_word(p, type_names[i].name))
            return &type_names[i];
    return NULL;
}

/* A whole number, optionally signed, at the current token: 0 and *out,
 * or -1 (42000, what says what was expected). */
static int whole_number(parser *p, const char *what, int64_t lo, int64_t hi,
                        int64_t *out)
{
    bool neg = false;
    if (T(p)->kind == TOK_OP && T(p)->len == 1 &&
        (T(p)->start[0] == '-' || T(p)->start[0] == '+')) {
        neg = T(p)->start[0] == '-';
        if (sqlp_next(p) != 0)
            return -1;
    }
    if (T(p)->kind != TOK_NUMBER)
        return sqlp_syntax(p, what);
    int64_t v = 0;
    for (size_t i = 0; i < T(p)->len; i++) {
        char c = T(p)->start[i];
        if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10)
            return sqlp_syntax(p, what);
        v = v * 10 + (c - '0');
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi)
        return sqlp_syntax(p, what);
    *out = v;
    return sqlp_next(p);
}

static int expect(parser *p, sql_tok_kind kind, const char *msg)
{
    if (T(p)->kind != kind)
        return sqlp_syntax(p, msg);
    return sqlp_next(p);
}

/* The word after a type name that makes it a two-word ANSI name:
 * DOUBLE PRECISION, CHARACTER VARYING, NCHAR VARYING, NATIONAL CHAR[ACTER]
 * [VARYING], BINARY VARYING, BIT VARYING. 0 with *t possibly changed. */
static int two_word_type(parser *p, const type_name **t)
{
    static const type_name text = { "TEXT", JET_T_TEXT, 'n', false,
                                    false };
    static const type_name nchar = { "NCHAR", JET_T_TEXT, 'n', false,
                                     true };
    static const type_name binary = { "BINARY", JET_T_BINARY, 'n', false,
                                      false };
    if (!*t) {
        if (!sqlp_is_word(p, "NATIONAL"))
            return 0;
        if (sqlp_next(p) != 0)
            return -1;
        if (!sqlp_is_word(p, "CHAR") && !sqlp_is_word(p, "CHARACTER"))
            return sqlp_syntax(p, "expected CHAR or CHARACTER after "
                               "NATIONAL");
        *t = &nchar;
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_word(p, "VARYING")) {
            *t = &text;
            return sqlp_next(p);
        }
        return 0;
    }
    const char *n = (*t)->name;
    if (sqlp_next(p) != 0)
        return -1;
    if (!strcmp(n, "DOUBLE") && sqlp_is_word(p, "PRECISION"))
        return sqlp_next(p);
    if ((!strcmp(n, "CHARACTER") || !strcmp(n, "CHAR") ||
         !strcmp(n, "NCHAR")) && sqlp_is_word(p, "VARYING")) {
        *t = &text;
        return sqlp_next(p);
    }
    if ((!strcmp(n, "BINARY") || !strcmp(n, "BIT")) &&
        sqlp_is_word(p, "VARYING")) {
        *t = &binary;
        return sqlp_next(p);
    }
    return 0;
}

/* type [(n) | (p[, s]) | (seed, increment)] at the current token. */
static int parse_type(parser *p, sql_ddl_type *ty)
{
    memset(ty, 0, sizeof *ty);
    ty->position = T(p)->position;
    const type_name *t = find_type(p);
    if (!t && !sqlp_is_word(p, "NATIONAL"))
        return sqlp_syntax(p, "Syntax error in field definition: expected "
                           "a data type");
    if (two_word_type(p, &t) != 0)
        return -1;
    ty->type = t->type;
    ty->autonumber = t->autonumber;
    ty->fixed = t->fixed;
    if (T(p)->kind != TOK_LPAREN)
        return 0;
    if (!t->args)
        return sqlp_syntax(p, "Syntax error in field definition: this data "
                           "type takes no size");
    if (sqlp_next(p) != 0)
        return -1;
    int64_t a, b = 0;
    switch (t->args) {
    case 'n':
        if (whole_number(p, "expected the field's size (1 to 255)", 1, 255,
                         &a) != 0)
            return -1;
        ty->has_size = true;
        ty->size = (uint32_t)a;
        break;
    case 'p':
        if (whole_number(p, "expected the precision (1 to 28)", 1, 28,
                         &a) != 0)
            return -1;
        if (T(p)->kind == TOK_COMMA) {
            if (sqlp_next(p) != 0 ||
                whole_number(p, "expected the scale (0 to the precision)",
                             0, a, &b) != 0)
                return -1;
        }
        ty->has_size = true;
        ty->precision = (uint8_t)a;
        ty->scale = (uint8_t)b;
        break;
    default:            /* COUNTER(seed, increment) */
        if (whole_number(p, "expected the AutoNumber's seed", INT32_MIN,
                         INT32_MAX, &a) != 0)
            return -1;
        if (expect(p, TOK_COMMA, "expected ',' and the AutoNumber's "
                   "increment") != 0 ||
            whole_number(p, "expected the AutoNumber's increment",
                         INT32_MIN, INT32_MAX, &b) != 0)
            return -1;
        if (b == 0)
            return sqlp_syntax(p, "the AutoNumber's increment cannot be 0");
        ty->has_seed = true;
        ty->seed = a;
        ty->increment = b;
        break;
    }
    return expect(p, TOK_RPAREN, "expected ')' after the data type's size");
}

/* ---------------------------------------------------- names, lists */

static int name_at(parser *p, const char *what, const char **out,
                   size_t *pos)
{
    if (!sqlp_name_here(p))
        return sqlp_syntax(p, what);
    *out = T(p)->text;
    if (pos)
        *pos = T(p)->position;
    return sqlp_next(p);
}

/* (a [ASC|DESC], ...) at the current '(': into c->cols (with_order:
 * ASC/DESC allowed, else 42000). */
static int key_list(parser *p, sql_ddl_cons *c, bool with_order)
{
    if (T(p)->kind != TOK_LPAREN)
        return sqlp_syntax(p, "expected '(' and the list of fields");
    if (sqlp_next(p) != 0)
        return -1;
    size_t cap = 0, pcap = 0, dcap = 0;
    for (;;) {
        void *a = c->cols, *b = c->col_pos, *d = c->desc;
        if (sqlp_reserve(p, &a, &cap, c->ncols, sizeof *c->cols) != 0 ||
            sqlp_reserve(p, &b, &pcap, c->ncols, sizeof *c->col_pos) != 0 ||
            sqlp_reserve(p, &d, &dcap, c->ncols, sizeof *c->desc) != 0)
            return -1;
        c->cols = a;
        c->col_pos = b;
        c->desc = d;
        c->desc[c->ncols] = false;
        if (name_at(p, "expected a field name", &c->cols[c->ncols],
                    &c->col_pos[c->ncols]) != 0)
            return -1;
        if (sqlp_is_kw(p, KW_ASC) || sqlp_is_kw(p, KW_DESC)) {
            if (!with_order)
                return sqlp_syntax(p, "ASC/DESC belong to CREATE INDEX");
            c->desc[c->ncols] = sqlp_is_kw(p, KW_DESC);
            if (sqlp_next(p) != 0)
                return -1;
        }
        c->ncols++;
        if (T(p)->kind == TOK_RPAREN)
            return sqlp_next(p);
        if (T(p)->kind != TOK_COMMA)
            return sqlp_syntax(p, "expected ',' or ')' in the list of "
                               "fields");
        if (sqlp_next(p) != 0)
            return -1;
    }
}

/* A plain name list (REFERENCES p (a, b)) into *names / *n. */
static int name_list(parser *p, const char ***names, size_t *n)
{
    sql_ddl_cons tmp;
    memset(&tmp, 0, sizeof tmp);
    if (key_list(p, &tmp, false) != 0)
        return -1;
    *names = tmp.cols;
    *n = tmp.ncols;
    return 0;
}

/* REFERENCES p [(b, ..)] [ON UPDATE CASCADE|SET NULL] [ON DELETE
 * CASCADE|SET NULL], the current token REFERENCES. */
static int references(parser *p, sql_ddl_cons *c)
{
    if (sqlp_next(p) != 0)
        return -1;
    if (name_at(p, "expected the referenced table after REFERENCES",
                &c->parent, &c->parent_position) != 0)
        return -1;
    if (T(p)->kind == TOK_LPAREN && name_list(p, &c->refs, &c->nrefs) != 0)
        return -1;
    while (sqlp_is_kw(p, KW_ON)) {
        if (sqlp_next(p) != 0)
            return -1;
        bool upd = sqlp_is_kw(p, KW_UPDATE);
        size_t pos = T(p)->position;
        if (!upd && !sqlp_is_kw(p, KW_DELETE))
            return sqlp_syntax(p, "expected UPDATE or DELETE after ON");
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_word(p, "CASCADE")) {
            if (upd)
                c->cascade_update = true;
            else
                c->cascade_delete = true;
        } else if (sqlp_is_word(p, "SET")) {
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_kw(p, KW_NULL))
                return sqlp_syntax(p, "expected NULL after SET");
            if (upd) {
                c->update_set_null = true;
                if (!c->clause_position)
                    c->clause_position = pos;
            } else {
                c->delete_set_null = true;
            }
        } else if (sqlp_is_word(p, "NO")) {
            /* ON ... NO ACTION: what a relationship does without one */
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_word(p, "ACTION"))
                return sqlp_syntax(p, "expected ACTION after NO");
        } else {
            return sqlp_syntax(p, "expected CASCADE or SET NULL");
        }
        if (sqlp_next(p) != 0)
            return -1;
    }
    return 0;
}

/* A new constraint in d->cons. */
static sql_ddl_cons *new_cons(parser *p, sql_ddl *d, size_t *cap)
{
    void *a = d->cons;
    if (sqlp_reserve(p, &a, cap, d->ncons, sizeof *d->cons) != 0)
        return NULL;
    d->cons = a;
    sql_ddl_cons *c = &d->cons[d->ncons++];
    memset(c, 0, sizeof *c);
    return c;
}

/* [CONSTRAINT name] PRIMARY KEY (..) | UNIQUE (..) | NOT NULL (..) |
 * FOREIGN KEY [NO INDEX] (..) REFERENCES .., the current token CONSTRAINT
 * or the kind's word. */
static int table_constraint(parser *p, sql_ddl *d, size_t *cap)
{
    sql_ddl_cons *c = new_cons(p, d, cap);
    if (!c)
        return -1;
    c->position = T(p)->position;
    if (sqlp_is_word(p, "CONSTRAINT")) {
        if (sqlp_next(p) != 0 ||
            name_at(p, "expected the constraint's name", &c->name,
                    NULL) != 0)
            return -1;
    }
    if (sqlp_is_word(p, "PRIMARY")) {
        c->kind = SQL_CONS_PRIMARY;
        if (sqlp_next(p) != 0)
            return -1;
        if (!sqlp_is_word(p, "KEY"))
            return sqlp_syntax(p, "expected KEY after PRIMARY");
        if (sqlp_next(p) != 0)
            return -1;
        return key_list(p, c, false);
    }
    if (sqlp_is_word(p, "UNIQUE")) {
        c->kind = SQL_CONS_UNIQUE;
        return sqlp_next(p) != 0 ? -1 : key_list(p, c, false);
    }
    if (sqlp_is_kw(p, KW_NOT)) {
        c->kind = SQL_CONS_NOT_NULL;
        if (sqlp_next(p) != 0)
            return -1;
        if (!sqlp_is_kw(p, KW_NULL))
            return sqlp_syntax(p, "expected NULL after NOT");
        return sqlp_next(p) != 0 ? -1 : key_list(p, c, false);
    }
    if (sqlp_is_word(p, "FOREIGN")) {
        c->kind = SQL_CONS_FOREIGN;
        if (sqlp_next(p) != 0)
            return -1;
        if (!sqlp_is_word(p, "KEY"))
            return sqlp_syntax(p, "expected KEY after FOREIGN");
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_word(p, "NO")) {
            c->no_index = true;
            if (!c->clause_position)
                c->clause_position = T(p)->position;
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_word(p, "INDEX"))
                return sqlp_syntax(p, "expected INDEX after NO");
            if (sqlp_next(p) != 0)
                return -1;
        }
        if (key_list(p, c, false) != 0)
            return -1;
        if (!sqlp_is_word(p, "REFERENCES"))
            return sqlp_syntax(p, "expected REFERENCES");
        return references(p, c);
    }
    return sqlp_syntax(p, "expected PRIMARY KEY, UNIQUE, NOT NULL or "
                       "FOREIGN KEY");
}

/* Whether the current token starts a table constraint. */
static bool at_table_constraint(const parser *p)
{
    return sqlp_is_word(p, "CONSTRAINT") || sqlp_is_word(p, "PRIMARY") ||
           sqlp_is_word(p, "UNIQUE") || sqlp_is_word(p, "FOREIGN");
}

/* The single-column constraints after a column's type (colcons above):
 * each becomes a constraint on column col (NOT NULL sets the column's). */
static int column_constraints(parser *p, sql_ddl *d, size_t *ccap,
                              size_t col)
{
    for (;;) {
        sql_ddl_col *cd = &d->cols[col];
        const char *name = NULL;
        size_t pos = T(p)->position;
        if (sqlp_is_word(p, "CONSTRAINT")) {
            if (sqlp_next(p) != 0 ||
                name_at(p, "expected the constraint's name", &name,
                        NULL) != 0)
                return -1;
        } else if (!sqlp_is_word(p, "PRIMARY") &&
                   !sqlp_is_word(p, "UNIQUE") &&
                   !sqlp_is_word(p, "REFERENCES") &&
                   !sqlp_is_kw(p, KW_NOT)) {
            return 0;
        }
        if (sqlp_is_kw(p, KW_NOT)) {
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_kw(p, KW_NULL))
                return sqlp_syntax(p, "expected NULL after NOT");
            if (cd->not_null)
                return sqlp_syntax(p, "NOT NULL given twice for the field");
            cd->not_null = true;
            if (sqlp_next(p) != 0)
                return -1;
            continue;
        }
        sql_ddl_cons *c = new_cons(p, d, ccap);
        if (!c)
            return -1;
        c->name = name;
        c->position = pos;
        c->ncols = 1;
        c->cols = sql_arena_alloc(sqlp_arena(p), sizeof *c->cols);
        c->col_pos = sql_arena_alloc(sqlp_arena(p), sizeof *c->col_pos);
        c->desc = sql_arena_alloc(sqlp_arena(p), sizeof *c->desc);
        if (!c->cols || !c->col_pos || !c->desc)
            return sqlp_nomem(p);
        c->cols[0] = cd->name;
        c->col_pos[0] = cd->position;
        if (sqlp_is_word(p, "PRIMARY")) {
            c->kind = SQL_CONS_PRIMARY;
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_word(p, "KEY"))
                return sqlp_syntax(p, "expected KEY after PRIMARY");
            if (sqlp_next(p) != 0)
                return -1;
        } else if (sqlp_is_word(p, "UNIQUE")) {
            c->kind = SQL_CONS_UNIQUE;
            if (sqlp_next(p) != 0)
                return -1;
        } else if (sqlp_is_word(p, "REFERENCES")) {
            c->kind = SQL_CONS_FOREIGN;
            if (references(p, c) != 0)
                return -1;
        } else {
            return sqlp_syntax(p, "expected PRIMARY KEY, UNIQUE, NOT NULL "
                               "or REFERENCES after CONSTRAINT name");
        }
    }
}

/* Whether e may be a DefaultValue: no field, parameter or subquery. */
static bool default_ok(const sql_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_COLUMN: case EXPR_PARAM: case EXPR_SUBQUERY:
    case EXPR_EXISTS: case EXPR_QUANT:
        return false;
    default:
        break;
    }
    if (e->sub || !default_ok(e->a) || !default_ok(e->b) ||
        !default_ok(e->c))
        return false;
    for (size_t i = 0; i < e->nargs; i++)
        if (!default_ok(e->args[i]))
            return false;
    return true;
}

/* name type [...] [NOT NULL] [WITH COMP[RESSION]] [DEFAULT e] [colcons]
 * into a new d->cols entry. */
static int column_def(parser *p, sql_ddl *d, size_t *cap, size_t *ccap)
{
    void *a = d->cols;
    if (sqlp_reserve(p, &a, cap, d->ncols, sizeof *d->cols) != 0)
        return -1;
    d->cols = a;
    size_t k = d->ncols++;
    sql_ddl_col *c = &d->cols[k];
    memset(c, 0, sizeof *c);
    if (name_at(p, "expected a field name", &c->name, &c->position) != 0 ||
        parse_type(p, &c->type) != 0)
        return -1;
    for (;;) {
        c = &d->cols[k];
        if (sqlp_is_kw(p, KW_WITH)) {
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_word(p, "COMPRESSION") && !sqlp_is_word(p, "COMP"))
                return sqlp_syntax(p, "expected COMPRESSION after WITH");
            if (c->type.type != JET_T_TEXT && c->type.type != JET_T_MEMO)
                return sqlp_syntax(p, "WITH COMPRESSION is for text and "
                                   "memo fields only");
            c->compression = true;
            if (sqlp_next(p) != 0)
                return -1;
        } else if (sqlp_is_word(p, "DEFAULT")) {
            if (c->default_text)
                return sqlp_syntax(p, "DEFAULT given twice for the field");
            if (sqlp_next(p) != 0)
                return -1;
            const char *from = T(p)->start;
            c->default_position = T(p)->position;
            sql_expr *e;
            if (!from || sqlp_expr(p, &e) != 0)
                return !from ? sqlp_syntax(p, "expected the default value")
                             : -1;
            c = &d->cols[k];
            if (!default_ok(e)) {
                sql_set_error(p->err, "42000", c->default_position,
                              "Syntax error in field definition: a default "
                              "value cannot name a field, a parameter or "
                              "a query");
                return -1;
            }
            const char *to = T(p)->kind == TOK_EOF ? p->lx.s + p->lx.len
                                                    : T(p)->start;
            while (to > from && (to[-1] == ' ' || to[-1] == '\t' ||
                                 to[-1] == '\r' || to[-1] == '\n'))
                to--;
            c->default_expr = e;
            c->default_text = sql_arena_strndup(sqlp_arena(p), from,
                                                (size_t)(to - from));
            if (!c->default_text)
                return sqlp_nomem(p);
        } else if (sqlp_is_kw(p, KW_NOT) || sqlp_is_word(p, "CONSTRAINT") ||
                   sqlp_is_word(p, "PRIMARY") || sqlp_is_word(p, "UNIQUE") ||
                   sqlp_is_word(p, "REFERENCES")) {
            size_t before = d->ncons;
            bool nn = c->not_null;
            if (column_constraints(p, d, ccap, k) != 0)
                return -1;
            if (d->ncons == before && d->cols[k].not_null == nn)
                return 0;
        } else {
            return 0;
        }
    }
}

/* -------------------------------------------------------- statements */

/* CREATE TABLE t (...), the current token TABLE. */
static int create_table(parser *p, sql_ddl *d)
{
    d->op = SQL_DDL_CREATE_TABLE;
    if (sqlp_next(p) != 0 ||
        name_at(p, "expected the table's name after CREATE TABLE",
                &d->table, &d->table_position) != 0)
        return -1;
    if (T(p)->kind != TOK_LPAREN)
        return sqlp_syntax(p, "expected '(' and the table's fields");
    if (sqlp_next(p) != 0)
        return -1;
    size_t cap = 0, ccap = 0;
    for (;;) {
        if (at_table_constraint(p)) {
            if (table_constraint(p, d, &ccap) != 0)
                return -1;
        } else if (column_def(p, d, &cap, &ccap) != 0) {
            return -1;
        }
        if (T(p)->kind == TOK_RPAREN)
            break;
        if (T(p)->kind != TOK_COMMA)
            return sqlp_syntax(p, "Syntax error in field definition: "
                               "expected ',' or ')'");
        if (sqlp_next(p) != 0)
            return -1;
    }
    if (d->ncols == 0)
        return sqlp_syntax(p, "a table needs at least one field");
    if (sqlp_next(p) != 0)
        return -1;
    return sqlp_end(p);
}

/* CREATE [UNIQUE] INDEX i ON t (a [ASC|DESC], ..) [WITH PRIMARY |
 * DISALLOW NULL | IGNORE NULL], the current token INDEX. */
static int create_index(parser *p, sql_ddl *d, bool unique)
{
    d->op = SQL_DDL_CREATE_INDEX;
    size_t cap = 0;
    sql_ddl_cons *c = new_cons(p, d, &cap);
    if (!c)
        return -1;
    c->kind = unique ? SQL_CONS_UNIQUE : SQL_CONS_INDEX;
    if (sqlp_next(p) != 0)
        return -1;
    c->position = T(p)->position;
    if (name_at(p, "expected the index's name after INDEX", &c->name,
                NULL) != 0)
        return -1;
    if (!sqlp_is_kw(p, KW_ON))
        return sqlp_syntax(p, "expected ON and the table");
    if (sqlp_next(p) != 0 ||
        name_at(p, "expected the table's name after ON", &d->table,
                &d->table_position) != 0 ||
        key_list(p, c, true) != 0)
        return -1;
    if (sqlp_is_kw(p, KW_WITH)) {
        if (sqlp_next(p) != 0)
            return -1;
        for (bool first = true;; first = false) {
            if (sqlp_is_word(p, "PRIMARY")) {
                c->kind = SQL_CONS_PRIMARY;
            } else if (sqlp_is_word(p, "DISALLOW")) {
                if (sqlp_next(p) != 0)
                    return -1;
                if (!sqlp_is_kw(p, KW_NULL))
                    return sqlp_syntax(p, "expected NULL after DISALLOW");
                c->disallow_null = true;
            } else if (sqlp_is_word(p, "IGNORE")) {
                if (sqlp_next(p) != 0)
                    return -1;
                if (!sqlp_is_kw(p, KW_NULL))
                    return sqlp_syntax(p, "expected NULL after IGNORE");
                c->ignore_null = true;
            } else if (first) {
                return sqlp_syntax(p, "expected PRIMARY, DISALLOW NULL or "
                                   "IGNORE NULL after WITH");
            } else {
                break;
            }
            if (sqlp_next(p) != 0)
                return -1;
        }
    }
    return sqlp_end(p);
}

/* DROP TABLE t | DROP INDEX i ON t. */
static int parse_drop(parser *p, sql_ddl *d)
{
    if (sqlp_is_word(p, "TABLE")) {
        d->op = SQL_DDL_DROP_TABLE;
        if (sqlp_next(p) != 0 ||
            name_at(p, "expected the table's name after DROP TABLE",
                    &d->table, &d->table_position) != 0)
            return -1;
        return sqlp_end(p);
    }
    if (sqlp_is_word(p, "INDEX")) {
        d->op = SQL_DDL_DROP_INDEX;
        if (sqlp_next(p) != 0 ||
            name_at(p, "expected the index's name after DROP INDEX",
                    &d->name, &d->name_position) != 0)
            return -1;
        if (!sqlp_is_kw(p, KW_ON))
            return sqlp_syntax(p, "expected ON and the table");
        if (sqlp_next(p) != 0 ||
            name_at(p, "expected the table's name after ON", &d->table,
                    &d->table_position) != 0)
            return -1;
        return sqlp_end(p);
    }
    if (sqlp_is_word(p, "VIEW") || sqlp_is_word(p, "PROCEDURE") ||
        sqlp_is_word(p, "USER") || sqlp_is_word(p, "GROUP"))
        return sqlp_unsupported(p, "DROP VIEW, PROCEDURE, USER or GROUP");
    return sqlp_syntax(p, "expected TABLE or INDEX after DROP");
}

/* ALTER TABLE t ADD ... | ALTER ... | DROP ..., the current token TABLE. */
static int parse_alter(parser *p, sql_ddl *d)
{
    if (!sqlp_is_word(p, "TABLE"))
        return sqlp_syntax(p, "expected TABLE after ALTER");
    if (sqlp_next(p) != 0 ||
        name_at(p, "expected the table's name after ALTER TABLE", &d->table,
                &d->table_position) != 0)
        return -1;
    size_t cap = 0, ccap = 0;
    if (sqlp_is_word(p, "ADD")) {
        if (sqlp_next(p) != 0)
            return -1;
        if (at_table_constraint(p)) {
            d->op = SQL_DDL_ADD_CONSTRAINT;
            if (table_constraint(p, d, &ccap) != 0)
                return -1;
            return sqlp_end(p);
        }
        if (sqlp_is_word(p, "COLUMN") && sqlp_next(p) != 0)
            return -1;
        d->op = SQL_DDL_ADD_COLUMN;
        if (column_def(p, d, &cap, &ccap) != 0)
            return -1;
        return sqlp_end(p);
    }
    if (sqlp_is_kw(p, KW_ALTER)) {
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_word(p, "COLUMN") && sqlp_next(p) != 0)
            return -1;
        d->op = SQL_DDL_ALTER_COLUMN;
        if (column_def(p, d, &cap, &ccap) != 0)
            return -1;
        return sqlp_end(p);
    }
    if (sqlp_is_kw(p, KW_DROP)) {
        if (sqlp_next(p) != 0)
            return -1;
        if (sqlp_is_word(p, "CONSTRAINT")) {
            d->op = SQL_DDL_DROP_CONSTRAINT;
            if (sqlp_next(p) != 0)
                return -1;
        } else {
            d->op = SQL_DDL_DROP_COLUMN;
            if (sqlp_is_word(p, "COLUMN") && sqlp_next(p) != 0)
                return -1;
        }
        if (name_at(p, d->op == SQL_DDL_DROP_COLUMN
                           ? "expected the field to drop"
                           : "expected the constraint to drop",
                    &d->name, &d->name_position) != 0)
            return -1;
        return sqlp_end(p);
    }
    return sqlp_syntax(p, "expected ADD, ALTER or DROP after the table's "
                       "name");
}

static int ddl_body(parser *p, void *ctx)
{
    sql_ddl *d = ctx;
    if (sqlp_next(p) != 0)
        return -1;
    d->position = T(p)->position;
    sql_kw verb = T(p)->kw;
    if (sqlp_next(p) != 0)
        return -1;
    switch (verb) {
    case KW_CREATE:
        if (sqlp_is_word(p, "TABLE"))
            return create_table(p, d);
        if (sqlp_is_word(p, "INDEX"))
            return create_index(p, d, false);
        if (sqlp_is_word(p, "UNIQUE")) {
            if (sqlp_next(p) != 0)
                return -1;
            if (!sqlp_is_word(p, "INDEX"))
                return sqlp_syntax(p, "expected INDEX after CREATE UNIQUE");
            return create_index(p, d, true);
        }
        if (sqlp_is_word(p, "TEMPORARY"))
            return sqlp_unsupported(p, "CREATE TEMPORARY TABLE");
        if (sqlp_is_word(p, "VIEW") || sqlp_is_word(p, "PROCEDURE") ||
            sqlp_is_word(p, "USER") || sqlp_is_word(p, "GROUP"))
            return sqlp_unsupported(p, "CREATE VIEW, PROCEDURE, USER or "
                                    "GROUP");
        return sqlp_syntax(p, "expected TABLE or INDEX after CREATE");
    case KW_DROP:
        return parse_drop(p, d);
    default:
        return parse_alter(p, d);
    }
}

/* The statement's query part when it has no SELECT: SELECT 0 (no FROM),
 * which the engine plans like any query (ddl.c keeps it for the
 * statement's parameters: none). */
static int empty_query(sql_query *q, sql_error *err)
{
    sql_expr *zero = sql_arena_alloc(&q->arena, sizeof *zero);
    q->sel.items = sql_arena_alloc(&q->arena, sizeof *q->sel.items);
    if (!zero || !q->sel.items) {
        sql_set_nomem(err, 0);
        return -1;
    }
    zero->kind = EXPR_NUMBER;
    zero->text = "0";
    zero->position = q->position;
    q->sel.items[0].kind = SQL_ITEM_EXPR;
    q->sel.items[0].expr = zero;
    q->sel.items[0].position = q->position;
    q->sel.nitems = 1;
    q->no_from = true;
    return 0;
}

int sql_parse_ddl(sql_parsed *out, const char *text, size_t len,
                  sql_error *err)
{
    sql_ddl d;
    memset(&d, 0, sizeof d);
    sql_query *h;
    if (sqlp_run(&h, text, len, err, ddl_body, &d) != 0)
        return -1;
    h->position = d.position;
    sql_ddl *kept = sql_arena_alloc(&h->arena, sizeof *kept);
    if (!kept || empty_query(h, err) != 0) {
        sql_select_free(&h->sel);
        sql_set_nomem(err, 0);
        return -1;
    }
    *kept = d;
    kept->query = h;
    out->kind = SQL_KIND_DDL;
    out->verb = d.op == SQL_DDL_CREATE_TABLE || d.op == SQL_DDL_CREATE_INDEX
                    ? KW_CREATE
                    : d.op == SQL_DDL_DROP_TABLE || d.op == SQL_DDL_DROP_INDEX
                          ? KW_DROP : KW_ALTER;
    out->position = d.position;
    out->ddl = kept;
    out->query = h;
    return 0;
}

int sql_ddl_select_into(sql_parsed *out, const char *text, size_t len,
                        sql_error *err)
{
    sql_query *q = out->query;
    sql_ddl *d = sql_arena_alloc(&q->arena, sizeof *d);
    /* [PARAMETERS ..;] INSERT INTO [t] SELECT .. (INTO t cut out) */
    size_t tn = strlen(q->into);
    char *ins = d && q->body_from <= q->into_from && q->into_to <= len
                    ? sql_arena_alloc(&q->arena, len + tn + 32) : NULL;
    if (ins) {
        size_t k = 0;
        memcpy(ins, text, q->body_from);
        k = q->body_from;
        memcpy(ins + k, "INSERT INTO [", 13);
        k += 13;
        memcpy(ins + k, q->into, tn);
        k += tn;
        memcpy(ins + k, "] ", 2);
        k += 2;
        memcpy(ins + k, text + q->body_from, q->into_from - q->body_from);
        k += q->into_from - q->body_from;
        ins[k++] = ' ';
        memcpy(ins + k, text + q->into_to, len - q->into_to);
        k += len - q->into_to;
        ins[k] = '\0';
        d->insert_sql = ins;
    }
    if (!d || !ins) {
        sql_select_free(&q->sel);
        out->query = NULL;
        sql_set_nomem(err, 0);
        return -1;
    }
    d->op = SQL_DDL_SELECT_INTO;
    d->position = q->position;
    d->table = q->into;
    d->table_position = q->into_position;
    d->query = q;
    out->kind = SQL_KIND_DDL;
    out->verb = KW_SELECT;
    out->position = q->position;
    out->ddl = d;
    return 0;
}
