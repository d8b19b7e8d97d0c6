/*
 * engine.h - the query engine: prepare a SELECT against one open database,
 * then run it as a row cursor with per-column jet_value access.
 *
 * Knows no ODBC handles and no sql.h/sqlext.h types (the driver maps C
 * types to jet_value; driver/diag.c maps sql_error and jet_rc to
 * SQLSTATEs, the engine none).
 *
 * Grammar (see parser.c): [EXPLAIN] [PARAMETERS name type, ..;] select
 * [UNION [ALL] select]... (each select possibly parenthesised)
 * [ORDER BY e [ASC|DESC],..] [OFFSET n ROWS] [FETCH FIRST|NEXT n ROWS
 * ONLY] | [LIMIT n [OFFSET m]], where select is SELECT [ALL|DISTINCT|
 * DISTINCTROW] [TOP n [PERCENT]] items [FROM from [, from]...] [WHERE c]
 * [GROUP BY e, ..] [HAVING c], and from is a table [[AS] alias], a
 * derived table (SELECT ...) [AS] alias or [SELECT ...]. [AS] alias
 * (Access 97), a parenthesised join, {oj ...},
 * or from [INNER | LEFT [OUTER] | RIGHT [OUTER] | CROSS] JOIN from ON c.
 * Expressions add (SELECT ...) scalars, [NOT] EXISTS (SELECT ...),
 * x [NOT] IN (SELECT ...), x op ANY|SOME|ALL (SELECT ...), correlated
 * with the enclosing query by name; columns t.c or t!c.
 *
 * Plans (plan.c): parse -> bind (names across tables, ambiguity 42000) ->
 * plan (per table an access path; join order and method: index nested
 * loop when an index of the inner table has the join key, hash join for
 * other equi-joins, nested loop otherwise) -> operators (op_*.c).
 *
 * Semantics chosen (documented in README "SQL"):
 *  - Text compares case-insensitively: each character is folded with
 *    towlower() of the C.UTF-8 locale, then code points compare; accents
 *    stay significant ("é" <> "e"). Equal-folding rows keep scan order.
 *  - LIKE: by default both wildcard sets are live: Access * ? # and ANSI
 *    % _; [a-z], [!a-z] classes; bracket a wildcard to match it ([%]).
 *    ALIKE (and SQL_LIKE_ANSI) uses % _ only; SQL_LIKE_ACCESS * ? # only.
 *  - NULL sorts first ascending, last descending (Access: NULL is low).
 *  - TOP n with ORDER BY returns the ties of the n-th row (Access);
 *    LIMIT / FETCH FIRST return exactly n. TOP n PERCENT rounds up.
 *  - Aggregates, per GROUP BY group or over the whole result: COUNT ->
 *    LONG; SUM of BOOL, BYTE, INT, LONG -> LONG (22003 on overflow, as
 *    Jet's "Overflow"); SUM of BIGINT -> BIGINT; SUM/AVG of MONEY ->
 *    MONEY (exact, AVG rounded half even to 1/10000); other SUM/AVG ->
 *    DOUBLE; MIN/MAX/First/Last keep the type; StDev, StDevP, Var, VarP
 *    -> DOUBLE (StDev/Var NULL below 2 values); COUNT(DISTINCT x) -> LONG
 *    (not Jet SQL, answered too). NULL group keys form one group.
 *  - DISTINCTROW: over one table every row is distinct (nothing to do);
 *    over a join it is run as DISTINCT over the output columns (Access
 *    removes duplicate source records; the same when keys are selected).
 *  - UNION: columns named by the first SELECT, typed by all (equal type,
 *    else the widest number, else TEXT/MEMO); ORDER BY names output
 *    columns (position, label or the first SELECT's column name).
 *  - A LEFT/RIGHT join's optional side is a table, a derived table or
 *    a parenthesised join (nested outer joins); FULL OUTER JOIN is not
 *    Jet SQL: 42000 "Syntax error in FROM clause", as Access answers.
 *  - "double quoted" in an expression names a column when one has that
 *    name, else it is a string literal (Jet reads "x" as text).
 *  - Unnamed expressions are labelled Expr1000, Expr1001, ... (Access).
 *  - ORDER BY n (a whole number) names the n-th select-list column; ORDER
 *    BY a select alias works when no table column has that name.
 *  - Dates compare to the millisecond (chronologically, also before
 *    1899-12-30); MONEY against MONEY, integers or decimal literals of at
 *    most 4 decimals exactly, against other doubles as doubles.
 *  - Text against a number or date converts the text (22018 if it is not
 *    one); a text literal in such a comparison is converted at prepare.
 */
