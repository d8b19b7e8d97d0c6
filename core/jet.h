/*
 * jet.h - the public interface of the jetodbc core reader.
 *
 * This is the only core header that driver/ includes. It knows nothing of
 * ODBC. Everything here reads a Microsoft Jet/ACE database (.mdb Jet3/Jet4,
 * .accdb ACE 12..17) read-only.
 *
 * Ownership in brief:
 *   - jet_db owns the page cache, the catalog and every loaded tdef. Catalog
 *     objects and tdefs are immutable once loaded and live until
 *     jet_db_close(); callers hold const pointers to them.
 *   - jet_scan is a table-scan cursor owned by its caller. Values it returns
 *     borrow memory from the scan (a pinned page or the scan's scratch); they
 *     stay valid until the next call on that scan.
 *   - Errors: functions return jet_rc; detail goes into a jet_error owned by
 *     the object the call works on (the db for open/catalog/tdef, the scan for
 *     rows). Nothing is ever written to stderr or to the database file.
 *
 * Threading: a jet_db may be used by one thread at a time (the driver holds
 * the connection lock around every core call).
 */
#ifndef JET_H
#define JET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

/** Result codes. JET_OK and JET_DONE are not errors; all others are < 0. */
typedef enum jet_rc {
    JET_OK = 0,
    JET_DONE = 1,            /* end of an iteration */
    JET_ENOMEM = -1,
    JET_EIO = -2,            /* the OS refused a read/open (errno in detail) */
    JET_ECORRUPT = -3,       /* the file contradicts the format */
    JET_EUNSUPPORTED = -4,   /* a valid feature we do not read (yet) */
    JET_EPASSWORD = -5,      /* password missing or wrong */
    JET_ENOTFOUND = -6,      /* no such table/column/object */
    JET_ELIMIT = -7,         /* a size past what we accept */
    JET_EINTERRUPTED = -8,   /* cancelled or timed out */
    JET_EFORMAT = -9,        /* not a Jet/ACE database at all */
    JET_EBUSY = -10,         /* another connection or process holds the
                              * lock a write needs (busy timeout passed) */
    JET_EREADONLY = -11,     /* a write refused: read-only mode, no write
                              * permission, Jet3, a file another program
                              * holds (detail says which) */
    JET_EDUPLICATE = -12,    /* a unique index or primary key would hold
                              * a key twice (Access: 23000, error 3022) */
    JET_ECONSTRAINT = -13,   /* a rule of the table refuses the row:
                              * Required NULL, a text value too long
                              * (detail names the column and the rule) */
    JET_ETOOLONG = -14,      /* a text/binary value longer than its
                              * column (ODBC 22001) */
    JET_EARGUMENT = -15      /* a caller's argument is malformed (a
                              * CREATE_DB= value; detail says how) */
} jet_rc;

/** Error detail, recorded once where the problem is seen. */
typedef struct jet_error {
    jet_rc rc;          /* the code returned with it */
    uint32_t pgno;      /* page number involved, or UINT32_MAX when none */
    char msg[256];      /* English, UTF-8, NUL-terminated, no trailing period */
} jet_error;

/** A short English name of a code ("file is damaged", ...), never NULL. */
const char *jet_rc_str(jet_rc rc);

/* ------------------------------------------------------------- databases */

/** File format versions, from the header page (byte 0x14). */
typedef enum jet_version {
    JET_VER_3 = 0,       /* Access 97, 2 KB pages, code-page text */
    JET_VER_4 = 1,       /* Access 2000/2002/2003 */
    JET_VER_ACE12 = 2,   /* Access 2007 */
    JET_VER_ACE14 = 3,   /* Access 2010 */
    JET_VER_ACE15 = 4,   /* Access 2013 */
    JET_VER_ACE16 = 5,   /* Access 2016 */
    JET_VER_ACE17 = 6    /* Access 2019 / 365 */
} jet_version;

typedef struct jet_db jet_db;

/**
 * An interrupt check: returns non-zero to stop the work (cancel or
 * deadline passed), 0 to go on. Called with the ctx given at set time;
 * must be cheap (once per page) and must not call back into the core.
 */
typedef int (*jet_interrupt_fn)(void *ctx);

/** Options for jet_db_open(); zero-initialise for defaults. */
typedef struct jet_open_options {
    const char *password;   /* UTF-8 database password, or NULL */
    size_t cache_pages;     /* page cache bound in pages; 0 = default (256) */
    /* checked during long work at open (an encrypted file's password key
     * derivation): non-zero stops the open with JET_EINTERRUPTED */
    jet_interrupt_fn interrupt;
    void *interrupt_ctx;
    /* never write the file (ReadOnly=1, SQL_MODE_READ_ONLY): it is not
     * opened for writing, and a hot journal refuses the open instead of
     * being rolled back */
    bool read_only;
} jet_open_options;

/**
 * Open the database at path read-only, decode its header and load the
 * catalog (MSysObjects). On success *out owns the file; release it with
 * jet_db_close(). On failure *out is NULL and err (may be NULL) says why:
 * JET_EIO, JET_EFORMAT (not a Jet file), JET_ECORRUPT, JET_EPASSWORD,
 * JET_EUNSUPPORTED (e.g. an encryption we do not read), JET_ENOMEM.
 */
jet_rc jet_db_open(jet_db **out, const char *path,
                   const jet_open_options *opts, jet_error *err);

/** Close the file and free everything the db owns. Safe on NULL. */
void jet_db_close(jet_db *db);

jet_version jet_db_version(const jet_db *db);
/** Page size in bytes: 2048 for Jet3, 4096 otherwise. */
uint32_t jet_db_page_size(const jet_db *db);
/** Windows code page of the file's text (Jet3 text; e.g. 1252). */
uint16_t jet_db_code_page(const jet_db *db);
/** The path given to jet_db_open (UTF-8, owned by db). */
const char *jet_db_path(const jet_db *db);
/** Detail of the last failed call on db (catalog, tdef loading). */
const jet_error *jet_db_error(const jet_db *db);
/** Pages read from the file since open (for tests asserting plans). */
uint64_t jet_db_pages_read(const jet_db *db);

/**
 * Begin a read transaction on db: every page read until the matching
 * jet_db_read_end() sees one committed state of the file, never part of
 * another connection's or process's commit (the pager's SHARED lock;
 * pagefile.c). The cache is dropped first when the file changed since
 * this connection last saw it. Calls nest (a count per db); inside a
 * write transaction they only count. While one is open, writers of other
 * connections wait at their commit (up to their busy timeout, 5 s), so
 * end it as soon as the reads are done. Errors: JET_EBUSY (a commit held
 * the file past the busy timeout), JET_EIO (a hot journal this
 * connection may not roll back, a write error earlier); detail in
 * jet_db_error().
 */
jet_rc jet_db_read_begin(jet_db *db);
/** End a read transaction of jet_db_read_begin() (the last one releases
 *  the lock). Safe when none is open. */
void jet_db_read_end(jet_db *db);

/* -------------------------------------------------------------- new files */

/**
 * Create a new empty database file at path (UTF-8) in format ver:
 * JET_VER_4 (.mdb, Access 2002-2003), JET_VER_ACE12, JET_VER_ACE14,
 * JET_VER_ACE16 or JET_VER_ACE17 (.accdb). The file holds the system
 * catalog Access's engine writes (newfile.h: jw_create_database) and no
 * user object; it is synced before the call returns. Refused, with
 * nothing written, when anything exists at path (JET_EIO, detail "... the
 * file exists"); on any other failure the file is removed again.
 * password: NULL or "" for none; else (UTF-8) the file is encrypted and
 * opens only with it (jet_open_options.password): Jet4 RC4 page encoding
 * plus the header's database password (at most 20 characters), ACE agile
 * encryption (AES-256, SHA-512; 1 to 255 characters); see newfile.h
 * jw_set_password. Errors: JET_EIO (errno text in detail),
 * JET_EUNSUPPORTED (another version; no crypto library for a password),
 * JET_ELIMIT (a password too long, nothing written), JET_ENOMEM.
 */
