/*
 * query.c - the rows of MSysQueries, grouped per saved query.
 *
 * MSysQueries holds one row per clause element of every saved query:
 * ObjectId (the query's MSysObjects Id), Attribute (what the row is:
 * JET_QA_* in jet.h), Flag, Name1, Name2, Expression, LvExtra (Jet4+) and
 * Order (a binary sort key, big-endian counter within an attribute). Rows
 * of one query need not be adjacent in scan order, so they are grouped by
 * ObjectId and sorted by (Attribute, Order, scan position).
 * Turning rows into SQL text is driver/sql/savedquery.c's job.
 * Format: Jackcess QueryImpl/QueryFormat, mdbtools util/mdb-queries.c.
 * Invariant: the whole table is read once, on first use, and kept in the
 * db (immutable afterwards, like the catalog).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "internal.h"

/* One row as read, with its sort keys. */
typedef struct raw_row {
    jet_query_row row;
    int32_t object_id;
    uint8_t order[16];
    size_t order_len;
    size_t seq;
} raw_row;

/** Everything query.c keeps in the db. */
struct jet_query_set {
    jet_query *queries;       /* parallel to db->objects */
    jet_query_row *rows;      /* all rows, grouped per query */
    char **strings;           /* every row string, for freeing */
    size_t nstrings;
    bool missing;             /* the file has no MSysQueries */
};

enum { Q_OBJECT, Q_ATTR, Q_FLAG, Q_NAME1, Q_NAME2, Q_EXPR, Q_EXTRA, Q_ORDER,
       Q_COUNT };

static const char *const qcol_names[Q_COUNT] = {
    "ObjectId", "Attribute", "Flag", "Name1", "Name2", "Expression",
    "LvExtra", "Order"
};

static void set_free(struct jet_query_set *qs)
{
    if (!qs)
        return;
    for (size_t i = 0; i < qs->nstrings; i++)
        jet_free(qs->strings[i]);
    jet_free(qs->strings);
    jet_free(qs->rows);
    jet_free(qs->queries);
    jet_free(qs);
}

void jet_query_free_all(jet_db *db)
{
    set_free(db->queries);
    db->queries = NULL;
}

/* Text value (TEXT or MEMO) as a new UTF-8 string, or NULL. */
static jet_rc read_text(jet_db *db, jet_scan *s, int pos, char **out)
{
    jet_value v;
    size_t need = 0;
    jet_rc rc;

    *out = NULL;
    if (pos < 0)
        return JET_OK;
    if ((rc = jet_scan_value(s, (uint16_t)pos, &v)) != JET_OK)
        return rc;
    if (v.is_null || (v.type != JET_T_TEXT && v.type != JET_T_MEMO))
        return JET_OK;
    if ((rc = jet_text_to_utf8(db, &v, NULL, 0, &need)) != JET_OK)
        return rc;
    char *str = jet_malloc(need + 1);
    if (!str)
        return JET_ENOMEM;
    if ((rc = jet_text_to_utf8(db, &v, str, need, &need)) != JET_OK) {
        jet_free(str);
        return rc;
    }
    str[need] = '\0';
    /* Access ends some stored SQL texts with a NUL character */
    while (need > 0 && str[need - 1] == '\0')
        need--;
    *out = str;
    return JET_OK;
}

/* Integer value of any integer column; *is_null when NULL or absent. */
static jet_rc read_int(jet_scan *s, int pos, int64_t *out, bool *is_null)
{
    jet_value v;
    jet_rc rc;

    *out = 0;
    *is_null = true;
    if (pos < 0)
        return JET_OK;
    if ((rc = jet_scan_value(s, (uint16_t)pos, &v)) != JET_OK)
        return rc;
    if (v.is_null)
        return JET_OK;
    switch (v.type) {
    case JET_T_BOOL:
        *out = v.u.b;
        break;
    case JET_T_BYTE:
    case JET_T_INT:
    case JET_T_LONG:
    case JET_T_BIGINT:
        *out = v.u.i;
        break;
    default:
        return JET_OK;
    }
    *is_null = false;
    return JET_OK;
}

