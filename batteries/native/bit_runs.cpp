// Native sstring_Run, sstring_AutoCor and scomp_LempelZiv (bit_runs.hpp).
//
// Facts from TestU01 1.2.3's sstring.c (sstring_Run, sstring_AutoCor), scomp.c (scomp_LempelZiv,
// LZ78, its tables of means and standard deviations) and bbattery.c (the battery rows):
// - Each number gives s bits, unif01_StripB (gen, r, s), read from the most significant.
// - sstring_Run: a replication reads numbers while fewer than n runs of 1s have begun, so it
//   stops at the end of the number in which the n-th begins. Before the bits of each number, a
//   current run already n bits long interrupts the test ("all bits are 0"). The first bit of a
//   replication ends a run of length 0 (class 0, outside the chi-square). A run is counted, in
//   class min(length, k), when the next bit differs; the last run of a replication is not.
// - sstring_AutoCor: a replication reads d / s + 1 + K numbers, K = (n - d) / s, and counts over
//   the first K s bits the bits that differ from the bit d places further.
// - scomp_LempelZiv: a replication reads ceil(2^t / s) numbers and parses their first 2^t bits
//   into LZ78 phrases: each phrase is the longest phrase seen before plus one bit. The bits left
//   at the end count as one more phrase when they lead to a phrase that has been extended.
// - The floating-point stages (expected counts, chi-square and normal statistics, gofw and sres
//   stages) follow TestU01's expressions in TestU01's order and call its library.
//
// The counting is rngvet's own, on whole words of bits: Run finds the transitions between runs
// in up to 63 bits (several numbers) at once, AutoCor counts the differing bits of a number by
// popcount; blocks of numbers are split between threads. Run reads in blocks no longer than the
// numbers TestU01 is sure to read (each number begins at most ceil(s / 2) runs of 1s, and none
// but the first of a block may find a run of n bits).
// LempelZiv keeps its trie in flat arrays, with tables of the nodes at two depths so that a
// phrase skips the levels above them, and parses replications in parallel.
#include "bit_runs.hpp"

#include "device_bits.hpp"
#include "device_runs.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <cpuid.h>
#include <cstdint>
#include <cstring>
#include <memory>
#include <omp.h>
#include <stdexcept>
#include <string>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read at a time.
constexpr std::size_t chunk_words = std::size_t(1) << 20;
// Fewer words than this are handled on one thread.
constexpr std::size_t parallel_min = std::size_t(1) << 15;

int thread_count(int threads)
{
    return threads > 0 ? threads : native::threads();
}

struct BasicDeleter {
    void operator()(sres_Basic* b) const { sres_DeleteBasic(b); }
};
using BasicPtr = std::unique_ptr<sres_Basic, BasicDeleter>;
struct Chi2Deleter {
    void operator()(sres_Chi2* b) const { sres_DeleteChi2(b); }
};
using Chi2Ptr = std::unique_ptr<sres_Chi2, Chi2Deleter>;

BitRunsBasic copy_basic(const statcoll_Collector* sval1, const statcoll_Collector* pval1,
    const double* sval2, const double* pval2)
{
    BitRunsBasic out;
    out.observations.assign(sval1->V + 1, sval1->V + 1 + sval1->NObs);
    out.pvalues.assign(pval1->V + 1, pval1->V + 1 + pval1->NObs);
    out.sval2.assign(sval2, sval2 + gofw_NTestTypes);
    out.pval2.assign(pval2, pval2 + gofw_NTestTypes);
    return out;
}

BitRunsBasic copy_basic(const sres_Basic* b)
{
    return copy_basic(b->sVal1, b->pVal1, b->sVal2, b->pVal2);
}

// The closing stage of a test with standard normal observations (sres_Basic).
void close_normal(sres_Basic* b, long N)
{
    gofw_ActiveTests2(b->sVal1->V, b->pVal1->V, N, wdist_Normal, nullptr, b->sVal2, b->pVal2);
    b->pVal1->NObs = N;
    sres_GetNormalSumStat(b);
}

char run_bits_name[] = "sstring_Run:   Number of Bits";
char run_runs_name[] = "sstring_Run:   Number of Runs";
char autocor_name[] = "sstring_AutoCor";
char lempel_ziv_name[] = "scomp_LempelZiv";

// ---------------------------------------------------------------------------------------------
// sstring_Run

