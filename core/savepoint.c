/*
 * savepoint.c - statement savepoints of the pager (pagefile.c).
 *
 * A statement savepoint is a mark in the transaction's page changes
 * (jet_pager_savepoint). Savepoints nest: level 0 is the oldest. Each
 * level keeps the page count at its mark and the set of pages changed
 * since, each with the image the page had at the mark:
 *   - the first jet_page_write of a page after the newest mark copies the
 *     page as it is (decoded, from the cache) into the image pool, and
 *     records it in every open level that lacks the page and had it at
 *     its mark (pgno below the level's page count). A page in level j is
 *     then in every level below j too, so the walk down stops at the
 *     first level that has it;
 *   - pages appended after a mark need no image: rolling back to the
 *     mark drops them (the page count goes back; spilled ones are cut off
 *     the file, whose journal already keeps the transaction's start);
 *   - jet_pager_rollback_to(k) writes level k's images back into the
 *     cache (the pages stay dirty with their old bytes, so the commit
 *     writes what was there), drops pages appended since, forgets the
 *     levels above k and empties k; images taken after k's mark go;
 *   - jet_pager_release(k) forgets levels k and above, and the images
 *     only they needed (each image knows the oldest level it serves);
 *     the others stay for the levels below (all go when level 0 goes).
 * Images live in memory up to sp_mem_max bytes (SP_MEM_BYTES), the rest
 * in slots of page size in an anonymous temporary file (jet_os_temp_open,
 * opened at the first image past the budget, closed when the last image
 * goes): a statement may change any number of pages, with memory bounded
 * by the budget plus about 20 bytes per changed page. Slots of images
 * that go are reused (the sp_free stack). The file is not the journal:
 * a crash loses it and nothing else (the journal restores the file from
 * the transaction's start), so it is neither synced nor fault-hooked.
 * If putting the images back fails half way (the temporary file cannot be
 * read, no memory for a cache page), the transaction is marked broken:
 * every later write and the commit refuse, and only jet_pager_rollback of
 * the whole transaction (which the journal does exactly) is left.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"
#include "os.h"
#include "pagefile_priv.h"

#define SP_MAX_LEVELS 64u

typedef struct sp_level {
    uint32_t page_count;    /* pages at the mark */
    uint32_t nimgs;         /* images in the pool at the mark */
    uint32_t *keys;         /* open addressing: pgno + 1, 0 = empty */
    uint32_t cap, n;        /* cap a power of two (or 0) */
} sp_level;

static bool sp_has(const sp_level *l, uint32_t pgno)
{
    if (l->cap == 0)
        return false;
    for (uint32_t h = (pgno * 2654435761u) & (l->cap - 1);;
         h = (h + 1) & (l->cap - 1)) {
        if (l->keys[h] == 0)
            return false;
        if (l->keys[h] == pgno + 1)
            return true;
    }
}

/* Add pgno to l's set (the image for it is img_pgno's newest entry of
 * that page at or after l's mark: found again by a scan at rollback). */
static jet_rc sp_add(sp_level *l, uint32_t pgno)
{
    if (2 * (l->n + 1) > l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 64, *k = jet_calloc(cap, 4);
        if (!k)
            return JET_ENOMEM;
        for (uint32_t i = 0; i < l->cap; i++) {
            uint32_t v = l->keys[i], h;
            if (!v)
                continue;
            for (h = ((v - 1) * 2654435761u) & (cap - 1); k[h];
                 h = (h + 1) & (cap - 1))
                ;
            k[h] = v;
        }
        jet_free(l->keys);
        l->keys = k;
        l->cap = cap;
    }
    uint32_t h = (pgno * 2654435761u) & (l->cap - 1);
    while (l->keys[h])
        h = (h + 1) & (l->cap - 1);
    l->keys[h] = pgno + 1;
    l->n++;
    return JET_OK;
}

static void sp_level_free(sp_level *l)
{
    jet_free(l->keys);
    l->keys = NULL;
    l->cap = l->n = 0;
}

