// A crew of helper threads for native tests: the blocks of one chunk of numbers are worked
// through by the helpers and the calling thread, while the calling thread first reads the next
// chunk. Between chunks the helpers wait on a condition variable rather than spin (on a machine
// with more threads than cores a spinning helper would take the reading thread's core).
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rngvet::native {

class Crew {
public:
    explicit Crew(int helpers)
    {
        for (int i = 1; i <= helpers; ++i)
            threads_.emplace_back([this, i] { serve(i); });
    }
    ~Crew()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            quit_ = true;
        }
        work_.notify_all();
        for (std::thread& t : threads_)
            t.join();
    }
    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;

    // Runs body(block, thread) for blocks [0, blocks) on the helpers and, once before() has
    // returned, on the calling thread (thread 0) too; returns when every block is done (the
    // helpers' included), rethrowing what before() or the calling thread's blocks threw.
    void run(long blocks, const std::function<void(long, int)>& body,
        const std::function<void()>& before)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            body_ = &body;
            blocks_ = blocks;
            next_.store(0);
            pending_ = static_cast<int>(threads_.size());
            ++round_;
        }
        work_.notify_all();
        std::exception_ptr failed;
        try {
            before();
        } catch (...) {
            failed = std::current_exception();
        }
        try {
            take(0);
        } catch (...) {
            if (!failed) failed = std::current_exception();
        }
        {
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [this] { return pending_ == 0; });
        }
        if (failed) std::rethrow_exception(failed);
    }

private:
    void take(int thread)
    {
        for (long b = next_.fetch_add(1); b < blocks_; b = next_.fetch_add(1))
            (*body_)(b, thread);
    }
    void serve(int thread)
    {
        long seen = 0;
        while (true) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                work_.wait(lock, [&] { return quit_ || round_ != seen; });
                if (quit_) return;
                seen = round_;
            }
            take(thread);
            std::lock_guard<std::mutex> lock(mutex_);
            if (--pending_ == 0) done_.notify_all();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable work_, done_;
    const std::function<void(long, int)>* body_ = nullptr;
    long blocks_ = 0;
    std::atomic<long> next_{ 0 };
    long round_ = 0;
    int pending_ = 0;
    bool quit_ = false;
};

} // namespace rngvet::native
