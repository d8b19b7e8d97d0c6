/*
 * tablewrite.c - write transactions and statement savepoints of a db, and
 * the table write path (write.h): rows inserted, updated and deleted on
 * data pages, the TDEF's live state (row count, AutoNumber), index entries
 * through indexwrite.c, long values through lvalwrite.c (stored once the
 * row's other cells tell how much room is left; freed on delete and when
 * an update changes them). Page allocation and usage maps: pagealloc.c.
 *
 * Rows (Jet4/ACE): a new row goes to the last insert's page, else to a
 * page this connection deleted rows on (jet_db.room_pages), else to the
 * table's last owned data page that the free-space map lists, when it
 * fits there: appended below the lowest row (the row and its 2-byte
 * offset entry, at most JET_MAX_ROWS_PER_PAGE rows), or, when only the
 * bytes of deleted rows make room, after the page's row area is compacted
 * as Access does it (deleted rows keep their slot with no bytes; the
 * first such slot takes the row: jet_data_page_insert_compact). A page
 * that takes no more leaves the free-space map; with no page found a new
 * data page is started (owned and free-space maps). A row that grows in
 * an update moves to a page with room, flagged deleted there, and its old
 * slot becomes an overflow pointer to it, so its rowid stays. A delete
 * sets the deleted and overflow flags of the row's slot and puts its page
 * back in the free-space map (its bytes come back at the next compaction
 * of the page). Everything goes through the pager, so a rollback puts
 * the pages back. Format: Jackcess TableImpl (addRows, findFreeRowSpace,
 * updateRow, deleteRow, updateTableDefinition); Access's own pages for
 * the compaction (deleted rows of 0 bytes).
 *
 * AutoNumber: the TDEF holds the last LONG AutoNumber handed out (Jet4
 * offset 20; Jackcess _lastLongAutoNumber). This connection keeps its own
 * high-water mark per table (jet_tdef_priv.auto_last), so a number handed
 * out and rolled back is never handed out again, as Access does.
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "os.h"
#include "pagealloc.h"
#include "write.h"

/* Jet4/ACE TDEF offset of the last LONG AutoNumber (Jackcess
 * OFFSET_NEXT_AUTO_NUMBER) */
#define TDEF_AUTO_NUMBER 20
/* the AutoNumber's increment (COUNTER(seed, increment); 1 otherwise) */
#define TDEF_AUTO_INCREMENT 24
/* ACE TDEF offset of the last complex id (Jackcess
 * OFFSET_NEXT_COMPLEX_AUTO_NUMBER; Jet4 has none) */
#define TDEF_COMPLEX_NUMBER 28
/* owned data pages looked at (from the last) for one with room */
#define FIND_PAGE_TRIES 64
/* a MEMO/OLE cell not stored yet: its length in the row until it is (the
 * long-value header) */
#define LONG_PENDING 12

/* ----------------------------------------------------------- transactions */

/* After pages were put back (rollback): the owned lists this connection
 * changed follow the maps again, and insert hints are forgotten. */
static void live_state_reload(jet_db *db, bool end)
{
    if (!db->tdefs)
        return;
    for (size_t i = 0; i < db->nobjects; i++) {
        jet_tdef_priv *t = db->tdefs[i];
        if (!t)
            continue;
        t->ins_pgno = 0;
        if (t->owned_changed) {
            jet_error e;
            jet_error_clear(&e);
            (void)jet_tdef_reload_owned(db, t, &e);
            if (end)
                t->owned_changed = false;
        }
    }
}

static void live_state_commit(jet_db *db)
{
    if (!db->tdefs)
        return;
    for (size_t i = 0; i < db->nobjects; i++)
        if (db->tdefs[i]) {
            db->tdefs[i]->owned_changed = false;
            db->tdefs[i]->ins_pgno = 0;
        }
}

jet_rc jet_db_live_refresh(jet_db *db)
{
    if (jet_pagefile_drops(db->pf) == db->live_drops || !db->tdefs)
        return JET_OK;
    for (size_t i = 0; i < db->nobjects; i++) {
        jet_tdef_priv *t = db->tdefs[i];
        const uint8_t *pg;
        jet_rc rc;
        if (!t || (t->owner && t->owner != db))
            continue;           /* not loaded, or another file's */
        t->ins_pgno = 0;
        if ((rc = jet_tdef_reload_owned(db, t, &db->err)) != JET_OK)
            return rc;
        if (t->auto_known) {
            /* another writer may have handed out higher numbers */
            if ((rc = jet_page_pin(db->pf, t->pub.pgno, &pg, &db->err)) !=
                JET_OK)
                return rc;
            int64_t last = (int32_t)jet_get_u32(pg + TDEF_AUTO_NUMBER);
            jet_page_unpin(db->pf, pg);
            if (last > t->auto_last)
                t->auto_last = last;
        }
        if (t->complex_known) {
            if ((rc = jet_page_pin(db->pf, t->pub.pgno, &pg, &db->err)) !=
                JET_OK)
                return rc;
            int64_t last = (int32_t)jet_get_u32(pg + TDEF_COMPLEX_NUMBER);
            jet_page_unpin(db->pf, pg);
            if (last > t->complex_last)
                t->complex_last = last;
        }
    }
    db->live_drops = jet_pagefile_drops(db->pf);
    return JET_OK;
}

jet_rc jet_db_write_begin(jet_db *db)
{
    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EREADONLY, JET_NO_PGNO,
                        "Access 97 files are read-only");
    jet_rc rc = jet_pager_begin(db->pf, &db->err);
    if (rc == JET_EUNSUPPORTED)
        db->err.rc = rc = JET_EREADONLY;
    if (rc == JET_OK)
        rc = jet_lockfile_enter(db);    /* Access has it open? */
    if (rc == JET_OK && (rc = jet_db_live_refresh(db)) != JET_OK)
        (void)jet_pager_rollback(db->pf, NULL);
    return rc;
}

jet_rc jet_db_write_commit(jet_db *db)
{
    jet_rc rc = jet_pager_commit(db->pf, &db->err);
    if (rc == JET_OK) {
        live_state_commit(db);
    } else {
        live_state_reload(db, true);
        jet_ddl_after_rollback(db);
    }
    jet_ddl_end(db);
    return rc;
}

jet_rc jet_db_write_rollback(jet_db *db)
{
    if (!jet_db_in_write(db))
        return JET_OK;
    jet_rc rc = jet_pager_rollback(db->pf, &db->err);
    live_state_reload(db, true);
    jet_ddl_after_rollback(db);
    jet_ddl_end(db);
    return rc;
}

bool jet_db_in_write(const jet_db *db)
{
    jet_pager_state st = jet_pager_state_of(db->pf);
    return st == JET_PAGER_WRITER_LOCKED || st == JET_PAGER_WRITER_DIRTY ||
           st == JET_PAGER_WRITER_DBMOD;
}

jet_rc jet_db_savepoint(jet_db *db, jet_savepoint *sp)
{
    uint32_t level;
    jet_rc rc = jet_pager_savepoint(db->pf, &level, &db->err);
    if (rc == JET_OK)
        *sp = level;
    return rc;
}

jet_rc jet_db_rollback_to(jet_db *db, jet_savepoint sp)
{
    jet_rc rc = jet_pager_rollback_to(db->pf, sp, &db->err);
    live_state_reload(db, false);
    jet_ddl_after_rollback(db);
    return rc;
}

void jet_db_release(jet_db *db, jet_savepoint sp)
{
    jet_pager_release(db->pf, sp);
}

/* ------------------------------------------------------------- helpers */

static jet_rc need_write(jet_db *db)
{
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "no write transaction (jet_db_write_begin)");
    return JET_OK;
}

/* Bytes for the encoded cells of one row: enough for every column's
 * largest in-row form (text 2 * 255 + 2, long value header + inline).
 * A table of up to WORK_SMALL_COLS columns (and text of up to
 * WORK_UNITS_SMALL characters) needs no allocation: a loader's rows cost
 * no malloc here. */
#define WORK_CELL_MAX 600
#define WORK_SMALL_COLS 8
#define WORK_UNITS_SMALL 256

