/*
 * catalog.c - read MSysObjects (tdef page 2) into the db's object list.
 *
 * Rows of MSysObjects whose ParentId is the "Tables" container become
 * objects: Type 1 local table (system when Flags has 0x80000000 or 0x2, or
 * the name starts with "MSys"), 4 ODBC link, 6 Access link, 5 query.
 * A table's tdef page is Id & 0x00FFFFFF.
 * Format: mdbtools HACKING.md "System Tables"/"Catalog Entry"; Jackcess
 * DatabaseImpl.
 */
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"
#include "text.h"

#define MSYS_OBJECTS_PGNO 2
#define TABLES_CONTAINER_ID 0x0F000001
#define SYSTEM_FLAGS 0x80000002u

enum { C_ID, C_PARENT, C_NAME, C_TYPE, C_FLAGS, C_DB, C_FOREIGN, C_CONNECT,
       C_COUNT };

static const char *const col_names[C_COUNT] = {
    "Id", "ParentId", "Name", "Type", "Flags", "Database", "ForeignName",
    "Connect"
};

typedef struct raw_obj {
    int32_t id, parent, type, flags;
    uint32_t pgno;
    uint16_t slot;
    char *name, *database, *foreign, *connect;
} raw_obj;

static void raw_free(raw_obj *r)
{
    jet_free(r->name);
    jet_free(r->database);
    jet_free(r->foreign);
    jet_free(r->connect);
}

/* Text value of column pos (-1 = absent) as a new UTF-8 string or NULL. */
static jet_rc get_text(jet_scan *s, jet_db *db, int pos, char **out)
{
    jet_value v;
    size_t need = 0;
    char *str;
    jet_rc rc;

    *out = NULL;
    if (pos < 0)
        return JET_OK;
    rc = jet_scan_value(s, (uint16_t)pos, &v);
    if (rc != JET_OK)
        return rc;
    if (v.is_null || (v.type != JET_T_TEXT && v.type != JET_T_MEMO))
        return JET_OK;
    rc = jet_text_to_utf8(db, &v, NULL, 0, &need);
    if (rc != JET_OK)
        return rc;
    str = jet_malloc(need + 1);
    if (!str)
        return JET_ENOMEM;
    rc = jet_text_to_utf8(db, &v, str, need, &need);
    if (rc != JET_OK) {
        jet_free(str);
        return rc;
    }
    str[need] = '\0';
    *out = str;
    return JET_OK;
}

static jet_rc get_int(jet_scan *s, int pos, int32_t *out)
{
    jet_value v;
    jet_rc rc;
    *out = 0;
    if (pos < 0)
        return JET_OK;
    rc = jet_scan_value(s, (uint16_t)pos, &v);
    if (rc == JET_OK && !v.is_null)
        *out = (int32_t)v.u.i;
    return rc;
}

void jet_catalog_free(jet_db *db)
{
    for (size_t i = 0; i < db->nobjects; i++) {
        jet_object *o = &db->objects[i];
        jet_free((char *)o->name);
        jet_free((char *)o->linked_db);
        jet_free((char *)o->linked_name);
        jet_free((char *)o->connect);
        if (db->tdefs)
            jet_tdef_free(db->tdefs[i]);
    }
    jet_free(db->objects);
    jet_free(db->tdefs);
    db->objects = NULL;
    db->tdefs = NULL;
    db->nobjects = 0;
}

