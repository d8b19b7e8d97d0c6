/*
 * scroll.c - the static cursor's row store and SQLFetchScroll's
 * positioning rules (see scroll.h).
 *
 * Store layout: one byte stream of encoded rows; offs[k] is where row k
 * starts (offs[rows] = the stream's end). The stream's first file_len
 * bytes are in the temporary file, the rest (tail) in memory; when the
 * tail passes mem_cap it is appended to the file whole. A row read from
 * the file is read with the bytes after it, up to a block, so that rows
 * read in order cost one read per block.
 *
 * Encoded value (8-byte aligned): type, is_null, enc, 0, u32 span length;
 * unless NULL, the value's scalar union (ODBC_U_LEN bytes), then the span
 * bytes padded to 8.
 */
#include "config.h"

#include "scroll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sql.h>
#include <sqlext.h>

#include "sql/spill.h"

#define ODBC_U_LEN ((sizeof(((jet_value *)0)->u) + 7) / 8 * 8)
#define READ_BLOCK ((size_t)64 << 10)

struct odbc_rowstore {
    uint16_t ncols;
    size_t mem_cap;
    uint64_t rows;
    uint64_t *offs;         /* rows + 1 entries */
    size_t offs_cap;
    sql_spill *file;        /* NULL until the tail first overflows */
    uint64_t file_len;      /* stream bytes in the file */
    sql_wbuf tail;          /* stream bytes after file_len */
    uint8_t *rbuf;          /* bytes [rb_off, rb_off + rb_len) of the file */
    size_t rb_cap, rb_len;
    uint64_t rb_off;
};

jet_rc odbc_rowstore_open(odbc_rowstore **out, uint16_t ncols,
                          size_t mem_cap)
{
    *out = NULL;
    odbc_rowstore *st = calloc(1, sizeof *st);
    if (!st)
        return JET_ENOMEM;
    st->ncols = ncols;
    st->mem_cap = mem_cap ? mem_cap : ODBC_ROWSTORE_MEM;
    if (sql_grow((void **)&st->offs, &st->offs_cap, 1, sizeof *st->offs)) {
        free(st);
        return JET_ENOMEM;
    }
    st->offs[0] = 0;
    *out = st;
    return JET_OK;
}

void odbc_rowstore_free(odbc_rowstore *st)
{
    if (!st)
        return;
    sql_spill_close(st->file);
    free(st->offs);
    free(st->tail.p);
    free(st->rbuf);
    free(st);
}

uint64_t odbc_rowstore_rows(const odbc_rowstore *st)
{
    return st->rows;
}

/* Move the in-memory tail to the file. */
static jet_rc flush_tail(odbc_rowstore *st, int *err_no)
{
    if (!st->file) {
        int e = sql_spill_open(&st->file, READ_BLOCK);
        if (e) {
            *err_no = e;
            return e == ENOMEM ? JET_ENOMEM : JET_EIO;
        }
    }
    if (sql_spill_append(st->file, st->tail.p, st->tail.len, NULL) != 0) {
        *err_no = sql_spill_errno(st->file);
        return *err_no ? JET_EIO : JET_ENOMEM;
    }
    st->file_len += st->tail.len;
    st->tail.len = 0;
    return JET_OK;
}

jet_rc odbc_rowstore_append(odbc_rowstore *st, const jet_value *vals,
                            int *err_no)
{
    *err_no = 0;
    if (sql_grow((void **)&st->offs, &st->offs_cap, st->rows + 2,
                 sizeof *st->offs))
        return JET_ENOMEM;
    size_t start = st->tail.len;
    for (uint16_t i = 0; i < st->ncols; i++) {
        const jet_value *v = &vals[i];
        size_t len = v->is_null || !v->data ? 0 : v->len;
        if (len > UINT32_MAX - 8) {
            st->tail.len = start;
            return JET_ELIMIT;
        }
        uint8_t h[8] = {(uint8_t)v->type, v->is_null ? 1 : 0,
                        (uint8_t)v->enc, 0};
        uint32_t l32 = (uint32_t)len;
        memcpy(h + 4, &l32, 4);
        if (sql_wbuf_put(&st->tail, h, sizeof h) != 0)
            goto nomem;
        if (v->is_null)
            continue;
        uint8_t u[ODBC_U_LEN];
        memset(u, 0, sizeof u);
        memcpy(u, &v->u, sizeof v->u);
        if (sql_wbuf_put(&st->tail, u, sizeof u) != 0 ||
            (len && sql_wbuf_put(&st->tail, v->data, len) != 0) ||
            sql_wbuf_align(&st->tail) != 0)
            goto nomem;
    }
    st->rows++;
    st->offs[st->rows] = st->file_len + st->tail.len;
    if (st->tail.len > st->mem_cap)
        return flush_tail(st, err_no);
    return JET_OK;
nomem:
    st->tail.len = start;
    return JET_ENOMEM;
}

