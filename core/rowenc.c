/*
 * rowenc.c - encode values, long-value headers and rows: the inverses of
 * value.c, text.c (Jet4 text), lval.c (the row-side header) and row.c.
 *
 * Values are written as value.c reads them: integers and floating point
 * little-endian; MONEY an int64 of 1/10000 units; DATETIME the double;
 * GUID the 16 bytes as stored; NUMERIC a sign byte (0x80 negative, as
 * Access and Jackcess write it) and four 32-bit little-endian words, most
 * significant first (the first is always 0: 96-bit magnitudes).
 * Rows follow Jackcess TableImpl.createRow (layout in encode.h); text
 * compression follows Access: see jet_text_encode.
 * Format: mdbtools HACKING.md "Data Pages", "LVAL Pages"; Jackcess
 * TableImpl, ColumnImpl, LongValueColumnImpl.
 * Invariant: nothing is written past cap; a failed call leaves out's
 * contents unspecified but in bounds.
 */
#include <string.h>

#include "bytes.h"
#include "encode.h"

#define NUMERIC_NEGATIVE 0x80
#define LVAL_HEADER_LEN 12

/* Does the 96-bit little-endian magnitude mag fit `digits` decimal digits
 * (mag < 10^digits)? */
static bool numeric_fits(const uint8_t mag[12], unsigned digits)
{
    uint64_t lo = jet_get_u64(mag), hi = jet_get_u32(mag + 8);
    uint64_t plo = 1, phi = 0;   /* 10^digits as (phi:plo), 128 bits */
    if (digits >= 29)
        return true;             /* 10^29 > 2^96 */
    for (unsigned i = 0; i < digits; i++) {
        /* (phi:plo) *= 10 */
        uint64_t l8 = plo << 3, l2 = plo << 1;
        uint64_t h = (phi << 3) + (phi << 1) + (plo >> 61) + (plo >> 63);
        uint64_t l = l8 + l2;
        h += l < l8;
        phi = h;
        plo = l;
    }
    return hi < phi || (hi == phi && lo < plo);
}

#define CALC_LEN_OFFSET 16
#define CALC_DATA_OFFSET 20
#define CALC_EXTRA_LEN 23       /* the header and 3 trailing zero bytes */

jet_rc jet_calc_value_encode(uint8_t *out, size_t cap, size_t *out_len,
                             const jet_column *col, const jet_value *v)
{
    jet_column plain;
    size_t n = 0;
    uint8_t *d = out + CALC_DATA_OFFSET;
    jet_rc rc;

    *out_len = 0;
    if (v->is_null || v->type != col->result_type)
        return JET_EUNSUPPORTED;
    switch (v->type) {
    case JET_T_BOOL:
        n = 1;
        break;
    case JET_T_TEXT: case JET_T_MEMO:
        if (v->enc != JET_ENC_UCS2 || (v->len & 1) || (v->len && !v->data))
            return JET_EUNSUPPORTED;
        n = v->len;
        break;
    case JET_T_NUMERIC:
        n = 16;
        break;
    case JET_T_BYTE: case JET_T_INT: case JET_T_LONG: case JET_T_MONEY:
    case JET_T_FLOAT: case JET_T_DOUBLE: case JET_T_DATETIME:
    case JET_T_GUID: case JET_T_BIGINT:
        n = 16;                 /* at most; jet_value_encode says */
        break;
    default:
        return JET_EUNSUPPORTED;
    }
    if (cap < CALC_EXTRA_LEN || n > cap - CALC_EXTRA_LEN)
        return JET_ELIMIT;
    memset(out, 0, CALC_DATA_OFFSET);
    switch (v->type) {
    case JET_T_BOOL:
        d[0] = v->u.b ? 0xFF : 0x00;
        break;
    case JET_T_TEXT: case JET_T_MEMO:
        if (n)
            memcpy(d, v->data, n);
        break;
    case JET_T_NUMERIC:
        /* a Windows DECIMAL after a 2-byte length: scale, sign, then
         * Hi32, Lo32, Mid32 of the magnitude */
        if (v->u.num.scale > 28)
            return JET_ELIMIT;
        jet_put_u16(d, 14);
        d[2] = v->u.num.scale;
        d[3] = v->u.num.negative ? NUMERIC_NEGATIVE : 0;
        memcpy(d + 4, v->u.num.mag + 8, 4);     /* Hi32 */
        memcpy(d + 8, v->u.num.mag, 4);         /* Lo32 */
        memcpy(d + 12, v->u.num.mag + 4, 4);    /* Mid32 */
        break;
    default:
        plain = *col;
        plain.type = col->result_type;
        plain.flags = (uint16_t)(col->flags & ~JET_COL_CALCULATED);
        rc = jet_value_encode(d, n, &n, &plain, v);
        if (rc != JET_OK)
            return rc;
        break;
    }
    jet_put_u32(out + CALC_LEN_OFFSET, (uint32_t)n);
    memset(d + n, 0, 3);
    *out_len = n + CALC_EXTRA_LEN;
    return JET_OK;
}

