/*
 * scan.c - full-table scan cursor: usage map -> data pages -> live rows.
 *
 * Pages come from the tdef's owned-pages usage map in ascending order; each
 * must be a data page (type 0x01) whose tdef pointer names this table, with
 * a plausible row count and free space, else the scan stops with
 * JET_ECORRUPT naming page and table (check_data_page).
 * Within a page, rows are visited in slot order; deleted rows are skipped,
 * overflow rows (0x4000) are followed through their 4-byte pointer (row
 * byte + 3-byte page), possibly chained, at most page-count hops.
 * The current data page (and an overflow page) stay pinned until the next
 * call that moves the scan, so TEXT/BINARY spans borrow from them; long
 * values go to the scan's scratch buffer, which only grows. No heap
 * allocation per row.
 * Read-ahead: before pinning a page of the list, the scan hands the rest
 * of its list to jet_pagefile_read_ahead(), so an uncached stretch of
 * consecutive pages arrives in one large request instead of one per page.
 * The window starts at RA_FIRST pages and doubles with each request (up to
 * the page file's own bound, 256 KB), so a scan that stops early (TOP n,
 * a first row) reads little more than it uses.
 * jet_scan_next_where applies a caller's tests of fixed cells to each
 * slot's bytes before the row is parsed (test_row): a page's verdicts
 * are taken in one loop into a selection of its slots (jet_scan.sel),
 * each appended without a branch on it, and only the selected rows are
 * made current; jet_scan_count_where only counts them. A row in another
 * shape (Jet 3, overflow, damage) or a value a test cannot decide goes
 * to the caller as an ordinary row.
 * An interrupt check (jet_scan_set_interrupt) runs before each page.
 * Writes of the same db while a scan is open (its connection's own DML,
 * a rollback): the scan keeps its place as (page number, row slot), which
 * a write never moves (a delete flags the slot, an update keeps it and a
 * grown row becomes an overflow pointer there, an insert takes a new
 * slot or page). When jet_pagefile_changes() has moved, the scan pins
 * its page again (a rollback leaves the pinned copy behind), rereads its
 * row count, finds its page in the table's owned pages as they are now,
 * and a row being read is parsed again (resync).
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "internal.h"

#define ROW_DELETED 0x8000
#define ROW_OVERFLOW 0x4000
#define RA_FIRST 8           /* pages of a scan's first read-ahead */
#define RA_MAX 128           /* the window stops doubling here */
/* slots a data page can have (check_data_page: its row table fits a
 * 4096-byte page) */
#define SEL_MAX 2048
#define SEL_UNDECIDED 0x8000u

struct jet_scan {
    jet_db *db;
    const jet_tdef_priv *t;
    bool *proj;
    size_t page_idx;         /* next index into t->owned */
    const uint8_t *page;     /* pinned current data page, or NULL */
    uint32_t pgno;
    uint16_t nrows, rowno;   /* rows on page, next slot */
    const uint8_t *ovf_page; /* pinned overflow target page, or NULL */
    uint32_t row_pgno;       /* page holding the current row's bytes */
    uint16_t cur_rowno;      /* slot of the current row on pgno */
    bool has_row;
    jet_row row;
    jet_buf scratch;
    size_t ra_window;        /* pages of the next read-ahead request */
    jet_interrupt_fn intr;   /* checked before each page; NULL = none */
    void *intr_ctx;
    uint64_t changes;        /* jet_pagefile_changes() when the position
                                (page, row) was last taken */
    const uint64_t *changes_at;  /* that count, read per row in line
                                    (jet_pagefile_changes_at) */
    jet_error err;
    /* jet_scan_next_where's selection of the current page: the slots
     * from rowno on that its tests passed (SEL_UNDECIDED: or could not
     * decide), sel[sel_i..sel_n-1] still to visit; valid only while
     * sel_valid (a move or a resync clears it) and for sel_tests */
    bool sel_valid;
    uint16_t sel_i, sel_n;
    const jet_cell_test *sel_tests;
    size_t sel_ntests;
    /* last: 8 KB that jet_row_parse fills before anything reads it, so
     * jet_scan_open does not zero it (one scan is opened per execute);
     * then the selection, written before it is read */
    uint16_t var_buf[JET_MAX_VAR_OFFSETS];
    uint16_t sel[SEL_MAX];
};

jet_rc jet_scan_open(jet_scan **out, jet_db *db, const jet_tdef *tdef,
                     const bool *proj)
{
    jet_scan *s;
    *out = NULL;
    s = jet_malloc(sizeof *s);
    if (!s)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    memset(s, 0, offsetof(jet_scan, var_buf));
    s->t = (const jet_tdef_priv *)tdef;
    s->db = s->t->owner ? s->t->owner : db;   /* a linked table's db */
    s->changes_at = jet_pagefile_changes_at(s->db->pf);
    jet_error_clear(&s->err);
    if (proj) {
        s->proj = jet_malloc(tdef->ncols ? tdef->ncols : 1);
        if (!s->proj) {
            jet_free(s);
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        }
        memcpy(s->proj, proj, tdef->ncols);
    }
    *out = s;
    return JET_OK;
}

