/*
 * check.c - a consistency check of a whole file (jet_db_check), reading
 * only: what `jetodbc-setup check FILE` runs and every write test can.
 *
 * For every table (user and system) it checks:
 *   1. usage maps: each page of the owned-pages map (and of each long
 *      value column's map, ACE) is a data or index page whose owner is
 *      this table's TDEF, and no page is owned by two tables; each page of
 *      the free-space maps is owned; no owned page is free in the global
 *      usage map (page 1; a set bit there is a page given back);
 *   2. rows: the TDEF row count equals the live rows a scan finds; every
 *      long value (MEMO/OLE) a row holds is read whole (the reader's
 *      checks: a chain that loops, ends early, or leaves its pages);
 *   3. indexes: a walk of each index B-tree (the cursor's checks: page
 *      types and owner, entries in key order, prefix lengths, sibling
 *      links that link back, child pointers) yields exactly one entry per
 *      row (rows whose key is all NULL may be absent when the index
 *      ignores NULLs), no entry for a row that is not live, and each
 *      entry's key equals the key jet_index_row_key builds from the row
 *      (where it can build it: text in a sort order without tables is
 *      compared by row only).
 * Data pages (type 1) whose owner is a table but which no map of that
 * table lists are reported too (rows a scan would never see).
 *
 * Bounds: memory is one owner word per page plus, per table, 12 bytes
 * per row and per index entry (both bounded by the file's size: a page
 * holds at most a page size of entries); time is linear in the file
 * (each page read once per walk that reaches it; the index and long
 * value readers bound their own walks by the page count). Reporting
 * stops after JET_CHECK_MAX_PROBLEMS lines (the count goes on).
 * Format: Jackcess UsageMap, TableImpl, IndexData; mdbtools HACKING.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "write.h"

#define OWNER_NONE 0u
#define OWNER_MANY UINT32_MAX

typedef struct ck {
    jet_db *db;
    jet_check_fn fn;
    void *ctx;
    jet_check_stats *st;
    uint32_t npages;
    uint32_t *owner;        /* per page: owning TDEF page, or 0 / MANY */
    uint8_t *gfree;         /* per page bit: free in the global map */
} ck;

static void report(ck *c, uint32_t pgno, const char *table,
                   const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    c->st->problems++;
    if (c->st->problems > JET_CHECK_MAX_PROBLEMS)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->fn(c->ctx, pgno, table, msg);
}

static bool is_gfree(const ck *c, uint32_t p)
{
    return c->gfree && p < c->npages && (c->gfree[p / 8] & (1u << (p % 8)));
}

/* ---------------------------------------------------------- usage maps */

/* The global usage map: row 0 of page 1 (Jackcess
 * PageChannel.PAGE_GLOBAL_USAGE_MAP); a set bit is a page given back.
 * Its bitmap runs past the end of the file (pages not yet made), so it
 * is decoded against the largest page count a file can have and cut to
 * the file's pages here. */
static void read_global(ck *c)
{
    const uint8_t *page;
    uint8_t buf[4096];
    uint16_t start, end, flags;
    jet_pglist l;
    jet_error err;
    jet_rc rc;
    size_t len;

    if (c->npages < 2)
        return;
    if (jet_page_pin(c->db->pf, 1, &page, &err) != JET_OK) {
        report(c, 1, NULL, "global usage map: %s", err.msg);
        return;
    }
    rc = jet_row_bounds(c->db->fmt, page, 1, 0, &start, &end, &flags, &err);
    len = rc == JET_OK ? (size_t)(end - start) : 0;
    if (rc == JET_OK)
        memcpy(buf, page + start, len);
    jet_page_unpin(c->db->pf, page);
    if (rc == JET_OK)
        rc = jet_usagemap_decode(&l, buf, len, c->db->pf, c->db->page_size,
                                 0x7FFFFFFFu / c->db->page_size + 1, 1,
                                 &err);
    if (rc != JET_OK)
        return;     /* a global map we cannot decode (some Jet4 files'
                     * reference maps) only goes unchecked: Access
                     * rebuilds it when it compacts the file */
    c->gfree = jet_calloc((size_t)c->npages / 8 + 1, 1);
    if (c->gfree)
        for (size_t i = 0; i < l.count && l.pgnos[i] < c->npages; i++)
            c->gfree[l.pgnos[i] / 8] |= (uint8_t)(1u << (l.pgnos[i] % 8));
    jet_pglist_free(&l);
}

