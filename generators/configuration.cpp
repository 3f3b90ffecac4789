#include "configuration.hpp"

#include "error.hpp"
#include "family_common.hpp"
#include "layout_index.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace rngvet {

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

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::uint32_t word_instance_seed(const Configuration& c, int i)
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

std::string external_word(GeneratorKind kind)
{
    const std::string row = traits(kind).name;
    return row.substr(0, row.find(':'));
}

const char* const external_options[3] = { ";seed=", ";skip=", ";view=" };

namespace {

// The generators whose family reads words from outside (stdin32, file:PATH, stdin64,
// file64:PATH), in the registry's order.
std::vector<GeneratorKind> external_kinds()
{
    std::vector<GeneratorKind> kinds;
    for (const GeneratorTraits& t : generator_registry())
        if (family_traits(t.family).reads_words) kinds.push_back(t.kind);
    return kinds;
}

// A canonical name (or its head) of an external stream, which has no other fields: a stream's
// word alone, followed by ';' options, ':PATH' (the files) or '[NAME]'.
bool names_external(const std::string& text)
{
    const std::string name = lower_case(text);
    for (const GeneratorKind kind : external_kinds()) {
        const std::string word = external_word(kind);
        if (name.rfind(word, 0) != 0) continue;
        if (name.size() == word.size()) return true;
        const char next = name[word.size()];
        if (next == ';' || next == '[' || (next == ':' && reads_file(kind))) return true;
    }
    return false;
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
    if (!family_traits(c.generator).reads_words) return seed_string(c.seed);
    return c.stream_seed.empty() ? "-" : c.stream_seed;
}

void load_param_sets(Configuration& c)
{
    const FamilyTraits& f = family_traits(c.generator);
    if (f.load) f.load(c);
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
    const FamilyTraits& f = family_traits(c.generator);
    const std::string name = to_string(c.generator);
    if (!f.takes_params && (!c.params.empty() || c.param_id != 0))
        throw InputError("--params and --param-id apply to mtdc, not to " + name);
    if (!f.reads_words && !c.stream_name.empty())
        throw InputError("--name names the generator behind an external stream (stdin32, "
                         "stdin64, file:PATH, file64:PATH), not "
            + name);
    if (!f.reads_words && !f.takes_zero && c.zero != ZeroPolicy::keep)
        throw InputError("--zero applies to the RANMAR generators only");
    f.check(c);
}

std::string canonical_name(const Configuration& c)
{
    const FamilyTraits& f = family_traits(c.generator);
    if (f.canonical_name) return f.canonical_name(c);
    const std::string generator = f.canonical_head ? f.canonical_head(c) : to_string(c.generator);
    std::string name = generator + "/" + std::to_string(c.instances) + "/" + to_string(c.layout)
        + "/" + to_string(c.seeding) + "/" + seed_string(c.seed);
    if (c.zero != ZeroPolicy::keep) name += std::string(";zero=") + to_string(c.zero);
    if (c.skip != 0) name += ";skip=" + std::to_string(c.skip);
    if (c.view != BitView::top32) name += std::string(";view=") + to_string(c.view);
    return name;
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
        bool file = false;
        for (const GeneratorKind kind : external_kinds())
            if (word == external_word(kind)) {
                named = true;
                file = reads_file(kind);
            }
        if (named && head.back() == ']') {
            c.stream_name = head.substr(open + 1, head.size() - open - 2);
            if (file) {
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
        if (!family_traits(c.generator).reads_words)
            throw refuse("expected generator/instances/layout/seeding/seed");
    } else {
        const std::vector<std::string>& fields = parts.fields;
        if (fields.size() != 5) throw refuse("expected generator/instances/layout/seeding/seed");
        // A family's own head ("mtdc[SETS#HASH@ID]", "lib[NAME#HASH]"), else a generator's name.
        std::string hash;
        const FamilyTraits* head_family = nullptr;
        for (const FamilyTraits& f : family_registry())
            if (f.head_prefix && fields[0].rfind(f.head_prefix, 0) == 0 && fields[0].back() == ']')
                head_family = &f;
        if (head_family) {
            const std::string why
                = head_family->parse_head(fields[0], params_file, input_path, c, hash);
            if (!why.empty()) throw refuse(why);
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
        const FamilyTraits& f = family_traits(c.generator);
        const std::string why = f.head_mismatch ? f.head_mismatch(c, hash) : "";
        if (!why.empty()) throw refuse(why);
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
    const FamilyTraits& f = family_traits(c.generator);
    return f.output_bits ? f.output_bits(c) : traits(c.generator).bits;
}

bool jumps_ahead(const Configuration& c)
{
    return family_traits(c.generator).jumps_ahead(c);
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
    const FamilyTraits& f = family_traits(c.generator);
    if (f.instance_seed) f.instance_seed(c, i, one);
    // split:S: the base stream from number i * S on.
    if (c.seeding.kind == SeedingKind::split)
        one.skip = c.seeding.stride * static_cast<std::uint64_t>(i);
    one.seeding = { SeedingKind::same, 0 };
    return one;
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
    std::unique_ptr<Stream> stream = family_traits(c.generator).make_reference(c);
    stream->discard(c.skip);
    return stream;
}

} // namespace

std::unique_ptr<Stream> make_stream(const Configuration& c)
{
    if (reads_through_view(c)) return make_viewed_stream(c, make_outputs);
    return make_outputs(c);
}

} // namespace rngvet
