// smarsa_MatrixRank, natively (matrix_rank.hpp).
//
// Facts taken from TestU01 1.2.3 (smarsa.c, smarsa_MatrixRank; vectorsF2.c,
// GaussianElimination and BVRShiftSelf; gofs.c; bbattery.c):
// - Row i of a matrix takes c = k / s GetBits words, s bits of each after its r most significant
//   (smask & (GetBits << r)), then, when b = k % s > 0, b such bits of one more word. The rows
//   of a matrix are built in order, the matrices of a replication in order, the replications in
//   order: N n L (c + (b > 0)) numbers in all.
// - TestU01's rows are vectors of 32-bit columns held in 64-bit unsigned longs, shifted right
//   by s before each new chunk; its elimination is a forward Gaussian elimination over the k
//   columns. Each 64-bit word of a row holds, above its own 32 bits, a copy of the preceding
//   32 bits of the row (the bits BVRShiftSelf carries into the upper half); since the rows at
//   and below the current rank are zero in every column before the current one, its pivot test
//   (word < MMC[column]) reduces to the column's bit, and the rank it returns is the GF(2) rank
//   of the L x k matrix of the new bits. A rank does not depend on the order of rows or of
//   columns, so rows are packed here in whatever order is fastest.
// - Expected numbers: 2^(log2 n - L k), then for j = 1..min(L, k) the exponent grows by
//   L + k - 2j + 1 + log2(1 - 2^-(L-j+1)) + log2(1 - 2^-(k-j+1)) - log2(1 - 2^-j), with
//   log2 x computed as num_1Ln2 * log(x) (num.h). Then gofs_MergeClasses, one gofs_Chi2 per
//   replication, gofw_ActiveTests2 with wdist_ChiSquare and sres_GetChi2SumStat.
#include "matrix_rank.hpp"

#include "classes.hpp"
#include "device_matrix.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// A double the optimiser may not fuse with the next operation (no contraction into an FMA):
// TestU01 rounds each product and sum on its own.
double rounded(double x)
{
    volatile double v = x;
    return v;
}

// TestU01's log2 (num.h's num_Log2): num_1Ln2 * log(x), one rounded product.
double log2_tu(double x)
{
    return rounded(num_1Ln2 * std::log(x));
}

// Raw words of one batch of matrices: about this many (8 MiB: a batch is still in the caches
// when it is ranked, and few enough batches that the team seldom waits at their ends), at least
// one matrix per thread, at most max_batch_words (128 MiB) unless one matrix needs more. Two
// batches are held at a time (one ranked, the next read).
constexpr std::size_t batch_words = std::size_t(1) << 20;
constexpr std::size_t max_batch_words = std::size_t(1) << 24;

// Rank of l rows of one word each (k <= 64 columns): forward elimination, column by column.
int rank_one_word(std::uint64_t* a, int l, int k)
{
    int rank = 0;
    for (int col = 0; col < k; ++col) {
        const std::uint64_t m = std::uint64_t(1) << col;
        int p = rank;
        while (p < l && !(a[p] & m))
            ++p;
        if (p == l) continue;
        std::swap(a[p], a[rank]);
        const std::uint64_t piv = a[rank];
        for (int i = rank + 1; i < l; ++i)
            a[i] ^= piv & (std::uint64_t(0) - ((a[i] >> col) & 1));
        if (++rank == l) break;
    }
    return rank;
}

// Words of the table rank_blocks needs.
std::size_t table_words(int words)
{
    return std::size_t(256) * static_cast<std::size_t>(words);
}

