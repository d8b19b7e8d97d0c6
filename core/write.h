/*
 * write.h - the table write path: write transactions and statement
 * savepoints of a db, row insert/update/delete with their long values,
 * usage maps, TDEF upkeep (row count, AutoNumber) and index upkeep.
 *
 * Layers (each calls only down):
 *   driver/sql DML executors  (coerce values to the column's type, then)
 *     -> tablewrite.c   jet_table_insert/update/delete, the table's rules,
 *                       data pages, LVALs, usage maps, TDEF live state
 *     -> indexwrite.c   B-tree entry insert/delete, splits, merges
 *     -> encode.h       pure encoders (rows, pages, keys, usage maps)
 *     -> pagefile.c     pager: dirty pages, journal, atomic commit
 *
 * Rules every function here keeps:
 *   - All of them run inside a write transaction (jet_db_write_begin),
 *     else JET_EUNSUPPORTED. Nothing reaches the file before commit.
 *   - A function that fails may have changed pages: the caller rolls
 *     back to the statement's savepoint (the driver does this for every
 *     statement), so a refused statement leaves the file unchanged.
 *   - Refusals are checked before anything is changed where that is
 *     cheap (Required, length, the table's unenforced rules); a duplicate
 *     key is found while the index is written and undone by the savepoint.
 *   - Nothing is ever written that Access would refuse to store.
 * Jet4 and ACE only; Jet3 files refuse jet_db_write_begin (JET_EREADONLY,
 * "Access 97 files are read-only").
 * Format: Jackcess TableImpl (addRows, updateRow, deleteRow),
 * UsageMap, IndexData/IndexPageCache, LongValueColumnImpl; mdbtools
 * HACKING.md.
 */
#ifndef JET_WRITE_H
#define JET_WRITE_H

#include "jet.h"

/* ----------------------------------------------------------- transactions */

/**
 * Begin a write transaction on db (the pager's RESERVED lock). Errors:
 * JET_EREADONLY (read-only mode, no write permission, Jet3, a file
 * another program holds; detail says which), JET_EBUSY (another writer
 * past the busy timeout), JET_EIO, JET_ENOMEM. Detail in jet_db_error().
 */
jet_rc jet_db_write_begin(jet_db *db);
/** Commit atomically (pagefile.c's fsync order). On failure the
 *  transaction is rolled back and the error says what failed. */
jet_rc jet_db_write_commit(jet_db *db);
/** Roll back every change of the transaction (safe when none is open). */
jet_rc jet_db_write_rollback(jet_db *db);
/** True between jet_db_write_begin and commit/rollback. */
bool jet_db_in_write(const jet_db *db);

/** A statement savepoint: a mark in the transaction's page changes. */
typedef uint32_t jet_savepoint;
/** Mark the current state (cheap: no I/O). Errors: JET_EUNSUPPORTED
 *  (no transaction), JET_ENOMEM. */
jet_rc jet_db_savepoint(jet_db *db, jet_savepoint *sp);
/** Undo every page change (and in-memory live table state) made after sp;
 *  sp stays valid. AutoNumbers handed out are not reused (Access). */
jet_rc jet_db_rollback_to(jet_db *db, jet_savepoint sp);
/** Forget sp and the savepoints after it (their changes stay). */
void jet_db_release(jet_db *db, jet_savepoint sp);

/* ------------------------------------------------------------------ rows */

/** Where a row lives: data page and row number (an index entry's target).
 *  Stable across updates (a grown row moves behind an overflow pointer). */
typedef struct jet_rowid {
    uint32_t pgno;
    uint16_t row;
} jet_rowid;

/**
 * Whether table t of db accepts writes under the rules this release
 * enforces. JET_OK, or JET_EREADONLY (see jet_db_write_begin) or
 * JET_EUNSUPPORTED naming the rule not yet enforced (an enforced
 * relationship in MSysRelationships, a validation rule or a calculated
 * column while no row check is attached (jet_db_set_row_check), an index
 * on a calculated column, a complex column, an index whose sort order cannot be encoded, a linked table),
 * detail in jet_db_error(). No transaction needed.
 */
jet_rc jet_table_check_writable(jet_db *db, const jet_tdef *t);

