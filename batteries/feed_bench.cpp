#include "feed_bench.hpp"

#include "battery.hpp"
#include "process/child_pool.hpp"
#include "testu01_gen.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

extern "C" {
#include <testu01/umarsa.h>
}

namespace rngvet {
namespace {

// The worker's report: one line of tab-separated fields, CPU seconds in hexadecimal floating
// point so they cross exactly.
std::string encode(const FeedComparison& c)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%d\t%a\t%a\t%a\t%llu\t%llu\t%llu\t%d\t%d\t%d\n", c.test,
        c.native_cpu, c.fed_cpu, c.setup_cpu, static_cast<unsigned long long>(c.numbers),
        static_cast<unsigned long long>(c.refills), static_cast<unsigned long long>(c.refill_waits),
        c.device_fed ? 1 : 0, c.statistics, c.same_pvalues ? 1 : 0);
    return buf;
}

bool decode(const std::string& line, FeedComparison& c)
{
    std::istringstream in(line);
    std::string f[10];
    for (auto& field : f)
        if (!std::getline(in, field, '\t')) return false;
    try {
        c.test = std::stoi(f[0]);
        c.native_cpu = std::strtod(f[1].c_str(), nullptr);
        c.fed_cpu = std::strtod(f[2].c_str(), nullptr);
        c.setup_cpu = std::strtod(f[3].c_str(), nullptr);
        c.numbers = std::stoull(f[4]);
        c.refills = std::stoull(f[5]);
        c.refill_waits = std::stoull(f[6]);
        c.device_fed = f[7] == "1";
        c.statistics = std::stoi(f[8]);
        c.same_pvalues = std::stoi(f[9]) == 1;
    } catch (const std::exception&) {
        return false;
    }
    return true;
}

FeedComparison compare_one(
    const StreamFactoryFn& make, const BatteryCatalogue& battery, int test, bool prefetch)
{
    FeedComparison c;
    c.test = test;
    BatteryResult native, fed;
    auto run_native = [&] {
        unif01_Gen* gen = umarsa_CreateRANMAR(12, 34, 56, 78);
        const double cpu = process_cpu_seconds();
        native = run_battery(gen, battery, { test }, "");
        c.native_cpu = process_cpu_seconds() - cpu;
        umarsa_DeleteGen(gen);
    };
    auto run_fed = [&] {
        const double setup = process_cpu_seconds();
        auto stream = make(0);
        FeedOptions options;
        options.prefetch = prefetch;
        TestU01Generator gen(*stream, "ranmar24", options);
        const double cpu = process_cpu_seconds();
        c.setup_cpu = cpu - setup;
        fed = run_battery(gen.get(), battery, { test }, "");
        c.fed_cpu = process_cpu_seconds() - cpu;
        c.numbers = gen.consumed();
        c.refills = gen.refills();
        c.refill_waits = gen.refill_waits();
        c.device_fed = gen.device_fed();
    };
    if (test % 2 == 0) {
        run_native();
        run_fed();
    } else {
        run_fed();
        run_native();
    }
    c.statistics = static_cast<int>(fed.statistics.size());
    c.same_pvalues = fed.statistics.size() == native.statistics.size();
    for (std::size_t k = 0; c.same_pvalues && k < fed.statistics.size(); ++k)
        c.same_pvalues = fed.statistics[k].pvalue == native.statistics[k].pvalue;
    return c;
}

} // namespace

std::vector<FeedComparison> compare_feeding(const StreamFactoryFn& make,
    const BatteryCatalogue& battery, std::vector<int> tests, int jobs, bool prefetch)
{
    std::stable_sort(tests.begin(), tests.end(),
        [&](int a, int b) { return battery.test(a).cost > battery.test(b).cost; });
    std::vector<FeedComparison> results;
    ChildPool pool(jobs);
    std::size_t next = 0;
    while (next < tests.size() || !pool.empty()) {
        while (next < tests.size() && !pool.full()) {
            const int test = tests[next++];
            pool.start(test, "test " + std::to_string(test),
                [&, test] { return encode(compare_one(make, battery, test, prefetch)); });
        }
        for (const ChildPool::Ended& e : pool.wait(-1)) {
            FeedComparison c;
            // The pool's destructor ends the other workers.
            if (!e.ok || !decode(e.report, c))
                throw std::runtime_error("the worker of test " + std::to_string(e.job)
                    + " failed; nothing was measured");
            results.push_back(c);
        }
    }
    std::sort(results.begin(), results.end(),
        [](const FeedComparison& a, const FeedComparison& b) { return a.test < b.test; });
    return results;
}

} // namespace rngvet
