// Native sstring_HammingIndep (hamming_indep.hpp).
//
// Facts from TestU01 1.2.3's sstring.c (sstring_HammingIndep, HammingIndep_L, HammingIndep_S,
// CountBlocks) and bbattery.c (the battery rows):
// - A replication reads 2n blocks of L bits. With L >= s a block is L / s numbers of s bits
//   (unif01_StripB (gen, r, s)) and, when L % s > 0, one more number of which L % s bits are
//   kept (StripB (gen, r, L % s)). With L < s a number (StripB (gen, r, s)) gives s / L blocks,
//   its lowest L bits first, and the last 2n % (s / L) blocks come from one more number.
// - Blocks 2k - 1 and 2k (from 1) form pair k: Counters[weight of the first][weight of the
//   second] counts it.
// - The chi-square stage, the diagonal blocks and the gofw/fbar stages are TestU01's own
//   library functions, called with the same arguments in the same order as sstring_HammingIndep
//   calls them; the few floating-point operations between them follow its expressions.
//
// The counting is rngvet's own: numbers read in chunks, the pairs of a chunk counted by all
// threads into a table each (merged once per replication), the next chunk read while the current
// one is counted.
#include "hamming_indep.hpp"

#include "device_bits.hpp"
#include "families.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <numeric>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <utility>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/sstring.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// Words read at a time (two buffers of them: 16 MiB).
constexpr std::size_t chunk_words = std::size_t(1) << 20;
// Per-thread count tables may take this many bytes in all.
constexpr std::size_t table_budget = std::size_t(192) << 20;

// How a replication's 2n blocks come from the numbers.
struct Layout {
    bool long_blocks; // L >= s: HammingIndep_L; else HammingIndep_S
    int L;
    int words_per_block; // long blocks: L / s numbers, one more when L % s > 0
    int full_words; // long blocks: L / s
    std::uint32_t mask_s; // the s bits of StripB (r, s), in place in GetBits's 32 bits
    std::uint32_t mask_rest; // the L % s bits of StripB (r, L % s), in place
    int shift_s; // short blocks: StripB (r, s) = (GetBits >> shift_s) & ((1 << s) - 1)
    std::uint32_t block_mask; // short blocks: 2^L - 1
    int blocks_per_word; // short blocks: s / L
};

// The bits of a word of GetBits's 32 selected by `mask`, counted.
inline int weight(std::uint32_t u, std::uint32_t mask)
{
    return __builtin_popcount(u & mask);
}

// The pairs [p0, p1) of a chunk (pair 0 starts at words[0]) counted into table.
template <bool LongBlocks>
inline __attribute__((always_inline)) void count_pairs_body(const Numbers& in, const Layout& g,
    const std::uint64_t* words, std::size_t p0, std::size_t p1, std::uint64_t* table)
{
    const std::size_t row = static_cast<std::size_t>(g.L) + 1;
    if (LongBlocks) {
        const std::size_t wpb = static_cast<std::size_t>(g.words_per_block);
        for (std::size_t p = p0; p < p1; ++p) {
            const std::uint64_t* w = words + 2 * p * wpb;
            int x[2];
            for (int b = 0; b < 2; ++b, w += wpb) {
                int c = 0;
                for (int j = 0; j < g.full_words; ++j)
                    c += weight(static_cast<std::uint32_t>(in.bits32(w[j])), g.mask_s);
                if (g.mask_rest != 0)
                    c += weight(
                        static_cast<std::uint32_t>(in.bits32(w[g.full_words])), g.mask_rest);
                x[b] = c;
            }
            ++table[static_cast<std::size_t>(x[0]) * row + static_cast<std::size_t>(x[1])];
        }
    } else {
        const std::size_t k = static_cast<std::size_t>(g.blocks_per_word);
        for (std::size_t p = p0; p < p1; ++p) {
            int x[2];
            for (std::size_t b = 0; b < 2; ++b) {
                const std::size_t block = 2 * p + b;
                const std::uint32_t z
                    = (static_cast<std::uint32_t>(in.bits32(words[block / k])) >> g.shift_s)
                    >> ((block % k) * static_cast<std::size_t>(g.L));
                x[b] = weight(z, g.block_mask);
            }
            ++table[static_cast<std::size_t>(x[0]) * row + static_cast<std::size_t>(x[1])];
        }
    }
}