// The runs that end in a range of numbers. The first transition of the range (a bit unlike the
// one before it) ends a run that began before the range: its position is kept for the merge.
struct RunPart {
    std::vector<std::uint64_t> classes; // [next bit][min(length, k)]: next bit 1 ends a 0-run
    std::uint64_t starts_of_ones = 0;
    bool any = false;
    std::uint64_t first = 0; // bit position of the first transition
    int first_bit = 0;
    std::uint64_t last = 0; // bit position of the last transition
};

// Counts the runs of words[a, b), whose first bit is at position `base`, after a bit `prev`.
// Numbers are taken g at a time (g s <= 63 bits at once), the last few one by one.
template <int Mode>
inline __attribute__((always_inline)) void count_runs_body(const Numbers& in,
    const std::uint64_t* words, std::size_t a, std::size_t b, std::uint64_t base,
    std::uint64_t prev, int r, int s, int k, RunPart& part)
{
    const std::size_t row = static_cast<std::size_t>(k) + 1;
    const std::uint64_t kk = static_cast<std::uint64_t>(k);
    std::uint64_t* classes = part.classes.data();
    std::uint64_t starts = 0, last = 0;
    bool any = false;
    // The bits v (width bits, the first one highest), whose first bit is at position pos.
    auto bits = [&](std::uint64_t v, int width, std::uint64_t pos) {
        const std::uint64_t mask = (std::uint64_t(1) << width) - 1;
        std::uint64_t t = (v ^ ((v >> 1) | (prev << (width - 1)))) & mask;
        prev = v & 1;
        if (t == 0) return;
        const std::uint64_t pos_low = pos + static_cast<std::uint64_t>(width) - 1; // bit 0's
        starts += static_cast<std::uint64_t>(__builtin_popcountll(t & v));
        if (!any) {
            const int j = 63 - __builtin_clzll(t);
            part.first = pos_low - static_cast<std::uint64_t>(j);
            part.first_bit = static_cast<int>((v >> j) & 1);
            last = part.first;
            any = true;
            t ^= std::uint64_t(1) << j;
        }
        while (t != 0) {
            const int j = 63 - __builtin_clzll(t);
            const std::uint64_t at = pos_low - static_cast<std::uint64_t>(j);
            const std::uint64_t len = at - last;
            classes[((v >> j) & 1) * row + (len < kk ? len : kk)]++;
            last = at;
            t ^= std::uint64_t(1) << j;
        }
    };
    const std::size_t g = static_cast<std::size_t>(63 / s);
    const int width = static_cast<int>(g) * s;
    std::size_t i = a;
    std::uint64_t pos = base;
    for (; i + g <= b; i += g, pos += static_cast<std::uint64_t>(width)) {
        std::uint64_t v = 0;
        for (std::size_t j = 0; j < g; ++j)
            v = (v << s) | in.strip_b(words[i + j], r, s);
        bits(v, width, pos);
    }
    for (; i < b; ++i, pos += static_cast<std::uint64_t>(s))
        bits(in.strip_b(words[i], r, s), s, pos);
    part.starts_of_ones += starts;
    if (any) {
        part.any = true;
        part.last = last;
    }
}

void count_runs_generic(const Numbers& in, const std::uint64_t* words, std::size_t a, std::size_t b,
    std::uint64_t base, std::uint64_t prev, int r, int s, int k, RunPart& part)
{
    count_runs_body<0>(in, words, a, b, base, prev, r, s, k, part);
}

__attribute__((target("popcnt,lzcnt"))) void count_runs_fast(const Numbers& in,
    const std::uint64_t* words, std::size_t a, std::size_t b, std::uint64_t base,
    std::uint64_t prev, int r, int s, int k, RunPart& part)
{
    count_runs_body<1>(in, words, a, b, base, prev, r, s, k, part);
}

using CountRuns = void (*)(const Numbers&, const std::uint64_t*, std::size_t, std::size_t,
    std::uint64_t, std::uint64_t, int, int, int, RunPart&);

// LZCNT is CPUID leaf 0x80000001's ECX bit 5 (asked of the processor directly: not every
// compiler's __builtin_cpu_supports knows "lzcnt").
bool has_lzcnt()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_LZCNT) != 0;
}

CountRuns pick_count_runs()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && has_lzcnt() ? count_runs_fast : count_runs_generic;
}

