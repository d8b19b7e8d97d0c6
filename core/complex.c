/*
 * complex.c - complex columns on the write path (write.h, "complex
 * columns"): attachments, multi-value lookups and the version history of
 * an append-only Memo, as ACE stores them.
 *
 * A complex column's cell holds a LONG, the row's complex id; its values
 * are rows of a hidden "flat" table (f_<guid>_<column>), found through
 * MSysComplexColumns (ColumnName, ConceptualTableID = the table's
 * MSysObjects Id, FlatTableID, ComplexTypeObjectID = the template table
 * MSysComplexType_* whose columns say which kind it is, ComplexID). The
 * flat table has the template's columns plus two of its own: an
 * AutoNumber (each value's id) and a LONG holding the complex id of the
 * row the value belongs to (indexed).
 * The rules kept here (Jackcess ColumnImpl.ComplexTypeAutoNumberGenerator,
 * TableImpl, ComplexColumnInfoImpl):
 *   - every inserted row gets one new complex id, shared by all its
 *     complex columns: the TDEF keeps the last one handed out (ACE offset
 *     28, Jackcess OFFSET_NEXT_COMPLEX_AUTO_NUMBER); the ids go up from
 *     it and, like AutoNumbers, are not reused after a rollback;
 *   - the id is never given by a writer and never changes (an update
 *     keeps the stored one);
 *   - deleting a row deletes the flat rows holding its complex id, in
 *     every complex column, inside the same statement;
 *   - an append-only Memo (the Memo column of the table named as the
 *     version history's template Memo) gets a version row in the same
 *     statement whenever its text changes: an insert giving it a value
 *     (a row inserted without one has none: complexDataTest's row1), an
 *     update to other text, to NULL too (the newest version is always
 *     the current value, as Jackcess's ComplexColumnTest reads the
 *     history; UCanAccess writes the same); the version holds the value,
 *     the local time to the millisecond (the fixtures' versions carry
 *     milliseconds) and the row's complex id. An update to the same text
 *     adds nothing.
 * The kind of a column follows Jackcess ComplexColumnSupport: a template
 * of one column of a simple type is a multi-value column; Memo, two Text,
 * OLE, Date and Long columns an attachment; Memo and Date a version
 * history. Anything else, or a column without its MSysComplexColumns row,
 * flat table or index on the complex id, refuses writes to the table.
 * Format: Jackcess ComplexColumnSupport, ComplexColumnInfoImpl, JetFormat.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "os.h"
#include "write.h"

/** The cached complex columns of one tdef (jet_tdef_priv.complex). */
struct jet_complex_set {
    jet_rc rc;                  /* JET_OK or JET_EUNSUPPORTED */
    jet_error err;              /* the refusal, when rc < 0 */
    size_t n;
    jet_complex_col *c;
};

void jet_complex_free(jet_tdef_priv *t)
{
    if (!t || !t->complex)
        return;
    jet_free(t->complex->c);
    jet_free(t->complex);
    t->complex = NULL;
}

/* The catalog's table with MSysObjects Id id, or NULL. */
static const jet_object *object_by_id(const jet_db *db, int64_t id)
{
    for (size_t i = 0; i < db->nobjects; i++)
        if (db->objects[i].id == id &&
            (db->objects[i].kind == JET_OBJ_TABLE ||
             db->objects[i].kind == JET_OBJ_SYSTEM_TABLE))
            return &db->objects[i];
    return NULL;
}

/* The catalog entry whose loaded tdef is t, or NULL. */
static const jet_object *object_of(const jet_db *db, const jet_tdef *t)
{
    for (size_t i = 0; i < db->nobjects; i++)
        if (db->tdefs && db->tdefs[i] && &db->tdefs[i]->pub == t)
            return &db->objects[i];
    return NULL;
}

static bool simple_type(jet_type t)
{
    switch (t) {
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_FLOAT:
    case JET_T_DOUBLE: case JET_T_GUID: case JET_T_NUMERIC: case JET_T_TEXT:
    case JET_T_BIGINT:
        return true;
    default:
        return false;
    }
}

