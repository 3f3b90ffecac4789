#include "kernels/backend.hpp"

#include "generators/error.hpp"
#include "generators/jump.hpp"
#include "generators/mt.hpp"
#include "generators/mt_charpoly.hpp"
#include "generators/ranmar.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/r250_device.hpp"
#include "kernels/ranmar_device.hpp"
#include "process/child_pool.hpp"
#include "process/memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <sstream>
#include <stdexcept>

namespace rngvet {
namespace {

bool is_ranmar(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::ranmar;
}

bool is_mt(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::mt;
}

template <class T> void allocate(std::vector<T>& v, std::size_t n, const Configuration& c)
{
    check_host_memory(n, sizeof(T), "the states of " + std::to_string(c.instances) + " instances");
    try {
        v.assign(n, T{});
    } catch (const std::bad_alloc&) {
        throw InputError("cannot allocate host memory for the states of "
            + std::to_string(c.instances) + " instances");
    }
}

// Copies n words, with several host threads for large copies (the last step of delivering
// numbers to host memory, which one thread would make slower than the device-to-host copy).
void copy_words(std::uint64_t* dst, const std::uint64_t* src, std::size_t n)
{
#if defined(_OPENMP)
    const std::size_t piece = std::size_t(1) << 17; // 1 MiB
    if (n >= 8 * piece) {
        const auto pieces = static_cast<std::int64_t>((n + piece - 1) / piece);
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < pieces; ++k) {
            const std::size_t at = static_cast<std::size_t>(k) * piece;
            std::memcpy(dst + at, src + at, std::min(piece, n - at) * sizeof(std::uint64_t));
        }
        return;
    }
#endif
    std::copy_n(src, n, dst);
}

// The combined stream of a configuration, generated `launch` numbers at a time on a device
// and served from a host buffer. Launches follow one another, so any sequence of fill() and
// discard() calls continues the stream exactly.
//
// On a device with host staging (KernelDevice::stage, CUDA) the numbers are served from the
// device's two host slots instead, and fill() reads ahead: when it takes launch m's numbers it
// has launch m+1 generated and copied into the other slot while it copies launch m into the
// caller's memory, so generation, the device-to-host copy and the host copy overlap. The
// numbers read ahead are served by the next fill() or discard(), in order.
class DeviceStream final : public Stream {
public:
    DeviceStream(std::unique_ptr<KernelDevice> device, std::uint64_t start, int bits,
        std::string name, std::size_t launch)
        : device_(std::move(device))
        , bits_(bits)
        , name_(std::move(name))
        , launch_(launch)
        , next_(start)
    {
        device_->reserve(launch_);
        staged_ = device_->stage(launch_);
        if (staged_) return;
        check_host_memory(launch_, sizeof(std::uint64_t),
            "the host buffer of " + std::to_string(launch_) + " numbers for "
                + device_->description());
        try {
            buffer_.resize(launch_);
        } catch (const std::bad_alloc&) {
            throw InputError("cannot allocate a host buffer of " + std::to_string(launch_)
                + " numbers for " + device_->description());
        }
        current_ = buffer_.data();
    }

    int bits() const override { return bits_; }
    std::string name() const override { return name_; }

    void fill(std::uint64_t* out, std::size_t n) override
    {
        while (n > 0) {
            if (pos_ == have_) {
                if (staged_) {
                    take_staged(true);
                } else {
                    if (n >= launch_) { // straight into the caller's memory
                        run(out, launch_);
                        out += launch_;
                        n -= launch_;
                        continue;
                    }
                    refill();
                }
            }
            const std::size_t take = std::min(n, have_ - pos_);
            copy_words(out, current_ + pos_, take);
            pos_ += take;
            out += take;
            n -= take;
        }
    }

    // Serves the current launch's numbers in place: from a staging slot (reading the next
    // launch ahead), else from the host buffer.
    View take(std::size_t n) override
    {
        if (pos_ == have_) {
            if (staged_)
                take_staged(true);
            else
                refill();
        }
        const std::size_t size = std::min(n, have_ - pos_);
        const View v{ current_ + pos_, size };
        pos_ += size;
        return v;
    }

    ReadAhead read_ahead() const override
    {
        ReadAhead r;
        r.asynchronous = staged_ && device_->asynchronous_staging();
        r.takes = ahead_takes_;
        r.waits = ahead_waits_;
        return r;
    }

