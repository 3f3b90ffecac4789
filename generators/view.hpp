// Bit views: which 32-bit words of a generator's outputs TestU01 reads.
//
// An output is the b-bit integer x (b = 24, 32 or 48). TestU01's bit-level tests read GetBits,
// which by default holds the top 32 bits of x, so the low 16 bits of a 48-bit generator are
// never tested and a 24-bit generator shows 8 constant bits. A view chooses other words:
//
//   top32     the default: GetBits = the top 32 bits (x << 8 for b = 24, x >> 16 for b = 48),
//             GetU01 = x * 2^-b. No view stream is made; streams and p-values are as before.
//   low32     the 32 least significant bits of x (for b = 24 x itself: 8 constant high bits).
//   reversed  the top-32 word with its bit order reversed (bit 31 <-> bit 0).
//   packed    the outputs' bits concatenated, most significant first, cut into 32-bit words:
//             every bit the generator makes is read once and none is constant. b = 24: four
//             outputs make three words; b = 48: two outputs make three words; b = 32: top32.
//
// A view other than top32 is a stream of 32-bit words (resolution 32): GetBits = the word,
// GetU01 = word * 2^-32. Offsets (--skip, the segments of sharded tests) count view words; a
// word offset maps to an exact output offset, so views jump exactly as their generators do.
#pragma once

#include "stream.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace rngvet {

enum class BitView { top32, low32, reversed, packed };

// "top32", "low32", "reversed", "packed"; anything else is an InputError naming the valid ones.
BitView parse_view(const std::string& text);
const char* to_string(BitView view);

// Packed views come in groups: `outputs` outputs of b bits make `words` 32-bit words.
struct PackedGroup {
    int outputs;
    int words;
};
PackedGroup packed_group(int bits);

// The view's word for one output x of b bits (low32, reversed, or top32).
std::uint32_t view_word(std::uint64_t x, int bits, BitView view);

// The packed words of one group: out[0..words) from x[0..outputs).
void pack_group(const std::uint64_t* x, int bits, std::uint32_t* out);

// The view of a stream of outputs of `bits` bits, starting at view word `offset`. `make(skip)`
// returns the generator's stream skipped by `skip` outputs (exact jump-ahead where it has one);
// `name` is the canonical name of the configuration with its view.
std::unique_ptr<Stream> make_view_stream(BitView view, int bits, std::uint64_t offset,
    const std::function<std::unique_ptr<Stream>(std::uint64_t)>& make, const std::string& name);

} // namespace rngvet