static int raw_cmp(const void *pa, const void *pb)
{
    const raw_row *a = pa, *b = pb;
    if (a->object_id != b->object_id)
        return a->object_id < b->object_id ? -1 : 1;
    if (a->row.attribute != b->row.attribute)
        return a->row.attribute < b->row.attribute ? -1 : 1;
    size_t n = a->order_len < b->order_len ? a->order_len : b->order_len;
    int c = memcmp(a->order, b->order, n);
    if (c)
        return c;
    if (a->order_len != b->order_len)
        return a->order_len < b->order_len ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Remember str in qs for freeing; on failure str is freed. */
static jet_rc keep_string(struct jet_query_set *qs, size_t *cap, char *str)
{
    if (!str)
        return JET_OK;
    if (qs->nstrings == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        char **n = jet_realloc(qs->strings, ncap * sizeof *n);
        if (!n) {
            jet_free(str);
            return JET_ENOMEM;
        }
        qs->strings = n;
        *cap = ncap;
    }
    qs->strings[qs->nstrings++] = str;
    return JET_OK;
}

/* Read every MSysQueries row into a new set for db. */
static jet_rc load_all(jet_db *db, struct jet_query_set **out)
{
    struct jet_query_set *qs = jet_calloc(1, sizeof *qs);
    raw_row *raws = NULL;
    size_t nraw = 0, cap = 0, scap = 0;
    jet_scan *s = NULL;
    int pos[Q_COUNT];
    jet_rc rc;

    *out = NULL;
    if (!qs)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    qs->queries = jet_calloc(db->nobjects ? db->nobjects : 1,
                             sizeof *qs->queries);
    if (!qs->queries) {
        set_free(qs);
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    }
    for (size_t i = 0; i < db->nobjects; i++)
        qs->queries[i].obj = &db->objects[i];

    const jet_object *mq = jet_catalog_find(db, "MSysQueries");
    const jet_tdef *td = NULL;
    if (!mq || (mq->kind != JET_OBJ_SYSTEM_TABLE &&
                mq->kind != JET_OBJ_TABLE)) {
        qs->missing = true;
        *out = qs;
        return JET_OK;
    }
    if ((rc = jet_tdef_load(&td, db, mq)) != JET_OK) {
        set_free(qs);
        return rc;
    }
    for (int i = 0; i < Q_COUNT; i++)
        pos[i] = jet_tdef_find_column(td, qcol_names[i]);
    if (pos[Q_OBJECT] < 0 || pos[Q_ATTR] < 0) {
        set_free(qs);
        return jet_fail(&db->err, JET_ECORRUPT, td->pgno,
                        "MSysQueries lacks ObjectId/Attribute columns");
    }
    if ((rc = jet_scan_open(&s, db, td, NULL)) != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        raw_row r;
        int64_t v;
        bool null;
        char *n1 = NULL, *n2 = NULL, *ex = NULL;

        memset(&r, 0, sizeof r);
        if (nraw == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            raw_row *n = jet_realloc(raws, ncap * sizeof *n);
            if (!n) {
                rc = JET_ENOMEM;
                break;
            }
            raws = n;
            cap = ncap;
        }
        if ((rc = read_int(s, pos[Q_OBJECT], &v, &null)) != JET_OK)
            break;
        r.object_id = (int32_t)v;
        if ((rc = read_int(s, pos[Q_ATTR], &v, &null)) != JET_OK)
            break;
        r.row.attribute = (uint8_t)v;
        if ((rc = read_int(s, pos[Q_FLAG], &v, &null)) != JET_OK)
            break;
        r.row.flag = (int16_t)v;
        r.row.flag_null = null;
        if ((rc = read_int(s, pos[Q_EXTRA], &v, &null)) != JET_OK)
            break;
        r.row.extra = (int32_t)v;
        if (pos[Q_ORDER] >= 0) {
            jet_value ov;
            if ((rc = jet_scan_value(s, (uint16_t)pos[Q_ORDER], &ov)) !=
                JET_OK)
                break;
            if (!ov.is_null && ov.type == JET_T_BINARY && ov.data) {
                r.order_len = ov.len < sizeof r.order ? ov.len
                                                      : sizeof r.order;
                memcpy(r.order, ov.data, r.order_len);
            }
        }
        if ((rc = read_text(db, s, pos[Q_NAME1], &n1)) != JET_OK ||
            (rc = keep_string(qs, &scap, n1)) != JET_OK ||
            (rc = read_text(db, s, pos[Q_NAME2], &n2)) != JET_OK ||
            (rc = keep_string(qs, &scap, n2)) != JET_OK ||
            (rc = read_text(db, s, pos[Q_EXPR], &ex)) != JET_OK ||
            (rc = keep_string(qs, &scap, ex)) != JET_OK)
            break;
        r.row.name1 = n1;
        r.row.name2 = n2;
        r.row.expression = ex;
        r.seq = nraw;
        raws[nraw++] = r;
    }
    if (rc != JET_DONE) {
        if (rc == JET_ENOMEM)
            jet_fail(&db->err, rc, td->pgno, "out of memory");
        else if (jet_scan_error(s)->rc != JET_OK)
            db->err = *jet_scan_error(s);
        else
            jet_fail(&db->err, rc, td->pgno, "cannot read MSysQueries");
        goto out;
    }
    rc = JET_OK;
    if (nraw > 1)
        qsort(raws, nraw, sizeof *raws, raw_cmp);
    qs->rows = jet_calloc(nraw ? nraw : 1, sizeof *qs->rows);
    if (!qs->rows) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nraw; i++)
        qs->rows[i] = raws[i].row;
    /* each query's rows are one run of the sorted array */
    for (size_t i = 0; i < db->nobjects; i++) {
        jet_query *q = &qs->queries[i];
        if (db->objects[i].kind != JET_OBJ_QUERY)
            continue;
        int32_t id = db->objects[i].id;
        size_t lo = 0, hi = nraw;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (raws[mid].object_id < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t end = lo;
        while (end < nraw && raws[end].object_id == id)
            end++;
        q->rows = &qs->rows[lo];
        q->nrows = end - lo;
    }
out:
    jet_free(raws);
    jet_scan_close(s);
    if (rc != JET_OK) {
        set_free(qs);
        return rc;
    }
    *out = qs;
    return JET_OK;
}

jet_rc jet_query_load(const jet_query **out, jet_db *db, const jet_object *obj)
{
    *out = NULL;
    if (!db || !obj || obj->kind != JET_OBJ_QUERY || obj < db->objects ||
        obj >= db->objects + db->nobjects)
        return jet_fail(db ? &db->err : NULL, JET_ENOTFOUND, JET_NO_PGNO,
                        "not a saved query of this database");
    if (!db->queries) {
        jet_rc rc = load_all(db, &db->queries);
        if (rc != JET_OK)
            return rc;
    }
    if (db->queries->missing)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO,
                        "the database has no MSysQueries table");
    *out = &db->queries->queries[obj - db->objects];
    return JET_OK;
}

const jet_object *jet_catalog_find_query(const jet_db *db, const char *name)
{
    if (!db || !name)
        return NULL;
    for (size_t i = 0; i < db->nobjects; i++) {
        const jet_object *o = &db->objects[i];
        if (o->kind == JET_OBJ_QUERY && jet_name_equal_ci(o->name, name))
            return o;
    }
    return NULL;
}
