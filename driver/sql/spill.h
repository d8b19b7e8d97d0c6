/*
 * spill.h - memory held by sorts, groupings and hash joins, and the
 * temporary file they spill to past the budget (spill.c).
 *
 * sql_mem: an arena of big blocks; held counts the bytes of the blocks,
 * so a budget compares what is really allocated. sql_spill: one
 * temporary file per cursor, created in $TMPDIR (else /tmp) and unlinked
 * at once (Windows: tmpfile()), never beside the database. Data goes to
 * it in streams: a stream is a list of blocks (whole encoded rows, each
 * a multiple of 8 bytes) appended to the file; readers read a block at a
 * time into an aligned buffer, so decoded text points into it.
 * Used by exec.c (sorted runs, k-way merge), op_agg.c (hash partitions)
 * and, for a hash join's build side, op_scan.c/op_join.c.
 */
#ifndef JET_DRIVER_SQL_SPILL_H
#define JET_DRIVER_SQL_SPILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/** Grow *buf (elements of elem bytes, *cap of them) to hold need
 *  elements, doubling from 16. Returns 0, or -1 (buffer unchanged) when
 *  out of memory or the size would overflow. The driver's one growing
 *  array (the engine's, savedquery.c's, catalog.c's, resultset.c's);
 *  inline, so users such as savedquery.c need not link spill.c. */
static inline int sql_grow(void **buf, size_t *cap, size_t need,
                           size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 4 / elem)
            return -1;
        n *= 2;
    }
    void *p = realloc(*buf, n * elem);
    if (!p)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

/** A growing NUL-terminated string: s holds len bytes and a NUL (NULL
 *  until the first add), cap bytes allocated. Zeroed = empty. Out of
 *  memory is sticky: oom is set, later adds do nothing and s keeps what
 *  came before, so a caller builds the whole text and checks oom once.
 *  The owner frees it with sql_sb_free. The driver's one string builder
 *  (rules.c's rule statements, savedquery.c's rebuilt SQL). */
typedef struct sql_sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sql_sbuf;

