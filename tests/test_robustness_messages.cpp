// Messages and consistency, driven through the rngvet binary (CTest label `robustness`):
// refusals come before a store is opened, exit statuses say what happened (2 bad input, 1 a
// failure of the machine or of a run already stored), each message names the real problem on
// one line, and what status, report and the library read is checked. Also the generated table
// of bad values for every option of every subcommand, and signals at every point of a short
// run followed by --resume. docs/reliability.md lists what each test shows.
#include "rngvet/rngvet.h"
#include "tests/support.hpp"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace rngvet_test;
namespace fs = std::filesystem;

// --- running the binary without a shell -------------------------------------------------------

struct Exit {
    int status = -1; // the exit status; -1 when ended by a signal
    int signal = 0; // the signal that ended it (0: it exited)
    bool timed_out = false; // still running at the deadline (then killed)
    std::string out, err;
};

// Runs rngvet with exactly these arguments (no shell: a value may hold any byte but NUL),
// standard input from `input`, for at most `seconds`.
Exit run_args(const std::vector<std::string>& args, double seconds = 30,
    const std::string& input = "/dev/null")
{
    const std::string out = running_test_file(".out"), err = running_test_file(".err");
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const int in = ::open(input.c_str(), O_RDONLY);
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || o < 0 || e < 0) _exit(126);
        ::dup2(in, 0);
        ::dup2(o, 1);
        ::dup2(e, 2);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(RNGVET_BINARY));
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(RNGVET_BINARY, argv.data());
        _exit(127);
    }
    Exit r;
    const auto deadline
        = std::chrono::steady_clock::now() + std::chrono::milliseconds(int(seconds * 1000));
    int raw = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &raw, WNOHANG);
        if (done == pid) break;
        if (std::chrono::steady_clock::now() > deadline) {
            r.timed_out = true;
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &raw, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) r.signal = WTERMSIG(raw);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

std::string args_text(const std::vector<std::string>& args)
{
    std::string s = "rngvet";
    for (const std::string& a : args) {
        s += " '";
        for (char c : a)
            s += c == '\n' ? std::string("\\n") : std::string(1, c);
        s += "'";
    }
    return s;
}

// A one-line refusal: `status`, one line starting "rngvet: error: " that holds `says`.
void expect_one_line(const Exit& r, int status, const std::string& says = "")
{
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.find('\0'), std::string::npos) << "a NUL byte in the message";
    EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
    if (!says.empty()) {
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    }
}

bool exists(const std::string& path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0;
}

// The bytes of the store and of anything SQLite keeps beside it: what a refusal must leave.
std::string store_bytes(const std::string& db)
{
    std::string all = slurp(db);
    for (const char* suffix : { "-wal", "-shm", "-journal" })
        all += std::string("|") + suffix + (exists(db + suffix) ? slurp(db + suffix) : "-");
    return all;
}

void sql_write(const std::string& db, const std::string& statement)
{
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(h, statement.c_str(), nullptr, nullptr, &message), SQLITE_OK)
        << (message ? message : "");
    sqlite3_free(message);
    // Back to a single file, as rngvet leaves a store.
    sqlite3_exec(h, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
    sqlite3_close(h);
}