/**
 * Insert one row into t. vals holds t->ncols values in t->cols order,
 * each either NULL or of its column's type exactly (the caller converts;
 * TEXT/MEMO as UTF-16LE with enc JET_ENC_UCS2, OLE/BINARY as bytes; the
 * spans are read, not kept). An AutoNumber column (JET_COL_AUTONUMBER
 * LONG, JET_COL_AUTO_GUID GUID) given NULL gets the next number / a new
 * GUID, written back into vals[i]. Long values go inline, to one LVAL row
 * or a chain as Jet places them; every index gets its entry; the TDEF's
 * row count and next AutoNumber are updated. *out (may be NULL) = the
 * new row. Errors: JET_ECONSTRAINT (Required column NULL; detail names
 * the column), JET_ETOOLONG (text/binary longer than the column),
 * JET_EDUPLICATE (unique index or primary key; detail names the index),
 * JET_EUNSUPPORTED (jet_table_check_writable's reasons, a key the sort
 * order cannot encode), JET_ELIMIT (row over 4060 bytes, file past 2 GB),
 * JET_EIO, JET_ENOMEM, JET_ECORRUPT. Detail in jet_db_error().
 */
jet_rc jet_table_insert(jet_db *db, const jet_tdef *t, jet_value *vals,
                        jet_rowid *out);

/**
 * Replace row id of t with vals (the whole row, as jet_table_insert takes
 * it; AutoNumber columns keep their stored value whatever vals says).
 * Long values whose content changed are rewritten and the old ones freed;
 * index entries of changed keys are moved. The rowid stays the same. An
 * append-only Memo whose text changes gets a version in its history
 * (jet_complex_add_versions; the row gets the next complex id first when
 * it has none).
 * Errors as jet_table_insert, plus JET_ENOTFOUND (id is not a live row).
 */
jet_rc jet_table_update(jet_db *db, const jet_tdef *t, jet_rowid id,
                        const jet_value *vals);

/**
 * Delete row id of t: its index entries, its long values, the row (the
 * deleted flag), the TDEF row count. Errors: JET_ENOTFOUND (not a live
 * row), JET_EIO, JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_table_delete(jet_db *db, const jet_tdef *t, jet_rowid id);

/**
 * The table's live row count (the TDEF page as the current transaction,
 * or the file, has it): what COUNT(*) answers. Errors: JET_EIO,
 * JET_ECORRUPT.
 */
jet_rc jet_table_row_count(jet_db *db, const jet_tdef *t, uint32_t *out);

/**
 * The key bytes of the entry of row id in t->indexes[index_no] (cap
 * bytes into key, *klen its length), found by walking the index in key
 * order for the row pointer: for a row whose text key the sort order
 * cannot encode (Access wrote it), so it cannot be computed. One walk of
 * the whole index per call. Errors: JET_ECORRUPT (no entry points at the
 * row; detail in db->err), the walk's.
 */
jet_rc jet_table_key_of_row(jet_db *db, const jet_tdef *t,
                            uint16_t index_no, jet_rowid id, uint8_t *key,
                            size_t cap, size_t *klen);

/* ----------------------------------------------------------------- pages */

/**
 * A new page for table t (an index page; LVAL pages come from
 * lvalwrite.c, data pages from the insert path, each joining the usage
 * maps of what owns it): a page this connection freed that is still free,
 * else appended to the file (pagealloc.c says why other free pages of the
 * global usage map are not taken); out of the global map's free pages. Returned pinned and dirty, zeroed (the caller writes
 * its header), number in *pgno. Errors: JET_EUNSUPPORTED (no write
 * transaction), JET_ELIMIT, JET_EIO, JET_ENOMEM.
 */
jet_rc jet_table_page_new(jet_db *db, const jet_tdef *t, uint32_t *pgno,
                          uint8_t **page);
/** Give page pgno of t back: out of t's owned and free-space maps (when
 *  there), zeroed, into the global usage map's free pages. */
jet_rc jet_table_page_free(jet_db *db, const jet_tdef *t, uint32_t pgno);

/* ---------------------------------------------------------------- indexes */

/**
 * Add the entry (key, id) to the physical index B-tree of logical index
 * ix of t (key from jet_index_row_key). Splits full pages (a new root
 * keeps the root's page number, so the TDEF never changes for it).
 * Errors: JET_EDUPLICATE when ix->unique (or primary) and an entry with
 * an equal key exists (NULL keys as Access allows them: a unique index
 * holds many NULLs unless ignore_nulls/required say otherwise), JET_EIO,
 * JET_ENOMEM, JET_ECORRUPT. Nothing is changed on JET_EDUPLICATE.
 */
