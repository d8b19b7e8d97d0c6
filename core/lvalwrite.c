/*
 * lvalwrite.c - long values (MEMO/OLE) for the write path (write.h):
 * store a value as its row will hold it, and free a stored one.
 *
 * A row holds a long value as a 12-byte header (encode.h jet_lval_header;
 * lval.c reads it), followed by the data when the value is inline. Where
 * it goes (jet_lval_kind_for): inline when it is at most 64 bytes and the
 * row has room; else one row on an LVAL page (type-1, up to 4076 bytes);
 * else a chain of LVAL rows (type-2), each a 4-byte pointer (row byte,
 * 3-byte page) to the next row then up to 4072 bytes, the last pointing
 * to page 0.
 *
 * LVAL pages: data pages (type 0x01) with "LVAL" where a table's data
 * page names its TDEF. Jet4/ACE tables list each long-value column's
 * pages in two usage maps of its own (owned pages, pages with free space;
 * TDEF tail, tdef.c jet_lval_umap), never in the table's owned-pages map
 * (scans would meet them). A row goes on the last page of the
 * free-space map (and owned) that has room - a page emptied by freed
 * values takes a whole chain piece - else on a new page that joins both
 * maps (Jackcess UmapLongValueBufferHolder.findNewPage); a page left with
 * no useful room leaves the free-space map. A table without column maps
 * (older files) gets a new page for each value (Jackcess's legacy holder
 * shares one page per session; we keep no state between calls).
 * Freeing marks the value's rows deleted, gives the page's tail back when
 * the last rows are deleted (row count and free space shrink), empties a
 * page whose rows are all deleted, and puts the page back in the
 * free-space map.
 *
 * New pages come from jet_db_page_new (pagealloc.c: appended, and out of
 * the global usage map's free pages).
 * Every change goes through the pager (jet_page_write), so the statement's
 * savepoint undoes it.
 * Format: Jackcess LongValueColumnImpl.writeLongValue, TableImpl
 * (findFreeRowSpace, readColumnUsageMaps), UsageMap; mdbtools HACKING.md
 * "LVAL Pages".
 */
#include <string.h>

#include "alloc.h"
#include "encode.h"
#include "internal.h"
#include "pagealloc.h"
#include "write.h"

#define DATA_FREE_SPACE 2       /* data page: free-space field */
#define ROW_OFFSET_MASK 0x1FFF
/* A page with less room than this (row + offset entry) leaves the
 * free-space map: it could only take tiny out-of-line values. */
#define LVAL_PAGE_FULL 32
/* Pages of the free-space map examined for room before a new page is
 * taken. */
#define LVAL_SEARCH_PAGES 64
/* Most map pages a promoted inline usage map needs (2 GB of 4 KB pages
 * need 17 reference map pages). */
#define MAX_MAP_SLOTS 64

/* -------------------------------------------------------- usage maps */

/* Locate row rowno of (writable, pinned) page pgno: *row, *len. */
static jet_rc map_row(jet_db *db, uint8_t *page, uint32_t pgno,
                      uint16_t rowno, uint8_t **row, size_t *len)
{
    uint16_t s, e, flags;
    jet_rc rc = jet_row_bounds(db->fmt, page, pgno, rowno, &s, &e, &flags,
                               &db->err);
    if (rc != JET_OK)
        return rc;
    if (e <= s)
        return jet_fail(&db->err, JET_ECORRUPT, pgno,
                        "usage map row %u of page %u is empty", rowno, pgno);
    *row = page + s;
    *len = (size_t)(e - s);
    return JET_OK;
}

/* Set or clear pgno's bit in reference map row (type 1), adding a map
 * page for its slot when adding and the slot has none. */
static jet_rc ref_map_set(jet_db *db, uint8_t *row, size_t len,
                          uint32_t pgno, bool add, uint32_t map_pgno)
{
    size_t slot;
    uint32_t bit, mp;
    bool ok;
    uint8_t *mpage;
    jet_rc rc;

    jet_umap_ref_locate(db->page_size, pgno, &slot, &bit);
    mp = jet_umap_ref_page(row, len, slot, &ok);
    if (!ok)
        return jet_fail(&db->err, JET_ELIMIT, map_pgno,
                        "usage map at page %u cannot reach page %u",
                        map_pgno, pgno);
    if (mp == 0) {
        if (!add)
            return JET_OK;
        rc = jet_db_page_new(db, &mp, &mpage);
        if (rc != JET_OK)
            return rc;
        jet_umap_page_init(mpage, db->page_size);
        rc = jet_umap_ref_attach(row, len, slot, mp);
    } else {
        if (mp >= jet_pagefile_page_count(db->pf))
            return jet_fail(&db->err, JET_ECORRUPT, map_pgno,
                            "usage map at page %u names page %u past the "
                            "end of the file", map_pgno, mp);
        rc = jet_page_write(db->pf, mp, &mpage, &db->err);
        if (rc != JET_OK)
            return rc;
    }
    if (rc == JET_OK)
        rc = jet_umap_page_update(mpage, db->page_size, bit, add);
    jet_page_unpin(db->pf, mpage);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, mp, "usage map page %u is damaged",
                        mp);
    return JET_OK;
}

