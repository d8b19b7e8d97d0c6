/*
 * int128.h - 128-bit integers for exact decimals and overflow checks.
 *
 * jet_u128 is unsigned, jet_i128 signed two's complement; both wrap modulo
 * 2^128 like C's unsigned arithmetic. Where the compiler has __int128
 * (__SIZEOF_INT128__: GCC/Clang on 64-bit targets) they are that type and
 * every function below is the one operator; elsewhere (i686, so the 32-bit
 * Windows DLL) they are two 64-bit limbs with the same results bit for bit.
 * Defining JET_NO_INT128 forces the limbs (tests/unit/test_int128.c runs
 * them against __int128).
 *
 * Callers never touch the representation: build values with u128_of /
 * i128_of, compare with *_cmp, and read them back with *_lo64 / i128_to_i64
 * after a range check. Division by zero is the caller's bug, as in C.
 */
#ifndef JET_INT128_H
#define JET_INT128_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(JET_NO_INT128)
#define JET_INT128_NATIVE 1
#endif

#ifdef JET_INT128_NATIVE

__extension__ typedef unsigned __int128 jet_u128;
__extension__ typedef __int128 jet_i128;

/** x as an unsigned 128-bit value. */
static inline jet_u128 u128_of(uint64_t x) { return x; }
/** hi * 2^64 + lo. */
static inline jet_u128 u128_make(uint64_t hi, uint64_t lo)
{
    return ((jet_u128)hi << 64) | lo;
}
/** The low and high 64 bits. */
static inline uint64_t u128_lo64(jet_u128 a) { return (uint64_t)a; }
static inline uint64_t u128_hi64(jet_u128 a) { return (uint64_t)(a >> 64); }
static inline jet_u128 u128_add(jet_u128 a, jet_u128 b) { return a + b; }
static inline jet_u128 u128_sub(jet_u128 a, jet_u128 b) { return a - b; }
/** a * b modulo 2^128. */
static inline jet_u128 u128_mul(jet_u128 a, jet_u128 b) { return a * b; }
/** a / b; *rem (when not NULL) gets a % b. b != 0. */
static inline jet_u128 u128_divmod(jet_u128 a, jet_u128 b, jet_u128 *rem)
{
    if (rem)
        *rem = a % b;
    return a / b;
}
/** Shifts by n, 0 <= n < 128. */
static inline jet_u128 u128_shl(jet_u128 a, unsigned n) { return a << n; }
static inline jet_u128 u128_shr(jet_u128 a, unsigned n) { return a >> n; }
static inline jet_u128 u128_or(jet_u128 a, jet_u128 b) { return a | b; }
/** -1, 0 or 1 as a <, ==, > b. */
static inline int u128_cmp(jet_u128 a, jet_u128 b) { return a < b ? -1 : a > b; }
static inline bool u128_is_zero(jet_u128 a) { return a == 0; }

/** x as a signed 128-bit value. */
static inline jet_i128 i128_of(int64_t x) { return x; }
/** The same 128 bits read as signed / unsigned. */
static inline jet_i128 i128_from_u128(jet_u128 a) { return (jet_i128)a; }
static inline jet_u128 u128_from_i128(jet_i128 a) { return (jet_u128)a; }
/** The low 64 bits as int64_t (a itself when i128_fits_i64(a)). */
static inline int64_t i128_to_i64(jet_i128 a) { return (int64_t)a; }
static inline jet_i128 i128_neg(jet_i128 a) { return (jet_i128)(0 - (jet_u128)a); }
static inline jet_i128 i128_add(jet_i128 a, jet_i128 b)
{
    return (jet_i128)((jet_u128)a + (jet_u128)b);
}
static inline jet_i128 i128_sub(jet_i128 a, jet_i128 b)
{
    return (jet_i128)((jet_u128)a - (jet_u128)b);
}
static inline jet_i128 i128_mul(jet_i128 a, jet_i128 b)
{
    return (jet_i128)((jet_u128)a * (jet_u128)b);
}
/** a / b truncated toward zero; *rem (when not NULL) gets the remainder
 * with a's sign, as C's / and %. b != 0, not INT128_MIN / -1. */
