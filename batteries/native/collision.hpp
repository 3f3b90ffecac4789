// Native forms of TestU01's collision tests: sknuth_Collision (smultin_Multinomial with the
// collision statistic, cells from smultin_GenerCellSerial) and smarsa_CollisionOver
// (smultin_MultinomialOver, overlapping t-tuples). The number of collisions of each replication
// is computed here (cells partitioned by their high bits, then counted bucket by bucket, in
// parallel); everything after the counts goes through TestU01's own functions, in the order of
// smultin.c (see collision.cpp).
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <cstdint>
#include <vector>

namespace rngvet::native {

// What sknuth_Collision and smarsa_CollisionOver leave in their result records.
struct CollisionResult {
    // The statistic of each replication (sres_Poisson's sVal1): the number of collisions, or
    // for CollisionOver the number of empty cells (dense Poisson case) or the standardized
    // number of collisions (normal case).
    std::vector<double> values;
    double collisions = 0; // total number of collisions (smultin_Res's NbCollisions)
    std::uint64_t empty_cells = 0; // total number of empty cells (NbCells[0]; CollisionOver)
    double mu = 0; // smultin_Res's Mu[0] (sres_Poisson's Lambda)
    int approximation = 0; // CollisionOver: smultin_CollApproxType
    double s_val2_poisson = -1; // sres_Poisson's sVal2
    double p_left = -1, p_right = -1; // sres_Poisson's pLeft, pRight
    double p_value = -1; // sres_Poisson's pVal2 (smultin_Res's pColl)
    std::vector<double> s_val2, p_val2; // sres_Basic's sVal2, pVal2 (gofw_NTestTypes each)
};

// sknuth_Collision(gen, res, N, n, r, d, t): N replications of n cells, each made of t numbers
// (unif01_StripL(r, d) each); reads N n t numbers. Needs n > 4, 2 <= d <= 2^32, 1 <= t,
// d^t <= 2^63, and for N > 1 the expected number of collisions below smultin_env.SeuilEColl
// (TestU01 leaves its p-value undefined otherwise). Throws std::invalid_argument otherwise,
// before reading anything.
CollisionResult collision(Numbers& in, long N, long n, int r, long d, int t, int threads);

// smarsa_CollisionOver(gen, res, N, n, r, d, t): N replications of n numbers, the n overlapping
// (circular) t-tuples of each. Needs n > 4, t <= n, 2 <= d <= 2^32, 2 <= t < 64, d^t <= 2^63, and
// a density (n - t + 1) / d^t for which TestU01 has an approximation (sparse Poisson below
// SeuilCOverSparse, normal in [SeuilCOverNorInf, SeuilCOverNorSup], dense Poisson in
// (SeuilCOverNorSup, SeuilCOverDense)); throws std::invalid_argument otherwise.
CollisionResult collision_over(Numbers& in, long N, long n, int r, long d, int t, int threads);

// The number of distinct values among keys, each below k <= 2^63: the count both tests are made
// of (the same partition and bucket counts), for testing it on chosen keys.
std::uint64_t distinct_count(const std::vector<std::uint64_t>& keys, std::uint64_t k, int threads);

// The battery rows of this family: bbattery.c's parameters and names.
struct CollisionRow {
    const char* battery;
    int number;
    const char* name; // bbattery_TestNames
    bool over; // smarsa_CollisionOver (else sknuth_Collision)
    long N, n;
    int r;
    long d;
    int t;
};
const std::vector<CollisionRow>& collision_rows();
// Runs a row with its parameters, except n (the row's own n for the battery).
std::vector<NativeStatistic> run_collision_row(
    const CollisionRow& row, Numbers& in, long n, int threads);

} // namespace rngvet::native
