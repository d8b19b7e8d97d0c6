/*
 * pagealloc.c - pages for the write path: new pages, freed pages, the
 * global usage map and a table's owned-pages and free-space usage maps.
 *
 * Usage maps (usagemap.c reads them): a 4-byte pointer (row byte, 3-byte
 * page) names a row holding either an inline map (type 0: start page,
 * bitmap) or a reference map (type 1: page numbers of type-0x05 map pages
 * that hold the bitmaps). Writing: a page inside an inline map's window
 * is a bit; a page outside it moves the window when every page still
 * fits, else the map is promoted to a reference map (its pages become
 * type-0x05 pages, jet_umap_promote); a reference map gets a new map page
 * the first time a page of its range is added. Format: Jackcess UsageMap
 * (InlineHandler, ReferenceHandler, promoteInlineHandlerToReferenceHandler).
 *
 * The global usage map (Jet4/ACE: page 1, row 0) has a bit per page that
 * is free. As Jackcess keeps it (GlobalInlineHandler), pages outside its
 * window count as free, and a window is never moved or promoted for them;
 * so a set bit alone is no proof that a page is unused (Jackcess
 * PageChannel.allocateNewPage never takes pages from the map). A new page
 * is one this connection freed itself (jet_db.freed_pages) that is still
 * free - all zeros as jet_table_page_free leaves it (a page in use has a
 * type byte and its owner's header), and its bit set when the window
 * covers it, so no other writer took it since - else it is appended to
 * the file. Reuse inside the transaction that freed a
 * page is safe: the pager journals a page's image the first time it is
 * written (the free), so a rollback puts back what was there; a hint
 * left stale by a rollback fails the check and is dropped. A new page's
 * bit is cleared when the window covers it; a freed page's bit is set
 * likewise. Format: Jackcess PageChannel (allocateNewPage,
 * deallocatePage).
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "encode.h"
#include "internal.h"
#include "pagealloc.h"
#include "write.h"

/* the global usage map: page 1, row 0 (Jackcess PAGE_GLOBAL_USAGE_MAP) */
#define GLOBAL_MAP_PTR ((1u << 8) | 0u)
/* type-0x05 pages one promotion may need (a reference map row of a TDEF
 * names at most this many) */
#define MAX_REF_SLOTS 64

/* The usage map row that ptr names, pinned (for writing when write):
 * *page (unpin it), *row, *len. */
static jet_rc map_row(jet_db *db, uint32_t ptr, bool write, uint8_t **page,
                      uint8_t **row, size_t *len)
{
    uint32_t mp = ptr >> 8;
    uint16_t rn = (uint16_t)(ptr & 0xFF), st, en, fl;
    const uint8_t *pg;
    jet_rc rc;

    if (mp == 0 || mp >= jet_pagefile_page_count(db->pf))
        return jet_fail(&db->err, JET_ECORRUPT, mp, "a usage map pointer "
                        "names page %u, outside the file", mp);
    if (write) {
        uint8_t *w;
        rc = jet_page_write(db->pf, mp, &w, &db->err);
        pg = w;
    } else {
        rc = jet_page_pin(db->pf, mp, &pg, &db->err);
    }
    if (rc != JET_OK)
        return rc;
    rc = jet_row_bounds(db->fmt, pg, mp, rn, &st, &en, &fl, &db->err);
    if (rc == JET_OK && (en - st < 5 || (pg[st] != 0 && pg[st] != 1)))
        rc = jet_fail(&db->err, JET_ECORRUPT, mp, "row %u of page %u is no "
                      "usage map", rn, mp);
    if (rc != JET_OK) {
        jet_page_unpin(db->pf, pg);
        return rc;
    }
    *page = (uint8_t *)(uintptr_t)pg;
    *row = (uint8_t *)(uintptr_t)pg + st;
    *len = (size_t)(en - st);
    return JET_OK;
}

static bool inline_covers(const uint8_t *row, size_t len, uint32_t pgno)
{
    uint32_t start = jet_get_u32(row + 1);
    return pgno >= start && (uint64_t)(pgno - start) < (uint64_t)(len - 5) * 8;
}

static jet_rc map_update(jet_db *db, uint32_t ptr, uint32_t pgno, bool add,
                         bool global);
static jet_rc map_has_bit(jet_db *db, uint32_t ptr, uint32_t pgno, bool *out,
                          bool *covered);

/* Hint lists keep at most this many pages. */
#define HINT_MAX 4096

