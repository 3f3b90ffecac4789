// What the tests share: running the rngvet binary (in the foreground or in a process group of
// its own), fresh paths in the test directory, run records for fixture stores, configurations,
// bit-exact comparison of streams, the backends to run on (skipped with the reason where one is
// not available here), and rows of the known-answer table (validators/known_answers.txt).
#pragma once

#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "kernels/backend.hpp"
#include "kernels/families.hpp"
#include "reports/store.hpp"
#include "validators/known_answers.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <memory>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <vector>

namespace rngvet_test {

// --- The rngvet binary -----------------------------------------------------------------------

struct CliResult {
    int status; // the exit status; -1 when the process did not exit normally
    std::string out;
    std::string err;
};

inline std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A file in the test directory named after the running test (its suite, name and parameter),
// with `suffix`: ctest runs the tests of one executable in parallel processes.
inline std::string running_test_file(const std::string& suffix)
{
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + "." + test->name();
    std::replace(name.begin(), name.end(), '/', '_');
    return testing::TempDir() + "rngvet_" + name + suffix;
}

// `rngvet ARGS` through the shell, with `env` (assignments such as "RNGVET_X=1") before it.
// Its output goes through files named after the running test.
inline CliResult run_rngvet(const std::string& args, const std::string& env = "")
{
    const std::string out = running_test_file(".out"), err = running_test_file(".err");
    const std::string cmd
        = env + " " + std::string(RNGVET_BINARY) + " " + args + " >" + out + " 2>" + err;
    const int raw = std::system(cmd.c_str());
    return { WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err) };
}

// `rngvet ARGS` in the background, in a process group of its own (setsid), output discarded:
// its process id (the group's), or 0 when it could not be started.
inline pid_t start_rngvet(const std::string& args)
{
    const std::string pidfile = running_test_file(".pid");
    const std::string cmd = "setsid " + std::string(RNGVET_BINARY) + " " + args
        + " >/dev/null 2>&1 & echo $! >" + pidfile;
    if (std::system(cmd.c_str()) != 0) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pid_t pid = 0;
    std::ifstream(pidfile) >> pid;
    return pid;
}

// The lines of a command's output (a one-line error is 1).
inline int count_lines(const std::string& s)
{
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

// A path in the test directory with nothing (file, folder, SQLite journal) left from an earlier
// run.
inline std::string fresh(const std::string& name)
{
    const std::string path = testing::TempDir() + name;
    std::error_code ignored;
    for (const char* suffix : { "", "-wal", "-shm" })
        std::filesystem::remove_all(path + suffix, ignored);
    return path;
}

// A file in the test directory holding `text`.
inline std::string write_file(const std::string& name, const std::string& text)
{
    const std::string path = fresh(name);
    std::ofstream(path) << text;
    return path;
}

// --- Stores ----------------------------------------------------------------------------------

// Changes the store with SQL, as damage would.
inline void sql_write(const std::string& db, const std::string& statement)
{
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(h, statement.c_str(), nullptr, nullptr, &message), SQLITE_OK)
        << (message ? message : "");
    sqlite3_free(message);
    sqlite3_close(h);
}

// One SQL value of the first row, as text, through a read-only connection ("" when the query
// fails, with SQLite's message in `error`).
inline std::string sql_readonly(
    const std::string& db, const std::string& query, std::string* error = nullptr)
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
        else if (error)
            *error = sqlite3_errmsg(h);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

// A complete cpu run of SmallCrush as a fixture store holds it; tests change what they look at.
inline rngvet::RunRecord run_record(const std::string& generator, const std::string& config,
    const std::string& seed, int resolution_bits)
{
    rngvet::RunRecord r;
    r.generator = generator;
    r.config = config;
    r.seed = seed;
    r.backend = "cpu";
    r.battery = "smallcrush";
    r.status = rngvet::RunStatus::complete;
    r.resolution_bits = resolution_bits;
    r.testu01_version = "TestU01 1.2.3";
    r.rngvet_version = "test";
    r.host = "host";
    r.command_line = "rngvet run";
    r.started_at = "2026-01-01T00:00:00Z";
    return r;
}

// --- Configurations and streams -------------------------------------------------------------

// A RANMAR configuration (ranmar24, ranmar48, ranmar48x) seeded (ij, kl).
inline rngvet::Configuration ranmar_config(const std::string& generator, int instances,
    const std::string& layout, const std::string& seeding, int ij, int kl,
    const std::string& zero = "keep", std::uint64_t skip = 0)
{
    rngvet::Configuration c;
    c.generator = generator;
    c.instances = instances;
    c.layout = rngvet::parse_layout(layout);
    c.seeding = rngvet::parse_seeding(seeding);
    c.seed = { ij, kl };
    c.zero = rngvet::parse_zero_policy(zero);
    c.skip = skip;
    return c;
}

