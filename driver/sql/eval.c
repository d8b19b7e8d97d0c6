/*
 * eval.c - values of the query engine: comparison, text folding, LIKE,
 * date literals, scalar functions and the expression evaluator.
 *
 * Text is UTF-16 (as Access counts characters). Case-insensitive
 * comparison folds each code point with core's jet_text_fold()
 * (towlower of the C.UTF-8 locale: glibc tables, not a hand-written
 * one); accents stay significant. Dates are Jet days (double since
 * 1899-12-30, the fraction's absolute value the time of day) compared
 * through a millisecond key that orders them chronologically. MONEY is
 * compared as integer units of 1/10000, never through double.
 * Nothing here allocates per row from the heap: intermediate text goes
 * to the cursor's per-row scratch, whose chunks are reused.
 */
#define _GNU_SOURCE 1   /* strtod_l */
#include "config.h"

#include "engine_int.h"
#include "func.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Next code point of UTF-16 s[*i..n), advancing *i (lone surrogates
 * stand for themselves). */
static uint32_t u16_next(const uint16_t *s, size_t n, size_t *i)
{
    uint32_t c = s[(*i)++];
    if (c >= 0xD800 && c <= 0xDBFF && *i < n && s[*i] >= 0xDC00 &&
        s[*i] <= 0xDFFF)
        c = 0x10000 + ((c - 0xD800) << 10) + (s[(*i)++] - 0xDC00u);
    return c;
}

int sql_text_cmp(jet_collation co, const uint16_t *a, size_t an,
                 const uint16_t *b, size_t bn)
{
    return sql_collate_cmp(co, a, an, b, bn);   /* General order: sortkey.c */
}

/* ------------------------------------------------------------- dates */

double sql_days_from_civil(int y, int m, int d, int64_t ms_of_day)
{
    /* days from 1970-01-01 (H. Hinnant's algorithm), then shift */
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + doe - 719468 + 25569;
    double frac = (double)ms_of_day / 86400000.0;
    return days >= 0 ? (double)days + frac : (double)days - frac;
}

/* Beyond +-1e11 days the millisecond key would leave int64_t. Access's
 * dates span 0100-01-01 .. 9999-12-31 (days -657434 .. 2958465); values
 * outside it come only from a damaged file (arithmetic that leaves the
 * range fails with 22008 first), so their keys saturate: ordered, never
 * undefined behaviour. NaN keys as 0 (1899-12-30). */
#define DATE_KEY_LIMIT_DAYS 1e11

int64_t sql_date_key(double v)
{
    if (isnan(v))
        return 0;
    if (v > DATE_KEY_LIMIT_DAYS)
        v = DATE_KEY_LIMIT_DAYS;
    else if (v < -DATE_KEY_LIMIT_DAYS)
        v = -DATE_KEY_LIMIT_DAYS;
    double day = trunc(v);
    double frac = fabs(v - day);
    int64_t ms = (int64_t)floor(frac * 86400000.0 + 0.5);
    return (int64_t)day * 86400000 + ms;
}

static bool days_valid(int y, int m, int d)
{
    static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                 31 };
    if (y < 100 || y > 9999 || m < 1 || m > 12 || d < 1)
        return false;
    int lim = mdays[m - 1];
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        lim = 29;
    return d <= lim;
}

/* Read up to maxd digits; -1 when none. */
static long read_num(const char *s, size_t n, size_t *i, int maxd, int *nd)
{
    long v = 0;
    int k = 0;
    while (*i < n && k < maxd && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    if (nd)
        *nd = k;
    return k ? v : -1;
}

static void skip_sp(const char *s, size_t n, size_t *i)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
        (*i)++;
}

/* h:m[:s[.f]] [AM|PM] -> ms of day; -1 when malformed. */
static int64_t parse_time(const char *s, size_t n, size_t *i)
{
    long h = read_num(s, n, i, 2, NULL), mi = 0, se = 0, ms = 0;
    if (h < 0 || *i >= n || s[*i] != ':')
        return -1;
    (*i)++;
    if ((mi = read_num(s, n, i, 2, NULL)) < 0)
        return -1;
    if (*i < n && s[*i] == ':') {
        (*i)++;
        if ((se = read_num(s, n, i, 2, NULL)) < 0)
            return -1;
        if (*i < n && s[*i] == '.') {
            int nd;
            (*i)++;
            long f = read_num(s, n, i, 9, &nd);
            if (f < 0)
                return -1;
            while (nd < 3) {
                f *= 10;
                nd++;
            }
            while (nd > 3) {
                f = (nd == 4) ? (f + 5) / 10 : f / 10;
                nd--;
            }
            ms = f;
            while (*i < n && s[*i] >= '0' && s[*i] <= '9')
                (*i)++;
        }
    }
    skip_sp(s, n, i);
    if (*i + 1 < n && (s[*i] == 'A' || s[*i] == 'a' || s[*i] == 'P' ||
                       s[*i] == 'p') && (s[*i + 1] == 'M' || s[*i + 1] == 'm')) {
        bool pm = s[*i] == 'P' || s[*i] == 'p';
        if (h < 1 || h > 12)
            return -1;
        h = h % 12 + (pm ? 12 : 0);
        *i += 2;
    }
    if (h > 23 || mi > 59 || se > 59 || ms > 999)
        return -1;
    return ((int64_t)h * 3600 + mi * 60 + se) * 1000 + ms;
}

static int parse_datetime_strict(const char *s, size_t n, int kind,
                                 double *out);

int sql_parse_datetime(const char *s, size_t n, int kind, double *out)
{
    if (parse_datetime_strict(s, n, kind, out) == 0)
        return 0;
    /* #8-Oct-2021#, #October 8, 2021#, #13/10/2021#, 12-hour times */
    return kind == 0 ? sql_date_parse_loose(s, n, out) : -1;
}

static int parse_datetime_strict(const char *s, size_t n, int kind,
                                 double *out)
{
    size_t i = 0;
    skip_sp(s, n, &i);
    /* time alone? a number followed by ':' */
    size_t j = i;
    while (j < n && s[j] >= '0' && s[j] <= '9')
        j++;
    int64_t ms = 0;
    if (j < n && s[j] == ':') {
        if (kind == 'd' || kind == 's')
            return -1;
        if ((ms = parse_time(s, n, &i)) < 0)
            return -1;
        skip_sp(s, n, &i);
        if (i != n)
            return -1;
        *out = (double)ms / 86400000.0;
        return 0;
    }
    if (kind == 't')
        return -1;
    int d1, d2, d3;
    long a = read_num(s, n, &i, 4, &d1);
    if (a < 0 || i >= n || (s[i] != '-' && s[i] != '/'))
        return -1;
    char sep = s[i++];
    long b = read_num(s, n, &i, 2, &d2);
    if (b < 0 || i >= n || s[i] != sep)
        return -1;
    i++;
    long c = read_num(s, n, &i, 4, &d3);
    if (c < 0)
        return -1;
    long y, m, d;
    if (d1 == 4) {              /* y-m-d or y/m/d */
        y = a; m = b; d = c;
    } else if (sep == '/' || kind == 0) {   /* US m/d/y */
        m = a; d = b; y = c;
        if (d3 <= 2)
            y += y < 30 ? 2000 : 1900;
    } else {
        return -1;
    }
    if ((kind == 'd' || kind == 's') && d1 != 4)
        return -1;
    if (!days_valid((int)y, (int)m, (int)d))
        return -1;
    skip_sp(s, n, &i);
    if (i < n) {
        if (kind == 'd')
            return -1;
        if ((ms = parse_time(s, n, &i)) < 0)
            return -1;
        skip_sp(s, n, &i);
        if (i != n)
            return -1;
    } else if (kind == 's') {
        return -1;
    }
    *out = sql_days_from_civil((int)y, (int)m, (int)d, ms);
    return 0;
}

