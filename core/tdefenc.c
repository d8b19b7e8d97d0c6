/*
 * tdefenc.c - table definitions (TDEF pages) encoded: the inverse of
 * tdef.c's reader, for the schema changes (ddl.c) and the new-file writer.
 *
 * One buffer holds the whole definition (tdef.c's layout, Jet4/ACE
 * offsets of jet_format): the 63-byte header, a 12-byte row-count block
 * per physical index, 25-byte column descriptors, the column names, the
 * 52-byte physical index blocks, the 28-byte logical index blocks, the
 * logical index names, the long-value columns' usage maps and 0xFFFF.
 * Pages: the first holds the buffer's first page_size bytes (its header
 * is the page's), each continuation page an 8-byte page header and
 * page_size - 8 more bytes.
 * Format: Jackcess TableImpl.writeTableDefinition(Header/Buffer),
 * ColumnImpl.writeDefinition/getColumnBitFlags, IndexData.writeDefinition,
 * IndexImpl.writeDefinition; mdbtools HACKING.md "TDEF". The unknown
 * fields hold what Access and Jackcess write there (the magic numbers
 * 1625 and 1923, the AutoNumber byte 1, zeros).
 */
#include <string.h>

#include "bytes.h"
#include "encode.h"

#define TDEF_MAGIC 1625u
#define INDEX_MAGIC 1923u
/* column descriptor flag bytes (Jackcess ColumnImpl) */
#define DISK_FIXED 0x01
#define DISK_NULLABLE 0x02
#define DISK_AUTONUM 0x04
#define DISK_UPDATABLE 0x10
#define DISK_AUTO_GUID 0x40
#define DISK_HYPERLINK 0x80
#define DISK_EXT_COMPRESSED 0x01
#define DISK_EXT_CALCULATED 0xC0
/* longest name: 64 characters (Access), at most 128 UTF-16 units */
#define NAME_UNITS_MAX 128

jet_rc jet_utf8_to_utf16(const char *s, uint16_t *out, size_t cap,
                         size_t *n)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t k = 0;
    bool bad = false;

    while (*p) {
        uint32_t cp;
        int more;
        if (*p < 0x80) {
            cp = *p;
            more = 0;
        } else if ((*p & 0xE0) == 0xC0) {
            cp = *p & 0x1F;
            more = 1;
        } else if ((*p & 0xF0) == 0xE0) {
            cp = *p & 0x0F;
            more = 2;
        } else if ((*p & 0xF8) == 0xF0) {
            cp = *p & 0x07;
            more = 3;
        } else {
            bad = true;
            break;
        }
        p++;
        for (int i = 0; i < more; i++, p++) {
            if ((*p & 0xC0) != 0x80) {
                bad = true;
                break;
            }
            cp = cp << 6 | (*p & 0x3F);
        }
        if (bad)
            break;
        if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) ||
            (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF)) {
            bad = true;
            break;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            if (k + 2 <= cap) {
                out[k] = (uint16_t)(0xD800 | cp >> 10);
                out[k + 1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
            }
            k += 2;
        } else {
            if (k < cap)
                out[k] = (uint16_t)cp;
            k++;
        }
    }
    *n = k;
    if (bad)
        return JET_ECORRUPT;
    return k > cap ? JET_ELIMIT : JET_OK;
}

uint8_t jet_col_disk_flags(uint16_t flags, bool ace)
{
    uint8_t d = ace ? DISK_UPDATABLE : 0;
    if (flags & JET_COL_FIXED)
        d |= DISK_FIXED;
    if (flags & JET_COL_NULLABLE)
        d |= DISK_NULLABLE;
    if (flags & JET_COL_AUTONUMBER)
        d |= DISK_AUTONUM;
    if (flags & JET_COL_AUTO_GUID)
        d |= DISK_AUTO_GUID;
    if (flags & JET_COL_HYPERLINK)
        d |= DISK_HYPERLINK;
    return d;
}

uint8_t jet_col_disk_ext_flags(uint16_t flags)
{
    if (flags & JET_COL_CALCULATED)
        return DISK_EXT_CALCULATED;
    return (flags & JET_COL_COMPRESSED) ? DISK_EXT_COMPRESSED : 0;
}

