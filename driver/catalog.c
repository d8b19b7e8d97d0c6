/*
 * catalog.c - SQLTables, SQLColumns, SQLGetTypeInfo, SQLStatistics,
 * SQLPrimaryKeys, SQLForeignKeys, SQLSpecialColumns, SQLProcedures and
 * SQLProcedureColumns as ordinary (materialized) result sets.
 *
 * Column lists and orders: ODBC 3.x reference of each function. The
 * catalog (TABLE_CAT) is the database file path; there are no schemas
 * (TABLE_SCHEM NULL). Table types: TABLE, SYSTEM TABLE (system-flagged
 * objects and MSys* names), VIEW (saved SELECT/crosstab/union queries
 * without parameters), SYNONYM (linked tables, Access or ODBC links;
 * Access itself says "LINK"/"PASS-THROUGH" in its own UI). Action, DDL,
 * pass-through and parameter queries are procedures (SQLProcedures), as
 * with Access's driver (SQL_PROCEDURE_TERM "QUERY"); hidden queries
 * (form row sources "~sq_...") are listed nowhere.
 *
 * Arguments (ODBC "Arguments in Catalog Functions"): pattern values use %
 * and _ with \ as escape, compared case-insensitively as Access compares
 * names; NULL does not constrain, "" matches only an empty name; a schema
 * of "" (or a pattern matching "") selects everything, as nothing has a
 * schema; a catalog of "" selects the file's objects too: every object has
 * the one catalog, and clients pass "" to mean "the current one" (PHP's
 * odbc_* and Perl DBI's examples, LibreOffice), as psqlODBC and MySQL's
 * driver read it. In SQLForeignKeys a "" table name is one not given.
 * SQL_ATTR_METADATA_ID makes them identifiers.
 *
 * System tables read here through the core like any table:
 * MSysRelationships (SQLForeignKeys), MSysObjects Flags and MSysQueries
 * PARAMETERS rows (query kinds). Format: Jackcess RelationshipImpl,
 * QueryFormat.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "sql/engine.h"
#include "sql/savedquery.h"
#include "sql/spill.h"
#include "write.h"

#define DIAG(s) (&(s)->hdr.diag)

/* ----------------------------------------------------- result columns */

typedef enum { CT_STR, CT_SHORT, CT_INT } cat_type;

typedef struct cat_col {
    const char *name;
    cat_type type;
    bool nullable;
} cat_col;

static odbc_colmeta *make_cols(const cat_col *defs, uint16_t n)
{
    odbc_colmeta *cols = calloc(n, sizeof *cols);
    if (!cols)
        return NULL;
    for (uint16_t i = 0; i < n; i++) {
        odbc_colmeta *c = &cols[i];
        c->src = i;
        c->nullable = defs[i].nullable ? SQL_NULLABLE : SQL_NO_NULLS;
        c->name = odbc_strdup(defs[i].name);
        odbc_type_info *ti = &c->ti;
        ti->searchable = SQL_PRED_NONE;
        ti->case_sensitive = SQL_FALSE;
        ti->fixed_prec_scale = SQL_FALSE;
        ti->auto_unique = SQL_FALSE;
        ti->min_scale = ti->max_scale = -1;
        switch (defs[i].type) {
        case CT_STR:
            ti->type_name = "VARCHAR";
            ti->sql_type = SQL_WVARCHAR;
            ti->column_size = 255;
            ti->decimal_digits = -1;
            ti->octet_length = 510;
            ti->unsigned_attr = -1;
            ti->case_sensitive = SQL_TRUE;
            ti->default_c_type = SQL_C_WCHAR;
            break;
        case CT_SHORT:
            ti->type_name = "SMALLINT";
            ti->sql_type = SQL_SMALLINT;
            ti->column_size = 5;
            ti->octet_length = 2;
            ti->num_prec_radix = 10;
            ti->unsigned_attr = SQL_FALSE;
            ti->default_c_type = SQL_C_SSHORT;
            break;
        case CT_INT:
            ti->type_name = "INTEGER";
            ti->sql_type = SQL_INTEGER;
            ti->column_size = 10;
            ti->octet_length = 4;
            ti->num_prec_radix = 10;
            ti->unsigned_attr = SQL_FALSE;
            ti->default_c_type = SQL_C_SLONG;
            break;
        }
        if (!c->name) {
            for (uint16_t j = 0; j <= i; j++)
                free(cols[j].name);
            free(cols);
            return NULL;
        }
    }
    return cols;
}

#define NCOLS(a) ((uint16_t)(sizeof(a) / sizeof((a)[0])))

/* Sorting rows of a rowset: compare text cells col_a then col_b. */
static int cell_cmp(const jet_value *a, const jet_value *b)
{
    if (a->is_null || b->is_null)
        return (int)b->is_null - (int)a->is_null;
    if (a->type == JET_T_TEXT)
        return jet_name_compare_ci((const char *)a->data, (const char *)b->data);
    return (a->u.i > b->u.i) - (a->u.i < b->u.i);
}

static const int *sort_keys;
static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;

static int row_cmp(const void *pa, const void *pb)
{
    const jet_value *a = pa, *b = pb;
    for (const int *k = sort_keys; *k >= 0; k++) {
        int c = cell_cmp(&a[*k], &b[*k]);
        if (c)
            return c;
    }
    return 0;
}

/* Sort rows by the columns in keys (terminated by -1). */
static void sort_rows(odbc_matrows *m, const int *keys)
{
    if (m->nrows < 2 || !keys)
        return;
    pthread_mutex_lock(&sort_lock);
    sort_keys = keys;
    qsort(m->cells, m->nrows, m->ncols * sizeof(jet_value), row_cmp);
    pthread_mutex_unlock(&sort_lock);
}

/* A catalog function's result set: its columns (ODBC reference order and
 * names) and the ODBC order of its rows (column indexes, -1 ends; NULL
 * keeps the order rows were added in). */
typedef struct cat_spec {
    const cat_col *cols;
    uint16_t ncols;
    const int *order;
} cat_spec;

#define CAT_SPEC(defs, order) { defs, NCOLS(defs), order }
#define ORDER(...) ((const int[]){ __VA_ARGS__, -1 })

/* A catalog result set being built for statement s: rows of spec's width,
 * and what every row says in TABLE_CAT (the file path). */
typedef struct cat_rs {
    odbc_stmt *s;
    jet_db *db;
    const char *path;
    const cat_spec *spec;
    const int *order;       /* spec->order unless the function picks one */
    odbc_matrows *m;
} cat_rs;

/* Start a result set of spec for s. False when out of memory (HY001 is
 * raised: return SQL_ERROR). */
static bool rs_begin(cat_rs *rs, odbc_stmt *s, const cat_spec *spec)
{
    rs->s = s;
    rs->db = s->dbc->db;
    rs->path = jet_db_path(rs->db);
    rs->spec = spec;
    rs->order = spec->order;
    rs->m = odbc_matrows_new(spec->ncols);
    if (!rs->m)
        odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    return rs->m != NULL;
}

/* A new row of NULL cells, or NULL without memory. */
static jet_value *rs_row(cat_rs *rs)
{
    return odbc_matrows_add(rs->m);
}

/* Drop the rows; raise HY001. */
static SQLRETURN rs_nomem(cat_rs *rs)
{
    odbc_matrows_free(rs->m);
    rs->m = NULL;
    return odbc_diag_add(DIAG(rs->s), "HY001", "Memory allocation error");
}

/* Drop the rows; raise the diagnostic of a core failure. */
static SQLRETURN rs_fail(cat_rs *rs, jet_rc rc, const jet_error *err)
{
    odbc_matrows_free(rs->m);
    rs->m = NULL;
    return odbc_diag_jet(DIAG(rs->s), rc, err, DIAG_CTX_TABLE);
}

/* Put the rows in the result's order and make them the statement's
 * result set (the rows then belong to it). */
static SQLRETURN rs_finish(cat_rs *rs)
{
    odbc_colmeta *cols = make_cols(rs->spec->cols, rs->spec->ncols);
    if (!cols)
        return rs_nomem(rs);
    sort_rows(rs->m, rs->order);
    return odbc_stmt_set_matrows(rs->s, rs->m, cols, rs->spec->ncols);
}

static void cell_short(jet_value *c, int v) { odbc_cell_int(c, v, JET_T_INT); }
static void cell_int(jet_value *c, int64_t v) { odbc_cell_int(c, v, JET_T_LONG); }

/* ----------------------------------------------------------- patterns */

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

static size_t char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    for (size_t i = 1; i < n; i++)
        if (!s[i])
            return i;
    return n;
}

/* The code point at *s (UTF-8; a stray byte stands for itself); advances
 * *s past it. */
