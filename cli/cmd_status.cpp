#include "batteries/catalogue.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/store.hpp"
#include "runs/stored_run.hpp"

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
    // A run whose stored status or mode is damaged is named after the others, never hiding them.
    std::vector<std::string> damaged;
    for (const RunRecord& r : store.runs(&damaged)) {
        // A run this rngvet cannot read (a battery it does not know, a damaged selection) is
        // listed with what is known of it, never hiding the other runs.
        std::string total = "?", problem;
        try {
            const BatteryCatalogue& battery = catalogue_for(r.battery);
            total = std::to_string(r.tests_selected.empty()
                    ? battery.tests.size()
                    : parse_tests(r.tests_selected, battery).size());
        } catch (const InputError& e) {
            problem = e.what();
        }
        std::size_t done = store.tests(r.run_id).size();
        if (done == 0 && r.status == RunStatus::complete && total != "?")
            done = std::stoul(total); // stored in one transaction
        char line[192];
        std::snprintf(line, sizeof line, "%-4lld %-12s %4zu/%-4s %-11s %-8s %-8s ",
            static_cast<long long>(r.run_id), to_text(r.status), done, total.c_str(),
            one_line(r.battery).c_str(), to_text(r.mode), one_line(r.engine).c_str());
        std::cout << line << one_line(r.config)
                  << (problem.empty() ? "" : "  (unreadable: " + one_line(problem) + ")") << "\n";
    }
    for (const std::string& why : damaged)
        std::cout << "?    (unreadable: " << one_line(why) << ")\n";
    return 0;
}

} // namespace rngvet::cli
