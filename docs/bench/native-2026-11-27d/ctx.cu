// Times the phases of a CUDA process's start: context, device buffer, pinned buffer, first kernel.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(unsigned long long* p, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) p[i] = i; }
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  size_t words = (argc > 1 ? atol(argv[1]) : (1 << 25));
  double t0 = now();
  cudaFree(0); double t1 = now();
  unsigned long long* d; cudaMalloc(&d, words * 8); double t2 = now();
  unsigned long long* h; cudaMallocHost(&h, words * 8); double t3 = now();
  fill<<<(words + 255) / 256, 256>>>(d, words); cudaDeviceSynchronize(); double t4 = now();
  cudaMemcpy(h, d, words * 8, cudaMemcpyDeviceToHost); double t5 = now();
  printf("ctx %.3f malloc %.3f pinned %.3f kernel %.3f copy %.3f total %.3f err %s\n", t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0, cudaGetErrorString(cudaGetLastError()));
}
