/*
 * crypt_cng.c - the crypto seam (crypto.h) on Windows: CNG (bcrypt.dll).
 *
 * jet_crypto_load() opens the algorithm providers once per process (they
 * are thread-safe and shared; CNG documents provider handles as usable from
 * any thread). RC4 is optional: a provider that does not open (Wine 8's
 * bcrypt has no RC4; real Windows has it) only makes jet_crypto_rc4()
 * answer JET_EUNSUPPORTED, so AES-encrypted files still open. Hash and key
 * objects are made per call, with CNG allocating their memory. Base64 is
 * crypt32's CryptStringToBinaryA.
 * Format of the primitives: MS-OFFCRYPTO; CNG: "BCryptOpenAlgorithmProvider",
 * "BCryptGenerateSymmetricKey", "BCryptDecrypt" (in-place is allowed).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>
#include <bcrypt.h>
#include <wincrypt.h>

#include "alloc.h"
#include "crypto.h"
#include "internal.h"
#include "lock.h"

#ifndef BCRYPT_HASH_REUSABLE_FLAG
#define BCRYPT_HASH_REUSABLE_FLAG 0x00000020
#endif

static jet_once_t load_once = JET_ONCE_INIT;
static jet_rc load_rc = JET_EUNSUPPORTED;
static char load_msg[160];
static BCRYPT_ALG_HANDLE hash_alg[5];   /* by jet_hash_alg; NULL if missing */
static BCRYPT_ALG_HANDLE rc4_alg, aes_cbc_alg, aes_ecb_alg;

static BCRYPT_ALG_HANDLE open_alg(LPCWSTR name, LPCWSTR chaining)
{
    BCRYPT_ALG_HANDLE h = NULL;
    if (!BCRYPT_SUCCESS(BCryptOpenAlgorithmProvider(&h, name, NULL, 0)))
        return NULL;
    if (chaining &&
        !BCRYPT_SUCCESS(BCryptSetProperty(
            h, BCRYPT_CHAINING_MODE, (PUCHAR)(uintptr_t)chaining,
            (ULONG)((wcslen(chaining) + 1) * sizeof(WCHAR)), 0))) {
        BCryptCloseAlgorithmProvider(h, 0);
        return NULL;
    }
    return h;
}

static void load_providers(void)
{
    static const LPCWSTR names[5] = {
        BCRYPT_MD5_ALGORITHM, BCRYPT_SHA1_ALGORITHM, BCRYPT_SHA256_ALGORITHM,
        BCRYPT_SHA384_ALGORITHM, BCRYPT_SHA512_ALGORITHM
    };
    for (int i = 0; i < 5; i++)
        hash_alg[i] = open_alg(names[i], NULL);
    rc4_alg = open_alg(BCRYPT_RC4_ALGORITHM, NULL);
    aes_cbc_alg = open_alg(BCRYPT_AES_ALGORITHM, BCRYPT_CHAIN_MODE_CBC);
    aes_ecb_alg = open_alg(BCRYPT_AES_ALGORITHM, BCRYPT_CHAIN_MODE_ECB);
    if (!hash_alg[JET_HASH_SHA1] && !aes_cbc_alg && !rc4_alg) {
        snprintf(load_msg, sizeof load_msg,
                 "Windows CNG (bcrypt.dll) offers neither SHA-1, AES nor "
                 "RC4 (needed for encrypted files)");
        return;
    }
    load_rc = JET_OK;   /* providers stay open until exit */
}

jet_rc jet_crypto_load(jet_error *err)
{
    jet_once(&load_once, load_providers);
    if (load_rc != JET_OK && err)
        return jet_fail(err, load_rc, JET_NO_PGNO, "%s", load_msg);
    return load_rc;
}

static BCRYPT_ALG_HANDLE hash_for(jet_hash_alg alg)
{
    if ((unsigned)alg >= 5 || jet_crypto_load(NULL) != JET_OK)
        return NULL;
    return hash_alg[alg];
}

