/*
 * ddlalter.c - schema changes of existing tables (ddl.h): indexes
 * created from the rows there and dropped, tables dropped, columns added
 * and dropped. The TDEF is read (tdef.c keeps its blocks as stored),
 * changed and written again through tdefenc.c over its page chain;
 * pages given back through pagealloc.c; the catalog read again (ddl.c).
 * Format: Jackcess TableMutator, IndexData, TableImpl; mdbtools
 * HACKING.md.
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "ddl_int.h"
#include "index.h"
#include "pagealloc.h"

/* ------------------------------------------------------ existing tables */

/* A local user table of db by name, loaded: JET_ENOTFOUND, or
 * JET_EUNSUPPORTED for system tables, links and queries. */
static jet_rc user_table(jet_db *db, const char *name, jet_tdef_priv **out)
{
    const jet_object *o = name ? jet_catalog_find(db, name) : NULL;
    const jet_tdef *t;
    jet_rc rc;
    *out = NULL;
    if (!o)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "Table '%s' does not exist.", name ? name : "");
    if (o->kind != JET_OBJ_TABLE)
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "'%s' is a %s: its definition is not changed here",
                        o->name, o->kind == JET_OBJ_SYSTEM_TABLE
                                     ? "system table" : "linked table");
    if ((rc = jet_tdef_load(&t, db, o)) != JET_OK)
        return rc;
    *out = (jet_tdef_priv *)(uintptr_t)t;
    return JET_OK;
}

/* The pages of t's TDEF chain (first = t's page), at most cap; *n. */
static jet_rc tdef_chain(jet_db *db, uint32_t first, uint32_t *pages,
                         size_t cap, size_t *n)
{
    uint32_t next = first;
    *n = 0;
    while (next) {
        const uint8_t *pg;
        jet_rc rc;
        if (*n >= cap)
            return jet_fail(&db->err, JET_ECORRUPT, first, "table "
                            "definition at page %u: chain too long", first);
        if ((rc = jet_page_pin(db->pf, next, &pg, &db->err)) != JET_OK)
            return rc;
        pages[(*n)++] = next;
        next = jet_get_u32(pg + db->fmt->tdef_next_pgno);
        jet_page_unpin(db->pf, pg);
    }
    return JET_OK;
}

#define CHAIN_MAX 64

/* Write spec as the TDEF of the table at first: its chain's pages reused,
 * more allocated or the surplus freed. */
static jet_rc rewrite_tdef(jet_db *db, uint32_t first,
                           const jet_tdef_spec *spec)
{
    uint32_t old[CHAIN_MAX], pages[CHAIN_MAX];
    size_t nold = 0, npages, len = 0;
    uint8_t *buf;
    jet_rc rc;

    if ((rc = tdef_chain(db, first, old, CHAIN_MAX, &nold)) != JET_OK)
        return rc;
    (void)jet_tdef_encode(NULL, 0, &len, db->fmt, spec, NULL);
    npages = jet_tdef_page_count(db->fmt, len);
    if (npages > CHAIN_MAX)
        return jet_fail(&db->err, JET_ELIMIT, first, "the table "
                        "definition would take %zu pages", npages);
    buf = jet_malloc(len);
    if (!buf)
        return jet_fail(&db->err, JET_ENOMEM, first, "out of memory");
    rc = jet_tdef_encode(buf, len, &len, db->fmt, spec, &db->err);
    for (size_t k = 0; rc == JET_OK && k < npages; k++) {
        if (k < nold) {
            pages[k] = old[k];
        } else {
            uint8_t *pg;
            rc = jet_db_page_new(db, &pages[k], &pg);
            if (rc == JET_OK) {
                pg[0] = 0x02;
                jet_page_unpin(db->pf, pg);
            }
        }
    }
    if (rc == JET_OK)
        rc = jet_ddl_write_tdef_pages(db, buf, len, pages, npages);
    for (size_t k = npages; rc == JET_OK && k < nold; k++)
        rc = jet_db_page_free(db, old[k]);
    jet_free(buf);
    return rc;
}

