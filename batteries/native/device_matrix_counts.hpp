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
// cut into sub-blocks, each scanned by one thread (pass A): the first from the open segment, the
// others as if a segment began at their first number, marking where their segments begin. Each
// sub-block after the first then follows the segments that really enter it, from the end of the
// one before (pass B, as if that one's scan was right), until one of them begins where a marked
// one does: from there on both are the same segments, so the sub-block's counts are corrected by
// the segments before that point, and it ends where its scan ended. Where no such point comes
// (segments of 61 numbers, of a stream of equal values, keep their offsets), the sub-block ends
// elsewhere and the next is followed again from its true entry, one sub-block after the other.
// The counts are integers, the CPU path's whatever the order of the work.

// A segment's state: numbers read, the values seen, how many distinct.
struct CouponState {
    Index reads;
    Word seen;
    Index distinct;
};

// The segment classes: lengths 1..61 (d or more in fact), and 62 (61 numbers without all d).
constexpr Index coupon_classes = 63;
constexpr unsigned char not_a_start = 255;

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

// The sub-blocks of a block of `size` numbers: `count` of `sub` numbers, the last one longer
// (sub >= 64, so that a segment that begins in one of them ends before the block's last
// sub-block ends, or in it).
struct CouponBlock {
    const unsigned char* cells;
    unsigned char* start; // where a segment of a sub-block's scan begins: its class
    std::int32_t* hist; // hist[cls count + j]: sub-block j's segments by class
    Index* exit_scan; // where the segment after sub-block j's last begins (its scan)
    Index* exit_true; // the same for the segments that really enter it
    CouponState* open; // [0]: the last sub-block's open segment by its scan, [1]: really
    Index* last_joined; // whether the last sub-block's segments joined its scan's
    Index size, sub, count, d;

    RNGVET_HD Index begin(Index j) const { return j * sub; }
    RNGVET_HD Index end(Index j) const { return j + 1 == count ? size : (j + 1) * sub; }
};

// Pass A: sub-block j's scan (the first from the open segment `carry`).
struct CouponScanPass {
    CouponBlock b;
    CouponState carry;

    RNGVET_HD void operator()(Index j) const
    {
        const Index end = b.end(j);
        for (Index x = b.begin(j); x < end; ++x)
            b.start[x] = not_a_start;
        for (Index c = 0; c < coupon_classes; ++c)
            b.hist[c * b.count + j] = 0;
        CouponState s = j == 0 ? carry : CouponState{ 0, 0, 0 };
        Index p = b.begin(j), cls = 0;
        while (p < end) {
            const Index at = p;
            if (!coupon_segment(b.cells, b.size, b.d, p, s, cls)) break;
            ++b.hist[cls * b.count + j];
            b.start[at] = static_cast<unsigned char>(cls);
            s = CouponState{ 0, 0, 0 };
        }
        if (j + 1 == b.count) b.open[0] = s;
        b.exit_scan[j] = p;
        b.exit_true[j] = p;
    }
};

// Pass B: the segments that enter sub-block j (>= 1) at `entry`, as corrections corr[cls count
// + j] to its scan's counts. Items: j - 1 (entries exit_scan[j - 1]) or, with one_j, that
// sub-block alone from one_entry.
struct CouponJoinPass {
    CouponBlock b;
    std::int32_t* corr;
    bool one;
    Index one_j, one_entry;

    RNGVET_HD void operator()(Index item) const
    {
        const Index j = one ? one_j : item + 1;
        Index q = one ? one_entry : b.exit_scan[j - 1];
        const Index end = b.end(j);
        for (Index c = 0; c < coupon_classes; ++c)
            corr[c * b.count + j] = 0;
        bool joined = false;
        CouponState s{ 0, 0, 0 };
        while (q < end) {
            if (b.start[q] != not_a_start) {
                joined = true;
                break;
            }
            Index cls = 0;
            if (!coupon_segment(b.cells, b.size, b.d, q, s, cls)) break;
            ++corr[cls * b.count + j];
            s = CouponState{ 0, 0, 0 };
        }
        const Index limit = joined ? q : end;
        for (Index x = b.begin(j); x < limit; ++x)
            if (b.start[x] != not_a_start) --corr[Index(b.start[x]) * b.count + j];
        b.exit_true[j] = joined ? b.exit_scan[j] : q;
        if (j + 1 == b.count) {
            *b.last_joined = joined ? 1 : 0;
            if (!joined) b.open[1] = s;
        }
    }
};

