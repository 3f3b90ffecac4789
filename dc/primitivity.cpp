#include "dc/primitivity.hpp"

#include "generators/mt.hpp"
#include "generators/mt_charpoly.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <vector>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// Primitivity
// ---------------------------------------------------------------------------------------------

MtPrimitivity mt_primitivity(const MtParams& prm)
{
    MtPrimitivity out;
    out.charpoly = mt_characteristic_polynomial(prm);
    const int p = mt_exponent(prm);
    if (out.charpoly.degree() != p) {
        out.reason = "the output has linear complexity " + std::to_string(out.charpoly.degree())
            + " < p, so the characteristic polynomial is reducible";
        return out;
    }
    const PrimitivityResult r = primitivity_mersenne(out.charpoly);
    out.primitive = r.primitive;
    out.reason = r.reason;
    return out;
}

// ---------------------------------------------------------------------------------------------
// MtCharpoly: phi as a linear function of aaa (see dynamic_creator.hpp for the formula)
// ---------------------------------------------------------------------------------------------

MtCharpoly::MtCharpoly(int p)
    : p_(p)
{
    if (!is_mersenne_exponent(p) || p < 521) {
        throw std::invalid_argument(
            "MtCharpoly: p = " + std::to_string(p) + " is not a Mersenne exponent >= 521");
    }
    const MtParams layout = mt_params_for(p, 0, 0, 0);
    const int n = layout.nn;
    const int m = layout.mm;
    const int r = layout.rr;
    const Gf2Poly t_poly = Gf2Poly::monomial(n) + Gf2Poly::monomial(m);
    const Gf2Poly s_poly = Gf2Poly::monomial(n - 1) + Gf2Poly::monomial(m - 1);
    term_.resize(33);
    // Bits k >= r: T^(31-k); bits k < r: T^(32-r) S^(r-1-k); the rest: T^(32-r) S^r.
    Gf2Poly t_pow = Gf2Poly::monomial(0);
    for (int k = 31; k >= r; --k) {
        term_[static_cast<std::size_t>(k)] = t_pow;
        t_pow = multiply(t_pow, t_poly);
    }
    Gf2Poly ts = t_pow; // T^(32-r)
    for (int j = 0; j <= r; ++j) {
        term_[static_cast<std::size_t>(j < r ? r - 1 - j : 32)] = ts;
        ts = multiply(ts, s_poly);
    }
    if (r >= 32) throw std::logic_error("MtCharpoly: rr >= 32");
    if (term_[32].degree() != p) throw std::logic_error("MtCharpoly: degree is not p");
    for (std::uint32_t g : small_irreducibles(9)) {
        std::array<std::uint16_t, 33> res{};
        for (std::size_t k = 0; k < 33; ++k)
            res[k] = static_cast<std::uint16_t>(remainder_small(term_[k], g));
        residues_.push_back(res);
    }
}

Gf2Poly MtCharpoly::of(std::uint32_t aaa) const
{
    Gf2Poly out = term_[32];
    for (int k = 0; k < 32; ++k) {
        if ((aaa >> k) & 1u) out += term_[static_cast<std::size_t>(k)];
    }
    return out;
}

bool MtCharpoly::prescreen(std::uint32_t aaa) const
{
    for (const auto& res : residues_) {
        std::uint32_t x = res[32];
        for (std::uint32_t a = aaa, k = 0; a != 0; a >>= 1, ++k) {
            if (a & 1u) x ^= res[k];
        }
        if (x == 0) return false;
    }
    return true;
}

bool MtCharpoly::primitive(std::uint32_t aaa, const std::atomic<bool>* stop) const
{
    if (!prescreen(aaa)) return false;
    // A failed decimation test proves phi reducible; one that passes is confirmed below.
    if (p_ >= decimation_min_p && !passes_decimation(aaa, stop)) return false;
    // With no factor of degree 1 (prescreen) and p prime, t^(2^p) = t mod phi iff phi is
    // irreducible, hence primitive as 2^p - 1 is prime (gf2poly.hpp, primitivity_mersenne).
    const Gf2Modulus mod(of(aaa));
    const Gf2Poly power = mod.t_pow_2k(p_, stop);
    if (stop && *stop) return false;
    return power == mod.reduce(Gf2Poly::monomial(1));
}

