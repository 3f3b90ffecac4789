// The host's grid: runs a kernel body (grid.hpp) for every block and thread on the CPU, so that
// every body, including those only GPUs run in production, is checked bit for bit against the
// reference engines in CI (tests/test_kernel_bodies.cpp). Not a production path: the OpenMP
// backend keeps its own loops, which need no fibers.
#pragma once

#include "kernels/grid.hpp"

#include <cstdint>
#include <functional>

namespace rngvet {

// body(block, thread) for blocks 0 .. blocks - 1, one block after the other. The threads of a
// block are cooperative fibers on the calling thread: each runs until its next host_barrier()
// (RV_SYNC_WARP / RV_SYNC_BLOCK) or its end, and a barrier is passed once every thread of the
// block that has not ended has reached it, as on a GPU. `reverse` resumes the threads in the
// opposite order between barriers, so that a body that reads what another thread writes
// between the same two barriers (a race on a GPU) gives a different result in one of the
// two orders. begin_block(block), if given, runs before a block's threads (e.g. to fill its
// scratch with garbage, as a GPU's shared memory holds at the start of a block).
void host_launch(std::uint64_t blocks, unsigned threads,
    const std::function<void(std::uint64_t block, unsigned thread)>& body, bool reverse = false,
    const std::function<void(std::uint64_t block)>& begin_block = nullptr);

} // namespace rngvet
