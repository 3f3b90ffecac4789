// The ranks of smarsa_MatrixRank's matrices and the segments of sknuth_CouponCollector computed
// with Thrust, for whichever device system it is compiled with: CUDA in device_matrix_cuda.cu
// (nvcc), the host's OpenMP in tests/test_native_device_matrix.cpp (g++ with
// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words are written into the system's memory by Numbers::fill_device (device_counts.hpp's
// fill); the rows of the matrices are packed there, the matrices are reduced there and only the
// per-replication counts of the ranks come back. Ranks are integers, so the counts are the CPU
// path's whatever the order of the work; matrix_rank.cpp computes the statistic from them with
// its own code.
//
// CouponCollector's segments: see CouponScan below.
//
// The rows follow smarsa_MatrixRank (TestU01 1.2.3, smarsa.c; see matrix_rank.cpp): row i of a
// matrix takes c = k / s words, s bits of each after its r most significant
// (unif01_StripB(r, s) of GetBits), then, when b = k % s > 0, b such bits of one more word; the
// rows of a matrix in order, the matrices in order. A rank does not depend on the order of the
// columns, so a row's chunks are packed from its least significant bit up.
#pragma once

#include "device_counts.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <vector>

namespace rngvet::native::device_counts {

// ---------------------------------------------------------------------------------------------
// smarsa_MatrixRank.

// GetBits of a word (stream.hpp's top32: its 32 most significant bits, saturated) and then
// unif01_StripB(r, s), as Numbers::strip_b.
struct StripB {
    int bits; // the stream's resolution
    int r;

    RNGVET_HD Word operator()(Word w, int s) const
    {
        Word u;
        if (bits >= 32) {
            const Word top = w >> (bits - 32);
            u = top > 0xFFFFFFFFull ? 0xFFFFFFFFull : top;
        } else {
            u = (w << (32 - bits)) & 0xFFFFFFFFull;
        }
        if (r == 0) return u >> (32 - s);
        return ((u << r) & 0xFFFFFFFFull) >> (32 - s);
    }
};

// The shape of smarsa_MatrixRank's matrices and where their words lie in a batch: a matrix's rows
// in tiles of 32 (the last one padded), and in a tile word w of row i at w 32 + i % 32. A warp's
// 32 threads, one per row, read 32 consecutive words (one transaction on a GPU), and a host
// thread that takes the rows of a tile one after the other finds them in a few kilobytes.
struct MatrixShape {
    StripB strip;
    int s;
    Index l, k;
    Index c; // whole chunks of s bits per row
    int b; // bits of the last chunk (0: none)
    Index per_row; // numbers per row
    Index words; // 64-bit words per packed row
    Index tiles; // tiles of 32 rows per matrix

    RNGVET_HD Index at(Index m, Index w, Index i) const
    {
        return ((m * tiles + i / 32) * words + w) * 32 + i % 32;
    }
    // Words per packed matrix.
    Index packed() const { return tiles * words * 32; }
};

inline MatrixShape matrix_shape(const Numbers& in, int r, int s, int l, int k)
{
    MatrixShape sh{};
    sh.strip = StripB{ in.bits(), r };
    sh.s = s;
    sh.l = static_cast<Index>(l);
    sh.k = static_cast<Index>(k);
    sh.c = static_cast<Index>(k / s);
    sh.b = k % s;
    sh.per_row = sh.c + (sh.b > 0 ? 1 : 0);
    sh.words = static_cast<Index>((k + 63) / 64);
    sh.tiles = (sh.l + 31) / 32;
    return sh;
}

// Packs row `first + j` of a batch (counted over the batch's matrices, l rows each) from its
// numbers raw[j per_row ..].
struct PackRow {
    MatrixShape sh;
    const Word* raw;
    Word* a;
    Index first;

    RNGVET_HD void operator()(Index j) const
    {
        const Word* w = raw + j * sh.per_row;
        const Index g = first + j, m = g / sh.l, i = g % sh.l;
        Word acc = 0;
        int pos = 0; // bits of acc filled
        Index out = 0; // words of the row written
        for (Index q = 0; q < sh.per_row; ++q) {
            const int nb = q < sh.c ? sh.s : sh.b;
            const Word v = sh.strip(w[q], nb);
            acc |= v << pos;
            if (pos + nb >= 64) {
                a[sh.at(m, out++, i)] = acc;
                acc = pos + nb > 64 ? v >> (64 - pos) : 0;
                pos = pos + nb - 64;
            } else {
                pos += nb;
            }
        }
        if (pos > 0) a[sh.at(m, out, i)] = acc;
    }
};

// The rank of matrix m of a batch whose rows are one word each (k <= 64) and at most 64: forward
// elimination, column by column, in the thread's own copy (matrix_rank.cpp's rank_one_word).
struct SmallRank {
    MatrixShape sh;
    const Word* a;
    Index* rank;

