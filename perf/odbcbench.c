/*
 * odbcbench.c - time one workload through the unixODBC driver manager.
 *
 * Connects with any connection string (jetodbc, mdbtools, SQLite ODBC, ...),
 * runs one workload and prints ONE line of JSON on stdout: wall time, rows,
 * rows/s, peak RSS (VmHWM, else getrusage ru_maxrss) and a SHA-256 of the result.
 *
 * Workloads:
 *   --sql "SELECT ..."                  one statement, every row fetched
 *   --lookups N --sql "... WHERE k = ?" prepared once, executed N times with
 *                                       keys from a fixed PRNG in 1..--key-max
 *                                       (--inline-params: key spliced into the
 *                                       text, SQLExecDirect each time)
 *   --lookups N --text-keys "SELECT k FROM t" --sql "... WHERE k = ?"
 *                                       the same with text keys: the first
 *                                       query's values (as SQL_C_CHAR), one
 *                                       drawn per execution by the PRNG
 *   --connect-first-row --sql "..."     env + connect + execute + first row
 * Fetch styles:
 *   --style array    SQLBindCol, column-wise, SQL_ATTR_ROW_ARRAY_SIZE 1000
 *   --style getdata  SQLFetch + SQLGetData per value (what pyodbc does);
 *                    text and binary read in 32 KiB chunks until complete
 * Array style binds text and binary columns with --long-buf bytes per value
 * (default 32 KiB; pick one that fits the data: truncations are counted).
 *
 * Output fields: status (ok|error|unsupported), rows, connect_s (env +
 * SQLDriverConnect), wall_s (execute + fetch of every row; for lookups all
 * N executions), cpu_s (user + system CPU time of wall_s), total_s
 * (connect + wall_s), rows_per_s (rows / wall_s), peak_rss_kb,
 * sha256 and sha256_d15 (with --hash on), first_row_s and first_row_warm_s
 * (--connect-first-row: the first connect in this process, and the median
 * of --connect-loops later ones), array_size (effective), truncated,
 * evict, preload_s, sqlstate and msg on failure.
 *
 * The hash is taken over a canonical rendering, so drivers that return the
 * same values give the same hash whatever SQL types they report:
 *   integers (BIT..BIGINT)   decimal integer
 *   REAL/FLOAT/DOUBLE        %.17g (and %.15g in a second hash,
 *                            "sha256_d15": the SQLite ODBC driver
 *                            rounds REAL values to 15 digits)
 *   DECIMAL/NUMERIC          the driver's text, normalised (no '+', no
 *                            trailing fraction zeros, "-0" -> "0")
 *   date/time types          YYYY-MM-DD HH:MM:SS, plus .mmm when the
 *                            fraction is not zero
 *   text                     the driver's SQL_C_CHAR bytes (UTF-8)
 *   binary                   raw bytes
 * Each value enters the hash as "<byte length>:<bytes>;", NULL as "N;",
 * each row ends with "\n". --unordered makes the hash independent of row
 * order (SHA-256 of the sorted per-row SHA-256s) for statements without
 * ORDER BY whose drivers may return rows in index or table order.
 * --hash off skips rendering and hashing (values
 * are still fetched into the same buffers) for timing runs.
 *
 * --render-out FILE also writes the hashed bytes to FILE (to find the first
 * differing row when two drivers' hashes differ).
 *
 * --evict FILE drops FILE's pages from the page cache with
 * posix_fadvise(POSIX_FADV_DONTNEED) before connecting, and reports how
 * many of its pages were resident before and after (mincore).
 *
 * --preload DRIVER.so dlopen()s the driver before the clock starts (and
 * reports how long that took), to split connect time into library loading
 * and the driver's own work.
 *
 * Exit status: 0 ok, 1 error, 3 unsupported (HYC00/42000 or similar at
 * prepare/execute), 2 usage.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sql.h>
#include <sqlext.h>


#define CHUNK_LEN 32768        /* SQLGetData chunk for text/binary */
#define DEFAULT_LONG_BUF 32768 /* array style: cap per long value */

typedef enum bench_style { STYLE_ARRAY, STYLE_GETDATA } bench_style;
/* --ctype: typed C buffers per column (default), or every column as
 * SQL_C_CHAR / SQL_C_WCHAR text (what isql, PHP and DBD::ODBC do). */
typedef enum bench_ctype { CTYPE_TYPED, CTYPE_CHAR, CTYPE_WCHAR } bench_ctype;
typedef enum col_kind {
    K_INT, K_BIGINT, K_DOUBLE, K_DECIMAL, K_TIMESTAMP, K_TEXT, K_BINARY
} col_kind;

/* One result column: its kind, C type and (array style) bound buffers. */
typedef struct bench_col {
    SQLSMALLINT sql_type;
    SQLULEN col_size;
    col_kind kind;
    SQLSMALLINT c_type;
    size_t elem_len;           /* bytes per row in the bound buffer */
    unsigned char *buf;        /* array style: elem_len * array_size */
    SQLLEN *ind;               /* array style: array_size indicators */
} bench_col;

/* SHA-256 comes from libcrypto, loaded with dlopen() on first use (the
 * hashed warm-up round's first value, after its connect) so that
 * odbcbench itself never loads OpenSSL before a timed connect: a driver
 * that uses libcrypto pays that cost itself. */
typedef struct evp_api {
    void *(*ctx_new)(void);
    void (*ctx_free)(void *);
    const void *(*sha256)(void);
    int (*init)(void *, const void *, void *);
    int (*update)(void *, const void *, size_t);
    int (*final)(void *, unsigned char *, unsigned int *);
    const void *md;            /* SHA-256, fetched once */
} evp_api;

static evp_api evp;

/* Resolve one libcrypto symbol into *fn, or exit. */
static void evp_sym(void *lib, const char *name, void *fn)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "odbcbench: libcrypto lacks %s\n", name);
        exit(2);
    }
    memcpy(fn, &p, sizeof p);
}

