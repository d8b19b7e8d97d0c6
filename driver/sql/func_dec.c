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

#include "func.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEC_MAX_SCALE 28

typedef unsigned __int128 u128;

static const u128 MAG_LIMIT = ((u128)1 << 96);      /* exclusive */

static u128 pow10u(int k)
{
    u128 p = 1;
    while (k-- > 0)
        p *= 10;
    return p;
}

static u128 mag(__int128 m)
{
    return m < 0 ? (u128)0 - (u128)m : (u128)m;
}

/* m / 10 rounded half to even (magnitude) */
static u128 div10_even(u128 m)
{
    u128 q = m / 10, r = m % 10;
    if (r > 5 || (r == 5 && (q & 1)))
        q++;
    return q;
}

/* m / 10^k rounded half to even, once (k <= 38) */
static u128 div_pow10_even(u128 m, int k)
{
    if (k <= 0)
        return m;
    if (k > 38)
        return 0;
    u128 p = pow10u(k), q = m / p, r = m % p;
    if (r > p - r || (r == p - r && (q & 1)))
        q++;
    return q;
}

void sql_dec_set(sv *out, __int128 m, int scale)
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
    while (scale - drop > 0 && u / pow10u(drop) >= MAG_LIMIT)
        drop++;
    if (drop) {
        u = div_pow10_even(u, drop);
        scale -= drop;
        if (u >= MAG_LIMIT && scale > 0) {      /* rounding carried */
            u = div10_even(u);
            scale--;
        }
    }
    if (u >= MAG_LIMIT)
        return -1;
    while (scale < 0) {
        if (u > (MAG_LIMIT - 1) / 10)
            return -1;
        u *= 10;
        scale++;
    }
    sql_dec_set(out, neg ? -(__int128)u : (__int128)u, scale);
    return 0;
}

bool sql_dec_exact(const sv *v, __int128 *m, int *scale)
{
    switch (v->k) {
    case K_BOOL: *m = v->i ? -1 : 0; *scale = 0; return true;
    case K_INT: *m = v->i; *scale = 0; return true;
    case K_MONEY:
        /* Currency as the Decimal VBA converts it to: no trailing
         * fraction zeros (CDec(CCur(0.25)) is 0.25) */
        *m = v->i;
        *scale = 4;
        while (*scale > 0 && *m % 10 == 0) {
            *m /= 10;
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
    long double x = (long double)v->m;
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
    snprintf(buf, sizeof buf, "%.14e", d);
    return sql_dec_parse(out, buf) == 0 ? 0 : -1;
}

int sql_dec_parse(sv *out, const char *t)
{
    bool neg = false, any = false;
    u128 u = 0;
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
        if (u > ((u128)1 << 120) / 10) {
            /* more digits than we can hold: keep the magnitude */
            if (frac < 0)
                dropped++;
            continue;
        }
        u = u * 10 + (u128)(*t - '0');
        if (frac >= 0)
            frac++;
    }
    if (!any)
        return -1;
    scale = (frac < 0 ? 0 : frac) - (int)exp10 - dropped;
    if (scale > DEC_MAX_SCALE && u) {
        u = div_pow10_even(u, scale - DEC_MAX_SCALE);
        scale = DEC_MAX_SCALE;
    }
    if (u == 0)
        scale = scale < 0 ? 0 : scale > DEC_MAX_SCALE ? DEC_MAX_SCALE : scale;
    return dec_store(out, neg, u, scale);
}

int sql_dec_cmp(const sv *a, const sv *b)
{
    __int128 ma, mb;
    int sa, sb;
    if (!sql_dec_exact(a, &ma, &sa) || !sql_dec_exact(b, &mb, &sb)) {
        double x = a->k == K_DEC ? sql_dec_to_double(a) : a->d;
        double y = b->k == K_DEC ? sql_dec_to_double(b) : b->d;
        return x < y ? -1 : x > y;
    }
    bool na = ma < 0, nb = mb < 0;
    if (na != nb)
        return na ? -1 : 1;
    u128 ua = mag(ma), ub = mag(mb);
    /* integer parts, then the fractions at the common scale */
    u128 pa = pow10u(sa), pb = pow10u(sb);
    u128 ia = ua / pa, ib = ub / pb;
    int r;
    if (ia != ib) {
        r = ia < ib ? -1 : 1;
    } else {
        int s = sa > sb ? sa : sb;
        u128 fa = (ua % pa) * pow10u(s - sa), fb = (ub % pb) * pow10u(s - sb);
        r = fa < fb ? -1 : fa > fb;
    }
    return na ? -r : r;
}

/* ---------------------------------------------------------- arithmetic */

/* 256-bit unsigned as four 64-bit limbs, little-endian */
typedef struct { uint64_t w[4]; } u256;

static u256 mul128(u128 a, u128 b)
{
    uint64_t x[2] = { (uint64_t)a, (uint64_t)(a >> 64) };
    uint64_t y[2] = { (uint64_t)b, (uint64_t)(b >> 64) };
    u256 r = { { 0, 0, 0, 0 } };
    for (int i = 0; i < 2; i++) {
        u128 carry = 0;
        for (int j = 0; j < 2; j++) {
            u128 t = (u128)x[i] * y[j] + r.w[i + j] + carry;
            r.w[i + j] = (uint64_t)t;
            carry = t >> 64;
        }
        r.w[i + 2] += (uint64_t)carry;
    }
    return r;
}

/* r / 10 with the remainder; in place */
static unsigned div256_10(u256 *r)
{
    u128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        u128 cur = (rem << 64) | r->w[i];
        r->w[i] = (uint64_t)(cur / 10);
        rem = cur % 10;
    }
    return (unsigned)rem;
}