    RNGVET_HD void operator()(Index m) const
    {
        Word x[64];
        const Index l = sh.l;
        for (Index i = 0; i < l; ++i)
            x[i] = a[sh.at(m, 0, i)];
        Index rk = 0;
        for (Index col = 0; col < sh.k && rk < l; ++col) {
            const Word bit = Word(1) << col;
            Index p = rk;
            while (p < l && !(x[p] & bit))
                ++p;
            if (p == l) continue;
            const Word piv = x[p];
            x[p] = x[rk];
            x[rk] = piv;
            for (Index i = rk + 1; i < l; ++i)
                if (x[i] & bit) x[i] ^= piv;
            ++rk;
        }
        rank[m] = rk;
    }
};

// Larger matrices are reduced a column at a time for all the matrices of a batch together, in
// three steps per column (each a pass over the batch): the pivot of each matrix (the first row
// at or below its rank with the column's bit, l where none), its exchange with the row at the
// rank, and the elimination of the column's bit from every row below, one row per thread. Rows
// at and below the rank are zero in every column already processed, so only the words from the
// column's own on are touched.

// Counts the previous column's pivot into the rank of matrix m and finds the pivot of column col.
struct FindPivot {
    MatrixShape sh;
    const Word* a;
    Index* rank;
    Index* pivot;
    Index col;

    RNGVET_HD void operator()(Index m) const
    {
        Index rk = rank[m];
        if (pivot[m] < sh.l) rank[m] = ++rk;
        const Index wc = col / 64;
        const Word bit = Word(1) << (col % 64);
        Index p = rk;
        while (p < sh.l && !(a[sh.at(m, wc, p)] & bit))
            ++p;
        pivot[m] = p;
    }
};

// Exchanges word w (one of words col / 64 ..) of a matrix's pivot row and the row at its rank;
// item m words + w.
struct SwapPivot {
    MatrixShape sh;
    Word* a;
    const Index* rank;
    const Index* pivot;
    Index col;

    RNGVET_HD void operator()(Index item) const
    {
        const Index m = item / sh.words, w = item % sh.words;
        const Index p = pivot[m], rk = rank[m];
        if (p >= sh.l || p == rk || w < col / 64) return;
        const Word t = a[sh.at(m, w, p)];
        a[sh.at(m, w, p)] = a[sh.at(m, w, rk)];
        a[sh.at(m, w, rk)] = t;
    }
};

// Clears column col from row i below the pivot row (now at the rank) of matrix m; item m l + i.
struct Eliminate {
    MatrixShape sh;
    Word* a;
    const Index* rank;
    const Index* pivot;
    Index col;

    RNGVET_HD void operator()(Index item) const
    {
        const Index m = item / sh.l, i = item % sh.l;
        const Index rk = rank[m];
        if (pivot[m] >= sh.l || i <= rk) return;
        const Index wc = col / 64;
        if (!((a[sh.at(m, wc, i)] >> (col % 64)) & 1)) return;
        for (Index w = wc; w < sh.words; ++w)
            a[sh.at(m, w, i)] ^= a[sh.at(m, w, rk)];
    }
};

// The final rank of matrix m (the last column's pivot counted).
struct FinishRank {
    Index l;
    Index* rank;
    const Index* pivot;

    RNGVET_HD void operator()(Index m) const
    {
        if (pivot[m] < l) ++rank[m];
    }
};

// The key of matrix m of a batch whose first matrix is the test's number `done`: its
// replication (counted from the batch's first) times the classes, plus its rank.
struct RankKey {
    const Index* rank;
    Index done, n, classes;

