/*
 * shared_dir.h - where the tests find ../shared (fixtures, tools).
 *
 * make check exports JETODBC_SHARED (default <srcdir>/../shared); a test
 * run by hand falls back to the JET_SHARED_DIR its Makefile compiled in.
 * Tests that need the folder skip (exit 77) when it is absent.
 */
#ifndef JET_TESTS_SHARED_DIR_H
#define JET_TESTS_SHARED_DIR_H

#include <stdlib.h>

#ifndef JET_SHARED_DIR
#define JET_SHARED_DIR "../shared"
#endif

/** The shared folder: $JETODBC_SHARED when set and non-empty, else the
 *  compiled-in JET_SHARED_DIR. Never NULL. */
static inline const char *jet_shared_dir(void)
{
    const char *e = getenv("JETODBC_SHARED");
    return e && *e ? e : JET_SHARED_DIR;
}

#endif
