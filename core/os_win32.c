/*
 * os_win32.c - Windows file access for the core: reads, the pager's
 * writes, and the locking protocol.
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
 *
 * LOCKING PROTOCOL: the same bytes and levels as os.c (read it there), with
 * LockFileEx/UnlockFileEx (LOCKFILE_FAIL_IMMEDIATELY: nothing waits here,
 * a conflict is EBUSY). Windows locks belong to a handle, not to a
 * process, so each connection's handle conflicts with the others' by
 * itself and no per-file record is needed; closing a handle drops only
 * its own locks. Differences from fcntl: a shared lock is not upgraded in
 * place, so EXCLUSIVE takes PENDING first (no new reader gets in), then
 * drops its shared lock on the SHARED range and takes it exclusive (on
 * failure the shared lock is taken back, as SQLite's winLock does); and
 * Windows locks are mandatory, which is why the bytes lie past any page
 * an Access file can have. The protocol does not reach Access itself,
 * which keeps its .ldb/.laccdb lock file (a later layer, see os.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jet.h"
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
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
        return EEXIST;
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

void *jet_os_pages_alloc(size_t n, bool commit)
{
    (void)commit;       /* committed pages fault in cheaply (prefault) */
    return VirtualAlloc(NULL, n ? n : 1, MEM_COMMIT | MEM_RESERVE,
                        PAGE_READWRITE);
}

void jet_os_pages_free(void *p, size_t n)
{
    (void)n;
    if (p)
        (void)VirtualFree(p, 0, MEM_RELEASE);
}

void jet_os_prefault(void *p, size_t n)
{
    (void)p;            /* VirtualAlloc(MEM_COMMIT) pages fault in cheaply */
    (void)n;
}

/* ------------------------------------------------------------- writing */

/* A new C runtime descriptor for a CreateFileW of path with access and
 * disposition; 0 or errno. */
static int open_with(int *fd, const char *path, DWORD access, DWORD disp)
{
    wchar_t *w = wide_path(path);
    HANDLE h;
    int f, e;

    *fd = -1;
    if (!w)
        return errno;
    h = CreateFileW(w, access,
                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, disp, FILE_ATTRIBUTE_NORMAL, NULL);
    e = h == INVALID_HANDLE_VALUE ? errno_of_last_error() : 0;
    jet_free(w);
    if (e)
        return e;
    if (GetFileType(h) != FILE_TYPE_DISK) {
        CloseHandle(h);
        return JET_OS_NOT_REGULAR;
    }
    f = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
    if (f < 0) {
        CloseHandle(h);
        return EMFILE;
    }
    *fd = f;
    return 0;
}

int jet_os_open_rw(int *fd, const char *path)
{
    return open_with(fd, path, GENERIC_READ | GENERIC_WRITE, OPEN_EXISTING);
}

int jet_os_create(int *fd, const char *path, const char *like_path)
{
    (void)like_path;    /* the directory's ACL applies */
    return open_with(fd, path, GENERIC_READ | GENERIC_WRITE, CREATE_ALWAYS);
}

int jet_os_create_new(int *fd, const char *path)
{
    return open_with(fd, path, GENERIC_READ | GENERIC_WRITE, CREATE_NEW);
}

int jet_os_temp_open(int *fd)
{
    wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, dir);
    HANDLE h;
    int f;

    *fd = -1;
    if (n == 0 || n > MAX_PATH)
        return n == 0 ? errno_of_last_error() : ENAMETOOLONG;
    if (!GetTempFileNameW(dir, L"jet", 0, name))
        return errno_of_last_error();
    /* GetTempFileName made the file; open it to be deleted on close */
    h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL,
                    CREATE_ALWAYS, FILE_ATTRIBUTE_TEMPORARY |
                    FILE_FLAG_DELETE_ON_CLOSE, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        int e = errno_of_last_error();
        (void)DeleteFileW(name);
        return e;
    }
    f = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
    if (f < 0) {
        CloseHandle(h);
        return EMFILE;
    }
    *fd = f;
    return 0;
}

