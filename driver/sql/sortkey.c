/*
 * sortkey.c - binary sort keys: one byte string per row whose memcmp
 * order is the ORDER BY order (sql_key_cmp), built once per row.
 *
 * Per key column, one segment:
 *   NULL        0x00                         (NULL lowest, as Access)
 *   not NULL    0x01, then the value:
 *     integer / Yes-No / Currency   8 bytes big-endian, sign bit flipped
 *                                   (Yes-No as Jet's -1 / 0)
 *     Double    8 bytes: sign bit flipped when >= 0, all bits inverted
 *               when < 0 (IEEE order); -0 as +0
 *     Date      the millisecond key sql_date_key() compares by, as an
 *               integer
 *     Text      each code point folded (sql_fold), plus one: below
 *               0xF000 as 2 bytes big-endian, else FF and 3 bytes; then
 *               00 00: a shorter text that is a prefix sorts first, as
 *               sql_text_cmp
 * DESC inverts every byte of its segment (segments are prefix-free, so
 * the inversion reverses their order). The text fold is the one place
 * to switch to Access's General sort order (core's collation, when it
 * lands). Values a segment cannot encode in the column's class (mixed
 * kinds in a computed column, Decimal, bytes, NaN) make the caller fall
 * back to comparing the values (sql_key_cmp).
 */
#include "config.h"

#include "engine_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Encoding classes of a key column (the first non-NULL value's). */
enum { KC_NONE = 0, KC_INT, KC_MONEY, KC_DOUBLE, KC_DATE, KC_TEXT };

static int class_of(const sv *v)
{
    switch (v->k) {
    case K_BOOL: case K_INT: return KC_INT;
    case K_MONEY: return KC_MONEY;
    case K_DOUBLE: return v->has_dec ? -1 : KC_DOUBLE;
    case K_DATE: return KC_DATE;
    case K_TEXT: return KC_TEXT;
    default: return -1;
    }
}

static int reserve(sql_sortkey_buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    size_t n = b->cap ? b->cap : 256;
    while (n < b->len + more) {
        if (n > SIZE_MAX / 4)
            return -1;
        n *= 2;
    }
    uint8_t *p = realloc(b->p, n);
    if (!p)
        return -1;
    b->p = p;
    b->cap = n;
    return 0;
}

static void put_u64(uint8_t *o, uint64_t u)
{
    for (int i = 7; i >= 0; i--) {
        o[i] = (uint8_t)u;
        u >>= 8;
    }
}

static void put_i64(uint8_t *o, int64_t i)
{
    put_u64(o, (uint64_t)i ^ ((uint64_t)1 << 63));
}

/* Next code point of UTF-16 s[*i..n) (lone surrogates stand alone). */
static uint32_t next_cp(const uint16_t *s, size_t n, size_t *i)
{
    uint32_t c = s[(*i)++];
    if (c >= 0xD800 && c < 0xDC00 && *i < n && s[*i] >= 0xDC00 &&
        s[*i] < 0xE000)
        c = 0x10000 + ((c - 0xD800) << 10) + (s[(*i)++] - 0xDC00);
    return c;
}

int sql_sortkey_append(sql_sortkey_buf *b, uint8_t *cls, const sv *v,
                       bool desc)
{
    size_t start = b->len;
    if (v->k == K_NULL) {
        if (reserve(b, 1) != 0)
            return -1;
        b->p[b->len++] = 0x00;
    } else {
        int k = class_of(v);
        if (k < 0 || (*cls != KC_NONE && *cls != k))
            return 1;
        *cls = (uint8_t)k;
        if (k == KC_TEXT) {
            if (v->n > (SIZE_MAX - 8) / 4 || reserve(b, 4 + v->n * 4) != 0)
                return -1;
        } else if (reserve(b, 9) != 0) {
            return -1;
        }
        uint8_t *o = b->p + b->len;
        *o++ = 0x01;
        switch (k) {
        case KC_INT:
            put_i64(o, v->k == K_BOOL ? -v->i : v->i);
            o += 8;
            break;
        case KC_MONEY:
            put_i64(o, v->i);
            o += 8;
            break;
        case KC_DATE:
            put_i64(o, sql_date_key(v->d));
            o += 8;
            break;
        case KC_DOUBLE: {
            double d = v->d == 0 ? 0.0 : v->d;
            uint64_t u;
            if (isnan(d))
                return 1;
            memcpy(&u, &d, sizeof u);
            u = (u >> 63) ? ~u : u ^ ((uint64_t)1 << 63);
            put_u64(o, u);
            o += 8;
            break;
        }
        default: {
            size_t i = 0;
            while (i < v->n) {
                uint32_t c = sql_fold(next_cp(v->s, v->n, &i)) + 1;
                if (c < 0xF000) {
                    *o++ = (uint8_t)(c >> 8);
                    *o++ = (uint8_t)c;
                } else {
                    *o++ = 0xFF;
                    *o++ = (uint8_t)(c >> 16);
                    *o++ = (uint8_t)(c >> 8);
                    *o++ = (uint8_t)c;
                }
            }
            *o++ = 0;
            *o++ = 0;
            break;
        }
        }
        b->len = (size_t)(o - b->p);
    }
    if (desc)
        for (size_t i = start; i < b->len; i++)
            b->p[i] = (uint8_t)~b->p[i];
    return 0;
}
