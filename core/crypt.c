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
 * RC4 comes from the crypto seam (crypto.h), which loads libcrypto on the
 * first call: only files whose pages are really encoded (Jet RC4, ACE
 * RC4/AES) pay for it. The header mask needs no cipher: its key is fixed,
 * so its keystream is a format constant, kept below as a table.
 */
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
