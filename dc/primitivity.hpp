// Primitivity of a Mersenne Twister's characteristic polynomial: for any parameters
// (mt_primitivity), and for DC's layout as a function of aaa with the cheap prescreen and the
// decimation test that the Dynamic Creator's search runs on every candidate (MtCharpoly).
#pragma once

#include "generators/gf2poly.hpp"
#include "generators/mt_params.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

struct MtPrimitivity {
    bool primitive = false;
    Gf2Poly charpoly; // phi when primitive; else the minimal polynomial found
    std::string reason; // why not primitive
};
MtPrimitivity mt_primitivity(const MtParams& prm);

// The characteristic polynomial of DC's layout for p (nn = p/32 + 1, mm = nn/2, rr = 32nn - p)
// as a function of aaa. From the MT paper (Matsumoto & Nishimura 1998, section 3.1), with
// T = t^nn + t^mm and S = t^(nn-1) + t^(mm-1) and a_k bit k of aaa:
//   phi(t) = T^(32-rr) S^rr + sum_{k<rr} a_k T^(32-rr) S^(rr-1-k) + sum_{k>=rr} a_k T^(31-k)
// so phi is the XOR of precomputed polynomials, one per set bit of aaa. The prescreen keeps
// the remainders of those polynomials modulo the 127 irreducible polynomials of degree <= 9,
// so "phi has a factor of degree <= 9" costs 127 XOR chains of 32 small words (dcmt does the
// same, and so draws the same candidates through its prescreen).
// From this p on, MtCharpoly::primitive tests by decimation (O(p^2)) before t^(2^p) mod phi
// (O(p^3) with a small constant); measured per candidate, the second is faster up to p = 9689
// and the first from 19937 on (docs/dynamic_creator.md).
inline constexpr int decimation_min_p = 19937;

class MtCharpoly {
public:
    explicit MtCharpoly(int p); // p a Mersenne exponent >= 521 (throws std::invalid_argument)
    int p() const { return p_; }
    Gf2Poly of(std::uint32_t aaa) const;
    // False when phi(aaa) is divisible by an irreducible polynomial of degree <= 9.
    bool prescreen(std::uint32_t aaa) const;
    // Exact: phi(aaa) is primitive (prescreen, then t^(2^p) = t mod phi, as in
    // primitivity_mersenne). When *stop becomes true during the test, it returns false
    // early; the answer is then meaningless (the caller asked to drop it).
    bool primitive(std::uint32_t aaa, const std::atomic<bool>* stop = nullptr) const;
    // The decimation test of the MT paper (primitivity.cpp): false proves phi(aaa)
    // reducible; true for every irreducible phi, and for a reducible one only when a fixed
    // start state lies in a small subspace. For p >= decimation_min_p, primitive() runs it
    // first and confirms a pass with t^(2^p) = t. About 20p^2 scalar operations.
    bool passes_decimation(std::uint32_t aaa, const std::atomic<bool>* stop = nullptr) const;

private:
    int p_;
    std::vector<Gf2Poly> term_; // term_[k]: the polynomial of bit k of aaa; term_[32]: the rest
    std::vector<std::array<std::uint16_t, 33>> residues_; // [small irreducible][k]
};

} // namespace rngvet
