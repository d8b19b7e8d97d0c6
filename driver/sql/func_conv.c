/*
 * func_conv.c - choice and conversion functions: IIf, Nz, Switch,
 * Choose, IsNull, IsNumeric, IsDate, CBool, CByte, CInt, CLng, CCur,
 * CSng, CDbl, CDec, CDate, CStr, CVar, Val, Str, Hex, Oct (and the ODBC
 * IFNULL and CONVERT).
 *
 * Semantics from Microsoft's pages for each function: IIf, Switch and
 * Choose evaluate only the branch they return (Jet's expression service
 * does, so IIf(x = 0, 0, 1 / x) is safe); a Null condition counts as
 * False; Choose rounds its index and answers Null outside 1..n; Switch
 * answers Null when no condition is True; Nz(x) of a Null is "" in a
 * query (Access's documented query behaviour), Nz(x, y) is y. The C*
 * conversions round half to even (CInt(2.5) = 2, CCur at 4 decimals)
 * and answer 22003 past their type's range, 22018 for text that is no
 * number; a Null argument gives Null (Access shows #Error there).
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* -------------------------------------------------------- choices */

/* Truth of v with NULL as false (IIf, Switch). */
static int truth_of(sql_cursor *c, const enode *e, const sv *v, int *t)
{
    if (sql_sv_truth(c, e, v, t) != 0)
        return -1;
    if (*t < 0)
        *t = 0;
    return 0;
}

static int f_iif(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)a;
    sv cond;
    int t = 0;
    if (sql_eval(c, e->args[0], &cond) != 0 ||
        truth_of(c, e, &cond, &t) != 0)
        return -1;
    return sql_eval(c, e->args[t ? 1 : 2], out);
}

static int f_switch(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)a;
    if (e->nargs % 2)
        return sql_cursor_fail(c, "22023", e->position, "Invalid procedure "
                               "call: Switch needs pairs of arguments (at "
                               "character %zu)", e->position);
    for (size_t i = 0; i + 1 < e->nargs; i += 2) {
        sv cond;
        int t = 0;
        if (sql_eval(c, e->args[i], &cond) != 0 ||
            truth_of(c, e, &cond, &t) != 0)
            return -1;
        if (t)
            return sql_eval(c, e->args[i + 1], out);
    }
    memset(out, 0, sizeof *out);
    return 0;
}

static int f_choose(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)a;
    sv idx;
    int64_t k;
    if (sql_eval(c, e->args[0], &idx) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    if (idx.k == K_NULL)
        return 0;
    int rc = sql_sv_int(&idx, &k);
    if (rc == -1)
        return sql_fail_mismatch(c, e);
    if (rc != 0 || k < 1 || (uint64_t)k >= e->nargs)
        return 0;
    return sql_eval(c, e->args[k], out);
}

/* Nz(value[, valueifnull]) */
static int f_nz(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    if (a[0].k != K_NULL) {
        *out = a[0];
        return 0;
    }
    if (e->nargs > 1) {
        *out = a[1];
        return 0;
    }
    static const uint16_t empty[1] = { 0 };
    (void)c;
    sql_set_text(out, empty, 0);
    return 0;
}

/* IFNULL(value, replacement) (ODBC) */
static int f_ifnull(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)c; (void)e;
    *out = a[0].k != K_NULL ? a[0] : a[1];
    return 0;
}

static void set_bool(sv *out, bool b)
{
    memset(out, 0, sizeof *out);
    out->k = K_BOOL;
    out->i = b;
}

static int f_isnull(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)c; (void)e;
    set_bool(out, a[0].k == K_NULL);
    return 0;
}

/* Text as VBA reads a number: spaces around, a sign, digits with
 * thousands separators, one decimal point, an exponent; a leading
 * currency sign. Into an ASCII buffer for sql_dec_parse/strtod. */
static bool numeric_text(const sv *t, char *buf, size_t cap)
{
    size_t i = 0, n = t->n, k = 0;
    while (i < n && (t->s[i] == ' ' || t->s[i] == '\t'))
        i++;
    while (n > i && (t->s[n - 1] == ' ' || t->s[n - 1] == '\t'))
        n--;
    bool digits = false, point = false, exp = false;
    if (i < n && (t->s[i] == '+' || t->s[i] == '-')) {
        if (k + 1 >= cap)
            return false;
        buf[k++] = (char)t->s[i++];
    }
    if (i < n && t->s[i] == '$')
        i++;
    for (; i < n; i++) {
        uint16_t ch = t->s[i];
        if (k + 2 >= cap)
            return false;
        if (ch >= '0' && ch <= '9') {
            buf[k++] = (char)ch;
            digits = true;
        } else if (ch == ',' && digits && !point && !exp) {
            continue;
        } else if (ch == '.' && !point && !exp) {
            buf[k++] = '.';
            point = true;
        } else if ((ch == 'e' || ch == 'E' || ch == 'd' || ch == 'D') &&
                   digits && !exp) {
            buf[k++] = 'e';
            exp = true;
            if (i + 1 < n && (t->s[i + 1] == '+' || t->s[i + 1] == '-'))
                buf[k++] = (char)t->s[++i];
            if (i + 1 >= n)
                return false;
        } else {
            return false;
        }
    }
    buf[k] = '\0';
    return digits;
}

