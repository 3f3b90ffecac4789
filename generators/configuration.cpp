#include "configuration.hpp"

#include "error.hpp"
#include "jump.hpp"
#include "layout_index.hpp"
#include "mt.hpp"
#include "mt_charpoly.hpp"
#include "mt_params.hpp"
#include "r250.hpp"
#include "ranmar.hpp"
#include "sha256.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace rngvet {
namespace {

// A non-negative integer, decimal or 0x-prefixed hexadecimal.
std::uint64_t parse_u64(const std::string& text, const std::string& what)
{
    const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
    const std::string digits = hex ? text.substr(2) : text;
    if (digits.empty()
        || digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789")
            != std::string::npos)
        throw InputError(what + " must be a non-negative integer, got '" + text + "'");
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
    if (errno == ERANGE) throw InputError(what + " is too large: '" + text + "'");
    return v;
}

bool is_ranmar(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::ranmar;
}
bool is_mt(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::mt;
}
bool is_r250(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::r250;
}
bool is_external(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::external;
}
bool is_plugin(const Configuration& c)
{
    return family(c.generator) == GeneratorFamily::plugin;
}
bool is_mtdc(const Configuration& c)
{
    return c.generator.kind == GeneratorKind::mtdc;
}
// The word before "[NAME]" in a named external stream's canonical name: the generator's name
// without its path ("stdin32", "file64").
std::string external_word(GeneratorKind kind)
{
    const std::string row = traits(kind).name;
    return row.substr(0, row.find(':'));
}

// A canonical name (or its head) of an external stream, which has no other fields: a stream's
// word alone, followed by ';' options, ':PATH' (the files) or '[NAME]'.
bool names_external(const std::string& text)
{
    const std::string name = lower_case(text);
    for (const GeneratorKind kind : { GeneratorKind::stdin32, GeneratorKind::stdin64,
             GeneratorKind::file, GeneratorKind::file64 }) {
        const std::string word = external_word(kind);
        if (name.rfind(word, 0) != 0) continue;
        if (name.size() == word.size()) return true;
        const char next = name[word.size()];
        if (next == ';' || next == '[' || (next == ':' && reads_file(kind))) return true;
    }
    return false;
}

// The options an external stream's canonical name may end with, in canonical_name's order.
const char* const external_options[] = { ";seed=", ";skip=", ";view=" };

// An external stream's --name or --seed, which its canonical name holds as written: at most 64
// letters, digits, '.', '_', '+', '-' and the characters of `more`.
void check_external_label(const std::string& text, const char* option, const std::string& more)
{
    static const std::string base = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                    "0123456789._+-";
    if (text.size() <= 64 && text.find_first_not_of(base + more) == std::string::npos) return;
    std::string allowed = "letters, digits and . _ + -";
    for (char ch : more)
        allowed += std::string(" ") + ch;
    throw InputError(std::string(option) + " '" + text + "' may hold only " + allowed
        + " (at most 64 characters)");
}

// A canonical name cut along canonical_name's grammar, before any part is read: the head (the
// five fields generator/instances/layout/seeding/seed, or an external stream's name) and the
// options after ';', in canonical_name's order (zero, skip, view; an external stream's seed,
// skip, view). An external name's options are taken from its end, the last of each kind, since
// a file's path may hold ';' and '/' itself.
struct CanonicalParts {
    bool external = false;
    std::string head;
    std::vector<std::string> fields; // the head's fields; empty for an external stream
    std::vector<std::string> options; // "zero=smallest", "skip=10", "view=low32"
};

CanonicalParts split_canonical_name(const std::string& name)
{
    CanonicalParts parts;
    parts.external = names_external(name);
    parts.head = name;
    if (parts.external) {
        for (int k = 2; k >= 0; --k) {
            const auto at = parts.head.rfind(external_options[k]);
            if (at == std::string::npos) continue;
            parts.options.insert(parts.options.begin(), parts.head.substr(at + 1));
            parts.head = parts.head.substr(0, at);
        }
        return parts;
    }
    std::stringstream in(name);
    std::string part;
    std::getline(in, parts.head, ';');
    while (std::getline(in, part, ';'))
        parts.options.push_back(part);
    std::stringstream head(parts.head);
    while (std::getline(head, part, '/'))
        parts.fields.push_back(part);
    return parts;
}
// SplitMix64 finaliser (constants from Steele, Lea & Flood 2014, as used in Vigna's
// splitmix64): the documented mixing behind --seeding hash.
std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::uint32_t parse_hex32(const std::string& text, const std::string& what)
{
    std::string t = text;
    if (t.rfind("0x", 0) == 0 || t.rfind("0X", 0) == 0) t = t.substr(2);
    if (t.empty() || t.size() > 8
        || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw InputError(what + " must be a 32-bit hexadecimal number, got '" + text + "'");
    return static_cast<std::uint32_t>(std::strtoul(t.c_str(), nullptr, 16));
}

// --params p=P,aaa=A,maskB=B,maskC=C: one DC parameter set written out in full.
MtParamSet inline_param_set(const std::string& text)
{
    int p = 0;
    std::uint32_t aaa = 0, mask_b = 0, mask_c = 0;
    int seen = 0;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        const std::string key = item.substr(0, eq),
                          value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "p") {
            // Bounded before the narrowing, so that no p wraps onto a supported exponent.
            const std::uint64_t v = parse_u64(value, "p in --params");
            if (v > 44497)
                throw InputError("p = " + value + " is not a supported Mersenne exponent");
            p = static_cast<int>(v);
        } else if (key == "aaa")
            aaa = parse_hex32(value, "aaa in --params");
        else if (key == "maskB")
            mask_b = parse_hex32(value, "maskB in --params");
        else if (key == "maskC")
            mask_c = parse_hex32(value, "maskC in --params");
        else
            throw InputError("unknown key '" + key + "' in --params (valid: p, aaa, maskB, maskC)");
        ++seen;
    }
    if (seen != 4) throw InputError("--params p=P,aaa=A,maskB=B,maskC=C needs all four keys");
    static const int exponents[] = { 521, 607, 1279, 2203, 2281, 3217, 4253, 4423, 9689, 9941,
        11213, 19937, 21701, 23209, 44497 };
    bool known = false;
    for (int e : exponents)
        known |= e == p;
    if (!known)
        throw InputError("p = " + std::to_string(p) + " is not a supported Mersenne exponent");
    MtParamSet set;
    set.source = text;
    set.p = p;
    set.sets.push_back(mt_params_for(p, aaa, mask_b, mask_c));
    set.ids.push_back(aaa & 0xFFFFu);
    set.sha256 = sha256_hex(text);
    return set;
}

