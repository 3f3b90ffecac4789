#include "kernels/ranmar_device.hpp"

#include "generators/error.hpp"
#include "generators/jump.hpp"

namespace rngvet {

void ranmar_device_state(const RanmarState& s, std::uint64_t position, std::uint64_t* words)
{
    const int lags = ranmar_lags;
    for (int m = 0; m < lags; ++m) {
        const std::uint64_t slot = (position + static_cast<std::uint64_t>(m)) % ranmar_lags;
        words[slot] = s.u[(s.i97 - m + lags) % lags];
    }
    words[RNGVET_RANMAR_C] = s.c;
    for (int w = RNGVET_RANMAR_C + 1; w < RNGVET_RANMAR_STRIDE; ++w)
        words[w] = 0;
}

// The entry for callers outside make_backend_stream: the whole stream, one launch.
RanmarSetup ranmar_setup(const Configuration& c)
{
    return ranmar_setup(c, 1, 0);
}

RanmarSetup ranmar_setup(const Configuration& c, std::uint64_t segments, std::uint64_t length)
{
    if (family(c.generator) != families::ranmar)
        throw InputError("ranmar_setup: '" + to_string(c.generator) + "' is not RANMAR");
    check_stream_positions(c);
    if (segments < 1) segments = 1;
    if (segments > 1
        && (length < 1 || length > (std::uint64_t(1) << 30)
            || length > (std::uint64_t(1) << 40) / segments))
        throw InputError("jump-parallel RANMAR: " + std::to_string(segments) + " chunks of "
            + std::to_string(length)
            + " numbers (chunks of at most 2^30 numbers, and the chunks of an instance span at "
              "most 2^40)");
    RanmarSetup setup;
    setup.instances = static_cast<std::uint64_t>(c.instances);
    setup.units = setup.instances * segments;
    setup.bits = resolution_bits(c);
    setup.name = canonical_name(c);
    allocate_states(setup.state, setup.units * RNGVET_RANMAR_STRIDE, c.instances);
    const RanmarState first = ranmar_instance_state(c, 0);
    RanmarKernelParams& p = setup.params;
    p.cd = first.cd;
    p.cm = first.cm;
    p.cd_step = RNGVET_RANMAR_LANES * first.cd % first.cm;
    p.mask = (std::uint64_t(1) << first.bits) - 1;
    p.instances = setup.instances;
    p.layout = layout_code(c.layout);
    p.block = c.layout.kind == LayoutKind::single || c.layout.kind == LayoutKind::interleave
        ? 1
        : c.layout.block;
    p.zero_smallest = first.zero_policy == static_cast<int>(ZeroPolicy::smallest) ? 1 : 0;
    p.segments = segments;
    p.seg_length = segments > 1 ? length : 0;
    p.start = c.skip;

    // Each instance jumps (O(log n), generators/jump.hpp) over its own numbers among the first
    // c.skip of the combined stream; the first launch then starts at combined index c.skip.
    // With segments, unit s of the instance is that state moved on by s chunks, one jump by
    // the chunk length after the other.
    RanmarJump chunk;
    if (segments > 1) {
        const RanmarJump over = ranmar_jump_by(first, (segments - 1) * length);
        setup.jump.assign(over.poly, over.poly + ranmar_lags);
        p.jump_c = over.c_back;
        chunk = ranmar_jump_by(first, length);
    }
    setup.start = c.skip;
    for (int i = 0; i < c.instances; ++i) {
        RanmarState s = ranmar_instance_state(c, i);
        std::uint64_t position = ranmar_count_before(p, static_cast<std::uint64_t>(i), c.skip);
        ranmar_jump(s, position);
        for (std::uint64_t k = 0; k < segments; ++k) {
            if (k > 0) {
                ranmar_jump(s, chunk);
                position += length;
            }
            const std::uint64_t unit = static_cast<std::uint64_t>(i) * segments + k;
            ranmar_device_state(s, position,
                setup.state.data() + static_cast<std::size_t>(unit) * RNGVET_RANMAR_STRIDE);
        }
    }
    return setup;
}

} // namespace rngvet
