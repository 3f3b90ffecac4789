// The work of svaria_SumCollector, svaria_AppearanceSpacings and svaria_SampleMean
// (device_svaria.hpp) written once with Thrust, for whichever device system it is compiled with:
// CUDA in device_svaria_cuda.cu (nvcc, --fmad=false), the host's OpenMP in
// tests/test_native_device_svaria.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// SumCollector: a sum started at a number is determined by that number and the ones after it
// (0.0, then each StripD value added in order, every addition rounded as on the host), so two
// chains of sums that end a sum at the same number are the same chain from there on. A block is
// cut into sub-blocks (the last one the longest); each sub-block's chain is run from a sum
// started at its first number (the first sub-block's from the true state) and marks where its
// sums end; each chain is then run on through the next sub-blocks until it ends a sum where the
// chain of the sub-block it is in ends one (the meeting: from there on it is that chain). The
// true chain is the first sub-block's, then the chain it meets from the meeting on, and so on
// (the host follows the meetings, one number a sub-block); its sums are each chain's on this
// path, its own ones after the meeting that led to it and those of its walk up to and with its
// own meeting. Where a chain on the path meets none within `limit` sub-blocks (chains of random
// numbers meet after a thousand numbers or so; those of a stream whose chains never join, never),
// the block is run in one sequence instead. Only the counts by length, one number a sub-block
// and the chain's state at the block's end come to the host.
//
// AppearanceSpacings: the blocks of L bits of a chunk (integers), sorted by value with their
// positions (a stable sort: equal values in stream order); the last appearance before a block
// is the block before it among its value's, or the table of last appearances carried from the
// previous chunks; the table then takes each value's last position in the chunk. Only the
// distances (4 bytes a block) come back; the logarithms and their sum stay on the host, in
// TestU01's order.
//
// Only Thrust interfaces found in both Debian 12's Thrust 1.17 and CUDA 13's CCCL are used.
#pragma once

#include "device_bits_counts.hpp"
#include "device_counts.hpp"

#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

namespace rngvet::native::device_counts {

// ---------------------------------------------------------------------------------------------
// svaria_SumCollector.

constexpr Index no_meeting = ~Index(0);

// Sub-block b's chain through its own numbers: where its sums end (mark[i], the sum's count of
// numbers capped at 255; 0 where none ends) and its state at the sub-block's end. The first
// sub-block's chain starts from the true state (x0, n0), the others' from 0.0 at their first
// number.
struct SumOwn {
    const Word* words;
    StripD strip;
    double g;
    Index size, sub, parts;
    double x0;
    Index n0;
    unsigned char* mark;
    double* state_x;
    Index* state_n;

    RNGVET_HD void operator()(Index b) const
    {
        const Index begin = b * sub;
        const Index end = b + 1 == parts ? size : begin + sub;
        double x = b == 0 ? x0 : 0.0;
        Index c = b == 0 ? n0 : 0;
        for (Index i = begin; i < end; ++i) {
            x += strip(words[i]);
            ++c;
            if (!(x <= g)) {
                mark[i] = static_cast<unsigned char>(c < 255 ? c : 255);
                x = 0.0;
                c = 0;
            } else {
                mark[i] = 0;
            }
        }
        state_x[b] = x;
        state_n[b] = c;
    }
};

// Sub-block b's chain run on from its sub-block's end through the next sub-blocks until it ends
// a sum where the chain of the sub-block it is in ends one (mark): meet[b] that number; the sums
// it ends on the way, the meeting one included, counted by length (capped at cap) in
// sub-block b's counts in hist. It stops at the block's end (meet[b] = walk_end, its state there in
// walk_x, walk_n) or, after `limit` sub-blocks without meeting (0: none), gives up (walk_gave_up).
constexpr Index walk_end = ~Index(0) - 1;
constexpr Index walk_gave_up = ~Index(0) - 2;

struct SumWalk {
    const Word* words;
    StripD strip;
    double g;
    Index size, sub, parts, cap, limit;
    const unsigned char* mark;
    const double* own_x;
    const Index* own_n;
    Index* meet;
    double* walk_x;
    Index* walk_n;
    Index* hist; // column k of sub-block b at k parts + b