static void evp_load(void)
{
    if (evp.ctx_new)
        return;
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "odbcbench: cannot load libcrypto for --hash: %s\n",
                dlerror());
        exit(2);
    }
    evp_sym(lib, "EVP_MD_CTX_free", &evp.ctx_free);
    evp_sym(lib, "EVP_sha256", &evp.sha256);
    evp_sym(lib, "EVP_DigestInit_ex", &evp.init);
    evp_sym(lib, "EVP_DigestUpdate", &evp.update);
    evp_sym(lib, "EVP_DigestFinal_ex", &evp.final);
    evp_sym(lib, "EVP_MD_CTX_new", &evp.ctx_new);
    /* OpenSSL 3 looks EVP_sha256()'s algorithm up in its provider on
     * every EVP_DigestInit_ex (EVP_MD_fetch: locks, a hash table), which
     * --unordered pays once per row; an explicitly fetched one is not
     * looked up again */
    void *(*fetch)(void *, const char *, const char *) = NULL;
    void *f = dlsym(lib, "EVP_MD_fetch");
    if (f)
        memcpy(&fetch, &f, sizeof f);
    evp.md = fetch ? fetch(NULL, "SHA256", NULL) : NULL;
    if (!evp.md)
        evp.md = evp.sha256();
}

/* A SHA-256 computation; its libcrypto context is made on first use. */
typedef struct sha256 {
    void *ctx;
    bool started;
} sha256;

static void sha256_init(sha256 *c)
{
    c->started = false;
}

static void sha256_start(sha256 *c)
{
    if (c->started)
        return;
    evp_load();
    if (!c->ctx)
        c->ctx = evp.ctx_new();
    if (!c->ctx || evp.init(c->ctx, evp.md, NULL) != 1) {
        fprintf(stderr, "odbcbench: EVP_DigestInit_ex failed\n");
        exit(2);
    }
    c->started = true;
}

static void sha256_update(sha256 *c, const void *data, size_t n)
{
    sha256_start(c);
    if (n && evp.update(c->ctx, data, n) != 1) {
        fprintf(stderr, "odbcbench: EVP_DigestUpdate failed\n");
        exit(2);
    }
}

static void sha256_final(sha256 *c, unsigned char out[32])
{
    unsigned int len = 0;
    sha256_start(c);
    if (evp.final(c->ctx, out, &len) != 1 || len != 32) {
        fprintf(stderr, "odbcbench: EVP_DigestFinal_ex failed\n");
        exit(2);
    }
    c->started = false;
}

/* One SHA-256 with a staging buffer; with --unordered also the digests
 * of the rows so far (32 bytes each), hashed in sorted order at the end. */
typedef struct hash_sink {
    sha256 md;
    unsigned char *buf;
    size_t len, cap;
    unsigned char *rowdig;
    size_t nrows, rowcap;
} hash_sink;

typedef struct bench {
    /* options */
    const char *conn;
    const char *sql;
    const char *evict;
    const char *label;
    bench_style style;
    bench_ctype ctype;
    bool hash;
    bool connect_first_row;
    bool inline_params;
    bool unordered;
    long lookups;
    long key_max;
    uint64_t seed;
    long array_size;
    long long_buf;
    long connect_loops;
    const char *text_keys;     /* --text-keys SQL: lookup keys are text */
    char **keys;               /* the keys that SQL returned */
    long nkeys;
    /* handles */
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
    /* results */
    bench_col *cols;
    SQLSMALLINT ncols;
    uint64_t rows;
    uint64_t truncated;
    SQLULEN array_effective;
    hash_sink sink[2];         /* [0] doubles %.17g, [1] doubles %.15g */
    unsigned char *chunk;      /* getdata scratch, grows */
    size_t chunk_cap;
    double hash_s;
    char sqlstate[6];
    char msg[512];
} bench;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die_usage(const char *why)
{
    fprintf(stderr, "odbcbench: %s\n"
        "usage: odbcbench --conn CONNSTR --sql SQL [--style array|getdata]\n"
        "         [--hash on|off] [--lookups N --key-max M [--seed S]\n"
        "         [--inline-params]]\n"
        "         [--connect-first-row [--connect-loops K]] [--evict FILE]\n"
        "         [--array-size N] [--long-buf BYTES] [--label TEXT]\n"
        "         [--render-out FILE] [--preload DRIVER.so] [--unordered]\n"
        "         [--ctype typed|char|wchar] [--text-keys SQL]\n", why);
    exit(2);
}

/* ------------------------------------------------------------ output */

/* Write s as a JSON string body (quotes added by the caller). */
static void json_str(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
}

/* Peak RSS in KiB: VmHWM of this process image (ru_maxrss would also
 * count the parent's RSS at fork time, e.g. a large Python runner). */
/* User + system CPU seconds of this process so far. */
static double cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        long kb = -1;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %ld", &kb) == 1)
                break;
        fclose(f);
        if (kb >= 0)
            return kb;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return ru.ru_maxrss;
}

/* Record the first diagnostic record of a handle into b->sqlstate/msg. */
static void take_diag(bench *b, SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    SQLCHAR state[6] = "", text[400] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT tlen = 0;
    if (h == SQL_NULL_HANDLE ||
        !SQL_SUCCEEDED(SQLGetDiagRec(htype, h, 1, state, &native, text,
                                     (SQLSMALLINT)sizeof text, &tlen))) {
        snprintf(b->sqlstate, sizeof b->sqlstate, "?????");
        snprintf(b->msg, sizeof b->msg, "%s failed (no diagnostics)", what);
        return;
    }
    snprintf(b->sqlstate, sizeof b->sqlstate, "%s", (char *)state);
    snprintf(b->msg, sizeof b->msg, "%s: %s", what, (char *)text);
}

