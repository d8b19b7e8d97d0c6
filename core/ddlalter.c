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
jet_rc jet_ddl_user_table(jet_db *db, const char *name, jet_tdef_priv **out)
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
jet_rc jet_ddl_rewrite_tdef(jet_db *db, uint32_t first,
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

/* Live header facts of t's TDEF (row count, last AutoNumber, its
 * increment, last complex id) into spec. */
jet_rc jet_ddl_spec_live(jet_db *db, const jet_tdef_priv *t,
                         jet_tdef_spec *spec)
{
    const uint8_t *pg;
    jet_rc rc = jet_page_pin(db->pf, t->pub.pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    spec->row_count = jet_get_u32(pg + db->fmt->tdef_nrows);
    spec->auto_last = jet_get_u32(pg + 20);
    spec->auto_inc = jet_get_u32(pg + 24);
    spec->complex_last = jet_get_u32(pg + 28);
    jet_page_unpin(db->pf, pg);
    return JET_OK;
}

/* Every page of the index B-tree rooted at root into *l (appended; each
 * once; bounded by the file's pages). */
jet_rc jet_ddl_index_pages(jet_db *db, uint32_t root, jet_pglist *l)
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

/* Free the long-value pages of one column (those its owned map lists)
 * and its two maps' own pages. */
jet_rc jet_ddl_free_lvals(jet_db *db, const jet_lval_umap *u)
{
    jet_pglist l = { 0 };
    jet_rc rc = jet_usagemap_read(&l, db, u->owned_ptr, &db->err);
    for (size_t k = 0; k < l.count && rc == JET_OK; k++)
        rc = jet_db_page_free(db, l.pgnos[k]);
    jet_pglist_free(&l);
    if (rc == JET_OK)
        rc = jet_ddl_free_map_pages(db, u->owned_ptr);
    if (rc == JET_OK)
        rc = jet_ddl_free_map_pages(db, u->free_ptr);
    return rc;
}

/* Free the pages of a usage map row: the type-0x05 pages of a reference
 * map (an inline map has none). */
jet_rc jet_ddl_free_map_pages(jet_db *db, uint32_t ptr)
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

/* Access's refusal to drop a table or index a relationship uses */
#define IN_RELATIONSHIP_TEXT "Cannot delete this index or table. It is " \
    "either the current index or it is used in a relationship."

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
                              IN_RELATIONSHIP_TEXT);
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
        (rc = jet_ddl_user_table(db, name, &t)) != JET_OK)
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
            rc = jet_ddl_free_map_pages(db, t->lval_umaps[i].owned_ptr);
        if (rc == JET_OK)
            rc = jet_ddl_free_map_pages(db, t->lval_umaps[i].free_ptr);
    }
    for (uint32_t k = 0; k < t->nreals && rc == JET_OK; k++) {
        rc = jet_ddl_index_pages(db, t->reals[k].first_pgno, &pages);
        if (rc == JET_OK)
            rc = jet_ddl_free_map_pages(db, t->reals[k].umap_ptr);
    }
    for (size_t i = 0; i < pages.count && rc == JET_OK; i++)
        rc = jet_db_page_free(db, pages.pgnos[i]);
    if (rc == JET_OK)
        rc = jet_ddl_free_map_pages(db, t->owned_ptr);
    if (rc == JET_OK)
        rc = jet_ddl_free_map_pages(db, t->free_ptr);
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
jet_rc jet_ddl_index_umap_row(jet_db *db, const jet_tdef_priv *t,
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
jet_rc jet_ddl_build_index(jet_db *db, const jet_tdef *t, const jet_index *ix)
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
out:
    rc = jet_scan_finish(db, s, rc);
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
        (rc = jet_ddl_user_table(db, table, &t)) != JET_OK)
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
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
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
            (rc = jet_ddl_index_umap_row(db, t, r.first_pgno, &r.umap_ptr)) !=
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
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) != JET_OK ||
        (rc = jet_ddl_touch(db, t->pub.pgno)) != JET_OK ||
        (rc = jet_ddl_catalog_reload(db)) != JET_OK)
        goto out;
    if (fresh) {
        jet_tdef_priv *nt;
        if ((rc = jet_ddl_user_table(db, table, &nt)) != JET_OK)
            goto out;
        rc = jet_ddl_build_index(db, &nt->pub, &nt->pub.indexes[nlog - 1]);
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
        (rc = jet_ddl_user_table(db, table, &t)) != JET_OK)
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
                            IN_RELATIONSHIP_TEXT);
        if (i != li)
            shared = true;
    }
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
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
        if ((rc = jet_ddl_index_pages(db, reals[real].first_pgno, &pages)) !=
                JET_OK ||
            (rc = jet_ddl_free_map_pages(db, reals[real].umap_ptr)) != JET_OK)
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
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) == JET_OK &&
        (rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_pglist_free(&pages);
    jet_free(reals);
    jet_free(logical);
    return rc;
}

