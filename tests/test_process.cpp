// The one child-process pool (process/child_pool.hpp) that the sharded runner, the feed bench,
// local campaigns and the backend probe share, and the memory bound of process/memory.hpp.
#include "generators/error.hpp"
#include "process/child_pool.hpp"
#include "process/memory.hpp"

#include <csignal>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace rngvet {
namespace {

// Every job's report comes back under its job number, from its own process, and the pool never
// holds more children than its slots.
TEST(ChildPool, EveryReportComesBackFromItsOwnChildWithinTheSlots)
{
    ChildPool pool(2);
    std::map<int, std::string> reports;
    int next = 0, running = 0;
    while (next < 7 || !pool.empty()) {
        while (next < 7 && !pool.full()) {
            const int job = next++;
            pool.start(job, "job " + std::to_string(job),
                [job] { return std::to_string(job) + " " + std::to_string(getpid()); });
            ++running;
            EXPECT_LE(running, 2);
        }
        for (const ChildPool::Ended& e : pool.wait(-1)) {
            --running;
            EXPECT_TRUE(e.ok);
            EXPECT_TRUE(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0);
            reports[e.job] = e.report;
        }
    }
    ASSERT_EQ(reports.size(), 7u);
    std::set<std::string> pids;
    for (const auto& [job, report] : reports) {
        const auto space = report.find(' ');
        ASSERT_NE(space, std::string::npos) << report;
        EXPECT_EQ(report.substr(0, space), std::to_string(job));
        pids.insert(report.substr(space + 1));
    }
    EXPECT_EQ(pids.size(), 7u);
    EXPECT_EQ(pids.count(std::to_string(getpid())), 0u);
}

std::vector<ChildPool::Ended> wait_all(ChildPool& pool)
{
    std::vector<ChildPool::Ended> all;
    while (!pool.empty())
        for (ChildPool::Ended& e : pool.wait(-1))
            all.push_back(std::move(e));
    return all;
}

// A job that throws exits 2 and one killed by a signal is seen so: neither counts as done,
// and the wait status says which.
TEST(ChildPool, AThrowingOrKilledChildIsNotOkAndItsStatusSaysWhy)
{
    ChildPool pool(2);
    pool.start(1, "throws", []() -> std::string { throw std::runtime_error("no"); });
    pool.start(2, "killed", []() -> std::string {
        ::raise(SIGKILL);
        return "unreachable";
    });
    const auto ended = wait_all(pool);
    ASSERT_EQ(ended.size(), 2u);
    for (const ChildPool::Ended& e : ended) {
        EXPECT_FALSE(e.ok);
        EXPECT_TRUE(e.report.empty());
        if (e.job == 1) {
            EXPECT_TRUE(WIFEXITED(e.status));
            EXPECT_EQ(WEXITSTATUS(e.status), 2);
        } else {
            EXPECT_TRUE(WIFSIGNALED(e.status));
            EXPECT_EQ(WTERMSIG(e.status), SIGKILL);
        }
    }
}

TEST(Memory, SizesBeyondHalfOfThisMachineAreRefusedNamingTheOption)
{
    EXPECT_NO_THROW(check_fits_in_memory(1 << 20, "--instances 1"));
    try {
        check_fits_in_memory(std::uint64_t(1) << 62, "--instances 999");
        FAIL() << "2^62 bytes accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--instances 999 needs about ", 0), 0u) << e.what();
    }
}

} // namespace
} // namespace rngvet