static uint32_t next_cp(const char **s)
{
    const unsigned char *u = (const unsigned char *)*s;
    size_t n = char_len(*s);
    uint32_t c = u[0];
    if (n == 2)
        c = ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu);
    else if (n == 3)
        c = ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
    else if (n == 4)
        c = ((u[0] & 0x07u) << 18) | ((u[1] & 0x3Fu) << 12) |
            ((u[2] & 0x3Fu) << 6) | (u[3] & 0x3Fu);
    *s += n;
    return c;
}

/* Does s match the ODBC search pattern p (% _ and \ escape)? */
static bool like(const char *s, const char *p, int depth)
{
    if (depth > 64)
        return false;
    while (*p) {
        if (*p == '%') {
            while (*p == '%')
                p++;
            if (!*p)
                return true;
            for (;;) {
                if (like(s, p, depth + 1))
                    return true;
                if (!*s)
                    return false;
                s += char_len(s);
            }
        }
        if (*p == '_') {
            if (!*s)
                return false;
            s += char_len(s);
            p++;
            continue;
        }
        if (*p == '\\' && p[1])
            p++;
        if (!*s || jet_name_fold(next_cp(&s)) != jet_name_fold(next_cp(&p)))
            return false;
    }
    return *s == '\0';
}

/*
 * A pattern value argument (ODBC "Pattern Value Arguments"): NULL does not
 * constrain; "" matches only an empty name; otherwise % and _ with \ as
 * escape. With SQL_ATTR_METADATA_ID true the argument is an identifier,
 * compared whole (case-insensitively, as Access compares names).
 */
static bool arg_match(const odbc_stmt *s, const char *name, const char *pat)
{
    if (!pat)
        return true;
    if (!name)
        name = "";
    if (s->metadata_id == SQL_TRUE)
        return jet_name_compare_ci(name, pat) == 0;
    return like(name, pat, 0);
}

/* A schema argument: no object has a schema, so NULL, "" (objects without
 * a schema) and patterns matching "" (e.g. "%") select everything. */
static bool schema_match(const odbc_stmt *s, const char *pat)
{
    return arg_match(s, "", pat);
}

/* An ordinary catalog argument: NULL, "" (the current catalog: see the
 * top of this file) or the file path exactly. */
static bool catalog_arg_ok(jet_db *db, const char *cat)
{
    return !cat || !*cat || strcmp(cat, jet_db_path(db)) == 0;
}

static bool is_msys(const char *name)
{
    static const char pre[] = "msys";
    if (!name)
        return false;
    for (int i = 0; i < 4; i++)
        if (lower((unsigned char)name[i]) != pre[i])
            return false;
    return true;
}

static bool is_table_kind(const jet_object *o)
{
    return o->kind == JET_OBJ_TABLE || o->kind == JET_OBJ_SYSTEM_TABLE;
}

/* ------------------------------------------------------ saved queries */

/* MSysObjects Flags of a query (Jackcess QueryFormat): bits 0xF0 give the
 * kind; bits 0x03 mark objects Access hides (form and report row sources
 * named "~sq_..."). */
#define QF_KIND_MASK 0xF0
#define QF_SELECT 0
#define QF_CROSSTAB 16
#define QF_UNION 128
#define QF_HIDDEN 0x03
/* MSysQueries Attribute of a PARAMETERS declaration row (Name1 = name,
 * Flag = Jet data type code). */
#define QA_PARAMETER 2

typedef enum { Q_VIEW, Q_PROCEDURE, Q_HIDDEN } query_kind;

typedef struct query_param {
    int32_t qid;            /* MSysQueries ObjectId = MSysObjects Id */
    int32_t type;           /* jet_type code */
    int ordinal;            /* 1-based, in MSysQueries scan order */
    char *name;
} query_param;

typedef struct query_info {
    int32_t *ids, *flags;   /* MSysObjects Id and Flags of each query */
    size_t n;
    query_param *params;
    size_t nparams;
} query_info;

static void queries_free(query_info *q)
{
    free(q->ids);
    free(q->flags);
    for (size_t i = 0; i < q->nparams; i++)
        free(q->params[i].name);
    free(q->params);
    memset(q, 0, sizeof *q);
}

/* Open a scan of system table name projecting the columns names[0..n-1]
 * (positions into pos). *out NULL (and JET_OK) when the table or one of
 * the columns is missing. */
static jet_rc sys_scan_open(jet_db *db, const char *name,
                            const char *const *names, int n, int *pos,
                            jet_scan **out, jet_error *err)
{
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *td;
    *out = NULL;
    if (!o || !is_table_kind(o))
        return JET_OK;
    jet_rc rc = jet_tdef_load(&td, db, o);
    if (rc != JET_OK) {
        *err = *jet_db_error(db);
        return rc;
    }
    bool *proj = calloc(td->ncols ? td->ncols : 1, sizeof *proj);
    if (!proj)
        return JET_ENOMEM;
    for (int i = 0; i < n; i++) {
        pos[i] = jet_tdef_find_column(td, names[i]);
        if (pos[i] < 0) {
            free(proj);
            return JET_OK;
        }
        proj[pos[i]] = true;
    }
    rc = jet_scan_open(out, db, td, proj);
    free(proj);
    if (rc != JET_OK)
        *err = *jet_db_error(db);
    return rc;
}

static jet_rc scan_int(jet_scan *sc, int col, int32_t *out)
{
    jet_value v;
    *out = 0;
    jet_rc rc = jet_scan_value(sc, (uint16_t)col, &v);
    if (rc == JET_OK && !v.is_null)
        *out = v.type == JET_T_BOOL ? v.u.b : (int32_t)v.u.i;
    return rc;
}

static jet_rc scan_text(jet_db *db, jet_scan *sc, int col, char **out);

static int query_nparams(const query_info *q, int32_t id)
{
    int n = 0;
    for (size_t i = 0; q && i < q->nparams; i++)
        n += q->params[i].qid == id;
    return n;
}

/*
 * Add to q the implicit parameters of every saved query: its undeclared
 * form and report references ([Forms]![Orders]![OrderID]), which Access
 * asks for as it asks for declared parameters (savedquery.c finds them
 * in the query's SQL). They follow the declared ones; a Text type, the
 * value typed at Access's prompt. A query whose rows cannot be read
 * keeps what its declarations say. *pcap: q->params' capacity.
 */
static jet_rc implicit_params_load(jet_db *db, query_info *q, size_t *pcap)
{
    size_t n = jet_catalog_count(db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const jet_query *jq;
        if (!o || o->kind != JET_OBJ_QUERY ||
            jet_query_load(&jq, db, o) != JET_OK)
            continue;
        sql_saved_param *pp = NULL;
        size_t np = 0;
        sql_error serr;
        if (sql_saved_param_list(&pp, &np, jq, &serr) != 0) {
            if (serr.rc == JET_ENOMEM)
                return JET_ENOMEM;
            continue;
        }
        for (size_t k = 0; k < np; k++) {
            if (!pp[k].implicit)
                continue;
            if (sql_grow((void **)&q->params, pcap, q->nparams + 1,
                         sizeof *q->params)) {
                sql_saved_free_params(pp, np);
                return JET_ENOMEM;
            }
            query_param *qp = &q->params[q->nparams];
            memset(qp, 0, sizeof *qp);
            qp->ordinal = query_nparams(q, o->id) + 1;
            qp->qid = o->id;
            qp->type = JET_T_TEXT;
            qp->name = odbc_strdup(pp[k].name);
            q->nparams++;
            if (!qp->name) {
                sql_saved_free_params(pp, np);
                return JET_ENOMEM;
            }
        }
        sql_saved_free_params(pp, np);
    }
    return JET_OK;
}

/*
 * Read the kind of every saved query: MSysObjects Flags (Type 5 rows) and
 * the PARAMETERS rows of MSysQueries, both through the core like any
 * table. A file lacking either table gives no information (every query a
 * VIEW).
 */