// One replication's state between blocks.
struct RunState {
    std::uint64_t words = 0; // numbers read
    std::uint64_t last = 0; // position of the last transition (0 before the first bit)
    std::uint64_t prev = 0; // the last bit read
    std::uint64_t starts_of_ones = 0; // cor
    std::vector<std::uint64_t> classes;
};

} // namespace

RunResult run_of_bits(Numbers& in, const RunParams& p, int threads)
{
    const long N = p.N, n = p.n;
    const int r = p.r, s = p.s;
    if (N < 1 || s < 1 || r < 0 || r + s > 32 || n < 10)
        throw std::invalid_argument("sstring_Run: invalid parameters");
    RunResult res;
    const int k = static_cast<int>(1 + num_Log2(static_cast<double>(n) / gofs_MinExpected));

    Chi2Ptr runs(sres_CreateChi2());
    BasicPtr bits(sres_CreateBasic());
    sres_InitBasic(bits.get(), N, run_bits_name);
    sres_InitChi2(runs.get(), N, k, run_runs_name);
    runs->jmin = 1;
    std::vector<double> prob(static_cast<std::size_t>(k) + 1);
    prob[0] = 1.0;
    for (int j = 1; j < k; ++j) {
        prob[static_cast<std::size_t>(j)] = prob[static_cast<std::size_t>(j) - 1] / 2.0;
        runs->NbExp[j] = static_cast<double>(n) * prob[static_cast<std::size_t>(j)];
    }
    prob[static_cast<std::size_t>(k)] = prob[static_cast<std::size_t>(k) - 1];
    runs->NbExp[k] = static_cast<double>(n) * prob[static_cast<std::size_t>(k)];
    if (!(runs->NbExp[k] >= gofs_MinExpected))
        throw std::invalid_argument("sstring_Run: NRuns->NbExp[k] < gofs_MinExpected");
    runs->jmax = k;
    runs->jmin = 1;
    runs->degFree = 2 * (k - 1);
    res.k = k;
    res.degrees_of_freedom = runs->degFree;
    res.expected.assign(runs->NbExp + 1, runs->NbExp + 1 + k);
    auto finish = [&]() {
        res.runs = copy_basic(runs->sVal1, runs->pVal1, runs->sVal2, runs->pVal2);
        res.bits = copy_basic(bits.get());
    };
    if (runs->degFree < 1) {
        finish();
        return res;
    }
    res.ran = true;

    const int nthreads = thread_count(threads);
    const std::size_t row = static_cast<std::size_t>(k) + 1;
    const std::uint64_t max_starts = static_cast<std::uint64_t>(s + 1) / 2; // per number
    const std::uint64_t un = static_cast<std::uint64_t>(n);
    const std::uint64_t us = static_cast<std::uint64_t>(s);
    const CountRuns count = pick_count_runs();
    std::vector<std::uint64_t> buffer(chunk_words);
    std::vector<RunPart> parts(static_cast<std::size_t>(nthreads));
    RunState st;
    // On the device the stream runs on, where it is a CUDA one: each block's scan.
    std::unique_ptr<DeviceBitRunScan> on_device = device_bit_run_scan(in, r, s, k);
    BitRunBlock block;

    for (long seq = 1; seq <= N; ++seq) {
        st = RunState();
        st.classes.assign(2 * row, 0);
        while (st.starts_of_ones < un) {
            const std::uint64_t len = st.words * us - st.last; // the current run's length
            if (len >= un) {
                in.next(); // read before the check
                res.interrupted = true;
                finish();
                return res;
            }
            // Numbers TestU01 reads for sure: fewer cannot begin the missing runs of 1s, and
            // none of them but the first can find a run of n bits.
            const std::uint64_t by_runs = (un - st.starts_of_ones + max_starts - 1) / max_starts;
            const std::uint64_t by_length = (un - 1 - len) / us + 1;
            const std::uint64_t bound = std::min(by_runs, by_length);
            if (on_device) {
                const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(
                    bound, static_cast<std::uint64_t>(on_device->max_words())));
                const int prev = st.words == 0 ? -1 : static_cast<int>(st.prev);
                if (on_device->scan(size, prev, block)) {
                    for (std::size_t c = 0; c < 2 * row; ++c)
                        st.classes[c] += block.classes[c];
                    st.starts_of_ones += block.starts_of_ones;
                    if (block.any) {
                        const std::uint64_t base = st.words * us;
                        const std::uint64_t len0 = base + block.first - st.last;
                        st.classes[static_cast<std::size_t>(block.first_bit) * row
                            + static_cast<std::size_t>(std::min<std::uint64_t>(len0, row - 1))]++;
                        st.last = base + block.last;
                    }
                    st.prev = static_cast<std::uint64_t>(block.last_bit);
                    st.words += size;
                    continue;
                }
                on_device.reset(); // nothing read: this block and the rest on the host
            }
            const std::size_t size = static_cast<std::size_t>(
                std::min<std::uint64_t>(bound, static_cast<std::uint64_t>(chunk_words)));
            in.read(buffer.data(), size);
            const std::uint64_t* words = buffer.data();
            const std::uint64_t first_prev
                = st.words == 0 ? 1 ^ (in.strip_b(words[0], r, s) >> (s - 1)) : st.prev;
            const int nparts = size >= parallel_min ? nthreads : 1;
#pragma omp parallel for num_threads(nparts) schedule(static, 1) if (nparts > 1)
            for (int q = 0; q < nparts; ++q) {
                const std::size_t a = size * static_cast<std::size_t>(q) / nparts;
                const std::size_t b = size * (static_cast<std::size_t>(q) + 1) / nparts;
                RunPart& part = parts[static_cast<std::size_t>(q)];
                part.classes.assign(2 * row, 0);
                part.starts_of_ones = 0;
                part.any = false;
                if (a == b) continue;
                const std::uint64_t prev = a == 0 ? first_prev : in.strip_b(words[a - 1], r, s) & 1;
                count(in, words, a, b, (st.words + a) * us, prev, r, s, k, part);
            }
            for (int q = 0; q < nparts; ++q) {
                const RunPart& part = parts[static_cast<std::size_t>(q)];
                for (std::size_t c = 0; c < 2 * row; ++c)
                    st.classes[c] += part.classes[c];
                st.starts_of_ones += part.starts_of_ones;
                if (part.any) {
                    const std::uint64_t len0 = part.first - st.last;
                    st.classes[static_cast<std::size_t>(part.first_bit) * row
                        + static_cast<std::size_t>(std::min<std::uint64_t>(len0, row - 1))]++;
                    st.last = part.last;
                }
            }
            st.prev = in.strip_b(words[size - 1], r, s) & 1;
            st.words += size;
        }

        // Count0 are the runs of 0s (ended by a 1), Count1 the runs of 1s.
        const double* nbexp = runs->NbExp;
        auto count0 = [&](int j) {
            return static_cast<long>(st.classes[row + static_cast<std::size_t>(j)]);
        };
        auto count1
            = [&](int j) { return static_cast<long>(st.classes[static_cast<std::size_t>(j)]); };
        double x2 = 0.0;
        for (int j = 1; j <= k; ++j) {
            const double temp = static_cast<double>(count0(j)) - nbexp[j];
            x2 += temp * temp / (nbexp[j] * (1.0 - prob[static_cast<std::size_t>(j)]));
        }
        double x = x2;
        x2 = 0.0;
        for (int j = 1; j <= k; ++j) {
            const double temp = static_cast<double>(count1(j)) - nbexp[j];
            x2 += temp * temp / (nbexp[j] * (1.0 - prob[static_cast<std::size_t>(j)]));
        }
        statcoll_AddObs(runs->sVal1, x2 + x);

        const double cob = static_cast<double>(st.words * us);
        x = (cob - 4.0 * static_cast<double>(n)) / std::sqrt(8.0 * static_cast<double>(n));
        statcoll_AddObs(bits->sVal1, x);

        res.count0.resize(static_cast<std::size_t>(k));
        res.count1.resize(static_cast<std::size_t>(k));
        for (int j = 1; j <= k; ++j) {
            res.count0[static_cast<std::size_t>(j) - 1] = count0(j);
            res.count1[static_cast<std::size_t>(j) - 1] = count1(j);
        }
        res.bits_read = cob;
        res.runs_of_ones = static_cast<long>(st.starts_of_ones);
    }

    double param[1];
    param[0] = 2 * (k - 1);
    gofw_ActiveTests2(
        runs->sVal1->V, runs->pVal1->V, N, wdist_ChiSquare, param, runs->sVal2, runs->pVal2);
    runs->pVal1->NObs = N;
    sres_GetChi2SumStat(runs.get());
    close_normal(bits.get(), N);
    finish();
    return res;
}

