/*
 * fuzz_reader.c - the whole native reader over one file image.
 *
 * The input is a database file (page 0 header, catalog, tdefs, data, LVAL
 * and index pages). Open it as a file, then read everything the driver
 * could read: every catalog table's tdef, its rows and every value (text
 * as UTF-8 and UTF-16, long values, dates, decimals), and every index
 * walked forward, backward and by seek (equality and range bounds taken
 * from the first entry's key). Any jet_rc is fine; crashes, hangs,
 * leaks and sanitizer reports are findings. Work per input is capped
 * (rows, entries) so a large valid file stays quick.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "jet.h"

#define MAX_TABLES 64
#define MAX_ROWS 500
#define MAX_ENTRIES 1000

static char utf8[1 << 16];
static uint16_t utf16[1 << 15];

static void read_value(jet_db *db, const jet_value *v)
{
    size_t len;
    jet_timestamp ts;
    char buf[64];
    if (v->is_null)
        return;
    switch (v->type) {
    case JET_T_TEXT:
    case JET_T_MEMO:
        (void)jet_text_to_utf8(db, v, utf8, sizeof utf8, &len);
        (void)jet_text_to_utf16(db, v, utf16, sizeof utf16 / sizeof utf16[0],
                                &len);
        break;
    case JET_T_DATETIME:
        (void)jet_datetime_split(v->u.d, &ts);
        break;
    case JET_T_EXT_DATETIME:
        (void)jet_ext_datetime_split(v, &ts);
        break;
    case JET_T_NUMERIC:
        (void)jet_numeric_format(v, buf, sizeof buf);
        break;
    case JET_T_MONEY:
        (void)jet_money_format(v->u.money, buf, sizeof buf);
        break;
    default:
        break;
    }
}

/* Walk the cursor to its end (capped), fetching each entry's row. */
static unsigned drain(jet_db *db, jet_index_cursor *cur, jet_scan *scan,
                      uint16_t ncols)
{
    uint32_t pgno;
    uint16_t row;
    unsigned n = 0;
    while (n < MAX_ENTRIES && jet_index_next(cur, &pgno, &row) == JET_OK) {
        n++;
        if (jet_scan_fetch_row(scan, pgno, row) == JET_OK && ncols > 0) {
            jet_value v;
            if (jet_scan_value(scan, 0, &v) == JET_OK)
                read_value(db, &v);
        }
    }
    return n;
}

static void walk_index(jet_db *db, const jet_tdef *tdef, jet_scan *scan,
                       uint16_t x)
{
    jet_index_cursor *cur = NULL;
    if (jet_index_cursor_open(&cur, db, tdef, x) != JET_OK)
        return;
    const jet_index *ix = &tdef->indexes[x];
    uint16_t nseek = jet_index_seekable_cols(tdef, x);
    if (nseek > ix->ncols)
        nseek = ix->ncols;
    if (nseek > 10)
        nseek = 10;

    /* forward, remembering the key of the first entry that has a row */
    jet_value keys[10];
    uint8_t keybytes[10][256];
    uint16_t nkeys = 0;
    uint32_t pgno;
    uint16_t row;
    unsigned n = 0;
    while (n < MAX_ENTRIES && jet_index_next(cur, &pgno, &row) == JET_OK) {
        n++;
        if (jet_scan_fetch_row(scan, pgno, row) != JET_OK || nkeys || !nseek)
            continue;
        uint16_t k;
        for (k = 0; k < nseek; k++) {
            uint16_t col = ix->cols[k].col;
            if (col >= tdef->ncols || jet_scan_value(scan, col, &keys[k]) != JET_OK)
                break;
            if (keys[k].data) {   /* spans die with the next scan call */
                size_t len = keys[k].len < sizeof keybytes[k] ? keys[k].len
                                                               : sizeof keybytes[k];
                memcpy(keybytes[k], keys[k].data, len);
                keys[k].data = keybytes[k];
                keys[k].len = len;
            }
        }
        nkeys = k;
    }
    /* backward */
    if (jet_index_set_reverse(cur, true) == JET_OK)
        drain(db, cur, scan, tdef->ncols);
    (void)jet_index_set_reverse(cur, false);
    /* seeks: = key, > key, <= key, and the same walked backwards */
    if (nkeys) {
        if (jet_index_seek(cur, keys, nkeys, JET_SEEK_GE) == JET_OK &&
            jet_index_set_upper(cur, keys, nkeys, true) == JET_OK)
            drain(db, cur, scan, tdef->ncols);
        if (jet_index_seek(cur, keys, nkeys, JET_SEEK_GT) == JET_OK &&
            jet_index_set_upper(cur, NULL, 0, true) == JET_OK)
            drain(db, cur, scan, tdef->ncols);
        if (jet_index_seek(cur, NULL, 0, JET_SEEK_GE) == JET_OK &&
            jet_index_set_upper(cur, keys, nkeys, false) == JET_OK &&
            jet_index_set_reverse(cur, true) == JET_OK)
            drain(db, cur, scan, tdef->ncols);
    }
    jet_index_cursor_close(cur);
}

static void read_table(jet_db *db, const jet_object *obj)
{
    const jet_tdef *tdef;
    if (jet_tdef_load(&tdef, db, obj) != JET_OK)
        return;
    jet_scan *scan = NULL;
    if (jet_scan_open(&scan, db, tdef, NULL) != JET_OK)
        return;
    unsigned rows = 0;
    while (rows++ < MAX_ROWS && jet_scan_next(scan) == JET_OK) {
        for (uint16_t c = 0; c < tdef->ncols; c++) {
            jet_value v;
            if (jet_scan_value(scan, c, &v) == JET_OK)
                read_value(db, &v);
        }
    }
    for (uint16_t x = 0; x < tdef->nindexes; x++)
        walk_index(db, tdef, scan, x);
    jet_scan_close(scan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_image_path(data, size);
    if (!path)
        return 0;
    jet_db *db = NULL;
    jet_error err;
    jet_open_options opts;
    memset(&opts, 0, sizeof opts);
    opts.cache_pages = 64;
    if (jet_db_open(&db, path, &opts, &err) != JET_OK)
        return 0;
    size_t nobj = jet_catalog_count(db);
    unsigned tables = 0;
    for (size_t i = 0; i < nobj && tables < MAX_TABLES; i++) {
        const jet_object *obj = jet_catalog_at(db, i);
        if (obj->kind != JET_OBJ_TABLE && obj->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        tables++;
        read_table(db, obj);
    }
    jet_db_close(db);
    return 0;
}
