// Native scomp_LinearComp (linear_comp.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): scomp.c (scomp_LinearComp,
// BerlekampMassey, InitRes), unif01.c (unif01_StripB), testu01/sres.c, probdist/gofs.c,
// probdist/gofw.c and mylib/num.h (num_Log2); the battery rows from bbattery.c (Crush 71-72,
// BigCrush 80-81).
//
// The integer work is done here: the Berlekamp-Massey algorithm over GF(2) runs on bit vectors,
// 64 coefficients per machine word. TestU01 keeps its polynomials (c, b and the copy of c taken
// before each update) in arrays of 0/1 ints that it allocates once per call and never clears
// between replications; each of its operations touches only the coefficients 0..L. The bit
// vectors here are those arrays, operated on over the same index ranges (the last word of each
// range masked), so every replication starts from the state TestU01's leaves, and the
// discrepancies, and with them the jumps of the linear complexity, are TestU01's. A
// discrepancy is the parity of the connection polynomial's bits ANDed with the bits before the
// current one: the sequence is stored reversed, so that window is a run of consecutive bits.
// Every floating-point value (the jumps' mean and standard deviation, the classes' expected
// numbers, the statistics) is computed with scomp_LinearComp's operations in its order, and the
// rest comes from TestU01's own functions (gofs, gofw, fbar, sres, statcoll), called with the
// same arguments in the same order.
#include "linear_comp.hpp"

#include "families.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

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

using Word = std::uint64_t;

// Bits 0..i of a word (i in 0..63).
inline Word low_bits_through(long i)
{
    return (i & 63) == 63 ? ~Word(0) : (Word(1) << ((i & 63) + 1)) - 1;
}

// dst[0..last] = src[0..last] (bit indices), dst's other bits left as they are.
void copy_through(Word* dst, const Word* src, long last)
{
    const long words = last >> 6;
    std::memcpy(dst, src, static_cast<std::size_t>(words) * sizeof(Word));
    const Word mask = low_bits_through(last);
    dst[words] = (dst[words] & ~mask) | (src[words] & mask);
}

// TestU01's BerlekampMassey state: its three polynomial arrays (Polyc, Polyb, PolycOld) as bit
// vectors, kept from one replication to the next as TestU01 keeps its arrays, and the current
// replication's bits, reversed.
class BerlekampMassey {
public:
    explicit BerlekampMassey(long n)
        : n_(n)
        , words_(static_cast<std::size_t>(n / 64 + 3))
        , c_(words_)
        , b_(words_)
        , c_old_(words_)
        , reversed_(words_)
    {
    }

    // Clears the sequence's bits; set_bit(t) sets bit t (1..n), TestU01's Bits[t].
    void clear_bits() { std::fill(reversed_.begin(), reversed_.end(), 0); }
    void set_bit(long t)
    {
        const long j = n_ - t;
        reversed_[static_cast<std::size_t>(j >> 6)] |= Word(1) << (j & 63);
    }

    // One replication on the bits set: the final linear complexity and the number of jumps,
    // and the jumps' sizes counted in count[1..jmax] (the larger ones in count[jmax]), as
    // TestU01's BerlekampMassey counts them.
    void run(long* count, long jmax, long& complexity, long& jumps)
    {
        for (long k = 0; k <= jmax; ++k)
            count[k] = 0;
        Word* c = c_.data();
        Word* b = b_.data();
        Word* c_old = c_old_.data();
        const Word* rev = reversed_.data();
        c[0] |= 1;
        b[0] |= 1;
        long L = 0, NumJ = 0, m = -1;
        for (long k = 0; k < n_; ++k) {
            // Bits[k + 1] + sum over i = 1..L of Polyc[i] Bits[k + 1 - i], mod 2: Bits[k + 1 - i]
            // is bit n - k - 1 + i of the reversed sequence, and Polyc[0] is 1.
            const long offset = n_ - 1 - k;
            const long q = offset >> 6;
            const int shift = static_cast<int>(offset & 63);
            const long last_word = L >> 6;
            const Word mask = low_bits_through(L);
            const Word* window = rev + q;
            Word acc = 0;
            if (shift == 0) {
                for (long w = 0; w < last_word; ++w)
                    acc ^= c[w] & window[w];
                acc ^= c[last_word] & mask & window[last_word];
            } else {
                const int back = 64 - shift;
                for (long w = 0; w < last_word; ++w)
                    acc ^= c[w] & ((window[w] >> shift) | (window[w + 1] << back));
                acc ^= c[last_word] & mask
                    & ((window[last_word] >> shift) | (window[last_word + 1] << back));
            }
            if (__builtin_parityll(acc) != 0) {
                // PolycOld[0..L] = Polyc[0..L], then Polyc[k - m + i] ^= Polyb[i], i = 0..L.
                copy_through(c_old, c, L);
                const long distance = k - m;
                const long qs = distance >> 6;
                const int bs = static_cast<int>(distance & 63);
                Word* target = c + qs;
                if (bs == 0) {
                    for (long w = 0; w < last_word; ++w)
                        target[w] ^= b[w];
                    target[last_word] ^= b[last_word] & mask;
                } else {
                    const int back = 64 - bs;
                    Word carry = 0;
                    for (long w = 0; w < last_word; ++w) {
                        const Word x = b[w];
                        target[w] ^= (x << bs) | carry;
                        carry = x >> back;
                    }
                    const Word x = b[last_word] & mask;
                    target[last_word] ^= (x << bs) | carry;
                    target[last_word + 1] ^= x >> back;
                }
                if (2 * L <= k) {
                    L = k + 1 - L;
                    ++NumJ;
                    const long Loc = std::labs(k + 1 - 2 * L);
                    if (Loc <= jmax)
                        ++count[Loc];
                    else
                        ++count[jmax];
                    // Polyb[0..L] = PolycOld[0..L].
                    copy_through(b, c_old, L);
                    m = k;
                }
            }
        }
        complexity = L;
        jumps = NumJ;
    }

private:
    long n_;
    std::size_t words_;
    std::vector<Word> c_, b_, c_old_, reversed_;
};

} // namespace

