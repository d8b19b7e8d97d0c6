/*
 * tdef.c - load table definitions (TDEF pages).
 *
 * A TDEF starts on a page of type 0x02; next-page pointers at offset 4 chain
 * continuation pages, whose bytes from offset 8 are appended to the first
 * page to form one buffer. Layout of that buffer (Jet3 / Jet4+ offsets in
 * jet_format): header with row count, column/index counts and the owned /
 * free-space usage map pointers; physical index counts; column descriptors;
 * column names; physical index blocks (10 column slots, usage map, root
 * page, flags); logical index blocks (index number, physical index,
 * FK info, type); logical index names.
 * Format: mdbtools HACKING.md "TDEF"; Jackcess TableImpl, ColumnImpl,
 * IndexData, IndexImpl.
 * Invariant: every read is bounds-checked against the assembled buffer; a
 * TDEF chain visits at most page-count pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"
#include "text.h"

/* on-disk column flag bits (Jackcess ColumnImpl) */
#define DISK_FIXED 0x01
#define DISK_NULLABLE 0x02
#define DISK_AUTONUM 0x04
#define DISK_AUTO_GUID 0x40
#define DISK_HYPERLINK 0x80
#define DISK_EXT_COMPRESSED 0x01
#define DISK_EXT_CALCULATED 0xC0
/* physical index flags (Jackcess IndexData) */
#define IDX_UNIQUE 0x01
#define IDX_IGNORE_NULLS 0x02
#define IDX_REQUIRED 0x08

#define MAX_TDEF_COLS 4096
#define MAX_TDEF_INDEXES 1024

void jet_tdef_free(jet_tdef_priv *t)
{
    if (!t)
        return;
    jet_free(t->cols);
    jet_free(t->fast);
    jet_free(t->indexes);
    jet_pglist_free(&t->owned);
    jet_free(t->lval_umaps);
    jet_free(t->reals);
    jet_free(t->logical);
    jet_table_rules_free(t);
    jet_table_props_free(t);
    jet_rel_free(t);
    jet_complex_free(t);
    jet_free(t->strings);
    jet_free(t);
}

jet_rc jet_name_to_utf8(const jet_db *db, const uint8_t *p, size_t len,
                        char **out)
{
    size_t need = 0;
    jet_text_enc enc = db->fmt->jet3 ? JET_ENC_CODEPAGE : JET_ENC_UCS2;
    jet_rc rc;
    char *s;

    *out = NULL;
    rc = jet_text_bytes_to_utf8(db, enc, p, len, NULL, 0, &need);
    if (rc != JET_OK)
        return rc;
    s = jet_malloc(need + 1);
    if (!s)
        return JET_ENOMEM;
    rc = jet_text_bytes_to_utf8(db, enc, p, len, s, need, &need);
    if (rc != JET_OK) {
        jet_free(s);
        return rc;
    }
    s[need] = '\0';
    *out = s;
    return JET_OK;
}

/* Assemble the TDEF buffer from pgno and its continuation pages. */
static jet_rc load_buffer(jet_db *db, uint32_t pgno, uint8_t **out,
                          size_t *out_len, jet_error *err)
{
    uint32_t ps = db->page_size, npages = jet_pagefile_page_count(db->pf);
    uint32_t next = pgno, hops = 0;
    uint8_t *buf = NULL;
    size_t len = 0;
    jet_rc rc;

    while (next != 0) {
        const uint8_t *page;
        uint8_t *nb;
        size_t add;
        uint32_t cur = next;
        if (++hops > npages) {
            rc = jet_fail(err, JET_ECORRUPT, pgno,
                          "table definition at page %u: continuation loop",
                          pgno);
            goto fail;
        }
        rc = jet_page_pin(db->pf, cur, &page, err);
        if (rc != JET_OK)
            goto fail;
        if (page[0] != 0x02) {
            jet_page_unpin(db->pf, page);
            rc = jet_fail(err, JET_ECORRUPT, cur,
                          "page %u is not a table definition (type 0x%02x)",
                          cur, page[0]);
            goto fail;
        }
        add = len == 0 ? ps : ps - 8;
        nb = jet_realloc(buf, len + add);
        if (!nb) {
            jet_page_unpin(db->pf, page);
            rc = jet_fail(err, JET_ENOMEM, cur, "out of memory");
            goto fail;
        }
        buf = nb;
        memcpy(buf + len, len == 0 ? page : page + 8, add);
        len += add;
        next = jet_get_u32(page + db->fmt->tdef_next_pgno);
        jet_page_unpin(db->pf, page);
    }
    *out = buf;
    *out_len = len;
    return JET_OK;
fail:
    jet_free(buf);
    return rc;
}

