// Native sknuth_Gap, sknuth_SimpPoker and sknuth_CouponCollector (gap.hpp).
//
// Facts and formulas from TestU01 1.2.3: testu01/sknuth.c (the three tests, NRepet),
// testu01/unif01.c (unif01_StripD, unif01_StripL), probdist/gofs.c (gofs_MergeClasses,
// gofs_Chi2), testu01/sres.c (sres_InitChi2, sres_GetChi2SumStat) and testu01/bbattery.c (the
// battery parameters and names).
//
// The counting is rngvet's own. Numbers are read in blocks. Each is converted by an integer form
// of unif01_StripD/StripL that gives TestU01's value exactly (words of at most 53 bits), so
// cheaply that one thread keeps up with the reading; otherwise by TestU01's floating-point
// operations, split between the threads. SimpPoker's replications, when several fit a block,
// are classed in parallel. Gap and CouponCollector stop after a count of numbers that depends
// on the numbers, so a block never holds more numbers than the test is certain to consume: a
// lower bound of what is left (every remaining gap takes at least one number, every remaining
// segment at least d) caps each read. The floating-point values that reach a p-value (expected
// numbers, merged classes, chi-square, p-values) are computed with TestU01's operations in
// TestU01's order, through TestU01's own library where TestU01 calls it.
#include "gap.hpp"

#include "classes.hpp"
#include "device.hpp"
#include "device_ahead.hpp"
#include "device_matrix.hpp"
#include "families.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num2.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read at a time: 512 KiB, within a core's cache, for work on one thread; 8 MiB, split
// between the threads, otherwise. The smallest block worth more than one thread.
constexpr std::size_t serial_block = std::size_t(1) << 16;
constexpr std::size_t parallel_block = std::size_t(1) << 20;
constexpr std::size_t parallel_min = std::size_t(1) << 18;

std::atomic<bool> integer_forms{ true };

std::size_t block_words(bool parallel)
{
    return parallel && threads() > 1 ? parallel_block : serial_block;
}

int threads_for(std::size_t work)
{
    return work >= parallel_min ? std::max(1, threads()) : 1;
}

// Sub-range `part` of `parts` equal parts of [0, size).
std::size_t part_begin(std::size_t size, int part, int parts)
{
    return size / static_cast<std::size_t>(parts) * static_cast<std::size_t>(part)
        + std::min(size % static_cast<std::size_t>(parts), static_cast<std::size_t>(part));
}

// unif01_StripD and unif01_StripL on one word, operation for operation (Numbers::strip_d,
// strip_l), with 2^r taken once.
class Strip {
public:
    Strip(const Numbers& in, int r)
        : in_(in)
        , r_(r)
        , two_r_(Numbers::two_exp(r))
    {
    }
    double d(std::uint64_t w) const
    {
        const double u = in_.u01(w);
        if (r_ == 0) return u;
        const double v = two_r_ * u;
        return v - static_cast<double>(static_cast<long>(v));
    }
    long l(std::uint64_t w, long d) const
    {
        return static_cast<long>(static_cast<double>(d) * this->d(w));
    }

private:
    const Numbers& in_;
    int r_;
    double two_r_;
};

// The same values from integers. For words of at most 53 bits, GetU01 = w 2^-bits is exact, so
// is 2^r U, and so is the removal of its integer part: unif01_StripD(r) is m 2^-q exactly, with
// q = max(bits - r, 0) and m = w mod 2^q (the low q bits of the word).
struct Fraction {
    bool exact = false; // bits <= 53 (and the integer forms on: set_integer_forms)
    int q = 0;
    std::uint64_t mask = 0;

    Fraction(const Numbers& in, int r)
        : exact(in.bits() <= 53 && integer_forms.load())
        , q(exact ? std::max(in.bits() - r, 0) : 0)
        , mask(q == 0 ? 0 : (std::uint64_t(1) << q) - 1)
    {
    }
    std::uint64_t m(std::uint64_t w) const { return w & mask; }
};

