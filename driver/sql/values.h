/*
 * values.h - values of the query engine and the operations on them that
 * need no cursor (values.c, sortkey.c's text order, func_dec.c's exact
 * decimals): the bottom layer, used by the planner, the evaluator and
 * the operators; it includes no other engine header.
 *
 * sv: a value during evaluation (NULL, bool, integer, money units,
 * double, date, UTF-16 text, bytes, Decimal). Text inside sv is UTF-16
 * code units (host order), borrowed from a column cache, a parameter,
 * the statement's arena or the cursor's per-row scratch.
 */
#ifndef JET_DRIVER_SQL_VALUES_H
#define JET_DRIVER_SQL_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "int128.h"
#include "jet.h"

/* ---------------------------------------------------------- values */

/** Value kinds (static types of enodes use the same codes). */
enum {
    K_NULL = 0,
    K_BOOL,         /* i: 0 or 1 (compares as 0 / -1, Access True = -1) */
    K_INT,          /* i */
    K_MONEY,        /* i: 1/10000 units */
    K_DOUBLE,       /* d; has_units: a literal exact in money units (i) */
    K_DATE,         /* d: days since 1899-12-30 (Jet encoding) */
    K_TEXT,         /* s, n: UTF-16 code units */
    K_BIN,          /* p, len */
    K_GUID,         /* p: 16 bytes */
    K_ANY,          /* static only: a parameter of unknown type */
    K_DEC           /* m / 10^scale exactly (Decimal; func_dec.c) */
};

typedef struct sv {
    uint8_t k;
    bool has_units;
    bool has_dec;           /* K_DOUBLE literal: m, scale exact too */
    bool single;            /* K_DOUBLE: a Single's value (a column or
                               CSng): text shows 7 digits, as VBA does */
    uint8_t scale;          /* K_DEC (and has_dec): decimal places */
    int64_t i;
    double d;
    const uint16_t *s;
    size_t n;
    const uint8_t *p;
    size_t len;
    jet_i128 m;             /* K_DEC (and has_dec): scaled integer */
} sv;

/* LIKE wildcard flags */
#define LIKE_ACCESS 1u      /* * ? # */
#define LIKE_ANSI 2u        /* % _ */

typedef struct like_pat like_pat;

/**
 * The constants of an IN (...) list as a hash set (compile.c builds it at
 * prepare for lists of at least SQL_IN_SET_MIN items that are all
 * constants of one hash class; eval.c probes it). Equality is sql_sv_cmp's
 * (text: equal ignoring case, as '=' compares), so a probe finds exactly
 * the items the linear OR-form would; values of another class (or ones
 * whose hash could disagree with that equality) take the linear path.
 * Slots hold item pointers (open addressing, linear probing); arena memory.
 */
typedef struct in_set {
    uint8_t cls;            /* IN_C_* of every non-NULL item */
    bool has_null;          /* a NULL among the items: a miss is NULL */
    size_t mask;            /* slots - 1 (a power of two) */
    const sv **slot;        /* NULL: empty */
    uint64_t *hash;         /* sql_sv_hash of slot[i]'s value */
} in_set;

/** IN lists at least this long (constants) get an in_set. */
#define SQL_IN_SET_MIN 8

/** Hash classes of in_set (0: a value no set can hold or probe). */
enum { IN_C_NUM = 1, IN_C_DATE, IN_C_TEXT, IN_C_BIN, IN_C_GUID };

/**
 * sortkey.c: order of two UTF-16 texts in Access's General sort order co
 * (the running statement's db's, sql_cursor.text_order: the order of its
 * text indexes; JET_COLL_NONE: General - Legacy), then by case-folded
 * code points: -1, 0, 1; 0 exactly when they are equal ignoring case
 * (jet_text_fold). Keys as jet_text_sort_key_co().
 */
int sql_collate_cmp(jet_collation co, const uint16_t *a, size_t an,
                    const uint16_t *b, size_t bn);

/**
 * Units of UTF-16 text s (n units) without its trailing spaces (U+0020).
 * Jet compares text as if padded with spaces: `=`, `<`, IN, joins,
 * GROUP BY, DISTINCT and UNION find 'Sweden' and 'Sweden ' equal (Allen
 * Browne, "Trailing spaces give inconsistent query results"; Jet's text
 * index keys drop trailing spaces too: Jackcess
 * GeneralLegacyIndexCodes.writeNonNullIndexTextValue), LIKE does not.
 */
static inline size_t sql_text_unpadded(const uint16_t *s, size_t n)
{
    while (n && s[n - 1] == 0x20)
        n--;
    return n;
}
/** Compare two UTF-16 texts in sort order co: equal ignoring case and
 *  trailing spaces (sql_collate_cmp in sortkey.c). */
int sql_text_cmp(jet_collation co, const uint16_t *a, size_t an,
                 const uint16_t *b, size_t bn);
/**
 * Compare a and b (neither NULL; text in sort order co): *res < 0, 0, > 0.
 * Returns 0, or -1 when
 * the kinds do not compare (text that is not a number/date against a
 * number/date, bytes against text): the caller reports 22018.
 */
