#include "kernels/r250_device.hpp"

#include "generators/error.hpp"
#include "generators/jump.hpp"
#include "generators/layout_index.hpp"

namespace rngvet {

// The entry for callers outside make_backend_stream: the whole stream, one launch.
R250Setup r250_setup(const Configuration& c)
{
    return R250Kernels::setup(c, {});
}

R250Setup R250Kernels::setup(const Configuration& c, const SegmentPlan& plan)
{
    if (rngvet::family(c.generator) != GeneratorFamily::r250)
        throw InputError("r250_setup: '" + to_string(c.generator) + "' is not R250");
    if (plan.segments > 1)
        throw InputError("R250 on the backends has no jump-parallel generation ("
            + std::to_string(plan.segments) + " units per instance asked for)");
    R250Setup setup;
    setup.instances = static_cast<std::uint64_t>(c.instances);
    setup.layout = layout_code(c.layout);
    setup.block = c.layout.kind == LayoutKind::single || c.layout.kind == LayoutKind::interleave
        ? 1
        : c.layout.block;
    setup.start = c.skip;
    setup.name = canonical_name(c);
    allocate_states(setup.states, setup.instances, c.instances);
    // Each instance jumps (O(log n)) over its own numbers among the first c.skip.
    for (std::uint64_t i = 0; i < setup.instances; ++i) {
        R250State& s = setup.states[i];
        s = r250_instance_state(c, static_cast<int>(i));
        r250_jump(s, rv_layout_count_before(setup.instances, setup.layout, setup.block, i, c.skip));
    }
    return setup;
}

} // namespace rngvet