/* Live header facts of t's TDEF (row count, last AutoNumber) into spec. */
static jet_rc spec_live(jet_db *db, const jet_tdef_priv *t,
                        jet_tdef_spec *spec)
{
    const uint8_t *pg;
    jet_rc rc = jet_page_pin(db->pf, t->pub.pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    spec->row_count = jet_get_u32(pg + db->fmt->tdef_nrows);
    spec->auto_last = jet_get_u32(pg + 20);
    jet_page_unpin(db->pf, pg);
    return JET_OK;
}

/* Every page of the index B-tree rooted at root into *l (appended; each
 * once; bounded by the file's pages). */
static jet_rc index_pages(jet_db *db, uint32_t root, jet_pglist *l)
{
    uint32_t npg = jet_pagefile_page_count(db->pf);
    uint8_t *seen = jet_calloc(npg / 8 + 1, 1);
    uint32_t *stack = NULL;
    size_t nstack = 0, capstack = 0;
    jet_index_entry *ents = NULL;
    uint8_t *keys = NULL;
    jet_rc rc = JET_OK;

    if (!seen)
        return jet_fail(&db->err, JET_ENOMEM, root, "out of memory");
#define PUSH(p)                                                          \
    do {                                                                 \
        uint32_t p_ = (p);                                               \
        if (p_ == 0 || p_ >= npg || (seen[p_ / 8] >> (p_ % 8) & 1))      \
            break;                                                       \
        seen[p_ / 8] |= (uint8_t)(1u << (p_ % 8));                       \
        if (nstack == capstack) {                                        \
            size_t nc = capstack ? capstack * 2 : 64;                    \
            uint32_t *ns = jet_realloc(stack, nc * sizeof *ns);          \
            if (!ns) {                                                   \
                rc = JET_ENOMEM;                                         \
                break;                                                   \
            }                                                            \
            stack = ns;                                                  \
            capstack = nc;                                               \
        }                                                                \
        stack[nstack++] = p_;                                            \
    } while (0)
    PUSH(root);
    while (rc == JET_OK && nstack) {
        uint32_t p = stack[--nstack];
        const uint8_t *pg;
        jet_index_page_hdr h;
        if ((rc = jet_page_pin(db->pf, p, &pg, &db->err)) != JET_OK)
            break;
        rc = jet_index_page_read(pg, db->fmt, &h, NULL, 0, NULL, 0, NULL);
        if (rc == JET_OK && !h.leaf) {
            jet_free(ents);
            jet_free(keys);
            ents = jet_calloc(h.n ? h.n : 1, sizeof *ents);
            keys = jet_malloc(h.key_bytes ? h.key_bytes : 1);
            if (!ents || !keys)
                rc = JET_ENOMEM;
            else
                rc = jet_index_page_read(pg, db->fmt, &h, ents, h.n, keys,
                                         h.key_bytes, NULL);
            for (size_t i = 0; rc == JET_OK && i < h.n; i++)
                PUSH(ents[i].child);
            if (rc == JET_OK)
                PUSH(h.tail);
        }
        jet_page_unpin(db->pf, pg);
        if (rc == JET_OK) {
            if (l->count % 64 == 0) {
                uint32_t *n = jet_realloc(l->pgnos,
                                          (l->count + 64) * sizeof *n);
                if (!n) {
                    rc = JET_ENOMEM;
                    break;
                }
                l->pgnos = n;
            }
            l->pgnos[l->count++] = p;
        } else if (rc == JET_ECORRUPT) {
            jet_fail(&db->err, rc, p, "index page %u is damaged", p);
        }
    }
#undef PUSH
    if (rc == JET_ENOMEM)
        jet_fail(&db->err, rc, root, "out of memory");
    jet_free(seen);
    jet_free(stack);
    jet_free(ents);
    jet_free(keys);
    return rc;
}

/* Free the pages of a usage map row: the type-0x05 pages of a reference
 * map (an inline map has none). */
static jet_rc free_map_pages(jet_db *db, uint32_t ptr)
{
    uint32_t mp = ptr >> 8, ids[32];
    size_t n = 0;
    const uint8_t *pg;
    uint16_t st, en, fl;
    jet_rc rc;
    if (mp == 0 || mp >= jet_pagefile_page_count(db->pf))
        return JET_OK;
    if ((rc = jet_page_pin(db->pf, mp, &pg, &db->err)) != JET_OK)
        return rc;
    if (jet_row_bounds(db->fmt, pg, mp, (uint16_t)(ptr & 0xFF), &st, &en,
                       &fl, NULL) == JET_OK && en > st && pg[st] == 1) {
        for (size_t off = st + 1u; off + 4 <= en && n < 32; off += 4) {
            uint32_t p = jet_get_u32(pg + off);
            if (p)
                ids[n++] = p;
        }
    }
    jet_page_unpin(db->pf, pg);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *q;
        bool is_map;
        if ((rc = jet_page_pin(db->pf, ids[i], &q, &db->err)) != JET_OK)
            return rc;
        is_map = q[0] == JET_PAGE_USAGE_MAP;
        jet_page_unpin(db->pf, q);
        if (is_map && (rc = jet_db_page_free(db, ids[i])) != JET_OK)
            return rc;
    }
    return JET_OK;
}

