// The reference (CPU) streams' shared part: N engines of one family combined into one stream by
// a layout (layout_index.hpp, the arithmetic the kernels use too). Each family's file
// (generators/family_<name>.cpp) seeds its engines and builds its stream from this template.
#pragma once

#include "configuration.hpp"
#include "layout_index.hpp"
#include "stream.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rngvet {

// An Engine has next() (its next output) and jump(n) (n outputs ahead, as n calls of next), and
// may have fill(out, n) (n calls of next at once), which a stream of one instance uses.
// Outputs are consumed strictly in stream order, so each instance simply hands out its own next
// number when its slot comes up.
template <class Engine, class = void> struct HasBlockFill : std::false_type {
};
template <class Engine>
struct HasBlockFill<Engine,
    std::void_t<decltype(std::declval<Engine&>().fill(
        static_cast<std::uint64_t*>(nullptr), std::size_t{}))>> : std::true_type {
};

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
        if constexpr (HasBlockFill<Engine>::value) {
            if (count == 1) {
                engines_[0].fill(out, n);
                position_ += n;
                return;
            }
        }
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

} // namespace rngvet
