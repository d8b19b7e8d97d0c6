/*
 * fuzz.h - what every fuzz target in tests/fuzz/ provides and may use.
 *
 * Each target defines LLVMFuzzerTestOneInput (libFuzzer's entry point).
 * The same target source links either with libFuzzer (tests/fuzz/run-fuzz,
 * `make fuzz`) or with replay.c, a plain main() that feeds it saved inputs
 * (`make check` replays tests/fuzz/corpus/ and tests/fuzz/regressions/).
 */
#ifndef JET_TESTS_FUZZ_H
#define JET_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/** libFuzzer entry point: run one input; returns 0 (the input is kept). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/**
 * Make (data, size) readable as a regular file for jet_db_open(): an
 * anonymous memory file (memfd) rewritten in place on each call, else one
 * temporary file. Returns its path (valid until the next call), or NULL
 * when neither can be made.
 */
const char *fuzz_image_path(const uint8_t *data, size_t size);

#endif