typedef struct row_work {
    jet_cell *cells;
    uint8_t *arena;
    size_t used, cap;
    uint16_t *units;        /* text as aligned UTF-16 units: work_units */
    size_t units_cap;
    uint8_t row[JET_MAX_ROW_LEN + 64];
    size_t row_len;
    jet_cell cells_small[WORK_SMALL_COLS];
    uint8_t arena_small[WORK_SMALL_COLS * WORK_CELL_MAX + 64];
    uint16_t units_small[WORK_UNITS_SMALL];
} row_work;

static jet_rc work_init(jet_db *db, const jet_tdef *t, row_work *w)
{
    size_t nc = t->ncols ? t->ncols : 1, big = 0;
    /* a column wider than WORK_CELL_MAX (a system table's BINARY of
     * 3,992 bytes: MSysAccessObjects.Data) gets its whole width */
    for (uint16_t i = 0; i < t->ncols; i++)
        if ((size_t)t->cols[i].length + 2 > WORK_CELL_MAX)
            big += (size_t)t->cols[i].length + 2;
    w->used = 0;
    w->row_len = 0;
    w->cap = (size_t)t->ncols * WORK_CELL_MAX + big + 64;
    w->units = w->units_small;
    w->units_cap = WORK_UNITS_SMALL;
    if (nc <= WORK_SMALL_COLS && !big) {
        w->cells = w->cells_small;
        memset(w->cells, 0, nc * sizeof *w->cells);
        w->arena = w->arena_small;
        return JET_OK;
    }
    w->cells = jet_calloc(nc, sizeof *w->cells);
    w->arena = jet_malloc(w->cap);
    if (!w->cells || !w->arena) {
        jet_free(w->cells);
        jet_free(w->arena);
        w->cells = w->cells_small;      /* work_free frees nothing */
        w->arena = w->arena_small;
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    return JET_OK;
}

static void work_free(row_work *w)
{
    if (w->cells != w->cells_small)
        jet_free(w->cells);
    if (w->arena != w->arena_small)
        jet_free(w->arena);
    if (w->units != w->units_small)
        jet_free(w->units);
}

/* w->units with room for n units (at least 4096 once allocated), or
 * NULL when memory ran out. */
static uint16_t *work_units(row_work *w, size_t n)
{
    if (n <= w->units_cap)
        return w->units;
    size_t cap = n > 4096 ? n : 4096;
    uint16_t *u = jet_malloc(cap * sizeof *u);
    if (!u)
        return NULL;
    if (w->units != w->units_small)
        jet_free(w->units);
    w->units = u;
    w->units_cap = cap;
    return u;
}

static uint8_t *arena_take(row_work *w, size_t n)
{
    if (n > w->cap - w->used)
        return NULL;
    uint8_t *p = w->arena + w->used;
    w->used += n;
    return p;
}

/* Whether column col keeps its value on LVAL pages: MEMO and OLE, and a
 * calculated column of a MEMO result (its TDEF type says TEXT). */
static bool holds_lval(const jet_column *col)
{
    jet_type ty = (col->flags & JET_COL_CALCULATED) ? col->result_type
                                                    : col->type;
    return ty == JET_T_MEMO || ty == JET_T_OLE;
}

/* col as lvalwrite.c takes it: a calculated MEMO as a MEMO column. */
static jet_column lval_column(const jet_column *col)
{
    jet_column c = *col;
    if (col->flags & JET_COL_CALCULATED)
        c.type = col->result_type;
    return c;
}

/* Whether t has a calculated column. */
/* Whether t has a fixed-length TEXT column. */
static bool has_fixed_text(const jet_tdef *t)
{
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_TEXT &&
            (t->cols[i].flags & JET_COL_FIXED))
            return true;
    return false;
}

/* The values of vals' fixed-length TEXT columns as stored (padded with
 * spaces, UTF-16LE): pointed at their encoded cells, so that index keys,
 * rules and relationships see what the row holds. */
static void fixed_text_as_stored(const jet_tdef *t, const row_work *w,
                                 jet_value *vals)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_cell *c = &w->cells[i];
        if (t->cols[i].type != JET_T_TEXT ||
            !(t->cols[i].flags & JET_COL_FIXED) || vals[i].is_null ||
            c->is_null || !c->data)
            continue;
        vals[i].enc = JET_ENC_UCS2;
        vals[i].data = c->data;
        vals[i].len = c->len;
    }
}

static bool has_calculated(const jet_tdef *t)
{
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].flags & JET_COL_CALCULATED)
            return true;
    return false;
}

/* The cells of t's calculated columns for row vals, whose calculated
 * values the row check computed (jet_table_row_rules): each in Access's
 * wrapper (jet_calc_value_encode); a MEMO result is left pending for
 * store_long_cells, which stores its wrapper as the long value. */
static jet_rc encode_calc_cells(jet_db *db, const jet_tdef *t,
                                const jet_value *vals, row_work *w)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        jet_cell *c = &w->cells[i];
        const jet_value *v = &vals[i];
        if (!(col->flags & JET_COL_CALCULATED))
            continue;
        memset(c, 0, sizeof *c);
        if (v->is_null) {
            c->is_null = true;
            continue;
        }
        if (v->type != col->result_type)
            return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno, "calculated "
                            "column '%s.%s': a value of type %d given for "
                            "its result type %d", t->name, col->name,
                            (int)v->type, (int)col->result_type);
        if (holds_lval(col)) {
            c->len = LONG_PENDING;
            continue;
        }
        if (v->type == JET_T_TEXT && col->length >= 23 &&
            v->len > (size_t)col->length - 23)
            return jet_fail(&db->err, JET_ETOOLONG, t->pgno, "the value "
                            "calculated for '%s.%s' is %zu characters; the "
                            "field holds %u", t->name, col->name, v->len / 2,
                            (unsigned)(col->length - 23) / 2);
        size_t cap = (v->type == JET_T_TEXT ? v->len : 16) + 23, len = 0;
        uint8_t *out = arena_take(w, cap);
        if (!out)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno, "row too long");
        jet_rc rc = jet_calc_value_encode(out, cap, &len, col, v);
        if (rc != JET_OK)
            return jet_fail(&db->err, rc, t->pgno, "calculated column "
                            "'%s.%s': the value cannot be stored (%s)",
                            t->name, col->name, rc == JET_ELIMIT
                                ? "out of range" : "unsupported type");
        c->data = out;
        c->len = len;
    }
    return JET_OK;
}

