/*
 * test_int128.c - core/int128.h's two-limb implementation (forced here
 * with JET_NO_INT128, as the 32-bit Windows build gets it) against the
 * compiler's __int128 over edge values (0, -1, +-2^63, +-2^64, 10^k, the
 * 128-bit extremes and their neighbours) and many pseudo-random ones.
 */
#define JET_NO_INT128 1
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "int128.h"
#include "unit.h"

#ifdef JET_INT128_NATIVE
#error "JET_NO_INT128 must select the two-limb implementation"
#endif

#ifdef __SIZEOF_INT128__

__extension__ typedef unsigned __int128 nu128;
__extension__ typedef __int128 ni128;

static jet_u128 limb(nu128 x)
{
    return u128_make((uint64_t)(x >> 64), (uint64_t)x);
}

static jet_i128 slimb(ni128 x)
{
    return i128_from_u128(limb((nu128)x));
}

static nu128 back(jet_u128 x)
{
    return ((nu128)u128_hi64(x) << 64) | u128_lo64(x);
}

static ni128 sback(jet_i128 x)
{
    return (ni128)back(u128_from_i128(x));
}

/* deterministic xorshift64* */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* a random value of random bit width, so small, medium and huge
 * magnitudes and both signs all occur */
static nu128 rnd128(void)
{
    nu128 x = ((nu128)rnd() << 64) | rnd();
    unsigned width = (unsigned)(rnd() % 129);
    if (width < 128)
        x &= (((nu128)1 << width) - 1);
    if (rnd() & 1)
        x = 0 - x;
    return x;
}

#define NEDGE 128
static nu128 edges[NEDGE];
static int nedges;

static void add_edge(nu128 x)
{
    if (nedges < NEDGE)
        edges[nedges++] = x;
}

static void make_edges(void)
{
    if (nedges)
        return;
    const nu128 one = 1, max = ~(nu128)0, smax = max >> 1, smin = smax + 1;
    nu128 base[] = {
        0, 1, 2, 3, 5, 7, 9, 10, 255, 256, 10000,
        UINT32_MAX, (nu128)UINT32_MAX + 1,
        one << 63, (one << 63) - 1, (one << 63) + 1,
        one << 64, (one << 64) - 1, (one << 64) + 1,
        one << 96, (one << 96) - 1, one << 100, one << 120, one << 125,
        smax, smax - 1, smin, smin + 1, max, max - 1,
    };
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        add_edge(base[i]);
        if (base[i] != 0 && base[i] != smin)
            add_edge(0 - base[i]);         /* the negative too */
    }
    nu128 p = 1;
    for (int k = 0; k <= 38; k++, p *= 10)
        add_edge(p);
}

/* ck_assert records every passing check too (slow in these loops): test
 * plainly, report the operands when one fails */
#define EXPECT(cond)                                                        \
    do {                                                                    \
        if (!(cond))                                                        \
            ck_abort_msg("%s failed for a=%016llx%016llx b=%016llx%016llx", \
                         #cond, (unsigned long long)(a >> 64),              \
                         (unsigned long long)a,                             \
                         (unsigned long long)(b >> 64),                     \
                         (unsigned long long)b);                            \
    } while (0)

