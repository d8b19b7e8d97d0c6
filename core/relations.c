/*
 * relations.c - referential integrity (write.h, "relationships"): the
 * relationships of MSysRelationships with "enforce referential integrity"
 * kept on every row the write path inserts, updates or deletes, as the
 * Jet engine keeps them.
 *
 * A relationship joins a child (szObject) to a parent (szReferencedObject)
 * on one to ten column pairs (szColumn -> szReferencedColumn, one
 * MSysRelationships row per pair, icolumn its place). grbit says how it
 * is enforced (Jackcess RelationshipImpl):
 *   0x00000002  not enforced (no rule: skipped here)
 *   0x00000100  cascade updates: re-keying a parent re-keys its children
 *   0x00001000  cascade deletes: deleting a parent deletes its children
 *   0x00002000  cascade to NULL (ACE): deleting a parent sets the
 *               children's keys to NULL
 * The rules (Access's messages, JET_ECONSTRAINT -> 23000):
 *   - a child row inserted, or updated with other key values, whose key
 *     is not all NULL needs a parent row with that key: "You cannot add
 *     or change a record because a related record is required in table
 *     '<parent>'." (a key with some NULL columns needs one too, which
 *     no parent has: Jackcess's FKEnforcer rule; only an all-NULL key is
 *     free);
 *   - deleting a parent row, or changing its key, while child rows hold
 *     its key: "The record cannot be deleted or changed because table
 *     '<child>' includes related records.", unless the relationship
 *     cascades: then each child row is deleted, re-keyed or set to NULL
 *     through jet_table_delete/jet_table_update (whose own relationships
 *     apply in turn), before the parent row changes.
 * Lookups go through the indexes Access keeps for a relationship: the
 * parent's primary key (or a unique index on the same columns) and the
 * child's foreign-key index, each sought by the exact key bytes
 * jet_index_row_key builds for that index (so text matches as the index
 * compares it, case-insensitively). The write path keeps both indexes up
 * to date as for any index. A relationship that cannot be enforced so
 * (a table that is not a local one, no such index, columns of different
 * types) makes jet_table_check_writable refuse its tables (HYC00).
 *
 * Cascades run inside the statement's savepoint like the row that caused
 * them: a refusal anywhere leaves the file as it was. Rows whose delete is
 * running (db->rel_frames) are not counted as children again, so cycles
 * of cascading deletes end; cascades nest at most REL_MAX_DEPTH deep.
 * A child's key written by a cascade is not checked against its parent
 * again (the parent's new key is written right after): Jackcess does the
 * same (FKEnforcer.SharedState).
 * Format: Jackcess RelationshipImpl, FKEnforcer, IndexImpl; mdbtools
 * HACKING.md (MSysRelationships).
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "write.h"

#define REL_NO_INTEGRITY   0x00000002u
#define REL_CASCADE_UPDATE 0x00000100u
#define REL_CASCADE_DELETE 0x00001000u
#define REL_CASCADE_NULL   0x00002000u

/* cascades nested deeper than this are refused (JET_ELIMIT) */
#define REL_MAX_DEPTH 16
/* relationships one table takes part in */
#define REL_MAX 256

#define ORPHAN_TEXT "You cannot add or change a record because a related " \
                    "record is required in table '%s'."
#define CHILDREN_TEXT "The record cannot be deleted or changed because "   \
                      "table '%s' includes related records."

/** One enforced relationship. */
typedef struct rel {
    char name[256];
    uint32_t grbit;
    const jet_tdef *child, *parent;
    uint16_t ncols;
    bool have[10];               /* icolumn seen (while loading) */
    uint16_t ccol[10], pcol[10]; /* column positions, pair by pair */
    uint16_t cix, pix;           /* the child's and the parent's index */
} rel;

/** The enforced relationships of one table (cached in its tdef). */
struct jet_rel_set {
    size_t n;
    rel *r;
    jet_rc rc;                   /* JET_OK, or JET_EUNSUPPORTED: err */
    jet_error err;
};

