// The INI reader of campaign files: "[kind name]" section headers and "key = value" lines, with
// comments ('#' or ';' opening a line, '#' after white space closing a value), each key once per
// section. Every problem is an InputError "FILE:LINE: ...". What the sections and keys mean is
// campaign_file.cpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet::campaigns::ini {

// `s` without the spaces, tabs and carriage returns around it.
std::string trim(const std::string& s);

struct Entry {
    std::string key, value;
    int line = 0;
};
struct Section {
    std::string kind, name; // "[configuration fast]": kind "configuration", name "fast"
    int line = 0;
    std::vector<Entry> entries;
};

class Reader {
public:
    explicit Reader(std::string file);
    // Throws InputError "FILE:LINE: message".
    [[noreturn]] void fail(int line, const std::string& message) const;
    // The sections of `text` in file order.
    std::vector<Section> sections(const std::string& text) const;
    // Refuses a key of `s` that `keys` does not list, naming the valid ones.
    void known_keys(const Section& s, const std::vector<std::string>& keys) const;
    // The entry's value as an integer in low..high.
    std::int64_t integer(const Entry& e, std::int64_t low, std::int64_t high) const;

private:
    std::string file_;
};

} // namespace rngvet::campaigns::ini
