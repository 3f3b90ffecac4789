// Native swalk_RandomWalk1 (random_walk.hpp).
//
// Facts and formulas from TestU01 1.2.3's source: swalk.c (swalk_RandomWalk1, Steps, InitRes,
// CalcNbExp), gofs.c (gofs_MergeClasses), sres.c (sres_InitChi2, sres_GetChi2SumStat) and
// bbattery.c (GetPVal_Walk; the SmallCrush, Crush and BigCrush calls).
//
// A walk of L steps reads L / s numbers of which it keeps s bits (unif01_StripB(gen, r, s)) and,
// when s does not divide L, one more of which it keeps L mod s bits; each bit, most significant
// first, is a step +1 (bit 1) or -1. After the walk of length L, S is its position:
//   H = (L + S) / 2, the number of +1 steps;
//   M = the maximum of 0 and every S(t);
//   J = the number of odd times t with S(t) > 0 (counted as 2 J);
//   R = the number of times t with S(t) = 0;
//   C = the number of odd times t > 1 at which S(t) and S(t - 2) have opposite signs.
// (Steps decides "odd" by the parity of s j - i for bit i of the j-th number; when L is even,
// the only lengths TestU01 accepts, that is the parity of t for every bit, the last number's
// included.) S(t) and S(t + 2) at odd times differ in sign exactly when S(t + 1) = 0 and steps
// t + 1 and t + 2 go the same way: C is counted that way here, so that 8 steps at a time can be
// counted through tables indexed by the 8 bits, the previous step and S at the chunk's start.
#include "random_walk.hpp"

#include "classes.hpp"
#include "device_walks.hpp"
#include "families.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <omp.h>
#include <optional>
#include <stdexcept>