void jet_space_hint(jet_pglist *l, uint32_t pgno)
{
    if (l->count > 0 && l->pgnos[l->count - 1] == pgno)
        return;
    if (!l->pgnos) {
        l->pgnos = jet_malloc(HINT_MAX * sizeof *l->pgnos);
        if (!l->pgnos)
            return;
        l->count = 0;
    }
    if (l->count >= HINT_MAX) {
        memmove(l->pgnos, l->pgnos + HINT_MAX / 2,
                (l->count - HINT_MAX / 2) * sizeof *l->pgnos);
        l->count -= HINT_MAX / 2;
    }
    l->pgnos[l->count++] = pgno;
}

void jet_space_hint_drop(jet_pglist *l, size_t i)
{
    if (i >= l->count)
        return;
    memmove(l->pgnos + i, l->pgnos + i + 1,
            (l->count - i - 1) * sizeof *l->pgnos);
    l->count--;
}

/* A page this connection freed that is still free (the top comment):
 * *got says whether one was taken (pinned, dirty, zeroed, its global
 * bit cleared). */
static jet_rc reuse_freed(jet_db *db, uint32_t *pgno, uint8_t **page,
                          bool *got)
{
    jet_pglist *l = &db->freed_pages;
    *got = false;
    while (l->count > 0) {
        uint32_t p = l->pgnos[--l->count];
        const uint8_t *ro;
        bool free_bit = false, covered = false, zero = true;
        jet_rc rc;
        if (p < 3 || p >= jet_pagefile_page_count(db->pf))
            continue;
        rc = map_has_bit(db, GLOBAL_MAP_PTR, p, &free_bit, &covered);
        if (rc != JET_OK)
            return rc;
        if (covered && !free_bit)
            continue;           /* taken since */
        rc = jet_page_pin(db->pf, p, &ro, &db->err);
        if (rc != JET_OK)
            return rc;
        for (uint32_t i = 0; i < db->page_size && zero; i++)
            zero = ro[i] == 0;
        jet_page_unpin(db->pf, ro);
        if (!zero)
            continue;
        rc = jet_page_write(db->pf, p, page, &db->err);
        if (rc != JET_OK)
            return rc;
        rc = map_update(db, GLOBAL_MAP_PTR, p, false, true);
        if (rc != JET_OK) {
            jet_page_unpin(db->pf, *page);
            *page = NULL;
            return rc;
        }
        *pgno = p;
        *got = true;
        return JET_OK;
    }
    return JET_OK;
}

/* A new page (pinned, dirty, zeroed): one this connection freed, else
 * appended to the file; its bit in the global usage map cleared. */
static jet_rc raw_new_page(jet_db *db, uint32_t *pgno, uint8_t **page)
{
    bool got;
    jet_rc rc = reuse_freed(db, pgno, page, &got);
    if (rc != JET_OK || got)
        return rc;
    rc = jet_page_alloc(db->pf, pgno, page, &db->err);
    if (rc != JET_OK)
        return rc;
    rc = map_update(db, GLOBAL_MAP_PTR, *pgno, false, true);
    if (rc != JET_OK) {
        jet_page_unpin(db->pf, *page);
        *page = NULL;
    }
    return rc;
}

/* Set or clear pgno's bit in the reference map row (pinned for writing);
 * a missing map page is made when adding to a table's map. */
static jet_rc ref_update(jet_db *db, uint8_t *row, size_t len, uint32_t pgno,
                         bool add, bool global)
{
    uint32_t ps = db->page_size, bit, mp;
    size_t slot;
    bool ok;
    uint8_t *page;
    jet_rc rc;

    jet_umap_ref_locate(ps, pgno, &slot, &bit);
    mp = jet_umap_ref_page(row, len, slot, &ok);
    if (!ok) {
        if (global || !add)
            return JET_OK;      /* outside the map: nothing to clear */
        return jet_fail(&db->err, JET_ELIMIT, pgno, "a usage map cannot "
                        "name page %u", pgno);
    }
    if (mp == 0) {
        if (global || !add)
            return JET_OK;
        rc = raw_new_page(db, &mp, &page);
        if (rc != JET_OK)
            return rc;
        jet_umap_page_init(page, ps);
        rc = jet_umap_ref_attach(row, len, slot, mp);
    } else {
        if (mp >= jet_pagefile_page_count(db->pf))
            return jet_fail(&db->err, JET_ECORRUPT, mp, "a usage map names "
                            "map page %u, outside the file", mp);
        rc = jet_page_write(db->pf, mp, &page, &db->err);
        if (rc != JET_OK)
            return rc;
    }
    if (rc == JET_OK)
        rc = jet_umap_page_update(page, ps, bit, add);
    jet_page_unpin(db->pf, page);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, mp, "usage map page %u cannot be "
                        "updated", mp);
    return JET_OK;
}