/* The bytes of stream range [off, off + len) into *p. */
static jet_rc stream_bytes(odbc_rowstore *st, uint64_t off, size_t len,
                           const uint8_t **p, int *err_no)
{
    if (off >= st->file_len) {
        *p = st->tail.p + (off - st->file_len);
        return JET_OK;
    }
    if (off >= st->rb_off && off + len <= st->rb_off + st->rb_len) {
        *p = st->rbuf + (off - st->rb_off);
        return JET_OK;
    }
    size_t want = len > READ_BLOCK ? len : READ_BLOCK;
    if (want > st->file_len - off)
        want = (size_t)(st->file_len - off);
    if (want < len)
        return JET_ECORRUPT;    /* a row spans file and tail: never */
    if (want > st->rb_cap) {
        /* 8-aligned (malloc): decoded values are read in place */
        uint8_t *b = realloc(st->rbuf, want);
        if (!b)
            return JET_ENOMEM;
        st->rbuf = b;
        st->rb_cap = want;
    }
    st->rb_len = 0;
    if (sql_spill_read(st->file, st->rbuf, want, off) != 0) {
        *err_no = sql_spill_errno(st->file);
        return JET_EIO;
    }
    st->rb_off = off;
    st->rb_len = want;
    *p = st->rbuf;
    return JET_OK;
}

jet_rc odbc_rowstore_get(odbc_rowstore *st, uint64_t k, jet_value *vals,
                         int *err_no)
{
    *err_no = 0;
    if (k >= st->rows)
        return JET_ENOTFOUND;
    uint64_t off = st->offs[k];
    size_t len = (size_t)(st->offs[k + 1] - off);
    const uint8_t *p;
    jet_rc rc = stream_bytes(st, off, len, &p, err_no);
    if (rc != JET_OK)
        return rc;
    const uint8_t *end = p + len;
    for (uint16_t i = 0; i < st->ncols; i++) {
        jet_value *v = &vals[i];
        memset(v, 0, sizeof *v);
        if ((size_t)(end - p) < 8)
            return JET_ECORRUPT;
        uint32_t l32;
        memcpy(&l32, p + 4, 4);
        v->type = (jet_type)p[0];
        v->is_null = p[1] != 0;
        v->enc = (jet_text_enc)p[2];
        p += 8;
        if (v->is_null)
            continue;
        size_t pad = ((size_t)l32 + 7) / 8 * 8;
        if ((size_t)(end - p) < ODBC_U_LEN ||
            (size_t)(end - p) - ODBC_U_LEN < pad)
            return JET_ECORRUPT;
        memcpy(&v->u, p, sizeof v->u);
        p += ODBC_U_LEN;
        v->len = l32;
        v->data = l32 ? p : NULL;
        p += pad;
    }
    return JET_OK;
}

/* ------------------------------------------------------ positioning */

/* The ABSOLUTE rule for offset off. */
static int target_absolute(uint64_t *out, bool *warn, int64_t off,
                           uint64_t n, odbc_rows_upto_fn upto, void *ctx)
{
    if (off == 0) {
        *out = 0;
        return 0;
    }
    if (off > 0) {
        int64_t have = upto(ctx, (uint64_t)off);
        if (have < 0)
            return -1;
        *out = have < off ? ODBC_POS_AFTER : (uint64_t)off;
        return 0;
    }
    int64_t last = upto(ctx, UINT64_MAX);
    if (last < 0)
        return -1;
    uint64_t back = off == INT64_MIN ? (uint64_t)INT64_MAX + 1
                                      : (uint64_t)-off;
    if (back <= (uint64_t)last)
        *out = (uint64_t)last - back + 1;
    else if (back > n)
        *out = 0;
    else {
        *out = 1;
        *warn = true;
    }
    return 0;
}

