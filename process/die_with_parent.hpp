// Worker processes end with the process that started them: a sharded run's test workers, a
// local campaign's task runs, the feed bench's and the backend probe's children. Without this a
// parent killed with kill -9 leaves its workers computing, and a re-run could start the same
// work beside them.
#pragma once

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace rngvet {

// Called in the child right after fork (or at the start of a spawned program): the kernel sends
// `signal` to this process when `parent` exits, and a parent that is already gone is noticed
// here (the death signal only covers deaths after the call).
inline void die_with_parent(pid_t parent, int signal)
{
    ::prctl(PR_SET_PDEATHSIG, signal);
    if (::getppid() != parent) ::raise(signal);
}

} // namespace rngvet
