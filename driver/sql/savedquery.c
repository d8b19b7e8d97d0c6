/*
 * savedquery.c - rebuild a saved query's SQL from its MSysQueries rows.
 *
 * The rows (core/query.c, sorted by attribute then Order) say, clause by
 * clause: the kind (Type row), PARAMETERS, the select kind (Flag row:
 * DISTINCT, DISTINCTROW, TOP n [PERCENT], SELECT *), the input tables
 * with aliases, the output columns with aliases, the joins (left, right,
 * ON text, 1 inner / 2 left / 3 right), WHERE, GROUP BY, HAVING, ORDER BY
 * ("D" = descending). UNION queries keep each side's text in two table
 * rows named X7YZ_____1 and X7YZ_____2; pass-through and DDL queries keep
 * theirs in the Type row.
 *
 * The FROM clause is rebuilt as Access writes it: the tables in order;
 * each join row takes the sources holding its two tables out of the list
 * and appends "(left JOIN right ON cond)"; a second join row between
 * tables already joined adds its condition with AND (its own first).
 * Format facts: Jackcess QueryImpl, SelectQueryImpl, UnionQueryImpl,
 * CrossTabQueryImpl; mdbtools util/mdb-queries.c.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "savedquery.h"
#include "spill.h"

#define UNION_PART1 "X7YZ_____1"
#define UNION_PART2 "X7YZ_____2"

static int set_err(sql_error *err, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int set_err(sql_error *err, const char *state, const char *fmt, ...)
{
    va_list ap;
    memset(err, 0, sizeof *err);
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", state);
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int nomem(sql_error *err)
{
    sql_set_nomem(err, 0);
    return -1;
}

/* ---------------------------------------------------------- rows */

static bool has_flag(const jet_query_row *r, int mask)
{
    return r && !r->flag_null && (r->flag & mask) != 0;
}

/* First row with attribute attr, or NULL. */
static const jet_query_row *row_of(const jet_query *q, uint8_t attr)
{
    for (size_t i = 0; i < q->nrows; i++)
        if (q->rows[i].attribute == attr)
            return &q->rows[i];
    return NULL;
}

static bool ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

/* Do the n bytes at a equal the ASCII word w, ignoring case? */
static bool ieq_n(const char *a, const char *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)w[i];
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y || !y)
            return false;
    }
    return w[n] == '\0';
}

sql_saved_kind sql_saved_kind_of(const jet_query *q)
{
    const jet_query_row *t = row_of(q, JET_QA_TYPE);
    if (t && !t->flag_null && t->flag >= 1 && t->flag <= 9)
        return (sql_saved_kind)t->flag;
    switch (q->obj ? (q->obj->flags & 0xF0) : 0) {
    case 80: return SQL_SAVED_MAKE_TABLE;
    case 64: return SQL_SAVED_APPEND;
    case 48: return SQL_SAVED_UPDATE;
    case 32: return SQL_SAVED_DELETE;
    case 16: return SQL_SAVED_CROSSTAB;
    case 96: return SQL_SAVED_DDL;
    case 112: return SQL_SAVED_PASSTHROUGH;
    case 128: return SQL_SAVED_UNION;
    default: return SQL_SAVED_SELECT;
    }
}

size_t sql_saved_params(const jet_query *q, sql_saved_param *out)
{
    size_t n = 0;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_PARAMETER || !r->name1)
            continue;
        if (out) {
            out[n].name = r->name1;
            out[n].type = r->flag_null ? (jet_type)0 : (jet_type)r->flag;
            out[n].size = r->extra;
        }
        n++;
    }
    return n;
}

/* ---------------------------------------------------------- names */

/* Does name need brackets (any character outside [A-Za-z0-9_])? */
static bool needs_brackets(const char *name)
{
    if (!*name)
        return true;
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_'))
            return true;
    }
    return false;
}

static bool is_bracketed(const char *s)
{
    size_t n = strlen(s);
    return n >= 2 && s[0] == '[' && s[n - 1] == ']';
}

/* Append name, bracketed when exec (always) or when it needs it. */
static void add_name(sql_sbuf *b, const char *name, bool exec)
{
    if (is_bracketed(name) || (!exec && !needs_brackets(name))) {
        sql_sb_add(b, name);
        return;
    }
    sql_sb_add(b, "[");
    sql_sb_add(b, name);
    sql_sb_add(b, "]");
}

static void add_alias(sql_sbuf *b, const char *alias, bool exec)
{
    if (!alias)
        return;
    sql_sb_add(b, " AS ");
    add_name(b, alias, exec);
}

/* ---------------------------------------------------------- FROM */

/* A table or a join in the FROM list being built. */
typedef struct src {
    bool is_join;
    const char *key;            /* table: alias or name (join matching) */
    const jet_query_row *table; /* table row */
    struct src *left, *right;   /* join */
    int16_t jtype;
    const char *on[16];         /* ON conditions, newest first */
    size_t non;
} src;

static bool src_contains(const src *s, const char *name)
{
    if (!s || !name)
        return false;
    if (!s->is_join)
        return s->key && ieq(s->key, name);
    return src_contains(s->left, name) || src_contains(s->right, name);
}

static void add_src(sql_sbuf *b, const src *s, bool top, bool exec)
{
    if (!s->is_join) {
        const jet_query_row *t = s->table;
        if (!t) {               /* a join names a table not listed */
            add_name(b, s->key, exec);
            return;
        }
        if (t->expression) {    /* [db or subquery text]. */
            add_name(b, t->expression, true);
            sql_sb_add(b, ".");
        }
        if (t->name1)
            add_name(b, t->name1, exec);
        add_alias(b, t->name2, exec);
        return;
    }
    static const char *const jname[] = {"", " INNER JOIN ", " LEFT JOIN ",
                                        " RIGHT JOIN "};
    if (!top)
        sql_sb_add(b, "(");
    add_src(b, s->left, false, exec);
    sql_sb_add(b, jname[s->jtype]);
    add_src(b, s->right, false, exec);
    sql_sb_add(b, " ON ");
    if (s->non > 1)
        sql_sb_add(b, "(");
    for (size_t i = 0; i < s->non; i++) {
        if (i)
            sql_sb_add(b, ") AND (");
        sql_sb_add(b, s->on[i]);
    }
    if (s->non > 1)
        sql_sb_add(b, ")");
    if (!top)
        sql_sb_add(b, ")");
}