jet_rc jet_db_create_file(const char *path, jet_version ver,
                          const char *password, jet_error *err);

/**
 * Compact the database at src_path (UTF-8) into a new file dst_path, as
 * Access's "Compact and Repair": every table (system tables included)
 * with its rows in the same scan order, long values and indexes written
 * afresh, every catalog object and property, saved query, relationship
 * and AutoNumber counter kept, and the header's settings (format, code
 * page, sort order, database password and encryption: an encrypted
 * source gives a file encrypted with the same password). No free pages
 * are left. src is only read (opened read-only). dst is made as a
 * temporary file beside it, synced, then renamed: a failure leaves no
 * file at dst_path. password: src's (NULL or "" for none). Errors:
 * JET_EIO (dst_path exists: detail "... already exists"; the OS refused
 * a read or write), JET_EPASSWORD, JET_EFORMAT, JET_ECORRUPT (src),
 * JET_EUNSUPPORTED (an Access 97 file: not written; a value the core
 * cannot copy), JET_ELIMIT, JET_ENOMEM; detail in err.
 * Format: core/compact.c.
 */
jet_rc jet_db_compact(const char *src_path, const char *dst_path,
                      const char *password, jet_error *err);

/**
 * Carry out Microsoft's CREATE_DB= keyword: spec is its value,
 * "path [ACE12|ACE14|ACE16|ACE17|JET4] [General] [ENCRYPT]" (a path with
 * blanks may be quoted; unquoted, trailing option words come off it);
 * without a version .mdb is Jet4, anything else ACE 16. The new file is
 * made by jet_db_create_file, encrypted when password is not empty.
 * On success the path (UTF-8) is copied to made (cap bytes). Errors:
 * JET_EARGUMENT (malformed spec), JET_EUNSUPPORTED (ENCRYPT without a
 * password), then jet_db_create_file's; detail in err. core/dbspec.c.
 */
jet_rc jet_db_create_spec(const char *spec, const char *password,
                          char *made, size_t cap, jet_error *err);

/**
 * Carry out Microsoft's COMPACT_DB= keyword: spec is "src dst [General]"
 * (paths with blanks quoted); jet_db_compact(src, dst, password). On
 * success dst is copied to made (cap bytes). Errors: JET_EARGUMENT
 * (malformed spec), then jet_db_compact's; detail in err.
 */
jet_rc jet_db_compact_spec(const char *spec, const char *password,
                           char *made, size_t cap, jet_error *err);

/* ----------------------------------------------------------------- check */

/** Problems jet_db_check() reports one by one; it counts on past them. */
#define JET_CHECK_MAX_PROBLEMS 1000u

/** One problem of jet_db_check(): the page it is on (JET_NO_PGNO when
 *  none: UINT32_MAX), the table (UTF-8, NULL for the file's own structures), and
 *  what is wrong (one line, UTF-8). The strings last for the call. */
typedef void (*jet_check_fn)(void *ctx, uint32_t pgno, const char *table,
                             const char *msg);

/** What jet_db_check() walked. */
typedef struct jet_check_stats {
    uint32_t pages;         /* pages in the file */
    uint32_t tables;        /* tables checked (user and system) */
    uint64_t rows;          /* live rows */
    uint64_t entries;       /* index entries */
    uint32_t indexes;       /* indexes walked */
    uint64_t long_values;   /* MEMO/OLE values read */
    unsigned problems;      /* problems found (fn called for the first
                               JET_CHECK_MAX_PROBLEMS) */
} jet_check_stats;

/**
 * Check the structure of db's file, reading only (inside one read
 * transaction): usage maps against pages, TDEF row counts against live
 * rows, every index against its table's rows (one entry per row with the
 * row's key, none extra, key order, B-tree links), long value chains.
 * fn is called once per problem (check.c says what is checked); *out
 * gets the counts. Returns JET_OK when the walk ran (problems or not);
 * JET_EUNSUPPORTED for Jet3 files, JET_ENOMEM, JET_EBUSY/JET_EIO from the
 * read transaction. Memory: 4 bytes per page plus 16 per row and index
 * entry of the largest table; time linear in the file.
 */
jet_rc jet_db_check(jet_db *db, jet_check_fn fn, void *ctx,
                    jet_check_stats *out);

/* --------------------------------------------------------------- catalog */

/** What a catalog entry is (from MSysObjects Type and Flags). */
typedef enum jet_object_kind {
    JET_OBJ_TABLE = 1,          /* a user table */
    JET_OBJ_SYSTEM_TABLE = 2,   /* MSys* and other system-flagged tables */
    JET_OBJ_LINKED_TABLE = 3,   /* link to a table in another Access file */
    JET_OBJ_LINKED_ODBC = 4,    /* link to an ODBC data source */
    JET_OBJ_QUERY = 5           /* a saved query */
} jet_object_kind;

/** One catalog entry. All strings UTF-8, owned by the db. */
typedef struct jet_object {
    const char *name;
    jet_object_kind kind;
    int32_t id;               /* MSysObjects Id */
    uint32_t tdef_pgno;       /* table definition page; 0 for non-tables */
    const char *linked_db;    /* Database column of a link, else NULL */
    const char *linked_name;  /* ForeignName of a link, else NULL */
    const char *connect;      /* Connect string of a link, else NULL */
    int32_t flags;            /* MSysObjects Flags (query kind, hidden) */
    uint32_t row_pgno;        /* where its MSysObjects row was when the
                                 catalog was read (page, slot); 0 unknown */
    uint16_t row_slot;
} jet_object;

/** Number of catalog entries (tables, system tables, links, queries). */
size_t jet_catalog_count(const jet_db *db);
/** Entry i (0 <= i < count), in MSysObjects scan order. */
const jet_object *jet_catalog_at(const jet_db *db, size_t i);
/**
 * Find a table-like object (table, system table, linked table, ODBC
 * link) by name,
 * case-insensitively as Access compares names. NULL when absent.
 */
const jet_object *jet_catalog_find(const jet_db *db, const char *name);

/* --------------------------------------------------------- saved queries */

/** MSysQueries Attribute codes (Jackcess QueryFormat; mdbtools mdb-queries). */
enum {
    JET_QA_START = 0,       /* first row of every query */
    JET_QA_TYPE = 1,        /* Flag: 1 select, 2 make-table, 3 append,
                               4 update, 5 delete, 6 crosstab, 7 DDL,
                               8 pass-through, 9 union; Name1 target,
                               Expression SQL text (DDL, pass-through) */
    JET_QA_PARAMETER = 2,   /* Name1 name, Flag jet_type (0 = Value),
                               LvExtra text size */
    JET_QA_FLAG = 3,        /* Flag: JET_QF_*; Name1 TOP n */
    JET_QA_REMOTEDB = 4,    /* Name1 path, Expression type of IN db */
    JET_QA_TABLE = 5,       /* Name1 table, Name2 alias, Expression db or
                               union part (Name2 X7YZ_____1/2) */
    JET_QA_COLUMN = 6,      /* Expression, Name1 alias; crosstab Flag */
    JET_QA_JOIN = 7,        /* Name1 left, Name2 right, Expression ON,
                               Flag 1 inner, 2 left, 3 right */
    JET_QA_WHERE = 8,       /* Expression */
    JET_QA_GROUPBY = 9,     /* Expression; crosstab Flag */
    JET_QA_HAVING = 10,     /* Expression */
    JET_QA_ORDERBY = 11,    /* Expression, Name1 "D" for descending */
    JET_QA_END = 255
};

