#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> random_walk_tests() { return {}; }

} // namespace rngvet::native
