/*
 * dsn.h - DSN and driver records through unixODBC's installer API
 * (odbcinst: SQLWriteDSNToIni, SQLWritePrivateProfileString,
 * SQLRemoveDSNFromIni, SQLInstallDriverEx), shared by the odbcinst setup
 * module (ConfigDSN/ConfigDriver, config.c) and the jetodbc-setup command.
 *
 * Scope: user DSNs live in ~/.odbc.ini (or $ODBCINI), system DSNs in
 * odbc.ini of the odbcinst system folder ($ODBCSYSINI, else /etc); the
 * driver in odbcinst.ini there. Each call sets the installer's config
 * mode for its scope and restores ODBC_BOTH_DSN after.
 */
#ifndef JET_SETUP_DSN_H
#define JET_SETUP_DSN_H

#include <stdbool.h>
#include <stddef.h>

/** The driver name registered by default. */
#define JET_SETUP_DRIVER "JetODBC"

/** One key of a DSN. */
typedef struct jet_setup_kv {
    const char *key;
    const char *value;
} jet_setup_kv;

/**
 * Write DSN dsn (replacing one of that name in the same scope) naming
 * driver (a registered driver name or a library path), with n keys.
 * Returns 0, or -1 with the installer's message in err (cap bytes).
 */
int jet_setup_write_dsn(bool system, const char *dsn, const char *driver,
                        const jet_setup_kv *kv, size_t n, char *err,
                        size_t cap);

/** Remove DSN dsn of a scope; 0, or -1 with a message in err. */
int jet_setup_remove_dsn(bool system, const char *dsn, char *err, size_t cap);

/** Whether dsn exists in the scope. */
bool jet_setup_dsn_exists(bool system, const char *dsn);

/**
 * The DSN names of a scope, NUL-separated with a final empty string,
 * into buf (cap bytes). Returns the number of names.
 */
size_t jet_setup_dsn_names(bool system, char *buf, size_t cap);

/**
 * The keys of DSN dsn in a scope, "key=value" NUL-separated, ending with
 * an empty string, into buf. Returns the number of keys.
 */
size_t jet_setup_dsn_keys(bool system, const char *dsn, char *buf,
                          size_t cap);

/** Whether name is a valid DSN name (non-empty, no []{}(),;?*=!@\\). */
bool jet_setup_valid_dsn(const char *name);

/** The installer's pending error messages, joined, into err. */
void jet_setup_error(char *err, size_t cap);

#endif
