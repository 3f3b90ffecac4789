#include "view.hpp"

#include "error.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace rngvet {

const Words& view_words()
{
    static const Words words = {
        { "top32", "the top 32 bits, of a 64-bit word its high half; the default" },
        { "low32", "the low 32 bits, of a 64-bit word its low half" },
        { "reversed", "top32 bit-reversed" },
        { "packed", "every output bit once, 32 at a time; a 64-bit word's high then low half" },
        { "sdk-float", "the NVIDIA SDK's float of the word" },
        { "box-muller",
            "the SDK's single-precision normals, back through the normal distribution function" },
    };
    return words;
}

BitView parse_view(const std::string& text)
{
    for (const BitView view : { BitView::top32, BitView::low32, BitView::reversed, BitView::packed,
             BitView::sdk_float, BitView::box_muller })
        if (text == to_string(view)) {
            if (!find_word(view_words(), text))
                throw std::logic_error("view " + text + " is missing from view_words");
            return view;
        }
    throw InputError("unknown view '" + text + "' (valid: " + word_list(view_words()) + ")");
}

const char* to_string(BitView view)
{
    switch (view) {
    case BitView::top32:
        return "top32";
    case BitView::low32:
        return "low32";
    case BitView::reversed:
        return "reversed";
    case BitView::packed:
        return "packed";
    case BitView::sdk_float:
        return "sdk-float";
    case BitView::box_muller:
        return "box-muller";
    }
    return "top32";
}

bool is_transform(BitView view)
{
    return view == BitView::sdk_float || view == BitView::box_muller;
}

int view_stream_bits(BitView view, int bits)
{
    if (view == BitView::top32) return bits > 48 ? 32 : bits; // 64: the high halves
    return is_transform(view) ? 53 : 32;
}

int view_resolution_bits(BitView view, int bits)
{
    return is_transform(view) ? 24 : view_stream_bits(view, bits);
}

std::uint64_t sdk_float_grid(std::uint32_t w)
{
    const float v = (static_cast<float>(w) + 1.0f) / 4294967296.0f;
    return static_cast<std::uint64_t>(std::ldexp(static_cast<double>(v), 53));
}

void box_muller_grid(std::uint32_t w1, std::uint32_t w2, std::uint64_t* out)
{
    const float u1 = (static_cast<float>(w1) + 1.0f) / 4294967296.0f;
    const float u2 = (static_cast<float>(w2) + 1.0f) / 4294967296.0f;
    const float two_pi = 6.28318530717958647692f;
    const float r = std::sqrt(-2.0f * std::log(u1));
    const float phi = two_pi * u2;
    const float z[2] = { r * std::cos(phi), r * std::sin(phi) };
    for (int k = 0; k < 2; ++k) {
        const double u = 0.5 * std::erfc(-static_cast<double>(z[k]) / std::sqrt(2.0));
        out[k] = static_cast<std::uint64_t>(std::llround(std::ldexp(u, 53)));
    }
}

PackedGroup view_group(BitView view, int bits)
{
    if (view == BitView::packed) return packed_group(bits);
    if (view == BitView::box_muller) return { 2, 2 };
    return { 1, 1 };
}

PackedGroup packed_group(int bits)
{
    if (bits == 24) return { 4, 3 };
    if (bits == 48) return { 2, 3 };
    if (bits == 64) return { 1, 2 };
    return { 1, 1 };
}

std::uint32_t view_word(std::uint64_t x, int bits, BitView view)
{
    const std::uint32_t top = top32(x, bits);
    switch (view) {
    case BitView::low32:
        return static_cast<std::uint32_t>(x);
    case BitView::reversed: {
        std::uint32_t r = 0;
        for (int i = 0; i < 32; ++i)
            r |= ((top >> i) & 1u) << (31 - i);
        return r;
    }
    case BitView::top32:
    case BitView::packed:
    case BitView::sdk_float:
    case BitView::box_muller:
        break;
    }
    return top;
}

void pack_group(const std::uint64_t* x, int bits, std::uint32_t* out)
{
    if (bits == 24) {
        out[0] = static_cast<std::uint32_t>(x[0] << 8 | x[1] >> 16);
        out[1] = static_cast<std::uint32_t>((x[1] & 0xffff) << 16 | x[2] >> 8);
        out[2] = static_cast<std::uint32_t>((x[2] & 0xff) << 24 | x[3]);
    } else if (bits == 48) {
        out[0] = static_cast<std::uint32_t>(x[0] >> 16);
        out[1] = static_cast<std::uint32_t>((x[0] & 0xffff) << 16 | x[1] >> 32);
        out[2] = static_cast<std::uint32_t>(x[1] & 0xffffffff);
    } else if (bits == 64) {
        out[0] = static_cast<std::uint32_t>(x[0] >> 32);
        out[1] = static_cast<std::uint32_t>(x[0] & 0xffffffff);
    } else {
        out[0] = top32(x[0], bits);
    }
}