template <bool LongBlocks>
void count_pairs_generic(const Numbers& in, const Layout& g, const std::uint64_t* words,
    std::size_t p0, std::size_t p1, std::uint64_t* table)
{
    count_pairs_body<LongBlocks>(in, g, words, p0, p1, table);
}

// The same, compiled for the POPCNT instruction.
template <bool LongBlocks>
__attribute__((target("popcnt"))) void count_pairs_popcnt(const Numbers& in, const Layout& g,
    const std::uint64_t* words, std::size_t p0, std::size_t p1, std::uint64_t* table)
{
    count_pairs_body<LongBlocks>(in, g, words, p0, p1, table);
}

using CountPairs = void (*)(
    const Numbers&, const Layout&, const std::uint64_t*, std::size_t, std::size_t, std::uint64_t*);

CountPairs pick_counter(bool long_blocks)
{
    __builtin_cpu_init();
    const bool popcnt = __builtin_cpu_supports("popcnt");
    if (long_blocks) return popcnt ? count_pairs_popcnt<true> : count_pairs_generic<true>;
    return popcnt ? count_pairs_popcnt<false> : count_pairs_generic<false>;
}

// Counts the n pairs of one replication into counters ((L + 1)^2, zeroed here), reading exactly
// the numbers HammingIndep_L / HammingIndep_S read.
void count_replication(Numbers& in, const Layout& g, long n, int threads,
    std::vector<std::uint64_t>& tables, std::vector<std::uint64_t> (&buffers)[2],
    std::vector<long>& counters)
{
    const std::size_t cells = counters.size();
    const std::uint64_t pairs = static_cast<std::uint64_t>(n);
    // Pairs per chunk, and the words of a given number of pairs (from a chunk's start, which is
    // always at a pair boundary that is also a number boundary).
    std::uint64_t chunk_pairs;
    if (g.long_blocks) {
        const std::uint64_t per_pair = 2 * static_cast<std::uint64_t>(g.words_per_block);
        chunk_pairs = std::max<std::uint64_t>(1, chunk_words / per_pair);
    } else {
        // A multiple of s / L pairs: 2 (s / L) blocks are 2 whole numbers.
        const std::uint64_t k = static_cast<std::uint64_t>(g.blocks_per_word);
        chunk_pairs = std::max<std::uint64_t>(k, (chunk_words / 2) / k * k);
    }
    auto words_of = [&g](std::uint64_t np) -> std::size_t {
        if (g.long_blocks) return static_cast<std::size_t>(2 * np * g.words_per_block);
        const std::uint64_t k = static_cast<std::uint64_t>(g.blocks_per_word);
        return static_cast<std::size_t>((2 * np + k - 1) / k);
    };
    const std::uint64_t chunks = (pairs + chunk_pairs - 1) / chunk_pairs;
    auto chunk_size
        = [&](std::uint64_t c) { return std::min(chunk_pairs, pairs - c * chunk_pairs); };
    for (std::size_t b = 0; b < 2; ++b)
        if (buffers[b].size() < words_of(std::min(chunk_pairs, pairs)))
            buffers[b].resize(words_of(std::min(chunk_pairs, pairs)));
    std::fill(tables.begin(), tables.begin() + static_cast<std::ptrdiff_t>(cells * threads), 0);

    const CountPairs count = pick_counter(g.long_blocks);
    if (chunks > 0) in.read(buffers[0].data(), words_of(chunk_size(0)));
    // Work units of about 16 Ki words.
    const std::uint64_t grain = g.long_blocks
        ? std::max<std::uint64_t>(1, (std::uint64_t(1) << 13) / g.words_per_block)
        : (std::uint64_t(1) << 13) * static_cast<std::uint64_t>(g.blocks_per_word);
#pragma omp parallel num_threads(threads)
    {
        std::uint64_t* table
            = tables.data() + cells * static_cast<std::size_t>(omp_get_thread_num());
        for (std::uint64_t c = 0; c < chunks; ++c) {
            const std::uint64_t np = chunk_size(c);
            const std::uint64_t* words = buffers[c & 1].data();
#pragma omp single nowait
            {
                if (c + 1 < chunks)
                    in.read(buffers[(c + 1) & 1].data(), words_of(chunk_size(c + 1)));
            }
            const std::uint64_t units = (np + grain - 1) / grain;
#pragma omp for schedule(dynamic, 1)
            for (std::uint64_t u = 0; u < units; ++u) {
                const std::uint64_t p0 = u * grain;
                count(in, g, words, p0, std::min(np, p0 + grain), table);
            }
        }
    }
    for (std::size_t i = 0; i < cells; ++i) {
        std::uint64_t sum = 0;
        for (int t = 0; t < threads; ++t)
            sum += tables[static_cast<std::size_t>(t) * cells + i];
        counters[i] = static_cast<long>(sum);
    }
}

