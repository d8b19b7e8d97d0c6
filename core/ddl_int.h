/*
 * ddl_int.h - what ddl.c (the schema state, names, new tables, catalog
 * rows) and ddlalter.c (changes to existing tables: indexes, columns,
 * drops) share. Private to those two files.
 */
#ifndef JET_DDL_INT_H
#define JET_DDL_INT_H

#include "ddl.h"
#include "encode.h"
#include "internal.h"
#include "write.h"

#define MSYS_OBJECTS_PGNO 2
/* a usage map row: type, start page / 16 reference slots, 64 bitmap bytes
 * (Jackcess OFFSET_USAGE_MAP_START + USAGE_MAP_TABLE_BYTE_LENGTH) */
#define UMAP_ROW_LEN 69
#define NAME_MAX_UNITS 64
/* physical index flags (tdef.c) */
#define IDX_UNIQUE 0x01
#define IDX_IGNORE_NULLS 0x02
#define IDX_REQUIRED 0x08
/* bytes of one index key */
#define KEY_CAP 1024

/** Row ids of a system table (jet_ddl_find_rows). */
typedef struct rowids {
    jet_rowid *ids;
    size_t n;
} rowids;

/** JET_EREADONLY (Jet3) or JET_EUNSUPPORTED (no write transaction). */
jet_rc jet_ddl_need_write(jet_db *db);
/** Access's rules for a name; what: "table", "column", "index". */
jet_rc jet_ddl_check_name(jet_db *db, const char *name, const char *what);
/** An ACE (Access 2007+) file. */
bool jet_ddl_is_ace(const jet_db *db);
/** MEMO or OLE. */
bool jet_ddl_is_long(jet_type t);
/** Note that the transaction changed the TDEF at pgno (the catalog is
 *  read again without its old tdef; a rollback reloads it). */
jet_rc jet_ddl_touch(jet_db *db, uint32_t pgno);
/** Read the catalog again; the schema version moves. */
jet_rc jet_ddl_catalog_reload(jet_db *db);
/** The catalog's MSysObjects tdef. */
jet_rc jet_ddl_msys_objects(jet_db *db, const jet_tdef **out);
/** LvProp blob of cols' Required/DefaultValue properties (*out NULL when
 *  none; the caller frees it). */
jet_rc jet_ddl_build_lvprop(jet_db *db, const jet_coldef *cols,
                            unsigned ncols, uint8_t **out, size_t *len);
/** The sort order new TEXT/MEMO columns get: MSysObjects' Name column's
 *  (*lcid, *sver), else General (0x0409) of db's version. */
void jet_ddl_sort_order(jet_db *db, uint16_t *lcid, uint8_t *sver);
/** The end of t's fixed-length area: the byte past its last fixed column
 *  (BOOL columns live in the null mask), 0 when it has none. */
uint16_t jet_ddl_fixed_end(const jet_tdef_priv *t);
/** Check column definitions and lay them out (ddl.c says how). */
jet_rc jet_ddl_layout_columns(jet_db *db, const jet_coldef *defs,
                              unsigned n, jet_column *out,
                              uint16_t first_num, uint16_t first_var,
                              uint16_t first_fixed, uint16_t lcid,
                              uint8_t sver, uint16_t *nvar,
                              uint16_t *fixed_end);
/** Append usage map row row to map page pg (pgno); *ptr its pointer. */
jet_rc jet_ddl_umap_row_add(jet_db *db, uint8_t *pg, uint32_t pgno,
                            const uint8_t *row, uint32_t *ptr);
/** An inline usage map row holding page first (0: empty). */
void jet_ddl_umap_inline(uint8_t row[UMAP_ROW_LEN], uint32_t first);
/** Write TDEF buffer buf over pages[0..npages) (allocated). */
jet_rc jet_ddl_write_tdef_pages(jet_db *db, const uint8_t *buf, size_t len,
                                const uint32_t *pages, size_t npages);
/** A new empty index root page of table tdef_pgno. */
jet_rc jet_ddl_new_root(jet_db *db, uint32_t tdef_pgno, uint32_t *pgno);
/** Check index definition d over cols; its name into name. */
jet_rc jet_ddl_check_index(jet_db *db, const jet_idxdef *d,
                           const jet_column *cols, unsigned ncols,
                           char *name, size_t cap);
