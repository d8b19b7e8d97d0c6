/*
 * ddlrel.c - relationships made and dropped by DDL (ddl.h: FOREIGN KEY
 * ... REFERENCES in CREATE TABLE and ALTER TABLE ... ADD CONSTRAINT,
 * ALTER TABLE ... DROP CONSTRAINT), written as Access writes an enforced
 * relationship (Jackcess RelationshipCreator, DatabaseImpl
 * .writeRelationship, TableUpdater, IndexImpl.writeDefinition):
 *   - MSysRelationships: one row per column pair (ccolumn = the pair
 *     count, icolumn = its place, grbit, szColumn/szObject = the child's
 *     column and table, szReferencedColumn/szReferencedObject = the
 *     parent's, szRelationship); grbit 0x1 one-to-one (the child's
 *     columns unique too), 0x100 cascade updates, 0x1000 cascade
 *     deletes, 0x2000 cascade to NULL;
 *   - MSysObjects: a Type 8 row named after it under the Relationships
 *     container, its Id the next synthetic id (the largest negative Id +
 *     1, from INT32_MIN), with MSysACEs rows as its container's;
 *   - the parent's TDEF: a logical index ".rB" (".rC", ... the first
 *     free) of type 2 (foreign key) over the parent's unique index (its
 *     physical index shared), related table type 1, naming the child's
 *     TDEF page and its new logical index number, with the cascade flags
 *     (updates 0x01; deletes 0x01, to NULL 0x02);
 *   - the child's TDEF: a logical index named after the relationship, of
 *     type 2, related table type 2, naming the parent's TDEF page and the
 *     ".rX" index number, over a physical index with the same columns in
 *     ascending order (shared whatever its flags) or a new one (no flags)
 *     whose entries are built from the rows.
 * Checks first (nothing written when one fails): the parent's columns
 * (named, or its primary key) have a unique index, the pairs have the
 * same types, names are free. Rows already in the child must have their
 * parent: that is checked after writing, through relations.c as later
 * writes are, and a failure is undone by the caller's savepoint.
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "ddl.h"
#include "ddl_int.h"
#include "index.h"
#include "internal.h"
#include "pagealloc.h"
#include "write.h"

#define REL_ONE_TO_ONE     0x00000001u
#define REL_CASCADE_UPDATE 0x00000100u
#define REL_CASCADE_DELETE 0x00001000u
#define REL_CASCADE_NULL   0x00002000u
#define TYPE_RELATIONSHIP 8
/* logical index type and foreign-key table types (Jackcess IndexImpl) */
#define IDX_TYPE_FK 2
#define FK_PARENT 1
#define FK_CHILD 2

#define NO_UNIQUE_TEXT "No unique index found for the referenced field of " \
                       "the primary table."
#define TYPES_TEXT "Relationship must be on the same number of fields " \
                   "with the same data types."

/* The next free logical index number of t. */
static uint32_t next_index_num(const jet_tdef_priv *t)
{
    uint32_t num = 0;
    for (uint16_t i = 0; i < t->pub.nindexes; i++)
        if (t->logical[i].index_num >= num)
            num = t->logical[i].index_num + 1;
    return num;
}

static bool index_named(const jet_tdef *t, const char *name)
{
    for (uint16_t i = 0; i < t->nindexes; i++)
        if (jet_name_equal_ci(t->indexes[i].name, name))
            return true;
    return false;
}

/* The first of ".rB", ".rC", ... ".rZ", ".ra", ... that t's indexes do
 * not use (Jackcess RelationshipCreator.createPrimaryIndexName). */
static jet_rc parent_index_name(jet_db *db, const jet_tdef *t, char out[4])
{
    for (char c = 'B'; c <= 'z'; c++) {
        if (c == '[')
            c = 'a';
        snprintf(out, 4, ".r%c", c);
        /* names compare case-insensitively: ".rb" is ".rB" */
        if (!index_named(t, out))
            return JET_OK;
    }
    return jet_fail(&db->err, JET_ELIMIT, t->pgno, "table '%s' has no "
                    "free name for another relationship index", t->name);
}