// TestU01's int counter X of merged cells: each long count added to it and the sum converted
// back to int, as C does (modulo 2^32 on this platform).
int add_to_int(int x, long c)
{
    return static_cast<int>(static_cast<unsigned int>(x + c));
}

struct BasicDeleter {
    void operator()(sres_Basic* b) const { sres_DeleteBasic(b); }
};
using BasicPtr = std::unique_ptr<sres_Basic, BasicDeleter>;

HammingIndepBasic copy_basic(const sres_Basic* b)
{
    HammingIndepBasic out;
    out.observations.assign(b->sVal1->V + 1, b->sVal1->V + 1 + b->sVal1->NObs);
    out.sval2.assign(b->sVal2, b->sVal2 + gofw_NTestTypes);
    out.pval2.assign(b->pVal2, b->pVal2 + gofw_NTestTypes);
    return out;
}

// sstring_HammingIndep's closing stage for one sres_Basic: gofw_ActiveTests2 on the chi-square
// observations with `liber` degrees of freedom, then the sum's chi-square.
void close_basic(sres_Basic* b, long N, int liber)
{
    double v[1];
    v[0] = liber;
    gofw_ActiveTests2(b->sVal1->V, b->pVal1->V, N, wdist_ChiSquare, v, b->sVal2, b->pVal2);
    b->pVal1->NObs = N;
    const double sum = static_cast<double>(N) * statcoll_Average(b->sVal1);
    b->sVal2[gofw_Sum] = sum;
    b->pVal2[gofw_Sum] = fbar_ChiSquare2(N * liber, 12, sum);
}

char test_name[] = "sstring_HammingIndep";

} // namespace

