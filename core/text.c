/*
 * text.c - TEXT/MEMO bytes -> UTF-8 or UTF-16 in caller buffers.
 *
 * Three on-disk encodings (jet_text_enc):
 *   UCS2        UTF-16LE code units (Jet4/ACE). A trailing odd byte is
 *               ignored (some files have one; mdbtools drops it too).
 *   COMPRESSED  Jet4 "Unicode compression": the value starts FF FE; the
 *               rest alternates between compressed segments (one byte per
 *               character, high byte 0) and uncompressed ones (UTF-16LE
 *               pairs). A 0x00 byte (at a character boundary) toggles the
 *               mode; decoding starts compressed. A dangling odd byte at the
 *               end of an uncompressed segment is ignored. Without the FF FE
 *               header the value is plain UCS2.
 *               Format: Jackcess ColumnImpl.decodeTextValue, mdbtools
 *               src/libmdb/iconv.c, HACKING.md.
 *   CODEPAGE    Jet3: bytes in the file's Windows code page, through the
 *               code-page seam (codepage.h: iconv on Unix,
 *               MultiByteToWideChar on Windows). Undefined bytes become
 *               U+FFFD, except the five bytes cp1252 leaves undefined
 *               (81 8D 8F 90 9D), which become U+0081.. as Windows maps them.
 *
 * Every decoder feeds UTF-16 code units into one sink that pairs surrogates
 * (a lone surrogate becomes U+FFFD) and writes UTF-8 or UTF-16 into the
 * caller's buffer: a prefix that fits, never a split sequence or pair, while
 * counting the full length. Runs of ASCII (compressed bytes 01..7F, UTF-16LE
 * pairs 01 00..7F 00, Jet3 bytes below 80) skip the code units: emit_ascii
 * copies (UTF-8) or widens (UTF-16) them straight from the value's bytes.
 *
 * Code pages: converters are borrowed from codepage.h's pool; single-byte
 * code pages convert through the 128-entry table it exposes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codepage.h"
#include "internal.h"
#include "text.h"

/* ------------------------------------------------------------------ sink */

typedef struct text_sink {
    bool utf16;         /* write uint16_t units, else UTF-8 bytes */
    char *b8;
    uint16_t *b16;
    size_t cap;         /* bytes or units */
    size_t pos;         /* written so far */
    size_t total;       /* full length */
    bool full;          /* stopped writing: the rest did not fit */
    uint16_t hi;        /* pending high surrogate, 0 when none */
} text_sink;

static void emit_cp(text_sink *s, uint32_t cp)
{
    size_t n;
    if (s->utf16)
        n = cp >= 0x10000 ? 2 : 1;
    else
        n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    s->total += n;
    if (s->full)
        return;
    if (s->cap - s->pos < n) {
        s->full = true;
        return;
    }
    if (s->utf16) {
        uint16_t *o = s->b16 + s->pos;
        if (n == 1) {
            o[0] = (uint16_t)cp;
        } else {
            cp -= 0x10000;
            o[0] = (uint16_t)(0xD800 | (cp >> 10));
            o[1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        }
    } else {
        unsigned char *o = (unsigned char *)s->b8 + s->pos;
        switch (n) {
        case 1:
            o[0] = (unsigned char)cp;
            break;
        case 2:
            o[0] = (unsigned char)(0xC0 | (cp >> 6));
            o[1] = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        case 3:
            o[0] = (unsigned char)(0xE0 | (cp >> 12));
            o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            o[2] = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        default:
            o[0] = (unsigned char)(0xF0 | (cp >> 18));
            o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
            o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            o[3] = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        }
    }
    s->pos += n;
}

/* One UTF-16 code unit: pairs surrogates, lone ones become U+FFFD. */
static void emit_unit(text_sink *s, uint16_t u)
{
    if (s->hi) {
        if (u >= 0xDC00 && u <= 0xDFFF) {
            emit_cp(s, 0x10000u + ((uint32_t)(s->hi - 0xD800) << 10) +
                           (uint32_t)(u - 0xDC00));
            s->hi = 0;
            return;
        }
        emit_cp(s, 0xFFFD);
        s->hi = 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF)
        s->hi = u;
    else if (u >= 0xDC00 && u <= 0xDFFF)
        emit_cp(s, 0xFFFD);
    else
        emit_cp(s, u);
}

/*
 * n ASCII characters (each < 0x80) at p, one every stride bytes (1: bytes,
 * 2: UTF-16LE pairs, low byte first): the hot path, copied straight into
 * the sink without going through code units. A pending high surrogate is
 * lone (an ASCII unit follows it) and becomes U+FFFD first.
 */
static inline void emit_ascii(text_sink *s, const uint8_t *p, size_t n,
                              size_t stride)
{
    if (s->hi) {
        emit_cp(s, 0xFFFD);
        s->hi = 0;
    }
    s->total += n;
    if (s->full)
        return;
    size_t room = s->cap - s->pos, k = n <= room ? n : room;
    if (k == 0) {
        /* nothing fits (or a length-only call with no buffer) */
    } else if (s->utf16) {
        uint16_t *o = s->b16 + s->pos;
        for (size_t i = 0; i < k; i++)
            o[i] = p[i * stride];
    } else if (stride == 1) {
        memcpy(s->b8 + s->pos, p, k);
    } else {
        char *o = s->b8 + s->pos;
        for (size_t i = 0; i < k; i++)
            o[i] = (char)p[i * stride];
    }
    s->pos += k;
    if (k < n)
        s->full = true;
}

/*
 * n code units. Runs of ASCII (no pending surrogate) are measured, then
 * copied with the sink's state in locals; anything else goes through
 * emit_unit.
 */
static void emit_units(text_sink *s, const uint16_t *u, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (s->hi == 0 && u[i] < 0x80) {
            size_t start = i;
            while (i < n && u[i] < 0x80)
                i++;
            size_t run = i - start;
            s->total += run;
            if (s->full)
                continue;
            size_t room = s->cap - s->pos, k = run <= room ? run : room;
            if (k == 0) {
                /* nothing fits (or a length-only call with no buffer) */
            } else if (s->utf16) {
                memcpy(s->b16 + s->pos, u + start, k * sizeof *u);
            } else {
                char *o = s->b8 + s->pos;
                for (size_t j = 0; j < k; j++)
                    o[j] = (char)u[start + j];
            }
            s->pos += k;
            if (k < run)
                s->full = true;
        } else {
            emit_unit(s, u[i++]);
        }
    }
}

