// What the parts of librngvet share behind the C API.
#pragma once

#include <string>

namespace rngvet::library {

// The calling thread's last error, as rngvet_last_error() returns it.
void set_last_error(const std::string& message);

} // namespace rngvet::library
