/*
 * ddlcolumn.c - ALTER TABLE ... ALTER COLUMN (ddl.h jet_db_alter_column):
 * a column takes a new type, size, Required and DefaultValue, keeping its
 * name, its column number (so its place among the fields) and its
 * indexes, its values converted.
 *
 * How (the column keeps its number, so a row's null bit for it stays
 * where readers look for it):
 *   A. every row is read and its value converted (the caller's
 *      conversion, the rules INSERT and UPDATE use), before anything is
 *      written: a value that does not convert or fit refuses the whole
 *      statement;
 *   B. the TDEF without the column's Required/AutoNumber flags and
 *      without the logical indexes over it (their B-trees emptied), then
 *      every row whose value is set gets NULL there (its long value
 *      freed, its null bit cleared) through jet_table_update;
 *   C. the TDEF with the new column: the same number, its old place in
 *      the row when it fits there (variable to variable, a fixed size no
 *      larger), else a new var slot or fixed offset (the old bytes go
 *      unused, as Access leaves them until a compact); the rows get their
 *      converted values through jet_table_update;
 *   D. the TDEF with its logical indexes back, and the emptied B-trees
 *      built again from the rows (a unique index over keys the conversion
 *      made equal: JET_EDUPLICATE).
 * Any failure leaves changed pages that the statement's savepoint undoes.
 * Format: Jackcess TableMutator; mdbtools HACKING.md (TDEF, rows).
 */
#include <string.h>

#include "alloc.h"
#include "ddl_int.h"
#include "index.h"
#include "pagealloc.h"

/* Access's refusal to change a field a relationship uses (Jet error
 * 3720, "Cannot change field ..."; Microsoft's KB: ALTER COLUMN keeps
 * indexes, not relationships) */
#define IN_RELATIONSHIP_FMT "Cannot change field '%s'. It is part of one " \
    "or more relationships."

/* One row whose value is set: its id and the converted value (data
 * owned). */
typedef struct alter_row {
    jet_rowid id;
    jet_value v;
    uint8_t *own;
} alter_row;

typedef struct alter_rows {
    alter_row *r;
    size_t n, cap;
} alter_rows;

static void rows_free(alter_rows *a)
{
    for (size_t i = 0; i < a->n; i++)
        jet_free(a->r[i].own);
    jet_free(a->r);
    memset(a, 0, sizeof *a);
}

static jet_rc rows_add(jet_db *db, alter_rows *a, jet_rowid id,
                       const jet_value *v)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 64;
        alter_row *nr = jet_realloc(a->r, nc * sizeof *nr);
        if (!nr)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        a->r = nr;
        a->cap = nc;
    }
    alter_row *r = &a->r[a->n];
    r->id = id;
    r->v = *v;
    r->own = NULL;
    if (!v->is_null && v->data) {
        r->own = jet_malloc(v->len ? v->len : 1);
        if (!r->own)
            return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO,
                            "out of memory");
        memcpy(r->own, v->data, v->len);
        r->v.data = r->own;
    }
    a->n++;
    return JET_OK;
}

/* Row id of t read whole, column col replaced by v, written back. */
static jet_rc update_one(jet_db *db, const jet_tdef *t, jet_rowid id,
                         uint16_t col, const jet_value *v)
{
    jet_owned_row row;
    jet_rc rc = jet_owned_row_read(&row, db, t, id.pgno, id.row);
    if (rc != JET_OK)
        return rc;
    row.vals[col] = *v;
    rc = jet_table_update(db, t, id, row.vals);
    jet_owned_row_free(&row);
    return rc;
}

/* Write spec as table t's TDEF and read the catalog again: *out the
 * table as it is now. */
static jet_rc rewrite(jet_db *db, const char *table, uint32_t pgno,
                      const jet_tdef_spec *spec, jet_tdef_priv **out)
{
    jet_rc rc = jet_ddl_rewrite_tdef(db, pgno, spec);
    if (rc == JET_OK && (rc = jet_ddl_touch(db, pgno)) == JET_OK &&
        (rc = jet_ddl_catalog_reload(db)) == JET_OK)
        rc = jet_ddl_user_table(db, table, out);
    return rc;
}

/* COUNTER(seed, increment) over an AutoNumber: where it goes on from. */
static jet_rc reseed(jet_db *db, const char *table, jet_tdef_priv *t,
                     const jet_coldef *def)
{
    jet_tdef_spec spec;
    int32_t inc = def->increment > 0 ? def->increment : 1;
    int32_t seed = def->seed || def->increment ? def->seed : 1;
    jet_rc rc;
    if (def->increment < 0)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pub.pgno, "column "
                        "'%s': an AutoNumber that counts down (a negative "
                        "increment) is not made", def->name);
    if ((int64_t)seed - inc < INT32_MIN)
        return jet_fail(&db->err, JET_ELIMIT, t->pub.pgno, "column '%s': "
                        "the seed is out of range", def->name);
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        return rc;
    spec.auto_inc = (uint32_t)inc;
    spec.auto_last = (uint32_t)(int32_t)((int64_t)seed - inc);
    return rewrite(db, table, t->pub.pgno, &spec, &t);
}

