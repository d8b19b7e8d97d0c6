/*
 * windump.c - the yardstick's dumper in C, for Windows and for iODBC.
 *
 * Built with the same mingw-w64 cross compiler as jetodbc.dll and run under
 * Wine by tests/windows/wine.test, it loads an ODBC library with
 * LoadLibrary/GetProcAddress - jetodbc.dll itself (no driver manager), or
 * odbc32.dll (Windows' driver manager). Built on Unix (tests/iodbc), it
 * dlopen()s a driver manager, e.g. iODBC's libiodbc.so.2, whose 4-byte
 * SQLWCHAR pyodbc cannot use. Either way it writes what
 * ../shared/tools/odbc_dump.py writes through pyodbc, so that
 * `odbc_dump.py compare` judges both the same way:
 *
 *   windump LIB dump LISTFILE
 *       LISTFILE: lines "OUT.json<TAB>connection string"; for each, every
 *       table SQLTables lists as TABLE is read with SELECT * FROM [name]
 *       into OUT.json ({"file","tables":[{"name","columns","row_count",
 *       "rows"}]}, or a top-level "error").
 *   windump LIB query OUT.json CONNSTR SQLFILE
 *       SQLFILE: one statement per line; table "sql N" holds the rows of
 *       line N (as odbc_dump.py query --sql names them).
 *
 * Values render as odbc_dump.py renders pyodbc's objects: integers, doubles
 * (17 significant digits: the same double after JSON decoding), DECIMAL
 * text (MONEY/CURRENCY columns to 4 places), timestamps to the millisecond,
 * text as UTF-8 (braced GUIDs upper-cased), binary as {"hex"} up to 4096
 * bytes, else {"sha256","length"} (SHA-256 from CNG). Exit status 0 when
 * every connect worked, 1 otherwise, 2 on usage errors.
 */
#ifdef _WIN32
#include <windows.h>
#include <bcrypt.h>
#define lib_open(name) ((void *)LoadLibraryA(name))
#define lib_sym(lib, name) ((void *)(uintptr_t)GetProcAddress((HMODULE)(lib), name))
#define strcasecmp _stricmp
#else
#include <dlfcn.h>
#include <strings.h>
#include <openssl/evp.h>
#define lib_open(name) dlopen(name, RTLD_NOW | RTLD_LOCAL)
#define lib_sym(lib, name) dlsym(lib, name)
#endif
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#include <stdint.h>

#define BLOB_INLINE_MAX 4096

/* The ODBC functions used, from LIB. */
static struct {
    SQLRETURN(SQL_API *AllocHandle)(SQLSMALLINT, SQLHANDLE, SQLHANDLE *);
    SQLRETURN(SQL_API *FreeHandle)(SQLSMALLINT, SQLHANDLE);
    SQLRETURN(SQL_API *SetEnvAttr)(SQLHENV, SQLINTEGER, SQLPOINTER,
                                   SQLINTEGER);
    SQLRETURN(SQL_API *DriverConnectW)(SQLHDBC, SQLHWND, SQLWCHAR *,
                                       SQLSMALLINT, SQLWCHAR *, SQLSMALLINT,
                                       SQLSMALLINT *, SQLUSMALLINT);
    SQLRETURN(SQL_API *Disconnect)(SQLHDBC);
    SQLRETURN(SQL_API *TablesW)(SQLHSTMT, SQLWCHAR *, SQLSMALLINT,
                                SQLWCHAR *, SQLSMALLINT, SQLWCHAR *,
                                SQLSMALLINT, SQLWCHAR *, SQLSMALLINT);
    SQLRETURN(SQL_API *ExecDirectW)(SQLHSTMT, SQLWCHAR *, SQLINTEGER);
    SQLRETURN(SQL_API *NumResultCols)(SQLHSTMT, SQLSMALLINT *);
    SQLRETURN(SQL_API *DescribeColW)(SQLHSTMT, SQLUSMALLINT, SQLWCHAR *,
                                     SQLSMALLINT, SQLSMALLINT *,
                                     SQLSMALLINT *, SQLULEN *, SQLSMALLINT *,
                                     SQLSMALLINT *);
    SQLRETURN(SQL_API *ColAttributeW)(SQLHSTMT, SQLUSMALLINT, SQLUSMALLINT,
                                      SQLPOINTER, SQLSMALLINT, SQLSMALLINT *,
                                      SQLLEN *);
    SQLRETURN(SQL_API *Fetch)(SQLHSTMT);
    SQLRETURN(SQL_API *GetData)(SQLHSTMT, SQLUSMALLINT, SQLSMALLINT,
                                SQLPOINTER, SQLLEN, SQLLEN *);
    SQLRETURN(SQL_API *FreeStmt)(SQLHSTMT, SQLUSMALLINT);
    SQLRETURN(SQL_API *GetDiagRecW)(SQLSMALLINT, SQLHANDLE, SQLSMALLINT,
                                    SQLWCHAR *, SQLINTEGER *, SQLWCHAR *,
                                    SQLSMALLINT, SQLSMALLINT *);
} odbc;

