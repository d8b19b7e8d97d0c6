/*
 * func_dec.c - exact DECIMAL values: conversion, comparison, + - * /,
 * rounding and text, for the evaluator, CDec and the aggregates.
 *
 * A K_DEC sv holds m / 10^scale with m a signed 128-bit integer whose
 * magnitude stays below 2^96 and scale 0..28: the range of Jet's and
 * VBA's Decimal (96-bit magnitude, scale 0-28; Microsoft's "Decimal data
 * type" page). Results that need more digits lose fraction digits first,
 * rounded half to even (as VBA's Decimal arithmetic does); a result whose
 * integer part needs more than 96 bits is an overflow (22003). Number
 * literals keep their exact decimal beside the double (has_dec), so a
 * literal compares exactly against BIGINT, CURRENCY and DECIMAL values.
 */
#include "config.h"

#include "values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEC_MAX_SCALE 28

typedef jet_u128 u128;

#define MAG_LIMIT u128_make(1ull << 32, 0)             /* 2^96, exclusive */

static u128 pow10u(int k)
{
    u128 p = u128_of(1);
    while (k-- > 0)
        p = u128_mul(p, u128_of(10));
    return p;
}

static u128 mag(jet_i128 m)
{
    return i128_mag(m);
}

/* m / 10 rounded half to even (magnitude) */
static u128 div10_even(u128 m)
{
    u128 r, q = u128_divmod(m, u128_of(10), &r);
    if (u128_lo64(r) > 5 || (u128_lo64(r) == 5 && (u128_lo64(q) & 1)))
        q = u128_add(q, u128_of(1));
    return q;
}

/* m / 10^k rounded half to even, once (k <= 38) */
static u128 div_pow10_even(u128 m, int k)
{
    if (k <= 0)
        return m;
    if (k > 38)
        return u128_of(0);
    u128 p = pow10u(k), r, q = u128_divmod(m, p, &r);
    int c = u128_cmp(r, u128_sub(p, r));
    if (c > 0 || (c == 0 && (u128_lo64(q) & 1)))
        q = u128_add(q, u128_of(1));
    return q;
}

void sql_dec_set(sv *out, jet_i128 m, int scale)
{
    memset(out, 0, sizeof *out);
    out->k = K_DEC;
    out->m = m;
    out->scale = (uint8_t)scale;
}

/* Store magnitude u (sign neg) at scale, dropping fraction digits until
 * it fits 96 bits and scale <= 28. 0, or -1 on overflow. */
static int dec_store(sv *out, bool neg, u128 u, int scale)
{
    /* how many fraction digits must go: beyond 28 places, and until
     * the magnitude fits 96 bits; then one rounding */
    int drop = scale > DEC_MAX_SCALE ? scale - DEC_MAX_SCALE : 0;
    while (scale - drop > 0 &&
           u128_cmp(u128_divmod(u, pow10u(drop), NULL), MAG_LIMIT) >= 0)
        drop++;
    if (drop) {
        u = div_pow10_even(u, drop);
        scale -= drop;
        if (u128_cmp(u, MAG_LIMIT) >= 0 && scale > 0) { /* rounding carried */
            u = div10_even(u);
            scale--;
        }
    }
    if (u128_cmp(u, MAG_LIMIT) >= 0)
        return -1;
    while (scale < 0) {
        if (u128_cmp(u, u128_divmod(u128_sub(MAG_LIMIT, u128_of(1)),
                                    u128_of(10), NULL)) > 0)
            return -1;
        u = u128_mul(u, u128_of(10));
        scale++;
    }
    jet_i128 m = i128_from_u128(u);
    sql_dec_set(out, neg ? i128_neg(m) : m, scale);
    return 0;
}

bool sql_dec_exact(const sv *v, jet_i128 *m, int *scale)
{
    switch (v->k) {
    case K_BOOL: *m = i128_of(v->i ? -1 : 0); *scale = 0; return true;
    case K_INT: *m = i128_of(v->i); *scale = 0; return true;
    case K_MONEY:
        /* Currency as the Decimal VBA converts it to: no trailing
         * fraction zeros (CDec(CCur(0.25)) is 0.25) */
        *m = i128_of(v->i);
        *scale = 4;
        while (*scale > 0 && i128_to_i64(*m) % 10 == 0) {
            *m = i128_of(i128_to_i64(*m) / 10);
            (*scale)--;
        }
        return true;
    case K_DEC: *m = v->m; *scale = v->scale; return true;
    case K_DOUBLE:
        if (!v->has_dec)
            return false;
        *m = v->m;
        *scale = v->scale;
        return true;
    default:
        return false;
    }
}