// 1 where sub-block j's segments end elsewhere than its scan's.
struct ExitMoved {
    const Index* exit_scan;
    const Index* exit_true;

    RNGVET_HD Index operator()(Index j) const { return exit_scan[j] != exit_true[j] ? 1 : 0; }
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
        , start_(max_words)
        , hist_(coupon_classes * count_for(max_words))
        , corr_(hist_.size())
        , exit_scan_(count_for(max_words))
        , exit_true_(exit_scan_.size())
        , open_(2)
        , last_joined_(1)
        , sums_(coupon_classes)
        , classes_(coupon_classes)
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
        const Index n = static_cast<Index>(size);
        const Index count = static_cast<Index>(count_for(size));
        thrust::transform(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(size),
            cells_.begin(), cell_);
        const CouponBlock b{ thrust::raw_pointer_cast(cells_.data()),
            thrust::raw_pointer_cast(start_.data()), thrust::raw_pointer_cast(hist_.data()),
            thrust::raw_pointer_cast(exit_scan_.data()),
            thrust::raw_pointer_cast(exit_true_.data()), thrust::raw_pointer_cast(open_.data()),
            thrust::raw_pointer_cast(last_joined_.data()), n, static_cast<Index>(sub_), count, d_ };
        const CouponState carry{ static_cast<Index>(reads), seen, static_cast<Index>(distinct) };
        const thrust::counting_iterator<Index> index(0);
        const std::ptrdiff_t cells = static_cast<std::ptrdiff_t>(coupon_classes * count);
        thrust::for_each(
            index, index + static_cast<std::ptrdiff_t>(count), CouponScanPass{ b, carry });
        thrust::fill(corr_.begin(), corr_.begin() + cells, 0);
        std::int32_t* corr = thrust::raw_pointer_cast(corr_.data());
        bool last_joined = true;
        if (count > 1) {
            thrust::for_each(index, index + static_cast<std::ptrdiff_t>(count - 1),
                CouponJoinPass{ b, corr, false, 0, 0 });
            const Index moved
                = thrust::transform_reduce(index, index + static_cast<std::ptrdiff_t>(count - 1),
                    ExitMoved{ b.exit_scan, b.exit_true }, Index(0), thrust::plus<Index>());
            if (moved > 0) {
                // Some sub-blocks' segments did not join their scan's: follow the true entries
                // one sub-block after the other.
                std::vector<Index> scan_exit(count), true_exit(count);
                thrust::copy(exit_scan_.begin(),
                    exit_scan_.begin() + static_cast<std::ptrdiff_t>(count), scan_exit.begin());
                thrust::copy(exit_true_.begin(),
                    exit_true_.begin() + static_cast<std::ptrdiff_t>(count), true_exit.begin());
                Index entry = true_exit[0];
                for (Index j = 1; j < count; ++j) {
                    if (entry != scan_exit[j - 1]) {
                        thrust::for_each(
                            index, index + 1, CouponJoinPass{ b, corr, true, j, entry });
                        true_exit[j] = exit_true_[static_cast<std::size_t>(j)];
                    }
                    entry = true_exit[j];
                }
            }
            last_joined = last_joined_[0] != 0;
        }
        // The block's counts: scans and corrections, summed by class.
        thrust::transform(hist_.begin(), hist_.begin() + cells, corr_.begin(), hist_.begin(),
            thrust::plus<std::int32_t>());
        thrust::reduce_by_key(thrust::make_transform_iterator(index, ClassOf{ count }),
            thrust::make_transform_iterator(index + cells, ClassOf{ count }), hist_.begin(),
            classes_.begin(), sums_.begin());
        std::vector<std::int32_t> sums(coupon_classes);
        thrust::copy(sums_.begin(), sums_.end(), sums.begin());
        for (std::size_t c = 0; c < sums.size(); ++c)
            by_class[c] = sums[c];
        const CouponState open = open_[last_joined ? 0 : 1];
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
    thrust::device_vector<unsigned char> cells_, start_;
    thrust::device_vector<std::int32_t> hist_, corr_;
    thrust::device_vector<Index> exit_scan_, exit_true_;
    thrust::device_vector<CouponState> open_;
    thrust::device_vector<Index> last_joined_;
    thrust::device_vector<std::int32_t> sums_;
    thrust::device_vector<Index> classes_;
};

} // namespace rngvet::native::device_counts
