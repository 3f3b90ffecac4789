// Native forms of smarsa_SerialOver (smultin_MultinomialOver with the chi-square statistic, dense
// case), smarsa_Savir2 and smarsa_GCD (native.hpp): the same numbers read in the same order, the
// same statistics and the same p-values, bit for bit, as TestU01's functions, written into
// TestU01's own result records (sres_Basic, sres_Chi2, smarsa_Res2) so that every field can be
// compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/smarsa.h>
#include <testu01/sres.h>
}

namespace rngvet::native {

// smarsa_SerialOver(gen, res, N, n, r, d, t): N replications of n numbers unif01_StripL(r, d),
// the chi-square statistics of their n overlapping (circular) t-tuples minus that of their
// (t - 1)-tuples. Reads N n numbers. Needs n > 4, 2 <= t <= n, 2 <= d and d^t <= 2^28, and the
// dense case of smultin_MultinomialOver (no hashing: (k - k1) < smultin_env.SeuilHash or
// n / (k - k1) >= 1, k = d^t, k1 = d^(t - 1)); throws std::invalid_argument otherwise, before
// reading anything. Throws std::runtime_error where StripL gives d (a word of more than 53 bits
// whose U rounds to 1: a cell outside TestU01's table).
void serial_over(Numbers& in, sres_Basic* res, long N, long n, int r, long d, int t, int threads);

// smarsa_Savir2(gen, res, N, n, r, m, t) on the next N n t numbers of `in`. Like TestU01, it
// leaves res's degFree below 1 and reads nothing when the classes merge into one. Needs
// n >= 2 gofs_MinExpected (else throws, before reading anything), 1 <= m < 2^31 and t >= 1.
void savir2(Numbers& in, sres_Chi2* res, long N, long n, int r, long m, int t, int threads);

// smarsa_GCD(gen, res, N, n, r, s): N replications of n pairs of unif01_StripB(r, s) values, a
// pair with a zero redrawn, each pair's GCD and number of Euclid's steps counted. Like TestU01,
// it returns without reading or touching res when n < 30 or n > 2^(1.5 s). Needs 1 <= s <= 32
// and r + s <= 32.
void gcd(Numbers& in, smarsa_Res2* res, long N, long n, int r, int s, int threads);

// The battery rows (bbattery.c): a test's parameters and the p-value the battery writes.
enum class SmarsaMoreTest { serial_over, savir2, gcd };
struct SmarsaMoreRow {
    const char* battery;
    int number;
    const char* name; // bbattery_TestNames
    SmarsaMoreTest test;
    long N, n;
    int r;
    long d; // SerialOver's d, Savir2's m (GCD: unused)
    int t; // SerialOver's and Savir2's t, GCD's s
    int pick; // the gofw_ index of pVal2 (GCD: of res->GCD->pVal2)
};
std::vector<SmarsaMoreRow> smarsa_more_rows();

// A row's p-value, named as the battery names it, with n in place of the row's n (the
// registered rows run with the row's n).
std::vector<NativeStatistic> smarsa_more_statistics(
    Numbers& in, const SmarsaMoreRow& row, long n, int threads);

} // namespace rngvet::native
