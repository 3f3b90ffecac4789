// The task table, DIR/tasks.tsv: written when a campaign is submitted or run, read back by merge,
// status and resubmit; its end line (task count, SHA-256) refuses a truncated or altered table.
#include "campaign.hpp"
#include "generators/error.hpp"
#include "generators/input_file.hpp"
#include "generators/sha256.hpp"

#include <cstdio>
#include <sstream>
#include <unistd.h>

namespace rngvet::campaigns {

namespace {
const char* const table_header
    = "task\tconfiguration\tconfig\tseed\ttests\testimated_seconds\trngvet_run_arguments";

void no_tabs(const std::string& field)
{
    if (field.find_first_of("\t\n") != std::string::npos)
        throw InputError(
            "'" + field + "' holds a tab or a line break, which the task table cannot hold");
}
} // namespace

std::string write_task_table(const TaskTable& table)
{
    std::ostringstream out;
    out << "# rngvet campaign task table: written by 'rngvet campaign submit' or 'run', read by "
           "merge,\n"
           "# status and resubmit. Do not edit; DIR/campaign.sbatch holds the same tasks.\n";
    out << "campaign\t" << table.campaign_id << "\nname\t" << table.name << "\nbattery\t"
        << table.battery << "\ntests\t" << table.tests_selected << "\n";
    if (table.tasks_per_array_task > 1)
        out << "tasks-per-array-task\t" << table.tasks_per_array_task << "\n";
    out << table_header << "\n";
    for (const CampaignTask& t : table.tasks) {
        for (const std::string* f : { &t.configuration, &t.config, &t.seed })
            no_tabs(*f);
        std::string args;
        for (const auto& a : t.run_arguments) {
            no_tabs(a);
            args += (args.empty() ? "" : " ") + shell_quote(a);
        }
        char cost[32];
        std::snprintf(cost, sizeof cost, "%.1f", t.cost);
        out << t.id << "\t" << t.configuration << "\t" << t.config << "\t" << t.seed << "\t"
            << join_ints(t.tests) << "\t" << cost << "\t" << args << "\n";
    }
    // The end line: the number of tasks and the SHA-256 of everything above it, so that a
    // truncated or altered table is refused instead of read as a smaller campaign.
    const std::string body = out.str();
    return body + "end\t" + std::to_string(table.tasks.size()) + "\t" + sha256_hex(body) + "\n";
}

TaskTable read_task_table(const std::string& path)
{
    if (::access(path.c_str(), F_OK) != 0)
        throw InputError(
            "no campaign task table at '" + path + "' (written by rngvet campaign submit or run)");
    return parse_task_table(read_input_file(path, "campaign task table"), path);
}

TaskTable parse_task_table(const std::string& text, const std::string& path)
{
    // The end line must close the table and match what precedes it.
    const auto end_at = text.rfind("end\t");
    if (end_at == std::string::npos || (end_at > 0 && text[end_at - 1] != '\n')
        || text.back() != '\n')
        throw InputError("'" + path
            + "' is truncated: its end line (end, task count, SHA-256) "
              "is missing");
    const std::string body = text.substr(0, end_at);
    std::istringstream end_line(text.substr(end_at + 4));
    std::size_t count = 0;
    std::string hash;
    end_line >> count >> hash;
    if (hash != sha256_hex(body))
        throw InputError("'" + path
            + "' was altered or truncated: its SHA-256 is not the one "
              "its end line records");
    std::istringstream in(body);
    TaskTable table;
    bool rows = false;
    int number = 0;
    auto bad = [&](const std::string& why) {
        throw InputError(path + ":" + std::to_string(number) + ": " + why);
    };
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, '\t');)
            f.push_back(x);
        if (!line.empty() && line.back() == '\t') f.push_back("");
        if (!rows) {
            if (line == table_header) {
                rows = true;
            } else if (f.size() == 2 || (f.size() == 1 && f[0] == "tests")) {
                const std::string value = f.size() == 2 ? f[1] : "";
                if (f[0] == "campaign")
                    table.campaign_id = value;
                else if (f[0] == "name")
                    table.name = value;
                else if (f[0] == "battery")
                    table.battery = value;
                else if (f[0] == "tests")
                    table.tests_selected = value;
                else if (f[0] == "tasks-per-array-task") {
                    std::size_t used = 0;
                    int k = 0;
                    try {
                        k = std::stoi(value, &used);
                    } catch (const std::exception&) {
                        used = 0;
                    }
                    if (used == 0 || used != value.size() || k < 2 || k > 1024)
                        bad("tasks-per-array-task is a count in 2..1024, got '" + value + "'");
                    table.tasks_per_array_task = k;
                } else
                    bad("unknown header line '" + f[0] + "'");
            } else {
                bad("not a task table header line");
            }
            continue;
        }
        if (f.size() != 7) bad("a task row has 7 tab-separated fields");
        CampaignTask t;
        try {
            t.id = std::stoi(f[0]);
            t.cost = std::stod(f[5]);
            for (std::int64_t n : parse_seed(f[4]))
                t.tests.push_back(static_cast<int>(n));
        } catch (const std::exception&) {
            bad("malformed task row");
        }
        if (t.id != static_cast<int>(table.tasks.size()))
            bad("task ids must be 0, 1, 2, ... in order");
        t.configuration = f[1];
        t.config = f[2];
        t.seed = f[3];
        table.tasks.push_back(t);
    }
    if (!rows || table.campaign_id.empty() || table.battery.empty() || table.tasks.empty())
        throw InputError("'" + path + "' is not a complete campaign task table");
    if (table.tasks.size() != count)
        throw InputError("'" + path + "' holds " + std::to_string(table.tasks.size())
            + " tasks where its end line counts " + std::to_string(count));
    return table;
}

bool same_tasks(const std::vector<CampaignTask>& a, const std::vector<CampaignTask>& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || a[i].configuration != b[i].configuration
            || a[i].config != b[i].config || a[i].seed != b[i].seed || a[i].tests != b[i].tests)
            return false;
    return true;
}

} // namespace rngvet::campaigns
