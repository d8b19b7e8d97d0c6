/*
 * writetest.h - the set-up every write test repeats: a fixture copied to a
 * temporary file, the copy and its journal removed, and the independent
 * verifier (../shared/tools/jetcheck) run on the result. Header only, for
 * Check tests (like slurp.h and shared_dir.h).
 */
#ifndef JET_TESTS_WRITETEST_H
#define JET_TESTS_WRITETEST_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shared_dir.h"
#include "slurp.h"

/** Copy the file at src to a new temporary file /tmp/jet_<tag>_XXXXXX,
 *  its name written to path (cap bytes). Fails the test when src cannot
 *  be read or the copy written. */
static inline void jet_test_copy_to_temp(char *path, size_t cap,
                                         const char *src, const char *tag)
{
    size_t len;
    uint8_t *buf = jet_test_slurp(src, &len);
    FILE *f;
    int fd;
    ck_assert_msg(buf != NULL, "cannot read %s", src);
    snprintf(path, cap, "/tmp/jet_%s_XXXXXX", tag);
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    free(buf);
}

/** Remove a test's database file and its rollback journal (<path>-journal),
 *  if present. */
static inline void jet_test_remove_db(const char *path)
{
    char j[1100];
    snprintf(j, sizeof j, "%s-journal", path);
    unlink(path);
    unlink(j);
}

/** Is the Jackcess-based verifier usable here (the tool and java)? Says
 *  once on stderr why not, when not. */
static inline int jet_test_have_jetcheck(void)
{
    static int known = -1;
    char tool[1024];
    if (known >= 0)
        return known;
    snprintf(tool, sizeof tool, "%s/tools/jetcheck/jetcheck",
             jet_shared_dir());
    known = access(tool, X_OK) == 0 &&
            system("command -v java >/dev/null 2>&1") == 0;
    if (!known)
        fprintf(stderr, "jetcheck or java not found: verify skipped\n");
    return known;
}

/** `jetcheck verify path opts` (opts: more arguments, e.g.
 *  "--all-tables", or "") must report 0 problems; its report goes to
 *  stderr when it does not, and the test fails. Skipped (with a note)
 *  without jetcheck or java. */
static inline void jet_test_jetcheck_verify_opts(const char *path,
                                                 const char *opts)
{
    char cmd[2400];
    if (!jet_test_have_jetcheck())
        return;
    snprintf(cmd, sizeof cmd, "'%s/tools/jetcheck/jetcheck' verify '%s' "
             "%s >'%s.verify' 2>&1", jet_shared_dir(), path, opts, path);
    if (system(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "cat '%s.verify' >&2", path);
        (void)system(cmd);
        ck_abort_msg("jetcheck verify failed on %s", path);
    }
    snprintf(cmd, sizeof cmd, "%s.verify", path);
    unlink(cmd);
}

/** jet_test_jetcheck_verify_opts with no more arguments. */
static inline void jet_test_jetcheck_verify(const char *path)
{
    jet_test_jetcheck_verify_opts(path, "");
}

#endif
