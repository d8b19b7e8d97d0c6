/*
 * os.h - the OS seam: the only place core/ makes POSIX file calls.
 *
 * Read-only open of regular files only (never blocks on a FIFO or device),
 * positioned reads, size, advice, close; and committed anonymous memory for
 * the page cache's buffers.
 * Functions return 0 on success or an errno value.
 */
#ifndef JET_OS_H
#define JET_OS_H

#include <stddef.h>
#include <stdint.h>

/** jet_os_open() result: path exists but is not a regular file. */
#define JET_OS_NOT_REGULAR (-1)

/**
 * Open path read-only (O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_NOCTTY, O_NONBLOCK
 * cleared afterwards) into *fd. Only regular files are accepted: anything
 * else returns JET_OS_NOT_REGULAR with *kind set to a short phrase ("a
 * directory", "a FIFO", ...), and is never left open. Otherwise returns 0
 * or an errno value. kind may be NULL.
 */
int jet_os_open(int *fd, const char *path, const char **kind);
/** File size in bytes into *size; returns 0 or errno. */
int jet_os_size(int fd, uint64_t *size);
/** Read exactly n bytes at off into buf; *got receives the bytes read
 *  (short only at end of file). Returns 0 or errno; retries EINTR. */
int jet_os_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got);
/** Hint sequential access over the whole file (best effort). */
void jet_os_advise_sequential(int fd);
/**
 * Read nbufs * each consecutive bytes at off, scattered in order over the
 * nbufs buffers of each bytes (one preadv() request per 64 buffers, more
 * only after a short read). *got receives the bytes read (short only at
 * end of file). Returns 0 or errno; retries EINTR. For read-ahead runs.
 */
int jet_os_preadv(int fd, uint8_t *const *bufs, size_t nbufs, size_t each,
                  uint64_t off, size_t *got);
/** Hint that bytes [off, off + len) will be read soon (POSIX_FADV_WILLNEED,
 *  best effort, starts the kernel's read without waiting for it). */
void jet_os_advise_willneed(int fd, uint64_t off, uint64_t len);
/** Close fd (ignores errors: the file was read-only). */
void jet_os_close(int fd);
/**
 * n bytes of zeroed, page-aligned read/write memory, committed at once:
 * POSIX mmap(MAP_ANONYMOUS | MAP_POPULATE where the system has it), so
 * that filling it costs one call rather than a page fault per 4 KiB;
 * Windows VirtualAlloc(MEM_COMMIT). NULL when the system refuses. Release
 * with jet_os_pages_free(p, n) and the same n.
 */
void *jet_os_pages_alloc(size_t n);
/** Release memory of jet_os_pages_alloc(n); p NULL is a no-op. */
void jet_os_pages_free(void *p, size_t n);

#endif /* JET_OS_H */
