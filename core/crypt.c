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
 * RC4 comes from libcrypto. OpenSSL 3 moved it to the legacy provider, so a
 * private library context loads "legacy" + "default" without touching the
 * application's global context. That costs about 1 ms and most of a fresh
 * process's connect, so it happens lazily, on the first jet_rc4_apply():
 * only for files whose pages are really encoded (Jet RC4, ACE RC4/AES
 * verifiers). The header mask needs no cipher: its key is fixed, so its
 * keystream is a format constant, kept below as a table.
 */
#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/provider.h>
#endif

#include "bytes.h"
#include "internal.h"

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
static OSSL_LIB_CTX *rc4_libctx;
static EVP_CIPHER *rc4_cipher;
static pthread_once_t rc4_once = PTHREAD_ONCE_INIT;

/* Runs once per process; the context lives until exit. */
static void load_rc4(void)
{
    rc4_libctx = OSSL_LIB_CTX_new();
    if (rc4_libctx) {
        (void)OSSL_PROVIDER_load(rc4_libctx, "legacy");
        (void)OSSL_PROVIDER_load(rc4_libctx, "default");
        rc4_cipher = EVP_CIPHER_fetch(rc4_libctx, "RC4", NULL);
    }
}

static const EVP_CIPHER *get_rc4(void)
{
    (void)pthread_once(&rc4_once, load_rc4);
    return rc4_cipher;
}
#else
static const EVP_CIPHER *get_rc4(void)
{
    return EVP_rc4();
}
#endif

jet_rc jet_rc4_apply(const uint8_t *key, size_t key_len, uint8_t *buf,
                     size_t len)
{
    const EVP_CIPHER *c = get_rc4();
    EVP_CIPHER_CTX *ctx;
    jet_rc rc = JET_EUNSUPPORTED;
    int outl = 0;

    if (!c)
        return JET_EUNSUPPORTED;
    if (len > INT32_MAX || key_len == 0 || key_len > 256)
        return JET_ELIMIT;
    ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return JET_ENOMEM;
    if (EVP_DecryptInit_ex(ctx, c, NULL, NULL, NULL) == 1 &&
        EVP_CIPHER_CTX_set_key_length(ctx, (int)key_len) == 1 &&
        EVP_DecryptInit_ex(ctx, NULL, NULL, key, NULL) == 1 &&
        EVP_DecryptUpdate(ctx, buf, &outl, buf, (int)len) == 1 &&
        (size_t)outl == len)
        rc = JET_OK;
    EVP_CIPHER_CTX_free(ctx);
    return rc;
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
