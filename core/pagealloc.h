/*
 * pagealloc.h - page allocation and a table's usage maps for the write
 * path (pagealloc.c; jet_table_page_new/free themselves are in write.h).
 */
#ifndef JET_PAGEALLOC_H
#define JET_PAGEALLOC_H

#include "internal.h"

/**
 * Whether t's free-space usage map lists page pgno (*out). Errors:
 * JET_ECORRUPT (a map that is no usage map), JET_EIO.
 */
jet_rc jet_table_free_map_has(jet_db *db, const jet_tdef_priv *t,
                              uint32_t pgno, bool *out);
/**
 * Add (add) or remove page pgno in t's free-space usage map (a page that
 * is not there is not an error to remove). An inline map that outgrows
 * its window is promoted to a reference map. Errors: JET_ELIMIT, JET_EIO,
 * JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_table_free_map_update(jet_db *db, jet_tdef_priv *t,
                                 uint32_t pgno, bool add);

/**
 * A new page appended to the file for any use (an LVAL page, a usage map
 * page): zeroed, pinned and dirty, number in *pgno; its bit in the global
 * usage map cleared (pagealloc.c's top comment). Errors: JET_EUNSUPPORTED
 * (no write transaction), JET_ELIMIT (2 GB), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_db_page_new(jet_db *db, uint32_t *pgno, uint8_t **page);
/**
 * A new, empty data page of t (jet_data_page_init), in t's owned-pages
 * and free-space maps and t->owned; pinned and dirty. Errors as
 * jet_db_page_new, plus those of the maps (JET_ELIMIT, JET_ECORRUPT).
 */
jet_rc jet_table_data_page_new(jet_db *db, jet_tdef_priv *t, uint32_t *pgno,
                               uint8_t **page);

#endif /* JET_PAGEALLOC_H */
