/*
 * value_fmt.c - scalar value helpers: result code names, DATETIME and
 * Date/Time Extended to calendar fields, NUMERIC and MONEY to exact text.
 *
 * Calendar: proleptic Gregorian, no time zone. DATETIME is a double of days
 * since 1899-12-30 whose fraction, taken as an absolute value, is the time of
 * day (so -1.25 is 1899-12-29 06:00). Date/Time Extended (ACE 17) is 42 ASCII
 * bytes: 19 digits of days since 0001-01-01, ':', 12 digits of seconds into
 * the day, 7 digits of 100 ns units, then ':' '7' 0x00.
 * Format: Jackcess ColumnImpl (readExtendedDateValue, fromLocalDateDouble).
 * NUMERIC is a sign and a 96-bit magnitude with the column's scale; it is
 * printed by exact 96-bit division, never through a double.
 */
#include <math.h> /* isfinite only */
#include <stdio.h>
#include <string.h>

#include "jet.h"

const char *jet_rc_str(jet_rc rc)
{
    switch (rc) {
    case JET_OK:
        return "success";
    case JET_DONE:
        return "no more data";
    case JET_ENOMEM:
        return "out of memory";
    case JET_EIO:
        return "input/output error";
    case JET_ECORRUPT:
        return "file is damaged";
    case JET_EUNSUPPORTED:
        return "feature not supported";
    case JET_EPASSWORD:
        return "password missing or wrong";
    case JET_ENOTFOUND:
        return "not found";
    case JET_ELIMIT:
        return "value out of range";
    case JET_EINTERRUPTED:
        return "operation cancelled";
    case JET_EFORMAT:
        return "not a Jet/ACE database";
    case JET_EBUSY:
        return "database is locked";
    case JET_EREADONLY:
        return "database is read-only";
    case JET_EDUPLICATE:
        return "duplicate key";
    case JET_ECONSTRAINT:
        return "a rule of the table refuses the row";
    case JET_ETOOLONG:
        return "value too long for its column";
    case JET_EARGUMENT:
        return "malformed argument";
    }
    return "unknown error";
}

/* ------------------------------------------------------------ calendar */

#define DAYS_1899_12_30 (-25569)  /* days from 1970-01-01 */
#define DAYS_0001_01_01 (-719162) /* days from 1970-01-01 */
#define MS_PER_DAY 86400000

/* Days since 1970-01-01 -> proleptic Gregorian year/month/day
 * (civil-from-days over 400-year eras of 146097 days, March-based years). */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468; /* shift epoch to 0000-03-01 */
    if (z >= 0 && z <= 100000000) {
        /* Every date a valid value reaches (years 0..273790): the same
         * result by Neri and Schneider's "Euclidean affine functions"
         * (2022): multiplications and shifts in place of most divisions.
         * Checked equal to the general steps below for every z in
         * [0, 1e8]. n1: quarter-days; c: century; nc: day of century;
         * yc: year of century; ny: day of the March-based year. */
        uint32_t n1 = 4 * (uint32_t)z + 3;
        uint32_t c = n1 / 146097;
        uint32_t nc = n1 % 146097 / 4;
        uint64_t p2 = 2939745u * (uint64_t)(4 * nc + 3);
        uint32_t yc = (uint32_t)(p2 >> 32);
        uint32_t ny = (uint32_t)p2 / 2939745u / 4;
        uint32_t n3 = 2141 * ny + 197913;
        uint32_t jan_feb = ny >= 306;   /* months 13, 14: next year */
        *d = (n3 & 0xFFFF) / 2141 + 1;
        *m = jan_feb ? (n3 >> 16) - 12 : n3 >> 16;
        *y = (int64_t)(100 * c + yc + jan_feb);
        return;
    }
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                       /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100); /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                      /* [0, 11] */
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static jet_rc fill_timestamp(jet_timestamp *out, int64_t unix_days,
                             int64_t secs, uint32_t ns)
{
    int64_t y;
    unsigned mo, d;
    civil_from_days(unix_days, &y, &mo, &d);
    if (y < 1 || y > 9999)
        return JET_ELIMIT;
    out->year = (int16_t)y;
    out->month = (uint8_t)mo;
    out->day = (uint8_t)d;
    uint32_t usecs = (uint32_t)secs;   /* [0, 86400) from both callers */
    out->hour = (uint8_t)(usecs / 3600);
    out->minute = (uint8_t)(usecs / 60 % 60);
    out->second = (uint8_t)(usecs % 60);
    out->fraction_ns = ns;
    return JET_OK;
}