static int load_odbc(const char *lib)
{
    void *m = lib_open(lib);
    if (!m) {
        fprintf(stderr, "windump: cannot load %s\n", lib);
        return -1;
    }
#define GET(field, name)                                                   \
    do {                                                                   \
        void *p = lib_sym(m, name);                                        \
        if (!p) {                                                          \
            fprintf(stderr, "windump: %s does not export %s\n", lib, name); \
            return -1;                                                     \
        }                                                                  \
        memcpy(&odbc.field, &p, sizeof p);                                 \
    } while (0)
    GET(AllocHandle, "SQLAllocHandle");
    GET(FreeHandle, "SQLFreeHandle");
    GET(SetEnvAttr, "SQLSetEnvAttr");
    GET(DriverConnectW, "SQLDriverConnectW");
    GET(Disconnect, "SQLDisconnect");
    GET(TablesW, "SQLTablesW");
    GET(ExecDirectW, "SQLExecDirectW");
    GET(NumResultCols, "SQLNumResultCols");
    GET(DescribeColW, "SQLDescribeColW");
    GET(ColAttributeW, "SQLColAttributeW");
    GET(Fetch, "SQLFetch");
    GET(GetData, "SQLGetData");
    GET(FreeStmt, "SQLFreeStmt");
    GET(GetDiagRecW, "SQLGetDiagRecW");
#undef GET
    return 0;
}

/* ------------------------------------------------------------ text */

