/*
 * jetodbc-setup.c - register jetodbc and manage its DSNs with unixODBC's
 * installer API (see jetodbc-setup.1 for the manual).
 *
 *   jetodbc-setup install-driver [--lib PATH] [--setup-lib PATH] [--name N]
 *   jetodbc-setup remove-driver [--name N]
 *   jetodbc-setup list [--user | --system]
 *   jetodbc-setup show [--system] DSN
 *   jetodbc-setup add [--system] [--driver N | --lib PATH] DSN FILE [KEY=VALUE...]
 *   jetodbc-setup remove [--system] DSN
 *   jetodbc-setup check FILE [--password PWD]
 *   jetodbc-setup create FILE [--format jet4|ace12|ace14|ace16|ace17]
 *                        [--password PWD]
 *   jetodbc-setup compact SRC DST [--password PWD]
 *
 * install-driver uses SQLInstallDriverEx; registering a name that is
 * already registered rewrites its keys and keeps its UsageCount (which
 * SQLInstallDriverEx would raise), so running it again, as quickstart.sh
 * does, leaves one install that one remove-driver (SQLRemoveDriver)
 * removes. add uses SQLWriteDSNToIni and SQLWritePrivateProfileString;
 * when the driver is not registered (a user without write access to the
 * system odbcinst.ini), its registered library cannot be read, or --lib
 * is given, the DSN names the library by its path, which unixODBC
 * accepts. add refuses a library that does not exist or cannot be read,
 * and a failed write names the file.
 * check opens FILE read-only and runs the core's consistency check
 * (jet_db_check, core/check.c): one line per problem, then a summary;
 * exit status 0 clean, 1 problems, 2 usage or a file that will not open.
 * create writes a new empty database (jet_db_create_file): never over an
 * existing file; the format from --format, else from the name (.mdb Jet4,
 * otherwise ACE 16).
 * compact rewrites SRC into the new file DST without free space
 * (jet_db_compact, core/compact.c): SRC is only read, DST must not exist.
 * Exit status otherwise: 0 done, 1 failed, 2 usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <odbcinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsn.h"
#include "jet.h"

#ifndef JET_ODBCDIR
#define JET_ODBCDIR "/usr/local/lib/odbc"
#endif

static void usage(FILE *f)
{
    fputs("usage: jetodbc-setup install-driver [--lib PATH] [--setup-lib PATH] [--name NAME]\n"
          "       jetodbc-setup remove-driver [--name NAME]\n"
          "       jetodbc-setup list [--user | --system]\n"
          "       jetodbc-setup show [--system] DSN\n"
          "       jetodbc-setup add [--system] [--driver NAME | --lib PATH] DSN FILE\n"
          "                         [KEY=VALUE...]\n"
          "       jetodbc-setup remove [--system] DSN\n"
          "       jetodbc-setup check FILE [--password PWD]\n"
          "       jetodbc-setup create FILE [--format jet4|ace12|ace14|ace16|ace17]\n"
          "                         [--password PWD]\n"
          "       jetodbc-setup compact SRC DST [--password PWD]\n"
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

/* The file the installer writes for scope: "odbcinst.ini" (drivers) or
 * "odbc.ini" (system DSNs) in $ODBCSYSINI, else /etc (odbcinst.ini's name
 * from $ODBCINSTINI), or the user DSN file, $ODBCINI, else ~/.odbc.ini:
 * where unixODBC looks (odbcinst -j), for messages. */
