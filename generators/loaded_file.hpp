// What a family loads once per configuration from the file its generator's name holds (a
// plugin's library): the family's own type derives from LoadedFile, and the configuration keeps
// it as one, shared by its copies (Configuration::loaded), so that no shared file names the
// family's type.
#pragma once

#include <string>

namespace rngvet {

struct LoadedFile {
    std::string path; // absolute, as loaded
    std::string sha256; // of the file's bytes, computed when it was loaded

    LoadedFile() = default;
    LoadedFile(const LoadedFile&) = delete;
    LoadedFile& operator=(const LoadedFile&) = delete;
    virtual ~LoadedFile() = default;
};

} // namespace rngvet
