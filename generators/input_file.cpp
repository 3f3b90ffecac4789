#include "input_file.hpp"

#include "error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace rngvet {

std::string read_input_file(const std::string& path, const std::string& what)
{
    const auto too_large = [&] {
        return InputError("the " + what + " '" + path
            + "' is larger than 64 MiB, the most rngvet reads of such a file");
    };
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        throw InputError("cannot open " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError("the " + what + " '" + path + "' is not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > max_input_file_bytes) throw too_large();
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open " + path + ": " + std::strerror(errno));
    // Read in pieces up to the bound: the file may have grown since stat.
    std::string bytes;
    char piece[1 << 16];
    while (in.read(piece, sizeof piece) || in.gcount() > 0) {
        bytes.append(piece, static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > max_input_file_bytes) throw too_large();
    }
    if (in.bad()) throw InputError("cannot read " + path);
    return bytes;
}

} // namespace rngvet