/** A row whose delete or update runs cascades now (db->rel_frames). */
struct jet_rel_frame {
    const jet_tdef *t;
    jet_rowid id;
    bool deleting;
    unsigned depth;
    struct jet_rel_frame *up;
};

void jet_rel_free(jet_tdef_priv *t)
{
    if (!t || !t->rels)
        return;
    jet_free(t->rels->r);
    jet_free(t->rels);
    t->rels = NULL;
}

/* ------------------------------------------------------------- loading */

/* A TEXT value of the current scan row as UTF-8 into buf; "" for NULL. */
static jet_rc scan_text(jet_scan *s, jet_db *db, int pos, char *buf,
                        size_t cap)
{
    jet_value v;
    size_t n = 0;
    jet_rc rc;
    buf[0] = '\0';
    if (pos < 0)
        return JET_OK;
    rc = jet_scan_value(s, (uint16_t)pos, &v);
    if (rc != JET_OK)
        return rc;
    if (v.is_null || (v.type != JET_T_TEXT && v.type != JET_T_MEMO))
        return JET_OK;
    rc = jet_text_to_utf8(db, &v, buf, cap - 1, &n);
    if (rc != JET_OK)
        return rc;
    buf[n < cap - 1 ? n : cap - 1] = '\0';
    return JET_OK;
}

/* An integer column of the current scan row; -1 for NULL. */
static jet_rc scan_int(jet_scan *s, int pos, int64_t *out)
{
    jet_value v;
    jet_rc rc;
    *out = -1;
    if (pos < 0)
        return JET_OK;
    rc = jet_scan_value(s, (uint16_t)pos, &v);
    if (rc == JET_OK && !v.is_null)
        *out = v.u.i;
    return rc;
}

/* The local table named name, or NULL with the reason in err. */
static jet_rc local_table(const jet_tdef **out, jet_db *db, const char *name,
                          const char *relname, jet_error *err)
{
    const jet_object *o = jet_catalog_find(db, name);
    *out = NULL;
    if (!o || (o->kind != JET_OBJ_TABLE && o->kind != JET_OBJ_SYSTEM_TABLE))
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "the enforced relationship '%s' names table '%s', "
                        "which is not a table of this database: writing "
                        "it is not supported", relname, name);
    return jet_tdef_load(out, db, o);
}

bool jet_index_on_columns(const jet_index *ix, const uint16_t *cols,
                          unsigned n)
{
    if (ix->ncols != n)
        return false;
    for (unsigned k = 0; k < n; k++) {
        bool found = false;
        for (unsigned j = 0; j < n && !found; j++)
            found = ix->cols[j].col == cols[k];
        if (!found)
            return false;
    }
    return true;
}

int jet_rel_index(const jet_tdef *t, const uint16_t *cols, uint16_t n,
                  bool parent)
{
    int best = -1, best_rank = -1;
    for (uint16_t i = 0; i < t->nindexes; i++) {
        const jet_index *ix = &t->indexes[i];
        int rank;
        if ((parent && !(ix->unique || ix->primary_key)) ||
            !jet_index_on_columns(ix, cols, n))
            continue;
        /* parent: primary key, then another unique index, then a
         * foreign-key entry (it shares a unique index's keys); child:
         * its foreign-key index, then any */
        rank = parent ? (ix->primary_key ? 2 : !ix->foreign_key)
                      : ix->foreign_key;
        if (rank > best_rank) {
            best = i;
            best_rank = rank;
        }
    }
    return best;
}

/* Pick the parent's unique index and the child's foreign-key index of r,
 * check its columns; a reason in err when it cannot be enforced. */
