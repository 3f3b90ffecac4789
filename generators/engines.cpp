// The reference (CPU) streams of each generator family: the engines, their combination into one
// stream by a layout, and the reader of external words. The per-instance seeding and states they
// start from are configuration.cpp's.
#include "engines.hpp"

#include "configuration.hpp"
#include "error.hpp"
#include "jump.hpp"
#include "layout_index.hpp"
#include "mt.hpp"
#include "mt_charpoly.hpp"
#include "plugin.hpp"
#include "r250.hpp"
#include "ranmar.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {
namespace {

struct RanmarEngine {
    RanmarState state;
    std::uint64_t next() { return ranmar_next(state); }
    void jump(std::uint64_t n) { ranmar_jump(state, n); }
};

struct MtEngine {
    MtParams params;
    MtState state;
    std::uint64_t next() { return mt_next(state, params); }
    void jump(std::uint64_t n)
    {
        if (n == 0) return;
        if (phi.is_zero()) phi = mt_characteristic_polynomial(params);
        mt_jump(state, params, phi, n);
    }
    Gf2Poly phi; // computed on the first jump
};

struct R250Engine {
    R250State state;
    std::uint64_t next() { return r250_next(state); }
    void jump(std::uint64_t n) { r250_jump(state, n); }
};

// N engines combined into one stream by a layout (layout_index.hpp, the arithmetic the kernels
// use too). Outputs are consumed strictly in stream order, so each instance simply hands out
// its own next number when its slot comes up.
template <class Engine> class CombinedStream final : public Stream {
public:
    CombinedStream(std::vector<Engine> engines, Layout layout, int bits, std::string name)
        : engines_(std::move(engines))
        , kind_(layout_code(layout))
        , block_(layout.block)
        , bits_(bits)
        , name_(std::move(name))
    {
    }
    int bits() const override { return bits_; }
    std::string name() const override { return name_; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        const std::uint64_t count = engines_.size();
        for (std::size_t t = 0; t < n; ++t, ++position_)
            out[t] = engines_[rv_layout_instance(count, kind_, block_, position_)].next();
    }
    // Each instance jumps over exactly its own numbers among the next n of the stream.
    void discard(std::uint64_t n) override
    {
        const std::uint64_t count = engines_.size();
        for (std::size_t i = 0; i < engines_.size(); ++i)
            engines_[i].jump(rv_layout_count_before(count, kind_, block_, i, position_ + n)
                - rv_layout_count_before(count, kind_, block_, i, position_));
        position_ += n;
    }

private:
    std::vector<Engine> engines_;
    std::uint64_t kind_; // RNGVET_LAYOUT_*
    std::uint64_t block_; // K of block:K, R of request:R
    int bits_;
    std::string name_;
    std::uint64_t position_ = 0;
};

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

} // namespace

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

std::unique_ptr<Stream> make_plugin_reference(const Configuration& c)
{
    const std::shared_ptr<const PluginLibrary> library = plugin_library(c);
    std::vector<PluginEngine> engines;
    engines.reserve(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i) {
        engines.emplace_back(library, plugin_instance_seed(c, i));
        if (c.seeding.kind == SeedingKind::split)
            engines.back().jump(c.seeding.stride * static_cast<std::uint64_t>(i));
    }
    return std::make_unique<CombinedStream<PluginEngine>>(
        std::move(engines), c.layout, library->bits, canonical_name(c));
}

std::unique_ptr<Stream> make_mt_reference(const Configuration& c)
{
    std::vector<MtParams> params;
    std::vector<MtState> states;
    mt_instance_states(c, params, states);
    std::vector<MtEngine> engines(static_cast<std::size_t>(c.instances));
    for (std::size_t i = 0; i < engines.size(); ++i) {
        engines[i].params = params[i];
        engines[i].state = states[i];
    }
    return std::make_unique<CombinedStream<MtEngine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

std::unique_ptr<Stream> make_r250_reference(const Configuration& c)
{
    std::vector<R250Engine> engines(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i)
        engines[static_cast<std::size_t>(i)].state = r250_instance_state(c, i);
    return std::make_unique<CombinedStream<R250Engine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

std::unique_ptr<Stream> make_ranmar_reference(const Configuration& c)
{
    std::vector<RanmarEngine> engines(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i)
        engines[static_cast<std::size_t>(i)].state = ranmar_instance_state(c, i);
    return std::make_unique<CombinedStream<RanmarEngine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

} // namespace rngvet