namespace {

class ViewStream final : public Stream {
public:
    ViewStream(std::unique_ptr<Stream> outputs, BitView view, int phase, std::string name)
        : outputs_(std::move(outputs))
        , view_(view)
        , bits_(outputs_->bits())
        , group_(view_group(view, bits_))
        , name_(std::move(name))
    {
        // A word offset inside a group: make the group and drop its first words.
        if (phase > 0) {
            refill();
            next_ = static_cast<std::size_t>(phase);
        }
    }
    int bits() const override { return view_stream_bits(view_, bits_); }
    std::string name() const override { return name_; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        if (fill_available(out, n) == n) return;
        // A finite stream of outputs (an external stream) says where it ended.
        std::uint64_t more = 0;
        outputs_->fill(&more, 1);
        throw InputError(name_ + ": the stream ended; more words were needed");
    }
    std::size_t fill_available(std::uint64_t* out, std::size_t n) override
    {
        std::size_t done = 0;
        while (done < n) {
            if (next_ == words_.size() && !refill(n - done)) break;
            while (done < n && next_ < words_.size())
                out[done++] = words_[next_++];
        }
        return done;
    }
    ReadAhead read_ahead() const override { return outputs_->read_ahead(); }
    // The words held here, then whole groups by the outputs' own discard (a jump where they
    // have one), then the first words of one more group.
    void discard(std::uint64_t n) override
    {
        const std::uint64_t held = std::min<std::uint64_t>(n, words_.size() - next_);
        next_ += static_cast<std::size_t>(held);
        n -= held;
        if (n == 0) return;
        const std::uint64_t per = static_cast<std::uint64_t>(group_.words);
        outputs_->discard(n / per * static_cast<std::uint64_t>(group_.outputs));
        const std::size_t rest = static_cast<std::size_t>(n % per);
        if (rest == 0) return;
        if (!refill() || words_.size() < rest)
            throw InputError(name_ + ": the stream ended; more words were needed");
        next_ = rest;
    }
    // The low32 view's words on the device: one word per output, its low 32 bits, made there
    // (DeviceFormat::low32) while no word is held here. The other views, and other formats,
    // stay on the host.
    bool fill_device(void* out, std::size_t n, DeviceFormat format) override
    {
        if (view_ != BitView::low32 || format != DeviceFormat::u64 || next_ != words_.size())
            return false;
        return outputs_->fill_device(out, n, DeviceFormat::low32);
    }

private:
    // Converts the next outputs (enough groups for about `wanted` words) into words_.
    bool refill(std::size_t wanted = 1)
    {
        const std::size_t groups = std::min<std::size_t>(
            std::max<std::size_t>(1, (wanted + group_.words - 1) / group_.words), 1 << 14);
        x_.resize(groups * static_cast<std::size_t>(group_.outputs));
        const std::size_t got = outputs_->fill_available(x_.data(), x_.size());
        const std::size_t whole = got / static_cast<std::size_t>(group_.outputs);
        words_.resize(whole * static_cast<std::size_t>(group_.words));
        next_ = 0;
        std::uint32_t w[3];
        for (std::size_t g = 0; g < whole; ++g) {
            const std::uint64_t* x = &x_[g * static_cast<std::size_t>(group_.outputs)];
            std::uint64_t* out = &words_[g * static_cast<std::size_t>(group_.words)];
            if (view_ == BitView::packed) {
                pack_group(x, bits_, w);
                for (int k = 0; k < group_.words; ++k)
                    out[k] = w[k];
            } else if (view_ == BitView::sdk_float) {
                out[0] = sdk_float_grid(top32(x[0], bits_));
            } else if (view_ == BitView::box_muller) {
                box_muller_grid(top32(x[0], bits_), top32(x[1], bits_), out);
            } else {
                out[0] = view_word(x[0], bits_, view_);
            }
        }
        return whole > 0;
    }

    std::unique_ptr<Stream> outputs_;
    BitView view_;
    int bits_;
    PackedGroup group_;
    std::string name_;
    std::vector<std::uint64_t> x_;
    std::vector<std::uint64_t> words_;
    std::size_t next_ = 0;
};

} // namespace

std::unique_ptr<Stream> make_view_stream(BitView view, int bits, std::uint64_t offset,
    const std::function<std::unique_ptr<Stream>(std::uint64_t)>& make, const std::string& name)
{
    const PackedGroup group = view_group(view, bits);
    const std::uint64_t groups = offset / static_cast<std::uint64_t>(group.words);
    const int phase = static_cast<int>(offset % static_cast<std::uint64_t>(group.words));
    return std::make_unique<ViewStream>(
        make(groups * static_cast<std::uint64_t>(group.outputs)), view, phase, name);
}

} // namespace rngvet