double sql_dec_to_double(const sv *v)
{
    /* correctly rounded for the common cases: exact integer part and
     * a power of ten that is exact in double */
    long double x = i128_to_ldouble(v->m);
    if (v->scale <= 22)
        return (double)(x / (long double)pow(10.0, v->scale));
    return (double)(x / powl(10.0L, v->scale));
}

int sql_dec_from_double(sv *out, double d)
{
    if (!isfinite(d) || fabs(d) >= 7.9e28)
        return -1;
    /* 15 significant digits, as VBA's CDec of a Double */
    char buf[64];
    jet_fmt_double_c(buf, sizeof buf, 'e', 14, d);
    return sql_dec_parse(out, buf) == 0 ? 0 : -1;
}

int sql_dec_parse(sv *out, const char *t)
{
    bool neg = false, any = false;
    u128 u = u128_of(0);
    int scale = 0, frac = -1;
    long exp10 = 0;
    int dropped = 0;        /* digits beyond 38 ignored (after rounding) */
    if (*t == '-' || *t == '+')
        neg = *t++ == '-';
    for (; *t; t++) {
        if (*t == '.') {
            if (frac >= 0)
                return -1;
            frac = 0;
            continue;
        }
        if (*t == 'e' || *t == 'E') {
            char *end;
            exp10 = strtol(t + 1, &end, 10);
            if (end == t + 1 || *end || exp10 > 100 || exp10 < -100)
                return -1;
            break;
        }
        if (*t < '0' || *t > '9')
            return -1;
        any = true;
        if (u128_cmp(u, u128_divmod(u128_make(1ull << 56, 0) /* 2^120 */,
                                    u128_of(10), NULL)) > 0) {
            /* more digits than we can hold: keep the magnitude */
            if (frac < 0)
                dropped++;
            continue;
        }
        u = u128_add(u128_mul(u, u128_of(10)), u128_of((uint64_t)(*t - '0')));
        if (frac >= 0)
            frac++;
    }
    if (!any)
        return -1;
    scale = (frac < 0 ? 0 : frac) - (int)exp10 - dropped;
    if (scale > DEC_MAX_SCALE && !u128_is_zero(u)) {
        u = div_pow10_even(u, scale - DEC_MAX_SCALE);
        scale = DEC_MAX_SCALE;
    }
    if (u128_is_zero(u))
        scale = scale < 0 ? 0 : scale > DEC_MAX_SCALE ? DEC_MAX_SCALE : scale;
    return dec_store(out, neg, u, scale);
}

int sql_dec_cmp(const sv *a, const sv *b)
{
    jet_i128 ma, mb;
    int sa, sb;
    if (!sql_dec_exact(a, &ma, &sa) || !sql_dec_exact(b, &mb, &sb)) {
        double x = a->k == K_DEC ? sql_dec_to_double(a) : a->d;
        double y = b->k == K_DEC ? sql_dec_to_double(b) : b->d;
        return x < y ? -1 : x > y;
    }
    bool na = i128_sign(ma) < 0, nb = i128_sign(mb) < 0;
    if (na != nb)
        return na ? -1 : 1;
    u128 ua = mag(ma), ub = mag(mb);
    /* integer parts, then the fractions at the common scale */
    u128 pa = pow10u(sa), pb = pow10u(sb);
    u128 ra, rb, ia = u128_divmod(ua, pa, &ra), ib = u128_divmod(ub, pb, &rb);
    int r;
    if (u128_cmp(ia, ib) != 0) {
        r = u128_cmp(ia, ib);
    } else {
        int s = sa > sb ? sa : sb;
        u128 fa = u128_mul(ra, pow10u(s - sa)), fb = u128_mul(rb, pow10u(s - sb));
        r = u128_cmp(fa, fb);
    }
    return na ? -r : r;
}

/* ---------------------------------------------------------- arithmetic */

