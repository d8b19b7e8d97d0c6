/*
 * func_format.c - Format(expression[, format[, firstdayofweek[,
 * firstweekofyear]]]) and the text of numbers and dates that CStr and &
 * produce.
 *
 * As VBA's Format (Microsoft's "Format function" and "User-defined
 * formats" pages) in the United States locale (Access's default on a
 * machine without other settings; no locale is read here):
 * - named formats: General Number, Currency, Fixed, Standard, Percent,
 *   Scientific, Yes/No, True/False, On/Off, General Date, Long Date,
 *   Medium Date, Short Date, Long Time, Medium Time, Short Time;
 * - number patterns: 0 # . , % E+ E- e+ e-, literals ("text", \c, $ - +
 *   ( ) space), up to four sections (positive;negative;zero;null); a
 *   comma right before the point or the end scales by 1000; numbers
 *   round half away from zero on their 15-digit decimal form, as VBA's
 *   Format does (Round is the one that rounds half to even);
 * - date patterns: d dd ddd dddd ddddd dddddd w ww m mm mmm mmmm q y yy
 *   yyyy h hh n nn s ss ttttt c AM/PM am/pm A/P a/p AMPM, with m after h
 *   (or before s) meaning minutes;
 * - text patterns: @ & < > (! fills from the left).
 * A Null expression gives Null (the fourth section, when given, its text).
 * Results are bounded (22001 past SQL_FUNC_MAX_TEXT).
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const mon_names[12] = {
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"
};
static const char *const wd_names[7] = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
    "Saturday"
};

/* ------------------------------------------------------ output buffer */

/* Output text: grows in the cursor's per-row scratch (no heap per row),
 * or stays in a fixed caller buffer when c is NULL. */
typedef struct obuf {
    char *p;            /* UTF-8 bytes, NUL-terminated */
    size_t n, cap;
    bool fail;
    sql_cursor *c;
} obuf;

static void ob_init(obuf *b, sql_cursor *c, char *fixed, size_t cap)
{
    b->p = fixed;
    b->n = 0;
    b->cap = cap;
    b->fail = false;
    b->c = c;
    if (fixed && cap)
        fixed[0] = '\0';
}

