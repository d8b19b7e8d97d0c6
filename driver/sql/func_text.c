/*
 * func_text.c - text functions: Left, Right, Mid, Len, InStr, InStrRev,
 * Replace, Trim/LTrim/RTrim, LCase/UCase, StrConv, StrComp, Space, String,
 * StrReverse, Asc, Chr and the ODBC spellings (UPPER, LOCATE, SUBSTRING,
 * CONCAT, LENGTH...).
 *
 * Semantics are VBA's as Jet's expression service runs them (Microsoft's
 * "Left function", "InStr function"... pages): positions count UTF-16
 * characters from 1; a compare argument of 0 (vbBinaryCompare) compares
 * code units, anything else (1 text, 2 database, the default in a query)
 * case-insensitively; a Null argument gives Null. Results are views into
 * the argument where possible, else built in the per-row scratch, never
 * longer than SQL_FUNC_MAX_TEXT (22001 past it).
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <string.h>

/* ----------------------------------------------------------- helpers */

static int text_of(sql_cursor *c, const enode *e, const sv *v, sv *out)
{
    if (sql_sv_text(c, v, out) != 0)
        return sql_fail_mismatch(c, e);
    return 0;
}

/* VBA error 5, "Invalid procedure call or argument". */
static int bad_arg(sql_cursor *c, const enode *e, const char *what,
                   long long v)
{
    return sql_cursor_fail(c, "22023", e->position, "Invalid procedure call "
                           "or argument: %s %lld (at character %zu)", what,
                           v, e->position);
}

static int too_long(sql_cursor *c, const enode *e)
{
    return sql_cursor_fail(c, "22001", e->position, "String data, right "
                           "truncated: result longer than %u characters "
                           "(at character %zu)", SQL_FUNC_MAX_TEXT,
                           e->position);
}

static uint16_t *alloc_text(sql_cursor *c, size_t n)
{
    return sql_tmp_alloc(c, (n ? n : 1) * sizeof(uint16_t));
}

/* compare argument -> true when binary (case-sensitive) */
static int compare_mode(sql_cursor *c, const enode *e, const sv *v,
                        bool *binary)
{
    int64_t m;
    if (sql_arg_int(c, e, v, &m) != 0)
        return -1;
    if (m < -1 || m > 2)
        return bad_arg(c, e, "compare", m);
    *binary = m == 0;
    return 0;
}

/* sub at s (n units each): code units when binary, else in sort order co */
static bool same_at(jet_collation co, const uint16_t *s, const uint16_t *sub,
                    size_t n, bool binary)
{
    if (binary)
        return memcmp(s, sub, n * sizeof *s) == 0;
    return sql_text_cmp(co, s, n, sub, n) == 0;
}

/* ---------------------------------------------------------- case, len */

/* VBA's word separators for vbProperCase: Chr 0, 9-13 and the space */
static bool word_sep(uint32_t ch)
{
    return ch == 0 || (ch >= 9 && ch <= 13) || ch == ' ';
}

/* Case conversion of a[0]: CASE_UPPER, CASE_LOWER, or CASE_PROPER (the
 * first letter after a word separator upper-case, the rest lower-case);
 * surrogates and code points that map outside the BMP stay as they are. */
enum { CASE_UPPER = 1, CASE_LOWER = 2, CASE_PROPER = 3 };

static int f_case(sql_cursor *c, const enode *e, sv *a, sv *out, int mode)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    uint16_t *u = alloc_text(c, t.n);
    if (!u)
        return sql_fail_nomem(c);
    bool start = true;
    for (size_t i = 0; i < t.n; i++) {
        uint32_t ch = t.s[i];
        bool up = mode == CASE_UPPER || (mode == CASE_PROPER && start);
        start = word_sep(ch);
        if (ch >= 0xD800 && ch <= 0xDFFF) {
            u[i] = (uint16_t)ch;
            continue;
        }
        uint32_t m = up ? jet_text_upper(ch) : jet_text_fold(ch);
        u[i] = m <= 0xFFFF && !(m >= 0xD800 && m <= 0xDFFF) ? (uint16_t)m
                                                            : (uint16_t)ch;
    }
    sql_set_text(out, u, t.n);
    return 0;
}

