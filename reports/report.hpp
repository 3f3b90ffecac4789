// Markdown validation reports rendered from the result store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store.hpp"

namespace rngvet {

// A p-value as TestU01's summaries write it: "eps" below 1e-300, "1 - eps1" above 1 - 1e-15,
// "1 - 4.2e-5" close to 1, scientific notation below 0.01, otherwise fixed.
std::string format_pvalue(double p);

// Renders the runs (all of them when run_ids is empty) as GitHub-flavoured markdown.
std::string render_report(Store& store, const std::string& db_label,
                          const std::vector<std::int64_t>& run_ids);

}  // namespace rngvet
