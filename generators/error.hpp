// The one exception type for bad input. Its message is a single line meant for the user.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace rngvet {

struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A message as one line of text: a line break, NUL or other control character inside it (a
// value the user gave, a name read from a file) is shown escaped: \n, \r, \t, \0, \xHH.
inline std::string one_line(const std::string& message)
{
    std::string out;
    out.reserve(message.size());
    for (const char c : message) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\0') {
            out += "\\0";
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", u);
            out += hex;
        }
    }
    return out;
}

} // namespace rngvet
