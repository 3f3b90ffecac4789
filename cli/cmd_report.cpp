#include "commands.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "options.hpp"
#include "reports/gate.hpp"
#include "reports/machine_report.hpp"
#include "reports/report.hpp"
#include "rngvet/version.hpp"

#include <iostream>
#include <sys/stat.h>

namespace rngvet::cli {

int cmd_report(int argc, char** argv)
{
    std::string db_path, out_path, format = "markdown";
    std::vector<std::string> run_texts, configs;
    bool compare = false, with_runs = false;
    std::string fail_on_text = "never";
    po::options_description options("rngvet report options");
    options.add_options()(
        "db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")(
        "out,o", po::value(&out_path), "write the report here (default: standard output)")("format",
        po::value(&format)->default_value("markdown"),
        "markdown, json (runs, p-values, verdicts and classes; schema in docs/reports.md) or "
        "junit (JUnit XML: a testsuite per run, a testcase per statistic)")("run",
        po::value(&run_texts)->composing(),
        "report and gate only these runs: ids, ranges and lists, e.g. 3, 1-5, 2,4,7-9 "
        "(repeatable)")("config", po::value(&configs)->composing(),
        "report and gate only the runs of this configuration: its stored name, or with the seed "
        "as * (repeatable)")("compare", po::bool_switch(&compare),
        "only the comparison of configurations across seeds (it is included anyway when a "
        "configuration has several seeds); with --out, SVG plots are written beside the report")(
        "runs", po::bool_switch(&with_runs),
        "one section per run (provenance and every p-value) also when the comparison across seeds "
        "is shown, as an appendix; without it such a report leaves them out")("fail-on",
        po::value(&fail_on_text)->default_value("never"),
        fail_on_help("the reported runs'", "seeds").c_str());
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet report [--db FILE] [--out FILE] [--format markdown|json|junit] "
            "[--compare | --runs] [--run 1-5] [--config NAME] [--fail-on LEVEL]",
            vm))
        return 0;
    if (compare && with_runs)
        throw InputError("--compare leaves out the runs that --runs asks for; give one of them");

    const FailOn fail_on = parse_fail_on(fail_on_text);
    if (format != "markdown" && format != "json" && format != "junit")
        throw InputError("--format must be markdown, json or junit, got '" + format + "'");
    if (compare && format != "markdown")
        throw InputError("--compare shapes the markdown report; --format " + format
            + " always holds the comparison");
    if (with_runs && format != "markdown")
        throw InputError(
            "--runs shapes the markdown report; --format " + format + " always holds every run");
    RunScope scope;
    for (const std::string& text : run_texts)
        add_run_ranges(scope, text);
    for (const std::string& name : configs) {
        if (name.empty()) throw InputError("--config needs a configuration name");
        scope.configs.push_back(name);
    }
    struct stat st { };
    if (stat(db_path.c_str(), &st) != 0) throw InputError("no database at '" + db_path + "'");
    Store store(db_path, Store::Access::read_only);
    const std::vector<RunRecord> runs = select_runs(store, scope, db_path);
    std::vector<std::int64_t> run_ids;
    if (!scope.empty())
        for (const RunRecord& r : runs)
            run_ids.push_back(r.run_id);
    // A stored value that cannot be a p-value is damage, not a verdict: neither rendered nor
    // gated on.
    for (const RunRecord& r : runs)
        if (const std::string bad = store.impossible_pvalue(r.run_id); !bad.empty())
            throw InputError("run " + std::to_string(r.run_id) + " of " + db_path + " holds " + bad
                + ", which is not a p-value in [0, 1] (nor TestU01's -1 for a test it "
                  "stopped); the store is damaged");
    ReportOptions report_options;
    report_options.compare_only = compare;
    report_options.runs = with_runs;
    // Plots go beside the markdown file, named after it: report.md -> report-heatmap-*.svg.
    std::string dir;
    if (!out_path.empty() && format == "markdown") {
        const auto slash = out_path.find_last_of('/');
        dir = slash == std::string::npos ? "" : out_path.substr(0, slash + 1);
        std::string stem = slash == std::string::npos ? out_path : out_path.substr(slash + 1);
        const auto dot = stem.find_last_of('.');
        if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
        report_options.plot_prefix = stem;
    }
    RenderedReport report;
    if (format == "json")
        report.markdown = render_json_report(
            store, db_path, runs, std::string("rngvet ") + version + " (" + git_commit + ")");
    else if (format == "junit")
        report.markdown = render_junit_report(store, runs, fail_on);
    else
        report = render_validation_report(store, db_path, run_ids, report_options);
    if (out_path.empty()) {
        std::cout << report.markdown;
    } else {
        refuse_overwriting_input(out_path, "--out", { db_path });
        for (const ReportFile& f : report.files)
            refuse_overwriting_input(dir + f.name, "--out (a plot beside it)", { db_path });
        write_file_atomically(out_path, report.markdown);
        for (const ReportFile& f : report.files)
            write_file_atomically(dir + f.name, f.content);
        std::cout << "report written to " << out_path;
        if (!report.files.empty())
            std::cout << " with " << report.files.size() << " plots beside it";
        std::cout << "\n";
    }
    const GateResult gate = check_fail_on(store, runs, fail_on);
    if (gate.reached) {
        std::cerr << "rngvet: --fail-on " << fail_on_text << ": " << gate.reason << "\n";
        return gate_exit_status;
    }
    return 0;
}

} // namespace rngvet::cli
