// OpenMP backend: the CUDA/OpenCL grids run on host threads (the plain grids: one warp per
// RANMAR instance, one thread per MT instance; the GPU-only tiled RANMAR, lane MT and register MT
// grids, which reorganise the same arithmetic for coalescing, are checked against the reference
// on the host grid, host_grid.hpp, and on OpenCL).
//
// RANMAR: with jump-parallel generation (setup.params.segments > 1), one loop iteration per
// unit (an instance's every S-th chunk), numbers made one after the other within a chunk and
// the jumps' phases lane by lane. Otherwise each "warp" runs its 32 lanes as a sequential loop
// per phase, which is exact because no lane reads what another lane writes within a step
// (ranmar_kernel.hpp). A loop iteration
// takes a group of whole blocks (up to ranmar_host_group instances) and advances all of them
// step by step, as the warps of a GPU block advance together, rather than one instance's whole
// launch after the other: under interleave an instance's numbers lie N words apart, so one
// instance alone stores one word per cache line, and every line is fetched again for each
// instance that writes into it; in one step of a group, its instances fill neighbouring words
// of the same rows (16 instances: two whole lines per row).
//
// MT: one loop iteration per block, whose 128 "threads" run one after the other; with
// jump-parallel generation (few instances, setup.segments > 1) one iteration per unit, on the
// reference engine (mt_next, mt_jump).
//
// R250 (and any family whose kernels are an instance loop, families.hpp): one loop iteration per
// instance, on the reference engine's state and step (R250Kernels::next: r250_next).
//
// Instance states are 64-byte aligned: a RANMAR state is 13 cache lines; an MT block owns whole
// lines of every state row (the row stride is a multiple of 16 words). So threads never share a
// state line.
#include "generators/error.hpp"
#include "generators/jump.hpp"
#include "generators/layout_index.hpp"
#include "generators/ranmar.hpp"
#include "kernels/families.hpp"
#include "kernels/launch_plan.hpp"

#include <cstring>
#include <new>
#include <omp.h>

namespace rngvet {
namespace {

constexpr std::size_t cache_line = 64;

template <class T> struct AlignedArray {
    T* data = nullptr;
    std::size_t size = 0;
    AlignedArray() = default;
    AlignedArray(const AlignedArray&) = delete;
    AlignedArray& operator=(const AlignedArray&) = delete;
    ~AlignedArray() { release(); }
    void allocate(std::size_t n, const char* what)
    {
        release();
        // Before allocating: with overcommit a huge allocation may succeed and the process be
        // killed later, when the pages are written.
        check_host_memory(n, sizeof(T), "the " + std::string(what) + " of backend 'openmp'");
        try {
            data = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(cache_line)));
        } catch (const std::bad_alloc&) {
            throw InputError("backend 'openmp' ran out of host memory: the " + std::string(what)
                + " needs " + std::to_string(n * sizeof(T) >> 20) + " MiB");
        }
        size = n;
    }
    void assign(const std::vector<T>& v, const char* what)
    {
        allocate(v.size(), what);
        std::memcpy(data, v.data(), v.size() * sizeof(T));
    }
    void release()
    {
        if (data) ::operator delete(data, std::align_val_t(cache_line));
        data = nullptr;
        size = 0;
    }
};

// The output buffer and the host staging, common to both generators. Device memory is host
// memory here, so staging needs no copies: slot 0 is the output buffer, slot 1 a second one,
// and launch_to_host() only queues the launch; host_words() runs the queued launches, in
// order, up to the one it asks for. (A read-ahead that is never asked for is never run.)
class OpenmpDevice : public KernelDevice {
public:
    void reserve(std::size_t words) override
    {
        flush();
        if (words > out_.size) out_.allocate(words, "output buffer");
    }
    void upload(const std::uint64_t* host, std::size_t words) override
    {
        flush();
        std::memcpy(out_.data, host, words * sizeof(std::uint64_t));
    }
    void download(std::uint64_t* host, std::size_t words) override
    {
        flush();
        std::memcpy(host, out_.data, words * sizeof(std::uint64_t));
    }
    void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode) override
    {
        flush();
        generate(g0, len, out_.data + offset, count_mode);
    }
    void finish() override { flush(); }
    bool stage(std::size_t words) override
    {
        reserve(words);
        if (words > second_.size) second_.allocate(words, "second output buffer");
        return true;
    }
    void launch_to_host(std::uint64_t g0, std::uint64_t len, int slot) override
    {
        queued_.push_back({ g0, len, slot });
    }
    const std::uint64_t* host_words(int slot) override
    {
        while (!queued_.empty()) {
            const Queued q = queued_.front();
            queued_.erase(queued_.begin());
            generate(q.g0, q.len, slot_data(q.slot), false);
            if (q.slot == slot) break;
        }
        return slot_data(slot);
    }
    bool host_ready(int slot) override
    {
        for (const Queued& q : queued_)
            if (q.slot == slot) return false;
        return true;
    }
    std::string description() const override
    {
        return "openmp: " + std::to_string(omp_get_max_threads()) + " host threads";
    }

