// Native smarsa_SerialOver, smarsa_Savir2 and smarsa_GCD (smarsa_more.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): smarsa.c (smarsa_SerialOver,
// smarsa_Savir2, smarsa_GCD, InitRes2), smultin.c (smultin_MultinomialOver, MultinomOver,
// InitPowDiv, CalcTabFj, ReCalcTabFj, CalcPowDivEqual, OverDenseGenere), unif01.c
// (unif01_StripL, unif01_StripD, unif01_StripB), probdist/gofw.c, probdist/gofs.c and
// testu01/sres.c; the battery rows from bbattery.c (Crush tests 1, 2, 62-64, BigCrush 1, 2, 72,
// 73).
//
// SerialOver: the count of each cell of the n overlapping t-tuples is an integer; it is computed
// here, a block of numbers at a time (the next block read while the current one is counted),
// the tuples of a block split among threads, each thread with its own table of counts (each
// cell fetched a few tuples ahead), the tables added. The (t - 1)-tuples' counts are not counted
// apart: the (t - 1)-tuple OverDenseGenere counts with each t-tuple is that t-tuple's prefix,
// so the count of a (t - 1)-cell is the sum of the d t-cells it prefixes. The two chi-square
// sums then run over the cells in TestU01's order with its operations (CalcPowDivEqual, with or
// without CalcTabFj's table: each table entry is the term computed in place), and the rest goes
// through TestU01's own functions (smultin_PowDivMomCorChi, gofw_ActiveTests1, fbar_Normal1).
//
// Savir2: each group's chain I = 1 + StripD * I is TestU01's double operations, several groups
// interleaved and groups on several threads, their final I counted per thread; the classes,
// the chi-square and the tests are TestU01's (gofs_MergeClasses, gofs_Chi2, gofw_ActiveTests2,
// sres_GetChi2SumStat) with its expected numbers computed in its order.
//
// GCD: the pairs of StripB values are read in blocks (a pair with a zero is read and dropped,
// as TestU01 draws again; a block never holds more pairs than are still to be counted, so
// exactly TestU01's numbers are read), Euclid's algorithm on each pair (the same remainders,
// several pairs interleaved) on several threads, the GCDs and the numbers of steps counted
// per thread; the rest is TestU01's.
#include "smarsa_more.hpp"

#include "device_tables.hpp"
#include "device_walks.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iterator>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/smultin.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

void require(bool ok, const char* what)
{
    if (!ok) throw std::invalid_argument(what);
}

// Words read from the stream at a time.
constexpr std::size_t block_words = std::size_t(1) << 22;
// Below this many items a block is worked on one thread.
constexpr long parallel_min = 1L << 16;
// The largest d^t SerialOver takes, and the memory its per-thread tables may take together.
constexpr std::uint64_t serial_max_cells = std::uint64_t(1) << 28;
constexpr std::uint64_t serial_table_bytes = std::uint64_t(1) << 29;

