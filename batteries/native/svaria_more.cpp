// Native svaria_SampleProd, svaria_SampleMean, svaria_SampleCorr, svaria_AppearanceSpacings and
// svaria_SumCollector (svaria_more.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): testu01/svaria.c (the five tests,
// InitFDistMeans, FDistMeans, FDistProd, ProbabiliteG, InitAppear, CalcSigma), unif01.c
// (unif01_StripD, unif01_StripB), probdist/gofw.c (gofw_ActiveTests0/1/2, gofw_Tests0),
// probdist/gofs.c and testu01/sres.c; the battery rows from bbattery.c (Crush 45-50 and 55,
// BigCrush 50-58 and 65).
//
// The words are read on the calling thread a chunk at a time while a second thread works through
// the chunk read before. Every floating-point value is computed with TestU01's operations in
// TestU01's order: each product of t numbers and each sum of n numbers in its order (the
// products of SampleProd and the sums of SampleMean, independent of each other, on several
// threads), SampleCorr's and AppearanceSpacings' sums and SumCollector's partial sums in one
// sequence, as TestU01 adds them. What may be reordered is: the terms themselves (SampleCorr's
// lagged products, AppearanceSpacings' logarithms, the distribution values of the gofw
// transforms), computed apart from the sums they enter; the sorts (a radix sort of the values'
// bits: a sorted sequence of values does not depend on the algorithm); whole replications'
// statistics where TestU01 sorts them before use (SampleProd sorts and tests one replication
// while the next one's numbers are read); and the integer work (AppearanceSpacings' blocks and
// table of last appearances, SumCollector's class counts). SumCollector's sums, each started
// from 0.0 after its predecessor's last number, are cut at guessed starts and run in parallel
// parts whose chains are joined where the true chain meets the guessed one (sum_chunk). It stops
// after a count of numbers that depends on the numbers: every read is capped by what the test is
// certain to consume (each remaining sum takes more than g numbers). The rest comes from
// TestU01's own functions (fmass, num2, gofs, gofw, fbar, sres, statcoll), called with the same
// arguments in the same order.
//
// Where the stream runs on a CUDA device, SampleProd's products (device.hpp), SumCollector's
// sums and AppearanceSpacings' distances to last appearances (device_svaria.hpp) are computed
// there: SumCollector's counts of sums by length come back, and AppearanceSpacings' distances,
// whose logarithms are summed here in TestU01's order. AppearanceSpacings' logarithms are
// memoised (LogTable: std::log of the same distance, the same bits).
#include "svaria_more.hpp"

#include "active_tests.hpp"
#include "device.hpp"
#include "device_svaria.hpp"
#include "families.hpp"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <future>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/fbar.h>
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/num2.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read from the stream at a time (8 MiB; two buffers).
constexpr std::size_t chunk_words = std::size_t(1) << 20;
// Sizes below which the sorts and transforms stay on one thread.
constexpr long parallel_min = 1 << 15;

// Reads the stream a chunk at a time on the calling thread (the stream's own thread, as a device
// stream may need) and hands each chunk, in stream order, to work(words, count). With `overlap`
// the work on a chunk runs on a second thread while the next chunk is read. next_size(in_flight)
// gives the next read's size, knowing that a chunk of in_flight words may still be worked on (0
// when none is); 0 waits for that work and asks again, or, with none in flight, ends.
template <class NextSize, class Work>
void pipeline(Numbers& in, bool overlap, NextSize next_size, Work work)
{
    std::vector<std::uint64_t> buffer[2];
    std::future<void> pending;
    std::size_t in_flight = 0;
    int current = 0;
    while (true) {
        const std::size_t m = next_size(in_flight);
        if (m == 0) {
            if (in_flight == 0) break;
            pending.get();
            in_flight = 0;
            continue;
        }
        std::vector<std::uint64_t>& b = buffer[current];
        if (b.size() < m) b.resize(m);
        in.read(b.data(), m);
        if (pending.valid()) pending.get();
        in_flight = 0;
        if (overlap) {
            const std::uint64_t* w = b.data();
            pending = std::async(std::launch::async, [&work, w, m] { work(w, m); });
            in_flight = m;
            current = 1 - current;
        } else {
            work(b.data(), m);
        }
    }
}

// A next_size for a test that reads `total` words in reads of whole groups of `group` words.
struct FixedReads {
    FixedReads(std::uint64_t total_words, std::size_t group)
        : left(total_words)
        , most(std::max<std::size_t>(group, chunk_words - chunk_words % group))
    {
    }
    std::size_t operator()(std::size_t)
    {
        const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(left, most));
        left -= m;
        return m;
    }
    std::uint64_t left;
    std::size_t most;
};

// Threads for the work on a chunk while the calling thread reads the next one.
int work_threads(int threads)
{
    return std::max(1, threads - 1);
}

// A double's bits as a key that orders as the values do (for values other than NaN; -0.0
// before 0.0, which the tests here never produce).
std::uint64_t order_key(double x)
{
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (std::uint64_t(1) << 63);
}

