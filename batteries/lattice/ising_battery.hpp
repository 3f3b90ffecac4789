// The lattice battery ising: the 2D Ising model on the periodic L x L lattice simulated with the
// run's numbers, its energy and specific heat compared with Kaufman's exact finite-lattice values
// (kaufman.hpp): the test of A. M. Ferrenberg, D. P. Landau and Y. J. Wong, Phys. Rev. Lett. 69,
// 3382 (1992), in which R250 fails the Wolff algorithm (docs/batteries.md, "ising").
//
// Test 1 runs Wolff single-cluster updates, test 2 checkerboard Metropolis sweeps, test 3
// Swendsen-Wang sweeps (ising.hpp states each algorithm's numbers, their count and order).
// Each test makes `reps` replicas one after another on the test's numbers: each starts from all
// spins up, makes `therm` steps, then `steps` measured steps (a step: one Wolff cluster, one
// sweep), and reads exactly the numbers its steps use (GetU01, one call per number), so that the
// next replica starts at the next number (a Metropolis replica on a feed whose stream runs on a
// CUDA device reads the same numbers there, ising.hpp's run_ising_replica_on_device). With `lanes`
// M > 1 (the per-site mode, ising.hpp) a replica reads whole rounds of M numbers and site or bond i
// draws from lane i mod M; under an interleaved configuration of M instances lane k is instance k.
// With own=1 (the own-lanes mode, ising.hpp) the test's replicas run together instead, replica r
// (0-based) on lane r of the M >= R lanes alone, reading blocks of ising_own_block_rounds rounds
// until every replica is done (its Wolff replicas on the device where the feed's stream is
// generated on one, ising.hpp's run_ising_own_lanes_on_device); under an interleaved
// configuration of M instances replica r reads instance r's numbers, and R may reach 65536.
// Per replica i the chain gives the mean energy E_i and specific heat C_i with their standard
// errors e_i, c_i from 64 blocks of consecutive steps (block means for E, the jackknife for C;
// ising.hpp). The test writes, in this order:
//
//   1. "E over replicas": t = (mean E_i - E) / (s / sqrt R), s the replicas' standard
//      deviation, E Kaufman's exact value; two-sided p-value of Student's t with R - 1 degrees
//      of freedom;
//   2. "C over replicas": the same for C;
//   3. "E from blocks": t = sum (E_i - E) / sqrt(sum e_i^2); two-sided Student p-value with
//      63 R degrees of freedom (the blocks');
//   4. "C from blocks": the same for C with the c_i;
//   5 .. R + 4. "E rep i": t_i = (E_i - E) / e_i, two-sided Student p-value with 63 degrees of
//      freedom;
//   R + 5 .. 2 R + 4. "C rep i": the same for C_i and c_i.
//
// Statistics 1 and 2 need nothing but independent replicas; 3 to 2 R + 4 also need blocks far
// longer than the autocorrelation time, and have the power (R250 and Wolff: statistic 4).
#pragma once

#include "batteries/catalogue.hpp"
#include "batteries/lattice/ising.hpp"
#include "batteries/records.hpp" // BatteryResult

#include <string>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

namespace rngvet {

// The algorithm of ising test `test` (1: Wolff, 2: Metropolis, 3: Swendsen-Wang); throws
// std::out_of_range otherwise.
lattice::IsingAlgorithm ising_algorithm(int test);

// Two-sided p-value of t under Student's law with `degrees` degrees of freedom; a zero error
// (t = 0/0, every measurement equal) gives 1 when the estimate is exact and 0 otherwise.
double ising_student_pvalue(double estimate, double error, double exact, long degrees);

struct IsingStatistics {
    lattice::IsingExact exact;
    double energy_mean = 0, energy_spread_error = 0, energy_blocks_error = 0;
    double heat_mean = 0, heat_spread_error = 0, heat_blocks_error = 0;
    // The test's p-values in the order above (4 + 2 R of them).
    std::vector<double> pvalues;
};

// The statistics of the replicas' results (at least two) against the exact values.
IsingStatistics ising_statistics(
    const std::vector<lattice::ReplicaResult>& replicas, const lattice::IsingExact& exact);

// The names of the test's statistics, in the order of IsingStatistics::pvalues.
std::vector<std::string> ising_statistic_names(int test, int reps);

// Runs the replicas of test `test` one after another on `gen` (GetU01), as the battery does.
std::vector<lattice::ReplicaResult> ising_replicas(
    unif01_Gen* gen, const BatteryCatalogue& battery, int test);

// What battery.cpp's run_battery does for the ising battery: the tests numbered in `tests` (all
// when empty), in order, on one generator. A report of each replica goes to `log_path` (none
// when empty).
BatteryResult run_ising(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path);

// Recorded as the run's "TestU01 version" for ising runs: the battery is rngvet's own (it uses
// TestU01's Student distribution for its p-values). Changes when the statistics or the
// algorithms' use of numbers change.
inline constexpr const char* ising_version = "rngvet ising 1";

} // namespace rngvet
