#include "dc/threads.hpp"

#include "process/cores.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rngvet {

int dc_thread_count(int requested, std::size_t jobs)
{
    int n = requested > 0 ? requested : usable_cores();
    n = std::max(1, n);
    return static_cast<int>(
        std::min<std::size_t>(static_cast<std::size_t>(n), std::max<std::size_t>(jobs, 1)));
}

// Runs job(i) for i in [0, jobs) on `threads` threads; rethrows the first exception.
void dc_parallel_for(std::size_t jobs, int threads, const std::function<void(std::size_t)>& job)
{
    std::atomic<std::size_t> next{ 0 };
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&] {
        for (std::size_t i; (i = next++) < jobs;) {
            try {
                job(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next = jobs;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    if (error) std::rethrow_exception(error);
}

} // namespace rngvet
