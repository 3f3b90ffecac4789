// Native snpair_ClosePairs and snpair_ClosePairsBitMatch (close_pairs.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): snpair.c (snpair_ClosePairs,
// snpair_ClosePairsBitMatch, CalcSeuils, snpair_QuickSort, snpair_FindClosePairs,
// snpair_CheckBoundary, dlimSlice, snpair_VerifPairs1, snpair_MiniProc1, snpair_DistanceCP,
// snpair_DistanceCPBitM), unif01.c (unif01_StripD), mylib/num2.c (num2_VolumeSphere),
// probdist/gofs.c, fbar.c, fdist.c, fmass.c, gofw.c; the battery rows from bbattery.c (Crush
// 18-22, BigCrush 22-25) and its GetPVal_CPairs.
//
// TestU01's search for the closest pairs narrows its bound (dlim) as it finds pairs, and which
// pairs it measures depends on that bound, on the order its sorts leave points with equal keys
// in, and on its rounded comparisons of coordinates; the distances it records (and, beyond
// 50000 of them, which it keeps) depend on all of that. So the search here is TestU01's own
// divide-and-conquer, step for step: the same sorts (Hoare's partition around the middle key,
// the same swaps), the same slices, the same pairs measured in the same order with the same
// operations, the same list of recorded distances. What differs is the work's form: each
// level's table holds (key, point) entries instead of pointers to points, so that sorts and
// scans read memory in order; a table is sorted by buckets and radix passes first, and where its
// keys are all distinct that is TestU01's table (a sequence of distinct keys has one sorted
// order), while Hoare's steps are taken only in the ranges that hold equal keys (their
// partitions find the positions to swap a block at a time: the same swaps); the sup norm's
// distance is preceded by an integer pre-filter on one or two other coordinates' fractions, held
// in the table entries, that discards only pairs TestU01 measures and discards; and the N
// replications, independent once their points are read, run in parallel. The statistics are then
// computed in replication order with TestU01's operations and its own functions (gofs, fbar,
// fdist, fmass, gofw, tables).
#include "close_pairs.hpp"

#include "families.hpp"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fdist.h>
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/num2.h>
#include <testu01/tables.h>
}

namespace rngvet::native {

namespace {

// snpair.c's NUM_JUMPS_LIM: the most distances a replication records.
constexpr int num_jumps_lim = 50000;

// The search's parameters: snpair.c's WorkType fields that stay fixed during a test.
struct SearchParams {
    bool bit_match = false; // snpair_DistanceCPBitM, else snpair_DistanceCP
    bool torus = false;
    int kk = 0; // dimension
    int pp = 0; // the norm's p (0: sup norm)
    int mm = 0; // distances kept
    int L1 = 0, L2 = 0;
    int Maxnp = 0;
    double dlim1 = 0, dlim1p = 0, pLR = 0, Invp = 0;
    double dlim0 = 0; // the initial dlim (and dlimp)
};

// CalcSeuils (snpair.c): L1, L2, dlim1 and dlim1p.
void calc_seuils(SearchParams& w, long k, long m, double mu2, double nLR)
{
    w.L1 = static_cast<int>(1 + num_Log2(nLR / snpair_env.Seuil3) / static_cast<double>(k));
    w.L2 = static_cast<int>(1 + num_Log2(nLR / snpair_env.Seuil4) / static_cast<double>(k));
    if (w.L1 < 1) w.L1 = 1;
    if (w.L2 < 1) w.L2 = 1;
    if (k < 6 && w.L1 < 2) w.L1 = 2;
    if (k < 6 && w.L2 < 2) w.L2 = 2;
    w.dlim1 = std::pow(static_cast<double>(m) * mu2, 1.0 / static_cast<double>(k));
    w.dlim1p = std::pow(w.dlim1, w.pLR);
}

// A level's table entry: a point (1-based), its coordinate the level is sorted by, and one or two
// others (PairSearch::aux) as fixed-point fractions, for the sup norm's pre-filter (in what would
// otherwise be the entry's padding).
struct Entry {
    double key;
    std::uint32_t id;
    std::uint32_t aux;
};

// The searches' distances: snpair_DistanceCP with p = 0 in the torus, with any p, and
// snpair_DistanceCPBitM.
enum DistanceKind { sup_cp, any_cp, bit_match };

// One replication's search (snpair_FindClosePairs and what it calls) on n points of kk
// coordinates, point i's at coords[i * kk ...] (i = 1..n).
class PairSearch {
public:
    PairSearch(const SearchParams& w, long n)
        : w_(w)
        , n_(n)
        , coords_(static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(w.kk))
    {
        for (int level = 1; level <= w_.Maxnp; ++level)
            points_[level].resize(static_cast<std::size_t>(n + 1));
        sorted_.resize(static_cast<std::size_t>(n + 1));
        spare_.resize(static_cast<std::size_t>(n + 1));
        digits_.resize(static_cast<std::size_t>(n + 1));
    }

    double* coords() { return coords_.data(); }

    // One replication on the points in coords(): TestU01's loop body from res->NumClose = 0 to
    // snpair_FindClosePairs's return.
    void run()
    {
        num_close_ = 0;
        dlim_ = dlimp_ = w_.dlim0;
        y_lim_ = 0;
        close_dist_.assign(static_cast<std::size_t>(2 * w_.mm + 1), 0.0);
        Entry* A = points_[1].data();
        // The pre-filter's fractions need coordinates in [0, 1), as unif01_StripD gives.
        // Two 16-bit fractions where dlim stays at least 2^-8 (it never falls below dlim1) and
        // there are two coordinates other than the key, else one 32-bit fraction.
        if (!std::all_of(coords_.begin() + w_.kk, coords_.end(),
                [](double x) { return x >= 0.0 && x < 1.0; }))
            filter_ = no_filter;
        else if (w_.kk >= 3 && w_.dlim1 >= 1.0 / 256)
            filter_ = two16;
        else
            filter_ = one32;
        set_filter_bound();
        fill_table(nullptr, A, 1, n_, 1);
        sort_table(A, 1, n_, nullptr, 1);
        // The points renumbered in that order (an entry's number only says where its
        // coordinates are): every range the search works on holds the points of one range of the
        // first table, so their coordinates lie together in memory.
        const std::size_t kk = static_cast<std::size_t>(w_.kk);
        renumbered_.resize(coords_.size());
        for (long i = 1; i <= n_; ++i) {
            const double* from = point(A[i].id);
            std::copy(from, from + kk, renumbered_.data() + static_cast<std::size_t>(i) * kk);
            A[i].id = static_cast<std::uint32_t>(i);
        }
        coords_.swap(renumbered_);
        if (w_.bit_match)
            find_close_pairs<bit_match>(1, n_, 1, 1, 1);
        else if (w_.pp == 0 && w_.torus)
            find_close_pairs<sup_cp>(1, n_, 1, 1, 1);
        else
            find_close_pairs<any_cp>(1, n_, 1, 1, 1);
    }

