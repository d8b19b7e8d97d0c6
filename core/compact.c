/*
 * compact.c - compact a database (jet.h: jet_db_compact): every table of
 * SRC, system tables included, rewritten into a new file DST without
 * free space, as Access's "Compact and Repair" does.
 *
 * SRC is opened read-only and read in one read transaction. DST is made
 * beside its final name as a temporary file, then renamed:
 *   1. The skeleton, written here page by page: page 0 is SRC's header
 *      page as stored (format, code page, sort order, database password
 *      and encryption keys kept: an encrypted SRC gives a DST that opens
 *      with the same password), page 1 an empty global usage map, page 2
 *      MSysObjects' TDEF re-encoded with no rows, page 3 a data page of
 *      usage map rows (MSysObjects' and, while it has room, the other
 *      tables'), then MSysObjects' empty index roots. Pages 1.. go through
 *      SRC's page codec when SRC is encrypted (the same keys).
 *   2. DST opened read-write by the core: a TDEF page for every other
 *      table (ascending SRC TDEF page), then each table's definition
 *      re-encoded (tdefenc.c) as SRC has it: the same columns, column
 *      numbers and descriptor order, index definitions (a foreign key's
 *      logical index names the other table's new TDEF page), TDEF header
 *      facts (last AutoNumber, complex id counter: bytes 20..39), no rows,
 *      empty usage maps and index roots.
 *   3. The rows of MSysObjects, then of every other table, in SRC's scan
 *      order through jet_table_insert in copy mode (jet_db.copying: values
 *      stored as read, no rule, relationship or computation): long values
 *      and index entries are written afresh; a key the core cannot compute
 *      (a text its sort order cannot encode, an unknown column type) is
 *      the source entry's (jet_db.copy_key, jet_table_key_of_row). A local table's catalog Id is
 *      its TDEF page, so the columns naming tables (MSysObjects Id of
 *      tables and ParentId, MSysACEs/MSysQueries ObjectId,
 *      MSysComplexColumns' table ids, MSysNavPane* object ids) are mapped
 *      to the new pages. Commits every COMMIT_ROWS rows (or COMMIT_BYTES
 *      of long values) bound the journal and the pager's dirty pages.
 *   4. DST's file and directory synced (the commits sync the file), then
 *      the temporary file renamed to DST, refusing to replace anything.
 * Any failure removes the temporary file (and its journal): no half DST.
 * Jet3 (Access 97) files are refused: the core writes no Jet3 file.
 * Format: Jackcess TableImpl.writeTableDefinition, UsageMap,
 * DatabaseImpl (catalog ids); mdbtools HACKING.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

#include "alloc.h"
#include "bytes.h"
#include "ddl_int.h"
#include "encode.h"
#include "internal.h"
#include "os.h"
#include "pagealloc.h"
#include "write.h"

#define COMMIT_ROWS 4096
/* ... or every COMMIT_BYTES of long values (the dirty pages a commit
 * writes stay bounded when rows hold large Memo/OLE values) */
#define COMMIT_BYTES ((size_t)16 << 20)
/* TDEF header: row count at 16; last AutoNumber at 20; 24..39 Access's
 * (the complex id counter at 28); the encoder writes 16..39 afresh */
#define TDEF_KEEP_FROM 20
#define TDEF_KEEP_TO 40

/* ------------------------------------------------------------ the tables */

/** One local table of SRC and where it goes in DST. */
typedef struct ctable {
    const jet_object *obj;          /* SRC catalog entry */
    const jet_tdef_priv *t;         /* SRC tdef (the db's cache) */
    uint32_t src_pgno, dst_pgno;
    uint8_t *stored;                /* SRC's assembled TDEF buffer */
    size_t stored_len;
} ctable;

typedef struct compact {
    jet_db *src, *dst;
    const jet_tdef *cur;            /* SRC table being copied ... */
    jet_rowid cur_row;              /* ... and the row being inserted */
    ctable *tabs;                   /* ascending src_pgno; [0] MSysObjects */
    size_t ntabs;
    jet_error *err;
} compact;

static int ctable_cmp(const void *a, const void *b)
{
    const ctable *x = a, *y = b;
    return x->src_pgno < y->src_pgno ? -1 : x->src_pgno > y->src_pgno;
}

/* The DST TDEF page of SRC table page pgno; 0 when no table is there. */
static uint32_t map_pgno(const compact *c, uint32_t pgno)
{
    size_t lo = 0, hi = c->ntabs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->tabs[mid].src_pgno == pgno)
            return c->tabs[mid].dst_pgno;
        if (c->tabs[mid].src_pgno < pgno)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* A catalog id naming a SRC table, as DST names it (others unchanged). */