protected:
    virtual void generate(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode)
        = 0;

    AlignedArray<std::uint64_t> out_;

private:
    struct Queued {
        std::uint64_t g0, len;
        int slot;
    };

    std::uint64_t* slot_data(int slot) { return slot == 0 ? out_.data : second_.data; }

    void flush()
    {
        while (!queued_.empty()) {
            const Queued q = queued_.front();
            queued_.erase(queued_.begin());
            generate(q.g0, q.len, slot_data(q.slot), false);
        }
    }

    AlignedArray<std::uint64_t> second_;
    std::vector<Queued> queued_;
};

// Most RANMAR instances per iteration of the host loop: whole blocks, so that the setup's block
// count bounds the work.
constexpr int ranmar_host_group = 16;
static_assert(ranmar_host_group % ranmar_instances_per_block == 0, "a group is whole blocks");

// Words per instance of a group's history scratch: 97, rounded up to whole cache lines.
constexpr std::size_t ranmar_hist_pitch
    = (RNGVET_RANMAR_LAGS + cache_line / sizeof(std::uint64_t) - 1)
    / (cache_line / sizeof(std::uint64_t)) * (cache_line / sizeof(std::uint64_t));

// Instances first .. first + n - 1 (n <= ranmar_host_group, all below N), phase by phase with
// 32 lanes each; in every step, each instance makes its 32 numbers in turn. p is a copy, so that
// the compiler keeps it in registers (the stores to out and state cannot alias it).
void ranmar_group(const RanmarKernelParams p, std::uint64_t first, int n, std::uint64_t* state,
    std::uint64_t* out)
{
    alignas(cache_line) std::uint64_t hist[ranmar_host_group][ranmar_hist_pitch];
    RanmarLane lanes[ranmar_host_group][RNGVET_RANMAR_LANES];
    std::uint64_t steps[ranmar_host_group];
    std::uint64_t max_steps = 0;
    for (int w = 0; w < n; ++w) {
        const std::uint64_t i = first + static_cast<std::uint64_t>(w);
        const std::uint64_t* const st = state + i * RNGVET_RANMAR_STRIDE;
        for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
            lanes[w][l] = ranmar_lane_begin(p, st, i, l);
        for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
            ranmar_lane_load(st, hist[w], l);
        steps[w] = ranmar_steps(p, i);
        if (steps[w] > max_steps) max_steps = steps[w];
    }
    for (std::uint64_t s = 0; s < max_steps; ++s)
        for (int w = 0; w < n; ++w) {
            if (s >= steps[w]) continue;
            const std::uint64_t i = first + static_cast<std::uint64_t>(w);
            std::uint64_t* const st = state + i * RNGVET_RANMAR_STRIDE;
            for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
                lanes[w][l] = ranmar_lane_step(p, hist[w], st, out, i, lanes[w][l]);
        }
    for (int w = 0; w < n; ++w) {
        std::uint64_t* const st
            = state + (first + static_cast<std::uint64_t>(w)) * RNGVET_RANMAR_STRIDE;
        for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
            ranmar_lane_store(st, hist[w], l);
    }
}

// A piece of a single-layout stream by the host's block fill (ranmar_fill_window, ranmar.hpp):
// the history, X_k in slot k mod 97, read as its straight window and written back.
void ranmar_piece_fill(
    const RanmarKernelParams& p, std::uint64_t* hist, std::uint64_t* out, RanmarSegment g)
{
    const std::uint64_t e = ranmar_segment_piece_end(g);
    std::uint64_t window[RNGVET_RANMAR_LAGS];
    for (std::uint64_t m = 0; m < RNGVET_RANMAR_LAGS; ++m)
        window[m] = hist[(g.pos + m) % RNGVET_RANMAR_LAGS];
    ranmar_fill_window(window, hist[RNGVET_RANMAR_C], { p.mask, p.cd, p.cm, p.zero_smallest },
        out + (g.pos - p.g0), static_cast<std::size_t>(e - g.pos));
    for (std::uint64_t m = 0; m < RNGVET_RANMAR_LAGS; ++m)
        hist[(e + m) % RNGVET_RANMAR_LAGS] = window[m];
}

