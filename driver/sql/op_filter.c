/*
 * op_filter.c - a table level's filter judged on the row's bytes.
 *
 * A scanned table's filter (the WHERE of a single table, or the
 * conjuncts placed at its join level) is split into its AND-ed terms. The
 * terms of the forms BI tools send most - a stored fixed-size column
 * (Byte, Integer, Long, Large Number, Currency, Double, Date/Time) or
 * Jet 4 in-row Text compared with a constant or a parameter, BETWEEN two
 * of them, IS [NOT] NULL, and LIKE with a constant pattern - are read
 * straight from the row (jet_row_cell) and compared without building the
 * column's general value, the tree walk or the column cache: integers as
 * integers, Doubles and dates as the general comparison orders them
 * (num_cmp's rules, chosen once per run for the constant's kind), text
 * decoded once into the term's buffer and compared by the collation.
 * The terms left over are evaluated by the general evaluator after them,
 * in their order.
 *
 * Per run (the operands known), a comparison or BETWEEN of an integer
 * or Currency cell with integer (or Currency) bounds becomes a range of
 * the cell's integer, one unsigned comparison a row; text compared with
 * a constant remembers the general comparison's result for the last
 * distinct cell bytes it saw (a status, a city: each compared once). The
 * terms on numbers are judged before those on text. A plain scan's level
 * of a join (op_join.c) reads its rows through sql_fast_filter_next: the
 * scan and the judging in one loop, only a passing row comes back.
 *
 * Per run, the terms whose verdict a row's bytes settle exactly - an
 * integer range, a Double or Date/Time cell against a constant or
 * parameter - become the scan's tests (jet_cell_test, resolve_tests) and
 * are judged first: the scan passes over the rows they reject before it
 * parses them (core/scan.c jet_scan_next_where, a page's verdicts taken
 * without a branch on them), and a row they decided is judged from the
 * next term on. In-row text compared with text becomes a test too
 * (JET_TEST_TEXT): judge() records each verdict it reaches by the cell's
 * bytes (jet_text_known, emptied per run), and the scan applies it to
 * the same bytes on later rows; bytes not known yet leave the row to the
 * terms. So does LIKE with a fixed prefix ('abc%'), by the text's first
 * characters (jet_text_head), which alone decide it. A column whose
 * cells keep bringing new bytes (past KNOWN_MAX in a run: names,
 * labels) loses its text tests for the rest of the run. COUNT(*)s of a
 * filter that is only such tests are counted in the scan itself
 * (jet_scan_count_where). A NaN, a date before day 0 or a row not in its
 * usual shape is left to the terms, as before.
 *
 * The general evaluator stays the reference: a term runs the shortcut
 * only where the result is provably its (every other pair of kinds goes
 * through sql_sv_cmp, the general comparison itself), a cell the row
 * cannot give in line (jet_row_cell -1: damage, or an odd layout) sends
 * the term back to sql_eval_cond, and so does a comparison the general
 * path would fail (22018). Setting JETODBC_GENERAL_EVAL (any value but
 * "0") when a cursor opens turns the shortcut off for it: the property
 * tests run every generated WHERE both ways and compare.
 *
 * One difference is deliberate: the shortcut terms are judged first, and
 * a row is rejected at its first term that is not true, so a row one of
 * them rejects never evaluates the others; a left-over term that would
 * have failed (a bad conversion) on such a row no longer stops the
 * statement. The reverse cannot happen: a term that fails when taken
 * first hands the row to the whole filter in its own order. Access does
 * not promise an order of evaluation either.
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "plan.h"
#include "values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FM_DATE's quick comparison holds for dates in [0, DATE_QUICK) days
 * (beyond 9999-12-31, 2958465) */
#define DATE_QUICK 1e7

/* Term forms */
enum { FT_CMP = 1, FT_BETWEEN, FT_ISNULL, FT_LIKE };

/* Comparison modes, chosen per run from the operand's kind */
enum {
    FM_NULL = 1,    /* the operand is NULL: the comparison is unknown */
    FM_I64,         /* integer column, integer (or Boolean) operand */
    FM_ID,          /* integer column, plain Double operand */
    FM_DI,          /* Double column, integer operand */
    FM_DD,          /* Double column, Double operand */
    FM_DATE,        /* Date column, date operand: millisecond keys */
    FM_DX,          /* FM_DI or FM_ID where both sides are exact as
                       doubles: compared as doubles (d) */
    FM_MI,          /* Currency column (units of 1/10000), integer or
                       Currency operand: i in units; below (above) every
                       Currency when lo (hi) */
    FM_GENERAL      /* the column's value, then sql_sv_cmp */
};

/* One bound of a comparison: the operand and how this run compares. */
/* Text compared with a constant or parameter: the general comparison's
 * result for the cell bytes seen last, by their hash (a column of few
 * distinct values - a status, a country - compares each once per run).
 * The result depends only on the bytes, the operand and the cursor's
 * sort order, all fixed for the run. */
#define TC_BITS 5
#define TC_SLOTS (1u << TC_BITS)
#define TC_PROBE 4
#define TC_BYTES 46
#define TC_SHORT 16
typedef struct tc_ent {
    uint8_t len;            /* bytes; 0xFF: empty slot */
    int8_t r;               /* -1, 0, 1 */
    uint64_t w[2];          /* len <= TC_SHORT: the bytes as tc_words */
    uint8_t b[TC_BYTES];    /* longer: the bytes */
} tc_ent;

