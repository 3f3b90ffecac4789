// The numbers a native test reads (native.hpp): the same words, in the same order, that
// TestU01's GetU01 and GetBits calls would take from the same feed, read in blocks instead of
// one call per number, and converted exactly as TestU01 converts them.
#pragma once

#include "generators/stream.hpp"

#include <cstddef>
#include <cstdint>

namespace rngvet::native {

// Where the words come from. The TestU01 feed (batteries/testu01_gen.hpp) is one, so that a
// native test and a TestU01 test can follow each other on one stream (serial mode) and the
// feed counts every number either of them used.
class WordSource {
public:
    virtual ~WordSource() = default;
    // Resolution of the words: each stands for word * 2^-bits.
    virtual int bits() const = 0;
    // The next words, at least one and at most n, left in place: nothing is consumed until
    // advance(). Valid until the next call of either member.
    virtual Stream::View peek(std::size_t n) = 0;
    // Consumes the first k words of the last peek (k <= its size).
    virtual void advance(std::size_t k) = 0;
    // Writes the next n words into `out`, memory of the device (CUDA) the stream is generated
    // on, without a copy to the host, and consumes them. False, with nothing consumed, where the
    // stream runs on no such device or words are already held in host memory.
    virtual bool fill_device(void* out, std::size_t n)
    {
        (void)out;
        (void)n;
        return false;
    }
    // Takes back the last n words consumed (words[0, n), in stream order): they are the next
    // words read, and no longer counted as consumed. For a test that read ahead on the device
    // (docs/native.md, "Reading ahead"). False, with nothing taken, where the source cannot;
    // give_back(nullptr, 0) says whether it can.
    virtual bool give_back(const std::uint64_t* words, std::size_t n)
    {
        (void)words;
        (void)n;
        return false;
    }
};

// A native test's reader. Words are consumed exactly as they are read (next(), read()), so a
// test that stops after a variable count (Gap, CouponCollector) leaves the stream where
// TestU01's test leaves it. What a Numbers read is handed back to its source when it is
// destroyed or synced.
class Numbers {
public:
    explicit Numbers(WordSource& source);
    ~Numbers() { sync(); }
    Numbers(const Numbers&) = delete;
    Numbers& operator=(const Numbers&) = delete;

    int bits() const { return bits_; }
    // Words read so far.
    std::uint64_t consumed() const { return consumed_; }

    std::uint64_t next()
    {
        if (used_ == size_) refill();
        ++consumed_;
        return data_[used_++];
    }
    // The next n words.
    void read(std::uint64_t* out, std::size_t n);
    // Consumes what was read from the current block (every read is already counted).
    void sync();
    // The next n words into device memory (WordSource::fill_device); false, with nothing
    // consumed, where the source cannot: the test then reads them on the host.
    bool fill_device(void* out, std::size_t n);
    // Hands the last n words read back to the source (WordSource::give_back): they are read
    // next, and consumed() no longer counts them. Only where no host block is partly read (as
    // after fill_device); false, with nothing handed back, otherwise or where the source cannot.
    // give_back(nullptr, 0) says whether it can.
    bool give_back(const std::uint64_t* words, std::size_t n);

    // TestU01's conversions of one word (unif01.c), operation for operation.
    // GetU01: word * 2^-bits.
    double u01(std::uint64_t w) const { return static_cast<double>(w) * scale_; }
    // GetBits: the top 32 bits (stream.hpp's top32).
    unsigned long bits32(std::uint64_t w) const { return top32(w, bits_); }
    // unif01_StripD(gen, r): U with its r most significant bits dropped, 2^r U - (long) 2^r U.
    double strip_d(std::uint64_t w, int r) const
    {
        const double u = u01(w);
        if (r == 0) return u;
        const double v = two_exp(r) * u;
        return v - static_cast<double>(static_cast<long>(v));
    }
    // unif01_StripL(gen, r, d): (long) (d * StripD(r)).
    long strip_l(std::uint64_t w, int r, long d) const
    {
        return static_cast<long>(static_cast<double>(d) * strip_d(w, r));
    }
    // unif01_StripB(gen, r, s): s bits of GetBits after its r most significant.
    unsigned long strip_b(std::uint64_t w, int r, int s) const
    {
        const unsigned long u = bits32(w);
        if (r == 0) return u >> (32 - s);
        return ((u << r) & 0xFFFFFFFFul) >> (32 - s);
    }
    // 2^r as a double (TestU01's num_TwoExp[r]), exact for 0 <= r <= 1023.
    static double two_exp(int r);

private:
    void refill();

    WordSource& source_;
    int bits_;
    double scale_;
    const std::uint64_t* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t used_ = 0;
    std::uint64_t consumed_ = 0;
};

// Threads a native test may use (default, and 0: the machine's cores).
void set_threads(int threads);
int threads();
// The machine's cores, whatever set_threads said.
int cores();

} // namespace rngvet::native