/* ------------------------------------------------------------ drop table */

/* MSysRelationships grbit: 0x2 = not enforced (Jackcess RelationshipImpl) */
#define REL_NO_INTEGRITY 0x2

/*
 * Relationships naming table name: an enforced one refuses the drop
 * (Access: "drop the relationship first"; an enforced relationship also
 * has foreign-key index entries in both tables' TDEFs); the rows of the
 * others are collected for deletion into *del.
 */
static jet_rc check_relationships(jet_db *db, const char *name,
                                  const jet_tdef **rt, rowids *del)
{
    rowids a = { 0 }, b = { 0 };
    const jet_tdef *t;
    jet_scan *s = NULL;
    int cg;
    jet_rc rc;

    del->ids = NULL;
    del->n = 0;
    if ((rc = jet_ddl_find_rows(db, "MSysRelationships", "szObject", 0, name, rt,
                        &a)) != JET_OK ||
        (rc = jet_ddl_find_rows(db, "MSysRelationships", "szReferencedObject", 0,
                        name, &t, &b)) != JET_OK)
        goto out;
    if (!*rt || (!a.n && !b.n))
        goto out;
    cg = jet_tdef_find_column(*rt, "grbit");
    rowids *lists[2] = { &a, &b };
    for (int k = 0; k < 2 && rc == JET_OK; k++)
        for (size_t i = 0; i < lists[k]->n && rc == JET_OK; i++) {
            jet_value v;
            if ((rc = jet_scan_open(&s, db, *rt, NULL)) != JET_OK)
                break;
            rc = jet_scan_fetch_row(s, lists[k]->ids[i].pgno,
                                    lists[k]->ids[i].row);
            if (rc == JET_OK && cg >= 0)
                rc = jet_scan_value(s, (uint16_t)cg, &v);
            if (rc == JET_OK && cg >= 0 &&
                !(!v.is_null && (v.u.i & REL_NO_INTEGRITY)))
                rc = jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                              "Table '%s' is part of an enforced "
                              "relationship: delete its relationships "
                              "first.", name);
            jet_scan_close(s);
            s = NULL;
        }
    if (rc != JET_OK)
        goto out;
    /* the unenforced relationships' rows (a row naming the table on both
     * sides is listed once) */
    del->ids = jet_calloc(a.n + b.n + 1, sizeof *del->ids);
    if (!del->ids) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            bool dup = false;
            for (size_t j = 0; j < del->n; j++)
                dup = dup || (del->ids[j].pgno == lists[k]->ids[i].pgno &&
                              del->ids[j].row == lists[k]->ids[i].row);
            if (!dup)
                del->ids[del->n++] = lists[k]->ids[i];
        }
out:
    jet_free(a.ids);
    jet_free(b.ids);
    return rc;
}

