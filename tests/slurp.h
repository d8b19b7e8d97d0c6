/*
 * slurp.h - a whole file into memory, for the tests that copy, encrypt or
 * damage a fixture (header only, like shared_dir.h).
 */
#ifndef JET_TESTS_SLURP_H
#define JET_TESTS_SLURP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The bytes of the file at path (malloc'd, the caller frees) and their
 *  count in *len; NULL when it cannot be opened or read whole. */
static inline uint8_t *jet_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc(n ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/** Whether the file at path holds exactly the len bytes b (a refused
 *  write left it unchanged); false when it cannot be read. */
static inline bool jet_test_same_file(const char *path, const uint8_t *b,
                                      size_t len)
{
    size_t n = 0;
    uint8_t *now = jet_test_slurp(path, &n);
    bool same = now && n == len && memcmp(now, b, len) == 0;
    free(now);
    return same;
}

#endif
