// Built when the CUDA backend is off: there are no CUDA references to measure.
#include "kernels/references.hpp"

namespace rngvet {

std::vector<Throughput> cuda_references(std::size_t)
{
    return {};
}

} // namespace rngvet
