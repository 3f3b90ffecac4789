// Native forms of four bit-string tests of TestU01's sstring.c (native.hpp):
// sstring_LongestHeadRun, sstring_PeriodsInStrings, sstring_HammingWeight2 and sstring_HammingCorr.
// Each takes s bits of every number after dropping its r most significant (unif01_StripB) and
// counts bits in them; the native forms count with word operations (popcount, shifts, leading and
// trailing ones) instead of one bit at a time, read the numbers in blocks and count on several
// threads, and write TestU01's own result records with the same statistics and p-values, bit for
// bit.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/sres.h>
#include <testu01/sstring.h>
}

namespace rngvet::native {

// sstring_LongestHeadRun(gen, res, N, n, r, s, L) on the next N * n * (L / s) numbers of `in`:
// res->Chi the chi-square test of the longest run of ones in each of the n sequences of
// (L / s) * s bits, res->Disc the longest run over all of them. Like TestU01 it reads nothing
// when the chi-square classes merge into one (res->Chi->degFree <= 0). Throws
// std::invalid_argument where TestU01 stops (L / s * s < 1000) and for r + s > 32.
void longest_head_run(
    Numbers& in, sstring_Res2* res, long N, long n, int r, int s, long L, int threads = 0);

// sstring_PeriodsInStrings(gen, res, N, n, r, s) on the next N * n numbers of `in`: the
// chi-square test of the counts of the autocorrelations (sets of periods) of n strings of s
// bits. Like TestU01 it reads nothing and leaves res as it was, but for its degFree, when the
// classes merge into one. Throws std::invalid_argument for parameters TestU01 refuses.
void periods_in_strings(Numbers& in, sres_Chi2* res, long N, long n, int r, int s, int threads = 0);

// sstring_HammingWeight2(gen, res, N, n, r, s, L): per replication the sum over n / L blocks of
// L bits of (4 / L) (weight - L / 2)^2, a chi-square with n / L degrees of freedom.
// Throws std::invalid_argument for parameters TestU01 refuses.
void hamming_weight2(
    Numbers& in, sres_Basic* res, long N, long n, int r, int s, long L, int threads = 0);

// sstring_HammingCorr(gen, res, N, n, r, s, L): the correlation of the weights of successive
// blocks of L bits, n blocks per replication (res is TestU01's res->Bas). `counters`, where not
// null, receives the last replication's res->Counters[0..L][0..L], row-major.
// Throws std::invalid_argument for r + s > 32, s < 1, L < 1 or n < 1.
void hamming_corr(Numbers& in, sres_Basic* res, std::vector<long>* counters, long N, long n, int r,
    int s, int L, int threads = 0);

// The battery rows (bbattery.c).
enum class SstringBitsTest { LongestHeadRun, PeriodsInStrings, HammingWeight2, HammingCorr };
struct SstringBitsRow {
    const char* battery;
    int number;
    SstringBitsTest test;
    long N, n;
    int r, s;
    long L; // LongestHeadRun, HammingWeight2, HammingCorr
    const char* name;
    // The pVal2 entry written (gofw_Mean or gofw_Sum); LongestHeadRun writes res->Chi's, then
    // res->Disc->pVal2 under the same name.
    int pick;
};
const std::vector<SstringBitsRow>& sstring_bits_rows();

// A row's p-values, named as the battery names them, with n instead of the row's n and, for
// LongestHeadRun and HammingWeight2, L instead of the row's L where L > 0 (the registered rows
// run with the row's own n and L).
std::vector<NativeStatistic> sstring_bits_statistics(
    Numbers& in, const SstringBitsRow& row, long n, long L = 0, int threads = 0);

} // namespace rngvet::native