#ifndef JET_DRIVER_SQL_ENGINE_H
#define JET_DRIVER_SQL_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"
#include "sql.h"

typedef struct sql_stmt sql_stmt;
typedef struct sql_cursor sql_cursor;
typedef struct sql_statement sql_statement;
struct sql_cursor_opts;

/** LIKE wildcard dialects (see the header comment). */
typedef enum sql_like_mode {
    SQL_LIKE_BOTH = 0,      /* * ? # and % _ (default) */
    SQL_LIKE_ACCESS = 1,    /* ANSI-89: * ? # only */
    SQL_LIKE_ANSI = 2       /* ANSI-92: % _ only */
} sql_like_mode;

/** How the inner tables of a join are read (sql_prepare_opts.join_method):
 *  the planner's cost-based choice, or one method forced wherever it can
 *  serve (tests compare the methods' rows; an index nested loop falls
 *  back to a hash join without an index on the key, a hash join to a
 *  nested loop without an equality). */
typedef enum sql_join_method {
    SQL_JOIN_AUTO = 0,
    SQL_JOIN_INDEX = 1,
    SQL_JOIN_HASH = 2,
    SQL_JOIN_LOOP = 3
} sql_join_method;

/** The type a ? marker's value is bound with at execute (the driver's
 *  mapping of SQLBindParameter's SQL type): 0 when none is given. */
typedef struct sql_param_type {
    jet_type type;
    uint8_t scale;              /* JET_T_NUMERIC: decimal places */
} sql_param_type;

/** Prepare options; zero-initialise for defaults. */
typedef struct sql_prepare_opts {
    sql_like_mode like_mode;
    sql_join_method join_method;
    unsigned crosstab_depth;    /* the engine's own: crosstabs whose pivot
                                   query this statement is (0 else) */
    const char *saved_query;    /* the text is this saved query's SQL as
                                   rebuilt for a {call}: errors name it
                                   and give no positions in that text,
                                   which the application never saw */
    const sql_param_type *param_types;  /* nparam_types entries, by marker
                                   order, or NULL: a marker given a type
                                   here (and declared by no PARAMETERS)
                                   has it, as Access types a parameter by
                                   its value, so `SELECT ?` of a Long is a
                                   Long column; the others are typed by
                                   what they meet (text when nothing
                                   tells). sql_statement_execute re-plans
                                   with them (sql_param_info.in_output) */
    size_t nparam_types;
    bool complex_values;        /* the engine's own: the statement is the
                                   rewrite of a c.Value statement
                                   (sql_dml_values_rewrite) and may write
                                   a multi-valued field's values table */
    bool exact_decimal;         /* the engine's own: the statement computes
                                   calculated columns (rules.c), where
                                   Access keeps + - * of a Decimal or
                                   Currency with a number literal exact:
                                   the literal is a Decimal there */
} sql_prepare_opts;

/** One result column. Strings are owned by the statement. */
typedef struct sql_result_col {
    const char *name;           /* label: alias, column name or Expr1000 */
    const char *base_table;     /* table name, "" for computed values */
    const char *base_column;    /* column name, "" for computed values */
    const jet_column *column;   /* the table column, NULL when computed */
    jet_type type;              /* type of the values sql_cursor_value gives */
    bool nullable;
    uint32_t length;            /* TEXT: characters, the longest value
                                   (a table column's declared length; a
                                   computed one's bound, 255 when it
                                   cannot exceed Access's Text limit,
                                   SQL_TEXT_UNBOUNDED when no bound is
                                   known); other types 0 */
    uint8_t scale;              /* computed NUMERIC: decimal places (the
                                   values carry their own; helper funcs) */
    uint8_t precision;          /* computed NUMERIC: digits when known
                                   (MAX/MIN/First/Last of a Decimal column
                                   keep its precision), 0: Decimal's 28 */
} sql_result_col;