double from_order_key(std::uint64_t k)
{
    const std::uint64_t b = k >> 63 ? k & ~(std::uint64_t(1) << 63) : ~k;
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

// Sorts a[0..n) by a least-significant-digit radix sort of order_key, 11 bits a pass, a pass
// skipped where every key has the same digit. Equal values have equal bits, so the sorted
// sequence is the one any sort gives.
void radix_sort(double* a, std::size_t n)
{
    if (n < 256) {
        std::sort(a, a + n);
        return;
    }
    constexpr int digit_bits = 11, passes = 6;
    constexpr std::size_t buckets = std::size_t(1) << digit_bits;
    std::vector<std::uint64_t> keys(n), other(n);
    std::vector<std::size_t> count(buckets * passes, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t k = order_key(a[i]);
        keys[i] = k;
        for (int p = 0; p < passes; ++p)
            ++count[static_cast<std::size_t>(p) * buckets
                + ((k >> (p * digit_bits)) & (buckets - 1))];
    }
    for (int p = 0; p < passes; ++p) {
        std::size_t* c = count.data() + static_cast<std::size_t>(p) * buckets;
        const int shift = p * digit_bits;
        if (c[(keys[0] >> shift) & (buckets - 1)] == n) continue; // one digit for all
        std::size_t offset = 0;
        for (std::size_t d = 0; d < buckets; ++d) {
            const std::size_t k = c[d];
            c[d] = offset;
            offset += k;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t k = keys[i];
            other[c[(k >> shift) & (buckets - 1)]++] = k;
        }
        keys.swap(other);
    }
    for (std::size_t i = 0; i < n; ++i)
        a[i] = from_order_key(keys[i]);
}

// Sorts a[0..n) on `threads` threads: parts sorted apart, then merged pairwise.
void parallel_sort(double* a, long n, int threads)
{
    if (threads <= 1 || n < parallel_min) {
        radix_sort(a, static_cast<std::size_t>(n));
        return;
    }
    int parts = 1;
    while (parts * 2 <= threads)
        parts *= 2;
    std::vector<long> cut(static_cast<std::size_t>(parts) + 1);
    for (int i = 0; i <= parts; ++i)
        cut[static_cast<std::size_t>(i)] = n / parts * i;
    cut[static_cast<std::size_t>(parts)] = n;
#pragma omp parallel for num_threads(parts) schedule(static)
    for (int i = 0; i < parts; ++i)
        radix_sort(a + cut[static_cast<std::size_t>(i)],
            static_cast<std::size_t>(
                cut[static_cast<std::size_t>(i) + 1] - cut[static_cast<std::size_t>(i)]));
    for (int width = 1; width < parts; width *= 2) {
#pragma omp parallel for num_threads(parts / (2 * width)) schedule(static)
        for (int i = 0; i < parts; i += 2 * width)
            std::inplace_merge(a + cut[static_cast<std::size_t>(i)],
                a + cut[static_cast<std::size_t>(i + width)],
                a + cut[static_cast<std::size_t>(i + 2 * width)]);
    }
}

// gofw_ActiveTests2 (V, U, N, F, par, sVal, pVal): V sorted in place, U = F(V) (in parallel),
// ActiveTests0 on U as it comes. F must be safe to call from several threads.
void active_tests2(double* V, double* U, long N, wdist_CFUNC F, double* par, double* sVal,
    double* pVal, int threads)
{
    parallel_sort(V + 1, N, threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && N >= parallel_min)
    for (long i = 1; i <= N; ++i)
        U[i] = F(par, V[i]);
    active_tests0(U, N, sVal, pVal, threads);
    if (N == 1) sVal[gofw_Mean] = V[1];
}

// ---------------------------------------------------------------------------------------------
// svaria_SampleProd

// FDistProd (svaria.c): the distribution of a product of Par[0] uniforms, x times the series
// of (-ln x)^j / j!, summed until a term falls below DBL_EPSILON, with FDistProd's operations.
double prod_distribution(double* Par, double x)
{
    if (x >= 1.0) return 1.0;
    if (x <= 0.0) return 0.0;
    const double ln_x = std::log(x);
    const int t = static_cast<int>(Par[0]);
    double sum = 1.0, power = 1.0, signed_factorial = 1.0;
    for (int j = 1; j < t; ++j) {
        power *= ln_x;
        signed_factorial *= static_cast<double>(-j);
        sum += power / signed_factorial;
        if (power / signed_factorial < DBL_EPSILON) break;
    }
    return x * sum;
}

// ---------------------------------------------------------------------------------------------
// svaria_SampleMean

// The exact law of a sum of fewer than mean_exact_limit uniforms (svaria.c's SAM_LIM); its
// coefficients in C[0..n], n itself in C[mean_exact_limit] (InitFDistMeans).
constexpr int mean_exact_limit = 60;

void init_mean_distribution(int n, double* C)
{
    const double factorial = num2_Factorial(n);
    fmass_INFO Q = fmass_CreateBinomial(n, -1.0, 1.0);
    for (int s = 0; s <= n; ++s)
        C[s] = fmass_BinomialTerm2(Q, s) / factorial;
    fmass_DeleteBinomial(Q);
    C[mean_exact_limit] = n;
}

// FDistMeans (svaria.c): the law of the sum (Stephens 1966), from the near end, with its
// operations in its order.
double mean_distribution(double* C, double x)
{
    const double nLR = C[mean_exact_limit];
    const int n = static_cast<int>(nLR);
    if (x <= 0.0) return 0.0;
    if (x >= n) return 1.0;
    const int M = static_cast<int>(x);
    double sum = 0.0;
    if (x < n / 2.0) {
        for (int i = 0; i <= M; ++i) {
            sum += C[i] * std::pow(x, nLR);
            x -= 1.0;
        }
    } else {
        x = -x + nLR;
        for (int i = n; i >= M + 1; --i) {
            sum += C[i] * std::pow(x, nLR);
            x -= 1.0;
        }
        if (!(n & 1)) sum = -sum;
        sum += 1.0;
    }
    return sum;
}

// ---------------------------------------------------------------------------------------------
// svaria_AppearanceSpacings

// Maurer's mean and K times the variance of log2 of a spacing of blocks of L bits (InitAppear).
void appearance_moments(int L, double* mean, double* k_variance)
{
    static const double E[17] = { 0, 0.73264948, 1.53743829, 2.40160681, 3.31122472, 4.25342659,
        5.21770525, 6.19625065, 7.18366555, 8.17642476, 9.17232431, 10.1700323, 11.1687649,
        12.1680703, 13.1676926, 14.1674884, 15.1673788 };
    static const double KV[17] = { 0, 0.68977, 1.33774, 1.90133, 2.35774, 2.70455, 2.95403, 3.12539,
        3.23866, 3.31120, 3.35646, 3.38409, 3.40065, 3.41043, 3.41614, 3.41943, 3.42130 };
    if (L > 16) {
        *mean = L - 8.32746E-1;
        *k_variance = 3.423715;
    } else {
        *mean = E[L];
        *k_variance = KV[L];
    }
}

// log of a distance (a non-negative integer) as the CPU path computes it, std::log of the
// distance as a double, memoised below 2^20 (the same function of the same argument gives the
// same bits): the distances of L-bit blocks are about 2^L apart.
class LogTable {
public:
    LogTable(long limit, int threads)
        : table_(static_cast<std::size_t>(std::max<long>(1, std::min<long>(limit, 1L << 20))))
    {
        const long n = static_cast<long>(table_.size());
        double* t = table_.data();
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && n >= 8192)
        for (long d = 0; d < n; ++d)
            t[d] = std::log(static_cast<double>(d));
    }
    double operator()(long d) const
    {
        return static_cast<std::size_t>(d) < table_.size() ? table_[static_cast<std::size_t>(d)]
                                                           : std::log(static_cast<double>(d));
    }

private:
    std::vector<double> table_;
};

