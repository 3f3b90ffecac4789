// The one child-process pool (process/child_pool.hpp) that the sharded runner, the feed bench,
// local campaigns and the backend probe share, the long-lived workers of the sharded runner
// (process/worker_pool.hpp), the cores of process/cores.hpp and the memory bound of
// process/memory.hpp.
#include "generators/error.hpp"
#include "process/child_pool.hpp"
#include "process/cores.hpp"
#include "process/memory.hpp"
#include "process/worker_pool.hpp"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <sched.h>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
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

std::vector<WorkerPool::Ended> wait_all(WorkerPool& pool)
{
    std::vector<WorkerPool::Ended> all;
    while (!pool.empty())
        for (WorkerPool::Ended& e : pool.wait(-1))
            all.push_back(std::move(e));
    return all;
}

// Every job's report comes back whole under its job number with its argument, never more
// workers than slots, and a worker serves job after job: 9 jobs on 3 workers are answered by at
// most 3 processes, none of them this one, and what a worker kept from one job (a count here; a
// device context in rngvet) is still there at its next.
TEST(WorkerPool, WorkersServeJobAfterJobWithinTheSlots)
{
    int served = 0; // per worker process, after its fork
    WorkerPool pool(
        3,
        [&](int job, int arg) {
            ++served;
            // A report larger than a pipe's buffer, so that it comes back in several reads.
            return std::to_string(job) + " " + std::to_string(arg) + " " + std::to_string(getpid())
                + " " + std::to_string(served) + " " + std::string(200000, 'x');
        },
        "job");
    std::map<int, std::string> reports;
    int next = 0;
    while (next < 9 || !pool.empty()) {
        while (next < 9 && !pool.full()) {
            pool.start(next, 10 * next);
            ++next;
            EXPECT_LE(pool.busy(), 3);
            EXPECT_LE(pool.workers(), 3);
        }
        for (WorkerPool::Ended& e : pool.wait(-1)) {
            EXPECT_TRUE(e.ok);
            reports[e.job] = e.report;
        }
    }
    ASSERT_EQ(reports.size(), 9u);
    std::map<std::string, int> jobs_of; // pid -> jobs served
    int max_served = 0;
    for (const auto& [job, report] : reports) {
        int j = -1, arg = -1, pid = 0, count = 0;
        ASSERT_EQ(std::sscanf(report.c_str(), "%d %d %d %d", &j, &arg, &pid, &count), 4);
        EXPECT_EQ(j, job);
        EXPECT_EQ(arg, 10 * job);
        EXPECT_NE(pid, getpid());
        EXPECT_EQ(report.size(), report.find('x') + 200000) << "job " << job;
        ++jobs_of[std::to_string(pid)];
        max_served = std::max(max_served, count);
    }
    EXPECT_LE(jobs_of.size(), 3u);
    EXPECT_GE(max_served, 3);
    EXPECT_EQ(served, 0); // the parent's copy never ran a job
}

// prepare() forks the workers before any job, up to the slots; each runs set_on_fork's setup in
// itself (never in this process) before its first job, which sees what the setup left; the jobs
// then go to these workers, and no more are forked.
TEST(WorkerPool, PreparedWorkersRunTheirSetupBeforeTheirFirstJob)
{
    int set_up = 0; // per process: 1 where the setup ran
    WorkerPool pool(
        3,
        [&](int job, int) {
            return std::to_string(job) + " " + std::to_string(getpid()) + " "
                + std::to_string(set_up);
        },
        "job");
    pool.set_on_fork([&] { set_up = 1; });
    pool.prepare(5);
    EXPECT_EQ(pool.workers(), 3);
    EXPECT_EQ(pool.busy(), 0);
    pool.prepare(2); // as many exist already
    EXPECT_EQ(pool.workers(), 3);
    std::set<int> pids;
    for (int job = 0; job < 3; ++job)
        pool.start(job, 0);
    EXPECT_EQ(pool.workers(), 3);
    int answered = 0;
    while (!pool.empty())
        for (WorkerPool::Ended& e : pool.wait(-1)) {
            ASSERT_TRUE(e.ok);
            int job = -1, pid = 0, flag = 0;
            ASSERT_EQ(std::sscanf(e.report.c_str(), "%d %d %d", &job, &pid, &flag), 3);
            EXPECT_EQ(flag, 1) << "job " << job;
            EXPECT_NE(pid, getpid());
            pids.insert(pid);
            ++answered;
        }
    EXPECT_EQ(answered, 3);
    EXPECT_LE(pids.size(), 3u);
    EXPECT_EQ(set_up, 0); // the setup ran in the workers only
}

