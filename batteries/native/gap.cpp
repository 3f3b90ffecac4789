#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> gap_tests() { return {}; }

} // namespace rngvet::native
