/*
 * catalog.c - SQLTables, SQLColumns, SQLGetTypeInfo, SQLStatistics,
 * SQLPrimaryKeys, SQLForeignKeys, SQLSpecialColumns, SQLProcedures and
 * SQLProcedureColumns as ordinary (materialized) result sets.
 *
 * Column lists and orders: ODBC 3.x reference of each function. The
 * catalog (TABLE_CAT) is the database file path; there are no schemas
 * (TABLE_SCHEM NULL). Table types: TABLE, SYSTEM TABLE (system-flagged
 * objects and MSys* names), VIEW (saved queries), SYNONYM (linked tables,
 * Access or ODBC links; Access itself reports "LINK"/"PASS-THROUGH" in its
 * own UI). Search patterns: % and _ with \ as escape, compared
 * case-insensitively as Access compares names.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdlib.h>
#include <string.h>

#include "convert.h"

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

/* Build an empty result of defs, or take rows. */
static SQLRETURN finish(odbc_stmt *s, odbc_matrows *rows, const cat_col *defs,
                        uint16_t n)
{
    odbc_colmeta *cols = make_cols(defs, n);
    if (!rows)
        rows = odbc_matrows_new(n);
    if (!cols || !rows) {
        free(cols);
        odbc_matrows_free(rows);
        return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
    }
    return odbc_stmt_set_matrows(s, rows, cols, n);
}

static SQLRETURN nomem(odbc_stmt *s, odbc_matrows *rows)
{
    odbc_matrows_free(rows);
    return odbc_diag_add(DIAG(s), "HY001", "Memory allocation error");
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
        if (!*s || lower((unsigned char)*s) != lower((unsigned char)*p))
            return false;
        s++;
        p++;
    }
    return *s == '\0';
}

/* A pattern argument: NULL or "" matches everything here (LibreOffice
 * passes "" for "no catalog"); with METADATA_ID the argument is a name. */
static bool arg_match(const odbc_stmt *s, const char *name, const char *pat)
{
    if (!pat || !*pat)
        return true;
    if (!name)
        name = "";
    if (s->metadata_id == SQL_TRUE)
        return odbc_strcasecmp(name, pat) == 0;
    return like(name, pat, 0) || odbc_strcasecmp(name, pat) == 0;
}

static bool schema_match(const odbc_stmt *s, const char *pat)
{
    return arg_match(s, "", pat);
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

static const char *object_type(const jet_object *o)
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
        return "VIEW";
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

/* Sorting rows of a rowset: compare text cells col_a then col_b. */
static int cell_cmp(const jet_value *a, const jet_value *b)
{
    if (a->is_null || b->is_null)
        return (int)b->is_null - (int)a->is_null;
    if (a->type == JET_T_TEXT)
        return odbc_strcasecmp((const char *)a->data, (const char *)b->data);
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
    if (m->nrows < 2)
        return;
    pthread_mutex_lock(&sort_lock);
    sort_keys = keys;
    qsort(m->cells, m->nrows, m->ncols * sizeof(jet_value), row_cmp);
    pthread_mutex_unlock(&sort_lock);
}

/* ------------------------------------------------------------- tables */

static const cat_col tables_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, true}, {"TABLE_TYPE", CT_STR, true},
    {"REMARKS", CT_STR, true},
};

SQLRETURN odbc_cat_tables(odbc_stmt *s, const char *cat, const char *schem,
                          const char *table, const char *types)
{
    jet_db *db = s->dbc->db;
    const char *path = jet_db_path(db);
    odbc_matrows *m = odbc_matrows_new(NCOLS(tables_cols));
    if (!m)
        return nomem(s, NULL);
    bool cat_empty = cat && !*cat, schem_empty = schem && !*schem;
    bool table_empty = table && !*table;

    if (cat && strcmp(cat, SQL_ALL_CATALOGS) == 0 && schem_empty &&
        table_empty) {
        jet_value *r = odbc_matrows_add(m);
        if (!r || odbc_cell_str(m, &r[0], path) != 0)
            return nomem(s, m);
        return finish(s, m, tables_cols, NCOLS(tables_cols));
    }
    if (schem && strcmp(schem, SQL_ALL_SCHEMAS) == 0 && cat_empty &&
        table_empty)
        return finish(s, m, tables_cols, NCOLS(tables_cols));
    if (types && strcmp(types, SQL_ALL_TABLE_TYPES) == 0 && cat_empty &&
        schem_empty && table_empty) {
        static const char *const all[] = {"SYNONYM", "SYSTEM TABLE", "TABLE",
                                          "VIEW"};
        for (size_t i = 0; i < 4; i++) {
            jet_value *r = odbc_matrows_add(m);
            if (!r || odbc_cell_str(m, &r[3], all[i]) != 0)
                return nomem(s, m);
        }
        return finish(s, m, tables_cols, NCOLS(tables_cols));
    }
    /* the catalog argument is a pattern too (ODBC 3); Excel passes "%" */
    if (!arg_match(s, path, cat) || !schema_match(s, schem))
        return finish(s, m, tables_cols, NCOLS(tables_cols));
    size_t n = jet_catalog_count(db);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        const char *type = o ? object_type(o) : NULL;
        if (!type || !o->name || !type_wanted(types, type) ||
            !arg_match(s, o->name, table))
            continue;
        jet_value *r = odbc_matrows_add(m);
        if (!r || odbc_cell_str(m, &r[0], path) != 0 ||
            odbc_cell_str(m, &r[2], o->name) != 0 ||
            odbc_cell_str(m, &r[3], type) != 0)
            return nomem(s, m);
    }
    static const int keys[] = {3, 2, -1};
    sort_rows(m, keys);
    return finish(s, m, tables_cols, NCOLS(tables_cols));
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