jet_rc jet_value_encode(uint8_t *out, size_t cap, size_t *out_len,
                        const jet_column *col, const jet_value *v)
{
    size_t n;

    *out_len = 0;
    if (v->type != col->type || (col->flags & JET_COL_CALCULATED))
        return JET_EUNSUPPORTED;
    switch (col->type) {
    case JET_T_BYTE: n = 1; break;
    case JET_T_INT: n = 2; break;
    case JET_T_LONG: case JET_T_FLOAT: case JET_T_COMPLEX: n = 4; break;
    case JET_T_MONEY: case JET_T_DOUBLE: case JET_T_DATETIME:
    case JET_T_BIGINT: n = 8; break;
    case JET_T_GUID: n = 16; break;
    case JET_T_NUMERIC: n = 17; break;
    case JET_T_BINARY: case JET_T_EXT_DATETIME:
        n = v->len;
        if (col->type == JET_T_EXT_DATETIME && n != 42)
            return JET_EUNSUPPORTED;
        if (n > col->length || (n && !v->data))
            return JET_ELIMIT;
        break;
    default:
        return JET_EUNSUPPORTED;
    }
    if (n > cap)
        return JET_ELIMIT;
    switch (col->type) {
    case JET_T_BYTE:
        if (v->u.i < 0 || v->u.i > 255)
            return JET_ELIMIT;
        out[0] = (uint8_t)v->u.i;
        break;
    case JET_T_INT:
        if (v->u.i < INT16_MIN || v->u.i > INT16_MAX)
            return JET_ELIMIT;
        jet_put_u16(out, (uint32_t)v->u.i);
        break;
    case JET_T_LONG: case JET_T_COMPLEX:
        if (v->u.i < INT32_MIN || v->u.i > INT32_MAX)
            return JET_ELIMIT;
        jet_put_u32(out, (uint32_t)v->u.i);
        break;
    case JET_T_MONEY:
        jet_put_u64(out, (uint64_t)v->u.money);
        break;
    case JET_T_BIGINT:
        jet_put_u64(out, (uint64_t)v->u.i);
        break;
    case JET_T_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &v->u.f, 4);
        jet_put_u32(out, bits);
        break;
    }
    case JET_T_DOUBLE: case JET_T_DATETIME: {
        uint64_t bits;
        memcpy(&bits, &v->u.d, 8);
        jet_put_u64(out, bits);
        break;
    }
    case JET_T_GUID:
        memcpy(out, v->u.guid, 16);
        break;
    case JET_T_NUMERIC:
        if (v->u.num.scale != col->scale)
            return JET_EUNSUPPORTED;
        if (!numeric_fits(v->u.num.mag, col->precision))
            return JET_ELIMIT;
        out[0] = v->u.num.negative ? NUMERIC_NEGATIVE : 0;
        memset(out + 1, 0, 4);                    /* bits 96..127 */
        memcpy(out + 5, v->u.num.mag + 8, 4);     /* bits 64..95 */
        memcpy(out + 9, v->u.num.mag + 4, 4);     /* bits 32..63 */
        memcpy(out + 13, v->u.num.mag, 4);        /* bits 0..31 */
        break;
    default:
        if (n)
            memcpy(out, v->data, n);
        break;
    }
    *out_len = n;
    return JET_OK;
}

