/*
 * bind.c - names and types of a query block: FROM flattened into tabs[]
 * (a RIGHT join as the LEFT join with its sides swapped; an outer join's
 * optional side a group of consecutive levels), tables, derived tables
 * and saved queries bound (a saved query as a derived table, a crosstab
 * through the SELECT it runs as), the select list with * expanded and
 * Access's labels, ORDER BY, column references (compile_column), the
 * GROUP BY and long value (Memo, OLE Object) rules.
 *
 * A column resolves in the block's tables (by qualifier = alias, or name
 * of an unaliased table; found in two tables: 42000 as Access says it),
 * else in the enclosing blocks (a correlated reference, N_COL.up); in
 * the select list an earlier item's alias comes before both (its
 * expression, st->alias_scope); a
 * qualifier no block has such a table for may still name an aliased
 * table by its table name (qualifier_ok). A name a saved query's SQL
 * cannot bind is a parameter Access would ask for (unbound_name, 07002).
 * GROUP BY expressions found inside the select list, HAVING and ORDER BY
 * become group-key nodes; a column left outside an aggregate is 42000.
 * Invariants:
 *   1. tabs[] is in FROM order, each LEFT join's preserved side before
 *      its optional side; while FROM is bound st->ntabs counts the tables
 *      bound so far (a subquery in FROM sees only those).
 *   2. Saved queries nest at most SQL_MAX_VIEW_DEPTH deep and none is
 *      expanded inside itself (root->view_stack); errors inside one name
 *      it and give no position in its rebuilt text (sql_error_in_saved).
 *   3. tab_plan.proj marks every column a compiled reference reads
 *      (compile_column).
 */
#include "config.h"

#include "func.h"
#include "plan.h"
#include "plan_int.h"
#include "savedquery.h"
#include "sql_internal.h"
#include "values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A failure of the core (rc, detail in db's error): rc, page and message,
 * no SQLSTATE (sql.h: the driver maps it). Returns -1. */
static int core_fail(ctx *x, jet_rc rc)
{
    const jet_error *je = jet_db_error(x->st->db);
    sql_error *e = x->err;
    e->sqlstate[0] = '\0';
    e->position = 0;
    e->rc = rc;
    e->pgno = je && je->rc == rc ? je->pgno : UINT32_MAX;
    snprintf(e->msg, sizeof e->msg, "%s", je && je->rc == rc && je->msg[0]
             ? je->msg : jet_rc_str(rc));
    return -1;
}

/* ----------------------------------------------------------- names */

/* Does qualifier q name table tp? Exact: its alias when it has one, else
 * its name - in Access an aliased table is known by its alias only, so
 * `Employees` in `FROM Employees INNER JOIN Employees AS Employees_1`
 * names the first copy, and inside `(SELECT ... FROM Orders AS o2 ...)`
 * `Orders` names the outer query's Orders. Lenient (!exact): the table
 * name is accepted beside an alias too, as before; callers try it only
 * when no table of any enclosing block matches exactly. */
static bool qualifier_ok(const tab_plan *tp, const char *q, bool exact)
{
    if (!q)
        return true;
    if (tp->alias && jet_name_equal_ci(q, tp->alias))
        return true;
    if (exact && tp->alias)
        return false;
    return tp->name && jet_name_equal_ci(q, tp->name);
}

/* Column named name of table tp, or -1. */
static int tab_find_column(const tab_plan *tp, const char *name)
{
    if (tp->td)
        return jet_tdef_find_column(tp->td, name);
    for (uint16_t i = 0; i < tp->ncols; i++)
        if (jet_name_equal_ci(tp->sub->cols[i].meta.name, name))
            return i;
    return -1;
}

/* The table column behind a column node (walking out to the enclosing
 * statement of a correlated reference), or NULL. */
const jet_column *node_column(const sql_stmt *st, const enode *n)
{
    if (n->op != N_COL)
        return NULL;
    for (uint8_t u = 0; u < n->up && st; u++)
        st = st->parent;
    if (!st || n->tab >= st->ntabs)
        return NULL;
    const tab_plan *tp = &st->tabs[n->tab];
    if (tp->td)
        return &tp->td->cols[n->col];
    return tp->sub->cols[n->col].meta.column;
}

/* Jet type of column col of table tp. */
static jet_type tab_col_type(const tab_plan *tp, uint16_t col)
{
    /* a calculated column's values have its ResultType, not its TDEF type */
    return tp->td ? tp->td->cols[col].result_type
                  : tp->sub->cols[col].meta.type;
}

static const char *tab_col_name(const tab_plan *tp, uint16_t col)
{
    return tp->td ? tp->td->cols[col].name : tp->sub->cols[col].meta.name;
}

const char *tab_label(const tab_plan *tp)
{
    return tp->alias ? tp->alias : tp->name ? tp->name : "?";
}

/* Find qualifier.name among st's tables (the qualifier matched exactly
 * or leniently, qualifier_ok): 1 found (*tab, *col), 0 not found, -1
 * ambiguous (error set). *qual_seen: the qualifier names a table of st. */
static int lookup_column(ctx *x, const sql_stmt *st, const sql_expr *e,
                         bool exact, uint16_t *tab, uint16_t *col,
                         bool *qual_seen)
{
    int found = 0;
    for (size_t i = 0; i < st->ntabs; i++) {
        const tab_plan *tp = &st->tabs[i];
        if (e->qualifier && !qualifier_ok(tp, e->qualifier, exact))
            continue;
        if (e->qualifier)
            *qual_seen = true;
        int c = tab_find_column(tp, e->text);
        if (c < 0)
            continue;
        if (found) {
            fail(x, "42000", e->position, "The specified field '%s' could "
                 "refer to more than one table listed in the FROM clause "
                 "of your SQL statement (at character %zu)", e->text,
                 e->position);
            return -1;
        }
        found = 1;
        *tab = (uint16_t)i;
        *col = (uint16_t)c;
    }
    return found;
}

/* The column type of a PARAMETERS type (0 for Value: untyped). */
jet_type decl_type(sql_ptype t)
{
    switch (t) {
    case SQL_PT_BIT: return JET_T_BOOL;
    case SQL_PT_BYTE: return JET_T_BYTE;
    case SQL_PT_SHORT: return JET_T_INT;
    case SQL_PT_LONG: return JET_T_LONG;
    case SQL_PT_CURRENCY: return JET_T_MONEY;
    case SQL_PT_SINGLE: return JET_T_FLOAT;
    case SQL_PT_DOUBLE: return JET_T_DOUBLE;
    case SQL_PT_DATETIME: return JET_T_DATETIME;
    case SQL_PT_TEXT: return JET_T_TEXT;
    case SQL_PT_MEMO: return JET_T_MEMO;
    case SQL_PT_BINARY: return JET_T_BINARY;
    case SQL_PT_LONGBINARY: return JET_T_OLE;
    case SQL_PT_GUID: return JET_T_GUID;
    case SQL_PT_DECIMAL: return JET_T_NUMERIC;
    default: return (jet_type)0;
    }
}

/* e names no column, but a derived table or view of st (matching e's
 * qualifier) may label it "t.name": Access's label for a name its select
 * list holds twice (qualify_duplicate_labels). Then the error says so and
 * names the labels - 42000 when there are several (the reference is
 * ambiguous), 42S22 for one - and -1; else 0 (no such label). */
