/*
 * pagefile.c - the pager: page cache for reading, and transactional writes
 * with a rollback journal.
 *
 * READING. Pages are read with pread into cache slots and decoded by the
 * page codec (Jet RC4, ACE agile AES / RC4 CryptoAPI) when one is
 * installed; page 0 is never codec-decoded (its mask is format.c's job).
 * Callers pin a page, use its bytes, and unpin it.
 * Invariants:
 *   1. A pinned slot is never evicted or rewritten.
 *   1a. Lookup is a hash of pgno -> slot; eviction is a clock sweep over
 *       unpinned slots, so pin and unpin cost O(1) amortised.
 *   2. The cache never holds more than its configured slot count; when all
 *       slots are pinned, jet_page_pin() fails with JET_ELIMIT.
 *   3. Every pgno handed out is below the page count (the file size at
 *       open, grown by jet_page_alloc), else JET_ECORRUPT.
 *   4. Read-ahead (jet_pagefile_read_ahead) only fills slots it claimed by
 *       the same clock sweep, with listed pages not yet cached, and leaves
 *       them unpinned: it never grows the cache past its slot count and
 *       takes at most a quarter of it per request (of READAHEAD_BYTES at
 *       most); bridged unlisted pages land in one junk page, not the cache.
 *   5. A dirty page holds one pin of its own until commit or rollback, so
 *       the clock never evicts it; nothing on the pin/unpin path of a
 *       clean page changed for writing.
 *
 * WRITING (the model is SQLite's pager.c, rollback-journal mode). States:
 *
 *   OPEN ---read_begin---> READER ---begin---> WRITER_LOCKED
 *     ^                     |  ^                  | first jet_page_write/alloc
 *     +------read_end-------+  |                  v
 *                              +--commit/----- WRITER_DIRTY
 *                              |  rollback        | commit, or a spill when
 *                              |                  v the cache is full
 *                              +--commit/----- WRITER_DBMOD
 *                                 rollback
 *   any WRITER_* --(I/O error while the database may be half written and
 *                   cannot be restored)--> ERROR (only close helps; the
 *                   journal stays hot and the next open rolls it back)
 *
 *   OPEN           no lock. Reading works here (tools and tests read
 *                  this way), but another process may commit meanwhile.
 *   READER         SHARED lock; no hot journal; the cache matches the file.
 *                  Read transactions nest: jet_pagefile_read_begin counts
 *                  (readers) and the last read_end releases the lock. A
 *                  write transaction holds one count of its own, so a read
 *                  begun before or during a write outlives its commit.
 *                  The driver opens one per statement execution and ends
 *                  it when the cursor is closed or fetched to its end; a
 *                  cursor left open keeps SHARED, and a writer in another
 *                  connection or process then waits at its commit (for
 *                  EXCLUSIVE) until its busy timeout (5 s) and fails with
 *                  JET_EBUSY: applications must close their cursors.
 *                  Fetching takes no lock per page (pin/unpin unchanged).
 *
 * CACHE VALIDITY. The cache outlives read transactions; read_begin drops
 * every clean page when the file may have changed since the cache last
 * saw it. Access files have no change counter our writers could keep
 * (every byte of page 0 means something to Access, and a counter in our
 * lock bytes past 2 GiB cannot be read, only locked), so the signal is
 * the file's stamp from fstat: size, mtime and ctime in nanoseconds
 * (same_stamp). A commit always writes (mtime) and ctime cannot be set
 * back by anyone but the clock, so a commit is seen unless (a) it lands
 * in the same clock tick as the stamp was taken - handled by treating a
 * stamp taken within RACY_NS (2 s, FAT's granularity) of the file's mtime
 * as proving nothing, so the cache is dropped until the file has been
 * quiet for 2 s; (b) the file system reports no times that change (some
 * FUSE or network mounts), or caches attributes (NFS actimeo; the NFS
 * client revalidates them when a lock is taken, which read_begin does);
 * (c) the system clock is set back more than 2 s between a stamp and a
 * commit. A writer that does not take our locks (Access itself, an SMB
 * client) is not kept out by SHARED at all: see lockfile.c.
 *   Our own commits: the stamp taken at the end of our commit (still
 * EXCLUSIVE, so the file is exactly what the cache holds) is trusted
 * although racy, when the file system keeps times finer than 1 ms:
 * every commit of ours, before its commit point, moves the file's mtime
 * past the one its transaction began with (advance_stamp: when the clock
 * has not ticked since, the time is set 1 us later), so no later commit
 * of any connection or process of this driver can leave a trusted stamp
 * matching. Without this, each autocommit statement found the stamp of
 * the one before racy and read its pages again. What a trusted stamp can
 * still miss: a writer without our locks, or without advance_stamp (an
 * older jetodbc), writing within one clock tick after our commit; and a
 * commit whose time could not be moved (not the file's owner, and the
 * clock set back).
 *   WRITER_LOCKED  RESERVED lock, database opened read-write; nothing
 *                  changed yet.
 *   WRITER_DIRTY   the journal exists and holds the original image of
 *                  every changed page that existed before; changed pages
 *                  are dirty in the cache; the database file is untouched.
 *   WRITER_DBMOD   the journal is synced, EXCLUSIVE is held, and database
 *                  pages may have been written.
 *
 * THE JOURNAL is <database>-journal, beside the database:
 *   header (JHDR_SIZE = 512 bytes, little-endian)
 *     0   8  magic "jetjrnl\0"
 *     8   4  format version (1)
 *     12  4  nonce: random per transaction, seeds every record checksum
 *     16  4  page size
 *     20  4  page count before the transaction
 *     24  8  file size in bytes before the transaction
 *     32  4  checksum of bytes 0..31
 *     36  .. zero
 *   records from 512, each page size + 8 bytes:
 *     0   4  pgno (below the page count before the transaction)
 *     4   ps the page's bytes as they were on disk (still encoded)
 *     4+ps 4 checksum of nonce, pgno and the bytes
 *   Playback reads records until the end of the file, a short record, a
 *   bad checksum or a pgno out of range, writes each image back, and
 *   truncates the database to its size before the transaction.
 *   A journal is HOT when it exists, its header is whole and valid, and no
 *   connection of any process holds RESERVED (a live writer's journal is
 *   not hot).
 *   THE KEPT JOURNAL (as SQLite's journal_mode=PERSIST): the commit clears
 *   the header instead of removing the file, and the connection keeps it
 *   open for its next transaction, which writes a new header (a new
 *   nonce: records left from a longer earlier transaction fail their
 *   checksum and end playback) - no create, no directory sync, one sync
 *   fewer per commit. Another connection or process that finds a cleared
 *   journal not its own removes it (under RESERVED), and the keeper, at
 *   its next transaction, sees that its descriptor no longer names the
 *   path (jet_os_same_file) and creates a new one; at close the keeper
 *   removes its journal when it is still there and cleared. Where a
 *   removed open file lingers and blocks its name (Windows), the journal
 *   is not kept: removed at each commit as below. A hot journal is rolled back before anything of the database
 *   is read (jet_pagefile_read_begin, which jet_db_open calls first); a
 *   connection that may not write (read-only mode, no permission) refuses
 *   to read instead, naming the journal.
 *
 * FSYNC ORDER of a commit (jet_pager_commit):
 *   1. while pages change: the journal header, then each page's original
 *      image, appended before the page's first change in the cache (the
 *      database file is not touched);
 *   2. fsync(journal), then fsync(directory) once per journal file: the
 *      journal and its name are durable before the database changes;
 *   3. EXCLUSIVE lock (PENDING keeps new readers out; waits for old ones);
 *   4. write every dirty page (encoded) to the database, ascending pgno;
 *   5. fsync(database);
 *   6. the journal's header zeroed, then fsync(journal) - THE COMMIT
 *      POINT (a journal without a valid header is never hot; a torn
 *      write of the header fails its checksum) - and the journal kept;
 *      where it is not kept: unlink(journal) - the commit point - then
 *      fsync(directory) so the commit survives power loss (if the unlink
 *      cannot be done the header is zeroed and synced instead);
 *   7. back to SHARED (READER) or no lock (OPEN).
 *   A crash before 6 leaves a hot journal: the old content comes back. A
 *   crash after 6 leaves the new content. Spilling (a transaction changing
 *   more pages than the cache holds) does 2-4 early for the pages no
 *   caller pins, and syncs the journal again before any page whose record
 *   was appended after the last sync is written.
 *
 * STATEMENT SAVEPOINTS (jet_pager_savepoint, _rollback_to, _release): marks
 * inside a write transaction; a page's image is kept at its first change
 * after a mark (in memory, past SP_MEM_BYTES in a temporary file), and
 * rolling back to the mark puts the images back into the cache (dirty)
 * and drops the pages appended since. The SAVEPOINTS section at the end
 * of this file has the rules.
 *
 * READ-ONLY (jet_pagefile_set_read_only): the database is opened O_RDONLY
 * and only re-opened O_RDWR (a second descriptor) when the first write
 * transaction begins; reading a file one may not write never needs write
 * permission, never creates a journal, never changes the file. A pager
 * marked read-only (ReadOnly=1, Jet3) refuses jet_pager_begin with the
 * reason given, as does a file the OS will not open for writing.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"
#include "os.h"
#include "pagefile_priv.h"

#define DEFAULT_CACHE_PAGES 256
#define MIN_CACHE_PAGES 8
/* unlisted pages a read-ahead request reads through (into a junk page)
 * rather than split in two: Jackcess and Access put a table's index pages
 * between its data pages every 20-odd pages */
