// Native sknuth_Run, sknuth_Permutation and sknuth_CollisionPermut (sknuth_order.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3, USE_LONGLONG as Debian builds it):
// sknuth.c (sknuth_Run, sknuth_Permutation, sknuth_CollisionPermut, InitRes2), smultin.c
// (smultin_Multinomial, Multinom, smultin_GenerCellPermut, InitPowDiv, CalcTabFj, ReCalcTabFj,
// CalcPowDivEqual, CalcPoDiEqHache, UpdateCountHash, CalcResultsPowDiv), unif01.c
// (unif01_StripD), probdist/gofw.c and testu01/sres.c; the battery rows from bbattery.c (Crush
// 35-40, BigCrush 38-45).
//
// The integer work is done here. The words are read in chunks, the next chunk read while other
// threads work through blocks of the current one. Only the order of StripD's values matters to
// these tests, and for words of at most 53 bits StripD(w, r) is exactly (w << r mod 2^bits)
// 2^-bits, so those integer keys are compared instead of the doubles (a word outside that contract
// takes StripD's own operations, and the bit pattern of its non-negative double as key, which
// orders as the double does). The permutation cell of t keys is found by smultin_GenerCellPermut's
// own steps (ties included); runs are found block by block, each block summarized by its
// runs and the partial runs at its two ends, the summaries joined in stream order. Cells are
// counted in per-thread tables (Permutation, dense), or sorted (Permutation, hashed as TestU01
// hashes where t! is large and n < t!), or counted by collision.hpp's distinct_count
// (CollisionPermut: TestU01's number of collisions is exactly n minus the number of distinct
// cells). Memory: two chunks of words (32 MiB), Permutation's count tables (at most 256 MiB),
// CollisionPermut's n cells and distinct_count's partition of them (240 MB for BigCrush's
// n = 2 * 10^7).
//
// Every floating-point value is TestU01's: the statistics' sums run over the same terms computed
// with the same operations in the same order (the chi-square terms cell by cell, or occupancy by
// occupancy where TestU01 hashes), and the rest comes from TestU01's own functions
// (smultin_PowDivMomCorChi, smultin_PowDivMom, smultin_CreateCollisions, fmass, fdist, fbar,
// gofw, sres), called with the same arguments in the same order.
#include "sknuth_order.hpp"

#include "collision.hpp"
#include "crew.hpp"
#include "device.hpp"
#include "device_runs.hpp"
#include "families.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fdist.h>
#include <testu01/fmass.h>
#include <testu01/gofw.h>
#include <testu01/smultin.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read from the stream at a time (two buffers of 16 MiB), and a thread's share of them.
constexpr std::size_t chunk_words = std::size_t(1) << 21;
constexpr std::size_t block_words = std::size_t(1) << 15;
// smultin.c's LIM_DENSE: no table of terms where LIM_DENSE * n / k > k (Sparse = FALSE).
constexpr double lim_dense = 6.0;
// Memory for Permutation's per-thread tables of counts.
constexpr std::size_t count_memory = std::size_t(1) << 28;
// Permutation's cells counted on a device at most (its table of counts: 8 bytes a cell).
constexpr std::size_t device_cells = std::size_t(1) << 26;
// smultin_GenerCellPermut's largest t (USE_LONGLONG).
constexpr int max_t = 20;

void require(bool ok, const char* what)
{
    if (!ok) throw std::invalid_argument(what);
}

