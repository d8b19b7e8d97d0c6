/*
 * jetodbc-install.c - register jetodbc.dll with Windows' ODBC (one bitness).
 *
 * A console program shipped next to jetodbc.dll in each bitness folder of
 * the zip (x64\, x86\). It registers the DLL beside it for its own
 * bitness: the 64-bit program writes the 64-bit ODBC registry, the 32-bit
 * one the 32-bit (WOW6432Node) registry, so both can be installed side by
 * side. Registration and removal go through odbccp32's installer API
 * (SQLInstallDriverEx + SQLConfigDriver, SQLConfigDriver + SQLRemoveDriver);
 * DSNs through SQLConfigDataSource, i.e. the driver's own ConfigDSN.
 *
 *   jetodbc-install [install]             register the driver "JetODBC"
 *   jetodbc-install uninstall             remove it
 *   jetodbc-install add-dsn [--system] DSN FILE [PASSWORD [DESCRIPTION]]
 *   jetodbc-install remove-dsn [--system] DSN
 *   jetodbc-install config KEY=VALUE...   SQLConfigDataSource(ODBC_ADD_DSN)
 *                                         with these attributes, e.g.
 *       jetodbc-install config "CREATE_DB=C:\data\new.accdb ACE16"
 * Registering needs administrator rights (HKLM); user DSNs do not.
 * Exit status: 0 done, 1 the installer API failed (its message printed),
 * 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <odbcinst.h>

#define DRIVER_NAME "JetODBC"

/* Print the installer API's errors after a failed call. */
static int fail(const char *what)
{
    char msg[SQL_MAX_MESSAGE_LENGTH];
    DWORD code;
    WORD len;
    int any = 0;
    for (WORD i = 1; i <= 8; i++) {
        if (SQLInstallerError(i, &code, msg, sizeof msg, &len) != SQL_SUCCESS)
            break;
        fprintf(stderr, "jetodbc-install: %s: %s (installer error %lu)\n",
                what, msg, (unsigned long)code);
        any = 1;
    }
    if (!any)
        fprintf(stderr, "jetodbc-install: %s failed\n", what);
    return 1;
}

/* The folder of this program (where jetodbc.dll is), no trailing '\'. */
static int own_dir(char *out, size_t cap)
{
    DWORD n = GetModuleFileNameA(NULL, out, (DWORD)cap);
    char *slash;
    if (n == 0 || n >= cap)
        return -1;
    slash = strrchr(out, '\\');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

static int install(void)
{
    /* the driver's keys; SQLInstallDriverEx prefixes Driver/Setup with
     * the path given, and ConfigDSN lives in the driver DLL itself */
    static const char desc[] =
        DRIVER_NAME "\0"
        "Driver=jetodbc.dll\0"
        "Setup=jetodbc.dll\0"
        "APILevel=1\0"
        "ConnectFunctions=YYN\0"
        "DriverODBCVer=03.51\0"
        "FileUsage=2\0"
        "FileExtns=*.mdb,*.accdb\0"
        "SQLLevel=1\0"
        "UsageCount=1\0";
    char dir[MAX_PATH], out[MAX_PATH], msg[256], dll[MAX_PATH + 16];
    WORD out_len = 0, msg_len = 0;
    DWORD usage = 0;

    if (own_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "jetodbc-install: cannot find my own folder\n");
        return 1;
    }
    snprintf(dll, sizeof dll, "%s\\jetodbc.dll", dir);
    if (GetFileAttributesA(dll) == INVALID_FILE_ATTRIBUTES) {
        fprintf(stderr, "jetodbc-install: %s is missing\n", dll);
        return 1;
    }
    if (!SQLInstallDriverEx(desc, dir, out, sizeof out, &out_len,
                            ODBC_INSTALL_COMPLETE, &usage))
        return fail("SQLInstallDriverEx");
    if (!SQLConfigDriver(NULL, ODBC_INSTALL_DRIVER, DRIVER_NAME, NULL, msg,
                         sizeof msg, &msg_len))
        return fail("SQLConfigDriver");
    printf("jetodbc-install: registered driver \"%s\" (%d-bit): %s\n",
           DRIVER_NAME, (int)(sizeof(void *) * 8), dll);
    return 0;
}

