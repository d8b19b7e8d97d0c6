/*
 * sqltest.h - what the query-engine unit tests (tests/unit/test_sql_*.c)
 * share: a growing text buffer, one rendering of engine values, opening a
 * ../shared fixture, and a main() that skips (77) without the fixtures.
 */
#ifndef JET_TESTS_SQLTEST_H
#define JET_TESTS_SQLTEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"
#include "sql/engine.h"

/** A NUL-terminated text that grows (realloc): zero-initialise it; the
 *  caller frees p. */
typedef struct sqlt_buf {
    char *p;
    size_t len, cap;
} sqlt_buf;

/** Append n bytes of s (the test fails when out of memory). */
void sqlt_put(sqlt_buf *o, const char *s, size_t n);
/** Append the C string s (with "", makes p a valid empty string). */
void sqlt_puts(sqlt_buf *o, const char *s);
/**
 * Append one value: NULL, true/false, integers, MONEY with 4 decimals,
 * FLOAT and DOUBLE as %.17g, dates as "YYYY-MM-DD HH:MM:SS[.mmm]",
 * NUMERIC in full, text as UTF-8, anything else as <bin N>.
 */
void sqlt_render(sqlt_buf *o, jet_db *db, const jet_value *v);
/** Append the current row of cursor c: its first ncols values
 *  (sqlt_render) with '|' between; the test fails when one is not read. */
void sqlt_render_row(sqlt_buf *o, jet_db *db, sql_cursor *c, size_t ncols);
/** 64-bit FNV-1a hash of s[0..n) (the tests' expected row hashes). */
uint64_t sqlt_fnv(const char *s, size_t n);
/** Open <shared>/fixtures/<rel>; the test fails when it does not open. */
jet_db *sqlt_open_fixture(const char *rel);
/** sqlt_open_fixture with a page cache of cache_pages (0: the default). */
jet_db *sqlt_open_cached(const char *rel, size_t cache_pages);
/** The end of a test over a file of its own: free the two buffers'
 *  text, close db, remove path and its temporary folder dir. */
void sqlt_finish(jet_db *db, const char *path, const char *dir,
                 sqlt_buf *a, sqlt_buf *b);
/** Distinct data pages holding rows of table, by a plain core scan. */
uint64_t sqlt_data_pages(jet_db *db, const char *table);
/**
 * Open a cursor on st (params as sql_cursor_open takes them), fetch every
 * row and close it; returns the rows fetched. *io (when not NULL): the
 * reads db made meanwhile; *rows_read (when not NULL): the cursor's
 * sql_cursor_rows_read(). The test fails when the cursor does not open.
 */
long sqlt_drain(sql_stmt *st, jet_db *db, const jet_value *params,
                jet_read_stats *io, uint64_t *rows_read);
/**
 * main() of a test program: 77 (automake's skip) when a fixture of needs
 * (NULL-terminated, paths under <shared>/fixtures) is missing, else run
 * the suite suite_fn() makes: 0 when every test passed, 1 otherwise.
 */
int sqlt_run(Suite *(*suite_fn)(void), const char *const *needs);

#endif