typedef struct cursor {
    const uint8_t *p;
    size_t len, pos;
    bool bad;
} cursor;

static const uint8_t *take(cursor *c, size_t n)
{
    const uint8_t *r;
    if (c->bad || !jet_span_ok(c->len, c->pos, n)) {
        c->bad = true;
        return NULL;
    }
    r = c->p + c->pos;
    c->pos += n;
    return r;
}

static uint32_t take_u32(cursor *c)
{
    const uint8_t *p = take(c, 4);
    return p ? jet_get_u32(p) : 0;
}

static uint16_t take_u16(cursor *c)
{
    const uint8_t *p = take(c, 2);
    return p ? jet_get_u16(p) : 0;
}

static uint8_t take_u8(cursor *c)
{
    const uint8_t *p = take(c, 1);
    return p ? p[0] : 0;
}

/*
 * The long-value columns' usage maps that follow the index names (Jet4/ACE):
 * entries of 2-byte column number, owned-pages and free-space map pointers,
 * ended by column number 0xFFFF or the end of the definition. A tail that
 * is cut short is ignored (the column then has no maps of its own), as
 * Jackcess does. Format: Jackcess TableImpl.readColumnUsageMaps.
 */
static jet_rc read_lval_umaps(jet_tdef_priv *t, cursor c, uint32_t pgno,
                              jet_error *err)
{
    size_t n = 0, cap = 0;
    while (!c.bad && c.pos + 2 <= c.len) {
        uint16_t cn = take_u16(&c);
        uint32_t owned, free_ptr;
        if (cn == 0xFFFF)
            break;
        owned = take_u32(&c);
        free_ptr = take_u32(&c);
        if (c.bad || n >= MAX_TDEF_COLS)
            break;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            jet_lval_umap *m = jet_realloc(t->lval_umaps, ncap * sizeof *m);
            if (!m)
                return jet_fail(err, JET_ENOMEM, pgno, "out of memory");
            t->lval_umaps = m;
            cap = ncap;
        }
        t->lval_umaps[n++] = (jet_lval_umap){ cn, owned, free_ptr };
    }
    t->nlval_umaps = (uint16_t)n;
    return JET_OK;
}

/* Names go into one growing string block; offsets fixed up at the end. */
typedef struct strblock {
    char *data;
    size_t len, cap;
} strblock;

static jet_rc add_string(strblock *sb, const char *s, size_t *off)
{
    size_t n = strlen(s) + 1;
    if (sb->len + n > sb->cap) {
        size_t ncap = (sb->cap + n) * 2;
        char *nd = jet_realloc(sb->data, ncap);
        if (!nd)
            return JET_ENOMEM;
        sb->data = nd;
        sb->cap = ncap;
    }
    memcpy(sb->data + sb->len, s, n);
    *off = sb->len;
    sb->len += n;
    return JET_OK;
}

/* Read one length-prefixed name at the cursor into the string block. */
static jet_rc read_name(jet_db *db, cursor *c, strblock *sb, size_t *off,
                        uint32_t pgno, jet_error *err)
{
    size_t n = db->fmt->name_len_size == 1 ? take_u8(c) : take_u16(c);
    const uint8_t *p = take(c, n);
    char *s;
    jet_rc rc;
    if (!p)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "table definition at page %u: name overruns it",
                        pgno);
    rc = jet_name_to_utf8(db, p, n, &s);
    if (rc != JET_OK)
        return jet_fail(err, rc, pgno,
                        "table definition at page %u: bad name", pgno);
    rc = add_string(sb, s, off);
    jet_free(s);
    if (rc != JET_OK)
        return jet_fail(err, rc, pgno, "out of memory");
    return JET_OK;
}

static int cmp_col(const void *a, const void *b)
{
    const jet_column *x = a, *y = b;
    return (int)x->col_num - (int)y->col_num;
}

