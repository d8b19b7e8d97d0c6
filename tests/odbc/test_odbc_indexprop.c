/*
 * test_odbc_indexprop.c - the SQL part of the issue-25 property test
 * (tests/unit/test_indexprop.c does the volume through core/write.h):
 * random INSERT, UPDATE and DELETE statements with parameters through the
 * driver manager on a table jetgen makes empty (a Long primary key, a
 * Long index, a Text index, a unique Long index), with random keys,
 * NULLs, accents, case, spaces and punctuation in the text keys and
 * duplicates of the unique index.
 *
 * A model of the table (each row's values) predicts every statement's
 * outcome: 23000 exactly when another row holds the unique key, success
 * otherwise, and the row count SQLRowCount gives. Statements run in
 * batches of 100 in one transaction, committed or (one batch in five)
 * rolled back, and the model goes back with it. After each batch:
 *   - the table's rows and values are the model's;
 *   - for many random keys, the query that seeks an index (EXPLAIN says
 *     SEEK) gives the same rows as the one the planner cannot seek (the
 *     key inside an expression: k + 0, u + 0, s & '' with s IS NOT NULL
 *     as Null & '' is ''; EXPLAIN says SCAN):
 *     equality and ranges on the Long keys, equality, ranges and LIKE
 *     prefixes on the Text key;
 *   - `jetcheck verify` reports 0 problems (when java and jetcheck are
 *     there).
 *
 * Budget: 600 statements by default (well under a minute);
 * JET_INDEXPROP_LONG=1 runs 5,000. JET_INDEXPROP_SEED=N replays a run
 * (the seed is printed, and a failure names it).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "odbctest.h"
#include "../writetest.h"

#define TEXT_CAP 40     /* UTF-16 units of a text key, terminator included */
#define BATCH 100
#define PROBES 20       /* random keys probed per batch */

static SQLHENV env;
static SQLHDBC dbc;
static uint64_t rng, seed;

static uint32_t rnd(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 16);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

/* A random text key (UTF-16, terminated): pool words with case and
 * accent variants, punctuation, spaces, empty. Returns its units. */
static size_t gen_text(SQLWCHAR *u)
{
    static const char *const words[] = { "apple", "Apfel", "o'neil",
        "co-op", "coop", "naive", "abc", "ABC", "a b", "zebra" };
    static const SQLWCHAR acc[] = { 0xE9, 0xC9, 0xF1, 0xFC, 0xE7, 0xC5 };
    const char *w = words[below(10)];
    size_t n = 0;
    if (below(15) == 0) {
        u[0] = 0;
        return 0;
    }
    for (; *w && n < 30; w++) {
        SQLWCHAR c = (SQLWCHAR)*w;
        if (c >= 'a' && c <= 'z' && below(3) == 0)
            c = (SQLWCHAR)(c - 32);
        else if ((c == 'e' || c == 'a') && below(5) == 0)
            c = acc[below(6)];
        u[n++] = c;
    }
    if (below(4) == 0)
        u[n++] = (SQLWCHAR)"-.,! "[below(5)];
    if (below(3) == 0)
        u[n++] = (SQLWCHAR)('0' + below(10));
    u[n] = 0;
    return n;
}

/* ---------------------------------------------------------------- model */

/* One row of the model, by id (ids are never reused). */
typedef struct mrow {
    bool live;
    bool k_null, s_null;
    SQLINTEGER k, u;
    SQLWCHAR s[TEXT_CAP];
} mrow;

static mrow *model, *saved;     /* saved: the model at the batch's start */
static SQLINTEGER next_id = 1, saved_next;
static size_t cap_ids;

/* Whether a live row other than id holds unique key u. */
static bool u_taken(SQLINTEGER u, SQLINTEGER id)
{
    for (SQLINTEGER i = 1; i < next_id; i++)
        if (i != id && model[i].live && model[i].u == u)
            return true;
    return false;
}

