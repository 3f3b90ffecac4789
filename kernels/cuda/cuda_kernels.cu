// CUDA backend. RANMAR with jump-parallel generation (few instances): one warp per unit, an
// instance's every S-th chunk (ranmar_generate_segments). Otherwise one warp per instance. Layout
// single: ranmar_instances_per_block warps per block; a warp's lanes share only their own history
// in shared memory, so __syncwarp() is the only barrier and warps run independently. Other layouts:
// the tiled kernel (RNGVET_RANMAR_TILE warps per block, coalesced stores through shared memory).
// MT: DC sets with mm = nn / 2 and nn of MT521, MT607 or MT1279, 2048 instances or more, run the
// register kernel (an instance's state in the registers of one or two threads, each in its own
// warp); others with nn <= 64 the lane kernel (8 threads per instance, a warp's 4 instances' states
// in shared memory, mt_kernel.hpp); the rest one thread per instance, 128 per block, state
// word-major across instances (coalesced).
// The other grids are those of the OpenCL backend (OpenMP: the one-thread-per-instance and
// one-warp-per-instance grids).
#include "generators/error.hpp"
#include "generators/stream.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

#include <algorithm>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>

namespace rngvet {
namespace {

constexpr int ranmar_per_block = ranmar_instances_per_block;
constexpr int ranmar_threads = ranmar_per_block * RNGVET_RANMAR_LANES;

__global__ void __launch_bounds__(ranmar_threads)
    ranmar_generate(RanmarKernelParams p, std::uint64_t* state, std::uint64_t* out)
{
    __shared__ std::uint64_t hist[ranmar_per_block][RNGVET_RANMAR_LAGS];
    const unsigned warp = threadIdx.x / RNGVET_RANMAR_LANES;
    const unsigned lane = threadIdx.x % RNGVET_RANMAR_LANES;
    const std::uint64_t i = std::uint64_t(blockIdx.x) * ranmar_per_block + warp;
    if (i >= p.instances) return; // the whole warp: no block-wide barrier follows
    std::uint64_t* st = state + i * RNGVET_RANMAR_STRIDE;
    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    ranmar_lane_load(st, hist[warp], lane);
    __syncwarp();
    const std::uint64_t steps = ranmar_steps(p, i);
    for (std::uint64_t s = 0; s < steps; ++s) {
        r = ranmar_lane_step(p, hist[warp], st, out, i, r);
        __syncwarp();
    }
    ranmar_lane_store(st, hist[warp], lane);
}

// Jump-parallel generation (ranmar_kernel.hpp): one warp per unit, unit u = i * S + s making
// every S-th chunk of instance i; ranmar_per_block independent warps per block (__syncwarp()
// only). Every layout, when setup.params.segments > 1.
__global__ void __launch_bounds__(ranmar_threads) ranmar_generate_segments(RanmarKernelParams p,
    std::uint64_t* state, const std::uint64_t* __restrict__ poly, std::uint64_t* out)
{
    __shared__ std::uint64_t hist[ranmar_per_block][RNGVET_RANMAR_SEG_HIST];
    __shared__ std::uint64_t ext[ranmar_per_block][RNGVET_RANMAR_EXT];
    const unsigned warp = threadIdx.x / RNGVET_RANMAR_LANES;
    const unsigned lane = threadIdx.x % RNGVET_RANMAR_LANES;
    const std::uint64_t unit = std::uint64_t(blockIdx.x) * ranmar_per_block + warp;
    const std::uint64_t i = unit / p.segments;
    if (i >= p.instances) return; // the whole warp: no block-wide barrier follows
    RanmarSegment g = ranmar_segment_begin(p, i, unit % p.segments);
    if (g.pos >= g.end) return; // no chunk of this unit in the launch: its state stays
    std::uint64_t* st = state + unit * RNGVET_RANMAR_STRIDE;
    std::uint64_t* h = hist[warp];
    std::uint64_t* e = ext[warp];
    ranmar_segment_load(st, h, lane);
    __syncwarp();
    while (g.pos < g.end) {
        RanmarLane r = ranmar_segment_lane(p, h, g, lane);
        const std::uint64_t steps = ranmar_segment_steps(g);
        __syncwarp();
        for (std::uint64_t s = 0; s < steps; ++s) {
            r = ranmar_segment_step(p, h, out, i, r);
            __syncwarp();
        }
        if (ranmar_segment_jumps(g)) {
            ranmar_jump_window(h, e, g, lane);
            __syncwarp();
            for (unsigned q = 0; q < 3; ++q) {
                ranmar_jump_extend(p, e, q, lane);
                __syncwarp();
            }
            ranmar_jump_apply(p, h, e, poly, g, lane);
            __syncwarp();
        }
        g = ranmar_segment_next(p, g);
    }
    ranmar_segment_store(st, h, lane);
}

// The tiled kernel (ranmar_kernel.hpp, "Tiled launch"; the OpenCL driver is the same code):
// RNGVET_RANMAR_TILE instances per block, each step's numbers staged in shared memory and
// written by the whole block in the layout's order, so that under interleave a warp's stores
// are runs of consecutive words instead of 32 words N apart. All layouts but single.
constexpr int ranmar_tiled_threads = RNGVET_RANMAR_TILE * RNGVET_RANMAR_LANES;

__global__ void __launch_bounds__(ranmar_tiled_threads)
    ranmar_generate_tiled(RanmarKernelParams p, std::uint64_t* state, std::uint64_t* out)
{
    __shared__ std::uint64_t hist[RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS];
    __shared__ std::uint64_t tile[2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH];
    __shared__ std::uint64_t start[RNGVET_RANMAR_TILE];
    __shared__ std::uint64_t end[RNGVET_RANMAR_TILE];
    const unsigned lid = threadIdx.x;
    const unsigned warp = lid / RNGVET_RANMAR_LANES;
    const unsigned lane = lid % RNGVET_RANMAR_LANES;
    const std::uint64_t first = std::uint64_t(blockIdx.x) * RNGVET_RANMAR_TILE;
    const std::uint64_t i = first + warp;
    const bool active = i < p.instances;
    std::uint64_t* st = state + (active ? i : 0) * RNGVET_RANMAR_STRIDE;
    std::uint64_t* h = hist + warp * RNGVET_RANMAR_LAGS;

    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    if (active) ranmar_lane_load(st, h, lane);
    if (lane == 0) {
        start[warp] = active ? r.k : 0;
        end[warp] = active ? r.end : 0;
    }
    __syncthreads();
    std::uint64_t steps = 0;
    for (unsigned w = 0; w < RNGVET_RANMAR_TILE; ++w) {
        const std::uint64_t s = (end[w] - start[w] + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES;
        if (end[w] > start[w] && s > steps) steps = s;
    }
    RanmarTileSlot q = ranmar_tile_slot(p, start, end, first, lid);
    for (std::uint64_t s = 0; s < steps; ++s) {
        std::uint64_t* t = tile + (s & 1) * (RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH);
        r = ranmar_lane_step_tile(p, h, st, t + warp * RNGVET_RANMAR_TILE_PITCH, r, lane);
        __syncthreads();
        q = ranmar_tile_write(p, t, out, q);
    }
    if (active) ranmar_lane_store(st, h, lane);
}

__global__ void __launch_bounds__(RNGVET_MT_THREADS_PER_BLOCK) mt_generate(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    mt_generate_instance(p, st, pos, consts, out,
        std::uint64_t(blockIdx.x) * RNGVET_MT_THREADS_PER_BLOCK + threadIdx.x);
}

// The lane kernel (mt_kernel.hpp, "Lane kernels"; the OpenCL driver is the same code with one
// team per work-group): RNGVET_MT_LANES threads per instance, one team of RNGVET_MT_TEAM
// instances per warp, mt_lane_teams warps per block. A team's lanes share only the team's own
// states, so __syncwarp() is the only barrier and the warps of a block run independently.
constexpr int mt_lane_teams = 8;
constexpr int mt_lane_threads = 32 * mt_lane_teams;
constexpr int mt_lane_instances = RNGVET_MT_TEAM * mt_lane_teams;

__global__ void __launch_bounds__(mt_lane_threads) mt_generate_lanes(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    __shared__ std::uint32_t sh[mt_lane_teams][RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH];
    const unsigned team = threadIdx.x / 32;
    const unsigned col = threadIdx.x % 32 / RNGVET_MT_LANES;
    const unsigned lane = threadIdx.x % RNGVET_MT_LANES;
    const std::uint64_t first
        = std::uint64_t(blockIdx.x) * mt_lane_instances + team * RNGVET_MT_TEAM;
    const bool active = first + col < p.instances;
    MtLane r = mt_lane_begin(p, pos, consts, first + col, col, lane);
    if (active) mt_lane_load(p, st, sh[team], r, lane);
    const std::uint64_t steps = mt_lanes_steps(p, first);
    __syncwarp();
    for (std::uint64_t s = 0; s < steps; ++s) {
        r = mt_lane_compute(p, sh[team], r);
        __syncwarp();
        r = mt_lane_commit(p, sh[team], out, r);
        __syncwarp();
    }
    if (active) mt_lane_store(p, st, sh[team], r, lane);
    mt_lane_end(p, pos, r, lane);
}

// The register kernel: each instance's nn state words live in registers for the whole launch,
// for DC sets with mm = nn / 2 and an nn compiled below (NN). Register w holds the word at
// position pos + w (mod nn) throughout; the loop is unrolled so that every index is a constant,
// and step r replaces register w = r mod nn from registers w, w + 1 and w + mm. The nn - mm
// steps whose inputs are all older words are independent: that much instruction-level
// parallelism per thread. Lane l of every warp of block b runs instance 32 b + l; a block has
// Share warps (1 or 2) and each runs the whole recurrence, but warp q tempers and stores only
// the instance's numbers t with t - first = q (mod Share): with few instances (the SDK's 4096
// are 128 warps on 132 SMs) that puts two warps on two schedulers where one would issue alone.
// (Four warps were measured slower than one: docs/benchmarks.md, run 6.) Under interleave a warp's
// store is 32 neighbouring words. The state is word-major in global memory between launches, as for
// the other kernels; warp 0 writes it back, after a barrier that follows every warp's load.
constexpr int mt_register_warp = 32;

template <int NN, bool Interleave, int Share, int Q>
__device__ void mt_registers_run(const MtKernelParams& p, std::uint32_t (&x)[NN], std::uint32_t* st,
    std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out, std::uint64_t i,
    std::uint32_t k0)
{
    constexpr int MM = NN / 2;
    constexpr int Round = NN * Share; // after Round steps, registers and owners repeat
    const std::uint64_t first = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    const std::uint64_t end
        = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    if (end <= first) return;
    const std::uint64_t n = end - first;
    const std::uint32_t aaa = consts[i];
    const std::uint32_t mask_b = consts[p.stride + i];
    const std::uint32_t mask_c = consts[2 * p.stride + i];
    const std::uint32_t umask = static_cast<std::uint32_t>(p.umask);
    const std::uint32_t lmask = static_cast<std::uint32_t>(p.lmask);
    std::uint64_t t = first + Q; // the next number this warp stores
    std::uint64_t j = Interleave ? rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0 : 0;
    const std::uint64_t j_step = Share * p.instances;
    auto step = [&](int r) {
        const int w = r % NN;
        x[w] = mt_twist(x[w], x[(w + 1) % NN], x[(w + MM) % NN], umask, lmask, aaa);
        if (r % Share != Q) return;
        const std::uint32_t y = mt_temper(p, x[w], mask_b, mask_c);
        std::uint64_t* slot
            = out + (Interleave ? j : rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0);
        if (p.count_mode != 0)
            *slot += 1;
        else
            *slot = y;
        t += Share;
        j += j_step;
    };
    for (std::uint64_t k = n / Round; k > 0; --k) {
#pragma unroll
        for (int r = 0; r < Round; ++r)
            step(r);
    }
    const std::uint64_t rest = n % Round;
#pragma unroll
    for (int r = 0; r < Round; ++r)
        if (static_cast<std::uint64_t>(r) < rest) step(r);
    if constexpr (Q == 0) { // the other warps hold the same state
#pragma unroll
        for (int w = 0; w < NN; ++w)
            st[(k0 + w < NN ? k0 + w : k0 + w - NN) * p.stride + i] = x[w];
        pos[i] = static_cast<std::uint32_t>((k0 + n % NN) % NN);
    }
}

template <int NN, bool Interleave, int Share>
__global__ void __launch_bounds__(mt_register_warp* Share) mt_generate_registers(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    const std::uint64_t i
        = std::uint64_t(blockIdx.x) * mt_register_warp + threadIdx.x % mt_register_warp;
    const unsigned q = threadIdx.x / mt_register_warp;
    const bool active = i < p.instances;
    std::uint32_t x[NN];
    const std::uint32_t k0 = active ? pos[i] : 0;
#pragma unroll
    for (int w = 0; w < NN; ++w)
        x[w] = active ? st[(k0 + w < NN ? k0 + w : k0 + w - NN) * p.stride + i] : 0;
    if (Share > 1) __syncthreads(); // every warp has read the state before warp 0 rewrites it
    if (!active) return;
    if (q == 0) mt_registers_run<NN, Interleave, Share, 0>(p, x, st, pos, consts, out, i, k0);
    if constexpr (Share > 1)
        if (q == 1) mt_registers_run<NN, Interleave, Share, 1>(p, x, st, pos, consts, out, i, k0);
}

template <int NN, bool Interleave>
void launch_mt_registers(const MtKernelParams& p, int share, cudaStream_t stream, std::uint32_t* st,
    std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    const auto blocks
        = static_cast<unsigned>((p.instances + mt_register_warp - 1) / mt_register_warp);
    const unsigned threads = static_cast<unsigned>(mt_register_warp * share);
    if (share == 2)
        mt_generate_registers<NN, Interleave, 2>
            <<<blocks, threads, 0, stream>>>(p, st, pos, consts, out);
    else
        mt_generate_registers<NN, Interleave, 1>
            <<<blocks, threads, 0, stream>>>(p, st, pos, consts, out);
}

template <int NN>
void launch_mt_registers(const MtKernelParams& p, int share, cudaStream_t stream, std::uint32_t* st,
    std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    if (p.layout == RNGVET_LAYOUT_INTERLEAVE)
        launch_mt_registers<NN, true>(p, share, stream, st, pos, consts, out);
    else
        launch_mt_registers<NN, false>(p, share, stream, st, pos, consts, out);
}

// The nn values the register kernel is compiled for (DC sets of MT521, MT607 and MT1279).
bool mt_registers_compiled(const MtKernelParams& p)
{
    return p.mm == p.nn / 2 && (p.nn == 17 || p.nn == 19 || p.nn == 40);
}

void launch_mt_registers_for(const MtKernelParams& p, int share, cudaStream_t stream,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    if (p.nn == 17)
        launch_mt_registers<17>(p, share, stream, st, pos, consts, out);
    else if (p.nn == 19)
        launch_mt_registers<19>(p, share, stream, st, pos, consts, out);
    else
        launch_mt_registers<40>(p, share, stream, st, pos, consts, out);
}

// Device-resident delivery: the integers x of a stream of `bits` bits as GetU01's doubles
// x * 2^-bits (in place: a double has the size of the word) or as top-32 words.
constexpr int convert_threads = 256;

__global__ void u01_kernel(std::uint64_t* x, std::uint64_t n, double scale)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x) {
        const double d = static_cast<double>(x[i]) * scale;
        reinterpret_cast<double*>(x)[i] = d;
    }
}

__global__ void top32_kernel(const std::uint64_t* x, std::uint32_t* out, std::uint64_t n, int bits)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x)
        out[i] = bits >= 32 ? static_cast<std::uint32_t>(x[i] >> (bits - 32))
                            : static_cast<std::uint32_t>(x[i] << (32 - bits));
}

