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

typedef struct slot {
    uint8_t *buf;       /* SLOT_HDR bytes of slot index, then the page */
    uint32_t pgno;      /* UINT32_MAX when empty */
    uint32_t pins;
    uint32_t hnext;     /* next slot in the hash chain, NO_SLOT at the end */
    bool ref;           /* clock reference bit */
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
    uint64_t reads;
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
    int e;

    *out = NULL;
    pf = jet_calloc(1, sizeof *pf);
    if (!pf)
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    pf->fd = -1;
    e = jet_os_open(&pf->fd, path);
    if (e) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot open %s: %s",
                        path, strerror(e));
    }
    e = jet_os_size(pf->fd, &pf->size);
    if (e) {
        jet_pagefile_close(pf);
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot stat %s: %s",
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
    if (!pf->slots || !pf->buckets) {
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
    if (pf->slots) {
        for (uint32_t i = 0; i < pf->nslots; i++)
            jet_free(pf->slots[i].buf);
        jet_free(pf->slots);
    }
    jet_free(pf->buckets);
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

jet_rc jet_page_pin(jet_pagefile *pf, uint32_t pgno, const uint8_t **out,
                    jet_error *err)
{
    uint32_t idx, victim = NO_SLOT;
    slot *v;
    jet_rc rc;

    *out = NULL;
    if (pf->page_size == 0)
        return jet_fail(err, JET_ECORRUPT, pgno, "page size unknown");
    if (pgno >= pf->page_count)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "page %u is past the end of the file (%u pages)",
                        pgno, pf->page_count);
    for (idx = pf->buckets[bucket_of(pf, pgno)]; idx != NO_SLOT;
         idx = pf->slots[idx].hnext) {
        slot *s = &pf->slots[idx];
        if (s->pgno == pgno) {
            s->pins++;
            s->ref = true;
            *out = s->buf + SLOT_HDR;
            return JET_OK;
        }
    }
    /* clock sweep: two turns clear every reference bit */
    for (uint32_t n = 0; n < 2 * pf->nslots + 1; n++) {
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
        return jet_fail(err, JET_ELIMIT, pgno,
                        "page cache exhausted: all %u pages pinned",
                        pf->nslots);
    v = &pf->slots[victim];
    if (!v->buf) {
        v->buf = jet_malloc(SLOT_HDR + pf->page_size);
        if (!v->buf)
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        memcpy(v->buf, &victim, sizeof victim);
    }
    if (v->pgno != UINT32_MAX)
        hash_remove(pf, victim);
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
