// The references `rngvet bench` sets beside the configurations, measured with CUDA events on
// the same device in the same run: cuRAND's generators writing 32-bit numbers to device memory,
// a plain store kernel (the device memory write bandwidth), and pinned device-to-host copies.
// cuRAND is loaded at run time (dlopen of its soname), so that neither the binary nor its
// package needs libcurand: without it the cuRAND rows are left out and the reason is printed.
#include "kernels/references.hpp"

#include <cuda_runtime.h>
#include <curand.h>
#include <dlfcn.h>
#include <iostream>
#include <string>

namespace rngvet {
namespace {

// The four cuRAND calls the references make, from the library of the cuRAND major version
// these headers declare (libcurand.so.10 for CUDA 11 to 13).
struct Curand {
    decltype(&curandCreateGenerator) create = nullptr;
    decltype(&curandSetPseudoRandomGeneratorSeed) seed = nullptr;
    decltype(&curandGenerate) generate = nullptr;
    decltype(&curandDestroyGenerator) destroy = nullptr;
    std::string why; // empty when loaded

    Curand()
    {
        const std::string soname = "libcurand.so." + std::to_string(CURAND_VER_MAJOR);
        void* h = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* e = dlerror();
            why = e ? e : soname + ": cannot be loaded";
            return;
        }
        bool ok = load(h, "curandCreateGenerator", create);
        ok = load(h, "curandSetPseudoRandomGeneratorSeed", seed) && ok;
        ok = load(h, "curandGenerate", generate) && ok;
        ok = load(h, "curandDestroyGenerator", destroy) && ok;
        if (!ok) why = soname + " lacks the generator calls";
    }

    template <class F> static bool load(void* h, const char* name, F& f)
    {
        f = reinterpret_cast<F>(dlsym(h, name));
        return f != nullptr;
    }
};

__global__ void store_kernel(uint4* out, std::size_t n)
{
    const uint4 v = make_uint4(threadIdx.x, blockIdx.x, 1u, 2u);
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = v;
}

// Seconds per call of f, the best of `repeats` timed calls after one warm-up call.
template <class F> double best_seconds(F f, int repeats = 5)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();
    float best = 1e30f;
    for (int r = 0; r < repeats; ++r) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (ms < best) best = ms;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return best * 1e-3;
}

Throughput reference(const char* what, std::size_t numbers, double bytes_per_number, double seconds)
{
    Throughput t;
    t.what = what;
    t.backend = "cuda";
    t.placement = "device";
    t.numbers = numbers;
    t.seconds = seconds;
    t.bytes_per_number = bytes_per_number;
    return t;
}

} // namespace

std::vector<Throughput> cuda_references(std::size_t bytes)
{
    std::vector<Throughput> out;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        return out;
    }
    void* device = nullptr;
    if (cudaMalloc(&device, bytes) != cudaSuccess) {
        cudaGetLastError();
        return out;
    }
    const std::size_t words = bytes / 4;

    const std::pair<curandRngType_t, const char*> generators[] = {
        { CURAND_RNG_PSEUDO_MTGP32, "curand MTGP32" },
        { CURAND_RNG_PSEUDO_MT19937, "curand MT19937" },
        { CURAND_RNG_PSEUDO_PHILOX4_32_10, "curand Philox4_32_10" },
    };
    static const Curand curand;
    if (curand.why.empty()) {
        for (const auto& [type, name] : generators) {
            curandGenerator_t g;
            if (curand.create(&g, type) != CURAND_STATUS_SUCCESS) continue;
            curand.seed(g, 1234);
            const double s = best_seconds(
                [&] { curand.generate(g, static_cast<unsigned int*>(device), words); });
            out.push_back(reference(name, words, 4, s));
            curand.destroy(g);
        }
    } else {
        std::cerr << "rngvet: bench: cuRAND references not measured: " << curand.why << "\n";
    }

    const std::size_t vec = bytes / sizeof(uint4);
    const double store
        = best_seconds([&] { store_kernel<<<1024, 256>>>(static_cast<uint4*>(device), vec); });
    out.push_back(reference("device memory write", bytes / 8, 8, store));

    void* pinned = nullptr;
    if (cudaMallocHost(&pinned, bytes) == cudaSuccess) {
        const double copy
            = best_seconds([&] { cudaMemcpyAsync(pinned, device, bytes, cudaMemcpyDeviceToHost); });
        Throughput t = reference("pinned device-to-host copy", bytes / 8, 8, copy);
        t.placement = "host";
        out.push_back(t);
        cudaFreeHost(pinned);
    }
    cudaGetLastError();
    cudaFree(device);
    return out;
}

} // namespace rngvet