std::string sql_value(const std::string& db, const std::string& query)
{
    sqlite3* h = nullptr;
    std::string out;
    if (sqlite3_open_v2(("file:" + db + "?mode=ro").c_str(), &h,
            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr)
        == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, query.c_str(), -1, &st, nullptr) == SQLITE_OK
            && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

const std::vector<std::string> ranmar
    = { "--generator", "ranmar48", "--seed", "1802,9373", "--battery", "smallcrush" };

std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// A store holding run 1: SmallCrush tests 1 and 2 of ranmar48, complete.
std::string store_with_one_run(const std::string& name)
{
    const std::string db = fresh(name);
    const Exit r = run_args(cat(cat({ "run" }, ranmar), { "--tests", "1,2", "--db", db }), 120);
    EXPECT_EQ(r.status, 0) << r.err;
    return db;
}

// --- C1: refusals come before the store is opened ----------------------------------------------

TEST(Messages, RefusalsOfRunComeBeforeAStoreIsCreatedOrOpened)
{
    // No store is created by a refused command.
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             cat(cat({ "run" }, ranmar), { "--jobs", "2", "--mode", "serial" }),
             { "run", "--resume", "1" },
             { "run", "--resume", "1", "--jobs", "2", "--mode", "serial" },
         }) {
        const std::string db = fresh("messages_new.sqlite");
        SCOPED_TRACE(args_text(cat(args, { "--db", db })));
        const Exit r = run_args(cat(args, { "--db", db }));
        expect_one_line(r, 2);
        EXPECT_FALSE(exists(db)) << "a refused run created the store";
        EXPECT_FALSE(exists(db + "-wal"));
    }

    // An existing store keeps every byte: each refusal below comes after the run is read.
    const std::string db = store_with_one_run("messages_existing.sqlite");
    // Run 2: interrupted after its first test (what a signal leaves).
    ASSERT_EQ(
        run_args(cat(cat({ "run" }, ranmar), { "--tests", "1,2", "--db", db }), 120).status, 0);
    sql_write(db,
        "DELETE FROM statistics WHERE run_id = 2 AND test_number = 2;"
        "DELETE FROM tests WHERE run_id = 2 AND test_number = 2;"
        "UPDATE runs SET status = 'interrupted' WHERE run_id = 2;");
    const std::string params = write_file(
        "messages_params.txt", slurp(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt"));
    ASSERT_EQ(run_args({ "run", "--generator", "mtdc", "--params", params, "--seed", "5",
                           "--battery", "smallcrush", "--tests", "1,2", "--db", db },
                  120)
                  .status,
        0);
    sql_write(db,
        "DELETE FROM statistics WHERE run_id = 3 AND test_number = 2;"
        "DELETE FROM tests WHERE run_id = 3 AND test_number = 2;"
        "UPDATE runs SET status = 'interrupted' WHERE run_id = 3;");
    std::ofstream(params, std::ios::app) << "# changed\n";
    const std::string before = store_bytes(db);
    int refusals = 0;
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             cat(cat({ "run" }, ranmar), { "--jobs", "2", "--mode", "serial" }),
             { "run", "--resume", "99" },
             { "run", "--resume", "2", "--jobs", "2", "--mode", "serial" },
             { "run", "--resume", "2", "--mode", "sharded" },
             { "run", "--resume", "2", "--mode", "neither" },
             { "run", "--resume", "2", "--prefetch", "sometimes" },
             { "run", "--resume", "3" }, // its parameter file changed
             { "run", "--resume", "1", "--generator", "ranmar48" },
         }) {
        SCOPED_TRACE(args_text(cat(args, { "--db", db })));
        const Exit r = run_args(cat(args, { "--db", db }));
        expect_one_line(r, 2);
        EXPECT_TRUE(store_bytes(db) == before) << "the refusal changed the store's bytes";
        ++refusals;
    }
    // A damaged stored field.
    sql_write(db, "UPDATE runs SET mode = 'bogus' WHERE run_id = 2");
    const std::string damaged = store_bytes(db);
    const Exit r = run_args({ "run", "--resume", "2", "--db", db });
    expect_one_line(r, 2, "mode");
    EXPECT_TRUE(store_bytes(db) == damaged) << "the refusal changed the store's bytes";
    RecordProperty("bad_inputs", refusals + 4);
}

// --- C2: exit statuses ---------------------------------------------------------------------------

TEST(Messages, AnOutputThatCannotBeWrittenExitsOneInEveryCommand)
{
    const std::string db = store_with_one_run("messages_out.sqlite");
    const std::string missing = fresh("messages_out_missing") + "/x";
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             { "generate", "--generator", "ranmar48", "--seed", "1802,9373", "--count", "4",
                 "--out", missing },
             { "generate", "--generator", "ranmar48", "--seed", "1802,9373", "--count", "inf",
                 "--out", missing },
             { "report", "--db", db, "--out", missing },
             { "dc", "create", "--p", "521", "--count", "1", "--seed", "1", "--out", missing },
         }) {
        SCOPED_TRACE(args_text(args));
        expect_one_line(run_args(args, 120), 1, "cannot write");
    }
}

