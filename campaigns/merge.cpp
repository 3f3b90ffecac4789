#include "merge.hpp"

#include "batteries/catalogue.hpp"
#include "generators/error.hpp"
#include "reports/schema.hpp"
#include "reports/sql.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sqlite3.h>
#include <sstream>

namespace rngvet::campaigns {
namespace {

using sql::Statement;
using sql::Transaction;

// "1,2,5" as a set; "" (the whole battery) as the empty set. The stamp was written by
// rngvet and is compared with the campaign's table before this is read.
std::set<int> test_list(const std::string& text)
{
    std::set<int> tests;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        tests.insert(std::atoi(item.c_str()));
    return tests;
}

// The first word of a statistic's name: "ClosePairs" of "ClosePairs mNP, t = 2". Every
// statistic of a test shares its test's first word (battery_tables.cpp lists the patterns).
std::string first_word(const std::string& name)
{
    return name.substr(0, name.find_first_of(" ,"));
}

// The statistics of task run `run` are exactly those of the tests in `finished`, each at the
// position the catalogue gives it in the whole battery (Statistic::stat_index), with its test's
// number, the catalogue's name on the test's first statistic and the test's first word on the
// others. Anything else (a statistic added, moved, renamed or missing) is an InputError.
void check_statistic_positions(sqlite3* db, std::int64_t run, const BatteryCatalogue& battery,
    const std::set<int>& finished, const std::string& which)
{
    struct Position {
        int test;
        int within; // 0 for the test's first statistic
    };
    std::map<std::int64_t, Position> expected;
    std::int64_t index = 0;
    for (const TestEntry& t : battery.tests)
        for (int k = 0; k < t.statistics; ++k) {
            ++index;
            if (finished.count(t.number)) expected[index] = { t.number, k };
        }
    Statement q(db,
        "SELECT stat_index, test_number, test_name FROM task.statistics WHERE run_id = ?1 "
        "ORDER BY stat_index");
    q.bind(1, run);
    std::size_t seen = 0;
    while (q.step()) {
        const std::int64_t at = q.integer(0);
        const std::int64_t test = q.integer(1);
        const std::string name = q.text(2);
        const auto want = expected.find(at);
        const std::string statistic = which + " holds statistic " + std::to_string(at) + " ('"
            + name + "', test " + std::to_string(test) + ")";
        if (want == expected.end())
            throw InputError(statistic + ", which no finished test of " + battery.name + " has");
        const TestEntry& entry = battery.test(want->second.test);
        if (test != entry.number)
            throw InputError(statistic + " where " + battery.name + " has a statistic of test "
                + std::to_string(entry.number));
        const bool first = want->second.within == 0;
        if (first ? name != entry.name : first_word(name) != first_word(entry.name))
            throw InputError(statistic + " where " + battery.name + " names it '" + entry.name
                + (first ? "'" : " ...'"));
        ++seen;
    }
    if (seen != expected.size()) {
        for (const TestEntry& t : battery.tests) {
            if (!finished.count(t.number)) continue;
            Statement c(db,
                "SELECT count(*) FROM task.statistics WHERE run_id = ?1 AND "
                "test_number = ?2");
            c.bind(1, run).bind(2, std::int64_t{ t.number });
            c.step();
            if (c.integer(0) != t.statistics)
                throw InputError(which + " holds " + std::to_string(c.integer(0))
                    + " statistics of test " + std::to_string(t.number) + " where " + battery.name
                    + " has " + std::to_string(t.statistics));
        }
    }
}

} // namespace

CampaignMerge merge_campaign_task(Store& store, const std::string& task_db,
    const CampaignTaskSpec& spec, const std::string& merged_at)
{
    sqlite3* const db = store.connection();
    // ATTACH would create a missing file.
    if (std::FILE* f = std::fopen(task_db.c_str(), "rb"))
        std::fclose(f);
    else
        throw InputError("no task database at '" + task_db + "'");
    const std::string refused = "task database '" + task_db + "' refused: ";
    CampaignMerge result;
    try {
        sql::Attached attached(db, task_db, "task");
        Transaction t(db);

        // Everything is checked before anything is written.
        Statement master(db, "SELECT count(*) FROM task.sqlite_master");
        master.step();
        const std::int64_t version = sql::single_integer(db, "PRAGMA task.user_version");
        if (version < 3 || version > store_schema_version)
            throw InputError(
                "not an rngvet task database (schema version " + std::to_string(version) + ")");
        Statement check(db, "PRAGMA task.quick_check");
        check.step();
        if (check.text(0) != "ok") throw InputError("damaged: " + check.text(0));

        // The task's tables are read through their column lists (reports/schema.cpp), as the
        // columns its schema version has.
        const schema::Source task{ "task", static_cast<int>(version) };
        const auto stamps
            = schema::select(db, schema::campaign_stamp(), "", 0, "", "campaign stamp", task);
        if (stamps.empty()) throw InputError("it has no campaign stamp");
        if (stamps.size() > 1) throw InputError("it holds more than one campaign stamp");
        const CampaignStamp& stamp = stamps.front();
        if (!same_stamp(stamp, spec.stamp))
            throw InputError("it belongs to " + describe_stamp(stamp) + ", not to "
                + describe_stamp(spec.stamp));

        // A stored status or mode that is none of its words refuses the task ("its run 1
        // cannot be read: its stored status 'x' is damaged ...").
        const std::vector<RunRecord> task_runs
            = schema::select(db, schema::runs(), "", 0, "run_id", "its run", task);
        for (const RunRecord& run : task_runs)
            if (run.config != spec.config || run.seed != spec.stamp.seed
                || run.battery != spec.battery || run.mode != RunMode::sharded
                || run.tests_selected != spec.stamp.tests)
                throw InputError("its run " + std::to_string(run.run_id) + " is " + run.battery
                    + " " + to_text(run.mode) + " tests '" + run.tests_selected + "' of "
                    + run.config + ", not " + to_text(RunMode::sharded) + " " + spec.battery
                    + " tests '" + spec.stamp.tests + "' of " + spec.config);
        if (task_runs.empty()) return result; // nothing to fold yet

        // What is copied must be what a run stores: every p-value a number in [0, 1] or
        // TestU01's -1 for a test it stopped (verdict.hpp; SQLite keeps a NaN as NULL), and each
        // finished test of the task's selection with exactly the statistics the battery's catalogue
        // gives it, at their positions, under its name.
        const BatteryCatalogue& battery = catalogue_for(spec.battery);
        const std::set<int> selected = test_list(spec.stamp.tests);
        for (const RunRecord& run : task_runs) {
            const std::string which = "its run " + std::to_string(run.run_id);
            Statement bad(db,
                "SELECT stat_index, test_number, quote(pvalue) FROM task.statistics "
                "WHERE run_id = ?1 AND (pvalue IS NULL OR "
                    + sql_is_impossible("pvalue") + " OR test_name IS NULL) LIMIT 1");
            bad.bind(1, run.run_id);
            if (bad.step())
                throw InputError(which + " holds statistic " + bad.text(0) + " (test " + bad.text(1)
                    + ") with p-value " + bad.text(2) + ", which is not a number in [0, 1]"
                    + " (nor TestU01's -1 for a test it stopped)");
            std::set<int> finished;
            Statement tests_q(db, "SELECT test_number FROM task.tests WHERE run_id = ?1");
            tests_q.bind(1, run.run_id);
            while (tests_q.step()) {
                const std::int64_t test = tests_q.integer(0);
                if (test < 1 || test > static_cast<std::int64_t>(battery.tests.size()))
                    throw InputError(which + " holds test " + std::to_string(test) + ", which "
                        + battery.name + " does not have");
                if (!selected.empty() && !selected.count(static_cast<int>(test)))
                    throw InputError(which + " holds test " + std::to_string(test)
                        + ", which is not among its tests " + spec.stamp.tests);
                finished.insert(static_cast<int>(test));
            }
            check_statistic_positions(db, run.run_id, battery, finished, which);
        }

        Statement find(db,
            "SELECT run_id FROM campaign_runs WHERE campaign_id = ?1 AND "
            "configuration = ?2 AND seed = ?3");
        find.bind(1, spec.stamp.campaign_id)
            .bind(2, spec.stamp.configuration)
            .bind(3, spec.stamp.seed);
        if (find.step()) {
            result.run_id = find.integer(0);
        } else {
            // The folded run takes its description, every column of it, from the first task
            // run; the sums and the status are recomputed below from what it holds. Columns
            // newer than the task's schema take their defaults.
            store.copy_rows("runs", "task", static_cast<int>(version),
                { { "run_id", "" }, { "status", "?3" }, { "finished_at", "NULL" },
                    { "tests_selected", "?2" } },
                "run_id = ?1",
                { task_runs.front().run_id, spec.tests_selected,
                    std::string(to_text(RunStatus::running)) },
                false);
            result.run_id = sqlite3_last_insert_rowid(db);
            Statement link(db,
                "INSERT INTO campaign_runs (run_id, campaign_id, configuration, "
                "seed) VALUES (?1, ?2, ?3, ?4)");
            link.bind(1, result.run_id).bind(2, spec.stamp.campaign_id);
            link.bind(3, spec.stamp.configuration).bind(4, spec.stamp.seed);
            link.step();
        }

        for (const RunRecord& run : task_runs) {
            // Every column of each test and statistic, in the campaign's run.
            result.tests_added += store.copy_rows("tests", "task", static_cast<int>(version),
                { { "run_id", "?1" } }, "run_id = ?2", { result.run_id, run.run_id }, true);
            result.statistics_added
                += store.copy_rows("statistics", "task", static_cast<int>(version),
                    { { "run_id", "?1" } }, "run_id = ?2", { result.run_id, run.run_id }, true);
            result.task_tests += static_cast<std::size_t>(sql::single_integer(
                db, "SELECT count(*) FROM task.tests WHERE run_id = ?1", run.run_id));

            // Written only when something changed, so that merging again changes nothing.
            Statement seen(db,
                "SELECT status FROM campaign_tasks WHERE campaign_id = ?1 AND "
                "task_id = ?2 AND task_run_id = ?3");
            seen.bind(1, spec.stamp.campaign_id).bind(2, std::int64_t{ spec.stamp.task_id });
            seen.bind(3, run.run_id);
            const bool known = seen.step();
            if (!known || seen.text(0) != to_text(run.status)) {
                Statement rec(db,
                    "INSERT INTO campaign_tasks (campaign_id, task_id, task_run_id, "
                    "run_id, status, host, command_line, merged_at) VALUES (?1, ?2, "
                    "?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (campaign_id, task_id, "
                    "task_run_id) DO UPDATE SET status = excluded.status, "
                    "merged_at = excluded.merged_at");
                rec.bind(1, spec.stamp.campaign_id).bind(2, std::int64_t{ spec.stamp.task_id });
                rec.bind(3, run.run_id).bind(4, result.run_id);
                rec.bind(5, std::string(to_text(run.status))).bind(6, run.host);
                rec.bind(7, run.command_line).bind(8, merged_at);
                rec.step();
            }
            result.task_status = run.status;
        }

        // The folded run: sums over its tests, the earliest start, and complete once every test
        // of the selection is there (finished when the last of them finished).
        const std::int64_t have = sql::single_integer(
            db, "SELECT count(*) FROM tests WHERE run_id = ?1", result.run_id);
        Statement running(
            db, "SELECT count(*) FROM campaign_tasks WHERE run_id = ?1 AND status = ?2");
        running.bind(1, result.run_id).bind(2, std::string(to_text(RunStatus::running)));
        running.step();
        const bool any_running = running.integer(0) != 0;
        const RunStatus status = have >= spec.battery_tests ? RunStatus::complete
            : any_running                                   ? RunStatus::running
                                                            : RunStatus::interrupted;
        Statement fold(db,
            "UPDATE runs SET status = ?2, "
            "numbers_used = (SELECT coalesce(sum(numbers_used), 0) FROM tests WHERE run_id = ?1), "
            "cpu_seconds = (SELECT coalesce(sum(cpu_seconds), 0) FROM tests WHERE run_id = ?1), "
            "started_at = min(started_at, coalesce((SELECT min(started_at) FROM tests WHERE run_id "
            "= ?1), started_at)), "
            "finished_at = CASE WHEN ?4 THEN (SELECT max(finished_at) FROM tests WHERE run_id = "
            "?1) "
            "END, "
            "testu01_version = CASE WHEN testu01_version = '' THEN "
            "(SELECT testu01_version FROM task.runs WHERE run_id = ?3) ELSE testu01_version END "
            "WHERE run_id = ?1");
        fold.bind(1, result.run_id)
            .bind(2, std::string(to_text(status)))
            .bind(3, task_runs.back().run_id);
        fold.bind(4, std::int64_t{ status == RunStatus::complete });
        fold.step();
        t.commit();
    } catch (const InputError& e) {
        std::string why = e.what();
        const std::string prefix = "database error: ";
        if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
        throw InputError(refused + why);
    }
    return result;
}

} // namespace rngvet::campaigns
