/*
 * func_math.c - numeric functions: Abs, Int, Fix, Round, Sgn, Sqr, Exp,
 * Log, Sin, Cos, Tan, Atn and the ODBC FLOOR, CEILING, SIGN, SQRT, MOD,
 * POWER.
 *
 * VBA semantics (Microsoft's "Int, Fix functions", "Round function"...):
 * Int rounds toward -infinity, Fix toward zero; Round(x[, n]) rounds half
 * to even ("banker's rounding"), n from 0; Sgn gives an Integer; Sqr and
 * Log of a number out of their domain are error 5 (22023 here). Integer,
 * Currency and Decimal arguments are handled exactly in their own type
 * (Int of a Currency stays a Currency); others go through double.
 *
 * {fn ROUND(x, n)} is ODBC's ROUND (Appendix E, numeric functions): a
 * negative n rounds |n| places left of the decimal point
 * ({fn ROUND(123.456, -1)} = 120), where VBA's Round raises error 5; it
 * rounds half to even like Round, whose answers it shares for n >= 0.
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <math.h>
#include <string.h>

static int num_arg(sql_cursor *c, const enode *e, const sv *v, double *out)
{
    if (sql_sv_double(v, out) != 0)
        return sql_fail_mismatch(c, e);
    return 0;
}

static int domain(sql_cursor *c, const enode *e, const char *what)
{
    return sql_cursor_fail(c, "22023", e->position, "Invalid procedure call "
                           "or argument: %s (at character %zu)", what,
                           e->position);
}

static int f_abs(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    *out = a[0];
    switch (a[0].k) {
    case K_INT: case K_MONEY:
        if (a[0].i == INT64_MIN)
            return sql_fail_overflow(c, e);
        out->i = a[0].i < 0 ? -a[0].i : a[0].i;
        return 0;
    case K_BOOL:
        sql_set_int(out, a[0].i ? 1 : 0);
        return 0;
    case K_DEC:
        if (i128_sign(out->m) < 0)
            out->m = i128_neg(out->m);
        return 0;
    default: {
        double d;
        if (num_arg(c, e, &a[0], &d) != 0)
            return -1;
        sql_set_double(out, fabs(d));
        return 0;
    }
    }
}

/* Int (floor_mode), Fix, FLOOR, CEILING */
static int int_common(sql_cursor *c, const enode *e, sv *a, sv *out,
                      int mode)
{
    if (a[0].k == K_INT) {
        *out = a[0];
        return 0;
    }
    if (a[0].k == K_BOOL) {
        sql_set_int(out, a[0].i ? -1 : 0);
        return 0;
    }
    if (a[0].k == K_MONEY) {
        int64_t u = a[0].i, q = u / 10000, r = u % 10000;
        if (mode == 'I' && r < 0)
            q--;
        if (mode == 'C' && r > 0)
            q++;
        /* Int of the least Currency, CEILING of the greatest: the whole
         * number is past Currency's range (Access: Overflow) */
        if (q < INT64_MIN / 10000 || q > INT64_MAX / 10000)
            return sql_fail_overflow(c, e);
        *out = a[0];
        out->i = q * 10000;
        return 0;
    }
    if (a[0].k == K_DEC) {
        if (mode == 'C') {
            sv neg = a[0];
            neg.m = i128_neg(neg.m);
            if (sql_dec_trunc(out, &neg, true) != 0)
                return sql_fail_overflow(c, e);
            out->m = i128_neg(out->m);
            return 0;
        }
        if (sql_dec_trunc(out, &a[0], mode == 'I') != 0)
            return sql_fail_overflow(c, e);
        return 0;
    }
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    sql_set_double(out, mode == 'C' ? ceil(d) : mode == 'F' ? trunc(d)
                                              : floor(d));
    /* VBA's Int and Fix keep a Date a Date: Int(#8/4/1994 13:00#) is
     * 8/4/1994 (the whole-day part), not the Double 34550 */
    if (e->k == K_DATE && a[0].k == K_DATE)
        out->k = K_DATE;
    return 0;
}

static int f_int(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return int_common(c, e, a, out, 'I');
}

static int f_fix(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return int_common(c, e, a, out, 'F');
}

static int f_ceiling(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return int_common(c, e, a, out, 'C');
}

/* x rounded half to even at digits places (VBA Round on a Double: the
 * scaled value is rounded with ties to even) */
static double round_even(double x, int digits)
{
    double f = pow(10.0, digits);
    double y = x * f;
    if (!isfinite(y))
        return x;
    return nearbyint(y) / f;
}

/* Round's places argument (the second, 0 when absent) into *digits:
 * 0, or -1 after 22003 (past 64 bits) / 22018 (not a number). */
