// Compiled instead of cuda_kernels.cu when RNGVET_WITH_CUDA is OFF.
#include "generators/error.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

namespace rngvet {

namespace {
const char* const not_built = "not built: configure with -DRNGVET_WITH_CUDA=ON (needs nvcc)";
}

bool cuda_usable(std::string& why)
{
    why = not_built;
    return false;
}

std::vector<std::string> cuda_device_names()
{
    return {};
}

void warm_up_cuda(int) { }

std::unique_ptr<KernelDevice> make_cuda_ranmar(const RanmarSetup&, int)
{
    throw InputError(std::string("backend 'cuda' is ") + not_built);
}

std::unique_ptr<KernelDevice> make_cuda_mt(const MtSetup&, int)
{
    throw InputError(std::string("backend 'cuda' is ") + not_built);
}

} // namespace rngvet