// ---------------------------------------------------------------------------------------------
// sstring_AutoCor

namespace {

// Bits of words[i] (s bits each) that differ from the s bits d places further, i in [a, b).
template <int Mode>
inline __attribute__((always_inline)) std::uint64_t count_differing_body(const std::uint64_t* w,
    std::size_t a, std::size_t b, std::size_t q, int s1, int s2, std::uint64_t mask)
{
    std::uint64_t sum = 0;
    for (std::size_t i = a; i < b; ++i) {
        const std::uint64_t shifted = ((w[i + q] << s1) | (w[i + q + 1] >> s2)) & mask;
        sum += static_cast<std::uint64_t>(__builtin_popcountll(w[i] ^ shifted));
    }
    return sum;
}

std::uint64_t count_differing_generic(const std::uint64_t* w, std::size_t a, std::size_t b,
    std::size_t q, int s1, int s2, std::uint64_t mask)
{
    return count_differing_body<0>(w, a, b, q, s1, s2, mask);
}

__attribute__((target("popcnt"))) std::uint64_t count_differing_popcnt(const std::uint64_t* w,
    std::size_t a, std::size_t b, std::size_t q, int s1, int s2, std::uint64_t mask)
{
    return count_differing_body<1>(w, a, b, q, s1, s2, mask);
}

} // namespace