int jet_os_pwrite(int fd, const void *buf, size_t n, uint64_t off)
{
    HANDLE h = handle_of(fd);
    size_t done = 0;
    int f = jet_os_fault_check(JET_OS_FAULT_WRITE);

    if (f == JET_OS_FAULT_KILL) {
        n /= 2;
        f = 0;
        while (done < n) {
            OVERLAPPED ov = { 0 };
            DWORD w = 0;
            ov.Offset = (DWORD)(off + done);
            ov.OffsetHigh = (DWORD)((off + done) >> 32);
            if (!WriteFile(h, (const char *)buf + done, (DWORD)(n - done),
                           &w, &ov) || w == 0)
                break;
            done += w;
        }
        jet_os_fault_kill();
    }
    if (f)
        return f;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    while (done < n) {
        OVERLAPPED ov = { 0 };
        uint64_t at = off + done;
        size_t want = n - done;
        DWORD w = 0;
        if (want > 0x40000000u)
            want = 0x40000000u;
        ov.Offset = (DWORD)at;
        ov.OffsetHigh = (DWORD)(at >> 32);
        if (!WriteFile(h, (const char *)buf + done, (DWORD)want, &w, &ov))
            return GetLastError() == ERROR_DISK_FULL ? ENOSPC
                                                     : errno_of_last_error();
        if (w == 0)
            return EIO;
        done += w;
    }
    return 0;
}

int jet_os_fsync(int fd)
{
    HANDLE h = handle_of(fd);
    int f = jet_os_fault_check(JET_OS_FAULT_SYNC);
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    if (f)
        return f;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    return FlushFileBuffers(h) ? 0 : errno_of_last_error();
}

int jet_os_ftruncate(int fd, uint64_t size)
{
    HANDLE h = handle_of(fd);
    FILE_END_OF_FILE_INFO eof;
    int f = jet_os_fault_check(JET_OS_FAULT_TRUNCATE);
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    if (f)
        return f;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    eof.EndOfFile.QuadPart = (LONGLONG)size;
    return SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof)
               ? 0 : errno_of_last_error();
}

int jet_os_same_file(int fd, const char *path, bool *out)
{
    (void)fd;
    (void)path;
    *out = false;
    return ENOSYS;  /* a removed open file lingers: see os.h */
}

int jet_os_unlink(const char *path)
{
    wchar_t *w = wide_path(path);
    int e = 0;
    if (!w)
        return errno;
    if (!DeleteFileW(w))
        e = errno_of_last_error();
    jet_free(w);
    return e;
}

int jet_os_sync_dir(const char *path)
{
    int f = jet_os_fault_check(JET_OS_FAULT_SYNC);
    (void)path;     /* NTFS journals directory entries itself */
    if (f == JET_OS_FAULT_KILL)
        jet_os_fault_kill();
    return f;
}

bool jet_os_exists(const char *path)
{
    wchar_t *w = wide_path(path);
    bool yes;
    if (!w)
        return false;
    yes = GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;
    jet_free(w);
    return yes;
}

int jet_os_rename_new(const char *from, const char *to)
{
    wchar_t *wf = wide_path(from), *wt = wide_path(to);
    int e = 0;
    if (!wf || !wt)
        e = ENOMEM;
    else if (!MoveFileExW(wf, wt, MOVEFILE_WRITE_THROUGH))
        e = GetLastError() == ERROR_ALREADY_EXISTS ||
            GetLastError() == ERROR_FILE_EXISTS ? EEXIST : EIO;
    jet_free(wf);
    jet_free(wt);
    return e;
}

void jet_os_local_time(struct jet_timestamp *out)
{
    SYSTEMTIME st;
    GetLocalTime(&st);
    memset(out, 0, sizeof *out);
    out->year = (int16_t)st.wYear;
    out->month = (uint8_t)st.wMonth;
    out->day = (uint8_t)st.wDay;
    out->hour = (uint8_t)st.wHour;
    out->minute = (uint8_t)st.wMinute;
    out->second = (uint8_t)st.wSecond;
    out->fraction_ns = (uint32_t)st.wMilliseconds * 1000000u;
}

