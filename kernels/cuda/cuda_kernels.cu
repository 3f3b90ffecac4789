// CUDA backend. RANMAR: one warp per instance, ranmar_instances_per_block warps per block; a
// warp's lanes share only their own history in shared memory, so __syncwarp() is the only
// barrier and warps run independently. MT: one thread per instance, 128 per block, state
// word-major across instances (coalesced). The grids are those of the OpenCL and OpenMP
// backends.
#include "generators/error.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

#include <algorithm>
#include <cuda_runtime.h>

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

__global__ void __launch_bounds__(RNGVET_MT_THREADS_PER_BLOCK) mt_generate(MtKernelParams p,
    std::uint32_t* st, std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out)
{
    mt_generate_instance(p, st, pos, consts, out,
        std::uint64_t(blockIdx.x) * RNGVET_MT_THREADS_PER_BLOCK + threadIdx.x);
}

// Device selection, error reporting and the output buffer, common to both generators.
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
    }
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;
    ~CudaDevice() override
    {
        for (void* p : allocations_)
            cudaFree(p);
    }

    void reserve(std::size_t words) override
    {
        if (words <= capacity_) return;
        release(out_);
        out_ = nullptr;
        capacity_ = 0;
        out_
            = static_cast<std::uint64_t*>(allocate(words * sizeof(std::uint64_t), "output buffer"));
        capacity_ = words;
    }

    void upload(const std::uint64_t* host, std::size_t words) override
    {
        check(cudaMemcpy(out_, host, words * sizeof(std::uint64_t), cudaMemcpyHostToDevice),
            "writing the output buffer");
    }

    void download(std::uint64_t* host, std::size_t words) override
    {
        check(cudaMemcpy(host, out_, words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
            "reading the output buffer");
    }

    std::string description() const override
    {
        return "cuda: device " + std::to_string(device_) + " (" + name_ + ")";
    }

protected:
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
        return d;
    }

    void finish(const char* kernel)
    {
        check(cudaGetLastError(), kernel);
        check(cudaDeviceSynchronize(), kernel);
    }

    int device_;
    std::string name_ = "?";
    std::uint64_t* out_ = nullptr;
    std::size_t capacity_ = 0;

private:
    void release(void* p)
    {
        if (!p) return;
        cudaFree(p);
        allocations_.erase(std::find(allocations_.begin(), allocations_.end(), p));
    }

    std::vector<void*> allocations_;
};

class CudaRanmar final : public CudaDevice {
public:
    CudaRanmar(const RanmarSetup& setup, int device)
        : CudaDevice(device)
        , params_(setup.params)
        , blocks_(setup.blocks)
    {
        state_ = copy_to_device(setup.state, "generator states");
    }

    void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode) override
    {
        RanmarKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        check(cudaSetDevice(device_), "cudaSetDevice");
        ranmar_generate<<<static_cast<unsigned>(blocks_), ranmar_threads>>>(
            p, state_, out_ + offset);
        finish("ranmar_generate");
    }

private:
    RanmarKernelParams params_;
    std::uint64_t blocks_;
    std::uint64_t* state_ = nullptr;
};

class CudaMt final : public CudaDevice {
public:
    CudaMt(const MtSetup& setup, int device)
        : CudaDevice(device)
        , params_(setup.params)
        , blocks_(setup.blocks)
    {
        state_ = copy_to_device(setup.state, "generator states");
        position_ = copy_to_device(setup.position, "generator positions");
        consts_ = copy_to_device(setup.consts, "parameter sets");
    }

    void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode) override
    {
        MtKernelParams p = params_;
        p.g0 = g0;
        p.len = len;
        p.count_mode = count_mode ? 1 : 0;
        check(cudaSetDevice(device_), "cudaSetDevice");
        mt_generate<<<static_cast<unsigned>(blocks_), RNGVET_MT_THREADS_PER_BLOCK>>>(
            p, state_, position_, consts_, out_ + offset);
        finish("mt_generate");
    }

private:
    MtKernelParams params_;
    std::uint64_t blocks_;
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