/* ------------------------------------------------------------------ text */

/* Can unit u be written as one byte of a compressed run? */
static inline bool one_byte(uint16_t u)
{
    return u >= 0x01 && u <= 0xFF;
}

/*
 * Compressed Unicode: start compressed; a unit that needs two bytes
 * switches to UTF-16 (00 toggle) and the next one-byte unit switches
 * back. A UTF-16 run never holds a one-byte unit: its high byte 00 would
 * read as a toggle (readers such as Jackcess take every 00 byte of the
 * value for one, and Access writes nothing else). Returns the length, or
 * 0 when it is not shorter than 2 * n or does not fit cap.
 */
static size_t compress_text(uint8_t *out, size_t cap, const uint16_t *s,
                            size_t n)
{
    size_t o = 0, i = 0;
    bool comp = true;

    if (cap < 2)
        return 0;
    out[o++] = 0xFF;
    out[o++] = 0xFE;
    while (i < n) {
        if (o + 3 > cap || o + 3 > 2 * n + 1)
            return 0;
        if (comp) {
            if (one_byte(s[i])) {
                out[o++] = (uint8_t)s[i++];
                continue;
            }
            out[o++] = 0;
            comp = false;
            continue;
        }
        if (one_byte(s[i])) {
            out[o++] = 0;
            comp = true;
            continue;
        }
        out[o++] = (uint8_t)s[i];
        out[o++] = (uint8_t)(s[i] >> 8);
        i++;
    }
    return o < 2 * n ? o : 0;
}

size_t jet_text_encode(uint8_t *out, size_t cap, const uint16_t *s,
                       size_t n, bool compress)
{
    if (compress && n > 0 && n <= JET_TEXT_COMPRESS_MAX_UNITS) {
        bool ok = true;
        for (size_t i = 0; i < n && ok; i++)
            ok = (s[i] & 0xFF) != 0;
        if (ok) {
            size_t len = compress_text(out, cap, s, n);
            if (len)
                return len;
        }
    }
    if (2 * n > cap)
        return 0;
    for (size_t i = 0; i < n; i++)
        jet_put_u16(out + 2 * i, s[i]);
    return 2 * n;
}

/* ----------------------------------------------------------- long values */

jet_lval_kind jet_lval_kind_for(size_t len, size_t room)
{
    if (len <= JET_LVAL_INLINE_MAX && LVAL_HEADER_LEN + len <= room)
        return JET_LVAL_INLINE;
    if (len <= JET_LVAL_SINGLE_MAX)
        return JET_LVAL_SINGLE;
    return JET_LVAL_CHAIN;
}

jet_rc jet_lval_header(uint8_t hdr[12], jet_lval_kind kind, size_t len,
                       uint32_t pgno, uint8_t row)
{
    if (len >= 0x40000000u || pgno > 0xFFFFFFu)
        return JET_ELIMIT;
    jet_put_u32(hdr, (uint32_t)len | (uint32_t)kind << 24);
    if (kind == JET_LVAL_INLINE)
        jet_put_u32(hdr + 4, 0);
    else
        jet_put_u32(hdr + 4, pgno << 8 | row);
    jet_put_u32(hdr + 8, 0);
    return JET_OK;
}

size_t jet_lval_chain_row(uint8_t *out, size_t cap, uint32_t next_pgno,
                          uint8_t next_row, const uint8_t *data, size_t n)
{
    if (cap < 4 || n > cap - 4 || next_pgno > 0xFFFFFFu)
        return 0;
    jet_put_u32(out, next_pgno ? next_pgno << 8 | next_row : 0);
    if (n)
        memcpy(out + 4, data, n);
    return 4 + n;
}

/* ------------------------------------------------------------------ rows */

