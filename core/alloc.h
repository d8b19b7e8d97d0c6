/*
 * alloc.h - the one allocator seam of the core reader.
 *
 * All core heap memory goes through these; tests swap in counting or
 * failing allocators with jet_alloc_set() to prove no per-row allocation
 * and clean JET_ENOMEM paths.
 */
#ifndef JET_ALLOC_H
#define JET_ALLOC_H

#include <stddef.h>

/**
 * JET_ASAN: 1 in an AddressSanitizer build (GCC's __SANITIZE_ADDRESS__,
 * clang's __has_feature(address_sanitizer)), else 0. Pools then come from
 * malloc, one per page-cache slot, so that ASan sees a read past a page.
 */
#if defined(__SANITIZE_ADDRESS__)
#define JET_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JET_ASAN 1
#endif
#endif
#ifndef JET_ASAN
#define JET_ASAN 0
#endif

/** A replaceable allocator; any member NULL keeps the libc default. */
typedef struct jet_allocator {
    void *(*malloc_fn)(size_t n);
    void *(*calloc_fn)(size_t count, size_t n);
    void *(*realloc_fn)(void *p, size_t n);
    void (*free_fn)(void *p);
} jet_allocator;

/** Install a (test) allocator; NULL restores libc. Not thread-safe. */
void jet_alloc_set(const jet_allocator *a);

void *jet_malloc(size_t n);
void *jet_calloc(size_t count, size_t n);
void *jet_realloc(void *p, size_t n);
void jet_free(void *p);
/**
 * n bytes for a long-lived pool of buffers (the page cache's slots) from
 * the OS seam (jet_os_pages_alloc), backed as they are first written:
 * its user backs each part it comes to with jet_pool_commit (no page
 * fault per page while the part fills, and no memory for the parts it
 * never reaches); from the installed test allocator's malloc_fn instead
 * when one is set, and from malloc in sanitizer builds (AddressSanitizer
 * then sees each pool). Release with jet_pool_free(). NULL when out of
 * memory.
 */
void *jet_pool_alloc(size_t n);
/** Back bytes [p, p + n) of a jet_pool_alloc block now (jet_os_prefault:
 *  whole pages inside the range; where the system cannot, a no-op). */
void jet_pool_commit(void *p, size_t n);
/** Release a block of jet_pool_alloc(); p NULL is a no-op. */
void jet_pool_free(void *p);
/** Duplicate n bytes plus a NUL terminator; NULL on failure. */
char *jet_strndup(const char *s, size_t n);

#endif /* JET_ALLOC_H */
