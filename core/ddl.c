/*
 * ddl.c - schema changes inside a write transaction (ddl.h): the schema
 * version and state, names, new tables, catalog rows; changes of existing
 * tables (indexes, columns, drops) are ddlalter.c's.
 *
 * A new table (Jackcess TableCreator / TableImpl.writeTableDefinition):
 *   - its TDEF page is allocated first, then a data page (owner 0) of
 *     usage map rows: row 0 the owned-pages map (a reference map with no
 *     map page yet), row 1 the free-space map (inline, empty), one inline
 *     map per physical index naming its root page, two per MEMO/OLE
 *     column (owned and free-space, inline, empty); then an empty leaf
 *     page per physical index (its root), then TDEF continuation pages;
 *   - the TDEF (tdefenc.c): columns numbered in order, fixed columns at
 *     offsets in column order, variable columns indexed TEXT/BINARY
 *     first then MEMO/OLE (Jackcess ColumnImpl.writeDefinitions), text
 *     in the sort order of MSysObjects' Name (the database's);
 *   - its MSysObjects row: Id = the TDEF page, ParentId = the Tables
 *     container, Type 1, Flags 0, DateCreate = DateUpdate = now (local),
 *     Owner = MSysDb's owner (Jackcess getNewObjectOwner), LvProp = the
 *     columns' Required and DefaultValue properties (Jackcess
 *     PropertyMaps: "MR2\0", the name list, a block per column).
 * Every page goes through the pager (journal, savepoints), so a refused
 * or rolled-back change leaves the file as it was. After each change the
 * catalog is read again: objects and tdefs of tables the change did not
 * jet_ddl_touch carry over; the arrays and tdefs replaced are kept ("retired")
 * until jet_db_close, so pointers handed out stay readable; the schema
 * version moves.
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "ddl.h"
#include "ddl_int.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "os.h"
#include "pagealloc.h"
#include "write.h"

#define TYPE_TABLE 1
#define TABLE_TYPE_USER 0x4E
/* property map block types (Jackcess PropertyMaps) */
#define PROP_NAME_LIST 0x80
#define PROP_COLUMN_BLOCK 0x01

static jet_rc aces_add(jet_db *db, int32_t parent, int32_t id);

/* ------------------------------------------------------------- the state */

typedef struct retired_cat {
    jet_object *objects;
    size_t nobjects;
    jet_tdef_priv **tdefs;      /* entries not carried over */
    struct jet_query_set *queries;
} retired_cat;

typedef struct jet_ddl_state {
    uint64_t version;
    bool dirty;                 /* the open transaction changed the schema */
    jet_pglist touched;         /* TDEF pages it changed */
    retired_cat *retired;
    size_t nretired, capretired;
} jet_ddl_state;

static jet_ddl_state *state(jet_db *db)
{
    if (!db->ddl)
        db->ddl = jet_calloc(1, sizeof *db->ddl);
    return db->ddl;
}

uint64_t jet_db_schema_version(const jet_db *db)
{
    return db && db->ddl ? db->ddl->version : 0;
}

static void free_objects(jet_object *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jet_free((char *)o[i].name);
        jet_free((char *)o[i].linked_db);
        jet_free((char *)o[i].linked_name);
        jet_free((char *)o[i].connect);
    }
    jet_free(o);
}

void jet_ddl_free(jet_db *db)
{
    jet_ddl_state *s = db->ddl;
    if (!s)
        return;
    for (size_t i = 0; i < s->nretired; i++) {
        retired_cat *r = &s->retired[i];
        for (size_t k = 0; r->tdefs && k < r->nobjects; k++)
            jet_tdef_free(r->tdefs[k]);
        jet_free(r->tdefs);
        free_objects(r->objects, r->nobjects);
        if (r->queries) {
            struct jet_query_set *keep = db->queries;
            db->queries = r->queries;
            jet_query_free_all(db);
            db->queries = keep;
        }
    }
    jet_free(s->retired);
    jet_pglist_free(&s->touched);
    jet_free(s);
    db->ddl = NULL;
}

static bool touched(const jet_ddl_state *s, uint32_t pgno)
{
    for (size_t i = 0; i < s->touched.count; i++)
        if (s->touched.pgnos[i] == pgno)
            return true;
    return false;
}

jet_rc jet_ddl_touch(jet_db *db, uint32_t pgno)
{
    jet_ddl_state *s = state(db);
    if (!s)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    s->dirty = true;
    if (touched(s, pgno))
        return JET_OK;
    if (s->touched.count % 16 == 0) {
        uint32_t *n = jet_realloc(s->touched.pgnos,
                                  (s->touched.count + 16) * sizeof *n);
        if (!n)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        s->touched.pgnos = n;
    }
    s->touched.pgnos[s->touched.count++] = pgno;
    return JET_OK;
}

/*
 * Read the catalog again (through the pager: the transaction's pages).
 * Tdefs of tables whose TDEF this transaction did not change carry over;
 * the old arrays are retired. On failure the old catalog stays.
 */
jet_rc jet_ddl_catalog_reload(jet_db *db)
{
    jet_ddl_state *s = state(db);
    jet_object *old = db->objects;
    jet_tdef_priv **old_t = db->tdefs;
    size_t old_n = db->nobjects;
    struct jet_query_set *old_q = db->queries;
    jet_rc rc;

    if (!s)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if (s->nretired == s->capretired) {
        size_t nc = s->capretired ? s->capretired * 2 : 8;
        retired_cat *n = jet_realloc(s->retired, nc * sizeof *n);
        if (!n)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        s->retired = n;
        s->capretired = nc;
    }
    db->objects = NULL;
    db->tdefs = NULL;
    db->nobjects = 0;
    db->queries = NULL;
    rc = jet_catalog_load(db);
    if (rc != JET_OK) {
        jet_catalog_free(db);
        db->objects = old;
        db->tdefs = old_t;
        db->nobjects = old_n;
        db->queries = old_q;
        return rc;
    }
    for (size_t i = 0; i < db->nobjects; i++) {
        const jet_object *o = &db->objects[i];
        if (!o->tdef_pgno || touched(s, o->tdef_pgno))
            continue;
        for (size_t j = 0; j < old_n; j++)
            if (old_t && old_t[j] && old[j].tdef_pgno == o->tdef_pgno &&
                old[j].kind == o->kind) {
                db->tdefs[i] = old_t[j];
                old_t[j] = NULL;
                /* what they cached about other tables may be stale */
                jet_rel_free(db->tdefs[i]);
                jet_table_rules_free(db->tdefs[i]);
                break;
            }
    }
    s->retired[s->nretired++] = (retired_cat){ old, old_n, old_t, old_q };
    s->version++;
    return JET_OK;
}