jet_rc jet_db_drop_table(jet_db *db, const char *name)
{
    jet_tdef_priv *t;
    jet_pglist pages = { 0 };
    rowids rel = { 0 }, obj = { 0 }, aces = { 0 };
    const jet_tdef *rt = NULL, *ms = NULL, *at = NULL;
    uint32_t chain[CHAIN_MAX];
    size_t nchain = 0;
    int32_t id;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = user_table(db, name, &t)) != JET_OK)
        return rc;
    id = (int32_t)t->pub.pgno;
    {
        const jet_object *o = jet_catalog_find(db, name);
        id = o->id;
    }
    if ((rc = check_relationships(db, t->pub.name, &rt, &rel)) != JET_OK)
        goto out;
    /* its pages: data, long values, indexes, usage map pages, TDEF */
    for (size_t i = 0; i < t->owned.count && rc == JET_OK; i++)
        rc = jet_db_page_free(db, t->owned.pgnos[i]);
    for (uint16_t i = 0; i < t->nlval_umaps && rc == JET_OK; i++) {
        jet_pglist l = { 0 };
        rc = jet_usagemap_read(&l, db, t->lval_umaps[i].owned_ptr, &db->err);
        for (size_t k = 0; k < l.count && rc == JET_OK; k++)
            rc = jet_db_page_free(db, l.pgnos[k]);
        jet_pglist_free(&l);
        if (rc == JET_OK)
            rc = free_map_pages(db, t->lval_umaps[i].owned_ptr);
        if (rc == JET_OK)
            rc = free_map_pages(db, t->lval_umaps[i].free_ptr);
    }
    for (uint32_t k = 0; k < t->nreals && rc == JET_OK; k++) {
        rc = index_pages(db, t->reals[k].first_pgno, &pages);
        if (rc == JET_OK)
            rc = free_map_pages(db, t->reals[k].umap_ptr);
    }
    for (size_t i = 0; i < pages.count && rc == JET_OK; i++)
        rc = jet_db_page_free(db, pages.pgnos[i]);
    if (rc == JET_OK)
        rc = free_map_pages(db, t->owned_ptr);
    if (rc == JET_OK)
        rc = free_map_pages(db, t->free_ptr);
    if (rc == JET_OK)
        rc = tdef_chain(db, t->pub.pgno, chain, CHAIN_MAX, &nchain);
    for (size_t k = 0; k < nchain && rc == JET_OK; k++)
        rc = jet_db_page_free(db, chain[k]);
    /* its catalog rows: MSysObjects, MSysACEs, unenforced relationships */
    if (rc == JET_OK)
        rc = jet_ddl_find_rows(db, "MSysObjects", "Id", id, NULL, &ms, &obj);
    if (rc == JET_OK && obj.n != 1)
        rc = jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                      "MSysObjects has %zu rows of table '%s'", obj.n,
                      t->pub.name);
    if (rc == JET_OK)
        rc = jet_ddl_find_rows(db, "MSysACEs", "ObjectId", id, NULL, &at, &aces);
    if (rc == JET_OK)
        rc = jet_ddl_delete_rows(db, ms, &obj);
    if (rc == JET_OK)
        rc = jet_ddl_delete_rows(db, at, &aces);
    if (rc == JET_OK)
        rc = jet_ddl_delete_rows(db, rt, &rel);
    if (rc == JET_OK && (rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK &&
        (rc = jet_ddl_touch(db, MSYS_OBJECTS_PGNO)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_pglist_free(&pages);
    jet_free(rel.ids);
    jet_free(obj.ids);
    jet_free(aces.ids);
    return rc;
}

/* ----------------------------------------------------------- indexes */

/* A usage map row for a new physical index of t naming root: on the page
 * of t's owned-pages map row when it has room, else on a new page. */
static jet_rc index_umap_row(jet_db *db, const jet_tdef_priv *t,
                             uint32_t root, uint32_t *ptr)
{
    uint8_t row[UMAP_ROW_LEN], *pg;
    uint32_t mp = t->owned_ptr >> 8;
    jet_rc rc;

    jet_ddl_umap_inline(row, root);
    if (mp >= 3 && mp < jet_pagefile_page_count(db->pf)) {
        if ((rc = jet_page_write(db->pf, mp, &pg, &db->err)) != JET_OK)
            return rc;
        bool fits = pg[0] == JET_PAGE_DATA &&
                    jet_get_u32(pg + db->fmt->data_tdef_pgno) == 0 &&
                    jet_data_page_free_space(db->fmt, pg) >=
                        UMAP_ROW_LEN + 2 &&
                    jet_page_row_count(db->fmt, pg) < JET_MAX_ROWS_PER_PAGE;
        if (fits)
            rc = jet_ddl_umap_row_add(db, pg, mp, row, ptr);
        jet_page_unpin(db->pf, pg);
        if (fits)
            return rc;
    }
    if ((rc = jet_db_page_new(db, &mp, &pg)) != JET_OK)
        return rc;
    jet_data_page_init(pg, db->fmt, 0, false);
    rc = jet_ddl_umap_row_add(db, pg, mp, row, ptr);
    jet_page_unpin(db->pf, pg);
    return rc;
}

/* Entries of index ix (logical number li) of t for every row: the rows'
 * keys added (a unique index over duplicates: JET_EDUPLICATE). */
static jet_rc build_index(jet_db *db, const jet_tdef *t, const jet_index *ix)
{
    jet_value *vals = jet_calloc(t->ncols, sizeof *vals);
    jet_scan *s = NULL;
    jet_rc rc;

    if (!vals)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if ((rc = jet_scan_open(&s, db, t, NULL)) != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        uint8_t key[KEY_CAP];
        size_t klen;
        bool all_null = true, any_null = false;
        uint32_t pgno;
        uint16_t row;
        for (uint16_t i = 0; i < t->ncols; i++) {
            vals[i].type = t->cols[i].type;
            vals[i].is_null = true;
        }
        for (uint16_t k = 0; k < ix->ncols && rc == JET_OK; k++) {
            uint16_t c = ix->cols[k].col;
            rc = jet_scan_value(s, c, &vals[c]);
            all_null = all_null && vals[c].is_null;
            any_null = any_null || vals[c].is_null;
        }
        if (rc != JET_OK)
            break;
        if (ix->required && any_null) {
            rc = jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                          "Index or primary key cannot contain a Null "
                          "value.");
            break;
        }
        if (ix->ignore_nulls && all_null)
            continue;
        if ((rc = jet_scan_position(s, &pgno, &row)) != JET_OK)
            break;
        rc = jet_index_row_key(key, sizeof key, &klen, db, t, ix, vals);
        if (rc != JET_OK) {
            jet_fail(&db->err, rc, pgno, "index '%s': a key of row %u:%u "
                     "cannot be encoded", ix->name, pgno, row);
            break;
        }
        rc = jet_index_entry_insert(db, t, ix, key, klen,
                                    (jet_rowid){ pgno, row });
        if (rc != JET_OK)
            break;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_OK && s && jet_scan_error(s)->rc == rc)
        db->err = *jet_scan_error(s);
out:
    jet_scan_close(s);
    jet_free(vals);
    return rc;
}

jet_rc jet_db_create_index(jet_db *db, const char *table,
                           const jet_idxdef *def)
{
    jet_tdef_priv *t;
    jet_tdef_spec spec;
    jet_tdef_real_idx *reals = NULL, r;
    jet_tdef_logical_idx *logical = NULL;
    char iname[3 * NAME_MAX_UNITS + 8];
    uint32_t nreal, nlog, k;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = user_table(db, table, &t)) != JET_OK)
        return rc;
    if (t->pub.nindexes >= JET_MAX_INDEXES)
        return jet_fail(&db->err, JET_ELIMIT, t->pub.pgno, "table '%s' has "
                        "%d indexes already, the most a table has",
                        t->pub.name, JET_MAX_INDEXES);
    if ((rc = jet_ddl_check_index(db, def, t->cols, t->pub.ncols, iname,
                          sizeof iname)) != JET_OK)
        return rc;
    for (uint16_t i = 0; i < t->pub.nindexes; i++)
        if (def->primary && t->indexes[i].primary_key)
            return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                            "Multiple primary keys are not allowed.");
    for (uint16_t i = 0; i < t->pub.nindexes; i++)
        if (jet_name_equal_ci(t->indexes[i].name, iname))
            return jet_fail(&db->err, JET_EDUPLICATE, t->pub.pgno,
                            "Index '%s' already exists.", iname);
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = spec_live(db, t, &spec)) != JET_OK)
        return rc;
    nreal = spec.nreal;
    nlog = spec.nlogical;
    reals = jet_calloc(nreal + 1, sizeof *reals);
    logical = jet_calloc(nlog + 1, sizeof *logical);
    if (!reals || !logical) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if (nreal)
        memcpy(reals, spec.reals, nreal * sizeof *reals);
    if (nlog)
        memcpy(logical, spec.logical, nlog * sizeof *logical);
    jet_ddl_real_of(&r, def, t->cols);
    for (k = 0; k < nreal && !jet_ddl_same_real(&reals[k], &r); k++)
        ;
    bool fresh = k == nreal;
    if (fresh) {
        if ((rc = jet_ddl_new_root(db, t->pub.pgno, &r.first_pgno)) != JET_OK ||
            (rc = index_umap_row(db, t, r.first_pgno, &r.umap_ptr)) !=
                JET_OK)
            goto out;
        reals[nreal++] = r;
    }
    uint32_t num = 0;
    for (uint32_t i = 0; i < nlog; i++)
        if (logical[i].index_num >= num)
            num = logical[i].index_num + 1;
    logical[nlog++] = (jet_tdef_logical_idx){
        .name = iname, .index_num = num, .real = k,
        .rel_index_num = 0xFFFFFFFFu, .type = def->primary ? 1 : 0 };
    spec.reals = reals;
    spec.nreal = nreal;
    spec.logical = logical;
    spec.nlogical = nlog;
    if ((rc = rewrite_tdef(db, t->pub.pgno, &spec)) != JET_OK ||
        (rc = jet_ddl_touch(db, t->pub.pgno)) != JET_OK ||
        (rc = jet_ddl_catalog_reload(db)) != JET_OK)
        goto out;
    if (fresh) {
        jet_tdef_priv *nt;
        if ((rc = user_table(db, table, &nt)) != JET_OK)
            goto out;
        rc = build_index(db, &nt->pub, &nt->pub.indexes[nlog - 1]);
    }
