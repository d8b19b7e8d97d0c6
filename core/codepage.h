/*
 * codepage.h - the code-page seam: Jet3 text bytes -> UTF-16 code units.
 *
 * One implementation per platform, picked by configure: codepage_iconv.c
 * (iconv, Unix) and codepage_win32.c (MultiByteToWideChar, Windows).
 * text.c owns everything else about text (Unicode compression, the UTF-8/
 * UTF-16 sink) and calls only what is declared here.
 *
 * A converter is borrowed from a pool (acquire/release) so that converting
 * a value allocates nothing once its code page has been used. Single-byte
 * code pages expose a table of the bytes 0x80..0xFF, which text.c applies
 * itself; the others go through jet_cp_convert(). Bytes the code page does
 * not define become U+FFFD, except cp1252's five holes (81 8D 8F 90 9D),
 * which become U+0081.. as Windows maps them. Thread-safe.
 */
#ifndef JET_CODEPAGE_H
#define JET_CODEPAGE_H

#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/** A converter from one Windows code page to UTF-16 (opaque, pooled). */
typedef struct jet_cp_conv jet_cp_conv;

/** Receives converted UTF-16 units in order, n at a time. */
typedef void (*jet_cp_emit_fn)(void *ctx, const uint16_t *units, size_t n);

/**
 * Borrow a converter for code_page (e.g. 1252, 932). NULL on failure with
 * *rc = JET_EUNSUPPORTED (unknown code page) or JET_ENOMEM.
 */
jet_cp_conv *jet_cp_acquire(uint16_t code_page, jet_rc *rc);

/** For a single-byte code page, its 128 units for bytes 0x80..0xFF (bytes
 *  below 0x80 are ASCII); NULL for multi-byte or stateful code pages. */
const uint16_t *jet_cp_sbcs_table(const jet_cp_conv *c);

/** Convert len bytes to UTF-16, handing the units to emit in chunks. */
void jet_cp_convert(jet_cp_conv *c, const uint8_t *p, size_t len,
                    jet_cp_emit_fn emit, void *ctx);

/** Return a converter to the pool (NULL is ignored). */
void jet_cp_release(jet_cp_conv *c);

#endif /* JET_CODEPAGE_H */