    RNGVET_HD void operator()(Index b) const
    {
        const Index begin = b + 1 == parts ? size : (b + 1) * sub;
        const Index stop = limit > 0 && b + 1 + limit < parts ? (b + 1 + limit) * sub : size;
        Index* h = hist + b;
        double x = own_x[b];
        Index c = own_n[b];
        for (Index i = begin; i < stop; ++i) {
            x += strip(words[i]);
            ++c;
            if (!(x <= g)) {
                ++h[(c < cap ? c : cap) * parts];
                if (mark[i] != 0) {
                    meet[b] = i;
                    return;
                }
                x = 0.0;
                c = 0;
            }
        }
        if (stop == size) {
            meet[b] = walk_end;
            walk_x[b] = x;
            walk_n[b] = c;
        } else {
            meet[b] = walk_gave_up;
        }
    }
};

// The chains the true one runs along: entry[b] the first number of sub-block b from which its
// own sums are the true chain's (no_meeting where it is not on the path). Adds those sums to
// sub-block b's counts in hist, and clears the counts of a chain off the path.
struct SumCount {
    Index size, sub, parts, cap;
    const unsigned char* mark;
    const Index* entry;
    Index* hist;

    RNGVET_HD void operator()(Index b) const
    {
        Index* h = hist + b;
        if (entry[b] == no_meeting) {
            for (Index k = 0; k <= cap; ++k)
                h[k * parts] = 0;
            return;
        }
        const Index end = b + 1 == parts ? size : (b + 1) * sub;
        for (Index i = entry[b]; i < end; ++i)
            if (mark[i] != 0) ++h[(mark[i] < cap ? mark[i] : cap) * parts];
    }
};

// The whole block in one sequence from the true state, into sub-block 0's counts in hist and the
// state (walk_x[0], walk_n[0]).
struct SumSequence {
    const Word* words;
    StripD strip;
    double g;
    Index size, parts, cap;
    double x0;
    Index n0;
    Index* hist;
    double* state_x;
    Index* state_n;

    RNGVET_HD void operator()(Index) const
    {
        double x = x0;
        Index c = n0;
        for (Index i = 0; i < size; ++i) {
            x += strip(words[i]);
            ++c;
            if (!(x <= g)) {
                ++hist[(c < cap ? c : cap) * parts];
                x = 0.0;
                c = 0;
            }
        }
        state_x[0] = x;
        state_n[0] = c;
    }
};

// The column of entry i of hist (columns of `parts` entries).
struct SumColumnOf {
    Index parts;

    RNGVET_HD Index operator()(Index i) const { return i / parts; }
};

class SumScan {
public:
    // Blocks of at most max_words words, in sub-blocks of sub_words (the last one up to
    // 2 sub_words - 1); a chain gives up after walking `limit` sub-blocks (0: never).
    SumScan(Numbers& in, int r, double g, int cap, std::size_t max_words, std::size_t sub_words,
        std::size_t limit)
        : in_(in)
        , strip_(strip_d_for(in, r))
        , g_(g)
        , cap_(static_cast<Index>(cap))
        , sub_(sub_words)
        , limit_(limit)
        , words_(max_words)
        , mark_(max_words)
        , own_x_(std::max<std::size_t>(1, max_words / sub_words))
        , walk_x_(own_x_.size())
        , own_n_(own_x_.size())
        , walk_n_(own_x_.size())
        , meet_(own_x_.size())
        , entry_(own_x_.size())
        , hist_(own_x_.size() * (cap_ + 1))
        , columns_(cap_ + 1)
        , totals_(cap_ + 1)
    {
    }
    std::size_t max_words() const { return words_.size(); }
    // Blocks of several sub-blocks counted along the chains' meetings, and blocks run in one
    // sequence because the true chain met none in `limit` sub-blocks (for the tests).
    long joined() const { return joined_; }
    long sequences() const { return sequences_; }