/* Jet days -> calendar fields (for YEAR() etc.); -1 when out of range. */
static int split_days(double v, jet_timestamp *ts)
{
    return jet_datetime_split(v, ts) == JET_OK ? 0 : -1;
}

/* ----------------------------------------------------------- numbers */

static locale_t num_locale;
static pthread_once_t num_once = PTHREAD_ONCE_INIT;

static void num_init(void)
{
    num_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static locale_t c_locale(void)
{
    pthread_once(&num_once, num_init);
    return num_locale;
}

/* Exact money units of a decimal literal with at most 4 fraction digits;
 * false when it has more or is out of range. */
static bool literal_units(const char *t, int64_t *units)
{
    int64_t v = 0;          /* every step checked against INT64_MAX */
    int frac = -1;
    bool neg = false;
    if (*t == '-' || *t == '+')
        neg = *t++ == '-';
    for (; *t; t++) {
        if (*t == '.') {
            if (frac >= 0)
                return false;
            frac = 0;
            continue;
        }
        if (*t < '0' || *t > '9')
            return false;
        if (frac >= 0 && ++frac > 4)
            return false;
        if (v > (INT64_MAX - (*t - '0')) / 10)
            return false;
        v = v * 10 + (*t - '0');
    }
    for (int k = frac < 0 ? 0 : frac; k < 4; k++) {
        if (v > INT64_MAX / 10)
            return false;
        v *= 10;
    }
    *units = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

int sql_number_literal(const char *text, sv *out)
{
    memset(out, 0, sizeof *out);
    bool plain = true;
    size_t nd = 0;
    for (const char *t = text; *t; t++) {
        if (*t >= '0' && *t <= '9')
            nd++;
        else if (!(t == text && (*t == '-' || *t == '+')))
            plain = false;
    }
    if (nd == 0)
        return -1;
    if (plain && nd <= 19) {
        /* integers up to 64 bits are exact (BIGINT beyond 32 bits) */
        errno = 0;
        long long v = strtoll(text, NULL, 10);
        if (errno == 0) {
            out->k = K_INT;
            out->i = v;
            return 0;
        }
    }
    char *end;
    locale_t loc = c_locale();
    double d = loc ? strtod_l(text, &end, loc) : strtod(text, &end);
    if (*end)
        return -1;
    if (!isfinite(d))
        return -2;      /* 1e999: beyond a Double, Access's Overflow */
    out->k = K_DOUBLE;
    out->d = d;
    out->has_units = literal_units(text, &out->i);
    /* the exact decimal too, for comparisons with BIGINT, CURRENCY and
     * DECIMAL values (func_dec.c) */
    sv dec;
    if (sql_dec_parse(&dec, text) == 0) {
        out->has_dec = true;
        out->m = dec.m;
        out->scale = dec.scale;
    }
    return 0;
}

int sql_text_to_number(const uint16_t *s, size_t n, sv *out)
{
    char buf[64];
    size_t i = 0, j = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n - i == 0 || n - i >= sizeof buf)
        return -1;
    for (; i < n; i++) {
        if (s[i] >= 0x80)
            return -1;
        char ch = (char)s[i];
        if (!(isdigit((unsigned char)ch) || ch == '.' || ch == '-' ||
              ch == '+' || ch == 'e' || ch == 'E'))
            return -1;
        buf[j++] = ch;
    }
    buf[j] = '\0';
    return sql_number_literal(buf, out);
}

/* Text as a date (ASCII only). */
static int text_to_date(const uint16_t *s, size_t n, double *out)
{
    char buf[64];
    if (n >= sizeof buf)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= 0x80)
            return -1;
        buf[i] = (char)s[i];
    }
    return sql_parse_datetime(buf, n, 0, out);
}

/* -------------------------------------------------------- comparison */

static bool is_num(uint8_t k)
{
    return k == K_BOOL || k == K_INT || k == K_MONEY || k == K_DOUBLE ||
           k == K_DATE || k == K_DEC;
}

static int cmp_i128(jet_i128 a, jet_i128 b)
{
    return i128_cmp(a, b);
}

static int cmp_d(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return a < b ? -1 : a > b;
}

/* Numeric comparison of two numeric kinds. */
static int num_cmp(const sv *a, const sv *b)
{
    /* Decimal, or a literal's exact decimal against an exact value */
    if ((a->k == K_DEC || b->k == K_DEC ||
         (a->k == K_DOUBLE && a->has_dec && b->k != K_DOUBLE &&
          b->k != K_DATE) ||
         (b->k == K_DOUBLE && b->has_dec && a->k != K_DOUBLE &&
          a->k != K_DATE)) && a->k != K_DATE && b->k != K_DATE)
        return sql_dec_cmp(a, b);
    int64_t ai = a->k == K_BOOL ? -a->i : a->i;
    int64_t bi = b->k == K_BOOL ? -b->i : b->i;
    uint8_t ka = a->k == K_BOOL ? K_INT : a->k;
    uint8_t kb = b->k == K_BOOL ? K_INT : b->k;
    if (ka == K_INT && kb == K_INT)
        return cmp_i128(i128_of(ai), i128_of(bi));
    if (ka == K_DATE && kb == K_DATE)
        return cmp_i128(i128_of(sql_date_key(a->d)), i128_of(sql_date_key(b->d)));
    if (ka == K_MONEY || kb == K_MONEY) {
        /* exact when the other side has units */
        jet_i128 ua, ub;
        bool ea = true, eb = true;
        if (ka == K_MONEY) ua = i128_of(ai);
        else if (ka == K_INT) ua = i128_mul(i128_of(ai), i128_of(10000));
        else if (ka == K_DOUBLE && a->has_units) ua = i128_of(a->i);
        else { ea = false; ua = i128_of(0); }
        if (kb == K_MONEY) ub = i128_of(bi);
        else if (kb == K_INT) ub = i128_mul(i128_of(bi), i128_of(10000));
        else if (kb == K_DOUBLE && b->has_units) ub = i128_of(b->i);
        else { eb = false; ub = i128_of(0); }
        if (ea && eb)
            return cmp_i128(ua, ub);
        /* an inexact double: compare as doubles, as Jet converts
         * Currency to Double (each side the nearest double to its
         * decimal value) */
        double x = ea ? i128_to_double(ua) / 10000.0 : a->d;
        double y = eb ? i128_to_double(ub) / 10000.0 : b->d;
        return cmp_d(x, y);
    }
    double x = ka == K_INT ? (double)ai : a->d;
    double y = kb == K_INT ? (double)bi : b->d;
    if (ka == K_INT && kb == K_DOUBLE)
        return (long double)ai < (long double)y ? -1
               : (long double)ai > (long double)y;
    if (kb == K_INT && ka == K_DOUBLE)
        return (long double)x < (long double)bi ? -1
               : (long double)x > (long double)bi;
    return cmp_d(x, y);
}