void linear_comp(Numbers& in, scomp_Res* res, long N, long n, int r, int s)
{
    if (N < 1 || r < 0 || s < 1 || r + s > 32)
        throw std::invalid_argument("linear_comp: N and s must be positive, r >= 0, r + s <= 32");
    const double epsilon = 1.0E-10;
    const int tt = static_cast<int>(1 - 0.5 * num_Log2(3 * epsilon));
    const long K0 = n / s;
    n = K0 * s;
    if (n < 1) throw std::invalid_argument("linear_comp: n / s must be positive");
    const int Parite = static_cast<int>(n & 1);
    double temp;
    if (n >= DBL_MAX_EXP)
        temp = 0.0;
    else
        temp = std::pow(2.0, -static_cast<double>(n));

    // scomp_LinearComp's expressions, operation for operation.
    const double mu = static_cast<double>(n) / 4.0 + (4 + Parite) / 12.0 - temp / 3.0;
    double sigma = static_cast<double>(n) / 8.0 - (2 - Parite) / (9.0 - Parite)
        + static_cast<double>(n) * temp / 6.0 + (6 + Parite) * temp / 18.0 - temp * temp / 9.0;
    sigma = std::sqrt(sigma);
    const double muComp = static_cast<double>(n) / 2.0 + (4 + Parite) / 18.0;
    int M0 = static_cast<int>(num_Log2(mu / gofs_MinExpected));
    // With fewer than 2 classes the jumps' chi-square has no degree of freedom: not done.
    const bool JL_OK = M0 >= 2;
    if (M0 > num_MaxTwoExp) throw std::invalid_argument("linear_comp: M0 > num_MaxTwoExp");
    M0 = M0 > 1 ? M0 : 1;

    // scomp.c's InitRes.
    char jn_name[] = "scomp_LinearComp:   Number of Jumps";
    char jl_name[] = "scomp_LinearComp:   Size of Jumps";
    char lc_name[] = "scomp_LinearComp:   Linear Complexity";
    sres_InitBasic(res->JumpNum, N, jn_name);
    sres_InitChi2(res->JumpSize, N, M0, jl_name);
    sres_InitChi2(res->LinComp, N, tt, lc_name);
    sres_Basic* resJN = res->JumpNum;
    sres_Chi2* resJL = res->JumpSize;
    sres_Chi2* resLC = res->LinComp;
    long* Loca = resLC->Loc;

    bool LC_OK = false;
    long tmin = 0, tmax = 0, NbClasses = 0;
    if (static_cast<double>(N) > 2.0 * gofs_MinExpected) {
        // The probabilities of the linear complexity's deviation k and -k (NIST 800-22).
        std::vector<double> Prob(static_cast<std::size_t>(tt) + 1);
        temp = Prob[0] = 0.5;
        for (int k = 1; k < tt; ++k) {
            Prob[static_cast<std::size_t>(k)] = 1.5 * std::pow(4.0, -static_cast<double>(k));
            temp += Prob[static_cast<std::size_t>(k)];
        }
        Prob[static_cast<std::size_t>(tt)] = 1.0 - temp;
        for (int k = 0; k <= tt; ++k) {
            resLC->Count[k] = 0;
            resLC->NbExp[k] = static_cast<double>(N) * Prob[static_cast<std::size_t>(k)];
        }
        tmin = 0;
        tmax = tt;
        gofs_MergeClasses(resLC->NbExp, Loca, &tmin, &tmax, &NbClasses);
        resLC->jmax = tmax;
        resLC->jmin = tmin;
        resLC->degFree = NbClasses - 1;
        LC_OK = NbClasses >= 2;
    }

    statcoll_SetDesc(
        resJN->sVal1, "The number of jumps: the N statistic values (a standard normal):");
    char desc[160];
    std::snprintf(desc, sizeof desc,
        "The jumps size: the N statistic values (a ChiSquare with %1d degrees of freedom):",
        M0 - 1);
    statcoll_SetDesc(resJL->sVal1, desc);

    BerlekampMassey bm(n);
    std::vector<Word> words(static_cast<std::size_t>(K0));
    for (long Seq = 1; Seq <= N; ++Seq) {
        // Bits[s i + 1 .. s i + s]: StripB's s bits, the most significant first.
        in.read(words.data(), words.size());
        bm.clear_bits();
        for (long i = 0; i < K0; ++i) {
            const unsigned long Nombre = in.strip_b(words[static_cast<std::size_t>(i)], r, s);
            for (int j = 1; j <= s; ++j)
                if ((Nombre >> (s - j)) & 1) bm.set_bit(s * i + j);
        }
        long L = 0, jumps = 0;
        bm.run(resJL->Count, resJL->jmax, L, jumps);
        double comp = static_cast<double>(L);
        const double NumJ = static_cast<double>(jumps);

        if (LC_OK) {
            comp = comp - muComp;
            if (Parite) comp = -comp;
            comp += 2.0 / 9.0;
            int k;
            if (comp >= 0.0)
                k = static_cast<int>(comp + 0.5);
            else
                k = static_cast<int>(comp - 0.5);
            if (k < 0) k = -k;
            if (k >= tt)
                ++resLC->Count[Loca[tt]];
            else
                ++resLC->Count[Loca[k]];
        }

        statcoll_AddObs(resJN->sVal1, (NumJ - mu) / sigma);

        if (JL_OK) {
            for (int k = 1; k < M0; ++k) {
                resJL->NbExp[k] = NumJ / num_TwoExp[k];
                resJL->Loc[k] = k;
            }
            resJL->NbExp[M0] = NumJ / num_TwoExp[M0 - 1];
            resJL->Loc[M0] = M0;
            resJL->jmax = M0;
            resJL->jmin = 1;
            resJL->degFree = M0 - 1;
            const double X2 = gofs_Chi2(resJL->NbExp, resJL->Count, 1, M0);
            statcoll_AddObs(resJL->sVal1, X2);
        }
    }

    gofw_ActiveTests2(
        resJN->sVal1->V, resJN->pVal1->V, N, wdist_Normal, nullptr, resJN->sVal2, resJN->pVal2);
    resJN->pVal1->NObs = N;
    sres_GetNormalSumStat(resJN);

    if (JL_OK) {
        double Param[1] = { static_cast<double>(M0 - 1) };
        gofw_ActiveTests2(resJL->sVal1->V, resJL->pVal1->V, N, wdist_ChiSquare, Param, resJL->sVal2,
            resJL->pVal2);
        resJL->pVal1->NObs = N;
        sres_GetChi2SumStat(resJL);
    }

    if (LC_OK) {
        const double X2 = gofs_Chi2(resLC->NbExp, resLC->Count, tmin, tmax);
        resLC->sVal2[gofw_Mean] = X2;
        resLC->pVal2[gofw_Mean] = fbar_ChiSquare2(NbClasses - 1, 8, X2);
    }
}