// sknuth_Gap's test of one number: unif01_StripD(r) in [Alpha, Beta). With U = m 2^-q exact,
// Alpha <= U < Beta holds exactly when ceil(Alpha 2^q) <= m < ceil(Beta 2^q) (scaling by 2^q is
// exact).
class GapInterval {
public:
    GapInterval(const Numbers& in, int r, double alpha, double beta)
        : strip_(in, r)
        , f_(in, r)
        , alpha_(alpha)
        , beta_(beta)
        , low_(static_cast<std::uint64_t>(std::ceil(std::ldexp(alpha, f_.q))))
        , high_(static_cast<std::uint64_t>(std::ceil(std::ldexp(beta, f_.q))))
    {
    }
    bool exact() const { return f_.exact; }
    bool inside_exact(std::uint64_t w) const
    {
        const std::uint64_t m = f_.m(w);
        return m >= low_ && m < high_;
    }
    bool inside(std::uint64_t w) const
    {
        const double u = strip_.d(w);
        return !(u < alpha_ || u >= beta_);
    }

private:
    Strip strip_;
    Fraction f_;
    double alpha_, beta_;
    std::uint64_t low_, high_;
};

// unif01_StripL(r, d) of one number: (long) (d U). With U = m 2^-q, the product d U is exact
// when d is a power of 2 or d 2^q <= 2^53, and then (long) (d U) = floor(d m / 2^q).
class StripCells {
public:
    StripCells(const Numbers& in, int r, long d)
        : strip_(in, r)
        , f_(in, r)
        , d_(d)
        , exact_(f_.exact
              && ((d & (d - 1)) == 0
                  || (static_cast<std::uint64_t>(d) << f_.q) <= (std::uint64_t(1) << 53)))
    {
    }
    bool exact() const { return exact_; }
    long cell_exact(std::uint64_t w) const
    {
        return static_cast<long>((static_cast<std::uint64_t>(d_) * f_.m(w)) >> f_.q);
    }
    long cell(std::uint64_t w) const { return strip_.l(w, d_); }

private:
    Strip strip_;
    Fraction f_;
    long d_;
    bool exact_;
};

// A TestU01 sres_Chi2, deleted on leaving.
class Chi2Res {
public:
    Chi2Res()
        : res_(sres_CreateChi2())
    {
    }
    ~Chi2Res() { sres_DeleteChi2(res_); }
    Chi2Res(const Chi2Res&) = delete;
    Chi2Res& operator=(const Chi2Res&) = delete;
    sres_Chi2* operator->() const { return res_; }
    sres_Chi2* get() const { return res_; }

private:
    sres_Chi2* res_;
};

Chi2Outcome outcome_of(const sres_Chi2* res)
{
    Chi2Outcome o;
    const statcoll_Collector* s = res->sVal1;
    o.sval1.assign(s->V + 1, s->V + 1 + s->NObs);
    std::copy(res->sVal2, res->sVal2 + gofw_NTestTypes, o.sval2.begin());
    std::copy(res->pVal2, res->pVal2 + gofw_NTestTypes, o.pval2.begin());
    o.degrees_of_freedom = res->degFree;
    o.jmin = res->jmin;
    o.jmax = res->jmax;
    if (res->jmax >= 0) o.counts.assign(res->Count, res->Count + res->jmax + 1);
    return o;
}

// The chi-square of one replication's counts (res->Count[jmin..jmax]), added to sVal1 as the
// tests of sknuth.c do.
void add_replication(sres_Chi2* res, const std::vector<long>& counts, long jmin, long jmax)
{
    std::copy(counts.begin(), counts.end(), res->Count);
    const double x2 = gofs_Chi2(res->NbExp, res->Count, jmin, jmax);
    statcoll_AddObs(res->sVal1, x2);
}

// The end of sknuth.c's tests: gofw_ActiveTests2 on the N chi-square values, then the sum.
void finish(sres_Chi2* res, long N, long degrees, bool set_nobs)
{
    double v[1] = { static_cast<double>(degrees) };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, v, res->sVal2, res->pVal2);
    if (set_nobs) res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

// num2_CalcMatStirling's matrix, freed on leaving.
class Stirling {
public:
    Stirling(int m, int n)
        : m_(m)
    {
        num2_CalcMatStirling(&M_, m, n);
    }
    ~Stirling() { num2_FreeMatStirling(&M_, m_); }
    Stirling(const Stirling&) = delete;
    Stirling& operator=(const Stirling&) = delete;
    double operator()(int i, int j) const { return M_[i][j]; }

private:
    double** M_ = nullptr;
    int m_;
};

