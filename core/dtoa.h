/*
 * dtoa.h - shortest round-trip decimal digits of a binary64/binary32 value.
 *
 * The seam between core/numfmt.c (C) and core/dtoa_dc.cc, a C shim over
 * Debian's libdouble-conversion (C++), present when configure found the
 * library (HAVE_DOUBLE_CONVERSION). Without it numfmt.c keeps its printf
 * and strtod search, which gives the same text more slowly.
 */
#ifndef JET_CORE_DTOA_H
#define JET_CORE_DTOA_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The shortest digits that read back as v (as float when single != 0),
 * the closest of those to v: digits gets ndigits ASCII digits (no sign,
 * no trailing zeros; at most 17, buffer >= 18 bytes) and v's magnitude is
 * 0.DIGITS x 10^point. v must be finite and non-zero. Returns 0, or -1
 * when the library fails (never for finite input).
 * Format: libdouble-conversion DoubleToStringConverter::DoubleToAscii,
 * mode SHORTEST / SHORTEST_SINGLE.
 */
int jet_dtoa_shortest(double v, int single, char *digits, int *ndigits,
                      int *point);

#ifdef __cplusplus
}
#endif

#endif