static bool is_unsupported_state(const char *s)
{
    return !strcmp(s, "HYC00") || !strcmp(s, "42000") || !strcmp(s, "IM001") ||
           !strcmp(s, "HY106") || !strcmp(s, "37000");
}

typedef struct evict_info {
    long pages, before, after;
    int rc;
} evict_info;

static long resident_pages(int fd, size_t len, long *pages)
{
    long ps = sysconf(_SC_PAGESIZE);
    *pages = (long)((len + (size_t)ps - 1) / (size_t)ps);
    if (len == 0)
        return 0;
    void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -1;
    unsigned char *vec = malloc((size_t)*pages);
    long n = -1;
    if (vec && mincore(m, len, vec) == 0) {
        n = 0;
        for (long i = 0; i < *pages; i++)
            n += vec[i] & 1;
    }
    free(vec);
    munmap(m, len);
    return n;
}

static void evict_file(const char *path, evict_info *ei)
{
    memset(ei, 0, sizeof *ei);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        ei->rc = errno;
        return;
    }
    struct stat st;
    if (fstat(fd, &st) == 0) {
        ei->before = resident_pages(fd, (size_t)st.st_size, &ei->pages);
        ei->rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ei->after = resident_pages(fd, (size_t)st.st_size, &ei->pages);
    }
    close(fd);
}

/* ------------------------------------------------------------ hashing */

static FILE *render_out;   /* --render-out: the hashed bytes, for diffs */

static void sink_put(hash_sink *k, const void *p, size_t n)
{
    if (k->len + n > k->cap) {
        if (k->len) {
            sha256_update(&k->md, k->buf, k->len);
            k->len = 0;
        }
        if (n > k->cap) {
            sha256_update(&k->md, p, n);
            return;
        }
    }
    memcpy(k->buf + k->len, p, n);
    k->len += n;
}

/* Bytes for both hashes (and --render-out, which shows the %.17g form). */
static void render_put(bench *b, const void *p, size_t n)
{
    if (render_out)
        fwrite(p, 1, n, render_out);
    sink_put(&b->sink[0], p, n);
    sink_put(&b->sink[1], p, n);
}

/* A double: "%.17g" into the main hash, "%.15g" into the second one (the
 * SQLite ODBC driver passes REAL values through 15-digit text). */
static void hash_double(bench *b, double d)
{
    char t[2][48];
    int n[2];
    n[0] = snprintf(t[0], sizeof t[0], "%.17g", d);
    n[1] = snprintf(t[1], sizeof t[1], "%.15g", d);
    for (int i = 0; i < 2; i++) {
        char pre[8];
        int k = snprintf(pre, sizeof pre, "%d:", n[i]);
        sink_put(&b->sink[i], pre, (size_t)k);
        sink_put(&b->sink[i], t[i], (size_t)n[i]);
        sink_put(&b->sink[i], ";", 1);
        if (i == 0 && render_out)
            fprintf(render_out, "%s%s;", pre, t[0]);
    }
}

static void hash_value(bench *b, const void *p, size_t n0)
{
    size_t n = n0;
    char pre[24];
    size_t k = sizeof pre;
    pre[--k] = ':';
    do {
        pre[--k] = (char)('0' + n % 10);
        n /= 10;
    } while (n && k > 0);
    render_put(b, pre + k, sizeof pre - k);
    render_put(b, p, n0);
    render_put(b, ";", 1);
}

static void hash_null(bench *b)
{
    render_put(b, "N;", 2);
}

/* End of a row: "\n", or with --unordered, close this row's digest. */
static void row_end(bench *b)
{
    render_put(b, "\n", 1);
    if (!b->unordered)
        return;
    for (int i = 0; i < 2; i++) {
        hash_sink *k = &b->sink[i];
        if (k->nrows == k->rowcap) {
            size_t ncap = k->rowcap ? k->rowcap * 2 : 1024;
            unsigned char *nd = realloc(k->rowdig, ncap * 32);
            if (!nd) {
                fprintf(stderr, "odbcbench: out of memory\n");
                exit(1);
            }
            k->rowdig = nd;
            k->rowcap = ncap;
        }
        if (k->len)
            sha256_update(&k->md, k->buf, k->len);
        k->len = 0;
        sha256_final(&k->md, k->rowdig + 32 * k->nrows++);
        sha256_init(&k->md);
    }
}

static int cmp_digest(const void *x, const void *y)
{
    return memcmp(x, y, 32);
}

/* Normalise a decimal string in place: drop '+', leading zeros, trailing
 * fraction zeros and a bare '.'; "-0" becomes "0". */
static size_t norm_decimal(char *s, size_t n)
{
    char tmp[128];
    size_t o = 0, i = 0;
    bool neg = false;
    if (n >= sizeof tmp)
        return n;
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    while (i + 1 < n && s[i] == '0' && s[i + 1] != '.')
        i++;
    if (neg)
        tmp[o++] = '-';
    if (i < n && s[i] == '.')
        tmp[o++] = '0';
    size_t start = o;
    for (; i < n && s[i] != ' '; i++)
        tmp[o++] = s[i];
    if (memchr(tmp + start, '.', o - start)) {
        while (o > start && tmp[o - 1] == '0')
            o--;
        if (o > start && tmp[o - 1] == '.')
            o--;
    }
    if (neg && o == 2 && tmp[1] == '0') {
        tmp[0] = '0';
        o = 1;
    }
    memcpy(s, tmp, o);
    return o;
}

static void hash_ts(bench *b, const SQL_TIMESTAMP_STRUCT *ts)
{
    char t[48];
    unsigned ms = (unsigned)((ts->fraction + 500000u) / 1000000u);
    int n;
    if (ms >= 1000)
        ms = 999;
    if (ms)
        n = snprintf(t, sizeof t, "%04d-%02u-%02u %02u:%02u:%02u.%03u",
                     (int)ts->year, ts->month, ts->day, ts->hour,
                     ts->minute, ts->second, ms);
    else
        n = snprintf(t, sizeof t, "%04d-%02u-%02u %02u:%02u:%02u",
                     (int)ts->year, ts->month, ts->day, ts->hour,
                     ts->minute, ts->second);
    hash_value(b, t, (size_t)n);
}