void check_common(long N, long n, int r)
{
    if (N < 1 || n < 1) throw std::invalid_argument("N and n must be at least 1");
    if (r < 0 || r > 62) throw std::invalid_argument("r must be in [0, 62]");
}

// One part of a Gap block: where its first number in [Alpha, Beta) is, how many it has, the
// gaps that lie wholly inside it, and how many numbers outside follow its last one.
struct GapPart {
    long first = -1;
    long visits = 0;
    long trailing = 0;
    std::vector<long> counts;
};

// Scans one part of a Gap block.
template <class Inside>
void scan_gap_part(const std::uint64_t* w, std::size_t size, long t, GapPart& part, Inside inside)
{
    std::fill(part.counts.begin(), part.counts.end(), 0);
    long first = -1, last = -1, visits = 0;
    for (std::size_t i = 0; i < size; ++i) {
        if (!inside(w[i])) continue;
        const long at = static_cast<long>(i);
        if (first < 0)
            first = at;
        else
            ++part.counts[static_cast<std::size_t>(std::min<long>(at - last - 1, t))];
        last = at;
        ++visits;
    }
    part.first = first;
    part.visits = visits;
    part.trailing = static_cast<long>(size) - 1 - last;
}

// The number of distinct values among one hand's k numbers (values below 128; below 64 unless
// Wide).
template <bool Wide, class Cell>
int distinct_values(const std::uint64_t* w, std::size_t k, const Cell& cell)
{
    std::uint64_t low = 0, high = 0;
    for (std::size_t j = 0; j < k; ++j) {
        const long v = cell(w[j]);
        if (!Wide || v < 64)
            low |= std::uint64_t(1) << v;
        else
            high |= std::uint64_t(1) << (v - 64);
    }
    return __builtin_popcountll(low) + (Wide ? __builtin_popcountll(high) : 0);
}

// NRepet (sknuth.c) over a stream of cells: a segment ends when its d-th distinct value comes, or
// after its 61st number, counted as 62 (MAXT); counts[loc[length]] takes each segment.
struct CouponState {
    int d;
    const std::vector<long>& loc;
    long done = 0; // segments completed
    long reads = 0; // numbers read in the current segment
    std::uint64_t seen = 0; // the values seen in it
    int distinct = 0;

    CouponState(int d_, const std::vector<long>& loc_)
        : d(d_)
        , loc(loc_)
    {
    }

    template <class Word, class Cell>
    void scan(const Word* w, std::size_t size, std::vector<long>& counts, Cell cell)
    {
        // Locals, so that the counts (longs) cannot alias them.
        long r = reads, segments = done;
        std::uint64_t s = seen;
        int k = distinct;
        long* c = counts.data();
        const long* l = loc.data();
        for (std::size_t i = 0; i < size; ++i) {
            ++r;
            const std::uint64_t bit = std::uint64_t(1) << cell(w[i]);
            k += (s & bit) == 0;
            s |= bit;
            if (k == d || r == 61) {
                ++c[l[k == d ? r : 62]];
                ++segments;
                r = 0;
                s = 0;
                k = 0;
            }
        }
        reads = r;
        done = segments;
        seen = s;
        distinct = k;
    }
};

} // namespace

void set_integer_forms(bool on)
{
    integer_forms.store(on);
}

