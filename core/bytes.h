/*
 * bytes.h - bounded little-endian reads from a byte span.
 *
 * Every Jet integer is little-endian. These helpers read from (p, len) at
 * an offset and report whether the read fit, so callers turn a short span
 * into JET_ECORRUPT instead of reading past a page.
 */
#ifndef JET_BYTES_H
#define JET_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** True when n bytes at off lie inside a span of len bytes. */
static inline bool jet_span_ok(size_t len, size_t off, size_t n)
{
    return off <= len && n <= len - off;
}

/** Unchecked reads: the caller has proven the bytes are in bounds. */
static inline uint16_t jet_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t jet_get_u24(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
}

static inline uint32_t jet_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint64_t jet_get_u64(const uint8_t *p)
{
    return (uint64_t)jet_get_u32(p) | ((uint64_t)jet_get_u32(p + 4) << 32);
}

/** Little-endian writes (the encoders, core/encode.h): the caller has
 *  proven the bytes are in bounds. */
static inline void jet_put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void jet_put_u32(uint8_t *p, uint32_t v)
{
    jet_put_u16(p, v);
    jet_put_u16(p + 2, v >> 16);
}

static inline void jet_put_u64(uint8_t *p, uint64_t v)
{
    jet_put_u32(p, (uint32_t)v);
    jet_put_u32(p + 4, (uint32_t)(v >> 32));
}

/** Checked reads: store into *out and return true, or return false. */
static inline bool jet_read_u8(const uint8_t *p, size_t len, size_t off,
                               uint8_t *out)
{
    if (!jet_span_ok(len, off, 1))
        return false;
    *out = p[off];
    return true;
}

static inline bool jet_read_u16(const uint8_t *p, size_t len, size_t off,
                                uint16_t *out)
{
    if (!jet_span_ok(len, off, 2))
        return false;
    *out = jet_get_u16(p + off);
    return true;
}

static inline bool jet_read_u32(const uint8_t *p, size_t len, size_t off,
                                uint32_t *out)
{
    if (!jet_span_ok(len, off, 4))
        return false;
    *out = jet_get_u32(p + off);
    return true;
}

#endif /* JET_BYTES_H */