TEST(Messages, AStreamThatEndsMidRunExitsOneWithTheFailedRunStored)
{
    const std::string words = fresh("messages_short.bin");
    {
        std::ofstream out(words, std::ios::binary);
        for (std::uint32_t i = 0; i < 10000; ++i) {
            const std::uint32_t w = i * 2654435761u;
            out.write(reinterpret_cast<const char*>(&w), sizeof w);
        }
    }
    const std::string db = fresh("messages_short.sqlite");
    const Exit r = run_args(
        { "run", "--generator", "stdin32", "--battery", "smallcrush", "--db", db }, 120, words);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(sql_value(db, "SELECT status FROM runs WHERE run_id = 1"), "failed");
}

TEST(Messages, ASecondProcessOnALiveRunIsRefusedAndLeavesItRunning)
{
    const std::string db = fresh("messages_live.sqlite");
    // A run long enough to be met while it runs: Rabbit on 2^24 bits.
    const std::vector<std::string> args = { "run", "--generator", "ranmar48", "--seed", "1802,9373",
        "--battery", "rabbit", "--nb", "2^24", "--db", db };
    const std::string out = running_test_file(".live");
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        std::vector<char*> argv{ const_cast<char*>(RNGVET_BINARY) };
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(RNGVET_BINARY, argv.data());
        _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (sql_value(db, "SELECT count(*) FROM tests") < "1"
        && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    int raw = 0;
    for (int k = 0; k < 2; ++k) {
        ASSERT_EQ(::waitpid(pid, &raw, WNOHANG), 0) << "the run ended before a second process "
                                                       "met it; make it longer";
        ASSERT_EQ(sql_value(db, "SELECT status FROM runs WHERE run_id = 1"), "running");
        const Exit second = run_args({ "run", "--resume", "1", "--db", db }, 60);
        const bool first_still_running = ::waitpid(pid, &raw, WNOHANG) == 0;
        expect_one_line(second, 2, "run 1");
        EXPECT_EQ(second.err.find("UNIQUE"), std::string::npos) << second.err;
        if (first_still_running) {
            EXPECT_EQ(sql_value(db, "SELECT status FROM runs WHERE run_id = 1"), "running")
                << "the refused process marked the live run";
        }
    }
    if (::waitpid(pid, &raw, WNOHANG) == 0) ::waitpid(pid, &raw, 0);
    EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << slurp(out);
    EXPECT_EQ(sql_value(db, "SELECT status FROM runs WHERE run_id = 1"), "complete");
    EXPECT_EQ(sql_value(db, "SELECT count(*) FROM tests WHERE run_id = 1"), "26");
}

// --- C3: messages that name the real problem -----------------------------------------------------

TEST(Messages, EachMessageNamesTheRealProblem)
{
    const std::string dir = fresh("messages_dir");
    fs::create_directories(dir);
    const std::string db = fresh("messages_names.sqlite");
    struct Case {
        std::vector<std::string> args;
        std::string says, never;
    };
    const std::vector<Case> cases = {
        { cat(cat({ "run" }, ranmar), { "--tests", "-1", "--db", db }), "--tests", "seed" },
        { cat(cat({ "run" }, ranmar), { "--tests", "1,", "--db", db }), "--tests", "seed" },
        { cat(cat({ "run" }, ranmar), { "--tests", "1,x", "--db", db }), "--tests", "seed" },
        { { "run", "--generator", "mtdc", "--seed", "1", "--params", dir, "--db", db },
            "not a regular file", "p=" },
        { { "dc", "verify", dir }, "not a regular file", "p=" },
        { { "campaign", "plan", dir }, "not a regular file", "section" },
        { { "status", "--db", dir }, "not a regular file", "I/O" },
        { cat(cat({ "run" }, ranmar), { "--tests", "1", "--db", dir }), "not a regular file",
            "I/O" },
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(args_text(c.args));
        const Exit r = run_args(c.args);
        expect_one_line(r, 2, c.says);
        EXPECT_EQ(r.err.find(c.never), std::string::npos) << r.err;
    }
    EXPECT_FALSE(exists(db));
}

TEST(Messages, ASeedRangeThatEndsBeforeItStartsSaysSo)
{
    const std::string file = write_file("messages_range.ini",
        "[campaign]\nname = r\nbattery = smallcrush\ntests = 1\n"
        "[configuration a]\ngenerator = mt19937\nseeds = 5..1\n");
    const Exit r = run_args({ "campaign", "plan", file });
    expect_one_line(r, 2, "5..1");
    EXPECT_EQ(r.err.find("4611686018427387904"), std::string::npos) << r.err;
}

TEST(Messages, AStoreWhoseTablesDoNotMatchItsSchemaVersionSaysSo)
{
    const std::string db = store_with_one_run("messages_schema.sqlite");
    sql_write(db, "PRAGMA user_version = 3");
    const std::string before = store_bytes(db);
    const Exit r = run_args(cat(cat({ "run" }, ranmar), { "--tests", "1", "--db", db }), 60);
    expect_one_line(r, 2, "schema version 3, but its tables are not those of version 3");
    EXPECT_TRUE(store_bytes(db) == before) << "the refused upgrade changed the store";
}

TEST(Messages, TheLibraryNamesTheNullOutputOfCernlibNext)
{
    ASSERT_EQ(rngvet_cernlib_set(1, 1802, 0, 0), RNGVET_OK) << rngvet_last_error();
    EXPECT_EQ(rngvet_cernlib_next(nullptr, 4, 1), RNGVET_ERROR_INPUT);
    const std::string message = rngvet_last_error();
    EXPECT_EQ(message.find("non-negative"), std::string::npos) << message;
    EXPECT_NE(message.find("NULL"), std::string::npos) << message;
    double v[1];
    EXPECT_EQ(rngvet_cernlib_next(v, -1, 1), RNGVET_ERROR_INPUT);
    EXPECT_NE(std::string(rngvet_last_error()).find("non-negative"), std::string::npos);
}

// --- C4: one line, whatever a value holds --------------------------------------------------------

TEST(Messages, ANewlineOrNulInAValueKeepsTheErrorOnOneLine)
{
    const std::string dir = fresh("messages_nl");
    fs::create_directories(dir);
    const std::string db = store_with_one_run("messages_nl.sqlite");
    const std::string before = store_bytes(db);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             { "run", "--generator", "ranmar48", "--seed", "1802\n9373", "--db", db },
             { "run", "--generator", "ranmar48\nx", "--seed", "1", "--db", db },
             { "status", "--db", dir + "/no\nsuch.sqlite" },
             { "report", "--db", db, "--out", dir + "/missing\n/x.md" },
             { "run", "--resume", "1", "--db", dir + "/no\nsuch.sqlite" },
             { "campaign", "plan", dir + "/no\nsuch.ini" },
         }) {
        SCOPED_TRACE(args_text(args));
        const Exit r = run_args(args, 60);
        EXPECT_TRUE(r.status == 1 || r.status == 2) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("\\n"), std::string::npos) << "the newline is not shown: " << r.err;
    }
    // A NUL and a carriage return inside values of a campaign file.
    const std::string ini = write_file("messages_nul.ini",
        std::string("[campaign]\nname = a\0b\nbattery = smallcrush\n", 40)
            + "[configuration a]\ngenerator = nosuch\rgen\nseeds = 1\n");
    const Exit r = run_args({ "campaign", "plan", ini });
    expect_one_line(r, 2);
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_TRUE(store_bytes(db) == before);
}

