/*
 * func.h - the table of scalar functions of the query engine.
 *
 * Each function is one sql_funcdef (name, arity, how NULL arguments are
 * treated, the rule giving its result type, the C implementation), kept
 * in per-family arrays (func_text.c, func_math.c, func_date.c,
 * func_conv.c) as SQLite keeps FuncDef arrays; func.c looks names up
 * (case-insensitively), types calls at prepare time and dispatches them
 * at run time. The binder (plan.c) calls sql_func_find + sql_func_bind;
 * the evaluator (eval.c) calls sql_func_eval for N_FUNC and N_CONCAT
 * nodes. Semantics are Jet's/VBA's (README "Functions").
 *
 * Also here: the value helpers the implementations share (conversions,
 * errors) and exact DECIMAL arithmetic (func_dec.c) that aggregates use.
 */
#ifndef JET_DRIVER_SQL_FUNC_H
#define JET_DRIVER_SQL_FUNC_H

#include "engine_int.h"

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
/** Any value as a double (text parsed). 0, or -1 when not numeric. */
int sql_sv_double(const sv *v, double *out);
/** Any value as int64, doubles rounded half to even. 0, -1 not numeric,
 *  -2 out of range. */
int sql_sv_int(const sv *v, int64_t *out);
/** Argument v of e as int64 (sql_sv_int): 0, or -1 with 22003 (out of
 *  range) or 22018 (not numeric) recorded on c. */
int sql_arg_int(sql_cursor *c, const enode *e, const sv *v, int64_t *out);
/** Any value as Jet days (text parsed as a date). 0, or -1. */
int sql_sv_date(const sv *v, double *out);
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

/** Dates Access reads beyond ISO and m/d/y: month names (8-Oct-2021,
 *  October 8, 2021), d/m/y when the first number is no month, 12/24-hour
 *  times. Jet days into *out; 0, or -1 when not a date (func_date.c). */
int sql_date_parse_loose(const char *s, size_t n, double *out);

/** The DateAdd interval code of an ODBC SQL_TSI_ word ('S' 'N' 'H' 'D'
 *  'V' week 'M' 'Q' 'Y'), 0 when word is none, -1 for
 *  SQL_TSI_FRAC_SECOND (Jet dates have no fractions: HYC00). */
int sql_tsi_interval(const char *word);

/** Week of the year of Jet days under firstdayofweek (1 = Sunday) and
 *  firstweekofyear (1 Jan 1, 2 four days, 3 full week), as DatePart "ww"
 *  (func_date.c). */
int sql_date_week(double days, int fdow, int fwoy);

/* ------------------------------------- exact decimals (func_dec.c)
 *
 * For the evaluator and the aggregates: SUM over DECIMAL keeps a K_DEC
 * accumulator and calls sql_dec_arith(&acc, '+', &acc, &v) per value
 * (-1 = 22003 overflow); AVG divides the sum by the count the same way
 * ('/' with a K_INT count); MIN/MAX compare with sql_sv_cmp, which is
 * exact for DECIMAL, CURRENCY, integers and number literals.
 */

/** Set *out to the Decimal m / 10^scale (scale 0..28, |m| < 2^96). */
void sql_dec_set(sv *out, jet_i128 m, int scale);
/** The exact decimal of v when it has one (Boolean, integer, Currency,
 *  Decimal, a number literal): true and *m, *scale; false otherwise. */
bool sql_dec_exact(const sv *v, jet_i128 *m, int *scale);
/** Compare two numeric values, exactly when both have an exact decimal
 *  (else as doubles): -1, 0, 1. */
int sql_dec_cmp(const sv *a, const sv *b);
/** a op b ('+', '-', '*', '/') as a Decimal into *out (may alias a).
 *  0; -1 overflow (22003); -2 division by zero; -3 an operand inexact. */
int sql_dec_arith(sv *out, char op, const sv *a, const sv *b);
/** Round half to even at digits places (0..28) into a Decimal. 0, -1. */
int sql_dec_round(sv *out, const sv *v, int digits);
/** Integer part: toward zero, or toward -infinity when floor_mode. */
int sql_dec_trunc(sv *out, const sv *v, bool floor_mode);
/** Nearest double. */
double sql_dec_to_double(const sv *v);
/** A double as a Decimal of its 15 significant digits. 0, or -1. */
int sql_dec_from_double(sv *out, double d);
/** Parse "[-]digits[.digits][e[-]n]" exactly (rounded half even past 28
 *  places). 0, or -1 when malformed or out of range. */
int sql_dec_parse(sv *out, const char *text);
/** Plain text ("-12.5", no trailing fraction zeros) into buf (NUL
 *  terminated, truncated to cap); returns the full length. */
size_t sql_dec_format(const sv *v, char *buf, size_t cap);
/** jet_value NUMERIC -> K_DEC sv. */
void sql_dec_from_value(const jet_value *v, sv *out);
/** K_DEC sv -> jet_value NUMERIC (precision 28, the value's scale). */
void sql_dec_to_value(const sv *v, jet_value *out);

/** The most text a function may build (Space, String, Replace, Format):
 *  longer results are 22001 instead of an unbounded allocation. */
#define SQL_FUNC_MAX_TEXT (1u << 24)

#endif
