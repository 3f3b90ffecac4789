#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> birthday_spacings_tests() { return {}; }

} // namespace rngvet::native