// Jump-parallel: unit `unit` (instance unit / S, chunk s = unit % S) over the launch
// (ranmar_kernel.hpp, "Jump-parallel generation"): each piece by the block fill where the stream
// is one instance's numbers in order, else number by number (ranmar_segment_run); each jump's
// phases with 32 lanes as one warp's.
void ranmar_unit(const RanmarKernelParams p, std::uint64_t unit, std::uint64_t* state,
    const std::uint64_t* poly, std::uint64_t* out)
{
    const std::uint64_t i = unit / p.segments;
    RanmarSegment g = ranmar_segment_begin(p, i, unit % p.segments);
    if (g.pos >= g.end) return;
    alignas(cache_line) std::uint64_t hist[RNGVET_RANMAR_SEG_HIST];
    alignas(cache_line) std::uint64_t ext[RNGVET_RANMAR_EXT];
    std::uint64_t* const st = state + unit * RNGVET_RANMAR_STRIDE;
    for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
        ranmar_segment_load(st, hist, l);
    const bool contiguous = p.layout == RNGVET_LAYOUT_SINGLE && p.count_mode == 0;
    while (g.pos < g.end) {
        if (contiguous)
            ranmar_piece_fill(p, hist, out, g);
        else
            ranmar_segment_run(p, hist, out, i, g);
        if (ranmar_segment_jumps(g)) {
            for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
                ranmar_jump_window(hist, ext, g, l);
            for (unsigned q = 0; q < 3; ++q)
                for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
                    ranmar_jump_extend(p, ext, q, l);
            for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
                ranmar_jump_apply(p, hist, ext, poly, g, l);
        }
        g = ranmar_segment_next(p, g);
    }
    for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
        ranmar_segment_store(st, hist, l);
}

// Jump-parallel MT (setup.segments > 1): unit `unit` (instance unit / S, chunk s = unit % S)
// over the launch, on the reference engine's state and step function (mt_next); at the end of
// each chunk the precomputed jump over the other units' chunks (mt_jump with the polynomial).
// The chunk arithmetic is RANMAR's (ranmar_segment_begin, ranmar_kernel.hpp).
void mt_unit(const MtKernelParams& p, std::uint64_t segments, std::uint64_t length,
    std::uint64_t start, std::uint64_t unit, MtState& st, const MtParams& prm, const Gf2Poly& jump,
    std::uint64_t* out)
{
    const std::uint64_t i = unit / segments;
    const std::uint64_t s = unit % segments;
    const std::uint64_t origin = rv_layout_count_before(p.instances, p.layout, p.block, i, start);
    const std::uint64_t a = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    const std::uint64_t end
        = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    std::uint64_t k = (a - origin) / length;
    const std::uint64_t owner = k % segments;
    std::uint64_t pos = a;
    if (owner != s) {
        k += (s + segments - owner) % segments;
        pos = origin + k * length;
    }
    std::uint64_t chunk_end = origin + (k + 1) * length;
    // The step of mt_next with the parameters in registers (mt_twist, mt_temper; the state's
    // words are of the parameters' type, so mt_next itself reloads them after every store).
    const std::uint32_t aaa = prm.aaa, mask_b = prm.maskB, mask_c = prm.maskC;
    const auto umask = static_cast<std::uint32_t>(p.umask);
    const auto lmask = static_cast<std::uint32_t>(p.lmask);
    const int nn = prm.nn, mm = prm.mm;
    std::uint32_t* const x = st.st;
    while (pos < end) {
        const std::uint64_t piece_end = chunk_end < end ? chunk_end : end;
        int w = st.k;
        for (std::uint64_t t = pos; t < piece_end; ++t) {
            const int w1 = w + 1 == nn ? 0 : w + 1;
            const int wm = w + mm >= nn ? w + mm - nn : w + mm;
            const std::uint32_t word = mt_twist(x[w], x[w1], x[wm], umask, lmask, aaa);
            x[w] = word;
            w = w1;
            const std::uint32_t y = mt_temper(p, word, mask_b, mask_c);
            const std::uint64_t j = rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0;
            if (p.count_mode != 0)
                out[j] += 1;
            else
                out[j] = y;
        }
        st.k = w;
        if (piece_end != chunk_end) break;
        mt_jump(st, prm, jump);
        pos = chunk_end + (segments - 1) * length;
        chunk_end = pos + length;
    }
}

