/*
 * jetdump.c - dump a database's user tables as canonical JSON, through the
 * core API only (no ODBC): the core reader's yardstick.
 *
 *   jetdump FILE [--password P] [--table NAME]
 *
 * Output follows ../shared/fixtures/expected/INDEX.md (compare it with
 * `odbc_dump.py compare EXPECTED.json ACTUAL.json`):
 *   {"file", "tables": [{"name", "columns": [{"name", "type", ...}],
 *    "row_count", "rows": [[...], ...]}], "linked_tables": [...]}
 * Tables are the catalog's JET_OBJ_TABLE entries not named MSys*, ordered by
 * name case-insensitively. Values: doubles as Python repr(), MONEY with 4
 * decimals, NUMERIC exact, dates "YYYY-MM-DD HH:MM:SS[.mmm]", Date/Time
 * Extended with 7 fractional digits, GUID braced uppercase, BINARY/OLE
 * {"hex"} up to 4096 bytes else {"sha256", "length"}.
 * A table that fails is written {"name", "error"}; errors also go to stderr
 * and make the exit status 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "jet.h"

#define BLOB_INLINE_MAX 4096

/* Growable scratch for text conversion, reused for every value. */
static char *text_buf;
static size_t text_cap;

__attribute__((noreturn)) static void die(const char *what)
{
    fprintf(stderr, "jetdump: %s\n", what);
    exit(1);
}

/* ------------------------------------------------------------ JSON out */

static void put_json_bytes(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        case '\b':
            fputs("\\b", f);
            break;
        case '\f':
            fputs("\\f", f);
            break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
    }
    fputc('"', f);
}

static void put_json_str(FILE *f, const char *s)
{
    if (!s)
        fputs("null", f);
    else
        put_json_bytes(f, s, strlen(s));
}

/*
 * A double as Python repr(): the shortest digits that read back to the
 * same double; fixed notation when the decimal exponent is in [-4, 16),
 * always with a fraction (".0"), else d[.ddd]e+XX with at least 2 exponent
 * digits.
 */
static void put_double(FILE *f, double d)
{
    if (isnan(d)) {
        fputs("\"NaN\"", f);
        return;
    }
    if (isinf(d)) {
        fputs(d > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
        return;
    }
    char e[48];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, d);
        if (strtod(e, NULL) == d)
            break;
    }
    /* e is [-]D[.DDD]e(+|-)XX */
    const char *p = e;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    char digits[24];
    size_t nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && nd < sizeof digits - 1)
            digits[nd++] = *p;
    int exp10 = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';

    char out[64];
    size_t n = 0;
    if (neg)
        out[n++] = '-';
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 >= 0) {
            for (int i = 0; i <= exp10; i++)
                out[n++] = (size_t)i < nd ? digits[i] : '0';
            out[n++] = '.';
            if ((size_t)exp10 + 1 < nd)
                for (size_t i = (size_t)exp10 + 1; i < nd; i++)
                    out[n++] = digits[i];
            else
                out[n++] = '0';
        } else {
            out[n++] = '0';
            out[n++] = '.';
            for (int i = 0; i < -exp10 - 1; i++)
                out[n++] = '0';
            for (size_t i = 0; i < nd; i++)
                out[n++] = digits[i];
        }
        out[n] = '\0';
    } else {
        out[n++] = digits[0];
        if (nd > 1) {
            out[n++] = '.';
            for (size_t i = 1; i < nd; i++)
                out[n++] = digits[i];
        }
        snprintf(out + n, sizeof out - n, "e%c%02d", exp10 < 0 ? '-' : '+',
                 exp10 < 0 ? -exp10 : exp10);
    }
    fputs(out, f);
}

static void put_bytes(FILE *f, const uint8_t *data, size_t len)
{
    if (len <= BLOB_INLINE_MAX) {
        fputs("{\"hex\": \"", f);
        for (size_t i = 0; i < len; i++)
            fprintf(f, "%02x", data[i]);
        fputs("\"}", f);
        return;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL))
        die("sha256 failed");
    fputs("{\"sha256\": \"", f);
    for (unsigned i = 0; i < mdlen; i++)
        fprintf(f, "%02x", md[i]);
    fprintf(f, "\", \"length\": %zu}", len);
}

/* ------------------------------------------------------------- types */

