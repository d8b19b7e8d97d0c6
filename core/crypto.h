/*
 * crypto.h - the crypto seam: the few primitives the page codecs need.
 *
 * One implementation per platform, each in its own file:
 *   core/crypt_openssl.c  libcrypto, loaded with dlopen() on first use
 *   (a Windows CNG file implements the same functions)
 * Nothing else in the project includes OpenSSL or CNG headers; crypt.c and
 * officecrypt.c call only what is declared here.
 *
 * Loading is lazy: an unencrypted file never calls jet_crypto_load(), so a
 * process that only reads such files never loads the crypto library. Every
 * other function requires a successful jet_crypto_load() first (they return
 * JET_EUNSUPPORTED otherwise). All functions are thread-safe; none keeps
 * state between calls besides the loaded library.
 *
 * Errors: JET_EUNSUPPORTED (library or algorithm unavailable), JET_ELIMIT
 * (a length the primitive does not take), JET_ENOMEM. Schemes built on
 * these (the Office password spin, page keys) live above the seam, in
 * officecrypt.c and crypt.c.
 */
#ifndef JET_CRYPTO_H
#define JET_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/** Hash algorithms, by the names MS-OFFCRYPTO uses. */
typedef enum jet_hash_alg {
    JET_HASH_MD5,
    JET_HASH_SHA1,
    JET_HASH_SHA256,
    JET_HASH_SHA384,
    JET_HASH_SHA512
} jet_hash_alg;

/** Largest digest any jet_hash_alg produces, in bytes. */
#define JET_HASH_MAX 64

/**
 * Load the crypto library once per process (later calls return the first
 * result at once). On failure err (may be NULL) says what is missing, e.g.
 * "cannot load libcrypto.so.3 (needed for encrypted files): ...", and the
 * result is JET_EUNSUPPORTED.
 */
jet_rc jet_crypto_load(jet_error *err);

/** Digest length of alg in bytes (16, 20, 32, 48 or 64); 0 for an
 * unknown alg. Needs no loaded library (defined in crypt.c). */
size_t jet_crypto_hash_len(jet_hash_alg alg);

/**
 * out = H(a || b); b may be NULL with b_len 0. out holds
 * jet_crypto_hash_len(alg) bytes.
 */
jet_rc jet_crypto_hash(jet_hash_alg alg, const uint8_t *a, size_t a_len,
                       const uint8_t *b, size_t b_len, uint8_t *out);

/** A hash object kept across many digests of one algorithm (opaque). */
typedef struct jet_hasher jet_hasher;

/**
 * Make a hash object for alg, to digest many short inputs without a setup
 * per digest (the password spins run 50,000 to millions of them). Free
 * with jet_crypto_hasher_free(). Errors: JET_EUNSUPPORTED, JET_ENOMEM.
 */
jet_rc jet_crypto_hasher_new(jet_hasher **out, jet_hash_alg alg);

/**
 * out = H(data) with the hasher's algorithm; out holds hash_len bytes and
 * may overlap data (the digest is written after data is read). The hasher
 * is ready for the next digest afterwards.
 */
jet_rc jet_crypto_hasher_digest(jet_hasher *h, const uint8_t *data,
                                size_t len, uint8_t *out);

/** Free a hasher (NULL is a no-op). */
void jet_crypto_hasher_free(jet_hasher *h);

/** XOR the RC4 keystream of key (1..256 bytes) over buf in place. */
jet_rc jet_crypto_rc4(const uint8_t *key, size_t key_len, uint8_t *buf,
                      size_t len);

/**
 * AES decrypt in place, no padding: key_len 16, 24 or 32 bytes; len a
 * multiple of 16. CBC takes a 16-byte iv; ECB has none.
 */
jet_rc jet_crypto_aes_cbc_decrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len);
jet_rc jet_crypto_aes_ecb_decrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len);
/** AES encrypt in place, the inverse of the decrypt functions above (for
 *  writing encrypted pages); same key, iv and length rules. */
jet_rc jet_crypto_aes_cbc_encrypt(const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], uint8_t *buf,
                                  size_t len);
jet_rc jet_crypto_aes_ecb_encrypt(const uint8_t *key, size_t key_len,
                                  uint8_t *buf, size_t len);

/**
 * Decode base64 text (src_len characters, '=' padding, no whitespace)
 * into out (cap bytes); *out_len = bytes written. JET_ECORRUPT for text
 * that is not base64, JET_ELIMIT when out is too small.
 */
jet_rc jet_crypto_base64_decode(uint8_t *out, size_t cap, size_t *out_len,
                                const char *src, size_t src_len);
/**
 * Encode in[0..len) as base64 (RFC 4648: '=' padding, no line breaks)
 * into out, which holds cap bytes: at least 4 * ((len + 2) / 3) + 1;
 * NUL-terminated, *out_len = characters written. JET_ELIMIT when out is
 * too small, JET_EUNSUPPORTED without the crypto library. OpenSSL
 * EVP_EncodeBlock; Windows crypt32 CryptBinaryToStringA.
 */
jet_rc jet_crypto_base64_encode(char *out, size_t cap, size_t *out_len,
                                const uint8_t *in, size_t len);

#endif
