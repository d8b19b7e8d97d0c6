/*
 * sql_internal.h - shared by lexer.c and parser.c only (not by the driver).
 *
 * The arena: every node and string of one statement comes from one chain
 * of chunks, freed at once. The lexer: turns the statement into tokens on
 * demand (one token of lookahead is the parser's business). Positions are
 * 1-based counts of UTF-8 characters, as sql_error reports them.
 */
#ifndef JET_DRIVER_SQL_INTERNAL_H
#define JET_DRIVER_SQL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sql.h"

/* Bound on nesting for the recursive parts of the parser (parenthesised
 * expressions, once they exist): deeper input is rejected with 42000
 * instead of exhausting the C stack. */
#define SQL_MAX_DEPTH 200

/* Bound on nested query blocks (subqueries, derived tables) in one
 * statement: Access's specification allows 50 nested levels of queries.
 * Counted apart from SQL_MAX_DEPTH so a query's nesting is not limited
 * by its expressions; the two bounds together bound the parser's stack. */
#define SQL_MAX_QUERY_DEPTH 50

/* Bound on the height of an expression tree (what the recursive walks of
 * plan.c and eval.c descend): left-deep chains such as a+b+c+... count
 * one level per operator, so longer ones get 42000 "too complex". Runs of
 * AND, OR and XOR are built balanced (they are associative), so any
 * number of those fits. */
#define SQL_MAX_HEIGHT 256

/* Bound on the tables (and derived tables) named in one statement: join
 * trees are walked recursively, one level per join. */
#define SQL_MAX_TABLES 512

/* ------------------------------------------------------------- arena */

/** A chunk of a chunk list (newest first): cap bytes of data, used of
 *  them handed out. The arena below and the spill arenas (spill.h
 *  sql_mem) are such lists. */
typedef struct sql_arena_chunk sql_arena_chunk;
struct sql_arena_chunk {
    sql_arena_chunk *next;
    size_t cap, used;
    max_align_t data[];
};

/** n bytes (max_align_t-aligned, not zeroed) from the newest chunk of
 *  *head, or from a new chunk of max(n, block) bytes put first; *held
 *  (when not NULL) grows by a new chunk's size with its header. NULL on
 *  out-of-memory or an absurd n. */
void *sql_chunk_take(sql_arena_chunk **head, size_t n, size_t block,
                     size_t *held);
/** Free every chunk of *head (then NULL). */
void sql_chunk_free_all(sql_arena_chunk **head);

typedef struct sql_arena {
    sql_arena_chunk *head;      /* newest chunk first */
} sql_arena;

/** n bytes, max_align_t-aligned, zeroed; NULL on out-of-memory. */
void *sql_arena_alloc(sql_arena *a, size_t n);
/** Copy of s[0..n) plus NUL in the arena; NULL on out-of-memory. */
char *sql_arena_strndup(sql_arena *a, const char *s, size_t n);
/** Free every chunk; the arena is empty afterwards. */
void sql_arena_free(sql_arena *a);

/* ------------------------------------------------------------- lexer */

typedef enum sql_tok_kind {
    TOK_EOF = 0,
    TOK_IDENT,      /* bare word (keyword when kw != KW_NONE) */
    TOK_QIDENT,     /* [..], "..", `..` : never a keyword */
    TOK_NUMBER,     /* 123, 1.5, 1e3 (text kept) */
    TOK_STRING,     /* '...' with '' unescaped */
    TOK_PARAM,      /* ? */
    TOK_STAR,       /* * */
    TOK_COMMA,
    TOK_DOT,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_SEMI,
    TOK_LBRACE,     /* { starts an ODBC escape */
    TOK_RBRACE,
    TOK_OP,         /* = <> != < <= > >= + - / \ ^ & ! */
    TOK_DATE        /* #...# Jet date literal (text between the #) */
} sql_tok_kind;

typedef enum sql_kw {
    KW_NONE = 0,
    KW_ALL, KW_ALTER, KW_AND, KW_AS, KW_ASC, KW_BETWEEN, KW_BY, KW_CREATE,
    KW_CROSS, KW_DELETE, KW_DESC, KW_DISTINCT, KW_DISTINCTROW, KW_DROP,
    KW_EXISTS, KW_FROM, KW_FULL, KW_GROUP, KW_HAVING, KW_IN, KW_INNER,
    KW_INSERT, KW_INTO, KW_IS, KW_JOIN, KW_LEFT, KW_LIKE, KW_NOT, KW_NULL,
    KW_ON, KW_OR, KW_ORDER, KW_OUTER, KW_PARAMETERS, KW_PERCENT, KW_PIVOT,
    KW_RIGHT, KW_SELECT, KW_TOP, KW_TRANSFORM, KW_UNION, KW_UPDATE, KW_WHERE,
    KW_WITH, KW_MOD, KW_XOR
} sql_kw;