/* Append the FROM list of q (without "FROM "). */
static int add_from(sql_sbuf *b, const jet_query *q, bool exec, bool *any,
                    sql_error *err)
{
    size_t nt = 0, nj = 0;
    for (size_t i = 0; i < q->nrows; i++) {
        nt += q->rows[i].attribute == JET_QA_TABLE;
        nj += q->rows[i].attribute == JET_QA_JOIN;
    }
    *any = nt + nj > 0;
    if (!*any)
        return 0;
    /* every table, every join and up to two stand-ins per join */
    size_t cap = nt + 3 * nj;
    src *pool = calloc(cap, sizeof *pool);
    src **list = calloc(cap, sizeof *list);
    size_t npool = 0, nlist = 0;
    int rc = 0;
    if (!pool || !list) {
        rc = nomem(err);
        goto out;
    }
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_TABLE)
            continue;
        src *s = &pool[npool++];
        s->table = r;
        s->key = r->name2 ? r->name2 : r->name1;
        list[nlist++] = s;
    }
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_JOIN)
            continue;
        if (r->flag_null || r->flag < 1 || r->flag > 3 || !r->name1 ||
            !r->name2 || !r->expression) {
            rc = set_err(err, "HY000", "saved query '%s': join row of an "
                         "unknown kind (%d)", q->obj ? q->obj->name : "?",
                         r->flag_null ? -1 : r->flag);
            goto out;
        }
        src *from = NULL, *to = NULL;
        for (size_t k = 0; k < nlist && (!from || !to);) {
            src *s = list[k];
            if (!from && src_contains(s, r->name1)) {
                from = s;
                if (!to && src_contains(s, r->name2)) {
                    to = s;
                    break;
                }
            } else if (!to && src_contains(s, r->name2)) {
                to = s;
            } else {
                k++;
                continue;
            }
            memmove(&list[k], &list[k + 1], (nlist - k - 1) * sizeof *list);
            nlist--;
        }
        if (!from) {
            from = &pool[npool++];
            from->key = r->name1;
        }
        if (!to) {
            to = &pool[npool++];
            to->key = r->name2;
        }
        if (from == to) {
            if (!from->is_join || from->jtype != r->flag) {
                rc = set_err(err, "HY000", "saved query '%s': inconsistent "
                             "joins between '%s' and '%s'",
                             q->obj ? q->obj->name : "?", r->name1, r->name2);
                goto out;
            }
            if (from->non == sizeof from->on / sizeof from->on[0]) {
                rc = set_err(err, "HY000", "saved query '%s': too many join "
                             "conditions", q->obj ? q->obj->name : "?");
                goto out;
            }
            memmove(&from->on[1], &from->on[0], from->non * sizeof(char *));
            from->on[0] = r->expression;
            from->non++;
            /* it was left in the list */
            continue;
        }
        src *j = &pool[npool++];
        j->is_join = true;
        j->left = from;
        j->right = to;
        j->jtype = r->flag;
        j->on[0] = r->expression;
        j->non = 1;
        list[nlist++] = j;
    }
    for (size_t k = 0; k < nlist; k++) {
        if (k)
            sql_sb_add(b, ", ");
        add_src(b, list[k], true, exec);
    }
out:
    free(pool);
    free(list);
    return rc;
}

/* ---------------------------------------------------------- SELECT */

static const char *param_type_name(const jet_query_row *r)
{
    switch (r->flag_null ? 0 : r->flag) {
    case 0: return "Value";
    case JET_T_BOOL: return "Bit";
    case JET_T_BYTE: return "Byte";
    case JET_T_INT: return "Short";
    case JET_T_LONG: return "Long";
    case JET_T_MONEY: return "Currency";
    case JET_T_FLOAT: return "IEEESingle";
    case JET_T_DOUBLE: return "IEEEDouble";
    case JET_T_DATETIME: return "DateTime";
    case JET_T_BINARY: return "Binary";
    case JET_T_TEXT: return "Text";
    case JET_T_OLE: return "LongBinary";
    case JET_T_MEMO: return "LongText";
    case JET_T_GUID: return "Guid";
    case JET_T_NUMERIC: return "Decimal";
    case JET_T_BIGINT: return "BigInt";
    default: return "Value";
    }
}

static void add_parameters(sql_sbuf *b, const jet_query *q)
{
    bool first = true;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_PARAMETER || !r->name1)
            continue;
        sql_sb_add(b, first ? "PARAMETERS " : ", ");
        first = false;
        add_name(b, r->name1, false);
        sql_sb_add(b, " ");
        sql_sb_add(b, param_type_name(r));
        if (!r->flag_null && r->flag == JET_T_TEXT && r->extra > 0) {
            char n[16];
            snprintf(n, sizeof n, "(%d)", (int)r->extra);
            sql_sb_add(b, n);
        }
    }
    if (!first)
        sql_sb_add(b, ";\n");
}

/* Which column/group-by rows a part of the text takes. */
typedef enum rowsel {
    ROWS_ALL,           /* plain select */
    ROWS_CT_NORMAL      /* crosstab: row headings only (flag 2) */
} rowsel;

static bool row_taken(const jet_query_row *r, rowsel sel)
{
    return sel == ROWS_ALL || has_flag(r, JET_QF_CROSSTAB_ROW);
}

/* "\nORDER BY a, b DESC" of q's order rows (nothing without one). */
static void add_order_by(sql_sbuf *b, const jet_query *q)
{
    bool first = true;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_ORDERBY || !r->expression)
            continue;
        sql_sb_add(b, first ? "\nORDER BY " : ", ");
        first = false;
        sql_sb_add(b, r->expression);
        if (r->name1 && ieq(r->name1, "D"))
            sql_sb_add(b, " DESC");
    }
}