// The sets c.params names, read and hashed.
std::shared_ptr<const MtParamSet> read_param_sets(const Configuration& c)
{
    if (c.params.empty())
        throw InputError("mtdc needs --params (a built-in set such as fixstars-mt521, a file, or "
                         "p=P,aaa=A,maskB=B,maskC=C)");
    if (c.params.rfind("p=", 0) == 0)
        return std::make_shared<const MtParamSet>(inline_param_set(c.params));
    try {
        return std::make_shared<const MtParamSet>(load_param_set(c.params));
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(e.what());
    }
}

// Every MtParamSet records the text it was loaded from as its source.
bool loaded_from_params(const Configuration& c)
{
    return c.param_sets && !c.params.empty() && c.param_sets->source == c.params;
}

std::string params_label(const Configuration& c, const MtParamSet& set)
{
    std::string source = c.params;
    if (source.rfind("p=", 0) != 0) {
        const auto slash = source.find_last_of('/');
        if (slash != std::string::npos) source = source.substr(slash + 1);
    }
    return "mtdc[" + source + "#" + set.sha256.substr(0, 8) + "@" + std::to_string(c.param_id)
        + "]";
}

// Seed of instance i for the generators of one 32-bit seed, the Mersenne Twisters and R250
// (wrapping).
std::uint32_t mt_instance_seed(const Configuration& c, int i)
{
    const std::uint64_t base = static_cast<std::uint64_t>(c.seed[0]);
    const std::uint64_t n = static_cast<std::uint64_t>(i);
    switch (c.seeding.kind) {
    case SeedingKind::same:
    case SeedingKind::split: // the base seed, jumped by i * S numbers (mt_instance_states)
        return static_cast<std::uint32_t>(base);
    case SeedingKind::increment:
        return static_cast<std::uint32_t>(base + n);
    case SeedingKind::stride:
        return static_cast<std::uint32_t>(base + c.seeding.stride * n);
    case SeedingKind::hash:
        return static_cast<std::uint32_t>(splitmix64((base << 32) ^ n));
    }
    return 0;
}

// Seeds of instance i for RANMAR under each seeding scheme. James's kl wraps in 0..30081.
void ranmar_instance_seed(const Configuration& c, int i, int& ij, int& kl)
{
    const std::uint64_t kl_range = ranmar_kl_max + 1;
    ij = static_cast<int>(c.seed[0]);
    kl = static_cast<int>(c.seed[1]);
    const std::uint64_t n = static_cast<std::uint64_t>(i);
    switch (c.seeding.kind) {
    case SeedingKind::same:
    case SeedingKind::split: // the base seed, jumped by i * S numbers (ranmar_instance_state)
        break;
    case SeedingKind::increment:
        kl = static_cast<int>((kl + n) % kl_range);
        break;
    case SeedingKind::stride:
        kl = static_cast<int>((kl + (c.seeding.stride % kl_range) * (n % kl_range)) % kl_range);
        break;
    case SeedingKind::hash: {
        const std::uint64_t base = static_cast<std::uint64_t>(ij) * kl_range + kl;
        const std::uint64_t h = splitmix64((base << 32) ^ n);
        ij = static_cast<int>((h & 0xFFFFFFFFull) % (ranmar_ij_max + 1));
        kl = static_cast<int>((h >> 32) % kl_range);
        break;
    }
    }
}

