// Monte Carlo pi on the GPU with librngvet's device interface: each replication's 2N uniforms
// are written by one launch straight into device memory (RNGVET_DEVICE), the hits inside the
// quarter circle are counted on the device, and only the counts come back. The error of the
// mean over R replications is printed in sigmas of its binomial law.
//
//   mcpi_cuda [CONFIGURATION] [--points N] [--reps R]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <rngvet/rngvet.h>

__global__ void count_hits(const double* u, unsigned long long n, unsigned long long* hits)
{
    unsigned long long mine = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const double x = u[2 * i], y = u[2 * i + 1];
        mine += x * x + y * y < 1.0;
    }
    atomicAdd(hits, mine);
}

static int fail(const char* what)
{
    std::fprintf(stderr, "mcpi_cuda: %s: %s\n", what, rngvet_last_error());
    return 1;
}

int main(int argc, char** argv)
{
    const char* configuration = "ranmar48/1/single/increment/1802,9373;zero=smallest";
    unsigned long long points = 1ull << 24;
    int reps = 10;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--points") && i + 1 < argc)
            points = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = std::atoi(argv[++i]);
        else
            configuration = argv[i];
    }
    if (points < 1 || reps < 2) {
        std::fprintf(stderr, "mcpi_cuda: --points must be at least 1 and --reps at least 2\n");
        return 2;
    }
    rngvet_stream* s = nullptr;
    if (rngvet_open_with(&s, configuration, "cuda", RNGVET_DEVICE, 0) != RNGVET_OK)
        return fail("open");
    double* u = nullptr;
    unsigned long long* hits = nullptr;
    if (cudaMalloc(&u, 2 * points * sizeof(double)) != cudaSuccess
        || cudaMalloc(&hits, sizeof *hits) != cudaSuccess) {
        std::fprintf(stderr, "mcpi_cuda: cudaMalloc failed\n");
        return 1;
    }
    std::printf(
        "stream %s on %s, device interface\n", rngvet_stream_name(s), rngvet_stream_backend(s));
    double sum = 0;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float generate_ms = 0;
    for (int r = 0; r < reps; ++r) {
        cudaEventRecord(start);
        if (rngvet_u01_device(s, u, 2 * points) != RNGVET_OK) return fail("u01_device");
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        generate_ms += ms;
        cudaMemset(hits, 0, sizeof *hits);
        count_hits<<<1024, 256>>>(u, points, hits);
        unsigned long long h = 0;
        cudaMemcpy(&h, hits, sizeof h, cudaMemcpyDeviceToHost);
        sum += 4.0 * (double)h / (double)points;
    }
    const double pi = 3.14159265358979323846;
    const double mean = sum / reps;
    const double sd = 4.0 * std::sqrt(pi / 4 * (1 - pi / 4) / (double)points) / std::sqrt(reps);
    std::printf("pi ~ %.9f over %d x %llu points: error %+.3e = %+.2f sigma\n", mean, reps, points,
        mean - pi, (mean - pi) / sd);
    std::printf("device interface: %.3g doubles/s into device memory\n",
        2.0 * points * reps / (generate_ms / 1e3));
    cudaFree(u);
    cudaFree(hits);
    rngvet_close(s);
    return 0;
}
