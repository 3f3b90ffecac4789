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
#include "tests/support.hpp"

namespace {

using rngvet_test::fresh;

// `rngvet ARGS`: its exit status.
int rngvet(const std::string& args)
{
    return rngvet_test::run_rngvet(args).status;
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
    const std::string db = fresh("runner_serial.sqlite");
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
    EXPECT_EQ(store.run(1)->status, rngvet::RunStatus::complete);
}

TEST(Runner, ShardedAndSerialStoreEveryStatisticAndASingleShardReproducesItsPvalues)
{
    const std::string db = fresh("runner_sharded.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --jobs 4 --db " + db), 0);
    ASSERT_EQ(rngvet("run " + config + " --mode serial --db " + db), 0);
    const auto sharded = pvalues(db, 1), serial = pvalues(db, 2);
    EXPECT_EQ(sharded.size(), 15u);
    EXPECT_EQ(serial.size(), 15u);

    rngvet::Store store(db);
    EXPECT_EQ(store.run(1)->mode, rngvet::RunMode::sharded);
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
    const pid_t pid = rngvet_test::start_rngvet(args);
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

// A run stopped part way, as each mode is stopped: a sharded run killed with SIGKILL after 3
// tests (kill -9 leaves no chance to mark it: it stays "running"), a serial run stopped with
// SIGTERM after 2 (marked "interrupted"). --resume completes either to the p-values of an
// uninterrupted run, every statistic exactly once.
struct Interruption {
    const char* name;
    const char* mode; // options after the configuration
    std::size_t stored; // tests stored before the signal
    int signal;
    const char* status; // the run's status after the signal
};

class RunnerInterrupted : public testing::TestWithParam<Interruption> { };

TEST_P(RunnerInterrupted, ResumesToEveryStatisticExactlyOnce)
{
    const Interruption& k = GetParam();
    const std::string reference = fresh(std::string("runner_") + k.name + "_reference.sqlite");
    ASSERT_EQ(rngvet("run " + config + " " + k.mode + " --db " + reference), 0);
    const auto whole = pvalues(reference, 1);

    const std::string db = fresh(std::string("runner_") + k.name + "_stopped.sqlite");
    start_and_kill("run " + config + " " + k.mode + " --db " + db, db, k.stored, k.signal);
    {
        rngvet::Store store(db);
        const auto tests = store.tests(1).size();
        if (k.signal == SIGKILL) {
            EXPECT_GE(tests, k.stored);
        }
        EXPECT_LT(tests, 10u) << "the run finished before it was stopped; nothing was tested";
        EXPECT_STREQ(rngvet::to_text(store.run(1)->status), k.status);
    }
    ASSERT_EQ(rngvet("run --resume 1 --db " + db), 0);
    EXPECT_EQ(pvalues(db, 1), whole);
    EXPECT_EQ(rngvet::Store(db).run(1)->status, rngvet::RunStatus::complete);
}

INSTANTIATE_TEST_SUITE_P(Runner, RunnerInterrupted,
    testing::Values(Interruption{ "sharded_killed", "--jobs 2", 3, SIGKILL, "running" },
        Interruption{ "serial_stopped", "--mode serial", 2, SIGTERM, "interrupted" }),
    [](const testing::TestParamInfo<Interruption>& param_info) {
        return std::string(param_info.param.name);
    });

TEST(Runner, StatusListsRunsWithTheirProgress)
{
    const std::string db = fresh("runner_status.sqlite");
    ASSERT_EQ(rngvet("run " + config + " --tests 1,2 --jobs 2 --db " + db), 0);
    const rngvet_test::CliResult status = rngvet_test::run_rngvet("status --db " + db);
    ASSERT_EQ(status.status, 0);
    EXPECT_NE(status.out.find("complete        2/2"), std::string::npos) << status.out;
}

} // namespace
