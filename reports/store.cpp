#include "store.hpp"

#include <sqlite3.h>

#include "generators/error.hpp"

namespace rngvet {
namespace {

    // Migrations, applied in order; migration i brings the schema to version i + 1.
    // Never edit a migration that has shipped: add a new one.
    const char* const migrations[] = {
        R"sql(
CREATE TABLE runs (
    run_id          INTEGER PRIMARY KEY,
    generator       TEXT NOT NULL,
    config          TEXT NOT NULL,
    seed            TEXT NOT NULL,
    backend         TEXT NOT NULL,
    battery         TEXT NOT NULL,
    mode            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
    resolution_bits INTEGER NOT NULL,
    params_sha256   TEXT NOT NULL DEFAULT '',
    testu01_version TEXT NOT NULL,
    rngvet_version  TEXT NOT NULL,
    host            TEXT NOT NULL,
    command_line    TEXT NOT NULL,
    started_at      TEXT NOT NULL,
    finished_at     TEXT,
    numbers_used    INTEGER NOT NULL DEFAULT 0,
    cpu_seconds     REAL NOT NULL DEFAULT 0
);
CREATE TABLE statistics (
    run_id      INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    stat_index  INTEGER NOT NULL,
    test_number INTEGER NOT NULL,
    test_name   TEXT NOT NULL,
    pvalue      REAL NOT NULL,
    PRIMARY KEY (run_id, stat_index)
);
CREATE VIEW pvalues AS
SELECT r.run_id, r.generator, r.config, r.seed, r.backend, r.battery,
       s.test_number, s.stat_index, s.test_name, s.pvalue,
       CASE WHEN s.pvalue < 1e-10 OR s.pvalue > 1 - 1e-10 THEN 'fail'
            WHEN s.pvalue < 0.001 OR s.pvalue > 0.999 THEN 'suspect'
            ELSE 'pass' END AS verdict
FROM statistics AS s JOIN runs AS r USING (run_id);
)sql",
        // 2: per-test provenance (sharded runs, resume) and benchmark results.
        R"sql(
CREATE TABLE tests (
    run_id        INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    test_number   INTEGER NOT NULL,
    start_offset  INTEGER NOT NULL,
    numbers_used  INTEGER NOT NULL,
    cpu_seconds   REAL NOT NULL,
    worker        TEXT NOT NULL,
    refills       INTEGER NOT NULL DEFAULT 0,
    refill_waits  INTEGER NOT NULL DEFAULT 0,
    started_at    TEXT NOT NULL,
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (run_id, test_number)
);
CREATE TABLE bench (
    bench_id           INTEGER PRIMARY KEY,
    config             TEXT NOT NULL,
    backend            TEXT NOT NULL,
    device             TEXT NOT NULL,
    placement          TEXT NOT NULL,
    numbers_per_second REAL NOT NULL,
    bytes_per_second   REAL NOT NULL,
    measured_at        TEXT NOT NULL,
    command_line       TEXT NOT NULL
);
ALTER TABLE runs ADD COLUMN jobs INTEGER NOT NULL DEFAULT 1;
ALTER TABLE runs ADD COLUMN cpu_model TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN gpu_model TEXT NOT NULL DEFAULT '';
)sql",
    };
    constexpr int migration_count = sizeof(migrations) / sizeof(migrations[0]);
    static_assert(migration_count == store_schema_version, "one migration per schema version");

    // A prepared statement that finalises itself.
    class Statement {
    public:
        Statement(sqlite3* db, const char* sql)
            : db_(db)
        {
            if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
                throw InputError(std::string("database error: ") + sqlite3_errmsg(db));
        }
        ~Statement() { sqlite3_finalize(stmt_); }
        Statement(const Statement&) = delete;
        Statement& operator=(const Statement&) = delete;

        Statement& bind(int i, const std::string& v)
        {
            check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
            return *this;
        }
        Statement& bind(int i, std::int64_t v) { check(sqlite3_bind_int64(stmt_, i, v)); return *this; }
        Statement& bind(int i, double v) { check(sqlite3_bind_double(stmt_, i, v)); return *this; }
        Statement& bind_null(int i) { check(sqlite3_bind_null(stmt_, i)); return *this; }

        void reset()
        {
            sqlite3_reset(stmt_);
            sqlite3_clear_bindings(stmt_);
        }
        // Returns true while a row is available.
        bool step()
        {
            const int rc = sqlite3_step(stmt_);
            if (rc == SQLITE_ROW) return true;
            if (rc == SQLITE_DONE) return false;
            throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
        }
        std::string text(int col)
        {
            const auto* p = sqlite3_column_text(stmt_, col);
            return p ? reinterpret_cast<const char*>(p) : "";
        }
        std::int64_t integer(int col) { return sqlite3_column_int64(stmt_, col); }
        double real(int col) { return sqlite3_column_double(stmt_, col); }

    private:
        void check(int rc)
        {
            if (rc != SQLITE_OK) throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
        }
        sqlite3* db_;
        sqlite3_stmt* stmt_ = nullptr;
    };

    void exec(sqlite3* db, const char* sql)
    {
        char* message = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
            std::string m = message ? message : sqlite3_errmsg(db);
            sqlite3_free(message);
            throw InputError("database error: " + m);
        }
    }

    // Rolls back unless committed.
    class Transaction {
    public:
        explicit Transaction(sqlite3* db)
            : db_(db)
        {
            exec(db_, "BEGIN IMMEDIATE");
        }
        ~Transaction()
        {
            if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        }
        void commit()
        {
            exec(db_, "COMMIT");
            done_ = true;
        }

    private:
        sqlite3* db_;
        bool done_ = false;
    };

    RunRecord read_run(Statement& q)
    {
        RunRecord r;
        r.run_id = q.integer(0);
        r.generator = q.text(1);
        r.config = q.text(2);
        r.seed = q.text(3);
        r.backend = q.text(4);
        r.battery = q.text(5);
        r.mode = q.text(6);
        r.status = q.text(7);
        r.resolution_bits = static_cast<int>(q.integer(8));
        r.params_sha256 = q.text(9);
        r.testu01_version = q.text(10);
        r.rngvet_version = q.text(11);
        r.host = q.text(12);
        r.command_line = q.text(13);
        r.started_at = q.text(14);
        r.finished_at = q.text(15);
        r.numbers_used = static_cast<std::uint64_t>(q.integer(16));
        r.cpu_seconds = q.real(17);
        r.jobs = static_cast<int>(q.integer(18));
        r.cpu_model = q.text(19);
        r.gpu_model = q.text(20);
        return r;
    }

    const char* const run_columns
        = "run_id, generator, config, seed, backend, battery, mode, status, resolution_bits, "
          "params_sha256, testu01_version, rngvet_version, host, command_line, started_at, "
          "finished_at, numbers_used, cpu_seconds, jobs, cpu_model, gpu_model";

}  // namespace