static int f_ucase(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return f_case(c, e, a, out, CASE_UPPER);
}

static int f_lcase(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return f_case(c, e, a, out, CASE_LOWER);
}

/*
 * StrConv(s, conversion[, LCID]): vbUpperCase (1), vbLowerCase (2),
 * vbProperCase (3: the first letter of every word upper-case, the others
 * lower-case; words start after Chr 0, 9-13 or a space, as Microsoft's
 * "StrConv function" page lists). The East Asian and ANSI/Unicode
 * conversions (4, 8, 16, 32, 64, 128) have no meaning for the UTF-16
 * text a query holds: they and any other value are VBA's error 5
 * (22023). The LCID is accepted and ignored (the case tables here are
 * the same for every locale).
 */
static int f_strconv(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t conv;
    if (sql_arg_int(c, e, &a[1], &conv) != 0)
        return -1;
    if (conv < CASE_UPPER || conv > CASE_PROPER)
        return bad_arg(c, e, "conversion", conv);
    return f_case(c, e, a, out, (int)conv);
}

static int f_len(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    sql_set_int(out, (int64_t)t.n);
    return 0;
}

/* LENGTH (ODBC): characters without the trailing blanks */
static int f_length_odbc(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    size_t n = t.n;
    while (n > 0 && t.s[n - 1] == ' ')
        n--;
    sql_set_int(out, (int64_t)n);
    return 0;
}

/* ------------------------------------------------------------- trims */

static int f_trim_common(sql_cursor *c, const enode *e, sv *a, sv *out,
                         bool left, bool right)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    size_t b = 0, en = t.n;
    if (left)
        while (b < en && t.s[b] == ' ')
            b++;
    if (right)
        while (en > b && t.s[en - 1] == ' ')
            en--;
    sql_set_text(out, t.s + b, en - b);
    return 0;
}

static int f_ltrim(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return f_trim_common(c, e, a, out, true, false);
}

static int f_rtrim(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return f_trim_common(c, e, a, out, false, true);
}

static int f_trim(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    return f_trim_common(c, e, a, out, true, true);
}

/* ------------------------------------------------------- substrings */

static int f_left(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    int64_t len;
    if (text_of(c, e, &a[0], &t) != 0 || sql_arg_int(c, e, &a[1], &len) != 0)
        return -1;
    if (len < 0)
        return bad_arg(c, e, "length", len);
    sql_set_text(out, t.s, (uint64_t)len < t.n ? (size_t)len : t.n);
    return 0;
}

static int f_right(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    int64_t len;
    if (text_of(c, e, &a[0], &t) != 0 || sql_arg_int(c, e, &a[1], &len) != 0)
        return -1;
    if (len < 0)
        return bad_arg(c, e, "length", len);
    size_t l = (uint64_t)len < t.n ? (size_t)len : t.n;
    sql_set_text(out, t.s + (t.n - l), l);
    return 0;
}

/* Mid(s, start[, length]); also SUBSTRING */
static int f_mid(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    int64_t start, len = -1;
    if (text_of(c, e, &a[0], &t) != 0 || sql_arg_int(c, e, &a[1], &start) != 0)
        return -1;
    if (e->nargs > 2 && sql_arg_int(c, e, &a[2], &len) != 0)
        return -1;
    if (start < 1)
        return bad_arg(c, e, "start", start);
    if (e->nargs > 2 && len < 0)
        return bad_arg(c, e, "length", len);
    if ((uint64_t)start > t.n) {
        sql_set_text(out, t.s, 0);
        return 0;
    }
    size_t b = (size_t)start - 1, rest = t.n - b;
    size_t l = len < 0 || (uint64_t)len > rest ? rest : (size_t)len;
    sql_set_text(out, t.s + b, l);
    return 0;
}

/* ------------------------------------------------------------ search */

/* 1-based position of sub in s at or after start (1-based), 0 if none */
static int64_t find_fwd(jet_collation co, const sv *s, const sv *sub,
                        int64_t start, bool binary)
{
    /* the order of VBA's table: "" searched -> 0, "" sought -> start,
     * start past the end -> 0 */
    if (s->n == 0)
        return 0;
    if (sub->n == 0)
        return start;
    if ((uint64_t)start > s->n)
        return 0;
    for (size_t i = (size_t)start - 1; i + sub->n <= s->n; i++)
        if (same_at(co, s->s + i, sub->s, sub->n, binary))
            return (int64_t)i + 1;
    return 0;
}

