/*
 * func_date.c - date and time functions and the loose date parser.
 *
 * Now, Date, Time, Year, Month, Day, Hour, Minute, Second, Weekday,
 * DatePart, DateAdd, DateDiff, DateSerial, TimeSerial, DateValue,
 * TimeValue, MonthName, WeekdayName and the ODBC CURDATE, CURTIME,
 * DAYOFMONTH, DAYOFWEEK, DAYOFYEAR, QUARTER, WEEK.
 *
 * Values are Jet days (double since 1899-12-30; before it the integer
 * part counts back and the fraction is still the time of day forwards).
 * Calendar arithmetic works on a linear millisecond count (sql_date_key)
 * split into a day number and the time of day, so negative dates behave.
 * Semantics follow Microsoft's "DatePart/DateAdd/DateDiff function"
 * pages: intervals yyyy q m y d w ww h n s; firstdayofweek 0-7 (0 and
 * the default: Sunday); firstweekofyear 1 (the week of January 1, the
 * default), 2 (the first week of four days), 3 (the first full week);
 * DateDiff counts boundaries crossed (midnights, hour starts, the first
 * days of weeks for "ww", whole 7-day spans for "w"); DateAdd does not
 * return invalid dates (Jan 31 + 1 month = the last day of February) and
 * rounds a fractional number of intervals to a whole one; a result
 * before year 100 or after 9999 is error 5 (22008 here).
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <math.h>
#include <string.h>
#include <strings.h>
#include <time.h>


/* the first and last valid Jet days (100-01-01, 9999-12-31 23:59:59) */
#define KEY_MIN (-657434LL * MS_PER_DAY)
#define KEY_MAX (2958465LL * MS_PER_DAY + MS_PER_DAY - 1)

typedef struct dparts {
    int64_t key;        /* linear ms */
    int64_t day;        /* Jet day number */
    int64_t ms;         /* ms of the day */
    int y, m, d;
} dparts;

static int date_arg(sql_cursor *c, const enode *e, const sv *v, dparts *p)
{
    double days;
    if (sql_sv_date(v, &days) != 0)
        return sql_fail_mismatch(c, e);
    if (!(days > -657435.0 && days < 2958466.0))
        return sql_cursor_fail(c, "22008", e->position, "Date out of range "
                               "(at character %zu)", e->position);
    p->key = sql_date_key(days);
    p->day = sql_floor_div(p->key, MS_PER_DAY);
    p->ms = p->key - p->day * MS_PER_DAY;
    sql_civil(p->day, &p->y, &p->m, &p->d);
    return 0;
}

static int range_error(sql_cursor *c, const enode *e)
{
    return sql_cursor_fail(c, "22008", e->position, "Invalid procedure "
                           "call: date out of range (at character %zu)",
                           e->position);
}

static int set_key(sql_cursor *c, const enode *e, int64_t key, sv *out)
{
    if (key < KEY_MIN || key > KEY_MAX)
        return range_error(c, e);
    memset(out, 0, sizeof *out);
    out->k = K_DATE;
    out->d = sql_days_of_key(key);
    return 0;
}

/* weekday of a Jet day number, 1..7 counted from firstdayofweek (1 =
 * Sunday); 1899-12-30 was a Saturday */
static int weekday_of(int64_t day, int fdow)
{
    int sun = (int)(((day % 7) + 7 + 6) % 7) + 1;     /* 1 = Sunday */
    return (sun - fdow + 7) % 7 + 1;
}

static int fdow_arg(sql_cursor *c, const enode *e, const sv *args,
                    size_t i, int *fdow)
{
    *fdow = 1;
    if (e->nargs <= i || args[i].k == K_NULL)
        return 0;
    int64_t v;
    if (sql_arg_int(c, e, &args[i], &v) != 0)
        return -1;
    if (v < 0 || v > 7)
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call: firstdayofweek %lld (at character "
                               "%zu)", (long long)v, e->position);
    *fdow = v == 0 ? 1 : (int)v;
    return 0;
}