/* Read t's last LONG AutoNumber from the TDEF, the first time. */
static jet_rc auto_load(jet_db *db, jet_tdef_priv *tp)
{
    const uint8_t *pg;
    jet_rc rc;
    if (tp->auto_known)
        return JET_OK;
    rc = jet_page_pin(db->pf, tp->pub.pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    tp->auto_last = (int32_t)jet_get_u32(pg + TDEF_AUTO_NUMBER);
    tp->auto_inc = (int32_t)jet_get_u32(pg + TDEF_AUTO_INCREMENT);
    if (tp->auto_inc < 1)
        tp->auto_inc = 1;       /* 0 in no file seen; a count-down is
                                   never written here */
    jet_page_unpin(db->pf, pg);
    tp->auto_known = true;
    return JET_OK;
}

/* The next LONG AutoNumber of t: the last one plus the increment. */
static jet_rc auto_next(jet_db *db, jet_tdef_priv *tp, int64_t *out)
{
    jet_rc rc = auto_load(db, tp);
    if (rc != JET_OK)
        return rc;
    if (tp->auto_last > (int64_t)INT32_MAX - tp->auto_inc)
        return jet_fail(&db->err, JET_ELIMIT, tp->pub.pgno, "the "
                        "AutoNumber of table '%s' is at its largest",
                        tp->pub.name);
    tp->auto_last += tp->auto_inc;
    *out = tp->auto_last;
    return JET_OK;
}

/* Check one value against its column and encode it into cell c.
 * keep (update only, may be NULL): the stored cell bytes to reuse for a
 * long value whose content did not change. */
static jet_rc encode_cell(jet_db *db, const jet_tdef *t, const jet_column *col,
                          const jet_value *v, row_work *w, jet_cell *c)
{
    memset(c, 0, sizeof *c);
    if (col->type == JET_T_BOOL) {
        c->bit = !v->is_null && v->u.b;
        return JET_OK;
    }
    if (v->is_null) {
        if ((col->flags & JET_COL_REQUIRED) && !db->copying)
            return jet_fail(&db->err, JET_ECONSTRAINT, t->pgno,
                            "You must enter a value in the '%s.%s' field.",
                            t->name, col->name);
        c->is_null = true;
        return JET_OK;
    }
    if (v->type != col->type)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "column '%s.%s': a value of type %d given for "
                        "type %d (convert it first)", t->name, col->name,
                        (int)v->type, (int)col->type);
    if (col->type == JET_T_MEMO || col->type == JET_T_OLE) {
        /* stored by store_long_cells once the row's other cells are
         * known (the room left decides inline or LVAL) */
        /* UTF-16LE, or compressed Unicode as a scan reads it (an
         * UPDATE's MEMO copied from another column): both are stored
         * bytes lvalwrite.c takes */
        if (col->type == JET_T_MEMO &&
            ((v->enc != JET_ENC_UCS2 && v->enc != JET_ENC_COMPRESSED) ||
             (v->enc == JET_ENC_UCS2 && (v->len & 1))))
            return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno, "column "
                            "'%s.%s': text must be given as UTF-16LE",
                            t->name, col->name);
        c->data = NULL;
        c->len = LONG_PENDING;
        return JET_OK;
    }
    if (col->type == JET_T_TEXT) {
        size_t n = v->len / 2;
        if (v->enc == JET_ENC_COMPRESSED) {
            /* as a scan reads it (an UPDATE's unchanged or copied text):
             * decoded to units here */
            if (!work_units(w, 4096))
                return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                                "out of memory");
            jet_rc trc = jet_text_to_utf16(db, v, w->units, 4096, &n);
            if (trc != JET_OK)
                return jet_fail(&db->err, trc, t->pgno, "column '%s.%s': "
                                "the text cannot be decoded", t->name,
                                col->name);
            if (2 * n > col->length)
                return jet_fail(&db->err, JET_ETOOLONG, t->pgno, "the text "
                                "for '%s.%s' is %zu characters; the field "
                                "holds %u", t->name, col->name, n,
                                (unsigned)col->length / 2);
        } else if (v->enc != JET_ENC_UCS2 || (v->len & 1)) {
            return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno, "column "
                            "'%s.%s': text must be given as UTF-16LE",
                            t->name, col->name);
        } else if (v->len > col->length)
            return jet_fail(&db->err, JET_ETOOLONG, t->pgno, "the text for "
                            "'%s.%s' is %zu characters; the field holds %u",
                            t->name, col->name, n,
                            (unsigned)col->length / 2);
        if (v->enc == JET_ENC_UCS2 && !work_units(w, n))
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        if (v->enc == JET_ENC_UCS2)
            for (size_t k = 0; k < n; k++)
                w->units[k] = (uint16_t)(v->data[2 * k] |
                                         v->data[2 * k + 1] << 8);
        if (col->flags & JET_COL_FIXED) {
            /* fixed-length text (CHAR(n) of Access's DDL): the field's
             * size in UTF-16LE, padded with spaces, never compressed
             * (Jackcess ColumnImpl.writeFixedLengthField) */
            size_t size = col->length & ~(size_t)1;
            uint8_t *out = arena_take(w, size ? size : 1);
            if (!out)
                return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                                "row too long");
            for (size_t k = 0; 2 * k + 1 < size; k++) {
                uint16_t u = k < n ? w->units[k] : 0x20;
                out[2 * k] = (uint8_t)u;
                out[2 * k + 1] = (uint8_t)(u >> 8);
            }
            c->data = out;
            c->len = size;
            return JET_OK;
        }
        uint8_t *out = arena_take(w, 2 * n + 2);
        if (!out)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno, "row too long");
        size_t len = jet_text_encode(out, 2 * n + 2, w->units, n,
                                     (col->flags & JET_COL_COMPRESSED) != 0);
        c->data = out;
        c->len = len;
        return JET_OK;
    }
    if (col->type == JET_T_BINARY && !(col->flags & JET_COL_FIXED)) {
        if (v->len > col->length)
            return jet_fail(&db->err, JET_ETOOLONG, t->pgno, "the value for "
                            "'%s.%s' is %zu bytes; the field holds %u",
                            t->name, col->name, v->len,
                            (unsigned)col->length);
        uint8_t *out = arena_take(w, v->len ? v->len : 1);
        if (!out)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno, "row too long");
        if (v->len)
            memcpy(out, v->data, v->len);
        c->data = out;
        c->len = v->len;
        return JET_OK;
    }
    {
        size_t n = jet_fixed_size(col), len = 0;
        uint8_t *out = arena_take(w, n > 64 ? n : 64);
        jet_rc rc;
        if (!out)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno, "row too long");
        if (col->type == JET_T_BINARY && v->len > col->length)
            return jet_fail(&db->err, JET_ETOOLONG, t->pgno, "the value for "
                            "'%s.%s' is %zu bytes; the field holds %u",
                            t->name, col->name, v->len,
                            (unsigned)col->length);
        rc = jet_value_encode(out, n > 64 ? n : 64, &len, col, v);
        if (rc == JET_EUNSUPPORTED && db->copying && v->data &&
            v->len <= (n > 64 ? n : 64)) {
            /* a type the core does not know, copied (jet_db_compact):
             * its bytes as read */
            memcpy(out, v->data, v->len);
            len = v->len;
            rc = JET_OK;
        }
        if (rc != JET_OK)
            return jet_fail(&db->err, rc, t->pgno, "column '%s.%s': the "
                            "value cannot be stored (%s)", t->name,
                            col->name, rc == JET_ELIMIT
                                           ? "out of the column's range"
                                           : "unsupported type");
        c->data = out;
        c->len = len;
        return JET_OK;
    }
}

/* Store the pending MEMO/OLE cells of w (encode_cell left them) for
 * values vals: each gets the row's room left after the other cells,
 * inline or on LVAL pages (jet_lval_store). */
static jet_rc store_long_cells(jet_db *db, const jet_tdef *t,
                               const jet_value *vals, row_work *w)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    static const uint8_t dummy[LONG_PENDING];
    size_t base = 0, room;
    bool any = false;
    jet_rc rc;

    for (uint16_t i = 0; i < t->ncols; i++)
        if (!w->cells[i].is_null && !w->cells[i].data &&
            w->cells[i].len == LONG_PENDING && holds_lval(&t->cols[i])) {
            w->cells[i].data = dummy;
            any = true;
        }
    if (!any)
        return JET_OK;
    rc = jet_row_encode(w->row, sizeof w->row, &base, db->fmt, tp, w->cells,
                        &db->err);
    if (rc != JET_OK)
        return rc;
    room = base < JET_MAX_ROW_LEN ? JET_MAX_ROW_LEN - base : 0;
    for (uint16_t i = 0; i < t->ncols; i++) {
        jet_cell *c = &w->cells[i];
        size_t len = 0;
        uint8_t *out;
        if (c->data != dummy)
            continue;
        out = arena_take(w, JET_LVAL_CELL_MAX);
        if (!out)
            return jet_fail(&db->err, JET_ELIMIT, t->pgno, "row too long");
        if (t->cols[i].flags & JET_COL_CALCULATED) {
            /* the wrapper is the long value */
            jet_column lc = lval_column(&t->cols[i]);
            size_t wlen = 0, wcap = vals[i].len + 23;
            uint8_t *wrap = jet_malloc(wcap);
            if (!wrap)
                return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                                "out of memory");
            rc = jet_calc_value_encode(wrap, wcap, &wlen, &t->cols[i],
                                       &vals[i]);
            if (rc != JET_OK)
                rc = jet_fail(&db->err, rc, t->pgno, "calculated column "
                              "'%s.%s': the value cannot be stored",
                              t->name, t->cols[i].name);
            else
                rc = jet_lval_store_bytes(out, JET_LVAL_CELL_MAX, &len, db,
                                          t, &lc, wrap, wlen,
                                          room + LONG_PENDING);
            jet_free(wrap);
        } else {
            rc = jet_lval_store(out, JET_LVAL_CELL_MAX, &len, db, t,
                                &t->cols[i], &vals[i], room + LONG_PENDING);
        }
        if (rc != JET_OK)
            return rc;
        c->data = out;
        c->len = len;
        room -= len - LONG_PENDING < room ? len - LONG_PENDING : room;
    }
    return JET_OK;
}