    // Into device memory: one launch per request, once nothing is held in host memory.
    bool fill_device(void* out, std::size_t n, DeviceFormat format) override
    {
        if (pos_ != have_ || ahead_ >= 0) return false;
        if (n == 0) return true;
        if (!out) {
            for (std::size_t done = 0; done < n;) {
                const std::size_t k = std::min(n - done, launch_);
                device_->launch(next_, k, 0, false);
                next_ += k;
                done += k;
            }
            device_->finish();
            return true;
        }
        if (!device_->launch_to_device(next_, n, out, static_cast<int>(format), bits_))
            return false;
        next_ += n;
        return true;
    }

    // Skips n numbers: whole launches are generated on the device and not copied back. (The
    // skip of the configuration is jumped over on the host instead, in the setup.)
    void discard(std::uint64_t n) override
    {
        bool launched = false;
        while (n > 0) {
            if (pos_ == have_) {
                if (n >= launch_ && ahead_ < 0) {
                    device_->launch(next_, launch_, 0, false);
                    next_ += launch_;
                    launched = true;
                    n -= launch_;
                    continue;
                }
                if (staged_)
                    take_staged(false);
                else
                    refill();
            }
            const std::size_t take
                = static_cast<std::size_t>(std::min<std::uint64_t>(n, have_ - pos_));
            pos_ += take;
            n -= take;
        }
        if (launched) device_->finish();
    }

private:
    void refill()
    {
        run(buffer_.data(), launch_);
        have_ = launch_;
        pos_ = 0;
    }

    void run(std::uint64_t* host, std::size_t len)
    {
        device_->launch(next_, len, 0, false);
        if (host) device_->download(host, len);
        next_ += len;
    }

    // The next launch's numbers become the current ones: the one read ahead if any, else a
    // new launch; with read_ahead, the launch after it is started into the other slot.
    void take_staged(bool read_ahead)
    {
        int slot = ahead_;
        ahead_ = -1;
        if (slot >= 0) {
            ++ahead_takes_;
            if (!device_->host_ready(slot)) ++ahead_waits_;
        } else {
            slot = start_staged();
        }
        if (read_ahead) ahead_ = start_staged();
        current_ = device_->host_words(slot);
        have_ = launch_;
        pos_ = 0;
    }

    int start_staged()
    {
        const int slot = next_slot_;
        device_->launch_to_host(next_, launch_, slot);
        next_ += launch_;
        next_slot_ ^= 1;
        return slot;
    }

