#include "kernels/mt_device.hpp"

#include "generators/error.hpp"
#include "generators/jump.hpp"
#include "generators/mt_charpoly.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace rngvet {

SegmentPlan MtKernels::plan(const Configuration& c, const BackendOptions& options)
{
    const int p = c.generator.kind == kinds::mt19937 ? 19937 : mtdc_param_set(c)->p;
    const std::uint64_t nn = static_cast<std::uint64_t>(p / 32 + 1);
    // CUDA: below cuda_mt_segment_limit instances, one warp per unit (mt_segments_body): the
    // lane kernel runs so few instances on one or a few blocks (32 instances: 256 threads) and
    // one MT19937 on one thread, where the units spread over the device, each paying a jump per
    // chunk. Chunks of at least 8192 numbers and p nn / 100 (a jump's p steps on nn words),
    // rounded up to a power of two, and the units planned for the native engine's launches of
    // 2^25 numbers, so that a launch is whole rounds of chunks. On an H100 (part 9 of
    // docs/benchmarks.md, launches of 2^25) MT19937 ran at 2.45e9 numbers/s in 256 units of
    // 131072 (2.9e8 in 1024 of 4096, the plan before; 1.48e9 in 269 of 124406, whose rounds do not
    // fill a launch), the OpenCL book's 32 MT521 at 3.5e10 in 128 units of 8192 each (1.5e10 in
    // 32 of 4096). A kernel forced by RNGVET_MT_KERNEL (launch_plan.hpp) runs without units.
    // OpenCL: none.
    if (c.backend == Backend::cuda) {
        const char* forced = std::getenv("RNGVET_MT_KERNEL");
        const bool kernel_forced = forced != nullptr && forced[0] != '\0';
        if ((c.instances >= cuda_mt_segment_limit || kernel_forced) && options.segments == 0)
            return {};
        std::uint64_t chunk = 8192;
        while (chunk < static_cast<std::uint64_t>(p) * nn / 100)
            chunk *= 2;
        return segment_plan(c, options, 0, chunk, std::uint64_t(1) << 25);
    }
    // OpenMP: a jump (Horner's rule, p sequential steps and about p/2 additions of the nn-word
    // state) costs about 4.5 p (nn/2 + 1) numbers' worth (docs/benchmarks.md), so chunks are at
    // least 10 times that: about 2.2e5 numbers for MT521, 2.8e8 for MT19937 (never at usual
    // launch lengths).
    if (c.backend != Backend::openmp) return {};
    return segment_plan(c, options, 45 * static_cast<std::uint64_t>(p) * (nn / 2 + 1), 0);
}

namespace {

// The jump-parallel grid's buffers (mt_kernel.hpp, mt_segments_body) from the units' reference
// states and the instances' jump polynomials.
void mt_segment_buffers(MtSetup& setup)
{
    MtKernelParams& p = setup.params;
    const std::uint64_t nn = p.nn;
    const std::uint64_t units = setup.unit_states.size();
    p.segments = setup.segments;
    p.seg_length = setup.length;
    p.start = setup.start;
    int degree = 0;
    for (const Gf2Poly& g : setup.jumps)
        degree = std::max(degree, g.degree());
    p.jump_words = static_cast<std::uint64_t>(degree) / 32 + 1;
    setup.unit_words.assign(units * nn, 0);
    setup.unit_position.assign(units, 0);
    setup.unit_scratch.assign(units * nn, 0);
    for (std::uint64_t u = 0; u < units; ++u) {
        const MtState& s = setup.unit_states[u];
        std::copy_n(s.st, nn, setup.unit_words.begin() + static_cast<std::ptrdiff_t>(u * nn));
        setup.unit_position[u] = static_cast<std::uint32_t>(s.k);
    }
    setup.jump_bits.assign(setup.jumps.size() * p.jump_words, 0);
    setup.jump_degree.assign(setup.jumps.size(), 0);
    for (std::size_t i = 0; i < setup.jumps.size(); ++i) {
        const Gf2Poly& g = setup.jumps[i];
        setup.jump_degree[i] = static_cast<std::uint32_t>(g.degree());
        for (int e = 0; e <= g.degree(); ++e)
            if (g.coeff(e))
                setup.jump_bits[i * p.jump_words + static_cast<std::size_t>(e) / 32]
                    |= std::uint32_t(1) << (e % 32);
    }
}

} // namespace

void mt_device_state(const MtState& s, const MtParams& prm, std::uint64_t i, MtSetup& setup)
{
    const std::uint64_t stride = setup.params.stride;
    for (int w = 0; w < prm.nn; ++w)
        setup.state[static_cast<std::uint64_t>(w) * stride + i] = s.st[w];
    setup.position[i] = static_cast<std::uint32_t>(s.k);
    setup.consts[i] = prm.aaa;
    setup.consts[stride + i] = prm.maskB;
    setup.consts[2 * stride + i] = prm.maskC;
}