void jet_ddl_after_rollback(jet_db *db)
{
    if (!db->ddl || !db->ddl->dirty)
        return;
    if (jet_ddl_catalog_reload(db) != JET_OK)
        db->ddl->version++;     /* stale plans still plan again */
}

void jet_ddl_end(jet_db *db)
{
    if (!db->ddl)
        return;
    db->ddl->dirty = false;
    db->ddl->touched.count = 0;
}

/* ----------------------------------------------------------------- names */

/* Access's rules for a name (ddl.h); what = "table", "column", "index". */
jet_rc jet_ddl_check_name(jet_db *db, const char *name, const char *what)
{
    uint16_t u[NAME_MAX_UNITS + 4];
    size_t n = 0;
    jet_rc rc;
    if (!name || !*name)
        return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                        "a %s name cannot be empty", what);
    rc = jet_utf8_to_utf16(name, u, NAME_MAX_UNITS + 4, &n);
    if (rc == JET_ECORRUPT)
        return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                        "the %s name is not valid UTF-8", what);
    if (n > NAME_MAX_UNITS)
        return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                        "the %s name '%.80s' is longer than %d characters",
                        what, name, NAME_MAX_UNITS);
    if (u[0] == ' ')
        return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                        "the %s name '%.80s' begins with a space", what,
                        name);
    for (size_t i = 0; i < n; i++)
        if (u[i] < 0x20 || u[i] == '.' || u[i] == '!' || u[i] == '`' ||
            u[i] == '[' || u[i] == ']')
            return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                            "the %s name '%.80s' contains a character "
                            "Access does not allow in names (. ! ` [ ] or "
                            "a control character)", what, name);
    return JET_OK;
}

/* ---------------------------------------------------------- small pieces */

jet_rc jet_ddl_need_write(jet_db *db)
{
    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                        "Access 97 files are read-only");
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_db_write_begin)");
    return JET_OK;
}

bool jet_ddl_is_ace(const jet_db *db)
{
    return db->version != JET_VER_3 && db->version != JET_VER_4;
}

/* Days since 1899-12-30 of a local date and time (DATETIME). */
static double ts_days(const jet_timestamp *t)
{
    int y = t->year, m = t->month, d = t->day;
    /* days from civil (H. Hinnant), relative to 1970-01-01 */
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (unsigned)(m + (m > 2 ? -3 : 9)) + 2) / 5 +
                   (unsigned)d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long days = (long)era * 146097 + (long)doe - 719468;
    return (double)(days + 25569) +
           (t->hour * 3600.0 + t->minute * 60.0 + t->second) / 86400.0;
}

/* Catalog facts of MSysObjects a new object needs: the Tables container's
 * Id and the owner of MSysDb (Jackcess getNewObjectOwner). */
typedef struct cat_facts {
    int32_t tables_id;
    int32_t rels_id;            /* the Relationships container, 0 none */
    uint8_t owner[64];
    size_t owner_len;
} cat_facts;

static jet_rc read_cat_facts(jet_db *db, const jet_tdef *ms, cat_facts *cf)
{
    int c_id = jet_tdef_find_column(ms, "Id");
    int c_parent = jet_tdef_find_column(ms, "ParentId");
    int c_name = jet_tdef_find_column(ms, "Name");
    int c_type = jet_tdef_find_column(ms, "Type");
    int c_owner = jet_tdef_find_column(ms, "Owner");
    jet_scan *s = NULL;
    jet_rc rc;

    memset(cf, 0, sizeof *cf);
    cf->tables_id = 0x0F000001;
    cf->owner[0] = 0xA6;        /* Jackcess SYS_DEFAULT_SID */
    cf->owner[1] = 0x33;
    cf->owner_len = 2;
    if (c_id < 0 || c_parent < 0 || c_name < 0 || c_type < 0)
        return jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                        "MSysObjects lacks Id/ParentId/Name/Type columns");
    rc = jet_scan_open(&s, db, ms, NULL);
    if (rc != JET_OK)
        return rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value id, par, nm, ty;
        char name[16];
        size_t nlen = 0;
        if ((rc = jet_scan_value(s, (uint16_t)c_id, &id)) != JET_OK ||
            (rc = jet_scan_value(s, (uint16_t)c_parent, &par)) != JET_OK ||
            (rc = jet_scan_value(s, (uint16_t)c_type, &ty)) != JET_OK ||
            (rc = jet_scan_value(s, (uint16_t)c_name, &nm)) != JET_OK)
            break;
        if (nm.is_null || jet_text_to_utf8(db, &nm, name, sizeof name - 1,
                                           &nlen) != JET_OK ||
            nlen >= sizeof name)
            continue;
        name[nlen] = '\0';
        if (strcmp(name, "Tables") == 0 && !par.is_null &&
            (par.u.i & 0x00FFFFFF) == 0 && !ty.is_null && ty.u.i == 3)
            cf->tables_id = (int32_t)id.u.i;
        if (strcmp(name, "Relationships") == 0 && !par.is_null &&
            (par.u.i & 0x00FFFFFF) == 0 && !ty.is_null && ty.u.i == 3)
            cf->rels_id = (int32_t)id.u.i;
        if (strcmp(name, "MSysDb") == 0 && c_owner >= 0) {
            jet_value ow;
            if ((rc = jet_scan_value(s, (uint16_t)c_owner, &ow)) != JET_OK)
                break;
            if (!ow.is_null && ow.len > 0 && ow.len <= sizeof cf->owner) {
                memcpy(cf->owner, ow.data, ow.len);
                cf->owner_len = ow.len;
            }
        }
    }
    return jet_scan_finish(db, s, rc);
}

/* The catalog's MSysObjects tdef (loaded once, kept in db->tdefs so its
 * live state follows rollbacks). */
