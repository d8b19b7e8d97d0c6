/*
 * spill.c - arenas for rows held by sorts and groupings, the temporary
 * file they spill to past the memory budget, and the encoding of values
 * in it (see spill.h for the model).
 *
 * Temporary file: one per cursor, opened on the first spill, in $TMPDIR
 * (else /tmp) with mkstemp() and unlinked at once, so it disappears when
 * closed or when the process dies; Windows: tmpfile() (deleted on close).
 * Appends only; blocks are read back with pread() (Windows: a seek and
 * fread()). Failures keep their errno (ENOSPC, EFBIG, EACCES...) for the
 * caller's message.
 *
 * Encoded value (sql_spill_put_sv), all 8-byte aligned:
 *   u8 kind, u8 flags (1 has_units, 2 has_dec, 4 single), u8 scale, u8 0,
 *   u32 units (text) or bytes (binary, GUID)
 *   INT, BOOL, MONEY: i (8)      DATE: d (8)      DEC: m (16)
 *   DOUBLE: d (8), then i (8) if has_units, then m (16) if has_dec
 *   TEXT: the UTF-16 units, BIN/GUID: the bytes; padded to 8
 */
#include "config.h"

#include "spill.h"
#include "os.h"
#include "sql_internal.h"
#include "values.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <io.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

/* ------------------------------------------------------------ arena */

#define MEM_BLOCK ((size_t)256 << 10)

/* chunks from this size on are backed at once (sql_mem_alloc) */
#define PREFAULT_MIN ((size_t)64 << 10)

/* an empty arena's first chunk, each next one twice the one before up
 * to the arena's block: a statement that keeps a few rows (a join's memo
 * of the rows it met) takes heap memory, not a mapping of the whole
 * block made and unmapped for it */
#define FIRST_CHUNK ((size_t)16 << 10)

void *sql_mem_alloc(sql_mem *m, size_t n)
{
    sql_arena_chunk *was = m->head;
    size_t block = m->block ? m->block : MEM_BLOCK;
    size_t grow = was ? 2 * was->cap : FIRST_CHUNK;
    if (grow < FIRST_CHUNK)
        grow = FIRST_CHUNK;
    if (block > grow)
        block = grow;
    void *p = sql_chunk_take(&m->head, n, block, &m->held);
    /* an arena past its first big chunk (records, groups) fills the next
     * one too: its pages in one call, not a fault per 4 KiB (a small
     * statement's first chunk stays backed lazily) */
    if (p && was && was->cap >= PREFAULT_MIN && m->head != was &&
        m->head->cap >= PREFAULT_MIN)
        jet_os_prefault(m->head->data, m->head->cap);
    return p;
}

void sql_mem_reset(sql_mem *m)
{
    sql_arena_chunk *keep = NULL;
    sql_arena_chunk *b = m->head;
    m->held = 0;
    while (b) {
        sql_arena_chunk *n = b->next;
        if (!keep && b->cap <= (m->block ? m->block : MEM_BLOCK)) {
            keep = b;
            keep->used = 0;
            keep->next = NULL;
            m->held = sizeof *b + b->cap;
        } else {
            free(b);
        }
        b = n;
    }
    m->head = keep;
}

void sql_mem_free(sql_mem *m)
{
    sql_chunk_free_all(&m->head);
    m->held = 0;
}

size_t sql_mem_block_for(size_t budget)
{
    size_t b = budget / 32;
    return b < 4096 ? 4096 : b > MEM_BLOCK ? MEM_BLOCK : b;
}

/* ------------------------------------------------------- byte buffer */

int sql_wbuf_reserve(sql_wbuf *b, size_t n)
{
    if (n > SIZE_MAX / 4 - b->len)
        return -1;
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 1024;
        while (c < b->len + n)
            c *= 2;
        uint8_t *q = realloc(b->p, c);
        if (!q)
            return -1;
        b->p = q;
        b->cap = c;
    }
    return 0;
}

int sql_wbuf_put(sql_wbuf *b, const void *p, size_t n)
{
    if (sql_wbuf_reserve(b, n) != 0)
        return -1;
    if (n) {
        if (p)
            memcpy(b->p + b->len, p, n);
        else
            memset(b->p + b->len, 0, n);
    }
    b->len += n;
    return 0;
}

int sql_wbuf_align(sql_wbuf *b)
{
    size_t pad = (8 - (b->len & 7)) & 7;
    return pad ? sql_wbuf_put(b, NULL, pad) : 0;
}

/* --------------------------------------------------- temporary file */

struct sql_spill {
#ifdef _WIN32
    FILE *fp;
#else
    int fd;
#endif
    uint64_t size;
    size_t block_len;
    int err;
};

