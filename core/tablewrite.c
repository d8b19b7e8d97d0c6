/*
 * tablewrite.c - write transactions of a db and the table write path
 * (write.h). This first version holds the transaction calls over the
 * pager; rows, long values, usage maps and TDEF upkeep come next.
 */
#include "internal.h"
#include "write.h"

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
    return rc;
}

jet_rc jet_db_write_commit(jet_db *db)
{
    return jet_pager_commit(db->pf, &db->err);
}

jet_rc jet_db_write_rollback(jet_db *db)
{
    if (!jet_db_in_write(db))
        return JET_OK;
    return jet_pager_rollback(db->pf, &db->err);
}

bool jet_db_in_write(const jet_db *db)
{
    jet_pager_state st = jet_pager_state_of(db->pf);
    return st == JET_PAGER_WRITER_LOCKED || st == JET_PAGER_WRITER_DIRTY ||
           st == JET_PAGER_WRITER_DBMOD;
}

jet_rc jet_db_savepoint(jet_db *db, jet_savepoint *sp)
{
    (void)sp;
    return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                    "statement savepoints are not written yet");
}

jet_rc jet_db_rollback_to(jet_db *db, jet_savepoint sp)
{
    (void)sp;
    return jet_fail(&db->err, JET_EUNSUPPORTED, JET_NO_PGNO,
                    "statement savepoints are not written yet");
}

void jet_db_release(jet_db *db, jet_savepoint sp)
{
    (void)db;
    (void)sp;
}

jet_rc jet_table_insert(jet_db *db, const jet_tdef *t, jet_value *vals,
                        jet_rowid *out)
{
    (void)vals;
    (void)out;
    return jet_table_check_writable(db, t);
}

jet_rc jet_table_update(jet_db *db, const jet_tdef *t, jet_rowid id,
                        const jet_value *vals)
{
    (void)id;
    (void)vals;
    return jet_table_check_writable(db, t);
}

jet_rc jet_table_delete(jet_db *db, const jet_tdef *t, jet_rowid id)
{
    (void)id;
    return jet_table_check_writable(db, t);
}

jet_rc jet_table_row_count(jet_db *db, const jet_tdef *t, uint32_t *out)
{
    (void)db;
    *out = t->row_count;
    return JET_OK;
}

jet_rc jet_table_page_new(jet_db *db, const jet_tdef *t, uint32_t *pgno,
                          uint8_t **page)
{
    (void)t;
    return jet_page_alloc(db->pf, pgno, page, &db->err);
}

jet_rc jet_table_page_free(jet_db *db, const jet_tdef *t, uint32_t pgno)
{
    (void)t;
    return jet_fail(&db->err, JET_EUNSUPPORTED, pgno,
                    "freeing pages is not written yet");
}