jet_rc jet_ddl_msys_objects(jet_db *db, const jet_tdef **out)
{
    const jet_object *o = jet_catalog_find(db, "MSysObjects");
    if (!o || o->kind != JET_OBJ_SYSTEM_TABLE ||
        o->tdef_pgno != MSYS_OBJECTS_PGNO)
        return jet_fail(&db->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                        "the catalog lists no MSysObjects");
    return jet_tdef_load(out, db, o);
}

/* ------------------------------------------------------- property maps */

typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} bytes;

static uint8_t *bput(bytes *b, size_t n)
{
    if (b->oom)
        return NULL;
    if (b->len + n > b->cap) {
        size_t nc = (b->len + n) * 2 + 64;
        uint8_t *p = jet_realloc(b->p, nc);
        if (!p) {
            b->oom = true;
            return NULL;
        }
        b->p = p;
        b->cap = nc;
    }
    uint8_t *r = b->p + b->len;
    memset(r, 0, n);
    b->len += n;
    return r;
}

static void bput16(bytes *b, uint32_t v)
{
    uint8_t *p = bput(b, 2);
    if (p)
        jet_put_u16(p, (uint16_t)v);
}

/* A property map name or text value: 2-byte byte length (when len_prefix)
 * then UTF-16LE. */
static void bput_text(bytes *b, const char *s, bool len_prefix)
{
    size_t n = 0;
    (void)jet_utf8_to_utf16(s, NULL, 0, &n);
    uint16_t *u = jet_malloc((n + 1) * sizeof *u);
    if (!u) {
        b->oom = true;
        return;
    }
    (void)jet_utf8_to_utf16(s, u, n + 1, &n);
    if (len_prefix)
        bput16(b, (uint32_t)(2 * n));
    for (size_t i = 0; i < n; i++)
        bput16(b, u[i]);
    jet_free(u);
}

/*
 * The LvProp of a new table: its columns' Required (BOOL, True) and
 * DefaultValue (MEMO) properties. *out NULL (and len 0) when no column
 * has one. Format: Jackcess PropertyMaps.Handler.write.
 */
jet_rc jet_ddl_build_lvprop(jet_db *db, const jet_coldef *cols,
                           unsigned ncols, uint8_t **out, size_t *len)
{
    static const char *const names[2] = { "Required", "DefaultValue" };
    bytes b = { 0 };
    bool any = false;
    size_t at;

    *out = NULL;
    *len = 0;
    for (unsigned i = 0; i < ncols; i++)
        any = any || cols[i].required || cols[i].default_value;
    if (!any)
        return JET_OK;
    {
        uint8_t *m = bput(&b, 4);
        if (m)
            memcpy(m, "MR2", 4);
    }
    at = b.len;
    bput(&b, 4);
    bput16(&b, PROP_NAME_LIST);
    for (int k = 0; k < 2; k++)
        bput_text(&b, names[k], true);
    if (!b.oom)
        jet_put_u32(b.p + at, (uint32_t)(b.len - at));
    for (unsigned i = 0; i < ncols; i++) {
        if (!cols[i].required && !cols[i].default_value)
            continue;
        size_t blk = b.len, nm;
        bput(&b, 4);
        bput16(&b, PROP_COLUMN_BLOCK);
        nm = b.len;
        bput(&b, 4);
        bput_text(&b, cols[i].name, true);
        if (!b.oom)
            jet_put_u32(b.p + nm, (uint32_t)(b.len - nm));
        if (cols[i].required) {
            size_t v = b.len;
            uint8_t *p = bput(&b, 8);
            if (p) {
                p[2] = 0;               /* not a DDL property */
                p[3] = JET_T_BOOL;
                jet_put_u16(p + 4, 0);
                jet_put_u16(p + 6, 1);
            }
            p = bput(&b, 1);
            if (p)
                p[0] = 0xFF;
            if (!b.oom)
                jet_put_u16(b.p + v, (uint16_t)(b.len - v));
        }
        if (cols[i].default_value) {
            size_t v = b.len, d;
            uint8_t *p = bput(&b, 8);
            if (p) {
                p[3] = JET_T_MEMO;
                jet_put_u16(p + 4, 1);
            }
            d = b.len;
            bput_text(&b, cols[i].default_value, false);
            if (!b.oom) {
                jet_put_u16(b.p + v + 6, (uint16_t)(b.len - d));
                jet_put_u16(b.p + v, (uint16_t)(b.len - v));
            }
        }
        if (!b.oom)
            jet_put_u32(b.p + blk, (uint32_t)(b.len - blk));
    }
    if (b.oom) {
        jet_free(b.p);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    *out = b.p;
    *len = b.len;
    return JET_OK;
}

/* ---------------------------------------------------------- column layout */

bool jet_ddl_is_long(jet_type t)
{
    return t == JET_T_MEMO || t == JET_T_OLE;
}

static bool is_var(jet_type t)
{
    return t == JET_T_TEXT || t == JET_T_BINARY || jet_ddl_is_long(t);
}

static unsigned fixed_len(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: case JET_T_BYTE: return 1;
    case JET_T_INT: return 2;
    case JET_T_LONG: case JET_T_FLOAT: return 4;
    case JET_T_MONEY: case JET_T_DOUBLE: case JET_T_DATETIME:
    case JET_T_BIGINT: return 8;
    case JET_T_GUID: return 16;
    case JET_T_NUMERIC: return 17;
    default: return 0;
    }
}

static const char *type_name(jet_type t)
{
    switch (t) {
    case JET_T_COMPLEX: return "attachment/multi-value";
    case JET_T_EXT_DATETIME: return "Date/Time Extended";
    case JET_T_BIGINT: return "Large Number";
    default: return "this";
    }
}

void jet_ddl_sort_order(jet_db *db, uint16_t *lcid, uint8_t *sver)
{
    const jet_tdef *ms;
    *lcid = 0x0409;
    *sver = db->version >= JET_VER_ACE14 ? 1 : 0;
    if (jet_ddl_msys_objects(db, &ms) == JET_OK) {
        int c = jet_tdef_find_column(ms, "Name");
        if (c >= 0 && ms->cols[c].sort_lcid) {
            *lcid = ms->cols[c].sort_lcid;
            *sver = ms->cols[c].sort_version;
        }
    }
}