static uint16_t map_flags(uint8_t disk, uint8_t ext, jet_type type)
{
    uint16_t f = 0;
    if (disk & DISK_FIXED)
        f |= JET_COL_FIXED;
    if (disk & DISK_NULLABLE)
        f |= JET_COL_NULLABLE;
    if (disk & DISK_AUTONUM)
        f |= JET_COL_AUTONUMBER;
    if (disk & DISK_AUTO_GUID)
        f |= JET_COL_AUTO_GUID;
    if ((disk & DISK_HYPERLINK) && type == JET_T_MEMO)
        f |= JET_COL_HYPERLINK;
    if (ext & DISK_EXT_COMPRESSED)
        f |= JET_COL_COMPRESSED;
    if (ext & DISK_EXT_CALCULATED)
        f |= JET_COL_CALCULATED;
    return f;
}

/* The path jet_scan_value takes for column c (see jet_col_path): stored
 * fixed scalars and variable-area TEXT skip jet_value_decode; calculated
 * columns (whose result type is set later, from the catalog) and every
 * other type take it. */
static jet_col_fast col_fast_path(const jet_format *f, const jet_column *c)
{
    jet_col_fast k = { JET_CP_GENERAL, 0, 0 };
    if ((c->flags & JET_COL_CALCULATED) || c->type != c->result_type)
        return k;
    unsigned w;
    switch (c->type) {
    case JET_T_LONG: w = 4; break;
    case JET_T_INT: w = 2; break;
    case JET_T_BYTE: w = 1; break;
    case JET_T_DOUBLE: case JET_T_DATETIME: case JET_T_MONEY:
    case JET_T_BIGINT: w = 8; break;
    case JET_T_TEXT:
        if (!(c->flags & JET_COL_FIXED))
            k.path = JET_CP_VAR_TEXT;
        return k;
    default:
        return k;
    }
    size_t off = f->row_count_size + (size_t)c->fixed_offset;
    if (!(c->flags & JET_COL_FIXED) || off > UINT16_MAX)
        return k;
    k.path = JET_CP_FIXED;
    k.width = (uint8_t)w;
    k.off = (uint16_t)off;
    return k;
}

