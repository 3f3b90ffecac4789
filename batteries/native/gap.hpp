// Native forms of TestU01's sknuth_Gap, sknuth_SimpPoker and sknuth_CouponCollector (sknuth.c):
// the same numbers consumed in the same order (Gap and CouponCollector stop after a count that
// depends on the numbers, exactly where TestU01's function stops), the same counts, and the
// chi-square statistics and p-values computed by TestU01's own library from those counts.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <array>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
}

namespace rngvet::native {

// What TestU01's function leaves in its sres_Chi2.
struct Chi2Outcome {
    // sVal1->V[1..NObs]: the chi-square value of each replication. gofw_ActiveTests2 sorts them
    // in place, so after a complete test they are in increasing order, as in TestU01.
    std::vector<double> sval1;
    std::array<double, gofw_NTestTypes> sval2{};
    std::array<double, gofw_NTestTypes> pval2{};
    long degrees_of_freedom = 0; // res->degFree
    long jmin = 0; // res->jmin, res->jmax: the classes of the chi-square
    long jmax = 0;
    std::vector<long> counts; // res->Count[0..jmax]: the observed numbers of the last replication
    // sknuth_Gap only: a gap of length >= n stopped the test (TestU01 then sets the p-values of
    // Mean, AD, KSM and KSP to 0).
    bool interrupted = false;
};

// sknuth_Gap(gen, res, N, n, r, Alpha, Beta): N replications of n gaps between visits of
// unif01_StripD(gen, r) to [Alpha, Beta).
Chi2Outcome gap_test(Numbers& in, long N, long n, int r, double alpha, double beta);

// sknuth_SimpPoker(gen, res, N, n, r, d, k): N replications of n hands of k values
// unif01_StripL(gen, r, d), classed by their number of distinct values.
Chi2Outcome simp_poker_test(Numbers& in, long N, long n, int r, int d, int k);

// sknuth_CouponCollector(gen, res, N, n, r, d): N replications of n segments of values
// unif01_StripL(gen, r, d), each as long as it takes to see all d values (at most 61 numbers).
Chi2Outcome coupon_collector_test(Numbers& in, long N, long n, int r, int d);

// How the tests convert a number: true (the default) with integer forms of unif01_StripD and
// unif01_StripL wherever they give the same values exactly (words of at most 53 bits), false
// with TestU01's floating-point operations throughout (for the exactness tests of both).
void set_integer_forms(bool on);

// A battery row of this family (bbattery.c): which test, with which parameters (N = 1), and the
// name the battery gives its p-value, pVal2[gofw_Mean].
struct GapRow {
    enum Test { gap, simp_poker, coupon_collector };
    const char* battery; // "smallcrush", "crush", "bigcrush"
    int number;
    const char* name;
    Test test;
    long n;
    int r;
    int d; // SimpPoker, CouponCollector
    int k; // SimpPoker
    double alpha; // Gap
    double beta; // Gap
};

// Every battery row of this family, battery by battery in test-number order; gap_tests()
// registers them, each running run_row(row, in, row.n).
const std::vector<GapRow>& gap_rows();

// The row's test on `in` with n numbers of hands, gaps or segments instead of row.n.
std::vector<NativeStatistic> run_row(const GapRow& row, Numbers& in, long n);

} // namespace rngvet::native
