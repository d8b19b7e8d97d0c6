/*
 * pagefile_priv.h - the pager's state, shared by the two files that make
 * the pager: pagefile.c (page cache, journal, transactions) and
 * savepoint.c (statement savepoints inside a write transaction). Nothing
 * else includes it: every other file goes through jet_pagefile's
 * functions in internal.h.
 */
#ifndef JET_PAGEFILE_PRIV_H
#define JET_PAGEFILE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "os.h"

#define NO_SLOT UINT32_MAX
/* each page buffer starts with a small header naming its slot, so unpin
 * finds the slot from the data pointer in O(1) */
#define SLOT_HDR 16
/* largest read-ahead request in bytes (and a quarter of the cache at most) */
#define READAHEAD_BYTES (256u * 1024u)
#define READAHEAD_MAX_PAGES (READAHEAD_BYTES / 2048u)
/* bytes of savepoint page images kept in memory; the rest go to a
 * temporary file (savepoint.c) */
#define SP_MEM_BYTES (8u * 1024u * 1024u)

typedef struct slot {
    uint8_t *buf;       /* SLOT_HDR bytes of slot index, then the page;
                         * inside one of jet_pagefile.pools */
    uint32_t pgno;      /* UINT32_MAX when empty */
    uint32_t pins;
    uint32_t hnext;     /* next slot in the hash chain, NO_SLOT at the end */
    bool ref;           /* clock reference bit */
    bool listed;        /* on jet_pagefile.reuse */
    uint8_t dirty;      /* 1 while changed and not yet written: holds a
                         * pin of its own (invariant 5) */
} slot;

struct jet_pagefile {
    int fd;
    uint64_t size;
    uint32_t page_size;
    uint32_t page_count;
    uint64_t changes;       /* jet_pagefile_changes(): bumped by every
                               page change, rollback and cache drop */
    jet_codec *codec;
    slot *slots;
    uint32_t nslots;
    uint32_t *buckets;  /* hash of pgno -> first slot, NO_SLOT when empty */
    uint32_t nbuckets;  /* power of two */
    uint32_t hand;      /* clock hand for eviction */
    /* slots whose page a caller said it would not need again
     * (jet_page_unpin_once), most recent last: claimed before the clock
     * sweeps, so a long scan cycles through a few buffers */
    uint32_t *reuse;
    uint32_t nreuse;
    /* the slots' buffers: pools of SLOT_HDR + page_size byte buffers,
     * handed out in order (carve, carve_left) as slots are first used */
    uint8_t **pools;
    uint32_t npools, poolcap;
    uint32_t made;      /* slot buffers handed out */
    uint8_t *carve;
    uint32_t carve_left;
    uint32_t carve_ready;   /* of carve_left, the slots backed already
                               (jet_pool_commit, POOL_FIRST_SLOTS at a
                               time) */
    uint64_t reads;     /* pages read (jet_db_pages_read) */
    uint64_t requests;  /* read requests issued to the OS */
    uint64_t bytes;     /* bytes those requests returned */
    /* read-ahead scratch: claimed slots, the request's page buffers, and
     * one junk page receiving the unlisted pages of a bridged gap */
    uint32_t ra_slot[READAHEAD_MAX_PAGES];
    uint8_t *ra_buf[READAHEAD_MAX_PAGES];
    uint8_t *junk;
    /* ---- the pager (writing); see the top of pagefile.c */
    jet_pager_state state;
    char *path, *jpath;         /* database and journal paths */
    char *ro_reason;            /* why writes are refused; NULL = allowed */
    jet_os_lock *lock;          /* NULL when locks are unavailable */
    int wfd;                    /* read-write descriptor, -1 until needed */
    int jfd;                    /* journal, -1 when none; between
                                 * transactions the kept one (jkeep) */
    bool jkeep;                 /* jfd may stay open, header cleared,
                                 * for the next transaction */
    unsigned busy_ms;           /* how long a lock is retried */
    bool tx_from_open;          /* the write began without a read txn */
    uint32_t nonce;
    uint32_t orig_page_count;   /* at begin */
    uint64_t orig_size;
    uint64_t jsize;             /* journal bytes written */
    uint64_t jsynced;           /* journal bytes known durable */
    bool jdir_synced;           /* the journal's name is durable (kept
                                 * with a kept journal) */
    uint8_t *journaled;         /* bitmap over orig_page_count */
    uint32_t *dirty;            /* dirty slots, in the order dirtied */
    uint32_t ndirty, capdirty;
    uint8_t *scratch;           /* one page: raw images, encoding */
    uint8_t *jrec;              /* one journal record (page + 8) */
    jet_os_stamp stamp;         /* the file as the cache last saw it */
    bool stamped;
    bool stamp_trusted;         /* taken after our own commit, under the
                                 * lock, on a file system with fine times:
                                 * not racy (CACHE VALIDITY) */
    bool hot_unchecked;         /* this read transaction began quiet and
                                 * did not look for a hot journal
                                 * (jet_pagefile_read_begin) */
    uint64_t drops;             /* times read_begin dropped the cache for
                                 * a changed file (jet_pagefile_drops) */
    uint32_t readers;           /* read transactions open (nested
                                 * read_begin calls; a write transaction
                                 * holds one of its own) */
    /* ---- statement savepoints (savepoint.c) */
    struct sp_level *sps;       /* the open savepoints, oldest first */
    uint32_t nsps, capsps;
    uint8_t **imgs;             /* page images, in the order taken; NULL
                                 * for one kept in the temporary file */
    uint32_t *img_pgno;
    uint32_t *img_slot;         /* its slot there (when imgs[i] is NULL) */
    uint8_t *img_lo;            /* the oldest level each image serves */
    uint32_t nimgs, capimgs;
    uint32_t nmem;              /* images in memory */
    size_t sp_mem_max;          /* bytes of images kept in memory */
    int sp_fd;                  /* the images' temporary file, or -1 */
    uint32_t sp_slots;          /* slots of sp_fd handed out so far */
    uint32_t *sp_free;          /* slots of sp_fd free again (a stack,
                                 * room for sp_slots of them) */
    uint32_t nfree;
    bool sp_broken;             /* a rollback to a savepoint failed half
                                 * way: only rolling back the whole
                                 * transaction is left */
};

/* ---- pagefile.c's helpers that savepoint.c uses */

/** The cache slot holding page pgno, or NO_SLOT. */
uint32_t jet_pf_lookup(const jet_pagefile *pf, uint32_t pgno);
/** Take slot idx out of the page hash (its page leaves the cache). */
void jet_pf_hash_remove(jet_pagefile *pf, uint32_t idx);
/** Slot idx is no longer dirty: drops the dirty page's own pin. */
void jet_pf_mark_clean(jet_pagefile *pf, uint32_t idx);
/** JET_OK when pf is in a write transaction that may change pages; else
 *  the error (no transaction, read-only, a broken transaction) in err. */
jet_rc jet_pf_check_writing(jet_pagefile *pf, jet_error *err);

/* ---- savepoint.c's, that pagefile.c calls */

/** Forget every savepoint and image (the transaction ends). */
void jet_pf_sp_clear(jet_pagefile *pf);
/** Page pgno (its current bytes at page) is about to change: keep its
 *  image for every open savepoint that needs one. JET_ENOMEM / JET_EIO. */
jet_rc jet_pf_sp_capture(jet_pagefile *pf, uint32_t pgno,
                         const uint8_t *page, jet_error *err);

#endif
