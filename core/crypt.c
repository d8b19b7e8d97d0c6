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
 * application's global context.
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

jet_rc jet_header_unmask(uint8_t *page0, size_t len, size_t mask_len)
{
    static const uint8_t key[4] = { 0xc7, 0xda, 0x39, 0x6b };
    if (!jet_span_ok(len, 0x18, mask_len))
        return JET_ECORRUPT;
    return jet_rc4_apply(key, sizeof key, page0 + 0x18, mask_len);
}

jet_rc jet_rc4_page_decode(uint32_t enc_key, uint32_t pgno, uint8_t *page,
                           size_t page_size)
{
    uint32_t k = enc_key ^ pgno;
    uint8_t key[4] = { (uint8_t)k, (uint8_t)(k >> 8), (uint8_t)(k >> 16),
                       (uint8_t)(k >> 24) };
    return jet_rc4_apply(key, sizeof key, page, page_size);
}