/* 256-bit unsigned as four 64-bit limbs, little-endian */
typedef struct { uint64_t w[4]; } u256;

static u256 mul128(u128 a, u128 b)
{
    uint64_t x[2] = { u128_lo64(a), u128_hi64(a) };
    uint64_t y[2] = { u128_lo64(b), u128_hi64(b) };
    u256 r = { { 0, 0, 0, 0 } };
    for (int i = 0; i < 2; i++) {
        u128 carry = u128_of(0);
        for (int j = 0; j < 2; j++) {
            u128 t = u128_add(u128_add(u128_mul(u128_of(x[i]), u128_of(y[j])),
                                       u128_of(r.w[i + j])), carry);
            r.w[i + j] = u128_lo64(t);
            carry = u128_of(u128_hi64(t));
        }
        r.w[i + 2] += u128_lo64(carry);
    }
    return r;
}

/* r / 10 with the remainder; in place */
static unsigned div256_10(u256 *r)
{
    u128 rem = u128_of(0);
    for (int i = 3; i >= 0; i--) {
        u128 cur = u128_make(u128_lo64(rem), r->w[i]);
        r->w[i] = u128_lo64(u128_divmod(cur, u128_of(10), &rem));
    }
    return (unsigned)u128_lo64(rem);
}

static bool fits128(const u256 *r)
{
    return r->w[2] == 0 && r->w[3] == 0;
}

int sql_dec_arith(sv *out, char op, const sv *a, const sv *b)
{
    jet_i128 ma, mb;
    int sa, sb;
    if (!sql_dec_exact(a, &ma, &sa) || !sql_dec_exact(b, &mb, &sb))
        return -3;
    bool na = i128_sign(ma) < 0, nb = i128_sign(mb) < 0;
    u128 ua = mag(ma), ub = mag(mb);
    if (op == '+' || op == '-') {
        if (op == '-')
            nb = !nb;
        int s = sa > sb ? sa : sb;
        /* both magnitudes < 2^120 after scaling by at most 10^28 when
         * below 2^96? not always: scale down the longer one instead */
        u128 xa = ua, xb = ub;
        int ka = s - sa, kb = s - sb;
        u128 lim = u128_divmod(u128_make(1ull << 61, 0) /* 2^125 */,
                               u128_of(10), NULL);
        while (ka > 0 && u128_cmp(xa, lim) <= 0) { xa = u128_mul(xa, u128_of(10)); ka--; }
        while (kb > 0 && u128_cmp(xb, lim) <= 0) { xb = u128_mul(xb, u128_of(10)); kb--; }
        if (ka || kb) {
            /* could not align exactly: drop digits of the finer one */
            int drop = ka > kb ? ka : kb;
            s -= drop;
            xa = div_pow10_even(xa, drop - ka);
            xb = div_pow10_even(xb, drop - kb);
        }
        bool neg;
        u128 u;
        if (na == nb) {
            u = u128_add(xa, xb);
            neg = na;
        } else if (u128_cmp(xa, xb) >= 0) {
            u = u128_sub(xa, xb);
            neg = na;
        } else {
            u = u128_sub(xb, xa);
            neg = nb;
        }
        return dec_store(out, neg && !u128_is_zero(u), u, s);
    }
    if (op == '*') {
        u256 p = mul128(ua, ub);
        int s = sa + sb;
        /* reduce to 128 bits first, rounding half to even on the way */
        unsigned last = 0;
        bool sticky = false;
        while (!fits128(&p) && s > 0) {
            sticky = sticky || last;
            last = div256_10(&p);
            s--;
            if (fits128(&p)) {
                u128 q = u128_make(p.w[1], p.w[0]);
                if (last > 5 || (last == 5 && (sticky || (u128_lo64(q) & 1))))
                    q = u128_add(q, u128_of(1));
                return dec_store(out, (na != nb) && !u128_is_zero(q), q, s);
            }
        }
        if (!fits128(&p))
            return -1;
        u128 q = u128_make(p.w[1], p.w[0]);
        return dec_store(out, (na != nb) && !u128_is_zero(q), q, s);
    }
    if (op == '/') {
        if (u128_is_zero(ub))
            return -2;
        /* long division digit by digit: integer quotient, then fraction
         * digits while they fit 96 bits and 28 places, rounded half even */
        u128 r, q = u128_divmod(ua, ub, &r);
        int s = sa - sb;
        u128 qlim = u128_divmod(MAG_LIMIT, u128_of(10), NULL);
        while (!u128_is_zero(r) && u128_cmp(q, qlim) < 0 && s < DEC_MAX_SCALE) {
            r = u128_mul(r, u128_of(10));   /* r < ub < 2^96: no overflow */
            q = u128_add(u128_mul(q, u128_of(10)), u128_divmod(r, ub, &r));
            s++;
        }
        if (!u128_is_zero(r)) {
            int c = u128_cmp(u128_shl(r, 1), ub);
            if (c > 0 || (c == 0 && (u128_lo64(q) & 1)))
                q = u128_add(q, u128_of(1));
        }
        /* strip trailing zeros of the fraction */
        u128 q10, r10;
        while (s > 0 && !u128_is_zero(q) &&
               (q10 = u128_divmod(q, u128_of(10), &r10), u128_is_zero(r10))) {
            q = q10;
            s--;
        }
        return dec_store(out, (na != nb) && !u128_is_zero(q), q, s);
    }
    return -3;
}