static int bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b,
                     size_t bn)
{
    size_t m = an < bn ? an : bn;
    int r = m ? memcmp(a, b, m) : 0;
    if (r)
        return r < 0 ? -1 : 1;
    return (an > bn) - (an < bn);
}

int sql_sv_cmp(jet_collation co, const sv *a, const sv *b, int *res)
{
    if (is_num(a->k) && is_num(b->k)) {
        *res = num_cmp(a, b);
        return 0;
    }
    if (a->k == K_TEXT && b->k == K_TEXT) {
        *res = sql_text_cmp(co, a->s, a->n, b->s, b->n);
        return 0;
    }
    if (a->k == K_TEXT || b->k == K_TEXT) {
        const sv *t = a->k == K_TEXT ? a : b, *o = a->k == K_TEXT ? b : a;
        sv conv;
        memset(&conv, 0, sizeof conv);
        if (o->k == K_DATE) {
            if (text_to_date(t->s, t->n, &conv.d) != 0)
                return -1;
            conv.k = K_DATE;
        } else if (is_num(o->k)) {
            if (sql_text_to_number(t->s, t->n, &conv) != 0)
                return -1;
        } else {
            return -1;
        }
        int r = num_cmp(a->k == K_TEXT ? &conv : a, a->k == K_TEXT ? b : &conv);
        *res = r;
        return 0;
    }
    if ((a->k == K_BIN || a->k == K_GUID) && a->k == b->k) {
        *res = bytes_cmp(a->p, a->len, b->p, b->len);
        return 0;
    }
    return -1;
}

/* -------------------------------------------------------------- LIKE */

/* Pattern elements. */
enum { PE_LIT = 1, PE_ANY, PE_ONE, PE_DIGIT, PE_CLASS };

typedef struct pelem {
    uint8_t kind;
    bool negated;           /* PE_CLASS [!...] */
    uint32_t c;             /* PE_LIT: folded code point */
    uint32_t nr;            /* PE_CLASS: ranges */
    const uint32_t *r;      /* lo, hi pairs */
} pelem;

struct like_pat {
    size_t n;
    pelem *e;
    bool invalid;           /* VBA's error 93, "Invalid pattern string" */
};

bool sql_like_invalid(const like_pat *pat)
{
    return pat->invalid;
}

like_pat *sql_like_compile(const uint16_t *s, size_t n, unsigned flags,
                           void *(*alloc)(void *, size_t), void *ctx)
{
    like_pat *p = alloc(ctx, sizeof *p);
    if (!p)
        return NULL;
    p->e = alloc(ctx, (n + 1) * sizeof *p->e);
    uint32_t *ranges = alloc(ctx, (2 * n + 2) * sizeof *ranges);
    if (!p->e || !ranges)
        return NULL;
    size_t i = 0, nr = 0;
    p->n = 0;
    p->invalid = false;
    while (i < n) {
        uint32_t c = u16_next(s, n, &i);
        pelem *e = &p->e[p->n];
        memset(e, 0, sizeof *e);
        if (((flags & LIKE_ACCESS) && c == '*') ||
            ((flags & LIKE_ANSI) && c == '%')) {
            if (p->n > 0 && p->e[p->n - 1].kind == PE_ANY)
                continue;       /* ** is * */
            e->kind = PE_ANY;
        } else if (((flags & LIKE_ACCESS) && c == '?') ||
                   ((flags & LIKE_ANSI) && c == '_')) {
            e->kind = PE_ONE;
        } else if ((flags & LIKE_ACCESS) && c == '#') {
            e->kind = PE_DIGIT;
        } else if (c == '[') {
            /* a list up to the next ']' (VBA's Like: "[]" is the empty
             * string, "[!...]" negates); a '[' without its ']' or a
             * descending range ("[z-a]", "[a--z]") is VBA's error 93,
             * "Invalid pattern string" (Microsoft's page of that error) */
            if (i < n && s[i] == ']') {
                i++;
                continue;
            }
            size_t j = i;
            bool neg = false;
            if (j < n && s[j] == '!') {
                neg = true;
                j++;
            }
            size_t start = j;
            size_t close = n;
            for (size_t k = start; k < n; k++) {
                if (s[k] == ']' && k > start) {
                    close = k;
                    break;
                }
            }
            if (close == n) {
                p->invalid = true;
                e->kind = PE_LIT;
                e->c = jet_text_fold(c);
            } else {
                e->kind = PE_CLASS;
                e->negated = neg;
                e->r = ranges + nr;
                size_t k = start;
                while (k < close) {
                    uint32_t lo = u16_next(s, close, &k), hi = lo;
                    if (k + 1 < close && s[k] == '-') {
                        k++;
                        hi = u16_next(s, close, &k);
                    }
                    if (lo > hi)
                        p->invalid = true;
                    ranges[nr++] = lo;
                    ranges[nr++] = hi;
                    e->nr++;
                }
                i = close + 1;
                if (e->nr == 0 && !neg) {
                    /* "[]" matches nothing in Access: keep as class */
                }
            }
        } else {
            e->kind = PE_LIT;
            e->c = jet_text_fold(c);
        }
        p->n++;
    }
    return p;
}

static bool class_has(const pelem *e, uint32_t c)
{
    uint32_t f = jet_text_fold(c), u = jet_text_upper(c);
    for (uint32_t k = 0; k < e->nr; k++) {
        uint32_t lo = e->r[2 * k], hi = e->r[2 * k + 1];
        if ((c >= lo && c <= hi) || (f >= lo && f <= hi) ||
            (u >= lo && u <= hi))
            return true;
    }
    return false;
}

static bool elem_match(const pelem *e, uint32_t c)
{
    switch (e->kind) {
    case PE_LIT: return jet_text_fold(c) == e->c;
    case PE_ONE: return true;
    case PE_DIGIT: return c >= '0' && c <= '9';
    case PE_CLASS: return class_has(e, c) != e->negated;
    default: return false;
    }
}

