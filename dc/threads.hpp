// The threads of the Dynamic Creator's search and checks.
#pragma once

#include <cstddef>
#include <functional>

namespace rngvet {

// `requested` threads (<= 0: hardware concurrency), at least 1 and at most max(jobs, 1).
int dc_thread_count(int requested, std::size_t jobs);

// Runs job(i) for i in [0, jobs) on `threads` threads, the caller's among them; rethrows the
// first exception (later jobs are then not started).
void dc_parallel_for(std::size_t jobs, int threads, const std::function<void(std::size_t)>& job);

} // namespace rngvet
