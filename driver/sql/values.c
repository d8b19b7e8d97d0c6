/*
 * values.c - values of the query engine (sv) without a cursor: text
 * comparison in the database's sort order, dates (literals, Jet days,
 * the chronological key), number literals and text as numbers, the
 * order of values (sql_sv_cmp) and of sort keys (sql_key_cmp, NULL
 * lowest), their hash, LIKE patterns, IN sets, numeric conversions and
 * the text of a value for messages. Used by the planner (constants),
 * the evaluator and the operators; calls none of them.
 *
 * Text is UTF-16 (as Access counts characters). Case-insensitive
 * comparison folds each code point with core's jet_text_fold()
 * (towlower of the C.UTF-8 locale: glibc tables, not a hand-written
 * one); accents stay significant. Dates are Jet days (double since
 * 1899-12-30, the fraction's absolute value the time of day) compared
 * through a millisecond key that orders them chronologically. MONEY is
 * compared as integer units of 1/10000, never through double.
 * Invariants:
 *   1. Nothing here allocates from the heap; a LIKE pattern and UTF-16
 *      text come from the caller's allocator.
 *   2. sql_sv_hash agrees with sql_sv_cmp's equality within one hash
 *      class (sql_in_class), so IN sets and hash joins find exactly the
 *      values '=' finds.
 */
#include "config.h"

#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------- calendar */

int64_t sql_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* day number (Jet, 0 = 1899-12-30) -> y, m, d (H. Hinnant's algorithm) */
void sql_civil(int64_t jday, int *y, int *m, int *d)
{
    int64_t z = jday - 25569 + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yy + (*m <= 2));
}

/* y, m, d -> Jet day number (any m/d; no validation) */
int64_t sql_jday_of(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468 + 25569;
}

bool sql_leap_year(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int sql_month_len(int y, int m)
{
    static const int ml[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                              31 };
    return m == 2 && sql_leap_year(y) ? 29 : ml[m - 1];
}

/* linear ms key -> Jet days */
double sql_days_of_key(int64_t key)
{
    int64_t day = sql_floor_div(key, MS_PER_DAY);
    int64_t ms = key - day * MS_PER_DAY;
    double frac = (double)ms / (double)MS_PER_DAY;
    return day >= 0 ? (double)day + frac : (double)day - frac;
}

/* two-digit years: 0-29 -> 2000s, 30-99 -> 1900s (Windows' default) */
int64_t sql_window_year(int64_t y)
{
    if (y >= 0 && y <= 29)
        return y + 2000;
    if (y >= 30 && y <= 99)
        return y + 1900;
    return y;
}

/* ------------------------------------------------ loose date parser */

const char *const sql_month_names[12] = {
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"
};
const char *const sql_day_names[7] = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
    "Saturday"
};


/*
 * The date forms Access reads beyond ISO and m/d/y (sql_parse_datetime
 * tries those first): month names ("8-Oct-2021", "October 8, 2021",
 * "8 October 2021", "2021-Oct-08", "Oct 2021"), day/month when the first
 * number cannot be a month ("13/10/2021"), two-digit years (windowed
 * 30/70 as Windows does), and a time anywhere after the date: h:mm[:ss]
 * or h[:mm[:ss]] AM/PM, 12- or 24-hour. Without a date the value is a
 * time of 1899-12-30.
 */
typedef struct dtok {
    char kind;          /* 'n' number, 'm' month name, 'a' AM, 'p' PM */
    long v;
    int digits;
    char after;         /* the separator that follows: ':' or other */
} dtok;

static int month_word(const char *w, size_t n)
{
    if (n < 3)
        return 0;
    for (int m = 0; m < 12; m++) {
        size_t ln = strlen(sql_month_names[m]);
        if (n <= ln && !strncasecmp(w, sql_month_names[m], n) &&
            (n == 3 || n == ln || (m == 8 && n == 4)))
            return m + 1;
    }
    return 0;
}

static bool day_word(const char *w, size_t n)
{
    for (int k = 0; k < 7; k++) {
        size_t ln = strlen(sql_day_names[k]);
        if (n >= 3 && n <= ln && !strncasecmp(w, sql_day_names[k], n))
            return true;
    }
    return false;
}