/* Greedy match with one backtrack point (the last '*'): O(n * m), no
 * recursion. Text is decoded to code points on the fly. */
bool sql_like_match(const like_pat *pat, const uint16_t *s, size_t n)
{
    size_t pi = 0, si = 0;
    size_t star_p = SIZE_MAX, star_s = 0;
    while (si < n) {
        if (pi < pat->n && pat->e[pi].kind == PE_ANY) {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < pat->n) {
            size_t next_si = si;
            uint32_t c = u16_next(s, n, &next_si);
            if (elem_match(&pat->e[pi], c)) {
                pi++;
                si = next_si;
                continue;
            }
        }
        if (star_p == SIZE_MAX)
            return false;
        pi = star_p;
        u16_next(s, n, &star_s);
        si = star_s;
    }
    while (pi < pat->n && pat->e[pi].kind == PE_ANY)
        pi++;
    return pi == pat->n;
}

/* ------------------------------------------------------ scratch memory */

struct tmp_chunk {
    tmp_chunk *next;
    size_t cap, used;
    max_align_t data[];
};

static void *chunk_alloc(tmp_chunk **list, size_t bytes, bool reuse)
{
    const size_t align = sizeof(max_align_t);
    if (bytes > SIZE_MAX / 4)
        return NULL;
    bytes = (bytes + align - 1) / align * align;
    if (bytes == 0)
        bytes = align;
    tmp_chunk *c;
    if (reuse) {
        for (c = *list; c; c = c->next)
            if (c->cap - c->used >= bytes)
                break;
    } else {
        c = *list;
        if (c && c->cap - c->used < bytes)
            c = NULL;
    }
    if (!c) {
        size_t cap = bytes > 65536 ? bytes : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = *list;
        *list = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    return p;
}

void *sql_tmp_alloc(sql_cursor *c, size_t bytes)
{
    return chunk_alloc(&c->tmp, bytes, true);
}

void *sql_chunk_alloc(tmp_chunk **list, size_t bytes)
{
    return chunk_alloc(list, bytes, false);
}

void sql_tmp_reset(sql_cursor *c)
{
    for (tmp_chunk *t = c->tmp; t; t = t->next)
        t->used = 0;
}

void sql_tmp_free(tmp_chunk **list)
{
    tmp_chunk *t = *list;
    while (t) {
        tmp_chunk *n = t->next;
        free(t);
        t = n;
    }
    *list = NULL;
}

uint16_t *sql_utf8_to_u16(const char *s, size_t *n,
                          void *(*alloc)(void *, size_t), void *ctx)
{
    size_t len = strlen(s), k = 0;
    uint16_t *out = alloc(ctx, (len + 1) * sizeof *out);
    if (!out)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        if (u[i] < 0x80) {
            cp = u[i++];
        } else if (u[i] < 0xE0 && i + 1 < len) {
            cp = ((u[i] & 0x1Fu) << 6) | (u[i + 1] & 0x3Fu);
            i += 2;
        } else if (u[i] < 0xF0 && i + 2 < len) {
            cp = ((u[i] & 0x0Fu) << 12) | ((u[i + 1] & 0x3Fu) << 6) |
                 (u[i + 2] & 0x3Fu);
            i += 3;
        } else if (i + 3 < len) {
            cp = ((u[i] & 0x07u) << 18) | ((u[i + 1] & 0x3Fu) << 12) |
                 ((u[i + 2] & 0x3Fu) << 6) | (u[i + 3] & 0x3Fu);
            i += 4;
        } else {
            cp = 0xFFFD;
            i++;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            out[k++] = (uint16_t)(0xD800 + (cp >> 10));
            out[k++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
        } else {
            out[k++] = (uint16_t)cp;
        }
    }
    *n = k;
    return out;
}

/* ------------------------------------------------------------ errors */

void sql_error_in_saved(sql_error *e, const char *name, size_t pos)
{
    static const char tag[] = " (at character ";
    char *m = e->msg, *w = m;
    for (const char *r = m; *r;) {
        if (!strncmp(r, tag, sizeof tag - 1)) {
            const char *d = r + sizeof tag - 1;
            while (*d >= '0' && *d <= '9')
                d++;
            if (d > r + sizeof tag - 1 && *d == ')') {
                r = d + 1;
                continue;
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
    e->position = pos;
    if (!name || strstr(m, "aved query '"))
        return;                 /* names a saved query already */
    char inner[sizeof e->msg];
    memcpy(inner, m, sizeof inner);
    int l = snprintf(e->msg, sizeof e->msg, "saved query '%.60s': ", name);
    size_t at = l > 0 && (size_t)l < sizeof e->msg ? (size_t)l : 0;
    size_t n = strlen(inner);
    if (n > sizeof e->msg - 1 - at)
        n = sizeof e->msg - 1 - at;     /* the end of a long message */
    memcpy(e->msg + at, inner, n);
    e->msg[at + n] = '\0';
}

int sql_cursor_fail(sql_cursor *c, const char *state, size_t pos,
                    const char *fmt, ...)
{
    snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "%s", state);
    c->err.position = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err.msg, sizeof c->err.msg, fmt, ap);
    va_end(ap);
    if (c->st && c->st->view_name)
        sql_error_in_saved(&c->err, c->st->view_name, c->st->view_pos);
    if (!c->err.rc)
        c->err.rc = JET_EUNSUPPORTED;
    c->core_failed = false;
    return -1;
}

int sql_cursor_fail_rc(sql_cursor *c, int rc, const jet_error *je)
{
    const char *state = "HY000";
    switch (rc) {
    case JET_ENOMEM: state = "HY001"; break;
    case JET_EINTERRUPTED: state = "HY008"; break;
    case JET_EUNSUPPORTED: state = "HYC00"; break;
    case JET_ENOTFOUND: state = "42S02"; break;
    default: break;
    }
    c->err.rc = rc;
    snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "%s", state);
    c->err.position = 0;
    c->core_failed = true;
    memset(&c->core_err, 0, sizeof c->core_err);
    c->core_err.rc = (jet_rc)rc;
    c->core_err.pgno = UINT32_MAX;
    if (je)
        c->core_err = *je;
    if (je && je->msg[0])
        snprintf(c->err.msg, sizeof c->err.msg, "%s", je->msg);
    else
        snprintf(c->err.msg, sizeof c->err.msg, "%s",
                 jet_rc_str((jet_rc)rc));
    return -1;
}

static int mismatch(sql_cursor *c, const enode *e)
{
    c->err.rc = JET_EUNSUPPORTED;
    return sql_cursor_fail(c, "22018", e->position,
                           "Data type mismatch in criteria expression "
                           "(at character %zu)", e->position);
}

static int overflow(sql_cursor *c, const enode *e)
{
    c->err.rc = JET_ELIMIT;
    return sql_cursor_fail(c, "22003", e->position,
                           "Overflow (at character %zu)", e->position);
}

/* ------------------------------------------------------- conversions */

/* Any value as text into scratch (numbers in plain notation). */
static int to_text(sql_cursor *c, const sv *v, sv *out)
{
    char buf[80];
    int n = 0;
    switch (v->k) {
    case K_TEXT:
        *out = *v;
        return 0;
    case K_BOOL:
        n = snprintf(buf, sizeof buf, "%s", v->i ? "True" : "False");
        break;
    case K_INT:
        n = snprintf(buf, sizeof buf, "%lld", (long long)v->i);
        break;
    case K_MONEY: {
        n = (int)jet_money_format(v->i, buf, sizeof buf);
        /* trim trailing zeros of the 4 decimals, as CStr does */
        while (n > 0 && buf[n - 1] == '0')
            n--;
        if (n > 0 && buf[n - 1] == '.')
            n--;
        buf[n] = '\0';
        break;
    }
    case K_DOUBLE:
        n = (int)(v->single ? sql_format_single(v->d, buf, sizeof buf)
                            : sql_format_double(v->d, buf, sizeof buf));
        break;
    case K_DEC:
        n = (int)sql_dec_format(v, buf, sizeof buf);
        break;
    case K_DATE:
        /* VBA's General Date (CStr, &) */
        n = (int)sql_format_date(v->d, buf, sizeof buf);
        if (n <= 0)
            return -1;
        break;
    default:
        return -1;
    }
    uint16_t *u = sql_tmp_alloc(c, (size_t)(n > 0 ? n : 1) * 2);
    if (!u)
        return -1;
    for (int i = 0; i < n; i++)
        u[i] = (unsigned char)buf[i];
    memset(out, 0, sizeof *out);
    out->k = K_TEXT;
    out->s = u;
    out->n = (size_t)n;
    return 0;
}

/* Any value as a double (text parsed); -1 when not numeric. */
static int to_double(const sv *v, double *out)
{
    sv t;
    switch (v->k) {
    case K_BOOL: *out = v->i ? -1.0 : 0.0; return 0;
    case K_INT: *out = (double)v->i; return 0;
    case K_MONEY: *out = (double)v->i / 10000.0; return 0;
    case K_DOUBLE: case K_DATE: *out = v->d; return 0;
    case K_DEC: *out = sql_dec_to_double(v); return 0;
    case K_TEXT:
        if (sql_text_to_number(v->s, v->n, &t) != 0)
            return -1;
        return to_double(&t, out);
    default:
        return -1;
    }
}

/* Any value as a date; -1 when not. */
static int to_date(const sv *v, double *out)
{
    if (v->k == K_TEXT)
        return text_to_date(v->s, v->n, out);
    return to_double(v, out);
}

/* Any value as an int64 (doubles rounded half even, as Jet's CLng). */
static int to_int(const sv *v, int64_t *out)
{
    if (v->k == K_INT) {
        *out = v->i;
        return 0;
    }
    if (v->k == K_BOOL) {
        *out = v->i ? -1 : 0;
        return 0;
    }
    if (v->k == K_DEC || v->k == K_MONEY) {
        sv r;
        if (sql_dec_round(&r, v, 0) != 0)
            return -2;
        if (!i128_fits_i64(r.m))
            return -2;
        *out = i128_to_i64(r.m);
        return 0;
    }
    double d;
    if (to_double(v, &d) != 0)
        return -1;
    d = nearbyint(d);
    if (!(d >= -9.2e18 && d <= 9.2e18))
        return -2;
    *out = (int64_t)d;
    return 0;
}

/* ---------------------------------------------------------- functions */

static void set_int(sv *out, int64_t v)
{
    memset(out, 0, sizeof *out);
    out->k = K_INT;
    out->i = v;
}

static void set_double(sv *out, double v)
{
    memset(out, 0, sizeof *out);
    out->k = K_DOUBLE;
    out->d = v;
}

static int text_arg(sql_cursor *c, const enode *e, const sv *v, sv *out)
{
    if (to_text(c, v, out) != 0)
        return mismatch(c, e);
    return 0;
}

/* The conversions above for func*.c (func.h). */
int sql_sv_text(sql_cursor *c, const sv *v, sv *out)
{
    return to_text(c, v, out);
}

int sql_sv_double(const sv *v, double *out)
{
    return to_double(v, out);
}

int sql_sv_int(const sv *v, int64_t *out)
{
    return to_int(v, out);
}

int sql_arg_int(sql_cursor *c, const enode *e, const sv *v, int64_t *out)
{
    int rc = to_int(v, out);
    if (rc == -2)
        return overflow(c, e);
    if (rc != 0)
        return mismatch(c, e);
    return 0;
}

int sql_sv_date(const sv *v, double *out)
{
    return to_date(v, out);
}

int sql_fail_mismatch(sql_cursor *c, const enode *e)
{
    return mismatch(c, e);
}

int sql_fail_overflow(sql_cursor *c, const enode *e)
{
    return overflow(c, e);
}

int sql_fail_nomem(sql_cursor *c)
{
    return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
}


/* ---------------------------------------------------------- arithmetic */

static int eval_arith(sql_cursor *c, const enode *e, sv *out)
{
    sv a, b;
    if (sql_eval_leaf(c, e->args[0], &a) != 0 ||
        sql_eval_leaf(c, e->args[1], &b) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    if (a.k == K_NULL || b.k == K_NULL)
        return 0;
    char op = (char)e->sub;
    if (op == '+' && a.k == K_TEXT && b.k == K_TEXT) {
        uint16_t *u = sql_tmp_alloc(c, (a.n + b.n + 1) * 2);
        if (!u)
            return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        memcpy(u, a.s, a.n * 2);
        memcpy(u + a.n, b.s, b.n * 2);
        out->k = K_TEXT;
        out->s = u;
        out->n = a.n + b.n;
        return 0;
    }
    if (op == '\\' || op == 'M') {
        int64_t x, y;
        if (to_int(&a, &x) != 0 || to_int(&b, &y) != 0)
            return mismatch(c, e);
        if (y == 0)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        /* y = -1 apart: x / -1 and x % -1 trap in C for x = INT64_MIN,
         * whose quotient 2^63 is past a Large Number (Overflow); the
         * remainder is 0 for every x */
        if (y == -1 && op == '\\' && x == INT64_MIN)
            return overflow(c, e);
        set_int(out, y == -1 ? (op == 'M' ? 0 : -x) : op == 'M' ? x % y
                                                               : x / y);
        return 0;
    }
    if ((e->k == K_DEC || a.k == K_DEC || b.k == K_DEC) && op != '^' &&
        a.k != K_DOUBLE && b.k != K_DOUBLE && a.k != K_DATE &&
        b.k != K_DATE && a.k != K_TEXT && b.k != K_TEXT) {
        /* exact Decimal arithmetic (Decimal with integers, Currency) */
        int rc = sql_dec_arith(out, op, &a, &b);
        if (rc == -1)
            return overflow(c, e);
        if (rc == -2)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        if (rc == 0)
            return 0;
    }
    if (e->k == K_INT && (a.k == K_INT || a.k == K_BOOL) &&
        (b.k == K_INT || b.k == K_BOOL)) {
        int64_t x = a.k == K_BOOL ? -a.i : a.i, y = b.k == K_BOOL ? -b.i : b.i;
        jet_i128 r = op == '+' ? i128_add(i128_of(x), i128_of(y)) : op == '-' ?
                     i128_sub(i128_of(x), i128_of(y)) : i128_mul(i128_of(x), i128_of(y));
        if (!i128_fits_i64(r) ||
            (e->type == JET_T_LONG &&
             (i128_to_i64(r) > INT32_MAX || i128_to_i64(r) < INT32_MIN)))
            return overflow(c, e);
        set_int(out, i128_to_i64(r));
        return 0;
    }
    if (e->k == K_MONEY && op != '/' && op != '^') {
        jet_i128 x, y;
        if (a.k == K_MONEY) x = i128_of(a.i);
        else if (a.k == K_INT || a.k == K_BOOL)
            x = i128_mul(i128_of(a.k == K_BOOL ? -a.i : a.i), i128_of(10000));
        else goto as_double;
        if (b.k == K_MONEY) y = i128_of(b.i);
        else if (b.k == K_INT || b.k == K_BOOL)
            y = i128_mul(i128_of(b.k == K_BOOL ? -b.i : b.i), i128_of(10000));
        else goto as_double;
        jet_i128 r = op == '+' ? i128_add(x, y) : op == '-' ? i128_sub(x, y)
                     : i128_divmod(i128_mul(x, y), i128_of(10000), NULL);
        if (!i128_fits_i64(r))
            return overflow(c, e);
        out->k = K_MONEY;
        out->i = i128_to_i64(r);
        return 0;
    }
as_double:;
    double x, y, r;
    if (to_double(&a, &x) != 0 || to_double(&b, &y) != 0)
        return mismatch(c, e);
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
        if (y == 0)
            return sql_cursor_fail(c, "22012", e->position,
                                   "Division by zero (at character %zu)",
                                   e->position);
        r = x / y;
        break;
    default: r = pow(x, y); break;
    }
    /* VBA's error 5 for (-8) ^ 0.5 and error 6 (Overflow) for 10 ^ 400
     * or 1E308 * 10: a Double never holds NaN or an infinity */
    if (isnan(r) && op == '^' && isfinite(x) && isfinite(y))
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call or argument: a negative number to a "
                               "fractional power (at character %zu)",
                               e->position);
    /* Access's dates run from 0100-01-01 to 9999-12-31 (days -657434 ..
     * 2958465.99999): a Date result outside that range is VBA's error 6
     * (Overflow), reported as 22008 (datetime field overflow), so no
     * comparison ever sees an out-of-range date */
    if (e->k == K_DATE && !(r > -657435.0 && r < 2958466.0))
        return sql_cursor_fail(c, "22008", e->position, "Overflow: date out "
                               "of range (at character %zu)", e->position);
    if (!isfinite(r))
        return overflow(c, e);
    out->k = e->k == K_DATE ? K_DATE : K_DOUBLE;
    out->d = r;
    if (e->k == K_MONEY) {
        out->k = K_MONEY;
        if (!(fabs(r) < 9.2e14))
            return overflow(c, e);
        out->i = (int64_t)nearbyint(r * 10000.0);
    }
    return 0;
}