static int round_places(sql_cursor *c, const enode *e, const sv *a,
                        int64_t *digits)
{
    *digits = 0;
    if (e->nargs > 1) {
        int rc = sql_sv_int(&a[1], digits);
        if (rc != 0)
            return rc == -2 ? sql_fail_overflow(c, e)
                            : sql_fail_mismatch(c, e);
    }
    return 0;
}

static int f_round(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t digits;
    if (round_places(c, e, a, &digits) != 0)
        return -1;
    if (digits < 0 || digits > 28)
        return domain(c, e, "Round with negative or too many places");
    switch (a[0].k) {
    case K_INT:
        *out = a[0];
        return 0;
    case K_BOOL:
        sql_set_int(out, a[0].i ? -1 : 0);
        return 0;
    case K_MONEY:
        *out = a[0];
        if (digits < 4) {
            int64_t f = 1;
            for (int64_t k = digits; k < 4; k++)
                f *= 10;
            int64_t q = a[0].i / f, r = a[0].i % f;
            int64_t ar = r < 0 ? -r : r;
            if (2 * ar > f || (2 * ar == f && (q % 2 != 0)))
                q += a[0].i < 0 ? -1 : 1;
            if (q < INT64_MIN / f || q > INT64_MAX / f)
                return sql_fail_overflow(c, e);    /* past Currency */
            out->i = q * f;
        }
        return 0;
    case K_DEC:
        if (sql_dec_round(out, &a[0], (int)digits) != 0)
            return sql_fail_overflow(c, e);
        return 0;
    default: {
        double d;
        if (num_arg(c, e, &a[0], &d) != 0)
            return -1;
        sql_set_double(out, digits > 15 ? d : round_even(d, (int)digits));
        return 0;
    }
    }
}

/* m / 10^scale rounded half to even to a multiple of 10^k (k >= 1):
 * the multiple as a whole number into *out; false when it needs more
 * than 127 bits. */
static bool round_left_exact(jet_i128 m, int scale, int64_t k,
                             jet_i128 *out)
{
    jet_i128 ten = i128_of(10), d = i128_of(1), r;
    if (scale + k > 38) {               /* 10^39 > 2 * 2^127: always 0 */
        *out = i128_of(0);
        return true;
    }
    for (int64_t i = 0; i < scale + k; i++)
        d = i128_mul(d, ten);
    jet_i128 q = i128_divmod(m, d, &r);
    jet_u128 twice = u128_add(i128_mag(r), i128_mag(r));
    int c = u128_cmp(twice, i128_mag(d));
    if (c > 0 || (c == 0 && i128_to_i64(q) % 2 != 0))
        q = i128_add(q, i128_of(i128_sign(m)));
    /* q * 10^k, refusing what passes 127 bits */
    jet_u128 rem, lim = u128_divmod(u128_sub(u128_shl(u128_of(1), 127),
                                             u128_of(1)), u128_of(10), &rem);
    for (int64_t i = 0; i < k; i++) {
        if (u128_cmp(i128_mag(q), lim) > 0)
            return false;
        q = i128_mul(q, ten);
    }
    *out = q;
    return true;
}

static int f_odbc_round(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t digits;
    if (round_places(c, e, a, &digits) != 0)
        return -1;
    if (digits >= 0 && digits <= 28)
        return f_round(c, e, a, out);
    if (digits > 28) {                  /* more places than any value has */
        *out = a[0];
        if (a[0].k == K_BOOL)
            sql_set_int(out, a[0].i ? -1 : 0);
        return 0;
    }
    int64_t k = -digits;
    jet_i128 m, q;
    int scale;
    if (a[0].k == K_INT || a[0].k == K_BOOL || a[0].k == K_MONEY ||
        a[0].k == K_DEC) {
        if (!sql_dec_exact(&a[0], &m, &scale) ||
            !round_left_exact(m, scale, k > 100 ? 100 : k, &q))
            return sql_fail_overflow(c, e);
        if (a[0].k == K_DEC) {
            if (u128_cmp(i128_mag(q), u128_shl(u128_of(1), 96)) >= 0)
                return sql_fail_overflow(c, e);
            sql_dec_set(out, q, 0);
            return 0;
        }
        if (a[0].k == K_MONEY)
            q = i128_mul(q, i128_of(10000));    /* |q| < 2^63 / 10^4 * 2 */
        if (!i128_fits_i64(q))
            return sql_fail_overflow(c, e);
        sql_set_int(out, i128_to_i64(q));
        out->k = a[0].k == K_MONEY ? K_MONEY : K_INT;
        return 0;
    }
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    double f = pow(10.0, (double)(k > 400 ? 400 : k));
    sql_set_double(out, isinf(f) ? 0.0 * d : nearbyint(d / f) * f);
    if (isinf(out->d))
        return sql_fail_overflow(c, e);
    return 0;
}

