/*
 * officecrypt.c - page codecs of password-protected ACE (.accdb) files.
 *
 * When an ACE header's encoding key (0x3E) is non-zero, page 0 holds an
 * encryption provider at 0x299: a 2-byte length, then a version
 * (major.minor, 2 bytes each):
 *   4.4        Office "agile" encryption (MS-OFFCRYPTO 2.3.4.10): an XML
 *              descriptor from offset 8 names salts, hash, AES key size and
 *              spin count; the password derives a key that decrypts the
 *              intermediate key (encryptedKeyValue). Page n is AES-CBC
 *              with IV = H(keyData salt || page key) cut to the block size.
 *   2.2/3.2/4.2 with the CryptoAPI flag and no AES: RC4 CryptoAPI
 *              (MS-OFFCRYPTO 2.3.5): base = SHA1(salt || password), page
 *              key = SHA1(base || page key) cut to the key size (40-bit keys
 *              zero-padded to 128 bits).
 * The page key is the 4-byte encoding key XOR the page number. Passwords
 * are UTF-16LE. A wrong password fails the verifier check: JET_EPASSWORD.
 * Format: MS-OFFCRYPTO; jackcess-encrypt OfficeCryptCodecHandler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"

#define PROVIDER_OFFSET 0x299
#define MAX_KEY 64

enum codec_kind { CODEC_JET_RC4, CODEC_OFFICE_RC4, CODEC_AGILE };

struct jet_codec {
    enum codec_kind kind;
    uint32_t enc_key;
    /* office RC4 */
    uint8_t base_hash[20];
    size_t key_bytes;          /* RC4 key length in bytes (before padding) */
    /* agile */
    const EVP_MD *md;
    const EVP_CIPHER *cipher;
    uint8_t key[MAX_KEY];      /* intermediate key */
    uint8_t salt[64];
    size_t salt_len, block_size;
};

void jet_codec_free(jet_codec *c)
{
    if (c) {
        memset(c, 0, sizeof *c);
        jet_free(c);
    }
}

jet_rc jet_codec_jet_rc4(jet_codec **out, uint32_t enc_key)
{
    jet_codec *c = jet_calloc(1, sizeof *c);
    *out = NULL;
    if (!c)
        return JET_ENOMEM;
    c->kind = CODEC_JET_RC4;
    c->enc_key = enc_key;
    *out = c;
    return JET_OK;
}

/* UTF-8 password -> UTF-16LE bytes (at most 255 characters). */
static size_t password_utf16(const char *pw, uint8_t *out, size_t cap)
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

/* out = H(a || b), returns the digest length (0 on failure). */
static unsigned hash2(const EVP_MD *md, const uint8_t *a, size_t alen,
                      const uint8_t *b, size_t blen, uint8_t *out)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned n = 0;
    if (!ctx)
        return 0;
    if (EVP_DigestInit_ex(ctx, md, NULL) != 1 ||
        EVP_DigestUpdate(ctx, a, alen) != 1 ||
        (blen && EVP_DigestUpdate(ctx, b, blen) != 1) ||
        EVP_DigestFinal_ex(ctx, out, &n) != 1)
        n = 0;
    EVP_MD_CTX_free(ctx);
    return n;
}

static void page_key(uint32_t enc_key, uint32_t pgno, uint8_t out[4])
{
    uint32_t k = enc_key ^ pgno;
    out[0] = (uint8_t)k;
    out[1] = (uint8_t)(k >> 8);
    out[2] = (uint8_t)(k >> 16);
    out[3] = (uint8_t)(k >> 24);
}

/* RC4 CryptoAPI key for a 4-byte block key; returns its length. */
static size_t office_rc4_key(const jet_codec *c, const uint8_t blk[4],
                             uint8_t key[20])
{
    uint8_t h[EVP_MAX_MD_SIZE];
    if (hash2(EVP_sha1(), c->base_hash, 20, blk, 4, h) != 20)
        return 0;
    memset(key, 0, 20);
    memcpy(key, h, c->key_bytes);
    return c->key_bytes == 5 ? 16 : c->key_bytes;
}