uint16_t jet_ddl_fixed_end(const jet_tdef_priv *t)
{
    uint16_t end = 0;
    for (uint16_t i = 0; i < t->pub.ncols; i++) {
        const jet_column *c = &t->cols[i];
        if ((c->flags & JET_COL_FIXED) && c->type != JET_T_BOOL) {
            size_t e = (size_t)c->fixed_offset + jet_fixed_size(c);
            if (e > end)
                end = (uint16_t)e;
        }
    }
    return end;
}

/*
 * Check column definitions and lay them out as jet_columns (numbered
 * first_num.., var indexes from first_var; fixed offsets from
 * first_fixed) into out. Sort order of text: lcid/version.
 */
jet_rc jet_ddl_layout_columns(jet_db *db, const jet_coldef *defs, unsigned n,
                             jet_column *out, uint16_t first_num,
                             uint16_t first_var, uint16_t first_fixed,
                             uint16_t lcid, uint8_t sver, uint16_t *nvar,
                             uint16_t *fixed_end)
{
    uint16_t fixed = first_fixed, var = first_var;
    for (unsigned i = 0; i < n; i++) {
        const jet_coldef *d = &defs[i];
        jet_column *c = &out[i];
        jet_rc rc = jet_ddl_check_name(db, d->name, "column");
        if (rc != JET_OK)
            return rc;
        switch (d->type) {
        case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
        case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
        case JET_T_DATETIME: case JET_T_BINARY: case JET_T_TEXT:
        case JET_T_OLE: case JET_T_MEMO: case JET_T_GUID:
        case JET_T_NUMERIC:
            break;
        case JET_T_BIGINT:
            if (db->version >= JET_VER_ACE16)
                break;
            return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "column '%s': Large Number (BIGINT) columns "
                            "need an Access 2016 (ACE 16) file or later",
                            d->name);
        default:
            return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "column '%s': %s column type is not created "
                            "(type %d)", d->name, type_name(d->type),
                            (int)d->type);
        }
        for (unsigned j = 0; j < i; j++)
            if (jet_name_equal_ci(defs[j].name, d->name))
                return jet_fail(&db->err, JET_EDUPLICATE, JET_NO_PGNO,
                                "column '%s' is named twice", d->name);
        if (d->autonumber && d->type != JET_T_LONG && d->type != JET_T_GUID)
            return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                            "column '%s': an AutoNumber is a Long Integer "
                            "or a Replication ID", d->name);
        if (d->autonumber && d->type == JET_T_LONG && d->increment < 0)
            return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "column '%s': an AutoNumber that counts down "
                            "(a negative increment) is not created",
                            d->name);
        if (d->autonumber && d->type == JET_T_LONG &&
            (int64_t)d->seed - (d->increment ? d->increment : 1) <
                INT32_MIN)
            return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                            "column '%s': COUNTER(%ld, %ld): the seed is "
                            "out of range", d->name, (long)d->seed,
                            (long)d->increment);
        for (unsigned j = 0; j < i; j++)
            if (d->autonumber && d->type == JET_T_LONG &&
                defs[j].autonumber && defs[j].type == JET_T_LONG)
                return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                                "column '%s': a table has only one "
                                "AutoNumber field", d->name);
        memset(c, 0, sizeof *c);
        c->name = d->name;
        c->type = d->type;
        c->result_type = d->type;
        c->col_num = (uint16_t)(first_num + i);
        c->flags = JET_COL_NULLABLE;
        if (d->required)
            c->flags |= JET_COL_REQUIRED;
        if (d->autonumber)
            c->flags |= d->type == JET_T_LONG ? JET_COL_AUTONUMBER
                                              : JET_COL_AUTO_GUID;
        if ((d->type == JET_T_TEXT || d->type == JET_T_MEMO) &&
            d->compressed && !(d->type == JET_T_TEXT && d->fixed))
            c->flags |= JET_COL_COMPRESSED;
        if (d->type == JET_T_TEXT || d->type == JET_T_MEMO) {
            c->sort_lcid = lcid;
            c->sort_version = sver;
        }
        if (d->type == JET_T_TEXT || d->type == JET_T_BINARY) {
            unsigned sz = d->size ? d->size : 255;
            if (sz > 255)
                return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                                "column '%s': a %s column holds at most "
                                "255 %s", d->name,
                                d->type == JET_T_TEXT ? "Text" : "Binary",
                                d->type == JET_T_TEXT ? "characters"
                                                      : "bytes");
            c->length = (uint16_t)(d->type == JET_T_TEXT ? 2 * sz : sz);
        } else if (d->type == JET_T_NUMERIC) {
            unsigned p = d->precision ? d->precision : 18;
            if (p > 28 || d->scale > p)
                return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                                "column '%s': DECIMAL(%u,%u): precision "
                                "1..28 and a scale up to it", d->name, p,
                                d->scale);
            c->precision = (uint8_t)p;
            c->scale = d->scale;
        }
        if (d->type == JET_T_TEXT && d->fixed) {
            /* fixed-length text: its size in the fixed area */
            c->flags |= JET_COL_FIXED;
            c->fixed_offset = fixed;
            fixed = (uint16_t)(fixed + c->length);
        } else if (!is_var(d->type)) {
            c->flags |= JET_COL_FIXED;
            c->fixed_offset = fixed;
            if (d->type != JET_T_BOOL)
                fixed = (uint16_t)(fixed + fixed_len(d->type));
            c->length = (uint16_t)fixed_len(d->type);
        }
    }
    /* variable columns: TEXT/BINARY first, then MEMO/OLE (Jackcess) */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < n; i++)
            if (!(out[i].flags & JET_COL_FIXED) &&
                jet_ddl_is_long(out[i].type) == (pass == 1))
                out[i].var_index = var++;
    *nvar = var;
    *fixed_end = fixed;
    return JET_OK;
}

/* -------------------------------------------------------- pages and maps */

/* Append a usage map row (UMAP_ROW_LEN bytes) to the map page pg
 * (pgno); *ptr = its pointer. */
