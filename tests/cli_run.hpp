// Running the rngvet binary from a test: its exit status, standard output and standard error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace rngvet_test {

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

// `rngvet ARGS` through the shell. Its output goes through files named after the running test:
// ctest runs the tests of one executable in parallel processes.
inline CliResult run_rngvet(const std::string& args)
{
    const std::string base = testing::TempDir() + "rngvet_"
        + testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string out = base + ".out", err = base + ".err";
    const std::string cmd = std::string(RNGVET_BINARY) + " " + args + " >" + out + " 2>" + err;
    const int raw = std::system(cmd.c_str());
    return { WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err) };
}

// The lines of a command's output (a one-line error is 1).
inline int count_lines(const std::string& s)
{
    int n = 0;
    for (char c : s)
        n += c == '\n';
    return n;
}

// A path in the test directory with no file (nor SQLite journal) left from an earlier run.
inline std::string fresh(const std::string& name)
{
    const std::string path = testing::TempDir() + name;
    for (const char* suffix : { "", "-wal", "-shm" })
        std::remove((path + suffix).c_str());
    return path;
}

} // namespace rngvet_test