/* An inline map row that cannot take pgno becomes a reference map. */
static jet_rc promote(jet_db *db, uint8_t *row, size_t len)
{
    size_t slots[MAX_REF_SLOTS], n = 0, made = 0;
    uint8_t *pages[MAX_REF_SLOTS];
    uint32_t pgnos[MAX_REF_SLOTS];
    jet_rc rc = jet_umap_promote_slots(row, len, db->page_size, slots,
                                       MAX_REF_SLOTS, &n);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, JET_NO_PGNO, "a usage map cannot be "
                        "promoted to a reference map");
    for (; made < n; made++) {
        rc = raw_new_page(db, &pgnos[made], &pages[made]);
        if (rc != JET_OK)
            break;
        jet_umap_page_init(pages[made], db->page_size);
    }
    if (rc == JET_OK) {
        rc = jet_umap_promote(row, len, db->page_size, pages, pgnos, slots,
                              n);
        if (rc != JET_OK)
            rc = jet_fail(&db->err, rc, JET_NO_PGNO, "a usage map cannot "
                          "be promoted to a reference map");
    }
    for (size_t i = 0; i < made; i++)
        jet_page_unpin(db->pf, pages[i]);
    return rc;
}

/* Add or remove pgno in the map ptr names; global: the global usage map
 * (bit = free page; outside its window nothing is written). */
static jet_rc map_update(jet_db *db, uint32_t ptr, uint32_t pgno, bool add,
                         bool global)
{
    uint8_t *page, *row;
    size_t len;
    jet_rc rc = map_row(db, ptr, true, &page, &row, &len);
    if (rc != JET_OK)
        return rc;
    if (row[0] == 0) {
        if (global && !inline_covers(row, len, pgno)) {
            rc = JET_OK;
        } else {
            rc = jet_umap_inline_update(row, len, pgno, add);
            if (rc == JET_ENOTFOUND && !add)
                rc = JET_OK;
            else if (rc == JET_ELIMIT && add) {
                rc = promote(db, row, len);
                if (rc == JET_OK)
                    rc = ref_update(db, row, len, pgno, add, global);
            } else if (rc != JET_OK)
                rc = jet_fail(&db->err, rc, ptr >> 8, "usage map of page %u "
                              "cannot be updated", ptr >> 8);
        }
    } else {
        rc = ref_update(db, row, len, pgno, add, global);
    }
    jet_page_unpin(db->pf, page);
    return rc;
}

/* Is pgno in the map ptr names? *covered (may be NULL): whether the map
 * has a bit for it at all. */
static jet_rc map_has_bit(jet_db *db, uint32_t ptr, uint32_t pgno, bool *out,
                          bool *covered)
{
    uint8_t *page, *row;
    size_t len;
    bool cov = false;
    jet_rc rc = map_row(db, ptr, false, &page, &row, &len);
    *out = false;
    if (covered)
        *covered = false;
    if (rc != JET_OK)
        return rc;
    if (row[0] == 0) {
        if (inline_covers(row, len, pgno)) {
            uint32_t b = pgno - jet_get_u32(row + 1);
            *out = (row[5 + b / 8] >> (b % 8)) & 1;
            cov = true;
        }
    } else {
        size_t slot;
        uint32_t bit, mp;
        bool ok;
        jet_umap_ref_locate(db->page_size, pgno, &slot, &bit);
        mp = jet_umap_ref_page(row, len, slot, &ok);
        if (ok && mp != 0 && mp < jet_pagefile_page_count(db->pf)) {
            const uint8_t *m;
            rc = jet_page_pin(db->pf, mp, &m, &db->err);
            if (rc == JET_OK) {
                cov = m[0] == JET_PAGE_USAGE_MAP;
                *out = cov && ((m[4 + bit / 8] >> (bit % 8)) & 1);
                jet_page_unpin(db->pf, m);
            }
        }
    }
    jet_page_unpin(db->pf, page);
    if (covered)
        *covered = cov;
    return rc;
}

static jet_rc map_has(jet_db *db, uint32_t ptr, uint32_t pgno, bool *out)
{
    return map_has_bit(db, ptr, pgno, out, NULL);
}