#define READAHEAD_GAP 8u
/* slot buffers come in pools (jet_pool_alloc) of this many slots at
 * first, then as many as the slots already made (so a pool is at most the
 * cache's size), at most POOL_MAX_SLOTS; backed this many slots at a time
 * as they are handed out (jet_pool_commit: no page fault per page read) */
#define POOL_FIRST_SLOTS 16u
#define POOL_MAX_SLOTS 1024u
/* journal layout (the top of this file) */
#define JHDR_SIZE 512u
#define JHDR_USED 36u
#define JOURNAL_VERSION 1u
static const uint8_t journal_magic[8] = { 'j', 'e', 't', 'j', 'r', 'n', 'l', 0 };
/* busy timeout of a lock when none was set, in milliseconds */
#define DEFAULT_BUSY_MS 5000u



static jet_rc spill(jet_pagefile *pf, uint32_t *freed, jet_error *err);

static uint32_t bucket_of(const jet_pagefile *pf, uint32_t pgno)
{
    return (pgno * 2654435761u) & (pf->nbuckets - 1);
}

void jet_pf_hash_remove(jet_pagefile *pf, uint32_t idx)
{
    uint32_t *link = &pf->buckets[bucket_of(pf, pf->slots[idx].pgno)];
    while (*link != NO_SLOT) {
        if (*link == idx) {
            *link = pf->slots[idx].hnext;
            break;
        }
        link = &pf->slots[*link].hnext;
    }
    pf->slots[idx].pgno = UINT32_MAX;
    pf->slots[idx].hnext = NO_SLOT;
}

static void hash_insert(jet_pagefile *pf, uint32_t idx, uint32_t pgno)
{
    uint32_t b = bucket_of(pf, pgno);
    pf->slots[idx].pgno = pgno;
    pf->slots[idx].hnext = pf->buckets[b];
    pf->buckets[b] = idx;
}

jet_rc jet_pagefile_open(jet_pagefile **out, const char *path,
                         size_t cache_pages, jet_error *err)
{
    jet_pagefile *pf;
    const char *kind = NULL;
    int e;

    *out = NULL;
    pf = jet_calloc(1, sizeof *pf);
    if (!pf)
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    pf->fd = -1;
    pf->wfd = -1;
    pf->jfd = -1;
    pf->sp_fd = -1;
    pf->sp_mem_max = SP_MEM_BYTES;
    pf->busy_ms = DEFAULT_BUSY_MS;
    pf->state = JET_PAGER_OPEN;
    e = jet_os_open(&pf->fd, path, &kind);
    if (e == JET_OS_NOT_REGULAR) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_EFORMAT, JET_NO_PGNO,
                        "'%s' is not a regular file (%s)", path, kind);
    }
    if (e) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot open '%s': %s",
                        path, strerror(e));
    }
    e = jet_os_size(pf->fd, &pf->size);
    if (e) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot stat '%s': %s",
                        path, strerror(e));
    }
    if (cache_pages == 0)
        cache_pages = DEFAULT_CACHE_PAGES;
    if (cache_pages < MIN_CACHE_PAGES)
        cache_pages = MIN_CACHE_PAGES;
    if (cache_pages > 1u << 20)
        cache_pages = 1u << 20;
    pf->nslots = (uint32_t)cache_pages;
    pf->nbuckets = 1;
    while (pf->nbuckets < pf->nslots)
        pf->nbuckets <<= 1;
    pf->slots = jet_calloc(pf->nslots, sizeof *pf->slots);
    pf->buckets = jet_malloc(pf->nbuckets * sizeof *pf->buckets);
    pf->reuse = jet_malloc(pf->nslots * sizeof *pf->reuse);
    if (!pf->slots || !pf->buckets || !pf->reuse) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    for (uint32_t i = 0; i < pf->nslots; i++) {
        pf->slots[i].pgno = UINT32_MAX;
        pf->slots[i].hnext = NO_SLOT;
    }
    for (uint32_t i = 0; i < pf->nbuckets; i++)
        pf->buckets[i] = NO_SLOT;
    pf->path = jet_strndup(path, strlen(path));
    pf->jpath = jet_malloc(strlen(path) + sizeof "-journal");
    if (!pf->path || !pf->jpath) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    memcpy(pf->jpath, path, strlen(path));
    memcpy(pf->jpath + strlen(path), "-journal", sizeof "-journal");
    /* locks are best effort for a reader: a file system without them
     * still reads (writes then refuse, in jet_pager_begin) */
    if (jet_os_lock_open(&pf->lock, pf->fd) != 0)
        pf->lock = NULL;
    jet_os_advise_sequential(pf->fd);
    *out = pf;
    return JET_OK;
}

static bool read_journal_header(int jfd, uint32_t *nonce, uint32_t *ps,
                                uint32_t *count, uint64_t *size);

/* At close: remove the journal kept open between transactions (header
 * cleared), when it is still ours and no writer is busy (RESERVED taken
 * without waiting; a busy writer may be using the file, and the next
 * writer to find it cleared removes it). Closes jfd. */
static void remove_kept_journal(jet_pagefile *pf)
{
    jet_lock_level was = pf->lock ? jet_os_lock_level(pf->lock)
                                  : JET_LOCK_NONE;
    uint32_t nonce, ps, count;
    uint64_t size;
    bool own = false;

    if (pf->lock && pf->state != JET_PAGER_ERROR &&
        (was >= JET_LOCK_SHARED ||
         jet_os_lock_acquire(pf->lock, JET_LOCK_SHARED) == 0)) {
        if (jet_os_lock_acquire(pf->lock, JET_LOCK_RESERVED) == 0) {
            if (jet_os_same_file(pf->jfd, pf->jpath, &own) == 0 && own &&
                !read_journal_header(pf->jfd, &nonce, &ps, &count, &size))
                (void)jet_os_unlink(pf->jpath);
        }
        (void)jet_os_lock_release(pf->lock, was);
    }
    jet_os_close(pf->jfd);
    pf->jfd = -1;
}

void jet_pagefile_close(jet_pagefile *pf)
{
    int fds[2];
    if (!pf)
        return;
    if (pf->state >= JET_PAGER_WRITER_LOCKED && pf->state != JET_PAGER_ERROR)
        (void)jet_pager_rollback(pf, NULL);
    if (pf->jfd >= 0)
        remove_kept_journal(pf);
    fds[0] = pf->fd;
    fds[1] = pf->wfd;
    jet_os_lock_close(pf->lock, fds, 2);
    jet_free(pf->path);
    jet_free(pf->jpath);
    jet_free(pf->ro_reason);
    jet_pf_sp_clear(pf);
    jet_free(pf->sps);
    jet_free(pf->imgs);
    jet_free(pf->img_pgno);
    jet_free(pf->img_slot);
    jet_free(pf->img_lo);
    jet_free(pf->sp_free);
    jet_free(pf->journaled);
    jet_free(pf->dirty);
    jet_free(pf->scratch);
    jet_free(pf->jrec);
    for (uint32_t i = 0; i < pf->npools; i++)
        jet_pool_free(pf->pools[i]);
    jet_free(pf->pools);
    jet_free(pf->slots);
    jet_free(pf->reuse);
    jet_free(pf->buckets);
    jet_free(pf->junk);
    jet_codec_free(pf->codec);
    jet_free(pf);
}

uint64_t jet_pagefile_size(const jet_pagefile *pf)
{
    return pf->size;
}

jet_rc jet_pagefile_read_raw(jet_pagefile *pf, void *buf, size_t len,
                             uint64_t off, jet_error *err)
{
    size_t got = 0;
    int e = jet_os_pread(pf->fd, buf, len, off, &got);
    pf->requests++;
    pf->bytes += got;
    if (e)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "read failed: %s",
                        strerror(e));
    if (got != len)
        return jet_fail(err, JET_EIO, JET_NO_PGNO,
                        "short read: %zu of %zu bytes at offset %llu", got,
                        len, (unsigned long long)off);
    return JET_OK;
}