// Seeds are kept below 2^63 (parse_seed), and so are a plugin instance's first words.
constexpr std::uint64_t plugin_seed_modulus = std::uint64_t(1) << 63;

// A plugin's canonical head: lib[NAME#HASH8], with :SYMBOL when the library's function is not
// the default one.
std::string plugin_label(const Configuration& c, const PluginLibrary& library)
{
    return "lib[" + library.name + "#" + library.sha256.substr(0, 8)
        + (c.generator.symbol.empty() ? "" : ":" + c.generator.symbol) + "]";
}

// The smallest i >= 0 with base + stride * i = 0 (mod 2^32), or 2^32 when there is none: where
// an R250 seeding scheme reaches the seed 0, which GSL's seeding (r250.hpp) takes as seed 1.
std::uint64_t r250_first_zero_seed(std::uint32_t base, std::uint32_t stride)
{
    if (base == 0) return 0;
    if (stride == 0) return std::uint64_t(1) << 32;
    int v = 0;
    while (!((stride >> v) & 1u))
        ++v;
    if (base & ((std::uint32_t(1) << v) - 1)) return std::uint64_t(1) << 32;
    // (stride / 2^v) i = -base / 2^v (mod 2^(32 - v)), the inverse of the odd stride / 2^v by
    // Newton's iteration (each step doubles the bits that are right).
    const std::uint32_t odd = stride >> v;
    std::uint32_t inverse = odd;
    for (int k = 0; k < 5; ++k)
        inverse *= 2u - odd * inverse;
    const std::uint64_t modulus = std::uint64_t(1) << (32 - v);
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(-(base >> v) * inverse)) % modulus;
}

} // namespace

std::vector<std::int64_t> parse_seed(const std::string& text)
{
    std::vector<std::int64_t> seed;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const std::uint64_t v = parse_u64(part, "each seed");
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw InputError("seed '" + part + "' is too large");
        seed.push_back(static_cast<std::int64_t>(v));
    }
    if (seed.empty() || text.back() == ',')
        throw InputError("--seed must be a comma-separated list of integers, got '" + text + "'");
    return seed;
}

const Words& layout_words()
{
    static const Words words = {
        { "single", "one instance; the default for 1 instance" },
        { "interleave", "round robin; the default for more" },
        { "block:K", "each instance K consecutive numbers in turn" },
        { "request:R",
            "each request of R numbers divided among the instances, the first R mod N taking one "
            "more" },
    };
    return words;
}

Layout parse_layout(const std::string& text)
{
    const Word* word = find_word(layout_words(), text);
    if (!word)
        throw InputError(
            "unknown layout '" + text + "' (valid: " + word_list(layout_words()) + ")");
    const std::string form = word->form;
    if (form == "single") return { LayoutKind::single, 0 };
    if (form == "interleave") return { LayoutKind::interleave, 0 };
    if (form == "block:K") {
        const std::uint64_t k = parse_u64(text.substr(6), "the block size K of --layout block:K");
        if (k == 0) throw InputError("the block size K of --layout block:K must be at least 1");
        return { LayoutKind::block, k };
    }
    if (form == "request:R") {
        const std::uint64_t r
            = parse_u64(text.substr(8), "the request size R of --layout request:R");
        if (r == 0) throw InputError("the request size R of --layout request:R must be at least 1");
        return { LayoutKind::request, r };
    }
    throw std::logic_error("layout form " + form + " has no parser");
}

Layout default_layout(int instances)
{
    return { instances > 1 ? LayoutKind::interleave : LayoutKind::single, 0 };
}

const Words& seeding_words()
{
    static const Words words = {
        { "increment", "instance i: seed + i, for RANMAR KL + i; the default" },
        { "same", "every instance the same seed" },
        { "stride:S", "instance i: seed + S*i, for RANMAR KL + S*i" },
        { "hash", "SplitMix64 of the seed and i" },
        { "split:S",
            "sequence splitting: instance i is the seed's stream from number i*S on, by "
            "jump-ahead" },
    };
    return words;
}

Seeding parse_seeding(const std::string& text)
{
    const Word* word = find_word(seeding_words(), text);
    if (!word)
        throw InputError(
            "unknown seeding '" + text + "' (valid: " + word_list(seeding_words()) + ")");
    const std::string form = word->form;
    if (form == "increment") return { SeedingKind::increment, 0 };
    if (form == "same") return { SeedingKind::same, 0 };
    if (form == "hash") return { SeedingKind::hash, 0 };
    if (form == "stride:S") {
        const std::uint64_t v = parse_u64(text.substr(7), "the stride S of --seeding stride:S");
        return { SeedingKind::stride, v };
    }
    if (form == "split:S") {
        const std::uint64_t v
            = parse_u64(text.substr(6), "the split length S of --seeding split:S");
        if (v == 0) throw InputError("the split length S of --seeding split:S must be at least 1");
        return { SeedingKind::split, v };
    }
    throw std::logic_error("seeding form " + form + " has no parser");
}

