#include "report.hpp"

#include "batteries/catalogue.hpp"
#include "batteries/registry.hpp"
#include "compare.hpp"
#include "conclusion.hpp"
#include "generators/error.hpp"
#include "markdown.hpp"
#include "verdict.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace rngvet {
namespace {

using markdown::cell;
using markdown::code;
using markdown::printf_string;

// The engine asked for and, where the tests were computed by more than one, which by which:
// "auto: native (tests 1-10), testu01 (tests 11, 12)".
std::string engines_text(const RunRecord& r, const std::vector<TestRecord>& tests)
{
    std::map<std::string, std::vector<int>> by_engine;
    for (const TestRecord& t : tests)
        by_engine[t.engine].push_back(t.test_number);
    if (by_engine.size() == 1 && by_engine.begin()->first == r.engine) return r.engine;
    std::string out = r.engine + ":";
    const char* separator = " ";
    for (const auto& [engine, numbers] : by_engine) {
        out += separator + engine + " (test" + (numbers.size() > 1 ? "s " : " ");
        for (std::size_t i = 0; i < numbers.size(); ++i)
            out += (i ? ", " : "") + std::to_string(numbers[i]);
        out += ")";
        separator = ", ";
    }
    return out;
}

void write_run(std::ostream& out, const RunRecord& r, const std::vector<StatisticRecord>& stats,
    const std::vector<TestRecord>& tests)
{
    out << "## Run " << r.run_id << ": " << code(r.config) << ", " << battery_title(r.battery)
        << "\n\n";
    out << "| Provenance | |\n|---|---|\n";
    out << "| Generator | " << code(r.generator) << " (" << r.resolution_bits
        << "-bit resolution) |\n";
    out << "| Configuration | " << code(r.config) << " |\n";
    out << "| Seeds | " << cell(r.seed) << " |\n";
    out << "| Backend | " << r.backend << " |\n";
    out << "| Battery | " << battery_title(r.battery) << ", " << to_text(r.mode) << " mode, "
        << stats.size() << " statistics |\n";
    out << "| Status | " << to_text(r.status) << " |\n";
    out << "| Engine | " << engines_text(r, tests) << " |\n";
    // A battery of rngvet's own (mcpi): its version names its statistics' definition.
    const BatteryFamily* family = find_battery_family(battery_family(r.battery));
    out << "| " << (family && family->own ? "Battery code" : "TestU01") << " | "
        << cell(r.testu01_version) << " |\n";
    if (!r.params_sha256.empty())
        out << "| Parameter set SHA-256 | " << code(r.params_sha256) << " |\n";
    if (!r.params_check.empty()) out << "| Parameter sets checked | " << r.params_check << " |\n";
    if (!r.input_sha256.empty()) out << "| Input file SHA-256 | " << code(r.input_sha256) << " |\n";
    // Where correlated seeding shows: the tests that read the first numbers of the stream.
    std::string at_start;
    for (const TestRecord& t : tests)
        if (t.start_offset == 0)
            at_start += (at_start.empty() ? "" : ", ") + std::to_string(t.test_number);
    if (!tests.empty())
        out << "| Start of the stream read by | "
            << (at_start.empty() ? std::string("no test") : "test " + at_start) << " |\n";
    out << "| Host | " << cell(r.host) << " |\n";
    if (!r.cpu_model.empty()) out << "| CPU | " << cell(r.cpu_model) << " |\n";
    if (!r.gpu_model.empty()) out << "| Device | " << cell(r.gpu_model) << " |\n";
    if (r.mode == RunMode::sharded) out << "| Jobs | " << r.jobs << " worker processes |\n";
    out << "| Started (UTC) | " << r.started_at << " |\n";
    out << "| Finished (UTC) | " << (r.finished_at.empty() ? "-" : r.finished_at) << " |\n";
    out << "| Numbers used | " << r.numbers_used << " |\n";
    out << "| CPU time | " << printf_string("%.1f", r.cpu_seconds) << " s |\n";
    out << "| rngvet | " << cell(r.rngvet_version) << " |\n";
    out << "| Command | " << code(r.command_line) << " |\n\n";

    if (r.resolution_bits < 32)
        out << "> This generator has " << r.resolution_bits
            << " bits of resolution. Tests that read bits beyond the " << r.resolution_bits
            << "th are expected to fail; such failures describe the resolution, not a defect of "
               "the recurrence.\n\n";

    out << "### Summary\n\n";
    std::vector<const StatisticRecord*> outside;
    for (const auto& s : stats)
        if (verdict(s.pvalue) != PValueVerdict::pass) outside.push_back(&s);
    if (outside.empty()) {
        out << "All tests were passed: every p-value lies in " << suspect_interval() << ".\n\n";
    } else {
        out << "The following statistics gave p-values outside " << suspect_interval()
            << " (eps means a value < 1.0e-300, eps1 a value < 1.0e-15):\n\n";
        out << "| Test | Statistic | p-value | Verdict |\n|---:|---|---:|---|\n";
        for (const auto* s : outside)
            out << "| " << s->test_number << " | " << cell(s->test_name) << " | "
                << format_pvalue(s->pvalue) << " | " << to_text(verdict(s->pvalue)) << " |\n";
        out << "\n"
            << (stats.size() - outside.size()) << " of " << stats.size()
            << " statistics were passed.\n\n";
    }

    out << "### All p-values\n\n";
    out << "| # | Test | Statistic | p-value | Verdict |\n|---:|---:|---|---:|---|\n";
    for (const auto& s : stats)
        out << "| " << s.stat_index << " | " << s.test_number << " | " << cell(s.test_name) << " | "
            << format_pvalue(s.pvalue) << " | " << to_text(verdict(s.pvalue)) << " |\n";
    out << "\n";
}

} // namespace

