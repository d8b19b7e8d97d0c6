/*
 * officecrypt.c - page codecs of password-protected ACE (.accdb) files.
 *
 * When an ACE header's encoding key (0x3E) is non-zero, page 0 holds an
 * encryption provider at 0x299: a 2-byte length, then an EncryptionInfo
 * (MS-OFFCRYPTO 2.3.4.5): version (major.minor, 2 bytes each), flags (4):
 *   4.4        Office "agile" encryption (2.3.4.10): an XML descriptor
 *              from offset 8 names salts, hash, AES key size and spin
 *              count; the password derives keys that check the verifier
 *              and decrypt the intermediate key (encryptedKeyValue). Page
 *              n is AES-CBC with IV = H(keyData salt || page key) cut to
 *              the block size.
 *   3.2/4.2 with fCryptoAPI and fAES: ECMA-376 "Standard" encryption
 *              (2.3.4.5-2.3.4.9): header (alg 0x660E/F/0x6610 = AES
 *              128/192/256, hash SHA-1) and verifier. H = SHA-1 spun 50,000
 *              times from SHA1(salt || password); page key K(b) =
 *              CryptDeriveKey(SHA1(H || b)) (2.3.4.7: SHA1 of the 64-byte
 *              0x36 pad XOR the hash, then of the 0x5C pad, cut to the key
 *              size); pages are AES-ECB with K(page key), the verifier
 *              with K(0). Access also writes this layout with AES named in
 *              the header but no fAES flag; Jackcess reads that
 *              ("non-standard") as the same scheme without the spin.
 *   2.2/3.2/4.2 with fCryptoAPI and RC4: RC4 CryptoAPI (2.3.5): base =
 *              SHA1(salt || password), page key = SHA1(base || page key)
 *              cut to the key size (40-bit keys zero-padded to 128 bits).
 * The page key is the 4-byte encoding key XOR the page number (LE).
 * Passwords are UTF-16LE. A wrong password fails the verifier check:
 * JET_EPASSWORD. Every password hash chain (the agile and Standard spins)
 * runs once per open, checking the open's interrupt (login timeout) as it
 * goes. Primitives come from the crypto seam (crypto.h).
 * New files (jet_codec_agile_new) get agile encryption as Access 2013 and
 * later write it: AES-256, SHA-512, spinCount 100,000.
 * Format: MS-OFFCRYPTO; jackcess-encrypt OfficeCryptCodecHandler and its
 * ECMAStandard/NonStandard/Agile providers (facts only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "crypto.h"
#include "internal.h"
#include "os.h"

#define PROVIDER_OFFSET 0x299
#define MAX_KEY 64

enum codec_kind { CODEC_JET_RC4, CODEC_OFFICE_RC4, CODEC_AGILE,
                  CODEC_STANDARD };

struct jet_codec {
    enum codec_kind kind;
    uint32_t enc_key;
    /* office RC4 */
    uint8_t base_hash[20];
    size_t key_bytes;          /* RC4 key length in bytes (before padding) */
    /* agile: page key and the keyData salt; Standard: the spun hash */
    jet_hash_alg hash;
    uint8_t key[MAX_KEY];      /* agile intermediate key / Standard H */
    size_t key_len;            /* AES key bytes (agile and Standard) */
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

static void put_le32(uint8_t out[4], uint32_t v)
{
    out[0] = (uint8_t)v;
    out[1] = (uint8_t)(v >> 8);
    out[2] = (uint8_t)(v >> 16);
    out[3] = (uint8_t)(v >> 24);
}

static void page_key(uint32_t enc_key, uint32_t pgno, uint8_t out[4])
{
    put_le32(out, enc_key ^ pgno);
}

/* RC4 CryptoAPI key for a 4-byte block key; returns its length (0 when
 * SHA-1 failed). */
static size_t office_rc4_key(const jet_codec *c, const uint8_t blk[4],
                             uint8_t key[20])
{
    uint8_t h[20];
    if (jet_crypto_hash(JET_HASH_SHA1, c->base_hash, 20, blk, 4, h) !=
        JET_OK)
        return 0;
    memset(key, 0, 20);
    memcpy(key, h, c->key_bytes);
    return c->key_bytes == 5 ? 16 : c->key_bytes;
}

