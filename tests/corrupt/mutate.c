/*
 * mutate.c - hostile-file test: damaged copies of real files never crash.
 *
 * For every .mdb/.accdb under <shared>/fixtures/public, write damaged copies
 * to a temporary file (truncations at several lengths, deterministic byte
 * mutations on random pages, whole pages replaced by zeros, random bytes or
 * another page) and read each one completely through the
 * core API: open, every tdef, every row, every value, text converted to
 * UTF-8 and UTF-16, then every index walked with each entry's row fetched. Each step may fail with a jet_rc; none may crash, hang
 * or leak (the ASan build checks the last two). The seed is fixed, so a
 * failure reproduces; MUTATE_SEED and MUTATE_ROUNDS override it.
 *
 * Exit: 0 when every copy was read without crashing, 77 when the fixtures
 * are absent (automake skip).
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jet.h"

#define SKIP_CODE 77
#define MAX_FILES 256
#define MAX_FILE_LEN (64u << 20)

static uint64_t rng_state;

/* What is being read now, for the hang report (written before each copy). */
static char current[512];
static size_t current_len;

/* A copy that takes this long is a hang: report it and fail. */
#define HANG_SECONDS 30

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "mutate: FAIL: hang while reading ";
    ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
    w = write(STDOUT_FILENO, current, current_len);
    (void)w;
    _exit(1);
}

/* Record what is read next and re-arm the hang timer. */
static void begin_copy(const char *path, const char *what, long arg)
{
    int n = snprintf(current, sizeof current, "%s (%s %ld)\n", path, what, arg);
    current_len = n < 0 ? 0 : (size_t)n >= sizeof current ? sizeof current - 1 : (size_t)n;
    alarm(HANG_SECONDS);
}

/* xorshift64*: deterministic, good enough to pick bytes to damage. */
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Collect fixture paths below dir (recursive); returns the new count. */
static size_t collect(char **paths, size_t n, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_FILES) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            n = collect(paths, n, path);
        else if (ends_with(path, ".mdb") || ends_with(path, ".accdb"))
            paths[n++] = strdup(path);
    }
    closedir(d);
    return n;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk every index of tdef, fetching each entry's row through scan. */
static void walk_indexes(jet_db *db, const jet_tdef *tdef, jet_scan *scan,
                         uint64_t *nerrors)
{
    for (uint16_t x = 0; x < tdef->nindexes; x++) {
        jet_index_cursor *cur = NULL;
        if (jet_index_cursor_open(&cur, db, tdef, x) != JET_OK) {
            (*nerrors)++;
            continue;
        }
        uint32_t pgno;
        uint16_t row;
        unsigned entries = 0;
        jet_rc rc;
        while ((rc = jet_index_next(cur, &pgno, &row)) == JET_OK && entries++ < 100000) {
            jet_value v;
            if (jet_scan_fetch_row(scan, pgno, row) == JET_OK && tdef->ncols > 0)
                (void)jet_scan_value(scan, 0, &v);
        }
        if (rc < 0)
            (*nerrors)++;
        jet_index_cursor_close(cur);
    }
}

/* Read every value of every table; counts what was read into *nvalues. */
static void read_all(const char *path, uint64_t *nvalues, uint64_t *nerrors)
{
    jet_db *db = NULL;
    jet_error err;
    if (jet_db_open(&db, path, NULL, &err) != JET_OK) {
        (*nerrors)++;
        return;
    }
    static char utf8[1 << 16];
    static uint16_t utf16[1 << 15];
    size_t nobj = jet_catalog_count(db);
    for (size_t i = 0; i < nobj; i++) {
        const jet_object *obj = jet_catalog_at(db, i);
        if (obj->kind != JET_OBJ_TABLE && obj->kind != JET_OBJ_SYSTEM_TABLE)
            continue;
        const jet_tdef *tdef;
        if (jet_tdef_load(&tdef, db, obj) != JET_OK) {
            (*nerrors)++;
            continue;
        }
        jet_scan *scan = NULL;
        if (jet_scan_open(&scan, db, tdef, NULL) != JET_OK) {
            (*nerrors)++;
            continue;
        }
        jet_rc rc;
        unsigned rows = 0;
        while ((rc = jet_scan_next(scan)) == JET_OK && rows++ < 100000) {
            for (uint16_t c = 0; c < tdef->ncols; c++) {
                jet_value v;
                if (jet_scan_value(scan, c, &v) != JET_OK) {
                    (*nerrors)++;
                    continue;
                }
                (*nvalues)++;
                if (v.is_null)
                    continue;
                if (v.type == JET_T_TEXT || v.type == JET_T_MEMO) {
                    size_t len;
                    (void)jet_text_to_utf8(db, &v, utf8, sizeof utf8, &len);
                    (void)jet_text_to_utf16(db, &v, utf16,
                                            sizeof utf16 / sizeof utf16[0], &len);
                } else if (v.type == JET_T_DATETIME) {
                    jet_timestamp ts;
                    (void)jet_datetime_split(v.u.d, &ts);
                } else if (v.type == JET_T_EXT_DATETIME) {
                    jet_timestamp ts;
                    (void)jet_ext_datetime_split(&v, &ts);
                } else if (v.type == JET_T_NUMERIC) {
                    char buf[64];
                    (void)jet_numeric_format(&v, buf, sizeof buf);
                }
            }
        }
        if (rc < 0)
            (*nerrors)++;
        walk_indexes(db, tdef, scan, nerrors);
        jet_scan_close(scan);
    }
    jet_db_close(db);
}