/* Text of column pos of the scan's current row into buf (cap bytes). */
static jet_rc scan_text(jet_db *db, jet_scan *s, int pos, char *buf,
                        size_t cap)
{
    jet_value v;
    size_t len = 0;
    jet_rc rc;
    buf[0] = '\0';
    if (pos < 0)
        return JET_OK;
    if ((rc = jet_scan_value(s, (uint16_t)pos, &v)) != JET_OK)
        return rc;
    if (v.is_null)
        return JET_OK;
    if (jet_text_to_utf8(db, &v, buf, cap - 1, &len) != JET_OK ||
        len >= cap)
        len = 0;
    buf[len] = '\0';
    return JET_OK;
}

/*
 * Facts of MSysObjects for a new relationship: whether name is used by
 * another relationship (Type 8), and the next synthetic Id (the largest
 * negative Id + 1, INT32_MIN + 1 when none; Jackcess
 * getNextFreeSyntheticId).
 */
static jet_rc rel_objects(jet_db *db, const char *name, bool *taken,
                          int32_t *next_id)
{
    const jet_tdef *ms;
    jet_scan *s = NULL;
    int64_t max = INT32_MIN;
    int c_id, c_name, c_type;
    jet_rc rc;

    *taken = false;
    if ((rc = jet_ddl_msys_objects(db, &ms)) != JET_OK)
        return rc;
    c_id = jet_tdef_find_column(ms, "Id");
    c_name = jet_tdef_find_column(ms, "Name");
    c_type = jet_tdef_find_column(ms, "Type");
    if (c_id < 0 || c_name < 0 || c_type < 0)
        return jet_fail(&db->err, JET_ECORRUPT, 2, "MSysObjects lacks "
                        "Id/Name/Type columns");
    if ((rc = jet_scan_open(&s, db, ms, NULL)) != JET_OK)
        return rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value id, ty;
        char buf[3 * NAME_MAX_UNITS + 8];
        if ((rc = jet_scan_value(s, (uint16_t)c_id, &id)) != JET_OK ||
            (rc = jet_scan_value(s, (uint16_t)c_type, &ty)) != JET_OK)
            break;
        if (!id.is_null && id.u.i < 0 && id.u.i > max)
            max = id.u.i;
        if (ty.is_null || ty.u.i != TYPE_RELATIONSHIP)
            continue;
        if ((rc = scan_text(db, s, c_name, buf, sizeof buf)) != JET_OK)
            break;
        if (jet_name_equal_ci(buf, name))
            *taken = true;
    }
    rc = jet_scan_finish(db, s, rc);
    if (rc == JET_OK && max >= -1)
        rc = jet_fail(&db->err, JET_ELIMIT, 2, "no synthetic object id is "
                      "left for another relationship");
    *next_id = (int32_t)(max + 1);
    return rc;
}

/* Is name the name of a relationship in MSysRelationships? */
static jet_rc rel_row_named(jet_db *db, const char *name, bool *out)
{
    const jet_tdef *rt;
    rowids r = { 0 };
    jet_rc rc = jet_ddl_find_rows(db, "MSysRelationships", "szRelationship",
                                  0, name, &rt, &r);
    *out = r.n > 0;
    jet_free(r.ids);
    return rc;
}

/* A text value of UTF-8 s into v, its UTF-16 units in *buf (freed by the
 * caller). */
static jet_rc text_value(jet_db *db, jet_value *v, const char *s,
                         uint16_t **buf)
{
    size_t n = 0;
    (void)jet_utf8_to_utf16(s, NULL, 0, &n);
    *buf = jet_malloc((n + 1) * sizeof **buf);
    if (!*buf)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    (void)jet_utf8_to_utf16(s, *buf, n + 1, &n);
    v->is_null = false;
    v->enc = JET_ENC_UCS2;
    v->data = (const uint8_t *)*buf;
    v->len = 2 * n;
    return JET_OK;
}