AutoCorResult auto_cor(Numbers& in, const AutoCorParams& p, int threads)
{
    const long N = p.N;
    const int r = p.r, s = p.s, d = p.d;
    if (N < 1 || s < 1 || r < 0 || r + s > 32 || p.n < 1)
        throw std::invalid_argument("sstring_AutoCor: invalid parameters");
    const long K = (p.n - d) / s;
    const long n = p.n - (p.n - d) % s;
    if (d > n / 2 || d < 1) throw std::invalid_argument("sstring_AutoCor: invalid d");
    const int s1 = d % s, s2 = s - s1;
    const std::size_t q = static_cast<std::size_t>(d / s);
    const std::uint64_t mask = (std::uint64_t(1) << s) - 1;
    const int nthreads = thread_count(threads);
    __builtin_cpu_init();
    const auto count
        = __builtin_cpu_supports("popcnt") ? count_differing_popcnt : count_differing_generic;

    BasicPtr res(sres_CreateBasic());
    sres_InitBasic(res.get(), N, autocor_name);
    AutoCorResult out;

    auto add = [&](std::uint64_t A) {
        const double x = 2.0 * (static_cast<double>(A) - static_cast<double>(n - d) / 2.0)
            / std::sqrt(static_cast<double>(n - d));
        statcoll_AddObs(res->sVal1, x);
        out.differing.push_back(static_cast<unsigned long>(A));
    };
    // On the device the stream runs on, where it is a CUDA one: every replication's A.
    if (const auto on_device = device_auto_cor_differing(in, N, K, r, s, d)) {
        for (const std::uint64_t A : *on_device)
            add(A);
        close_normal(res.get(), N);
        out.basic = copy_basic(res.get());
        return out;
    }

    // words[0, q + 1) carry the last q + 1 numbers of the previous block.
    const std::size_t block = std::max(chunk_words, q + 1);
    std::vector<std::uint64_t> words(q + 1 + block);
    for (long seq = 1; seq <= N; ++seq) {
        const std::uint64_t total = q + 1 + static_cast<std::uint64_t>(K);
        std::uint64_t done = 0; // numbers compared (index of the first one in words[])
        std::size_t held = 0; // numbers in words[]
        std::uint64_t read = 0;
        std::uint64_t A = 0;
        while (read < total) {
            const std::size_t size = static_cast<std::size_t>(
                std::min<std::uint64_t>(total - read, words.size() - held));
            std::uint64_t* dst = words.data() + held;
            in.read(dst, size);
            for (std::size_t i = 0; i < size; ++i)
                dst[i] = in.strip_b(dst[i], r, s);
            held += size;
            read += size;
            // Numbers i with i + q + 1 held, up to K.
            const std::size_t ready = static_cast<std::size_t>(
                std::min<std::uint64_t>(held - (q + 1), static_cast<std::uint64_t>(K) - done));
            const int nparts = ready >= parallel_min ? nthreads : 1;
            std::uint64_t sum = 0;
#pragma omp parallel for num_threads(nparts) schedule(static, 1) reduction(+ : sum) if (nparts > 1)
            for (int t = 0; t < nparts; ++t) {
                const std::size_t a = ready * static_cast<std::size_t>(t) / nparts;
                const std::size_t b = ready * (static_cast<std::size_t>(t) + 1) / nparts;
                sum += count(words.data(), a, b, q, s1, s2, mask);
            }
            A += sum;
            done += ready;
            std::memmove(words.data(), words.data() + ready, (held - ready) * sizeof(words[0]));
            held -= ready;
        }
        add(A);
    }
    close_normal(res.get(), N);
    out.basic = copy_basic(res.get());
    return out;
}