/* A growable byte buffer. */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void buf_add(buf *b, const void *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 256;
        while (c < b->len + n + 1)
            c *= 2;
        b->p = realloc(b->p, c);
        if (!b->p) {
            fputs("windump: out of memory\n", stderr);
            exit(3);
        }
        b->cap = c;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void buf_str(buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

static void buf_fmt(buf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    buf_add(b, tmp, n < 0 ? 0 : (size_t)n);
}

/* SQLWCHAR text (n units: UTF-16, or UTF-32 when SQLWCHAR has 4 bytes)
 * -> UTF-8 appended to b; lone surrogates -> U+FFFD. */
static void buf_utf16(buf *b, const SQLWCHAR *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned long cp = (unsigned long)w[i];
        char o[4];
        size_t k;
        if (sizeof(SQLWCHAR) == 4 && cp > 0x10FFFF) {
            cp = 0xFFFD;
        } else if (sizeof(SQLWCHAR) == 2 && cp >= 0xD800 && cp <= 0xDBFF &&
                   i + 1 < n && w[i + 1] >= 0xDC00 && w[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (w[i + 1] - 0xDC00);
            i++;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        if (cp < 0x80) {
            o[0] = (char)cp, k = 1;
        } else if (cp < 0x800) {
            o[0] = (char)(0xC0 | (cp >> 6));
            o[1] = (char)(0x80 | (cp & 0x3F)), k = 2;
        } else if (cp < 0x10000) {
            o[0] = (char)(0xE0 | (cp >> 12));
            o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            o[2] = (char)(0x80 | (cp & 0x3F)), k = 3;
        } else {
            o[0] = (char)(0xF0 | (cp >> 18));
            o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
            o[3] = (char)(0x80 | (cp & 0x3F)), k = 4;
        }
        buf_add(b, o, k);
    }
}

/* UTF-8 s as a JSON string literal. */
static void json_str(buf *b, const char *s, size_t n)
{
    buf_add(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            buf_add(b, e, 2);
        } else if (c < 0x20) {
            buf_fmt(b, "\\u%04x", c);
        } else {
            buf_add(b, &s[i], 1);
        }
    }
    buf_add(b, "\"", 1);
}

/* UTF-8 (well-formed) -> fresh NUL-terminated SQLWCHAR text. */
static SQLWCHAR *wide(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), k = 0;
    SQLWCHAR *w = malloc((n + 1) * 2 * sizeof *w);
    if (!w)
        exit(3);
    for (size_t i = 0; i < n;) {
        unsigned long cp = u[i];
        int extra = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
        if (extra)
            cp &= 0x3Fu >> extra;
        for (i++; extra-- > 0 && i < n; i++)
            cp = (cp << 6) | (u[i] & 0x3Fu);
        if (sizeof(SQLWCHAR) == 2 && cp >= 0x10000) {
            w[k++] = (SQLWCHAR)(0xD800 + ((cp - 0x10000) >> 10));
            w[k++] = (SQLWCHAR)(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            w[k++] = (SQLWCHAR)cp;
        }
    }
    w[k] = 0;
    return w;
}

/* The first diagnostic of a handle as "[STATE] message". */
static void diag_text(buf *b, SQLSMALLINT type, SQLHANDLE h)
{
    SQLWCHAR state[6], msg[1024];
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    if (!SQL_SUCCEEDED(odbc.GetDiagRecW(type, h, 1, state, &native, msg,
                                        1024, &len))) {
        buf_str(b, "(no diagnostic)");
        return;
    }
    buf_str(b, "[");
    buf_utf16(b, state, 5);
    buf_str(b, "] ");
    buf_utf16(b, msg, (size_t)(len < 1023 ? len : 1023));
}

/* ------------------------------------------------------------ values */

static int is_braced_guid(const char *s, size_t n)
{
    static const char shape[] = "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}";
    if (n != sizeof shape - 1)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (shape[i] == 'X') {
            if (!isxdigit((unsigned char)s[i]))
                return 0;
        } else if (s[i] != shape[i]) {
            return 0;
        }
    }
    return 1;
}

static void sha256_hex(const unsigned char *p, size_t n, char out[65])
{
#ifdef _WIN32
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_HASH_HANDLE h;
    unsigned char d[32];
    memset(d, 0, sizeof d);
    if (BCRYPT_SUCCESS(BCryptOpenAlgorithmProvider(&alg, BCRYPT_SHA256_ALGORITHM,
                                                   NULL, 0))) {
        if (BCRYPT_SUCCESS(BCryptCreateHash(alg, &h, NULL, 0, NULL, 0, 0))) {
            BCryptHashData(h, (PUCHAR)p, (ULONG)n, 0);
            BCryptFinishHash(h, d, 32, 0);
            BCryptDestroyHash(h);
        }
        BCryptCloseAlgorithmProvider(alg, 0);
    }
#else
    unsigned char d[32];
    unsigned int dl = 0;
    memset(d, 0, sizeof d);
    EVP_Digest(p, n, d, &dl, EVP_sha256(), NULL);
#endif
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* Days from 1970-01-01 of a civil date, and back (proleptic Gregorian). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static void civil_from_days(long long z, long long *y, unsigned *m,
                            unsigned *d)
{
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (long long)yoe + era * 400 + (*m <= 2);
}

/* A column of the open result set. */
typedef struct col {
    char name[512];
    char type[128];
    SQLSMALLINT sql_type;
    int money, guid;
} col;

/* Read a long value with SQLGetData in chunks: UTF-16 text (c_type
 * SQL_C_WCHAR) or bytes. Returns 0 with *is_null, or -1 on error. */
static int get_long(SQLHSTMT st, SQLUSMALLINT i, SQLSMALLINT c_type, buf *out,
                    int *is_null)
{
    char chunk[8192];
    *is_null = 0;
    for (;;) {
        SQLLEN ind = 0;
        SQLRETURN rc = odbc.GetData(st, i, c_type, chunk, sizeof chunk, &ind);
        if (rc == SQL_NO_DATA)
            return 0;
        if (!SQL_SUCCEEDED(rc))
            return -1;
        if (ind == SQL_NULL_DATA) {
            *is_null = 1;
            return 0;
        }
        size_t room = c_type == SQL_C_WCHAR ? sizeof chunk - sizeof(SQLWCHAR)
                                            : sizeof chunk;
        size_t got = (ind == SQL_NO_TOTAL || (size_t)ind > room) ? room
                                                                 : (size_t)ind;
        buf_add(out, chunk, got);
        if (rc == SQL_SUCCESS)
            return 0;
    }
}

/* The C type render() reads a column of SQL type t as with one
 * SQLGetData call, and its size; 0 for the types read in chunks
 * (binary, and text or anything else as UTF-16). */
static SQLSMALLINT fixed_c_type(SQLSMALLINT t, SQLLEN *size)
{
    switch (t) {
    case SQL_BIT:
        *size = 1;
        return SQL_C_BIT;
    case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER: case SQL_BIGINT:
        *size = sizeof(long long);
        return SQL_C_SBIGINT;
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
        *size = sizeof(double);
        return SQL_C_DOUBLE;
    case SQL_TYPE_TIMESTAMP:
        *size = sizeof(SQL_TIMESTAMP_STRUCT);
        return SQL_C_TYPE_TIMESTAMP;
    case SQL_TYPE_DATE:
        *size = sizeof(SQL_DATE_STRUCT);
        return SQL_C_TYPE_DATE;
    case SQL_TYPE_TIME:
        *size = sizeof(SQL_TIME_STRUCT);
        return SQL_C_TYPE_TIME;
    default:
        *size = 0;
        return 0;
    }
}

/* Append the JSON of column i of the current row. */
static int render(buf *b, SQLHSTMT st, SQLUSMALLINT i, const col *c)
{
    union {
        unsigned char bit;
        long long ll;
        double d;
        SQL_TIMESTAMP_STRUCT ts;
        SQL_DATE_STRUCT date;
        SQL_TIME_STRUCT time;
    } fx;
    SQLLEN size;
    SQLSMALLINT c_type = fixed_c_type(c->sql_type, &size);
    if (c_type) {
        /* one SQLGetData and the NULL check for every fixed-size type */
        SQLLEN ind = 0;
        memset(&fx, 0, sizeof fx);
        if (!SQL_SUCCEEDED(odbc.GetData(st, i, c_type, &fx, size, &ind)))
            return -1;
        if (ind == SQL_NULL_DATA) {
            buf_str(b, "null");
            return 0;
        }
    }

    switch (c->sql_type) {
    case SQL_BIT:
        buf_str(b, fx.bit ? "true" : "false");
        return 0;
    case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER: case SQL_BIGINT:
        buf_fmt(b, "%lld", fx.ll);
        return 0;
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
        if (isnan(fx.d))
            buf_str(b, "\"NaN\"");
        else if (isinf(fx.d))
            buf_str(b, fx.d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else
            buf_fmt(b, "%.17g", fx.d);
        return 0;
    case SQL_TYPE_TIMESTAMP: {
        const SQL_TIMESTAMP_STRUCT *t = &fx.ts;
        /* pyodbc: microseconds = fraction / 1000; odbc_dump: ms half-up */
        unsigned long us = t->fraction / 1000, ms = (us + 500) / 1000;
        long long y = t->year;
        unsigned mo = t->month, d = t->day;
        long long secs = (long long)t->hour * 3600 + t->minute * 60 + t->second;
        if (ms >= 1000) {
            ms = 0;
            if (++secs == 86400) {
                secs = 0;
                civil_from_days(days_from_civil(y, mo, d) + 1, &y, &mo, &d);
            }
        }
        buf_fmt(b, "\"%04lld-%02u-%02u %02lld:%02lld:%02lld", y, mo, d,
                secs / 3600, secs / 60 % 60, secs % 60);
        if (ms)
            buf_fmt(b, ".%03lu", ms);
        buf_str(b, "\"");
        return 0;
    }
    case SQL_TYPE_DATE:
        buf_fmt(b, "\"%04d-%02u-%02u\"", fx.date.year, fx.date.month,
                fx.date.day);
        return 0;
    case SQL_TYPE_TIME:
        buf_fmt(b, "\"%02u:%02u:%02u\"", fx.time.hour, fx.time.minute,
                fx.time.second);
        return 0;
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY: {
        buf v = { 0 };
        int is_null;
        if (get_long(st, i, SQL_C_BINARY, &v, &is_null) != 0) {
            free(v.p);
            return -1;
        }
        if (is_null) {
            buf_str(b, "null");
        } else if (v.len <= BLOB_INLINE_MAX) {
            buf_str(b, "{\"hex\": \"");
            for (size_t k = 0; k < v.len; k++)
                buf_fmt(b, "%02x", (unsigned char)v.p[k]);
            buf_str(b, "\"}");
        } else {
            char hex[65];
            sha256_hex((const unsigned char *)v.p, v.len, hex);
            buf_fmt(b, "{\"sha256\": \"%s\", \"length\": %llu}", hex,
                    (unsigned long long)v.len);
        }
        free(v.p);
        return 0;
    }
    default: {
        /* text, DECIMAL/NUMERIC, GUID and anything else: as text */
        buf w = { 0 }, u = { 0 };
        int is_null;
        if (get_long(st, i, SQL_C_WCHAR, &w, &is_null) != 0) {
            free(w.p);
            return -1;
        }
        if (is_null) {
            buf_str(b, "null");
            free(w.p);
            return 0;
        }
        buf_utf16(&u, (const SQLWCHAR *)(void *)w.p, w.len / sizeof(SQLWCHAR));
        if (!u.p)
            buf_add(&u, "", 0);
        if (c->sql_type == SQL_DECIMAL || c->sql_type == SQL_NUMERIC) {
            /* as Python's format(Decimal(text), 'f'); MONEY to 4 places */
            buf d = { 0 };
            const char *s = u.p;
            if (*s == '+')
                s++;
            if (*s == '-')
                buf_add(&d, s++, 1);
            if (*s == '.')
                buf_str(&d, "0");
            buf_str(&d, s);
            if (c->money) {
                char *dot = strchr(d.p, '.');
                size_t frac = dot ? strlen(dot + 1) : 0;
                if (!dot)
                    buf_str(&d, ".");
                while (frac++ < 4)
                    buf_str(&d, "0");
            }
            json_str(b, d.p, d.len);
            free(d.p);
        } else if (c->guid || is_braced_guid(u.p, u.len)) {
            for (size_t k = 0; k < u.len; k++)
                u.p[k] = (char)toupper((unsigned char)u.p[k]);
            json_str(b, u.p, u.len);
        } else {
            json_str(b, u.p, u.len);
        }
        free(w.p);
        free(u.p);
        return 0;
    }
    }
}

/* ------------------------------------------------------------ tables */

/* Run sql (UTF-8) and append {"name", "columns", "row_count", "rows"}. */
static void dump_result(buf *b, SQLHDBC dbc, const char *name,
                        const char *sql)
{
    SQLHSTMT st = NULL;
    SQLSMALLINT ncols = 0;
    SQLWCHAR *wsql = wide(sql);
    col *cols = NULL;
    buf rows = { 0 };
    long long nrows = 0;

    buf_str(b, "  {\"name\": ");
    json_str(b, name, strlen(name));
    odbc.AllocHandle(SQL_HANDLE_STMT, dbc, &st);
    if (!SQL_SUCCEEDED(odbc.ExecDirectW(st, wsql, SQL_NTS)) ||
        !SQL_SUCCEEDED(odbc.NumResultCols(st, &ncols)))
        goto fail;
    cols = calloc((size_t)ncols + 1, sizeof *cols);
    buf_str(b, ",\n   \"columns\": [");
    for (SQLSMALLINT i = 1; i <= ncols; i++) {
        col *c = &cols[i - 1];
        SQLWCHAR wname[256], wtype[64];
        SQLSMALLINT nlen = 0, tlen = 0, dec, nul;
        SQLULEN size;
        buf t = { 0 };
        if (!SQL_SUCCEEDED(odbc.DescribeColW(st, (SQLUSMALLINT)i, wname, 256,
                                             &nlen, &c->sql_type, &size,
                                             &dec, &nul)))
            goto fail;
        buf_utf16(&t, wname, (size_t)(nlen < 255 ? nlen : 255));
        snprintf(c->name, sizeof c->name, "%s", t.p ? t.p : "");
        free(t.p);
        memset(&t, 0, sizeof t);
        wtype[0] = 0;
        if (SQL_SUCCEEDED(odbc.ColAttributeW(st, (SQLUSMALLINT)i,
                                             SQL_DESC_TYPE_NAME, wtype,
                                             sizeof wtype, &tlen, NULL)))
            buf_utf16(&t, wtype, (size_t)tlen / sizeof(SQLWCHAR) < 63
                                     ? (size_t)tlen / sizeof(SQLWCHAR) : 63);
        snprintf(c->type, sizeof c->type, "%s", t.p ? t.p : "");
        free(t.p);
        c->money = strstr(c->type, "MONEY") || strstr(c->type, "CURRENCY");
        c->guid = c->sql_type == SQL_GUID || strstr(c->type, "GUID") ||
                  strstr(c->type, "REPLICATION");
        buf_str(b, i > 1 ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_str(b, c->name, strlen(c->name));
        buf_str(b, ", \"type\": ");
        json_str(b, c->type, strlen(c->type));
        buf_fmt(b, ", \"sql_code\": %d}", c->sql_type);
    }
    buf_str(b, "\n   ]");
    for (;;) {
        SQLRETURN rc = odbc.Fetch(st);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc))
            goto fail_rows;
        buf_str(&rows, nrows ? ",\n    [" : "\n    [");
        for (SQLSMALLINT i = 1; i <= ncols; i++) {
            if (i > 1)
                buf_str(&rows, ", ");
            if (render(&rows, st, (SQLUSMALLINT)i, &cols[i - 1]) != 0)
                goto fail_rows;
        }
        buf_str(&rows, "]");
        nrows++;
    }
    buf_fmt(b, ",\n   \"row_count\": %lld,\n   \"rows\": [", nrows);
    if (rows.p)
        buf_str(b, rows.p);
    buf_str(b, nrows ? "\n   ]}" : "]}");
    goto out;
fail_rows:
    /* keep it a valid document: the table becomes an error entry */
    b->len = 0;
    b->p[0] = '\0';
fail:
    {
        buf e = { 0 };
        diag_text(&e, SQL_HANDLE_STMT, st);
        if (b->len == 0) {
            buf_str(b, "  {\"name\": ");
            json_str(b, name, strlen(name));
        } else {
            /* cut back to the name */
            char *cut = strstr(b->p, ",\n   \"columns\"");
            if (cut) {
                *cut = '\0';
                b->len = (size_t)(cut - b->p);
            }
        }
        buf_str(b, ", \"error\": ");
        json_str(b, e.p, e.len);
        buf_str(b, "}");
        free(e.p);
    }
out:
    if (st)
        odbc.FreeHandle(SQL_HANDLE_STMT, st);
    free(cols);
    free(rows.p);
    free(wsql);
}

/* Connect with connstr (UTF-8); NULL handles and err filled on failure. */
static int connect_to(SQLHENV *env, SQLHDBC *dbc, const char *connstr,
                      buf *err)
{
    SQLWCHAR *w = wide(connstr), out[1024];
    SQLSMALLINT olen = 0;
    *env = NULL;
    *dbc = NULL;
    if (!SQL_SUCCEEDED(odbc.AllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env)))
        goto fail;
    odbc.SetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    if (!SQL_SUCCEEDED(odbc.AllocHandle(SQL_HANDLE_DBC, *env, dbc)))
        goto fail;
    if (!SQL_SUCCEEDED(odbc.DriverConnectW(*dbc, NULL, w, SQL_NTS, out, 1024,
                                           &olen, SQL_DRIVER_NOPROMPT))) {
        diag_text(err, SQL_HANDLE_DBC, *dbc);
        goto fail;
    }
    free(w);
    return 0;
fail:
    if (!err->len)
        buf_str(err, "cannot allocate ODBC handles");
    if (*dbc)
        odbc.FreeHandle(SQL_HANDLE_DBC, *dbc);
    if (*env)
        odbc.FreeHandle(SQL_HANDLE_ENV, *env);
    *dbc = *env = NULL;
    free(w);
    return -1;
}

static void disconnect(SQLHENV env, SQLHDBC dbc)
{
    odbc.Disconnect(dbc);
    odbc.FreeHandle(SQL_HANDLE_DBC, dbc);
    odbc.FreeHandle(SQL_HANDLE_ENV, env);
}

static int write_file(const char *path, const buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "windump: cannot write %s\n", path);
        return -1;
    }
    fwrite(b->p, 1, b->len, f);
    fclose(f);
    return 0;
}