int bit_length(std::uint64_t x)
{
    return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

// ---------------------------------------------------------------------------------------------
// SerialOver

// unif01_StripL(r, d) of a block of words. For d = 2^s, words of at most 53 bits and r below
// them, StripL's steps are exact: StripD is ((w << r) mod 2^bits) 2^-bits and d times it a
// power of 2 times an integer, so StripL is that integer shifted. A word wider than the
// stream's bits takes StripL's own operations.
void strip_l_block(const Numbers& in, const std::uint64_t* w, long m, int r, long d,
    std::uint32_t* out, int threads)
{
    const int bits = in.bits();
    const bool pow2 = (d & (d - 1)) == 0;
    const int s = bit_length(static_cast<std::uint64_t>(d)) - 1;
    const bool exact = pow2 && bits <= 53 && r < bits;
    const int team = m >= parallel_min ? threads : 1;
    std::uint64_t any = 0;
    if (exact) {
#pragma omp parallel for num_threads(team) schedule(static) reduction(| : any)
        for (long i = 0; i < m; ++i)
            any |= w[i];
    }
    if (exact && (any >> bits) == 0) {
        const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
        if (s <= bits) {
            const int shift = bits - s;
#pragma omp parallel for num_threads(team) schedule(static)
            for (long i = 0; i < m; ++i)
                out[i] = static_cast<std::uint32_t>(((w[i] << r) & mask) >> shift);
        } else {
            const int shift = s - bits;
#pragma omp parallel for num_threads(team) schedule(static)
            for (long i = 0; i < m; ++i)
                out[i] = static_cast<std::uint32_t>(((w[i] << r) & mask) << shift);
        }
        return;
    }
    // StripL's own operations: d itself where a wide word's U rounds to 1 (a cell TestU01's
    // table does not have), refused rather than counted outside the tables.
    long outside = 0;
#pragma omp parallel for num_threads(team) schedule(static) reduction(+ : outside)
    for (long i = 0; i < m; ++i) {
        const long x = in.strip_l(w[i], r, d);
        outside += x < 0 || x >= d;
        out[i] = static_cast<std::uint32_t>(x);
    }
    if (outside > 0) throw std::runtime_error("serial_over: StripL gave a value outside [0, d)");
}

// Tuples between a cell's prefetch and its count (the tables are larger than the caches).
constexpr long prefetch_ahead = 64;

// Counts the tuples of t digits ending at e[lo, hi) (lo >= t - 1) into table.
template <class C>
void count_range(
    const std::uint32_t* e, long lo, long hi, int t, std::uint64_t k1, std::uint64_t dd, C* table)
{
    if (lo >= hi) return;
    std::uint64_t key = 0;
    for (long i = lo - t + 1; i <= lo; ++i)
        key = key * dd + e[i];
    ++table[key];
    long i = lo + 1;
    if (hi - lo > prefetch_ahead + 1) {
        // The cell of the tuple prefetch_ahead tuples on, fetched early.
        std::uint64_t ahead = 0;
        for (long j = lo + prefetch_ahead - t + 1; j <= lo + prefetch_ahead; ++j)
            ahead = ahead * dd + e[j];
        for (; i + prefetch_ahead < hi; ++i) {
            const long a = i + prefetch_ahead;
            ahead = (ahead - e[a - t] * k1) * dd + e[a];
            __builtin_prefetch(table + ahead, 1, 0);
            key = (key - e[i - t] * k1) * dd + e[i];
            ++table[key];
        }
    }
    for (; i < hi; ++i) {
        key = (key - e[i - t] * k1) * dd + e[i];
        ++table[key];
    }
}

// Tuples a thread takes at a time.
constexpr long count_chunk = 1L << 16;

// The counts of the k cells of one replication's n overlapping t-tuples, in `team` tables of
// k counts each (C: wide enough for n), added into the first. The calling thread reads the next
// block of words while the other threads count the current one, then joins them.
template <class C>
void count_tuples(Numbers& in, long n, int r, long d, int t, std::uint64_t k, std::uint64_t k1,
    int team, std::vector<std::vector<C>>& tables)
{
    for (std::vector<C>& table : tables)
        std::fill(table.begin(), table.end(), C(0));
    const std::size_t carry_max = static_cast<std::size_t>(t - 1);
    const std::uint64_t dd = static_cast<std::uint64_t>(d);
    const long size
        = static_cast<long>(std::min<std::size_t>(block_words, static_cast<std::size_t>(n)));
    std::vector<std::uint64_t> words[2];
    words[0].resize(static_cast<std::size_t>(size));
    if (n > size) words[1].resize(static_cast<std::size_t>(size));
    // digits[0, c): the last t - 1 (or fewer, at the start) digits before the block.
    std::vector<std::uint32_t> digits(carry_max + static_cast<std::size_t>(size));
    std::vector<std::uint32_t> first; // the first t - 1 digits (OverDenseGenere's Premier)
    std::size_t c = 0;
    int current = 0;
    long m = size;
    in.read(words[0].data(), static_cast<std::size_t>(m));
    for (long done = 0; done < n; current = 1 - current) {
        const int threads = m >= parallel_min ? team : 1;
        strip_l_block(in, words[current].data(), m, r, d, digits.data() + c, threads);
        for (std::size_t i = c; i < c + static_cast<std::size_t>(m) && first.size() < carry_max;
             ++i)
            first.push_back(digits[i]);
        const long next_m = std::min(size, n - done - m);
        std::uint64_t* next_words = words[1 - current].data();
        // Tuples end at digits [t - 1, c + m).
        const long lo_all = t - 1;
        const long hi_all = static_cast<long>(c) + m;
        const long chunks = hi_all > lo_all ? (hi_all - lo_all + count_chunk - 1) / count_chunk : 0;
        const std::uint32_t* e = digits.data();
        // An exception of the reader leaves the parallel region as a value, thrown after it.
        std::exception_ptr read_error;
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_thread_num() == 0 && next_m > 0) {
                try {
                    in.read(next_words, static_cast<std::size_t>(next_m));
                } catch (...) {
                    read_error = std::current_exception();
                }
            }
            C* table = tables[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(dynamic, 1)
            for (long b = 0; b < chunks; ++b) {
                const long lo = lo_all + b * count_chunk;
                count_range(e, lo, std::min(hi_all, lo + count_chunk), t, k1, dd, table);
            }
        }
        if (read_error) std::rethrow_exception(read_error);
        // Keep the last t - 1 digits.
        const std::size_t total = c + static_cast<std::size_t>(m);
        const std::size_t keep = std::min(carry_max, total);
        std::copy(digits.begin() + static_cast<long>(total - keep),
            digits.begin() + static_cast<long>(total), digits.begin());
        c = keep;
        done += m;
        m = next_m;
    }
    // The last t - 1 tuples: the last t - 1 digits followed by the first t - 1.
    std::vector<std::uint32_t> wrap(digits.begin(), digits.begin() + static_cast<long>(c));
    wrap.insert(wrap.end(), first.begin(), first.end());
    C* table = tables[0].data();
    for (std::size_t end = carry_max; end < wrap.size(); ++end) {
        std::uint64_t key = 0;
        for (std::size_t i = end + 1 - static_cast<std::size_t>(t); i <= end; ++i)
            key = key * dd + wrap[i];
        ++table[key];
    }
    // Add the tables.
    if (tables.size() > 1) {
        const long kk = static_cast<long>(k);
#pragma omp parallel for num_threads(team) schedule(static)
        for (long j = 0; j < kk; ++j) {
            C sum = tables[0][static_cast<std::size_t>(j)];
            for (std::size_t h = 1; h < tables.size(); ++h)
                sum += tables[h][static_cast<std::size_t>(j)];
            tables[0][static_cast<std::size_t>(j)] = sum;
        }
    }
}

