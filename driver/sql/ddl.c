/*
 * ddl.c - the executor of CREATE, DROP and ALTER and of SELECT ... INTO
 * (issue 27): binds ddlparse.c's tree against the catalog and runs it
 * through core/ddl.h.
 *
 * A run happens in the db's write transaction (one begun and committed
 * here when none is open: the driver's autocommit) under a statement
 * savepoint, as dml.c's: any failure rolls back to it, so a refused
 * statement leaves the file byte-for-byte unchanged. Names are checked
 * against the catalog when the statement runs (a prepared CREATE TABLE
 * meets the catalog of its execute), with Access's SQLSTATEs:
 *   42S01 Table 'x' already exists.       42S02 no such table
 *   42S11 Index 'x' already exists.       42S12 no such index
 *   42S21 Field 'x' already exists ...    42S22 no such field
 *   HYC00 a type or clause the file's version (or the core) cannot hold
 * and the core's own refusals through the driver's one map.
 *
 * SELECT ... INTO t: the SELECT is planned at prepare (its parameters);
 * a run creates t with the result's columns (types, text lengths,
 * precision; no keys, AutoNumbers or Required, as Access's make-table)
 * and fills it with INSERT INTO [t] SELECT ... through dml.c, inside the
 * same savepoint: one atomic statement.
 */
#include "config.h"

#include "plan.h"
#include "rules.h"
#include "statement.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddl.h"
#include "write.h"

struct sql_ddl_exec {
    jet_db *db;
    sql_ddl *d;                 /* in s->query's arena */
    sql_like_mode like_mode;    /* SELECT INTO: its INSERT's, as prepared */
};

/* ------------------------------------------------------------ errors */

static int core_failed(jet_db *db, jet_rc rc, sql_error *err)
{
    const jet_error *je = jet_db_error(db);
    memset(err, 0, sizeof *err);
    err->rc = rc;
    err->pgno = je->pgno;
    snprintf(err->msg, sizeof err->msg, "%s", je->msg[0] ? je->msg
                                                         : jet_rc_str(rc));
    return rc;
}