jet_rc jet_tdef_decode(jet_tdef_priv **out, jet_db *db, const uint8_t *buf,
                       size_t len, uint32_t pgno, const char *name,
                       jet_error *err)
{
    const jet_format *f = db->fmt;
    jet_tdef_priv *t = NULL;
    strblock sb = { 0 };
    size_t *col_name_off = NULL, *idx_name_off = NULL, name_off = 0;
    uint16_t ncols;
    uint32_t nidx, nreal = 0, owned_ptr;
    /* physical index facts, indexed by real index number (kept in t
     * for the encoder); rncols: used column slots of each */
    jet_tdef_real_idx *reals = NULL;
    uint8_t *rncols = NULL;
    cursor c;
    jet_rc rc;

    *out = NULL;
    if (len < (size_t)f->tdef_idx_def_block) {
        rc = jet_fail(err, JET_ECORRUPT, pgno,
                      "table definition at page %u too short", pgno);
        goto out;
    }
    t = jet_calloc(1, sizeof *t);
    if (!t) {
        rc = jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        goto out;
    }
    t->owner = db;
    t->pub.pgno = pgno;
    t->pub.row_count = jet_get_u32(buf + f->tdef_nrows);
    t->max_cols = jet_get_u16(buf + f->tdef_max_cols);
    t->num_var_cols = jet_get_u16(buf + f->tdef_num_var_cols);
    ncols = jet_get_u16(buf + f->tdef_num_cols);
    nidx = jet_get_u32(buf + f->tdef_num_idx);
    nreal = jet_get_u32(buf + f->tdef_num_real_idx);
    owned_ptr = jet_get_u32(buf + f->tdef_owned_pages);
    if (ncols > MAX_TDEF_COLS || nidx > MAX_TDEF_INDEXES ||
        nreal > MAX_TDEF_INDEXES) {
        rc = jet_fail(err, JET_ECORRUPT, pgno,
                      "table definition at page %u: implausible counts "
                      "(%u columns, %u indexes, %u physical)", pgno, ncols,
                      nidx, nreal);
        goto out;
    }
    rc = add_string(&sb, name ? name : "", &name_off);
    if (rc != JET_OK) {
        rc = jet_fail(err, rc, pgno, "out of memory");
        goto out;
    }

    /* column descriptors */
    t->cols = jet_calloc(ncols ? ncols : 1, sizeof *t->cols);
    col_name_off = jet_calloc(ncols ? ncols : 1, sizeof *col_name_off);
    reals = jet_calloc(nreal ? nreal : 1, sizeof *reals);
    rncols = jet_calloc(nreal ? nreal : 1, 1);
    t->logical = jet_calloc(nidx ? nidx : 1, sizeof *t->logical);
    t->indexes = jet_calloc(nidx ? nidx : 1, sizeof *t->indexes);
    idx_name_off = jet_calloc(nidx ? nidx : 1, sizeof *idx_name_off);
    if (!t->cols || !col_name_off || !reals || !rncols || !t->logical ||
        !t->indexes || !idx_name_off) {
        rc = jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        goto out;
    }
    t->table_type = buf[f->tdef_table_type];
    t->owned_ptr = owned_ptr;
    t->free_ptr = jet_get_u32(buf + f->tdef_free_pages);
    c = (cursor){ buf, len, f->tdef_idx_def_block, false };
    for (uint32_t i = 0; i < nreal; i++) {
        /* row-count block: 4 unknown bytes, the count, (Jet4) 4 more */
        const uint8_t *d = take(&c, f->real_idx_def_size);
        if (d)
            reals[i].row_count = jet_get_u32(d + 4);
    }
    for (uint16_t i = 0; i < ncols; i++) {
        const uint8_t *d = take(&c, f->col_size);
        jet_column *col = &t->cols[i];
        uint8_t ext;
        if (!d)
            break;
        col->type = (jet_type)d[f->col_type];
        col->col_num = jet_get_u16(d + f->col_num);
        col->var_index = jet_get_u16(d + f->col_var_index);
        col->fixed_offset = jet_get_u16(d + f->col_fixed_offset);
        col->length = jet_get_u16(d + f->col_length);
        ext = f->col_ext_flags >= 0 ? d[f->col_ext_flags] : 0;
        col->flags = map_flags(d[f->col_flags], ext, col->type);
        if (col->type == JET_T_NUMERIC) {
            col->precision = d[f->col_precision];
            col->scale = d[f->col_scale];
        }
        if (col->type == JET_T_TEXT || col->type == JET_T_MEMO) {
            /* sort order: Jet3 LCID at 9; Jet4+ LCID at 11, version at
             * 14 (Jackcess JetFormat OFFSET_COLUMN_SORT_ORDER) */
            col->sort_lcid = jet_get_u16(d + (f->jet3 ? 9 : 11));
            col->sort_version = f->jet3 ? 0 : d[14];
        }
        col->result_type = col->type;
    }
    for (uint16_t i = 0; i < ncols && !c.bad; i++) {
        rc = read_name(db, &c, &sb, &col_name_off[i], pgno, err);
        if (rc != JET_OK)
            goto out;
    }
    /* physical indexes */
    for (uint32_t i = 0; i < nreal && !c.bad; i++) {
        jet_tdef_real_idx *r = &reals[i];
        take(&c, f->real_idx_skip);
        for (int k = 0; k < 10; k++) {
            uint16_t cn = take_u16(&c);
            uint8_t cf = take_u8(&c);
            r->col_num[k] = 0xFFFF;
            if (cn != 0xFFFF) {
                r->col_num[rncols[i]] = cn;
                r->col_flags[rncols[i]] = cf;
                rncols[i]++;
            }
        }
        r->umap_ptr = take_u32(&c);   /* index usage map */
        r->first_pgno = take_u32(&c);
        take(&c, f->real_idx_skip_flags);
        r->flags = take_u8(&c);
        take(&c, f->real_idx_col_block - f->real_idx_skip - 30 - 8 -
                     f->real_idx_skip_flags - 1);
    }
    /* logical indexes */
    for (uint32_t i = 0; i < nidx && !c.bad; i++) {
        jet_index *ix = &t->indexes[i];
        jet_tdef_logical_idx *lg = &t->logical[i];
        uint32_t real;
        uint8_t type;
        take(&c, f->logical_idx_skip);
        lg->index_num = take_u32(&c);
        lg->real = real = take_u32(&c);
        lg->rel_table_type = take_u8(&c);
        lg->rel_index_num = take_u32(&c);
        lg->rel_tdef_pgno = take_u32(&c);
        lg->cascade_updates = take_u8(&c);
        lg->cascade_deletes = take_u8(&c);
        lg->type = type = take_u8(&c);
        take(&c, f->logical_idx_block - f->logical_idx_skip - 20);
        if (c.bad)
            break;
        if (real >= nreal) {
            rc = jet_fail(err, JET_ECORRUPT, pgno,
                          "table definition at page %u: index %u refers to "
                          "physical index %u of %u", pgno, i, real, nreal);
            goto out;
        }
        ix->primary_key = type == 1;
        ix->foreign_key = type == 2;
        ix->unique = (reals[real].flags & IDX_UNIQUE) != 0;
        ix->ignore_nulls = (reals[real].flags & IDX_IGNORE_NULLS) != 0;
        ix->required = (reals[real].flags & IDX_REQUIRED) != 0;
        ix->first_pgno = reals[real].first_pgno;
        /* column numbers for now; positions after sorting below */
        ix->ncols = rncols[real];
        for (int k = 0; k < rncols[real]; k++) {
            ix->cols[k].col = reals[real].col_num[k];
            ix->cols[k].ascending = (reals[real].col_flags[k] & 0x01) != 0;
        }
    }
    for (uint32_t i = 0; i < nidx && !c.bad; i++) {
        rc = read_name(db, &c, &sb, &idx_name_off[i], pgno, err);
        if (rc != JET_OK)
            goto out;
    }
    if (c.bad) {
        rc = jet_fail(err, JET_ECORRUPT, pgno,
                      "table definition at page %u is truncated "
                      "(%zu bytes)", pgno, len);
        goto out;
    }
    if (!f->jet3) {
        rc = read_lval_umaps(t, c, pgno, err);
        if (rc != JET_OK)
            goto out;
    }

    /* fix up names, sort columns by number, map index columns */
    t->strings = sb.data;
    sb.data = NULL;
    t->pub.name = t->strings + name_off;
    {
        /* carry name offsets through the sort via the name pointer */
        for (uint16_t i = 0; i < ncols; i++)
            t->cols[i].name = t->strings + col_name_off[i];
        qsort(t->cols, ncols, sizeof *t->cols, cmp_col);
        for (uint16_t i = 1; i < ncols; i++)
            if (t->cols[i].col_num == t->cols[i - 1].col_num) {
                rc = jet_fail(err, JET_ECORRUPT, pgno,
                              "table definition at page %u: duplicate "
                              "column number %u", pgno, t->cols[i].col_num);
                goto out;
            }
    }
    for (uint32_t i = 0; i < nidx; i++) {
        jet_index *ix = &t->indexes[i];
        ix->name = t->strings + idx_name_off[i];
        t->logical[i].name = ix->name;
        for (int k = 0; k < ix->ncols; k++) {
            uint16_t want = ix->cols[k].col, pos = UINT16_MAX;
            for (uint16_t j = 0; j < ncols; j++)
                if (t->cols[j].col_num == want)
                    pos = j;
            if (pos == UINT16_MAX) {
                rc = jet_fail(err, JET_ECORRUPT, pgno,
                              "table definition at page %u: index column "
                              "%u does not exist", pgno, want);
                goto out;
            }
            ix->cols[k].col = pos;
        }
    }
    t->fast = jet_calloc(ncols ? ncols : 1, sizeof *t->fast);
    if (!t->fast) {
        rc = jet_fail(err, JET_ENOMEM, pgno, "out of memory");
        goto out;
    }
    for (uint16_t i = 0; i < ncols; i++)
        t->fast[i] = col_fast_path(f, &t->cols[i]);
    t->pub.ncols = ncols;
    t->pub.cols = t->cols;
    t->pub.nindexes = (uint16_t)nidx;
    t->pub.indexes = t->indexes;

    rc = JET_OK;
out:
    jet_free(sb.data);
    jet_free(col_name_off);
    jet_free(idx_name_off);
    jet_free(rncols);
    if (rc == JET_OK) {
        t->reals = reals;
        t->nreals = nreal;
        reals = NULL;
    }
    jet_free(reals);
    if (rc != JET_OK) {
        jet_tdef_free(t);
        t = NULL;
    }
    *out = t;
    return rc;
}