static bool is_table_kind(const jet_object *o)
{
    return o->kind == JET_OBJ_TABLE || o->kind == JET_OBJ_SYSTEM_TABLE;
}

static int obj_name_cmp(const void *a, const void *b)
{
    const jet_object *x = *(const jet_object *const *)a;
    const jet_object *y = *(const jet_object *const *)b;
    return odbc_strcasecmp(x->name, y->name);
}

/* One row of type information for a column (SQLColumns). */
static int column_row(odbc_matrows *m, const char *path, const jet_tdef *td,
                      const jet_column *jc, const odbc_type_info *ti,
                      int ordinal)
{
    jet_value *r = odbc_matrows_add(m);
    if (!r)
        return -1;
    if (odbc_cell_str(m, &r[0], path) || odbc_cell_str(m, &r[2], td->name) ||
        odbc_cell_str(m, &r[3], jc->name) ||
        odbc_cell_str(m, &r[5], ti->type_name))
        return -1;
    int sub = datetime_sub(ti->sql_type);
    bool nullable = (jc->flags & JET_COL_NULLABLE) != 0;
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

SQLRETURN odbc_cat_columns(odbc_stmt *s, const char *cat, const char *schem,
                           const char *table, const char *column)
{
    jet_db *db = s->dbc->db;
    const char *path = jet_db_path(db);
    odbc_matrows *m = odbc_matrows_new(NCOLS(columns_cols));
    if (!m)
        return nomem(s, NULL);
    if (!arg_match(s, path, cat) || !schema_match(s, schem))
        return finish(s, m, columns_cols, NCOLS(columns_cols));
    size_t n = jet_catalog_count(db), k = 0;
    const jet_object **objs = calloc(n ? n : 1, sizeof *objs);
    if (!objs)
        return nomem(s, m);
    for (size_t i = 0; i < n; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (o && o->name && is_table_kind(o) && arg_match(s, o->name, table))
            objs[k++] = o;
    }
    qsort(objs, k, sizeof *objs, obj_name_cmp);
    for (size_t i = 0; i < k; i++) {
        const jet_tdef *td;
        jet_rc rc = jet_tdef_load(&td, db, objs[i]);
        if (rc == JET_EUNSUPPORTED)
            continue;
        if (rc != JET_OK) {
            free(objs);
            odbc_matrows_free(m);
            return odbc_diag_jet(DIAG(s), rc, jet_db_error(db),
                                 DIAG_CTX_TABLE);
        }
        for (uint16_t c = 0; c < td->ncols; c++) {
            const jet_column *jc = &td->cols[c];
            if (!arg_match(s, jc->name, column))
                continue;
            odbc_type_info ti;
            odbc_type_for_column(&ti, db, jc);
            if (column_row(m, path, td, jc, &ti, c + 1) != 0) {
                free(objs);
                return nomem(s, m);
            }
        }
    }
    free(objs);
    return finish(s, m, columns_cols, NCOLS(columns_cols));
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

SQLRETURN odbc_cat_type_info(odbc_stmt *s, SQLSMALLINT data_type)
{
    size_t n = 0;
    const odbc_type_info *rows = odbc_type_info_rows(&n);
    odbc_matrows *m = odbc_matrows_new(NCOLS(typeinfo_cols));
    if (!m)
        return nomem(s, NULL);
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
        jet_value *r = odbc_matrows_add(m);
        if (!r || odbc_cell_str(m, &r[0], ti->type_name) ||
            odbc_cell_str(m, &r[3], ti->literal_prefix) ||
            odbc_cell_str(m, &r[4], ti->literal_suffix) ||
            odbc_cell_str(m, &r[5], ti->create_params) ||
            odbc_cell_str(m, &r[12], ti->type_name))
            return nomem(s, m);
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
    return finish(s, m, typeinfo_cols, NCOLS(typeinfo_cols));
}

/* ------------------------------------------------- indexes and keys */

/* The table named by an ordinary (non-pattern) argument, or NULL. */
static const jet_tdef *find_table(odbc_stmt *s, const char *cat,
                                  const char *table, SQLRETURN *ret)
{
    jet_db *db = s->dbc->db;
    const jet_tdef *td = NULL;
    *ret = SQL_SUCCESS;
    if (!table)
        return NULL;
    if (cat && *cat && strcmp(cat, jet_db_path(db)) != 0)
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

static const cat_col statistics_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"NON_UNIQUE", CT_SHORT, true},
    {"INDEX_QUALIFIER", CT_STR, true}, {"INDEX_NAME", CT_STR, true},
    {"TYPE", CT_SHORT, false}, {"ORDINAL_POSITION", CT_SHORT, true},
    {"COLUMN_NAME", CT_STR, true}, {"ASC_OR_DESC", CT_STR, true},
    {"CARDINALITY", CT_INT, true}, {"PAGES", CT_INT, true},
    {"FILTER_CONDITION", CT_STR, true},
};

SQLRETURN odbc_cat_statistics(odbc_stmt *s, const char *cat,
                              const char *schem, const char *table,
                              SQLUSMALLINT unique)
{
    SQLRETURN ret = SQL_SUCCESS;
    odbc_matrows *m = odbc_matrows_new(NCOLS(statistics_cols));
    if (!m)
        return nomem(s, NULL);
    const jet_tdef *td = schema_match(s, schem) ? find_table(s, cat, table, &ret)
                                                : NULL;
    if (ret == SQL_ERROR) {
        odbc_matrows_free(m);
        return ret;
    }
    if (td) {
        const char *path = jet_db_path(s->dbc->db);
        jet_value *r = odbc_matrows_add(m);
        if (!r || odbc_cell_str(m, &r[0], path) ||
            odbc_cell_str(m, &r[2], td->name))
            return nomem(s, m);
        cell_short(&r[6], SQL_TABLE_STAT);
        cell_int(&r[10], td->row_count);
        for (uint16_t i = 0; i < td->nindexes; i++) {
            const jet_index *ix = &td->indexes[i];
            if (unique == SQL_INDEX_UNIQUE && !ix->unique)
                continue;
            for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
                if (ix->cols[k].col >= td->ncols)
                    continue;
                r = odbc_matrows_add(m);
                if (!r || odbc_cell_str(m, &r[0], path) ||
                    odbc_cell_str(m, &r[2], td->name) ||
                    odbc_cell_str(m, &r[5], ix->name) ||
                    odbc_cell_str(m, &r[8], td->cols[ix->cols[k].col].name) ||
                    odbc_cell_str(m, &r[9], ix->cols[k].ascending ? "A" : "D"))
                    return nomem(s, m);
                cell_short(&r[3], ix->unique ? SQL_FALSE : SQL_TRUE);
                cell_short(&r[6], SQL_INDEX_OTHER);
                cell_short(&r[7], k + 1);
            }
        }
        /* ODBC order: NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION */
        static const int keys[] = {3, 6, 5, 7, -1};
        sort_rows(m, keys);
    }
    return finish(s, m, statistics_cols, NCOLS(statistics_cols));
}

