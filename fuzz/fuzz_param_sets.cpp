// libFuzzer target: the parameter-set readers (mtdc --params files, rngvet dc verify): the text
// format and the NVIDIA SDK's .dat records. Any input may be refused with InputError; nothing
// else may escape, crash or leak. A set that parses has one id per set.
#include "generators/error.hpp"
#include "generators/mt_params.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    for (const bool dat : { false, true }) {
        try {
            const rngvet::MtParamSet set = dat ? rngvet::parse_sdk_dat(bytes, "fuzz.dat")
                                               : rngvet::parse_param_text(bytes, "fuzz.txt");
            if (set.ids.size() != set.sets.size()) std::abort();
        } catch (const rngvet::InputError&) {
        }
    }
    return 0;
}