static void release_row(jet_scan *s)
{
    if (s->ovf_page) {
        jet_page_unpin(s->db->pf, s->ovf_page);
        s->ovf_page = NULL;
    }
    s->has_row = false;
}

/* Unpin the scan's data page: a table larger than a quarter of the
 * cache gives it back for reuse first (jet_page_unpin_once), so its scan
 * does not push every other page out and touches few buffers; a small
 * table's pages stay cached for the next scan of it. */
static void unpin_data_page(jet_scan *s)
{
    if (s->t->owned.count > jet_pagefile_cache_pages(s->db->pf) / 4)
        jet_page_unpin_once(s->db->pf, s->page);
    else
        jet_page_unpin(s->db->pf, s->page);
    s->page = NULL;
}

static void release_page(jet_scan *s)
{
    s->sel_valid = false;
    release_row(s);
    if (s->page)
        unpin_data_page(s);
}

void jet_scan_rewind(jet_scan *s)
{
    release_page(s);
    s->page_idx = 0;
    s->rowno = 0;
    s->nrows = 0;
    s->ra_window = 0;
    jet_error_clear(&s->err);
}

jet_rc jet_scan_finish(jet_db *db, jet_scan *s, jet_rc rc)
{
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_OK && s && jet_scan_error(s)->rc == rc)
        db->err = *jet_scan_error(s);
    jet_scan_close(s);
    return rc;
}

jet_rc jet_owned_row_read(jet_owned_row *out, jet_db *db, const jet_tdef *t,
                          uint32_t pgno, uint16_t rowno)
{
    size_t n = t->ncols ? t->ncols : 1;
    jet_scan *s = NULL;
    jet_rc rc;

    memset(out, 0, sizeof *out);
    out->ncols = t->ncols;
    out->vals = jet_calloc(n, sizeof *out->vals);
    out->copies = jet_calloc(n, sizeof *out->copies);
    if (!out->vals || !out->copies) {
        jet_owned_row_free(out);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    if ((rc = jet_scan_open(&s, db, t, NULL)) != JET_OK) {
        jet_owned_row_free(out);
        return rc;
    }
    rc = jet_scan_fetch_row(s, pgno, rowno);
    for (uint16_t k = 0; k < t->ncols && rc == JET_OK; k++) {
        jet_value *v = &out->vals[k];
        rc = jet_scan_value(s, k, v);
        if (rc != JET_OK || v->is_null || !v->data)
            continue;
        out->copies[k] = jet_malloc(v->len ? v->len : 1);
        if (!out->copies[k]) {
            rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                          "out of memory");
            break;
        }
        memcpy(out->copies[k], v->data, v->len);
        v->data = out->copies[k];
    }
    rc = jet_scan_finish(db, s, rc);
    if (rc != JET_OK)
        jet_owned_row_free(out);
    return rc;
}

void jet_owned_row_free(jet_owned_row *row)
{
    for (uint16_t k = 0; row->copies && k < row->ncols; k++)
        jet_free(row->copies[k]);
    jet_free(row->copies);
    jet_free(row->vals);
    memset(row, 0, sizeof *row);
}

void jet_scan_reset(jet_scan *s)
{
    release_page(s);
    const jet_tdef_priv *t = s->t;
    jet_db *db = s->db;
    bool *proj = s->proj;
    jet_buf scratch = s->scratch;
    memset(s, 0, offsetof(jet_scan, var_buf));
    s->t = t;
    s->db = db;
    s->proj = proj;
    s->scratch = scratch;
    s->changes_at = jet_pagefile_changes_at(db->pf);
    jet_error_clear(&s->err);
}

void jet_scan_close(jet_scan *s)
{
    if (!s)
        return;
    release_page(s);
    jet_buf_free(&s->scratch);
    jet_free(s->proj);
    jet_free(s);
}

const jet_error *jet_scan_error(const jet_scan *s)
{
    return &s->err;
}

void jet_scan_set_interrupt(jet_scan *s, jet_interrupt_fn fn, void *ctx)
{
    s->intr = fn;
    s->intr_ctx = fn ? ctx : NULL;
}

/* JET_EINTERRUPTED when the interrupt check says stop before pgno. */
static jet_rc check_interrupt(jet_scan *s, uint32_t pgno)
{
    if (s->intr && s->intr(s->intr_ctx))
        return jet_fail(&s->err, JET_EINTERRUPTED, JET_NO_PGNO,
                        "scan of %s interrupted before page %u",
                        s->t->pub.name, pgno);
    return JET_OK;
}

/*
 * Is pg (page pgno, reached through t's usage map) a data page of t? Type
 * 0x01, owner (offset 4) = t's tdef page, a row offset table that fits the
 * page and a free-space count (offset 2) no larger than the room after
 * it. Anything else is damage: a usage map only lists the table's own data
 * pages (true of every page of every shared fixture), so skipping such a
 * page would silently drop its rows. JET_ECORRUPT naming page and table.
 */