jet_rc jet_ddl_umap_row_add(jet_db *db, uint8_t *pg, uint32_t pgno,
                           const uint8_t *row, uint32_t *ptr)
{
    uint16_t rowno;
    jet_rc rc = jet_data_page_insert(pg, db->fmt, row, UMAP_ROW_LEN, 0,
                                     &rowno);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, pgno, "usage map page %u is full",
                        pgno);
    *ptr = pgno << 8 | rowno;
    return JET_OK;
}

/* An inline usage map row holding page first (0 = empty). */
void jet_ddl_umap_inline(uint8_t row[UMAP_ROW_LEN], uint32_t first)
{
    memset(row, 0, UMAP_ROW_LEN);
    row[0] = 0;
    if (first) {
        jet_put_u32(row + 1, first);
        row[5] = 0x01;
    }
}

/* Write the TDEF buffer buf (len bytes) at pgno: its pages are pages[0..]
 * (pages[0] = pgno), already allocated. */
jet_rc jet_ddl_write_tdef_pages(jet_db *db, const uint8_t *buf, size_t len,
                               const uint32_t *pages, size_t npages)
{
    for (size_t k = 0; k < npages; k++) {
        uint8_t *pg;
        jet_rc rc = jet_page_write(db->pf, pages[k], &pg, &db->err);
        if (rc != JET_OK)
            return rc;
        jet_tdef_page_fill(pg, db->fmt, buf, len, k,
                           k + 1 < npages ? pages[k + 1] : 0);
        jet_page_unpin(db->pf, pg);
    }
    return JET_OK;
}

/* A new empty index root (leaf) page of table tdef_pgno. */
jet_rc jet_ddl_new_root(jet_db *db, uint32_t tdef_pgno, uint32_t *pgno)
{
    uint8_t *pg;
    size_t used;
    jet_rc rc = jet_db_page_new(db, pgno, &pg);
    if (rc != JET_OK)
        return rc;
    rc = jet_index_page_build(pg, db->fmt, true, tdef_pgno, 0, 0, 0, NULL,
                              0, &used);
    jet_page_unpin(db->pf, pg);
    return rc;
}

/* -------------------------------------------------------------- indexes */

/* Check index definition d of a table of ncols columns (names
 * colnames); its name (given or made) into name (cap bytes). */
jet_rc jet_ddl_check_index(jet_db *db, const jet_idxdef *d,
                          const jet_column *cols, unsigned ncols,
                          char *name, size_t cap)
{
    if (d->ncols < 1 || d->ncols > JET_MAX_INDEX_COLS)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                        "an index has 1 to %d columns (%u given)",
                        JET_MAX_INDEX_COLS, d->ncols);
    for (unsigned k = 0; k < d->ncols; k++) {
        if (d->col[k] >= ncols)
            return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                            "index column %u of %u columns", d->col[k],
                            ncols);
        jet_type t = cols[d->col[k]].type;
        if (t == JET_T_OLE || t == JET_T_MEMO)
            return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                            "column '%s': Memo and OLE Object columns "
                            "cannot be indexed here",
                            cols[d->col[k]].name);
        for (unsigned j = 0; j < k; j++)
            if (d->col[j] == d->col[k])
                return jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                                "column '%s' is in the index twice",
                                cols[d->col[k]].name);
    }
    if (d->name) {
        jet_rc rc = jet_ddl_check_name(db, d->name, "index");
        if (rc != JET_OK)
            return rc;
        snprintf(name, cap, "%s", d->name);
    } else if (d->primary) {
        snprintf(name, cap, "PrimaryKey");
    } else {
        size_t at = 0;
        name[0] = '\0';
        for (unsigned k = 0; k < d->ncols && at + 1 < cap; k++)
            at += (size_t)snprintf(name + at, cap - at, "%s",
                                   cols[d->col[k]].name);
    }
    return JET_OK;
}

static uint8_t index_flags(const jet_idxdef *d)
{
    uint8_t f = 0;
    if (d->primary || d->unique)
        f |= IDX_UNIQUE;
    if (d->ignore_null)
        f |= IDX_IGNORE_NULLS;
    if (d->primary || d->disallow_null)
        f |= IDX_REQUIRED;
    return f;
}

void jet_ddl_real_of(jet_tdef_real_idx *r, const jet_idxdef *d,
                    const jet_column *cols)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < 10; k++)
        r->col_num[k] = 0xFFFF;
    for (unsigned k = 0; k < d->ncols; k++) {
        r->col_num[k] = cols[d->col[k]].col_num;
        r->col_flags[k] = d->desc[k] ? 0x00 : 0x01;
    }
    r->flags = index_flags(d);
}

bool jet_ddl_same_real(const jet_tdef_real_idx *a, const jet_tdef_real_idx *b)
{
    return memcmp(a->col_num, b->col_num, sizeof a->col_num) == 0 &&
           memcmp(a->col_flags, b->col_flags, sizeof a->col_flags) == 0 &&
           a->flags == b->flags;
}

/* ---------------------------------------------------------- create table */

jet_rc jet_ddl_container_id(jet_db *db, const char *name, int32_t *out)
{
    const jet_tdef *ms;
    cat_facts cf;
    jet_rc rc;
    *out = 0;
    if ((rc = jet_ddl_msys_objects(db, &ms)) != JET_OK ||
        (rc = read_cat_facts(db, ms, &cf)) != JET_OK)
        return rc;
    *out = strcmp(name, "Tables") == 0 ? cf.tables_id
         : strcmp(name, "Relationships") == 0 ? cf.rels_id : 0;
    return JET_OK;
}

/* Insert the MSysObjects row of a new object (Jackcess
 * addToSystemCatalog) and its MSysACEs rows (addToAccessControlEntries). */
