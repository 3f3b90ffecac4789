// Native sstring_LongestHeadRun, sstring_PeriodsInStrings, sstring_HammingWeight2 and
// sstring_HammingCorr (sstring_bits.hpp).
//
// Facts from TestU01 1.2.3's sstring.c (the four functions, HammingWeight2_L/_S,
// HammingCorr_L/_S, GenerateC, CreateCorr, Psi, ProbabiliteLHR) and bbattery.c (the rows):
// - Every number gives Z = unif01_StripB (gen, r, s): s bits of GetBits after its r most
//   significant, the first bit of the string being the most significant of Z.
// - LongestHeadRun: a replication is n sequences of K = L / s numbers (L / s * s bits). Each
//   sequence's longest run of ones is counted in a chi-square class; runs are also joined
//   across sequences and replications for the global longest run (res->Disc), except across a
//   sequence of ones only. Here each number is summarized by its leading ones, trailing ones and
//   longest run (count-leading/trailing-zeros and x & (x << 1)), pieces of sequences are
//   summarized on several threads and joined in order, and TestU01's joining rules are applied
//   sequence by sequence.
// - PeriodsInStrings: the correlation of Z (bit k set where Z has period k) is counted in the
//   class of its position in CreateCorr's list of the correlations of length s; the list, and
//   the number of strings of each, are built here by CreateCorr's algorithm in its order.
// - HammingWeight2: with L >= s a block is L / s numbers of s bits and, when L % s > 0, one of
//   L % s bits (StripB (gen, r, L % s)); with L < s a number gives s / L blocks, its lowest L
//   bits first, and all of them are summed, also past n / L. The sum of (weight - L / 2)^2 is
//   taken block by block in order, as TestU01 takes it.
// - HammingCorr: the same blocks (n of them); the pairs of successive weights are counted in
//   an (L + 1) x (L + 1) table, the first block's pair in a row that is not used.
// - Every floating-point value that reaches a p-value is computed by TestU01's expressions in
//   its order, and the chi-square, gofw, fbar and sres stages are TestU01's own functions.
#include "sstring_bits.hpp"

#include "device_bits.hpp"
#include "device_runs.hpp"
#include "families.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <utility>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/num.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

using Buffers = std::vector<std::uint64_t>[2];

// Numbers read at a time (two buffers of them: 16 MiB).
constexpr std::size_t chunk_words = std::size_t(1) << 20;
// Numbers in one unit of parallel work.
constexpr std::uint64_t grain_words = std::uint64_t(1) << 14;

int resolve_threads(int threads)
{
    return threads > 0 ? threads : native::threads();
}

// Reads `records` records of `record_words` numbers each from `in`, chunk_records at a time
// into two buffers (the next chunk read while the current one is counted). Each chunk's records
// are split into units of `grain` records, given to body(words, first, r0, r1, unit, thread) on
// the threads ([r0, r1) relative to the chunk, which starts at record `first`); then
// after(words, first, count) runs once, before the next chunk is counted.
template <class Body, class After>
void over_chunks(Numbers& in, std::uint64_t records, std::size_t record_words,
    std::uint64_t chunk_records, std::uint64_t grain, int threads, Buffers& buffers, Body&& body,
    After&& after)
{
    if (records == 0) return;
    chunk_records = std::max<std::uint64_t>(1, chunk_records);
    grain = std::max<std::uint64_t>(1, grain);
    const std::uint64_t chunks = (records + chunk_records - 1) / chunk_records;
    auto size_of
        = [&](std::uint64_t c) { return std::min(chunk_records, records - c * chunk_records); };
    const std::size_t most = static_cast<std::size_t>(size_of(0)) * record_words;
    for (int b = 0; b < 2; ++b)
        if (buffers[b].size() < most && (b == 0 || chunks > 1)) buffers[b].resize(most);
    in.read(buffers[0].data(), static_cast<std::size_t>(size_of(0)) * record_words);
    const std::uint64_t most_units = (size_of(0) + grain - 1) / grain;
    threads = static_cast<int>(std::max<std::uint64_t>(
        1, std::min<std::uint64_t>(static_cast<std::uint64_t>(threads), most_units)));
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        for (std::uint64_t c = 0; c < chunks; ++c) {
            const std::uint64_t count = size_of(c);
            const std::uint64_t first = c * chunk_records;
            const std::uint64_t* words = buffers[c & 1].data();
#pragma omp single nowait
            {
                if (c + 1 < chunks)
                    in.read(buffers[(c + 1) & 1].data(),
                        static_cast<std::size_t>(size_of(c + 1)) * record_words);
            }
            const std::uint64_t units = (count + grain - 1) / grain;
#pragma omp for schedule(dynamic, 1)
            for (std::uint64_t u = 0; u < units; ++u)
                body(words, first, u * grain, std::min(count, u * grain + grain),
                    static_cast<std::size_t>(u), t);
#pragma omp single
            after(words, first, count);
        }
    }
}

// StripB (gen, r, s) of a number, from GetBits's 32 bits.
struct Strip {
    int shift; // 32 - r - s
    std::uint32_t mask; // 2^s - 1
    Strip(int r, int s)
        : shift(32 - r - s)
        , mask(static_cast<std::uint32_t>((std::uint64_t(1) << s) - 1))
    {
    }
    std::uint32_t operator()(const Numbers& in, std::uint64_t w) const
    {
        return (static_cast<std::uint32_t>(in.bits32(w)) >> shift) & mask;
    }
};

// ---------------------------------------------------------------- LongestHeadRun

// Runs of ones in a piece of a bit string (device_runs.hpp's OnesRuns, which the device path
// computes too).
using Runs = OnesRuns;

// A piece of one sequence and whether it ends that sequence.
struct RunPiece {
    Runs runs;
    bool ends;
};

// The longest run of ones of x.
inline int longest_run(std::uint32_t x)
{
    int n = 0;
    for (; x != 0; ++n)
        x &= x << 1;
    return n;
}

