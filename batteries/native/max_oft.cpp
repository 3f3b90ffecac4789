// Native sknuth_MaxOft and svaria_WeightDistrib (max_oft.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): sknuth.c (sknuth_MaxOft, InitRes1,
// FDistMax), svaria.c (svaria_WeightDistrib), unif01.c (unif01_StripD), probdist/gofw.c
// (gofw_ActiveTests1/2, gofw_Tests0), probdist/gofs.c and testu01/sres.c; the battery rows from
// bbattery.c (SmallCrush tests 6 and 7, Crush 41-44 and 51-54, BigCrush 46-49 and 59-64).
//
// The integer work is done here: the words are read in chunks (the next chunk read while other
// threads work through the current one), StripD's values are compared as exact integer keys,
// the maximum of each group of t (MaxOft) and the count of each group of k in [alpha, beta)
// (WeightDistrib) are computed on several threads, and the n maxima's distribution values are
// sorted by their chi-square classes, then within each class (a sorted sequence of values does
// not depend on the algorithm). Every floating-point value is TestU01's: each key stands for
// exactly the value unif01_StripD gives, pow is applied as sknuth_MaxOft applies it, gofw_Tests0's
// sums run in its order over terms computed with its operations, and the rest comes from
// TestU01's own functions (fmass, gofs, gofw, fbar, sres), called with the same arguments in the
// same order.
#include "max_oft.hpp"

#include "active_tests.hpp"
#include "crew.hpp"
#include "device.hpp"
#include "device_tables.hpp"
#include "families.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/fbar.h>
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/statcoll.h>
#include <testu01/svaria.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read from the stream at a time (16 MiB, two buffers), whole groups.
constexpr std::size_t chunk_words = std::size_t(1) << 21;

// unif01_StripD(gen, r) as an integer. For words of at most 53 bits every step of StripD is
// exact: U = w 2^-bits, 2^r U, its integer part and the difference are all representable, so
// StripD(w, r) = key(w) 2^-bits with key(w) = (w << r) mod 2^bits (0 where r >= bits). Keys
// order as the values do. A word of more than `bits` bits (outside a stream's contract) or a
// wider resolution takes StripD's own operations (Numbers::strip_d).
struct StripKey {
    StripKey(const Numbers& in, int r)
        : exact(in.bits() <= 53 && r < 64)
        , shift(exact ? r : 0)
        , bits(in.bits())
        , mask(exact ? (std::uint64_t(1) << in.bits()) - 1 : 0)
    {
    }
    std::uint64_t operator()(std::uint64_t w) const { return (w << shift) & mask; }
    // Whether the keys of words whose bits OR to `any` are StripD's.
    bool holds(std::uint64_t any) const { return exact && (any >> bits) == 0; }

    bool exact;
    int shift;
    int bits;
    std::uint64_t mask;
};

// Reads `total` groups of `group` words in stream order, a chunk at a time, and calls
// work(words of the group, group number, thread) for every group, on `threads` threads: while
// the helpers work through one chunk, the calling thread first reads the next one (the stream's
// own thread, as a device stream may need), then joins them.
template <class Work>
void for_groups(Numbers& in, long total, long group, int threads, const Work& work)
{
    const std::size_t size = static_cast<std::size_t>(group);
    const long chunk = static_cast<long>(std::min<std::size_t>(
        std::max<std::size_t>(1, chunk_words / size), static_cast<std::size_t>(total)));
    const long block = static_cast<long>(std::max<std::size_t>(1, (std::size_t(1) << 15) / size));
    std::vector<std::uint64_t> buffer[2];
    buffer[0].resize(static_cast<std::size_t>(chunk) * size);
    long m = std::min(chunk, total);
    in.read(buffer[0].data(), static_cast<std::size_t>(m) * size);
    if (threads <= 1 || total <= block) {
        for (long first = 0; m > 0;) {
            const std::uint64_t* w = buffer[0].data();
            for (long g = 0; g < m; ++g)
                work(w + static_cast<std::size_t>(g) * size, first + g, 0);
            first += m;
            m = std::min(chunk, total - first);
            if (m > 0) in.read(buffer[0].data(), static_cast<std::size_t>(m) * size);
        }
        return;
    }
    if (total > chunk) buffer[1].resize(buffer[0].size());
    const std::uint64_t* w = nullptr;
    long first = 0;
    const long helpers = std::min<long>(threads - 1, (chunk + block - 1) / block);
    Crew crew(static_cast<int>(helpers));
    const auto run_block = [&](long b, int thread) {
        const long end = std::min(m, (b + 1) * block);
        for (long g = b * block; g < end; ++g)
            work(w + static_cast<std::size_t>(g) * size, first + g, thread);
    };
    for (int current = 0; m > 0; current = 1 - current) {
        w = buffer[current].data();
        const long next_m = std::min(chunk, total - first - m);
        crew.run((m + block - 1) / block, run_block, [&] {
            if (next_m > 0)
                in.read(buffer[1 - current].data(), static_cast<std::size_t>(next_m) * size);
        });
        first += m;
        m = next_m;
    }
}

} // namespace

