/*
 * lock.h - the thread seam of core/: one-time initialisation and mutexes.
 *
 * POSIX threads on Unix; on Windows (mingw-w64) the kernel's own INIT_ONCE
 * and SRWLOCK, so the DLL needs no threads library. This header is the
 * only place in core/ that knows which; everything else calls jet_once()
 * and jet_mutex_lock()/unlock() on statically initialised objects:
 *     static jet_once_t once = JET_ONCE_INIT;
 *     static jet_mutex_t lock = JET_MUTEX_INIT;
 * Mutexes are not recursive. Static objects need no destroy.
 */
#ifndef JET_LOCK_H
#define JET_LOCK_H

#include <stdint.h>

#ifdef _WIN32
#include <windows.h>

/** A once flag; initialise with JET_ONCE_INIT. */
typedef INIT_ONCE jet_once_t;
#define JET_ONCE_INIT INIT_ONCE_STATIC_INIT
/** A non-recursive mutex; initialise with JET_MUTEX_INIT. */
typedef SRWLOCK jet_mutex_t;
#define JET_MUTEX_INIT SRWLOCK_INIT

static inline BOOL CALLBACK jet_once_trampoline(PINIT_ONCE once, PVOID fn,
                                         PVOID *ctx)
{
    (void)once;
    (void)ctx;
    ((void (*)(void))(uintptr_t)fn)();
    return TRUE;
}

/** Run fn exactly once per flag; other callers wait until it returned. */
static inline void jet_once(jet_once_t *once, void (*fn)(void))
{
    (void)InitOnceExecuteOnce(once, jet_once_trampoline,
                              (PVOID)(uintptr_t)fn, NULL);
}
/** Take the mutex (blocks). */
static inline void jet_mutex_lock(jet_mutex_t *m)
{
    AcquireSRWLockExclusive(m);
}
/** Release a mutex taken by this thread. */
static inline void jet_mutex_unlock(jet_mutex_t *m)
{
    ReleaseSRWLockExclusive(m);
}
#else
#include <pthread.h>

typedef pthread_once_t jet_once_t;
#define JET_ONCE_INIT PTHREAD_ONCE_INIT
typedef pthread_mutex_t jet_mutex_t;
#define JET_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER

static inline void jet_once(jet_once_t *once, void (*fn)(void))
{
    (void)pthread_once(once, fn);
}
static inline void jet_mutex_lock(jet_mutex_t *m)
{
    (void)pthread_mutex_lock(m);
}
static inline void jet_mutex_unlock(jet_mutex_t *m)
{
    (void)pthread_mutex_unlock(m);
}
#endif

#endif /* JET_LOCK_H */
