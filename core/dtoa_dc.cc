/*
 * dtoa_dc.cc - C shim over libdouble-conversion's shortest-digit mode.
 *
 * Built only when configure found the library (HAVE_DOUBLE_CONVERSION).
 * Uses no C++ runtime of its own (no exceptions, RTTI or allocation):
 * one static member function call per value. See dtoa.h.
 */
#include "dtoa.h"

#include <double-conversion/double-to-string.h>

using double_conversion::DoubleToStringConverter;

extern "C" int jet_dtoa_shortest(double v, int single, char *digits,
                                 int *ndigits, int *point)
{
    bool sign = false;
    int length = 0, pt = 0;
    DoubleToStringConverter::DoubleToAscii(
        v, single ? DoubleToStringConverter::SHORTEST_SINGLE
                  : DoubleToStringConverter::SHORTEST,
        0, digits, 18, &sign, &length, &pt);
    if (length <= 0 || length > 17)
        return -1;
    *ndigits = length;
    *point = pt;
    return 0;
}
