// Markdown validation reports rendered from the result store.
#pragma once

#include "markdown.hpp"
#include "store.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

struct ReportOptions {
    bool compare_only = false; // only the comparison across seeds, without the per-run sections
    // The per-run sections (provenance and every p-value) also when the comparison across
    // seeds is shown; without it they are left out of such a report, which stays compact.
    bool runs = false;
    std::string plot_prefix; // file-name stem of the SVG plots; empty: no plots
};

struct RenderedReport {
    std::string markdown;
    std::vector<ReportFile> files; // plots to write beside the markdown (relative links)
};

// Renders the runs (all of them when run_ids is empty) as GitHub-flavoured markdown: what to
// conclude (conclusion.hpp), the stored start checks, the comparison across seeds (compare.hpp)
// when options.compare_only is set or some configuration has several seeds, then one section
// per run: always when the comparison is not shown, with it only when options.runs is set
// (never with options.compare_only).
RenderedReport render_validation_report(Store& store, const std::string& db_label,
    const std::vector<std::int64_t>& run_ids, const ReportOptions& options);

// render_validation_report without plots; the markdown only.
std::string render_report(
    Store& store, const std::string& db_label, const std::vector<std::int64_t>& run_ids);

} // namespace rngvet
