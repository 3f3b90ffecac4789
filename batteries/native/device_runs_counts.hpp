// The integer work of sstring_PeriodsInStrings, sknuth_Run, sstring_LongestHeadRun and
// sstring_Run written once with Thrust, for whichever device system it is compiled with: CUDA in
// device_runs_cuda.cu (nvcc, --fmad=false), the host's OpenMP in
// tests/test_native_device_runs.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// As device_counts.hpp (whose fill, for_group_chunks and group_histograms serve here too): the
// words are written into the system's memory by Numbers::fill_device, and only integers come back
// (counts, lengths, positions); the families join them in stream order and compute their
// statistics on the host with their CPU path's code.
// - PeriodsInStrings: each number's correlation (GenerateC: bit k set where its s bits have
//   period k), found by comparing its borders directly, and its class, the correlation's position
//   in CreateCorr's list (a search of the sorted list); the classes counted per replication.
// - LongestHeadRun: each number's runs of ones (OnesRuns), joined along each sequence of K
//   numbers (reduce_by_key, an associative join in stream order): one summary per sequence.
// - Run: the breaks (a value below the one before it, or above for runs down, StripD's values
//   compared as doubles) of a chunk; the first and last break, and each complete run's length
//   from the breaks at most 5 values further (lengths are counted up to 6).
// - sstring_Run: the positions of the transitions between runs of bits in a block, the lengths
//   between successive ones, and their classes counted.
#pragma once

#include "device_counts.hpp"
#include "device_runs.hpp"

#include <thrust/count.h>
#include <thrust/find.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace rngvet::native::device_runs_counts {

using device_counts::Cell;
using device_counts::chunk_words;
using device_counts::fill;
using device_counts::Index;
using device_counts::Word;

// unif01_StripB(gen, r, s) of one word, as Numbers::strip_b: s bits of GetBits (the top 32 bits
// of the word, saturated as stream.hpp's top32) after its r most significant (r + s <= 32).
struct StripB {
    int bits; // the words' resolution
    int shift; // 32 - r - s
    std::uint32_t mask; // 2^s - 1

    RNGVET_HD std::uint32_t operator()(Word w) const
    {
        std::uint32_t top;
        if (bits >= 32) {
            const Word t = w >> (bits - 32);
            top = t > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(t);
        } else {
            top = static_cast<std::uint32_t>(w << (32 - bits));
        }
        return (top >> shift) & mask;
    }
};

inline StripB strip_b_for(const Numbers& in, int r, int s)
{
    return StripB{ in.bits(), 32 - r - s, static_cast<std::uint32_t>((std::uint64_t(1) << s) - 1) };
}

// ---------------------------------------------------------------------------------------------
// sstring_PeriodsInStrings.

// The class of a number: the position in CreateCorr's list of the correlation of its s bits
// (2 <= s <= 31). sorted[0, J) are the list's correlations in increasing order, position[j] the
// place of sorted[j] in the list.
struct PeriodCell {
    StripB strip;
    int s;
    const std::uint32_t* sorted;
    const std::uint32_t* position;
    Index J;

    RNGVET_HD Cell operator()(const Word* w) const
    {
        const std::uint32_t v = strip(w[0]);
        // Bit 0, and bit s - m where the top m bits equal the low m bits (period s - m).
        std::uint32_t c = 1u;
        for (int m = 1; m < s; ++m)
            if ((v >> (s - m)) == (v & ((std::uint32_t(1) << m) - 1)))
                c |= std::uint32_t(1) << (s - m);
        // The last correlation <= c (c itself: every string's correlation is in the list).
        Index lo = 0, len = J;
        while (len > 1) {
            const Index half = len / 2;
            lo = sorted[lo + half] <= c ? lo + half : lo;
            len -= half;
        }
        return position[lo];
    }
};

inline std::optional<std::vector<std::vector<std::uint64_t>>> period_histograms(Numbers& in, long N,
    long n, int r, int s, const std::vector<std::uint32_t>& correlations,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::size_t j = 0; j < correlations.size(); ++j)
        pairs.push_back({ correlations[j], static_cast<std::uint32_t>(j) });
    std::sort(pairs.begin(), pairs.end());
    std::vector<std::uint32_t> host_sorted, host_position;
    for (const auto& p : pairs) {
        host_sorted.push_back(p.first);
        host_position.push_back(p.second);
    }
    const thrust::device_vector<std::uint32_t> sorted(host_sorted.begin(), host_sorted.end());
    const thrust::device_vector<std::uint32_t> position(host_position.begin(), host_position.end());
    const PeriodCell cell{ strip_b_for(in, r, s), s, thrust::raw_pointer_cast(sorted.data()),
        thrust::raw_pointer_cast(position.data()), static_cast<Index>(correlations.size()) };
    return device_counts::group_histograms(
        in, N, n, 1, static_cast<std::uint64_t>(correlations.size()), cell, max_words);
}