/* "SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... ORDER BY ...". */
static int add_select(sql_sbuf *b, const jet_query *q, bool exec, rowsel sel,
                      const char *extra_cols, const char *extra_group,
                      bool with_order, sql_error *err)
{
    const jet_query_row *f = row_of(q, JET_QA_FLAG);
    /* Access ignores DISTINCTROW in a totals query (its rows are groups,
     * not source records): the engine runs it without */
    bool grouped = extra_group || row_of(q, JET_QA_GROUPBY);
    sql_sb_add(b, "SELECT ");
    if (has_flag(f, JET_QF_DISTINCT))
        sql_sb_add(b, "DISTINCT ");
    else if (has_flag(f, JET_QF_DISTINCTROW) && !(exec && grouped))
        sql_sb_add(b, "DISTINCTROW ");
    if (has_flag(f, JET_QF_TOP) && f->name1) {
        sql_sb_add(b, "TOP ");
        sql_sb_add(b, f->name1);
        sql_sb_add(b, has_flag(f, JET_QF_PERCENT) ? " PERCENT " : " ");
    }
    bool first = true;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_COLUMN || !r->expression ||
            !row_taken(r, sel))
            continue;
        if (!first)
            sql_sb_add(b, ", ");
        first = false;
        sql_sb_add(b, r->expression);
        add_alias(b, r->name1, exec);
    }
    if (has_flag(f, JET_QF_SELECT_STAR) || (first && !extra_cols)) {
        sql_sb_add(b, first ? "*" : ", *");
        first = false;
    }
    if (extra_cols) {
        if (!first)
            sql_sb_add(b, ", ");
        sql_sb_add(b, extra_cols);
    }
    if (!exec && sql_saved_kind_of(q) == SQL_SAVED_MAKE_TABLE) {
        const jet_query_row *t = row_of(q, JET_QA_TYPE);
        if (t && t->name1) {
            sql_sb_add(b, " INTO ");
            add_name(b, t->name1, false);
        }
    }
    sql_sbuf from = {0};
    bool any = false;
    if (add_from(&from, q, exec, &any, err) != 0) {
        sql_sb_free(&from);
        return -1;
    }
    if (from.oom) {
        sql_sb_free(&from);
        return nomem(err);
    }
    if (any) {
        sql_sb_add(b, "\nFROM ");
        sql_sb_add(b, from.s);
    }
    sql_sb_free(&from);
    const jet_query_row *rdb = row_of(q, JET_QA_REMOTEDB);
    if (rdb && (rdb->name1 || rdb->expression)) {
        if (exec)
            return set_err(err, "HYC00", "saved query '%s' reads another "
                           "database (FROM ... IN '%s'); not supported",
                           q->obj ? q->obj->name : "?",
                           rdb->name1 ? rdb->name1 : "");
        sql_sb_add(b, " IN '");
        if (rdb->name1)
            sql_sb_add(b, rdb->name1);
        sql_sb_add(b, "'");
        if (rdb->expression) {
            sql_sb_add(b, " [");
            sql_sb_add(b, rdb->expression);
            sql_sb_add(b, "]");
        }
    }
    const jet_query_row *w = row_of(q, JET_QA_WHERE);
    if (w && w->expression) {
        sql_sb_add(b, "\nWHERE ");
        sql_sb_add(b, w->expression);
    }
    first = true;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_GROUPBY || !r->expression ||
            !row_taken(r, sel))
            continue;
        sql_sb_add(b, first ? "\nGROUP BY " : ", ");
        first = false;
        sql_sb_add(b, r->expression);
    }
    if (extra_group) {
        sql_sb_add(b, first ? "\nGROUP BY " : ", ");
        sql_sb_add(b, extra_group);
    }
    const jet_query_row *h = row_of(q, JET_QA_HAVING);
    if (h && h->expression) {
        sql_sb_add(b, "\nHAVING ");
        sql_sb_add(b, h->expression);
    }
    if (!with_order)
        return 0;
    add_order_by(b, q);
    return 0;
}

/* "<cols> FROM ... WHERE ..." of q (exec form): the rows given to it
 * hold no column, group, having or order rows. */
static int add_select_tail(sql_sbuf *b, const jet_query *q, const char *cols,
                           sql_error *err)
{
    sql_sbuf t = {0};
    int rc = add_select(&t, q, true, ROWS_ALL, cols, NULL, false, err);
    /* drop the leading "SELECT " add_select wrote */
    if (rc == 0 && !t.oom && t.s)
        sql_sb_add(b, t.s + 7);
    if (t.oom && rc == 0)
        rc = nomem(err);
    sql_sb_free(&t);
    return rc;
}

/* Append a union part: trimmed, CR LF and CR as "\n", no final ';'. */
static void add_union_part(sql_sbuf *b, const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                 s[n - 1] == '\n' || s[n - 1] == ';'))
        n--;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\r') {
            sql_sb_add(b, "\n");
            if (i + 1 < n && s[i + 1] == '\n')
                i++;
            while (i + 1 < n && (s[i + 1] == '\r' || s[i + 1] == '\n'))
                i++;
        } else {
            sql_sb_addn(b, &s[i], 1);
        }
    }
}

static int add_union(sql_sbuf *b, const jet_query *q, sql_error *err)
{
    const char *p1 = NULL, *p2 = NULL;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_TABLE || !r->name2 || !r->expression)
            continue;
        if (strcmp(r->name2, UNION_PART1) == 0)
            p1 = r->expression;
        else if (strcmp(r->name2, UNION_PART2) == 0)
            p2 = r->expression;
    }
    if (!p1 || !p2)
        return set_err(err, "HY000", "saved query '%s': a union part is "
                       "missing from MSysQueries",
                       q->obj ? q->obj->name : "?");
    add_union_part(b, p1);
    sql_sb_add(b, has_flag(row_of(q, JET_QA_FLAG), JET_QF_DISTINCT)
                  ? "\nUNION " : "\nUNION ALL ");
    add_union_part(b, p2);
    add_order_by(b, q);
    return 0;
}

/* Transform (value) and pivot column rows of a crosstab. */
static void crosstab_rows(const jet_query *q, const jet_query_row **value,
                          const jet_query_row **pivot)
{
    *value = *pivot = NULL;
    for (size_t i = 0; i < q->nrows; i++) {
        const jet_query_row *r = &q->rows[i];
        if (r->attribute != JET_QA_COLUMN || !r->expression)
            continue;
        if (has_flag(r, JET_QF_CROSSTAB_PIVOT)) {
            if (!*pivot)
                *pivot = r;
        } else if (!has_flag(r, JET_QF_CROSSTAB_ROW)) {
            if (!*value)
                *value = r;
        }
    }
}