jet_rc jet_tdef_read(jet_tdef_priv **out, jet_db *db, uint32_t pgno,
                     const char *name, jet_error *err)
{
    const jet_format *f = db->fmt;
    jet_tdef_priv *t = NULL;
    uint8_t *buf = NULL;
    size_t len = 0;
    jet_rc rc;

    *out = NULL;
    rc = load_buffer(db, pgno, &buf, &len, err);
    if (rc != JET_OK)
        return rc;
    rc = jet_tdef_decode(&t, db, buf, len, pgno, name, err);
    jet_free(buf);
    if (rc != JET_OK)
        return rc;
    rc = jet_usagemap_read(&t->owned, db, t->owned_ptr, err);
    if (rc != JET_OK) {
        jet_tdef_free(t);
        return rc;
    }
    /* every row takes a 2-byte entry of a data page's row table: a count
     * the owned pages cannot hold is damage (a crash, a bad write) */
    t->pub.row_count_fits =
        t->pub.row_count <= (uint64_t)t->owned.count *
                                ((f->page_size - f->data_row_table) / 2);
    *out = t;
    return JET_OK;
}

/* Say which table a failed load was for: "table 'X': <detail>". */
static jet_rc name_table(jet_error *err, jet_rc rc, const char *name)
{
    char msg[sizeof err->msg + 96];
    snprintf(msg, sizeof msg, "table '%.80s': %.255s", name, err->msg);
    memcpy(err->msg, msg, sizeof err->msg - 1);
    err->msg[sizeof err->msg - 1] = '\0';
    return rc;
}