jet_rc jet_pagefile_set_page_size(jet_pagefile *pf, uint32_t page_size,
                                  jet_error *err)
{
    uint64_t n;
    if (page_size != 2048 && page_size != 4096)
        return jet_fail(err, JET_ECORRUPT, 0, "bad page size %u", page_size);
    pf->page_size = page_size;
    n = pf->size / page_size;
    if (n > UINT32_MAX - 1)
        n = UINT32_MAX - 1;
    pf->page_count = (uint32_t)n;
    return JET_OK;
}

void jet_pagefile_set_codec(jet_pagefile *pf, jet_codec *codec)
{
    jet_codec_free(pf->codec);
    pf->codec = codec;
}

const jet_codec *jet_pagefile_codec(const jet_pagefile *pf)
{
    return pf->codec;
}

uint32_t jet_pagefile_page_count(const jet_pagefile *pf)
{
    return pf->page_count;
}

uint64_t jet_pagefile_changes(const jet_pagefile *pf)
{
    return pf->changes;
}

const uint64_t *jet_pagefile_changes_at(const jet_pagefile *pf)
{
    return &pf->changes;
}

uint64_t jet_pagefile_pages_read(const jet_pagefile *pf)
{
    return pf->reads;
}

void jet_pagefile_read_stats(const jet_pagefile *pf, jet_read_stats *out)
{
    out->pages = pf->reads;
    out->requests = pf->requests;
    out->bytes = pf->bytes;
}

/* The slot caching pgno, or NO_SLOT. */
uint32_t jet_pf_lookup(const jet_pagefile *pf, uint32_t pgno)
{
    for (uint32_t idx = pf->buckets[bucket_of(pf, pgno)]; idx != NO_SLOT;
         idx = pf->slots[idx].hnext)
        if (pf->slots[idx].pgno == pgno)
            return idx;
    return NO_SLOT;
}

/*
 * Claim an unpinned slot by the clock sweep (two turns clear every
 * reference bit), give it a buffer and take it out of the hash. The slot
 * comes back empty and unpinned. NO_SLOT when every slot is pinned or
 * memory ran out (*nomem tells which).
 */
/* A buffer for a slot's first use (SLOT_HDR + page_size bytes) from the
 * current pool, a new pool when it is used up (POOL_FIRST_SLOTS, then
 * doubling the slots made so far, never past the cache's size). Sanitizer
 * builds take one pool per slot, so that AddressSanitizer sees a read
 * past a page's end. NULL when out of memory. */
static uint8_t *slot_buffer(jet_pagefile *pf)
{
    size_t each = SLOT_HDR + (size_t)pf->page_size;
    if (!pf->carve_left) {
        uint32_t n = pf->made < POOL_FIRST_SLOTS ? POOL_FIRST_SLOTS : pf->made;
        if (n > POOL_MAX_SLOTS)
            n = POOL_MAX_SLOTS;
        if (n > pf->nslots - pf->made)
            n = pf->nslots - pf->made;
#if JET_ASAN
        n = 1;
#endif
        if (n == 0)
            return NULL;        /* never: a slot is made once */
        if (pf->npools == pf->poolcap) {
            uint32_t cap = pf->poolcap ? 2 * pf->poolcap : 8;
            uint8_t **p = jet_realloc(pf->pools, cap * sizeof *p);
            if (!p)
                return NULL;
            pf->pools = p;
            pf->poolcap = cap;
        }
        pf->carve = jet_pool_alloc(n * each);
        if (!pf->carve)
            return NULL;
        pf->pools[pf->npools++] = pf->carve;
        pf->carve_left = n;
        pf->carve_ready = 0;
    }
    if (!pf->carve_ready) {
        /* the pool's next POOL_FIRST_SLOTS slots backed in one call: a
         * pool the cache never fills takes no memory past them */
        uint32_t k = pf->carve_left < POOL_FIRST_SLOTS ? pf->carve_left
                                                       : POOL_FIRST_SLOTS;
        jet_pool_commit(pf->carve, k * each);
        pf->carve_ready = k;
    }
    uint8_t *b = pf->carve;
    pf->carve += each;
    pf->carve_left--;
    pf->carve_ready--;
    pf->made++;
    return b;
}

static uint32_t claim_slot(jet_pagefile *pf, bool *nomem)
{
    uint32_t victim = NO_SLOT;
    slot *v;

    *nomem = false;
    /* a used-once page first (any unpinned, unreferenced slot is a fair
     * victim: the list only says where to look) */
    while (pf->nreuse && victim == NO_SLOT) {
        uint32_t i = pf->reuse[--pf->nreuse];
        pf->slots[i].listed = false;
        if (!pf->slots[i].pins && !pf->slots[i].ref)
            victim = i;
    }
    for (uint32_t n = 0; victim == NO_SLOT && n < 2 * pf->nslots + 1; n++) {
        slot *s = &pf->slots[pf->hand];
        uint32_t here = pf->hand;
        pf->hand = (pf->hand + 1) % pf->nslots;
        if (s->pins)
            continue;
        if (s->ref && s->pgno != UINT32_MAX) {
            s->ref = false;
            continue;
        }
        victim = here;
        break;
    }
    if (victim == NO_SLOT)
        return NO_SLOT;
    v = &pf->slots[victim];
    if (!v->buf) {
        v->buf = slot_buffer(pf);
        if (!v->buf) {
            *nomem = true;
            return NO_SLOT;
        }
        memcpy(v->buf, &victim, sizeof victim);
    }
    if (v->pgno != UINT32_MAX)
        jet_pf_hash_remove(pf, victim);
    v->ref = false;
    return victim;
}

/*
 * How many leading entries of pgnos (n >= 1, ascending) one request can
 * cover: pages below the page count whose span pgnos[0]..last stays
 * within max pages, bridging gaps of at most READAHEAD_GAP pages (pages
 * the list skips, e.g. a table's index pages between its data pages); with
 * check_cache, stopping before a page already cached. *span receives
 * last - pgnos[0] + 1.
 */
static size_t plan_run(const jet_pagefile *pf, const uint32_t *pgnos,
                       size_t n, size_t max, bool check_cache, size_t *span)
{
    size_t k = 1;
    while (k < n) {
        uint32_t p = pgnos[k];
        if (p <= pgnos[k - 1] || p - pgnos[k - 1] - 1 > READAHEAD_GAP ||
            p >= pf->page_count || (uint64_t)(p - pgnos[0]) + 1 > max)
            break;
        if (check_cache && jet_pf_lookup(pf, p) != NO_SLOT)
            break;
        k++;
    }
    *span = (size_t)(pgnos[k - 1] - pgnos[0]) + 1;
    return k;
}

size_t jet_pagefile_read_ahead(jet_pagefile *pf, const uint32_t *pgnos,
                               size_t n, size_t max_pages)
{
    size_t max, k, want, span, got = 0, done_pages, cached = 0;
    uint32_t first;
    bool nomem;
    int e;

    if (pf->page_size == 0 || n == 0 || pgnos[0] >= pf->page_count ||
        jet_pf_lookup(pf, pgnos[0]) != NO_SLOT)
        return 0;
    first = pgnos[0];
    max = READAHEAD_BYTES / pf->page_size;
    if (max > pf->nslots / 4)
        max = pf->nslots / 4;
    if (max_pages && max > max_pages)
        max = max_pages;
    if (max < 2)
        return 0;
    want = plan_run(pf, pgnos, n, max, true, &span);
    if (want < 2)
        return 0;   /* one page: jet_page_pin() reads it as usual */
    if (span > want && !pf->junk) {
        pf->junk = jet_malloc(pf->page_size);
        if (!pf->junk)
            return 0;
    }
    for (k = 0; k < want; k++) {
        uint32_t idx = claim_slot(pf, &nomem);
        if (idx == NO_SLOT)
            break;
        pf->slots[idx].pins = 1;    /* keep the sweep off it meanwhile */
        pf->ra_slot[k] = idx;
    }
    if (k < want) {             /* fewer free slots than pages */
        want = k;
        span = want ? (size_t)(pgnos[want - 1] - first) + 1 : 0;
    }
    /* the request's buffers: a slot per listed page, junk for the gaps */
    for (size_t i = 0; i < span; i++)
        pf->ra_buf[i] = pf->junk;
    for (k = 0; k < want; k++)
        pf->ra_buf[pgnos[k] - first] =
            pf->slots[pf->ra_slot[k]].buf + SLOT_HDR;
    e = 0;
    if (want >= 2) {
        e = jet_os_preadv(pf->fd, pf->ra_buf, span, pf->page_size,
                          (uint64_t)first * pf->page_size, &got);
        pf->requests++;
        pf->bytes += got;
    }
    done_pages = (e || want < 2) ? 0 : got / pf->page_size;
    for (k = 0; k < want; k++) {
        slot *s = &pf->slots[pf->ra_slot[k]];
        uint32_t pgno = pgnos[k];
        s->pins = 0;
        if (pgno - first >= done_pages)
            continue;       /* short or failed read: slot stays empty */
        pf->reads++;
        if (pf->codec && pgno != 0 &&
            jet_codec_decode(pf->codec, pgno, s->buf + SLOT_HDR,
                             pf->page_size) != JET_OK)
            continue;       /* jet_page_pin() reads and reports it */
        hash_insert(pf, pf->ra_slot[k], pgno);
        s->ref = true;
        cached++;
    }
    /* let the kernel fetch the following run while this one is decoded */
    if (want >= 2 && done_pages == span && want < n &&
        pgnos[want] < pf->page_count) {
        size_t next_span;
        (void)plan_run(pf, pgnos + want, n - want, max, false, &next_span);
        jet_os_advise_willneed(pf->fd,
                               (uint64_t)pgnos[want] * pf->page_size,
                               (uint64_t)next_span * pf->page_size);
    }
    return cached;
}

