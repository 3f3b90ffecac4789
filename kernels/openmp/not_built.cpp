// Compiled instead of openmp_kernels.cpp when RNGVET_WITH_OPENMP is OFF.
#include "generators/error.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/r250_device.hpp"
#include "kernels/ranmar_device.hpp"

namespace rngvet {

namespace {
const char* const not_built = "not built: configure with -DRNGVET_WITH_OPENMP=ON";
}

bool openmp_usable(std::string& why)
{
    why = not_built;
    return false;
}

int openmp_threads()
{
    return 1;
}

std::unique_ptr<KernelDevice> make_openmp_ranmar(const RanmarSetup&)
{
    throw InputError(std::string("backend 'openmp' is ") + not_built);
}

std::unique_ptr<KernelDevice> make_openmp_mt(const MtSetup&)
{
    throw InputError(std::string("backend 'openmp' is ") + not_built);
}

std::unique_ptr<KernelDevice> make_openmp_r250(const R250Setup&)
{
    throw InputError(std::string("backend 'openmp' is ") + not_built);
}

} // namespace rngvet
