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

// phi may be passed in when it is known (it depends only on the parameters).
void mt_jump(MtState& s, const MtParams& prm, std::uint64_t n);
void mt_jump(MtState& s, const MtParams& prm, const Gf2Poly& phi, std::uint64_t n);

} // namespace rngvet
