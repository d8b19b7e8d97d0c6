/*
 * indexwrite.c - index B-tree upkeep for the write path (write.h):
 * entry insert and delete, page splits and merges. Not written yet.
 */
#include "internal.h"
#include "write.h"

jet_rc jet_index_entry_insert(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id)
{
    (void)key;
    (void)key_len;
    (void)id;
    return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                    "index '%s' cannot be written yet", ix->name);
}

jet_rc jet_index_entry_delete(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id)
{
    (void)key;
    (void)key_len;
    (void)id;
    return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                    "index '%s' cannot be written yet", ix->name);
}
