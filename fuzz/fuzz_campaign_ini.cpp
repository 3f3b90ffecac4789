// libFuzzer target: the campaign file parser (rngvet campaign plan/submit/run read it).
// Any input may be refused with InputError; nothing else may escape, crash or leak. A campaign
// that parses expands into tasks whose configurations have names that parse back.
#include "campaigns/campaign.hpp"
#include "generators/configuration.hpp"
#include "generators/error.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    // A plugin generator (lib:PATH) is a shared library that expanding the campaign loads, and
    // loading one runs its code: not what this target fuzzes, so inputs naming one are passed by.
    std::string lower = text;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("lib:") != std::string::npos) return 0;
    try {
        // A base folder that does not exist: relative parameter files are not found there.
        const rngvet::campaigns::Campaign campaign
            = rngvet::campaigns::parse_campaign(text, "fuzz.ini", "no-such-folder-of-rngvet-fuzz");
        const auto tasks = rngvet::campaigns::expand(campaign);
        for (const auto& task : tasks) {
            const rngvet::Configuration back = rngvet::parse_canonical_name(task.config);
            if (rngvet::canonical_name(back) != task.config) std::abort();
        }
    } catch (const rngvet::InputError&) {
    }
    return 0;
}
