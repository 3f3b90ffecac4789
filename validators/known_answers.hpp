// The known-answer table (validators/known_answers.txt, embedded in the binary): one row per
// check, read by the reference tests, every backend's tests and `rngvet validate`.
#pragma once

#include "generators/configuration.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

struct KnownAnswer {
    int line = 0; // line in known_answers.txt
    std::string generator; // ranmar24, ranmar48, mtdc, mt19937, ...
    std::string params; // "" or p=P,aaa=A,maskB=B,maskC=C
    std::vector<std::int64_t> seed;
    std::uint64_t skip = 0;
    std::vector<std::uint64_t> values;

    // The single-instance configuration whose stream, after `skip` numbers, starts with values.
    Configuration configuration(const std::string& backend = "cpu") const;
    std::string label() const; // e.g. "ranmar24 1802,9373 skip 20000 (line 27)"
};

std::vector<KnownAnswer> parse_known_answers(const std::string& text);
// The embedded table.
const std::vector<KnownAnswer>& known_answers();

} // namespace rngvet
