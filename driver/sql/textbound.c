/*
 * textbound.c - the most characters a text expression can give.
 *
 * A computed text column is described by its longest possible value
 * (sql_result_col.length, plan.c's select list), so that a client that
 * binds by the described size (RODBC, anything reading COLUMN_SIZE)
 * never meets a longer value: `CompanyName & Space(250) & Address` can
 * be 40 + 250 + 60 characters. The bound is worked out from the
 * expression tree at prepare time: a Text column's declared length, a
 * literal's length, sums for & and text +, the constant counts of
 * Left/Mid/Space/String, Replace's worst growth, and generous fixed
 * bounds for numbers and dates written as text. Anything whose length
 * depends on run-time values in a way not bounded here (a parameter,
 * Space(n) of a column, a Memo, a function not listed) is
 * SQL_TEXT_UNBOUNDED, which the driver describes as long text.
 * Over-estimates are fine; under-estimates are bugs.
 */
#include "config.h"

#include "plan.h"
#include "func.h"         /* struct sql_funcdef's name */

#include <math.h>
#include <string.h>
#include <strings.h>

/* Numbers, dates, Booleans and GUIDs as text: "-1.23456789012345E-307"
 * (22), "-922337203685477.5808" (21), a 29-digit Decimal with sign and
 * point (31), "12/31/9999 11:59:59 PM" (22), a braced GUID (38). */
#define SCALAR_TEXT 40u

static uint32_t add(uint32_t a, uint32_t b)
{
    return a > SQL_TEXT_UNBOUNDED - b ? SQL_TEXT_UNBOUNDED : a + b;
}

static uint32_t mul(uint32_t a, uint32_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > SQL_TEXT_UNBOUNDED / b ? SQL_TEXT_UNBOUNDED : a * b;
}

