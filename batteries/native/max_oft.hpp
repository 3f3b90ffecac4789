// Native forms of sknuth_MaxOft and svaria_WeightDistrib (native.hpp): the same numbers read in
// the same order, the same statistics and the same p-values, bit for bit, as TestU01's
// functions, written into TestU01's own result records so that every field can be compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/sknuth.h>
#include <testu01/sres.h>
}

namespace rngvet::native {

// sknuth_MaxOft(gen, res, N, n, r, d, t) on the next N * n * t numbers of `in`: res->Chi holds
// the chi-square test on the d classes of max^t, res->Bas the Anderson-Darling test of the n
// maxima against x^t (TestU01's fields: sVal1/pVal1 per replication, sVal2/pVal2 of the N).
// Its replications' groups are computed on `threads` threads.
void max_oft(Numbers& in, sknuth_Res1* res, long N, long n, int r, int d, int t, int threads);

// svaria_WeightDistrib(gen, res, N, n, r, k, alpha, beta) on the next N * n * k numbers of
// `in`: the chi-square test of the counts of k uniforms in [alpha, beta) against the binomial
// law. Like TestU01, it leaves res's degFree below 1 and reads nothing when the classes merge
// into one (TestU01's gofs_MergeClasses then prints its warning, as it does for TestU01's test).
void weight_distrib(Numbers& in, sres_Chi2* res, long N, long n, int r, long k, double alpha,
    double beta, int threads);

// The battery rows (bbattery.c): a test's parameters and the p-values the battery writes.
struct MaxOftRow {
    const char* battery;
    int number;
    long N, n;
    int r, d, t;
    int chi_pick, ad_pick; // the gofw_ index of res->Chi->pVal2 and res->Bas->pVal2
    const char* suffix; // appended to "MaxOft" and "MaxOft AD"
};
struct WeightDistribRow {
    const char* battery;
    int number;
    long N, n;
    int r;
    long k;
    double alpha, beta;
    const char* name; // its p-value is pVal2[gofw_Mean]
};
std::vector<MaxOftRow> max_oft_rows();
std::vector<WeightDistribRow> weight_distrib_rows();

// A row's p-values, named as the battery names them, with n numbers' groups instead of the
// row's n (the registered rows run with the row's n).
std::vector<NativeStatistic> max_oft_statistics(
    Numbers& in, const MaxOftRow& row, long n, int threads);
std::vector<NativeStatistic> weight_distrib_statistics(
    Numbers& in, const WeightDistribRow& row, long n, int threads);

} // namespace rngvet::native