/* ISO-like week number under firstweekofyear rule fwoy (1, 2, 3) */
static int week_of_year(const dparts *p, int fdow, int fwoy)
{
    int y = p->y;
    for (int pass = 0; pass < 3; pass++) {
        int64_t jan1 = sql_jday_of(y, 1, 1);
        int wd = weekday_of(jan1, fdow);
        int64_t start;
        if (fwoy == 3)
            start = wd == 1 ? jan1 : jan1 + (8 - wd);
        else if (fwoy == 2)
            start = wd <= 4 ? jan1 - (wd - 1) : jan1 + (8 - wd);
        else
            start = jan1 - (wd - 1);
        if (p->day >= start) {
            if (fwoy != 1 && pass == 0) {
                /* a date late in December may be week 1 of next year */
                int64_t nj = sql_jday_of(y + 1, 1, 1);
                int nwd = weekday_of(nj, fdow);
                int64_t nstart = fwoy == 3 ? (nwd == 1 ? nj : nj + (8 - nwd))
                                 : (nwd <= 4 ? nj - (nwd - 1) : nj + (8 - nwd));
                if (p->day >= nstart)
                    return 1;
            }
            return (int)((p->day - start) / 7) + 1;
        }
        y--;
    }
    return 1;
}

int sql_date_week(double days, int fdow, int fwoy)
{
    dparts p;
    p.key = sql_date_key(days);
    p.day = sql_floor_div(p.key, MS_PER_DAY);
    p.ms = p.key - p.day * MS_PER_DAY;
    sql_civil(p.day, &p.y, &p.m, &p.d);
    return week_of_year(&p, fdow < 1 || fdow > 7 ? 1 : fdow,
                        fwoy < 1 || fwoy > 3 ? 1 : fwoy);
}

/* interval text -> code: Y Q M y(doy) D W(w) V(ww) H N S; 0 if unknown */
static int interval_of(sql_cursor *c, const enode *e, const sv *v,
                       char *out)
{
    sv t;
    if (sql_sv_text(c, v, &t) != 0)
        return sql_fail_mismatch(c, e);
    char buf[8] = { 0 };
    size_t n = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] == ' ')
            continue;
        if (n >= 4 || t.s[i] >= 0x80)
            goto bad;
        buf[n++] = (char)(t.s[i] | 0x20);
    }
    static const struct { const char *s; char code; } iv[] = {
        { "yyyy", 'Y' }, { "q", 'Q' }, { "m", 'M' }, { "y", 'y' },
        { "d", 'D' }, { "w", 'W' }, { "ww", 'V' }, { "h", 'H' },
        { "n", 'N' }, { "s", 'S' },
    };
    for (size_t i = 0; i < sizeof iv / sizeof iv[0]; i++)
        if (!strcmp(buf, iv[i].s)) {
            *out = iv[i].code;
            return 0;
        }
bad:
    return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                           "call: unknown interval (at character %zu)",
                           e->position);
}

/* ---------------------------------------------------------- clock */

/* The local time now, Jet days. */
static double now_days(void)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!localtime_r(&t, &tm))
        return 0;
    return sql_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                               ((int64_t)tm.tm_hour * 3600 + tm.tm_min * 60 +
                                tm.tm_sec) * 1000);
}

/* NOW() of c's run in Jet days: the clock is read once, at the first
 * call for c or any child cursor of its run (new_cursor clears
 * now_read), so that a statement that never asks pays no clock and
 * time-zone read. */
static double sql_cursor_now(sql_cursor *c)
{
    while (c->outer)
        c = c->outer;
    if (!c->now_read) {
        c->now = now_days();
        c->now_read = true;
    }
    return c->now;
}

static int f_now(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)e; (void)a;
    out->k = K_DATE;
    out->d = sql_cursor_now(c);
    return 0;
}

static int f_date(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)e; (void)a;
    out->k = K_DATE;
    out->d = trunc(sql_cursor_now(c));
    return 0;
}

static int f_time(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)e; (void)a;
    out->k = K_DATE;
    double now = sql_cursor_now(c);
    out->d = now - trunc(now);
    return 0;
}

/* ---------------------------------------------------------- parts */

static int part(sql_cursor *c, const enode *e, sv *a, sv *out, char what)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    int64_t v = 0;
    switch (what) {
    case 'Y': v = p.y; break;
    case 'M': v = p.m; break;
    case 'D': v = p.d; break;
    case 'H': v = p.ms / 3600000; break;
    case 'N': v = p.ms / 60000 % 60; break;
    case 'S': v = p.ms / 1000 % 60; break;
    case 'Q': v = (p.m - 1) / 3 + 1; break;
    case 'y': v = p.day - sql_jday_of(p.y, 1, 1) + 1; break;
    default: break;
    }
    sql_set_int(out, v);
    return 0;
}