/* AES-CBC decrypt in place without padding. */
static jet_rc aes_cbc(const EVP_CIPHER *cipher, const uint8_t *key,
                      const uint8_t *iv, uint8_t *buf, size_t len)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n1 = 0, n2 = 0;
    jet_rc rc = JET_EUNSUPPORTED;
    if (!ctx)
        return JET_ENOMEM;
    if (len <= INT32_MAX &&
        EVP_DecryptInit_ex(ctx, cipher, NULL, key, iv) == 1 &&
        EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
        EVP_DecryptUpdate(ctx, buf, &n1, buf, (int)len) == 1 &&
        EVP_DecryptFinal_ex(ctx, buf + n1, &n2) == 1 &&
        (size_t)(n1 + n2) == len)
        rc = JET_OK;
    EVP_CIPHER_CTX_free(ctx);
    return rc;
}

jet_rc jet_codec_decode(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len)
{
    uint8_t blk[4];
    if (pgno == 0)
        return JET_OK;
    page_key(c->enc_key, pgno, blk);
    switch (c->kind) {
    case CODEC_JET_RC4:
        return jet_rc4_apply(blk, 4, page, len);
    case CODEC_OFFICE_RC4: {
        uint8_t key[20];
        size_t klen = office_rc4_key(c, blk, key);
        if (!klen)
            return JET_EUNSUPPORTED;
        return jet_rc4_apply(key, klen, page, len);
    }
    case CODEC_AGILE: {
        uint8_t h[EVP_MAX_MD_SIZE], iv[32];
        unsigned n = hash2(c->md, c->salt, c->salt_len, blk, 4, h);
        if (!n)
            return JET_EUNSUPPORTED;
        memset(iv, 0x36, sizeof iv);
        memcpy(iv, h, n < c->block_size ? n : c->block_size);
        if (len % c->block_size)
            return JET_ECORRUPT;
        return aes_cbc(c->cipher, c->key, iv, page, len);
    }
    }
    return JET_EUNSUPPORTED;
}

/* ------------------------------------------------------ RC4 CryptoAPI */

static jet_rc open_office_rc4(jet_codec *c, const uint8_t *p, size_t len,
                              const uint8_t *pw, size_t pw_len,
                              jet_error *err)
{
    uint32_t hlen, alg, alg_hash, key_bits, vpos, salt_size, vh_size;
    uint8_t salted[16 + 512], key[20], verifier[16], vhash[20], h[20];
    size_t klen;

    if (len < 12 || (hlen = jet_get_u32(p + 8)) > len - 12 || hlen < 20)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "RC4 CryptoAPI encryption header is truncated");
    alg = jet_get_u32(p + 12 + 8);
    alg_hash = jet_get_u32(p + 12 + 12);
    key_bits = jet_get_u32(p + 12 + 16);
    if ((alg != 0 && alg != 0x6801) || (alg_hash != 0 && alg_hash != 0x8004))
        return jet_fail(err, JET_EUNSUPPORTED, 0,
                        "CryptoAPI encryption with algorithm 0x%x / hash "
                        "0x%x is not supported", alg, alg_hash);
    if (key_bits == 0)
        key_bits = 40;
    if (key_bits < 40 || key_bits > 128 || key_bits % 8)
        return jet_fail(err, JET_EUNSUPPORTED, 0,
                        "RC4 key size %u bits is not supported", key_bits);
    vpos = 12 + hlen;
    if (vpos + 4 + 16 + 16 + 4 + 20 > len ||
        (salt_size = jet_get_u32(p + vpos)) != 16 ||
        (vh_size = jet_get_u32(p + vpos + 36)) != 20)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "RC4 CryptoAPI verifier is malformed");
    c->kind = CODEC_OFFICE_RC4;
    c->key_bytes = key_bits / 8;
    memcpy(salted, p + vpos + 4, 16);
    memcpy(salted + 16, pw, pw_len);
    if (hash2(EVP_sha1(), salted, 16 + pw_len, NULL, 0, c->base_hash) != 20)
        return jet_fail(err, JET_EUNSUPPORTED, 0, "SHA-1 unavailable");
    /* verifier and its hash are one RC4 stream with block key 0 */
    memset(salted, 0, 4);
    klen = office_rc4_key(c, salted, key);
    memcpy(verifier, p + vpos + 20, 16);
    memcpy(vhash, p + vpos + 40, 20);
    {
        uint8_t both[36];
        memcpy(both, verifier, 16);
        memcpy(both + 16, vhash, 20);
        if (!klen || jet_rc4_apply(key, klen, both, 36) != JET_OK)
            return jet_fail(err, JET_EUNSUPPORTED, 0, "RC4 unavailable");
        memcpy(verifier, both, 16);
        memcpy(vhash, both + 16, 20);
    }
    if (hash2(EVP_sha1(), verifier, 16, NULL, 0, h) != 20 ||
        memcmp(h, vhash, 20) != 0)
        return jet_fail(err, JET_EPASSWORD, 0, "wrong database password");
    return JET_OK;
}