void max_oft(Numbers& in, sknuth_Res1* res, long N, long n, int r, int d, int t, int threads)
{
    if (N < 1 || n < 1 || r < 0 || d < 1 || t < 1)
        throw std::invalid_argument("max_oft: N, n, d and t must be positive, r non-negative");
    const double tReal = t;
    const double dReal = d;
    const double NbExp = static_cast<double>(n) / dReal;
    if (!(NbExp >= gofs_MinExpected))
        throw std::invalid_argument("max_oft: NbExp < gofs_MinExpected");

    // sknuth.c's InitRes1.
    char bas_name[] = "sknuth_MaxOft:   Anderson-Darling";
    char chi_name[] = "sknuth_MaxOft:   Chi2";
    sres_InitBasic(res->Bas, N, bas_name);
    sres_InitChi2(res->Chi, N, d, chi_name);
    sres_Basic* Bas = res->Bas;
    sres_Chi2* Chi = res->Chi;
    Chi->jmin = 0;
    Chi->jmax = d - 1;
    for (int j = 0; j < d; ++j) {
        Chi->Loc[j] = j;
        Chi->NbExp[j] = NbExp;
    }
    char desc[120];
    std::snprintf(desc, sizeof desc,
        "The N statistic values (a ChiSquare with %1d degrees of freedom):", d - 1);
    statcoll_SetDesc(Chi->sVal1, desc);
    Chi->degFree = d - 1;
    statcoll_SetDesc(Bas->sVal1, "The N statistic values (the Anderson-Darling p-values):");

    threads = std::max(1, threads);
    std::vector<long> count(static_cast<std::size_t>(d));
    // U[1..n]: FDistMax of the maxima (gofw_ActiveTests1's U, 1-based as in TestU01), which is
    // pow (MaxU, t) itself: FDistMax's 1 above 1 and 0 below 0 are pow's values there, maxima of
    // StripD lie in [0, 1), and sknuth_MaxOft's class is that same pow times d.
    std::vector<double> U(static_cast<std::size_t>(n) + 1);
    // U sorted, 1-based, by classes: class j's values at [start[j], start[j + 1]).
    std::vector<double> sorted(static_cast<std::size_t>(n) + 1);
    std::vector<std::size_t> start(static_cast<std::size_t>(d) + 1),
        next(static_cast<std::size_t>(d));
    double first_max = 0; // P[1], gofw_ActiveTests1's sVal[gofw_Mean] when n = 1
    const StripKey key(in, r);

    // A replication's classes, from its values v[0, n) (Indice = pow (MaxU, tReal) * dReal,
    // converted to int, as sknuth_MaxOft), and its chi-square.
    auto classes = [&](const double* v) {
        std::fill(count.begin(), count.end(), 0);
        for (long g = 0; g < n; ++g) {
            const int i = static_cast<int>(v[g] * dReal);
            if (i < 0 || i >= d) throw std::runtime_error("max_oft: class index out of range");
            ++count[static_cast<std::size_t>(i)];
        }
        for (int j = 0; j < d; ++j)
            Chi->Count[j] = count[static_cast<std::size_t>(j)];
        const double X2 = gofs_Chi2Equal(NbExp, Chi->Count, 0, d - 1);
        statcoll_AddObs(Chi->sVal1, X2);
    };
    // The Anderson-Darling statistic (gofw_ActiveTests0) of a replication whose values are
    // sorted[1..n] in increasing order.
    auto sorted_tests = [&] {
        active_tests0(sorted.data(), n, Bas->sVal2, Bas->pVal2, threads);
        if (n == 1) Bas->sVal2[gofw_Mean] = first_max;
        statcoll_AddObs(Bas->sVal1, Bas->pVal2[gofw_AD]);
    };

    // One replication whose values are sorted[1..n] in increasing order: the classes (a
    // non-decreasing function of the values: each class's values are consecutive there), the
    // chi-square and the Anderson-Darling statistic.
    auto sorted_replication = [&] {
        classes(sorted.data() + 1);
        sorted_tests();
    };

    double* u = U.data() + 1;
    // One replication, once u[0, n) holds pow (MaxU, tReal) of its groups: the classes, the
    // chi-square and the Anderson-Darling statistic.
    auto replication = [&] {
        classes(u);

        // gofw_ActiveTests1 (P, n, FDistMax, Par, ...): transform, sort, ActiveTests0.
        // The classes are a non-decreasing function of the values (a product by d rounded,
        // then truncated): the values sorted are the classes' values in class order, each
        // class sorted.
        std::size_t offset = 1;
        for (int j = 0; j < d; ++j) {
            start[static_cast<std::size_t>(j)] = offset;
            offset += static_cast<std::size_t>(count[static_cast<std::size_t>(j)]);
        }
        start[static_cast<std::size_t>(d)] = offset;
        std::copy(start.begin(), start.end() - 1, next.begin());
        for (long g = 0; g < n; ++g) {
            const std::size_t i = static_cast<std::size_t>(u[g] * dReal);
            sorted[next[i]++] = u[g];
        }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (threads > 1)
        for (int j = 0; j < d; ++j)
            std::sort(sorted.data() + start[static_cast<std::size_t>(j)],
                sorted.data() + start[static_cast<std::size_t>(j) + 1]);
        sorted_tests();
    };
    // On the device the stream runs on, where it is a CUDA one: the maxima of each replication,
    // sorted there (device_tables.hpp). pow (x, t) is increasing in x, but glibc's pow is not
    // known to be monotone to the last bit: any pair of its values out of order is put back in
    // order here (an insertion), so that the values are sorted as the CPU path sorts them.
    const bool on_device_sorted
        = device_sorted_maxima(in, N, n, r, t, [&](long, const double* maxima) {
              first_max = maxima[0]; // the group's own where n = 1
              double* s = sorted.data() + 1;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
              for (long g = 0; g < n; ++g)
                  s[g] = std::pow(maxima[g], tReal);
              for (long g = 1; g < n; ++g) {
                  if (!(s[g] < s[g - 1])) continue;
                  const double x = s[g];
                  long h = g;
                  for (; h > 0 && x < s[h - 1]; --h)
                      s[h] = s[h - 1];
                  s[h] = x;
              }
              sorted_replication();
          });
    // Else the maxima in stream order, sorted here.
    const bool on_device
        = on_device_sorted || device_maxima(in, N, n, r, t, [&](long, const double* maxima) {
              first_max = maxima[0];
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
              for (long g = 0; g < n; ++g)
                  u[g] = std::pow(maxima[g], tReal);
              replication();
          });
    for (long Seq = 1; Seq <= N && !on_device; ++Seq) {
        for_groups(in, n, t, threads, [&](const std::uint64_t* v, long g, int) {
            std::uint64_t any = 0, max_key = 0;
            for (int j = 0; j < t; ++j) {
                any |= v[j];
                max_key = std::max(max_key, key(v[j]));
            }
            double MaxU;
            if (key.holds(any)) {
                MaxU = in.u01(max_key);
            } else {
                // sknuth_MaxOft's loop: the first value, replaced by any greater one.
                MaxU = in.strip_d(v[0], r);
                for (int j = 1; j < t; ++j) {
                    const double x = in.strip_d(v[j], r);
                    if (x > MaxU) MaxU = x;
                }
            }
            if (g == 0) first_max = MaxU;
            u[g] = std::pow(MaxU, tReal);
        });
        replication();
    }

    double V[1] = { static_cast<double>(d - 1) };
    gofw_ActiveTests2(Chi->sVal1->V, Chi->pVal1->V, N, wdist_ChiSquare, V, Chi->sVal2, Chi->pVal2);
    Chi->pVal1->NObs = N;
    sres_GetChi2SumStat(Chi);

    gofw_ActiveTests2(Bas->sVal1->V, Bas->pVal1->V, N, wdist_Unif, nullptr, Bas->sVal2, Bas->pVal2);
    Bas->pVal1->NObs = N;
}