unsigned grid_for(std::uint64_t n)
{
    const std::uint64_t blocks = (n + convert_threads - 1) / convert_threads;
    return static_cast<unsigned>(std::min<std::uint64_t>(blocks, 65536));
}

// Device selection, error reporting, the output buffer and the host staging, common to both
// generators. Everything runs on one stream (stream_): kernels in order, each launch returning
// at once; download(), upload() and finish() wait. With staging (stage()), slot s has a device
// buffer (slot 0: out_) and a pinned host buffer; its copies run on copy_, after the kernel
// that filled it (kernel_done_) and before the next kernel that overwrites it (copy_done_).
class CudaDevice : public KernelDevice {
public:
    explicit CudaDevice(int device)
        : device_(device < 0 ? 0 : device)
    {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || device_ >= count) {
            cudaGetLastError();
            throw InputError("backend 'cuda': device " + std::to_string(device_)
                + " does not exist (" + std::to_string(count) + " found)");
        }
        check(cudaSetDevice(device_), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device_), "cudaGetDeviceProperties");
        name_ = prop.name;
        multiprocessors_ = prop.multiProcessorCount;
        check(cudaStreamCreate(&stream_), "cudaStreamCreate");
    }
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;
    ~CudaDevice() override
    {
        cudaSetDevice(device_);
        if (stream_) cudaStreamSynchronize(stream_);
        if (copy_) cudaStreamSynchronize(copy_);
        for (int s = 0; s < 2; ++s) {
            if (pinned_[s]) cudaFreeHost(pinned_[s]);
            if (kernel_done_[s]) cudaEventDestroy(kernel_done_[s]);
            if (copy_done_[s]) cudaEventDestroy(copy_done_[s]);
        }
        if (copy_) cudaStreamDestroy(copy_);
        if (stream_) cudaStreamDestroy(stream_);
        for (void* p : allocations_)
            cudaFree(p);
        cudaGetLastError();
    }

    void reserve(std::size_t words) override
    {
        if (words <= capacity_) return;
        finish();
        if (copy_) check(cudaStreamSynchronize(copy_), "waiting for copies");
        release(out_);
        out_ = nullptr;
        capacity_ = 0;
        out_ = static_cast<std::uint64_t*>(allocate(bytes_of(words), "output buffer"));
        capacity_ = words;
    }

    void upload(const std::uint64_t* host, std::size_t words) override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        wait_for_copy(0);
        check(cudaMemcpyAsync(out_, host, bytes_of(words), cudaMemcpyHostToDevice, stream_),
            "writing the output buffer");
        finish();
    }

    void download(std::uint64_t* host, std::size_t words) override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaMemcpyAsync(host, out_, bytes_of(words), cudaMemcpyDeviceToHost, stream_),
            "reading the output buffer");
        finish();
    }

    void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode) override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        wait_for_copy(0);
        enqueue(g0, len, out_ + offset, count_mode);
        check(cudaGetLastError(), "launching the kernel");
    }

    void finish() override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaStreamSynchronize(stream_), "running the kernel");
    }

    bool stage(std::size_t words) override
    {
        if (staged_ >= words) return true;
        if (staged_ != 0) return false; // staged once, for the stream's launch length
        reserve(words);
        check_host_memory(
            words, 2 * sizeof(std::uint64_t), "the pinned host staging of backend 'cuda'");
        std::uint64_t* second
            = static_cast<std::uint64_t*>(allocate(bytes_of(words), "second output buffer"));
        for (int s = 0; s < 2; ++s)
            if (cudaMallocHost(reinterpret_cast<void**>(&pinned_[s]), bytes_of(words))
                != cudaSuccess) {
                cudaGetLastError();
                pinned_[s] = nullptr;
                throw InputError("backend 'cuda' ran out of pinned host memory: "
                    + std::to_string(2 * bytes_of(words) >> 20)
                    + " MiB of host staging; use fewer numbers per launch");
            }
        check(cudaStreamCreate(&copy_), "cudaStreamCreate");
        for (int s = 0; s < 2; ++s) {
            check(cudaEventCreateWithFlags(&kernel_done_[s], cudaEventDisableTiming),
                "cudaEventCreate");
            check(cudaEventCreateWithFlags(&copy_done_[s], cudaEventDisableTiming),
                "cudaEventCreate");
        }
        second_ = second;
        staged_ = words;
        return true;
    }

    void launch_to_host(std::uint64_t g0, std::uint64_t len, int slot) override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        std::uint64_t* buffer = slot == 0 ? out_ : second_;
        wait_for_copy(slot);
        enqueue(g0, len, buffer, false);
        check(cudaGetLastError(), "launching the kernel");
        check(cudaEventRecord(kernel_done_[slot], stream_), "cudaEventRecord");
        check(cudaStreamWaitEvent(copy_, kernel_done_[slot], 0), "cudaStreamWaitEvent");
        check(cudaMemcpyAsync(pinned_[slot], buffer, bytes_of(static_cast<std::size_t>(len)),
                  cudaMemcpyDeviceToHost, copy_),
            "reading the output buffer");
        check(cudaEventRecord(copy_done_[slot], copy_), "cudaEventRecord");
    }

    bool host_ready(int slot) override
    {
        const cudaError_t rc = cudaEventQuery(copy_done_[slot]);
        if (rc == cudaErrorNotReady) return false;
        check(rc, "running the kernel and copying its output");
        return true;
    }

    bool asynchronous_staging() const override { return true; }

    const std::uint64_t* host_words(int slot) override
    {
        check(cudaEventSynchronize(copy_done_[slot]), "running the kernel and copying its output");
        return pinned_[slot];
    }

    bool launch_to_device(
        std::uint64_t g0, std::uint64_t len, void* dst, int format, int bits) override
    {
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (format == static_cast<int>(DeviceFormat::u32)) {
            // Through the output buffer, a launch of at most its capacity at a time.
            std::uint32_t* words = static_cast<std::uint32_t*>(dst);
            for (std::uint64_t done = 0; done < len;) {
                const std::uint64_t n = std::min<std::uint64_t>(len - done, capacity_);
                wait_for_copy(0);
                enqueue(g0 + done, n, out_, false);
                check(cudaGetLastError(), "launching the kernel");
                top32_kernel<<<grid_for(n), convert_threads, 0, stream_>>>(
                    out_, words + done, n, bits);
                check(cudaGetLastError(), "launching the conversion");
                done += n;
            }
        } else {
            // The integers straight into dst; doubles converted there in place (same size).
            std::uint64_t* x = static_cast<std::uint64_t*>(dst);
            enqueue(g0, len, x, false);
            check(cudaGetLastError(), "launching the kernel");
            if (format == static_cast<int>(DeviceFormat::u01)) {
                u01_kernel<<<grid_for(len), convert_threads, 0, stream_>>>(
                    x, len, 1.0 / static_cast<double>(std::uint64_t(1) << bits));
                check(cudaGetLastError(), "launching the conversion");
            }
        }
        finish();
        return true;
    }

    std::string description() const override
    {
        return "cuda: device " + std::to_string(device_) + " (" + name_ + ")";
    }

