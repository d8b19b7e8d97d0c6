/*
 * crypt.c - page codecs: the header-page mask and Jet RC4 page encoding.
 *
 * Neither is real encryption: the header region at 0x18 is XORed with the
 * RC4 keystream of the fixed key 0x6b39dac7 (126 bytes Jet3, 128 Jet4/ACE),
 * and a Jet "encoded" database RC4-encodes every page but 0 with the
 * header's 4-byte encoding key XOR the page number (little-endian).
 * Format: mdbtools HACKING.md "Database Definition Page"; Jackcess
 * JetFormat (header mask), jackcess-encrypt JetCryptCodecHandler.
 *
 * Also the Jet4 database password in the header (40 bytes at 0x42, UTF-16LE,
 * XORed with a mask made from the creation date at 0x72).
 *
 * RC4 comes from the crypto seam (crypto.h), which loads libcrypto on the
 * first call: only files whose pages are really encoded (Jet RC4, ACE
 * RC4/AES) pay for it. The header mask needs no cipher: its key is fixed,
 * so its keystream is a format constant, kept below as a table.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "bytes.h"
#include "crypto.h"
#include "internal.h"

size_t jet_crypto_hash_len(jet_hash_alg alg)
{
    static const size_t len[5] = { 16, 20, 32, 48, 64 };
    return (unsigned)alg < 5 ? len[alg] : 0;
}

jet_rc jet_rc4_apply(const uint8_t *key, size_t key_len, uint8_t *buf,
                     size_t len)
{
    jet_rc rc = jet_crypto_load(NULL);
    return rc != JET_OK ? rc : jet_crypto_rc4(key, key_len, buf, len);
}

/*
 * The header mask: the first 128 bytes of the RC4 keystream for the fixed
 * 4-byte key c7 da 39 6b (0x6b39dac7 little-endian). Jet3 uses the first
 * 126 of them, Jet4/ACE all 128. Generated once, offline, by running RC4
 * with that key over 128 zero bytes; the same bytes are Jackcess
 * JetFormat.BASE_HEADER_MASK (applied in PageChannel when reading page 0)
 * and what mdbtools gets by running RC4 with this key at open (HACKING.md
 * "Database Definition Page").
 * tests/unit/test_crypt.c checks the table against libcrypto's RC4.
 */
static const uint8_t header_mask[128] = {
    0xb5, 0x6f, 0x03, 0x62, 0x61, 0x08, 0xc2, 0x55,
    0xeb, 0xa9, 0x67, 0x72, 0x43, 0x3f, 0x00, 0x9c,
    0x7a, 0x9f, 0x90, 0xff, 0x80, 0x9a, 0x31, 0xc5,
    0x79, 0xba, 0xed, 0x30, 0xbc, 0xdf, 0xcc, 0x9d,
    0x63, 0xd9, 0xe4, 0xc3, 0x7b, 0x42, 0xfb, 0x8a,
    0xbc, 0x4e, 0x86, 0xfb, 0xec, 0x37, 0x5d, 0x44,
    0x9c, 0xfa, 0xc6, 0x5e, 0x28, 0xe6, 0x13, 0xb6,
    0x8a, 0x60, 0x54, 0x94, 0x7b, 0x36, 0xf5, 0x72,
    0xdf, 0xb1, 0x77, 0xf4, 0x13, 0x43, 0xcf, 0xaf,
    0xb1, 0x33, 0x34, 0x61, 0x79, 0x5b, 0x92, 0xb5,
    0x7c, 0x2a, 0x05, 0xf1, 0x7c, 0x99, 0x01, 0x1b,
    0x98, 0xfd, 0x12, 0x4f, 0x4a, 0x94, 0x6c, 0x3e,
    0x60, 0x26, 0x5f, 0x95, 0xf8, 0xd0, 0x89, 0x24,
    0x85, 0x67, 0xc6, 0x1f, 0x27, 0x44, 0xd2, 0xee,
    0xcf, 0x65, 0xed, 0xff, 0x07, 0xc7, 0x46, 0xa1,
    0x78, 0x16, 0x0c, 0xed, 0xe9, 0x2d, 0x62, 0xd4,
};

jet_rc jet_header_unmask(uint8_t *page0, size_t len, size_t mask_len)
{
    if (mask_len > sizeof header_mask || !jet_span_ok(len, 0x18, mask_len))
        return JET_ECORRUPT;
    for (size_t i = 0; i < mask_len; i++)
        page0[0x18 + i] ^= header_mask[i];
    return JET_OK;
}

jet_rc jet_rc4_page_decode(uint32_t enc_key, uint32_t pgno, uint8_t *page,
                           size_t page_size)
{
    uint32_t k = enc_key ^ pgno;
    uint8_t key[4] = { (uint8_t)k, (uint8_t)(k >> 8), (uint8_t)(k >> 16),
                       (uint8_t)(k >> 24) };
    return jet_rc4_apply(key, sizeof key, page, page_size);
}

