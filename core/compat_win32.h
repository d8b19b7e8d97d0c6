/*
 * compat_win32.h - POSIX spellings the reader and driver use, on Windows.
 *
 * Force-included (gcc -include, set by configure) into every object of the
 * mingw-w64 build and never in the Unix build, so no source file needs an
 * #ifdef for the platform. It brings windows.h in before the ODBC headers
 * (Windows' sql.h expects it) and maps the few POSIX calls that mingw-w64
 * lacks onto compat_win32.c:
 *   newlocale/freelocale, towlower_l/towupper_l  Unicode simple case
 *       mapping by LCMapStringEx with the invariant locale (the Unix build
 *       uses glibc's C.UTF-8 tables);
 *   strtod_l, strtof_l                           msvcrt's _strtod_l in the
 *       "C" locale (decimal point '.'; a float is the double rounded).
 * localtime_r comes from mingw-w64's time.h (_POSIX_THREAD_SAFE_FUNCTIONS),
 * clock_gettime and the pthread calls of driver/ from its winpthreads.
 */
#ifndef JET_COMPAT_WIN32_H
#define JET_COMPAT_WIN32_H

#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0601     /* Windows 7: INIT_ONCE, SRWLOCK, CNG */
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef __USE_MINGW_ANSI_STDIO
#define __USE_MINGW_ANSI_STDIO 1    /* C99 printf: %zu, %lld */
#endif
#ifndef _POSIX_THREAD_SAFE_FUNCTIONS
#define _POSIX_THREAD_SAFE_FUNCTIONS 200112L
#endif

#include <windows.h>
#include <locale.h>
#include <stdint.h>
#include <wctype.h>

/* winpthreads is linked statically: libtool defines DLL_EXPORT for DLL
 * objects, which would make pthread.h declare its functions dllimport */
#ifdef DLL_EXPORT
#undef DLL_EXPORT
#include <pthread.h>
#define DLL_EXPORT 1
#else
#include <pthread.h>
#endif

/** A locale handle of the shims below (never dereferenced). */
typedef void *locale_t;
#ifndef LC_CTYPE_MASK
#define LC_CTYPE_MASK (1 << LC_CTYPE)
#endif
#ifndef LC_NUMERIC_MASK
#define LC_NUMERIC_MASK (1 << LC_NUMERIC)
#endif

/** Any name gives a non-NULL handle: case mapping is the invariant
 *  locale's, numbers the "C" locale's, whatever is asked for. */
locale_t jet_w32_newlocale(int mask, const char *name, locale_t base);
/** Nothing to free (the handles are static). */
void jet_w32_freelocale(locale_t loc);
/** Simple lower/upper case of a code point (outside the BMP unchanged). */
uint32_t jet_w32_towlower(uint32_t cp);
uint32_t jet_w32_towupper(uint32_t cp);
/** strtod in the "C" locale. */
double jet_w32_strtod_c(const char *s, char **end);

/* File descriptors are not inherited by default on Windows' CreateProcess
 * without bInheritHandles; _O_NOINHERIT says so explicitly. */
#include <fcntl.h>
#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif

/* localtime_r also for a struct timeval's tv_sec, which is a long (32
 * bits) on Windows while time_t has 64. */
#include <time.h>
static inline struct tm *jet_w32_localtime_long(const long *t, struct tm *tm)
{
    time_t x = (time_t)*t;
    return localtime_s(tm, &x) == 0 ? tm : NULL;
}
static inline struct tm *jet_w32_localtime_time(const time_t *t,
                                                struct tm *tm)
{
    return localtime_s(tm, t) == 0 ? tm : NULL;
}
#define localtime_r(t, tm)                                                 \
    _Generic((t), long *: jet_w32_localtime_long,                          \
             const long *: jet_w32_localtime_long,                         \
             default: jet_w32_localtime_time)((t), (tm))

#define newlocale(mask, name, base) jet_w32_newlocale((mask), (name), (base))
#define freelocale(loc) jet_w32_freelocale(loc)
#define towlower_l(c, loc) jet_w32_towlower((uint32_t)(c))
#define towupper_l(c, loc) jet_w32_towupper((uint32_t)(c))
#define strtod_l(s, end, loc) jet_w32_strtod_c((s), (end))
#define strtof_l(s, end, loc) ((float)jet_w32_strtod_c((s), (end)))

#endif /* JET_COMPAT_WIN32_H */