// MultinomOver's X and X1 from the counts of the t-cells (CalcPowDivEqual with delta = 1 on
// Count in cell order, with CalcTabFj's table where flag_tab: each entry F[i] is
// (i - NbExp)^2 / NbExp, so it is computed in place; without, the squares summed then divided;
// X1 on the (t - 1)-cells' counts, without table).
template <class C>
void chi_squares(const std::vector<C>& count, std::uint64_t k1, long d, double NbExp, double NbExp1,
    bool flag_tab, double* X, double* X1)
{
    double x = 0.0, x1 = 0.0;
    const C* c = count.data();
    const std::size_t dd = static_cast<std::size_t>(d);
    for (std::uint64_t a = 0; a < k1; ++a, c += dd) {
        long prefix = 0;
        for (std::size_t j = 0; j < dd; ++j) {
            const long cj = static_cast<long>(c[j]);
            const double temp = static_cast<double>(cj) - NbExp;
            if (flag_tab)
                x += temp * temp / NbExp;
            else
                x += temp * temp;
            prefix += cj;
        }
        const double temp1 = static_cast<double>(prefix) - NbExp1;
        x1 += temp1 * temp1;
    }
    if (!flag_tab) x /= NbExp;
    x1 /= NbExp1;
    *X = x;
    *X1 = x1;
}

// ---------------------------------------------------------------------------------------------
// Savir2

// Groups worked through together (their chains interleave).
constexpr int savir2_lanes = 8;

// The final I of groups [g0, g1) of t words each: I = m, then t times I = 1 + StripD * I.
template <class Count>
void savir2_groups(const Numbers& in, const std::uint64_t* w, long g0, long g1, int r, long m,
    int t, long msup, const Count& count)
{
    const std::size_t tt = static_cast<std::size_t>(t);
    long g = g0;
    for (; g + savir2_lanes <= g1; g += savir2_lanes) {
        long I[savir2_lanes];
        const std::uint64_t* v = w + static_cast<std::size_t>(g) * tt;
        for (int l = 0; l < savir2_lanes; ++l)
            I[l] = m;
        for (std::size_t i = 0; i < tt; ++i)
            for (int l = 0; l < savir2_lanes; ++l)
                I[l] = static_cast<long>(1
                    + in.strip_d(v[static_cast<std::size_t>(l) * tt + i], r)
                        * static_cast<double>(I[l]));
        for (int l = 0; l < savir2_lanes; ++l)
            count(I[l] > msup ? msup : I[l]);
    }
    for (; g < g1; ++g) {
        const std::uint64_t* v = w + static_cast<std::size_t>(g) * tt;
        long I = m;
        for (std::size_t i = 0; i < tt; ++i)
            I = static_cast<long>(1 + in.strip_d(v[i], r) * static_cast<double>(I));
        count(I > msup ? msup : I);
    }
}