int sql_sv_cmp(jet_collation co, const sv *a, const sv *b, int *res);
/** Parse a date/time literal (ISO, US m/d/y, time alone, ODBC d/t/ts)
 *  into Jet days. Returns 0 or -1. kind: 0 any, 'd', 't', 's' (ts). */
int sql_parse_datetime(const char *s, size_t n, int kind, double *out);
/** Text to number: K_INT or K_DOUBLE into *out; -1 when not a number. */
int sql_text_to_number(const uint16_t *s, size_t n, sv *out);
/** Compile a LIKE pattern (UTF-16) with LIKE_* flags from arena-like
 *  allocation alloc(ctx, bytes). NULL on memory failure. */
like_pat *sql_like_compile(const uint16_t *s, size_t n, unsigned flags,
                           void *(*alloc)(void *, size_t), void *ctx);
/** True when the pattern is malformed ('[' without ']', a descending
 *  range): matching it is 22025, VBA's "Invalid pattern string". */
bool sql_like_invalid(const like_pat *pat);
/** k when the pattern is k elements that each match one code point (a
 *  character, ?, #, [...]) then one * (LIKE 'abc%'): whether text
 *  matches then depends only on its first k code points (and that it has
 *  them). SIZE_MAX for any other pattern. */
size_t sql_like_fixed_prefix(const like_pat *pat);
/** Match text against a compiled pattern, case-insensitively. */
bool sql_like_match(const like_pat *pat, const uint16_t *s, size_t n);
/** Days (Jet) -> ms key that orders chronologically. */
int64_t sql_date_key(double days);
/** Calendar fields -> Jet days. */
double sql_days_from_civil(int y, int m, int d, int64_t ms_of_day);
/** Order of two sort keys: NULL lowest, unlike kinds by kind, text in
 *  sort order co. */
int sql_key_cmp(jet_collation co, const sv *a, const sv *b);
/** Sort v[0..n) by sql_key_cmp in sort order co (equal values in no
 *  particular order); allocates nothing. */
void sql_sv_sort(sv *v, size_t n, jet_collation co);
/** Hash of a value consistent with sql_sv_cmp equality for values of
 *  one hash class (numbers, dates, text folded, bytes). */
uint64_t sql_sv_hash(const sv *v);
/** The in_set class (IN_C_*) of v, or 0 when v can be neither
 *  stored nor probed (NULL, Decimal, NaN, Currency beyond 2^53 units,
 *  where the double hash could disagree with exact equality). */
int sql_in_class(const sv *v);
/** Whether v (of class s->cls) equals an item of s (text in sort
 *  order co): 1 or 0. */
int sql_in_find(jet_collation co, const in_set *s, const sv *v);
/** Milliseconds in a day (the unit of sql_date_key). */
#define MS_PER_DAY 86400000LL
/** a / b rounded toward minus infinity. */
int64_t sql_floor_div(int64_t a, int64_t b);
/** Jet day number (0 = 1899-12-30) -> year, month, day (proleptic
 *  Gregorian, H. Hinnant's algorithm). */
void sql_civil(int64_t jday, int *y, int *m, int *d);
/** Year, month, day -> Jet day number (any month/day; no validation). */
int64_t sql_jday_of(int64_t y, int64_t m, int64_t d);
/** Whether y is a Gregorian leap year. */
bool sql_leap_year(int y);
/** Days in month m (1-12) of year y. */
int sql_month_len(int y, int m);
/** Millisecond key (sql_date_key) -> Jet days. */
double sql_days_of_key(int64_t key);
/** Two-digit years as Windows reads them: 0-29 -> 2000s, 30-99 -> 1900s;
 *  other years unchanged. */
int64_t sql_window_year(int64_t y);
/** English month names (January first) and day names (Sunday first),
 *  as Access writes and reads them. */
extern const char *const sql_month_names[12];
extern const char *const sql_day_names[7];
/** Dates Access reads beyond ISO and m/d/y: month names (8-Oct-2021,
 *  October 8, 2021), d/m/y when the first number is no month, 12/24-hour
 *  times. Jet days into *out; 0, or -1 when not a date. */
int sql_date_parse_loose(const char *s, size_t n, double *out);

/** Parse ASCII text of a number literal into *out (K_INT when it fits
 *  32 bits, else K_DOUBLE with money units when exact). -1 when not a
 *  number, -2 when beyond a Double (1e999: Overflow). */
int sql_number_literal(const char *text, sv *out);
/** UTF-8 -> UTF-16 via alloc; NULL on failure. */
uint16_t *sql_utf8_to_u16(const char *s, size_t *n,
                          void *(*alloc)(void *, size_t), void *ctx);
/** Text of a value for messages / plan (ASCII-safe, truncated). */
void sql_sv_describe(const sv *v, char *buf, size_t cap);

/** Any value as a double (text parsed). 0, or -1 when not numeric. */
int sql_sv_double(const sv *v, double *out);
/** Any value as int64, doubles rounded half to even. 0, -1 not numeric,
 *  -2 out of range. */
int sql_sv_int(const sv *v, int64_t *out);
/** Any value as Jet days (text parsed as a date). 0, or -1. */
int sql_sv_date(const sv *v, double *out);

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

#endif