/* Promote inline map row (which cannot take pgno in its window) to a
 * reference map, then add pgno. Format: Jackcess UsageMap
 * promoteInlineHandlerToReferenceHandler. */
static jet_rc promote_and_add(jet_db *db, uint8_t *row, size_t len,
                              uint32_t pgno, uint32_t map_pgno)
{
    size_t slots[MAX_MAP_SLOTS], n = 0, got = 0;
    uint8_t *pages[MAX_MAP_SLOTS];
    uint32_t pgnos[MAX_MAP_SLOTS];
    jet_rc rc = jet_umap_promote_slots(row, len, db->page_size, slots,
                                       MAX_MAP_SLOTS, &n);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, map_pgno,
                        "usage map at page %u cannot be promoted", map_pgno);
    for (; got < n; got++) {
        rc = jet_db_page_new(db, &pgnos[got], &pages[got]);
        if (rc != JET_OK)
            break;
        jet_umap_page_init(pages[got], db->page_size);
    }
    if (rc == JET_OK) {
        rc = jet_umap_promote(row, len, db->page_size, pages, pgnos, slots,
                              n);
        if (rc != JET_OK)
            jet_fail(&db->err, rc, map_pgno,
                     "usage map at page %u cannot be promoted", map_pgno);
    }
    for (size_t i = 0; i < got; i++)
        jet_page_unpin(db->pf, pages[i]);
    if (rc != JET_OK)
        return rc;
    return ref_map_set(db, row, len, pgno, true, map_pgno);
}

/* Add (add) or remove page pgno in the usage map at map_ptr (row byte +
 * 3-byte page). Removing a page the map lacks is no change. */
static jet_rc umap_set(jet_db *db, uint32_t map_ptr, uint32_t pgno,
                       bool add)
{
    uint32_t mpg = map_ptr >> 8;
    uint16_t mrow = (uint16_t)(map_ptr & 0xFF);
    uint8_t *page, *row;
    size_t len;
    jet_rc rc;

    if (mpg == 0 || mpg >= jet_pagefile_page_count(db->pf))
        return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO,
                        "usage map pointer 0x%08x names no page", map_ptr);
    rc = jet_page_write(db->pf, mpg, &page, &db->err);
    if (rc != JET_OK)
        return rc;
    rc = map_row(db, page, mpg, mrow, &row, &len);
    if (rc == JET_OK && row[0] == 0x00) {
        rc = jet_umap_inline_update(row, len, pgno, add);
        if (rc == JET_ENOTFOUND && !add)
            rc = JET_OK;
        else if (rc == JET_ELIMIT && add)
            rc = promote_and_add(db, row, len, pgno, mpg);
        else if (rc != JET_OK)
            rc = jet_fail(&db->err, rc, mpg,
                          "usage map at page %u is damaged", mpg);
    } else if (rc == JET_OK && row[0] == 0x01) {
        rc = ref_map_set(db, row, len, pgno, add, mpg);
    } else if (rc == JET_OK) {
        rc = jet_fail(&db->err, JET_ECORRUPT, mpg,
                      "usage map at page %u has type %u", mpg, row[0]);
    }
    jet_page_unpin(db->pf, page);
    return rc;
}

/* ------------------------------------------------------------- pages */

/* The long-value usage maps of column col of t, or NULL (none: older
 * files). */
static const jet_lval_umap *col_maps(const jet_tdef *t,
                                     const jet_column *col)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    for (uint16_t i = 0; i < tp->nlval_umaps; i++)
        if (tp->lval_umaps[i].col_num == col->col_num)
            return &tp->lval_umaps[i];
    return NULL;
}

static bool is_lval_page(const jet_db *db, const uint8_t *page)
{
    return page[0] == 0x01 &&
           memcmp(page + db->fmt->data_tdef_pgno, "LVAL", 4) == 0;
}