/** sql_result_col.length of a computed text that has no known bound
 *  (the driver describes it as long text). */
#define SQL_TEXT_UNBOUNDED UINT32_MAX

/** What is known of a ? parameter (best guess from its context). */
typedef struct sql_param_info {
    jet_type type;              /* JET_T_TEXT when nothing tells */
    const jet_column *column;   /* the compared column, or NULL */
    bool declared;              /* type given by a PARAMETERS clause */
    bool in_output;             /* part of an output column's expression
                                   (select list, a UNION branch's or a
                                   derived table's): the column's type
                                   follows the value's bound type */
    jet_type bound;             /* sql_prepare_opts.param_types' type the
                                   plan was made with, 0 when none */
    uint8_t bound_scale;        /* its scale (JET_T_NUMERIC) */
} sql_param_info;

/**
 * Parse text (UTF-8, len bytes), resolve names against db's catalog and
 * the table's tdef, type-check and plan. On success returns 0 and *out
 * owns the plan (it borrows db: free it before jet_db_close). On failure
 * returns sql_error_code(err) (JET_ENOMEM exactly when memory ran out),
 * *out = NULL, and err (sql.h) says why: an SQL error with its SQLSTATE,
 * 1-based position and message (42000 syntax, HYC00 unsupported, 42S02 no
 * such table, 42S22 no such column, 22018 type mismatch), or the core's
 * failure (loading a table or saved query) as its jet_rc, page and
 * message, which the driver maps. opts may be NULL.
 */
int sql_stmt_prepare(sql_stmt **out, jet_db *db, const char *text,
                     size_t len, const sql_prepare_opts *opts,
                     sql_error *err);

/** Free a statement; its cursors must be closed first. Safe on NULL. */
void sql_stmt_free(sql_stmt *st);

/**
 * Prepare any statement: parse it, and prepare it through the executor of
 * its kind (sql.h sql_stmt_kind; statement.c). A query is planned as by
 * sql_stmt_prepare; INSERT, UPDATE and DELETE through dml.c (executing
 * one writes: core/write.h); CREATE, DROP, ALTER and SELECT ... INTO
 * through ddl.c (core/ddl.h). Returns and fills err as sql_stmt_prepare;
 * *out owns what it prepared (free with sql_statement_free before
 * jet_db_close).
 */
int sql_statement_prepare(sql_statement **out, jet_db *db, const char *text,
                          size_t len, const sql_prepare_opts *opts,
                          sql_error *err);
/** The kind of a prepared statement. */
sql_stmt_kind sql_statement_kind(const sql_statement *s);
/** A query's plan (owned by s: its columns, parameters, plan text), or
 *  NULL for the other kinds. */
sql_stmt *sql_statement_query(const sql_statement *s);
/**
 * Run s with params (as sql_cursor_open). A query opens *cur on its result
 * set; the other kinds run to the end and leave *cur NULL. Returns 0 or a
 * jet_rc < 0 with err filled (sql.h).
 * A query whose output columns hold ? markers (sql_param_info.in_output)
 * is first re-planned when the values' types (a NULL's type tells how it
 * was bound; text leaves the marker typed by its context) differ from
 * those its plan was made for: `SELECT ?`, IIf(c, ?, ?) and ? + 1 give a
 * bound Long, Double, Decimal or date as that type, as Access does. Then
 * sql_statement_query gives the new plan (never the address of one held
 * before), whose columns describe the result; re-read them.
 * A statement prepared before a schema change of db (core/ddl.h
 * jet_db_schema_version) is prepared again first, the same way (or
 * fails as that prepare fails: 42S02 for a table dropped since).
 */
int sql_statement_execute(sql_statement *s, const jet_value *params,
                          const struct sql_cursor_opts *opts,
                          sql_cursor **cur, sql_error *err);
/** Rows the last execute of s inserted, updated or deleted (SQLRowCount);
 *  -1 for a query and before the first execute. */
int64_t sql_statement_row_count(const sql_statement *s);
/** The last AutoNumber an INSERT of s wrote (SELECT @@IDENTITY), 0 when
 *  none (other kinds, before the first). */
int64_t sql_statement_last_identity(const sql_statement *s);
/** Where the last row an INSERT of s wrote lives (data page, row): true
 *  and *pgno, *slot set, or false when s inserted none (other kinds,
 *  before the first, a failed run). */