// Rank of l rows of `words` words (k columns), eight columns at a time (the method of the four
// Russians): the up to eight pivots of a block of columns are found among the next rows and
// reduced among themselves on the block, then every row below takes the XOR of the pivots its
// block bits select from a table of all 2^pivots combinations. Rows at and below the rank are
// zero in every column already processed, so only the words from the block's on are touched.
int rank_blocks(std::uint64_t* a, int l, int k, int words, std::uint64_t* table)
{
    auto row = [&](int i) { return a + std::size_t(i) * static_cast<std::size_t>(words); };
    int rank = 0;
    for (int c0 = 0; c0 < k && rank < l; c0 += 8) {
        const int wc = c0 >> 6, sh = c0 & 63, span = words - wc;
        auto block = [&](const std::uint64_t* x) { return unsigned(x[wc] >> sh) & 0xFFu; };
        int found = 0;
        int pcol[8];
        for (int i = rank; i < l && found < 8; ++i) {
            std::uint64_t* x = row(i);
            // Reduce the row by the pivots found so far (each has a 1 in its pivot column and
            // 0 in the others').
            for (int j = 0; j < found; ++j) {
                if (!((block(x) >> pcol[j]) & 1u)) continue;
                const std::uint64_t* p = row(rank + j);
                for (int w = wc; w < words; ++w)
                    x[w] ^= p[w];
            }
            const unsigned v = block(x);
            if (v == 0) continue;
            const int pc = __builtin_ctz(v);
            std::uint64_t* dest = row(rank + found);
            if (dest != x) std::swap_ranges(x + wc, x + words, dest + wc);
            for (int j = 0; j < found; ++j) {
                std::uint64_t* p = row(rank + j);
                if (!((block(p) >> pc) & 1u)) continue;
                for (int w = wc; w < words; ++w)
                    p[w] ^= dest[w];
            }
            pcol[found++] = pc;
        }
        if (found == 0) continue;
        // table[m]: the XOR of the pivots in m, words wc.. of each.
        std::fill(table, table + span, std::uint64_t(0));
        for (unsigned m = 1; m < (1u << found); ++m) {
            const std::uint64_t* from = table + std::size_t(m & (m - 1)) * span;
            const std::uint64_t* p = row(rank + __builtin_ctz(m)) + wc;
            std::uint64_t* to = table + std::size_t(m) * span;
            for (int w = 0; w < span; ++w)
                to[w] = from[w] ^ p[w];
        }
        // select[v]: the pivots whose columns are set in block value v.
        unsigned bit[8] = {};
        for (int j = 0; j < found; ++j)
            bit[pcol[j]] = 1u << j;
        unsigned select[256];
        select[0] = 0;
        for (unsigned v = 1; v < 256; ++v)
            select[v] = select[v & (v - 1)] | bit[__builtin_ctz(v)];
        for (int i = rank + found; i < l; ++i) {
            std::uint64_t* x = row(i);
            const unsigned m = select[block(x)];
            if (m == 0) continue;
            const std::uint64_t* t = table + std::size_t(m) * span;
            for (int w = 0; w < span; ++w)
                x[wc + w] ^= t[w];
        }
        rank += found;
    }
    return std::min(rank, l);
}

struct Shape {
    int r, s, l, k;
    int c; // whole chunks of s bits per row
    int b; // bits of the last chunk (0: none)
    long per_row; // numbers per row
    long per_matrix; // numbers per matrix
    int words; // 64-bit words per packed row
};

// Packs the matrix whose numbers start at `raw` into `a` (l rows of shape.words words).
void pack(const Numbers& in, const Shape& sh, const std::uint64_t* raw, std::uint64_t* a)
{
    if (sh.words == 1) {
        for (int i = 0; i < sh.l; ++i) {
            std::uint64_t row = 0;
            for (int j = 0; j < sh.c; ++j)
                row = (row << sh.s) | in.strip_b(*raw++, sh.r, sh.s);
            if (sh.b > 0) row = (row << sh.b) | in.strip_b(*raw++, sh.r, sh.b);
            a[i] = row;
        }
        return;
    }
    std::fill(a, a + std::size_t(sh.l) * sh.words, std::uint64_t(0));
    for (int i = 0; i < sh.l; ++i) {
        std::uint64_t* row = a + std::size_t(i) * sh.words;
        int pos = 0;
        auto put = [&](std::uint64_t v, int nb) {
            const int w = pos >> 6, off = pos & 63;
            row[w] |= v << off;
            if (off + nb > 64) row[w + 1] |= v >> (64 - off);
            pos += nb;
        };
        for (int j = 0; j < sh.c; ++j)
            put(in.strip_b(*raw++, sh.r, sh.s), sh.s);
        if (sh.b > 0) put(in.strip_b(*raw++, sh.r, sh.b), sh.b);
    }
}

