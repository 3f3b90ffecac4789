// The words that name a generator (GeneratorKind: "ranmar48", "mtdc", "file") and a family
// (GeneratorFamily: "ranmar", "mt"), typed, so that neither mixes with the other nor with a name
// as a user writes it ("file:words.bin", parsed by parse_generator). Each family states its own in
// its header (ranmar.hpp's kinds::ranmar48 and families::ranmar, mt.hpp's, r250.hpp's,
// input_file.hpp's, plugin.hpp's) and its rows in its family file; no list names them all. Two
// ids are equal when their words are; the registry refuses a word given twice, and a word that
// is no row's is a logic_error where the registry is asked (traits, family_traits).
#pragma once

namespace rngvet {

template <class Tag> class GeneratorId {
public:
    constexpr explicit GeneratorId(const char* word)
        : word_(word)
    {
    }
    constexpr const char* word() const { return word_; }

    friend constexpr bool operator==(GeneratorId a, GeneratorId b)
    {
        return compare(a.word_, b.word_) == 0;
    }
    friend constexpr bool operator!=(GeneratorId a, GeneratorId b) { return !(a == b); }
    friend constexpr bool operator<(GeneratorId a, GeneratorId b)
    {
        return compare(a.word_, b.word_) < 0;
    }

private:
    static constexpr int compare(const char* a, const char* b)
    {
        for (;; ++a, ++b) {
            if (*a != *b)
                return static_cast<unsigned char>(*a) < static_cast<unsigned char>(*b) ? -1 : 1;
            if (!*a) return 0;
        }
    }
    const char* word_;
};

struct GeneratorKindTag;
struct GeneratorFamilyTag;
// A generator: one row of the registry (generator_registry), named by its word.
using GeneratorKind = GeneratorId<GeneratorKindTag>;
// A family: one row of the family table (family_registry), named by its word.
using GeneratorFamily = GeneratorId<GeneratorFamilyTag>;

} // namespace rngvet