/* Free the long values of the old row's MEMO/OLE columns i for which
 * which[i] (NULL: all). */
static jet_rc free_long_cells(jet_db *db, const jet_tdef *t,
                              const jet_row *row, uint32_t pgno,
                              const bool *which)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        bool null;
        const uint8_t *d;
        size_t n;
        jet_rc rc;
        if (!holds_lval(col) || (which && !which[i]))
            continue;
        rc = jet_row_column(row, db->fmt, col, &null, &d, &n, pgno,
                            &db->err);
        if (rc == JET_OK && !null && n > 0) {
            jet_column lc = lval_column(col);
            rc = jet_lval_free(db, t, &lc, d, n);
        }
        if (rc != JET_OK)
            return rc;
    }
    return JET_OK;
}

/* The row of vals as stored: the pending long values of w stored
 * (store_long_cells), then w's cells encoded into w->row (w->row_len
 * bytes). A row past JET_MAX_ROW_LEN is refused: JET_ELIMIT. */
static jet_rc encode_row(jet_db *db, const jet_tdef *t,
                         const jet_value *vals, row_work *w)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    jet_rc rc = store_long_cells(db, t, vals, w);
    if (rc == JET_OK)
        rc = jet_row_encode(w->row, sizeof w->row, &w->row_len, db->fmt, tp,
                            w->cells, &db->err);
    if (rc == JET_OK && w->row_len > JET_MAX_ROW_LEN)
        rc = jet_fail(&db->err, JET_ELIMIT, t->pgno, "the row is %zu bytes; "
                      "a row holds at most %d", w->row_len, JET_MAX_ROW_LEN);
    return rc;
}

/* The physical indexes of t: logical index i is the first of those that
 * share its root page. */
static bool first_of_physical(const jet_tdef *t, uint16_t i)
{
    for (uint16_t j = 0; j < i; j++)
        if (t->indexes[j].first_pgno == t->indexes[i].first_pgno)
            return false;
    return true;
}

/* Read the TDEF's row count through the pager. */
jet_rc jet_table_row_count(jet_db *db, const jet_tdef *t, uint32_t *out)
{
    const jet_tdef_priv *tp = (const jet_tdef_priv *)t;
    jet_db *own = tp->owner ? tp->owner : db;
    const uint8_t *pg;
    jet_rc rc = jet_page_pin(own->pf, t->pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    *out = jet_get_u32(pg + own->fmt->tdef_nrows);
    jet_page_unpin(own->pf, pg);
    return JET_OK;
}

/* The next complex id of t (ACE): one per inserted row, shared by all its
 * complex columns (complex.c). */
static jet_rc complex_next(jet_db *db, jet_tdef_priv *tp, int64_t *out)
{
    if (!tp->complex_known) {
        const uint8_t *pg;
        jet_rc rc = jet_page_pin(db->pf, tp->pub.pgno, &pg, &db->err);
        if (rc != JET_OK)
            return rc;
        tp->complex_last = (int32_t)jet_get_u32(pg + TDEF_COMPLEX_NUMBER);
        jet_page_unpin(db->pf, pg);
        tp->complex_known = true;
    }
    if (tp->complex_last >= INT32_MAX || tp->complex_last < 0)
        return jet_fail(&db->err, JET_ELIMIT, tp->pub.pgno, "the complex "
                        "ids of table '%s' are at their largest",
                        tp->pub.name);
    *out = ++tp->complex_last;
    return JET_OK;
}

/* Add delta to the TDEF's row count; write the AutoNumber marks when
 * known. */
static jet_rc tdef_update(jet_db *db, jet_tdef_priv *tp, int delta)
{
    uint8_t *pg;
    jet_rc rc = jet_page_write(db->pf, tp->pub.pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    uint32_t n = jet_get_u32(pg + db->fmt->tdef_nrows);
    if (delta < 0 && n == 0) {
        jet_page_unpin(db->pf, pg);
        return jet_fail(&db->err, JET_ECORRUPT, tp->pub.pgno, "table '%s': "
                        "the TDEF's row count is 0 with a row deleted",
                        tp->pub.name);
    }
    jet_put_u32(pg + db->fmt->tdef_nrows, n + (uint32_t)delta);
    if (tp->auto_known &&
        (int64_t)(int32_t)jet_get_u32(pg + TDEF_AUTO_NUMBER) < tp->auto_last)
        jet_put_u32(pg + TDEF_AUTO_NUMBER, (uint32_t)tp->auto_last);
    if (tp->complex_known && db->version >= JET_VER_ACE12 &&
        (int64_t)(int32_t)jet_get_u32(pg + TDEF_COMPLEX_NUMBER) <
            tp->complex_last)
        jet_put_u32(pg + TDEF_COMPLEX_NUMBER, (uint32_t)tp->complex_last);
    jet_page_unpin(db->pf, pg);
    return JET_OK;
}

/* Is page pg a data page of t? */
static bool is_data_page_of(const jet_db *db, const jet_tdef *t,
                            const uint8_t *pg)
{
    return pg[0] == JET_PAGE_DATA &&
           jet_get_u32(pg + db->fmt->data_tdef_pgno) == t->pgno;
}

/* Whether a row of len bytes is appended to pg as it is. */
static bool row_appends(const jet_db *db, const uint8_t *pg, size_t len)
{
    return jet_page_row_count(db->fmt, pg) < JET_MAX_ROWS_PER_PAGE &&
           jet_data_page_free_space(db->fmt, pg) >= len + 2;
}

/* Whether a row of len bytes fits pg, appended or after a compaction. */
static bool row_fits(const jet_db *db, const uint8_t *pg, size_t len)
{
    return row_appends(db, pg, len) ||
           jet_data_page_fits_compacted(db->fmt, pg, len);
}

/* Where a row of len bytes will go on pg (row_fits): the row number
 * jet_data_page_insert or jet_data_page_insert_compact will give it. */
static uint16_t next_rowno(const jet_db *db, const uint8_t *pg, size_t len)
{
    uint16_t n = jet_page_row_count(db->fmt, pg);
    if (row_appends(db, pg, len))
        return n;
    for (uint16_t i = 0; i < n; i++) {
        uint16_t e = jet_get_u16(pg + db->fmt->data_row_table + 2 * (size_t)i);
        if ((e & (JET_ROW_DELETED | JET_ROW_OVERFLOW)) ==
            (JET_ROW_DELETED | JET_ROW_OVERFLOW))
            return i;
    }
    return n;
}

/* Put row (len bytes, flags) on pg (row_fits): appended, else compacted. */
static jet_rc page_put_row(const jet_db *db, uint8_t *pg, const uint8_t *row,
                           size_t len, uint16_t flags, uint16_t *rowno)
{
    if (row_appends(db, pg, len))
        return jet_data_page_insert(pg, db->fmt, row, len, flags, rowno);
    return jet_data_page_insert_compact(pg, db->fmt, row, len, flags, rowno);
}

/* Pages of the room hints looked at for one row. */
#define ROOM_HINT_TRIES 32

/* A page of t that this connection deleted rows on and that fits a row
 * of len bytes (*cand, 0 when none); hints of t that do not fit are
 * dropped. */
static jet_rc room_hint_page(jet_db *db, const jet_tdef *t, size_t len,
                             uint32_t *cand)
{
    jet_pglist *l = &db->room_pages;
    size_t tries = 0;
    *cand = 0;
    for (size_t k = l->count; k-- > 0 && tries < ROOM_HINT_TRIES;) {
        uint32_t p = l->pgnos[k];
        const uint8_t *pg;
        bool mine, fits;
        jet_rc rc;
        tries++;
        if (p == 0 || p >= jet_pagefile_page_count(db->pf)) {
            jet_space_hint_drop(l, k);
            continue;
        }
        rc = jet_page_pin(db->pf, p, &pg, &db->err);
        if (rc != JET_OK)
            return rc;
        mine = is_data_page_of(db, t, pg);
        fits = mine && row_fits(db, pg, len);
        jet_page_unpin(db->pf, pg);
        if (fits) {
            *cand = p;
            return JET_OK;
        }
        if (mine)
            jet_space_hint_drop(l, k);
    }
    return JET_OK;
}

/* A data page of t with room for a row of len bytes, pinned for writing:
 * the last insert's page, else the last owned data page the free-space
 * map lists, else a new one (Jackcess findFreeRowSpace). */
static jet_rc find_page(jet_db *db, jet_tdef_priv *tp, size_t len,
                        uint32_t *pgno, uint8_t **page)
{
    const jet_tdef *t = &tp->pub;
    const uint8_t *pg;
    jet_rc rc;
    uint32_t cand = tp->ins_pgno;

    if (cand) {
        rc = jet_page_pin(db->pf, cand, &pg, &db->err);
        if (rc != JET_OK)
            return rc;
        bool ok = is_data_page_of(db, t, pg) && row_fits(db, pg, len);
        jet_page_unpin(db->pf, pg);
        if (!ok) {
            /* full: it leaves the free-space map */
            rc = jet_table_free_map_update(db, tp, cand, false);
            if (rc != JET_OK)
                return rc;
            cand = 0;
        }
    }
    if (!cand && (rc = room_hint_page(db, t, len, &cand)) != JET_OK)
        return rc;
    if (!cand) {
        size_t tries = 0;
        for (size_t k = tp->owned.count; k-- > 0 && tries < FIND_PAGE_TRIES;
             tries++) {
            uint32_t p = tp->owned.pgnos[k];
            bool listed = false;
            rc = jet_page_pin(db->pf, p, &pg, &db->err);
            if (rc != JET_OK)
                return rc;
            bool data = is_data_page_of(db, t, pg);
            jet_page_unpin(db->pf, pg);
            if (!data)
                continue;
            rc = jet_table_free_map_has(db, tp, p, &listed);
            if (rc != JET_OK)
                return rc;
            if (!listed)
                continue;
            rc = jet_page_pin(db->pf, p, &pg, &db->err);
            if (rc != JET_OK)
                return rc;
            bool ok = row_fits(db, pg, len);
            jet_page_unpin(db->pf, pg);
            if (ok) {
                cand = p;
                break;
            }
            /* full: it leaves the free-space map */
            rc = jet_table_free_map_update(db, tp, p, false);
            if (rc != JET_OK)
                return rc;
        }
    }
    if (cand) {
        rc = jet_page_write(db->pf, cand, page, &db->err);
        if (rc == JET_OK)
            *pgno = cand;
        return rc;
    }
    return jet_table_data_page_new(db, tp, pgno, page);
}

/* Put a row of len bytes on a page with room: *id = where. flags as
 * jet_data_page_insert takes them. */
static jet_rc place_row(jet_db *db, jet_tdef_priv *tp, const uint8_t *row,
                        size_t len, uint16_t flags, jet_rowid *id)
{
    uint8_t *page;
    uint32_t pgno;
    uint16_t rowno;
    jet_rc rc = find_page(db, tp, len, &pgno, &page);
    if (rc != JET_OK)
        return rc;
    rc = page_put_row(db, page, row, len, flags, &rowno);
    jet_page_unpin(db->pf, page);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc == JET_ELIMIT ? JET_ECORRUPT : rc, pgno,
                        "table '%s': the row does not fit page %u",
                        tp->pub.name, pgno);
    tp->ins_pgno = pgno;
    id->pgno = pgno;
    id->row = rowno;
    return JET_OK;
}

/* Whether every key column of ix is NULL in vals. */
static bool key_all_null(const jet_tdef *t, const jet_index *ix,
                         const jet_value *vals)
{
    for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
        uint16_t c = ix->cols[k].col;
        if (c < t->ncols && t->cols[c].type != JET_T_BOOL &&
            !vals[c].is_null)
            return false;
    }
    return true;
}