static int f_isnumeric(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)c; (void)e;
    bool r;
    char buf[128];
    switch (a[0].k) {
    case K_BOOL: case K_INT: case K_MONEY: case K_DOUBLE: case K_DEC:
        r = true;
        break;
    case K_TEXT:
        r = numeric_text(&a[0], buf, sizeof buf);
        break;
    default:
        r = false;
        break;
    }
    set_bool(out, r);
    return 0;
}

static int f_isdate(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)c; (void)e;
    double d;
    bool r = a[0].k == K_DATE ||
             (a[0].k == K_TEXT && sql_sv_date(&a[0], &d) == 0);
    set_bool(out, r);
    return 0;
}

/* ------------------------------------------------------ conversions */

/* any value as a number sv (K_INT, K_MONEY, K_DEC, K_DOUBLE); text read
 * exactly as a decimal when it is plain enough */
static int number_of(sql_cursor *c, const enode *e, const sv *v, sv *out)
{
    char buf[128];
    switch (v->k) {
    case K_BOOL:
        sql_set_int(out, v->i ? -1 : 0);
        return 0;
    case K_INT: case K_MONEY: case K_DEC: case K_DOUBLE:
        *out = *v;
        return 0;
    case K_DATE:
        sql_set_double(out, v->d);
        return 0;
    case K_TEXT:
        if (!numeric_text(v, buf, sizeof buf))
            return sql_fail_mismatch(c, e);
        if (sql_dec_parse(out, buf) == 0)
            return 0;
        {
            double d;
            char *end;
            d = jet_strtod_c(buf, &end);
            if (*end || !isfinite(d))
                return sql_fail_overflow(c, e);
            sql_set_double(out, d);
        }
        return 0;
    default:
        return sql_fail_mismatch(c, e);
    }
}

/* round half to even to an integer within [lo, hi] */
static int to_whole(sql_cursor *c, const enode *e, const sv *v, int64_t lo,
                    int64_t hi, int64_t *out)
{
    sv n;
    if (number_of(c, e, v, &n) != 0)
        return -1;
    if (n.k == K_INT) {
        *out = n.i;
    } else if (n.k == K_MONEY || n.k == K_DEC) {
        sv r;
        if (sql_dec_round(&r, &n, 0) != 0 || !i128_fits_i64(r.m))
            return sql_fail_overflow(c, e);
        *out = i128_to_i64(r.m);
    } else {
        double d = nearbyint(n.d);
        if (!(d >= -9.2e18 && d <= 9.2e18))
            return sql_fail_overflow(c, e);
        *out = (int64_t)d;
    }
    if (*out < lo || *out > hi)
        return sql_fail_overflow(c, e);
    return 0;
}

static int f_cbyte(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t v;
    if (to_whole(c, e, &a[0], 0, 255, &v) != 0)
        return -1;
    sql_set_int(out, v);
    return 0;
}

static int f_cint(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t v;
    if (to_whole(c, e, &a[0], -32768, 32767, &v) != 0)
        return -1;
    sql_set_int(out, v);
    return 0;
}

static int f_clng(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t v;
    if (to_whole(c, e, &a[0], INT32_MIN, INT32_MAX, &v) != 0)
        return -1;
    sql_set_int(out, v);
    return 0;
}

static int f_cbool(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    if (a[0].k == K_TEXT) {
        static const char *const tf[] = { "true", "false" };
        for (int k = 0; k < 2; k++) {
            size_t ln = strlen(tf[k]);
            if (a[0].n != ln)
                continue;
            size_t i = 0;
            while (i < ln && (a[0].s[i] | 0x20) == tf[k][i])
                i++;
            if (i == ln) {
                set_bool(out, k == 0);
                return 0;
            }
        }
    }
    sv n;
    if (number_of(c, e, &a[0], &n) != 0)
        return -1;
    bool b = n.k == K_DEC ? i128_sign(n.m) != 0 : n.k == K_DOUBLE ? n.d != 0 : n.i != 0;
    set_bool(out, b);
    return 0;
}