static int uninstall(void)
{
    char msg[256];
    WORD msg_len = 0;
    DWORD usage = 1;
    int rounds = 0;

    (void)SQLConfigDriver(NULL, ODBC_REMOVE_DRIVER, DRIVER_NAME, NULL, msg,
                          sizeof msg, &msg_len);
    /* each call lowers the usage count; the entry goes at zero */
    while (usage > 0 && rounds++ < 64) {
        if (!SQLRemoveDriver(DRIVER_NAME, FALSE, &usage))
            return fail("SQLRemoveDriver");
    }
    printf("jetodbc-install: removed driver \"%s\" (%d-bit)\n", DRIVER_NAME,
           (int)(sizeof(void *) * 8));
    return 0;
}

/* "KEY=value\0" appended to attrs at *len (cap bytes). */
static int add_attr(char *attrs, size_t cap, size_t *len, const char *key,
                    const char *value)
{
    int n = snprintf(attrs + *len, cap - *len, "%s=%s", key, value);
    if (n < 0 || (size_t)n + 2 > cap - *len)
        return -1;
    *len += (size_t)n + 1;
    attrs[*len] = '\0';
    return 0;
}

static int dsn_request(WORD request, int argc, char **argv)
{
    char attrs[4096];
    size_t len = 0;
    attrs[0] = attrs[1] = '\0';
    if (add_attr(attrs, sizeof attrs, &len, "DSN", argv[0]) != 0 ||
        (argc > 1 && add_attr(attrs, sizeof attrs, &len, "DBQ", argv[1])) ||
        (argc > 2 && argv[2][0] &&
         add_attr(attrs, sizeof attrs, &len, "PWD", argv[2])) ||
        (argc > 3 &&
         add_attr(attrs, sizeof attrs, &len, "Description", argv[3]))) {
        fprintf(stderr, "jetodbc-install: arguments too long\n");
        return 2;
    }
    if (!SQLConfigDataSource(NULL, request, DRIVER_NAME, attrs))
        return fail("SQLConfigDataSource");
    printf("jetodbc-install: %s data source \"%s\"\n",
           request == ODBC_REMOVE_DSN || request == ODBC_REMOVE_SYS_DSN
               ? "removed" : "added",
           argv[0]);
    return 0;
}

/* SQLConfigDataSource(NULL, ODBC_ADD_DSN) with the KEY=VALUE arguments
 * as they are (CREATE_DB=, COMPACT_DB=, a DSN with any keys). */
static int config_request(int argc, char **argv)
{
    char attrs[8192];
    size_t len = 0;
    attrs[0] = attrs[1] = '\0';
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i]) {
            fprintf(stderr, "jetodbc-install: '%s' is not KEY=VALUE\n",
                    argv[i]);
            return 2;
        }
        *eq = '\0';
        int r = add_attr(attrs, sizeof attrs, &len, argv[i], eq + 1);
        *eq = '=';
        if (r != 0) {
            fprintf(stderr, "jetodbc-install: arguments too long\n");
            return 2;
        }
    }
    if (!SQLConfigDataSource(NULL, ODBC_ADD_DSN, DRIVER_NAME, attrs))
        return fail("SQLConfigDataSource");
    printf("jetodbc-install: done\n");
    return 0;
}

static int usage(void)
{
    fputs("usage: jetodbc-install [install]\n"
          "       jetodbc-install uninstall\n"
          "       jetodbc-install add-dsn [--system] DSN FILE [PASSWORD "
          "[DESCRIPTION]]\n"
          "       jetodbc-install remove-dsn [--system] DSN\n"
          "       jetodbc-install config KEY=VALUE...\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "install";
    int sys = argc > 2 && strcmp(argv[2], "--system") == 0;
    int first = 2 + sys;

    if (strcmp(cmd, "install") == 0 && argc <= 2)
        return install();
    if (strcmp(cmd, "uninstall") == 0 && argc == 2)
        return uninstall();
    if (strcmp(cmd, "add-dsn") == 0 && argc - first >= 2 && argc - first <= 4)
        return dsn_request(sys ? ODBC_ADD_SYS_DSN : ODBC_ADD_DSN,
                           argc - first, argv + first);
    if (strcmp(cmd, "remove-dsn") == 0 && argc - first == 1)
        return dsn_request(sys ? ODBC_REMOVE_SYS_DSN : ODBC_REMOVE_DSN,
                           argc - first, argv + first);
    if (strcmp(cmd, "config") == 0 && argc > 2)
        return config_request(argc - 2, argv + 2);
    return usage();
}