const char* verdict(double p)
{
    if (p < 1e-10 || p > 1 - 1e-10) return "fail";
    if (p < 0.001 || p > 0.999) return "suspect";
    return "pass";
}

Store::Store(const std::string& path)
    : path_(path)
{
    const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                   nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot open database '" + path + "': " + why);
    }
    sqlite3_busy_timeout(db_, 30000);
    try {
        exec(db_, "PRAGMA foreign_keys = ON");
        migrate();
    } catch (const InputError& e) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot use database '" + path + "': "
                         + std::string(e.what()).substr(std::string("database error: ").size()));
    }
}

Store::~Store() { sqlite3_close(db_); }

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
                         + " is newer than this rngvet understands ("
                         + std::to_string(store_schema_version) + ")");
    if (current == 0) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master");
        q.step();
        if (q.integer(0) != 0)
            throw InputError("database error: the file holds tables but is not an rngvet store");
    }
    for (int v = current; v < store_schema_version; ++v) {
        exec(db_, migrations[v]);
        exec(db_, ("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
    }
    t.commit();
}

namespace {

    std::int64_t insert_run_row(sqlite3* db, const RunRecord& r)
    {
        Statement q(db,
                    "INSERT INTO runs (generator, config, seed, backend, battery, mode, status, "
                    "resolution_bits, params_sha256, testu01_version, rngvet_version, host, "
                    "command_line, started_at, finished_at, numbers_used, cpu_seconds, jobs, "
                    "cpu_model, gpu_model) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                    "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)");
        q.bind(1, r.generator).bind(2, r.config).bind(3, r.seed).bind(4, r.backend).bind(5, r.battery);
        q.bind(6, r.mode).bind(7, r.status).bind(8, std::int64_t {r.resolution_bits});
        q.bind(9, r.params_sha256).bind(10, r.testu01_version).bind(11, r.rngvet_version);
        q.bind(12, r.host).bind(13, r.command_line).bind(14, r.started_at);
        if (r.finished_at.empty()) q.bind_null(15);
        else q.bind(15, r.finished_at);
        q.bind(16, static_cast<std::int64_t>(r.numbers_used)).bind(17, r.cpu_seconds);
        q.bind(18, std::int64_t {r.jobs}).bind(19, r.cpu_model).bind(20, r.gpu_model);
        q.step();
        return sqlite3_last_insert_rowid(db);
    }

    void insert_statistics(sqlite3* db, std::int64_t id, const std::vector<StatisticRecord>& stats)
    {
        Statement s(db, "INSERT INTO statistics (run_id, stat_index, test_number, test_name, "
                        "pvalue) VALUES (?1, ?2, ?3, ?4, ?5)");
        for (const StatisticRecord& st : stats) {
            s.reset();
            s.bind(1, id).bind(2, std::int64_t {st.stat_index}).bind(3, std::int64_t {st.test_number});
            s.bind(4, st.test_name).bind(5, st.pvalue);
            s.step();
        }
    }

}  // namespace

std::int64_t Store::insert_run(const RunRecord& r, const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    const std::int64_t id = insert_run_row(db_, r);
    insert_statistics(db_, id, stats);
    t.commit();
    return id;
}

std::int64_t Store::create_run(const RunRecord& r)
{
    Transaction t(db_);
    const std::int64_t id = insert_run_row(db_, r);
    t.commit();
    return id;
}

void Store::insert_test(std::int64_t run_id, const TestRecord& test,
                        const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    Statement q(db_, "INSERT INTO tests (run_id, test_number, start_offset, numbers_used, "
                     "cpu_seconds, worker, refills, refill_waits, started_at, finished_at) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    q.bind(1, run_id).bind(2, std::int64_t {test.test_number});
    q.bind(3, static_cast<std::int64_t>(test.start_offset));
    q.bind(4, static_cast<std::int64_t>(test.numbers_used)).bind(5, test.cpu_seconds);
    q.bind(6, test.worker).bind(7, static_cast<std::int64_t>(test.refills));
    q.bind(8, static_cast<std::int64_t>(test.refill_waits)).bind(9, test.started_at);
    q.bind(10, test.finished_at);
    q.step();
    insert_statistics(db_, run_id, stats);
    Statement u(db_, "UPDATE runs SET numbers_used = numbers_used + ?2, cpu_seconds = cpu_seconds + ?3 "
                     "WHERE run_id = ?1");
    u.bind(1, run_id).bind(2, static_cast<std::int64_t>(test.numbers_used)).bind(3, test.cpu_seconds);
    u.step();
    t.commit();
}

void Store::finish_run(std::int64_t run_id, const std::string& status, const std::string& finished_at)
{
    Transaction t(db_);
    Statement q(db_, "UPDATE runs SET status = ?2, finished_at = ?3 WHERE run_id = ?1");
    q.bind(1, run_id).bind(2, status).bind(3, finished_at);
    q.step();
    t.commit();
}

std::vector<TestRecord> Store::tests(std::int64_t run_id)
{
    Statement q(db_, "SELECT test_number, start_offset, numbers_used, cpu_seconds, worker, refills, "
                     "refill_waits, started_at, finished_at FROM tests WHERE run_id = ?1 "
                     "ORDER BY test_number");
    q.bind(1, run_id);
    std::vector<TestRecord> out;
    while (q.step()) {
        TestRecord t;
        t.test_number = static_cast<int>(q.integer(0));
        t.start_offset = static_cast<std::uint64_t>(q.integer(1));
        t.numbers_used = static_cast<std::uint64_t>(q.integer(2));
        t.cpu_seconds = q.real(3);
        t.worker = q.text(4);
        t.refills = static_cast<std::uint64_t>(q.integer(5));
        t.refill_waits = static_cast<std::uint64_t>(q.integer(6));
        t.started_at = q.text(7);
        t.finished_at = q.text(8);
        out.push_back(t);
    }
    return out;
}

std::int64_t Store::insert_bench(const BenchRecord& b)
{
    Transaction t(db_);
    Statement q(db_, "INSERT INTO bench (config, backend, device, placement, numbers_per_second, "
                     "bytes_per_second, measured_at, command_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                     "?7, ?8)");
    q.bind(1, b.config).bind(2, b.backend).bind(3, b.device).bind(4, b.placement);
    q.bind(5, b.numbers_per_second).bind(6, b.bytes_per_second).bind(7, b.measured_at);
    q.bind(8, b.command_line);
    q.step();
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    t.commit();
    return id;
}

std::vector<BenchRecord> Store::bench()
{
    Statement q(db_, "SELECT bench_id, config, backend, device, placement, numbers_per_second, "
                     "bytes_per_second, measured_at, command_line FROM bench ORDER BY bench_id");
    std::vector<BenchRecord> out;
    while (q.step())
        out.push_back({q.integer(0), q.text(1), q.text(2), q.text(3), q.text(4), q.real(5), q.real(6),
                       q.text(7), q.text(8)});
    return out;
}

std::vector<RunRecord> Store::runs()
{
    Statement q(db_, (std::string("SELECT ") + run_columns + " FROM runs ORDER BY run_id").c_str());
    std::vector<RunRecord> out;
    while (q.step()) out.push_back(read_run(q));
    return out;
}

std::optional<RunRecord> Store::run(std::int64_t run_id)
{
    Statement q(db_, (std::string("SELECT ") + run_columns + " FROM runs WHERE run_id = ?1").c_str());
    q.bind(1, run_id);
    if (!q.step()) return std::nullopt;
    return read_run(q);
}

std::vector<StatisticRecord> Store::statistics(std::int64_t run_id)
{
    Statement q(db_, "SELECT stat_index, test_number, test_name, pvalue FROM statistics "
                     "WHERE run_id = ?1 ORDER BY stat_index");
    q.bind(1, run_id);
    std::vector<StatisticRecord> out;
    while (q.step())
        out.push_back({static_cast<int>(q.integer(0)), static_cast<int>(q.integer(1)), q.text(2),
                       q.real(3)});
    return out;
}

}  // namespace rngvet