// ---------------------------------------------------------------------------------------------
// GCD

// smarsa_GCD's KMAX and P1.
constexpr int gcd_kmax = 50;
constexpr double gcd_p1 = 0.376;

// Pairs whose Euclid's algorithms run together: their divisions are independent, so they
// overlap in the processor where one pair's would wait for each other.
constexpr int gcd_lanes = 4;

// Euclid's algorithm on the pairs [lo, hi) of StripB(r, s) values of w (a pair with a zero
// skipped): gcd_count(GCD, steps) for each other pair; returns the number of those.
template <class Count>
long gcd_pairs(const Numbers& in, const std::uint64_t* w, long lo, long hi, int r, int s,
    const Count& gcd_count)
{
    std::uint32_t U[gcd_lanes], V[gcd_lanes];
    int k[gcd_lanes];
    long next = lo, kept = 0;
    // The next pair without a zero into lane l; false where none is left.
    auto load = [&](int l) {
        while (next < hi) {
            const std::size_t i = 2 * static_cast<std::size_t>(next++);
            const auto u = static_cast<std::uint32_t>(in.strip_b(w[i], r, s));
            const auto v = static_cast<std::uint32_t>(in.strip_b(w[i + 1], r, s));
            if (u == 0 || v == 0) continue;
            U[l] = u;
            V[l] = v;
            k[l] = 0;
            ++kept;
            return true;
        }
        return false;
    };
    int active = 0;
    for (int l = 0; l < gcd_lanes; ++l) {
        if (load(l))
            ++active;
        else
            k[l] = -1;
    }
    while (active > 0) {
        for (int l = 0; l < gcd_lanes; ++l) {
            if (k[l] < 0) continue;
            const std::uint32_t rem = U[l] % V[l];
            U[l] = V[l];
            V[l] = rem;
            ++k[l];
            if (rem == 0) {
                gcd_count(U[l], k[l]);
                if (!load(l)) {
                    k[l] = -1;
                    --active;
                }
            }
        }
    }
    return kept;
}

} // namespace

