// The reference streams of each generator family (engines.cpp), for the registry's rows.
// Each takes a validated configuration with the top32 view and leaves its skip to make_stream
// (configuration.hpp), which reaches them through the registry, not through this header.
#pragma once

#include <memory>

namespace rngvet {

struct Configuration;
class Stream;

std::unique_ptr<Stream> make_ranmar_reference(const Configuration& config);
std::unique_ptr<Stream> make_mt_reference(const Configuration& config);
std::unique_ptr<Stream> make_r250_reference(const Configuration& config);
std::unique_ptr<Stream> make_external_reference(const Configuration& config);
std::unique_ptr<Stream> make_plugin_reference(const Configuration& config);

} // namespace rngvet