/* Hash one fixed-size or text value held in p (n bytes for text/binary). */
static void hash_typed(bench *b, const bench_col *c, void *p, size_t n)
{
    char t[64];
    int k;
    switch (c->kind) {
    case K_INT:
        k = snprintf(t, sizeof t, "%ld", (long)*(SQLINTEGER *)p);
        hash_value(b, t, (size_t)k);
        break;
    case K_BIGINT:
        k = snprintf(t, sizeof t, "%lld", (long long)*(SQLBIGINT *)p);
        hash_value(b, t, (size_t)k);
        break;
    case K_DOUBLE:
        hash_double(b, *(double *)p);
        break;
    case K_TIMESTAMP:
        hash_ts(b, p);
        break;
    case K_DECIMAL:
        hash_value(b, p, norm_decimal(p, n));
        break;
    case K_TEXT:
    case K_BINARY:
        hash_value(b, p, n);
        break;
    }
}

/* ------------------------------------------------------------ columns */

static void pick_ctype(bench *b, bench_col *c)
{
    size_t cap = (size_t)b->long_buf;
    switch (c->sql_type) {
    case SQL_BIT: case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER:
        c->kind = K_INT; c->c_type = SQL_C_SLONG;
        c->elem_len = sizeof(SQLINTEGER);
        break;
    case SQL_BIGINT:
        c->kind = K_BIGINT; c->c_type = SQL_C_SBIGINT;
        c->elem_len = sizeof(SQLBIGINT);
        break;
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
        c->kind = K_DOUBLE; c->c_type = SQL_C_DOUBLE;
        c->elem_len = sizeof(double);
        break;
    case SQL_DECIMAL: case SQL_NUMERIC:
        c->kind = K_DECIMAL; c->c_type = SQL_C_CHAR; c->elem_len = 64;
        break;
    case SQL_TYPE_TIMESTAMP: case SQL_TYPE_DATE: case SQL_TYPE_TIME:
    case SQL_DATETIME: case SQL_TIMESTAMP:
        c->kind = K_TIMESTAMP; c->c_type = SQL_C_TYPE_TIMESTAMP;
        c->elem_len = sizeof(SQL_TIMESTAMP_STRUCT);
        break;
    /* Text and binary: --long-buf bytes per value for every driver (some
     * report column sizes below their longest value); truncation is
     * counted and reported. */
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        c->kind = K_BINARY; c->c_type = SQL_C_BINARY; c->elem_len = cap;
        break;
    default: /* text of any width, GUID, anything else: as text */
        c->kind = K_TEXT; c->c_type = SQL_C_CHAR; c->elem_len = cap;
        break;
    }
    if (b->ctype == CTYPE_TYPED)
        return;
    /* all as text: the driver's own rendering is what gets hashed */
    if (c->kind != K_TEXT && c->kind != K_BINARY)
        c->elem_len = 128;
    else if (c->kind == K_BINARY)
        c->elem_len = 2 * cap;
    c->kind = K_TEXT;
    if (b->ctype == CTYPE_WCHAR) {
        c->c_type = SQL_C_WCHAR;
        c->elem_len *= 2;
    } else {
        c->c_type = SQL_C_CHAR;
    }
}

/* Bytes of the terminator a driver writes after text of this C type. */
static size_t term_len(const bench_col *c)
{
    return c->c_type == SQL_C_CHAR ? 1 : c->c_type == SQL_C_WCHAR ? 2 : 0;
}

static void free_cols(bench *b)
{
    for (SQLSMALLINT i = 0; b->cols && i < b->ncols; i++) {
        free(b->cols[i].buf);
        free(b->cols[i].ind);
    }
    free(b->cols);
    b->cols = NULL;
    b->ncols = 0;
}