    // res->CloseDist[1..NumClose] (ClosePairs) and YLim (BitMatch) after run().
    const std::vector<double>& close_dist() const { return close_dist_; }
    int num_close() const { return num_close_; }
    int y_lim() const { return y_lim_; }

private:
    std::size_t coord_index(std::uint32_t id, int c) const
    {
        return static_cast<std::size_t>(id) * static_cast<std::size_t>(w_.kk)
            + static_cast<std::size_t>(c - 1);
    }
    double coord(std::uint32_t id, int c) const { return coords_[coord_index(id, c)]; }
    static void prefetch(const void* p)
    {
#if defined(__GNUC__)
        __builtin_prefetch(p);
#else
        (void)p;
#endif
    }
    const double* point(std::uint32_t id) const
    {
        return coords_.data() + static_cast<std::size_t>(id) * static_cast<std::size_t>(w_.kk);
    }

    // snpair_QuickSort's partition of A[l..r] around `pivot` (its do-while loop), setting i and j
    // as that loop leaves them. Hoare's loop swaps the k-th position from the left whose key is
    // not below the pivot with the k-th from the right whose key is not above it, for as long as
    // the first lies at or left of the second; those positions are found here a block at a time
    // without a branch per key (as in BlockQuicksort), then swapped in the same pairs, and the
    // loop's last scans are run as it runs them. The same swaps, so the same table.
    static void partition(Entry* A, long l, long r, double pivot, long& i_out, long& j_out)
    {
        constexpr int block = 128;
        unsigned char off_left[block], off_right[block];
        int n_left = 0, s_left = 0, n_right = 0, s_right = 0;
        long next_left = l, next_right = r; // the next positions to classify
        long base_left = l, base_right = r;
        long last_left = l - 1, last_right = r + 1; // the last pair swapped
        long pairs = 0;
        while (true) {
            if (s_left == n_left) {
                if (next_left > r) break;
                const long end = std::min(next_left + block - 1, r);
                n_left = s_left = 0;
                base_left = next_left;
                for (long p = next_left; p <= end; ++p) {
                    off_left[n_left] = static_cast<unsigned char>(p - base_left);
                    n_left += !(A[p].key < pivot);
                }
                next_left = end + 1;
                continue;
            }
            if (s_right == n_right) {
                if (next_right < l) break;
                const long end = std::max(next_right - block + 1, l);
                n_right = s_right = 0;
                base_right = next_right;
                for (long p = next_right; p >= end; --p) {
                    off_right[n_right] = static_cast<unsigned char>(base_right - p);
                    n_right += !(pivot < A[p].key);
                }
                next_right = end - 1;
                continue;
            }
            const long pl = base_left + off_left[s_left];
            const long pr = base_right - off_right[s_right];
            if (pl > pr) break;
            std::swap(A[pl], A[pr]);
            last_left = pl;
            last_right = pr;
            ++pairs;
            ++s_left;
            ++s_right;
        }
        long i = last_left + 1, j = last_right - 1;
        if (pairs == 0 || i <= j) {
            while (A[i].key < pivot)
                ++i;
            while (pivot < A[j].key)
                --j;
            if (i <= j) throw std::logic_error("close_pairs: partition out of step");
        }
        i_out = i;
        j_out = j;
    }

    // Ranges of at most this many entries are first sorted by insertion.
    static constexpr long small_sort = 32;

    // Sorts A[l..r] (at most small_sort entries) by insertion if their keys are distinct: a
    // sequence of distinct keys has one sorted order, snpair_QuickSort's too. False, with A[l..r]
    // as it was, where two keys are equal (their order is then snpair_QuickSort's to decide).
    static bool sort_distinct(Entry* A, long l, long r)
    {
        Entry sorted[small_sort];
        const long m = r - l + 1;
        for (long i = 0; i < m; ++i) {
            const Entry e = A[l + i];
            long j = i;
            while (j > 0 && e.key < sorted[j - 1].key) {
                sorted[j] = sorted[j - 1];
                --j;
            }
            if (j > 0 && !(sorted[j - 1].key < e.key)) return false; // equal keys
            sorted[j] = e;
        }
        std::copy(sorted, sorted + m, A + l);
        return true;
    }

    // snpair_QuickSort (A, l, r, c) on the entries' keys: the same partitions and swaps, so the
    // same order of equal keys. The two parts of a partition are disjoint, so sorting the
    // smaller first (bounding the depth) leaves the same table.
    //
    // With `sorted` (A[l..r] sorted by sort_table into sorted[l..r], the positions p where
    // sorted[p] and sorted[p + 1] have equal keys in ties_), a range whose keys are distinct
    // from each other and from those outside it is not sorted step by step: its entries are
    // sorted's. Each range Hoare's partitions leave holds the keys of the same ranks as in
    // sorted (a partition puts no key of its left part above one of its right part), so a
    // range [a, b] with no tie at a - 1 .. b holds exactly the entries sorted[a..b], and in
    // their one sorted order.
    void quick_sort(Entry* A, long l, long r, const Entry* sorted = nullptr)
    {
        while (true) {
            if (sorted && distinct_ranks(l, r)) {
                std::copy(sorted + l, sorted + r + 1, A + l);
                return;
            }
            if (r - l < small_sort && sort_distinct(A, l, r)) return;
            long i = l, j = r;
            const double pivot = A[(l + r) / 2].key;
            if (r - l >= 64) {
                partition(A, l, r, pivot, i, j);
            } else {
                do {
                    while (A[i].key < pivot)
                        ++i;
                    while (pivot < A[j].key)
                        --j;
                    if (i <= j) {
                        std::swap(A[i], A[j]);
                        ++i;
                        --j;
                    }
                } while (i <= j);
            }
            const bool left = l < j, right = i < r;
            if (left && right) {
                if (j - l < r - i) {
                    quick_sort(A, l, j, sorted);
                    l = i;
                } else {
                    quick_sort(A, i, r, sorted);
                    r = j;
                }
            } else if (left) {
                r = j;
            } else if (right) {
                l = i;
            } else {
                return;
            }
        }
    }

    // Whether no tie of ties_ lies at a - 1 .. b.
    bool distinct_ranks(long a, long b) const
    {
        const auto it = std::lower_bound(ties_.begin(), ties_.end(), a - 1);
        return it == ties_.end() || *it > b;
    }

    // Ranges of at least this many entries are sorted by sort_small or sort_keys first.
    static constexpr long bucket_sort_min = 16;
    static constexpr long radix_sort_min = 8192;