void weight_distrib(Numbers& in, sres_Chi2* res, long N, long n, int r, long k, double alpha,
    double beta, int threads)
{
    if (N < 1 || n < 1 || r < 0 || k < 1)
        throw std::invalid_argument("weight_distrib: N, n and k must be positive, r non-negative");
    if (!(alpha <= 1.0 && alpha >= 0.0) || !(beta <= 1.0 && beta >= 0.0))
        throw std::invalid_argument("weight_distrib: alpha and beta must be in [0, 1]");
    const double p = beta - alpha;
    const double nLR = static_cast<double>(n);

    char name[] = "svaria_WeightDistrib";
    sres_InitChi2(res, N, k, name);
    long* Loc = res->Loc;

    // The binomial probabilities times n.
    fmass_INFO Q = fmass_CreateBinomial(k, p, 1.0 - p);
    for (long i = 0; i <= k; ++i)
        res->NbExp[i] = nLR * fmass_BinomialTerm2(Q, i);
    fmass_DeleteBinomial(Q);
    res->jmin = 0;
    res->jmax = k;
    long NbClasses = 0;
    gofs_MergeClasses(res->NbExp, Loc, &res->jmin, &res->jmax, &NbClasses);

    const std::string desc = "WeightDistrib sVal1:   chi2 with " + std::to_string(NbClasses - 1)
        + " degrees of freedom";
    statcoll_SetDesc(res->sVal1, desc.c_str());
    res->degFree = NbClasses - 1;
    if (res->degFree < 1) return;

    threads = std::max(1, threads);
    // A histogram of the weights per thread.
    std::vector<std::vector<long>> hist(
        static_cast<std::size_t>(threads), std::vector<long>(static_cast<std::size_t>(k) + 1));
    // alpha <= U < beta for U = key 2^-bits: ceil(alpha 2^bits) <= key < ceil(beta 2^bits), the
    // products exact (a power of 2) and at most 2^53 where the keys hold.
    const StripKey key(in, r);
    const double two_bits = Numbers::two_exp(in.bits());
    const std::uint64_t low
        = key.exact ? static_cast<std::uint64_t>(std::ceil(alpha * two_bits)) : 0;
    const std::uint64_t high
        = key.exact ? static_cast<std::uint64_t>(std::ceil(beta * two_bits)) : 0;
    const std::uint64_t width = high > low ? high - low : 0;

    // On the device the stream runs on, where it is a CUDA one: every replication's histogram.
    const auto on_device = device_weight_histograms(in, N, n, r, k, alpha, beta);
    for (long Seq = 1; Seq <= N; ++Seq) {
        for (std::vector<long>& h : hist)
            std::fill(h.begin(), h.end(), 0);
        if (on_device) {
            const std::vector<std::uint64_t>& row = (*on_device)[static_cast<std::size_t>(Seq - 1)];
            std::transform(row.begin(), row.end(), hist[0].begin(),
                [](std::uint64_t c) { return static_cast<long>(c); });
        } else
            for_groups(in, n, k, threads, [&](const std::uint64_t* v, long, int thread) {
                std::uint64_t any = 0;
                long W = 0;
                for (long j = 0; j < k; ++j) {
                    any |= v[j];
                    W += key(v[j]) - low < width;
                }
                if (!key.holds(any)) {
                    // svaria_WeightDistrib's loop on StripD's values.
                    W = 0;
                    for (long j = 0; j < k; ++j) {
                        const double U = in.strip_d(v[j], r);
                        if (U >= alpha && U < beta) ++W;
                    }
                }
                ++hist[static_cast<std::size_t>(thread)][static_cast<std::size_t>(W)];
            });
        for (long i = 0; i <= k; ++i)
            res->Count[i] = 0;
        for (const std::vector<long>& h : hist)
            for (long W = 0; W <= k; ++W) {
                if (W > res->jmax)
                    res->Count[res->jmax] += h[static_cast<std::size_t>(W)];
                else
                    res->Count[Loc[W]] += h[static_cast<std::size_t>(W)];
            }
        const double X = gofs_Chi2(res->NbExp, res->Count, res->jmin, res->jmax);
        statcoll_AddObs(res->sVal1, X);
    }

    double V[1] = { static_cast<double>(NbClasses - 1) };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

namespace {

const MaxOftRow max_oft_table[] = {
    // SmallCrush 6: sknuth_MaxOft (gen, res5, 1, 2 * MILLION, 0, MILLION / 10, 6), the Mean
    // p-values of Chi and Bas.
    { "smallcrush", 6, 1, 2000000, 0, 100000, 6, gofw_Mean, gofw_Mean, "" },
    // Crush 41-44: sknuth_MaxOft (gen, res, N, 10 * MILLION, 0, MILLION / 10, t); Sum and AD
    // where N > 1, Mean and Mean where N = 1.
    { "crush", 41, 10, 10000000, 0, 100000, 5, gofw_Sum, gofw_AD, ", t = 5" },
    { "crush", 42, 5, 10000000, 0, 100000, 10, gofw_Sum, gofw_AD, ", t = 10" },
    { "crush", 43, 1, 10000000, 0, 100000, 20, gofw_Mean, gofw_Mean, ", t = 20" },
    { "crush", 44, 1, 10000000, 0, 100000, 30, gofw_Mean, gofw_Mean, ", t = 30" },
    // BigCrush 46-49: the same with other N and t, Sum and AD.
    { "bigcrush", 46, 40, 10000000, 0, 100000, 8, gofw_Sum, gofw_AD, ", t = 8" },
    { "bigcrush", 47, 30, 10000000, 0, 100000, 16, gofw_Sum, gofw_AD, ", t = 16" },
    { "bigcrush", 48, 20, 10000000, 0, 100000, 24, gofw_Sum, gofw_AD, ", t = 24" },
    { "bigcrush", 49, 20, 10000000, 0, 100000, 32, gofw_Sum, gofw_AD, ", t = 32" },
};

const WeightDistribRow weight_distrib_table[] = {
    // SmallCrush 7: svaria_WeightDistrib (gen, res2, 1, MILLION / 5, 27, 256, 0.0, 0.125).
    { "smallcrush", 7, 1, 200000, 27, 256, 0.0, 0.125, "WeightDistrib" },
    // Crush 51-54: svaria_WeightDistrib (gen, res, 1, 2 * MILLION, r, 256, 0.0, 0.125).
    { "crush", 51, 1, 2000000, 0, 256, 0.0, 0.125, "WeightDistrib, r = 0" },
    { "crush", 52, 1, 2000000, 8, 256, 0.0, 0.125, "WeightDistrib, r = 8" },
    { "crush", 53, 1, 2000000, 16, 256, 0.0, 0.125, "WeightDistrib, r = 16" },
    { "crush", 54, 1, 2000000, 24, 256, 0.0, 0.125, "WeightDistrib, r = 24" },
    // BigCrush 59-64: svaria_WeightDistrib (gen, res, 1, 20 * MILLION, r, 256, 0.0, beta).
    { "bigcrush", 59, 1, 20000000, 0, 256, 0.0, 0.25, "WeightDistrib, r = 0" },
    { "bigcrush", 60, 1, 20000000, 20, 256, 0.0, 0.25, "WeightDistrib, r = 20" },
    { "bigcrush", 61, 1, 20000000, 28, 256, 0.0, 0.25, "WeightDistrib, r = 28" },
    { "bigcrush", 62, 1, 20000000, 0, 256, 0.0, 0.0625, "WeightDistrib, r = 0" },
    { "bigcrush", 63, 1, 20000000, 10, 256, 0.0, 0.0625, "WeightDistrib, r = 10" },
    { "bigcrush", 64, 1, 20000000, 26, 256, 0.0, 0.0625, "WeightDistrib, r = 26" },
};

} // namespace

std::vector<MaxOftRow> max_oft_rows()
{
    return { std::begin(max_oft_table), std::end(max_oft_table) };
}

std::vector<WeightDistribRow> weight_distrib_rows()
{
    return { std::begin(weight_distrib_table), std::end(weight_distrib_table) };
}

std::vector<NativeStatistic> max_oft_statistics(
    Numbers& in, const MaxOftRow& row, long n, int threads)
{
    sknuth_Res1* res = sknuth_CreateRes1();
    try {
        max_oft(in, res, row.N, n, row.r, row.d, row.t, threads);
    } catch (...) {
        sknuth_DeleteRes1(res);
        throw;
    }
    std::vector<NativeStatistic> out{
        { std::string("MaxOft") + row.suffix, res->Chi->pVal2[row.chi_pick] },
        { std::string("MaxOft AD") + row.suffix, res->Bas->pVal2[row.ad_pick] },
    };
    sknuth_DeleteRes1(res);
    return out;
}

std::vector<NativeStatistic> weight_distrib_statistics(
    Numbers& in, const WeightDistribRow& row, long n, int threads)
{
    sres_Chi2* res = sres_CreateChi2();
    try {
        weight_distrib(in, res, row.N, n, row.r, row.k, row.alpha, row.beta, threads);
    } catch (...) {
        sres_DeleteChi2(res);
        throw;
    }
    std::vector<NativeStatistic> out{ { row.name, res->pVal2[gofw_Mean] } };
    sres_DeleteChi2(res);
    return out;
}

// Rows of the MaxOft table first, then WeightDistrib's; registry.cpp orders them by battery and
// number.
std::vector<NativeTest> max_oft_tests()
{
    std::vector<NativeTest> tests;
    for (const MaxOftRow& row : max_oft_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return max_oft_statistics(in, row, row.n, threads()); } });
    for (const WeightDistribRow& row : weight_distrib_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return weight_distrib_statistics(in, row, row.n, threads()); } });
    return tests;
}

} // namespace rngvet::native