/* An index that is t's primary key or Required refuses a NULL in any of
 * its columns (Access: "Index or primary key cannot contain a Null
 * value"; Jackcess IndexData). */
static jet_rc check_index_nulls(jet_db *db, const jet_tdef *t,
                                const jet_value *vals)
{
    for (uint16_t i = 0; i < t->nindexes; i++) {
        const jet_index *ix = &t->indexes[i];
        if (!ix->primary_key && !ix->required)
            continue;
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            uint16_t c = ix->cols[k].col;
            if (c < t->ncols && t->cols[c].type != JET_T_BOOL &&
                vals[c].is_null)
                return jet_fail(&db->err, JET_ECONSTRAINT, t->pgno,
                                "Index or primary key cannot contain a "
                                "Null value ('%s.%s', index '%s')", t->name,
                                t->cols[c].name, ix->name);
        }
    }
    return JET_OK;
}

/* Whether ix has an entry for a row with values vals: not when it
 * ignores NULLs and the key is all NULL (Jackcess shouldIgnoreNulls). */
static bool has_entry(const jet_tdef *t, const jet_index *ix,
                      const jet_value *vals)
{
    return !(ix->ignore_nulls && key_all_null(t, ix, vals));
}

/* The index key of vals for ix into key (cap bytes). */
static jet_rc row_key(jet_db *db, const jet_tdef *t, const jet_index *ix,
                      const jet_value *vals, uint8_t *key, size_t cap,
                      size_t *klen)
{
    jet_rc rc = jet_index_row_key(key, cap, klen, db, t, ix, vals);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, t->pgno, "index '%s' of table '%s': "
                        "%s", ix->name, t->name,
                        rc == JET_EUNSUPPORTED
                            ? "a value its sort order cannot encode"
                            : "the key is too long");
    return JET_OK;
}

#define KEY_CAP 2048

/* write.h. For a row stored with a text key its sort order cannot
 * encode: the entry exists, but its key cannot be computed to descend to
 * it. */
jet_rc jet_table_key_of_row(jet_db *db, const jet_tdef *t,
                            uint16_t index_no, jet_rowid id, uint8_t *key,
                            size_t cap, size_t *klen)
{
    jet_index_cursor *c;
    uint32_t pgno;
    uint16_t row;
    jet_rc rc = jet_index_cursor_open(&c, db, t, index_no);

    if (rc != JET_OK)
        return rc;
    while ((rc = jet_index_next(c, &pgno, &row)) == JET_OK) {
        const uint8_t *k;
        size_t n;
        if (pgno != id.pgno || row != id.row)
            continue;
        k = jet_index_entry_key(c, &n);
        if (!k || n > cap)
            rc = JET_DONE;
        else {
            memcpy(key, k, n);
            *klen = n;
        }
        break;
    }
    if (rc == JET_DONE)
        rc = jet_fail(&db->err, JET_ECORRUPT, t->pgno, "index '%s' of "
                      "table '%s' has no entry for row %u of page %u",
                      t->indexes[index_no].name, t->name, id.row, id.pgno);
    else if (rc != JET_OK)
        db->err = *jet_index_error(c);
    jet_index_cursor_close(c);
    return rc;
}

/* The key of t->indexes[index_no]'s entry for the stored row id whose
 * values are vals: computed, or, when the sort order cannot encode them,
 * found by the row pointer (jet_table_key_of_row). */
static jet_rc stored_row_key(jet_db *db, const jet_tdef *t,
                             uint16_t index_no, const jet_value *vals,
                             jet_rowid id, uint8_t *key, size_t cap,
                             size_t *klen)
{
    jet_rc rc = jet_index_row_key(key, cap, klen, db, t,
                                  &t->indexes[index_no], vals);
    if (rc == JET_EUNSUPPORTED)
        return jet_table_key_of_row(db, t, index_no, id, key, cap, klen);
    return rc == JET_OK ? JET_OK
                        : row_key(db, t, &t->indexes[index_no], vals, key,
                                  cap, klen);
}

/* Whether every column of ix has the same value in a and b (its key and
 * whether it has an entry are then the same). */