/* ----------------------------------------------------------- columns */

/* Decode the property map name at p + *pos (below end) into buf. */
static bool prop_name(jet_db *db, const uint8_t *p, size_t end, size_t *pos,
                      char *buf, size_t cap)
{
    return jet_prop_name(db, p, end, pos, buf, cap);
}

/*
 * Write at out a column block of LvProp: the header (hlen bytes: length,
 * type, name) of the old block blk (blen bytes), its values but those
 * named map[0] (Required) or map[1] (DefaultValue), then the nv bytes of
 * values at extra. Returns the bytes written (at most blen + nv); the
 * block's length is set.
 */
static size_t merge_block(uint8_t *out, const uint8_t *blk, size_t blen,
                          size_t hlen, const int map[2],
                          const uint8_t *extra, size_t nv)
{
    size_t at = hlen, vp = hlen;
    memcpy(out, blk, hlen);
    while (vp + 8 <= blen) {
        uint16_t vlen = jet_get_u16(blk + vp);
        uint16_t ni = jet_get_u16(blk + vp + 4);
        if (vlen < 8 || vlen > blen - vp)
            break;
        if ((int)ni != map[0] && (int)ni != map[1]) {
            memcpy(out + at, blk + vp, vlen);
            at += vlen;
        }
        vp += vlen;
    }
    if (nv)
        memcpy(out + at, extra, nv);
    at += nv;
    jet_put_u32(out, (uint32_t)at);
    return at;
}

/*
 * A table's LvProp (old, len bytes; NULL: none) with the column block of
 * drop_col removed (NULL: none) and the properties of column add (NULL:
 * none) appended as a block of its own, the names list extended with
 * what it lacks. With both (ALTER COLUMN: the same column) the column's
 * other properties (Caption, Format, Description, ...) are kept: its
 * block is written again with them and add's Required / DefaultValue in
 * place of the old ones. *out NULL when nothing is left to store; the
 * caller frees it. Format: Jackcess PropertyMaps (a block: u32 length,
 * u16 type, u32-prefixed name, then values of u16 length, u8 DDL flag,
 * u8 type, u16 name index, u16 data length, data).
 */
