/*
 * os_win32.c - Windows file access for the core reader (read-only).
 *
 * The Windows half of the os.h seam (core/os.c is the POSIX one; configure
 * picks one). Files are opened with CreateFileW for GENERIC_READ and share
 * mode FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE: Access keeps
 * its database open for writing (and its .laccdb lock file beside it), and
 * a reader that asks for less sharing would fail with a sharing violation.
 * Reads are ReadFile with an OVERLAPPED offset (a positioned read that does
 * not depend on the handle's file pointer, like pread). The handle travels
 * through the int interface as a C runtime descriptor (_open_osfhandle);
 * _get_osfhandle gives it back. Paths are UTF-8 (the driver's internal
 * text); a path that is not valid UTF-8 is taken as the ANSI code page.
 * Only disk files are accepted: directories, pipes and devices are refused
 * as "not a regular file", like the POSIX version.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#include <stdlib.h>

#include "alloc.h"
#include "os.h"

/* errno value for the thread's last Windows error. */
static int errno_of_last_error(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
        return EACCES;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return EBUSY;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    case ERROR_INVALID_NAME:
        return EINVAL;
    default:
        return EIO;
    }
}

/* path (UTF-8, else ANSI) -> a fresh UTF-16 string, or NULL (errno set). */
static wchar_t *wide_path(const char *path)
{
    UINT cp = CP_UTF8;
    DWORD flags = MB_ERR_INVALID_CHARS;
    int n = MultiByteToWideChar(cp, flags, path, -1, NULL, 0);
    wchar_t *w;

    if (n <= 0) {
        cp = CP_ACP;
        flags = 0;
        n = MultiByteToWideChar(cp, flags, path, -1, NULL, 0);
        if (n <= 0) {
            errno = EINVAL;
            return NULL;
        }
    }
    w = jet_malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    if (MultiByteToWideChar(cp, flags, path, -1, w, n) != n) {
        jet_free(w);
        errno = EINVAL;
        return NULL;
    }
    return w;
}

static HANDLE handle_of(int fd)
{
    intptr_t h = _get_osfhandle(fd);
    return h == -1 ? INVALID_HANDLE_VALUE : (HANDLE)h;
}

int jet_os_open(int *fd, const char *path, const char **kind)
{
    const char *unused;
    wchar_t *w;
    DWORD attrs;
    HANDLE h;
    int f, e;

    if (!kind)
        kind = &unused;
    *kind = NULL;
    *fd = -1;
    w = wide_path(path);
    if (!w)
        return errno;
    attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES) {
        e = errno_of_last_error();
        jet_free(w);
        return e;
    }
    if (attrs & FILE_ATTRIBUTE_DIRECTORY) {
        jet_free(w);
        *kind = "a directory";
        return JET_OS_NOT_REGULAR;
    }
    h = CreateFileW(w, GENERIC_READ,
                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    e = h == INVALID_HANDLE_VALUE ? errno_of_last_error() : 0;
    jet_free(w);
    if (e)
        return e;
    if (GetFileType(h) != FILE_TYPE_DISK) {
        CloseHandle(h);
        *kind = "a device or pipe";
        return JET_OS_NOT_REGULAR;
    }
    f = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
    if (f < 0) {
        CloseHandle(h);
        return EMFILE;
    }
    *fd = f;
    return 0;
}

int jet_os_size(int fd, uint64_t *size)
{
    LARGE_INTEGER li;
    HANDLE h = handle_of(fd);
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    if (!GetFileSizeEx(h, &li))
        return errno_of_last_error();
    if (li.QuadPart < 0)
        return EINVAL;
    *size = (uint64_t)li.QuadPart;
    return 0;
}

int jet_os_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got)
{
    HANDLE h = handle_of(fd);
    size_t done = 0;

    *got = 0;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    while (done < n) {
        OVERLAPPED ov = { 0 };
        uint64_t at = off + done;
        size_t want = n - done;
        DWORD r = 0;
        if (want > 0x40000000u)
            want = 0x40000000u;
        ov.Offset = (DWORD)at;
        ov.OffsetHigh = (DWORD)(at >> 32);
        if (!ReadFile(h, (char *)buf + done, (DWORD)want, &r, &ov)) {
            if (GetLastError() == ERROR_HANDLE_EOF)
                break;
            *got = done;
            return errno_of_last_error();
        }
        if (r == 0)
            break;
        done += r;
    }
    *got = done;
    return 0;
}

void jet_os_advise_sequential(int fd)
{
    (void)fd;   /* the cache manager detects sequential reads itself */
}

int jet_os_preadv(int fd, uint8_t *const *bufs, size_t nbufs, size_t each,
                  uint64_t off, size_t *got)
{
    size_t done = 0;
    *got = 0;
    for (size_t i = 0; i < nbufs; i++) {
        size_t g = 0;
        int e = jet_os_pread(fd, bufs[i], each, off + done, &g);
        done += g;
        if (e) {
            *got = done;
            return e;
        }
        if (g < each)
            break;
    }
    *got = done;
    return 0;
}

void jet_os_advise_willneed(int fd, uint64_t off, uint64_t len)
{
    (void)fd;
    (void)off;
    (void)len;
}

void jet_os_close(int fd)
{
    if (fd >= 0)
        (void)_close(fd);
}

void *jet_os_pages_alloc(size_t n)
{
    return VirtualAlloc(NULL, n ? n : 1, MEM_COMMIT | MEM_RESERVE,
                        PAGE_READWRITE);
}

void jet_os_pages_free(void *p, size_t n)
{
    (void)n;
    if (p)
        (void)VirtualFree(p, 0, MEM_RELEASE);
}