    // As DeviceSumScan::scan.
    bool scan(std::size_t size, double& x, long& numbers, std::vector<long>& by_length, long& ends)
    {
        if (!fill(in_, words_, size, first_fill_)) return false;
        first_fill_ = false;
        const Index parts = size >= sub_ ? size / sub_ : 1;
        const auto pp = static_cast<std::ptrdiff_t>(parts);
        const thrust::counting_iterator<Index> index(0);
        const Word* w = thrust::raw_pointer_cast(words_.data());
        const unsigned char* mark = thrust::raw_pointer_cast(mark_.data());
        Index* hist = thrust::raw_pointer_cast(hist_.data());
        double* ox = thrust::raw_pointer_cast(own_x_.data());
        Index* on = thrust::raw_pointer_cast(own_n_.data());
        double* wx = thrust::raw_pointer_cast(walk_x_.data());
        Index* wn = thrust::raw_pointer_cast(walk_n_.data());
        thrust::fill(
            hist_.begin(), hist_.begin() + pp * static_cast<std::ptrdiff_t>(cap_ + 1), Index(0));
        thrust::for_each(index, index + pp,
            SumOwn{ w, strip_, g_, size, sub_, parts, x, static_cast<Index>(numbers),
                thrust::raw_pointer_cast(mark_.data()), ox, on });
        thrust::for_each(index, index + pp,
            SumWalk{ w, strip_, g_, size, sub_, parts, cap_, limit_, mark, ox, on,
                thrust::raw_pointer_cast(meet_.data()), wx, wn, hist });
        // The path of the true chain: from sub-block 0's, to the chain each one meets.
        std::vector<Index> meet(parts), entry(parts, no_meeting);
        thrust::copy(meet_.begin(), meet_.begin() + pp, meet.begin());
        entry[0] = 0;
        Index b = 0;
        while (meet[b] != walk_end && meet[b] != walk_gave_up) {
            const Index k = std::min<Index>(meet[b] / sub_, parts - 1);
            entry[k] = meet[b] + 1;
            b = k;
        }
        if (meet[b] == walk_end) {
            if (parts > 1) ++joined_;
            thrust::copy(entry.begin(), entry.end(), entry_.begin());
            thrust::for_each(index, index + pp,
                SumCount{
                    size, sub_, parts, cap_, mark, thrust::raw_pointer_cast(entry_.data()), hist });
        } else {
            ++sequences_;
            thrust::fill(hist_.begin(), hist_.begin() + pp * static_cast<std::ptrdiff_t>(cap_ + 1),
                Index(0));
            thrust::for_each(index, index + 1,
                SumSequence{ w, strip_, g_, size, parts, cap_, x, static_cast<Index>(numbers), hist,
                    wx, wn });
            b = 0;
        }
        const auto column = thrust::make_transform_iterator(index, SumColumnOf{ parts });
        thrust::reduce_by_key(column, column + pp * static_cast<std::ptrdiff_t>(cap_ + 1),
            hist_.begin(), columns_.begin(), totals_.begin());
        std::vector<Index> t(cap_ + 1);
        thrust::copy(totals_.begin(), totals_.end(), t.begin());
        by_length.assign(cap_ + 1, 0);
        ends = 0;
        for (Index k = 1; k <= cap_; ++k) {
            by_length[k] = static_cast<long>(t[k]);
            ends += static_cast<long>(t[k]);
        }
        x = walk_x_[b];
        numbers = static_cast<long>(static_cast<Index>(walk_n_[b]));
        return true;
    }

private:
    Numbers& in_;
    StripD strip_;
    double g_;
    Index cap_, sub_, limit_;
    bool first_fill_ = true;
    long joined_ = 0, sequences_ = 0;
    thrust::device_vector<Word> words_;
    thrust::device_vector<unsigned char> mark_;
    thrust::device_vector<double> own_x_, walk_x_;
    thrust::device_vector<Index> own_n_, walk_n_, meet_, entry_, hist_, columns_, totals_;
};

// ---------------------------------------------------------------------------------------------
// svaria_AppearanceSpacings.

// Block p of a chunk (whole blocks of words): unif01_StripB (r, s) of each number as
// Numbers::strip_b; L >= s: `whole` numbers' s bits, then `rest` bits of one more, the first
// number's bits highest; s > L: block j of a number is its s bits shifted right by j L, masked.
struct AppearanceBlock {
    const Word* words;
    Bits32 top;
    int r, s, whole, rest, L;
    bool several;
    Index words_per_block, per_number;

    RNGVET_HD std::uint32_t strip_b(Word w, int bits) const
    {
        const Word u = top(w);
        if (r == 0) return static_cast<std::uint32_t>(u >> (32 - bits));
        return static_cast<std::uint32_t>(((u << r) & 0xFFFFFFFFull) >> (32 - bits));
    }
    RNGVET_HD std::uint32_t operator()(Index p) const
    {
        if (several) {
            const Word* v = words + p * words_per_block;
            std::uint32_t block = 0;
            for (int i = 0; i < whole; ++i)
                block = (block << s) | strip_b(v[i], s);
            if (rest > 0) block = (block << rest) | strip_b(v[whole], rest);
            return block;
        }
        const std::uint32_t bits = strip_b(words[p / per_number], s);
        return (bits >> (static_cast<int>(p % per_number) * L)) & ((std::uint32_t(1) << L) - 1);
    }
};

// For sorted entry i (value values[i], block at[i] of the chunk, the chunk's first block at
// position pos0 of its replication): the distance to the value's last appearance, written at
// the block's place among the chunk's tested blocks (positions init or more, the first at
// `first`).
struct AppearanceDistance {
    const std::uint32_t* values;
    const std::uint32_t* at;
    const Index* table;
    Index pos0, init, first;
    std::uint32_t* distance;