static void put(obuf *b, const char *s, size_t n)
{
    if (b->fail)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 128;
        while (cap < b->n + n + 1)
            cap *= 2;
        if (cap > SQL_FUNC_MAX_TEXT * 4u || !b->c) {
            b->fail = true;
            return;
        }
        char *q = sql_tmp_alloc(b->c, cap);
        if (!q) {
            b->fail = true;
            return;
        }
        if (b->n)
            memcpy(q, b->p, b->n);
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(obuf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void putc_(obuf *b, char ch)
{
    put(b, &ch, 1);
}

/* ------------------------------------------------------------ numbers */

/* A number as decimal digits: neg, digits (no leading zeros, "0" for
 * zero), and the position of the point counted from the digits' start
 * (point = ndig: an integer; may be <= 0 or > ndig). */
typedef struct dnum {
    bool neg;
    char dig[64];
    int ndig;
    int point;
} dnum;

static void dnum_trim(dnum *x)
{
    int lead = 0;
    while (lead < x->ndig - 1 && x->dig[lead] == '0' && lead < x->point - 1)
        lead++;
    if (lead) {
        memmove(x->dig, x->dig + lead, (size_t)(x->ndig - lead));
        x->ndig -= lead;
        x->point -= lead;
    }
    /* all zero: "0" */
    bool zero = true;
    for (int i = 0; i < x->ndig; i++)
        zero = zero && x->dig[i] == '0';
    if (zero) {
        x->ndig = 1;
        x->dig[0] = '0';
        x->point = 1;
        x->neg = false;
    }
}

/* value -> dnum: exact for integers, Currency and Decimal; 15
 * significant digits for doubles (VBA's view of a Double), 7 for a
 * Single's value (v->single: VBA's view of a Single). */
static int dnum_of(const sv *v, dnum *x)
{
    memset(x, 0, sizeof *x);
    char buf[80];
    jet_i128 m;
    int scale;
    if (v->k != K_DOUBLE && v->k != K_DATE && sql_dec_exact(v, &m, &scale)) {
        jet_u128 u = i128_mag(m), r;
        x->neg = i128_sign(m) < 0;
        char tmp[64];
        int k = 0;
        do {
            u = u128_divmod(u, u128_of(10), &r);
            tmp[k++] = (char)('0' + (int)u128_lo64(r));
        } while (!u128_is_zero(u));
        while (k <= scale)
            tmp[k++] = '0';
        for (int i = 0; i < k; i++)
            x->dig[i] = tmp[k - 1 - i];
        x->ndig = k;
        x->point = k - scale;
        dnum_trim(x);
        return 0;
    }
    double d;
    if (sql_sv_double(v, &d) != 0 || !isfinite(d))
        return -1;
    jet_fmt_double_c(buf, sizeof buf, 'e', v->single ? 6 : 14, d);
    /* [-]d.ddddddddddddddde[+-]xx */
    const char *p = buf;
    if (*p == '-') {
        x->neg = true;
        p++;
    }
    int k = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            x->dig[k++] = *p;
    int e10 = atoi(p + 1);
    while (k > 1 && x->dig[k - 1] == '0')
        k--;
    x->ndig = k;
    x->point = e10 + 1;
    if (x->point <= 0) {
        /* leading zeros after the point */
        int z = 1 - x->point;
        if (z + k >= (int)sizeof x->dig) {
            x->ndig = 1;
            x->dig[0] = '0';
            x->point = 1;
            x->neg = false;
            return 0;
        }
        memmove(x->dig + z, x->dig, (size_t)k);
        memset(x->dig, '0', (size_t)z);
        x->ndig = k + z;
        x->point = 1;
    }
    /* point may lie past the digits (1E+300): the rest are zeros */
    dnum_trim(x);
    return 0;
}

/* round to `frac` places, half away from zero */
static void dnum_round(dnum *x, int frac)
{
    int keep = x->point + frac;        /* digits kept */
    if (keep >= x->ndig)
        return;
    if (keep < 0) {
        x->ndig = 1;
        x->dig[0] = '0';
        x->point = 1;
        return;
    }
    bool up = x->dig[keep] >= '5';
    x->ndig = keep;
    if (up) {
        int i = keep - 1;
        while (i >= 0 && x->dig[i] == '9')
            x->dig[i--] = '0';
        if (i >= 0) {
            x->dig[i]++;
        } else {
            memmove(x->dig + 1, x->dig, (size_t)x->ndig);
            x->dig[0] = '1';
            x->ndig++;
            x->point++;
        }
    }
    if (x->ndig == 0) {
        x->dig[0] = '0';
        x->ndig = 1;
        x->point = 1;
    }
    dnum_trim(x);
}

static void dnum_shift(dnum *x, int by)    /* multiply by 10^by */
{
    x->point += by;
    while (x->point > x->ndig && x->ndig < (int)sizeof x->dig - 1)
        x->dig[x->ndig++] = '0';
    if (x->point <= 0) {
        int z = 1 - x->point;
        if (z + x->ndig < (int)sizeof x->dig) {
            memmove(x->dig + z, x->dig, (size_t)x->ndig);
            memset(x->dig, '0', (size_t)z);
            x->ndig += z;
            x->point = 1;
        }
    }
    dnum_trim(x);
}

static bool dnum_zero(const dnum *x)
{
    return x->ndig == 1 && x->dig[0] == '0';
}

/* integer digits of x as text (without sign), grouped by 3 if asked */
static void int_digits(const dnum *x, bool group, obuf *b)
{
    int n = x->point;
    for (int i = 0; i < n; i++) {
        putc_(b, i < x->ndig ? x->dig[i] : '0');
        if (group && (n - 1 - i) % 3 == 0 && i != n - 1)
            putc_(b, ',');
    }
}

/* a fixed format: grouping, `frac` places, at least one integer digit */
static void fixed_text(const dnum *x0, int frac, bool group, obuf *b)
{
    dnum x = *x0;
    dnum_round(&x, frac);
    int_digits(&x, group, b);
    if (frac > 0) {
        putc_(b, '.');
        for (int i = 0; i < frac; i++) {
            int idx = x.point + i;
            putc_(b, idx < x.ndig && idx >= 0 ? x.dig[idx] : '0');
        }
    }
}

/* d.ddE+xx with `frac` places */
static void sci_text(const dnum *x0, int frac, obuf *b, const char *e,
                     bool plus)
{
    dnum x = *x0;
    int e10 = 0;
    if (!dnum_zero(&x)) {
        /* first nonzero digit */
        int f = 0;
        while (f < x.ndig && x.dig[f] == '0')
            f++;
        e10 = x.point - f - 1;
        dnum_shift(&x, -e10);
        dnum_round(&x, frac);
        if (x.point > 1) {
            dnum_shift(&x, -1);
            e10++;
        }
    }
    int_digits(&x, false, b);
    if (frac > 0) {
        putc_(b, '.');
        for (int i = 0; i < frac; i++) {
            int idx = x.point + i;
            putc_(b, idx < x.ndig && idx >= 0 ? x.dig[idx] : '0');
        }
    }
    char buf[16];
    snprintf(buf, sizeof buf, "%s%s%02d", e,
             e10 < 0 ? "-" : plus ? "+" : "", e10 < 0 ? -e10 : e10);
    puts_(b, buf);
}

/* VBA's text of a Double (single false: 15 significant digits, plain
 * from 1E-5 to below 1E15) or of a Single (7 digits, plain from 1E-5 to
 * below 1E7 after rounding), else scientific "1.5E-07", "1E+15". */
static size_t format_vba(double d, bool single, char *buf, size_t cap)
{
    obuf b;
    char fixed[96];
    ob_init(&b, NULL, fixed, sizeof fixed);
    sv v;
    sql_set_double(&v, d);
    v.single = single;
    dnum x;
    if (!isfinite(d) || dnum_of(&v, &x) != 0) {
        snprintf(buf, cap, "%s", isnan(d) ? "NaN" : d < 0 ? "-Inf" : "Inf");
        return strlen(buf);
    }
    double a = fabs(d);
    bool sci = a != 0 && (a < 1e-5 || a >= 1e15);
    if (single && a != 0) {
        /* the exponent of the 7 digits (9999999.5 shows as 1E+07) */
        char m[40];
        jet_fmt_double_c(m, sizeof m, 'e', 6, a);
        const char *ep = strchr(m, 'e');
        int e10 = ep ? atoi(ep + 1) : 0;
        sci = e10 < -5 || e10 >= 7;
    }
    if (sci) {
        /* d.dddE+xx: 15 (7) significant digits, no trailing zeros */
        char m[40];
        jet_fmt_double_c(m, sizeof m, 'E', single ? 6 : 14, d);
        char *ep = strchr(m, 'E');
        if (!ep)
            return (size_t)snprintf(buf, cap, "%s", m);
        int e10 = atoi(ep + 1);
        *ep = '\0';
        size_t ml = strlen(m);
        while (ml > 0 && m[ml - 1] == '0')
            m[--ml] = '\0';
        if (ml > 0 && m[ml - 1] == '.')
            m[--ml] = '\0';
        return (size_t)snprintf(buf, cap, "%sE%c%02d", m, e10 < 0 ? '-' : '+',
                                e10 < 0 ? -e10 : e10);
    }
    if (x.neg)
        putc_(&b, '-');
    {
        int_digits(&x, false, &b);
        if (x.ndig > x.point) {
            putc_(&b, '.');
            put(&b, x.dig + x.point, (size_t)(x.ndig - x.point));
        }
    }
    size_t n = b.fail ? 0 : b.n;
    snprintf(buf, cap, "%s", b.fail ? "0" : b.p);
    return n;
}

size_t sql_format_double(double d, char *buf, size_t cap)
{
    return format_vba(d, false, buf, cap);
}

size_t sql_format_single(double d, char *buf, size_t cap)
{
    return format_vba(d, true, buf, cap);
}

/* ------------------------------------------------------------- dates */

typedef struct dfields {
    int y, m, d, h, n, s;
    int64_t day;        /* Jet day number */
    double days;        /* the value */
} dfields;

static int fields_of(double days, dfields *f)
{
    jet_timestamp ts;
    if (jet_datetime_split(days, &ts) != JET_OK)
        return -1;
    f->y = ts.year;
    f->m = ts.month;
    f->d = ts.day;
    f->h = ts.hour;
    f->n = ts.minute;
    f->s = ts.second;
    f->day = (int64_t)floor((double)sql_date_key(days) / 86400000.0);
    f->days = days;
    return 0;
}

static int weekday_sun(int64_t day)     /* 1 = Sunday */
{
    return (int)(((day % 7) + 7 + 6) % 7) + 1;
}

static void put_num(obuf *b, int v, int width)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%0*d", width, v);
    puts_(b, buf);
}

static void short_date(const dfields *f, obuf *b)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d/%d/%04d", f->m, f->d, f->y);
    puts_(b, buf);
}