/* A bounded writer: past cap it only counts. */
typedef struct wbuf {
    uint8_t *p;
    size_t cap, len;
    jet_rc rc;
} wbuf;

static uint8_t *wtake(wbuf *w, size_t n)
{
    uint8_t *r = NULL;
    if (w->p && w->len + n <= w->cap) {
        r = w->p + w->len;
        memset(r, 0, n);
    }
    w->len += n;
    return r;
}

static void w8(wbuf *w, uint32_t v)
{
    uint8_t *p = wtake(w, 1);
    if (p)
        p[0] = (uint8_t)v;
}

static void w16(wbuf *w, uint32_t v)
{
    uint8_t *p = wtake(w, 2);
    if (p)
        jet_put_u16(p, (uint16_t)v);
}

static void w32(wbuf *w, uint32_t v)
{
    uint8_t *p = wtake(w, 4);
    if (p)
        jet_put_u32(p, v);
}

static void wname(wbuf *w, const char *name)
{
    uint16_t u[NAME_UNITS_MAX];
    size_t n = 0;
    jet_rc rc = jet_utf8_to_utf16(name ? name : "", u, NAME_UNITS_MAX, &n);
    if (rc != JET_OK) {
        if (w->rc == JET_OK)
            w->rc = rc;
        n = 0;
    }
    w16(w, (uint32_t)(2 * n));
    for (size_t i = 0; i < n; i++)
        w16(w, u[i]);
}

jet_rc jet_tdef_encode(uint8_t *out, size_t cap, size_t *out_len,
                       const jet_format *fmt, const jet_tdef_spec *s,
                       jet_error *err)
{
    wbuf w = { out, cap, 0, JET_OK };

    *out_len = 0;
    if (fmt->jet3)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "Access 97 table definitions are not written");
    for (uint32_t i = 0; i < s->nlogical; i++)
        if (s->logical[i].real >= s->nreal)
            return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                            "index %u names physical index %u of %u", i,
                            s->logical[i].real, s->nreal);
    if (s->ncols > s->max_cols)
        return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                        "%u columns but a row of %u", s->ncols,
                        s->max_cols);

    /* header: page type, 0x01, free space (set per page), next page */
    w8(&w, 0x02);
    w8(&w, 0x01);
    w16(&w, 0);
    w32(&w, 0);
    w32(&w, 0);                         /* length: patched below */
    w32(&w, TDEF_MAGIC);
    w32(&w, s->row_count);
    w32(&w, s->auto_last);
    /* the AutoNumber's increment: 1 in every table of Access's files
     * (mdbtools HACKING "autonum_flag"; Jackcess writes the byte 1); a
     * COUNTER(seed, n) table holds n */
    w32(&w, s->auto_inc ? s->auto_inc : 1);
    w32(&w, s->complex_last);
    wtake(&w, 8);
    w8(&w, s->table_type);
    w16(&w, s->max_cols);
    w16(&w, s->num_var_cols);
    w16(&w, s->ncols);
    w32(&w, s->nlogical);
    w32(&w, s->nreal);
    w32(&w, s->owned_ptr);
    w32(&w, s->free_ptr);
    for (uint32_t i = 0; i < s->nreal; i++) {
        w32(&w, 0);
        w32(&w, s->reals[i].row_count);
        w32(&w, 0);
    }
    /* column descriptors */
    for (uint16_t i = 0; i < s->ncols; i++) {
        const jet_column *c = &s->cols[i];
        w8(&w, c->type);
        w32(&w, TDEF_MAGIC);
        w16(&w, c->col_num);
        w16(&w, (c->flags & JET_COL_FIXED) ? 0 : c->var_index);
        w16(&w, c->col_num);
        if (c->type == JET_T_TEXT || c->type == JET_T_MEMO) {
            w16(&w, c->sort_lcid);
            w8(&w, 0);
            w8(&w, c->sort_version);
        } else if (c->flags & JET_COL_CALCULATED) {
            w32(&w, 0);     /* a calculated decimal's is in its value */
        } else {
            w8(&w, c->precision);
            w8(&w, c->scale);
            w16(&w, 0);
        }
        w8(&w, jet_col_disk_flags(c->flags, s->ace));
        w8(&w, jet_col_disk_ext_flags(c->flags));
        w32(&w, 0);
        w16(&w, (c->flags & JET_COL_FIXED) ? c->fixed_offset : 0);
        w16(&w, c->length);
    }
    for (uint16_t i = 0; i < s->ncols; i++)
        wname(&w, s->cols[i].name);
    /* physical indexes */
    for (uint32_t i = 0; i < s->nreal; i++) {
        const jet_tdef_real_idx *r = &s->reals[i];
        w32(&w, INDEX_MAGIC);
        for (int k = 0; k < 10; k++) {
            w16(&w, r->col_num[k]);
            w8(&w, r->col_num[k] == 0xFFFF ? 0 : r->col_flags[k]);
        }
        w32(&w, r->umap_ptr);
        w32(&w, r->first_pgno);
        w32(&w, 0);
        w8(&w, r->flags);
        wtake(&w, 5);
    }
    /* logical indexes */
    for (uint32_t i = 0; i < s->nlogical; i++) {
        const jet_tdef_logical_idx *l = &s->logical[i];
        w32(&w, TDEF_MAGIC);
        w32(&w, l->index_num);
        w32(&w, l->real);
        w8(&w, l->rel_table_type);
        w32(&w, l->rel_index_num);
        w32(&w, l->rel_tdef_pgno);
        w8(&w, l->cascade_updates);
        w8(&w, l->cascade_deletes);
        w8(&w, l->type);
        w32(&w, 0);
    }
    for (uint32_t i = 0; i < s->nlogical; i++)
        wname(&w, s->logical[i].name);
    for (uint16_t i = 0; i < s->nlval; i++) {
        w16(&w, s->lval[i].col_num);
        w32(&w, s->lval[i].owned_ptr);
        w32(&w, s->lval[i].free_ptr);
    }
    w16(&w, 0xFFFF);

    *out_len = w.len;
    if (w.rc != JET_OK)
        return jet_fail(err, w.rc, JET_NO_PGNO,
                        "a column or index name is not UTF-8 or is longer "
                        "than %d units", NAME_UNITS_MAX);
    if (!out || w.len > cap)
        return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                        "table definition of %zu bytes, buffer of %zu",
                        w.len, cap);
    jet_put_u32(out + fmt->tdef_len, (uint32_t)w.len);
    return JET_OK;
}