/* Describe the result set; array style also allocates and binds buffers. */
static int describe(bench *b)
{
    SQLSMALLINT n = 0;
    if (!SQL_SUCCEEDED(SQLNumResultCols(b->stmt, &n))) {
        take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLNumResultCols");
        return -1;
    }
    b->ncols = n;
    b->cols = calloc(n ? (size_t)n : 1, sizeof *b->cols);
    if (!b->cols)
        return -1;
    for (SQLSMALLINT i = 0; i < n; i++) {
        bench_col *c = &b->cols[i];
        SQLCHAR name[256];
        SQLSMALLINT nlen, dec, nul;
        if (!SQL_SUCCEEDED(SQLDescribeCol(b->stmt, (SQLUSMALLINT)(i + 1), name,
                                          sizeof name, &nlen, &c->sql_type,
                                          &c->col_size, &dec, &nul))) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLDescribeCol");
            return -1;
        }
        pick_ctype(b, c);
        if (b->style != STYLE_ARRAY)
            continue;
        c->buf = malloc(c->elem_len * (size_t)b->array_size);
        c->ind = malloc(sizeof(SQLLEN) * (size_t)b->array_size);
        if (!c->buf || !c->ind)
            return -1;
        if (!SQL_SUCCEEDED(SQLBindCol(b->stmt, (SQLUSMALLINT)(i + 1), c->c_type,
                                      c->buf, (SQLLEN)c->elem_len, c->ind))) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLBindCol");
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ fetching */

static int fetch_array(bench *b, uint64_t max_rows)
{
    SQLULEN fetched = 0;
    SQLUSMALLINT *status = malloc(sizeof *status * (size_t)b->array_size);
    if (!status)
        return -1;
    SQLSetStmtAttr(b->stmt, SQL_ATTR_ROW_BIND_TYPE,
                   (SQLPOINTER)SQL_BIND_BY_COLUMN, 0);
    SQLRETURN rc = SQLSetStmtAttr(b->stmt, SQL_ATTR_ROW_ARRAY_SIZE,
                                  (SQLPOINTER)(uintptr_t)b->array_size, 0);
    SQLULEN eff = 1;
    if (SQL_SUCCEEDED(rc))
        SQLGetStmtAttr(b->stmt, SQL_ATTR_ROW_ARRAY_SIZE, &eff, 0, NULL);
    b->array_effective = eff;
    SQLSetStmtAttr(b->stmt, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLSetStmtAttr(b->stmt, SQL_ATTR_ROW_STATUS_PTR, status, 0);
    int ret = 0;
    for (;;) {
        fetched = (SQLULEN)-1;
        memset(status, 0, sizeof *status * (size_t)b->array_size);
        rc = SQLFetch(b->stmt);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc)) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLFetch");
            ret = -1;
            break;
        }
        if (fetched == (SQLULEN)-1) /* driver ignored ROWS_FETCHED_PTR */
            fetched = 1;
        if (fetched > eff) {
            snprintf(b->sqlstate, sizeof b->sqlstate, "BENCH");
            snprintf(b->msg, sizeof b->msg,
                     "driver reported %lu rows fetched > array size %lu",
                     (unsigned long)fetched, (unsigned long)eff);
            ret = -1;
            break;
        }
        double t0 = b->hash ? now_s() : 0;
        for (SQLULEN r = 0; r < fetched; r++) {
            if (status[r] == SQL_ROW_NOROW || status[r] == SQL_ROW_ERROR)
                continue;
            for (SQLSMALLINT i = 0; i < b->ncols; i++) {
                bench_col *c = &b->cols[i];
                SQLLEN ind = c->ind[r];
                unsigned char *p = c->buf + c->elem_len * r;
                size_t n = 0;
                if (c->kind == K_TEXT || c->kind == K_BINARY ||
                    c->kind == K_DECIMAL) {
                    size_t room = c->elem_len - term_len(c);
                    if (ind == SQL_NO_TOTAL || (ind >= 0 && (size_t)ind > room)) {
                        b->truncated++;
                        n = room;
                    } else if (ind >= 0) {
                        n = (size_t)ind;
                    }
                }
                if (!b->hash)
                    continue;
                if (ind == SQL_NULL_DATA)
                    hash_null(b);
                else
                    hash_typed(b, c, p, n);
            }
            if (b->hash)
                row_end(b);
            b->rows++;
        }
        if (b->hash)
            b->hash_s += now_s() - t0;
        if (max_rows && b->rows >= max_rows)
            break;
    }
    SQLSetStmtAttr(b->stmt, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
    SQLSetStmtAttr(b->stmt, SQL_ATTR_ROW_STATUS_PTR, NULL, 0);
    free(status);
    return ret;
}

/* Read one text/binary value with SQLGetData in chunks into b->chunk;
 * returns its length, or -1 for NULL, -2 on error. */
static long getdata_long(bench *b, SQLUSMALLINT col, const bench_col *c)
{
    size_t have = 0;
    size_t term = term_len(c);
    for (int iter = 0;; iter++) {
        if (b->chunk_cap - have < CHUNK_LEN + 2) {
            size_t ncap = b->chunk_cap * 2;
            if (ncap < have + CHUNK_LEN + 2)
                ncap = have + CHUNK_LEN + 2;
            unsigned char *nb = realloc(b->chunk, ncap);
            if (!nb)
                return -2;
            b->chunk = nb;
            b->chunk_cap = ncap;
        }
        SQLLEN ind = 0;
        SQLRETURN rc = SQLGetData(b->stmt, col, c->c_type, b->chunk + have,
                                  (SQLLEN)(CHUNK_LEN + term), &ind);
        if (rc == SQL_NO_DATA)
            return (long)have;
        if (!SQL_SUCCEEDED(rc)) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLGetData");
            return -2;
        }
        if (ind == SQL_NULL_DATA)
            return -1;
        if (rc == SQL_SUCCESS_WITH_INFO &&
            (ind == SQL_NO_TOTAL || (size_t)ind > CHUNK_LEN)) {
            have += CHUNK_LEN;   /* truncated chunk: more to come */
            if (term == 2)       /* UTF-16: keep whole code units */
                have -= CHUNK_LEN % 2;
            if (iter > 100000)
                return -2;
            continue;
        }
        return (long)(have + (size_t)ind);
    }
}

static int fetch_getdata(bench *b, uint64_t max_rows)
{
    union { SQLINTEGER i; SQLBIGINT bi; double d; SQL_TIMESTAMP_STRUCT ts;
            char dec[64]; } v;
    for (;;) {
        SQLRETURN rc = SQLFetch(b->stmt);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc)) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLFetch");
            return -1;
        }
        for (SQLSMALLINT i = 0; i < b->ncols; i++) {
            bench_col *c = &b->cols[i];
            SQLUSMALLINT col = (SQLUSMALLINT)(i + 1);
            if (c->kind == K_TEXT || c->kind == K_BINARY) {
                long n = getdata_long(b, col, c);
                if (n == -2)
                    return -1;
                if (!b->hash)
                    continue;
                double t0 = now_s();
                if (n < 0)
                    hash_null(b);
                else
                    hash_value(b, b->chunk, (size_t)n);
                b->hash_s += now_s() - t0;
                continue;
            }
            SQLLEN ind = 0;
            rc = SQLGetData(b->stmt, col, c->c_type, &v, (SQLLEN)c->elem_len,
                            &ind);
            if (!SQL_SUCCEEDED(rc)) {
                take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLGetData");
                return -1;
            }
            if (!b->hash)
                continue;
            double t0 = now_s();
            if (ind == SQL_NULL_DATA) {
                hash_null(b);
            } else {
                size_t n = 0;
                if (c->kind == K_DECIMAL)
                    n = strnlen(v.dec, sizeof v.dec - 1);
                hash_typed(b, c, &v, n);
            }
            b->hash_s += now_s() - t0;
        }
        if (b->hash)
            row_end(b);
        b->rows++;
        if (max_rows && b->rows >= max_rows)
            break;
    }
    return 0;
}

