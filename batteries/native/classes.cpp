#include "classes.hpp"

extern "C" {
#include <testu01/gofs.h>
}

namespace rngvet::native {

long merge_classes_quietly(double* expected, long* loc, long& smin, long& smax)
{
    long classes = 0;
    long run_start = smin; // start of the last merged run
    for (long s = smin; s <= smax; ++s, ++classes) {
        if (!(expected[s] < gofs_MinExpected)) {
            loc[s] = s;
            continue;
        }
        run_start = s;
        double sum = expected[s];
        while (sum < gofs_MinExpected && s < smax) {
            expected[s] = 0.0;
            sum += expected[++s];
        }
        expected[s] = sum;
        for (long j = run_start; j <= s; ++j)
            loc[j] = s;
    }
    smin = loc[smin];
    if (expected[smax] < gofs_MinExpected) {
        if (run_start > smin) --run_start;
        expected[run_start] += expected[smax];
        expected[smax] = 0.0;
        --classes;
        for (long j = run_start + 1; j <= smax; ++j)
            loc[j] = run_start;
        smax = run_start;
    }
    return classes;
}

} // namespace rngvet::native
