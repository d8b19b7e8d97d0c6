/*
 * unit.h - shared scaffolding for the Check unit tests in tests/unit/.
 *
 * Each tests/unit/test_<module>.c defines one Suite and ends with
 * UNIT_MAIN(suite_fn), which runs it and turns failures into the exit code
 * that automake's test driver reads.
 */
#ifndef JET_TESTS_UNIT_H
#define JET_TESTS_UNIT_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** Run one suite; exit status 0 when every test passed. */
#define UNIT_MAIN(suite_fn)                                     \
    int main(void)                                              \
    {                                                           \
        SRunner *sr = srunner_create(suite_fn());               \
        srunner_run_all(sr, CK_NORMAL);                         \
        int failed = srunner_ntests_failed(sr);                 \
        srunner_free(sr);                                       \
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;       \
    }

/** A jet_db_check problem callback that prints each problem on stderr
 *  (ctx: unused). */
static inline void jet_test_print_problem(void *ctx, uint32_t pgno,
                                          const char *table, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "check: page %u, table %s: %s\n", pgno,
            table ? table : "-", msg);
}

/** A jet_db_check problem callback that only lets them be counted. */
static inline void jet_test_quiet_problem(void *ctx, uint32_t pgno,
                                          const char *table, const char *msg)
{
    (void)ctx;
    (void)pgno;
    (void)table;
    (void)msg;
}

#endif