static bool index_values_equal(const jet_tdef *t, const jet_index *ix,
                               const jet_value *a, const jet_value *b);

/* Whether t has a complex column (its values go with the row). */
static bool has_complex(const jet_tdef *t)
{
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_COMPLEX)
            return true;
    return false;
}

/* ------------------------------------------------------------------ insert */

jet_rc jet_table_insert(jet_db *db, const jet_tdef *t, jet_value *vals,
                        jet_rowid *out)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    jet_value *calc = NULL, *row = vals;
    row_work w;
    jet_rowid id;
    jet_rc rc;

    if ((rc = need_write(db)) != JET_OK ||
        (rc = jet_table_check_writable(db, t)) != JET_OK)
        return rc;
    if ((rc = work_init(db, t, &w)) != JET_OK)
        goto out;
    /* checks first: nothing is changed by a refused row */
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        jet_value v = vals[i];
        if (col->type == JET_T_COMPLEX && db->copying) {
            /* a copy keeps the row's complex id as stored */
            rc = encode_cell(db, t, col, &v, &w, &w.cells[i]);
            if (rc != JET_OK)
                goto out;
            continue;
        }
        if (col->type == JET_T_COMPLEX && !v.is_null) {
            rc = jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno, "table '%s': "
                          "the complex column '%s' gets its id from Access; "
                          "a value given for it is not supported", t->name,
                          col->name);
            goto out;
        }
        if (v.is_null && ((col->flags & (JET_COL_AUTONUMBER |
                                         JET_COL_AUTO_GUID)) ||
                          col->type == JET_T_COMPLEX))
            continue;           /* assigned below */
        if (col->flags & JET_COL_CALCULATED)
            continue;           /* computed below, whatever vals holds */
        rc = encode_cell(db, t, col, &v, &w, &w.cells[i]);
        if (rc != JET_OK)
            goto out;
    }
    /* AutoNumbers: handed out once the row passed its checks */
    int64_t complex_id = 0;
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        jet_value *v = &vals[i];
        if (col->type == JET_T_COMPLEX && db->copying) {
            continue;
        } else if (col->type == JET_T_COMPLEX) {
            /* one complex id per row, shared by its complex columns */
            if (complex_id == 0 &&
                (rc = complex_next(db, tp, &complex_id)) != JET_OK)
                goto out;
            memset(v, 0, sizeof *v);
            v->type = JET_T_COMPLEX;
            v->u.i = complex_id;
        } else if ((col->flags & JET_COL_AUTONUMBER) &&
                   col->type == JET_T_LONG) {
            if (v->is_null) {
                int64_t n = 0;
                if ((rc = auto_next(db, tp, &n)) != JET_OK)
                    goto out;
                memset(v, 0, sizeof *v);
                v->type = JET_T_LONG;
                v->u.i = n;
            } else {
                /* a number given (an append query may): later ones go on
                 * from the largest */
                if ((rc = auto_load(db, tp)) != JET_OK)
                    goto out;
                if (v->u.i > tp->auto_last)
                    tp->auto_last = v->u.i;
                continue;       /* encoded with the others */
            }
        } else if ((col->flags & JET_COL_AUTO_GUID) &&
                   col->type == JET_T_GUID && v->is_null) {
            memset(v, 0, sizeof *v);
            v->type = JET_T_GUID;
            jet_os_random(v->u.guid, 16);
            v->u.guid[7] = (uint8_t)((v->u.guid[7] & 0x0F) | 0x40);
            v->u.guid[8] = (uint8_t)((v->u.guid[8] & 0x3F) | 0x80);
        } else {
            continue;
        }
        rc = encode_cell(db, t, col, v, &w, &w.cells[i]);
        if (rc != JET_OK)
            goto out;
    }
    /* the row as stored: the caller's values, calculated columns computed
     * into a copy (their spans belong to the row check) */
    bool calculated = has_calculated(t);
    if (calculated || has_fixed_text(t)) {
        calc = jet_malloc(t->ncols * sizeof *calc);
        if (!calc) {
            rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                          "out of memory");
            goto out;
        }
        memcpy(calc, vals, t->ncols * sizeof *calc);
        row = calc;
        fixed_text_as_stored(t, &w, row);
    }
    /* a copy (jet_db_compact) stores the row as the source had it,
     * calculated values included: no rule is checked or applied */
    rc = db->copying ? JET_OK : check_index_nulls(db, t, row);
    if (rc == JET_OK && !db->copying)
        rc = jet_table_row_rules(db, t, row);
    if (rc == JET_OK && calculated)
        rc = encode_calc_cells(db, t, row, &w);
    if (rc == JET_OK && !db->copying)
        rc = jet_rel_before_insert(db, t, row);
    if (rc == JET_OK)
        rc = encode_row(db, t, row, &w);
    if (rc != JET_OK)
        goto out;
    {
        uint8_t *page;
        uint32_t pgno;
        uint16_t rowno;
        rc = find_page(db, tp, w.row_len, &pgno, &page);
        if (rc != JET_OK)
            goto out;
        id.pgno = pgno;
        id.row = next_rowno(db, page, w.row_len);
        /* index entries first: a duplicate refuses before the row exists */
        for (uint16_t i = 0; i < t->nindexes && rc == JET_OK; i++) {
            uint8_t key[KEY_CAP];
            size_t klen;
            if (!first_of_physical(t, i) ||
                !has_entry(t, &t->indexes[i], row))
                continue;
            rc = row_key(db, t, &t->indexes[i], row, key, sizeof key, &klen);
            if (rc == JET_EUNSUPPORTED && db->copying && db->copy_key)
                /* a copy: the source entry's key bytes (Access wrote a
                 * key the core's sort order cannot compute) */
                rc = db->copy_key(db->copy_key_ctx, t, i, key, sizeof key,
                                  &klen);
            if (rc == JET_OK)
                rc = jet_index_entry_insert(db, t, &t->indexes[i], key, klen,
                                            id);
        }
        if (rc == JET_OK) {
            rc = page_put_row(db, page, w.row, w.row_len, 0, &rowno);
            if (rc == JET_OK && rowno != id.row)
                rc = JET_ECORRUPT;
            if (rc != JET_OK)
                rc = jet_fail(&db->err, JET_ECORRUPT, pgno, "table '%s': "
                              "the row does not fit page %u", t->name, pgno);
        }
        jet_page_unpin(db->pf, page);
        if (rc != JET_OK)
            goto out;
        tp->ins_pgno = pgno;
    }
    rc = tdef_update(db, tp, +1);
    /* an append-only Memo given a value: its first version */
    if (rc == JET_OK && complex_id != 0)
        rc = jet_complex_add_versions(db, t, NULL, row);
    if (rc == JET_OK && out)
        *out = id;
out:
    jet_free(calc);
    work_free(&w);
    return rc;
}

/* ------------------------------------------------------------ old rows */

/* A live row of t: where its header and its data are, and a copy of the
 * data (the row the reader parses). */
typedef struct old_row {
    uint32_t data_pgno;
    uint16_t data_row;
    bool moved;                 /* data behind an overflow pointer */
    size_t len;
    uint8_t bytes[JET_MAX_ROW_LEN + 64];
    jet_row row;
    uint16_t var_buf[JET_MAX_VAR_OFFSETS];
} old_row;