static size_t live_count(void)
{
    size_t n = 0;
    for (SQLINTEGER i = 1; i < next_id; i++)
        n += model[i].live;
    return n;
}

/* A random live id, or 0 when there is none. */
static SQLINTEGER random_live(void)
{
    size_t n = live_count(), at;
    if (n == 0)
        return 0;
    at = below((uint32_t)n);
    for (SQLINTEGER i = 1; i < next_id; i++)
        if (model[i].live && at-- == 0)
            return i;
    return 0;
}

static size_t wlen(const SQLWCHAR *w)
{
    size_t n = 0;
    while (w[n])
        n++;
    return n;
}

/* ---------------------------------------------------------- statements */

typedef struct counts {
    unsigned ins, upd, del, dup, rolled_back, batches;
} counts;

/* One random INSERT, UPDATE or DELETE; its outcome is the model's. */
static void one_statement(counts *c)
{
    SQLHSTMT st;
    SQLINTEGER id, k = (SQLINTEGER)below(60) - 30, u = (SQLINTEGER)below(3000);
    SQLWCHAR w[TEXT_CAP];
    SQLLEN kind = below(10) == 0 ? SQL_NULL_DATA : 0, wind = SQL_NTS,
           uind = 0, zero = 0, count = -1;
    uint32_t r = live_count() < 200 ? 0 : below(100);
    bool dup;
    SQLRETURN rc;

    gen_text(w);
    if (below(12) == 0)
        wind = SQL_NULL_DATA;
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    if (r < 45) {
        id = next_id;
        dup = u_taken(u, 0);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                 "INSERT INTO P (id, k, s, u) VALUES (?, ?, ?, ?)", SQL_NTS));
        SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &id, 0, &zero);
        SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &k, 0, &kind);
        SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_WCHAR, SQL_WVARCHAR,
                         TEXT_CAP, 0, w, sizeof w, &wind);
        SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &u, 0, &uind);
        c->ins++;
    } else if (r < 80) {
        /* now and then an id that is gone: no row, no error */
        id = below(20) == 0 ? (SQLINTEGER)(1 + below((uint32_t)next_id))
                            : random_live();
        dup = model[id].live && u_taken(u, id);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                 "UPDATE P SET k = ?, s = ?, u = ? WHERE id = ?", SQL_NTS));
        SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &k, 0, &kind);
        SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_WCHAR, SQL_WVARCHAR,
                         TEXT_CAP, 0, w, sizeof w, &wind);
        SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &u, 0, &uind);
        SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &id, 0, &zero);
        c->upd++;
    } else {
        id = below(20) == 0 ? (SQLINTEGER)(1 + below((uint32_t)next_id))
                            : random_live();
        dup = false;
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLPrepare(st, (SQLCHAR *)
                 "DELETE FROM P WHERE id = ?", SQL_NTS));
        SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                         0, 0, &id, 0, &zero);
        c->del++;
    }
    rc = SQLExecute(st);
    if (dup) {
        ck_assert_msg(rc == SQL_ERROR && strcmp(odbct_state(SQL_HANDLE_STMT,
                      st), "23000") == 0, "seed %llu: a duplicate u = %d "
                      "(id %d) gave %d %s %s", (unsigned long long)seed,
                      (int)u, (int)id, (int)rc,
                      odbct_state(SQL_HANDLE_STMT, st),
                      odbct_message(SQL_HANDLE_STMT, st));
        c->dup++;
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        return;
    }
    ck_assert_msg(SQL_SUCCEEDED(rc), "seed %llu: statement on id %d: %s %s",
                  (unsigned long long)seed, (int)id,
                  odbct_state(SQL_HANDLE_STMT, st),
                  odbct_message(SQL_HANDLE_STMT, st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLRowCount(st, &count));
    ck_assert_msg(count == (r < 45 || model[id].live ? 1 : 0),
                  "seed %llu: row count %ld on id %d",
                  (unsigned long long)seed, (long)count, (int)id);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    if (r < 45) {
        next_id++;
        ck_assert_uint_lt((size_t)next_id, cap_ids);
    }
    if (r >= 80) {
        model[id].live = false;
    } else if (r < 45 || model[id].live) {
        mrow *m = &model[id];
        m->live = true;
        m->k = k;
        m->k_null = kind == SQL_NULL_DATA;
        m->u = u;
        m->s_null = wind == SQL_NULL_DATA;
        memcpy(m->s, m->s_null ? (const SQLWCHAR[]){ 0 } : w,
               (m->s_null ? 1 : wlen(w) + 1) * sizeof *w);
    }
}