static jet_rc queries_load(jet_db *db, query_info *q, jet_error *err)
{
    static const char *const obj_cols[] = {"Id", "Type", "Flags"};
    static const char *const qry_cols[] = {"ObjectId", "Attribute", "Flag",
                                           "Name1"};
    int pos[4];
    size_t cap = 0, pcap = 0;
    jet_scan *sc = NULL;
    jet_rc rc;

    memset(q, 0, sizeof *q);
    rc = sys_scan_open(db, "MSysObjects", obj_cols, 3, pos, &sc, err);
    while (rc == JET_OK && sc && (rc = jet_scan_next(sc)) == JET_OK) {
        int32_t id, type, flags;
        if ((rc = scan_int(sc, pos[0], &id)) != JET_OK ||
            (rc = scan_int(sc, pos[1], &type)) != JET_OK ||
            (rc = scan_int(sc, pos[2], &flags)) != JET_OK)
            break;
        if ((type & 0xFFFF) != 5)
            continue;
        size_t c2 = cap;
        if (sql_grow((void **)&q->ids, &cap, q->n + 1, sizeof *q->ids) ||
            sql_grow((void **)&q->flags, &c2, q->n + 1, sizeof *q->flags)) {
            rc = JET_ENOMEM;
            break;
        }
        q->ids[q->n] = id;
        q->flags[q->n] = flags;
        q->n++;
    }
    if (rc == JET_DONE || (rc == JET_OK && !sc)) {
        jet_scan_close(sc);
        sc = NULL;
        rc = sys_scan_open(db, "MSysQueries", qry_cols, 4, pos, &sc, err);
        while (rc == JET_OK && sc && (rc = jet_scan_next(sc)) == JET_OK) {
            int32_t qid, attr, flag;
            if ((rc = scan_int(sc, pos[0], &qid)) != JET_OK ||
                (rc = scan_int(sc, pos[1], &attr)) != JET_OK ||
                (rc = scan_int(sc, pos[2], &flag)) != JET_OK)
                break;
            if (attr != QA_PARAMETER)
                continue;
            if (sql_grow((void **)&q->params, &pcap, q->nparams + 1,
                         sizeof *q->params)) {
                rc = JET_ENOMEM;
                break;
            }
            query_param *pp = &q->params[q->nparams];
            memset(pp, 0, sizeof *pp);
            pp->ordinal = query_nparams(q, qid) + 1;
            pp->qid = qid;
            pp->type = flag;
            q->nparams++;
            if ((rc = scan_text(db, sc, pos[3], &pp->name)) != JET_OK)
                break;
        }
        if (rc == JET_DONE || (rc == JET_OK && !sc))
            rc = JET_OK;
    }
    if (rc != JET_OK && rc != JET_ENOMEM && sc)
        *err = *jet_scan_error(sc);
    jet_scan_close(sc);
    if (rc == JET_OK)
        rc = implicit_params_load(db, q, &pcap);
    if (rc != JET_OK)
        queries_free(q);
    return rc;
}

/* How ODBC shows a saved query, as Access's driver does: a SELECT (also
 * crosstab, union) without parameters is a VIEW; action, DDL,
 * pass-through and parameter queries are procedures (SQLProcedures);
 * hidden ones are not listed. */
static query_kind query_kind_of(const query_info *q, const jet_object *o)
{
    int32_t flags = 0;
    for (size_t i = 0; q && i < q->n; i++)
        if (q->ids[i] == o->id)
            flags = q->flags[i];
    if (flags & QF_HIDDEN)
        return Q_HIDDEN;
    if (query_nparams(q, o->id) > 0)
        return Q_PROCEDURE;
    switch (flags & QF_KIND_MASK) {
    case QF_SELECT:
    case QF_CROSSTAB:
    case QF_UNION:
        return Q_VIEW;
    default:
        return Q_PROCEDURE;
    }
}

static const char *object_type(const jet_object *o, const query_info *q)
{
    switch (o->kind) {
    case JET_OBJ_TABLE:
        return is_msys(o->name) ? "SYSTEM TABLE" : "TABLE";
    case JET_OBJ_SYSTEM_TABLE:
        return "SYSTEM TABLE";
    case JET_OBJ_LINKED_TABLE:
    case JET_OBJ_LINKED_ODBC:
        return "SYNONYM";
    case JET_OBJ_QUERY:
        return query_kind_of(q, o) == Q_VIEW ? "VIEW" : NULL;
    }
    return NULL;
}

/* Is type (e.g. "SYSTEM TABLE") in the list "'TABLE','VIEW'"? */
static bool type_wanted(const char *list, const char *type)
{
    if (!list || !*list || strcmp(list, SQL_ALL_TABLE_TYPES) == 0)
        return true;
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        char q = 0;
        if (*p == '\'' || *p == '"')
            q = *p++;
        const char *start = p;
        while (*p && (q ? *p != q : *p != ','))
            p++;
        const char *end = p;
        if (q && *p)
            p++;
        while (end > start && end[-1] == ' ')
            end--;
        size_t n = (size_t)(end - start);
        if (n == strlen(type)) {
            size_t i = 0;
            while (i < n && lower((unsigned char)start[i]) ==
                                lower((unsigned char)type[i]))
                i++;
            if (i == n)
                return true;
        }
    }
    return false;
}


/* Do the catalog and schema arguments select this file's objects? */
static bool rs_in_scope(const cat_rs *rs, const char *cat, const char *schem)
{
    return catalog_arg_ok(rs->db, cat) && schema_match(rs->s, schem);
}

/* ------------------------------------------------------------- tables */

static const cat_col tables_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, true}, {"TABLE_TYPE", CT_STR, true},
    {"REMARKS", CT_STR, true},
};
static const cat_spec tables_spec = CAT_SPEC(tables_cols, ORDER(3, 2));

SQLRETURN odbc_cat_tables(odbc_stmt *s, const char *cat, const char *schem,
                          const char *table, const char *types)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &tables_spec))
        return SQL_ERROR;
    bool cat_empty = cat && !*cat, schem_empty = schem && !*schem;
    bool table_empty = table && !*table;

    if (cat && strcmp(cat, SQL_ALL_CATALOGS) == 0 && schem_empty &&
        table_empty) {
        jet_value *r = rs_row(&rs);
        if (!r || odbc_cell_str(rs.m, &r[0], rs.path) != 0)
            return rs_nomem(&rs);
        return rs_finish(&rs);
    }
    if (schem && strcmp(schem, SQL_ALL_SCHEMAS) == 0 && cat_empty &&
        table_empty)
        return rs_finish(&rs);
    if (types && strcmp(types, SQL_ALL_TABLE_TYPES) == 0 && cat_empty &&
        schem_empty && table_empty) {
        static const char *const all[] = {"SYNONYM", "SYSTEM TABLE", "TABLE",
                                          "VIEW"};
        for (size_t i = 0; i < 4; i++) {
            jet_value *r = rs_row(&rs);
            if (!r || odbc_cell_str(rs.m, &r[3], all[i]) != 0)
                return rs_nomem(&rs);
        }
        return rs_finish(&rs);
    }
    /* the catalog argument is a pattern too (ODBC 3); Excel passes "%",
     * PHP and Perl "" (the current catalog) */
    if ((!cat_empty && !arg_match(s, rs.path, cat)) ||
        !schema_match(s, schem))
        return rs_finish(&rs);
    query_info q;
    jet_error err;
    jet_rc rc = type_wanted(types, "VIEW") ? queries_load(rs.db, &q, &err)
                                           : (memset(&q, 0, sizeof q), JET_OK);
    if (rc != JET_OK)
        return rs_fail(&rs, rc, &err);
    size_t n = jet_catalog_count(rs.db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(rs.db, i);
        const char *type = o ? object_type(o, &q) : NULL;
        if (!type || !o->name || !type_wanted(types, type) ||
            !arg_match(s, o->name, table))
            continue;
        jet_value *r = rs_row(&rs);
        if (!r || odbc_cell_str(rs.m, &r[0], rs.path) != 0 ||
            odbc_cell_str(rs.m, &r[2], o->name) != 0 ||
            odbc_cell_str(rs.m, &r[3], type) != 0) {
            queries_free(&q);
            return rs_nomem(&rs);
        }
    }
    queries_free(&q);
    return rs_finish(&rs);
}

/* ------------------------------------------------------------ columns */

static const cat_col columns_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"COLUMN_NAME", CT_STR, false},
    {"DATA_TYPE", CT_SHORT, false}, {"TYPE_NAME", CT_STR, false},
    {"COLUMN_SIZE", CT_INT, true}, {"BUFFER_LENGTH", CT_INT, true},
    {"DECIMAL_DIGITS", CT_SHORT, true}, {"NUM_PREC_RADIX", CT_SHORT, true},
    {"NULLABLE", CT_SHORT, false}, {"REMARKS", CT_STR, true},
    {"COLUMN_DEF", CT_STR, true}, {"SQL_DATA_TYPE", CT_SHORT, false},
    {"SQL_DATETIME_SUB", CT_SHORT, true}, {"CHAR_OCTET_LENGTH", CT_INT, true},
    {"ORDINAL_POSITION", CT_INT, false}, {"IS_NULLABLE", CT_STR, true},
};
static const cat_spec columns_spec = CAT_SPEC(columns_cols, NULL);

static bool is_char_or_binary(SQLSMALLINT t)
{
    switch (t) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return true;
    default:
        return false;
    }
}