/* Row t if it exists, else after the end. */
static int target_row(uint64_t *out, uint64_t t, odbc_rows_upto_fn upto,
                      void *ctx)
{
    int64_t have = upto(ctx, t);
    if (have < 0)
        return -1;
    *out = (uint64_t)have < t ? ODBC_POS_AFTER : t;
    return 0;
}

int odbc_scroll_target(uint64_t *out, bool *warn_01s06,
                       const odbc_scroll_req *rq, odbc_rows_upto_fn upto,
                       void *ctx)
{
    uint64_t cur = rq->cur, n = rq->n ? rq->n : 1;
    int64_t off = rq->offset;
    *warn_01s06 = false;
    *out = 0;
    switch (rq->orientation) {
    case SQL_FETCH_NEXT:
        if (cur == 0)
            return target_row(out, 1, upto, ctx);
        if (cur == ODBC_POS_AFTER) {
            *out = ODBC_POS_AFTER;
            return 0;
        }
        return target_row(out, cur + (rq->prev_n ? rq->prev_n : n), upto,
                          ctx);
    case SQL_FETCH_PRIOR:
        if (cur == 0)
            return 0;
        if (cur == ODBC_POS_AFTER) {
            int64_t last = upto(ctx, UINT64_MAX);
            if (last < 0)
                return -1;
            if (last == 0)
                *out = 0;
            else
                *out = (uint64_t)last < n ? 1 : (uint64_t)last - n + 1;
            return 0;
        }
        if (cur == 1)
            return 0;
        if (cur <= n) {
            *out = 1;
            *warn_01s06 = true;
            return 0;
        }
        *out = cur - n;
        return 0;
    case SQL_FETCH_FIRST:
        return target_row(out, 1, upto, ctx);
    case SQL_FETCH_LAST: {
        int64_t last = upto(ctx, UINT64_MAX);
        if (last < 0)
            return -1;
        if (last == 0)
            *out = ODBC_POS_AFTER;
        else
            *out = n <= (uint64_t)last ? (uint64_t)last - n + 1 : 1;
        return 0;
    }
    case SQL_FETCH_ABSOLUTE:
        return target_absolute(out, warn_01s06, off, n, upto, ctx);
    case SQL_FETCH_RELATIVE:
        if ((cur == 0 && off > 0) || (cur == ODBC_POS_AFTER && off < 0))
            return target_absolute(out, warn_01s06, off, n, upto, ctx);
        if (cur == 0) {
            *out = 0;
            return 0;
        }
        if (cur == ODBC_POS_AFTER) {
            *out = ODBC_POS_AFTER;
            return 0;
        }
        if (off < 0 && (uint64_t)-(off + 1) + 1 >= cur) {
            /* before the first row */
            uint64_t back = (uint64_t)-(off + 1) + 1;
            if (cur == 1 || back > n)
                *out = 0;
            else {
                *out = 1;
                *warn_01s06 = true;
            }
            return 0;
        }
        if (off < 0)
            *out = cur - ((uint64_t)-(off + 1) + 1);
        else if ((uint64_t)off > UINT64_MAX - 1 - cur)
            *out = ODBC_POS_AFTER;
        else
            return target_row(out, cur + (uint64_t)off, upto, ctx);
        return 0;
    case SQL_FETCH_BOOKMARK: {
        uint64_t b = rq->bookmark_row;
        if (off < 0 && (uint64_t)-(off + 1) + 1 >= b) {
            *out = 0;
            return 0;
        }
        uint64_t t = off < 0 ? b - ((uint64_t)-(off + 1) + 1)
                             : b + (uint64_t)off;
        return target_row(out, t, upto, ctx);
    }
    default:
        return 0;
    }
}