/* ------------------------------------------------------------- checks */

/* The table's rows and values are the model's. */
static void same_as_model(void)
{
    SQLHSTMT st;
    SQLINTEGER id, k, u;
    SQLWCHAR s[TEXT_CAP + 8];
    SQLLEN iind, kind, sind, uind;
    size_t n = 0;

    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)
             "SELECT id, k, s, u FROM P", SQL_NTS));
    SQLBindCol(st, 1, SQL_C_SLONG, &id, 0, &iind);
    SQLBindCol(st, 2, SQL_C_SLONG, &k, 0, &kind);
    SQLBindCol(st, 3, SQL_C_WCHAR, s, sizeof s, &sind);
    SQLBindCol(st, 4, SQL_C_SLONG, &u, 0, &uind);
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        const mrow *m;
        ck_assert_msg(id > 0 && id < next_id && model[id].live,
                      "seed %llu: row %d is not in the model",
                      (unsigned long long)seed, (int)id);
        m = &model[id];
        ck_assert_msg((kind == SQL_NULL_DATA) == m->k_null &&
                      (m->k_null || k == m->k) && u == m->u &&
                      (sind == SQL_NULL_DATA) == m->s_null &&
                      (m->s_null || (sind == (SQLLEN)(wlen(m->s) *
                                                     sizeof *s) &&
                                     memcmp(s, m->s, (size_t)sind) == 0)),
                      "seed %llu: row %d has other values than the model's",
                      (unsigned long long)seed, (int)id);
        n++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ck_assert_msg(n == live_count(), "seed %llu: %zu rows, the model %zu",
                  (unsigned long long)seed, n, live_count());
}

/* The parameters of a probe: none, two Longs, or two texts. */
typedef struct param {
    int kind;               /* 1 long, 2 text */
    SQLINTEGER l[2];
    SQLWCHAR w[2][TEXT_CAP];
} param;

static int cmp_int(const void *a, const void *b)
{
    SQLINTEGER x = *(const SQLINTEGER *)a, y = *(const SQLINTEGER *)b;
    return x < y ? -1 : x > y;
}

/* The ids sql gives (its ? markers bound to p in order), sorted, into
 * out; its EXPLAIN line into plan when plan is not NULL. */
static size_t ids_of(const char *sql, const param *p, SQLINTEGER *out,
                     size_t cap, char *plan, size_t plan_cap)
{
    SQLHSTMT st;
    SQLINTEGER id;
    SQLLEN ind, li = 0, wi = SQL_NTS;
    size_t n = 0;
    char ex[512];
    SQLUSMALLINT nmark = 0;

    for (const char *q = sql; *q; q++)
        nmark += *q == '?';
    ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st));
    for (SQLUSMALLINT i = 0; i < nmark && i < 2; i++) {
        if (p->kind == 1)
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, i + 1,
                     SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                     (SQLPOINTER)&p->l[i], 0, &li));
        else
            ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindParameter(st, i + 1,
                     SQL_PARAM_INPUT, SQL_C_WCHAR, SQL_WVARCHAR, TEXT_CAP,
                     0, (SQLPOINTER)p->w[i], sizeof p->w[i], &wi));
    }
    if (plan) {
        snprintf(ex, sizeof ex, "EXPLAIN %s", sql);
        ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)ex,
                                                    SQL_NTS));
        odbct_col1(st, plan, plan_cap);
        SQLFreeStmt(st, SQL_CLOSE);
    }
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS));
    ODBCT_OK(SQL_HANDLE_STMT, st, SQLBindCol(st, 1, SQL_C_SLONG, &id, 0,
                                             &ind));
    while (SQL_SUCCEEDED(SQLFetch(st))) {
        ck_assert_uint_lt(n, cap);
        out[n++] = id;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    qsort(out, n, sizeof *out, cmp_int);
    return n;
}