Chi2Outcome gap_test(Numbers& in, long N, long n, int r, double alpha, double beta)
{
    check_common(N, n, r);
    if (!(alpha >= 0.0 && alpha <= 1.0))
        throw std::invalid_argument("sknuth_Gap: Alpha outside [0, 1]");
    if (!(beta <= 1.0 && beta > alpha))
        throw std::invalid_argument("sknuth_Gap: Beta outside (Alpha, 1]");

    // The number of classes t: gap lengths 0..t-1, and t for t or more (sknuth_Gap). Debian's
    // TestU01 is built with HAVE_LOG1P, so num2_log1p is the C library's log1p.
    const double p = beta - alpha;
    const double dn = static_cast<double>(n);
    int t = static_cast<int>(std::log(gofs_MinExpected / dn) / std::log1p(-p));
    const int len_max
        = static_cast<int>(1 + std::log(gofs_MinExpected / (dn * p)) / std::log1p(-p));
    t = std::max(std::min(t, len_max), 0);

    Chi2Res res;
    sres_InitChi2(res.get(), N, t, const_cast<char*>("sknuth_Gap"));
    res->degFree = t;
    if (res->degFree < 1) return outcome_of(res.get()); // TestU01 warns and stops here

    // Expected numbers: n p (1-p)^len for len < t, n (1-p)^t for the last class.
    double mult = p * dn;
    res->NbExp[0] = mult;
    res->Loc[0] = 0;
    for (int len = 1; len < t; ++len) {
        mult *= 1.0 - p;
        res->NbExp[len] = mult;
        res->Loc[len] = len;
    }
    res->NbExp[t] = mult * (1.0 - p) / p;
    res->Loc[t] = t;

    const GapInterval interval(in, r, alpha, beta);
    // The integer test costs less than reading the number: one thread. TestU01's floating-point
    // one is split between the threads.
    const bool split = !interval.exact();
    std::vector<std::uint64_t> words(
        static_cast<std::size_t>(std::min<long>(n + 1, static_cast<long>(block_words(split)))));
    std::vector<long> counts(static_cast<std::size_t>(t) + 1);
    std::vector<GapPart> parts(static_cast<std::size_t>(std::max(1, threads())));
    for (GapPart& part : parts)
        part.counts.assign(counts.size(), 0);

    // On the device the stream runs on, where it is a CUDA one: scans that read ahead and give
    // back what the test does not consume (device_ahead.hpp), else each bounded block's scan.
    std::unique_ptr<DeviceGapAhead> ahead = device_gap_ahead(in, r, alpha, beta, t, n);
    std::unique_ptr<DeviceGapScan> on_device
        = ahead ? nullptr : device_gap_scan(in, r, alpha, beta, t);
    GapAheadPart ahead_part;
    ahead_part.counts.assign(counts.size(), 0);
    // The words read ahead and not consumed go back to the stream when the test ends.
    auto give_back = [&] {
        if (ahead) ahead->give_back();
    };

    for (long rep = 0; rep < N; ++rep) {
        std::fill(counts.begin(), counts.end(), 0);
        long done = 0; // gaps completed
        long reads = 0; // numbers read in the current gap, none of them in [Alpha, Beta)
        while (done < n) {
            // The test reads at least one more number per remaining gap, and the current gap
            // reads at most n + 1 numbers in all (the (n+1)-th interrupts the test).
            const long bound = std::min(n - done, n + 1 - reads);
            int nparts = 1;
            if (ahead) {
                GapPart& part = parts[0];
                if (ahead->scan(reads, n - done, ahead_part)) {
                    part.first = ahead_part.first;
                    part.visits = ahead_part.visits;
                    part.trailing = ahead_part.trailing;
                    part.counts.swap(ahead_part.counts);
                } else {
                    ahead.reset(); // nothing read: the test on the host
                }
            } else if (on_device) {
                const std::size_t size = static_cast<std::size_t>(
                    std::min<long>(bound, static_cast<long>(on_device->max_words())));
                GapPart& part = parts[0];
                if (!on_device->scan(size, part.first, part.visits, part.trailing, part.counts))
                    on_device.reset(); // nothing read: this block and the rest on the host
            }
            if (!ahead && !on_device) {
                const std::size_t size = static_cast<std::size_t>(
                    std::min<long>(bound, static_cast<long>(words.size())));
                in.read(words.data(), size);
                nparts = split ? threads_for(size) : 1;
                const std::uint64_t* w = words.data();
#pragma omp parallel for num_threads(nparts) schedule(static, 1) if (nparts > 1)
                for (int k = 0; k < nparts; ++k) {
                    GapPart& part = parts[static_cast<std::size_t>(k)];
                    const std::size_t begin = part_begin(size, k, nparts);
                    const std::size_t end = part_begin(size, k + 1, nparts);
                    if (interval.exact())
                        scan_gap_part(w + begin, end - begin, t, part,
                            [&](std::uint64_t x) { return interval.inside_exact(x); });
                    else
                        scan_gap_part(w + begin, end - begin, t, part,
                            [&](std::uint64_t x) { return interval.inside(x); });
                }
            }
            // Join the parts in stream order: the gap open before a part ends at its first visit.
            for (int k = 0; k < nparts; ++k) {
                const GapPart& part = parts[static_cast<std::size_t>(k)];
                if (part.first < 0) {
                    reads += part.trailing;
                    continue;
                }
                const long len = reads + part.first; // numbers outside before the visit
                if (len >= n) {
                    reads = n + 1;
                    break;
                }
                ++counts[static_cast<std::size_t>(std::min<long>(len, t))];
                for (std::size_t j = 0; j < counts.size(); ++j)
                    counts[j] += part.counts[j];
                done += part.visits;
                reads = part.trailing;
            }
            if (reads > n) {
                // sknuth_Gap: "one gap of length > n", the test is interrupted. The bound puts
                // the gap's (n+1)-th number last in the block, so nothing more was read (a scan
                // that read ahead stops there too, and gives back the rest).
                give_back();
                Chi2Outcome o = outcome_of(res.get());
                o.pval2[gofw_Mean] = o.pval2[gofw_AD] = o.pval2[gofw_KSM] = o.pval2[gofw_KSP] = 0.0;
                o.interrupted = true;
                return o;
            }
        }
        add_replication(res.get(), counts, 0, t);
    }
    give_back();
    finish(res.get(), N, t, false);
    return outcome_of(res.get());
}