/* A new, empty LVAL page, pinned and writable; joins the column's maps. */
static jet_rc lval_page_new(jet_db *db, const jet_tdef *t,
                            const jet_lval_umap *um, uint32_t *pgno,
                            uint8_t **page)
{
    jet_rc rc = jet_db_page_new(db, pgno, page);
    if (rc != JET_OK)
        return rc;
    jet_data_page_init(*page, db->fmt, t->pgno, true);
    if (um) {
        rc = umap_set(db, um->owned_ptr, *pgno, true);
        if (rc == JET_OK)
            rc = umap_set(db, um->free_ptr, *pgno, true);
        if (rc != JET_OK) {
            jet_page_unpin(db->pf, *page);
            *page = NULL;
        }
    }
    return rc;
}

static bool in_list(const jet_pglist *l, uint32_t pgno)
{
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->pgnos[mid] == pgno)
            return true;
        if (l->pgnos[mid] < pgno)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Whether an LVAL row of need bytes fits page: appended, or after the
 * page's deleted rows give their bytes back (jet_data_page_insert_compact;
 * a freed value's rows are named by nothing). */
static bool lval_fits(const jet_db *db, const uint8_t *page, size_t need)
{
    return (jet_page_row_count(db->fmt, page) < JET_MAX_ROWS_PER_PAGE &&
            jet_data_page_free_space(db->fmt, page) >= need + 2) ||
           jet_data_page_fits_compacted(db->fmt, page, need);
}

/* Pages of the room hints looked at for one row. */
#define ROOM_HINT_TRIES 32

/* A page of the room hints (pages this connection freed long values on)
 * that is the column's (in owned and free) and fits need bytes: *pgno, or
 * 0. Hints of the column that do not fit are dropped. */
static jet_rc lval_hint_page(jet_db *db, const jet_pglist *owned,
                             const jet_pglist *free_pages, size_t need,
                             uint32_t *pgno)
{
    jet_pglist *l = &db->lval_room_pages;
    size_t tries = 0;
    *pgno = 0;
    for (size_t k = l->count; k-- > 0 && tries < ROOM_HINT_TRIES;) {
        uint32_t p = l->pgnos[k];
        const uint8_t *ro;
        bool fits;
        jet_rc rc;
        if (!in_list(owned, p) || !in_list(free_pages, p))
            continue;           /* another column's */
        tries++;
        rc = jet_page_pin(db->pf, p, &ro, &db->err);
        if (rc != JET_OK)
            return rc;
        fits = is_lval_page(db, ro) && lval_fits(db, ro, need);
        jet_page_unpin(db->pf, ro);
        if (fits) {
            *pgno = p;
            return JET_OK;
        }
        jet_space_hint_drop(l, k);
    }
    return JET_OK;
}

/* An LVAL page of the column with room for a row of need bytes: a page
 * this connection freed values on (room hints), else the last pages of
 * the free-space map, else a new one. Pinned and writable in *page. */
static jet_rc lval_page_find(jet_db *db, const jet_tdef *t,
                             const jet_lval_umap *um, size_t need,
                             uint32_t *pgno, uint8_t **page)
{
    jet_pglist owned = { 0 }, free_pages = { 0 };
    jet_rc rc = JET_OK;
    size_t tried = 0;

    if (um) {
        uint32_t hint = 0;
        rc = jet_usagemap_read(&owned, db, um->owned_ptr, &db->err);
        if (rc == JET_OK)
            rc = jet_usagemap_read(&free_pages, db, um->free_ptr, &db->err);
        if (rc == JET_OK)
            rc = lval_hint_page(db, &owned, &free_pages, need, &hint);
        if (rc == JET_OK && hint) {
            rc = jet_page_write(db->pf, hint, page, &db->err);
            if (rc == JET_OK)
                *pgno = hint;
            jet_pglist_free(&owned);
            jet_pglist_free(&free_pages);
            return rc;
        }
        /* the free-space map's pages, last first: pages emptied by freed
         * values are there wherever they are in the file. A piece of
         * half a page or more looks at all of them (it needs an emptied
         * page, which may be anywhere) before the file grows. */
        for (size_t i = free_pages.count; rc == JET_OK && i-- > 0 &&
                                          (tried < LVAL_SEARCH_PAGES ||
                                           2 * need >= db->page_size);) {
            const uint8_t *ro;
            uint32_t pg = free_pages.pgnos[i];
            bool fits;
            if (!in_list(&owned, pg))
                continue;
            tried++;
            rc = jet_page_pin(db->pf, pg, &ro, &db->err);
            if (rc != JET_OK)
                break;
            fits = is_lval_page(db, ro) && lval_fits(db, ro, need);
            jet_page_unpin(db->pf, ro);
            if (fits) {
                rc = jet_page_write(db->pf, pg, page, &db->err);
                if (rc == JET_OK)
                    *pgno = pg;
                jet_pglist_free(&owned);
                jet_pglist_free(&free_pages);
                return rc;
            }
        }
        jet_pglist_free(&owned);
        jet_pglist_free(&free_pages);
        if (rc != JET_OK)
            return rc;
    }
    return lval_page_new(db, t, um, pgno, page);
}