static jet_rc rel_finish(rel *r, jet_error *err)
{
    int best;
    for (uint16_t k = 0; k < r->ncols; k++)
        if (!r->have[k])
            return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO, "relationship "
                            "'%s' lacks its column %u in MSysRelationships",
                            r->name, k);
    for (uint16_t k = 0; k < r->ncols; k++) {
        const jet_column *cc = &r->child->cols[r->ccol[k]];
        const jet_column *pc = &r->parent->cols[r->pcol[k]];
        if (cc->type != pc->type)
            return jet_fail(err, JET_EUNSUPPORTED, r->child->pgno,
                            "the enforced relationship '%s' joins '%s.%s' "
                            "and '%s.%s' of different types: writing them "
                            "is not supported", r->name, r->child->name,
                            cc->name, r->parent->name, pc->name);
    }
    best = jet_rel_index(r->parent, r->pcol, r->ncols, true);
    if (best < 0)
        return jet_fail(err, JET_EUNSUPPORTED, r->parent->pgno,
                        "the enforced relationship '%s' has no unique "
                        "index on its columns in table '%s': writing it is "
                        "not supported", r->name, r->parent->name);
    r->pix = (uint16_t)best;
    best = jet_rel_index(r->child, r->ccol, r->ncols, false);
    if (best < 0)
        return jet_fail(err, JET_EUNSUPPORTED, r->child->pgno,
                        "the enforced relationship '%s' has no index on "
                        "its columns in table '%s': writing it is not "
                        "supported", r->name, r->child->name);
    r->cix = (uint16_t)best;
    return JET_OK;
}

/* Add MSysRelationships' current row (an enforced one naming t) to set. */
static jet_rc add_row(struct jet_rel_set *set, size_t *cap, jet_db *db,
                      const char *name, const char *obj, const char *col,
                      const char *ref, const char *refcol, int64_t icol,
                      int64_t ccol, uint32_t grbit, jet_error *err)
{
    rel *r = NULL;
    int pos;
    jet_rc rc;
    for (size_t i = 0; i < set->n && !r; i++)
        if (jet_name_equal_ci(set->r[i].name, name))
            r = &set->r[i];
    if (!r) {
        if (set->n >= REL_MAX)
            return jet_fail(err, JET_ELIMIT, JET_NO_PGNO, "more than %d "
                            "relationships on one table", REL_MAX);
        if (set->n == *cap) {
            size_t nc = *cap ? *cap * 2 : 4;
            rel *p = jet_realloc(set->r, nc * sizeof *p);
            if (!p)
                return jet_fail(err, JET_ENOMEM, JET_NO_PGNO,
                                "out of memory");
            set->r = p;
            *cap = nc;
        }
        r = &set->r[set->n++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", name);
        r->grbit = grbit;
        if (ccol < 1 || ccol > 10)
            return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "the enforced relationship '%s' has %lld "
                            "columns: writing it is not supported", name,
                            (long long)ccol);
        r->ncols = (uint16_t)ccol;
        if ((rc = local_table(&r->child, db, obj, name, err)) != JET_OK ||
            (rc = local_table(&r->parent, db, ref, name, err)) != JET_OK)
            return rc;
    }
    if (icol < 0 || icol >= r->ncols || r->have[icol] ||
        !jet_name_equal_ci(obj, r->child->name) ||
        !jet_name_equal_ci(ref, r->parent->name))
        return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO, "MSysRelationships: "
                        "relationship '%s' has a bad column row %lld", name,
                        (long long)icol);
    pos = jet_tdef_find_column(r->child, col);
    if (pos < 0)
        return jet_fail(err, JET_ECORRUPT, r->child->pgno, "relationship "
                        "'%s' names no column '%s' of table '%s'", name, col,
                        r->child->name);
    r->ccol[icol] = (uint16_t)pos;
    pos = jet_tdef_find_column(r->parent, refcol);
    if (pos < 0)
        return jet_fail(err, JET_ECORRUPT, r->parent->pgno, "relationship "
                        "'%s' names no column '%s' of table '%s'", name,
                        refcol, r->parent->name);
    r->pcol[icol] = (uint16_t)pos;
    r->have[icol] = true;
    return JET_OK;
}

/* Read the enforced relationships naming t into set (err: a reason not
 * to write t, or what could not be read). */