static void check_pair(nu128 a, nu128 b)
{
    jet_u128 la = limb(a), lb = limb(b);
    ni128 sa = (ni128)a, sb = (ni128)b;
    jet_i128 ia = slimb(sa), ib = slimb(sb);

    /* unsigned */
    EXPECT(back(u128_add(la, lb)) == a + b);
    EXPECT(back(u128_sub(la, lb)) == a - b);
    EXPECT(back(u128_mul(la, lb)) == a * b);
    EXPECT(back(u128_or(la, lb)) == (a | b));
    EXPECT(u128_cmp(la, lb) == (a < b ? -1 : a > b));
    EXPECT(u128_is_zero(la) == (a == 0));
    if (b != 0) {
        jet_u128 r;
        jet_u128 q = u128_divmod(la, lb, &r);
        EXPECT(back(q) == a / b);
        EXPECT(back(r) == a % b);
        EXPECT(back(u128_divmod(la, lb, NULL)) == a / b);
    }
    unsigned n = (unsigned)(b % 128);
    EXPECT(back(u128_shl(la, n)) == a << n);
    EXPECT(back(u128_shr(la, n)) == a >> n);
    EXPECT(u128_lo64(la) == (uint64_t)a);
    EXPECT(u128_hi64(la) == (uint64_t)(a >> 64));

    /* signed */
    EXPECT(sback(i128_add(ia, ib)) == (ni128)(a + b));
    EXPECT(sback(i128_sub(ia, ib)) == (ni128)(a - b));
    EXPECT(sback(i128_mul(ia, ib)) == (ni128)(a * b));
    EXPECT(sback(i128_neg(ia)) == (ni128)(0 - a));
    EXPECT(i128_cmp(ia, ib) == (sa < sb ? -1 : sa > sb));
    EXPECT(i128_sign(ia) == (sa < 0 ? -1 : sa > 0));
    EXPECT(back(i128_mag(ia)) == (sa < 0 ? 0 - a : a));
    EXPECT(i128_fits_i64(ia) == (sa >= INT64_MIN && sa <= INT64_MAX));
    EXPECT(i128_to_i64(ia) == (int64_t)sa);
    if (sb != 0 && !(sb == -1 && a == ((nu128)1 << 127))) {
        jet_i128 r;
        jet_i128 q = i128_divmod(ia, ib, &r);
        EXPECT(sback(q) == sa / sb);
        EXPECT(sback(r) == sa % sb);
    }
    EXPECT(i128_to_double(ia) == (double)sa);
    EXPECT(i128_to_ldouble(ia) == (long double)sa);
}

START_TEST(limbs_match_native_on_edges)
{
    make_edges();
    for (int i = 0; i < nedges; i++)
        for (int j = 0; j < nedges; j++)
            check_pair(edges[i], edges[j]);
}
END_TEST

START_TEST(limbs_match_native_on_random_values)
{
    make_edges();
    for (int i = 0; i < 200000; i++) {
        nu128 a = rnd128(), b = rnd128();
        check_pair(a, b);
        /* and each against the edges now and then */
        if (i % 64 == 0)
            for (int j = 0; j < nedges; j++) {
                check_pair(a, edges[j]);
                check_pair(edges[j], a);
            }
    }
}
END_TEST

START_TEST(construction_matches_native)
{
    const int64_t v[] = { 0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1,
                          10000, -10000, 922337203685477580ll };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        ck_assert(sback(i128_of(v[i])) == (ni128)v[i]);
        ck_assert(back(u128_of((uint64_t)v[i])) == (nu128)(uint64_t)v[i]);
    }
    ck_assert(back(u128_make(1, 2)) == (((nu128)1 << 64) | 2));
}
END_TEST

#else /* no native reference: known values only */

START_TEST(limbs_known_values)
{
    jet_u128 two64 = u128_make(1, 0);
    jet_u128 p = u128_mul(u128_of(UINT64_MAX), u128_of(UINT64_MAX));
    ck_assert(u128_hi64(p) == UINT64_MAX - 1 && u128_lo64(p) == 1);
    jet_u128 r, q = u128_divmod(u128_add(two64, u128_of(5)), u128_of(10), &r);
    ck_assert(u128_hi64(q) == 0 && u128_lo64(q) == 1844674407370955162ull);
    ck_assert(u128_lo64(r) == 1);
    jet_i128 m = i128_divmod(i128_of(-7), i128_of(2), &(jet_i128){0});
    ck_assert(i128_to_i64(m) == -3);
}
END_TEST

#endif

static Suite *int128_suite(void)
{
    Suite *s = suite_create("int128");
    TCase *tc = tcase_create("limbs");
    tcase_set_timeout(tc, 120);
#ifdef __SIZEOF_INT128__
    tcase_add_test(tc, construction_matches_native);
    tcase_add_test(tc, limbs_match_native_on_edges);
    tcase_add_test(tc, limbs_match_native_on_random_values);
#else
    tcase_add_test(tc, limbs_known_values);
#endif
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(int128_suite)