/* ------------------------------------------------------------ agile */

/* Value of attribute name inside the first element starting with tag. */
static bool xml_attr(const char *xml, const char *tag, const char *name,
                     char *out, size_t cap)
{
    const char *e = strstr(xml, tag), *end, *a;
    char pat[64];
    size_t n;
    if (!e)
        return false;
    end = strchr(e, '>');
    if (!end)
        return false;
    snprintf(pat, sizeof pat, " %s=\"", name);
    a = strstr(e, pat);
    if (!a || a > end)
        return false;
    a += strlen(pat);
    end = strchr(a, '"');
    if (!end || (n = (size_t)(end - a)) >= cap)
        return false;
    memcpy(out, a, n);
    out[n] = '\0';
    return true;
}

static long xml_num(const char *xml, const char *tag, const char *name)
{
    char v[32];
    return xml_attr(xml, tag, name, v, sizeof v) ? strtol(v, NULL, 10) : -1;
}

/* Base64 attribute -> bytes; returns length or -1. */
static int xml_b64(const char *xml, const char *tag, const char *name,
                   uint8_t *out, size_t cap)
{
    char v[512];
    size_t n;
    int len;
    if (!xml_attr(xml, tag, name, v, sizeof v))
        return -1;
    n = strlen(v);
    if (n % 4 || n / 4 * 3 > cap)
        return -1;
    len = EVP_DecodeBlock(out, (const unsigned char *)v, (int)n);
    if (len < 0)
        return -1;
    if (n >= 1 && v[n - 1] == '=')
        len--;
    if (n >= 2 && v[n - 2] == '=')
        len--;
    return len;
}

static const EVP_MD *md_named(const char *s)
{
    if (strcmp(s, "SHA1") == 0)
        return EVP_sha1();
    if (strcmp(s, "SHA256") == 0)
        return EVP_sha256();
    if (strcmp(s, "SHA384") == 0)
        return EVP_sha384();
    if (strcmp(s, "SHA512") == 0)
        return EVP_sha512();
    return NULL;
}

static const EVP_CIPHER *aes_for(long key_bits)
{
    return key_bits == 128 ? EVP_aes_128_cbc()
         : key_bits == 192 ? EVP_aes_192_cbc()
         : key_bits == 256 ? EVP_aes_256_cbc() : NULL;
}