static int datetime_sub(SQLSMALLINT t)
{
    return t == SQL_TYPE_DATE ? SQL_CODE_DATE
         : t == SQL_TYPE_TIME ? SQL_CODE_TIME
         : t == SQL_TYPE_TIMESTAMP ? SQL_CODE_TIMESTAMP : 0;
}

static int obj_name_cmp(const void *a, const void *b)
{
    const jet_object *x = *(const jet_object *const *)a;
    const jet_object *y = *(const jet_object *const *)b;
    return jet_name_compare_ci(x->name, y->name);
}

static SQLRETURN load_queries(cat_rs *rs, query_info *q);

/* One row of type information for a column (SQLColumns) of table (or
 * view) tname. */
static int column_row(odbc_matrows *m, const char *path, const char *tname,
                      const char *cname, const odbc_type_info *ti,
                      bool nullable, int ordinal)
{
    jet_value *r = odbc_matrows_add(m);
    if (!r)
        return -1;
    if (odbc_cell_str(m, &r[0], path) || odbc_cell_str(m, &r[2], tname) ||
        odbc_cell_str(m, &r[3], cname) ||
        odbc_cell_str(m, &r[5], ti->type_name))
        return -1;
    int sub = datetime_sub(ti->sql_type);
    cell_short(&r[4], ti->sql_type);
    cell_int(&r[6], (int64_t)ti->column_size);
    cell_int(&r[7], ti->octet_length);
    if (ti->decimal_digits >= 0)
        cell_short(&r[8], ti->decimal_digits);
    if (ti->num_prec_radix)
        cell_short(&r[9], ti->num_prec_radix);
    cell_short(&r[10], nullable ? SQL_NULLABLE : SQL_NO_NULLS);
    cell_short(&r[13], sub ? SQL_DATETIME : ti->sql_type);
    if (sub)
        cell_short(&r[14], sub);
    if (is_char_or_binary(ti->sql_type))
        cell_int(&r[15], ti->octet_length);
    cell_int(&r[16], ordinal);
    return odbc_cell_str(m, &r[17], nullable ? "YES" : "NO");
}

/* The columns of a table or linked table (its TDEF, from the linked file
 * for a link). 1 = skipped (a link that does not resolve), 0 = done,
 * -1 = out of memory, -2 = a local table failed to load (*failed, db's
 * error). */
static int table_columns(cat_rs *rs, const jet_object *o, const char *column,
                         jet_rc *failed)
{
    jet_db *db = rs->db;
    const jet_tdef *td;
    jet_rc rc = jet_tdef_load(&td, db, o);
    *failed = rc;
    bool link = o->kind == JET_OBJ_LINKED_TABLE ||
                o->kind == JET_OBJ_LINKED_ODBC;
    if (rc == JET_EUNSUPPORTED || (link && rc != JET_OK && rc != JET_ENOMEM))
        return 1;
    if (rc != JET_OK)
        return rc == JET_ENOMEM ? -1 : -2;
    for (uint16_t c = 0; c < td->ncols; c++) {
        const jet_column *jc = &td->cols[c];
        if (!arg_match(rs->s, jc->name, column))
            continue;
        odbc_type_info ti;
        odbc_type_for_column(&ti, db, jc);
        odbc_type_cap_long(&ti, rs->s->dbc->max_long_size);
        if (column_row(rs->m, rs->path, o->name, jc->name, &ti,
                       odbc_column_nullable(jc) == SQL_NULLABLE, c + 1) != 0)
            return -1;
    }
    return 0;
}

/* The columns of a view (a saved SELECT without parameters): its result
 * set as SQLDescribeCol describes it after SELECT * FROM [view] is
 * prepared (nothing runs). A view that does not prepare (a missing table,
 * itself in its FROM, a parameter Access would prompt for): 1, the
 * engine's error in *failed (the SQLSTATE SELECT * FROM it gives). 0
 * done, -1 memory. */
static int view_columns(cat_rs *rs, const jet_object *o, const char *column,
                        sql_error *failed)
{
    if (strchr(o->name, ']'))
        return 1;                   /* not nameable in brackets */
    size_t len = strlen(o->name) + 32;
    char *sql = malloc(len);
    if (!sql)
        return -1;
    snprintf(sql, len, "SELECT * FROM [%s]", o->name);
    sql_prepare_opts po;
    memset(&po, 0, sizeof po);
    po.like_mode = (sql_like_mode)rs->s->dbc->like_mode;
    sql_error err;
    memset(&err, 0, sizeof err);
    sql_stmt *plan = NULL;
    int prc = sql_stmt_prepare(&plan, rs->db, sql, strlen(sql), &po, &err);
    free(sql);
    if (prc != 0) {
        sql_stmt_free(plan);
        *failed = err;
        return err.rc == JET_ENOMEM ? -1 : 1;
    }
    int ret = 0;
    if (sql_stmt_nparams(plan) > 0) {
        snprintf(failed->sqlstate, sizeof failed->sqlstate, "07002");
        snprintf(failed->msg, sizeof failed->msg, "Too few parameters. "
                 "Expected %zu. Saved query '%.60s' has parameter markers",
                 sql_stmt_nparams(plan), o->name);
        sql_stmt_free(plan);
        return 1;
    }
    size_t n = sql_stmt_ncols(plan);
    for (size_t i = 0; i < n && ret == 0; i++) {
        const sql_result_col *rc = sql_stmt_col(plan, i);
        if (!rc->name || !arg_match(rs->s, rc->name, column))
            continue;
        odbc_type_info ti;
        SQLSMALLINT nullable;
        odbc_describe_result_col(&ti, &nullable, rs->db, rc,
                                 rs->s->dbc->max_long_size);
        if (column_row(rs->m, rs->path, o->name, rc->name, &ti,
                       nullable != SQL_NO_NULLS, (int)i + 1) != 0)
            ret = -1;
    }
    sql_stmt_free(plan);
    return ret;
}

SQLRETURN odbc_cat_columns(odbc_stmt *s, const char *cat, const char *schem,
                           const char *table, const char *column)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &columns_spec))
        return SQL_ERROR;
    if (!rs_in_scope(&rs, cat, schem))
        return rs_finish(&rs);
    jet_db *db = rs.db;
    size_t n = jet_catalog_count(db), k = 0;
    const jet_object **objs = calloc(n ? n : 1, sizeof *objs);
    if (!objs)
        return rs_nomem(&rs);
    bool any_query = false;
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (!o || !o->name || !arg_match(s, o->name, table))
            continue;
        if (is_table_kind(o) || o->kind == JET_OBJ_LINKED_TABLE ||
            o->kind == JET_OBJ_LINKED_ODBC || o->kind == JET_OBJ_QUERY) {
            objs[k++] = o;
            any_query = any_query || o->kind == JET_OBJ_QUERY;
        }
    }
    query_info q;
    memset(&q, 0, sizeof q);
    if (any_query && load_queries(&rs, &q) != SQL_SUCCESS) {
        free(objs);
        return SQL_ERROR;
    }
    qsort(objs, k, sizeof *objs, obj_name_cmp);
    int rc = 0;
    jet_rc failed = JET_OK;
    sql_error verr;
    memset(&verr, 0, sizeof verr);
    for (size_t i = 0; i < k && rc >= 0; i++) {
        const jet_object *o = objs[i];
        if (o->kind != JET_OBJ_QUERY)
            rc = table_columns(&rs, o, column, &failed);
        else if (query_kind_of(&q, o) == Q_VIEW)
            rc = view_columns(&rs, o, column, &verr);
    }
    free(objs);
    queries_free(&q);
    if (rc == -1)
        return rs_nomem(&rs);
    if (rc == -2)
        return rs_fail(&rs, failed, jet_db_error(db));
    /* The one view the arguments name does not resolve: its error, as
     * SELECT * FROM it gives (a navigator previewing it shows why, not
     * an empty view). When the pattern matches other objects too, a
     * broken view is skipped so the others' columns still list. */
    if (rc == 1 && k == 1 && (verr.sqlstate[0] || verr.rc < 0)) {
        odbc_matrows_free(rs.m);
        rs.m = NULL;
        verr.position = 0;      /* not in any text the application sent */
        return odbc_diag_sql(DIAG(s), &verr, DIAG_CTX_TABLE);
    }
    return rs_finish(&rs);
}

/* ---------------------------------------------------------- type info */