// ---------------------------------------------------------------------------------------------
// scomp_LempelZiv

namespace {

// scomp.c's empirical mean and standard deviation of the number of phrases of 2^t bits.
const double lz_mean[] = { 0.0, 0.0, 0.0, 4.44, 7.64, 12.5, 20.8, 34.8, 58.9, 101.1, 176.0, 310.0,
    551.9, 992.3, 1799., 3286.2, 6041.5, 11171.5, 20761.8, 38760.4, 72654., 136677., 257949.,
    488257., 926658., 1762965., 3361490., 6422497., 12293930. };
const double lz_sigma[]
    = { 0.0, 0.0, 0.0, 0.49, 0.51, 0.62, 0.75, 0.78, 0.86, 0.94, 1.03, 1.19, 1.43, 1.68, 2.09, 2.46,
          3.36, 4.2, 5.4, 6.8, 9.1, 10.9, 14.7, 19.1, 25.2, 33.5, 44.546, 58.194, 75.513 };

// The bits of one replication, most significant first, 64 to a word, with a word of padding.
class BitString {
public:
    void reset(std::uint64_t bits)
    {
        data_.assign(static_cast<std::size_t>(bits / 64 + 2), 0);
        acc_ = 0;
        fill_ = 0;
        out_ = 0;
    }
    // Appends the s low bits of w.
    void push(std::uint64_t w, int s)
    {
        if (fill_ + s < 64) {
            acc_ = (acc_ << s) | w;
            fill_ += s;
        } else {
            const int fit = 64 - fill_;
            const int rest = s - fit;
            data_[out_++] = (fill_ == 0 ? 0 : acc_ << fit) | (w >> rest);
            acc_ = rest == 0 ? 0 : w & ((std::uint64_t(1) << rest) - 1);
            fill_ = rest;
        }
    }
    void finish()
    {
        if (fill_ > 0) data_[out_++] = acc_ << (64 - fill_);
    }
    int bit(std::uint64_t i) const
    {
        return static_cast<int>((data_[static_cast<std::size_t>(i >> 6)] >> (63 - (i & 63))) & 1);
    }
    // The `count` bits (1 to 63) from position i.
    std::uint64_t bits(std::uint64_t i, int count) const
    {
        const std::size_t w = static_cast<std::size_t>(i >> 6);
        const int o = static_cast<int>(i & 63);
        const std::uint64_t top = o == 0 ? data_[w] : (data_[w] << o) | (data_[w + 1] >> (64 - o));
        return top >> (64 - count);
    }

private:
    std::vector<std::uint64_t> data_;
    std::uint64_t acc_ = 0;
    int fill_ = 0;
    std::size_t out_ = 0;
};

// The LZ78 trie of one replication: node 0 the root, children[2 v + b] the child of v by bit b
// (0: none), and the nodes at two depths by their path.
class Trie {
public:
    // The phrases of the first n bits; t = log2 n picks the tabled depths (phrases of 2^t
    // random bits are mostly t - 8 bits long or longer).
    long parse(const BitString& bits, std::uint64_t n, int t)
    {
        const int deep_depth = std::max(2, t - 8);
        const int shallow_depth = std::max(1, deep_depth / 2);
        children_.assign(std::max<std::size_t>(1024, static_cast<std::size_t>(n / 8)), 0);
        nodes_ = 1;
        shallow_.assign(std::size_t(1) << shallow_depth, 0);
        deep_.assign(std::size_t(1) << deep_depth, 0);
        long phrases = 0;
        std::uint64_t i = 0;
        while (i < n) {
            const std::uint64_t start = i;
            std::uint32_t v = 0;
            int depth = 0;
            // Where the phrase's first bits lead to a node at a tabled depth, the walk from the
            // root would reach it through existing nodes only.
            if (i + deep_depth <= n) {
                const std::uint32_t u = deep_[static_cast<std::size_t>(bits.bits(i, deep_depth))];
                if (u != 0) {
                    v = u;
                    depth = deep_depth;
                } else {
                    const std::uint32_t w
                        = shallow_[static_cast<std::size_t>(bits.bits(i, shallow_depth))];
                    if (w != 0) {
                        v = w;
                        depth = shallow_depth;
                    }
                }
            } else if (i + shallow_depth <= n) {
                const std::uint32_t w
                    = shallow_[static_cast<std::size_t>(bits.bits(i, shallow_depth))];
                if (w != 0) {
                    v = w;
                    depth = shallow_depth;
                }
            }
            if (depth > 0) {
                i += static_cast<std::uint64_t>(depth);
                if (i >= n) {
                    if (has_child(v)) ++phrases;
                    break;
                }
            }
            for (;;) {
                const int b = bits.bit(i);
                const std::uint32_t c = children_[2 * static_cast<std::size_t>(v) + b];
                ++i;
                ++depth;
                if (c != 0) {
                    v = c;
                    if (i >= n) {
                        if (has_child(v)) ++phrases;
                        break;
                    }
                } else {
                    const std::uint32_t made = add_node();
                    children_[2 * static_cast<std::size_t>(v) + b] = made;
                    ++phrases;
                    if (depth == shallow_depth)
                        shallow_[static_cast<std::size_t>(bits.bits(start, shallow_depth))] = made;
                    else if (depth == deep_depth)
                        deep_[static_cast<std::size_t>(bits.bits(start, deep_depth))] = made;
                    break;
                }
            }
        }
        return phrases;
    }

private:
    bool has_child(std::uint32_t v) const
    {
        return (children_[2 * static_cast<std::size_t>(v)]
                   | children_[2 * static_cast<std::size_t>(v) + 1])
            != 0;
    }
    std::uint32_t add_node()
    {
        if (2 * (static_cast<std::size_t>(nodes_) + 1) > children_.size())
            children_.resize(2 * children_.size(), 0);
        return nodes_++;
    }