namespace {

const LinearCompRow linear_comp_table[] = {
    // Crush 71-72: scomp_LinearComp (gen, res, 1, 120 * THOUSAND, r, 1), r = 0 and 29.
    { "crush", 71, 1, 120000, 0, 1, "LinearComp, r = 0", "LinearComp, r = 0" },
    { "crush", 72, 1, 120000, 29, 1, "LinearComp, r = 29", "LinearComp, r = 29" },
    // BigCrush 80-81: scomp_LinearComp (gen, res, 1, 400 * THOUSAND + 20, r, 1); bbattery.c
    // names test 81's second p-value "LinearComp, r = 0".
    { "bigcrush", 80, 1, 400020, 0, 1, "LinearComp, r = 0", "LinearComp, r = 0" },
    { "bigcrush", 81, 1, 400020, 29, 1, "LinearComp, r = 29", "LinearComp, r = 0" },
};

} // namespace

std::vector<LinearCompRow> linear_comp_rows()
{
    return { std::begin(linear_comp_table), std::end(linear_comp_table) };
}

std::vector<NativeStatistic> linear_comp_statistics(Numbers& in, const LinearCompRow& row, long n)
{
    scomp_Res* res = scomp_CreateRes();
    try {
        linear_comp(in, res, row.N, n, row.r, row.s);
    } catch (...) {
        scomp_DeleteRes(res);
        throw;
    }
    std::vector<NativeStatistic> out{
        { row.jump_count_name, res->JumpNum->pVal2[gofw_Mean] },
        { row.jump_size_name, res->JumpSize->pVal2[gofw_Mean] },
    };
    scomp_DeleteRes(res);
    return out;
}

std::vector<NativeTest> linear_comp_tests()
{
    std::vector<NativeTest> tests;
    for (const LinearCompRow& row : linear_comp_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return linear_comp_statistics(in, row, row.n); } });
    return tests;
}

} // namespace rngvet::native
