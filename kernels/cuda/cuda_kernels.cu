// CUDA backend. RANMAR with jump-parallel generation (few instances): one warp per unit, an
// instance's every S-th chunk (ranmar_generate_segments); under interleave a block holds the
// same unit of up to 8 instances and stages their numbers through shared memory, so that the
// stores coalesce (ranmar_generate_interleaved). Otherwise one warp per instance. Layout
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
#include "generators/u01.hpp"
#include "kernels/families.hpp"
#include "kernels/launch_plan.hpp"
#include "kernels/mt_registers.hpp"

#include <algorithm>
#include <cstdlib>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <string>

namespace rngvet {
namespace {

// The __global__ trampolines of the grids (kernels/grid.hpp): each declares its shared
// scratch and runs its body (ranmar_kernel.hpp, mt_kernel.hpp, mt_registers.hpp) for
// (blockIdx.x, threadIdx.x).
constexpr int ranmar_per_block = ranmar_instances_per_block; // cuda_grid_shape's warps
constexpr int ranmar_threads = ranmar_per_block * RNGVET_RANMAR_LANES;

// One warp per instance, ranmar_per_block independent warps per block (layout single).
__global__ void __launch_bounds__(ranmar_threads)
    ranmar_generate(RanmarKernelParams p, std::uint64_t* state, std::uint64_t* out)
{
    __shared__ std::uint64_t hist[ranmar_per_block * RNGVET_RANMAR_LAGS];
    ranmar_warps_body(p, state, out, hist, blockIdx.x, threadIdx.x, ranmar_per_block);
}

// Jump-parallel generation: one warp per unit, ranmar_per_block independent warps per block.
// Every layout, when setup.params.segments > 1.
__global__ void __launch_bounds__(ranmar_threads) ranmar_generate_segments(RanmarKernelParams p,
    std::uint64_t* state, const std::uint64_t* __restrict__ poly, std::uint64_t* out)
{
    __shared__ std::uint64_t scratch[ranmar_per_block * RNGVET_RANMAR_SEG_SCRATCH];
    __shared__ std::uint64_t xch[ranmar_per_block * RNGVET_RANMAR_LANES]; // unused: __shfl_sync
    ranmar_segments_body(
        p, state, poly, out, scratch, xch, blockIdx.x, threadIdx.x, ranmar_per_block);
}

// Jump-parallel generation under interleave: the same unit of `tile` neighbouring instances
// per block, coalesced stores through the tiles (ranmar_interleaved_body).
__global__ void __launch_bounds__(RNGVET_RANMAR_ILV_TILE* RNGVET_RANMAR_LANES)
    ranmar_generate_interleaved(RanmarKernelParams p, std::uint64_t* state,
        const std::uint64_t* __restrict__ poly, std::uint64_t* out, unsigned tile)
{
    __shared__ std::uint64_t scratch[RNGVET_RANMAR_ILV_TILE * RNGVET_RANMAR_SEG_SCRATCH];
    __shared__ std::uint64_t xch[RNGVET_RANMAR_ILV_TILE * RNGVET_RANMAR_LANES]; // unused
    __shared__ std::uint64_t tiles[RNGVET_RANMAR_ILV_TILE_WORDS];
    ranmar_interleaved_body(
        p, state, poly, out, scratch, xch, tiles, blockIdx.x, threadIdx.x, tile);
}

// The tiled grid (ranmar_kernel.hpp, "Tiled launch"): all layouts but single.
__global__ void __launch_bounds__(RNGVET_RANMAR_TILED_THREADS)
    ranmar_generate_tiled(RanmarKernelParams p, std::uint64_t* state, std::uint64_t* out)
{
    __shared__ std::uint64_t hist[RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS];
    __shared__ std::uint64_t tile[2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH];
    __shared__ std::uint64_t start[RNGVET_RANMAR_TILE];
    __shared__ std::uint64_t end[RNGVET_RANMAR_TILE];
    ranmar_tiled_body(p, state, out, hist, tile, start, end, blockIdx.x, threadIdx.x);
}

__global__ void __launch_bounds__(RNGVET_MT_THREADS_PER_BLOCK) mt_generate(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    mt_words_body(p, st, pos, consts, out, blockIdx.x, threadIdx.x);
}

// The lane grid (mt_kernel.hpp, "Lane kernels"): one team of RNGVET_MT_TEAM instances per warp,
// mt_lane_teams independent warps per block (the OpenCL wrapper runs one team per work-group).
constexpr int mt_lane_teams = cuda_mt_lane_teams;
constexpr int mt_lane_threads = 32 * mt_lane_teams;

__global__ void __launch_bounds__(mt_lane_threads) mt_generate_lanes(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    __shared__ std::uint32_t sh[mt_lane_teams * RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH];
    mt_lanes_body(p, st, pos, consts, out, sh, blockIdx.x, threadIdx.x, mt_lane_teams);
}

// Jump-parallel MT (mt_kernel.hpp, "Jump-parallel generation"): one warp per unit, for few
// instances (setup.segments > 1, backend.cpp's segment_plan), in place of the grids above.
__global__ void __launch_bounds__(32 * RNGVET_MT_SEG_WARPS) mt_generate_segments(MtKernelParams p,
    std::uint32_t* ust, std::uint32_t* upos, std::uint32_t* acc,
    const std::uint32_t* __restrict__ consts, const std::uint32_t* __restrict__ jump,
    const std::uint32_t* __restrict__ jdeg, std::uint64_t* out)
{
    mt_segments_body(p, ust, upos, acc, consts, jump, jdeg, out, blockIdx.x, threadIdx.x);
}

// The register grid (mt_registers.hpp): Share warps per 32 instances.
template <int NN, bool Interleave, int Share>
__global__ void __launch_bounds__(mt_register_warp* Share) mt_generate_registers(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    mt_registers_body<NN, Interleave, Share>(p, st, pos, consts, out, blockIdx.x, threadIdx.x);
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
// (in place: a double has the size of the word) or as top-32 words, by the conversions of
// generators/u01.hpp that the host compiles too.
constexpr int convert_threads = 256;

__global__ void u01_kernel(std::uint64_t* x, std::uint64_t n, int bits)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x) {
        const double d = to_u01(x[i], bits);
        reinterpret_cast<double*>(x)[i] = d;
    }
}

__global__ void low32_kernel(std::uint64_t* x, std::uint64_t n)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x)
        x[i] &= 0xffffffffu;
}