    // snpair_QuickSort (A, l, r, c): the table quick_sort leaves. The keys are first sorted
    // by sort_small or sort_keys (any sort: distinct keys have one sorted order); where they are
    // all distinct, that is the table, and otherwise quick_sort takes Hoare's steps only in the
    // ranges that hold equal keys. A[l..r] as fill_table(parent, A, l, r, c) leaves it.
    void sort_table(Entry* A, long l, long r, const Entry* parent, int c)
    {
        const long m = r - l + 1;
        if (m < bucket_sort_min) {
            quick_sort(A, l, r);
            return;
        }
        Entry* sorted = sorted_.data();
        ties_.clear();
        if (m < radix_sort_min) {
            sort_small(A + l, sorted + l, digits_.data(), m);
            for (long p = l; p < r; ++p)
                if (!(sorted[p].key < sorted[p + 1].key)) ties_.push_back(p);
            if (ties_.empty())
                std::copy(sorted + l, sorted + r + 1, A + l);
            else
                quick_sort(A, l, r, sorted);
            return;
        }
        // Large tables are sorted in place (sort_keys reads its source wholly before writing
        // there), and where keys are equal, the sorted table is set aside and A[l..r] filled
        // again for Hoare's steps.
        sort_keys(A + l, A + l, spare_.data() + l, digits_.data(), m);
        for (long p = l; p < r; ++p)
            if (!(A[p].key < A[p + 1].key)) ties_.push_back(p);
        if (ties_.empty()) return;
        std::copy(A + l, A + r + 1, sorted + l);
        fill_table(parent, A, l, r, c);
        quick_sort(A, l, r, sorted);
    }

    // A table's entries before its sort: CopyPoints (parent, B, l, r, c), or where parent is
    // null, the first table (points 1..n by their first coordinate) at l..r.
    void fill_table(const Entry* parent, Entry* B, long l, long r, int c) const
    {
        if (parent) {
            copy_points(parent, B, l, r, c);
            return;
        }
        for (long i = l; i <= r; ++i) {
            const auto id = static_cast<std::uint32_t>(i);
            B[i] = { coord(id, 1), id, aux(id, 1) };
        }
    }

    // Sorts A[0..m-1] by key by insertion (equal keys in any order).
    static void insertion_sort(Entry* A, long m)
    {
        for (long i = 1; i < m; ++i) {
            const Entry e = A[i];
            long j = i;
            while (j > 0 && e.key < A[j - 1].key) {
                A[j] = A[j - 1];
                --j;
            }
            A[j] = e;
        }
    }

    // Sorts A[0..m-1] by key (equal keys in any order), any way.
    static void sort_any(Entry* A, long m)
    {
        if (m <= small_sort)
            insertion_sort(A, m);
        else
            std::sort(A, A + m, [](const Entry& a, const Entry& b) { return a.key < b.key; });
    }

    // src[0..m-1] sorted by key into out[0..m-1] (equal keys in any order; m < small_sort_max):
    // spread into about m / 2 buckets by (key - lowest) * scale, truncated (a bucket does not
    // decrease as the key grows: each operation is monotonic), then sorted by insertion, which only
    // moves entries within their buckets.
    static constexpr long small_sort_max = 1 << 14;
    static void sort_small(const Entry* src, Entry* out, std::uint16_t* digit, long m)
    {
        double lo = src[0].key, hi = src[0].key;
        for (long i = 1; i < m; ++i) {
            lo = src[i].key < lo ? src[i].key : lo;
            hi = src[i].key > hi ? src[i].key : hi;
        }
        const long buckets = m / 2;
        const double scale = static_cast<double>(buckets) / (hi - lo);
        if (!(hi > lo && scale < 1e300)) {
            std::copy(src, src + m, out);
            sort_any(out, m);
            return;
        }
        std::uint32_t next[small_sort_max / 2];
        std::fill(next, next + buckets, 0u);
        for (long i = 0; i < m; ++i) {
            const long b = std::min(buckets - 1, static_cast<long>((src[i].key - lo) * scale));
            digit[i] = static_cast<std::uint16_t>(b);
            ++next[b];
        }
        std::uint32_t sum = 0;
        for (long b = 0; b < buckets; ++b) {
            const std::uint32_t size = next[b];
            next[b] = sum;
            sum += size;
        }
        for (long i = 0; i < m; ++i)
            out[next[digit[i]]++] = src[i];
        insertion_sort(out, m);
    }

    // The most digit bits of a radix pass.
    static constexpr int radix_bits = 11;

    // One radix pass: src[0..m-1] spread into dst by a digit of the keys as 63-bit fixed-point
    // fractions (key * 2^63, truncated: a digit does not decrease as the key grows), the at most
    // `bits` bits just below those all the keys share; bucket b at dst[start[b] .. start[b + 1]
    // - 1]. The number of buckets; 0 where the keys do not all lie in [0, 1) or their fractions
    // are all equal (then dst is not written). digit[0..m-1] is scratch.
    static int radix_pass(
        const Entry* src, Entry* dst, long m, int bits, std::uint32_t* start, std::uint16_t* digit)
    {
        double lo_key = src[0].key, hi_key = src[0].key;
        for (long i = 1; i < m; ++i) {
            lo_key = src[i].key < lo_key ? src[i].key : lo_key;
            hi_key = src[i].key > hi_key ? src[i].key : hi_key;
        }
        if (!(lo_key >= 0.0 && hi_key < 1.0)) return 0;
        constexpr double scale = 9223372036854775808.0; // 2^63
        const auto fixed = [](double key) {
            return static_cast<std::uint64_t>(static_cast<std::int64_t>(key * scale));
        };
        const std::uint64_t lo = fixed(lo_key), hi = fixed(hi_key);
        if (lo == hi) return 0;
        int top = 64;
        while (!((lo ^ hi) >> (top - 1)))
            --top; // the keys' fractions share the bits from top up
        bits = std::min(bits, top);
        const int shift = top - bits;
        const std::uint64_t base = lo >> shift;
        const int buckets = 1 << bits;
        std::uint32_t next[1 << radix_bits];
        std::fill(next, next + buckets, 0u);
        for (long i = 0; i < m; ++i) {
            const auto d = static_cast<std::uint16_t>((fixed(src[i].key) >> shift) - base);
            digit[i] = d;
            ++next[d];
        }
        std::uint32_t sum = 0;
        for (int b = 0; b < buckets; ++b) {
            start[b] = sum;
            sum += next[b];
            next[b] = start[b];
        }
        start[buckets] = sum;
        for (long i = 0; i < m; ++i)
            dst[next[digit[i]]++] = src[i];
        return buckets;
    }

    // The digit bits for a pass over m entries: about `per` entries a bucket.
    static int pass_bits(long m, long per)
    {
        int bits = 1;
        while (bits < radix_bits && (per << (bits + 1)) <= m)
            ++bits;
        return bits;
    }

