// sknuth_Gap on the CUDA device a stream runs on, reading ahead (device_ahead_counts.hpp's
// algorithm, built into device_ahead_cuda.cu): large blocks of words are written into device
// memory, the scan finds on the device where TestU01's test stops (its n-th gap completed, or a
// gap longer than n), and the words past that point are kept for the next replication or, at the
// end of the test, given back to the stream (Numbers::give_back), so that the numbers consumed
// are TestU01's (docs/native.md, "Reading ahead").
//
// As device.hpp's functions: nullptr, with nothing read, where the stream cannot write device
// memory or take words back (the family then takes device.hpp's bounded scan or its CPU path);
// once words were read, a failure throws std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace rngvet::native {

// What one scan consumed of the stream, as gap.cpp's GapPart for one block: the first visit of
// [alpha, beta) (-1 for none), the visits, the numbers after the last one (all of them where
// there is none), and counts[0..t] the gaps between the visits by length, capped at t.
struct GapAheadPart {
    long first = -1;
    long visits = 0;
    long trailing = 0;
    std::vector<long> counts;
};

class DeviceGapAhead {
public:
    virtual ~DeviceGapAhead() = default;
    // Scans on from where the last scan stopped, in a replication of sknuth_Gap with n gaps of
    // which `need` are still to complete, `reads` numbers (none in [alpha, beta)) read in the
    // current one: `part` is what TestU01's test consumes next, up to its stop where the stop is
    // among the words in device memory (its last visit; or, for a gap longer than n, that gap's
    // (n+1)-th number, or the word before where the gap is not the first of the scan). False,
    // with nothing read, where the test's first scan finds no device memory to write.
    virtual bool scan(long reads, long need, GapAheadPart& part) = 0;
    // Gives the words read ahead and not consumed back to the stream; called once, at the end
    // of the test.
    virtual void give_back() = 0;
};

// For sknuth_Gap(N, n, r, alpha, beta) with t classes (gap.cpp); nullptr, with nothing read,
// where the stream cannot write device memory or take words back.
std::unique_ptr<DeviceGapAhead> device_gap_ahead(
    Numbers& in, int r, double alpha, double beta, long t, long n);

} // namespace rngvet::native
