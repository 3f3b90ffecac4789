// The values an option accepts, as one table per option: a fixed word ("interleave") or a form
// with a number after a colon ("block:K"), each with what it means. The option's parser, its
// --help, its error message, the bash completion (through rngvet list) and the man pages are all
// read from the table, so none of them can name a value the others do not.
#pragma once

#include <string>
#include <vector>

namespace rngvet {

struct Word {
    const char* form; // "interleave", or "block:K" (a prefix, then a placeholder)
    const char* meaning; // for --help; may be empty
};
using Words = std::vector<Word>;

// ASCII letters in lower case (names read in any case: "SmallCrush", "CUDA").
inline std::string lower_case(std::string text)
{
    for (char& c : text)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return text;
}

// "single, interleave, block:K, request:R" (for error messages).
inline std::string word_list(const Words& words)
{
    std::string out;
    for (const Word& w : words)
        out += (out.empty() ? "" : ", ") + std::string(w.form);
    return out;
}

// "serial or sharded", "on, off or auto" (for messages).
inline std::string word_alternatives(const Words& words)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += std::string(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i].form;
    return out;
}

// "single (default for 1 instance), interleave (...), block:K (...)" (for --help).
inline std::string word_help(const Words& words)
{
    std::string out;
    for (const Word& w : words) {
        out += (out.empty() ? "" : ", ") + std::string(w.form);
        if (*w.meaning) out += " (" + std::string(w.meaning) + ")";
    }
    return out;
}

// The prefix of a form that takes a value ("block:" of "block:K"), or "" for a fixed word.
inline std::string word_prefix(const Word& w)
{
    const std::string form = w.form;
    const std::size_t colon = form.find(':');
    return colon == std::string::npos ? std::string() : form.substr(0, colon + 1);
}

// The word of `words` that `text` is: itself for a fixed word, its form ("block:K") for
// "block:12". nullptr for none.
inline const Word* find_word(const Words& words, const std::string& text)
{
    for (const Word& w : words) {
        const std::string prefix = word_prefix(w);
        if (prefix.empty() ? text == w.form : text.rfind(prefix, 0) == 0) return &w;
    }
    return nullptr;
}

} // namespace rngvet