static int64_t map_id(const compact *c, int64_t id)
{
    uint32_t u = (uint32_t)id, to;
    if (id <= 0 || (u & 0xFF000000u))
        return id;
    to = map_pgno(c, u);
    return to ? (int64_t)(int32_t)to : id;
}

/* SRC's TDEF buffer of t: the first page and its continuation pages'
 * bytes from offset 8 (tdef.c's assembly). */
static jet_rc stored_tdef(jet_db *db, uint32_t pgno, uint8_t **out,
                          size_t *len)
{
    uint32_t ps = db->page_size, next = pgno;
    uint8_t *buf = NULL;
    size_t n = 0;
    unsigned hops = 0;
    while (next) {
        const uint8_t *pg;
        size_t add = n == 0 ? ps : ps - 8;
        uint8_t *nb;
        jet_rc rc;
        if (++hops > 256) {
            jet_free(buf);
            return jet_fail(&db->err, JET_ECORRUPT, pgno, "the table "
                            "definition at page %u: chain too long", pgno);
        }
        if ((rc = jet_page_pin(db->pf, next, &pg, &db->err)) != JET_OK) {
            jet_free(buf);
            return rc;
        }
        nb = jet_realloc(buf, n + add);
        if (!nb) {
            jet_page_unpin(db->pf, pg);
            jet_free(buf);
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        }
        buf = nb;
        memcpy(buf + n, n == 0 ? pg : pg + 8, add);
        n += add;
        next = jet_get_u32(pg + db->fmt->tdef_next_pgno);
        jet_page_unpin(db->pf, pg);
    }
    *out = buf;
    *len = n;
    return JET_OK;
}

/* ------------------------------------------------------ where pages go */

/** Pages of a definition being written: the skeleton's (in memory,
 *  db NULL) or DST's through its pager. */
typedef struct sink {
    jet_db *db;
    const jet_format *fmt;
    uint32_t ps;
    uint8_t *mem;                   /* skeleton: npages pages */
    uint32_t npages;
    uint32_t umap_pgno;             /* the page usage map rows go to */
    jet_error *err;
} sink;