static int f_ccur(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv n;
    if (number_of(c, e, &a[0], &n) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->k = K_MONEY;
    if (n.k == K_MONEY) {
        out->i = n.i;
        return 0;
    }
    if (n.k == K_INT) {
        if (n.i > INT64_MAX / 10000 || n.i < INT64_MIN / 10000)
            return sql_fail_overflow(c, e);
        out->i = n.i * 10000;
        return 0;
    }
    if (n.k == K_DEC) {
        sv r;
        if (sql_dec_round(&r, &n, 4) != 0)
            return sql_fail_overflow(c, e);
        jet_i128 m = r.m;
        for (int s = r.scale; s < 4; s++)
            m = i128_mul(m, i128_of(10));
        if (!i128_fits_i64(m))
            return sql_fail_overflow(c, e);
        out->i = i128_to_i64(m);
        return 0;
    }
    long double x = (long double)n.d * 10000.0L;
    if (!(x > -9.223372036854775808e18L && x < 9.223372036854775807e18L))
        return sql_fail_overflow(c, e);
    out->i = (int64_t)nearbyintl(x);
    return 0;
}

static int f_cdbl(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv n;
    if (a[0].k == K_DATE) {
        sql_set_double(out, a[0].d);
        return 0;
    }
    if (number_of(c, e, &a[0], &n) != 0)
        return -1;
    double d;
    if (n.k == K_DEC)
        d = sql_dec_to_double(&n);
    else if (sql_sv_double(&n, &d) != 0)
        return sql_fail_mismatch(c, e);
    sql_set_double(out, d);
    return 0;
}

static int f_csng(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    if (f_cdbl(c, e, a, out) != 0)
        return -1;
    if (fabs(out->d) > FLT_MAX)
        return sql_fail_overflow(c, e);
    out->d = (double)(float)out->d;
    out->single = true;
    return 0;
}

static int f_cdec(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv n;
    if (number_of(c, e, &a[0], &n) != 0)
        return -1;
    jet_i128 m;
    int s;
    if (sql_dec_exact(&n, &m, &s)) {
        sql_dec_set(out, m, s);
        return 0;
    }
    if (sql_dec_from_double(out, n.d) != 0)
        return sql_fail_overflow(c, e);
    return 0;
}

static int f_cdate(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    double d;
    if (sql_sv_date(&a[0], &d) != 0)
        return sql_fail_mismatch(c, e);
    if (!(d > -657435.0 && d < 2958466.0))
        return sql_fail_overflow(c, e);
    memset(out, 0, sizeof *out);
    out->k = K_DATE;
    out->d = d;
    return 0;
}

static int f_cstr(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    if (sql_sv_text(c, &a[0], out) != 0)
        return sql_fail_mismatch(c, e);
    return 0;
}

static int f_cvar(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)c; (void)e;
    *out = a[0];
    return 0;
}

/* ---------------------------------------------------------- Val, Str */

/* Val(string): the number at the start of the text; spaces anywhere are
 * skipped, &H and &O prefixes read hex and octal, reading stops at the
 * first character that cannot continue a number. Always a Double. */
static int f_val(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    if (sql_sv_text(c, &a[0], &t) != 0)
        return sql_fail_mismatch(c, e);
    char buf[80];
    size_t k = 0, i = 0;
    while (i < t.n && (t.s[i] == ' ' || t.s[i] == '\t' || t.s[i] == '\n' ||
                       t.s[i] == '\r'))
        i++;
    if (i + 1 < t.n && t.s[i] == '&' && ((t.s[i + 1] | 0x20) == 'h' ||
                                         (t.s[i + 1] | 0x20) == 'o')) {
        int base = (t.s[i + 1] | 0x20) == 'h' ? 16 : 8;
        uint64_t v = 0;
        int nd = 0;
        for (i += 2; i < t.n; i++) {
            uint16_t ch = t.s[i];
            int dv = ch >= '0' && ch <= '9' ? ch - '0'
                     : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f' ?
                       (ch | 0x20) - 'a' + 10 : 99;
            if (dv >= base || nd >= (base == 16 ? 8 : 11))
                break;
            v = v * (uint64_t)base + (uint64_t)dv;
            nd++;
        }
        /* 16-bit values are Integers, wider ones Longs (two's complement) */
        int64_t r = nd <= (base == 16 ? 4 : 6) && v <= 0xFFFF ?
                    (int64_t)(int16_t)(uint16_t)v :
                    (int64_t)(int32_t)(uint32_t)v;
        sql_set_double(out, (double)r);
        return 0;
    }
    bool digits = false, point = false, exp = false, expdig = false;
    for (; i < t.n && k + 2 < sizeof buf; i++) {
        uint16_t ch = t.s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
            continue;
        if (ch >= '0' && ch <= '9') {
            buf[k++] = (char)ch;
            if (exp)
                expdig = true;
            else
                digits = true;
        } else if ((ch == '+' || ch == '-') &&
                   (k == 0 || (exp && buf[k - 1] == 'e'))) {
            buf[k++] = (char)ch;
        } else if (ch == '.' && !point && !exp) {
            buf[k++] = '.';
            point = true;
        } else if ((ch | 0x20) == 'e' || (ch | 0x20) == 'd') {
            if (exp || !digits)
                break;
            buf[k++] = 'e';
            exp = true;
        } else {
            break;
        }
    }
    /* drop an unfinished exponent */
    if (exp && !expdig) {
        while (k && buf[k - 1] != 'e')
            k--;
        if (k)
            k--;
    }
    buf[k] = '\0';
    double d = digits ? jet_strtod_c(buf, NULL) : 0.0;
    if (!isfinite(d))
        return sql_fail_overflow(c, e);
    sql_set_double(out, d);
    return 0;
}