std::uint64_t layout_code(const Layout& layout)
{
    switch (layout.kind) {
    case LayoutKind::interleave:
        return RNGVET_LAYOUT_INTERLEAVE;
    case LayoutKind::block:
        return RNGVET_LAYOUT_BLOCK;
    case LayoutKind::request:
        return RNGVET_LAYOUT_REQUEST;
    case LayoutKind::single:
        break;
    }
    return RNGVET_LAYOUT_SINGLE;
}

std::string to_string(const Layout& layout)
{
    switch (layout.kind) {
    case LayoutKind::single:
        return "single";
    case LayoutKind::interleave:
        return "interleave";
    case LayoutKind::block:
        return "block:" + std::to_string(layout.block);
    case LayoutKind::request:
        return "request:" + std::to_string(layout.block);
    }
    return "?";
}

std::string to_string(const Seeding& seeding)
{
    switch (seeding.kind) {
    case SeedingKind::increment:
        return "increment";
    case SeedingKind::same:
        return "same";
    case SeedingKind::stride:
        return "stride:" + std::to_string(seeding.stride);
    case SeedingKind::hash:
        return "hash";
    case SeedingKind::split:
        return "split:" + std::to_string(seeding.stride);
    }
    return "?";
}

std::vector<std::int64_t> series_seed(
    GeneratorFamily family, const std::vector<std::int64_t>& first, std::int64_t k)
{
    const FamilyTraits& f = family_traits(family);
    if (!f.series) throw InputError("an external stream has no seeds to count up");
    return f.series(first, k);
}

std::vector<std::int64_t> default_first_seed(GeneratorFamily family)
{
    return family_traits(family).first_seed;
}

std::string recorded_seed(const Configuration& c)
{
    if (!is_external(c)) return seed_string(c.seed);
    return c.stream_seed.empty() ? "-" : c.stream_seed;
}

void load_param_sets(Configuration& c)
{
    if (is_plugin(c)) {
        // The default function named explicitly is the default: one configuration, one name.
        if (c.generator.symbol == default_plugin_symbol()) c.generator.symbol.clear();
        c.plugin = plugin_library(c);
        c.generator.path = c.plugin->path;
        return;
    }
    if (!is_mtdc(c)) return;
    if (!loaded_from_params(c)) c.param_sets = read_param_sets(c);
}

std::shared_ptr<const MtParamSet> mtdc_param_set(const Configuration& c)
{
    return loaded_from_params(c) ? c.param_sets : read_param_sets(c);
}

void check_stream_positions(const Configuration& c)
{
    const std::uint64_t limit = stream_position_limit;
    const auto n = static_cast<std::uint64_t>(c.instances);
    if (c.skip >= limit)
        throw InputError("--skip " + std::to_string(c.skip)
            + " is too large (below 2^62 = " + std::to_string(limit) + ")");
    if (c.layout.kind == LayoutKind::request && c.layout.block >= limit)
        throw InputError(
            "request:" + std::to_string(c.layout.block) + " is too large (R must be below 2^62)");
    if (c.layout.kind == LayoutKind::block && c.layout.block >= limit / n)
        throw InputError("block:" + std::to_string(c.layout.block) + " with "
            + std::to_string(c.instances) + " instances is too large (N*K must be below 2^62)");
    if (c.seeding.kind == SeedingKind::split && n > 1 && c.seeding.stride >= limit / (n - 1))
        throw InputError("split:" + std::to_string(c.seeding.stride) + " with "
            + std::to_string(c.instances)
            + " instances is too large (S*(N - 1) must be below 2^62)");
}

