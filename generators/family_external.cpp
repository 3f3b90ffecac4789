// The external streams (stdin32, stdin64, file:PATH, file64:PATH): their row of the family
// table and their answers, the checks of --name, --seed and the path, their canonical names
// (stdin32[NAME];seed=S), and the reader of their words, the reference stream.
#include "configuration.hpp"
#include "error.hpp"
#include "family_common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {

// The family's words (generator_id.hpp): the family and its generators, named nowhere else.
namespace families {
inline constexpr GeneratorFamily external{ "external" };
}
namespace kinds {
inline constexpr GeneratorKind stdin32{ "stdin32" };
inline constexpr GeneratorKind file{ "file" };
inline constexpr GeneratorKind stdin64{ "stdin64" };
inline constexpr GeneratorKind file64{ "file64" };
} // namespace kinds

namespace {

// Raw little-endian words of 4 or 8 bytes from a pipe or a file. Never rewinds: running out is
// an error that says how many words were read, and how many bytes of a word the stream ended
// in the middle of.
class ExternalStream final : public Stream {
public:
    ExternalStream(std::FILE* file, bool owned, int bytes, std::string name)
        : file_(file)
        , owned_(owned)
        , bytes_(static_cast<std::size_t>(bytes))
        , name_(std::move(name))
    {
    }
    ~ExternalStream() override
    {
        if (owned_) std::fclose(file_);
    }
    int bits() const override { return static_cast<int>(8 * bytes_); }
    std::string name() const override { return name_; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        if (fill_available(out, n) == n) return;
        const std::string width = std::to_string(8 * bytes_) + "-bit";
        if (partial_ != 0)
            throw InputError(name_ + ": the stream ended in the middle of a " + width
                + " word (after " + std::to_string(words_) + " words and "
                + std::to_string(partial_) + " more bytes); more words were needed");
        throw InputError(name_ + ": the stream ended after " + std::to_string(words_) + " words of "
            + std::to_string(8 * bytes_) + " bits; more were needed");
    }
    std::size_t fill_available(std::uint64_t* out, std::size_t n) override
    {
        if (partial_ != 0) return 0; // the end was reached in the middle of a word
        buffer_.resize(n * bytes_);
        // fread returns short only at the end (or on an error), so a short count is the end.
        const std::size_t read = std::fread(buffer_.data(), 1, n * bytes_, file_);
        const std::size_t got = read / bytes_;
        partial_ = read % bytes_;
        words_ += got;
        for (std::size_t t = 0; t < got; ++t) {
            const unsigned char* b = &buffer_[bytes_ * t];
            std::uint64_t x = 0;
            for (std::size_t k = bytes_; k-- > 0;)
                x = x << 8 | b[k];
            out[t] = x;
        }
        return got;
    }

private:
    std::FILE* file_;
    bool owned_;
    std::size_t bytes_;
    std::string name_;
    std::vector<unsigned char> buffer_;
    std::uint64_t words_ = 0;
    std::size_t partial_ = 0; // bytes of an unfinished last word
};

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

void check_external(const Configuration& c)
{
    const GeneratorTraits& g = traits(c.generator);
    const std::string name = to_string(c.generator);
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
}

std::unique_ptr<Stream> make_external_reference(const Configuration& c)
{
    const int bytes = external_word_bytes(c.generator);
    if (!reads_file(c.generator))
        return std::make_unique<ExternalStream>(stdin, false, bytes, to_string(c.generator));
    const std::string& path = c.generator.path;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    return std::make_unique<ExternalStream>(f, true, bytes, to_string(c.generator));
}

// Its generator ("stdin32", "file64:PATH"), or with --name NAME its kind and name
// ("stdin32[NAME]", "file64[NAME]"), then ";seed=S", ";skip=N" and ";view=V" where given.
std::string external_canonical_name(const Configuration& c)
{
    std::string head = c.stream_name.empty()
        ? to_string(c.generator)
        : external_word(c.generator.kind) + "[" + c.stream_name + "]";
    if (!c.stream_seed.empty()) head += ";seed=" + c.stream_seed;
    if (c.skip != 0) head += ";skip=" + std::to_string(c.skip);
    return head + (c.view == BitView::top32 ? "" : std::string(";view=") + to_string(c.view));
}

std::string describe_external(const GeneratorTraits& g)
{
    return std::to_string(g.bits) + "-bit words read, cpu only";
}

std::string external_no_jumps(const Configuration& c)
{
    return "the external stream '" + to_string(c.generator) + "' cannot jump ahead";
}

} // namespace

const FamilyTraits& external_family()
{
    static const FamilyTraits row = { families::external, "external", false, false, true, 1024,
        { 777 }, nullptr, nullptr, nullptr, describe_external, false, false, check_external,
        make_external_reference, nullptr, external_canonical_name, nullptr, nullptr, nullptr,
        jumps_ahead_fixed<false>, nullptr, nullptr, nullptr, 40,
        {
            { kinds::stdin32, "stdin32", families::external, 32, "", false },
            { kinds::file, "file:PATH", families::external, 32, "", false, "file:", true },
            { kinds::stdin64, "stdin64", families::external, 64, "", false },
            { kinds::file64, "file64:PATH", families::external, 64, "", false, "file64:", true },
        },
        nullptr, external_no_jumps, nullptr };
    return row;
}

} // namespace rngvet
