/*
 * func.h - the table of scalar functions of the query engine.
 *
 * Each function is one sql_funcdef (name, arity, how NULL arguments are
 * treated, the rule giving its result type, the C implementation), kept
 * in per-family arrays (func_text.c, func_math.c, func_date.c,
 * func_conv.c) as SQLite keeps FuncDef arrays; func.c looks names up
 * (case-insensitively), types calls at prepare time and dispatches them
 * at run time. The planner (compile.c) calls sql_func_find + sql_func_bind;
 * the evaluator (eval.c) calls sql_func_eval for N_FUNC and N_CONCAT
 * nodes. Semantics are Jet's/VBA's (README "Functions").
 *
 * Also here: the helpers the implementations share (conversions to text,
 * errors); numeric conversions and exact DECIMAL arithmetic (func_dec.c)
 * are values.h's.
 */
#ifndef JET_DRIVER_SQL_FUNC_H
#define JET_DRIVER_SQL_FUNC_H

#include "plan.h"

/**
 * Implementation of one function: args[0..e->nargs) are the evaluated
 * arguments (never NULL ones unless FN_NULLS; args is NULL for FN_LAZY,
 * which evaluates e->args itself). *out is zeroed (NULL) on entry.
 * Returns 0, or -1 with the error recorded on c (22018, 22003, ...).
 */
typedef int (*sql_func_impl)(sql_cursor *c, const enode *e, sv *args,
                             sv *out);

/** sql_funcdef.flags */
enum {
    FN_NULLS = 1u,      /* sees NULL arguments (else any NULL gives NULL) */
    FN_LAZY = 2u,       /* evaluates its own arguments (IIf, Switch) */
    FN_ODBC = 4u,       /* ODBC/SQL spelling (LOCATE, SUBSTRING...) */
    FN_WORD0 = 8u       /* argument 0 is a bare word (SQL_TSI_DAY) */
};

/** sql_funcdef.result: how the static result type is found. */
enum {
    FR_TEXT = 1,        /* TEXT (MEMO when argument 0 is MEMO) */
    FR_LONG,            /* K_INT, JET_T_LONG */
    FR_INT16,           /* K_INT, JET_T_INT (CInt) */
    FR_BYTE,            /* K_INT, JET_T_BYTE (CByte) */
    FR_BOOL,            /* K_BOOL */
    FR_DOUBLE,          /* K_DOUBLE, JET_T_DOUBLE */
    FR_SINGLE,          /* K_DOUBLE, JET_T_FLOAT (CSng) */
    FR_MONEY,           /* K_MONEY */
    FR_DATE,            /* K_DATE */
    FR_DEC,             /* K_DEC, JET_T_NUMERIC (CDec) */
    FR_NUM0,            /* numeric kind of argument 0 (Abs, Int, Round) */
    FR_NUM0_DATE,       /* FR_NUM0, but a Date stays a Date (Int, Fix) */
    FR_VARIANT,         /* common kind of the value arguments (IIf, Nz) */
    FR_ARG0,            /* exactly argument 0's kind (CVar) */
    FR_BIGINT           /* K_INT, JET_T_BIGINT ({fn CONVERT(x, SQL_BIGINT)}) */
};

/** One scalar function. max 255 means no upper bound. */
typedef struct sql_funcdef {
    const char *name;
    uint8_t min, max;
    uint8_t flags;          /* FN_* */
    uint8_t result;         /* FR_* */
    uint16_t text_args;     /* bit i: argument i is text (typing of ?) */
    sql_func_impl impl;
} sql_funcdef;

/* per-family tables (each ends with a { NULL } entry) */
extern const sql_funcdef sql_funcs_text[];
extern const sql_funcdef sql_funcs_math[];
extern const sql_funcdef sql_funcs_date[];
extern const sql_funcdef sql_funcs_conv[];
extern const sql_funcdef sql_funcs_format[];
/* functions whose {fn} form differs from the Jet function of the same
 * name (ROUND with negative places): found by sql_func_find_escape only */
extern const sql_funcdef sql_funcs_escape[];

/** VBA's text of a Double (CStr, &): 15 significant digits, plain from
 *  1E-5 up to 1E15, else "1.5E-07". NUL-terminated into buf; returns
 *  the length (func_format.c). */