int sql_spill_open(sql_spill **out, size_t block_len)
{
    *out = NULL;
    sql_spill *f = calloc(1, sizeof *f);
    if (!f)
        return ENOMEM;
    f->block_len = block_len < 4096 ? 4096 : block_len;
#ifdef _WIN32
    f->fp = tmpfile();
    if (!f->fp) {
        int e = errno ? errno : EIO;
        free(f);
        return e;
    }
#else
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + sizeof "/jetodbc-spill-XXXXXX";
    char *path = malloc(n);
    if (!path) {
        free(f);
        return ENOMEM;
    }
    snprintf(path, n, "%s/jetodbc-spill-XXXXXX", dir);
    f->fd = mkstemp(path);
    if (f->fd < 0) {
        int e = errno;
        free(path);
        free(f);
        return e ? e : EIO;
    }
    unlink(path);           /* gone from the directory at once */
    free(path);
    int fl = fcntl(f->fd, F_GETFD);
    if (fl >= 0)
        (void)fcntl(f->fd, F_SETFD, fl | FD_CLOEXEC);
#endif
    *out = f;
    return 0;
}

void sql_spill_close(sql_spill *f)
{
    if (!f)
        return;
#ifdef _WIN32
    fclose(f->fp);
#else
    close(f->fd);
#endif
    free(f);
}

size_t sql_spill_block_len(const sql_spill *f)
{
    return f ? f->block_len : 0;
}

int sql_spill_errno(const sql_spill *f)
{
    return f ? f->err : 0;
}

uint64_t sql_spill_size(const sql_spill *f)
{
    return f ? f->size : 0;
}

/* Append n bytes; 0 or -1 with f->err. */
static int file_append(sql_spill *f, const void *p, size_t n)
{
#ifdef _WIN32
    if (_fseeki64(f->fp, 0, SEEK_END) != 0 || fwrite(p, 1, n, f->fp) != n) {
        f->err = errno ? errno : EIO;
        return -1;
    }
#else
    const uint8_t *q = p;
    size_t left = n;
    while (left) {
        ssize_t w = write(f->fd, q, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            f->err = w < 0 ? errno : ENOSPC;
            return -1;
        }
        q += w;
        left -= (size_t)w;
    }
#endif
    f->size += n;
    return 0;
}