void jet_os_random(void *buf, size_t n)
{
    /* a nonce, not a key: the performance counter, time, process and
     * address, stirred by xorshift */
    uint8_t *b = buf;
    LARGE_INTEGER t;
    FILETIME ft;
    uint64_t x;

    QueryPerformanceCounter(&t);
    GetSystemTimeAsFileTime(&ft);
    x = (uint64_t)t.QuadPart ^ ((uint64_t)ft.dwLowDateTime << 21) ^
        ((uint64_t)GetCurrentProcessId() << 40) ^ (uint64_t)(uintptr_t)buf;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b[i] = (uint8_t)(x >> 24);
    }
}

void jet_os_sleep_ms(unsigned ms)
{
    Sleep(ms);
}

int jet_os_stamp_of(int fd, jet_os_stamp *out)
{
    HANDLE h = handle_of(fd);
    BY_HANDLE_FILE_INFORMATION fi;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    if (!GetFileInformationByHandle(h, &fi))
        return errno_of_last_error();
    out->size = ((uint64_t)fi.nFileSizeHigh << 32) | fi.nFileSizeLow;
    out->mtime_ns = (int64_t)((((uint64_t)fi.ftLastWriteTime.dwHighDateTime
                                << 32) |
                               fi.ftLastWriteTime.dwLowDateTime) * 100);
    out->ctime_ns = 0;
    {
        FILETIME ft;
        GetSystemTimeAsFileTime(&ft);
        out->taken_ns = (int64_t)((((uint64_t)ft.dwHighDateTime << 32) |
                                   ft.dwLowDateTime) * 100);
    }
    return 0;
}

int jet_os_advance_mtime(int fd, int64_t after_ns, jet_os_stamp *out)
{
    HANDLE h = handle_of(fd);
    jet_os_stamp st;
    int e = jet_os_stamp_of(fd, &st);
    if (e)
        return e;
    if (st.mtime_ns <= after_ns) {
        /* FILETIME counts 100 ns: one unit past after_ns */
        uint64_t t = (uint64_t)(after_ns / 100) + 1;
        FILETIME ft;
        ft.dwLowDateTime = (DWORD)t;
        ft.dwHighDateTime = (DWORD)(t >> 32);
        if (!SetFileTime(h, NULL, NULL, &ft))
            return errno_of_last_error();
        if ((e = jet_os_stamp_of(fd, &st)) != 0)
            return e;
        if (st.mtime_ns <= after_ns)
            return EAGAIN;
    }
    if (out)
        *out = st;
    return 0;
}

/* ------------------------------------------------------------- locking */

#define PENDING_BYTE 0xC0000000ull
#define RESERVED_BYTE (PENDING_BYTE + 1)
#define SHARED_FIRST (PENDING_BYTE + 2)
#define SHARED_SIZE 510u

struct jet_os_lock {
    HANDLE h;
    jet_lock_level level;
    bool shared_range;      /* holding the SHARED range shared */
    int slot;               /* Access user slot held, -1 none */
};

/* LockFileEx over [start, start + len) without waiting: 0, EBUSY, errno. */
static int lock_range(HANDLE h, uint64_t start, DWORD len, bool exclusive)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = (DWORD)start;
    ov.OffsetHigh = (DWORD)(start >> 32);
    if (LockFileEx(h, LOCKFILE_FAIL_IMMEDIATELY |
                          (exclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0),
                   0, len, 0, &ov))
        return 0;
    switch (GetLastError()) {
    case ERROR_LOCK_VIOLATION:
    case ERROR_IO_PENDING:
    case ERROR_SHARING_VIOLATION:
        return EBUSY;
    default:
        return errno_of_last_error();
    }
}

static void unlock_range(HANDLE h, uint64_t start, DWORD len)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = (DWORD)start;
    ov.OffsetHigh = (DWORD)(start >> 32);
    (void)UnlockFileEx(h, 0, len, 0, &ov);
}