/* The header of a dump document. */
static void doc_start(buf *doc, const char *file)
{
    buf_str(doc, "{\n \"file\": ");
    json_str(doc, file, strlen(file));
}

/* Dump every TABLE of connstr into out. */
static int dump_one(const char *out, const char *connstr)
{
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT st = NULL;
    buf doc = { 0 }, err = { 0 };
    char **names = NULL;
    size_t n = 0;
    int rc = 0;

    doc_start(&doc, connstr);
    if (connect_to(&env, &dbc, connstr, &err) != 0) {
        buf_str(&doc, ",\n \"error\": ");
        json_str(&doc, err.p, err.len);
        buf_str(&doc, ",\n \"tables\": []\n}\n");
        write_file(out, &doc);
        free(doc.p);
        free(err.p);
        return 1;
    }
    odbc.AllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLWCHAR *ttype = wide("TABLE");
    if (SQL_SUCCEEDED(odbc.TablesW(st, NULL, 0, NULL, 0, NULL, 0, ttype,
                                   SQL_NTS))) {
        while (SQL_SUCCEEDED(odbc.Fetch(st))) {
            SQLWCHAR name[512], type[64];
            SQLLEN nl = 0, tl = 0;
            buf t = { 0 }, ty = { 0 };
            odbc.GetData(st, 3, SQL_C_WCHAR, name, sizeof name, &nl);
            odbc.GetData(st, 4, SQL_C_WCHAR, type, sizeof type, &tl);
            if (nl <= 0)
                continue;
            buf_utf16(&t, name, (size_t)nl / sizeof(SQLWCHAR));
            if (tl > 0)
                buf_utf16(&ty, type, (size_t)tl / sizeof(SQLWCHAR));
            if (ty.p && strcasecmp(ty.p, "TABLE") != 0) {
                free(t.p);
                free(ty.p);
                continue;
            }
            free(ty.p);
            names = realloc(names, (n + 1) * sizeof *names);
            names[n++] = t.p;
        }
    }
    free(ttype);
    odbc.FreeHandle(SQL_HANDLE_STMT, st);
    buf_str(&doc, ",\n \"tables\": [");
    for (size_t i = 0; i < n; i++) {
        buf sql = { 0 }, tab = { 0 };
        buf_str(&sql, "SELECT * FROM [");
        for (const char *p = names[i]; *p; p++) {
            buf_add(&sql, p, 1);
            if (*p == ']')
                buf_add(&sql, "]", 1);
        }
        buf_str(&sql, "]");
        dump_result(&tab, dbc, names[i], sql.p);
        buf_str(&doc, i ? ",\n" : "\n");
        buf_str(&doc, tab.p);
        free(sql.p);
        free(tab.p);
        free(names[i]);
    }
    buf_str(&doc, "\n ]\n}\n");
    free(names);
    disconnect(env, dbc);
    if (write_file(out, &doc) != 0)
        rc = 1;
    free(doc.p);
    free(err.p);
    return rc;
}