static jet_rc find_row(jet_db *db, const jet_tdef *t, jet_rowid id,
                       old_row *o)
{
    const uint8_t *pg;
    uint16_t st, en, fl;
    uint32_t pgno = id.pgno;
    uint16_t rowno = id.row;
    jet_rc rc;

    if (pgno == 0 || pgno >= jet_pagefile_page_count(db->pf))
        goto notfound;
    rc = jet_page_pin(db->pf, pgno, &pg, &db->err);
    if (rc != JET_OK)
        return rc;
    if (!is_data_page_of(db, t, pg) ||
        rowno >= jet_page_row_count(db->fmt, pg) ||
        jet_row_bounds(db->fmt, pg, pgno, rowno, &st, &en, &fl, NULL) !=
            JET_OK ||
        (fl & JET_ROW_DELETED)) {
        jet_page_unpin(db->pf, pg);
        goto notfound;
    }
    o->moved = false;
    if (fl & JET_ROW_OVERFLOW) {
        if (en - st < 4) {
            jet_page_unpin(db->pf, pg);
            return jet_fail(&db->err, JET_ECORRUPT, pgno, "row %u of page "
                            "%u: a short overflow pointer", rowno, pgno);
        }
        rowno = pg[st];
        pgno = jet_get_u24(pg + st + 1);
        jet_page_unpin(db->pf, pg);
        if (pgno == 0 || pgno >= jet_pagefile_page_count(db->pf))
            return jet_fail(&db->err, JET_ECORRUPT, id.pgno, "row %u of page "
                            "%u points past the file", id.row, id.pgno);
        rc = jet_page_pin(db->pf, pgno, &pg, &db->err);
        if (rc != JET_OK)
            return rc;
        rc = jet_row_bounds(db->fmt, pg, pgno, rowno, &st, &en, &fl,
                            &db->err);
        if (rc != JET_OK) {
            jet_page_unpin(db->pf, pg);
            return rc;
        }
        o->moved = true;
    }
    o->data_pgno = pgno;
    o->data_row = rowno;
    o->len = (size_t)(en - st);
    if (o->len > sizeof o->bytes) {
        jet_page_unpin(db->pf, pg);
        return jet_fail(&db->err, JET_ECORRUPT, pgno, "row %u of page %u "
                        "is too long", rowno, pgno);
    }
    memcpy(o->bytes, pg + st, o->len);
    jet_page_unpin(db->pf, pg);
    return jet_row_parse(&o->row, db->fmt, o->bytes, o->len,
                         ((const jet_tdef_priv *)t)->num_var_cols > 0,
                         o->var_buf, JET_MAX_VAR_OFFSETS, pgno, &db->err);
notfound:
    return jet_fail(&db->err, JET_ENOTFOUND, id.pgno, "table '%s' has no "
                    "live row %u on page %u", t->name, id.row, id.pgno);
}

/* Decode every column of an old row (spans into the row copy or
 * scratch[i]). */
static jet_rc old_values(jet_db *db, const jet_tdef *t, old_row *o,
                         jet_value *vals, jet_buf *scratch)
{
    for (uint16_t i = 0; i < t->ncols; i++) {
        jet_rc rc = jet_value_decode(&vals[i], db, &o->row, &t->cols[i],
                                     &scratch[i], o->data_pgno, &db->err);
        if (rc != JET_OK)
            return rc;
    }
    return JET_OK;
}

static bool value_equal(const jet_value *a, const jet_value *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null;
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case JET_T_BOOL: return a->u.b == b->u.b;
    case JET_T_TEXT: case JET_T_MEMO: case JET_T_OLE: case JET_T_BINARY:
    case JET_T_EXT_DATETIME:
        return a->enc == b->enc && a->len == b->len &&
               (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
    default:
        return memcmp(&a->u, &b->u, sizeof a->u) == 0;
    }
}

static bool index_values_equal(const jet_tdef *t, const jet_index *ix,
                               const jet_value *a, const jet_value *b)
{
    for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
        uint16_t c = ix->cols[k].col;
        if (c >= t->ncols || !value_equal(&a[c], &b[c]))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------------ delete */

/* Page pgno of t got a row's bytes back: it joins the free-space map
 * (when not there) and this connection's room hints. */
static jet_rc room_back(jet_db *db, jet_tdef_priv *tp, uint32_t pgno)
{
    bool listed = false;
    jet_rc rc = jet_table_free_map_has(db, tp, pgno, &listed);
    if (rc == JET_OK && !listed)
        rc = jet_table_free_map_update(db, tp, pgno, true);
    if (rc == JET_OK)
        jet_space_hint(&db->room_pages, pgno);
    return rc;
}

jet_rc jet_table_delete(jet_db *db, const jet_tdef *t, jet_rowid id)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    old_row *o = NULL;
    jet_value *vals = NULL;
    jet_buf *scratch = NULL;
    uint8_t *page;
    jet_rc rc;

    if ((rc = need_write(db)) != JET_OK ||
        (rc = jet_table_check_writable(db, t)) != JET_OK)
        return rc;
    o = jet_malloc(sizeof *o);
    vals = jet_calloc(t->ncols ? t->ncols : 1, sizeof *vals);
    scratch = jet_calloc(t->ncols ? t->ncols : 1, sizeof *scratch);
    if (!o || !vals || !scratch) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    rc = find_row(db, t, id, o);
    if (rc != JET_OK)
        goto out;
    if (t->nindexes > 0 || has_complex(t)) {
        rc = old_values(db, t, o, vals, scratch);
        /* the children first (refused, deleted or set to NULL), then
         * the values of its complex columns */
        if (rc == JET_OK)
            rc = jet_rel_before_delete(db, t, id, vals);
        if (rc == JET_OK)
            rc = jet_complex_before_delete(db, t, vals);
        for (uint16_t i = 0; i < t->nindexes && rc == JET_OK; i++) {
            uint8_t key[KEY_CAP];
            size_t klen;
            if (!first_of_physical(t, i) ||
                !has_entry(t, &t->indexes[i], vals))
                continue;
            rc = stored_row_key(db, t, i, vals, id, key, sizeof key, &klen);
            if (rc == JET_OK)
                rc = jet_index_entry_delete(db, t, &t->indexes[i], key, klen,
                                            id);
        }
        if (rc != JET_OK)
            goto out;
    }
    rc = free_long_cells(db, t, &o->row, o->data_pgno, NULL);
    if (rc != JET_OK)
        goto out;
    rc = jet_page_write(db->pf, id.pgno, &page, &db->err);
    if (rc != JET_OK)
        goto out;
    rc = jet_data_page_delete(page, db->fmt, id.row);
    jet_page_unpin(db->pf, page);
    if (rc != JET_OK) {
        rc = jet_fail(&db->err, rc, id.pgno, "cannot delete row %u of page "
                      "%u", id.row, id.pgno);
        goto out;
    }
    rc = room_back(db, tp, id.pgno);
    if (rc != JET_OK)
        goto out;
    if (o->moved) {
        /* the moved data row is flagged deleted already (a scan skips it);
         * mark it as Access marks a deleted row */
        rc = jet_page_write(db->pf, o->data_pgno, &page, &db->err);
        if (rc != JET_OK)
            goto out;
        rc = jet_data_page_delete(page, db->fmt, o->data_row);
        jet_page_unpin(db->pf, page);
        if (rc == JET_OK)
            rc = room_back(db, tp, o->data_pgno);
        if (rc != JET_OK)
            goto out;
    }
    rc = tdef_update(db, tp, -1);
out:
    if (scratch)
        for (uint16_t i = 0; i < t->ncols; i++)
            jet_buf_free(&scratch[i]);
    jet_free(scratch);
    jet_free(vals);
    jet_free(o);
    return rc;
}

/* ------------------------------------------------------------------ update */