/* MS-OFFCRYPTO 2.3.4.11: spun password hash + block key -> key bytes. */
static bool agile_key(const EVP_MD *md, const uint8_t *salt, size_t salt_len,
                      const uint8_t *pw, size_t pw_len, long spin,
                      const uint8_t blk[8], uint8_t *out, size_t out_len)
{
    uint8_t h[EVP_MAX_MD_SIZE], buf[4 + EVP_MAX_MD_SIZE];
    unsigned n = hash2(md, salt, salt_len, pw, pw_len, h);
    if (!n)
        return false;
    for (long i = 0; i < spin; i++) {
        buf[0] = (uint8_t)i;
        buf[1] = (uint8_t)(i >> 8);
        buf[2] = (uint8_t)(i >> 16);
        buf[3] = (uint8_t)(i >> 24);
        memcpy(buf + 4, h, n);
        if (hash2(md, buf, 4 + n, NULL, 0, h) != n)
            return false;
    }
    if (hash2(md, h, n, blk, 8, h) != n)
        return false;
    memset(out, 0x36, out_len);
    memcpy(out, h, n < out_len ? n : out_len);
    return true;
}

static jet_rc open_agile(jet_codec *c, const uint8_t *p, size_t len,
                         const uint8_t *pw, size_t pw_len, jet_error *err)
{
    static const uint8_t blk_key[8] = { 0x14, 0x6e, 0x0b, 0xe7,
                                        0xab, 0xac, 0xd0, 0xd6 };
    static const uint8_t blk_vin[8] = { 0xfe, 0xa7, 0xd2, 0x76,
                                        0x3b, 0x4b, 0x9e, 0x79 };
    static const uint8_t blk_vval[8] = { 0xd7, 0xaa, 0x0f, 0x6d,
                                         0x30, 0x61, 0x34, 0x4e };
    const char *kd = "<keyData", *ek = "<p:encryptedKey";
    char *xml, alg[32], chain[32];
    uint8_t psalt[64], ekv[128], evin[128], evval[128], k[MAX_KEY];
    uint8_t vin[128], vval[128], h[EVP_MAX_MD_SIZE];
    long spin, pbits, kbits, kblock, pblock;
    int psalt_len, ekv_len, evin_len, evval_len, slen;
    const EVP_MD *pmd;
    const EVP_CIPHER *pciph;
    jet_rc rc = JET_OK;
    unsigned hn;

    if (len < 9)
        return jet_fail(err, JET_ECORRUPT, 0, "agile descriptor truncated");
    xml = jet_malloc(len - 8 + 1);
    if (!xml)
        return jet_fail(err, JET_ENOMEM, 0, "out of memory");
    memcpy(xml, p + 8, len - 8);
    xml[len - 8] = '\0';

    /* keyData: the page cipher */
    kbits = xml_num(xml, kd, "keyBits");
    kblock = xml_num(xml, kd, "blockSize");
    slen = xml_b64(xml, kd, "saltValue", c->salt, sizeof c->salt);
    if (!xml_attr(xml, kd, "cipherAlgorithm", alg, sizeof alg) ||
        !xml_attr(xml, kd, "cipherChaining", chain, sizeof chain) ||
        strcmp(alg, "AES") != 0 || strcmp(chain, "ChainingModeCBC") != 0 ||
        !(c->cipher = aes_for(kbits)) || kblock != 16 || slen <= 0) {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "agile encryption other than AES-CBC is not supported");
        goto out;
    }
    if (!xml_attr(xml, kd, "hashAlgorithm", alg, sizeof alg) ||
        !(c->md = md_named(alg))) {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "agile encryption hash is not supported");
        goto out;
    }
    c->salt_len = (size_t)slen;
    c->block_size = (size_t)kblock;

    /* the password key encryptor */
    spin = xml_num(xml, ek, "spinCount");
    pbits = xml_num(xml, ek, "keyBits");
    pblock = xml_num(xml, ek, "blockSize");
    psalt_len = xml_b64(xml, ek, "saltValue", psalt, sizeof psalt);
    ekv_len = xml_b64(xml, ek, "encryptedKeyValue", ekv, sizeof ekv);
    evin_len = xml_b64(xml, ek, "encryptedVerifierHashInput", evin,
                       sizeof evin);
    evval_len = xml_b64(xml, ek, "encryptedVerifierHashValue", evval,
                        sizeof evval);
    if (!xml_attr(xml, ek, "hashAlgorithm", alg, sizeof alg) ||
        !(pmd = md_named(alg)) || !(pciph = aes_for(pbits)) ||
        pblock != 16 || spin < 0 || spin > 10000000 || psalt_len < 16 ||
        ekv_len <= 0 || ekv_len % 16 || evin_len <= 0 || evin_len % 16 ||
        evval_len <= 0 || evval_len % 16 || pbits / 8 > MAX_KEY) {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "agile password key encryptor is not supported");
        goto out;
    }
    /* verify the password */
    memcpy(vin, evin, (size_t)evin_len);
    memcpy(vval, evval, (size_t)evval_len);
    if (!agile_key(pmd, psalt, (size_t)psalt_len, pw, pw_len, spin, blk_vin,
                   k, (size_t)pbits / 8) ||
        aes_cbc(pciph, k, psalt, vin, (size_t)evin_len) != JET_OK ||
        !agile_key(pmd, psalt, (size_t)psalt_len, pw, pw_len, spin,
                   blk_vval, k, (size_t)pbits / 8) ||
        aes_cbc(pciph, k, psalt, vval, (size_t)evval_len) != JET_OK ||
        !(hn = hash2(pmd, vin, 16, NULL, 0, h))) {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "cannot run the agile key derivation");
        goto out;
    }
    if ((size_t)evval_len < hn || memcmp(h, vval, hn) != 0) {
        rc = jet_fail(err, JET_EPASSWORD, 0, "wrong database password");
        goto out;
    }
    /* the intermediate key that encrypts the pages */
    if (!agile_key(pmd, psalt, (size_t)psalt_len, pw, pw_len, spin, blk_key,
                   k, (size_t)pbits / 8) ||
        aes_cbc(pciph, k, psalt, ekv, (size_t)ekv_len) != JET_OK ||
        (size_t)ekv_len < (size_t)kbits / 8) {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "cannot decrypt the agile intermediate key");
        goto out;
    }
    memcpy(c->key, ekv, (size_t)kbits / 8);
    c->kind = CODEC_AGILE;