extern "C" {
#include <testu01/fmass.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

static_assert(RandomWalkChi2::test_types == gofw_NTestTypes, "gofw_TestArray's size");

// ---------------------------------------------------------------------------------------------
// Counting the walks.

// One walk's statistics as they grow, step by step (C counted at zeros, see above).
struct Walker {
    long S = 0;
    long M = 0;
    long R = 0;
    long J = 0;
    long C = 0;
    unsigned prev = 0; // the previous step's bit; at the start, the complement of the first

    void step(unsigned bit, bool odd_time)
    {
        if (S == 0 && bit == prev) ++C;
        prev = bit;
        S += bit ? 1 : -1;
        if (S > M) M = S;
        if (S == 0) ++R;
        if (odd_time && S > 0) ++J;
    }
};

// Chunks of 8 steps start at even times, hence at even S; S / 2 is clamped to [-far, far]:
// from |S| >= 10 a chunk neither reaches 0 nor changes sign, and its 4 odd times are all
// above 0 or all below.
constexpr int far = 5;
// Chunks whose packed counts are summed before the sum is split (255 x 4 < 2^10).
constexpr std::size_t chunk_fields_run = 255;

struct ChunkTables {
    // [previous bit][chunk][S / 2 + far]: R | J << 10 | C << 20 over the chunk's steps (each
    // at most 4), so that the entries of up to chunk_fields_run chunks are added as one integer.
    std::uint32_t counts[2][256][2 * far + 1];
    std::int8_t sum[256]; // S after the chunk minus S before
    std::int8_t max_prefix[256]; // the chunk's highest S(t) minus S before
};

const ChunkTables& chunk_tables()
{
    static const std::unique_ptr<ChunkTables> tables = [] {
        auto t = std::make_unique<ChunkTables>();
        for (unsigned c = 0; c < 256; ++c) {
            Walker w;
            long high = -8;
            for (int k = 0; k < 8; ++k) {
                w.step((c >> (7 - k)) & 1u, k % 2 == 0);
                high = std::max(high, w.S);
            }
            t->sum[c] = static_cast<std::int8_t>(w.S);
            t->max_prefix[c] = static_cast<std::int8_t>(high);
            for (unsigned p = 0; p < 2; ++p)
                for (int o = -far; o <= far; ++o) {
                    Walker v;
                    v.S = 2 * o;
                    v.prev = p;
                    for (int k = 0; k < 8; ++k)
                        v.step((c >> (7 - k)) & 1u, k % 2 == 0);
                    t->counts[p][c][o + far]
                        = static_cast<std::uint32_t>(v.R | (v.J << 10) | (v.C << 20));
                }
        }
        return t;
    }();
    return *tables;
}

// The shape of one walk: LDS numbers of s bits, then (LMS > 0) one of LMS bits.
struct Shape {
    int r;
    int s;
    long lds;
    int lms;
    long L;
    long words() const { return lds + (lms > 0 ? 1 : 0); }
};

// Histograms of one walk length: H, M, J, R, C one after the other, L + 1 counters each.
inline long* stat_hist(long* h, long L, int m)
{
    return h + m * (L + 1);
}

// Counts one walk of length sh.L (= L0 = L1) from its words w into h (stat_hist layout).
void count_walk(const Numbers& in, const Shape& sh, const ChunkTables& t, const std::uint64_t* w,
    long* h, std::uint8_t* bytes)
{
    // The walk's steps as bytes (8 steps each, the first step in the most significant bit),
    // then the remaining steps in the low bits of acc.
    std::uint64_t acc = 0;
    int pending = 0;
    std::size_t nbytes = 0;
    auto append = [&](unsigned long z, int bits) {
        acc = (acc << bits) | z;
        pending += bits;
        while (pending >= 8) {
            pending -= 8;
            bytes[nbytes++] = static_cast<std::uint8_t>(acc >> pending);
        }
    };
    for (long j = 0; j < sh.lds; ++j)
        append(in.strip_b(w[j], sh.r, sh.s), sh.s);
    if (sh.lms > 0) append(in.strip_b(w[sh.lds], sh.r, sh.lms), sh.lms);

    long S = 0, M = 0, R = 0, J = 0, C = 0;
    // The first step's complement, so that no zero crossing is counted at time 0.
    unsigned prev = nbytes > 0 ? (bytes[0] >> 7) ^ 1u
                               : static_cast<unsigned>((acc >> (pending - 1)) & 1u) ^ 1u;
    for (std::size_t i0 = 0; i0 < nbytes; i0 += chunk_fields_run) {
        const std::size_t i1 = std::min(nbytes, i0 + chunk_fields_run);
        std::uint32_t packed = 0;
        for (std::size_t i = i0; i < i1; ++i) {
            const unsigned c = bytes[i];
            const long half = std::clamp(S / 2, -static_cast<long>(far), static_cast<long>(far));
            packed += t.counts[prev][c][half + far];
            M = std::max(M, S + t.max_prefix[c]);
            S += t.sum[c];
            prev = c & 1u;
        }
        R += packed & 1023u;
        J += (packed >> 10) & 1023u;
        C += packed >> 20;
    }
    // The last steps (fewer than 8, an even number: they start at an even time).
    Walker v;
    v.S = S;
    v.M = M;
    v.R = R;
    v.J = J;
    v.C = C;
    v.prev = prev;
    for (int q = 0; q < pending; ++q)
        v.step((acc >> (pending - 1 - q)) & 1u, q % 2 == 0);
    ++stat_hist(h, sh.L, walk_H)[(sh.L + v.S) / 2];
    ++stat_hist(h, sh.L, walk_M)[v.M];
    ++stat_hist(h, sh.L, walk_J)[2 * v.J];
    ++stat_hist(h, sh.L, walk_R)[v.R];
    ++stat_hist(h, sh.L, walk_C)[v.C];
}

// Counts one walk step by step as Steps does, for L0 < L1: at every even length L >= L0, into
// hists[(L - L0) / 2] (stat_hist layout for that L).
void count_walk_lengths(const Numbers& in, const Shape& sh, long L0, const std::uint64_t* w,
    std::vector<std::vector<long>>& hists)
{
    long S = 0, S_2 = 0, M = 0, R = 0, J = 0, C = 0, L = 0;
    auto steps = [&](std::uint64_t word, long j, int s) {
        const unsigned long Z = in.strip_b(word, sh.r, s);
        for (int i = s - 1; i >= 0; --i) {
            ++L;
            S += (Z >> i) & 1u ? 1 : -1;
            if (S > M) M = S;
            if (S == 0) ++R;
            if ((s * j - i) & 1) {
                if (S > 0) ++J;
                if (S * S_2 < 0) ++C;
                S_2 = S;
            }
            if (L >= L0 && !(L & 1)) {
                long* h = hists[static_cast<std::size_t>((L - L0) / 2)].data();
                ++stat_hist(h, L, walk_H)[(L + S) / 2];
                ++stat_hist(h, L, walk_M)[M];
                ++stat_hist(h, L, walk_J)[2 * J];
                ++stat_hist(h, L, walk_R)[R];
                ++stat_hist(h, L, walk_C)[C];
            }
        }
    };
    for (long j = 1; j <= sh.lds; ++j)
        steps(w[j - 1], j, sh.s);
    if (sh.lms > 0) steps(w[sh.lds], sh.lds + 1, sh.lms);
}

// ---------------------------------------------------------------------------------------------
// TestU01's floating-point stages.

struct Chi2Deleter {
    void operator()(sres_Chi2* q) const { sres_DeleteChi2(q); }
};
using Chi2Ptr = std::unique_ptr<sres_Chi2, Chi2Deleter>;

// swalk.c's CalcNbExp for walk length L: the expected numbers of H, M, J, R and C in n walks,
// computed from the largest term outwards while the terms exceed 1e-16 n, with TestU01's
// operations in TestU01's order (C's integer divisions included).
void expected_numbers(long n, long L, const std::array<Chi2Ptr, walk_statistics>& q)
{
    const double epsilon = 1.0E-16;
    const double nLR = static_cast<double>(n);
    const double epsn = epsilon * nLR;
    const long L2 = L / 2;
    auto d = [](long x) { return static_cast<double>(x); };
    for (const Chi2Ptr& c : q)
        for (long i = 0; i <= L; ++i)
            c->NbExp[i] = 0.0;

    double* E = q[walk_H]->NbExp;
    E[L2] = nLR * fmass_BinomialTerm1(L, 0.5, 0.5, L2);
    long i = L2;
    while (i > 0 && E[i] > epsn) {
        E[i - 1] = E[i] * d(i) / d(L - i + 1);
        --i;
    }
    i = L2;
    while (i < L && E[i] > epsn) {
        E[i + 1] = E[i] * d(L - i) / d(i + 1);
        ++i;
    }

    E = q[walk_M]->NbExp;
    E[0] = q[walk_H]->NbExp[L2];
    i = 0;
    while (i < L && E[i] > epsn) {
        E[i + 1] = E[i] * d((L - i) / 2) / d((L + i) / 2 + 1);
        E[i + 2] = E[i + 1];
        i += 2;
    }

    E = q[walk_J]->NbExp;
    E[0] = q[walk_M]->NbExp[0];
    E[L] = E[0];
    i = 0;
    while (i < L2 && E[i] > epsn) {
        E[i + 2] = E[i] * d((L - i) / 2) * d(1 + i) / (d(i / 2 + 1) * d(L - i - 1));
        E[L - i - 2] = E[i + 2];
        i += 2;
    }

    E = q[walk_R]->NbExp;
    E[0] = q[walk_J]->NbExp[0];
    i = 0;
    while (i < L2 && E[i] > epsn) {
        E[i + 1] = E[i] * d(L - 2 * i) / d(L - i);
        ++i;
    }

    E = q[walk_C]->NbExp;
    E[0] = 2.0 * nLR * fmass_BinomialTerm1(L - 1, 0.5, 0.5, L2);
    i = 0;
    const long L1 = L2 - 1;
    while (i < L1 && E[i] > epsn) {
        E[i + 1] = E[i] * d(L2 - i - 1) / d(L2 + i + 1);
        ++i;
    }
}

void check(bool ok, const char* what)
{
    if (!ok) throw std::invalid_argument(std::string("swalk_RandomWalk1: ") + what);
}

} // namespace