int sql_date_parse_loose(const char *s, size_t n, double *out)
{
    dtok t[12];
    size_t nt = 0, i = 0;
    while (i < n) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == ',' || ch == '-' || ch == '/' ||
            ch == '.' || ch == ':') {
            if (nt && (ch == ':' || ch == '.') && t[nt - 1].after == 0)
                t[nt - 1].after = ch;
            else if (nt && t[nt - 1].after == 0)
                t[nt - 1].after = ' ';
            i++;
            continue;
        }
        if (nt == sizeof t / sizeof t[0])
            return -1;
        dtok *k = &t[nt];
        memset(k, 0, sizeof *k);
        if (ch >= '0' && ch <= '9') {
            k->kind = 'n';
            while (i < n && s[i] >= '0' && s[i] <= '9') {
                if (k->digits >= 9)
                    return -1;
                k->v = k->v * 10 + (s[i] - '0');
                k->digits++;
                i++;
            }
        } else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') {
            size_t b = i;
            while (i < n && (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')
                i++;
            size_t wl = i - b;
            if (wl == 2 && !strncasecmp(s + b, "am", 2)) {
                k->kind = 'a';
            } else if (wl == 2 && !strncasecmp(s + b, "pm", 2)) {
                k->kind = 'p';
            } else if ((k->v = month_word(s + b, wl)) != 0) {
                k->kind = 'm';
            } else if (day_word(s + b, wl)) {
                continue;       /* "Friday, October 8, 2021" */
            } else {
                return -1;
            }
        } else {
            return -1;
        }
        nt++;
    }
    /* the time: the first number followed by ':' or by AM/PM */
    size_t tstart = nt;
    for (size_t k = 0; k < nt; k++) {
        if (t[k].kind == 'n' && (t[k].after == ':' ||
                                 (k + 1 < nt && (t[k + 1].kind == 'a' ||
                                                 t[k + 1].kind == 'p')))) {
            tstart = k;
            break;
        }
    }
    int64_t ms = 0;
    if (tstart < nt) {
        long hms[3] = { 0, 0, 0 };
        size_t k = tstart, nh = 0;
        while (k < nt && t[k].kind == 'n' && nh < 3) {
            if (t[k].digits > 2)
                return -1;
            hms[nh++] = t[k].v;
            bool more = t[k].after == ':';
            k++;
            if (!more)
                break;
        }
        if (k < nt && (t[k].kind == 'a' || t[k].kind == 'p')) {
            if (hms[0] < 1 || hms[0] > 12)
                return -1;
            hms[0] = hms[0] % 12 + (t[k].kind == 'p' ? 12 : 0);
            k++;
        } else if (nh < 2) {
            return -1;
        }
        if (k != nt || hms[0] > 23 || hms[1] > 59 || hms[2] > 59)
            return -1;
        ms = ((int64_t)hms[0] * 3600 + hms[1] * 60 + hms[2]) * 1000;
    }
    size_t nd = tstart;
    if (nd == 0) {
        if (tstart == nt)
            return -1;
        *out = (double)ms / (double)MS_PER_DAY;
        return 0;
    }
    long y = -1, m = -1, d = -1;
    int ydig = 0;
    size_t mpos = nd;
    for (size_t k = 0; k < nd; k++) {
        if (t[k].kind == 'a' || t[k].kind == 'p')
            return -1;
        if (t[k].kind == 'm') {
            if (mpos != nd)
                return -1;
            mpos = k;
        }
    }
    if (mpos != nd) {
        /* a month name and one or two numbers */
        long num[2];
        int dig[2];
        size_t cnt = 0;
        for (size_t k = 0; k < nd; k++)
            if (k != mpos) {
                if (cnt == 2)
                    return -1;
                num[cnt] = t[k].v;
                dig[cnt++] = t[k].digits;
            }
        m = t[mpos].v;
        if (cnt == 2) {
            if (dig[0] >= 3 || num[0] > 31) {       /* 2021-Oct-08 */
                y = num[0]; ydig = dig[0]; d = num[1];
            } else {
                d = num[0]; y = num[1]; ydig = dig[1];
            }
        } else if (cnt == 1) {
            if (dig[0] >= 3 || num[0] > 31) {       /* Oct 2021 */
                y = num[0]; ydig = dig[0]; d = 1;
            } else {
                return -1;      /* no year: would need today's */
            }
        } else {
            return -1;
        }
    } else {
        if (nd != 3)
            return -1;
        long a = t[0].v, b = t[1].v, cc = t[2].v;
        if (t[0].digits >= 3) {
            y = a; ydig = t[0].digits; m = b; d = cc;
        } else if (a > 12 && b <= 12) {             /* 13/10/2021 */
            d = a; m = b; y = cc; ydig = t[2].digits;
        } else {
            m = a; d = b; y = cc; ydig = t[2].digits;
        }
    }
    if (ydig <= 2)
        y = (long)sql_window_year(y);
    if (y < 100 || y > 9999 || m < 1 || m > 12 || d < 1 ||
        d > sql_month_len((int)y, (int)m))
        return -1;
    *out = sql_days_of_key(sql_jday_of(y, m, d) * MS_PER_DAY + ms);
    return 0;
}

/* ----------------------------------------------------------- numbers */

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
    double d = jet_strtod_c(text, &end);
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

size_t sql_like_fixed_prefix(const like_pat *pat)
{
    if (pat->invalid || pat->n == 0 || pat->e[pat->n - 1].kind != PE_ANY)
        return SIZE_MAX;
    for (size_t i = 0; i + 1 < pat->n; i++)
        if (pat->e[i].kind == PE_ANY)
            return SIZE_MAX;
    return pat->n - 1;
}

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