/* The TDEF's pointer at off (owned or free-space map). */
static jet_rc tdef_ptr(jet_db *db, const jet_tdef_priv *t, uint16_t off,
                       uint32_t *ptr)
{
    const uint8_t *pg;
    jet_rc rc = jet_page_pin(db->pf, t->pub.pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    *ptr = jet_get_u32(pg + off);
    jet_page_unpin(db->pf, pg);
    return JET_OK;
}

jet_rc jet_table_free_map_has(jet_db *db, const jet_tdef_priv *t,
                              uint32_t pgno, bool *out)
{
    uint32_t ptr;
    jet_rc rc = tdef_ptr(db, t, db->fmt->tdef_free_pages, &ptr);
    return rc != JET_OK ? rc : map_has(db, ptr, pgno, out);
}

jet_rc jet_table_free_map_update(jet_db *db, jet_tdef_priv *t,
                                 uint32_t pgno, bool add)
{
    uint32_t ptr;
    jet_rc rc = tdef_ptr(db, t, db->fmt->tdef_free_pages, &ptr);
    return rc != JET_OK ? rc : map_update(db, ptr, pgno, add, false);
}

/* pgno into (add) or out of t->owned, kept ascending. */
static jet_rc owned_list_update(jet_db *db, jet_tdef_priv *t, uint32_t pgno,
                                bool add)
{
    jet_pglist *l = &t->owned;
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->pgnos[mid] < pgno)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool present = lo < l->count && l->pgnos[lo] == pgno;
    if (add && !present) {
        uint32_t *p = jet_realloc(l->pgnos, (l->count + 1) * sizeof *p);
        if (!p)
            return jet_fail(&db->err, JET_ENOMEM, pgno, "out of memory");
        l->pgnos = p;
        memmove(p + lo + 1, p + lo, (l->count - lo) * sizeof *p);
        p[lo] = pgno;
        l->count++;
    } else if (!add && present) {
        memmove(l->pgnos + lo, l->pgnos + lo + 1,
                (l->count - lo - 1) * sizeof *l->pgnos);
        l->count--;
    }
    return JET_OK;
}

jet_rc jet_db_page_new(jet_db *db, uint32_t *pgno, uint8_t **page)
{
    *page = NULL;
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_db_write_begin)");
    return raw_new_page(db, pgno, page);
}

jet_rc jet_table_page_new(jet_db *db, const jet_tdef *t, uint32_t *pgno,
                          uint8_t **page)
{
    (void)t;
    return jet_db_page_new(db, pgno, page);
}

jet_rc jet_table_data_page_new(jet_db *db, jet_tdef_priv *t, uint32_t *pgno,
                               uint8_t **page)
{
    uint32_t owned, free_ptr;
    jet_rc rc;

    *page = NULL;
    if ((rc = tdef_ptr(db, t, db->fmt->tdef_owned_pages, &owned)) !=
            JET_OK ||
        (rc = tdef_ptr(db, t, db->fmt->tdef_free_pages, &free_ptr)) !=
            JET_OK ||
        (rc = jet_db_page_new(db, pgno, page)) != JET_OK)
        return rc;
    jet_data_page_init(*page, db->fmt, t->pub.pgno, false);
    t->owned_changed = true;
    if ((rc = map_update(db, owned, *pgno, true, false)) != JET_OK ||
        (rc = map_update(db, free_ptr, *pgno, true, false)) != JET_OK ||
        (rc = owned_list_update(db, t, *pgno, true)) != JET_OK) {
        jet_page_unpin(db->pf, *page);
        *page = NULL;
    }
    return rc;
}

jet_rc jet_table_page_free(jet_db *db, const jet_tdef *t, uint32_t pgno)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    uint32_t owned, free_ptr;
    jet_rc rc;

    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_db_write_begin)");
    if (pgno < 3 || pgno >= jet_pagefile_page_count(db->pf) ||
        pgno == t->pgno)
        return jet_fail(&db->err, JET_ECORRUPT, pgno, "page %u cannot be "
                        "freed", pgno);
    if ((rc = tdef_ptr(db, tp, db->fmt->tdef_owned_pages, &owned)) !=
            JET_OK ||
        (rc = tdef_ptr(db, tp, db->fmt->tdef_free_pages, &free_ptr)) !=
            JET_OK)
        return rc;
    tp->owned_changed = true;
    if (tp->ins_pgno == pgno)
        tp->ins_pgno = 0;
    if ((rc = map_update(db, owned, pgno, false, false)) != JET_OK ||
        (rc = map_update(db, free_ptr, pgno, false, false)) != JET_OK ||
        (rc = owned_list_update(db, tp, pgno, false)) != JET_OK)
        return rc;
    return jet_db_page_free(db, pgno);
}

jet_rc jet_db_page_free(jet_db *db, uint32_t pgno)
{
    uint8_t *page;
    jet_rc rc;

    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_db_write_begin)");
    if (pgno < 3 || pgno >= jet_pagefile_page_count(db->pf))
        return jet_fail(&db->err, JET_ECORRUPT, pgno, "page %u cannot be "
                        "freed", pgno);
    /* an unused page: zeroed, as Jackcess wipes a freed page's header */
    rc = jet_page_write(db->pf, pgno, &page, &db->err);
    if (rc != JET_OK)
        return rc;
    memset(page, 0, db->page_size);
    jet_page_unpin(db->pf, page);
    rc = map_update(db, GLOBAL_MAP_PTR, pgno, true, true);
    if (rc == JET_OK)
        jet_space_hint(&db->freed_pages, pgno);
    return rc;
}