/* ------------------------------------------------------------ IN sets */

int sql_in_class(const sv *v)
{
    switch (v->k) {
    case K_BOOL: case K_INT:
        return IN_C_NUM;
    case K_MONEY:
        /* (double)units / 10000 is the correctly rounded value only while
         * the units are exact in a double */
        return (v->i > -(INT64_C(1) << 53) && v->i < (INT64_C(1) << 53))
               ? IN_C_NUM : 0;
    case K_DOUBLE:
        return isnan(v->d) ? 0 : IN_C_NUM;
    case K_DATE:
        return isnan(v->d) ? 0 : IN_C_DATE;
    case K_TEXT:
        return IN_C_TEXT;
    case K_BIN:
        return IN_C_BIN;
    case K_GUID:
        return IN_C_GUID;
    default:
        return 0;       /* NULL, Decimal, parameters of unknown kind */
    }
}

/*
 * Numbers of IN_C_NUM compare equal (sql_sv_cmp) only when their exact
 * values are equal, or (an inexact Double against Currency) when they
 * are the same double; sql_sv_hash hashes each by its correctly rounded
 * double (exact for the Currency the class admits), so equal values hash
 * alike. Text: sql_sv_cmp is 0 exactly when the folded code points are
 * equal, trailing spaces aside, which sql_sv_hash hashes. Dates: the
 * millisecond key both use.
 */