static const cat_col pk_cols[] = {
    {"TABLE_CAT", CT_STR, true}, {"TABLE_SCHEM", CT_STR, true},
    {"TABLE_NAME", CT_STR, false}, {"COLUMN_NAME", CT_STR, false},
    {"KEY_SEQ", CT_SHORT, false}, {"PK_NAME", CT_STR, true},
};

SQLRETURN odbc_cat_primary_keys(odbc_stmt *s, const char *cat,
                                const char *schem, const char *table)
{
    SQLRETURN ret = SQL_SUCCESS;
    odbc_matrows *m = odbc_matrows_new(NCOLS(pk_cols));
    if (!m)
        return nomem(s, NULL);
    const jet_tdef *td = schema_match(s, schem) ? find_table(s, cat, table, &ret)
                                                : NULL;
    if (ret == SQL_ERROR) {
        odbc_matrows_free(m);
        return ret;
    }
    for (uint16_t i = 0; td && i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        if (!ix->primary_key)
            continue;
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            if (ix->cols[k].col >= td->ncols)
                continue;
            jet_value *r = odbc_matrows_add(m);
            if (!r || odbc_cell_str(m, &r[0], jet_db_path(s->dbc->db)) ||
                odbc_cell_str(m, &r[2], td->name) ||
                odbc_cell_str(m, &r[3], td->cols[ix->cols[k].col].name) ||
                odbc_cell_str(m, &r[5], ix->name))
                return nomem(s, m);
            cell_short(&r[4], k + 1);
        }
        break;
    }
    return finish(s, m, pk_cols, NCOLS(pk_cols));
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

