// The feeding-overhead benchmark (`rngvet bench --feed BATTERY`): what it costs in CPU time to
// serve a battery from the toolkit's buffered feed (testu01_gen.hpp) instead of from a
// generator TestU01 computes itself.
//
// Every test of the battery runs twice in one worker process: on TestU01's own RANMAR,
// umarsa_CreateRANMAR(12, 34, 56, 78), and on the toolkit's ranmar24 with the same seeds
// (ij = 1802, kl = 9373: the same numbers, bit for bit) served by a stream of the chosen
// backend through TestU01Generator. Both runs start at the beginning of the stream, so their
// p-values must be identical, and that is checked. With several instances interleaved (how a
// GPU runs RANMAR) the fed stream is another one and only the CPU times are compared. Which of
// the two runs first alternates with the test number. Tests run in parallel worker processes,
// longest first.
#pragma once

#include "catalogue.hpp"
#include "runner.hpp"

#include <cstdint>
#include <vector>

namespace rngvet {

struct FeedComparison {
    int test = 0;
    double native_cpu = 0; // process CPU seconds of the test on TestU01's RANMAR
    double fed_cpu = 0; // ... on the toolkit's stream through the feed
    double setup_cpu = 0; // making the stream (device context, buffers), before the test
    std::uint64_t numbers = 0; // numbers the test read
    std::uint64_t refills = 0;
    std::uint64_t refill_waits = 0;
    bool device_fed = false; // the feed read the device's read-ahead in place
    int statistics = 0;
    bool same_pvalues = false; // every p-value of the two runs equal (and as many)
};

// `make(0)` builds the fed stream (a ranmar24 configuration seeded 1802, 9373).
// Throws std::runtime_error when a worker fails.
std::vector<FeedComparison> compare_feeding(const StreamFactoryFn& make,
    const BatteryCatalogue& battery, std::vector<int> tests, int jobs, bool prefetch);

} // namespace rngvet