protected:
    // Puts the generator's kernel for [g0, g0 + len) into stream_, writing to out.
    virtual void enqueue(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode)
        = 0;

    static std::size_t bytes_of(std::size_t words) { return words * sizeof(std::uint64_t); }

    void check(cudaError_t rc, const char* what) const
    {
        if (rc == cudaSuccess) return;
        cudaGetLastError(); // clear a non-sticky error
        if (rc == cudaErrorMemoryAllocation)
            throw InputError("backend 'cuda' ran out of device memory on " + name_ + " (" + what
                + "); use fewer instances");
        throw InputError("backend 'cuda': " + std::string(what) + " failed on " + name_ + ": "
            + cudaGetErrorString(rc));
    }

    void* allocate(std::size_t bytes, const char* what)
    {
        void* p = nullptr;
        const cudaError_t rc = cudaMalloc(&p, bytes);
        if (rc == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            throw InputError("backend 'cuda' ran out of device memory on " + name_ + ": the " + what
                + " needs " + std::to_string(bytes >> 20) + " MiB; use fewer instances");
        }
        check(rc, "cudaMalloc");
        allocations_.push_back(p);
        return p;
    }

    template <class T> T* copy_to_device(const std::vector<T>& host, const char* what)
    {
        T* d = static_cast<T*>(allocate(host.size() * sizeof(T), what));
        check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), what);
        check(cudaDeviceSynchronize(), what);
        return d;
    }

    int multiprocessors() const { return multiprocessors_; }

    int device_;
    int multiprocessors_ = 1;
    std::string name_ = "?";
    std::uint64_t* out_ = nullptr;
    std::size_t capacity_ = 0;
    cudaStream_t stream_ = nullptr;