static jet_rc lvprop_edit(jet_db *db, const uint8_t *old, size_t len,
                          const char *drop_col, const jet_coldef *add,
                          uint8_t **out, size_t *out_len)
{
    uint8_t *addblob = NULL, *buf = NULL;
    size_t addlen = 0, n = 0, pos;
    jet_rc rc;

    *out = NULL;
    *out_len = 0;
    if (add && (rc = jet_ddl_build_lvprop(db, add, 1, &addblob, &addlen)) !=
                   JET_OK)
        return rc;
    if (!old || len < 4 || memcmp(old, "MR2", 4) != 0) {
        /* none stored (or not one we edit): the new column's alone */
        *out = addblob;
        *out_len = addlen;
        return JET_OK;
    }
    buf = jet_malloc(len + addlen + 64);
    if (!buf) {
        jet_free(addblob);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    memcpy(buf, old, 4);
    n = 4;
    pos = 4;
    /* names of the old list, to map the added block's name indexes */
    char names[2][16] = { "Required", "DefaultValue" };
    int map[2] = { -1, -1 };
    size_t list_at = 0, nnames = 0;
    bool have_list = false;
    /* ALTER COLUMN: the column's old block, kept to merge */
    const uint8_t *dropped = NULL;
    size_t dropped_len = 0, dropped_head = 0;
    while (pos + 6 <= len) {
        uint32_t clen = jet_get_u32(old + pos);
        uint16_t type = jet_get_u16(old + pos + 4);
        if (clen < 6 || clen > len - pos)
            break;
        bool keep = true;
        if (type == 0x80) {
            size_t q = pos + 6;
            have_list = true;
            list_at = n;
            while (q + 2 <= pos + clen) {
                char nm[64];
                size_t before = q;
                if (!prop_name(db, old, pos + clen, &q, nm, sizeof nm) ||
                    q == before)
                    break;
                for (int k = 0; k < 2; k++)
                    if (map[k] < 0 && strcmp(nm, names[k]) == 0)
                        map[k] = (int)nnames;
                nnames++;
            }
        } else if (drop_col && type == 0x01 && clen >= 10) {
            uint32_t nlen = jet_get_u32(old + pos + 6);
            size_t q = pos + 10;
            char nm[256];
            if (nlen > 6 && nlen <= clen - 6 &&
                prop_name(db, old, pos + 6 + nlen, &q, nm, sizeof nm) &&
                jet_name_equal_ci(nm, drop_col)) {
                keep = false;
                if (add && !dropped) {
                    dropped = old + pos;
                    dropped_len = clen;
                    dropped_head = 6 + nlen;
                }
            }
        }
        if (keep) {
            memcpy(buf + n, old + pos, clen);
            n += clen;
        }
        pos += clen;
    }
    if (dropped && !addblob && have_list) {
        /* neither Required nor a default any more: the other values,
         * when there are any */
        size_t b = merge_block(buf + n, dropped, dropped_len, dropped_head,
                               map, NULL, 0);
        if (b > dropped_head)
            n += b;
    }
    if (addblob && have_list) {
        /* names the old list lacks go at its end (indexes of the old
         * blocks stay); the new block's indexes follow the list */
        uint8_t *grown = jet_malloc(n + addlen + dropped_len + 128);
        size_t at = 0, list_len = jet_get_u32(buf + list_at);
        if (!grown) {
            rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                          "out of memory");
            goto fail;
        }
        memcpy(grown, buf, list_at + list_len);
        at = list_at + list_len;
        for (int k = 0; k < 2; k++) {
            if (map[k] >= 0)
                continue;
            size_t l = strlen(names[k]);
            jet_put_u16(grown + at, (uint16_t)(2 * l));
            at += 2;
            for (size_t c = 0; c < l; c++) {
                jet_put_u16(grown + at, (uint8_t)names[k][c]);
                at += 2;
            }
            map[k] = (int)nnames++;
        }
        jet_put_u32(grown + list_at, (uint32_t)(at - list_at));
        memcpy(grown + at, buf + list_at + list_len,
               n - list_at - list_len);
        at += n - list_at - list_len;
        /* the added blob: "MR2\0", its list chunk, then its one block */
        size_t q = 4 + jet_get_u32(addblob + 4);
        size_t blk = at;
        memcpy(grown + at, addblob + q, addlen - q);
        at += addlen - q;
        /* remap its values' name indexes (0 Required, 1 DefaultValue) */
        size_t vp = blk + 6 + jet_get_u32(grown + blk + 6);
        while (vp + 8 <= at) {
            uint16_t vlen = jet_get_u16(grown + vp);
            uint16_t ni = jet_get_u16(grown + vp + 4);
            if (vlen < 8)
                break;
            if (ni < 2)
                jet_put_u16(grown + vp + 4, (uint16_t)map[ni]);
            vp += vlen;
        }
        if (dropped) {
            /* the old block's header and other values, then the new
             * Required / DefaultValue values just written */
            size_t vals = blk + 6 + jet_get_u32(grown + blk + 6);
            size_t nv = at - vals;
            uint8_t *tmp = jet_malloc(nv ? nv : 1);
            if (!tmp) {
                jet_free(grown);
                rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                              "out of memory");
                goto fail;
            }
            memcpy(tmp, grown + vals, nv);
            at = blk + merge_block(grown + blk, dropped, dropped_len,
                                   dropped_head, map, tmp, nv);
            jet_free(tmp);
        }
        jet_free(buf);
        buf = grown;
        n = at;
    } else if (addblob) {
        /* no names list before: the new blob's own list serves */
        jet_free(buf);
        *out = addblob;
        *out_len = addlen;
        return JET_OK;
    }
    jet_free(addblob);
    if (n <= 4) {               /* nothing but the magic left */
        jet_free(buf);
        return JET_OK;
    }
    *out = buf;
    *out_len = n;
    return JET_OK;