/* InStr([start, ]string1, string2[, compare]) */
static int f_instr(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t start = 1;
    bool binary = false;
    const sv *ps = &a[0], *pf = &a[1];
    if (e->nargs >= 3) {
        if (a[0].k == K_NULL)
            return sql_cursor_fail(c, "22023", e->position, "Invalid use "
                                   "of Null: InStr start (at character "
                                   "%zu)", e->position);
        if (sql_arg_int(c, e, &a[0], &start) != 0)
            return -1;
        ps = &a[1];
        pf = &a[2];
        if (e->nargs == 4 && a[3].k != K_NULL &&
            compare_mode(c, e, &a[3], &binary) != 0)
            return -1;
    }
    if (ps->k == K_NULL || pf->k == K_NULL)
        return 0;
    if (start < 1)
        return bad_arg(c, e, "start", start);
    sv s, f;
    if (text_of(c, e, ps, &s) != 0 || text_of(c, e, pf, &f) != 0)
        return -1;
    sql_set_int(out, find_fwd(c->text_order, &s, &f, start, binary));
    return 0;
}

/* LOCATE(find, string[, start]) (ODBC) */
static int f_locate(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t start = 1;
    sv s, f;
    if (e->nargs > 2 && sql_arg_int(c, e, &a[2], &start) != 0)
        return -1;
    if (text_of(c, e, &a[0], &f) != 0 || text_of(c, e, &a[1], &s) != 0)
        return -1;
    if (start < 1)
        start = 1;
    sql_set_int(out, find_fwd(c->text_order, &s, &f, start, false));
    return 0;
}

/* InStrRev(string1, string2[, start[, compare]]) */
static int f_instrrev(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t start = -1;
    bool binary = false;
    if (e->nargs > 2 && sql_arg_int(c, e, &a[2], &start) != 0)
        return -1;
    if (e->nargs > 3 && compare_mode(c, e, &a[3], &binary) != 0)
        return -1;
    if (start == 0 || start < -1)
        return bad_arg(c, e, "start", start);
    sv s, f;
    if (text_of(c, e, &a[0], &s) != 0 || text_of(c, e, &a[1], &f) != 0)
        return -1;
    if (start == -1)
        start = (int64_t)s.n;
    if ((uint64_t)start > s.n) {
        sql_set_int(out, 0);
        return 0;
    }
    if (f.n == 0) {
        sql_set_int(out, start);
        return 0;
    }
    int64_t found = 0;
    /* the match must end at or before position start */
    if (f.n <= (size_t)start)
        for (size_t i = (size_t)start - f.n + 1; i >= 1; i--)
            if (same_at(c->text_order, s.s + i - 1, f.s, f.n, binary)) {
                found = (int64_t)i;
                break;
            }
    sql_set_int(out, found);
    return 0;
}

/* Replace(expression, find, replace[, start[, count[, compare]]]):
 * the result starts at start (VBA drops what is before it). */
static int f_replace(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t start = 1, count = -1;
    bool binary = false;
    sv s, f, r;
    if (e->nargs > 3 && sql_arg_int(c, e, &a[3], &start) != 0)
        return -1;
    if (e->nargs > 4 && sql_arg_int(c, e, &a[4], &count) != 0)
        return -1;
    if (e->nargs > 5 && compare_mode(c, e, &a[5], &binary) != 0)
        return -1;
    if (start < 1)
        return bad_arg(c, e, "start", start);
    if (count < -1)
        return bad_arg(c, e, "count", count);
    if (text_of(c, e, &a[0], &s) != 0 || text_of(c, e, &a[1], &f) != 0 ||
        text_of(c, e, &a[2], &r) != 0)
        return -1;
    if ((uint64_t)start > s.n) {
        sql_set_text(out, s.s, 0);
        return 0;
    }
    size_t b = (size_t)start - 1;
    if (f.n == 0 || count == 0) {
        sql_set_text(out, s.s + b, s.n - b);
        return 0;
    }
    /* count the replacements first, then build */
    size_t hits = 0;
    for (size_t i = b; i + f.n <= s.n && (count < 0 ||
                                          hits < (uint64_t)count);) {
        if (same_at(c->text_order, s.s + i, f.s, f.n, binary)) {
            hits++;
            i += f.n;
        } else {
            i++;
        }
    }
    size_t rest = s.n - b;
    uint64_t total = (uint64_t)rest - (uint64_t)hits * f.n +
                     (uint64_t)hits * r.n;
    if (total > SQL_FUNC_MAX_TEXT)
        return too_long(c, e);
    uint16_t *u = alloc_text(c, (size_t)total);
    if (!u)
        return sql_fail_nomem(c);
    size_t k = 0, done = 0, i = b;
    while (i < s.n) {
        if (done < hits && i + f.n <= s.n &&
            same_at(c->text_order, s.s + i, f.s, f.n, binary)) {
            memcpy(u + k, r.s, r.n * sizeof *u);
            k += r.n;
            i += f.n;
            done++;
        } else {
            u[k++] = s.s[i++];
        }
    }
    sql_set_text(out, u, k);
    return 0;
}

