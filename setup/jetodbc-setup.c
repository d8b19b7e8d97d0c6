/*
 * jetodbc-setup.c - register jetodbc and manage its DSNs with unixODBC's
 * installer API (see jetodbc-setup.1 for the manual).
 *
 *   jetodbc-setup install-driver [--lib PATH] [--setup-lib PATH] [--name N]
 *   jetodbc-setup remove-driver [--name N]
 *   jetodbc-setup list [--user | --system]
 *   jetodbc-setup show [--system] DSN
 *   jetodbc-setup add [--system] [--driver N] DSN FILE [KEY=VALUE...]
 *   jetodbc-setup remove [--system] DSN
 *
 * install-driver uses SQLInstallDriverEx (odbcinst.ini counts installs in
 * UsageCount; remove-driver with SQLRemoveDriver decrements it). add uses
 * SQLWriteDSNToIni and SQLWritePrivateProfileString; when the driver is
 * not registered (a user without write access to the system odbcinst.ini)
 * the DSN names the library by its path, which unixODBC accepts.
 * Exit status: 0 done, 1 failed, 2 usage.
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <odbcinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dsn.h"

#ifndef JET_ODBCDIR
#define JET_ODBCDIR "/usr/local/lib/odbc"
#endif

static void usage(FILE *f)
{
    fputs("usage: jetodbc-setup install-driver [--lib PATH] [--setup-lib PATH] [--name NAME]\n"
          "       jetodbc-setup remove-driver [--name NAME]\n"
          "       jetodbc-setup list [--user | --system]\n"
          "       jetodbc-setup show [--system] DSN\n"
          "       jetodbc-setup add [--system] [--driver NAME] DSN FILE [KEY=VALUE...]\n"
          "       jetodbc-setup remove [--system] DSN\n"
          "DSN keys: DBQ (the file), PWD, ExtendedAnsiSQL, MaxLongSize, MaxMemory,\n"
          "TraceFile.\n"
          "User DSNs live in ~/.odbc.ini ($ODBCINI), system DSNs and drivers in\n"
          "the odbcinst folder ($ODBCSYSINI, else /etc). See jetodbc-setup(1).\n", f);
}

static int fail(const char *what)
{
    char err[1024];
    jet_setup_error(err, sizeof err);
    fprintf(stderr, "jetodbc-setup: %s: %s\n", what, err);
    return 1;
}

/* The registered Driver= path of driver name, or "" when not registered. */
static void driver_lib(const char *name, char *buf, int cap)
{
    buf[0] = '\0';
    SQLGetPrivateProfileString(name, "Driver", "", buf, cap, "odbcinst.ini");
}

static int install_driver(const char *name, const char *lib,
                          const char *setup_lib)
{
    char spec[4096], path_out[PATH_MAX];
    WORD out_len = 0;
    DWORD usage_count = 0;
    if (access(lib, R_OK) != 0)
        fprintf(stderr, "jetodbc-setup: warning: %s does not exist (yet)\n",
                lib);
    /* "NAME\0Driver=...\0Setup=...\0...\0\0"; Threading=0: unixODBC
     * serialises no call, the driver's own locks do (README, Threads) */
    int n = snprintf(spec, sizeof spec, "%s%cDescription=jetodbc: Microsoft "
                     "Access (.mdb/.accdb) reader%cDriver=%s%cSetup=%s%c"
                     "FileUsage=1%cThreading=0%c", name, 0, 0, lib, 0,
                     setup_lib, 0, 0, 0);
    if (n < 0 || (size_t)n >= sizeof spec - 1) {
        fprintf(stderr, "jetodbc-setup: paths too long\n");
        return 1;
    }
    spec[n] = '\0';
    if (!SQLInstallDriverEx(spec, NULL, path_out, sizeof path_out, &out_len,
                            ODBC_INSTALL_COMPLETE, &usage_count))
        return fail("cannot register the driver (run as root, or set "
                    "ODBCSYSINI to a folder of yours)");
    printf("driver %s registered: %s (usage count %lu)\n", name, lib,
           (unsigned long)usage_count);
    return 0;
}

static int remove_driver(const char *name)
{
    DWORD usage_count = 0;
    char lib[PATH_MAX];
    driver_lib(name, lib, sizeof lib);
    if (!lib[0]) {
        fprintf(stderr, "jetodbc-setup: no driver named %s is registered\n",
                name);
        return 1;
    }
    if (!SQLRemoveDriver(name, 0, &usage_count))
        return fail("cannot remove the driver");
    printf("driver %s: usage count now %lu%s\n", name,
           (unsigned long)usage_count,
           usage_count ? "" : " (entry removed)");
    return 0;
}

static void list_scope(bool system)
{
    char names[32768];
    size_t n = jet_setup_dsn_names(system, names, sizeof names);
    printf("%s DSNs:%s\n", system ? "system" : "user", n ? "" : " none");
    const char *p = names;
    for (size_t i = 0; i < n; i++, p += strlen(p) + 1) {
        char keys[16384];
        size_t k = jet_setup_dsn_keys(system, p, keys, sizeof keys);
        printf("  [%s]\n", p);
        const char *q = keys;
        for (size_t j = 0; j < k; j++, q += strlen(q) + 1) {
            /* never print a password */
            if (!strncasecmp(q, "PWD=", 4) || !strncasecmp(q, "Password=", 9))
                printf("    %.*s=****\n", (int)(strchr(q, '=') - q), q);
            else
                printf("    %s\n", q);
        }
    }
}

