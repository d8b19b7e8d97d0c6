/*
 * crashdml.h - the database and the row transactions of the crash and
 * concurrency tests through the real write path (issue 25, acceptance 3
 * and 4): tests/unit/test_crash_dml.c (core/write.h) and
 * tests/odbc/test_odbc_crash.c (the driver).
 *
 * The file is generated (core/newfile.c), so the tests need no
 * shared fixture: table "items" (AutoNumber primary key "id", unique LONG
 * "k", unique TEXT "code", indexed "grp" and "amount", "gen", MEMO
 * "note", OLE "blob", TEXT "label"), every value a function of (k, gen),
 * MEMO and OLE values from inline to LVAL chains of three pages; table
 * "log" (AutoNumber "id", indexed "gen", TEXT "what"), one row per
 * committed transaction. A transaction (cd_tx) deletes, updates and
 * inserts dozens of rows: index pages split and merge, LVAL chains are
 * freed and allocated, the TDEFs' row counts and AutoNumbers change,
 * all inside one commit of many pages.
 *
 * The content of a file is a 64-bit hash of every row of every user
 * table through the core reader (cd_content_hash), optionally with the
 * AutoNumber columns left out (a rolled-back transaction does not give
 * its AutoNumbers back, so a retry numbers its rows differently).
 */
#ifndef JET_TESTS_CRASHDML_H
#define JET_TESTS_CRASHDML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/** Rows of "items" in a generated file. */
#define CD_ITEMS 1200u

/** Write the test database to path (ACE 2010 when accdb, else Jet4)
 *  with CD_ITEMS rows of generation 0 and no log rows. Asserts. */
void cd_generate(const char *path, bool accdb);

/**
 * One transaction on db (open read-write): generation g deletes, updates
 * (to generation g) and inserts rows of "items" chosen from g and the
 * current rows, each in its own statement savepoint, adds g's "log" row,
 * and commits. key_base != 0: only inserts, keys from key_base (for two
 * writers at once). Returns the first failing rc (the transaction is then
 * rolled back, or was by the failed commit).
 */
jet_rc cd_tx(jet_db *db, uint32_t g, uint32_t key_base);

/** Hash of every row of every user table of db (read inside one read
 *  transaction); mask_auto: AutoNumber columns left out. *rows (may be
 *  NULL) = rows hashed. Returns 0 and sets *ok false on a read error. */
uint64_t cd_content_hash(jet_db *db, bool mask_auto, uint64_t *rows,
                         bool *ok);

/** cd_content_hash of the file at path (opened read-write, so a hot
 *  journal is rolled back). Asserts the open and the reads. */
uint64_t cd_file_hash(const char *path, bool mask_auto);

/** Problems jet_db_check (`jetodbc-setup check`) finds in db; the first
 *  few are printed to stderr. */
unsigned cd_check(jet_db *db);

/** `jetcheck verify path` (0 problems): 1 passed, 0 failed (its output
 *  goes to stderr), -1 when jetcheck or java is missing. */
int cd_jetcheck(const char *path);

/** The file's bytes (malloc'd; *len set), NULL when unreadable. */
uint8_t *cd_slurp(const char *path, size_t *len);
/** Replace the file at path with len bytes. Asserts. */
void cd_put(const char *path, const uint8_t *b, size_t len);
/** Whether the file at path holds exactly b (len bytes). */
bool cd_same(const char *path, const uint8_t *b, size_t len);

/** The env var name's value as a count, or def when unset or not > 0. */
unsigned cd_env_count(const char *name, unsigned def);
/** True under CI (CI set and not "false"/"0"). */
bool cd_in_ci(void);

/** Seconds since an arbitrary start (monotonic). */
double cd_now(void);

#endif
