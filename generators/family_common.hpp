// What the family files (generators/family_<name>.cpp) share with configuration.cpp, which
// defines the functions: the number parser of the options, the mixing of --seeding hash, the
// seeding of one-word seeds, the words of the external streams' canonical names; and, inline,
// the answer of a family that always or never jumps ahead. Not a public header.
#pragma once

#include "registry.hpp"

#include <cstdint>
#include <string>

namespace rngvet {

struct Configuration;

// A non-negative integer, decimal or 0x-prefixed hexadecimal; InputError naming `what`.
std::uint64_t parse_u64(const std::string& text, const std::string& what);

// SplitMix64 finaliser (constants from Steele, Lea & Flood 2014, as used in Vigna's
// splitmix64): the documented mixing behind --seeding hash.
std::uint64_t splitmix64(std::uint64_t x);

// Seed of instance i for the generators of one 32-bit seed, the Mersenne Twisters and R250
// (wrapping), under each seeding scheme.
std::uint32_t word_instance_seed(const Configuration& c, int i);

// The word before "[NAME]" in a named external stream's canonical name: the generator's name
// without its path ("stdin32", "file64").
std::string external_word(GeneratorKind kind);

// The options an external stream's canonical name may end with, in canonical_name's order.
extern const char* const external_options[3];

// The row's jumps_ahead of a family that always jumps ahead (Jumps = true: RANMAR, the Mersenne
// Twisters, R250) or never does (false: the external streams).
template <bool Jumps> bool jumps_ahead_fixed(const Configuration&)
{
    return Jumps;
}

} // namespace rngvet