/* Put row (len bytes) on an LVAL page of the column: *pgno, *rowno. */
static jet_rc lval_row_add(jet_db *db, const jet_tdef *t,
                           const jet_lval_umap *um, const uint8_t *row,
                           size_t len, uint32_t *pgno, uint16_t *rowno)
{
    uint8_t *page;
    jet_rc rc = lval_page_find(db, t, um, len, pgno, &page);
    if (rc != JET_OK)
        return rc;
    if (*pgno > 0xFFFFFFu) {
        jet_page_unpin(db->pf, page);
        return jet_fail(&db->err, JET_ELIMIT, *pgno,
                        "long value page %u is past 24-bit page numbers",
                        *pgno);
    }
    if (jet_page_row_count(db->fmt, page) < JET_MAX_ROWS_PER_PAGE &&
        jet_data_page_free_space(db->fmt, page) >= len + 2)
        rc = jet_data_page_insert(page, db->fmt, row, len, 0, rowno);
    else
        rc = jet_data_page_insert_compact(page, db->fmt, row, len, 0, rowno);
    if (rc != JET_OK) {
        jet_page_unpin(db->pf, page);
        return jet_fail(&db->err, rc, *pgno,
                        "no room for a %zu-byte long value row on page %u",
                        len, *pgno);
    }
    if (um && jet_data_page_free_space(db->fmt, page) < LVAL_PAGE_FULL)
        rc = umap_set(db, um->free_ptr, *pgno, false);
    jet_page_unpin(db->pf, page);
    return rc;
}

/* ------------------------------------------------------------- store */

jet_rc jet_lval_store_bytes(uint8_t *out, size_t cap, size_t *out_len,
                            jet_db *db, const jet_tdef *t,
                            const jet_column *col, const uint8_t *data,
                            size_t len, size_t room)
{
    const jet_lval_umap *um;
    jet_lval_kind kind;
    uint32_t pgno = 0;
    uint16_t rowno = 0;
    jet_rc rc;

    *out_len = 0;
    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                        "Access 97 files are read-only");
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "long values are written inside a write "
                        "transaction only");
    if (col->type != JET_T_MEMO && col->type != JET_T_OLE)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "column '%s' of table '%s' holds no long values",
                        col->name, t->name);
    if (len > 0x3FFFFFFFu)
        return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                        "a %zu-byte value for column '%s' is longer than "
                        "Access stores (1 GB)", len, col->name);
    if (room < 12 || cap < 12)
        return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                        "no room in the row for column '%s''s long value "
                        "header", col->name);
    um = col_maps(t, col);
    kind = jet_lval_kind_for(len, room);
    if (kind == JET_LVAL_INLINE) {
        if (cap < 12 + len)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                            "buffer short for an inline long value");
        rc = jet_lval_header(out, kind, len, 0, 0);
        if (rc != JET_OK)
            return jet_fail(&db->err, rc, t->pgno, "long value too long");
        if (len)
            memcpy(out + 12, data, len);
        *out_len = 12 + len;
        return JET_OK;
    }
    if (len == 0)   /* an empty value is never an LVAL row */
        return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                        "no room in the row for column '%s''s empty value",
                        col->name);
    if (kind == JET_LVAL_SINGLE) {
        rc = lval_row_add(db, t, um, data, len, &pgno, &rowno);
    } else {
        /* chain: rows in order, each pointer patched once its successor
         * has a place */
        uint8_t *buf = jet_malloc(4 + JET_LVAL_CHAIN_CHUNK);
        uint32_t prev_pg = 0;
        uint16_t prev_row = 0;
        size_t done = 0;
        if (!buf)
            return jet_fail(&db->err, JET_ENOMEM, t->pgno, "out of memory");
        rc = JET_OK;
        while (rc == JET_OK && done < len) {
            size_t n = len - done < JET_LVAL_CHAIN_CHUNK
                           ? len - done : JET_LVAL_CHAIN_CHUNK;
            uint32_t pg;
            uint16_t rn;
            size_t rl = jet_lval_chain_row(buf, 4 + JET_LVAL_CHAIN_CHUNK, 0,
                                           0, data + done, n);
            rc = lval_row_add(db, t, um, buf, rl, &pg, &rn);
            if (rc != JET_OK)
                break;
            if (done == 0) {
                pgno = pg;
                rowno = rn;
            } else {
                uint8_t *page, *row;
                size_t rlen;
                rc = jet_page_write(db->pf, prev_pg, &page, &db->err);
                if (rc != JET_OK)
                    break;
                rc = map_row(db, page, prev_pg, prev_row, &row, &rlen);
                if (rc == JET_OK && rlen >= 4) {
                    row[0] = (uint8_t)rn;
                    row[1] = (uint8_t)pg;
                    row[2] = (uint8_t)(pg >> 8);
                    row[3] = (uint8_t)(pg >> 16);
                }
                jet_page_unpin(db->pf, page);
            }
            prev_pg = pg;
            prev_row = rn;
            done += n;
        }
        jet_free(buf);
    }
    if (rc != JET_OK)
        return rc;
    rc = jet_lval_header(out, kind, len, pgno, (uint8_t)rowno);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, t->pgno, "long value too long");
    *out_len = 12;
    return JET_OK;
}