// The pieces of sequences in numbers [w0, w1) of a replication (number w0 at words[0]).
void head_run_pieces(const Numbers& in, const Strip& strip, int s, std::uint64_t K,
    const std::uint64_t* words, std::uint64_t w0, std::uint64_t w1, std::vector<RunPiece>& out)
{
    out.clear();
    const int top_shift = 32 - s;
    const long sl = s;
    std::uint64_t w = w0;
    while (w < w1) {
        const std::uint64_t end = std::min(w1, (w / K + 1) * K);
        Runs p;
        for (; w < end; ++w) {
            const std::uint32_t v = strip(in, words[w - w0]);
            if (v == strip.mask) {
                p.trail += sl;
                if (!p.zero) p.lead += sl;
                continue;
            }
            const long lead = __builtin_clz(~(v << top_shift));
            if (!p.zero) {
                p.lead += lead;
                p.zero = true;
            }
            p.best = std::max(p.best, p.trail + lead);
            if (p.best < sl - 1) p.best = std::max<long>(p.best, longest_run(v));
            p.trail = __builtin_ctz(~v);
        }
        p.best = std::max(p.best, p.trail);
        out.push_back({ p, end % K == 0 });
    }
}

// ProbabiliteLHR: the probability that the longest run of ones has length j.
double head_run_probability(long j, double Lnl)
{
    double temp = static_cast<double>(j + 1) * num_Ln2 - Lnl;
    double x = std::exp(-std::exp(-temp));
    temp += num_Ln2;
    x = std::exp(-std::exp(-temp)) - x;
    return x;
}

constexpr int DIM = 1000; // sstring.c's bound on the classes

} // namespace

void longest_head_run(
    Numbers& in, sstring_Res2* res, long N, long n, int r, int s, long L, int threads)
{
    if (N < 1 || n < 0 || r < 0 || s < 1 || r + s > 32)
        throw std::invalid_argument("sstring_LongestHeadRun: invalid parameters");
    const long K = L / s;
    L = K * s;
    if (L < 1000) throw std::invalid_argument("sstring_LongestHeadRun: L < 1000");
    threads = resolve_threads(threads);

    const double eps = DBL_EPSILON;
    double NbExp[DIM + 1];
    double CDF[DIM + 1];
    long jhigh = DIM, jhigh2 = DIM;
    double LnLen = std::log(static_cast<double>(L));
    CDF[0] = head_run_probability(0, LnLen);
    NbExp[0] = static_cast<double>(n) * CDF[0];
    for (int j = 1; j < DIM; ++j) {
        const double temp = head_run_probability(j, LnLen);
        NbExp[j] = static_cast<double>(n) * temp;
        CDF[j] = temp + CDF[j - 1];
        if ((temp <= eps) && (CDF[j] > 0.5)) {
            jhigh = j;
            break;
        }
    }
    NbExp[jhigh] = static_cast<double>(n) * (1.0 - CDF[jhigh - 1]);
    LnLen = std::log(static_cast<double>(N) * static_cast<double>(n) * static_cast<double>(L));
    CDF[0] = head_run_probability(0, LnLen);
    for (int j = 1; j < DIM; ++j) {
        const double temp = head_run_probability(j, LnLen);
        CDF[j] = temp + CDF[j - 1];
        if ((temp <= eps) && (CDF[j] > 0.5)) {
            jhigh2 = j;
            break;
        }
    }

    char disc_name[] = "sstring_LongestHeadRun:   Global longest run of 1's";
    char chi_name[] = "sstring_LongestHeadRun:   Block longest runs of 1's";
    sres_InitDisc(res->Disc, N, disc_name);
    sres_InitChi2(res->Chi, N, jhigh, chi_name);
    sres_Disc* Disc = res->Disc;
    sres_Chi2* Chi = res->Chi;
    for (long j = 0; j <= jhigh; ++j)
        Chi->NbExp[j] = NbExp[j];
    long NbGroups = 0;
    gofs_MergeClasses(Chi->NbExp, Chi->Loc, &Chi->jmin, &Chi->jmax, &NbGroups);
    Chi->degFree = NbGroups - 1;
    if (Chi->degFree <= 0) return;
    char desc[120];
    std::snprintf(desc, sizeof desc,
        "The N statistic values (a ChiSquare with %1ld degrees of freedom):", Chi->degFree);
    statcoll_SetDesc(Chi->sVal1, desc);
    statcoll_SetDesc(Disc->sVal1, "The longest run of 1 for each replication ");

    const Strip strip(r, s);
    const std::uint64_t Kw = static_cast<std::uint64_t>(K);
    const std::uint64_t words = static_cast<std::uint64_t>(n) * Kw;
    const std::uint64_t chunk_records = chunk_words / grain_words * grain_words;
    std::vector<std::vector<RunPiece>> pieces(
        static_cast<std::size_t>((std::min(words, chunk_records) + grain_words - 1) / grain_words));
    Buffers buffers;

    // sstring_LongestHeadRun's state, joined sequence by sequence.
    long longest2 = 0, longest3 = 0, longueur2 = 0, longueur3 = 0;
    Runs current;
    auto end_sequence = [&](const Runs& seq) {
        long longest;
        if (seq.zero) {
            if (longest2 < 0) {
                longueur3 += seq.lead;
                if (longueur3 > longest3) longest3 = longueur3;
            }
            longueur2 += seq.lead;
            if (longueur2 > longest2) longest2 = longueur2;
            longest = seq.best;
        } else {
            longest = L;
        }
        if (longest >= Chi->jmax)
            ++Chi->Count[Chi->jmax];
        else if (longest <= Chi->jmin)
            ++Chi->Count[Chi->jmin];
        else
            ++Chi->Count[Chi->Loc[longest]];
        if (longest > longest2) longest2 = longest;
        longueur3 = longueur2 = seq.zero ? seq.trail : L;
    };

    // On the device the stream runs on, where it is a CUDA one: every sequence's runs.
    const auto on_device = device_head_runs(in, N, n, r, s, K);
    for (long rep = 1; rep <= N; ++rep) {
        for (long i = Chi->jmin; i <= Chi->jmax; ++i)
            Chi->Count[i] = 0;
        longest2 = -1;
        longueur2 = 0;
        current = Runs();
        bool open = false; // a sequence started and not ended
        if (on_device) {
            for (const Runs& seq : (*on_device)[static_cast<std::size_t>(rep - 1)])
                end_sequence(seq);
        } else {
            over_chunks(
                in, words, 1, chunk_records, grain_words, threads, buffers,
                [&](const std::uint64_t* w, std::uint64_t first, std::uint64_t r0, std::uint64_t r1,
                    std::size_t unit, int) {
                    head_run_pieces(in, strip, s, Kw, w + r0, first + r0, first + r1, pieces[unit]);
                },
                [&](const std::uint64_t*, std::uint64_t, std::uint64_t count) {
                    const std::size_t units
                        = static_cast<std::size_t>((count + grain_words - 1) / grain_words);
                    for (std::size_t u = 0; u < units; ++u)
                        for (const RunPiece& p : pieces[u]) {
                            current = open ? join_runs(current, p.runs) : p.runs;
                            open = true;
                            if (p.ends) {
                                end_sequence(current);
                                open = false;
                            }
                        }
                });
        }

        statcoll_AddObs(Chi->sVal1, gofs_Chi2(Chi->NbExp, Chi->Count, Chi->jmin, Chi->jmax));
        statcoll_AddObs(Disc->sVal1, static_cast<double>(longest2));
        if (longest2 > longest3) longest3 = longest2;
    }
    Disc->sVal2 = static_cast<double>(longest3);
    if (longest3 > jhigh2) {
        Disc->pLeft = 1.0;
        Disc->pRight = 0.0;
    } else {
        Disc->pLeft = CDF[longest3];
        if (longest3 > 0)
            Disc->pRight = 1.0 - CDF[longest3 - 1];
        else
            Disc->pRight = 1.0;
    }
    Disc->pVal2 = gofw_pDisc(Disc->pLeft, Disc->pRight);

    double V[1] = { static_cast<double>(Chi->degFree) };
    gofw_ActiveTests2(Chi->sVal1->V, Chi->pVal1->V, N, wdist_ChiSquare, V, Chi->sVal2, Chi->pVal2);
    Chi->pVal1->NObs = N;
    sres_GetChi2SumStat(Chi);
}