static jet_rc read_rels(struct jet_rel_set *set, jet_db *db,
                        const jet_tdef *t, jet_error *err)
{
    const jet_object *o = jet_catalog_find(db, "MSysRelationships");
    const jet_tdef *rt;
    jet_scan *s = NULL;
    int p_grbit, p_obj, p_ref, p_name, p_col, p_refcol, p_icol, p_ccol;
    size_t cap = 0;
    jet_rc rc;

    if (!o || o->kind != JET_OBJ_SYSTEM_TABLE)
        return JET_OK;
    if ((rc = jet_tdef_load(&rt, db, o)) != JET_OK)
        return rc;
    p_grbit = jet_tdef_find_column(rt, "grbit");
    p_obj = jet_tdef_find_column(rt, "szObject");
    p_ref = jet_tdef_find_column(rt, "szReferencedObject");
    p_name = jet_tdef_find_column(rt, "szRelationship");
    p_col = jet_tdef_find_column(rt, "szColumn");
    p_refcol = jet_tdef_find_column(rt, "szReferencedColumn");
    p_icol = jet_tdef_find_column(rt, "icolumn");
    p_ccol = jet_tdef_find_column(rt, "ccolumn");
    if (p_grbit < 0 || p_obj < 0 || p_ref < 0 || p_name < 0 || p_col < 0 ||
        p_refcol < 0 || p_icol < 0 || p_ccol < 0)
        return jet_fail(err, JET_ECORRUPT, rt->pgno, "MSysRelationships "
                        "lacks one of its columns");
    rc = jet_scan_open(&s, db, rt, NULL);
    if (rc != JET_OK)
        return jet_fail(err, rc, rt->pgno, "cannot scan MSysRelationships");
    while ((rc = jet_scan_next(s)) == JET_OK) {
        char obj[256], ref[256], name[256], col[256], refcol[256];
        int64_t g, icol, ccol;
        if ((rc = scan_int(s, p_grbit, &g)) != JET_OK)
            break;
        if (g != -1 && ((uint32_t)g & REL_NO_INTEGRITY))
            continue;
        if ((rc = scan_text(s, db, p_obj, obj, sizeof obj)) != JET_OK ||
            (rc = scan_text(s, db, p_ref, ref, sizeof ref)) != JET_OK)
            break;
        if (!jet_name_equal_ci(obj, t->name) &&
            !jet_name_equal_ci(ref, t->name))
            continue;
        if ((rc = scan_text(s, db, p_name, name, sizeof name)) != JET_OK ||
            (rc = scan_text(s, db, p_col, col, sizeof col)) != JET_OK ||
            (rc = scan_text(s, db, p_refcol, refcol, sizeof refcol)) !=
                JET_OK ||
            (rc = scan_int(s, p_icol, &icol)) != JET_OK ||
            (rc = scan_int(s, p_ccol, &ccol)) != JET_OK)
            break;
        rc = add_row(set, &cap, db, name, obj, col, ref, refcol, icol, ccol,
                     g == -1 ? 0 : (uint32_t)g, err);
        if (rc != JET_OK) {
            jet_scan_close(s);
            return rc;
        }
    }
    if (rc != JET_DONE) {
        if (jet_scan_error(s)->rc != JET_OK)
            *err = *jet_scan_error(s);
        else
            jet_fail(err, rc, rt->pgno, "cannot read MSysRelationships");
        jet_scan_close(s);
        return rc;
    }
    jet_scan_close(s);
    for (size_t i = 0; i < set->n; i++)
        if ((rc = rel_finish(&set->r[i], err)) != JET_OK)
            return rc;
    return JET_OK;
}

/* t's relationships, read once. JET_EUNSUPPORTED (kept) when one cannot
 * be enforced; read failures are returned, not kept. Detail in db->err. */
static jet_rc rels_of(const struct jet_rel_set **out, jet_db *db,
                      const jet_tdef *t)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    struct jet_rel_set *set;
    jet_rc rc;
    *out = NULL;
    if (!tp->rels) {
        set = jet_calloc(1, sizeof *set);
        if (!set)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        jet_error_clear(&set->err);
        rc = read_rels(set, db, t, &set->err);
        if (rc != JET_OK && rc != JET_EUNSUPPORTED) {
            db->err = set->err;
            jet_free(set->r);
            jet_free(set);
            return rc;
        }
        set->rc = rc;
        tp->rels = set;
    }
    set = tp->rels;
    if (set->rc != JET_OK) {
        db->err = set->err;
        return set->rc;
    }
    *out = set;
    return JET_OK;
}