bool sql_statement_last_row(const sql_statement *s, uint32_t *pgno,
                            uint16_t *slot);
/** Free s and what it prepared; its cursor must be closed first. Safe on
 *  NULL. */
void sql_statement_free(sql_statement *s);

size_t sql_stmt_ncols(const sql_stmt *st);
/** Column i (0-based, < ncols). */
const sql_result_col *sql_stmt_col(const sql_stmt *st, size_t i);
/** Number of ? markers. */
size_t sql_stmt_nparams(const sql_stmt *st);
/** Parameter i (0-based, < nparams). */
const sql_param_info *sql_stmt_param(const sql_stmt *st, size_t i);
/** The plan in one line, e.g. "SEEK orders.PrimaryKey (order_id = ?1)";
 *  owned by st. EXPLAIN <select> returns this text as its one row. */
const char *sql_stmt_plan_text(const sql_stmt *st);
/** The first table the statement reads (owned by the db), or NULL (no
 *  FROM, a derived table or a UNION first). */
const jet_tdef *sql_stmt_tdef(const sql_stmt *st);

/** Run-time options of one cursor; zero-initialise for defaults. */
typedef struct sql_cursor_opts {
    uint64_t max_rows;          /* stop after this many rows; 0 = all */
    const atomic_int *cancel;   /* non-zero: stop with JET_EINTERRUPTED
                                   (checked every 256 rows read) */
    jet_interrupt_fn interrupt; /* non-NULL: called with interrupt_ctx
                                   before each page the table's scan or
                                   index reads (and every 256 rows); a
                                   non-zero answer stops the run with
                                   JET_EINTERRUPTED, SQLSTATE HY008 (the
                                   driver tells a timeout, HYT00, apart) */
    void *interrupt_ctx;
    size_t max_memory;          /* bytes of rows a sort, DISTINCT, grouping
                                   or hash join may keep; past it HY001
                                   (JET_ELIMIT). 0: SQL_MEM_DEFAULT */
    bool enclosed;              /* DML: the caller runs this statement in
                                   its write transaction under a savepoint
                                   of its own, and rolls back to it when
                                   the statement fails (a parameter
                                   array): the statement takes none */
    bool only_row;              /* UPDATE/DELETE: change exactly the row
                                   of the target table at data page
                                   only_pgno, row only_slot (a positioned
                                   write of the driver's static cursor)
                                   instead of the rows the query finds;
                                   an UPDATE's SET values must then be
                                   constants or parameters. A row that is
                                   not live fails with JET_ENOTFOUND */
    uint32_t only_pgno;
    uint16_t only_slot;
} sql_cursor_opts;

/** Default memory budget of one statement's buffered rows (1 GiB). */
#define SQL_MEM_DEFAULT ((size_t)1 << 30)

/**
 * Start a run of st. params: sql_stmt_nparams(st) values (NULL when
 * none), copied; TEXT values must be JET_ENC_UCS2 (UTF-16LE bytes).
 * Sorting, DISTINCT, TOP PERCENT and aggregates read the whole input
 * here (bounded by opts->max_memory: past it they spill to a temporary
 * file, or fail with HY001 naming MaxMemory).
 * Returns 0, or a jet_rc < 0 (JET_ENOMEM exactly when memory ran out, the
 * core's code when it failed, else JET_EUNSUPPORTED or JET_ELIMIT) with
 * err filled as sql.h says (err->rc 0 for an SQL error). opts may be
 * NULL.
 */
int sql_cursor_open(sql_cursor **out, sql_stmt *st, const jet_value *params,
                    const sql_cursor_opts *opts, sql_error *err);

/** Next result row: JET_OK, JET_DONE, or a jet_rc < 0 (detail in
 *  sql_cursor_error; engine errors such as 22018 come with JET_EUNSUPPORTED
 *  or JET_ELIMIT and their own SQLSTATE there). */
int sql_cursor_next(sql_cursor *c);

/**
 * Value of column col of the current row into *out. Text/binary spans are
 * borrowed until the next call on c; computed text is JET_ENC_UCS2.
 * Returns JET_OK or a jet_rc < 0 (sql_cursor_error).
 */