// The standard deviation with Coron and Naccache's factors (CalcSigma).
double appearance_sigma(int L, long K, double KV)
{
    static const double d[17] = { 0.3920729, 0, 0, 0.2732725, 0.3045101, 0.3296587, 0.3489769,
        0.3631815, 0.3732189, 0.3800637, 0.3845867, 0.3874942, 0.3893189, 0.3904405, 0.3911178,
        0.3915202, 0.3917561 };
    static const double e[17] = { 0.3592016, 0, 0, 0.4890883, 0.4435381, 0.4137196, 0.3941338,
        0.3813210, 0.3730195, 0.3677118, 0.3643695, 0.3622979, 0.3610336, 0.3602731, 0.3598216,
        0.3595571, 0.3594040 };
    const double Kd = static_cast<double>(K);
    if (L < 3) return std::sqrt(KV / Kd);
    const int i = L > 16 ? 0 : L;
    const double temp = d[i] + e[i] * num_TwoExp[L] / Kd;
    return std::sqrt(temp * KV / Kd);
}

// ---------------------------------------------------------------------------------------------
// svaria_SumCollector

// ProbabiliteG (svaria.c): the probability that j + 1 uniforms are the fewest whose sum exceeds
// g, with its operations in its order.
double sum_count_probability(int jmin, int j, double g)
{
    const double jLR = j;
    double sign = 1.0, sum = 0.0;
    for (int s = 0; s <= jmin; ++s) {
        double term = sign * num2_Combination(j + 1, s);
        term *= std::pow(g - s, jLR);
        sum += term;
        sign = -sign;
    }
    return (jLR + 1.0 - g) * sum / num2_Factorial(j + 1);
}

// A sum of SumCollector that ends: the index of its last number in the chunk, and its count.
struct SumEnd {
    std::size_t at;
    long length;
};

// SumCollector's chain of sums over words [begin, end) of w, from a sum x of `numbers` numbers
// (svaria_SumCollector's loop: X += U, ++j, until X > g). Appends each sum that ends to `ends`.
// With `meet` (the sorted ends of a chain started elsewhere), stops after the first sum that
// ends at the number where one of meet ends, and returns that one's index in meet plus 1;
// otherwise returns 0. Leaves the chain's state in x and numbers.
template <class Value>
std::size_t run_sums(const Value& value, const std::uint64_t* w, std::size_t begin, std::size_t end,
    double g, double& x, long& numbers, std::vector<SumEnd>& ends, const std::vector<SumEnd>* meet)
{
    double sum = x;
    long count = numbers;
    std::size_t k = 0;
    for (std::size_t i = begin; i < end; ++i) {
        sum += value(w[i]);
        ++count;
        if (!(sum <= g)) {
            ends.push_back({ i, count });
            sum = 0.0;
            count = 0;
            if (meet != nullptr) {
                while (k < meet->size() && (*meet)[k].at < i)
                    ++k;
                if (k < meet->size() && (*meet)[k].at == i) {
                    x = sum;
                    numbers = count;
                    return k + 1;
                }
            }
        }
    }
    x = sum;
    numbers = count;
    return 0;
}

} // namespace