typedef struct sql_token {
    sql_tok_kind kind;
    sql_kw kw;              /* TOK_IDENT only */
    const char *start;      /* raw bytes in the statement */
    size_t len;
    size_t position;        /* 1-based character position */
    const char *text;       /* IDENT/QIDENT/STRING/NUMBER: decoded, arena */
    char quote;             /* QIDENT: the opening quote character */
} sql_token;

typedef struct sql_lexer {
    const char *s;
    size_t len;
    size_t i;               /* byte offset */
    size_t position;        /* 1-based character position of s[i] */
    size_t nparams;         /* ? markers seen so far */
    size_t long_escapes;    /* ODBC 2 long-form escapes open: their
                               "*)--" closes one (a '}') */
    sql_arena *arena;
    sql_error *err;
} sql_lexer;

/** Fill *err (sqlstate, position, printf-style message). */
void sql_set_error(sql_error *err, const char *sqlstate, size_t position,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** An error raised inside saved query name (a statement built from its
 *  rebuilt SQL): drop every "(at character N)" from e->msg, prefix
 *  "saved query 'name': " unless a saved query is named already, and set
 *  e->position to pos (a position in the user's statement, or 0). */
void sql_error_in_saved(sql_error *e, const char *name, size_t pos);

/** Check text is valid UTF-8 without NUL bytes; else 42000 and -1. */
int sql_check_text(const char *text, size_t len, sql_error *err);

void sql_lexer_init(sql_lexer *lx, const char *text, size_t len,
                    sql_arena *arena, sql_error *err);
/** Next token into *tok: 0, or -1 with lx->err set (42000 / HY001). */
int sql_lex_next(sql_lexer *lx, sql_token *tok);
/** Keyword spelling for messages ("WHERE"), or "" for KW_NONE. */
const char *sql_kw_name(sql_kw kw);

/* ------------------------------------------------------- expressions */

/*
 * Expression tree of select items, WHERE, ON, GROUP BY, HAVING and ORDER
 * BY, as written (bind.c and compile.c resolve and fold it). Nodes live in the
 * statement's arena.
 */
typedef enum sql_expr_kind {
    EXPR_NUMBER = 1,    /* text: literal as written */
    EXPR_STRING,        /* text: unescaped */
    EXPR_DATE,          /* text: between the # */
    EXPR_NULL,
    EXPR_COLUMN,        /* qualifier (or NULL), text: column name */
    EXPR_PARAM,         /* param_index: 0-based order of ? */
    EXPR_UNARY,         /* op: "NOT", "-", "+"; a */
    EXPR_BINARY,        /* op: "OR" "AND" "XOR" "=" "<>" "<" "<=" ">" ">="
                           "LIKE" "&" "+" "-" "MOD" "\\" "*" "/" "^"; a, b */
    EXPR_IS_NULL,       /* a IS [NOT] NULL (negated) */
    EXPR_BETWEEN,       /* a [NOT] BETWEEN b AND c (negated) */
    EXPR_IN,            /* a [NOT] IN (args) (negated) */
    EXPR_FUNC,          /* text: function name; args (COUNT(*): one
                           EXPR_COLUMN arg with text "*") */
    EXPR_ODBC_DATE,     /* {d|t|ts 'text'}: op "d", "t" or "ts"; text */
    EXPR_BOOL,          /* TRUE/FALSE written as such: negated = FALSE */
    EXPR_SUBQUERY,      /* (SELECT ...) as a value: sub */
    EXPR_EXISTS,        /* [NOT] EXISTS (SELECT ...): sub, negated */
    EXPR_QUANT          /* a op ANY|SOME|ALL (SELECT ...): op, a, sub,
                           quant 'A' (ANY, SOME) or 'L' (ALL) */
} sql_expr_kind;

struct sql_query;

typedef struct sql_expr sql_expr;
struct sql_expr {
    sql_expr_kind kind;
    size_t position;        /* 1-based, for messages */
    const char *op;
    const char *qualifier;
    const char *text;
    size_t param_index;
    bool negated;
    sql_expr *a, *b, *c;
    size_t nargs;
    sql_expr **args;
    char quote;             /* EXPR_COLUMN: '[' or '`' when the name was
                               quoted, else 0 ("..." is text, never a
                               name) */
    bool odbc_fn;           /* EXPR_FUNC written as {fn name(...)} */
    bool alike;             /* EXPR_BINARY "LIKE" written ALIKE */
    unsigned height;        /* levels below and including this node; 0 for
                               leaves (counted as 1) */
    struct sql_query *sub;  /* EXPR_SUBQUERY, EXPR_EXISTS, EXPR_QUANT, and
                               EXPR_IN with a subquery instead of args */
    char quant;             /* EXPR_QUANT: 'A' any/some, 'L' all */
    bool distinct_arg;      /* EXPR_FUNC: COUNT(DISTINCT x) */
};

/* ------------------------------------------------------ FROM clause */

/** One FROM item: a table, a derived table, or a join of two items. */
typedef enum sql_from_kind {
    FROM_TABLE = 1,     /* [catalog.]table [[AS] alias] */
    FROM_SUBQUERY,      /* (SELECT ...) [AS] alias */
    FROM_JOIN           /* left JOIN right ON cond */
} sql_from_kind;

typedef struct sql_from sql_from;
struct sql_from {
    sql_from_kind kind;
    size_t position;
    const char *table;      /* FROM_TABLE */
    const char *catalog;    /* FROM_TABLE: catalog part, or NULL: a path,
                               or a connect string "[type];DATABASE=path
                               [;PWD=x]" (Access's external databases) */
    bool in_database;       /* FROM_TABLE: catalog given by an IN clause */
    const char *alias;      /* or NULL */
    struct sql_query *sub;  /* FROM_SUBQUERY */
    char join;              /* FROM_JOIN: 'I' inner (and CROSS), 'L' left,
                               'R' right */
    sql_from *left, *right; /* FROM_JOIN */
    sql_expr *on;           /* FROM_JOIN: ON condition, NULL for CROSS */
};

/* ----------------------------------------------------- full queries */

/** Declared types of a PARAMETERS clause (Access's names and synonyms;
 *  bind.c maps them to column types). */
typedef enum sql_ptype {
    SQL_PT_VALUE = 0,       /* Value: untyped */
    SQL_PT_BIT, SQL_PT_BYTE, SQL_PT_SHORT, SQL_PT_LONG, SQL_PT_CURRENCY,
    SQL_PT_SINGLE, SQL_PT_DOUBLE, SQL_PT_DATETIME, SQL_PT_TEXT,
    SQL_PT_MEMO, SQL_PT_BINARY, SQL_PT_LONGBINARY, SQL_PT_GUID,
    SQL_PT_DECIMAL
} sql_ptype;

/** One declared parameter: PARAMETERS name type [, ...]; its value is the
 *  application's parameter of the same (0-based) index. */
typedef struct sql_param_decl {
    const char *name;       /* unquoted, arena */
    sql_ptype type;
    size_t position;
} sql_param_decl;

/** ORDER BY entry. */
typedef struct sql_order_item {
    sql_expr *expr;
    bool desc;
    size_t position;
} sql_order_item;

/**
 * One query block of a statement parsed for the query engine
 * (sql_parse_query): its select list (sel) and clauses. sel is the first
 * member; sql_select_free(&q->sel) frees the whole statement.
 */
typedef struct sql_query {
    sql_select sel;
    sql_arena arena;
    bool explain;           /* statement began with EXPLAIN */
    bool top_percent;       /* TOP n PERCENT */
    size_t top_position;
    sql_expr *where;        /* or NULL */
    size_t norder;
    sql_order_item *order;
    int64_t offset;         /* OFFSET n ROWS / LIMIT .. OFFSET n; 0 */
    int64_t limit;          /* FETCH FIRST n / LIMIT n; -1 when absent */
    size_t limit_position;
    /* appended for joins, grouping, subqueries and UNION: */
    size_t nfrom;           /* comma-separated FROM items (inner joined) */
    sql_from **from;
    size_t ngroup;          /* GROUP BY expressions */
    sql_expr **group;
    sql_expr *having;       /* or NULL */
    size_t having_position;
    bool distinctrow;       /* DISTINCTROW (sel.distinct is set too) */
    bool no_from;           /* SELECT without FROM (one row) */
    struct sql_query *union_next;   /* next UNION branch, or NULL; ORDER
                               BY / TOP / LIMIT of the head apply to all */
    bool union_all;         /* this branch joins the previous by UNION ALL */
    size_t position;        /* of SELECT */
    /* PARAMETERS declared before the statement (every block of it shares
     * them): a name among them is that parameter, index k of decl; ?
     * markers of such a statement count from ndecl */
    size_t ndecl;
    const sql_param_decl *decl;
    /* SELECT ... INTO into FROM ... (a make-table; the statement's first
     * block only): the new table, or NULL; into_from..into_to the bytes
     * of "INTO name" in the statement's text */
    const char *into;
    size_t into_position;
    size_t into_from, into_to;
    size_t body_from;       /* first block: the byte where the statement's
                               body starts (after EXPLAIN, PARAMETERS) */
} sql_query;

/**
 * Parse one statement (UTF-8, len bytes) for the engine: select-list
 * expressions, FROM with joins and derived tables, WHERE, GROUP BY,
 * HAVING, UNION, ORDER BY, TOP n PERCENT, OFFSET/FETCH, LIMIT, ODBC
 * escapes, an EXPLAIN prefix. On success 0 and *out (free it with
 * sql_select_free(&(*out)->sel)); on failure -1, *out NULL and err (may
 * be NULL) says why and where: 42000 syntax, HYC00 unsupported, HY001 out
 * of memory, HY009 NULL text with a length.
 */
int sql_parse_query(sql_query **out, const char *text, size_t len,
                    sql_error *err);

/**
 * A parsed INSERT, UPDATE or DELETE (sql_parse_statement; dml.c binds
 * and runs it). Its query part is an ordinary query block the engine
 * plans: INSERT ... VALUES (e, ..) is SELECT e, .. (no FROM); INSERT ...
 * SELECT is that SELECT; UPDATE from SET c = e, .. WHERE w is SELECT
 * e, .. FROM from WHERE w; DELETE [a.*] FROM from WHERE w is SELECT 0
 * FROM from WHERE w. The query owns the arena everything lives in.
 */
typedef struct sql_dml {
    sql_kw verb;            /* KW_INSERT, KW_UPDATE, KW_DELETE */
    size_t position;        /* of the verb */
    const char *table;      /* INSERT: the table; UPDATE/DELETE: the
                               target's name or alias (DELETE a.*), or
                               NULL: the only table of the FROM / the
                               table of the SET columns */
    size_t table_position;
    size_t other_table_position;    /* DELETE: where the list names a
                               second table (Access refuses it), or 0 */
    size_t ncols;           /* INSERT column list (0: every column) /
                               UPDATE SET targets */
    const char **cols;
    const char **col_quals; /* UPDATE: a target's qualifier, or NULL */
    size_t *col_pos;
    bool values;            /* INSERT ... VALUES */
    sql_query *query;       /* the query part (above) */
} sql_dml;

/* ------------------------------------------------- DDL (ddlparse.c) */

/** What a DDL statement does (sql_ddl.op). */
typedef enum sql_ddl_op {
    SQL_DDL_CREATE_TABLE = 1,   /* table, cols, cons */
    SQL_DDL_DROP_TABLE,         /* table */
    SQL_DDL_CREATE_INDEX,       /* table, cons[0] (kind INDEX, UNIQUE or
                                   PRIMARY; name the index's) */
    SQL_DDL_DROP_INDEX,         /* table, name */
    SQL_DDL_ADD_COLUMN,         /* table, cols[0], its constraints in cons */
    SQL_DDL_ALTER_COLUMN,       /* table, cols[0] (refused: HYC00) */
    SQL_DDL_DROP_COLUMN,        /* table, name */
    SQL_DDL_ADD_CONSTRAINT,     /* table, cons[0] */
    SQL_DDL_DROP_CONSTRAINT,    /* table, name */
    SQL_DDL_SELECT_INTO         /* table: the new one; the query: SELECT */
} sql_ddl_op;

/** A column's type as DDL names it (Access's names and synonyms, resolved
 *  by the parser; the file version is checked when it runs). */
typedef struct sql_ddl_type {
    jet_type type;          /* JET_T_BOOL .. JET_T_BIGINT */
    bool autonumber;        /* COUNTER / AUTOINCREMENT (type LONG) */
    bool fixed;             /* TEXT: fixed-length (CHAR, CHARACTER,
                               NCHAR, NATIONAL CHAR without VARYING) */
    bool has_size;          /* TEXT/BINARY (n), DECIMAL (p[, s]) given */
    uint32_t size;          /* TEXT: characters; BINARY: bytes */
    uint8_t precision, scale;   /* DECIMAL; else 0 */
    bool has_seed;          /* COUNTER(seed, increment) */
    int64_t seed, increment;
    size_t position;        /* of the type's name */
} sql_ddl_type;

/** One column definition (CREATE TABLE, ADD COLUMN, ALTER COLUMN). */
typedef struct sql_ddl_col {
    const char *name;
    size_t position;
    sql_ddl_type type;
    bool not_null;
    bool compression;       /* WITH COMPRESSION / WITH COMP */
    const char *default_text;   /* DEFAULT's expression as written, or
                                   NULL */
    sql_expr *default_expr;
    size_t default_position;
} sql_ddl_col;

typedef enum sql_cons_kind {
    SQL_CONS_PRIMARY = 1,   /* PRIMARY KEY */
    SQL_CONS_UNIQUE,        /* UNIQUE */
    SQL_CONS_INDEX,         /* CREATE INDEX without UNIQUE */
    SQL_CONS_NOT_NULL,      /* CONSTRAINT n NOT NULL (a) */
    SQL_CONS_FOREIGN        /* FOREIGN KEY (..) REFERENCES / REFERENCES */
} sql_cons_kind;

/** A constraint (an index or a relationship), or CREATE INDEX's index. */
typedef struct sql_ddl_cons {
    sql_cons_kind kind;
    const char *name;       /* CONSTRAINT name / the index's, or NULL */
    size_t position;
    size_t ncols;           /* key columns, by name */
    const char **cols;
    size_t *col_pos;
    bool *desc;             /* CREATE INDEX: DESC per column */
    bool disallow_null;     /* CREATE INDEX ... WITH DISALLOW NULL */
    bool ignore_null;       /* WITH IGNORE NULL */
    bool no_index;          /* FOREIGN KEY NO INDEX (refused: HYC00) */
    const char *parent;     /* FOREIGN: REFERENCES parent */
    size_t parent_position;
    size_t nrefs;           /* its columns, 0: the parent's primary key */
    const char **refs;
    bool cascade_update, cascade_delete, delete_set_null;
    bool update_set_null;   /* ON UPDATE SET NULL (refused: HYC00) */
    size_t clause_position; /* of an ON clause refused, else 0 */
} sql_ddl_cons;

/**
 * A parsed CREATE, DROP or ALTER statement, or SELECT ... INTO
 * (sql_parse_statement; driver/sql/ddl.c runs it). Everything lives in
 * query's arena; query is the SELECT of a SELECT INTO, else an empty
 * block (SELECT 0, planned for the statement's parameters: none).
 */
typedef struct sql_ddl {
    sql_ddl_op op;
    size_t position;        /* of the verb */
    const char *table;
    size_t table_position;
    const char *name;       /* DROP INDEX / COLUMN / CONSTRAINT: what */
    size_t name_position;
    size_t ncols;
    sql_ddl_col *cols;
    size_t ncons;
    sql_ddl_cons *cons;
    sql_query *query;
    const char *insert_sql; /* SELECT INTO: the statement's text as INSERT
                               INTO [table] SELECT ... (its INTO cut out),
                               which fills the new table */
} sql_ddl;

/** The root of a parsed statement: its kind and what that kind parsed. */
typedef struct sql_parsed {
    sql_stmt_kind kind;
    sql_query *query;       /* SQL_KIND_QUERY: the query (its first block,
                               owner of the arena); SQL_KIND_DML: dml's
                               query part (owner of the arena); else NULL */
    sql_dml *dml;           /* SQL_KIND_DML: the statement, else NULL */
    sql_ddl *ddl;           /* SQL_KIND_DDL: the statement, else NULL */
    sql_kw verb;            /* DML/DDL: INSERT, UPDATE, ... CREATE, DROP,
                               ALTER, SELECT (SELECT ... INTO) */
    size_t position;        /* DML/DDL: 1-based position of the verb */
} sql_parsed;

/**
 * Parse one statement: its first word names its kind (INSERT, UPDATE,
 * DELETE are DML; CREATE, DROP, ALTER DDL, parsed by ddlparse.c;
 * anything else a query, parsed by sql_parse_query, and DDL when its
 * first block says INTO: SELECT ... INTO t FROM). 0 and *out filled, or
 * -1 with err set as sql_parse_query sets it. Free out->query with
 * sql_select_free.
 */
int sql_parse_statement(sql_parsed *out, const char *text, size_t len,
                        sql_error *err);

#endif
