/*
 * config.c - the driver's odbcinst setup module (libjetodbcS.so, the
 * Setup= of its odbcinst.ini entry): ConfigDSN and ConfigDriver, which
 * unixODBC's SQLConfigDataSource and SQLConfigDriver call (and ODBC
 * administrators such as ODBCConfig). No dialogs: every key comes in the
 * attribute string, e.g. "DSN=nw\0DBQ=/data/nwind.mdb\0\0".
 *
 * Requests: ODBC_ADD_DSN / ODBC_ADD_SYS_DSN write the DSN (DSN and DBQ
 * required; other keys copied as given), ODBC_CONFIG_DSN /
 * ODBC_CONFIG_SYS_DSN rewrite the given keys of an existing one,
 * ODBC_REMOVE_DSN / ODBC_REMOVE_SYS_DSN remove it. Errors are posted with
 * SQLPostInstallerError and FALSE is returned.
 *
 * Microsoft's maintenance keywords come with an add or configure request,
 * as with its Access driver: CREATE_DB=path [ACE12|...|JET4] [General]
 * [ENCRYPT] makes a new empty database, COMPACT_DB=src dst [General]
 * compacts src into the new file dst (core/dbspec.c), each with PWD= as
 * the password. Without DSN= that is all; with it the DSN is written too,
 * its DBQ the new file unless one is given.
 */
#include "config.h"

#include <odbcinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dsn.h"
#include "jet.h"

#define JET_EXPORT __attribute__((visibility("default")))

#define MAX_KEYS 64

/* Split "k=v\0k=v\0\0" into kv (copies in store); returns the count or -1
 * when there are too many keys or one has no '='. */
static int parse_attrs(const char *attrs, jet_setup_kv *kv, char *store,
                       size_t cap)
{
    int n = 0;
    size_t used = 0;
    for (const char *a = attrs; a && *a; a += strlen(a) + 1) {
        size_t l = strlen(a);
        const char *eq = strchr(a, '=');
        if (!eq || n >= MAX_KEYS || used + l + 1 > cap)
            return -1;
        char *c = store + used;
        memcpy(c, a, l + 1);
        used += l + 1;
        c[eq - a] = '\0';
        kv[n].key = c;
        kv[n].value = c + (eq - a) + 1;
        n++;
    }
    return n;
}

static const char *find_key(const jet_setup_kv *kv, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(kv[i].key, key))
            return kv[i].value;
    return NULL;
}

/* CREATE_DB= / COMPACT_DB= among kv carried out (with PWD=), the new
 * file's path in made; false with the error posted. */
static bool db_keywords(const jet_setup_kv *kv, int n, char *made,
                        size_t cap)
{
    static const char *const words[] = { "CREATE_DB", "COMPACT_DB" };
    const char *pwd = find_key(kv, n, "PWD");
    for (size_t i = 0; i < 2; i++) {
        const char *val = find_key(kv, n, words[i]);
        jet_error err;
        if (!val)
            continue;
        memset(&err, 0, sizeof err);
        jet_rc rc = i == 0 ? jet_db_create_spec(val, pwd, made, cap, &err)
                           : jet_db_compact_spec(val, pwd, made, cap, &err);
        if (rc != JET_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s: %s", words[i], err.msg);
            SQLPostInstallerError(rc == JET_EARGUMENT
                                  ? ODBC_ERROR_INVALID_KEYWORD_VALUE
                                  : ODBC_ERROR_REQUEST_FAILED, msg);
            return false;
        }
    }
    return true;
}

