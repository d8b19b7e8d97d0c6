/*
 * shared_dir.h - where the tests find ../shared (fixtures, tools).
 *
 * make check exports JETODBC_SHARED (default <srcdir>/../shared); a test
 * run by hand falls back to the JET_SHARED_DIR its Makefile compiled in.
 * Tests that need the folder skip (exit 77) when it is absent.
 */
#ifndef JET_TESTS_SHARED_DIR_H
#define JET_TESTS_SHARED_DIR_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/** The path of public fixture rel (e.g. "jackcess/V2003/testV2003.mdb")
 *  under the shared folder, or NULL when it cannot be read. The result
 *  lives in one of four static buffers, reused in turn: good for up to
 *  four paths held at once. */
static inline const char *jet_test_fixture(const char *rel)
{
    static char buf[4][1024];
    static unsigned k;
    char *b = buf[k++ & 3];
    snprintf(b, sizeof buf[0], "%s/fixtures/public/%s", jet_shared_dir(),
             rel);
    return access(b, R_OK) == 0 ? b : NULL;
}

#endif