static const cat_col typeinfo_cols[] = {
    {"TYPE_NAME", CT_STR, false}, {"DATA_TYPE", CT_SHORT, false},
    {"COLUMN_SIZE", CT_INT, true}, {"LITERAL_PREFIX", CT_STR, true},
    {"LITERAL_SUFFIX", CT_STR, true}, {"CREATE_PARAMS", CT_STR, true},
    {"NULLABLE", CT_SHORT, false}, {"CASE_SENSITIVE", CT_SHORT, false},
    {"SEARCHABLE", CT_SHORT, false}, {"UNSIGNED_ATTRIBUTE", CT_SHORT, true},
    {"FIXED_PREC_SCALE", CT_SHORT, false},
    {"AUTO_UNIQUE_VALUE", CT_SHORT, true},
    {"LOCAL_TYPE_NAME", CT_STR, true}, {"MINIMUM_SCALE", CT_SHORT, true},
    {"MAXIMUM_SCALE", CT_SHORT, true}, {"SQL_DATA_TYPE", CT_SHORT, false},
    {"SQL_DATETIME_SUB", CT_SHORT, true}, {"NUM_PREC_RADIX", CT_INT, true},
    {"INTERVAL_PRECISION", CT_SHORT, true},
};
static const cat_spec typeinfo_spec = CAT_SPEC(typeinfo_cols, NULL);

SQLRETURN odbc_cat_type_info(odbc_stmt *s, SQLSMALLINT data_type)
{
    size_t n = 0;
    const odbc_type_info *rows = odbc_type_info_rows(&n);
    cat_rs rs;
    if (!rs_begin(&rs, s, &typeinfo_spec))
        return SQL_ERROR;
    /* ODBC 2 date/time codes */
    if (data_type == SQL_DATE)
        data_type = SQL_TYPE_DATE;
    else if (data_type == SQL_TIME)
        data_type = SQL_TYPE_TIME;
    else if (data_type == SQL_TIMESTAMP)
        data_type = SQL_TYPE_TIMESTAMP;
    for (size_t i = 0; rows && i < n; i++) {
        const odbc_type_info *ti = &rows[i];
        if (data_type != SQL_ALL_TYPES && ti->sql_type != data_type)
            continue;
        jet_value *r = rs_row(&rs);
        if (!r || odbc_cell_str(rs.m, &r[0], ti->type_name) ||
            odbc_cell_str(rs.m, &r[3], ti->literal_prefix) ||
            odbc_cell_str(rs.m, &r[4], ti->literal_suffix) ||
            odbc_cell_str(rs.m, &r[5], ti->create_params) ||
            odbc_cell_str(rs.m, &r[12], ti->type_name))
            return rs_nomem(&rs);
        int sub = datetime_sub(ti->sql_type);
        cell_short(&r[1], ti->sql_type);
        cell_int(&r[2], (int64_t)ti->column_size);
        cell_short(&r[6], SQL_NULLABLE);
        cell_short(&r[7], ti->case_sensitive);
        cell_short(&r[8], ti->searchable);
        if (ti->unsigned_attr >= 0)
            cell_short(&r[9], ti->unsigned_attr);
        cell_short(&r[10], ti->fixed_prec_scale == SQL_TRUE);
        if (ti->num_prec_radix)
            cell_short(&r[11], ti->auto_unique == SQL_TRUE);
        if (ti->min_scale >= 0)
            cell_short(&r[13], ti->min_scale);
        if (ti->max_scale >= 0)
            cell_short(&r[14], ti->max_scale);
        cell_short(&r[15], sub ? SQL_DATETIME : ti->sql_type);
        if (sub)
            cell_short(&r[16], sub);
        if (ti->num_prec_radix)
            cell_int(&r[17], ti->num_prec_radix);
    }
    return rs_finish(&rs);
}

/* ------------------------------------------------- indexes and keys */

/* The table named by an ordinary (non-pattern) argument, or NULL. */
static const jet_tdef *find_table(odbc_stmt *s, const char *cat,
                                  const char *table, SQLRETURN *ret)
{
    jet_db *db = s->dbc->db;
    const jet_tdef *td = NULL;
    *ret = SQL_SUCCESS;
    if (!table) {
        *ret = odbc_diag_add(DIAG(s), "HY009", "Invalid use of null pointer: "
                             "a table name is required");
        return NULL;
    }
    if (!catalog_arg_ok(db, cat))
        return NULL;
    const jet_object *o = jet_catalog_find(db, table);
    if (!o || !is_table_kind(o))
        return NULL;
    jet_rc rc = jet_tdef_load(&td, db, o);
    if (rc == JET_EUNSUPPORTED)
        return NULL;
    if (rc != JET_OK) {
        *ret = odbc_diag_jet(DIAG(s), rc, jet_db_error(db), DIAG_CTX_TABLE);
        return NULL;
    }
    return td;
}

/* The table an ordinary table argument names in scope (cat, schem), into
 * *out (NULL when there is none: an empty result). SQL_ERROR, with the
 * rows dropped and the diagnostic raised, when the argument is missing or
 * the table cannot be read. */
static SQLRETURN rs_table(cat_rs *rs, const char *cat, const char *schem,
                          const char *table, const jet_tdef **out)
{
    SQLRETURN ret = SQL_SUCCESS;
    *out = schema_match(rs->s, schem) ? find_table(rs->s, cat, table, &ret)
                                      : NULL;
    if (ret == SQL_ERROR) {
        odbc_matrows_free(rs->m);
        rs->m = NULL;
    }
    return ret;
}

static const cat_col statistics_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"NON_UNIQUE", CT_SHORT, true},
    {"INDEX_QUALIFIER", CT_STR, true}, {"INDEX_NAME", CT_STR, true},
    {"TYPE", CT_SHORT, false}, {"ORDINAL_POSITION", CT_SHORT, true},
    {"COLUMN_NAME", CT_STR, true}, {"ASC_OR_DESC", CT_STR, true},
    {"CARDINALITY", CT_INT, true}, {"PAGES", CT_INT, true},
    {"FILTER_CONDITION", CT_STR, true},
};
/* ODBC order: NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION */
static const cat_spec statistics_spec =
    CAT_SPEC(statistics_cols, ORDER(3, 6, 5, 7));

/* Live rows of td, counted by a scan that decodes no column. */
static jet_rc count_rows(jet_db *db, const jet_tdef *td, int64_t *out,
                         jet_error *err)
{
    jet_scan *sc = NULL;
    bool *proj = calloc(td->ncols ? td->ncols : 1, sizeof *proj);
    jet_rc rc;
    *out = 0;
    if (!proj)
        return JET_ENOMEM;
    rc = jet_scan_open(&sc, db, td, proj);
    free(proj);
    if (rc != JET_OK) {
        *err = *jet_db_error(db);
        return rc;
    }
    while ((rc = jet_scan_next(sc)) == JET_OK)
        (*out)++;
    if (rc != JET_DONE)
        *err = *jet_scan_error(sc);
    jet_scan_close(sc);
    return rc == JET_DONE ? JET_OK : rc;
}

SQLRETURN odbc_cat_statistics(odbc_stmt *s, const char *cat,
                              const char *schem, const char *table,
                              SQLUSMALLINT unique, SQLUSMALLINT accuracy)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &statistics_spec))
        return SQL_ERROR;
    const jet_tdef *td;
    if (rs_table(&rs, cat, schem, table, &td) == SQL_ERROR)
        return SQL_ERROR;
    if (td) {
        jet_value *r = rs_row(&rs);
        if (!r || odbc_cell_str(rs.m, &r[0], rs.path) ||
            odbc_cell_str(rs.m, &r[2], td->name))
            return rs_nomem(&rs);
        cell_short(&r[6], SQL_TABLE_STAT);
        /* SQL_QUICK: the TDEF's count as the file (or this connection's
         * writes) has it now, which Access may leave stale; SQL_ENSURE:
         * the live rows, counted */
        int64_t rows = td->row_count;
        uint32_t tdef_rows;
        if (jet_table_row_count(s->dbc->db, td, &tdef_rows) == JET_OK)
            rows = tdef_rows;
        if (accuracy == SQL_ENSURE) {
            jet_error err;
            jet_rc rc = count_rows(s->dbc->db, td, &rows, &err);
            if (rc != JET_OK)
                return rs_fail(&rs, rc, &err);
        }
        cell_int(&r[10], rows);
        for (uint16_t i = 0; i < td->nindexes; i++) {
            const jet_index *ix = &td->indexes[i];
            if (unique == SQL_INDEX_UNIQUE && !ix->unique)
                continue;
            for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
                if (ix->cols[k].col >= td->ncols)
                    continue;
                r = rs_row(&rs);
                if (!r || odbc_cell_str(rs.m, &r[0], rs.path) ||
                    odbc_cell_str(rs.m, &r[2], td->name) ||
                    odbc_cell_str(rs.m, &r[5], ix->name) ||
                    odbc_cell_str(rs.m, &r[8], td->cols[ix->cols[k].col].name) ||
                    odbc_cell_str(rs.m, &r[9], ix->cols[k].ascending ? "A" : "D"))
                    return rs_nomem(&rs);
                cell_short(&r[3], ix->unique ? SQL_FALSE : SQL_TRUE);
                cell_short(&r[6], SQL_INDEX_OTHER);
                cell_short(&r[7], k + 1);
                /* distinct keys: known for the primary key (no NULLs,
                 * unique) - one per row */
                if (ix->primary_key)
                    cell_int(&r[10], rows);
            }
        }
    }
    return rs_finish(&rs);
}