void sample_prod(Numbers& in, sres_Basic* res, long N, long n, int r, int t, int threads)
{
    if (N < 1 || n < 1 || r < 0 || t < 1)
        throw std::invalid_argument("sample_prod: N, n and t must be positive, r non-negative");
    threads = std::max(1, threads);
    char name[] = "svaria_SampleProd";
    sres_InitBasic(res, N, name);
    statcoll_SetDesc(res->sVal1, "SampleProd sVal1:   Uniform [0, 1]");
    double Par[1] = { static_cast<double>(t) };

    // Two sets, used in turn by successive replications, of: U[1..n], gofw_ActiveTests1's
    // transform of the products (FDistProd of each, computed as the products are, on the thread
    // that works while the next chunk is read); P[1] (ActiveTests1's sVal[gofw_Mean] when n = 1);
    // and the replication's sVal2 and pVal2. The rest of ActiveTests1 (the sort and
    // ActiveTests0) of one replication runs while the next one's numbers are read; each set's
    // arrays start as res's and every replication writes the same fields, so the last
    // replication's set holds what TestU01 leaves in res.
    struct Replication {
        std::vector<double> U;
        double first_product = 0;
        double sVal2[gofw_NTestTypes], pVal2[gofw_NTestTypes];
    };
    Replication sets[2];
    for (Replication& set : sets) {
        set.U.resize(static_cast<std::size_t>(n) + 1);
        std::copy(res->sVal2, res->sVal2 + gofw_NTestTypes, set.sVal2);
        std::copy(res->pVal2, res->pVal2 + gofw_NTestTypes, set.pVal2);
    }
    std::future<void> finishing;
    int last = 0;
    const std::size_t group = static_cast<std::size_t>(t);
    const int helpers = work_threads(threads);
    // On the device the stream runs on, where it is a CUDA one: each replication's products,
    // then on the host their distribution values, the sort and ActiveTests0 as below.
    const bool on_device = device_products(in, N, n, r, t, [&](long, const double* products) {
        Replication& set = sets[0];
        double* u = set.U.data() + 1;
        set.first_product = products[0];
#pragma omp parallel for num_threads(helpers) schedule(static) if (helpers > 1 && n >= 4096)
        for (long i = 0; i < n; ++i)
            u[i] = prod_distribution(Par, products[i]);
        parallel_sort(set.U.data() + 1, n, threads);
        active_tests0(set.U.data(), n, set.sVal2, set.pVal2, threads);
        if (n == 1) set.sVal2[gofw_Mean] = set.first_product;
        statcoll_AddObs(res->sVal1, set.pVal2[gofw_AD]);
    });
    for (long Seq = 1; Seq <= N && !on_device; ++Seq) {
        Replication& set = sets[Seq % 2];
        long next_group = 1;
        pipeline(in, threads > 1, FixedReads(static_cast<std::uint64_t>(n) * group, group),
            [&](const std::uint64_t* w, std::size_t m) {
                const long groups = static_cast<long>(m / group);
                double* u = set.U.data() + next_group;
                const bool first_chunk = next_group == 1;
#pragma omp parallel for num_threads(helpers) schedule(static) if (helpers > 1 && groups >= 4096)
                for (long i = 0; i < groups; ++i) {
                    const std::uint64_t* v = w + static_cast<std::size_t>(i) * group;
                    double temp = in.strip_d(v[0], r);
                    for (int j = 1; j < t; ++j)
                        temp *= in.strip_d(v[j], r);
                    if (i == 0 && first_chunk) set.first_product = temp;
                    u[i] = prod_distribution(Par, temp);
                }
                next_group += groups;
            });
        // The previous replication's p-value, then this one's sort and ActiveTests0.
        if (finishing.valid()) {
            finishing.get();
            statcoll_AddObs(res->sVal1, sets[(Seq - 1) % 2].pVal2[gofw_AD]);
        }
        auto finish = [&set, n, threads] {
            parallel_sort(set.U.data() + 1, n, threads);
            active_tests0(set.U.data(), n, set.sVal2, set.pVal2, threads);
            if (n == 1) set.sVal2[gofw_Mean] = set.first_product;
        };
        if (threads > 1 && Seq < N)
            finishing = std::async(std::launch::async, finish);
        else
            finish();
        if (!finishing.valid()) statcoll_AddObs(res->sVal1, set.pVal2[gofw_AD]);
        last = static_cast<int>(Seq % 2);
    }
    std::copy(sets[last].sVal2, sets[last].sVal2 + gofw_NTestTypes, res->sVal2);
    std::copy(sets[last].pVal2, sets[last].pVal2 + gofw_NTestTypes, res->pVal2);

    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_Unif, nullptr, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
}

void sample_mean(Numbers& in, sres_Basic* res, long N, long n, int r, int threads)
{
    if (N < 1 || n < 2 || r < 0)
        throw std::invalid_argument("sample_mean: N must be positive, n > 1, r non-negative");
    threads = std::max(1, threads);
    char name[] = "svaria_SampleMean";
    sres_InitBasic(res, N, name);
    const bool exact = n < mean_exact_limit;
    double Coef[mean_exact_limit + 1] = {};
    if (exact) init_mean_distribution(static_cast<int>(n), Coef);
    statcoll_SetDesc(
        res->sVal1, exact ? "SampleMean sVal1:   n*<U>" : "SampleMean sVal1:   standard normal");

    // The sums go straight into sVal1 (statcoll_Init made room for N), as statcoll_AddObs
    // would place them.
    double* V = res->sVal1->V;
    const double scale = std::sqrt(12.0 / static_cast<double>(n));
    const double half_n = 0.5 * static_cast<double>(n);
    const std::size_t group = static_cast<std::size_t>(n);
    const int helpers = work_threads(threads);
    // On the device the stream runs on, where it is a CUDA one: the sums there, in the same
    // order, and only they come here.
    const bool on_device = device_sample_sums(in, N, n, r, [&](const double* sums) {
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && N >= 4096)
        for (long i = 0; i < N; ++i)
            V[i + 1] = exact ? sums[i] : scale * (sums[i] - half_n);
    });
    long next_seq = 1;
    if (!on_device)
        pipeline(in, threads > 1, FixedReads(static_cast<std::uint64_t>(N) * group, group),
            [&](const std::uint64_t* w, std::size_t m) {
                const long groups = static_cast<long>(m / group);
                double* v = V + next_seq;
#pragma omp parallel for num_threads(helpers) schedule(static) if (helpers > 1 && groups >= 1024)
                for (long i = 0; i < groups; ++i) {
                    const std::uint64_t* x = w + static_cast<std::size_t>(i) * group;
                    double sum = 0.0;
                    for (std::size_t j = 0; j < group; ++j)
                        sum += in.strip_d(x[j], r);
                    v[i] = exact ? sum : scale * (sum - half_n);
                }
                next_seq += groups;
            });
    res->sVal1->NObs = N;

    if (exact)
        active_tests2(
            V, res->pVal1->V, N, mean_distribution, Coef, res->sVal2, res->pVal2, threads);
    else
        active_tests2(V, res->pVal1->V, N, wdist_Normal, nullptr, res->sVal2, res->pVal2, threads);
    res->pVal1->NObs = N;
}