/* MS-OFFCRYPTO 2.3.4.7 CryptDeriveKey for Standard encryption: the AES key
 * (c->key_len bytes) for block key blk from the spun hash in c->key. */
static jet_rc standard_key(const jet_codec *c, const uint8_t blk[4],
                           uint8_t key[40])
{
    uint8_t fin[20], pad[64];
    jet_rc rc = jet_crypto_hash(JET_HASH_SHA1, c->key, 20, blk, 4, fin);
    for (int half = 0; rc == JET_OK && half < 2; half++) {
        memset(pad, half ? 0x5C : 0x36, sizeof pad);
        for (size_t i = 0; i < sizeof fin; i++)
            pad[i] ^= fin[i];
        rc = jet_crypto_hash(JET_HASH_SHA1, pad, sizeof pad, NULL, 0,
                             key + 20 * half);
    }
    memset(fin, 0, sizeof fin);
    memset(pad, 0, sizeof pad);
    return rc;
}

/* Decode (or, with encode, encode) page pgno in place. RC4 is its own
 * inverse; AES runs the other direction with the same key and IV. */
static jet_rc run_codec(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len, bool encode)
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
        return jet_crypto_rc4(key, klen, page, len);
    }
    case CODEC_AGILE: {
        uint8_t h[JET_HASH_MAX], iv[16];
        jet_rc rc = jet_crypto_hash(c->hash, c->salt, c->salt_len, blk, 4, h);
        if (rc != JET_OK)
            return rc;
        memcpy(iv, h, sizeof iv);   /* every hash is >= 16 bytes */
        if (len % 16)
            return JET_ECORRUPT;
        return encode ? jet_crypto_aes_cbc_encrypt(c->key, c->key_len, iv,
                                                   page, len)
                      : jet_crypto_aes_cbc_decrypt(c->key, c->key_len, iv,
                                                   page, len);
    }
    case CODEC_STANDARD: {
        uint8_t key[40];
        jet_rc rc = standard_key(c, blk, key);
        if (rc == JET_OK)
            rc = len % 16 ? JET_ECORRUPT
                 : encode ? jet_crypto_aes_ecb_encrypt(key, c->key_len, page,
                                                       len)
                          : jet_crypto_aes_ecb_decrypt(key, c->key_len, page,
                                                       len);
        memset(key, 0, sizeof key);
        return rc;
    }
    }
    return JET_EUNSUPPORTED;
}

jet_rc jet_codec_decode(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len)
{
    return run_codec(c, pgno, page, len, false);
}

jet_rc jet_codec_encode(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len)
{
    return run_codec(c, pgno, page, len, true);
}

/* What an open needs besides the provider bytes. */
typedef struct open_ctx {
    const uint8_t *pw;          /* UTF-16LE password */
    size_t pw_len;
    jet_interrupt_fn check;     /* login timeout; may be NULL */
    void *check_ctx;
    jet_error *err;
} open_ctx;

jet_rc jet_password_spin(jet_hash_alg alg, uint8_t *h, uint32_t spin,
                         jet_interrupt_fn check, void *check_ctx)
{
    size_t hl = jet_crypto_hash_len(alg);
    uint8_t buf[4 + JET_HASH_MAX];
    jet_hasher *hs;
    jet_rc rc = jet_crypto_hasher_new(&hs, alg);

    if (rc != JET_OK)
        return rc;
    memcpy(buf + 4, h, hl);
    for (uint32_t i = 0; i < spin; i++) {
        if ((i & 4095) == 0 && check && check(check_ctx)) {
            rc = JET_EINTERRUPTED;
            break;
        }
        put_le32(buf, i);
        if ((rc = jet_crypto_hasher_digest(hs, buf, 4 + hl, buf + 4)) !=
            JET_OK)
            break;
    }
    jet_crypto_hasher_free(hs);
    if (rc == JET_OK)
        memcpy(h, buf + 4, hl);
    memset(buf, 0, sizeof buf);
    return rc;
}