jet_rc jet_catalog_load(jet_db *db)
{
    jet_tdef_priv *t = NULL;
    jet_scan *s = NULL;
    raw_obj *raws = NULL;
    size_t nraw = 0, cap = 0;
    int pos[C_COUNT];
    int32_t tables_id = TABLES_CONTAINER_ID;
    jet_rc rc;

    rc = jet_tdef_read(&t, db, MSYS_OBJECTS_PGNO, "MSysObjects", &db->err);
    if (rc != JET_OK)
        return rc;
    for (int i = 0; i < C_COUNT; i++)
        pos[i] = jet_tdef_find_column(&t->pub, col_names[i]);
    if (pos[C_ID] < 0 || pos[C_PARENT] < 0 || pos[C_NAME] < 0 ||
        pos[C_TYPE] < 0) {
        rc = jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                      "MSysObjects lacks Id/ParentId/Name/Type columns");
        goto out;
    }
    rc = jet_scan_open(&s, db, &t->pub, NULL);
    if (rc != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        raw_obj r = { 0 };
        if (nraw == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            raw_obj *n = jet_realloc(raws, ncap * sizeof *n);
            if (!n) {
                rc = JET_ENOMEM;
                break;
            }
            raws = n;
            cap = ncap;
        }
        if (jet_scan_position(s, &r.pgno, &r.slot) != JET_OK)
            r.pgno = 0;
        if ((rc = get_int(s, pos[C_ID], &r.id)) != JET_OK ||
            (rc = get_int(s, pos[C_PARENT], &r.parent)) != JET_OK ||
            (rc = get_int(s, pos[C_TYPE], &r.type)) != JET_OK ||
            (rc = get_int(s, pos[C_FLAGS], &r.flags)) != JET_OK ||
            (rc = get_text(s, db, pos[C_NAME], &r.name)) != JET_OK ||
            (rc = get_text(s, db, pos[C_DB], &r.database)) != JET_OK ||
            (rc = get_text(s, db, pos[C_FOREIGN], &r.foreign)) != JET_OK ||
            (rc = get_text(s, db, pos[C_CONNECT], &r.connect)) != JET_OK) {
            raw_free(&r);
            break;
        }
        raws[nraw++] = r;
    }
    if (rc != JET_DONE) {
        if (rc == JET_ENOMEM)
            jet_fail(&db->err, rc, MSYS_OBJECTS_PGNO, "out of memory");
        else if (s && jet_scan_error(s)->rc != JET_OK)
            db->err = *jet_scan_error(s);
        else
            jet_fail(&db->err, rc, MSYS_OBJECTS_PGNO,
                     "cannot read MSysObjects");
        goto out;
    }
    rc = JET_OK;
    /* the Tables container: a row named "Tables" under the root */
    for (size_t i = 0; i < nraw; i++)
        if (raws[i].name && strcmp(raws[i].name, "Tables") == 0 &&
            (raws[i].parent & 0x00FFFFFF) == 0 && raws[i].type == 3)
            tables_id = raws[i].id;
    db->objects = jet_calloc(nraw ? nraw : 1, sizeof *db->objects);
    db->tdefs = jet_calloc(nraw ? nraw : 1, sizeof *db->tdefs);
    if (!db->objects || !db->tdefs) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nraw; i++) {
        raw_obj *r = &raws[i];
        jet_object *o = &db->objects[db->nobjects];
        int type = r->type & 0xFFFF;
        if (r->parent != tables_id || !r->name)
            continue;
        switch (type) {
        case 1:
            o->kind = ((uint32_t)r->flags & SYSTEM_FLAGS) ||
                              strncasecmp(r->name, "MSys", 4) == 0
                          ? JET_OBJ_SYSTEM_TABLE
                          : JET_OBJ_TABLE;
            o->tdef_pgno = (uint32_t)r->id & 0x00FFFFFF;
            break;
        case 4:
            o->kind = JET_OBJ_LINKED_ODBC;
            break;
        case 6:
            o->kind = JET_OBJ_LINKED_TABLE;
            break;
        case 5:
            o->kind = JET_OBJ_QUERY;
            break;
        default:
            continue;
        }
        o->id = r->id;
        o->flags = r->flags;
        o->row_pgno = r->pgno;
        o->row_slot = r->slot;
        o->name = r->name;
        r->name = NULL;
        if (o->kind == JET_OBJ_LINKED_ODBC || o->kind == JET_OBJ_LINKED_TABLE) {
            o->linked_db = r->database;
            o->linked_name = r->foreign;
            o->connect = r->connect;
            r->database = r->foreign = r->connect = NULL;
        }
        db->nobjects++;
    }
