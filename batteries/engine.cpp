#include "engine.hpp"

#include "generators/error.hpp"
#include "native/native.hpp"

namespace rngvet {

Engine parse_engine(const std::string& text)
{
    if (text == "testu01") return Engine::testu01;
    if (text == "native") return Engine::native;
    if (text == "auto") return Engine::automatic;
    throw InputError("--engine must be testu01, native or auto, got '" + text + "'");
}

std::string to_string(Engine engine)
{
    switch (engine) {
    case Engine::testu01:
        return "testu01";
    case Engine::native:
        return "native";
    case Engine::automatic:
        break;
    }
    return "auto";
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
        throw InputError("--engine native: test " + std::to_string(n) + " ("
            + battery.test(n).name + ") of " + battery.name + " has no native form ("
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

} // namespace rngvet