    std::unique_ptr<KernelDevice> device_;
    int bits_;
    std::string name_;
    std::size_t launch_;
    bool staged_ = false;
    std::vector<std::uint64_t> buffer_; // unstaged devices: the current launch's numbers
    const std::uint64_t* current_ = nullptr; // buffer_ or a staging slot
    std::size_t have_ = 0; // valid numbers at current_
    std::size_t pos_ = 0; // next one to hand out
    std::uint64_t next_; // first combined index of the next launch
    int ahead_ = -1; // staging slot of the launch read ahead, -1: none
    int next_slot_ = 0; // staging slot of the next launch
    std::uint64_t ahead_takes_ = 0; // launches taken that had been read ahead
    std::uint64_t ahead_waits_ = 0; // of those, the ones not yet copied when taken
};

// The jump-parallel plan of a configuration on a backend (backend.hpp, jump_parallel_plan).
constexpr int gpu_segment_limit = 256;
// The Mersenne Twisters' limit on CUDA: from 64 instances on the lane kernel has 512 threads or
// more, and each unit pays a jump per chunk (to be measured: `rngvet bench --segments 1`).
constexpr int gpu_mt_segment_limit = 64;
constexpr std::uint64_t gpu_plan_launch = std::uint64_t(1) << 22;

SegmentPlan segment_plan(const Configuration& c, const BackendOptions& options)
{
    const bool cpu_threads = c.backend == Backend::openmp;
    // GPUs: from 256 instances on, the one-warp-per-instance kernels (the tiled one under
    // interleave, whose stores coalesce) stay: 1024 instances made 1.19e11 numbers/s there in
    // run 6's sweep (docs/benchmarks.md), far above what the feed copies to the host.
    if (!cpu_threads && c.instances >= gpu_segment_limit && options.segments == 0) return {};
    const std::uint64_t threads_target
        = 2 * static_cast<std::uint64_t>(std::max(openmp_threads(), 1));
    if (is_mt(c)) {
        // Mersenne Twisters on CUDA: below gpu_mt_segment_limit instances, RANMAR's GPU plan
        // (up to 4096 units, chunks of at least 4096 numbers), one warp per unit
        // (mt_segments_body): the lane kernel runs such few instances on one or a few blocks
        // (32 instances: 256 threads) and one MT19937 on one thread, where the units spread
        // over the device, each paying a jump per chunk (docs/benchmarks.md, "The Mersenne
        // Twisters on CUDA"; the rates there are to be measured). A kernel
        // forced by RNGVET_MT_KERNEL (launch_plan.hpp) runs without units. OpenCL: none.
        if (c.backend == Backend::cuda) {
            const char* forced = std::getenv("RNGVET_MT_KERNEL");
            const bool kernel_forced = forced != nullptr && forced[0] != '\0';
            if ((c.instances >= gpu_mt_segment_limit || kernel_forced) && options.segments == 0)
                return {};
            return plan_segments(static_cast<std::uint64_t>(c.instances),
                std::min<std::uint64_t>(options.launch_numbers, gpu_plan_launch), 4096, 4096,
                options.segments, options.segment_length);
        }
        // OpenMP: a jump (Horner's rule, p sequential steps and about p/2 additions of the
        // nn-word state) costs about 4.5 p (nn/2 + 1) numbers' worth (docs/benchmarks.md), so
        // chunks are at least 10 times that: about 2.2e5 numbers for MT521, 2.8e8 for MT19937
        // (never at usual launch lengths).
        if (!cpu_threads) return {};
        const int p = c.generator.kind == GeneratorKind::mt19937 ? 19937 : mtdc_param_set(c)->p;
        const std::uint64_t nn = static_cast<std::uint64_t>(p / 32 + 1);
        const std::uint64_t min_length = 45 * static_cast<std::uint64_t>(p) * (nn / 2 + 1);
        return plan_segments(static_cast<std::uint64_t>(c.instances), options.launch_numbers,
            threads_target, min_length, options.segments, options.segment_length);
    }
    const std::uint64_t target = cpu_threads ? threads_target : 4096;
    const std::uint64_t min_length = cpu_threads ? 32768 : 4096;
    // GPUs: planned for launches of at most gpu_plan_launch numbers, so that a stream of the
    // feed's default launches and a longer launch of the same plan run the same units (the
    // native engine asks a stream for up to 2^25 numbers in one launch, whatever its launch
    // length): a longer launch makes several chunks per unit (docs/benchmarks.md, "Few
    // instances").
    const std::uint64_t launch = cpu_threads
        ? options.launch_numbers
        : std::min<std::uint64_t>(options.launch_numbers, gpu_plan_launch);
    return plan_segments(static_cast<std::uint64_t>(c.instances), launch, target, min_length,
        options.segments, options.segment_length);
}

} // namespace

void KernelDevice::launch_to_host(std::uint64_t, std::uint64_t, int)
{
    throw std::logic_error("KernelDevice::launch_to_host: the device has no host staging");
}

const std::uint64_t* KernelDevice::host_words(int)
{
    throw std::logic_error("KernelDevice::host_words: the device has no host staging");
}

void check_host_memory(std::size_t count, std::size_t size, const std::string& what)
{
    const std::uint64_t physical = physical_memory();
    if (fits_in_memory(count, size, physical)) return;
    throw InputError("out of host memory: " + what + " needs "
        + (count > ~std::uint64_t(0) / size / 2
                ? std::string("more than 2^63 bytes")
                : std::to_string((static_cast<std::uint64_t>(count) * size) >> 20) + " MiB")
        + " but this machine has " + std::to_string(physical >> 20) + " MiB");
}

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

// The entry for callers outside make_backend_stream, which validates before it plans.
RanmarSetup ranmar_setup(const Configuration& c)
{
    validate(c);
    return ranmar_setup(c, 1, 0);
}