/* The spin of 2.3.4.7/2.3.4.11, once per open: h = H(salt || password),
 * then spin iterations; a stop by the interrupt check is JET_EINTERRUPTED
 * with a message, any other failure JET_EUNSUPPORTED. */
static jet_rc spin_password(const open_ctx *o, jet_hash_alg alg,
                            const uint8_t *salt, size_t salt_len,
                            uint32_t spin, uint8_t *h)
{
    jet_rc rc = jet_crypto_hash(alg, salt, salt_len, o->pw, o->pw_len, h);
    if (rc == JET_OK)
        rc = jet_password_spin(alg, h, spin, o->check, o->check_ctx);
    if (rc == JET_EINTERRUPTED)
        return jet_fail(o->err, rc, 0, "password key derivation (%u "
                        "iterations) stopped by the login timeout", spin);
    if (rc != JET_OK)
        return jet_fail(o->err, JET_EUNSUPPORTED, 0,
                        "cannot run the password key derivation");
    return JET_OK;
}

/* -------------------------------------------- CryptoAPI (RC4, Standard) */

/* The parts of a binary EncryptionInfo (2.3.4.6, 2.3.4.8) we use. */
typedef struct capi_info {
    uint32_t flags, alg, alg_hash, key_bits;
    const uint8_t *salt;         /* 16 bytes */
    const uint8_t *verifier;     /* 16 bytes, encrypted */
    const uint8_t *vhash;        /* vhash_len bytes, encrypted */
    size_t vhash_len;
} capi_info;

/* Parse p (len bytes from the version on): header size at 8, header at
 * 12, verifier after it; vhash_len is the encrypted hash size the cipher
 * produces (20 for RC4, 32 for AES). */
static jet_rc parse_capi(capi_info *ci, const uint8_t *p, size_t len,
                         size_t vhash_len, jet_error *err)
{
    uint32_t hlen;
    size_t vpos;

    if (len < 12 || (hlen = jet_get_u32(p + 8)) > len - 12 || hlen < 20)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "CryptoAPI encryption header is truncated "
                        "(%zu bytes)", len);
    ci->flags = jet_get_u32(p + 12);
    ci->alg = jet_get_u32(p + 12 + 8);
    ci->alg_hash = jet_get_u32(p + 12 + 12);
    ci->key_bits = jet_get_u32(p + 12 + 16);
    vpos = 12 + (size_t)hlen;
    if (len - vpos < 4 + 16 + 16 + 4 + vhash_len ||
        jet_get_u32(p + vpos) != 16 || jet_get_u32(p + vpos + 36) != 20)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "CryptoAPI encryption verifier is malformed");
    ci->salt = p + vpos + 4;
    ci->verifier = p + vpos + 20;
    ci->vhash = p + vpos + 40;
    ci->vhash_len = vhash_len;
    return JET_OK;
}

