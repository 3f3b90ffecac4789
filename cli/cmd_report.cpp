#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/report.hpp"

#include <fstream>
#include <iostream>
#include <sys/stat.h>

namespace rngvet::cli {

int cmd_report(int argc, char** argv)
{
    std::string db_path, out_path;
    std::vector<std::int64_t> run_ids;
    bool compare = false;
    po::options_description options("rngvet report options");
    options.add_options()(
        "db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")(
        "out,o", po::value(&out_path), "write the markdown here (default: standard output)")(
        "run", po::value(&run_ids)->composing(), "report only this run (repeatable)")("compare",
        po::bool_switch(&compare),
        "only the comparison of configurations across seeds (it is included anyway when a "
        "configuration has several seeds); with --out, SVG plots are written beside the report");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet report [--db FILE] [--out report.md] [--compare]", vm))
        return 0;

    struct stat st { };
    if (stat(db_path.c_str(), &st) != 0) throw InputError("no database at '" + db_path + "'");
    Store store(db_path);
    ReportOptions report_options;
    report_options.compare_only = compare;
    // Plots go beside the markdown file, named after it: report.md -> report-heatmap-*.svg.
    std::string dir;
    if (!out_path.empty()) {
        const auto slash = out_path.find_last_of('/');
        dir = slash == std::string::npos ? "" : out_path.substr(0, slash + 1);
        std::string stem = slash == std::string::npos ? out_path : out_path.substr(slash + 1);
        const auto dot = stem.find_last_of('.');
        if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
        report_options.plot_prefix = stem;
    }
    const RenderedReport report = render_validation_report(store, db_path, run_ids, report_options);
    if (out_path.empty()) {
        std::cout << report.markdown;
        return 0;
    }
    auto write = [](const std::string& path, const std::string& text) {
        std::ofstream out(path);
        if (!out) throw InputError("cannot write the report to '" + path + "'");
        out << text;
        out.close();
        if (!out) throw InputError("cannot write the report to '" + path + "'");
    };
    write(out_path, report.markdown);
    for (const ReportFile& f : report.files)
        write(dir + f.name, f.content);
    std::cout << "report written to " << out_path;
    if (!report.files.empty()) std::cout << " with " << report.files.size() << " plots beside it";
    std::cout << "\n";
    return 0;
}

} // namespace rngvet::cli
