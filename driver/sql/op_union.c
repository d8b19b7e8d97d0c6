/*
 * op_union.c - UNION [ALL]: read every branch (a child cursor each, in
 * order) into records of the union's column types, keyed for DISTINCT
 * (UNION without ALL) and for the ORDER BY over the union (output
 * columns, st->order_out). exec.c then removes duplicates, sorts and
 * applies OFFSET / LIMIT as for any materialized result.
 * A value whose type differs from the union column's (a branch giving
 * INT where another gives DOUBLE or TEXT) is converted through sv.
 * UNION without ALL keeps the first 255 characters of a Memo column's
 * values, as Jet does when it de-duplicates Memo values (bind.c
 * long_value_rules does the same for DISTINCT): rows equal on those
 * characters are one row, and the values come back cut (Allen Browne,
 * "Truncation of Memo fields": use UNION ALL to keep them whole).
 */
#include "config.h"

#include "cursor.h"
#include "eval.h"
#include "sort.h"
#include "values.h"

#include <stdlib.h>
#include <string.h>

/* characters of a Memo that Jet compares when it removes duplicates */
#define MEMO_CMP_CHARS 255

int sql_union_collect(sql_cursor *c)
{
    const sql_stmt *st = c->st;
    size_t nc = st->ncols, nk = c->nkeys;
    int ret = -1;
    uint16_t **u16 = calloc(nk ? nk : 1, sizeof *u16);
    size_t *cap = calloc(nk ? nk : 1, sizeof *cap);
    if (!u16 || !cap) {
        free(u16);
        free(cap);
        return sql_cursor_fail_rc(c, JET_ENOMEM, NULL);
    }
    uint16_t *cu16 = NULL;
    size_t ccap = 0;
    for (size_t b = 0; b < st->nbranch; b++) {
        sql_cursor *k;
        if (sql_cursor_open_child(&k, st->branch[b], c, c->params) != 0)
            goto out;
        for (;;) {
            int rc = sql_cursor_next(k);
            if (rc == JET_DONE)
                break;
            if (rc < 0) {
                c->err = *sql_cursor_error(k);
                sql_cursor_close(k);
                goto out;
            }
            sql_tmp_reset(c);
            for (size_t i = 0; i < nc; i++) {
                jet_value v;
                if (sql_cursor_value(k, i, &v) != 0) {
                    c->err = *sql_cursor_error(k);
                    sql_cursor_close(k);
                    goto out;
                }
                jet_type want = st->cols[i].meta.type;
                bool cut = st->union_distinct && want == JET_T_MEMO;
                if (!v.is_null && (v.type != want || cut)) {
                    sv s;
                    int r = sql_value_to_sv(c, &v, &s, &cu16, &ccap);
                    if (r == 0 && cut && s.k == K_TEXT && s.n > MEMO_CMP_CHARS)
                        s.n = MEMO_CMP_CHARS;
                    if (r != 0 || sql_sv_to_value(c, &s, want, &c->obuf[i],
                                                  &c->ocap[i], &v) != 0) {
                        sql_cursor_fail(c, "22018", 0, "Data type mismatch "
                                        "in UNION column %zu", i + 1);
                        sql_cursor_close(k);
                        goto out;
                    }
                }
                if (v.is_null)
                    v.type = want;
                c->vtmp[i] = v;
            }
            for (size_t j = 0; j < nk; j++) {
                size_t col = j < st->norder ? st->order_out[j]
                                            : j - st->norder;
                if (sql_value_to_sv(c, &c->vtmp[col], &c->ktmp[j], &u16[j],
                                    &cap[j]) != 0) {
                    sql_cursor_close(k);
                    goto out;
                }
                if (c->ktmp[j].k == K_GUID)
                    c->ktmp[j].p = c->vtmp[col].u.guid;
            }
            if (sql_add_record(c) != 0) {
                sql_cursor_close(k);
                goto out;
            }
        }
        sql_cursor_close(k);
    }
    ret = 0;
out:
    for (size_t j = 0; j < nk; j++)
        free(u16[j]);
    free(u16);
    free(cap);
    free(cu16);
    return ret;
}