private:
    // Kernels that overwrite slot's device buffer wait until its last copy to the host is done.
    void wait_for_copy(int slot)
    {
        if (staged_ != 0)
            check(cudaStreamWaitEvent(stream_, copy_done_[slot], 0), "cudaStreamWaitEvent");
    }

    void release(void* p)
    {
        if (!p) return;
        cudaFree(p);
        allocations_.erase(std::find(allocations_.begin(), allocations_.end(), p));
    }

    std::vector<void*> allocations_;
    std::size_t staged_ = 0; // words per staging slot, 0: not staged
    std::uint64_t* second_ = nullptr; // slot 1's device buffer
    std::uint64_t* pinned_[2] = { nullptr, nullptr };
    cudaStream_t copy_ = nullptr;
    cudaEvent_t kernel_done_[2] = { nullptr, nullptr };
    cudaEvent_t copy_done_[2] = { nullptr, nullptr };
};

class CudaRanmar final : public CudaDevice {
public:
    CudaRanmar(const RanmarSetup& setup, int device)
        : CudaDevice(device)
        , params_(setup.params)
        , blocks_(setup.blocks)
    {
        state_ = copy_to_device(setup.state, "generator states");
        if (params_.segments > 1) jump_ = copy_to_device(setup.jump, "jump polynomial");
    }

protected:
    // Jump-parallel (segments > 1): one warp per unit, every layout. Otherwise single layout:
    // one warp per instance (ranmar_generate); every other layout: the tiled kernel.
    void enqueue(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode) override
    {
        RanmarKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        if (p.segments > 1) {
            ranmar_generate_segments<<<static_cast<unsigned>(blocks_), ranmar_threads, 0,
                stream_>>>(p, state_, jump_, out);
        } else if (p.layout == RNGVET_LAYOUT_SINGLE) {
            ranmar_generate<<<static_cast<unsigned>(blocks_), ranmar_threads, 0, stream_>>>(
                p, state_, out);
        } else {
            const std::uint64_t blocks
                = (p.instances + RNGVET_RANMAR_TILE - 1) / RNGVET_RANMAR_TILE;
            ranmar_generate_tiled<<<static_cast<unsigned>(blocks), ranmar_tiled_threads, 0,
                stream_>>>(p, state_, out);
        }
    }

private:
    RanmarKernelParams params_;
    std::uint64_t blocks_;
    std::uint64_t* state_ = nullptr;
    std::uint64_t* jump_ = nullptr;
};