static int fail_qualified_labels(ctx *x, const sql_stmt *st,
                                 const sql_expr *e)
{
    size_t nl = strlen(e->text), nfound = 0;
    const char *found[3] = { NULL, NULL, NULL };
    const tab_plan *where = NULL;
    for (size_t i = 0; i < st->ntabs; i++) {
        const tab_plan *tp = &st->tabs[i];
        if (tp->td || !tp->sub || !qualifier_ok(tp, e->qualifier, false))
            continue;
        for (uint16_t c = 0; c < tp->ncols; c++) {
            const char *l = tp->sub->cols[c].meta.name;
            size_t ll = l ? strlen(l) : 0;
            if (ll < nl + 2 || l[ll - nl - 1] != '.' ||
                !jet_name_equal_ci(l + ll - nl, e->text))
                continue;
            if (nfound < 3)
                found[nfound] = l;
            nfound++;
            where = tp;
        }
    }
    if (!nfound)
        return 0;
    const char *t = where->alias ? where->alias : where->name;
    if (nfound == 1)
        return fail(x, "42S22", e->position, "Column '%s%s%s' not found: "
                    "'%s' labels it [%s]; write %s.[%s] (at character %zu)",
                    e->qualifier ? e->qualifier : "", e->qualifier ? "." : "",
                    e->text, t, found[0], t, found[0], e->position);
    return fail(x, "42000", e->position, "Column '%s%s%s' is ambiguous: "
                "'%s' holds it %zu times, labelled [%s], [%s]%s; name one, "
                "e.g. %s.[%s] (at character %zu)",
                e->qualifier ? e->qualifier : "", e->qualifier ? "." : "",
                e->text, t, nfound, found[0], found[1],
                nfound > 2 ? ", ..." : "", t, found[0], e->position);
}

/** A name a saved query's SQL cannot bind (root statement's list). */
struct sql_unbound {
    const char *name;       /* qualifier.name as written, arena */
    struct sql_unbound *next;
};

/*
 * A name in a saved query's SQL that names no column of its tables (nor
 * a declared parameter): Access takes it for a parameter and asks for its
 * value, and Microsoft's ODBC driver answers "Too few parameters.
 * Expected n." (07002) for a query run without them. The name is noted
 * (once) on the root statement and stands as a Null while the rest of
 * the query is bound, so every such name is counted; unbound_fail then
 * reports them. The user's own SQL keeps 42S22 (compile_column).
 */
static int unbound_name(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *root = x->st->root;
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s%s", e->qualifier ? e->qualifier : "",
             e->qualifier ? "." : "", e->text);
    bool seen = false;
    for (const struct sql_unbound *u = root->unbound; u && !seen;
         u = u->next)
        seen = jet_name_equal_ci(u->name, buf);
    if (!seen) {
        struct sql_unbound *u = sql_arena_alloc(root->ar, sizeof *u);
        if (!u || !(u->name = sql_arena_strndup(root->ar, buf, strlen(buf))))
            return nomem(x);
        u->next = root->unbound;
        root->unbound = u;
        root->nunbound++;
    }
    enode *n = new_node(x, N_CONST, e->position);
    if (!n)
        return nomem(x);
    *out = n;                   /* K_NULL */
    return 0;
}

/* The 07002 of a saved query qname with unbound names (unbound_name),
 * at position pos of the user's statement (0: none). */
int unbound_fail(ctx *x, const char *qname, size_t pos)
{
    const sql_stmt *root = x->st->root;
    const struct sql_unbound *first = root->unbound;
    while (first && first->next)
        first = first->next;    /* the list is newest first */
    size_t n = root->nunbound;
    int rc = x->err->rc;
    fail(x, "07002", pos, "Too few parameters. Expected %zu. Saved query "
         "'%.60s' names [%.80s]%s, which %s not a field of its tables: "
         "Access asks for %s as a parameter", n, qname,
         first ? first->name : "", n > 1 ? " and more" : "",
         n > 1 ? "are" : "is", n > 1 ? "each" : "it");
    x->err->rc = rc;
    return -1;
}

int compile_column(ctx *x, const sql_expr *e, enode **out)
{
    sql_stmt *st = x->st;
    if (!strcmp(e->text, "*") && !e->quote)
        return fail(x, "42000", e->position, "* is only allowed in COUNT(*) "
                    "(at character %zu)", e->position);
    if (!e->qualifier && st->qb) {
        /* a name declared in PARAMETERS is that parameter (as Access and
         * Microsoft's driver read it, before any column of that name) */
        for (size_t k = 0; k < st->qb->ndecl; k++) {
            if (strcasecmp(st->qb->decl[k].name, e->text))
                continue;
            enode *n = new_node(x, N_PARAM, e->position);
            if (!n)
                return nomem(x);
            n->param = k;
            n->k = K_ANY;
            n->type = k < st->nparams && st->params[k].type
                      ? st->params[k].type : JET_T_TEXT;
            if (st->root->exact_decimal &&
                (kind_of_type(n->type) == K_INT || n->type == JET_T_MONEY ||
                 n->type == JET_T_NUMERIC || n->type == JET_T_FLOAT ||
                 n->type == JET_T_DOUBLE))
                /* a calculated column's row value: of its column's kind,
                 * so Decimal and Currency arithmetic stays exact */
                n->k = kind_of_type(n->type);
            *out = n;
            return 0;
        }
    }
    if (!e->qualifier && st->alias_scope)
        for (size_t k = st->alias_scope; k-- > 0;) {
            /* an earlier select item's alias: that item's expression,
             * compiled again where only the aliases before it are seen
             * (so an alias never reaches itself) */
            const sql_select_item *it = &st->qb->sel.items[k];
            if (it->kind == SQL_ITEM_STAR || !it->alias ||
                !jet_name_equal_ci(it->alias, e->text))
                continue;
            size_t scope = st->alias_scope;
            st->alias_scope = k;
            int rc = compile(x, it->expr, out);
            st->alias_scope = scope;
            return rc;
        }
    uint16_t tab = 0, col = 0;
    uint8_t up = 0;
    bool qual_seen = false;
    sql_stmt *owner = st;
    int r = 0;
    /* a qualifier: first the blocks (innermost first) for a table it
     * names exactly, then, when none has one, for an aliased table's
     * name (qualifier_ok) */
    for (int pass = 0; pass < (e->qualifier ? 2 : 1); pass++) {
        bool exact = e->qualifier && pass == 0;
        for (owner = st, up = 0; owner; owner = owner->parent, up++) {
            r = lookup_column(x, owner, e, exact, &tab, &col, &qual_seen);
            if (r != 0 || (e->qualifier && qual_seen))
                break;
            if (up >= 250)
                break;
        }
        if (r != 0 || qual_seen)
            break;
    }
    if (r < 0)
        return -1;
    if (r == 0) {
        for (const sql_stmt *o = st; o; o = o->parent)
            if (fail_qualified_labels(x, o, e) != 0)
                return -1;
        if (st->view_name)
            return unbound_name(x, e, out);
        if (e->qualifier && !qual_seen)
            return fail(x, "42S22", e->position, "'%s.%s': '%s' does not "
                        "name a table in FROM (at character %zu)",
                        e->qualifier, e->text, e->qualifier, e->position);
        if (st->ntabs == 1 && st->tabs[0].td)
            return fail(x, "42S22", e->position, "Column '%s' not found in "
                        "table '%s' (at character %zu)", e->text,
                        st->tabs[0].td->name, e->position);
        return fail(x, "42S22", e->position, "Column '%s%s%s' not found in "
                    "the tables of FROM (at character %zu)",
                    e->qualifier ? e->qualifier : "",
                    e->qualifier ? "." : "", e->text, e->position);
    }
    tab_plan *tp = &owner->tabs[tab];
    jet_type t = tab_col_type(tp, col);
    enode *n = new_node(x, N_COL, e->position);
    if (!n)
        return nomem(x);
    n->col = col;
    n->tab = tab;
    n->up = up;
    n->k = kind_of_type(t == JET_T_UNKNOWN_0D ? JET_T_BINARY : t);
    n->type = t == JET_T_EXT_DATETIME ? JET_T_DATETIME
              : t == JET_T_COMPLEX ? JET_T_LONG : t;
    n->text = tab_col_name(tp, col);
    tp->proj[col] = true;
    for (sql_stmt *s2 = st; s2 != owner; s2 = s2->parent)
        s2->correlated = true;
    *out = n;
    return 0;
}

