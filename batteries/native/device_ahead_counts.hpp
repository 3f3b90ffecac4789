// sknuth_Gap's scan with reading ahead (device_ahead.hpp), written once with Thrust for whichever
// device system it is compiled with: CUDA in device_ahead_cuda.cu (nvcc), the host's OpenMP in
// tests/test_native_device_ahead.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// device_counts.hpp's GapScan reads blocks no longer than the test is sure to consume (a number
// per gap still to complete): with a visit probability p = beta - alpha each such block completes
// about p of the remaining gaps, so the blocks shrink geometrically, thousands of device round
// trips per replication. Here a block is as long as the remaining gaps are expected to need
// (need / p, 2 % more, at most max_words), and the stop is found on the device: the visits'
// positions (integers), then the first gap of length n or more among the first `need` (a find),
// then what TestU01's test consumes up to its stop. The words after it stay in device memory for
// the next scan (the next replication) and are given back to the stream at the end of the test,
// so that the numbers consumed, and those every later test reads, are TestU01's.
//
// Only integers come back (positions, counts): gap.cpp joins them with its CPU path's code.
#pragma once

#include "device_ahead.hpp"
#include "device_counts.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <thrust/find.h>
#include <vector>

namespace rngvet::native::device_ahead {

using device_counts::Cell;
using device_counts::Index;
using device_counts::Word;

// Whether gap i of a scan (the numbers outside before visit i; the first one continues the
// `reads` numbers read before the scan) is n or longer: TestU01's test stops there, "one gap of
// length > n" (gap.cpp).
struct LongGap {
    const Index* at;
    Index reads;
    Index n;

    RNGVET_HD bool operator()(Index i) const
    {
        const Index len = i == 0 ? reads + at[0] : at[i] - at[i - 1] - 1;
        return len >= n;
    }
};

class GapAhead {
public:
    GapAhead(Numbers& in, int r, double alpha, double beta, long t, long n, std::size_t max_words)
        : in_(in)
        , inside_{ device_counts::strip_d_for(in, r), alpha, beta }
        , p_(beta - alpha)
        , t_(t)
        , n_(n)
        , words_(max_words)
        , at_(max_words)
        , lengths_(max_words)
        , distinct_(max_words)
        , counts_(max_words)
    {
    }

    // DeviceGapAhead::scan.
    bool scan(long reads, long need, GapAheadPart& part)
    {
        if (begin_ == end_) {
            // At least what the test is sure to consume (a number per gap still to complete, and
            // the current gap at most n + 1 numbers in all), else what the gaps are expected to
            // need.
            const long bound = std::min(need, n_ + 1 - reads);
            const double expected = static_cast<double>(need) / p_ * 1.02 + 64.0;
            const double most = static_cast<double>(words_.size());
            const std::size_t size = static_cast<std::size_t>(
                std::max(static_cast<double>(bound), std::min(expected, most)));
            if (!device_counts::fill(in_, words_, std::min(size, words_.size()), first_fill_))
                return false;
            first_fill_ = false;
            begin_ = 0;
            end_ = std::min(size, words_.size());
        }
        const std::size_t w = end_ - begin_;
        const thrust::counting_iterator<Index> index(0);
        const auto found = thrust::copy_if(index, index + static_cast<std::ptrdiff_t>(w),
            words_.begin() + static_cast<std::ptrdiff_t>(begin_), at_.begin(), inside_);
        const long v = static_cast<long>(found - at_.begin());
        const long k = std::min(v, need); // the gaps that end in the scan and count
        const Index* at = thrust::raw_pointer_cast(at_.data());
        const long longer = k == 0
            ? k
            : static_cast<long>(
                thrust::find_if(index, index + k,
                    LongGap{ at, static_cast<Index>(reads), static_cast<Index>(n_) })
                - index);
        auto position = [&](long i) { return static_cast<long>(static_cast<Index>(at_[i])); };
        // The words consumed (size) and the visits among them (visits).
        long size = static_cast<long>(w), visits = v;
        if (longer < k) {
            // Gap `longer` is n or longer. The first gap of the scan: its (n+1)-th number ends
            // the test (gap.cpp sees it so). A later one: the scan stops at its n-th number, and
            // the next scan sees the gap as its first.
            if (longer == 0) {
                size = n_ + 1 - reads;
                visits = position(0) < size ? 1 : 0;
            } else {
                size = position(longer - 1) + 1 + n_;
                visits = longer;
            }
        } else if (k == need) {
            size = position(need - 1) + 1; // the last gap's visit ends the replication
            visits = need;
        } else {
            // The gap open at the end of the scan: n + 1 numbers outside end the test, as above.
            const long open = v == 0 ? reads + size : size - 1 - position(v - 1);
            if (open >= n_ + 1) size = v == 0 ? n_ + 1 - reads : position(v - 1) + 1 + n_;
        }
        std::fill(part.counts.begin(), part.counts.end(), 0);
        part.visits = visits;
        part.first = visits > 0 ? position(0) : -1;
        part.trailing = visits > 0 ? size - 1 - position(visits - 1) : size;
        if (visits >= 2) histogram(visits - 1, part.counts);
        begin_ += static_cast<std::size_t>(size);
        return true;
    }

    // DeviceGapAhead::give_back.
    void give_back()
    {
        if (begin_ == end_) return;
        std::vector<Word> rest(end_ - begin_);
        thrust::copy(words_.begin() + static_cast<std::ptrdiff_t>(begin_),
            words_.begin() + static_cast<std::ptrdiff_t>(end_), rest.begin());
        begin_ = end_;
        if (!in_.give_back(rest.data(), rest.size()))
            throw std::runtime_error("sknuth_Gap: the stream did not take back the "
                + std::to_string(rest.size()) + " numbers read ahead");
    }

private:
    // counts[len] += the gaps between the first gaps + 1 visits, by length capped at t.
    void histogram(long gaps, std::vector<long>& counts)
    {
        device_counts::add_gap_lengths(at_, static_cast<std::ptrdiff_t>(gaps),
            static_cast<Index>(t_), lengths_, distinct_, counts_, counts);
    }

    Numbers& in_;
    device_counts::GapInside inside_;
    double p_;
    long t_, n_;
    bool first_fill_ = true;
    std::size_t begin_ = 0, end_ = 0; // the words in device memory not yet consumed
    thrust::device_vector<Word> words_;
    thrust::device_vector<Index> at_;
    thrust::device_vector<Cell> lengths_, distinct_;
    thrust::device_vector<Index> counts_;
};

} // namespace rngvet::native::device_ahead
