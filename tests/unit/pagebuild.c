/*
 * pagebuild.c - in-memory Jet page and row builders for the unit tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"

void pb_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void pb_put24(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
}

void pb_put32(uint8_t *p, uint32_t v)
{
    pb_put16(p, (uint16_t)v);
    pb_put16(p + 2, (uint16_t)(v >> 16));
}

void pb_data_page(uint8_t *page, const jet_format *fmt, uint32_t tdef_pgno)
{
    memset(page, 0, fmt->page_size);
    page[0] = 0x01;
    page[1] = 0x01;
    pb_put32(page + fmt->data_tdef_pgno, tdef_pgno);
    pb_put16(page + fmt->data_nrows, 0);
}

uint16_t pb_add_row(uint8_t *page, const jet_format *fmt, const void *row,
                    size_t len, uint16_t flags)
{
    uint16_t n = (uint16_t)(page[fmt->data_nrows] |
                            (page[fmt->data_nrows + 1] << 8));
    size_t end = fmt->page_size;
    if (n > 0) {
        const uint8_t *e = page + fmt->data_row_table + (n - 1) * 2;
        end = (size_t)((e[0] | (e[1] << 8)) & 0x1FFF);
    }
    memcpy(page + end - len, row, len);
    pb_put16(page + fmt->data_row_table + n * 2,
             (uint16_t)((end - len) | flags));
    pb_put16(page + fmt->data_nrows, (uint16_t)(n + 1));
    return n;
}

size_t pb_row(uint8_t *out, size_t cap, const jet_format *fmt, uint16_t ncols,
              const bool *nulls, const uint8_t *fixed, size_t fixed_len,
              const pb_val *vars, size_t nvar)
{
    size_t cc = fmt->row_count_size, nm = ((size_t)ncols + 7) / 8;
    size_t pos = 0, off[300], eod;
    size_t len, njumps = 0;

    memset(out, 0, cap);
    if (cc == 1)
        out[pos++] = (uint8_t)ncols;
    else {
        pb_put16(out, ncols);
        pos += 2;
    }
    if (fixed_len)
        memcpy(out + pos, fixed, fixed_len);
    pos += fixed_len;
    for (size_t i = 0; i < nvar; i++) {
        off[i] = pos;
        if (!vars[i].is_null) {
            memcpy(out + pos, vars[i].data, vars[i].len);
            pos += vars[i].len;
        }
    }
    eod = pos;
    off[nvar] = eod;
    if (fmt->jet3) {
        /* choose the jump count that matches the final row length */
        for (;;) {
            len = eod + (nvar + 1) + njumps + 1 + nm;
            if ((len - 1) / 256 == njumps)
                break;
            njumps = (len - 1) / 256;
        }
        {
            size_t row_end = len - 1;
            size_t col_off = row_end - nm - njumps - 1;
            for (size_t i = 0; i <= nvar; i++)
                out[col_off - i] = (uint8_t)off[i];
            for (size_t j = 0; j < njumps; j++) {
                uint8_t v = 0xFF;   /* dummy when no entry reaches it */
                for (size_t i = 0; i <= nvar; i++)
                    if (off[i] >= (j + 1) * 256) {
                        v = (uint8_t)i;
                        break;
                    }
                out[row_end - nm - 1 - j] = v;
            }
            out[row_end - nm] = (uint8_t)nvar;
        }
    } else {
        len = eod + (nvar + 1) * 2 + 2 + nm;
        for (size_t i = 0; i <= nvar; i++)
            pb_put16(out + len - nm - 2 - 2 * (i + 1), (uint16_t)off[i]);
        pb_put16(out + len - nm - 2, (uint16_t)nvar);
    }
    for (uint16_t c = 0; c < ncols; c++)
        if (!nulls[c])
            out[len - nm + c / 8] |= (uint8_t)(1u << (c % 8));
    return len;
}

int pb_write_file(char *path, size_t cap, const uint8_t *pages,
                  size_t npages, uint32_t page_size)
{
    FILE *f;
    int fd;
    snprintf(path, cap, "/tmp/jet_unit_XXXXXX");
    fd = mkstemp(path);
    if (fd < 0)
        return -1;
    f = fdopen(fd, "wb");
    if (!f)
        return -1;
    if (fwrite(pages, page_size, npages, f) != npages) {
        fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

jet_db *pb_db_open(const char *path, jet_version v)
{
    jet_db *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->version = v;
    db->fmt = jet_format_for(v);
    db->page_size = db->fmt->page_size;
    db->code_page = 1252;
    if (jet_pagefile_open(&db->pf, path, 8, NULL) != JET_OK ||
        jet_pagefile_set_page_size(db->pf, db->page_size, NULL) != JET_OK) {
        pb_db_free(db);
        return NULL;
    }
    return db;
}

void pb_db_free(jet_db *db)
{
    if (!db)
        return;
    jet_pagefile_close(db->pf);
    free(db);
}