/* Cell bytes p, n (n <= TC_SHORT) as two words that tell every such
 * run of n bytes apart: the first and the last 8 (or 4) bytes, which
 * overlap and cover them all; below 4 bytes, the bytes themselves. */
static inline void tc_words(const uint8_t *p, size_t n, uint64_t w[2])
{
    if (n >= 8) {
        w[0] = jet_get_u64(p);
        w[1] = jet_get_u64(p + n - 8);
    } else if (n >= 4) {
        w[0] = jet_get_u32(p);
        w[1] = jet_get_u32(p + n - 4);
    } else {
        w[0] = n ? (uint64_t)p[0] | (uint64_t)p[n / 2] << 8 |
                   (uint64_t)p[n - 1] << 16
                 : 0;
        w[1] = 0;
    }
}

typedef struct ff_bound {
    const enode *e;         /* N_CONST or N_PARAM */
    uint8_t mode;           /* FM_* */
    int64_t i;              /* FM_I64: the integer; FM_DATE: the key;
                               FM_MI: the operand in 1/10000 units */
    int8_t out;             /* FM_MI: -1 the operand is below every
                               Currency (the column compares 1), 1 above
                               it (-1), 0 i holds it */
    double d;               /* FM_ID, FM_DD, FM_DX */
    double klo, khi;        /* FM_DATE: a date x in [0, DATE_QUICK) with
                               x * MS_PER_DAY below klo has a key below
                               i, above khi one above i */
    sv v;                   /* FM_GENERAL: the operand */
    tc_ent *tc;             /* FM_GENERAL of text: TC_SLOTS (owned),
                               emptied when the run's operands are
                               resolved */
} ff_bound;

typedef struct ff_term {
    uint8_t form;           /* FT_* */
    uint8_t cmp;            /* FT_CMP: CMP_* with the column on the left */
    bool negated;           /* FT_BETWEEN, FT_ISNULL */
    uint8_t kind;           /* the column's value kind (K_*) */
    jet_cell_loc loc;
    const enode *src;       /* the conjunct itself (the general path) */
    ff_bound b[2];          /* FT_CMP: b[0]; FT_BETWEEN: low, high */
    const like_pat *pat;    /* FT_LIKE */
    size_t pk;              /* FT_LIKE: sql_like_fixed_prefix(pat) */
    uint16_t *u16;          /* text decoded (owned) */
    size_t u16cap;
    /* FT_CMP or fixed-prefix FT_LIKE of in-row text: the verdicts
     * reached on the cell bytes (LIKE: first characters) judged
     * (owned), the scan's JET_TEST_TEXT while they keep coming back
     * (known_new: the filter's count of new ones this run) */
    jet_text_known *known;
    unsigned *known_new;
    /* This run's integer range (resolve_range): a fixed integer or
     * Currency cell compared with integer bounds only (FM_I64, FM_MI)
     * is true when its integer lies in [lo, hi] (none when rempty),
     * the other way round when rneg. */
    bool ranged, rempty, rneg;
    int64_t lo, hi;
} ff_term;

struct sql_fast_filter {
    size_t nterm, nrest;
    ff_term *term;
    /* This run's terms term[0..npre-1] as the scan's tests on the row's
     * bytes (resolve_tests; jet_scan_next_where): a row they decide
     * passed them, its judging starts at term[npre]. */
    size_t npre;
    size_t npre_fixed;      /* the tests before the first JET_TEST_TEXT */
    unsigned known_new;     /* text verdicts learnt this run: past
                               KNOWN_MAX the text tests are dropped (npre
                               = npre_fixed), a column of many values */
    jet_cell_test *tests;   /* nterm entries (owned) */
    const enode **rest;     /* conjuncts left to the general evaluator */
    const enode *all;       /* the whole filter (a term's failure) */
    bool resolved;          /* operands' modes chosen for this run */
    const jet_row *row;     /* the scan's current row (jet_scan_row) */
};

/* Distinct text cells a run's JET_TEST_TEXT terms may learn verdicts
 * for before the scan stops looking them up: a status or a country
 * repeats a few values, a name or a label does not. */
#define KNOWN_MAX 96

/* ------------------------------------------------------ building */

bool sql_general_forced(void)
{
    const char *s = getenv("JETODBC_GENERAL_EVAL");
    return s && *s && strcmp(s, "0") != 0;
}

/* Whether n or a node under it is marked soft (rewrite.c push_down): the
 * general evaluator forgives such a term's data exceptions. */
static bool has_soft(const enode *n)
{
    if (n->soft)
        return true;
    for (size_t i = 0; i < n->nargs; i++)
        if (has_soft(n->args[i]))
            return true;
    return false;
}

/* Count the AND-ed conjuncts of f. */
static size_t count_conj(const enode *f)
{
    if (f->op == N_AND)
        return count_conj(f->args[0]) + count_conj(f->args[1]);
    return 1;
}

static void list_conj(const enode *f, const enode **out, size_t *n)
{
    if (f->op == N_AND) {
        list_conj(f->args[0], out, n);
        list_conj(f->args[1], out, n);
        return;
    }
    out[(*n)++] = f;
}