size_t sql_format_double(double d, char *buf, size_t cap);
/** VBA's text of a Single (CStr, &, Format of a Single's value): 7
 *  significant digits, plain from 1E-5 up to 1E7, else "1.234568E+07". */
size_t sql_format_single(double d, char *buf, size_t cap);
/** General Date text of Jet days ("10/8/2021 3:04:05 PM", the date or
 *  the time alone when the other is zero). Returns the length, 0 when
 *  the date is out of range. */
size_t sql_format_date(double days, char *buf, size_t cap);

/** The function called name (case-insensitive), or NULL. */
const sql_funcdef *sql_func_find(const char *name);
/** The function {fn name(...)} calls: ODBC's own semantics where they
 *  differ from Jet's function of that name (sql_funcs_escape), else
 *  sql_func_find(name). */
const sql_funcdef *sql_func_find_escape(const char *name);

/**
 * The conversion {fn CONVERT(x, word)} stands for, word being an ODBC
 * data_type keyword (ODBC Appendix E, explicit data type conversion):
 * SQL_INTEGER is CLng, SQL_VARCHAR CStr, SQL_DATE CDate's date part...
 * NULL with *known = true when ODBC names the type but Jet has no
 * conversion to it (binary, GUID, intervals: HYC00 for the caller),
 * *known = false when word is no such keyword (42000). func_conv.c.
 */
const sql_funcdef *sql_func_convert(const char *word, bool *known);

/**
 * Type a call: n->fn, n->args and n->nargs are set (arity already
 * checked); sets n->k and n->type and the types of ? arguments in
 * params (may be NULL). Returns 0.
 */
int sql_func_bind(enode *n, sql_param_info *params, size_t nparams);

/** Decimal places to describe a Decimal expression with (columns: their
 *  scale; + -: the larger; *: the sum; / and AVG: at least 6; max 28). */
int sql_func_scale(const enode *n, const jet_tdef *td);

/** Evaluate an N_FUNC or N_CONCAT node. 0 or -1 (error on c). */
int sql_func_eval(sql_cursor *c, const enode *e, sv *out);
/** a & b & ... over e->args: Null counts as "", all Null gives Null. */
int sql_func_concat(sql_cursor *c, const enode *e, sv *out);

/* ------------------------------------------ helpers shared (eval.c) */

/** Any value as text in the cursor's per-row scratch. 0, or -1. */
int sql_sv_text(sql_cursor *c, const sv *v, sv *out);
/** Argument v of e as int64 (sql_sv_int): 0, or -1 with 22003 (out of
 *  range) or 22018 (not numeric) recorded on c. */
int sql_arg_int(sql_cursor *c, const enode *e, const sv *v, int64_t *out);
/** Truth of v as a condition into *t: -1 NULL, 0 false, 1 true (non-zero
 *  number, numeric text). 0, or -1 with 22018 recorded for e on c. */
int sql_sv_truth(sql_cursor *c, const enode *e, const sv *v, int *t);
/** Record 22018 (type mismatch) for e on c; returns -1. */
int sql_fail_mismatch(sql_cursor *c, const enode *e);
/** Record 22003 (overflow) for e on c; returns -1. */
int sql_fail_overflow(sql_cursor *c, const enode *e);
/** Record HY001 on c; returns -1. */
int sql_fail_nomem(sql_cursor *c);

/** Set *out to an integer / double / text value. */
void sql_set_int(sv *out, int64_t v);
void sql_set_double(sv *out, double v);
void sql_set_text(sv *out, const uint16_t *s, size_t n);

/** The DateAdd interval code of an ODBC SQL_TSI_ word ('S' 'N' 'H' 'D'
 *  'V' week 'M' 'Q' 'Y'), 0 when word is none, -1 for
 *  SQL_TSI_FRAC_SECOND (Jet dates have no fractions: HYC00). */
int sql_tsi_interval(const char *word);

/** Week of the year of Jet days under firstdayofweek (1 = Sunday) and
 *  firstweekofyear (1 Jan 1, 2 four days, 3 full week), as DatePart "ww"
 *  (func_date.c). */
int sql_date_week(double days, int fdow, int fwoy);

/** The most text a function may build (Space, String, Replace, Format):
 *  longer results are 22001 instead of an unbounded allocation. */
#define SQL_FUNC_MAX_TEXT (1u << 24)

#endif