static void long_date(const dfields *f, obuf *b)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s, %s %d, %04d", wd_names[weekday_sun(f->day) - 1],
             mon_names[f->m - 1], f->d, f->y);
    puts_(b, buf);
}

static void long_time(const dfields *f, obuf *b)
{
    char buf[32];
    int h12 = f->h % 12 == 0 ? 12 : f->h % 12;
    snprintf(buf, sizeof buf, "%d:%02d:%02d %s", h12, f->n, f->s,
             f->h < 12 ? "AM" : "PM");
    puts_(b, buf);
}

static void general_date(const dfields *f, obuf *b)
{
    /* VBA: no date part (day 0, 1899-12-30) shows the time alone, even
     * midnight ("12:00:00 AM"); a whole day shows the date alone */
    bool has_time = f->h || f->n || f->s;
    if (f->day == 0) {
        long_time(f, b);
        return;
    }
    short_date(f, b);
    if (has_time) {
        putc_(b, ' ');
        long_time(f, b);
    }
}

size_t sql_format_date(double days, char *buf, size_t cap)
{
    dfields f;
    obuf b;
    char fixed[96];
    ob_init(&b, NULL, fixed, sizeof fixed);
    if (fields_of(days, &f) != 0)
        return 0;
    general_date(&f, &b);
    size_t n = b.fail ? 0 : b.n;
    snprintf(buf, cap, "%s", b.fail ? "" : b.p);
    return n;
}

static bool has_ci(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && !strncasecmp(p, w, n);
}

/* A literal of a Format pattern at *qp, "quoted text" or \c: copied to
 * b (skipped when b is NULL); *qp is left on its last character (the
 * closing quote, the escaped character), as the pattern loops expect.
 * false when *qp starts no literal. */