int sql_in_find(jet_collation co, const in_set *s, const sv *v)
{
    uint64_t h = sql_sv_hash(v);
    for (size_t i = (size_t)h & s->mask;; i = (i + 1) & s->mask) {
        const sv *x = s->slot[i];
        int r;
        if (!x)
            return 0;
        if (s->hash[i] == h && sql_sv_cmp(co, v, x, &r) == 0 &&
            r == 0)
            return 1;
    }
}

/* ---------------------------------------------------------- evaluator */

static int cmp_or_fail(sql_cursor *c, const enode *e, const sv *a,
                       const sv *b, int *r)
{
    if (sql_sv_cmp(c->text_order, a, b, r) != 0)
        return mismatch(c, e);
    return 0;
}

static void set_bool(sv *out, int t)
{
    memset(out, 0, sizeof *out);
    if (t < 0)
        return;         /* NULL */
    out->k = K_BOOL;
    out->i = t;
}

int sql_sv_truth(sql_cursor *c, const enode *e, const sv *v, int *t)
{
    double d;
    if (v->k == K_NULL) {
        *t = -1;
        return 0;
    }
    if (v->k == K_BOOL || v->k == K_INT || v->k == K_MONEY) {
        *t = v->i != 0;
        return 0;
    }
    if (v->k == K_DEC) {
        *t = i128_sign(v->m) != 0;
        return 0;
    }
    if (to_double(v, &d) != 0)
        return mismatch(c, e);
    *t = d != 0;
    return 0;
}

/*
 * Whether conjunct e, whose evaluation just failed, passes instead: e is
 * a copy of an outer WHERE conjunct pushed into a view (enode.soft) and
 * the failure is a data exception (SQLSTATE class 22: division by zero,
 * overflow, a conversion). The copy only narrows the view's rows early;
 * the outer WHERE still tests the original on the rows the view gives,
 * so the error is raised there, for exactly the rows the query without
 * the push would raise it for, and not for a row the view's own
 * conditions drop (the planner may test the copy first). On true the
 * error is cleared and *v / *t say TRUE.
 */