RandomWalkResult random_walk1(Numbers& in, const RandomWalkParams& p, int nthreads)
{
    // swalk_RandomWalk1's assertions, and what StripB needs (1 <= s <= 32).
    check(p.N >= 1, "N < 1");
    check(p.L0 > 0, "L0 <= 0");
    check(!(p.L0 & 1), "L0 must be even");
    check(!(p.L1 & 1), "L1 must be even");
    check(p.L1 >= p.L0, "L0 > L1");
    check(p.s >= 1 && p.s <= 32, "s outside 1..32");
    check(p.r >= 0 && p.r + p.s <= 52, "r < 0 or r + s > 52");

    RandomWalkResult out;
    if (static_cast<double>(p.n) < 3.0 * gofs_MinExpected) return out; // TestU01 returns

    const Shape shape{ p.r, p.s, p.L1 / p.s, static_cast<int>(p.L1 % p.s), p.L1 };
    const long words = shape.words();
    const std::size_t lengths = static_cast<std::size_t>((p.L1 - p.L0) / 2 + 1);

    // The result records, as InitRes and the class merging leave them.
    std::vector<std::array<Chi2Ptr, walk_statistics>> q(lengths);
    char empty[] = "";
    for (std::size_t k = 0; k < lengths; ++k) {
        const long L = p.L0 + 2 * static_cast<long>(k);
        for (Chi2Ptr& c : q[k]) {
            c.reset(sres_CreateChi2());
            sres_InitChi2(c.get(), p.N, L, empty);
        }
        q[k][walk_R]->jmax = L / 2;
        q[k][walk_C]->jmax = L / 2;
        expected_numbers(p.n, L, q[k]);
        for (Chi2Ptr& c : q[k]) {
            const long classes = merge_classes_quietly(c->NbExp, c->Loc, c->jmin, c->jmax);
            // TestU01 would end the process in gofw_ActiveTests2 (a chi-square of 0 degrees).
            if (classes < 2)
                throw std::domain_error("swalk_RandomWalk1: fewer than 2 classes for a chi-square");
            c->degFree = classes - 1;
        }
    }

    // One walk length: the walks of every replication counted on the device the stream runs on
    // where it is a CUDA one (device_walks.hpp), else here.
    std::optional<std::vector<long>> on_device
        = lengths == 1 ? device_random_walk_counts(in, p.N, p.n, p.r, p.s, p.L1) : std::nullopt;
    if (nthreads <= 0) nthreads = std::max(1, threads());
    const long walks_per_block = std::max(1L, (1L << 20) / words);
    std::vector<std::uint64_t> buffer(
        on_device ? 0 : static_cast<std::size_t>(std::min(walks_per_block, p.n) * words));
    // Histograms: L0 = L1, per thread; L0 < L1, one per length (counted serially).
    const std::size_t stride = static_cast<std::size_t>(walk_statistics * (p.L1 + 1));
    std::vector<long> per_thread(
        lengths == 1 && !on_device ? stride * static_cast<std::size_t>(nthreads) : 0);
    std::vector<std::vector<long>> per_length(lengths == 1 ? 0 : lengths);
    const ChunkTables& tables = chunk_tables();

    for (long rep = 0; rep < p.N; ++rep) {
        std::fill(per_thread.begin(), per_thread.end(), 0L);
        for (std::size_t k = 0; k < per_length.size(); ++k)
            per_length[k].assign(static_cast<std::size_t>(walk_statistics * (p.L0 + 2 * k + 1)), 0);

        for (long done = on_device ? p.n : 0; done < p.n;) {
            const long b = std::min(walks_per_block, p.n - done);
            in.read(buffer.data(), static_cast<std::size_t>(b * words));
            const std::uint64_t* w = buffer.data();
            if (lengths == 1) {
#pragma omp parallel num_threads(nthreads)
                {
                    long* h = per_thread.data()
                        + stride * static_cast<std::size_t>(omp_get_thread_num());
                    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(p.L1 / 8 + 1));
#pragma omp for schedule(static)
                    for (long i = 0; i < b; ++i)
                        count_walk(in, shape, tables, w + i * words, h, bytes.data());
                }
            } else {
                for (long i = 0; i < b; ++i)
                    count_walk_lengths(in, shape, p.L0, w + i * words, per_length);
            }
            done += b;
        }

        // Counters by class (Count[Loc[x]]), then the chi-squares in swalk.c's order.
        for (std::size_t k = 0; k < lengths; ++k) {
            const long L = p.L0 + 2 * static_cast<long>(k);
            for (int m = 0; m < walk_statistics; ++m) {
                sres_Chi2* c = q[k][static_cast<std::size_t>(m)].get();
                for (long i = c->jmin; i <= c->jmax; ++i)
                    c->Count[i] = 0;
                const long top = (m == walk_R || m == walk_C) ? L / 2 : L;
                for (long x = 0; x <= L; ++x) {
                    long total = 0;
                    if (on_device)
                        total = stat_hist(
                            on_device->data() + stride * static_cast<std::size_t>(rep), L, m)[x];
                    else if (lengths == 1)
                        for (int t = 0; t < nthreads; ++t)
                            total += stat_hist(
                                per_thread.data() + stride * static_cast<std::size_t>(t), L, m)[x];
                    else
                        total = stat_hist(per_length[k].data(), L, m)[x];
                    if (total == 0) continue;
                    if (x > top)
                        throw std::logic_error("swalk_RandomWalk1: statistic out of range");
                    c->Count[c->Loc[x]] += total;
                }
                for (long i = c->jmin; i <= c->jmax; ++i)
                    if (c->NbExp[i] <= 0.0 && c->Count[i] != 0)
                        // TestU01's gofs_Chi2 would end the process (util_Assert).
                        throw std::domain_error("swalk_RandomWalk1: count in an empty class");
            }
            for (int m : { walk_H, walk_M, walk_R, walk_J, walk_C }) {
                sres_Chi2* c = q[k][static_cast<std::size_t>(m)].get();
                statcoll_AddObs(c->sVal1, gofs_Chi2(c->NbExp, c->Count, c->jmin, c->jmax));
            }
        }
    }

    out.done = true;
    out.lengths.resize(lengths);
    for (std::size_t k = 0; k < lengths; ++k) {
        RandomWalkLength& l = out.lengths[k];
        l.L = p.L0 + 2 * static_cast<long>(k);
        for (int m = 0; m < walk_statistics; ++m) {
            sres_Chi2* c = q[k][static_cast<std::size_t>(m)].get();
            double V[1] = { static_cast<double>(c->degFree) };
            c->pVal1->NObs = c->sVal1->NObs;
            gofw_ActiveTests2(
                c->sVal1->V, c->pVal1->V, p.N, wdist_ChiSquare, V, c->sVal2, c->pVal2);
            sres_GetChi2SumStat(c);

            RandomWalkChi2& r = l.stat[static_cast<std::size_t>(m)];
            r.deg_free = c->degFree;
            r.jmin = c->jmin;
            r.jmax = c->jmax;
            r.nb_exp.assign(c->NbExp, c->NbExp + c->jmax + 1);
            r.count.assign(c->Count, c->Count + c->jmax + 1);
            r.values.assign(c->sVal1->V + 1, c->sVal1->V + 1 + c->sVal1->NObs);
            for (int i = 0; i < RandomWalkChi2::test_types; ++i) {
                r.sval2[static_cast<std::size_t>(i)] = c->sVal2[i];
                r.pval2[static_cast<std::size_t>(i)] = c->pVal2[i];
            }
        }
    }
    return out;
}