    std::vector<std::uint32_t> children_;
    std::uint32_t nodes_ = 1;
    std::vector<std::uint32_t> shallow_, deep_;
};

} // namespace

LempelZivResult lempel_ziv(Numbers& in, const LempelZivParams& p, int threads)
{
    const long N = p.N;
    const int t = p.t, r = p.r, s = p.s;
    if (N < 1 || s < 1 || r < 0 || r + s > 32 || t < 3 || t > 28)
        throw std::invalid_argument("scomp_LempelZiv: invalid parameters");
    const long n = static_cast<long>(Numbers::two_exp(t));
    const std::uint64_t un = static_cast<std::uint64_t>(n);
    const std::uint64_t words_per_rep
        = (un + static_cast<std::uint64_t>(s) - 1) / static_cast<std::uint64_t>(s);

    BasicPtr res(sres_CreateBasic());
    sres_InitBasic(res.get(), N, lempel_ziv_name);
    LempelZivResult out;
    out.phrases.resize(static_cast<std::size_t>(N));

    // Replications read one after the other, parsed `group` at a time in parallel.
    const int group = std::max(1, std::min<int>(thread_count(threads), static_cast<int>(N)));
    std::vector<BitString> strings(static_cast<std::size_t>(group));
    std::vector<Trie> tries(static_cast<std::size_t>(group));
    std::vector<std::uint64_t> buffer(
        static_cast<std::size_t>(std::min<std::uint64_t>(words_per_rep, chunk_words)));
    for (long first = 0; first < N; first += group) {
        const int count = static_cast<int>(std::min<long>(group, N - first));
        for (int g = 0; g < count; ++g) {
            BitString& bs = strings[static_cast<std::size_t>(g)];
            bs.reset(words_per_rep * static_cast<std::uint64_t>(s));
            for (std::uint64_t left = words_per_rep; left > 0;) {
                const std::size_t size
                    = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
                in.read(buffer.data(), size);
                for (std::size_t i = 0; i < size; ++i)
                    bs.push(in.strip_b(buffer[i], r, s), s);
                left -= size;
            }
            bs.finish();
        }
#pragma omp parallel for num_threads(count) schedule(static, 1) if (count > 1)
        for (int g = 0; g < count; ++g)
            out.phrases[static_cast<std::size_t>(first + g)]
                = tries[static_cast<std::size_t>(g)].parse(
                    strings[static_cast<std::size_t>(g)], un, t);
    }
    for (long seq = 0; seq < N; ++seq) {
        const double x
            = (static_cast<double>(out.phrases[static_cast<std::size_t>(seq)]) - lz_mean[t])
            / lz_sigma[t];
        statcoll_AddObs(res->sVal1, x);
    }
    close_normal(res.get(), N);
    out.basic = copy_basic(res.get());
    return out;
}