std::uint64_t double_bits(double x)
{
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

// Keys that order as unif01_StripD(w, r) orders: (w << r) mod 2^bits where every step of StripD
// is exact (words of at most 53 bits, r < 64), else the bit pattern of StripD's value itself (a
// non-negative double: its bits order as it does).
class StripKeys {
public:
    StripKeys(const Numbers& in, int r)
        : in_(in)
        , r_(r)
        , exact_(in.bits() <= 53 && r < 64)
        , shift_(exact_ ? r : 0)
        , bits_(in.bits())
        , mask_(exact_ ? (std::uint64_t(1) << in.bits()) - 1 : 0)
    {
    }
    // Whether the integer keys serve for words whose bits OR to `any`.
    bool exact(std::uint64_t any) const { return exact_ && (any >> bits_) == 0; }
    std::uint64_t integer(std::uint64_t w) const { return (w << shift_) & mask_; }
    std::uint64_t general(std::uint64_t w) const { return double_bits(in_.strip_d(w, r_)); }
    // The keys of m words, one kind for all of them.
    void keys(const std::uint64_t* w, std::size_t m, std::uint64_t* out) const
    {
        std::uint64_t any = 0;
        for (std::size_t i = 0; i < m; ++i)
            any |= w[i];
        if (exact(any)) {
            for (std::size_t i = 0; i < m; ++i)
                out[i] = integer(w[i]);
        } else {
            for (std::size_t i = 0; i < m; ++i)
                out[i] = general(w[i]);
        }
    }

private:
    const Numbers& in_;
    int r_;
    bool exact_;
    int shift_;
    int bits_;
    std::uint64_t mask_;
};

// Reads `segments` segments (replications) of `per` groups of `group` words, in stream order, a
// chunk of whole groups at a time (a chunk never spans two segments). For every chunk,
// work(words, segment, first group, groups, thread, block) runs on its blocks on `threads`
// threads while the calling thread first reads the next chunk (the stream's own thread, as a
// device stream may need), then joins them; then done(segment, first group, groups, words,
// blocks) runs on the calling thread.
template <class Work, class Done>
void for_chunks(Numbers& in, long segments, long per, long group, int threads, const Work& work,
    const Done& done)
{
    const long chunk
        = std::max<long>(1, std::min<long>(per, static_cast<long>(chunk_words) / group));
    const long block = std::max<long>(1, static_cast<long>(block_words) / group);
    const long chunk_blocks = (chunk + block - 1) / block;
    std::vector<std::uint64_t> buffer[2];
    buffer[0].resize(static_cast<std::size_t>(chunk * group));
    if (segments * per > chunk) buffer[1].resize(buffer[0].size());
    long seg = 0, first = 0, m = std::min(chunk, per);
    in.read(buffer[0].data(), static_cast<std::size_t>(m * group));
    std::unique_ptr<Crew> crew;
    if (threads > 1 && chunk_blocks > 1)
        crew = std::make_unique<Crew>(
            static_cast<int>(std::min<long>(threads - 1, chunk_blocks - 1)));
    for (int current = 0; seg < segments; current = 1 - current) {
        long next_seg = seg, next_first = first + m;
        if (next_first >= per) {
            ++next_seg;
            next_first = 0;
        }
        const long next_m = next_seg < segments ? std::min(chunk, per - next_first) : 0;
        const std::uint64_t* w = buffer[current].data();
        std::uint64_t* next = buffer[1 - current].data();
        const long blocks = (m + block - 1) / block;
        const std::function<void(long, int)> run_block = [&](long b, int thread) {
            const long g0 = b * block;
            work(w + g0 * group, seg, first + g0, std::min(block, m - g0), thread, b);
        };
        const auto read_next = [&] {
            if (next_m > 0) in.read(next, static_cast<std::size_t>(next_m * group));
        };
        if (!crew || blocks <= 1) {
            for (long b = 0; b < blocks; ++b)
                run_block(b, 0);
            read_next();
        } else {
            crew->run(blocks, run_block, read_next);
        }
        done(seg, first, m, w, blocks);
        seg = next_seg;
        first = next_first;
        m = next_m;
    }
}

std::uint64_t factorial(int t)
{
    std::uint64_t k = 1;
    for (int i = 2; i <= t; ++i)
        k *= static_cast<std::uint64_t>(i);
    return k;
}

// smultin_GenerCellPermut on keys u[1..T] (modified): for i = T down to 2, the position s of the
// first greatest of u[1..i] is the digit s - 1 of weight i, and u[i] takes u[s]'s place.
template <int T> std::uint64_t cell_of(std::uint64_t* u)
{
    std::uint64_t cell = 0;
    for (int i = T; i >= 2; --i) {
        int s = 1;
        std::uint64_t best = u[1];
        for (int j = 2; j <= i; ++j) {
            const bool greater = u[j] > best;
            s = greater ? j : s;
            best = greater ? u[j] : best;
        }
        cell = cell * static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(s - 1);
        u[s] = u[i];
    }
    return cell;
}

// The cells of `groups` groups of T words into out[0..groups), their keys (one kind for the
// whole block) in key_buffer.
template <int T>
void permutation_cells(const StripKeys& keys, const std::uint64_t* w, long groups,
    std::uint64_t* key_buffer, std::uint64_t* out)
{
    keys.keys(w, static_cast<std::size_t>(groups) * T, key_buffer);
    std::uint64_t u[T + 1];
    for (long g = 0; g < groups; ++g) {
        std::copy(key_buffer + g * T, key_buffer + (g + 1) * T, u + 1);
        out[g] = cell_of<T>(u);
    }
}

using CellsFunction
    = void (*)(const StripKeys&, const std::uint64_t*, long, std::uint64_t*, std::uint64_t*);

using CellFunction = std::uint64_t (*)(std::uint64_t*);

template <std::size_t... T>
constexpr std::array<CellsFunction, sizeof...(T)> cells_functions(std::index_sequence<T...>)
{
    return { &permutation_cells<static_cast<int>(T)>... };
}
template <std::size_t... T>
constexpr std::array<CellFunction, sizeof...(T)> cell_functions(std::index_sequence<T...>)
{
    return { &cell_of<static_cast<int>(T)>... };
}

// permutation_cells<t> and cell_of<t> for t = 0, ..., max_t.
constexpr auto cells_for_t = cells_functions(std::make_index_sequence<max_t + 1>());
constexpr auto cell_for_t = cell_functions(std::make_index_sequence<max_t + 1>());

// Reads N replications of n permutation cells of t numbers each; cells(segment, first, count,
// values, thread) takes each block's cells, replication_done(segment) follows each replication.
template <class Cells, class Done>
void for_permutation_cells(Numbers& in, long N, long n, int r, int t, int threads,
    const Cells& cells, const Done& replication_done)
{
    const StripKeys keys(in, r);
    const CellsFunction cells_of = cells_for_t[static_cast<std::size_t>(t)];
    struct Scratch {
        std::vector<std::uint64_t> keys, cells;
    };
    std::vector<Scratch> scratch(static_cast<std::size_t>(threads));
    for_chunks(
        in, N, n, t, threads,
        [&](const std::uint64_t* w, long seg, long first, long groups, int thread, long) {
            Scratch& own = scratch[static_cast<std::size_t>(thread)];
            own.keys.resize(static_cast<std::size_t>(groups * t));
            own.cells.resize(static_cast<std::size_t>(groups));
            cells_of(keys, w, groups, own.keys.data(), own.cells.data());
            cells(seg, first, groups, own.cells.data(), thread);
        },
        [&](long seg, long first, long m, const std::uint64_t*, long) {
            if (first + m == n) replication_done(seg);
        });
}

// ---------------------------------------------------------------------------------------------
// sknuth_Run

// A block's runs are summarized in a RunBlock (device_runs.hpp, which the device path gives
// too): the values before its first break (a value that ends the run before it), the complete
// runs between breaks by length (6 for >= 6), and the values from its last break on.

template <bool Up> bool breaks(std::uint64_t previous, std::uint64_t u)
{
    return Up ? u < previous : u > previous;
}

// Summarizes m keys; first_break: whether the first value ends the run before the block.
template <bool Up> void summarize_run(const std::uint64_t* u, long m, bool first_break, RunBlock& b)
{
    long i = 0;
    if (!first_break) {
        for (i = 1; i < m && !breaks<Up>(u[i - 1], u[i]); ++i) { }
    }
    b.head = i;
    if (i == m) return;
    b.broken = true;
    long length = 1;
    for (++i; i < m; ++i) {
        const bool brk = breaks<Up>(u[i - 1], u[i]);
        b.count[length] += brk;
        length = brk ? 1 : (length < 6 ? length + 1 : 6);
    }
    b.tail = length;
}

// sknuth_Run's constants: the matrix A of the modified chi-square and the probabilities B.
struct RunConstants {
    double A[6][6];
    double B[6];
    RunConstants()
    {
        const double upper[6][6] = {
            { 4529.35365, 9044.90208, 13567.9452, 18091.2672, 22614.7139, 27892.1588 },
            { 0, 18097.0254, 27139.4552, 36186.6493, 45233.8198, 55788.8311 },
            { 0, 0, 40721.3320, 54281.2656, 67852.0446, 83684.5705 },
            { 0, 0, 0, 72413.6082, 90470.0789, 111580.110 },
            { 0, 0, 0, 0, 113261.815, 139475.555 },
            { 0, 0, 0, 0, 0, 172860.170 },
        };
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                A[i][j] = j >= i ? upper[i][j] : upper[j][i];
        B[0] = 1.0 / 6.0;
        B[1] = 5.0 / 24.0;
        B[2] = 11.0 / 120.0;
        B[3] = 19.0 / 720.0;
        B[4] = 29.0 / 5040.0;
        B[5] = 1.0 / 840.0;
    }
};

} // namespace