jet_rc jet_crypto_hash(jet_hash_alg alg, const uint8_t *a, size_t a_len,
                       const uint8_t *b, size_t b_len, uint8_t *out)
{
    BCRYPT_ALG_HANDLE h = hash_for(alg);
    BCRYPT_HASH_HANDLE hh = NULL;
    jet_rc rc = JET_EUNSUPPORTED;

    if (!h)
        return JET_EUNSUPPORTED;
    if (a_len > ULONG_MAX || b_len > ULONG_MAX)
        return JET_ELIMIT;
    if (!BCRYPT_SUCCESS(BCryptCreateHash(h, &hh, NULL, 0, NULL, 0, 0)))
        return JET_EUNSUPPORTED;
    if (BCRYPT_SUCCESS(BCryptHashData(hh, (PUCHAR)(uintptr_t)a,
                                      (ULONG)a_len, 0)) &&
        (b_len == 0 ||
         BCRYPT_SUCCESS(BCryptHashData(hh, (PUCHAR)(uintptr_t)b,
                                       (ULONG)b_len, 0))) &&
        BCRYPT_SUCCESS(BCryptFinishHash(hh, out,
                                        (ULONG)jet_crypto_hash_len(alg), 0)))
        rc = JET_OK;
    BCryptDestroyHash(hh);
    return rc;
}

struct jet_hasher {
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_HASH_HANDLE reusable;   /* Windows 8+; NULL: one per digest */
    ULONG len;
};

jet_rc jet_crypto_hasher_new(jet_hasher **out, jet_hash_alg alg)
{
    BCRYPT_ALG_HANDLE a = hash_for(alg);
    jet_hasher *h;

    *out = NULL;
    if (!a)
        return JET_EUNSUPPORTED;
    if (!(h = jet_calloc(1, sizeof *h)))
        return JET_ENOMEM;
    h->alg = a;
    h->len = (ULONG)jet_crypto_hash_len(alg);
    /* a reusable hash object saves a create per digest */
    if (!BCRYPT_SUCCESS(BCryptCreateHash(a, &h->reusable, NULL, 0, NULL, 0,
                                         BCRYPT_HASH_REUSABLE_FLAG)))
        h->reusable = NULL;
    *out = h;
    return JET_OK;
}

jet_rc jet_crypto_hasher_digest(jet_hasher *h, const uint8_t *data,
                                size_t len, uint8_t *out)
{
    BCRYPT_HASH_HANDLE hh = h->reusable;
    bool ok;

    if (len > ULONG_MAX)
        return JET_ELIMIT;
    if (!hh &&
        !BCRYPT_SUCCESS(BCryptCreateHash(h->alg, &hh, NULL, 0, NULL, 0, 0)))
        return JET_EUNSUPPORTED;
    ok = BCRYPT_SUCCESS(BCryptHashData(hh, (PUCHAR)(uintptr_t)data,
                                       (ULONG)len, 0)) &&
         BCRYPT_SUCCESS(BCryptFinishHash(hh, out, h->len, 0));
    if (!h->reusable)
        BCryptDestroyHash(hh);
    return ok ? JET_OK : JET_EUNSUPPORTED;
}

void jet_crypto_hasher_free(jet_hasher *h)
{
    if (h) {
        if (h->reusable)
            BCryptDestroyHash(h->reusable);
        jet_free(h);
    }
}

/* Decrypt (or, with encrypt, encrypt) buf in place with a key of alg (no
 * padding; iv may be NULL). */
