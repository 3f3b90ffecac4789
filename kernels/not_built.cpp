// The functions of the backends configured off (device.hpp), compiled whatever is built:
// RNGVET_BUILT_OPENMP, RNGVET_BUILT_OPENCL and RNGVET_BUILT_CUDA (kernels/CMakeLists.txt) say
// which backends have their folder compiled instead. A backend left out is not usable, with the
// reason saying how to build it, has no devices, and its device template, instantiated for every
// family of RNGVET_FOR_EACH_KERNEL_FAMILY, refuses with that reason.
#include "generators/error.hpp"
#include "kernels/families.hpp"

#include <string>
#include <vector>

// A backend's functions when it is not built; `reason` says how to build it.
#define RNGVET_NOT_BUILT(backend, reason)                                                          \
    bool backend##_usable(std::string& why)                                                        \
    {                                                                                              \
        why = reason;                                                                              \
        return false;                                                                              \
    }                                                                                              \
    std::vector<std::string> backend##_device_names()                                              \
    {                                                                                              \
        return {};                                                                                 \
    }                                                                                              \
    template <class Family>                                                                        \
    std::unique_ptr<KernelDevice> make_##backend##_device(const typename Family::Setup&, int)      \
    {                                                                                              \
        throw InputError(std::string("backend '" #backend "' is ") + reason);                      \
    }                                                                                              \
    RNGVET_INSTANTIATE_DEVICES(backend)

namespace rngvet {

#if !RNGVET_BUILT_OPENMP
RNGVET_NOT_BUILT(openmp, "not built: configure with -DRNGVET_WITH_OPENMP=ON")

int openmp_threads()
{
    return 1;
}
#endif

#if !RNGVET_BUILT_OPENCL
RNGVET_NOT_BUILT(
    opencl, "not built: configure with -DRNGVET_WITH_OPENCL=ON (needs ocl-icd-opencl-dev)")

bool opencl_gpu_present()
{
    return false;
}
#endif

#if !RNGVET_BUILT_CUDA
RNGVET_NOT_BUILT(cuda, "not built: configure with -DRNGVET_WITH_CUDA=ON (needs nvcc)")

void warm_up_cuda(int) { }
#endif

} // namespace rngvet
