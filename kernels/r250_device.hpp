// R250 (r250, r250gsl) on the backends: the host-side setup and the family's kernel traits.
// R250 has no grids: on OpenMP each instance is made by one host thread, with the reference
// engine's state and step (r250.hpp), its numbers written straight into the layout
// (layout_index.hpp); one instance therefore runs at the reference engine's rate. OpenCL and
// CUDA refuse it (make_backend_stream says so in one line). The whole family's kernel side is
// this header: kernels/families.hpp lists R250Kernels, and the backends instantiate it there.
#pragma once

#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "generators/layout_index.hpp"
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
    static constexpr GeneratorFamily family = families::r250;
    static constexpr KernelForm form = KernelForm::instance_loop;
    using Setup = R250Setup;
    using State = R250State;
    static std::uint32_t next(R250State& s) { return r250_next(s); }
    static SegmentPlan plan(const Configuration&, const BackendOptions&) { return {}; }
    // Seeds every instance as make_stream does and jumps it (generators/jump.hpp) over its share
    // of c.skip. Throws InputError (a plan of several units included).
    static Setup setup(const Configuration& c, const SegmentPlan& plan)
    {
        if (rngvet::family(c.generator) != families::r250)
            throw InputError("r250_setup: '" + to_string(c.generator) + "' is not R250");
        if (plan.segments > 1)
            throw InputError("R250 on the backends has no jump-parallel generation ("
                + std::to_string(plan.segments) + " units per instance asked for)");
        R250Setup out;
        out.instances = static_cast<std::uint64_t>(c.instances);
        out.layout = layout_code(c.layout);
        out.block = c.layout.kind == LayoutKind::single || c.layout.kind == LayoutKind::interleave
            ? 1
            : c.layout.block;
        out.start = c.skip;
        out.name = canonical_name(c);
        allocate_states(out.states, out.instances, c.instances);
        // Each instance jumps (O(log n)) over its own numbers among the first c.skip.
        for (std::uint64_t i = 0; i < out.instances; ++i) {
            R250State& s = out.states[i];
            s = r250_instance_state(c, static_cast<int>(i));
            r250_jump(s, rv_layout_count_before(out.instances, out.layout, out.block, i, c.skip));
        }
        return out;
    }
};

// R250Kernels::setup of a validated configuration, the whole stream in one launch (for callers
// outside make_backend_stream). Throws InputError.
inline R250Setup r250_setup(const Configuration& config)
{
    return R250Kernels::setup(config, {});
}

} // namespace rngvet
