/*
 * fold.c - case-insensitive comparison of object and column names.
 *
 * Access compares names without regard to case in every script ("UMSÄTZE"
 * names the table "Umsätze"), so ASCII strcasecmp is not enough. A code
 * point folds to lower(upper(cp)) under the C.UTF-8 locale's tables, which
 * are the Unicode simple case mappings and do not depend on the process
 * locale (setlocale() is never called). That locale object (C.UTF-8, else
 * C.utf8 or en_US.UTF-8) is created once (jet_once) and kept for the life
 * of the process. Where none exists, a built-in table covers ASCII,
 * Latin-1, Latin Extended-A, basic Greek and Cyrillic.
 *
 * The SQL engine's text fold (jet_text_fold_slow / jet_text_upper) uses
 * the same locale object: towlower / towupper of one code point, the
 * identity without a locale. The engine, the General sort keys
 * (collate.c) and LIKE all fold through it.
 * Names are UTF-8; a byte that does not start a well-formed sequence stands
 * for itself (mapped to U+DC80..U+DCFF, which no valid name contains).
 */
#include "config.h"

#include <locale.h>
#include <wctype.h>

#include "jet.h"
#include "lock.h"

static jet_once_t fold_once = JET_ONCE_INIT;
static locale_t fold_locale;   /* (locale_t)0 when C.UTF-8 is missing */

static void fold_init(void)
{
    static const char *const names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8",
                                         "en_US.utf8" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fold_locale = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
        if (fold_locale)
            return;
    }
}

/* Lower case from the built-in table (the fallback). */
static uint32_t fold_builtin(uint32_t c)
{
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) ||      /* Latin-1 */
        (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||   /* Greek */
        (c >= 0x410 && c <= 0x42F))                   /* Cyrillic */
        return c + 0x20;
    if (c >= 0x400 && c <= 0x40F)                     /* Cyrillic Ѐ..Џ */
        return c + 0x50;
    if (c == 0x178)                                   /* Ÿ */
        return 0xFF;
    /* Latin Extended-A: upper/lower pairs, upper even then odd */
    if (((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) ||
         (c >= 0x14A && c <= 0x177)) && c % 2 == 0)
        return c + 1;
    if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) &&
        c % 2 == 1)
        return c + 1;
    return c;
}

uint32_t jet_name_fold(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? cp + 0x20 : cp;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return cp;
    jet_once(&fold_once, fold_init);
    if (fold_locale == (locale_t)0)
        return fold_builtin(cp);
    return (uint32_t)towlower_l(towupper_l((wint_t)cp, fold_locale),
                                fold_locale);
}

uint32_t jet_text_fold_slow(uint32_t cp)
{
    jet_once(&fold_once, fold_init);
    if (fold_locale == (locale_t)0)
        return cp;
    return (uint32_t)towlower_l((wint_t)cp, fold_locale);
}

uint32_t jet_text_upper(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'a' && cp <= 'z' ? cp - 0x20 : cp;
    jet_once(&fold_once, fold_init);
    if (fold_locale == (locale_t)0)
        return cp;
    return (uint32_t)towupper_l((wint_t)cp, fold_locale);
}

/* The code point at *s (advanced past it); a malformed byte b stands for
 * itself as U+DC00 + b. *s must not be at the terminator. */
static uint32_t next_cp(const unsigned char **s)
{
    const unsigned char *u = *s;
    uint32_t c = u[0], min;
    size_t n;

    if (c < 0x80) {
        *s += 1;
        return c;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, c &= 0x07, min = 0x10000;
    } else {
        *s += 1;
        return 0xDC00 + u[0];
    }
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) {   /* also stops at the NUL */
            *s += 1;
            return 0xDC00 + u[0];
        }
        c = (c << 6) | (u[i] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *s += 1;
        return 0xDC00 + u[0];
    }
    *s += n;
    return c;
}

int jet_name_compare_ci(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;

    while (*p && *q) {
        uint32_t x = next_cp(&p), y = next_cp(&q);
        if (x != y) {
            x = jet_name_fold(x);
            y = jet_name_fold(y);
            if (x != y)
                return x < y ? -1 : 1;
        }
    }
    return (*p != '\0') - (*q != '\0');
}

bool jet_name_equal_ci(const char *a, const char *b)
{
    return a && b && jet_name_compare_ci(a, b) == 0;
}
