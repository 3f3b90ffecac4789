#include "schema.hpp"

namespace rngvet::schema {

const Table<RunRecord>& runs()
{
    using R = RunRecord;
    static const Table<R> t{ "runs", 1,
        {
            { "run_id", "INTEGER PRIMARY KEY", 1, &R::run_id },
            { "generator", "TEXT NOT NULL", 1, &R::generator },
            { "config", "TEXT NOT NULL", 1, &R::config },
            { "seed", "TEXT NOT NULL", 1, &R::seed },
            { "backend", "TEXT NOT NULL", 1, &R::backend },
            { "battery", "TEXT NOT NULL", 1, &R::battery },
            { "mode", "TEXT NOT NULL", 1, &R::mode },
            { "status",
                "TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed'))",
                1, &R::status },
            { "resolution_bits", "INTEGER NOT NULL", 1, &R::resolution_bits },
            { "params_sha256", "TEXT NOT NULL DEFAULT ''", 1, &R::params_sha256 },
            { "testu01_version", "TEXT NOT NULL", 1, &R::testu01_version },
            { "rngvet_version", "TEXT NOT NULL", 1, &R::rngvet_version },
            { "host", "TEXT NOT NULL", 1, &R::host },
            { "command_line", "TEXT NOT NULL", 1, &R::command_line },
            { "started_at", "TEXT NOT NULL", 1, &R::started_at },
            { "finished_at", "TEXT", 1, &R::finished_at },
            { "numbers_used", "INTEGER NOT NULL DEFAULT 0", 1, &R::numbers_used },
            { "cpu_seconds", "REAL NOT NULL DEFAULT 0", 1, &R::cpu_seconds },
            { "jobs", "INTEGER NOT NULL DEFAULT 1", 2, &R::jobs },
            { "cpu_model", "TEXT NOT NULL DEFAULT ''", 2, &R::cpu_model },
            { "gpu_model", "TEXT NOT NULL DEFAULT ''", 2, &R::gpu_model },
            { "options", "TEXT NOT NULL DEFAULT ''", 2, &R::options },
            { "tests_selected", "TEXT NOT NULL DEFAULT ''", 2, &R::tests_selected },
            // 4: what else defines a run's stream: the SHA-256 of a file: generator's input
            // (resume refuses a changed file), and how the parameter sets were checked.
            { "input_sha256", "TEXT NOT NULL DEFAULT ''", 4, &R::input_sha256 },
            { "params_check", "TEXT NOT NULL DEFAULT ''", 4, &R::params_check },
            // 5: the engine a run asked for (testu01, native or auto); runs before were TestU01's.
            { "engine", "TEXT NOT NULL DEFAULT 'testu01'", 5, &R::engine },
        } };
    return t;
}

const Table<Statistic>& statistics()
{
    using R = Statistic;
    static const Table<R> t{ "statistics", 1,
        {
            { "run_id", "INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE", 1, {} },
            { "stat_index", "INTEGER NOT NULL", 1, &R::stat_index },
            { "test_number", "INTEGER NOT NULL", 1, &R::test_number },
            { "test_name", "TEXT NOT NULL", 1, &R::test_name },
            { "pvalue", "REAL NOT NULL", 1, &R::pvalue },
        },
        "PRIMARY KEY (run_id, stat_index)" };
    return t;
}

// 2: per-test provenance (sharded runs, resume).
const Table<TestRecord>& tests()
{
    using R = TestRecord;
    static const Table<R> t{ "tests", 2,
        {
            { "run_id", "INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE", 2, {} },
            { "test_number", "INTEGER NOT NULL", 2, &R::test_number },
            { "start_offset", "INTEGER NOT NULL", 2, &R::start_offset },
            { "numbers_used", "INTEGER NOT NULL", 2, &R::numbers_used },
            { "cpu_seconds", "REAL NOT NULL", 2, &R::cpu_seconds },
            { "worker", "TEXT NOT NULL", 2, &R::worker },
            { "refills", "INTEGER NOT NULL DEFAULT 0", 2, &R::refills },
            { "refill_waits", "INTEGER NOT NULL DEFAULT 0", 2, &R::refill_waits },
            { "started_at", "TEXT NOT NULL", 2, &R::started_at },
            { "finished_at", "TEXT NOT NULL", 2, &R::finished_at },
            // 5: the engine that computed the test's statistics (TestU01's function or rngvet's
            // native form of it; TestU01's before), and its wall time (0 before).
            { "engine", "TEXT NOT NULL DEFAULT 'testu01'", 5, &R::engine },
            { "wall_seconds", "REAL NOT NULL DEFAULT 0", 5, &R::wall_seconds },
        },
        "PRIMARY KEY (run_id, test_number)" };
    return t;
}

// 2: benchmark results (rngvet bench).
const Table<BenchRecord>& bench()
{
    using R = BenchRecord;
    static const Table<R> t{ "bench", 2,
        {
            { "bench_id", "INTEGER PRIMARY KEY", 2, &R::bench_id },
            { "config", "TEXT NOT NULL", 2, &R::config },
            { "backend", "TEXT NOT NULL", 2, &R::backend },
            { "device", "TEXT NOT NULL", 2, &R::device },
            { "placement", "TEXT NOT NULL", 2, &R::placement },
            { "numbers_per_second", "REAL NOT NULL", 2, &R::numbers_per_second },
            { "bytes_per_second", "REAL NOT NULL", 2, &R::bytes_per_second },
            { "measured_at", "TEXT NOT NULL", 2, &R::measured_at },
            { "command_line", "TEXT NOT NULL", 2, &R::command_line },
        } };
    return t;
}

// 3: campaigns (docs/campaigns.md). A task database holds one stamp naming the campaign task
// it belongs to; a campaign database folds the tasks' runs into one run per (campaign,
// configuration, seed) and records every task run merged.
const Table<CampaignStamp>& campaign_stamp()
{
    using R = CampaignStamp;
    static const Table<R> t{ "campaign_stamp", 3,
        {
            { "campaign_id", "TEXT NOT NULL", 3, &R::campaign_id },
            { "task_id", "INTEGER NOT NULL", 3, &R::task_id },
            { "configuration", "TEXT NOT NULL", 3, &R::configuration },
            { "seed", "TEXT NOT NULL", 3, &R::seed },
            { "tests", "TEXT NOT NULL", 3, &R::tests },
        },
        "PRIMARY KEY (campaign_id, task_id)" };
    return t;
}

const Table<NoRecord>& campaign_runs()
{
    static const Table<NoRecord> t{ "campaign_runs", 3,
        {
            { "run_id", "INTEGER PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE", 3, {} },
            { "campaign_id", "TEXT NOT NULL", 3, {} },
            { "configuration", "TEXT NOT NULL", 3, {} },
            { "seed", "TEXT NOT NULL", 3, {} },
        },
        "UNIQUE (campaign_id, configuration, seed)" };
    return t;
}

const Table<NoRecord>& campaign_tasks()
{
    static const Table<NoRecord> t{ "campaign_tasks", 3,
        {
            { "campaign_id", "TEXT NOT NULL", 3, {} },
            { "task_id", "INTEGER NOT NULL", 3, {} },
            { "task_run_id", "INTEGER NOT NULL", 3, {} },
            { "run_id", "INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE", 3, {} },
            { "status", "TEXT NOT NULL", 3, {} },
            { "host", "TEXT NOT NULL", 3, {} },
            { "command_line", "TEXT NOT NULL", 3, {} },
            { "merged_at", "TEXT NOT NULL", 3, {} },
        },
        "PRIMARY KEY (campaign_id, task_id, task_run_id)" };
    return t;
}

// 6: the start check of rngvet validate (validators/checks.hpp, docs/reports.md): how strongly
// neighbouring instances of a configuration agree at the start of their streams, stored by
// `rngvet validate --db` so that the report can show it beside the runs.
const Table<StartCheckRecord>& start_checks()
{
    using R = StartCheckRecord;
    static const Table<R> t{ "start_checks", 6,
        {
            { "check_id", "INTEGER PRIMARY KEY", 6, &R::check_id },
            { "config", "TEXT NOT NULL", 6, &R::config },
            { "bits", "INTEGER NOT NULL", 6, &R::bits },
            { "pairs", "INTEGER NOT NULL", 6, &R::pairs },
            { "steps", "INTEGER NOT NULL", 6, &R::steps },
            { "agreement", "REAL NOT NULL", 6, &R::agreement },
            { "z", "REAL NOT NULL", 6, &R::z },
            { "p", "REAL NOT NULL", 6, &R::p },
            { "worst_pair", "INTEGER NOT NULL", 6, &R::worst_pair },
            { "worst_agreement", "REAL NOT NULL", 6, &R::worst_agreement },
            { "worst_p", "REAL NOT NULL", 6, &R::worst_p },
            { "passed", "INTEGER NOT NULL CHECK (passed IN (0, 1))", 6, &R::passed },
            { "checked_at", "TEXT NOT NULL", 6, &R::checked_at },
            { "rngvet_version", "TEXT NOT NULL", 6, &R::rngvet_version },
            { "host", "TEXT NOT NULL", 6, &R::host },
            { "command_line", "TEXT NOT NULL", 6, &R::command_line },
        } };
    return t;
}

std::vector<ColumnInfo> columns_of(const std::string& table)
{
    std::vector<ColumnInfo> out;
    for_each_table([&](const auto& t) {
        if (table == t.name)
            for (const auto& c : t.columns)
                out.push_back({ c.name, c.definition, c.since });
    });
    return out;
}

std::string migration_tables(int version)
{
    std::string sql;
    for_each_table([&](const auto& t) {
        if (t.since == version) {
            sql += std::string("CREATE TABLE ") + t.name + " (";
            bool first = true;
            for (const auto& c : t.columns) {
                if (c.since != version) continue;
                sql += std::string(first ? "\n    " : ",\n    ") + c.name + " " + c.definition;
                first = false;
            }
            if (*t.constraints) sql += std::string(",\n    ") + t.constraints;
            sql += "\n);\n";
        } else if (t.since < version) {
            for (const auto& c : t.columns)
                if (c.since == version)
                    sql += std::string("ALTER TABLE ") + t.name + " ADD COLUMN " + c.name + " "
                        + c.definition + ";\n";
        }
    });
    return sql;
}

} // namespace rngvet::schema