/* The seek form and the scan form give the same ids. */
static unsigned probes_done;
static void same_rows(const char *seek, const char *scan, const param *p,
                      bool explain)
{
    static SQLINTEGER a[20000], b[20000];
    char pa[1024] = "", pb[1024] = "";
    size_t na = ids_of(seek, p, a, 20000, explain ? pa : NULL, sizeof pa);
    size_t nb = ids_of(scan, p, b, 20000, explain ? pb : NULL, sizeof pb);
    if (explain) {
        ck_assert_msg(strstr(pa, "SEEK") != NULL, "%s: plan %s", seek, pa);
        ck_assert_msg(strstr(pb, "SCAN") != NULL, "%s: plan %s", scan, pb);
    }
    ck_assert_msg(na == nb && memcmp(a, b, na * sizeof *a) == 0,
                  "seed %llu: %s gives %zu rows, %s %zu",
                  (unsigned long long)seed, seek, na, scan, nb);
    probes_done++;
}

/* Seeks of every index for PROBES random keys against forced scans. */
static void seeks_equal_scans(void)
{
    for (int i = 0; i < PROBES; i++) {
        param p;
        bool ex = i == 0;
        memset(&p, 0, sizeof p);
        p.kind = 1;
        p.l[0] = (SQLINTEGER)below(64) - 32;
        p.l[1] = p.l[0] + (SQLINTEGER)below(20);
        same_rows("SELECT id FROM P WHERE k = ?",
                  "SELECT id FROM P WHERE k + 0 = ?", &p, ex);
        same_rows("SELECT id FROM P WHERE k BETWEEN ? AND ?",
                  "SELECT id FROM P WHERE k + 0 BETWEEN ? AND ?", &p, ex);
        same_rows("SELECT id FROM P WHERE k > ?",
                  "SELECT id FROM P WHERE k + 0 > ?", &p, ex);
        p.l[0] = (SQLINTEGER)below(3000);
        p.l[1] = p.l[0] + (SQLINTEGER)below(300);
        same_rows("SELECT id FROM P WHERE u = ?",
                  "SELECT id FROM P WHERE u + 0 = ?", &p, ex);
        same_rows("SELECT id FROM P WHERE u BETWEEN ? AND ?",
                  "SELECT id FROM P WHERE u + 0 BETWEEN ? AND ?", &p, ex);
        p.kind = 2;
        gen_text(p.w[0]);
        gen_text(p.w[1]);
        if (p.w[0][0])
            same_rows("SELECT id FROM P WHERE s = ?",
                      "SELECT id FROM P WHERE s & '' = ? "
                      "AND s IS NOT NULL", &p, ex);
        same_rows("SELECT id FROM P WHERE s BETWEEN ? AND ?",
                  "SELECT id FROM P WHERE s & '' BETWEEN ? AND ? "
                  "AND s IS NOT NULL", &p, ex);
        same_rows("SELECT id FROM P WHERE s >= ?",
                  "SELECT id FROM P WHERE s & '' >= ? "
                  "AND s IS NOT NULL", &p, ex);
    }
    {
        /* LIKE prefixes (a literal: the pattern's form decides the plan) */
        static const char *const pre[] = { "a", "ab", "AP", "co", "o''",
                                           "n", "z", "\xc3\xa9" };
        char qa[128], qb[128];
        param none;
        const char *x = pre[below(8)];
        memset(&none, 0, sizeof none);
        none.kind = 1;
        snprintf(qa, sizeof qa, "SELECT id FROM P WHERE s LIKE '%s*'", x);
        snprintf(qb, sizeof qb, "SELECT id FROM P WHERE s & '' LIKE '%s*' "
                 "AND s IS NOT NULL", x);
        same_rows(qa, qb, &none, true);
    }
}

