// Native forms of TestU01's tests of the order of successive uniforms (sknuth.c): sknuth_Run
// (the lengths of the ascending or descending runs), sknuth_Permutation (the chi-square test of
// the t! orders of t numbers, smultin_Multinomial with smultin_GenerCellPermut) and
// sknuth_CollisionPermut (the collision test on those same cells). The same numbers read in the
// same order, the same statistics and the same p-values, bit for bit, as TestU01's functions,
// written into TestU01's own result records so that every field can be compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <cstdint>
#include <vector>

extern "C" {
#include <testu01/sknuth.h>
#include <testu01/sres.h>
}

namespace rngvet::native {

// sknuth_Run(gen, res, N, n, r, Up) on the next N * n numbers of `in`: N replications of the
// counts of runs (ascending where up, else descending) of lengths 1, ..., 5 and >= 6 among n
// values unif01_StripD(r), their modified chi-square statistic and its p-values. Like TestU01 it
// reads nothing and leaves res untouched when n < 600.
void run_test(Numbers& in, sres_Chi2* res, long N, long n, int r, bool up, int threads);

// sknuth_Permutation(gen, res, N, n, r, t) on the next N * n * t numbers: N replications of n
// cells, each the order of t values unif01_StripD(r) (smultin_GenerCellPermut, t! cells), and
// the chi-square test of their counts (smultin_Multinomial, Sparse = FALSE). Needs 2 <= t <= 20
// and n > 4; throws std::invalid_argument otherwise, before reading anything.
void permutation_test(Numbers& in, sres_Chi2* res, long N, long n, int r, int t, int threads);

// sknuth_CollisionPermut(gen, res, N, n, r, t) on the next N * n * t numbers: the number of
// collisions among those cells (smultin_Multinomial, Sparse = TRUE, the collision statistic).
// Needs 2 <= t <= 20 and n > 4, and for N > 1 a mean number of collisions (t! > 2 and
// n / t! <= 8) below smultin_env.SeuilEColl (TestU01 leaves its p-value undefined otherwise);
// throws std::invalid_argument otherwise, before reading anything.
void collision_permut_test(
    Numbers& in, sknuth_Res2* res, long N, long n, int r, int t, int threads);

// The cell smultin_GenerCellPermut gives for t values (t <= 20) ordered as `keys` (keys[0] the
// first value read): for t down to 2, the position of the first greatest of the first i values,
// which then takes the i-th value's place. Exposed for testing on chosen keys (ties).
std::uint64_t permutation_cell(const std::uint64_t* keys, int t);

// The battery rows (bbattery.c): a test's parameters and the name of the p-value the battery
// writes (pVal2[pick] of Run and Permutation, Pois->pVal2 of CollisionPermut).
struct OrderRow {
    enum Test { run, permutation, collision_permut };
    const char* battery;
    int number;
    Test test;
    long N, n;
    int r;
    int t; // Permutation and CollisionPermut
    bool up; // Run
    int pick; // gofw_ index (Run and Permutation)
    const char* name;
};
std::vector<OrderRow> order_rows();

// A row's p-value, named as the battery names it, with n instead of the row's n (the
// registered rows run with the row's n) and N replications.
std::vector<NativeStatistic> order_statistics(
    Numbers& in, const OrderRow& row, long N, long n, int threads);

} // namespace rngvet::native