    RNGVET_HD Cell operator()(Index m) const
    {
        return ((done + m) / n - done / n) * classes + rank[m];
    }
};

// Matrices a batch holds by default: about chunk_words packed words (at least one matrix).
// Device memory: the words of a fill (at most max_words, at least one row), the packed batch (at
// most max_words, at least one matrix) and five integers per matrix (BigCrush's 5000 x 5000 form
// with s = 15: 256 MiB + 80 matrices of 3.2 MB).
//
// The counts of the ranks 0 .. min(l, k) of smarsa_MatrixRank's N n matrices (N r s l k as
// matrix_rank.hpp), per replication: hist[replication (min(l, k) + 1) + rank], as matrix_rank.cpp
// counts them; nullopt, with nothing read, where `in` cannot write device memory. Reads exactly
// N n l per_row numbers. As birthday_spacings_counts for the rest.
inline std::optional<std::vector<long>> matrix_rank_counts(Numbers& in, long N, long n_long, int r,
    int s, int l, int k, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const MatrixShape sh = matrix_shape(in, r, s, l, k);
    const Index n = static_cast<Index>(n_long);
    const Index total = static_cast<Index>(N) * n;
    const Index classes = static_cast<Index>(std::min(l, k)) + 1;
    const Index packed = sh.packed();
    const Index batch
        = std::min<Index>(total, std::max<Index>(1, static_cast<Index>(max_words) / packed));
    const Index fill_rows = std::min<Index>(
        batch * sh.l, std::max<Index>(1, static_cast<Index>(max_words) / sh.per_row));
    const bool small = sh.words == 1 && sh.l <= 64;

    thrust::device_vector<Word> raw(fill_rows * sh.per_row);
    thrust::device_vector<Word> a(batch * packed);
    thrust::device_vector<Index> rank(batch), pivot(small ? 0 : batch);
    thrust::device_vector<Cell> keys(batch), distinct(batch);
    thrust::device_vector<Index> counts(batch);
    Word* const pa = thrust::raw_pointer_cast(a.data());
    Index* const prank = thrust::raw_pointer_cast(rank.data());
    Index* const ppivot = thrust::raw_pointer_cast(pivot.data());
    const thrust::counting_iterator<Index> index(0);
    auto end = [&](Index count) { return index + static_cast<std::ptrdiff_t>(count); };

    std::vector<long> hist(static_cast<std::size_t>(N * classes), 0L);
    for (Index done = 0; done < total;) {
        const Index m = std::min(batch, total - done);
        for (Index row = 0; row < m * sh.l;) {
            const Index rows = std::min(fill_rows, m * sh.l - row);
            if (!fill(in, raw, static_cast<std::size_t>(rows * sh.per_row), done == 0 && row == 0))
                return std::nullopt;
            thrust::for_each(
                index, end(rows), PackRow{ sh, thrust::raw_pointer_cast(raw.data()), pa, row });
            row += rows;
        }
        if (small) {
            thrust::for_each(index, end(m), SmallRank{ sh, pa, prank });
        } else {
            thrust::fill(rank.begin(), rank.end(), Index(0));
            thrust::fill(pivot.begin(), pivot.end(), sh.l);
            for (Index col = 0; col < sh.k; ++col) {
                thrust::for_each(index, end(m), FindPivot{ sh, pa, prank, ppivot, col });
                thrust::for_each(index, end(m * sh.words), SwapPivot{ sh, pa, prank, ppivot, col });
                thrust::for_each(index, end(m * sh.l), Eliminate{ sh, pa, prank, ppivot, col });
            }
            thrust::for_each(index, end(m), FinishRank{ sh.l, prank, ppivot });
        }
        thrust::transform(index, end(m), keys.begin(), RankKey{ prank, done, n, classes });
        thrust::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m));
        const auto ends
            = thrust::reduce_by_key(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m),
                thrust::constant_iterator<Index>(1), distinct.begin(), counts.begin());
        const std::size_t kinds = static_cast<std::size_t>(ends.first - distinct.begin());
        std::vector<Cell> key(kinds);
        std::vector<Index> number(kinds);
        thrust::copy(
            distinct.begin(), distinct.begin() + static_cast<std::ptrdiff_t>(kinds), key.begin());
        thrust::copy(
            counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(kinds), number.begin());
        const Index base = done / n * classes;
        for (std::size_t i = 0; i < kinds; ++i)
            hist[static_cast<std::size_t>(base + key[i])] += static_cast<long>(number[i]);
        done += m;
    }
    return hist;
}

// ---------------------------------------------------------------------------------------------
// sknuth_CouponCollector, a block at a time (sknuth.c's NRepet; gap.cpp's CouponState): a
// segment reads numbers until its d-th distinct StripL(r, d) value, or until its 61st number,
// and is counted by its length (class 62 for the 61st without all d values). gap.cpp bounds each
// block so that no number past the test's last is read, and joins the blocks in stream order;
// the segment open at a block's end goes on in the next (its length and values seen).
//
// Segments are sequential: where one begins depends on where the one before ended. A block is
// cut into sub-blocks of at least 64 numbers, so that the first segment that begins in a
// sub-block does so at one of its first 61 numbers (a segment reads at most 61). Pass 1: for
// each sub-block and each of these 61 entries, where the segments from that entry leave the
// sub-block (the first segment that begins past its end), one thread per sub-block; the walks
// from later entries stop where they reach a segment start of an earlier one (the same segments
// from there on), so that 61 walks cost little more than one where segments join, and 61 at most
// where they never do (a stream of equal values: segments of 61 numbers keep their offsets).
// Then the host follows the true entries from sub-block to sub-block through these exits (the
// first sub-block's from the segment open before the block), and pass 2 counts each sub-block's
// segments from its true entry, the last one's open segment left for the next block. The counts
// are integers, the CPU path's whatever the order of the work.