/* Let go of an image: its memory, or its slot of the temporary file. */
static void img_release(jet_pagefile *pf, uint8_t *mem, uint32_t fslot)
{
    if (mem) {
        jet_free(mem);
        pf->nmem--;
    } else {
        pf->sp_free[pf->nfree++] = fslot;   /* room: sp_slots of them */
    }
}

/* Keep page (page_size bytes) as an image: in memory within the budget,
 * else in a slot of the temporary file. *mem is the memory copy or NULL
 * with the slot in *fslot. JET_ENOMEM, JET_EIO (the file). */
static jet_rc img_store(jet_pagefile *pf, uint32_t pgno, const uint8_t *page,
                        uint8_t **mem, uint32_t *fslot, jet_error *err)
{
    uint32_t k;
    int e;

    *mem = NULL;
    *fslot = 0;
    if ((uint64_t)(pf->nmem + 1) * pf->page_size <= pf->sp_mem_max) {
        *mem = jet_malloc(pf->page_size);
        if (!*mem)
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        memcpy(*mem, page, pf->page_size);
        pf->nmem++;
        return JET_OK;
    }
    if (pf->sp_fd < 0 && (e = jet_os_temp_open(&pf->sp_fd)) != 0)
        return jet_fail(err, JET_EIO, pgno, "cannot create a temporary "
                        "file for the statement's page images: %s",
                        strerror(e));
    if (pf->nfree > 0) {
        k = pf->sp_free[--pf->nfree];
    } else {
        /* the free stack has room for every slot ever handed out */
        uint32_t *f = jet_realloc(pf->sp_free, ((size_t)pf->sp_slots + 1) *
                                               sizeof *f);
        if (!f)
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        pf->sp_free = f;
        k = pf->sp_slots++;
    }
    e = jet_os_pwrite_unhooked(pf->sp_fd, page, pf->page_size,
                               (uint64_t)k * pf->page_size);
    if (e) {
        pf->sp_free[pf->nfree++] = k;
        return jet_fail(err, JET_EIO, pgno, "cannot write the statement's "
                        "page images to a temporary file: %s", strerror(e));
    }
    *fslot = k;
    return JET_OK;
}

/* Drop the images from index n on; with the last one, the file goes. */
static void sp_truncate_imgs(jet_pagefile *pf, uint32_t n)
{
    while (pf->nimgs > n) {
        pf->nimgs--;
        img_release(pf, pf->imgs[pf->nimgs], pf->img_slot[pf->nimgs]);
    }
    if (pf->nimgs == 0 && pf->sp_fd >= 0) {
        jet_os_close(pf->sp_fd);
        pf->sp_fd = -1;
        pf->sp_slots = pf->nfree = 0;
    }
}

/* Forget every savepoint and image (end of the transaction). */
void jet_pf_sp_clear(jet_pagefile *pf)
{
    for (uint32_t i = 0; i < pf->nsps; i++)
        sp_level_free(&pf->sps[i]);
    pf->nsps = 0;
    sp_truncate_imgs(pf, 0);
    pf->sp_broken = false;
}

/* Before page pgno (bytes page) changes: its image for the open levels
 * that need one (the walk described above). */