/* StrComp(string1, string2[, compare]) -> -1, 0, 1; Null when either is */
static int f_strcomp(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    bool binary = false;
    if (e->nargs > 2 && compare_mode(c, e, &a[2], &binary) != 0)
        return -1;
    sv x, y;
    if (text_of(c, e, &a[0], &x) != 0 || text_of(c, e, &a[1], &y) != 0)
        return -1;
    int r;
    if (binary) {
        size_t m = x.n < y.n ? x.n : y.n;
        r = 0;
        for (size_t i = 0; i < m && !r; i++)
            r = x.s[i] < y.s[i] ? -1 : x.s[i] > y.s[i];
        if (!r)
            r = (x.n > y.n) - (x.n < y.n);
    } else {
        /* VBA's text compare: case aside, but trailing spaces count
         * (StrComp("a ", "a", 1) is 1), unlike Jet's = */
        r = sql_text_cmp(c->text_order, x.s, x.n, y.s, y.n);
        if (!r)
            r = (x.n > y.n) - (x.n < y.n);
    }
    sql_set_int(out, r < 0 ? -1 : r > 0);
    return 0;
}

/* ---------------------------------------------------------- builders */

static int repeat(sql_cursor *c, const enode *e, int64_t n, uint16_t ch,
                  sv *out)
{
    if (n < 0)
        return bad_arg(c, e, "number", n);
    if ((uint64_t)n > SQL_FUNC_MAX_TEXT)
        return too_long(c, e);
    uint16_t *u = alloc_text(c, (size_t)n);
    if (!u)
        return sql_fail_nomem(c);
    for (int64_t i = 0; i < n; i++)
        u[i] = ch;
    sql_set_text(out, u, (size_t)n);
    return 0;
}

static int f_space(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t n;
    if (sql_arg_int(c, e, &a[0], &n) != 0)
        return -1;
    return repeat(c, e, n, ' ', out);
}

/* String(number, character): character a code (mod 256) or a text whose
 * first character is used */
static int f_string(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t n, code;
    uint16_t ch;
    if (sql_arg_int(c, e, &a[0], &n) != 0)
        return -1;
    if (a[1].k == K_TEXT) {
        if (a[1].n == 0)
            return bad_arg(c, e, "character", 0);
        ch = a[1].s[0];
    } else {
        if (sql_arg_int(c, e, &a[1], &code) != 0)
            return -1;
        if (code < 0)
            return bad_arg(c, e, "character", code);
        ch = (uint16_t)(code % 256);
    }
    return repeat(c, e, n, ch, out);
}

static int f_strreverse(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    uint16_t *u = alloc_text(c, t.n);
    if (!u)
        return sql_fail_nomem(c);
    for (size_t i = 0; i < t.n; i++)
        u[i] = t.s[t.n - 1 - i];
    /* keep surrogate pairs in order */
    for (size_t i = 0; i + 1 < t.n; i++)
        if (u[i] >= 0xDC00 && u[i] <= 0xDFFF && u[i + 1] >= 0xD800 &&
            u[i + 1] <= 0xDBFF) {
            uint16_t x = u[i];
            u[i] = u[i + 1];
            u[i + 1] = x;
            i++;
        }
    sql_set_text(out, u, t.n);
    return 0;
}

