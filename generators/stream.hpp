// A configured generator as the rest of the toolkit sees it: a source of integers of fixed
// resolution. An integer x from a stream of resolution `bits` stands for the real x * 2^-bits.
// Engines (ranmar.hpp, mt.hpp) stay plain structs; Stream is the thin polymorphic layer that
// the command line, the TestU01 adapter and `rngvet generate` work with.
#pragma once

#include "generators/u01.hpp" // top32, to_u01: the conversions every consumer reads

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

// How fill_device writes numbers: the integers, GetU01's doubles x * 2^-bits, top32 words, or
// the integers' low 32 bits as 64-bit words (the words of the low32 view, view.hpp).
enum class DeviceFormat { u64, u01, u32, low32 };

class Stream {
public:
    virtual ~Stream() = default;
    // Resolution in bits (24, 32 or 48): every value is < 2^bits().
    virtual int bits() const = 0;
    // Writes the next n values of the stream.
    virtual void fill(std::uint64_t* out, std::size_t n) = 0;
    // Writes up to n next values and returns how many; fewer only when a finite stream (a
    // file or a pipe) is running out. Consumers that read ahead use this so that a stream that
    // holds exactly the numbers needed is not an error.
    virtual std::size_t fill_available(std::uint64_t* out, std::size_t n)
    {
        fill(out, n);
        return n;
    }
    // Skips the next n values. Streams with exact jump-ahead do it in O(log n); the default
    // generates and drops them.
    virtual void discard(std::uint64_t n);
    // Writes the next n values into memory of the device the stream runs on (CUDA), in format,
    // one launch writing straight into out where it can. False, with nothing written, where the
    // stream has no such device or still holds numbers in host memory (a stream used for this
    // is used for nothing else). out == nullptr: the values are generated and dropped (a skip
    // that stays on the device).
    virtual bool fill_device(void* out, std::size_t n, DeviceFormat format)
    {
        (void)out;
        (void)n;
        (void)format;
        return false;
    }
    // Canonical configuration name, e.g. "ranmar48/1/single/increment/1802,9373".
    virtual std::string name() const = 0;

    // In-place reading, for consumers that only read (the TestU01 feed, the host-delivery
    // benchmark): the next values of the stream, at least one and at most n, in the stream's
    // own memory, valid until the next call of any member. A device stream with host staging
    // serves them from the pinned buffer its device copied them into (no host copy) and has
    // the next launch generated and copied meanwhile. size 0 only where a finite stream ended.
    struct View {
        const std::uint64_t* data;
        std::size_t size;
    };
    virtual View take(std::size_t n);
    // Read-ahead record of take(): how many takes needed numbers the stream had asked its device
    // for in advance, and how many of those found them not yet there (the consumer waited).
    // asynchronous: whether the device makes them while the consumer works (a GPU with host
    // staging); otherwise they are made when taken.
    struct ReadAhead {
        bool asynchronous = false;
        std::uint64_t takes = 0;
        std::uint64_t waits = 0;
    };
    virtual ReadAhead read_ahead() const { return {}; }

private:
    std::vector<std::uint64_t> take_buffer_;
};

inline Stream::View Stream::take(std::size_t n)
{
    const std::size_t most = std::size_t(1) << 16;
    if (n > most) n = most;
    if (take_buffer_.size() < n) take_buffer_.resize(n);
    return { take_buffer_.data(), fill_available(take_buffer_.data(), n) };
}

inline void Stream::discard(std::uint64_t n)
{
    std::uint64_t scratch[4096];
    while (n > 0) {
        const std::size_t step = n < 4096 ? static_cast<std::size_t>(n) : 4096;
        fill(scratch, step);
        n -= step;
    }
}

} // namespace rngvet
