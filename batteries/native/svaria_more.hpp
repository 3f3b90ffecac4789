// Native forms of svaria_SampleProd, svaria_SampleMean, svaria_SampleCorr,
// svaria_AppearanceSpacings and svaria_SumCollector (native.hpp): the same numbers read in the
// same order, the same statistics and the same p-values, bit for bit, as TestU01's functions
// (svaria.c), written into TestU01's own result records so that every field can be compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/sres.h>
}

namespace rngvet::native {

// svaria_SampleProd(gen, res, N, n, r, t) on the next N n t numbers of `in`: the n products of t
// uniforms of each replication against their distribution (Anderson-Darling and the other
// active tests of gofw), then the N Anderson-Darling p-values against the uniform law.
void sample_prod(Numbers& in, sres_Basic* res, long N, long n, int r, int t, int threads);

// svaria_SampleMean(gen, res, N, n, r) on the next N n numbers: the N sums of n uniforms against
// their exact law (n < 60) or its normal approximation. Needs n > 1.
void sample_mean(Numbers& in, sres_Basic* res, long N, long n, int r, int threads);

// svaria_SampleCorr(gen, res, N, n, r, k) on the next N n numbers: the standardized sum of the
// products of the numbers at lag k of each replication, against the normal law. Needs n > 2 and
// 1 <= k < n (TestU01 reads k numbers, not n, per replication where k >= n).
void sample_corr(Numbers& in, sres_Basic* res, long N, long n, int r, int k, int threads);

// svaria_AppearanceSpacings(gen, res, N, Q, K, r, s, L): Maurer's test on blocks of L bits made
// of s bits per number (L >= s: ceil(L / s) numbers per block; s > L: s / L blocks per number),
// Q blocks to initialize the table of last appearances, K to test. Needs 0 < s < 32, 0 < L < 32,
// r >= 0, and s a multiple of L where s > L.
void appearance_spacings(
    Numbers& in, sres_Basic* res, long N, long Q, long K, int r, int s, int L, int threads);

// svaria_SumCollector(gen, res, N, n, r, g): the number of uniforms whose sum first exceeds g,
// n times per replication, against its law; reads as many numbers as that takes, as TestU01
// does. Needs 1 <= g <= 10. Like TestU01, leaves res's degFree below 1 and reads nothing when
// the classes merge into one.
void sum_collector(Numbers& in, sres_Chi2* res, long N, long n, int r, double g, int threads);

// The battery rows (bbattery.c): a test's parameters and the p-value the battery writes.
enum class SvariaTest { SampleProd, SampleMean, SampleCorr, AppearanceSpacings, SumCollector };
struct SvariaRow {
    const char* battery;
    int number;
    SvariaTest test;
    long N;
    long n; // AppearanceSpacings: Q
    long K; // AppearanceSpacings only
    int r;
    int t; // SampleProd's t, SampleCorr's k, AppearanceSpacings' s
    int L; // AppearanceSpacings only
    double g; // SumCollector only
    int pick; // the gofw_ index of pVal2 the battery writes
    const char* name; // bbattery_TestNames
};
std::vector<SvariaRow> svaria_more_rows();

// A row's p-value, named as the battery names it, with the row's parameters as given (the
// registered rows run with bbattery.c's).
std::vector<NativeStatistic> svaria_more_statistics(Numbers& in, const SvariaRow& row, int threads);

} // namespace rngvet::native