static void ini_path(char *buf, size_t cap, const char *which)
{
    const char *e;
    if (!strcmp(which, "user")) {
        if ((e = getenv("ODBCINI")) && *e) {
            snprintf(buf, cap, "%s", e);
            return;
        }
        const struct passwd *pw = getpwuid(getuid());
        const char *home = pw && pw->pw_dir ? pw->pw_dir : getenv("HOME");
        snprintf(buf, cap, "%s/.odbc.ini", home ? home : "~");
        return;
    }
    const char *dir = (e = getenv("ODBCSYSINI")) && *e ? e : "/etc";
    const char *name = which;
    if (!strcmp(which, "odbcinst.ini") && (e = getenv("ODBCINSTINI")) && *e)
        name = e;
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* Why file cannot be written, into why (cap bytes): the file, or its
 * folder when the file does not exist, with the errno text; "" when
 * both look writable (then the installer's own message stands). */
static void why_unwritable(char *why, size_t cap, const char *file)
{
    struct stat st;
    why[0] = '\0';
    if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "%s is a folder", file);
        return;
    }
    if (access(file, W_OK) == 0)
        return;
    if (errno != ENOENT) {
        snprintf(why, cap, "%s: %s", file, strerror(errno));
        return;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK) != 0)
        snprintf(why, cap, "cannot create %s: %s: %s", file, dir,
                 strerror(errno));
}

/* fail() for a write to the installer's file which: names the file. */
static int fail_write(const char *what, const char *which)
{
    char file[PATH_MAX], why[PATH_MAX + 256], err[1024];
    jet_setup_error(err, sizeof err);
    ini_path(file, sizeof file, which);
    why_unwritable(why, sizeof why, file);
    if (why[0])
        fprintf(stderr, "jetodbc-setup: %s: %s (%s)\n", what, why, err);
    else
        fprintf(stderr, "jetodbc-setup: %s: writing %s: %s\n", what, file,
                err);
    return 1;
}

static int install_driver(const char *name, const char *lib,
                          const char *setup_lib)
{
    char spec[4096], path_out[PATH_MAX], old[32];
    WORD out_len = 0;
    DWORD usage_count = 0;
    /* an entry of that name: its count, kept (the keys are rewritten) */
    SQLGetPrivateProfileString(name, "UsageCount", "", old, sizeof old,
                               "odbcinst.ini");
    char old_lib[PATH_MAX];
    driver_lib(name, old_lib, sizeof old_lib);
    long old_count = old_lib[0] ? strtol(old, NULL, 10) : 0;
    if (old_lib[0] && old_count < 1)
        old_count = 1;
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
        return fail_write("cannot register the driver (run as root, or set "
                          "ODBCSYSINI to a folder of yours)", "odbcinst.ini");
    if (old_count > 0 && (long)usage_count != old_count) {
        char count[32];
        snprintf(count, sizeof count, "%ld", old_count);
        if (!SQLWritePrivateProfileString(name, "UsageCount", count,
                                          "odbcinst.ini"))
            return fail_write("cannot keep the usage count", "odbcinst.ini");
        usage_count = (DWORD)old_count;
    }
    if (old_count > 0 && !strcmp(old_lib, lib))
        printf("driver %s already registered: %s (usage count %lu)\n",
               name, lib, (unsigned long)usage_count);
    else if (old_count > 0)
        printf("driver %s registered again: %s, was %s (usage count %lu)\n",
               name, lib, old_lib, (unsigned long)usage_count);
    else
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

/* Whether the DSN's library path can be loaded: 0, or -1 with the
 * reason printed. A bare name (no '/') is the dynamic loader's to find. */
static int check_lib(const char *lib)
{
    if (!strchr(lib, '/') || access(lib, R_OK) == 0)
        return 0;
    fprintf(stderr, "jetodbc-setup: the driver library %s %s\n", lib,
            errno == ENOENT ? "does not exist" : strerror(errno));
    return -1;
}

/* add: the DSN's Driver= into out: lib when given, else the registered
 * driver name when its library can be read, else the installed library's
 * path. 0, or 1 when no readable library is left (the reason printed). */
static int dsn_driver(char *out, size_t cap, const char *driver,
                      const char *lib)
{
    char reg[PATH_MAX];
    if (lib) {
        snprintf(out, cap, "%s", lib);
        return check_lib(out) ? 1 : 0;
    }
    driver_lib(driver, reg, sizeof reg);
    if (reg[0] && (!strchr(reg, '/') || access(reg, R_OK) == 0)) {
        snprintf(out, cap, "%s", driver);
        return 0;
    }
    snprintf(out, cap, "%s/libjetodbc.so", JET_ODBCDIR);
    if (reg[0]) {
        int e = errno;
        fprintf(stderr, "jetodbc-setup: driver %s names %s, which %s\n",
                driver, reg, e == ENOENT ? "does not exist"
                : "this user cannot read");
    }
    if (check_lib(out))
        return 1;
    printf("driver %s is %s: the DSN names %s\n", driver,
           reg[0] ? "unusable here" : "not registered", out);
    return 0;
}

static int add(bool system, const char *driver, const char *lib_path,
               const char *dsn, const char *file, char **extra, int nextra)
{
    char abs[PATH_MAX], drv[PATH_MAX], err[1024];
    if (!realpath(file, abs)) {
        fprintf(stderr, "jetodbc-setup: '%s' is not a file\n", file);
        return 2;
    }
    if (dsn_driver(drv, sizeof drv, driver, lib_path) != 0)
        return 1;
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
        char ini[PATH_MAX], why[PATH_MAX + 256];
        ini_path(ini, sizeof ini, system ? "odbc.ini" : "user");
        why_unwritable(why, sizeof why, ini);
        if (why[0])
            fprintf(stderr, "jetodbc-setup: cannot write DSN %s: %s (%s)\n",
                    dsn, why, err);
        else
            fprintf(stderr, "jetodbc-setup: cannot write DSN %s to %s: %s\n",
                    dsn, ini, err);
        return 1;
    }
    printf("%s DSN '%s' written for %s\n", system ? "system" : "user", dsn,
           abs);
    return 0;
}

