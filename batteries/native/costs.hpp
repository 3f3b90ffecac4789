// How long the native form of a Crush or BigCrush test took in a measured whole-battery run, for
// the sharded runner's order (longest first: the tests that would otherwise end the run alone
// start first). The native forms' times differ from TestU01's functions' (catalogue.hpp's cost):
// BigCrush's ClosePairs is the longest native test, LinearComp one of the shortest, and the
// families computed on a CUDA device take a fraction of their time on host cores.
#pragma once

#include <string>

namespace rngvet::native {

// Wall seconds of test `number` of `battery` ("crush", "bigcrush") in a sharded run on 16 cores,
// its stream on a CUDA device (on_device) or on the host; -1 where no run measured it. Only for
// ordering tests: the figures depend on the machine and the generator.
double measured_seconds(const std::string& battery, int number, bool on_device);

} // namespace rngvet::native