/* The kind of complex column whose template table is tt. */
static jet_complex_kind kind_of(const jet_tdef *tt)
{
    unsigned memo = 0, text = 0, date = 0, ole = 0, lng = 0;
    if (tt->ncols == 1 && simple_type(tt->cols[0].type))
        return JET_COMPLEX_MULTI;
    for (uint16_t i = 0; i < tt->ncols; i++)
        switch (tt->cols[i].type) {
        case JET_T_MEMO: memo++; break;
        case JET_T_TEXT: text++; break;
        case JET_T_DATETIME: date++; break;
        case JET_T_OLE: ole++; break;
        case JET_T_LONG: lng++; break;
        default: break;
        }
    if (tt->ncols >= 6 && memo && text >= 2 && ole && date && lng)
        return JET_COMPLEX_ATTACHMENT;
    if (tt->ncols >= 2 && memo && date)
        return JET_COMPLEX_VERSIONS;
    return JET_COMPLEX_UNKNOWN;
}

/* Fill c (column col of t, template tt, flat table ft): the flat table's
 * own columns and the index on the complex id; a refusal into err. */
static jet_rc resolve(jet_complex_col *c, const jet_tdef *t,
                      const jet_tdef *tt, const jet_tdef *ft, jet_error *err)
{
    int fk = -1, pk = -1, value = -1;
    c->flat = ft;
    c->kind = kind_of(tt);
    for (uint16_t i = 0; i < ft->ncols; i++) {
        const jet_column *fc = &ft->cols[i];
        if (jet_tdef_find_column(tt, fc->name) >= 0) {
            if (value < 0)
                value = i;
            continue;
        }
        if ((fc->flags & JET_COL_AUTONUMBER) && fc->type == JET_T_LONG)
            pk = i;
        else if (fc->type == JET_T_LONG)
            fk = i;
    }
    if (fk < 0 || pk < 0 || value < 0)
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno, "table '%s': the "
                        "values table '%s' of complex column '%s' does not "
                        "have the columns Access gives it: writing it is "
                        "not supported", t->name, ft->name,
                        t->cols[c->col].name);
    c->fk_col = (uint16_t)fk;
    c->pk_col = (uint16_t)pk;
    c->value_col = (uint16_t)value;
    c->fk_index = -1;
    for (uint16_t i = 0; i < ft->nindexes; i++)
        if (ft->indexes[i].ncols >= 1 && ft->indexes[i].cols[0].col == fk) {
            c->fk_index = i;
            if (ft->indexes[i].ncols == 1)
                break;
        }
    if (c->fk_index < 0)
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno, "table '%s': the "
                        "values table '%s' of complex column '%s' has no "
                        "index on its row id: writing it is not supported",
                        t->name, ft->name, t->cols[c->col].name);
    if (c->kind == JET_COMPLEX_UNKNOWN)
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno, "table '%s' has a "
                        "complex column '%s' of a kind Access 2007-2019 do "
                        "not document (template '%s'): writing it is not "
                        "supported", t->name, t->cols[c->col].name,
                        tt->name);
    c->versioned = -1;
    if (c->kind == JET_COMPLEX_VERSIONS) {
        /* the template's Memo (the value) and Date/Time (when); the
         * versioned Memo of t has the Memo's name (Jackcess
         * VersionHistoryColumnInfoImpl.postTableLoadInit) */
        int memo = -1, date = -1, v;
        for (uint16_t i = 0; i < ft->ncols; i++) {
            if (jet_tdef_find_column(tt, ft->cols[i].name) < 0)
                continue;
            if (ft->cols[i].type == JET_T_MEMO && memo < 0)
                memo = i;
            else if (ft->cols[i].type == JET_T_DATETIME && date < 0)
                date = i;
        }
        v = memo < 0 ? -1 : jet_tdef_find_column(t, ft->cols[memo].name);
        if (date < 0 || v < 0 || t->cols[v].type != JET_T_MEMO)
            return jet_fail(err, JET_EUNSUPPORTED, t->pgno, "table '%s': "
                            "the version history '%s' follows no Memo "
                            "column of the table: writing it is not "
                            "supported", t->name, t->cols[c->col].name);
        c->value_col = (uint16_t)memo;
        c->date_col = (uint16_t)date;
        c->versioned = v;
    }
    return JET_OK;
}