static bool pattern_literal(obuf *b, const char **qp, const char *end)
{
    const char *q = *qp;
    if (*q == '"') {
        const char *s0 = ++q;
        while (q < end && *q != '"')
            q++;
        if (b)
            put(b, s0, (size_t)(q - s0));
    } else if (*q == '\\') {
        if (q + 1 < end) {
            q++;
            if (b)
                putc_(b, *q);
        }
    } else {
        return false;
    }
    *qp = q;
    return true;
}

static size_t run_of(const char *p, const char *end, char ch)
{
    size_t n = 0;
    while (p + n < end && (p[n] | 0x20) == ch)
        n++;
    return n;
}

/* h/hh, n/nn, s/ss at p: v with one or (doubled letter) two digits;
 * returns the pattern position after the letters. */
static const char *put_time_part(obuf *b, const char *p, const char *end,
                                 int v)
{
    int width = run_of(p, end, (char)(*p | 0x20)) >= 2 ? 2 : 1;
    put_num(b, v, width);
    return p + width;
}

/* Is there an hour token before p (the last date token being h/hh)? */
static void format_date(const dfields *f, const char *p, const char *end,
                        int fdow, int fwoy, obuf *b)
{
    /* AM/PM anywhere makes hours 12-hour */
    bool ampm = false;
    for (const char *q = p; q < end; q++) {
        if (*q == '"') {
            q++;
            while (q < end && *q != '"')
                q++;
            continue;
        }
        if (*q == '\\') {
            q++;
            continue;
        }
        if (has_ci(q, end, "am/pm") || has_ci(q, end, "a/p") ||
            has_ci(q, end, "ampm")) {
            ampm = true;
            break;
        }
    }
    bool after_hour = false;
    while (p < end && !b->fail) {
        char ch = *p;
        char lc = (char)(ch | 0x20);
        if (ch == '"') {
            const char *q = ++p;
            while (p < end && *p != '"')
                p++;
            put(b, q, (size_t)(p - q));
            if (p < end)
                p++;
            continue;
        }
        if (ch == '\\') {
            if (p + 1 < end)
                putc_(b, p[1]);
            p += 2;
            continue;
        }
        if (has_ci(p, end, "am/pm")) {
            bool up = p[0] == 'A';
            puts_(b, f->h < 12 ? (up ? "AM" : "am") : (up ? "PM" : "pm"));
            p += 5;
            continue;
        }
        if (has_ci(p, end, "a/p")) {
            bool up = p[0] == 'A';
            putc_(b, f->h < 12 ? (up ? 'A' : 'a') : (up ? 'P' : 'p'));
            p += 3;
            continue;
        }
        if (has_ci(p, end, "ampm")) {
            puts_(b, f->h < 12 ? "AM" : "PM");
            p += 4;
            continue;
        }
        size_t r;
        switch (lc) {
        case 'c':
            general_date(f, b);
            p++;
            after_hour = false;
            continue;
        case 'd':
            r = run_of(p, end, 'd');
            if (r == 1) put_num(b, f->d, 1);
            else if (r == 2) put_num(b, f->d, 2);
            else if (r == 3) put(b, wd_names[weekday_sun(f->day) - 1], 3);
            else if (r == 4) puts_(b, wd_names[weekday_sun(f->day) - 1]);
            else if (r == 5) short_date(f, b);
            else long_date(f, b);
            p += r > 6 ? 6 : r;
            after_hour = false;
            continue;
        case 'w':
            r = run_of(p, end, 'w');
            if (r >= 2)
                put_num(b, sql_date_week(f->days, fdow, fwoy), 1);
            else
                put_num(b, (weekday_sun(f->day) - fdow + 7) % 7 + 1, 1);
            p += r >= 2 ? 2 : 1;
            after_hour = false;
            continue;
        case 'm': {
            r = run_of(p, end, 'm');
            /* minutes right after h/hh or right before s/ss */
            const char *q = p + r;
            while (q < end && (*q == ':' || *q == ' '))
                q++;
            bool minute = r <= 2 && (after_hour || (q < end &&
                                                    (*q | 0x20) == 's'));
            if (minute) put_num(b, f->n, (int)r);
            else if (r == 1) put_num(b, f->m, 1);
            else if (r == 2) put_num(b, f->m, 2);
            else if (r == 3) put(b, mon_names[f->m - 1], 3);
            else puts_(b, mon_names[f->m - 1]);
            p += r > 4 ? 4 : r;
            after_hour = false;
            continue;
        }
        case 'q':
            put_num(b, (f->m - 1) / 3 + 1, 1);
            p++;
            after_hour = false;
            continue;
        case 'y':
            r = run_of(p, end, 'y');
            if (r >= 3) {
                put_num(b, f->y, 4);
                p += r >= 4 ? 4 : 3;
            } else if (r == 2) {
                put_num(b, f->y % 100, 2);
                p += 2;
            } else {
                put_num(b, (int)(f->day - (int64_t)sql_days_from_civil(
                                     f->y, 1, 1, 0)) + 1, 1);
                p++;
            }
            after_hour = false;
            continue;
        case 'h':
            p = put_time_part(b, p, end, ampm ? (f->h % 12 == 0 ? 12
                                                 : f->h % 12) : f->h);
            after_hour = true;
            continue;
        case 'n':
            p = put_time_part(b, p, end, f->n);
            after_hour = false;
            continue;
        case 's':
            p = put_time_part(b, p, end, f->s);
            after_hour = false;
            continue;
        case 't':
            if (has_ci(p, end, "ttttt")) {
                long_time(f, b);
                p += 5;
                continue;
            }
            break;
        default:
            break;
        }
        putc_(b, ch);
        if (ch != ':' && ch != ' ')
            after_hour = false;
        p++;
    }
}