/* Long value pages carry "LVAL" where other data pages name their TDEF
 * (Jackcess LongValueColumnImpl, PageTypes.DATA with LVAL_PAGE). */
#define LVAL_SIG 0x4C41564Cu

/* Owned-page map at ptr of table t: check each page, record owners. */
static void check_owned(ck *c, const jet_tdef *t, uint32_t ptr,
                        const char *what)
{
    jet_pglist l;
    jet_error err;
    if (ptr == 0)
        return;
    if (jet_usagemap_read(&l, c->db, ptr, &err) != JET_OK) {
        report(c, ptr >> 8, t->name, "%s: %s", what, err.msg);
        return;
    }
    for (size_t i = 0; i < l.count; i++) {
        uint32_t p = l.pgnos[i];
        const uint8_t *page;
        if (jet_page_pin(c->db->pf, p, &page, &err) != JET_OK) {
            report(c, p, t->name, "%s lists page %u: %s", what, p, err.msg);
            continue;
        }
        if (page[0] != 0x01 && page[0] != 0x03 && page[0] != 0x04)
            report(c, p, t->name, "%s lists page %u, which is not a data "
                   "or index page (type %u)", what, p, page[0]);
        else if (jet_get_u32(page + 4) != t->pgno &&
                 !(page[0] == 0x01 && jet_get_u32(page + 4) == LVAL_SIG))
            report(c, p, t->name, "%s lists page %u, which belongs to the "
                   "table whose definition is page %u", what, p,
                   jet_get_u32(page + 4));
        jet_page_unpin(c->db->pf, page);
        if (is_gfree(c, p))
            report(c, p, t->name, "%s lists page %u, which the global "
                   "usage map says is free", what, p);
        if (c->owner[p] == OWNER_NONE || c->owner[p] == t->pgno)
            c->owner[p] = t->pgno;
        else {
            if (c->owner[p] != OWNER_MANY)
                report(c, p, t->name, "page %u is owned by this table and "
                       "by the table whose definition is page %u", p,
                       c->owner[p]);
            c->owner[p] = OWNER_MANY;
        }
    }
    jet_pglist_free(&l);
}

/* Free-space map at ptr: every page it lists must be owned by t. */
static void check_free(ck *c, const jet_tdef *t, uint32_t ptr,
                       const char *what)
{
    jet_pglist l;
    jet_error err;
    if (ptr == 0)
        return;
    if (jet_usagemap_read(&l, c->db, ptr, &err) != JET_OK) {
        report(c, ptr >> 8, t->name, "%s: %s", what, err.msg);
        return;
    }
    for (size_t i = 0; i < l.count; i++)
        if (c->owner[l.pgnos[i]] != t->pgno &&
            c->owner[l.pgnos[i]] != OWNER_MANY)
            report(c, l.pgnos[i], t->name, "%s lists page %u, which the "
                   "table does not own", what, l.pgnos[i]);
    jet_pglist_free(&l);
}

static void check_maps(ck *c, const jet_tdef *t)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    const jet_format *fmt = c->db->fmt;
    const uint8_t *page;
    uint32_t owned, freep;
    jet_error err;

    if (jet_page_pin(c->db->pf, t->pgno, &page, &err) != JET_OK) {
        report(c, t->pgno, t->name, "definition page: %s", err.msg);
        return;
    }
    owned = jet_get_u32(page + fmt->tdef_owned_pages);
    freep = jet_get_u32(page + fmt->tdef_free_pages);
    jet_page_unpin(c->db->pf, page);
    check_owned(c, t, owned, "owned-pages map");
    for (uint16_t i = 0; i < tp->nlval_umaps; i++)
        check_owned(c, t, tp->lval_umaps[i].owned_ptr,
                    "a long value column's owned-pages map");
    check_free(c, t, freep, "free-space map");
    for (uint16_t i = 0; i < tp->nlval_umaps; i++)
        check_free(c, t, tp->lval_umaps[i].free_ptr,
                   "a long value column's free-space map");
}