void validate(const Configuration& c)
{
    if (c.instances < 1)
        throw InputError("--instances must be at least 1, got " + std::to_string(c.instances));
    check_stream_positions(c);
    if (c.layout.kind == LayoutKind::request && c.layout.block < std::uint64_t(c.instances))
        throw InputError("request:" + std::to_string(c.layout.block) + " gives some of the "
            + std::to_string(c.instances) + " instances no numbers; R must be at least "
            + std::to_string(c.instances));
    if (c.layout.kind == LayoutKind::single && c.instances != 1)
        throw InputError("layout 'single' runs one instance; use interleave or block:K for "
            + std::to_string(c.instances) + " instances");
    const GeneratorTraits& g = traits(c.generator);
    const std::string name = to_string(c.generator);
    // (mt19937 keeps a --param-id: its instance configurations count it like mtdc's.)
    if (g.family != GeneratorFamily::mt && (!c.params.empty() || c.param_id != 0))
        throw InputError("--params and --param-id apply to mtdc, not to " + name);
    if (g.family != GeneratorFamily::external && !c.stream_name.empty())
        throw InputError("--name names the generator behind an external stream (stdin32, "
                         "stdin64, file:PATH, file64:PATH), not "
            + name);
    if (g.family == GeneratorFamily::external) {
        if (c.instances != 1)
            throw InputError(name + " is a single external stream; --instances must be 1");
        if (!c.seed.empty())
            throw InputError(name + " takes its --seed as text, the seed its generator was given");
        if (reads_file(c.generator) && c.generator.path.empty())
            throw InputError(std::string("--generator ") + g.name + " needs a path after '"
                + external_word(c.generator.kind) + ":'");
        check_external_label(c.stream_name, "--name", "");
        check_external_label(c.stream_seed, "--seed", ",:");
        if (c.stream_seed == "-")
            throw InputError("--seed '-' stands for no seed in the store; give the seed the "
                             "generator was started with");
        // split_canonical_name takes the last ";seed=", ";skip=" and ";view=" of a file's name
        // as its options.
        for (const char* option : external_options)
            if (c.generator.path.find(option) != std::string::npos)
                throw InputError("the path '" + c.generator.path + "' holds '" + option
                    + "', which its canonical name cannot hold; rename the file or link it under "
                      "another name");
        return;
    }
    if (g.family != GeneratorFamily::ranmar && c.zero != ZeroPolicy::keep)
        throw InputError("--zero applies to the RANMAR generators only");
    if (g.family == GeneratorFamily::plugin) {
        const std::shared_ptr<const PluginLibrary> library = plugin_library(c);
        if (c.seed.empty())
            throw InputError(name
                + " needs --seed S or S1,S2,... (the seed words its library's "
                  "seed function takes)");
        if (c.seeding.kind == SeedingKind::split && !library->has_skip)
            throw InputError("--seeding split:S jumps in the stream, and the plugin '"
                + library->name + "' has no skip function");
        // The library's own check of the base seed (each instance's is checked as it is made).
        (void)PluginEngine(library, plugin_instance_seed(c, 0));
        return;
    }
    if (g.family == GeneratorFamily::r250) {
        if (c.seed.size() != 1) throw InputError(name + " takes one seed --seed S (1..4294967295)");
        if (c.seed[0] < 1 || c.seed[0] > 0xFFFFFFFFll)
            throw InputError(name + " seed " + std::to_string(c.seed[0])
                + " is out of range 1..4294967295 (its seeding takes 0 as 1)");
        // increment and stride:S reach the seed 0 (that is, 1) by wrapping around 2^32.
        const auto base = static_cast<std::uint32_t>(c.seed[0]);
        const bool stepped
            = c.seeding.kind == SeedingKind::increment || c.seeding.kind == SeedingKind::stride;
        const auto step = static_cast<std::uint32_t>(
            c.seeding.kind == SeedingKind::increment ? 1 : c.seeding.stride);
        if (stepped && r250_first_zero_seed(base, step) < static_cast<std::uint64_t>(c.instances))
            throw InputError(name + " instance " + std::to_string(r250_first_zero_seed(base, step))
                + " of --seeding " + to_string(c.seeding)
                + " would get the seed 0 (seed 1's stream); choose another --seed");
        return;
    }
    if (g.family == GeneratorFamily::mt) {
        if (c.seed.empty()) throw InputError(name + " needs --seed S (a 32-bit seed)");
        for (std::int64_t v : c.seed)
            if (v > 0xFFFFFFFFll)
                throw InputError(
                    name + " seed " + std::to_string(v) + " is out of range 0..4294967295");
        if (!g.parameter_sets) {
            if (!c.params.empty())
                throw InputError(name + " has fixed parameters and takes no --params");
            return;
        }
        if (c.seed.size() != 1) throw InputError(name + " takes one seed --seed S");
        // The canonical name keeps the file's name, and ';' separates its options.
        if (c.params.rfind("p=", 0) != 0
            && c.params.substr(c.params.find_last_of('/') + 1).find(';') != std::string::npos)
            throw InputError("the parameter file '" + c.params
                + "' has ';' in its name, which its canonical name cannot hold; rename the file "
                  "or link it under another name");
        if (c.param_id < 0) throw InputError("--param-id must be at least 0");
        const std::shared_ptr<const MtParamSet> set = mtdc_param_set(c);
        // split:S runs one parameter set in every instance.
        const std::size_t sets_used
            = c.seeding.kind == SeedingKind::split ? 1 : static_cast<std::size_t>(c.instances);
        if (static_cast<std::size_t>(c.param_id) + sets_used > set->sets.size())
            throw InputError("parameter set '" + c.params + "' has "
                + std::to_string(set->sets.size()) + " sets; --param-id "
                + std::to_string(c.param_id) + " with " + std::to_string(c.instances)
                + " instances needs "
                + std::to_string(std::int64_t{ c.param_id } + std::int64_t{ c.instances }));
        return;
    }
    if (c.seed.size() != 2)
        throw InputError(name
            + " takes --seed IJ,KL (0 <= IJ <= 31328, 0 <= KL <= 30081) or --seed IJKL "
              "(0..900000000, IJ = IJKL / 30082, KL = IJKL mod 30082)");
    if (c.seed[0] < 0 || c.seed[0] > ranmar_ij_max)
        throw InputError(
            name + " seed IJ = " + std::to_string(c.seed[0]) + " is out of range 0..31328");
    if (c.seed[1] < 0 || c.seed[1] > ranmar_kl_max)
        throw InputError(
            name + " seed KL = " + std::to_string(c.seed[1]) + " is out of range 0..30081");
}