/* What the options set. */
typedef struct setup_opts {
    bool system, user, lib_given;
    const char *driver, *lib, *setup_lib;
    const char *password;
    const char *format;
} setup_opts;

/* jet_db_check's problem lines: "page N (table T): what" */
static void print_problem(void *ctx, uint32_t pgno, const char *table,
                          const char *msg)
{
    const char *file = ctx;
    if (pgno != UINT32_MAX && table)
        printf("%s: page %u (table %s): %s\n", file, pgno, table, msg);
    else if (pgno != UINT32_MAX)
        printf("%s: page %u: %s\n", file, pgno, msg);
    else if (table)
        printf("%s: table %s: %s\n", file, table, msg);
    else
        printf("%s: %s\n", file, msg);
}

static int check(const char *file, const char *password)
{
    jet_open_options o;
    jet_check_stats st;
    jet_error err;
    jet_db *db;
    jet_rc rc;

    memset(&o, 0, sizeof o);
    o.password = password;
    o.read_only = true;
    rc = jet_db_open(&db, file, &o, &err);
    if (rc != JET_OK) {
        fprintf(stderr, "jetodbc-setup: %s: %s\n", file, err.msg);
        return 2;
    }
    rc = jet_db_check(db, print_problem, (void *)file, &st);
    if (rc != JET_OK) {
        fprintf(stderr, "jetodbc-setup: %s: %s\n", file,
                jet_db_error(db)->msg);
        jet_db_close(db);
        return 2;
    }
    jet_db_close(db);
    if (st.problems > JET_CHECK_MAX_PROBLEMS)
        printf("%s: ... %u more problems not shown\n", file,
               st.problems - JET_CHECK_MAX_PROBLEMS);
    printf("%s: %u problem%s; %u tables, %llu rows, %u indexes (%llu "
           "entries), %llu long values, %u pages\n", file, st.problems,
           st.problems == 1 ? "" : "s", st.tables,
           (unsigned long long)st.rows, st.indexes,
           (unsigned long long)st.entries,
           (unsigned long long)st.long_values, st.pages);
    return st.problems ? 1 : 0;
}