/* The MSysRelationships rows of a new relationship, one per pair. */
static jet_rc rel_rows_add(jet_db *db, const jet_tdef *rt, const char *name,
                           uint32_t grbit, const jet_tdef *child,
                           const uint16_t *ccol, const jet_tdef *parent,
                           const uint16_t *pcol, unsigned n)
{
    static const char *const cols[] = {
        "ccolumn", "grbit", "icolumn", "szColumn", "szObject",
        "szReferencedColumn", "szReferencedObject", "szRelationship" };
    int pos[8];
    jet_value *vals;
    jet_rc rc = JET_OK;

    for (int k = 0; k < 8; k++)
        if ((pos[k] = jet_tdef_find_column(rt, cols[k])) < 0)
            return jet_fail(&db->err, JET_EUNSUPPORTED, rt->pgno,
                            "MSysRelationships lacks its column %s: "
                            "relationships cannot be written", cols[k]);
    vals = jet_calloc(rt->ncols, sizeof *vals);
    if (!vals)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if (jet_table_rules_grant((jet_tdef_priv *)(uintptr_t)rt) != JET_OK) {
        jet_free(vals);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    for (unsigned i = 0; i < n && rc == JET_OK; i++) {
        uint16_t *u[5] = { 0 };
        const char *text[5] = { child->cols[ccol[i]].name, child->name,
                                parent->cols[pcol[i]].name, parent->name,
                                name };
        for (uint16_t c = 0; c < rt->ncols; c++) {
            memset(&vals[c], 0, sizeof vals[c]);
            vals[c].type = rt->cols[c].type;
            vals[c].is_null = true;
        }
        vals[pos[0]].is_null = false;
        vals[pos[0]].u.i = (int64_t)n;
        vals[pos[1]].is_null = false;
        vals[pos[1]].u.i = (int32_t)grbit;
        vals[pos[2]].is_null = false;
        vals[pos[2]].u.i = (int64_t)i;
        for (int k = 0; k < 5 && rc == JET_OK; k++)
            rc = text_value(db, &vals[pos[3 + k]], text[k], &u[k]);
        if (rc == JET_OK)
            rc = jet_table_insert(db, rt, vals, NULL);
        for (int k = 0; k < 5; k++)
            jet_free(u[k]);
    }
    jet_table_rules_free((jet_tdef_priv *)(uintptr_t)rt);
    jet_free(vals);
    return rc;
}

/*
 * Rewrite t's TDEF with the logical indexes add[0..nadd) appended (their
 * .real already set; new_real, when not NULL, appended to the physical
 * indexes first).
 */
static jet_rc tdef_add_logical(jet_db *db, jet_tdef_priv *t,
                               const jet_tdef_logical_idx *add,
                               unsigned nadd,
                               const jet_tdef_real_idx *new_real)
{
    jet_tdef_spec spec;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL;
    jet_rc rc;

    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        return rc;
    reals = jet_calloc(spec.nreal + 1, sizeof *reals);
    logical = jet_calloc(spec.nlogical + nadd, sizeof *logical);
    if (!reals || !logical) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if (spec.nreal)
        memcpy(reals, spec.reals, spec.nreal * sizeof *reals);
    if (spec.nlogical)
        memcpy(logical, spec.logical, spec.nlogical * sizeof *logical);
    if (new_real)
        reals[spec.nreal++] = *new_real;
    for (unsigned k = 0; k < nadd; k++)
        logical[spec.nlogical++] = add[k];
    spec.reals = reals;
    spec.logical = logical;
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) == JET_OK)
        rc = jet_ddl_touch(db, t->pub.pgno);
out:
    jet_free(reals);
    jet_free(logical);
    return rc;
}

/* Copy at most max characters (code points) of UTF-8 s into out (cap
 * bytes, NUL-terminated); the bytes copied. */
static size_t prefix_chars(char *out, size_t cap, const char *s, size_t max)
{
    size_t at = 0, n = 0;
    while (s[at] && cap > 1) {
        size_t len = 1;
        while (s[at + len] && ((unsigned char)s[at + len] & 0xC0) == 0x80)
            len++;
        if (n == max || at + len >= cap)
            break;
        memcpy(out + at, s + at, len);
        at += len;
        n++;
    }
    out[at] = '\0';
    return at;
}

/* Characters (code points) of UTF-8 s. */
static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The relationship's name as Jackcess makes one (createRelationshipName):
 * the parent's name (at most 29 characters) then the child's, at most 61,
 * with 1, 2, ... appended while taken. */
