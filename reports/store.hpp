// The result store: one SQLite file holding runs and every p-value, versioned by
// PRAGMA user_version with migrations applied in order on open. Users query it through the
// stable view `pvalues` (see docs/store.md). All SQL takes user text through bound parameters.
#pragma once

#include "batteries/records.hpp"
#include "verdict.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

struct sqlite3;

namespace rngvet {

inline constexpr int store_schema_version = 6;

// A run's status as stored (runs.status, campaign_tasks.status): one row per status, its text in
// the store. The CHECK of runs.status (reports/schema.cpp) is written from the same table.
enum class RunStatus { running, complete, interrupted, failed };
inline constexpr Term<RunStatus> run_status_terms[] = {
    { RunStatus::running, "running", "" },
    { RunStatus::complete, "complete", "" },
    { RunStatus::interrupted, "interrupted", "" },
    { RunStatus::failed, "failed", "" },
};
constexpr const char* to_text(RunStatus s)
{
    return term_text(run_status_terms, s);
}
// The table of the type's terms (found by argument-dependent lookup, as the store's columns do).
constexpr const auto& terms_of(RunStatus)
{
    return run_status_terms;
}
// nullopt for any other text.
inline std::optional<RunStatus> run_status_from_text(const std::string& text)
{
    return term_value(run_status_terms, text);
}

struct RunRecord {
    std::int64_t run_id = 0;
    std::string generator; // e.g. ranmar48
    std::string config; // canonical configuration name
    std::string seed; // e.g. 1802,9373
    std::string backend; // cpu, openmp, opencl, cuda
    std::string battery; // smallcrush, crush, bigcrush
    RunMode mode = RunMode::serial;
    RunStatus status = RunStatus::running;
    int resolution_bits = 0;
    std::string params_sha256;
    std::string testu01_version;
    std::string rngvet_version;
    std::string host;
    std::string command_line;
    std::string started_at; // UTC, ISO 8601
    std::string finished_at;
    std::uint64_t numbers_used = 0;
    double cpu_seconds = 0;
    int jobs = 1;
    std::string cpu_model;
    std::string gpu_model;
    std::string options; // the configuration's command-line options, one per line
    std::string tests_selected; // "" for the whole battery, else e.g. "1,5,10"
    std::string input_sha256; // file: generators: SHA-256 of the input file at the start
    std::string params_check; // mtdc: "verified", "verified (cached)" or "unverified (allowed)"
    std::string engine
        = "testu01"; // asked for: testu01, native or auto (each test's: tests.engine)
};

// TestRecord (one test's provenance) and the statistics are the runner's own structs.
using StatisticRecord = Statistic;

// One measured throughput of a configuration on a backend (`rngvet bench`).
struct BenchRecord {
    std::int64_t bench_id = 0;
    std::string config;
    std::string backend;
    std::string device;
    std::string placement; // "device" (device-resident) or "host" (delivered to pinned host memory)
    double numbers_per_second = 0;
    double bytes_per_second = 0;
    std::string measured_at;
    std::string command_line;
};

// The start check of `rngvet validate` on one multi-instance configuration (schema 6;
// validators/checks.hpp's StartCorrelation, docs/reports.md): the bits of neighbouring
// instances compared over the first `steps` numbers of `pairs` pairs.
struct StartCheckRecord {
    std::int64_t check_id = 0;
    std::string config; // canonical configuration name, as runs.config
    int bits = 32; // bits of each word compared
    int pairs = 0;
    int steps = 0;
    double agreement = 0.5; // fraction of the compared bits that agree
    double z = 0;
    double p = 1; // two-sided
    int worst_pair = 0; // i of the most extreme pair (i, i+1)
    double worst_agreement = 0.5;
    double worst_p = 1; // Bonferroni-corrected
    bool passed = true;
    std::string checked_at; // UTC, ISO 8601
    std::string rngvet_version;
    std::string host;
    std::string command_line;
};

// Campaigns (schema 3; rngvet campaign, docs/campaigns.md).

// Which task of which campaign a task database holds; written before the task's run starts.
struct CampaignStamp {
    std::string campaign_id;
    int task_id = 0;
    std::string configuration; // the campaign file's name of the configuration
    std::string seed; // as in runs.seed
    std::string tests; // the task's tests, e.g. "1,4,7"
};

// "campaign C task T (configuration, seed S, tests L)"; whether two stamps are the same.
std::string describe_stamp(const CampaignStamp& s);
bool same_stamp(const CampaignStamp& a, const CampaignStamp& b);

// A value bound to an SQL parameter.
using SqlValue = std::variant<std::int64_t, double, std::string>;

// Refuses, with a one-line InputError, a store path that would keep nothing or cannot hold a
// store: "" and ":memory:" (SQLite's names for stores that vanish), and a path that exists and
// is not a regular file (opening a pipe blocks; a device or a folder cannot hold a store).
void check_store_path(const std::string& path);

// The schema version (PRAGMA user_version) of the store file at `path`, read without writing
// anything; -1 when it cannot be read (missing, not SQLite, not a regular file).
int store_file_schema_version(const std::string& path);

class Store {
public:
    enum class Access { read_write, read_only };
    // Opens (creating if needed) and migrates the database. Throws InputError with a one-line
    // message if the file cannot be opened or written, or is not an rngvet store, and for the
    // paths check_store_path refuses. Read-only opens an
    // existing store of the current schema without writing anything (rngvet report, status).
    explicit Store(const std::string& path, Access access = Access::read_write);
    ~Store();
    // Ends the connection as the destructor does: the write-ahead log folded into the file and
    // the file back to a rollback journal. For exits that run no destructor (a serial run that
    // ends from inside TestU01); nothing may use the store afterwards.
    void close();
    const std::string& path() const { return path_; }
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    int schema_version();