/* ---------------------------------------------------- number patterns */

static void format_number(const dnum *x0, const char *p, const char *end,
                          bool neg_sign, obuf *b)
{
    /* first pass: what the pattern asks for */
    int nint = 0, nint0 = 0, nfrac = 0, nfrac0 = 0, pct = 0;
    bool point = false, group = false, exp = false;
    int scale3 = 0;
    const char *q;
    for (q = p; q < end; q++) {
        char ch = *q;
        if (pattern_literal(NULL, &q, end))
            continue;
        if (exp)
            continue;
        if (ch == '0' || ch == '#') {
            if (point) {
                nfrac++;
                if (ch == '0')
                    nfrac0 = nfrac;
            } else {
                nint++;
                if (ch == '0' || nint0)
                    nint0++;
            }
        } else if (ch == '.') {
            point = true;
        } else if (ch == ',' && !point) {
            /* commas right before the point or the end scale by 1000 */
            const char *r = q;
            while (r < end && *r == ',')
                r++;
            if (r >= end || *r == '.' || !(*r == '0' || *r == '#')) {
                scale3 += (int)(r - q);
                q = r - 1;
            } else if (nint > 0) {
                group = true;
            }
        } else if (ch == '%') {
            pct++;
        } else if ((ch == 'E' || ch == 'e') && q + 1 < end &&
                   (q[1] == '+' || q[1] == '-')) {
            exp = true;
        }
    }
    dnum x = *x0;
    x.neg = false;
    if (pct)
        dnum_shift(&x, 2 * pct);
    if (scale3)
        dnum_shift(&x, -3 * scale3);
    /* digits */
    obuf digits, fracd;
    char dbuf[160], fbuf[160];
    ob_init(&digits, NULL, dbuf, sizeof dbuf);
    ob_init(&fracd, NULL, fbuf, sizeof fbuf);
    int e10 = 0;
    if (exp) {
        int lead = nint > 0 ? nint : 1;
        if (!dnum_zero(&x)) {
            int f = 0;
            while (f < x.ndig && x.dig[f] == '0')
                f++;
            e10 = x.point - f - lead;
            dnum_shift(&x, -e10);
            dnum_round(&x, nfrac);
            if (x.point > lead) {
                dnum_shift(&x, -1);
                e10++;
            }
        }
    } else {
        dnum_round(&x, nfrac);
    }
    if (!(x.point == 1 && x.dig[0] == '0' && nint0 == 0))
        int_digits(&x, group, &digits);
    for (int i = 0; i < nfrac; i++) {
        int idx = x.point + i;
        putc_(&fracd, idx < x.ndig && idx >= 0 ? x.dig[idx] : '0');
    }
    /* trailing fraction zeros that only '#' asked for go */
    size_t fl = fracd.n;
    while ((int)fl > nfrac0 && fl > 0 && fracd.p[fl - 1] == '0')
        fl--;
    /* integer digits: pad to the count of '0's */
    size_t il = digits.n;
    /* digits without grouping for distribution */
    int pad = nint0 - (int)il;
    if (neg_sign)
        putc_(b, '-');
    /* second pass: emit */
    int seen_int = 0;
    size_t di = 0;          /* digits emitted */
    bool fr = false;
    size_t fi = 0;
    bool exp_done = false;
    for (q = p; q < end && !b->fail; q++) {
        char ch = *q;
        if (pattern_literal(b, &q, end))
            continue;
        if (exp_done && (ch == '0' || ch == '#'))
            continue;
        if ((ch == '0' || ch == '#') && !fr) {
            seen_int++;
            int remaining = nint - seen_int;    /* placeholders after */
            /* emit digits so that `remaining` digits are left */
            size_t total = il + (size_t)(pad > 0 ? pad : 0);
            size_t want = total > (size_t)remaining ? total - (size_t)remaining
                                                    : 0;
            while (di < want) {
                if (di < (size_t)(pad > 0 ? pad : 0))
                    putc_(b, '0');
                else
                    putc_(b, digits.p[di - (size_t)(pad > 0 ? pad : 0)]);
                di++;
            }
            continue;
        }
        if (ch == '.' && !fr) {
            fr = true;
            putc_(b, '.');      /* VBA keeps it: Format(5, "#.##") = "5." */
            continue;
        }
        if ((ch == '0' || ch == '#') && fr) {
            if (fi < fl)
                putc_(b, fracd.p[fi]);
            fi++;
            continue;
        }
        if (ch == ',') {
            continue;       /* grouping / scaling handled above */
        }
        if (ch == '%') {
            putc_(b, '%');
            continue;
        }
        if ((ch == 'E' || ch == 'e') && q + 1 < end &&
            (q[1] == '+' || q[1] == '-')) {
            bool plus = q[1] == '+';
            q++;
            int ndig = 0;
            while (q + 1 < end && (q[1] == '0' || q[1] == '#')) {
                ndig += q[1] == '0';
                q++;
            }
            char buf[48];
            if (ndig > 8)
                ndig = 8;
            snprintf(buf, sizeof buf, "%c%s%0*d", ch,
                     e10 < 0 ? "-" : plus ? "+" : "", ndig ? ndig : 1,
                     (e10 < 0 ? -e10 : e10) % 100000);
            puts_(b, buf);
            exp_done = true;
            continue;
        }
        putc_(b, ch);
    }
    if (digits.fail || fracd.fail)
        b->fail = true;
}