// ---------------------------------------------------------------- PeriodsInStrings

namespace {

// CreateCorr's list of the correlations of strings of length s, in its order, with the number
// of strings of each.
struct Correlations {
    std::vector<std::uint32_t> C;
    std::vector<long> pop;
};

Correlations correlations_of_length(int s)
{
    struct Node {
        std::uint32_t C;
        long nb; // length
        long pop;
        int ext; // first extension, -1: none
        int ext0; // next extension of the same correlation, -1: none
    };
    std::vector<Node> nodes;
    std::vector<std::vector<int>> lists(static_cast<std::size_t>(s) + 1);
    nodes.push_back({ 0u, 0, 1, -1, -1 });
    lists[0].push_back(0);
    nodes.push_back({ 1u, 1, 2, -1, -1 });
    lists[1].push_back(1);
    // Psi: strings of length i with correlation 10...0C, where C (length j) ends it.
    auto psi = [](std::uint32_t C, long j, long k) -> long {
        if (k > j) return 0;
        if (k <= 0) return static_cast<long>(Numbers::two_exp(static_cast<int>(-k)));
        return (C >> (j - k)) & 1u ? 1 : 0;
    };
    for (int i = 2; i <= s; ++i) {
        std::vector<int>& list = lists[static_cast<std::size_t>(i)];
        for (int j = 0; j <= i - 2; ++j) {
            const std::vector<int>& lj = lists[static_cast<std::size_t>(j)];
            for (std::size_t a = 0; a < lj.size(); ++a) {
                const int cj = lj[a];
                const std::uint32_t Cj = nodes[static_cast<std::size_t>(cj)].C;
                long p = nodes[static_cast<std::size_t>(cj)].pop * psi(Cj, j, 2L * j - i);
                if (a + 1 == lj.size()) p -= 2 * psi(Cj, j, 2L * j + 2 - i);
                const long Tmax = (i + j) / 2;
                for (int e = nodes[static_cast<std::size_t>(cj)].ext;
                     e >= 0 && nodes[static_cast<std::size_t>(e)].nb <= Tmax;
                     e = nodes[static_cast<std::size_t>(e)].ext0)
                    p -= nodes[static_cast<std::size_t>(e)].pop
                        * psi(Cj, j, 2 * nodes[static_cast<std::size_t>(e)].nb - i);
                if (p > 0) {
                    std::uint32_t C = 1u;
                    for (int k = 0; k < j; ++k)
                        if ((Cj >> k) & 1u) C |= std::uint32_t(1) << (k + i - j);
                    const int ci = static_cast<int>(nodes.size());
                    nodes.push_back({ C, i, p, -1, -1 });
                    Node& parent = nodes[static_cast<std::size_t>(cj)];
                    if (parent.ext < 0) {
                        parent.ext = ci;
                    } else {
                        int e = parent.ext;
                        while (nodes[static_cast<std::size_t>(e)].ext0 >= 0)
                            e = nodes[static_cast<std::size_t>(e)].ext0;
                        nodes[static_cast<std::size_t>(e)].ext0 = ci;
                    }
                    list.push_back(ci);
                }
            }
        }
        const std::uint32_t ones = static_cast<std::uint32_t>((std::uint64_t(1) << i) - 1);
        list.push_back(static_cast<int>(nodes.size()));
        nodes.push_back({ ones, i, 2, -1, -1 });
    }
    Correlations out;
    for (int c : lists[static_cast<std::size_t>(s)]) {
        out.C.push_back(nodes[static_cast<std::size_t>(c)].C);
        out.pop.push_back(nodes[static_cast<std::size_t>(c)].pop);
    }
    return out;
}

// The borders of the s-bit string v (2 <= s <= 31): bit m - 1 set where its top m bits equal its
// low m bits (1 <= m <= s - 1), that is where v has period s - m. The borders are screened on
// their first `screened` bits for all lengths at once, which decides the lengths up to
// `screened`; the few longer candidates left are compared whole.
inline std::uint32_t borders(std::uint32_t v, int s)
{
    const int screened = std::min(s - 1, 12);
    std::uint32_t candidates = (std::uint32_t(1) << (s - 1)) - 1;
    for (int t = 0; t < screened; ++t) {
        // Bit p of `same`: v's bit p equals its t-th bit from the top. A border of length m > t
        // needs bit m - 1 - t of it.
        const std::uint32_t top = (v >> (s - 1 - t)) & 1u;
        const std::uint32_t same = v ^ (top - 1u);
        candidates &= (same << t) | ((std::uint32_t(1) << t) - 1);
    }
    std::uint32_t longer = candidates >> screened;
    candidates &= (std::uint32_t(1) << screened) - 1;
    while (longer != 0) {
        const int m = __builtin_ctz(longer) + 1 + screened;
        longer &= longer - 1;
        if ((v >> (s - m)) == (v & ((std::uint32_t(1) << m) - 1)))
            candidates |= std::uint32_t(1) << (m - 1);
    }
    return candidates;
}

// GenerateC's correlation of a string of s bits with these borders: bit 0 set, and bit k set
// where it has period k (a border of length s - k).
inline std::uint32_t correlation_of_borders(std::uint32_t b, int s)
{
    std::uint32_t c = 1u;
    for (; b != 0; b &= b - 1)
        c |= std::uint32_t(1) << (s - 1 - __builtin_ctz(b));
    return c;
}

// The borders of a correlation of length s.
inline std::uint32_t borders_of_correlation(std::uint32_t c, int s)
{
    std::uint32_t b = 0;
    for (int k = 1; k < s; ++k)
        if ((c >> k) & 1u) b |= std::uint32_t(1) << (s - k - 1);
    return b;
}

// Class positions (0-based in CreateCorr's list) of strings: a table of every string for small
// s; else, for strings without borders longer than short_bits (almost all), a table indexed by
// their borders, and a search of the sorted correlations for the others.
class CorrelationIndex {
public:
    CorrelationIndex(const Correlations& list, int s)
        : s_(s)
    {
        for (std::size_t j = 0; j < list.C.size(); ++j)
            sorted_.push_back({ list.C[j], static_cast<int>(j) });
        std::sort(sorted_.begin(), sorted_.end());
        if (s <= table_bits) {
            table_.resize(std::size_t(1) << s);
            for (std::uint32_t v = 0; v < (std::uint32_t(1) << s); ++v)
                table_[v]
                    = static_cast<std::uint16_t>(search(correlation_of_borders(borders(v, s), s)));
        } else {
            short_.assign(std::size_t(1) << short_bits, -1);
            for (const auto& e : sorted_) {
                const std::uint32_t b = borders_of_correlation(e.first, s);
                if (b < (std::uint32_t(1) << short_bits)) short_[b] = e.second;
            }
        }
    }
    int operator()(std::uint32_t v) const
    {
        if (!table_.empty()) return table_[v];
        const std::uint32_t b = borders(v, s_);
        if (b < (std::uint32_t(1) << short_bits)) return short_[b];
        return search(correlation_of_borders(b, s_));
    }

private:
    static constexpr int table_bits = 20;
    static constexpr int short_bits = 12;
    int search(std::uint32_t c) const
    {
        std::size_t lo = 0, len = sorted_.size();
        while (len > 1) {
            const std::size_t half = len / 2;
            lo = sorted_[lo + half].first <= c ? lo + half : lo;
            len -= half;
        }
        return sorted_[lo].second;
    }
    int s_;
    std::vector<std::pair<std::uint32_t, int>> sorted_;
    std::vector<std::uint16_t> table_;
    std::vector<int> short_;
};

} // namespace