jet_rc jet_pf_sp_capture(jet_pagefile *pf, uint32_t pgno,
                         const uint8_t *page, jet_error *err)
{
    uint32_t top = pf->nsps, lo = top, fslot;
    uint8_t *img;
    jet_rc rc;

    while (lo > 0 && pgno < pf->sps[lo - 1].page_count &&
           !sp_has(&pf->sps[lo - 1], pgno))
        lo--;
    if (lo == top)
        return JET_OK;          /* kept already, or appended since */
    if (pf->nimgs == UINT32_MAX)
        return jet_fail(err, JET_ELIMIT, pgno, "too many page images");
    if (pf->nimgs == pf->capimgs) {
        uint32_t cap = pf->capimgs ? 2 * pf->capimgs : 64;
        uint8_t **im = jet_realloc(pf->imgs, cap * sizeof *im);
        if (im)
            pf->imgs = im;
        uint32_t *ip = im ? jet_realloc(pf->img_pgno, cap * sizeof *ip)
                          : NULL;
        if (ip)
            pf->img_pgno = ip;
        uint32_t *is = ip ? jet_realloc(pf->img_slot, cap * sizeof *is)
                          : NULL;
        if (is)
            pf->img_slot = is;
        uint8_t *il = is ? jet_realloc(pf->img_lo, cap) : NULL;
        if (!il)
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        pf->img_lo = il;
        pf->capimgs = cap;
    }
    if ((rc = img_store(pf, pgno, page, &img, &fslot, err)) != JET_OK)
        return rc;
    for (uint32_t j = lo; j < top; j++) {
        if (sp_add(&pf->sps[j], pgno) != JET_OK) {
            /* levels lo..j-1 name the page but have no image: undo */
            img_release(pf, img, fslot);
            for (uint32_t k = lo; k < j; k++) {
                sp_level *l = &pf->sps[k];
                for (uint32_t h = 0; h < l->cap; h++)
                    if (l->keys[h] == pgno + 1) {
                        /* rebuild without it */
                        uint32_t *old = l->keys, cap = l->cap;
                        l->keys = NULL;
                        l->cap = l->n = 0;
                        for (uint32_t m = 0; m < cap; m++)
                            if (old[m] && old[m] != pgno + 1)
                                (void)sp_add(l, old[m] - 1);
                        jet_free(old);
                        break;
                    }
            }
            return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        }
    }
    pf->imgs[pf->nimgs] = img;
    pf->img_slot[pf->nimgs] = fslot;
    pf->img_lo[pf->nimgs] = (uint8_t)lo;
    pf->img_pgno[pf->nimgs++] = pgno;
    return JET_OK;
}

jet_rc jet_pager_savepoint(jet_pagefile *pf, uint32_t *sp, jet_error *err)
{
    if (pf->state == JET_PAGER_ERROR || pf->state < JET_PAGER_WRITER_LOCKED ||
        pf->sp_broken)
        return jet_pf_check_writing(pf, err);
    if (pf->nsps == SP_MAX_LEVELS)
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO, "more than %u nested "
                        "savepoints", SP_MAX_LEVELS);
    if (pf->nsps == pf->capsps) {
        uint32_t cap = pf->capsps ? 2 * pf->capsps : 4;
        sp_level *l = jet_realloc(pf->sps, cap * sizeof *l);
        if (!l)
            return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        pf->sps = l;
        pf->capsps = cap;
    }
    memset(&pf->sps[pf->nsps], 0, sizeof pf->sps[0]);
    pf->sps[pf->nsps].page_count = pf->page_count;
    pf->sps[pf->nsps].nimgs = pf->nimgs;
    *sp = pf->nsps++;
    return JET_OK;
}

/* Drop pages appended at or after page count n: out of the cache (dirty
 * ones lose their dirty pin) and, when spilled, off the file's end. */
static jet_rc sp_drop_appended(jet_pagefile *pf, uint32_t n, jet_error *err)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < pf->ndirty; i++) {
        uint32_t idx = pf->dirty[i];
        if (pf->slots[idx].pgno >= n && pf->slots[idx].pgno != UINT32_MAX)
            jet_pf_mark_clean(pf, idx);
        else
            pf->dirty[keep++] = idx;
    }
    pf->ndirty = keep;
    for (uint32_t p = n; p < pf->page_count; p++) {
        uint32_t idx = jet_pf_lookup(pf, p);
        if (idx != NO_SLOT && pf->slots[idx].pins == 0) {
            jet_pf_hash_remove(pf, idx);
            pf->slots[idx].ref = false;
        }
    }
    if (pf->page_count > n && pf->state == JET_PAGER_WRITER_DBMOD) {
        uint64_t have = 0;
        int e = jet_os_size(pf->wfd, &have);
        if (e == 0 && have > (uint64_t)n * pf->page_size)
            e = jet_os_ftruncate(pf->wfd, (uint64_t)n * pf->page_size);
        if (e)
            return jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot truncate "
                            "'%s': %s", pf->path, strerror(e));
    }
    pf->page_count = n;
    pf->size = (uint64_t)n * pf->page_size;
    return JET_OK;
}

