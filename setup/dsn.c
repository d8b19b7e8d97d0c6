/*
 * dsn.c - DSN records through unixODBC's installer API (see dsn.h).
 */
#include "config.h"

#include "dsn.h"

#include <odbcinst.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void jet_setup_error(char *err, size_t cap)
{
    if (!err || cap == 0)
        return;
    err[0] = '\0';
    size_t len = 0;
    for (WORD i = 1; i <= 8; i++) {
        DWORD code = 0;
        char msg[512];
        WORD mlen = 0;
        SQLRETURN r = SQLInstallerError(i, &code, msg, sizeof msg, &mlen);
        if (r == SQL_NO_DATA || !SQL_SUCCEEDED(r))
            break;
        int w = snprintf(err + len, cap - len, "%s%s (installer error %lu)",
                         len ? "; " : "", msg, (unsigned long)code);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
    if (len == 0)
        snprintf(err, cap, "the installer failed without a message (is "
                 "the odbc.ini file writable?)");
}

bool jet_setup_valid_dsn(const char *name)
{
    if (!name || !*name || strlen(name) > 32)
        return false;
    return strpbrk(name, "[]{}(),;?*=!@\\") == NULL;
}

static void scope(bool system)
{
    SQLSetConfigMode(system ? ODBC_SYSTEM_DSN : ODBC_USER_DSN);
}

static void unscope(void)
{
    SQLSetConfigMode(ODBC_BOTH_DSN);
}

int jet_setup_write_dsn(bool system, const char *dsn, const char *driver,
                        const jet_setup_kv *kv, size_t n, char *err,
                        size_t cap)
{
    int rc = 0;
    if (!jet_setup_valid_dsn(dsn)) {
        snprintf(err, cap, "'%s' is not a valid DSN name (1 to 32 "
                 "characters, none of []{}(),;?*=!@\\)", dsn ? dsn : "");
        return -1;
    }
    scope(system);
    /* SQLWriteDSNToIni replaces a DSN of that name with a fresh section */
    if (!SQLWriteDSNToIni(dsn, driver)) {
        jet_setup_error(err, cap);
        rc = -1;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (!kv[i].key || !*kv[i].key)
            continue;
        if (!SQLWritePrivateProfileString(dsn, kv[i].key,
                                          kv[i].value ? kv[i].value : "",
                                          "odbc.ini")) {
            jet_setup_error(err, cap);
            rc = -1;
            goto out;
        }
    }
out:
    unscope();
    return rc;
}

int jet_setup_remove_dsn(bool system, const char *dsn, char *err, size_t cap)
{
    int rc = 0;
    if (!jet_setup_dsn_exists(system, dsn)) {
        snprintf(err, cap, "no %s DSN named '%s'", system ? "system" : "user",
                 dsn);
        return -1;
    }
    scope(system);
    if (!SQLRemoveDSNFromIni(dsn)) {
        jet_setup_error(err, cap);
        rc = -1;
    }
    unscope();
    return rc;
}

size_t jet_setup_dsn_names(bool system, char *buf, size_t cap)
{
    if (cap < 2)
        return 0;
    memset(buf, 0, cap);
    scope(system);
    /* section names, NUL-separated (section NULL asks for them) */
    int len = SQLGetPrivateProfileString(NULL, NULL, "", buf, (int)cap - 1,
                                         "odbc.ini");
    unscope();
    size_t count = 0;
    if (len <= 0) {
        buf[0] = buf[1] = '\0';
        return 0;
    }
    /* drop the [ODBC] settings section that odbc.ini may carry */
    char *w = buf;
    for (char *p = buf; *p && p < buf + len; p += strlen(p) + 1) {
        if (!strcasecmp(p, "ODBC"))
            continue;
        size_t l = strlen(p) + 1;
        memmove(w, p, l);
        w += l;
        count++;
    }
    *w = '\0';
    return count;
}

bool jet_setup_dsn_exists(bool system, const char *dsn)
{
    char names[16384];
    size_t n = jet_setup_dsn_names(system, names, sizeof names);
    const char *p = names;
    for (size_t i = 0; i < n; i++, p += strlen(p) + 1)
        if (!strcasecmp(p, dsn))
            return true;
    return false;
}

size_t jet_setup_dsn_keys(bool system, const char *dsn, char *buf,
                          size_t cap)
{
    char keys[8192];
    size_t count = 0, len = 0;
    if (cap < 2)
        return 0;
    memset(keys, 0, sizeof keys);
    scope(system);
    int kl = SQLGetPrivateProfileString(dsn, NULL, "", keys,
                                        (int)sizeof keys - 1, "odbc.ini");
    for (const char *k = keys; kl > 0 && *k && k < keys + kl;
         k += strlen(k) + 1) {
        char val[4096];
        val[0] = '\0';
        SQLGetPrivateProfileString(dsn, k, "", val, (int)sizeof val,
                                   "odbc.ini");
        int w = snprintf(buf + len, cap - len - 1, "%s=%s", k, val);
        if (w < 0 || (size_t)w >= cap - len - 1)
            break;
        len += (size_t)w + 1;
        count++;
    }
    unscope();
    buf[len] = '\0';
    return count;
}
