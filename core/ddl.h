/*
 * ddl.h - schema changes inside a write transaction: tables and indexes
 * created and dropped, columns added and dropped, and the schema version
 * that tells prepared statements their plan is stale.
 *
 * Contract between the SQL layer (driver/sql: CREATE/ALTER/DROP, SELECT
 * INTO) and core (ddl.c: TDEF pages, usage maps, index roots, MSysObjects
 * rows, table properties, MSysRelationships rows for FOREIGN KEY):
 *   - Every function runs inside a write transaction (jet_db_write_begin),
 *     else JET_EUNSUPPORTED; a failure may leave changed pages, which the
 *     caller rolls back to the statement's savepoint (write.h's rules), so
 *     a refused statement leaves the file byte-for-byte unchanged.
 *   - Names are UTF-8; Access's rules are checked before anything is
 *     written: 1..64 characters, no leading space, none of . ! ` [ ] and
 *     no control character (JET_ECONSTRAINT, detail names the rule); a
 *     name already used (tables and queries share one name space, compared
 *     as Access compares names) is JET_EDUPLICATE; the format's limits
 *     (255 columns, 32 indexes, 10 columns per index, a row past the page)
 *     are JET_ELIMIT. Jet3 files refuse as write.h says (JET_EREADONLY).
 *   - After a successful call the catalog (jet_catalog_find,
 *     jet_catalog_at, jet_tdef_load) shows the change at once; jet_tdef pointers handed out before stay
 *     valid (readable, describing the old schema) until jet_db_close, so
 *     a prepared statement is never left with a dangling pointer: it
 *     compares jet_db_schema_version with the one it was planned under and
 *     plans again (or reports the table gone).
 * Status (ddl.c): jet_db_schema_version, jet_db_create_table (with
 * its FOREIGN KEYs, made by jet_db_add_foreign_key; an AutoNumber's
 * seed and increment are kept: the TDEF holds the last number
 * handed out (seed - increment at first) and the increment, which each
 * new number adds; a negative increment is JET_EUNSUPPORTED), jet_db_create_index, jet_db_add_foreign_key and
 * jet_db_drop_foreign_key (ddlrel.c),
 * jet_db_drop_index and jet_db_drop_table (a table or index in an
 * enforced relationship refuses, either side, with JET_ECONSTRAINT and
 * Access's message, as Access: drop the relationship first; unenforced
 * relationships are removed with the table),
 * jet_db_add_column (existing rows read NULL; an AutoNumber added to a
 * table with rows is JET_EUNSUPPORTED), jet_db_drop_column (refused
 * while an index or relationship uses it) and jet_db_alter_column
 * (ddlcolumn.c) are implemented.
 * Format: Jackcess TableImpl.writeTableDefinition / TableCreator /
 * TableMutator, IndexData, PropertyMaps, RelationshipCreator; mdbtools
 * HACKING.md (TDEF layout).
 */
#ifndef JET_DDL_H
#define JET_DDL_H

#include "jet.h"

/** Most indexes per table, columns per index, columns per table (Access's
 *  limits, also the format's). */
#define JET_MAX_INDEXES 32
#define JET_MAX_INDEX_COLS 10
#define JET_MAX_COLUMNS 255

