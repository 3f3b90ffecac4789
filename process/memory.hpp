// What this machine gives a process: sizes are refused before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

namespace rngvet {

// This machine's physical memory in bytes (sysconf), or 0 when the system does not say.
std::uint64_t physical_memory();

// The one rule of the memory bound: `count` items of `size` bytes fit when they take at most
// half of `physical` bytes (count * size is not formed, so it cannot wrap). A machine whose
// memory is unknown (physical = 0) bounds nothing. check_fits_in_memory and the host buffers of
// the backends (check_host_memory, kernels/device.hpp) both ask it with physical_memory().
bool fits_in_memory(std::uint64_t count, std::uint64_t size, std::uint64_t physical);

// Refuses (InputError) a size whose `bytes` would take more than half of this machine's memory,
// before anything is allocated (`what` names the option, e.g. "--instances 100000000").
void check_fits_in_memory(std::uint64_t bytes, const std::string& what);

// For a process that allocates and frees large buffers over and over, as the native test
// workers do (batteries/runner.cpp): what it frees stays with it for its next allocation instead
// of going back to the system, so that a buffer does not pay its pages' first-touch faults again
// (glibc: no chunks of their own mappings, no trimming below 2 GiB). What the process holds is
// then its largest use so far. Crush of ranmar48 on backend openmp, --jobs 2, on the 2-core
// machine: 296 -> 249 CPU s of tests, system time 39 -> 15 s. Nothing where the C library is not
// glibc.
void keep_freed_memory();

} // namespace rngvet