jet_rc jet_rel_check_enforceable(jet_db *db, const jet_tdef *t,
                                 jet_error *err)
{
    const struct jet_rel_set *set;
    jet_rc rc = rels_of(&set, db, t);
    if (rc == JET_EUNSUPPORTED)
        *err = db->err;
    return rc;
}

/* ------------------------------------------------------------- lookups */

/* The key of index ix of t for the values vals (t's shape) into key. */
static jet_rc key_of(jet_db *db, const jet_tdef *t, uint16_t ix,
                     const jet_value *vals, uint8_t *key, size_t *klen)
{
    return jet_index_row_key(key, JET_INDEX_KEY_MAX, klen, db, t,
                             &t->indexes[ix], vals);
}

/* Values shaped for table to (to->ncols, all NULL) holding, at to_cols,
 * from's values at from_cols (NULL values when from is NULL). */
static jet_value *shape(const jet_tdef *to, const uint16_t *to_cols,
                        const jet_value *from, const uint16_t *from_cols,
                        uint16_t n)
{
    jet_value *v = jet_calloc(to->ncols ? to->ncols : 1, sizeof *v);
    if (!v)
        return NULL;
    for (uint16_t i = 0; i < to->ncols; i++) {
        v[i].type = to->cols[i].type;
        v[i].is_null = true;
    }
    if (from)
        for (uint16_t k = 0; k < n; k++)
            v[to_cols[k]] = from[from_cols[k]];
    return v;
}

static bool all_null(const jet_value *vals, const uint16_t *cols, uint16_t n)
{
    for (uint16_t k = 0; k < n; k++)
        if (!vals[cols[k]].is_null)
            return false;
    return true;
}

/* Rows of index ix of t whose key bytes are key: with ids NULL, *n = 0
 * or 1 (is there one?); else all of them into the growing *ids. */
static jet_rc key_rows(jet_db *db, const jet_tdef *t, uint16_t ix,
                       const uint8_t *key, size_t klen, jet_rowid **ids,
                       size_t *n)
{
    jet_index_cursor *c = NULL;
    size_t cap = 0;
    uint32_t pgno;
    uint16_t row;
    jet_rc rc;
    *n = 0;
    rc = jet_index_cursor_open(&c, db, t, ix);
    if (rc != JET_OK)
        return rc;
    rc = jet_index_seek_bytes(c, key, klen);
    while (rc == JET_OK && (rc = jet_index_next(c, &pgno, &row)) == JET_OK) {
        size_t elen;
        const uint8_t *ek = jet_index_entry_key(c, &elen);
        if (!ek || elen != klen || memcmp(ek, key, klen) != 0)
            continue;
        if (!ids) {
            *n = 1;
            break;
        }
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            jet_rowid *p = jet_realloc(*ids, nc * sizeof *p);
            if (!p) {
                rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                              "out of memory");
                break;
            }
            *ids = p;
            cap = nc;
        }
        (*ids)[*n].pgno = pgno;
        (*ids)[(*n)++].row = row;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_OK && rc != JET_ENOMEM)
        db->err = *jet_index_error(c);
    jet_index_cursor_close(c);
    return rc;
}

/* Refuse unless the parent of r has a row with the key child row vals
 * (child's shape) holds; self = the row itself being its own parent (a
 * self-relationship whose new key the row is about to get), or NULL. */
