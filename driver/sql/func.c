/*
 * func.c - the registry of scalar functions: lookup, typing, dispatch.
 *
 * The per-family tables are searched in order (text, math, date, conv);
 * a name appears once over all of them (aliases are separate entries
 * pointing at the same implementation). Lookup happens once per call
 * site at prepare time, so a linear case-insensitive search is enough.
 * At run time sql_func_eval evaluates the arguments (up to 8 on the
 * stack, more in the per-row scratch), applies the NULL rule, and calls
 * the implementation: one indirect call, no allocation.
 */
#include "config.h"

#include "eval.h"
#include "func.h"
#include "plan.h"
#include "values.h"

#include <string.h>
#include <strings.h>

static const sql_funcdef *const families[] = {
    sql_funcs_text, sql_funcs_math, sql_funcs_date, sql_funcs_conv,
    sql_funcs_format,
};

const sql_funcdef *sql_func_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t k = 0; k < sizeof families / sizeof families[0]; k++)
        for (const sql_funcdef *f = families[k]; f->name; f++)
            if (!strcasecmp(f->name, name))
                return f;
    return NULL;
}

const sql_funcdef *sql_func_find_escape(const char *name)
{
    if (!name)
        return NULL;
    for (const sql_funcdef *f = sql_funcs_escape; f->name; f++)
        if (!strcasecmp(f->name, name))
            return f;
    return sql_func_find(name);
}

/* ------------------------------------------------------------ typing */

static bool numeric_k(uint8_t k)
{
    return k == K_BOOL || k == K_INT || k == K_MONEY || k == K_DOUBLE ||
           k == K_DEC;
}

/* Rank of numeric kinds for the common type of IIf/Nz/Switch/Choose
 * branches: Integer < Currency < Decimal < Double. */
static int num_rank(uint8_t k)
{
    switch (k) {
    case K_BOOL: case K_INT: return 1;
    case K_MONEY: return 2;
    case K_DEC: return 3;
    default: return 4;
    }
}

static jet_type default_type(uint8_t k)
{
    switch (k) {
    case K_BOOL: return JET_T_BOOL;
    case K_INT: return JET_T_LONG;
    case K_MONEY: return JET_T_MONEY;
    case K_DEC: return JET_T_NUMERIC;
    case K_DATE: return JET_T_DATETIME;
    case K_GUID: return JET_T_GUID;
    case K_BIN: return JET_T_BINARY;
    case K_DOUBLE: return JET_T_DOUBLE;
    default: return JET_T_TEXT;
    }
}

/* Common kind/type of the value arguments of n (which ones: IIf's 2nd
 * and 3rd, Nz's all, Switch's even-numbered, Choose's after the first). */
static void variant_type(enode *n, const sql_funcdef *f)
{
    size_t first = 0, step = 1;
    if (!strcasecmp(f->name, "IIF")) {
        first = 1;
    } else if (!strcasecmp(f->name, "SWITCH")) {
        first = 1;
        step = 2;
    } else if (!strcasecmp(f->name, "CHOOSE")) {
        first = 1;
    }
    if (!strcasecmp(f->name, "NZ") && n->nargs == 1) {
        /* Nz(x) of a Null is "" in a query: a text column */
        n->k = K_TEXT;
        n->type = n->args[0]->type == JET_T_MEMO ? JET_T_MEMO : JET_T_TEXT;
        return;
    }
    uint8_t k = K_NULL;
    jet_type t = 0;
    bool mixed = false;
    for (size_t i = first; i < n->nargs; i += step) {
        const enode *a = n->args[i];
        uint8_t ak = a->k == K_ANY ? K_TEXT : a->k;
        if (ak == K_NULL)
            continue;
        if (k == K_NULL) {
            k = ak;
            t = a->type ? a->type : default_type(ak);
            continue;
        }
        if (ak == k) {
            if (a->type != t)
                t = (k == K_TEXT && (a->type == JET_T_MEMO ||
                                     t == JET_T_MEMO)) ? JET_T_MEMO
                    : default_type(k);
            continue;
        }
        if (numeric_k(ak) && numeric_k(k)) {
            if (num_rank(ak) > num_rank(k))
                k = ak;
            t = default_type(k);
            continue;
        }
        mixed = true;
    }
    if (mixed) {
        k = K_TEXT;
        t = JET_T_TEXT;
    }
    if (k == K_NULL) {
        n->k = K_NULL;
        n->type = JET_T_TEXT;
        return;
    }
    if (k == K_BOOL) {
        /* IIf(c, True, 0): Jet gives numbers; a lone Boolean stays one */
        t = JET_T_BOOL;
    }
    n->k = k;
    n->type = t ? t : default_type(k);
}