/* Whether physical index r of a table covers column number num. */
static bool real_has(const jet_tdef_real_idx *r, uint16_t num)
{
    for (int k = 0; k < 10; k++)
        if (r->col_num[k] == num)
            return true;
    return false;
}

jet_rc jet_db_alter_column(jet_db *db, const char *table,
                           const jet_coldef *def, jet_alter_convert conv,
                           void *ctx)
{
    jet_tdef_priv *t;
    jet_tdef_spec spec;
    jet_column *cols = NULL, nc;
    jet_tdef_real_idx *reals = NULL;
    jet_tdef_logical_idx *logical = NULL, *kept = NULL;
    jet_lval_umap *lval = NULL;
    bool *affected = NULL;
    alter_rows set = { 0 };
    jet_scan *s = NULL;
    uint16_t lcid, fixed_end = 0, nvar = 0, fend = 0;
    uint8_t sver;
    uint32_t nrows, nkept = 0, nlog;
    bool used;
    int pos;
    int32_t id;
    jet_rc rc;

    if ((rc = jet_ddl_need_write(db)) != JET_OK ||
        (rc = jet_ddl_user_table(db, table, &t)) != JET_OK)
        return rc;
    if (!def || !conv)
        return jet_fail(&db->err, JET_ENOTFOUND, JET_NO_PGNO, "no column");
    id = jet_catalog_find(db, table)->id;
    pos = jet_tdef_find_column(&t->pub, def->name);
    if (pos < 0)
        return jet_fail(&db->err, JET_ENOTFOUND, t->pub.pgno, "Field '%s' "
                        "does not exist in table '%s'.", def->name,
                        t->pub.name);
    const jet_column oc = t->cols[pos];
    if ((oc.flags & JET_COL_CALCULATED) || oc.type == JET_T_COMPLEX ||
        (oc.flags & JET_COL_AUTO_GUID) ||
        (def->autonumber && def->type == JET_T_GUID))
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pub.pgno, "field "
                        "'%s': a calculated, attachment, multi-value or "
                        "Replication ID field is not changed here",
                        oc.name);
    if ((rc = jet_ddl_rel_uses_column(db, t->pub.name, oc.name, &used)) !=
        JET_OK)
        return rc;
    if (used)
        return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                        IN_RELATIONSHIP_FMT, oc.name);
    if ((rc = jet_table_check_writable(db, &t->pub)) != JET_OK ||
        (rc = jet_table_row_count(db, &t->pub, &nrows)) != JET_OK)
        return rc;
    if (def->autonumber && def->type == JET_T_LONG &&
        (oc.flags & JET_COL_AUTONUMBER) && oc.type == JET_T_LONG)
        return reseed(db, table, t, def);
    if (def->autonumber && nrows > 0)
        return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno, "Once you "
                        "enter data in a table, you can't change the data "
                        "type of any field to AutoNumber, even if you "
                        "haven't yet added data to that field.");
    for (uint16_t i = 0; def->autonumber && i < t->pub.ncols; i++)
        if (i != pos && (t->cols[i].flags & JET_COL_AUTONUMBER))
            return jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                            "column '%s': a table has only one AutoNumber "
                            "field", def->name);

    /* the new column: its number kept; its place in the row kept when
     * it fits there, else a new var slot or fixed offset */
    jet_ddl_sort_order(db, &lcid, &sver);
    fixed_end = jet_ddl_fixed_end(t);
    if ((rc = jet_ddl_layout_columns(db, def, 1, &nc, oc.col_num, 0, 0,
                                     lcid, sver, &nvar, &fend)) != JET_OK)
        return rc;
    nvar = t->num_var_cols;
    if (!(nc.flags & JET_COL_FIXED)) {
        if (!(oc.flags & JET_COL_FIXED))
            nc.var_index = oc.var_index;
        else
            nc.var_index = nvar++;
    } else if (nc.type != JET_T_BOOL) {
        if ((oc.flags & JET_COL_FIXED) && oc.type != JET_T_BOOL &&
            jet_fixed_size(&nc) <= jet_fixed_size(&oc))
            nc.fixed_offset = oc.fixed_offset;
        else
            nc.fixed_offset = fixed_end;
        fend = (uint16_t)(nc.fixed_offset + jet_fixed_size(&nc));
        if (fend < fixed_end)
            fend = fixed_end;
        if ((size_t)fend + 2 + (t->max_cols + 8u) / 8 + 2 * (size_t)nvar +
                4 > JET_MAX_ROW_LEN)
            return jet_fail(&db->err, JET_ELIMIT, t->pub.pgno, "the record "
                            "is too large: the fixed-size columns would "
                            "take %u bytes of a row of at most %d", fend,
                            JET_MAX_ROW_LEN);
    }
    nc.name = oc.name;

    /* the indexes over it: still indexable? */
    affected = jet_calloc(t->nreals + 1u, sizeof *affected);
    if (!affected)
        return jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
    for (uint32_t k = 0; k < t->nreals; k++)
        affected[k] = real_has(&t->reals[k], oc.col_num);
    for (uint32_t k = 0; k < t->nreals; k++)
        if (affected[k] && jet_ddl_is_long(nc.type)) {
            rc = jet_fail(&db->err, JET_EUNSUPPORTED, t->pub.pgno, "field "
                          "'%s' is indexed: a Memo or OLE Object field is "
                          "not indexed here (drop the index first)",
                          oc.name);
            goto out;
        }

    /* A: every value converted before anything is written */
    if ((rc = jet_scan_open(&s, db, &t->pub, NULL)) != JET_OK)
        goto out;
    while ((rc = jet_scan_next(s)) == JET_OK) {
        jet_value v, out;
        jet_rowid rid;
        if ((rc = jet_scan_value(s, (uint16_t)pos, &v)) != JET_OK ||
            (rc = jet_scan_position(s, &rid.pgno, &rid.row)) != JET_OK)
            break;
        if (v.is_null) {
            if (def->required) {
                rc = jet_fail(&db->err, JET_ECONSTRAINT, t->pub.pgno,
                              "You must enter a value in the '%s.%s' "
                              "field.", t->pub.name, oc.name);
                break;
            }
            continue;
        }
        if ((rc = conv(ctx, &v, &nc, &out)) != JET_OK)
            break;
        if (nc.type == JET_T_BOOL && !out.is_null && !out.u.b)
            continue;           /* No: the cleared bit says it */
        if ((rc = rows_add(db, &set, rid, &out)) != JET_OK)
            break;
    }
    rc = jet_scan_finish(db, s, rc);
    s = NULL;
    if (rc != JET_OK)
        goto out;

    /* B: the column emptied, the indexes over it set aside */
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        goto out;
    nlog = spec.nlogical;
    cols = jet_calloc(t->pub.ncols, sizeof *cols);
    reals = jet_calloc(t->nreals + 1u, sizeof *reals);
    logical = jet_calloc(nlog + 1u, sizeof *logical);
    kept = jet_calloc(nlog + 1u, sizeof *kept);
    lval = jet_calloc(t->nlval_umaps + 1u, sizeof *lval);
    if (!cols || !reals || !logical || !kept || !lval) {
        rc = jet_fail(&db->err, JET_ENOMEM, JET_NO_PGNO, "out of memory");
        goto out;
    }
    memcpy(cols, t->cols, t->pub.ncols * sizeof *cols);
    if (t->nreals)
        memcpy(reals, t->reals, t->nreals * sizeof *reals);
    if (nlog)
        memcpy(logical, spec.logical, nlog * sizeof *logical);
    for (uint32_t i = 0; i < nlog; i++)
        if (!affected[logical[i].real])
            kept[nkept++] = logical[i];
    for (uint32_t k = 0; k < t->nreals; k++) {
        jet_pglist pages = { 0 };
        if (!affected[k])
            continue;
        rc = jet_ddl_index_pages(db, reals[k].first_pgno, &pages);
        for (size_t i = 0; i < pages.count && rc == JET_OK; i++)
            rc = jet_db_page_free(db, pages.pgnos[i]);
        jet_pglist_free(&pages);
        if (rc == JET_OK)
            rc = jet_ddl_free_map_pages(db, reals[k].umap_ptr);
        if (rc == JET_OK)
            rc = jet_ddl_new_root(db, t->pub.pgno, &reals[k].first_pgno);
        if (rc == JET_OK)
            rc = jet_ddl_index_umap_row(db, t, reals[k].first_pgno,
                                        &reals[k].umap_ptr);
        reals[k].row_count = 0;
        if (rc != JET_OK)
            goto out;
    }
    cols[pos].flags &= (uint16_t)~(JET_COL_REQUIRED | JET_COL_AUTONUMBER);
    spec.cols = cols;
    spec.reals = reals;
    spec.logical = kept;
    spec.nlogical = nkept;
    if ((rc = rewrite(db, table, t->pub.pgno, &spec, &t)) != JET_OK)
        goto out;
    {
        jet_value null;
        memset(&null, 0, sizeof null);
        null.type = oc.type;
        null.is_null = true;
        jet_scan *z = NULL;
        alter_rows setnull = { 0 };
        /* the rows whose null bit is set (a Yes/No: true) */
        if ((rc = jet_scan_open(&z, db, &t->pub, NULL)) != JET_OK)
            goto out;
        while ((rc = jet_scan_next(z)) == JET_OK) {
            jet_value v;
            jet_rowid rid;
            if ((rc = jet_scan_value(z, (uint16_t)pos, &v)) != JET_OK ||
                (rc = jet_scan_position(z, &rid.pgno, &rid.row)) != JET_OK)
                break;
            if (v.is_null || (oc.type == JET_T_BOOL && !v.u.b))
                continue;
            if ((rc = rows_add(db, &setnull, rid, &null)) != JET_OK)
                break;
        }
        rc = jet_scan_finish(db, z, rc);
        for (size_t i = 0; i < setnull.n && rc == JET_OK; i++)
            rc = update_one(db, &t->pub, setnull.r[i].id, (uint16_t)pos,
                            &null);
        rows_free(&setnull);
        if (rc != JET_OK)
            goto out;
    }

    /* C: the new column, its values */
    {
        uint16_t nl = 0;
        bool old_long = jet_ddl_is_long(oc.type);
        bool new_long = jet_ddl_is_long(nc.type);
        for (uint16_t i = 0; i < t->nlval_umaps; i++) {
            if (t->lval_umaps[i].col_num == oc.col_num && !new_long) {
                if ((rc = jet_ddl_free_lvals(db, &t->lval_umaps[i])) !=
                    JET_OK)
                    goto out;
                continue;
            }
            lval[nl++] = t->lval_umaps[i];
        }
        if (new_long && !old_long) {
            lval[nl].col_num = nc.col_num;
            if ((rc = jet_ddl_index_umap_row(db, t, 0,
                                             &lval[nl].owned_ptr)) !=
                    JET_OK ||
                (rc = jet_ddl_index_umap_row(db, t, 0,
                                             &lval[nl].free_ptr)) != JET_OK)
                goto out;
            nl++;
        }
        jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
        if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
            goto out;
        memcpy(cols, t->cols, t->pub.ncols * sizeof *cols);
        cols[pos] = nc;
        spec.cols = cols;
        spec.num_var_cols = nvar;
        spec.lval = lval;
        spec.nlval = nl;
        if (nc.flags & JET_COL_AUTONUMBER) {
            int32_t inc = def->increment > 0 ? def->increment : 1;
            int32_t seed = def->seed || def->increment ? def->seed : 1;
            spec.auto_inc = (uint32_t)inc;
            spec.auto_last = (uint32_t)(int32_t)((int64_t)seed - inc);
        }
        if ((rc = rewrite(db, table, t->pub.pgno, &spec, &t)) != JET_OK)
            goto out;
    }
    for (size_t i = 0; i < set.n && rc == JET_OK; i++)
        rc = update_one(db, &t->pub, set.r[i].id, (uint16_t)pos,
                        &set.r[i].v);
    if (rc != JET_OK)
        goto out;

    /* D: the indexes back, built over the new values */
    jet_tdef_spec_of(&spec, t, jet_ddl_is_ace(db));
    if ((rc = jet_ddl_spec_live(db, t, &spec)) != JET_OK)
        goto out;
    spec.logical = logical;
    spec.nlogical = nlog;
    if (nkept != nlog &&
        (rc = rewrite(db, table, t->pub.pgno, &spec, &t)) != JET_OK)
        goto out;
    for (uint32_t k = 0; k < t->nreals && rc == JET_OK; k++) {
        if (!affected[k])
            continue;
        for (uint16_t li = 0; li < t->pub.nindexes; li++)
            if (t->logical[li].real == k) {
                rc = jet_ddl_build_index(db, &t->pub, &t->pub.indexes[li]);
                break;
            }
    }
    if (rc != JET_OK)
        goto out;
    /* its Required and DefaultValue properties as the statement says */
    if (def->required || def->default_value ||
        (oc.flags & JET_COL_REQUIRED)) {
        jet_coldef named = *def;
        named.name = oc.name;
        if ((rc = jet_ddl_update_lvprop(db, id, oc.name, &named)) != JET_OK)
            goto out;
    }
    if ((rc = jet_ddl_touch(db, t->pub.pgno)) == JET_OK &&
        (rc = jet_ddl_touch(db, MSYS_OBJECTS_PGNO)) == JET_OK)
        rc = jet_ddl_catalog_reload(db);
out:
    jet_scan_close(s);
    rows_free(&set);
    jet_free(affected);
    jet_free(cols);
    jet_free(reals);
    jet_free(logical);
    jet_free(kept);
    jet_free(lval);
    return rc;
}
