/*
 * parse_int.h - the parser's pieces: its state, and what parser.c
 * (statements, query blocks, FROM) and exprparse.c (expressions) give
 * each other and the DML statements' parser (dmlparse.c): the current
 * token, names, expressions, FROM chains and query blocks, with
 * parser.c's errors and bounds.
 */
#ifndef JET_DRIVER_SQL_PARSE_INT_H
#define JET_DRIVER_SQL_PARSE_INT_H

#include "sql_internal.h"

struct ahead_memo;

/** The parser's state (parser.c runs it; exprparse.c parses expressions
 *  with it; dmlparse.c reads it through the sqlp_ functions). */
typedef struct parser {
    sql_lexer lx;
    sql_token tok;          /* current token */
    sql_arena *arena;
    sql_error *err;
    unsigned depth;         /* parse_expr recursion, <= SQL_MAX_DEPTH */
    unsigned qdepth;        /* nested query blocks, <= SQL_MAX_QUERY_DEPTH */
    unsigned ntables;       /* FROM items of the whole statement */
    sql_query *q;           /* the query being built */
    size_t ndecl;           /* PARAMETERS declared: ? markers count after */
    const sql_param_decl *decl;
    struct ahead_memo *memo;    /* query_ahead's, for the text of lx
                                   (parser.c) */
    bool allow_into;        /* the statement's first SELECT may say INTO
                               (a make-table: SELECT ... INTO t FROM) */
} parser;

/** Parse text with body(p, ctx), the current token unread (body calls
 *  sqlp_next first): 0 and *out the statement's first block (owner of its
 *  arena; sel.nparams counted), or -1 with err set and nothing kept. */
int sqlp_run(sql_query **out, const char *text, size_t len, sql_error *err,
             int (*body)(parser *p, void *ctx), void *ctx);

int sqlp_next(parser *p);                       /* 0 or -1 (err set) */
const sql_token *sqlp_tok(const parser *p);     /* the current token */
int sqlp_syntax(parser *p, const char *msg);    /* 42000 here; -1 */
int sqlp_unsupported(parser *p, const char *what);  /* HYC00; -1 */
int sqlp_nomem(parser *p);                      /* HY001; -1 */
bool sqlp_is_kw(const parser *p, sql_kw kw);
bool sqlp_is_word(const parser *p, const char *w);  /* bare non-keyword */
bool sqlp_is_name(const parser *p);             /* usable as a name */
bool sqlp_name_here(parser *p);   /* same, "..." taken as a name (parser.c) */
bool sqlp_is_separator(const parser *p);        /* '.' or '!' */
sql_arena *sqlp_arena(parser *p);
/** The block being built (where FROM counts and PARAMETERS go). */
void sqlp_set_query(parser *p, sql_query *q);
/** The statement's first block (what sqlp_run returns). */
sql_query *sqlp_query(const parser *p);
/** Room for element n of arena array *arr (parser.c arena_reserve). */
int sqlp_reserve(parser *p, void **arr, size_t *cap, size_t n, size_t elem);
/** [catalog.]table at the current name token. */
int sqlp_table_name(parser *p, const char **catalog, const char **table,
                    size_t *position);
/** Whether the '(' at the current token opens a query. */
int sqlp_query_ahead(parser *p, bool *yes);
/** exprparse.c: one expression at the current token. */
int sqlp_expr(parser *p, sql_expr **out);
/** SELECT ... [UNION ...] [ORDER BY ...] into q. */
int sqlp_query_body(parser *p, sql_query *q);
/** ( SELECT ... ) at the current '(' as *out (a subquery in an
 *  expression; its block counts against SQL_MAX_QUERY_DEPTH). */
int sqlp_subquery(parser *p, sql_query **out);
/** A FROM item with its joins. */
int sqlp_join_chain(parser *p, sql_from **out);
/** PARAMETERS ...; at the current token. */
int sqlp_parameters(parser *p, sql_query *q);
/** End of the statement (an optional ';'), else 42000. */
int sqlp_end(parser *p);
/** exprparse.c: a node of kind at position in the statement's arena,
 *  or NULL (out of memory). */
sql_expr *sqlp_new_expr(parser *p, sql_expr_kind kind, size_t position);

/** dmlparse.c: parse INSERT, UPDATE or DELETE (after an optional
 *  PARAMETERS clause) into out (kind SQL_KIND_DML, dml, query). 0, or -1
 *  with err set as sql_parse_query sets it. */
int sql_parse_dml(sql_parsed *out, const char *text, size_t len,
                  sql_error *err);
/** dmlparse.c: whether text is PARAMETERS ...; then INSERT, UPDATE or
 *  DELETE (a saved action query's SQL). */
bool sql_parameters_then_dml(const char *text, size_t len);
/** ddlparse.c: parse CREATE, DROP or ALTER into out (kind SQL_KIND_DDL,
 *  ddl, query). 0, or -1 with err set as sql_parse_query sets it. */
int sql_parse_ddl(sql_parsed *out, const char *text, size_t len,
                  sql_error *err);
/** ddlparse.c: out->query, a query whose first block says INTO (SELECT
 *  ... INTO t), parsed from text, as the DDL statement
 *  SQL_DDL_SELECT_INTO. 0, or -1 with err set (out of memory; out->query
 *  freed). */
int sql_ddl_select_into(sql_parsed *out, const char *text, size_t len,
                        sql_error *err);

#endif
