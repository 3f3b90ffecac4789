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
#include "generators/portable.hpp" // RNGVET_HD
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

    RNGVET_HD std::int64_t operator()(Word w) const
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

    RNGVET_HD double operator()(Word w) const
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

    RNGVET_HD Cell operator()(Index i) const
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

    RNGVET_HD Cell operator()(Index i) const
    {
        return i + 1 < n ? a[i + 1] - a[i] : kc - a[n - 1] + a[0];
    }
};

// 1 where s[i] equals s[i - 1] (i >= 1).
struct EqualToPrevious {
    const Cell* s;

    RNGVET_HD Index operator()(Index i) const { return s[i] == s[i - 1] ? 1 : 0; }
};

// 1 where s[i] differs from s[i - 1], and for i = 0.
struct NewValue {
    const Cell* s;

    RNGVET_HD Index operator()(Index i) const { return i == 0 || s[i] != s[i - 1] ? 1 : 0; }
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

    RNGVET_HD std::uint32_t operator()(Word w) const
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

    RNGVET_HD Cell operator()(Index j) const
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

// What `of` makes of group i of a chunk (its cell, or its value), from its words
// w[i group .. i group + group - 1].
template <class Of> struct Group {
    const Word* words;
    Index group;
    Of of;

    RNGVET_HD auto operator()(Index i) const { return of(words + i * group); }
};

// Reads N replications of n groups of `group` words into `words`, a chunk of whole groups at a
// time (at most chunk_groups): chunk(replication, first group, groups) after each fill,
// done(replication) after a replication's last. False, with nothing read, where the first fill
// cannot write device memory; a later fill that cannot is an error (fill).
template <class Chunk, class Done>
bool for_group_chunks(Numbers& in, long N, std::size_t n, std::size_t group,
    std::size_t chunk_groups, thrust::device_vector<Word>& words, const Chunk& chunk,
    const Done& done)
{
    for (long rep = 0; rep < N; ++rep) {
        for (std::size_t first = 0; first < n;) {
            const std::size_t m = std::min(chunk_groups, n - first);
            if (!fill(in, words, m * group, rep == 0 && first == 0)) return false;
            chunk(rep, first, m);
            first += m;
        }
        done(rep);
    }
    return true;
}

// Adds counts[i] to table[cells[i]] (the cells of one chunk, distinct after reduce_by_key).
struct AddCount {
    const Cell* cells;
    const Index* counts;
    Index* table;

    RNGVET_HD void operator()(Index i) const { table[cells[i]] += counts[i]; }
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
    const Group<CellOf> build{ thrust::raw_pointer_cast(words.data()), static_cast<Index>(group),
        cell_of };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::vector<std::uint64_t>> rows(static_cast<std::size_t>(N));
    const bool read = for_group_chunks(
        in, N, n, group, chunk, words,
        [&](long, std::size_t first, std::size_t m) {
            if (first == 0) thrust::fill(table.begin(), table.end(), Index(0));
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m), keys.begin(), build);
            thrust::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m));
            const auto ends
                = thrust::reduce_by_key(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m),
                    thrust::constant_iterator<Index>(1), distinct.begin(), counts.begin());
            thrust::for_each(index, index + (ends.first - distinct.begin()),
                AddCount{ thrust::raw_pointer_cast(distinct.data()),
                    thrust::raw_pointer_cast(counts.data()),
                    thrust::raw_pointer_cast(table.data()) });
        },
        [&](long rep) {
            std::vector<std::uint64_t>& row = rows[static_cast<std::size_t>(rep)];
            row.resize(static_cast<std::size_t>(cells));
            thrust::copy(table.begin(), table.end(), row.begin());
        });
    if (!read) return std::nullopt;
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
    const Group<CellOf> build{ thrust::raw_pointer_cast(words.data()), static_cast<Index>(group),
        cell_of };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::uint64_t> distinct(static_cast<std::size_t>(N));
    const bool read = for_group_chunks(
        in, N, n, group, chunk, words,
        [&](long, std::size_t first, std::size_t m) {
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m),
                keys.begin() + static_cast<std::ptrdiff_t>(first), build);
        },
        [&](long rep) {
            thrust::sort(keys.begin(), keys.end());
            distinct[static_cast<std::size_t>(rep)] = thrust::transform_reduce(index,
                index + static_cast<std::ptrdiff_t>(n),
                NewValue{ thrust::raw_pointer_cast(keys.data()) }, Index(0), thrust::plus<Index>());
        });
    if (!read) return std::nullopt;
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

    RNGVET_HD Cell operator()(const Word* w) const
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
RNGVET_HD Cell bits_set(std::uint64_t x)
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

    RNGVET_HD Cell operator()(const Word* w) const
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

    RNGVET_HD Cell operator()(const Word* w) const
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