static inline jet_i128 i128_divmod(jet_i128 a, jet_i128 b, jet_i128 *rem)
{
    if (rem)
        *rem = a % b;
    return a / b;
}
static inline int i128_cmp(jet_i128 a, jet_i128 b) { return a < b ? -1 : a > b; }
/** -1, 0 or 1 as a <, ==, > 0. */
static inline int i128_sign(jet_i128 a) { return a < 0 ? -1 : a > 0; }
/** |a| as unsigned (2^127 for the most negative value). */
static inline jet_u128 i128_mag(jet_i128 a)
{
    return a < 0 ? 0 - (jet_u128)a : (jet_u128)a;
}
/** True when INT64_MIN <= a <= INT64_MAX. */
static inline bool i128_fits_i64(jet_i128 a)
{
    return a >= INT64_MIN && a <= INT64_MAX;
}
/** The nearest double / long double (round to nearest even). */
static inline double i128_to_double(jet_i128 a) { return (double)a; }
static inline long double i128_to_ldouble(jet_i128 a) { return (long double)a; }

#else /* two 64-bit limbs */

typedef struct jet_u128 { uint64_t lo, hi; } jet_u128;
typedef struct jet_i128 { uint64_t lo, hi; } jet_i128;   /* two's complement */

static inline jet_u128 u128_of(uint64_t x)
{
    jet_u128 r = { x, 0 };
    return r;
}
static inline jet_u128 u128_make(uint64_t hi, uint64_t lo)
{
    jet_u128 r = { lo, hi };
    return r;
}
static inline uint64_t u128_lo64(jet_u128 a) { return a.lo; }
static inline uint64_t u128_hi64(jet_u128 a) { return a.hi; }
static inline jet_u128 u128_add(jet_u128 a, jet_u128 b)
{
    jet_u128 r = { a.lo + b.lo, a.hi + b.hi };
    r.hi += r.lo < a.lo;
    return r;
}
static inline jet_u128 u128_sub(jet_u128 a, jet_u128 b)
{
    jet_u128 r = { a.lo - b.lo, a.hi - b.hi };
    r.hi -= a.lo < b.lo;
    return r;
}
/* the full 128-bit product of two 64-bit values, from 32-bit halves */
static inline jet_u128 u128_mul64x64(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    jet_u128 r;
    r.lo = (mid << 32) | (uint32_t)p00;
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}
static inline jet_u128 u128_mul(jet_u128 a, jet_u128 b)
{
    jet_u128 r = u128_mul64x64(a.lo, b.lo);
    r.hi += a.lo * b.hi + a.hi * b.lo;
    return r;
}
static inline jet_u128 u128_shl(jet_u128 a, unsigned n)
{
    jet_u128 r;
    if (n == 0)
        return a;
    if (n >= 64) {
        r.hi = a.lo << (n - 64);
        r.lo = 0;
    } else {
        r.hi = (a.hi << n) | (a.lo >> (64 - n));
        r.lo = a.lo << n;
    }
    return r;
}
static inline jet_u128 u128_shr(jet_u128 a, unsigned n)
{
    jet_u128 r;
    if (n == 0)
        return a;
    if (n >= 64) {
        r.lo = a.hi >> (n - 64);
        r.hi = 0;
    } else {
        r.lo = (a.lo >> n) | (a.hi << (64 - n));
        r.hi = a.hi >> n;
    }
    return r;
}
static inline jet_u128 u128_or(jet_u128 a, jet_u128 b)
{
    jet_u128 r = { a.lo | b.lo, a.hi | b.hi };
    return r;
}
static inline int u128_cmp(jet_u128 a, jet_u128 b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    return a.lo < b.lo ? -1 : a.lo > b.lo;
}
static inline bool u128_is_zero(jet_u128 a) { return (a.lo | a.hi) == 0; }
static inline jet_u128 u128_divmod(jet_u128 a, jet_u128 b, jet_u128 *rem)
{
    jet_u128 q = { 0, 0 };
    if (a.hi == 0 && b.hi == 0) {
        q.lo = a.lo / b.lo;
        if (rem)
            *rem = u128_of(a.lo % b.lo);
        return q;
    }
    if (b.hi == 0 && b.lo <= UINT32_MAX) {
        /* a short divisor: four 32-bit digits, as by hand */
        uint64_t d = b.lo, r = 0;
        uint32_t part[4] = { (uint32_t)(a.hi >> 32), (uint32_t)a.hi,
                             (uint32_t)(a.lo >> 32), (uint32_t)a.lo };
        for (int i = 0; i < 4; i++) {
            uint64_t cur = (r << 32) | part[i];
            part[i] = (uint32_t)(cur / d);
            r = cur % d;
        }
        q.hi = ((uint64_t)part[0] << 32) | part[1];
        q.lo = ((uint64_t)part[2] << 32) | part[3];
        if (rem)
            *rem = u128_of(r);
        return q;
    }
    /* restoring division, one bit at a time from a's top set bit */
    jet_u128 r = { 0, 0 };
    int top = a.hi ? 127 : 63;
    while (top >= 0 && !u128_lo64(u128_shr(a, (unsigned)top)))
        top--;
    for (int i = top; i >= 0; i--) {
        r = u128_shl(r, 1);             /* r < 2^(127-i): no carry out */
        r.lo |= u128_lo64(u128_shr(a, (unsigned)i)) & 1;
        if (u128_cmp(r, b) >= 0) {
            r = u128_sub(r, b);
            if (i >= 64)
                q.hi |= (uint64_t)1 << (i - 64);
            else
                q.lo |= (uint64_t)1 << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

static inline jet_i128 i128_from_u128(jet_u128 a)
{
    jet_i128 r = { a.lo, a.hi };
    return r;
}
static inline jet_u128 u128_from_i128(jet_i128 a)
{
    jet_u128 r = { a.lo, a.hi };
    return r;
}
static inline jet_i128 i128_of(int64_t x)
{
    jet_i128 r = { (uint64_t)x, x < 0 ? UINT64_MAX : 0 };
    return r;
}
static inline int64_t i128_to_i64(jet_i128 a) { return (int64_t)a.lo; }
static inline jet_i128 i128_neg(jet_i128 a)
{
    return i128_from_u128(u128_sub(u128_of(0), u128_from_i128(a)));
}
static inline jet_i128 i128_add(jet_i128 a, jet_i128 b)
{
    return i128_from_u128(u128_add(u128_from_i128(a), u128_from_i128(b)));
}
static inline jet_i128 i128_sub(jet_i128 a, jet_i128 b)
{
    return i128_from_u128(u128_sub(u128_from_i128(a), u128_from_i128(b)));
}
static inline jet_i128 i128_mul(jet_i128 a, jet_i128 b)
{
    return i128_from_u128(u128_mul(u128_from_i128(a), u128_from_i128(b)));
}
static inline int i128_sign(jet_i128 a)
{
    if (a.hi >> 63)
        return -1;
    return (a.lo | a.hi) != 0;
}
static inline int i128_cmp(jet_i128 a, jet_i128 b)
{
    if (a.hi != b.hi)
        return (int64_t)a.hi < (int64_t)b.hi ? -1 : 1;
    return a.lo < b.lo ? -1 : a.lo > b.lo;
}
static inline jet_u128 i128_mag(jet_i128 a)
{
    return i128_sign(a) < 0 ? u128_from_i128(i128_neg(a)) : u128_from_i128(a);
}
static inline jet_i128 i128_divmod(jet_i128 a, jet_i128 b, jet_i128 *rem)
{
    bool na = i128_sign(a) < 0, nb = i128_sign(b) < 0;
    jet_u128 ur, uq = u128_divmod(i128_mag(a), i128_mag(b), &ur);
    jet_i128 q = i128_from_u128(uq), r = i128_from_u128(ur);
    if (rem)
        *rem = na ? i128_neg(r) : r;
    return na != nb ? i128_neg(q) : q;
}
static inline bool i128_fits_i64(jet_i128 a)
{
    return a.hi == ((a.lo >> 63) ? UINT64_MAX : 0);
}
/* |a| rounded once to a binary float: the top 64 significant bits with
 * the lower ones folded into a sticky bit round like the exact value when
 * the target keeps at most 62 bits (double); a long double with a 64-bit
 * or wider significand takes hi and lo exactly and rounds their sum once */
static inline double u128_to_double_(jet_u128 u)
{
    if (u.hi == 0)
        return (double)u.lo;
    unsigned lz = 0;
    for (uint64_t h = u.hi; !(h >> 63); h <<= 1)
        lz++;
    unsigned sh = 64 - lz;              /* bits below the top 64 */
    jet_u128 low = u128_sub(u, u128_shl(u128_shr(u, sh), sh));
    uint64_t top = u128_lo64(u128_shr(u, sh)) | !u128_is_zero(low);
    double d = (double)top;
    for (unsigned i = 0; i < sh; i++)
        d *= 2.0;
    return d;
}
static inline double i128_to_double(jet_i128 a)
{
    double d = u128_to_double_(i128_mag(a));
    return i128_sign(a) < 0 ? -d : d;
}
static inline long double i128_to_ldouble(jet_i128 a)
{
    jet_u128 u = i128_mag(a);
    long double d;
#if LDBL_MANT_DIG >= 64
    d = (long double)u.hi * 18446744073709551616.0L + (long double)u.lo;
#else
    d = u128_to_double_(u);
#endif
    return i128_sign(a) < 0 ? -d : d;
}

#endif /* JET_INT128_NATIVE */

#endif /* JET_INT128_H */