void periods_in_strings(Numbers& in, sres_Chi2* res, long N, long n, int r, int s, int threads)
{
    if (r < 0 || r > 31 || r + s > 31 || s > 31 || s < 2 || N < 1 || n < 0)
        throw std::invalid_argument("sstring_PeriodsInStrings: invalid parameters");
    threads = resolve_threads(threads);
    const double Fraction = static_cast<double>(n) / Numbers::two_exp(s);
    const Correlations list = correlations_of_length(s);
    const long J = static_cast<long>(list.C.size());
    if (J + 1 > DIM) throw std::invalid_argument("sstring_PeriodsInStrings: DIM too small");
    double NbExp[DIM + 1];
    long Loca[DIM + 1];
    for (long j = 1; j <= J; ++j)
        NbExp[j] = Fraction * static_cast<double>(list.pop[static_cast<std::size_t>(j - 1)]);
    long jlow = 1, jhigh = J, NbGroups = 0;
    gofs_MergeClasses(NbExp, Loca, &jlow, &jhigh, &NbGroups);
    res->degFree = NbGroups - 1;
    if (res->degFree < 1) return;
    char name[] = "sstring_PeriodsInStrings";
    sres_InitChi2(res, N, jhigh, name);
    res->jmin = jlow;
    for (long j = jlow; j <= jhigh; ++j) {
        res->NbExp[j] = NbExp[j];
        res->Loc[j] = Loca[j];
    }
    char desc[120];
    std::snprintf(desc, sizeof desc,
        "The N statistic values (a ChiSquare with %1ld degrees of freedom):", NbGroups - 1);
    statcoll_SetDesc(res->sVal1, desc);

    // A replication's counts of the J classes (one table per thread on the host, summed) into
    // TestU01's merged classes, and its chi-square.
    auto add_replication = [&](const std::vector<std::vector<std::uint64_t>>& counts) {
        for (long j = jlow; j <= jhigh; ++j)
            res->Count[j] = 0;
        for (long j = 1; j <= J; ++j) {
            long nb = 0;
            for (const auto& c : counts)
                nb += static_cast<long>(c[static_cast<std::size_t>(j - 1)]);
            if (j >= res->jmax)
                res->Count[res->jmax] += nb;
            else
                res->Count[Loca[j]] += nb;
        }
        statcoll_AddObs(res->sVal1, gofs_Chi2(res->NbExp, res->Count, jlow, jhigh));
    };

    // On the device the stream runs on, where it is a CUDA one: every replication's counts.
    if (const auto on_device = device_period_histograms(in, N, n, r, s, list.C)) {
        for (const std::vector<std::uint64_t>& h : *on_device)
            add_replication({ h });
    } else {
        const CorrelationIndex index(list, s);
        const Strip strip(r, s);
        const std::size_t classes = static_cast<std::size_t>(J);
        std::vector<std::vector<std::uint64_t>> counts(
            static_cast<std::size_t>(threads), std::vector<std::uint64_t>(classes));
        Buffers buffers;
        for (long seq = 1; seq <= N; ++seq) {
            for (auto& c : counts)
                std::fill(c.begin(), c.end(), 0);
            over_chunks(
                in, static_cast<std::uint64_t>(n), 1, chunk_words, grain_words, threads, buffers,
                [&](const std::uint64_t* w, std::uint64_t, std::uint64_t r0, std::uint64_t r1,
                    std::size_t, int t) {
                    std::uint64_t* c = counts[static_cast<std::size_t>(t)].data();
                    for (std::uint64_t i = r0; i < r1; ++i)
                        ++c[index(strip(in, w[i]))];
                },
                [](const std::uint64_t*, std::uint64_t, std::uint64_t) {});
            add_replication(counts);
        }
    }
    double V[1];
    res->degFree = NbGroups - 1;
    V[0] = static_cast<double>(NbGroups - 1);
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetChi2SumStat(res);
}

