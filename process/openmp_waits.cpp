#include "openmp_waits.hpp"

#include <cstdlib>
#include <unistd.h>

namespace rngvet {

void start_with_passive_openmp_waits(char** argv)
{
    if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
    if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
    ::execv("/proc/self/exe", argv);
    // Not started again: this process's libgomp keeps the policy it read at load time, and the
    // variable is taken back so that its children do not differ from it.
    ::unsetenv("OMP_WAIT_POLICY");
}

} // namespace rngvet