/* Str(number): the number's text with a leading space when positive */
static int f_str(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv n, t;
    if (a[0].k == K_DATE) {
        if (sql_sv_text(c, &a[0], out) != 0)
            return sql_fail_mismatch(c, e);
        return 0;
    }
    if (number_of(c, e, &a[0], &n) != 0 || sql_sv_text(c, &n, &t) != 0)
        return -1;
    if (t.n && t.s[0] == '-') {
        *out = t;
        return 0;
    }
    uint16_t *u = sql_tmp_alloc(c, (t.n + 1) * sizeof *u);
    if (!u)
        return sql_fail_nomem(c);
    u[0] = ' ';
    memcpy(u + 1, t.s, t.n * sizeof *u);
    sql_set_text(out, u, t.n + 1);
    return 0;
}

/* Hex(number), Oct(number): rounded to a whole number first */
static int radix_text(sql_cursor *c, const enode *e, const sv *v, int base,
                      sv *out)
{
    int64_t x;
    if (to_whole(c, e, v, INT32_MIN, UINT32_MAX, &x) != 0)
        return -1;
    uint32_t u = (uint32_t)x;
    char buf[24];
    int n = snprintf(buf, sizeof buf, base == 16 ? "%X" : "%o", u);
    uint16_t *s = sql_tmp_alloc(c, (size_t)n * sizeof *s);
    if (!s)
        return sql_fail_nomem(c);
    for (int i = 0; i < n; i++)
        s[i] = (uint8_t)buf[i];
    sql_set_text(out, s, (size_t)n);
    return 0;
}

static int f_hex(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return radix_text(c, e, &a[0], 16, out);
}

static int f_oct(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return radix_text(c, e, &a[0], 8, out);
}

/* ---------------------------------------------------- {fn CONVERT} */

/* CONVERT(x, SQL_BIGINT): a Large Number, rounded half to even as CLng */
static int f_cvt_bigint(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t v;
    if (to_whole(c, e, &a[0], INT64_MIN, INT64_MAX, &v) != 0)
        return -1;
    sql_set_int(out, v);
    return 0;
}

/* CONVERT(x, SQL_DATE / SQL_TIME): CDate, then DateValue / TimeValue
 * (the date part at midnight / the time part on 1899-12-30) */
static int cvt_part(sql_cursor *c, const enode *e, sv *a, sv *out,
                    const char *part)
{
    sv d;
    if (f_cdate(c, e, a, &d) != 0)
        return -1;
    return sql_func_find(part)->impl(c, e, &d, out);
}

static int f_cvt_date(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return cvt_part(c, e, a, out, "DATEVALUE");
}

static int f_cvt_time(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return cvt_part(c, e, a, out, "TIMEVALUE");
}

/* reachable only through CONVERT (not in sql_funcs_conv: no SQL name) */
static const sql_funcdef cvt_bigint = {
    "CONVERT", 1, 1, 0, FR_BIGINT, 0, f_cvt_bigint };
static const sql_funcdef cvt_date = {
    "CONVERT", 1, 1, 0, FR_DATE, 0, f_cvt_date };
static const sql_funcdef cvt_time = {
    "CONVERT", 1, 1, 0, FR_DATE, 0, f_cvt_time };

