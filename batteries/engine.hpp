// Which engine computes a test's statistics: TestU01's own function (the reference), rngvet's
// native form of it (batteries/native/native.hpp), or the native form where the test has one.
#pragma once

#include "catalogue.hpp"
#include "generators/stream.hpp"
#include "generators/words.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

namespace native {
struct NativeTest;
}

enum class Engine { testu01, native, automatic };

// A name of engine_words(); throws InputError naming them.
Engine parse_engine(const std::string& text);
// The values --engine accepts, with what each means.
const Words& engine_words();
std::string to_string(Engine engine);

// The engine a run of `battery` takes when none is asked for: auto where the registry says the
// battery is proven wholly native (registry.hpp), testu01 otherwise.
Engine default_engine(const BatteryCatalogue& battery);

// The native form that `engine` runs for test `test` of `battery`, or nullptr where TestU01's
// function runs it (engine testu01, or auto and the test has no native form).
const native::NativeTest* native_test(Engine engine, const BatteryCatalogue& battery, int test);

// Refuses (InputError, one line) engine native for a selection with a test that has no native
// form, naming the first such test and the way out.
void check_engine(Engine engine, const BatteryCatalogue& battery, const std::vector<int>& tests);

// Tests of the battery that have a native form ("" for none, else e.g. "1-10" or "1,4,7").
std::string native_tests_text(const BatteryCatalogue& battery);

// The exactness contract checked on this machine (rngvet validate --engine native): a test run
// by TestU01's function and by its native form, each on a fresh stream from `make`.
struct EngineCheck {
    int test = 0;
    std::string name; // the catalogue's
    bool equal = false; // every p-value equal as bits, the same names, the same count of numbers
    std::string detail; // what differs, or what was compared
    double testu01_seconds = 0; // CPU seconds of each engine on this test
    double native_seconds = 0;
    double testu01_wall = 0; // wall seconds (the native engine runs on native::threads())
    double native_wall = 0;
};
// Every test of `tests` (all of the battery when empty) that has a native form.
std::vector<EngineCheck> check_native_engine(const std::function<std::unique_ptr<Stream>()>& make,
    const BatteryCatalogue& battery, const std::vector<int>& tests);

} // namespace rngvet