static bool soft_pass(sql_cursor *c, const enode *e, sv *v, int *t)
{
    if (!e->soft || c->core_failed || c->err.sqlstate[0] != '2' ||
        c->err.sqlstate[1] != '2')
        return false;
    memset(&c->err, 0, sizeof c->err);
    set_bool(v, 1);
    *t = 1;
    return true;
}

int sql_eval(sql_cursor *c, const enode *e, sv *out)
{
    sv a, b;
    int r, ta, tb;
    switch (e->op) {
    case N_CONST:
        *out = e->konst;
        return 0;
    case N_COL:
        if (e->up) {
            /* a correlated subquery reads its enclosing block's row */
            sql_cursor *oc = c;
            for (uint8_t u = 0; u < e->up && oc; u++)
                oc = oc->outer;
            if (!oc)
                return sql_cursor_fail(c, "HY000", e->position, "outer "
                                       "reference without a row");
            if (sql_col_sv(oc, e->tab, e->col, out) != 0) {
                c->err = oc->err;
                return -1;
            }
            return 0;
        }
        return sql_col_sv(c, e->tab, e->col, out);
    case N_PARAM:
        *out = c->params[e->param];
        return 0;
    case N_AGG:
        return sql_agg_value(c, e, out);
    case N_GKEY: {
        /* up > 0: a subquery reads its grouped enclosing block's key */
        const sql_cursor *gc = c;
        for (uint8_t u = 0; u < e->up && gc; u++)
            gc = gc->outer;
        if (!gc || !gc->gkeys)
            return sql_cursor_fail(c, "HY000", e->position, "outer "
                                   "reference without a group");
        *out = gc->gkeys[e->slot];
        return 0;
    }
    case N_SUBQ:
        return sql_subq_eval(c, e, out);
    case N_NOT:
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_sv_truth(c, e, &a, &ta) != 0)
            return -1;
        set_bool(out, ta < 0 ? -1 : !ta);
        return 0;
    case N_AND: case N_OR: case N_XOR:
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_sv_truth(c, e, &a, &ta) != 0) {
            if (e->op != N_AND || !soft_pass(c, e->args[0], &a, &ta))
                return -1;
        }
        if (e->op == N_AND && ta == 0) {
            set_bool(out, 0);
            return 0;
        }
        if (e->op == N_OR && ta == 1) {
            set_bool(out, 1);
            return 0;
        }
        if (sql_eval(c, e->args[1], &b) != 0 ||
            sql_sv_truth(c, e, &b, &tb) != 0) {
            if (e->op != N_AND || !soft_pass(c, e->args[1], &b, &tb))
                return -1;
        }
        if (e->op == N_AND)
            set_bool(out, tb == 0 ? 0 : (ta < 0 || tb < 0) ? -1 : 1);
        else if (e->op == N_OR)
            set_bool(out, tb == 1 ? 1 : (ta < 0 || tb < 0) ? -1 : 0);
        else
            set_bool(out, (ta < 0 || tb < 0) ? -1 : ta != tb);
        return 0;
    case N_CMP:
        if (sql_eval_leaf(c, e->args[0], &a) != 0 ||
            sql_eval_leaf(c, e->args[1], &b) != 0)
            return -1;
        if (a.k == K_NULL || b.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        if (cmp_or_fail(c, e, &a, &b, &r) != 0)
            return -1;
        switch (e->sub) {
        case CMP_EQ: set_bool(out, r == 0); break;
        case CMP_NE: set_bool(out, r != 0); break;
        case CMP_LT: set_bool(out, r < 0); break;
        case CMP_LE: set_bool(out, r <= 0); break;
        case CMP_GT: set_bool(out, r > 0); break;
        default: set_bool(out, r >= 0); break;
        }
        return 0;
    case N_ISNULL:
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        set_bool(out, (a.k == K_NULL) != e->negated);
        return 0;
    case N_BETWEEN: {
        sv lo, hi;
        if (sql_eval(c, e->args[0], &a) != 0 ||
            sql_eval(c, e->args[1], &lo) != 0 ||
            sql_eval(c, e->args[2], &hi) != 0)
            return -1;
        int t1 = -1, t2 = -1;
        if (a.k != K_NULL && lo.k != K_NULL) {
            if (cmp_or_fail(c, e, &a, &lo, &r) != 0)
                return -1;
            t1 = r >= 0;
        }
        if (a.k != K_NULL && hi.k != K_NULL) {
            if (cmp_or_fail(c, e, &a, &hi, &r) != 0)
                return -1;
            t2 = r <= 0;
        }
        int t = (t1 == 0 || t2 == 0) ? 0 : (t1 < 0 || t2 < 0) ? -1 : 1;
        set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
        return 0;
    }
    case N_IN: {
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        if (a.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        int t = 0;
        if (e->inset && sql_in_class(&a) == e->inset->cls) {
            /* constants of a's class: the hash set decides as the loop
             * below would (same-class comparisons never fail) */
            t = sql_in_find(c->text_order, e->inset, &a) ? 1
                : e->inset->has_null ? -1 : 0;
            set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
            return 0;
        }
        for (size_t i = 1; i < e->nargs && t != 1; i++) {
            if (sql_eval(c, e->args[i], &b) != 0)
                return -1;
            if (b.k == K_NULL) {
                t = -1;
                continue;
            }
            if (cmp_or_fail(c, e, &a, &b, &r) != 0)
                return -1;
            if (r == 0)
                t = 1;
        }
        set_bool(out, t < 0 ? -1 : e->negated ? !t : t);
        return 0;
    }
    case N_LIKE: {
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        const like_pat *pat = e->pat;
        if (!pat) {
            if (sql_eval(c, e->args[1], &b) != 0)
                return -1;
            if (b.k == K_NULL) {
                set_bool(out, -1);
                return 0;
            }
            sv bt;
            if (text_arg(c, e, &b, &bt) != 0)
                return -1;
            pat = sql_like_compile(bt.s, bt.n, e->like_flags,
                                   (void *(*)(void *, size_t))sql_tmp_alloc,
                                   c);
            if (!pat)
                return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
        }
        if (a.k == K_NULL) {
            set_bool(out, -1);
            return 0;
        }
        sv at;
        if (text_arg(c, e, &a, &at) != 0)
            return -1;
        if (sql_like_invalid(pat))
            return sql_cursor_fail(c, "22025", e->position, "Invalid pattern "
                                   "string: a '[' without its ']' or a "
                                   "descending range in the Like pattern "
                                   "(at character %zu)", e->position);
        set_bool(out, sql_like_match(pat, at.s, at.n));
        return 0;
    }
    case N_NEG:
        if (sql_eval(c, e->args[0], &a) != 0)
            return -1;
        *out = a;
        if (a.k == K_NULL)
            return 0;
        if (a.k == K_INT || a.k == K_MONEY) {
            if (a.i == INT64_MIN)
                return overflow(c, e);
            out->i = -a.i;
            return 0;
        }
        if (a.k == K_BOOL) {
            set_int(out, a.i ? 1 : 0);
            return 0;
        }
        if (a.k == K_DOUBLE || a.k == K_DATE) {
            out->d = -a.d;
            out->has_units = false;
            out->has_dec = false;
            return 0;
        }
        if (a.k == K_DEC) {
            out->m = i128_neg(a.m);
            return 0;
        }
        if (to_double(&a, &out->d) != 0)
            return mismatch(c, e);
        set_double(out, -out->d);
        return 0;
    case N_ARITH:
        return eval_arith(c, e, out);
    case N_CONCAT:
    case N_FUNC:
        if (sql_func_eval(c, e, out) != 0)
            return -1;
        /* a Double never holds an infinity or NaN (VBA's Overflow) */
        if ((out->k == K_DOUBLE || out->k == K_DATE) && !isfinite(out->d))
            return overflow(c, e);
        return 0;
    default:
        return sql_cursor_fail(c, "HY000", e->position, "bad node");
    }
}

