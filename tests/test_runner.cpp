// Batteries run test by test: serial equals TestU01's own battery, sharded runs are
// reproducible test by test, and a run killed part way resumes to exactly the full set.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>

extern "C" {
#include <testu01/umarsa.h>
}

#include "batteries/battery.hpp"
#include "reports/store.hpp"

namespace {

std::string temp(const std::string& name)
{
    const std::string path = testing::TempDir() + name;
    std::remove(path.c_str());
    std::remove((path + "-wal").c_str());
    std::remove((path + "-shm").c_str());
    return path;
}

int rngvet(const std::string& args)
{
    const std::string cmd = std::string(RNGVET_BINARY) + " " + args + " >/dev/null 2>"
        + testing::TempDir() + "runner_err.txt";
    const int raw = std::system(cmd.c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// stat_index -> p-value of a run.
std::map<int, double> pvalues(const std::string& db, std::int64_t run)
{
    rngvet::Store store(db);
    std::map<int, double> out;
    for (const auto& s : store.statistics(run)) {
        EXPECT_TRUE(out.emplace(s.stat_index, s.pvalue).second)
            << "duplicate statistic " << s.stat_index;
    }
    return out;
}

const std::string config = "--generator ranmar48x --seed 1802,9373 --instances 4 --layout "
                           "interleave --battery smallcrush";

TEST(Runner, SerialRunEqualsTestU01sOwnBatteryOnItsRanmar)
{
    const std::string db = temp("runner_serial.sqlite");
    ASSERT_EQ(rngvet("run --generator ranmar24 --seed 1802,9373 --mode serial --db " + db), 0);
    const auto ours = pvalues(db, 1);

    unif01_Gen* theirs = umarsa_CreateRANMAR(12, 34, 56, 78);
    const auto native = rngvet::run_battery(theirs, rngvet::smallcrush_catalogue(), {}, "");
    umarsa_DeleteGen(theirs);
    ASSERT_EQ(ours.size(), 15u);
    for (const auto& s : native.statistics)
        EXPECT_EQ(ours.at(s.stat_index), s.pvalue) << s.test_name;

    rngvet::Store store(db);
    const auto tests = store.tests(1);
    ASSERT_EQ(tests.size(), 10u);
    // One stream: each test starts where the previous one ended.
    for (std::size_t i = 1; i < tests.size(); ++i)
        EXPECT_EQ(tests[i].start_offset, tests[i - 1].start_offset + tests[i - 1].numbers_used);
    EXPECT_EQ(store.run(1)->status, "complete");
}

TEST(Runner, ShardedAndSerialStoreEveryStatisticAndASingleShardReproducesItsPvalues)
{
    const std::string db = temp("runner_sharded.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --jobs 4 --db " + db), 0);
    ASSERT_EQ(rngvet("run " + config + " --mode serial --db " + db), 0);
    const auto sharded = pvalues(db, 1), serial = pvalues(db, 2);
    EXPECT_EQ(sharded.size(), 15u);
    EXPECT_EQ(serial.size(), 15u);

    rngvet::Store store(db);
    EXPECT_EQ(store.run(1)->mode, "sharded");
    for (const auto& t : store.tests(1)) {
        EXPECT_EQ(t.start_offset, static_cast<std::uint64_t>(t.test_number - 1) << 40);
        EXPECT_LT(t.numbers_used, 1ull << 40);
    }
    // Test 10 (RandomWalk1, five statistics) alone, in a new run: the same p-values.
    ASSERT_EQ(rngvet("run " + config + " --mode sharded --tests 10 --db " + db), 0);
    const auto alone = pvalues(db, 3);
    ASSERT_EQ(alone.size(), 5u);
    for (const auto& [index, p] : alone)
        EXPECT_EQ(p, sharded.at(index)) << "statistic " << index;
}

// Starts a run in its own process group, waits until `tests` tests are stored, kills the whole
// group with SIGKILL or SIGTERM, and returns.
void start_and_kill(const std::string& args, const std::string& db, std::size_t tests, int signal)
{
    const std::string pidfile = temp("runner.pid");
    const std::string cmd = "setsid " + std::string(RNGVET_BINARY) + " " + args
        + " >/dev/null 2>&1 & echo $! >" + pidfile;
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    pid_t pid = 0;
    std::ifstream(pidfile) >> pid;
    ASSERT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline) {
        std::size_t stored = 0;
        try {
            rngvet::Store store(db);
            if (!store.runs().empty()) stored = store.tests(1).size();
        } catch (const std::exception&) {
        }
        if (stored >= tests) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (signal == SIGKILL)
        kill(-pid, SIGKILL);
    else
        kill(pid, signal);
    for (int i = 0; i < 100 && kill(pid, 0) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

TEST(Runner, AShardedRunKilledPartWayResumesToEveryStatisticExactlyOnce)
{
    const std::string reference = temp("runner_reference.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --jobs 2 --db " + reference), 0);
    const auto whole = pvalues(reference, 1);

    const std::string db = temp("runner_killed.sqlite");
    start_and_kill("run " + config + " --jobs 2 --db " + db, db, 3, SIGKILL);
    {
        rngvet::Store store(db);
        const auto tests = store.tests(1).size();
        EXPECT_GE(tests, 3u);
        EXPECT_LT(tests, 10u) << "the run finished before it was killed; nothing was tested";
        EXPECT_EQ(store.run(1)->status, "running"); // kill -9 leaves no chance to mark it
    }
    ASSERT_EQ(rngvet("run --resume 1 --db " + db), 0);
    const auto resumed = pvalues(db, 1);
    EXPECT_EQ(resumed, whole);
    EXPECT_EQ(rngvet::Store(db).run(1)->status, "complete");
}

TEST(Runner, ASerialRunStoppedBySigtermIsMarkedInterruptedAndResumesExactly)
{
    const std::string reference = temp("runner_serial_reference.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --mode serial --db " + reference), 0);
    const auto whole = pvalues(reference, 1);

    const std::string db = temp("runner_serial_stopped.sqlite");
    start_and_kill("run " + config + " --mode serial --db " + db, db, 2, SIGTERM);
    {
        rngvet::Store store(db);
        EXPECT_EQ(store.run(1)->status, "interrupted");
        EXPECT_LT(store.tests(1).size(), 10u);
    }
    ASSERT_EQ(rngvet("run --resume 1 --db " + db), 0);
    EXPECT_EQ(pvalues(db, 1), whole);
}

TEST(Runner, StatusListsRunsWithTheirProgress)
{
    const std::string db = temp("runner_status.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --tests 1,2 --jobs 2 --db " + db), 0);
    const std::string out = testing::TempDir() + "status.txt";
    ASSERT_EQ(
        std::system((std::string(RNGVET_BINARY) + " status --db " + db + " >" + out).c_str()), 0);
    std::stringstream s;
    s << std::ifstream(out).rdbuf();
    EXPECT_NE(s.str().find("complete        2/2"), std::string::npos) << s.str();
}

} // namespace