    // src[0..m-1] sorted by key into out[0..m-1] (equal keys in any order), by two radix passes
    // (src into spare, each bucket back into out) and insertion sorts; out may be src (which is
    // read wholly before out is written), else src is left as it was.
    static void sort_keys(const Entry* src, Entry* out, Entry* spare, std::uint16_t* digit, long m)
    {
        std::uint32_t start[(1 << radix_bits) + 1], sub[(1 << radix_bits) + 1];
        const int buckets = radix_pass(src, spare, m, pass_bits(m, 8), start, digit);
        if (buckets == 0) {
            if (out != src) std::copy(src, src + m, out);
            sort_any(out, m);
            return;
        }
        for (int b = 0; b < buckets; ++b) {
            const long size = static_cast<long>(start[b + 1] - start[b]);
            const Entry* from = spare + start[b];
            Entry* to = out + start[b];
            if (size <= small_sort) {
                std::copy(from, from + size, to);
                insertion_sort(to, size);
                continue;
            }
            if (size < small_sort_max) {
                sort_small(from, to, digit, size);
                continue;
            }
            const int parts = radix_pass(from, to, size, pass_bits(size, 4), sub, digit);
            if (parts == 0) {
                std::copy(from, from + size, to);
                sort_any(to, size);
                continue;
            }
            for (int s = 0; s < parts; ++s)
                sort_any(to + sub[s], static_cast<long>(sub[s + 1] - sub[s]));
        }
    }

    // CopyPoints (A, B, r, s) into a table sorted by coordinate c next.
    void copy_points(const Entry* A, Entry* B, long r, long s, int c) const
    {
        // The points' coordinates lie far apart: fetched some entries ahead.
        constexpr long ahead = 16;
        for (long i = r; i <= s; ++i) {
            if (i + ahead <= s) prefetch(&coords_[coord_index(A[i + ahead].id, c)]);
            B[i] = { coord(A[i].id, c), A[i].id, aux(A[i].id, c) };
        }
    }

    // The pre-filter's forms: none (a coordinate outside [0, 1)), one coordinate's 32-bit
    // fraction, two coordinates' 16-bit fractions (high and low halves).
    enum Filter { no_filter, one32, two16 };

    // The next coordinate after c (cyclically).
    int next_coord(int c) const
    {
        return c < w_.kk ? c + 1 : 1;
    }

    // The fractions of point id that a table sorted by coordinate c holds: of the one or two
    // coordinates after c (those the search has not yet narrowed, in most of its steps).
    std::uint32_t aux(std::uint32_t id, int c) const
    {
        const int a = next_coord(c);
        if (filter_ == two16)
            return fraction(coord(id, a), 16) << 16 | fraction(coord(id, next_coord(a)), 16);
        return filter_ == one32 ? fraction(coord(id, a), 32) : 0;
    }

    // x in [0, 1) as a fixed-point fraction of `bits` bits: floor(x * 2^bits) (the product is
    // exact).
    static std::uint32_t fraction(double x, int bits)
    {
        return static_cast<std::uint32_t>(
            static_cast<std::int64_t>(x * static_cast<double>(std::int64_t(1) << bits)));
    }

    // The pre-filter's bound for the current dlimp in units of 2^-bits: floor(dlimp * 2^bits) +
    // 3, or more than any torus distance of two fractions (2^(bits - 1)) where dlimp >= 1/2.
    void set_filter_bound()
    {
        const int bits = filter_ == two16 ? 16 : 32;
        filter_bound_
            = dlimp_ < 0.5 ? fraction(dlimp_, bits) + 3 : (filter_ == two16 ? 0xFFFFu : UINT32_MAX);
    }

    // The distance of the search (Kind: sup_cp, any_cp or bit_match) between two entries'
    // points.
    //
    // The sup norm's pre-filter: snpair_DistanceCP in the torus with p = 0 discards the pair
    // (records nothing, changes no bound) exactly when some coordinate's computed distance temp
    // (|x1 - x2|, then 1 - that above 1/2) is at least dlimp: distp is the running maximum of
    // the temps, and it returns as soon as distp >= dlimp or after the loop where not distp <
    // dlimp. With b-bit fractions q = floor(x * 2^b) and D = min(|q1 - q2|, 2^b - |q1 - q2|)
    // (their torus distance, by unsigned wrap), the exact torus distance of x1 and x2 exceeds
    // (D - 1) * 2^-b, and the computed temp is below it by less than 2^-52 (the subtraction and
    // 1 - temp each round by at most half an ulp of values below 1). So D >= floor(dlimp * 2^b)
    // + 3, that is (D - 1) * 2^-b >= dlimp + 2^-b, gives temp > dlimp + 2^-b - 2^-52 > dlimp for
    // that coordinate: a pair TestU01 measures and discards, discarded here without reading its
    // points.
    template <int Kind> void distance(const Entry& a, const Entry& b)
    {
        if (Kind == sup_cp && filter_ == one32) {
            const std::uint32_t d = a.aux - b.aux;
            if (std::min(d, 0u - d) >= filter_bound_) return;
        } else if (Kind == sup_cp && filter_ == two16) {
            const auto d1 = static_cast<std::uint16_t>((a.aux >> 16) - (b.aux >> 16));
            const auto d2 = static_cast<std::uint16_t>(a.aux - b.aux);
            const auto t1 = std::min(d1, static_cast<std::uint16_t>(-d1));
            const auto t2 = std::min(d2, static_cast<std::uint16_t>(-d2));
            if (std::max(t1, t2) >= filter_bound_) return;
        }
        if (Kind == bit_match)
            distance_bit_match(point(a.id), point(b.id));
        else
            distance_cp<Kind == sup_cp>(point(a.id), point(b.id));
    }