// Which MT kernel a configuration runs: the register kernel where it is compiled for the sets'
// nn and there are at least mt_register_min_instances instances (fewer leave most of the GPU
// idle), else the lane kernel where the sets allow it, else one thread per instance on the
// word-major state in global memory. The register kernel's share is 2 where one warp per 32
// instances would leave SMs with fewer warps than schedulers (4), else 1. RNGVET_MT_KERNEL
// (registers, registers:1, registers:2, lanes, words) forces one, for the exactness tests and
// the benchmark's comparison.
constexpr std::uint64_t mt_register_min_instances = 2048;

struct MtKernelChoice {
    enum Kind { words, lanes, registers } kind;
    int share; // registers: warps per 32 instances
};

MtKernelChoice choose_mt_kernel(const MtKernelParams& p, int multiprocessors)
{
    const bool lanes = mt_lanes_fit(p) != 0;
    const std::uint64_t warps = (p.instances + mt_register_warp - 1) / mt_register_warp;
    int share = warps < 4 * static_cast<std::uint64_t>(multiprocessors) ? 2 : 1;
    const char* env = std::getenv("RNGVET_MT_KERNEL");
    const std::string forced = env ? env : "";
    if (forced.empty()) {
        if (mt_registers_compiled(p) && p.instances >= mt_register_min_instances)
            return { MtKernelChoice::registers, share };
        return { lanes ? MtKernelChoice::lanes : MtKernelChoice::words, 0 };
    }
    const std::string sets
        = "sets with nn=" + std::to_string(p.nn) + ", mm=" + std::to_string(p.mm);
    if (forced == "words") return { MtKernelChoice::words, 0 };
    if (forced == "lanes") {
        if (!lanes) throw InputError("RNGVET_MT_KERNEL=lanes: no lane kernel for " + sets);
        return { MtKernelChoice::lanes, 0 };
    }
    if (forced.rfind("registers", 0) == 0) {
        if (forced == "registers:1" || forced == "registers:2")
            share = forced.back() - '0';
        else if (forced != "registers")
            throw InputError("RNGVET_MT_KERNEL='" + forced + "': the share is 1 or 2");
        if (!mt_registers_compiled(p))
            throw InputError("RNGVET_MT_KERNEL=" + forced + ": no register kernel for " + sets
                + " (it is compiled for nn=17, 19, 40 with mm=nn/2)");
        return { MtKernelChoice::registers, share };
    }
    throw InputError("RNGVET_MT_KERNEL='" + forced
        + "' is not registers, registers:1, registers:2, lanes or words");
}

