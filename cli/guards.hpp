// Checks that keep stored results whole: outputs that would overwrite an input, files written
// so that a failure leaves the previous file intact, the inputs that define a run's stream,
// and parameter sets checked before use. Each refusal is a one-line InputError.
#pragma once

#include "generators/configuration.hpp"
#include "process/memory.hpp" // check_fits_in_memory

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet::cli {

// Refuses `out` (given with `option`, e.g. "--out") when it is the same file (same device and
// inode) as one of `inputs`; inputs that do not exist are ignored.
void refuse_overwriting_input(
    const std::string& out, const char* option, const std::vector<std::string>& inputs);

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`, so a failed or killed write leaves the previous file as it was. A path that is not a
// regular file (a device such as /dev/null, a pipe) is written in place. Throws
// std::runtime_error naming the file and the system's reason when a write fails.
void write_file_atomically(const std::string& path, const std::string& content);

// Opens `path`, which exists and is not a regular file (a device, a FIFO), for writing in
// place. A FIFO that no process reads is a failure (std::runtime_error), not a wait without
// end. Returns the descriptor, blocking as usual once open.
int open_special_output(const std::string& path);

// Refuses a --log FILE whose directory does not exist or cannot be written.
void check_log_path(const std::string& path);

// The external input of a stdin32, stdin64, file: or file64: configuration, checked before a
// run is stored: a file must be a readable regular file of whole words (4 bytes for file:, 8
// for file64:), at least one (its SHA-256 is returned, to be stored and compared on resume);
// standard input must not be empty (nothing is consumed). Returns "" for other generators.
std::string check_external_input(const Configuration& config);

// mtdc parameter sets are checked as `rngvet dc verify` checks them (layout, primitive
// characteristic polynomial, distinct ids and polynomials) before a run or a stream uses
// them. A file that passed once is remembered by its SHA-256 in the user's cache
// ($XDG_CACHE_HOME/rngvet or ~/.cache/rngvet), so a known file costs nothing the next time.
// With allow_unverified the check is skipped and the result says so. Returns what the run
// records: "" (no parameter sets), "verified", "verified (cached)", "unverified (allowed)".
std::string check_param_sets(const Configuration& config, bool allow_unverified);

} // namespace rngvet::cli