/** JET_QA_FLAG bits (select kind) and crosstab row flags. */
enum {
    JET_QF_SELECT_STAR = 0x01,
    JET_QF_DISTINCT = 0x02,        /* union queries: UNION without ALL */
    JET_QF_OWNER_ACCESS = 0x04,
    JET_QF_DISTINCTROW = 0x08,
    JET_QF_TOP = 0x10,
    JET_QF_PERCENT = 0x20,
    JET_QF_CROSSTAB_PIVOT = 0x01,  /* column/group row is the PIVOT */
    JET_QF_CROSSTAB_ROW = 0x02     /* column/group row is a row heading */
};

/** One MSysQueries row. Strings UTF-8 or NULL, owned by the db. */
typedef struct jet_query_row {
    uint8_t attribute;        /* JET_QA_* */
    bool flag_null;           /* Flag column NULL */
    int16_t flag;
    int32_t extra;            /* LvExtra (0 when absent or NULL) */
    const char *name1;
    const char *name2;
    const char *expression;
} jet_query_row;

/** The MSysQueries rows of one saved query, by attribute then Order. */
typedef struct jet_query {
    const jet_object *obj;
    size_t nrows;
    const jet_query_row *rows;
} jet_query;

/**
 * The MSysQueries rows of saved query obj (JET_OBJ_QUERY). The first call
 * reads MSysQueries once for every query; *out stays valid until
 * jet_db_close(). Rows come sorted by Attribute, then by the Order column
 * (scan order breaks ties). A query without rows gets nrows 0. Errors:
 * JET_ENOTFOUND (obj is not a query of db, or no MSysQueries),
 * JET_ECORRUPT, JET_ENOMEM; detail in jet_db_error(db).
 * Format: Jackcess QueryImpl/QueryFormat.
 */
jet_rc jet_query_load(const jet_query **out, jet_db *db, const jet_object *obj);

/** A saved query by name (case-insensitive), or NULL. */
const jet_object *jet_catalog_find_query(const jet_db *db, const char *name);

/* ------------------------------------------------------ table definitions */

/** Column data types, with their on-disk codes (TDEF column descriptor). */
typedef enum jet_type {
    JET_T_BOOL = 0x01,
    JET_T_BYTE = 0x02,
    JET_T_INT = 0x03,         /* 16-bit */
    JET_T_LONG = 0x04,        /* 32-bit */
    JET_T_MONEY = 0x05,       /* Currency: int64 in units of 1/10000 */
    JET_T_FLOAT = 0x06,       /* Single, IEEE 754 binary32 */
    JET_T_DOUBLE = 0x07,
    JET_T_DATETIME = 0x08,    /* double, days since 1899-12-30 */
    JET_T_BINARY = 0x09,      /* up to 255 bytes */
    JET_T_TEXT = 0x0A,        /* up to 255 characters */
    JET_T_OLE = 0x0B,         /* long binary (LVAL) */
    JET_T_MEMO = 0x0C,        /* long text (LVAL) */
    JET_T_UNKNOWN_0D = 0x0D,
    JET_T_UNKNOWN_0E = 0x0E,
    JET_T_GUID = 0x0F,        /* Replication ID, 16 bytes */
    JET_T_NUMERIC = 0x10,     /* Decimal: 17 bytes, sign + 96-bit */
    JET_T_UNKNOWN_11 = 0x11,
    JET_T_COMPLEX = 0x12,     /* attachment / multi-value: int32 id */
    JET_T_BIGINT = 0x13,      /* Large Number, int64 (ACE 16+) */
    JET_T_EXT_DATETIME = 0x14 /* Date/Time Extended, 42-byte text (ACE 17) */
} jet_type;

/** Column flags (decoded from the TDEF column descriptor flag bytes). */
enum {
    JET_COL_FIXED = 0x01,          /* stored in the fixed area */
    JET_COL_NULLABLE = 0x02,       /* may be NULL */
    JET_COL_AUTONUMBER = 0x04,     /* auto-increment LONG */
    JET_COL_COMPRESSED = 0x08,     /* Unicode compression allowed */
    JET_COL_HYPERLINK = 0x10,      /* a Hyperlink memo */
    JET_COL_AUTO_GUID = 0x20,      /* auto-generated GUID */
    JET_COL_CALCULATED = 0x40,     /* ACE calculated column */
    JET_COL_REQUIRED = 0x80        /* "Required" column property is Yes
                                      (MSysObjects LvProp, not the TDEF) */
};

/** One column of a table, as decoded from its TDEF. Strings owned by db. */
typedef struct jet_column {
    const char *name;       /* UTF-8 */
    jet_type type;
    uint16_t col_num;       /* column number (storage order; gaps = deleted) */
    uint16_t var_index;     /* index into the var-offset table (var cols) */
    uint16_t fixed_offset;  /* byte offset in the fixed area (fixed cols) */
    uint16_t length;        /* declared length in bytes (TEXT: 2/char Jet4) */
    uint8_t precision;      /* NUMERIC precision, else 0 */
    uint8_t scale;          /* NUMERIC scale, else 0 */
    uint16_t flags;         /* JET_COL_* */
    jet_type result_type;   /* calculated columns: type of the stored result;
                               otherwise equal to type */
    uint16_t sort_lcid;     /* TEXT/MEMO: sort order (1033 = General, 0 =
                               the format's default), else 0 */
    uint8_t sort_version;   /* TEXT/MEMO on Jet4+: sort order version
                               (0 General - Legacy, 1 General) */
} jet_column;

/** An index's column reference. */
typedef struct jet_index_column {
    uint16_t col;           /* position in jet_tdef columns[] */
    bool ascending;
} jet_index_column;

/** A logical index (primary key, unique, foreign key, plain). */
typedef struct jet_index {
    const char *name;
    uint16_t ncols;
    jet_index_column cols[10];
    bool unique;
    bool primary_key;
    bool foreign_key;
    bool ignore_nulls;
    bool required;          /* disallow NULL */
    uint32_t first_pgno;    /* root page of the physical index B-tree */
} jet_index;

/** A table definition: immutable after load, owned by the db. */
typedef struct jet_tdef {
    const char *name;       /* the catalog name */
    uint32_t pgno;          /* first TDEF page */
    uint32_t row_count;     /* as recorded in the TDEF (may be stale) */
    bool row_count_fits;    /* row_count <= the row slots of the table's
                               owned data pages; false: a damaged count */
    uint16_t ncols;
    const jet_column *cols; /* sorted by col_num: the SELECT * order */
    uint16_t nindexes;
    const jet_index *indexes;
} jet_tdef;

/**
 * Load (once, then cached in db) the table definition of a table object.
 * *out stays valid until jet_db_close(). Errors: JET_EUNSUPPORTED for
 * linked tables and queries, JET_ECORRUPT, JET_EIO, JET_ENOMEM; detail in
 * jet_db_error(db).
 * Format: mdbtools HACKING.md "Table Definition Pages"; Jackcess
 * TableImpl/ColumnImpl/IndexData.
 */
jet_rc jet_tdef_load(const jet_tdef **out, jet_db *db, const jet_object *obj);