    // snpair_DistanceCP (Sup: p = 0 in the torus, the battery's form, its tests on pp and
    // Torus known beforehand).
    template <bool Sup> void distance_cp(const double* P1, const double* P2)
    {
        double distp = 0.0;
        for (int i = 0; i < w_.kk; ++i) {
            double temp = P1[i] - P2[i];
            if (temp < 0.0) temp = -temp;
            if ((Sup || w_.torus) && temp > 0.5) temp = 1.0 - temp;
            if (Sup || w_.pp == 0) {
                if (temp > distp) distp = temp;
            } else if (w_.pp == 1)
                distp += temp;
            else if (w_.pp == 2)
                distp += temp * temp;
            else
                distp += std::pow(temp, w_.pLR);
            if (distp >= dlimp_) return;
        }
        if (!(distp < dlimp_)) return;
        double dist;
        if (Sup || w_.pp <= 1)
            dist = distp;
        else if (w_.pp == 2)
            dist = std::sqrt(distp);
        else
            dist = std::pow(distp, w_.Invp);
        if ((num_close_ < w_.mm || close_dist_[static_cast<std::size_t>(num_close_)] < w_.dlim1)
            && num_close_ < num_jumps_lim) {
            ++num_close_;
            if (static_cast<std::size_t>(num_close_) >= close_dist_.size())
                close_dist_.resize(2 * close_dist_.size());
        }
        // Insert the new distance into the sorted list.
        int i = num_close_;
        while (i > 1 && dist < close_dist_[static_cast<std::size_t>(i - 1)]) {
            --i;
            close_dist_[static_cast<std::size_t>(i + 1)] = close_dist_[static_cast<std::size_t>(i)];
        }
        close_dist_[static_cast<std::size_t>(i)] = dist;

        const double last = close_dist_[static_cast<std::size_t>(w_.mm)];
        if (num_close_ == w_.mm && last < dlim_ && w_.dlim1 < dlim_) {
            dlim_ = last;
            if (dlim_ < w_.dlim1) {
                dlim_ = w_.dlim1;
                dlimp_ = w_.dlim1p;
            } else if (w_.pp <= 1)
                dlimp_ = dlim_;
            else if (w_.pp == 2)
                dlimp_ = dlim_ * dlim_;
            else
                dlimp_ = std::pow(dlim_, w_.pLR);
            set_filter_bound();
        }
    }

    // snpair_DistanceCPBitM.
    void distance_bit_match(const double* P1, const double* P2)
    {
        constexpr int NBitsUL = CHAR_BIT * sizeof(unsigned long);
        const double Mul = num_TwoExp[NBitsUL];
        int Y = INT_MAX;
        for (int i = 0; i < w_.kk; ++i) {
            unsigned long x1 = static_cast<unsigned long>(Mul * P1[i]);
            unsigned long x2 = static_cast<unsigned long>(Mul * P2[i]);
            unsigned long z = x1 ^ x2;
            int j = 0;
            if (z) {
                while (z < 2 * z) {
                    ++j;
                    z <<= 1;
                }
            } else {
                // The first NBitsUL bits are equal: the next NBitsUL.
                x1 = static_cast<unsigned long>(Mul * (Mul * P1[i] - static_cast<double>(x1)));
                x2 = static_cast<unsigned long>(Mul * (Mul * P2[i] - static_cast<double>(x2)));
                z = x1 ^ x2;
                if (z) {
                    j = NBitsUL;
                    while (z < 2 * z) {
                        ++j;
                        z <<= 1;
                    }
                } else {
                    j = 2 * NBitsUL;
                }
            }
            if (j < Y) Y = j;
            if (Y <= y_lim_) return;
        }
        if (Y > y_lim_) {
            y_lim_ = Y;
            if (y_lim_ <= num_MaxTwoExp)
                dlim_ = 1.0 / num_TwoExp[y_lim_];
            else
                dlim_ = std::pow(2.0, -static_cast<double>(y_lim_));
        }
    }

    // snpair_VerifPairs1.
    template <int Kind> void verif_pairs(const Entry* A, long r, long s, int np)
    {
        for (long i = r; i <= s; ++i) {
            double high = A[i].key + dlim_;
            long j = i + 1;
            while (j <= s && A[j].key < high) {
                distance<Kind>(A[i], A[j]);
                ++j;
            }
            if (j > s && w_.torus && np <= w_.kk) {
                high -= 1.0;
                j = r;
                while (j < i && A[j].key < high) {
                    distance<Kind>(A[i], A[j]);
                    ++j;
                }
            }
        }
    }

    // dlimSlice.
    void dlim_slice(const Entry* A, long* r, long* imed, long* jmed, long* s, bool tor) const
    {
        if (*r > *imed || *jmed > *s) return;
        if (tor) {
            double temp = A[*s].key - 1.0;
            long i = *r;
            while (i <= *imed && A[i].key - temp < dlim_)
                ++i;
            *imed = i - 1;
            temp = A[*r].key + 1.0;
            i = *s;
            while (i >= *jmed && temp - A[i].key < dlim_)
                --i;
            *jmed = i + 1;
        } else {
            double temp = A[*jmed].key;
            long i = *imed;
            while (i >= *r && temp - A[i].key < dlim_)
                --i;
            *r = i + 1;
            temp = A[*imed].key;
            i = *jmed;
            while (i <= *s && A[i].key - temp < dlim_)
                ++i;
            *s = i - 1;
        }
    }

    // snpair_MiniProc1.
    template <int Kind> void mini_proc(const Entry* T, long r, long s, long u, long v)
    {
        if (s < r || v < u) return;
        long inf = u;
        for (long i = r; i <= s; ++i) {
            double low = T[i].key - dlim_;
            double high = low + 2.0 * dlim_;
            while (inf <= v && T[inf].key <= low)
                ++inf;
            long j = inf;
            while (j <= v && T[j].key < high) {
                distance<Kind>(T[i], T[j]);
                ++j;
            }
            if (w_.torus) {
                low += 1.0;
                high -= 1.0;
                long k = u, l = v;
                while (k <= v && T[k].key < high) {
                    distance<Kind>(T[i], T[k]);
                    ++k;
                }
                while (l >= u && T[l].key > low) {
                    distance<Kind>(T[i], T[l]);
                    --l;
                }
            }
        }
    }

    // snpair_CheckBoundary.
    template <int Kind>
    void check_boundary(long r, long s, long u, long v, int nr, int nrb, int np, int c)
    {
        if (r > s || u > v) return;
        Entry* A = points_[np].data();
        Entry* B;
        int nextc;
        const bool newc = ((nrb - 1) % w_.L2) == 0;
        if (newc && np < w_.Maxnp) {
            B = points_[np + 1].data();
            ++np;
            nextc = c < w_.kk ? c + 1 : 1;
            copy_points(A, B, r, s, nextc);
            copy_points(A, B, u, v, nextc);
            sort_table(B, r, s, A, nextc);
            sort_table(B, u, v, A, nextc);
        } else {
            nextc = c;
            B = A;
        }
        if ((nrb >= w_.kk || s - r < snpair_env.Seuil2) || v - u < snpair_env.Seuil2) {
            mini_proc<Kind>(B, r, s, u, v);
            return;
        }
        long imed = (r + s) / 2;
        long jmed = (u + v) / 2;
        check_boundary<Kind>(r, imed, u, jmed, nr + 1, nrb + 1, np, nextc);
        check_boundary<Kind>(imed + 1, s, jmed + 1, v, nr + 1, nrb + 1, np, nextc);
        long imed2, jmed2;
        if ((w_.torus && np <= w_.kk) && newc) {
            imed2 = imed;
            jmed2 = jmed + 1;
            dlim_slice(B, &r, &imed2, &jmed2, &v, true);
            check_boundary<Kind>(r, imed2, jmed2, v, nr + 1, nrb + 1, np, nextc);
            imed2 = imed + 1;
            jmed2 = jmed;
            dlim_slice(B, &u, &jmed2, &imed2, &s, true);
            check_boundary<Kind>(u, jmed2, imed2, s, nr + 1, nrb + 1, np, nextc);
        }
        jmed2 = jmed + 1;
        imed2 = imed + 1;
        if (newc) dlim_slice(B, &r, &imed, &jmed2, &v, false);
        check_boundary<Kind>(r, imed, jmed + 1, v, nr + 1, nrb + 1, np, nextc);
        if (newc) dlim_slice(B, &u, &jmed, &imed2, &s, false);
        check_boundary<Kind>(u, jmed, imed + 1, s, nr + 1, nrb + 1, np, nextc);
    }