out:
    jet_free(reals);
    jet_free(logical);
    return rc;
}

jet_rc jet_db_drop_index(jet_db *db, const char *table, const char *name)
{
    jet_tdef_priv *t;
    jet_tdef_spec spec;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL;
    jet_pglist pages = { 0 };
    uint32_t li = UINT32_MAX, real, nreal, nlog = 0;
    bool shared = false;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = user_table(db, table, &t)) != JET_OK)
        return rc;
    for (uint16_t i = 0; i < t->pub.nindexes; i++)
        if (name && jet_name_equal_ci(t->indexes[i].name, name))
            li = i;
    if (li == UINT32_MAX)
        return jet_fail(&db->err, JET_ENOTFOUND, t->pub.pgno, "Index '%s' "
                        "does not exist on table '%s'.", name ? name : "",
                        t->pub.name);
    real = t->logical[li].real;
    for (uint16_t i = 0; i < t->pub.nindexes; i++) {
        if (t->logical[i].real != real)
            continue;
        if (t->logical[i].type == 2)
            return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                            "Index '%s' is used by a relationship: delete "
                            "the relationship first.", name);
        if (i != li)
            shared = true;
    }
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = spec_live(db, t, &spec)) != JET_OK)
        return rc;
    nreal = spec.nreal;
    reals = jet_calloc(nreal + 1, sizeof *reals);
    logical = jet_calloc(spec.nlogical + 1, sizeof *logical);
    if (!reals || !logical) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    memcpy(reals, spec.reals, nreal * sizeof *reals);
    for (uint32_t i = 0; i < spec.nlogical; i++) {
        if (i == li)
            continue;
        logical[nlog] = spec.logical[i];
        if (!shared && logical[nlog].real > real)
            logical[nlog].real--;
        nlog++;
    }
    if (!shared) {
        if ((rc = index_pages(db, reals[real].first_pgno, &pages)) !=
                JET_OK ||
            (rc = free_map_pages(db, reals[real].umap_ptr)) != JET_OK)
            goto out;
        for (size_t i = 0; i < pages.count && rc == JET_OK; i++)
            rc = jet_db_page_free(db, pages.pgnos[i]);
        if (rc != JET_OK)
            goto out;
        memmove(reals + real, reals + real + 1,
                (nreal - real - 1) * sizeof *reals);
        nreal--;
    }
    spec.reals = reals;
    spec.nreal = nreal;
    spec.logical = logical;
    spec.nlogical = nlog;
    if ((rc = rewrite_tdef(db, t->pub.pgno, &spec)) == JET_OK &&
        (rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_pglist_free(&pages);
    jet_free(reals);
    jet_free(logical);
    return rc;
}

jet_rc jet_db_add_column(jet_db *db, const char *table,
                         const jet_coldef *def)
{
    jet_rc rc = jet_ddl_need_write(db);
    if (rc != JET_OK)
        return rc;
    (void)table;
    (void)def;
    return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                    "ALTER TABLE ADD COLUMN is not supported yet");
}

jet_rc jet_db_drop_column(jet_db *db, const char *table, const char *name)
{
    jet_rc rc = jet_ddl_need_write(db);
    if (rc != JET_OK)
        return rc;
    (void)table;
    (void)name;
    return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                    "ALTER TABLE DROP COLUMN is not supported yet");
}