jet_rc jet_page_pin(jet_pagefile *pf, uint32_t pgno, const uint8_t **out,
                    jet_error *err)
{
    uint32_t idx, victim;
    bool nomem;
    slot *v;
    jet_rc rc;

    *out = NULL;
    if (pf->page_size == 0)
        return jet_fail(err, JET_ECORRUPT, pgno, "page size unknown");
    if (pgno >= pf->page_count)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "page %u is past the end of the file (%u pages)",
                        pgno, pf->page_count);
    idx = jet_pf_lookup(pf, pgno);
    if (idx != NO_SLOT) {
        slot *s = &pf->slots[idx];
        s->pins++;
        s->ref = true;
        *out = s->buf + SLOT_HDR;
        return JET_OK;
    }
    victim = claim_slot(pf, &nomem);
    if (victim == NO_SLOT && !nomem && pf->ndirty > 0 &&
        (pf->state == JET_PAGER_WRITER_DIRTY ||
         pf->state == JET_PAGER_WRITER_DBMOD)) {
        /* a read inside a write transaction whose dirty pages fill the
         * cache: write the unpinned ones out first */
        uint32_t freed = 0;
        rc = spill(pf, &freed, err);
        if (rc != JET_OK)
            return rc;
        victim = claim_slot(pf, &nomem);
    }
    if (victim == NO_SLOT && nomem)
        return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
    if (victim == NO_SLOT)
        return jet_fail(err, JET_ELIMIT, pgno,
                        "page cache exhausted: all %u pages pinned",
                        pf->nslots);
    v = &pf->slots[victim];
    rc = jet_pagefile_read_raw(pf, v->buf + SLOT_HDR, pf->page_size,
                               (uint64_t)pgno * pf->page_size, err);
    if (rc != JET_OK) {
        if (err)
            err->pgno = pgno;
        return rc;
    }
    pf->reads++;
    if (pf->codec && pgno != 0) {
        rc = jet_codec_decode(pf->codec, pgno, v->buf + SLOT_HDR,
                              pf->page_size);
        if (rc != JET_OK)
            return jet_fail(err, rc, pgno, "cannot decode encrypted page %u",
                            pgno);
    }
    hash_insert(pf, victim, pgno);
    v->pins = 1;
    v->ref = true;
    *out = v->buf + SLOT_HDR;
    return JET_OK;
}

uint32_t jet_pagefile_cache_pages(const jet_pagefile *pf)
{
    return pf->nslots;
}

void jet_page_unpin_once(jet_pagefile *pf, const uint8_t *page)
{
    uint32_t idx;
    slot *s;
    if (!page)
        return;
    memcpy(&idx, page - SLOT_HDR, sizeof idx);
    if (idx >= pf->nslots || pf->slots[idx].buf + SLOT_HDR != page ||
        pf->slots[idx].pins <= pf->slots[idx].dirty)
        return;
    s = &pf->slots[idx];
    if (--s->pins)
        return;
    s->ref = false;
    if (!s->listed) {       /* at most once: nreuse <= nslots */
        s->listed = true;
        pf->reuse[pf->nreuse++] = idx;
    }
}

void jet_page_unpin(jet_pagefile *pf, const uint8_t *page)
{
    uint32_t idx;
    if (!page)
        return;
    memcpy(&idx, page - SLOT_HDR, sizeof idx);
    if (idx < pf->nslots && pf->slots[idx].buf + SLOT_HDR == page &&
        pf->slots[idx].pins > pf->slots[idx].dirty)
        pf->slots[idx].pins--;
}

/* ================================================================ pager */

jet_pager_state jet_pager_state_of(const jet_pagefile *pf)
{
    return pf->state;
}

jet_os_lock *jet_pagefile_os_lock(jet_pagefile *pf)
{
    return pf->lock;
}

void jet_pagefile_set_busy_timeout(jet_pagefile *pf, unsigned ms)
{
    pf->busy_ms = ms;
}

jet_rc jet_pagefile_set_read_only(jet_pagefile *pf, const char *reason)
{
    char *r = NULL;
    if (reason) {
        r = jet_strndup(reason, strlen(reason));
        if (!r)
            return JET_ENOMEM;
    }
    jet_free(pf->ro_reason);
    pf->ro_reason = r;
    return JET_OK;
}

/* Checksum of len bytes (a multiple of 4) seeded by seed: Fletcher-style
 * sums of little-endian 32-bit words, position-sensitive. */
static uint32_t checksum(uint32_t seed, const uint8_t *p, size_t len)
{
    uint64_t a = seed | 1u, b = seed;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        a += jet_get_u32(p + i);
        b += a;
    }
    return (uint32_t)(a ^ (a >> 32) ^ (b * 0x9E3779B1u) ^ (b >> 29));
}

static uint32_t record_checksum(uint32_t nonce, uint32_t pgno,
                                const uint8_t *page, size_t len)
{
    return checksum(nonce ^ (pgno * 0x85EBCA6Bu), page, len);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get_u64(const uint8_t *p)
{
    return jet_get_u32(p) | ((uint64_t)jet_get_u32(p + 4) << 32);
}

/* Take lock level, retrying while busy until the busy timeout. */
static jet_rc lock_wait(jet_pagefile *pf, jet_lock_level level,
                        jet_error *err)
{
    unsigned waited = 0, step = 1;
    int e;

    if (!pf->lock)
        return jet_fail(err, JET_EIO, JET_NO_PGNO,
                        "cannot lock '%s': the file system has no locks",
                        pf->path);
    for (;;) {
        e = jet_os_lock_acquire(pf->lock, level);
        if (e != EBUSY)
            break;
        if (waited >= pf->busy_ms)
            return jet_fail(err, JET_EBUSY, JET_NO_PGNO,
                            "'%s' is %s by another connection (waited %u "
                            "ms)", pf->path,
                            level == JET_LOCK_SHARED ? "being committed"
                            : level == JET_LOCK_RESERVED ? "being written"
                            : "being read", waited);
        jet_os_sleep_ms(step);
        waited += step;
        if (step < 32)
            step *= 2;
    }
    if (e)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot lock '%s': %s",
                        pf->path, strerror(e));
    return JET_OK;
}

/* The journal's header, checked; false when it is not a valid header
 * (then the database was never changed under it). */
static bool read_journal_header(int jfd, uint32_t *nonce, uint32_t *ps,
                                uint32_t *count, uint64_t *size)
{
    uint8_t h[JHDR_USED];
    size_t got = 0;
    if (jet_os_pread(jfd, h, sizeof h, 0, &got) != 0 || got != sizeof h)
        return false;
    if (memcmp(h, journal_magic, 8) != 0 ||
        jet_get_u32(h + 8) != JOURNAL_VERSION ||
        jet_get_u32(h + 32) != checksum(0, h, 32))
        return false;
    *nonce = jet_get_u32(h + 12);
    *ps = jet_get_u32(h + 16);
    *count = jet_get_u32(h + 20);
    *size = get_u64(h + 24);
    return *ps == 2048 || *ps == 4096;
}

/* The read-write descriptor, opened on first need. */
static jet_rc open_for_writing(jet_pagefile *pf, jet_error *err)
{
    int e;
    if (pf->wfd >= 0)
        return JET_OK;
    e = jet_os_open_rw(&pf->wfd, pf->path);
    if (e == EACCES || e == EPERM || e == EROFS)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "'%s' is read-only: %s", pf->path, strerror(e));
    if (e)
        return jet_fail(err, JET_EIO, JET_NO_PGNO,
                        "cannot open '%s' for writing: %s", pf->path,
                        e == JET_OS_NOT_REGULAR ? "not a regular file"
                                                : strerror(e));
    if (pf->lock)
        jet_os_lock_set_write_fd(pf->lock, pf->wfd);
    return JET_OK;
}

/*
 * Write the journal's original images back into the database, truncate it
 * to its size before the transaction and sync it (EXCLUSIVE held). With
 * the journal header's page size ps, page count and size. Stops at the
 * first record that is short, out of range or fails its checksum: records
 * past the last journal sync may be torn, and their pages were never
 * written to the database.
 */