static int finish(char **out, sql_sbuf *b, int rc, sql_error *err)
{
    *out = NULL;
    if (rc == 0 && b->oom)
        rc = nomem(err);
    if (rc == 0 && !b->s)
        sql_sb_add(b, "");
    if (rc == 0 && b->oom)
        rc = nomem(err);
    if (rc != 0) {
        sql_sb_free(b);
        return rc;
    }
    *out = b->s;
    return 0;
}

int sql_saved_text(char **out, const jet_query *q, sql_error *err)
{
    sql_sbuf b = {0};
    int rc = 0;
    const jet_query_row *t = row_of(q, JET_QA_TYPE);
    const jet_query_row *f = row_of(q, JET_QA_FLAG);

    switch (sql_saved_kind_of(q)) {
    case SQL_SAVED_PASSTHROUGH:
    case SQL_SAVED_DDL:
        if (t && t->expression)
            sql_sb_add(&b, t->expression);
        return finish(out, &b, 0, err);
    case SQL_SAVED_UNION:
        rc = add_union(&b, q, err);
        break;
    case SQL_SAVED_CROSSTAB: {
        const jet_query_row *value, *pivot;
        crosstab_rows(q, &value, &pivot);
        add_parameters(&b, q);
        if (value) {
            sql_sb_add(&b, "TRANSFORM ");
            sql_sb_add(&b, value->expression);
            add_alias(&b, value->name1, false);
            sql_sb_add(&b, "\n");
        }
        rc = add_select(&b, q, false, ROWS_CT_NORMAL, NULL, NULL, true, err);
        if (rc == 0 && pivot) {
            sql_sb_add(&b, "\nPIVOT ");
            sql_sb_add(&b, pivot->expression);
        }
        break;
    }
    default:
        add_parameters(&b, q);
        rc = add_select(&b, q, false, ROWS_ALL, NULL, NULL, true, err);
        break;
    }
    if (rc == 0 && has_flag(f, JET_QF_OWNER_ACCESS))
        sql_sb_add(&b, "\nWITH OWNERACCESS OPTION");
    if (rc == 0)
        sql_sb_add(&b, ";");
    return finish(out, &b, rc, err);
}

/* ------------------------------------------------------ parameters */

static bool word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* Case-insensitive (ASCII) compare of a reference's name with a declared
 * parameter name, ignoring brackets in both. */
static bool ref_matches(const char *ref, size_t n, const char *decl)
{
    size_t i = 0;
    const char *d = decl;
    for (;;) {
        while (i < n && (ref[i] == '[' || ref[i] == ']'))
            i++;
        while (*d == '[' || *d == ']')
            d++;
        if (i == n || !*d)
            return i == n && !*d;
        unsigned char x = (unsigned char)ref[i], y = (unsigned char)*d;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return false;
        i++;
        d++;
    }
}

/* Length of one name part at s ([..] or a word), 0 when none. */
static size_t part_len(const char *s)
{
    if (*s == '[') {
        const char *e = strchr(s, ']');
        return e ? (size_t)(e - s) + 1 : 0;
    }
    size_t n = 0;
    if ((unsigned char)s[0] >= '0' && (unsigned char)s[0] <= '9')
        return 0;
    while (s[n] && word_char((unsigned char)s[n]))
        n++;
    return n;
}

/* The undeclared form and report references of a query text, distinct,
 * in the order first met: its implicit parameters (names malloc'd). */
typedef struct ref_list {
    char **names;
    size_t n, cap;
} ref_list;

static void refs_free(ref_list *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->names[i]);
    free(r->names);
    memset(r, 0, sizeof *r);
}

/* Index of reference s (len bytes) in r, adding it when new; -1 when out
 * of memory. */
static long refs_index(ref_list *r, const char *s, size_t len)
{
    for (size_t i = 0; i < r->n; i++)
        if (ref_matches(s, len, r->names[i]))
            return (long)i;
    if (sql_grow((void **)&r->names, &r->cap, r->n + 1, sizeof *r->names))
        return -1;
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, s, len);
    c[len] = '\0';
    r->names[r->n] = c;
    return (long)r->n++;
}

/*
 * Copy text to b, replacing references to q's parameters by '?'
 * (appending the parameter index to *map): its declared parameters
 * (index k in sql_saved_params order) and its undeclared [Forms]! and
 * [Reports]! references, which Access asks for as parameters (index np +
 * j, j their index in imp, added there when new). args, when not NULL,
 * has a literal or NULL (a marker) per index. Strings '..', "..", and
 * #dates# are copied untouched.
 */
