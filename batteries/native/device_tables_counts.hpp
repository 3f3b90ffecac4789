// The integer tables of smarsa_Savir2 and smarsa_GCD written once with Thrust, for whichever
// device system it is compiled with: CUDA in device_tables_cuda.cu (nvcc, --fmad=false), the
// host's OpenMP in tests/test_native_device_tables.cpp (g++ with
// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// As device_counts.hpp (whose fill, Group, AddCount and group_histograms serve here too): the
// words are written into the system's memory by Numbers::fill_device, and only the counts come
// back; smarsa_more.cpp computes the statistics from them with its CPU path's code.
// - Savir2: each group's chain I = 1 + StripD * I, a product and a sum of doubles rounded one by
//   one (on CUDA with --fmad=false: as the host rounds them), then converted to an integer; the
//   final I (clamped to msup) is the group's cell.
// - MaxOft: each group's maximum (device_counts::MaxCell, the doubles compared), a replication's
//   n maxima kept in device memory and sorted there (a sorted sequence of doubles is unique), then
//   copied to the host.
// - GCD: each pair's StripB values (a pair with a zero is a cell of its own), Euclid's algorithm
//   on them (the same remainders as the host's), the GCD and the number of steps clamped, one
//   cell. The pairs are read in blocks of at most the pairs still to be counted, as the CPU path
//   reads them, so exactly TestU01's numbers are read.
#pragma once

#include "device_counts.hpp"
#include "device_runs_counts.hpp"
#include "device_tables.hpp"

namespace rngvet::native::device_tables_counts {

using device_counts::AddCount;
using device_counts::Cell;
using device_counts::chunk_words;
using device_counts::fill;
using device_counts::Index;
using device_counts::StripD;
using device_counts::Word;
using device_runs_counts::StripB;

// smarsa_Savir2's final I of t words, clamped to msup: I = m, then I = 1 + StripD * I converted
// to an integer, word by word (smarsa_more.cpp's savir2_groups).
struct Savir2Cell {
    StripD strip;
    std::int64_t m;
    int t;
    std::int64_t msup;

    RNGVET_HD Cell operator()(const Word* w) const
    {
        std::int64_t I = m;
        for (int j = 0; j < t; ++j)
            I = static_cast<std::int64_t>(1 + strip(w[j]) * static_cast<double>(I));
        return static_cast<Cell>(I > msup ? msup : I);
    }
};

inline std::optional<std::vector<std::vector<std::uint64_t>>> savir2_histograms(Numbers& in, long N,
    long n, int r, long m, int t, long msup, std::size_t max_words = chunk_words)
{
    return device_counts::group_histograms(in, N, n, t, static_cast<std::uint64_t>(msup) + 1,
        Savir2Cell{ device_counts::strip_d_for(in, r), m, t, msup }, max_words);
}

// smarsa_GCD's cell of the pair w[0], w[1]: 0 where a StripB value is 0, else
// 1 + min(GCD, jmax) (kmax + 1) + min(steps, kmax) (smarsa_more.cpp's gcd_pairs).
struct GcdCell {
    StripB strip;
    std::uint32_t jmax;
    std::uint32_t kmax;

    RNGVET_HD Cell operator()(const Word* w) const
    {
        std::uint32_t u = strip(w[0]);
        std::uint32_t v = strip(w[1]);
        if (u == 0 || v == 0) return 0;
        std::uint32_t k = 0;
        for (;;) {
            const std::uint32_t rem = u % v;
            u = v;
            v = rem;
            ++k;
            if (rem == 0) break;
        }
        return 1 + static_cast<Cell>(u > jmax ? jmax : u) * (kmax + 1)
            + static_cast<Cell>(k > kmax ? kmax : k);
    }
};

// For each of N replications, the counts of GcdCell's cells among its pairs: n pairs without a
// zero, read in blocks of at most max_words / 2 pairs and of at most the pairs still to be
// counted (the dropped pairs of a block are counted before the next block is read). As
// device_counts::group_histograms for the rest (nullopt, with nothing read, where `in` cannot
// write device memory).
inline std::optional<std::vector<std::vector<std::uint64_t>>> gcd_tables(Numbers& in, long N,
    long n_long, int r, int s, int jmax, int kmax, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words / 2));
    const std::size_t cells
        = 1 + (static_cast<std::size_t>(jmax) + 1) * (static_cast<std::size_t>(kmax) + 1);

    thrust::device_vector<Word> words(chunk * 2);
    thrust::device_vector<Cell> keys(chunk), distinct(chunk);
    thrust::device_vector<Index> counts(chunk), table(cells);
    const device_counts::Group<GcdCell> build{ thrust::raw_pointer_cast(words.data()), Index(2),
        GcdCell{ device_runs_counts::strip_b_for(in, r, s), static_cast<std::uint32_t>(jmax),
            static_cast<std::uint32_t>(kmax) } };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::vector<std::uint64_t>> rows(static_cast<std::size_t>(N));
    for (long rep = 0; rep < N; ++rep) {
        thrust::fill(table.begin(), table.end(), Index(0));
        std::uint64_t dropped = 0;
        for (std::size_t left = n; left > 0;) {
            const std::size_t p = std::min(chunk, left);
            if (!fill(in, words, 2 * p, rep == 0 && left == n)) return std::nullopt;
            const auto m = static_cast<std::ptrdiff_t>(p);
            thrust::transform(index, index + m, keys.begin(), build);
            thrust::sort(keys.begin(), keys.begin() + m);
            const auto ends = thrust::reduce_by_key(keys.begin(), keys.begin() + m,
                thrust::constant_iterator<Index>(1), distinct.begin(), counts.begin());
            thrust::for_each(index, index + (ends.first - distinct.begin()),
                AddCount{ thrust::raw_pointer_cast(distinct.data()),
                    thrust::raw_pointer_cast(counts.data()),
                    thrust::raw_pointer_cast(table.data()) });
            const std::uint64_t now = table[0];
            left -= p - static_cast<std::size_t>(now - dropped);
            dropped = now;
        }
        std::vector<std::uint64_t>& row = rows[static_cast<std::size_t>(rep)];
        row.resize(cells);
        thrust::copy(table.begin(), table.end(), row.begin());
    }
    return rows;
}

// For each of N replications of n groups of t words, in stream order: the groups' maxima sorted
// in increasing order into a host array of n doubles, then done(replication, values). A
// replication's words are read a chunk of at most max_words / t groups at a time; its n maxima
// stay in device memory until sorted. As device_counts::group_values for the rest (false, with
// nothing read and done never called, where `in` cannot write device memory).
template <class Done>
bool sorted_maxima(Numbers& in, long N, long n_long, int r, int t, const Done& done,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t group = static_cast<std::size_t>(t);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words / group));

    thrust::device_vector<Word> words(chunk * group);
    thrust::device_vector<double> values(n);
    const device_counts::MaxCell max_of{ device_counts::strip_d_for(in, r), t };
    const device_counts::Group<device_counts::MaxCell> build{
        thrust::raw_pointer_cast(words.data()), static_cast<Index>(group), max_of
    };
    const thrust::counting_iterator<Index> index(0);
    std::vector<double> host(n);
    return device_counts::for_group_chunks(
        in, N, n, group, chunk, words,
        [&](long, std::size_t first, std::size_t m) {
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m),
                values.begin() + static_cast<std::ptrdiff_t>(first), build);
        },
        [&](long rep) {
            thrust::sort(values.begin(), values.end());
            thrust::copy(values.begin(), values.end(), host.begin());
            done(rep, host.data());
        });
}

} // namespace rngvet::native::device_tables_counts