/**
 * Load table `table` of another Access file at path (a statement's
 * external database: Access SQL's FROM t IN 'path'): the file is opened
 * read-only, with password (UTF-8, or NULL), once per db and closed with
 * it; the tdef belongs to (and its scans read) that file. Errors:
 * JET_ENOTFOUND when it has no such table, else those of jet_db_open
 * (JET_EIO, JET_EPASSWORD, JET_EFORMAT, ...) and jet_tdef_load; detail in
 * db's error, naming the file.
 */
jet_rc jet_external_tdef_load(const jet_tdef **out, jet_db *db,
                              const char *path, const char *password,
                              const char *table);

/** Column position (in tdef->cols) named name, case-insensitively; -1. */
int jet_tdef_find_column(const jet_tdef *tdef, const char *name);

/* ----------------------------------------------------------------- values */

/** How the bytes of a TEXT/MEMO value are encoded on disk. */
typedef enum jet_text_enc {
    JET_ENC_UCS2 = 0,        /* UTF-16LE (Jet4/ACE) */
    JET_ENC_COMPRESSED = 1,  /* Jet4 compressed Unicode (starts FF FE) */
    JET_ENC_CODEPAGE = 2     /* Jet3: bytes in the db's code page */
} jet_text_enc;

/**
 * One decoded value, caller-owned (stack). Scalars are inline; TEXT, MEMO,
 * BINARY, OLE and EXT_DATETIME are a span (data, len) borrowed from the
 * scan: valid until the next call on that scan.
 */
typedef struct jet_value {
    jet_type type;          /* the column's (result) type */
    bool is_null;
    jet_text_enc enc;       /* TEXT/MEMO only */
    union {
        bool b;             /* BOOL */
        int64_t i;          /* BYTE (0..255), INT, LONG, BIGINT, COMPLEX */
        int64_t money;      /* MONEY, in 1/10000 units */
        float f;            /* FLOAT */
        double d;           /* DOUBLE, DATETIME (days since 1899-12-30) */
        struct {
            uint8_t precision;
            uint8_t scale;
            bool negative;
            uint8_t mag[12];  /* 96-bit magnitude, little-endian */
        } num;              /* NUMERIC */
        uint8_t guid[16];   /* GUID, as stored (Data1..3 little-endian) */
    } u;
    const uint8_t *data;    /* span for text/binary types */
    size_t len;             /* bytes in data */
} jet_value;

/**
 * Convert a TEXT/MEMO value to UTF-8 into buf (cap bytes). Writes at most
 * cap bytes, no terminator; *out_len receives the full UTF-8 length, so a
 * caller whose cap was short can grow its buffer and call again.
 * Invalid UTF-16 (lone surrogates) becomes U+FFFD. Errors: JET_ECORRUPT for
 * malformed compressed text, JET_EUNSUPPORTED for an unknown code page.
 */
jet_rc jet_text_to_utf8(const jet_db *db, const jet_value *v, char *buf,
                        size_t cap, size_t *out_len);

/**
 * Same as jet_text_to_utf8 but to UTF-16LE code units (native uint16_t).
 * cap and *out_units count code units.
 */
jet_rc jet_text_to_utf16(const jet_db *db, const jet_value *v, uint16_t *buf,
                         size_t cap, size_t *out_units);

/** A calendar date and time (proleptic Gregorian, no time zone). */
typedef struct jet_timestamp {
    int16_t year;           /* 100..9999 for values Access accepts */
    uint8_t month, day, hour, minute, second;
    uint32_t fraction_ns;   /* nanoseconds */
} jet_timestamp;

/**
 * Split a Jet DATETIME (days since 1899-12-30; before that date the
 * fraction is the time of day taken as its absolute value) into calendar
 * fields, rounded to the millisecond: day = trunc(v),
 * ms = floor(frac(|v|) * 86400000 + 0.5). Errors: JET_ELIMIT when v is NaN,
 * infinite or outside years 1..9999.
 */
jet_rc jet_datetime_split(double days, jet_timestamp *out);

/**
 * Parse a Date/Time Extended value (ACE 17): 42 ASCII bytes, 19 digits of
 * days since 0001-01-01, ':', 12 digits of seconds and 7 digits of 100 ns
 * units, then ":7" and a NUL. Calendar fields with 100 ns precision.
 * Errors: JET_ECORRUPT.
 */
jet_rc jet_ext_datetime_split(const jet_value *v, jet_timestamp *out);

/**
 * Text forms written by hand (core/numfmt.c), NUL-terminated; each returns
 * the length without the NUL. jet_int_format: decimal, buf >= 21 bytes.
 * jet_timestamp_format: "yyyy-mm-dd hh:mm:ss", then ".fff" when the
 * milliseconds are not 0 (frac_digits 3) or always ".fffffff" (7: Date/Time
 * Extended); buf >= 32 bytes. jet_double_format / jet_float_format: the
 * shortest text that reads back as the same value, as printf "%.*g" lays
 * it out with the smallest round-tripping precision from 15 (FLOAT: 6) up;
 * "NaN", "Infinity", "-Infinity", "-0" for those; buf >= 32 bytes.
 */
size_t jet_int_format(int64_t v, char *buf);
size_t jet_timestamp_format(const jet_timestamp *ts, int frac_digits,
                            char *buf);
size_t jet_double_format(double d, char *buf);
size_t jet_float_format(float f, char *buf);

/**
 * Number text in the "C" locale (decimal point '.'), whatever LC_NUMERIC
 * the host process or thread set (core/numfmt.c). jet_strtod_c and
 * jet_strtof_c: strtod/strtof otherwise (leading white space, sign, hex,
 * inf/nan, *end, errno ERANGE); on Windows the float is the double
 * rounded to float (msvcrt has no _strtof_l). jet_fmt_double_c: printf's
 * "%.{prec}{conv}" of d, conv one of 'e' 'E' 'f' 'g' 'G', prec clamped to
 * 0..100, into buf (cap bytes incl. NUL, truncated like snprintf);
 * returns the untruncated length. Thread-safe; no allocation after the
 * first call.
 */
double jet_strtod_c(const char *s, char **end);
float jet_strtof_c(const char *s, char **end);
int jet_fmt_double_c(char *buf, size_t cap, char conv, int prec, double d);

/**
 * Write a NUMERIC value as plain decimal text ("-123.4500", scale digits
 * after the point, no point when scale is 0) into buf (cap bytes incl. NUL).
 * Returns the length without NUL; exact, never through double. 40 bytes
 * always suffice.
 */
size_t jet_numeric_format(const jet_value *v, char *buf, size_t cap);

/** Write a MONEY value (1/10000 units) as "-12.3400" into buf; 32 bytes
 *  always suffice. Returns the length without NUL. */
size_t jet_money_format(int64_t money, char *buf, size_t cap);

/* ------------------------------------------------------------------ scans */

typedef struct jet_scan jet_scan;

/**
 * Open a full-table scan over tdef's data pages (usage map order: ascending
 * page, then row slot; deleted rows skipped, overflow rows followed).
 * proj: one flag per tdef column (ncols entries); only columns whose flag is
 * true are decoded by jet_scan_value; NULL means all. The scan copies proj.
 * Release with jet_scan_close().
 */
jet_rc jet_scan_open(jet_scan **out, jet_db *db, const jet_tdef *tdef,
                     const bool *proj);

/** Advance to the next live row: JET_OK, JET_DONE at the end, or < 0. */
jet_rc jet_scan_next(jet_scan *scan);

/**
 * Decode column col (position in tdef->cols) of the current row into *out.
 * MEMO/OLE long values are assembled (inline, single page or chain) into the
 * scan's scratch, bounded by the file size. Errors: JET_ECORRUPT,
 * JET_EUNSUPPORTED (unknown type), JET_ENOMEM; detail in jet_scan_error().
 */