static jet_rc made_name(jet_db *db, const jet_tdef *parent,
                        const jet_tdef *child, char *out, size_t cap)
{
    char base[3 * NAME_MAX_UNITS + 8];
    size_t at = prefix_chars(base, sizeof base, parent->name,
                             NAME_MAX_UNITS / 2 - 3);
    size_t plen = utf8_chars(base);
    (void)prefix_chars(base + at, sizeof base - at, child->name,
                       NAME_MAX_UNITS - 3 - plen);
    for (unsigned k = 0; k < 100; k++) {
        bool row, obj;
        int32_t id;
        jet_rc rc;
        int w = k == 0 ? snprintf(out, cap, "%s", base)
                       : snprintf(out, cap, "%s%u", base, k);
        if (w < 0 || (size_t)w >= cap)
            break;
        if ((rc = rel_row_named(db, out, &row)) != JET_OK ||
            (rc = rel_objects(db, out, &obj, &id)) != JET_OK)
            return rc;
        if (!row && !obj && !index_named(child, out))
            return JET_OK;
    }
    return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO, "no free name for "
                    "a relationship of '%s' and '%s'", parent->name,
                    child->name);
}

/*
 * The parent side of fk, whose child columns have the types
 * ctypes[0..fk->ncols): its columns (named, or its primary key's) into
 * pcol, of the same types, with a unique index (its position into *pix).
 * JET_ENOTFOUND, JET_ECONSTRAINT with Access's message.
 */
static jet_rc check_parent(jet_db *db, const jet_tdef *pt,
                           const jet_fkdef *fk, const jet_type *ctypes,
                           uint16_t *pcol, int *pix)
{
    unsigned n = fk->ncols;
    if (!fk->refcol[0]) {
        int pk = -1;
        for (uint16_t i = 0; i < pt->nindexes; i++)
            if (pt->indexes[i].primary_key)
                pk = i;
        if (pk < 0)
            return jet_fail(&db->err, JET_ECONSTRAINT, pt->pgno,
                            NO_UNIQUE_TEXT);
        if (pt->indexes[pk].ncols != n)
            return jet_fail(&db->err, JET_ECONSTRAINT, pt->pgno,
                            TYPES_TEXT);
        for (unsigned k = 0; k < n; k++)
            pcol[k] = pt->indexes[pk].cols[k].col;
    } else {
        for (unsigned k = 0; k < n; k++) {
            int c = fk->refcol[k] ? jet_tdef_find_column(pt, fk->refcol[k])
                                  : -1;
            if (c < 0)
                return jet_fail(&db->err, JET_ENOTFOUND, pt->pgno,
                                "Field '%s' not found in table '%s'",
                                fk->refcol[k] ? fk->refcol[k] : "",
                                pt->name);
            pcol[k] = (uint16_t)c;
        }
    }
    for (unsigned k = 0; k < n; k++)
        if (ctypes[k] != pt->cols[pcol[k]].type)
            return jet_fail(&db->err, JET_ECONSTRAINT, pt->pgno,
                            TYPES_TEXT);
    if ((*pix = jet_rel_index(pt, pcol, (uint16_t)n, true)) < 0)
        return jet_fail(&db->err, JET_ECONSTRAINT, pt->pgno,
                        NO_UNIQUE_TEXT);
    return JET_OK;
}

jet_rc jet_ddl_fk_precheck(jet_db *db, const char *table,
                           const jet_coldef *cols, unsigned ncols,
                           const jet_fkdef *fk)
{
    jet_tdef_priv *pt;
    jet_type ctypes[JET_MAX_INDEX_COLS];
    uint16_t pcol[JET_MAX_INDEX_COLS];
    int pix;
    jet_rc rc;
    if (!fk->parent)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "a relationship needs its referenced table");
    if (fk->ncols < 1 || fk->ncols > JET_MAX_INDEX_COLS)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO, "a relationship "
                        "has 1 to %d fields (%u given)", JET_MAX_INDEX_COLS,
                        fk->ncols);
    for (unsigned k = 0; k < fk->ncols; k++) {
        if (fk->col[k] >= ncols)
            return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                            "relationship column %u of %u columns",
                            fk->col[k], ncols);
        ctypes[k] = cols[fk->col[k]].type;
    }
    if (fk->name && (rc = jet_ddl_check_name(db, fk->name,
                                             "relationship")) != JET_OK)
        return rc;
    if (jet_name_equal_ci(fk->parent, table))
        return JET_OK;          /* itself: checked once it is made */
    if ((rc = jet_ddl_user_table(db, fk->parent, &pt)) != JET_OK)
        return rc;
    return check_parent(db, &pt->pub, fk, ctypes, pcol, &pix);
}