// ---------------------------------------------------------------------------------------------
// The battery rows

const std::vector<BitRunsRow>& bit_runs_rows()
{
    constexpr long billion = 1000000000L;
    using T = BitRunsTest;
    // bbattery.c: Crush (r = 0, s = 30: tests 73, 91 to 96) and BigCrush (r = 0, s = 30:
    // tests 82, 83, 101 to 106).
    static const std::vector<BitRunsRow> rows = {
        { "crush", 73, "LempelZiv", T::lempel_ziv, 10, 25, 0, 30, 0 },
        { "crush", 91, "Run of bits, r = 0", T::run, 1, billion, 0, 30, 0 },
        { "crush", 92, "Run of bits, r = 20", T::run, 1, billion, 20, 10, 0 },
        { "crush", 93, "AutoCor, d = 1", T::auto_cor, 10, 30 + billion, 0, 30, 1 },
        { "crush", 94, "AutoCor, d = 1", T::auto_cor, 5, 1 + billion, 20, 10, 1 },
        { "crush", 95, "AutoCor, d = 30", T::auto_cor, 10, 31 + billion, 0, 30, 30 },
        { "crush", 96, "AutoCor, d = 10", T::auto_cor, 5, 11 + billion, 20, 10, 10 },
        { "bigcrush", 82, "LempelZiv, r = 0", T::lempel_ziv, 10, 27, 0, 30, 0 },
        { "bigcrush", 83, "LempelZiv, r = 15", T::lempel_ziv, 10, 27, 15, 15, 0 },
        { "bigcrush", 101, "Run of bits, r = 0", T::run, 1, 2 * billion, 0, 3, 0 },
        { "bigcrush", 102, "Run of bits, r = 27", T::run, 1, 2 * billion, 27, 3, 0 },
        { "bigcrush", 103, "AutoCor, d=1, r=0", T::auto_cor, 10, 30 + billion, 0, 3, 1 },
        { "bigcrush", 104, "AutoCor, d=3, r=0", T::auto_cor, 10, 30 + billion, 0, 3, 3 },
        { "bigcrush", 105, "AutoCor, d=1, r=27", T::auto_cor, 10, 30 + billion, 27, 3, 1 },
        { "bigcrush", 106, "AutoCor, d=3, r=27", T::auto_cor, 10, 30 + billion, 27, 3, 3 },
    };
    return rows;
}

std::vector<NativeStatistic> run_bit_runs_row(
    Numbers& in, const BitRunsRow& row, long n, int threads)
{
    switch (row.test) {
    case BitRunsTest::run: {
        RunParams p;
        p.N = row.N;
        p.n = n;
        p.r = row.r;
        p.s = row.s;
        const RunResult res = run_of_bits(in, p, threads);
        return { { row.name, res.runs.pval2[gofw_Mean] }, { row.name, res.bits.pval2[gofw_Mean] } };
    }
    case BitRunsTest::auto_cor: {
        AutoCorParams p;
        p.N = row.N;
        p.n = n;
        p.r = row.r;
        p.s = row.s;
        p.d = row.d;
        const AutoCorResult res = auto_cor(in, p, threads);
        return { { row.name, res.basic.pval2[gofw_Sum] } };
    }
    case BitRunsTest::lempel_ziv: {
        LempelZivParams p;
        p.N = row.N;
        p.t = static_cast<int>(n);
        p.r = row.r;
        p.s = row.s;
        const LempelZivResult res = lempel_ziv(in, p, threads);
        return { { row.name, res.basic.pval2[gofw_Sum] } };
    }
    }
    return {};
}

std::vector<NativeTest> bit_runs_tests()
{
    std::vector<NativeTest> tests;
    for (const BitRunsRow& row : bit_runs_rows())
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return run_bit_runs_row(in, row, row.n); } });
    return tests;
}

} // namespace rngvet::native