__global__ void top32_kernel(const std::uint64_t* x, std::uint32_t* out, std::uint64_t n, int bits)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x)
        out[i] = top32(x[i], bits);
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
            // The integers straight into dst; doubles or low halves made there in place.
            std::uint64_t* x = static_cast<std::uint64_t*>(dst);
            enqueue(g0, len, x, false);
            check(cudaGetLastError(), "launching the kernel");
            if (format == static_cast<int>(DeviceFormat::u01)) {
                u01_kernel<<<grid_for(len), convert_threads, 0, stream_>>>(x, len, bits);
                check(cudaGetLastError(), "launching the conversion");
            } else if (format == static_cast<int>(DeviceFormat::low32)) {
                low32_kernel<<<grid_for(len), convert_threads, 0, stream_>>>(x, len);
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

// One device class for every generator: the plan (launch_plan.hpp) picks the grid of each
// launch, enqueue() runs its trampoline on the plan's buffers.
class CudaKernels final : public CudaDevice {
public:
    template <class Setup>
    CudaKernels(const Setup& setup, int device)
        : CudaDevice(device)
        , plan_(setup, cuda_grid_shape(multiprocessors()))
    {
        for (const PlanBuffer& b : plan_buffers(setup))
            buffers_.push_back(b.bytes == 0 ? nullptr : copy_to_device(b, b.what));
    }

protected:
    void enqueue(std::uint64_t g0, std::uint64_t len, std::uint64_t* out, bool count_mode) override
    {
        const Launch l = plan_.launch(g0, len, count_mode);
        const auto blocks = static_cast<unsigned>(l.blocks);
        switch (l.grid) {
        case Grid::ranmar_warps:
            ranmar_generate<<<blocks, l.threads, 0, stream_>>>(l.ranmar, u64(0), out);
            break;
        case Grid::ranmar_tiled:
            ranmar_generate_tiled<<<blocks, l.threads, 0, stream_>>>(l.ranmar, u64(0), out);
            break;
        case Grid::ranmar_segments:
            ranmar_generate_segments<<<blocks, l.threads, 0, stream_>>>(
                l.ranmar, u64(0), u64(1), out);
            break;
        case Grid::ranmar_interleaved:
            ranmar_generate_interleaved<<<blocks, l.threads, 0, stream_>>>(
                l.ranmar, u64(0), u64(1), out, l.per_block);
            break;
        case Grid::mt_words:
            mt_generate<<<blocks, l.threads, 0, stream_>>>(l.mt, u32(0), u32(1), u32(2), out);
            break;
        case Grid::mt_lanes:
            mt_generate_lanes<<<blocks, l.threads, 0, stream_>>>(l.mt, u32(0), u32(1), u32(2), out);
            break;
        case Grid::mt_registers:
            launch_mt_registers_for(
                l.mt, static_cast<int>(l.per_block), stream_, u32(0), u32(1), u32(2), out);
            break;
        case Grid::mt_segments:
            mt_generate_segments<<<blocks, l.threads, 0, stream_>>>(
                l.mt, u32(3), u32(4), u32(5), u32(2), u32(6), u32(7), out);
            break;
        }
    }

private:
    void* copy_to_device(const PlanBuffer& b, const char* what)
    {
        void* d = allocate(b.bytes, what);
        check(cudaMemcpy(d, b.data, b.bytes, cudaMemcpyHostToDevice), what);
        check(cudaDeviceSynchronize(), what);
        return d;
    }

    std::uint64_t* u64(std::size_t k) const { return static_cast<std::uint64_t*>(buffers_[k]); }
    std::uint32_t* u32(std::size_t k) const { return static_cast<std::uint32_t*>(buffers_[k]); }

    LaunchPlan plan_;
    std::vector<void*> buffers_;
};

} // namespace