START_TEST(sql_writes_keep_seeks_equal_to_scans)
{
    char path[1024], cmd[4096], cs[1200];
    const char *s = getenv("JET_INDEXPROP_SEED"), *l;
    unsigned ops = 600, done = 0;
    counts c = { 0 };

    seed = s && *s ? strtoull(s, NULL, 10) : 25;
    l = getenv("JET_INDEXPROP_LONG");
    if (l && *l && strcmp(l, "0") != 0)
        ops = 5000;
    rng = seed;
    fprintf(stderr, "test_odbc_indexprop: seed %llu, %u statements\n",
            (unsigned long long)seed, ops);
    if (access(JET_JETGEN, X_OK) != 0) {
        fprintf(stderr, "test_odbc_indexprop: %s not built: skipped\n",
                JET_JETGEN);
        return;
    }
    cap_ids = ops + 2;
    model = calloc(cap_ids, sizeof *model);
    saved = calloc(cap_ids, sizeof *saved);
    ck_assert(model && saved);
    /* an empty table: the rows come through the driver (jetgen's text
     * keys for CJK are not Jet's, and jetcheck says so) */
    snprintf(path, sizeof path, "%s/indexprop.accdb", odbct_tmpdir());
    snprintf(cmd, sizeof cmd, "'%s' --format ace --seed 3 --rows 0 "
             "--table 'P:id=long/pk,k=long/idx,s=text40/idx,u=long/uidx' "
             "'%s' >/dev/null", JET_JETGEN, path);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cs, sizeof cs, "DRIVER={JetODBC};DBQ=%s;", path);
    odbct_connect(&env, &dbc, cs);
    while (done < ops) {
        bool rollback = c.batches % 5 == 3;
        memcpy(saved, model, cap_ids * sizeof *model);
        saved_next = next_id;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
                 SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
        for (unsigned i = 0; i < BATCH && done < ops; i++, done++)
            one_statement(&c);
        /* inside the transaction the connection sees its own writes */
        same_as_model();
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLEndTran(SQL_HANDLE_DBC, dbc,
                 rollback ? SQL_ROLLBACK : SQL_COMMIT));
        if (rollback) {
            /* ids handed out stay used, as AutoNumbers would */
            memcpy(model, saved, cap_ids * sizeof *model);
            c.rolled_back++;
        }
        c.batches++;
        ODBCT_OK(SQL_HANDLE_DBC, dbc, SQLSetConnectAttr(dbc,
                 SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0));
        same_as_model();
        seeks_equal_scans();
        odbct_disconnect(env, dbc);
        jet_test_jetcheck_verify(path);
        odbct_connect(&env, &dbc, cs);
        same_as_model();
    }
    odbct_disconnect(env, dbc);
    fprintf(stderr, "test_odbc_indexprop: seed %llu: %u statements (%u "
            "INSERT, %u UPDATE, %u DELETE; %u refused with 23000) in %u "
            "batches (%u rolled back), %u seek/scan comparisons, %zu rows "
            "at the end\n", (unsigned long long)seed, done, c.ins, c.upd,
            c.del, c.dup, c.batches, c.rolled_back, probes_done,
            live_count());
    unlink(path);
    free(model);
    free(saved);
}
END_TEST

static Suite *indexprop_suite(void)
{
    Suite *s = suite_create("odbc_indexprop");
    TCase *tc = tcase_create("sql");
    tcase_set_timeout(tc, 3600);
    tcase_add_test(tc, sql_writes_keep_seeks_equal_to_scans);
    suite_add_tcase(s, tc);
    return s;
}

ODBCT_MAIN(indexprop_suite)
