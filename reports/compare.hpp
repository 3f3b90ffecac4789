// The "## Comparison across seeds" section of a report: the classification of the
// configurations (classify.hpp) and what the section shows (comparison_analysis.hpp), rendered
// as markdown with SVG plots. See docs/reports.md for the method.
#pragma once

#include "classify.hpp"
#include "comparison_analysis.hpp"
#include "markdown.hpp"

#include <string>
#include <vector>

namespace rngvet {

// The application beside the battery of about its cost: for every configuration run through
// mcpi, its SmallCrush verdict, its mcpi verdict, and mcpi's estimates of pi over all points
// (docs/reports.md). Empty when no configuration was run through mcpi. Inside the comparison
// (standalone false) it is a "###" section naming the configurations' ids; standalone, for a
// report without the comparison, a "##" section without them.
std::string render_mcpi_beside_smallcrush(const Comparison& comparison, bool standalone);

// The "## Comparison across seeds" markdown section: analyse_comparison, then its rendering.
// When plot_prefix is not empty, the plots
// are appended to `files` (plot_prefix + "-heatmap-<battery>.svg", plot_prefix + "-hist-<k>.svg",
// at most 10 histograms) and linked with relative paths.
std::string render_comparison(
    const Comparison& comparison, const std::string& plot_prefix, std::vector<ReportFile>& files);

} // namespace rngvet