uint8_t sql_cell_kind(jet_type t, const jet_cell_loc *loc)
{
    if (loc->kind == JET_CELL_TEXT)
        return t == JET_T_TEXT ? K_TEXT : 0;
    if (loc->kind != JET_CELL_FIXED)
        return 0;
    switch (t) {
    case JET_T_BYTE:
        return loc->width == 1 ? K_INT : 0;
    case JET_T_INT:
        return loc->width == 2 ? K_INT : 0;
    case JET_T_LONG:
        return loc->width == 4 ? K_INT : 0;
    case JET_T_BIGINT:
        return loc->width == 8 ? K_INT : 0;
    case JET_T_MONEY:
        return loc->width == 8 ? K_MONEY : 0;
    case JET_T_DOUBLE:
        return loc->width == 8 ? K_DOUBLE : 0;
    case JET_T_DATETIME:
        return loc->width == 8 ? K_DATE : 0;
    default:
        return 0;
    }
}

/* Whether n is a column of table tab this filter can read in line; its
 * cell location and kind then. */
static bool own_col(const sql_cursor *c, size_t tab, const enode *n,
                    jet_cell_loc *loc, uint8_t *kind)
{
    const tab_plan *tp = &c->st->tabs[tab];
    if (n->op != N_COL || n->up || n->tab != tab || !tp->td ||
        n->col >= tp->td->ncols)
        return false;
    const jet_column *jc = &tp->td->cols[n->col];
    if (jc->flags & JET_COL_CALCULATED)
        return false;
    jet_scan_cell_loc(c->t[tab].scan, n->col, loc);
    *kind = sql_cell_kind(jc->type, loc);
    return *kind != 0;
}

static bool operand(const enode *n)
{
    return n->op == N_CONST || n->op == N_PARAM;
}

/* CMP_* with its operands swapped (a < b is b > a). */
static uint8_t swap_cmp(uint8_t op)
{
    switch (op) {
    case CMP_LT: return CMP_GT;
    case CMP_LE: return CMP_GE;
    case CMP_GT: return CMP_LT;
    case CMP_GE: return CMP_LE;
    default: return op;
    }
}

/* Fill *t from conjunct e when it has a term form. */
static bool make_term(const sql_cursor *c, size_t tab, const enode *e,
                      ff_term *t)
{
    memset(t, 0, sizeof *t);
    t->src = e;
    switch (e->op) {
    case N_CMP: {
        const enode *a = e->args[0], *b = e->args[1];
        if (own_col(c, tab, a, &t->loc, &t->kind) && operand(b)) {
            t->cmp = e->sub;
            t->b[0].e = b;
        } else if (own_col(c, tab, b, &t->loc, &t->kind) && operand(a)) {
            t->cmp = swap_cmp(e->sub);
            t->b[0].e = a;
        } else {
            return false;
        }
        t->form = FT_CMP;
        return true;
    }
    case N_BETWEEN:
        if (!own_col(c, tab, e->args[0], &t->loc, &t->kind) ||
            !operand(e->args[1]) || !operand(e->args[2]))
            return false;
        t->form = FT_BETWEEN;
        t->negated = e->negated;
        t->b[0].e = e->args[1];
        t->b[1].e = e->args[2];
        return true;
    case N_ISNULL:
        if (!own_col(c, tab, e->args[0], &t->loc, &t->kind))
            return false;
        t->form = FT_ISNULL;
        t->negated = e->negated;
        return true;
    case N_LIKE:
        if (!e->pat || sql_like_invalid(e->pat) ||
            !own_col(c, tab, e->args[0], &t->loc, &t->kind) ||
            t->kind != K_TEXT)
            return false;
        t->form = FT_LIKE;
        t->pat = e->pat;
        t->pk = sql_like_fixed_prefix(e->pat);
        return true;
    default:
        return false;
    }
}

/* A term's rank in the order the terms are judged: 0 a number or a
 * NULL test, 1 text. */
static int term_cost(const ff_term *t)
{
    return t->kind == K_TEXT && t->form != FT_ISNULL;
}

void sql_fast_filter_free(sql_fast_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nterm; i++) {
        free(f->term[i].u16);
        free(f->term[i].known);
        free(f->term[i].b[0].tc);
        free(f->term[i].b[1].tc);
    }
    free(f->term);
    free(f->rest);
    free(f->tests);
    free(f);
}

