// The application battery mcpi: the Monte Carlo integration these generators were used for,
// pi from the fraction of uniform points that fall inside the unit circle, as a battery of
// statistics with known laws (docs/batteries.md, "mcpi").
//
// Test 1 takes points of two consecutive uniforms (the quarter circle: a point hits with
// probability pi/4), test 2 points of three (the octant of the unit ball: pi/6). Each test
// makes `reps` replications of `points` points; the hits h_i of replication i are
// Binomial(points, p) for a sound generator, and the test writes, in this order:
//
//   1. "all points": z = (H - R N p) / sqrt(R N p (1 - p)) of the hits H over all replications,
//      two-sided normal p-value erfc(|z| / sqrt 2);
//   2. "ChiSq of z": X = sum of z_i^2 over the replications, z_i as in 1 for replication i;
//      p-value P[chi-square(R) >= X] (TestU01's fbar_ChiSquare2);
//   3. "AD of Phi(z)": Anderson-Darling A^2 of the R values Phi(z_i); p-value
//      P[A^2(R) >= A^2] (TestU01's fbar_AndersonDarling);
//   4 .. R + 3. "rep i": the two-sided normal p-value of z_i.
//
// Coordinates are the uniforms as TestU01's GetU01 reads them, u = x * 2^-bits in [0, 1); a
// point hits when u_1^2 + ... + u_d^2 < 1, decided exactly in integers.
#pragma once

#include "catalogue.hpp"
#include "records.hpp" // BatteryResult

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

namespace rngvet {

// The point's dimension in mcpi test `test` (1: 2, 2: 3); throws std::out_of_range otherwise.
int mcpi_dimension(int test);
// The probability that a point of d uniforms lies inside the unit sphere: pi/4 (d = 2), pi/6
// (d = 3).
double mcpi_hit_probability(int dimension);

// Whether the point u_k = x[k] * 2^-64 (k < dimension) satisfies u_1^2 + ... + u_d^2 < 1,
// decided exactly (128-bit integer arithmetic).
bool mcpi_inside(const std::uint64_t* x, int dimension);

struct McpiStatistics {
    double z_total = 0, p_total = 0; // 1. all points
    double chi2 = 0, p_chi2 = 0; // 2. sum of z_i^2
    double ad = 0, p_ad = 0; // 3. Anderson-Darling of Phi(z_i)
    std::vector<double> z, p; // per replication: z_i and its two-sided p-value
    // The test's p-values in the order of the catalogue (1, 2, 3, then the replications).
    std::vector<double> pvalues() const;
};

// The statistics of the hits per replication (each of `points` points of `dimension`
// coordinates).
McpiStatistics mcpi_statistics(
    const std::vector<std::uint64_t>& hits, std::uint64_t points, int dimension);

// The names of the test's statistics, in the order of McpiStatistics::pvalues().
std::vector<std::string> mcpi_statistic_names(int test, int reps);

// Reads reps x points x dimension uniforms from `gen` (GetU01, in order: replication by
// replication, each point's coordinates consecutive) and returns the hits per replication.
std::vector<std::uint64_t> mcpi_count(
    unif01_Gen* gen, std::uint64_t points, int reps, int dimension);

// What battery.cpp's run_battery does for the mcpi battery: the tests numbered in `tests` (all
// when empty), in order, on one generator. A short report of the estimates goes to `log_path`
// (none when empty).
BatteryResult run_mcpi(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path);

// Recorded as the run's "TestU01 version" for mcpi runs: the battery is rngvet's own (it uses
// TestU01's distribution functions for two p-values). Changes when the statistics change.
inline constexpr const char* mcpi_version = "rngvet mcpi 1";

} // namespace rngvet