static jet_rc run_cipher_dir(BCRYPT_ALG_HANDLE alg, const uint8_t *key,
                             size_t key_len, const uint8_t *iv, uint8_t *buf,
                             size_t len, bool encrypt)
{
    BCRYPT_KEY_HANDLE k = NULL;
    UCHAR ivc[16];
    ULONG got = 0;
    jet_rc rc = JET_EUNSUPPORTED;

    if (!alg)
        return JET_EUNSUPPORTED;
    if (len > ULONG_MAX)
        return JET_ELIMIT;
    if (len == 0)
        return JET_OK;
    if (!BCRYPT_SUCCESS(BCryptGenerateSymmetricKey(
            alg, &k, NULL, 0, (PUCHAR)(uintptr_t)key, (ULONG)key_len, 0)))
        return JET_EUNSUPPORTED;
    if (iv)
        memcpy(ivc, iv, sizeof ivc);   /* CNG updates the IV it is given */
    if (BCRYPT_SUCCESS(encrypt
                           ? BCryptEncrypt(k, buf, (ULONG)len, NULL,
                                           iv ? ivc : NULL,
                                           iv ? sizeof ivc : 0, buf,
                                           (ULONG)len, &got, 0)
                           : BCryptDecrypt(k, buf, (ULONG)len, NULL,
                                           iv ? ivc : NULL,
                                           iv ? sizeof ivc : 0, buf,
                                           (ULONG)len, &got, 0)) &&
        got == len)
        rc = JET_OK;
    BCryptDestroyKey(k);
    return rc;
}

static jet_rc run_cipher(BCRYPT_ALG_HANDLE alg, const uint8_t *key,
                         size_t key_len, const uint8_t *iv, uint8_t *buf,
                         size_t len)
{
    return run_cipher_dir(alg, key, key_len, iv, buf, len, false);
}

jet_rc jet_crypto_rc4(const uint8_t *key, size_t key_len, uint8_t *buf,
                      size_t len)
{
    if (key_len == 0 || key_len > 256)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(rc4_alg, key, key_len, NULL, buf, len);
}

static bool aes_key_len_ok(size_t key_len)
{
    return key_len == 16 || key_len == 24 || key_len == 32;
}

jet_rc jet_crypto_aes_cbc_decrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len)
{
    if (!aes_key_len_ok(key_len) || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_cbc_alg, key, key_len, iv, buf, len);
}

jet_rc jet_crypto_aes_ecb_decrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len)
{
    if (!aes_key_len_ok(key_len) || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher(aes_ecb_alg, key, key_len, NULL, buf, len);
}

jet_rc jet_crypto_aes_cbc_encrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len)
{
    if (!aes_key_len_ok(key_len) || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher_dir(aes_cbc_alg, key, key_len, iv, buf, len, true);
}

jet_rc jet_crypto_aes_ecb_encrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len)
{
    if (!aes_key_len_ok(key_len) || len % 16)
        return JET_ELIMIT;
    if (jet_crypto_load(NULL) != JET_OK)
        return JET_EUNSUPPORTED;
    return run_cipher_dir(aes_ecb_alg, key, key_len, NULL, buf, len, true);
}

jet_rc jet_crypto_base64_decode(uint8_t *out, size_t cap, size_t *out_len,
                                const char *src, size_t src_len)
{
    DWORD n;
    *out_len = 0;
    if (src_len % 4)
        return JET_ECORRUPT;
    if (src_len / 4 * 3 > cap)
        return JET_ELIMIT;
    if (src_len > INT32_MAX / 2)
        return JET_ELIMIT;
    for (size_t i = 0; i < src_len; i++) {
        char c = src[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '='))
            return JET_ECORRUPT;
    }
    if (src_len == 0)
        return JET_OK;
    n = (DWORD)cap;
    if (!CryptStringToBinaryA(src, (DWORD)src_len, CRYPT_STRING_BASE64, out,
                              &n, NULL, NULL))
        return JET_ECORRUPT;
    *out_len = n;
    return JET_OK;
}

jet_rc jet_crypto_base64_encode(char *out, size_t cap, size_t *out_len,
                                const uint8_t *in, size_t len)
{
    DWORD n;
    *out_len = 0;
    if (len > INT32_MAX / 2)
        return JET_ELIMIT;
    if (cap < (len + 2) / 3 * 4 + 1)
        return JET_ELIMIT;
    if (len == 0) {
        out[0] = '\0';
        return JET_OK;
    }
    n = (DWORD)cap;
    if (!CryptBinaryToStringA(in, (DWORD)len,
                              CRYPT_STRING_BASE64 | CRYPT_STRING_NOCRLF, out,
                              &n))
        return JET_EUNSUPPORTED;
    out[n] = '\0';              /* n excludes the terminator on success */
    *out_len = n;
    return JET_OK;
}
