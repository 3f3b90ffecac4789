// The ising battery (ising_battery.hpp): replicas of the three Ising algorithms on the run's
// numbers, and their deviations from Kaufman's exact energy and specific heat as p-values.
#include "ising_battery.hpp"

#include "batteries/catalogue.hpp"
#include "batteries/native/source.hpp"
#include "batteries/testu01_gen.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>

extern "C" {
#include <testu01/fdist.h>
}

namespace rngvet {
namespace {

using lattice::IsingAlgorithm;
using lattice::ReplicaResult;

double mean_of(const std::vector<double>& values)
{
    double sum = 0;
    for (double v : values)
        sum += v;
    return sum / static_cast<double>(values.size());
}

// The standard error of the mean from the values' spread: sd / sqrt(count).
double spread_error(const std::vector<double>& values)
{
    const double mean = mean_of(values);
    double sum = 0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    const double count = static_cast<double>(values.size());
    return std::sqrt(sum / (count - 1) / count);
}

// The error of the mean of independent estimates with errors e_i: sqrt(sum e_i^2) / count.
double blocks_error(const std::vector<double>& errors)
{
    double sum = 0;
    for (double e : errors)
        sum += e * e;
    return std::sqrt(sum) / static_cast<double>(errors.size());
}

// GetU01 of the run's generator, one call per number (UniformSource's function form).
double draw_u01(void* context)
{
    unif01_Gen* gen = static_cast<unif01_Gen*>(context);
    return gen->GetU01(gen->param, gen->state);
}

lattice::IsingRunConfig run_config(const BatteryCatalogue& battery, int test)
{
    lattice::IsingRunConfig config;
    config.L = battery.lattice_size;
    config.K = battery.coupling;
    config.algorithm = ising_algorithm(test);
    config.thermalisation_steps = battery.thermalisation;
    config.measurement_steps = battery.steps;
    config.lanes = battery.lanes;
    config.own_lanes = battery.own;
    return config;
}

const char* algorithm_title(IsingAlgorithm algorithm)
{
    switch (algorithm) {
    case IsingAlgorithm::wolff:
        return "Wolff";
    case IsingAlgorithm::metropolis:
        return "Metropolis";
    case IsingAlgorithm::swendsen_wang:
        return "Swendsen-Wang";
    }
    return "unknown";
}

} // namespace

IsingAlgorithm ising_algorithm(int test)
{
    if (test == 1) return IsingAlgorithm::wolff;
    if (test == 2) return IsingAlgorithm::metropolis;
    if (test == 3) return IsingAlgorithm::swendsen_wang;
    throw std::out_of_range("ising has no test " + std::to_string(test) + " (tests are 1 to 3)");
}

double ising_student_pvalue(double estimate, double error, double exact, long degrees)
{
    if (!(error > 0)) return estimate == exact ? 1.0 : 0.0;
    const double t = (estimate - exact) / error;
    // The lower tail at -|t|, where the distribution function keeps its relative precision.
    return std::min(1.0, 2.0 * fdist_Student1(degrees, -std::fabs(t)));
}

IsingStatistics ising_statistics(
    const std::vector<ReplicaResult>& replicas, const lattice::IsingExact& exact)
{
    if (replicas.size() < 2) throw std::invalid_argument("ising: fewer than two replicas");
    IsingStatistics s;
    s.exact = exact;
    std::vector<double> energies, heats, energy_errors, heat_errors;
    for (const ReplicaResult& r : replicas) {
        energies.push_back(r.energy);
        heats.push_back(r.specific_heat);
        energy_errors.push_back(r.energy_error);
        heat_errors.push_back(r.specific_heat_error);
    }
    const long reps = static_cast<long>(replicas.size());
    const long block_degrees = lattice::ising_blocks - 1;
    s.energy_mean = mean_of(energies);
    s.heat_mean = mean_of(heats);
    s.energy_spread_error = spread_error(energies);
    s.heat_spread_error = spread_error(heats);
    s.energy_blocks_error = blocks_error(energy_errors);
    s.heat_blocks_error = blocks_error(heat_errors);
    s.pvalues = {
        ising_student_pvalue(s.energy_mean, s.energy_spread_error, exact.energy, reps - 1),
        ising_student_pvalue(s.heat_mean, s.heat_spread_error, exact.specific_heat, reps - 1),
        ising_student_pvalue(
            s.energy_mean, s.energy_blocks_error, exact.energy, block_degrees * reps),
        ising_student_pvalue(
            s.heat_mean, s.heat_blocks_error, exact.specific_heat, block_degrees * reps),
    };
    for (const ReplicaResult& r : replicas)
        s.pvalues.push_back(
            ising_student_pvalue(r.energy, r.energy_error, exact.energy, block_degrees));
    for (const ReplicaResult& r : replicas)
        s.pvalues.push_back(ising_student_pvalue(
            r.specific_heat, r.specific_heat_error, exact.specific_heat, block_degrees));
    return s;
}

std::vector<std::string> ising_statistic_names(int test, int reps)
{
    const std::string prefix
        = std::string("Ising ") + algorithm_title(ising_algorithm(test)) + ", ";
    std::vector<std::string> names = { prefix + "E over replicas", prefix + "C over replicas",
        prefix + "E from blocks", prefix + "C from blocks" };
    for (const char* quantity : { "E", "C" })
        for (int i = 1; i <= reps; ++i)
            names.push_back(prefix + quantity + " rep " + std::to_string(i));
    return names;
}

std::vector<ReplicaResult> ising_replicas(
    unif01_Gen* gen, const BatteryCatalogue& battery, int test)
{
    const lattice::IsingRunConfig config = run_config(battery, test);
    lattice::UniformSource source(&draw_u01, gen);
    if (battery.own) {
        // The replicas together, each on its own lane (ising.hpp's own-lanes mode): Wolff on the
        // device the feed's stream is generated on where it can, the same numbers read.
        if (config.algorithm == IsingAlgorithm::wolff)
            if (TestU01Generator* feed = TestU01Generator::of(gen)) {
                native::Numbers in(*feed);
                if (auto r = lattice::run_ising_own_lanes_on_device(config, battery.reps, in))
                    return *r;
            }
        return lattice::run_ising_own_lanes(config, battery.reps, source);
    }
    // A Metropolis replica runs on the device the feed's stream is generated on where it can
    // (ising.hpp's run_ising_replica_on_device), reading the same numbers as on the host.
    TestU01Generator* feed
        = config.algorithm == IsingAlgorithm::metropolis ? TestU01Generator::of(gen) : nullptr;
    std::vector<ReplicaResult> replicas;
    for (int i = 0; i < battery.reps; ++i) {
        if (feed != nullptr) {
            native::Numbers in(*feed);
            if (auto r = lattice::run_ising_replica_on_device(config, in)) {
                replicas.push_back(*r);
                continue;
            }
        }
        replicas.push_back(lattice::run_ising_replica(config, source));
    }
    return replicas;
}

BatteryResult run_ising(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path)
{
    const std::vector<int> selected = battery.selected(tests);
    BatteryResult result;
    result.testu01_version = ising_version;
    const lattice::IsingExact exact
        = lattice::kaufman_exact(battery.lattice_size, battery.coupling);
    char line[512];
    std::snprintf(line, sizeof line,
        "ising on %s: L = %d, K = %.17g, %llu + %llu steps x %d replicas per test, %d lane%s%s\n"
        "exact (Kaufman): E = %.17g, C = %.17g\n",
        gen->name, battery.lattice_size, battery.coupling,
        static_cast<unsigned long long>(battery.thermalisation),
        static_cast<unsigned long long>(battery.steps), battery.reps, battery.lanes,
        battery.lanes == 1 ? "" : "s", battery.own ? " (replica r on lane r)" : "", exact.energy,
        exact.specific_heat);
    std::string log = line;
    const std::clock_t start = std::clock();
    for (int test : selected) {
        // The position of the test's first statistic in the battery.
        int index = 0;
        for (const TestEntry& t : battery.tests)
            if (t.number < battery.test(test).number) index += t.statistics;
        const auto replicas = ising_replicas(gen, battery, test);
        const IsingStatistics s = ising_statistics(replicas, exact);
        const auto names = ising_statistic_names(test, battery.reps);
        for (std::size_t k = 0; k < s.pvalues.size(); ++k)
            result.statistics.push_back(
                { index + static_cast<int>(k) + 1, test, names[k], s.pvalues[k] });

        std::snprintf(
            line, sizeof line, "test %d: %s\n", test, algorithm_title(ising_algorithm(test)));
        log += line;
        for (std::size_t i = 0; i < replicas.size(); ++i) {
            const ReplicaResult& r = replicas[i];
            std::snprintf(line, sizeof line,
                "  rep %3zu: E = %.10f +- %.3g (%+.2f), C = %.10f +- %.3g (%+.2f), tau(E) = %.3g "
                "steps, %llu numbers\n",
                i + 1, r.energy, r.energy_error, (r.energy - exact.energy) / r.energy_error,
                r.specific_heat, r.specific_heat_error,
                (r.specific_heat - exact.specific_heat) / r.specific_heat_error, r.energy_tau,
                static_cast<unsigned long long>(r.numbers));
            log += line;
        }
        std::snprintf(line, sizeof line,
            "  over replicas: E = %.10f +- %.3g (%+.2f), C = %.10f +- %.3g (%+.2f)\n"
            "  from blocks:   E = %.10f +- %.3g (%+.2f), C = %.10f +- %.3g (%+.2f)\n",
            s.energy_mean, s.energy_spread_error,
            (s.energy_mean - exact.energy) / s.energy_spread_error, s.heat_mean,
            s.heat_spread_error, (s.heat_mean - exact.specific_heat) / s.heat_spread_error,
            s.energy_mean, s.energy_blocks_error,
            (s.energy_mean - exact.energy) / s.energy_blocks_error, s.heat_mean,
            s.heat_blocks_error, (s.heat_mean - exact.specific_heat) / s.heat_blocks_error);
        log += line;
    }
    result.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    if (!log_path.empty()) {
        std::ofstream dst(log_path, std::ios::binary);
        dst << log;
        if (!dst.flush())
            throw std::runtime_error("cannot write ising's log to '" + log_path + "'");
    }
    return result;
}

} // namespace rngvet