static int show(bool system, const char *dsn)
{
    if (!jet_setup_dsn_exists(system, dsn)) {
        fprintf(stderr, "jetodbc-setup: no %s DSN named '%s'\n",
                system ? "system" : "user", dsn);
        return 1;
    }
    char keys[16384];
    size_t k = jet_setup_dsn_keys(system, dsn, keys, sizeof keys);
    printf("[%s]\n", dsn);
    const char *q = keys;
    for (size_t j = 0; j < k; j++, q += strlen(q) + 1)
        printf("%s\n", !strncasecmp(q, "PWD=", 4) ? "PWD=****" : q);
    return 0;
}

static int add(bool system, const char *driver, const char *dsn,
               const char *file, char **extra, int nextra)
{
    char abs[PATH_MAX], lib[PATH_MAX], err[1024];
    if (!realpath(file, abs)) {
        fprintf(stderr, "jetodbc-setup: '%s' is not a file\n", file);
        return 2;
    }
    driver_lib(driver, lib, sizeof lib);
    const char *drv = driver;
    if (!lib[0]) {
        /* not registered: name the library itself */
        snprintf(lib, sizeof lib, "%s/libjetodbc.so", JET_ODBCDIR);
        printf("driver %s is not registered: the DSN names %s\n", driver,
               lib);
        drv = lib;
    }
    jet_setup_kv kv[65];
    size_t n = 0;
    kv[n].key = "Description";
    kv[n++].value = "Microsoft Access file (jetodbc)";
    kv[n].key = "DBQ";
    kv[n++].value = abs;
    for (int i = 0; i < nextra && n < 65; i++) {
        char *eq = strchr(extra[i], '=');
        if (!eq || eq == extra[i]) {
            fprintf(stderr, "jetodbc-setup: '%s' is not KEY=VALUE\n",
                    extra[i]);
            return 2;
        }
        *eq = '\0';
        kv[n].key = extra[i];
        kv[n++].value = eq + 1;
    }
    if (jet_setup_write_dsn(system, dsn, drv, kv, n, err, sizeof err) != 0) {
        fprintf(stderr, "jetodbc-setup: cannot write DSN %s: %s\n", dsn, err);
        return 1;
    }
    printf("%s DSN '%s' written for %s\n", system ? "system" : "user", dsn,
           abs);
    return 0;
}

/* What the options set. */
typedef struct setup_opts {
    bool system, user;
    const char *driver, *lib, *setup_lib;
} setup_opts;

/* getopt_long over argv from optind up to the first non-option: -1 when
 * the command is to run, else the exit status (--help 0, a bad option 2). */
static int parse_opts(int argc, char **argv, setup_opts *o)
{
    static const struct option opts[] = {
        {"system", no_argument, NULL, 's'},
        {"user", no_argument, NULL, 'u'},
        {"driver", required_argument, NULL, 'd'},
        {"name", required_argument, NULL, 'n'},
        {"lib", required_argument, NULL, 'l'},
        {"setup-lib", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "+sud:n:l:S:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': o->system = true; break;
        case 'u': o->user = true; break;
        case 'd': case 'n': o->driver = optarg; break;
        case 'l': o->lib = optarg; break;
        case 'S': o->setup_lib = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    setup_opts o = { false, false, JET_SETUP_DRIVER,
                     JET_ODBCDIR "/libjetodbc.so",
                     JET_ODBCDIR "/libjetodbcS.so" };
    int st = parse_opts(argc, argv, &o);
    if (st >= 0)
        return st;
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[optind++];
    /* options may follow the command too */
    if ((st = parse_opts(argc, argv, &o)) >= 0)
        return st;
    bool system = o.system, user = o.user;
    const char *driver = o.driver;
    int rest = argc - optind;
    char **args = argv + optind;
    if (!strcmp(cmd, "install-driver") && rest == 0)
        return install_driver(driver, o.lib, o.setup_lib);
    if (!strcmp(cmd, "remove-driver") && rest == 0)
        return remove_driver(driver);
    if (!strcmp(cmd, "list") && rest == 0) {
        char dlib[PATH_MAX];
        driver_lib(driver, dlib, sizeof dlib);
        printf("driver %s: %s\n", driver, dlib[0] ? dlib : "not registered");
        if (!system)
            list_scope(false);
        if (!user)
            list_scope(true);
        return 0;
    }
    if (!strcmp(cmd, "show") && rest == 1)
        return show(system, args[0]);
    if (!strcmp(cmd, "add") && rest >= 2)
        return add(system, driver, args[0], args[1], args + 2, rest - 2);
    if (!strcmp(cmd, "remove") && rest == 1) {
        char err[1024];
        if (jet_setup_remove_dsn(system, args[0], err, sizeof err) != 0) {
            fprintf(stderr, "jetodbc-setup: %s\n", err);
            return 1;
        }
        printf("%s DSN '%s' removed\n", system ? "system" : "user", args[0]);
        return 0;
    }
    usage(stderr);
    return 2;
}