int sql_func_bind(enode *n, sql_param_info *params, size_t nparams)
{
    const sql_funcdef *f = n->fn;
    const enode *a0 = n->nargs ? n->args[0] : NULL;
    for (size_t i = 0; i < n->nargs && i < 16; i++) {
        const enode *a = n->args[i];
        if ((f->text_args >> i & 1u) && a->op == N_PARAM && params &&
            a->param < nparams && !params[a->param].declared)
            params[a->param].type = JET_T_TEXT;
    }
    switch (f->result) {
    case FR_TEXT:
        n->k = K_TEXT;
        n->type = (a0 && a0->type == JET_T_MEMO) ? JET_T_MEMO : JET_T_TEXT;
        break;
    case FR_LONG: n->k = K_INT; n->type = JET_T_LONG; break;
    case FR_INT16: n->k = K_INT; n->type = JET_T_INT; break;
    case FR_BYTE: n->k = K_INT; n->type = JET_T_BYTE; break;
    case FR_BIGINT: n->k = K_INT; n->type = JET_T_BIGINT; break;
    case FR_BOOL: n->k = K_BOOL; n->type = JET_T_BOOL; break;
    case FR_SINGLE: n->k = K_DOUBLE; n->type = JET_T_FLOAT; break;
    case FR_MONEY: n->k = K_MONEY; n->type = JET_T_MONEY; break;
    case FR_DATE: n->k = K_DATE; n->type = JET_T_DATETIME; break;
    case FR_DEC: n->k = K_DEC; n->type = JET_T_NUMERIC; break;
    case FR_NUM0: case FR_NUM0_DATE:
        if (f->result == FR_NUM0_DATE && a0 && a0->k == K_DATE) {
            n->k = K_DATE;
            n->type = JET_T_DATETIME;
        } else if (a0 && (a0->k == K_INT || a0->k == K_MONEY || a0->k == K_DEC)) {
            n->k = a0->k;
            n->type = a0->type == JET_T_BYTE || a0->type == JET_T_INT ||
                      !a0->type ? default_type(a0->k) : a0->type;
        } else if (a0 && a0->k == K_BOOL) {
            n->k = K_INT;
            n->type = JET_T_INT;
        } else {
            n->k = K_DOUBLE;
            n->type = JET_T_DOUBLE;
        }
        break;
    case FR_VARIANT:
        variant_type(n, f);
        break;
    case FR_ARG0:
        n->k = a0 ? (a0->k == K_ANY ? K_TEXT : a0->k) : K_NULL;
        n->type = a0 && a0->type ? a0->type : default_type(n->k);
        break;
    default:
        n->k = K_DOUBLE;
        n->type = JET_T_DOUBLE;
        break;
    }
    return 0;
}