jet_rc jet_db_add_foreign_key(jet_db *db, const char *table,
                              const jet_fkdef *fk)
{
    jet_tdef_priv *ct, *pt;
    const jet_tdef *rt = NULL;
    uint16_t ccol[JET_MAX_INDEX_COLS], pcol[JET_MAX_INDEX_COLS];
    jet_type ctypes[JET_MAX_INDEX_COLS];
    char name[3 * NAME_MAX_UNITS + 8], pname[4];
    jet_tdef_real_idx creal;
    jet_tdef_logical_idx plog, clog;
    uint32_t grbit = 0, cnum, pnum, creal_at = 0;
    int32_t rel_id = 0, rels_parent = 0;
    int pix;
    bool fresh = true, self, taken;
    unsigned n;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK)
        return rc;
    if (!fk || !fk->parent)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "a relationship needs its referenced table");
    if ((rc = jet_ddl_user_table(db, table, &ct)) != JET_OK ||
        (rc = jet_ddl_user_table(db, fk->parent, &pt)) != JET_OK)
        return rc;
    self = ct == pt;
    n = fk->ncols;
    if (n < 1 || n > JET_MAX_INDEX_COLS)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO, "a relationship "
                        "has 1 to %d fields (%u given)", JET_MAX_INDEX_COLS,
                        n);
    for (unsigned k = 0; k < n; k++) {
        if (fk->col[k] >= ct->pub.ncols)
            return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                            "relationship column %u of %u columns",
                            fk->col[k], ct->pub.ncols);
        ccol[k] = (uint16_t)fk->col[k];
        for (unsigned j = 0; j < k; j++)
            if (ccol[j] == ccol[k])
                return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                                "field '%s' is in the relationship twice",
                                ct->pub.cols[ccol[k]].name);
    }
    for (unsigned k = 0; k < n; k++)
        ctypes[k] = ct->pub.cols[ccol[k]].type;
    if ((rc = check_parent(db, &pt->pub, fk, ctypes, pcol, &pix)) != JET_OK)
        return rc;
    /* its name: given, or made; free among relationships and the child's
     * indexes (it names the child's index) */
    if (fk->name) {
        bool row;
        if ((rc = jet_ddl_check_name(db, fk->name, "relationship")) !=
                JET_OK)
            return rc;
        snprintf(name, sizeof name, "%s", fk->name);
        if ((rc = rel_row_named(db, name, &row)) != JET_OK ||
            (rc = rel_objects(db, name, &taken, &rel_id)) != JET_OK)
            return rc;
        if (row || taken)
            return jet_fail(&db->err, JET_EDUPLICATE, JET_NO_PGNO,
                            "Relationship '%s' already exists.", name);
        if (index_named(&ct->pub, name))
            return jet_fail(&db->err, JET_EDUPLICATE, ct->pub.pgno,
                            "Index '%s' already exists.", name);
    } else if ((rc = made_name(db, &pt->pub, &ct->pub, name,
                               sizeof name)) != JET_OK) {
        return rc;
    }
    if ((rc = rel_objects(db, name, &taken, &rel_id)) != JET_OK)
        return rc;
    if (ct->pub.nindexes + 1 + self > JET_MAX_INDEXES ||
        pt->pub.nindexes + 1 > JET_MAX_INDEXES)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO, "table '%s' has "
                        "%d indexes already, the most a table has",
                        pt->pub.nindexes + 1 > JET_MAX_INDEXES
                            ? pt->pub.name : ct->pub.name,
                        JET_MAX_INDEXES);
    if ((rc = parent_index_name(db, &pt->pub, pname)) != JET_OK)
        return rc;
    {
        const jet_object *o = jet_catalog_find(db, "MSysRelationships");
        if (!o || o->kind != JET_OBJ_SYSTEM_TABLE)
            return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "the file has no MSysRelationships table: "
                            "relationships cannot be written");
        if ((rc = jet_tdef_load(&rt, db, o)) != JET_OK)
            return rc;
    }
    if ((rc = jet_ddl_container_id(db, "Relationships", &rels_parent)) !=
        JET_OK)
        return rc;

    /* grbit: enforced; one-to-one when the child's columns are unique */
    if (jet_rel_index(&ct->pub, ccol, (uint16_t)n, true) >= 0)
        grbit |= REL_ONE_TO_ONE;
    if (fk->cascade_update)
        grbit |= REL_CASCADE_UPDATE;
    if (fk->cascade_delete)
        grbit |= REL_CASCADE_DELETE;
    if (fk->cascade_null)
        grbit |= REL_CASCADE_NULL;

    /* the two logical indexes (the parent's first, as Jackcess) */
    pnum = next_index_num(pt);
    cnum = self ? pnum + 1 : next_index_num(ct);
    memset(&creal, 0, sizeof creal);
    for (int k = 0; k < JET_MAX_INDEX_COLS; k++)
        creal.col_num[k] = 0xFFFF;
    for (unsigned k = 0; k < n; k++) {
        creal.col_num[k] = ct->pub.cols[ccol[k]].col_num;
        creal.col_flags[k] = 0x01;
    }
    for (uint32_t k = 0; k < ct->nreals; k++)
        if (memcmp(ct->reals[k].col_num, creal.col_num,
                   sizeof creal.col_num) == 0 &&
            memcmp(ct->reals[k].col_flags, creal.col_flags,
                   sizeof creal.col_flags) == 0) {
            fresh = false;
            creal_at = k;
            break;
        }
    if (fresh)
        creal_at = ct->nreals;
    plog = (jet_tdef_logical_idx){
        .name = pname, .index_num = pnum, .real = pt->logical[pix].real,
        .rel_table_type = FK_PARENT, .rel_index_num = cnum,
        .rel_tdef_pgno = ct->pub.pgno,
        .cascade_updates = fk->cascade_update ? 0x01 : 0,
        .cascade_deletes = (uint8_t)((fk->cascade_delete ? 0x01 : 0) |
                                     (fk->cascade_null ? 0x02 : 0)),
        .type = IDX_TYPE_FK };
    clog = plog;
    clog.name = name;
    clog.index_num = cnum;
    clog.real = creal_at;
    clog.rel_table_type = FK_CHILD;
    clog.rel_index_num = pnum;
    clog.rel_tdef_pgno = pt->pub.pgno;
    if (fresh &&
        ((rc = jet_ddl_new_root(db, ct->pub.pgno, &creal.first_pgno)) !=
             JET_OK ||
         (rc = jet_ddl_index_umap_row(db, ct, creal.first_pgno,
                                      &creal.umap_ptr)) != JET_OK))
        return rc;
    if (self) {
        jet_tdef_logical_idx both[2] = { plog, clog };
        rc = tdef_add_logical(db, ct, both, 2, fresh ? &creal : NULL);
    } else {
        rc = tdef_add_logical(db, pt, &plog, 1, NULL);
        if (rc == JET_OK)
            rc = tdef_add_logical(db, ct, &clog, 1, fresh ? &creal : NULL);
    }
    if (rc != JET_OK)
        return rc;
    /* the catalog rows: MSysRelationships, then the relationship's object
     * (with the tdefs as they were: names and columns did not change) */
    if ((rc = rel_rows_add(db, rt, name, grbit, &ct->pub, ccol, &pt->pub,
                           pcol, n)) != JET_OK)
        return rc;
    if (rels_parent &&
        (rc = jet_ddl_object_row_add(db, name, rel_id, TYPE_RELATIONSHIP,
                                     rels_parent, NULL, 0)) != JET_OK)
        return rc;
    if ((rc = jet_ddl_touch(db, 2)) != JET_OK ||
        (rc = jet_ddl_catalog_reload(db)) != JET_OK)
        return rc;
    {
        jet_tdef_priv *nt;
        if ((rc = jet_ddl_user_table(db, table, &nt)) != JET_OK)
            return rc;
        if (fresh) {
            for (uint16_t i = 0; i < nt->pub.nindexes; i++)
                if (nt->logical[i].type == IDX_TYPE_FK &&
                    nt->logical[i].index_num == cnum) {
                    rc = jet_ddl_build_index(db, &nt->pub,
                                             &nt->pub.indexes[i]);
                    break;
                }
            if (rc != JET_OK)
                return rc;
        }
        /* rows already there need their parent */
        rc = jet_rel_check_rows(db, &nt->pub, name);
    }
    return rc;
}