static int f_sgn(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int s;
    if (a[0].k == K_INT || a[0].k == K_MONEY) {
        s = a[0].i > 0 ? 1 : a[0].i < 0 ? -1 : 0;
    } else if (a[0].k == K_BOOL) {
        s = a[0].i ? -1 : 0;
    } else if (a[0].k == K_DEC) {
        s = i128_sign(a[0].m);
    } else {
        double d;
        if (num_arg(c, e, &a[0], &d) != 0)
            return -1;
        s = d > 0 ? 1 : d < 0 ? -1 : 0;
    }
    sql_set_int(out, s);
    return 0;
}

static int f_sqr(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    if (d < 0)
        return domain(c, e, "square root of a negative number");
    sql_set_double(out, sqrt(d));
    return 0;
}

static int f_exp(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    double r = exp(d);
    if (!isfinite(r))
        return sql_fail_overflow(c, e);
    sql_set_double(out, r);
    return 0;
}

static int f_log(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    if (d <= 0)
        return domain(c, e, "logarithm of a number <= 0");
    sql_set_double(out, log(d));
    return 0;
}

static int trig(sql_cursor *c, const enode *e, sv *a, sv *out,
                double (*fn)(double))
{
    double d;
    if (num_arg(c, e, &a[0], &d) != 0)
        return -1;
    double r = fn(d);
    if (!isfinite(r))
        return sql_fail_overflow(c, e);
    sql_set_double(out, r);
    return 0;
}

static int f_sin(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return trig(c, e, a, out, sin);
}

static int f_cos(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return trig(c, e, a, out, cos);
}

static int f_tan(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return trig(c, e, a, out, tan);
}

static int f_atn(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return trig(c, e, a, out, atan);
}

/* MOD(a, b) (ODBC): as the Mod operator, operands rounded half even */
static int f_mod(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t x, y;
    int rx = sql_sv_int(&a[0], &x), ry = sql_sv_int(&a[1], &y);
    if (rx == -2 || ry == -2)
        return sql_fail_overflow(c, e);
    if (rx || ry)
        return sql_fail_mismatch(c, e);
    if (y == 0)
        return sql_cursor_fail(c, "22012", e->position, "Division by zero "
                               "(at character %zu)", e->position);
    sql_set_int(out, y == -1 ? 0 : x % y);
    return 0;
}

static int f_power(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    double x, y;
    if (num_arg(c, e, &a[0], &x) != 0 || num_arg(c, e, &a[1], &y) != 0)
        return -1;
    double r = pow(x, y);
    if (isnan(r))
        return domain(c, e, "power of a negative number to a fraction");
    if (!isfinite(r))
        return sql_fail_overflow(c, e);
    sql_set_double(out, r);
    return 0;
}

const sql_funcdef sql_funcs_math[] = {
    { "ABS", 1, 1, 0, FR_NUM0, 0, f_abs },
    { "INT", 1, 1, 0, FR_NUM0_DATE, 0, f_int },
    { "FIX", 1, 1, 0, FR_NUM0_DATE, 0, f_fix },
    { "FLOOR", 1, 1, FN_ODBC, FR_NUM0, 0, f_int },
    { "CEILING", 1, 1, FN_ODBC, FR_NUM0, 0, f_ceiling },
    { "CEIL", 1, 1, FN_ODBC, FR_NUM0, 0, f_ceiling },
    { "ROUND", 1, 2, 0, FR_NUM0, 0, f_round },
    { "SGN", 1, 1, 0, FR_INT16, 0, f_sgn },
    { "SIGN", 1, 1, FN_ODBC, FR_INT16, 0, f_sgn },
    { "SQR", 1, 1, 0, FR_DOUBLE, 0, f_sqr },
    { "SQRT", 1, 1, FN_ODBC, FR_DOUBLE, 0, f_sqr },
    { "EXP", 1, 1, 0, FR_DOUBLE, 0, f_exp },
    { "LOG", 1, 1, 0, FR_DOUBLE, 0, f_log },
    { "SIN", 1, 1, 0, FR_DOUBLE, 0, f_sin },
    { "COS", 1, 1, 0, FR_DOUBLE, 0, f_cos },
    { "TAN", 1, 1, 0, FR_DOUBLE, 0, f_tan },
    { "ATN", 1, 1, 0, FR_DOUBLE, 0, f_atn },
    { "ATAN", 1, 1, FN_ODBC, FR_DOUBLE, 0, f_atn },
    { "MOD", 2, 2, FN_ODBC, FR_LONG, 0, f_mod },
    { "POWER", 2, 2, FN_ODBC, FR_DOUBLE, 0, f_power },
    { NULL, 0, 0, 0, 0, 0, NULL },
};

const sql_funcdef sql_funcs_escape[] = {
    { "ROUND", 1, 2, FN_ODBC, FR_NUM0, 0, f_odbc_round },
    { NULL, 0, 0, 0, 0, 0, NULL },
};