void sample_corr(Numbers& in, sres_Basic* res, long N, long n, int r, int k, int threads)
{
    if (N < 1 || n < 3 || r < 0 || k < 1 || k >= n)
        throw std::invalid_argument(
            "sample_corr: N must be positive, n > 2, 1 <= k < n, r non-negative");
    threads = std::max(1, threads);
    char name[] = "svaria_SampleCorr";
    sres_InitBasic(res, N, name);
    statcoll_SetDesc(res->sVal1, "SampleCorr sVal1:   asymptotic standard normal");

    const double factor = std::sqrt(12.0 / static_cast<double>(n - k));
    const std::size_t lag = static_cast<std::size_t>(k);
    // u[0..k): the last k numbers before the chunk; u[k + i]: the chunk's number i. The number
    // at lag k of the chunk's number i is then u[i].
    std::vector<double> u(lag + chunk_words);
    long index = 0; // the number's index in its replication
    double sum = 0.0;
    pipeline(in, threads > 1, FixedReads(static_cast<std::uint64_t>(N) * n, 1),
        [&](const std::uint64_t* w, std::size_t m) {
            double* x = u.data() + lag;
            for (std::size_t i = 0; i < m; ++i)
                x[i] = in.strip_d(w[i], r);
            std::size_t i = 0;
            while (i < m) {
                const std::size_t left = m - i;
                if (index < k) {
                    // The replication's first k numbers (TestU01's Pre): nothing to add.
                    const std::size_t take = std::min(static_cast<std::size_t>(k - index), left);
                    i += take;
                    index += static_cast<long>(take);
                } else {
                    const std::size_t take = std::min(static_cast<std::size_t>(n - index), left);
                    const std::size_t end = i + take;
                    double s = sum;
                    for (; i < end; ++i)
                        s += u[i] * x[i] - 0.25;
                    sum = s;
                    index += static_cast<long>(take);
                }
                if (index == n) {
                    statcoll_AddObs(res->sVal1, sum * factor);
                    sum = 0.0;
                    index = 0;
                }
            }
            std::memmove(u.data(), u.data() + m, lag * sizeof(double));
        });
    gofw_ActiveTests2(
        res->sVal1->V, res->pVal1->V, N, wdist_Normal, nullptr, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetNormalSumStat(res);
}

void appearance_spacings(
    Numbers& in, sres_Basic* res, long N, long Q, long K, int r, int s, int L, int threads)
{
    if (N < 1 || Q < 0 || K < 1 || r < 0 || s < 1 || s >= 32 || L < 1 || L >= 32)
        throw std::invalid_argument("appearance_spacings: N and K must be positive, Q and r "
                                    "non-negative, 0 < s < 32 and 0 < L < 32");
    if (L < s && s % L != 0) throw std::invalid_argument("appearance_spacings: s mod L != 0");
    threads = std::max(1, threads);
    double mean, k_variance;
    appearance_moments(L, &mean, &k_variance);
    const double sigma = appearance_sigma(L, K, k_variance);
    const double FactMoy = 1.0 / (num_Ln2 * static_cast<double>(K));
    char name[] = "svaria_AppearanceSpacings";
    sres_InitBasic(res, N, name);
    statcoll_SetDesc(res->sVal1, "AppearanceSpacings sVal1:   standard normal");

    // Each replication is a sequence of blocks of L bits, numbered from 0: the first `init` fill
    // the table of last appearances, each of the next `tested` adds the log of its distance to
    // the last appearance of its value (0 for a value not seen yet in the replication).
    // L >= s: a block is made of L / s numbers' s bits, then L mod s bits of one more number.
    // s > L: a number's s bits are s / L blocks, the lowest bits first.
    const bool several_numbers = L >= s;
    const int whole = L / s, rest = L % s; // L >= s
    const int per_number = s / L; // s > L
    const std::size_t words_per_block
        = several_numbers ? static_cast<std::size_t>(whole + (rest > 0 ? 1 : 0)) : 1;
    const std::size_t blocks_per_word = several_numbers ? 1 : static_cast<std::size_t>(per_number);
    const long init = several_numbers ? Q : Q / per_number * per_number;
    const long tested = several_numbers ? K : K / per_number * per_number;
    const std::uint64_t words_per_replication = several_numbers
        ? static_cast<std::uint64_t>(init + tested) * words_per_block
        : static_cast<std::uint64_t>(Q / per_number + K / per_number);
    const std::size_t cells = std::size_t(1) << L;

    const LogTable logs(init + tested, threads);
    const int helpers = work_threads(threads);
    // On the device the stream runs on, where it is a CUDA one: the blocks and their distances
    // there, the logarithms and their sum here, in order (summed on a helper while the device
    // works on the next chunk).
    std::unique_ptr<DeviceAppearanceScan> scan;
    if (words_per_replication > 0
        && static_cast<std::uint64_t>(init) + static_cast<std::uint64_t>(tested) < (1ull << 32))
        scan = device_appearance_scan(in, init, r, s, L);
    if (scan) {
        const std::size_t most = scan->max_words() / words_per_block * words_per_block;
        std::vector<std::uint32_t> distances[2];
        int current = 0;
        bool taken = true;
        for (long rep = 0; rep < N && taken; ++rep) {
            double somme = 0.0;
            std::future<void> summing;
            auto add = [&logs, &somme](const std::vector<std::uint32_t>& d) {
                double sum = somme;
                for (const std::uint32_t x : d)
                    sum += logs(x);
                somme = sum;
            };
            for (std::uint64_t left = words_per_replication; left > 0;) {
                const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(left, most));
                std::vector<std::uint32_t>& d = distances[current];
                // False only where the first chunk found no device memory (nothing read).
                if (!scan->scan(m, left == words_per_replication, d)) {
                    taken = false;
                    break;
                }
                left -= m;
                if (summing.valid()) summing.get();
                if (threads > 1)
                    summing = std::async(std::launch::async, [&add, &d] { add(d); });
                else
                    add(d);
                current = 1 - current;
            }
            if (summing.valid()) summing.get();
            if (taken) statcoll_AddObs(res->sVal1, (somme * FactMoy - mean) / sigma);
        }
        if (taken) {
            gofw_ActiveTests2(
                res->sVal1->V, res->pVal1->V, N, wdist_Normal, nullptr, res->sVal2, res->pVal2);
            res->pVal1->NObs = N;
            sres_GetNormalSumStat(res);
            return;
        }
    }

    std::vector<long> last(cells, 0); // TestU01's Count
    std::vector<std::uint32_t> blocks(chunk_words * blocks_per_word / words_per_block);
    long position = 0; // the next block's number in its replication
    double somme = 0.0;
    pipeline(in, threads > 1,
        FixedReads(words_per_replication * static_cast<std::uint64_t>(N), words_per_block),
        [&](const std::uint64_t* w, std::size_t m) {
            // The chunk's blocks (on the helpers too: each block is its own words' bits).
            const std::size_t count = m / words_per_block * blocks_per_word;
            if (several_numbers) {
                const long blocks_here = static_cast<long>(count);
#pragma omp parallel for num_threads(helpers)                                                      \
    schedule(static) if (helpers > 1 && blocks_here >= 8192)
                for (long bl = 0; bl < blocks_here; ++bl) {
                    const std::size_t b = static_cast<std::size_t>(bl);
                    const std::uint64_t* v = w + b * words_per_block;
                    std::uint32_t block = 0;
                    for (int i = 0; i < whole; ++i)
                        block = (block << s) | static_cast<std::uint32_t>(in.strip_b(v[i], r, s));
                    if (rest > 0)
                        block = (block << rest)
                            | static_cast<std::uint32_t>(in.strip_b(v[whole], r, rest));
                    blocks[b] = block;
                }
            } else {
                const std::uint32_t mask = static_cast<std::uint32_t>(cells - 1);
                const long words_here = static_cast<long>(m);
#pragma omp parallel for num_threads(helpers)                                                      \
    schedule(static) if (helpers > 1 && words_here >= 8192)
                for (long wi = 0; wi < words_here; ++wi) {
                    const std::size_t i = static_cast<std::size_t>(wi);
                    std::uint32_t bits = static_cast<std::uint32_t>(in.strip_b(w[i], r, s));
                    for (int j = 0; j < per_number; ++j) {
                        blocks[i * blocks_per_word + static_cast<std::size_t>(j)] = bits & mask;
                        bits >>= L;
                    }
                }
            }
            std::size_t b = 0;
            while (b < count) {
                if (position < init) {
                    const std::size_t end
                        = b + std::min(static_cast<std::size_t>(init - position), count - b);
                    for (; b < end; ++b)
                        last[blocks[b]] = position++;
                } else {
                    // The distances' logarithms (memoised) summed in TestU01's order.
                    const std::size_t end = b
                        + std::min(static_cast<std::size_t>(init + tested - position), count - b);
                    double sum = somme;
                    for (; b < end; ++b) {
                        const std::uint32_t v = blocks[b];
                        sum += logs(position - last[v]);
                        last[v] = position++;
                    }
                    somme = sum;
                }
                if (position == init + tested) {
                    statcoll_AddObs(res->sVal1, (somme * FactMoy - mean) / sigma);
                    somme = 0.0;
                    position = 0;
                    std::fill(last.begin(), last.end(), 0);
                }
            }
        });

    gofw_ActiveTests2(
        res->sVal1->V, res->pVal1->V, N, wdist_Normal, nullptr, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetNormalSumStat(res);
}

void sum_collector(Numbers& in, sres_Chi2* res, long N, long n, int r, double g, int threads)
{
    if (N < 1 || n < 1 || r < 0)
        throw std::invalid_argument("sum_collector: N and n must be positive, r non-negative");
    if (!(g >= 1.0 && g <= 10.0)) throw std::invalid_argument("sum_collector: g < 1.0 or g > 10.0");
    threads = std::max(1, threads);
    constexpr int classes = 50; // svaria_SumCollector's jmax
    char name[] = "svaria_SumCollector";
    sres_InitChi2(res, N, classes, name);
    long* Loc = res->Loc;
    res->jmin = static_cast<long>(g);
    res->jmax = classes;
    const int jmin = static_cast<int>(res->jmin);
    const double nLR = static_cast<double>(n);
    double expected = 0.0;
    for (int j = jmin; j < classes; ++j) {
        res->NbExp[j] = nLR * sum_count_probability(jmin, j, g);
        expected += res->NbExp[j];
    }
    const double rest = nLR - expected;
    res->NbExp[classes] = 0.0 > rest ? 0.0 : rest; // util_Max (0.0, n - Sum)
    long NbClasses = 0;
    gofs_MergeClasses(res->NbExp, Loc, &res->jmin, &res->jmax, &NbClasses);
    const std::string desc = "SumCollector sVal1:   chi2 with " + std::to_string(NbClasses - 1)
        + " degrees of freedom";
    statcoll_SetDesc(res->sVal1, desc.c_str());
    res->degFree = NbClasses - 1;
    if (res->degFree < 1) return;

    // Every sum takes more than g numbers (each at most 1, so j of them sum to at most j, rounding
    // being monotone).
    const std::uint64_t least = static_cast<std::uint64_t>(std::floor(g)) + 1;
    const std::uint64_t sums = static_cast<std::uint64_t>(N) * static_cast<std::uint64_t>(n);
    std::atomic<std::uint64_t> ended{ 0 }; // sums completed by the chunks worked through
    const long top = res->jmax;
    double X = 0.0; // the current sum
    long j = 0; // its count of numbers
    long done = 0; // sums of the current replication
    auto count_sum = [&](long numbers) {
        // Each replication's counts start from 0 (the last one's stay in res).
        if (done == 0) {
            for (int c = 1; c <= classes; ++c)
                res->Count[c] = 0;
        }
        if (numbers > top)
            ++res->Count[top];
        else
            ++res->Count[Loc[numbers - 1]];
        if (++done == n) {
            const double Y = gofs_Chi2(res->NbExp, res->Count, res->jmin, res->jmax);
            statcoll_AddObs(res->sVal1, Y);
            done = 0;
        }
    };
    // On the device the stream runs on, where it is a CUDA one: the sums there, a block at a
    // time, and only their counts by length here. A block never holds more sums than are left
    // in the replication (so a replication's counts are whole at a block's end), nor a number
    // past the test's last.
    if (const std::unique_ptr<DeviceSumScan> scan
        = device_sum_scan(in, r, g, static_cast<int>(top) + 1)) {
        std::vector<long> by_length;
        bool taken = true;
        for (long rep = 0; rep < N && taken; ++rep) {
            for (int c = 1; c <= classes; ++c)
                res->Count[c] = 0;
            for (long left = n; left > 0;) {
                const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(
                    scan->max_words(), (static_cast<std::uint64_t>(left) - 1) * least + 1));
                long ends = 0;
                // False only where the first block found no device memory (nothing read).
                if (!scan->scan(m, X, j, by_length, ends)) {
                    taken = false;
                    break;
                }
                for (long length = 1; length <= top + 1; ++length)
                    res->Count[length > top ? top : Loc[length - 1]]
                        += by_length[static_cast<std::size_t>(length)];
                left -= ends;
            }
            if (taken)
                statcoll_AddObs(
                    res->sVal1, gofs_Chi2(res->NbExp, res->Count, res->jmin, res->jmax));
        }
        if (taken) {
            double V[1] = { static_cast<double>(NbClasses - 1) };
            gofw_ActiveTests2(
                res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
            res->pVal1->NObs = N;
            sres_GetChi2SumStat(res);
            return;
        }
    }
    // A chunk's sums. Where helpers are free, the chunk is cut into parts and each part's chain
    // is run at once from a guess (a sum starting at its first number), all in parallel; then,
    // part after part, the chain run on from the true state meets the guessed chain at the first
    // sum both end at the same number, after which the two are the same chain (each sum starts
    // from 0.0 at the number after its predecessor's end), so only the numbers before the meeting
    // are summed again.
    const int helpers = work_threads(threads);
    std::vector<std::vector<SumEnd>> part_ends(static_cast<std::size_t>(helpers));
    std::vector<std::pair<double, long>> part_state(static_cast<std::size_t>(helpers));
    std::vector<SumEnd> ends;
    auto sum_chunk = [&](const std::uint64_t* w, std::size_t m, auto value) {
        ends.clear();
        double x = X;
        long numbers = j;
        const int parts = helpers >= 2 && m >= (std::size_t(1) << 16) ? helpers : 1;
        if (parts == 1) {
            run_sums(value, w, 0, m, g, x, numbers, ends, nullptr);
        } else {
            auto cut = [&](int p) { return m / static_cast<std::size_t>(parts) * p; };
#pragma omp parallel for num_threads(parts) schedule(static, 1)
            for (int p = 0; p < parts; ++p) {
                std::vector<SumEnd>& e = part_ends[static_cast<std::size_t>(p)];
                e.clear();
                double px = p == 0 ? X : 0.0;
                long pn = p == 0 ? j : 0;
                run_sums(value, w, cut(p), p + 1 == parts ? m : cut(p + 1), g, px, pn, e, nullptr);
                part_state[static_cast<std::size_t>(p)] = { px, pn };
            }
            ends.swap(part_ends[0]);
            std::tie(x, numbers) = part_state[0];
            for (int p = 1; p < parts; ++p) {
                const std::vector<SumEnd>& guess = part_ends[static_cast<std::size_t>(p)];
                const std::size_t met = run_sums(
                    value, w, cut(p), p + 1 == parts ? m : cut(p + 1), g, x, numbers, ends, &guess);
                if (met > 0) {
                    ends.insert(ends.end(), guess.begin() + static_cast<long>(met), guess.end());
                    std::tie(x, numbers) = part_state[static_cast<std::size_t>(p)];
                }
            }
        }
        for (const SumEnd& e : ends)
            count_sum(e.length);
        X = x;
        j = numbers;
        ended.fetch_add(ends.size());
    };
    pipeline(
        in, threads > 1,
        [&](std::size_t in_flight) -> std::size_t {
            // The sums not yet ended in what was read: at least those not ended in the chunks
            // worked through, less as many as can end in the chunk in flight.
            std::uint64_t open = sums - ended.load();
            if (in_flight > 0) {
                const std::uint64_t may_end = in_flight / least + 1;
                open = open > may_end ? open - may_end : 0;
            }
            if (open == 0) return 0;
            // The first of them ends one number or more ahead, each of the others `least`
            // numbers or more after it.
            return static_cast<std::size_t>(
                std::min<std::uint64_t>(chunk_words, (open - 1) * least + 1));
        },
        [&](const std::uint64_t* w, std::size_t m) {
            if (r == 0)
                sum_chunk(w, m, [&in](std::uint64_t v) { return in.u01(v); });
            else
                sum_chunk(w, m, [&in, r](std::uint64_t v) { return in.strip_d(v, r); });
        });

    double V[1] = { static_cast<double>(NbClasses - 1) };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

namespace {

constexpr long million = 1000000;

const SvariaRow svaria_table[] = {
    // Crush 45-46: svaria_SampleProd (gen, res, 1, 10 * MILLION, 0, t), pVal2[gofw_Mean].
    { "crush", 45, SvariaTest::SampleProd, 1, 10 * million, 0, 0, 10, 0, 0, gofw_Mean,
        "SampleProd, t = 10" },
    { "crush", 46, SvariaTest::SampleProd, 1, 10 * million, 0, 0, 30, 0, 0, gofw_Mean,
        "SampleProd, t = 30" },
    // Crush 47: svaria_SampleMean (gen, res, 10*MILLION, 20, 0), pVal2[gofw_AD].
    { "crush", 47, SvariaTest::SampleMean, 10 * million, 20, 0, 0, 0, 0, 0, gofw_AD, "SampleMean" },
    // Crush 48: svaria_SampleCorr (gen, res, 1, 500 * MILLION, 0, 1), pVal2[gofw_Mean].
    { "crush", 48, SvariaTest::SampleCorr, 1, 500 * million, 0, 0, 1, 0, 0, gofw_Mean,
        "SampleCorr" },
    // Crush 49-50: svaria_AppearanceSpacings (gen, res, 1, 10 * MILLION, K, r, s, 15).
    { "crush", 49, SvariaTest::AppearanceSpacings, 1, 10 * million, 400 * million, 0, 30, 15, 0,
        gofw_Mean, "AppearanceSpacings, r = 0" },
    { "crush", 50, SvariaTest::AppearanceSpacings, 1, 10 * million, 100 * million, 20, 10, 15, 0,
        gofw_Mean, "AppearanceSpacings, r = 20" },
    // Crush 55: svaria_SumCollector (gen, res, 1, 20 * MILLION, 0, 10.0).
    { "crush", 55, SvariaTest::SumCollector, 1, 20 * million, 0, 0, 0, 0, 10.0, gofw_Mean,
        "SumCollector" },
    // BigCrush 50-52: svaria_SampleProd (gen, res, N, 10 * MILLION, 0, t), pVal2[gofw_AD].
    { "bigcrush", 50, SvariaTest::SampleProd, 40, 10 * million, 0, 0, 8, 0, 0, gofw_AD,
        "SampleProd, t = 8" },
    { "bigcrush", 51, SvariaTest::SampleProd, 20, 10 * million, 0, 0, 16, 0, 0, gofw_AD,
        "SampleProd, t = 16" },
    { "bigcrush", 52, SvariaTest::SampleProd, 20, 10 * million, 0, 0, 24, 0, 0, gofw_AD,
        "SampleProd, t = 24" },
    // BigCrush 53-54: svaria_SampleMean (gen, res, 20*MILLION, 30, r), pVal2[gofw_AD].
    { "bigcrush", 53, SvariaTest::SampleMean, 20 * million, 30, 0, 0, 0, 0, 0, gofw_AD,
        "SampleMean, r = 0" },
    { "bigcrush", 54, SvariaTest::SampleMean, 20 * million, 30, 0, 10, 0, 0, 0, gofw_AD,
        "SampleMean, r = 10" },
    // BigCrush 55-56: svaria_SampleCorr (gen, res, 1, 2*BILLION, 0, k), pVal2[gofw_Mean].
    { "bigcrush", 55, SvariaTest::SampleCorr, 1, 2000 * million, 0, 0, 1, 0, 0, gofw_Mean,
        "SampleCorr, k = 1" },
    { "bigcrush", 56, SvariaTest::SampleCorr, 1, 2000 * million, 0, 0, 2, 0, 0, gofw_Mean,
        "SampleCorr, k = 2" },
    // BigCrush 57-58: svaria_AppearanceSpacings (gen, res, 1, 10 * MILLION, BILLION, r, 3, 15).
    { "bigcrush", 57, SvariaTest::AppearanceSpacings, 1, 10 * million, 1000 * million, 0, 3, 15, 0,
        gofw_Mean, "AppearanceSpacings, r = 0" },
    { "bigcrush", 58, SvariaTest::AppearanceSpacings, 1, 10 * million, 1000 * million, 27, 3, 15, 0,
        gofw_Mean, "AppearanceSpacings, r = 27" },
    // BigCrush 65: svaria_SumCollector (gen, res, 1, 500 * MILLION, 0, 10.0).
    { "bigcrush", 65, SvariaTest::SumCollector, 1, 500 * million, 0, 0, 0, 0, 10.0, gofw_Mean,
        "SumCollector" },
};

} // namespace

std::vector<SvariaRow> svaria_more_rows()
{
    return { std::begin(svaria_table), std::end(svaria_table) };
}

std::vector<NativeStatistic> svaria_more_statistics(Numbers& in, const SvariaRow& row, int threads)
{
    double pvalue = -1;
    if (row.test == SvariaTest::SumCollector) {
        sres_Chi2* res = sres_CreateChi2();
        try {
            sum_collector(in, res, row.N, row.n, row.r, row.g, threads);
        } catch (...) {
            sres_DeleteChi2(res);
            throw;
        }
        pvalue = res->pVal2[row.pick];
        sres_DeleteChi2(res);
    } else {
        sres_Basic* res = sres_CreateBasic();
        try {
            switch (row.test) {
            case SvariaTest::SampleProd:
                sample_prod(in, res, row.N, row.n, row.r, row.t, threads);
                break;
            case SvariaTest::SampleMean:
                sample_mean(in, res, row.N, row.n, row.r, threads);
                break;
            case SvariaTest::SampleCorr:
                sample_corr(in, res, row.N, row.n, row.r, row.t, threads);
                break;
            default:
                appearance_spacings(in, res, row.N, row.n, row.K, row.r, row.t, row.L, threads);
                break;
            }
        } catch (...) {
            sres_DeleteBasic(res);
            throw;
        }
        pvalue = res->pVal2[row.pick];
        sres_DeleteBasic(res);
    }
    return { { row.name, pvalue } };
}

// The rows in table order; registry.cpp orders them by battery and number.
std::vector<NativeTest> svaria_more_tests()
{
    std::vector<NativeTest> tests;
    for (const SvariaRow& row : svaria_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return svaria_more_statistics(in, row, threads()); } });
    return tests;
}

} // namespace rngvet::native