static jet_rc sink_alloc(sink *s, uint32_t *pgno)
{
    if (s->db) {
        uint8_t *pg;
        jet_rc rc = jet_db_page_new(s->db, pgno, &pg);
        if (rc == JET_OK)
            jet_page_unpin(s->db->pf, pg);
        return rc;
    }
    uint8_t *n = jet_realloc(s->mem, (size_t)(s->npages + 1) * s->ps);
    if (!n)
        return jet_fail(s->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    s->mem = n;
    memset(n + (size_t)s->npages * s->ps, 0, s->ps);
    *pgno = s->npages++;
    return JET_OK;
}

/* Page pgno to write: from the pager (unpin with sink_done) or memory. */
static jet_rc sink_page(sink *s, uint32_t pgno, uint8_t **pg)
{
    if (s->db)
        return jet_page_write(s->db->pf, pgno, pg, &s->db->err);
    *pg = s->mem + (size_t)pgno * s->ps;
    return JET_OK;
}

static void sink_done(sink *s, uint8_t *pg)
{
    if (s->db)
        jet_page_unpin(s->db->pf, pg);
}

/* A new data page of usage map rows (owner 0) becomes the current one. */
static jet_rc sink_umap_page(sink *s)
{
    uint8_t *pg;
    jet_rc rc = sink_alloc(s, &s->umap_pgno);
    if (rc == JET_OK && (rc = sink_page(s, s->umap_pgno, &pg)) == JET_OK) {
        jet_data_page_init(pg, s->fmt, 0, false);
        sink_done(s, pg);
    }
    return rc;
}

/* Append usage map row (UMAP_ROW_LEN bytes) to the current map page, a
 * new one when it is full; *ptr its pointer (row | page << 8). */
static jet_rc sink_umap_row(sink *s, const uint8_t *row, uint32_t *ptr)
{
    for (int tries = 0; tries < 2; tries++) {
        uint8_t *pg;
        uint16_t rowno;
        jet_rc rc = sink_page(s, s->umap_pgno, &pg);
        if (rc != JET_OK)
            return rc;
        rc = jet_data_page_insert(pg, s->fmt, row, UMAP_ROW_LEN, 0, &rowno);
        sink_done(s, pg);
        if (rc == JET_OK) {
            *ptr = s->umap_pgno << 8 | rowno;
            return JET_OK;
        }
        if ((rc = sink_umap_page(s)) != JET_OK)
            return rc;
    }
    return jet_fail(s->err, JET_ECORRUPT, s->umap_pgno, "a usage map row "
                    "does not fit an empty page");
}

/*
 * Write table tab's definition at DST page first (allocated): the SRC
 * definition with no rows, empty usage maps (inline) and a new empty
 * root page per physical index, foreign keys naming the new TDEF pages,
 * the descriptors in SRC's order and the header bytes 20..39 as SRC's.
 */
static jet_rc write_def(compact *c, sink *s, const ctable *tab,
                        uint32_t first)
{
    const jet_tdef_priv *t = tab->t;
    jet_tdef_spec spec;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL;
    jet_lval_umap *lval = NULL;
    jet_column *cols = NULL;
    uint8_t *buf = NULL, row[UMAP_ROW_LEN];
    uint32_t *pages = NULL;
    size_t len = 0, npages;
    jet_rc rc = JET_OK;
    bool ace = c->src->version != JET_VER_4;

    jet_tdef_spec_of(&spec, t, ace);
    reals = jet_calloc(spec.nreal + 1, sizeof *reals);
    logical = jet_calloc(spec.nlogical + 1, sizeof *logical);
    lval = jet_calloc(spec.nlval + 1u, sizeof *lval);
    cols = jet_calloc(spec.ncols + 1u, sizeof *cols);
    if (!reals || !logical || !lval || !cols) {
        rc = jet_fail(s->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    /* the descriptors in stored order (the reader sorts them) */
    {
        size_t at = 63 + 12 * (size_t)t->nreals;
        for (uint16_t i = 0; i < spec.ncols; i++) {
            uint16_t num = at + 25 * (size_t)i + 7 <= tab->stored_len
                ? jet_get_u16(tab->stored + at + 25 * (size_t)i + 5)
                : spec.cols[i].col_num;
            cols[i] = spec.cols[i];
            for (uint16_t j = 0; j < spec.ncols; j++)
                if (spec.cols[j].col_num == num)
                    cols[i] = spec.cols[j];
        }
        spec.cols = cols;
    }
    jet_ddl_umap_inline(row, 0);
    if ((rc = sink_umap_row(s, row, &spec.owned_ptr)) != JET_OK ||
        (rc = sink_umap_row(s, row, &spec.free_ptr)) != JET_OK)
        goto out;
    for (uint32_t k = 0; k < spec.nreal; k++) {
        uint8_t *pg;
        size_t used;
        /* its row-count block as SRC's: the same rows (the write path
         * does not keep that count) */
        reals[k] = spec.reals[k];
        if ((rc = sink_alloc(s, &reals[k].first_pgno)) != JET_OK ||
            (rc = sink_page(s, reals[k].first_pgno, &pg)) != JET_OK)
            goto out;
        rc = jet_index_page_build(pg, s->fmt, true, first, 0, 0, 0, NULL, 0,
                                  &used);
        sink_done(s, pg);
        if (rc != JET_OK) {
            rc = jet_fail(s->err, rc, first, "an empty index page");
            goto out;
        }
        jet_ddl_umap_inline(row, reals[k].first_pgno);
        if ((rc = sink_umap_row(s, row, &reals[k].umap_ptr)) != JET_OK)
            goto out;
    }
    spec.reals = reals;
    for (uint32_t k = 0; k < spec.nlogical; k++) {
        logical[k] = spec.logical[k];
        if (logical[k].rel_tdef_pgno) {
            uint32_t to = map_pgno(c, logical[k].rel_tdef_pgno);
            if (to)
                logical[k].rel_tdef_pgno = to;
        }
    }
    spec.logical = logical;
    jet_ddl_umap_inline(row, 0);
    for (uint16_t k = 0; k < spec.nlval; k++) {
        lval[k] = spec.lval[k];
        if ((rc = sink_umap_row(s, row, &lval[k].owned_ptr)) != JET_OK ||
            (rc = sink_umap_row(s, row, &lval[k].free_ptr)) != JET_OK)
            goto out;
    }
    spec.lval = lval;
    spec.row_count = 0;
    spec.auto_last = tab->stored_len >= 24 ? jet_get_u32(tab->stored + 20)
                                           : 0;
    (void)jet_tdef_encode(NULL, 0, &len, s->fmt, &spec, NULL);
    buf = jet_malloc(len ? len : 1);
    if (!buf) {
        rc = jet_fail(s->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((rc = jet_tdef_encode(buf, len, &len, s->fmt, &spec, s->err)) !=
        JET_OK)
        goto out;
    if (tab->stored_len >= TDEF_KEEP_TO && len >= TDEF_KEEP_TO)
        memcpy(buf + TDEF_KEEP_FROM, tab->stored + TDEF_KEEP_FROM,
               TDEF_KEEP_TO - TDEF_KEEP_FROM);
    /* descriptor fields the reader keeps nothing of, as stored: a complex
     * column's id in MSysComplexColumns (offset 11), bytes 17..20 */
    {
        size_t at = 63 + 12 * (size_t)spec.nreal;
        for (uint16_t i = 0; i < spec.ncols; i++) {
            size_t d = at + 25 * (size_t)i;
            if (d + 25 > len || d + 25 > tab->stored_len ||
                jet_get_u16(buf + d + 5) != jet_get_u16(tab->stored + d + 5))
                continue;
            if (spec.cols[i].type == JET_T_COMPLEX)
                memcpy(buf + d + 11, tab->stored + d + 11, 4);
            memcpy(buf + d + 17, tab->stored + d + 17, 4);
        }
    }
    npages = jet_tdef_page_count(s->fmt, len);
    pages = jet_calloc(npages, sizeof *pages);
    if (!pages) {
        rc = jet_fail(s->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    pages[0] = first;
    for (size_t k = 1; k < npages; k++)
        if ((rc = sink_alloc(s, &pages[k])) != JET_OK)
            goto out;
    for (size_t k = 0; k < npages; k++) {
        uint8_t *pg;
        if ((rc = sink_page(s, pages[k], &pg)) != JET_OK)
            goto out;
        jet_tdef_page_fill(pg, s->fmt, buf, len, k,
                           k + 1 < npages ? pages[k + 1] : 0);
        sink_done(s, pg);
    }
out:
    jet_free(reals);
    jet_free(logical);
    jet_free(lval);
    jet_free(cols);
    jet_free(buf);
    jet_free(pages);
    return rc;
}

/*
 * The skeleton of DST (the top comment's step 1) into fd; *umap_pgno =
 * the usage map page later tables continue.
 */
static jet_rc write_skeleton(compact *c, int fd, uint32_t *umap_pgno)
{
    jet_db *src = c->src;
    const jet_codec *codec = jet_pagefile_codec(src->pf);
    sink s = { NULL, src->fmt, src->page_size, NULL, 0, 0, c->err };
    uint8_t *scratch = NULL, row[UMAP_ROW_LEN];
    uint16_t rowno;
    uint32_t pg1, pg2;
    jet_rc rc;

    /* 0 the header (replaced below), 1 global map, 2 MSysObjects, 3 maps */
    if ((rc = sink_alloc(&s, &pg1)) != JET_OK ||
        (rc = sink_alloc(&s, &pg1)) != JET_OK ||
        (rc = sink_alloc(&s, &pg2)) != JET_OK ||
        (rc = sink_umap_page(&s)) != JET_OK)
        goto out;
    rc = jet_pagefile_read_raw(src->pf, s.mem, s.ps, 0, c->err);
    if (rc != JET_OK)
        goto out;
    jet_data_page_init(s.mem + s.ps, s.fmt, 0, false);
    memset(row, 0, sizeof row);
    if (jet_data_page_insert(s.mem + s.ps, s.fmt, row, sizeof row, 0,
                             &rowno) != JET_OK) {
        rc = jet_fail(c->err, JET_ECORRUPT, 1, "the global usage map");
        goto out;
    }
    c->tabs[0].dst_pgno = pg2;
    if ((rc = write_def(c, &s, &c->tabs[0], pg2)) != JET_OK)
        goto out;
    scratch = jet_malloc(s.ps);
    if (!scratch) {
        rc = jet_fail(c->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (uint32_t p = 0; p < s.npages; p++) {
        int e;
        memcpy(scratch, s.mem + (size_t)p * s.ps, s.ps);
        if (codec && p != 0 &&
            jet_codec_encode(codec, p, scratch, s.ps) != JET_OK) {
            rc = jet_fail(c->err, JET_EUNSUPPORTED, p, "page %u cannot be "
                          "encrypted (the crypto library failed)", p);
            goto out;
        }
        if ((e = jet_os_pwrite(fd, scratch, s.ps, (uint64_t)p * s.ps)) != 0) {
            rc = jet_fail(c->err, JET_EIO, p, "cannot write the new file: "
                          "%s", strerror(e));
            goto out;
        }
    }
    *umap_pgno = s.umap_pgno;
out:
    jet_free(scratch);
    jet_free(s.mem);
    return rc;
}

/* ------------------------------------------------------------ the rows */

/** The column of a system table that names catalog objects by id. */
static const struct id_ref {
    const char *table, *column;
} id_refs[] = {
    { "MSysObjects", "ParentId" },
    { "MSysACEs", "ObjectId" },
    { "MSysQueries", "ObjectId" },
    { "MSysComplexColumns", "ConceptualTableID" },
    { "MSysComplexColumns", "FlatTableID" },
    { "MSysComplexColumns", "ComplexTypeObjectID" },
    { "MSysNavPaneObjectIDs", "Id" },
    { "MSysNavPaneGroupToObjects", "ObjectID" },
};

/* A growable buffer per column for long values (the scan's scratch is
 * shared by its columns). */
typedef struct lbuf {
    uint8_t *p;
    size_t cap;
} lbuf;

/* db->copy_key: the key of index index_no for the row being copied,
 * when the core cannot compute it (a text its sort order cannot encode,
 * a column type it does not know): SRC's entry's bytes. */
static jet_rc copy_key(void *ctx, const jet_tdef *t, uint16_t index_no,
                       uint8_t *key, size_t cap, size_t *len)
{
    compact *c = ctx;
    jet_rc rc;
    if (!c->cur || index_no >= c->cur->nindexes ||
        c->cur->nindexes != t->nindexes)
        return jet_fail(&c->dst->err, JET_EUNSUPPORTED, t->pgno, "index %u "
                        "of table '%s': a key the sort order cannot encode",
                        index_no, t->name);
    rc = jet_table_key_of_row(c->src, c->cur, index_no, c->cur_row, key, cap,
                              len);
    if (rc != JET_OK)
        c->dst->err = c->src->err;
    return rc;
}

/* Commit DST's transaction and begin the next. */
static jet_rc recommit(jet_db *dst)
{
    jet_rc rc = jet_db_write_commit(dst);
    return rc == JET_OK ? jet_db_write_begin(dst) : rc;
}

/*
 * Copy the rows of SRC table st into DST table dt (the same columns, in
 * the same order), in scan order, mapping the columns that name tables.
 */
static jet_rc copy_rows(compact *c, const jet_tdef *st, const jet_tdef *dt)
{
    jet_db *src = c->src, *dst = c->dst;
    jet_value *vals = NULL;
    lbuf *lb = NULL;
    bool *remap = NULL;
    int c_id = -1, c_type = -1;
    jet_scan *s = NULL;
    size_t nrows = 0, nbytes = 0;
    jet_rc rc;

    if (st->ncols != dt->ncols)
        return jet_fail(c->err, JET_ECORRUPT, dt->pgno, "table '%s': %u "
                        "columns copied as %u", st->name, st->ncols,
                        dt->ncols);
    vals = jet_calloc(st->ncols + 1u, sizeof *vals);
    lb = jet_calloc(st->ncols + 1u, sizeof *lb);
    remap = jet_calloc(st->ncols + 1u, sizeof *remap);
    if (!vals || !lb || !remap) {
        rc = jet_fail(c->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < sizeof id_refs / sizeof id_refs[0]; k++) {
        int col;
        if (strcmp(st->name, id_refs[k].table) != 0 ||
            (col = jet_tdef_find_column(st, id_refs[k].column)) < 0)
            continue;
        remap[col] = st->cols[col].type == JET_T_LONG;
    }
    if (st->pgno == MSYS_OBJECTS_PGNO) {
        c_id = jet_tdef_find_column(st, "Id");
        c_type = jet_tdef_find_column(st, "Type");
    }
    if ((rc = jet_table_rules_grant((jet_tdef_priv *)(uintptr_t)dt)) !=
        JET_OK) {
        rc = jet_fail(c->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((rc = jet_scan_open(&s, src, st, NULL)) != JET_OK) {
        *c->err = src->err;
        goto out;
    }
    while ((rc = jet_scan_next(s)) == JET_OK) {
        for (uint16_t i = 0; i < st->ncols && rc == JET_OK; i++) {
            jet_value *v = &vals[i];
            rc = jet_scan_value(s, i, v);
            if (rc != JET_OK || v->is_null)
                continue;
            if ((st->cols[i].flags & JET_COL_CALCULATED) &&
                (v->type == JET_T_TEXT || v->type == JET_T_MEMO) &&
                v->enc != JET_ENC_UCS2) {
                /* a calculated text is stored as UTF-16LE */
                size_t units = 0;
                rc = jet_text_to_utf16(src, v, NULL, 0, &units);
                if (rc == JET_OK && lb[i].cap < 2 * units + 2) {
                    uint8_t *n = jet_realloc(lb[i].p, 2 * units + 2);
                    if (!n) {
                        rc = JET_ENOMEM;
                        break;
                    }
                    lb[i].p = n;
                    lb[i].cap = 2 * units + 2;
                }
                if (rc == JET_OK)
                    rc = jet_text_to_utf16(src, v, (uint16_t *)(void *)lb[i].p,
                                           units + 1, &units);
                if (rc != JET_OK) {
                    jet_fail(c->err, rc, JET_NO_PGNO, "table '%s': a "
                             "calculated text cannot be decoded", st->name);
                    break;
                }
                for (size_t k = 0; k < units; k++) {
                    uint16_t u = ((uint16_t *)(void *)lb[i].p)[k];
                    lb[i].p[2 * k] = (uint8_t)u;
                    lb[i].p[2 * k + 1] = (uint8_t)(u >> 8);
                }
                v->data = lb[i].p;
                v->len = 2 * units;
                v->enc = JET_ENC_UCS2;
                continue;
            }
            if ((v->type == JET_T_MEMO || v->type == JET_T_OLE ||
                 jet_ddl_is_long(st->cols[i].type)) && v->len) {
                if (lb[i].cap < v->len) {
                    uint8_t *n = jet_realloc(lb[i].p, v->len);
                    if (!n) {
                        rc = JET_ENOMEM;
                        break;
                    }
                    lb[i].p = n;
                    lb[i].cap = v->len;
                }
                memcpy(lb[i].p, v->data, v->len);
                v->data = lb[i].p;
                nbytes += v->len;
            }
            if (remap[i])
                v->u.i = map_id(c, v->u.i);
        }
        if (rc == JET_ENOMEM) {
            rc = jet_fail(c->err, rc, JET_NO_PGNO, "out of memory");
            break;
        }
        if (rc != JET_OK) {
            *c->err = *jet_scan_error(s);
            break;
        }
        /* a local table's catalog Id is its TDEF page */
        if (c_id >= 0 && c_type >= 0 && !vals[c_id].is_null &&
            !vals[c_type].is_null && (vals[c_type].u.i & 0xFFFF) == 1)
            vals[c_id].u.i = map_id(c, vals[c_id].u.i);
        if ((rc = jet_scan_position(s, &c->cur_row.pgno,
                                    &c->cur_row.row)) != JET_OK) {
            *c->err = *jet_scan_error(s);
            break;
        }
        c->cur = st;
        rc = jet_table_insert(dst, dt, vals, NULL);
        c->cur = NULL;
        if (rc != JET_OK) {
            *c->err = dst->err;
            break;
        }
        if ((++nrows % COMMIT_ROWS == 0 || nbytes > COMMIT_BYTES) &&
            (rc = recommit(dst)) != JET_OK) {
            *c->err = dst->err;
            break;
        }
        if (nbytes > COMMIT_BYTES)
            nbytes = 0;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_OK && c->err->rc == JET_OK)
        jet_fail(c->err, rc, JET_NO_PGNO, "table '%s' cannot be copied",
                 st->name);
    if (rc != JET_OK && c->err->msg[0] &&
        strstr(c->err->msg, st->name) == NULL) {
        char m[2 * sizeof c->err->msg];
        snprintf(m, sizeof m, "table '%s': %s", st->name, c->err->msg);
        m[sizeof c->err->msg - 1] = '\0';
        memcpy(c->err->msg, m, sizeof c->err->msg);
    }
out:
    jet_table_rules_free((jet_tdef_priv *)(uintptr_t)dt);
    jet_scan_close(s);
    for (uint16_t i = 0; lb && i < st->ncols; i++)
        jet_free(lb[i].p);
    jet_free(lb);
    jet_free(vals);
    jet_free(remap);
    return rc;
}

/* ---------------------------------------------------------- the whole */

/* SRC's local tables, ascending TDEF page, with their stored TDEFs. */
static jet_rc load_tables(compact *c)
{
    jet_db *src = c->src;
    size_t n = jet_catalog_count(src);
    jet_rc rc;

    c->tabs = jet_calloc(n + 1, sizeof *c->tabs);
    if (!c->tabs)
        return jet_fail(c->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(src, i);
        const jet_tdef *t;
        ctable *ct;
        if (o->kind != JET_OBJ_TABLE && o->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        if ((rc = jet_tdef_load(&t, src, o)) != JET_OK) {
            *c->err = src->err;
            return rc;
        }
        for (size_t k = 0; k < c->ntabs; k++)
            if (c->tabs[k].src_pgno == t->pgno)
                return jet_fail(c->err, JET_ECORRUPT, t->pgno, "tables "
                                "'%s' and '%s' share the definition at "
                                "page %u", c->tabs[k].obj->name, o->name,
                                t->pgno);
        ct = &c->tabs[c->ntabs++];
        ct->obj = o;
        ct->t = (const jet_tdef_priv *)t;
        ct->src_pgno = t->pgno;
        if ((rc = stored_tdef(src, t->pgno, &ct->stored,
                              &ct->stored_len)) != JET_OK) {
            *c->err = src->err;
            return rc;
        }
    }
    qsort(c->tabs, c->ntabs, sizeof *c->tabs, ctable_cmp);
    if (!c->ntabs || c->tabs[0].src_pgno != MSYS_OBJECTS_PGNO)
        return jet_fail(c->err, JET_ECORRUPT, MSYS_OBJECTS_PGNO,
                        "the catalog lists no MSysObjects at page 2");
    return JET_OK;
}

/* Steps 2 and 3 on the open DST. */
static jet_rc fill(compact *c, uint32_t umap_pgno)
{
    jet_db *dst = c->dst;
    sink s = { dst, dst->fmt, dst->page_size, NULL, 0, umap_pgno, c->err };
    jet_tdef_priv *ms = NULL;
    jet_rc rc;

    if ((rc = jet_db_write_begin(dst)) != JET_OK) {
        *c->err = dst->err;
        return rc;
    }
    dst->copying = true;
    dst->copy_key = copy_key;
    dst->copy_key_ctx = c;
    /* every table's TDEF page first: foreign keys name them */
    for (size_t i = 1; i < c->ntabs; i++) {
        uint8_t *pg;
        if ((rc = jet_db_page_new(dst, &c->tabs[i].dst_pgno, &pg)) != JET_OK)
            goto fail;
        pg[0] = 0x02;               /* claimed: written below */
        pg[1] = 0x01;
        jet_page_unpin(dst->pf, pg);
    }
    for (size_t i = 1; i < c->ntabs; i++)
        if ((rc = write_def(c, &s, &c->tabs[i], c->tabs[i].dst_pgno)) !=
            JET_OK)
            goto fail;
    if ((rc = recommit(dst)) != JET_OK)
        goto fail;
    /* the catalog's rows, then the catalog read again */
    if ((rc = jet_tdef_read(&ms, dst, MSYS_OBJECTS_PGNO, "MSysObjects",
                            &dst->err)) != JET_OK)
        goto fail;
    rc = copy_rows(c, &c->tabs[0].t->pub, &ms->pub);
    jet_tdef_free(ms);
    if (rc != JET_OK)
        goto out;
    if ((rc = recommit(dst)) != JET_OK ||
        (rc = jet_ddl_catalog_reload(dst)) != JET_OK)
        goto fail;
    for (size_t i = 1; i < c->ntabs; i++) {
        const jet_object *o = NULL;
        const jet_tdef *dt;
        for (size_t k = 0; k < jet_catalog_count(dst) && !o; k++) {
            const jet_object *x = jet_catalog_at(dst, k);
            if ((x->kind == JET_OBJ_TABLE ||
                 x->kind == JET_OBJ_SYSTEM_TABLE) &&
                x->tdef_pgno == c->tabs[i].dst_pgno)
                o = x;
        }
        if (!o) {
            rc = jet_fail(c->err, JET_ECORRUPT, c->tabs[i].dst_pgno,
                          "table '%s' is not in the new catalog",
                          c->tabs[i].obj->name);
            goto out;
        }
        if ((rc = jet_tdef_load(&dt, dst, o)) != JET_OK)
            goto fail;
        if ((rc = copy_rows(c, &c->tabs[i].t->pub, dt)) != JET_OK)
            goto out;
    }
    dst->copying = false;
    dst->copy_key = NULL;
    if ((rc = jet_db_write_commit(dst)) != JET_OK)
        goto fail;
    return JET_OK;
fail:
    *c->err = dst->err;
out:
    dst->copying = false;
    dst->copy_key = NULL;
    (void)jet_db_write_rollback(dst);
    return rc;
}

/* path + suffix, a new string. */
static char *path_with(const char *path, const char *suffix)
{
    size_t a = strlen(path), b = strlen(suffix);
    char *p = jet_malloc(a + b + 1);
    if (p) {
        memcpy(p, path, a);
        memcpy(p + a, suffix, b + 1);
    }
    return p;
}

/* A temporary name beside dst: "<dir>/~compact-<pid>-<name>". */
static char *temp_beside(const char *dst)
{
    const char *slash = strrchr(dst, '/');
#ifdef _WIN32
    const char *bs = strrchr(dst, '\\');
    if (bs && (!slash || bs > slash))
        slash = bs;
#endif
    size_t dir = slash ? (size_t)(slash - dst) + 1 : 0;
    char pre[64];
    int n = snprintf(pre, sizeof pre, "~compact-%ld-", (long)getpid());
    char *p = jet_malloc(strlen(dst) + (size_t)n + 1);
    if (p) {
        memcpy(p, dst, dir);
        memcpy(p + dir, pre, (size_t)n);
        strcpy(p + dir + n, dst + dir);
    }
    return p;
}

jet_rc jet_db_compact(const char *src_path, const char *dst_path,
                      const char *password, jet_error *err)
{
    jet_error local;
    compact c;
    jet_open_options so, dopts;
    char *tmp = NULL, *tmp_journal = NULL;
    bool made = false, reading = false;
    uint32_t umap_pgno = 0;
    int fd = -1, e;
    jet_rc rc;

    if (!err)
        err = &local;
    memset(err, 0, sizeof *err);
    memset(&c, 0, sizeof c);
    c.err = err;
    if (!src_path || !*src_path || !dst_path || !*dst_path)
        return jet_fail(err, JET_ENOTFOUND, JET_NO_PGNO,
                        "compact needs a source and a destination file");
    if (jet_os_exists(dst_path))
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "'%s' already exists: "
                        "compact writes a new file", dst_path);
    memset(&so, 0, sizeof so);
    so.password = password;
    so.read_only = true;
    if ((rc = jet_db_open(&c.src, src_path, &so, err)) != JET_OK)
        return rc;
    if (c.src->version == JET_VER_3) {
        rc = jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO, "'%s' is an "
                      "Access 97 (Jet3) file: it is not compacted (the "
                      "driver writes no Jet3 file)", src_path);
        goto out;
    }
    if ((rc = jet_db_read_begin(c.src)) != JET_OK) {
        *err = c.src->err;
        goto out;
    }
    reading = true;
    if ((rc = load_tables(&c)) != JET_OK)
        goto out;
    tmp = temp_beside(dst_path);
    tmp_journal = tmp ? path_with(tmp, "-journal") : NULL;
    if (!tmp || !tmp_journal) {
        rc = jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((e = jet_os_create_new(&fd, tmp)) != 0) {
        rc = jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot create '%s': %s",
                      tmp, strerror(e));
        goto out;
    }
    made = true;
    rc = write_skeleton(&c, fd, &umap_pgno);
    jet_os_close(fd);
    fd = -1;
    if (rc != JET_OK)
        goto out;
    memset(&dopts, 0, sizeof dopts);
    dopts.password = password;
    dopts.cache_pages = 2048;
    if ((rc = jet_db_open(&c.dst, tmp, &dopts, err)) != JET_OK)
        goto out;
    if ((rc = fill(&c, umap_pgno)) != JET_OK)
        goto out;
    jet_db_close(c.dst);
    c.dst = NULL;
    /* durable before it gets its name: data, then the directory */
    if ((e = jet_os_open_rw(&fd, tmp)) != 0 || (e = jet_os_fsync(fd)) != 0) {
        rc = jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync '%s': %s", tmp,
                      strerror(e));
        goto out;
    }
    jet_os_close(fd);
    fd = -1;
    if ((e = jet_os_rename_new(tmp, dst_path)) != 0) {
        rc = jet_fail(err, JET_EIO, JET_NO_PGNO, e == EEXIST
                      ? "'%s' already exists: compact writes a new file"
                      : "cannot name the new file '%s': %s", dst_path,
                      strerror(e));
        goto out;
    }
    made = false;
    if ((e = jet_os_sync_dir(dst_path)) != 0) {
        rc = jet_fail(err, JET_EIO, JET_NO_PGNO, "cannot sync the folder "
                      "of '%s': %s", dst_path, strerror(e));
        goto out;
    }
    rc = JET_OK;
out:
    if (fd >= 0)
        jet_os_close(fd);
    if (c.dst)
        jet_db_close(c.dst);
    if (made) {
        (void)jet_os_unlink(tmp);
        (void)jet_os_unlink(tmp_journal);
    }
    for (size_t i = 0; i < c.ntabs; i++)
        jet_free(c.tabs[i].stored);
    jet_free(c.tabs);
    if (c.src) {
        if (reading)
            jet_db_read_end(c.src);
        jet_db_close(c.src);
    }
    jet_free(tmp);
    jet_free(tmp_journal);
    return rc;
}