// ---------------------------------------------------------------------------------------------
// sstring_LongestHeadRun.

// The runs of ones of one number's s bits (the first bit the most significant).
struct NumberRuns {
    StripB strip;
    int s;

    RNGVET_HD OnesRuns operator()(Word w) const
    {
        const std::uint32_t v = strip(w);
        OnesRuns o;
        if (v == strip.mask) {
            o.lead = o.trail = o.best = s;
            return o;
        }
        o.zero = true;
        while (o.lead < s && ((v >> (s - 1 - o.lead)) & 1u) != 0)
            ++o.lead;
        while (((v >> o.trail) & 1u) != 0)
            ++o.trail;
        for (std::uint32_t x = v; x != 0; x &= x << 1)
            ++o.best;
        return o;
    }
};

// The sequence of a chunk's word i: (first + i) / K.
struct SequenceOf {
    Index first, K;

    RNGVET_HD Index operator()(Index i) const { return (first + i) / K; }
};

struct JoinRuns {
    RNGVET_HD OnesRuns operator()(const OnesRuns& a, const OnesRuns& b) const
    {
        return join_runs(a, b);
    }
};

// For each of N replications of n sequences of K numbers, each sequence's runs of ones; as
// group_histograms for the rest (at most max_words words in device memory at a time).
inline std::optional<std::vector<std::vector<OnesRuns>>> head_runs(Numbers& in, long N, long n_long,
    int r, int s, long K_long, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const Index K = static_cast<Index>(K_long);
    const std::size_t words_per_rep = n * static_cast<std::size_t>(K);
    const std::size_t chunk = std::min(words_per_rep, std::max<std::size_t>(1, max_words));
    // Sequences a chunk touches: at most chunk / K + 2.
    const std::size_t most = std::min(chunk, chunk / static_cast<std::size_t>(K) + 2);

    thrust::device_vector<Word> words(chunk);
    thrust::device_vector<Index> sequence(most);
    thrust::device_vector<OnesRuns> runs(most);
    std::vector<Index> host_sequence(most);
    std::vector<OnesRuns> host_runs(most);
    const NumberRuns of{ strip_b_for(in, r, s), s };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::vector<OnesRuns>> rows(static_cast<std::size_t>(N));
    std::vector<char> started(n);
    const bool read = device_counts::for_group_chunks(
        in, N, words_per_rep, 1, chunk, words,
        [&](long rep, std::size_t first, std::size_t m) {
            std::vector<OnesRuns>& row = rows[static_cast<std::size_t>(rep)];
            if (first == 0) {
                row.assign(n, OnesRuns());
                std::fill(started.begin(), started.end(), 0);
            }
            const auto keys = thrust::make_transform_iterator(index, SequenceOf{ first, K });
            const auto values = thrust::make_transform_iterator(words.begin(), of);
            const auto ends = thrust::reduce_by_key(keys, keys + static_cast<std::ptrdiff_t>(m),
                values, sequence.begin(), runs.begin(), thrust::equal_to<Index>(), JoinRuns{});
            const std::size_t pieces = static_cast<std::size_t>(ends.first - sequence.begin());
            thrust::copy(sequence.begin(), sequence.begin() + static_cast<std::ptrdiff_t>(pieces),
                host_sequence.begin());
            thrust::copy(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(pieces),
                host_runs.begin());
            for (std::size_t p = 0; p < pieces; ++p) {
                const std::size_t q = static_cast<std::size_t>(host_sequence[p]);
                row[q] = started[q] ? join_runs(row[q], host_runs[p]) : host_runs[p];
                started[q] = 1;
            }
        },
        [](long) {});
    if (!read) return std::nullopt;
    return rows;
}

// ---------------------------------------------------------------------------------------------
// sknuth_Run.

// Whether value i of a chunk breaks the run before it: below the value before it (up) or above
// it (down), StripD's values compared. The first value of a chunk is compared with the last of
// the chunk before (*carry) where the chunk does not start its replication.
struct Break {
    const Word* words;
    const Word* carry;
    device_counts::StripD strip;
    bool up;
    bool continues; // the chunk does not start its replication

