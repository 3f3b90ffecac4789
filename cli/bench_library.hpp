// rngvet bench --library (bench_library.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet::cli {

// Times `count` doubles of the configuration `name` from the sequential reference engine, and
// through librngvet on each backend: buffered 10 and 10^6 numbers a call, direct 10^6. Prints a
// markdown table.
int bench_library(
    const std::string& name, const std::vector<std::string>& backends, std::uint64_t count);

} // namespace rngvet::cli
