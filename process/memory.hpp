// What this machine gives a process: sizes are refused before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

namespace rngvet {

// Refuses (InputError) a size whose `bytes` would take more than half of this machine's memory,
// before anything is allocated (`what` names the option, e.g. "--instances 100000000").
void check_fits_in_memory(std::uint64_t bytes, const std::string& what);

} // namespace rngvet
