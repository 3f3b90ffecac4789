// What the lattice battery's tests share (tests/test_lattice*.cpp).
#pragma once

#include "generators/configuration.hpp"

#include <memory>
#include <string>

namespace rngvet_test {

// A stream of rngvet's own generators at its start: "mt19937" (seed s) or "ranmar48" (seeds
// "ij,kl").
inline std::unique_ptr<rngvet::Stream> make_generator(
    const std::string& generator, const std::string& seed)
{
    rngvet::ConfigurationText t;
    t.generator = generator;
    t.seed = seed;
    return rngvet::make_stream(rngvet::resolve_configuration(t));
}

} // namespace rngvet_test