jet_rc jet_scan_value(jet_scan *scan, uint16_t col, jet_value *out);
/**
 * Bring the scan's current row up to date after writes of its db since
 * it was read (the same connection's DML, a rollback): the row is read
 * again from its page as it is now, so jet_scan_row's view and
 * jet_scan_value see the row's current bytes. *reloaded (may be NULL) =
 * whether anything was read again; cheap when nothing changed.
 * jet_scan_value does this itself. Errors: JET_ENOTFOUND (the row was
 * deleted meanwhile, or there is no current row), JET_ECORRUPT, JET_EIO.
 */
jet_rc jet_scan_refresh(jet_scan *scan, bool *reloaded);

/** A parsed row: null mask and var-offset table located, no copies.
 *  Format: mdbtools HACKING.md "Data Pages" (column count first, null
 *  mask last, var offsets before it). */
typedef struct jet_row {
    const uint8_t *data;    /* the row bytes */
    size_t len;
    uint16_t ncols;         /* columns stored in this row */
    const uint8_t *null_mask;
    size_t null_mask_len;
    uint16_t nvar;          /* var offsets stored in this row */
    uint16_t *var_off;      /* nvar + 1 entries (last = eod); caller's */
} jet_row;

/** jet_cell_loc.kind */
enum {
    JET_CELL_NONE = 0,      /* read the column with jet_scan_value */
    JET_CELL_FIXED,         /* width bytes at off, little-endian */
    JET_CELL_TEXT           /* Jet4 TEXT in the variable area (UCS-2 or
                               compressed: jet_text_to_utf8 reads it) */
};

/** Where one column's bytes sit in every row of its table, from the TDEF
 *  (jet_scan_cell_loc), so a reader of many rows takes them straight from
 *  the row (jet_row_cell) instead of through a jet_value. */
typedef struct jet_cell_loc {
    uint8_t kind;           /* JET_CELL_* */
    uint8_t width;          /* FIXED: 1, 2, 4 or 8 */
    uint16_t off;           /* FIXED: byte offset in the row */
    uint16_t col_num;       /* the column's null-mask bit */
    uint16_t var_index;     /* TEXT: its var-offset slot */
    uint16_t var_min;       /* TEXT: lowest valid var offset (past the
                               column count) */
} jet_cell_loc;

/**
 * Column col's jet_cell_loc in the scan's table: kind JET_CELL_NONE for
 * anything but a stored (not calculated) 1/2/4/8-byte fixed scalar
 * (BYTE, INT, LONG, DOUBLE, DATETIME, MONEY, BIGINT) or Jet4 in-row TEXT.
 */
void jet_scan_cell_loc(const jet_scan *scan, uint16_t col, jet_cell_loc *loc);

/**
 * The scan's current row. The pointer is the same for the scan's life;
 * what it points to is valid while the scan stays on a row it reached with
 * JET_OK (jet_scan_next, jet_scan_fetch_row) and changes when it moves.
 */
const jet_row *jet_scan_row(const jet_scan *scan);

/**
 * Column loc's bytes in row r: 1 with *p (FIXED: loc->width bytes; TEXT:
 * *n bytes, encoded as jet_value_decode's TEXT: compressed when they start
 * FF FE) for a value, 0 for NULL (including a column added after the row
 * was written), -1 when jet_scan_value must decide (not a JET_CELL kind,
 * or a span that leaves the row: it names the damage). No side effects.
 */
static inline int jet_row_cell(const jet_row *r, const jet_cell_loc *loc,
                               const uint8_t **p, size_t *n)
{
    uint16_t c = loc->col_num;
    if (loc->kind == JET_CELL_NONE)
        return -1;
    if (c >= r->ncols || !((r->null_mask[c >> 3] >> (c & 7)) & 1))
        return 0;
    if (loc->kind == JET_CELL_FIXED) {
        size_t fixed = r->len - r->null_mask_len;
        if (loc->off > fixed || loc->width > fixed - loc->off)
            return -1;
        *p = r->data + loc->off;
        *n = loc->width;
        return 1;
    }
    if (loc->var_index >= r->nvar)
        return 0;               /* column added after this row */
    uint16_t st = r->var_off[loc->var_index];
    uint16_t en = r->var_off[loc->var_index + 1];
    if (st < loc->var_min || st > en || en > r->len)
        return -1;
    *p = r->data + st;
    *n = (size_t)(en - st);
    return 1;
}

/** jet_cell_test.kind */
enum {
    JET_TEST_INT = 1,       /* the cell's integer (jet_cell_int) in
                               [lo, hi], or outside it when negated */
    JET_TEST_DOUBLE,        /* the cell's double (jet_cell_double) in
                               [dlo, dhi]; a NaN is left undecided */
    JET_TEST_DOUBLE_NONNEG, /* as JET_TEST_DOUBLE, and a value below 0
                               is left undecided too (a Date/Time, whose
                               order before day 0 is not the double's) */
    JET_TEST_TEXT           /* a JET_CELL_TEXT cell: the verdict known
                               (jet_text_known) for its bytes, or with
                               head k > 0 for its first k characters
                               (jet_text_head); bytes not known leave the
                               row undecided */
};

/* jet_cell_test.head: the most characters a JET_TEST_TEXT looks at */
#define JET_TEXT_HEAD_MAX 31u

/**
 * The first k (1..JET_TEXT_HEAD_MAX) characters of a Jet 4 TEXT cell p, n
 * (jet_row_cell's TEXT: compressed when it starts FF FE, else UCS-2) as
 * UTF-16 units into head, when the cell has k and they are plain:
 * compressed bytes 01..7F (each one character; 00 would switch the mode)
 * or UCS-2 units that are neither 0 nor surrogates. false otherwise (the
 * caller reads the whole text). What a pattern with a fixed prefix of k
 * characters matches on them, it matches on the whole text.
 */
static inline bool jet_text_head(const uint8_t *p, size_t n, size_t k,
                                 uint16_t *head)
{
    if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
        if (n - 2 < k)
            return false;
        for (size_t i = 0; i < k; i++) {
            uint8_t b = p[2 + i];
            if (b == 0 || b > 0x7F)
                return false;
            head[i] = b;
        }
        return true;
    }
    if (n / 2 < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        uint16_t u = jet_get_u16(p + 2 * i);
        if (u == 0 || (u >= 0xD800 && u <= 0xDFFF))
            return false;
        head[i] = u;
    }
    return true;
}

/* jet_text_known: slots, probes, bytes of a cell it holds */
#define JET_TK_BITS 6u
#define JET_TK_SLOTS (1u << JET_TK_BITS)
#define JET_TK_PROBE 4u
#define JET_TK_BYTES 62u

/**
 * A caller's verdicts on Jet 4 TEXT cells it has judged, by the cell's
 * bytes (jet_row_cell's TEXT: compressed or UCS-2, as stored), for a
 * JET_TEST_TEXT: a cell whose bytes are here takes their verdict on the
 * page, without the row being parsed. The caller owns it, fills it
 * (jet_text_known_put) as it judges rows the scan left undecided, and
 * empties it (jet_text_known_clear) whenever the verdict of the same
 * bytes may change (another operand). Open addressing: the bytes' slot
 * or one of the JET_TK_PROBE after it; a full window evicts its first.
 */