static const char *known_type_name(jet_type t)
{
    switch (t) {
    case JET_T_BOOL: return "BOOLEAN";
    case JET_T_BYTE: return "BYTE";
    case JET_T_INT: return "INT";
    case JET_T_LONG: return "LONG";
    case JET_T_MONEY: return "MONEY";
    case JET_T_FLOAT: return "FLOAT";
    case JET_T_DOUBLE: return "DOUBLE";
    case JET_T_DATETIME: return "SHORT_DATE_TIME";
    case JET_T_BINARY: return "BINARY";
    case JET_T_TEXT: return "TEXT";
    case JET_T_OLE: return "OLE";
    case JET_T_MEMO: return "MEMO";
    case JET_T_UNKNOWN_0D: return "UNKNOWN_0D";
    case JET_T_GUID: return "GUID";
    case JET_T_NUMERIC: return "NUMERIC";
    case JET_T_UNKNOWN_11: return "UNKNOWN_11";
    case JET_T_COMPLEX: return "COMPLEX_TYPE";
    case JET_T_BIGINT: return "BIG_INT";
    case JET_T_EXT_DATETIME: return "EXT_DATE_TIME";
    case JET_T_UNKNOWN_0E: break;
    }
    return NULL;
}

/* Jackcess DataType name of a column (unknown codes by storage kind). */
static const char *column_type_name(const jet_column *c)
{
    const char *n = known_type_name(c->result_type);
    if (n)
        return n;
    return (c->flags & JET_COL_FIXED) ? "UNSUPPORTED_FIXEDLEN"
                                      : "UNSUPPORTED_VARLEN";
}

/* ------------------------------------------------------------- values */

static void put_timestamp(FILE *f, const jet_timestamp *ts, int frac_digits)
{
    fprintf(f, "\"%04d-%02u-%02u %02u:%02u:%02u", ts->year, ts->month,
            ts->day, ts->hour, ts->minute, ts->second);
    if (frac_digits == 7)
        fprintf(f, ".%07u", (unsigned)(ts->fraction_ns / 100));
    else if (ts->fraction_ns / 1000000 != 0)
        fprintf(f, ".%03u", (unsigned)(ts->fraction_ns / 1000000));
    fputc('"', f);
}

/* Write one value; returns rc < 0 (and a message in err) on failure. */
static jet_rc put_value(FILE *f, const jet_db *db, const jet_column *col,
                        const jet_value *v, char *err, size_t errcap)
{
    char num[64];
    jet_timestamp ts;
    jet_rc rc;

    if (v->is_null) {
        fputs("null", f);
        return JET_OK;
    }
    switch (v->type) {
    case JET_T_BOOL:
        fputs(v->u.b ? "true" : "false", f);
        break;
    case JET_T_BYTE:
    case JET_T_INT:
    case JET_T_LONG:
    case JET_T_BIGINT:
    case JET_T_COMPLEX:
        fprintf(f, "%lld", (long long)v->u.i);
        break;
    case JET_T_MONEY:
        jet_money_format(v->u.money, num, sizeof num);
        put_json_str(f, num);
        break;
    case JET_T_FLOAT:
        put_double(f, (double)v->u.f);
        break;
    case JET_T_DOUBLE:
        put_double(f, v->u.d);
        break;
    case JET_T_DATETIME:
        rc = jet_datetime_split(v->u.d, &ts);
        if (rc != JET_OK) {
            snprintf(err, errcap, "column %s: date %.17g out of range",
                     col->name, v->u.d);
            return rc;
        }
        put_timestamp(f, &ts, 3);
        break;
    case JET_T_EXT_DATETIME:
        rc = jet_ext_datetime_split(v, &ts);
        if (rc != JET_OK) {
            snprintf(err, errcap, "column %s: damaged Date/Time Extended",
                     col->name);
            return rc;
        }
        put_timestamp(f, &ts, 7);
        break;
    case JET_T_NUMERIC:
        jet_numeric_format(v, num, sizeof num);
        put_json_str(f, num);
        break;
    case JET_T_GUID: {
        const uint8_t *g = v->u.guid;
        fprintf(f,
                "\"{%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-"
                "%02X%02X%02X%02X%02X%02X}\"",
                g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9],
                g[10], g[11], g[12], g[13], g[14], g[15]);
        break;
    }
    case JET_T_BINARY:
    case JET_T_OLE:
        put_bytes(f, v->data, v->len);
        break;
    case JET_T_TEXT:
    case JET_T_MEMO: {
        size_t n = 0;
        rc = jet_text_to_utf8(db, v, text_buf, text_cap, &n);
        if (rc == JET_OK && n > text_cap) {
            size_t cap = n + n / 2 + 64;
            char *nb = realloc(text_buf, cap);
            if (!nb)
                die("out of memory");
            text_buf = nb;
            text_cap = cap;
            rc = jet_text_to_utf8(db, v, text_buf, text_cap, &n);
        }
        if (rc != JET_OK) {
            snprintf(err, errcap, "column %s: text conversion: %s",
                     col->name, jet_rc_str(rc));
            return rc;
        }
        put_json_bytes(f, text_buf, n);
        break;
    }
    default:
        fprintf(f, "{\"unsupported\": \"%s\"}", column_type_name(col));
        break;
    }
    return JET_OK;
}