/** ConfigDSN: add, change or remove a DSN of this driver (see above). */
JET_EXPORT BOOL INSTAPI ConfigDSN(HWND hwnd, WORD request, LPCSTR driver,
                              LPCSTR attrs)
{
    jet_setup_kv kv[MAX_KEYS];
    static char store[16384];   /* the installer is not re-entrant either */
    char err[1024];
    (void)hwnd;
    int n = parse_attrs(attrs, kv, store, sizeof store);
    if (n < 0) {
        SQLPostInstallerError(ODBC_ERROR_INVALID_KEYWORD_VALUE,
                              "attributes must be KEY=VALUE pairs");
        return 0;
    }
    const char *dsn = find_key(kv, n, "DSN");
    char made[4096];
    made[0] = '\0';
    bool adding = request == ODBC_ADD_DSN || request == ODBC_ADD_SYS_DSN ||
                  request == ODBC_CONFIG_DSN ||
                  request == ODBC_CONFIG_SYS_DSN;
    if (adding && !db_keywords(kv, n, made, sizeof made))
        return 0;
    if (made[0] && !dsn)
        return 1;                   /* CREATE_DB / COMPACT_DB alone */
    if (!dsn || !jet_setup_valid_dsn(dsn)) {
        SQLPostInstallerError(ODBC_ERROR_INVALID_DSN,
                              "a valid DSN=name attribute is required");
        return 0;
    }
    bool system = request == ODBC_ADD_SYS_DSN ||
                  request == ODBC_CONFIG_SYS_DSN ||
                  request == ODBC_REMOVE_SYS_DSN;
    /* the other keys, without DSN itself and the maintenance keywords */
    jet_setup_kv keys[MAX_KEYS + 1];
    int nk = 0;
    for (int i = 0; i < n; i++)
        if (strcasecmp(kv[i].key, "DSN") &&
            strcasecmp(kv[i].key, "CREATE_DB") &&
            strcasecmp(kv[i].key, "COMPACT_DB"))
            keys[nk++] = kv[i];
    if (made[0] && !find_key(keys, nk, "DBQ") &&
        !find_key(keys, nk, "Database")) {
        keys[nk].key = "DBQ";
        keys[nk++].value = made;
    }
    switch (request) {
    case ODBC_ADD_DSN: case ODBC_ADD_SYS_DSN:
        if (!find_key(keys, nk, "DBQ") && !find_key(keys, nk, "Database")) {
            SQLPostInstallerError(ODBC_ERROR_INVALID_KEYWORD_VALUE,
                                  "DBQ=path of the Access file is required");
            return 0;
        }
        if (jet_setup_write_dsn(system, dsn, driver && *driver ? driver
                                : JET_SETUP_DRIVER, keys, (size_t)nk, err,
                                sizeof err) != 0) {
            SQLPostInstallerError(ODBC_ERROR_CREATE_DSN_FAILED, err);
            return 0;
        }
        return 1;
    case ODBC_CONFIG_DSN: case ODBC_CONFIG_SYS_DSN:
        if (!jet_setup_dsn_exists(system, dsn)) {
            SQLPostInstallerError(ODBC_ERROR_INVALID_DSN, "no such DSN");
            return 0;
        }
        SQLSetConfigMode(system ? ODBC_SYSTEM_DSN : ODBC_USER_DSN);
        for (int i = 0; i < nk; i++) {
            if (!SQLWritePrivateProfileString(dsn, keys[i].key,
                                              keys[i].value, "odbc.ini")) {
                SQLSetConfigMode(ODBC_BOTH_DSN);
                return 0;   /* the installer posted its error */
            }
        }
        SQLSetConfigMode(ODBC_BOTH_DSN);
        return 1;
    case ODBC_REMOVE_DSN: case ODBC_REMOVE_SYS_DSN:
        if (jet_setup_remove_dsn(system, dsn, err, sizeof err) != 0) {
            SQLPostInstallerError(ODBC_ERROR_REMOVE_DSN_FAILED, err);
            return 0;
        }
        return 1;
    default:
        SQLPostInstallerError(ODBC_ERROR_INVALID_REQUEST_TYPE,
                              "unknown ConfigDSN request");
        return 0;
    }
}

/** ConfigDriver: install and remove need nothing beyond odbcinst.ini's
 *  entry, which the installer writes; the message says so. */
JET_EXPORT BOOL INSTAPI ConfigDriver(HWND hwnd, WORD request, LPCSTR driver,
                                 LPCSTR args, LPSTR msg, WORD msg_max,
                                 WORD *msg_out)
{
    const char *text;
    (void)hwnd;
    (void)args;
    switch (request) {
    case ODBC_INSTALL_DRIVER:
        text = "jetodbc: driver installed; add DSNs with jetodbc-setup add";
        break;
    case ODBC_REMOVE_DRIVER:
        text = "jetodbc: driver removed";
        break;
    default:
        SQLPostInstallerError(ODBC_ERROR_INVALID_REQUEST_TYPE,
                              "unknown ConfigDriver request");
        return 0;
    }
    (void)driver;
    size_t len = strlen(text);
    if (msg_out)
        *msg_out = (WORD)len;
    if (msg && msg_max > 0) {
        snprintf(msg, msg_max, "%s", text);
        if (len >= msg_max) {
            SQLPostInstallerError(ODBC_ERROR_OUTPUT_STRING_TRUNCATED,
                                  "message truncated");
            return 0;
        }
    }
    return 1;
}
