// Exact jump-ahead: advance an engine by n numbers in O(log n) polynomial operations, with the
// same result as calling its step function n times (tests/test_jump.cpp checks this).
//
// RANMAR: the lagged Fibonacci part X_m = X_{m-97} - X_{m-33} (mod 2^bits) is linear with
// characteristic polynomial P(x) = x^97 + x^64 - 1 over Z/2^bits, so the window 97 values
// ahead by n is given by x^(n+j) mod P(x), j = 0..96, applied to the current window; the
// arithmetic sequence has the closed form c_(m+n) = (c_m - n cd) mod cm.
//
// Mersenne Twister: the state after n steps is g(T) s with g(x) = x^n mod phi(x), phi the
// characteristic polynomial (Haramoto, Matsumoto, Nishimura, Panneton & L'Ecuyer, "Efficient
// jump ahead for F2-linear random number generators", INFORMS J. on Computing 20(3), 2008),
// evaluated by Horner's rule with the step function. It agrees with n steps in every live bit;
// the low rr bits of the word about to be replaced, which no step reads, may differ.
#pragma once

#include "gf2poly.hpp"
#include "mt.hpp"
#include "ranmar.hpp"

#include <cstdint>

namespace rngvet {

void ranmar_jump(RanmarState& s, std::uint64_t n);

// A RANMAR jump by a fixed n in the form the kernels apply it (kernels/ranmar_kernel.hpp,
// "Jump-parallel generation"): with r(x) = x^n mod P(x) = r_0 + r_1 x + ... + r_96 x^96, every
// value n ahead is X_{t+n} = sum_m r_m X_{t+m} (mod 2^bits), so the window 97 values long at
// position e + n follows from X_{e-97} .. X_{e+95} (the window at e and the next 96 values of
// the lagged Fibonacci part) by 97 dot products of 97 terms; c moves back by n*cd mod cm.
// Computed once per distance and reused for every jump by it.
struct RanmarJump {
    std::uint64_t n = 0;
    std::uint64_t poly[ranmar_lags] = {}; // r_0 .. r_96, reduced mod 2^bits
    std::uint64_t c_back = 0; // n * cd mod cm
};
RanmarJump ranmar_jump_by(const RanmarState& s, std::uint64_t n);
// The same jump as ranmar_jump(s, j.n), by j's polynomial (for states of j's variant).
void ranmar_jump(RanmarState& s, const RanmarJump& j);

// phi may be passed in when it is known (it depends only on the parameters).
void mt_jump(MtState& s, const MtParams& prm, std::uint64_t n);
void mt_jump(MtState& s, const MtParams& prm, const Gf2Poly& phi, std::uint64_t n);

// The jump split in two, for a distance used again and again (jump-parallel generation,
// kernels/): g(x) = x^n mod phi(x), computed once, then applied to any state of the same
// parameters (Horner's rule, as mt_jump).
Gf2Poly mt_jump_polynomial(const Gf2Poly& phi, std::uint64_t n);
void mt_jump(MtState& s, const MtParams& prm, const Gf2Poly& g);

// g(x) = x^n mod phi(x), square-and-multiply (any phi of degree >= 1; mt_jump_polynomial and
// the R250 jump use it).
Gf2Poly gf2_jump_polynomial(const Gf2Poly& phi, std::uint64_t n);

// A family's own jump built on gf2_jump_polynomial is declared with its engine (R250's
// r250_jump in r250.hpp).

} // namespace rngvet