std::uint64_t permutation_cell(const std::uint64_t* keys, int t)
{
    require(t >= 2 && t <= max_t, "permutation_cell: t out of [2, 20]");
    std::uint64_t u[max_t + 1];
    std::copy(keys, keys + t, u + 1);
    return cell_for_t[static_cast<std::size_t>(t)](u);
}

void run_test(Numbers& in, sres_Chi2* res, long N, long n, int r, bool up, int threads)
{
    require(N >= 1, "Run: N < 1");
    require(r >= 0, "Run: r < 0");
    if (n < 600) return;
    threads = std::max(1, threads);
    const double nReal = static_cast<double>(n);
    static const RunConstants constants;

    char name[] = "sknuth_Run";
    sres_InitChi2(res, N, 6, name);
    double* NbExp = res->NbExp;
    long* Count = res->Count;
    res->jmin = 1;
    res->jmax = 6;
    for (int i = 1; i <= 6; ++i) {
        NbExp[i] = nReal * constants.B[i - 1];
        res->Loc[i] = i;
    }
    statcoll_SetDesc(res->sVal1, "The N statistic values (a ChiSquare with 6 degrees of freedom):");
    res->degFree = 6;

    const StripKeys keys(in, r);
    std::vector<std::vector<std::uint64_t>> scratch(static_cast<std::size_t>(threads));
    std::vector<RunBlock> blocks;
    std::uint64_t carry = 0; // the last word of the previous chunk
    long length = 0; // the current run's length so far, at most 6
    long counts[7] = {};
    auto block_work = [&](const std::uint64_t* w, long, long first, long m, int thread, long b) {
        std::vector<std::uint64_t>& u = scratch[static_cast<std::size_t>(thread)];
        u.resize(static_cast<std::size_t>(m));
        keys.keys(w, static_cast<std::size_t>(m), u.data());
        // The first value against the one before it (in this chunk or the previous), compared
        // as StripD's values themselves.
        bool first_break = false;
        if (first > 0) {
            const std::uint64_t previous = b > 0 ? w[-1] : carry;
            const double a = in.strip_d(previous, r), x = in.strip_d(w[0], r);
            first_break = up ? x < a : x > a;
        }
        RunBlock& summary = blocks[static_cast<std::size_t>(b)];
        summary = RunBlock{};
        if (up)
            summarize_run<true>(u.data(), m, first_break, summary);
        else
            summarize_run<false>(u.data(), m, first_break, summary);
    };
    // The runs of the next block joined to those before it.
    auto join_block = [&](const RunBlock& s) {
        if (!s.broken) {
            length = std::min<long>(6, length + s.head);
            return;
        }
        ++counts[std::min<long>(6, length + s.head)];
        for (int i = 1; i <= 6; ++i)
            counts[i] += s.count[i];
        length = s.tail;
    };
    // The end of a replication: sknuth_Run's statistic.
    auto end_replication = [&] {
        ++counts[length];
        for (int i = 1; i <= 6; ++i)
            Count[i] = counts[i];
        double Khi = 0.0;
        for (int i = 1; i <= 6; ++i)
            for (int j = 1; j <= 6; ++j)
                Khi += constants.A[i - 1][j - 1] * (static_cast<double>(Count[i]) - NbExp[i])
                    * (static_cast<double>(Count[j]) - NbExp[j]);
        statcoll_AddObs(res->sVal1, Khi / (nReal - 6.0));
        length = 0;
        std::fill(std::begin(counts), std::end(counts), 0);
    };
    auto chunk_done = [&](long, long first, long m, const std::uint64_t* w, long nblocks) {
        for (long b = 0; b < nblocks; ++b)
            join_block(blocks[static_cast<std::size_t>(b)]);
        carry = w[m - 1];
        if (first + m == n) end_replication();
    };

    // On the device the stream runs on, where it is a CUDA one: each chunk's summary.
    const bool on_device
        = device_run_chunks(in, N, n, r, up, [&](long, long first, long m, const RunBlock& chunk) {
              join_block(chunk);
              if (first + m == n) end_replication();
          });
    if (!on_device) {
        const long per_block = static_cast<long>(block_words);
        blocks.resize(static_cast<std::size_t>(
            (std::min<long>(n, static_cast<long>(chunk_words)) + per_block - 1) / per_block));
        for_chunks(in, N, n, 1, threads, block_work, chunk_done);
    }

    double V[1] = { 6 };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

void permutation_test(Numbers& in, sres_Chi2* res, long N, long n, int r, int t, int threads)
{
    require(N >= 1, "Permutation: N < 1");
    require(t >= 2 && t <= max_t, "Permutation: t out of [2, 20]");
    require(n > 4, "Permutation: n <= 4");
    require(r >= 0, "Permutation: r < 0");
    threads = std::max(1, threads);
    const std::uint64_t k = factorial(t);
    const double kd = static_cast<double>(k);

    // InitPowDiv (Sparse = FALSE, chi-square) and CalcTabFj.
    const double NbExp = static_cast<double>(n) / kd;
    const bool hashing = kd >= smultin_env.SeuilHash && NbExp < 1.0;
    double Mu, Sigma;
    smultin_PowDivMomCorChi(1.0, n, kd, &Mu, &Sigma);
    const bool table = !(lim_dense * NbExp > kd);
    // A term of the table F (CalcTabFj, ReCalcTabFj): the chi-square term of a cell with i balls.
    auto term = [NbExp](long i) {
        const double temp = static_cast<double>(i) - NbExp;
        return temp * temp / NbExp;
    };

    std::vector<double> values(static_cast<std::size_t>(N) + 1); // the collector, 1-based
    double SumX = 0.0, SumX2 = 0.0, X0Pre = 0.0;
    auto add = [&](long seq, double X) {
        double X0 = (X - Mu) / Sigma;
        values[static_cast<std::size_t>(seq) + 1] = X0;
        X0 = (X0 - kd + 1.0) / std::sqrt(2.0 * kd - 2.0);
        SumX += X0;
        SumX2 += X0 * X0Pre;
        X0Pre = X0;
    };

    if (hashing) {
        // n < k: the cells kept and sorted; X from the numbers of cells with s balls
        // (CalcPoDiEqHache with its table), s = 0 (k minus the cells hit) to the most balls.
        std::vector<std::uint64_t> cells(static_cast<std::size_t>(n));
        for_permutation_cells(
            in, N, n, r, t, threads,
            [&](long, long first, long count, const std::uint64_t* c, int) {
                std::copy(c, c + count, cells.begin() + first);
            },
            [&](long seq) {
                std::sort(cells.begin(), cells.end());
                std::vector<std::uint64_t> Nb(1, 0);
                std::uint64_t distinct = 0;
                for (std::size_t i = 0; i < cells.size();) {
                    std::size_t j = i + 1;
                    while (j < cells.size() && cells[j] == cells[i])
                        ++j;
                    const std::size_t balls = j - i;
                    if (Nb.size() <= balls) Nb.resize(balls + 1, 0);
                    ++Nb[balls];
                    ++distinct;
                    i = j;
                }
                Nb[0] = k - distinct;
                double X = 0.0;
                for (std::size_t s = 0; s < Nb.size(); ++s)
                    X += term(static_cast<long>(s)) * static_cast<double>(Nb[s]);
                add(seq, X);
            });
    } else {
        // Cells counted in a table per thread (as many threads as tables of k counts fit in
        // count_memory), summed cell by cell (CalcPowDivEqual).
        const std::size_t kk = static_cast<std::size_t>(k);
        // X of one replication from its cells' counts.
        auto chi2 = [&](const std::vector<std::uint64_t>& total) {
            double X = 0.0;
            if (table) {
                for (std::size_t j = 0; j < kk; ++j)
                    X += term(static_cast<long>(total[j]));
            } else {
                for (std::size_t j = 0; j < kk; ++j) {
                    const double temp = static_cast<double>(static_cast<long>(total[j])) - NbExp;
                    X += temp * temp;
                }
                X /= NbExp;
            }
            return X;
        };
        // On the device the stream runs on, where it is a CUDA one: every replication's counts.
        const auto on_device
            = kk <= device_cells ? device_permutation_histograms(in, N, n, r, t) : std::nullopt;
        if (on_device) {
            for (long seq = 0; seq < N; ++seq)
                add(seq, chi2((*on_device)[static_cast<std::size_t>(seq)]));
        } else {
            const int team = static_cast<int>(std::max<std::size_t>(1,
                std::min<std::size_t>(static_cast<std::size_t>(threads),
                    count_memory / (kk * sizeof(std::uint64_t)))));
            std::vector<std::vector<std::uint64_t>> counts(
                static_cast<std::size_t>(team), std::vector<std::uint64_t>(kk, 0));
            for_permutation_cells(
                in, N, n, r, t, team,
                [&](long, long, long count, const std::uint64_t* c, int thread) {
                    std::uint64_t* h = counts[static_cast<std::size_t>(thread)].data();
                    for (long i = 0; i < count; ++i)
                        ++h[c[i]];
                },
                [&](long seq) {
                    std::vector<std::uint64_t>& total = counts[0];
                    for (std::size_t i = 1; i < counts.size(); ++i) {
                        for (std::size_t j = 0; j < kk; ++j)
                            total[j] += counts[i][j];
                        std::fill(counts[i].begin(), counts[i].end(), 0);
                    }
                    add(seq, chi2(total));
                    std::fill(total.begin(), total.end(), 0);
                });
        }
    }

    // CalcResultsPowDiv (Sparse = FALSE), then sknuth_Permutation's copy into res.
    double sVal2[gofw_NTestTypes], pVal2[gofw_NTestTypes];
    gofw_InitTestArray(sVal2, -1.0);
    gofw_InitTestArray(pVal2, -1.0);
    double V[1] = { static_cast<double>(k - 1) };
    gofw_ActiveTests1(values.data(), N, wdist_ChiSquare, V, sVal2, pVal2);
    if (N > 1) {
        const double racN = std::sqrt(static_cast<double>(N));
        sVal2[gofw_Mean] = SumX / racN;
        pVal2[gofw_Mean] = fbar_Normal1(sVal2[gofw_Mean]);
        sVal2[gofw_Cor] = racN * SumX2 / static_cast<double>(N - 1);
        pVal2[gofw_Cor] = fbar_Normal1(sVal2[gofw_Cor]);
    }
    char name[] = "sknuth_Permutation";
    sres_InitChi2(res, N, -1, name);
    statcoll_SetDesc(res->sVal1, "Serial sVal1");
    for (long i = 1; i <= N; ++i)
        statcoll_AddObs(res->sVal1, values[static_cast<std::size_t>(i)]);
    std::copy(sVal2, sVal2 + gofw_NTestTypes, res->sVal2);
    std::copy(pVal2, pVal2 + gofw_NTestTypes, res->pVal2);
}

void collision_permut_test(Numbers& in, sknuth_Res2* res, long N, long n, int r, int t, int threads)
{
    require(N >= 1, "CollisionPermut: N < 1");
    require(t >= 2 && t <= max_t, "CollisionPermut: t out of [2, 20]");
    require(n > 4, "CollisionPermut: n <= 4");
    require(r >= 0, "CollisionPermut: r < 0");
    threads = std::max(1, threads);
    const std::uint64_t k = factorial(t);
    const double kd = static_cast<double>(k);

    // InitPowDiv (Sparse): the mean and standard deviation of the number of collisions, from
    // smultin_PowDivMom, which gives -1 (and writes a line) when n/k > 8 or k <= 2.
    double Mu = -1.0, Sigma = -1.0;
    if (!(static_cast<double>(n) / kd > 8.0) && !(kd <= 2))
        smultin_PowDivMom(-1.0, n, kd, static_cast<double>(n) / kd, &Mu, &Sigma);
    if (N > 1) {
        require(Mu >= 0.0, "CollisionPermut: N > 1 and no mean for n/k");
        require(Mu < smultin_env.SeuilEColl, "CollisionPermut: N > 1 and Mu >= SeuilEColl");
    }

    std::vector<double> values; // the collector
    double NbCollisions = 0.0, SumX = 0.0, SumX2 = 0.0, X0Pre = 0.0;
    // Multinom: X (the collisions, n minus the distinct cells: a sum of integers below 2^53 in
    // either of TestU01's ways of counting), X0, NbCollisions, the collector.
    auto replication = [&](std::uint64_t distinct) {
        const double X = static_cast<double>(static_cast<std::uint64_t>(n) - distinct);
        const double X0 = (X - Mu) / Sigma;
        NbCollisions += X;
        values.push_back(X);
        SumX += X0;
        SumX2 += X0 * X0Pre;
        X0Pre = X0;
    };
    // On the device the stream runs on, where it is a CUDA one: every replication's count.
    if (const auto on_device = device_permutation_distinct(in, N, n, r, t)) {
        for (const std::uint64_t distinct : *on_device)
            replication(distinct);
    } else {
        std::vector<std::uint64_t> cells(static_cast<std::size_t>(n));
        for_permutation_cells(
            in, N, n, r, t, threads,
            [&](long, long first, long count, const std::uint64_t* c, int) {
                std::copy(c, c + count, cells.begin() + first);
            },
            [&](long) { replication(distinct_count(cells, k, threads)); });
    }

    // CalcResultsPowDiv (collision test, Sparse).
    double sVal2[gofw_NTestTypes], pVal2[gofw_NTestTypes];
    gofw_InitTestArray(sVal2, -1.0);
    gofw_InitTestArray(pVal2, -1.0);
    double pCollLeft = -1.0, pCollRight = -1.0, pLeft = -1.0, pRight = -1.0;
    if (N == 1) {
        fmass_INFO mass = smultin_CreateCollisions(n, k);
        pCollLeft = smultin_FDistCollisions(mass, static_cast<long>(NbCollisions));
        pCollRight = smultin_FBarCollisions(mass, static_cast<long>(NbCollisions));
        smultin_DeleteCollisions(mass);
        pLeft = pCollLeft;
        pRight = pCollRight;
        sVal2[gofw_Mean] = SumX;
        pVal2[gofw_Mean] = fbar_Normal1(sVal2[gofw_Mean]);
    } else {
        fmass_INFO mass = fmass_CreatePoisson(static_cast<double>(N) * Mu);
        pCollLeft = fdist_Poisson2(mass, static_cast<long>(NbCollisions));
        pCollRight = fbar_Poisson2(mass, static_cast<long>(NbCollisions));
        fmass_DeletePoisson(mass);
    }
    const double pColl = gofw_pDisc(pCollLeft, pCollRight);
    if (N > 1) {
        const double racN = std::sqrt(static_cast<double>(N));
        sVal2[gofw_Mean] = SumX / racN;
        pVal2[gofw_Mean] = fbar_Normal1(sVal2[gofw_Mean]);
        sVal2[gofw_Cor] = racN * SumX2 / static_cast<double>(N - 1);
        pVal2[gofw_Cor] = fbar_Normal1(sVal2[gofw_Cor]);
    }

    // sknuth_CollisionPermut's copy into res (InitRes2 first).
    char name[] = "sknuth_CollisionPermut";
    sres_InitBasic(res->Bas, N, name);
    sres_InitPoisson(res->Pois, N, Mu, name);
    statcoll_SetDesc(res->Bas->sVal1, "CollisionPermut sVal1");
    statcoll_SetDesc(res->Pois->sVal1, "CollisionPermut sVal1");
    res->Pois->pLeft = pLeft;
    res->Pois->pRight = pRight;
    for (double x : values) {
        statcoll_AddObs(res->Bas->sVal1, x);
        statcoll_AddObs(res->Pois->sVal1, x);
    }
    res->Pois->pVal2 = pColl;
    res->Pois->sVal2 = NbCollisions;
    std::copy(sVal2, sVal2 + gofw_NTestTypes, res->Bas->sVal2);
    std::copy(pVal2, pVal2 + gofw_NTestTypes, res->Bas->pVal2);
}

namespace {

const OrderRow row_table[] = {
    // Crush 35-36: sknuth_Run (gen, res, 1, 500 * MILLION, r, Up), pVal2[gofw_Mean].
    { "crush", 35, OrderRow::run, 1, 500000000, 0, 0, true, gofw_Mean, "Run of U01, r = 0" },
    { "crush", 36, OrderRow::run, 1, 500000000, 15, 0, false, gofw_Mean, "Run of U01, r = 15" },
    // Crush 37-38: sknuth_Permutation (gen, res, 1, 50 * MILLION, r, 10), pVal2[gofw_Mean].
    { "crush", 37, OrderRow::permutation, 1, 50000000, 0, 10, false, gofw_Mean,
        "Permutation, r = 0" },
    { "crush", 38, OrderRow::permutation, 1, 50000000, 15, 10, false, gofw_Mean,
        "Permutation, r = 15" },
    // Crush 39-40: sknuth_CollisionPermut (gen, res, 5, 10 * MILLION, r, 13), Pois->pVal2.
    { "crush", 39, OrderRow::collision_permut, 5, 10000000, 0, 13, false, 0,
        "CollisionPermut, r = 0" },
    { "crush", 40, OrderRow::collision_permut, 5, 10000000, 15, 13, false, 0,
        "CollisionPermut, r = 15" },
    // BigCrush 38-39: sknuth_Run (gen, res, N, BILLION, r, Up), pVal2[gofw_Sum].
    { "bigcrush", 38, OrderRow::run, 5, 1000000000, 0, 0, false, gofw_Sum, "Run, r = 0" },
    { "bigcrush", 39, OrderRow::run, 10, 1000000000, 15, 0, true, gofw_Sum, "Run, r = 15" },
    // BigCrush 40-43: sknuth_Permutation (gen, res, 1, n, r, t), pVal2[gofw_Mean].
    { "bigcrush", 40, OrderRow::permutation, 1, 1000000000, 5, 3, false, gofw_Mean,
        "Permutation, t = 3" },
    { "bigcrush", 41, OrderRow::permutation, 1, 1000000000, 5, 5, false, gofw_Mean,
        "Permutation, t = 5" },
    { "bigcrush", 42, OrderRow::permutation, 1, 500000000, 5, 7, false, gofw_Mean,
        "Permutation, t = 7" },
    { "bigcrush", 43, OrderRow::permutation, 1, 500000000, 10, 10, false, gofw_Mean,
        "Permutation, t = 10" },
    // BigCrush 44-45: sknuth_CollisionPermut (gen, res, 20, 20 * MILLION, r, 14), Pois->pVal2.
    { "bigcrush", 44, OrderRow::collision_permut, 20, 20000000, 0, 14, false, 0,
        "CollisionPermut, r = 0" },
    { "bigcrush", 45, OrderRow::collision_permut, 20, 20000000, 10, 14, false, 0,
        "CollisionPermut, r = 10" },
};

} // namespace

std::vector<OrderRow> order_rows()
{
    return { std::begin(row_table), std::end(row_table) };
}

std::vector<NativeStatistic> order_statistics(
    Numbers& in, const OrderRow& row, long N, long n, int threads)
{
    double p = -1.0;
    if (row.test == OrderRow::collision_permut) {
        sknuth_Res2* res = sknuth_CreateRes2();
        try {
            collision_permut_test(in, res, N, n, row.r, row.t, threads);
        } catch (...) {
            sknuth_DeleteRes2(res);
            throw;
        }
        p = res->Pois->pVal2;
        sknuth_DeleteRes2(res);
    } else {
        sres_Chi2* res = sres_CreateChi2();
        try {
            if (row.test == OrderRow::run)
                run_test(in, res, N, n, row.r, row.up, threads);
            else
                permutation_test(in, res, N, n, row.r, row.t, threads);
        } catch (...) {
            sres_DeleteChi2(res);
            throw;
        }
        p = res->pVal2[row.pick];
        sres_DeleteChi2(res);
    }
    return { NativeStatistic{ row.name, p } };
}

// registry.cpp orders the rows by battery and number.
std::vector<NativeTest> sknuth_order_tests()
{
    std::vector<NativeTest> tests;
    for (const OrderRow& row : row_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return order_statistics(in, row, row.N, row.n, threads()); } });
    return tests;
}

} // namespace rngvet::native