jet_rc jet_index_entry_insert(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id);

/**
 * Remove the entry (key, id) from ix's B-tree, merging or freeing pages
 * left empty. Errors: JET_ECORRUPT (no such entry: the index does not
 * match its table), JET_EIO, JET_ENOMEM.
 */
jet_rc jet_index_entry_delete(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id);

/* ------------------------------------------- table rules (tablerules.c) */
/* jet_table_check_writable (above) lives in tablerules.c; its answer is
 * cached in the tdef. */

/**
 * Find property prop (e.g. "ValidationRule"; name compared
 * case-insensitively) with a non-empty value in property map p (len
 * bytes: an MSysObjects LvProp blob, "MR2\0" then chunks). *found says
 * whether one was found; where (cap bytes) receives the name of the
 * column whose block holds it, or "" for the object's own block (an
 * empty block name, or one equal to owner). Errors: JET_ECORRUPT
 * naming owner when the map cannot be parsed (detail in db->err).
 * Format: Jackcess PropertyMaps.
 */
jet_rc jet_lvprop_find(bool *found, char *where, size_t cap, jet_db *db,
                       const uint8_t *p, size_t len, const char *owner,
                       const char *prop);

/* --------------------------------------- rule properties (tableprops.c) */

/** One column's rule properties (MSysObjects LvProp). Strings are UTF-8,
 *  owned by the tdef; NULL when the property is absent or empty. */
typedef struct jet_column_props {
    const char *default_value;   /* DefaultValue: an Access expression,
                                    "=" optional (applied by the SQL layer
                                    to the columns an INSERT omits) */
    const char *validation_rule; /* ValidationRule: an expression; one
                                    opening with an operator is about the
                                    column (">0" reads "[C] > 0") */
    const char *validation_text; /* ValidationText: the refusal's message */
    bool no_zero_length;         /* AllowZeroLength is No */
    const char *expression;      /* Expression: a calculated column's
                                    Access expression (its value's type is
                                    the column's result_type) */
} jet_column_props;

/** A table's rule properties: its columns' and its own. */
typedef struct jet_table_props {
    uint16_t ncols;
    const jet_column_props *cols;   /* ncols, parallel to the tdef's cols */
    const char *validation_rule;    /* the table's ValidationRule (its
                                       expression names columns), or NULL */
    const char *validation_text;    /* its ValidationText, or NULL */
    bool has_validation;            /* a ValidationRule: the table's or a
                                       column's */
    bool has_no_zero_length;        /* a column with AllowZeroLength No */
    bool has_calculated;            /* a calculated column (the TDEF's
                                       flag, whatever the properties say) */
} jet_table_props;

/**
 * The rule properties of table t (read from its MSysObjects row's LvProp
 * once, then kept with the tdef; owned by it). A linked table's, or a
 * table without properties, has none set. Errors: JET_ECORRUPT (the
 * property map cannot be parsed), JET_EUNSUPPORTED (a rule property
 * that is not text, or a rule on a block naming no column), JET_EIO,
 * JET_ENOMEM; detail in jet_db_error().
 * Format: Jackcess PropertyMaps.
 */
jet_rc jet_table_props_get(jet_db *db, const jet_tdef *t,
                           const jet_table_props **out);

/**
 * A row check of a layer above the core (the SQL engine evaluates Access
 * expressions; the core evaluates none): called by jet_table_insert and
 * jet_table_update of a table whose properties hold a ValidationRule
 * (props->has_validation) or that has a calculated column
 * (props->has_calculated), with the whole new row as they take it
 * (vals: t->ncols values, AutoNumbers assigned), after the core's own
 * checks (Required, lengths, AllowZeroLength) and before anything is
 * written. First it computes every calculated column (JET_COL_CALCULATED)
 * from its Expression property, whatever vals held for it: vals[i]
 * becomes the value of the column's result_type (NULL allowed; TEXT/MEMO
 * as UTF-16LE, JET_ENC_UCS2; a NUMERIC at its own scale, precision 28),
 * its span owned by ctx and valid until the check's next call on db;
 * then it judges the validation rules on the row so computed. Returns
 * JET_OK; JET_ECONSTRAINT when the row breaks a rule (err, the db's
 * error detail, gets the ValidationText or Access's message);
 * JET_EUNSUPPORTED when a rule or an expression is none the check can
 * evaluate, or a calculated value cannot be evaluated for this row or
 * converted to its result type (never skipped, never stored stale: the
 * write is refused); JET_ENOMEM.
 */