/* ----------------------------------------------------- text patterns */

static void format_text(const char *s, size_t sn, const char *p,
                        const char *end, obuf *b)
{
    int slots = 0;
    bool lower = false, upper = false, left = false;
    for (const char *q = p; q < end; q++) {
        if (pattern_literal(NULL, &q, end))
            continue;           /* a quoted or escaped @ is no slot */
        if (*q == '@' || *q == '&')
            slots++;
        else if (*q == '<')
            lower = true;
        else if (*q == '>')
            upper = true;
        else if (*q == '!')
            left = true;
    }
    if (slots == 0) {
        /* only < > ! : the whole text, case-changed */
        for (size_t i = 0; i < sn; i++) {
            char ch = s[i];
            if (upper && ch >= 'a' && ch <= 'z')
                ch = (char)(ch - 32);
            else if (lower && ch >= 'A' && ch <= 'Z')
                ch = (char)(ch + 32);
            putc_(b, ch);
        }
        return;
    }
    /* characters fill the placeholders from the right (from the left
     * with !); extra characters go before (after) */
    size_t skip = 0;
    size_t si = 0;
    if (!left && sn > (size_t)slots)
        skip = sn - (size_t)slots;
    int slot = 0;
    for (const char *q = p; q < end && !b->fail; q++) {
        char ch = *q;
        if (ch == '<' || ch == '>' || ch == '!')
            continue;
        if (pattern_literal(b, &q, end))
            continue;
        if (ch == '@' || ch == '&') {
            if (slot == 0 && skip) {
                put(b, s, skip);
                si = skip;
            }
            slot++;
            /* right-aligned: the first (slots - sn) placeholders are empty */
            int empty = !left && (size_t)slots > sn ? slots - (int)sn : 0;
            if (slot <= empty || si >= sn) {
                if (ch == '@')
                    putc_(b, ' ');
                continue;
            }
            char c2 = s[si++];
            if (upper && c2 >= 'a' && c2 <= 'z')
                c2 = (char)(c2 - 32);
            else if (lower && c2 >= 'A' && c2 <= 'Z')
                c2 = (char)(c2 + 32);
            putc_(b, c2);
            continue;
        }
        putc_(b, ch);
    }
    if (left && si < sn)
        put(b, s + si, sn - si);
}

/* the literal characters of a section ("text", \c, others as they are) */
static void format_literals(const char *p, const char *end, obuf *b)
{
    for (const char *q = p; q < end && !b->fail; q++) {
        if (*q == '"') {
            const char *s0 = ++q;
            while (q < end && *q != '"')
                q++;
            put(b, s0, (size_t)(q - s0));
            continue;
        }
        if (*q == '\\') {
            if (q + 1 < end)
                putc_(b, *++q);
            continue;
        }
        putc_(b, *q);
    }
}

/* ------------------------------------------------------------ driver */

/* section i (0-based) of a ;-separated pattern; false if absent */
static bool section(const char *p, size_t n, int i, const char **s,
                    const char **e)
{
    const char *q = p, *end = p + n;
    int k = 0;
    const char *start = p;
    for (; q < end; q++) {
        if (*q == '"') {
            q++;
            while (q < end && *q != '"')
                q++;
            if (q >= end)
                break;
            continue;
        }
        if (*q == '\\') {
            q++;
            continue;
        }
        if (*q == ';') {
            if (k == i) {
                *s = start;
                *e = q;
                return true;
            }
            k++;
            start = q + 1;
        }
    }
    if (k == i) {
        *s = start;
        *e = end;
        return true;
    }
    return false;
}

