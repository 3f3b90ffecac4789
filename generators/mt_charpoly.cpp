#include "mt_charpoly.hpp"

#include <cstdint>
#include <vector>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// Characteristic polynomial
//
// Why Berlekamp-Massey gives phi. Any fixed output bit, from a fixed start state, is a sequence
// s_n = f(B^n x) for a linear functional f. Its minimal polynomial g divides the minimal
// polynomial of B, which divides phi (degree p). If phi is irreducible, g is 1 or phi; g = 1
// would mean f vanishes on the B-cyclic subspace of x, which is the whole space (phi
// irreducible), so f = 0 -- but a tempered output bit is a non-zero functional (the tempering
// is invertible). Hence g = phi, and 2p bits determine it exactly (Massey 1969). Conversely, if
// BM returns a degree-p polynomial that passes the irreducibility test, it is phi (it divides
// phi and has the same degree); if it returns a lower degree, phi is reducible.
// ---------------------------------------------------------------------------------------------

Gf2Poly mt_characteristic_polynomial(const MtParams& prm)
{
    static thread_local MtState s;
    mt_seed(s, prm, 4357u);
    const int p = mt_exponent(prm);
    std::vector<std::uint8_t> bits(2 * static_cast<std::size_t>(p));
    for (auto& b : bits)
        b = static_cast<std::uint8_t>(mt_next(s, prm) & 1u);
    return berlekamp_massey(bits);
}

} // namespace rngvet
