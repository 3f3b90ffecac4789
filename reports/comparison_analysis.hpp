// What the comparison across seeds shows, decided from a Comparison (classify.hpp) before any
// text is written; compare.hpp renders it.
#pragma once

#include "classify.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace rngvet {

// The second-level tests listed per configuration (the smallest Anderson-Darling p-values).
inline constexpr std::size_t comparison_second_level_rows = 20;

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

} // namespace rngvet
