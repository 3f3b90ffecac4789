#include "testu01_gen.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace rngvet {

TestU01Generator::TestU01Generator(Stream& stream, const std::string& name, std::size_t block)
    : stream_(stream)
    , name_(name.begin(), name.end())
    , buffer_(block)
    , position_(0)
    , limit_(0)
    , bits_(stream.bits())
    , scale_(1.0 / static_cast<double>(1ull << stream.bits()))
{
    name_.push_back('\0');
    gen_.state = this;
    gen_.param = nullptr;
    gen_.name = name_.data();
    gen_.GetU01 = &get_u01;
    gen_.GetBits = &get_bits;
    gen_.Write = &write_state;
}

void TestU01Generator::refill()
{
    // TestU01 is C: an exception must not cross it. A stream that fails (an external stream
    // that ended) ends the process with the one-line error; nothing of the run was stored yet.
    try {
        limit_ = stream_.fill_available(buffer_.data(), buffer_.size());
        // Nothing left: fill() reports the end of the stream with the count of words read.
        if (limit_ == 0) stream_.fill(buffer_.data(), 1);
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "rngvet: error: %s\n", e.what());
        std::_Exit(2);
    }
    ++refills_;
    position_ = 0;
}

inline std::uint64_t TestU01Generator::next()
{
    if (position_ == limit_) refill();
    ++delivered_;
    return buffer_[position_++];
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

}  // namespace rngvet
