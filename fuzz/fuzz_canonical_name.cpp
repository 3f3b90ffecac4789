// libFuzzer target: canonical configuration names (parse_canonical_name), as stored in
// runs.config and given to librngvet. Any input may be refused with InputError; a name that
// is accepted must be canonical: canonical_name gives it back, byte for byte.
#include "generators/configuration.hpp"
#include "generators/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string name(reinterpret_cast<const char*>(data), size);
    try {
        const rngvet::Configuration config = rngvet::parse_canonical_name(name);
        if (rngvet::canonical_name(config) != name) std::abort();
        (void)rngvet::seed_family(name);
    } catch (const rngvet::InputError&) {
    }
    return 0;
}