out:
    for (size_t i = 0; i < nraw; i++)
        raw_free(&raws[i]);
    jet_free(raws);
    jet_scan_close(s);
    if (rc == JET_OK && !db->msys_cols)
        db->msys_cols = t;      /* its columns, for calc_types_at */
    else
        jet_tdef_free(t);
    return rc;
}

size_t jet_catalog_count(const jet_db *db)
{
    return db ? db->nobjects : 0;
}

const jet_object *jet_catalog_at(const jet_db *db, size_t i)
{
    return db && i < db->nobjects ? &db->objects[i] : NULL;
}

const jet_object *jet_catalog_find(const jet_db *db, const char *name)
{
    if (!db || !name)
        return NULL;
    for (size_t i = 0; i < db->nobjects; i++) {
        const jet_object *o = &db->objects[i];
        if (o->kind == JET_OBJ_QUERY)
            continue;
        if (jet_name_equal_ci(o->name, name))
            return o;
    }
    return NULL;
}

/* ------------------------------------------------ calculated result types */

#define PROP_NAME_LIST 0x80

bool jet_prop_name(const jet_db *db, const uint8_t *p, size_t end,
                   size_t *pos, char *buf, size_t cap)
{
    size_t n, out_len = 0;
    if (*pos + 2 > end)
        return false;
    n = jet_get_u16(p + *pos);
    *pos += 2;
    if (n > end - *pos)
        return false;
    if (jet_text_bytes_to_utf8(db, db->fmt->jet3 ? JET_ENC_CODEPAGE
                                                 : JET_ENC_UCS2,
                               p + *pos, n, buf, cap - 1, &out_len) != JET_OK)
        return false;
    buf[out_len < cap - 1 ? out_len : cap - 1] = '\0';
    *pos += n;
    return true;
}

/*
 * Apply "ResultType" (calculated columns) and "Required" (JET_COL_REQUIRED)
 * column properties from a property map blob (MSysObjects
 * LvProp: "MR2\0", then chunks of [4-byte length, 2-byte type]; type 0x80
 * lists property names, others hold [name block] + values of [2-byte len,
 * ddl byte, data type, 2-byte name index, 2-byte size, data]).
 * Format: Jackcess PropertyMaps.
 */
static void apply_result_types(const jet_db *db, jet_tdef_priv *t,
                               const uint8_t *p, size_t len)
{
    enum { MAX_NAMES = 256 };
    size_t name_off[MAX_NAMES], nnames = 0, pos = 4;
    size_t names_start = 0, names_end = 0;

    if (len < 4 || (memcmp(p, "MR2", 4) != 0 && memcmp(p, "KKD", 4) != 0))
        return;
    while (pos + 6 <= len) {
        uint32_t clen = jet_get_u32(p + pos);
        uint16_t type = jet_get_u16(p + pos + 4);
        size_t start = pos + 6, end;
        if (clen < 6 || clen > len - pos)
            return;
        end = pos + clen;
        if (type == PROP_NAME_LIST) {
            size_t q = start;
            names_start = start;
            names_end = end;
            nnames = 0;
            while (q + 2 <= end && nnames < MAX_NAMES) {
                size_t n = jet_get_u16(p + q);
                name_off[nnames++] = q;
                if (n > end - q - 2)
                    return;
                q += 2 + n;
            }
        } else if (start + 4 <= end) {
            char block_name[256] = "";
            uint32_t nlen = jet_get_u32(p + start);
            size_t q = start;
            int colpos = -1;
            if (nlen < 4 || nlen > end - start)
                return;
            if (nlen > 6) {
                size_t nq = start + 4;
                if (!jet_prop_name(db, p, start + nlen, &nq, block_name,
                                    sizeof block_name))
                    return;
            }
            q = start + nlen;
            colpos = jet_tdef_find_column(&t->pub, block_name);
            while (q + 8 <= end) {
                size_t vlen = jet_get_u16(p + q);
                uint16_t nidx = jet_get_u16(p + q + 4);
                size_t dsize = jet_get_u16(p + q + 6);
                if (vlen < 8 || vlen > end - q || dsize > vlen - 8)
                    return;
                if (colpos >= 0 && nidx < nnames && dsize >= 1) {
                    char pname[64];
                    size_t nq = name_off[nidx];
                    bool named = jet_prop_name(db, p, names_end, &nq, pname,
                                                sizeof pname);
                    if (named && strcasecmp(pname, "Required") == 0 &&
                        p[q + 8] != 0)
                        t->cols[colpos].flags |= JET_COL_REQUIRED;
                    if (named && strcmp(pname, "ResultType") == 0 &&
                        (t->cols[colpos].flags & JET_COL_CALCULATED)) {
                        jet_column *col = &t->cols[colpos];
                        col->result_type = (jet_type)p[q + 8];
                        /* a calculated decimal is a DECIMAL(28): each
                         * value carries its own scale */
                        col->precision = col->result_type == JET_T_NUMERIC
                                             ? 28 : 0;
                        col->scale = 0;
                    }
                }
                q += vlen;
            }
        }
        pos = end;
    }
    (void)names_start;
}

