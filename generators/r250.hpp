// R250: the generalized feedback shift register generator of S. Kirkpatrick and E. P. Stoll,
// J. Comput. Phys. 40, 517 (1981), on 32-bit words:
//
//   x_n = x_{n-103} XOR x_{n-250},
//
// the generator whose bias in Wolff cluster simulations A. M. Ferrenberg, D. P. Landau and
// Y. J. Wong found (Phys. Rev. Lett. 69, 3382 (1992)). Its characteristic trinomial
// x^250 + x^103 + 1 is primitive, so each bit column has period 2^250 - 1.
//
// Seeding (Kirkpatrick and Stoll's scheme in the form of GSL's gsl_rng_r250, rng/r250.c, and
// W. L. Maier, Dr. Dobb's Journal, May 1991):
//   1. s_0 = seed (0 becomes 1); s_{i+1} = 69069 s_i mod 2^32 (Marsaglia's multiplier);
//      the initial words are x_i = s_{i+1}, i = 0..249 (the seed itself is not a word).
//   2. The diagonal bit trick: for j = 0..31 the word x_{7j+3} has its bits above bit 31-j
//      cleared and bit 31-j set. These 32 words form a triangular, hence linearly independent,
//      set over GF(2), so the 32 bit columns of the register are independent sequences (an
//      LCG-filled table alone does not guarantee that).
// The outputs are x_250, x_251, ...: the 250 seeding words are not output.
//
// Two tap orders. R250Taps::stated (the default) follows the recurrence as Kirkpatrick and Stoll
// and Ferrenberg et al. state it, lag 103. R250Taps::gsl is the buffer indexing of GSL's r250.c
// and Maier's code (j = i + 103 mod 250 into a table of 250), which in fact realises
// x_n = x_{n-147} XOR x_{n-250}: the reciprocal trinomial x^250 + x^147 + 1, whose sequences are
// those of lag 103 read backwards. It reproduces GSL's gsl_rng_r250 word for word (GSL's test:
// seed 1, the 10000th output is 1100653588). Both fail the Wolff test; the gsl order by about as
// many standard errors as Ferrenberg et al. published, the stated order by more
// (tests/test_lattice.cpp).
#pragma once

#include "stream.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace rngvet {

enum class R250Taps { stated, gsl };

class R250Stream : public Stream {
public:
    static constexpr int long_lag = 250;

    explicit R250Stream(std::uint32_t seed, R250Taps taps = R250Taps::stated)
        : seed_(seed)
        , taps_(taps)
        , short_lag_(taps == R250Taps::stated ? 103 : 147)
    {
        std::uint32_t s = seed == 0 ? 1u : seed;
        for (int i = 0; i < long_lag; ++i) {
            s = 69069u * s; // mod 2^32 by unsigned wrap-around
            x_[i] = s;
        }
        std::uint32_t diagonal = 0x80000000u;
        std::uint32_t keep = 0xFFFFFFFFu;
        for (int j = 0; j < 32; ++j) {
            const int k = 7 * j + 3;
            x_[k] &= keep; // clear the bits left of the diagonal
            x_[k] |= diagonal; // set the diagonal bit
            keep >>= 1;
            diagonal >>= 1;
        }
    }

    // The short lag: 103, or 147 for the gsl order.
    int short_lag() const { return short_lag_; }

    // The next word: x_[i_] holds x_{n-250}; x_{n-s} (s the short lag) sits 250 - s places
    // further on (mod 250).
    std::uint32_t next()
    {
        const int j = i_ < short_lag_ ? i_ + (long_lag - short_lag_) : i_ - short_lag_;
        const std::uint32_t x = x_[i_] ^ x_[j];
        x_[i_] = x;
        i_ = i_ + 1 == long_lag ? 0 : i_ + 1;
        return x;
    }

    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t k = 0; k < n; ++k)
            out[k] = next();
    }
    std::string name() const override
    {
        return (taps_ == R250Taps::stated ? "r250/" : "r250gsl/") + std::to_string(seed_);
    }

    // The current register, oldest word first (x_{n-250} .. x_{n-1} before output n).
    void register_words(std::uint32_t* out) const
    {
        for (int k = 0; k < long_lag; ++k)
            out[k] = x_[(i_ + k) % long_lag];
    }

private:
    std::uint32_t seed_;
    R250Taps taps_;
    int short_lag_;
    std::uint32_t x_[long_lag];
    int i_ = 0;
};

} // namespace rngvet
