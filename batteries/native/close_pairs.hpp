// Native forms of TestU01's snpair_ClosePairs and snpair_ClosePairsBitMatch (snpair.c): the same
// numbers read in the same order, the same close-pair search (its divide-and-conquer, its sorts,
// the pairs it measures and the order it measures them in, so that the distances it records and
// the bounds it narrows are TestU01's), and the same statistics and p-values, bit for bit.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/snpair.h>
}

namespace rngvet::native {

// What snpair_ClosePairs leaves in its snpair_Res. Collectors are 1-based (element 0 unused), in
// the state TestU01 leaves them: TheWn and TheWni sorted where N > 1, ThepValAD in replication
// order, Y divided by m and sorted.
struct ClosePairsOutcome {
    double sval[snpair_StatType_N];
    double pval[snpair_StatType_N];
    std::vector<double> the_wn; // res->TheWn
    std::vector<double> the_wni; // res->TheWni
    std::vector<double> the_pval_ad; // res->ThepValAD
    std::vector<double> y; // res->Y
    // res->CloseDist[1..NumClose] and NumClose of the last replication.
    std::vector<double> close_dist;
    int num_close = 0;
};

// snpair_ClosePairs(gen, res, N, n, r, t, p, m) on the next N * n * t numbers of `in`: n points
// of t coordinates unif01_StripD(gen, r) per replication, the m closest pairs in the torus in the
// L_p norm (p = 0: the sup norm). Replications run on `threads` threads.
ClosePairsOutcome close_pairs(Numbers& in, long N, long n, int r, int t, int p, int m, int threads);

// What snpair_ClosePairsBitMatch leaves in its snpair_Res.
struct BitMatchOutcome {
    double sval = 0; // res->sVal[snpair_BM]: the largest bit distance MaxY
    double pval = 0; // res->pVal[snpair_BM]
    std::vector<double> bit_max; // res->BitMax, 1-based: each replication's largest
};

// snpair_ClosePairsBitMatch(gen, res, N, n, r, t) on the next N * n * t numbers of `in`.
BitMatchOutcome close_pairs_bit_match(Numbers& in, long N, long n, int r, int t, int threads);

// The battery rows (bbattery.c).
struct ClosePairsRow {
    const char* battery;
    int number;
    long N, n;
    int r, t, p, m;
    bool mnp2s; // snpair_mNP2S_Flag: the battery writes mNP2S too
    const char* suffix; // appended to "ClosePairs NP" and the other names
};
struct BitMatchRow {
    const char* battery;
    int number;
    long N, n;
    int r, t;
    const char* name; // its p-value is pVal[snpair_BM]
};
std::vector<ClosePairsRow> close_pairs_rows();
std::vector<BitMatchRow> bit_match_rows();

// A row's p-values, named and ordered as bbattery.c's GetPVal_CPairs (its N argument is more
// than 1 in every row) and ClosePairsBitMatch's rows write them, with n points instead of the
// row's n and N replications instead of the row's N.
std::vector<NativeStatistic> close_pairs_statistics(
    Numbers& in, const ClosePairsRow& row, long N, long n, int threads);
std::vector<NativeStatistic> bit_match_statistics(
    Numbers& in, const BitMatchRow& row, long N, long n, int threads);

} // namespace rngvet::native