jet_rc jet_ddl_object_row_add(jet_db *db, const char *name, int32_t id,
                              int type, int32_t parent,
                              const jet_coldef *cols, unsigned ncols)
{
    const jet_tdef *ms;
    cat_facts cf;
    jet_value *vals = NULL;
    uint8_t *prop = NULL;
    size_t prop_len = 0;
    uint16_t *uname = NULL;
    size_t nunits = 0;
    jet_timestamp now;
    double days;
    jet_rc rc;

    if ((rc = jet_ddl_msys_objects(db, &ms)) != JET_OK ||
        (rc = read_cat_facts(db, ms, &cf)) != JET_OK ||
        (rc = jet_ddl_build_lvprop(db, cols, ncols, &prop, &prop_len)) != JET_OK)
        return rc;
    if (!parent)
        parent = cf.tables_id;
    (void)jet_utf8_to_utf16(name, NULL, 0, &nunits);
    uname = jet_malloc((nunits + 1) * sizeof *uname);
    vals = jet_calloc(ms->ncols, sizeof *vals);
    if (!uname || !vals) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    (void)jet_utf8_to_utf16(name, uname, nunits + 1, &nunits);
    jet_os_local_time(&now);
    days = ts_days(&now);
    for (uint16_t i = 0; i < ms->ncols; i++) {
        const jet_column *c = &ms->cols[i];
        jet_value *v = &vals[i];
        v->type = c->type;
        v->is_null = true;
        if (strcmp(c->name, "Id") == 0) {
            v->u.i = id;
        } else if (strcmp(c->name, "ParentId") == 0) {
            v->u.i = parent;
        } else if (strcmp(c->name, "Name") == 0) {
            v->enc = JET_ENC_UCS2;
            v->data = (const uint8_t *)uname;
            v->len = 2 * nunits;
        } else if (strcmp(c->name, "Type") == 0) {
            v->u.i = type;
        } else if (strcmp(c->name, "DateCreate") == 0 ||
                   strcmp(c->name, "DateUpdate") == 0) {
            v->u.d = days;
        } else if (strcmp(c->name, "Flags") == 0) {
            v->u.i = 0;
        } else if (strcmp(c->name, "Owner") == 0) {
            v->data = cf.owner;
            v->len = cf.owner_len;
        } else if (strcmp(c->name, "LvProp") == 0 && prop) {
            v->data = prop;
            v->len = prop_len;
        } else {
            continue;
        }
        v->is_null = false;
    }
    rc = jet_table_rules_grant((jet_tdef_priv *)ms);
    if (rc == JET_OK)
        rc = jet_table_insert(db, ms, vals, NULL);
    else
        rc = jet_fail(&db->err, rc, JET_NO_PGNO, "out of memory");
    jet_table_rules_free((jet_tdef_priv *)ms);
    if (rc == JET_OK)
        rc = aces_add(db, parent, id);
out:
    jet_free(vals);
    jet_free(uname);
    jet_free(prop);
    return rc;
}

static bool name_taken(jet_db *db, const char *name)
{
    return jet_catalog_find(db, name) || jet_catalog_find_query(db, name);
}