/* ------------------------------------------------------------- tables */

static void format_error(char *buf, size_t cap, const char *what,
                         jet_rc rc, const jet_error *e)
{
    if (e && e->rc == rc && e->msg[0]) {
        if (e->pgno != UINT32_MAX)
            snprintf(buf, cap, "%s: %s: %s (page %u)", what, jet_rc_str(rc),
                     e->msg, (unsigned)e->pgno);
        else
            snprintf(buf, cap, "%s: %s: %s", what, jet_rc_str(rc), e->msg);
    } else {
        snprintf(buf, cap, "%s: %s", what, jet_rc_str(rc));
    }
}

/* Dump one table's JSON object into f; on failure fills err and returns
 * rc < 0 (the caller then writes an error object instead). */
static jet_rc dump_table(FILE *f, jet_db *db, const jet_object *obj,
                         char *err, size_t errcap)
{
    const jet_tdef *td = NULL;
    jet_rc rc = jet_tdef_load(&td, db, obj);
    if (rc != JET_OK) {
        format_error(err, errcap, "table definition", rc, jet_db_error(db));
        return rc;
    }
    fputs("{\"name\": ", f);
    put_json_str(f, obj->name);
    fputs(", \"columns\": [", f);
    for (uint16_t c = 0; c < td->ncols; c++) {
        const jet_column *col = &td->cols[c];
        fputs(c ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        put_json_str(f, col->name);
        fprintf(f,
                ", \"type\": \"%s\", \"length\": %u, \"precision\": %u, "
                "\"scale\": %u, \"calculated\": %s}",
                column_type_name(col), col->length, col->precision,
                col->scale,
                (col->flags & JET_COL_CALCULATED) ? "true" : "false");
    }
    fputs("],\n  \"rows\": [", f);

    jet_scan *scan = NULL;
    rc = jet_scan_open(&scan, db, td, NULL);
    if (rc != JET_OK) {
        format_error(err, errcap, "scan open", rc, jet_db_error(db));
        return rc;
    }
    size_t nrows = 0;
    while ((rc = jet_scan_next(scan)) == JET_OK) {
        fputs(nrows ? ",\n   [" : "\n   [", f);
        for (uint16_t c = 0; c < td->ncols; c++) {
            const jet_column *col = &td->cols[c];
            jet_value v;
            memset(&v, 0, sizeof v);
            if (c)
                fputs(", ", f);
            rc = jet_scan_value(scan, c, &v);
            if (rc == JET_EUNSUPPORTED && !known_type_name(col->result_type)) {
                fprintf(f, "{\"unsupported\": \"%s\"}", column_type_name(col));
                continue;
            }
            if (rc != JET_OK) {
                char what[300];
                snprintf(what, sizeof what, "row %zu column %s", nrows,
                         col->name);
                format_error(err, errcap, what, rc, jet_scan_error(scan));
                jet_scan_close(scan);
                return rc;
            }
            if (!v.is_null && !known_type_name(col->result_type)) {
                fprintf(f, "{\"unsupported\": \"%s\"}", column_type_name(col));
                continue;
            }
            rc = put_value(f, db, col, &v, err, errcap);
            if (rc != JET_OK) {
                jet_scan_close(scan);
                return rc;
            }
        }
        fputc(']', f);
        nrows++;
    }
    if (rc != JET_DONE) {
        format_error(err, errcap, "scan", rc, jet_scan_error(scan));
        jet_scan_close(scan);
        return rc;
    }
    jet_scan_close(scan);
    fprintf(f, "],\n  \"row_count\": %zu}", nrows);
    return JET_OK;
}

static int cmp_objects(const void *a, const void *b)
{
    const jet_object *x = *(const jet_object *const *)a;
    const jet_object *y = *(const jet_object *const *)b;
    return strcasecmp(x->name, y->name);
}

static void usage(void)
{
    fputs("usage: jetdump FILE [--password P] [--table NAME]\n", stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *path = NULL, *password = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--password") && i + 1 < argc)
            password = argv[++i];
        else if (!strcmp(argv[i], "--table") && i + 1 < argc)
            only = argv[++i];
        else if (argv[i][0] == '-' || path)
            usage();
        else
            path = argv[i];
    }
    if (!path)
        usage();

    jet_open_options opts;
    memset(&opts, 0, sizeof opts);
    opts.password = password;
    jet_error e;
    memset(&e, 0, sizeof e);
    jet_db *db = NULL;
    jet_rc rc = jet_db_open(&db, path, &opts, &e);
    if (rc != JET_OK) {
        char msg[512];
        format_error(msg, sizeof msg, path, rc, &e);
        die(msg);
    }

    size_t count = jet_catalog_count(db);
    const jet_object **tables = calloc(count ? count : 1, sizeof *tables);
    const jet_object **links = calloc(count ? count : 1, sizeof *links);
    if (!tables || !links)
        die("out of memory");
    size_t nt = 0, nl = 0;
    for (size_t i = 0; i < count; i++) {
        const jet_object *o = jet_catalog_at(db, i);
        if (!o || !o->name)
            continue;
        if (only && strcasecmp(o->name, only) != 0)
            continue;
        if (o->kind == JET_OBJ_TABLE && strncmp(o->name, "MSys", 4) != 0)
            tables[nt++] = o;
        else if (o->kind == JET_OBJ_LINKED_TABLE ||
                 o->kind == JET_OBJ_LINKED_ODBC)
            links[nl++] = o;
    }
    if (only && nt == 0) {
        fprintf(stderr, "jetdump: no user table named %s\n", only);
        jet_db_close(db);
        return 1;
    }
    qsort(tables, nt, sizeof *tables, cmp_objects);
    qsort(links, nl, sizeof *links, cmp_objects);

    int status = 0;
    fputs("{\"file\": ", stdout);
    put_json_str(stdout, path);
    fputs(", \"tables\": [", stdout);
    for (size_t i = 0; i < nt; i++) {
        char *mem = NULL;
        size_t memlen = 0;
        FILE *m = open_memstream(&mem, &memlen);
        if (!m)
            die("out of memory");
        char err[512] = "";
        rc = dump_table(m, db, tables[i], err, sizeof err);
        fclose(m);
        fputs(i ? ",\n " : "\n ", stdout);
        if (rc == JET_OK) {
            fwrite(mem, 1, memlen, stdout);
        } else {
            fputs("{\"name\": ", stdout);
            put_json_str(stdout, tables[i]->name);
            fputs(", \"error\": ", stdout);
            put_json_str(stdout, err);
            fputc('}', stdout);
            fprintf(stderr, "jetdump: table %s: %s\n", tables[i]->name, err);
            status = 1;
        }
        free(mem);
    }
    fputs("],\n \"linked_tables\": [", stdout);
    for (size_t i = 0; i < nl; i++) {
        const jet_object *o = links[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", stdout);
        put_json_str(stdout, o->name);
        fprintf(stdout, ", \"link_type\": \"%s\", \"linked_db\": ",
                o->kind == JET_OBJ_LINKED_ODBC ? "LINKED_ODBC" : "LINKED");
        put_json_str(stdout, o->linked_db);
        fputs(", \"linked_table\": ", stdout);
        put_json_str(stdout, o->linked_name);
        fputs(", \"connection\": ", stdout);
        put_json_str(stdout, o->connect);
        fputc('}', stdout);
    }
    fputs("]}\n", stdout);

    free(tables);
    free(links);
    free(text_buf);
    jet_db_close(db);
    if (fflush(stdout) != 0)
        status = 1;
    return status;
}
