// The buffered interface's prefetch: two buffers of a stream's numbers, one being consumed
// while a background thread has the backend fill the other, in stream order. Its position in
// the buffer being consumed is the public rngvet_fast struct (rngvet.h), which the caller's
// inline code advances between calls.
#pragma once

#include "generators/stream.hpp"
#include "rngvet/rngvet.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rngvet::library {

// Where an empty fast-path buffer points (next == end), so that the inline code's pointer
// difference is always between pointers into one object.
inline const std::uint64_t no_numbers[1] = { 0 };

class Prefetch {
public:
    Prefetch(std::unique_ptr<Stream> stream, std::size_t buffer_numbers);
    ~Prefetch();
    Prefetch(const Prefetch&) = delete;
    Prefetch& operator=(const Prefetch&) = delete;

    // Up to n (at least 1) next numbers of the stream, contiguous, valid until the next call.
    const std::uint64_t* acquire(std::size_t& n)
    {
        if (fast_.next == fast_.end) next_buffer();
        const std::size_t have = static_cast<std::size_t>(fast_.end - fast_.next);
        if (n > have) n = have;
        const std::uint64_t* p = fast_.next;
        fast_.next += n;
        return p;
    }
    // Skips n numbers: from the buffers where they hold them, else by the stream's discard.
    void skip(std::uint64_t n);
    // Numbers taken or skipped so far, the caller's inline ones included.
    std::uint64_t position() const
    {
        return passed_ + static_cast<std::uint64_t>(fast_.next - begin_);
    }
    // The position in the current buffer, for the caller's inline code (its stream and scale
    // are set by the owner).
    rngvet_fast& fast() { return fast_; }

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
    // The numbers of the current buffer are [begin_, fast_.end), the next one fast_.next;
    // passed_ counts those before begin_ (earlier buffers and skips).
    rngvet_fast fast_ = { no_numbers, no_numbers, 0.0, nullptr };
    const std::uint64_t* begin_ = no_numbers;
    std::uint64_t passed_ = 0;

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