/* Read MSysComplexColumns for t into set (a refusal into set->err). */
static jet_rc load(struct jet_complex_set *set, jet_db *db, const jet_tdef *t)
{
    const jet_object *obj = object_of(db, t), *mo;
    const jet_tdef *mt;
    jet_scan *s = NULL;
    int p_name, p_type, p_flat, p_table;
    size_t need = 0;
    jet_rc rc;

    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_COMPLEX)
            need++;
    if (need == 0)
        return JET_OK;
    set->c = jet_calloc(need, sizeof *set->c);
    if (!set->c)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_COMPLEX)
            set->c[set->n++].col = i;
    if (db->version < JET_VER_ACE12)
        return jet_fail(&set->err, JET_EUNSUPPORTED, t->pgno, "table '%s' "
                        "has a complex column in a file older than Access "
                        "2007: writing it is not supported", t->name);
    mo = jet_catalog_find(db, "MSysComplexColumns");
    if (!obj || !mo || mo->kind != JET_OBJ_SYSTEM_TABLE)
        return jet_fail(&set->err, JET_EUNSUPPORTED, t->pgno, "table '%s' "
                        "has complex column '%s' but the file lists no "
                        "MSysComplexColumns: writing it is not supported",
                        t->name, t->cols[set->c[0].col].name);
    if ((rc = jet_tdef_load(&mt, db, mo)) != JET_OK)
        return rc;
    p_name = jet_tdef_find_column(mt, "ColumnName");
    p_type = jet_tdef_find_column(mt, "ComplexTypeObjectID");
    p_flat = jet_tdef_find_column(mt, "FlatTableID");
    p_table = jet_tdef_find_column(mt, "ConceptualTableID");
    if (p_name < 0 || p_type < 0 || p_flat < 0 || p_table < 0)
        return jet_fail(&set->err, JET_EUNSUPPORTED, t->pgno, "table '%s': "
                        "MSysComplexColumns lacks the columns Access gives "
                        "it: writing it is not supported", t->name);
    if ((rc = jet_scan_open(&s, db, mt, NULL)) != JET_OK)
        return rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        char name[256];
        size_t n = 0;
        int64_t tid, fid, yid;
        if ((rc = jet_scan_value(s, (uint16_t)p_table, &v)) != JET_OK)
            break;
        tid = v.is_null ? -1 : v.u.i;
        if (tid != obj->id)
            continue;
        if ((rc = jet_scan_value(s, (uint16_t)p_name, &v)) != JET_OK)
            break;
        if (v.is_null)
            continue;
        if ((rc = jet_text_to_utf8(db, &v, name, sizeof name - 1, &n)) !=
            JET_OK)
            break;
        name[n] = '\0';
        if ((rc = jet_scan_value(s, (uint16_t)p_flat, &v)) != JET_OK)
            break;
        fid = v.is_null ? -1 : v.u.i;
        if ((rc = jet_scan_value(s, (uint16_t)p_type, &v)) != JET_OK)
            break;
        yid = v.is_null ? -1 : v.u.i;
        for (size_t k = 0; k < set->n; k++) {
            jet_complex_col *c = &set->c[k];
            const jet_object *fo, *yo;
            const jet_tdef *ft, *yt;
            if (c->flat || !jet_name_equal_ci(t->cols[c->col].name, name))
                continue;
            fo = object_by_id(db, fid);
            yo = object_by_id(db, yid);
            if (!fo || !yo) {
                jet_fail(&set->err, JET_EUNSUPPORTED, t->pgno, "table "
                         "'%s': complex column '%s' names tables the "
                         "catalog does not list: writing it is not "
                         "supported", t->name, name);
                rc = JET_DONE;
                break;
            }
            if ((rc = jet_tdef_load(&ft, db, fo)) != JET_OK ||
                (rc = jet_tdef_load(&yt, db, yo)) != JET_OK)
                break;
            if (resolve(c, t, yt, ft, &set->err) != JET_OK) {
                rc = JET_DONE;
                break;
            }
        }
        if (rc != JET_OK)
            break;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_OK && jet_scan_error(s)->rc != JET_OK)
        db->err = *jet_scan_error(s);
    jet_scan_close(s);
    if (rc == JET_OK && set->err.rc == JET_OK)
        for (size_t k = 0; k < set->n; k++)
            if (!set->c[k].flat)
                return jet_fail(&set->err, JET_EUNSUPPORTED, t->pgno,
                                "table '%s': complex column '%s' has no "
                                "row in MSysComplexColumns: writing it is "
                                "not supported", t->name,
                                t->cols[set->c[k].col].name);
    return rc;
}