/* Asc/AscW: code of the first character (UTF-16 unit); "" is an error */
static int f_asc(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    sv t;
    if (text_of(c, e, &a[0], &t) != 0)
        return -1;
    if (t.n == 0)
        return bad_arg(c, e, "empty string", 0);
    sql_set_int(out, t.s[0]);
    return 0;
}

/* Chr/ChrW: the character with that code (0..65535) */
static int f_chr(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    int64_t code;
    if (sql_arg_int(c, e, &a[0], &code) != 0)
        return -1;
    if (code < -32768 || code > 65535)
        return bad_arg(c, e, "character code", code);
    uint16_t *u = alloc_text(c, 1);
    if (!u)
        return sql_fail_nomem(c);
    u[0] = (uint16_t)(code < 0 ? code + 65536 : code);
    sql_set_text(out, u, 1);
    return 0;
}

/* CONCAT(a, b) (ODBC): Null as "" like & */
static int f_concat(sql_cursor *c, const enode *e, sv *a, sv *out)
{
    (void)a;
    return sql_func_concat(c, e, out);
}

#define T0 1u
#define T01 3u
#define T012 7u

const sql_funcdef sql_funcs_text[] = {
    { "UCASE", 1, 1, 0, FR_TEXT, T0, f_ucase },
    { "UPPER", 1, 1, FN_ODBC, FR_TEXT, T0, f_ucase },
    { "LCASE", 1, 1, 0, FR_TEXT, T0, f_lcase },
    { "LOWER", 1, 1, FN_ODBC, FR_TEXT, T0, f_lcase },
    { "STRCONV", 2, 3, 0, FR_TEXT, T0, f_strconv },
    { "LEN", 1, 1, 0, FR_LONG, T0, f_len },
    { "LENGTH", 1, 1, FN_ODBC, FR_LONG, T0, f_length_odbc },
    { "CHAR_LENGTH", 1, 1, FN_ODBC, FR_LONG, T0, f_len },
    { "CHARACTER_LENGTH", 1, 1, FN_ODBC, FR_LONG, T0, f_len },
    { "LTRIM", 1, 1, 0, FR_TEXT, T0, f_ltrim },
    { "RTRIM", 1, 1, 0, FR_TEXT, T0, f_rtrim },
    { "TRIM", 1, 1, 0, FR_TEXT, T0, f_trim },
    { "LEFT", 2, 2, 0, FR_TEXT, T0, f_left },
    { "RIGHT", 2, 2, 0, FR_TEXT, T0, f_right },
    { "MID", 2, 3, 0, FR_TEXT, T0, f_mid },
    { "SUBSTRING", 2, 3, FN_ODBC, FR_TEXT, T0, f_mid },
    { "INSTR", 2, 4, FN_NULLS, FR_LONG, 0, f_instr },
    { "INSTRREV", 2, 4, 0, FR_LONG, T01, f_instrrev },
    { "LOCATE", 2, 3, FN_ODBC, FR_LONG, T01, f_locate },
    { "REPLACE", 3, 6, 0, FR_TEXT, T012, f_replace },
    { "STRCOMP", 2, 3, 0, FR_LONG, T01, f_strcomp },
    { "SPACE", 1, 1, 0, FR_TEXT, 0, f_space },
    { "STRING", 2, 2, 0, FR_TEXT, 0, f_string },
    { "STRREVERSE", 1, 1, 0, FR_TEXT, T0, f_strreverse },
    { "ASC", 1, 1, 0, FR_LONG, T0, f_asc },
    { "ASCW", 1, 1, 0, FR_LONG, T0, f_asc },
    { "ASCII", 1, 1, FN_ODBC, FR_LONG, T0, f_asc },
    { "CHR", 1, 1, 0, FR_TEXT, 0, f_chr },
    { "CHRW", 1, 1, 0, FR_TEXT, 0, f_chr },
    { "CHAR", 1, 1, FN_ODBC, FR_TEXT, 0, f_chr },
    { "CONCAT", 2, 16, FN_LAZY | FN_ODBC, FR_TEXT, 3u, f_concat },
    { NULL, 0, 0, 0, 0, 0, NULL },
};