// ---------------------------------------------------------------- HammingWeight2, HammingCorr

namespace {

// How blocks of L bits come from the numbers (HammingWeight2_L/_S, HammingCorr_L/_S).
struct Blocks {
    bool long_blocks; // L >= s
    int words_per_block; // long: L / s, one more when L % s > 0
    int full_words; // long: L / s
    std::uint32_t mask_s; // the s bits of StripB (r, s), in place in GetBits's 32 bits
    std::uint32_t mask_rest; // the L % s bits of StripB (r, L % s), in place
    int shift_s; // 32 - r - s
    int L; // short blocks only (L < s <= 32)
    std::uint32_t block_mask; // short: 2^L - 1
    int blocks_per_word; // short: s / L

    Blocks(int r, int s, long Lb)
    {
        long_blocks = Lb >= s;
        full_words = long_blocks ? static_cast<int>(Lb / s) : 0;
        const int rest = long_blocks ? static_cast<int>(Lb % s) : 0;
        words_per_block = full_words + (rest > 0 ? 1 : 0);
        mask_s = static_cast<std::uint32_t>(((std::uint64_t(1) << s) - 1) << (32 - r - s));
        mask_rest = rest > 0
            ? static_cast<std::uint32_t>(((std::uint64_t(1) << rest) - 1) << (32 - r - rest))
            : 0u;
        shift_s = 32 - r - s;
        L = long_blocks ? 0 : static_cast<int>(Lb);
        block_mask = long_blocks ? 0u : static_cast<std::uint32_t>((std::uint64_t(1) << L) - 1);
        blocks_per_word = long_blocks ? 1 : s / L;
    }
    // The weight of the part of a long block in number `position` of the block.
    __attribute__((always_inline)) int long_part(
        const Numbers& in, std::uint64_t w, int position) const
    {
        const std::uint32_t m = position < full_words ? mask_s : mask_rest;
        return __builtin_popcount(static_cast<std::uint32_t>(in.bits32(w)) & m);
    }
    // The weight of a whole long block.
    __attribute__((always_inline)) int long_block(const Numbers& in, const std::uint64_t* w) const
    {
        int c = 0;
        for (int j = 0; j < full_words; ++j)
            c += __builtin_popcount(static_cast<std::uint32_t>(in.bits32(w[j])) & mask_s);
        if (mask_rest != 0)
            c += __builtin_popcount(
                static_cast<std::uint32_t>(in.bits32(w[full_words])) & mask_rest);
        return c;
    }
    // The weight of short block j of a number.
    __attribute__((always_inline)) int short_block(const Numbers& in, std::uint64_t w, int j) const
    {
        const std::uint32_t z = static_cast<std::uint32_t>(in.bits32(w)) >> shift_s;
        return __builtin_popcount((z >> (j * L)) & block_mask);
    }
};

// HammingWeight2 with long blocks: the weight of the numbers of one block that fall in a unit of
// work, and whether they end the block.
struct WeightPiece {
    long weight;
    bool ends;
};

template <bool Popcnt> struct Kernels;

// The counting loops, compiled once for the POPCNT instruction and once without.
#define RNGVET_SSTRING_KERNELS                                                                     \
    static void weight_pieces(const Numbers& in, const Blocks& g, const std::uint64_t* words,      \
        std::uint64_t w0, std::uint64_t w1, std::vector<WeightPiece>& out)                         \
    {                                                                                              \
        out.clear();                                                                               \
        const std::uint64_t wpb = static_cast<std::uint64_t>(g.words_per_block);                   \
        std::uint64_t w = w0;                                                                      \
        while (w < w1) {                                                                           \
            const std::uint64_t end = std::min(w1, (w / wpb + 1) * wpb);                           \
            long c = 0;                                                                            \
            int position = static_cast<int>(w % wpb);                                              \
            for (; w < end; ++w, ++position)                                                       \
                c += g.long_part(in, words[w - w0], position);                                     \
            out.push_back({ c, end % wpb == 0 });                                                  \
        }                                                                                          \
    }                                                                                              \
    static void short_weights(const Numbers& in, const Blocks& g, const std::uint64_t* words,      \
        std::uint64_t i0, std::uint64_t i1, unsigned char* out)                                    \
    {                                                                                              \
        const std::size_t k = static_cast<std::size_t>(g.blocks_per_word);                         \
        for (std::uint64_t i = i0; i < i1; ++i)                                                    \
            for (std::size_t j = 0; j < k; ++j)                                                    \
                out[i * k + j] = static_cast<unsigned char>(                                       \
                    g.short_block(in, words[i], static_cast<int>(j)));                             \
    }                                                                                              \
    static void corr_pairs(const Numbers& in, const Blocks& g, const std::uint64_t* words,         \
        std::uint64_t r0, std::uint64_t r1, int pre, std::uint64_t* table, std::size_t row)        \
    {                                                                                              \
        const std::size_t limit = row - 1;                                                         \
        if (g.long_blocks) {                                                                       \
            const std::size_t wpb = static_cast<std::size_t>(g.words_per_block);                   \
            for (std::uint64_t b = r0; b < r1; ++b) {                                              \
                const int x = g.long_block(in, words + b * wpb);                                   \
                if (static_cast<std::size_t>(pre) <= limit)                                        \
                    ++table[static_cast<std::size_t>(pre) * row + static_cast<std::size_t>(x)];    \
                pre = x;                                                                           \
            }                                                                                      \
        } else {                                                                                   \
            for (std::uint64_t i = r0; i < r1; ++i)                                                \
                for (int j = 0; j < g.blocks_per_word; ++j) {                                      \
                    const int x = g.short_block(in, words[i], j);                                  \
                    if (static_cast<std::size_t>(pre) <= limit)                                    \
                        ++table[static_cast<std::size_t>(pre) * row                                \
                            + static_cast<std::size_t>(x)];                                        \
                    pre = x;                                                                       \
                }                                                                                  \
        }                                                                                          \
    }

template <> struct Kernels<false> {
    RNGVET_SSTRING_KERNELS
};
#pragma GCC push_options
#pragma GCC target("popcnt")
template <> struct Kernels<true> {
    RNGVET_SSTRING_KERNELS
};
#pragma GCC pop_options
#undef RNGVET_SSTRING_KERNELS

bool has_popcnt()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt");
}

} // namespace