typedef jet_rc (*jet_row_check_fn)(void *ctx, jet_db *db, const jet_tdef *t,
                                   const jet_table_props *props,
                                   jet_value *vals, jet_error *err);

/**
 * The handshake of the layers: attach check (with ctx, freed by free_ctx
 * (may be NULL) when replaced or at jet_db_close) as db's evaluator of
 * calculated columns and validation rules. Attaching one declares that
 * both are enforced: jet_table_check_writable stops refusing tables for
 * them. Attach before the first write of the connection; check NULL
 * detaches.
 */
void jet_db_set_row_check(jet_db *db, jet_row_check_fn check,
                          void (*free_ctx)(void *), void *ctx);
/** Whether a row check is attached (validation rules are enforced,
 *  calculated columns computed). */
bool jet_db_has_row_check(const jet_db *db);

/**
 * The rule properties' checks of a new row of t (jet_table_insert and
 * jet_table_update make them): AllowZeroLength = No refuses a TEXT/MEMO
 * value of no characters (JET_ECONSTRAINT, "Field 'T.C' cannot be a
 * zero-length string."), then the attached row check when t has a
 * ValidationRule or a calculated column (JET_EUNSUPPORTED when none is
 * attached): the calculated columns' values are put in vals (see
 * jet_row_check_fn for their spans' lifetime). Errors also those of
 * jet_table_props_get.
 */
jet_rc jet_table_row_rules(jet_db *db, const jet_tdef *t, jet_value *vals);

/* --------------------------------- referential integrity (relations.c) */

/**
 * Whether every enforced relationship of MSysRelationships naming table
 * t (either side) can be enforced: both tables local, a unique index on
 * the parent's columns, an index on the child's, column types equal.
 * JET_OK, JET_EUNSUPPORTED with the reason in err (kept in the tdef), or
 * a failure to read MSysRelationships (detail in db->err).
 */
jet_rc jet_rel_check_enforceable(jet_db *db, const jet_tdef *t,
                                 jet_error *err);

/**
 * Before row vals (t's shape, as jet_table_insert takes them) is
 * inserted into t: every relationship where t is the child needs a
 * parent row with the row's key unless the key is all NULL, else
 * JET_ECONSTRAINT ("You cannot add or change a record because a related
 * record is required in table '<parent>'."). Changes nothing. Errors
 * also JET_EUNSUPPORTED, JET_EIO, JET_ENOMEM, JET_ECORRUPT; detail in
 * db->err.
 */
jet_rc jet_rel_before_insert(jet_db *db, const jet_tdef *t,
                             const jet_value *vals);

/**
 * Before row id of t changes from oldv to newv (t's shape): where t is
 * the parent and the key changed, child rows holding the old key refuse
 * the change (JET_ECONSTRAINT, "The record cannot be deleted or changed
 * because table '<child>' includes related records.") or, with cascade
 * updates, take the new key (jet_table_update; a row naming itself gets
 * it in newv); where t is the child and its key changed, the new key
 * needs a parent as on insert (not inside a cascade). Cascaded changes
 * are undone by the caller's savepoint on failure. Errors also those of
 * jet_table_update, JET_ELIMIT (cascades nested deeper than 16).
 */
jet_rc jet_rel_before_update(jet_db *db, const jet_tdef *t, jet_rowid id,
                             const jet_value *oldv, jet_value *newv);

/**
 * Before row id of t (values vals, t's shape) is deleted: where t is the
 * parent, child rows holding its key refuse the delete (JET_ECONSTRAINT,
 * as jet_rel_before_update) or, as the relationship says, are deleted
 * (cascade deletes, jet_table_delete) or get NULL keys (cascade to NULL).
 * Errors as jet_rel_before_update.
 */
jet_rc jet_rel_before_delete(jet_db *db, const jet_tdef *t, jet_rowid id,
                             const jet_value *vals);