static jet_rc open_office_rc4(jet_codec *c, const uint8_t *p, size_t len,
                              const open_ctx *o)
{
    uint8_t salted[16 + 512], key[20], both[36], h[20];
    capi_info ci;
    size_t klen;
    jet_rc rc = parse_capi(&ci, p, len, 20, o->err);

    if (rc != JET_OK)
        return rc;
    if ((ci.alg != 0 && ci.alg != 0x6801) ||
        (ci.alg_hash != 0 && ci.alg_hash != 0x8004))
        return jet_fail(o->err, JET_EUNSUPPORTED, 0,
                        "CryptoAPI encryption with algorithm 0x%x / hash "
                        "0x%x is not supported", ci.alg, ci.alg_hash);
    if (ci.key_bits == 0)
        ci.key_bits = 40;
    if (ci.key_bits < 40 || ci.key_bits > 128 || ci.key_bits % 8)
        return jet_fail(o->err, JET_EUNSUPPORTED, 0,
                        "RC4 key size %u bits is not supported", ci.key_bits);
    c->kind = CODEC_OFFICE_RC4;
    c->key_bytes = ci.key_bits / 8;
    memcpy(salted, ci.salt, 16);
    memcpy(salted + 16, o->pw, o->pw_len);
    if (jet_crypto_hash(JET_HASH_SHA1, salted, 16 + o->pw_len, NULL, 0,
                        c->base_hash) != JET_OK)
        return jet_fail(o->err, JET_EUNSUPPORTED, 0, "SHA-1 unavailable");
    /* verifier and its hash are one RC4 stream with block key 0 */
    memset(salted, 0, 4);
    klen = office_rc4_key(c, salted, key);
    memcpy(both, ci.verifier, 16);
    memcpy(both + 16, ci.vhash, 20);
    if (!klen || jet_crypto_rc4(key, klen, both, 36) != JET_OK ||
        jet_crypto_hash(JET_HASH_SHA1, both, 16, NULL, 0, h) != JET_OK)
        return jet_fail(o->err, JET_EUNSUPPORTED, 0, "RC4 unavailable");
    if (memcmp(h, both + 16, 20) != 0)
        return jet_fail(o->err, JET_EPASSWORD, 0, "wrong database password");
    return JET_OK;
}

/* AES key bits for a CryptoAPI algorithm id, 0 when it is not AES. */
static uint32_t capi_aes_bits(uint32_t alg)
{
    return alg == 0x660E ? 128 : alg == 0x660F ? 192
         : alg == 0x6610 ? 256 : 0;
}