int sql_fast_filter_build(sql_cursor *c, size_t tab, const enode *filter,
                          sql_fast_filter **out)
{
    *out = NULL;
    const tab_plan *tp = &c->st->tabs[tab];
    if (!filter || !tp->td || tp->sub || !c->t[tab].scan || has_soft(filter) ||
        sql_general_forced())
        return 0;
    size_t n = count_conj(filter), k = 0;
    const enode **conj = malloc(n * sizeof *conj);
    sql_fast_filter *f = calloc(1, sizeof *f);
    if (f) {
        f->term = calloc(n, sizeof *f->term);
        f->rest = malloc(n * sizeof *f->rest);
        f->tests = malloc(n * sizeof *f->tests);
    }
    if (!conj || !f || !f->term || !f->rest || !f->tests) {
        free(conj);
        sql_fast_filter_free(f);
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    f->all = filter;
    f->row = jet_scan_row(c->t[tab].scan);
    list_conj(filter, conj, &k);
    bool oom = false;
    for (size_t i = 0; i < n; i++) {
        ff_term *t = &f->term[f->nterm];
        if (!make_term(c, tab, conj[i], t)) {
            f->rest[f->nrest++] = conj[i];
            continue;
        }
        f->nterm++;
        if ((t->form == FT_CMP ||
             (t->form == FT_LIKE && t->pk >= 1 &&
              t->pk <= JET_TEXT_HEAD_MAX)) &&
            t->kind == K_TEXT && t->loc.kind == JET_CELL_TEXT) {
            t->known_new = &f->known_new;
            if (!(t->known = malloc(sizeof *t->known)))
                oom = true;
        }
        if (t->kind != K_TEXT || (t->form != FT_CMP && t->form != FT_BETWEEN))
            continue;
        for (int j = 0; j < (t->form == FT_BETWEEN ? 2 : 1); j++)
            if (!(t->b[j].tc = malloc(TC_SLOTS * sizeof *t->b[j].tc)))
                oom = true;
    }
    free(conj);
    /* the terms on text last (a decode and the collation per row, where
     * the others read a number): a row a cheap term rejects never pays
     * for them. Otherwise in the filter's order (stable). */
    for (size_t i = 1; i < f->nterm; i++) {
        ff_term x = f->term[i];
        size_t j = i;
        for (; j > 0 && term_cost(&f->term[j - 1]) > term_cost(&x); j--)
            f->term[j] = f->term[j - 1];
        f->term[j] = x;
    }
    if (oom) {
        sql_fast_filter_free(f);
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    if (!f->nterm) {
        sql_fast_filter_free(f);
        return 0;
    }
    *out = f;
    return 0;
}

/* ---------------------------------------------------- resolving */

static inline int truth_of(uint8_t cmp, int r);

/* How column kind k compares with operand v in this run (num_cmp's
 * branches, values.c, taken ahead for the pairs it settles simply). */
static void resolve_bound(sql_cursor *c, uint8_t k, unsigned width,
                          ff_bound *b)
{
    sv v = b->e->op == N_CONST ? b->e->konst : c->params[b->e->param];
    b->v = v;
    if (v.k == K_NULL) {
        b->mode = FM_NULL;
        return;
    }
    b->mode = FM_GENERAL;
    if (k == K_INT && (v.k == K_INT || v.k == K_BOOL)) {
        b->mode = FM_I64;
        b->i = v.k == K_BOOL ? -v.i : v.i;
    } else if (k == K_INT && v.k == K_DOUBLE && !v.has_dec) {
        b->mode = FM_ID;
        b->d = v.d;
        /* a column of up to 32 bits is exact as a double: the long
         * double comparison orders it as the double one does (a NaN
         * operand equal to every value in both) */
        if (width <= 4)
            b->mode = FM_DX;
    } else if (k == K_DOUBLE && (v.k == K_INT || v.k == K_BOOL)) {
        b->mode = FM_DI;
        b->i = v.k == K_BOOL ? -v.i : v.i;
        if (b->i >= -(INT64_C(1) << 53) && b->i <= (INT64_C(1) << 53)) {
            b->mode = FM_DX;        /* exact as a double, as above */
            b->d = (double)b->i;
        }
    } else if (k == K_DOUBLE && v.k == K_DOUBLE) {
        b->mode = FM_DD;
        b->d = v.d;
    } else if (k == K_MONEY && v.k == K_MONEY) {
        b->mode = FM_MI;            /* num_cmp: both exact in units */
        b->i = v.i;
        b->out = 0;
    } else if (k == K_MONEY && (v.k == K_INT || v.k == K_BOOL)) {
        /* num_cmp: the integer times 10000 in 128 bits, exact */
        int64_t x = v.k == K_BOOL ? -v.i : v.i;
        b->mode = FM_MI;
        b->out = x > INT64_MAX / 10000 ? 1 : x < INT64_MIN / 10000 ? -1 : 0;
        b->i = b->out ? 0 : x * 10000;
    } else if (k == K_DATE && v.k == K_DATE) {
        b->mode = FM_DATE;
        b->i = sql_date_key(v.d);
        /* sql_date_key(x) for 0 <= x < DATE_QUICK is x * MS_PER_DAY
         * rounded, and that product computed in double is off by less
         * than 0.1: a product more than 1 below (above) the key's has a
         * smaller (larger) key. Keys beyond 2^52 take the exact path. */
        bool exact = b->i > -(INT64_C(1) << 52) && b->i < (INT64_C(1) << 52);
        b->klo = exact ? (double)b->i - 1.0 : -INFINITY;
        b->khi = exact ? (double)b->i + 1.0 : INFINITY;
    }
}

/* Bound b as an integer range of the cell's integer x (FM_I64 and
 * FM_MI, compared as cmp_bound does): the x for which x `cmp` operand
 * holds are [*lo, *hi], none when false is returned. */
static bool bound_range(const ff_bound *b, uint8_t cmp, int64_t *lo,
                        int64_t *hi)
{
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    if (b->mode == FM_MI && b->out)     /* every x compares -b->out */
        return truth_of(cmp, -b->out);
    int64_t i = b->i;
    switch (cmp) {
    case CMP_EQ:
        *lo = *hi = i;
        return true;
    case CMP_LT:
        if (i == INT64_MIN)
            return false;
        *hi = i - 1;
        return true;
    case CMP_LE:
        *hi = i;
        return true;
    case CMP_GT:
        if (i == INT64_MAX)
            return false;
        *lo = i + 1;
        return true;
    default:                            /* CMP_GE; CMP_NE is EQ negated */
        *lo = i;
        return true;
    }
}

/* Term t as an integer range (ff_term.ranged) when its form and this
 * run's modes allow. */
static void resolve_range(ff_term *t)
{
    t->ranged = false;
    if (t->loc.kind != JET_CELL_FIXED ||
        (t->form != FT_CMP && t->form != FT_BETWEEN))
        return;
    int nb = t->form == FT_BETWEEN ? 2 : 1;
    for (int j = 0; j < nb; j++)
        if (t->b[j].mode != FM_I64 && t->b[j].mode != FM_MI)
            return;
    int64_t lo, hi, lo2, hi2;
    bool any;
    if (t->form == FT_CMP) {
        bool ne = t->cmp == CMP_NE;
        any = bound_range(&t->b[0], ne ? CMP_EQ : t->cmp, &lo, &hi);
        t->rneg = ne;
    } else {
        any = bound_range(&t->b[0], CMP_GE, &lo, &hi) &&
              bound_range(&t->b[1], CMP_LE, &lo2, &hi2);
        if (any) {
            lo = lo > lo2 ? lo : lo2;
            hi = hi < hi2 ? hi : hi2;
            any = lo <= hi;
        }
        t->rneg = t->negated;
    }
    t->rempty = !any;
    t->lo = any ? lo : 0;
    t->hi = any ? hi : 0;
    t->ranged = true;
}

/* The least double x >= 0 whose date key (sql_date_key) is at least
 * key; +INFINITY's key below it: NAN. The key is non-decreasing over
 * [0, +INFINITY] (its day, then its rounded milliseconds; clamped), so
 * the bit patterns of the non-negative doubles, which order as they do,
 * are searched. */
static double date_key_floor(int64_t key)
{
    uint64_t lo = 0, hi = UINT64_C(0x7FF0000000000000);   /* +INFINITY */
    double d;
    memcpy(&d, &hi, sizeof d);
    if (sql_date_key(d) < key)
        return NAN;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        memcpy(&d, &mid, sizeof d);
        if (sql_date_key(d) >= key)
            hi = mid;
        else
            lo = mid + 1;
    }
    memcpy(&d, &lo, sizeof d);
    return d;
}

/* [*lo, *hi] of the non-NaN doubles x for which `x cmp` bound b holds,
 * as cmp_bound's FM_DD and FM_DX compare a Double cell (ordinary order
 * once neither side is a NaN); for FM_DATE, of the x >= 0 (the key
 * order, date_key_floor). false: not a range (CMP_NE, a NaN operand, a
 * key out of reach). An empty range has *lo > *hi. */
static bool double_range(const ff_bound *b, uint8_t cmp, double *lo,
                         double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (cmp == CMP_NE)
        return false;
    if (b->mode == FM_DATE) {
        int64_t k = b->i;
        if (k <= -(INT64_C(1) << 62) || k >= (INT64_C(1) << 62))
            return false;
        if (cmp == CMP_GT || cmp == CMP_GE || cmp == CMP_EQ) {
            double v = date_key_floor(cmp == CMP_GT ? k + 1 : k);
            if (isnan(v)) {
                *lo = 1;
                *hi = 0;
                return true;
            }
            *lo = v;
        }
        if (cmp == CMP_LT || cmp == CMP_LE || cmp == CMP_EQ) {
            /* below the least x whose key passes the bound */
            double v = date_key_floor(cmp == CMP_LT ? k : k + 1);
            if (!isnan(v)) {
                if (v == 0) {
                    *lo = 1;
                    *hi = 0;
                    return true;
                }
                *hi = nextafter(v, -INFINITY);
            }
        }
        return true;
    }
    if ((b->mode != FM_DD && b->mode != FM_DX) || isnan(b->d))
        return false;
    double d = b->d;
    switch (cmp) {
    case CMP_EQ:
        *lo = *hi = d;
        break;
    case CMP_LT:
        *hi = nextafter(d, -INFINITY);
        if (d == -INFINITY)
            *lo = 1, *hi = 0;
        break;
    case CMP_LE:
        *hi = d;
        break;
    case CMP_GT:
        *lo = nextafter(d, INFINITY);
        if (d == INFINITY)
            *lo = 1, *hi = 0;
        break;
    default:        /* CMP_GE */
        *lo = d;
        break;
    }
    return true;
}

/* Term t as a test on the row's bytes (jet_cell_test) when this run's
 * modes make it one whose verdict is the term's: an integer range
 * (resolve_range), or a Double or Date/Time cell compared with a
 * constant or parameter (a NaN cell, a date before day 0 left to the
 * term). */
static bool make_test(const ff_term *t, jet_cell_test *x)
{
    memset(x, 0, sizeof *x);
    x->loc = t->loc;
    if (t->known && t->form == FT_LIKE) {
        /* LIKE 'abc%': the verdicts judge() learns per first characters */
        x->kind = JET_TEST_TEXT;
        x->known = t->known;
        x->head = (uint8_t)t->pk;
        return true;
    }
    if (t->known && t->b[0].mode == FM_GENERAL && t->b[0].v.k == K_TEXT) {
        /* text against text: the verdicts judge() learns per cell */
        x->kind = JET_TEST_TEXT;
        x->known = t->known;
        return true;
    }
    if (t->loc.kind != JET_CELL_FIXED)
        return false;
    if (t->ranged) {
        x->kind = JET_TEST_INT;
        if (t->rempty) {        /* every value in, or every value out */
            x->lo = t->rneg ? INT64_MIN : 1;
            x->hi = t->rneg ? INT64_MAX : 0;
        } else {
            x->lo = t->lo;
            x->hi = t->hi;
            x->negated = t->rneg;
        }
        return true;
    }
    if (t->kind != K_DOUBLE && t->kind != K_DATE)
        return false;
    if (t->loc.width != 8 || (t->form != FT_CMP && t->form != FT_BETWEEN) ||
        (t->form == FT_BETWEEN && t->negated))
        return false;
    if (t->kind == K_DOUBLE) {
        for (int j = 0; j < (t->form == FT_BETWEEN ? 2 : 1); j++)
            if (t->b[j].mode == FM_DATE)
                return false;
    } else {
        for (int j = 0; j < (t->form == FT_BETWEEN ? 2 : 1); j++)
            if (t->b[j].mode != FM_DATE)
                return false;
    }
    double lo, hi, lo2, hi2;
    if (t->form == FT_CMP) {
        if (!double_range(&t->b[0], t->cmp, &lo, &hi))
            return false;
    } else {
        if (!double_range(&t->b[0], CMP_GE, &lo, &hi) ||
            !double_range(&t->b[1], CMP_LE, &lo2, &hi2))
            return false;
        lo = lo > lo2 ? lo : lo2;
        hi = hi < hi2 ? hi : hi2;
    }
    x->kind = t->kind == K_DATE ? JET_TEST_DOUBLE_NONNEG : JET_TEST_DOUBLE;
    x->dlo = lo;
    x->dhi = hi;
    return true;
}

/* This run's tests on the row's bytes: the terms that make one first
 * (in their order; the others after them, in theirs), npre of them. */
static void resolve_tests(sql_fast_filter *f)
{
    size_t k = 0;
    for (size_t i = 0; i < f->nterm; i++) {
        if (!make_test(&f->term[i], &f->tests[k]))
            continue;
        if (i != k) {       /* move term i to k, the ones between up */
            ff_term x = f->term[i];
            memmove(&f->term[k + 1], &f->term[k],
                    (i - k) * sizeof *f->term);
            f->term[k] = x;
        }
        k++;
    }
    f->npre = k;
    /* (the terms on text come after the others: so do their tests) */
    f->npre_fixed = 0;
    while (f->npre_fixed < k && f->tests[f->npre_fixed].kind != JET_TEST_TEXT)
        f->npre_fixed++;
}

static void resolve(sql_cursor *c, sql_fast_filter *f)
{
    for (size_t i = 0; i < f->nterm; i++) {
        ff_term *t = &f->term[i];
        for (int j = 0; j < 2; j++)
            if (t->b[j].tc)
                for (size_t k = 0; k < TC_SLOTS; k++)
                    t->b[j].tc[k].len = 0xFF;
        if (t->known)
            jet_text_known_clear(t->known);
        if (t->form == FT_CMP || t->form == FT_BETWEEN)
            resolve_bound(c, t->kind, t->loc.width, &t->b[0]);
        if (t->form == FT_BETWEEN)
            resolve_bound(c, t->kind, t->loc.width, &t->b[1]);
        resolve_range(t);
    }
    resolve_tests(f);
    f->known_new = 0;
    f->resolved = true;
}

/* ---------------------------------------------------- per row */

/* values.c cmp_d: NaN after every number, equal to itself */
static inline int cmp_d(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

static inline int cmp_ld(long double a, long double b)
{
    return a < b ? -1 : a > b;
}

/* The column's value from its cell, as sql_value_to_sv makes it. 0, or
 * -1 when the text does not decode (the general path says why). */
static int cell_sv(sql_cursor *c, ff_term *t, const uint8_t *p, size_t n,
                   sv *out)
{
    memset(out, 0, sizeof *out);
    switch (t->kind) {
    case K_INT:
        out->k = K_INT;
        out->i = jet_cell_int(p, t->loc.width);
        return 0;
    case K_MONEY:
        out->k = K_MONEY;
        out->i = (int64_t)jet_get_u64(p);
        return 0;
    case K_DOUBLE:
        out->k = K_DOUBLE;
        out->d = jet_cell_double(p);
        return 0;
    case K_DATE:
        out->k = K_DATE;
        out->d = jet_cell_double(p);
        return 0;
    default: {
        jet_value v = { .type = JET_T_TEXT, .data = p, .len = n };
        v.enc = n >= 2 && p[0] == 0xFF && p[1] == 0xFE ? JET_ENC_COMPRESSED
                                                       : JET_ENC_UCS2;
        size_t units = 0;
        jet_rc rc = jet_text_to_utf16(c->db, &v, t->u16, t->u16cap, &units);
        if (rc == JET_OK && units > t->u16cap) {
            size_t cap = units < 64 ? 64 : units;
            uint16_t *g = realloc(t->u16, cap * sizeof *g);
            if (!g)
                return -1;
            t->u16 = g;
            t->u16cap = cap;
            rc = jet_text_to_utf16(c->db, &v, t->u16, t->u16cap, &units);
        }
        if (rc != JET_OK)
            return -1;
        out->k = K_TEXT;
        out->s = t->u16;
        out->n = units;
        return 0;
    }
    }
}

/* cmp_bound's FM_GENERAL: the column's value, then sql_sv_cmp (out of
 * line, so that the numeric cases stay small). */
static __attribute__((noinline)) int cmp_general(sql_cursor *c, ff_term *t,
                                                 const ff_bound *b,
                                                 const uint8_t *p, size_t n,
                                                 int *r)
{
    sv a;
    tc_ent *e = NULL;
    uint64_t w[2] = { 0, 0 };
    if (t->kind == K_TEXT && n <= TC_BYTES && b->tc) {
        uint64_t h;
        if (n <= TC_SHORT) {
            tc_words(p, n, w);
            h = w[0] * 0x9E3779B97F4A7C15ull ^ w[1] ^ n;
        } else {
            h = 2166136261u;
            for (size_t i = 0; i < n; i++)
                h = (h ^ p[i]) * 16777619u;
        }
        /* the bytes' slot or one of the TC_PROBE after it; a miss takes
         * the first empty one of them, else evicts the first */
        size_t s0 = (size_t)((h * 0xC2B2AE3D27D4EB4Full) >> (64 - TC_BITS));
        for (size_t k = 0; k < TC_PROBE; k++) {
            tc_ent *x = &b->tc[(s0 + k) & (TC_SLOTS - 1)];
            if (x->len == n &&
                (n <= TC_SHORT ? x->w[0] == w[0] && x->w[1] == w[1]
                               : !memcmp(x->b, p, n))) {
                *r = x->r;
                return 0;
            }
            if (x->len == 0xFF) {
                e = x;
                break;
            }
        }
        if (!e)
            e = &b->tc[s0];
    }
    if (cell_sv(c, t, p, n, &a) != 0 ||
        sql_sv_cmp(c->text_order, &a, &b->v, r) != 0)
        return -1;
    if (e) {
        e->len = (uint8_t)n;
        e->r = (int8_t)(*r < 0 ? -1 : *r > 0);
        if (n <= TC_SHORT) {
            e->w[0] = w[0];
            e->w[1] = w[1];
        } else {
            memcpy(e->b, p, n);
        }
    }
    return 0;
}

/* The column (cell p, n) against bound b: -1, 0, 1 in *r; returns 0, or
 * -1 when the general path must decide (it fails there, or text did not
 * decode). */
static inline __attribute__((always_inline)) int
cmp_bound(sql_cursor *c, ff_term *t, const ff_bound *b, const uint8_t *p,
          size_t n, int *r)
{
    switch (b->mode) {
    case FM_I64: {
        /* (x > y) - (x < y), as the cases below: no branch on the
         * row's value, whose outcome a half-true filter cannot predict */
        int64_t x = jet_cell_int(p, t->loc.width);
        *r = (x > b->i) - (x < b->i);
        return 0;
    }
    case FM_ID:
        *r = cmp_ld((long double)jet_cell_int(p, t->loc.width),
                    (long double)b->d);
        return 0;
    case FM_DI:     /* a NaN compares equal here, as in num_cmp */
        *r = cmp_ld((long double)jet_cell_double(p), (long double)b->i);
        return 0;
    case FM_DD:
        *r = cmp_d(jet_cell_double(p), b->d);
        return 0;
    case FM_DX: {   /* a NaN on either side compares equal, as cmp_ld */
        double x = t->kind == K_INT ? (double)jet_cell_int(p, t->loc.width)
                                    : jet_cell_double(p);
        *r = (x > b->d) - (x < b->d);
        return 0;
    }
    case FM_MI: {
        int64_t x = (int64_t)jet_get_u64(p);
        *r = b->out ? -b->out : x < b->i ? -1 : x > b->i;
        return 0;
    }
    case FM_DATE: {
        double d = jet_cell_double(p);
        if (d >= 0 && d < DATE_QUICK) {
            double y = d * (double)MS_PER_DAY;
            /* & not &&: one branch, taken for a key near the bound */
            if (!((y >= b->klo) & (y <= b->khi))) {
                *r = (y > b->khi) - (y < b->klo);
                return 0;
            }
        }
        int64_t x = sql_date_key(d);
        *r = (x > b->i) - (x < b->i);
        return 0;
    }
    default:
        return cmp_general(c, t, b, p, n, r);
    }
}

static inline int truth_of(uint8_t cmp, int r)
{
    switch (cmp) {
    case CMP_EQ: return r == 0;
    case CMP_NE: return r != 0;
    case CMP_LT: return r < 0;
    case CMP_LE: return r <= 0;
    case CMP_GT: return r > 0;
    default: return r >= 0;
    }
}

/* Longest LIKE prefix (sql_like_fixed_prefix) judged on the text's head */
#define LIKE_HEAD 32

/* Term t for the current row: 1 true, 0 false or unknown, -2 the general
 * path decides. */
static inline __attribute__((always_inline)) int
judge(sql_cursor *c, const jet_row *row, ff_term *t)
{
    const uint8_t *p = NULL;
    size_t n = 0;
    int k = jet_row_cell(row, &t->loc, &p, &n);
    if (k < 0)
        return -2;
    if (t->ranged) {
        /* NULL is unknown, also under NOT */
        if (k == 0)
            return 0;
        int64_t x = jet_cell_int(p, t->loc.width);
        bool in = !t->rempty &&
                  (uint64_t)x - (uint64_t)t->lo <= (uint64_t)t->hi -
                                                   (uint64_t)t->lo;
        return in != t->rneg;
    }
    switch (t->form) {
    case FT_ISNULL:
        return (k == 0) != t->negated;
    case FT_CMP: {
        if (k == 0 || t->b[0].mode == FM_NULL)
            return 0;
        int r;
        if (cmp_bound(c, t, &t->b[0], p, n, &r) != 0)
            return -2;
        int v = truth_of(t->cmp, r);
        if (t->known && jet_text_known_put(t->known, p, n, v))
            ++*t->known_new;
        return v;
    }
    case FT_BETWEEN: {
        if (k == 0)
            return 0;
        int t1 = -1, t2 = -1, r;
        if (t->b[0].mode != FM_NULL) {
            if (cmp_bound(c, t, &t->b[0], p, n, &r) != 0)
                return -2;
            t1 = r >= 0;
        }
        if (t->b[1].mode != FM_NULL) {
            if (cmp_bound(c, t, &t->b[1], p, n, &r) != 0)
                return -2;
            t2 = r <= 0;
        }
        int v = (t1 == 0 || t2 == 0) ? 0 : (t1 < 0 || t2 < 0) ? -1 : 1;
        return v < 0 ? 0 : t->negated ? !v : v;
    }
    default: {      /* FT_LIKE */
        if (k == 0)
            return 0;
        uint16_t head[LIKE_HEAD];
        if (t->pk <= LIKE_HEAD && jet_text_head(p, n, t->pk, head)) {
            /* (core/jet.h: the first pk characters decide the match) */
            int v = sql_like_match(t->pat, head, t->pk);
            if (t->known &&
                (t->pk == 1 ? jet_text_known_put_char(t->known, head[0], v)
                            : jet_text_known_put(t->known,
                                                 (const uint8_t *)head,
                                                 2 * t->pk, v)))
                ++*t->known_new;
            return v;
        }
        sv a;
        if (cell_sv(c, t, p, n, &a) != 0)
            return -2;
        return sql_like_match(t->pat, a.s, a.n);
    }
    }
}

/* sql_fast_filter_eval's work once resolved, in line in its callers. */
static inline __attribute__((always_inline)) int
eval_row(sql_cursor *c, sql_fast_filter *f, size_t from)
{
    const jet_row *row = f->row;
    for (size_t i = from; i < f->nterm; i++) {
        int ok = judge(c, row, &f->term[i]);
        if (ok == -2) {
            ok = sql_eval_cond(c, f->term[i].src);
            /* a term that fails taken first may not be reached in the
             * filter's own order: the whole filter decides the row */
            if (ok < 0)
                return sql_eval_cond(c, f->all);
        }
        /* the last term's result is the filter's, without a branch on
         * it */
        if (i + 1 == f->nterm && !f->nrest)
            return ok;
        if (ok <= 0)
            return ok;
    }
    for (size_t i = 0; i < f->nrest; i++) {
        int ok = sql_eval_cond(c, f->rest[i]);
        if (ok <= 0)
            return ok;
    }
    return 1;
}

/* The scan's tests for the next rows: without the text tests once
 * their cells stopped repeating (KNOWN_MAX). */
static inline size_t scan_tests(sql_fast_filter *f)
{
    if (f->known_new > KNOWN_MAX)
        f->npre = f->npre_fixed;
    return f->npre;
}

int sql_fast_filter_eval(sql_cursor *c, size_t tab, sql_fast_filter *f)
{
    if (!f->resolved)
        resolve(c, f);
    (void)tab;
    return eval_row(c, f, 0);
}

jet_rc sql_fast_filter_scan(sql_cursor *c, sql_fast_filter *f,
                            jet_scan *scan, bool *decided)
{
    if (!f->resolved)
        resolve(c, f);
    return jet_scan_next_where(scan, f->tests, scan_tests(f), decided);
}

int sql_fast_filter_count(sql_cursor *c, sql_fast_filter *f, jet_scan *scan,
                          uint64_t *n)
{
    if (!f->resolved)
        resolve(c, f);
    if (!scan_tests(f) || f->npre != f->nterm || f->nrest)
        return 2;
    return jet_scan_count_where(scan, f->tests, f->npre, n);
}

int sql_fast_filter_judge(sql_cursor *c, sql_fast_filter *f, bool decided)
{
    return eval_row(c, f, decided ? f->npre : 0);
}

int sql_fast_filter_next(sql_cursor *c, size_t tab, sql_fast_filter *f)
{
    tcur *t = &c->t[tab];
    if (!f->resolved)
        resolve(c, f);
    for (;;) {
        if (t->src_done)
            return JET_DONE;
        if ((c->nread & 255) == 0 && sql_check_cancel(c) != 0)
            return -1;
        bool decided;
        jet_rc rc = jet_scan_next_where(t->scan, f->tests, scan_tests(f),
                                        &decided);
        if (rc == JET_DONE) {
            t->src_done = true;
            return JET_DONE;
        }
        if (rc != JET_OK)
            return sql_cursor_fail_rc(c, rc, jet_scan_error(t->scan));
        t->gen++;
        c->nread++;
        sql_tmp_reset(c);
        int ok = eval_row(c, f, decided ? f->npre : 0);
        if (ok < 0)
            return -1;
        if (ok)
            return JET_OK;
    }
}
