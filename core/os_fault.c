/*
 * os_fault.c - the fault-injection hook of the OS seam (both platforms).
 *
 * Tests make the nth write, sync or truncate fail with an errno (EIO,
 * ENOSPC) or kill the process there, to prove that the pager leaves the
 * database whole whatever the OS does (tests/unit/test_pager.c). Off, the
 * hook costs one load and branch per hooked call; reads are not hooked.
 */
#include "config.h"

#include <signal.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "os.h"

static struct {
    unsigned ops;       /* JET_OS_FAULT_* mask; 0 = off */
    unsigned nth;       /* operations left before the fault (1 = next) */
    int errnum;         /* 0 = kill */
    bool persist;       /* fail every hooked operation after the nth too */
    bool fired;
    unsigned count;     /* hooked operations since the last set */
} fault;

unsigned jet_os_fault_set(unsigned ops, unsigned nth, int errnum,
                          bool persist)
{
    unsigned n = fault.count;
    fault.ops = nth ? ops : 0;
    fault.nth = nth;
    fault.errnum = errnum;
    fault.persist = persist;
    fault.fired = false;
    fault.count = 0;
    return n;
}

int jet_os_fault_check(unsigned op)
{
    if (!(fault.ops & op))
        return 0;
    fault.count++;
    if (fault.fired)
        return fault.persist ? fault.errnum : 0;
    if (--fault.nth > 0)
        return 0;
    fault.fired = true;
    return fault.errnum ? fault.errnum : JET_OS_FAULT_KILL;
}

void jet_os_fault_kill(void)
{
#ifdef _WIN32
    TerminateProcess(GetCurrentProcess(), 137);
#else
    (void)raise(SIGKILL);
#endif
    for (;;)
        ;
}
