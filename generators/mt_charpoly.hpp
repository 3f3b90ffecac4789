// The characteristic polynomial of a Mersenne Twister recurrence, which the jump-ahead
// (jump.hpp), the parameter sets' checks and the Dynamic Creator (dc/) start from.
#pragma once

#include "gf2poly.hpp"
#include "mt.hpp"
#include "mt_params.hpp"

namespace rngvet {

// The characteristic polynomial phi(t) of the recurrence (degree p = nn*32 - rr), found by
// Berlekamp-Massey on 2p output bits. The result is the minimal polynomial of that bit
// sequence, which divides phi; it has degree p and equals phi whenever phi is irreducible (see
// mt_charpoly.cpp). A degree below p therefore proves phi reducible.
Gf2Poly mt_characteristic_polynomial(const MtParams& prm);

} // namespace rngvet
