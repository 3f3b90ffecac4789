#include <fstream>
#include <iostream>
#include <sys/stat.h>

#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/report.hpp"

namespace rngvet::cli {

int cmd_report(int argc, char** argv)
{
    std::string db_path, out_path;
    std::vector<std::int64_t> run_ids;
    po::options_description options("rngvet report options");
    options.add_options()
        ("db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")
        ("out,o", po::value(&out_path), "write the markdown here (default: standard output)")
        ("run", po::value(&run_ids)->composing(), "report only this run (repeatable)");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet report [--db FILE] [--out report.md]", vm))
        return 0;

    struct stat st {};
    if (stat(db_path.c_str(), &st) != 0) throw InputError("no database at '" + db_path + "'");
    Store store(db_path);
    const std::string markdown = render_report(store, db_path, run_ids);
    if (out_path.empty()) {
        std::cout << markdown;
        return 0;
    }
    std::ofstream out(out_path);
    if (!out) throw InputError("cannot write the report to '" + out_path + "'");
    out << markdown;
    out.close();
    if (!out) throw InputError("cannot write the report to '" + out_path + "'");
    std::cout << "report written to " << out_path << "\n";
    return 0;
}

}  // namespace rngvet::cli
