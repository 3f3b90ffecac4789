#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> max_oft_tests() { return {}; }

} // namespace rngvet::native
