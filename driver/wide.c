/*
 * wide.c - SQLWCHAR <-> UTF-8 for the W entry points.
 *
 * SQLWCHAR is UTF-16 when sizeof(SQLWCHAR) == 2 (unixODBC, Windows) and
 * UTF-32 when it is 4 (iODBC's wchar_t); the branch on sizeof is resolved
 * at compile time. Invalid input never fails: lone or swapped surrogates,
 * code points past U+10FFFF and malformed UTF-8 (overlong forms, encoded
 * surrogates, truncated sequences) each become U+FFFD.
 */
#include "config.h"

#include "wide.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT 0xFFFDu
#define WIDE_IS_UTF16 (sizeof(SQLWCHAR) == 2)

/* Decode one code point from UTF-8 at s[*i..len); advances *i by at least
 * one byte. Malformed input yields U+FFFD and consumes the bad prefix. */
static uint32_t utf8_next(const unsigned char *s, size_t len, size_t *i)
{
    unsigned char c = s[*i];
    uint32_t cp, min;
    int need;

    if (c < 0x80) {
        (*i)++;
        return c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        cp = c & 0x1Fu; need = 1; min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        cp = c & 0x0Fu; need = 2; min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        cp = c & 0x07u; need = 3; min = 0x10000;
    } else {
        (*i)++;
        return REPLACEMENT;
    }
    size_t j = *i + 1;
    for (int k = 0; k < need; k++, j++) {
        if (j >= len || (s[j] & 0xC0) != 0x80) {
            *i = j;             /* drop the truncated sequence */
            return REPLACEMENT;
        }
        cp = (cp << 6) | (s[j] & 0x3Fu);
    }
    *i = j;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return REPLACEMENT;
    return cp;
}

/* Units one code point takes as SQLWCHAR. */
static size_t wide_units(uint32_t cp)
{
    return (WIDE_IS_UTF16 && cp > 0xFFFF) ? 2 : 1;
}

size_t odbc_utf8_wide_len(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, n = 0;
    if (!s)
        return 0;
    while (i < len)
        n += wide_units(utf8_next(u, len, &i));
    return n;
}

size_t odbc_utf8_to_wide(SQLWCHAR *out, size_t cap, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, n = 0, written = 0;
    int full = (cap == 0);

    while (s && i < len) {
        uint32_t cp = utf8_next(u, len, &i);
        size_t units = wide_units(cp);
        if (!full && written + units <= cap - 1) {
            if (units == 2) {
                cp -= 0x10000;
                out[written++] = (SQLWCHAR)(0xD800 + (cp >> 10));
                out[written++] = (SQLWCHAR)(0xDC00 + (cp & 0x3FF));
            } else {
                out[written++] = (SQLWCHAR)cp;
            }
        } else {
            full = 1;           /* whole characters only, no later fill-in */
        }
        n += units;
    }
    if (cap > 0)
        out[written] = 0;
    return n;
}

/* Read one code point from w[*i..n); advances *i. */
static uint32_t wide_next(const SQLWCHAR *w, size_t n, size_t *i)
{
    uint32_t c = (uint32_t)w[*i];
    (*i)++;
    if (!WIDE_IS_UTF16)
        return (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) ? REPLACEMENT : c;
    if (c >= 0xD800 && c <= 0xDBFF) {
        if (*i < n) {
            uint32_t d = (uint32_t)w[*i];
            if (d >= 0xDC00 && d <= 0xDFFF) {
                (*i)++;
                return 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
            }
        }
        return REPLACEMENT;
    }
    if (c >= 0xDC00 && c <= 0xDFFF)
        return REPLACEMENT;
    return c;
}

static size_t utf8_put(unsigned char *p, uint32_t cp)
{
    if (cp < 0x80) {
        p[0] = (unsigned char)cp;
        return 1;
    } else if (cp < 0x800) {
        p[0] = (unsigned char)(0xC0 | (cp >> 6));
        p[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp < 0x10000) {
        p[0] = (unsigned char)(0xE0 | (cp >> 12));
        p[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        p[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    p[0] = (unsigned char)(0xF0 | (cp >> 18));
    p[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    p[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    p[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

char *odbc_wide_to_utf8(const SQLWCHAR *w, SQLINTEGER len, int *ok)
{
    return odbc_wide_to_utf8_len(w, len, ok, NULL);
}

char *odbc_wide_to_utf8_len(const SQLWCHAR *w, SQLINTEGER len, int *ok,
                            size_t *out_len)
{
    int dummy;
    if (!ok)
        ok = &dummy;
    *ok = 1;
    if (!w)
        return NULL;
    size_t n;
    if (len == SQL_NTS) {
        n = 0;
        while (w[n])
            n++;
    } else if (len < 0) {
        n = 0;                  /* other negative lengths: empty string */
    } else {
        n = (size_t)len;
    }
    /* Each unit yields at most 4 bytes (a UTF-16 pair: 4 bytes for 2). */
    if (n > (SIZE_MAX - 1) / 4) {
        *ok = 0;
        return NULL;
    }
    unsigned char *out = malloc(n * 4 + 1);
    if (!out) {
        *ok = 0;
        return NULL;
    }
    size_t i = 0, o = 0;
    while (i < n)
        o += utf8_put(out + o, wide_next(w, n, &i));
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return (char *)out;
}
