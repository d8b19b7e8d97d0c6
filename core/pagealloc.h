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
 * A new page for any use (an LVAL page, a usage map page): a page this
 * connection freed that is still free, else one appended to the file
 * (pagealloc.c's top comment); zeroed, pinned and dirty, number in *pgno;
 * its bit in the global usage map cleared. Errors: JET_EUNSUPPORTED
 * (no write transaction), JET_ELIMIT (2 GB), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_db_page_new(jet_db *db, uint32_t *pgno, uint8_t **page);
/**
 * Give page pgno back (one no table's usage map lists, or whose maps the
 * caller has dealt with: a TDEF page, a usage map page, a dropped
 * table's pages): zeroed, its bit set in the global usage map, noted for
 * reuse. Errors: JET_EUNSUPPORTED (no write transaction), JET_ECORRUPT
 * (pages 0..2 or past the end), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_db_page_free(jet_db *db, uint32_t pgno);
/**
 * A new, empty data page of t (jet_data_page_init), in t's owned-pages
 * and free-space maps and t->owned; pinned and dirty. Errors as
 * jet_db_page_new, plus those of the maps (JET_ELIMIT, JET_ECORRUPT).
 */
jet_rc jet_table_data_page_new(jet_db *db, jet_tdef_priv *t, uint32_t *pgno,
                               uint8_t **page);

/**
 * Note a space reuse hint (jet_db.freed_pages or room_pages): pgno is
 * appended (not twice in a row); the oldest half is dropped past 4096
 * entries. Out of memory only loses the hint.
 */
void jet_space_hint(jet_pglist *l, uint32_t pgno);
/** Drop entry i of hint list l. */
void jet_space_hint_drop(jet_pglist *l, size_t i);

#endif /* JET_PAGEALLOC_H */
