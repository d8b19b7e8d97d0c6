/*
 * tablerules.c - which tables the write path may change (write.h,
 * jet_table_check_writable).
 *
 * Access applies rules to every row it stores: enforced relationships,
 * table and field validation rules, calculated columns it recomputes,
 * complex columns with hidden tables, index keys in the column's sort
 * order. A table is writable only when every rule it has is one this
 * release enforces; otherwise each write is refused, naming the table and
 * the first rule found, so that nothing Access would refuse is written.
 * Reasons, in the order they are checked:
 *   Jet3 file (JET_EREADONLY), linked table, system table (MSys*; the
 *   flat table of a complex column is the exception: complex.c writes
 *   it, through its column only, and the SQL layer refuses statements on
 *   it), a calculated column while no row check computes them
 *   (jet_db_set_row_check: the check computes each from its Expression
 *   on every insert and update, tablewrite.c stores it in Access's
 *   wrapper), a complex column complex.c cannot keep (no
 *   MSysComplexColumns row or flat table, a template of an unknown kind;
 *   the others, attachments, multi-value and version history, are kept:
 *   complex ids on insert, values deleted with their row), an index
 *   column whose keys jet_index_row_key cannot build (a calculated
 *   column of a GUID or binary result; a text sort order without
 *   tables, a type without keys), a validation
 *   rule (the ValidationRule property of the table or a column,
 *   MSysObjects LvProp) while no row check evaluates them (jet_db_set_row_check; tableprops.c
 *   then applies them to every row), an enforced relationship relations.c
 *   cannot enforce (a table that is not local, no index on its columns;
 *   relations.c keeps the others).
 * The answer depends only on the schema, so it is computed once per tdef
 * and kept in it (jet_tdef_priv.rules); failures to read the schema
 * (JET_EIO, JET_ENOMEM, JET_ECORRUPT) are returned and not kept.
 * Format: Jackcess RelationshipImpl (grbit flags), PropertyMaps (LvProp),
 * TableImpl; mdbtools HACKING.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "collate.h"
#include "internal.h"
#include "text.h"
#include "write.h"

/* LvProp chunk type listing the property names. */
#define PROP_NAME_LIST 0x80

/** The cached answer of jet_table_check_writable for one tdef. */
struct jet_table_rules {
    jet_rc rc;          /* JET_OK or JET_EUNSUPPORTED */
    jet_error err;      /* the refusal, when rc < 0 */
};

void jet_table_rules_free(jet_tdef_priv *t)
{
    if (!t)
        return;
    jet_free(t->rules);
    t->rules = NULL;
}

jet_rc jet_table_rules_grant(jet_tdef_priv *t)
{
    jet_table_rules_free(t);
    t->rules = jet_calloc(1, sizeof *t->rules);
    if (!t->rules)
        return JET_ENOMEM;
    t->rules->rc = JET_OK;
    return JET_OK;
}

/* The catalog entry whose loaded tdef is t, or NULL (a linked table's tdef
 * belongs to the linked db, never to db's own list). */
static const jet_object *object_of(const jet_db *db, const jet_tdef *t)
{
    for (size_t i = 0; i < db->nobjects; i++)
        if (db->tdefs && db->tdefs[i] && &db->tdefs[i]->pub == t)
            return &db->objects[i];
    return NULL;
}

/* Can jet_index_row_key build keys of column col? */
static bool keyable(const jet_db *db, const jet_column *col)
{
    if (col->flags & JET_COL_CALCULATED) {
        /* text by its value; other results in their stored wrapper
         * (jet_index_encode_calc_value) */
        switch (col->result_type) {
        case JET_T_TEXT: case JET_T_MEMO:
            return jet_collation_of(db->version, col) != JET_COLL_NONE;
        case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
        case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
        case JET_T_DATETIME: case JET_T_NUMERIC: case JET_T_BIGINT:
            return true;
        default:
            return false;
        }
    }
    switch (col->type) {
    case JET_T_TEXT:
    case JET_T_MEMO:
        return jet_collation_of(db->version, col) != JET_COLL_NONE;
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME: case JET_T_BINARY: case JET_T_GUID:
    case JET_T_NUMERIC: case JET_T_BIGINT: case JET_T_EXT_DATETIME:
    case JET_T_COMPLEX:         /* its id, keyed as a LONG */
        return true;
    default:
        return false;
    }
}