int sql_eval_cond(sql_cursor *c, const enode *e)
{
    sv v;
    int t = 0;
    if (sql_eval(c, e, &v) != 0 || sql_sv_truth(c, e, &v, &t) != 0) {
        if (!soft_pass(c, e, &v, &t))
            return -1;
    }
    return t == 1;
}

/* ------------------------------------------------------ value output */

static int grow_u8(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    uint8_t *p = realloc(*buf, n);
    if (!p)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

int sql_sv_to_value(sql_cursor *c, const sv *v, jet_type type,
                    uint8_t **buf, size_t *cap, jet_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    if (v->k == K_NULL) {
        out->is_null = true;
        return 0;
    }
    double d = 0;
    int64_t i = 0;
    switch (type) {
    case JET_T_BOOL:
        if (v->k == K_BOOL || v->k == K_INT || v->k == K_MONEY)
            out->u.b = v->i != 0;
        else if (to_double(v, &d) == 0)
            out->u.b = d != 0;
        else
            return -1;
        return 0;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_BIGINT:
    case JET_T_COMPLEX:
        if (v->k == K_MONEY)
            i = v->i / 10000;
        else if (to_int(v, &i) != 0)
            return -1;
        out->u.i = i;
        return 0;
    case JET_T_MONEY:
        if (v->k == K_DEC) {
            sv r;
            if (sql_dec_round(&r, v, 4) != 0)
                return -1;
            jet_i128 m = r.m;
            for (int k = r.scale; k < 4; k++)
                m = i128_mul(m, i128_of(10));
            if (!i128_fits_i64(m))
                return -1;
            out->u.money = i128_to_i64(m);
        } else if (v->k == K_MONEY)
            out->u.money = v->i;
        else if (v->k == K_INT)
            out->u.money = v->i * 10000;
        else if (to_double(v, &d) == 0)
            out->u.money = (int64_t)nearbyint(d * 10000.0);
        else
            return -1;
        return 0;
    case JET_T_FLOAT:
        if (to_double(v, &d) != 0)
            return -1;
        out->u.f = (float)d;
        return 0;
    case JET_T_DOUBLE: case JET_T_DATETIME:
        if (v->k == K_TEXT && type == JET_T_DATETIME) {
            if (to_date(v, &d) != 0)
                return -1;
        } else if (to_double(v, &d) != 0) {
            return -1;
        }
        out->u.d = d;
        return 0;
    case JET_T_NUMERIC: {
        sv dv;
        jet_i128 m;
        int scale;
        if (v->k == K_TEXT) {
            char tb[80];
            if (v->n >= sizeof tb)
                return -1;
            for (size_t k = 0; k < v->n; k++)
                tb[k] = v->s[k] < 0x80 ? (char)v->s[k] : '?';
            tb[v->n] = '\0';
            if (sql_dec_parse(&dv, tb) != 0)
                return -1;
        } else if (sql_dec_exact(v, &m, &scale) && v->k != K_DOUBLE) {
            sql_dec_set(&dv, m, scale);
        } else if (to_double(v, &d) != 0 || sql_dec_from_double(&dv, d) != 0) {
            return -1;
        }
        sql_dec_to_value(&dv, out);
        return 0;
    }
    case JET_T_GUID:
        if (v->k != K_GUID)
            return -1;
        memcpy(out->u.guid, v->p, 16);
        return 0;
    case JET_T_BINARY: case JET_T_OLE:
        if (v->k != K_BIN)
            return -1;
        out->data = v->p;
        out->len = v->len;
        return 0;
    default: {
        sv t;
        if (to_text(c, v, &t) != 0)
            return -1;
        out->type = type == JET_T_MEMO ? JET_T_MEMO : JET_T_TEXT;
        out->enc = JET_ENC_UCS2;
        if (grow_u8(buf, cap, t.n * 2 + 2) != 0)
            return -1;
        for (size_t k = 0; k < t.n; k++) {
            (*buf)[2 * k] = (uint8_t)(t.s[k] & 0xFF);
            (*buf)[2 * k + 1] = (uint8_t)(t.s[k] >> 8);
        }
        out->data = *buf;
        out->len = t.n * 2;
        return 0;
    }
    }
}

void sql_sv_describe(const sv *v, char *buf, size_t cap)
{
    switch (v->k) {
    case K_NULL: snprintf(buf, cap, "NULL"); break;
    case K_BOOL: snprintf(buf, cap, "%s", v->i ? "TRUE" : "FALSE"); break;
    case K_INT: snprintf(buf, cap, "%lld", (long long)v->i); break;
    case K_MONEY: jet_money_format(v->i, buf, cap); break;
    case K_DOUBLE: snprintf(buf, cap, "%.17g", v->d); break;
    case K_DEC: sql_dec_format(v, buf, cap); break;
    case K_DATE: {
        jet_timestamp ts;
        if (split_days(v->d, &ts) == 0)
            snprintf(buf, cap, "#%04d-%02d-%02d %02d:%02d:%02d#", ts.year,
                     ts.month, ts.day, ts.hour, ts.minute, ts.second);
        else
            snprintf(buf, cap, "#%g#", v->d);
        break;
    }
    case K_TEXT: {
        size_t k = 0;
        if (cap < 8) {
            snprintf(buf, cap, "'...'");
            break;
        }
        buf[k++] = '\'';
        for (size_t i = 0; i < v->n && k + 5 < cap; i++)
            buf[k++] = v->s[i] < 0x80 && v->s[i] >= 0x20 ? (char)v->s[i] : '?';
        buf[k++] = '\'';
        buf[k] = '\0';
        break;
    }
    default: snprintf(buf, cap, "<bytes>"); break;
    }
}