    // Stores a finished run and its statistics in one transaction; returns the run id.
    std::int64_t insert_run(const RunRecord& run, const std::vector<StatisticRecord>& stats);

    // A run whose tests are stored one by one: create it (status as given, normally
    // "running"), add each test with its statistics in its own transaction, then finish it.
    std::int64_t create_run(const RunRecord& run);
    void insert_test(
        std::int64_t run_id, const TestRecord& test, const std::vector<StatisticRecord>& stats);
    void finish_run(std::int64_t run_id, RunStatus status, const std::string& finished_at);
    std::vector<TestRecord> tests(std::int64_t run_id);
    void set_testu01_version(std::int64_t run_id, const std::string& version);

    std::int64_t insert_bench(const BenchRecord& bench);
    std::vector<BenchRecord> bench();

    // The start checks of rngvet validate --db, in the order they were stored.
    std::int64_t insert_start_check(const StartCheckRecord& check);
    std::vector<StartCheckRecord> start_checks();

    // Every run, in run id order. A run whose stored status or mode is none of its words is an
    // InputError; with `unreadable` given, it is left out and its message ("run 3 cannot be
    // read: ...") added there instead (rngvet status lists the others).
    std::vector<RunRecord> runs(std::vector<std::string>* unreadable = nullptr);
    std::optional<RunRecord> run(std::int64_t run_id);
    std::vector<StatisticRecord> statistics(std::int64_t run_id);
    // The first stored p-value of the run that cannot be one (not a number, or outside
    // [0, 1]) as "statistic I: p-value V"; "" when every one is a p-value.
    std::string impossible_pvalue(std::int64_t run_id);

    // Campaigns. The stamp of a task database (nullopt when it has none); stamping again with
    // the same stamp is a no-op, with another one an InputError.
    std::optional<CampaignStamp> campaign_stamp();
    // The campaigns whose task runs a campaign database holds (none for other stores).
    std::vector<std::string> campaign_ids();
    void stamp_campaign_task(const CampaignStamp& stamp);
    // The campaign file's name of the configuration of each campaign run, by run id.
    std::map<std::int64_t, std::string> campaign_labels();

    // Copies into `table` the rows of the same table of the store attached as schema `from`
    // (of schema version `from_version`) that `where` selects (SQL on the source's columns,
    // ?1, ?2, ... bound to `values`): each column the source has, except that a column named
    // in `set` takes that SQL expression instead ("" leaves it out: its default, or a new id
    // for a rowid). Columns newer than `from_version` take their defaults. `or_ignore`: a row
    // whose key is already here stays as it is. Returns the rows inserted. The columns come
    // from the table's column list (schema.hpp), so a new column is copied with no change here.
    std::int64_t copy_rows(const std::string& table, const std::string& from, int from_version,
        const std::map<std::string, std::string>& set, const std::string& where,
        const std::vector<SqlValue>& values, bool or_ignore);

    // The connection, for code that writes SQL of its own on this store through
    // reports/sql.hpp (the campaign merge, campaigns/merge.hpp).
    sqlite3* connection() { return db_; }

private:
    void migrate();
    void check_readable_schema();
    sqlite3* db_ = nullptr;
    std::string path_;
    Access access_;
};

} // namespace rngvet
