/*
 * os.h - the OS seam: the only place core/ makes POSIX file calls.
 *
 * Read-only open of regular files only (never blocks on a FIFO or device),
 * positioned reads, size, advice, close; and committed anonymous memory for
 * the page cache's buffers. For the pager (pagefile.c): read-write opens,
 * positioned writes, fsync, truncate, unlink, directory sync, the
 * byte-range locking protocol (described at the top of os.c and
 * os_win32.c), and a fault-injection hook for tests.
 * Functions return 0 on success or an errno value.
 */
#ifndef JET_OS_H
#define JET_OS_H

#include <stddef.h>
#include <stdbool.h>
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
 * n bytes of zeroed, page-aligned read/write memory: with commit, backed
 * at once (POSIX mmap MAP_ANONYMOUS | MAP_POPULATE where the system has
 * it), so that filling it costs one call rather than a page fault per
 * 4 KiB; without, backed as it is first written (the caller may back
 * parts with jet_os_prefault as it comes to them). Windows:
 * VirtualAlloc(MEM_COMMIT) either way. NULL when the system refuses.
 * Release with jet_os_pages_free(p, n) and the same n.
 */
void *jet_os_pages_alloc(size_t n, bool commit);
/** Release memory of jet_os_pages_alloc(n); p NULL is a no-op. */
void jet_os_pages_free(void *p, size_t n);
/**
 * Back the whole pages inside [p, p + n) with memory now (Linux 5.14+:
 * madvise MADV_POPULATE_WRITE), one call instead of a page fault per
 * 4 KiB first written later; for big heap blocks about to be filled. A
 * no-op where the system lacks it or refuses; the bytes are unchanged.
 */
void jet_os_prefault(void *p, size_t n);

/* ------------------------------------------------------------ writing */

/**
 * Open the existing regular file path for reading and writing into *fd
 * (O_RDWR|O_CLOEXEC|O_NOCTTY; Windows GENERIC_READ|GENERIC_WRITE with full
 * sharing). Returns 0, JET_OS_NOT_REGULAR, or an errno value (EACCES,
 * EROFS, EPERM when the file or its file system is not writable).
 */
int jet_os_open_rw(int *fd, const char *path);
/**
 * Create (or truncate) path for reading and writing, with the permission
 * bits of the file at like_path when it can be stat'ed (else 0644), into
 * *fd. For the rollback journal. Returns 0 or errno.
 */
int jet_os_create(int *fd, const char *path, const char *like_path);
/**
 * Create path for reading and writing into *fd only if nothing is there
 * (O_CREAT|O_EXCL, mode 0666 less the umask; Windows CREATE_NEW): a new
 * database file. Returns 0, EEXIST when path exists, or errno.
 */
int jet_os_create_new(int *fd, const char *path);
/** Write exactly n bytes at off (retries EINTR and short writes).
 *  Returns 0 or errno (ENOSPC, EIO, ...). */
int jet_os_pwrite(int fd, const void *buf, size_t n, uint64_t off);
/** Make fd's data durable (fdatasync; F_FULLFSYNC on macOS;
 *  FlushFileBuffers on Windows). Returns 0 or errno. */
int jet_os_fsync(int fd);
/** Set fd's size to size bytes. Returns 0 or errno. */
int jet_os_ftruncate(int fd, uint64_t size);
/** Remove path. Returns 0, ENOENT when it was not there, or errno. */
int jet_os_unlink(const char *path);
/** Make the directory entry changes of the directory holding path durable
 *  (fsync of the directory; nothing to do on Windows). Returns 0 or errno;
 *  file systems that cannot sync a directory (EINVAL) count as done. */
int jet_os_sync_dir(const char *path);
/**
 * Create an anonymous temporary file for reading and writing into *fd:
 * in $TMPDIR (else /tmp), made with mkstemp and unlinked at once, so it
 * is gone when fd is closed (jet_os_close) or the process dies; Windows:
 * GetTempPath, FILE_FLAG_DELETE_ON_CLOSE. For the pager's savepoint
 * images, which need not survive a crash (the journal does that).
 * Returns 0 or errno.
 */
int jet_os_temp_open(int *fd);
/** Does path exist (as anything)? */
bool jet_os_exists(const char *path);
/**
 * Give the file at from the name to, only when nothing is there: a
 * hard link then the old name removed (POSIX; a file system without
 * hard links: rename after a check), MoveFileExW without
 * MOVEFILE_REPLACE_EXISTING on Windows. Returns 0, EEXIST when to
 * exists, or errno. The caller syncs the directory (jet_os_sync_dir).
 */