const sql_funcdef *sql_func_convert(const char *word, bool *known)
{
    /* ODBC Appendix E "Explicit Data Type Conversion Function": the
     * data_type keywords, each mapped to the Jet conversion it means
     * (NULL: named by ODBC, no Jet conversion: binary, GUID, intervals) */
    static const struct {
        const char *w, *fn;         /* fn "" with own: CONVERT's own */
        const sql_funcdef *own;
    } map[] = {
        { "SQL_BIT", "CBOOL", NULL }, { "SQL_TINYINT", "CBYTE", NULL },
        { "SQL_SMALLINT", "CINT", NULL }, { "SQL_INTEGER", "CLNG", NULL },
        { "SQL_BIGINT", "", &cvt_bigint }, { "SQL_REAL", "CSNG", NULL },
        { "SQL_FLOAT", "CDBL", NULL }, { "SQL_DOUBLE", "CDBL", NULL },
        { "SQL_NUMERIC", "CDEC", NULL }, { "SQL_DECIMAL", "CDEC", NULL },
        { "SQL_CHAR", "CSTR", NULL }, { "SQL_VARCHAR", "CSTR", NULL },
        { "SQL_LONGVARCHAR", "CSTR", NULL }, { "SQL_WCHAR", "CSTR", NULL },
        { "SQL_WVARCHAR", "CSTR", NULL },
        { "SQL_WLONGVARCHAR", "CSTR", NULL },
        { "SQL_DATE", "", &cvt_date }, { "SQL_TYPE_DATE", "", &cvt_date },
        { "SQL_TIME", "", &cvt_time }, { "SQL_TYPE_TIME", "", &cvt_time },
        { "SQL_TIMESTAMP", "CDATE", NULL },
        { "SQL_TYPE_TIMESTAMP", "CDATE", NULL },
        { "SQL_BINARY", NULL, NULL }, { "SQL_VARBINARY", NULL, NULL },
        { "SQL_LONGVARBINARY", NULL, NULL }, { "SQL_GUID", NULL, NULL },
    };
    *known = false;
    if (!word)
        return NULL;
    if (!strncasecmp(word, "SQL_INTERVAL_", 13)) {
        *known = true;
        return NULL;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcasecmp(word, map[i].w))
            continue;
        *known = true;
        if (!map[i].fn)
            return NULL;
        return *map[i].fn ? sql_func_find(map[i].fn) : map[i].own;
    }
    return NULL;
}

const sql_funcdef sql_funcs_conv[] = {
    { "IIF", 3, 3, FN_LAZY, FR_VARIANT, 0, f_iif },
    { "SWITCH", 2, 254, FN_LAZY, FR_VARIANT, 0, f_switch },
    { "CHOOSE", 2, 255, FN_LAZY, FR_VARIANT, 0, f_choose },
    { "NZ", 1, 2, FN_NULLS, FR_VARIANT, 0, f_nz },
    { "IFNULL", 2, 2, FN_NULLS | FN_ODBC, FR_VARIANT, 0, f_ifnull },
    { "ISNULL", 1, 1, FN_NULLS, FR_BOOL, 0, f_isnull },
    { "ISNUMERIC", 1, 1, FN_NULLS, FR_BOOL, 0, f_isnumeric },
    { "ISDATE", 1, 1, FN_NULLS, FR_BOOL, 0, f_isdate },
    { "CBOOL", 1, 1, 0, FR_BOOL, 0, f_cbool },
    { "CBYTE", 1, 1, 0, FR_BYTE, 0, f_cbyte },
    { "CINT", 1, 1, 0, FR_INT16, 0, f_cint },
    { "CLNG", 1, 1, 0, FR_LONG, 0, f_clng },
    { "CCUR", 1, 1, 0, FR_MONEY, 0, f_ccur },
    { "CSNG", 1, 1, 0, FR_SINGLE, 0, f_csng },
    { "CDBL", 1, 1, 0, FR_DOUBLE, 0, f_cdbl },
    { "CDEC", 1, 1, 0, FR_DEC, 0, f_cdec },
    { "CDATE", 1, 1, 0, FR_DATE, 1u, f_cdate },
    { "CVDATE", 1, 1, 0, FR_DATE, 1u, f_cdate },
    { "CSTR", 1, 1, 0, FR_TEXT, 0, f_cstr },
    { "CVAR", 1, 1, 0, FR_ARG0, 0, f_cvar },
    { "VAL", 1, 1, 0, FR_DOUBLE, 1u, f_val },
    { "STR", 1, 1, 0, FR_TEXT, 0, f_str },
    { "HEX", 1, 1, 0, FR_TEXT, 0, f_hex },
    { "OCT", 1, 1, 0, FR_TEXT, 0, f_oct },
    { NULL, 0, 0, 0, 0, 0, NULL },
};
