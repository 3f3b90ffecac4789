// Compiled instead of opencl_kernels.cpp when RNGVET_WITH_OPENCL is OFF.
#include "generators/error.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

namespace rngvet {

namespace {
const char* const not_built
    = "not built: configure with -DRNGVET_WITH_OPENCL=ON (needs ocl-icd-opencl-dev)";
}

bool opencl_usable(std::string& why)
{
    why = not_built;
    return false;
}

std::vector<std::string> opencl_device_names()
{
    return {};
}

bool opencl_gpu_present()
{
    return false;
}

std::unique_ptr<KernelDevice> make_opencl_ranmar(const RanmarSetup&, int)
{
    throw InputError(std::string("backend 'opencl' is ") + not_built);
}

std::unique_ptr<KernelDevice> make_opencl_mt(const MtSetup&, int)
{
    throw InputError(std::string("backend 'opencl' is ") + not_built);
}

} // namespace rngvet