jet_rc jet_db_create_table(jet_db *db, const char *name,
                           const jet_coldef *cols, unsigned ncols,
                           const jet_idxdef *idx, unsigned nidx,
                           const jet_fkdef *fks, unsigned nfk)
{
    jet_column *jc = NULL;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL;
    jet_lval_umap *lval = NULL;
    char (*inames)[3 * NAME_MAX_UNITS + 8] = NULL;
    uint8_t *buf = NULL, *upg = NULL;
    uint32_t tdef_pgno = 0, umap_pgno = 0, *pages = NULL;
    uint16_t nvar = 0, fixed_end = 0, nlval = 0;
    uint32_t nreal = 0;
    const jet_tdef *ms;
    jet_tdef_spec spec;
    size_t len = 0, npages;
    bool have_pk = false;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = jet_ddl_check_name(db, name, "table")) != JET_OK)
        return rc;
    if (name_taken(db, name))
        return jet_fail(&db->err, JET_EDUPLICATE, JET_NO_PGNO,
                        "Table '%s' already exists.", name);
    if (ncols < 1 || ncols > JET_MAX_COLUMNS)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                        "a table has 1 to %d columns (%u given)",
                        JET_MAX_COLUMNS, ncols);
    if (nidx > JET_MAX_INDEXES)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                        "a table has at most %d indexes (%u given)",
                        JET_MAX_INDEXES, nidx);
    if (nfk > JET_MAX_INDEXES || (nfk && !fks))
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                        "a table has at most %d relationships here (%u "
                        "given)", JET_MAX_INDEXES, nfk);
    for (unsigned i = 0; i < nfk; i++)
        if ((rc = jet_ddl_fk_precheck(db, name, cols, ncols, &fks[i])) !=
            JET_OK)
            return rc;
    if ((rc = jet_ddl_msys_objects(db, &ms)) != JET_OK)
        return rc;
    /* text in the database's sort order: MSysObjects' Name column's */
    uint16_t lcid;
    uint8_t sver;
    jet_ddl_sort_order(db, &lcid, &sver);
    jc = jet_calloc(ncols, sizeof *jc);
    reals = jet_calloc(nidx ? nidx : 1, sizeof *reals);
    logical = jet_calloc(nidx ? nidx : 1, sizeof *logical);
    lval = jet_calloc(ncols, sizeof *lval);
    inames = jet_calloc(nidx ? nidx : 1, sizeof *inames);
    upg = jet_malloc(db->page_size);
    if (!jc || !reals || !logical || !lval || !inames || !upg) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    rc = jet_ddl_layout_columns(db, cols, ncols, jc, 0, 0, 0, lcid, sver, &nvar,
                        &fixed_end);
    if (rc != JET_OK)
        goto out;
    /* the fixed area and the row's trailer must fit a row */
    if ((size_t)fixed_end + 2 + (ncols + 7) / 8 + 2 * (size_t)nvar + 4 >
        JET_MAX_ROW_LEN) {
        rc = jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                      "the record is too large: its fixed-size columns take "
                      "%u bytes of a row of at most %d", fixed_end,
                      JET_MAX_ROW_LEN);
        goto out;
    }
    for (unsigned i = 0; i < nidx; i++) {
        jet_tdef_real_idx r;
        rc = jet_ddl_check_index(db, &idx[i], jc, ncols, inames[i],
                         sizeof inames[i]);
        if (rc != JET_OK)
            goto out;
        if (idx[i].primary && have_pk) {
            rc = jet_fail(&db->err, JET_ECONSTRAINT, JET_NO_PGNO,
                          "Multiple primary keys are not allowed.");
            goto out;
        }
        have_pk = have_pk || idx[i].primary;
        for (unsigned j = 0; j < i; j++)
            if (jet_name_equal_ci(inames[j], inames[i])) {
                rc = jet_fail(&db->err, JET_EDUPLICATE, JET_NO_PGNO,
                              "Index '%s' already exists.", inames[i]);
                goto out;
            }
        jet_ddl_real_of(&r, &idx[i], jc);
        uint32_t k = 0;
        while (k < nreal && !jet_ddl_same_real(&reals[k], &r))
            k++;
        if (k == nreal)
            reals[nreal++] = r;
        logical[i] = (jet_tdef_logical_idx){
            .name = inames[i], .index_num = i, .real = k,
            .rel_index_num = 0xFFFFFFFFu,
            .type = idx[i].primary ? 1 : 0 };
    }
    /* a primary key's columns are Required (Access) */
    for (unsigned i = 0; i < nidx; i++)
        if (idx[i].primary)
            for (unsigned k = 0; k < idx[i].ncols; k++)
                jc[idx[i].col[k]].flags |= JET_COL_REQUIRED;

    /* pages: the TDEF, the usage map page, index roots */
    {
        uint8_t *pg;
        if ((rc = jet_db_page_new(db, &tdef_pgno, &pg)) != JET_OK)
            goto out;
        pg[0] = 0x02;           /* claimed: written below */
        pg[1] = 0x01;
        jet_page_unpin(db->pf, pg);
        if ((rc = jet_db_page_new(db, &umap_pgno, &pg)) != JET_OK)
            goto out;
        jet_data_page_init(pg, db->fmt, 0, false);   /* claimed */
        jet_page_unpin(db->pf, pg);
    }
    jet_data_page_init(upg, db->fmt, 0, false);
    {
        uint8_t row[UMAP_ROW_LEN];
        uint32_t owned_ptr, free_ptr;
        memset(row, 0, sizeof row);
        row[0] = 1;             /* reference map, no map page yet */
        if ((rc = jet_ddl_umap_row_add(db, upg, umap_pgno, row, &owned_ptr)) !=
            JET_OK)
            goto out;
        jet_ddl_umap_inline(row, 0);
        if ((rc = jet_ddl_umap_row_add(db, upg, umap_pgno, row, &free_ptr)) !=
            JET_OK)
            goto out;
        for (uint32_t k = 0; k < nreal; k++) {
            if ((rc = jet_ddl_new_root(db, tdef_pgno, &reals[k].first_pgno)) !=
                JET_OK)
                goto out;
            jet_ddl_umap_inline(row, reals[k].first_pgno);
            if ((rc = jet_ddl_umap_row_add(db, upg, umap_pgno, row,
                                   &reals[k].umap_ptr)) != JET_OK)
                goto out;
        }
        for (unsigned i = 0; i < ncols; i++) {
            if (!jet_ddl_is_long(jc[i].type))
                continue;
            jet_ddl_umap_inline(row, 0);
            lval[nlval].col_num = jc[i].col_num;
            if ((rc = jet_ddl_umap_row_add(db, upg, umap_pgno, row,
                                   &lval[nlval].owned_ptr)) != JET_OK ||
                (rc = jet_ddl_umap_row_add(db, upg, umap_pgno, row,
                                   &lval[nlval].free_ptr)) != JET_OK)
                goto out;
            nlval++;
        }
        memset(&spec, 0, sizeof spec);
        spec.ace = jet_ddl_is_ace(db);
        spec.table_type = TABLE_TYPE_USER;
        spec.max_cols = (uint16_t)ncols;
        /* the first AutoNumber handed out is the seed (the TDEF keeps
         * the last one handed out, and the increment that the next one
         * adds to it) */
        for (unsigned i = 0; i < ncols; i++)
            if (cols[i].autonumber && cols[i].type == JET_T_LONG) {
                int32_t inc = cols[i].increment > 0 ? cols[i].increment : 1;
                int32_t seed = cols[i].seed || cols[i].increment
                                   ? cols[i].seed : 1;
                spec.auto_inc = (uint32_t)inc;
                if (seed != 1 || inc != 1)
                    spec.auto_last = (uint32_t)(int32_t)(
                        (int64_t)seed - inc);
            }
        spec.num_var_cols = nvar;
        spec.ncols = (uint16_t)ncols;
        spec.cols = jc;
        spec.nreal = nreal;
        spec.reals = reals;
        spec.nlogical = nidx;
        spec.logical = logical;
        spec.owned_ptr = owned_ptr;
        spec.free_ptr = free_ptr;
        spec.nlval = nlval;
        spec.lval = lval;
    }
    {
        uint8_t *pg;
        if ((rc = jet_page_write(db->pf, umap_pgno, &pg, &db->err)) !=
            JET_OK)
            goto out;
        memcpy(pg, upg, db->page_size);
        jet_page_unpin(db->pf, pg);
    }
    (void)jet_tdef_encode(NULL, 0, &len, db->fmt, &spec, NULL);
    buf = jet_malloc(len ? len : 1);
    if (!buf) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((rc = jet_tdef_encode(buf, len, &len, db->fmt, &spec, &db->err)) !=
        JET_OK)
        goto out;
    npages = jet_tdef_page_count(db->fmt, len);
    pages = jet_calloc(npages, sizeof *pages);
    if (!pages) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    pages[0] = tdef_pgno;
    for (size_t k = 1; k < npages; k++) {
        uint8_t *pg;
        if ((rc = jet_db_page_new(db, &pages[k], &pg)) != JET_OK)
            goto out;
        jet_page_unpin(db->pf, pg);
    }
    if ((rc = jet_ddl_write_tdef_pages(db, buf, len, pages, npages)) != JET_OK)
        goto out;
    if ((rc = jet_ddl_object_row_add(db, name, (int32_t)tdef_pgno, TYPE_TABLE,
                                     0, cols, ncols)) != JET_OK)
        goto out;
    if ((rc = jet_ddl_touch(db, tdef_pgno)) != JET_OK ||
        (rc = jet_ddl_touch(db, MSYS_OBJECTS_PGNO)) != JET_OK)
        goto out;
    rc = jet_ddl_catalog_reload(db);
    /* its relationships, on the table as made (ddlrel.c) */
    for (unsigned i = 0; i < nfk && rc == JET_OK; i++)
        rc = jet_db_add_foreign_key(db, name, &fks[i]);
