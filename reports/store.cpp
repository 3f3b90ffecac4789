#include "store.hpp"

#include "schema.hpp"
#include "sql.hpp"
#include "verdict.hpp"

#include <chrono>
#include <sqlite3.h>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>

namespace rngvet {
namespace {

using sql::exec;
using sql::Statement;
using sql::Transaction;

// The view's verdict column, from the thresholds of verdict.hpp. The text is laid out as
// migration 1 shipped it; only the upper bounds are now written `1 - level`, the same doubles.
std::string verdict_case_sql()
{
    const auto word = [](PValueVerdict v) { return std::string("'") + to_text(v) + "'"; };
    return "CASE WHEN " + sql_is_failure("s.pvalue") + " THEN " + word(PValueVerdict::fail)
        + "\n            WHEN " + sql_is_suspect("s.pvalue") + " THEN "
        + word(PValueVerdict::suspect) + "\n            ELSE " + word(PValueVerdict::pass) + " END";
}

// The migration to schema `version`: the tables it created and the columns it added (the column
// lists, schema.cpp), and for version 1 the view users query. Never change what a shipped
// migration does: a new column is a row of its table's list with the next version.
std::string migration(int version)
{
    std::string sql = schema::migration_tables(version);
    if (version == 1)
        sql += R"sql(CREATE VIEW pvalues AS
SELECT r.run_id, r.generator, r.config, r.seed, r.backend, r.battery,
       s.test_number, s.stat_index, s.test_name, s.pvalue,
       )sql" + verdict_case_sql()
            + R"sql( AS verdict
FROM statistics AS s JOIN runs AS r USING (run_id);
)sql";
    return sql;
}

// Write-ahead logging while the store is written: readers never block the workers' commits,
// and concurrent writers wait on the busy timeout instead of failing. Switching a file to it
// needs the file to itself, and SQLite answers SQLITE_BUSY at once, without the busy handler,
// while another connection holds a write lock in rollback mode: another process creating the
// same new store, or the last writer switching back in its destructor. So this waits here, as
// long as the busy timeout.
void use_write_ahead_log(sqlite3* db)
{
    const auto give_up
        = std::chrono::steady_clock::now() + std::chrono::milliseconds(sql::busy_timeout_ms);
    int rc;
    while ((rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr))
            == SQLITE_BUSY
        && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (rc != SQLITE_OK) exec(db, "PRAGMA journal_mode = WAL"); // says why
}

} // namespace

void check_store_path(const std::string& path)
{
    // SQLite reads these names as databases that vanish when the process ends.
    if (path.empty() || path == ":memory:")
        throw InputError("--db must name a file ('" + path + "' would keep nothing)");
    struct stat st { };
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError("'" + path + "' is not a regular file and cannot hold a store");
}

int store_file_schema_version(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    sqlite3* db = nullptr;
    int version = -1;
    if (sqlite3_open_v2(
            sql::uri(path, true).c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr)
        == SQLITE_OK) {
        sqlite3_busy_timeout(db, sql::busy_timeout_ms);
        sqlite3_stmt* q = nullptr;
        if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, nullptr) == SQLITE_OK
            && sqlite3_step(q) == SQLITE_ROW)
            version = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return version;
}

Store::Store(const std::string& path, Access access)
    : path_(path)
    , access_(access)
{
    check_store_path(path);
    // Opened by URI, as every path is, so that ATTACH takes one too (merge_campaign_task).
    const int flags = SQLITE_OPEN_URI
        | (access == Access::read_only ? SQLITE_OPEN_READONLY
                                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const int rc = sqlite3_open_v2(
        sql::uri(path, access == Access::read_only).c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot open database '" + path + "': " + why);
    }
    sqlite3_busy_timeout(db_, sql::busy_timeout_ms);
    try {
        if (access == Access::read_only) {
            check_readable_schema();
        } else {
            exec(db_, "PRAGMA foreign_keys = ON");
            // Migrated in the file's own journal mode first: a migration that is refused
            // rolls back and leaves the file as it was, byte for byte.
            migrate();
            // The destructor returns the file to a rollback journal (see there).
            use_write_ahead_log(db_);
        }
    } catch (const InputError& e) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot use database '" + path
            + "': " + std::string(e.what()).substr(std::string("database error: ").size()));
    }
}

Store::~Store()
{
    close();
}

