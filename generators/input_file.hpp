// Files a user names that are read whole: parameter sets, campaign files and their task
// tables. Each must be a regular file of at most max_input_file_bytes, so that a device or a
// pipe (/dev/zero) or a huge file is refused at once instead of being read until the memory
// runs out.
#pragma once

#include <cstdint>
#include <string>

namespace rngvet {

inline constexpr std::uint64_t max_input_file_bytes = std::uint64_t(64) << 20; // 64 MiB

// The bytes of `path`. `what` names the file in the one-line InputError ("parameter file").
std::string read_input_file(const std::string& path, const std::string& what);

} // namespace rngvet
