/*
 * internal.h - private structures of the core reader, shared by core/*.c.
 *
 * Not included by driver/. Holds struct jet_db, the per-version format
 * offsets (jet_format), the page cache handle and the jet_fail() helper that
 * records a jet_error where a problem is seen.
 */
#ifndef JET_INTERNAL_H
#define JET_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

#define JET_NO_PGNO UINT32_MAX

/**
 * Record rc with a printf-style message and page number (JET_NO_PGNO when
 * none) into *err (may be NULL). Returns rc so callers can write
 * `return jet_fail(...)`.
 */
jet_rc jet_fail(jet_error *err, jet_rc rc, uint32_t pgno, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

struct jet_pagefile;
struct jet_format;

/** An open database: file, header facts, cache, catalog, tdef cache. */
struct jet_db {
    uint16_t code_page;          /* Windows code page of Jet3 text */
    jet_version version;
    uint32_t page_size;
    const struct jet_format *fmt;
    struct jet_pagefile *pf;
    char *path;
    jet_error err;
    /* catalog */
    struct jet_object *objects;
    size_t nobjects;
    char **strings;              /* owned catalog strings */
    size_t nstrings, cap_strings;
    /* tdef cache, parallel to objects (NULL until loaded) */
    struct jet_tdef **tdefs;
};

#endif /* JET_INTERNAL_H */