/** Append the n bytes at s (which need no NUL) to b. */
static inline void sql_sb_addn(sql_sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (n > SIZE_MAX - 1 - b->len
        || sql_grow((void **)&b->s, &b->cap, b->len + n + 1, 1) != 0) {
        b->oom = true;
        return;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/** Append the NUL-terminated string s to b. */
static inline void sql_sb_add(sql_sbuf *b, const char *s)
{
    sql_sb_addn(b, s, strlen(s));
}

/** Free b's text and leave b empty (zeroed). */
static inline void sql_sb_free(sql_sbuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

struct sql_arena_chunk;

/** An arena of big blocks (block bytes, 0: 256 KiB; one block for a
 *  bigger request); held: bytes of all blocks (what the budget counts).
 *  Zeroed = empty. The blocks are a chunk list as the parser's arena's
 *  (sql_internal.h sql_chunk_take). */
typedef struct sql_mem {
    struct sql_arena_chunk *head;
    size_t held;
    size_t block;
} sql_mem;

/** n bytes from m, aligned for any type; NULL when out of memory. */
void *sql_mem_alloc(sql_mem *m, size_t n);
/** Forget every allocation; keeps one block for reuse. */
void sql_mem_reset(sql_mem *m);
/** Free every block (m is empty afterwards; safe when empty). */
void sql_mem_free(sql_mem *m);
/** Block size for arenas under a budget of budget bytes (1/32 of it,
 *  4 KiB..256 KiB), so the budget is counted in fine steps. */
size_t sql_mem_block_for(size_t budget);

/** A growing byte buffer for encoding one row. */
typedef struct sql_wbuf {
    uint8_t *p;
    size_t len, cap;
} sql_wbuf;

/** Make room for n more bytes (len unchanged). 0 or -1 out of memory. */
int sql_wbuf_reserve(sql_wbuf *b, size_t n);
/** Append n bytes (p may be NULL: zeros). 0 or -1 out of memory. */
int sql_wbuf_put(sql_wbuf *b, const void *p, size_t n);
/** Zero-pad b->len up to a multiple of 8. 0 or -1. */
int sql_wbuf_align(sql_wbuf *b);

typedef struct sql_spill sql_spill;

/** One stream's blocks: file offset and length of each, in order. */
typedef struct sql_spill_stream {
    uint64_t *off;
    uint32_t *len;
    size_t nblocks, cap;
    uint64_t rows;          /* rows written */
    uint64_t bytes;         /* bytes written */
    sql_wbuf wb;            /* rows not written yet */
} sql_spill_stream;

/**
 * Create the temporary file: $TMPDIR (else /tmp), unlinked at once so
 * nothing stays behind even after a crash. block_len: bytes per block
 * (rows are gathered up to it). Returns 0, or an errno value (the
 * directory is unwritable, ...).
 */
int sql_spill_open(sql_spill **out, size_t block_len);
/** Close and so remove the file; frees f (safe on NULL). */
void sql_spill_close(sql_spill *f);
/** Bytes per block (rows are gathered up to it; a reader holds one). */
size_t sql_spill_block_len(const sql_spill *f);
/** errno of the last failed write or read, 0 if none. */
int sql_spill_errno(const sql_spill *f);
/** Bytes written to the file so far. */
uint64_t sql_spill_size(const sql_spill *f);

/** Append n raw bytes at the file's end (the driver's static cursors
 *  keep their rows so); *off (may be NULL) receives their offset. 0, or
 *  -1 with sql_spill_errno. */
int sql_spill_append(sql_spill *f, const void *p, size_t n, uint64_t *off);
/** Read n bytes at offset off of what was written: random access for
 *  the static cursors. 0, or -1 (past the end, read error: errno). */
int sql_spill_read(sql_spill *f, void *p, size_t n, uint64_t off);

/** Append one encoded row (len a multiple of 8) to stream s, writing a
 *  block when full. 0, or -1 (write error: sql_spill_errno; or out of
 *  memory with errno 0). */
int sql_spill_stream_put(sql_spill *f, sql_spill_stream *s, const void *row,
                         size_t len);
/** Write s's buffered rows. 0 or -1 as sql_spill_stream_put. */
int sql_spill_stream_flush(sql_spill *f, sql_spill_stream *s);
/** Free s's block list and buffer (the file keeps the bytes). */
void sql_spill_stream_free(sql_spill_stream *s);

/** Reads a stream back, one block at a time. */
typedef struct sql_spill_reader {
    const sql_spill_stream *s;
    size_t block;           /* next block to read */
    uint8_t *buf;           /* the current block (8-aligned) */
    size_t cap, len, pos;
} sql_spill_reader;

/** Start reading s (flushed) from its first row. */
void sql_spill_reader_init(sql_spill_reader *r, const sql_spill_stream *s);
/** Next row's bytes into *row (valid until the next call), its length
 *  into *len (rows are told apart by the caller's encoding: the first 4
 *  bytes of each row hold its length). 0, JET_DONE (1) at the end, or
 *  -1 (read error: sql_spill_errno; corrupt length; out of memory). */
int sql_spill_reader_next(sql_spill *f, sql_spill_reader *r,
                          const uint8_t **row, size_t *len);
/** Free r's buffer. */
void sql_spill_reader_free(sql_spill_reader *r);

struct sv;

/** Append value v to b, 8-byte aligned: a header (kind, flags, scale,
 *  length) then the payload the kind needs. 0 or -1 out of memory. */
int sql_spill_put_sv(sql_wbuf *b, const struct sv *v);
/** Decode one value at *p (< end) into *v; text and bytes point into the
 *  row (which must be 8-aligned). Advances *p. 0, or -1 when the bytes
 *  are not a value (a damaged temporary file). */
int sql_spill_get_sv(const uint8_t **p, const uint8_t *end, struct sv *v);

#endif