jet_rc jet_table_update(jet_db *db, const jet_tdef *t, jet_rowid id,
                        const jet_value *new_vals)
{
    jet_tdef_priv *tp = (jet_tdef_priv *)(uintptr_t)t;
    old_row *o = NULL;
    jet_value *oldv = NULL, *newv = NULL;
    jet_buf *scratch = NULL;
    bool *changed = NULL;
    row_work w;
    bool have_w = false;
    int64_t fresh_id = 0;       /* a complex id given to the row here */
    jet_rc rc;

    if ((rc = need_write(db)) != JET_OK ||
        (rc = jet_table_check_writable(db, t)) != JET_OK)
        return rc;
    o = jet_malloc(sizeof *o);
    oldv = jet_calloc(t->ncols ? t->ncols : 1, sizeof *oldv);
    newv = jet_calloc(t->ncols ? t->ncols : 1, sizeof *newv);
    scratch = jet_calloc(t->ncols ? t->ncols : 1, sizeof *scratch);
    changed = jet_calloc(t->ncols ? t->ncols : 1, sizeof *changed);
    if (!o || !oldv || !newv || !scratch || !changed) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    if ((rc = work_init(db, t, &w)) != JET_OK)
        goto out;
    have_w = true;
    if ((rc = find_row(db, t, id, o)) != JET_OK ||
        (rc = old_values(db, t, o, oldv, scratch)) != JET_OK)
        goto out;
    for (uint16_t i = 0; i < t->ncols; i++)
        newv[i] = ((t->cols[i].flags & (JET_COL_AUTONUMBER |
                                        JET_COL_AUTO_GUID)) ||
                   t->cols[i].type == JET_T_COMPLEX) ? oldv[i]
                                                     : new_vals[i];
    /* an append-only Memo changed gets a version (below), kept under
     * the row's complex id: a complex column of the row without one
     * takes the row's (another complex column's), else the next, as an
     * insert would hand out */
    if (has_complex(t)) {
        bool due = false;
        int64_t row_id = 0;
        if ((rc = jet_complex_versions_due(db, t, oldv, newv, &due)) !=
            JET_OK)
            goto out;
        for (uint16_t i = 0; due && i < t->ncols && row_id == 0; i++)
            if (t->cols[i].type == JET_T_COMPLEX && !oldv[i].is_null)
                row_id = oldv[i].u.i;
        for (uint16_t i = 0; due && i < t->ncols; i++) {
            if (t->cols[i].type != JET_T_COMPLEX || !oldv[i].is_null)
                continue;
            if (row_id == 0) {
                if ((rc = complex_next(db, tp, &fresh_id)) != JET_OK)
                    goto out;
                row_id = fresh_id;
            }
            memset(&newv[i], 0, sizeof newv[i]);
            newv[i].type = JET_T_COMPLEX;
            newv[i].u.i = row_id;
        }
    }
    /* fixed-length text as it will be stored (padded), for the keys the
     * relationships below compare */
    for (uint16_t i = 0; i < t->ncols; i++)
        if (t->cols[i].type == JET_T_TEXT &&
            (t->cols[i].flags & JET_COL_FIXED) &&
            (rc = encode_cell(db, t, &t->cols[i], &newv[i], &w,
                              &w.cells[i])) != JET_OK)
            goto out;
    fixed_text_as_stored(t, &w, newv);
    /* relationships first: the children of a changed key are refused or
     * re-keyed (a row naming itself gets its new key in newv) */
    if (t->nindexes > 0 &&
        (rc = jet_rel_before_update(db, t, id, oldv, newv)) != JET_OK)
        goto out;
    for (uint16_t i = 0; i < t->ncols; i++) {
        const jet_column *col = &t->cols[i];
        if (col->flags & JET_COL_CALCULATED) {
            /* computed again below: a long value always rewritten */
            changed[i] = holds_lval(col);
            continue;
        }
        if ((col->flags & (JET_COL_AUTONUMBER | JET_COL_AUTO_GUID)) ||
            (col->type == JET_T_COMPLEX && !newv[i].is_null ==
                                               !oldv[i].is_null) ||
            ((col->type == JET_T_MEMO || col->type == JET_T_OLE) &&
             value_equal(&oldv[i], &newv[i]))) {
            /* kept as stored: AutoNumbers, unchanged long values */
            bool null;
            const uint8_t *d;
            size_t n;
            newv[i] = oldv[i];
            rc = jet_row_column(&o->row, db->fmt, col, &null, &d, &n,
                                o->data_pgno, &db->err);
            if (rc != JET_OK)
                goto out;
            memset(&w.cells[i], 0, sizeof w.cells[i]);
            if (col->type == JET_T_BOOL)
                w.cells[i].bit = n != 0;
            else if (null)
                w.cells[i].is_null = true;
            else {
                uint8_t *c = arena_take(&w, n ? n : 1);
                if (!c) {
                    rc = jet_fail(&db->err, JET_ELIMIT, t->pgno,
                                  "row too long");
                    goto out;
                }
                memcpy(c, d, n);
                w.cells[i].data = c;
                w.cells[i].len = n;
            }
            continue;
        }
        changed[i] = col->type == JET_T_MEMO || col->type == JET_T_OLE;
        rc = encode_cell(db, t, col, &newv[i], &w, &w.cells[i]);
        if (rc != JET_OK)
            goto out;
    }
    rc = check_index_nulls(db, t, newv);
    if (rc == JET_OK)
        rc = jet_table_row_rules(db, t, newv);
    if (rc == JET_OK && has_calculated(t))
        rc = encode_calc_cells(db, t, newv, &w);
    if (rc == JET_OK)
        rc = encode_row(db, t, newv, &w);
    if (rc != JET_OK)
        goto out;
    /* index entries of changed keys move */
    for (uint16_t i = 0; i < t->nindexes && rc == JET_OK; i++) {
        uint8_t ko[KEY_CAP], kn[KEY_CAP];
        size_t lo, ln;
        const jet_index *ix = &t->indexes[i];
        bool had, has;
        if (!first_of_physical(t, i) || index_values_equal(t, ix, oldv, newv))
            continue;
        had = has_entry(t, ix, oldv);
        has = has_entry(t, ix, newv);
        lo = ln = 0;
        if (had)
            rc = stored_row_key(db, t, i, oldv, id, ko, sizeof ko, &lo);
        if (rc == JET_OK && has)
            rc = row_key(db, t, ix, newv, kn, sizeof kn, &ln);
        if (rc != JET_OK ||
            (had == has && lo == ln && memcmp(ko, kn, lo) == 0))
            continue;
        if (had)
            rc = jet_index_entry_delete(db, t, ix, ko, lo, id);
        if (rc == JET_OK && has)
            rc = jet_index_entry_insert(db, t, ix, kn, ln, id);
    }
    if (rc == JET_OK)
        rc = free_long_cells(db, t, &o->row, o->data_pgno, changed);
    if (rc != JET_OK)
        goto out;
    if (w.row_len <= o->len) {
        /* in place, padded to the old size */
        uint8_t *page;
        rc = jet_row_pad(w.row, sizeof w.row, &w.row_len, tp, o->len);
        if (rc != JET_OK)
            goto out;
        rc = jet_page_write(db->pf, o->data_pgno, &page, &db->err);
        if (rc != JET_OK)
            goto out;
        rc = jet_data_page_replace(page, db->fmt, o->data_row, w.row,
                                   w.row_len);
        jet_page_unpin(db->pf, page);
        if (rc != JET_OK)
            rc = jet_fail(&db->err, rc, o->data_pgno, "cannot rewrite row "
                          "%u of page %u", o->data_row, o->data_pgno);
    } else {
        /* it grew: the data moves to a page with room, flagged deleted
         * there, and the header slot points to it */
        jet_rowid to = { 0, 0 };
        uint8_t *page;
        rc = place_row(db, tp, w.row, w.row_len, JET_ROW_DELETED, &to);
        if (rc != JET_OK)
            goto out;
        if (o->moved) {
            rc = jet_page_write(db->pf, o->data_pgno, &page, &db->err);
            if (rc != JET_OK)
                goto out;
            rc = jet_data_page_delete(page, db->fmt, o->data_row);
            jet_page_unpin(db->pf, page);
            if (rc != JET_OK)
                goto out;
        }
        rc = jet_page_write(db->pf, id.pgno, &page, &db->err);
        if (rc != JET_OK)
            goto out;
        rc = jet_data_page_set_overflow(page, db->fmt, id.row, to.pgno,
                                        (uint8_t)to.row);
        jet_page_unpin(db->pf, page);
        if (rc != JET_OK)
            rc = jet_fail(&db->err, rc, id.pgno, "cannot move row %u of page "
                          "%u", id.row, id.pgno);
    }
    /* a complex id handed out goes to the TDEF; then the versions of the
     * append-only Memos changed */
    if (rc == JET_OK && fresh_id != 0)
        rc = tdef_update(db, tp, 0);
    if (rc == JET_OK && has_complex(t))
        rc = jet_complex_add_versions(db, t, oldv, newv);
out:
    if (scratch)
        for (uint16_t i = 0; i < t->ncols; i++)
            jet_buf_free(&scratch[i]);
    if (have_w)
        work_free(&w);
    jet_free(changed);
    jet_free(scratch);
    jet_free(oldv);
    jet_free(newv);
    jet_free(o);
    return rc;
}