static int bind_params(sql_sbuf *b, size_t **map, size_t *nmarks,
                       const char *text, const jet_query *q,
                       const char *const *args, ref_list *imp,
                       sql_error *err)
{
    size_t np = sql_saved_params(q, NULL);
    sql_saved_param *params = calloc(np ? np : 1, sizeof *params);
    size_t mcap = 0, nimp0 = imp->n;
    bool after_as = false;
    int rc = 0;

    *map = NULL;
    *nmarks = 0;
    if (!params)
        return nomem(err);
    sql_saved_params(q, params);
    const char *p = text;
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (c == '\'' || c == '"') {
            const char *s = p++;
            while (*p && !(*p == (char)c && p[1] != (char)c))
                p += (*p == (char)c) ? 2 : 1;
            if (*p)
                p++;
            sql_sb_addn(b, s, (size_t)(p - s));
            after_as = false;
            continue;
        }
        if (c == '#') {
            const char *e = strchr(p + 1, '#');
            size_t n = e ? (size_t)(e - p) + 1 : 1;
            /* a date literal holds no newline and is short */
            if (!e || memchr(p, '\n', n) || n > 64)
                n = 1;
            sql_sb_addn(b, p, n);
            p += n;
            continue;
        }
        if (c >= '0' && c <= '9') {
            const char *s = p;
            while (word_char((unsigned char)*p) || *p == '.')
                p++;
            sql_sb_addn(b, s, (size_t)(p - s));
            after_as = false;
            continue;
        }
        size_t n = part_len(p);
        if (n == 0) {
            sql_sb_addn(b, p, 1);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                after_as = false;
            p++;
            continue;
        }
        /* a chain of parts joined by '.' or '!' */
        const char *s = p;
        size_t first_len = n;
        bool bang = false;
        p += n;
        while ((*p == '.' || *p == '!') && (n = part_len(p + 1)) > 0) {
            bang |= *p == '!';
            p += 1 + n;
        }
        size_t len = (size_t)(p - s);
        const char *after = p;
        while (*after == ' ' || *after == '\t')
            after++;
        bool is_call = *after == '(';
        size_t hit = SIZE_MAX;
        if (!after_as && !is_call)
            for (size_t k = 0; k < np && hit == SIZE_MAX; k++)
                if (ref_matches(s, len, params[k].name))
                    hit = k;
        if (hit == SIZE_MAX && bang && !after_as && !is_call) {
            char head[16] = {0};
            size_t hl = first_len, off = 0;
            if (s[0] == '[') {
                off = 1;
                hl -= 2;
            }
            if (hl < sizeof head)
                memcpy(head, s + off, hl);
            if (ieq(head, "Forms") || ieq(head, "Reports")) {
                long j = refs_index(imp, s, len);
                if (j < 0) {
                    rc = nomem(err);
                    goto out;
                }
                hit = np + (size_t)j;
                if (args && (size_t)j >= nimp0) {
                    /* args has no entry for it: the texts disagree */
                    rc = set_err(err, "HY000", "saved query '%s': form "
                                 "reference %.*s not in its SQL text",
                                 q->obj ? q->obj->name : "?", (int)len, s);
                    goto out;
                }
            }
        }
        if (hit != SIZE_MAX && args && args[hit]) {
            sql_sb_add(b, "(");
            sql_sb_add(b, args[hit]);
            sql_sb_add(b, ")");
        } else if (hit != SIZE_MAX) {
            if (sql_grow((void **)map, &mcap, *nmarks + 1, sizeof **map)) {
                rc = nomem(err);
                goto out;
            }
            (*map)[(*nmarks)++] = hit;
            sql_sb_add(b, "?");
        } else {
            sql_sb_addn(b, s, len);
        }
        after_as = len == 2 && ieq_n(s, "AS", 2);
    }
out:
    free(params);
    if (rc != 0) {
        free(*map);
        *map = NULL;
        *nmarks = 0;
    }
    return rc;
}

static const char *kind_name(sql_saved_kind k)
{
    switch (k) {
    case SQL_SAVED_MAKE_TABLE: return "make-table";
    case SQL_SAVED_APPEND: return "append";
    case SQL_SAVED_UPDATE: return "update";
    case SQL_SAVED_DELETE: return "delete";
    case SQL_SAVED_CROSSTAB: return "crosstab";
    case SQL_SAVED_DDL: return "data-definition";
    case SQL_SAVED_PASSTHROUGH: return "pass-through";
    default: return "select";
    }
}

/* The implicit parameters of q (ref_list) in the order Access's SQL view
 * shows them: its rebuilt SQL text scanned as bind_params scans. Pass-
 * through and DDL text is the server's or a definition: none. */
static int implicit_params(ref_list *imp, const jet_query *q,
                           sql_error *err)
{
    sql_saved_kind k = sql_saved_kind_of(q);
    memset(imp, 0, sizeof *imp);
    if (k == SQL_SAVED_PASSTHROUGH || k == SQL_SAVED_DDL)
        return 0;
    char *text = NULL;
    if (sql_saved_text(&text, q, err) != 0)
        return -1;
    sql_sbuf o = {0};
    size_t *map = NULL, nmarks = 0;
    int rc = bind_params(&o, &map, &nmarks, text, q, NULL, imp, err);
    free(text);
    free(map);
    sql_sb_free(&o);
    if (rc != 0)
        refs_free(imp);
    return rc;
}

int sql_saved_param_list(sql_saved_param **out, size_t *n,
                         const jet_query *q, sql_error *err)
{
    ref_list imp;
    *out = NULL;
    *n = 0;
    if (implicit_params(&imp, q, err) != 0)
        return -1;
    size_t nd = sql_saved_params(q, NULL);
    sql_saved_param *p = calloc(nd + imp.n ? nd + imp.n : 1, sizeof *p);
    if (!p) {
        refs_free(&imp);
        return nomem(err);
    }
    sql_saved_params(q, p);
    for (size_t j = 0; j < imp.n; j++) {
        p[nd + j].name = imp.names[j];   /* ownership moves to p */
        p[nd + j].implicit = true;
    }
    free(imp.names);
    *out = p;
    *n = nd + imp.n;
    return 0;
}

void sql_saved_free_params(sql_saved_param *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        if (p[i].implicit)
            free((char *)p[i].name);
    free(p);
}

/* Bind parameters in b's text into a new buffer; frees b. */
static int exec_finish(char **out, size_t **map, size_t *nmarks, sql_sbuf *b,
                       const jet_query *q, const char *const *args,
                       sql_error *err)
{
    sql_sbuf o = {0};
    ref_list imp;
    int rc;
    if (b->oom) {
        sql_sb_free(b);
        return nomem(err);
    }
    /* the implicit parameters numbered as sql_saved_param_list numbers
     * them, whatever order this text meets them in */
    if (implicit_params(&imp, q, err) != 0) {
        sql_sb_free(b);
        return -1;
    }
    rc = bind_params(&o, map, nmarks, b->s ? b->s : "", q, args, &imp, err);
    refs_free(&imp);
    sql_sb_free(b);
    if (rc != 0) {
        sql_sb_free(&o);
        return rc;
    }
    rc = finish(out, &o, 0, err);
    if (rc != 0) {
        free(*map);
        *map = NULL;
        *nmarks = 0;
    }
    return rc;
}

int sql_saved_exec_text(char **out, size_t **map, size_t *nmarks,
                        const jet_query *q, sql_error *err)
{
    return sql_saved_exec_text_args(out, map, nmarks, q, NULL, err);
}

int sql_saved_exec_text_args(char **out, size_t **map, size_t *nmarks,
                             const jet_query *q, const char *const *args,
                             sql_error *err)
{
    sql_sbuf b = {0};
    int rc;
    sql_saved_kind k = sql_saved_kind_of(q);

    *out = NULL;
    *map = NULL;
    *nmarks = 0;
    switch (k) {
    case SQL_SAVED_SELECT:
        rc = add_select(&b, q, true, ROWS_ALL, NULL, NULL, true, err);
        break;
    case SQL_SAVED_UNION:
        rc = add_union(&b, q, err);
        break;
    default:
        return set_err(err, "HYC00", "'%s' is %s %s query; select, union "
                       "and crosstab queries read, and append, update and "
                       "delete queries run by {call} or EXEC", q->obj ?
                       q->obj->name : "?",
                       strchr("aeiou", kind_name(k)[0]) ? "an" : "a",
                       kind_name(k));
    }
    if (rc != 0) {
        sql_sb_free(&b);
        return rc;
    }
    return exec_finish(out, map, nmarks, &b, q, args, err);
}

