// Messages and consistency, driven through the rngvet binary (CTest label `robustness`):
// refusals come before a store is opened, exit statuses say what happened (2 bad input, 1 a
// failure of the machine or of a run already stored), each message names the real problem on
// one line, and what status, report and the library read is checked. Also the generated table
// of bad values for every option of every subcommand, and signals at every point of a short
// run followed by --resume. docs/reliability.md lists what each test shows.
#include "generators/configuration_options.hpp"
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
#include <regex>
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
// standard input from `input`, for at most `seconds`, in folder `cwd` (or this process's);
// with discard_out, its standard output goes to /dev/null.
Exit run_args(const std::vector<std::string>& args, double seconds = 30,
    const std::string& input = "/dev/null", const std::string& cwd = "", bool discard_out = false)
{
    const std::string out = running_test_file(".out"), err = running_test_file(".err");
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const int in = ::open(input.c_str(), O_RDONLY);
        const int o
            = ::open(discard_out ? "/dev/null" : out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || o < 0 || e < 0 || (!cwd.empty() && ::chdir(cwd.c_str()) != 0)) _exit(126);
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

// Changes the store with SQL (sql_write), then back to a single file, as rngvet leaves a store.
void sql_write_single_file(const std::string& db, const std::string& statement)
{
    sql_write(db, statement);
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_exec(h, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
    sqlite3_close(h);
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
    sql_write_single_file(db,
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
    sql_write_single_file(db,
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
    sql_write_single_file(db, "UPDATE runs SET mode = 'bogus' WHERE run_id = 2");
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
    EXPECT_EQ(sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1"), "failed");
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
    while (sql_readonly(db, "SELECT count(*) FROM tests") < "1"
        && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    int raw = 0;
    for (int k = 0; k < 2; ++k) {
        ASSERT_EQ(::waitpid(pid, &raw, WNOHANG), 0) << "the run ended before a second process "
                                                       "met it; make it longer";
        ASSERT_EQ(sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1"), "running");
        const Exit second = run_args({ "run", "--resume", "1", "--db", db }, 60);
        const bool first_still_running = ::waitpid(pid, &raw, WNOHANG) == 0;
        expect_one_line(second, 2, "run 1");
        EXPECT_EQ(second.err.find("UNIQUE"), std::string::npos) << second.err;
        if (first_still_running) {
            EXPECT_EQ(sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1"), "running")
                << "the refused process marked the live run";
        }
    }
    if (::waitpid(pid, &raw, WNOHANG) == 0) ::waitpid(pid, &raw, 0);
    EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << slurp(out);
    EXPECT_EQ(sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1"), "complete");
    EXPECT_EQ(sql_readonly(db, "SELECT count(*) FROM tests WHERE run_id = 1"), "26");
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

// Plugin libraries that cannot be used (library/include/rngvet/plugin.h; tests/plugin_faults.c
// breaks the ABI one way per symbol): each is one line naming the problem, exit 2, before the
// store is touched.
TEST(Messages, EachBadPluginIsOneLineBeforeTheStore)
{
    const std::string db = store_with_one_run("messages_plugins.sqlite");
    const std::string text = write_file("messages_not_a_library.so", "not a shared library\n");
    const std::string example = std::string("lib:") + RNGVET_EXAMPLE_PLUGIN;
    const std::string faults = std::string("lib:") + RNGVET_FAULT_PLUGIN + ":";
    struct Case {
        std::vector<std::string> generator; // --generator and what follows it
        std::string says;
    };
    const std::vector<Case> cases = {
        { { "lib:" + fresh("messages_missing.so"), "--seed", "1" }, "No such file" },
        { { "lib:" + text, "--seed", "1" }, "is not a shared library rngvet can load" },
        { { example + ":no_such_symbol", "--seed", "1" }, "exports no function 'no_such_symbol'" },
        { { faults + "wrong_version_generator", "--seed", "1" }, "of plugin ABI version 999" },
        { { faults + "wrong_bits_generator", "--seed", "1" }, "outputs have 48 bits" },
        { { faults + "null_next_generator", "--seed", "1" }, "has no next function" },
        { { faults + "null_generator", "--seed", "1" }, "returned no generator" },
        { { faults + "xorshift32_generator", "--seed", "1", "--jobs", "2" },
            "'xorshift32' has no skip function" },
        { { faults + "xorshift32_generator", "--seed", "0" }, "refuses the seed 0" },
        { { example }, "needs --seed" },
        { { example, "--seed", "1", "--backend", "openmp" }, "use --backend cpu" },
        { { example, "--seed", "1", "--library-sha256", "0123" }, "(--library-sha256)" },
        { { "ranmar48", "--seed", "1802,9373", "--library-sha256", "0123" },
            "--library-sha256 applies to generators that load a library" },
    };
    const std::string before = store_bytes(db);
    int refusals = 0;
    for (const Case& c : cases) {
        const std::vector<std::string> args = cat(cat({ "run", "--generator" }, c.generator),
            { "--battery", "smallcrush", "--tests", "1", "--db", db });
        SCOPED_TRACE(args_text(args));
        expect_one_line(run_args(args), 2, c.says);
        EXPECT_TRUE(store_bytes(db) == before) << "the refusal changed the store's bytes";
        ++refusals;
    }
    RecordProperty("bad_inputs", refusals);
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
    sql_write_single_file(db, "PRAGMA user_version = 3");
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
    sql_write_single_file(db, "UPDATE runs SET battery = 'nosuch' WHERE run_id = 1");
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
        sql_write_single_file(
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
        sql_write_single_file(db, std::string("PRAGMA user_version = ") + version);
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

// --- the generated table: every option of every subcommand, bad values -------------------------

// The running test's name (for a parameterized one, with its parameter).
std::string param_test_name()
{
    return testing::UnitTest::GetInstance()->current_test_info()->value_param()
        ? testing::UnitTest::GetInstance()->current_test_info()->name()
        : "plain";
}

// Where the table's commands run (their working directory: a value such as "0" given to --out
// makes a folder there) and what they are given.
struct Fixture {
    std::string dir, db, ini, campaign, params, out;
};

// One per test process (ctest runs each command's case in a process of its own, in parallel).
const Fixture& fixture()
{
    static const Fixture f = [] {
        Fixture x;
        x.dir = fresh("messages_table_" + test_name_part(param_test_name()));
        fs::create_directories(x.dir + "/cwd");
        fs::create_directories(x.dir + "/a-directory");
        ::mkfifo((x.dir + "/a-fifo").c_str(), 0600);
        ::symlink((x.dir + "/missing-target").c_str(), (x.dir + "/a-dangling-link").c_str());
        x.db = x.dir + "/store.sqlite";
        const Exit r
            = run_args({ "run", "--generator", "ranmar48", "--seed", "1802,9373", "--battery",
                           "alphabit", "--nb", "512", "--tests", "1", "--db", x.db },
                60);
        EXPECT_EQ(r.status, 0) << r.err;
        x.ini = x.dir + "/c.ini";
        std::ofstream(x.ini) << "[campaign]\nname = t\nbattery = smallcrush\ntests = 1\n"
                                "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n";
        x.campaign = x.dir + "/campaign";
        EXPECT_EQ(
            run_args({ "campaign", "submit", x.ini, "--slurm", "--dry-run", "--out", x.campaign })
                .status,
            0);
        x.params = x.dir + "/sets.txt";
        std::ofstream(x.params) << slurp(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt");
        x.out = x.dir + "/out";
        return x;
    }();
    return f;
}

// The bad values; {dir}, {fifo} and {link} name a folder, a FIFO with no writer and a symlink
// to a missing file.
const std::vector<std::string> bad_values = { "", "-1", "0", "4294967297", "1e308", "nan", "inf",
    "-inf", "18446744073709551616", "99999999999999999999", "{dir}", "{fifo}", "{link}", "1\n2" };

struct Command {
    const char* name; // as a test name
    std::vector<std::string> words; // the subcommand
    // A valid, cheap command line: (option, value) pairs; an option under test replaces its
    // pair. "" as the option: a positional word.
    std::vector<std::pair<std::string, std::string>> base;
    std::vector<std::string> options; // every option its --help lists (long names)
};

// {db}, {ini}, {campaign}, {params}, {out} are the fixture's.
const std::vector<Command>& commands()
{
    // The configuration options: the schema's rows read on the command line, so that a new row
    // is covered without an entry here.
    static const std::vector<std::string> configuration = [] {
        std::vector<std::string> names;
        for (const rngvet::ConfigurationOption& row : rngvet::configuration_options())
            if (row.places & rngvet::on_command_line) names.push_back(std::string("--") + row.name);
        return names;
    }();
    static const std::vector<Command> table = {
        { "run", { "run" },
            { { "--generator", "ranmar48" }, { "--seed", "1802,9373" }, { "--battery", "alphabit" },
                { "--nb", "512" }, { "--tests", "1" }, { "--db", "{db}" } },
            cat(configuration,
                { "--battery", "--nb", "--alphabit-r", "--alphabit-s", "--mcpi-points",
                    "--mcpi-reps", "--ising-L", "--ising-K", "--ising-therm", "--ising-steps",
                    "--ising-reps", "--ising-lanes", "--ising-own", "--tests", "--mode", "--jobs",
                    "--prefetch", "--resume", "--db", "--log", "--fail-on",
                    "--allow-unverified-params", "--engine", "--seeds" }) },
        { "status", { "status" }, { { "--db", "{db}" } }, { "--db" } },
        { "report", { "report" }, { { "--db", "{db}" } },
            { "--db", "--out", "--format", "--run", "--config", "--compare", "--runs",
                "--fail-on" } },
        { "generate", { "generate" },
            // /dev/full: a huge or endless --count fails at its first write, not after filling
            // the disk.
            { { "--generator", "ranmar48" }, { "--seed", "1802,9373" }, { "--count", "16" },
                { "--out", "/dev/full" } },
            cat(configuration, { "--count", "--format", "--out", "--allow-unverified-params" }) },
        { "validate", { "validate" },
            { { "--generator", "ranmar48" }, { "--seed", "1802,9373" }, { "--backend", "cpu" },
                { "--quiet", "" } },
            cat(configuration, { "--quiet", "--engine", "--battery", "--tests", "--db" }) },
        { "bench", { "bench" },
            { { "--backend", "cpu" }, { "--seconds", "0.01" }, { "--only", "nomatch" },
                { "--db", "{db}" } },
            { "--backend", "--seconds", "--launch", "--sdk-params", "--only", "--csv", "--sweep",
                "--db", "--feed", "--jobs", "--instances", "--prefetch", "--library", "--count",
                "--segments", "--segment-length", "--native", "--tests", "--threads",
                "--lattice" } },
        { "dc_create", { "dc", "create" },
            { { "--p", "521" }, { "--count", "1" }, { "--seed", "1" }, { "--out", "{out}" } },
            { "--p", "--count", "--seed", "--start-id", "--compat", "--out", "--threads" } },
        { "dc_verify", { "dc", "verify" }, { { "--params", "{params}" } },
            { "--params", "--verbose", "--max-defect", "--threads" } },
        { "campaign_plan", { "campaign", "plan" }, { { "--file", "{ini}" } },
            { "--file", "--nodes", "--cpus-per-node", "--list" } },
        { "campaign_submit", { "campaign", "submit" },
            { { "--file", "{ini}" }, { "--slurm", "" }, { "--dry-run", "" }, { "--out", "{out}" } },
            { "--file", "--slurm", "--dry-run", "--out", "--gpu-request" } },
        { "campaign_status", { "campaign", "status" }, { { "--dir", "{campaign}" } },
            { "--dir", "--all" } },
        { "campaign_merge", { "campaign", "merge" },
            { { "--dir", "{campaign}" }, { "--db", "{db}" } }, { "--dir", "--db", "--fail-on" } },
        { "campaign_resubmit", { "campaign", "resubmit" }, { { "--dir", "{campaign}" } },
            { "--dir" } },
        { "campaign_run", { "campaign", "run" },
            { { "--file", "{ini}" }, { "--out", "{out}" }, { "--db", "{db}" } },
            { "--file", "--jobs", "--gpus", "--tasks-per-gpu", "--out", "--db" } },
        { "campaign_prepare", { "campaign", "prepare" },
            { { "--dir", "{campaign}" }, { "--task", "0" } }, { "--dir", "--task" } },
    };
    return table;
}

std::string fill(std::string s)
{
    const Fixture& f = fixture();
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             { "{dir}", f.dir + "/a-directory" }, { "{fifo}", f.dir + "/a-fifo" },
             { "{link}", f.dir + "/a-dangling-link" }, { "{db}", f.db }, { "{ini}", f.ini },
             { "{campaign}", f.campaign }, { "{params}", f.params }, { "{out}", f.out } })
        for (std::size_t at; (at = s.find(key)) != std::string::npos;)
            s.replace(at, key.size(), value);
    return s;
}

class BadValues : public testing::TestWithParam<Command> { };

void PrintTo(const Command& c, std::ostream* out)
{
    *out << c.name;
}

// Every option its --help lists is in the table, so a new option is covered when it is added.
TEST_P(BadValues, TheTableHasEveryOptionOfTheHelp)
{
    const Command& c = GetParam();
    const Exit help = run_args(cat(c.words, { "--help" }));
    ASSERT_EQ(help.status, 0);
    std::istringstream lines(help.out);
    int listed = 0;
    for (std::string line; std::getline(lines, line);) {
        static const std::regex option_line(R"(^  +(-[a-zA-Z] \[ )?--[a-z0-9-]+.*)");
        if (!std::regex_match(line, option_line)) continue;
        const auto at = line.find("--");
        std::string name = line.substr(at);
        name = name.substr(0, name.find_first_of(" ]="));
        ++listed;
        EXPECT_NE(std::find(c.options.begin(), c.options.end(), name), c.options.end())
            << name << " of " << c.name << " is not in the table";
    }
    EXPECT_GT(listed, 0) << help.out;
}

TEST_P(BadValues, EndWithoutACrashInOneLineAndLeaveTheStore)
{
    const Command& c = GetParam();
    const Fixture& f = fixture();
    int cases = 0;
    for (const std::string& option : c.options) {
        for (const std::string& raw : bad_values) {
            std::vector<std::string> args = c.words;
            for (const auto& [o, v] : c.base) {
                if (o == option) continue;
                args.push_back(o);
                if (!v.empty()) args.push_back(fill(v));
            }
            args.push_back(option);
            args.push_back(fill(raw));
            // A fresh output path for each: nothing left by the previous case is met.
            std::error_code ignored;
            fs::remove_all(f.out, ignored);
            fs::remove_all(f.dir + "/cwd", ignored);
            fs::create_directories(f.dir + "/cwd");
            const std::string before = store_bytes(f.db);
            SCOPED_TRACE(args_text(args));
            const Exit r = run_args(args, 20, "/dev/null", f.dir + "/cwd", true);
            ++cases;
            EXPECT_FALSE(r.timed_out) << "still running after 20 s";
            EXPECT_EQ(r.signal, 0) << "ended by signal " << r.signal << ": " << r.err;
            EXPECT_TRUE(r.status == 0 || r.status == 1 || r.status == 2 || r.timed_out)
                << r.status << ": " << r.err;
            if (r.status != 0) {
                // One line (a campaign's missing tasks are listed on standard output).
                EXPECT_LE(count_lines(r.err), 1) << r.err;
                if (!r.err.empty()) {
                    EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
                }
                EXPECT_TRUE(store_bytes(f.db) == before) << "a refusal changed the store";
            }
        }
    }
    RecordProperty("bad_inputs", cases);
    std::cout << "[ table    ] " << c.name << ": " << cases << " bad inputs" << std::endl;
}

INSTANTIATE_TEST_SUITE_P(EveryOption, BadValues, testing::ValuesIn(commands()),
    [](const testing::TestParamInfo<Command>& p) { return std::string(p.param.name); });

// --- signals at every point of a short run, then --resume ---------------------------------------

struct SignalCase {
    const char* name;
    int signal;
    std::vector<std::string> mode;
};

const std::vector<SignalCase> signal_cases = {
    { "SIGTERM_serial", SIGTERM, { "--mode", "serial" } },
    { "SIGTERM_sharded", SIGTERM, { "--mode", "sharded", "--jobs", "2" } },
    { "SIGINT_serial", SIGINT, { "--mode", "serial" } },
    { "SIGINT_sharded", SIGINT, { "--mode", "sharded", "--jobs", "2" } },
    { "SIGKILL_serial", SIGKILL, { "--mode", "serial" } },
    { "SIGKILL_sharded", SIGKILL, { "--mode", "sharded", "--jobs", "2" } },
};

class SignalThenResume : public testing::TestWithParam<SignalCase> { };

void PrintTo(const SignalCase& c, std::ostream* out)
{
    *out << c.name;
}

// Rabbit on 2^22 bits: 26 tests of about 50 ms each.
const std::vector<std::string> rabbit = { "run", "--generator", "ranmar48", "--seed", "1802,9373",
    "--battery", "rabbit", "--nb", "2^22" };
constexpr int rabbit_tests = 26;

// stat_index -> p-value of run 1, read exactly.
std::map<int, double> stored_pvalues(const std::string& db)
{
    std::map<int, double> out;
    sqlite3* h = nullptr;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(
            h, "SELECT stat_index, pvalue FROM statistics WHERE run_id = 1", -1, &st, nullptr);
        while (st && sqlite3_step(st) == SQLITE_ROW)
            out[sqlite3_column_int(st, 0)] = sqlite3_column_double(st, 1);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

// Starts `args`, waits until run 1 has `tests` tests stored, sends `signal` to the process
// (SIGKILL: to its group, workers included, as the machine going down would); its exit.
Exit signal_after(const std::vector<std::string>& args, const std::string& db, int tests, int sig)
{
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
        std::vector<char*> argv{ const_cast<char*>(RNGVET_BINARY) };
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(RNGVET_BINARY, argv.data());
        _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int raw = 0;
    bool ended = false;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid, &raw, WNOHANG) == pid) {
            ended = true;
            break;
        }
        const std::string n = sql_readonly(db, "SELECT count(*) FROM tests WHERE run_id = 1");
        if (!n.empty() && std::stoi(n) >= tests) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!ended) {
        ::kill(sig == SIGKILL ? -pid : pid, sig);
        ::waitpid(pid, &raw, 0);
        // The whole group gone, workers included, as after the machine went down.
        for (int k = 0; k < 5000 && ::kill(-pid, 0) == 0; ++k)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    Exit r;
    if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) r.signal = WTERMSIG(raw);
    return r;
}

bool reserve_left(const std::string& db)
{
    for (const auto& e : fs::directory_iterator(fs::path(db).parent_path()))
        if (e.path().filename().string().rfind(fs::path(db).filename().string() + "-reserve", 0)
            == 0)
            return true;
    return false;
}

// A signal after 1, 4, 8, 12, 16 or 20 tests, and one more to the --resume that follows after
// a few more tests; each --resume then completes the run to the p-values of an uninterrupted
// run in the same mode, every statistic once.
TEST_P(SignalThenResume, ReachesTheUninterruptedPvalues)
{
    const SignalCase& c = GetParam();
    const std::string reference = fresh("messages_signal_ref_" + std::string(c.name) + ".sqlite");
    ASSERT_EQ(run_args(cat(cat(rabbit, c.mode), { "--db", reference }), 120).status, 0);
    const std::map<int, double> whole = stored_pvalues(reference);
    ASSERT_GT(whole.size(), static_cast<std::size_t>(rabbit_tests));
    int faults = 0;
    for (const int point : { 1, 4, 8, 12, 16, 20, -8 }) {
        // -8: a signal after 8 tests, then one to the resume after 8 more.
        const int first = point < 0 ? -point : point;
        SCOPED_TRACE(std::string(c.name) + " after " + std::to_string(first) + " tests");
        const std::string db = fresh("messages_signal_" + std::string(c.name) + ".sqlite");
        const Exit killed
            = signal_after(cat(cat(rabbit, c.mode), { "--db", db }), db, first, c.signal);
        const std::string status = sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1");
        if (status == "complete") continue; // it ended before the signal: no fault
        ++faults;
        if (c.signal == SIGKILL) {
            EXPECT_EQ(killed.signal, SIGKILL);
            EXPECT_EQ(status, "running");
        } else {
            EXPECT_EQ(killed.status, 130);
            EXPECT_EQ(status, "interrupted");
        }
        const std::vector<std::string> resume = { "run", "--resume", "1", "--db", db };
        if (point < 0) {
            const Exit again = signal_after(resume, db, first + 8, c.signal);
            if (sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1") != "complete")
                ++faults;
            EXPECT_NE(again.status, 1) << "the resumed run failed";
        }
        const Exit resumed = run_args(resume, 120);
        ASSERT_EQ(resumed.status, 0) << resumed.err;
        EXPECT_EQ(sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1"), "complete");
        EXPECT_EQ(sql_readonly(db, "SELECT count(*) FROM tests WHERE run_id = 1"),
            std::to_string(rabbit_tests));
        EXPECT_EQ(stored_pvalues(db), whole);
        EXPECT_FALSE(reserve_left(db)) << "a -reserve file was left beside the store";
    }
    EXPECT_GE(faults, 6) << "most signals came after the run had ended; make it longer";
    RecordProperty("faults", faults);
    std::cout << "[ faults   ] " << c.name << ": " << faults << std::endl;
}

INSTANTIATE_TEST_SUITE_P(ShortRun, SignalThenResume, testing::ValuesIn(signal_cases),
    [](const testing::TestParamInfo<SignalCase>& p) { return std::string(p.param.name); });

} // namespace
