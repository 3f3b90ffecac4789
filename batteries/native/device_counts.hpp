// The integer work of smarsa_BirthdaySpacings and smarsa_CollisionOver written once with Thrust,
// for whichever device system it is compiled with: CUDA in device_cuda.cu (nvcc), the host's
// OpenMP in tests/test_native_device.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words are written into the system's memory by Numbers::fill_device (on CUDA: generated on
// the device, never copied to the host); cells, sorts and counts are computed there and only the
// per-replication counts come back. They are integers, so any exact sort gives the host's counts;
// the p-values are then computed from them on the host by the families' own code
// (birthday_spacings.cpp, collision.cpp), the same code as on the CPU path.
//
// The cells: unif01_StripL(r, d) of each word, (long) (d * (2^r U - (long) 2^r U)) with
// U = word * 2^-bits, operation for operation as Numbers::strip_l. Compiled by nvcc this needs
// --fmad=false (device_cuda.cu's flags): by default nvcc contracts a product and an addition
// that uses it into one fused multiply-add, rounded once, where the host rounds each operation;
// with --fmad=false every operation here is rounded as on the host, whatever the expression.
//
// Only Thrust interfaces found in both Debian 12's Thrust 1.17 and CUDA 13's CCCL are used.
#pragma once

#include "birthday_spacings.hpp"
#include "source.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <vector>

#if defined(__CUDACC__)
#define RNGVET_DEVICE_FN __host__ __device__
#else
#define RNGVET_DEVICE_FN
#endif

namespace rngvet::native::device_counts {

using Word = std::uint64_t;
using Cell = std::uint64_t;
using Index = std::uint64_t;

// Words written into device memory at a time (256 MiB) by default: a replication's words arrive
// in chunks of whole cells, each converted before the next is written.
//
// Device memory per test, besides the sort's scratch (about one more array of the sorted keys):
// BirthdaySpacings, the words of a chunk and two arrays of n cells (BigCrush: n up to 3 x 10^7,
// t up to 16: 256 MiB + 480 MB); CollisionOver, the words of a chunk, n + t - 1 one-dimensional
// cells of 4 bytes and n tuples of 8 (BigCrush: n = 2 x 10^7, t up to 21: 160 + 80 + 160 MB).
constexpr std::size_t chunk_words = std::size_t(1) << 25;

// unif01_StripL(gen, r, d) of one word, as Numbers::strip_l.
struct StripL {
    double scale; // 2^-bits
    double two_r; // 2^r
    double dd; // d
    int r;

    RNGVET_DEVICE_FN std::int64_t operator()(Word w) const
    {
        const double u = static_cast<double>(w) * scale;
        if (r == 0) return static_cast<std::int64_t>(dd * u);
        const double v = two_r * u;
        return static_cast<std::int64_t>(
            dd * (v - static_cast<double>(static_cast<std::int64_t>(v))));
    }
};

// unif01_StripD(gen, r) of one word, as Numbers::strip_d: 2^r U - (long) 2^r U.
struct StripD {
    double scale; // 2^-bits
    double two_r; // 2^r
    int r;

    RNGVET_DEVICE_FN double operator()(Word w) const
    {
        const double u = static_cast<double>(w) * scale;
        if (r == 0) return u;
        const double v = two_r * u;
        return v - static_cast<double>(static_cast<std::int64_t>(v));
    }
};

inline StripD strip_d_for(const Numbers& in, int r)
{
    return StripD{ 1.0 / static_cast<double>(std::uint64_t(1) << in.bits()), Numbers::two_exp(r),
        r };
}

inline StripL strip_for(const Numbers& in, int r, long d)
{
    return StripL{ 1.0 / static_cast<double>(std::uint64_t(1) << in.bits()), Numbers::two_exp(r),
        static_cast<double>(d), r };
}

// ---------------------------------------------------------------------------------------------
// smarsa_BirthdaySpacings.

// Cell i of a chunk from its words i t .. i t + t - 1: smultin_GenerCellSerial (Horner's rule in
// base d) or, with Order 2, smultin_GenerCellSerial2 (c += d^(j-1) StripL); modulo 2^64.
struct BirthdayCell {
    const Word* words;
    StripL strip;
    Index t;
    Cell d;
    bool order2;

    RNGVET_DEVICE_FN Cell operator()(Index i) const
    {
        const Word* w = words + i * t;
        Cell c = static_cast<Cell>(strip(w[0]));
        if (order2) {
            Cell dr = d;
            for (Index j = 1; j < t; ++j) {
                c += dr * static_cast<Cell>(strip(w[j]));
                dr *= d;
            }
        } else {
            for (Index j = 1; j < t; ++j)
                c = c * d + static_cast<Cell>(strip(w[j]));
        }
        return c;
    }
};

// The spacings of the sorted dates a[0, n) (gofs_DiffULL's), the last one kc - a[n-1] + a[0].
struct Spacing {
    const Cell* a;
    Index n;
    Cell kc;

