// The reports for machines, rendered from the store: a JSON document (its schema in
// docs/reports.md, "Machine-readable reports") and a JUnit XML file that CI systems display.
// Both carry the classes and verdicts the comparison across seeds computes (compare.hpp); they
// restate none of its rules.
#pragma once

#include "gate.hpp"
#include "store.hpp"

#include <string>
#include <vector>

namespace rngvet {

// The "schema_version" of the JSON report; raised when a field changes meaning or goes away
// (added fields leave it).
inline constexpr int json_report_schema_version = 1;

// The runs (every stored statistic with its verdict) and their comparison across seeds (every
// configuration with its verdict and each statistic's class). `producer` names the program,
// e.g. "rngvet 0.9.0 (abc123)".
std::string render_json_report(Store& store, const std::string& db_label,
    const std::vector<RunRecord>& runs, const std::string& producer);

// One <testsuite> per run, one <testcase> per stored statistic. A testcase fails when its
// p-value is outside [1e-10, 1 - 1e-10] (a clear failure); under `level` suspect when it is
// outside [0.001, 0.999]; under `level` systematic when the comparison across seeds classes the
// statistic systematic in the run's configuration. The failure's message gives the p-value and
// the rule.
std::string render_junit_report(Store& store, const std::vector<RunRecord>& runs, FailOn level);

} // namespace rngvet