// One device class for every generator: the plan (launch_plan.hpp) fixes the grid, which runs
// as a loop over its blocks on the host threads.
class OpenmpKernels final : public OpenmpDevice {
public:
    template <class Setup>
    explicit OpenmpKernels(const Setup& setup)
        : plan_(setup, openmp_grid_shape())
    {
        std::size_t k = 0;
        for (const PlanBuffer& b : plan_buffers(setup)) {
            if (b.bytes != 0) {
                buffers_[k].allocate(b.bytes, b.what);
                std::memcpy(buffers_[k].data, b.data, b.bytes);
            }
            ++k;
        }
        keep_host_data(setup);
    }

protected:
    void generate(
        std::uint64_t g0, std::uint64_t len, std::uint64_t* out_at, bool count_mode) override
    {
        const Launch l = plan_.launch(g0, len, count_mode);
        std::uint64_t* const out = out_at;
        switch (l.grid) {
        case Grid::ranmar_segments:
            ranmar_segments(l.ranmar, out);
            return;
        case Grid::ranmar_warps:
            ranmar_warps(l.ranmar, l.blocks, out);
            return;
        case Grid::mt_segments:
            mt_segments(l.mt, out);
            return;
        case Grid::mt_words:
            mt_words(l.mt, l.blocks, out);
            return;
        case Grid::ranmar_tiled:
        case Grid::ranmar_interleaved:
        case Grid::mt_lanes:
        case Grid::mt_registers:
            break;
        }
        throw InputError("backend 'openmp' has no such grid");
    }

private:
    void keep_host_data(const RanmarSetup&) { }
    void keep_host_data(const MtSetup& setup)
    {
        segments_ = setup.segments;
        length_ = setup.length;
        start_ = setup.start;
        units_ = setup.unit_states;
        instance_params_ = setup.instance_params;
        jumps_ = setup.jumps;
    }

    template <class T> T* buffer(std::size_t k) { return reinterpret_cast<T*>(buffers_[k].data); }

