/*
 * link.c - linked tables: a table of another Access file, read there.
 *
 * A link (MSysObjects Type 6) stores the other file's path (Database, as
 * Access saw it, often a Windows path) and the table's name there
 * (ForeignName). The other file is opened read-only the first time one of
 * its tables is read: at the stored path when that opens, else the same
 * file name in the directory of the linking file; with the password the
 * linking file was opened with. Each file is opened once per linking db
 * and closed with it. A statement's external database (FROM t IN 'path',
 * [;DATABASE=path].t) is opened the same way, read-only, with the
 * password the statement gives (jet_external_tdef_load). A link may point at another link; following them is
 * bounded (JET_LINK_MAX_DEPTH), so a cycle of links is an error.
 * Format: MSysObjects columns Database/ForeignName/Connect (Jackcess
 * DatabaseImpl getLinkedTable / LinkResolver).
 */
#include <string.h>

#include "alloc.h"
#include "internal.h"

#define JET_LINK_MAX_DEPTH 8

/** One database opened for links, in a list owned by the linking db. */
struct jet_link_db {
    char *path;                 /* the path it was opened at */
    jet_db *db;
    bool read_only;             /* opened read-only (external databases) */
    char *password;             /* the password it was opened with, or
                                   NULL: reused only with the same one */
    struct jet_link_db *next;
};

void jet_link_close_all(jet_db *db)
{
    struct jet_link_db *l = db->links;
    while (l) {
        struct jet_link_db *next = l->next;
        jet_db_close(l->db);
        jet_free(l->path);
        jet_free(l->password);
        jet_free(l);
        l = next;
    }
    db->links = NULL;
}

/* The path beside db's file with the last component of stored ('/' or
 * '\' separated), as a new string; NULL on allocation failure. */
static char *beside_path(const jet_db *db, const char *stored)
{
    const char *base = stored;
    for (const char *p = stored; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    const char *slash = strrchr(db->path, '/');
    size_t dir_len = slash ? (size_t)(slash - db->path) + 1 : 0;
    size_t blen = strlen(base);
    char *out = jet_malloc(dir_len + blen + 1);
    if (!out)
        return NULL;
    memcpy(out, db->path, dir_len);
    memcpy(out + dir_len, base, blen + 1);
    return out;
}

/* Whether two passwords (NULL: none) are the same. */
static bool same_password(const char *a, const char *b)
{
    if (!a || !*a || !b || !*b)
        return (!a || !*a) && (!b || !*b);
    return strcmp(a, b) == 0;
}

/* Open (or find already open) the database at path for db's links (or
 * a statement's external database: read_only, with its own password). */
static jet_rc open_other(jet_db **out, jet_db *db, const char *path,
                         const char *password, bool read_only,
                         jet_error *err)
{
    for (struct jet_link_db *l = db->links; l; l = l->next)
        if (strcmp(l->path, path) == 0 && (!read_only || l->read_only) &&
            same_password(l->password, password)) {
            *out = l->db;
            return JET_OK;
        }
    jet_open_options o;
    memset(&o, 0, sizeof o);
    o.password = password;
    o.cache_pages = db->cache_pages;
    o.read_only = read_only;
    jet_db *ldb = NULL;
    jet_rc rc = jet_db_open(&ldb, path, &o, err);
    if (rc != JET_OK)
        return rc;
    struct jet_link_db *l = jet_calloc(1, sizeof *l);
    char *copy = jet_strndup(path, strlen(path));
    char *pw = password ? jet_strndup(password, strlen(password)) : NULL;
    if (!l || !copy || (password && !pw)) {
        jet_free(l);
        jet_free(copy);
        jet_free(pw);
        jet_db_close(ldb);
        return jet_fail(err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    l->path = copy;
    l->db = ldb;
    l->read_only = read_only;
    l->password = pw;
    l->next = db->links;
    db->links = l;
    *out = ldb;
    return JET_OK;
}

jet_rc jet_link_tdef_load(const jet_tdef **out, jet_db *db,
                          const jet_object *obj)
{
    jet_error e1, e2;
    jet_db *ldb = NULL;
    jet_rc rc;

    *out = NULL;
    if (obj->kind == JET_OBJ_LINKED_ODBC)
        return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "'%s' is linked to an ODBC data source; reading it "
                        "is not supported", obj->name);
    if (!obj->linked_db || !*obj->linked_db || !obj->linked_name)
        return jet_fail(&db->err, JET_ECORRUPT, JET_NO_PGNO,
                        "linked table '%s' names no database or table",
                        obj->name);
    if (db->link_depth >= JET_LINK_MAX_DEPTH)
        return jet_fail(&db->err, JET_ELIMIT, JET_NO_PGNO,
                        "linked table '%s': links nest deeper than %d (a "
                        "cycle of links?)", obj->name, JET_LINK_MAX_DEPTH);
    rc = open_other(&ldb, db, obj->linked_db, db->password, false, &e1);
    if (rc == JET_EIO) {
        char *alt = beside_path(db, obj->linked_db);
        if (!alt)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        rc = strcmp(alt, obj->linked_db)
                 ? open_other(&ldb, db, alt, db->password, false, &e2)
                 : JET_EIO;
        if (rc == JET_EIO) {
            jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                     "linked table '%s': cannot open its database '%s' "
                     "(nor '%s')", obj->name, obj->linked_db, alt);
            jet_free(alt);
            return JET_ENOTFOUND;
        }
        jet_free(alt);
        if (rc != JET_OK) {
            db->err = e2;
            return rc;
        }
    } else if (rc != JET_OK) {
        db->err = e1;
        return rc;
    }
    const jet_object *fo = jet_catalog_find(ldb, obj->linked_name);
    if (!fo)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "linked table '%s': no table '%s' in '%s'",
                        obj->name, obj->linked_name, obj->linked_db);
    /* the other db follows its own links one level deeper */
    ldb->link_depth = db->link_depth + 1;
    rc = jet_tdef_load(out, ldb, fo);
    ldb->link_depth = 0;
    if (rc != JET_OK)
        db->err = *jet_db_error(ldb);
    return rc;
}

jet_rc jet_external_tdef_load(const jet_tdef **out, jet_db *db,
                              const char *path, const char *password,
                              const char *table)
{
    jet_error e;
    jet_db *xdb = NULL;
    memset(&e, 0, sizeof e);
    *out = NULL;
    jet_rc rc = open_other(&xdb, db, path, password, true, &e);
    if (rc != JET_OK)
        return jet_fail(&db->err, rc, e.pgno, "external database '%s': %s",
                        path, e.msg[0] ? e.msg : jet_rc_str(rc));
    const jet_object *fo = jet_catalog_find(xdb, table);
    if (!fo || (fo->kind != JET_OBJ_TABLE && fo->kind != JET_OBJ_LINKED_TABLE))
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "external database '%s' has no table '%s'", path,
                        table);
    rc = jet_tdef_load(out, xdb, fo);
    if (rc != JET_OK) {
        e = *jet_db_error(xdb);
        jet_fail(&db->err, rc, e.pgno, "external database '%s': %s", path,
                 e.msg);
    }
    return rc;
}