/* Year, Month, ... as FuncDef implementations: part() with its letter */
#define DATE_PART_FN(fname, what)                                          \
    static int fname(sql_cursor *c, const enode *e, sv *a, sv *out)       \
    {                                                                      \
        return part(c, e, a, out, what);                                   \
    }

DATE_PART_FN(f_year, 'Y')
DATE_PART_FN(f_month, 'M')
DATE_PART_FN(f_day, 'D')
DATE_PART_FN(f_hour, 'H')
DATE_PART_FN(f_minute, 'N')
DATE_PART_FN(f_second, 'S')
DATE_PART_FN(f_quarter, 'Q')
DATE_PART_FN(f_dayofyear, 'y')

/* Weekday(date[, firstdayofweek]) */
static int f_weekday(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    int fdow;
    if (a[0].k == K_NULL)
        return 0;
    if (date_arg(c, e, &a[0], &p) != 0 || fdow_arg(c, e, a, 1, &fdow) != 0)
        return -1;
    sql_set_int(out, weekday_of(p.day, fdow));
    return 0;
}

/* WEEK(date) (ODBC): week of the year, weeks from Sunday, Jan 1 in 1 */
static int f_week(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    sql_set_int(out, week_of_year(&p, 1, 1));
    return 0;
}

/* DatePart(interval, date[, firstdayofweek[, firstweekofyear]]) */
static int f_datepart(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    char iv;
    dparts p;
    int fdow, fwoy = 1;
    if (a[0].k == K_NULL || a[1].k == K_NULL)
        return 0;
    if (interval_of(c, e, &a[0], &iv) != 0 || date_arg(c, e, &a[1], &p) != 0 ||
        fdow_arg(c, e, a, 2, &fdow) != 0)
        return -1;
    if (e->nargs > 3 && a[3].k != K_NULL) {
        int64_t w;
        if (sql_arg_int(c, e, &a[3], &w) != 0)
            return -1;
        if (w < 0 || w > 3)
            return sql_cursor_fail(c, "22023", e->position, "Invalid "
                                   "procedure call: firstweekofyear %lld "
                                   "(at character %zu)", (long long)w,
                                   e->position);
        fwoy = w == 0 ? 1 : (int)w;
    }
    int64_t v;
    switch (iv) {
    case 'Y': v = p.y; break;
    case 'Q': v = (p.m - 1) / 3 + 1; break;
    case 'M': v = p.m; break;
    case 'y': v = p.day - sql_jday_of(p.y, 1, 1) + 1; break;
    case 'D': v = p.d; break;
    case 'W': v = weekday_of(p.day, fdow); break;
    case 'V': v = week_of_year(&p, fdow, fwoy); break;
    case 'H': v = p.ms / 3600000; break;
    case 'N': v = p.ms / 60000 % 60; break;
    default: v = p.ms / 1000 % 60; break;
    }
    sql_set_int(out, v);
    return 0;
}

/* add months keeping the day inside the month */
static int add_months(sql_cursor *c, const enode *e, const dparts *p,
                      int64_t months, sv *out)
{
    if (months > 200000 || months < -200000)
        return range_error(c, e);
    int64_t t = (int64_t)p->y * 12 + (p->m - 1) + months;
    int64_t y = sql_floor_div(t, 12);
    int m = (int)(t - y * 12) + 1;
    if (y < 100 || y > 9999)
        return range_error(c, e);
    int d = p->d, ml = sql_month_len((int)y, m);
    if (d > ml)
        d = ml;
    return set_key(c, e, sql_jday_of(y, m, d) * MS_PER_DAY + p->ms, out);
}

/* DateAdd(interval, number, date) */
static int f_dateadd(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    char iv;
    dparts p;
    int64_t n;
    if (interval_of(c, e, &a[0], &iv) != 0 ||
        sql_arg_int(c, e, &a[1], &n) != 0 || date_arg(c, e, &a[2], &p) != 0)
        return -1;
    int64_t unit;
    switch (iv) {
    case 'Y':
        if (n > 10000 || n < -10000)
            return range_error(c, e);
        return add_months(c, e, &p, n * 12, out);
    case 'Q':
        if (n > 40000 || n < -40000)
            return range_error(c, e);
        return add_months(c, e, &p, n * 3, out);
    case 'M':
        return add_months(c, e, &p, n, out);
    case 'V': unit = 7 * MS_PER_DAY; break;
    case 'H': unit = 3600000; break;
    case 'N': unit = 60000; break;
    case 'S': unit = 1000; break;
    default: unit = MS_PER_DAY; break;     /* y d w */
    }
    if (n > (int64_t)4e15 / unit || n < -(int64_t)4e15 / unit)
        return range_error(c, e);
    return set_key(c, e, p.key + n * unit, out);
}

