// The result store: one SQLite file holding runs and every p-value, versioned by
// PRAGMA user_version with migrations applied in order on open. Users query it through the
// stable view `pvalues` (see docs/store.md). All SQL takes user text through bound parameters.
#pragma once

#include "batteries/records.hpp"
#include "store_records.hpp"
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