// A segment's state: numbers read, the values seen, how many distinct.
struct CouponState {
    Index reads;
    Word seen;
    Index distinct;
};

// The segment classes: lengths 1..61 (d or more in fact), and 62 (61 numbers without all d).
constexpr Index coupon_classes = 63;
// The entries of a sub-block: its first 61 numbers.
constexpr Index coupon_entries = 61;
constexpr unsigned char no_walk = 255;

// StripL(r, d) of a word (at most d <= 61).
struct CouponCell {
    StripL strip;

    RNGVET_HD unsigned char operator()(Word w) const
    {
        return static_cast<unsigned char>(strip(w));
    }
};

// Goes on with segment `s` from cells[p] (p advanced): true and its class where it ends before
// `size`, false where the block ends first.
RNGVET_HD bool coupon_segment(
    const unsigned char* cells, Index size, Index d, Index& p, CouponState& s, Index& cls)
{
    while (p < size) {
        const Word bit = Word(1) << cells[p++];
        if (!(s.seen & bit)) ++s.distinct;
        s.seen |= bit;
        ++s.reads;
        if (s.distinct == d || s.reads == 61) {
            cls = s.distinct == d ? s.reads : 62;
            return true;
        }
    }
    return false;
}

// The sub-blocks of a block of `size` numbers: `count` of `sub` numbers, the last one longer.
struct CouponBlock {
    const unsigned char* cells;
    Index size, sub, count, d;

    RNGVET_HD Index begin(Index j) const { return j * sub; }
    RNGVET_HD Index end(Index j) const { return j + 1 == count ? size : (j + 1) * sub; }
};

// Pass 1, sub-block j (not the last): exits[j 61 + e], where the segments entering at its
// number e leave it (counted from its end); sub-block 0 from the open segment `carry` only
// (exits[0]). walk[x]: the first entry whose segments begin at x.
struct CouponExits {
    CouponBlock b;
    CouponState carry;
    unsigned char* walk;
    unsigned char* exits;

    RNGVET_HD void operator()(Index j) const
    {
        const Index begin = b.begin(j), end = b.end(j);
        if (j == 0) {
            CouponState s = carry;
            Index p = 0, cls = 0;
            while (p < end) {
                coupon_segment(b.cells, b.size, b.d, p, s, cls);
                s = CouponState{ 0, 0, 0 };
            }
            exits[0] = static_cast<unsigned char>(p - end);
            return;
        }
        for (Index x = begin; x < end; ++x)
            walk[x] = no_walk;
        for (Index e = 0; e < coupon_entries; ++e) {
            Index p = begin + e, exit = 0;
            for (;;) {
                if (p >= end) {
                    exit = p - end;
                    break;
                }
                if (walk[p] != no_walk) {
                    exit = exits[j * coupon_entries + walk[p]];
                    break;
                }
                walk[p] = static_cast<unsigned char>(e);
                CouponState s{ 0, 0, 0 };
                Index cls = 0;
                coupon_segment(b.cells, b.size, b.d, p, s, cls);
            }
            exits[j * coupon_entries + e] = static_cast<unsigned char>(exit);
        }
    }
};

// Pass 2, sub-block j: its segments from its true entry (sub-block 0: the open segment `carry`)
// by class, hist[cls count + j]; the last one's open segment into *open.
struct CouponCount {
    CouponBlock b;
    CouponState carry;
    const Index* entry;
    std::int32_t* hist;
    CouponState* open;

    RNGVET_HD void operator()(Index j) const
    {
        for (Index c = 0; c < coupon_classes; ++c)
            hist[c * b.count + j] = 0;
        const Index end = b.end(j);
        CouponState s = j == 0 ? carry : CouponState{ 0, 0, 0 };
        Index p = entry[j], cls = 0;
        while (p < end) {
            if (!coupon_segment(b.cells, b.size, b.d, p, s, cls)) break;
            ++hist[cls * b.count + j];
            s = CouponState{ 0, 0, 0 };
        }
        if (j + 1 == b.count) *open = s;
    }
};

// Item i of the counts' table: its class.
struct ClassOf {
    Index count;

    RNGVET_HD Index operator()(Index i) const { return i / count; }
};