/* ------------------------------------------------ the Jet4 password field */

size_t jet_password_utf16(const char *pw, uint8_t *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)(pw ? pw : "");
    size_t n = 0, chars = 0;
    while (*s && chars < 255) {
        uint32_t cp = *s++;
        int extra = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
        if (extra)
            cp &= 0x3F >> extra;
        while (extra-- > 0 && (*s & 0xC0) == 0x80)
            cp = (cp << 6) | (*s++ & 0x3F);
        if (cp >= 0x10000) {
            uint32_t v = cp - 0x10000;
            uint16_t hi = (uint16_t)(0xD800 + (v >> 10));
            uint16_t lo = (uint16_t)(0xDC00 + (v & 0x3FF));
            if (n + 4 > cap)
                break;
            out[n++] = (uint8_t)hi;
            out[n++] = (uint8_t)(hi >> 8);
            out[n++] = (uint8_t)lo;
            out[n++] = (uint8_t)(lo >> 8);
        } else {
            if (n + 2 > cap)
                break;
            out[n++] = (uint8_t)cp;
            out[n++] = (uint8_t)(cp >> 8);
        }
        chars++;
    }
    return n;
}

/* The 4-byte mask of the password field: the creation date (a double at
 * 0x72) cut to a 32-bit integer as Java's (int) cast does (toward zero,
 * saturating, NaN 0), little-endian. Jackcess DatabaseImpl
 * getPasswordMask. */
static void password_mask(const uint8_t *page0, uint8_t mask[4])
{
    uint64_t bits = jet_get_u64(page0 + JET_HDR_CREATED);
    double d;
    int64_t v;
    memcpy(&d, &bits, sizeof d);
    v = isnan(d) ? 0 : d >= 2147483647.0 ? 2147483647
              : d <= -2147483648.0 ? -2147483648LL : (int64_t)d;
    uint32_t u = (uint32_t)v;
    mask[0] = (uint8_t)u;
    mask[1] = (uint8_t)(u >> 8);
    mask[2] = (uint8_t)(u >> 16);
    mask[3] = (uint8_t)(u >> 24);
}

void jet_header_password_xor(uint8_t *page0)
{
    uint8_t mask[4];
    password_mask(page0, mask);
    for (size_t i = 0; i < JET_HDR_PASSWORD_LEN; i++)
        page0[JET_HDR_PASSWORD + i] ^= mask[i % 4];
}

jet_rc jet_header_password_put(uint8_t *page0, const char *password)
{
    uint8_t pw[2 * 255];
    size_t n = jet_password_utf16(password, pw, sizeof pw);
    if (n > JET_HDR_PASSWORD_LEN) {
        memset(pw, 0, sizeof pw);
        return JET_ELIMIT;
    }
    memset(page0 + JET_HDR_PASSWORD, 0, JET_HDR_PASSWORD_LEN);
    memcpy(page0 + JET_HDR_PASSWORD, pw, n);
    memset(pw, 0, sizeof pw);
    jet_header_password_xor(page0);
    return JET_OK;
}

jet_rc jet_header_password_check(const uint8_t *page0, const char *password)
{
    uint8_t stored[JET_HDR_PASSWORD_LEN], given[2 * 255];
    uint8_t mask[4], diff = 0, any = 0;
    size_t n = jet_password_utf16(password, given, sizeof given);

    password_mask(page0, mask);
    for (size_t i = 0; i < JET_HDR_PASSWORD_LEN; i++) {
        stored[i] = page0[JET_HDR_PASSWORD + i] ^ mask[i % 4];
        any |= stored[i];
    }
    if (!any)
        return JET_OK;                  /* no password set */
    /* a password is UTF-16 units up to its end, then zeros; a field that
     * has a zero unit before a non-zero one was never written by a
     * password (e.g. a creation date set over a zeroed field): none */
    for (size_t i = 0, end = 0; i < JET_HDR_PASSWORD_LEN; i += 2) {
        bool zero = (stored[i] | stored[i + 1]) == 0;
        if (zero && !end)
            end = 1;
        else if (!zero && end) {
            memset(stored, 0, sizeof stored);
            return JET_OK;
        }
    }
    if (n > JET_HDR_PASSWORD_LEN)
        diff = 1;
    for (size_t i = 0; i < JET_HDR_PASSWORD_LEN; i++)
        diff |= stored[i] ^ (i < n ? given[i] : 0);
    memset(stored, 0, sizeof stored);
    memset(given, 0, sizeof given);
    return diff ? JET_EPASSWORD : JET_OK;
}

