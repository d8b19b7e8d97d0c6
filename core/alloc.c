/*
 * alloc.c - the allocator seam: libc by default, swappable by tests.
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "os.h"

static jet_allocator current;

void jet_alloc_set(const jet_allocator *a)
{
    if (a)
        current = *a;
    else
        memset(&current, 0, sizeof current);
}

void *jet_malloc(size_t n)
{
    return current.malloc_fn ? current.malloc_fn(n) : malloc(n ? n : 1);
}

void *jet_calloc(size_t count, size_t n)
{
    return current.calloc_fn ? current.calloc_fn(count, n)
                             : calloc(count ? count : 1, n ? n : 1);
}

void *jet_realloc(void *p, size_t n)
{
    return current.realloc_fn ? current.realloc_fn(p, n) : realloc(p, n ? n : 1);
}

void jet_free(void *p)
{
    if (current.free_fn)
        current.free_fn(p);
    else
        free(p);
}

char *jet_strndup(const char *s, size_t n)
{
    char *d = jet_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* a pool block starts with this header (64 bytes, so the block's data
 * keeps a cache-line alignment): where the memory came from and how much */
typedef struct pool_hdr {
    size_t bytes;       /* whole block, header included */
    int from_os;        /* jet_os_pages_alloc, else jet_malloc */
} pool_hdr;
#define POOL_HDR 64

void *jet_pool_alloc(size_t n)
{
    size_t bytes = n + POOL_HDR;
    pool_hdr h;
    uint8_t *b = NULL;
    if (bytes < n)
        return NULL;
    h.bytes = bytes;
    h.from_os = !JET_ASAN && !current.malloc_fn;
    b = h.from_os ? jet_os_pages_alloc(bytes, false) : jet_malloc(bytes);
    if (!b)
        return NULL;
    memcpy(b, &h, sizeof h);
    return b + POOL_HDR;
}

void jet_pool_commit(void *p, size_t n)
{
    if (p)
        jet_os_prefault(p, n);
}

void jet_pool_free(void *p)
{
    pool_hdr h;
    uint8_t *b;
    if (!p)
        return;
    b = (uint8_t *)p - POOL_HDR;
    memcpy(&h, b, sizeof h);
    if (h.from_os)
        jet_os_pages_free(b, h.bytes);
    else
        jet_free(b);
}
