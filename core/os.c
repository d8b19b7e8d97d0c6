/*
 * os.c - POSIX file access for the core reader (read-only, never writes).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"

int jet_os_open(int *fd, const char *path)
{
    int f;
    do {
        f = open(path, O_RDONLY | O_CLOEXEC);
    } while (f < 0 && errno == EINTR);
    if (f < 0)
        return errno ? errno : EIO;
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

void jet_os_close(int fd)
{
    if (fd >= 0)
        (void)close(fd);
}