static jet_rc check_data_page(const jet_scan *s, const uint8_t *pg,
                              uint32_t pgno, jet_error *err)
{
    const jet_format *f = s->db->fmt;
    uint32_t owner = jet_get_u32(pg + f->data_tdef_pgno);
    uint32_t nrows = jet_get_u16(pg + f->data_nrows);
    uint32_t table_end = f->data_row_table + 2 * nrows;
    uint32_t free_len = jet_get_u16(pg + 2);

    if (pg[0] != 0x01)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "page %u of table %s is not a data page (type "
                        "0x%02x)", pgno, s->t->pub.name, pg[0]);
    if (owner != s->t->pub.pgno)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "data page %u of table %s belongs to the table "
                        "defined at page %u", pgno, s->t->pub.name, owner);
    if (table_end > f->page_size)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "data page %u of table %s claims %u rows", pgno,
                        s->t->pub.name, nrows);
    if (free_len > f->page_size - table_end)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "data page %u of table %s claims %u free bytes",
                        pgno, s->t->pub.name, free_len);
    return JET_OK;
}

/* Pin data page pgno of the scan's table and make it the current page
 * (s->page, s->pgno, s->nrows; the caller sets s->rowno), once it passed
 * check_data_page; on error nothing is pinned. */
static jet_rc enter_data_page(jet_scan *s, uint32_t pgno)
{
    const uint8_t *pg;
    jet_rc rc = jet_page_pin(s->db->pf, pgno, &pg, &s->err);
    if (rc != JET_OK)
        return rc;
    rc = check_data_page(s, pg, pgno, &s->err);
    if (rc != JET_OK) {
        jet_page_unpin(s->db->pf, pg);
        return rc;
    }
    s->page = pg;
    s->pgno = pgno;
    s->nrows = jet_page_row_count(s->db->fmt, pg);
    return JET_OK;
}

/* Follow an overflow pointer row to the row holding the data. */
static jet_rc follow_overflow(jet_scan *s, const uint8_t *ptr, size_t len,
                              const uint8_t **row, size_t *row_len)
{
    uint32_t limit = jet_pagefile_page_count(s->db->pf), hops = 0;
    jet_rc rc;

    for (;;) {
        uint32_t p, target;
        uint16_t rowno, st, en, fl;
        const uint8_t *pg;
        if (len < 4)
            return jet_fail(&s->err, JET_ECORRUPT, s->row_pgno,
                            "overflow pointer row of %zu bytes", len);
        p = jet_get_u32(ptr);
        rowno = (uint16_t)(p & 0xFF);
        target = p >> 8;
        if (++hops > limit)
            return jet_fail(&s->err, JET_ECORRUPT, s->pgno,
                            "overflow row chain loops");
        rc = jet_page_pin(s->db->pf, target, &pg, &s->err);
        if (rc != JET_OK)
            return rc;
        if (s->ovf_page)
            jet_page_unpin(s->db->pf, s->ovf_page);
        s->ovf_page = pg;
        s->row_pgno = target;
        if (pg[0] != 0x01)
            return jet_fail(&s->err, JET_ECORRUPT, target,
                            "overflow row points at page %u of type 0x%02x",
                            target, pg[0]);
        rc = jet_row_bounds(s->db->fmt, pg, target, rowno, &st, &en, &fl,
                            &s->err);
        if (rc != JET_OK)
            return rc;
        if (en <= st)
            return jet_fail(&s->err, JET_ECORRUPT, target,
                            "overflow target row %u of page %u is empty",
                            rowno, target);
        if (!(fl & ROW_OVERFLOW)) {
            *row = pg + st;
            *row_len = (size_t)(en - st);
            return JET_OK;
        }
        ptr = pg + st;
        len = (size_t)(en - st);
    }
}

/* jet_row_parse of a Jet 4 / ACE row in the shape every scanned row has
 * (2-byte column count, null mask and var-offset table inside the row),
 * in line: true when s->row is parsed, false when jet_row_parse must
 * decide (Jet 3, or any check failing: it names the damage). */
static inline bool parse_jet4_row(jet_scan *s, const uint8_t *row,
                                  size_t len)
{
    if (s->db->fmt->jet3 || len < 3)
        return false;
    jet_row *r = &s->row;
    uint16_t ncols = jet_get_u16(row);
    size_t nm = ((size_t)ncols + 7) / 8;
    if (nm + 2 > len)
        return false;
    size_t nvar = 0;
    if (s->t->num_var_cols > 0) {
        if (len < nm + 4)
            return false;
        size_t pos = len - nm - 2;
        nvar = jet_get_u16(row + pos);
        if (nvar + 1 > JET_MAX_VAR_OFFSETS || (nvar + 1) * 2 + 2 > pos)
            return false;
        for (size_t i = 0; i <= nvar; i++)
            s->var_buf[i] = jet_get_u16(row + pos - 2 * (i + 1));
    }
    r->data = row;
    r->len = len;
    r->ncols = ncols;
    r->null_mask_len = nm;
    r->null_mask = row + len - nm;
    r->nvar = (uint16_t)nvar;
    r->var_off = s->var_buf;
    return true;
}