// ---------------------------------------------------------------------------------------------
// Tests that reduce each group of consecutive words to one double, computed from the group's
// StripD values with TestU01's operations in TestU01's order (so, on CUDA with --fmad=false,
// rounded as the host rounds them): sknuth_MaxOft's maxima and svaria_SampleProd's products.
// Only these values (8 bytes a group instead of 8 a word) go to the host, where the families
// continue with their CPU path's code.

// For each of N replications of n groups of `group` words, in stream order: the groups' values
// into a host array of n doubles, then done(replication, values). As group_histograms for the
// rest (nullopt, with nothing read and done never called, where `in` cannot write device
// memory).
template <class ValueOf, class Done>
bool group_values(Numbers& in, long N, long n_long, long group_long, const ValueOf& value_of,
    const Done& done, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t group = static_cast<std::size_t>(group_long);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words / group));

    thrust::device_vector<Word> words(chunk * group);
    thrust::device_vector<double> values(chunk);
    const Group<ValueOf> build{ thrust::raw_pointer_cast(words.data()), static_cast<Index>(group),
        value_of };
    const thrust::counting_iterator<Index> index(0);
    std::vector<double> host(n);
    return for_group_chunks(
        in, N, n, group, chunk, words,
        [&](long, std::size_t first, std::size_t m) {
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m), values.begin(), build);
            thrust::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(m),
                host.begin() + static_cast<std::ptrdiff_t>(first));
        },
        [&](long rep) { done(rep, host.data()); });
}

// sknuth_MaxOft's MaxU of t words: the first StripD value, replaced by any greater one.
struct MaxCell {
    StripD strip;
    int t;

    RNGVET_HD double operator()(const Word* w) const
    {
        double m = strip(w[0]);
        for (int j = 1; j < t; ++j) {
            const double x = strip(w[j]);
            if (x > m) m = x;
        }
        return m;
    }
};

// svaria_SampleProd's product of t words' StripD values, multiplied in order.
struct ProductCell {
    StripD strip;
    int t;

    RNGVET_HD double operator()(const Word* w) const
    {
        double p = strip(w[0]);
        for (int j = 1; j < t; ++j)
            p *= strip(w[j]);
        return p;
    }
};

// ---------------------------------------------------------------------------------------------
// sknuth_Gap, a block at a time: the visits of [alpha, beta) among the block's words and the
// lengths of the gaps between them, as gap.cpp's scan_gap_part gives them for one part; gap.cpp
// joins the blocks in stream order and bounds each block so that no word past the test's last
// is read.

// Whether a word's StripD value lies in [alpha, beta): !(U < alpha || U >= beta), as sknuth_Gap.
struct GapInside {
    StripD strip;
    double alpha, beta;

    RNGVET_HD bool operator()(Word w) const
    {
        const double u = strip(w);
        return !(u < alpha || u >= beta);
    }
};

// The length of the gap between visits i and i + 1 (the numbers outside between them), capped
// at t.
struct GapLength {
    const Index* at;
    Index t;