static uint32_t max_of(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* A non-negative constant count (Left's n, Space's n), rounded up. */
static bool const_count(const enode *n, uint32_t *out)
{
    if (n->op != N_CONST)
        return false;
    double v;
    if (n->konst.k == K_INT)
        v = (double)n->konst.i;
    else if (n->konst.k == K_DOUBLE)
        v = ceil(n->konst.d);
    else
        return false;
    if (!(v >= 0))
        v = 0;
    *out = v >= (double)SQL_TEXT_UNBOUNDED ? SQL_TEXT_UNBOUNDED : (uint32_t)v;
    return true;
}

/* The characters of a constant text, or false. */
static bool const_text(const enode *n, const uint16_t **s, size_t *len)
{
    if (n->op != N_CONST || n->konst.k != K_TEXT)
        return false;
    *s = n->konst.s;
    *len = n->konst.n;
    return true;
}

/* Column n's declared Text length in characters. */
static uint32_t column_bound(const sql_stmt *st, const enode *n)
{
    for (uint8_t u = 0; u < n->up && st; u++)
        st = st->parent;
    if (!st || n->tab >= st->ntabs)
        return SQL_TEXT_UNBOUNDED;
    const tab_plan *tp = &st->tabs[n->tab];
    if (!tp->td) {
        const sql_result_col *m = &tp->sub->cols[n->col].meta;
        if (m->type == JET_T_TEXT)
            return m->length ? m->length : 255;
        return m->type == JET_T_MEMO || m->type == JET_T_OLE ||
               m->type == JET_T_BINARY ? SQL_TEXT_UNBOUNDED : SCALAR_TEXT;
    }
    const jet_column *jc = &tp->td->cols[n->col];
    if (jc->result_type != JET_T_TEXT)
        return jc->result_type == JET_T_MEMO || jc->result_type == JET_T_OLE ||
               jc->result_type == JET_T_BINARY ? SQL_TEXT_UNBOUNDED
                                                : SCALAR_TEXT;
    if (jc->flags & JET_COL_CALCULATED)
        return 255;     /* a calculated Text: Access's maximum */
    return jet_db_version(st->db) == JET_VER_3 ? jc->length
                                                : jc->length / 2u;
}

/* Format(value, fmt) where fmt's text may be up to flen characters (its
 * characters in fs when constant): each format character writes at most
 * 5 (dddddd, the long date, is 29 characters for 6), 'c' (the general
 * date) 22; digit placeholders ('0', '#') and the named number formats
 * write every integer digit of the value, with grouping. */
static uint32_t format_bound(const enode *value, uint32_t vbound,
                             const uint16_t *fs, uint32_t flen)
{
    static const char *const named[] = { "General Number", "Currency",
                                         "Euro", "Fixed", "Standard",
                                         "Percent" };
    bool digits = fs == NULL;
    uint32_t cs = fs ? 0 : flen;
    for (uint32_t i = 0; fs && i < flen; i++) {
        if (fs[i] == '0' || fs[i] == '#')
            digits = true;
        if (fs[i] == 'c' || fs[i] == 'C')
            cs++;
    }
    for (size_t k = 0; fs && !digits && k < sizeof named / sizeof *named;
         k++) {
        size_t m = strlen(named[k]);
        bool eq = m == flen;
        for (size_t i = 0; eq && i < m; i++) {
            uint16_t ch = fs[i];
            eq = ch < 0x80 && (ch | 0x20) == (named[k][i] | 0x20);
        }
        digits = eq;
    }
    uint32_t b = add(mul(flen, 5), mul(cs, 17));
    if (value->k == K_TEXT || value->k == K_ANY)
        b = add(b, vbound);
    if (digits) {
        uint32_t d;
        switch (value->k) {
        case K_BOOL: d = 5; break;
        case K_DATE: d = 10; break;
        case K_INT: d = 20; break;
        case K_MONEY: d = 16; break;
        case K_DEC: d = 30; break;
        default: d = 310; break;   /* a Double, or text read as one */
        }
        b = add(b, mul(d, 2));
    }
    return add(b, SCALAR_TEXT);
}

static uint32_t func_bound(const sql_stmt *st, const enode *n)
{
    const char *f = n->fn ? n->fn->name : "";
    uint32_t a0 = n->nargs ? sql_text_bound(st, n->args[0]) : 0, c;
    if (!strcasecmp(f, "UCASE") || !strcasecmp(f, "UPPER") ||
        !strcasecmp(f, "LCASE") || !strcasecmp(f, "LOWER") ||
        !strcasecmp(f, "LTRIM") || !strcasecmp(f, "RTRIM") ||
        !strcasecmp(f, "TRIM") || !strcasecmp(f, "STRREVERSE") ||
        !strcasecmp(f, "CVAR"))
        return a0;
    if (!strcasecmp(f, "CSTR"))
        return n->nargs && n->args[0]->k == K_TEXT ? a0
                                                   : max_of(a0, SCALAR_TEXT);
    if (!strcasecmp(f, "STRCONV"))
        return mul(a0, 2);
    if (!strcasecmp(f, "LEFT") || !strcasecmp(f, "RIGHT"))
        return n->nargs == 2 && const_count(n->args[1], &c) && c < a0 ? c
                                                                      : a0;
    if (!strcasecmp(f, "MID") || !strcasecmp(f, "SUBSTRING"))
        return n->nargs == 3 && const_count(n->args[2], &c) && c < a0 ? c
                                                                      : a0;
    if (!strcasecmp(f, "SPACE") || !strcasecmp(f, "STRING"))
        return n->nargs && const_count(n->args[0], &c) ? c
                                                       : SQL_TEXT_UNBOUNDED;
    if (!strcasecmp(f, "REPLACE") && n->nargs >= 3) {
        /* k matches of a find of length >= fl in a0 characters: a0 +
         * k (r - fl) <= a0 + (a0 / fl) (r - fl) */
        uint32_t r = sql_text_bound(st, n->args[2]), fl = 1;
        const uint16_t *s;
        size_t len;
        if (const_text(n->args[1], &s, &len) && len > 0)
            fl = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
        return r <= fl ? a0 : add(a0, mul(a0 / fl, r - fl));
    }
    if (!strcasecmp(f, "CONCAT")) {
        uint32_t b = 0;
        for (size_t i = 0; i < n->nargs; i++)
            b = add(b, sql_text_bound(st, n->args[i]));
        return b;
    }
    if (!strcasecmp(f, "IIF") || !strcasecmp(f, "SWITCH") ||
        !strcasecmp(f, "CHOOSE") || !strcasecmp(f, "NZ") ||
        !strcasecmp(f, "IFNULL")) {
        /* the value arguments: IIf's 2nd and 3rd, Switch's even ones,
         * Choose's after the first, all of Nz's and IfNull's (a Null
         * from Nz(x) is "") */
        size_t first = 0, step = 1;
        if (!strcasecmp(f, "IIF") || !strcasecmp(f, "CHOOSE"))
            first = 1;
        else if (!strcasecmp(f, "SWITCH")) {
            first = 1;
            step = 2;
        }
        uint32_t b = 0;
        for (size_t i = first; i < n->nargs; i += step)
            b = max_of(b, sql_text_bound(st, n->args[i]));
        return b;
    }
    if (!strcasecmp(f, "FORMAT")) {
        if (n->nargs < 2)
            return n->nargs && n->args[0]->k == K_TEXT
                       ? a0 : max_of(a0, SCALAR_TEXT);
        const uint16_t *s;
        size_t len;
        if (const_text(n->args[1], &s, &len))
            return format_bound(n->args[0], a0, s,
                                len > UINT32_MAX ? UINT32_MAX
                                                 : (uint32_t)len);
        return format_bound(n->args[0], a0, NULL,
                            sql_text_bound(st, n->args[1]));
    }
    if (!strcasecmp(f, "STR") || !strcasecmp(f, "HEX") ||
        !strcasecmp(f, "OCT") || !strcasecmp(f, "CHR") ||
        !strcasecmp(f, "CHRW") || !strcasecmp(f, "CHAR") ||
        !strcasecmp(f, "MONTHNAME") || !strcasecmp(f, "WEEKDAYNAME") ||
        !strcasecmp(f, "DAYNAME"))
        return SCALAR_TEXT;
    /* a function giving no text, or one not bounded here */
    return n->k == K_TEXT || n->k == K_ANY || n->k == K_BIN
               ? SQL_TEXT_UNBOUNDED : SCALAR_TEXT;
}

uint32_t sql_text_bound(const sql_stmt *st, const enode *n)
{
    if (!n || n->k == K_NULL)
        return 0;
    if (n->type == JET_T_MEMO || n->type == JET_T_OLE || n->k == K_BIN)
        return SQL_TEXT_UNBOUNDED;
    switch (n->op) {
    case N_CONST:
        if (n->konst.k == K_TEXT)
            return n->konst.n > UINT32_MAX ? UINT32_MAX
                                           : (uint32_t)n->konst.n;
        return n->konst.k == K_NULL ? 0 : SCALAR_TEXT;
    case N_COL:
        return column_bound(st, n);
    case N_PARAM:
        /* text of any length, as bound at execution */
        return n->k == K_TEXT || n->k == K_ANY ? SQL_TEXT_UNBOUNDED
                                               : SCALAR_TEXT;
    case N_CONCAT:
    case N_ARITH:
        if (n->op == N_ARITH && n->k != K_TEXT && n->k != K_ANY)
            return SCALAR_TEXT;
        return add(sql_text_bound(st, n->args[0]),
                   sql_text_bound(st, n->args[1]));
    case N_FUNC:
        return func_bound(st, n);
    case N_AGG:
        if (n->nargs && (n->sub == A_MIN || n->sub == A_MAX ||
                         n->sub == A_FIRST || n->sub == A_LAST))
            return sql_text_bound(st, n->args[0]);
        return SCALAR_TEXT;
    case N_GKEY:
        if (!n->up && n->slot < st->ngroup)
            return sql_text_bound(st, st->group[n->slot]);
        return n->k == K_TEXT ? SQL_TEXT_UNBOUNDED : SCALAR_TEXT;
    case N_SUBQ:
        if (n->sub == SQ_SCALAR && n->subq && n->subq->ncols) {
            const sql_result_col *m = &n->subq->cols[0].meta;
            if (m->type == JET_T_TEXT)
                return m->length ? m->length : 255;
            return m->type == JET_T_MEMO ? SQL_TEXT_UNBOUNDED : SCALAR_TEXT;
        }
        return SCALAR_TEXT;
    default:
        return n->k == K_TEXT || n->k == K_ANY ? SQL_TEXT_UNBOUNDED
                                               : SCALAR_TEXT;
    }
}
