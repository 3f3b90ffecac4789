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
// What the seeding implies for several seeds: 69069 = 1 (mod 4), so bit b of 69069^k s depends
// on s mod 2^(b+1) only, and the diagonal words are the same for every seed. Two seeds equal
// mod 2^k therefore give streams whose low k bits coincide for ever (the recurrence acts on each
// bit column alone), and any two seeds agree in more bits than chance at their start
// (`rngvet validate`'s instance-start check fails r250 instances under every seeding scheme but
// split:S, which cuts one seed's stream).
//
// Two tap orders. R250Taps::stated (the default) follows the recurrence as Kirkpatrick and Stoll
// and Ferrenberg et al. state it, lag 103. R250Taps::gsl is the buffer indexing of GSL's r250.c
// and Maier's code (j = i + 103 mod 250 into a table of 250), which in fact realises
// x_n = x_{n-147} XOR x_{n-250}: the reciprocal trinomial x^250 + x^147 + 1, whose sequences are
// those of lag 103 read backwards. It reproduces GSL's gsl_rng_r250 word for word (GSL's test:
// seed 1, the 10000th output is 1100653588). Both fail the Wolff test; the gsl order by about as
// many standard errors as Ferrenberg et al. published, the stated order by more
// (tests/test_lattice.cpp). The generators `r250` and `r250gsl` of the registry are these two
// orders (one 32-bit seed each; exact jump-ahead in jump.hpp).
#pragma once

#include "generator_id.hpp"
#include "gf2poly.hpp"
#include "stream.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace rngvet {

// The family's words (generator_id.hpp): the family and its generators, whose tap order is the
// kind's (r250 R250Taps::stated, r250gsl R250Taps::gsl).
namespace families {
inline constexpr GeneratorFamily r250{ "r250" };
}
namespace kinds {
inline constexpr GeneratorKind r250{ "r250" };
inline constexpr GeneratorKind r250gsl{ "r250gsl" };
} // namespace kinds

enum class R250Taps { stated, gsl };

inline constexpr int r250_long_lag = 250;

// The register: x[i] holds x_{n-250} before output n, the older words follow it cyclically.
struct R250State {
    std::uint32_t x[r250_long_lag];
    int i; // position of x_{n-250}
    int short_lag; // 103, or 147 for the gsl order
};

inline int r250_short_lag(R250Taps taps)
{
    return taps == R250Taps::stated ? 103 : 147;
}

// Kirkpatrick and Stoll's seeding, above (seed 0 is seed 1, as in GSL).
inline void r250_seed(R250State& st, std::uint32_t seed, R250Taps taps = R250Taps::stated)
{
    std::uint32_t s = seed == 0 ? 1u : seed;
    for (int k = 0; k < r250_long_lag; ++k) {
        s = 69069u * s; // mod 2^32 by unsigned wrap-around
        st.x[k] = s;
    }
    std::uint32_t diagonal = 0x80000000u;
    std::uint32_t keep = 0xFFFFFFFFu;
    for (int j = 0; j < 32; ++j) {
        const int k = 7 * j + 3;
        st.x[k] &= keep; // clear the bits left of the diagonal
        st.x[k] |= diagonal; // set the diagonal bit
        keep >>= 1;
        diagonal >>= 1;
    }
    st.i = 0;
    st.short_lag = r250_short_lag(taps);
}

// The next word: x[i] holds x_{n-250}; x_{n-s} (s the short lag) sits 250 - s places further
// on (mod 250).
inline std::uint32_t r250_next(R250State& st)
{
    const int i = st.i, s = st.short_lag;
    const int j = i < s ? i + (r250_long_lag - s) : i - s;
    const std::uint32_t x = st.x[i] ^ st.x[j];
    st.x[i] = x;
    st.i = i + 1 == r250_long_lag ? 0 : i + 1;
    return x;
}

// The register, oldest word first (x_{n-250} .. x_{n-1} before output n).
inline void r250_register(const R250State& st, std::uint32_t* out)
{
    for (int k = 0; k < r250_long_lag; ++k)
        out[k] = st.x[(st.i + k) % r250_long_lag];
}

struct Configuration;

// The seeded state of R250 instance `instance` of a validated r250 / r250gsl configuration
// (split:S jumped), as make_stream seeds it, for backends that seed on the host (kernels/;
// family_r250.cpp).
R250State r250_instance_state(const Configuration& config, int instance);

// The exact jump-ahead (family_r250.cpp; the method is jump.hpp's): the characteristic
// polynomial of a state's tap order, the jump by n (as n calls of r250_next), and the jump by a
// polynomial g(x) = x^n mod P(x) from gf2_jump_polynomial (for a distance used again and again).
// Each bit column of x_n = x_{n-s} XOR x_{n-250} follows the recurrence with characteristic
// polynomial P(x) = x^250 + x^(250-s) + 1 over GF(2), so with g(x) = x^n mod P(x) = g_0 + ... +
// g_249 x^249 every word n ahead is x_{t+n} = XOR of the x_{t+k} with g_k = 1, for every t. The
// register 250 words long at n ahead follows from the current one and the next 249 words (250 *
// 250 word XORs at most), after about 64 squarings modulo P: `rngvet generate --generator r250
// --skip 2^62-1` takes 13 ms in all on the development machine, so sharded runs' segments (2^40
// apart) cost nothing.
Gf2Poly r250_characteristic_polynomial(int short_lag);
void r250_jump(R250State& s, std::uint64_t n);
void r250_jump(R250State& s, const Gf2Poly& g);

// One R250 register as a stream of its own (the lattice tests drive the Monte Carlo chains with
// it); `rngvet run --generator r250|r250gsl` builds its streams from the same state and step
// (family_r250.cpp), with exact jump-ahead (below).
class R250Stream : public Stream {
public:
    static constexpr int long_lag = r250_long_lag;

    explicit R250Stream(std::uint32_t seed, R250Taps taps = R250Taps::stated)
        : seed_(seed)
        , taps_(taps)
    {
        r250_seed(state_, seed, taps);
    }

    // The short lag: 103, or 147 for the gsl order.
    int short_lag() const { return state_.short_lag; }

    std::uint32_t next() { return r250_next(state_); }

    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t k = 0; k < n; ++k)
            out[k] = r250_next(state_);
    }
    std::string name() const override
    {
        return (taps_ == R250Taps::stated ? "r250/" : "r250gsl/") + std::to_string(seed_);
    }

    // The current register, oldest word first (x_{n-250} .. x_{n-1} before output n).
    void register_words(std::uint32_t* out) const { r250_register(state_, out); }

private:
    std::uint32_t seed_;
    R250Taps taps_;
    R250State state_;
};

} // namespace rngvet