void Store::close()
{
    if (!db_) return;
    // A WAL file can only be read by a process that may write its -shm file beside it. The
    // last writer to close therefore switches back to a rollback journal, so a finished store
    // reads on a read-only copy or file system. While another connection is open the switch
    // fails at once (busy) and that connection's close makes it instead.
    if (access_ == Access::read_write) {
        sqlite3_busy_timeout(db_, 0);
        sqlite3_exec(db_, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db_);
    db_ = nullptr;
}

void Store::check_readable_schema()
{
    const int current = schema_version();
    if (current == 0) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master");
        q.step();
        throw InputError(q.integer(0) ? "database error: the file holds tables but is not an "
                                        "rngvet store"
                                      : "database error: the file is not an rngvet store");
    }
    if (current > store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " is newer than this rngvet understands (" + std::to_string(store_schema_version)
            + ")");
    if (current < store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " needs an upgrade; open it once with a command that writes (rngvet run --resume, "
              "campaign merge) or from a writable copy");
}

int Store::schema_version()
{
    Statement q(db_, "PRAGMA user_version");
    q.step();
    return static_cast<int>(q.integer(0));
}

void Store::migrate()
{
    // BEGIN IMMEDIATE takes the write lock, so this also proves the file is writable.
    Transaction t(db_);
    const int current = schema_version();
    if (current > store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " is newer than this rngvet understands (" + std::to_string(store_schema_version)
            + ")");
    if (current == 0) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master");
        q.step();
        if (q.integer(0) != 0)
            throw InputError("database error: the file holds tables but is not an rngvet store");
    }
    for (int v = current; v < store_schema_version; ++v) {
        try {
            exec(db_, migration(v + 1).c_str());
        } catch (const InputError& e) {
            // A file whose tables are not those its version number says (a version number
            // set by hand, a store copied together from two): say that, not SQLite's words
            // about the step that failed ("duplicate column name").
            throw InputError("database error: the file says schema version "
                + std::to_string(current) + ", but its tables are not those of version "
                + std::to_string(current) + " (upgrading to version " + std::to_string(v + 1)
                + " failed: " + std::string(e.what()).substr(16) + "); nothing was changed");
        }
        exec(db_, ("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
    }
    t.commit();
}

std::int64_t Store::insert_run(const RunRecord& r, const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    const std::int64_t id = schema::insert(db_, schema::runs(), r);
    for (const StatisticRecord& s : stats)
        schema::insert(db_, schema::statistics(), s, id);
    t.commit();
    return id;
}

std::int64_t Store::create_run(const RunRecord& r)
{
    Transaction t(db_);
    const std::int64_t id = schema::insert(db_, schema::runs(), r);
    t.commit();
    return id;
}

void Store::insert_test(
    std::int64_t run_id, const TestRecord& test, const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    schema::insert(db_, schema::tests(), test, run_id);
    for (const StatisticRecord& s : stats)
        schema::insert(db_, schema::statistics(), s, run_id);
    Statement u(db_,
        "UPDATE runs SET numbers_used = numbers_used + ?2, cpu_seconds = cpu_seconds + ?3 "
        "WHERE run_id = ?1");
    u.bind(1, run_id)
        .bind(2, static_cast<std::int64_t>(test.numbers_used))
        .bind(3, test.cpu_seconds);
    u.step();
    t.commit();
}

void Store::finish_run(std::int64_t run_id, RunStatus status, const std::string& finished_at)
{
    Transaction t(db_);
    Statement q(db_, "UPDATE runs SET status = ?2, finished_at = ?3 WHERE run_id = ?1");
    q.bind(1, run_id).bind(2, std::string(to_text(status))).bind(3, finished_at);
    q.step();
    t.commit();
}

void Store::set_testu01_version(std::int64_t run_id, const std::string& version)
{
    Statement q(
        db_, "UPDATE runs SET testu01_version = ?2 WHERE run_id = ?1 AND testu01_version = ''");
    q.bind(1, run_id).bind(2, version);
    q.step();
}
std::vector<TestRecord> Store::tests(std::int64_t run_id)
{
    return schema::select(db_, schema::tests(), "run_id = ?1", run_id, "test_number");
}

std::int64_t Store::insert_bench(const BenchRecord& b)
{
    Transaction t(db_);
    const std::int64_t id = schema::insert(db_, schema::bench(), b);
    t.commit();
    return id;
}

std::vector<BenchRecord> Store::bench()
{
    return schema::select(db_, schema::bench(), "", 0, "bench_id");
}

std::int64_t Store::insert_start_check(const StartCheckRecord& c)
{
    Transaction t(db_);
    const std::int64_t id = schema::insert(db_, schema::start_checks(), c);
    t.commit();
    return id;
}

std::vector<StartCheckRecord> Store::start_checks()
{
    return schema::select(db_, schema::start_checks(), "", 0, "check_id");
}

std::vector<RunRecord> Store::runs(std::vector<std::string>* unreadable)
{
    return schema::select(db_, schema::runs(), "", 0, "run_id", "run", {}, unreadable);
}

std::optional<RunRecord> Store::run(std::int64_t run_id)
{
    auto found = schema::select(db_, schema::runs(), "run_id = ?1", run_id, "", "run");
    if (found.empty()) return std::nullopt;
    return found.front();
}

std::vector<StatisticRecord> Store::statistics(std::int64_t run_id)
{
    return schema::select(db_, schema::statistics(), "run_id = ?1", run_id, "stat_index");
}

std::string Store::impossible_pvalue(std::int64_t run_id)
{
    Statement q(db_,
        "SELECT stat_index, quote(pvalue) FROM statistics WHERE run_id = ?1 AND "
            + sql_is_impossible("pvalue") + " ORDER BY stat_index LIMIT 1");
    q.bind(1, run_id);
    if (!q.step()) return "";
    return "statistic " + std::to_string(q.integer(0)) + ": p-value " + q.text(1);
}

std::vector<std::string> Store::campaign_ids()
{
    std::vector<std::string> ids;
    Statement q(
        db_, "SELECT campaign_id FROM campaign_runs UNION SELECT campaign_id FROM campaign_tasks");
    while (q.step())
        ids.push_back(q.text(0));
    return ids;
}

std::map<std::int64_t, std::string> Store::campaign_labels()
{
    std::map<std::int64_t, std::string> labels;
    Statement q(db_, "SELECT run_id, configuration FROM campaign_runs");
    while (q.step())
        labels[q.integer(0)] = q.text(1);
    return labels;
}

std::optional<CampaignStamp> Store::campaign_stamp()
{
    const auto stamps = schema::select(db_, schema::campaign_stamp(), "", 0, "");
    if (stamps.empty()) return std::nullopt;
    if (stamps.size() > 1)
        throw InputError("database '" + path_ + "' holds more than one campaign stamp");
    return stamps.front();
}

std::string describe_stamp(const CampaignStamp& s)
{
    return "campaign " + s.campaign_id + " task " + std::to_string(s.task_id) + " ("
        + s.configuration + ", seed " + s.seed + ", tests " + s.tests + ")";
}

bool same_stamp(const CampaignStamp& a, const CampaignStamp& b)
{
    return a.campaign_id == b.campaign_id && a.task_id == b.task_id
        && a.configuration == b.configuration && a.seed == b.seed && a.tests == b.tests;
}

void Store::stamp_campaign_task(const CampaignStamp& stamp)
{
    Transaction t(db_);
    if (const auto held = campaign_stamp()) {
        if (!same_stamp(*held, stamp))
            throw InputError("'" + path_ + "' belongs to " + describe_stamp(*held) + ", not to "
                + describe_stamp(stamp));
        return;
    }
    Statement runs(db_, "SELECT count(*) FROM runs");
    runs.step();
    if (runs.integer(0) != 0)
        throw InputError("'" + path_
            + "' holds runs but no campaign stamp; it is not a task "
              "database of campaign "
            + stamp.campaign_id);
    schema::insert(db_, schema::campaign_stamp(), stamp);
    t.commit();
}

std::int64_t Store::copy_rows(const std::string& table, const std::string& from, int from_version,
    const std::map<std::string, std::string>& set, const std::string& where,
    const std::vector<SqlValue>& values, bool or_ignore)
{
    const auto columns = schema::columns_of(table);
    if (columns.empty()) throw std::logic_error("copy_rows: no table " + table);
    std::string names, selected;
    for (const schema::ColumnInfo& c : columns) {
        const auto given = set.find(c.name);
        std::string expression;
        if (given != set.end())
            expression = given->second;
        else if (c.since <= from_version)
            expression = c.name;
        if (expression.empty()) continue; // left to its default (or, for a rowid, a new id)
        names += (names.empty() ? "" : ", ") + c.name;
        selected += (selected.empty() ? "" : ", ") + expression;
    }
    Statement q(db_,
        std::string(or_ignore ? "INSERT OR IGNORE" : "INSERT") + " INTO " + table + " (" + names
            + ") SELECT " + selected + " FROM " + from + "." + table + " WHERE " + where);
    int i = 0;
    for (const SqlValue& v : values) {
        ++i;
        if (const auto* n = std::get_if<std::int64_t>(&v))
            q.bind(i, *n);
        else if (const auto* d = std::get_if<double>(&v))
            q.bind(i, *d);
        else
            q.bind(i, std::get<std::string>(v));
    }
    q.step();
    return sqlite3_changes(db_);
}

} // namespace rngvet