typedef struct jet_text_known {
    struct {
        uint8_t len;                /* bytes; 0xFF: empty slot */
        uint8_t pass;               /* the verdict: 1 passes, 0 fails */
        uint8_t b[JET_TK_BYTES];
    } e[JET_TK_SLOTS];
    /* one-character keys (jet_text_known_find_char) below 128: the
     * verdict + 1, 0 not known */
    uint8_t ascii[128];
} jet_text_known;

/** Forget every verdict of k. */
static inline void jet_text_known_clear(jet_text_known *k)
{
    for (size_t i = 0; i < JET_TK_SLOTS; i++)
        k->e[i].len = 0xFF;
    memset(k->ascii, 0, sizeof k->ascii);
}

/** The first slot of bytes p, n (n <= JET_TK_BYTES) in a jet_text_known. */
static inline size_t jet_text_known_slot(const uint8_t *p, size_t n)
{
    uint64_t a, b;
    if (n >= 8) {
        a = jet_get_u64(p);
        b = jet_get_u64(p + n - 8);
    } else if (n >= 4) {
        a = jet_get_u32(p);
        b = jet_get_u32(p + n - 4);
    } else {
        a = n ? (uint64_t)p[0] | (uint64_t)p[n / 2] << 8 |
                (uint64_t)p[n - 1] << 16
              : 0;
        b = 0;
    }
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;
    return (size_t)((h * 0xFF51AFD7ED558CCDull) >> (64 - JET_TK_BITS));
}

/* Whether n bytes at a and b are the same (n <= JET_TK_BYTES; short
 * runs compared as overlapping words, not through memcmp). */
static inline bool jet_text_known_same(const uint8_t *a, const uint8_t *b,
                                       size_t n)
{
    if (n >= 8 && n <= 16)
        return jet_get_u64(a) == jet_get_u64(b) &&
               jet_get_u64(a + n - 8) == jet_get_u64(b + n - 8);
    if (n >= 4 && n < 8)
        return jet_get_u32(a) == jet_get_u32(b) &&
               jet_get_u32(a + n - 4) == jet_get_u32(b + n - 4);
    if (n < 4) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
    return !memcmp(a, b, n);
}

/** The verdict k holds for cell bytes p, n: 1 passes, 0 fails, -1 not
 *  known (also for n > JET_TK_BYTES). */
static inline int jet_text_known_find(const jet_text_known *k,
                                      const uint8_t *p, size_t n)
{
    if (n > JET_TK_BYTES)
        return -1;
    size_t s0 = jet_text_known_slot(p, n);
    for (size_t i = 0; i < JET_TK_PROBE; i++) {
        size_t j = (s0 + i) & (JET_TK_SLOTS - 1);
        if (k->e[j].len == n && jet_text_known_same(k->e[j].b, p, n))
            return k->e[j].pass;
        if (k->e[j].len == 0xFF)
            return -1;
    }
    return -1;
}

/** Remember verdict pass for cell bytes p, n in k (nothing when n >
 *  JET_TK_BYTES): true when the bytes were not known before. */
static inline bool jet_text_known_put(jet_text_known *k, const uint8_t *p,
                                      size_t n, bool pass)
{
    if (n > JET_TK_BYTES)
        return false;
    size_t s0 = jet_text_known_slot(p, n), at = s0;
    for (size_t i = 0; i < JET_TK_PROBE; i++) {
        size_t j = (s0 + i) & (JET_TK_SLOTS - 1);
        if (k->e[j].len == n && jet_text_known_same(k->e[j].b, p, n)) {
            k->e[j].pass = pass;
            return false;
        }
        if (k->e[j].len == 0xFF) {
            at = j;
            break;
        }
    }
    k->e[at].len = (uint8_t)n;
    k->e[at].pass = pass;
    memcpy(k->e[at].b, p, n);
    return true;
}

/** jet_text_known_find for the one-character key u (a first character,
 *  jet_text_head with k = 1): a table lookup below 128. */
static inline int jet_text_known_find_char(const jet_text_known *k,
                                           uint16_t u)
{
    if (u < 128)
        return (int)k->ascii[u] - 1;
    return jet_text_known_find(k, (const uint8_t *)&u, sizeof u);
}

/** jet_text_known_put for the one-character key u. */
static inline bool jet_text_known_put_char(jet_text_known *k, uint16_t u,
                                           bool pass)
{
    if (u < 128) {
        bool was = k->ascii[u] == 0;
        k->ascii[u] = (uint8_t)(pass ? 2 : 1);
        return was;
    }
    return jet_text_known_put(k, (const uint8_t *)&u, sizeof u, pass);
}

/**
 * One test of jet_scan_next_where on a cell of every row (loc from
 * jet_scan_cell_loc): JET_CELL_FIXED for the ranges, JET_CELL_TEXT for
 * JET_TEST_TEXT. A NULL cell fails (including a column added after the
 * row was written); so does a value outside the range (lo > hi, dlo >
 * dhi: an empty one). Ranges are inclusive.
 */
typedef struct jet_cell_test {
    jet_cell_loc loc;
    uint8_t kind;           /* JET_TEST_* */
    bool negated;           /* JET_TEST_INT only */
    int64_t lo, hi;         /* JET_TEST_INT */
    double dlo, dhi;        /* JET_TEST_DOUBLE* */
    const jet_text_known *known;    /* JET_TEST_TEXT (the caller's) */
    uint8_t head;           /* JET_TEST_TEXT: 0 the cell's bytes are the
                               key; k > 1 its first k characters are
                               (jet_text_head, as 2k bytes of UTF-16
                               units in memory order); 1 its first
                               character (jet_text_known_find_char) */
} jet_cell_test;

/**
 * jet_scan_next over the rows that pass tests[0..n-1], taken in order:
 * a row whose first failing test comes before any undecided one is passed
 * over on its bytes, without being parsed or made current. The row
 * returned passed every test (*decided = true), or met a test its bytes
 * cannot decide before any failed (*decided = false: a Jet 3 or overflow
 * row, a cell not in line, a NaN, text whose bytes have no known verdict;
 * the caller judges that row itself, as
 * it would a row of jet_scan_next). Same results and errors as
 * jet_scan_next otherwise; n = 0 is jet_scan_next with *decided = true.
 */
jet_rc jet_scan_next_where(jet_scan *scan, const jet_cell_test *tests,
                           size_t n, bool *decided);

/**
 * Count the rows from the scan's position on that pass tests[0..n-1]
 * (n >= 1), adding them to *count, without making them current: JET_DONE
 * at the end of the table; JET_OK when a row's bytes cannot decide a
 * test before another failed (as jet_scan_next_where's *decided false):
 * that row is current, not counted, for the caller to judge before it
 * calls again; or an error (jet_scan_next's).
 */
jet_rc jet_scan_count_where(jet_scan *scan, const jet_cell_test *tests,
                            size_t n, uint64_t *count);

/** A JET_CELL_FIXED integer's value: width 1 (BYTE, unsigned), 2 (INT),
 *  4 (LONG) or 8 (BIGINT) bytes, little-endian, signed. */
static inline int64_t jet_cell_int(const uint8_t *p, size_t width)
{
    switch (width) {
    case 1: return p[0];
    case 2: return (int16_t)jet_get_u16(p);
    case 4: return (int32_t)jet_get_u32(p);
    default: return (int64_t)jet_get_u64(p);
    }
}

/** A JET_CELL_FIXED DOUBLE or DATETIME: 8 bytes, IEEE 754 little-endian
 *  (DATETIME: days since 1899-12-30, jet_datetime_split). */