static jet_rc need_parent(jet_db *db, const rel *r, const jet_value *vals,
                          const jet_value *self)
{
    uint8_t key[JET_INDEX_KEY_MAX];
    size_t klen = 0, n = 0;
    jet_value *pv = shape(r->parent, r->pcol, vals, r->ccol, r->ncols);
    jet_rc rc;
    if (!pv)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    rc = key_of(db, r->parent, r->pix, pv, key, &klen);
    if (rc == JET_OK && self) {
        uint8_t own[JET_INDEX_KEY_MAX];
        size_t olen = 0;
        if (key_of(db, r->parent, r->pix, self, own, &olen) == JET_OK &&
            olen == klen && memcmp(own, key, klen) == 0)
            n = 1;
    }
    if (rc == JET_OK && n == 0)
        rc = key_rows(db, r->parent, r->pix, key, klen, NULL, &n);
    else if (rc == JET_ELIMIT)
        rc = JET_OK;            /* no parent value can equal it */
    jet_free(pv);
    if (rc == JET_EUNSUPPORTED)
        return jet_fail(&db->err, rc, r->parent->pgno, "relationship '%s': "
                        "a key of index '%s' of table '%s' that its sort "
                        "order cannot encode", r->name,
                        r->parent->indexes[r->pix].name, r->parent->name);
    if (rc != JET_OK)
        return rc;
    if (n == 0)
        return jet_fail(&db->err, JET_ECONSTRAINT, r->child->pgno,
                        ORPHAN_TEXT, r->parent->name);
    return JET_OK;
}

/* The child rows of r holding the key of parent row pvals (parent's
 * shape), into *ids (caller frees), less the row skip of the child table
 * (when it is the parent table: the row itself) and rows being deleted. */
static jet_rc children(jet_db *db, const rel *r, const jet_value *pvals,
                       const jet_rowid *skip, jet_rowid **ids, size_t *n)
{
    uint8_t key[JET_INDEX_KEY_MAX];
    size_t klen = 0, k = 0;
    jet_value *cv = shape(r->child, r->ccol, pvals, r->pcol, r->ncols);
    jet_rc rc;
    *ids = NULL;
    *n = 0;
    if (!cv)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if (all_null(cv, r->ccol, r->ncols)) {
        jet_free(cv);
        return JET_OK;
    }
    rc = key_of(db, r->child, r->cix, cv, key, &klen);
    jet_free(cv);
    if (rc == JET_ELIMIT)
        return JET_OK;
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, r->child->pgno, "relationship '%s': "
                        "a key index '%s' of table '%s' cannot hold",
                        r->name, r->child->indexes[r->cix].name,
                        r->child->name);
    rc = key_rows(db, r->child, r->cix, key, klen, ids, n);
    if (rc != JET_OK)
        return rc;
    for (size_t i = 0; i < *n; i++) {
        const jet_rowid *id = &(*ids)[i];
        bool drop = skip && id->pgno == skip->pgno && id->row == skip->row;
        for (const struct jet_rel_frame *f = db->rel_frames; f && !drop;
             f = f->up)
            drop = f->deleting && f->t == r->child &&
                   f->id.pgno == id->pgno && f->id.row == id->row;
        if (!drop)
            (*ids)[k++] = *id;
    }
    *n = k;
    return JET_OK;
}

/* Did the key of index ix of t change from oldv to newv? */
static jet_rc key_changed(jet_db *db, const jet_tdef *t, uint16_t ix,
                          const jet_value *oldv, const jet_value *newv,
                          bool *changed)
{
    uint8_t a[JET_INDEX_KEY_MAX], b[JET_INDEX_KEY_MAX];
    size_t la = 0, lb = 0;
    jet_rc rc = key_of(db, t, ix, oldv, a, &la);
    if (rc == JET_OK)
        rc = key_of(db, t, ix, newv, b, &lb);
    if (rc == JET_ELIMIT) {
        *changed = true;
        return JET_OK;
    }
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, t->pgno, "index '%s' of table '%s': "
                        "a key its sort order cannot encode",
                        t->indexes[ix].name, t->name);
    *changed = la != lb || memcmp(a, b, la) != 0;
    return JET_OK;
}

/* ------------------------------------------------------------ cascades */

static jet_rc push(jet_db *db, struct jet_rel_frame *f, const jet_tdef *t,
                   jet_rowid id, bool deleting)
{
    f->t = t;
    f->id = id;
    f->deleting = deleting;
    f->up = db->rel_frames;
    f->depth = f->up ? f->up->depth + 1 : 1;
    if (f->depth > REL_MAX_DEPTH)
        return jet_fail(&db->err, JET_ELIMIT, t->pgno, "cascading updates "
                        "or deletes nest deeper than %d tables (table '%s')",
                        REL_MAX_DEPTH, t->name);
    db->rel_frames = f;
    return JET_OK;
}