HammingIndepResult hamming_indep(Numbers& in, const HammingIndepParams& p, int threads)
{
    const long N = p.N, n = p.n;
    const int r = p.r, s = p.s, L = p.L, d = p.d;
    HammingIndepResult res;
    if (static_cast<double>(n) < 2.0 * gofs_MinExpected) return res; // TestU01 warns and returns
    if (N < 1 || L < 1 || s < 1 || r < 0 || r + s > 32 || d > sstring_MAXD || (L + 1) / 2 < d)
        throw std::invalid_argument("sstring_HammingIndep: invalid parameters");
    const int dd = std::max(d, 0);

    Layout g{};
    g.L = L;
    g.long_blocks = L >= s;
    g.full_words = L / s;
    g.words_per_block = L / s + (L % s > 0 ? 1 : 0);
    g.mask_s = static_cast<std::uint32_t>(((std::uint64_t(1) << s) - 1) << (32 - r - s));
    const int rest = L % s;
    g.mask_rest = rest > 0
        ? static_cast<std::uint32_t>(((std::uint64_t(1) << rest) - 1) << (32 - r - rest))
        : 0u;
    g.shift_s = 32 - r - s;
    g.block_mask = L < 32 ? static_cast<std::uint32_t>((std::uint64_t(1) << L) - 1) : 0u;
    g.blocks_per_word = L < s ? s / L : 1;

    const std::size_t row = static_cast<std::size_t>(L) + 1;
    const std::size_t cells = row * row;
    if (threads <= 0) threads = native::threads();
    threads = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(threads),
        std::max<std::uint64_t>(1, table_budget / (cells * sizeof(std::uint64_t)))));
    // No more threads than work units could use.
    threads = static_cast<int>(std::max<std::uint64_t>(1,
        std::min<std::uint64_t>(
            static_cast<std::uint64_t>(threads), static_cast<std::uint64_t>(n) / 4096 + 1)));

    res.counters.assign(cells, 0);
    res.xd.assign(static_cast<std::size_t>(dd), { 0, 0 });

    // The floating-point stages, as sstring_HammingIndep does them.
    BasicPtr bas(sres_CreateBasic());
    sres_InitBasic(bas.get(), N, test_name);
    std::vector<BasicPtr> block(static_cast<std::size_t>(dd) + 1);
    for (int i = 1; i <= dd; ++i) {
        block[static_cast<std::size_t>(i)].reset(sres_CreateBasic());
        sres_InitBasic(block[static_cast<std::size_t>(i)].get(), N, test_name);
    }
    const double nLR = static_cast<double>(n);
    std::vector<double> prob(row);
    {
        fmass_INFO q = fmass_CreateBinomial(L, 0.5, 0.5);
        for (int i = 0; i <= L; ++i)
            prob[static_cast<std::size_t>(i)] = fmass_BinomialTerm2(q, i);
        fmass_DeleteBinomial(q);
    }
    std::vector<double> nbesp5(cells + 1);
    std::vector<long> count5(cells + 1);
    auto C = [&res, row](int i, int j) {
        return res.counters[static_cast<std::size_t>(i) * row + static_cast<std::size_t>(j)];
    };
    auto P = [&prob](int i) { return prob[static_cast<std::size_t>(i)]; };

    int liber = 0;
    // One replication's statistics from its table res.counters, as sstring_HammingIndep.
    auto close_replication = [&]() {
        // Cells expected >= gofs_MinExpected are classes; the others are merged into one.
        liber = 0;
        double z = 0.0;
        int x = 0;
        for (int i = 0; i <= L; ++i) {
            for (int j = 0; j <= L; ++j) {
                const double e = nLR * P(i) * P(j);
                if (e >= gofs_MinExpected) {
                    nbesp5[static_cast<std::size_t>(liber)] = e;
                    count5[static_cast<std::size_t>(liber)] = C(i, j);
                    ++liber;
                } else {
                    z += e;
                    x = add_to_int(x, C(i, j));
                }
            }
        }
        if (z >= gofs_MinExpected) {
            nbesp5[static_cast<std::size_t>(liber)] = z;
            count5[static_cast<std::size_t>(liber)] = x;
        } else if (liber > 0) {
            --liber;
            nbesp5[static_cast<std::size_t>(liber)] += z;
            count5[static_cast<std::size_t>(liber)] += x;
        }
        if (liber == 0) { // two classes: next weight <= L / 2, and above
            z = 0.0;
            x = 0;
            for (int i = 0; i <= L; ++i) {
                for (int j = 0; j <= L / 2; ++j) {
                    z += nLR * P(i) * P(j);
                    x = add_to_int(x, C(i, j));
                }
            }
            nbesp5[0] = z;
            count5[0] = x;
            z = 0.0;
            x = 0;
            for (int i = 0; i <= L; ++i) {
                for (int j = 1 + L / 2; j <= L; ++j) {
                    z += nLR * P(i) * P(j);
                    x = add_to_int(x, C(i, j));
                }
            }
            nbesp5[1] = z;
            count5[1] = x;
            liber = 1;
        }
        if (liber > 0)
            statcoll_AddObs(bas->sVal1, gofs_Chi2(nbesp5.data(), count5.data(), 0, liber));

        // CountBlocks: the four corners of the table without its 2k - 1 (L even) or 2k - 2
        // (L odd) central rows and columns.
        const int l2 = L / 2, l1 = L / 2 + (L & 1);
        for (int k = 1; k <= dd; ++k) {
            long same = 0, cross = 0;
            for (int i = 0; i <= l1 - k; ++i)
                for (int j = 0; j <= l1 - k; ++j)
                    same += C(i, j);
            for (int i = l2 + k; i <= L; ++i)
                for (int j = l2 + k; j <= L; ++j)
                    same += C(i, j);
            for (int i = 0; i <= l1 - k; ++i)
                for (int j = l2 + k; j <= L; ++j)
                    cross += C(i, j);
            for (int i = l2 + k; i <= L; ++i)
                for (int j = 0; j <= l1 - k; ++j)
                    cross += C(i, j);
            res.xd[static_cast<std::size_t>(k - 1)] = { same, cross };
        }
        for (int k = 1; k <= dd; ++k) {
            double numexp[3];
            long count[3];
            double sum = 0.0;
            for (int j = 0; j <= (L + 1) / 2 - k; ++j)
                sum += P(j);
            sum *= sum;
            const double nbmoyen = sum * nLR * 2.0;
            numexp[0] = numexp[1] = nbmoyen;
            numexp[2] = nLR - 2.0 * nbmoyen;
            count[0] = res.xd[static_cast<std::size_t>(k - 1)][0];
            count[1] = res.xd[static_cast<std::size_t>(k - 1)][1];
            count[2] = n - count[0] - count[1];
            statcoll_AddObs(
                block[static_cast<std::size_t>(k)]->sVal1, gofs_Chi2(numexp, count, 0, 2));
        }
    };

    // On the device the stream runs on, where it is a CUDA one: each replication's table.
    const bool on_device = device_hamming_indep_tables(
        in, N, n, r, s, L, [&](long, const std::vector<std::uint64_t>& table) {
            for (std::size_t i = 0; i < cells; ++i)
                res.counters[i] = static_cast<long>(table[i]);
            close_replication();
        });
    if (!on_device) {
        std::vector<std::uint64_t> tables(cells * static_cast<std::size_t>(threads));
        std::vector<std::uint64_t> buffers[2];
        for (long seq = 1; seq <= N; ++seq) {
            count_replication(in, g, n, threads, tables, buffers, res.counters);
            close_replication();
        }
    }

    for (int k = 1; k <= dd; ++k) {
        const int liberte = ((L & 1) && k == 1) ? 1 : 2;
        close_basic(block[static_cast<std::size_t>(k)].get(), N, liberte);
        res.blocks.push_back(copy_basic(block[static_cast<std::size_t>(k)].get()));
    }
    if (liber > 0)
        close_basic(bas.get(), N, liber);
    else
        bas->pVal2[gofw_Mean] = -1.0;
    res.main = copy_basic(bas.get());
    res.liber = liber;
    res.ran = true;
    return res;
}