int sql_dec_round(sv *out, const sv *v, int digits)
{
    jet_i128 m;
    int s;
    if (!sql_dec_exact(v, &m, &s))
        return -1;
    bool neg = i128_sign(m) < 0;
    u128 u = mag(m);
    if (digits < 0)
        digits = 0;
    if (s > digits) {
        u = div_pow10_even(u, s - digits);
        s = digits;
    }
    return dec_store(out, neg && !u128_is_zero(u), u, s);
}

int sql_dec_trunc(sv *out, const sv *v, bool floor_mode)
{
    jet_i128 m;
    int s;
    if (!sql_dec_exact(v, &m, &s))
        return -1;
    bool neg = i128_sign(m) < 0;
    u128 u = mag(m), p = pow10u(s), r;
    u128 q = u128_divmod(u, p, &r);
    if (floor_mode && neg && !u128_is_zero(r))
        q = u128_add(q, u128_of(1));
    return dec_store(out, neg && !u128_is_zero(q), q, 0);
}

size_t sql_dec_format(const sv *v, char *buf, size_t cap)
{
    char tmp[64];
    size_t k = sizeof tmp;
    u128 u = mag(v->m);
    int s = v->scale;
    tmp[--k] = '\0';
    int digits = 0;
    do {
        u128 r;
        u = u128_divmod(u, u128_of(10), &r);
        tmp[--k] = (char)('0' + (int)u128_lo64(r));
        digits++;
        if (digits == s)
            tmp[--k] = '.';
    } while (!u128_is_zero(u) || digits <= s);
    if (tmp[k] == '.')
        tmp[--k] = '0';
    if (i128_sign(v->m) < 0)
        tmp[--k] = '-';
    /* drop trailing fraction zeros, as CStr of a Decimal does */
    size_t len = sizeof tmp - 1 - k;
    char *p = tmp + k;
    if (s > 0) {
        while (len && p[len - 1] == '0')
            len--;
        if (len && p[len - 1] == '.')
            len--;
    }
    if (cap) {
        size_t n = len < cap - 1 ? len : cap - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
    }
    return len;
}

void sql_dec_from_value(const jet_value *v, sv *out)
{
    u128 u = u128_of(0);
    for (int i = 11; i >= 0; i--)
        u = u128_or(u128_shl(u, 8), u128_of(v->u.num.mag[i]));
    int s = v->u.num.scale > DEC_MAX_SCALE ? DEC_MAX_SCALE : v->u.num.scale;
    jet_i128 m = i128_from_u128(u);
    sql_dec_set(out, v->u.num.negative ? i128_neg(m) : m, s);
}

void sql_dec_to_value(const sv *v, jet_value *out)
{
    u128 u = mag(v->m);
    out->type = JET_T_NUMERIC;
    out->u.num.precision = 28;
    out->u.num.scale = v->scale;
    out->u.num.negative = i128_sign(v->m) < 0;
    for (int i = 0; i < 12; i++) {
        out->u.num.mag[i] = (uint8_t)u128_lo64(u);
        u = u128_shr(u, 8);
    }
}