static const cat_col pk_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"COLUMN_NAME", CT_STR, false},
    {"KEY_SEQ", CT_SHORT, false}, {"PK_NAME", CT_STR, true},
};
static const cat_spec pk_spec = CAT_SPEC(pk_cols, NULL);

SQLRETURN odbc_cat_primary_keys(odbc_stmt *s, const char *cat,
                                const char *schem, const char *table)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &pk_spec))
        return SQL_ERROR;
    const jet_tdef *td;
    if (rs_table(&rs, cat, schem, table, &td) == SQL_ERROR)
        return SQL_ERROR;
    for (uint16_t i = 0; td && i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        if (!ix->primary_key)
            continue;
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            if (ix->cols[k].col >= td->ncols)
                continue;
            jet_value *r = rs_row(&rs);
            if (!r || odbc_cell_str(rs.m, &r[0], rs.path) ||
                odbc_cell_str(rs.m, &r[2], td->name) ||
                odbc_cell_str(rs.m, &r[3], td->cols[ix->cols[k].col].name) ||
                odbc_cell_str(rs.m, &r[5], ix->name))
                return rs_nomem(&rs);
            cell_short(&r[4], k + 1);
        }
        break;
    }
    return rs_finish(&rs);
}

static const cat_col fk_cols[] = {
    {"PKTABLE_CAT", CT_STR, true}, {"PKTABLE_SCHEM", CT_STR, true},
    {"PKTABLE_NAME", CT_STR, false}, {"PKCOLUMN_NAME", CT_STR, false},
    {"FKTABLE_CAT", CT_STR, true}, {"FKTABLE_SCHEM", CT_STR, true},
    {"FKTABLE_NAME", CT_STR, false}, {"FKCOLUMN_NAME", CT_STR, false},
    {"KEY_SEQ", CT_SHORT, false}, {"UPDATE_RULE", CT_SHORT, true},
    {"DELETE_RULE", CT_SHORT, true}, {"FK_NAME", CT_STR, true},
    {"PK_NAME", CT_STR, true}, {"DEFERRABILITY", CT_SHORT, true},
};
static const cat_spec fk_spec = CAT_SPEC(fk_cols, NULL);

/* One row of MSysRelationships: one column pair of a relationship. */
typedef struct rel_row {
    char *name;             /* szRelationship */
    char *fk_table;         /* szObject: the referencing side */
    char *fk_col;           /* szColumn */
    char *pk_table;         /* szReferencedObject */
    char *pk_col;           /* szReferencedColumn */
    int32_t seq;            /* icolumn, 0-based */
    int32_t grbit;
} rel_row;

/* MSysRelationships grbit flags (Jackcess RelationshipImpl). */
#define REL_NO_INTEGRITY 0x00000002
#define REL_CASCADE_UPDATES 0x00000100
#define REL_CASCADE_DELETES 0x00001000
#define REL_CASCADE_NULL 0x00002000

enum { R_NAME, R_FKTAB, R_FKCOL, R_PKTAB, R_PKCOL, R_SEQ, R_GRBIT, R_COUNT };
static const char *const rel_colnames[R_COUNT] = {
    "szRelationship", "szObject", "szColumn", "szReferencedObject",
    "szReferencedColumn", "icolumn", "grbit",
};

static void rels_free(rel_row *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++) {
        free(r[i].name);
        free(r[i].fk_table);
        free(r[i].fk_col);
        free(r[i].pk_table);
        free(r[i].pk_col);
    }
    free(r);
}

/* Text column col of the scan's row as a malloc'ed UTF-8 string; *out NULL
 * for NULL. */
static jet_rc scan_text(jet_db *db, jet_scan *sc, int col, char **out)
{
    char buf[512];
    size_t len = 0;
    jet_value v;
    *out = NULL;
    jet_rc rc = jet_scan_value(sc, (uint16_t)col, &v);
    if (rc != JET_OK || v.is_null)
        return rc;
    if (v.type != JET_T_TEXT && v.type != JET_T_MEMO)
        return JET_OK;
    rc = jet_text_to_utf8(db, &v, buf, sizeof buf - 1, &len);
    if (rc != JET_OK)
        return rc;
    if (len > sizeof buf - 1)
        len = sizeof buf - 1;   /* names are at most 64 characters */
    buf[len] = '\0';
    *out = odbc_strdup(buf);
    return *out ? JET_OK : JET_ENOMEM;
}

/*
 * Read every row of MSysRelationships through the core (it is an ordinary
 * system table: szRelationship, szObject/szColumn = the foreign-key side,
 * szReferencedObject/szReferencedColumn = the primary-key side, icolumn =
 * position in the key, ccolumn = key width, grbit = flags). A file without
 * that table has no relationships. *out is malloc'ed (rels_free); on
 * failure err receives the detail.
 */
static jet_rc rels_load(jet_db *db, rel_row **out, size_t *count,
                        jet_error *err)
{
    const jet_object *o = jet_catalog_find(db, "MSysRelationships");
    const jet_tdef *td;
    jet_scan *sc = NULL;
    rel_row *rows = NULL;
    size_t n = 0, cap = 0;
    int pos[R_COUNT];
    jet_rc rc;

    *out = NULL;
    *count = 0;
    *err = *jet_db_error(db);
    if (!o || !is_table_kind(o))
        return JET_OK;
    rc = jet_tdef_load(&td, db, o);
    if (rc != JET_OK) {
        *err = *jet_db_error(db);
        return rc;
    }
    for (int i = 0; i < R_COUNT; i++) {
        pos[i] = jet_tdef_find_column(td, rel_colnames[i]);
        if (pos[i] < 0)
            return JET_OK;      /* not the layout we know: no relationships */
    }
    bool *proj = calloc(td->ncols ? td->ncols : 1, sizeof *proj);
    if (!proj)
        return JET_ENOMEM;
    for (int i = 0; i < R_COUNT; i++)
        proj[pos[i]] = true;
    rc = jet_scan_open(&sc, db, td, proj);
    free(proj);
    if (rc != JET_OK)
        return rc;
    while ((rc = jet_scan_next(sc)) == JET_OK) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            rel_row *p = realloc(rows, nc * sizeof *p);
            if (!p) {
                rc = JET_ENOMEM;
                break;
            }
            rows = p;
            cap = nc;
        }
        rel_row *r = &rows[n];
        memset(r, 0, sizeof *r);
        n++;
        if ((rc = scan_text(db, sc, pos[R_NAME], &r->name)) != JET_OK ||
            (rc = scan_text(db, sc, pos[R_FKTAB], &r->fk_table)) != JET_OK ||
            (rc = scan_text(db, sc, pos[R_FKCOL], &r->fk_col)) != JET_OK ||
            (rc = scan_text(db, sc, pos[R_PKTAB], &r->pk_table)) != JET_OK ||
            (rc = scan_text(db, sc, pos[R_PKCOL], &r->pk_col)) != JET_OK ||
            (rc = scan_int(sc, pos[R_SEQ], &r->seq)) != JET_OK ||
            (rc = scan_int(sc, pos[R_GRBIT], &r->grbit)) != JET_OK)
            break;
    }
    if (rc == JET_DONE)
        rc = JET_OK;
    else if (rc != JET_ENOMEM)
        *err = *jet_scan_error(sc);
    jet_scan_close(sc);
    if (rc != JET_OK) {
        rels_free(rows, n);
        return rc;
    }
    *out = rows;
    *count = n;
    return JET_OK;
}

/*
 * Name of the index of the referenced table that a relationship points at:
 * its primary key when that has exactly the referenced columns, else a
 * unique index on them, else NULL. Unloadable tables give NULL.
 */