Chi2Outcome simp_poker_test(Numbers& in, long N, long n, int r, int d, int k)
{
    check_common(N, n, r);
    if (d < 2 || d > 127 || k < 2 || k > 127)
        throw std::invalid_argument("sknuth_SimpPoker: d and k must be in [2, 127]");
    const int minkd = std::min(k, d);

    const Stirling M(minkd, k);
    Chi2Res res;
    sres_InitChi2(res.get(), N, minkd, const_cast<char*>("sknuth_SimpPoker"));
    // NbExp[s] = n d (d-1) ... (d-s+1) M[s][k] / d^k (sknuth_SimpPoker).
    double mult
        = static_cast<double>(n) * std::pow(static_cast<double>(d), -static_cast<double>(k));
    for (int s = 1; s <= minkd; ++s) {
        mult *= static_cast<double>(d - s + 1);
        res->NbExp[s] = mult * M(s, k);
    }
    long jlow = 1, jhigh = minkd;
    const long classes = merge_classes_quietly(res->NbExp, res->Loc, jlow, jhigh);
    res->jmin = jlow;
    res->jmax = jhigh;
    res->degFree = classes - 1;
    if (res->degFree < 1) return outcome_of(res.get());

    const std::vector<long> loc(res->Loc, res->Loc + minkd + 1);
    const std::size_t width = loc.size();
    const std::size_t hand = static_cast<std::size_t>(k);
    const std::size_t un = static_cast<std::size_t>(n);
    const StripCells cells(in, r, d);
    // One replication is read in pieces, classed on one thread with the integer cells (cheaper
    // than reading the numbers), split between the threads with TestU01's floating-point ones.
    // Several replications, when they fit in a block, are read at once and classed in parallel,
    // at most 4096 at a time (their counts take at most 4 MiB).
    const bool split = !cells.exact();
    const std::size_t piece_hands = std::max<std::size_t>(1, block_words(split) / hand);
    const std::size_t batch_hands = std::max<std::size_t>(1, block_words(true) / hand);
    const std::size_t reps_per_batch
        = N > 1 && un < batch_hands ? std::min<std::size_t>(batch_hands / un, 4096) : 1;
    std::vector<std::uint64_t> words;
    std::vector<long> counts; // reps_per_batch rows of width
    const int nthreads = std::max(1, threads());
    std::vector<std::vector<long>> local(
        static_cast<std::size_t>(nthreads), std::vector<long>(width));

    // Cells are below d (or equal to d where U rounds to 1, from words of more than 53 bits):
    // for d < 64 they fit one mask.
    const bool wide = d >= 64;
    const long dd = d;
    const Fraction f(in, r);
    auto distinct = [&](const std::uint64_t* w) {
        if (cells.exact()) {
            const auto cell = [&f, dd](std::uint64_t x) {
                return static_cast<long>((static_cast<std::uint64_t>(dd) * f.m(x)) >> f.q);
            };
            return wide ? distinct_values<true>(w, hand, cell)
                        : distinct_values<false>(w, hand, cell);
        }
        const auto cell = [&](std::uint64_t x) { return cells.cell(x); };
        return wide ? distinct_values<true>(w, hand, cell) : distinct_values<false>(w, hand, cell);
    };

    // On the device the stream runs on, where it is a CUDA one: every replication's histogram of
    // the distinct values per hand.
    if (const auto on_device = device_poker_histograms(in, N, n, r, d, k)) {
        for (const std::vector<std::uint64_t>& h : *on_device) {
            std::vector<long> row(width, 0);
            for (std::size_t s = 0; s < h.size(); ++s) {
                if (h[s] == 0) continue;
                if (s >= width)
                    throw std::runtime_error("sknuth_SimpPoker: a hand has more distinct values "
                                             "than the test has classes");
                row[static_cast<std::size_t>(loc[s])] += static_cast<long>(h[s]);
            }
            add_replication(res.get(), row, jlow, jhigh);
        }
        finish(res.get(), N, classes - 1, true);
        return outcome_of(res.get());
    }
    for (long rep = 0; rep < N;) {
        if (reps_per_batch == 1) {
            std::vector<long> row(width, 0);
            for (std::size_t done = 0; done < un;) {
                const std::size_t hands = std::min(piece_hands, un - done);
                words.resize(hands * hand);
                in.read(words.data(), words.size());
                const int nparts = split ? threads_for(words.size()) : 1;
                const std::uint64_t* w = words.data();
#pragma omp parallel for num_threads(nparts) schedule(static, 1) if (nparts > 1)
                for (int part = 0; part < nparts; ++part) {
                    std::vector<long>& c = local[static_cast<std::size_t>(part)];
                    std::fill(c.begin(), c.end(), 0);
                    const std::size_t end = part_begin(hands, part + 1, nparts);
                    for (std::size_t h = part_begin(hands, part, nparts); h < end; ++h)
                        ++c[static_cast<std::size_t>(distinct(w + h * hand))];
                }
                for (int part = 0; part < nparts; ++part)
                    for (std::size_t s = 0; s < width; ++s)
                        row[static_cast<std::size_t>(loc[s])]
                            += local[static_cast<std::size_t>(part)][s];
                done += hands;
            }
            add_replication(res.get(), row, jlow, jhigh);
            ++rep;
        } else {
            const std::size_t reps = std::min(reps_per_batch, static_cast<std::size_t>(N - rep));
            words.resize(reps * un * hand);
            in.read(words.data(), words.size());
            counts.assign(reps * width, 0);
            const std::uint64_t* w = words.data();
            const long nreps = static_cast<long>(reps);
            const int nparts = static_cast<int>(std::min<long>(threads_for(words.size()), nreps));
#pragma omp parallel for num_threads(nparts) schedule(static) if (nparts > 1)
            for (long i = 0; i < nreps; ++i) {
                long* row = counts.data() + static_cast<std::size_t>(i) * width;
                const std::uint64_t* base = w + static_cast<std::size_t>(i) * un * hand;
                for (std::size_t h = 0; h < un; ++h)
                    ++row[static_cast<std::size_t>(
                        loc[static_cast<std::size_t>(distinct(base + h * hand))])];
            }
            for (std::size_t i = 0; i < reps; ++i) {
                const std::vector<long> row(counts.begin() + static_cast<long>(i * width),
                    counts.begin() + static_cast<long>((i + 1) * width));
                add_replication(res.get(), row, jlow, jhigh);
            }
            rep += nreps;
        }
    }
    finish(res.get(), N, classes - 1, true);
    return outcome_of(res.get());
}

