// The class merging of TestU01's chi-square tests, for native tests (native.hpp).
#pragma once

namespace rngvet::native {

// gofs_MergeClasses (TestU01's probdist/gofs.c) without the warning it prints on standard output
// when fewer than two classes are left (a native test prints nothing). Going up from smin, a
// class expecting fewer than gofs_MinExpected numbers absorbs the next ones until their sum
// reaches it: the sum is kept in the last of them, the others are set to 0, and loc of each
// points to the last. If the class at smax still expects too few, it is folded into the start
// of the last merged run (or the class before it), which becomes smax. The expected numbers are
// summed in TestU01's order. Returns the number of classes.
long merge_classes_quietly(double* expected, long* loc, long& smin, long& smax);

} // namespace rngvet::native