    // snpair_FindClosePairs (without the Bickel-Breiman test's Setdlim: BBFlag is FALSE in both
    // tests).
    template <int Kind> void find_close_pairs(long r, long s, int nr, int np, int c)
    {
        Entry* A = points_[np].data();
        if (s - r < snpair_env.Seuil1) {
            verif_pairs<Kind>(A, r, s, np);
            return;
        }
        long imed = (r + s) / 2;
        if (nr % w_.L1 == 0 && np < w_.Maxnp && np < w_.kk) {
            Entry* B = points_[np + 1].data();
            const int nextc = c < w_.kk ? c + 1 : 1;
            copy_points(A, B, r, s, nextc);
            sort_table(B, r, imed, A, nextc);
            sort_table(B, imed + 1, s, A, nextc);
            find_close_pairs<Kind>(r, imed, nr + 1, np + 1, nextc);
            find_close_pairs<Kind>(imed + 1, s, nr + 1, np + 1, nextc);
        } else {
            find_close_pairs<Kind>(r, imed, nr + 1, np, c);
            find_close_pairs<Kind>(imed + 1, s, nr + 1, np, c);
        }
        if (w_.kk == 1) {
            distance<Kind>(A[imed], A[imed + 1]);
            if (w_.torus) distance<Kind>(A[r], A[s]);
            return;
        }
        long imed2, jmed2;
        if (w_.torus && np <= w_.kk && (nr - 1) % w_.L1 == 0) {
            imed2 = imed;
            jmed2 = imed + 1;
            dlim_slice(A, &r, &imed2, &jmed2, &s, true);
            check_boundary<Kind>(r, imed2, jmed2, s, nr, 1, np, c);
        }
        jmed2 = imed + 1;
        dlim_slice(A, &r, &imed, &jmed2, &s, false);
        check_boundary<Kind>(r, imed, jmed2, s, nr, 1, np, c);
    }

    const SearchParams w_;
    const long n_;
    std::vector<double> coords_, renumbered_;
    std::vector<Entry> points_[snpair_MAXREC + 1];
    std::vector<Entry> sorted_, spare_; // sort_table's
    std::vector<std::uint16_t> digits_;
    std::vector<long> ties_;
    std::vector<double> close_dist_;
    int num_close_ = 0;
    double dlim_ = 0, dlimp_ = 0;
    int y_lim_ = 0;
    Filter filter_ = no_filter; // the sup norm's pre-filter
    std::uint32_t filter_bound_ = UINT32_MAX;
};

// What one replication's search leaves for the statistics.
struct Replication {
    std::vector<double> close_dist; // [1..num_close]
    int num_close = 0;
    int y_lim = 0;
};

// The memory the replications searched at once may hold (their points and tables).
constexpr double parallel_bytes = 8.0 * (1 << 30);

// The N replications' searches: their points read in replication order (n points of kk
// coordinates unif01_StripD(gen, r), as TestU01 reads them), a batch of `threads` replications at
// a time (fewer where their memory would pass parallel_bytes), each batch's searches run in
// parallel. Calls done(Seq, replication) in order.
template <class Done>
void run_replications(
    Numbers& in, const SearchParams& w, long N, long n, int r, int threads, const Done& done)
{
    const double bytes = static_cast<double>(n + 1)
        * (2 * static_cast<double>(w.kk) * sizeof(double)
            + (w.Maxnp + 2) * static_cast<double>(sizeof(Entry)));
    const long fit = std::max(1L, static_cast<long>(parallel_bytes / bytes));
    threads = static_cast<int>(std::max<long>(1, std::min<long>({ long(threads), N, fit })));
    std::vector<PairSearch> searches;
    searches.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i)
        searches.emplace_back(w, n);
    std::vector<Replication> results(static_cast<std::size_t>(threads));
    const std::size_t words = static_cast<std::size_t>(n) * static_cast<std::size_t>(w.kk);
    std::vector<std::uint64_t> buffer(std::min<std::size_t>(words, std::size_t(1) << 20));
    for (long first = 1; first <= N; first += threads) {
        const int batch = static_cast<int>(std::min<long>(threads, N - first + 1));
        for (int b = 0; b < batch; ++b) {
            double* x = searches[static_cast<std::size_t>(b)].coords() + w.kk; // point 1
            for (std::size_t done_words = 0; done_words < words;) {
                const std::size_t k = std::min(buffer.size(), words - done_words);
                in.read(buffer.data(), k);
                for (std::size_t i = 0; i < k; ++i)
                    x[done_words + i] = in.strip_d(buffer[i], r);
                done_words += k;
            }
        }
        std::vector<std::exception_ptr> failed(static_cast<std::size_t>(batch));
        auto work = [&](int b) {
            try {
                PairSearch& s = searches[static_cast<std::size_t>(b)];
                s.run();
                Replication& out = results[static_cast<std::size_t>(b)];
                out.num_close = s.num_close();
                out.close_dist.assign(s.close_dist().begin(),
                    s.close_dist().begin() + std::max(1, s.num_close() + 1));
                out.y_lim = s.y_lim();
            } catch (...) {
                failed[static_cast<std::size_t>(b)] = std::current_exception();
            }
        };
        if (batch == 1) {
            work(0);
        } else {
            std::vector<std::thread> pool;
            for (int b = 1; b < batch; ++b)
                pool.emplace_back(work, b);
            work(0);
            for (std::thread& t : pool)
                t.join();
        }
        for (const std::exception_ptr& e : failed)
            if (e) std::rethrow_exception(e);
        for (int b = 0; b < batch; ++b)
            done(first + b, results[static_cast<std::size_t>(b)]);
    }
}

} // namespace