jet_rc jet_tdef_load(const jet_tdef **out, jet_db *db, const jet_object *obj)
{
    size_t i;
    jet_rc rc;

    *out = NULL;
    if (!obj)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO, "no object");
    i = (size_t)(obj - db->objects);
    if (i >= db->nobjects)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "object is not from this database");
    if (obj->kind == JET_OBJ_LINKED_TABLE || obj->kind == JET_OBJ_LINKED_ODBC)
        return jet_link_tdef_load(out, db, obj);
    if (obj->kind != JET_OBJ_TABLE && obj->kind != JET_OBJ_SYSTEM_TABLE)
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "%s is a %s, not a local table", obj->name,
                        obj->kind == JET_OBJ_QUERY ? "query" : "linked table");
    if (!db->tdefs[i]) {
        jet_tdef_priv *t;
        bool calc = false;
        rc = jet_tdef_read(&t, db, obj->tdef_pgno, obj->name, &db->err);
        if (rc != JET_OK)
            return name_table(&db->err, rc, obj->name);
        for (uint16_t c = 0; c < t->pub.ncols; c++)
            calc = calc || (t->cols[c].flags & JET_COL_CALCULATED);
        /* column properties: calculated result types (needed to read the
         * rows) and Required (metadata only: a table without calculated
         * columns still loads when the properties cannot be read) */
        rc = jet_catalog_calc_types(db, t, obj->id);
        if (rc != JET_OK && calc) {
            jet_tdef_free(t);
            return name_table(&db->err, rc, obj->name);
        }
        db->tdefs[i] = t;
    }
    *out = &db->tdefs[i]->pub;
    return JET_OK;
}

jet_rc jet_tdef_reload_owned(jet_db *db, jet_tdef_priv *t, jet_error *err)
{
    const jet_format *f = db->fmt;
    const uint8_t *pg;
    jet_pglist l = { 0 };
    uint32_t ptr;
    jet_rc rc = jet_page_pin(db->pf, t->pub.pgno, &pg, err);
    if (rc != JET_OK)
        return rc;
    ptr = jet_get_u32(pg + f->tdef_owned_pages);
    jet_page_unpin(db->pf, pg);
    rc = jet_usagemap_read(&l, db, ptr, err);
    if (rc != JET_OK)
        return rc;
    jet_pglist_free(&t->owned);
    t->owned = l;
    return JET_OK;
}

int jet_tdef_find_column(const jet_tdef *tdef, const char *name)
{
    if (!tdef || !name)
        return -1;
    for (uint16_t i = 0; i < tdef->ncols; i++)
        if (jet_name_equal_ci(tdef->cols[i].name, name))
            return i;
    return -1;
}