/* An SQL error: the statement's failure code (sql.h). */
static int fail(sql_error *err, const char *state, size_t pos,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(sql_error *err, const char *state, size_t pos,
                const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sql_set_error(err, state, pos, "%s", msg);
    return JET_EUNSUPPORTED;
}

static int no_table(sql_error *err, const sql_ddl *d)
{
    return fail(err, "42S02", d->table_position, "The database engine "
                "cannot find the table '%s'", d->table);
}

/* Whether name follows Access's rules for an object's name: 1 to 64
 * characters, no leading space, none of . ! ` [ ] and no control
 * character; else 42000 with Access's message (its error 3125), before
 * anything is written. */
static int name_ok(const char *name, size_t pos, sql_error *err)
{
    size_t chars = 0;
    bool bad = !name[0] || name[0] == ' ';
    for (const unsigned char *c = (const unsigned char *)name; *c && !bad;
         c++) {
        bad = *c < 0x20 || *c == 0x7F || *c == '.' || *c == '!' ||
              *c == '`' || *c == '[' || *c == ']';
        chars += (*c & 0xC0) != 0x80;
    }
    if (!bad && chars <= 64)
        return 0;
    return fail(err, "42000", pos, "'%.80s' isn't a valid name. Make sure "
                "that it doesn't include invalid characters or punctuation "
                "and that it isn't too long.", name);
}

/* The names a statement would write: its table's (when it makes one),
 * its new columns', indexes' and constraints'. */
static int names_ok(const sql_ddl *d, sql_error *err)
{
    if ((d->op == SQL_DDL_CREATE_TABLE || d->op == SQL_DDL_SELECT_INTO) &&
        name_ok(d->table, d->table_position, err) != 0)
        return JET_EUNSUPPORTED;
    for (size_t i = 0; i < d->ncols; i++)
        if (name_ok(d->cols[i].name, d->cols[i].position, err) != 0)
            return JET_EUNSUPPORTED;
    for (size_t i = 0; i < d->ncons; i++)
        if (d->cons[i].name &&
            name_ok(d->cons[i].name, d->cons[i].position, err) != 0)
            return JET_EUNSUPPORTED;
    return 0;
}

/* ----------------------------------------------------------- catalog */

/* Whether name is taken by a table, link or query (one name space). */
static bool name_taken(jet_db *db, const char *name)
{
    return jet_catalog_find(db, name) || jet_catalog_find_query(db, name);
}

/* The user table d->table as it is now: 0 and *td, or an error. */
static int load_table(jet_db *db, const sql_ddl *d, const jet_tdef **td,
                      sql_error *err)
{
    const jet_object *obj = jet_catalog_find(db, d->table);
    if (!obj)
        return no_table(err, d);
    if (obj->kind != JET_OBJ_TABLE)
        return fail(err, "HYC00", d->table_position, "not supported: '%s' "
                    "is a %s", obj->name,
                    obj->kind == JET_OBJ_SYSTEM_TABLE ? "system table"
                                                      : "linked table");
    jet_rc rc = jet_tdef_load(td, db, obj);
    return rc == JET_OK ? 0 : core_failed(db, rc, err);
}

static const jet_index *find_index(const jet_tdef *td, const char *name)
{
    for (uint16_t i = 0; i < td->nindexes; i++)
        if (td->indexes[i].name &&
            jet_name_equal_ci(td->indexes[i].name, name))
            return &td->indexes[i];
    return NULL;
}

static const jet_index *primary_key(const jet_tdef *td)
{
    for (uint16_t i = 0; i < td->nindexes; i++)
        if (td->indexes[i].primary_key)
            return &td->indexes[i];
    return NULL;
}

/* ------------------------------------------------------------- types */

/* Whether db's version holds type t (BIGINT: ACE 16 and later). */
static int type_fits(jet_db *db, const sql_ddl_col *c, sql_error *err)
{
    if (c->type.type == JET_T_BIGINT && jet_db_version(db) < JET_VER_ACE16)
        return fail(err, "HYC00", c->type.position, "not supported: field "
                    "'%s': BIGINT (Large Number) needs an Access 2016 file "
                    "or later", c->name);
    return 0;
}

/* c as the core's column definition (names borrowed from the tree). */
static void coldef_of(const sql_ddl_col *c, jet_coldef *o)
{
    memset(o, 0, sizeof *o);
    o->name = c->name;
    o->type = c->type.type;
    if (o->type == JET_T_TEXT || o->type == JET_T_BINARY)
        o->size = (uint16_t)(c->type.has_size ? c->type.size : 255);
    if (o->type == JET_T_NUMERIC) {
        o->precision = c->type.has_size ? c->type.precision : 18;
        o->scale = c->type.has_size ? c->type.scale : 0;
    }
    o->required = c->not_null;
    o->autonumber = c->type.autonumber;
    o->seed = c->type.has_seed ? (int32_t)c->type.seed : 1;
    o->increment = c->type.has_seed ? (int32_t)c->type.increment : 1;
    o->compressed = c->compression;
    o->fixed = o->type == JET_T_TEXT && c->type.fixed;
    o->default_value = c->default_text;
}

/* --------------------------------------------------------- constraints */

/* Column name's position among names[0..n), or -1. */
static int col_index(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (jet_name_equal_ci(names[i], name))
            return (int)i;
    return -1;
}

/* Constraint c (PRIMARY, UNIQUE, INDEX) as an index over the columns
 * names[0..n) of its table. 0, or an error. */
static int idxdef_of(const sql_ddl_cons *c, const char *const *names,
                     size_t n, const char *table, jet_idxdef *o,
                     sql_error *err)
{
    memset(o, 0, sizeof *o);
    if (c->ncols > JET_MAX_INDEX_COLS)
        return fail(err, "HY000", c->position, "Too many fields defined in "
                    "index '%s' (Access allows 10)", c->name ? c->name : "");
    o->name = c->name;
    o->ncols = (unsigned)c->ncols;
    for (size_t i = 0; i < c->ncols; i++) {
        int k = col_index(names, n, c->cols[i]);
        if (k < 0)
            return fail(err, "42S22", c->col_pos[i], "Field '%s' not found "
                        "in table '%s'", c->cols[i], table);
        for (size_t j = 0; j < i; j++)
            if (o->col[j] == (unsigned)k)
                return fail(err, "42000", c->col_pos[i], "Field '%s' is "
                            "named twice in the index", c->cols[i]);
        o->col[i] = (unsigned)k;
        o->desc[i] = c->desc && c->desc[i];
    }
    o->primary = c->kind == SQL_CONS_PRIMARY;
    o->unique = o->primary || c->kind == SQL_CONS_UNIQUE;
    o->disallow_null = o->primary || c->disallow_null;
    o->ignore_null = c->ignore_null;
    return 0;
}

/* FOREIGN KEY c over names[0..n) as the core's relationship. */
static int fkdef_of(jet_db *db, const sql_ddl_cons *c,
                    const char *const *names, size_t n, const char *table,
                    jet_fkdef *o, sql_error *err)
{
    memset(o, 0, sizeof *o);
    if (c->update_set_null || c->no_index)
        return fail(err, "HYC00", c->clause_position, "not supported: %s",
                    c->no_index ? "FOREIGN KEY NO INDEX (the core always "
                                  "writes the foreign key's index)"
                                : "ON UPDATE SET NULL");
    if (c->ncols > JET_MAX_INDEX_COLS)
        return fail(err, "HY000", c->position, "Too many fields defined in "
                    "relationship '%s' (Access allows 10)",
                    c->name ? c->name : "");
    if (c->nrefs && c->nrefs != c->ncols)
        return fail(err, "42000", c->parent_position, "The relationship "
                    "names another number of fields of '%s' than its own",
                    c->parent);
    if (!jet_name_equal_ci(c->parent, table) &&
        !jet_catalog_find(db, c->parent))
        return fail(err, "42S02", c->parent_position, "The database engine "
                    "cannot find the referenced table '%s'", c->parent);
    o->name = c->name;
    o->ncols = (unsigned)c->ncols;
    for (size_t i = 0; i < c->ncols; i++) {
        int k = col_index(names, n, c->cols[i]);
        if (k < 0)
            return fail(err, "42S22", c->col_pos[i], "Field '%s' not found "
                        "in table '%s'", c->cols[i], table);
        o->col[i] = (unsigned)k;
        o->refcol[i] = c->nrefs ? c->refs[i] : NULL;
    }
    o->parent = c->parent;
    o->cascade_update = c->cascade_update;
    o->cascade_delete = c->cascade_delete;
    o->cascade_null = c->delete_set_null;
    return 0;
}

/* The names of td's columns (an array the caller frees). */
static const char **table_names(const jet_tdef *td, sql_error *err)
{
    const char **names = calloc(td->ncols ? td->ncols : 1, sizeof *names);
    if (!names) {
        sql_set_nomem(err, 0);
        return NULL;
    }
    for (uint16_t i = 0; i < td->ncols; i++)
        names[i] = td->cols[i].name;
    return names;
}

/* ------------------------------------------------------------ CREATE */

static int run_create_table(jet_db *db, const sql_ddl *d, sql_error *err)
{
    if (name_taken(db, d->table))
        return fail(err, "42S01", d->table_position, "Table '%s' already "
                    "exists.", d->table);
    size_t n = d->ncols;
    jet_coldef *cols = calloc(n, sizeof *cols);
    const char **names = calloc(n, sizeof *names);
    jet_idxdef *idx = calloc(d->ncons ? d->ncons : 1, sizeof *idx);
    jet_fkdef *fks = calloc(d->ncons ? d->ncons : 1, sizeof *fks);
    unsigned nidx = 0, nfk = 0;
    int rc = 0;
    if (!cols || !names || !idx || !fks) {
        sql_set_nomem(err, 0);
        rc = JET_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        const sql_ddl_col *c = &d->cols[i];
        if (col_index(names, i, c->name) >= 0) {
            rc = fail(err, "42S21", c->position, "Field '%s' already exists "
                      "in table '%s'.", c->name, d->table);
            break;
        }
        names[i] = c->name;
        rc = type_fits(db, c, err);
        coldef_of(c, &cols[i]);
    }
    bool has_pk = false;
    for (size_t i = 0; i < d->ncons && rc == 0; i++) {
        const sql_ddl_cons *c = &d->cons[i];
        switch (c->kind) {
        case SQL_CONS_NOT_NULL:
            for (size_t j = 0; j < c->ncols && rc == 0; j++) {
                int k = col_index(names, n, c->cols[j]);
                if (k < 0)
                    rc = fail(err, "42S22", c->col_pos[j], "Field '%s' not "
                              "found in table '%s'", c->cols[j], d->table);
                else
                    cols[k].required = true;
            }
            break;
        case SQL_CONS_FOREIGN:
            rc = fkdef_of(db, c, names, n, d->table, &fks[nfk], err);
            nfk += rc == 0;
            break;
        default:
            if (c->kind == SQL_CONS_PRIMARY && has_pk) {
                rc = fail(err, "HY000", c->position, "Primary key already "
                          "exists.");
                break;
            }
            has_pk = has_pk || c->kind == SQL_CONS_PRIMARY;
            rc = idxdef_of(c, names, n, d->table, &idx[nidx], err);
            nidx += rc == 0;
            break;
        }
    }
    if (rc == 0) {
        jet_rc jr = jet_db_create_table(db, d->table, cols, (unsigned)n,
                                        nidx ? idx : NULL, nidx,
                                        nfk ? fks : NULL, nfk);
        if (jr == JET_EDUPLICATE && name_taken(db, d->table))
            rc = fail(err, "42S01", d->table_position, "Table '%s' already "
                      "exists.", d->table);
        else if (jr != JET_OK)
            rc = core_failed(db, jr, err);
    }
out:
    free(cols);
    free(names);
    free(idx);
    free(fks);
    return rc;
}

/* CREATE INDEX, and ADD CONSTRAINT PRIMARY KEY / UNIQUE: c on d->table. */
static int run_create_index(jet_db *db, const sql_ddl *d,
                            const sql_ddl_cons *c, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    if (c->name && find_index(td, c->name))
        return fail(err, "42S11", c->position, "Index '%s' already exists "
                    "on table '%s'.", c->name, d->table);
    if (c->kind == SQL_CONS_PRIMARY && primary_key(td))
        return fail(err, "HY000", c->position, "Primary key already exists "
                    "on table '%s'.", d->table);
    const char **names = table_names(td, err);
    if (!names)
        return JET_ENOMEM;
    jet_idxdef def;
    rc = idxdef_of(c, names, td->ncols, d->table, &def, err);
    free(names);
    if (rc != 0)
        return rc;
    jet_rc jr = jet_db_create_index(db, d->table, &def);
    return jr == JET_OK ? 0 : core_failed(db, jr, err);
}

/* -------------------------------------------------------------- DROP */

static int run_drop_table(jet_db *db, const sql_ddl *d, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    jet_rc jr = jet_db_drop_table(db, td->name);
    return jr == JET_OK ? 0 : core_failed(db, jr, err);
}

/* DROP INDEX i ON t and DROP CONSTRAINT c (an index's name). */
static int run_drop_index(jet_db *db, const sql_ddl *d, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    const jet_index *ix = find_index(td, d->name);
    if (!ix)
        return fail(err, "42S12", d->name_position, "Cannot find index "
                    "'%s' on table '%s'.", d->name, d->table);
    jet_rc jr = jet_db_drop_index(db, td->name, ix->name);
    return jr == JET_OK ? 0 : core_failed(db, jr, err);
}

/* ------------------------------------------------------------- ALTER */

/* ADD CONSTRAINT ... FOREIGN KEY, or a new column's REFERENCES: c on
 * d->table as it is now. */
static int run_add_foreign_key(jet_db *db, const sql_ddl *d,
                               const sql_ddl_cons *c, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    const char **names = table_names(td, err);
    if (!names)
        return JET_ENOMEM;
    jet_fkdef def;
    rc = fkdef_of(db, c, names, td->ncols, d->table, &def, err);
    free(names);
    if (rc != 0)
        return rc;
    jet_rc jr = jet_db_add_foreign_key(db, td->name, &def);
    return jr == JET_OK ? 0 : core_failed(db, jr, err);
}


static int run_add_column(jet_db *db, const sql_ddl *d, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    const sql_ddl_col *c = &d->cols[0];
    if (jet_tdef_find_column(td, c->name) >= 0)
        return fail(err, "42S21", c->position, "Field '%s' already exists in "
                    "table '%s'.", c->name, d->table);
    if ((rc = type_fits(db, c, err)) != 0)
        return rc;
    jet_coldef def;
    coldef_of(c, &def);
    jet_rc jr = jet_db_add_column(db, d->table, &def);
    if (jr != JET_OK)
        return core_failed(db, jr, err);
    /* the new column's own constraints: indexes and relationships on the
     * table as it is */
    for (size_t i = 0; i < d->ncons && rc == 0; i++)
        rc = d->cons[i].kind == SQL_CONS_FOREIGN
                 ? run_add_foreign_key(db, d, &d->cons[i], err)
                 : run_create_index(db, d, &d->cons[i], err);
    return rc;
}

static int run_drop_column(jet_db *db, const sql_ddl *d, sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    int k = jet_tdef_find_column(td, d->name);
    if (k < 0)
        return fail(err, "42S22", d->name_position, "Field '%s' not found in "
                    "table '%s'", d->name, d->table);
    jet_rc jr = jet_db_drop_column(db, td->name, td->cols[k].name);
    return jr == JET_OK ? 0 : core_failed(db, jr, err);
}

/* ALTER COLUMN's conversion of one stored value: as INSERT and UPDATE
 * convert what they store (sql_coerce_to_column), through a cursor of
 * the statement's own query for the text rules. */
typedef struct alter_conv {
    sql_cursor *c;
    sql_conv_buf buf;
    sql_error *err;
    bool failed;                /* err holds the refusal */
} alter_conv;

static jet_rc alter_convert(void *ctx, const jet_value *in,
                            const jet_column *to, jet_value *out)
{
    alter_conv *a = ctx;
    if (sql_coerce_to_column(a->c, &a->buf, in, to, out, a->err) == 0)
        return JET_OK;
    a->failed = true;
    return JET_ECONSTRAINT;
}

/* ALTER TABLE t ALTER [COLUMN] c type [(n)] [NOT NULL] [DEFAULT e]: the
 * column's values converted as an UPDATE would (22001, 22003, 22018
 * refuse the statement), its indexes rebuilt (core/ddlcolumn.c). */
static int run_alter_column(sql_statement *s, jet_db *db, const sql_ddl *d,
                            sql_error *err)
{
    const jet_tdef *td;
    int rc = load_table(db, d, &td, err);
    if (rc != 0)
        return rc;
    const sql_ddl_col *c = &d->cols[0];
    if (jet_tdef_find_column(td, c->name) < 0)
        return fail(err, "42S22", c->position, "Field '%s' not found in "
                    "table '%s'", c->name, d->table);
    if (d->ncons)
        return fail(err, "HYC00", c->position, "not supported: a "
                    "constraint in ALTER COLUMN (add it with ADD "
                    "CONSTRAINT)");
    if ((rc = type_fits(db, c, err)) != 0)
        return rc;
    jet_coldef def;
    coldef_of(c, &def);
    alter_conv a;
    memset(&a, 0, sizeof a);
    a.err = err;
    if ((rc = sql_cursor_open(&a.c, s->query, NULL, NULL, err)) != 0)
        return rc;
    jet_rc jr = jet_db_alter_column(db, td->name, &def, alter_convert, &a);
    sql_cursor_close(a.c);
    free(a.buf.conv);
    free(a.buf.u16);
    if (jr == JET_OK)
        return 0;
    if (a.failed)
        return JET_ECONSTRAINT;
    return core_failed(db, jr, err);
}

static int run_add_constraint(jet_db *db, const sql_ddl *d, sql_error *err)
{
    const sql_ddl_cons *c = &d->cons[0];
    if (c->kind == SQL_CONS_FOREIGN)
        return run_add_foreign_key(db, d, c, err);
    if (c->kind == SQL_CONS_NOT_NULL)
        return fail(err, "HYC00", c->position, "not supported yet: NOT NULL "
                    "added to existing fields");
    return run_create_index(db, d, c, err);
}

/* -------------------------------------------------------- SELECT INTO */

/* Result column i of st as the new table's column (name borrowed). */
static int make_col(jet_db *db, const sql_result_col *rc, jet_coldef *o,
                    sql_error *err)
{
    memset(o, 0, sizeof *o);
    o->name = rc->name;
    const jet_column *src = rc->column;
    jet_type t = src ? src->type : rc->type;
    if (src && (src->flags & JET_COL_CALCULATED))
        t = src->result_type;
    o->type = t;
    o->compressed = true;
    o->increment = 1;
    o->seed = 1;
    switch (t) {
    case JET_T_TEXT: {
        uint32_t len = src ? src->length / (jet_db_version(db) == JET_VER_3
                                                ? 1u : 2u)
                           : rc->length;
        if (len > 255) {
            o->type = JET_T_MEMO;
        } else {
            o->size = (uint16_t)(len ? len : 255);
        }
        if (src)
            o->compressed = (src->flags & JET_COL_COMPRESSED) != 0;
        break;
    }
    case JET_T_BINARY:
        o->size = (uint16_t)(src && src->length && src->length <= 255
                                 ? src->length : 255);
        break;
    case JET_T_NUMERIC:
        o->precision = src ? src->precision
                           : rc->precision ? rc->precision : 28;
        o->scale = src ? src->scale : rc->scale;
        if (o->scale > o->precision)
            o->scale = o->precision;
        break;
    case JET_T_MEMO:
        if (src)
            o->compressed = (src->flags & JET_COL_COMPRESSED) != 0;
        break;
    case JET_T_BIGINT:
        if (jet_db_version(db) < JET_VER_ACE16)
            return fail(err, "HYC00", 0, "not supported: column '%s' is a "
                        "BIGINT, which this file's version cannot hold",
                        rc->name);
        break;
    case JET_T_BOOL: case JET_T_BYTE: case JET_T_INT: case JET_T_LONG:
    case JET_T_MONEY: case JET_T_FLOAT: case JET_T_DOUBLE:
    case JET_T_DATETIME: case JET_T_OLE: case JET_T_GUID:
        break;
    default:
        return fail(err, "HYC00", 0, "not supported: column '%s' of a "
                    "make-table query has a type Access DDL cannot make",
                    rc->name);
    }
    return 0;
}

static int run_select_into(sql_statement *s, const sql_ddl *d,
                           const jet_value *params, const sql_cursor_opts *o,
                           sql_error *err)
{
    jet_db *db = s->ddl->db;
    if (name_taken(db, d->table))
        return fail(err, "42S01", d->table_position, "Table '%s' already "
                    "exists.", d->table);
    const sql_stmt *st = s->query;
    size_t n = sql_stmt_ncols(st);
    jet_coldef *cols = calloc(n ? n : 1, sizeof *cols);
    if (!cols) {
        sql_set_nomem(err, 0);
        return JET_ENOMEM;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const sql_result_col *c = sql_stmt_col(st, i);
        rc = name_ok(c->name, 0, err);
        if (rc == 0)
            rc = make_col(db, c, &cols[i], err);
        for (size_t j = 0; j < i && rc == 0; j++)
            if (jet_name_equal_ci(cols[j].name, c->name))
                rc = fail(err, "42S21", 0, "Duplicate output destination "
                          "'%s'.", c->name);
    }
    if (rc == 0) {
        jet_rc jr = jet_db_create_table(db, d->table, cols, (unsigned)n,
                                        NULL, 0, NULL, 0);
        if (jr != JET_OK)
            rc = core_failed(db, jr, err);
    }
    free(cols);
    if (rc != 0)
        return rc;
    /* the rows: INSERT INTO [t] SELECT ..., in this statement's
     * savepoint (enclosed: it takes none of its own) */
    sql_statement *ins = NULL;
    sql_prepare_opts po;
    memset(&po, 0, sizeof po);
    po.like_mode = s->ddl->like_mode;
    rc = sql_statement_prepare(&ins, db, d->insert_sql,
                               strlen(d->insert_sql), &po, err);
    if (rc != 0)
        return rc;
    sql_cursor_opts io;
    memset(&io, 0, sizeof io);
    if (o)
        io = *o;
    io.enclosed = true;
    io.only_row = false;
    sql_cursor *cur = NULL;
    rc = sql_statement_execute(ins, params, &io, &cur, err);
    if (rc == 0)
        s->row_count = sql_statement_row_count(ins);
    sql_cursor_close(cur);
    sql_statement_free(ins);
    return rc;
}

/* --------------------------------------------------------- executor */

static int ddl_prepare(sql_statement *s, jet_db *db, sql_parsed *p,
                       const sql_prepare_opts *opts, sql_error *err)
{
    sql_ddl *d = p->ddl;
    sql_ddl_exec *x = calloc(1, sizeof *x);
    if (!x) {
        sql_set_nomem(err, 0);
        return -1;
    }
    s->ddl = x;
    x->db = db;
    x->d = d;
    x->like_mode = opts ? opts->like_mode : SQL_LIKE_BOTH;
    if (jet_db_version(db) == JET_VER_3) {
        sql_set_error(err, "HYC00", d->position, "not supported: Access 97 "
                      "files are read-only");
        return -1;
    }
    sql_query *q = p->query;
    q->into = NULL;             /* ddl.c runs the INTO: plan the SELECT */
    p->query = NULL;            /* the plan owns the arena now (and d) */
    return sql_stmt_plan(&s->query, db, q, opts, err) != 0 ? -1 : 0;
}

static int run(sql_statement *s, const jet_value *params,
               const sql_cursor_opts *opts, sql_error *err)
{
    sql_ddl_exec *x = s->ddl;
    const sql_ddl *d = x->d;
    jet_db *db = x->db;
    int rc = names_ok(d, err);
    if (rc != 0)
        return rc;
    switch (d->op) {
    case SQL_DDL_CREATE_TABLE: return run_create_table(db, d, err);
    case SQL_DDL_DROP_TABLE: return run_drop_table(db, d, err);
    case SQL_DDL_CREATE_INDEX: return run_create_index(db, d, &d->cons[0],
                                                       err);
    case SQL_DDL_DROP_INDEX: return run_drop_index(db, d, err);
    case SQL_DDL_ADD_COLUMN: return run_add_column(db, d, err);
    case SQL_DDL_DROP_COLUMN: return run_drop_column(db, d, err);
    case SQL_DDL_ALTER_COLUMN: return run_alter_column(s, db, d, err);
    case SQL_DDL_ADD_CONSTRAINT: return run_add_constraint(db, d, err);
    case SQL_DDL_DROP_CONSTRAINT: {
        const jet_tdef *td;
        rc = load_table(db, d, &td, err);
        if (rc != 0)
            return rc;
        /* a relationship of the table (its index has its name), else
         * an index */
        jet_rc jr = jet_db_drop_foreign_key(db, td->name, d->name);
        if (jr == JET_OK)
            return 0;
        if (jr != JET_ENOTFOUND)
            return core_failed(db, jr, err);
        if (!find_index(td, d->name))
            return fail(err, "42S12", d->name_position, "Cannot find the "
                        "constraint '%s' on table '%s'.", d->name,
                        d->table);
        return run_drop_index(db, d, err);
    }
    case SQL_DDL_SELECT_INTO: return run_select_into(s, d, params, opts,
                                                     err);
    default:
        return fail(err, "HYC00", d->position, "not supported yet: this "
                    "DDL statement");
    }
}

static int ddl_execute(sql_statement *s, const jet_value *params,
                       const sql_cursor_opts *opts, sql_cursor **cur,
                       sql_error *err)
{
    jet_db *db = s->ddl->db;
    *cur = NULL;
    s->row_count = -1;
    memset(err, 0, sizeof *err);
    bool began = false;
    jet_savepoint sp = 0;
    jet_rc rc;
    if (!jet_db_in_write(db)) {
        if ((rc = jet_db_write_begin(db)) != JET_OK)
            return core_failed(db, rc, err);
        began = true;
    }
    bool own_sp = began || !opts || !opts->enclosed;
    if (own_sp && (rc = jet_db_savepoint(db, &sp)) != JET_OK) {
        core_failed(db, rc, err);
        if (began)
            jet_db_write_rollback(db);
        return rc;
    }
    s->row_count = 0;
    int r = run(s, params, opts, err);
    if (r != 0) {
        s->row_count = -1;
        if (own_sp) {
            jet_db_rollback_to(db, sp);
            jet_db_release(db, sp);
        }
        if (began)
            jet_db_write_rollback(db);
        return r < 0 ? r : JET_EUNSUPPORTED;
    }
    if (own_sp)
        jet_db_release(db, sp);
    if (began && (rc = jet_db_write_commit(db)) != JET_OK) {
        s->row_count = -1;
        return core_failed(db, rc, err);
    }
    return 0;
}

static void ddl_free(sql_statement *s)
{
    free(s->ddl);
    s->ddl = NULL;
    sql_stmt_free(s->query);
    s->query = NULL;
}

const sql_executor sql_ddl_executor = {
    SQL_KIND_DDL, "DDL", ddl_prepare, ddl_execute, ddl_free
};