static inline double jet_cell_double(const uint8_t *p)
{
    uint64_t v = jet_get_u64(p);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/** Restart the scan at its first row (keeps its buffers). */
void jet_scan_rewind(jet_scan *scan);

/** Detail of the last failed call on scan. */
const jet_error *jet_scan_error(const jet_scan *scan);

/** Return the scan to its state just after jet_scan_open (same table
 * and projection; unpins its page, clears its error and interrupt,
 * revalidates against the file's changes on its next read): a prepared
 * statement's scan reused by its next execute, no allocation. */
void jet_scan_reset(jet_scan *scan);

/** Free the scan. Safe on NULL. */
void jet_scan_close(jet_scan *scan);

/* --------------------------------------------------------------- indexes */

/**
 * An index cursor walks one index B-tree in key order and yields the data
 * row each entry points to, as (pgno, row). Owned by its caller; it borrows
 * the db and tdef. At most one index page stays pinned between calls.
 */
typedef struct jet_index_cursor jet_index_cursor;

/** Lower-bound kinds for jet_index_seek(). */
typedef enum jet_seek_op {
    JET_SEEK_GE = 0,   /* from the first entry whose key prefix >= keys */
    JET_SEEK_GT = 1    /* from the first entry whose key prefix > keys */
} jet_seek_op;

/**
 * Open a cursor on tdef->indexes[index_no], positioned before its first
 * entry, forward, with no bounds. Errors (detail in jet_db_error(db)):
 * JET_ENOTFOUND for a bad index_no, JET_ENOMEM.
 * Format: mdbtools HACKING.md "Index Pages"; Jackcess IndexData.
 */
jet_rc jet_index_cursor_open(jet_index_cursor **out, jet_db *db,
                             const jet_tdef *tdef, uint16_t index_no);

/**
 * How many leading columns of tdef->indexes[index_no] accept seek keys:
 * numeric, date, bool, GUID, binary columns do; the first TEXT/MEMO
 * column (Access "General" collation, not encoded) or long/calculated
 * column stops the count. A walk works on every index regardless.
 */
uint16_t jet_index_seekable_cols(const jet_tdef *tdef, uint16_t index_no);

/**
 * Whether the column right after the jet_index_seekable_cols() leading
 * ones is a TEXT/MEMO column in a sort order we encode (Access General:
 * Jet3 97, Legacy, 2010+), so one more key may follow them: a text key,
 * which seeks every entry whose string equals it or starts with it, as
 * the SQL engine compares text (case-insensitively), plus some others
 * the caller's filter must drop (accent, punctuation variants); no key
 * column may follow it. Use it for col = 'x', col IN (...) and
 * col LIKE 'x*' (seek 'x'), and for ranges whose bounds
 * jet_index_text_range_key() accepts, as prefix bounds: a lower bound
 * JET_SEEK_GE, an upper one inclusive (index order is General sort
 * order, the order the SQL engine compares text in). Format: Jackcess
 * GeneralLegacyIndexCodes (collate.c).
 */
bool jet_index_text_seekable(const jet_db *db, const jet_tdef *tdef,
                             uint16_t index_no);

/**
 * Whether text key k (a TEXT/MEMO value) may bound a range seek (< <= >
 * >= BETWEEN) on the text column of tdef->indexes[index_no] that
 * jet_index_text_seekable() allows: every character of its first 255
 * units (trailing spaces aside) is in the tables of the column's sort
 * order, and at least its first character encodes (is safe: its case
 * variants share inline codes). The bound then seeks as the inline codes
 * of its longest safe prefix, which every key inside the range, in
 * General order, starts with or passes; a character outside the tables
 * (CJK, Hangul, private use, lone surrogates: no published codes) makes
 * the caller scan instead. false for NULL, empty text, other types, or
 * an index without such a column.
 */
bool jet_index_text_range_key(const jet_db *db, const jet_tdef *tdef,
                              uint16_t index_no, const jet_value *k);

/** Text sort orders with tables (core/collate_tables.c, from Jackcess's
 *  index_codes resource files). */
typedef enum jet_collation {
    JET_COLL_NONE = -1,     /* another sort order: no text seeks */
    JET_COLL_GEN97 = 0,     /* Jet3 General (sort order version -1) */
    JET_COLL_GENLEG = 1,    /* Jet4 / ACE 2007 "General - Legacy" (0) */
    JET_COLL_GEN = 2        /* ACE 2010+ "General" (1) */
} jet_collation;

/** The default text sort order of db's format: Jet3 General 97, Jet4 and
 *  ACE 2007 General - Legacy, ACE 2010+ General (Jackcess JetFormat
 *  DEFAULT_SORT_ORDER); what the SQL engine sorts and compares text by. */
jet_collation jet_db_collation(const jet_db *db);

/**
 * jet_text_sort_key() in sort order co (JET_COLL_NONE: General - Legacy).
 * Key layout (core/collate.c): Jet's own text index key of the
 * case-folded text (first 255 units, trailing spaces dropped; its zero
 * bytes written 00 FF), 00 00, then each folded code point plus one (2
 * bytes below 0xF000, else FF and 3 bytes), 00 00. memcmp order: General
 * sort order as an ascending text index on the column orders its keys,
 * then folded code points; equal keys exactly when the strings are equal
 * as the SQL engine compares text (case-insensitively). Characters the
 * tables do not cover (U+3400-U+F8FF in Jet4/ACE orders: CJK, Hangul,
 * private use) sort after all covered characters, by code unit; Jet3
 * ignores them as Jet3 does. The key is prefix-free.
 */
size_t jet_text_sort_key_co(uint8_t *out, size_t cap, jet_collation co,
                            const uint16_t *s, size_t n);

/**
 * Binary sort key of UTF-16 text s (n units) for sorting text in Access's
 * General sort order (layout: jet_text_sort_key_co()). col picks the sort
 * order (NULL, or a column in another order: the db's default). Writes at
 * most cap bytes to out and returns the full key length (call again with
 * a larger buffer when it exceeds cap), at most 2 * JET_COLLATE_KEY_MAX +
 * 4 * n + 4 bytes. Built once per row, the keys sort with memcmp. Format: Jackcess GeneralLegacyIndexCodes (collate.c).
 */
size_t jet_text_sort_key(uint8_t *out, size_t cap, const jet_db *db,
                         const jet_column *col, const uint16_t *s, size_t n);

/**
 * Set the lower bound: the walk starts at (forward) or stops after
 * (reverse) the first entry whose leading nkeys key columns compare >=
 * (JET_SEEK_GE) or > (JET_SEEK_GT) keys, in index order (a descending
 * column's order is reversed; NULL sorts first ascending, last
 * descending). nkeys = 0: no lower bound. keys[i] belongs to index column
 * i and should have the column's type (integer and floating values
 * convert when exact); is_null keys seek the NULL entries. Restarts the
 * walk; the work (a root-to-leaf descent, O(depth) pages) happens on the
 * next jet_index_next(). Errors (detail in jet_index_error()):
 * JET_EUNSUPPORTED when nkeys exceeds jet_index_seekable_cols() or a
 * value's type does not fit, JET_ELIMIT for a value outside the column's
 * range (e.g. 40000 for an INT column: the planner decides what that
 * means) or nkeys past the index's columns. After an error the walk is
 * empty (next() returns JET_DONE) until that bound is set successfully.
 * DATETIME keys compare chronologically to the millisecond (as the SQL
 * engine compares dates), not as stored doubles: before 1899-12-30 Jet
 * stores day - time, and a time on day 0 may be stored as +t or -t; the
 * walk covers the stored doubles that can match and yields only entries
 * that meet the bounds chronologically, so an equality seek returns
 * every row of that millisecond in either index direction.
 */
jet_rc jet_index_seek(jet_index_cursor *c, const jet_value *keys,
                      uint16_t nkeys, int op);

/**
 * Set the upper bound: no entry whose leading nkeys columns compare
 * > keys (inclusive) or >= keys (exclusive). nkeys = 0 removes it.
 * Equality on a key prefix = seek GE + upper inclusive on the same keys.
 * Restarts the walk. Errors as jet_index_seek().
 */
jet_rc jet_index_set_upper(jet_index_cursor *c, const jet_value *keys,
                           uint16_t nkeys, bool inclusive);

/**
 * Walk backwards (reverse = true: from the upper bound, or the last
 * entry, down to the lower bound) or forwards (the default). For
 * ORDER BY ... DESC on an ascending index and vice versa. Restarts the
 * walk. Errors: JET_ENOMEM.
 */
jet_rc jet_index_set_reverse(jet_index_cursor *c, bool reverse);

/**
 * Next entry in walk order: *pgno and *row locate its data row (for
 * jet_scan_fetch_row()). JET_OK, JET_DONE at the end or past a bound, or
 * < 0: JET_ECORRUPT (page named; also an entry whose pointers or key
 * shape are impossible, entries out of order, a leaf that does not link
 * back), JET_EIO, JET_ELIMIT (cache exhausted), JET_EINTERRUPTED; after
 * an error the walk is over and every later call returns the same error
 * (never JET_DONE) until the next seek/set call.
 */
jet_rc jet_index_next(jet_index_cursor *c, uint32_t *pgno, uint16_t *row);

/** Callback of jet_index_leaf_int_entries(): one entry's key and row;
 *  non-zero stops the walk. */
typedef int (*jet_index_int_fn)(void *ctx, int64_t key, uint32_t pgno,
                                uint16_t row);

/**
 * For an index on one integer column (BYTE, INT, LONG, BIGINT): call fn
 * for every entry with a non-NULL key on the leaf page that holds the
 * entry jet_index_next() last returned, in page order, with its key value
 * and row (as jet_index_next() gives them). Reads no page (the leaf is
 * the cursor's pinned one) and leaves the walk where it was. An index
 * nested-loop join learns where the leaf's other keys are for the cost of
 * one descent. Errors: JET_EUNSUPPORTED for other indexes, JET_ENOTFOUND
 * when there is no current entry, JET_ECORRUPT for a bad entry (page
 * named). Key format: that of jet_index_encode_value (flag byte, then
 * big-endian with the sign bit flipped, all inverted when descending;
 * Jackcess IndexCodes / mdbtools HACKING.md).
 */
jet_rc jet_index_leaf_int_entries(jet_index_cursor *c, jet_index_int_fn fn,
                                  void *ctx);

/** Detail of the last failed call on c. */
const jet_error *jet_index_error(const jet_index_cursor *c);

/** Return c to its state just after jet_index_cursor_open (same index;
 * unpins its leaf, drops bounds, direction, error and interrupt): a
 * prepared statement's index cursor reused by its next execute, no
 * allocation. */
void jet_index_cursor_reset(jet_index_cursor *c);

/** Free the cursor (unpins its page). Safe on NULL. */
void jet_index_cursor_close(jet_index_cursor *c);

/**
 * Make row `row` of data page pgno (as an index entry gives it) the
 * scan's current row, so jet_scan_value() reads it; overflow rows are
 * followed. A later jet_scan_next() continues after that row on the same
 * page and then with the scan's page list where it was; call
 * jet_scan_rewind() to restart a full scan. Errors: JET_ECORRUPT (not a
 * data page of this table, bad bounds), JET_ENOTFOUND for a deleted row.
 */
jet_rc jet_scan_fetch_row(jet_scan *scan, uint32_t pgno, uint16_t row);

/**
 * Location of the scan's current row: data page and row slot (the slot
 * holding the row or its overflow pointer, as index entries name it).
 * JET_ENOTFOUND when there is no current row.
 */
jet_rc jet_scan_position(const jet_scan *scan, uint32_t *pgno,
                         uint16_t *row);

/* ------------------------------------------------------------------ names */

/**
 * Case-fold one Unicode code point the way names are compared (Access
 * compares table and column names case-insensitively in every script):
 * lower(upper(cp)) by the Unicode simple case mappings of the C.UTF-8
 * locale, independent of the process locale; a built-in Latin/Greek/
 * Cyrillic table when C.UTF-8 is missing. Thread-safe; no allocation
 * after the first call. For pattern matchers (SQLTables' % and _).
 */
uint32_t jet_name_fold(uint32_t cp);

/** jet_text_fold() of a code point >= 0x80: towlower of the C.UTF-8
 *  locale (the identity when no UTF-8 locale exists). Thread-safe. */
uint32_t jet_text_fold_slow(uint32_t cp);

/**
 * Case-fold one code point the way the SQL engine compares text (=, <,
 * LIKE, GROUP BY) and the General sort keys fold it: ASCII A-Z by hand,
 * else towlower of the C.UTF-8 locale, independent of the process locale
 * (the identity without one). Unlike jet_name_fold() it is one lower-case
 * mapping, not lower(upper(cp)). Thread-safe; no allocation.
 */
static inline uint32_t jet_text_fold(uint32_t cp)
{
    if (cp < 0x80)
        return cp - 'A' < 26u ? cp + 0x20 : cp;
    return jet_text_fold_slow(cp);
}

/** Upper-case one code point as the SQL engine does (UCase, LIKE
 *  classes): ASCII by hand, else towupper of the C.UTF-8 locale (the
 *  identity without one). Thread-safe. */
uint32_t jet_text_upper(uint32_t cp);

/**
 * Are UTF-8 names a and b equal case-insensitively (jet_name_fold() per
 * code point)? "UMSÄTZE" equals "Umsätze". A malformed byte compares only
 * with the same byte. false when either is NULL.
 */
bool jet_name_equal_ci(const char *a, const char *b);

/**
 * Order UTF-8 names a and b case-insensitively: <0, 0 or >0 by their
 * jet_name_fold()ed code points (a prefix sorts first). Neither may be
 * NULL. For sorted catalog results; equality agrees with
 * jet_name_equal_ci().
 */
int jet_name_compare_ci(const char *a, const char *b);

/* ----------------------------------------- read statistics, interrupts */

/** What the db has read from its file since open (counters only grow). */
typedef struct jet_read_stats {
    uint64_t pages;     /* pages read into the cache (= jet_db_pages_read) */
    uint64_t requests;  /* read requests issued to the OS (pread/preadv) */
    uint64_t bytes;     /* bytes those requests returned */
} jet_read_stats;

/**
 * Copy db's read counters into *out. A full scan reads its pages in runs
 * of consecutive pages (up to 256 KB per request), so bytes / requests
 * shows the read-ahead at work; index seeks read single pages.
 */
void jet_db_read_stats(const jet_db *db, jet_read_stats *out);

/**
 * Install (fn non-NULL) or remove (fn NULL) an interrupt check on scan:
 * jet_scan_next() and jet_scan_fetch_row() call fn before each data page
 * they move to and fail with JET_EINTERRUPTED when it returns non-zero.
 * The scan stays usable (rewind, fetch_row) afterwards.
 */
void jet_scan_set_interrupt(jet_scan *scan, jet_interrupt_fn fn, void *ctx);

/**
 * The same for an index cursor: jet_index_next() calls fn before each
 * index page it reads (descent and leaf chain) and fails with
 * JET_EINTERRUPTED when it returns non-zero; the walk is then over until
 * the next seek/set call.
 */
void jet_index_set_interrupt(jet_index_cursor *c, jet_interrupt_fn fn,
                             void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* JET_H */