/* Standard encryption (spin 50,000) or its "non-standard" form (spin 0). */
static jet_rc open_standard(jet_codec *c, const uint8_t *p, size_t len,
                            uint32_t spin, const open_ctx *o)
{
    static const uint8_t zero[4] = { 0, 0, 0, 0 };
    uint8_t key[40], buf[16 + 32], h[20];
    uint32_t bits;
    capi_info ci;
    jet_rc rc = parse_capi(&ci, p, len, 32, o->err);

    if (rc != JET_OK)
        return rc;
    bits = capi_aes_bits(ci.alg);
    if (!bits || (ci.alg_hash != 0 && ci.alg_hash != 0x8004) ||
        (ci.key_bits != 0 && ci.key_bits != bits))
        return jet_fail(o->err, JET_EUNSUPPORTED, 0,
                        "Standard encryption with algorithm 0x%x / hash 0x%x "
                        "/ %u-bit key is not supported", ci.alg, ci.alg_hash,
                        ci.key_bits);
    c->kind = CODEC_STANDARD;
    c->key_len = bits / 8;
    rc = spin_password(o, JET_HASH_SHA1, ci.salt, 16, spin, c->key);
    if (rc != JET_OK)
        return rc;
    /* 2.3.4.9: verifier and its hash decrypt (ECB) with the key of block 0 */
    memcpy(buf, ci.verifier, 16);
    memcpy(buf + 16, ci.vhash, 32);
    rc = standard_key(c, zero, key);
    if (rc == JET_OK)
        rc = jet_crypto_aes_ecb_decrypt(key, c->key_len, buf, sizeof buf);
    if (rc == JET_OK)
        rc = jet_crypto_hash(JET_HASH_SHA1, buf, 16, NULL, 0, h);
    memset(key, 0, sizeof key);
    if (rc != JET_OK)
        return jet_fail(o->err, JET_EUNSUPPORTED, 0,
                        "cannot check the Standard encryption verifier");
    if (memcmp(h, buf + 16, 20) != 0)
        return jet_fail(o->err, JET_EPASSWORD, 0, "wrong database password");
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

/* A decimal attribute in 0..LONG_MAX; -1 when absent or not a number. */
static long xml_num(const char *xml, const char *tag, const char *name)
{
    char v[32], *end;
    long n;
    if (!xml_attr(xml, tag, name, v, sizeof v) || v[0] < '0' || v[0] > '9')
        return -1;
    n = strtol(v, &end, 10);
    return *end == '\0' ? n : -1;
}

/* Base64 attribute -> bytes; returns length or -1. */
static int xml_b64(const char *xml, const char *tag, const char *name,
                   uint8_t *out, size_t cap)
{
    char v[512];
    size_t n;
    if (!xml_attr(xml, tag, name, v, sizeof v) ||
        jet_crypto_base64_decode(out, cap, &n, v, strlen(v)) != JET_OK)
        return -1;
    return (int)n;
}

/* The hash an agile descriptor names; false for others. */
static bool hash_named(const char *s, jet_hash_alg *out)
{
    static const struct { const char *name; jet_hash_alg alg; } tab[] = {
        { "SHA1", JET_HASH_SHA1 }, { "SHA256", JET_HASH_SHA256 },
        { "SHA384", JET_HASH_SHA384 }, { "SHA512", JET_HASH_SHA512 },
        { "MD5", JET_HASH_MD5 },
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(s, tab[i].name) == 0) {
            *out = tab[i].alg;
            return true;
        }
    return false;
}

/* MS-OFFCRYPTO 2.3.4.11: the spun hash hn (n bytes) + block key -> key
 * bytes (cut, or padded with 0x36). */
static jet_rc agile_key(jet_hash_alg alg, const uint8_t *hn,
                        const uint8_t blk[8], uint8_t *out, size_t out_len)
{
    uint8_t h[JET_HASH_MAX];
    size_t n = jet_crypto_hash_len(alg);
    jet_rc rc = jet_crypto_hash(alg, hn, n, blk, 8, h);
    if (rc != JET_OK)
        return rc;
    memset(out, 0x36, out_len);
    memcpy(out, h, n < out_len ? n : out_len);
    return JET_OK;
}

/* Largest agile spinCount accepted (MS-OFFCRYPTO 2.3.4.10 caps it here). */
#define MAX_SPIN 10000000L

/* The block keys of 2.3.4.13: the intermediate key (encryptedKeyValue),
 * the verifier input and the verifier hash value. */
static const uint8_t blk_key[8] = { 0x14, 0x6e, 0x0b, 0xe7,
                                    0xab, 0xac, 0xd0, 0xd6 };
static const uint8_t blk_vin[8] = { 0xfe, 0xa7, 0xd2, 0x76,
                                    0x3b, 0x4b, 0x9e, 0x79 };
static const uint8_t blk_vval[8] = { 0xd7, 0xaa, 0x0f, 0x6d,
                                     0x30, 0x61, 0x34, 0x4e };

static jet_rc open_agile(jet_codec *c, const uint8_t *p, size_t len,
                         const open_ctx *o)
{
    const char *kd = "<keyData", *ek = "<p:encryptedKey";
    char *xml, alg[32], chain[32];
    uint8_t psalt[64], ekv[128], evin[128], evval[128], k[MAX_KEY];
    uint8_t hn[JET_HASH_MAX], h[JET_HASH_MAX];
    long spin, pbits, kbits, kblock, pblock;
    int psalt_len, ekv_len, evin_len, evval_len, slen;
    jet_hash_alg pmd;
    size_t pkey, hl;
    jet_rc rc = JET_OK;

    if (len < 9)
        return jet_fail(o->err, JET_ECORRUPT, 0,
                        "agile encryption descriptor is truncated");
    xml = jet_malloc(len - 8 + 1);
    if (!xml)
        return jet_fail(o->err, JET_ENOMEM, 0, "out of memory");
    memcpy(xml, p + 8, len - 8);
    xml[len - 8] = '\0';

    /* keyData: the page cipher */
    kbits = xml_num(xml, kd, "keyBits");
    kblock = xml_num(xml, kd, "blockSize");
    slen = xml_b64(xml, kd, "saltValue", c->salt, sizeof c->salt);
    if (!xml_attr(xml, kd, "cipherAlgorithm", alg, sizeof alg) ||
        !xml_attr(xml, kd, "cipherChaining", chain, sizeof chain) ||
        strcmp(alg, "AES") != 0 || strcmp(chain, "ChainingModeCBC") != 0 ||
        (kbits != 128 && kbits != 192 && kbits != 256) || kblock != 16 ||
        slen < 1) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "agile encryption other than AES-CBC is not supported");
        goto out;
    }
    if (!xml_attr(xml, kd, "hashAlgorithm", alg, sizeof alg) ||
        !hash_named(alg, &c->hash)) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "agile encryption hash is not supported");
        goto out;
    }
    c->salt_len = (size_t)slen;
    c->block_size = (size_t)kblock;
    c->key_len = (size_t)kbits / 8;

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
        !hash_named(alg, &pmd) ||
        (pbits != 128 && pbits != 192 && pbits != 256) || pblock != 16 ||
        psalt_len < 16 || ekv_len < kbits / 8 || ekv_len % 16 ||
        evin_len < 16 || evin_len % 16 || evval_len < 16 ||
        evval_len % 16) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "agile password key encryptor is not supported");
        goto out;
    }
    if (spin < 0 || spin > MAX_SPIN) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "agile spinCount %ld is outside 0..%ld", spin,
                      MAX_SPIN);
        goto out;
    }
    hl = jet_crypto_hash_len(pmd);
    pkey = (size_t)pbits / 8;
    /* the password's hash chain, once; three keys derive from it */
    rc = spin_password(o, pmd, psalt, (size_t)psalt_len, (uint32_t)spin, hn);
    if (rc != JET_OK)
        goto out;
    if (agile_key(pmd, hn, blk_vin, k, pkey) != JET_OK ||
        jet_crypto_aes_cbc_decrypt(k, pkey, psalt, evin,
                                   (size_t)evin_len) != JET_OK ||
        agile_key(pmd, hn, blk_vval, k, pkey) != JET_OK ||
        jet_crypto_aes_cbc_decrypt(k, pkey, psalt, evval,
                                   (size_t)evval_len) != JET_OK ||
        jet_crypto_hash(pmd, evin, 16, NULL, 0, h) != JET_OK) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "cannot check the agile password verifier");
        goto out;
    }
    if ((size_t)evval_len < hl || memcmp(h, evval, hl) != 0) {
        rc = jet_fail(o->err, JET_EPASSWORD, 0, "wrong database password");
        goto out;
    }
    /* the intermediate key that encrypts the pages */
    if (agile_key(pmd, hn, blk_key, k, pkey) != JET_OK ||
        jet_crypto_aes_cbc_decrypt(k, pkey, psalt, ekv,
                                   (size_t)ekv_len) != JET_OK) {
        rc = jet_fail(o->err, JET_EUNSUPPORTED, 0,
                      "cannot decrypt the agile intermediate key");
        goto out;
    }
    memcpy(c->key, ekv, c->key_len);
    c->kind = CODEC_AGILE;