/* Strip a trailing CR/LF. */
static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static int cmd_dump(const char *list)
{
    FILE *f = fopen(list, "rb");
    static char line[8192];
    int rc = 0;
    if (!f) {
        fprintf(stderr, "windump: cannot read %s\n", list);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        chomp(line);
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        if (dump_one(line, tab + 1) != 0)
            rc = 1;
    }
    fclose(f);
    return rc;
}

static int cmd_query(const char *out, const char *connstr, const char *sqlfile)
{
    FILE *f = fopen(sqlfile, "rb");
    static char line[16384];
    SQLHENV env;
    SQLHDBC dbc;
    buf doc = { 0 }, err = { 0 };
    int n = 0;

    if (!f) {
        fprintf(stderr, "windump: cannot read %s\n", sqlfile);
        return 2;
    }
    doc_start(&doc, connstr);
    if (connect_to(&env, &dbc, connstr, &err) != 0) {
        buf_str(&doc, ",\n \"error\": ");
        json_str(&doc, err.p, err.len);
        buf_str(&doc, ",\n \"tables\": []\n}\n");
        write_file(out, &doc);
        fclose(f);
        return 1;
    }
    buf_str(&doc, ",\n \"tables\": [");
    while (fgets(line, sizeof line, f)) {
        char name[32];
        buf tab = { 0 };
        chomp(line);
        if (!line[0])
            continue;
        snprintf(name, sizeof name, "sql %d", ++n);
        dump_result(&tab, dbc, name, line);
        buf_str(&doc, n > 1 ? ",\n" : "\n");
        buf_str(&doc, tab.p);
        free(tab.p);
    }
    fclose(f);
    buf_str(&doc, "\n ]\n}\n");
    disconnect(env, dbc);
    write_file(out, &doc);
    free(doc.p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[2], "dump") == 0) {
        if (load_odbc(argv[1]) != 0)
            return 2;
        return cmd_dump(argv[3]);
    }
    if (argc >= 6 && strcmp(argv[2], "query") == 0) {
        if (load_odbc(argv[1]) != 0)
            return 2;
        return cmd_query(argv[3], argv[4], argv[5]);
    }
    fputs("usage: windump LIB dump LISTFILE\n"
          "       windump LIB query OUT.json CONNSTR SQLFILE\n", stderr);
    return 2;
}