ClosePairsOutcome close_pairs(Numbers& in, long N, long n, int r, int k, int p, int m, int threads)
{
    if (N < 1 || n < 2 || r < 0 || k < 1 || p < 0 || m < 1 || m > snpair_MAXM)
        throw std::invalid_argument("close_pairs: N >= 1, n >= 2, r >= 0, t >= 1, p >= 0 and "
                                    "1 <= m <= snpair_MAXM");
    if (n > static_cast<long>(UINT32_MAX) - 1)
        throw std::invalid_argument("close_pairs: n too large");
    const double kLR = k;
    const double nLR = static_cast<double>(n);
    const double mLR = m;

    SearchParams w;
    w.bit_match = false;
    w.torus = true;
    w.kk = k;
    w.pp = p;
    w.mm = m;
    w.pLR = p == 0 ? 1.0 : static_cast<double>(p);
    w.Invp = 1.0 / w.pLR;
    w.Maxnp = k < snpair_MAXREC ? k : snpair_MAXREC;
    const double Vol = num2_VolumeSphere(static_cast<double>(p), k);
    const double mu2 = 2.0 / (nLR * (nLR - 1.0) * Vol);
    const double t1 = mLR;
    calc_seuils(w, k, m, mu2, nLR);
    w.dlim0 = kLR;

    ClosePairsOutcome res;
    // A statistic the test leaves unset (mNP2 where no jump is at most m, all but NP's p-value
    // and mNP where N = 1) keeps what it held: 0 in a fresh snpair_Res (snpair_CreateRes sets the
    // record to zeros), as every battery row starts with (rngvet runs a battery's tests one at a
    // time).
    std::fill(std::begin(res.sval), std::end(res.sval), 0.0);
    std::fill(std::begin(res.pval), std::end(res.pval), 0.0);
    res.the_wn.assign(1, 0.0);
    res.the_wni.assign(1, 0.0);
    res.the_pval_ad.assign(1, 0.0);
    res.y.assign(1, 0.0);
    // res->CloseDist, kept from one replication to the next as in TestU01 (entries past
    // NumClose are the earlier replications').
    std::vector<double> close_dist(static_cast<std::size_t>(2 * m + 1), 0.0);
    std::vector<double> U(static_cast<std::size_t>(m) + 1);
    double Wn = 0, A2 = 0;

    run_replications(in, w, N, n, r, threads, [&](long, const Replication& rep) {
        if (close_dist.size() < rep.close_dist.size()) close_dist.resize(rep.close_dist.size());
        std::copy(rep.close_dist.begin() + 1, rep.close_dist.end(), close_dist.begin() + 1);
        res.num_close = rep.num_close;
        Wn = 1.0 - std::exp(-std::pow(close_dist[1], kLR) / mu2);
        res.the_wn.push_back(Wn);
        if (m > 1) {
            double Jump = 0.0;
            for (int i = 1; i <= m; ++i) {
                const double NextJump
                    = std::pow(close_dist[static_cast<std::size_t>(i)], kLR) / mu2;
                const double x = 1.0 - std::exp(-(NextJump - Jump));
                U[static_cast<std::size_t>(i)] = x;
                res.the_wni.push_back(x);
                Jump = NextJump;
            }
            tables_QuickSortD(U.data(), 1, m);
            A2 = gofs_AndersonDarling(U.data(), m);
            res.the_pval_ad.push_back(fbar_AndersonDarling(m, A2));
            if (N > 1) {
                for (int i = 1; i <= rep.num_close; ++i) {
                    const double NextJump
                        = std::pow(close_dist[static_cast<std::size_t>(i)], kLR) / mu2;
                    if (NextJump <= t1) res.y.push_back(NextJump);
                }
            }
        }
    });
    res.close_dist.assign(close_dist.begin(), close_dist.begin() + res.num_close + 1);

    const long NmObs = static_cast<long>(res.the_wni.size()) - 1;
    // Room for gofs_DiffD and gofs_IterateSpacings (indices 0..NObs + 1).
    std::vector<double> V, S;
    if (N == 1) {
        res.pval[snpair_NP] = 1.0 - Wn;
    } else {
        double* Q = res.the_wn.data();
        tables_QuickSortD(Q, 1, static_cast<int>(N));
        res.sval[snpair_NP] = gofs_AndersonDarling(Q, N);
        res.pval[snpair_NP] = fbar_AndersonDarling(N, res.sval[snpair_NP]);
    }
    if (m > 1) {
        if (N == 1) {
            res.sval[snpair_mNP] = A2;
            res.pval[snpair_mNP] = res.the_pval_ad[1];
        } else {
            V.assign(res.the_pval_ad.begin(), res.the_pval_ad.end());
            tables_QuickSortD(V.data(), 1, static_cast<int>(N));
            res.sval[snpair_mNP] = gofs_AndersonDarling(V.data(), N);
            res.pval[snpair_mNP] = fbar_AndersonDarling(N, res.sval[snpair_mNP]);
            double* Q = res.the_wni.data();
            tables_QuickSortD(Q, 1, static_cast<int>(NmObs));
            res.sval[snpair_mNP1] = gofs_AndersonDarling(Q, NmObs);
            res.pval[snpair_mNP1] = fbar_AndersonDarling(NmObs, res.sval[snpair_mNP1]);

            // The superposition of the jumps in [0, t1], divided by t1.
            const long YObs = static_cast<long>(res.y.size()) - 1;
            for (long i = 1; i <= YObs; ++i)
                res.y[static_cast<std::size_t>(i)] /= t1;
            if (YObs > 0) {
                tables_QuickSortD(res.y.data(), 1, static_cast<int>(YObs));
                res.sval[snpair_mNP2] = gofs_AndersonDarling(res.y.data(), YObs);
                res.pval[snpair_mNP2] = fbar_AndersonDarling(YObs, res.sval[snpair_mNP2]);
            }
            fmass_INFO Mass = fmass_CreatePoisson(static_cast<double>(N * m));
            const double pLeft = fdist_Poisson2(Mass, YObs);
            const double pRight = fbar_Poisson2(Mass, YObs);
            fmass_DeletePoisson(Mass);
            res.sval[snpair_NJumps] = static_cast<double>(YObs);
            res.pval[snpair_NJumps] = gofw_pDisc(pLeft, pRight);

            // The spacings of the jumps (with no jump, gofs_AndersonDarling gives 0 whatever V
            // holds).
            V.assign(static_cast<std::size_t>(YObs) + 2, 0.0);
            S.assign(static_cast<std::size_t>(YObs) + 2, 0.0);
            std::copy(res.y.begin() + 1, res.y.end(), V.begin() + 1);
            gofs_DiffD(V.data(), S.data(), 1, YObs, 0.0, 1.0);
            gofs_IterateSpacings(V.data(), S.data(), YObs);
            tables_QuickSortD(V.data(), 1, static_cast<int>(YObs));
            res.sval[snpair_mNP2S] = gofs_AndersonDarling(V.data(), YObs);
            res.pval[snpair_mNP2S] = fbar_AndersonDarling(YObs, res.sval[snpair_mNP2S]);
        }
    }
    return res;
}

