/*
 * dtoa_dc.cc - C shim over libdouble-conversion's shortest-digit mode.
 *
 * Built only when configure found the library (HAVE_DOUBLE_CONVERSION).
 * Uses no C++ runtime of its own (no exceptions, RTTI or allocation):
 * one static member function call per value. See dtoa.h.
 *
 * With JET_DC_STATIC (configure found Debian's PIC static archive,
 * libdouble-conversion.a) the library's objects are linked into the driver
 * and the driver needs no libstdc++ at all: loading libstdc++ cost a fresh
 * process more dynamic-linking time than the whole connect. The one C++
 * runtime service those objects reference is the guard of a function-local
 * static (DoubleToStringConverter::EcmaScriptConverter(), which we never
 * call); this file provides it below, hidden, so it never leaves the
 * driver nor replaces the C++ runtime of a host process.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include "dtoa.h"

#include <double-conversion/double-to-string.h>

using double_conversion::DoubleToStringConverter;

extern "C" int jet_dtoa_shortest(double v, int single, char *digits,
                                 int *ndigits, int *point)
{
    bool sign = false;
    int length = 0, pt = 0;
    DoubleToStringConverter::DoubleToAscii(
        v, single ? DoubleToStringConverter::SHORTEST_SINGLE
                  : DoubleToStringConverter::SHORTEST,
        0, digits, 18, &sign, &length, &pt);
    if (length <= 0 || length > 17)
        return -1;
    *ndigits = length;
    *point = pt;
    return 0;
}

#ifdef JET_DC_STATIC
#include <pthread.h>

/*
 * The Itanium C++ ABI's guard of a function-local static (the ABI every
 * compiler that builds this file on a non-Windows target uses): a 64-bit
 * object whose first byte is non-zero once the initialiser has completed.
 * We use its second byte as "an initialiser is running". One process-wide
 * mutex and condition variable serialise initialisers; a thread that finds
 * another one initialising waits for its release (or abort) and looks again.
 * The fast path (already initialised) is one acquire load, as the ABI's
 * inline check in the caller already did.
 */
namespace {
pthread_mutex_t guard_mutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t guard_cond = PTHREAD_COND_INITIALIZER;

inline unsigned char *guard_bytes(void *g)
{
    return static_cast<unsigned char *>(g);
}
} // namespace

extern "C" {
/** Itanium ABI: 1 when the caller must run the initialiser (and then call
 * __cxa_guard_release), 0 when the static is initialised. Blocks while
 * another thread runs the initialiser. */
__attribute__((visibility("hidden"))) int __cxa_guard_acquire(long long *g);
/** Itanium ABI: the initialiser completed; mark done, wake waiters. */
__attribute__((visibility("hidden"))) void __cxa_guard_release(long long *g);
/** Itanium ABI: the initialiser exited by an exception; let another try. */
__attribute__((visibility("hidden"))) void __cxa_guard_abort(long long *g);

int __cxa_guard_acquire(long long *g)
{
    unsigned char *b = guard_bytes(g);
    if (__atomic_load_n(&b[0], __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&guard_mutex);
    for (;;) {
        if (__atomic_load_n(&b[0], __ATOMIC_ACQUIRE)) {
            pthread_mutex_unlock(&guard_mutex);
            return 0;
        }
        if (!b[1]) {
            b[1] = 1;
            pthread_mutex_unlock(&guard_mutex);
            return 1;
        }
        pthread_cond_wait(&guard_cond, &guard_mutex);
    }
}

void __cxa_guard_release(long long *g)
{
    unsigned char *b = guard_bytes(g);
    pthread_mutex_lock(&guard_mutex);
    b[1] = 0;
    __atomic_store_n(&b[0], 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&guard_cond);
    pthread_mutex_unlock(&guard_mutex);
}

void __cxa_guard_abort(long long *g)
{
    unsigned char *b = guard_bytes(g);
    pthread_mutex_lock(&guard_mutex);
    b[1] = 0;
    pthread_cond_broadcast(&guard_cond);
    pthread_mutex_unlock(&guard_mutex);
}
}
#endif
