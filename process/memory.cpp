#include "memory.hpp"

#include "generators/error.hpp"

#include <cstdio>
#include <unistd.h>

namespace rngvet {

void check_fits_in_memory(std::uint64_t bytes, const std::string& what)
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return;
    const double memory = double(pages) * double(page_size);
    if (double(bytes) > memory / 2) {
        char line[160];
        std::snprintf(line, sizeof line,
            "%s needs about %.1f GiB of memory; this machine has %.1f GiB", what.c_str(),
            double(bytes) / double(1ull << 30), memory / double(1ull << 30));
        throw InputError(line);
    }
}

} // namespace rngvet