/**
 * Every row of t (the child of the enforced relationship name) whose key
 * is not all NULL has its parent row, else JET_ECONSTRAINT ("... the data
 * in table '<t>' violates referential integrity rules."): the check of a
 * relationship added to a table with rows (ddlrel.c). Changes nothing;
 * JET_OK when t is not name's child. Errors also JET_EUNSUPPORTED,
 * JET_EIO, JET_ENOMEM, JET_ECORRUPT; detail in db->err.
 */
jet_rc jet_rel_check_rows(jet_db *db, const jet_tdef *t, const char *name);

/**
 * The position of t's index on exactly the columns cols[0..n) that keeps
 * a relationship, or -1 when t has none. parent: a unique one, its
 * primary key first, then another unique index, then a foreign-key entry
 * (which shares a unique index's keys); else (child side) any, its
 * foreign-key index first. Used to enforce relationships (relations.c)
 * and to make them (ddlrel.c: "No unique index found ...").
 */
int jet_rel_index(const jet_tdef *t, const uint16_t *cols, uint16_t n,
                  bool parent);

/** Does index ix hold exactly the columns cols[0..n) (table column
 *  positions, in any order)? How a relationship's columns are matched to
 *  the index that keeps it (relations.c, ddlrel.c). */
bool jet_index_on_columns(const jet_index *ix, const uint16_t *cols,
                          unsigned n);

/* -------------------------------------------- complex columns (complex.c) */

/** What a complex column holds (its template table's shape, Jackcess
 *  ComplexColumnSupport). */
typedef enum jet_complex_kind {
    JET_COMPLEX_UNKNOWN = 0,
    JET_COMPLEX_MULTI,          /* multi-value lookup: one simple column */
    JET_COMPLEX_ATTACHMENT,     /* FileData, FileName, FileType, ... */
    JET_COMPLEX_VERSIONS        /* an append-only Memo's history */
} jet_complex_kind;

/** One complex column of a table and the flat table holding its values
 *  (tdefs owned by the db's cache). */
typedef struct jet_complex_col {
    uint16_t col;               /* position in the table's cols */
    jet_complex_kind kind;
    const jet_tdef *flat;       /* the hidden values table f_<guid>_<col> */
    uint16_t fk_col;            /* flat's LONG holding the row's complex id */
    uint16_t pk_col;            /* flat's AutoNumber (the value's id) */
    uint16_t value_col;         /* flat's first template column (the value
                                   of a multi-value column; a version
                                   history's Memo) */
    int fk_index;               /* flat's index led by fk_col */
    int versioned;              /* a version history: the table's Memo
                                   column it follows (the one named as
                                   value_col), else -1 */
    uint16_t date_col;          /* a version history: flat's Date/Time
                                   column (when the version was made) */
} jet_complex_col;

/**
 * The complex columns of t (*n of them, in column order; *n = 0 when it
 * has none), read from MSysComplexColumns once and kept with the tdef.
 * Errors: JET_EUNSUPPORTED naming the column when one cannot be written
 * as Access does (no MSysComplexColumns row, no flat table, a template
 * of no known kind, no index on the complex id, a Jet4 file), JET_EIO,
 * JET_ENOMEM, JET_ECORRUPT; detail in jet_db_error().
 */
jet_rc jet_complex_columns(jet_db *db, const jet_tdef *t,
                           const jet_complex_col **cols, size_t *n);

/** Whether t is the flat (values) table of a complex column: a system
 *  table f_... that MSysComplexColumns names as a FlatTableID. Such a
 *  table is written by the core (jet_table_insert/update/delete) but
 *  only through its column: the SQL layer refuses user statements on
 *  it. Errors: those of reading MSysComplexColumns. */
jet_rc jet_complex_flat_owner(jet_db *db, const jet_tdef *t, bool *is_flat);

/**
 * The rows of c's flat table holding values of the row whose complex id
 * is complex_id, in index order, into *ids (malloc'd, *n of them; the
 * caller frees with jet_free). Errors: JET_EIO, JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_complex_value_rows(jet_db *db, const jet_complex_col *c,
                              int32_t complex_id, jet_rowid **ids, size_t *n);

/**
 * Whether writing row newv of t (t's shape) over oldv (NULL: an insert)
 * adds a version to the history of an append-only Memo (a Memo that a
 * version-history complex column follows): an insert giving it a value,
 * an update changing its text (to NULL too). *due says so. Errors: those
 * of jet_complex_columns, JET_ENOMEM, JET_ECORRUPT (unreadable text).
 */
