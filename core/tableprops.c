/*
 * tableprops.c - the rule properties of a table and the checks the write
 * path makes of them on every row it stores (write.h, "rule properties").
 *
 * Access keeps a column's DefaultValue, ValidationRule, ValidationText
 * and AllowZeroLength, a calculated column's Expression, and the table's
 * own ValidationRule and ValidationText, in the property map of the
 * table's MSysObjects row (LvProp), not in the TDEF: "MR2\0" (Jet4/ACE; "KKD\0" Jet3), then
 * chunks of [4-byte length, 2-byte type]. Type 0x80 lists the property
 * names; the others are one block per object: [4-byte length, 2-byte
 * name length, name] (the table's block is named "" or after the table,
 * a column's after the column), then values of [2-byte length, DDL byte,
 * data type, 2-byte name index, 2-byte size, data]. DefaultValue and
 * ValidationRule are Memo, ValidationText Text (compressed Unicode when
 * the data opens with FF FE), AllowZeroLength Boolean, Expression Memo.
 *
 * Which layer enforces what:
 *   AllowZeroLength = No  here: a zero-length TEXT/MEMO value is refused
 *                         (23000, "Field 'T.C' cannot be a zero-length
 *                         string.").
 *   ValidationRule        an expression: the row check a layer above
 *                         registers (jet_db_set_row_check; the driver's
 *                         SQL engine, driver/sql/rules.c). Without one,
 *                         jet_table_check_writable refuses the table.
 *   Expression            a calculated column's value: computed by the
 *                         same row check before the rules are judged
 *                         (tablewrite.c stores it in Access's wrapper,
 *                         jet_calc_value_encode); without a check,
 *                         jet_table_check_writable refuses the table.
 *   DefaultValue          an expression for columns an INSERT omits: the
 *                         SQL layer (driver/sql/dml.c) evaluates it before
 *                         the row reaches jet_table_insert.
 * Format: Jackcess PropertyMaps, PropertyMapImpl; mdbtools HACKING.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "internal.h"
#include "text.h"
#include "write.h"

#define PROP_NAME_LIST 0x80

/* Property value data types (Jet column types). */
#define PROP_T_BOOL 0x01
#define PROP_T_TEXT 0x0A
#define PROP_T_MEMO 0x0C

/* The property names read here, most bytes a name takes (64). */
enum { P_DEFAULT, P_RULE, P_TEXT, P_AZL, P_EXPR, P_NONE };

static int prop_kind(const char *name)
{
    if (!strcasecmp(name, "DefaultValue"))
        return P_DEFAULT;
    if (!strcasecmp(name, "ValidationRule"))
        return P_RULE;
    if (!strcasecmp(name, "ValidationText"))
        return P_TEXT;
    if (!strcasecmp(name, "AllowZeroLength"))
        return P_AZL;
    if (!strcasecmp(name, "Expression"))
        return P_EXPR;
    return P_NONE;
}

/* What props owns: the struct, its column array and every string. */
typedef struct props_priv {
    jet_table_props pub;
    jet_column_props *cols;
    char **strings;
    size_t nstrings, cap;
} props_priv;

void jet_table_props_free(jet_tdef_priv *t)
{
    props_priv *p;
    if (!t || !t->props)
        return;
    p = (props_priv *)t->props;
    for (size_t i = 0; i < p->nstrings; i++)
        jet_free(p->strings[i]);
    jet_free(p->strings);
    jet_free(p->cols);
    jet_free(p);
    t->props = NULL;
}

/* A text property value (n bytes at d) as a new UTF-8 string kept in pp;
 * trailing NULs and blanks cut (DAO leaves a NUL after a column's rule).
 * *out NULL when nothing is left. */
static jet_rc keep_text(props_priv *pp, jet_db *db, const uint8_t *d,
                        size_t n, const char **out)
{
    jet_text_enc enc = db->fmt->jet3 ? JET_ENC_CODEPAGE
                       : (n >= 2 && d[0] == 0xFF && d[1] == 0xFE)
                           ? JET_ENC_COMPRESSED : JET_ENC_UCS2;
    size_t cap = n * 3 + 1, len = 0;
    char *s;
    *out = NULL;
    if (pp->nstrings == pp->cap) {
        size_t ncap = pp->cap ? 2 * pp->cap : 8;
        char **ns = jet_realloc(pp->strings, ncap * sizeof *ns);
        if (!ns)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        pp->strings = ns;
        pp->cap = ncap;
    }
    s = jet_malloc(cap);
    if (!s)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if (jet_text_bytes_to_utf8(db, enc, d, n, s, cap - 1, &len) != JET_OK) {
        jet_free(s);
        return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO,
                        "a property value is not text");
    }
    s[len < cap - 1 ? len : cap - 1] = '\0';
    len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
                       s[len - 1] == '\r' || s[len - 1] == '\n'))
        s[--len] = '\0';
    pp->strings[pp->nstrings++] = s;
    if (len > 0)
        *out = s;
    return JET_OK;
}

/* Record property kind (value d, n bytes, data type dtype) of block target
 * (a column's, or the table's when col is NULL). */
