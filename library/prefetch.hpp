// The buffered interface's prefetch: two buffers of a stream's numbers, one being consumed
// while a background thread has the backend fill the other, in stream order.
#pragma once

#include "generators/stream.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rngvet::library {

class Prefetch {
public:
    Prefetch(std::unique_ptr<Stream> stream, std::size_t buffer_numbers);
    ~Prefetch();
    Prefetch(const Prefetch&) = delete;
    Prefetch& operator=(const Prefetch&) = delete;

    // Up to n (at least 1) next numbers of the stream, contiguous, valid until the next call.
    const std::uint64_t* acquire(std::size_t& n)
    {
        if (pos_ == have_) next_buffer();
        if (n > have_ - pos_) n = have_ - pos_;
        const std::uint64_t* p = buffers_[current_].data() + pos_;
        pos_ += n;
        return p;
    }
    // Skips n numbers: from the buffers where they hold them, else by the stream's discard.
    void skip(std::uint64_t n);

private:
    void next_buffer();
    void request(int buffer);
    void wait_ready(int buffer);
    void wait_idle();
    void run();

    std::unique_ptr<Stream> stream_;
    std::size_t size_;
    std::vector<std::uint64_t> buffers_[2];
    int current_ = 1; // the buffer being consumed (the first next_buffer() moves to 0)
    bool current_valid_ = false; // whether current_ came from the stream (then it is refilled)
    std::size_t pos_ = 0, have_ = 0;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<int> queue_; // buffers to fill, in order
    bool filling_ = false;
    bool ready_[2] = { false, false };
    bool stop_ = false;
    std::exception_ptr error_;
    std::thread worker_;
};

} // namespace rngvet::library