std::string canonical_name(const Configuration& c)
{
    const std::string view
        = c.view == BitView::top32 ? "" : std::string(";view=") + to_string(c.view);
    if (is_external(c)) {
        std::string head = c.stream_name.empty()
            ? to_string(c.generator)
            : external_word(c.generator.kind) + "[" + c.stream_name + "]";
        if (!c.stream_seed.empty()) head += ";seed=" + c.stream_seed;
        if (c.skip != 0) head += ";skip=" + std::to_string(c.skip);
        return head + view;
    }
    const std::string generator = is_mtdc(c) ? params_label(c, *mtdc_param_set(c))
        : is_plugin(c)                       ? plugin_label(c, *plugin_library(c))
                                             : to_string(c.generator);
    std::string name = generator + "/" + std::to_string(c.instances) + "/" + to_string(c.layout)
        + "/" + to_string(c.seeding) + "/" + seed_string(c.seed);
    if (c.zero != ZeroPolicy::keep) name += std::string(";zero=") + to_string(c.zero);
    if (c.skip != 0) name += ";skip=" + std::to_string(c.skip);
    return name + view;
}

Configuration parse_canonical_name(
    const std::string& name, const std::string& params_file, const std::string& input_path)
{
    const auto refuse = [&](const std::string& why) {
        return InputError("'" + name + "' is not a canonical configuration name: " + why);
    };
    Configuration c;
    const CanonicalParts parts = split_canonical_name(name);
    for (const std::string& option : parts.options) {
        const auto eq = option.find('=');
        const std::string key = option.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
        if (key == "zero")
            c.zero = parse_zero_policy(value);
        else if (key == "skip")
            c.skip = parse_u64(value, "skip");
        else if (key == "view")
            c.view = parse_view(value);
        else if (key == "seed" && parts.external)
            c.stream_seed = value;
        else
            throw refuse("unknown option '" + option
                + "' (valid: zero=, skip=, view=" + (parts.external ? ", seed=)" : ")"));
    }
    if (parts.external) {
        const std::string& head = parts.head;
        const auto open = head.find('[');
        // KIND[NAME]: a named stream, its word one of the four (a file's path, which may hold
        // brackets too, follows "file:" or "file64:" instead).
        const std::string word = open == std::string::npos ? "" : head.substr(0, open);
        bool named = false;
        for (const GeneratorKind kind : { GeneratorKind::stdin32, GeneratorKind::stdin64,
                 GeneratorKind::file, GeneratorKind::file64 })
            named |= word == external_word(kind);
        if (named && head.back() == ']') {
            c.stream_name = head.substr(open + 1, head.size() - open - 2);
            if (word == external_word(GeneratorKind::file)
                || word == external_word(GeneratorKind::file64)) {
                if (input_path.empty())
                    throw refuse("a named file stream's name leaves out its path, which its "
                                 "run records");
                c.generator = parse_generator(word + ":" + input_path);
            } else {
                c.generator = parse_generator(word);
            }
        } else {
            c.generator = parse_generator(head);
        }
        if (!is_external(c)) throw refuse("expected generator/instances/layout/seeding/seed");
    } else {
        const std::vector<std::string>& fields = parts.fields;
        if (fields.size() != 5) throw refuse("expected generator/instances/layout/seeding/seed");
        std::string hash;
        if (fields[0].rfind("mtdc[", 0) == 0 && fields[0].back() == ']') {
            // mtdc[SOURCE#HASH8@ID]
            const std::string inner = fields[0].substr(5, fields[0].size() - 6);
            const auto sharp = inner.rfind('#');
            const auto at = inner.rfind('@');
            if (sharp == std::string::npos || at == std::string::npos || at < sharp)
                throw refuse("expected mtdc[SETS#HASH@ID]");
            c.generator = GeneratorKind::mtdc;
            c.params = inner.substr(0, sharp);
            if (!params_file.empty()) {
                // The name keeps a file's name without its directory (params_label).
                const std::string source = params_file.rfind("p=", 0) == 0
                    ? params_file
                    : params_file.substr(params_file.find_last_of('/') + 1);
                if (source != c.params)
                    throw refuse(
                        "its parameter sets are '" + c.params + "', not '" + params_file + "'");
                c.params = params_file;
            }
            hash = inner.substr(sharp + 1, at - sharp - 1);
            const std::uint64_t id = parse_u64(inner.substr(at + 1), "the parameter-set id");
            if (id > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
                throw refuse("parameter-set id too large");
            c.param_id = static_cast<int>(id);
        } else if (fields[0].rfind("lib[", 0) == 0 && fields[0].back() == ']') {
            // lib[NAME#HASH8] or lib[NAME#HASH8:SYMBOL]: the library is where the run's
            // generator column says.
            if (input_path.empty())
                throw refuse("a plugin's name leaves out its library's path, which its run "
                             "records");
            c.generator = parse_generator("lib:" + input_path);
            if (c.generator.kind != GeneratorKind::plugin) throw refuse("not a plugin's path");
            const std::string inner = fields[0].substr(4, fields[0].size() - 5);
            const auto sharp = inner.rfind('#');
            if (sharp == std::string::npos) throw refuse("expected lib[NAME#HASH]");
            hash = inner.substr(sharp + 1, 8);
        } else {
            c.generator = parse_generator(fields[0]);
        }
        const std::uint64_t instances = parse_u64(fields[1], "the number of instances");
        if (instances > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
            throw refuse("too many instances");
        c.instances = static_cast<int>(instances);
        c.layout = parse_layout(fields[2]);
        c.seeding = parse_seeding(fields[3]);
        if (fields[4] != "-") c.seed = parse_seed(fields[4]);
        load_param_sets(c);
        if (is_plugin(c) && c.plugin->sha256.substr(0, 8) != hash)
            throw refuse("the library '" + c.generator.path + "' here has SHA-256 "
                + c.plugin->sha256.substr(0, 8) + "..., the name says " + hash);
        if (!hash.empty() && is_mtdc(c) && params_sha256(c).substr(0, 8) != hash)
            throw refuse("the parameter sets '" + c.params + "' here have SHA-256 "
                + params_sha256(c).substr(0, 8) + "..., the name says " + hash);
    }
    validate(c);
    const std::string again = canonical_name(c);
    if (again != name) throw refuse("its canonical form is '" + again + "'");
    return c;
}

std::string seed_family(const std::string& canonical)
{
    CanonicalParts parts = split_canonical_name(canonical);
    if (parts.external) {
        std::string family = parts.head;
        for (const std::string& option : parts.options)
            family += ";" + (option.rfind("seed=", 0) == 0 ? std::string("seed=*") : option);
        return family;
    }
    if (parts.fields.size() != 5) return canonical;
    parts.fields[4] = "*";
    std::string family;
    for (const std::string& field : parts.fields)
        family += (family.empty() ? "" : "/") + field;
    for (const std::string& option : parts.options)
        family += ";" + option;
    return family;
}

int resolution_bits(const Configuration& c)
{
    return view_resolution_bits(c.view, output_bits(c));
}

int output_bits(const Configuration& c)
{
    return is_plugin(c) ? plugin_library(c)->bits : traits(c.generator).bits;
}

bool jumps_ahead(const Configuration& c)
{
    if (is_external(c)) return false;
    return !is_plugin(c) || plugin_library(c)->has_skip;
}

std::shared_ptr<const PluginLibrary> plugin_library(const Configuration& c)
{
    if (c.plugin && c.plugin->path == c.generator.path
        && c.plugin->symbol
            == (c.generator.symbol.empty() ? default_plugin_symbol() : c.generator.symbol))
        return c.plugin;
    return load_plugin_library(c.generator.path, c.generator.symbol);
}

std::vector<std::uint64_t> plugin_instance_seed(const Configuration& c, int instance)
{
    std::vector<std::uint64_t> words(c.seed.begin(), c.seed.end());
    const std::uint64_t base = words.at(0);
    const auto n = static_cast<std::uint64_t>(instance);
    switch (c.seeding.kind) {
    case SeedingKind::same:
    case SeedingKind::split: // the base seed, jumped by i * S numbers (make_plugin_reference)
        break;
    case SeedingKind::increment:
        words[0] = (base + n) % plugin_seed_modulus;
        break;
    case SeedingKind::stride:
        words[0] = (base + c.seeding.stride * n) % plugin_seed_modulus;
        break;
    case SeedingKind::hash:
        words[0] = splitmix64((base << 32) ^ n) % plugin_seed_modulus;
        break;
    }
    return words;
}

Configuration instance_configuration(const Configuration& c, int i)
{
    if (i < 0 || i >= c.instances)
        throw InputError("instance " + std::to_string(i) + " does not exist (0.."
            + std::to_string(c.instances - 1) + ")");
    Configuration one = c;
    one.instances = 1;
    one.layout = { LayoutKind::single, 0 };
    one.skip = 0;
    if (is_ranmar(c)) {
        int ij = 0, kl = 0;
        ranmar_instance_seed(c, i, ij, kl);
        one.seed = { ij, kl };
    } else if (is_mt(c)) {
        one.seed[0] = mt_instance_seed(c, i);
        if (c.seeding.kind != SeedingKind::split) one.param_id = c.param_id + i;
    } else if (is_r250(c)) {
        one.seed[0] = mt_instance_seed(c, i);
    } else if (is_plugin(c)) {
        const std::vector<std::uint64_t> words = plugin_instance_seed(c, i);
        one.seed.assign(words.begin(), words.end());
    }
    // split:S: the base stream from number i * S on.
    if (c.seeding.kind == SeedingKind::split)
        one.skip = c.seeding.stride * static_cast<std::uint64_t>(i);
    one.seeding = { SeedingKind::same, 0 };
    return one;
}

std::string params_sha256(const Configuration& c)
{
    return is_mtdc(c) ? mtdc_param_set(c)->sha256 : "";
}

namespace {

// Whether c's words are a view stream over its outputs: every view but top32, and every view of
// 64-bit outputs (whose top32 is a view too: their high halves).
bool reads_through_view(const Configuration& c)
{
    return c.view != BitView::top32 || output_bits(c) > 48;
}

} // namespace

std::unique_ptr<Stream> make_viewed_stream(const Configuration& c,
    const std::function<std::unique_ptr<Stream>(const Configuration&)>& make)
{
    if (!reads_through_view(c)) return make(c);
    Configuration outputs = c;
    outputs.view = BitView::top32;
    return make_view_stream(
        c.view, output_bits(c), c.skip,
        [&](std::uint64_t skip) {
            Configuration at = outputs;
            at.skip = skip;
            return make(at);
        },
        canonical_name(c));
}

namespace {

// The stream of c's outputs (c with the top32 view), skipped by c.skip outputs.
std::unique_ptr<Stream> make_outputs(const Configuration& c)
{
    std::unique_ptr<Stream> stream = traits(c.generator).make(c);
    stream->discard(c.skip);
    return stream;
}

} // namespace

std::unique_ptr<Stream> make_stream(const Configuration& c)
{
    if (reads_through_view(c)) return make_viewed_stream(c, make_outputs);
    return make_outputs(c);
}

RanmarState ranmar_instance_state(const Configuration& c, int instance)
{
    int ij = 0, kl = 0;
    ranmar_instance_seed(c, instance, ij, kl);
    RanmarState state{};
    ranmar_seed(state, traits(c.generator).variant, ij, kl, c.zero);
    if (c.seeding.kind == SeedingKind::split)
        ranmar_jump(state, c.seeding.stride * static_cast<std::uint64_t>(instance));
    return state;
}

R250State r250_instance_state(const Configuration& c, int instance)
{
    R250State state{};
    r250_seed(state, mt_instance_seed(c, instance), traits(c.generator).taps);
    if (c.seeding.kind == SeedingKind::split)
        r250_jump(state, c.seeding.stride * static_cast<std::uint64_t>(instance));
    return state;
}

void mt_instance_states(
    const Configuration& c, std::vector<MtParams>& params, std::vector<MtState>& states)
{
    const std::size_t n = static_cast<std::size_t>(c.instances);
    params.assign(n, MtParams{});
    states.assign(n, MtState{});
    const std::shared_ptr<const MtParamSet> set = is_mtdc(c) ? mtdc_param_set(c) : nullptr;
    // split:S: every instance runs the base instance's parameter set from its seed, jumped.
    const bool split = c.seeding.kind == SeedingKind::split;
    Gf2Poly phi;
    for (int i = 0; i < c.instances; ++i) {
        MtParams& prm = params[static_cast<std::size_t>(i)];
        MtState& st = states[static_cast<std::size_t>(i)];
        if (set) {
            prm = set->sets[static_cast<std::size_t>(c.param_id + (split ? 0 : i))];
            mt_seed(st, prm, mt_instance_seed(c, i));
        } else {
            prm = mt19937_params();
            if (c.seed.size() == 1) {
                mt_seed(st, prm, mt_instance_seed(c, i));
            } else {
                std::vector<std::uint32_t> key(c.seed.begin(), c.seed.end());
                key[0] = mt_instance_seed(c, i);
                mt19937_init_by_array(st, prm, key.data(), static_cast<int>(key.size()));
            }
        }
        if (split && i > 0) {
            if (phi.is_zero()) phi = mt_characteristic_polynomial(prm);
            mt_jump(st, prm, phi, c.seeding.stride * static_cast<std::uint64_t>(i));
        }
    }
}

} // namespace rngvet