RenderedReport render_validation_report(Store& store, const std::string& db_label,
    const std::vector<std::int64_t>& run_ids, const ReportOptions& options)
{
    std::vector<RunRecord> runs;
    if (run_ids.empty()) {
        runs = store.runs();
    } else {
        for (std::int64_t id : run_ids) {
            auto r = store.run(id);
            if (!r) throw InputError("no run " + std::to_string(id) + " in " + db_label);
            runs.push_back(*r);
        }
    }
    RenderedReport report;
    std::ostringstream out;
    out << "# rngvet validation report\n\n";
    out << "Database " << code(db_label) << ", " << runs.size()
        << (runs.size() == 1 ? " run" : " runs")
        << ". A statistic is *suspect* when its p-value lies outside " << suspect_interval()
        << " and a *failure* when it lies outside " << failure_interval()
        << ". With many statistics, some suspect values "
           "are expected by chance alone: about 0.2% of them.\n\n";
    if (runs.empty()) out << "The database holds no runs yet.\n";
    bool compared = false;
    if (!runs.empty()) {
        Comparison comparison = compare_runs(store, runs);
        label_configurations(comparison, store.campaign_labels());
        const std::vector<StartCheckRecord> start_checks = store.start_checks();
        out << render_conclusion(comparison, runs, start_checks, db_label);
        out << render_start_checks(start_checks);
        // The comparison comes first when it says more than the single runs can: on request,
        // or as soon as some configuration was run with several seeds.
        compared = options.compare_only || comparison.repeated_seeds();
        if (compared)
            out << render_comparison(comparison, options.plot_prefix, report.files);
        else // single seeds: still mcpi beside SmallCrush, before the runs
            out << render_mcpi_beside_smallcrush(comparison, true);
    }
    if (compared && !options.compare_only && !options.runs) {
        out << "## Runs\n\n"
            << "The " << runs.size() << (runs.size() == 1 ? " run's" : " runs'")
            << " provenance and p-values are left out of this comparison: "
            << code("rngvet report --runs") << " adds one section per run, and "
            << code("sqlite3 " + db_label + " 'select * from pvalues'")
            << " lists every p-value.\n";
    }
    if (!options.compare_only && (options.runs || !compared)) {
        if (compared) out << "## Appendix: the runs\n\n" << runs.size() << " runs follow.\n\n";
        for (const RunRecord& r : runs)
            write_run(out, r, store.statistics(r.run_id), store.tests(r.run_id));
    }
    report.markdown = out.str();
    return report;
}

std::string render_report(
    Store& store, const std::string& db_label, const std::vector<std::int64_t>& run_ids)
{
    return render_validation_report(store, db_label, run_ids, {}).markdown;
}

} // namespace rngvet
