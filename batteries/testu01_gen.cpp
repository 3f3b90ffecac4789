#include "testu01_gen.hpp"

#include "generators/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace rngvet {
namespace {

// TestU01 is C: an exception must not cross it. A stream that fails (an external stream
// that ended, a device error) ends the process with the one-line error.
[[noreturn]] void die(const std::string& message, const std::function<void()>& on_failure)
{
    if (on_failure) on_failure();
    std::fflush(stdout);
    std::fprintf(stderr, "rngvet: error: %s\n", one_line(message).c_str());
    // The run is stored (marked failed by on_failure): a failure, not a refused input.
    std::_Exit(1);
}

} // namespace

TestU01Generator::TestU01Generator(Stream& stream, const std::string& name, FeedOptions options)
    : stream_(stream)
    , options_(std::move(options))
    , device_fed_(options_.prefetch && stream.read_ahead().asynchronous)
    , name_(name.begin(), name.end())
    , bits_(stream.bits())
    , scale_(u01_scale(stream.bits()))
{
    name_.push_back('\0');
    gen_.state = this;
    gen_.param = nullptr;
    gen_.name = name_.data();
    gen_.GetU01 = &get_u01;
    gen_.GetBits = &get_bits;
    gen_.Write = &write_state;
    if (options_.prefetch && !device_fed_) {
        current_.resize(options_.block);
        next_block_.resize(options_.block);
        producer_ = std::thread([this] { produce(); });
    }
}

TestU01Generator::~TestU01Generator()
{
    if (!producer_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    producer_.join();
}

std::size_t TestU01Generator::fill_block(std::vector<std::uint64_t>& block)
{
    const std::size_t got = stream_.fill_available(block.data(), block.size());
    // Nothing left: fill() reports the end of the stream with the count of words read.
    if (got == 0) stream_.fill(block.data(), 1);
    return got;
}

void TestU01Generator::produce()
{
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
        cv_.wait(lock, [this] { return quit_ || !next_ready_; });
        if (quit_) return;
        lock.unlock();
        std::size_t got = 0;
        std::string error;
        try {
            got = fill_block(next_block_);
        } catch (const std::exception& e) {
            error = e.what();
        }
        lock.lock();
        next_limit_ = got;
        producer_error_ = error;
        next_ready_ = true;
        cv_.notify_all();
    }
}

void TestU01Generator::refill()
{
    if (options_.stop_flag && *options_.stop_flag) {
        if (options_.on_stop) options_.on_stop();
        std::fflush(stdout);
        std::_Exit(130);
    }
    ++refills_;
    if (!producer_.joinable()) {
        try {
            take_block();
        } catch (const std::exception& e) {
            die(e.what(), options_.on_failure);
        }
    } else {
        std::unique_lock<std::mutex> lock(mutex_);
        // The first block cannot have been prepared before TestU01 asked: not a wait.
        if (!next_ready_) {
            waits_ += refills_ > 1;
            cv_.wait(lock, [this] { return next_ready_; });
        }
        if (!producer_error_.empty()) die(producer_error_, options_.on_failure);
        current_.swap(next_block_);
        data_ = current_.data();
        limit_ = next_limit_;
        next_ready_ = false;
        lock.unlock();
        cv_.notify_all();
    }
    position_ = 0;
}

inline std::uint64_t TestU01Generator::next()
{
    if (position_ == limit_) refill();
    ++delivered_;
    return data_[position_++];
}

// A block read in place. The device-fed feed takes what is left of a whole launch; otherwise
// at most a block.
void TestU01Generator::take_block()
{
    const Stream::View v = stream_.take(device_fed_ ? ~std::size_t(0) : options_.block);
    if (v.size == 0) { // a finite stream ended: fill() reports it with the count of words read
        std::uint64_t x;
        stream_.fill(&x, 1);
    }
    data_ = v.data;
    limit_ = v.size;
}

Stream::View TestU01Generator::peek(std::size_t n)
{
    if (position_ == limit_) refill();
    const std::size_t left = limit_ - position_;
    return { data_ + position_, n < left ? n : left };
}

void TestU01Generator::advance(std::size_t k)
{
    position_ += k;
    delivered_ += k;
}

bool TestU01Generator::fill_device(void* out, std::size_t n)
{
    // Only while no word is held in a host block (the stream then says whether it can).
    if (position_ != limit_ || producer_.joinable()) return false;
    if (!stream_.fill_device(out, n, DeviceFormat::u64)) return false;
    delivered_ += n;
    return true;
}

bool TestU01Generator::give_back(const std::uint64_t* words, std::size_t n)
{
    if (n > delivered_) return false;
    if (n == 0) return true;
    // A block of its own: the words given back, then what the current block still holds.
    std::vector<std::uint64_t> block(words, words + n);
    block.insert(block.end(), data_ + position_, data_ + limit_);
    given_back_.swap(block);
    data_ = given_back_.data();
    position_ = 0;
    limit_ = given_back_.size();
    delivered_ -= n;
    return true;
}

std::uint64_t TestU01Generator::refills() const
{
    return device_fed_ ? stream_.read_ahead().takes : refills_;
}

std::uint64_t TestU01Generator::refill_waits() const
{
    return device_fed_ ? stream_.read_ahead().waits : waits_;
}

TestU01Generator* TestU01Generator::of(unif01_Gen* gen)
{
    return gen != nullptr && gen->GetU01 == &get_u01 ? static_cast<TestU01Generator*>(gen->state)
                                                     : nullptr;
}

double TestU01Generator::get_u01(void*, void* state)
{
    auto* self = static_cast<TestU01Generator*>(state);
    return static_cast<double>(self->next()) * self->scale_;
}

unsigned long TestU01Generator::get_bits(void*, void* state)
{
    auto* self = static_cast<TestU01Generator*>(state);
    return top32(self->next(), self->bits_);
}

void TestU01Generator::write_state(void* state)
{
    auto* self = static_cast<TestU01Generator*>(state);
    std::printf("  %llu numbers delivered\n", static_cast<unsigned long long>(self->consumed()));
}

} // namespace rngvet
