#include "prefetch.hpp"

#include <algorithm>

namespace rngvet::library {

Prefetch::Prefetch(std::unique_ptr<Stream> stream, std::size_t buffer_numbers)
    : stream_(std::move(stream))
    , size_(buffer_numbers)
{
    buffers_[0].resize(size_);
    buffers_[1].resize(size_);
    queue_ = { 0, 1 };
    worker_ = std::thread([this] { run(); });
}

Prefetch::~Prefetch()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

void Prefetch::run()
{
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stop_ || (!queue_.empty() && !error_); });
        if (stop_) return;
        const int b = queue_.front();
        queue_.erase(queue_.begin());
        filling_ = true;
        lock.unlock();
        std::exception_ptr failed;
        try {
            stream_->fill(buffers_[b].data(), size_);
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        filling_ = false;
        if (failed)
            error_ = failed;
        else
            ready_[b] = true;
        changed_.notify_all();
    }
}

void Prefetch::request(int buffer)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ready_[buffer] = false;
        queue_.push_back(buffer);
    }
    changed_.notify_all();
}

void Prefetch::wait_ready(int buffer)
{
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return ready_[buffer] || error_; });
    // A buffer filled before a later fill failed is still served.
    if (!ready_[buffer]) std::rethrow_exception(error_);
}

void Prefetch::wait_idle()
{
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && !filling_) || error_; });
    if (error_) std::rethrow_exception(error_);
}

void Prefetch::next_buffer()
{
    if (current_valid_) request(current_);
    current_ ^= 1;
    wait_ready(current_);
    current_valid_ = true;
    passed_ = position();
    begin_ = fast_.next = buffers_[current_].data();
    fast_.end = begin_ + size_;
}

void Prefetch::skip(std::uint64_t n)
{
    const std::uint64_t here
        = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(fast_.end - fast_.next));
    fast_.next += here;
    n -= here;
    if (n == 0) return;
    // Once the worker is idle, the stream stands after the buffers filled and not yet
    // consumed: skip through those, and discard the rest on the stream itself.
    wait_idle();
    std::uint64_t ahead = 0;
    for (int b = 0; b < 2; ++b)
        if (ready_[b] && !(b == current_ && current_valid_)) ahead += size_;
    if (n <= ahead) {
        while (n > 0) {
            next_buffer();
            const std::uint64_t k = std::min<std::uint64_t>(n, size_);
            fast_.next += k;
            n -= k;
        }
        return;
    }
    const std::uint64_t at = position() + n;
    stream_->discard(n - ahead);
    ready_[0] = ready_[1] = false;
    current_ = 1;
    current_valid_ = false;
    begin_ = fast_.next = fast_.end = no_numbers;
    passed_ = at;
    request(0);
    request(1);
}

} // namespace rngvet::library