int sql_sv_double(const sv *v, double *out)
{
    return to_double(v, out);
}

int sql_sv_int(const sv *v, int64_t *out)
{
    return to_int(v, out);
}

int sql_sv_date(const sv *v, double *out)
{
    return to_date(v, out);
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

void sql_sv_describe(const sv *v, char *buf, size_t cap)
{
    switch (v->k) {
    case K_NULL: snprintf(buf, cap, "NULL"); break;
    case K_BOOL: snprintf(buf, cap, "%s", v->i ? "TRUE" : "FALSE"); break;
    case K_INT: snprintf(buf, cap, "%lld", (long long)v->i); break;
    case K_MONEY: jet_money_format(v->i, buf, cap); break;
    case K_DOUBLE: jet_fmt_double_c(buf, cap, 'g', 17, v->d); break;
    case K_DEC: sql_dec_format(v, buf, cap); break;
    case K_DATE: {
        jet_timestamp ts;
        if (split_days(v->d, &ts) == 0)
            snprintf(buf, cap, "#%04d-%02d-%02d %02d:%02d:%02d#", ts.year,
                     ts.month, ts.day, ts.hour, ts.minute, ts.second);
        else if (cap > 2) {
            buf[0] = '#';
            size_t n = (size_t)jet_fmt_double_c(buf + 1, cap - 2, 'g', 6,
                                                v->d);
            n = n < cap - 3 ? n : cap - 3;
            memcpy(buf + 1 + n, "#", 2);
        }
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

/* ------------------------------------------------------- sort records */

int sql_key_cmp(jet_collation co, const sv *a, const sv *b)
{
    if (a->k == K_NULL || b->k == K_NULL)
        return (a->k != K_NULL) - (b->k != K_NULL);
    int r = 0;
    if (sql_sv_cmp(co, a, b, &r) != 0) {
        /* unlike kinds (a computed column mixing types): by kind */
        return a->k < b->k ? -1 : a->k > b->k;
    }
    return r;
}

/* Heap sort's sift-down of v[i] within v[0..n) (max-heap by key). */
static void sv_sift(sv *v, size_t i, size_t n, jet_collation co)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && sql_key_cmp(co, &v[l], &v[m]) > 0)
            m = l;
        if (r < n && sql_key_cmp(co, &v[r], &v[m]) > 0)
            m = r;
        if (m == i)
            return;
        sv t = v[i];
        v[i] = v[m];
        v[m] = t;
        i = m;
    }
}

void sql_sv_sort(sv *v, size_t n, jet_collation co)
{
    for (size_t i = n / 2; i-- > 0;)
        sv_sift(v, i, n, co);
    while (n > 1) {
        sv t = v[0];
        v[0] = v[--n];
        v[n] = t;
        sv_sift(v, 0, n, co);
    }
}

uint64_t sql_sv_hash(const sv *v)
{
    uint64_t h = 1469598103934665603ull;
    double d;
    switch (v->k) {
    case K_NULL:
        return 0;
    case K_BOOL: case K_INT: case K_MONEY: case K_DOUBLE: case K_DEC:
        /* numbers hash by value: 1, 1.0 and 1 MONEY meet */
        d = v->k == K_BOOL ? (v->i ? -1.0 : 0.0) : v->k == K_INT ?
            (double)v->i : v->k == K_MONEY ? (double)v->i / 10000.0 :
            v->k == K_DEC ? sql_dec_to_double(v) : v->d;
        if (d == 0)
            d = 0;              /* -0.0 */
        {
            uint64_t b;
            memcpy(&b, &d, sizeof b);
            h = (h ^ b) * 1099511628211ull;
        }
        return h ^ (h >> 31);
    case K_DATE: {
        int64_t ms = sql_date_key(v->d);
        h = (h ^ (uint64_t)ms) * 1099511628211ull;
        return h ^ 0x5bd1e995u;
    }
    case K_TEXT: {
        /* folded code points without trailing spaces, as sql_text_cmp
         * compares them */
        size_t n = sql_text_unpadded(v->s, v->n);
        for (size_t i = 0; i < n; i++) {
            uint32_t u = v->s[i];
            if (u < 0x80) {
                u += (u - 'A' < 26u) ? 32 : 0;
            } else {
                if (u >= 0xD800 && u < 0xDC00 && i + 1 < n &&
                    v->s[i + 1] >= 0xDC00 && v->s[i + 1] < 0xE000) {
                    u = 0x10000 + ((u - 0xD800) << 10) +
                        (v->s[i + 1] - 0xDC00u);
                    i++;
                }
                u = jet_text_fold(u);
            }
            h = (h ^ u) * 1099511628211ull;
        }
        return h ^ 0x7f4a7c15u;
    }
    default:
        for (size_t i = 0; i < v->len; i++)
            h = (h ^ v->p[i]) * 1099511628211ull;
        return h;
    }
}