static int write_file(const char *path, const unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = len ? fwrite(buf, 1, len, f) : 0;
    int rc = fclose(f);
    return (w == len && rc == 0) ? 0 : -1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size <= 0 ||
        (uint64_t)st.st_size > MAX_FILE_LEN) {
        fclose(f);
        return NULL;
    }
    unsigned char *buf = malloc((size_t)st.st_size);
    if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)st.st_size;
    return buf;
}

int main(void)
{
    const char *shared = getenv("JETODBC_SHARED");
    char pub[4096];
    if (shared)
        snprintf(pub, sizeof pub, "%s/fixtures/public", shared);
    else
        snprintf(pub, sizeof pub, "%s/../shared/fixtures/public",
                 getenv("JET_SRCDIR") ? getenv("JET_SRCDIR") : ".");
    char *paths[MAX_FILES];
    size_t npaths = collect(paths, 0, pub);
    if (npaths == 0) {
        printf("SKIP: no fixtures under %s (set JETODBC_SHARED)\n", pub);
        return SKIP_CODE;
    }
    qsort(paths, npaths, sizeof paths[0], cmp_str);
    rng_state = getenv("MUTATE_SEED") ? strtoull(getenv("MUTATE_SEED"), NULL, 0)
                                      : 0x6a65746f646263ULL;
    if (rng_state == 0)
        rng_state = 1;
    int rounds = getenv("MUTATE_ROUNDS") ? atoi(getenv("MUTATE_ROUNDS")) : 24;

    char tmp[] = "/tmp/jetodbc-mutate-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    signal(SIGALRM, on_alarm);

    uint64_t copies = 0, nvalues = 0, nerrors = 0;
    for (size_t i = 0; i < npaths; i++) {
        size_t len;
        unsigned char *orig = slurp(paths[i], &len);
        if (!orig)
            continue;
        unsigned char *buf = malloc(len);
        if (!buf) {
            free(orig);
            continue;
        }
        /* truncations: empty, inside the header, inside the catalog, half */
        const size_t cuts[] = {0, 1, 100, 2048, 4096 + 17, 3 * 4096, len / 2};
        for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
            if (cuts[c] >= len)
                continue;
            if (write_file(tmp, orig, cuts[c]) == 0) {
                begin_copy(paths[i], "truncated to", (long)cuts[c]);
                read_all(tmp, &nvalues, &nerrors);
                copies++;
            }
        }
        /* byte damage: a burst of random bytes in a few random pages
         * (never page 0 alone: most of those fail at open, which is cheap) */
        size_t page = len >= 4096 && (len % 4096) == 0 ? 4096 : 2048;
        size_t npages = len / page;
        for (int r = 0; r < rounds && npages > 1; r++) {
            memcpy(buf, orig, len);
            int hits = 1 + (int)(rng_next() % 8);
            for (int h = 0; h < hits; h++) {
                size_t pg = 1 + (size_t)(rng_next() % (npages - 1));
                size_t off = (size_t)(rng_next() % page);
                int burst = 1 + (int)(rng_next() % 4);
                for (int b = 0; b < burst && off + (size_t)b < page; b++) {
                    uint64_t x = rng_next();
                    buf[pg * page + off + (size_t)b] =
                        (x & 3) == 0 ? 0xFF : (x & 3) == 1 ? 0x00 : (unsigned char)(x >> 8);
                }
            }
            if (write_file(tmp, buf, len) == 0) {
                begin_copy(paths[i], "damage round", r);
                read_all(tmp, &nvalues, &nerrors);
                copies++;
            }
        }
        /* whole pages: one page replaced by zeros, random bytes or a copy
         * of another page (a foreign data or index page); the reader must
         * report the damage, not skip it */
        for (int kind = 0; kind < 3 && npages > 2; kind++) {
            size_t pg = 1 + (size_t)(rng_next() % (npages - 1));
            size_t other = 1 + (size_t)(rng_next() % (npages - 1));
            memcpy(buf, orig, len);
            if (kind == 0)
                memset(buf + pg * page, 0, page);
            else if (kind == 1)
                for (size_t b = 0; b < page; b++)
                    buf[pg * page + b] = (unsigned char)(rng_next() >> 24);
            else
                memcpy(buf + pg * page, orig + other * page, page);
            if (write_file(tmp, buf, len) == 0) {
                begin_copy(paths[i], "whole page replaced, kind", kind);
                read_all(tmp, &nvalues, &nerrors);
                copies++;
            }
        }
        free(buf);
        free(orig);
        free(paths[i]);
    }
    alarm(0);
    unlink(tmp);
    printf("mutate: read %llu damaged copies of %zu files (%llu values, %llu clean errors)\n",
           (unsigned long long)copies, npaths, (unsigned long long)nvalues,
           (unsigned long long)nerrors);
    printf("mutate: %llu passed, 0 failed\n", (unsigned long long)copies);
    return 0;
}