BitMatchOutcome close_pairs_bit_match(Numbers& in, long N, long n, int r, int k, int threads)
{
    if (N < 1 || n < 2 || r < 0 || k < 1)
        throw std::invalid_argument("close_pairs_bit_match: N >= 1, n >= 2, r >= 0, t >= 1");
    if (n > static_cast<long>(UINT32_MAX) - 1)
        throw std::invalid_argument("close_pairs_bit_match: n too large");
    const double nLR = static_cast<double>(n);
    SearchParams w;
    w.bit_match = true;
    w.torus = false;
    w.kk = k;
    w.mm = 1;
    w.pp = 1;
    w.pLR = w.Invp = 1;
    w.Maxnp = k < snpair_MAXREC ? k : snpair_MAXREC;
    calc_seuils(w, k, 1, 0.0, nLR);
    w.dlim0 = 1.0;

    BitMatchOutcome res;
    res.bit_max.assign(1, 0.0);
    int MaxY = 0;
    run_replications(in, w, N, n, r, threads, [&](long, const Replication& rep) {
        res.bit_max.push_back(static_cast<double>(rep.y_lim));
        MaxY = std::max(rep.y_lim, MaxY);
    });

    // z1 = Probability [Min {k geometric (0.5)} >= MaxY], as snpair_ClosePairsBitMatch.
    double z1;
    if (k * (MaxY + 1) <= num_MaxTwoExp)
        z1 = 1.0 / num_TwoExp[k * (MaxY + 1)];
    else
        z1 = std::pow(2.0, -static_cast<double>(k) * (MaxY + 1));
    double pLeft, pRight;
    if (z1 > DBL_EPSILON) {
        pLeft = 1.0 - z1;
        z1 = std::log(pLeft) * static_cast<double>(N) * static_cast<double>(n)
            * static_cast<double>(n - 1) / 2;
        pLeft = std::exp(z1);
        pRight = 1.0 - pLeft;
    } else {
        pRight
            = z1 * static_cast<double>(N) * static_cast<double>(n) * static_cast<double>(n - 1) / 2;
        pLeft = 1.0 - pRight;
    }
    res.pval = gofw_pDisc(pLeft, pRight);
    res.sval = MaxY;
    return res;
}

namespace {

const ClosePairsRow close_pairs_table[] = {
    // Crush 18-20: snpair_ClosePairs (gen, res, N, 2 * MILLION, 0, t, 0, 30); GetPVal_CPairs with
    // N = 10 (more than 1: five names, six with snpair_mNP2S_Flag, FALSE for test 18 only).
    { "crush", 18, 10, 2000000, 0, 2, 0, 30, false, ", t = 2" },
    { "crush", 19, 10, 2000000, 0, 3, 0, 30, true, ", t = 3" },
    { "crush", 20, 5, 2000000, 0, 7, 0, 30, true, ", t = 7" },
    // BigCrush 22-25: the same with other N, n and t, snpair_mNP2S_Flag TRUE.
    { "bigcrush", 22, 30, 6000000, 0, 3, 0, 30, true, ", t = 3" },
    { "bigcrush", 23, 20, 4000000, 0, 5, 0, 30, true, ", t = 5" },
    { "bigcrush", 24, 10, 3000000, 0, 9, 0, 30, true, ", t = 9" },
    { "bigcrush", 25, 5, 2000000, 0, 16, 0, 30, true, ", t = 16" },
};

const BitMatchRow bit_match_table[] = {
    // Crush 21-22: snpair_ClosePairsBitMatch (gen, res, N, 4 * MILLION, 0, t), pVal[snpair_BM].
    { "crush", 21, 4, 4000000, 0, 2, "ClosePairsBitMatch, t = 2" },
    { "crush", 22, 2, 4000000, 0, 4, "ClosePairsBitMatch, t = 4" },
};

} // namespace

std::vector<ClosePairsRow> close_pairs_rows()
{
    return { std::begin(close_pairs_table), std::end(close_pairs_table) };
}

std::vector<BitMatchRow> bit_match_rows()
{
    return { std::begin(bit_match_table), std::end(bit_match_table) };
}

std::vector<NativeStatistic> close_pairs_statistics(
    Numbers& in, const ClosePairsRow& row, long N, long n, int threads)
{
    const ClosePairsOutcome res = close_pairs(in, N, n, row.r, row.t, row.p, row.m, threads);
    const std::string s = row.suffix;
    std::vector<NativeStatistic> out{
        { "ClosePairs NP" + s, res.pval[snpair_NP] },
        { "ClosePairs mNP" + s, res.pval[snpair_mNP] },
        { "ClosePairs mNP1" + s, res.pval[snpair_mNP1] },
        { "ClosePairs mNP2" + s, res.pval[snpair_mNP2] },
        { "ClosePairs NJumps" + s, res.pval[snpair_NJumps] },
    };
    if (row.mnp2s) out.push_back({ "ClosePairs mNP2S" + s, res.pval[snpair_mNP2S] });
    return out;
}

std::vector<NativeStatistic> bit_match_statistics(
    Numbers& in, const BitMatchRow& row, long N, long n, int threads)
{
    const BitMatchOutcome res = close_pairs_bit_match(in, N, n, row.r, row.t, threads);
    return { { row.name, res.pval } };
}

// The threads of a battery row: one per replication, up to the machine's cores, even where the
// test's share of a sharded run is fewer (set_threads). A row's replications are the longest
// independent pieces of work in Crush and BigCrush (BigCrush's t = 16: 150 CPU s in 10 searches)
// and start first, so on a share of two threads they would end last, alone, while the cores
// that finished their tests sat idle; with a thread each the kernel shares the cores among all
// the workers' threads.
namespace {
int row_threads(long N)
{
    return static_cast<int>(std::max<long>(threads(), std::min<long>(N, cores())));
}
} // namespace

// ClosePairs's rows first, then ClosePairsBitMatch's; registry.cpp orders them by battery and
// number.
std::vector<NativeTest> close_pairs_tests()
{
    std::vector<NativeTest> tests;
    for (const ClosePairsRow& row : close_pairs_table)
        tests.push_back({ row.battery, row.number, [&row](Numbers& in) {
                             return close_pairs_statistics(
                                 in, row, row.N, row.n, row_threads(row.N));
                         } });
    for (const BitMatchRow& row : bit_match_table)
        tests.push_back({ row.battery, row.number, [&row](Numbers& in) {
                             return bit_match_statistics(in, row, row.N, row.n, row_threads(row.N));
                         } });
    return tests;
}

} // namespace rngvet::native