/* ----------------------------------------------------------------- drop */

/*
 * Rewrite t's TDEF without its logical indexes whose index numbers are
 * nums[0..n); a physical index no other logical index uses goes too (its
 * pages freed).
 */
static jet_rc tdef_drop_logical(jet_db *db, jet_tdef_priv *t,
                                const uint32_t *nums, unsigned n)
{
    jet_tdef_spec spec;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL;
    uint32_t *map = NULL, nreal = 0, nlog = 0;
    jet_pglist pages = { 0 };
    jet_rc rc;

    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        return rc;
    reals = jet_calloc(spec.nreal + 1, sizeof *reals);
    logical = jet_calloc(spec.nlogical + 1, sizeof *logical);
    map = jet_calloc(spec.nreal + 1, sizeof *map);
    if (!reals || !logical || !map) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < spec.nlogical; i++) {
        bool drop = false;
        for (unsigned k = 0; k < n; k++)
            drop = drop || spec.logical[i].index_num == nums[k];
        if (!drop)
            logical[nlog++] = spec.logical[i];
    }
    for (uint32_t r = 0; r < spec.nreal; r++) {
        bool used = false;
        for (uint32_t i = 0; i < nlog; i++)
            used = used || logical[i].real == r;
        if (used) {
            map[r] = nreal;
            reals[nreal++] = spec.reals[r];
            continue;
        }
        if ((rc = jet_ddl_index_pages(db, spec.reals[r].first_pgno,
                                      &pages)) != JET_OK ||
            (rc = jet_ddl_free_map_pages(db, spec.reals[r].umap_ptr)) !=
                JET_OK)
            goto out;
    }
    for (size_t i = 0; i < pages.count && rc == JET_OK; i++)
        rc = jet_db_page_free(db, pages.pgnos[i]);
    if (rc != JET_OK)
        goto out;
    for (uint32_t i = 0; i < nlog; i++)
        logical[i].real = map[logical[i].real];
    spec.reals = reals;
    spec.nreal = nreal;
    spec.logical = logical;
    spec.nlogical = nlog;
    if ((rc = jet_ddl_rewrite_tdef(db, t->pub.pgno, &spec)) == JET_OK)
        rc = jet_ddl_touch(db, t->pub.pgno);