/* pattern class: 'n' number, 'd' date, 't' text */
static char pattern_kind(const char *p, const char *end)
{
    bool date = false;
    for (const char *q = p; q < end; q++) {
        char ch = *q, lc = (char)(ch | 0x20);
        if (pattern_literal(NULL, &q, end))
            continue;
        if (ch == '0' || ch == '#')
            return 'n';
        if (ch == '@' || ch == '&')
            return 't';
        if (lc == 'd' || lc == 'm' || lc == 'y' || lc == 'h' || lc == 'n' ||
            lc == 's' || lc == 'q' || lc == 'w' || lc == 'c' ||
            (lc == 't' && has_ci(q, end, "ttttt")) ||
            has_ci(q, end, "am/pm") || has_ci(q, end, "a/p"))
            date = true;
    }
    return date ? 'd' : 't';
}

static bool named(const char *p, size_t n, const char *name)
{
    return strlen(name) == n && !strncasecmp(p, name, n);
}

/* named formats; true when p was one */
static bool format_named(const sv *v, const char *p, size_t n, obuf *b,
                         bool *bad)
{
    static const char *const numeric_names[] = {
        "General Number", "Currency", "Fixed", "Standard", "Percent",
        "Scientific", "Yes/No", "True/False", "On/Off"
    };
    static const char *const date_names[] = {
        "General Date", "Long Date", "Medium Date", "Short Date",
        "Long Time", "Medium Time", "Short Time"
    };
    for (int k = 0; k < 9; k++) {
        if (!named(p, n, numeric_names[k]))
            continue;
        dnum x;
        sv nv = *v;
        if (v->k == K_DATE) {
            sql_set_double(&nv, v->d);
        }
        if (dnum_of(&nv, &x) != 0) {
            *bad = true;
            return true;
        }
        bool neg = x.neg;
        switch (k) {
        case 0: {
            char buf[64];
            double d;
            if (nv.k == K_DOUBLE || nv.k == K_TEXT) {
                if (sql_sv_double(&nv, &d) != 0) {
                    *bad = true;
                    return true;
                }
                format_vba(d, nv.k == K_DOUBLE && nv.single, buf,
                           sizeof buf);
                puts_(b, buf);
            } else {
                if (neg)
                    putc_(b, '-');
                int_digits(&x, false, b);
                if (x.ndig > x.point) {
                    putc_(b, '.');
                    put(b, x.dig + x.point, (size_t)(x.ndig - x.point));
                }
            }
            break;
        }
        case 1: {
            dnum r = x;
            dnum_round(&r, 2);
            if (neg && !dnum_zero(&r))
                putc_(b, '(');
            putc_(b, '$');
            fixed_text(&x, 2, true, b);
            if (neg && !dnum_zero(&r))
                putc_(b, ')');
            break;
        }
        case 2: case 3: {
            dnum r = x;
            dnum_round(&r, 2);
            if (neg && !dnum_zero(&r))
                putc_(b, '-');
            fixed_text(&x, 2, k == 3, b);
            break;
        }
        case 4: {
            dnum_shift(&x, 2);
            dnum r = x;
            dnum_round(&r, 2);
            if (neg && !dnum_zero(&r))
                putc_(b, '-');
            fixed_text(&x, 2, false, b);
            putc_(b, '%');
            break;
        }
        case 5:
            if (neg)
                putc_(b, '-');
            sci_text(&x, 2, b, "E", true);
            break;
        default: {
            bool z = dnum_zero(&x);
            static const char *const yn[3][2] = {
                { "Yes", "No" }, { "True", "False" }, { "On", "Off" }
            };
            puts_(b, yn[k - 6][z ? 1 : 0]);
            break;
        }
        }
        return true;
    }
    for (int k = 0; k < 7; k++) {
        if (!named(p, n, date_names[k]))
            continue;
        double days;
        dfields f;
        if (sql_sv_date(v, &days) != 0 || fields_of(days, &f) != 0) {
            *bad = true;
            return true;
        }
        char buf[64];
        int h12 = f.h % 12 == 0 ? 12 : f.h % 12;
        switch (k) {
        case 0: general_date(&f, b); break;
        case 1: long_date(&f, b); break;
        case 2:
            snprintf(buf, sizeof buf, "%02d-%.3s-%02d", f.d,
                     mon_names[f.m - 1], f.y % 100);
            puts_(b, buf);
            break;
        case 3: short_date(&f, b); break;
        case 4: long_time(&f, b); break;
        case 5:
            snprintf(buf, sizeof buf, "%02d:%02d %s", h12, f.n,
                     f.h < 12 ? "AM" : "PM");
            puts_(b, buf);
            break;
        default:
            snprintf(buf, sizeof buf, "%02d:%02d", f.h, f.n);
            puts_(b, buf);
            break;
        }
        return true;
    }
    return false;
}

/* UTF-16 -> UTF-8 into a fresh buffer (the patterns and texts here are
 * mostly ASCII; others pass through as UTF-8) */
