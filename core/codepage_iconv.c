/*
 * codepage_iconv.c - the code-page seam (codepage.h) through iconv (Unix).
 *
 * Descriptors are pooled per code page under a mutex, so a conversion
 * allocates only the first time a code page is needed by a given number of
 * concurrent threads; the pool is closed when the library is unloaded. For
 * single-byte code pages (all but the CJK ones and cp1258) a descriptor,
 * when opened, also asks iconv for the mapping of each byte 0x80..0xFF and
 * then text.c converts by that table.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codepage.h"
#include "internal.h"
#include "lock.h"

#define UNIT_CHUNK 256

/* Byte iconv rejected: Windows' own mapping for cp1252's five holes. */
static uint16_t fallback_unit(uint16_t code_page, uint8_t b)
{
    if (code_page == 1252 &&
        (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D))
        return b;
    return 0xFFFD;
}

struct jet_cp_conv {
    iconv_t cd;
    uint16_t code_page;
    bool sbcs;              /* single-byte code page: high[] is valid */
    uint16_t high[128];     /* bytes 0x80..0xFF -> UTF-16, from iconv */
    struct jet_cp_conv *next;
};

static jet_mutex_t cd_lock = JET_MUTEX_INIT;
static jet_cp_conv *cd_pool;   /* idle descriptors, any code page */

static iconv_t open_code_page(uint16_t code_page)
{
    char name[24];
    snprintf(name, sizeof name, "CP%u", (unsigned)code_page);
    iconv_t cd = iconv_open("UTF-16LE", name);
    if (cd == (iconv_t)-1) {
        snprintf(name, sizeof name, "WINDOWS-%u", (unsigned)code_page);
        cd = iconv_open("UTF-16LE", name);
    }
    return cd;
}

/*
 * Ask iconv for each byte 0x80..0xFF alone: when every byte gives exactly
 * one UTF-16 unit (or is rejected), the code page is single-byte and the
 * table replaces iconv for its values. A lead byte (EINVAL) or a byte held
 * for composition (cp1258) means multi-byte/stateful: keep using iconv.
 */
static void probe_sbcs(jet_cp_conv *e)
{
    e->sbcs = false;
    for (unsigned b = 0x80; b <= 0xFF; b++) {
        char in_byte = (char)b, out[8];
        char *in = &in_byte, *o = out;
        size_t in_left = 1, o_left = sizeof out;
        iconv(e->cd, NULL, NULL, NULL, NULL);
        size_t r = iconv(e->cd, &in, &in_left, &o, &o_left);
        if (r == (size_t)-1) {
            if (errno != EILSEQ)
                return;
            e->high[b - 0x80] = fallback_unit(e->code_page, (uint8_t)b);
            continue;
        }
        if (iconv(e->cd, NULL, NULL, &o, &o_left) == (size_t)-1 ||
            o - out != 2)
            return;
        uint16_t u = (uint16_t)((unsigned char)out[0] |
                                ((unsigned char)out[1] << 8));
        if (u >= 0xD800 && u <= 0xDFFF)
            return;
        e->high[b - 0x80] = u;
    }
    iconv(e->cd, NULL, NULL, NULL, NULL);
    e->sbcs = true;
}

jet_cp_conv *jet_cp_acquire(uint16_t code_page, jet_rc *rc)
{
    jet_mutex_lock(&cd_lock);
    for (jet_cp_conv **pp = &cd_pool; *pp; pp = &(*pp)->next) {
        if ((*pp)->code_page == code_page) {
            jet_cp_conv *e = *pp;
            *pp = e->next;
            jet_mutex_unlock(&cd_lock);
            e->next = NULL;
            return e;
        }
    }
    jet_mutex_unlock(&cd_lock);

    jet_cp_conv *e = malloc(sizeof *e);
    if (!e) {
        *rc = JET_ENOMEM;
        return NULL;
    }
    e->cd = open_code_page(code_page);
    if (e->cd == (iconv_t)-1) {
        int err = errno;
        free(e);
        *rc = err == ENOMEM ? JET_ENOMEM : JET_EUNSUPPORTED;
        return NULL;
    }
    e->code_page = code_page;
    e->next = NULL;
    probe_sbcs(e);
    return e;
}

const uint16_t *jet_cp_sbcs_table(const jet_cp_conv *c)
{
    return c->sbcs ? c->high : NULL;
}

void jet_cp_release(jet_cp_conv *e)
{
    if (!e)
        return;
    jet_mutex_lock(&cd_lock);
    e->next = cd_pool;
    cd_pool = e;
    jet_mutex_unlock(&cd_lock);
}

__attribute__((destructor)) static void cd_pool_close(void)
{
    jet_mutex_lock(&cd_lock);
    while (cd_pool) {
        jet_cp_conv *e = cd_pool;
        cd_pool = e->next;
        iconv_close(e->cd);
        free(e);
    }
    jet_mutex_unlock(&cd_lock);
}

/* UTF-16LE bytes from iconv -> units for emit. */
static void emit_utf16le_bytes(jet_cp_emit_fn emit, void *ctx, const char *b,
                               size_t n)
{
    const unsigned char *p = (const unsigned char *)b;
    uint16_t u[UNIT_CHUNK];
    size_t k = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        u[k++] = (uint16_t)(p[i] | (p[i + 1] << 8));
        if (k == UNIT_CHUNK) {
            emit(ctx, u, k);
            k = 0;
        }
    }
    if (k)
        emit(ctx, u, k);
}

void jet_cp_convert(jet_cp_conv *e, const uint8_t *p, size_t len,
                    jet_cp_emit_fn emit, void *ctx)
{
    iconv(e->cd, NULL, NULL, NULL, NULL);

    char *in = (char *)(uintptr_t)p;
    size_t in_left = len;
    char out[512];
    while (in_left > 0) {
        char *o = out;
        size_t o_left = sizeof out;
        size_t r = iconv(e->cd, &in, &in_left, &o, &o_left);
        int err = errno;
        emit_utf16le_bytes(emit, ctx, out, (size_t)(o - out));
        if (r != (size_t)-1 || err == E2BIG)
            continue;
        if (in_left == 0)
            break;
        /* EILSEQ / EINVAL (or anything else): take one byte by hand. */
        uint16_t fb = fallback_unit(e->code_page, (uint8_t)*in);
        emit(ctx, &fb, 1);
        in++;
        in_left--;
        iconv(e->cd, NULL, NULL, NULL, NULL);
    }
    char *o = out;
    size_t o_left = sizeof out;
    iconv(e->cd, NULL, NULL, &o, &o_left);
    emit_utf16le_bytes(emit, ctx, out, (size_t)(o - out));
}