/** One column of a table to create or add. */
typedef struct jet_coldef {
    const char *name;       /* UTF-8 */
    jet_type type;          /* JET_T_BOOL .. JET_T_BIGINT (not COMPLEX,
                             * EXT_DATETIME: JET_EUNSUPPORTED) */
    uint16_t size;          /* TEXT: characters 1..255 (0 = 255);
                             * BINARY: bytes 1..255 (0 = 255); else 0 */
    uint8_t precision;      /* NUMERIC: 1..28 (0 = 18) */
    uint8_t scale;          /* NUMERIC: 0..precision */
    bool required;          /* NOT NULL (the Required property) */
    bool autonumber;        /* LONG: AutoNumber (COUNTER); GUID:
                             * ReplicationID generated on insert */
    int32_t seed;           /* AutoNumber's first value (COUNTER(seed, ..));
                             * 0 with increment 0: 1 (the default) */
    int32_t increment;      /* AutoNumber's step (> 0; negative:
                             * JET_EUNSUPPORTED); 0 = 1 */
    bool compressed;        /* TEXT/MEMO: Unicode compression (Access's
                             * default for Text and Memo: true) */
    bool fixed;             /* TEXT: fixed-length (ADO's CHAR(n)): stored
                             * in the row's fixed area, padded with spaces,
                             * never compressed */
    const char *default_value;  /* the DefaultValue property as Access
                             * stores it (an expression's text, e.g. "0",
                             * "\"N/A\"", "=Date()"), or NULL */
} jet_coldef;

/** One index: its columns by position in the table's column list. */
typedef struct jet_idxdef {
    const char *name;       /* UTF-8; NULL: a name made as Access makes it
                             * ("PrimaryKey" for a primary key, else the
                             * column names) */
    unsigned ncols;         /* 1..JET_MAX_INDEX_COLS */
    unsigned col[JET_MAX_INDEX_COLS];   /* column positions */
    bool desc[JET_MAX_INDEX_COLS];      /* descending key column */
    bool primary;           /* primary key (implies unique, disallow null) */
    bool unique;
    bool disallow_null;     /* WITH DISALLOW NULL */
    bool ignore_null;       /* WITH IGNORE NULL: no entries for all-NULL keys */
} jet_idxdef;

/** A FOREIGN KEY constraint: written to MSysRelationships (enforced, with
 *  the cascade flags) with the child's foreign-key index. */
typedef struct jet_fkdef {
    const char *name;       /* relationship name; NULL: made as Access does */
    unsigned ncols;         /* 1..JET_MAX_INDEX_COLS */
    unsigned col[JET_MAX_INDEX_COLS];   /* child columns (positions) */
    const char *parent;     /* parent table (must have a unique index or
                             * primary key on refcols, else JET_ECONSTRAINT) */
    const char *refcol[JET_MAX_INDEX_COLS];  /* parent columns, by name;
                             * NULL entries: the parent's primary key */
    bool cascade_update;
    bool cascade_delete;
    bool cascade_null;      /* ON DELETE SET NULL (ACE) */
} jet_fkdef;

/**
 * The schema's version: starts at 0 at open and grows by one with every
 * schema change (create, drop, alter) and every rollback that undoes one.
 * Prepared statements keep the value they were planned under.
 */
uint64_t jet_db_schema_version(const jet_db *db);

/**
 * Create table name with ncols columns and nidx indexes (an empty table:
 * TDEF page, its usage maps, an empty root page per index, the MSysObjects
 * row, column properties such as DefaultValue and Required as Access
 * writes them). Errors: see the file comment; JET_ENOTFOUND (an FK's
 * parent), JET_EIO, JET_ENOMEM, JET_ECORRUPT. Detail in jet_db_error().
 */
jet_rc jet_db_create_table(jet_db *db, const char *name,
                           const jet_coldef *cols, unsigned ncols,
                           const jet_idxdef *idx, unsigned nidx,
                           const jet_fkdef *fks, unsigned nfk);

/**
 * Add the enforced relationship fk to table (its child): checked as
 * jet_db_create_table's (parent columns with a unique index, else
 * JET_ECONSTRAINT "No unique index found for the referenced field of the
 * primary table."; pairs of the same types, else JET_ECONSTRAINT; a name
 * already used JET_EDUPLICATE), then written as Access writes it:
 * MSysRelationships rows, the relationship's MSysObjects row, a
 * foreign-key index on each side (ddlrel.c says how). Rows already in the
 * child must have their parent, else JET_ECONSTRAINT (the caller rolls
 * back). Errors also JET_ENOTFOUND, JET_ELIMIT, JET_EIO, JET_ENOMEM,
 * JET_ECORRUPT.
 */