static void pop(jet_db *db, struct jet_rel_frame *f)
{
    db->rel_frames = f->up;
}

/* Update child row id of r: its key columns become those of parent row
 * pvals (parent's shape), or NULL when pvals is NULL. */
static jet_rc rekey_child(jet_db *db, const rel *r, jet_rowid id,
                          const jet_value *pvals)
{
    const jet_tdef *ct = r->child;
    jet_owned_row row;
    jet_rc rc = jet_owned_row_read(&row, db, ct, id.pgno, id.row);
    if (rc != JET_OK)
        return rc;
    for (uint16_t k = 0; k < r->ncols; k++) {
        jet_value *v = &row.vals[r->ccol[k]];
        if (pvals) {
            *v = pvals[r->pcol[k]];
        } else {
            memset(v, 0, sizeof *v);
            v->type = ct->cols[r->ccol[k]].type;
            v->is_null = true;
        }
    }
    rc = jet_table_update(db, ct, id, row.vals);
    jet_owned_row_free(&row);
    return rc;
}

/* -------------------------------------------------------------- hooks */

jet_rc jet_rel_before_insert(jet_db *db, const jet_tdef *t,
                             const jet_value *vals)
{
    const struct jet_rel_set *set;
    jet_rc rc = rels_of(&set, db, t);
    for (size_t i = 0; rc == JET_OK && i < set->n; i++) {
        const rel *r = &set->r[i];
        if (r->child != t || all_null(vals, r->ccol, r->ncols))
            continue;
        rc = need_parent(db, r, vals, r->parent == t ? vals : NULL);
    }
    return rc;
}

/* Does row vals of self-relationship r's table name itself (its child
 * key equals its own parent key)? */
static jet_rc names_itself(jet_db *db, const rel *r, const jet_value *vals,
                           bool *out)
{
    uint8_t a[JET_INDEX_KEY_MAX], b[JET_INDEX_KEY_MAX];
    size_t la = 0, lb = 0;
    jet_value *cv;
    jet_rc rc;
    *out = false;
    if (all_null(vals, r->ccol, r->ncols))
        return JET_OK;
    cv = shape(r->child, r->ccol, vals, r->pcol, r->ncols);
    if (!cv)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    rc = key_of(db, r->child, r->cix, cv, a, &la);
    if (rc == JET_OK)
        rc = key_of(db, r->child, r->cix, vals, b, &lb);
    jet_free(cv);
    if (rc == JET_ELIMIT)
        return JET_OK;
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, r->child->pgno, "relationship '%s': "
                        "a key index '%s' of table '%s' cannot hold",
                        r->name, r->child->indexes[r->cix].name,
                        r->child->name);
    *out = la == lb && memcmp(a, b, la) == 0;
    return JET_OK;
}

jet_rc jet_rel_before_update(jet_db *db, const jet_tdef *t, jet_rowid id,
                             const jet_value *oldv, jet_value *newv)
{
    const struct jet_rel_set *set;
    struct jet_rel_frame f;
    bool pushed = false;
    jet_rc rc = rels_of(&set, db, t);
    /* a child key a cascade writes is its parent's new key */
    bool top = db->rel_frames == NULL;

    for (size_t i = 0; rc == JET_OK && i < set->n; i++) {
        const rel *r = &set->r[i];
        bool changed = false, fk_changed = false, self = false;
        jet_rowid *ids = NULL;
        size_t n = 0;
        if (r->child == t)
            rc = key_changed(db, t, r->cix, oldv, newv, &fk_changed);
        if (rc == JET_OK && r->parent == t)
            rc = key_changed(db, t, r->pix, oldv, newv, &changed);
        if (rc == JET_OK && changed)
            rc = children(db, r, oldv, r->child == t ? &id : NULL, &ids, &n);
        if (rc == JET_OK && changed && r->child == t && !fk_changed)
            rc = names_itself(db, r, oldv, &self);
        if (rc == JET_OK && (n > 0 || self) &&
            !(r->grbit & REL_CASCADE_UPDATE))
            rc = jet_fail(&db->err, JET_ECONSTRAINT, t->pgno, CHILDREN_TEXT,
                          r->child->name);
        if (rc == JET_OK && n > 0 && !pushed &&
            (rc = push(db, &f, t, id, false)) == JET_OK)
            pushed = true;
        for (size_t k = 0; rc == JET_OK && k < n; k++)
            rc = rekey_child(db, r, ids[k], newv);
        jet_free(ids);
        if (rc == JET_OK && self) {
            /* the row naming itself follows its own new key */
            for (uint16_t k = 0; k < r->ncols; k++)
                newv[r->ccol[k]] = newv[r->pcol[k]];
            fk_changed = false;     /* it names a row that will exist */
        }
        if (rc == JET_OK && top && fk_changed &&
            !all_null(newv, r->ccol, r->ncols))
            rc = need_parent(db, r, newv, r->parent == t ? newv : NULL);
    }
    if (pushed)
        pop(db, &f);
    return rc;
}

