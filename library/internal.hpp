// What the parts of librngvet share behind the C API.
#pragma once

#include "generators/configuration.hpp"
#include "rngvet/rngvet.h"

#include <string>

namespace rngvet::library {

// The configuration a library caller names: a canonical name or the options form of rngvet run
// ("--generator ranmar48 --seed 1802,9373"), validated, with the views a stream may have. A
// --backend among the options is returned in `backend`. Throws InputError.
Configuration configuration_from_text(const char* text, std::string& backend);

// rngvet_open after the configuration's text is read: c (validated) on `backend` ("auto", "cpu",
// ...) with options o. Returns a status, the message set as rngvet_open sets it.
int open_configuration(
    rngvet_stream** stream, Configuration c, const std::string& backend, const rngvet_options& o);

// The calling thread's last error, as rngvet_last_error() returns it.
void set_last_error(const std::string& message);

} // namespace rngvet::library
