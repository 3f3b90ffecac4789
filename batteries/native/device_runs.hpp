// The counts of sstring_PeriodsInStrings, sknuth_Run, sstring_LongestHeadRun and sstring_Run
// computed on the CUDA device a stream runs on (device_runs_counts.hpp's algorithms, built into
// device_runs_cuda.cu), for the families' hooks (sstring_bits.cpp, sknuth_order.cpp,
// bit_runs.cpp): the integers come back and the family joins them and computes its statistics
// with the code of its CPU path.
//
// As device.hpp: each function decides at its start (nullopt, false or nullptr, with nothing
// read, where the stream's words cannot be written into device memory: the family then runs its
// CPU path); once words were read, a failure throws std::runtime_error with a one-line message.
#pragma once

#include "generators/portable.hpp" // RNGVET_HD
#include "source.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rngvet::native {

// sstring_PeriodsInStrings's counts of the J correlations of strings of s bits (`correlations`,
// CreateCorr's list in its order) among the n numbers of each of its N replications: N rows of J
// counts, in the list's order.
std::optional<std::vector<std::vector<std::uint64_t>>> device_period_histograms(
    Numbers& in, long N, long n, int r, int s, const std::vector<std::uint32_t>& correlations);

// The runs of ones of a piece of a bit string: whether it holds a zero, its leading ones, its
// trailing ones and its longest run (all of them its length where it holds no zero). Pieces
// joined in order give the same for the whole string.
struct OnesRuns {
    long lead = 0;
    long trail = 0;
    long best = 0;
    bool zero = false;
};

// a followed by b.
RNGVET_HD OnesRuns join_runs(const OnesRuns& a, const OnesRuns& b)
{
    OnesRuns j;
    j.zero = a.zero || b.zero;
    j.lead = a.zero ? a.lead : a.lead + b.lead;
    j.trail = b.zero ? b.trail : b.trail + a.trail;
    const long across = a.trail + b.lead;
    j.best = a.best > b.best ? a.best : b.best;
    if (across > j.best) j.best = across;
    return j;
}

// sstring_LongestHeadRun's sequences: for each of N replications, the runs of ones of each of its
// n sequences of K numbers of s bits (StripB (r, s)).
std::optional<std::vector<std::vector<OnesRuns>>> device_head_runs(
    Numbers& in, long N, long n, int r, int s, long K);

// sknuth_Run's runs in a stretch of a replication's values: the values before its first break (a
// value that ends the run before it), the complete runs between breaks by length (6 for >= 6),
// and the values from its last break on (at most 6).
struct RunBlock {
    bool broken = false;
    long head = 0; // values before the first break (all of them if none)
    long tail = 0;
    long count[7] = {};
};

// sknuth_Run on the device: for each of N replications of n values StripD(r), in stream order,
// chunk(replication, first value, values, summary) for each chunk of values; false, with nothing
// read and chunk never called, where the stream cannot write device memory.
using RunChunkDone = std::function<void(long, long, long, const RunBlock&)>;
bool device_run_chunks(Numbers& in, long N, long n, int r, bool up, const RunChunkDone& chunk);

// sstring_Run's scan of one block of numbers of s bits (StripB (r, s)) on the device (bit_runs.cpp
// joins the blocks): the transitions between runs (a bit unlike the one before it).
struct BitRunBlock {
    // [next bit][min(length, k)] of the runs ended by the block's transitions after its first:
    // next bit 1 ends a run of 0s.
    std::vector<std::uint64_t> classes;
    std::uint64_t starts_of_ones = 0; // transitions to a 1
    bool any = false; // a transition in the block
    std::uint64_t first = 0; // bit position of the first transition, in the block
    int first_bit = 0; // the bit after it
    std::uint64_t last = 0; // bit position of the last transition, in the block
    int last_bit = 0; // the block's last bit
};

class DeviceBitRunScan {
public:
    virtual ~DeviceBitRunScan() = default;
    // Blocks of at most this many numbers.
    virtual std::size_t max_words() const = 0;
    // Reads the next `size` numbers and scans them after a bit `prev` (0 or 1; -1 for the
    // first block of a replication: its first bit is a transition). False, with nothing read,
    // where the test's first block finds no device memory to write.
    virtual bool scan(std::size_t size, int prev, BitRunBlock& out) = 0;
};
// nullptr, with nothing read, where the stream cannot write device memory; k is the last class
// of run lengths.
std::unique_ptr<DeviceBitRunScan> device_bit_run_scan(Numbers& in, int r, int s, int k);

} // namespace rngvet::native