static bool fits128(const u256 *r)
{
    return r->w[2] == 0 && r->w[3] == 0;
}

int sql_dec_arith(sv *out, char op, const sv *a, const sv *b)
{
    __int128 ma, mb;
    int sa, sb;
    if (!sql_dec_exact(a, &ma, &sa) || !sql_dec_exact(b, &mb, &sb))
        return -3;
    bool na = ma < 0, nb = mb < 0;
    u128 ua = mag(ma), ub = mag(mb);
    if (op == '+' || op == '-') {
        if (op == '-')
            nb = !nb;
        int s = sa > sb ? sa : sb;
        /* both magnitudes < 2^120 after scaling by at most 10^28 when
         * below 2^96? not always: scale down the longer one instead */
        u128 xa = ua, xb = ub;
        int ka = s - sa, kb = s - sb;
        while (ka > 0 && xa <= (((u128)1 << 125) / 10)) { xa *= 10; ka--; }
        while (kb > 0 && xb <= (((u128)1 << 125) / 10)) { xb *= 10; kb--; }
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
            u = xa + xb;
            neg = na;
        } else if (xa >= xb) {
            u = xa - xb;
            neg = na;
        } else {
            u = xb - xa;
            neg = nb;
        }
        return dec_store(out, neg && u != 0, u, s);
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
                u128 q = ((u128)p.w[1] << 64) | p.w[0];
                if (last > 5 || (last == 5 && (sticky || (q & 1))))
                    q++;
                return dec_store(out, (na != nb) && q != 0, q, s);
            }
        }
        if (!fits128(&p))
            return -1;
        u128 q = ((u128)p.w[1] << 64) | p.w[0];
        return dec_store(out, (na != nb) && q != 0, q, s);
    }
    if (op == '/') {
        if (ub == 0)
            return -2;
        /* long division digit by digit: integer quotient, then fraction
         * digits while they fit 96 bits and 28 places, rounded half even */
        u128 q = ua / ub, r = ua % ub;
        int s = sa - sb;
        while (r != 0 && q < MAG_LIMIT / 10 && s < DEC_MAX_SCALE) {
            r *= 10;            /* r < ub < 2^96: no overflow */
            q = q * 10 + r / ub;
            r %= ub;
            s++;
        }
        if (r != 0) {
            u128 twice = r * 2;
            if (twice > ub || (twice == ub && (q & 1)))
                q++;
        }
        /* strip trailing zeros of the fraction */
        while (s > 0 && q && q % 10 == 0) {
            q /= 10;
            s--;
        }
        return dec_store(out, (na != nb) && q != 0, q, s);
    }
    return -3;
}

int sql_dec_round(sv *out, const sv *v, int digits)
{
    __int128 m;
    int s;
    if (!sql_dec_exact(v, &m, &s))
        return -1;
    bool neg = m < 0;
    u128 u = mag(m);
    if (digits < 0)
        digits = 0;
    if (s > digits) {
        u = div_pow10_even(u, s - digits);
        s = digits;
    }
    return dec_store(out, neg && u != 0, u, s);
}

int sql_dec_trunc(sv *out, const sv *v, bool floor_mode)
{
    __int128 m;
    int s;
    if (!sql_dec_exact(v, &m, &s))
        return -1;
    bool neg = m < 0;
    u128 u = mag(m), p = pow10u(s);
    u128 q = u / p;
    if (floor_mode && neg && u % p)
        q++;
    return dec_store(out, neg && q != 0, q, 0);
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
        tmp[--k] = (char)('0' + (int)(u % 10));
        u /= 10;
        digits++;
        if (digits == s)
            tmp[--k] = '.';
    } while (u || digits <= s);
    if (tmp[k] == '.')
        tmp[--k] = '0';
    if (v->m < 0)
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
    u128 u = 0;
    for (int i = 11; i >= 0; i--)
        u = (u << 8) | v->u.num.mag[i];
    int s = v->u.num.scale > DEC_MAX_SCALE ? DEC_MAX_SCALE : v->u.num.scale;
    sql_dec_set(out, v->u.num.negative ? -(__int128)u : (__int128)u, s);
}

void sql_dec_to_value(const sv *v, jet_value *out)
{
    u128 u = mag(v->m);
    out->type = JET_T_NUMERIC;
    out->u.num.precision = 28;
    out->u.num.scale = v->scale;
    out->u.num.negative = v->m < 0;
    for (int i = 0; i < 12; i++) {
        out->u.num.mag[i] = (uint8_t)u;
        u >>= 8;
    }
}
