// Native sstring_HammingIndep (TestU01's sstring.c): the Hamming weights of successive blocks of
// L bits, taken s bits at a time from each number after dropping its r most significant bits,
// counted in non-overlapping pairs, then a chi-square test on the (L + 1) x (L + 1) table of
// pairs and, for d > 0, on its diagonal blocks. The same numbers as TestU01's function, the same
// statistics and the same p-values, bit for bit.
#pragma once

#include "native.hpp"

#include <array>
#include <vector>

namespace rngvet::native {

// sstring_HammingIndep (gen, res, N, n, r, s, L, d).
struct HammingIndepParams {
    long N = 1; // replications
    long n = 0; // pairs of blocks per replication
    int r = 0; // bits dropped from the top of each number
    int s = 32; // bits taken from each number
    int L = 32; // bits in a block
    int d = 0; // diagonal blocks tested (0 to sstring_MAXD, at most (L + 1) / 2)
};

// What TestU01 leaves in an sres_Basic: the observations (sVal1, in increasing order once
// gofw_ActiveTests2 has sorted them) and the gofw arrays sVal2/pVal2, indexed as gofw_TestType
// (gofw_Mean, gofw_Sum...).
struct HammingIndepBasic {
    std::vector<double> observations;
    std::vector<double> sval2;
    std::vector<double> pval2;
};

struct HammingIndepResult {
    // False when n < 2 gofs_MinExpected: TestU01 then warns and returns before reading anything.
    bool ran = false;
    int liber = 0; // degrees of freedom of the main test
    HammingIndepBasic main; // res->Bas
    std::vector<HammingIndepBasic> blocks; // res->Block[1..d], as blocks[0..d-1]
    // res->Counters of the last replication, (L + 1) x (L + 1), row-major: [previous][next].
    std::vector<long> counters;
    // res->XD[1..d] of the last replication, as xd[0..d-1].
    std::vector<std::array<long, 2>> xd;
};

// Runs the test on the next numbers of `in` with `threads` threads (0: native::threads()).
// Throws std::invalid_argument for parameters TestU01 refuses (util_Assert) and for r + s > 32.
HammingIndepResult hamming_indep(Numbers& in, const HammingIndepParams& p, int threads = 0);

// The battery rows of this family (bbattery.c): which p-value each writes and its name.
struct HammingIndepRow {
    const char* battery;
    int number;
    const char* name;
    HammingIndepParams params;
    bool sum; // pVal2[gofw_Sum] (N > 1 rows of BigCrush), else pVal2[gofw_Mean]
};
const std::vector<HammingIndepRow>& hamming_indep_rows();
// A row run with its own parameters except n: the p-value bbattery.c would write.
std::vector<NativeStatistic> run_hamming_indep_row(
    Numbers& in, const HammingIndepRow& row, long n, int threads = 0);

} // namespace rngvet::native
