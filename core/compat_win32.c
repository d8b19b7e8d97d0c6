/*
 * compat_win32.c - the functions behind compat_win32.h (Windows only).
 */
#include "config.h"

#include <stdlib.h>

#include "lock.h"

static char locale_token;   /* what jet_w32_newlocale hands out */

locale_t jet_w32_newlocale(int mask, const char *name, locale_t base)
{
    (void)mask;
    (void)name;
    (void)base;
    return &locale_token;
}

void jet_w32_freelocale(locale_t loc)
{
    (void)loc;
}

/* One BMP code point through LCMapStringEx(flags); others unchanged. */
static uint32_t map_case(uint32_t cp, DWORD flags)
{
    WCHAR in = (WCHAR)cp, out[4];
    if (cp > 0xFFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return cp;
    if (LCMapStringEx(LOCALE_NAME_INVARIANT, flags, &in, 1, out, 4, NULL,
                      NULL, 0) != 1)
        return cp;
    return out[0];
}

uint32_t jet_w32_towlower(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? cp + 0x20 : cp;
    return map_case(cp, LCMAP_LOWERCASE);
}

uint32_t jet_w32_towupper(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'a' && cp <= 'z' ? cp - 0x20 : cp;
    return map_case(cp, LCMAP_UPPERCASE);
}

static jet_once_t c_once = JET_ONCE_INIT;
static _locale_t c_numeric;

static void c_numeric_init(void)
{
    c_numeric = _create_locale(LC_NUMERIC, "C");
}

double jet_w32_strtod_c(const char *s, char **end)
{
    jet_once(&c_once, c_numeric_init);
    return c_numeric ? _strtod_l(s, end, c_numeric) : strtod(s, end);
}