static jet_rc playback(jet_pagefile *pf, int jfd, jet_error *err)
{
    uint32_t nonce, ps, count;
    uint64_t size, jlen, off;
    uint8_t *rec;
    jet_os_stamp st;
    jet_rc rc = JET_OK;
    int e;

    if (!read_journal_header(jfd, &nonce, &ps, &count, &size))
        return JET_OK;      /* not hot after all: nothing was changed */
    if (jet_os_stamp_of(jfd, &st) != 0)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot stat '%s'",
                        pf->jpath);
    jlen = st.size;
    rec = jet_malloc((size_t)ps + 8);
    if (!rec)
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (off = JHDR_SIZE; off + ps + 8 <= jlen; off += (uint64_t)ps + 8) {
        size_t got = 0;
        uint32_t pgno;
        e = jet_os_pread(jfd, rec, (size_t)ps + 8, off, &got);
        if (e || got != (size_t)ps + 8) {
            if (e)
                rc = jet_fail(err, JET_EIO, JET_NO_PGNO,
                              "cannot read '%s': %s", pf->jpath,
                              strerror(e));
            break;
        }
        pgno = jet_get_u32(rec);
        if (pgno >= count ||
            jet_get_u32(rec + 4 + ps) != record_checksum(nonce, pgno,
                                                         rec + 4, ps))
            break;
        e = jet_os_pwrite(pf->wfd, rec + 4, ps, (uint64_t)pgno * ps);
        if (e) {
            rc = jet_fail(err, JET_EIO, pgno, "cannot restore page %u of "
                          "'%s': %s", pgno, pf->path, strerror(e));
            break;
        }
    }
    jet_free(rec);
    if (rc != JET_OK)
        return rc;
    if (jet_os_stamp_of(pf->wfd, &st) == 0 && st.size != size &&
        (e = jet_os_ftruncate(pf->wfd, size)) != 0)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot truncate '%s': "
                        "%s", pf->path, strerror(e));
    if ((e = jet_os_fsync(pf->wfd)) != 0)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync '%s': %s",
                        pf->path, strerror(e));
    return JET_OK;
}

/* End the journal (the commit point, or the end of a rollback or a
 * recovery). A journal of ours that may be kept (jkeep) gets its header
 * zeroed - a journal without a valid header is never hot - synced when
 * durable (a commit), and stays open for the next transaction. Otherwise
 * it is removed and the removal made durable; when it cannot be removed,
 * its header is zeroed and synced instead; jfd is closed. */
static jet_rc finish_journal(jet_pagefile *pf, bool durable, jet_error *err)
{
    int e;
    if (pf->jfd >= 0 && pf->jkeep) {
        uint8_t zero[JHDR_USED] = { 0 };
        e = jet_os_pwrite(pf->jfd, zero, sizeof zero, 0);
        if (!e && durable)
            e = jet_os_fsync(pf->jfd);
        if (!e)
            return JET_OK;
    }
    if (pf->jfd >= 0) {
        jet_os_close(pf->jfd);
        pf->jfd = -1;
    }
    e = jet_os_unlink(pf->jpath);
    if (e == 0 || e == ENOENT) {
        /* the commit point has passed: a directory that will not sync
         * risks only durability (after a power loss the journal may come
         * back and roll the transaction back whole), never a half state */
        (void)jet_os_sync_dir(pf->jpath);
        return JET_OK;
    }
    {
        uint8_t zero[JHDR_USED] = { 0 };
        int jfd = -1, e2 = jet_os_open_rw(&jfd, pf->jpath);
        if (!e2)
            e2 = jet_os_pwrite(jfd, zero, sizeof zero, 0);
        if (!e2)
            e2 = jet_os_fsync(jfd);
        jet_os_close(jfd);
        if (e2)
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot remove '%s' "
                            "(%s) nor clear it (%s)", pf->jpath,
                            strerror(e), strerror(e2));
    }
    return JET_OK;
}

/* Forget every clean cached page (another process may have changed the
 * file); pinned ones leave the hash, their holders keep the bytes. */
static void drop_clean_pages(jet_pagefile *pf)
{
    pf->changes++;
    for (uint32_t i = 0; i < pf->nslots; i++) {
        slot *s = &pf->slots[i];
        if (s->pgno != UINT32_MAX && !s->dirty) {
            jet_pf_hash_remove(pf, i);
            s->ref = false;
        }
    }
}

/* The file's size and page count from the OS (after another process's
 * commit or a playback). */
static jet_rc refresh_size(jet_pagefile *pf, jet_error *err)
{
    jet_os_stamp st;
    int e = jet_os_stamp_of(pf->fd, &st);
    if (e)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot stat '%s': %s",
                        pf->path, strerror(e));
    pf->size = st.size;
    if (pf->page_size) {
        uint64_t n = st.size / pf->page_size;
        pf->page_count = n > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)n;
    }
    pf->stamp = st;
    pf->stamped = true;
    pf->stamp_trusted = false;
    return JET_OK;
}

/*
 * Is the file as the cache saw it? Size, modification and change times
 * equal - and the old stamp trusted or not "racy": file systems keep
 * times to a clock tick (Linux: a few ms; FAT: 2 s), so a commit in the
 * same tick as the stamp leaves the times equal. A stamp taken within
 * RACY_NS of the file's mtime proves nothing, and the cache is dropped
 * (as git treats a racily clean index entry) - unless it is trusted: our
 * own commit's, which every later commit of ours moves past (CACHE
 * VALIDITY at the top).
 */
#define RACY_NS 2000000000LL
static bool same_stamp(const jet_os_stamp *now, const jet_os_stamp *then,
                       bool trusted)
{
    return now->size == then->size && now->mtime_ns == then->mtime_ns &&
           now->ctime_ns == then->ctime_ns &&
           (trusted || then->taken_ns - then->mtime_ns > RACY_NS);
}

/* Does the file system keep times finer than a millisecond (ext4, XFS,
 * Btrfs, tmpfs, APFS: 1 ns; NTFS, SMB: 100 ns)? Then a commit can move
 * the time past a stamp's by a microsecond (jet_os_advance_mtime). A time
 * that is a whole millisecond is taken for a coarse one (FAT, HFS+, ext3
 * keep 10 ms to 2 s); by chance on a fine one (one time in 10^4 at
 * worst), which only costs one stamp its trust. */
static bool fine_time(int64_t t_ns)
{
    return t_ns % 1000000 != 0;
}

/* Before the commit point of a commit that wrote database pages, under
 * EXCLUSIVE: move the file's modification time past the one this
 * transaction began with, so that a stamp another connection trusts
 * (taken after the commit before ours, within the same clock tick as
 * ours) does not match the file any more. Nothing on a file system with
 * coarse times: no stamp of those is trusted. Best effort: when neither
 * naming a time (the owner's right) nor waiting for the clock works
 * (the clock was set back), a trusted stamp can miss this commit, as
 * (c) in CACHE VALIDITY. */
static void advance_stamp(jet_pagefile *pf)
{
    if (pf->stamped && fine_time(pf->stamp.mtime_ns))
        (void)jet_os_advance_mtime(pf->wfd, pf->stamp.mtime_ns, NULL);
}