Chi2Outcome coupon_collector_test(Numbers& in, long N, long n, int r, int d)
{
    check_common(N, n, r);
    // A segment ends after all d values, or after 61 numbers (class 62 = MAXT, sknuth.c).
    constexpr int t = 62;
    if (d < 2 || d >= t)
        throw std::invalid_argument("sknuth_CouponCollector: d must be in [2, 61]");

    Chi2Res res;
    sres_InitChi2(res.get(), N, t, const_cast<char*>("sknuth_CouponCollector"));
    // NbExp[s] = n d! Stirling(d-1, s-1) / d^s for d <= s < t, and
    // NbExp[t] = n (1 - d! Stirling(d, t-1) / d^(t-1)) (sknuth_CouponCollector).
    const Stirling M(d, t - 1);
    const double dreal = d;
    double mult = static_cast<double>(n);
    for (int s = 1; s <= d; ++s)
        mult *= s / dreal;
    res->NbExp[d] = mult;
    for (int s = d + 1; s < t; ++s) {
        mult /= dreal;
        res->NbExp[s] = mult * M(d - 1, s - 1);
    }
    res->NbExp[t] = static_cast<double>(n) - mult * M(d, t - 1);
    long jlow = d, jhigh = t;
    const long classes = merge_classes_quietly(res->NbExp, res->Loc, jlow, jhigh);
    res->jmin = jlow;
    res->jmax = jhigh;
    res->degFree = classes - 1;
    if (res->degFree < 1) return outcome_of(res.get());

    const std::vector<long> loc(res->Loc, res->Loc + t + 1);
    const StripCells cells(in, r, d);
    const long dl = d;
    std::vector<std::uint64_t> words(static_cast<std::size_t>(
        std::min<long>(std::min<long>(n, static_cast<long>(block_words(!cells.exact()))) * dl,
            static_cast<long>(block_words(!cells.exact())))));
    std::vector<unsigned char> values(cells.exact() ? 0 : words.size());
    std::vector<long> counts(static_cast<std::size_t>(t) + 1);

    // On the device the stream runs on, where it is a CUDA one: each block's scan.
    std::unique_ptr<DeviceCouponScan> on_device = device_coupon_scan(in, r, d);
    std::vector<long> by_class(static_cast<std::size_t>(t) + 1);

    for (long rep = 0; rep < N; ++rep) {
        std::fill(counts.begin(), counts.end(), 0);
        CouponState state(d, loc);
        long& done = state.done;
        const long& reads = state.reads;
        const int& distinct = state.distinct;
        while (done < n) {
            // The current segment reads at least one more number per value not yet seen, or
            // until its 61st; every later segment reads at least d.
            const long bound = std::min<long>(d - distinct, t - 1 - reads) + (n - done - 1) * dl;
            if (on_device) {
                const std::size_t size = static_cast<std::size_t>(
                    std::min<long>(bound, static_cast<long>(on_device->max_words())));
                if (on_device->scan(size, state.reads, state.seen, state.distinct, by_class)) {
                    for (std::size_t c = 0; c < by_class.size(); ++c) {
                        if (by_class[c] == 0) continue;
                        counts[static_cast<std::size_t>(loc[c])] += by_class[c];
                        done += by_class[c];
                    }
                    continue;
                }
                on_device.reset(); // nothing read: this block and the rest on the host
            }
            const std::size_t size
                = static_cast<std::size_t>(std::min<long>(bound, static_cast<long>(words.size())));
            in.read(words.data(), size);
            const std::uint64_t* w = words.data();
            if (cells.exact()) {
                // Integer cells: cheaper than a pass of their own.
                state.scan(w, size, counts, [&](std::uint64_t x) { return cells.cell_exact(x); });
            } else {
                // TestU01's floating-point conversions, in parallel, then the scan.
                unsigned char* v = values.data();
                const long ssize = static_cast<long>(size);
                const int nparts = threads_for(size);
#pragma omp parallel for num_threads(nparts) schedule(static) if (nparts > 1)
                for (long i = 0; i < ssize; ++i)
                    v[i] = static_cast<unsigned char>(cells.cell(w[i]));
                state.scan(v, size, counts, [](unsigned char x) { return static_cast<long>(x); });
            }
        }
        add_replication(res.get(), counts, jlow, jhigh);
    }
    finish(res.get(), N, classes - 1, true);
    return outcome_of(res.get());
}

