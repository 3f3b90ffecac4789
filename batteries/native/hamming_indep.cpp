#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> hamming_indep_tests() { return {}; }

} // namespace rngvet::native