/* With SHARED held: roll back a hot journal, if there is one. */
static jet_rc recover_hot_journal(jet_pagefile *pf, jet_error *err)
{
    uint32_t nonce, ps, count;
    uint64_t size;
    bool reserved = false, own = false;
    int jfd = -1, e;
    jet_rc rc;

    if (!jet_os_exists(pf->jpath))
        return JET_OK;
    if (jet_os_lock_check_reserved(pf->lock, &reserved) != 0 || reserved)
        return JET_OK;      /* a live writer's journal */
    if (pf->jfd >= 0 && jet_os_same_file(pf->jfd, pf->jpath, &own) == 0 &&
        own && !read_journal_header(pf->jfd, &nonce, &ps, &count, &size))
        return JET_OK;      /* the journal we keep, cleared at our commit */
    e = jet_os_open(&jfd, pf->jpath, NULL);
    if (e == ENOENT)
        return JET_OK;
    if (e)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' has an unfinished "
                        "transaction, but its journal '%s' cannot be read "
                        "(%s)", pf->path, pf->jpath,
                        e == JET_OS_NOT_REGULAR ? "not a regular file"
                                                : strerror(e));
    if (!read_journal_header(jfd, &nonce, &ps, &count, &size)) {
        /* a writer died before its header was whole: the database was
         * never touched. Tidy the leftover away when we may write, under
         * RESERVED so that no new writer's journal is taken for it. */
        jet_os_close(jfd);
        if (!pf->ro_reason && open_for_writing(pf, NULL) == JET_OK &&
            jet_os_lock_acquire(pf->lock, JET_LOCK_RESERVED) == 0) {
            jfd = -1;
            if (jet_os_open(&jfd, pf->jpath, NULL) == 0 &&
                !read_journal_header(jfd, &nonce, &ps, &count, &size))
                (void)jet_os_unlink(pf->jpath);
            jet_os_close(jfd);
            (void)jet_os_lock_release(pf->lock, JET_LOCK_SHARED);
        }
        return JET_OK;
    }
    if (pf->ro_reason) {
        jet_os_close(jfd);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' has an unfinished "
                        "transaction (journal '%s') that must be rolled "
                        "back before it can be read, and this connection "
                        "may not write (%s); open it once for writing",
                        pf->path, pf->jpath, pf->ro_reason);
    }
    rc = open_for_writing(pf, err);
    if (rc != JET_OK) {
        jet_os_close(jfd);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' has an unfinished "
                        "transaction (journal '%s') that must be rolled "
                        "back before it can be read: %s", pf->path,
                        pf->jpath, err ? err->msg : "cannot write");
    }
    /* one try: two openers that both found the journal would each wait
     * for the other's SHARED; the loser lets go and read_begin retries */
    e = jet_os_lock_acquire(pf->lock, JET_LOCK_EXCLUSIVE);
    rc = e == 0 ? JET_OK
       : e == EBUSY ? jet_fail(err, JET_EBUSY, JET_NO_PGNO, "'%s' is being "
                               "recovered by another connection", pf->path)
       : jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot lock '%s': %s",
                  pf->path, strerror(e));
    if (rc == JET_OK) {
        /* another process may have rolled it back meanwhile */
        jet_os_close(jfd);
        jfd = -1;
        if (pf->jfd >= 0) {     /* a kept journal of ours is given up: */
            jet_os_close(pf->jfd);      /* finish removes the path's */
            pf->jfd = -1;
        }
        e = jet_os_open(&jfd, pf->jpath, NULL);
        if (e == 0) {
            rc = playback(pf, jfd, err);
            jet_os_close(jfd);
            jfd = -1;
            if (rc == JET_OK)
                rc = finish_journal(pf, true, err);
        }
    }
    if (jfd >= 0)
        jet_os_close(jfd);
    (void)jet_os_lock_release(pf->lock, JET_LOCK_SHARED);
    if (rc != JET_OK)
        return rc;
    drop_clean_pages(pf);
    return refresh_size(pf, err);
}

jet_rc jet_pagefile_read_begin(jet_pagefile *pf, jet_error *err)
{
    jet_os_stamp st;
    uint64_t changes;
    bool have_st, restamp = false;
    jet_rc rc;

    if (pf->state == JET_PAGER_ERROR)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' had a write "
                        "error; close and reopen it", pf->path);
    if (pf->state != JET_PAGER_OPEN) {
        pf->readers++;      /* already reading (or writing): nested */
        return JET_OK;
    }
    rc = pf->lock ? lock_wait(pf, JET_LOCK_SHARED, err) : JET_EIO;
    if (rc == JET_EIO) {
        /* a file system without locks (ENOLCK) still reads, as before
         * the pager had locks; it cannot tell a hot journal from a live
         * writer's, so it refuses to read past any */
        if (jet_os_exists(pf->jpath))
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' has a journal "
                            "'%s' and its file system has no locks to "
                            "tell whether it is hot", pf->path, pf->jpath);
        return JET_OK;
    }
    if (rc != JET_OK)
        return rc;
    /* Quiet: the file is as the cache last saw it, by a stamp that is not
     * racy (nothing was written since; CACHE VALIDITY). Then the file
     * is the consistent state it was when that stamp was taken (with no
     * hot journal: every stamp is taken after the check, or under our
     * own EXCLUSIVE), so a journal that is there now was left by a writer
     * that never wrote the database: playing it back would change
     * nothing, and reading skips the check (a stat of the journal's path
     * per statement). A write transaction still looks (jet_pager_begin):
     * its own journal would replace the one there. */
    have_st = jet_os_stamp_of(pf->fd, &st) == 0;
    pf->hot_unchecked = have_st && pf->stamped &&
                        same_stamp(&st, &pf->stamp, false);
    if (pf->hot_unchecked) {
        pf->state = JET_PAGER_READER;
        pf->readers = 1;
        return JET_OK;
    }
    changes = pf->changes;
    for (unsigned waited = 0, step = 1;;) {
        rc = recover_hot_journal(pf, err);
        if (rc == JET_OK)
            break;
        (void)jet_os_lock_release(pf->lock, JET_LOCK_NONE);
        if (rc != JET_EBUSY || waited >= pf->busy_ms)
            return rc;
        jet_os_sleep_ms(step);
        waited += step;
        if (step < 32)
            step *= 2;
        rc = lock_wait(pf, JET_LOCK_SHARED, err);
        if (rc != JET_OK)
            return rc;
        restamp = true;     /* unlocked meanwhile */
    }
    if (restamp || pf->changes != changes)  /* or rolled back */
        have_st = jet_os_stamp_of(pf->fd, &st) == 0;
    /* the cache is good while the file is as it last saw it */
    if (have_st &&
        (!pf->stamped || !same_stamp(&st, &pf->stamp, pf->stamp_trusted))) {
        if (pf->stamped) {
            drop_clean_pages(pf);
            pf->drops++;
        }
        rc = refresh_size(pf, err);
        if (rc != JET_OK) {
            (void)jet_os_lock_release(pf->lock, JET_LOCK_NONE);
            return rc;
        }
    }
    pf->state = JET_PAGER_READER;
    pf->readers = 1;
    return JET_OK;
}

void jet_pagefile_read_end(jet_pagefile *pf)
{
    if (pf->readers == 0)
        return;             /* unbalanced, or read without locks */
    if (--pf->readers > 0 || pf->state != JET_PAGER_READER)
        return;             /* the last one (or the writer) lets go */
    if (pf->lock)
        (void)jet_os_lock_release(pf->lock, JET_LOCK_NONE);
    pf->state = JET_PAGER_OPEN;
}

uint64_t jet_pagefile_drops(const jet_pagefile *pf)
{
    return pf->drops;
}

uint32_t jet_pagefile_readers(const jet_pagefile *pf)
{
    return pf->readers;
}

jet_rc jet_pager_begin(jet_pagefile *pf, jet_error *err)
{
    unsigned waited = 0, step = 1;
    jet_rc rc;
    int e;

    if (pf->state >= JET_PAGER_WRITER_LOCKED && pf->state != JET_PAGER_ERROR)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "a write transaction is already open");
    if (pf->ro_reason)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO, "%s",
                        pf->ro_reason);
    if (pf->page_size == 0)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "page size unknown");
    rc = open_for_writing(pf, err);
    if (rc != JET_OK)
        return rc;
    if (!pf->lock)
        return lock_wait(pf, JET_LOCK_RESERVED, err);   /* says why */
    pf->tx_from_open = pf->state == JET_PAGER_OPEN;
    for (;;) {
        rc = jet_pagefile_read_begin(pf, err);
        if (rc != JET_OK)
            return rc;
        if (pf->state != JET_PAGER_READER)
            return lock_wait(pf, JET_LOCK_RESERVED, err);  /* no locks */
        if (pf->hot_unchecked) {
            /* the read began quiet and did not look: a hot journal must
             * be rolled back before ours replaces it */
            rc = recover_hot_journal(pf, err);
            if (rc != JET_OK) {
                jet_pagefile_read_end(pf);
                return rc;
            }
            pf->hot_unchecked = false;
        }
        e = jet_os_lock_acquire(pf->lock, JET_LOCK_RESERVED);
        if (e == 0)
            break;
        /* the write transaction's own read hold goes again */
        jet_pagefile_read_end(pf);
        if (e != EBUSY)
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot lock '%s': "
                            "%s", pf->path, strerror(e));
        /* another writer. Waiting while holding SHARED would deadlock
         * with its commit (EXCLUSIVE waits for our SHARED): a read
         * transaction of the caller's gets EBUSY at once; our own is
         * dropped while we wait. */
        if (!pf->tx_from_open)
            return jet_fail(err, JET_EBUSY, JET_NO_PGNO, "'%s' is being "
                            "written by another connection; end this read "
                            "and retry", pf->path);
        if (waited >= pf->busy_ms)
            return jet_fail(err, JET_EBUSY, JET_NO_PGNO, "'%s' is being "
                            "written by another connection (waited %u ms)",
                            pf->path, waited);
        jet_os_sleep_ms(step);
        waited += step;
        if (step < 32)
            step *= 2;
    }
    pf->orig_page_count = pf->page_count;
    pf->orig_size = pf->size;
    pf->jsize = pf->jsynced = 0;
    pf->ndirty = 0;
    jet_free(pf->journaled);
    pf->journaled = jet_calloc((size_t)pf->orig_page_count / 8 + 1, 1);
    if (!pf->scratch)
        pf->scratch = jet_malloc(pf->page_size);
    if (!pf->journaled || !pf->scratch) {
        (void)jet_os_lock_release(pf->lock, JET_LOCK_SHARED);
        pf->state = JET_PAGER_READER;
        jet_pagefile_read_end(pf);
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    pf->state = JET_PAGER_WRITER_LOCKED;
    return JET_OK;
}

