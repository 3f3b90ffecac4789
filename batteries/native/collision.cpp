#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> collision_tests() { return {}; }

} // namespace rngvet::native