static char *to_utf8(sql_cursor *cur, const uint16_t *s, size_t n,
                     size_t *out_n)
{
    if (n > SQL_FUNC_MAX_TEXT)
        return NULL;
    char *p = sql_tmp_alloc(cur, n * 3 + 1);
    if (!p)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = s[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 &&
            s[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00u);
        }
        if (c < 0x80) {
            p[k++] = (char)c;
        } else if (c < 0x800) {
            p[k++] = (char)(0xC0 | (c >> 6));
            p[k++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            p[k++] = (char)(0xE0 | (c >> 12));
            p[k++] = (char)(0x80 | ((c >> 6) & 0x3F));
            p[k++] = (char)(0x80 | (c & 0x3F));
        } else {
            /* 4 bytes need n*3 room for the pair's 2 units: fine */
            p[k++] = (char)(0xF0 | (c >> 18));
            p[k++] = (char)(0x80 | ((c >> 12) & 0x3F));
            p[k++] = (char)(0x80 | ((c >> 6) & 0x3F));
            p[k++] = (char)(0x80 | (c & 0x3F));
        }
    }
    p[k] = '\0';
    *out_n = k;
    return p;
}

static int f_format(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int fdow = 1, fwoy = 1;
    for (size_t i = 2; i < e->nargs && i < 4; i++) {
        int64_t v;
        if (a[i].k == K_NULL)
            continue;
        int rc = sql_sv_int(&a[i], &v);
        if (rc != 0 || v < 0 || v > (i == 2 ? 7 : 3))
            return sql_cursor_fail(c, "22023", e->position, "Invalid "
                                   "procedure call: Format argument %zu "
                                   "(at character %zu)", i + 1,
                                   e->position);
        if (i == 2)
            fdow = v ? (int)v : 1;
        else
            fwoy = v ? (int)v : 1;
    }
    sv pat;
    bool have_pat = e->nargs > 1 && a[1].k != K_NULL;
    if (have_pat && sql_sv_text(c, &a[1], &pat) != 0)
        return sql_fail_mismatch(c, e);
    if (!have_pat || pat.n == 0) {
        if (a[0].k == K_NULL)
            return 0;
        if (sql_sv_text(c, &a[0], out) != 0)
            return sql_fail_mismatch(c, e);
        return 0;
    }
    size_t pn = 0;
    char *p = to_utf8(c, pat.s, pat.n, &pn);
    if (!p)
        return sql_fail_nomem(c);
    obuf b;
    ob_init(&b, c, NULL, 0);
    bool bad = false, is_null = false;
    const char *s0, *s1;
    if (a[0].k == K_NULL) {
        /* the fourth section is the text for Null */
        if (section(p, pn, 3, &s0, &s1)) {
            format_literals(s0, s1, &b);
        } else {
            is_null = true;
        }
    } else if (format_named(&a[0], p, pn, &b, &bad)) {
        /* done */
    } else {
        section(p, pn, 0, &s0, &s1);
        char kind = pattern_kind(s0, s1);
        dnum x;
        double days;
        sv tv;
        if (kind == 'n' && (a[0].k != K_TEXT || sql_sv_double(&a[0],
                                                              &days) == 0) &&
            a[0].k != K_BIN && a[0].k != K_GUID &&
            dnum_of(a[0].k == K_DATE ? (sql_set_double(&tv, a[0].d), &tv)
                                     : &a[0], &x) == 0) {
            const char *z0, *z1;
            if (dnum_zero(&x) && section(p, pn, 2, &z0, &z1)) {
                format_number(&x, z0, z1, false, &b);
            } else if (x.neg && section(p, pn, 1, &z0, &z1) && z1 > z0) {
                format_number(&x, z0, z1, false, &b);
            } else {
                /* the sign only when the rounded value is not zero */
                format_number(&x, s0, s1, x.neg, &b);
            }
        } else if (kind == 'd' && a[0].k != K_BIN && a[0].k != K_GUID &&
                   sql_sv_date(&a[0], &days) == 0) {
            dfields f;
            if (fields_of(days, &f) != 0)
                bad = true;
            else
                format_date(&f, s0, s1, fdow, fwoy, &b);
        } else {
            sv t;
            if (sql_sv_text(c, &a[0], &t) != 0) {
                bad = true;
            } else {
                size_t tn = 0;
                char *ts = to_utf8(c, t.s, t.n, &tn);
                if (!ts)
                    return sql_fail_nomem(c);
                format_text(ts, tn, s0, s1, &b);
            }
        }
    }
    if (bad)
        return sql_fail_mismatch(c, e);
    if (b.fail) {
        return sql_cursor_fail(c, "22001", e->position, "String data, right "
                               "truncated: Format result too long (at "
                               "character %zu)", e->position);
    }
    if (is_null)
        return 0;
    uint16_t *u = sql_utf8_to_u16(b.p ? b.p : "", &pn,
                                  (void *(*)(void *, size_t))sql_tmp_alloc,
                                  c);
    if (!u)
        return sql_fail_nomem(c);
    sql_set_text(out, u, pn);
    return 0;
}

const sql_funcdef sql_funcs_format[] = {
    { "FORMAT", 1, 4, FN_NULLS, FR_TEXT, 2u, f_format },
    { NULL, 0, 0, 0, 0, 0, NULL },
};