jet_rc jet_lval_store(uint8_t *out, size_t cap, size_t *out_len, jet_db *db,
                      const jet_tdef *t, const jet_column *col,
                      const jet_value *v, size_t room)
{
    uint16_t *units;
    uint8_t *text;
    size_t n, tlen;
    jet_rc rc;

    *out_len = 0;
    if (v->is_null)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "a NULL has no long value (the null mask says it)");
    if (col->type != JET_T_MEMO || v->enc != JET_ENC_UCS2)
        return jet_lval_store_bytes(out, cap, out_len, db, t, col, v->data,
                                    v->len, room);
    /* MEMO from UTF-16LE: as Jet stores text (compressed when allowed) */
    n = v->len / 2;
    if (v->len % 2)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "UTF-16 text for column '%s' has an odd length",
                        col->name);
    if (n > 0x3FFFFFFFu / 2)
        return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                        "a %zu-unit text for column '%s' is longer than "
                        "Access stores (1 GB)", n, col->name);
    units = jet_malloc(n ? n * 2 : 1);
    text = jet_malloc(2 * n + 2);
    if (!units || !text) {
        jet_free(units);
        jet_free(text);
        return jet_fail(&db->err, JET_ENOMEM, t->pgno, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        units[i] = (uint16_t)(v->data[2 * i] | v->data[2 * i + 1] << 8);
    tlen = n ? jet_text_encode(text, 2 * n + 2, units, n,
                               (col->flags & JET_COL_COMPRESSED) != 0)
             : 0;
    rc = jet_lval_store_bytes(out, cap, out_len, db, t, col, text, tlen,
                              room);
    jet_free(units);
    jet_free(text);
    return rc;
}

/* -------------------------------------------------------------- free */

/* Give back what deleted rows at the end of an LVAL page hold: rows at
 * the top of the row table that are deleted leave it (row count and free
 * space shrink; their offset entries are zeroed); a page left without
 * rows is an empty LVAL page again. */
static void page_trim(const jet_db *db, uint8_t *page)
{
    const jet_format *f = db->fmt;
    uint16_t nrows = jet_get_u16(page + f->data_nrows), was = nrows;

    if ((size_t)f->data_row_table + 2u * nrows > f->page_size)
        return;   /* damaged: leave it */
    while (nrows > 0) {
        uint8_t *e = page + f->data_row_table + 2 * (size_t)(nrows - 1);
        uint16_t off = jet_get_u16(e);
        size_t start = off & ROW_OFFSET_MASK;
        size_t end = nrows > 1 ? (jet_get_u16(e - 2) & ROW_OFFSET_MASK)
                               : f->page_size;
        if (!(off & JET_ROW_DELETED) || end < start || end > f->page_size)
            break;
        memset(page + start, 0, end - start);
        jet_put_u16(e, 0);
        nrows--;
    }
    if (nrows == 0) {
        jet_data_page_init(page, f, 0, true);
        return;
    }
    if (nrows == was)
        return;
    jet_put_u16(page + f->data_nrows, nrows);
    jet_put_u16(page + DATA_FREE_SPACE,
                (uint32_t)jet_data_page_free_space(f, page));
}

/* Delete LVAL row rowno of page pgno; *next = the chain pointer it held
 * when chain (else 0). */
static jet_rc lval_row_delete(jet_db *db, const jet_lval_umap *um,
                              uint32_t pgno, uint16_t rowno, bool chain,
                              uint32_t *next, uint32_t hdr_pgno)
{
    uint8_t *page;
    uint16_t s, e, flags;
    jet_rc rc;

    *next = 0;
    if (pgno == 0 || pgno >= jet_pagefile_page_count(db->pf))
        return jet_fail(&db->err, JET_ECORRUPT, hdr_pgno,
                        "long value names page %u past the end of the "
                        "file", pgno);
    rc = jet_page_write(db->pf, pgno, &page, &db->err);
    if (rc != JET_OK)
        return rc;
    if (!is_lval_page(db, page)) {
        rc = jet_fail(&db->err, JET_ECORRUPT, pgno,
                      "long value page %u is not an LVAL page", pgno);
        goto out;
    }
    rc = jet_row_bounds(db->fmt, page, pgno, rowno, &s, &e, &flags,
                        &db->err);
    if (rc != JET_OK)
        goto out;
    if (flags & JET_ROW_DELETED) {
        rc = jet_fail(&db->err, JET_ECORRUPT, pgno,
                      "long value row %u of page %u is already deleted",
                      rowno, pgno);
        goto out;
    }
    if (chain) {
        if (e < s + 4) {
            rc = jet_fail(&db->err, JET_ECORRUPT, pgno,
                          "long value chain row %u of page %u too short",
                          rowno, pgno);
            goto out;
        }
        *next = jet_get_u32(page + s);
    }
    rc = jet_data_page_delete(page, db->fmt, rowno);
    if (rc != JET_OK) {
        rc = jet_fail(&db->err, JET_ECORRUPT, pgno,
                      "long value row %u of page %u is missing", rowno, pgno);
        goto out;
    }
    page_trim(db, page);
    if (um) {
        rc = umap_set(db, um->free_ptr, pgno, true);
        if (rc == JET_OK)
            jet_space_hint(&db->lval_room_pages, pgno);
    }
out:
    jet_page_unpin(db->pf, page);
    return rc;
}

jet_rc jet_lval_free(jet_db *db, const jet_tdef *t, const jet_column *col,
                     const uint8_t *cell, size_t cell_len)
{
    const jet_lval_umap *um;
    uint32_t word, length, ptr, kind;
    uint64_t hops = 0, limit;
    jet_rc rc;

    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                        "Access 97 files are read-only");
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "long values are freed inside a write transaction "
                        "only");
    if (cell_len < 12)
        return jet_fail(&db->err, JET_ECORRUPT, t->pgno,
                        "long value header of %zu bytes (12 expected)",
                        cell_len);
    word = jet_get_u32(cell);
    length = word & 0x3FFFFFFFu;
    kind = word & 0xC0000000u;
    ptr = jet_get_u32(cell + 4);
    um = col_maps(t, col);
    if (kind == 0x80000000u)
        return JET_OK;   /* inline: the row holds it */
    if (kind == 0x40000000u) {
        uint32_t next;
        return lval_row_delete(db, um, ptr >> 8, (uint16_t)(ptr & 0xFF),
                               false, &next, t->pgno);
    }
    if (kind != 0)
        return jet_fail(&db->err, JET_ECORRUPT, t->pgno,
                        "long value header has unknown type bits 0x%08x",
                        word);
    /* chain: one row per JET_LVAL_CHAIN_CHUNK bytes at most; follow the
     * pointers, bounded by the rows the length needs and the file */
    limit = (uint64_t)jet_pagefile_page_count(db->pf) * 256u;
    {
        uint64_t rows = length / JET_LVAL_CHAIN_CHUNK + 1;
        if (rows < limit)
            limit = rows;
    }
    while (ptr >> 8) {
        uint32_t next;
        if (++hops > limit)
            return jet_fail(&db->err, JET_ECORRUPT, ptr >> 8,
                            "long value chain longer than its length");
        rc = lval_row_delete(db, um, ptr >> 8, (uint16_t)(ptr & 0xFF), true,
                             &next, t->pgno);
        if (rc != JET_OK)
            return rc;
        ptr = next;
    }
    return JET_OK;
}