static int fetch_all(bench *b, uint64_t max_rows)
{
    if (!b->cols && describe(b) != 0)
        return -1;
    return b->style == STYLE_ARRAY ? fetch_array(b, max_rows)
                                   : fetch_getdata(b, max_rows);
}

/* ------------------------------------------------------------ workloads */

static int do_connect(bench *b)
{
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &b->env)))
        return -1;
    SQLSetEnvAttr(b->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, b->env, &b->dbc))) {
        take_diag(b, SQL_HANDLE_ENV, b->env, "SQLAllocHandle(DBC)");
        return -1;
    }
    SQLCHAR out[1024];
    SQLSMALLINT outlen;
    if (!SQL_SUCCEEDED(SQLDriverConnect(b->dbc, NULL, (SQLCHAR *)b->conn, SQL_NTS,
                                        out, sizeof out, &outlen,
                                        SQL_DRIVER_NOPROMPT))) {
        take_diag(b, SQL_HANDLE_DBC, b->dbc, "SQLDriverConnect");
        return -1;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, b->dbc, &b->stmt))) {
        take_diag(b, SQL_HANDLE_DBC, b->dbc, "SQLAllocHandle(STMT)");
        return -1;
    }
    return 0;
}

static void do_disconnect(bench *b)
{
    if (b->stmt)
        SQLFreeHandle(SQL_HANDLE_STMT, b->stmt);
    if (b->dbc) {
        SQLDisconnect(b->dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, b->dbc);
    }
    if (b->env)
        SQLFreeHandle(SQL_HANDLE_ENV, b->env);
    b->stmt = b->dbc = b->env = SQL_NULL_HANDLE;
}

/* Returns 0 ok, 1 error, 3 unsupported. */
static int run_scan(bench *b)
{
    SQLRETURN rc = SQLExecDirect(b->stmt, (SQLCHAR *)b->sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLExecDirect");
        return is_unsupported_state(b->sqlstate) ? 3 : 1;
    }
    return fetch_all(b, 0) == 0 ? 0 : 1;
}

static uint64_t next_key(uint64_t *s, long key_max)
{
    /* splitmix64: the same key sequence for every driver */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return 1 + z % (uint64_t)key_max;
}

/* --text-keys: run that query once and keep its first column's values
 * (at most 1,000,000, each under 256 bytes) as the lookup keys. */
static int load_text_keys(bench *b)
{
    if (!SQL_SUCCEEDED(SQLExecDirect(b->stmt, (SQLCHAR *)b->text_keys,
                                     SQL_NTS))) {
        take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLExecDirect(--text-keys)");
        return -1;
    }
    long cap = 0;
    char val[256];
    SQLLEN ind;
    while (b->nkeys < 1000000 && SQL_SUCCEEDED(SQLFetch(b->stmt))) {
        if (!SQL_SUCCEEDED(SQLGetData(b->stmt, 1, SQL_C_CHAR, val, sizeof val,
                                      &ind)) || ind < 0)
            continue;
        if (b->nkeys == cap) {
            cap = cap ? 2 * cap : 1024;
            char **nk = realloc(b->keys, (size_t)cap * sizeof *nk);
            if (!nk)
                return -1;
            b->keys = nk;
        }
        if (!(b->keys[b->nkeys] = strdup(val)))
            return -1;
        b->nkeys++;
    }
    SQLFreeStmt(b->stmt, SQL_CLOSE);
    if (b->nkeys == 0) {
        snprintf(b->sqlstate, sizeof b->sqlstate, "BENCH");
        snprintf(b->msg, sizeof b->msg, "--text-keys returned no keys");
        return -1;
    }
    return 0;
}

/* The next text key (when --text-keys) as a drawn index into b->keys. */
static const char *next_text_key(bench *b, uint64_t *s)
{
    return b->keys[(next_key(s, b->nkeys) - 1)];
}

/* --inline-params: the key written into the statement text in place of
 * the '?' and run with SQLExecDirect (drivers without parameters). */
static int run_lookups_inline(bench *b)
{
    uint64_t s = b->seed;
    const char *q = strchr(b->sql, '?');
    size_t len = strlen(b->sql) + 24 + 2 * 256;
    char *text = malloc(len);
    if (!q || !text) {
        free(text);
        snprintf(b->sqlstate, sizeof b->sqlstate, "BENCH");
        snprintf(b->msg, sizeof b->msg, "--inline-params needs one '?'");
        return 1;
    }
    int ret = 0;
    for (long i = 0; i < b->lookups && ret == 0; i++) {
        if (b->text_keys) {   /* 'key' with quotes doubled */
            const char *k = next_text_key(b, &s);
            size_t o = (size_t)(q - b->sql);
            memcpy(text, b->sql, o);
            text[o++] = '\'';
            for (; *k; k++) {
                if (*k == '\'')
                    text[o++] = '\'';
                text[o++] = *k;
            }
            text[o++] = '\'';
            snprintf(text + o, len - o, "%s", q + 1);
        } else {
            uint64_t key = next_key(&s, b->key_max);
            snprintf(text, len, "%.*s%" PRIu64 "%s", (int)(q - b->sql), b->sql,
                     key, q + 1);
        }
        SQLRETURN rc = SQLExecDirect(b->stmt, (SQLCHAR *)text, SQL_NTS);
        if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLExecDirect");
            ret = (i == 0 && is_unsupported_state(b->sqlstate)) ? 3 : 1;
            break;
        }
        if (fetch_all(b, 0) != 0)
            ret = 1;
        SQLFreeStmt(b->stmt, SQL_CLOSE);
    }
    free(text);
    return ret;
}

