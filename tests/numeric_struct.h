/*
 * numeric_struct.h - the magnitude of an ODBC SQL_NUMERIC_STRUCT, for the
 * tests that check one (tests/unit/test_convert.c,
 * tests/odbc/test_odbc_convert.c). Include after the ODBC headers and
 * core/int128.h.
 */
#ifndef JET_TESTS_NUMERIC_STRUCT_H
#define JET_TESTS_NUMERIC_STRUCT_H

#include <stdbool.h>

/** ns->val as the unsigned integer it holds (little-endian, 16 bytes). */
static inline jet_u128 ns_val(const SQL_NUMERIC_STRUCT *ns)
{
    jet_u128 m = u128_of(0);
    for (int i = SQL_MAX_NUMERIC_LEN - 1; i >= 0; i--)
        m = u128_or(u128_shl(m, 8), u128_of(ns->val[i]));
    return m;
}

/** Whether the magnitude of ns is want. */
static inline bool ns_is(const SQL_NUMERIC_STRUCT *ns, jet_u128 want)
{
    return u128_cmp(ns_val(ns), want) == 0;
}

#endif