// The entry for callers outside make_backend_stream: the whole stream, one launch.
MtSetup mt_setup(const Configuration& c)
{
    return mt_setup(c, 1, 0);
}

MtSetup mt_setup(const Configuration& c, std::uint64_t segments, std::uint64_t length)
{
    if (family(c.generator) != families::mt)
        throw InputError("mt_setup: '" + to_string(c.generator) + "' is not an MT");
    check_stream_positions(c);
    std::vector<MtParams> prms;
    std::vector<MtState> states;
    try {
        mt_instance_states(c, prms, states);
    } catch (const std::bad_alloc&) {
        throw InputError("cannot allocate host memory for the states of "
            + std::to_string(c.instances) + " instances");
    }
    const MtParams& first = prms.front();
    for (const MtParams& q : prms)
        if (q.nn != first.nn || q.mm != first.mm || q.rr != first.rr || q.ww != 32
            || q.umask != first.umask || q.lmask != first.lmask || q.shift0 != first.shift0
            || q.shift1 != first.shift1 || q.shiftB != first.shiftB || q.shiftC != first.shiftC)
            throw InputError("the backends need all instances of " + to_string(c.generator)
                + " to share one layout (w = 32, nn, mm, rr and the tempering shifts)");
    MtSetup setup;
    setup.instances = static_cast<std::uint64_t>(c.instances);
    setup.name = canonical_name(c);
    MtKernelParams& p = setup.params;
    p.instances = setup.instances;
    p.stride = (setup.instances + 15) / 16 * 16;
    p.layout = layout_code(c.layout);
    p.block = c.layout.kind == LayoutKind::single || c.layout.kind == LayoutKind::interleave
        ? 1
        : c.layout.block;
    p.nn = static_cast<std::uint64_t>(first.nn);
    p.mm = static_cast<std::uint64_t>(first.mm);
    p.umask = first.umask;
    p.lmask = first.lmask;
    p.shift0 = static_cast<std::uint64_t>(first.shift0);
    p.shift1 = static_cast<std::uint64_t>(first.shift1);
    p.shift_b = static_cast<std::uint64_t>(first.shiftB);
    p.shift_c = static_cast<std::uint64_t>(first.shiftC);
    allocate_states(setup.state, p.nn * p.stride, c.instances);
    allocate_states(setup.position, setup.instances, c.instances);
    allocate_states(setup.consts, 3 * p.stride, c.instances);
    setup.start = c.skip;
    if (segments < 1) segments = 1;
    if (segments > 1 && (length < 1 || length > (std::uint64_t(1) << 40) / segments))
        throw InputError("jump-parallel MT: " + std::to_string(segments) + " chunks of "
            + std::to_string(length) + " numbers (the chunks of an instance span at most 2^40)");
    setup.segments = segments;
    setup.length = segments > 1 ? length : 0;
    Gf2Poly phi; // shared by instances with equal parameters (mt19937, split:S)
    const MtParams* phi_of = nullptr;
    for (std::uint64_t i = 0; i < setup.instances; ++i) {
        MtState& s = states[i];
        const MtParams& prm = prms[i];
        const std::uint64_t position
            = rv_layout_count_before(p.instances, p.layout, p.block, i, c.skip);
        const bool same = phi_of && phi_of->aaa == prm.aaa && phi_of->maskB == prm.maskB
            && phi_of->maskC == prm.maskC && phi_of->nn == prm.nn && phi_of->mm == prm.mm
            && phi_of->rr == prm.rr;
        if ((position > 0 || segments > 1) && !same) {
            phi = mt_characteristic_polynomial(prm);
            phi_of = &prm;
        }
        if (position > 0) mt_jump(s, prm, phi, position);
        mt_device_state(s, prm, i, setup);
        if (segments == 1) continue;
        // Jump-parallel: unit s is the instance moved on by s chunks, by the jump or, where a
        // chunk is shorter than a jump costs (about 4.5 p (nn/2 + 1) numbers, docs/benchmarks.md),
        // by stepping over it (the same live bits, so the same numbers).
        const std::uint64_t jump_cost = 45 * static_cast<std::uint64_t>(mt_exponent(prm))
            * static_cast<std::uint64_t>(prm.nn / 2 + 1) / 10;
        const bool step = length < jump_cost;
        const Gf2Poly chunk = step ? Gf2Poly{} : mt_jump_polynomial(phi, length);
        setup.jumps.push_back(mt_jump_polynomial(phi, (segments - 1) * length));
        setup.instance_params.push_back(prm);
        for (std::uint64_t k = 0; k < segments; ++k) {
            if (k > 0 && step)
                for (std::uint64_t t = 0; t < length; ++t)
                    (void)mt_next(s, prm);
            else if (k > 0)
                mt_jump(s, prm, chunk);
            setup.unit_states.push_back(s);
        }
    }
    if (segments > 1) mt_segment_buffers(setup);
    return setup;
}

} // namespace rngvet