static int file_read(sql_spill *f, void *p, size_t n, uint64_t off)
{
#ifdef _WIN32
    if (_fseeki64(f->fp, (long long)off, SEEK_SET) != 0 ||
        fread(p, 1, n, f->fp) != n) {
        f->err = errno ? errno : EIO;
        return -1;
    }
#else
    uint8_t *q = p;
    while (n) {
        ssize_t r = pread(f->fd, q, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            f->err = r < 0 ? errno : EIO;
            return -1;
        }
        q += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
#endif
    return 0;
}

int sql_spill_append(sql_spill *f, const void *p, size_t n, uint64_t *off)
{
    if (off)
        *off = f->size;
    return n ? file_append(f, p, n) : 0;
}

int sql_spill_read(sql_spill *f, void *p, size_t n, uint64_t off)
{
    if (off > f->size || n > f->size - off) {
        f->err = EIO;
        return -1;
    }
    return n ? file_read(f, p, n, off) : 0;
}

int sql_spill_stream_flush(sql_spill *f, sql_spill_stream *s)
{
    if (!s->wb.len)
        return 0;
    if (s->nblocks == s->cap) {
        size_t c = s->cap;
        if (sql_grow((void **)&s->off, &c, s->nblocks + 1, sizeof *s->off)
            != 0)
            return -1;
        c = s->cap;
        if (sql_grow((void **)&s->len, &c, s->nblocks + 1, sizeof *s->len)
            != 0)
            return -1;
        s->cap = c;
    }
    uint64_t at = f->size;
    if (file_append(f, s->wb.p, s->wb.len) != 0)
        return -1;
    s->off[s->nblocks] = at;
    s->len[s->nblocks] = (uint32_t)s->wb.len;
    s->nblocks++;
    s->bytes += s->wb.len;
    s->wb.len = 0;
    return 0;
}

int sql_spill_stream_put(sql_spill *f, sql_spill_stream *s, const void *row,
                         size_t len)
{
    if (len > UINT32_MAX / 2)
        return -1;
    if (s->wb.len && s->wb.len + len > f->block_len &&
        sql_spill_stream_flush(f, s) != 0)
        return -1;
    if (sql_wbuf_put(&s->wb, row, len) != 0)
        return -1;
    s->rows++;
    return 0;
}

void sql_spill_stream_free(sql_spill_stream *s)
{
    free(s->off);
    free(s->len);
    free(s->wb.p);
    memset(s, 0, sizeof *s);
}

void sql_spill_reader_init(sql_spill_reader *r, const sql_spill_stream *s)
{
    memset(r, 0, sizeof *r);
    r->s = s;
}

int sql_spill_reader_next(sql_spill *f, sql_spill_reader *r,
                          const uint8_t **row, size_t *len)
{
    if (r->pos >= r->len) {
        if (r->block >= r->s->nblocks)
            return JET_DONE;
        size_t n = r->s->len[r->block];
        if (n > r->cap) {
            free(r->buf);
            r->buf = malloc(n);     /* malloc: aligned for 8-byte rows */
            r->cap = r->buf ? n : 0;
            if (!r->buf)
                return -1;
        }
        if (file_read(f, r->buf, n, r->s->off[r->block]) != 0)
            return -1;
        r->block++;
        r->len = n;
        r->pos = 0;
    }
    uint32_t n;
    if (r->len - r->pos < 8)
        return -1;
    memcpy(&n, r->buf + r->pos, 4);
    if (n < 8 || (n & 7) || n > r->len - r->pos)
        return -1;
    *row = r->buf + r->pos;
    *len = n;
    r->pos += n;
    return 0;
}

void sql_spill_reader_free(sql_spill_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->len = r->pos = 0;
}

/* ---------------------------------------------------- value encoding */

int sql_spill_put_sv(sql_wbuf *b, const sv *v)
{
    uint32_t n = 0;
    size_t payload;
    const void *src = NULL;
    switch (v->k) {
    case K_NULL:
        payload = 0;
        break;
    case K_INT: case K_BOOL: case K_MONEY:
        payload = 8;
        break;
    case K_DATE:
        payload = 8;
        break;
    case K_DEC:
        payload = sizeof v->m;
        break;
    case K_DOUBLE:
        payload = 8 + (v->has_units ? 8 : 0) + (v->has_dec ? sizeof v->m : 0);
        break;
    case K_TEXT:
        if (v->n > UINT32_MAX / 4)
            return -1;
        n = (uint32_t)v->n;
        payload = (size_t)n * 2;
        src = v->s;
        break;
    default:
        if (v->len > UINT32_MAX / 2)
            return -1;
        n = (uint32_t)v->len;
        payload = n;
        src = v->p;
        break;
    }
    /* one capacity check, then the header, payload and padding in place */
    size_t total = 8 + ((payload + 7) & ~(size_t)7), at = b->len;
    if (b->cap - b->len < total && sql_wbuf_reserve(b, total) != 0)
        return -1;
    uint8_t *p = b->p + at;
    p[0] = v->k;
    p[1] = (uint8_t)((v->has_units ? 1 : 0) | (v->has_dec ? 2 : 0) |
                     (v->single ? 4 : 0));
    p[2] = v->scale;
    p[3] = 0;
    memcpy(p + 4, &n, 4);
    uint8_t *q = p + 8;
    switch (v->k) {
    case K_NULL:
        break;
    case K_INT: case K_BOOL: case K_MONEY:
        memcpy(q, &v->i, 8);
        break;
    case K_DATE:
        memcpy(q, &v->d, 8);
        break;
    case K_DEC:
        memcpy(q, &v->m, sizeof v->m);
        break;
    case K_DOUBLE:
        memcpy(q, &v->d, 8);
        q += 8;
        if (v->has_units) {
            memcpy(q, &v->i, 8);
            q += 8;
        }
        if (v->has_dec)
            memcpy(q, &v->m, sizeof v->m);
        break;
    default:
        if (payload)
            memcpy(q, src, payload);
        break;
    }
    if (total - 8 > payload)
        memset(p + 8 + payload, 0, total - 8 - payload);
    b->len = at + total;
    return 0;
}

static int take(const uint8_t **p, const uint8_t *end, void *out, size_t n)
{
    if ((size_t)(end - *p) < n)
        return -1;
    memcpy(out, *p, n);
    *p += n;
    return 0;
}

int sql_spill_get_sv(const uint8_t **p, const uint8_t *end, sv *v)
{
    uint8_t h[8];
    memset(v, 0, sizeof *v);
    if (take(p, end, h, 8) != 0 || h[0] > K_DEC || h[0] == K_ANY)
        return -1;
    uint32_t n;
    memcpy(&n, h + 4, 4);
    v->k = h[0];
    v->has_units = (h[1] & 1) != 0;
    v->has_dec = (h[1] & 2) != 0;
    v->single = (h[1] & 4) != 0;
    v->scale = h[2];
    int rc = 0;
    switch (v->k) {
    case K_NULL:
        break;
    case K_INT: case K_BOOL: case K_MONEY:
        rc = take(p, end, &v->i, 8);
        break;
    case K_DATE:
        rc = take(p, end, &v->d, 8);
        break;
    case K_DEC:
        rc = take(p, end, &v->m, sizeof v->m);
        break;
    case K_DOUBLE:
        rc = take(p, end, &v->d, 8);
        if (!rc && v->has_units)
            rc = take(p, end, &v->i, 8);
        if (!rc && v->has_dec)
            rc = take(p, end, &v->m, sizeof v->m);
        break;
    case K_TEXT:
        if ((size_t)(end - *p) < (size_t)n * 2)
            return -1;
        v->s = (const uint16_t *)(const void *)*p;
        v->n = n;
        *p += (size_t)n * 2;
        break;
    default:
        if ((size_t)(end - *p) < n)
            return -1;
        v->p = *p;
        v->len = n;
        *p += n;
        break;
    }
    if (rc)
        return -1;
    size_t pad = (8 - ((uintptr_t)*p & 7)) & 7;
    if ((size_t)(end - *p) < pad)
        return -1;
    *p += pad;
    return 0;
}