size_t jet_tdef_page_count(const jet_format *fmt, size_t len)
{
    size_t ps = fmt->page_size;
    if (len <= ps)
        return 1;
    return 1 + (len - ps + (ps - 8) - 1) / (ps - 8);
}

void jet_tdef_page_fill(uint8_t *page, const jet_format *fmt,
                        const uint8_t *buf, size_t len, size_t k,
                        uint32_t next_pgno)
{
    size_t ps = fmt->page_size, off, n, hdr;

    memset(page, 0, ps);
    if (k == 0) {
        off = 0;
        hdr = 0;
        n = len < ps ? len : ps;
    } else {
        off = ps + (k - 1) * (ps - 8);
        hdr = 8;
        n = off < len ? (len - off < ps - 8 ? len - off : ps - 8) : 0;
    }
    if (n)
        memcpy(page + hdr, buf + off, n);
    page[0] = 0x02;
    page[1] = 0x01;
    jet_put_u16(page + 2,
                (uint16_t)(ps - (hdr + n) > 8 ? ps - (hdr + n) - 8 : 0));
    jet_put_u32(page + fmt->tdef_next_pgno, next_pgno);
}

void jet_tdef_spec_of(jet_tdef_spec *out, const jet_tdef_priv *t, bool ace)
{
    memset(out, 0, sizeof *out);
    out->ace = ace;
    out->table_type = t->table_type;
    out->row_count = t->pub.row_count;
    out->max_cols = t->max_cols;
    out->num_var_cols = t->num_var_cols;
    out->ncols = t->pub.ncols;
    out->cols = t->cols;
    out->nreal = t->nreals;
    out->reals = t->reals;
    out->nlogical = t->pub.nindexes;
    out->logical = t->logical;
    out->owned_ptr = t->owned_ptr;
    out->free_ptr = t->free_ptr;
    out->nlval = t->nlval_umaps;
    out->lval = t->lval_umaps;
}