// The decimation test (the inversive-decimation method of the MT paper, Matsumoto & Nishimura
// 1998, section 4.3). Words: x_(i+n) = x_(i+m) ^ A z_i with z_i = (x_i & umask) |
// (x_(i+1) & lmask) and A z = (z >> 1) ^ (z_0 ? aaa : 0). Since aaa's top bit is set, A is
// invertible given z_0, the lowest bit of z_i, which is the lowest bit of x_(i+1) (bit 0 lies
// in lmask): z_i = ((x_(i+n) ^ x_(i+m) ^ (z_0 ? aaa : 0)) << 1) | z_0. So from the lowest bits
// s_i of x_1 .. x_p and any words above, running that backwards from i = p - n down to 0 gives
// a state (x_0's upper bits, x_1 .. x_(n-1)) whose forward words have exactly those lowest
// bits (each step sets x_i's upper and x_(i+1)'s lower bits so that the recurrence holds at i,
// and leaves every lowest bit alone).
//
// One round: the words x_1 .. x_2p of the state, then s_i := s_(2i) (i = 1..p), then the state
// back. With g the lowest bit of x_1 and mu(c) = g(c(B) Y) for the state Y, the round maps mu
// to c -> mu(t c^2) whenever the state is determined by s_1 .. s_p; if phi is irreducible it
// is (the lowest-bit sequence of a non-zero state is not zero, and the space of states has no
// invariant subspace but 0 and itself), and p rounds map mu to c -> mu(t^(2^p - 1) c^(2^p)) =
// mu(c): the state comes back. So a state that does not come back proves phi reducible. For
// a reducible phi the start state may still come back (a small subspace of states does), so
// primitive() confirms a pass with t^(2^p) = t. About 20p scalar operations per round, 20p^2
// in all, against about p^3/512 (vectorised) for t^(2^p) mod phi: faster from p of about
// 15000 on (docs/dynamic_creator.md).
bool MtCharpoly::passes_decimation(std::uint32_t aaa, const std::atomic<bool>* stop) const
{
    const MtParams layout = mt_params_for(p_, aaa, 0, 0);
    const int n = layout.nn;
    const int m = layout.mm;
    const std::uint32_t upper = layout.umask;
    const std::uint32_t lower = layout.lmask;
    std::vector<std::uint32_t> x(2 * static_cast<std::size_t>(p_) + 1);
    std::uint32_t r = 0x9E3779B9u; // a fixed start state (xorshift32), not zero
    for (int i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        x[static_cast<std::size_t>(i)] = r;
    }
    const std::vector<std::uint32_t> start(x.begin(), x.begin() + n);
    std::uint32_t* w = x.data();
    for (int round = 0; round < p_; ++round) {
        if (stop && round % 16 == 0 && stop->load(std::memory_order_relaxed)) return false;
        for (int i = 0; i + n <= 2 * p_; ++i) { // forward: x_n .. x_2p
            const std::uint32_t z = (w[i] & upper) | (w[i + 1] & lower);
            w[i + n] = w[i + m] ^ (z >> 1) ^ ((z & 1u) ? aaa : 0u);
        }
        for (int i = 1; i <= p_; ++i) // decimation: only the lowest bits matter from here
            w[i] = w[2 * i];
        for (int i = p_ - n; i >= 0; --i) { // backward
            const std::uint32_t z0 = w[i + 1] & 1u;
            const std::uint32_t z = ((w[i + n] ^ w[i + m] ^ (z0 ? aaa : 0u)) << 1) | z0;
            w[i] = (z & upper) | (w[i] & lower);
            w[i + 1] = (w[i + 1] & upper) | (z & lower);
        }
    }
    if ((w[0] & upper) != (start[0] & upper)) return false;
    return std::equal(start.begin() + 1, start.end(), x.begin() + 1);
}

} // namespace rngvet