#define UNIT_CHUNK 256

static void sink_finish(text_sink *s)
{
    if (s->hi) {
        emit_cp(s, 0xFFFD);
        s->hi = 0;
    }
}

/* -------------------------------------------------------------- decoders */

/* Length of the run of bytes 0x01..0x7F at the start of p (len bytes):
 * eight at a time while no byte of a word is 00 or has its top bit set
 * (the top bit of each byte of (w - 0x01...01) | w), then one by one. */
static inline size_t ascii_bytes_len(const uint8_t *p, size_t len)
{
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        uint64_t w;
        memcpy(&w, p + j, 8);
        if (((w - 0x0101010101010101u) | w) & 0x8080808080808080u)
            break;
    }
    while (j < len && (uint8_t)(p[j] - 1) < 0x7F)
        j++;
    return j;
}

/* Length in bytes of the run of UTF-16LE pairs at p (len bytes) that are
 * ASCII characters 0x01..0x7F (low byte, high byte 0). */
static inline size_t ascii_pairs_len(const uint8_t *p, size_t len)
{
    size_t j = 0;
    while (j + 1 < len && (uint8_t)(p[j] - 1) < 0x7F && p[j + 1] == 0)
        j += 2;
    return j;
}

/* UTF-16LE: ASCII runs copied directly, other units one by one. */
static void decode_ucs2(text_sink *s, const uint8_t *p, size_t len)
{
    size_t i = 0;
    while (i + 1 < len) {
        size_t run = ascii_pairs_len(p + i, len - i);
        if (run > 0) {
            emit_ascii(s, p + i, run / 2, 2);
            i += run;
            continue;
        }
        emit_unit(s, (uint16_t)(p[i] | (p[i + 1] << 8)));
        i += 2;
    }
}

static void decode_compressed(text_sink *s, const uint8_t *p, size_t len)
{
    if (len < 2 || p[0] != 0xFF || p[1] != 0xFE) {
        decode_ucs2(s, p, len);
        return;
    }
    bool compressed = true;
    size_t i = 2;
    while (i < len) {
        if (p[i] == 0x00) {
            compressed = !compressed;
            i++;
            continue;
        }
        if (compressed) {
            /* one byte per character: bytes 01..7F are ASCII as they
             * stand, 80..FF are U+0080..U+00FF */
            size_t run = ascii_bytes_len(p + i, len - i);
            if (run > 0) {
                emit_ascii(s, p + i, run, 1);
                i += run;
            }
            while (i < len && p[i] >= 0x80)
                emit_unit(s, p[i++]);
        } else if (i + 1 < len) {
            /* UTF-16LE pairs up to the next 00 at a pair boundary */
            size_t run = ascii_pairs_len(p + i, len - i);
            if (run > 0) {
                emit_ascii(s, p + i, run / 2, 2);
                i += run;
            } else {
                emit_unit(s, (uint16_t)(p[i] | (p[i + 1] << 8)));
                i += 2;
            }
        } else {
            break; /* dangling odd byte: ignored */
        }
    }
}

