// OpenMP backend: the CUDA/OpenCL grids run on host threads, one loop iteration per block
// (the plain grids: one warp per RANMAR instance, one thread per MT instance; the GPU-only
// tiled RANMAR and lane MT kernels, which reorganise the same arithmetic for coalescing, are
// checked against the reference on OpenCL).
// RANMAR: inside a block, each "warp" runs its 32 lanes as a sequential loop per phase, which
// is exact because no lane reads what another lane writes within a step (ranmar_kernel.hpp).
// MT: a block's 128 "threads" run one after the other. Instance states are 64-byte aligned:
// a RANMAR state is 13 cache lines; an MT block owns whole lines of every state row (the row
// stride is a multiple of 16 words). So threads never share a state line.
#include "generators/error.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

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

// One RANMAR instance's 32 lanes, phase by phase (the host "launch" of one warp).
void ranmar_warp(const RanmarKernelParams& p, std::uint64_t instance, std::uint64_t* state,
    std::uint64_t* out, std::uint64_t* hist)
{
    RanmarLane lanes[RNGVET_RANMAR_LANES];
    for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
        lanes[l] = ranmar_lane_begin(p, state, instance, l);
    for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
        ranmar_lane_load(state, hist, l);
    const std::uint64_t steps = ranmar_steps(p, instance);
    for (std::uint64_t s = 0; s < steps; ++s)
        for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
            lanes[l] = ranmar_lane_step(p, hist, state, out, instance, lanes[l]);
    for (unsigned l = 0; l < RNGVET_RANMAR_LANES; ++l)
        ranmar_lane_store(state, hist, l);
}

class OpenmpRanmar final : public OpenmpDevice {
public:
    explicit OpenmpRanmar(const RanmarSetup& setup)
        : params_(setup.params)
        , blocks_(setup.blocks)
    {
        state_.assign(setup.state, "generator states");
    }

protected:
    void generate(
        std::uint64_t g0, std::uint64_t len, std::uint64_t* out_at, bool count_mode) override
    {
        RanmarKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        std::uint64_t* const state = state_.data;
        std::uint64_t* const out = out_at;
        const auto blocks = static_cast<std::int64_t>(blocks_);
#pragma omp parallel for schedule(static)
        for (std::int64_t b = 0; b < blocks; ++b) {
            alignas(cache_line) std::uint64_t hist[RNGVET_RANMAR_LAGS];
            for (int w = 0; w < ranmar_instances_per_block; ++w) {
                const std::uint64_t i = static_cast<std::uint64_t>(b) * ranmar_instances_per_block
                    + static_cast<std::uint64_t>(w);
                if (i >= p.instances) break;
                ranmar_warp(p, i, state + i * RNGVET_RANMAR_STRIDE, out, hist);
            }
        }
    }

private:
    RanmarKernelParams params_;
    std::uint64_t blocks_;
    AlignedArray<std::uint64_t> state_;
};

class OpenmpMt final : public OpenmpDevice {
public:
    explicit OpenmpMt(const MtSetup& setup)
        : params_(setup.params)
        , blocks_(setup.blocks)
    {
        state_.assign(setup.state, "generator states");
        position_.assign(setup.position, "generator positions");
        consts_.assign(setup.consts, "parameter sets");
    }

protected:
    void generate(
        std::uint64_t g0, std::uint64_t len, std::uint64_t* out_at, bool count_mode) override
    {
        MtKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        std::uint32_t* const st = state_.data;
        std::uint32_t* const pos = position_.data;
        const std::uint32_t* const consts = consts_.data;
        std::uint64_t* const out = out_at;
        const auto blocks = static_cast<std::int64_t>(blocks_);
#pragma omp parallel for schedule(static)
        for (std::int64_t b = 0; b < blocks; ++b)
            for (std::uint64_t t = 0; t < RNGVET_MT_THREADS_PER_BLOCK; ++t)
                mt_generate_instance(p, st, pos, consts, out,
                    static_cast<std::uint64_t>(b) * RNGVET_MT_THREADS_PER_BLOCK + t);
    }

private:
    MtKernelParams params_;
    std::uint64_t blocks_;
    AlignedArray<std::uint32_t> state_;
    AlignedArray<std::uint32_t> position_;
    AlignedArray<std::uint32_t> consts_;
};

} // namespace

bool openmp_usable(std::string&)
{
    return true;
}

std::unique_ptr<KernelDevice> make_openmp_ranmar(const RanmarSetup& setup)
{
    return std::make_unique<OpenmpRanmar>(setup);
}

std::unique_ptr<KernelDevice> make_openmp_mt(const MtSetup& setup)
{
    return std::make_unique<OpenmpMt>(setup);
}

} // namespace rngvet