/* -------------------------------------------------------- grouping */

bool enode_equal(const enode *a, const enode *b)
{
    if (a == b)
        return true;
    if (a->op != b->op || a->sub != b->sub || a->nargs != b->nargs ||
        a->negated != b->negated)
        return false;
    switch (a->op) {
    case N_COL:
        return a->tab == b->tab && a->col == b->col && a->up == b->up;
    case N_FUNC:
        if (a->fn != b->fn)
            return false;
        break;
    case N_PARAM:
        return a->param == b->param;
    case N_CONST:
        if (a->konst.k != b->konst.k)
            return false;
        if (a->konst.k == K_TEXT)
            return a->konst.n == b->konst.n &&
                   !memcmp(a->konst.s, b->konst.s, a->konst.n * 2);
        return a->konst.i == b->konst.i && a->konst.d == b->konst.d &&
               i128_cmp(a->konst.m, b->konst.m) == 0 &&
               a->konst.scale == b->konst.scale;
    case N_SUBQ: case N_AGG: case N_GKEY:
        return false;
    default:
        break;
    }
    for (size_t i = 0; i < a->nargs; i++)
        if (!enode_equal(a->args[i], b->args[i]))
            return false;
    return true;
}

static int outer_group_stmt(ctx *x, sql_stmt *s, uint8_t depth);

/* In a subquery depth blocks below the grouped block x->st, a column of
 * x->st (N_COL, up == depth) reads the current group's GROUP BY value:
 * the node becomes that group key in place (N_GKEY, up kept: eval.c
 * reads the enclosing cursor's key), so every pointer to it (access
 * paths, filters) sees the change. A column that is not grouped is
 * Access's 42000, as in the select list itself. */
static int outer_group_node(ctx *x, enode *n, uint8_t depth)
{
    if (!n)
        return 0;
    if (n->op == N_COL && n->up == depth) {
        const sql_stmt *st = x->st;
        for (size_t i = 0; i < st->ngroup; i++) {
            const enode *g = st->group[i];
            if (g->op == N_COL && !g->up && g->tab == n->tab &&
                g->col == n->col) {
                n->op = N_GKEY;
                n->slot = i;
                return 0;
            }
        }
        return fail(x, "42000", n->position, "Your query does not include "
                    "the specified expression '%s' as part of an aggregate "
                    "function (at character %zu)", n->text, n->position);
    }
    for (size_t i = 0; i < n->nargs; i++)
        if (outer_group_node(x, n->args[i], depth) != 0)
            return -1;
    if (n->op == N_SUBQ && n->subq && depth < UINT8_MAX)
        return outer_group_stmt(x, n->subq, (uint8_t)(depth + 1));
    return 0;
}

/* outer_group_node over every expression of block s. */
static int outer_group_stmt(ctx *x, sql_stmt *s, uint8_t depth)
{
    int r = outer_group_node(x, s->where, depth) |
            outer_group_node(x, s->having, depth);
    for (size_t i = 0; i < s->ncols; i++)
        r |= outer_group_node(x, s->cols[i].e, depth);
    for (size_t i = 0; i < s->norder; i++)
        r |= outer_group_node(x, s->order[i], depth);
    for (size_t i = 0; i < s->naggs; i++)
        r |= outer_group_node(x, s->aggs[i], depth);
    for (size_t i = 0; i < s->ngroup; i++)
        r |= outer_group_node(x, s->group[i], depth);
    for (size_t t = 0; t < s->ntabs; t++) {
        tab_plan *tp = &s->tabs[t];
        r |= outer_group_node(x, tp->on, depth) |
             outer_group_node(x, tp->filter, depth) |
             outer_group_node(x, tp->seek_filter, depth) |
             outer_group_node(x, tp->build_filter, depth);
        for (size_t k = 0; k < tp->nhkeys; k++)
            r |= outer_group_node(x, tp->hk_inner[k], depth) |
                 outer_group_node(x, tp->hk_outer[k], depth);
        for (size_t k = 0; k < tp->nmc; k++)
            r |= outer_group_node(x, tp->mc[k], depth);
    }
    /* UNION branches and derived tables are child blocks: one more
     * level between them and x->st (compile_column counts every parent) */
    if (depth < UINT8_MAX) {
        for (size_t b = 0; b < s->nbranch; b++)
            r |= outer_group_stmt(x, s->branch[b], (uint8_t)(depth + 1));
        for (size_t t = 0; t < s->ntabs; t++)
            if (s->tabs[t].sub && s->tabs[t].sub->parent == s)
                r |= outer_group_stmt(x, s->tabs[t].sub,
                                      (uint8_t)(depth + 1));
    }
    return r ? -1 : 0;
}

/* Replace the GROUP BY expressions inside *np by group-key nodes; a
 * column left outside an aggregate is an error (Access's message). A
 * subquery outside an aggregate reads the group's keys, not the last
 * row read (outer_group_node). */
int group_rewrite(ctx *x, enode **np, const char *label)
{
    sql_stmt *st = x->st;
    enode *n = *np;
    if (n->op == N_AGG || n->op == N_GKEY)
        return 0;
    for (size_t i = 0; i < st->ngroup; i++) {
        if (!enode_equal(n, st->group[i]))
            continue;
        enode *g = new_node(x, N_GKEY, n->position);
        if (!g)
            return nomem(x);
        g->slot = i;
        g->k = n->k == K_ANY ? K_TEXT : n->k;
        g->type = n->type;
        g->text = n->text;
        *np = g;
        return 0;
    }
    if (n->op == N_COL) {
        if (n->up)
            return 0;
        return fail(x, "42000", n->position, "Your query does not include "
                    "the specified expression '%s' as part of an aggregate "
                    "function (at character %zu)", label ? label : n->text,
                    n->position);
    }
    for (size_t i = 0; i < n->nargs; i++)
        if (group_rewrite(x, &n->args[i], label) != 0)
            return -1;
    if (n->op == N_SUBQ && n->subq)
        return outer_group_stmt(x, n->subq, 1);
    return 0;
}

/* ---------------------------------------- Memo and OLE Object values */

/* n wrapped in Left(n, 255): the part of a Memo that Jet 4 groups,
 * de-duplicates and sorts on. */
static int memo_prefix(ctx *x, enode **np)
{
    enode *n = *np, *f = new_node(x, N_FUNC, n->position),
          *len = new_node(x, N_CONST, n->position);
    if (!f || !len || alloc_args(x, f, 2) != 0)
        return nomem(x);
    len->konst.k = K_INT;
    len->konst.i = 255;
    len->k = K_INT;
    len->type = JET_T_LONG;
    f->fn = sql_func_find("LEFT");
    f->args[0] = n;
    f->args[1] = len;
    f->text = n->text;
    sql_func_bind(f, NULL, 0);
    *np = f;
    return 0;
}

/* What Jet 4 allows with long values, each an Access error message:
 * an OLE Object can be neither a GROUP BY key, nor a column of a
 * DISTINCT result, nor an ORDER BY key (42000); a Memo can, on its first
 * 255 characters, and a grouped or DISTINCT Memo comes back cut to them
 * (the truncation Access users meet, e.g. Allen Browne's "Truncation of
 * Memo fields"); ORDER BY a Memo sorts on those 255 characters without
 * cutting the value shown. */
