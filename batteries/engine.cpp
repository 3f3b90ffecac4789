#include "engine.hpp"

#include "battery.hpp"
#include "generators/error.hpp"
#include "native/native.hpp"
#include "registry.hpp"
#include "testu01_gen.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>

namespace rngvet {

namespace {

// The engines: each one's text (what --engine takes and the store keeps) and what it means.
constexpr Term<Engine> engine_terms[] = {
    { Engine::testu01, "testu01", "TestU01's functions" },
    { Engine::native, "native",
        "rngvet's own, equal p-values bit for bit; every test must have one" },
    { Engine::automatic, "auto", "native where a test has it" },
};

} // namespace

const Words& engine_words()
{
    static const Words words = term_words(engine_terms);
    return words;
}

Engine parse_engine(const std::string& text)
{
    if (const std::optional<Engine> engine = term_value(engine_terms, text)) return *engine;
    throw InputError(
        "--engine must be " + term_alternatives(engine_terms) + ", got '" + text + "'");
}

std::string to_string(Engine engine)
{
    return term_text(engine_terms, engine);
}

Engine default_engine(const BatteryCatalogue& battery)
{
    return battery_family_row(battery.family()).native_by_default ? Engine::automatic
                                                                  : Engine::testu01;
}

const native::NativeTest* native_test(Engine engine, const BatteryCatalogue& battery, int test)
{
    if (engine == Engine::testu01) return nullptr;
    return native::find_test(battery.family(), test);
}

void check_engine(Engine engine, const BatteryCatalogue& battery, const std::vector<int>& tests)
{
    if (engine != Engine::native) return;
    std::vector<int> all = tests;
    if (all.empty())
        for (const TestEntry& t : battery.tests)
            all.push_back(t.number);
    for (int n : all) {
        if (native::find_test(battery.family(), n)) continue;
        const std::string have = native_tests_text(battery);
        throw InputError("--engine native: test " + std::to_string(n) + " (" + battery.test(n).name
            + ") of " + battery.name + " has no native form ("
            + (have.empty() ? "none of its tests has" : "native: " + have)
            + "); use --engine auto or testu01");
    }
}

std::string native_tests_text(const BatteryCatalogue& battery)
{
    std::string out;
    int first = 0, last = 0;
    auto flush = [&] {
        if (first == 0) return;
        if (!out.empty()) out += ",";
        out += std::to_string(first);
        if (last > first) out += (last == first + 1 ? "," : "-") + std::to_string(last);
    };
    for (const TestEntry& t : battery.tests) {
        if (!native::find_test(battery.family(), t.number)) continue;
        if (first != 0 && t.number == last + 1) {
            last = t.number;
            continue;
        }
        flush();
        first = last = t.number;
    }
    flush();
    return out;
}

namespace {

double clock_seconds(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
double cpu_now()
{
    return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}
double wall_now()
{
    return clock_seconds(CLOCK_MONOTONIC);
}

std::string hex(double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);
    return buf;
}

} // namespace

std::vector<EngineCheck> check_native_engine(const std::function<std::unique_ptr<Stream>()>& make,
    const BatteryCatalogue& battery, const std::vector<int>& tests)
{
    std::vector<int> selected = tests;
    if (selected.empty())
        for (const TestEntry& t : battery.tests)
            selected.push_back(t.number);
    std::vector<EngineCheck> out;
    for (int n : selected) {
        const native::NativeTest* form = native::find_test(battery.family(), n);
        if (!form) continue;
        EngineCheck check;
        check.test = n;
        check.name = battery.test(n).name;

        const auto reference_stream = make();
        TestU01Generator reference_feed(*reference_stream, reference_stream->name());
        double start = cpu_now(), wall = wall_now();
        const BatteryResult reference = run_battery(reference_feed.get(), battery, { n }, "");
        check.testu01_seconds = cpu_now() - start;
        check.testu01_wall = wall_now() - wall;

        const auto native_stream = make();
        TestU01Generator native_feed(*native_stream, native_stream->name());
        std::vector<native::NativeStatistic> values;
        start = cpu_now();
        wall = wall_now();
        {
            native::Numbers in(native_feed);
            values = form->run(in);
        }
        check.native_seconds = cpu_now() - start;
        check.native_wall = wall_now() - wall;

        std::string differs;
        if (values.size() != reference.statistics.size())
            differs = std::to_string(values.size()) + " p-values where TestU01 gives "
                + std::to_string(reference.statistics.size());
        for (std::size_t i = 0; differs.empty() && i < values.size(); ++i) {
            const Statistic& r = reference.statistics[i];
            if (values[i].name != r.test_name)
                differs = "statistic " + std::to_string(i + 1) + " is named '" + values[i].name
                    + "' where TestU01 names it '" + r.test_name + "'";
            else if (std::memcmp(&values[i].pvalue, &r.pvalue, sizeof r.pvalue) != 0)
                differs = r.test_name + ": native p = " + hex(values[i].pvalue)
                    + ", TestU01 p = " + hex(r.pvalue);
        }
        if (differs.empty() && native_feed.consumed() != reference_feed.consumed())
            differs = "native read " + std::to_string(native_feed.consumed()) + " numbers, TestU01 "
                + std::to_string(reference_feed.consumed());
        check.equal = differs.empty();
        check.detail = check.equal ? std::to_string(values.size()) + " p-value"
                + (values.size() == 1 ? "" : "s") + " equal as bits, "
                + std::to_string(native_feed.consumed()) + " numbers read by each"
                                   : differs;
        out.push_back(check);
    }
    return out;
}

} // namespace rngvet