void serial_over(Numbers& in, sres_Basic* res, long N, long n, int r, long d, int t, int threads)
{
    threads = std::max(1, threads);
    require(N >= 1, "serial_over: N < 1");
    require(n > 4, "serial_over: n <= 4");
    require(t >= 2 && t <= n, "serial_over: t out of [2, n]");
    require(r >= 0 && r < 64, "serial_over: r out of range");
    require(d >= 2, "serial_over: d < 2");
    std::uint64_t k1 = 1;
    for (int i = 1; i < t; ++i) {
        require(k1 <= serial_max_cells / static_cast<std::uint64_t>(d), "serial_over: d^t > 2^28");
        k1 *= static_cast<std::uint64_t>(d);
    }
    require(k1 <= serial_max_cells / static_cast<std::uint64_t>(d), "serial_over: d^t > 2^28");
    const std::uint64_t k = k1 * static_cast<std::uint64_t>(d);
    const std::uint64_t z = k - k1;

    // MultinomOver and InitPowDiv (Sparse = FALSE, one delta = 1).
    const double NbExp = static_cast<double>(n) / static_cast<double>(k);
    const double NbExp1 = static_cast<double>(n) / static_cast<double>(k1);
    const double NbExpZ = static_cast<double>(n) / static_cast<double>(z);
    require(!(static_cast<double>(z) >= smultin_env.SeuilHash && NbExpZ < 1.0),
        "serial_over: the hashing (sparse) case of MultinomialOver");
    double Mu, Sigma;
    smultin_PowDivMomCorChi(1.0, n, static_cast<double>(z), &Mu, &Sigma);
    // CalcTabFj: a table (the same terms) unless 6 NbExp > k.
    const bool flag_tab = !(6.0 * NbExp > static_cast<double>(k));

    // Tables of counts: one per thread, within the memory allowed.
    const bool narrow = static_cast<std::uint64_t>(n) <= 0xFFFFFFFFull;
    const std::uint64_t table_bytes = k * (narrow ? 4 : 8);
    const int team = n < parallel_min
        ? 1
        : static_cast<int>(std::max<std::uint64_t>(1,
            std::min<std::uint64_t>(
                static_cast<std::uint64_t>(threads), serial_table_bytes / table_bytes)));
    std::vector<std::vector<std::uint32_t>> tables32;
    std::vector<std::vector<std::uint64_t>> tables64;
    std::optional<std::vector<std::uint64_t>> on_device; // counted on the stream's CUDA device

    std::vector<double> values(static_cast<std::size_t>(N) + 1, 0.0); // 1-based, as statcoll's
    double SumX = 0.0, SumX2 = 0.0, X0Pre = 0.0;
    for (long Seq = 1; Seq <= N; ++Seq) {
        double X, X1;
        if ((on_device = device_serial_over_counts(in, n, r, d, t))) {
            chi_squares(*on_device, k1, d, NbExp, NbExp1, flag_tab, &X, &X1);
        } else if (narrow) {
            tables32.resize(static_cast<std::size_t>(team), std::vector<std::uint32_t>(k));
            count_tuples(in, n, r, d, t, k, k1, team, tables32);
            chi_squares(tables32[0], k1, d, NbExp, NbExp1, flag_tab, &X, &X1);
        } else {
            tables64.resize(static_cast<std::size_t>(team), std::vector<std::uint64_t>(k));
            count_tuples(in, n, r, d, t, k, k1, team, tables64);
            chi_squares(tables64[0], k1, d, NbExp, NbExp1, flag_tab, &X, &X1);
        }
        double X0 = (X - X1 - Mu) / Sigma;
        values[static_cast<std::size_t>(Seq)] = X0;
        X0 = (X0 - static_cast<double>(k) + static_cast<double>(k1))
            / std::sqrt(2.0 * static_cast<double>(k - k1));
        SumX += X0;
        SumX2 += X0 * X0Pre;
        X0Pre = X0;
    }

    // MultinomOver's results, then smarsa_SerialOver's copy into res.
    double sVal2[gofw_NTestTypes], pVal2[gofw_NTestTypes];
    gofw_InitTestArray(sVal2, -1.0);
    gofw_InitTestArray(pVal2, -1.0);
    double V[1] = { static_cast<double>(k - k1) };
    gofw_ActiveTests1(values.data(), N, wdist_ChiSquare, V, sVal2, pVal2);
    if (N > 1) {
        const double racN = std::sqrt(static_cast<double>(N));
        sVal2[gofw_Mean] = SumX / racN;
        pVal2[gofw_Mean] = fbar_Normal1(sVal2[gofw_Mean]);
        sVal2[gofw_Cor] = racN * SumX2 / static_cast<double>(N - 1);
        pVal2[gofw_Cor] = fbar_Normal1(sVal2[gofw_Cor]);
    }
    char name[] = "smarsa_SerialOver";
    sres_InitBasic(res, N, name);
    statcoll_SetDesc(res->sVal1, "SerialOver sVal1");
    res->sVal1->NObs = N;
    for (long i = 1; i <= N; ++i)
        res->sVal1->V[i] = values[static_cast<std::size_t>(i)];
    for (int i = 0; i < gofw_NTestTypes; ++i) {
        res->sVal2[i] = sVal2[i];
        res->pVal2[i] = pVal2[i];
    }
}