// The ranks of the N n matrices of the test, counted per replication:
// hist[seq * (min(L, k) + 1) + rank]. The numbers are read in batches, in stream order; while
// the team ranks one batch, one of its threads reads the next.
std::vector<long> count_ranks(Numbers& in, const Shape& sh, long N, long n, int threads)
{
    const std::size_t classes = static_cast<std::size_t>(std::min(sh.l, sh.k)) + 1;
    std::vector<long> hist(static_cast<std::size_t>(N) * classes, 0L);
    const std::size_t per = static_cast<std::size_t>(sh.per_matrix);
    const std::uint64_t total = std::uint64_t(N) * std::uint64_t(n);
    std::size_t size = std::max<std::size_t>(batch_words / per, static_cast<std::size_t>(threads));
    size = std::min(size, std::max<std::size_t>(1, max_batch_words / per));
    size = static_cast<std::size_t>(std::min<std::uint64_t>(size, total));
    // Left uninitialised: every word is read before it is used.
    std::unique_ptr<std::uint64_t[]> raw[2];
    raw[0].reset(new std::uint64_t[size * per]);
    if (total > size) raw[1].reset(new std::uint64_t[size * per]);
    std::vector<int> ranks(size);
    const std::size_t cells = std::size_t(sh.l) * sh.words;

    std::uint64_t done = 0; // matrices ranked
    std::size_t m = size; // matrices in the current batch
    in.read(raw[0].get(), m * per);
    int cur = 0;
    while (m > 0) {
        const std::size_t next
            = static_cast<std::size_t>(std::min<std::uint64_t>(size, total - done - m));
        // No more threads than matrices (and a reader): each holds a matrix and a table.
        const int team = static_cast<int>(
            std::min<std::size_t>(static_cast<std::size_t>(threads), m + (next > 0 ? 1 : 0)));
        const long chunk = std::max(1L, static_cast<long>(m) / (8L * team));
        const std::uint64_t* batch = raw[cur].get();
        std::uint64_t* ahead = raw[1 - cur].get();
        std::exception_ptr failed;
#pragma omp parallel num_threads(team)
        {
#pragma omp single nowait
            {
                try {
                    if (next > 0) in.read(ahead, next * per);
                } catch (...) {
                    failed = std::current_exception();
                }
            }
            std::vector<std::uint64_t> a(cells);
            std::vector<std::uint64_t> table(sh.words > 1 ? table_words(sh.words) : 0);
#pragma omp for schedule(dynamic, chunk) nowait
            for (long i = 0; i < static_cast<long>(m); ++i) {
                pack(in, sh, batch + std::size_t(i) * per, a.data());
                ranks[i] = sh.words == 1
                    ? rank_one_word(a.data(), sh.l, sh.k)
                    : rank_blocks(a.data(), sh.l, sh.k, sh.words, table.data());
            }
        }
        if (failed) std::rethrow_exception(failed);
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint64_t seq = (done + i) / static_cast<std::uint64_t>(n);
            ++hist[static_cast<std::size_t>(seq) * classes + static_cast<std::size_t>(ranks[i])];
        }
        done += m;
        m = next;
        cur = 1 - cur;
    }
    return hist;
}

struct Chi2Deleter {
    void operator()(sres_Chi2* p) const { sres_DeleteChi2(p); }
};

} // namespace

int gf2_rank(std::uint64_t* rows, int l, int k)
{
    const int words = (k + 63) / 64;
    if (words == 1) return rank_one_word(rows, l, k);
    std::vector<std::uint64_t> table(table_words(words));
    return rank_blocks(rows, l, k, words, table.data());
}