    RNGVET_HD Cell operator()(Index i) const
    {
        const Index len = at[i + 1] - at[i] - 1;
        return len < t ? len : t;
    }
};

// counts[len] += the number of the `gaps` gaps after visits at[0 .. gaps - 1] that have length
// len (capped at t): the lengths on the device, sorted and counted by key there, added on the host.
// lengths, distinct and number hold at least `gaps` cells.
inline void add_gap_lengths(const thrust::device_vector<Index>& at, std::ptrdiff_t gaps, Index t,
    thrust::device_vector<Cell>& lengths, thrust::device_vector<Cell>& distinct,
    thrust::device_vector<Index>& number, std::vector<long>& counts)
{
    const thrust::counting_iterator<Index> index(0);
    thrust::transform(
        index, index + gaps, lengths.begin(), GapLength{ thrust::raw_pointer_cast(at.data()), t });
    thrust::sort(lengths.begin(), lengths.begin() + gaps);
    const auto ends = thrust::reduce_by_key(lengths.begin(), lengths.begin() + gaps,
        thrust::constant_iterator<Index>(1), distinct.begin(), number.begin());
    const std::ptrdiff_t kinds = ends.first - distinct.begin();
    std::vector<Cell> length(static_cast<std::size_t>(kinds));
    std::vector<Index> times(static_cast<std::size_t>(kinds));
    thrust::copy(distinct.begin(), distinct.begin() + kinds, length.begin());
    thrust::copy(number.begin(), number.begin() + kinds, times.begin());
    for (std::size_t i = 0; i < length.size(); ++i)
        counts[static_cast<std::size_t>(length[i])] += static_cast<long>(times[i]);
}

class GapScan {
public:
    GapScan(Numbers& in, int r, double alpha, double beta, long t, std::size_t max_words)
        : in_(in)
        , inside_{ strip_d_for(in, r), alpha, beta }
        , t_(t)
        , words_(max_words)
        , at_(max_words)
        , lengths_(max_words)
        , distinct_(max_words)
        , counts_(max_words)
    {
    }
    std::size_t max_words() const { return words_.size(); }

    // Reads the next `size` words (at most max_words) and scans them: the first visit's
    // position (-1 for none), the visits, the numbers after the last visit, and counts[0..t] the
    // gaps between visits by length. False, with nothing read, where the first fill of the test
    // finds no device memory to write.
    bool scan(
        std::size_t size, long& first, long& visits, long& trailing, std::vector<long>& counts)
    {
        if (!fill(in_, words_, size, first_fill_)) return false;
        first_fill_ = false;
        const thrust::counting_iterator<Index> index(0);
        const auto end = thrust::copy_if(
            index, index + static_cast<std::ptrdiff_t>(size), words_.begin(), at_.begin(), inside_);
        const std::size_t v = static_cast<std::size_t>(end - at_.begin());
        std::fill(counts.begin(), counts.end(), 0);
        visits = static_cast<long>(v);
        if (v == 0) {
            first = -1;
            trailing = static_cast<long>(size);
            return true;
        }
        first = static_cast<long>(static_cast<Index>(at_[0]));
        trailing = static_cast<long>(size) - 1 - static_cast<long>(static_cast<Index>(at_[v - 1]));
        if (v < 2) return true;
        const std::ptrdiff_t gaps = static_cast<std::ptrdiff_t>(v - 1);
        add_gap_lengths(at_, gaps, static_cast<Index>(t_), lengths_, distinct_, counts_, counts);
        return true;
    }

private:
    Numbers& in_;
    GapInside inside_;
    long t_;
    bool first_fill_ = true;
    thrust::device_vector<Word> words_;
    thrust::device_vector<Index> at_;
    thrust::device_vector<Cell> lengths_, distinct_;
    thrust::device_vector<Index> counts_;
};

} // namespace rngvet::native::device_counts
