// librngvet for C++: rngvet.h's stream as a movable class whose errors are exceptions.
//
//   rngvet::Generator g("ranmar48/1/single/increment/1802,9373;zero=smallest");
//   std::vector<double> x(10);
//   g.u01(x.data(), x.size());
//   double y = g.u01();
#pragma once

#include "rngvet.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace rngvet {

struct Error : std::runtime_error {
    Error(int code, const std::string& message)
        : std::runtime_error(message)
        , status(code)
    {
    }
    int status; // an rngvet_status
};

class Generator {
public:
    explicit Generator(const std::string& configuration, const rngvet_options* options = nullptr)
    {
        check(rngvet_open(&stream_, configuration.c_str(), options));
        fast_ = rngvet_fast_of(stream_);
    }
    Generator(Generator&& other) noexcept
        : stream_(std::exchange(other.stream_, nullptr))
        , fast_(std::exchange(other.fast_, nullptr))
    {
    }
    Generator& operator=(Generator&& other) noexcept
    {
        std::swap(stream_, other.stream_);
        std::swap(fast_, other.fast_);
        return *this;
    }
    Generator(const Generator&) = delete;
    Generator& operator=(const Generator&) = delete;
    ~Generator() { rngvet_close(stream_); }

    void u01(double* out, std::size_t n) { check(rngvet_u01(stream_, out, n)); }
    // The same numbers through the inline fast path (rngvet.h's rngvet_u01_fast): the library
    // is called only when the stream's buffer holds fewer than n.
    void u01_fast(double* out, std::size_t n)
    {
        check(fast_ ? rngvet_u01_fast(fast_, out, n) : rngvet_u01(stream_, out, n));
    }
    void f32(float* out, std::size_t n) { check(rngvet_f32(stream_, out, n)); }
    void u32(std::uint32_t* out, std::size_t n) { check(rngvet_u32(stream_, out, n)); }
    void raw(std::uint64_t* out, std::size_t n) { check(rngvet_raw(stream_, out, n)); }
    void skip(std::uint64_t n) { check(rngvet_skip(stream_, n)); }
    double u01()
    {
        double x;
        u01(&x, 1);
        return x;
    }
    // As a UniformRandomBitGenerator, for <random>'s distributions.
    using result_type = std::uint32_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xFFFFFFFFu; }
    result_type operator()()
    {
        result_type w;
        u32(&w, 1);
        return w;
    }

    std::uint64_t position() const { return rngvet_position(stream_); }
    int bits() const { return rngvet_bits(stream_); }
    std::string name() const { return rngvet_stream_name(stream_); }
    std::string backend() const { return rngvet_stream_backend(stream_); }
    rngvet_stream* handle() const { return stream_; }

private:
    static void check(int status)
    {
        if (status != RNGVET_OK) throw Error(status, rngvet_last_error());
    }
    rngvet_stream* stream_ = nullptr;
    rngvet_fast* fast_ = nullptr; // the stream's
};

} // namespace rngvet