/* Make slot rowno of the pinned page s->page the current row: JET_OK,
 * JET_DONE for a deleted slot, or an error. */
static jet_rc load_row(jet_scan *s, uint16_t rowno)
{
    const jet_format *f = s->db->fmt;
    uint16_t st, en, fl;
    const uint8_t *row;
    size_t len;
    jet_rc rc;

    /* The page passed check_data_page (its row table fits) and rowno is
     * below its row count: the bounds of a live row in the usual shape
     * are read here; anything else (deleted, bad bounds) goes through
     * jet_row_bounds, which also names the damage. */
    const uint8_t *tab = s->page + f->data_row_table;
    uint16_t raw = jet_get_u16(tab + 2 * (size_t)rowno);
    st = raw & 0x1FFF;
    en = rowno == 0 ? (uint16_t)f->page_size
                    : (uint16_t)(jet_get_u16(tab + 2 * (size_t)rowno - 2) &
                                 0x1FFF);
    fl = raw & (ROW_DELETED | ROW_OVERFLOW);
    if (fl & ROW_DELETED)
        return JET_DONE;
    if (st < f->data_row_table + 2 * (uint32_t)s->nrows || st > en ||
        en > f->page_size) {
        rc = jet_row_bounds(f, s->page, s->pgno, rowno, &st, &en, &fl,
                            &s->err);
        if (rc != JET_OK)
            return rc;
    }
    if (fl & ROW_DELETED)
        return JET_DONE;
    row = s->page + st;
    len = (size_t)(en - st);
    s->row_pgno = s->pgno;
    if (fl & ROW_OVERFLOW) {
        rc = follow_overflow(s, row, len, &row, &len);
        if (rc != JET_OK)
            return rc;
    }
    if (!parse_jet4_row(s, row, len)) {
        rc = jet_row_parse(&s->row, f, row, len, s->t->num_var_cols > 0,
                           s->var_buf, JET_MAX_VAR_OFFSETS, s->row_pgno,
                           &s->err);
        if (rc != JET_OK)
            return rc;
    }
    s->cur_rowno = rowno;
    s->has_row = true;
    return JET_OK;
}

/* Pin the next page of the owned list (read ahead first) as the
 * current page, at its first slot: JET_OK, JET_DONE past the last, or an
 * error. */
static jet_rc next_page(jet_scan *s)
{
    uint32_t pgno;
    jet_rc rc;
    if (s->page_idx >= s->t->owned.count)
        return JET_DONE;
    pgno = s->t->owned.pgnos[s->page_idx];
    rc = check_interrupt(s, pgno);
    if (rc != JET_OK)
        return rc;
    if (s->ra_window == 0)
        s->ra_window = RA_FIRST;
    if (jet_pagefile_read_ahead(s->db->pf, s->t->owned.pgnos + s->page_idx,
                                s->t->owned.count - s->page_idx,
                                s->ra_window) > 0 &&
        s->ra_window < RA_MAX)
        s->ra_window *= 2;
    s->page_idx++;
    rc = enter_data_page(s, pgno);
    if (rc != JET_OK)
        return rc;
    s->rowno = 0;
    return JET_OK;
}

/* After pages changed (jet_pagefile_changes moved): pin the current
 * page again as it is now (dropped when it is no longer one of the
 * table's data pages), and point page_idx past it in the owned list as
 * it is now; the row slot stays. */
static void resync(jet_scan *s)
{
    const jet_pglist *l = &s->t->owned;
    s->changes = *s->changes_at;
    s->sel_valid = false;
    if (s->page) {
        uint32_t pgno = s->pgno;
        unpin_data_page(s);
        if (pgno < jet_pagefile_page_count(s->db->pf) &&
            enter_data_page(s, pgno) != JET_OK) {
            /* freed or reused since: its rows are gone */
            jet_error_clear(&s->err);
            s->page = NULL;
        }
        s->pgno = pgno;
    }
    if (s->page_idx > 0) {
        size_t lo = 0, hi = l->count;
        while (lo < hi) {        /* first page after s->pgno */
            size_t mid = lo + (hi - lo) / 2;
            if (l->pgnos[mid] <= s->pgno)
                lo = mid + 1;
            else
                hi = mid;
        }
        s->page_idx = lo;
    }
}

/* What test_row reads of the current page, taken once per page. */
typedef struct page_view {
    const uint8_t *page, *tab;  /* the page; its row offset table */
    uint32_t st_min;            /* lowest start of a row: past the table */
    uint32_t size;              /* page size */
    bool jet3;                  /* Jet 3 rows: every test undecided */
} page_view;

static inline page_view view_of(const jet_scan *s)
{
    const jet_format *f = s->db->fmt;
    page_view v = { s->page, s->page + f->data_row_table,
                    f->data_row_table + 2 * (uint32_t)s->nrows,
                    f->page_size, f->jet3 };
    return v;
}