    RNGVET_DEVICE_FN Cell operator()(Index i) const
    {
        return i + 1 < n ? a[i + 1] - a[i] : kc - a[n - 1] + a[0];
    }
};

// 1 where s[i] equals s[i - 1] (i >= 1).
struct EqualToPrevious {
    const Cell* s;

    RNGVET_DEVICE_FN Index operator()(Index i) const { return s[i] == s[i - 1] ? 1 : 0; }
};

// 1 where s[i] differs from s[i - 1], and for i = 0.
struct NewValue {
    const Cell* s;

    RNGVET_DEVICE_FN Index operator()(Index i) const { return i == 0 || s[i] != s[i - 1] ? 1 : 0; }
};

// kc of smarsa_BirthdaySpacings: (unsigned long long) (double) d, then t - 1 products modulo
// 2^64 (birthday_spacings.cpp computes it in the same order).
inline Cell birthday_kc(const BirthdaySpacingsParams& p)
{
    Cell kc = static_cast<Cell>(static_cast<double>(p.d));
    for (int j = 2; j <= p.t; ++j)
        kc *= static_cast<Cell>(p.d);
    return kc;
}

// Waits for the device's work before its buffers are written again by fill_device (which
// launches on a stream of its own). Nothing to wait for on the host systems.
inline void wait_for_device()
{
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    const cudaError_t rc = cudaDeviceSynchronize();
    if (rc != cudaSuccess)
        throw std::runtime_error(std::string("native test on CUDA: ") + cudaGetErrorString(rc));
#endif
}

// Fills words[0, count) with the next count words of `in`. The first fill of a test may fail
// (`first`: the test then runs on the host, nothing having been read); a later one is an error.
inline bool fill(Numbers& in, thrust::device_vector<Word>& words, std::size_t count, bool first)
{
    wait_for_device();
    if (in.fill_device(thrust::raw_pointer_cast(words.data()), count)) return true;
    if (first) return false;
    throw std::runtime_error("native test: the stream stopped writing its numbers into device "
                             "memory in the middle of the test");
}

// The collision counts Y of smarsa_BirthdaySpacings's N replications, computed in the device
// system's memory from words written there by in.fill_device; nullopt, with nothing read, where
// `in` cannot write its words there. The parameters are those of a test TestU01 does not decline
// (d >= 2, d^t <= smarsa_Maxk). At most max_words words are in device memory at a time (whole
// cells, at least one). Throws what the system throws (std::bad_alloc when its memory
// is short) and std::runtime_error when a fill fails after the first.
inline std::optional<std::vector<long>> birthday_spacings_counts(
    Numbers& in, const BirthdaySpacingsParams& p, std::size_t max_words = chunk_words)
{
    // Can the source write device memory at all? (Nothing is read; no device memory is taken
    // for a stream that runs on the host.)
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(p.n);
    const std::size_t t = static_cast<std::size_t>(p.t);
    const std::size_t chunk_cells = std::min(n, std::max<std::size_t>(1, max_words / t));
    const Cell kc = birthday_kc(p);

    thrust::device_vector<Word> words(chunk_cells * t);
    thrust::device_vector<Cell> dates(n);
    thrust::device_vector<Cell> spacings(n);
    const BirthdayCell build{ thrust::raw_pointer_cast(words.data()), strip_for(in, p.r, p.d),
        static_cast<Index>(t), static_cast<Cell>(p.d), p.order == 2 };
    const thrust::counting_iterator<Index> index(0);

    std::vector<long> y(static_cast<std::size_t>(p.N));
    for (std::size_t rep = 0; rep < y.size(); ++rep) {
        for (std::size_t done = 0; done < n;) {
            const std::size_t m = std::min(chunk_cells, n - done);
            if (!fill(in, words, m * t, rep == 0 && done == 0)) return std::nullopt;
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m),
                dates.begin() + static_cast<std::ptrdiff_t>(done), build);
            done += m;
        }
        thrust::sort(dates.begin(), dates.end());
        thrust::transform(index, index + static_cast<std::ptrdiff_t>(n), spacings.begin(),
            Spacing{ thrust::raw_pointer_cast(dates.data()), static_cast<Index>(n), kc });
        thrust::sort(spacings.begin(), spacings.end());
        const Index equal
            = thrust::transform_reduce(index + 1, index + static_cast<std::ptrdiff_t>(n),
                EqualToPrevious{ thrust::raw_pointer_cast(spacings.data()) }, Index(0),
                thrust::plus<Index>());
        y[rep] = static_cast<long>(equal);
    }
    return y;
}

// ---------------------------------------------------------------------------------------------
// smarsa_CollisionOver.