// A Mersenne Twister configuration: mt19937 (params "") or mtdc with a parameter set.
inline rngvet::Configuration mt_config(const std::string& generator, const std::string& params,
    int instances, const std::string& layout, const std::string& seeding,
    std::vector<std::int64_t> seed, int param_id = 0, std::uint64_t skip = 0)
{
    rngvet::Configuration c;
    c.generator = generator;
    c.params = params;
    c.param_id = param_id;
    c.instances = instances;
    c.layout = rngvet::parse_layout(layout);
    c.seeding = rngvet::parse_seeding(seeding);
    c.seed = std::move(seed);
    c.skip = skip;
    return c;
}

// The first n numbers of a configuration's reference stream (backend cpu).
// Sets an environment variable for as long as it lives.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value)
        : name_(name)
    {
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { ::unsetenv(name_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
};

inline std::vector<std::uint64_t> reference(rngvet::Configuration c, std::size_t n)
{
    c.backend = rngvet::Backend::cpu;
    std::vector<std::uint64_t> out(n);
    rngvet::make_stream(c)->fill(out.data(), n);
    return out;
}

// Bit-exact comparison that reports the first difference, not a million numbers.
inline testing::AssertionResult same_words(
    const std::vector<std::uint64_t>& want, const std::vector<std::uint64_t>& got)
{
    if (want.size() != got.size())
        return testing::AssertionFailure()
            << "sizes differ: " << want.size() << " vs " << got.size();
    std::size_t first = want.size(), count = 0;
    for (std::size_t k = 0; k < want.size(); ++k)
        if (want[k] != got[k]) {
            if (count++ == 0) first = k;
        }
    if (count == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure()
        << count << " of " << want.size() << " words differ; first at combined index " << first
        << ": reference " << want[first] << ", backend " << got[first];
}

// --- Backends --------------------------------------------------------------------------------

// The backends that run kernels; "cpu" is the reference they are compared with.
inline const std::vector<std::string>& kernel_backends()
{
    static const std::vector<std::string> names = { "openmp", "opencl", "cuda" };
    return names;
}

// Whether $RNGVET_REQUIRE_BACKENDS (comma-separated; scripts/gpu-check sets it) lists backend.
inline bool required_backend(const std::string& backend)
{
    const char* env = std::getenv("RNGVET_REQUIRE_BACKENDS");
    if (!env) return false;
    std::stringstream in(env);
    std::string item;
    while (std::getline(in, item, ','))
        if (item == backend) return true;
    return false;
}

// For a fixture's SetUp: a backend not available here skips the test with the reason (a
// failure where the backend is required); the first test on an available backend names its
// device.
inline void skip_unless_available(const std::string& backend)
{
    const std::vector<rngvet::Backend> available = rngvet::available_backends();
    const rngvet::Backend typed = rngvet::parse_backend(backend);
    if (std::find(available.begin(), available.end(), typed) == available.end()) {
        std::string why = "backend '" + backend + "' is not available";
        try {
            rngvet::Configuration c = ranmar_config("ranmar24", 1, "single", "increment", 1, 1);
            c.backend = rngvet::parse_backend_here(backend);
            rngvet::make_backend_stream(c);
        } catch (const rngvet::InputError& e) {
            why = e.what();
        }
        if (required_backend(backend)) FAIL() << "required backend unavailable: " << why;
        GTEST_SKIP() << why;
    }
    // Once per backend, the device the tests run on (the one a stream picks, e.g. the OpenCL
    // device $RNGVET_OPENCL_DEVICE names, not the first one listed).
    static std::set<std::string> announced;
    if (announced.insert(backend).second) {
        const rngvet::RanmarSetup setup
            = rngvet::ranmar_setup(ranmar_config("ranmar24", 1, "single", "increment", 1, 1));
        std::unique_ptr<rngvet::KernelDevice> device;
        if (typed != rngvet::Backend::cpu)
            device = rngvet::make_device<rngvet::RanmarKernels>(typed, setup, -1);
        const std::vector<std::string> devices = rngvet::backend_devices(typed);
        std::cout << "[ backend  ] "
                  << (device ? device->description()
                             : backend + ": " + (devices.empty() ? "host" : devices.front()))
                  << std::endl;
    }
}

// A test name's part from a backend or generator name ("ranmar48x", "openmp").
inline std::string test_name_part(const std::string& s)
{
    std::string out;
    for (char c : s)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return out;
}

// --- The known-answer table ------------------------------------------------------------------

// The rows of the embedded table for one generator.
inline std::vector<rngvet::KnownAnswer> known_answers_of(const std::string& generator)
{
    std::vector<rngvet::KnownAnswer> rows;
    for (const rngvet::KnownAnswer& row : rngvet::known_answers())
        if (row.generator == generator) rows.push_back(row);
    return rows;
}

// The row of `generator` seeded `seed` (as the table writes it, without "array:") after `skip`
// numbers; the test fails where the table has none.
inline rngvet::KnownAnswer known_answer(
    const std::string& generator, const std::string& seed, std::uint64_t skip = 0)
{
    for (const rngvet::KnownAnswer& row : known_answers_of(generator))
        if (row.seed == rngvet::parse_seed(seed) && row.skip == skip) return row;
    ADD_FAILURE() << "known_answers.txt has no row " << generator << " " << seed << " skip "
                  << skip;
    rngvet::KnownAnswer none;
    none.values.assign(16, 0);
    return none;
}

} // namespace rngvet_test
