/*
 * internal.h - private structures of the core reader, shared by the core modules.
 *
 * Not included by driver/. Holds struct jet_db, the per-version format
 * offsets (jet_format), the page file, row views and the jet_fail() helper
 * that records a jet_error where a problem is seen.
 */
#ifndef JET_INTERNAL_H
#define JET_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "crypto.h"
#include "jet.h"

#define JET_NO_PGNO UINT32_MAX

/**
 * Record rc with a printf-style message and page number (JET_NO_PGNO when
 * none) into *err (may be NULL). Returns rc so callers can write
 * `return jet_fail(...)`.
 */
jet_rc jet_fail(jet_error *err, jet_rc rc, uint32_t pgno, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Reset err to "no error". */
void jet_error_clear(jet_error *err);

/* ------------------------------------------------------------- format */

/**
 * Per-version byte offsets (Jackcess JetFormat Jet3Format/Jet4Format,
 * mdbtools HACKING.md). Jet4 values also serve ACE 12..17.
 */
typedef struct jet_format {
    bool jet3;
    uint32_t page_size;
    /* data pages */
    uint16_t data_tdef_pgno;     /* 4: owning tdef page */
    uint16_t data_nrows;         /* 8 / 12: row count */
    uint16_t data_row_table;     /* 10 / 14: first row offset entry */
    /* tdef header (offsets into the assembled tdef buffer) */
    uint16_t tdef_next_pgno;     /* 4 */
    uint16_t tdef_len;           /* 8 */
    uint16_t tdef_nrows;         /* 12 / 16 */
    uint16_t tdef_table_type;    /* 20 / 40 */
    uint16_t tdef_max_cols;      /* 21 / 41 */
    uint16_t tdef_num_var_cols;  /* 23 / 43 */
    uint16_t tdef_num_cols;      /* 25 / 45 */
    uint16_t tdef_num_idx;       /* 27 / 47: logical indexes */
    uint16_t tdef_num_real_idx;  /* 31 / 51: physical indexes */
    uint16_t tdef_owned_pages;   /* 35 / 55 */
    uint16_t tdef_free_pages;    /* 39 / 59 */
    uint16_t tdef_idx_def_block; /* 43 / 63 */
    uint16_t real_idx_def_size;  /* 8 / 12 per physical index count entry */
    /* column descriptor */
    uint16_t col_size;           /* 18 / 25 */
    uint16_t col_type;           /* 0 */
    uint16_t col_num;            /* 1 / 5 */
    uint16_t col_var_index;      /* 3 / 7 */
    uint16_t col_precision;      /* 11 */
    uint16_t col_scale;          /* 12 */
    uint16_t col_flags;          /* 13 / 15 */
    int16_t col_ext_flags;       /* -1 / 16 */
    uint16_t col_fixed_offset;   /* 14 / 21 */
    uint16_t col_length;         /* 16 / 23 */
    uint16_t name_len_size;      /* 1 / 2 */
    /* index blocks */
    uint16_t real_idx_col_block; /* 39 / 52 */
    uint16_t real_idx_skip;      /* 0 / 4 before the column list */
    uint16_t real_idx_skip_flags;/* 0 / 4 between root pgno and flags */
    uint16_t logical_idx_block;  /* 20 / 28 */
    uint16_t logical_idx_skip;   /* 0 / 4 */
    /* rows */
    uint16_t row_count_size;     /* 1 / 2: column count / var offsets */
    /* header page */
    uint16_t hdr_mask_len;       /* 126 / 128 bytes masked at 0x18 */
} jet_format;

/** The format table for a version. */
const jet_format *jet_format_for(jet_version v);

/* ------------------------------------------------------------ pagefile */

typedef struct jet_pagefile jet_pagefile;

/**
 * Open path read-only with a cache of cache_pages pages of page_size bytes.
 * The page size is set later by jet_pagefile_set_page_size() once the header
 * is known. Errors: JET_EIO, JET_ENOMEM.
 */
jet_rc jet_pagefile_open(jet_pagefile **out, const char *path,
                         size_t cache_pages, jet_error *err);
void jet_pagefile_close(jet_pagefile *pf);
/** Size of the file in bytes. */
uint64_t jet_pagefile_size(const jet_pagefile *pf);
/** Read len raw bytes at byte offset off (no codec); short read = EIO. */
jet_rc jet_pagefile_read_raw(jet_pagefile *pf, void *buf, size_t len,
                             uint64_t off, jet_error *err);
/** Fix the page size (2048/4096); page count derives from the file size. */
jet_rc jet_pagefile_set_page_size(jet_pagefile *pf, uint32_t page_size,
                                  jet_error *err);
typedef struct jet_codec jet_codec;
/** Install a page codec (owned by pf from now on; NULL = none). */
void jet_pagefile_set_codec(jet_pagefile *pf, jet_codec *codec);
/** The page codec pf decodes and encodes pages 1.. with (NULL: the file
 *  is not encrypted); owned by pf. */
const jet_codec *jet_pagefile_codec(const jet_pagefile *pf);
uint32_t jet_pagefile_page_count(const jet_pagefile *pf);
/**
 * A count that moves whenever page bytes a reader may hold can change:
 * every jet_page_write and jet_page_alloc, every rollback (to a
 * savepoint or whole) and every drop of the clean cache. A cursor that
 * keeps a position on pages (scan.c, index.c) notes it and, when it has
 * moved, finds its place again instead of trusting what it pinned.
 */
uint64_t jet_pagefile_changes(const jet_pagefile *pf);
/** Where jet_pagefile_changes() keeps its count (valid while pf is open):
 *  a cursor that checks it per row reads it there, without a call. */
const uint64_t *jet_pagefile_changes_at(const jet_pagefile *pf);
uint64_t jet_pagefile_pages_read(const jet_pagefile *pf);
/** Pages, read requests and bytes read since open (jet_db_read_stats). */
void jet_pagefile_read_stats(const jet_pagefile *pf, jet_read_stats *out);
/**
 * Read-ahead for a caller about to pin pgnos[0], pgnos[1], ... (n entries,
 * ascending, e.g. a scan's remaining usage-map pages) in that order. When
 * pgnos[0] is not cached, read the head of the list with one request into
 * unpinned cache slots: consecutive pages, reading through gaps of up to 8
 * unlisted pages (into a junk page, not the cache), spanning at most
 * max_pages (0 = no own limit), 256 KB and a quarter of the cache, and
 * stopping before a cached page; each page is decoded by the codec. Then
 * hint WILLNEED for the list's next run. Returns the pages it cached (0
 * when it issued no request). Best effort, never fails: a page it could
 * not read is left to jet_page_pin(), which reports the error.
 */
size_t jet_pagefile_read_ahead(jet_pagefile *pf, const uint32_t *pgnos,
                               size_t n, size_t max_pages);
/**
 * Pin page pgno (decoded) and return its bytes in *out; the pointer stays
 * valid until the matching jet_page_unpin(). Inside a write transaction
 * the page is as the transaction changed it (dirty pages that fill the
 * cache are spilled to make room). Errors: JET_ECORRUPT for a pgno past
 * the end of file, JET_EIO, JET_ELIMIT when every cache slot is pinned.
 */
jet_rc jet_page_pin(jet_pagefile *pf, uint32_t pgno, const uint8_t **out,
                    jet_error *err);
/** Release a pin taken by jet_page_pin(); NULL is ignored. */
void jet_page_unpin(jet_pagefile *pf, const uint8_t *page);
/**
 * jet_page_unpin() for a page the caller will not need again soon (a long
 * scan's data page): once unpinned, its slot is the next one reused (before
 * the clock sweeps, and before an unused slot), so a scan of a table larger
 * than the cache cycles through a few buffers instead of touching every
 * slot; the page stays cached until then. NULL is ignored.
 */
void jet_page_unpin_once(jet_pagefile *pf, const uint8_t *page);
/** The cache's size in pages (the bound given at open, clamped). */
uint32_t jet_pagefile_cache_pages(const jet_pagefile *pf);

/* ---------------------------------------------------------------- pager */
/* Writing through the page file; pagefile.c's top comment has the state
 * machine, the journal format and the fsync order. */

/** The pager's states (pagefile.c). */
typedef enum jet_pager_state {
    JET_PAGER_OPEN = 0,         /* no lock; plain reads */
    JET_PAGER_READER = 1,       /* SHARED: a consistent read */
    JET_PAGER_WRITER_LOCKED = 2,/* RESERVED: writing may start */
    JET_PAGER_WRITER_DIRTY = 3, /* journal open, pages dirty in the cache */
    JET_PAGER_WRITER_DBMOD = 4, /* journal synced, EXCLUSIVE, file written */
    JET_PAGER_ERROR = 5         /* write failed and could not be undone */
} jet_pager_state;

jet_pager_state jet_pager_state_of(const jet_pagefile *pf);
/** The pager's lock handle (NULL when the file system has no locks). */
struct jet_os_lock *jet_pagefile_os_lock(jet_pagefile *pf);
/**
 * Refuse writes with reason (e.g. "Access 97 files are read-only"); NULL
 * allows them again. A read-only pager never opens the file for writing,
 * and refuses to read past a hot journal. Errors: JET_ENOMEM.
 */
jet_rc jet_pagefile_set_read_only(jet_pagefile *pf, const char *reason);
/** How long a busy lock is retried, in milliseconds (default 5000). */
void jet_pagefile_set_busy_timeout(jet_pagefile *pf, unsigned ms);
/**
 * Begin a read transaction (OPEN -> READER): SHARED lock, roll back a hot
 * journal (or refuse to read past one with JET_EIO when this pager may not
 * write), and drop cached pages when the file changed since the cache last
 * saw it. A no-op in READER and WRITER states. Errors: JET_EBUSY (a
 * writer is committing past the busy timeout), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_pagefile_read_begin(jet_pagefile *pf, jet_error *err);
/** End a read transaction. Read transactions nest (a count): the last
 *  read_end of READER goes back to OPEN and releases the lock; inside a
 *  write transaction it only counts. Unbalanced calls are ignored. */
void jet_pagefile_read_end(jet_pagefile *pf);
/** How many times read_begin dropped the cache because the file had
 *  changed (another connection or process committed, or our own commit
 *  within the stamp's racy window): what was derived from pages outside
 *  the cache (a tdef's live state) must then be read again. */
uint64_t jet_pagefile_drops(const jet_pagefile *pf);
/** Read transactions open (read_begin calls not yet ended; a write
 *  transaction counts one while it lasts). For tests. */
uint32_t jet_pagefile_readers(const jet_pagefile *pf);
/**
 * Begin a write transaction (OPEN/READER -> WRITER_LOCKED): open the file
 * read-write (first time only), SHARED then RESERVED lock. Errors:
 * JET_EUNSUPPORTED (read-only pager or file, with the reason; a write
 * transaction already open), JET_EBUSY (another writer past the busy
 * timeout), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_pager_begin(jet_pagefile *pf, jet_error *err);
/**
 * Page pgno for writing, pinned, in *out: the cached, decoded page, whose
 * original on-disk image is journaled before the first change (page 0 is
 * raw: its header mask is the caller's). The page stays dirty in the cache
 * until commit or rollback; unpin it with jet_page_unpin() when done.
 * Errors as jet_page_pin(), plus JET_EUNSUPPORTED (no write transaction),
 * JET_EIO (journal; the savepoint's temporary file; a transaction a
 * failed jet_pager_rollback_to left to be rolled back whole), JET_EBUSY
 * (a spill needed EXCLUSIVE).
 */
jet_rc jet_page_write(jet_pagefile *pf, uint32_t pgno, uint8_t **out,
                      jet_error *err);
/**
 * A new zeroed page at the end of the file, pinned and dirty: its number
 * in *pgno, its bytes in *out (unpin when done). Nothing is journaled: a
 * rollback truncates the file. Errors: JET_ELIMIT (past 2 GB, or every
 * cache slot pinned), JET_ENOMEM, and those of jet_page_write().
 */
jet_rc jet_page_alloc(jet_pagefile *pf, uint32_t *pgno, uint8_t **out,
                      jet_error *err);
/**
 * Commit: the fsync order at the top of pagefile.c; back to the state
 * before jet_pager_begin. On failure the transaction is rolled back
 * (or, if even that fails, the pager is in ERROR and the journal stays
 * hot for the next open) and the error says what failed.
 */
jet_rc jet_pager_commit(jet_pagefile *pf, jet_error *err);
/** Roll back: dirty pages dropped, the file restored from the journal if
 *  it was written, the journal removed. Errors: JET_EIO (then ERROR). */
jet_rc jet_pager_rollback(jet_pagefile *pf, jet_error *err);
/**
 * A statement savepoint inside the write transaction (pagefile.c's
 * SAVEPOINTS section): *sp = its level (0 = the oldest open one). No I/O.
 * Errors: JET_EUNSUPPORTED (no write transaction), JET_ELIMIT (64 nested),
 * JET_ENOMEM. Savepoints end with the transaction.
 */
jet_rc jet_pager_savepoint(jet_pagefile *pf, uint32_t *sp, jet_error *err);
/**
 * Restore every page changed since savepoint sp to its image at sp, and
 * drop pages appended since (the page count goes back); savepoints after
 * sp are forgotten, sp stays open. Errors: JET_ENOTFOUND (no such open
 * savepoint), JET_EUNSUPPORTED (no transaction), those of jet_page_write,
 * JET_EIO (the temporary file). After a failure the transaction is
 * broken: writes and commit refuse (commit rolls it back), only
 * jet_pager_rollback is left.
 * Memory: a page's image is kept at its first change after a savepoint,
 * in memory up to a budget (8 MB), then in a temporary file; any number
 * of pages may change.
 */
jet_rc jet_pager_rollback_to(jet_pagefile *pf, uint32_t sp, jet_error *err);
/** Forget savepoint sp and those after it (their changes stay). */
void jet_pager_release(jet_pagefile *pf, uint32_t sp);
/** Tests: keep at most bytes of savepoint images in memory (the rest go
 *  to the temporary file); 0 puts every image there. */
void jet_pager_set_savepoint_memory(jet_pagefile *pf, size_t bytes);
/** Tests: savepoint images in memory and in the temporary file now. */
void jet_pager_savepoint_images(const jet_pagefile *pf, uint32_t *in_memory,
                                uint32_t *in_file);

/* ---------------------------------------------------------------- crypt */

/** XOR the RC4 keystream of key (key_len bytes) over buf in place. */
jet_rc jet_rc4_apply(const uint8_t *key, size_t key_len, uint8_t *buf,
                     size_t len);
/**
 * Undo the header-page mask: XOR mask_len bytes at 0x18 of page 0 (a copy
 * owned by the caller) with the fixed mask (the RC4 keystream of key
 * 0x6b39dac7; see crypt.c). JET_ECORRUPT when the page is too short.
 */
jet_rc jet_header_unmask(uint8_t *page0, size_t len, size_t mask_len);
/* Header fields of Jet4/ACE page 0 (offsets after the header mask). */
#define JET_HDR_ENC_KEY 0x3E        /* u32 encoding key, 0 = not encoded */
#define JET_HDR_PASSWORD 0x42       /* the database password field */
#define JET_HDR_PASSWORD_LEN 40     /* 20 UTF-16 units */
#define JET_HDR_CREATED 0x72        /* creation date (double, days) */
#define JET_HDR_PROVIDER 0x299      /* ACE: u16 length + EncryptionInfo */

/** UTF-8 password -> UTF-16LE bytes in out (cap bytes; at most 255
 *  characters, as Access and MS-OFFCRYPTO take). Returns bytes written. */
size_t jet_password_utf16(const char *pw, uint8_t *out, size_t cap);
/**
 * XOR the 40-byte password field of an unmasked Jet4/ACE header page
 * (0x42) with the mask made from its creation date (0x72): the creation
 * date cut to a 32-bit integer, little-endian, repeated. Applying it twice
 * restores the field. Format: Jackcess DatabaseImpl getDatabasePassword /
 * getPasswordMask.
 */
void jet_header_password_xor(uint8_t *page0);
/**
 * Store password (UTF-8; NULL or "" = none) in the password field of an
 * unmasked Jet4 header page whose creation date is already set: UTF-16LE,
 * zero-padded, masked. JET_ELIMIT (field unchanged) when it is longer
 * than 20 UTF-16 units (Access's limit for .mdb passwords).
 */
jet_rc jet_header_password_put(uint8_t *page0, const char *password);
/**
 * Check password (UTF-8; NULL = none) against the password field of an
 * unmasked Jet4 header page: JET_OK when no password is set (the field
 * unmasks to zeros, or to something no password leaves: a zero UTF-16
 * unit before a non-zero one) or it matches exactly (case-sensitive, as
 * Access); JET_EPASSWORD otherwise.
 */
jet_rc jet_header_password_check(const uint8_t *page0, const char *password);

/** Decode one Jet RC4 page in place: key = encoding key XOR pgno (LE). */
jet_rc jet_rc4_page_decode(uint32_t enc_key, uint32_t pgno, uint8_t *page,
                           size_t page_size);

/** Jet RC4 page codec (key = encoding key XOR pgno). Errors: ENOMEM. */
jet_rc jet_codec_jet_rc4(jet_codec **out, uint32_t enc_key);
/**
 * ACE password codec from page 0's encryption provider (0x299): agile AES,
 * Standard AES or RC4 CryptoAPI, with opts' password; the key derivation
 * calls opts->interrupt (JET_EINTERRUPTED). Errors: JET_EPASSWORD
 * (missing/wrong password),
 * JET_EUNSUPPORTED (other providers), JET_ECORRUPT. Format: MS-OFFCRYPTO.
 */
jet_rc jet_codec_office(jet_codec **out, const uint8_t *page0, size_t len,
                        uint32_t enc_key, const jet_open_options *opts,
                        jet_error *err);
/** Encode page pgno in place for writing: the exact inverse of
 *  jet_codec_decode (page 0 is left alone). */
jet_rc jet_codec_encode(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len);
/** Decode page pgno in place (page 0 is left alone). */
jet_rc jet_codec_decode(const jet_codec *c, uint32_t pgno, uint8_t *page,
                        size_t len);
void jet_codec_free(jet_codec *c);
/** Largest provider record jet_codec_agile_new writes (length included). */
#define JET_AGILE_RECORD_MAX 1400
/**
 * Office agile encryption for a new ACE file, as Access 2013 and later
 * write it: AES-256-CBC pages, SHA-512, spinCount 100,000, random 16-byte
 * salts, a random 32-byte intermediate key and verifier (jet_os_random).
 * Writes the encryption provider record page 0 carries at 0x299 (u16
 * length, EncryptionInfo version 4.4, reserved 0x40, the XML descriptor)
 * into rec (cap >= JET_AGILE_RECORD_MAX bytes; *rec_len its size) and makes
 * *out, the codec of pages with enc_key (the header's encoding key,
 * non-zero). password: UTF-8, 1..255 characters. Errors: JET_ELIMIT (a
 * password out of range, rec too small), JET_EUNSUPPORTED (no crypto
 * library; err says), JET_ENOMEM. Format: MS-OFFCRYPTO 2.3.4.10-2.3.4.13;
 * the EncryptionInfo of jackcess-encrypt's db2013-enc.accdb.
 */
jet_rc jet_codec_agile_new(jet_codec **out, uint8_t *rec, size_t cap,
                           size_t *rec_len, uint32_t enc_key,
                           const char *password, jet_error *err);
/**
 * The Office password "spin" (MS-OFFCRYPTO 2.3.4.7 and 2.3.4.11): for
 * i = 0 .. spin-1, h = H(LE32(i) || h), in place on h (hash_len(alg)
 * bytes), on the crypto seam's hasher (officecrypt.c). check (may be NULL)
 * is called every 4096 iterations; when it returns non-zero the spin
 * stops with JET_EINTERRUPTED and h is unchanged. Other errors: those of
 * jet_crypto_hasher_new/digest.
 */
jet_rc jet_password_spin(jet_hash_alg alg, uint8_t *h, uint32_t spin,
                         jet_interrupt_fn check, void *check_ctx);

/* ------------------------------------------------------------- usage map */

/** Ascending page numbers owned by a table (from its usage map). */
typedef struct jet_pglist {
    uint32_t *pgnos;
    size_t count;
} jet_pglist;

/**
 * Decode the usage map referenced by a 4-byte pointer (row byte + 3-byte
 * page) into ascending page numbers below the file's page count.
 * Format: mdbtools HACKING.md "Page Usage Maps"; Jackcess UsageMap.
 */
jet_rc jet_usagemap_read(jet_pglist *out, jet_db *db, uint32_t map_ptr,
                         jet_error *err);
/**
 * Decode a usage map row already located in memory. pf resolves type-1
 * map pages (may be NULL only for inline maps).
 */
jet_rc jet_usagemap_decode(jet_pglist *out, const uint8_t *row, size_t len,
                           jet_pagefile *pf, uint32_t page_size,
                           uint32_t page_count, uint32_t pgno,
                           jet_error *err);
void jet_pglist_free(jet_pglist *l);

/* ------------------------------------------------------------------ rows */

/**
 * Bounds of row rowno on a data page: start/end byte offsets with flags
 * stripped. Row 0 ends at the page end, row n at row n-1's start.
 * *flags receives the raw 0xC000 bits (0x8000 deleted, 0x4000 overflow).
 * Errors: JET_ECORRUPT (rowno past the table, offsets outside the page).
 */
jet_rc jet_row_bounds(const jet_format *fmt, const uint8_t *page,
                      uint32_t pgno, uint16_t rowno, uint16_t *start,
                      uint16_t *end, uint16_t *flags, jet_error *err);

/** Row count of a data page (bounded by the page size). */
uint16_t jet_page_row_count(const jet_format *fmt, const uint8_t *page);

#define JET_MAX_VAR_OFFSETS 4097

/* jet_row (a parsed row) is in jet.h: jet_row_cell reads it in line. */

/**
 * Parse row bytes: column count, null mask at the end, var offsets
 * (Jet3 1-byte with jump table; Jet4 2-byte). var_buf holds var_cap
 * entries (JET_MAX_VAR_OFFSETS suffices). Errors: JET_ECORRUPT naming pgno.
 * Format: mdbtools HACKING.md "Data Pages"; Jackcess TableImpl.
 */
jet_rc jet_row_parse(jet_row *out, const jet_format *fmt, const uint8_t *row,
                     size_t len, bool has_var, uint16_t *var_buf,
                     size_t var_cap, uint32_t pgno, jet_error *err);

/**
 * Locate column col in a parsed row: *is_null, and for non-null values the
 * byte span. BOOL: never null, *data NULL and *len the null-mask bit (0/1).
 * Errors: JET_ECORRUPT when the span leaves the row.
 */
jet_rc jet_row_column(const jet_row *row, const jet_format *fmt,
                      const jet_column *col, bool *is_null,
                      const uint8_t **data, size_t *len, uint32_t pgno,
                      jet_error *err);

/* jet_row_column's body, inline for the per-value decode (value.c).
 * Row layout: see row.c. */
/* Bytes a fixed column occupies: its type's size, or the declared length
 * for fixed TEXT/BINARY and calculated wrappers. */
static inline size_t jet_fixed_size(const jet_column *col)
{
    if (col->flags & JET_COL_CALCULATED)
        return col->length;
    switch (col->type) {
    case JET_T_BYTE: return 1;
    case JET_T_INT: return 2;
    case JET_T_LONG: case JET_T_FLOAT: case JET_T_COMPLEX: return 4;
    case JET_T_MONEY: case JET_T_DOUBLE: case JET_T_DATETIME:
    case JET_T_BIGINT: return 8;
    case JET_T_GUID: return 16;
    case JET_T_NUMERIC: return 17;
    default: return col->length;
    }
}

static inline jet_rc jet_row_column_inl(const jet_row *row,
                                        const jet_format *fmt,
                                        const jet_column *col, bool *is_null,
                                        const uint8_t **data, size_t *len,
                                        uint32_t pgno, jet_error *err)
{
    bool bit = false;

    *data = NULL;
    *len = 0;
    if (col->col_num < row->ncols)
        bit = (row->null_mask[col->col_num / 8] >> (col->col_num % 8)) & 1;
    if (col->type == JET_T_BOOL && !(col->flags & JET_COL_CALCULATED)) {
        *is_null = false;
        *len = bit;
        return JET_OK;
    }
    *is_null = !bit;
    if (!bit)
        return JET_OK;
    if (col->flags & JET_COL_FIXED) {
        size_t off = fmt->row_count_size + (size_t)col->fixed_offset;
        size_t n = jet_fixed_size(col);
        if (!jet_span_ok(row->len - row->null_mask_len, off, n))
            return jet_fail(err, JET_ECORRUPT, pgno,
                            "fixed column %u (%zu bytes at %zu) outside a "
                            "%zu-byte row", col->col_num, n, off, row->len);
        *data = row->data + off;
        *len = n;
        return JET_OK;
    }
    if (col->var_index >= row->nvar) {
        *is_null = true;   /* column added after this row was written */
        return JET_OK;
    }
    {
        uint16_t s = row->var_off[col->var_index];
        uint16_t e = row->var_off[col->var_index + 1];
        if (s < fmt->row_count_size || s > e || e > row->len)
            return jet_fail(err, JET_ECORRUPT, pgno,
                            "var column %u has bad offsets %u..%u in a "
                            "%zu-byte row", col->col_num, s, e, row->len);
        *data = row->data + s;
        *len = (size_t)(e - s);
    }
    return JET_OK;
}

/* ----------------------------------------------------------------- lval */

/** Growable byte buffer (grow only; reused across values). */
typedef struct jet_buf {
    uint8_t *data;
    size_t len, cap;
} jet_buf;

jet_rc jet_buf_reserve(jet_buf *b, size_t cap);
void jet_buf_free(jet_buf *b);

/**
 * Assemble a MEMO/OLE value from its 12-byte header (hdr, hdr_len bytes of
 * the row span) into scratch: inline (0x80), single LVAL row (0x40) or a
 * chain of LVAL rows (0x00). Total length bounded by the file size; the
 * chain by the page count. Errors: JET_ECORRUPT, JET_ENOMEM, JET_EIO.
 * Format: mdbtools HACKING.md "LVAL Pages"; Jackcess LongValueColumnImpl.
 */
jet_rc jet_lval_read(jet_buf *scratch, jet_db *db, const uint8_t *hdr,
                     size_t hdr_len, uint32_t pgno, jet_error *err);

/* --------------------------------------------------------------- the db */

struct jet_tdef_priv;

/** An open database: file, header facts, cache, catalog, tdef cache. */
struct jet_table_props;         /* write.h (tableprops.c) */

struct jet_db {
    uint16_t code_page;          /* Windows code page of Jet3 text */
    jet_version version;
    uint32_t page_size;
    uint16_t sort_order;
    const jet_format *fmt;
    jet_pagefile *pf;
    char *path;
    jet_error err;
    /* catalog */
    jet_object *objects;
    size_t nobjects;
    /* tdef cache, parallel to objects (NULL until loaded) */
    struct jet_tdef_priv **tdefs;
    /* MSysObjects' TDEF as first read for jet_catalog_calc_types: its
     * columns only (the rows are fetched by position, never scanned with
     * it: its page list may be stale); freed with the db */
    struct jet_tdef_priv *msys_cols;
    /* saved queries (query.c), parallel to objects; loaded on first use */
    struct jet_query_set *queries;
    /* linked tables (link.c): how this db was opened, and the databases
     * its links opened (each file once), closed with it */
    char *password;
    size_t cache_pages;
    struct jet_link_db *links;
    unsigned link_depth;         /* links followed through this db now */
    /* our entry in Access's lock file while writing (lockfile.c) */
    struct jet_lockfile *lockfile;
    /* jet_pagefile_drops when the tdefs' live state was last read
     * (jet_db_live_refresh) */
    uint64_t live_drops;
    /* space reuse hints of the write path (pagealloc.c): pages this
     * connection gave back to the global usage map, data pages it
     * deleted rows on, LVAL pages it freed long values on. Hints only:
     * each is checked against the file again when used. */
    jet_pglist freed_pages;
    jet_pglist room_pages;
    jet_pglist lval_room_pages;
    /* the row check a layer above computes calculated columns and
     * enforces validation rules with (jet_db_set_row_check,
     * tableprops.c): NULL none; its context is freed with row_check_free
     * at close */
    jet_rc (*row_check)(void *ctx, jet_db *db, const struct jet_tdef *t,
                        const struct jet_table_props *props,
                        jet_value *vals, jet_error *err);
    void *row_check_ctx;
    void (*row_check_free)(void *ctx);
    /* referential integrity (relations.c): the rows whose update or
     * delete runs cascades now, innermost first; NULL: none */
    struct jet_rel_frame *rel_frames;
    /* schema changes (ddl.c): the schema version, what a rollback must
     * reload, and catalog arrays and tdefs kept readable until close;
     * NULL until the first schema change */
    struct jet_ddl_state *ddl;
    /* jet_db_compact's copy of rows into a new file (compact.c): inserts
     * store the values given as they are (complex ids, calculated
     * values, NULLs a rule would refuse) and check no rule, relationship
     * or Required; nothing is computed or added */
    bool copying;
    /* ... and, while copying, the key of t->indexes[index_no] for the
     * row being inserted when the core cannot compute it: the source
     * entry's bytes (jet_table_key_of_row on the source) */
    jet_rc (*copy_key)(void *ctx, const struct jet_tdef *t,
                       uint16_t index_no, uint8_t *key, size_t cap,
                       size_t *len);
    void *copy_key_ctx;
};

/** Free what ddl.c keeps in db (at close; safe when nothing). */
void jet_ddl_free(jet_db *db);
/** After a rollback (whole or to a savepoint): when the transaction
 *  changed the schema, the catalog is read again (the pages are as the
 *  rollback left them) and the schema version moves. */
void jet_ddl_after_rollback(jet_db *db);
/** After a commit or a whole rollback: the transaction's schema changes
 *  are settled. */
void jet_ddl_end(jet_db *db);

/**
 * After jet_db_read_begin or jet_db_write_begin: when the pager dropped
 * its cache since the last call (the file changed under us), re-read each
 * loaded tdef's live state from its TDEF page: the owned pages (scans
 * would miss rows on pages another process added), the insert page, and
 * the AutoNumber mark (never below what this connection handed out).
 * Errors: those of jet_tdef_reload_owned.
 */
jet_rc jet_db_live_refresh(jet_db *db);

/* Access's lock file (lockfile.c; its top comment has the format and
 * how a live holder is told from a stale file). */
typedef struct jet_lockfile jet_lockfile;
/**
 * With a write transaction just begun (jet_pager_begin): join the
 * database's .ldb/.laccdb (first time: a user slot and our record), or
 * refuse when another program (Access, Jet) has the database open:
 * JET_EREADONLY naming its user and machine, the write transaction rolled
 * back and both files unchanged. Also JET_ENOMEM (rolled back too).
 */
jet_rc jet_lockfile_enter(jet_db *db);
/** Leave the lock file (clear our record; remove the file when no user
 *  is left). At close. Safe when never entered. */
void jet_lockfile_leave(jet_db *db);

/**
 * Load the tdef of link obj (JET_OBJ_LINKED_TABLE) from the database it
 * names: the stored path if it exists, else the same file name in the
 * directory of db's file; opened read-only with db's password, once per
 * file, owned by db. The tdef belongs to (and its scans read) that db.
 * Errors: JET_ENOTFOUND naming the stored path or the foreign table,
 * JET_EUNSUPPORTED for ODBC links, JET_ELIMIT for links chained deeper
 * than 8; others of jet_db_open. Detail in db->err.
 */
jet_rc jet_link_tdef_load(const jet_tdef **out, jet_db *db,
                          const jet_object *obj);
/** Close the databases links opened (safe when none). */
void jet_link_close_all(jet_db *db);

/** Free what query.c loaded into db (safe when nothing was). */
void jet_query_free_all(jet_db *db);

/**
 * A loaded tdef plus what scans need: owned pages, var-column count.
 * The public part comes first so a jet_tdef* converts back.
 */
/**
 * End a loop over scan s (NULL allowed) that stopped with rc: JET_DONE
 * (every row seen) becomes JET_OK; an error of the scan itself is copied
 * to db->err (an error the loop raised is already there); s is closed.
 * Returns rc.
 */
jet_rc jet_scan_finish(jet_db *db, jet_scan *s, jet_rc rc);

/**
 * One row of a table read whole into memory of its own
 * (jet_owned_row_read), e.g. to change a few columns and hand the row to
 * jet_table_update: vals stays valid after the scan is gone.
 */
typedef struct jet_owned_row {
    jet_value *vals;        /* the table's ncols values, in t->cols order */
    uint8_t **copies;       /* per column: the bytes vals[k].data points
                               to (NULL for scalars and NULLs) */
    uint16_t ncols;
} jet_owned_row;

/**
 * Read row rowno of data page pgno of t into *out: every column's value,
 * text/binary/long values copied (a zero-length one too, so no span
 * points into a closed scan). The caller may change out->vals freely and
 * frees with jet_owned_row_free. Errors: the scan's (JET_ENOTFOUND for a
 * deleted row, JET_ECORRUPT, JET_EIO), JET_ENOMEM; detail in db->err.
 * On failure *out holds nothing (freeing it is still safe).
 */
jet_rc jet_owned_row_read(jet_owned_row *out, jet_db *db, const jet_tdef *t,
                          uint32_t pgno, uint16_t rowno);
/** Free what jet_owned_row_read allocated; *row is left empty (safe on
 *  an empty or failed one). */
void jet_owned_row_free(jet_owned_row *row);

/** How jet_scan_value reads a column without jet_value_decode, decided
 *  once when the TDEF is read (the checks jet_value_decode repeats per
 *  value: calculated, fixed/variable, type width). */
typedef enum jet_col_path {
    JET_CP_GENERAL = 0,    /* jet_value_decode decides */
    JET_CP_FIXED,          /* a stored fixed scalar of `width` bytes */
    JET_CP_VAR_TEXT        /* TEXT in the variable area */
} jet_col_path;

/** One column's fast path (see jet_col_path); parallel to cols[]. */
typedef struct jet_col_fast {
    uint8_t path;          /* jet_col_path */
    uint8_t width;         /* JET_CP_FIXED: 1, 2, 4 or 8 bytes */
    uint16_t off;          /* JET_CP_FIXED: byte offset in the row (past the
                              column count) */
} jet_col_fast;

typedef struct jet_tdef_priv {
    jet_tdef pub;
    jet_column *cols;
    jet_col_fast *fast;        /* ncols entries, parallel to cols */
    jet_index *indexes;
    jet_pglist owned;          /* data pages from the owned-pages usage map */
    uint16_t max_cols;
    uint16_t num_var_cols;
    char *strings;             /* all names, one block */
    jet_db *owner;             /* the db whose pages hold the table (a
                                  linked table's tdef is another db's) */
    /* long-value columns' own usage maps (Jet4/ACE TDEF tail after the
     * index names: 2-byte column number, then the owned and free-space
     * map pointers, 0xFFFF ends; Jackcess TableImpl.readColumnUsageMaps) */
    struct jet_lval_umap *lval_umaps;
    uint16_t nlval_umaps;
    /* the TDEF as stored, for jet_tdef_spec_of (schema changes): the
     * physical and logical index blocks (logical parallel to indexes),
     * the table type byte, the owned/free-space map pointers, the
     * column descriptors' order (positions in cols) */
    struct jet_tdef_real_idx *reals;
    uint32_t nreals;
    struct jet_tdef_logical_idx *logical;
    uint8_t table_type;
    uint32_t owned_ptr, free_ptr;
    /* jet_table_check_writable's answer, once computed (tablerules.c) */
    struct jet_table_rules *rules;
    /* the rule properties (tableprops.c), once read; NULL before */
    struct jet_table_props *props;
    /* its enforced relationships, once read (relations.c) */
    struct jet_rel_set *rels;
    /* its complex columns, once read (complex.c) */
    struct jet_complex_set *complex;
    /* live state (tablewrite.c): what writes change besides pages. The
     * row count and next AutoNumber live on the TDEF page (read through
     * the pager: jet_table_row_count); `owned` above follows the owned
     * pages map as this connection's writes change it. */
    int64_t auto_last;         /* highest LONG AutoNumber handed out by
                                  this connection (never rolled back) */
    bool auto_known;           /* auto_last has been read from the TDEF */
    int32_t auto_inc;          /* the AutoNumber's increment (TDEF offset
                                  24, read with auto_last; >= 1) */
    int64_t complex_last;      /* highest complex id handed out (ACE TDEF
                                  offset 28), as auto_last */
    bool complex_known;        /* complex_last has been read */
    bool owned_changed;        /* owned map changed in this transaction */
    uint32_t ins_pgno;         /* data page of the last insert, 0 = none */
} jet_tdef_priv;

/** One long-value column's usage maps: pointers (row byte + 3-byte page)
 *  to its owned-pages and free-space map rows. */
typedef struct jet_lval_umap {
    uint16_t col_num;
    uint32_t owned_ptr;
    uint32_t free_ptr;
} jet_lval_umap;

/** One physical index of a TDEF as stored (Jackcess IndexData's
 *  definition block): what the reader keeps for the encoder
 *  (jet_tdef_encode) to write it back. */
typedef struct jet_tdef_real_idx {
    uint16_t col_num[10];   /* table column numbers; 0xFFFF = unused */
    uint8_t col_flags[10];  /* 0x01 ascending */
    uint32_t umap_ptr;      /* its usage map row: row byte + 3-byte page */
    uint32_t first_pgno;    /* root page */
    uint8_t flags;          /* 0x01 unique, 0x02 ignore nulls, 0x08
                               required (disallow NULL) */
    uint32_t row_count;     /* the index row-count block's count */
} jet_tdef_real_idx;

/** One logical index of a TDEF as stored (Jackcess IndexImpl's
 *  definition block). */
typedef struct jet_tdef_logical_idx {
    const char *name;       /* UTF-8 */
    uint32_t index_num;
    uint32_t real;          /* its physical index */
    uint8_t rel_table_type; /* foreign keys: the other table's type */
    uint32_t rel_index_num; /* the other table's index, 0xFFFFFFFF none */
    uint32_t rel_tdef_pgno; /* the other table's TDEF page, 0 none */
    uint8_t cascade_updates;    /* 0x01 */
    uint8_t cascade_deletes;    /* 0x01 cascade, 0x02 cascade to NULL */
    uint8_t type;           /* 0 index, 1 primary key, 2 foreign key */
} jet_tdef_logical_idx;

/** Free what tablerules.c cached in t (safe when nothing). */
void jet_table_rules_free(jet_tdef_priv *t);
/** The core's own catalog upkeep (ddl.c) writes system table t: t counts
 *  as writable until jet_table_rules_free(t), which the caller calls as
 *  soon as its rows are written (users never write system tables).
 *  Errors: JET_ENOMEM. */
jet_rc jet_table_rules_grant(jet_tdef_priv *t);
/** Free the rule properties tableprops.c read into t (safe when none). */
void jet_table_props_free(jet_tdef_priv *t);
/** Free what relations.c cached in t (safe when nothing). */
void jet_rel_free(jet_tdef_priv *t);
/** Free what complex.c cached in t (safe when nothing). */
void jet_complex_free(jet_tdef_priv *t);

/**
 * Re-read t's owned pages map (from the TDEF page, through the pager: the
 * transaction's pages or the file) into t->owned, after a write or a
 * rollback changed it. Errors: JET_ECORRUPT, JET_EIO, JET_ENOMEM (t->owned
 * is left as it was).
 */
jet_rc jet_tdef_reload_owned(jet_db *db, jet_tdef_priv *t, jet_error *err);

/**
 * Parse a table definition starting at pgno (continuation pages chained by
 * next-page pointer, bounded by the page count). name is copied.
 * Format: mdbtools HACKING.md "TDEF"; Jackcess TableImpl.
 */
jet_rc jet_tdef_read(jet_tdef_priv **out, jet_db *db, uint32_t pgno,
                     const char *name, jet_error *err);
/**
 * Parse an assembled TDEF buffer (len bytes, as jet_tdef_read assembles
 * it from pgno's pages) into *out; the owned pages are not read (owned
 * stays empty; jet_tdef_read reads them). name is copied. Errors:
 * JET_ECORRUPT, JET_ENOMEM.
 */
jet_rc jet_tdef_decode(jet_tdef_priv **out, jet_db *db, const uint8_t *buf,
                       size_t len, uint32_t pgno, const char *name,
                       jet_error *err);
void jet_tdef_free(jet_tdef_priv *t);

/** Load the catalog (MSysObjects, tdef page 2) into db. */
jet_rc jet_catalog_load(jet_db *db);
void jet_catalog_free(jet_db *db);
/**
 * Set result_type of t's calculated columns from the "ResultType"
 * properties, and JET_COL_REQUIRED from the "Required" properties, in the
 * LvProp of the MSysObjects row with this Id.
 * Format: Jackcess PropertyMaps.
 */
jet_rc jet_catalog_calc_types(jet_db *db, jet_tdef_priv *t, int32_t id);
/**
 * A property map's name (2-byte length + text in the db's encoding, Jet3
 * code page / Jet4 UCS-2) at p + *pos, below p + end, as UTF-8 into buf
 * (cap bytes, NUL-terminated, cut to fit); *pos moves past it. False when
 * it runs past end or cannot be decoded. Format: Jackcess PropertyMaps.
 */
bool jet_prop_name(const jet_db *db, const uint8_t *p, size_t end,
                   size_t *pos, char *buf, size_t cap);

/** Decode a tdef-encoded name (Jet3 code page / Jet4 UCS-2) to UTF-8. */
jet_rc jet_name_to_utf8(const jet_db *db, const uint8_t *p, size_t len,
                        char **out);

/**
 * Decode one column value of a parsed row into *out (scalars inline,
 * spans borrowed from the row or from scratch for long values).
 */
jet_rc jet_value_decode(jet_value *out, jet_db *db, const jet_row *row,
                        const jet_column *col, jet_buf *scratch,
                        uint32_t pgno, jet_error *err);

#endif /* JET_INTERNAL_H */