/* Refusals that the tdef alone shows. */
static jet_rc check_columns(jet_db *db, const jet_tdef *t, jet_error *err)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *c = &t->cols[i];
        if ((c->flags & JET_COL_CALCULATED) && !db->row_check)
            return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                            "table '%s' has a calculated column '%s' (no "
                            "evaluator is attached to compute it): writing "
                            "it is not supported", t->name, c->name);
        if (c->type == JET_T_COMPLEX) {
            /* complex.c keeps them when it knows each one's values table */
            const jet_complex_col *cc;
            size_t n;
            jet_rc rc = jet_complex_columns(db, t, &cc, &n);
            if (rc == JET_EUNSUPPORTED)
                *err = db->err;
            if (rc != JET_OK)
                return rc;
        }
    }
    for (uint16_t i = 0; i < t->nindexes; i++) {
        const jet_index *ix = &t->indexes[i];
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            const jet_column *c;
            if (ix->cols[k].col >= t->ncols)
                return jet_fail(err, JET_ECORRUPT, t->pgno,
                                "index '%s' of table '%s' names column %u "
                                "of %u", ix->name, t->name, ix->cols[k].col,
                                t->ncols);
            c = &t->cols[ix->cols[k].col];
            if (keyable(db, c))
                continue;
            if (c->flags & JET_COL_CALCULATED)
                return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                                "table '%s' has index '%s' on calculated "
                                "column '%s' of a result type whose keys "
                                "are not encoded yet: writing it is not "
                                "supported yet", t->name, ix->name,
                                c->name);
            if (c->type == JET_T_TEXT || c->type == JET_T_MEMO)
                return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                                "table '%s' has index '%s' on column '%s' "
                                "in a sort order (LCID %u, version %u) whose "
                                "keys are not encoded yet: writing it is "
                                "not supported yet", t->name, ix->name,
                                c->name, c->sort_lcid, c->sort_version);
            return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                            "table '%s' has index '%s' on column '%s' of a "
                            "type whose keys are not encoded yet: writing "
                            "it is not supported yet", t->name, ix->name,
                            c->name);
        }
    }
    return JET_OK;
}

/* Open a scan of system table name; *s NULL when the file has none. */
static jet_rc open_system(jet_scan **s, const jet_tdef **st, jet_db *db,
                          const char *name)
{
    const jet_object *o = jet_catalog_find(db, name);
    jet_rc rc;
    *s = NULL;
    *st = NULL;
    if (!o || o->kind != JET_OBJ_SYSTEM_TABLE)
        return JET_OK;
    rc = jet_tdef_load(st, db, o);
    if (rc != JET_OK)
        return rc;
    rc = jet_scan_open(s, db, *st, NULL);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, (*st)->pgno, "cannot scan %s", name);
    return JET_OK;
}

/* Copy a failed scan's detail into db->err; returns rc. */
static jet_rc scan_failed(jet_db *db, jet_scan *s, jet_rc rc)
{
    if (s && jet_scan_error(s)->rc != JET_OK)
        db->err = *jet_scan_error(s);
    else if (rc == JET_ENOMEM)
        jet_fail(&db->err, rc, JET_NO_PGNO, "out of memory");
    return rc;
}

/* An enforced relationship with t on either side that relations.c
 * cannot enforce. */
static jet_rc check_relationships(jet_db *db, const jet_tdef *t,
                                  jet_error *err)
{
    return jet_rel_check_enforceable(db, t, err);
}