static int run_lookups(bench *b)
{
    SQLINTEGER key = 0;
    SQLLEN key_ind = 0;
    uint64_t s = b->seed;
    char tkey[256];
    SQLLEN tkey_ind = SQL_NTS;
    if (b->text_keys && !b->nkeys && load_text_keys(b) != 0)
        return 1;
    if (b->inline_params)
        return run_lookups_inline(b);
    if (!SQL_SUCCEEDED(SQLPrepare(b->stmt, (SQLCHAR *)b->sql, SQL_NTS))) {
        take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLPrepare");
        return is_unsupported_state(b->sqlstate) ? 3 : 1;
    }
    SQLRETURN brc = b->text_keys ?
        SQLBindParameter(b->stmt, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                         255, 0, tkey, sizeof tkey, &tkey_ind) :
        SQLBindParameter(b->stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &key, 0, &key_ind);
    if (!SQL_SUCCEEDED(brc)) {
        take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLBindParameter");
        return 3;
    }
    for (long i = 0; i < b->lookups; i++) {
        if (b->text_keys) {
            /* a plain copy (keys are < 256 bytes): the loop measures
             * the driver, not snprintf */
            const char *k = next_text_key(b, &s);
            memcpy(tkey, k, strlen(k) + 1);
        } else
            key = (SQLINTEGER)next_key(&s, b->key_max);
        SQLRETURN rc = SQLExecute(b->stmt);
        if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
            take_diag(b, SQL_HANDLE_STMT, b->stmt, "SQLExecute");
            return (i == 0 && is_unsupported_state(b->sqlstate)) ? 3 : 1;
        }
        if (fetch_all(b, 0) != 0)
            return 1;
        SQLFreeStmt(b->stmt, SQL_CLOSE);
    }
    return 0;
}

/* ------------------------------------------------------------ main */

static long parse_long(const char *s, const char *opt)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0)
        die_usage(opt);
    return v;
}

