/*
 * crypt_openssl.c - the crypto seam (crypto.h) on OpenSSL's libcrypto,
 * loaded with dlopen() when the first encrypted file is opened.
 *
 * The driver .so does not link libcrypto: loading it (and, on OpenSSL 3,
 * its providers) costs about a millisecond, most of a fresh process's
 * connect, and only encrypted files need it. jet_crypto_load() dlopen()s
 * the soname configure found (JET_LIBCRYPTO_SONAME, e.g. libcrypto.so.3)
 * and resolves the few functions below through one table; the OpenSSL
 * headers give their exact types. OpenSSL 3 keeps RC4 in the "legacy"
 * provider, so a private library context loads "legacy" + "default"
 * without touching the application's global context; hashes and ciphers
 * are fetched once from it.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/provider.h>
#define HAVE_OSSL3 1
#endif

#include "alloc.h"
#include "crypto.h"
#include "internal.h"

#ifndef JET_LIBCRYPTO_SONAME
#define JET_LIBCRYPTO_SONAME "libcrypto.so.3"
#endif

/* One entry per libcrypto function used; F(name) declares fn_name. */
#define CRYPTO_FUNCS(F) \
    F(EVP_MD_CTX_new) F(EVP_MD_CTX_free) F(EVP_DigestInit_ex) \
    F(EVP_DigestUpdate) F(EVP_DigestFinal_ex) \
    F(EVP_CIPHER_CTX_new) F(EVP_CIPHER_CTX_free) F(EVP_DecryptInit_ex) \
    F(EVP_CIPHER_CTX_set_key_length) F(EVP_CIPHER_CTX_set_padding) \
    F(EVP_DecryptUpdate) F(EVP_DecryptFinal_ex) F(EVP_DecodeBlock) \
    F(EVP_EncodeBlock) \
    F(EVP_EncryptInit_ex) F(EVP_EncryptUpdate) F(EVP_EncryptFinal_ex) \
    CRYPTO_FUNCS_VERSIONED(F)
#ifdef HAVE_OSSL3
#define CRYPTO_FUNCS_VERSIONED(F) \
    F(OSSL_LIB_CTX_new) F(OSSL_PROVIDER_load) F(EVP_MD_fetch) \
    F(EVP_CIPHER_fetch)
#else
#define CRYPTO_FUNCS_VERSIONED(F) \
    F(EVP_md5) F(EVP_sha1) F(EVP_sha256) F(EVP_sha384) F(EVP_sha512) \
    F(EVP_rc4) F(EVP_aes_128_cbc) F(EVP_aes_192_cbc) F(EVP_aes_256_cbc) \
    F(EVP_aes_128_ecb) F(EVP_aes_192_ecb) F(EVP_aes_256_ecb)
#endif

static struct {
#define DECLARE(name) __typeof__(&name) p_##name;
    CRYPTO_FUNCS(DECLARE)
#undef DECLARE
} fn;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static jet_rc load_rc = JET_EUNSUPPORTED;
static char load_msg[200];
static const EVP_MD *md_tab[5];          /* by jet_hash_alg */
static const EVP_CIPHER *rc4_cipher;
static const EVP_CIPHER *aes_cbc_tab[3], *aes_ecb_tab[3];  /* 128/192/256 */