jet_rc jet_complex_columns(jet_db *db, const jet_tdef *t,
                           const jet_complex_col **cols, size_t *n)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    *cols = NULL;
    *n = 0;
    if (!tp->complex) {
        struct jet_complex_set *set = jet_calloc(1, sizeof *set);
        jet_rc rc;
        if (!set)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        jet_error_clear(&set->err);
        rc = load(set, db, t);
        if (rc != JET_OK) {
            jet_free(set->c);
            jet_free(set);
            return rc;
        }
        set->rc = set->err.rc;
        tp->complex = set;
    }
    if (tp->complex->rc != JET_OK) {
        db->err = tp->complex->err;
        return tp->complex->rc;
    }
    *cols = tp->complex->c;
    *n = tp->complex->n;
    return JET_OK;
}

jet_rc jet_complex_flat_owner(jet_db *db, const jet_tdef *t, bool *is_flat)
{
    const jet_object *obj = object_of(db, t), *mo;
    const jet_tdef *mt;
    jet_scan *s = NULL;
    int p_flat;
    jet_rc rc;
    *is_flat = false;
    if (!obj || obj->kind != JET_OBJ_SYSTEM_TABLE ||
        strncasecmp(t->name, "f_", 2) != 0)
        return JET_OK;
    mo = jet_catalog_find(db, "MSysComplexColumns");
    if (!mo || mo->kind != JET_OBJ_SYSTEM_TABLE)
        return JET_OK;
    if ((rc = jet_tdef_load(&mt, db, mo)) != JET_OK)
        return rc;
    if ((p_flat = jet_tdef_find_column(mt, "FlatTableID")) < 0)
        return JET_OK;
    if ((rc = jet_scan_open(&s, db, mt, NULL)) != JET_OK)
        return rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        if ((rc = jet_scan_value(s, (uint16_t)p_flat, &v)) != JET_OK)
            break;
        if (!v.is_null && v.u.i == obj->id) {
            *is_flat = true;
            rc = JET_DONE;
            break;
        }
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (jet_scan_error(s)->rc != JET_OK)
        db->err = *jet_scan_error(s);
    jet_scan_close(s);
    return rc;
}

