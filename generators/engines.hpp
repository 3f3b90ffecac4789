// The reference streams of each generator family (configuration.cpp), for the registry's rows.
// Each takes a validated configuration with the top32 view and leaves its skip to make_stream.
#pragma once

#include "configuration.hpp"

#include <memory>

namespace rngvet {

std::unique_ptr<Stream> make_ranmar_reference(const Configuration& config);
std::unique_ptr<Stream> make_mt_reference(const Configuration& config);
std::unique_ptr<Stream> make_r250_reference(const Configuration& config);
std::unique_ptr<Stream> make_external_reference(const Configuration& config);
std::unique_ptr<Stream> make_plugin_reference(const Configuration& config);

} // namespace rngvet