jet_rc jet_datetime_split(double days, jet_timestamp *out)
{
    /* Years 1..9999 lie well inside +-3e6 days; reject early so the
     * integer conversions below are defined. */
    if (!isfinite(days) || days < -1000000.0 || days > 4000000.0)
        return JET_ELIMIT;
    /* Casts truncate toward zero; with |days| < 2^52 the subtraction is
     * exact, so frac equals fmod(|days|, 1) and the last cast is floor()
     * of a positive number. No libm needed. */
    int64_t day = (int64_t)days;
    double mag = days < 0 ? -days : days;
    double frac = mag - (double)(int64_t)mag;
    int64_t ms = (int64_t)(frac * (double)MS_PER_DAY + 0.5);
    if (ms >= MS_PER_DAY) {
        ms -= MS_PER_DAY;
        day += 1;
    }
    return fill_timestamp(out, day + DAYS_1899_12_30, ms / 1000,
                          (uint32_t)(ms % 1000) * 1000000u);
}

/* n ASCII digits at p -> *out; false when one is not a digit. */
static bool read_digits(const uint8_t *p, size_t n, int64_t *out)
{
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        if (v > (INT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return true;
}

jet_rc jet_ext_datetime_split(const jet_value *v, jet_timestamp *out)
{
    /* 0..18 days, 19 ':', 20..31 seconds, 32..38 100ns units, 39.. ":7\0" */
    if (!v->data || v->len < 39 || v->data[19] != ':')
        return JET_ECORRUPT;
    int64_t days, secs, units;
    if (!read_digits(v->data, 19, &days) ||
        !read_digits(v->data + 20, 12, &secs) ||
        !read_digits(v->data + 32, 7, &units))
        return JET_ECORRUPT;
    if (days > 4000000 || secs > 4000000LL * 86400)
        return JET_ECORRUPT;
    days += secs / 86400;
    secs %= 86400;
    jet_rc rc = fill_timestamp(out, days + DAYS_0001_01_01, secs,
                               (uint32_t)units * 100u);
    return rc == JET_ELIMIT ? JET_ECORRUPT : rc;
}

/* ------------------------------------------------------------- numbers */

/* Copy len bytes of s into buf (cap bytes incl. NUL), snprintf-like. */
static size_t put_text(char *buf, size_t cap, const char *s, size_t len)
{
    if (cap > 0) {
        size_t n = len < cap - 1 ? len : cap - 1;
        memcpy(buf, s, n);
        buf[n] = '\0';
    }
    return len;
}

/*
 * digits: least significant first, ndigits of them; writes sign, integer
 * part (at least "0"), and scale fraction digits into buf.
 */
static size_t format_decimal(char *buf, size_t cap, bool negative,
                             const char *digits, size_t ndigits,
                             unsigned scale)
{
    char tmp[320];
    size_t n = 0;
    /* drop leading zeros beyond what the scale needs */
    while (ndigits > scale + 1 && digits[ndigits - 1] == '0')
        ndigits--;
    bool zero = true;
    for (size_t i = 0; i < ndigits; i++)
        if (digits[i] != '0')
            zero = false;
    if (negative && !zero)
        tmp[n++] = '-';
    size_t width = ndigits > scale ? ndigits : scale + 1;
    for (size_t i = width; i-- > 0;) {
        if (i + 1 == scale)
            tmp[n++] = '.';
        tmp[n++] = i < ndigits ? digits[i] : '0';
    }
    return put_text(buf, cap, tmp, n);
}

size_t jet_numeric_format(const jet_value *v, char *buf, size_t cap)
{
    uint32_t w[3];
    for (int i = 0; i < 3; i++)
        w[i] = (uint32_t)v->u.num.mag[4 * i] |
               (uint32_t)v->u.num.mag[4 * i + 1] << 8 |
               (uint32_t)v->u.num.mag[4 * i + 2] << 16 |
               (uint32_t)v->u.num.mag[4 * i + 3] << 24;
    char digits[32]; /* 2^96 has 29 digits */
    size_t nd = 0;
    do {
        uint64_t rem = 0;
        for (int i = 2; i >= 0; i--) {
            uint64_t cur = rem << 32 | w[i];
            w[i] = (uint32_t)(cur / 10);
            rem = cur % 10;
        }
        digits[nd++] = (char)('0' + rem);
    } while ((w[0] | w[1] | w[2]) != 0);
    return format_decimal(buf, cap, v->u.num.negative, digits, nd,
                          v->u.num.scale);
}

size_t jet_money_format(int64_t money, char *buf, size_t cap)
{
    /* what format_decimal gives for scale 4, written right to left:
     * four fraction digits, '.', at least one whole digit, the sign
     * (a negative int64 is never zero) */
    bool negative = money < 0;
    uint64_t mag = negative ? (uint64_t)(-(money + 1)) + 1 : (uint64_t)money;
    char tmp[32];
    char *end = tmp + sizeof tmp, *p = end;
    for (int i = 0; i < 4; i++) {
        *--p = (char)('0' + mag % 10);
        mag /= 10;
    }
    *--p = '.';
    do {
        *--p = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (negative)
        *--p = '-';
    return put_text(buf, cap, p, (size_t)(end - p));
}
