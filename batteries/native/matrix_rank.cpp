#include "families.hpp"

namespace rngvet::native {

std::vector<NativeTest> matrix_rank_tests() { return {}; }

} // namespace rngvet::native