/* ------------------------------------------------------- rows, indexes */

/* A row or an index entry: where the row is, and the key's hash. */
typedef struct ref {
    uint32_t pgno;
    uint8_t row;
    uint8_t has_key;        /* rows: the key could be built */
    uint8_t skip;           /* rows: all-NULL key of an ignore-NULLs index */
    uint64_t key;
} ref;

typedef struct refs {
    ref *v;
    size_t n, cap, limit;
} refs;

static bool push(refs *r, ref x)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        ref *v;
        if (r->n >= r->limit)
            return false;
        v = jet_realloc(r->v, cap * sizeof *v);
        if (!v)
            return false;
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = x;
    return true;
}

static uint64_t hash_key(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static int cmp_ref(const void *a, const void *b)
{
    const ref *x = a, *y = b;
    uint64_t kx = (uint64_t)x->pgno << 8 | x->row;
    uint64_t ky = (uint64_t)y->pgno << 8 | y->row;
    return kx < ky ? -1 : kx > ky;
}

static bool is_span(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_MEMO || t == JET_T_BINARY ||
           t == JET_T_OLE || t == JET_T_EXT_DATETIME;
}

/* Compare the rows' keys of index ix with its entries (both sorted). */
static void match_index(ck *c, const jet_tdef *t, const jet_index *ix,
                        refs *rows, refs *ents)
{
    size_t i = 0, j = 0;
    if (ents->n > 1)
        qsort(ents->v, ents->n, sizeof *ents->v, cmp_ref);
    if (rows->n > 1)    /* a scan's order already, but not by contract */
        qsort(rows->v, rows->n, sizeof *rows->v, cmp_ref);
    while (i < rows->n || j < ents->n) {
        int d = i >= rows->n ? 1 : j >= ents->n ? -1
                              : cmp_ref(&rows->v[i], &ents->v[j]);
        if (d < 0) {
            if (!rows->v[i].skip)
                report(c, rows->v[i].pgno, t->name, "index %s has no entry "
                       "for row %u of page %u", ix->name, rows->v[i].row,
                       rows->v[i].pgno);
            i++;
        } else if (d > 0) {
            report(c, ents->v[j].pgno, t->name, "index %s has an entry for "
                   "row %u of page %u, which is not a live row", ix->name,
                   ents->v[j].row, ents->v[j].pgno);
            j++;
        } else {
            if (rows->v[i].has_key && rows->v[i].key != ents->v[j].key)
                report(c, rows->v[i].pgno, t->name, "index %s: the entry "
                       "for row %u of page %u holds another key than the "
                       "row's values", ix->name, rows->v[i].row,
                       rows->v[i].pgno);
            j++;
            while (j < ents->n && cmp_ref(&rows->v[i], &ents->v[j]) == 0) {
                report(c, ents->v[j].pgno, t->name, "index %s has two "
                       "entries for row %u of page %u", ix->name,
                       ents->v[j].row, ents->v[j].pgno);
                j++;
            }
            i++;
        }
    }
}

/* Walk index ix of t into ents: (row, key hash) per entry. */
static void walk_index(ck *c, const jet_tdef *t, uint16_t k, refs *ents)
{
    jet_index_cursor *cur;
    uint32_t pg;
    uint16_t row;
    jet_rc rc;
    ents->n = 0;
    if (jet_index_cursor_open(&cur, c->db, t, k) != JET_OK) {
        report(c, t->pgno, t->name, "index %s: %s", t->indexes[k].name,
               jet_db_error(c->db)->msg);
        return;
    }
    while ((rc = jet_index_next(cur, &pg, &row)) == JET_OK) {
        size_t len;
        const uint8_t *key = jet_index_entry_key(cur, &len);
        ref x = { pg, (uint8_t)row, 1, 0, hash_key(key, len) };
        if (!push(ents, x)) {
            report(c, t->pgno, t->name, "index %s: more entries than the "
                   "file can hold, or out of memory", t->indexes[k].name);
            break;
        }
        c->st->entries++;
    }
    if (rc < 0)
        report(c, jet_index_error(cur)->pgno, t->name, "index %s: %s",
               t->indexes[k].name, jet_index_error(cur)->msg);
    jet_index_cursor_close(cur);
}

/* Values of one row, spans copied (a scan's spans last one call). */
typedef struct rowvals {
    jet_value *v;
    jet_buf *copy;
    uint16_t n;
} rowvals;

static void check_table(ck *c, const jet_tdef *t)
{
    rowvals rv = { NULL, NULL, t->ncols };
    refs *rows = NULL, ents = { NULL, 0, 0, 0 };
    bool *keycol = NULL;
    jet_scan *s = NULL;
    uint32_t live = 0;
    size_t limit = (size_t)c->npages * (c->db->page_size / 4 + 1);
    jet_rc rc;

    c->st->tables++;
    check_maps(c, t);
    rows = jet_calloc(t->nindexes ? t->nindexes : 1, sizeof *rows);
    keycol = jet_calloc(t->ncols ? t->ncols : 1, sizeof *keycol);
    rv.v = jet_calloc(t->ncols ? t->ncols : 1, sizeof *rv.v);
    rv.copy = jet_calloc(t->ncols ? t->ncols : 1, sizeof *rv.copy);
    if (!rows || !keycol || !rv.v || !rv.copy) {
        report(c, t->pgno, t->name, "out of memory");
        goto out;
    }
    for (uint16_t k = 0; k < t->nindexes; k++) {
        rows[k].limit = limit;
        for (uint16_t m = 0; m < t->indexes[k].ncols; m++)
            if (t->indexes[k].cols[m].col < t->ncols)
                keycol[t->indexes[k].cols[m].col] = true;
    }
    ents.limit = limit;
    if (jet_scan_open(&s, c->db, t, NULL) != JET_OK) {
        report(c, t->pgno, t->name, "%s", jet_db_error(c->db)->msg);
        goto out;
    }
    while ((rc = jet_scan_next(s)) == JET_OK) {
        uint32_t pg;
        uint16_t row;
        live++;
        c->st->rows++;
        (void)jet_scan_position(s, &pg, &row);
        for (uint16_t i = 0; i < t->ncols; i++) {
            jet_type ty = t->cols[i].type;
            bool lval = ty == JET_T_MEMO || ty == JET_T_OLE;
            memset(&rv.v[i], 0, sizeof rv.v[i]);
            rv.v[i].is_null = true;
            rv.v[i].type = ty;
            if (!keycol[i] && !lval)
                continue;
            if (jet_scan_value(s, i, &rv.v[i]) != JET_OK) {
                report(c, pg, t->name, "row %u of page %u, column %s: %s",
                       row, pg, t->cols[i].name, jet_scan_error(s)->msg);
                rv.v[i].is_null = true;
                continue;
            }
            if (lval && !rv.v[i].is_null)
                c->st->long_values++;
            if (keycol[i] && is_span(ty) && !rv.v[i].is_null) {
                if (jet_buf_reserve(&rv.copy[i], rv.v[i].len + 1) !=
                    JET_OK) {
                    rv.v[i].is_null = true;
                    continue;
                }
                if (rv.v[i].len)
                    memcpy(rv.copy[i].data, rv.v[i].data, rv.v[i].len);
                rv.v[i].data = rv.copy[i].data;
            }
        }
        for (uint16_t k = 0; k < t->nindexes; k++) {
            const jet_index *ix = &t->indexes[k];
            uint8_t key[JET_INDEX_KEY_MAX];
            size_t len = 0;
            bool allnull = true;
            ref x = { pg, (uint8_t)row, 0, 0, 0 };
            for (uint16_t m = 0; m < ix->ncols; m++)
                if (ix->cols[m].col < t->ncols &&
                    !rv.v[ix->cols[m].col].is_null)
                    allnull = false;
            x.skip = ix->ignore_nulls && allnull;
            if (jet_index_row_key(key, sizeof key, &len, c->db, t, ix,
                                  rv.v) == JET_OK) {
                x.has_key = 1;
                x.key = hash_key(key, len);
            }
            if (!push(&rows[k], x)) {
                report(c, pg, t->name, "more rows than the file can hold, "
                       "or out of memory");
                rc = JET_ENOMEM;
                break;
            }
        }
        if (rc != JET_OK)
            break;
    }
    if (rc < 0 && rc != JET_ENOMEM)
        report(c, jet_scan_error(s)->pgno, t->name, "%s",
               jet_scan_error(s)->msg);
    if (rc == JET_DONE) {
        /* the TDEF page as it is now: t->row_count is the count at load,
         * stale once this connection wrote rows */
        uint32_t count = t->row_count;
        if (jet_table_row_count(c->db, t, &count) != JET_OK)
            count = t->row_count;
        if (live != count)
            report(c, t->pgno, t->name, "the table definition counts %u "
                   "rows; the table has %u", count, live);
    }
    jet_scan_close(s);
    s = NULL;
    if (rc != JET_DONE)
        goto out;       /* rows unknown: the indexes cannot be matched */
    for (uint16_t k = 0; k < t->nindexes; k++) {
        unsigned before = c->st->problems;
        if (t->indexes[k].first_pgno == 0)
            continue;
        c->st->indexes++;
        walk_index(c, t, k, &ents);
        if (c->st->problems == before)
            match_index(c, t, &t->indexes[k], &rows[k], &ents);
    }
out:
    jet_scan_close(s);
    if (rows)
        for (uint16_t k = 0; k < t->nindexes; k++)
            jet_free(rows[k].v);
    if (rv.copy)
        for (uint16_t i = 0; i < t->ncols; i++)
            jet_buf_free(&rv.copy[i]);
    jet_free(rows);
    jet_free(ents.v);
    jet_free(keycol);
    jet_free(rv.v);
    jet_free(rv.copy);
}

/* Data pages whose owner is a checked table but which no map lists. */
static void check_unowned(ck *c, const uint32_t *tdefs, size_t ntdefs)
{
    for (uint32_t p = 1; p < c->npages; p++) {
        const uint8_t *page;
        uint32_t o;
        bool known = false;
        if (c->owner[p] != OWNER_NONE || is_gfree(c, p))
            continue;
        if (jet_page_pin(c->db->pf, p, &page, NULL) != JET_OK)
            continue;
        o = page[0] == 0x01 ? jet_get_u32(page + c->db->fmt->data_tdef_pgno)
                            : 0;
        jet_page_unpin(c->db->pf, page);
        for (size_t i = 0; i < ntdefs && o; i++)
            known |= tdefs[i] == o;
        if (known)
            report(c, p, NULL, "data page %u belongs to the table whose "
                   "definition is page %u, but none of its usage maps "
                   "lists it", p, o);
    }
}

jet_rc jet_db_check(jet_db *db, jet_check_fn fn, void *ctx,
                    jet_check_stats *out)
{
    ck c;
    uint32_t *tdefs = NULL;
    size_t ntdefs = 0;
    jet_rc rc;

    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.db = db;
    c.fn = fn;
    c.ctx = ctx;
    c.st = out;
    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "the check reads Jet4 and ACE files (Access 2000 "
                        "and later) only");
    rc = jet_db_read_begin(db);
    if (rc != JET_OK)
        return rc;
    c.npages = jet_pagefile_page_count(db->pf);
    out->pages = c.npages;
    c.owner = jet_calloc(c.npages ? c.npages : 1, sizeof *c.owner);
    tdefs = jet_calloc(jet_catalog_count(db) + 1, sizeof *tdefs);
    if (!c.owner || !tdefs) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    read_global(&c);
    for (size_t i = 0; i < jet_catalog_count(db); i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_tdef *t;
        if (o->kind != JET_OBJ_TABLE && o->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        if (jet_tdef_load(&t, db, o) != JET_OK) {
            report(&c, o->tdef_pgno, o->name, "table definition: %s",
                   jet_db_error(db)->msg);
            continue;
        }
        tdefs[ntdefs++] = t->pgno;
        check_table(&c, t);
    }
    check_unowned(&c, tdefs, ntdefs);
out:
    jet_db_read_end(db);
    jet_free(tdefs);
    jet_free(c.owner);
    jet_free(c.gfree);
    return rc;
}
