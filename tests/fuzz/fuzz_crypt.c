/*
 * fuzz_crypt.c - the encryption headers: page 0 of a Jet/ACE file.
 *
 * Input: byte 0 picks the password (none, "Test123" as the public
 * encrypted fixtures use, a wrong one, a long non-ASCII one); the rest is
 * page 0. The target runs the header unmask (Jet3/Jet4 RC4 mask) on a
 * copy, then the ACE encryption provider record (MS-OFFCRYPTO RC4
 * CryptoAPI, agile AES: the binary header and the EncryptionInfo XML,
 * key derivation and verifier), and when a codec results, decodes a page
 * with it. Inputs whose XML asks for more than 10,000 hash rounds are
 * skipped: their cost is the spin count itself (the reader bounds it at
 * 10,000,000), not a parsing bug, and they would only slow the search.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "bytes.h"
#include "internal.h"

#define PAGE 4096
#define MAX_FUZZ_SPIN 10000L

/* True when some spinCount="N" in the input has N > MAX_FUZZ_SPIN. */
static int spin_too_big(const uint8_t *p, size_t n)
{
    static const char key[] = "spinCount";
    const size_t klen = sizeof key - 1;
    for (size_t i = 0; i + klen < n; i++) {
        if (memcmp(p + i, key, klen) != 0)
            continue;
        size_t j = i + klen;
        while (j < n && (p[j] == '=' || p[j] == '"' || p[j] == '\'' ||
                         p[j] == ' '))
            j++;
        long v = 0;
        while (j < n && p[j] >= '0' && p[j] <= '9' && v <= MAX_FUZZ_SPIN)
            v = v * 10 + (p[j++] - '0');
        if (v > MAX_FUZZ_SPIN)
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const passwords[] = {
        NULL, "Test123", "wrong", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x94\x91"
        "0123456789012345678901234567890123456789"
    };
    if (size < 1 || spin_too_big(data, size))
        return 0;
    const char *pw = passwords[data[0] % (sizeof passwords / sizeof *passwords)];
    const uint8_t *page0 = data + 1;
    size_t len = size - 1;

    /* as format.c does: unmask the header (126 bytes Jet3, 128 later),
     * take the encoding key, then read the provider record */
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    memcpy(copy, page0, len);
    size_t mask = len > 0x14 && copy[0x14] == 0 ? 126 : 128;
    (void)jet_header_unmask(copy, len, mask);
    uint32_t enc_key = len >= 0x42 ? jet_get_u32(copy + 0x3E) : 0;
    jet_codec *codec = NULL;
    jet_error err;
    jet_open_options opts;
    memset(&opts, 0, sizeof opts);
    opts.password = pw;
    if (jet_codec_office(&codec, copy, len, enc_key, &opts, &err) == JET_OK) {
        uint8_t page[PAGE];
        memset(page, 0xA5, sizeof page);
        memcpy(page, page0, len < PAGE ? len : PAGE);
        (void)jet_codec_decode(codec, 1, page, sizeof page);
        (void)jet_codec_decode(codec, 0x12345, page, sizeof page);
        jet_codec_free(codec);
    }
    jet_codec *rc4 = NULL;
    if (jet_codec_jet_rc4(&rc4, enc_key) == JET_OK) {
        uint8_t page[2048];
        memset(page, 0, sizeof page);
        memcpy(page, page0, len < sizeof page ? len : sizeof page);
        (void)jet_codec_decode(rc4, 3, page, sizeof page);
        jet_codec_free(rc4);
    }
    free(copy);
    return 0;
}