out:
    jet_pglist_free(&pages);
    jet_free(reals);
    jet_free(logical);
    jet_free(map);
    return rc;
}

/* Rows of MSysObjects of relationship name (Type 8) into *r, their Ids
 * into ids (at most cap). */
static jet_rc rel_object_rows(jet_db *db, const char *name,
                              const jet_tdef **ms, rowids *r,
                              int32_t *ids, size_t cap)
{
    rowids all = { 0 };
    jet_scan *s = NULL;
    int c_type, c_id;
    jet_rc rc = jet_ddl_find_rows(db, "MSysObjects", "Name", 0, name, ms,
                                  &all);
    r->ids = NULL;
    r->n = 0;
    if (rc != JET_OK || !*ms || !all.n)
        goto out;
    c_type = jet_tdef_find_column(*ms, "Type");
    c_id = jet_tdef_find_column(*ms, "Id");
    r->ids = jet_calloc(all.n, sizeof *r->ids);
    if (!r->ids) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if (c_type < 0 || c_id < 0 ||
        (rc = jet_scan_open(&s, db, *ms, NULL)) != JET_OK)
        goto out;
    for (size_t i = 0; i < all.n && rc == JET_OK; i++) {
        jet_value ty, id;
        rc = jet_scan_fetch_row(s, all.ids[i].pgno, all.ids[i].row);
        if (rc == JET_OK)
            rc = jet_scan_value(s, (uint16_t)c_type, &ty);
        if (rc == JET_OK)
            rc = jet_scan_value(s, (uint16_t)c_id, &id);
        if (rc == JET_OK && !ty.is_null && ty.u.i == TYPE_RELATIONSHIP &&
            r->n < cap) {
            ids[r->n] = id.is_null ? 0 : (int32_t)id.u.i;
            r->ids[r->n++] = all.ids[i];
        }
    }
out:
    jet_scan_close(s);
    jet_free(all.ids);
    return rc;
}