/* Decode a property-map name (2-byte length + text) at *pos into buf. */
static bool prop_name(const jet_db *db, const uint8_t *p, size_t end,
                      size_t *pos, char *buf, size_t cap)
{
    size_t n, out_len = 0;
    if (*pos + 2 > end)
        return false;
    n = jet_get_u16(p + *pos);
    *pos += 2;
    if (n > end - *pos)
        return false;
    if (jet_text_bytes_to_utf8(db, JET_ENC_UCS2, p + *pos, n, buf, cap - 1,
                               &out_len) != JET_OK)
        return false;
    buf[out_len < cap - 1 ? out_len : cap - 1] = '\0';
    *pos += n;
    return true;
}

jet_rc jet_lvprop_find(bool *found, char *where, size_t cap, jet_db *db,
                       const uint8_t *p, size_t len, const char *owner,
                       const char *prop)
{
    enum { MAX_NAMES = 1024 };
    static const char bad[] = "property map (LvProp) of '%s' is damaged";
    size_t name_off[MAX_NAMES], nnames = 0, names_end = 0, pos = 4;

    *found = false;
    where[0] = '\0';
    if (len == 0)
        return JET_OK;
    if (len < 4 ||
        (memcmp(p, "MR2", 4) != 0 && memcmp(p, "KKD", 4) != 0))
        return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO, bad, owner);
    while (pos + 6 <= len) {
        uint32_t clen = jet_get_u32(p + pos);
        uint16_t type = jet_get_u16(p + pos + 4);
        size_t start = pos + 6, end;
        if (clen < 6 || clen > len - pos)
            return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO, bad, owner);
        end = pos + clen;
        if (type == PROP_NAME_LIST) {
            size_t q = start;
            names_end = end;
            nnames = 0;
            while (q + 2 <= end && nnames < MAX_NAMES) {
                size_t n = jet_get_u16(p + q);
                name_off[nnames++] = q;
                if (n > end - q - 2)
                    return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO, bad,
                                    owner);
                q += 2 + n;
            }
        } else if (start + 4 <= end) {
            char block[256] = "";
            uint32_t nlen = jet_get_u32(p + start);
            size_t q;
            if (nlen < 4 || nlen > end - start)
                return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO, bad,
                                owner);
            if (nlen > 6) {
                size_t nq = start + 4;
                if (!prop_name(db, p, start + nlen, &nq, block,
                               sizeof block))
                    return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO,
                                    bad, owner);
            }
            for (q = start + nlen; q + 8 <= end;) {
                size_t vlen = jet_get_u16(p + q);
                uint16_t nidx = jet_get_u16(p + q + 4);
                size_t dsize = jet_get_u16(p + q + 6);
                char pname[64];
                size_t nq;
                if (vlen < 8 || vlen > end - q || dsize > vlen - 8)
                    return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO, bad,
                                    owner);
                if (nidx < nnames && dsize > 0) {
                    nq = name_off[nidx];
                    if (prop_name(db, p, names_end, &nq, pname,
                                  sizeof pname) &&
                        strcasecmp(pname, prop) == 0) {
                        *found = true;
                        if (!jet_name_equal_ci(block, owner))
                            snprintf(where, cap, "%s", block);
                        return JET_OK;
                    }
                }
                q += vlen;
            }
        }
        pos = end;
    }
    return JET_OK;
}

/* A ValidationRule on the table or one of its columns, unless a row
 * check enforces them (jet_db_set_row_check: the handshake). */