void savir2(Numbers& in, sres_Chi2* res, long N, long n, int r, long m, int t, int threads)
{
    threads = std::max(1, threads);
    require(N >= 1 && n >= 1 && t >= 1, "savir2: N, n and t must be positive");
    require(r >= 0, "savir2: r < 0");
    require(m >= 1 && m < (1L << 31), "savir2: m out of [1, 2^31)");
    const double eps = 1.0E-15;
    const double UnSurm = 1.0 / static_cast<double>(m);

    // The probabilities of the final I, as smarsa_Savir2 computes them.
    std::vector<double> Prob(static_cast<std::size_t>(m) + 2);
    Prob[static_cast<std::size_t>(m) + 1] = 0.0;
    for (long j = 1; j <= m; ++j)
        Prob[static_cast<std::size_t>(j)] = UnSurm;
    for (int i = 2; i <= t; ++i)
        for (long j = m; j >= 1; --j)
            Prob[static_cast<std::size_t>(j)] = Prob[static_cast<std::size_t>(j) + 1]
                + Prob[static_cast<std::size_t>(j)] / static_cast<double>(j);
    long j = 1;
    while (Prob[static_cast<std::size_t>(j)] > eps)
        ++j;
    const long msup = j - 1;

    char name[] = "smarsa_Savir2";
    sres_InitChi2(res, N, msup, name);
    for (long i = 1; i <= msup; ++i)
        res->NbExp[i] = Prob[static_cast<std::size_t>(i)] * static_cast<double>(n);
    Prob = std::vector<double>();
    long* Loca = res->Loc;
    long jlow = 1, jhigh = msup, NbGroups = 0;
    gofs_MergeClasses(res->NbExp, Loca, &jlow, &jhigh, &NbGroups);
    res->jmin = jlow;
    res->jmax = jhigh;
    res->degFree = NbGroups - 1;
    if (res->degFree < 1) return;
    require(static_cast<double>(n) >= 2.0 * gofs_MinExpected, "savir2: n <= 2*gofs_MinExpected");

    char desc[160];
    std::snprintf(desc, sizeof desc,
        "The N statistic values (a ChiSquare with %1ld degrees of freedom):", NbGroups - 1);
    statcoll_SetDesc(res->sVal1, desc);

    const std::size_t tt = static_cast<std::size_t>(t);
    const long chunk = static_cast<long>(std::max<std::size_t>(1, block_words / tt));
    std::vector<std::uint64_t> words(static_cast<std::size_t>(std::min(chunk, n)) * tt);
    std::vector<std::vector<long>> hist(
        static_cast<std::size_t>(threads), std::vector<long>(static_cast<std::size_t>(msup) + 1));
    // On the device the stream runs on, where it is a CUDA one: every replication's histogram.
    const auto on_device = device_savir2_histograms(in, N, n, r, m, t, msup);
    for (long Seq = 1; Seq <= N; ++Seq) {
        for (std::vector<long>& h : hist)
            std::fill(h.begin(), h.end(), 0);
        if (on_device) {
            const std::vector<std::uint64_t>& row = (*on_device)[static_cast<std::size_t>(Seq - 1)];
            for (long I = 1; I <= msup; ++I)
                hist[0][static_cast<std::size_t>(I)]
                    = static_cast<long>(row[static_cast<std::size_t>(I)]);
        }
        for (long done = 0; done < n && !on_device;) {
            const long g = std::min(chunk, n - done);
            in.read(words.data(), static_cast<std::size_t>(g) * tt);
            const int team = g * t >= parallel_min ? threads : 1;
            const std::uint64_t* w = words.data();
#pragma omp parallel num_threads(team)
            {
                const long nt = omp_get_num_threads();
                const long id = omp_get_thread_num();
                const long lo = g / nt * id + std::min(id, g % nt);
                const long hi = lo + g / nt + (id < g % nt ? 1 : 0);
                long* h = hist[static_cast<std::size_t>(id)].data();
                savir2_groups(in, w, lo, hi, r, m, t, msup, [h](long I) { ++h[I]; });
            }
            done += g;
        }
        for (long i = jlow; i <= jhigh; ++i)
            res->Count[i] = 0;
        for (const std::vector<long>& h : hist)
            for (long I = 1; I <= msup; ++I)
                res->Count[Loca[I]] += h[static_cast<std::size_t>(I)];
        const double X2 = gofs_Chi2(res->NbExp, res->Count, jlow, jhigh);
        statcoll_AddObs(res->sVal1, X2);
    }

    double V[1] = { static_cast<double>(NbGroups - 1) };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

void gcd(Numbers& in, smarsa_Res2* res, long N, long n, int r, int s, int threads)
{
    threads = std::max(1, threads);
    require(N >= 1, "gcd: N < 1");
    require(s >= 1 && s <= 32 && r >= 0 && r + s <= 32, "gcd: r and s out of range");
    const double C1 = 6 / (num_Pi * num_Pi);
    if (n < 30) return;
    if (static_cast<double>(n) > std::pow(2.0, 1.5 * s)) return;
    const int jmax
        = static_cast<int>(1 + std::sqrt(C1 * static_cast<double>(n) / gofs_MinExpected));
    require(jmax > 1, "gcd: jmax < 2");
    // InitRes2.
    char gcd_name[] = "smarsa_GCD:   GCD";
    char iter_name[] = "smarsa_GCD:   NumIter";
    sres_InitChi2(res->GCD, N, jmax, gcd_name);
    sres_InitChi2(res->NumIter, N, gcd_kmax, iter_name);

    sres_Chi2* G = res->GCD;
    G->jmin = 1;
    G->jmax = jmax;
    G->degFree = jmax - 1;
    char desc[160];
    std::snprintf(desc, sizeof desc,
        "GCD; the N statistic values (a ChiSquare with %1d degrees of freedom):", jmax - 1);
    statcoll_SetDesc(G->sVal1, desc);
    double X = 0.0;
    for (int j = 1; j < jmax; ++j) {
        G->NbExp[j] = static_cast<double>(n) * C1 / (static_cast<double>(j) * j);
        X += G->NbExp[j];
        G->Loc[j] = j;
    }
    G->NbExp[jmax] = static_cast<double>(n) - X;

    sres_Chi2* It = res->NumIter;
    fmass_INFO Q = fmass_CreateBinomial(gcd_kmax, gcd_p1, 1.0 - gcd_p1);
    for (long i = 0; i <= gcd_kmax; ++i)
        It->NbExp[i] = static_cast<double>(n) * fmass_BinomialTerm2(Q, i);
    fmass_DeleteBinomial(Q);
    It->jmin = 0;
    It->jmax = gcd_kmax;
    long NbClasses = 0;
    gofs_MergeClasses(It->NbExp, It->Loc, &It->jmin, &It->jmax, &NbClasses);
    std::snprintf(desc, sizeof desc,
        "NumIter; the N statistic values (a ChiSquare with %1ld degrees of freedom):",
        NbClasses - 1);
    statcoll_SetDesc(It->sVal1, desc);
    It->degFree = NbClasses - 1;
    require(It->degFree >= 1, "gcd: NumIter->degFree < 1");

    const std::size_t gcd_classes = static_cast<std::size_t>(jmax) + 1;
    const std::size_t iter_classes = static_cast<std::size_t>(gcd_kmax) + 1;
    // Per thread: the GCDs (clamped to jmax), the steps (clamped to KMAX), the pairs kept.
    const std::size_t stride = gcd_classes + iter_classes + 1;
    std::vector<long> hist(static_cast<std::size_t>(threads) * stride);
    const long chunk = static_cast<long>(block_words / 2);
    std::vector<std::uint64_t> words(static_cast<std::size_t>(std::min(chunk, n)) * 2);
    const unsigned long high = static_cast<unsigned long>(jmax);

    // On the device the stream runs on, where it is a CUDA one: every replication's GCDs and
    // steps, one table (device_tables.hpp), spread here into the first thread's counts.
    const auto on_device = device_gcd_tables(in, N, n, r, s, jmax, gcd_kmax);
    for (long Seq = 1; Seq <= N; ++Seq) {
        std::fill(hist.begin(), hist.end(), 0);
        if (on_device) {
            const std::vector<std::uint64_t>& row = (*on_device)[static_cast<std::size_t>(Seq - 1)];
            long* h = hist.data();
            long* steps = h + gcd_classes;
            for (std::size_t u = 0; u < gcd_classes; ++u)
                for (std::size_t k = 0; k < iter_classes; ++k) {
                    const long c = static_cast<long>(row[1 + u * iter_classes + k]);
                    h[u] += c;
                    steps[k] += c;
                }
        }
        for (long left = n; left > 0 && !on_device;) {
            const long p = std::min(chunk, left);
            in.read(words.data(), static_cast<std::size_t>(p) * 2);
            const int team = p >= parallel_min ? threads : 1;
            const std::uint64_t* w = words.data();
            long kept = 0;
#pragma omp parallel num_threads(team) reduction(+ : kept)
            {
                const long nt = omp_get_num_threads();
                const long id = omp_get_thread_num();
                const long lo = p / nt * id + std::min(id, p % nt);
                const long hi = lo + p / nt + (id < p % nt ? 1 : 0);
                long* h = hist.data() + static_cast<std::size_t>(id) * stride;
                long* steps = h + gcd_classes;
                kept += gcd_pairs(in, w, lo, hi, r, s, [h, steps, high](std::uint32_t U, int k) {
                    ++h[U > high ? high : U];
                    ++steps[k > gcd_kmax ? gcd_kmax : k];
                });
            }
            left -= kept;
        }
        for (long i = 0; i <= gcd_kmax; ++i)
            It->Count[i] = 0;
        for (long i = 0; i <= G->jmax; ++i)
            G->Count[i] = 0;
        for (int id = 0; id < threads; ++id) {
            const long* h = hist.data() + static_cast<std::size_t>(id) * stride;
            for (std::size_t u = 0; u < gcd_classes; ++u)
                G->Count[u] += h[u];
            for (std::size_t k = 0; k < iter_classes; ++k)
                It->Count[It->Loc[k]] += h[gcd_classes + k];
        }
        X = gofs_Chi2(G->NbExp, G->Count, G->jmin, G->jmax);
        statcoll_AddObs(G->sVal1, X);
        X = gofs_Chi2(It->NbExp, It->Count, It->jmin, It->jmax);
        statcoll_AddObs(It->sVal1, X);
    }

    double Param[1] = { static_cast<double>(G->degFree) };
    gofw_ActiveTests2(G->sVal1->V, G->pVal1->V, N, wdist_ChiSquare, Param, G->sVal2, G->pVal2);
    G->pVal1->NObs = N;
    sres_GetChi2SumStat(G);
}

namespace {

const SmarsaMoreRow row_table[] = {
    // Crush 1-2: smarsa_SerialOver (gen, res, 1, n, 0, d, t), pVal2[gofw_Mean].
    { "crush", 1, "SerialOver, t = 2", SmarsaMoreTest::serial_over, 1, 500000000, 0, 4096, 2,
        gofw_Mean },
    { "crush", 2, "SerialOver, t = 4", SmarsaMoreTest::serial_over, 1, 300000000, 0, 64, 4,
        gofw_Mean },
    // Crush 62: smarsa_Savir2 (gen, res, 1, 20 * MILLION, 0, 1024*1024, 30), pVal2[gofw_Mean].
    { "crush", 62, "Savir2", SmarsaMoreTest::savir2, 1, 20000000, 0, 1024 * 1024, 30, gofw_Mean },
    // Crush 63-64: smarsa_GCD (gen, res2, 1, n, r, s), GCD->pVal2[gofw_Mean].
    { "crush", 63, "GCD, r = 0", SmarsaMoreTest::gcd, 1, 100000000, 0, 0, 30, gofw_Mean },
    { "crush", 64, "GCD, r = 10", SmarsaMoreTest::gcd, 1, 40000000, 10, 0, 20, gofw_Mean },
    // BigCrush 1-2: smarsa_SerialOver (gen, res, 1, BILLION, r, 256, 3), pVal2[gofw_Mean].
    { "bigcrush", 1, "SerialOver, r = 0", SmarsaMoreTest::serial_over, 1, 1000000000, 0, 256, 3,
        gofw_Mean },
    { "bigcrush", 2, "SerialOver, r = 22", SmarsaMoreTest::serial_over, 1, 1000000000, 22, 256, 3,
        gofw_Mean },
    // BigCrush 72: smarsa_Savir2 (gen, res, 10, 10 * MILLION, 10, 1024*1024, 30), pVal2[gofw_Sum].
    { "bigcrush", 72, "Savir2", SmarsaMoreTest::savir2, 10, 10000000, 10, 1024 * 1024, 30,
        gofw_Sum },
    // BigCrush 73: smarsa_GCD (gen, res2, 10, 50 * MILLION, 0, 30), GCD->pVal2[gofw_Sum].
    { "bigcrush", 73, "GCD", SmarsaMoreTest::gcd, 10, 50000000, 0, 0, 30, gofw_Sum },
};

} // namespace

std::vector<SmarsaMoreRow> smarsa_more_rows()
{
    return { std::begin(row_table), std::end(row_table) };
}

std::vector<NativeStatistic> smarsa_more_statistics(
    Numbers& in, const SmarsaMoreRow& row, long n, int threads)
{
    double p = -1.0;
    switch (row.test) {
    case SmarsaMoreTest::serial_over: {
        sres_Basic* res = sres_CreateBasic();
        try {
            serial_over(in, res, row.N, n, row.r, row.d, row.t, threads);
        } catch (...) {
            sres_DeleteBasic(res);
            throw;
        }
        p = res->pVal2[row.pick];
        sres_DeleteBasic(res);
        break;
    }
    case SmarsaMoreTest::savir2: {
        sres_Chi2* res = sres_CreateChi2();
        try {
            savir2(in, res, row.N, n, row.r, row.d, row.t, threads);
        } catch (...) {
            sres_DeleteChi2(res);
            throw;
        }
        p = res->pVal2[row.pick];
        sres_DeleteChi2(res);
        break;
    }
    case SmarsaMoreTest::gcd: {
        smarsa_Res2* res = smarsa_CreateRes2();
        try {
            gcd(in, res, row.N, n, row.r, row.t, threads);
        } catch (...) {
            smarsa_DeleteRes2(res);
            throw;
        }
        p = res->GCD->pVal2[row.pick];
        smarsa_DeleteRes2(res);
        break;
    }
    }
    return { NativeStatistic{ row.name, p } };
}

std::vector<NativeTest> smarsa_more_tests()
{
    std::vector<NativeTest> tests;
    for (const SmarsaMoreRow& row : row_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return smarsa_more_statistics(in, row, row.n, threads()); } });
    return tests;
}

} // namespace rngvet::native