// A job that throws fails and ends its worker with status 2; a worker killed mid-job fails its
// job with the signal; one killed while idle is replaced; the jobs after each get a fresh worker
// and succeed.
TEST(WorkerPool, AFailedOrKilledWorkerFailsItsJobAndTheNextJobGetsAFreshWorker)
{
    WorkerPool pool(
        1,
        [](int job, int) -> std::string {
            if (job == 1) throw std::runtime_error("no");
            if (job == 2) ::raise(SIGKILL);
            return std::to_string(getpid());
        },
        "job");
    std::vector<std::string> pids;
    for (int job : { 0, 1, 3, 2, 4 }) {
        pool.start(job, 0);
        const auto ended = wait_all(pool);
        ASSERT_EQ(ended.size(), 1u);
        EXPECT_EQ(ended[0].job, job);
        if (job == 1) {
            EXPECT_FALSE(ended[0].ok);
            EXPECT_TRUE(WIFEXITED(ended[0].status) && WEXITSTATUS(ended[0].status) == 2);
        } else if (job == 2) {
            EXPECT_FALSE(ended[0].ok);
            EXPECT_TRUE(WIFSIGNALED(ended[0].status) && WTERMSIG(ended[0].status) == SIGKILL);
        } else {
            EXPECT_TRUE(ended[0].ok);
            pids.push_back(ended[0].report);
        }
    }
    ASSERT_EQ(pids.size(), 3u);
    EXPECT_NE(pids[0], pids[1]); // job 1's failure ended job 0's worker
    EXPECT_NE(pids[1], pids[2]); // job 2's kill ended job 3's worker

    // Killed while idle: the next job is handed to a fresh worker.
    pool.signal_all(SIGKILL);
    ::usleep(100000);
    pool.start(5, 0);
    const auto ended = wait_all(pool);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_TRUE(ended[0].ok);
    EXPECT_NE(ended[0].report, pids[2]);
    EXPECT_EQ(pool.workers(), 1);
}

// The one rule: at most half of the physical memory, exact at the boundary, for any item size,
// with a product that would wrap refused rather than wrapped, and no bound where the memory is
// unknown.
// The cores are the affinity mask's, not the machine's: a child confined to one processor (as
// `taskset -c 0` or a one-core allocation would) counts one.
TEST(Cores, TheyAreTheAffinityMasksNotTheMachines)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
    EXPECT_EQ(usable_cores(), CPU_COUNT(&mask));
    int first = 0;
    while (!CPU_ISSET(first, &mask))
        ++first;
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        const bool ok = sched_setaffinity(0, sizeof one, &one) == 0 && usable_cores() == 1;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(Memory, TheBoundIsHalfOfPhysicalMemory)
{
    EXPECT_TRUE(fits_in_memory(500, 1, 1000));
    EXPECT_FALSE(fits_in_memory(501, 1, 1000));
    EXPECT_TRUE(fits_in_memory(62, 8, 1000)); // 496 bytes
    EXPECT_FALSE(fits_in_memory(63, 8, 1000)); // 504 bytes
    EXPECT_TRUE(fits_in_memory(0, 8, 1000));
    EXPECT_TRUE(fits_in_memory(std::uint64_t(1) << 40, 0, 1000));
    // 2^40 items of 2^40 bytes wrap to 0 in 64 bits: refused all the same.
    EXPECT_FALSE(fits_in_memory(std::uint64_t(1) << 40, std::uint64_t(1) << 40, 1000));
    EXPECT_TRUE(fits_in_memory(~std::uint64_t(0), 8, 0));
    const std::uint64_t here = physical_memory();
    ASSERT_GT(here, 0u);
    EXPECT_TRUE(fits_in_memory(here / 2, 1, here));
    EXPECT_FALSE(fits_in_memory(here / 2 + 1, 1, here));
}

// check_fits_in_memory draws its line where the rule does, on this machine.
TEST(Memory, CheckFitsInMemoryFollowsTheRuleHere)
{
    const std::uint64_t bound = physical_memory() / 2;
    EXPECT_NO_THROW(check_fits_in_memory(bound, "--instances 1"));
    EXPECT_THROW(check_fits_in_memory(bound + 1, "--instances 2"), InputError);
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

// A buffer of 256 MiB freed and allocated again, written whole each time: after
// keep_freed_memory() the second writes fault no pages (the memory stayed with the process),
// where by default (a mapping of its own, unmapped when freed) every page faults again. Each
// runs in a child of its own, so that this process's allocator stays as it was.
TEST(Memory, KeepFreedMemoryMakesAReusedBufferFaultNoPagesAgain)
{
    constexpr std::size_t bytes = std::size_t(256) << 20;
    const long pages
        = static_cast<long>(bytes / static_cast<std::size_t>(::sysconf(_SC_PAGE_SIZE)));
    // The faults of the second allocation, written whole, after a first one freed; from a child.
    auto second_faults = [&](bool keep) {
        int fds[2];
        if (::pipe(fds) != 0) return -1L;
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (keep) keep_freed_memory();
            long faults = -1;
            for (int round = 0; round < 2; ++round) {
                rusage before{}, after{};
                ::getrusage(RUSAGE_SELF, &before);
                char* volatile p = static_cast<char*>(std::malloc(bytes));
                if (!p) ::_exit(3);
                std::memset(p, round + 1, bytes);
                ::getrusage(RUSAGE_SELF, &after);
                std::free(p);
                faults = after.ru_minflt - before.ru_minflt;
            }
            const ssize_t w = ::write(fds[1], &faults, sizeof faults);
            ::_exit(w == sizeof faults ? 0 : 4);
        }
        ::close(fds[1]);
        long faults = -1;
        const ssize_t r = ::read(fds[0], &faults, sizeof faults);
        ::close(fds[0]);
        int status = 0;
        ::waitpid(pid, &status, 0);
        return r == sizeof faults && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? faults : -1L;
    };
    const long by_default = second_faults(false);
    const long kept = second_faults(true);
    ASSERT_GE(by_default, 0);
    ASSERT_GE(kept, 0);
    // Transparent huge pages make the default's faults fewer (one per 2 MiB), never none.
    EXPECT_GT(by_default, 0) << "the default allocator kept the buffer: nothing to show";
    EXPECT_LT(kept * 10, by_default) << "kept memory faulted again (" << pages << " pages)";
}

} // namespace
} // namespace rngvet