/* Tests t[0..n-1] (jet_scan_next_where) on slot rowno of the page of
 * pv, before anything parses the row: 1 every test passed, 0 a test
 * failed (or the slot is deleted) before any was undecided, -1 undecided
 * (the row goes through load_row and its caller judges it). Checks what
 * load_row and parse_jet4_row check first. The verdict on a value is
 * computed without a branch (a filter that passes some rows cannot be
 * predicted); NULLs, damage and odd layouts branch. */
static inline __attribute__((always_inline)) int
test_row(const page_view *pv, uint16_t rowno, const jet_cell_test *t,
         size_t n)
{
    uint16_t raw = jet_get_u16(pv->tab + 2 * (size_t)rowno);
    uint32_t st = raw & 0x1FFFu;
    uint32_t en = rowno == 0
                      ? pv->size
                      : jet_get_u16(pv->tab + 2 * (size_t)rowno - 2) & 0x1FFFu;
    if (raw & (ROW_DELETED | ROW_OVERFLOW))
        return (raw & ROW_DELETED) ? 0 : -1;
    if (st < pv->st_min || st + 3 > en || en > pv->size || pv->jet3)
        return -1;
    const uint8_t *row = pv->page + st;
    uint32_t len = en - st;
    uint32_t ncols = jet_get_u16(row);
    uint32_t nm = (ncols + 7) / 8;
    if (nm + 2 > len)
        return -1;
    const uint8_t *mask = row + len - nm;
    uint32_t fixed = len - nm;
    for (size_t i = 0; i < n; i++, t++) {
        uint32_t c = t->loc.col_num;
        if (c >= ncols || !((mask[c >> 3] >> (c & 7)) & 1))
            return 0;
        bool in;
        if (t->kind == JET_TEST_TEXT) {
            /* the cell as parse_jet4_row and jet_row_cell find it: the
             * var offsets before the var count, before the null mask */
            if (len < nm + 4)
                return -1;
            uint32_t pos = len - nm - 2, nvar = jet_get_u16(row + pos);
            uint32_t vi = t->loc.var_index;
            if (nvar + 1 > JET_MAX_VAR_OFFSETS || (nvar + 1) * 2 + 2 > pos)
                return -1;
            if (vi >= nvar)
                return 0;           /* column added after this row */
            uint32_t vs = jet_get_u16(row + pos - 2 * (vi + 1));
            uint32_t ve = jet_get_u16(row + pos - 2 * (vi + 2));
            if (vs < t->loc.var_min || vs > ve || ve > len)
                return -1;
            int k;
            if (t->head) {
                uint16_t h[JET_TEXT_HEAD_MAX];
                if (!jet_text_head(row + vs, ve - vs, t->head, h))
                    return -1;
                k = t->head == 1
                        ? jet_text_known_find_char(t->known, h[0])
                        : jet_text_known_find(t->known, (const uint8_t *)h,
                                              2 * (size_t)t->head);
            } else {
                k = jet_text_known_find(t->known, row + vs, ve - vs);
            }
            if (k < 0)
                return -1;
            in = k;
            if (i + 1 == n)
                return in;
            if (!in)
                return 0;
            continue;
        }
        if ((uint32_t)t->loc.off + t->loc.width > fixed)
            return -1;
        const uint8_t *p = row + t->loc.off;
        if (t->kind == JET_TEST_INT) {
            int64_t x = jet_cell_int(p, t->loc.width);
            in = ((x >= t->lo) & (x <= t->hi)) != t->negated;
        } else {
            double x = jet_cell_double(p);
            if (x != x || (t->kind == JET_TEST_DOUBLE_NONNEG && x < 0))
                return -1;
            in = (x >= t->dlo) & (x <= t->dhi);
        }
        if (i + 1 == n)
            return in;
        if (!in)
            return 0;
    }
    return 1;
}

/* The end of slot `from` of pv: the page's end for slot 0, else the
 * start of the slot before (select_int1, select_text1 carry it on). */
static inline uint32_t slot_end(const page_view *pv, uint16_t from)
{
    return from == 0 ? pv->size
                     : jet_get_u16(pv->tab + 2 * (size_t)from - 2) & 0x1FFFu;
}

/* Slot r of pv whose end is *en, as test_row meets it: 1 with *row and
 * *len for a live row in the usual shape, else its verdict (0 deleted,
 * -1 overflow or odd bounds); *en becomes the next slot's end. */
static inline __attribute__((always_inline)) int
slot_row(const page_view *pv, uint16_t r, uint32_t *en, const uint8_t **row,
         uint32_t *len)
{
    uint16_t raw = jet_get_u16(pv->tab + 2 * (size_t)r);
    uint32_t st = raw & 0x1FFFu, e = *en;
    *en = st;
    if (!(raw & (ROW_DELETED | ROW_OVERFLOW)) && st >= pv->st_min &&
        st + 3 <= e && e <= pv->size) {
        *row = pv->page + st;
        *len = e - st;
        return 1;
    }
    return (raw & ROW_DELETED) ? 0 : -1;
}