    RNGVET_HD std::uint8_t operator()(Index i) const
    {
        if (i == 0 && !continues) return 0;
        const double a = strip(i == 0 ? *carry : words[i - 1]);
        const double x = strip(words[i]);
        return (up ? x < a : x > a) ? 1 : 0;
    }
};

// The counts of runs of length 1 .. 6 (6 for >= 6).
struct RunCounts {
    Index c[6];
};

struct AddRunCounts {
    RNGVET_HD RunCounts operator()(const RunCounts& a, const RunCounts& b) const
    {
        RunCounts s;
        for (int j = 0; j < 6; ++j)
            s.c[j] = a.c[j] + b.c[j];
        return s;
    }
};

// The complete run that begins at value i of a chunk of m values (a break before `last`, the
// chunk's last break): its length, found among the next 5 flags, else 6.
struct CompleteRun {
    const std::uint8_t* breaks;
    Index m, last;

    RNGVET_HD RunCounts operator()(Index i) const
    {
        RunCounts r;
        for (int j = 0; j < 6; ++j)
            r.c[j] = 0;
        if (breaks[i] == 0 || i >= last) return r;
        int length = 6;
        for (int d = 1; d <= 5; ++d)
            if (i + static_cast<Index>(d) < m && breaks[i + static_cast<Index>(d)] != 0) {
                length = d;
                break;
            }
        r.c[length - 1] = 1;
        return r;
    }
};

// For each of N replications of n values, each chunk's summary; as group_histograms for the rest.
template <class Chunk>
bool run_chunks(Numbers& in, long N, long n_long, int r, bool up, const Chunk& chunk_done,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const std::size_t n = static_cast<std::size_t>(n_long);
    const std::size_t chunk = std::min(n, std::max<std::size_t>(1, max_words));

    thrust::device_vector<Word> words(chunk), carry(1);
    thrust::device_vector<std::uint8_t> breaks(chunk);
    const device_counts::StripD strip = device_counts::strip_d_for(in, r);
    const thrust::counting_iterator<Index> index(0);
    return device_counts::for_group_chunks(
        in, N, n, 1, chunk, words,
        [&](long rep, std::size_t first, std::size_t m) {
            const std::ptrdiff_t size = static_cast<std::ptrdiff_t>(m);
            thrust::transform(index, index + size, breaks.begin(),
                Break{ thrust::raw_pointer_cast(words.data()),
                    thrust::raw_pointer_cast(carry.data()), strip, up, first > 0 });
            thrust::copy(words.begin() + size - 1, words.begin() + size, carry.begin());
            RunBlock block;
            const std::size_t head = static_cast<std::size_t>(
                thrust::find(breaks.begin(), breaks.begin() + size, std::uint8_t(1))
                - breaks.begin());
            block.head = static_cast<long>(head);
            if (head < m) {
                block.broken = true;
                const auto rend = thrust::make_reverse_iterator(breaks.begin());
                const auto rbegin = thrust::make_reverse_iterator(breaks.begin() + size);
                const std::size_t last = m - 1
                    - static_cast<std::size_t>(
                        thrust::find(rbegin, rend, std::uint8_t(1)) - rbegin);
                block.tail = static_cast<long>(std::min<std::size_t>(6, m - last));
                RunCounts zero;
                for (int j = 0; j < 6; ++j)
                    zero.c[j] = 0;
                const RunCounts counts
                    = thrust::transform_reduce(index + static_cast<std::ptrdiff_t>(head),
                        index + static_cast<std::ptrdiff_t>(last),
                        CompleteRun{ thrust::raw_pointer_cast(breaks.data()), static_cast<Index>(m),
                            static_cast<Index>(last) },
                        zero, AddRunCounts{});
                for (int j = 0; j < 6; ++j)
                    block.count[j + 1] = static_cast<long>(counts.c[j]);
            }
            chunk_done(rep, static_cast<long>(first), static_cast<long>(m), block);
        },
        [](long) {});
}

// ---------------------------------------------------------------------------------------------
// sstring_Run, a block at a time.

// Bit p of a block (bit p % s of number p / s, the first the most significant).
struct BitAt {
    const Word* words;
    StripB strip;
    Index s;

    RNGVET_HD int operator()(Index p) const
    {
        return static_cast<int>((strip(words[p / s]) >> (s - 1 - p % s)) & 1u);
    }
};

// Whether bit p differs from the bit before it (`prev` before bit 0; -1: bit 0 is one).
struct Transition {
    BitAt bit;
    int prev;