void hamming_weight2(
    Numbers& in, sres_Basic* res, long N, long n, int r, int s, long L, int threads)
{
    if (r + s > 32 || L > n || L < 2 || r < 0 || s < 1 || N < 1)
        throw std::invalid_argument("sstring_HammingWeight2: invalid parameters");
    threads = resolve_threads(threads);
    const long K = n / L;
    char name[] = "sstring_HammingWeight2";
    sres_InitBasic(res, N, name);
    const std::string desc
        = "sVal1:   a chi-square with " + std::to_string(K) + " degrees of freedom";
    statcoll_SetDesc(res->sVal1, desc.c_str());

    const Blocks g(r, s, L);
    const bool popcnt = has_popcnt();
    const double L2 = static_cast<double>(L) / 2.0;
    // On the device the stream runs on, where it is a CUDA one: the weights of the blocks, in
    // order, summed here as below.
    std::vector<double> device_x2(static_cast<std::size_t>(N), 0.0);
    const bool on_device = device_hamming_weights(
        in, N, n, r, s, L, [&](long seq, const long* weights, std::size_t count) {
            double& X2 = device_x2[static_cast<std::size_t>(seq)];
            for (std::size_t b = 0; b < count; ++b) {
                const int c = static_cast<int>(weights[b]);
                X2 += (c - L2) * (c - L2);
            }
        });
    Buffers buffers;
    for (long seq = 1; seq <= N; ++seq) {
        double X2 = 0.0;
        if (on_device) {
            X2 = device_x2[static_cast<std::size_t>(seq - 1)];
        } else if (g.long_blocks) {
            const std::uint64_t words
                = static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(g.words_per_block);
            const std::uint64_t chunk_records = chunk_words / grain_words * grain_words;
            std::vector<std::vector<WeightPiece>> pieces(static_cast<std::size_t>(
                (std::min(words, chunk_records) + grain_words - 1) / grain_words));
            long co = 0;
            over_chunks(
                in, words, 1, chunk_records, grain_words, threads, buffers,
                [&](const std::uint64_t* w, std::uint64_t first, std::uint64_t r0, std::uint64_t r1,
                    std::size_t unit, int) {
                    if (popcnt)
                        Kernels<true>::weight_pieces(
                            in, g, w + r0, first + r0, first + r1, pieces[unit]);
                    else
                        Kernels<false>::weight_pieces(
                            in, g, w + r0, first + r0, first + r1, pieces[unit]);
                },
                [&](const std::uint64_t*, std::uint64_t, std::uint64_t count) {
                    const std::size_t units
                        = static_cast<std::size_t>((count + grain_words - 1) / grain_words);
                    for (std::size_t u = 0; u < units; ++u)
                        for (const WeightPiece& p : pieces[u]) {
                            co += p.weight;
                            if (p.ends) {
                                const int c = static_cast<int>(co);
                                X2 += (c - L2) * (c - L2);
                                co = 0;
                            }
                        }
                });
        } else {
            const long per_word = g.blocks_per_word;
            const std::uint64_t Q = static_cast<std::uint64_t>(K / per_word + (K % per_word > 0));
            const std::uint64_t chunk_records
                = std::max<std::uint64_t>(1, chunk_words / static_cast<std::uint64_t>(per_word));
            std::vector<unsigned char> weights(static_cast<std::size_t>(
                std::min(Q, chunk_records) * static_cast<std::uint64_t>(per_word)));
            over_chunks(
                in, Q, 1, chunk_records, grain_words, threads, buffers,
                [&](const std::uint64_t* w, std::uint64_t, std::uint64_t r0, std::uint64_t r1,
                    std::size_t, int) {
                    if (popcnt)
                        Kernels<true>::short_weights(in, g, w, r0, r1, weights.data());
                    else
                        Kernels<false>::short_weights(in, g, w, r0, r1, weights.data());
                },
                [&](const std::uint64_t*, std::uint64_t, std::uint64_t count) {
                    const std::size_t m
                        = static_cast<std::size_t>(count * static_cast<std::uint64_t>(per_word));
                    for (std::size_t b = 0; b < m; ++b) {
                        const int co = weights[b];
                        X2 += (co - L2) * (co - L2);
                    }
                });
        }
        X2 *= 4.0 / static_cast<double>(L);
        statcoll_AddObs(res->sVal1, X2);
    }

    double V[1] = { static_cast<double>(K) };
    gofw_ActiveTests2(res->sVal1->V, res->pVal1->V, N, wdist_ChiSquare, V, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    const double sum = static_cast<double>(N) * statcoll_Average(res->sVal1);
    res->sVal2[gofw_Sum] = sum;
    res->pVal2[gofw_Sum] = fbar_ChiSquare2(N * K, 12, sum);
}

void hamming_corr(Numbers& in, sres_Basic* res, std::vector<long>* counters, long N, long n, int r,
    int s, int L, int threads)
{
    if (r < 0 || s < 1 || r + s > 32 || L < 1 || n < 1 || N < 1)
        throw std::invalid_argument("sstring_HammingCorr: invalid parameters");
    threads = resolve_threads(threads);
    char name[] = "sstring_HammingCorr";
    sres_InitBasic(res, N, name);
    statcoll_SetDesc(res->sVal1, "HammingCorr sVal1:   standard normal");

    const Blocks g(r, s, L);
    const bool popcnt = has_popcnt();
    const std::size_t row = static_cast<std::size_t>(L) + 1;
    const std::size_t cells = row * row;
    // Per-thread tables may take 256 MiB in all.
    threads = static_cast<int>(std::max<std::size_t>(1,
        std::min<std::size_t>(static_cast<std::size_t>(threads),
            (std::size_t(256) << 20) / (cells * sizeof(std::uint64_t)))));
    std::vector<std::vector<std::uint64_t>> tables; // the CPU path's, one per thread
    std::vector<long> table(cells);
    Buffers buffers;
    const int junk = L + 1;

    // Records: whole blocks (L >= s) or whole numbers of s / L blocks (L < s), then, for L < s,
    // the n % (s / L) blocks of one more number.
    std::uint64_t records, record_words;
    long tail_blocks = 0;
    if (g.long_blocks) {
        records = static_cast<std::uint64_t>(n);
        record_words = static_cast<std::uint64_t>(g.words_per_block);
    } else {
        records = static_cast<std::uint64_t>(n / g.blocks_per_word);
        record_words = 1;
        tail_blocks = n % g.blocks_per_word;
    }
    const std::uint64_t chunk_records = std::max<std::uint64_t>(1, chunk_words / record_words);
    const std::uint64_t grain = std::max<std::uint64_t>(1, grain_words / record_words);
    // The weight of the last block of a record.
    auto last_weight = [&g, &in](const std::uint64_t* record) {
        return g.long_blocks ? g.long_block(in, record)
                             : g.short_block(in, *record, g.blocks_per_word - 1);
    };

    // One replication's statistic from its table, as sstring_HammingCorr.
    auto add_replication = [&]() {
        double Sum = 0.0;
        for (int i = 0; i <= L; ++i)
            for (int j = 0; j <= L; ++j)
                Sum += static_cast<double>(
                           table[static_cast<std::size_t>(i) * row + static_cast<std::size_t>(j)])
                    * (i - L / 2.0) * (j - L / 2.0);
        Sum = Sum * 4.0 / (L * std::sqrt(static_cast<double>(n) - 1.0));
        statcoll_AddObs(res->sVal1, Sum);
    };
    // On the device the stream runs on, where it is a CUDA one: each replication's table.
    const bool on_device = device_hamming_corr_tables(
        in, N, n, r, s, L, [&](long, const std::vector<std::uint64_t>& counts) {
            for (std::size_t i = 0; i < cells; ++i)
                table[i] = static_cast<long>(counts[i]);
            add_replication();
        });

    if (!on_device)
        tables.assign(static_cast<std::size_t>(threads), std::vector<std::uint64_t>(cells));
    for (long seq = 1; seq <= N && !on_device; ++seq) {
        for (auto& t : tables)
            std::fill(t.begin(), t.end(), 0);
        int carried = junk; // the previous chunk's last weight
        over_chunks(
            in, records, static_cast<std::size_t>(record_words), chunk_records, grain, threads,
            buffers,
            [&](const std::uint64_t* w, std::uint64_t, std::uint64_t r0, std::uint64_t r1,
                std::size_t, int t) {
                const int pre = r0 > 0 ? last_weight(w + (r0 - 1) * record_words) : carried;
                std::uint64_t* tab = tables[static_cast<std::size_t>(t)].data();
                if (popcnt)
                    Kernels<true>::corr_pairs(in, g, w, r0, r1, pre, tab, row);
                else
                    Kernels<false>::corr_pairs(in, g, w, r0, r1, pre, tab, row);
            },
            [&](const std::uint64_t* w, std::uint64_t, std::uint64_t count) {
                carried = last_weight(w + (count - 1) * record_words);
            });
        for (std::size_t i = 0; i < cells; ++i) {
            std::uint64_t sum = 0;
            for (const auto& t : tables)
                sum += t[i];
            table[i] = static_cast<long>(sum);
        }
        if (tail_blocks > 0) {
            const std::uint64_t w = in.next();
            int pre = carried;
            for (int j = 0; j < tail_blocks; ++j) {
                const int x = g.short_block(in, w, j);
                if (pre != junk)
                    ++table[static_cast<std::size_t>(pre) * row + static_cast<std::size_t>(x)];
                pre = x;
            }
        }
        add_replication();
    }
    if (counters != nullptr) *counters = table;

    gofw_ActiveTests2(
        res->sVal1->V, res->pVal1->V, N, wdist_Normal, nullptr, res->sVal2, res->pVal2);
    res->pVal1->NObs = N;
    sres_GetNormalSumStat(res);
}

// ---------------------------------------------------------------- The battery rows

const std::vector<SstringBitsRow>& sstring_bits_rows()
{
    using T = SstringBitsTest;
    static const std::vector<SstringBitsRow> rows = {
        // Crush (bbattery.c's Crush: r = 0, s = 30).
        { "crush", 76, T::LongestHeadRun, 1, 1000, 0, 30, 10000020, "LongestHeadRun, r = 0",
            gofw_Mean },
        { "crush", 77, T::LongestHeadRun, 1, 300, 20, 10, 10000020, "LongestHeadRun, r = 20",
            gofw_Mean },
        { "crush", 78, T::PeriodsInStrings, 1, 300000000, 0, 30, 0, "PeriodsInStrings, r = 0",
            gofw_Mean },
        { "crush", 79, T::PeriodsInStrings, 1, 300000000, 15, 15, 0, "PeriodsInStrings, r = 15",
            gofw_Mean },
        { "crush", 80, T::HammingWeight2, 100, 100000000, 0, 30, 1000000, "HammingWeight2, r = 0",
            gofw_Sum },
        { "crush", 81, T::HammingWeight2, 30, 100000000, 20, 10, 1000000, "HammingWeight2, r = 20",
            gofw_Sum },
        { "crush", 82, T::HammingCorr, 1, 500000000, 0, 30, 30, "HammingCorr, L = 30", gofw_Mean },
        { "crush", 83, T::HammingCorr, 1, 50000000, 0, 30, 300, "HammingCorr, L = 300", gofw_Mean },
        { "crush", 84, T::HammingCorr, 1, 10000000, 0, 30, 1200, "HammingCorr, L = 1200",
            gofw_Mean },
        // BigCrush (bbattery.c's BigCrush: r = 0, s = 30 where not given).
        { "bigcrush", 86, T::LongestHeadRun, 1, 1000, 0, 3, 10000020, "LongestHeadRun, r = 0",
            gofw_Mean },
        { "bigcrush", 87, T::LongestHeadRun, 1, 1000, 27, 3, 10000020, "LongestHeadRun, r = 27",
            gofw_Mean },
        { "bigcrush", 88, T::PeriodsInStrings, 10, 500000000, 0, 10, 0, "PeriodsInStrings, r = 0",
            gofw_Sum },
        { "bigcrush", 89, T::PeriodsInStrings, 10, 500000000, 20, 10, 0, "PeriodsInStrings, r = 20",
            gofw_Sum },
        { "bigcrush", 90, T::HammingWeight2, 10, 1000000000, 0, 3, 1000000, "HammingWeight2, r = 0",
            gofw_Sum },
        { "bigcrush", 91, T::HammingWeight2, 10, 1000000000, 27, 3, 1000000,
            "HammingWeight2, r = 27", gofw_Sum },
        { "bigcrush", 92, T::HammingCorr, 1, 1000000000, 10, 10, 30, "HammingCorr, L = 30",
            gofw_Mean },
        { "bigcrush", 93, T::HammingCorr, 1, 100000000, 10, 10, 300, "HammingCorr, L = 300",
            gofw_Mean },
        { "bigcrush", 94, T::HammingCorr, 1, 100000000, 10, 10, 1200, "HammingCorr, L = 1200",
            gofw_Mean },
    };
    return rows;
}

std::vector<NativeStatistic> sstring_bits_statistics(
    Numbers& in, const SstringBitsRow& row, long n, long L, int threads)
{
    switch (row.test) {
    case SstringBitsTest::LongestHeadRun: {
        sstring_Res2* res = sstring_CreateRes2();
        try {
            longest_head_run(in, res, row.N, n, row.r, row.s, L > 0 ? L : row.L, threads);
        } catch (...) {
            sstring_DeleteRes2(res);
            throw;
        }
        std::vector<NativeStatistic> out{ { row.name, res->Chi->pVal2[row.pick] },
            { row.name, res->Disc->pVal2 } };
        sstring_DeleteRes2(res);
        return out;
    }
    case SstringBitsTest::PeriodsInStrings: {
        sres_Chi2* res = sres_CreateChi2();
        try {
            periods_in_strings(in, res, row.N, n, row.r, row.s, threads);
        } catch (...) {
            sres_DeleteChi2(res);
            throw;
        }
        std::vector<NativeStatistic> out{ { row.name, res->pVal2[row.pick] } };
        sres_DeleteChi2(res);
        return out;
    }
    case SstringBitsTest::HammingWeight2:
    case SstringBitsTest::HammingCorr: {
        sres_Basic* res = sres_CreateBasic();
        try {
            if (row.test == SstringBitsTest::HammingWeight2)
                hamming_weight2(in, res, row.N, n, row.r, row.s, L > 0 ? L : row.L, threads);
            else
                hamming_corr(
                    in, res, nullptr, row.N, n, row.r, row.s, static_cast<int>(row.L), threads);
        } catch (...) {
            sres_DeleteBasic(res);
            throw;
        }
        std::vector<NativeStatistic> out{ { row.name, res->pVal2[row.pick] } };
        sres_DeleteBasic(res);
        return out;
    }
    }
    return {};
}

std::vector<NativeTest> sstring_bits_tests()
{
    std::vector<NativeTest> tests;
    for (const SstringBitsRow& row : sstring_bits_rows())
        tests.push_back({ row.battery, row.number, [&row](Numbers& in) {
                             return sstring_bits_statistics(in, row, row.n, 0, threads());
                         } });
    return tests;
}

} // namespace rngvet::native