/* select_rows for tests t[0..n-1] of a Jet 4 page whose first is a
 * JET_TEST_INT of a cell w bytes wide (a constant where inlined):
 * test_row's verdicts for slots from..nrows-1 into sel, the first test's
 * fields held in locals and each slot's end taken from the slot before;
 * a row it passes is judged on the others by test_row. The count kept. */
static inline __attribute__((always_inline)) uint16_t
select_int1(const page_view *pv, uint16_t from, uint16_t nrows,
            const jet_cell_test *t, size_t n, uint32_t w, uint16_t *sel)
{
    const uint32_t col = t->loc.col_num, off = t->loc.off;
    const uint32_t byte = col >> 3, bit = col & 7;
    const int64_t lo = t->lo, hi = t->hi;
    const bool neg = t->negated;
    uint16_t k = 0;
    uint32_t en = slot_end(pv, from);
    for (uint16_t r = from; r < nrows; r++) {
        const uint8_t *row = NULL;
        uint32_t len = 0;
        int v = slot_row(pv, r, &en, &row, &len);
        if (v > 0) {
            uint32_t ncols = jet_get_u16(row), nm = (ncols + 7) / 8;
            /* the cell and the null mask in the row (off >= 2: past the
             * column count, so nm + 2 <= len as parse_jet4_row wants) */
            if (off + w + nm > len) {
                v = -1;
            } else if (col >= ncols || !((row[len - nm + byte] >> bit) & 1)) {
                v = 0;
            } else {
                int64_t x = jet_cell_int(row + off, w);
                v = ((x >= lo) & (x <= hi)) != neg;
                if (n > 1 && v)
                    v = test_row(pv, r, t + 1, n - 1);
            }
        }
        sel[k] = (uint16_t)(r | (v < 0 ? SEL_UNDECIDED : 0));
        k = (uint16_t)(k + (v != 0));
    }
    return k;
}

/* select_rows for tests t[0..n-1] of a Jet 4 page whose first is a
 * JET_TEST_TEXT: test_row's verdicts for slots from..nrows-1 into sel,
 * each slot's end taken from the slot before; a row the first test
 * passes is judged on the others by test_row. The count kept. */
static uint16_t select_text1(const page_view *pv, uint16_t from,
                             uint16_t nrows, const jet_cell_test *t,
                             size_t n, uint16_t *sel)
{
    const uint32_t col = t->loc.col_num, byte = col >> 3, bit = col & 7;
    const uint32_t vi = t->loc.var_index, vmin = t->loc.var_min;
    const size_t head = t->head;
    uint16_t k = 0;
    uint32_t en = slot_end(pv, from);
    for (uint16_t r = from; r < nrows; r++) {
        const uint8_t *row = NULL;
        uint32_t len = 0;
        int v = slot_row(pv, r, &en, &row, &len);
        if (v > 0) {
            /* as test_row's JET_TEST_TEXT */
            uint32_t ncols = jet_get_u16(row), nm = (ncols + 7) / 8;
            v = -1;
            if (nm + 4 > len) {
                /* undecided */
            } else if (col >= ncols || !((row[len - nm + byte] >> bit) & 1)) {
                v = 0;
            } else {
                uint32_t pos = len - nm - 2, nvar = jet_get_u16(row + pos);
                if (nvar + 1 > JET_MAX_VAR_OFFSETS ||
                    (nvar + 1) * 2 + 2 > pos) {
                    /* undecided */
                } else if (vi >= nvar) {
                    v = 0;          /* column added after this row */
                } else {
                    uint32_t vs = jet_get_u16(row + pos - 2 * (vi + 1));
                    uint32_t ve = jet_get_u16(row + pos - 2 * (vi + 2));
                    if (vs >= vmin && vs <= ve && ve <= len) {
                        uint16_t h[JET_TEXT_HEAD_MAX];
                        if (head == 1) {
                            if (jet_text_head(row + vs, ve - vs, 1, h))
                                v = jet_text_known_find_char(t->known,
                                                             h[0]);
                        } else if (head) {
                            if (jet_text_head(row + vs, ve - vs, head, h))
                                v = jet_text_known_find(
                                    t->known, (const uint8_t *)h, 2 * head);
                        } else {
                            v = jet_text_known_find(t->known, row + vs,
                                                    ve - vs);
                        }
                        if (n > 1 && v > 0)
                            v = test_row(pv, r, t + 1, n - 1);
                    }
                }
            }
        }
        sel[k] = (uint16_t)(r | (v < 0 ? SEL_UNDECIDED : 0));
        k = (uint16_t)(k + (v != 0));
    }
    return k;
}

/* The selection (jet_scan.sel) of the current page's slots from rowno
 * on for tests t[0..n-1]: each slot's verdict appended without a branch
 * on it. A first test on an integer of a Jet 4 page (a filter's usual
 * shape) takes a loop of its own for its cell's width. */
