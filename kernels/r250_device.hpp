// R250 (r250, r250gsl) on the backends: the host-side setup and the family's kernel traits.
// R250 has no grids: on OpenMP each instance is made by one host thread, with the reference
// engine's state and step (r250.hpp), its numbers written straight into the layout
// (layout_index.hpp); one instance therefore runs at the reference engine's rate. OpenCL and
// CUDA refuse it (make_backend_stream says so in one line).
#pragma once

#include "generators/configuration.hpp"
#include "generators/r250.hpp"
#include "kernels/device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

// What the instance loop of a KernelForm::instance_loop family reads: every instance's state at
// its position at combined index `start`, and the layout that places its numbers.
struct R250Setup {
    std::vector<R250State> states; // instance i at its position at combined index `start`
    std::uint64_t instances = 0;
    std::uint64_t layout = 0; // RNGVET_LAYOUT_*
    std::uint64_t block = 1; // K of block:K, R of request:R
    std::uint64_t start = 0; // combined index of the first launch (the configuration's skip)
    int bits = 32;
    std::string name; // canonical_name of the configuration
};

// R250's kernels as the dispatch reads them (families.hpp): the reference step, instance by
// instance (State and next), no jump-parallel generation.
struct R250Kernels {
    static constexpr GeneratorFamily family = GeneratorFamily::r250;
    static constexpr KernelForm form = KernelForm::instance_loop;
    using Setup = R250Setup;
    using State = R250State;
    static std::uint32_t next(R250State& s) { return r250_next(s); }
    static SegmentPlan plan(const Configuration&, const BackendOptions&) { return {}; }
    // Seeds every instance as make_stream does and jumps it (generators/jump.hpp) over its share
    // of c.skip. Throws InputError (a plan of several units included).
    static Setup setup(const Configuration& c, const SegmentPlan& plan);
};

// R250Kernels::setup of a validated configuration. Throws InputError.
R250Setup r250_setup(const Configuration& config);

} // namespace rngvet