/* A target column of an action query's row (name2): as written when it
 * is already qualified or bracketed ([t].[c], t.c), else bracketed. */
static void add_target(sql_sbuf *b, const char *name)
{
    if (strchr(name, '.') || strchr(name, '['))
        sql_sb_add(b, name);
    else
        add_name(b, name, true);
}

/* The INSERT, UPDATE or DELETE an action query runs (Jackcess
 * AppendQuery, UpdateQuery, DeleteQuery): an append's target is its type
 * row's Name1, its columns' Name2 the target columns and the columns
 * flagged APPEND_VALUE (0x8000) a VALUES list; an update's columns set
 * Name2 = Expression over its FROM and WHERE; a delete is its SELECT
 * with DELETE for SELECT. */
static int add_action(sql_sbuf *b, const jet_query *q, sql_error *err)
{
    const jet_query_row *t = row_of(q, JET_QA_TYPE);
    const char *qname = q->obj ? q->obj->name : "?";
    bool first = true;
    switch (sql_saved_kind_of(q)) {
    case SQL_SAVED_APPEND: {
        if (!t || !t->name1)
            return set_err(err, "HY000", "append query '%s' names no "
                           "target table", qname);
        if (t->name2)
            return set_err(err, "HYC00", "append query '%s' writes another "
                           "database (INSERT INTO ... IN '%s'); not "
                           "supported", qname, t->name2);
        sql_sb_add(b, "INSERT INTO ");
        add_name(b, t->name1, true);
        bool values = false;
        for (size_t i = 0; i < q->nrows; i++) {
            const jet_query_row *r = &q->rows[i];
            if (r->attribute != JET_QA_COLUMN)
                continue;
            values |= has_flag(r, 0x8000);
            if (!r->name2)
                continue;
            sql_sb_add(b, first ? " (" : ", ");
            first = false;
            add_target(b, r->name2);
        }
        if (!first)
            sql_sb_add(b, ")");
        if (!values) {
            sql_sb_add(b, "\n");
            return add_select(b, q, true, ROWS_ALL, NULL, NULL, true, err);
        }
        sql_sb_add(b, "\nVALUES (");
        first = true;
        for (size_t i = 0; i < q->nrows; i++) {
            const jet_query_row *r = &q->rows[i];
            if (r->attribute != JET_QA_COLUMN || !has_flag(r, 0x8000) ||
                !r->expression)
                continue;
            if (!first)
                sql_sb_add(b, ", ");
            first = false;
            sql_sb_add(b, r->expression);
        }
        sql_sb_add(b, ")");
        return 0;
    }
    case SQL_SAVED_UPDATE: {
        sql_sbuf from = {0};
        bool any = false;
        if (add_from(&from, q, true, &any, err) != 0) {
            sql_sb_free(&from);
            return -1;
        }
        if (from.oom || !any) {
            sql_sb_free(&from);
            return from.oom ? nomem(err)
                            : set_err(err, "HY000", "update query '%s' "
                                      "names no table", qname);
        }
        sql_sb_add(b, "UPDATE ");
        sql_sb_add(b, from.s);
        sql_sb_free(&from);
        sql_sb_add(b, "\nSET ");
        for (size_t i = 0; i < q->nrows; i++) {
            const jet_query_row *r = &q->rows[i];
            if (r->attribute != JET_QA_COLUMN || !r->name2 || !r->expression)
                continue;
            if (!first)
                sql_sb_add(b, ", ");
            first = false;
            add_target(b, r->name2);
            sql_sb_add(b, " = ");
            sql_sb_add(b, r->expression);
        }
        const jet_query_row *w = row_of(q, JET_QA_WHERE);
        if (w && w->expression) {
            sql_sb_add(b, "\nWHERE ");
            sql_sb_add(b, w->expression);
        }
        return 0;
    }
    case SQL_SAVED_DELETE:
        sql_sb_add(b, "DELETE ");
        return add_select_tail(b, q, NULL, err);
    default:
        return set_err(err, "HYC00", "'%s' is not an append, update or "
                       "delete query", qname);
    }
}

int sql_saved_action_text_args(char **out, size_t **map, size_t *nmarks,
                               const jet_query *q, const char *const *args,
                               sql_error *err)
{
    sql_sbuf b = {0};
    *out = NULL;
    *map = NULL;
    *nmarks = 0;
    int rc = add_action(&b, q, err);
    if (rc != 0) {
        sql_sb_free(&b);
        return rc;
    }
    return exec_finish(out, map, nmarks, &b, q, args, err);
}

/* The aggregate of a TRANSFORM expression "Agg(arg)": its name length and
 * the argument's span; false when the expression is not one such call. */
static bool split_aggregate(const char *e, size_t *name_len, const char **arg,
                            size_t *arg_len)
{
    static const char *const aggs[] = {"sum", "count", "avg", "min", "max",
                                       "stdev", "stdevp", "var", "varp"};
    while (*e == ' ')
        e++;
    size_t n = 0;
    while (word_char((unsigned char)e[n]) && e[n] < 0x7f)
        n++;
    bool known = false;
    for (size_t i = 0; i < sizeof aggs / sizeof aggs[0]; i++)
        known |= ieq_n(e, aggs[i], n);
    const char *p = e + n;
    while (*p == ' ')
        p++;
    if (!known || *p != '(')
        return false;
    const char *a = p + 1;
    int depth = 0;
    for (p = a; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char qc = *p++;
            while (*p && *p != qc)
                p++;
            if (!*p)
                return false;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')' && depth-- == 0) {
            break;
        }
    }
    if (*p != ')')
        return false;
    const char *rest = p + 1;
    while (*rest == ' ')
        rest++;
    if (*rest)
        return false;
    *name_len = (size_t)(e + n - e);
    *arg = a;
    *arg_len = (size_t)(p - a);
    return true;
}