static void select_rows(jet_scan *s, const jet_cell_test *t, size_t n)
{
    page_view pv = view_of(s);
    uint16_t k = 0, nrows = s->nrows;
    if (t->kind == JET_TEST_INT && t->loc.off >= 2 && !pv.jet3) {
        uint16_t r0 = s->rowno, *sel = s->sel;
        switch (t->loc.width) {
        case 1: k = select_int1(&pv, r0, nrows, t, n, 1, sel); break;
        case 2: k = select_int1(&pv, r0, nrows, t, n, 2, sel); break;
        case 4: k = select_int1(&pv, r0, nrows, t, n, 4, sel); break;
        default: k = select_int1(&pv, r0, nrows, t, n, 8, sel); break;
        }
    } else if (t->kind == JET_TEST_TEXT && !pv.jet3) {
        k = select_text1(&pv, s->rowno, nrows, t, n, s->sel);
    } else {
        for (uint16_t r = s->rowno; r < nrows; r++) {
            int v = test_row(&pv, r, t, n);
            s->sel[k] = (uint16_t)(r | (v < 0 ? SEL_UNDECIDED : 0));
            k = (uint16_t)(k + (v != 0));
        }
    }
    s->sel_i = 0;
    s->sel_n = k;
    s->sel_tests = t;
    s->sel_ntests = n;
    s->sel_valid = true;
}

jet_rc jet_scan_next_where(jet_scan *s, const jet_cell_test *tests,
                           size_t n, bool *decided)
{
    jet_rc rc;

    *decided = true;
    if (n == 0)
        return jet_scan_next(s);
    release_row(s);
    if (s->changes != *s->changes_at)
        resync(s);
    for (;;) {
        if (!s->page) {
            rc = next_page(s);
            if (rc != JET_OK)
                return rc;
        }
        if (!s->sel_valid || s->sel_tests != tests || s->sel_ntests != n)
            select_rows(s, tests, n);
        while (s->sel_i < s->sel_n) {
            uint16_t e = s->sel[s->sel_i++];
            uint16_t r = (uint16_t)(e & ~SEL_UNDECIDED);
            s->rowno = (uint16_t)(r + 1);
            rc = load_row(s, r);
            if (rc == JET_DONE)
                continue;   /* deleted slot */
            *decided = !(e & SEL_UNDECIDED);
            return rc;
        }
        s->rowno = s->nrows;
        unpin_data_page(s);
        s->sel_valid = false;
    }
}

jet_rc jet_scan_count_where(jet_scan *s, const jet_cell_test *tests,
                            size_t n, uint64_t *count)
{
    jet_rc rc;

    release_row(s);
    if (s->changes != *s->changes_at)
        resync(s);
    for (;;) {
        if (!s->page) {
            rc = next_page(s);
            if (rc != JET_OK)
                return rc;
        }
        s->sel_valid = false;
        page_view pv = view_of(s);
        uint64_t k = 0;
        uint16_t r = s->rowno, nrows = s->nrows;
        for (; r < nrows; r++) {
            int v = test_row(&pv, r, tests, n);
            if (v < 0)
                break;
            k += (uint64_t)v;
        }
        *count += k;
        s->rowno = r;
        if (r < nrows) {        /* undecided: the caller judges it */
            s->rowno = (uint16_t)(r + 1);
            rc = load_row(s, r);
            if (rc == JET_DONE)
                continue;       /* deleted slot */
            return rc;
        }
        unpin_data_page(s);
    }
}

jet_rc jet_scan_next(jet_scan *s)
{
    jet_rc rc;

    s->sel_valid = false;
    release_row(s);
    if (s->changes != *s->changes_at)
        resync(s);
    for (;;) {
        if (!s->page) {
            rc = next_page(s);
            if (rc != JET_OK)
                return rc;
        }
        while (s->rowno < s->nrows) {
            rc = load_row(s, s->rowno++);
            if (rc == JET_DONE)
                continue;   /* deleted slot */
            return rc;
        }
        unpin_data_page(s);
    }
}

/* The column kinds a scan meets most, decoded in line: a stored (not
 * calculated) fixed scalar, or in-row text, as the TDEF's fast-path table
 * (jet_col_fast, built by jet_tdef_read) says. 1 = done, 0 = not this case
 * (jet_value_decode decides, with the same result), never an error: a
 * span that leaves the row goes to jet_value_decode too, which names it. */