jet_rc jet_rel_before_delete(jet_db *db, const jet_tdef *t, jet_rowid id,
                             const jet_value *vals)
{
    const struct jet_rel_set *set;
    struct jet_rel_frame f;
    bool pushed = false;
    jet_rc rc = rels_of(&set, db, t);

    for (size_t i = 0; rc == JET_OK && i < set->n; i++) {
        const rel *r = &set->r[i];
        jet_rowid *ids = NULL;
        size_t n = 0;
        if (r->parent != t)
            continue;
        rc = children(db, r, vals, r->child == t ? &id : NULL, &ids, &n);
        if (rc == JET_OK && n > 0 &&
            !(r->grbit & (REL_CASCADE_DELETE | REL_CASCADE_NULL)))
            rc = jet_fail(&db->err, JET_ECONSTRAINT, t->pgno, CHILDREN_TEXT,
                          r->child->name);
        if (rc == JET_OK && n > 0 && !pushed &&
            (rc = push(db, &f, t, id, true)) == JET_OK)
            pushed = true;
        for (size_t k = 0; rc == JET_OK && k < n; k++) {
            if (r->grbit & REL_CASCADE_DELETE) {
                rc = jet_table_delete(db, r->child, ids[k]);
                if (rc == JET_ENOTFOUND)
                    rc = JET_OK;    /* a cascade before took it */
            } else {
                rc = rekey_child(db, r, ids[k], NULL);
            }
        }
        jet_free(ids);
    }
    if (pushed)
        pop(db, &f);
    return rc;
}

jet_rc jet_rel_check_rows(jet_db *db, const jet_tdef *t, const char *name)
{
    const struct jet_rel_set *set;
    const rel *r = NULL;
    jet_value *vals = NULL;
    jet_scan *s = NULL;
    jet_rc rc = rels_of(&set, db, t);
    if (rc != JET_OK)
        return rc;
    for (size_t i = 0; i < set->n; i++)
        if (set->r[i].child == t && jet_name_equal_ci(set->r[i].name, name))
            r = &set->r[i];
    if (!r)
        return JET_OK;
    vals = jet_calloc(t->ncols ? t->ncols : 1, sizeof *vals);
    if (!vals)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if ((rc = jet_scan_open(&s, db, t, NULL)) != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        for (uint16_t i = 0; i < t->ncols; i++) {
            memset(&vals[i], 0, sizeof vals[i]);
            vals[i].type = t->cols[i].type;
            vals[i].is_null = true;
        }
        for (uint16_t k = 0; k < r->ncols && rc == JET_OK; k++)
            rc = jet_scan_value(s, r->ccol[k], &vals[r->ccol[k]]);
        if (rc != JET_OK)
            break;
        if (all_null(vals, r->ccol, r->ncols))
            continue;
        rc = need_parent(db, r, vals, NULL);
        if (rc == JET_ECONSTRAINT)
            jet_fail(&db->err, rc, t->pgno, "Cannot create the "
                     "relationship '%s': the data in table '%s' violates "
                     "referential integrity rules.", r->name, t->name);
        if (rc != JET_OK)
            break;
    }
out:
    rc = jet_scan_finish(db, s, rc);
    jet_free(vals);
    return rc;
}
