// Native swalk_RandomWalk1 (TestU01's swalk.c): random walks of L steps, one step per bit of
// unif01_StripB(gen, r, s), the statistics H (number of +1 steps), M (maximum), J (time spent
// above 0, counted at odd times), R (returns to 0) and C (sign changes) counted over n walks and
// compared with their expected numbers by chi-square tests, N replications.
//
// The walks are counted natively (8 steps at a time through tables, walks in parallel; on the
// CUDA device a stream runs on, one walk per device thread, device_walks.hpp); the
// expected numbers, the merging of classes, the chi-square statistics and the p-values are
// TestU01's (its CalcNbExp operation for operation, gofs_Chi2, gofw_ActiveTests2,
// sres_GetChi2SumStat), so the p-values are TestU01's bit for bit.
#pragma once

#include "native.hpp"

#include <array>
#include <string>
#include <vector>

namespace rngvet::native {

// swalk_RandomWalk1's parameters: N replications of n walks; bits r + 1 .. r + s of each
// number; walk lengths L0, L0 + 2, ..., L1 (all even, 0 < L0 <= L1; 1 <= s <= 32, r >= 0,
// r + s <= 52 as TestU01 asserts).
struct RandomWalkParams {
    long N = 1;
    long n = 0;
    int r = 0;
    int s = 32;
    long L0 = 0;
    long L1 = 0;
};

// One statistic at one walk length: the fields of TestU01's sres_Chi2 after the test.
struct RandomWalkChi2 {
    static constexpr int test_types = 11; // gofw_NTestTypes
    long deg_free = 0;
    long jmin = 0;
    long jmax = 0;
    std::vector<double> nb_exp; // NbExp[0..jmax] after the merging of classes
    std::vector<long> count; // Count[0..jmax] of the last replication
    std::vector<double> values; // sVal1: the N chi-square statistics, as TestU01 leaves them
    std::array<double, test_types> sval2{};
    std::array<double, test_types> pval2{};
};

// The five statistics in swalk.c's order of types: H, M, J, R, C.
enum RandomWalkStatistic { walk_H, walk_M, walk_J, walk_R, walk_C, walk_statistics };

struct RandomWalkLength {
    long L = 0;
    std::array<RandomWalkChi2, walk_statistics> stat;
};

struct RandomWalkResult {
    // False when TestU01 returns at once (n < 3 gofs_MinExpected): nothing was read.
    bool done = false;
    std::vector<RandomWalkLength> lengths; // L0, L0 + 2, ..., L1
};

// swalk_RandomWalk1(gen, res, N, n, r, s, L0, L1) on the next numbers of `in`. Throws
// std::invalid_argument for parameters TestU01 rejects (util_Assert) and std::domain_error,
// before reading anything, where TestU01 would end the process later in the test (fewer than
// 2 classes for a chi-square). threads: the threads counting the walks (<= 0: threads()).
RandomWalkResult random_walk1(Numbers& in, const RandomWalkParams& p, int threads = 0);

// The p-values bbattery.c's GetPVal_Walk takes from a result (walk length L0): H, M, J, R, C,
// pVal2[gofw_Mean] when N = 1 and pVal2[gofw_Sum] otherwise, named "RandomWalk1 H" + suffix.
std::vector<NativeStatistic> walk_pvalues(
    const RandomWalkResult& res, long N, const std::string& suffix);

// A battery row of this family: its TestU01 call's parameters and GetPVal_Walk's suffix.
struct RandomWalkRow {
    const char* battery;
    int number;
    RandomWalkParams params;
    const char* suffix;
};
// Every row, in random_walk_tests()'s order.
const std::vector<RandomWalkRow>& random_walk_rows();

} // namespace rngvet::native