    RNGVET_HD bool operator()(Index p) const
    {
        if (p == 0) return prev < 0 || bit(0) != prev;
        return bit(p) != bit(p - 1);
    }
};

// The class of the run ended by transition i + 1: [bit after it][min(length, k)].
struct RunClass {
    const Index* at;
    BitAt bit;
    Index k, row;

    RNGVET_HD std::uint32_t operator()(Index i) const
    {
        const Index len = at[i + 1] - at[i];
        return static_cast<std::uint32_t>(
            static_cast<Index>(bit(at[i + 1])) * row + (len < k ? len : k));
    }
};

struct IsOne {
    BitAt bit;

    RNGVET_HD bool operator()(Index p) const { return bit(p) == 1; }
};

class BitRunScan {
public:
    // Blocks of at most max_bits bits.
    BitRunScan(Numbers& in, int r, int s, int k, std::size_t max_bits)
        : in_(in)
        , strip_(strip_b_for(in, r, s))
        , s_(static_cast<Index>(s))
        , k_(static_cast<Index>(k))
        , words_(std::max<std::size_t>(1, max_bits / static_cast<std::size_t>(s)))
        , at_(words_.size() * static_cast<std::size_t>(s))
        , classes_(words_.size() * static_cast<std::size_t>(s))
        , distinct_(2 * (static_cast<std::size_t>(k) + 1))
        , counts_(2 * (static_cast<std::size_t>(k) + 1))
    {
    }
    std::size_t max_words() const { return words_.size(); }

    bool scan(std::size_t size, int prev, BitRunBlock& out)
    {
        if (!fill(in_, words_, size, first_fill_)) return false;
        first_fill_ = false;
        const std::size_t row = static_cast<std::size_t>(k_) + 1;
        out.classes.assign(2 * row, 0);
        const BitAt bit{ thrust::raw_pointer_cast(words_.data()), strip_, s_ };
        const thrust::counting_iterator<Index> index(0);
        const Index bits = static_cast<Index>(size) * s_;
        const auto end = thrust::copy_if(
            index, index + static_cast<std::ptrdiff_t>(bits), at_.begin(), Transition{ bit, prev });
        const std::size_t v = static_cast<std::size_t>(end - at_.begin());
        out.last_bit = static_cast<int>(strip_(words_[size - 1]) & 1u);
        out.any = v > 0;
        if (v == 0) {
            out.starts_of_ones = 0;
            return true;
        }
        out.starts_of_ones
            = static_cast<std::uint64_t>(thrust::count_if(at_.begin(), end, IsOne{ bit }));
        out.first = static_cast<std::uint64_t>(static_cast<Index>(at_[0]));
        out.first_bit
            = static_cast<int>(strip_(words_[out.first / s_]) >> (s_ - 1 - out.first % s_) & 1u);
        out.last = static_cast<std::uint64_t>(static_cast<Index>(at_[v - 1]));
        if (v < 2) return true;
        const std::ptrdiff_t runs = static_cast<std::ptrdiff_t>(v - 1);
        thrust::transform(index, index + runs, classes_.begin(),
            RunClass{ thrust::raw_pointer_cast(at_.data()), bit, k_, static_cast<Index>(row) });
        thrust::sort(classes_.begin(), classes_.begin() + runs);
        const auto ends = thrust::reduce_by_key(classes_.begin(), classes_.begin() + runs,
            thrust::constant_iterator<Index>(1), distinct_.begin(), counts_.begin());
        const std::size_t kinds = static_cast<std::size_t>(ends.first - distinct_.begin());
        std::vector<std::uint32_t> cls(kinds);
        std::vector<Index> number(kinds);
        thrust::copy(
            distinct_.begin(), distinct_.begin() + static_cast<std::ptrdiff_t>(kinds), cls.begin());
        thrust::copy(
            counts_.begin(), counts_.begin() + static_cast<std::ptrdiff_t>(kinds), number.begin());
        for (std::size_t i = 0; i < kinds; ++i)
            out.classes[cls[i]] += number[i];
        return true;
    }

private:
    Numbers& in_;
    StripB strip_;
    Index s_, k_;
    bool first_fill_ = true;
    thrust::device_vector<Word> words_;
    thrust::device_vector<Index> at_;
    thrust::device_vector<std::uint32_t> classes_, distinct_;
    thrust::device_vector<Index> counts_;
};

} // namespace rngvet::native::device_runs_counts