std::vector<NativeStatistic> walk_pvalues(
    const RandomWalkResult& res, long N, const std::string& suffix)
{
    static const char* const letters[walk_statistics] = { "H", "M", "J", "R", "C" };
    std::vector<NativeStatistic> out;
    if (res.lengths.empty()) return out;
    const RandomWalkLength& l = res.lengths.front();
    const std::size_t which = N == 1 ? gofw_Mean : gofw_Sum;
    // strncat(CharTemp, mess, 20): at most 20 characters of the suffix.
    const std::string tail = suffix.substr(0, 20);
    for (int m = 0; m < walk_statistics; ++m)
        out.push_back({ std::string("RandomWalk1 ") + letters[m] + tail,
            l.stat[static_cast<std::size_t>(m)].pval2[which] });
    return out;
}

namespace {

constexpr long million = 1000000;

// bbattery.c: SmallCrush test 10, Crush tests 65-70, BigCrush tests 74-79 (N = 1; r = 0 where
// the battery passes its r).
const RandomWalkRow rows[] = {
    { "smallcrush", 10, { 1, million, 0, 30, 150, 150 }, "" },
    { "crush", 65, { 1, 50 * million, 0, 30, 90, 90 }, " (L = 90)" },
    { "crush", 66, { 1, 10 * million, 20, 10, 90, 90 }, " (L = 90)" },
    { "crush", 67, { 1, 5 * million, 0, 30, 1000, 1000 }, " (L = 1000)" },
    { "crush", 68, { 1, million, 20, 10, 1000, 1000 }, " (L = 1000)" },
    { "crush", 69, { 1, million / 2, 0, 30, 10000, 10000 }, " (L = 10000)" },
    { "crush", 70, { 1, million / 10, 20, 10, 10000, 10000 }, " (L = 10000)" },
    { "bigcrush", 74, { 1, 100 * million, 0, 5, 50, 50 }, " (L=50, r=0)" },
    { "bigcrush", 75, { 1, 100 * million, 25, 5, 50, 50 }, " (L=50, r=25)" },
    { "bigcrush", 76, { 1, 10 * million, 0, 10, 1000, 1000 }, " (L=1000, r=0)" },
    { "bigcrush", 77, { 1, 10 * million, 20, 10, 1000, 1000 }, " (L=1000, r=20)" },
    { "bigcrush", 78, { 1, million, 0, 15, 10000, 10000 }, " (L=10000, r=0)" },
    { "bigcrush", 79, { 1, million, 15, 15, 10000, 10000 }, " (L=10000, r=15)" },
};
constexpr std::size_t row_count = sizeof rows / sizeof rows[0];

} // namespace

const std::vector<RandomWalkRow>& random_walk_rows()
{
    static const std::vector<RandomWalkRow> all(rows, rows + row_count);
    return all;
}

std::vector<NativeTest> random_walk_tests()
{
    std::vector<NativeTest> tests;
    for (const RandomWalkRow& row : rows)
        tests.push_back({ row.battery, row.number, [&row](Numbers& in) {
                             return walk_pvalues(
                                 random_walk1(in, row.params), row.params.N, row.suffix);
                         } });
    return tests;
}

} // namespace rngvet::native