jet_rc jet_db_drop_foreign_key(jet_db *db, const char *table,
                               const char *name)
{
    jet_tdef_priv *ct, *pt = NULL;
    const jet_tdef *rt = NULL, *ms = NULL, *at = NULL;
    rowids rel = { 0 }, obj = { 0 };
    char child[3 * NAME_MAX_UNITS + 8], parent[3 * NAME_MAX_UNITS + 8];
    int32_t ids[8];
    int ci = -1;
    jet_scan *s = NULL;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = jet_ddl_user_table(db, table, &ct)) != JET_OK)
        return rc;
    if (!name)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "no relationship named");
    if ((rc = jet_ddl_find_rows(db, "MSysRelationships", "szRelationship", 0,
                                name, &rt, &rel)) != JET_OK)
        return rc;
    if (!rel.n) {
        rc = jet_fail(&db->err, JET_ENOTFOUND, ct->pub.pgno, "Cannot find "
                      "the relationship '%s' of table '%s'.", name,
                      ct->pub.name);
        goto out;
    }
    /* its tables: the child must be table */
    if ((rc = jet_scan_open(&s, db, rt, NULL)) != JET_OK ||
        (rc = jet_scan_fetch_row(s, rel.ids[0].pgno, rel.ids[0].row)) !=
            JET_OK ||
        (rc = scan_text(db, s, jet_tdef_find_column(rt, "szObject"), child,
                        sizeof child)) != JET_OK ||
        (rc = scan_text(db, s, jet_tdef_find_column(rt,
                        "szReferencedObject"), parent, sizeof parent)) !=
            JET_OK)
        goto out;
    if (!jet_name_equal_ci(child, ct->pub.name)) {
        rc = jet_fail(&db->err, JET_ENOTFOUND, ct->pub.pgno, "Cannot find "
                      "the relationship '%s' of table '%s'.", name,
                      ct->pub.name);
        goto out;
    }
    {
        const jet_object *o = jet_catalog_find(db, parent);
        if (o && o->kind == JET_OBJ_TABLE &&
            (rc = jet_ddl_user_table(db, parent, &pt)) != JET_OK)
            goto out;
    }
    /* its index entries: the child's (named after it, naming the
     * parent) and the parent's (naming the child's) */
    for (uint16_t i = 0; pt && i < ct->pub.nindexes; i++)
        if (ct->logical[i].type == IDX_TYPE_FK &&
            ct->logical[i].rel_table_type == FK_CHILD &&
            ct->logical[i].rel_tdef_pgno == pt->pub.pgno &&
            jet_name_equal_ci(ct->pub.indexes[i].name, name))
            ci = i;
    if (ci >= 0) {
        uint32_t cnum = ct->logical[ci].index_num, nums[2];
        unsigned nn = 0;
        int pi = -1;
        for (uint16_t i = 0; i < pt->pub.nindexes; i++)
            if (pt->logical[i].type == IDX_TYPE_FK &&
                pt->logical[i].rel_table_type == FK_PARENT &&
                pt->logical[i].rel_tdef_pgno == ct->pub.pgno &&
                pt->logical[i].rel_index_num == cnum)
                pi = i;
        nums[nn++] = cnum;
        if (pt == ct) {
            if (pi >= 0)
                nums[nn++] = pt->logical[pi].index_num;
            rc = tdef_drop_logical(db, ct, nums, nn);
        } else {
            rc = tdef_drop_logical(db, ct, nums, 1);
            if (rc == JET_OK && pi >= 0) {
                nums[0] = pt->logical[pi].index_num;
                rc = tdef_drop_logical(db, pt, nums, 1);
            }
        }
        if (rc != JET_OK)
            goto out;
    }
    /* its rows: MSysRelationships, MSysObjects (Type 8), MSysACEs */
    if ((rc = rel_object_rows(db, name, &ms, &obj, ids, 8)) != JET_OK)
        goto out;
    for (size_t i = 0; i < obj.n && rc == JET_OK; i++) {
        rowids a = { 0 };
        rc = jet_ddl_find_rows(db, "MSysACEs", "ObjectId", ids[i], NULL, &at,
                               &a);
        if (rc == JET_OK)
            rc = jet_ddl_delete_rows(db, at, &a);
        jet_free(a.ids);
    }
    if (rc == JET_OK)
        rc = jet_ddl_delete_rows(db, ms, &obj);
    if (rc == JET_OK)
        rc = jet_ddl_delete_rows(db, rt, &rel);
    if (rc == JET_OK && (rc = jet_ddl_touch(db, 2)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_scan_close(s);
    jet_free(rel.ids);
    jet_free(obj.ids);
    return rc;
}