/* The pivot expression's length without a trailing "In (...)" list; *in
 * points at the list's '(' or is NULL. */
static size_t pivot_split(const char *pe, const char **in)
{
    const char *at = NULL;
    *in = NULL;
    for (const char *p = pe; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char qc = *p++;
            while (*p && *p != qc)
                p++;
            if (!*p)
                break;
            continue;
        }
        if ((p == pe || !word_char((unsigned char)p[-1])) &&
            (p[0] == 'I' || p[0] == 'i') && (p[1] == 'n' || p[1] == 'N') &&
            !word_char((unsigned char)p[2])) {
            const char *a = p + 2;
            while (*a == ' ')
                a++;
            if (*a == '(') {
                at = p;
                *in = a;
            }
        }
    }
    size_t n = at ? (size_t)(at - pe) : strlen(pe);
    while (n && pe[n - 1] == ' ')
        n--;
    return n;
}

static const char *qname(const jet_query *q)
{
    return q->obj && q->obj->name ? q->obj->name : "?";
}

int sql_saved_crosstab_pivots(char **values_sql, char ***fixed,
                              size_t *nfixed, const jet_query *q,
                              sql_error *err)
{
    const jet_query_row *value, *pivot;
    *values_sql = NULL;
    *fixed = NULL;
    *nfixed = 0;
    if (sql_saved_kind_of(q) != SQL_SAVED_CROSSTAB)
        return set_err(err, "HY000", "'%s' is not a crosstab query",
                       qname(q));
    crosstab_rows(q, &value, &pivot);
    if (!value || !pivot)
        return set_err(err, "HY000", "crosstab query '%s' lacks its %s row",
                       qname(q), value ? "PIVOT" : "TRANSFORM");
    const char *in;
    size_t plen = pivot_split(pivot->expression, &in);
    if (in) {
        /* the fixed column list: "(v1, v2, ...)" */
        size_t cap = 8, n = 0;
        char **list = malloc(cap * sizeof *list);
        const char *p = in + 1;
        if (!list)
            return nomem(err);
        for (;;) {
            while (*p == ' ')
                p++;
            const char *s = p;
            while (*p && *p != ',' && *p != ')') {
                if (*p == '"' || *p == '\'') {
                    char qc = *p++;
                    while (*p && *p != qc)
                        p++;
                }
                if (*p)
                    p++;
            }
            const char *e = p;
            while (e > s && e[-1] == ' ')
                e--;
            if (e > s) {
                if (n == cap) {
                    char **g = realloc(list, 2 * cap * sizeof *g);
                    if (!g)
                        goto oom;
                    list = g;
                    cap *= 2;
                }
                list[n] = malloc((size_t)(e - s) + 1);
                if (!list[n])
                    goto oom;
                memcpy(list[n], s, (size_t)(e - s));
                list[n][e - s] = '\0';
                n++;
            }
            if (*p != ',')
                break;
            p++;
        }
        *fixed = list;
        *nfixed = n;
        return 0;
    oom:
        for (size_t i = 0; i < n; i++)
            free(list[i]);
        free(list);
        return nomem(err);
    }
    sql_sbuf cols = {0}, b = {0};
    sql_sb_addn(&cols, pivot->expression, plen);
    sql_sb_add(&cols, " AS [Pivot Value]");
    /* the headings: distinct pivot values of the rows WHERE keeps */
    jet_query nq = *q;
    jet_query_row *rows = calloc(q->nrows ? q->nrows : 1, sizeof *rows);
    if (!rows || cols.oom) {
        free(rows);
        sql_sb_free(&cols);
        return nomem(err);
    }
    size_t n = 0;
    for (size_t i = 0; i < q->nrows; i++) {
        uint8_t a = q->rows[i].attribute;
        if (a != JET_QA_COLUMN && a != JET_QA_GROUPBY &&
            a != JET_QA_HAVING && a != JET_QA_ORDERBY && a != JET_QA_FLAG)
            rows[n++] = q->rows[i];
    }
    nq.rows = rows;
    nq.nrows = n;
    sql_sb_add(&b, "SELECT DISTINCT ");
    int rc = add_select_tail(&b, &nq, cols.s, err);
    sql_sb_add(&b, "\nORDER BY 1");
    free(rows);
    sql_sb_free(&cols);
    size_t *map = NULL, nmarks = 0;
    if (rc == 0)
        rc = exec_finish(values_sql, &map, &nmarks, &b, q, NULL, err);
    else
        sql_sb_free(&b);
    free(map);
    if (rc == 0 && nmarks > 0) {
        free(*values_sql);
        *values_sql = NULL;
        rc = set_err(err, "07002", "crosstab query '%s' has parameters; "
                     "run as a view it cannot have them", qname(q));
    }
    return rc;
}