/** The physical index block of d. */
void jet_ddl_real_of(jet_tdef_real_idx *r, const jet_idxdef *d,
                     const jet_column *cols);
/** Same columns, orders and flags: one physical index serves both. */
bool jet_ddl_same_real(const jet_tdef_real_idx *a,
                       const jet_tdef_real_idx *b);
/** Rows of system table sys whose LONG column col equals id, or (text
 *  not NULL) whose TEXT column col equals text case-insensitively; *out
 *  the table (NULL when the file has none). */
jet_rc jet_ddl_find_rows(jet_db *db, const char *sys, const char *col,
                         int32_t id, const char *text, const jet_tdef **out,
                         rowids *r);
/** Delete rows r of system table t (the core's own upkeep). */
jet_rc jet_ddl_delete_rows(jet_db *db, const jet_tdef *t, const rowids *r);

/* ddlalter.c's pieces that ddlrel.c (relationships) uses too */

/** A local user table by name, loaded: JET_ENOTFOUND, or JET_EUNSUPPORTED
 *  for system tables, links and queries. */
jet_rc jet_ddl_user_table(jet_db *db, const char *name, jet_tdef_priv **out);
/** Write spec as the TDEF of the table at first (its chain's pages reused,
 *  more allocated or the surplus freed). */
jet_rc jet_ddl_rewrite_tdef(jet_db *db, uint32_t first,
                            const jet_tdef_spec *spec);
/** Live header facts of t's TDEF (row count, last AutoNumber and its
 *  increment, last complex id) into spec. */
jet_rc jet_ddl_spec_live(jet_db *db, const jet_tdef_priv *t,
                         jet_tdef_spec *spec);
/** Every page of the index B-tree rooted at root, appended to *l. */
jet_rc jet_ddl_index_pages(jet_db *db, uint32_t root, jet_pglist *l);
/** Free the map pages of usage map row ptr (a reference map's). */
jet_rc jet_ddl_free_map_pages(jet_db *db, uint32_t ptr);
/** Free one long-value column's pages (its owned map's) and maps. */
jet_rc jet_ddl_free_lvals(jet_db *db, const jet_lval_umap *u);
/** Replace the LvProp of object id's MSysObjects row: drop_col's block
 *  removed (NULL: none), add's Required/DefaultValue added (NULL: none). */
jet_rc jet_ddl_update_lvprop(jet_db *db, int32_t id, const char *drop_col,
                             const jet_coldef *add);
/** Whether a relationship of MSysRelationships names column col of
 *  table, on either side: *out. */
jet_rc jet_ddl_rel_uses_column(jet_db *db, const char *table,
                               const char *col, bool *out);
/** A usage map row for a new physical index of t naming root. */
jet_rc jet_ddl_index_umap_row(jet_db *db, const jet_tdef_priv *t,
                              uint32_t root, uint32_t *ptr);
/** Entries of index ix of t for every row (unique over duplicates:
 *  JET_EDUPLICATE). */
jet_rc jet_ddl_build_index(jet_db *db, const jet_tdef *t,
                           const jet_index *ix);
/** Insert a catalog row: object name of type (1 table, 8 relationship)
 *  with id under container parent (0: the Tables container), with the
 *  LvProp of cols[0..ncols), and its MSysACEs rows. */
jet_rc jet_ddl_object_row_add(jet_db *db, const char *name, int32_t id,
                              int type, int32_t parent,
                              const jet_coldef *cols, unsigned ncols);
/** The Id of the container object named name ("Tables", "Relationships")
 *  of MSysObjects; *out 0 when the file has none. */
jet_rc jet_ddl_container_id(jet_db *db, const char *name, int32_t *out);
/** Check relationship fk of table (not made yet, columns cols) against
 *  its parent as jet_db_add_foreign_key will, before anything is
 *  written (a table related to itself: only the child's side). */
jet_rc jet_ddl_fk_precheck(jet_db *db, const char *table,
                           const jet_coldef *cols, unsigned ncols,
                           const jet_fkdef *fk);

#endif
