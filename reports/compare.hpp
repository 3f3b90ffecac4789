// Comparison of generator configurations across seeds: which statistics fail systematically,
// which fail by chance, and which fail only because the test reads bits the generator does not
// have. See docs/reports.md for the method.
#pragma once

#include "second_level.hpp"
#include "store.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rngvet {

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
const char* to_string(StatisticClass c);

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
};

enum class Verdict { defective, suspect, resolution, sound };
const char* to_string(Verdict v);

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

// The application beside the battery of about its cost: for every configuration run through
// mcpi, its SmallCrush verdict, its mcpi verdict, and mcpi's estimates of pi over all points
// (docs/reports.md). Empty when no configuration was run through mcpi. Inside the comparison
// (standalone false) it is a "###" section naming the configurations' ids; standalone, for a
// report without the comparison, a "##" section without them.
std::string render_mcpi_beside_smallcrush(const Comparison& comparison, bool standalone);

// The analysis behind the "## Comparison across seeds" section: what it shows, decided from a
// Comparison before any text is written (render_comparison renders it). Pointers refer into
// the Comparison it was made from, which must outlive it.
struct ComparisonAnalysis {
    // What chance alone would give, over every configuration, within the resolution.
    long pvalues = 0;
    long suspect = 0;
    long defect_suspect = 0; // suspect values in statistics classed systematic or seed-dependent
    double expected_suspect = 0; // suspect_probability x pvalues
    double chance_tail = 1; // P(X >= suspect), X ~ Bin(pvalues, suspect_probability)

    // One matrix per battery, in the order the batteries first appear.
    struct MatrixRow {
        int stat_index = 0;
        const StatisticSummary* first = nullptr; // the statistic in its first configuration
        int worst = 0; // the highest severity of its class over the configurations
        double fraction = 0; // sum over the configurations of the fraction of seeds suspect
    };
    struct Matrix {
        std::string battery;
        std::vector<const ConfigurationSummary*> configurations; // the columns
        std::vector<MatrixRow> rows; // statistics not passing somewhere, most severe first
        int statistics = 0; // every statistic of the battery seen in some configuration
    };
    std::vector<Matrix> matrices;

    // Configurations with statistics that read beyond their resolution.
    struct Resolution {
        const ConfigurationSummary* configuration = nullptr;
        std::vector<const StatisticSummary*> beyond; // all of them, by stat_index
        std::vector<const StatisticSummary*> flagged; // those classed resolution
    };
    std::vector<Resolution> resolution;

    // Second-level tests of configurations with statistics run on 3 or more seeds.
    struct SecondLevelRow {
        const StatisticSummary* statistic = nullptr;
        bool rejects = false; // corrected Anderson-Darling p below the decision level
    };
    struct SecondLevel {
        const ConfigurationSummary* configuration = nullptr;
        double examined = 1; // statistics examined (the Bonferroni factor), at least 1
        std::size_t tested = 0; // statistics with a uniformity test
        int rejected = 0; // rejections among statistics that decide the verdict
        int excused = 0; // rejections among discrete or beyond-resolution statistics
        std::vector<SecondLevelRow> shown; // the smallest AD p-values, as the report lists them
    };
    std::vector<SecondLevel> second_level;
    std::size_t second_level_left_out = 0; // tested statistics not listed

    // Statistics not passing, run on 2 or more seeds, most severe first (histograms).
    struct Pick {
        const ConfigurationSummary* configuration = nullptr;
        const StatisticSummary* statistic = nullptr;
    };
    std::vector<Pick> picks;
};

ComparisonAnalysis analyse_comparison(const Comparison& comparison);

struct ReportFile {
    std::string name; // a plain file name, to be written beside the markdown
    std::string content;
};

// The "## Comparison across seeds" markdown section: analyse_comparison, then its rendering.
// When plot_prefix is not empty, the plots
// are appended to `files` (plot_prefix + "-heatmap-<battery>.svg", plot_prefix + "-hist-<k>.svg",
// at most 10 histograms) and linked with relative paths.
std::string render_comparison(
    const Comparison& comparison, const std::string& plot_prefix, std::vector<ReportFile>& files);

} // namespace rngvet
