/*
 * codepage_win32.c - the code-page seam (codepage.h) on Windows.
 *
 * MultiByteToWideChar does the work. A converter is a small immutable
 * record per code page, made once and kept for the life of the process
 * (there are only a handful of code pages), so acquire/release only look
 * it up under a lock. Single-byte code pages (GetCPInfo: MaxCharSize 1)
 * get their table of bytes 0x80..0xFF, one byte at a time with
 * MB_ERR_INVALID_CHARS so undefined bytes are seen (U+FFFD, except
 * cp1252's five holes, U+0081.. as Windows itself maps them). Multi-byte
 * code pages convert whole values; invalid sequences come back as U+FFFD
 * (MultiByteToWideChar's default without MB_ERR_INVALID_CHARS).
 */
#include "config.h"

#include <stdlib.h>
#include <windows.h>

#include "codepage.h"
#include "internal.h"
#include "lock.h"

#define UNIT_CHUNK 256

struct jet_cp_conv {
    uint16_t code_page;
    bool sbcs;
    uint16_t high[128];
    struct jet_cp_conv *next;
};

static jet_mutex_t cp_lock = JET_MUTEX_INIT;
static jet_cp_conv *cp_list;   /* every converter made, kept until exit */

static uint16_t fallback_unit(uint16_t code_page, uint8_t b)
{
    if (code_page == 1252 &&
        (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D))
        return b;
    return 0xFFFD;
}

static void fill_sbcs(jet_cp_conv *c)
{
    for (unsigned b = 0x80; b <= 0xFF; b++) {
        char in = (char)b;
        WCHAR w[2];
        int n = MultiByteToWideChar(c->code_page, MB_ERR_INVALID_CHARS, &in,
                                    1, w, 2);
        c->high[b - 0x80] = n == 1 ? w[0]
                                   : fallback_unit(c->code_page, (uint8_t)b);
    }
}

jet_cp_conv *jet_cp_acquire(uint16_t code_page, jet_rc *rc)
{
    jet_cp_conv *c;
    CPINFO info;

    jet_mutex_lock(&cp_lock);
    for (c = cp_list; c; c = c->next)
        if (c->code_page == code_page)
            break;
    if (!c) {
        if (!IsValidCodePage(code_page) || !GetCPInfo(code_page, &info)) {
            jet_mutex_unlock(&cp_lock);
            *rc = JET_EUNSUPPORTED;
            return NULL;
        }
        c = calloc(1, sizeof *c);
        if (!c) {
            jet_mutex_unlock(&cp_lock);
            *rc = JET_ENOMEM;
            return NULL;
        }
        c->code_page = code_page;
        c->sbcs = info.MaxCharSize == 1;
        if (c->sbcs)
            fill_sbcs(c);
        c->next = cp_list;
        cp_list = c;
    }
    jet_mutex_unlock(&cp_lock);
    return c;
}

const uint16_t *jet_cp_sbcs_table(const jet_cp_conv *c)
{
    return c->sbcs ? c->high : NULL;
}

void jet_cp_release(jet_cp_conv *c)
{
    (void)c;    /* immutable and shared: nothing to give back */
}

void jet_cp_convert(jet_cp_conv *c, const uint8_t *p, size_t len,
                    jet_cp_emit_fn emit, void *ctx)
{
    WCHAR buf[UNIT_CHUNK];
    uint16_t u[UNIT_CHUNK];

    /* whole values are short (a MEMO chunk at most); convert in pieces of
     * up to UNIT_CHUNK / 2 bytes, never splitting a lead byte off */
    while (len > 0) {
        size_t take = len < UNIT_CHUNK / 2 ? len : UNIT_CHUNK / 2;
        if (take < len) {
            size_t k = 0;   /* end the piece after a whole character */
            while (k < take)
                k += IsDBCSLeadByteEx(c->code_page, p[k]) ? 2 : 1;
            take = k > len ? len : k;
        }
        int n = MultiByteToWideChar(c->code_page, 0, (const char *)p,
                                    (int)take, buf, UNIT_CHUNK);
        if (n <= 0) {
            uint16_t fb = 0xFFFD;
            for (size_t i = 0; i < take; i++)
                emit(ctx, &fb, 1);
        } else {
            for (int i = 0; i < n; i++)
                u[i] = buf[i];
            emit(ctx, u, (size_t)n);
        }
        p += take;
        len -= take;
    }
}
