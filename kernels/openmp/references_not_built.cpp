// Compiled instead of openmp_references.cpp when RNGVET_WITH_OPENMP is OFF: no OpenMP references.
#include "kernels/references.hpp"

namespace rngvet {

std::vector<Throughput> openmp_references(std::size_t, double)
{
    return {};
}

std::vector<Throughput> openmp_compute_reference(double)
{
    return {};
}

} // namespace rngvet
