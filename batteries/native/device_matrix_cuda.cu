// device_matrix.hpp on CUDA: device_matrix_counts.hpp's algorithms compiled by nvcc for Thrust's
// CUDA system, with device_cuda.cu's options and its rules: device memory is taken on the calling
// thread's current device, the stream's own; where that memory or the device is not to be had
// before a word was read, the test runs its CPU path; once words were read, a failure is an
// error.
#include "device_calls.cuh"
#include "device_matrix.hpp"
#include "device_matrix_counts.hpp"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace rngvet::native {

using device_calls::on_device;

std::optional<std::vector<long>> device_matrix_rank_counts(
    Numbers& in, long N, long n, int r, int s, int l, int k)
{
    return on_device(in, "smarsa_MatrixRank",
        [&] { return device_counts::matrix_rank_counts(in, N, n, r, s, l, k); });
}

namespace {

class CudaCouponScan : public DeviceCouponScan {
public:
    CudaCouponScan(Numbers& in, int r, int d)
        : in_(in)
        , scan_(in, r, d, device_counts::chunk_words)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, long& reads, std::uint64_t& seen, int& distinct,
        std::vector<long>& by_class) override
    {
        return on_device(in_, "sknuth_CouponCollector", [&]() -> std::optional<bool> {
            if (!scan_.scan(size, reads, seen, distinct, by_class)) return std::nullopt;
            return true;
        }).value_or(false);
    }

private:
    Numbers& in_;
    device_counts::CouponScan scan_;
};

} // namespace

std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers& in, int r, int d)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return on_device(in, "sknuth_CouponCollector",
        [&]() -> std::optional<std::unique_ptr<DeviceCouponScan>> {
            return std::make_unique<CudaCouponScan>(in, r, d);
        })
        .value_or(nullptr);
}

} // namespace rngvet::native
