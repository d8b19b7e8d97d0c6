/*
 * resultset.c - materialized result sets (catalog functions).
 *
 * A statement's result is either a table scan (stmt.c) or one of these:
 * rows of jet_value cells built in memory by catalog.c. Integer cells use
 * JET_T_INT/LONG, text cells JET_T_TEXT with the driver-private UTF-8
 * encoding (ODBC_ENC_UTF8) and strings owned by the rowset, so convert.c
 * serves both kinds of result through the same code.
 */
#include "config.h"

#include "odbc_internal.h"

#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "sql/spill.h"

odbc_matrows *odbc_matrows_new(size_t ncols)
{
    odbc_matrows *m = calloc(1, sizeof *m);
    if (m)
        m->ncols = ncols;
    return m;
}

void odbc_matrows_free(odbc_matrows *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nstrings; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m->cells);
    free(m);
}

jet_value *odbc_matrows_add(odbc_matrows *m)
{
    if (m->nrows == m->cap_rows) {
        size_t nc = m->cap_rows ? m->cap_rows * 2 : 16;
        jet_value *c = realloc(m->cells, nc * m->ncols * sizeof *c);
        if (!c)
            return NULL;
        m->cells = c;
        m->cap_rows = nc;
    }
    jet_value *row = m->cells + m->nrows * m->ncols;
    for (size_t i = 0; i < m->ncols; i++) {
        memset(&row[i], 0, sizeof row[i]);
        row[i].is_null = true;
        row[i].type = JET_T_TEXT;
        row[i].enc = ODBC_ENC_UTF8;
    }
    m->nrows++;
    return row;
}

int odbc_cell_str(odbc_matrows *m, jet_value *cell, const char *s)
{
    if (!s) {
        cell->is_null = true;
        return 0;
    }
    if (sql_grow((void **)&m->strings, &m->cap_strings, m->nstrings + 1,
                 sizeof *m->strings) != 0)
        return -1;
    char *d = odbc_strdup(s);
    if (!d)
        return -1;
    m->strings[m->nstrings++] = d;
    cell->type = JET_T_TEXT;
    cell->enc = ODBC_ENC_UTF8;
    cell->is_null = false;
    cell->data = (const uint8_t *)d;
    cell->len = strlen(d);
    return 0;
}

void odbc_cell_int(jet_value *cell, int64_t v, jet_type t)
{
    cell->type = t;
    cell->is_null = false;
    cell->u.i = v;
}