/* DateDiff(interval, date1, date2[, firstdayofweek[, firstweekofyear]]) */
static int f_datediff(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    char iv;
    dparts p, q;
    int fdow;
    if (a[0].k == K_NULL || a[1].k == K_NULL || a[2].k == K_NULL)
        return 0;
    if (interval_of(c, e, &a[0], &iv) != 0 || date_arg(c, e, &a[1], &p) != 0 ||
        date_arg(c, e, &a[2], &q) != 0 || fdow_arg(c, e, a, 3, &fdow) != 0)
        return -1;
    int64_t v;
    switch (iv) {
    case 'Y': v = q.y - p.y; break;
    case 'Q': v = ((int64_t)q.y * 4 + (q.m - 1) / 3) -
                  ((int64_t)p.y * 4 + (p.m - 1) / 3); break;
    case 'M': v = ((int64_t)q.y * 12 + q.m) - ((int64_t)p.y * 12 + p.m); break;
    case 'W': v = (q.day - p.day) / 7; break;
    case 'V': {
        int64_t s1 = p.day - (weekday_of(p.day, fdow) - 1);
        int64_t s2 = q.day - (weekday_of(q.day, fdow) - 1);
        v = (s2 - s1) / 7;
        break;
    }
    case 'H': v = sql_floor_div(q.key, 3600000) - sql_floor_div(p.key, 3600000); break;
    case 'N': v = sql_floor_div(q.key, 60000) - sql_floor_div(p.key, 60000); break;
    case 'S': v = sql_floor_div(q.key, 1000) - sql_floor_div(p.key, 1000); break;
    default: v = q.day - p.day; break;                  /* y d */
    }
    sql_set_int(out, v);
    return 0;
}

/* DateSerial(year, month, day): month and day may overflow either way */
static int f_dateserial(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t y, m, d;
    if (sql_arg_int(c, e, &a[0], &y) != 0 ||
        sql_arg_int(c, e, &a[1], &m) != 0 || sql_arg_int(c, e, &a[2], &d) != 0)
        return -1;
    if (y < -100000 || y > 100000 || m < -1200000 || m > 1200000 ||
        d < -4000000 || d > 4000000)
        return range_error(c, e);
    y = sql_window_year(y);
    int64_t t = y * 12 + (m - 1);
    int64_t yy = sql_floor_div(t, 12);
    int mm = (int)(t - yy * 12) + 1;
    int64_t day = sql_jday_of(yy, mm, 1) + (d - 1);
    return set_key(c, e, day * MS_PER_DAY, out);
}

/* TimeSerial(hour, minute, second): a time (before 1899-12-30 when the
 * total is negative, as VBA gives) */
static int f_timeserial(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t h, m, s;
    if (sql_arg_int(c, e, &a[0], &h) != 0 ||
        sql_arg_int(c, e, &a[1], &m) != 0 || sql_arg_int(c, e, &a[2], &s) != 0)
        return -1;
    if (h < -1000000 || h > 1000000 || m < -60000000 || m > 60000000 ||
        s < -(int64_t)4e9 || s > (int64_t)4e9)
        return range_error(c, e);
    return set_key(c, e, (h * 3600 + m * 60 + s) * 1000, out);
}

/* DateValue(x): the date part; TimeValue(x): the time part */
static int f_datevalue(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    return set_key(c, e, p.day * MS_PER_DAY, out);
}

static int f_timevalue(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    return set_key(c, e, p.ms, out);
}

static int name_text(sql_cursor *c, const char *name, bool abbrev, sv *out)
{
    size_t n = strlen(name);
    if (abbrev && n > 3)
        n = 3;
    uint16_t *u = sql_tmp_alloc(c, n * sizeof *u);
    if (!u)
        return sql_fail_nomem(c);
    for (size_t i = 0; i < n; i++)
        u[i] = (uint8_t)name[i];
    sql_set_text(out, u, n);
    return 0;
}

