// Identified Mersenne Twister parameter sets (Dynamic Creator output) and their file formats.
//
// Two formats are read (generators/params/README.md names the published files):
//
// * NVIDIA SDK binary (.dat): records of 4 little-endian uint32 {matrix_a, mask_b, mask_c,
//   seed}, p = 607, set id = record index. The seed field is not used (0 in the SDK file).
//
// * rngvet text format (also written by `rngvet dc create`):
//
//       # comment lines ('#' to end of line; blank lines are ignored)
//       p=521 w=32 dc_seed=4172          header: whitespace-separated key=value tokens
//       0 cef725c0 a5b6dd80 ffd58000     one set a line: id (decimal) aaa maskB maskC (hex,
//       1 f4ba7e01 b4b4dd80 ffd58000     optional 0x), optionally followed by '# comment'
//
//   Header keys p (required) and w / ww (32 only) fix the layout; mm, nn, rr, wmask, umask,
//   lmask, shift0, shift1, shiftB, shiftC may be given and must then match DC's layout for p
//   (mt_params_for). creator (rngvet or dcmt-0.6.1) and dc_seed, written by `rngvet dc
//   create`, are kept in MtParamSet for reports. Other keys are ignored.
//   Files made before this format, such as the Fixstars MT521 table, state the layout only in
//   comments: key=value tokens with those known keys inside the comment lines that precede
//   the first set are read the same way ("(w=32, p=521)" works).
//
// Every load records the SHA-256 of the file's bytes: the content hash that runs record.
// Errors are InputError (a std::runtime_error) with one line naming the file and the problem
// (and the line number for text files).
#pragma once

#include "mt.hpp"
#include "words.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

struct MtParamSet {
    std::string source; // "nvidia-sdk-mt607", "fixstars-mt521", or the file path
    int p = 0; // Mersenne exponent shared by all sets
    std::vector<MtParams> sets;
    std::vector<std::uint32_t> ids; // ids[i] identifies sets[i]
    std::string sha256; // SHA-256 hex of the file's bytes ("" when not from a file)
    std::string creator; // header key creator= ("" when not stated)
    std::string dc_seed; // header key dc_seed= ("" when not stated)
};

// The SDK's Mersenne exponent: its .dat format does not record p.
inline constexpr int sdk_dat_p = 607;

// Parses SDK .dat bytes; `source` names them in error messages and in the result.
MtParamSet parse_sdk_dat(const std::string& bytes, const std::string& source);

// Parses the text format; `source` names the text in error messages and in the result.
MtParamSet parse_param_text(const std::string& text, const std::string& source);

// Reads a file in either format: .dat by extension, or any file holding a NUL byte, is read
// as SDK binary; anything else as text.
MtParamSet load_param_file(const std::string& path);

// Parameter sets compiled into rngvet, byte for byte (generators/params/README.md):
// "fixstars-mt521": the 32 MT521 sets of "The OpenCL Programming Book" (mt521_fixstars32.txt);
// "nvidia-sdk-mt607": the NVIDIA CUDA SDK's 4096 MT607 sets (MersenneTwister.dat).
// Their names and what each is (--params help, rngvet list, the bash completion).
const Words& builtin_param_set_words();
std::vector<std::string> builtin_param_set_names();
MtParamSet builtin_param_set(const std::string& name);

// A built-in name, or else a file path.
MtParamSet load_param_set(const std::string& name_or_path);

// The text format for `set`: `comments` become '#' lines at the top, then the header line
// (p, w and `extra_header`, e.g. "dc_seed=4172"), then one line per set, with
// set_comments[i] (if given and non-empty) after it as '# ...'.
std::string format_param_text(const MtParamSet& set, const std::vector<std::string>& comments,
    const std::string& extra_header = "", const std::vector<std::string>& set_comments = {});

struct Configuration;

// mtdc: the parameter sets of the configuration: config.param_sets when they were loaded from
// config.params, else read now (a configuration built by hand; family_mt.cpp). Throws
// InputError.
std::shared_ptr<const MtParamSet> mtdc_param_set(const Configuration& config);

// The parameters and seeded states of every instance of a validated mtdc / mt19937
// configuration: what make_stream builds, for backends that seed on the host (kernels/).
void mt_instance_states(
    const Configuration& config, std::vector<MtParams>& params, std::vector<MtState>& states);

} // namespace rngvet