int sql_cursor_value(sql_cursor *c, size_t col, jet_value *out);

/**
 * sql_cursor_value, except that a computed column comes as its value's
 * own type (a number as a number) rather than converted to the type the
 * column is described with: a parameter is described as text, yet a
 * Double bound to it must reach an INSERT whole, not as Str's 15 digits.
 * For the DML executors (dml.c), which convert every value to its target
 * column's type themselves. Same returns and lifetimes.
 */
int sql_cursor_value_own(sql_cursor *c, size_t col, jet_value *out);

/** Detail of the last failure on c, as sql.h describes it (an SQL
 *  error's sqlstate, or a core failure's rc, page and message). */
const sql_error *sql_cursor_error(const sql_cursor *c);

/**
 * Whether column col of every row c gives is a stored column read as is
 * from a table scan: a streaming single-table query whose column col is a
 * plain column reference to a fixed or in-row column (not MEMO, OLE or
 * calculated). Then *scan and *tcol are that scan and the table's column
 * number, *type the type of its values: after each successful
 * sql_cursor_next(c), jet_scan_value(*scan, *tcol, ...) gives what
 * sql_cursor_value(c, col, ...) would, without the engine's layers (the
 * driver's fetch fast path). They stay valid until c is closed. Returns
 * false (and touches nothing) otherwise.
 */
bool sql_cursor_direct_col(const sql_cursor *c, size_t col, jet_scan **scan,
                           uint16_t *tcol, jet_type *type);

/**
 * Whether every row c gives is one row of a table, its columns read as
 * stored: a streaming one-table query (scan or index walk, any WHERE)
 * whose every output column is a plain column reference (MEMO, OLE and
 * calculated columns too). Then *scan is the table's scan: after each
 * successful sql_cursor_next(c), jet_scan_position(*scan, ...) locates
 * the row; *tdef is the table; tcols[i] (sql_stmt_ncols entries, the
 * caller's) the table column of output column i, whose value
 * jet_scan_value gives as sql_cursor_value does. The driver's static
 * cursors keep such rows' locators and read them again. Returns false
 * (and touches nothing) otherwise.
 */
bool sql_cursor_table_rows(const sql_cursor *c, jet_scan **scan,
                           const jet_tdef **tdef, uint16_t *tcols);

/**
 * The current row's values when c gives stored rows (a sort without an
 * index, DISTINCT, a sorted grouping, UNION): one jet_value per output
 * column, what sql_cursor_value gives, rebuilt by each successful
 * sql_cursor_next (spans valid until the next call). The array's address
 * stays for c's life (the driver's fetch fast path reads it directly).
 * NULL when c reads its values as it goes (then sql_cursor_value).
 */
const jet_value *sql_cursor_stored_row(const sql_cursor *c);

/**
 * Before reading the current row again (SQLGetData) after writes of the
 * connection since it was fetched: each table's current row is read again
 * from its page as it is now and the column caches forget it. Returns
 * false when a current row is gone (deleted meanwhile): reading it then
 * fails with the scan's error. Cheap when nothing was written.
 */
bool sql_cursor_refresh(sql_cursor *c);

/** The core's own error detail (page number and all) when the last
 *  failure on c came from the core (scan, index, text); else NULL. */
const jet_error *sql_cursor_core_error(const sql_cursor *c);

/** Jet days (DATETIME encoding) of a calendar date and time, e.g. for
 *  parameters bound as SQL_C_TYPE_TIMESTAMP. */
double sql_jet_days(int year, int month, int day, int hour, int minute,
                    int second, uint32_t fraction_ns);

/** Rows read from the tables so far (index entries or scan rows), the
 *  joined tables' and finished subqueries' included. */
uint64_t sql_cursor_rows_read(const sql_cursor *c);

/** Close the cursor. Safe on NULL. A prepared statement's plain scan or
 *  index seek is parked on its plan instead of freed (its buffers, table
 *  scan and index cursor reset, pages unpinned) and taken again by its
 *  next sql_cursor_open, so re-executing costs no allocation; the plan
 *  frees it (sql_stmt_free: re-prepare, a schema change's re-plan). */
void sql_cursor_close(sql_cursor *c);

/** Free the cursor, never parking it. Safe on NULL. */
void sql_cursor_discard(sql_cursor *c);

#endif