static jet_rc apply_prop(props_priv *pp, jet_db *db, const jet_tdef *t,
                         jet_column_props *col, int kind, uint8_t dtype,
                         const uint8_t *d, size_t n)
{
    const char *s = NULL;
    jet_rc rc;
    if (kind == P_AZL) {
        if (col && n >= 1 && dtype == PROP_T_BOOL && d[0] == 0) {
            col->no_zero_length = true;
            pp->pub.has_no_zero_length = true;
        }
        return JET_OK;
    }
    if (dtype != PROP_T_TEXT && dtype != PROP_T_MEMO)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s': a %s property of data type %u (not "
                        "text)", t->name,
                        kind == P_DEFAULT ? "DefaultValue"
                        : kind == P_RULE ? "ValidationRule"
                        : kind == P_EXPR ? "Expression"
                                         : "ValidationText",
                        (unsigned)dtype);
    rc = keep_text(pp, db, d, n, &s);
    if (rc != JET_OK || !s)
        return rc;
    switch (kind) {
    case P_DEFAULT:
        if (col)
            col->default_value = s;
        break;
    case P_RULE:
        if (col)
            col->validation_rule = s;
        else
            pp->pub.validation_rule = s;
        pp->pub.has_validation = true;
        break;
    case P_TEXT:
        if (col)
            col->validation_text = s;
        else
            pp->pub.validation_text = s;
        break;
    case P_EXPR:
        if (col)
            col->expression = s;
        break;
    default:
        break;
    }
    return JET_OK;
}

/* Parse property map p (len bytes) of table t into pp. */
static jet_rc parse_map(props_priv *pp, jet_db *db, const jet_tdef *t,
                        const uint8_t *p, size_t len)
{
    enum { MAX_NAMES = 1024 };
    static const char bad[] = "property map (LvProp) of '%s' is damaged";
    size_t name_off[MAX_NAMES], nnames = 0, names_end = 0, pos = 4;
    unsigned nblocks = 0;

    if (len == 0)
        return JET_OK;
    if (len < 4 ||
        (memcmp(p, "MR2", 4) != 0 && memcmp(p, "KKD", 4) != 0))
        return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad, t->name);
    while (pos + 6 <= len) {
        uint32_t clen = jet_get_u32(p + pos);
        uint16_t type = jet_get_u16(p + pos + 4);
        size_t start = pos + 6, end;
        if (clen < 6 || clen > len - pos)
            return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad, t->name);
        end = pos + clen;
        if (type == PROP_NAME_LIST) {
            size_t q = start;
            names_end = end;
            nnames = 0;
            while (q + 2 <= end && nnames < MAX_NAMES) {
                size_t n = jet_get_u16(p + q);
                name_off[nnames++] = q;
                if (n > end - q - 2)
                    return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad,
                                    t->name);
                q += 2 + n;
            }
        } else if (start + 4 <= end) {
            char block[256] = "";
            uint32_t nlen = jet_get_u32(p + start);
            jet_column_props *col = NULL;
            bool orphan = false;
            size_t q;
            int c;
            if (nlen < 4 || nlen > end - start)
                return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad,
                                t->name);
            if (nlen > 6) {
                size_t nq = start + 4;
                if (!jet_prop_name(db, p, start + nlen, &nq, block,
                                    sizeof block))
                    return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad,
                                    t->name);
            }
            /* a column's block is named after it; the table's comes
             * first, named "" or after the table (an older name when
             * it was renamed) */
            c = block[0] ? jet_tdef_find_column(t, block) : -1;
            if (c >= 0)
                col = &pp->cols[c];
            else if (block[0] && !jet_name_equal_ci(block, t->name) &&
                     nblocks > 0)
                orphan = true;  /* no such column (any more) */
            nblocks++;
            for (q = start + nlen; q + 8 <= end;) {
                size_t vlen = jet_get_u16(p + q);
                uint8_t dtype = p[q + 3];
                uint16_t nidx = jet_get_u16(p + q + 4);
                size_t dsize = jet_get_u16(p + q + 6);
                if (vlen < 8 || vlen > end - q || dsize > vlen - 8)
                    return jet_fail(&db->err, JET_ECORRUPT, t->pgno, bad,
                                    t->name);
                if (nidx < nnames && dsize > 0) {
                    char pname[64];
                    size_t nq = name_off[nidx];
                    int kind;
                    if (jet_prop_name(db, p, names_end, &nq, pname,
                                       sizeof pname) &&
                        (kind = prop_kind(pname)) != P_NONE) {
                        jet_rc rc = JET_OK;
                        /* a rule nothing says where to apply is never
                         * dropped: the write is refused */
                        if (orphan && kind == P_RULE)
                            return jet_fail(&db->err, JET_EUNSUPPORTED,
                                            t->pgno, "table '%s': a "
                                            "validation rule of '%s', which "
                                            "is no column of it", t->name,
                                            block);
                        if (!orphan)
                            rc = apply_prop(pp, db, t, col, kind, dtype,
                                            p + q + 8, dsize);
                        if (rc != JET_OK)
                            return rc;
                    }
                }
                q += vlen;
            }
        }
        pos = end;
    }
    return JET_OK;
}

