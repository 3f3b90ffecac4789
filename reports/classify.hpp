// Classification of generator configurations across seeds: which statistics fail
// systematically, which fail by chance, and which fail only because the test reads bits the
// generator does not have; and each configuration's verdict. See docs/reports.md for the method.
#pragma once

#include "second_level.hpp"
#include "store.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rngvet {

// Level at which a count of suspect values or a uniformity test is called more than chance,
// after multiplying by the number of statistics examined (Bonferroni).
inline constexpr double comparison_decision_level = 0.001;

// A run's configuration without its seed: the seed field (the 5th '/'-separated field of a
// canonical name, before any ";option") becomes '*', e.g.
// "ranmar48x/8/interleave/increment/1802,9373;zero=smallest" ->
// "ranmar48x/8/interleave/increment/*;zero=smallest". Names without a seed field (stdin32,
// file:PATH) are returned unchanged. The same as generators' seed_family, which it calls.
std::string configuration_family(const std::string& config);

// How one statistic of one configuration behaved over its seeds, most severe last.
enum class StatisticClass {
    pass, // no suspect p-value, uniformity not rejected
    chance, // suspect values no more often than chance explains
    resolution, // suspect or non-uniform, but the test reads bits beyond the resolution
    nonuniform, // no excess of suspect values, but the p-values are not uniform
    some_seeds, // fails on fewer than half of the seeds, more often than chance explains
    systematic, // fails on at least half of the seeds, more often than chance explains
};
const char* to_string(StatisticClass c); // the report's words: "seed-dependent"
// A stable identifier for machine-readable reports: "pass", "chance", "resolution",
// "nonuniform", "some_seeds", "systematic" (the enumerators' names).
const char* to_key(StatisticClass c);

struct StatisticSummary {
    int stat_index = 0;
    int test_number = 0;
    std::string test_name;
    std::vector<double> pvalues; // one per seed, in the order of ConfigurationSummary::seeds
    int suspect = 0; // p outside [0.001, 0.999] (is_suspect, verdict.hpp)
    int failures = 0; // p outside [1e-10, 1 - 1e-10] (is_failure)
    double extreme = 0.5; // the p-value furthest from 1/2
    int first_bit = 0; // bits of U the test reads (0: unknown test)
    int highest_bit = 0;
    bool all_bits = false;
    std::string bits_call;
    bool beyond_resolution = false; // highest_bit > the configuration's resolution
    // The statistic's p-values take few distinct values (Poisson and other discrete tests, or
    // ties among the seeds): uniformity tests are reported but do not decide the verdict.
    bool discrete = false;
    std::optional<UniformityTest> uniformity; // from 3 seeds on
    double chance_tail = 1; // P(at least `suspect` of the seeds suspect) for a sound generator
    StatisticClass cls = StatisticClass::pass;

    std::string label() const; // e.g. "WeightDistrib (test 7)"
    std::string bits() const; // e.g. "28-30", "1-32 (all)", "?"
    std::string counts() const; // suspect values over seeds, e.g. "3/10"
};

enum class Verdict { defective, suspect, resolution, sound };
const char* to_string(Verdict v); // the report's words: "sound within its resolution"
// "defective", "suspect", "resolution", "sound" (the enumerators' names).
const char* to_key(Verdict v);

struct ConfigurationSummary {
    std::string id; // C1, C2, ... in report order
    std::string label; // the campaign's name of the configuration, "" outside campaigns
    std::string family;
    std::string battery;
    std::string generator;
    int resolution_bits = 0;
    std::vector<std::string> seeds;
    std::vector<std::int64_t> run_ids;
    int duplicate_runs = 0; // further runs of a seed already counted: left out
    int incomplete_runs = 0; // counted runs whose status is not "complete"
    double cpu_seconds = 0; // sum over the counted runs
    std::vector<StatisticSummary> stats; // by stat_index
    int testable_statistics = 0; // statistics within the resolution
    long testable_pvalues = 0;
    long testable_suspect = 0;
    long resolution_pvalues = 0;
    long resolution_suspect = 0;
    double expected_suspect = 0; // suspect_probability x testable_pvalues
    double chance_tail = 1; // P(X >= testable_suspect), X ~ Bin(testable_pvalues, 0.002)
    std::vector<BenchRecord> bench; // throughput measurements of this configuration
    Verdict verdict = Verdict::sound;
    std::string verdict_line; // e.g. "fails WeightDistrib (test 7) on 10/10 seeds: systematic"
};

struct Comparison {
    // Grouped by battery (SmallCrush, mcpi, Crush, BigCrush, others), most severe verdict first.
    std::vector<ConfigurationSummary> configurations;
    bool repeated_seeds() const; // some configuration ran more than one seed
};

// Groups the runs by (configuration_family, battery), one run per seed (the one with most
// statistics, then the latest), and classifies every statistic. Reads statistics and bench
// measurements from the store.
Comparison compare_runs(Store& store, const std::vector<RunRecord>& runs);

// Severity orders, most severe highest: of a statistic's class (pass 0 .. systematic 5) and of
// a verdict (sound 0 .. defective 3).
int severity(StatisticClass c);
int severity(Verdict v);

} // namespace rngvet