int jet_os_lock_open(jet_os_lock **out, int fd)
{
    jet_os_lock *l;
    *out = NULL;
    if (handle_of(fd) == INVALID_HANDLE_VALUE)
        return EBADF;
    l = jet_calloc(1, sizeof *l);
    if (!l)
        return ENOMEM;
    l->h = handle_of(fd);
    l->slot = -1;
    *out = l;
    return 0;
}

void jet_os_lock_set_write_fd(jet_os_lock *l, int wfd)
{
    /* every lock stays on the first handle: Windows locks are per handle,
     * and a read handle takes exclusive locks too */
    (void)l;
    (void)wfd;
}

jet_lock_level jet_os_lock_level(const jet_os_lock *l)
{
    return l->level;
}

int jet_os_lock_acquire(jet_os_lock *l, jet_lock_level level)
{
    int e;
    if (level == JET_LOCK_PENDING)
        level = JET_LOCK_EXCLUSIVE;
    if (l->level >= level)
        return 0;
    if (level == JET_LOCK_SHARED) {
        e = lock_range(l->h, PENDING_BYTE, 1, false);
        if (e)
            return e;
        e = lock_range(l->h, SHARED_FIRST, SHARED_SIZE, false);
        unlock_range(l->h, PENDING_BYTE, 1);
        if (e)
            return e;
        l->shared_range = true;
        l->level = JET_LOCK_SHARED;
        return 0;
    }
    if (l->level == JET_LOCK_NONE)
        return EINVAL;
    if (level == JET_LOCK_RESERVED) {
        e = lock_range(l->h, RESERVED_BYTE, 1, true);
        if (e)
            return e;
        l->level = JET_LOCK_RESERVED;
        return 0;
    }
    if (l->level < JET_LOCK_PENDING) {
        e = lock_range(l->h, PENDING_BYTE, 1, true);
        if (e)
            return e;
        l->level = JET_LOCK_PENDING;
    }
    if (l->shared_range) {
        unlock_range(l->h, SHARED_FIRST, SHARED_SIZE);
        l->shared_range = false;
    }
    e = lock_range(l->h, SHARED_FIRST, SHARED_SIZE, true);
    if (e) {
        if (lock_range(l->h, SHARED_FIRST, SHARED_SIZE, false) == 0)
            l->shared_range = true;
        return e;
    }
    l->level = JET_LOCK_EXCLUSIVE;
    return 0;
}

int jet_os_lock_release(jet_os_lock *l, jet_lock_level level)
{
    int e = 0;
    if (l->level <= level)
        return 0;
    if (l->level == JET_LOCK_EXCLUSIVE) {
        unlock_range(l->h, SHARED_FIRST, SHARED_SIZE);
        if (level == JET_LOCK_SHARED)
            e = lock_range(l->h, SHARED_FIRST, SHARED_SIZE, false);
        l->shared_range = level == JET_LOCK_SHARED && e == 0;
    }
    if (l->level >= JET_LOCK_PENDING)
        unlock_range(l->h, PENDING_BYTE, 1);
    if (l->level >= JET_LOCK_RESERVED)
        unlock_range(l->h, RESERVED_BYTE, 1);
    if (level == JET_LOCK_NONE && l->shared_range) {
        unlock_range(l->h, SHARED_FIRST, SHARED_SIZE);
        l->shared_range = false;
    }
    l->level = level;
    return e;
}

int jet_os_lock_check_reserved(jet_os_lock *l, bool *out)
{
    *out = true;
    if (l->level >= JET_LOCK_RESERVED)
        return 0;
    if (lock_range(l->h, RESERVED_BYTE, 1, true) == 0) {
        unlock_range(l->h, RESERVED_BYTE, 1);
        *out = false;
    }
    return 0;
}

/* ---- Access user slots (os.h). Windows locks belong to a handle, so
 * another connection of this process conflicts like another process and
 * is reported as JET_OS_SLOT_JETODBC (it holds the marker too). */