jet_rc jet_db_add_foreign_key(jet_db *db, const char *table,
                              const jet_fkdef *fk);

/**
 * Drop relationship name whose child is table: its MSysRelationships,
 * MSysObjects and MSysACEs rows and the foreign-key index entries on both
 * sides (the child's physical index too when nothing else uses it).
 * JET_ENOTFOUND when table has no such relationship; errors also
 * JET_EIO, JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_db_drop_foreign_key(jet_db *db, const char *table,
                               const char *name);

/**
 * Drop table name: its pages freed (data, long values, indexes, TDEF and
 * usage maps), its MSysObjects row and its properties removed. A table
 * that an enforced relationship references refuses (JET_ECONSTRAINT, as
 * Access: drop the relationship first); its own relationships to parents
 * are removed with it. Errors: JET_ENOTFOUND, JET_EIO, JET_ENOMEM,
 * JET_ECORRUPT.
 */
jet_rc jet_db_drop_table(jet_db *db, const char *name);

/**
 * Add index def to table (its entries built from the rows already there;
 * a unique index over duplicate keys is JET_EDUPLICATE; a second primary
 * key JET_ECONSTRAINT). Errors as jet_db_create_table.
 */
jet_rc jet_db_create_index(jet_db *db, const char *table,
                           const jet_idxdef *def);

/**
 * Drop index name of table (an index a relationship uses refuses with
 * JET_ECONSTRAINT). Errors: JET_ENOTFOUND, JET_EIO, JET_ENOMEM,
 * JET_ECORRUPT.
 */
jet_rc jet_db_drop_index(jet_db *db, const char *table, const char *name);

/**
 * Add column def to table (existing rows read it as NULL, or as its
 * default when def->default_value is set and Access would fill it).
 * Errors as jet_db_create_table.
 */
jet_rc jet_db_add_column(jet_db *db, const char *table,
                         const jet_coldef *def);

/**
 * Drop column name of table (refused with JET_ECONSTRAINT while an index
 * or relationship uses it, as Access refuses). Errors: JET_ENOTFOUND,
 * JET_EIO, JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_db_drop_column(jet_db *db, const char *table, const char *name);

/**
 * Convert value in (of the column being altered, as stored; spans valid
 * during the call) to column to's type, size, precision and scale into
 * *out (its spans valid until the next call). JET_OK, or a refusal code
 * (the callback keeps its own message: ctx) which jet_db_alter_column
 * returns as it is.
 */
typedef jet_rc (*jet_alter_convert)(void *ctx, const jet_value *in,
                                    const jet_column *to, jet_value *out);

/**
 * ALTER TABLE table ALTER COLUMN: column def->name of table takes def's
 * type, size, Required and DefaultValue, keeping its name, its column
 * number (its place) and its indexes (rebuilt over the new values), as
 * Access does. Every stored value is converted by conv first, before
 * anything is written: a refusal of conv (a value that does not convert
 * or fit) is returned as it is. Refused: a column in a relationship
 * (JET_ECONSTRAINT, Access's "Cannot change field ... It is part of one
 * or more relationships."), NULLs under NOT NULL (JET_ECONSTRAINT), a
 * field made an AutoNumber on a table with rows (JET_ECONSTRAINT, as
 * Access), an indexed field made Memo or OLE Object, calculated and
 * complex fields (JET_EUNSUPPORTED); a duplicate key of a unique index
 * after the conversion is JET_EDUPLICATE. COUNTER(seed, increment) over
 * an AutoNumber only sets where it goes on from (Access's way to reset
 * it). The rows are rewritten with jet_table_update: the caller's
 * statement savepoint undoes a failure part way. Errors also
 * JET_ENOTFOUND, JET_EIO, JET_ENOMEM, JET_ECORRUPT.
 */
jet_rc jet_db_alter_column(jet_db *db, const char *table,
                           const jet_coldef *def, jet_alter_convert conv,
                           void *ctx);

#endif