out:
    jet_free(jc);
    jet_free(reals);
    jet_free(logical);
    jet_free(lval);
    jet_free(inames);
    jet_free(upg);
    jet_free(buf);
    jet_free(pages);
    return rc;
}

/* --------------------------------------------------- system table rows */

jet_rc jet_ddl_find_rows(jet_db *db, const char *sys, const char *col,
                        int32_t id, const char *text, const jet_tdef **out,
                        rowids *r)
{
    const jet_object *o = jet_catalog_find(db, sys);
    const jet_tdef *t;
    jet_scan *s = NULL;
    int c;
    jet_rc rc;

    *out = NULL;
    r->ids = NULL;
    r->n = 0;
    if (!o || o->kind != JET_OBJ_SYSTEM_TABLE)
        return JET_OK;
    if ((rc = jet_tdef_load(&t, db, o)) != JET_OK)
        return rc;
    *out = t;
    if ((c = jet_tdef_find_column(t, col)) < 0)
        return JET_OK;
    if ((rc = jet_scan_open(&s, db, t, NULL)) != JET_OK)
        return rc;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v;
        bool hit = false;
        if ((rc = jet_scan_value(s, (uint16_t)c, &v)) != JET_OK)
            break;
        if (v.is_null)
            continue;
        if (text) {
            char buf[256];
            size_t len = 0;
            if (jet_text_to_utf8(db, &v, buf, sizeof buf - 1, &len) ==
                    JET_OK && len < sizeof buf) {
                buf[len] = '\0';
                hit = jet_name_equal_ci(buf, text);
            }
        } else {
            hit = v.u.i == id;
        }
        if (!hit)
            continue;
        if (r->n % 16 == 0) {
            jet_rowid *n = jet_realloc(r->ids, (r->n + 16) * sizeof *n);
            if (!n) {
                rc = JET_ENOMEM;
                break;
            }
            r->ids = n;
        }
        uint32_t pgno;
        uint16_t row;
        if ((rc = jet_scan_position(s, &pgno, &row)) != JET_OK)
            break;
        r->ids[r->n++] = (jet_rowid){ pgno, row };
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc == JET_ENOMEM)
        jet_fail(&db->err, rc, JET_NO_PGNO, "out of memory");
    else if (jet_scan_error(s)->rc != JET_OK)
        db->err = *jet_scan_error(s);
    jet_scan_close(s);
    if (rc != JET_OK) {
        jet_free(r->ids);
        r->ids = NULL;
        r->n = 0;
    }
    return rc;
}

/* Access's full rights (Jackcess SYS_FULL_ACCESS_ACM) */
#define ACM_FULL 1048575

/*
 * The access control entries of new object id: one MSysACEs row per SID
 * its parent container has, with full rights, not inheritable (Jackcess
 * addToAccessControlEntries). A file without MSysACEs: nothing.
 */
static jet_rc aces_add(jet_db *db, int32_t parent, int32_t id)
{
    const jet_tdef *at = NULL;
    rowids r = { 0 };
    jet_scan *s = NULL;
    uint8_t (*sids)[128] = NULL;
    size_t *lens = NULL, n = 0;
    int c_obj, c_sid, c_acm, c_inh;
    jet_rc rc = jet_ddl_find_rows(db, "MSysACEs", "ObjectId", parent, NULL, &at,
                          &r);
    if (rc != JET_OK || !at || !r.n)
        goto out;
    c_obj = jet_tdef_find_column(at, "ObjectId");
    c_sid = jet_tdef_find_column(at, "SID");
    c_acm = jet_tdef_find_column(at, "ACM");
    c_inh = jet_tdef_find_column(at, "FInheritable");
    if (c_obj < 0 || c_sid < 0 || c_acm < 0 || c_inh < 0)
        goto out;
    sids = jet_calloc(r.n, sizeof *sids);
    lens = jet_calloc(r.n, sizeof *lens);
    if (!sids || !lens) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((rc = jet_scan_open(&s, db, at, NULL)) != JET_OK)
        goto out;
    for (size_t i = 0; i < r.n && rc == JET_OK; i++) {
        jet_value v;
        rc = jet_scan_fetch_row(s, r.ids[i].pgno, r.ids[i].row);
        if (rc == JET_OK)
            rc = jet_scan_value(s, (uint16_t)c_sid, &v);
        if (rc == JET_OK && !v.is_null && v.len <= sizeof sids[0]) {
            memcpy(sids[n], v.data, v.len);
            lens[n++] = v.len;
        }
    }
    jet_scan_close(s);
    if (rc != JET_OK)
        goto out;
    if (jet_table_rules_grant((jet_tdef_priv *)(uintptr_t)at) != JET_OK) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n && rc == JET_OK; i++) {
        jet_value vals[JET_MAX_COLUMNS];
        for (uint16_t c = 0; c < at->ncols && c < JET_MAX_COLUMNS; c++) {
            memset(&vals[c], 0, sizeof vals[c]);
            vals[c].type = at->cols[c].type;
            vals[c].is_null = true;
        }
        vals[c_obj].is_null = false;
        vals[c_obj].u.i = id;
        vals[c_sid].is_null = false;
        vals[c_sid].data = sids[i];
        vals[c_sid].len = lens[i];
        vals[c_acm].is_null = false;
        vals[c_acm].u.i = ACM_FULL;
        vals[c_inh].is_null = false;
        vals[c_inh].u.b = false;
        rc = jet_table_insert(db, at, vals, NULL);
    }
    jet_table_rules_free((jet_tdef_priv *)(uintptr_t)at);
out:
    jet_free(r.ids);
    jet_free(sids);
    jet_free(lens);
    return rc;
}

/* Delete rows r of system table t (the core's own upkeep). */
jet_rc jet_ddl_delete_rows(jet_db *db, const jet_tdef *t, const rowids *r)
{
    jet_rc rc = JET_OK;
    if (!t || !r->n)
        return JET_OK;
    if (jet_table_rules_grant((jet_tdef_priv *)(uintptr_t)t) != JET_OK)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (size_t i = 0; rc == JET_OK && i < r->n; i++)
        rc = jet_table_delete(db, t, r->ids[i]);
    jet_table_rules_free((jet_tdef_priv *)(uintptr_t)t);
    return rc;
}