static jet_rc check_validation(jet_db *db, const jet_tdef *t,
                               const jet_object *obj, jet_error *err)
{
    const jet_tdef *mt;
    jet_scan *s;
    int p_id, p_prop;
    jet_rc rc;
    if (db->row_check)
        return JET_OK;
    rc = open_system(&s, &mt, db, "MSysObjects");
    if (rc != JET_OK)
        return rc;
    if (!s)
        return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO,
                        "the catalog lists no MSysObjects");
    p_id = jet_tdef_find_column(mt, "Id");
    p_prop = jet_tdef_find_column(mt, "LvProp");
    if (p_id < 0 || p_prop < 0) {
        jet_scan_close(s);
        return JET_OK;   /* no properties at all */
    }
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        bool found;
        char where[256];
        rc = jet_scan_value(s, (uint16_t)p_id, &v);
        if (rc != JET_OK)
            break;
        if (v.is_null || v.u.i != obj->id)
            continue;
        rc = jet_scan_value(s, (uint16_t)p_prop, &v);
        if (rc != JET_OK)
            break;
        if (v.is_null || !v.data) {
            rc = JET_DONE;
            break;
        }
        rc = jet_lvprop_find(&found, where, sizeof where, db, v.data,
                             v.len, t->name, "ValidationRule");
        jet_scan_close(s);
        if (rc != JET_OK || !found)
            return rc;
        if (where[0])
            return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                            "table '%s' has a validation rule on column "
                            "'%s' (not enforced yet): writing it is not "
                            "supported yet", t->name, where);
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s' has a table validation rule (not "
                        "enforced yet): writing it is not supported yet",
                        t->name);
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else
        rc = scan_failed(db, s, rc);
    jet_scan_close(s);
    return rc;
}

/* Every rule, into err: JET_OK, JET_EUNSUPPORTED, or a failure to read. */
static jet_rc check_rules(jet_db *db, const jet_tdef *t, jet_error *err)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    const jet_object *obj;
    jet_rc rc;

    if (tp->owner && tp->owner != db) {
        const char *name = t->name;   /* the name in the linked file */
        for (size_t i = 0; i < db->nobjects; i++)
            if (db->objects[i].kind == JET_OBJ_LINKED_TABLE &&
                db->objects[i].linked_name &&
                jet_name_equal_ci(db->objects[i].linked_name, t->name))
                name = db->objects[i].name;
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s' is a linked table: writing it is not "
                        "supported yet", name);
    }
    obj = object_of(db, t);
    if (!obj)
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s' is not a table of this database "
                        "(linked?): writing it is not supported yet",
                        t->name);
    if (obj->kind == JET_OBJ_SYSTEM_TABLE) {
        /* the values table of a complex column is written through its
         * column (complex.c; the SQL layer refuses statements on it) */
        bool flat = false;
        rc = jet_complex_flat_owner(db, t, &flat);
        if (rc != JET_OK)
            return rc;
        if (flat)
            return check_columns(db, t, err);
    }
    if (obj->kind != JET_OBJ_TABLE || strncasecmp(t->name, "MSys", 4) == 0)
        return jet_fail(err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s' is a system table: writing it is not "
                        "supported", t->name);
    rc = check_columns(db, t, err);
    if (rc != JET_OK)
        return rc;
    rc = check_validation(db, t, obj, err);
    if (rc != JET_OK)
        return rc;
    return check_relationships(db, t, err);
}

jet_rc jet_table_check_writable(jet_db *db, const jet_tdef *t)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)t;
    jet_error err;
    jet_rc rc;

    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                        "Access 97 files are read-only");
    if (tp->rules) {
        if (tp->rules->rc != JET_OK)
            db->err = tp->rules->err;
        return tp->rules->rc;
    }
    jet_error_clear(&err);
    rc = check_rules(db, t, &err);
    if (rc != JET_OK && rc != JET_EUNSUPPORTED) {
        if (err.rc != JET_OK)
            db->err = err;   /* else check_rules recorded it in db->err */
        return rc;
    }
    if (tp->owner && tp->owner != db) {   /* a link's tdef: not ours */
        db->err = err;
        return rc;
    }
    tp->rules = jet_calloc(1, sizeof *tp->rules);
    if (tp->rules) {
        tp->rules->rc = rc;
        tp->rules->err = err;
    }
    if (rc != JET_OK)
        db->err = err;
    return rc;
}