fail:
    jet_free(addblob);
    jet_free(buf);
    return rc;
}

/*
 * Replace the LvProp of table id's MSysObjects row: drop_col's block
 * removed, add's properties added (lvprop_edit); DateUpdate now.
 */
jet_rc jet_ddl_update_lvprop(jet_db *db, int32_t id, const char *drop_col,
                             const jet_coldef *add)
{
    const jet_tdef *ms;
    rowids r = { 0 };
    jet_owned_row row = { 0 };
    jet_value *vals;
    uint8_t *blob = NULL;
    size_t blob_len = 0;
    int c_prop;
    jet_rc rc;

    if ((rc = jet_ddl_find_rows(db, "MSysObjects", "Id", id, NULL, &ms,
                                &r)) != JET_OK)
        return rc;
    if (!ms || r.n != 1) {
        rc = jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                      "MSysObjects has %zu rows of object %d", r.n,
                      (int)id);
        goto out;
    }
    c_prop = jet_tdef_find_column(ms, "LvProp");
    if (c_prop < 0) {
        rc = jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                      "MSysObjects has no LvProp column");
        goto out;
    }
    if ((rc = jet_owned_row_read(&row, db, ms, r.ids[0].pgno,
                                 r.ids[0].row)) != JET_OK)
        goto out;
    vals = row.vals;
    rc = lvprop_edit(db, vals[c_prop].is_null ? NULL : vals[c_prop].data,
                     vals[c_prop].is_null ? 0 : vals[c_prop].len, drop_col,
                     add, &blob, &blob_len);
    if (rc != JET_OK)
        goto out;
    vals[c_prop].is_null = blob == NULL;
    vals[c_prop].data = blob;
    vals[c_prop].len = blob_len;
    if (jet_table_rules_grant((jet_tdef_priv *)(uintptr_t)ms) != JET_OK) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    rc = jet_table_update(db, ms, r.ids[0], vals);
    jet_table_rules_free((jet_tdef_priv *)(uintptr_t)ms);
out:
    jet_owned_row_free(&row);
    jet_free(blob);
    jet_free(r.ids);
    return rc;
}

/* A usage map row (empty, inline) for a long value column of t. */
static jet_rc lval_umap_row(jet_db *db, const jet_tdef_priv *t,
                            uint32_t *ptr)
{
    return jet_ddl_index_umap_row(db, t, 0, ptr);
}

