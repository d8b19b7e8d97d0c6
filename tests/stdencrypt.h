/*
 * stdencrypt.h - a test-only writer of ECMA-376 Standard encryption for
 * ACE files, written from MS-OFFCRYPTO 2.3.4.5-2.3.4.9 for the tests.
 */
#ifndef JET_TESTS_STDENCRYPT_H
#define JET_TESTS_STDENCRYPT_H

#include <stddef.h>
#include <stdint.h>

/** The encoding key the writer puts in the header (0x3E). */
#define STD_ENC_KEY 0x5A3C9E21u

/** What a Standard-encrypted test file uses. */
typedef struct std_params {
    uint32_t alg;        /* 0x660E / 0x660F / 0x6610 = AES-128/192/256 */
    uint32_t key_bits;   /* 128 / 192 / 256 */
    int faes;            /* fAES flag set (Standard, 50,000 spins) or not
                          * (Access's flagless form, no spin) */
    const char *password;  /* ASCII */
} std_params;

/**
 * Encrypt the plain ACE image buf (len bytes, 4096-byte pages) in place:
 * encoding key into the masked header at 0x3E, EncryptionInfo (version
 * 4.2, header, verifier) at 0x299, pages 1.. AES-ECB with the key
 * CryptDeriveKey(SHA1(H || LE32(encoding key XOR pgno))).
 */
void std_encrypt(uint8_t *buf, size_t len, const std_params *sp);

#endif