/* A rollback to a savepoint failed with rc half way: the transaction can
 * only be rolled back whole now (check_writing says so to every write). */
static jet_rc mark_broken(jet_pagefile *pf, jet_rc rc)
{
    if (pf->state != JET_PAGER_ERROR)
        pf->sp_broken = true;
    return rc;
}

jet_rc jet_pager_rollback_to(jet_pagefile *pf, uint32_t sp, jet_error *err)
{
    sp_level *l;
    jet_rc rc;

    if (pf->state == JET_PAGER_ERROR || pf->state < JET_PAGER_WRITER_LOCKED ||
        pf->sp_broken)
        return jet_pf_check_writing(pf, err);
    if (sp >= pf->nsps)
        return jet_fail(err, JET_ENOTFOUND, JET_NO_PGNO, "no savepoint %u",
                        sp);
    pf->changes++;
    for (uint32_t j = sp + 1; j < pf->nsps; j++)
        sp_level_free(&pf->sps[j]);
    pf->nsps = sp + 1;
    l = &pf->sps[sp];
    /* the oldest image of a page taken after the mark is its image at
     * the mark: write images back newest first, so the oldest wins */
    for (uint32_t i = pf->nimgs; i-- > l->nimgs;) {
        uint8_t *page;
        size_t got = 0;
        int e = 0;
        if (pf->img_pgno[i] >= l->page_count)
            continue;
        rc = jet_page_write(pf, pf->img_pgno[i], &page, err);
        if (rc != JET_OK)
            return mark_broken(pf, rc);
        if (pf->imgs[i])
            memcpy(page, pf->imgs[i], pf->page_size);
        else if ((e = jet_os_pread(pf->sp_fd, page, pf->page_size,
                                   (uint64_t)pf->img_slot[i] *
                                   pf->page_size, &got)) != 0 ||
                 got != pf->page_size)
            rc = jet_fail(err, JET_EIO, pf->img_pgno[i], "cannot read the "
                          "statement's page images back: %s",
                          e ? strerror(e) : "short read");
        jet_page_unpin(pf, page);
        if (rc != JET_OK)
            return mark_broken(pf, rc);
    }
    rc = sp_drop_appended(pf, l->page_count, err);
    if (rc != JET_OK)
        return mark_broken(pf, rc);
    sp_truncate_imgs(pf, l->nimgs);
    sp_level_free(l);
    return JET_OK;
}

void jet_pager_release(jet_pagefile *pf, uint32_t sp)
{
    if (sp >= pf->nsps)
        return;
    uint32_t base = pf->sps[sp].nimgs, keep = base;
    for (uint32_t j = sp; j < pf->nsps; j++)
        sp_level_free(&pf->sps[j]);
    pf->nsps = sp;
    if (sp == 0) {
        sp_truncate_imgs(pf, 0);
        return;
    }
    /* images taken since sp's mark that serve only sp and the levels
     * above it go now: a statement's savepoint per row inside an array's
     * savepoint keeps one image per page, not one per row */
    for (uint32_t i = base; i < pf->nimgs; i++) {
        if (pf->img_lo[i] < sp) {
            pf->imgs[keep] = pf->imgs[i];
            pf->img_pgno[keep] = pf->img_pgno[i];
            pf->img_slot[keep] = pf->img_slot[i];
            pf->img_lo[keep++] = pf->img_lo[i];
        } else {
            img_release(pf, pf->imgs[i], pf->img_slot[i]);
        }
    }
    pf->nimgs = keep;
    sp_truncate_imgs(pf, keep);     /* the file goes with the last image */
}

void jet_pager_set_savepoint_memory(jet_pagefile *pf, size_t bytes)
{
    pf->sp_mem_max = bytes;
}

void jet_pager_savepoint_images(const jet_pagefile *pf, uint32_t *in_memory,
                                uint32_t *in_file)
{
    *in_memory = pf->nmem;
    *in_file = pf->nimgs - pf->nmem;
}