void sql_saved_free_list(char **list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

int sql_crosstab_columns(char **out, const char *value, const char *pivot,
                         size_t plen, const char *const *lits,
                         const char *const *names, size_t n,
                         sql_error *err)
{
    const char *arg;
    size_t alen, nlen;
    *out = NULL;
    if (!split_aggregate(value, &nlen, &arg, &alen))
        return set_err(err, "HYC00", "crosstab: only a TRANSFORM of Sum, "
                       "Count, Avg, Min, Max, StDev or Var of an expression "
                       "runs (not %s)", value);
    const char *agg = value;
    while (*agg == ' ')
        agg++;
    bool star = alen == 1 && arg[0] == '*';
    sql_sbuf cols = {0};
    for (size_t i = 0; i < n; i++) {
        if (i)
            sql_sb_add(&cols, ", ");
        sql_sb_addn(&cols, agg, nlen);
        sql_sb_add(&cols, "(IIf((");
        sql_sb_addn(&cols, pivot, plen);
        if (lits[i]) {
            sql_sb_add(&cols, ") = ");
            sql_sb_add(&cols, lits[i]);
        } else {
            sql_sb_add(&cols, ") Is Null");
        }
        sql_sb_add(&cols, ", ");
        if (star)
            sql_sb_add(&cols, "1");
        else
            sql_sb_addn(&cols, arg, alen);
        sql_sb_add(&cols, ", Null)) AS [");
        for (const char *c = names[i]; *c; c++)
            sql_sb_addn(&cols, *c == ']' ? ")" : *c == '[' ? "(" : c, 1);
        sql_sb_add(&cols, "]");
    }
    if (!cols.s)
        sql_sb_add(&cols, "");
    if (cols.oom) {
        sql_sb_free(&cols);
        return nomem(err);
    }
    *out = cols.s;
    return 0;
}

int sql_saved_crosstab_select(char **out, const jet_query *q,
                              const char *const *lits,
                              const char *const *names, size_t n,
                              sql_error *err)
{
    const jet_query_row *value, *pivot;
    const char *in;
    *out = NULL;
    crosstab_rows(q, &value, &pivot);
    if (!value || !pivot)
        return set_err(err, "HY000", "crosstab query '%s' lacks its %s row",
                       qname(q), value ? "PIVOT" : "TRANSFORM");
    size_t plen = pivot_split(pivot->expression, &in);
    char *cs = NULL;
    if (sql_crosstab_columns(&cs, value->expression, pivot->expression, plen,
                             lits, names, n, err) != 0) {
        if (!strcmp(err->sqlstate, "HYC00"))
            set_err(err, "HYC00", "crosstab query '%s': only a TRANSFORM "
                    "of Sum, Count, Avg, Min, Max, StDev or Var of an "
                    "expression runs (not %s)", qname(q), value->expression);
        return -1;
    }
    sql_sbuf cols = { .s = cs };
    sql_sbuf b = {0};
    int rc = add_select(&b, q, true, ROWS_CT_NORMAL, n ? cols.s : NULL, NULL,
                        true, err);
    sql_sb_free(&cols);
    if (rc == 0 && !row_of(q, JET_QA_ORDERBY)) {
        /* Access lists a crosstab's rows in row-heading order */
        bool first = true;
        for (size_t i = 0; i < q->nrows; i++) {
            const jet_query_row *r = &q->rows[i];
            if (r->attribute != JET_QA_GROUPBY || !r->expression ||
                !has_flag(r, JET_QF_CROSSTAB_ROW))
                continue;
            sql_sb_add(&b, first ? "\nORDER BY " : ", ");
            first = false;
            sql_sb_add(&b, r->expression);
        }
    }
    if (rc != 0) {
        sql_sb_free(&b);
        return rc;
    }
    size_t *map = NULL, nmarks = 0;
    rc = exec_finish(out, &map, &nmarks, &b, q, NULL, err);
    free(map);
    if (rc == 0 && nmarks > 0) {
        free(*out);
        *out = NULL;
        rc = set_err(err, "07002", "crosstab query '%s' has parameters; "
                     "run as a view it cannot have them", qname(q));
    }
    return rc;
}

int sql_saved_pivot_value(char **lit, char **name, const jet_db *db,
                          const jet_value *v)
{
    char buf[96];
    sql_sbuf l = {0}, n = {0};
    *lit = *name = NULL;
    if (v->is_null)
        return 0;
    switch (v->type) {
    case JET_T_TEXT:
    case JET_T_MEMO: {
        size_t need = 0;
        if (jet_text_to_utf8(db, v, NULL, 0, &need) != JET_OK)
            return -1;
        char *t = malloc(need + 1);
        if (!t || jet_text_to_utf8(db, v, t, need, &need) != JET_OK) {
            free(t);
            return -1;
        }
        t[need] = '\0';
        sql_sb_add(&l, "\"");
        for (const char *c = t; *c; c++)
            sql_sb_add(&l, *c == '"' ? "\"\"" : (char[2]){*c, 0});
        sql_sb_add(&l, "\"");
        sql_sb_add(&n, t);
        free(t);
        break;
    }
    case JET_T_BOOL:
        sql_sb_add(&l, v->u.b ? "True" : "False");
        sql_sb_add(&n, v->u.b ? "-1" : "0");
        break;
    case JET_T_BYTE:
    case JET_T_INT:
    case JET_T_LONG:
    case JET_T_BIGINT:
        snprintf(buf, sizeof buf, "%lld", (long long)v->u.i);
        sql_sb_add(&l, buf);
        sql_sb_add(&n, buf);
        break;
    case JET_T_MONEY:
        jet_money_format(v->u.money, buf, sizeof buf);
        sql_sb_add(&l, buf);
        sql_sb_add(&n, buf);
        break;
    case JET_T_NUMERIC:
        jet_numeric_format(v, buf, sizeof buf);
        sql_sb_add(&l, buf);
        sql_sb_add(&n, buf);
        break;
    case JET_T_FLOAT:
    case JET_T_DOUBLE:
        jet_fmt_double_c(buf, sizeof buf, 'g', 17,
                         v->type == JET_T_FLOAT ? (double)v->u.f : v->u.d);
        sql_sb_add(&l, buf);
        jet_fmt_double_c(buf, sizeof buf, 'g', 15,
                         v->type == JET_T_FLOAT ? (double)v->u.f : v->u.d);
        sql_sb_add(&n, buf);
        break;
    case JET_T_DATETIME: {
        jet_timestamp ts;
        if (jet_datetime_split(v->u.d, &ts) != JET_OK)
            return -1;
        snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d",
                 ts.year, ts.month, ts.day, ts.hour, ts.minute, ts.second);
        sql_sb_add(&l, "#");
        sql_sb_add(&l, buf);
        sql_sb_add(&l, "#");
        if (ts.hour == 0 && ts.minute == 0 && ts.second == 0)
            buf[10] = '\0';
        sql_sb_add(&n, buf);
        break;
    }
    default:
        return -1;
    }
    if (l.oom || n.oom) {
        sql_sb_free(&l);
        sql_sb_free(&n);
        return -1;
    }
    *lit = l.s;
    *name = n.s;
    return 0;
}

char *sql_saved_unquote(const char *lit)
{
    size_t n = strlen(lit);
    sql_sbuf b = {0};
    if (n >= 2 && (lit[0] == '"' || lit[0] == '\'') && lit[n - 1] == lit[0]) {
        for (size_t i = 1; i + 1 < n; i++) {
            sql_sb_addn(&b, &lit[i], 1);
            if (lit[i] == lit[0] && lit[i + 1] == lit[0])
                i++;
        }
        if (!b.s)
            sql_sb_add(&b, "");
    } else {
        sql_sb_add(&b, lit);
    }
    if (b.oom) {
        sql_sb_free(&b);
        return NULL;
    }
    return b.s;
}