// One number's cell of one dimension, StripL(r, d) < d <= 2^32.
struct StripCell {
    StripL strip;

    RNGVET_DEVICE_FN std::uint32_t operator()(Word w) const
    {
        return static_cast<std::uint32_t>(strip(w));
    }
};

// Tuple j of a replication: its numbers' cells e[j .. j + t - 1] in base d, the first the most
// significant (e holds the first t - 1 again after the last: the tuples are circular).
struct Tuple {
    const std::uint32_t* e;
    Index t;
    Cell d;

    RNGVET_DEVICE_FN Cell operator()(Index j) const
    {
        Cell key = 0;
        for (Index i = 0; i < t; ++i)
            key = key * d + e[j + i];
        return key;
    }
};

// The number of distinct cells among the n overlapping t-tuples of each of smarsa_CollisionOver's
// N replications (n numbers each); the collisions are n minus it. As birthday_spacings_counts
// for the rest; the parameters are those collision_over accepts (t <= n, d <= 2^32, d^t <= 2^63).
inline std::optional<std::vector<std::uint64_t>> collision_over_counts(
    Numbers& in, long N, long n_long, int r, long d, int t_int, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t t = static_cast<std::size_t>(t_int);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words));

    thrust::device_vector<Word> words(chunk);
    thrust::device_vector<std::uint32_t> e(n + t - 1);
    thrust::device_vector<Cell> keys(n);
    const StripCell cell{ strip_for(in, r, d) };
    const Tuple tuple{ thrust::raw_pointer_cast(e.data()), static_cast<Index>(t),
        static_cast<Cell>(d) };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::uint64_t> distinct(static_cast<std::size_t>(N));
    for (std::size_t rep = 0; rep < distinct.size(); ++rep) {
        for (std::size_t done = 0; done < n;) {
            const std::size_t m = std::min(chunk, n - done);
            if (!fill(in, words, m, rep == 0 && done == 0)) return std::nullopt;
            thrust::transform(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(m),
                e.begin() + static_cast<std::ptrdiff_t>(done), cell);
            done += m;
        }
        thrust::copy(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(t - 1),
            e.begin() + static_cast<std::ptrdiff_t>(n));
        thrust::transform(index, index + static_cast<std::ptrdiff_t>(n), keys.begin(), tuple);
        thrust::sort(keys.begin(), keys.end());
        distinct[rep] = thrust::transform_reduce(index, index + static_cast<std::ptrdiff_t>(n),
            NewValue{ thrust::raw_pointer_cast(keys.data()) }, Index(0), thrust::plus<Index>());
    }
    return distinct;
}

// ---------------------------------------------------------------------------------------------
// Tests that class groups of consecutive words: svaria_WeightDistrib, sknuth_SimpPoker,
// sknuth_Permutation and sknuth_CollisionPermut. Each reads N replications of n groups of
// `group` words, and a group's class (its cell) is an integer computed from its words alone, so
// the per-replication counts of the cells are integers that any exact sort gives as the host
// gives them; the families compute their statistics from them with their CPU path's code.

// The cell of group i of a chunk, from its words w[i group .. i group + group - 1].
template <class CellOf> struct GroupCell {
    const Word* words;
    Index group;
    CellOf cell_of;

    RNGVET_DEVICE_FN Cell operator()(Index i) const { return cell_of(words + i * group); }
};

// Adds counts[i] to table[cells[i]] (the cells of one chunk, distinct after reduce_by_key).
struct AddCount {
    const Cell* cells;
    const Index* counts;
    Index* table;

    RNGVET_DEVICE_FN void operator()(Index i) const { table[cells[i]] += counts[i]; }
};

// The counts of the cells 0 .. cells - 1 among the n groups of each of N replications (N rows of
// `cells` counts, in stream order), cell_of(group's words) < cells. As birthday_spacings_counts
// for the rest (nullopt with nothing read where `in` cannot write device memory).
template <class CellOf>
std::optional<std::vector<std::vector<std::uint64_t>>> group_histograms(Numbers& in, long N,
    long n_long, long group_long, std::uint64_t cells, const CellOf& cell_of,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t group = static_cast<std::size_t>(group_long);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words / group));

    thrust::device_vector<Word> words(chunk * group);
    thrust::device_vector<Cell> keys(chunk), distinct(chunk);
    thrust::device_vector<Index> counts(chunk), table(static_cast<std::size_t>(cells));
    const GroupCell<CellOf> build{ thrust::raw_pointer_cast(words.data()),
        static_cast<Index>(group), cell_of };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::vector<std::uint64_t>> rows(static_cast<std::size_t>(N));
    for (std::size_t rep = 0; rep < rows.size(); ++rep) {
        thrust::fill(table.begin(), table.end(), Index(0));
        for (std::size_t done = 0; done < n;) {
            const std::size_t m = std::min(chunk, n - done);
            if (!fill(in, words, m * group, rep == 0 && done == 0)) return std::nullopt;
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m), keys.begin(), build);
            thrust::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m));
            const auto ends
                = thrust::reduce_by_key(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m),
                    thrust::constant_iterator<Index>(1), distinct.begin(), counts.begin());
            thrust::for_each(index, index + (ends.first - distinct.begin()),
                AddCount{ thrust::raw_pointer_cast(distinct.data()),
                    thrust::raw_pointer_cast(counts.data()),
                    thrust::raw_pointer_cast(table.data()) });
            done += m;
        }
        rows[rep].resize(static_cast<std::size_t>(cells));
        thrust::copy(table.begin(), table.end(), rows[rep].begin());
    }
    return rows;
}