static const char *referenced_index(jet_db *db, const char *table,
                                    const rel_row *rels, size_t nrels,
                                    const char *rel_name)
{
    const jet_object *o = jet_catalog_find(db, table);
    const jet_tdef *td;
    if (!o || !is_table_kind(o) || jet_tdef_load(&td, db, o) != JET_OK)
        return NULL;
    const char *unique = NULL;
    for (int pass = 0; pass < 2; pass++) {
        for (uint16_t i = 0; i < td->nindexes; i++) {
            const jet_index *ix = &td->indexes[i];
            if (pass == 0 ? !ix->primary_key
                          : (!ix->unique || ix->foreign_key))
                continue;
            size_t width = 0;
            bool same = true;
            for (size_t k = 0; k < nrels; k++) {
                const rel_row *r = &rels[k];
                if (!r->name || jet_name_compare_ci(r->name, rel_name) != 0)
                    continue;
                width++;
                if (r->seq < 0 || r->seq >= ix->ncols || !r->pk_col ||
                    ix->cols[r->seq].col >= td->ncols ||
                    jet_name_compare_ci(td->cols[ix->cols[r->seq].col].name,
                                    r->pk_col) != 0)
                    same = false;
            }
            if (same && width == ix->ncols) {
                if (pass == 0)
                    return ix->name;
                if (!unique)
                    unique = ix->name;
            }
        }
    }
    return unique;
}

/* Does an ordinary (non-pattern) table argument name this table? NULL
 * matches any; with the catalog argument checked against the file path. */
static bool table_arg_is(const char *arg, const char *name)
{
    return !arg || (name && jet_name_compare_ci(arg, name) == 0);
}

SQLRETURN odbc_cat_foreign_keys(odbc_stmt *s, const char *pkcat,
                                const char *pkschem, const char *pktable,
                                const char *fkcat, const char *fkschem,
                                const char *fktable)
{
    rel_row *rels = NULL;
    size_t nrels = 0;

    if (!pktable && !fktable)
        return odbc_diag_add(DIAG(s), "HY009", "Invalid use of null pointer: "
                             "a table name is required");
    /* "" is a table not given: PHP's odbc_foreignkeys passes it for the
     * side it does not name. Both "": no table named, no rows. */
    bool none = (!pktable || !*pktable) && (!fktable || !*fktable);
    if (pktable && !*pktable)
        pktable = NULL;
    if (fktable && !*fktable)
        fktable = NULL;
    cat_rs rs;
    if (!rs_begin(&rs, s, &fk_spec))
        return SQL_ERROR;
    jet_db *db = rs.db;
    const char *path = rs.path;
    /* no schemas: a non-empty schema names nothing */
    if (none || !catalog_arg_ok(db, pkcat) || !catalog_arg_ok(db, fkcat) ||
        (pkschem && *pkschem) || (fkschem && *fkschem))
        return rs_finish(&rs);
    jet_error err;
    jet_rc rc = rels_load(db, &rels, &nrels, &err);
    if (rc != JET_OK)
        return rs_fail(&rs, rc, &err);
    for (size_t i = 0; i < nrels; i++) {
        const rel_row *r = &rels[i];
        if (!r->name || !r->fk_table || !r->pk_table || !r->fk_col ||
            !r->pk_col || (r->grbit & REL_NO_INTEGRITY) ||
            !table_arg_is(pktable, r->pk_table) ||
            !table_arg_is(fktable, r->fk_table))
            continue;
        int upd = (r->grbit & REL_CASCADE_UPDATES) ? SQL_CASCADE
                                                   : SQL_NO_ACTION;
        int del = (r->grbit & REL_CASCADE_DELETES) ? SQL_CASCADE
                : (r->grbit & REL_CASCADE_NULL)    ? SQL_SET_NULL
                                                   : SQL_NO_ACTION;
        const char *pk_name = referenced_index(db, r->pk_table, rels, nrels,
                                               r->name);
        jet_value *row = rs_row(&rs);
        if (!row || odbc_cell_str(rs.m, &row[0], path) ||
            odbc_cell_str(rs.m, &row[2], r->pk_table) ||
            odbc_cell_str(rs.m, &row[3], r->pk_col) ||
            odbc_cell_str(rs.m, &row[4], path) ||
            odbc_cell_str(rs.m, &row[6], r->fk_table) ||
            odbc_cell_str(rs.m, &row[7], r->fk_col) ||
            odbc_cell_str(rs.m, &row[11], r->name) ||
            odbc_cell_str(rs.m, &row[12], pk_name)) {
            rels_free(rels, nrels);
            return rs_nomem(&rs);
        }
        cell_short(&row[8], r->seq + 1);
        cell_short(&row[9], upd);
        cell_short(&row[10], del);
        cell_short(&row[13], SQL_NOT_DEFERRABLE);
    }
    rels_free(rels, nrels);
    /* ODBC order: by the other side's table (FKTABLE_* when the primary-
     * key table was given, else PKTABLE_*), then KEY_SEQ; FK_NAME keeps
     * two relationships between the same tables apart */
    static const int by_fk[] = {6, 11, 8, -1};
    static const int by_pk[] = {2, 11, 8, -1};
    rs.order = pktable ? by_fk : by_pk;
    return rs_finish(&rs);
}

static const cat_col special_cols[] = {
    {"SCOPE", CT_SHORT, true}, {"COLUMN_NAME", CT_STR, false},
    {"DATA_TYPE", CT_SHORT, false}, {"TYPE_NAME", CT_STR, false},
    {"COLUMN_SIZE", CT_INT, true}, {"BUFFER_LENGTH", CT_INT, true},
    {"DECIMAL_DIGITS", CT_SHORT, true}, {"PSEUDO_COLUMN", CT_SHORT, true},
};
static const cat_spec special_spec = CAT_SPEC(special_cols, NULL);

/* SQL_BEST_ROWID: the primary key; without one, the first unique index
 * (not a relationship's) whose columns cannot be NULL - or, when the
 * caller accepts nullable columns, any unique one. NULL when none. */
static const jet_index *best_rowid_index(const jet_tdef *td,
                                         SQLUSMALLINT nullable)
{
    for (uint16_t i = 0; i < td->nindexes; i++)
        if (td->indexes[i].primary_key)
            return &td->indexes[i];
    for (uint16_t i = 0; i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        bool ok = ix->unique && !ix->foreign_key && ix->ncols > 0;
        for (uint16_t k = 0; ok && k < ix->ncols && k < 10; k++) {
            if (ix->cols[k].col >= td->ncols)
                ok = false;
            else if (nullable == SQL_NO_NULLS && !ix->required &&
                     odbc_column_nullable(&td->cols[ix->cols[k].col]) ==
                         SQL_NULLABLE)
                ok = false;
        }
        if (ok)
            return ix;
    }
    return NULL;
}

SQLRETURN odbc_cat_special_columns(odbc_stmt *s, SQLUSMALLINT id_type,
                                   const char *cat, const char *schem,
                                   const char *table, SQLUSMALLINT scope,
                                   SQLUSMALLINT nullable)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &special_spec))
        return SQL_ERROR;
    if (id_type != SQL_BEST_ROWID)
        return rs_finish(&rs);
    const jet_tdef *td;
    if (rs_table(&rs, cat, schem, table, &td) == SQL_ERROR)
        return SQL_ERROR;
    (void)scope;    /* keys of a read-only file hold for the session */
    const jet_index *best = td ? best_rowid_index(td, nullable) : NULL;
    if (best) {
        const jet_index *ix = best;
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            if (ix->cols[k].col >= td->ncols)
                continue;
            const jet_column *jc = &td->cols[ix->cols[k].col];
            odbc_type_info ti;
            odbc_type_for_column(&ti, s->dbc->db, jc);
            jet_value *r = rs_row(&rs);
            if (!r || odbc_cell_str(rs.m, &r[1], jc->name) ||
                odbc_cell_str(rs.m, &r[3], ti.type_name))
                return rs_nomem(&rs);
            cell_short(&r[0], SQL_SCOPE_SESSION);
            cell_short(&r[2], ti.sql_type);
            cell_int(&r[4], (int64_t)ti.column_size);
            cell_int(&r[5], ti.octet_length);
            if (ti.decimal_digits >= 0)
                cell_short(&r[6], ti.decimal_digits);
            cell_short(&r[7], SQL_PC_NOT_PSEUDO);
        }
    }
    return rs_finish(&rs);
}

/* Load the saved-query details for SQLProcedures/SQLProcedureColumns;
 * on failure drops the rows, raises the diagnostic and returns SQL_ERROR. */
static SQLRETURN load_queries(cat_rs *rs, query_info *q)
{
    jet_error err;
    jet_rc rc = queries_load(rs->db, q, &err);
    return rc == JET_OK ? SQL_SUCCESS : rs_fail(rs, rc, &err);
}

/* Is catalog entry o a procedure (action or parameter query) whose name
 * matches the pattern proc? */
static bool is_procedure(const odbc_stmt *s, const query_info *q,
                         const jet_object *o, const char *proc)
{
    return o && o->kind == JET_OBJ_QUERY && o->name &&
           query_kind_of(q, o) == Q_PROCEDURE && arg_match(s, o->name, proc);
}