jet_rc jet_complex_versions_due(jet_db *db, const jet_tdef *t,
                                const jet_value *oldv, const jet_value *newv,
                                bool *due);

/**
 * After row newv of t was written over oldv (NULL: inserted): for each
 * append-only Memo that jet_complex_versions_due finds changed, a row of
 * its history's flat table (jet_table_insert, inside the caller's
 * statement): the new value (NULL too), the local date and time to the
 * millisecond (as Access stamps a version) and the row's complex id,
 * which newv must hold (JET_ECORRUPT otherwise). Format: Jackcess
 * VersionHistoryColumnInfoImpl (value: the Memo, modified date: the
 * Date/Time column of the template). Errors: those of
 * jet_complex_versions_due and jet_table_insert.
 */
jet_rc jet_complex_add_versions(jet_db *db, const jet_tdef *t,
                                const jet_value *oldv, const jet_value *newv);

/**
 * Before a row of t with values vals (t's shape) is deleted: the flat
 * rows of each of its complex columns holding the row's complex id are
 * deleted (jet_table_delete), inside the caller's statement. Errors
 * those of jet_complex_columns and jet_table_delete.
 */
jet_rc jet_complex_before_delete(jet_db *db, const jet_tdef *t,
                                 const jet_value *vals);

/* ------------------------------------------- long values (lvalwrite.c) */

/** Bytes a MEMO/OLE cell can take in a row: the 12-byte header plus an
 *  inline value (JET_LVAL_INLINE_MAX); the out buffer of jet_lval_store. */
#define JET_LVAL_CELL_MAX 76

/**
 * Store value v of MEMO/OLE column col of t for a row being written, and
 * give the bytes the row holds for it (a jet_cell's data): out (cap >=
 * JET_LVAL_CELL_MAX) gets the 12-byte long-value header and, inline, the
 * value; *out_len their count. v is not NULL: MEMO as UTF-16LE
 * (JET_ENC_UCS2; stored as jet_text_encode makes it, compressed when the
 * column allows) or already in stored form (JET_ENC_COMPRESSED), OLE as
 * bytes. room = bytes of the row still free for this cell (header
 * included): inline when the value is <= 64 bytes and fits, else one LVAL
 * row (<= 4076 bytes) or a chain, on the column's LVAL pages (its own
 * usage maps) with room, else new ones. Inside a write transaction; on
 * failure the statement's savepoint undoes any page change. Errors:
 * JET_ELIMIT (value over 1 GB, room < 12, an empty value with no room
 * inline, file past 2 GB), JET_EUNSUPPORTED (not a MEMO/OLE column, no
 * transaction), JET_EREADONLY (Jet3), JET_ECORRUPT (damaged usage map),
 * JET_EIO, JET_ENOMEM; detail in jet_db_error(). Format: Jackcess
 * LongValueColumnImpl.writeLongValue.
 */
jet_rc jet_lval_store(uint8_t *out, size_t cap, size_t *out_len, jet_db *db,
                      const jet_tdef *t, const jet_column *col,
                      const jet_value *v, size_t room);

/** jet_lval_store for a value already in stored form: data (len bytes)
 *  goes as it is (OLE bytes, encoded MEMO text). Same errors. */
jet_rc jet_lval_store_bytes(uint8_t *out, size_t cap, size_t *out_len,
                            jet_db *db, const jet_tdef *t,
                            const jet_column *col, const uint8_t *data,
                            size_t len, size_t room);

/**
 * Free the long value whose cell (header + inline bytes, cell_len bytes,
 * as the row holds it) belongs to column col of t, for a row being
 * deleted or a value being replaced: its LVAL rows are deleted, trailing
 * deleted rows give their bytes back, an LVAL page left empty is reset
 * and stays the column's, with room, in its free-space map. Inline values
 * need nothing. Inside a write transaction. Errors: JET_ECORRUPT (a
 * header or chain that does not match the pages: detail names the page),
 * JET_EUNSUPPORTED (no transaction), JET_EREADONLY (Jet3), JET_EIO,
 * JET_ENOMEM.
 */
jet_rc jet_lval_free(jet_db *db, const jet_tdef *t, const jet_column *col,
                     const uint8_t *cell, size_t cell_len);

#endif /* JET_WRITE_H */