RanmarSetup ranmar_setup(const Configuration& c, std::uint64_t segments, std::uint64_t length)
{
    if (!is_ranmar(c))
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
    allocate(setup.state, setup.units * RNGVET_RANMAR_STRIDE, c);
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

SegmentPlan plan_segments(std::uint64_t instances, std::uint64_t launch, std::uint64_t target,
    std::uint64_t min_length, std::uint64_t forced_segments, std::uint64_t forced_length)
{
    SegmentPlan plan;
    if (instances < 1) instances = 1;
    const std::uint64_t share = std::max<std::uint64_t>(launch / instances, 1);
    const std::uint64_t want = (target + instances - 1) / instances;
    if (forced_segments == 0 && 2 * instances >= target) return plan;
    plan.length = forced_length != 0
        ? forced_length
        : std::max(min_length, forced_segments != 0 ? share / forced_segments : share / want);
    // Chunks of at most 2^30 numbers and instances' rounds of chunks of at most 2^40 (what
    // ranmar_setup accepts) however long the launches.
    if (forced_length == 0) plan.length = std::min(plan.length, std::uint64_t(1) << 30);
    plan.segments = forced_segments != 0
        ? forced_segments
        : std::min({ want, std::max<std::uint64_t>(share / plan.length, 1),
            (std::uint64_t(1) << 40) / plan.length });
    if (plan.segments <= 1) plan = SegmentPlan{};
    return plan;
}

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

// The entry for callers outside make_backend_stream, which validates before it plans.
MtSetup mt_setup(const Configuration& c)
{
    validate(c);
    return mt_setup(c, 1, 0);
}

MtSetup mt_setup(const Configuration& c, std::uint64_t segments, std::uint64_t length)
{
    if (!is_mt(c)) throw InputError("mt_setup: '" + to_string(c.generator) + "' is not an MT");
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
    allocate(setup.state, p.nn * p.stride, c);
    allocate(setup.position, setup.instances, c);
    allocate(setup.consts, 3 * p.stride, c);
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

R250Setup r250_setup(const Configuration& c)
{
    validate(c);
    if (family(c.generator) != GeneratorFamily::r250)
        throw InputError("r250_setup: '" + to_string(c.generator) + "' is not R250");
    R250Setup setup;
    setup.instances = static_cast<std::uint64_t>(c.instances);
    setup.layout = layout_code(c.layout);
    setup.block = c.layout.kind == LayoutKind::single || c.layout.kind == LayoutKind::interleave
        ? 1
        : c.layout.block;
    setup.start = c.skip;
    setup.name = canonical_name(c);
    allocate(setup.states, setup.instances, c);
    // Each instance jumps (O(log n)) over its own numbers among the first c.skip.
    for (std::uint64_t i = 0; i < setup.instances; ++i) {
        R250State& s = setup.states[i];
        s = r250_instance_state(c, static_cast<int>(i));
        r250_jump(s, rv_layout_count_before(setup.instances, setup.layout, setup.block, i, c.skip));
    }
    return setup;
}

std::vector<std::string> check_backend_stream(const Configuration& c)
{
    if (c.backend != Backend::cuda && c.backend != Backend::opencl) {
        (void)make_backend_stream(c);
        return backend_devices(c.backend);
    }
    // The child answers with one device per line.
    const std::string text = answer_in_child(
        [&] {
            (void)make_backend_stream(c);
            std::string devices;
            for (const std::string& d : backend_devices(c.backend))
                devices += d + "\n";
            return devices;
        },
        std::string("backend '") + to_string(c.backend) + "': the check of the configuration");
    std::vector<std::string> devices;
    std::size_t at = 0;
    for (std::size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
        devices.push_back(text.substr(at, nl - at));
    return devices;
}

bool BackendProbe::has(Backend b) const
{
    return std::find(available.begin(), available.end(), b) != available.end();
}

const std::string& BackendProbe::why(Backend b) const
{
    static const std::string none;
    return b == Backend::openmp ? why_openmp
        : b == Backend::opencl  ? why_opencl
        : b == Backend::cuda    ? why_cuda
                                : none;
}

std::string BackendProbe::available_list() const
{
    std::string s;
    for (const Backend b : available)
        s += (s.empty() ? "" : ", ") + std::string(to_string(b));
    return s;
}

const BackendProbe& backend_probe()
{
    static const BackendProbe result = [] {
        BackendProbe p;
        if (openmp_usable(p.why_openmp)) p.available.push_back(Backend::openmp);
        if (opencl_usable(p.why_opencl)) p.available.push_back(Backend::opencl);
        if (cuda_usable(p.why_cuda)) p.available.push_back(Backend::cuda);
        return p;
    }();
    return result;
}

std::vector<Backend> available_backends()
{
    return backend_probe().available;
}

std::string backend_unavailable_reason(Backend backend)
{
    const BackendProbe& pr = backend_probe();
    if (backend == Backend::automatic || pr.has(backend)) return "";
    return pr.why(backend);
}

Backend parse_backend_here(const std::string& text)
{
    try {
        return parse_backend(text);
    } catch (const InputError& e) {
        throw InputError(
            std::string(e.what()) + "; available: " + backend_probe().available_list());
    }
}

std::vector<std::string> backend_devices(Backend backend)
{
    switch (backend) {
    case Backend::cpu:
        return { "reference engine (one host thread)" };
    case Backend::openmp: {
        std::string why;
        return openmp_usable(why) ? std::vector<std::string>{ "host threads (OpenMP)" }
                                  : std::vector<std::string>{};
    }
    case Backend::opencl:
        return opencl_device_names();
    case Backend::cuda:
        return cuda_device_names();
    case Backend::automatic:
        break;
    }
    return {};
}

std::unique_ptr<Stream> make_backend_stream(const Configuration& c)
{
    return make_backend_stream(c, BackendOptions{});
}

std::string jump_parallel_plan(const Configuration& c, const BackendOptions& options)
{
    if (!traits(c.generator).on_devices || !traits(c.generator).on_gpus
        || c.backend == Backend::cpu)
        return "";
    const SegmentPlan plan = segment_plan(c, options);
    if (plan.segments <= 1) return "";
    return std::to_string(plan.segments) + " units x " + std::to_string(plan.length)
        + " numbers per instance";
}

std::unique_ptr<Stream> make_backend_stream(const Configuration& c, const BackendOptions& options)
{
    if (c.backend == Backend::automatic)
        throw InputError("--backend auto is resolved once by run, generate and bench --feed "
                         "(resolve_auto_backend), not per stream");
    if (c.backend == Backend::cpu) return make_stream(c); // with its view
    if (c.view != BitView::top32)
        return make_viewed_stream(
            c, [&](const Configuration& outputs) { return make_backend_stream(outputs, options); });
    const BackendProbe& pr = backend_probe();
    const std::string backend = to_string(c.backend);
    if (!pr.has(c.backend))
        throw InputError("backend '" + backend + "' is not available (" + pr.why(c.backend)
            + "); available: " + pr.available_list());
    if (options.launch_numbers == 0) throw InputError("launch_numbers must be at least 1");
    validate(c);
    const GeneratorTraits& g = traits(c.generator);
    if (!g.on_devices) {
        // The generators with kernels, from the registry's rows.
        std::vector<std::string> kernels;
        for (const GeneratorTraits& row : generator_registry())
            if (runs_on(row, c.backend)) kernels.push_back(row.name);
        std::string list;
        for (std::size_t i = 0; i < kernels.size(); ++i)
            list += (i == 0 ? "" : i + 1 == kernels.size() ? " and " : ", ") + kernels[i];
        throw InputError("backend '" + backend + "' runs " + list + "; use --backend cpu for '"
            + to_string(c.generator) + "'");
    }
    if (!runs_on(g, c.backend))
        throw InputError("backend '" + backend + "' has no kernel for '" + to_string(c.generator)
            + "'; it runs on cpu and openmp (or --backend auto)");
    if (g.family == GeneratorFamily::r250) {
        const R250Setup setup = r250_setup(c);
        return std::make_unique<DeviceStream>(
            make_openmp_r250(setup), setup.start, 32, setup.name, options.launch_numbers);
    }
    const SegmentPlan plan = segment_plan(c, options);
    if (g.family == GeneratorFamily::ranmar) {
        const RanmarSetup setup = ranmar_setup(c, plan.segments, plan.length);
        std::unique_ptr<KernelDevice> device;
        if (c.backend == Backend::openmp) device = make_openmp_ranmar(setup);
        if (c.backend == Backend::opencl) device = make_opencl_ranmar(setup, options.device);
        if (c.backend == Backend::cuda) device = make_cuda_ranmar(setup, options.device);
        return std::make_unique<DeviceStream>(
            std::move(device), setup.start, setup.bits, setup.name, options.launch_numbers);
    }
    const MtSetup setup = mt_setup(c, plan.segments, plan.length);
    std::unique_ptr<KernelDevice> device;
    if (c.backend == Backend::openmp) device = make_openmp_mt(setup);
    if (c.backend == Backend::opencl) device = make_opencl_mt(setup, options.device);
    if (c.backend == Backend::cuda) device = make_cuda_mt(setup, options.device);
    return std::make_unique<DeviceStream>(
        std::move(device), setup.start, 32, setup.name, options.launch_numbers);
}

Configuration resolve_configuration_here(const ConfigurationText& text)
{
    // The generator states alone, bounded from above: a Mersenne Twister keeps p/32 + 1 words
    // (624 for MT19937, 1391 for p = 44497), RANMAR 97 table words and its sequence, R250 250
    // words.
    const bool mt = family(parse_generator(text.generator)) == GeneratorFamily::mt;
    const std::uint64_t state_bytes = mt ? 8192 : 1024;
    check_fits_in_memory(std::uint64_t(text.instances > 0 ? text.instances : 0) * state_bytes,
        "--instances " + std::to_string(text.instances));
    (void)parse_backend_here(text.backend);
    return resolve_configuration(text);
}

} // namespace rngvet