/* The LvProp of the MSysObjects row at obj's row_pgno/row_slot, when that
 * row is still obj's (the same Id): 1 applied to t, 0 not there (the
 * caller scans for it), or an error. Reads the MSysObjects columns once
 * per db (db->msys_cols). */
static int calc_types_at(jet_db *db, jet_tdef_priv *t, const jet_object *obj)
{
    jet_scan *s = NULL;
    jet_value v;
    int32_t rid;
    int ret = 0;
    if (!db->msys_cols) {
        jet_rc rc = jet_tdef_read(&db->msys_cols, db, MSYS_OBJECTS_PGNO,
                                  "MSysObjects", &db->err);
        if (rc != JET_OK)
            return rc;
    }
    int id_pos = jet_tdef_find_column(&db->msys_cols->pub, "Id");
    int prop_pos = jet_tdef_find_column(&db->msys_cols->pub, "LvProp");
    if (id_pos < 0 || prop_pos < 0 ||
        jet_scan_open(&s, db, &db->msys_cols->pub, NULL) != JET_OK)
        return 0;
    if (jet_scan_fetch_row(s, obj->row_pgno, obj->row_slot) == JET_OK &&
        get_int(s, id_pos, &rid) == JET_OK && rid == obj->id &&
        jet_scan_value(s, (uint16_t)prop_pos, &v) == JET_OK) {
        if (!v.is_null && v.data)
            apply_result_types(db, t, v.data, v.len);
        ret = 1;
    }
    jet_scan_close(s);
    return ret;
}

jet_rc jet_catalog_calc_types(jet_db *db, jet_tdef_priv *t, int32_t id)
{
    jet_tdef_priv *ms = NULL;
    jet_scan *s = NULL;
    int id_pos, prop_pos;
    jet_rc rc;

    /* where the catalog found the object's row: read there */
    for (size_t i = 0; i < db->nobjects; i++) {
        const jet_object *o = &db->objects[i];
        if (o->id != id || !o->row_pgno)
            continue;
        int r = calc_types_at(db, t, o);
        if (r < 0)
            return (jet_rc)r;
        if (r > 0)
            return JET_OK;
        break;
    }
    rc = jet_tdef_read(&ms, db, MSYS_OBJECTS_PGNO, "MSysObjects", &db->err);
    if (rc != JET_OK)
        return rc;
    id_pos = jet_tdef_find_column(&ms->pub, "Id");
    prop_pos = jet_tdef_find_column(&ms->pub, "LvProp");
    if (id_pos < 0 || prop_pos < 0)
        goto out;
    rc = jet_scan_open(&s, db, &ms->pub, NULL);
    if (rc != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        int32_t rid;
        jet_value v;
        if (get_int(s, id_pos, &rid) != JET_OK || rid != id)
            continue;
        if (jet_scan_value(s, (uint16_t)prop_pos, &v) == JET_OK &&
            !v.is_null && v.data)
            apply_result_types(db, t, v.data, v.len);
        break;
    }
    if (rc < 0)
        db->err = *jet_scan_error(s);
    else
        rc = JET_OK;
out:
    jet_scan_close(s);
    jet_tdef_free(ms);
    return rc;
}