    // Jump-parallel RANMAR: one loop iteration per unit; units without a chunk in this launch
    // return at once: dynamic scheduling.
    void ranmar_segments(const RanmarKernelParams p, std::uint64_t* out)
    {
        std::uint64_t* const state = buffer<std::uint64_t>(0);
        const std::uint64_t* const poly = buffer<std::uint64_t>(1);
        const auto units = static_cast<std::int64_t>(p.instances * p.segments);
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t u = 0; u < units; ++u)
            ranmar_unit(p, static_cast<std::uint64_t>(u), state, poly, out);
    }

    // One warp per instance: groups of whole blocks (smaller groups where there are too few
    // blocks to give every thread a whole group).
    void ranmar_warps(const RanmarKernelParams p, std::uint64_t blocks, std::uint64_t* out)
    {
        std::uint64_t* const state = buffer<std::uint64_t>(0);
        // One instance's numbers in order (a plan without chunks: one thread): the block fill
        // on its state, which holds the history by slot and c as a unit's scratch does.
        if (p.layout == RNGVET_LAYOUT_SINGLE && p.count_mode == 0) {
            RanmarSegment g;
            g.pos = ranmar_count_before(p, 0, p.g0);
            g.end = g.chunk_end = ranmar_count_before(p, 0, p.g0 + p.len);
            ranmar_piece_fill(p, state, out, g);
            return;
        }
        const auto threads = static_cast<std::uint64_t>(omp_get_max_threads());
        std::uint64_t blocks_per_group = blocks / threads;
        if (blocks_per_group < 1) blocks_per_group = 1;
        if (blocks_per_group > ranmar_host_group / ranmar_instances_per_block)
            blocks_per_group = ranmar_host_group / ranmar_instances_per_block;
        const std::uint64_t group = blocks_per_group * ranmar_instances_per_block;
        const auto groups
            = static_cast<std::int64_t>((blocks + blocks_per_group - 1) / blocks_per_group);
#pragma omp parallel for schedule(static)
        for (std::int64_t g = 0; g < groups; ++g) {
            const std::uint64_t first = static_cast<std::uint64_t>(g) * group;
            if (first >= p.instances) continue;
            const std::uint64_t left = p.instances - first;
            const int n = static_cast<int>(left < group ? left : group);
            ranmar_group(p, first, n, state, out);
        }
    }

    void mt_segments(const MtKernelParams& p, std::uint64_t* out)
    {
        const auto units = static_cast<std::int64_t>(units_.size());
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t u = 0; u < units; ++u) {
            const auto i = static_cast<std::size_t>(static_cast<std::uint64_t>(u) / segments_);
            mt_unit(p, segments_, length_, start_, static_cast<std::uint64_t>(u),
                units_[static_cast<std::size_t>(u)], instance_params_[i], jumps_[i], out);
        }
    }

    // One thread per instance: one loop iteration per block, whose threads run in turn.
    void mt_words(const MtKernelParams p, std::uint64_t blocks, std::uint64_t* out)
    {
        std::uint32_t* const st = buffer<std::uint32_t>(0);
        std::uint32_t* const pos = buffer<std::uint32_t>(1);
        const std::uint32_t* const consts = buffer<std::uint32_t>(2);
        const auto n = static_cast<std::int64_t>(blocks);
#pragma omp parallel for schedule(static)
        for (std::int64_t b = 0; b < n; ++b)
            for (unsigned t = 0; t < RNGVET_MT_THREADS_PER_BLOCK; ++t)
                mt_words_body(p, st, pos, consts, out, static_cast<std::uint64_t>(b), t);
    }

    LaunchPlan plan_;
    AlignedArray<unsigned char> buffers_[8]; // plan_buffers' (the MT segment buffers unused)
    // Jump-parallel MT (mt_unit): the units' reference states, each instance's parameters and
    // jump polynomial.
    std::uint64_t segments_ = 1, length_ = 0, start_ = 0;
    std::vector<MtState> units_;
    std::vector<MtParams> instance_params_;
    std::vector<Gf2Poly> jumps_;
};

// A family whose kernels are the reference step run instance by instance (KernelForm::
// instance_loop, families.hpp; R250): each instance makes its own numbers of the launch, one
// thread per instance, each state on cache lines of its own.
template <class Family> class OpenmpInstances final : public OpenmpDevice {
public:
    explicit OpenmpInstances(const typename Family::Setup& setup)
        : instances_(setup.instances)
        , layout_(setup.layout)
        , block_(setup.block)
    {
        states_.allocate(setup.states.size(), "instance states");
        for (std::size_t i = 0; i < setup.states.size(); ++i)
            states_.data[i].state = setup.states[i];
    }

protected:
    void generate(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode) override
    {
        const std::uint64_t n = instances_, layout = layout_, block = block_;
        Slot* const states = states_.data;
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
            const auto i = static_cast<std::uint64_t>(k);
            typename Family::State& st = states[i].state;
            const std::uint64_t end = rv_layout_count_before(n, layout, block, i, g0 + len);
            for (std::uint64_t t = rv_layout_count_before(n, layout, block, i, g0); t < end; ++t) {
                const std::uint64_t x = Family::next(st);
                const std::uint64_t j = rv_layout_index(n, layout, block, i, t) - g0;
                if (count_mode)
                    out[j] += 1;
                else
                    out[j] = x;
            }
        }
    }

private:
    struct alignas(cache_line) Slot {
        typename Family::State state;
    };
    std::uint64_t instances_, layout_, block_;
    AlignedArray<Slot> states_;
};

} // namespace

bool openmp_usable(std::string&)
{
    return true;
}

int openmp_threads()
{
    return omp_get_max_threads();
}

std::vector<std::string> openmp_device_names()
{
    return { "host threads (OpenMP)" };
}

// OpenMP's one device template: the grids' device, or the instance loop.
template <class Family>
std::unique_ptr<KernelDevice> make_openmp_device(const typename Family::Setup& setup, int)
{
    if constexpr (Family::form == KernelForm::grids)
        return std::make_unique<OpenmpKernels>(setup);
    else
        return std::make_unique<OpenmpInstances<Family>>(setup);
}

RNGVET_INSTANTIATE_DEVICES(openmp)

} // namespace rngvet