TEST(Messages, AnEmptyLayoutOrModeIsRefusedNotTakenAsTheDefault)
{
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             { "--layout", "" }, { "--mode", "" }, { "--seeding", "" }, { "--zero", "" },
             { "--backend", "" }, { "--view", "" }, { "--prefetch", "" } }) {
        const std::string db = fresh("messages_empty.sqlite");
        const std::vector<std::string> all
            = cat(cat(cat({ "run" }, ranmar), { "--tests", "1", "--db", db }), args);
        SCOPED_TRACE(args_text(all));
        expect_one_line(run_args(all), 2, args[0]);
        EXPECT_FALSE(exists(db));
    }
}

// --- C5: what status, report and the library read ------------------------------------------------

TEST(Messages, StatusListsEveryRunWhenOneHasAnUnknownBattery)
{
    const std::string db = store_with_one_run("messages_status.sqlite");
    ASSERT_EQ(run_args(cat(cat({ "run" }, ranmar), { "--tests", "3", "--db", db }), 120).status, 0);
    sql_write(db, "UPDATE runs SET battery = 'nosuch' WHERE run_id = 1");
    const Exit r = run_args({ "status", "--db", db });
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("nosuch"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n2 "), std::string::npos) << "run 2 is not listed:\n" << r.out;
}

TEST(Messages, AnImpossibleStoredPvalueIsRefusedNotRenderedAsAVerdict)
{
    for (const std::string p : { "2", "-0.5", "'abc'" }) {
        SCOPED_TRACE(p);
        const std::string db = store_with_one_run("messages_p2.sqlite");
        sql_write(
            db, "UPDATE statistics SET pvalue = " + p + " WHERE run_id = 1 AND stat_index = 1");
        for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
                 { "report", "--db", db }, { "report", "--db", db, "--fail-on", "fail" } }) {
            const Exit r = run_args(args, 60);
            expect_one_line(r, 2, "run 1");
            EXPECT_EQ(r.out.find("1 - eps1"), std::string::npos) << r.out;
        }
    }
}