static void load_library(void)
{
    void *lib = dlopen(JET_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *dlerr;
    void *sym;

    if (!lib) {
        dlerr = dlerror();
        snprintf(load_msg, sizeof load_msg,
                 "cannot load %s (needed for encrypted files): %s",
                 JET_LIBCRYPTO_SONAME, dlerr ? dlerr : "not found");
        return;
    }
#define RESOLVE(name) \
    sym = dlsym(lib, #name); \
    if (!sym) { \
        snprintf(load_msg, sizeof load_msg, \
                 "%s lacks %s (needed for encrypted files)", \
                 JET_LIBCRYPTO_SONAME, #name); \
        return; \
    } \
    memcpy(&fn.p_##name, &sym, sizeof sym);
    CRYPTO_FUNCS(RESOLVE)
#undef RESOLVE
#ifdef HAVE_OSSL3
    {
        static const char *const md_names[5] = { "MD5", "SHA1", "SHA256",
                                                 "SHA384", "SHA512" };
        static const char *const cbc[3] = { "AES-128-CBC", "AES-192-CBC",
                                            "AES-256-CBC" };
        static const char *const ecb[3] = { "AES-128-ECB", "AES-192-ECB",
                                            "AES-256-ECB" };
        OSSL_LIB_CTX *ctx = fn.p_OSSL_LIB_CTX_new();
        if (!ctx) {
            snprintf(load_msg, sizeof load_msg,
                     "libcrypto cannot make a library context");
            return;
        }
        (void)fn.p_OSSL_PROVIDER_load(ctx, "legacy");
        (void)fn.p_OSSL_PROVIDER_load(ctx, "default");
        for (int i = 0; i < 5; i++)
            md_tab[i] = fn.p_EVP_MD_fetch(ctx, md_names[i], NULL);
        for (int i = 0; i < 3; i++) {
            aes_cbc_tab[i] = fn.p_EVP_CIPHER_fetch(ctx, cbc[i], NULL);
            aes_ecb_tab[i] = fn.p_EVP_CIPHER_fetch(ctx, ecb[i], NULL);
        }
        rc4_cipher = fn.p_EVP_CIPHER_fetch(ctx, "RC4", NULL);
    }
#else
    md_tab[JET_HASH_MD5] = fn.p_EVP_md5();
    md_tab[JET_HASH_SHA1] = fn.p_EVP_sha1();
    md_tab[JET_HASH_SHA256] = fn.p_EVP_sha256();
    md_tab[JET_HASH_SHA384] = fn.p_EVP_sha384();
    md_tab[JET_HASH_SHA512] = fn.p_EVP_sha512();
    rc4_cipher = fn.p_EVP_rc4();
    aes_cbc_tab[0] = fn.p_EVP_aes_128_cbc();
    aes_cbc_tab[1] = fn.p_EVP_aes_192_cbc();
    aes_cbc_tab[2] = fn.p_EVP_aes_256_cbc();
    aes_ecb_tab[0] = fn.p_EVP_aes_128_ecb();
    aes_ecb_tab[1] = fn.p_EVP_aes_192_ecb();
    aes_ecb_tab[2] = fn.p_EVP_aes_256_ecb();
#endif
    load_rc = JET_OK;
    /* the library stays loaded until exit: its objects are cached above */
}

jet_rc jet_crypto_load(jet_error *err)
{
    (void)pthread_once(&load_once, load_library);
    if (load_rc != JET_OK && err)
        return jet_fail(err, load_rc, JET_NO_PGNO, "%s", load_msg);
    return load_rc;
}

/* The loaded digest for alg, or NULL before a successful load. */
static const EVP_MD *md_for(jet_hash_alg alg)
{
    if ((unsigned)alg >= 5 || jet_crypto_load(NULL) != JET_OK)
        return NULL;
    return md_tab[alg];
}

jet_rc jet_crypto_hash(jet_hash_alg alg, const uint8_t *a, size_t a_len,
                       const uint8_t *b, size_t b_len, uint8_t *out)
{
    const EVP_MD *md = md_for(alg);
    EVP_MD_CTX *ctx;
    unsigned n = 0;
    jet_rc rc = JET_EUNSUPPORTED;

    if (!md)
        return JET_EUNSUPPORTED;
    if (!(ctx = fn.p_EVP_MD_CTX_new()))
        return JET_ENOMEM;
    if (fn.p_EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
        fn.p_EVP_DigestUpdate(ctx, a, a_len) == 1 &&
        (b_len == 0 || fn.p_EVP_DigestUpdate(ctx, b, b_len) == 1) &&
        fn.p_EVP_DigestFinal_ex(ctx, out, &n) == 1 &&
        n == jet_crypto_hash_len(alg))
        rc = JET_OK;
    fn.p_EVP_MD_CTX_free(ctx);
    return rc;
}

struct jet_hasher {
    const EVP_MD *md;
    EVP_MD_CTX *ctx;
    unsigned len;
};

jet_rc jet_crypto_hasher_new(jet_hasher **out, jet_hash_alg alg)
{
    const EVP_MD *md = md_for(alg);
    jet_hasher *h;

    *out = NULL;
    if (!md)
        return JET_EUNSUPPORTED;
    if (!(h = jet_calloc(1, sizeof *h)))
        return JET_ENOMEM;
    if (!(h->ctx = fn.p_EVP_MD_CTX_new())) {
        jet_free(h);
        return JET_ENOMEM;
    }
    h->md = md;
    h->len = (unsigned)jet_crypto_hash_len(alg);
    *out = h;
    return JET_OK;
}

jet_rc jet_crypto_hasher_digest(jet_hasher *h, const uint8_t *data,
                                size_t len, uint8_t *out)
{
    unsigned n = 0;
    if (fn.p_EVP_DigestInit_ex(h->ctx, h->md, NULL) != 1 ||
        fn.p_EVP_DigestUpdate(h->ctx, data, len) != 1 ||
        fn.p_EVP_DigestFinal_ex(h->ctx, out, &n) != 1 || n != h->len)
        return JET_EUNSUPPORTED;
    return JET_OK;
}

void jet_crypto_hasher_free(jet_hasher *h)
{
    if (h) {
        fn.p_EVP_MD_CTX_free(h->ctx);
        jet_free(h);
    }
}

/* Run cipher c over buf in place, no padding: encrypting when encrypt is
 * true, else decrypting (the EVP Encrypt and Decrypt calls take the same
 * arguments). */
static jet_rc run_cipher(const EVP_CIPHER *c, bool encrypt,
                         const uint8_t *key, size_t key_len,
                         const uint8_t *iv, uint8_t *buf, size_t len)
{
    EVP_CIPHER_CTX *ctx;
    int n1 = 0, n2 = 0;
    jet_rc rc = JET_EUNSUPPORTED;

    if (!c || jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    if (len > INT32_MAX)
        return JET_ELIMIT;
    __typeof__(fn.p_EVP_DecryptInit_ex) init =
        encrypt ? fn.p_EVP_EncryptInit_ex : fn.p_EVP_DecryptInit_ex;
    __typeof__(fn.p_EVP_DecryptUpdate) update =
        encrypt ? fn.p_EVP_EncryptUpdate : fn.p_EVP_DecryptUpdate;
    __typeof__(fn.p_EVP_DecryptFinal_ex) final =
        encrypt ? fn.p_EVP_EncryptFinal_ex : fn.p_EVP_DecryptFinal_ex;
    if (!(ctx = fn.p_EVP_CIPHER_CTX_new()))
        return JET_ENOMEM;
    if (init(ctx, c, NULL, NULL, NULL) == 1 &&
        fn.p_EVP_CIPHER_CTX_set_key_length(ctx, (int)key_len) == 1 &&
        fn.p_EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
        init(ctx, NULL, NULL, key, iv) == 1 &&
        update(ctx, buf, &n1, buf, (int)len) == 1 &&
        final(ctx, buf + n1, &n2) == 1 &&
        (size_t)n1 + (size_t)n2 == len)
        rc = JET_OK;
    fn.p_EVP_CIPHER_CTX_free(ctx);
    return rc;
}

jet_rc jet_crypto_rc4(const uint8_t *key, size_t key_len, uint8_t *buf,
                      size_t len)
{
    if (key_len == 0 || key_len > 256)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(rc4_cipher, false, key, key_len, NULL, buf, len);
}

/* Index 0/1/2 for AES key lengths 16/24/32, -1 otherwise. */
static int aes_index(size_t key_len)
{
    return key_len == 16 ? 0 : key_len == 24 ? 1 : key_len == 32 ? 2 : -1;
}

jet_rc jet_crypto_aes_cbc_decrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len)
{
    int i = aes_index(key_len);
    if (i < 0 || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_cbc_tab[i], false, key, key_len, iv, buf, len);
}

jet_rc jet_crypto_aes_ecb_decrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len)
{
    int i = aes_index(key_len);
    if (i < 0 || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_ecb_tab[i], false, key, key_len, NULL, buf, len);
}

jet_rc jet_crypto_aes_cbc_encrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len)
{
    int i = aes_index(key_len);
    if (i < 0 || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_cbc_tab[i], true, key, key_len, iv, buf, len);
}

jet_rc jet_crypto_aes_ecb_encrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len)
{
    int i = aes_index(key_len);
    if (i < 0 || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_ecb_tab[i], true, key, key_len, NULL, buf, len);
}

jet_rc jet_crypto_base64_decode(uint8_t *out, size_t cap, size_t *out_len,
                                const char *src, size_t src_len)
{
    int n;
    *out_len = 0;
    if (src_len % 4)
        return JET_ECORRUPT;
    if (src_len / 4 * 3 > cap)
        return JET_ELIMIT;
    if (src_len > INT32_MAX / 2)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    n = fn.p_EVP_DecodeBlock(out, (const unsigned char *)src, (int)src_len);
    if (n < 0)
        return JET_ECORRUPT;
    if (src_len >= 1 && src[src_len - 1] == '=')
        n--;
    if (src_len >= 2 && src[src_len - 2] == '=')
        n--;
    *out_len = (size_t)n;
    return JET_OK;
}

jet_rc jet_crypto_base64_encode(char *out, size_t cap, size_t *out_len,
                                const uint8_t *in, size_t len)
{
    int n;
    *out_len = 0;
    if (len > INT32_MAX / 2)
        return JET_ELIMIT;
    if (cap < (len + 2) / 3 * 4 + 1)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    n = fn.p_EVP_EncodeBlock((unsigned char *)out, in, (int)len);
    if (n < 0)
        return JET_EUNSUPPORTED;
    out[n] = '\0';
    *out_len = (size_t)n;
    return JET_OK;
}