class CouponScan {
public:
    // Sub-blocks of `sub` numbers (at least 64).
    CouponScan(Numbers& in, int r, int d, std::size_t max_words, std::size_t sub = 1024)
        : in_(in)
        , cell_{ strip_for(in, r, d) }
        , d_(static_cast<Index>(d))
        , sub_(std::max<std::size_t>(sub, 64))
        , words_(max_words)
        , cells_(max_words)
        , walk_(max_words)
        , exits_(coupon_entries * count_for(max_words))
        , entry_(count_for(max_words))
        , hist_(coupon_classes * count_for(max_words))
        , open_(1)
        , sums_(coupon_classes)
        , classes_(coupon_classes)
        , exits_host_(exits_.size())
        , entry_host_(entry_.size())
    {
    }
    std::size_t max_words() const { return words_.size(); }

    // Reads the next `size` words (at most max_words) and follows the segments through them from
    // the open one (reads, seen, distinct; updated): by_class[0..62] the segments that end, by
    // class. False, with nothing read, where the first fill of the test finds no device memory
    // to write.
    bool scan(std::size_t size, long& reads, std::uint64_t& seen, int& distinct,
        std::vector<long>& by_class)
    {
        if (!fill(in_, words_, size, first_fill_)) return false;
        first_fill_ = false;
        const Index count = static_cast<Index>(count_for(size));
        thrust::transform(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(size),
            cells_.begin(), cell_);
        const CouponBlock b{ thrust::raw_pointer_cast(cells_.data()), static_cast<Index>(size),
            static_cast<Index>(sub_), count, d_ };
        const CouponState carry{ static_cast<Index>(reads), seen, static_cast<Index>(distinct) };
        const thrust::counting_iterator<Index> index(0);

        // The true entries, sub-block after sub-block, through the exits.
        entry_host_[0] = 0;
        if (count > 1) {
            thrust::for_each(index, index + static_cast<std::ptrdiff_t>(count - 1),
                CouponExits{ b, carry, thrust::raw_pointer_cast(walk_.data()),
                    thrust::raw_pointer_cast(exits_.data()) });
            const std::ptrdiff_t table = static_cast<std::ptrdiff_t>(coupon_entries * (count - 1));
            thrust::copy(exits_.begin(), exits_.begin() + table, exits_host_.begin());
            Index at = 0; // the entry's number in its sub-block
            for (Index j = 0; j + 1 < count; ++j) {
                at = exits_host_[static_cast<std::size_t>(j * coupon_entries + at)];
                entry_host_[static_cast<std::size_t>(j + 1)] = b.end(j) + at;
            }
            thrust::copy(entry_host_.begin(),
                entry_host_.begin() + static_cast<std::ptrdiff_t>(count), entry_.begin());
        } else {
            entry_[0] = 0;
        }

        // The segments of each sub-block, summed by class.
        const std::ptrdiff_t cells = static_cast<std::ptrdiff_t>(coupon_classes * count);
        thrust::for_each(index, index + static_cast<std::ptrdiff_t>(count),
            CouponCount{ b, carry, thrust::raw_pointer_cast(entry_.data()),
                thrust::raw_pointer_cast(hist_.data()), thrust::raw_pointer_cast(open_.data()) });
        thrust::reduce_by_key(thrust::make_transform_iterator(index, ClassOf{ count }),
            thrust::make_transform_iterator(index + cells, ClassOf{ count }), hist_.begin(),
            classes_.begin(), sums_.begin());
        std::vector<std::int32_t> sums(coupon_classes);
        thrust::copy(sums_.begin(), sums_.end(), sums.begin());
        for (std::size_t c = 0; c < sums.size(); ++c)
            by_class[c] = sums[c];
        const CouponState open = open_[0];
        reads = static_cast<long>(open.reads);
        seen = open.seen;
        distinct = static_cast<int>(open.distinct);
        return true;
    }

private:
    std::size_t count_for(std::size_t size) const { return std::max<std::size_t>(1, size / sub_); }

    Numbers& in_;
    CouponCell cell_;
    Index d_;
    std::size_t sub_;
    bool first_fill_ = true;
    thrust::device_vector<Word> words_;
    thrust::device_vector<unsigned char> cells_, walk_, exits_;
    thrust::device_vector<Index> entry_;
    thrust::device_vector<std::int32_t> hist_;
    thrust::device_vector<CouponState> open_;
    thrust::device_vector<std::int32_t> sums_;
    thrust::device_vector<Index> classes_;
    std::vector<unsigned char> exits_host_;
    std::vector<Index> entry_host_;
};

} // namespace rngvet::native::device_counts
