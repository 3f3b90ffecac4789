// The walks of swalk_RandomWalk1 and the cell counts of smarsa_SerialOver computed with Thrust,
// for whichever device system it is compiled with: CUDA in device_walks_cuda.cu (nvcc), the
// host's OpenMP in tests/test_native_device_walks.cpp (g++ with
// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words are written into the system's memory by Numbers::fill_device (device_counts.hpp's
// fill) and never leave it; what comes back are integer counts, incremented atomically, so they
// are the CPU path's whatever the order of the work. The families compute their chi-squares and
// p-values from them with their own code (random_walk.cpp, smarsa_more.cpp).
//
// RandomWalk1 (TestU01 1.2.3, swalk.c's Steps, for one walk length L): a walk of L steps reads
// L / s numbers of which it keeps unif01_StripB(r, s) and, when s does not divide L, one more of
// which it keeps StripB(r, L mod s); each bit, most significant first, is a step +1 (bit 1) or
// -1. One thread walks one walk with Steps' own rules: S the position, M its maximum, R the
// times S = 0, and at the odd times (the parity of s j - i for bit i of the j-th number) J the
// times S > 0 and C the times S and S two steps before have opposite signs. (random_walk.cpp
// counts C at zeros, 8 steps at a time: the two are held equal by
// tests/test_native_device_walks.cpp.) Each walk adds one to five histograms; the histograms are
// kept in several copies, a walk's copy chosen by its number, so that neighbouring threads
// rarely add to the same counter, and the copies are added on the host.
//
// SerialOver (smultin.c's OverDenseGenere): the n StripL(r, d) values of a replication, a chunk
// at a time, the last t - 1 values of a chunk kept before the next; one thread per t-tuple ending
// in the chunk adds one to its cell (Horner's rule in base d). The last t - 1 tuples, which wrap
// around to the first values, are counted on the host.
#pragma once

#include "device_counts.hpp"
#include "device_matrix_counts.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>
#include <vector>

namespace rngvet::native::device_counts {

// One added to a counter shared by the system's threads.
RNGVET_HD void count_one(std::uint32_t* p)
{
#if defined(__CUDA_ARCH__)
    atomicAdd(reinterpret_cast<unsigned int*>(p), 1u);
#else
    __atomic_fetch_add(p, std::uint32_t(1), __ATOMIC_RELAXED);
#endif
}

RNGVET_HD void count_one(std::uint64_t* p)
{
#if defined(__CUDA_ARCH__)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), 1ull);
#else
    __atomic_fetch_add(p, std::uint64_t(1), __ATOMIC_RELAXED);
#endif
}

// ---------------------------------------------------------------------------------------------
// swalk_RandomWalk1.

// The statistics of a walk, in random_walk.hpp's order (H, M, J, R, C).
constexpr Index walk_statistics_count = 5;

// Walk i of a fill (the test's walk first + i) from its words w[i words ..].
struct Walk {
    StripB strip;
    int s;
    Index lds; // numbers of s bits
    int lms; // bits of the last number (0: none)
    Index words; // numbers per walk
    long L;
    const Word* w;
    Index* hist; // copies of the five histograms, each 5 (L + 1) counters
    Index copies;
    Index first;

