// device_ahead.hpp on CUDA: device_ahead_counts.hpp's algorithm compiled by nvcc for Thrust's
// CUDA system, with device_cuda.cu's options (--fmad=false: StripD's 2^r U - (long) 2^r U rounded
// as on the host). Device memory or the device not to be had at the first scan, before a word
// was read, leaves the test to the bounded scan or its CPU path; any later failure is an error
// of the test (words were read, or are held in device memory to be given back).
#include "device_ahead.hpp"
#include "device_ahead_counts.hpp"
#include "device_calls.cuh"

#include <cuda_runtime.h>
#include <new>
#include <stdexcept>
#include <string>
#include <thrust/system_error.h>

namespace rngvet::native {

using device_calls::on_device;

namespace {

// Runs `work`, a failure an error of the test.
template <class Work> void checked(const Work& work)
{
    try {
        work();
    } catch (const std::bad_alloc& e) {
        cudaGetLastError();
        throw std::runtime_error(
            "sknuth_Gap on CUDA: memory short: " + device_calls::one_line(e.what()));
    } catch (const thrust::system_error& e) {
        cudaGetLastError();
        throw std::runtime_error("sknuth_Gap on CUDA: " + device_calls::one_line(e.what()));
    }
}

class CudaGapAhead : public DeviceGapAhead {
public:
    CudaGapAhead(Numbers& in, int r, double alpha, double beta, long t, long n)
        : in_(in)
        , scan_(in, r, alpha, beta, t, n, device_counts::chunk_words)
    {
    }
    bool scan(long reads, long need, GapAheadPart& part) override
    {
        if (first_) {
            first_ = false;
            return on_device(in_, "sknuth_Gap", [&]() -> std::optional<bool> {
                if (!scan_.scan(reads, need, part)) return std::nullopt;
                return true;
            }).value_or(false);
        }
        bool done = false;
        checked([&] { done = scan_.scan(reads, need, part); });
        if (!done)
            throw std::runtime_error("sknuth_Gap on CUDA: the stream stopped writing its numbers "
                                     "into device memory in the middle of the test");
        return true;
    }
    void give_back() override
    {
        checked([&] { scan_.give_back(); });
    }

private:
    Numbers& in_;
    device_ahead::GapAhead scan_;
    bool first_ = true;
};

} // namespace

std::unique_ptr<DeviceGapAhead> device_gap_ahead(
    Numbers& in, int r, double alpha, double beta, long t, long n)
{
    if (!in.fill_device(nullptr, 0) || !in.give_back(nullptr, 0)) return nullptr;
    return on_device(in, "sknuth_Gap", [&]() -> std::optional<std::unique_ptr<DeviceGapAhead>> {
        return std::make_unique<CudaGapAhead>(in, r, alpha, beta, t, n);
    }).value_or(nullptr);
}

} // namespace rngvet::native