int sql_func_scale(const enode *n, const jet_tdef *td)
{
    int a, b, r = 0;
    switch (n->op) {
    case N_COL:
        if (td && n->col < td->ncols)
            r = td->cols[n->col].type == JET_T_NUMERIC ? td->cols[n->col].scale
                : td->cols[n->col].type == JET_T_MONEY ? 4 : 0;
        break;
    case N_CONST:
        r = n->konst.k == K_DEC || n->konst.has_dec ? n->konst.scale
            : n->konst.k == K_MONEY ? 4 : 0;
        break;
    case N_PARAM:
        r = n->type == JET_T_NUMERIC ? n->pscale : 0;
        break;
    case N_NEG:
        r = sql_func_scale(n->args[0], td);
        break;
    case N_ARITH:
        a = sql_func_scale(n->args[0], td);
        b = sql_func_scale(n->args[1], td);
        r = n->sub == '*' ? a + b : n->sub == '/' ? (a > 6 ? a : 6)
            : a > b ? a : b;
        break;
    case N_AGG:
        r = n->nargs ? sql_func_scale(n->args[0], td) : 0;
        if (n->sub == A_AVG && r < 6)
            r = 6;
        break;
    case N_FUNC:
        r = n->nargs ? sql_func_scale(n->args[0], td) : 0;
        if (!strcasecmp(n->fn->name, "CDEC") && n->args[0]->k == K_DOUBLE)
            r = 10;
        break;
    default:
        break;
    }
    return r < 0 ? 0 : r > 28 ? 28 : r;
}

/* ------------------------------------------------------------ running */

/* a & b & ...: Null counts as "" (Jet); only all-Null gives Null. */
int sql_func_concat(sql_cursor *c, const enode *e, sv *out)
{
    size_t total = 0;
    bool any = false;
    sv parts[16];
    size_t np = e->nargs < 16 ? e->nargs : 16;
    for (size_t i = 0; i < np; i++) {
        sv v;
        if (sql_eval(c, e->args[i], &v) != 0)
            return -1;
        if (v.k == K_NULL) {
            parts[i].k = K_NULL;
            continue;
        }
        any = true;
        if (sql_sv_text(c, &v, &parts[i]) != 0)
            return sql_fail_mismatch(c, e);
        total += parts[i].n;
    }
    memset(out, 0, sizeof *out);
    if (!any)
        return 0;
    if (total > SQL_FUNC_MAX_TEXT)
        return sql_cursor_fail(c, "22001", e->position, "String data, "
                               "right truncated: result longer than %u "
                               "characters (at character %zu)",
                               SQL_FUNC_MAX_TEXT, e->position);
    uint16_t *u = sql_tmp_alloc(c, (total ? total : 1) * 2);
    if (!u)
        return sql_fail_nomem(c);
    size_t k = 0;
    for (size_t i = 0; i < np; i++)
        if (parts[i].k == K_TEXT && parts[i].n) {
            memcpy(u + k, parts[i].s, parts[i].n * 2);
            k += parts[i].n;
        }
    sql_set_text(out, u, k);
    return 0;
}

int sql_func_eval(sql_cursor *c, const enode *e, sv *out)
{
    if (e->op == N_CONCAT || !e->fn)
        return sql_func_concat(c, e, out);
    const sql_funcdef *f = e->fn;
    if (f->flags & FN_LAZY) {
        memset(out, 0, sizeof *out);
        return f->impl(c, e, NULL, out);
    }
    sv stack[8];
    sv *args = stack;
    if (e->nargs > 8) {
        args = sql_tmp_alloc(c, e->nargs * sizeof *args);
        if (!args)
            return sql_fail_nomem(c);
    }
    for (size_t i = 0; i < e->nargs; i++) {
        if (sql_eval(c, e->args[i], &args[i]) != 0)
            return -1;
        if (args[i].k == K_NULL && !(f->flags & FN_NULLS)) {
            memset(out, 0, sizeof *out);
            return 0;
        }
    }
    memset(out, 0, sizeof *out);
    return f->impl(c, e, args, out);
}

/* ------------------------------------------------------------ setters */

void sql_set_int(sv *out, int64_t v)
{
    memset(out, 0, sizeof *out);
    out->k = K_INT;
    out->i = v;
}

void sql_set_double(sv *out, double v)
{
    memset(out, 0, sizeof *out);
    out->k = K_DOUBLE;
    out->d = v;
}

void sql_set_text(sv *out, const uint16_t *s, size_t n)
{
    memset(out, 0, sizeof *out);
    out->k = K_TEXT;
    out->s = s;
    out->n = n;
}