namespace {

constexpr long million = 1000 * 1000;
constexpr long billion = 1000 * million;
using T = GapRow;
// bbattery.c's calls of the three tests, with the names it gives their p-values.
constexpr GapRow battery_table[] = {
    { "smallcrush", 3, "Gap", T::gap, million / 5, 22, 0, 0, 0.0, .00390625 },
    { "smallcrush", 4, "SimpPoker", T::simp_poker, 2 * million / 5, 24, 64, 64, 0, 0 },
    { "smallcrush", 5, "CouponCollector", T::coupon_collector, million / 2, 26, 16, 0, 0, 0 },
    { "crush", 23, "SimpPoker, d = 16", T::simp_poker, 40 * million, 0, 16, 16, 0, 0 },
    { "crush", 24, "SimpPoker, d = 16", T::simp_poker, 40 * million, 26, 16, 16, 0, 0 },
    { "crush", 25, "SimpPoker, d = 64", T::simp_poker, 10 * million, 0, 64, 64, 0, 0 },
    { "crush", 26, "SimpPoker, d = 64", T::simp_poker, 10 * million, 24, 64, 64, 0, 0 },
    { "crush", 27, "CouponCollector, d = 4", T::coupon_collector, 40 * million, 0, 4, 0, 0, 0 },
    { "crush", 28, "CouponCollector, d = 4", T::coupon_collector, 40 * million, 28, 4, 0, 0, 0 },
    { "crush", 29, "CouponCollector, d = 16", T::coupon_collector, 10 * million, 0, 16, 0, 0, 0 },
    { "crush", 30, "CouponCollector, d = 16", T::coupon_collector, 10 * million, 26, 16, 0, 0, 0 },
    { "crush", 31, "Gap, r = 0", T::gap, 100 * million, 0, 0, 0, 0.0, 0.125 },
    { "crush", 32, "Gap, r = 27", T::gap, 100 * million, 27, 0, 0, 0.0, 0.125 },
    { "crush", 33, "Gap, r = 0", T::gap, 5 * million, 0, 0, 0, 0.0, 1.0 / 256.0 },
    { "crush", 34, "Gap, r = 22", T::gap, 5 * million, 22, 0, 0, 0.0, 1.0 / 256.0 },
    { "bigcrush", 26, "SimpPoker, r = 0", T::simp_poker, 400 * million, 0, 8, 8, 0, 0 },
    { "bigcrush", 27, "SimpPoker, r = 27", T::simp_poker, 400 * million, 27, 8, 8, 0, 0 },
    { "bigcrush", 28, "SimpPoker, r = 0", T::simp_poker, 100 * million, 0, 32, 32, 0, 0 },
    { "bigcrush", 29, "SimpPoker, r = 25", T::simp_poker, 100 * million, 25, 32, 32, 0, 0 },
    { "bigcrush", 30, "CouponCollector, r = 0", T::coupon_collector, 200 * million, 0, 8, 0, 0, 0 },
    { "bigcrush", 31, "CouponCollector, r = 10", T::coupon_collector, 200 * million, 10, 8, 0, 0,
        0 },
    { "bigcrush", 32, "CouponCollector, r = 20", T::coupon_collector, 200 * million, 20, 8, 0, 0,
        0 },
    { "bigcrush", 33, "CouponCollector, r = 27", T::coupon_collector, 200 * million, 27, 8, 0, 0,
        0 },
    { "bigcrush", 34, "Gap, r = 0", T::gap, billion / 2, 0, 0, 0, 0.0, 1.0 / 16.0 },
    { "bigcrush", 35, "Gap, r = 25", T::gap, 300 * million, 25, 0, 0, 0.0, 1.0 / 32.0 },
    { "bigcrush", 36, "Gap, r = 0", T::gap, billion / 10, 0, 0, 0, 0.0, 1.0 / 128.0 },
    { "bigcrush", 37, "Gap, r = 20", T::gap, 10 * million, 20, 0, 0, 0.0, 1.0 / 1024.0 },
};
constexpr std::size_t row_count = sizeof battery_table / sizeof battery_table[0];

} // namespace

const std::vector<GapRow>& gap_rows()
{
    static const std::vector<GapRow> rows(battery_table, battery_table + row_count);
    return rows;
}

std::vector<NativeStatistic> run_row(const GapRow& row, Numbers& in, long n)
{
    Chi2Outcome o;
    switch (row.test) {
    case GapRow::gap:
        o = gap_test(in, 1, n, row.r, row.alpha, row.beta);
        break;
    case GapRow::simp_poker:
        o = simp_poker_test(in, 1, n, row.r, row.d, row.k);
        break;
    case GapRow::coupon_collector:
        o = coupon_collector_test(in, 1, n, row.r, row.d);
        break;
    }
    return { NativeStatistic{ row.name, o.pval2[gofw_Mean] } };
}

// The battery rows (bbattery.c), one per entry of gap_rows().
std::vector<NativeTest> gap_tests()
{
    std::vector<NativeTest> tests;
    for (const GapRow& row : battery_table)
        tests.push_back(
            { row.battery, row.number, [&row](Numbers& in) { return run_row(row, in, row.n); } });
    return tests;
}

} // namespace rngvet::native
