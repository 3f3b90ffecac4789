// Native sstring_Run, sstring_AutoCor (TestU01's sstring.c) and scomp_LempelZiv (scomp.c): tests
// on the bit string made of s bits of each number (after dropping its r most significant bits),
// most significant first. Run counts the runs of 0s and 1s by length until n runs of 1s have
// begun; AutoCor counts the bits that differ from the bit d places further; LempelZiv counts the
// phrases of the LZ78 parse of 2^t bits. The same numbers as TestU01's functions, the same
// statistics and the same p-values, bit for bit.
#pragma once

#include "native.hpp"

#include <cstdint>
#include <vector>

namespace rngvet::native {

// What TestU01 leaves in an sres_Basic or the sres_Basic part of an sres_Chi2: the observations
// (sVal1, in increasing order once gofw_ActiveTests2 has sorted them), the p-values of the
// observations (pVal1) and the gofw arrays sVal2/pVal2, indexed as gofw_TestType.
struct BitRunsBasic {
    std::vector<double> observations;
    std::vector<double> pvalues;
    std::vector<double> sval2;
    std::vector<double> pval2;
};

// sstring_Run (gen, res, N, n, r, s).
struct RunParams {
    long N = 1; // replications
    long n = 0; // runs of 1s a replication waits for (it stops at the first number after them)
    int r = 0;
    int s = 32;
};

struct RunResult {
    // False when the chi-square has no degree of freedom (TestU01 warns and returns before
    // reading anything).
    bool ran = false;
    // True when a run reached n bits ("all bits are 0"): TestU01 warns and returns in the
    // middle of a replication, with the p-values as initialised (-1).
    bool interrupted = false;
    int k = 0; // the last class of run lengths (res->NRuns->jmax)
    long degrees_of_freedom = 0; // res->NRuns->degFree
    std::vector<double> expected; // res->NRuns->NbExp[1..k], as expected[0..k-1]
    BitRunsBasic runs; // res->NRuns
    BitRunsBasic bits; // res->NBits
    // res->Count0[1..k] and res->Count1[1..k] of the last replication (runs of 0s and of 1s by
    // length, the last class holding every run of k bits or more), as [0..k-1].
    std::vector<long> count0, count1;
    double bits_read = 0; // cob of the last replication
    long runs_of_ones = 0; // cor of the last replication
};

// Runs sstring_Run on the next numbers of `in` with `threads` threads (0: native::threads()).
// Throws std::invalid_argument for parameters TestU01 refuses (util_Assert) and for n < 10.
RunResult run_of_bits(Numbers& in, const RunParams& p, int threads = 0);

// sstring_AutoCor (gen, res, N, n, r, s, d).
struct AutoCorParams {
    long N = 1;
    long n = 0; // bits (TestU01 drops (n - d) % s of them)
    int r = 0;
    int s = 32;
    int d = 1; // distance of the compared bits, 1 <= d <= n / 2
};

struct AutoCorResult {
    BitRunsBasic basic; // res
    std::vector<unsigned long> differing; // A of each replication: bits differing at distance d
};

// Throws std::invalid_argument for parameters TestU01 refuses (util_Assert).
AutoCorResult auto_cor(Numbers& in, const AutoCorParams& p, int threads = 0);

// scomp_LempelZiv (gen, res, N, t, r, s).
struct LempelZivParams {
    long N = 1;
    int t = 3; // 2^t bits per replication, 3 <= t <= 28 (TestU01's mean and deviation)
    int r = 0;
    int s = 32;
};

struct LempelZivResult {
    BitRunsBasic basic; // res
    std::vector<long> phrases; // W of each replication
};

// Throws std::invalid_argument for parameters TestU01 refuses and for t < 3 (TestU01 divides by
// a standard deviation of 0 there).
LempelZivResult lempel_ziv(Numbers& in, const LempelZivParams& p, int threads = 0);

// The battery rows of this family (bbattery.c): which p-values each writes and their name.
enum class BitRunsTest { run, auto_cor, lempel_ziv };
struct BitRunsRow {
    const char* battery;
    int number;
    const char* name;
    BitRunsTest test;
    long N;
    long n; // Run, AutoCor: n; LempelZiv: t
    int r;
    int s;
    int d; // AutoCor only
};
const std::vector<BitRunsRow>& bit_runs_rows();
// A row run with its own parameters except n (or t): the p-values bbattery.c would write (Run:
// NRuns's pVal2[gofw_Mean], then NBits's; AutoCor and LempelZiv: pVal2[gofw_Sum]).
std::vector<NativeStatistic> run_bit_runs_row(
    Numbers& in, const BitRunsRow& row, long n, int threads = 0);

} // namespace rngvet::native