jet_rc jet_complex_value_rows(jet_db *db, const jet_complex_col *c,
                              int32_t complex_id, jet_rowid **ids, size_t *n)
{
    const jet_tdef *ft = c->flat;
    const jet_index *ix = &ft->indexes[c->fk_index];
    jet_value *key_vals;
    uint8_t key[JET_INDEX_KEY_MAX];
    size_t klen = 0, cap = 0;
    jet_index_cursor *cur = NULL;
    uint32_t pgno;
    uint16_t row;
    jet_rc rc;

    *ids = NULL;
    *n = 0;
    key_vals = jet_calloc(ft->ncols ? ft->ncols : 1, sizeof *key_vals);
    if (!key_vals)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (uint16_t i = 0; i < ft->ncols; i++) {
        key_vals[i].type = ft->cols[i].type;
        key_vals[i].is_null = true;
    }
    key_vals[c->fk_col].is_null = false;
    key_vals[c->fk_col].u.i = complex_id;
    /* the prefix of the index's key that the complex id alone makes */
    {
        jet_index one = *ix;
        one.ncols = 1;
        rc = jet_index_row_key(key, sizeof key, &klen, db, ft, &one,
                               key_vals);
    }
    jet_free(key_vals);
    if (rc != JET_OK)
        return rc;
    rc = jet_index_cursor_open(&cur, db, ft, (uint16_t)c->fk_index);
    if (rc != JET_OK)
        return rc;
    rc = jet_index_seek_bytes(cur, key, klen);
    while (rc == JET_OK && (rc = jet_index_next(cur, &pgno, &row)) == JET_OK) {
        size_t elen;
        const uint8_t *ek = jet_index_entry_key(cur, &elen);
        if (!ek || elen < klen || memcmp(ek, key, klen) != 0) {
            if (ek && elen >= klen && memcmp(ek, key, klen) > 0)
                break;          /* past the id's entries */
            continue;
        }
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 8;
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
        db->err = *jet_index_error(cur);
    jet_index_cursor_close(cur);
    if (rc != JET_OK) {
        jet_free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return rc;
}

jet_rc jet_complex_before_delete(jet_db *db, const jet_tdef *t,
                                 const jet_value *vals)
{
    const jet_complex_col *cols;
    size_t n;
    jet_rc rc = jet_complex_columns(db, t, &cols, &n);
    for (size_t k = 0; rc == JET_OK && k < n; k++) {
        const jet_value *v = &vals[cols[k].col];
        jet_rowid *ids = NULL;
        size_t m = 0;
        if (v->is_null)
            continue;
        rc = jet_complex_value_rows(db, &cols[k], (int32_t)v->u.i, &ids, &m);
        for (size_t i = 0; rc == JET_OK && i < m; i++)
            rc = jet_table_delete(db, cols[k].flat, ids[i]);
        jet_free(ids);
    }
    return rc;
}

/* Whether Memo values a and b hold the same text (both NULL too): the
 * stored encodings (compressed or not) compared as UTF-16. */
static jet_rc same_text(jet_db *db, const jet_value *a, const jet_value *b,
                        bool *same)
{
    uint16_t *ua = NULL, *ub = NULL;
    size_t na = 0, nb = 0;
    jet_rc rc;
    if (a->is_null || b->is_null) {
        *same = a->is_null == b->is_null;
        return JET_OK;
    }
    if (a->enc == b->enc && a->len == b->len &&
        (a->len == 0 || memcmp(a->data, b->data, a->len) == 0)) {
        *same = true;
        return JET_OK;
    }
    if ((rc = jet_text_to_utf16(db, a, NULL, 0, &na)) != JET_OK ||
        (rc = jet_text_to_utf16(db, b, NULL, 0, &nb)) != JET_OK)
        return jet_fail(&db->err, rc, JET_NO_PGNO, "a Memo value cannot "
                        "be read as text");
    *same = false;
    if (na != nb)
        return JET_OK;
    ua = jet_malloc((na ? na : 1) * sizeof *ua);
    ub = jet_malloc((nb ? nb : 1) * sizeof *ub);
    if (!ua || !ub)
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    else if ((rc = jet_text_to_utf16(db, a, ua, na, &na)) != JET_OK ||
             (rc = jet_text_to_utf16(db, b, ub, nb, &nb)) != JET_OK)
        rc = jet_fail(&db->err, rc, JET_NO_PGNO, "a Memo value cannot be "
                      "read as text");
    else
        *same = na == nb && memcmp(ua, ub, na * sizeof *ua) == 0;
    jet_free(ua);
    jet_free(ub);
    return rc;
}

/* Whether writing newv over oldv (NULL: an insert) adds a version to
 * the history c (a JET_COMPLEX_VERSIONS column). */
static jet_rc version_due(jet_db *db, const jet_complex_col *c,
                          const jet_value *oldv, const jet_value *newv,
                          bool *due)
{
    const jet_value *nv = &newv[c->versioned];
    bool same = false;
    jet_rc rc;
    if (!oldv) {
        /* a new row: its first value is its first version; a row
         * inserted without one has no history (Jackcess's
         * complexDataTest: row1) */
        *due = !nv->is_null;
        return JET_OK;
    }
    rc = same_text(db, &oldv[c->versioned], nv, &same);
    *due = rc == JET_OK && !same;
    return rc;
}

jet_rc jet_complex_versions_due(jet_db *db, const jet_tdef *t,
                                const jet_value *oldv, const jet_value *newv,
                                bool *due)
{
    const jet_complex_col *cols;
    size_t n;
    jet_rc rc = jet_complex_columns(db, t, &cols, &n);
    *due = false;
    for (size_t k = 0; rc == JET_OK && k < n && !*due; k++)
        if (cols[k].kind == JET_COMPLEX_VERSIONS)
            rc = version_due(db, &cols[k], oldv, newv, due);
    return rc;
}

/* Now as Access stamps a version: local time, days since 1899-12-30,
 * to the millisecond. */
static double now_days(void)
{
    jet_timestamp ts;
    int y, m;
    unsigned yoe, doy, doe;
    long era, days;
    jet_os_local_time(&ts);
    if (ts.year == 0)
        return 0;
    y = ts.year - (ts.month <= 2);
    m = ts.month;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (unsigned)(m + (m > 2 ? -3 : 9)) + 2) / 5 +
          (unsigned)ts.day - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    days = era * 146097 + (long)doe - 719468;     /* from 1970-01-01 */
    return (double)(days + 25569) +
           ((double)ts.hour * 3600000.0 + ts.minute * 60000.0 +
            ts.second * 1000.0 + (double)(ts.fraction_ns / 1000000u)) /
               86400000.0;
}

jet_rc jet_complex_add_versions(jet_db *db, const jet_tdef *t,
                                const jet_value *oldv, const jet_value *newv)
{
    const jet_complex_col *cols;
    size_t n;
    double when = 0;
    bool stamped = false;
    jet_rc rc = jet_complex_columns(db, t, &cols, &n);
    for (size_t k = 0; rc == JET_OK && k < n; k++) {
        const jet_complex_col *c = &cols[k];
        const jet_tdef *ft = c->flat;
        const jet_value *id = &newv[c->col];
        jet_value *vals;
        bool due = false;
        if (c->kind != JET_COMPLEX_VERSIONS)
            continue;
        if ((rc = version_due(db, c, oldv, newv, &due)) != JET_OK)
            break;
        if (!due)
            continue;
        if (id->is_null)
            return jet_fail(&db->err, JET_ECORRUPT, t->pgno, "table '%s': "
                            "a row without a complex id gets a version of "
                            "'%s'", t->name, t->cols[c->versioned].name);
        if (!stamped) {
            /* one statement's row: one time for all its versions */
            when = now_days();
            stamped = true;
        }
        vals = jet_calloc(ft->ncols ? ft->ncols : 1, sizeof *vals);
        if (!vals)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        for (uint16_t i = 0; i < ft->ncols; i++) {
            vals[i].type = ft->cols[i].type;
            vals[i].is_null = true;
        }
        vals[c->fk_col].is_null = false;
        vals[c->fk_col].u.i = id->u.i;
        vals[c->value_col] = newv[c->versioned];
        vals[c->value_col].type = JET_T_MEMO;
        vals[c->date_col].is_null = false;
        vals[c->date_col].u.d = when;
        rc = jet_table_insert(db, ft, vals, NULL);
        jet_free(vals);
    }
    return rc;
}
