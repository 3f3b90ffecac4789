// The stream of a kernel device (device.hpp): its launches served to a Stream's readers.
#pragma once

#include "generators/stream.hpp"
#include "kernels/device.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace rngvet {

// The combined stream whose numbers from combined index `start` on the device generates,
// `launch` numbers per launch, served from host memory (fill, take, discard) or into device
// memory (fill_device). name() and bits() are the configuration's canonical name and
// resolution. Throws InputError when the host buffer does not fit.
std::unique_ptr<Stream> make_device_stream(std::unique_ptr<KernelDevice> device,
    std::uint64_t start, int bits, std::string name, std::size_t launch);

} // namespace rngvet
