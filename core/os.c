/*
 * os.c - POSIX file access for the core reader (read-only, never writes).
 *
 * Only regular files are opened: a FIFO would block open() and read() for
 * ever, a device (/dev/zero) never ends, a directory cannot be read. The
 * path is checked with stat() before open() (so no device is opened at
 * all) and the opened descriptor again with fstat() (the path may have
 * changed in between); O_NONBLOCK keeps that open() from blocking.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "os.h"

/* What a non-regular file is, as a phrase for an error message. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

int jet_os_open(int *fd, const char *path, const char **kind)
{
    const char *unused;
    struct stat st;
    int f, fl;

    if (!kind)
        kind = &unused;
    *kind = NULL;
    *fd = -1;
    if (stat(path, &st) != 0)
        return errno ? errno : EIO;
    if (!S_ISREG(st.st_mode)) {
        *kind = kind_of(st.st_mode);
        return JET_OS_NOT_REGULAR;
    }
    do {
        f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
    if (fstat(f, &st) != 0) {
        int e = errno ? errno : EIO;
        (void)close(f);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        (void)close(f);
        *kind = kind_of(st.st_mode);
        return JET_OS_NOT_REGULAR;
    }
    /* regular files ignore O_NONBLOCK; clear it all the same */
    fl = fcntl(f, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        (void)fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
    *fd = f;
    return 0;
}

int jet_os_size(int fd, uint64_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return errno ? errno : EIO;
    if (!S_ISREG(st.st_mode))
        return EINVAL;
    *size = (uint64_t)st.st_size;
    return 0;
}

int jet_os_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, (char *)buf + done, n - done,
                          (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *got = done;
            return errno ? errno : EIO;
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

void jet_os_advise_sequential(int fd)
{
#ifdef HAVE_POSIX_FADVISE
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#else
    (void)fd;
#endif
}

/* iovecs per preadv call: far below IOV_MAX (1024 on Linux) */
#define PREADV_BATCH 64

int jet_os_preadv(int fd, uint8_t *const *bufs, size_t nbufs, size_t each,
                  uint64_t off, size_t *got)
{
    size_t total = nbufs * each, done = 0;
    struct iovec iov[PREADV_BATCH];

    while (done < total) {
        size_t first = done / each, skip = done % each, n = 0;
        ssize_t r;
        for (size_t i = first; i < nbufs && n < PREADV_BATCH; i++, n++) {
            iov[n].iov_base = bufs[i] + (i == first ? skip : 0);
            iov[n].iov_len = each - (i == first ? skip : 0);
        }
        r = preadv(fd, iov, (int)n, (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *got = done;
            return errno ? errno : EIO;
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

void jet_os_advise_willneed(int fd, uint64_t off, uint64_t len)
{
#ifdef HAVE_POSIX_FADVISE
    if (len > 0 && off <= (uint64_t)LLONG_MAX && len <= (uint64_t)LLONG_MAX)
        (void)posix_fadvise(fd, (off_t)off, (off_t)len,
                            POSIX_FADV_WILLNEED);
#else
    (void)fd;
    (void)off;
    (void)len;
#endif
}

void jet_os_close(int fd)
{
    if (fd >= 0)
        (void)close(fd);
}

void *jet_os_pages_alloc(size_t n)
{
#ifdef MAP_POPULATE
    const int populate = MAP_POPULATE;
#else
    const int populate = 0;     /* macOS: pages fault in on first touch */
#endif
    void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void jet_os_pages_free(void *p, size_t n)
{
    if (p)
        (void)munmap(p, n ? n : 1);
}
