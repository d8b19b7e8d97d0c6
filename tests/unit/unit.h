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

#endif