/* ------------------------------------------------------ code-page seam */

/* jet_cp_emit_fn into the sink. */
static void sink_units(void *ctx, const uint16_t *u, size_t n)
{
    emit_units(ctx, u, n);
}

static jet_rc decode_code_page(text_sink *s, uint16_t code_page,
                               const uint8_t *p, size_t len)
{
    /* ASCII needs no descriptor (every Windows code page keeps it). */
    size_t i = 0;
    while (i < len && p[i] < 0x80)
        i++;
    if (i > 0)
        emit_ascii(s, p, i, 1);
    if (i == len)
        return JET_OK;

    jet_rc rc = JET_OK;
    jet_cp_conv *e = jet_cp_acquire(code_page, &rc);
    if (!e)
        return rc;
    const uint16_t *high = jet_cp_sbcs_table(e);
    if (high) {
        uint16_t u[UNIT_CHUNK];
        size_t k = 0;
        for (; i < len; i++) {
            u[k++] = p[i] < 0x80 ? p[i] : high[p[i] - 0x80];
            if (k == UNIT_CHUNK) {
                emit_units(s, u, k);
                k = 0;
            }
        }
        emit_units(s, u, k);
    } else {
        jet_cp_convert(e, p + i, len - i, sink_units, s);
    }
    jet_cp_release(e);
    return JET_OK;
}

/* ------------------------------------------------------------ public API */

uint16_t jet_text_code_page(const jet_db *db)
{
    if (!db || db->code_page == 0)
        return 1252;
    return db->code_page;
}

static jet_rc decode_value(const jet_db *db, const jet_value *v, text_sink *s)
{
    jet_rc rc = JET_OK;
    if (v->is_null || !v->data || v->len == 0)
        return JET_OK;
    switch (v->enc) {
    case JET_ENC_UCS2:
        decode_ucs2(s, v->data, v->len);
        break;
    case JET_ENC_COMPRESSED:
        decode_compressed(s, v->data, v->len);
        break;
    case JET_ENC_CODEPAGE:
        rc = decode_code_page(s, jet_text_code_page(db), v->data, v->len);
        break;
    default:
        return JET_EUNSUPPORTED;
    }
    sink_finish(s);
    return rc;
}

/* A compressed value that is one run of ASCII characters (most short
 * text): its characters are the bytes after the FF FE marker, none of
 * them 00 (the mode switch) or above 7F. Their count, with *chars at the
 * first; (size_t)-1 when the value is anything else. */
static inline size_t compressed_ascii(const jet_value *v,
                                      const uint8_t **chars)
{
    if (v->is_null || !v->data || v->enc != JET_ENC_COMPRESSED ||
        v->len < 2 || v->data[0] != 0xFF || v->data[1] != 0xFE)
        return (size_t)-1;
    size_t n = v->len - 2;
    if (ascii_bytes_len(v->data + 2, n) != n)
        return (size_t)-1;
    *chars = v->data + 2;
    return n;
}

jet_rc jet_text_to_utf8(const jet_db *db, const jet_value *v, char *buf,
                        size_t cap, size_t *out_len)
{
    const uint8_t *a;
    size_t n = compressed_ascii(v, &a);
    if (n != (size_t)-1) {
        if (buf && cap)
            memcpy(buf, a, n < cap ? n : cap);
        if (out_len)
            *out_len = n;
        return JET_OK;
    }
    text_sink s = { .utf16 = false, .b8 = buf, .cap = buf ? cap : 0 };
    jet_rc rc = decode_value(db, v, &s);
    if (out_len)
        *out_len = s.total;
    return rc;
}

jet_rc jet_text_to_utf16(const jet_db *db, const jet_value *v, uint16_t *buf,
                         size_t cap, size_t *out_units)
{
    const uint8_t *a;
    size_t n = compressed_ascii(v, &a);
    if (n != (size_t)-1) {
        size_t k = buf ? (n < cap ? n : cap) : 0;
        for (size_t i = 0; i < k; i++)
            buf[i] = a[i];
        if (out_units)
            *out_units = n;
        return JET_OK;
    }
    text_sink s = { .utf16 = true, .b16 = buf, .cap = buf ? cap : 0 };
    jet_rc rc = decode_value(db, v, &s);
    if (out_units)
        *out_units = s.total;
    return rc;
}

jet_rc jet_text_bytes_to_utf8(const jet_db *db, jet_text_enc enc,
                              const uint8_t *data, size_t len, char *buf,
                              size_t cap, size_t *out_len)
{
    jet_value v = { .type = JET_T_TEXT, .enc = enc, .data = data, .len = len };
    return jet_text_to_utf8(db, &v, buf, cap, out_len);
}