    RNGVET_HD void operator()(Index i) const
    {
        const Index p = pos0 + at[i];
        if (p < init) return;
        const Index before
            = i > 0 && values[i - 1] == values[i] ? pos0 + at[i - 1] : table[values[i]];
        distance[p - first] = static_cast<std::uint32_t>(p - before);
    }
};

// Each value's last position in the chunk into the table.
struct AppearanceLast {
    const std::uint32_t* values;
    const std::uint32_t* at;
    Index m, pos0;
    Index* table;

    RNGVET_HD void operator()(Index i) const
    {
        if (i + 1 == m || values[i + 1] != values[i]) table[values[i]] = pos0 + at[i];
    }
};

class AppearanceScan {
public:
    AppearanceScan(Numbers& in, long init, int r, int s, int L, std::size_t max_words)
        : in_(in)
        , init_(static_cast<Index>(init))
        , words_per_block_(L >= s ? static_cast<Index>(L / s + (L % s > 0 ? 1 : 0)) : 1)
        , blocks_per_word_(L >= s ? 1 : static_cast<Index>(s / L))
        , block_{ nullptr, Bits32{ in.bits() }, r, s, L / s, L % s, L, L >= s, words_per_block_,
            blocks_per_word_ }
        , words_(std::max<std::size_t>(max_words / words_per_block_, 1) * words_per_block_)
        , values_(words_.size() / words_per_block_ * blocks_per_word_)
        , at_(values_.size())
        , distance_(values_.size())
        , table_(std::size_t(1) << L)
    {
        block_.words = thrust::raw_pointer_cast(words_.data());
    }
    std::size_t max_words() const { return words_.size(); }

    // As DeviceAppearanceScan::scan.
    bool scan(std::size_t size, bool start, std::vector<std::uint32_t>& distances)
    {
        if (!fill(in_, words_, size, first_fill_)) return false;
        first_fill_ = false;
        if (start) {
            thrust::fill(table_.begin(), table_.end(), Index(0));
            pos0_ = 0;
        }
        const Index m = size / words_per_block_ * blocks_per_word_;
        const auto mm = static_cast<std::ptrdiff_t>(m);
        const thrust::counting_iterator<Index> index(0);
        thrust::transform(index, index + mm, values_.begin(), block_);
        thrust::sequence(at_.begin(), at_.begin() + mm);
        thrust::stable_sort_by_key(values_.begin(), values_.begin() + mm, at_.begin());
        const Index first = pos0_ > init_ ? pos0_ : init_;
        const Index tested = pos0_ + m > first ? pos0_ + m - first : 0;
        const std::uint32_t* v = thrust::raw_pointer_cast(values_.data());
        const std::uint32_t* a = thrust::raw_pointer_cast(at_.data());
        Index* t = thrust::raw_pointer_cast(table_.data());
        if (tested > 0)
            thrust::for_each(index, index + mm,
                AppearanceDistance{
                    v, a, t, pos0_, init_, first, thrust::raw_pointer_cast(distance_.data()) });
        thrust::for_each(index, index + mm, AppearanceLast{ v, a, m, pos0_, t });
        distances.resize(tested);
        thrust::copy(distance_.begin(), distance_.begin() + static_cast<std::ptrdiff_t>(tested),
            distances.begin());
        pos0_ += m;
        return true;
    }

private:
    Numbers& in_;
    Index init_, words_per_block_, blocks_per_word_;
    AppearanceBlock block_;
    bool first_fill_ = true;
    Index pos0_ = 0;
    thrust::device_vector<Word> words_;
    thrust::device_vector<std::uint32_t> values_, at_, distance_;
    thrust::device_vector<Index> table_;
};

// ---------------------------------------------------------------------------------------------
// svaria_SampleMean: each sum of n StripD values, from 0.0 in order (group_values brings the N
// sums to the host, 8 bytes a sum of n numbers).
struct MeanSum {
    StripD strip;
    Index n;

    RNGVET_HD double operator()(const Word* w) const
    {
        double sum = 0.0;
        for (Index j = 0; j < n; ++j)
            sum += strip(w[j]);
        return sum;
    }
};

} // namespace rngvet::native::device_counts
