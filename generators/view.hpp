// Bit views: which 32-bit words of a generator's outputs TestU01 reads.
//
// An output is the b-bit integer x (b = 24, 32, 48, or 64 for the 64-bit external streams
// stdin64 and file64:PATH). TestU01's bit-level tests read GetBits,
// which by default holds the top 32 bits of x, so the low 16 bits of a 48-bit generator are
// never tested and a 24-bit generator shows 8 constant bits. A view chooses other words:
//
//   top32     the default: GetBits = the top 32 bits (x << 8 for b = 24, x >> 16 for b = 48),
//             GetU01 = x * 2^-b. No view stream is made; streams and p-values are as before.
//             For b = 64 it is a view stream of the high halves x >> 32 (resolution 32).
//   low32     the 32 least significant bits of x (for b = 24 x itself: 8 constant high bits;
//             for b = 64 the low halves).
//   reversed  the top-32 word with its bit order reversed (bit 31 <-> bit 0).
//   packed    the outputs' bits concatenated, most significant first, cut into 32-bit words:
//             every bit the generator makes is read once and none is constant. b = 24: four
//             outputs make three words; b = 48: two outputs make three words; b = 64: each
//             output makes two, its high half then its low half; b = 32: top32.
//
// A view other than top32 is a stream of 32-bit words (resolution 32): GetBits = the word,
// GetU01 = word * 2^-32. Offsets (--skip, the segments of sharded tests) count view words; a
// word offset maps to an exact output offset, so views jump exactly as their generators do.
//
// Two transform views turn the top-32 words w into what a simulation consumes and back into
// uniforms, so that a defect of the transform shows in the battery:
//
//   sdk-float   the NVIDIA SDK sample's float, v = ((float)w + 1.0f) / 4294967296.0f in single
//               precision: 24 bits of resolution, and exactly 1.0 for the largest words.
//               GetU01 = v, GetBits = v * 2^32 (saturating at 0xFFFFFFFF for 1.0).
//   box-muller  pairs of sdk-float values (u1, u2) become two normals with the SDK's formula in
//               single precision, r = sqrtf(-2 logf(u1)), z1 = r cosf(2 pi u2),
//               z2 = r sinf(2 pi u2); each goes back to a uniform through the normal
//               distribution function in double, GetU01 = Phi(z) = erfc(-z / sqrt 2) / 2.
//
// Their values are doubles on the grid 2^-53 (stream resolution 53; v is exact on it, Phi(z) is
// rounded to it), so the stream may hold 2^53, i.e. 1.0.
#pragma once

#include "stream.hpp"
#include "words.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace rngvet {

enum class BitView { top32, low32, reversed, packed, sdk_float, box_muller };

// Whether the view transforms the words into doubles (sdk-float, box-muller) rather than
// choosing bits.
bool is_transform(BitView view);

// The stream resolution of a view over outputs of `bits` bits: bits for top32, 53 for the
// transforms, 32 otherwise. And the resolution the report's rule uses: 24 for the transforms
// (the float's mantissa), else the stream resolution.
int view_stream_bits(BitView view, int bits);
int view_resolution_bits(BitView view, int bits);

// The SDK's float of a 32-bit word, and the two uniforms Phi(z1), Phi(z2) of a pair of words,
// as integers on the 2^-53 grid.
std::uint64_t sdk_float_grid(std::uint32_t w);
void box_muller_grid(std::uint32_t w1, std::uint32_t w2, std::uint64_t* out);

// A name of view_words(); anything else is an InputError naming the valid ones.
BitView parse_view(const std::string& text);
// The values --view accepts, with what each means.
const Words& view_words();
const char* to_string(BitView view);

// Packed views come in groups: `outputs` outputs of b bits make `words` 32-bit words.
struct PackedGroup {
    int outputs;
    int words;
};
PackedGroup packed_group(int bits);
// The group of any view: packed as above, box-muller pairs, one output a word otherwise.
PackedGroup view_group(BitView view, int bits);

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
