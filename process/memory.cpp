#include "memory.hpp"

#include "generators/error.hpp"

#include <climits>
#include <cstdio>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rngvet {

std::uint64_t physical_memory()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

bool fits_in_memory(std::uint64_t count, std::uint64_t size, std::uint64_t physical)
{
    if (physical == 0 || size == 0) return true;
    return count <= physical / 2 / size;
}

void check_fits_in_memory(std::uint64_t bytes, const std::string& what)
{
    const std::uint64_t memory = physical_memory();
    if (!fits_in_memory(bytes, 1, memory)) {
        char line[160];
        std::snprintf(line, sizeof line,
            "%s needs about %.1f GiB of memory; this machine has %.1f GiB", what.c_str(),
            double(bytes) / double(1ull << 30), double(memory) / double(1ull << 30));
        throw InputError(line);
    }
}

void keep_freed_memory()
{
#if defined(__GLIBC__)
    ::mallopt(M_MMAP_MAX, 0);
    ::mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

} // namespace rngvet