static const cat_col proc_cols[] = {
    {"PROCEDURE_CAT", CT_STR, true}, {"PROCEDURE_SCHEM", CT_STR, true},
    {"PROCEDURE_NAME", CT_STR, false}, {"NUM_INPUT_PARAMS", CT_INT, true},
    {"NUM_OUTPUT_PARAMS", CT_INT, true}, {"NUM_RESULT_SETS", CT_INT, true},
    {"REMARKS", CT_STR, true}, {"PROCEDURE_TYPE", CT_SHORT, true},
};
static const cat_spec proc_spec = CAT_SPEC(proc_cols, ORDER(2));

SQLRETURN odbc_cat_procedures(odbc_stmt *s, const char *cat,
                              const char *schem, const char *proc)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &proc_spec))
        return SQL_ERROR;
    if (!rs_in_scope(&rs, cat, schem))
        return rs_finish(&rs);
    query_info q;
    if (load_queries(&rs, &q) != SQL_SUCCESS)
        return SQL_ERROR;
    size_t n = jet_catalog_count(rs.db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(rs.db, i);
        if (!is_procedure(s, &q, o, proc))
            continue;
        jet_value *r = rs_row(&rs);
        if (!r || odbc_cell_str(rs.m, &r[0], rs.path) ||
            odbc_cell_str(rs.m, &r[2], o->name)) {
            queries_free(&q);
            return rs_nomem(&rs);
        }
        /* NUM_* are "reserved for future use" (NULL); a procedure here is
         * an Access action or parameter query, which returns no value */
        cell_short(&r[7], SQL_PT_PROCEDURE);
    }
    queries_free(&q);
    return rs_finish(&rs);
}

static const cat_col proccol_cols[] = {
    {"PROCEDURE_CAT", CT_STR, true}, {"PROCEDURE_SCHEM", CT_STR, true},
    {"PROCEDURE_NAME", CT_STR, false}, {"COLUMN_NAME", CT_STR, false},
    {"COLUMN_TYPE", CT_SHORT, false}, {"DATA_TYPE", CT_SHORT, false},
    {"TYPE_NAME", CT_STR, false}, {"COLUMN_SIZE", CT_INT, true},
    {"BUFFER_LENGTH", CT_INT, true}, {"DECIMAL_DIGITS", CT_SHORT, true},
    {"NUM_PREC_RADIX", CT_SHORT, true}, {"NULLABLE", CT_SHORT, false},
    {"REMARKS", CT_STR, true}, {"COLUMN_DEF", CT_STR, true},
    {"SQL_DATA_TYPE", CT_SHORT, false}, {"SQL_DATETIME_SUB", CT_SHORT, true},
    {"CHAR_OCTET_LENGTH", CT_INT, true}, {"ORDINAL_POSITION", CT_INT, false},
    {"IS_NULLABLE", CT_STR, true},
};
/* ODBC order: PROCEDURE_NAME, COLUMN_TYPE (then declaration order) */
static const cat_spec proccol_spec = CAT_SPEC(proccol_cols, ORDER(2, 4, 17));

SQLRETURN odbc_cat_procedure_columns(odbc_stmt *s, const char *cat,
                                     const char *schem, const char *proc,
                                     const char *column)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &proccol_spec))
        return SQL_ERROR;
    if (!rs_in_scope(&rs, cat, schem))
        return rs_finish(&rs);
    jet_db *db = rs.db;
    query_info q;
    if (load_queries(&rs, &q) != SQL_SUCCESS)
        return SQL_ERROR;
    /* the parameters (PARAMETERS declarations) of each procedure; the
     * result columns of parameter queries are not described */
    size_t n = jet_catalog_count(db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (!is_procedure(s, &q, o, proc))
            continue;
        for (size_t k = 0; k < q.nparams; k++) {
            const query_param *pp = &q.params[k];
            if (pp->qid != o->id || !pp->name ||
                !arg_match(s, pp->name, column))
                continue;
            jet_column jc;
            memset(&jc, 0, sizeof jc);
            jc.name = pp->name;
            jc.type = jc.result_type = (jet_type)pp->type;
            jc.flags = JET_COL_NULLABLE;
            /* a Text parameter holds up to 255 characters */
            jc.length = jet_db_version(db) == JET_VER_3 ? 255 : 510;
            odbc_type_info ti;
            odbc_type_for_column(&ti, db, &jc);
            int sub = datetime_sub(ti.sql_type);
            jet_value *r = rs_row(&rs);
            if (!r || odbc_cell_str(rs.m, &r[0], rs.path) ||
                odbc_cell_str(rs.m, &r[2], o->name) ||
                odbc_cell_str(rs.m, &r[3], pp->name) ||
                odbc_cell_str(rs.m, &r[6], ti.type_name) ||
                odbc_cell_str(rs.m, &r[18], "YES")) {
                queries_free(&q);
                return rs_nomem(&rs);
            }
            cell_short(&r[4], SQL_PARAM_INPUT);
            cell_short(&r[5], ti.sql_type);
            cell_int(&r[7], (int64_t)ti.column_size);
            cell_int(&r[8], ti.octet_length);
            if (ti.decimal_digits >= 0)
                cell_short(&r[9], ti.decimal_digits);
            if (ti.num_prec_radix)
                cell_short(&r[10], ti.num_prec_radix);
            cell_short(&r[11], SQL_NULLABLE);
            cell_short(&r[14], sub ? SQL_DATETIME : ti.sql_type);
            if (sub)
                cell_short(&r[15], sub);
            if (is_char_or_binary(ti.sql_type))
                cell_int(&r[16], ti.octet_length);
            cell_int(&r[17], pp->ordinal);
        }
    }
    queries_free(&q);
    return rs_finish(&rs);
}

/* --------------------------------------------------------- privileges */

/* What the connection may do with a table: SELECT, granted to Access's
 * default user Admin (SQL_USER_NAME), by nobody (GRANTOR NULL), not
 * grantable. The driver opens files read-only, so that is the whole
 * truth whatever the workgroup file says; LibreOffice Base asks for
 * column privileges whenever it opens a table. */
static const cat_col tabpriv_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"GRANTOR", CT_STR, true},
    {"GRANTEE", CT_STR, false}, {"PRIVILEGE", CT_STR, false},
    {"IS_GRANTABLE", CT_STR, true},
};
static const cat_spec tabpriv_spec = CAT_SPEC(tabpriv_cols, ORDER(2));

static int privilege_cells(odbc_matrows *m, jet_value *r, const char *path,
                           const char *table, int first_grantee)
{
    return odbc_cell_str(m, &r[0], path) || odbc_cell_str(m, &r[2], table) ||
           odbc_cell_str(m, &r[first_grantee], "Admin") ||
           odbc_cell_str(m, &r[first_grantee + 1], "SELECT") ||
           odbc_cell_str(m, &r[first_grantee + 2], "NO");
}

SQLRETURN odbc_cat_table_privileges(odbc_stmt *s, const char *cat,
                                    const char *schem, const char *table)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &tabpriv_spec))
        return SQL_ERROR;
    if (!rs_in_scope(&rs, cat, schem))
        return rs_finish(&rs);
    size_t n = jet_catalog_count(rs.db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(rs.db, i);
        if (!o || !o->name || !is_table_kind(o) ||
            !arg_match(s, o->name, table))
            continue;
        jet_value *r = rs_row(&rs);
        if (!r || privilege_cells(rs.m, r, rs.path, o->name, 4))
            return rs_nomem(&rs);
    }
    return rs_finish(&rs);
}

static const cat_col colpriv_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"COLUMN_NAME", CT_STR, false},
    {"GRANTOR", CT_STR, true}, {"GRANTEE", CT_STR, false},
    {"PRIVILEGE", CT_STR, false}, {"IS_GRANTABLE", CT_STR, true},
};
static const cat_spec colpriv_spec = CAT_SPEC(colpriv_cols, ORDER(3));

SQLRETURN odbc_cat_column_privileges(odbc_stmt *s, const char *cat,
                                     const char *schem, const char *table,
                                     const char *column)
{
    cat_rs rs;
    if (!rs_begin(&rs, s, &colpriv_spec))
        return SQL_ERROR;
    /* the table argument is a name, not a pattern (spec) */
    const jet_tdef *td;
    if (rs_table(&rs, cat, schem, table, &td) == SQL_ERROR)
        return SQL_ERROR;
    for (uint16_t c = 0; td && c < td->ncols; c++) {
        const jet_column *jc = &td->cols[c];
        if (!jc->name || !arg_match(s, jc->name, column))
            continue;
        jet_value *r = rs_row(&rs);
        if (!r || privilege_cells(rs.m, r, rs.path, td->name, 5) ||
            odbc_cell_str(rs.m, &r[3], jc->name))
            return rs_nomem(&rs);
    }
    return rs_finish(&rs);
}
