// R250 (r250, r250gsl) on the backends: the host-side setup and the OpenMP launcher. R250 has no
// OpenCL or CUDA kernel (make_backend_stream refuses those backends for it in one line). On
// OpenMP each instance is made by one host thread, with the reference engine's state and step
// (r250.hpp), its numbers written straight into the layout (layout_index.hpp); one instance
// therefore runs at the reference engine's rate.
#pragma once

#include "generators/configuration.hpp"
#include "generators/r250.hpp"
#include "kernels/device.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rngvet {

struct R250Setup {
    std::vector<R250State> states; // instance i at its position at combined index `start`
    std::uint64_t instances = 0;
    std::uint64_t layout = 0; // RNGVET_LAYOUT_*
    std::uint64_t block = 1; // K of block:K, R of request:R
    std::uint64_t start = 0; // combined index of the first launch (the configuration's skip)
    std::string name; // canonical_name of the configuration
};

// Seeds every instance as make_stream does and jumps it (generators/jump.hpp) over its share of
// c.skip. Throws InputError.
R250Setup r250_setup(const Configuration& config);

std::unique_ptr<KernelDevice> make_openmp_r250(const R250Setup& setup);

} // namespace rngvet