static int abbrev_arg(sql_cursor *c, const enode *e, const sv *a, size_t i,
                      bool *ab)
{
    *ab = false;
    if (e->nargs <= i || a[i].k == K_NULL)
        return 0;
    int64_t v;
    if (sql_arg_int(c, e, &a[i], &v) != 0)
        return -1;
    *ab = v != 0;
    return 0;
}

/* MONTHNAME(date), DAYNAME(date) (ODBC) */
static int f_odbc_monthname(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    return name_text(c, sql_month_names[p.m - 1], false, out);
}

static int f_odbc_dayname(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    dparts p;
    if (date_arg(c, e, &a[0], &p) != 0)
        return -1;
    return name_text(c, sql_day_names[weekday_of(p.day, 1) - 1], false, out);
}

/* MonthName(month[, abbreviate]) (English names) */
static int f_monthname(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t m;
    bool ab;
    if (a[0].k == K_NULL)
        return 0;
    if (a[0].k == K_DATE && e->nargs == 1)
        return f_odbc_monthname(c, e, a, out);      /* {fn MONTHNAME(d)} */
    if (sql_arg_int(c, e, &a[0], &m) != 0 || abbrev_arg(c, e, a, 1, &ab) != 0)
        return -1;
    if (m < 1 || m > 12)
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call: month %lld (at character %zu)",
                               (long long)m, e->position);
    return name_text(c, sql_month_names[m - 1], ab, out);
}

/* WeekdayName(weekday[, abbreviate[, firstdayofweek]]) */
static int f_weekdayname(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t w;
    bool ab;
    int fdow;
    if (a[0].k == K_NULL)
        return 0;
    if (sql_arg_int(c, e, &a[0], &w) != 0 ||
        abbrev_arg(c, e, a, 1, &ab) != 0 || fdow_arg(c, e, a, 2, &fdow) != 0)
        return -1;
    if (w < 1 || w > 7)
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call: weekday %lld (at character %zu)",
                               (long long)w, e->position);
    return name_text(c, sql_day_names[(w - 1 + fdow - 1) % 7], ab, out);
}

int sql_tsi_interval(const char *word)
{
    static const struct { const char *w; char code; } tsi[] = {
        { "SQL_TSI_SECOND", 'S' }, { "SQL_TSI_MINUTE", 'N' },
        { "SQL_TSI_HOUR", 'H' }, { "SQL_TSI_DAY", 'D' },
        { "SQL_TSI_WEEK", 'V' }, { "SQL_TSI_MONTH", 'M' },
        { "SQL_TSI_QUARTER", 'Q' }, { "SQL_TSI_YEAR", 'Y' },
    };
    if (!word)
        return 0;
    for (size_t i = 0; i < sizeof tsi / sizeof tsi[0]; i++)
        if (!strcasecmp(word, tsi[i].w))
            return tsi[i].code;
    return strcasecmp(word, "SQL_TSI_FRAC_SECOND") ? 0 : -1;
}

/* SQL_TSI_* (ODBC) -> DateAdd/DateDiff interval code; the word arrives
 * as text (checked at prepare when written bare, compile.c; a ? or an
 * expression is checked here) */
static int tsi_interval(sql_cursor *c, const enode *e, const sv *v,
                        char *out)
{
    char buf[24];
    size_t n = 0;
    if (v->k == K_TEXT)
        for (; n < v->n && n + 1 < sizeof buf && v->s[n] < 0x80; n++)
            buf[n] = (char)v->s[n];
    buf[n] = '\0';
    int code = v->k == K_TEXT && n == v->n ? sql_tsi_interval(buf) : 0;
    if (code > 0) {
        *out = (char)code;
        return 0;
    }
    if (code < 0)
        return sql_cursor_fail(c, "HYC00", e->position, "not supported: "
                               "SQL_TSI_FRAC_SECOND (Jet dates hold whole "
                               "seconds) (at character %zu)", e->position);
    return sql_cursor_fail(c, "22023", e->position, "Invalid interval for "
                           "TIMESTAMPADD/TIMESTAMPDIFF (SQL_TSI_SECOND ... "
                           "SQL_TSI_YEAR) (at character %zu)", e->position);
}

/* interval code -> the DateAdd/DateDiff text argument */
static void interval_sv(char code, sv *out, uint16_t buf[4])
{
    const char *t = code == 'S' ? "s" : code == 'N' ? "n" : code == 'H' ? "h"
                    : code == 'D' ? "d" : code == 'V' ? "ww" : code == 'M'
                    ? "m" : code == 'Q' ? "q" : "yyyy";
    size_t n = strlen(t);
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)t[i];
    sql_set_text(out, buf, n);
}