int jet_os_rename_new(const char *from, const char *to);
/**
 * Does path name the file fd is open on, and is that file still linked
 * (not removed)? *out false when path does not exist. For the journal the
 * pager keeps open between transactions, which another connection may
 * remove meanwhile. Returns 0, or ENOSYS where a file may not be kept open
 * across its removal by another process (Windows: a removed file lingers
 * "delete pending" and blocks a new one of the same name), or errno.
 */
int jet_os_same_file(int fd, const char *path, bool *out);
/** Fill buf with n unpredictable bytes (the journal nonce): the system's
 *  random source, else a mix of time, process id and address. */
void jet_os_random(void *buf, size_t n);
/** The local date and time now: whole seconds (what Access stamps on
 *  the objects it creates: MSysObjects DateCreate/DateUpdate) and, in
 *  fraction_ns, the part of the second (milliseconds on Windows; an
 *  append-only Memo's version is stamped to the millisecond). */
struct jet_timestamp;
void jet_os_local_time(struct jet_timestamp *out);
/** Sleep about ms milliseconds (a busy lock's retry). */
void jet_os_sleep_ms(unsigned ms);
/**
 * What identifies the file's current content for a cache that outlives
 * a lock: size, modification and change times in nanoseconds (as fine as
 * the file system keeps them). Returns 0 or errno.
 */
typedef struct jet_os_stamp {
    uint64_t size;
    int64_t mtime_ns, ctime_ns;
    int64_t taken_ns;   /* the wall clock when the stamp was taken */
} jet_os_stamp;
int jet_os_stamp_of(int fd, jet_os_stamp *out);
/**
 * Make the modification time of fd (open for writing) later than after_ns
 * (the mtime_ns of a stamp), so that a cache holding that stamp sees the
 * change even when the clock has not ticked since it was taken: nothing
 * when the file's time is already later; else the time is set to after_ns
 * plus one microsecond, or (when only the owner may set a time, or the
 * file system rounds it) to the current time once the clock has passed
 * after_ns, waiting for it at most about 100 ms. Returns 0 when the file's
 * mtime is later than after_ns, else errno (EAGAIN: the clock stayed
 * behind). Fills *out with the file's stamp afterwards when out is not
 * NULL and the result is 0.
 */
int jet_os_advance_mtime(int fd, int64_t after_ns, jet_os_stamp *out);

/* ------------------------------------------------------------ locking */

/**
 * Lock levels of a database file, as SQLite's (os.c has the protocol):
 * SHARED lets a connection read; RESERVED says it means to write (one
 * writer at a time; readers still come and go); PENDING (a step of
 * EXCLUSIVE) keeps new readers out while old ones finish; EXCLUSIVE lets
 * it write the database file.
 */
typedef enum jet_lock_level {
    JET_LOCK_NONE = 0,
    JET_LOCK_SHARED = 1,
    JET_LOCK_RESERVED = 2,
    JET_LOCK_PENDING = 3,
    JET_LOCK_EXCLUSIVE = 4
} jet_lock_level;

/** One connection's locks on one database file (opaque). */
typedef struct jet_os_lock jet_os_lock;

/**
 * A lock handle for the file open as fd (read-only or read-write), which
 * the handle borrows. POSIX: joins the process's record of that file
 * (its inode: fcntl locks belong to the process, so connections of one
 * process share one lock state; os.c). Returns 0, ENOMEM or errno.
 */
int jet_os_lock_open(jet_os_lock **out, int fd);
/**
 * Also use wfd (the same file opened read-write) for locks that need a
 * writable descriptor (POSIX write locks). Borrowed like fd.
 */
void jet_os_lock_set_write_fd(jet_os_lock *l, int wfd);
/**
 * Raise the connection's lock to level (SHARED, RESERVED or EXCLUSIVE;
 * EXCLUSIVE passes through PENDING) without waiting. Returns 0, EBUSY
 * when another connection or process holds a conflicting lock (a failed
 * EXCLUSIVE may leave PENDING held: retry, or unlock), or errno.
 */
int jet_os_lock_acquire(jet_os_lock *l, jet_lock_level level);
/** Lower the connection's lock to SHARED or NONE. Returns 0 or errno. */
int jet_os_lock_release(jet_os_lock *l, jet_lock_level level);
/** The connection's lock level. */
jet_lock_level jet_os_lock_level(const jet_os_lock *l);
/**
 * Does any connection (this process or another) hold RESERVED or more?
 * (A journal beside the file is hot only when none does.) 0 or errno.
 */
int jet_os_lock_check_reserved(jet_os_lock *l, bool *out);
/**
 * Drop the connection's locks and free the handle; then close the nfds
 * descriptors of the file. POSIX: while another connection of the
 * process still holds a lock on the file, closing would drop its locks,
 * so the descriptors are kept open until the last lock of the process on
 * that file is released. NULL l just closes the descriptors.
 */
