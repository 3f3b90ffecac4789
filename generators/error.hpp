// The one exception type for bad input. Its message is a single line meant for the user.
#pragma once

#include <stdexcept>

namespace rngvet {

struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace rngvet