/* Is the byte at off free for every other handle? Tried and given back. */
static int byte_taken(HANDLE h, uint64_t off, bool *out)
{
    int e = lock_range(h, off, 1, true);
    *out = e == EBUSY;
    if (e == 0)
        unlock_range(h, off, 1);
    return e == EBUSY ? 0 : e;
}

int jet_os_byte_locked(int fd, uint64_t off, bool *out)
{
    HANDLE h = handle_of(fd);
    *out = false;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    return byte_taken(h, off, out);
}

int jet_os_lock_slot_probe(jet_os_lock *l, unsigned slot, int *out)
{
    bool user = false, mark = false;
    int e;

    *out = JET_OS_SLOT_FREE;
    if (slot >= JET_OS_USER_SLOTS)
        return EINVAL;
    if (l->slot == (int)slot) {
        *out = JET_OS_SLOT_OURS;
        return 0;
    }
    e = byte_taken(l->h, JET_OS_USER_SLOT_BASE + slot, &user);
    if (e == 0 && user)
        e = byte_taken(l->h, JET_OS_USER_MARK_BASE + slot, &mark);
    if (e == 0 && user)
        *out = mark ? JET_OS_SLOT_JETODBC : JET_OS_SLOT_OTHER;
    return e;
}

int jet_os_lock_slot_take(jet_os_lock *l, unsigned slot)
{
    int e;
    if (slot >= JET_OS_USER_SLOTS || l->slot >= 0)
        return EINVAL;
    e = lock_range(l->h, JET_OS_USER_SLOT_BASE + slot, 1, true);
    if (e)
        return e;
    e = lock_range(l->h, JET_OS_USER_MARK_BASE + slot, 1, true);
    if (e) {
        unlock_range(l->h, JET_OS_USER_SLOT_BASE + slot, 1);
        return e;
    }
    l->slot = (int)slot;
    return 0;
}

void jet_os_lock_slot_drop(jet_os_lock *l)
{
    if (l->slot < 0)
        return;
    unlock_range(l->h, JET_OS_USER_SLOT_BASE + (unsigned)l->slot, 1);
    unlock_range(l->h, JET_OS_USER_MARK_BASE + (unsigned)l->slot, 1);
    l->slot = -1;
}

int jet_os_open_create(int *fd, const char *path, const char *like_path,
                       bool *created)
{
    bool existed = jet_os_exists(path);
    int e;
    (void)like_path;    /* the directory's ACL applies */
    e = open_with(fd, path, GENERIC_READ | GENERIC_WRITE, OPEN_ALWAYS);
    *created = e == 0 && !existed;
    return e;
}

int jet_os_pwrite_unhooked(int fd, const void *buf, size_t n, uint64_t off)
{
    HANDLE h = handle_of(fd);
    size_t done = 0;
    if (h == INVALID_HANDLE_VALUE)
        return EBADF;
    while (done < n) {
        OVERLAPPED ov = { 0 };
        uint64_t at = off + done;
        DWORD w = 0;
        ov.Offset = (DWORD)at;
        ov.OffsetHigh = (DWORD)(at >> 32);
        if (!WriteFile(h, (const char *)buf + done, (DWORD)(n - done), &w,
                       &ov))
            return errno_of_last_error();
        if (w == 0)
            return EIO;
        done += w;
    }
    return 0;
}

void jet_os_machine_name(char *buf, size_t cap)
{
    DWORD n = cap > 0xFFFF ? 0xFFFF : (DWORD)cap;
    if (cap == 0)
        return;
    if (!GetComputerNameA(buf, &n) || !buf[0])
        snprintf(buf, cap, "localhost");
    buf[cap - 1] = '\0';
}

void jet_os_lock_close(jet_os_lock *l, const int *fds, size_t nfds)
{
    if (l) {
        jet_os_lock_slot_drop(l);
        (void)jet_os_lock_release(l, JET_LOCK_NONE);
        jet_free(l);
    }
    for (size_t i = 0; i < nfds; i++)
        jet_os_close(fds[i]);
}