/* Create the journal, or take up the one kept from the last transaction
 * while it is still there (another connection may have removed it), and
 * write its header (WRITER_LOCKED -> DIRTY). */
static jet_rc open_journal(jet_pagefile *pf, jet_error *err)
{
    uint8_t h[JHDR_SIZE];
    bool same = false;
    int e;

    if (pf->jfd >= 0 &&
        (jet_os_same_file(pf->jfd, pf->jpath, &same) != 0 || !same)) {
        jet_os_close(pf->jfd);
        pf->jfd = -1;
    }
    if (pf->jfd < 0) {
        e = jet_os_create(&pf->jfd, pf->jpath, pf->path);
        if (e)
            return jet_fail(err, e == EACCES || e == EROFS
                                     ? JET_EUNSUPPORTED : JET_EIO,
                            JET_NO_PGNO, "cannot create the journal '%s': "
                            "%s", pf->jpath, strerror(e));
        pf->jdir_synced = false;
        pf->jkeep = jet_os_same_file(pf->jfd, pf->jpath, &same) == 0 &&
                    same;
    }
    if (!pf->jrec && !(pf->jrec = jet_malloc((size_t)pf->page_size + 8)))
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    jet_os_random(&pf->nonce, sizeof pf->nonce);
    memset(h, 0, sizeof h);
    memcpy(h, journal_magic, 8);
    put_u32(h + 8, JOURNAL_VERSION);
    put_u32(h + 12, pf->nonce);
    put_u32(h + 16, pf->page_size);
    put_u32(h + 20, pf->orig_page_count);
    put_u64(h + 24, pf->orig_size);
    put_u32(h + 32, checksum(0, h, 32));
    e = jet_os_pwrite(pf->jfd, h, sizeof h, 0);
    if (e) {
        jet_os_close(pf->jfd);
        pf->jfd = -1;
        (void)jet_os_unlink(pf->jpath);     /* never hot: no valid header */
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot write the "
                        "journal '%s': %s", pf->jpath, strerror(e));
    }
    pf->jsize = JHDR_SIZE;
    pf->state = JET_PAGER_WRITER_DIRTY;
    return JET_OK;
}

/* Append pgno's original on-disk image to the journal (first change of a
 * page that existed before the transaction). */
static jet_rc journal_page(jet_pagefile *pf, uint32_t pgno, jet_error *err)
{
    uint8_t *rec = pf->jrec;    /* pgno, the page, checksum: one write */
    size_t got = 0;
    int e;

    e = jet_os_pread(pf->fd, rec + 4, pf->page_size,
                     (uint64_t)pgno * pf->page_size, &got);
    if (e || got != pf->page_size)
        return jet_fail(err, JET_EIO, pgno, "cannot read page %u to "
                        "journal it: %s", pgno,
                        e ? strerror(e) : "short read");
    put_u32(rec, pgno);
    put_u32(rec + 4 + pf->page_size,
            record_checksum(pf->nonce, pgno, rec + 4, pf->page_size));
    e = jet_os_pwrite(pf->jfd, rec, (size_t)pf->page_size + 8, pf->jsize);
    if (e)
        return jet_fail(err, JET_EIO, pgno, "cannot write the journal "
                        "'%s': %s", pf->jpath, strerror(e));
    pf->jsize += (uint64_t)pf->page_size + 8;
    pf->journaled[pgno / 8] |= (uint8_t)(1u << (pgno % 8));
    return JET_OK;
}

/* Sync the journal (and, once, its directory) when records were added
 * since the last sync; then hold EXCLUSIVE (DIRTY -> DBMOD). */
static jet_rc sync_journal(jet_pagefile *pf, jet_error *err)
{
    int e;
    jet_rc rc;
    if (pf->jsize > pf->jsynced) {
        if ((e = jet_os_fsync(pf->jfd)) != 0)
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync the "
                            "journal '%s': %s", pf->jpath, strerror(e));
        pf->jsynced = pf->jsize;
    }
    if (!pf->jdir_synced) {
        if ((e = jet_os_sync_dir(pf->jpath)) != 0)
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync the "
                            "directory of '%s': %s", pf->jpath,
                            strerror(e));
        pf->jdir_synced = true;
    }
    rc = lock_wait(pf, JET_LOCK_EXCLUSIVE, err);
    if (rc != JET_OK)
        return rc;
    pf->state = JET_PAGER_WRITER_DBMOD;
    return JET_OK;
}

/* Write one dirty slot's page to the database, encoded. */
static jet_rc write_page(jet_pagefile *pf, uint32_t idx, jet_error *err)
{
    slot *s = &pf->slots[idx];
    const uint8_t *src = s->buf + SLOT_HDR;
    int e;

    if (pf->codec && s->pgno != 0) {
        jet_rc rc;
        memcpy(pf->scratch, src, pf->page_size);
        rc = jet_codec_encode(pf->codec, s->pgno, pf->scratch,
                              pf->page_size);
        if (rc != JET_OK)
            return jet_fail(err, rc, s->pgno, "cannot encode page %u",
                            s->pgno);
        src = pf->scratch;
    }
    e = jet_os_pwrite(pf->wfd, src, pf->page_size,
                      (uint64_t)s->pgno * pf->page_size);
    if (e)
        return jet_fail(err, JET_EIO, s->pgno, "cannot write page %u of "
                        "'%s': %s", s->pgno, pf->path, strerror(e));
    return JET_OK;
}

static int cmp_slot_pgno_ctx(const jet_pagefile *pf, uint32_t a, uint32_t b)
{
    return pf->slots[a].pgno < pf->slots[b].pgno ? -1
         : pf->slots[a].pgno > pf->slots[b].pgno;
}

/* Sort the dirty list by pgno (insertion sort on runs that are mostly in
 * order already: pages are dirtied roughly ascending). */
static void sort_dirty(jet_pagefile *pf)
{
    for (uint32_t i = 1; i < pf->ndirty; i++) {
        uint32_t v = pf->dirty[i], j = i;
        while (j > 0 && cmp_slot_pgno_ctx(pf, pf->dirty[j - 1], v) > 0) {
            pf->dirty[j] = pf->dirty[j - 1];
            j--;
        }
        pf->dirty[j] = v;
    }
}

/* Make slot idx clean: drop its dirty pin. */
void jet_pf_mark_clean(jet_pagefile *pf, uint32_t idx)
{
    slot *s = &pf->slots[idx];
    s->dirty = 0;
    s->pins--;
}

/*
 * Spill: write to the database the dirty pages no caller pins (the cache
 * is full of dirty pages), after syncing the journal. Returns how many
 * slots it freed in *freed.
 */
static jet_rc spill(jet_pagefile *pf, uint32_t *freed, jet_error *err)
{
    uint32_t keep = 0;
    jet_rc rc;

    *freed = 0;
    rc = sync_journal(pf, err);
    if (rc != JET_OK)
        return rc;
    sort_dirty(pf);
    for (uint32_t i = 0; i < pf->ndirty; i++) {
        uint32_t idx = pf->dirty[i];
        if (pf->slots[idx].pins > 1) {
            pf->dirty[keep++] = idx;
            continue;
        }
        rc = write_page(pf, idx, err);
        if (rc != JET_OK) {
            /* keep the list whole for rollback */
            for (uint32_t j = i; j < pf->ndirty; j++)
                pf->dirty[keep++] = pf->dirty[j];
            pf->ndirty = keep;
            return rc;
        }
        jet_pf_mark_clean(pf, idx);
        (*freed)++;
    }
    pf->ndirty = keep;
    return JET_OK;
}

/* Record slot idx as dirty (it is pinned by the caller already). */
static jet_rc add_dirty(jet_pagefile *pf, uint32_t idx, jet_error *err)
{
    if (pf->ndirty == pf->capdirty) {
        uint32_t cap = pf->capdirty ? 2 * pf->capdirty : 64;
        uint32_t *d = jet_realloc(pf->dirty, cap * sizeof *d);
        if (!d)
            return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        pf->dirty = d;
        pf->capdirty = cap;
    }
    pf->dirty[pf->ndirty++] = idx;
    pf->slots[idx].dirty = 1;
    pf->slots[idx].pins++;
    return JET_OK;
}

jet_rc jet_pf_check_writing(jet_pagefile *pf, jet_error *err)
{
    if (pf->state == JET_PAGER_ERROR)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' had a write "
                        "error; close and reopen it", pf->path);
    if (pf->sp_broken)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "a statement's changes "
                        "could not be undone; the transaction can only be "
                        "rolled back");
    if (pf->state < JET_PAGER_WRITER_LOCKED)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_pager_begin)");
    if (pf->state == JET_PAGER_WRITER_LOCKED)
        return open_journal(pf, err);
    return JET_OK;
}

