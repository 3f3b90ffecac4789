// The values an option accepts, as one table per option: a fixed word ("interleave") or a form
// with a number after a colon ("block:K"), each with what it means. The option's parser, its
// --help, its error message, the bash completion (through rngvet list) and the man pages are all
// read from the table, so none of them can name a value the others do not.
//
// A typed vocabulary (a run's status, its mode, a p-value's verdict, --prefetch) is an enum with
// one table of Terms: each value with its one text (what the store keeps, what an option takes)
// and what it means. Its text, its parse, its list of words in messages and its Words for the
// option tables are all read from that table.
#pragma once

#include <cstddef>
#include <optional>
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

template <class E> struct Term {
    E value;
    const char* text;
    const char* meaning; // for --help; may be empty
};

// The text of `value` in `terms` ("?" for a value the table lacks, which a complete table never
// has).
template <class E, std::size_t N>
constexpr const char* term_text(const Term<E> (&terms)[N], E value)
{
    for (const Term<E>& t : terms)
        if (t.value == value) return t.text;
    return "?";
}

// The value whose text is exactly `text` (case counts); nullopt for any other text.
template <class E, std::size_t N>
std::optional<E> term_value(const Term<E> (&terms)[N], const std::string& text)
{
    for (const Term<E>& t : terms)
        if (text == t.text) return t.value;
    return std::nullopt;
}

// The table as Words, for the option tables (word_help, word_list, check_word, rngvet list).
template <class E, std::size_t N> Words term_words(const Term<E> (&terms)[N])
{
    Words words;
    for (const Term<E>& t : terms)
        words.push_back({ t.text, t.meaning });
    return words;
}

// "running, complete, interrupted or failed" (for messages).
template <class E, std::size_t N> std::string term_alternatives(const Term<E> (&terms)[N])
{
    return word_alternatives(term_words(terms));
}

} // namespace rngvet