class CudaMt final : public CudaDevice {
public:
    CudaMt(const MtSetup& setup, int device)
        : CudaDevice(device)
        , params_(setup.params)
        , blocks_(setup.blocks)
        , kernel_(choose_mt_kernel(setup.params, multiprocessors()))
    {
        state_ = copy_to_device(setup.state, "generator states");
        position_ = copy_to_device(setup.position, "generator positions");
        consts_ = copy_to_device(setup.consts, "parameter sets");
    }

protected:
    void enqueue(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode) override
    {
        MtKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        if (kernel_.kind == MtKernelChoice::registers) {
            launch_mt_registers_for(p, kernel_.share, stream_, state_, position_, consts_, out);
        } else if (kernel_.kind == MtKernelChoice::lanes) {
            const std::uint64_t blocks = (p.instances + mt_lane_instances - 1) / mt_lane_instances;
            mt_generate_lanes<<<static_cast<unsigned>(blocks), mt_lane_threads, 0, stream_>>>(
                p, state_, position_, consts_, out);
        } else {
            mt_generate<<<static_cast<unsigned>(blocks_), RNGVET_MT_THREADS_PER_BLOCK, 0,
                stream_>>>(p, state_, position_, consts_, out);
        }
    }

private:
    MtKernelParams params_;
    std::uint64_t blocks_;
    MtKernelChoice kernel_;
    std::uint32_t* state_ = nullptr;
    std::uint32_t* position_ = nullptr;
    std::uint32_t* consts_ = nullptr;
};

} // namespace

bool cuda_usable(std::string& why)
{
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaSuccess && count > 0) return true;
    cudaGetLastError();
    if (rc == cudaSuccess || rc == cudaErrorNoDevice)
        why = "no CUDA device found";
    else if (rc == cudaErrorInsufficientDriver)
        why = "no CUDA device found: no NVIDIA driver, or one older than this CUDA runtime";
    else
        why = std::string("no usable CUDA device: ") + cudaGetErrorString(rc);
    return false;
}

std::vector<std::string> cuda_device_names()
{
    std::vector<std::string> names;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return names;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, d) == cudaSuccess) names.push_back(prop.name);
    }
    return names;
}

std::unique_ptr<KernelDevice> make_cuda_ranmar(const RanmarSetup& setup, int device)
{
    return std::make_unique<CudaRanmar>(setup, device);
}

std::unique_ptr<KernelDevice> make_cuda_mt(const MtSetup& setup, int device)
{
    return std::make_unique<CudaMt>(setup, device);
}

} // namespace rngvet