/* Pin pgno, spilling dirty pages when the cache is full of them. */
static jet_rc pin_for_write(jet_pagefile *pf, uint32_t pgno,
                            const uint8_t **p, jet_error *err)
{
    jet_rc rc = jet_page_pin(pf, pgno, p, err);
    if (rc == JET_ELIMIT && pf->ndirty > 0) {
        uint32_t freed = 0;
        rc = spill(pf, &freed, err);
        if (rc != JET_OK)
            return rc;
        rc = jet_page_pin(pf, pgno, p, err);
    }
    return rc;
}

jet_rc jet_page_write(jet_pagefile *pf, uint32_t pgno, uint8_t **out,
                      jet_error *err)
{
    const uint8_t *p;
    uint32_t idx;
    jet_rc rc;

    *out = NULL;
    rc = jet_pf_check_writing(pf, err);
    if (rc != JET_OK)
        return rc;
    pf->changes++;      /* the caller changes the page's bytes */
    rc = pin_for_write(pf, pgno, &p, err);
    if (rc != JET_OK)
        return rc;
    memcpy(&idx, p - SLOT_HDR, sizeof idx);
    if (!pf->slots[idx].dirty) {
        if (pgno < pf->orig_page_count &&
            !(pf->journaled[pgno / 8] & (1u << (pgno % 8)))) {
            /* in DBMOD too: sync_journal runs again before this page
             * reaches the file (commit and spill start with it) */
            rc = journal_page(pf, pgno, err);
        }
        if (rc == JET_OK)
            rc = add_dirty(pf, idx, err);
        if (rc != JET_OK) {
            jet_page_unpin(pf, p);
            return rc;
        }
    }
    if (pf->nsps > 0 && (rc = jet_pf_sp_capture(pf, pgno, p, err)) != JET_OK) {
        jet_page_unpin(pf, p);      /* the page stays dirty, unchanged */
        return rc;
    }
    *out = (uint8_t *)(uintptr_t)p;
    return JET_OK;
}

jet_rc jet_page_alloc(jet_pagefile *pf, uint32_t *pgno, uint8_t **out,
                      jet_error *err)
{
    uint32_t idx;
    bool nomem;
    slot *v;
    jet_rc rc;

    *out = NULL;
    rc = jet_pf_check_writing(pf, err);
    if (rc != JET_OK)
        return rc;
    pf->changes++;
    if (pf->page_count >= UINT32_MAX - 1 ||
        ((uint64_t)pf->page_count + 1) * pf->page_size > 0x80000000ull)
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO, "the file would "
                        "pass 2 GB, the largest an Access file can be");
    idx = claim_slot(pf, &nomem);
    if (idx == NO_SLOT && !nomem && pf->ndirty > 0) {
        uint32_t freed = 0;
        rc = spill(pf, &freed, err);
        if (rc != JET_OK)
            return rc;
        idx = claim_slot(pf, &nomem);
    }
    if (idx == NO_SLOT)
        return nomem ? jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory")
                     : jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                                "page cache exhausted: all %u pages pinned",
                                pf->nslots);
    v = &pf->slots[idx];
    memset(v->buf + SLOT_HDR, 0, pf->page_size);
    hash_insert(pf, idx, pf->page_count);
    v->pins = 1;
    v->ref = true;
    rc = add_dirty(pf, idx, err);
    if (rc != JET_OK) {
        v->pins = 0;
        jet_pf_hash_remove(pf, idx);
        return rc;
    }
    *pgno = pf->page_count++;
    pf->size = (uint64_t)pf->page_count * pf->page_size;
    *out = v->buf + SLOT_HDR;
    return JET_OK;
}

/* End a write transaction: back to SHARED (READER), then the write
 * transaction's own read hold goes, so that the lock falls to none only
 * when no read transaction opened before or during the write is left. */
static void end_transaction(jet_pagefile *pf)
{
    jet_pf_sp_clear(pf);
    jet_free(pf->journaled);
    pf->journaled = NULL;
    if (pf->lock)
        (void)jet_os_lock_release(pf->lock, JET_LOCK_SHARED);
    pf->state = JET_PAGER_READER;
    jet_pagefile_read_end(pf);
}

/* Forget every dirty page of the cache (their slots become free). */
static void discard_dirty(jet_pagefile *pf)
{
    pf->changes++;
    for (uint32_t i = 0; i < pf->ndirty; i++) {
        uint32_t idx = pf->dirty[i];
        slot *s = &pf->slots[idx];
        jet_pf_mark_clean(pf, idx);
        if (s->pgno != UINT32_MAX)
            jet_pf_hash_remove(pf, idx);
        s->ref = false;
    }
    pf->ndirty = 0;
}

/* Enter ERROR: the file may be half written and could not be restored;
 * drop the locks so that another connection can roll the journal back. */
static jet_rc enter_error(jet_pagefile *pf, jet_rc rc)
{
    jet_pf_sp_clear(pf);
    discard_dirty(pf);
    drop_clean_pages(pf);
    if (pf->jfd >= 0) {
        jet_os_close(pf->jfd);
        pf->jfd = -1;
    }
    if (pf->lock)
        (void)jet_os_lock_release(pf->lock, JET_LOCK_NONE);
    pf->state = JET_PAGER_ERROR;
    pf->readers = 0;
    return rc;
}

jet_rc jet_pager_commit(jet_pagefile *pf, jet_error *err)
{
    jet_rc rc;
    int e;

    if (pf->state == JET_PAGER_ERROR || pf->state < JET_PAGER_WRITER_LOCKED)
        return jet_pf_check_writing(pf, err);
    if (pf->sp_broken) {
        /* half a statement must not be committed: none of it is */
        rc = jet_pf_check_writing(pf, err);
        if (jet_pager_rollback(pf, NULL) != JET_OK &&
            pf->state != JET_PAGER_ERROR)
            (void)enter_error(pf, rc);
        return rc;
    }
    if (pf->state == JET_PAGER_WRITER_LOCKED) {
        end_transaction(pf);
        return JET_OK;
    }
    rc = sync_journal(pf, err);
    if (rc == JET_OK) {
        sort_dirty(pf);
        for (uint32_t i = 0; i < pf->ndirty && rc == JET_OK; i++)
            rc = write_page(pf, pf->dirty[i], err);
    }
    if (rc == JET_OK && (e = jet_os_fsync(pf->wfd)) != 0)
        rc = jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync '%s': %s",
                      pf->path, strerror(e));
    if (rc == JET_OK) {
        advance_stamp(pf);
        rc = finish_journal(pf, true, err);
    }
    if (rc != JET_OK) {
        jet_error keep;
        if (err)
            keep = *err;
        /* restore the file from the journal; the caller's error stays */
        if (jet_pager_rollback(pf, NULL) != JET_OK && pf->state !=
                                                          JET_PAGER_ERROR)
            (void)enter_error(pf, rc);
        if (err)
            *err = keep;
        return rc;
    }
    for (uint32_t i = 0; i < pf->ndirty; i++)
        jet_pf_mark_clean(pf, pf->dirty[i]);
    pf->ndirty = 0;
    /* still EXCLUSIVE: the file is what the cache holds, and any later
     * commit moves its time past this stamp's (advance_stamp) */
    pf->stamped = jet_os_stamp_of(pf->fd, &pf->stamp) == 0;
    pf->stamp_trusted = pf->stamped && fine_time(pf->stamp.mtime_ns);
    end_transaction(pf);
    return JET_OK;
}

jet_rc jet_pager_rollback(jet_pagefile *pf, jet_error *err)
{
    jet_rc rc = JET_OK;
    bool db_written = pf->state == JET_PAGER_WRITER_DBMOD;

    if (pf->state == JET_PAGER_ERROR || pf->state < JET_PAGER_WRITER_LOCKED)
        return jet_pf_check_writing(pf, err);
    if (pf->state == JET_PAGER_WRITER_DBMOD) {
        /* database pages may be written: put the originals back */
        if (pf->jfd < 0 && jet_os_open(&pf->jfd, pf->jpath, NULL) != 0)
            pf->jfd = -1;
        rc = pf->jfd >= 0 ? playback(pf, pf->jfd, err)
                          : jet_fail(err, JET_EIO, JET_NO_PGNO,
                                     "the journal '%s' is gone", pf->jpath);
        if (rc != JET_OK)
            return enter_error(pf, rc);
        drop_clean_pages(pf);
    }
    discard_dirty(pf);
    if (pf->state >= JET_PAGER_WRITER_DIRTY) {
        rc = finish_journal(pf, false, err);
        if (rc != JET_OK)
            return enter_error(pf, rc);
    }
    pf->page_count = pf->orig_page_count;
    pf->size = pf->orig_size;
    if (db_written) {
        /* the journal put the pages back: their times are new */
        pf->stamped = jet_os_stamp_of(pf->fd, &pf->stamp) == 0;
        pf->stamp_trusted = false;
    }
    end_transaction(pf);
    return JET_OK;
}