SQLRETURN odbc_cat_foreign_keys(odbc_stmt *s, const char *pkcat,
                                const char *pkschem, const char *pktable,
                                const char *fkcat, const char *fkschem,
                                const char *fktable)
{
    /* relationships live in MSysRelationships, which core does not read
     * yet: a valid, empty result */
    if (!pktable && !fktable)
        return odbc_diag_add(DIAG(s), "HY009", "Invalid use of null pointer: "
                             "a table name is required");
    return finish(s, NULL, fk_cols, NCOLS(fk_cols));
}

static const cat_col special_cols[] = {
    {"SCOPE", CT_SHORT, true}, {"COLUMN_NAME", CT_STR, false},
    {"DATA_TYPE", CT_SHORT, false}, {"TYPE_NAME", CT_STR, false},
    {"COLUMN_SIZE", CT_INT, true}, {"BUFFER_LENGTH", CT_INT, true},
    {"DECIMAL_DIGITS", CT_SHORT, true}, {"PSEUDO_COLUMN", CT_SHORT, true},
};

SQLRETURN odbc_cat_special_columns(odbc_stmt *s, SQLUSMALLINT id_type,
                                   const char *cat, const char *schem,
                                   const char *table, SQLUSMALLINT scope,
                                   SQLUSMALLINT nullable)
{
    SQLRETURN ret = SQL_SUCCESS;
    odbc_matrows *m = odbc_matrows_new(NCOLS(special_cols));
    if (!m)
        return nomem(s, NULL);
    if (id_type != SQL_BEST_ROWID)
        return finish(s, m, special_cols, NCOLS(special_cols));
    const jet_tdef *td = schema_match(s, schem) ? find_table(s, cat, table, &ret)
                                                : NULL;
    if (ret == SQL_ERROR) {
        odbc_matrows_free(m);
        return ret;
    }
    for (uint16_t i = 0; td && i < td->nindexes; i++) {
        const jet_index *ix = &td->indexes[i];
        if (!ix->primary_key)
            continue;
        for (uint16_t k = 0; k < ix->ncols && k < 10; k++) {
            if (ix->cols[k].col >= td->ncols)
                continue;
            const jet_column *jc = &td->cols[ix->cols[k].col];
            odbc_type_info ti;
            odbc_type_for_column(&ti, s->dbc->db, jc);
            jet_value *r = odbc_matrows_add(m);
            if (!r || odbc_cell_str(m, &r[1], jc->name) ||
                odbc_cell_str(m, &r[3], ti.type_name))
                return nomem(s, m);
            cell_short(&r[0], SQL_SCOPE_SESSION);
            cell_short(&r[2], ti.sql_type);
            cell_int(&r[4], (int64_t)ti.column_size);
            cell_int(&r[5], ti.octet_length);
            if (ti.decimal_digits >= 0)
                cell_short(&r[6], ti.decimal_digits);
            cell_short(&r[7], SQL_PC_NOT_PSEUDO);
        }
        break;
    }
    return finish(s, m, special_cols, NCOLS(special_cols));
}

static const cat_col proc_cols[] = {
    {"PROCEDURE_CAT", CT_STR, true}, {"PROCEDURE_SCHEM", CT_STR, true},
    {"PROCEDURE_NAME", CT_STR, false}, {"NUM_INPUT_PARAMS", CT_INT, true},
    {"NUM_OUTPUT_PARAMS", CT_INT, true}, {"NUM_RESULT_SETS", CT_INT, true},
    {"REMARKS", CT_STR, true}, {"PROCEDURE_TYPE", CT_SHORT, true},
};

SQLRETURN odbc_cat_procedures(odbc_stmt *s)
{
    return finish(s, NULL, proc_cols, NCOLS(proc_cols));
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

SQLRETURN odbc_cat_procedure_columns(odbc_stmt *s)
{
    return finish(s, NULL, proccol_cols, NCOLS(proccol_cols));
}