namespace {

// "13.0" from CUDA's 1000 * major + 10 * minor.
std::string cuda_version_text(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

} // namespace

// The runtime is linked statically (kernels/CMakeLists.txt) and loads the driver, libcuda.so.1,
// on its first call: where the driver is missing the call fails with
// cudaErrorInsufficientDriver, as for a driver too old, and the two are told apart here.
bool cuda_usable(std::string& why)
{
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaSuccess && count > 0) return true;
    cudaGetLastError();
    if (rc == cudaSuccess || rc == cudaErrorNoDevice) {
        why = "no CUDA device found";
    } else if (rc == cudaErrorInsufficientDriver) {
        void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!driver) {
            const char* e = dlerror();
            why = std::string("no NVIDIA driver (") + (e ? e : "libcuda.so.1 cannot be loaded")
                + ")";
        } else {
            dlclose(driver);
            int version = 0;
            cudaDriverGetVersion(&version);
            cudaGetLastError();
            why = "the NVIDIA driver supports CUDA " + cuda_version_text(version)
                + ", older than this build's CUDA runtime " + cuda_version_text(CUDART_VERSION);
        }
    } else {
        why = std::string("no usable CUDA device: ") + cudaGetErrorString(rc);
    }
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

void warm_up_cuda(int device)
{
    if (cudaSetDevice(device < 0 ? 0 : device) == cudaSuccess) cudaFree(nullptr);
    cudaGetLastError();
}

// CUDA's one device template: the grids' device (the refusal of a family without grids).
template <class Family>
std::unique_ptr<KernelDevice> make_cuda_device(const typename Family::Setup& setup, int device)
{
    return make_grid_device<Family, CudaKernels>("cuda", setup, device);
}

RNGVET_INSTANTIATE_DEVICES(cuda)

} // namespace rngvet