jet_rc jet_db_add_column(jet_db *db, const char *table,
                         const jet_coldef *def)
{
    jet_tdef_priv *t;
    jet_tdef_spec spec;
    jet_column *cols = NULL;
    jet_lval_umap *lval = NULL;
    uint16_t fixed_end = 0, nvar = 0, fend = 0, lcid;
    uint8_t sver;
    uint32_t nrows;
    int32_t id;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = jet_ddl_user_table(db, table, &t)) != JET_OK)
        return rc;
    if (!def)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO, "no column");
    id = jet_catalog_find(db, table)->id;
    if (t->pub.ncols >= JET_MAX_COLUMNS || t->max_cols >= 4095)
        return jet_fail(&db->err, JET_ELIMIT, t->pub.pgno, "table '%s' has "
                        "%u columns: a table has at most %d", t->pub.name,
                        t->pub.ncols, JET_MAX_COLUMNS);
    if (jet_tdef_find_column(&t->pub, def->name) >= 0)
        return jet_fail(&db->err, JET_EDUPLICATE, t->pub.pgno, "Field '%s' "
                        "already exists in table '%s'.", def->name,
                        t->pub.name);
    if ((rc = jet_table_row_count(db, &t->pub, &nrows)) != JET_OK)
        return rc;
    if (def->autonumber && nrows > 0)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pub.pgno, "an "
                        "AutoNumber column is not added to a table with "
                        "rows yet");
    jet_ddl_sort_order(db, &lcid, &sver);
    fixed_end = jet_ddl_fixed_end(t);
    cols = jet_calloc(t->pub.ncols + 1u, sizeof *cols);
    lval = jet_calloc(t->nlval_umaps + 1u, sizeof *lval);
    if (!cols || !lval) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    memcpy(cols, t->cols, t->pub.ncols * sizeof *cols);
    if (t->nlval_umaps)
        memcpy(lval, t->lval_umaps, t->nlval_umaps * sizeof *lval);
    rc = jet_ddl_layout_columns(db, def, 1, &cols[t->pub.ncols],
                                t->max_cols, t->num_var_cols, fixed_end,
                                lcid, sver, &nvar, &fend);
    if (rc != JET_OK)
        goto out;
    if ((size_t)fend + 2 + (t->max_cols + 8u) / 8 + 2 * (size_t)nvar + 4 >
        JET_MAX_ROW_LEN) {
        rc = jet_fail(&db->err, JET_ELIMIT, t->pub.pgno, "the record is too "
                      "large: the fixed-size columns would take %u bytes "
                      "of a row of at most %d", fend, JET_MAX_ROW_LEN);
        goto out;
    }
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        goto out;
    spec.cols = cols;
    spec.ncols = (uint16_t)(t->pub.ncols + 1);
    spec.max_cols = (uint16_t)(t->max_cols + 1);
    spec.num_var_cols = nvar;
    spec.lval = lval;
    if (jet_ddl_is_long(def->type)) {
        lval[t->nlval_umaps].col_num = cols[t->pub.ncols].col_num;
        if ((rc = lval_umap_row(db, t, &lval[t->nlval_umaps].owned_ptr)) !=
                JET_OK ||
            (rc = lval_umap_row(db, t, &lval[t->nlval_umaps].free_ptr)) !=
                JET_OK)
            goto out;
        spec.nlval = (uint16_t)(t->nlval_umaps + 1);
    }
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) != JET_OK)
        goto out;
    if ((def->required || def->default_value) &&
        (rc = jet_ddl_update_lvprop(db, id, NULL, def)) != JET_OK)
        goto out;
    if ((rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK &&
        (rc = jet_ddl_touch(db, MSYS_OBJECTS_PGNO)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_free(cols);
    jet_free(lval);
    return rc;
}

/* Whether a relationship of MSysRelationships names column col of table
 * (either side). */
jet_rc jet_ddl_rel_uses_column(jet_db *db, const char *table,
                               const char *col, bool *out)
{
    static const char *const sides[2][2] = {
        { "szObject", "szColumn" },
        { "szReferencedObject", "szReferencedColumn" } };
    *out = false;
    for (int k = 0; k < 2 && !*out; k++) {
        const jet_tdef *rt;
        rowids r = { 0 };
        jet_scan *s = NULL;
        jet_rc rc = jet_ddl_find_rows(db, "MSysRelationships", sides[k][0],
                                      0, table, &rt, &r);
        int cc = rt ? jet_tdef_find_column(rt, sides[k][1]) : -1;
        if (rc == JET_OK && r.n && cc >= 0)
            rc = jet_scan_open(&s, db, rt, NULL);
        for (size_t i = 0; rc == JET_OK && s && i < r.n && !*out; i++) {
            jet_value v;
            char nm[256];
            size_t len = 0;
            rc = jet_scan_fetch_row(s, r.ids[i].pgno, r.ids[i].row);
            if (rc == JET_OK)
                rc = jet_scan_value(s, (uint16_t)cc, &v);
            if (rc == JET_OK && !v.is_null &&
                jet_text_to_utf8(db, &v, nm, sizeof nm - 1, &len) ==
                    JET_OK && len < sizeof nm) {
                nm[len] = '\0';
                *out = jet_name_equal_ci(nm, col);
            }
        }
        jet_scan_close(s);
        jet_free(r.ids);
        if (rc != JET_OK)
            return rc;
    }
    return JET_OK;
}

jet_rc jet_db_drop_column(jet_db *db, const char *table, const char *name)
{
    jet_tdef_priv *t;
    jet_tdef_spec spec;
    jet_column *cols = NULL;
    jet_lval_umap *lval = NULL;
    uint16_t n = 0, nl = 0;
    bool used;
    int pos;
    int32_t id;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = jet_ddl_user_table(db, table, &t)) != JET_OK)
        return rc;
    id = jet_catalog_find(db, table)->id;
    pos = jet_tdef_find_column(&t->pub, name);
    if (pos < 0)
        return jet_fail(&db->err, JET_ENOTFOUND, t->pub.pgno, "Field '%s' "
                        "does not exist in table '%s'.", name ? name : "",
                        t->pub.name);
    const jet_column *dc = &t->cols[pos];
    if (t->pub.ncols == 1)
        return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno, "'%s' is "
                        "the only field of table '%s': a table keeps one",
                        dc->name, t->pub.name);
    for (uint16_t i = 0; i < t->pub.nindexes; i++)
        for (uint16_t k = 0; k < t->indexes[i].ncols; k++)
            if (t->indexes[i].cols[k].col == pos)
                return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                                "Cannot delete a field that is part of an "
                                "index or is needed by the system: field "
                                "'%s' is in index '%s'.", dc->name,
                                t->indexes[i].name);
    if ((rc = jet_ddl_rel_uses_column(db, t->pub.name, dc->name,
                                      &used)) != JET_OK)
        return rc;
    if (used)
        return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno, "Cannot "
                        "delete field '%s': it is part of a relationship.",
                        dc->name);
    cols = jet_calloc(t->pub.ncols, sizeof *cols);
    lval = jet_calloc(t->nlval_umaps + 1u, sizeof *lval);
    if (!cols || !lval) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (uint16_t i = 0; i < t->pub.ncols; i++)
        if (i != pos)
            cols[n++] = t->cols[i];
    for (uint16_t i = 0; i < t->nlval_umaps; i++) {
        if (t->lval_umaps[i].col_num != dc->col_num) {
            lval[nl++] = t->lval_umaps[i];
            continue;
        }
        /* the dropped column's long values and their maps' pages */
        if ((rc = jet_ddl_free_lvals(db, &t->lval_umaps[i])) != JET_OK)
            goto out;
    }
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        goto out;
    /* the row layout stays (max_cols, var count): rows keep their bytes,
     * the dropped column's slot goes unused */
    spec.cols = cols;
    spec.ncols = n;
    spec.lval = lval;
    spec.nlval = nl;
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) == JET_OK &&
        (rc = jet_ddl_update_lvprop(db, id, dc->name, NULL)) == JET_OK &&
        (rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK &&
        (rc = jet_ddl_touch(db, MSYS_OBJECTS_PGNO)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_free(cols);
    jet_free(lval);
    return rc;
}
