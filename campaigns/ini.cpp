// The INI reader of campaign files (ini.hpp).
#include "ini.hpp"

#include "generators/error.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

namespace rngvet::campaigns::ini {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

Reader::Reader(std::string file)
    : file_(std::move(file))
{
}
void Reader::fail(int line, const std::string& message) const
{
    throw InputError(file_ + ":" + std::to_string(line) + ": " + message);
}

std::vector<Section> Reader::sections(const std::string& text) const
{
    std::vector<Section> out;
    std::istringstream in(text);
    int number = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++number;
        std::string line = trim(raw);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        // A comment may follow a value after white space: "shards = 3   # per seed".
        for (std::size_t i = 1; i < line.size(); ++i)
            if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
                line = trim(line.substr(0, i));
                break;
            }
        if (line[0] == '[') {
            if (line.back() != ']') fail(number, "a section header ends with ']'");
            std::istringstream words(line.substr(1, line.size() - 2));
            Section s;
            s.line = number;
            words >> s.kind;
            std::getline(words, s.name);
            s.name = trim(s.name);
            out.push_back(s);
            continue;
        }
        const auto eq = line.find('=');
        if (eq == std::string::npos) fail(number, "expected 'key = value' or '[section]'");
        if (out.empty()) fail(number, "'" + trim(line.substr(0, eq)) + "' is outside any section");
        Entry e{ trim(line.substr(0, eq)), trim(line.substr(eq + 1)), number };
        if (e.key.empty()) fail(number, "a key is missing before '='");
        if (e.value.empty()) fail(number, "'" + e.key + "' has no value");
        for (const Entry& earlier : out.back().entries)
            if (earlier.key == e.key)
                fail(number,
                    "'" + e.key + "' is given twice in this section (first on line "
                        + std::to_string(earlier.line) + ")");
        out.back().entries.push_back(e);
    }
    return out;
}

void Reader::known_keys(const Section& s, const std::vector<std::string>& keys) const
{
    for (const Entry& e : s.entries)
        if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) {
            std::string valid;
            for (const auto& k : keys)
                valid += (valid.empty() ? "" : ", ") + k;
            fail(e.line,
                "unknown key '" + e.key + "' in [" + s.kind + (s.name.empty() ? "" : " " + s.name)
                    + "] (valid: " + valid + ")");
        }
}

std::int64_t Reader::integer(const Entry& e, std::int64_t low, std::int64_t high) const
{
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(e.value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != e.value.size() || v < low || v > high)
        fail(e.line,
            "'" + e.key + "' must be an integer in " + std::to_string(low) + ".."
                + std::to_string(high) + ", got '" + e.value + "'");
    return v;
}

} // namespace rngvet::campaigns::ini
