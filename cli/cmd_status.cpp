#include "batteries/catalogue.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/store.hpp"

#include <iostream>
#include <sys/stat.h>

namespace rngvet::cli {

int cmd_status(int argc, char** argv)
{
    std::string db_path;
    po::options_description options("rngvet status options");
    options.add_options()(
        "db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet status [--db FILE]", vm)) return 0;
    struct stat st { };
    if (stat(db_path.c_str(), &st) != 0) throw InputError("no database at '" + db_path + "'");

    Store store(db_path, Store::Access::read_only);
    std::cout << "run  status       tests     battery     mode     engine   config\n";
    for (const RunRecord& r : store.runs()) {
        const BatteryCatalogue& battery = catalogue_for(r.battery);
        std::size_t total = battery.tests.size();
        if (!r.tests_selected.empty()) total = parse_seed(r.tests_selected).size();
        std::size_t done = store.tests(r.run_id).size();
        if (done == 0 && r.status == "complete") done = total; // stored in one transaction
        char line[128];
        std::snprintf(line, sizeof line, "%-4lld %-12s %4zu/%-4zu %-11s %-8s %-8s ",
            static_cast<long long>(r.run_id), r.status.c_str(), done, total, r.battery.c_str(),
            r.mode.c_str(), r.engine.c_str());
        std::cout << line << r.config << "\n";
    }
    return 0;
}

} // namespace rngvet::cli