static inline int decode_common(jet_scan *s, uint16_t col, jet_value *out)
{
    const jet_col_fast *k = s->t->fast ? &s->t->fast[col] : NULL;
    if (!k || k->path == JET_CP_GENERAL)
        return 0;
    const jet_column *c = &s->t->cols[col];
    const jet_row *r = &s->row;
    bool bit = c->col_num < r->ncols &&
               ((r->null_mask[c->col_num >> 3] >> (c->col_num & 7)) & 1);
    out->type = c->type;
    out->enc = 0;
    out->data = NULL;
    out->len = 0;
    memset(&out->u, 0, sizeof out->u);
    if (!bit) {
        out->is_null = true;
        return 1;
    }
    out->is_null = false;
    if (k->path == JET_CP_VAR_TEXT) {
        if (c->var_index >= r->nvar) {
            out->is_null = true;   /* column added after this row */
            return 1;
        }
        uint16_t st = r->var_off[c->var_index];
        uint16_t en = r->var_off[c->var_index + 1];
        if (st < s->db->fmt->row_count_size || st > en || en > r->len)
            return 0;
        const uint8_t *d = r->data + st;
        size_t n = (size_t)(en - st);
        out->data = d;
        out->len = n;
        out->enc = s->db->fmt->jet3 ? JET_ENC_CODEPAGE
                   : n >= 2 && d[0] == 0xFF && d[1] == 0xFE
                       ? JET_ENC_COMPRESSED : JET_ENC_UCS2;
        return 1;
    }
    if (!jet_span_ok(r->len - r->null_mask_len, k->off, k->width))
        return 0;
    const uint8_t *d = r->data + k->off;
    switch (k->width) {
    case 4: out->u.i = (int32_t)jet_get_u32(d); break;
    case 2: out->u.i = (int16_t)jet_get_u16(d); break;
    case 1: out->u.i = d[0]; break;
    default: {  /* 8: DOUBLE and DATETIME bits, MONEY and BIGINT */
        uint64_t bits = jet_get_u64(d);
        memcpy(&out->u, &bits, 8);
        break;
    }
    }
    return 1;
}

jet_rc jet_scan_refresh(jet_scan *s, bool *reloaded)
{
    if (reloaded)
        *reloaded = false;
    if (!s->has_row)
        return jet_fail(&s->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "no current row");
    if (s->changes == *s->changes_at)
        return JET_OK;
    uint16_t rowno = s->cur_rowno;
    uint32_t pgno = s->pgno;
    if (reloaded)
        *reloaded = true;
    release_row(s);
    resync(s);
    if (!s->page)
        return jet_fail(&s->err, JET_ENOTFOUND, pgno, "row %u of page %u "
                        "was deleted", rowno, pgno);
    s->nrows = jet_page_row_count(s->db->fmt, s->page);
    jet_rc rc = rowno < s->nrows ? load_row(s, rowno) : JET_DONE;
    if (rc == JET_DONE)
        return jet_fail(&s->err, JET_ENOTFOUND, pgno, "row %u of page %u "
                        "was deleted", rowno, pgno);
    return rc;
}

jet_rc jet_scan_value(jet_scan *s, uint16_t col, jet_value *out)
{
    if (!s->has_row)
        return jet_fail(&s->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "no current row");
    if (s->changes != *s->changes_at) {
        jet_rc rc = jet_scan_refresh(s, NULL);
        if (rc != JET_OK)
            return rc;
    }
    if (col >= s->t->pub.ncols)
        return jet_fail(&s->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "column %u of %u", col, s->t->pub.ncols);
    if (decode_common(s, col, out))
        return JET_OK;
    return jet_value_decode(out, s->db, &s->row, &s->t->cols[col],
                            &s->scratch, s->row_pgno, &s->err);
}

void jet_scan_cell_loc(const jet_scan *s, uint16_t col, jet_cell_loc *loc)
{
    memset(loc, 0, sizeof *loc);
    if (col >= s->t->pub.ncols || !s->t->fast)
        return;
    const jet_col_fast *k = &s->t->fast[col];
    const jet_column *c = &s->t->cols[col];
    loc->col_num = c->col_num;
    if (k->path == JET_CP_FIXED) {
        loc->kind = JET_CELL_FIXED;
        loc->width = k->width;
        loc->off = k->off;
    } else if (k->path == JET_CP_VAR_TEXT && !s->db->fmt->jet3) {
        loc->kind = JET_CELL_TEXT;
        loc->var_index = c->var_index;
        loc->var_min = s->db->fmt->row_count_size;
    }
}

const jet_row *jet_scan_row(const jet_scan *s)
{
    return &s->row;
}

jet_rc jet_scan_fetch_row(jet_scan *s, uint32_t pgno, uint16_t row)
{
    jet_rc rc;

    if (pgno != s->pgno || !s->page) {   /* a page boundary */
        rc = check_interrupt(s, pgno);
        if (rc != JET_OK)
            return rc;
    }
    release_page(s);
    s->changes = *s->changes_at;
    rc = enter_data_page(s, pgno);
    if (rc != JET_OK)
        return rc;
    s->rowno = (uint16_t)(row + 1);
    if (row >= s->nrows)
        return jet_fail(&s->err, JET_ECORRUPT, pgno,
                        "row %u past the %u rows of page %u", row, s->nrows,
                        pgno);
    rc = load_row(s, row);
    if (rc == JET_DONE)
        return jet_fail(&s->err, JET_ENOTFOUND, pgno,
                        "row %u of page %u is deleted", row, pgno);
    return rc;
}

jet_rc jet_scan_position(const jet_scan *s, uint32_t *pgno, uint16_t *row)
{
    if (!s->has_row)
        return JET_ENOTFOUND;
    *pgno = s->pgno;
    *row = s->cur_rowno;
    return JET_OK;
}