out:
    memset(k, 0, sizeof k);
    memset(hn, 0, sizeof hn);
    memset(ekv, 0, sizeof ekv);
    jet_free(xml);
    return rc;
}

/* ------------------------------------------------------ new agile files */

#define NEW_SALT 16
#define NEW_KEY 32                /* AES-256 */
#define NEW_SPIN 100000
#define NEW_HASH JET_HASH_SHA512  /* 64-byte digests */

/* The attributes both elements of the descriptor share (db2013-enc.accdb:
 * Access 2013's form). */
#define AGILE_PARAMS "saltSize=\"16\" blockSize=\"16\" keyBits=\"256\" " \
    "hashSize=\"64\" cipherAlgorithm=\"AES\" " \
    "cipherChaining=\"ChainingModeCBC\" hashAlgorithm=\"SHA512\""

jet_rc jet_codec_agile_new(jet_codec **out, uint8_t *rec, size_t cap,
                           size_t *rec_len, uint32_t enc_key,
                           const char *password, jet_error *err)
{
    /* the random parts: keyData salt, password salt, verifier input,
     * intermediate key */
    uint8_t ksalt[NEW_SALT], psalt[NEW_SALT], vin[NEW_SALT], key[NEW_KEY];
    uint8_t evin[NEW_SALT], evval[JET_HASH_MAX], ekv[NEW_KEY];
    uint8_t pw[512], hn[JET_HASH_MAX], k[NEW_KEY];
    char b_ksalt[32], b_psalt[32], b_evin[32], b_evval[96], b_ekv[48];
    size_t plen, n, chars = 0, b64;
    jet_codec *c;
    jet_rc rc;
    int w;

    *out = NULL;
    *rec_len = 0;
    if (password)
        for (const unsigned char *s = (const unsigned char *)password; *s;
             s++)
            chars += (*s & 0xC0) != 0x80;   /* UTF-8 lead bytes */
    if (chars < 1 || chars > 255)
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                        "a database password has 1 to 255 characters");
    if (cap < JET_AGILE_RECORD_MAX || enc_key == 0)
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                        "no room for the encryption provider record");
    rc = jet_crypto_load(err);
    if (rc != JET_OK)
        return rc;
    plen = jet_password_utf16(password, pw, sizeof pw);
    jet_os_random(ksalt, sizeof ksalt);
    jet_os_random(psalt, sizeof psalt);
    jet_os_random(vin, sizeof vin);
    jet_os_random(key, sizeof key);

    /* 2.3.4.11: the spun password hash, then one key per block key;
     * 2.3.4.13: each value AES-CBC with the password salt as IV */
    rc = jet_crypto_hash(NEW_HASH, psalt, sizeof psalt, pw, plen, hn);
    if (rc == JET_OK)
        rc = jet_password_spin(NEW_HASH, hn, NEW_SPIN, NULL, NULL);
    memcpy(evin, vin, sizeof evin);
    if (rc == JET_OK)
        rc = agile_key(NEW_HASH, hn, blk_vin, k, sizeof k);
    if (rc == JET_OK)
        rc = jet_crypto_aes_cbc_encrypt(k, sizeof k, psalt, evin,
                                        sizeof evin);
    /* the verifier's hash: SHA-512 is 64 bytes, a whole number of blocks */
    if (rc == JET_OK)
        rc = jet_crypto_hash(NEW_HASH, vin, sizeof vin, NULL, 0, evval);
    if (rc == JET_OK)
        rc = agile_key(NEW_HASH, hn, blk_vval, k, sizeof k);
    if (rc == JET_OK)
        rc = jet_crypto_aes_cbc_encrypt(k, sizeof k, psalt, evval,
                                        JET_HASH_MAX);
    memcpy(ekv, key, sizeof ekv);
    if (rc == JET_OK)
        rc = agile_key(NEW_HASH, hn, blk_key, k, sizeof k);
    if (rc == JET_OK)
        rc = jet_crypto_aes_cbc_encrypt(k, sizeof k, psalt, ekv, sizeof ekv);
    memset(pw, 0, sizeof pw);
    memset(hn, 0, sizeof hn);
    memset(k, 0, sizeof k);
    if (rc != JET_OK) {
        memset(key, 0, sizeof key);
        return jet_fail(err, rc == JET_ENOMEM ? rc : JET_EUNSUPPORTED,
                        JET_NO_PGNO, "cannot run the agile encryption "
                        "(SHA-512, AES-256) of the crypto library");
    }

    rc = jet_crypto_base64_encode(b_ksalt, sizeof b_ksalt, &b64, ksalt,
                                  sizeof ksalt);
    if (rc == JET_OK)
        rc = jet_crypto_base64_encode(b_psalt, sizeof b_psalt, &b64, psalt,
                                      sizeof psalt);
    if (rc == JET_OK)
        rc = jet_crypto_base64_encode(b_evin, sizeof b_evin, &b64, evin,
                                      sizeof evin);
    if (rc == JET_OK)
        rc = jet_crypto_base64_encode(b_evval, sizeof b_evval, &b64, evval,
                                      JET_HASH_MAX);
    if (rc == JET_OK)
        rc = jet_crypto_base64_encode(b_ekv, sizeof b_ekv, &b64, ekv,
                                      sizeof ekv);
    if (rc != JET_OK) {
        memset(key, 0, sizeof key);
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "cannot base64-encode the agile EncryptionInfo "
                        "with the crypto library");
    }
    /* EncryptionInfo (2.3.4.10): version 4.4, reserved 0x40, the XML */
    memset(rec, 0, cap);
    rec[2] = 4;
    rec[4] = 4;
    rec[6] = 0x40;
    w = snprintf((char *)rec + 10, cap - 10,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n"
        "<encryption xmlns=\"http://schemas.microsoft.com/office/2006/"
        "encryption\" xmlns:p=\"http://schemas.microsoft.com/office/2006/"
        "keyEncryptor/password\" xmlns:c=\"http://schemas.microsoft.com/"
        "office/2006/keyEncryptor/certificate\"><keyData " AGILE_PARAMS
        " saltValue=\"%s\"/><keyEncryptors><keyEncryptor uri=\"http://"
        "schemas.microsoft.com/office/2006/keyEncryptor/password\">"
        "<p:encryptedKey spinCount=\"%d\" " AGILE_PARAMS " saltValue=\"%s\" "
        "encryptedVerifierHashInput=\"%s\" encryptedVerifierHashValue="
        "\"%s\" encryptedKeyValue=\"%s\"/></keyEncryptor></keyEncryptors>"
        "</encryption>", b_ksalt, NEW_SPIN, b_psalt, b_evin, b_evval, b_ekv);
    if (w < 0 || (size_t)w >= cap - 10) {
        memset(key, 0, sizeof key);
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                        "no room for the encryption provider record");
    }
    n = 8 + (size_t)w;
    rec[0] = (uint8_t)n;
    rec[1] = (uint8_t)(n >> 8);

    c = jet_calloc(1, sizeof *c);
    if (!c) {
        memset(key, 0, sizeof key);
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    c->kind = CODEC_AGILE;
    c->enc_key = enc_key;
    c->hash = NEW_HASH;
    memcpy(c->key, key, sizeof key);
    c->key_len = sizeof key;
    memcpy(c->salt, ksalt, sizeof ksalt);
    c->salt_len = sizeof ksalt;
    c->block_size = 16;
    memset(key, 0, sizeof key);
    *rec_len = 2 + n;
    *out = c;
    return JET_OK;
}