/* {fn TIMESTAMPADD/TIMESTAMPDIFF(SQL_TSI_x, a, b)}: impl (DateAdd or
 * DateDiff) with the SQL_TSI_ word turned into its interval text. */
static int tsi_call(sql_cursor *c, const enode *e, sv *a, sv *out,
                    sql_func_impl impl)
{
    char code = 0;
    uint16_t buf[4];
    sv args[3];
    if (tsi_interval(c, e, &a[0], &code) != 0)
        return -1;
    interval_sv(code, &args[0], buf);
    args[1] = a[1];
    args[2] = a[2];
    return impl(c, e, args, out);
}

static int f_timestampadd(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return tsi_call(c, e, a, out, f_dateadd);
}

/* boundaries crossed, as DateDiff */
static int f_timestampdiff(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return tsi_call(c, e, a, out, f_datediff);
}

const sql_funcdef sql_funcs_date[] = {
    { "NOW", 0, 0, 0, FR_DATE, 0, f_now },
    { "DATE", 0, 0, 0, FR_DATE, 0, f_date },
    { "CURDATE", 0, 0, FN_ODBC, FR_DATE, 0, f_date },
    { "CURRENT_DATE", 0, 0, FN_ODBC, FR_DATE, 0, f_date },
    { "TIME", 0, 0, 0, FR_DATE, 0, f_time },
    { "CURTIME", 0, 0, FN_ODBC, FR_DATE, 0, f_time },
    { "CURRENT_TIME", 0, 0, FN_ODBC, FR_DATE, 0, f_time },
    { "CURRENT_TIMESTAMP", 0, 0, FN_ODBC, FR_DATE, 0, f_now },
    { "YEAR", 1, 1, 0, FR_LONG, 0, f_year },
    { "MONTH", 1, 1, 0, FR_LONG, 0, f_month },
    { "DAY", 1, 1, 0, FR_LONG, 0, f_day },
    { "DAYOFMONTH", 1, 1, FN_ODBC, FR_LONG, 0, f_day },
    { "HOUR", 1, 1, 0, FR_LONG, 0, f_hour },
    { "MINUTE", 1, 1, 0, FR_LONG, 0, f_minute },
    { "SECOND", 1, 1, 0, FR_LONG, 0, f_second },
    { "WEEKDAY", 1, 2, FN_NULLS, FR_LONG, 0, f_weekday },
    { "DAYOFWEEK", 1, 1, FN_ODBC | FN_NULLS, FR_LONG, 0, f_weekday },
    { "DAYOFYEAR", 1, 1, FN_ODBC, FR_LONG, 0, f_dayofyear },
    { "QUARTER", 1, 1, FN_ODBC, FR_LONG, 0, f_quarter },
    { "WEEK", 1, 1, FN_ODBC, FR_LONG, 0, f_week },
    { "DATEPART", 2, 4, FN_NULLS, FR_LONG, 1u, f_datepart },
    { "DATEADD", 3, 3, 0, FR_DATE, 1u, f_dateadd },
    { "DATEDIFF", 3, 5, FN_NULLS, FR_LONG, 1u, f_datediff },
    { "DATESERIAL", 3, 3, 0, FR_DATE, 0, f_dateserial },
    { "TIMESTAMPADD", 3, 3, FN_ODBC | FN_WORD0, FR_DATE, 0, f_timestampadd },
    { "TIMESTAMPDIFF", 3, 3, FN_ODBC | FN_WORD0, FR_LONG, 0,
      f_timestampdiff },
    { "TIMESERIAL", 3, 3, 0, FR_DATE, 0, f_timeserial },
    { "DATEVALUE", 1, 1, 0, FR_DATE, 1u, f_datevalue },
    { "TIMEVALUE", 1, 1, 0, FR_DATE, 1u, f_timevalue },
    { "MONTHNAME", 1, 2, FN_NULLS | FN_ODBC, FR_TEXT, 0, f_monthname },
    { "WEEKDAYNAME", 1, 3, FN_NULLS, FR_TEXT, 0, f_weekdayname },
    { "DAYNAME", 1, 1, FN_ODBC, FR_TEXT, 0, f_odbc_dayname },
    { NULL, 0, 0, 0, 0, 0, NULL },
};