/* A new empty database at file (jet_db_create_file). */
static int create(const char *file, const char *format, const char *password)
{
    static const struct { const char *name; jet_version ver; } fmts[] = {
        { "jet4", JET_VER_4 }, { "ace12", JET_VER_ACE12 },
        { "ace14", JET_VER_ACE14 }, { "ace16", JET_VER_ACE16 },
        { "ace17", JET_VER_ACE17 },
    };
    jet_version ver = JET_VER_ACE16;
    jet_error err;
    size_t n = strlen(file);

    if (n >= 4 && !strcasecmp(file + n - 4, ".mdb"))
        ver = JET_VER_4;
    if (format) {
        size_t i;
        for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
            if (!strcasecmp(format, fmts[i].name))
                break;
        if (i == sizeof fmts / sizeof fmts[0]) {
            fprintf(stderr, "jetodbc-setup: unknown format '%s' (jet4, "
                    "ace12, ace14, ace16, ace17)\n", format);
            return 2;
        }
        ver = fmts[i].ver;
    }
    if (jet_db_create_file(file, ver, password, &err) != JET_OK) {
        fprintf(stderr, "jetodbc-setup: %s\n", err.msg);
        return 1;
    }
    printf("%s: new empty database written\n", file);
    return 0;
}

/* SRC rewritten into the new file DST without free space
 * (jet_db_compact). */
static int compact(const char *src, const char *dst, const char *password)
{
    jet_error err;
    struct stat a, b;
    if (jet_db_compact(src, dst, password, &err) != JET_OK) {
        fprintf(stderr, "jetodbc-setup: compact %s: %s\n", src, err.msg);
        return 1;
    }
    if (stat(src, &a) == 0 && stat(dst, &b) == 0)
        printf("%s: compacted into %s (%lld -> %lld bytes)\n", src, dst,
               (long long)a.st_size, (long long)b.st_size);
    else
        printf("%s: compacted into %s\n", src, dst);
    return 0;
}

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
        {"password", required_argument, NULL, 'p'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "+sud:n:l:S:p:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': o->system = true; break;
        case 'u': o->user = true; break;
        case 'd': case 'n': o->driver = optarg; break;
        case 'l': o->lib = optarg; o->lib_given = true; break;
        case 'S': o->setup_lib = optarg; break;
        case 'p': o->password = optarg; break;
        case 'f': o->format = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    setup_opts o = { false, false, false, JET_SETUP_DRIVER,
                     JET_ODBCDIR "/libjetodbc.so",
                     JET_ODBCDIR "/libjetodbcS.so", NULL, NULL };
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
    if (!strcmp(cmd, "check") && rest == 1)
        return check(args[0], o.password);
    if (!strcmp(cmd, "check") && rest == 3 &&
        (!strcmp(args[1], "--password") || !strcmp(args[1], "-p")))
        return check(args[0], args[2]);
    if (!strcmp(cmd, "create") && rest >= 1) {
        /* options may follow FILE: --format F, --password P */
        for (int i = 1; i < rest; i += 2) {
            if (i + 1 >= rest) {
                usage(stderr);
                return 2;
            }
            if (!strcmp(args[i], "--format") || !strcmp(args[i], "-f"))
                o.format = args[i + 1];
            else if (!strcmp(args[i], "--password") || !strcmp(args[i], "-p"))
                o.password = args[i + 1];
            else {
                usage(stderr);
                return 2;
            }
        }
        return create(args[0], o.format, o.password);
    }
    if (!strcmp(cmd, "compact") && rest >= 2) {
        /* --password P may follow SRC DST */
        for (int i = 2; i < rest; i += 2) {
            if (i + 1 >= rest || (strcmp(args[i], "--password") &&
                                  strcmp(args[i], "-p"))) {
                usage(stderr);
                return 2;
            }
            o.password = args[i + 1];
        }
        return compact(args[0], args[1], o.password);
    }
    if (!strcmp(cmd, "show") && rest == 1)
        return show(system, args[0]);
    if (!strcmp(cmd, "add") && rest >= 2)
        return add(system, driver, o.lib_given ? o.lib : NULL, args[0],
                   args[1], args + 2, rest - 2);
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
