/*
 * value.c - decode one column of a parsed row into a jet_value.
 *
 * Fixed-size scalars are read straight from the row; TEXT/BINARY are spans
 * borrowed from the (pinned) row; MEMO/OLE are assembled by lval.c into the
 * caller's scratch buffer. Calculated columns (ACE) wrap their stored value:
 * 4-byte data length at 16, data from 20; a calculated NUMERIC carries its
 * own scale: it is a Windows DECIMAL (reserved 2, scale, sign, Hi32, Lo32,
 * Mid32); Jackcess CalculatedColumnUtil reads the same bytes.
 * Numeric: sign byte (non-zero = negative), then four 32-bit little-endian
 * words, most significant first.
 * Format: mdbtools HACKING.md; Jackcess ColumnImpl, CalculatedColumnUtil.
 */
#include <string.h>

#include "bytes.h"
#include "internal.h"

#define CALC_LEN_OFFSET 16
#define CALC_DATA_OFFSET 20

/* Strip a calculated-column wrapper from (data, len) in place. */
static void unwrap_calc(const uint8_t **data, size_t *len)
{
    uint32_t n;
    if (*len < CALC_DATA_OFFSET)
        return;
    n = jet_get_u32(*data + CALC_LEN_OFFSET);
    if (n > *len - CALC_DATA_OFFSET)
        n = (uint32_t)(*len - CALC_DATA_OFFSET);
    *data += CALC_DATA_OFFSET;
    *len = n;
}

/* 16 bytes = four LE words, most significant first -> 96-bit LE mag. */
static bool numeric_mag(const uint8_t *w, size_t nbytes, uint8_t mag[12])
{
    uint8_t full[16] = { 0 };
    size_t nwords = nbytes / 4;
    /* words are right-aligned: the last stored word is least significant */
    for (size_t i = 0; i < nwords; i++) {
        size_t rank = nwords - 1 - i;   /* 0 = least significant */
        memcpy(full + rank * 4, w + i * 4, 4);
    }
    memcpy(mag, full, 12);
    return full[12] == 0 && full[13] == 0 && full[14] == 0 && full[15] == 0;
}

static jet_text_enc text_enc(const jet_db *db, const uint8_t *p, size_t len)
{
    if (db->fmt->jet3)
        return JET_ENC_CODEPAGE;
    if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE)
        return JET_ENC_COMPRESSED;
    return JET_ENC_UCS2;
}

static jet_rc need(size_t len, size_t n, const jet_column *col, uint32_t pgno,
                   jet_error *err)
{
    if (len < n)
        return jet_fail(err, JET_ECORRUPT, pgno,
                        "column %s: %zu bytes, %zu expected", col->name, len,
                        n);
    return JET_OK;
}

jet_rc jet_value_decode(jet_value *out, jet_db *db, const jet_row *row,
                        const jet_column *col, jet_buf *scratch,
                        uint32_t pgno, jet_error *err)
{
    const uint8_t *d;
    size_t len;
    bool is_null;
    bool calc = (col->flags & JET_COL_CALCULATED) != 0;
    jet_type type = col->result_type;
    jet_rc rc;

    memset(out, 0, sizeof *out);
    out->type = type;
    rc = jet_row_column_inl(row, db->fmt, col, &is_null, &d, &len, pgno,
                            err);
    if (rc != JET_OK)
        return rc;
    if (type == JET_T_BOOL && !calc) {
        out->u.b = len != 0;
        return JET_OK;
    }
    out->is_null = is_null;
    if (is_null)
        return JET_OK;
    if (type == JET_T_MEMO || type == JET_T_OLE) {
        rc = jet_lval_read(scratch, db, d, len, pgno, err);
        if (rc != JET_OK)
            return rc;
        d = scratch->data;
        len = scratch->len;
        if (calc)
            unwrap_calc(&d, &len);
        out->data = d ? d : (const uint8_t *)"";
        out->len = len;
        if (type == JET_T_MEMO)
            out->enc = text_enc(db, d, len);
        return JET_OK;
    }
    if (calc) {
        unwrap_calc(&d, &len);
        if (len == 0 && type != JET_T_TEXT && type != JET_T_BINARY) {
            out->is_null = true;
            return JET_OK;
        }
    }
    switch (type) {
    case JET_T_BOOL:   /* calculated BOOL: one byte, non-zero = true */
        if ((rc = need(len, 1, col, pgno, err)) != JET_OK)
            return rc;
        out->u.b = d[0] != 0;
        break;
    case JET_T_BYTE:
        if ((rc = need(len, 1, col, pgno, err)) != JET_OK)
            return rc;
        out->u.i = d[0];
        break;
    case JET_T_INT:
        if ((rc = need(len, 2, col, pgno, err)) != JET_OK)
            return rc;
        out->u.i = (int16_t)jet_get_u16(d);
        break;
    case JET_T_LONG:
    case JET_T_COMPLEX:
        if ((rc = need(len, 4, col, pgno, err)) != JET_OK)
            return rc;
        out->u.i = (int32_t)jet_get_u32(d);
        break;
    case JET_T_MONEY:
        if ((rc = need(len, 8, col, pgno, err)) != JET_OK)
            return rc;
        out->u.money = (int64_t)jet_get_u64(d);
        break;
    case JET_T_BIGINT:
        if ((rc = need(len, 8, col, pgno, err)) != JET_OK)
            return rc;
        out->u.i = (int64_t)jet_get_u64(d);
        break;
    case JET_T_FLOAT: {
        uint32_t bits;
        if ((rc = need(len, 4, col, pgno, err)) != JET_OK)
            return rc;
        bits = jet_get_u32(d);
        memcpy(&out->u.f, &bits, 4);
        break;
    }
    case JET_T_DOUBLE:
    case JET_T_DATETIME: {
        uint64_t bits;
        if ((rc = need(len, 8, col, pgno, err)) != JET_OK)
            return rc;
        bits = jet_get_u64(d);
        memcpy(&out->u.d, &bits, 8);
        break;
    }
    case JET_T_GUID:
        if ((rc = need(len, 16, col, pgno, err)) != JET_OK)
            return rc;
        memcpy(out->u.guid, d, 16);
        break;
    case JET_T_NUMERIC:
        out->u.num.precision = col->precision;
        out->u.num.scale = col->scale;
        if (calc) {
            /* a Windows DECIMAL: 2 reserved bytes, scale, sign (0x80 =
             * negative), Hi32, Lo32, Mid32 (each little-endian) */
            if ((rc = need(len, 16, col, pgno, err)) != JET_OK)
                return rc;
            out->u.num.scale = d[2];
            out->u.num.precision = 28;
            out->u.num.negative = d[3] != 0;
            memcpy(out->u.num.mag, d + 8, 4);        /* Lo32 */
            memcpy(out->u.num.mag + 4, d + 12, 4);   /* Mid32 */
            memcpy(out->u.num.mag + 8, d + 4, 4);    /* Hi32 */
            break;
        }
        if ((rc = need(len, 17, col, pgno, err)) != JET_OK)
            return rc;
        out->u.num.negative = d[0] != 0;
        if (!numeric_mag(d + 1, 16, out->u.num.mag))
            return jet_fail(err, JET_ELIMIT, pgno,
                            "column %s: decimal beyond 96 bits", col->name);
        break;
    case JET_T_TEXT:
        out->enc = text_enc(db, d, len);
        out->data = d;
        out->len = len;
        break;
    default:
        /* BINARY, EXT_DATETIME and types we do not know: raw bytes */
        out->data = d;
        out->len = len;
        break;
    }
    return JET_OK;
}
