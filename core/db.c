/*
 * db.c - open/close a database and its accessors.
 *
 * Open: the file read-only (the pager opens it for writing only when a
 * write transaction begins), a read transaction (hot journal recovery),
 * header page (format.c), then the catalog. Any
 * failure leaves nothing open and explains itself in the caller's
 * jet_error; a damaged file is named there ("damaged file '<path>': ..."),
 * since open is where the user first meets it.
 */
#include <string.h>

#include "alloc.h"
#include "format.h"
#include "internal.h"

/* Append s to the NUL-terminated dst (cap bytes), truncating. */
static void append(char *dst, size_t cap, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (n > cap - 1 - *len)
        n = cap - 1 - *len;
    memcpy(dst + *len, s, n);
    *len += n;
    dst[*len] = '\0';
}

/* Prefix err's message with "damaged file '<path>': " (the last path
 * component when the whole path would crowd out the detail). */
static void name_damaged_file(jet_error *err, const char *path)
{
    char detail[sizeof err->msg];
    const char *shown = path, *slash = strrchr(path, '/');
    size_t len = 0;

    memcpy(detail, err->msg, sizeof detail);
    detail[sizeof detail - 1] = '\0';
    if (slash && slash[1] &&
        strlen(path) + strlen(detail) + 20 > sizeof err->msg)
        shown = slash + 1;
    err->msg[0] = '\0';
    append(err->msg, sizeof err->msg, &len, "damaged file '");
    append(err->msg, sizeof err->msg, &len, shown);
    append(err->msg, sizeof err->msg, &len, "': ");
    append(err->msg, sizeof err->msg, &len, detail);
}

jet_rc jet_db_open(jet_db **out, const char *path,
                   const jet_open_options *opts, jet_error *err)
{
    jet_db *db;
    jet_error local;
    jet_rc rc;

    if (!err)
        err = &local;
    jet_error_clear(err);
    *out = NULL;
    if (!path)
        return jet_fail(err, JET_EIO, JET_NO_PGNO, "no path given");
    db = jet_calloc(1, sizeof *db);
    if (!db)
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    jet_error_clear(&db->err);
    db->path = jet_strndup(path, strlen(path));
    if (!db->path) {
        rc = jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto fail;
    }
    if (opts && opts->password) {
        db->password = jet_strndup(opts->password, strlen(opts->password));
        if (!db->password) {
            rc = jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
            goto fail;
        }
    }
    db->cache_pages = opts ? opts->cache_pages : 0;
    rc = jet_pagefile_open(&db->pf, path, opts ? opts->cache_pages : 0, err);
    if (rc != JET_OK)
        goto fail;
    if (opts && opts->read_only &&
        jet_pagefile_set_read_only(db->pf, "the database was opened "
                                   "read-only") != JET_OK) {
        rc = jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto fail;
    }
    /* a read transaction over the open: a hot journal is rolled back (or
     * refuses the open) before the header is read, and no commit lands
     * while the catalog loads */
    rc = jet_pagefile_read_begin(db->pf, err);
    if (rc != JET_OK)
        goto fail;
    rc = jet_format_read_header(db, opts, err);
    if (rc == JET_OK && db->fmt->jet3 &&
        jet_pagefile_set_read_only(db->pf, "Access 97 files are read-only")
            != JET_OK)
        rc = jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    if (rc != JET_OK)
        goto fail;
    rc = jet_catalog_load(db);
    if (rc != JET_OK) {
        *err = db->err;
        goto fail;
    }
    jet_pagefile_read_end(db->pf);
    *out = db;
    return JET_OK;
fail:
    if (rc == JET_ECORRUPT && err->rc == JET_ECORRUPT)
        name_damaged_file(err, path);
    jet_db_close(db);
    return rc;
}

void jet_db_close(jet_db *db)
{
    if (!db)
        return;
    if (db->row_check_free)     /* the row check's context */
        db->row_check_free(db->row_check_ctx);
    jet_link_close_all(db);
    jet_query_free_all(db);
    jet_catalog_free(db);
    jet_tdef_free(db->msys_cols);
    jet_ddl_free(db);
    if (db->pf)
        jet_lockfile_leave(db);     /* its slot lock is on pf's file */
    jet_pagefile_close(db->pf);
    jet_pglist_free(&db->freed_pages);
    jet_pglist_free(&db->room_pages);
    jet_pglist_free(&db->lval_room_pages);
    if (db->password)
        memset(db->password, 0, strlen(db->password));
    jet_free(db->password);
    jet_free(db->path);
    jet_free(db);
}

jet_version jet_db_version(const jet_db *db)
{
    return db->version;
}

uint32_t jet_db_page_size(const jet_db *db)
{
    return db->page_size;
}

uint16_t jet_db_code_page(const jet_db *db)
{
    return db->code_page;
}

const char *jet_db_path(const jet_db *db)
{
    return db->path;
}

const jet_error *jet_db_error(const jet_db *db)
{
    return &db->err;
}

jet_rc jet_db_read_begin(jet_db *db)
{
    jet_rc rc = jet_pagefile_read_begin(db->pf, &db->err);
    if (rc == JET_OK && (rc = jet_db_live_refresh(db)) != JET_OK)
        jet_pagefile_read_end(db->pf);
    return rc;
}

void jet_db_read_end(jet_db *db)
{
    jet_pagefile_read_end(db->pf);
}

uint64_t jet_db_pages_read(const jet_db *db)
{
    return jet_pagefile_pages_read(db->pf);
}

void jet_db_read_stats(const jet_db *db, jet_read_stats *out)
{
    jet_pagefile_read_stats(db->pf, out);
}
