/*
 * stdencrypt.c - a test-only writer of ECMA-376 Standard encryption for
 * ACE files (see stdencrypt.h).
 *
 * Written from MS-OFFCRYPTO 2.3.4.5-2.3.4.9 (EncryptionInfo, header,
 * verifier, key derivation, password verifier) plus the Access page rule
 * (jackcess-encrypt facts): page n > 0 is AES-ECB with the key derived for
 * block = LE32(encoding key XOR n); page 0 stays plain but for its header
 * mask. It uses libcrypto directly; the reader under test goes through the
 * core's crypto seam, so the two share no code.
 */
#include <check.h>
#include <string.h>

#include <openssl/evp.h>

#include "internal.h"
#include "stdencrypt.h"

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void sha1(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                 uint8_t out[20])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned n = 0;
    ck_assert(EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) == 1);
    ck_assert(EVP_DigestUpdate(ctx, a, alen) == 1);
    if (blen)
        ck_assert(EVP_DigestUpdate(ctx, b, blen) == 1);
    ck_assert(EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 20);
    EVP_MD_CTX_free(ctx);
}

static void aes_ecb_encrypt(const uint8_t *key, size_t klen, uint8_t *buf,
                            size_t len)
{
    const EVP_CIPHER *c = klen == 16 ? EVP_aes_128_ecb()
                        : klen == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n1 = 0, n2 = 0;
    ck_assert(EVP_EncryptInit_ex(ctx, c, NULL, key, NULL) == 1);
    ck_assert(EVP_CIPHER_CTX_set_padding(ctx, 0) == 1);
    ck_assert(EVP_EncryptUpdate(ctx, buf, &n1, buf, (int)len) == 1);
    ck_assert(EVP_EncryptFinal_ex(ctx, buf + n1, &n2) == 1);
    ck_assert_int_eq(n1 + n2, (int)len);
    EVP_CIPHER_CTX_free(ctx);
}

/* 2.3.4.7: H0 = SHA1(salt || pw), Hi = SHA1(LE32(i-1) || H), spin times. */
static void std_spin(uint8_t h[20], const uint8_t salt[16], const char *pw,
                     uint32_t spin)
{
    uint8_t pw16[256], buf[24];
    size_t n = 0;
    for (const char *s = pw; *s; s++) {   /* ASCII test passwords */
        pw16[n++] = (uint8_t)*s;
        pw16[n++] = 0;
    }
    sha1(salt, 16, pw16, n, h);
    for (uint32_t i = 0; i < spin; i++) {
        put32(buf, i);
        memcpy(buf + 4, h, 20);
        sha1(buf, 24, NULL, 0, h);
    }
}

/* 2.3.4.7 CryptDeriveKey: SHA1 of Hfinal XOR the 0x36 pad, then 0x5C. */
static void std_key(uint8_t key[40], const uint8_t h[20], uint32_t block)
{
    uint8_t blk[4], fin[20], pad[64];
    put32(blk, block);
    sha1(h, 20, blk, 4, fin);
    for (int half = 0; half < 2; half++) {
        memset(pad, half ? 0x5C : 0x36, sizeof pad);
        for (int i = 0; i < 20; i++)
            pad[i] ^= fin[i];
        sha1(pad, sizeof pad, NULL, 0, key + 20 * half);
    }
}

void std_encrypt(uint8_t *buf, size_t len, const std_params *sp)
{
    static const char csp[] = "Microsoft Enhanced RSA and AES Cryptographic "
                              "Provider";
    uint8_t salt[16], verifier[16], vhash[32], h[20], key[40];
    uint8_t *info = buf + 0x299 + 2, *q;
    uint32_t flags = sp->faes ? 0x24 : 0x04;
    size_t hsize = 32 + 2 * (sizeof csp);   /* UTF-16 name with its NUL */

    for (int i = 0; i < 16; i++) {
        salt[i] = (uint8_t)(0x11 * i + 3);
        verifier[i] = (uint8_t)(0xA5 ^ (7 * i));
    }
    /* encoding key at 0x3E, inside the masked region */
    ck_assert_int_eq(jet_header_unmask(buf, 4096, 128), JET_OK);
    put32(buf + 0x3E, STD_ENC_KEY);
    ck_assert_int_eq(jet_header_unmask(buf, 4096, 128), JET_OK);
    /* EncryptionInfo: version 4.2, flags, header size, header, verifier */
    q = info;
    q[0] = 4; q[1] = 0; q[2] = 2; q[3] = 0;
    put32(q + 4, flags);
    put32(q + 8, (uint32_t)hsize);
    q += 12;
    put32(q, flags);
    put32(q + 4, 0);                 /* sizeExtra */
    put32(q + 8, sp->alg);
    put32(q + 12, 0x8004);           /* SHA-1 */
    put32(q + 16, sp->key_bits);
    put32(q + 20, 0x18);             /* PROV_RSA_AES */
    put32(q + 24, 0);
    put32(q + 28, 0);
    for (size_t i = 0; i < sizeof csp; i++) {
        q[32 + 2 * i] = (uint8_t)csp[i];
        q[33 + 2 * i] = 0;
    }
    q += hsize;
    std_spin(h, salt, sp->password, sp->faes ? 50000 : 0);
    std_key(key, h, 0);
    memset(vhash, 0, sizeof vhash);
    sha1(verifier, 16, NULL, 0, vhash);
    aes_ecb_encrypt(key, sp->key_bits / 8, verifier, 16);
    aes_ecb_encrypt(key, sp->key_bits / 8, vhash, 32);
    put32(q, 16);
    memcpy(q + 4, salt, 16);
    memcpy(q + 20, verifier, 16);
    put32(q + 36, 20);
    memcpy(q + 40, vhash, 32);
    q += 72;
    buf[0x299] = (uint8_t)(q - info);
    buf[0x29A] = (uint8_t)((q - info) >> 8);
    for (size_t pg = 1; pg < len / 4096; pg++) {
        std_key(key, h, STD_ENC_KEY ^ (uint32_t)pg);
        aes_ecb_encrypt(key, sp->key_bits / 8, buf + pg * 4096, 4096);
    }
}