// The number of distinct cells among the n groups of each of N replications; otherwise as
// group_histograms (all n cells of a replication are held in device memory).
template <class CellOf>
std::optional<std::vector<std::uint64_t>> group_distinct(Numbers& in, long N, long n_long,
    long group_long, const CellOf& cell_of, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t group = static_cast<std::size_t>(group_long);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words / group));

    thrust::device_vector<Word> words(chunk * group);
    thrust::device_vector<Cell> keys(n);
    const GroupCell<CellOf> build{ thrust::raw_pointer_cast(words.data()),
        static_cast<Index>(group), cell_of };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::uint64_t> distinct(static_cast<std::size_t>(N));
    for (std::size_t rep = 0; rep < distinct.size(); ++rep) {
        for (std::size_t done = 0; done < n;) {
            const std::size_t m = std::min(chunk, n - done);
            if (!fill(in, words, m * group, rep == 0 && done == 0)) return std::nullopt;
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m),
                keys.begin() + static_cast<std::ptrdiff_t>(done), build);
            done += m;
        }
        thrust::sort(keys.begin(), keys.end());
        distinct[rep] = thrust::transform_reduce(index, index + static_cast<std::ptrdiff_t>(n),
            NewValue{ thrust::raw_pointer_cast(keys.data()) }, Index(0), thrust::plus<Index>());
    }
    return distinct;
}

// t! (t <= 20: below 2^63).
inline std::uint64_t factorial(int t)
{
    std::uint64_t k = 1;
    for (int i = 2; i <= t; ++i)
        k *= static_cast<std::uint64_t>(i);
    return k;
}

// svaria_WeightDistrib's W of k words: how many of their StripD values U have alpha <= U < beta.
struct WeightCell {
    StripD strip;
    double alpha, beta;
    Index k;

    RNGVET_DEVICE_FN Cell operator()(const Word* w) const
    {
        Cell W = 0;
        for (Index j = 0; j < k; ++j) {
            const double U = strip(w[j]);
            if (U >= alpha && U < beta) ++W;
        }
        return W;
    }
};

// The bits set in x (a portable popcount for host and device compilers alike).
RNGVET_DEVICE_FN inline Cell bits_set(std::uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<Cell>((x * 0x0101010101010101ull) >> 56);
}

// sknuth_SimpPoker's class of a hand of k words: the number of distinct StripL(r, d) values among
// them (d <= 127; a value is at most d, d itself where U rounds to 1).
struct PokerCell {
    StripL strip;
    Index k;

    RNGVET_DEVICE_FN Cell operator()(const Word* w) const
    {
        std::uint64_t seen[2] = { 0, 0 };
        for (Index j = 0; j < k; ++j) {
            const std::uint64_t v = static_cast<std::uint64_t>(strip(w[j]));
            seen[v >> 6] |= std::uint64_t(1) << (v & 63);
        }
        return bits_set(seen[0]) + bits_set(seen[1]);
    }
};

// smultin_GenerCellPermut of t words (t <= 20) through their StripD values: for i = t down to 2,
// the position s of the first greatest of u[1..i] is the digit s - 1 of weight i, and u[i] takes
// u[s]'s place (sknuth_order.cpp's cell_of, on the doubles themselves).
struct PermutationCell {
    StripD strip;
    int t;

    RNGVET_DEVICE_FN Cell operator()(const Word* w) const
    {
        double u[21];
        for (int j = 1; j <= t; ++j)
            u[j] = strip(w[j - 1]);
        Cell cell = 0;
        for (int i = t; i >= 2; --i) {
            int s = 1;
            double best = u[1];
            for (int j = 2; j <= i; ++j) {
                if (u[j] > best) {
                    s = j;
                    best = u[j];
                }
            }
            cell = cell * static_cast<Cell>(i) + static_cast<Cell>(s - 1);
            u[s] = u[i];
        }
        return cell;
    }
};

} // namespace rngvet::native::device_counts