int long_value_rules(ctx *x)
{
    sql_stmt *st = x->st;
    for (size_t i = 0; i < st->ngroup; i++) {
        if (st->group[i]->type == JET_T_OLE)
            return fail(x, "42000", st->group[i]->position, "Cannot group "
                        "on Memo, OLE, or Hyperlink Object (%s) (at "
                        "character %zu)", st->group[i]->text ?
                        st->group[i]->text : "expression",
                        st->group[i]->position);
        if (st->group[i]->type == JET_T_MEMO &&
            memo_prefix(x, &st->group[i]) != 0)
            return -1;
    }
    /* DISTINCTROW (run as DISTINCT over a join) removes duplicate source
     * records in Access, comparing no value: no rule there */
    bool one_row = st->grouped && !st->ngroup, rows = st->qb->distinctrow;
    for (size_t c = 0; st->distinct && !one_row && !rows && c < st->ncols;
         c++) {
        out_col *oc = &st->cols[c];
        if (oc->meta.type == JET_T_OLE)
            return fail(x, "42000", oc->e->position, "Cannot include Memo, "
                        "OLE, or Hyperlink Object when you select unique "
                        "values (%s) (at character %zu)", oc->meta.name,
                        oc->e->position);
        if (oc->meta.type == JET_T_MEMO && oc->e->op != N_GKEY) {
            if (memo_prefix(x, &oc->e) != 0)
                return -1;
            oc->direct = false;
            oc->src = -1;
        }
    }
    for (size_t i = 0; i < st->norder; i++) {
        if (st->order[i]->type == JET_T_OLE)
            return fail(x, "42000", st->order[i]->position, "Cannot sort on "
                        "Memo, OLE, or Hyperlink Object (%s) (at character "
                        "%zu)", st->order[i]->text ? st->order[i]->text :
                        "expression", st->order[i]->position);
        if (st->order[i]->type == JET_T_MEMO &&
            memo_prefix(x, &st->order[i]) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- bind */

static int add_col(ctx *x, size_t *cap, out_col **oc)
{
    sql_stmt *st = x->st;
    if (st->ncols == *cap) {
        size_t ncap = *cap ? 2 * *cap : 16;
        if (ncap > 4096 * 2)
            return fail(x, "54011", 0, "Too many columns");
        out_col *g = sql_arena_alloc(st->ar, ncap * sizeof *g);
        if (!g)
            return nomem(x);
        if (st->ncols)
            memcpy(g, st->cols, st->ncols * sizeof *g);
        st->cols = g;
        *cap = ncap;
    }
    *oc = &st->cols[st->ncols++];
    memset(*oc, 0, sizeof **oc);
    return 0;
}

/* Output column oc = column c of table tab, labelled alias or its name. */
static void set_table_col(sql_stmt *st, out_col *oc, uint16_t tab,
                          uint16_t c, const char *alias)
{
    const tab_plan *tp = &st->tabs[tab];
    oc->src = st->ntabs == 1 && tp->td ? c : -1;
    oc->direct = true;
    if (!tp->td) {
        oc->meta = tp->sub->cols[c].meta;
        if (alias)
            oc->meta.name = alias;
        return;
    }
    const jet_column *jc = &tp->td->cols[c];
    oc->meta.name = alias ? alias : jc->name;
    oc->meta.base_table = tp->td->name;
    oc->meta.base_column = jc->name;
    oc->meta.column = jc;
    oc->meta.type = jc->result_type;
    oc->meta.nullable = (jc->flags & JET_COL_NULLABLE) != 0 ||
                        tp->ginner >= 0;
    oc->meta.length = jc->type == JET_T_TEXT ? jc->length /
                      (jet_db_version(st->db) == JET_VER_3 ? 1 : 2) : 0;
}

/* Tables in a FROM item (bounded by the parser's nesting limit). */
size_t count_tabs(const sql_from *f)
{
    return f->kind == FROM_JOIN ? count_tabs(f->left) + count_tabs(f->right)
                                : 1;
}

/* Copy a nested statement's error into x, naming the saved query. */
static int nested_fail(ctx *x, const sql_error *e, const char *name,
                       size_t pos)
{
    *x->err = *e;       /* a core failure (sqlstate "") keeps its rc */
    if (!x->err->sqlstate[0] && x->err->rc >= 0)
        snprintf(x->err->sqlstate, sizeof x->err->sqlstate, "HY000");
    sql_error_in_saved(x->err, name, pos);
    return -1;
}

/*
 * The SELECT a crosstab runs as: its pivot values (the PIVOT ... In list,
 * else the distinct values a first query finds, in ascending order)
 * become one column each (sql_saved_crosstab_select). *out malloc'd.
 */
static int crosstab_text(ctx *x, const sql_from *f, const jet_query *jq,
                         const char *qname, char **out)
{
    jet_db *db = x->st->db;
    char *vsql = NULL, **fixed = NULL, **lits = NULL, **names = NULL;
    size_t nfixed = 0, n = 0, cap = 0;
    sql_stmt *pst = NULL;
    sql_cursor *cur = NULL;
    sql_error perr;
    int rc = -1;

    *out = NULL;
    if (sql_saved_crosstab_pivots(&vsql, &fixed, &nfixed, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    if (fixed) {
        lits = fixed;
        n = nfixed;
        names = calloc(n ? n : 1, sizeof *names);
        if (!names)
            goto oom;
        for (size_t i = 0; i < n; i++)
            if (!(names[i] = sql_saved_unquote(fixed[i])))
                goto oom;
    } else {
        if (x->st->root->crosstab_depth >= 4) {
            fail(x, "42000", f->position, "crosstab query '%s' reads "
                 "itself", qname);
            goto out;
        }
        memset(&perr, 0, sizeof perr);
        sql_prepare_opts po = { .crosstab_depth =
                                    x->st->root->crosstab_depth + 1,
                                .saved_query = qname };
        int prc = sql_stmt_prepare(&pst, db, vsql, strlen(vsql), &po,
                                   &perr);
        if (prc != 0 || sql_cursor_open(&cur, pst, NULL, NULL, &perr) != 0) {
            nested_fail(x, &perr, qname, f->position);
            goto out;
        }
        int r;
        while ((r = sql_cursor_next(cur)) == JET_OK) {
            jet_value v;
            if (sql_cursor_value(cur, 0, &v) != JET_OK) {
                r = -1;
                break;
            }
            if (n == 255) {
                fail(x, "54011", f->position, "crosstab query '%s' has "
                     "more than 255 column headings", qname);
                goto out;
            }
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                char **gl = realloc(lits, nc * sizeof *gl);
                if (gl)
                    lits = gl;
                char **gn = realloc(names, nc * sizeof *gn);
                if (gn)
                    names = gn;
                if (!gl || !gn)
                    goto oom;
                cap = nc;
            }
            lits[n] = names[n] = NULL;
            n++;
            if (sql_saved_pivot_value(&lits[n - 1], &names[n - 1], db,
                                      &v) != 0) {
                fail(x, "HYC00", f->position, "crosstab query '%s': a "
                     "pivot value of type %d cannot head a column", qname,
                     (int)v.type);
                goto out;
            }
            if (!names[n - 1] && !(names[n - 1] = strdup("<>")))
                goto oom;
        }
        if (r < 0) {
            nested_fail(x, sql_cursor_error(cur), qname, f->position);
            goto out;
        }
    }
    if (sql_saved_crosstab_select(out, jq, (const char *const *)lits,
                                  (const char *const *)names, n,
                                  x->err) != 0) {
        x->err->position = f->position;
        goto out;
    }
    rc = 0;
    goto out;
oom:
    rc = nomem(x);
out:
    sql_cursor_close(cur);
    sql_stmt_free(pst);
    free(vsql);
    sql_saved_free_list(lits, n);
    sql_saved_free_list(names, n);
    return rc;
}

/* Append s[0..n) to the malloc'd string *b (length *len); -1 no memory. */
/* n bytes of s as a malloc'd string (strndup is not in mingw-w64's C
 * library); free() it. */
static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int cat_n(char **b, size_t *len, const char *s, size_t n)
{
    char *g = realloc(*b, *len + n + 1);
    if (!g)
        return -1;
    memcpy(g + *len, s, n);
    *len += n;
    g[*len] = '\0';
    *b = g;
    return 0;
}

/* The pivot values an ad-hoc crosstab's values query vsql finds, as
 * literal texts and column labels (malloc'd lists of *n). 0 or -1. */
static int adhoc_pivots(jet_db *db, const char *vsql,
                        const sql_prepare_opts *opts, char ***lits,
                        char ***names, size_t *n, sql_error *err)
{
    sql_stmt *pst = NULL;
    sql_cursor *cur = NULL;
    size_t cap = 0;
    int rc = -1;
    *lits = *names = NULL;
    *n = 0;
    sql_prepare_opts po = { .crosstab_depth =
                                (opts ? opts->crosstab_depth : 0) + 1 };
    if (po.crosstab_depth > 4) {
        sql_set_error(err, "42000", 0, "crosstab nested too deeply");
        return -1;
    }
    if (sql_stmt_prepare(&pst, db, vsql, strlen(vsql), &po, err) != 0 ||
        sql_cursor_open(&cur, pst, NULL, NULL, err) != 0)
        goto out;
    int r;
    while ((r = sql_cursor_next(cur)) == JET_OK) {
        jet_value v;
        if (sql_cursor_value(cur, 0, &v) != JET_OK) {
            *err = *sql_cursor_error(cur);
            goto out;
        }
        if (*n == 255) {
            sql_set_error(err, "54011", 0, "crosstab has more than 255 "
                          "column headings");
            goto out;
        }
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            char **gl = realloc(*lits, nc * sizeof *gl);
            if (gl)
                *lits = gl;
            char **gn = realloc(*names, nc * sizeof *gn);
            if (gn)
                *names = gn;
            if (!gl || !gn)
                goto oom;
            cap = nc;
        }
        (*lits)[*n] = (*names)[*n] = NULL;
        (*n)++;
        if (sql_saved_pivot_value(&(*lits)[*n - 1], &(*names)[*n - 1], db,
                                  &v) != 0) {
            sql_set_error(err, "HYC00", 0, "crosstab: a pivot value of "
                          "type %d cannot head a column", (int)v.type);
            goto out;
        }
        if (!(*names)[*n - 1] && !((*names)[*n - 1] = strdup("<>")))
            goto oom;
    }
    if (r < 0) {
        *err = *sql_cursor_error(cur);
        goto out;
    }
    rc = 0;
    goto out;
oom:
    sql_set_nomem(err, 0);
out:
    sql_cursor_close(cur);
    sql_stmt_free(pst);
    return rc;
}

/*
 * An ad-hoc crosstab (Access SQL typed, not saved): [PARAMETERS ...;]
 * TRANSFORM agg SELECT heads FROM ... [WHERE ...] [GROUP BY ...]
 * [HAVING ...] [ORDER BY ...] PIVOT expr [IN (v1, ...)] runs as a saved
 * crosstab does (crosstab_text): one column per pivot value, the fixed
 * IN list's, else the distinct values of the rows WHERE keeps (found
 * first, so then no ? markers). The clauses are found by their keywords
 * outside parentheses. *out: the SELECT (malloc'd), or NULL when text is
 * no TRANSFORM. 0, or -1 with err.
 */
int sql_adhoc_crosstab(char **out, jet_db *db, const char *text, size_t len,
                       const sql_prepare_opts *opts, sql_error *err)
{
    sql_arena ar = { NULL };
    sql_lexer lx;
    sql_token t;
    size_t prefix = 0, value = 0, vend = 0, sel = 0, from = 0, group = 0,
           pivot = 0, pexpr = 0, pend = len, in = 0;
    int depth = 0, rc = -1;
    bool params = false;
    size_t nitems = 0, item_from[256], item_to[256];
    char **lits = NULL, **names = NULL, *vsql = NULL, *cols = NULL;
    size_t nl = 0;
    *out = NULL;
    sql_lexer_init(&lx, text, len, &ar, err);
    if (sql_lex_next(&lx, &t) != 0)
        goto out;
    if (t.kind == TOK_IDENT && t.kw == KW_PARAMETERS) {
        params = true;
        while (t.kind != TOK_EOF && t.kind != TOK_SEMI)
            if (sql_lex_next(&lx, &t) != 0)
                goto out;
        if (t.kind == TOK_SEMI && sql_lex_next(&lx, &t) != 0)
            goto out;
        prefix = (size_t)(t.start - text);
    }
    if (t.kind != TOK_IDENT || t.kw != KW_TRANSFORM) {
        rc = 0;                 /* not a crosstab */
        goto out;
    }
    value = (size_t)(t.start - text) + t.len;
    for (;;) {
        if (sql_lex_next(&lx, &t) != 0)
            goto out;
        if (t.kind == TOK_EOF)
            break;
        size_t at = (size_t)(t.start - text);
        if (t.kind == TOK_LPAREN) {
            if (depth++ == 0 && in && !nitems)
                item_from[0] = at + 1;
            continue;
        }
        if (t.kind == TOK_RPAREN) {
            if (--depth == 0 && in && nitems < 256)
                item_to[nitems++] = at;
            continue;
        }
        if (t.kind == TOK_COMMA && depth == 1 && in && nitems < 255) {
            item_to[nitems++] = at;
            item_from[nitems] = at + 1;
            continue;
        }
        if (t.kind == TOK_SEMI && depth == 0) {
            pend = pend == len ? at : pend;
            continue;
        }
        if (depth || t.kind != TOK_IDENT)
            continue;
        if (t.kw == KW_AS && !sel && !vend)
            vend = at;          /* TRANSFORM Sum(x) AS SumOfX */
        else if (t.kw == KW_SELECT && !sel)
            sel = at;
        else if (t.kw == KW_FROM && sel && !from)
            from = at;
        else if ((t.kw == KW_GROUP || t.kw == KW_HAVING ||
                  t.kw == KW_ORDER) && from && !group && !pivot)
            group = at;
        else if (t.kw == KW_PIVOT && from && !pivot)
            pivot = at, pexpr = at + t.len;
        else if (t.kw == KW_IN && pivot && !in)
            in = at;
    }
    if (!sel || !from || !pivot || depth != 0) {
        sql_set_error(err, "42000", 0, "Syntax error in TRANSFORM statement: "
                      "expected TRANSFORM aggregate SELECT ... FROM ... "
                      "PIVOT expression");
        goto out;
    }
    if (in && (nitems == 0 || nitems >= 255)) {
        sql_set_error(err, "42000", 0, "Syntax error in TRANSFORM statement: "
                      "PIVOT ... IN needs a list of 1 to 254 column headings");
        goto out;
    }
    size_t pto = in ? in : pend;
    char *valtext = dup_n(text + value, (vend ? vend : sel) - value);
    if (!valtext)
        goto oom;
    if (in) {
        lits = calloc(nitems, sizeof *lits);
        names = calloc(nitems, sizeof *names);
        if (!lits || !names) {
            free(valtext);
            goto oom;
        }
        for (nl = 0; nl < nitems; nl++) {
            size_t a = item_from[nl], b = item_to[nl];
            while (a < b && (text[a] == ' ' || text[a] == '\t' ||
                             text[a] == '\n' || text[a] == '\r'))
                a++;
            while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' ||
                             text[b - 1] == '\n' || text[b - 1] == '\r'))
                b--;
            if (!(lits[nl] = dup_n(text + a, b - a)) ||
                !(names[nl] = sql_saved_unquote(lits[nl]))) {
                nl++;
                free(valtext);
                goto oom;
            }
        }
    } else {
        if (params || lx.nparams) {
            free(valtext);
            sql_set_error(err, "HYC00", 0, "a crosstab with parameters "
                          "needs its column headings listed: PIVOT ... IN "
                          "(...)");
            goto out;
        }
        size_t vl = 0;
        if (cat_n(&vsql, &vl, "SELECT DISTINCT ", 16) != 0 ||
            cat_n(&vsql, &vl, text + pexpr, pto - pexpr) != 0 ||
            cat_n(&vsql, &vl, " AS [Pivot Value] ", 18) != 0 ||
            cat_n(&vsql, &vl, text + from, (group ? group : pivot) - from)
                != 0 ||
            cat_n(&vsql, &vl, " ORDER BY 1", 11) != 0) {
            free(valtext);
            goto oom;
        }
        if (adhoc_pivots(db, vsql, opts, &lits, &names, &nl, err) != 0) {
            free(valtext);
            goto out;
        }
    }
    int cr = sql_crosstab_columns(&cols, valtext, text + pexpr, pto - pexpr,
                                  (const char *const *)lits,
                                  (const char *const *)names, nl, err);
    free(valtext);
    if (cr != 0)
        goto out;
    size_t ol = 0;
    if (cat_n(out, &ol, text, prefix) != 0 ||
        cat_n(out, &ol, text + sel, from - sel) != 0 ||
        (nl && (cat_n(out, &ol, ", ", 2) != 0 ||
                cat_n(out, &ol, cols, strlen(cols)) != 0)) ||
        cat_n(out, &ol, " ", 1) != 0 ||
        cat_n(out, &ol, text + from, pivot - from) != 0)
        goto oom;
    rc = 0;
    goto out;
oom:
    free(*out);
    *out = NULL;
    sql_set_nomem(err, 0);
out:
    sql_saved_free_list(lits, nl);
    sql_saved_free_list(names, nl);
    free(vsql);
    free(cols);
    sql_arena_free(&ar);
    return rc;
}

/*
 * FROM names saved query qo: run it as a derived table named after it
 * (or the FROM alias). Its SQL comes from MSysQueries (savedquery.c);
 * nested views expand the same way, bounded by SQL_MAX_VIEW_DEPTH, and
 * a view met again inside itself is an error. Parameter queries need
 * {call}; crosstab, action and pass-through queries are refused.
 */
static int bind_view(ctx *x, const sql_from *f, tab_plan *tp,
                     const jet_object *qo)
{
    sql_stmt *root = x->st->root;
    jet_db *db = x->st->db;
    const jet_query *jq = NULL;
    for (unsigned i = 0; i < root->view_depth; i++)
        if (root->view_stack[i] == qo)
            return fail(x, "42000", f->position, "saved query '%s' refers "
                        "to itself (through %s)", qo->name,
                        root->view_stack[root->view_depth - 1]->name);
    if (root->view_depth == SQL_MAX_VIEW_DEPTH)
        return fail(x, "42000", f->position, "saved queries nest deeper "
                    "than %d at '%s'", SQL_MAX_VIEW_DEPTH, qo->name);
    jet_rc rc = jet_query_load(&jq, db, qo);
    if (rc != JET_OK)
        return core_fail(x, rc);
    /* a parameter query (declared parameters, or form references Access
     * would ask for) needs its values: Microsoft's driver answers "Too
     * few parameters. Expected n." */
    sql_saved_param *params = NULL;
    size_t np = 0;
    if (sql_saved_param_list(&params, &np, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    if (np > 0) {
        fail(x, "07002", f->position, "Too few parameters. Expected %zu. "
             "Saved query '%s' needs %s%s%s%s%s; run it with {call "
             "[%s](?%s)}", np, qo->name, params[0].name[0] == '[' ? "" : "[",
             params[0].name, params[0].name[0] == '[' ? "" : "]",
             np > 1 ? ", ..." : "",
             params[0].implicit ? " (a control of an open Access form or "
             "report)" : "", qo->name, np > 1 ? ", ..." : "");
        sql_saved_free_params(params, np);
        return -1;
    }
    sql_saved_free_params(params, np);
    char *text = NULL;
    size_t *map = NULL, nmarks = 0;
    if (sql_saved_kind_of(jq) == SQL_SAVED_CROSSTAB) {
        if (crosstab_text(x, f, jq, qo->name, &text) != 0)
            return -1;
    } else if (sql_saved_exec_text(&text, &map, &nmarks, jq, x->err) != 0) {
        x->err->position = f->position;
        return -1;
    }
    free(map);
    sql_query *vq = NULL;
    sql_error perr;
    memset(&perr, 0, sizeof perr);
    int prc = sql_parse_query(&vq, text, strlen(text), &perr);
    free(text);
    if (prc != 0) {
        *x->err = perr;     /* out of memory (sqlstate "") stays so */
        if (!x->err->sqlstate[0] && x->err->rc >= 0)
            snprintf(x->err->sqlstate, sizeof x->err->sqlstate, "42000");
        sql_error_in_saved(x->err, qo->name, f->position);
        return -1;
    }
    struct sql_view_ref *ref = sql_arena_alloc(root->ar, sizeof *ref);
    if (!ref) {
        sql_select_free(&vq->sel);
        return nomem(x);
    }
    ref->q = vq;
    ref->next = root->views;
    root->views = ref;
    if (root->view_depth == 0)
        root->view_outer_pos = f->position;
    root->view_stack[root->view_depth++] = qo;
    int r = build_block(&tp->sub, NULL, root, vq, false, NULL, x->err);
    root->view_depth--;
    /* names it could not bind are parameters Access would ask for: that
     * is the error, whatever the Nulls standing for them led to */
    if (root->view_depth == 0 && root->nunbound)
        return unbound_fail(x, qo->name, f->position);
    if (r != 0) {
        /* positions inside the rebuilt text mean nothing to the user:
         * name the saved query, point at where the statement names it */
        sql_error_in_saved(x->err, qo->name, f->position);
        return -1;
    }
    tp->alias = f->alias ? f->alias : qo->name;
    tp->name = tp->alias;
    tp->view = qo;
    tp->ncols = (uint16_t)tp->sub->ncols;
    if (tp->sub->ncols > 4096)
        return fail(x, "54011", f->position, "Too many columns");
    return 0;
}

/* Path p (n bytes) lexically normalised into out (cap bytes): '\\' as
 * '/', ASCII lower case, "." and "x/.." steps removed, and a final .mdb,
 * .accdb, .mde or .accde dropped. Returns false when it does not fit. */
static bool norm_db_path(const char *p, char *out, size_t cap)
{
    size_t k = 0, n = strlen(p);
    bool abs = n > 0 && (p[0] == '/' || p[0] == '\\');
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '/' && p[j] != '\\')
            j++;
        size_t len = j - i;         /* one component: p[i, j) */
        size_t at = i;
        i = j + 1;
        if (len == 0 || (len == 1 && p[at] == '.'))
            continue;
        if (len == 2 && p[at] == '.' && p[at + 1] == '.' && k > 0) {
            while (k > 0 && out[k - 1] != '/')
                k--;                /* back over the last component */
            if (k > 0)
                k--;
            continue;
        }
        if (k + len + 2 > cap)
            return false;
        if (k > 0 || abs)
            out[k++] = '/';
        for (size_t c = at; c < j; c++)
            out[k++] = (char)(p[c] >= 'A' && p[c] <= 'Z' ? p[c] + 32 : p[c]);
    }
    out[k] = '\0';
    static const char *const ext[] = { ".mdb", ".accdb", ".mde", ".accde" };
    for (size_t e = 0; e < 4; e++) {
        size_t el = strlen(ext[e]);
        if (k > el && strcmp(out + k - el, ext[e]) == 0) {
            out[k - el] = '\0';
            break;
        }
    }
    return true;
}

/* Does catalog cat (a FROM item's `path`.Table prefix) name the open file
 * db? Its path as given, or the same path written otherwise: other case
 * (a workbook made on Windows), '\\' for '/', "." and ".." steps, the
 * .mdb/.accdb extension left out (Microsoft Query's TABLE_CAT for Jet
 * files has none). */
static bool catalog_is_db(const char *cat, jet_db *db)
{
    const char *path = jet_db_path(db);
    if (strcmp(cat, path) == 0)
        return true;
    char a[4096], b[4096];
    return norm_db_path(cat, a, sizeof a) && norm_db_path(path, b, sizeof b) &&
           strcmp(a, b) == 0;
}

static int bind_table(ctx *x, const sql_from *f, tab_plan *tp);

/* Value of key (DATABASE, PWD) in connect string cs ("MS Access;PWD=x;
 * DATABASE=path": parts split at ';', keys case-insensitive), copied into
 * the arena; NULL when absent. -1 out of memory. */
static int connect_part(ctx *x, const char *cs, const char *key,
                        const char **out)
{
    size_t kl = strlen(key);
    *out = NULL;
    for (const char *p = cs; p;) {
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && *p == ' ') {
            p++;
            n--;
        }
        if (n > kl && !strncasecmp(p, key, kl) && p[kl] == '=' &&
            !(*out = sql_arena_strndup(x->st->ar, p + kl + 1, n - kl - 1)))
            return nomem(x);
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* A FROM table in another Access file (Access SQL's external databases:
 * FROM t IN 'path', [;DATABASE=path].t, [MS Access;PWD=x;DATABASE=path].t):
 * the file opened read-only by the core, once per connection (core/link.c
 * jet_external_tdef_load); its errors name it. The open file itself,
 * named so, is read as usual. */
static int bind_external(ctx *x, const sql_from *f, tab_plan *tp)
{
    sql_stmt *st = x->st;
    const char *path = f->catalog, *pwd = NULL;
    if (strchr(f->catalog, ';')) {
        if (connect_part(x, f->catalog, "DATABASE", &path) != 0 ||
            connect_part(x, f->catalog, "PWD", &pwd) != 0)
            return -1;
        if (!path || !*path)
            return fail(x, "42000", f->position, "The connect string "
                        "'[%s]' names no DATABASE (at character %zu)",
                        f->catalog, f->position);
    }
    if (catalog_is_db(path, st->db) && !pwd) {
        sql_from local = *f;
        local.catalog = NULL;
        return bind_table(x, &local, tp);
    }
    jet_rc rc = jet_external_tdef_load(&tp->td, st->db, path, pwd,
                                       f->table);
    if (rc == JET_ENOTFOUND)
        return fail(x, "42S02", f->position, "The database engine cannot "
                    "find the input table '%s' in the external database "
                    "'%s' (at character %zu)", f->table, path, f->position);
    if (rc == JET_EIO) {
        const jet_error *je = jet_db_error(st->db);
        return fail(x, "42S02", f->position, "Could not find file '%s', "
                    "the external database of table '%s' (%s; at character "
                    "%zu)", path, f->table, je ? je->msg : "", f->position);
    }
    if (rc != JET_OK)
        return core_fail(x, rc);
    tp->name = tp->td->name;
    tp->ncols = tp->td->ncols;
    tp->proj = sql_arena_alloc(st->ar, (tp->ncols ? tp->ncols : 1) *
                                       sizeof *tp->proj);
    return tp->proj ? 0 : nomem(x);
}

/* Load the table of a FROM_TABLE item into tabs[k]. */
static int bind_table(ctx *x, const sql_from *f, tab_plan *tp)
{
    sql_stmt *st = x->st;
    jet_db *db = st->db;
    tp->position = f->position;
    tp->alias = f->alias;
    if (f->kind == FROM_SUBQUERY) {
        if (build_block(&tp->sub, NULL, st->root, f->sub, false, NULL,
                        x->err) != 0)
            return -1;
        tp->name = f->alias ? f->alias : "";
        tp->ncols = (uint16_t)tp->sub->ncols;
        if (tp->sub->ncols > 4096)
            return fail(x, "54011", f->position, "Too many columns");
    } else {
        if (f->catalog && !catalog_is_db(f->catalog, db))
            return bind_external(x, f, tp);
        const jet_object *obj = jet_catalog_find(db, f->table);
        if (!obj) {
            const jet_object *qo = jet_catalog_find_query(db, f->table);
            if (qo) {
                if (bind_view(x, f, tp, qo) != 0)
                    return -1;
                tp->proj = sql_arena_alloc(st->ar, (tp->ncols ? tp->ncols
                                                              : 1) *
                                                   sizeof *tp->proj);
                return tp->proj ? 0 : nomem(x);
            }
            return fail(x, "42S02", f->position, "The database engine "
                        "cannot find the input table '%s' (at character "
                        "%zu)", f->table, f->position);
        }
        jet_rc rc = jet_tdef_load(&tp->td, db, obj);
        if (rc != JET_OK)
            return core_fail(x, rc);
        tp->name = tp->td->name;
        tp->ncols = tp->td->ncols;
    }
    tp->proj = sql_arena_alloc(st->ar, (tp->ncols ? tp->ncols : 1) *
                                       sizeof *tp->proj);
    return tp->proj ? 0 : nomem(x);
}

/* Flatten a FROM item into st->tabs (from *k on), in an order that keeps
 * every LEFT join's preserved side before its optional side: a RIGHT
 * join is run as the LEFT join with its sides swapped. The optional side
 * (a table, or a parenthesised join: nested outer joins) is a group of
 * consecutive tables [head, gend); grp is the innermost group f lies in
 * (-1 none). */
int flatten(ctx *x, const sql_from *f, size_t *k, on_list *ons,
            bool *has_left, int32_t grp)
{
    sql_stmt *st = x->st;
    if (f->kind != FROM_JOIN) {
        tab_plan *tp = &st->tabs[(*k)++];
        tp->ginner = grp;
        tp->gparent = -1;
        return bind_table(x, f, tp);
    }
    const sql_from *keep = f->left, *opt = f->right;
    if (f->join == 'R') {
        keep = f->right;
        opt = f->left;
    }
    if (flatten(x, keep, k, ons, has_left, grp) != 0)
        return -1;
    size_t first = *k;
    bool outer = f->join != 'I';
    if (flatten(x, opt, k, ons, has_left,
                outer ? (int32_t)first : grp) != 0)
        return -1;
    if (outer) {
        tab_plan *h = &st->tabs[first];
        h->join = JOIN_LEFT;
        h->on_src = f->on;      /* compiled once all are bound */
        h->gend = (uint16_t)*k;
        h->gparent = grp;
        *has_left = true;
        return 0;
    }
    if (!f->on)
        return 0;
    if (ons->n == ons->cap) {
        size_t ncap = ons->cap ? 2 * ons->cap : 8;
        const sql_expr **g = sql_arena_alloc(st->ar, ncap * sizeof *g);
        int32_t *o = sql_arena_alloc(st->ar, ncap * sizeof *o);
        if (!g || !o)
            return nomem(x);
        if (ons->n) {
            memcpy(g, ons->v, ons->n * sizeof *g);
            memcpy(o, ons->owner, ons->n * sizeof *o);
        }
        ons->v = g;
        ons->owner = o;
        ons->cap = ncap;
    }
    ons->owner[ons->n] = grp;
    ons->v[ons->n++] = f->on;
    return 0;
}

/* Column i's label in a * expansion: "t.col" when another table of the
 * expansion has a column of that name (Access's rule). */
/*
 * Access's labels for a name the output holds twice: when two unaliased
 * columns of the select list (from *, t.* or named) have the same name
 * but come from different tables of FROM, each is labelled
 * "table.column" with the table's alias when it has one
 * ("Orders.CustomerID", "Customers.CustomerID"), as Access names the
 * fields of such a query. Quadratic in the select list, once per prepare.
 */
/* The column name of output column oc when it is a table column shown
 * under its own name (no alias, not yet qualified), else NULL. */
static const char *plain_col_name(const sql_stmt *st, const out_col *oc)
{
    if (!oc->direct || oc->e->op != N_COL || oc->e->up)
        return NULL;
    const char *name = tab_col_name(&st->tabs[oc->e->tab], oc->e->col);
    return oc->meta.name == name ? name : NULL;    /* same string: no alias */
}

static int qualify_duplicate_labels(ctx *x)
{
    sql_stmt *st = x->st;
    if (st->ntabs < 2)
        return 0;
    bool *dup = sql_arena_alloc(st->ar, st->ncols ? st->ncols : 1);
    if (!dup)
        return nomem(x);
    for (size_t i = 0; i < st->ncols; i++) {
        const char *a = plain_col_name(st, &st->cols[i]);
        dup[i] = false;
        for (size_t j = 0; a && j < st->ncols && !dup[i]; j++) {
            const char *b = plain_col_name(st, &st->cols[j]);
            dup[i] = b && st->cols[j].e->tab != st->cols[i].e->tab &&
                     !strcasecmp(a, b);
        }
    }
    for (size_t i = 0; i < st->ncols; i++) {
        if (!dup[i])
            continue;
        out_col *oc = &st->cols[i];
        const char *t = tab_label(&st->tabs[oc->e->tab]);
        size_t n = strlen(t) + strlen(oc->meta.name) + 2;
        char *l = sql_arena_alloc(st->ar, n);
        if (!l)
            return nomem(x);
        snprintf(l, n, "%s.%s", t, oc->meta.name);
        oc->meta.name = l;
    }
    return 0;
}

int build_select_list(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_select *sel = &st->qb->sel;
    size_t cap = 0;
    unsigned exprno = 1000;
    for (size_t i = 0; i < sel->nitems; i++) {
        const sql_select_item *it = &sel->items[i];
        out_col *oc;
        if (it->kind == SQL_ITEM_STAR) {
            bool any = false;
            if (!st->ntabs)
                return fail(x, "42000", it->position, "SELECT * needs a "
                            "FROM clause (at character %zu)", it->position);
            /* t.*: the table t names exactly, else leniently */
            bool exact = false;
            for (size_t t = 0; it->qualifier && t < st->ntabs && !exact; t++)
                exact = qualifier_ok(&st->tabs[t], it->qualifier, true);
            for (size_t t = 0; t < st->ntabs; t++) {
                tab_plan *tp = &st->tabs[t];
                if (it->qualifier && !qualifier_ok(tp, it->qualifier, exact))
                    continue;
                any = true;
                for (uint16_t c = 0; c < tp->ncols; c++) {
                    if (add_col(x, &cap, &oc) != 0)
                        return -1;
                    set_table_col(st, oc, (uint16_t)t, c, NULL);
                    if (!(oc->e = new_node(x, N_COL, it->position)))
                        return nomem(x);
                    jet_type ty = tab_col_type(tp, c);
                    oc->e->col = c;
                    oc->e->tab = (uint16_t)t;
                    oc->e->k = kind_of_type(ty);
                    oc->e->type = ty;
                    oc->e->text = tab_col_name(tp, c);
                    tp->proj[c] = true;
                }
                if (it->qualifier)
                    break;
            }
            if (!any)
                return fail(x, "42S02", it->position, "'%s' does not name "
                            "a table in FROM (at character %zu)",
                            it->qualifier, it->position);
            continue;
        }
        if (it->alias && utf8_chars(it->alias) > 64)
            /* Access: a Field's name is at most 64 characters (DAO
             * Field.Name); SQLDescribeCol's name length is a SMALLINT */
            return fail(x, "42000", it->position, "The alias '%.64s...' "
                        "is longer than 64 characters (at character %zu)",
                        it->alias, it->position);
        enode *e;
        st->alias_scope = i;
        int rc = compile(x, it->expr, &e);
        st->alias_scope = 0;
        if (rc != 0)
            return -1;
        if (add_col(x, &cap, &oc) != 0)
            return -1;
        oc->e = e;
        oc->src = -1;
        if (e->op == N_COL && !e->up && it->expr->kind == EXPR_COLUMN) {
            set_table_col(st, oc, e->tab, e->col, it->alias);
        } else {
            char *label;
            if (it->alias) {
                label = (char *)it->alias;
            } else {
                label = sql_arena_alloc(st->ar, 16);
                if (!label)
                    return nomem(x);
                snprintf(label, 16, "Expr%u", exprno++);
            }
            oc->meta.name = label;
            oc->meta.base_table = "";
            oc->meta.base_column = "";
            oc->meta.type = e->type ? e->type : JET_T_TEXT;
            oc->meta.nullable = true;
            oc->meta.length = 0;
            if (oc->meta.type == JET_T_TEXT) {
                /* no value longer than described: 255 (Access's Text)
                 * unless the expression can give more */
                uint32_t b = sql_text_bound(st, e);
                oc->meta.length = b > 255 ? b : 255;
            }
            if (oc->meta.type == JET_T_NUMERIC) {
                oc->meta.scale = (uint8_t)sql_func_scale(e, st->ntabs == 1 ?
                                                         st->tabs[0].td
                                                         : NULL);
                /* MAX, MIN, First, Last of a Decimal column give its
                 * values: its precision too (SQLDescribeCol) */
                const jet_column *jc = NULL;
                if (e->op == N_AGG && e->nargs == 1 &&
                    (e->sub == A_MAX || e->sub == A_MIN ||
                     e->sub == A_FIRST || e->sub == A_LAST))
                    jc = node_column(st, e->args[0]);
                if (jc && jc->result_type == JET_T_NUMERIC && jc->precision)
                    oc->meta.precision = jc->precision;
            }
        }
    }
    return qualify_duplicate_labels(x);
}

/* ORDER BY of one block: n (select-list position), a select alias that
 * names no column, or an expression. */
int build_order(ctx *x)
{
    sql_stmt *st = x->st;
    const sql_query *q = st->qb;
    st->norder = q->norder;
    st->order = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1) *
                                        sizeof *st->order);
    st->order_desc = sql_arena_alloc(st->ar, (q->norder ? q->norder : 1));
    if (!st->order || !st->order_desc)
        return nomem(x);
    for (size_t i = 0; i < q->norder; i++) {
        const sql_expr *oe = q->order[i].expr;
        st->order_desc[i] = q->order[i].desc;
        if (oe->kind == EXPR_NUMBER) {
            /* ORDER BY 2: the second select-list column (ODBC, MS Query) */
            char *end;
            long k = strtol(oe->text, &end, 10);
            if (*end || k < 1 || (size_t)k > st->ncols)
                return fail(x, "42000", oe->position, "ORDER BY position "
                            "%s is not in the select list (at character "
                            "%zu)", oe->text, oe->position);
            st->order[i] = st->cols[k - 1].e;
            continue;
        }
        if (oe->kind == EXPR_COLUMN && !oe->qualifier) {
            bool is_col = false;
            for (size_t t = 0; t < st->ntabs && !is_col; t++)
                is_col = tab_find_column(&st->tabs[t], oe->text) >= 0;
            bool found = false;
            for (size_t c = 0; c < st->ncols && !is_col; c++)
                if (jet_name_equal_ci(st->cols[c].meta.name, oe->text)) {
                    st->order[i] = st->cols[c].e;
                    found = true;
                    break;
                }
            if (found)
                continue;
        }
        if (compile(x, oe, &st->order[i]) != 0)
            return -1;
    }
    return 0;
}
