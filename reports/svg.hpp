// Hand-written SVG plots for the markdown reports: a heat map and a histogram. Each function
// returns one complete, self-contained SVG document (UTF-8, no external resources), meant to be
// written beside the report and embedded with a relative image link.
#pragma once

#include <string>
#include <vector>

namespace rngvet {

struct HeatCell {
    enum class Kind { value, resolution, missing };
    Kind kind = Kind::missing;
    double value = 0; // Kind::value: in [0, 1], 0 white, 1 dark red
    std::string text; // short text drawn in the cell when it fits (e.g. "10")
    std::string tooltip; // shown on hover (<title>)
};

struct HeatMap {
    std::string title;
    std::string value_label; // legend caption of the colour scale
    std::vector<std::string> row_labels; // one per row, drawn at the left
    std::vector<std::string> column_labels; // one per column, drawn rotated at the top
    std::vector<std::vector<HeatCell>> cells; // [row][column]
};

// Every cell is a <rect class="cell">; the legend uses class="legend" so that cells can be
// counted. Throws std::invalid_argument when the cell grid does not match the labels.
std::string heat_map_svg(const HeatMap& map);

struct Histogram {
    std::string title;
    std::vector<double> values; // in [0, 1]
    int bins = 10;
    std::string x_label = "p-value";
    std::string y_label = "seeds";
};

// The values counted in `bins` equal bins over [0, 1]: bin b holds [b / bins, (b + 1) / bins),
// the last one 1 as well; values outside [0, 1] count in the nearest bin. Throws
// std::invalid_argument when bins < 1.
std::vector<int> histogram_counts(const std::vector<double>& values, int bins);

// Bars (<rect class="bar">, one per bin, counted by histogram_counts) over [0, 1] and a dashed line
// at the count a uniform sample would give per bin.
std::string histogram_svg(const Histogram& h);

} // namespace rngvet
