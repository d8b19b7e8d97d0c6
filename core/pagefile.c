/*
 * pagefile.c - read-only page access with a bounded LRU page cache.
 *
 * Pages are read with pread into cache slots and decoded by the page codec
 * (Jet RC4, ACE agile AES / RC4 CryptoAPI) when one is installed; page 0 is never codec-decoded (its mask
 * is format.c's job). Callers pin a page, use its bytes, and unpin it.
 * Invariants:
 *   1. A pinned slot is never evicted or rewritten.
 *   1a. Lookup is a hash of pgno -> slot; eviction is a clock sweep over
 *       unpinned slots, so pin and unpin cost O(1) amortised.
 *   2. The cache never holds more than its configured slot count; when all
 *      slots are pinned, jet_page_pin() fails with JET_ELIMIT.
 *   3. Every pgno handed out is below the page count derived from the file
 *      size, else JET_ECORRUPT.
 *   4. Read-ahead (jet_pagefile_read_ahead) only fills slots it claimed by
 *      the same clock sweep, with listed pages not yet cached, and leaves
 *      them unpinned: it never grows the cache past its slot count and
 *      takes at most a quarter of it per request (of READAHEAD_BYTES at
 *      most); bridged unlisted pages land in one junk page, not the cache.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "internal.h"
#include "os.h"

#define DEFAULT_CACHE_PAGES 256
#define MIN_CACHE_PAGES 8
#define NO_SLOT UINT32_MAX
/* each page buffer starts with a small header naming its slot, so unpin
 * finds the slot from the data pointer in O(1) */
#define SLOT_HDR 16
/* largest read-ahead request in bytes (and a quarter of the cache at most) */
#define READAHEAD_BYTES (256u * 1024u)
#define READAHEAD_MAX_PAGES (READAHEAD_BYTES / 2048u)
/* unlisted pages a read-ahead request reads through (into a junk page)
 * rather than split in two: Jackcess and Access put a table's index pages
 * between its data pages every 20-odd pages */
#define READAHEAD_GAP 8u
/* slot buffers come in pools (jet_pool_alloc: committed at once, no page
 * fault per page read) of this many slots at first, then as many as the
 * slots already made (so a pool is at most the cache's size), at most */
#define POOL_FIRST_SLOTS 16u
#define POOL_MAX_SLOTS 1024u

typedef struct slot {
    uint8_t *buf;       /* SLOT_HDR bytes of slot index, then the page;
                         * inside one of jet_pagefile.pools */
    uint32_t pgno;      /* UINT32_MAX when empty */
    uint32_t pins;
    uint32_t hnext;     /* next slot in the hash chain, NO_SLOT at the end */
    bool ref;           /* clock reference bit */
    bool listed;        /* on jet_pagefile.reuse */
} slot;

struct jet_pagefile {
    int fd;
    uint64_t size;
    uint32_t page_size;
    uint32_t page_count;
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
    uint64_t reads;     /* pages read (jet_db_pages_read) */
    uint64_t requests;  /* read requests issued to the OS */
    uint64_t bytes;     /* bytes those requests returned */
    /* read-ahead scratch: claimed slots, the request's page buffers, and
     * one junk page receiving the unlisted pages of a bridged gap */
    uint32_t ra_slot[READAHEAD_MAX_PAGES];
    uint8_t *ra_buf[READAHEAD_MAX_PAGES];
    uint8_t *junk;
};

static uint32_t bucket_of(const jet_pagefile *pf, uint32_t pgno)
{
    return (pgno * 2654435761u) & (pf->nbuckets - 1);
}

static void hash_remove(jet_pagefile *pf, uint32_t idx)
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
    jet_os_advise_sequential(pf->fd);
    *out = pf;
    return JET_OK;
}

void jet_pagefile_close(jet_pagefile *pf)
{
    if (!pf)
        return;
    for (uint32_t i = 0; i < pf->npools; i++)
        jet_pool_free(pf->pools[i]);
    jet_free(pf->pools);
    jet_free(pf->slots);
    jet_free(pf->reuse);
    jet_free(pf->buckets);
    jet_free(pf->junk);
    jet_os_close(pf->fd);
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

uint32_t jet_pagefile_page_count(const jet_pagefile *pf)
{
    return pf->page_count;
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
static uint32_t lookup(const jet_pagefile *pf, uint32_t pgno)
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
    }
    uint8_t *b = pf->carve;
    pf->carve += each;
    pf->carve_left--;
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
        hash_remove(pf, victim);
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
        if (check_cache && lookup(pf, p) != NO_SLOT)
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
        lookup(pf, pgnos[0]) != NO_SLOT)
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
    idx = lookup(pf, pgno);
    if (idx != NO_SLOT) {
        slot *s = &pf->slots[idx];
        s->pins++;
        s->ref = true;
        *out = s->buf + SLOT_HDR;
        return JET_OK;
    }
    victim = claim_slot(pf, &nomem);
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
        pf->slots[idx].pins == 0)
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
        pf->slots[idx].pins > 0)
        pf->slots[idx].pins--;
}
