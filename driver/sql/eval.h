/*
 * eval.h - the expression evaluator (eval.c): an enode's value for the
 * cursor's current row, the column cache it reads, the cursor's per-row
 * scratch and the errors recorded on a cursor.
 */
#ifndef JET_DRIVER_SQL_EVAL_H
#define JET_DRIVER_SQL_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

/** Evaluate e for the cursor's current row into *out. Returns 0 or -1
 *  with c->err set (22018, 22003, 22012, core errors). */
int sql_eval(sql_cursor *c, const enode *e, sv *out);
/** Truth of a condition: 1 true, 0 false or NULL, -1 error. */
int sql_eval_cond(sql_cursor *c, const enode *e);
/** Per-row scratch allocation (reset by sql_tmp_reset). */
void *sql_tmp_alloc(sql_cursor *c, size_t bytes);
void sql_tmp_reset(sql_cursor *c);
void sql_tmp_free(tmp_chunk **list);
/* Keep list's newest chunk, emptied, for a parked cursor's next run
 * (exec.c); free the others. */
void sql_tmp_keep_one(tmp_chunk **list);
/** Allocation from a chunk list that is never reset (records). */
void *sql_chunk_alloc(tmp_chunk **list, size_t bytes);
/** sql_col_sv's work when the row's sv is not cached yet. */
int sql_col_sv_read(sql_cursor *c, uint16_t tab, uint16_t col, sv *out);
/** sql_col_value's work for a row that is not a stored one. */
int sql_col_value_read(sql_cursor *c, uint16_t tab, uint16_t col,
                       const jet_value **out);

/** sv of column col of table tab's current row (cached per row): 0, or
 *  -1 (c failed). Inline: a join pair reads its columns this way. */
static inline int sql_col_sv(sql_cursor *c, uint16_t tab, uint16_t col,
                             sv *out)
{
    const tcur *t = &c->t[tab];
    const colcache *cc = &t->cc[col];
    if (cc->sgen == t->gen) {
        *out = cc->s;
        return 0;
    }
    return sql_col_sv_read(c, tab, col, out);
}

/** jet_value of column col of table tab's current row: a stored row's
 *  own value (valid while the row is current), else read and cached per
 *  row. 0, or -1 (c failed). */
static inline int sql_col_value(sql_cursor *c, uint16_t tab, uint16_t col,
                                const jet_value **out)
{
    const tcur *t = &c->t[tab];
    if (t->vals && !t->null_row) {
        *out = &t->vals[col];
        return 0;
    }
    return sql_col_value_read(c, tab, col, out);
}

/** sql_eval, with a column of the block's own tables and a constant
 *  taken without the general evaluator's call (the operands of
 *  comparisons, arithmetic and aggregates, per joined row). */
static inline int sql_eval_leaf(sql_cursor *c, const enode *e, sv *out)
{
    if (e->op == N_COL && !e->up)
        return sql_col_sv(c, e->tab, e->col, out);
    if (e->op == N_CONST) {
        *out = e->konst;
        return 0;
    }
    return sql_eval(c, e, out);
}
/** jet_value -> sv; text through jet_text_to_utf16 into *u16 (grown). */
int sql_value_to_sv(sql_cursor *c, const jet_value *v, sv *s,
                    uint16_t **u16, size_t *cap);
/** Record a core failure on c (sqlstate from rc). Returns -1. */
int sql_cursor_fail_rc(sql_cursor *c, int rc, const jet_error *je);
/** Record an error on c. Returns -1. */
int sql_cursor_fail(sql_cursor *c, const char *state, size_t pos,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** The column type a value of s's kind is given where no column decides
 *  it (an expression's output, a bare parameter): Long for an integer in
 *  32 bits, else BigInt; Memo for text; OLE for binary; null_type for a
 *  NULL. What sql_cursor_value_own reports and dml.c coerces from. */
jet_type sql_sv_type(const sv *s, jet_type null_type);

/** sv -> jet_value of the given type; text goes as UTF-16LE into *buf
 *  (grown with realloc, owned by the caller). -1 when not convertible. */
int sql_sv_to_value(sql_cursor *c, const sv *v, jet_type type,
                    uint8_t **buf, size_t *cap, jet_value *out);

#endif