jet_rc jet_row_encode(uint8_t *out, size_t cap, size_t *out_len,
                      const jet_format *fmt, const jet_tdef_priv *t,
                      const jet_cell *cells, jet_error *err)
{
    const jet_tdef *pub = &t->pub;
    size_t ncols = t->max_cols, nvar = t->num_var_cols;
    size_t mask_len = (ncols + 7) / 8;
    size_t fixed_end = 2, pos, trailer;
    uint16_t var_off[JET_MAX_VAR_OFFSETS];
    /* var slot -> column position (or -1) */
    int16_t var_col[JET_MAX_VAR_OFFSETS];
    size_t limit = cap < JET_MAX_ROW_LEN ? cap : JET_MAX_ROW_LEN;

    *out_len = 0;
    if (fmt->jet3)
        return jet_fail(err, JET_EUNSUPPORTED, t->pub.pgno,
                        "Jet3 rows are not written");
    if (nvar >= JET_MAX_VAR_OFFSETS)
        return jet_fail(err, JET_ECORRUPT, t->pub.pgno,
                        "%zu variable columns", nvar);
    for (size_t k = 0; k < nvar; k++)
        var_col[k] = -1;
    /* fixed area: as long as the furthest fixed column */
    for (uint16_t i = 0; i < pub->ncols; i++) {
        const jet_column *c = &pub->cols[i];
        if (c->col_num >= ncols)
            return jet_fail(err, JET_ECORRUPT, t->pub.pgno,
                            "column %s numbered %u of %zu", c->name,
                            c->col_num, ncols);
        if (c->flags & JET_COL_FIXED) {
            size_t end = 2 + (size_t)c->fixed_offset +
                         (c->type == JET_T_BOOL ? 0 : jet_fixed_size(c));
            if (end > fixed_end)
                fixed_end = end;
        } else {
            if (c->var_index >= nvar || var_col[c->var_index] >= 0)
                return jet_fail(err, JET_ECORRUPT, t->pub.pgno,
                                "column %s has var slot %u of %zu", c->name,
                                c->var_index, nvar);
            var_col[c->var_index] = (int16_t)i;
        }
    }
    trailer = mask_len + (nvar ? 2 * nvar + 4 : 0);
    if (fixed_end + trailer > limit)
        goto too_long;
    memset(out, 0, fixed_end);
    memset(out + limit - mask_len, 0, mask_len);
    jet_put_u16(out, (uint32_t)ncols);
    /* the null mask is built at the end of the buffer, moved into place */
    {
        uint8_t *mask = out + limit - mask_len;
        for (uint16_t i = 0; i < pub->ncols; i++) {
            const jet_column *c = &pub->cols[i];
            const jet_cell *x = &cells[i];
            bool bit = c->type == JET_T_BOOL ? x->bit : !x->is_null;
            if (bit)
                mask[c->col_num / 8] |= (uint8_t)(1u << (c->col_num % 8));
            if (!(c->flags & JET_COL_FIXED) || c->type == JET_T_BOOL ||
                x->is_null)
                continue;
            if (x->len != jet_fixed_size(c) || !x->data)
                return jet_fail(err, JET_ELIMIT, t->pub.pgno,
                                "column %s: %zu bytes for a %zu-byte "
                                "fixed column", c->name, x->len,
                                jet_fixed_size(c));
            memcpy(out + 2 + c->fixed_offset, x->data, x->len);
        }
    }
    pos = fixed_end;
    for (size_t k = 0; k < nvar; k++) {
        const jet_cell *x;
        var_off[k] = (uint16_t)pos;
        if (var_col[k] < 0)
            continue;
        x = &cells[var_col[k]];
        if (x->is_null || x->len == 0)
            continue;
        if (x->len > limit - trailer - pos)
            goto too_long;
        memcpy(out + pos, x->data, x->len);
        pos += x->len;
    }
    if (nvar) {
        jet_put_u16(out + pos, (uint32_t)pos);   /* eod */
        pos += 2;
        for (size_t k = nvar; k-- > 0;) {
            jet_put_u16(out + pos, var_off[k]);
            pos += 2;
        }
        jet_put_u16(out + pos, (uint32_t)nvar);
        pos += 2;
    }
    memmove(out + pos, out + limit - mask_len, mask_len);
    pos += mask_len;
    *out_len = pos;
    return JET_OK;
too_long:
    return jet_fail(err, JET_ELIMIT, t->pub.pgno,
                    "row of table %s longer than %zu bytes", pub->name,
                    limit);
}