void jet_os_lock_close(jet_os_lock *l, const int *fds, size_t nfds);

/* ---------------------------------- Access's lock file and user slots */

/*
 * Access (Jet/ACE) keeps a lock file beside the database (lockfile.c) and
 * marks each user's presence with a one-byte lock on the DATABASE file at
 * JET_OS_USER_SLOT_BASE + slot (slot 0..254; the white paper "Understanding
 * Microsoft Jet Locking": the first user lock is at 10000001h, the user's
 * 64-byte record in the lock file at slot * 64). Our connections take the
 * same byte, plus a marker byte at JET_OS_USER_MARK_BASE + slot that Jet
 * never locks, so that one jetodbc process can tell another (which our
 * own locking protocol serialises) from Access.
 */
#define JET_OS_USER_SLOT_BASE 0x10000001ull
#define JET_OS_USER_MARK_BASE 0x10000201ull
#define JET_OS_USER_SLOTS 255u

/** jet_os_lock_slot_probe() answers. */
enum {
    JET_OS_SLOT_FREE = 0,       /* nobody holds its user byte */
    JET_OS_SLOT_OTHER = 1,      /* another program (Access, Jet) holds it */
    JET_OS_SLOT_JETODBC = 2,    /* another jetodbc process holds it */
    JET_OS_SLOT_OURS = 3        /* a connection of this process holds it */
};

/**
 * Who holds user slot slot of the database file of l (a JET_OS_SLOT_*
 * value in *out). Asks the OS without taking anything (fcntl F_GETLK;
 * Windows: a lock tried and given back at once). Returns 0 or errno.
 */
int jet_os_lock_slot_probe(jet_os_lock *l, unsigned slot, int *out);
/**
 * Take user slot slot for this connection (its user and marker bytes,
 * write-locked without waiting; needs the write fd on POSIX). One slot
 * per handle; the handle keeps it until jet_os_lock_slot_drop or
 * jet_os_lock_close. Returns 0, EBUSY (held by anyone, this process
 * included), EINVAL (no write fd, or already holding one) or errno.
 */
int jet_os_lock_slot_take(jet_os_lock *l, unsigned slot);
/** Give the handle's user slot back (no-op when it holds none). */
void jet_os_lock_slot_drop(jet_os_lock *l);
/**
 * Does another process hold a lock on byte off of the file open as fd
 * (the lock file: older Jet versions lock its slots there)? 0 or errno.
 */
int jet_os_byte_locked(int fd, uint64_t off, bool *out);
/**
 * Open path read-write, creating it (permission bits of like_path, else
 * 0644) when absent; never truncates. *created says whether it was made.
 * For the lock file. Returns 0, JET_OS_NOT_REGULAR or errno.
 */
int jet_os_open_create(int *fd, const char *path, const char *like_path,
                       bool *created);
/** jet_os_pwrite without the fault hook (the lock file is not the
 *  database: crash tests count only the pager's writes). */
int jet_os_pwrite_unhooked(int fd, const void *buf, size_t n, uint64_t off);
/** The machine's name (gethostname; Windows GetComputerNameA), at most
 *  cap - 1 bytes and a NUL, into buf; "localhost" when it cannot tell. */
void jet_os_machine_name(char *buf, size_t cap);

/* ------------------------------------------------------ fault injection */

/** Operations the fault hook can fail (bit mask). */
#define JET_OS_FAULT_WRITE 1u      /* jet_os_pwrite */
#define JET_OS_FAULT_SYNC 2u       /* jet_os_fsync, jet_os_sync_dir */
#define JET_OS_FAULT_TRUNCATE 4u   /* jet_os_ftruncate */
#define JET_OS_FAULT_ALL 7u

/**
 * Tests only: make the nth (1-based) of the next operations in ops fail.
 * errnum > 0 fails it with that errno (EIO, ENOSPC) and, when persist,
 * every one after it too; errnum 0 kills the process at that point with
 * SIGKILL (a write is first done half, as a torn write), for crash tests.
 * nth 0 turns the hook off. Returns how many hooked operations ran since
 * the last call. Not thread-safe: set it while no other thread writes.
 * Costs one branch per write, sync or truncate; reads are not hooked.
 */
unsigned jet_os_fault_set(unsigned ops, unsigned nth, int errnum,
                          bool persist);

/**
 * The hook's verdict on one operation of kind op (os.c and os_win32.c call
 * it first thing): 0 go on, an errno value to fail with, or
 * JET_OS_FAULT_KILL: (write half, then) jet_os_fault_kill().
 */
#define JET_OS_FAULT_KILL (-1)
int jet_os_fault_check(unsigned op);
/** End the process at once, as SIGKILL would (no exit handlers). */
void jet_os_fault_kill(void);

#endif /* JET_OS_H */