    RNGVET_HD void operator()(Index i) const
    {
        const Word* x = w + i * words;
        long S = 0, S_2 = 0, M = 0, R = 0, J = 0, C = 0;
        // Steps(bits) of the j-th number (from 1): its bit b (bits - 1 down to 0) at an odd time
        // where bits j - b is odd (for the last number, bits = L mod s: when L is even, as
        // TestU01 requires, the parity of the time s (j - 1) + bits - b all the same).
        auto steps = [&](Word Z, Index j, int bits) {
            for (int b = bits - 1; b >= 0; --b) {
                S += (Z >> b) & 1u ? 1 : -1;
                if (S > M) M = S;
                if (S == 0) ++R;
                if ((static_cast<long>(bits) * static_cast<long>(j) - b) & 1) {
                    if (S > 0) ++J;
                    if (S * S_2 < 0) ++C;
                    S_2 = S;
                }
            }
        };
        for (Index j = 1; j <= lds; ++j)
            steps(strip(x[j - 1], s), j, s);
        if (lms > 0) steps(strip(x[lds], lms), lds + 1, lms);
        const Index stride = static_cast<Index>(L + 1);
        Index* h = hist + ((first + i) % copies) * walk_statistics_count * stride;
        count_one(h + static_cast<Index>((L + S) / 2));
        count_one(h + stride + static_cast<Index>(M));
        count_one(h + 2 * stride + static_cast<Index>(2 * J));
        count_one(h + 3 * stride + static_cast<Index>(R));
        count_one(h + 4 * stride + static_cast<Index>(C));
    }
};

// The histograms of H, M, J, R and C of the N replications of n walks of length L
// (device_walks.hpp's device_random_walk_counts; L even, 1 <= s <= 32, r + s <= 32); nullopt, with
// nothing read, where `in` cannot write device memory. At most max_words words are in device
// memory at a time (whole walks, at least one). Reads exactly N n words(L, s) numbers. As
// birthday_spacings_counts for the rest. Device memory: the words of a fill (256 MiB) and the
// histograms' copies (at most about 8 MiB).
inline std::optional<std::vector<long>> random_walk_counts(
    Numbers& in, long N, long n_long, int r, int s, long L, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const Index lds = static_cast<Index>(L / s);
    const int lms = static_cast<int>(L % s);
    const Index words = lds + (lms > 0 ? 1 : 0);
    const Index n = static_cast<Index>(n_long);
    const Index batch
        = std::min<Index>(n, std::max<Index>(1, static_cast<Index>(max_words) / words));
    const Index per_copy = walk_statistics_count * static_cast<Index>(L + 1);
    const Index copies = std::max<Index>(1, std::min<Index>(32, (Index(1) << 20) / per_copy));

    thrust::device_vector<Word> raw(batch * words);
    thrust::device_vector<Index> hist(copies * per_copy);
    std::vector<Index> host(copies * per_copy);
    const thrust::counting_iterator<Index> index(0);
    const StripB strip{ in.bits(), r };

    std::vector<long> out(static_cast<std::size_t>(N) * per_copy, 0L);
    for (long rep = 0; rep < N; ++rep) {
        thrust::fill(hist.begin(), hist.end(), Index(0));
        for (Index done = 0; done < n;) {
            const Index m = std::min(batch, n - done);
            if (!fill(in, raw, static_cast<std::size_t>(m * words), rep == 0 && done == 0))
                return std::nullopt;
            thrust::for_each(index, index + static_cast<std::ptrdiff_t>(m),
                Walk{ strip, s, lds, lms, words, L, thrust::raw_pointer_cast(raw.data()),
                    thrust::raw_pointer_cast(hist.data()), copies, done });
            done += m;
        }
        thrust::copy(hist.begin(), hist.end(), host.begin());
        long* o = out.data() + static_cast<std::size_t>(rep) * per_copy;
        for (Index c = 0; c < copies; ++c)
            for (Index x = 0; x < per_copy; ++x)
                o[x] += static_cast<long>(host[c * per_copy + x]);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// smarsa_SerialOver.

// StripL(r, d) of a word as a digit; d itself for a value outside [0, d) (a word of more than 53
// bits whose U rounds to 1), which the caller refuses.
struct Digit {
    StripL strip;
    std::int64_t d;

    RNGVET_HD std::uint32_t operator()(Word w) const
    {
        const std::int64_t x = strip(w);
        return static_cast<std::uint32_t>(x < 0 || x >= d ? d : x);
    }
};

struct DigitOutside {
    std::uint32_t d;

    RNGVET_HD bool operator()(std::uint32_t x) const { return x >= d; }
};

// Adds the t-tuple ending at digit lo + i to its cell.
template <class C> struct CountTuple {
    const std::uint32_t* e;
    Index lo;
    int t;
    Cell d;
    C* table;

    RNGVET_HD void operator()(Index i) const
    {
        const Index end = lo + i;
        Cell key = 0;
        for (Index j = end + 1 - static_cast<Index>(t); j <= end; ++j)
            key = key * d + e[j];
        count_one(table + key);
    }
};

// device_serial_over_counts with counters of type C (wide enough for n).
template <class C>
std::optional<std::vector<std::uint64_t>> serial_over_counts_as(
    Numbers& in, long n_long, int r, long d, int t, std::size_t max_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const Index n = static_cast<Index>(n_long);
    const Cell dd = static_cast<Cell>(d);
    Cell k = 1;
    for (int i = 0; i < t; ++i)
        k *= dd;
    const Index carry_max = static_cast<Index>(t - 1);
    const Index size = std::min<Index>(n, std::max<Index>(1, static_cast<Index>(max_words)));

    thrust::device_vector<Word> raw(size);
    thrust::device_vector<std::uint32_t> digits(carry_max + size);
    thrust::device_vector<C> table(k, C(0));
    const thrust::counting_iterator<Index> index(0);
    const Digit digit{ strip_for(in, r, d), static_cast<std::int64_t>(d) };
    std::vector<std::uint32_t> first; // the first t - 1 digits (OverDenseGenere's Premier)
    std::vector<std::uint32_t> carry;
    Index c = 0; // digits[0, c): the last t - 1 (or fewer, at the start) digits before the chunk
    for (Index done = 0; done < n;) {
        const Index m = std::min(size, n - done);
        if (!fill(in, raw, static_cast<std::size_t>(m), done == 0)) return std::nullopt;
        const auto at = [&](Index i) { return digits.begin() + static_cast<std::ptrdiff_t>(i); };
        thrust::transform(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(m), at(c), digit);
        if (thrust::count_if(at(c), at(c + m), DigitOutside{ static_cast<std::uint32_t>(d) }) > 0)
            throw std::runtime_error("serial_over: StripL gave a value outside [0, d)");
        if (first.size() < carry_max) {
            const Index more = std::min<Index>(m, carry_max - first.size());
            const std::size_t had = first.size();
            first.resize(had + more);
            thrust::copy(at(c), at(c + more), first.begin() + static_cast<std::ptrdiff_t>(had));
        }
        // Tuples end at digits [t - 1, c + m).
        const Index lo = carry_max, hi = c + m;
        if (hi > lo)
            thrust::for_each(index, index + static_cast<std::ptrdiff_t>(hi - lo),
                CountTuple<C>{ thrust::raw_pointer_cast(digits.data()), lo, t, dd,
                    thrust::raw_pointer_cast(table.data()) });
        // Keep the last t - 1 digits.
        const Index keep = std::min(carry_max, hi);
        carry.resize(keep);
        thrust::copy(at(hi - keep), at(hi), carry.begin());
        thrust::copy(carry.begin(), carry.end(), digits.begin());
        c = keep;
        done += m;
    }
    std::vector<C> narrow(k);
    thrust::copy(table.begin(), table.end(), narrow.begin());
    std::vector<std::uint64_t> count(narrow.begin(), narrow.end());
    // The last t - 1 tuples: the last t - 1 digits followed by the first t - 1.
    std::vector<std::uint32_t> wrap(carry);
    wrap.insert(wrap.end(), first.begin(), first.end());
    for (std::size_t end = carry_max; end < wrap.size(); ++end) {
        Cell key = 0;
        for (std::size_t i = end + 1 - static_cast<std::size_t>(t); i <= end; ++i)
            key = key * dd + wrap[i];
        ++count[key];
    }
    return count;
}

// smarsa_SerialOver's cell counts of one replication (device_walks.hpp's
// device_serial_over_counts; parameters as serial_over accepts them), counters of 4 bytes where
// n allows; nullopt, with nothing read, where `in` cannot write device memory. At most max_words
// words are in device memory at a time. Reads exactly n numbers. As birthday_spacings_counts for
// the rest. Device memory: a fill's words and digits (384 MiB) and the k counters (BigCrush's and
// Crush's rows: 2^24 cells, 64 MiB).
inline std::optional<std::vector<std::uint64_t>> serial_over_counts(
    Numbers& in, long n, int r, long d, int t, std::size_t max_words = chunk_words)
{
    if (static_cast<std::uint64_t>(n) <= 0xFFFFFFFFull)
        return serial_over_counts_as<std::uint32_t>(in, n, r, d, t, max_words);
    return serial_over_counts_as<std::uint64_t>(in, n, r, d, t, max_words);
}

} // namespace rngvet::native::device_counts
