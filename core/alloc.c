/*
 * alloc.c - the allocator seam: libc by default, swappable by tests.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

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