out:
    memset(k, 0, sizeof k);
    jet_free(xml);
    return rc;
}

jet_rc jet_codec_office(jet_codec **out, const uint8_t *page0, size_t len,
                        uint32_t enc_key, const char *password,
                        jet_error *err)
{
    uint8_t pw[512];
    size_t pw_len, plen;
    const uint8_t *p;
    uint16_t major, minor;
    jet_codec *c;
    jet_rc rc;

    *out = NULL;
    if (!password || !password[0])
        return jet_fail(err, JET_EPASSWORD, 0,
                        "the database is encrypted; a password is required");
    if (len < PROVIDER_OFFSET + 2 + 8 ||
        (plen = jet_get_u16(page0 + PROVIDER_OFFSET)) >
            len - PROVIDER_OFFSET - 2 || plen < 8)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "encryption provider record is truncated");
    p = page0 + PROVIDER_OFFSET + 2;
    major = jet_get_u16(p);
    minor = jet_get_u16(p + 2);
    c = jet_calloc(1, sizeof *c);
    if (!c)
        return jet_fail(err, JET_ENOMEM, 0, "out of memory");
    c->enc_key = enc_key;
    pw_len = password_utf16(password, pw, sizeof pw);
    if (major == 4 && minor == 4) {
        rc = open_agile(c, p, plen, pw, pw_len, err);
    } else if ((major == 2 || major == 3 || major == 4) && minor == 2 &&
               (jet_get_u32(p + 4) & 0x04) && !(jet_get_u32(p + 4) & 0x20)) {
        rc = open_office_rc4(c, p, plen, pw, pw_len, err);
    } else {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "encryption provider %u.%u (flags 0x%x) is not "
                      "supported", major, minor, jet_get_u32(p + 4));
    }
    memset(pw, 0, sizeof pw);
    if (rc != JET_OK) {
        jet_codec_free(c);
        return rc;
    }
    *out = c;
    return JET_OK;
}