TEST(Messages, TheLibraryRefusesAStoreOfAnotherSchemaVersion)
{
    const std::string db = store_with_one_run("messages_lib99.sqlite");
    rngvet_battery_verdict v[4];
    size_t count = 0;
    const std::string config = "ranmar48/1/single/increment/1802,9373";
    ASSERT_EQ(rngvet_stored_verdicts(db.c_str(), config.c_str(), v, 4, &count), RNGVET_OK)
        << rngvet_last_error();
    EXPECT_EQ(count, 1u);
    for (const char* version : { "99", "0", "3" }) {
        SCOPED_TRACE(version);
        sql_write(db, std::string("PRAGMA user_version = ") + version);
        EXPECT_EQ(
            rngvet_stored_verdicts(db.c_str(), config.c_str(), v, 4, &count), RNGVET_ERROR_STORE);
        EXPECT_NE(std::string(rngvet_last_error()).find("schema version"), std::string::npos)
            << rngvet_last_error();
        const Exit status = run_args({ "status", "--db", db });
        EXPECT_EQ(status.status, 2) << status.err;
    }
}

TEST(Messages, ReportWritesFileNamesAsCodeNotMarkdown)
{
    const std::string dir = fresh("messages_md");
    fs::create_directories(dir);
    const std::string name = "*a*_b_[x](y)<i>#h";
    const std::string input = dir + "/" + name + ".bin";
    {
        std::ofstream out(input, std::ios::binary);
        for (std::uint32_t i = 0; i < 600000; ++i) {
            const std::uint32_t w = i * 2654435761u ^ (i >> 3);
            out.write(reinterpret_cast<const char*>(&w), sizeof w);
        }
    }
    const std::string db = fresh("messages_md.sqlite");
    ASSERT_EQ(run_args({ "run", "--generator", "file:" + input, "--battery", "alphabit", "--nb",
                           "2^16", "--tests", "1", "--db", db },
                  120)
                  .status,
        0);
    const Exit r = run_args({ "report", "--db", db });
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    int seen = 0;
    for (std::string line; std::getline(lines, line);) {
        for (std::size_t at = line.find(name); at != std::string::npos;
             at = line.find(name, at + 1)) {
            ++seen;
            // Inside a code span: an odd number of backticks before it on its line.
            EXPECT_EQ(std::count(line.begin(), line.begin() + static_cast<long>(at), '`') % 2, 1)
                << line;
        }
    }
    EXPECT_GT(seen, 0) << r.out;
}

} // namespace
