// The choice of --backend auto, by measuring the candidates' throughput (bench.hpp), once per run.
#pragma once

#include "generators/configuration.hpp"
#include "kernels/backend.hpp"

#include <string>

namespace rngvet {

// --backend auto: measures the configuration's delivery rate to host memory (Stream::take, as
// the TestU01 feed reads it) on the GPU backend (cuda, else opencl on a GPU device) and on
// openmp (else cpu), each for about `seconds` after a warm-up launch, in a child process (as
// check_backend_stream), and returns the faster one. With `jobs` worker processes each worker
// has its own stream: the host backend's rate is divided by jobs (the workers share the host's
// cores, which the batteries need as well), the GPU's is not (each worker's stream is a queue
// of its own on the device; the measured rate is one stream's). `report` gets one line per
// candidate and the choice. Without a GPU backend: openmp (or cpu), without measuring.
// $RNGVET_AUTO_GPU names a backend to take the GPU's place (tests on machines without one).
Backend resolve_auto_backend(const Configuration& c, const BackendOptions& options,
    std::string* report = nullptr, int jobs = 1, double seconds = 0.2);

} // namespace rngvet