void matrix_rank(
    Numbers& in, sres_Chi2* res, long N, long n, int r, int s, int l, int k, int threads)
{
    if (threads <= 0) threads = native::threads();
    if (s < 1 || s > 32 || r < 0 || r > 31 || l < 1 || k < 1 || N < 1 || n < 1)
        throw std::invalid_argument("smarsa_MatrixRank: parameters out of range");
    Shape sh;
    sh.r = r;
    sh.s = s;
    sh.l = l;
    sh.k = k;
    sh.c = k / s;
    sh.b = k % s;
    sh.per_row = sh.c + (sh.b > 0 ? 1 : 0);
    sh.per_matrix = sh.per_row * l;
    sh.words = (k + 63) / 64;

    const int minkl = std::min(k, l);
    static char name[] = "smarsa_MatrixRank";
    sres_InitChi2(res, N, minkl, name);
    double* nbexp = res->NbExp;
    long* count = res->Count;
    long* loc = res->Loc;

    // Expected numbers, in smarsa_MatrixRank's order of operations.
    double temp = log2_tu(static_cast<double>(n)) - l * k;
    nbexp[0] = std::pow(2.0, temp);
    for (int j = 1; j <= minkl; ++j) {
        double e
            = l + k - 2 * j + 1 + log2_tu(1.0 - std::pow(2.0, -static_cast<double>(l - j + 1)));
        e = e + log2_tu(1.0 - std::pow(2.0, -static_cast<double>(k - j + 1)));
        e = e - log2_tu(1.0 - std::pow(2.0, -static_cast<double>(j)));
        temp += e;
        nbexp[j] = std::pow(2.0, temp);
    }

    long jlow = 0, jhigh = minkl, groups = 0;
    {
        // gofs_MergeClasses itself where it does not print (two classes or more).
        std::vector<double> e(nbexp, nbexp + minkl + 1);
        std::vector<long> lo(loc, loc + minkl + 1);
        long a = jlow, z = jhigh;
        if (merge_classes_quietly(e.data(), lo.data(), a, z) >= 2)
            gofs_MergeClasses(nbexp, loc, &jlow, &jhigh, &groups);
        else
            groups = merge_classes_quietly(nbexp, loc, jlow, jhigh);
    }
    res->jmin = jlow;
    res->jmax = jhigh;
    res->degFree = groups - 1;
    if (res->degFree < 1) return; // TestU01 warns and returns without reading a number
    if (!(static_cast<double>(n) >= 2.0 * gofs_MinExpected))
        throw std::invalid_argument("smarsa_MatrixRank: n <= 2*gofs_MinExpected");

    const std::string desc = "The N statistic values (a ChiSquare with "
        + std::to_string(groups - 1) + " degrees of freedom):";
    statcoll_SetDesc(res->sVal1, desc.c_str());

    // The ranks (all replications), counted on the device the stream runs on where it is a CUDA
    // one, else here; then each replication's chi-square in turn.
    std::optional<std::vector<long>> on_device = device_matrix_rank_counts(in, N, n, r, s, l, k);
    const std::vector<long> hist
        = on_device ? std::move(*on_device) : count_ranks(in, sh, N, n, threads);
    for (long seq = 0; seq < N; ++seq) {
        const long* h = hist.data() + static_cast<std::size_t>(seq) * (std::size_t(minkl) + 1);
        for (long i = jlow; i <= jhigh; ++i)
            count[i] = 0;
        for (int rk = 0; rk <= minkl; ++rk)
            count[loc[rk]] += h[rk];
        const double x2 = gofs_Chi2(nbexp, count, jlow, jhigh);
        statcoll_AddObs(res->sVal1, x2);
    }

    double par[1] = { static_cast<double>(groups - 1) };
    gofw_ActiveTests2(
        res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, par, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

std::vector<NativeStatistic> run_matrix_rank_row(
    const MatrixRankRow& row, Numbers& in, long N, long n, int threads)
{
    std::unique_ptr<sres_Chi2, Chi2Deleter> res(sres_CreateChi2());
    matrix_rank(in, res.get(), N, n, row.r, row.s, row.l, row.k, threads);
    return { { row.name, res->pVal2[row.sum ? gofw_Sum : gofw_Mean] } };
}

namespace {

// bbattery.c's calls (SmallCrush, Crush and BigCrush with their s = 30, r = 0).
const MatrixRankRow rows[] = {
    { "smallcrush", 8, "MatrixRank", 1, 20000, 20, 10, 60, 60, false },
    { "crush", 56, "MatrixRank, 60 x 60", 1, 1000000, 0, 30, 60, 60, false },
    { "crush", 57, "MatrixRank, 60 x 60", 1, 1000000, 20, 10, 60, 60, false },
    { "crush", 58, "MatrixRank, 300 x 300", 1, 50000, 0, 30, 300, 300, false },
    { "crush", 59, "MatrixRank, 300 x 300", 1, 50000, 20, 10, 300, 300, false },
    { "crush", 60, "MatrixRank, 1200 x 1200", 1, 2000, 0, 30, 1200, 1200, false },
    { "crush", 61, "MatrixRank, 1200 x 1200", 1, 2000, 20, 10, 1200, 1200, false },
    { "bigcrush", 66, "MatrixRank, L=30, r=0", 10, 1000000, 0, 5, 30, 30, true },
    { "bigcrush", 67, "MatrixRank, L=30, r=26", 10, 1000000, 25, 5, 30, 30, true },
    { "bigcrush", 68, "MatrixRank, L=1000, r=0", 1, 5000, 0, 4, 1000, 1000, false },
    { "bigcrush", 69, "MatrixRank, L=1000, r=26", 1, 5000, 26, 4, 1000, 1000, false },
    { "bigcrush", 70, "MatrixRank, L=5000", 1, 80, 15, 15, 5000, 5000, false },
    { "bigcrush", 71, "MatrixRank, L=5000", 1, 80, 0, 30, 5000, 5000, false },
};
constexpr int row_count = sizeof rows / sizeof rows[0];

} // namespace

const std::vector<MatrixRankRow>& matrix_rank_rows()
{
    static const std::vector<MatrixRankRow> all(rows, rows + row_count);
    return all;
}

std::vector<NativeTest> matrix_rank_tests()
{
    std::vector<NativeTest> tests;
    for (const MatrixRankRow& row : rows)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return run_matrix_rank_row(row, in, row.N, row.n); } });
    return tests;
}

} // namespace rngvet::native