jet_rc jet_codec_office(jet_codec **out, const uint8_t *page0, size_t len,
                        uint32_t enc_key, const jet_open_options *opts,
                        jet_error *err)
{
    uint8_t pw[512];
    size_t plen;
    const uint8_t *p;
    uint16_t major, minor;
    uint32_t flags;
    const char *password = opts ? opts->password : NULL;
    open_ctx o;
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
    flags = jet_get_u32(p + 4);
    rc = jet_crypto_load(err);
    if (rc != JET_OK)
        return rc;
    c = jet_calloc(1, sizeof *c);
    if (!c)
        return jet_fail(err, JET_ENOMEM, 0, "out of memory");
    c->enc_key = enc_key;
    o.pw_len = jet_password_utf16(password, pw, sizeof pw);
    o.pw = pw;
    o.check = opts->interrupt;
    o.check_ctx = opts->interrupt_ctx;
    o.err = err;
    if (major == 4 && minor == 4) {
        rc = open_agile(c, p, plen, &o);
    } else if ((major == 2 || major == 3 || major == 4) && minor == 2 &&
               (flags & 0x04)) {
        /* fAES (0x20): Standard; else RC4, or AES without the flag */
        if (flags & 0x20)
            rc = open_standard(c, p, plen, 50000, &o);
        else if (plen >= 12 + 12 &&
                 capi_aes_bits(jet_get_u32(p + 12 + 8)))
            rc = open_standard(c, p, plen, 0, &o);
        else
            rc = open_office_rc4(c, p, plen, &o);
    } else {
        rc = jet_fail(err, JET_EUNSUPPORTED, 0,
                      "encryption provider %u.%u (flags 0x%x) is not "
                      "supported", major, minor, flags);
    }
    memset(pw, 0, sizeof pw);
    if (rc != JET_OK) {
        jet_codec_free(c);
        return rc;
    }
    *out = c;
    return JET_OK;
}