int main(int argc, char **argv)
{
    const char *preload = NULL;
    double preload_s = -1;
    bench b;
    memset(&b, 0, sizeof b);
    b.style = STYLE_ARRAY;
    b.hash = true;
    b.array_size = 1000;
    b.long_buf = DEFAULT_LONG_BUF;
    b.seed = 20260101;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--connect-first-row")) {
            b.connect_first_row = true;
            continue;
        }
        if (!strcmp(a, "--inline-params")) {
            b.inline_params = true;
            continue;
        }
        if (!strcmp(a, "--unordered")) {
            b.unordered = true;
            continue;
        }
        if (!v)
            die_usage(a);
        i++;
        if (!strcmp(a, "--conn")) b.conn = v;
        else if (!strcmp(a, "--sql")) b.sql = v;
        else if (!strcmp(a, "--evict")) b.evict = v;
        else if (!strcmp(a, "--label")) b.label = v;
        else if (!strcmp(a, "--preload")) preload = v;
        else if (!strcmp(a, "--render-out")) {
            render_out = fopen(v, "w");
            if (!render_out)
                die_usage("cannot write --render-out file");
        }
        else if (!strcmp(a, "--style")) {
            if (!strcmp(v, "array")) b.style = STYLE_ARRAY;
            else if (!strcmp(v, "getdata")) b.style = STYLE_GETDATA;
            else die_usage("--style is array or getdata");
        } else if (!strcmp(a, "--ctype")) {
            if (!strcmp(v, "typed")) b.ctype = CTYPE_TYPED;
            else if (!strcmp(v, "char")) b.ctype = CTYPE_CHAR;
            else if (!strcmp(v, "wchar")) b.ctype = CTYPE_WCHAR;
            else die_usage("--ctype is typed, char or wchar");
        } else if (!strcmp(a, "--hash")) {
            b.hash = strcmp(v, "off") != 0;
        } else if (!strcmp(a, "--lookups")) b.lookups = parse_long(v, a);
        else if (!strcmp(a, "--key-max")) b.key_max = parse_long(v, a);
        else if (!strcmp(a, "--seed")) b.seed = (uint64_t)parse_long(v, a);
        else if (!strcmp(a, "--array-size")) b.array_size = parse_long(v, a);
        else if (!strcmp(a, "--long-buf")) b.long_buf = parse_long(v, a);
        else if (!strcmp(a, "--connect-loops")) b.connect_loops = parse_long(v, a);
        else if (!strcmp(a, "--text-keys")) b.text_keys = v;
        else die_usage(a);
    }
    if (!b.conn || !b.sql)
        die_usage("--conn and --sql are required");
    if (b.lookups && b.key_max < 1 && !b.text_keys)
        die_usage("--lookups needs --key-max");
    if (b.array_size < 1 || b.long_buf < 64)
        die_usage("bad --array-size or --long-buf");

    for (int i = 0; i < 2; i++) {
        hash_sink *k = &b.sink[i];
        sha256_init(&k->md);
        k->cap = 1 << 16;
        k->buf = malloc(k->cap);
        if (!k->buf) {
            fprintf(stderr, "odbcbench: out of memory\n");
            return 1;
        }
    }

    evict_info ei;
    bool evicted = false;
    if (b.evict) {
        evict_file(b.evict, &ei);
        evicted = true;
    }

    if (preload) {   /* map the driver first: connect then excludes dlopen */
        double p0 = now_s();
        if (!dlopen(preload, RTLD_NOW | RTLD_LOCAL))
            die_usage("--preload: dlopen failed");
        preload_s = now_s() - p0;
    }
    const char *workload = b.connect_first_row ? "connect-first-row" :
                           b.lookups ? "lookups" : "scan";
    int status = 0;
    double t_start = now_s(), t_conn = 0, t_end = 0, warm_med = -1;
    double c_conn = 0, c_end = 0;

    if (b.connect_first_row) {
        if (do_connect(&b) != 0) {
            status = 1;
        } else {
            t_conn = now_s();
            SQLRETURN rc = SQLExecDirect(b.stmt, (SQLCHAR *)b.sql, SQL_NTS);
            if (!SQL_SUCCEEDED(rc)) {
                take_diag(&b, SQL_HANDLE_STMT, b.stmt, "SQLExecDirect");
                status = is_unsupported_state(b.sqlstate) ? 3 : 1;
            } else {
                bench_style keep = b.style;
                b.style = STYLE_GETDATA;   /* one row: no arrays */
                status = fetch_all(&b, 1) == 0 ? 0 : 1;
                b.style = keep;
            }
        }
        t_end = now_s();
        do_disconnect(&b);
        free_cols(&b);
        /* warm repeats: the driver manager may keep the library loaded */
        if (status == 0 && b.connect_loops > 0) {
            double *t = calloc((size_t)b.connect_loops, sizeof *t);
            bool hash = b.hash;
            b.hash = false;
            for (long k = 0; t && k < b.connect_loops && status == 0; k++) {
                double s0 = now_s();
                if (do_connect(&b) != 0 ||
                    !SQL_SUCCEEDED(SQLExecDirect(b.stmt, (SQLCHAR *)b.sql,
                                                 SQL_NTS))) {
                    status = 1;
                } else {
                    b.style = STYLE_GETDATA;
                    status = fetch_all(&b, 1) == 0 ? 0 : 1;
                }
                t[k] = now_s() - s0;
                do_disconnect(&b);
                free_cols(&b);
                b.rows = 1;
            }
            if (t && status == 0) {
                for (long x = 1; x < b.connect_loops; x++)   /* insertion sort */
                    for (long y = x; y > 0 && t[y] < t[y - 1]; y--) {
                        double tmp = t[y]; t[y] = t[y - 1]; t[y - 1] = tmp;
                    }
                warm_med = t[b.connect_loops / 2];
            }
            free(t);
            b.hash = hash;
        }
    } else {
        if (do_connect(&b) != 0) {
            status = 1;
        } else {
            /* --text-keys: the keys are read before the clock starts
             * (a scan of the key column is not part of the lookups) */
            status = b.lookups && b.text_keys && load_text_keys(&b) != 0;
            t_conn = now_s();
            c_conn = cpu_s();
            if (status == 0)
                status = b.lookups ? run_lookups(&b) : run_scan(&b);
        }
        t_end = now_s();
        c_end = cpu_s();
        do_disconnect(&b);
    }
    long rss = peak_rss_kb();

    char hex[2][65] = { "", "" };
    for (int i = 0; i < 2 && b.hash && status == 0; i++) {
        hash_sink *k = &b.sink[i];
        unsigned char d[32];
        if (k->len)
            sha256_update(&k->md, k->buf, k->len);
        if (b.unordered) {   /* row order ignored: hash the sorted row digests */
            qsort(k->rowdig, k->nrows, 32, cmp_digest);
            sha256_init(&k->md);
            sha256_update(&k->md, k->rowdig, 32 * k->nrows);
        }
        sha256_final(&k->md, d);
        for (unsigned int x = 0; x < 32; x++)
            snprintf(hex[i] + 2 * x, 3, "%02x", d[x]);
    }

    double wall = (t_conn > 0 ? t_end - t_conn : 0);
    double total = t_end - t_start;
    const char *st = status == 0 ? "ok" : status == 3 ? "unsupported" : "error";
    printf("{\"status\":\"%s\",\"workload\":\"%s\",\"style\":\"%s\"", st, workload,
           b.style == STYLE_ARRAY && !b.connect_first_row ? "array" : "getdata");
    if (b.ctype != CTYPE_TYPED)
        printf(",\"ctype\":\"%s\"", b.ctype == CTYPE_CHAR ? "char" : "wchar");
    if (b.label) {
        printf(",\"label\":\"");
        json_str(stdout, b.label);
        printf("\"");
    }
    printf(",\"rows\":%" PRIu64 ",\"connect_s\":%.6f,\"wall_s\":%.6f,"
           "\"total_s\":%.6f,\"rows_per_s\":%.1f,\"peak_rss_kb\":%ld",
           b.rows, t_conn > 0 ? t_conn - t_start : total, wall, total,
           wall > 0 ? (double)b.rows / wall : 0.0, rss);
    if (c_end > 0)
        printf(",\"cpu_s\":%.6f", c_end - c_conn);
    if (b.connect_first_row)
        printf(",\"first_row_s\":%.6f", total);
    if (preload_s >= 0)
        printf(",\"preload_s\":%.6f", preload_s);
    if (warm_med >= 0)
        printf(",\"first_row_warm_s\":%.6f", warm_med);
    if (b.style == STYLE_ARRAY && !b.connect_first_row)
        printf(",\"array_size\":%lu", (unsigned long)b.array_effective);
    if (b.hash)
        printf(",\"sha256\":\"%s\",\"sha256_d15\":\"%s\",\"hash_s\":%.6f",
               hex[0], hex[1], b.hash_s);
    if (b.truncated)
        printf(",\"truncated\":%" PRIu64, b.truncated);
    if (evicted)
        printf(",\"evict\":{\"rc\":%d,\"pages\":%ld,\"resident_before\":%ld,"
               "\"resident_after\":%ld}", ei.rc, ei.pages, ei.before, ei.after);
    if (status != 0) {
        printf(",\"sqlstate\":\"");
        json_str(stdout, b.sqlstate);
        printf("\",\"msg\":\"");
        json_str(stdout, b.msg);
        printf("\"");
    }
    printf("}\n");
    fflush(stdout);

    if (render_out)
        fclose(render_out);
    free_cols(&b);
    free(b.chunk);
    for (long i = 0; i < b.nkeys; i++)
        free(b.keys[i]);
    free(b.keys);
    for (int i = 0; i < 2; i++) {
        free(b.sink[i].buf);
        free(b.sink[i].rowdig);
    }
    return status;
}