/* The MSysObjects Id of t's catalog entry; false for a tdef that is not
 * one of db's own tables (a link's). */
static bool object_id(const jet_db *db, const jet_tdef *t, int32_t *id)
{
    for (size_t i = 0; i < db->nobjects; i++)
        if (db->tdefs && db->tdefs[i] && &db->tdefs[i]->pub == t) {
            *id = db->objects[i].id;
            return true;
        }
    return false;
}

/* Read t's property map from MSysObjects into pp. */
static jet_rc load_props(props_priv *pp, jet_db *db, const jet_tdef *t)
{
    const jet_object *o = jet_catalog_find(db, "MSysObjects");
    const jet_tdef *mt;
    jet_scan *s = NULL;
    int p_id, p_prop;
    int32_t id;
    jet_rc rc;

    if (!object_id(db, t, &id) || !o || o->kind != JET_OBJ_SYSTEM_TABLE)
        return JET_OK;
    rc = jet_tdef_load(&mt, db, o);
    if (rc != JET_OK)
        return rc;
    p_id = jet_tdef_find_column(mt, "Id");
    p_prop = jet_tdef_find_column(mt, "LvProp");
    if (p_id < 0 || p_prop < 0)
        return JET_OK;          /* no properties at all */
    rc = jet_scan_open(&s, db, mt, NULL);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, mt->pgno, "cannot scan MSysObjects");
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        rc = jet_scan_value(s, (uint16_t)p_id, &v);
        if (rc != JET_OK)
            break;
        if (v.is_null || v.u.i != id)
            continue;
        rc = jet_scan_value(s, (uint16_t)p_prop, &v);
        if (rc != JET_OK)
            break;
        if (!v.is_null && v.data)
            rc = parse_map(pp, db, t, v.data, v.len);
        jet_scan_close(s);
        return rc;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (jet_scan_error(s)->rc != JET_OK)
        db->err = *jet_scan_error(s);
    jet_scan_close(s);
    return rc;
}

jet_rc jet_table_props_get(jet_db *db, const jet_tdef *t,
                           const jet_table_props **out)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    props_priv *pp;
    jet_rc rc;

    if (tp->props) {
        *out = tp->props;
        return JET_OK;
    }
    *out = NULL;
    pp = jet_calloc(1, sizeof *pp);
    if (pp)
        pp->cols = jet_calloc(t->ncols ? t->ncols : 1, sizeof *pp->cols);
    if (!pp || !pp->cols) {
        jet_free(pp);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    pp->pub.ncols = t->ncols;
    pp->pub.cols = pp->cols;
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].flags & JET_COL_CALCULATED)
            pp->pub.has_calculated = true;
    tp->props = &pp->pub;
    rc = load_props(pp, db, t);
    if (rc != JET_OK) {
        jet_table_props_free(tp);   /* read again next time */
        return rc;
    }
    *out = &pp->pub;
    return JET_OK;
}

/* ------------------------------------------------------- the row checks */

void jet_db_set_row_check(jet_db *db, jet_row_check_fn check,
                          void (*free_ctx)(void *), void *ctx)
{
    if (db->row_check_free)
        db->row_check_free(db->row_check_ctx);
    db->row_check = check;
    db->row_check_free = check ? free_ctx : NULL;
    db->row_check_ctx = check ? ctx : NULL;
}

bool jet_db_has_row_check(const jet_db *db)
{
    return db->row_check != NULL;
}

/* Whether text value v (TEXT/MEMO, not NULL) holds no character. */
static bool zero_length(const jet_value *v)
{
    if (v->enc == JET_ENC_COMPRESSED)
        return v->len <= 2;     /* the FF FE mark alone */
    return v->len == 0;
}

jet_rc jet_table_row_rules(jet_db *db, const jet_tdef *t, jet_value *vals)
{
    const jet_table_props *p;
    jet_rc rc = jet_table_props_get(db, t, &p);
    if (rc != JET_OK)
        return rc;
    if (p->has_no_zero_length)
        for (uint16_t i = 0; i < t->ncols && i < p->ncols; i++) {
            const jet_column *col = &t->cols[i];
            if (!p->cols[i].no_zero_length || vals[i].is_null ||
                (col->type != JET_T_TEXT && col->type != JET_T_MEMO) ||
                !zero_length(&vals[i]))
                continue;
            return jet_fail(&db->err, JET_ECONSTRAINT, t->pgno,
                            "Field '%s.%s' cannot be a zero-length string.",
                            t->name, col->name);
        }
    if (!p->has_validation && !p->has_calculated)
        return JET_OK;
    if (!db->row_check)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "table '%s' has a %s and no evaluator is "
                        "attached: writing it is not supported", t->name,
                        p->has_calculated ? "calculated column"
                                          : "validation rule");
    return db->row_check(db->row_check_ctx, db, t, p, vals, &db->err);
}
