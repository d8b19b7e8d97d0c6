/*
 * os.h - the OS seam: the only place core/ makes POSIX file calls.
 *
 * Read-only open (O_RDONLY|O_CLOEXEC), positioned reads, size, advice, close.
 * Functions return 0 on success or an errno value.
 */
#ifndef JET_OS_H
#define JET_OS_H

#include <stddef.h>
#include <stdint.h>

/** Open path read-only into *fd; returns 0 or errno. */
int jet_os_open(int *fd, const char *path);
/** File size in bytes into *size; returns 0 or errno. */
int jet_os_size(int fd, uint64_t *size);
/** Read exactly n bytes at off into buf; *got receives the bytes read
 *  (short only at end of file). Returns 0 or errno; retries EINTR. */
int jet_os_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got);
/** Hint sequential access over the whole file (best effort). */
void jet_os_advise_sequential(int fd);
/** Close fd (ignores errors: the file was read-only). */
void jet_os_close(int fd);

#endif /* JET_OS_H */