const std::vector<HammingIndepRow>& hamming_indep_rows()
{
    // bbattery.c: SmallCrush (test 9), Crush (s = 30, r = 0: tests 85 to 90) and BigCrush
    // (s = 30, r = 0: tests 95 to 100), all with d = 0.
    static const std::vector<HammingIndepRow> rows = {
        { "smallcrush", 9, "HammingIndep", { 1, 500000, 20, 10, 300, 0 }, false },
        { "crush", 85, "HammingIndep, L = 30", { 1, 300000000, 0, 30, 30, 0 }, false },
        { "crush", 86, "HammingIndep, L = 30", { 1, 100000000, 20, 10, 30, 0 }, false },
        { "crush", 87, "HammingIndep, L = 300", { 1, 30000000, 0, 30, 300, 0 }, false },
        { "crush", 88, "HammingIndep, L = 300", { 1, 10000000, 20, 10, 300, 0 }, false },
        { "crush", 89, "HammingIndep, L = 1200", { 1, 10000000, 0, 30, 1200, 0 }, false },
        { "crush", 90, "HammingIndep, L = 1200", { 1, 1000000, 20, 10, 1200, 0 }, false },
        { "bigcrush", 95, "HammingIndep, L=30, r=0", { 10, 30000000, 0, 3, 30, 0 }, true },
        { "bigcrush", 96, "HammingIndep, L=30, r=27", { 10, 30000000, 27, 3, 30, 0 }, true },
        { "bigcrush", 97, "HammingIndep, L=300, r=0", { 1, 30000000, 0, 4, 300, 0 }, false },
        { "bigcrush", 98, "HammingIndep, L=300, r=26", { 1, 30000000, 26, 4, 300, 0 }, false },
        { "bigcrush", 99, "HammingIndep, L=1200, r=0", { 1, 10000000, 0, 5, 1200, 0 }, false },
        { "bigcrush", 100, "HammingIndep, L=1200, r=25", { 1, 10000000, 25, 5, 1200, 0 }, false },
    };
    return rows;
}

std::vector<NativeStatistic> run_hamming_indep_row(
    Numbers& in, const HammingIndepRow& row, long n, int threads)
{
    HammingIndepParams p = row.params;
    p.n = n;
    const HammingIndepResult res = hamming_indep(in, p, threads);
    // A test that did not run leaves TestU01's res as it was; bbattery.c's res is fresh here.
    const double pv = res.ran ? res.main.pval2[row.sum ? gofw_Sum : gofw_Mean] : -1.0;
    return { { row.name, pv } };
}

std::vector<NativeTest> hamming_indep_tests()
{
    std::vector<NativeTest> tests;
    for (const HammingIndepRow& row : hamming_indep_rows())
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return run_hamming_indep_row(in, row, row.params.n); } });
    return tests;
}

} // namespace rngvet::native
